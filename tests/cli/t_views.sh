#!/usr/bin/env bash
# CLI: top, fold, flame, diff, merge, pack --coalesce and --from/--to on
# profiles written here (Rprof text the project generates itself).
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_views: FAIL: $*" >&2; exit 1; }

# a: 3 x main>f>f>g (recursion), 1 x main>f, 2 x main>h, every 20 ms
{
  echo 'sample.interval=20000'
  for i in 1 2 3; do echo '"g" "f" "f" "main" '; done
  echo '"f" "main" '
  echo '"h" "main" '; echo '"h" "main" '
} > "$tmp/a.out"

"$PCOL" top "$tmp/a.out" --format csv --value samples > "$tmp/top.csv" || fail "top on an Rprof file"
cat > "$tmp/want.csv" <<'X'
flat,flat_pct,sum_pct,cum,cum_pct,name,inline,unit
3,50.00,50.00,3,50.00,g,NA,count
2,33.33,83.33,2,33.33,h,NA,count
1,16.67,100.00,4,66.67,f,NA,count
0,0.00,100.00,6,100.00,main,NA,count
X
diff -u "$tmp/want.csv" "$tmp/top.csv" || fail "top csv"
# an Rprof source's default value is its time, 20 ms a tick (summaryRprof's seconds)
"$PCOL" top "$tmp/a.out" --format csv > "$tmp/top.csv" || fail "top on an Rprof file"
cat > "$tmp/want.csv" <<'X'
flat,flat_pct,sum_pct,cum,cum_pct,name,inline,unit
60000000,50.00,50.00,60000000,50.00,g,NA,nanoseconds
40000000,33.33,83.33,40000000,33.33,h,NA,nanoseconds
20000000,16.67,100.00,80000000,66.67,f,NA,nanoseconds
0,0.00,100.00,120000000,100.00,main,NA,nanoseconds
X
diff -u "$tmp/want.csv" "$tmp/top.csv" || fail "top csv, default value"
# the count checks below name the count (an Rprof source defaults to its time)
V="--value samples"
"$PCOL" top $V "$tmp/a.out" -n 1 --format csv | wc -l | grep -qx 2 || fail "top -n 1"
"$PCOL" top "$tmp/a.out" | grep -qx 'Type: cpu' || fail "top text header: Rprof defaults to its time"
"$PCOL" top $V "$tmp/a.out" | grep -qx 'Type: samples' || fail "top text header"
"$PCOL" top $V "$tmp/a.out" --format json | grep -q '"cum":4,"cum_pct":66.67,"name":"f","inline":null,"unit":"count"' || fail "top json"
"$PCOL" top $V "$tmp/a.out" --by nope 2>/dev/null; [ $? = 2 ] || fail "bad --by is a usage error"
"$PCOL" top $V "$tmp/a.out" --value nope 2>"$tmp/err"; [ $? = 1 ] || fail "unknown value type exit"
grep -q "no value type 'nope' (the file has: samples (each source's own count: pprof's samples/count, Rprof ticks), " "$tmp/err" ||
  fail "unknown value type message (samples, a count, apart from the stored types): $(cat "$tmp/err")"

# peek: f is called by main (4 samples; f -> f is no call) and calls g (3)
"$PCOL" peek $V "$tmp/a.out" '^f$' --format csv > "$tmp/peek.csv" || fail "peek csv"
cat > "$tmp/want.csv" <<'X'
node,relation,name,flat,cum,value,pct,inline,unit
f,caller,main,NA,NA,4,100.00,0,count
f,node,f,1,4,NA,NA,NA,count
f,callee,g,NA,NA,3,75.00,0,count
X
diff -u "$tmp/want.csv" "$tmp/peek.csv" || fail "peek csv"
"$PCOL" peek $V "$tmp/a.out" '^f$' | grep -q '^         1 16.67% 16.67%          4 66.67%                | f$' || fail "peek text"
"$PCOL" peek $V "$tmp/a.out" zz >"$tmp/out" 2>"$tmp/err"; [ $? = 1 ] || fail "peek without a match exits 1"
[ -s "$tmp/out" ] && fail "peek without a match prints no report"
grep -q "no matches found for regexp: zz" "$tmp/err" || fail "peek no-match message"
"$PCOL" peek $V "$tmp/a.out" '(' 2>"$tmp/err"; [ $? = 2 ] || fail "peek bad regex is a usage error"
grep -q "bad regular expression" "$tmp/err" || fail "peek bad regex message"

# tree (pprof -tree): untrimmed it is peek of every node (pprof's -peek . is
# -tree without its trimming), by flat or by cum; the output budget holds it
for s in flat cum; do
  "$PCOL" tree $V "$tmp/a.out" --node-fraction 0 --edge-fraction 0 --node-count 0 --sort $s --format csv >"$tmp/tree.csv" &&
    "$PCOL" peek $V "$tmp/a.out" . --sort $s --format csv >"$tmp/peek.csv" || fail "tree/peek csv --sort $s"
  cmp -s "$tmp/tree.csv" "$tmp/peek.csv" || fail "untrimmed tree --sort $s is not peek of every node: $(diff "$tmp/tree.csv" "$tmp/peek.csv")"
done
[ "$(grep -c ',node,' "$tmp/tree.csv")" = 4 ] || fail "tree: 4 nodes (main, f, g, h)"
"$PCOL" tree $V "$tmp/a.out" --node-count 1 | grep -q '^Showing top 1 nodes out of 4$' || fail "tree: node count line"
"$PCOL" tree $V "$tmp/a.out" --sort name 2>"$tmp/err"; [ $? = 2 ] || fail "tree --sort name is a usage error"
"$PCOL" tree $V "$tmp/a.out" --max-output 100 >"$tmp/out" 2>"$tmp/err"; [ $? = 3 ] || fail "tree past --max-output exits 3"
grep -q "output budget of 100 bytes" "$tmp/err" || fail "tree budget message: $(cat "$tmp/err")"

# list: Rprof srcrefs against a source file found through --source-path
printf 'line profiling: sample.interval=20000\n#File 1: a.R\n1#2 "f" \n1#3 "f" \n"g" 1#3 "f" \n' >"$tmp/l.out"
mkdir -p "$tmp/src"
printf 'f <- function() {\n  x <- 1\n  g(x)\n}\n' >"$tmp/src/a.R"
"$PCOL" list $V "$tmp/l.out" '^f$' --source-path "$tmp/src" >"$tmp/list.txt" || fail "list"
cat >"$tmp/want.txt" <<'X'
Total: 3
ROUTINE ======================== f in a.R
         3          3 (flat, cum)   100% of Total
         .          .      1:f <- function() {
         1          1      2:  x <- 1
         2          2      3:  g(x)
         .          .      4:}
X
diff -u "$tmp/want.txt" "$tmp/list.txt" || fail "list text"
"$PCOL" list $V "$tmp/l.out" . --by file --format csv --source-path "$tmp/src" | grep -qx 'NA,a.R,3,2,2,  g(x),count' ||
  fail "list --by file csv"
# by file, a file's cum counts a sample once (as top --by file): here line
# 2 calls f of line 5, and the sum of the lines' cums (6 of 3, 200 % of
# the total) was printed as the file's
printf 'line profiling: sample.interval=20000\n#File 1: b.R\n1#5 "f" 1#2 "main" \n1#5 "f" 1#2 "main" \n1#5 "f" 1#2 "main" \n' >"$tmp/b.out"
printf 'main <- function() {\n  f()\n}\nf <- function() {\n  x <- 1\n}\n' >"$tmp/src/b.R"
"$PCOL" list $V "$tmp/b.out" . --by file --source-path "$tmp/src" | sed -n 3p >"$tmp/list.txt"
echo '         3          3 (flat, cum)   100% of Total' | diff -u - "$tmp/list.txt" || fail "list --by file: the file's cum"
"$PCOL" top $V "$tmp/b.out" --by file --format csv | grep -qx '3,100.00,100.00,3,100.00,b.R,NA,count' ||
  fail "top --by file of b.out"
abs=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
(cd / && "$abs" list $V "$tmp/l.out" f) | grep -qx ' Error: could not find file a.R on path /' || fail "list: source not found"
"$PCOL" list $V "$tmp/l.out" zz 2>/dev/null; [ $? = 1 ] || fail "list without a match exits 1"

# info: each source first (period, samples and their time span, values)
"$PCOL" info "$tmp/a.out" >"$tmp/info.txt" || fail "info"
grep -qx '  period:        20ms (sample.interval)' "$tmp/info.txt" || fail "info period"
grep -qx '  samples:       6, at 0 .. 100ms' "$tmp/info.txt" || fail "info samples"
grep -q '^format_version:' "$tmp/info.txt" || fail "info keeps the file's layout after the sources"
"$PCOL" info "$tmp/a.out" --format json | tr -d "\n" | grep -q '"type":"cpu","unit":"nanoseconds","total":120000000,.*"samples":6,"first_ns":0,"end_ns":100000000' ||
  fail "info json"

# --by label:KEY and a bad --by
"$PCOL" top $V "$tmp/a.out" --by label:none --format csv 2>"$tmp/err"; [ $? = 1 ] && grep -q "no label 'none'" "$tmp/err" ||
  fail "top --by label: a key no label has is an error (exit 1) that names it"
"$PCOL" diff $V "$tmp/a.out" "$tmp/a.out" --by label:x 2>/dev/null; [ $? = 2 ] || fail "diff --by label is a usage error"

# diff --format json: an object with type, unit, both totals and what the numbers are
"$PCOL" diff $V "$tmp/a.out" "$tmp/a.out" --format json | head -1 |
  grep -q '^{"command":"diff","file":"[^"]*a.out","type":"samples","unit":"count","total":6,"base":"[^"]*a.out","base_total":6,"numbers":"percent' ||
  fail "diff json object"

# diff --from/--to: each side's own part of that range (each from its own
# start): its base_flat and new_flat are top's flat of each side's range
"$PCOL" diff examples/demo.out "$tmp/a.out" --absolute --value samples --from 0.04 --to 0.3 --node-fraction 0 --format csv >"$tmp/dr.csv" || fail "diff --from --to"
for side in examples/demo.out "$tmp/a.out"; do
  "$PCOL" top "$side" --value samples --from 0.04 --to 0.3 --node-fraction 0 --format csv | awk -F, 'NR>1 && $1 != 0 {print $6 "=" $1}' | sort >"$tmp/tr.$(basename "$side")"
done
[ "$(awk -F, 'NR>1 && $1 != 0 {print $7 "=" $1}' "$tmp/dr.csv" | sort)" = "$(cat "$tmp/tr.demo.out")" ] &&
  [ "$(awk -F, 'NR>1 && $2 != 0 {print $7 "=" $2}' "$tmp/dr.csv" | sort)" = "$(cat "$tmp/tr.a.out")" ] &&
  [ -s "$tmp/tr.demo.out" ] || fail "diff --from --to: not each side's top of the range: $(cat "$tmp/dr.csv")"
"$PCOL" diff examples/demo.out examples/demo.out --absolute --from 0.1 --to 0.3 --format json | grep -q '"total":200000000,' ||
  fail "diff --from 0.1 --to 0.3 of demo.out: not its 200 ms"

# the derived values of an Rprof memory profile are named: by info, and in
# the list an unknown --value prints
printf 'memory profiling: sample.interval=20000\n:100:200:300:4:"f" \n:150:200:300:4:"g" "f" \n' >"$tmp/m.out"
"$PCOL" info "$tmp/m.out" | grep -q '^  derived: .*cpu/nanoseconds.*rprof.alloc/bytes' || fail "info names the derived values"
"$PCOL" top $V "$tmp/m.out" --value nope 2>&1 | grep -q 'rprof.alloc/bytes (derived)' || fail "an unknown --value lists rprof.alloc"

# ranges: [40 ms, 100 ms) holds samples 3..5 (g, f, h)
"$PCOL" top $V "$tmp/a.out" --from 0.04 --to 0.1 --format csv | grep -c ',g,NA,count$\|,f,NA,count$\|,h,NA,count$' | grep -qx 3 ||
  fail "top --from/--to"

# coalesced twin answers boundary ranges like the raw file
"$PCOL" pack "$tmp/a.out" -o "$tmp/raw.pcol" || fail pack
"$PCOL" pack --coalesce "$tmp/a.out" -o "$tmp/co.pcol" || fail "pack --coalesce"
"$PCOL" validate --full "$tmp/co.pcol" >/dev/null || fail "coalesced file invalid"
n=$("$PCOL" cat "$tmp/co.pcol" --table samples --format csv | tail -n +2 | wc -l)
[ "$n" = 3 ] || fail "coalesced rows: $n, want 3"
for r in "" "--from 0.02" "--to 0.04" "--from 0.02 --to 0.1" "--from 0.06 --to 0.08"; do
  cmp -s <("$PCOL" top $V "$tmp/raw.pcol" $r --format csv) <("$PCOL" top $V "$tmp/co.pcol" $r --format csv) ||
    fail "raw and coalesced differ for '$r'"
done

# fold
"$PCOL" fold $V "$tmp/a.out" > "$tmp/fold" || fail fold
printf 'main;f 1\nmain;f;f;g 3\nmain;h 2\n' | diff -u - "$tmp/fold" || fail "fold output"
"$PCOL" fold $V "$tmp/raw.pcol" --to 0.04 | diff -u <(printf 'main;f;f;g 2\n') - || fail "fold --to"

# merge keeps both sources; --source picks one
{
  echo 'sample.interval=20000'
  echo '"k" "main" '; echo '"k" "main" '
} > "$tmp/b.out"
"$PCOL" merge "$tmp/raw.pcol" "$tmp/b.out" -o "$tmp/m.pcol" || fail merge
"$PCOL" cat "$tmp/m.pcol" --table sources --format csv | tail -n +2 | wc -l | grep -qx 2 || fail "merged sources"
"$PCOL" top $V "$tmp/m.pcol" --source 2 --format csv | tail -n +2 | cut -d, -f6 | sort | tr '\n' ' ' |
  grep -qx 'k main ' || fail "top --source 2"
"$PCOL" top $V "$tmp/m.pcol" --format csv | grep -q '^0,0.00,[0-9.]*,8,100.00,main,NA,count$' || fail "merged top main cum"
"$PCOL" cat "$tmp/m.pcol" --table functions --format csv | grep -c ',main,' | grep -qx 1 || fail "main not shared"

# diff
"$PCOL" diff $V "$tmp/a.out" "$tmp/b.out" --absolute --format csv > "$tmp/d.csv" || fail diff
head -1 "$tmp/d.csv" | grep -qx 'base_flat,new_flat,d_flat,base_cum,new_cum,d_cum,name' || fail "diff header"
# sorted as pprof -diff_base: by |change in flat| (g: 3 samples gone), then name
sed -n 2p "$tmp/d.csv" | grep -qx '3,0,-3,3,0,-3,g' || fail "diff rows: $(sed -n 2p "$tmp/d.csv")"
# --sort cum: f and main (cum -4), then by name
"$PCOL" diff $V "$tmp/a.out" "$tmp/b.out" --absolute --format csv --sort cum | sed -n 2,3p | tr '\n' ' ' |
  grep -qx '1,0,-1,4,0,-4,f 0,0,0,6,2,-4,main ' || fail "diff --sort cum rows"
"$PCOL" diff $V "$tmp/a.out" "$tmp/b.out" --format csv | grep -q '^0.0000,100.0000,100.0000,0.0000,100.0000,100.0000,k$' ||
  fail "normalised diff"
# diff --absolute's text when every cell shown is not 0 (issue 42 F11: -n 6
# wrote past its buffer): a real Go profile against itself merged twice, so
# each row's new is twice its base and its change is its base (+base)
gocpu="${PCOL_TESTDATA:-../shared/testdata}/pprof/go-cpu-inline-small.pb.gz"
if [ -f "$gocpu" ]; then
  "$PCOL" merge "$gocpu" "$gocpu" -o "$tmp/go2.pcol" || fail "merge of $gocpu with itself"
  for n in 1 2 3 4 5 6 7 8 9 10; do
    "$PCOL" diff "$gocpu" "$tmp/go2.pcol" --absolute --unit raw -n $n > "$tmp/d.txt" || fail "diff --absolute -n $n: exit $?"
    awk -v n=$n 'f && NF >= 7 { r++; if ($1 == 0 || $2 != 2 * $1 || $3 != "+" $1 || $5 != 2 * $4 || $6 != "+" $4) bad = bad " " $0 }
                 /base_flat/ { f = 1 } END { if (r != n || bad != "") { print r " rows:" bad; exit 1 } }' "$tmp/d.txt" ||
      fail "diff --absolute -n $n: $(cat "$tmp/d.txt")"
  done
fi

# flame
"$PCOL" flame $V "$tmp/a.out" -o "$tmp/f.svg" --title 'T <&>' || fail flame
grep -q '<title>⁨g⁩ (3, 50.00%)</title>' "$tmp/f.svg" || fail "flame hover text (a count alone, as go tool pprof -http's flame graph)"
grep -q '<text id="search"' "$tmp/f.svg" || fail "flame has a search button"
"$PCOL" flame $V "$tmp/a.out" --palette nope -o "$tmp/x.svg" 2>/dev/null; [ $? = 2 ] || fail "flame --palette nope"
"$PCOL" flame $V "$tmp/a.out" --minwidth 2x -o "$tmp/x.svg" 2>/dev/null; [ $? = 2 ] || fail "flame --minwidth 2x"
"$PCOL" flame $V "$tmp/a.out" --minwidth 40% --palette mem -o "$tmp/x.svg" || fail "flame --minwidth 40%"
[ "$(grep -c '<g data-x' "$tmp/x.svg")" = 5 ] || fail "flame --minwidth 40% keeps all, main, f, f, g"
grep -q '<title>⁨h⁩' "$tmp/x.svg" && fail "flame --minwidth 40% leaves h (33 %) out"
"$PCOL" flame $V "$tmp/a.out" --inverted -o "$tmp/x.svg" || fail "flame --inverted"
grep -q '<title>⁨all⁩[^<]*</title><rect x="10.00" y="50.0"' "$tmp/x.svg" || fail "flame --inverted: the root on top"
grep -q 'T &lt;&amp;&gt;' "$tmp/f.svg" || fail "flame title escaping"
if command -v xmllint >/dev/null; then xmllint --noout "$tmp/f.svg" || fail "flame SVG is not well-formed"; fi
"$PCOL" flame $V --diff "$tmp/a.out" "$tmp/b.out" -o "$tmp/d.svg" || fail "flame --diff"
grep -q 'change +' "$tmp/d.svg" || fail "diff flame hover text"
"$PCOL" flame $V "$tmp/a.out" 2>/dev/null; [ $? = 2 ] || fail "flame without -o is a usage error"
exit 0
