#!/usr/bin/env bash
# Rprof through the CLI: pack / unpack --to rprof round trips byte for byte
# (shipped demo, synthetic fixtures, the shared R test data), standard
# input/output, --source/--from/--to selection, and malformed input giving
# "FILE:LINE: ..." messages with exit status 1.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_rprof: $*" >&2; exit 1; }

files=(examples/demo.out tests/fixtures/rprof/*)
[ -d "$TD/rprof" ] && files+=("$TD"/rprof/*)
for f in "${files[@]}"; do
  b=$(basename "$f")
  $PCOL pack "$f" -o "$tmp/$b.pcol" || fail "pack $f"
  $PCOL validate --full "$tmp/$b.pcol" >/dev/null || fail "validate $b"
  $PCOL unpack "$tmp/$b.pcol" --to rprof -o "$tmp/$b.out" || fail "unpack $b"
  cmp -s "$f" "$tmp/$b.out" || fail "$b does not round trip byte for byte"
  # LZ4 sections and standard input/output give the same bytes
  $PCOL pack - --compress lz4 -o - < "$f" > "$tmp/$b.lz4.pcol" || fail "pack stdin $b"
  $PCOL unpack "$tmp/$b.lz4.pcol" -o - --to rprof | cmp -s - "$f" || fail "stdin/stdout $b"
done

# one samples row per sample line
n=$(grep -cv -e '^#File ' -e 'sample.interval=' examples/demo.out)
rows=$($PCOL cat "$tmp/demo.out.pcol" --table samples | tail -n +2 | wc -l)
[ "$n" = "$rows" ] || fail "demo: $rows samples for $n sample lines"

# --format rprof is detected; --from rprof forces it
$PCOL pack --from rprof tests/fixtures/rprof/append.out -o "$tmp/a.pcol" || fail "--from rprof"
$PCOL cat "$tmp/a.pcol" --table meta | grep -q 'rprof.segments.3' || fail "meta rprof.segments"
$PCOL cat "$tmp/a.pcol" --table meta | grep -q 'rprof.interval_us.10000' || fail "meta interval"
# its headers say 10000, 20000 and 10000 µs: info must not claim one period
$PCOL info "$tmp/a.pcol" | grep -q '^  period: *varies from 10ms to 20ms, 10ms in the first segment (sample.interval)$' ||
  fail "info of segments of 10 and 20 ms: $($PCOL info "$tmp/a.pcol" | grep period)"
printf 'sample.interval=10000\n"a" "main"\nsample.interval=2000\n"b" "main"\n' >"$tmp/two.out"
$PCOL info "$tmp/two.out" --format csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
  NR == 2 { exit !($c["period"] == 10000000 && $c["period_min"] == 2000000 && $c["period_max"] == 10000000) }' ||
  fail "info --format csv of a 10 ms + 2 ms file: $($PCOL info "$tmp/two.out" --format csv)"
$PCOL info tests/fixtures/rprof/crlf.out | grep -q '^  period: *[0-9]*ms (sample.interval)$' || fail "one interval: one period"

# (time ranges are tested in tests/test_rprof.c: `unpack` uses --to for the
# output format, so --from/--to selection is not reachable from this command)

# two inputs, two sources: --source picks one back out exactly
$PCOL pack tests/fixtures/rprof/crlf.out tests/fixtures/rprof/names.out -o "$tmp/two.pcol" || fail "pack two"
$PCOL unpack "$tmp/two.pcol" --to rprof --source 2 -o - | cmp -s - tests/fixtures/rprof/names.out ||
  fail "--source 2"
$PCOL unpack "$tmp/two.pcol" --to rprof --source 1 -o - | cmp -s - tests/fixtures/rprof/crlf.out ||
  fail "--source 1"

# malformed input: exit 1 and FILE:LINE in the message
bad() { # name, content, expected message part
  printf "$2" > "$tmp/$1"
  $PCOL pack --from rprof "$tmp/$1" -o "$tmp/bad.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] || fail "$1: exit $rc, expected 1"
  grep -qF "$3" "$tmp/err" || fail "$1: message '$(cat "$tmp/err")' lacks '$3'"
  [ -e "$tmp/bad.pcol" ] && fail "$1: output written despite the error"
  return 0
}
bad mem.out 'sample.interval=20000\n"f" \n:1:2:x:4:"f" \n' "mem.out:3: malformed memory prefix"
bad huge.out 'sample.interval=20000\n:1:2:3:99999999999999999999:\n' "huge.out:2: memory field 4 does not fit in 64 bits"
bad garbage.out 'sample.interval=20000\n"f" \n<html>\n' "garbage.out:3:1: not an Rprof header"
bad empty.out '' "empty.out: empty input"
bad bin.out '\001\002\003\000\377' "bin.out:1: not an Rprof file"
bad hdr.out 'memory profiling: sample.interval=\n' "hdr.out:1: malformed Rprof header"

# F2: Rprof memory fields are snapshots. memgc-snapshots.out (R 4.2,
# tests/r/memgc-snapshots.R: memory + GC + line profiling) has runs of equal lines
# with equal memory fields; --coalesce must keep them apart, so the round
# trip stays byte-identical and rprof.alloc (summaryRprof's memory increase)
# is the raw file's
m=tests/fixtures/rprof/memgc-snapshots.out
"$PCOL" pack $m -o "$tmp/m.pcol" && "$PCOL" pack $m --coalesce -o "$tmp/mc.pcol" || { echo "FAIL: pack $m"; exit 1; }
"$PCOL" unpack "$tmp/mc.pcol" --to rprof -o "$tmp/mc.out" && cmp -s $m "$tmp/mc.out" ||
  { echo "FAIL: $m --coalesce does not round-trip byte for byte"; exit 1; }
"$PCOL" top "$tmp/m.pcol" --value rprof.alloc --format csv >"$tmp/a1" &&
  "$PCOL" top "$tmp/mc.pcol" --value rprof.alloc --format csv >"$tmp/a2" && cmp -s "$tmp/a1" "$tmp/a2" ||
  { echo "FAIL: $m: rprof.alloc changes with --coalesce"; diff "$tmp/a1" "$tmp/a2" | head -5; exit 1; }

# A pprof sample whose default value is a time is its time in ticks of the
# interval written (doc/mappings.md §1.2): Node's wall profile (27 samples,
# times multiples of 10 ms) is sum / 10 ms lines, not 27; those lines are
# bounded by --max-output: one byte short of the export is refused (exit 3,
# the file named, nothing written), its size writes the same bytes.
nw="$TD/pprof/nodejs-wall.pb.gz"
if [ -f "$nw" ]; then
  $PCOL unpack "$nw" --to rprof -o "$tmp/nw.out" 2>"$tmp/err" || fail "unpack $nw --to rprof: $(cat "$tmp/err")"
  [ ! -s "$tmp/err" ] || fail "$nw: exact ticks, yet: $(cat "$tmp/err")"
  iv=$(sed -n '1s/^.*sample.interval=//p' "$tmp/nw.out")
  us=$($PCOL top "$nw" --unit us --format tsv | awk -F'\t' 'NR > 1 { s += $1 } END { print s }')
  lines=$(grep -cv -e '^#File ' -e 'sample.interval=' "$tmp/nw.out")
  [ "$lines" = "$((us / iv))" ] && [ $((us % iv)) = 0 ] ||
    fail "$nw: $lines sample lines at $iv us for $us us of wall time"
  n=$(stat -c %s "$tmp/nw.out")
  rm -f "$tmp/nb.out"
  $PCOL unpack "$nw" --to rprof -o "$tmp/nb.out" --max-output $((n - 1)) 2>"$tmp/err"; rc=$?
  [ $rc = 3 ] && grep -q "nodejs-wall.pb.gz: rprof export: .*set by --max-output" "$tmp/err" && [ ! -e "$tmp/nb.out" ] ||
    fail "$nw --max-output $((n - 1)) (its export is $n bytes): exit $rc, $(cat "$tmp/err")"
  $PCOL unpack "$nw" --to rprof -o "$tmp/nb.out" --max-output "$n" && cmp -s "$tmp/nb.out" "$tmp/nw.out" ||
    fail "$nw --max-output $n (its size) does not write the export"
fi
# times of any ns (async-profiler's cpu, no period) are rounded to ticks of
# their time per sample, and the export says so, naming the file
ap="$TD/pprof/java-cpu-async-profiler.pb.gz"
if [ -f "$ap" ]; then
  $PCOL unpack "$ap" --to rprof -o "$tmp/ap.out" 2>"$tmp/err" || fail "unpack $ap --to rprof: $(cat "$tmp/err")"
  grep -q "^pcol unpack: note: .*java-cpu-async-profiler.pb.gz: source 1: .*rounded to ticks of sample.interval=[0-9]" "$tmp/err" ||
    fail "$ap: no note of the rounding: $(cat "$tmp/err")"
fi
# a default time that is 0 in every sample (dotnet's lock_time): no sample
# line (summaryRprof's 0 s, pcol top's total), not its counts, and a note
dz="$TD/ext/pprof/dotnet-211.pb.gz"
if [ -f "$dz" ]; then
  $PCOL unpack "$dz" --to rprof -o "$tmp/dz.out" 2>"$tmp/err" || fail "unpack $dz --to rprof: $(cat "$tmp/err")"
  [ "$(cat "$tmp/dz.out")" = "sample.interval=1" ] || fail "$dz: 0 ns of lock_time, yet: $(head -c 200 "$tmp/dz.out")"
  grep -q "^pcol unpack: note: .*dotnet-211.pb.gz: source 1: its default value is a time, 0 in every" "$tmp/err" ||
    fail "$dz: no note of the time of 0: $(cat "$tmp/err")"
fi
# rprof.alloc of Rprof(append = TRUE) files (user review 7): each segment's
# first sample counts 0, as summaryRprof counts a file's first, so the whole
# equals the sum of its segments read apart; a memory segment after one
# without memory profiling does not count the heap as allocated (was the
# whole heap at its first sample, and an appended segment's first sample took
# what R allocated while Rprof was off)
mseg1='memory profiling: sample.interval=20000\n:100:10:1000:0:"f" \n:300:10:1000:0:"f" "main" \n'
mseg2='memory profiling: sample.interval=20000\n:90000:500:9000:0:"g" \n:90100:500:9500:0:"g" "main" \n'
cpu='sample.interval=20000\n"h" \n"h" "main" \n'
alloc() { "$PCOL" top "$1" --value rprof.alloc --unit B --format csv | awk -F, 'NR > 1 {s += $1} END {print s + 0}'; }
printf "$mseg1" >"$tmp/s1.out"; printf "$mseg2" >"$tmp/s2.out"; printf "$cpu" >"$tmp/c.out"
printf "$mseg1$mseg2" >"$tmp/s12.out"; printf "$cpu$mseg2" >"$tmp/c2.out"
a1=$(alloc "$tmp/s1.out") a2=$(alloc "$tmp/s2.out") a12=$(alloc "$tmp/s12.out") ac2=$(alloc "$tmp/c2.out")
[ "$a1" -gt 0 ] && [ "$a2" -gt 0 ] || fail "rprof.alloc of one segment: $a1, $a2"
[ "$a12" = $((a1 + a2)) ] || fail "rprof.alloc of two appended memory segments: $a12, want $a1 + $a2"
[ "$ac2" = "$a2" ] || fail "rprof.alloc of a memory segment after a CPU one: $ac2, want $a2"
"$PCOL" pack "$tmp/s12.out" -o "$tmp/s12.pcol" && [ "$(alloc "$tmp/s12.pcol")" = "$a12" ] ||
  fail "rprof.alloc of the appended file packed: $(alloc "$tmp/s12.pcol")"
# ... and in a packed file whose time column is encoded (format 1.3: 2 x 3000 samples)
big() { awk -v b="$1" 'BEGIN { print "memory profiling: sample.interval=20000"
  for (i = 0; i < 3000; i++) printf ":%d:10:1000:0:\"f\" \"main\" \n", b + 8 * i }'; }
big 100 >"$tmp/b1.out"; big 900000 >"$tmp/b2.out"; cat "$tmp/b1.out" "$tmp/b2.out" >"$tmp/b12.out"
"$PCOL" pack "$tmp/b12.out" -o "$tmp/b12.pcol" || fail "pack b12"
"$PCOL" info "$tmp/b12.pcol" | grep -q "samples_stored *time_ns .*+e" ||
  fail "the time column of b12.pcol is not encoded (the case this checks)"
[ "$(alloc "$tmp/b12.pcol")" = $(($(alloc "$tmp/b1.out") + $(alloc "$tmp/b2.out"))) ] ||
  fail "rprof.alloc of a packed appended file: $(alloc "$tmp/b12.pcol"), want the segments' sum"

# places (bare srcrefs: a line without a function, `1#7`, the top-level
# code) through speedscope and Firefox: named FILE:LINE for the viewers,
# marked pcolNameless, read back as places (THE nameless rule, meta
# pcol.nameless_places), so the Rprof export of the copy writes the srcrefs
# again: the same stacks (pcol fold) as the original's, and pcol top of the
# copy is the original's (review 12 F3: "<expr>:1", ":7" came back as
# functions, summaryRprof 80%, 55.6%: tests/interop/t_r_rprof.sh)
printf 'line profiling: sample.interval=20000\n#File 1: \n#File 2: rec.R\n"f" 1#7 \n"g" "f" 1#7 \n2#3 "h" 2#1 \n2#2 \n' >"$tmp/pl.out"
for via in speedscope firefox; do
  $PCOL unpack "$tmp/pl.out" --to $via -o "$tmp/pl.$via" && $PCOL unpack "$tmp/pl.$via" --to rprof -o "$tmp/pl.$via.out" ||
    fail "places via $via"
  grep -q '":7"' "$tmp/pl.$via" && grep -q '"rec.R:2"' "$tmp/pl.$via" ||
    fail "places via $via: not named FILE:LINE for the viewer"
  [ "$($PCOL fold "$tmp/pl.$via.out" --value samples | sort)" = "$($PCOL fold "$tmp/pl.out" --value samples | sort)" ] ||
    fail "places via $via: stacks $($PCOL fold "$tmp/pl.$via.out" --value samples | tr '\n' '|') for $($PCOL fold "$tmp/pl.out" --value samples | tr '\n' '|')"
  grep -q '"[^"]*:[0-9]*"' "$tmp/pl.$via.out" && fail "places via $via: a function named FILE:LINE in $(cat "$tmp/pl.$via.out")"
  [ "$($PCOL top "$tmp/pl.$via" --value samples --format csv)" = "$($PCOL top "$tmp/pl.out" --value samples --format csv)" ] ||
    fail "places via $via: pcol top of the copy differs from the original's"
done
grep -q '"pcolNameless":true' "$tmp/pl.speedscope" || fail "speedscope: the places are not marked"
grep -q '"pcolNameless":\[' "$tmp/pl.firefox" || fail "firefox: the places are not marked"
# and the lines inside named functions (line profiling: `1#7 "g"` is line 7
# of g): a speedscope frame per (function, line), marked pcolLine, read back
# as that line of the function, so the Rprof export of the copy writes the
# srcrefs again (review h2: frames were one per function, the lines lost,
# summaryRprof(lines = "show") refused the copy): pcol top --by line and
# the Rprof export's stacks are the original's, and a second trip is the
# first byte for byte
printf 'line profiling: sample.interval=20000\n#File 1: rec.R\n"g" 1#7 "f" 1#14 "h" \n1#3 "g" 1#7 "f" 1#14 "h" \n"f" 1#2 "f" 1#14 "h" \n1#2 "f" 1#14 "h" \n' >"$tmp/ln.out"
$PCOL unpack "$tmp/ln.out" --to speedscope -o "$tmp/ln.json" && $PCOL unpack "$tmp/ln.json" --to rprof -o "$tmp/ln.json.out" &&
  $PCOL unpack "$tmp/ln.json" --to speedscope -o "$tmp/ln2.json" || fail "line profiling via speedscope"
grep -q '{"name":"h","file":"rec.R","line":14,"pcolLine":true}' "$tmp/ln.json" || fail "line profiling via speedscope: no frame of h at line 14"
for by in "" "--by line"; do
  [ "$($PCOL top "$tmp/ln.json" $by --format csv)" = "$($PCOL top "$tmp/ln.out" $by --format csv)" ] ||
    fail "line profiling via speedscope: pcol top $by of the copy differs from the original's"
done
[ "$(tail -n +2 "$tmp/ln.json.out")" = "$(tail -n +2 "$tmp/ln.out")" ] ||
  fail "line profiling via speedscope to rprof: $(cat "$tmp/ln.json.out")"
cmp -s "$tmp/ln.json" "$tmp/ln2.json" || fail "line profiling via speedscope: a second trip differs"

# A period that is no sampling interval: counted pprof samples whose period
# is 10^9 ms (a pyroscope pprof's).  Rprof writes each as a tick of
# sample.interval=10^12 us, and pcol's Rprof reader adds the ticks up in
# int64 ns: 9,000 of them fit (the period is kept), 9,300 do not (the
# 9,224th overflowed: `pcol top` of the copy failed), and a period longer
# than the stated duration_nanos (80d5d680) is no interval either: both
# written at pcol's 10 ms with the note, and their copies read back (pcol,
# and R's summaryRprof when it is here)
for c in "9000 keep" "9300 none" "100 none 3600000000000"; do
  set -- $c
  python3 tests/support/pprofgen.py period "$tmp/per$1.pb" 1000000000 milliseconds "$1" ${3:-} ||
    fail "pprofgen period $1"
  $PCOL unpack "$tmp/per$1.pb" --to rprof -o "$tmp/per$1.out" 2>"$tmp/per$1.err" || fail "period $1: rprof export"
  iv=$(head -1 "$tmp/per$1.out")
  if [ "$2" = keep ]; then
    [ "$iv" = "line profiling: sample.interval=1000000000000" ] && [ ! -s "$tmp/per$1.err" ] ||
      fail "period 10^9 ms, $1 samples: '$iv', '$(cat "$tmp/per$1.err")'"
  else
    [ "$iv" = "line profiling: sample.interval=10000" ] && grep -q "its period, 1000000000000000 ns, is no sampling interval" "$tmp/per$1.err" ||
      fail "period 10^9 ms, $1 samples ${3:+(duration $3 ns)}: '$iv', '$(cat "$tmp/per$1.err")'"
  fi
  $PCOL top "$tmp/per$1.out" --format csv >"$tmp/per$1.csv" 2>"$tmp/per$1.top.err" ||
    fail "period $1: pcol top of the Rprof copy: $(cat "$tmp/per$1.top.err")"
  if command -v Rscript >/dev/null; then
    want="1e+06 9e+09"; [ "$2" = keep ] || want="0.01 $(($1 / 100))"
    got=$(Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1]); cat(s$sample.interval, s$sampling.time)' "$tmp/per$1.out" 2>&1)
    [ "$got" = "$want" ] || fail "period $1: summaryRprof's interval and time '$got', not '$want'"
  fi
done
# --sort cum orders as pprof -top -cum (by cum, ties by name), not as
# summaryRprof's by.total (ties by self time): its help says so (review 20
# F8: it claimed "summaryRprof by.total" for the order too)
df=$TD/rprof/diversityForest__Rprof.out
if [ -f "$df" ]; then
  $PCOL top "$df" --sort cum --node-fraction 0 --format tsv >"$tmp/cum.tsv" || fail "top --sort cum $df"
  tail -n +2 "$tmp/cum.tsv" | awk -F'\t' '{ print $4 "\t" $6 }' | LC_ALL=C sort -c -t"$(printf '\t')" -k1,1nr -k2,2 ||
    fail "top --sort cum: not by cum, then name"
  $PCOL top --help | grep -q "cum (pprof -top -cum's order: by cum, ties by name" ||
    fail "top --help: --sort cum does not say its order is pprof's"
fi
exit 0
