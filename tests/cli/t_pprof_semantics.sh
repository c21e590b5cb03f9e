#!/usr/bin/env bash
# CLI: pprof semantics without Go (tests/interop/t_pprof_semantics.sh checks
# the numbers against go tool pprof): one label set in two orders is one set;
# a frame without a file is a file row of its own; numeric ranges; unknown
# label keys and views that do not apply are errors, not empty answers.
# The profiles come from tests/support/semantics_pprof.py; what is expected
# follows from how it builds them (its samples are listed there).
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_pprof_semantics: FAIL: $*" >&2; exit 1; }
expect() { # CODE MESSAGE-RE CMD...: exit code and a message on stderr
  local want=$1 re=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" = "$want" ] || fail "$* exited $got, not $want: $(cat "$tmp/err")"
  grep -Eq "$re" "$tmp/err" || fail "$*: no '$re' in: $(cat "$tmp/err")"
}
python3 tests/support/semantics_pprof.py "$tmp" || fail "semantics_pprof.py"
lab=$tmp/labels.pb.gz nums=$tmp/nums.pb.gz

# stacks deeper than the path walk's 16-bit counts (top.c WALK_MAX_DEPTH):
# the walk's answer below the limit and the sums' past it are the same as
# the sums mode's, and the numbers follow from the samples (main.rec is on
# 2 of 3 stacks: cum 50ms whatever its depth; its flat is 0)
for d in 65530 70000; do
  f=$tmp/deep-$d.pb.gz
  "$PCOL" top "$f" >"$tmp/walk" 2>&1 || fail "top deep-$d: $(cat "$tmp/walk")"
  PCOL_DEBUG=top-sums "$PCOL" top "$f" >"$tmp/sums" 2>&1 || fail "top deep-$d (sums)"
  cmp -s "$tmp/walk" "$tmp/sums" || { diff "$tmp/walk" "$tmp/sums" | head; fail "top deep-$d: walk and sums differ"; }
  "$PCOL" top "$f" --format tsv | awk -F'\t' '$6 == "main.rec" { print $1, $4 } $6 == "main.main" { print $1, $4 }' |
    sort | tr '\n' ' ' | grep -qx '0 50000000 0 60000000 ' || fail "top deep-$d: main.rec and main.main's flat and cum"
done

# labels.pb.gz: {worker=x,kind=y} in both orders (4 samples), {worker=x,kind=z}, none
ids=$("$PCOL" cat "$lab" --table samples --format tsv | awk -F'\t' 'NR > 1 { print $8 }' | sort -u | tr '\n' ' ')
[ "$ids" = "1 2 NA " ] || fail "label sets: ids $ids, want 1 2 NA (one set in two orders is one set)"
"$PCOL" cat "$lab" --table sample_labels --format tsv | awk -F'\t' 'NR > 1 { k[$1] = k[$1] $2 }
  END { for (s in k) if (k[s] != "kindworker") exit 1 }' || fail "a label set is stored sorted by key"
"$PCOL" traces "$lab" | grep -c '^-----------+' | grep -qx 6 || fail "traces: 5 traces (+1 closing line)"

# traces' machine stacks split back into their frames: a ';' inside a name
# ("[odd;name.so]", a mapping's file) is '_' as in fold, so the traces'
# values added up per stack are fold's lines, and the JSON has no total
python3 tests/support/pprofgen.py unsym "$tmp/un.pb" || fail "pprofgen.py unsym"
"$PCOL" traces "$tmp/un.pb" --format tsv | awk -F'\t' 'NR > 1 { v[$4] += $1 } END { for (s in v) print s, v[s] }' |
  sort >"$tmp/tr.txt"
"$PCOL" fold "$tmp/un.pb" | sort >"$tmp/fold.txt"
grep -q 'odd_name' "$tmp/fold.txt" && cmp -s "$tmp/tr.txt" "$tmp/fold.txt" ||
  { diff "$tmp/tr.txt" "$tmp/fold.txt"; fail "traces --format tsv stacks differ from fold's"; }
"$PCOL" traces "$tmp/un.pb" --format json | head -n 1 | grep -q '"total":null,' || fail "traces JSON: total null"
expect 2 "no numeric labels" "$PCOL" traces "$tmp/un.pb" --format json --tag 1kb
[ -s "$tmp/out" ] && fail "traces --format json of a refused selection printed a half table: $(cat "$tmp/out")"

# --tagroot/--tagleaf (pprof's): a frame per key, named by the sample's values
# of it ("<unknown>" without), at each stack's root / below its leaf; labels.pb.gz:
# worker=x on 5 samples, kind=y on 4 and z on 1, one sample without labels
"$PCOL" fold "$lab" --tagroot worker,kind --tagleaf kind >"$tmp/tf" || fail "fold --tagroot"
awk '{ split($1, f, ";"); print f[1], f[2], f[length(f)] }' "$tmp/tf" | sort -u | tr '\n' ' ' |
  grep -qx '<unknown> <unknown> <unknown> x y y x z z ' || { cat "$tmp/tf"; fail "fold --tagroot worker,kind --tagleaf kind"; }
# a key no sample has: pprof's warning, frames "<unknown>" (compared with
# go tool pprof in tests/interop/t_pprof_semantics.sh); "," is no key
expect 0 "^pcol top: warning: TagRoot expression matched no samples$" "$PCOL" top "$lab" --tagroot nokey
grep -q '<unknown>$' "$tmp/out" || fail "top --tagroot nokey: no <unknown> row: $(cat "$tmp/out")"
expect 0 "^pcol top: warning: TagLeaf expression matched no samples$" "$PCOL" top "$lab" --tagleaf ,
# top --by label:KEY with a name filter: its warnings see KEY's frames; an
# input read with them already (--tagroot/--tagleaf KEY) is framed once
# (before, framed again for the warnings: each KEY frame twice, the whole
# file copied again), the same rows and warnings as framed for --by alone
# (-hide ^worker$ matches the frames: no warning; -focus nomatch warns)
for o in "--tagroot worker" "--tagroot kind,worker" "--tagleaf worker" "--tagroot kind"; do
  for fl in "--hide ^worker\$" "--focus nomatch"; do
    # shellcheck disable=SC2086
    PCOL_DEBUG=inputs "$PCOL" top "$lab" $o --by label:worker $fl >"$tmp/o1" 2>"$tmp/e1" ||
      fail "top $o --by label:worker $fl: $(cat "$tmp/e1")"
    n=$(grep -c 'debug: label frames' "$tmp/e1")
    case $o in *worker*) want=1 ;; *) want=2 ;; esac # (kind's frames, then worker's for the warnings)
    [ "$n" = "$want" ] || fail "top $o --by label:worker $fl: label frames made $n times, want $want"
    grep -v 'debug:' "$tmp/e1" >"$tmp/w1"
    case $fl in
      *nomatch*) grep -q 'Focus expression matched no samples' "$tmp/w1" || fail "$o $fl: no warning: $(cat "$tmp/w1")" ;;
      *) [ -s "$tmp/w1" ] && fail "$o $fl: warned: $(cat "$tmp/w1")" ;;
    esac
  done
done
# diff's and flame --diff's filter warnings are the pair's, said once (as
# pcol_view_notes says them of two inputs, and the R and Python packages'
# diff): a filter that matches no sample of either side warns once, one
# that matches a side's does not (pprof's, of the profile and its base
# merged; before: a warning for each side without a match)
chain=$tmp/inline-chain.pb.gz
for fx in nomatch_zz runMicrotasks main.f18; do
  for c in "diff $lab $chain" "diff $chain $lab" "flame $lab --diff $chain -o /dev/null"; do
    # shellcheck disable=SC2086
    "$PCOL" $c --value samples --focus "$fx" >/dev/null 2>"$tmp/e1" || fail "$c --focus $fx: $(cat "$tmp/e1")"
    n=$(grep -c 'warning: Focus expression matched no samples$' "$tmp/e1")
    case $fx in nomatch*) want=1 ;; *) want=0 ;; esac
    [ "$n" = "$want" ] && [ "$(wc -l <"$tmp/e1")" = "$want" ] ||
      fail "$c --focus $fx: $n warnings, want $want: $(cat "$tmp/e1")"
  done
done
# diff and flame --diff add the frames to both sides at once: a side whose
# frames fail is the one named, first or second (here a labelset_id that
# only the frames read, past the table's end: the views without frames
# answer)
"$PCOL" pack "$lab" -o "$tmp/lab.pcol" --format-version 1.2 || fail "pack" # plain ids, patched in place
off=$("$PCOL" info "$tmp/lab.pcol" | awk '$1 == "samples_stored" && $2 == "labelset_id" { print $5 }')
[ -n "$off" ] || fail "no labelset_id section in pcol info"
cp "$tmp/lab.pcol" "$tmp/badls.pcol"
printf '\377\377\377\177' | dd of="$tmp/badls.pcol" bs=1 seek="$off" conv=notrunc 2>/dev/null
"$PCOL" diff "$lab" "$tmp/badls.pcol" >/dev/null 2>&1 || fail "diff of the damaged copy without frames"
msg="^pcol [a-z]+: $tmp/badls.pcol: table samples_stored, column labelset_id: id 2147483647 at row 0 is out of range"
for pair in "$lab $tmp/badls.pcol" "$tmp/badls.pcol $lab"; do
  set -- $pair
  expect 1 "$msg" "$PCOL" diff "$1" "$2" --tagroot worker
  expect 1 "$msg" "$PCOL" flame "$1" --diff "$2" --tagleaf kind -o "$tmp/f.svg"
done
set --

# --base/--diff-base (pprof's): a profile minus itself is nothing (-base's
# total is the merged profile's: 0); with -diff_base the total is the
# base's and every row's flat is 0
"$PCOL" top "$lab" --base "$lab" | grep -qx 'Showing nodes accounting for 0, 0% of 0 total' ||
  fail "top --base itself: $("$PCOL" top "$lab" --base "$lab" 2>&1 | head -5)"
t=$("$PCOL" top "$lab" --format json | grep -o '"total":[0-9]*')
"$PCOL" top "$lab" --diff-base "$lab" --format json | grep -q "$t" || fail "top --diff-base itself: the base's total ($t)"
"$PCOL" top "$lab" --diff-base "$lab" --format tsv | awk -F'\t' 'NR > 1 && $1 != 0 { exit 1 }' ||
  fail "top --diff-base itself: a flat that is not 0"
expect 2 "not both" "$PCOL" top "$lab" --base "$lab" --diff-base "$lab"
# what cannot be subtracted is refused, never added: a value made by a
# rule from the samples (Rprof's time, the weight itself), a base of other
# value types; samples counted by the rows' weight (collapsed stacks) are
# subtracted, as go subtracts the samples/count column of their pprof
# exports (h8: refused): top, tags and traces of a folded file minus itself
"$PCOL" unpack "$lab" --to collapsed -o "$tmp/lab.folded" || fail "unpack to collapsed"
"$PCOL" top "$tmp/lab.folded" --base "$tmp/lab.folded" | grep -qx 'Showing nodes accounting for 0, 0% of 0 total' ||
  fail "top of collapsed stacks --base itself: not 0 of 0"
ftot=$(awk '{ s += $NF } END { print s }' "$tmp/lab.folded") # (the counts the export writes)
[ "${ftot:-0}" -gt 0 ] && "$PCOL" tags "$tmp/lab.folded" --diff-base "$tmp/lab.folded" | grep -Eq "pprof::base: Total -$ftot(\.0)?$" ||
  fail "tags of collapsed stacks --diff-base itself: not the base's -$ftot"
[ "$("$PCOL" traces "$tmp/lab.folded" --base "$tmp/lab.folded" | grep -c '^ *-\{0,1\}[0-9]')" = 0 ] ||
  fail "traces of collapsed stacks --base itself: a trace left (every one cancels)"
if command -v go >/dev/null 2>&1; then
  "$PCOL" unpack "$tmp/lab.folded" --to pprof -o "$tmp/lf.pb.gz" || fail "pprof export of the folded file"
  for opt in base diff_base; do
    [ "$("$PCOL" traces "$tmp/lab.folded" --${opt/_/-} "$tmp/lab.folded" | sed 1d)" = \
      "$(go tool pprof -traces -$opt "$tmp/lf.pb.gz" "$tmp/lf.pb.gz" 2>/dev/null)" ] ||
      fail "traces of collapsed stacks --${opt/_/-} itself: not go's -traces -$opt of its export"
  done
fi
expect 1 "weight.*--value TYPE" "$PCOL" top "$tmp/lab.folded" --base "$tmp/lab.folded" --value weight
expect 2 "not '-'" "$PCOL" top "$lab" --base -
# (an Rprof profile's time is subtracted, as go subtracts its pprof copy's cpu: rd13a F1)
expect 1 "weight.*--value TYPE" "$PCOL" top examples/demo.out --diff-base examples/demo.out --value weight
# (nums has no period type: pprof's empty one, which wall/nanoseconds is not)
expect 1 "nums.pb.gz: the base profile's period type \(/\) is not the profile's \(wall/nanoseconds\)" "$PCOL" top "$lab" --base "$nums"
python3 tests/support/pprofgen.py comments "$tmp/cm.pb" && python3 tests/support/pprofgen.py lines "$tmp/ln.pb" 2 3 ||
  fail "pprofgen.py comments, lines"
expect 1 "ln.pb: value type 1 is cpu/nanoseconds in the profile, samples/count in the base" "$PCOL" top "$tmp/cm.pb" --base "$tmp/ln.pb"
# the machine formats say how the inputs were read
"$PCOL" top "$lab" --diff-base "$lab" --tagleaf kind --format json | head -n 1 |
  grep -qF '"filters":{"tagleaf":"kind","diff_base":"'"$lab"'"}' || fail "JSON filters: tagleaf, diff_base"
"$PCOL" traces "$lab" --base "$lab" --tagroot worker --format json | head -n 1 |
  grep -qF '"tagroot":"worker","base":"' || fail "traces JSON filters: tagroot, base"
expect 3 "nonexistent" "$PCOL" top "$lab" --diff-base "$tmp/nonexistent.pb"

# runMicrotasks has no file: a row "<unknown>" with flat 20ms (its leaf
# sample) and cum 80ms (every sample through it)
"$PCOL" top "$lab" --by file --format tsv | awk -F'\t' '$6 == "<unknown>" { print $1, $4 }' |
  grep -qx '20000000 80000000' || fail "top --by file: <unknown> row"

# numeric ranges: nums.pb.gz has sizes 8 ... 1 GiB; 1kb: keeps 1024 and up
n=$("$PCOL" top "$nums" --tag 'bytes=1kb:' --value alloc_objects --format json | grep -o '"total":[0-9]*')
k=$("$PCOL" top "$nums" --tag 'bytes=1kb:' --value alloc_objects --format tsv | awk -F'\t' 'NR > 1 { s += $1 } END { print s }')
[ "$k" = $((6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 14)) ] || fail "--tag bytes=1kb: keeps $k objects ($n)"
k=$("$PCOL" top "$nums" --tag 'alloc=300kb' --value alloc_objects --format tsv | awk -F'\t' 'NR > 1 { s += $1 } END { print s }')
[ "$k" = 2 ] || fail "--tag alloc=300kb (a kilobytes label) keeps sample 2, not $k"
# a key no label has: no sample matches, as in pprof, which warns and
# prints its view (tests/interop/t_pprof_views.sh compares both)
expect 0 "^pcol top: warning: TagFocus expression matched no samples$" "$PCOL" top "$nums" --tag nokey=x
grep -q '^Showing nodes accounting for 0, 0% of ' "$tmp/out" || fail "top --tag nokey=x: $(cat "$tmp/out")"
expect 0 "^pcol top: warning: TagIgnore expression matched no samples$" "$PCOL" top "$nums" --tag-ignore nokey=x
cmp -s <(sed -n '/^Showing/,$p' "$tmp/out") <("$PCOL" top "$nums" | sed -n '/^Showing/,$p') &&
  grep -q '^Showing' "$tmp/out" || fail "top --tag-ignore nokey=x is not top"
expect 0 "^pcol traces: warning: TagFocus expression matched no samples$" "$PCOL" traces "$nums" --tag nokey=1kb
expect 0 "TagFocus expression matched no samples" "$PCOL" top examples/demo.out --tag a=b
expect 1 "no label 'nokey'" "$PCOL" top "$nums" --by label:nokey
expect 2 "numeric range.*'kind=\^3\\$'" "$PCOL" top "$nums" --tag kind=3

# views that do not apply say so
expect 1 "no addresses" "$PCOL" top examples/demo.out --by address
expect 2 "no-inlines" "$PCOL" unpack "$lab" --to pprof --no-inlines -o "$tmp/x.pb.gz"
"$PCOL" top "$lab" --no-inlines >/dev/null || fail "top --no-inlines"

# diff: aligned human units, sorted by |change in flat|
"$PCOL" diff "$lab" "$nums" --value samples >/dev/null 2>&1
"$PCOL" diff "$lab" "$lab" --absolute --sort cum | sed -n 4p | grep -q '^ *base_flat' || fail "diff header"
# the head's "Total samples = T (P%)" when T in ns is past int64 (4,000,000
# hrs in 5 ns): P as pprof's int64() gives it on amd64 (MinInt64: 2^63 / 5 x
# 100 %), whole; the cast was UB (clang's UBSan) and the text was cut at 15
# characters, "(184467440737095)"
python3 "$(dirname "$0")/../support/pprofgen.py" hours "$tmp/hours.pb" || fail "pprofgen.py hours"
"$PCOL" top "$tmp/hours.pb" >"$tmp/out" 2>"$tmp/err" || fail "top of 4,000,000 hours: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "top of 4,000,000 hours: $(cat "$tmp/err")"
grep -qx 'Duration: 5ns, Total samples = 4000000hrs (184467440737095516160.00%)' "$tmp/out" ||
  fail "top of 4,000,000 hours: $(sed -n 4p "$tmp/out")"
# pprof's -mean and -relative_percentages where go takes them and changes
# nothing (-tags, -proto, -traces' -relative_percentages; go tool pprof
# prints the same with and without them): accepted and ignored, not
# "unknown option" (review 20 F6; doc/cli.md said tags and unpack ignore --mean)
for o in "--mean" "--relative-percentages" "--mean --relative-percentages"; do
  "$PCOL" tags "$lab" --focus . >"$tmp/t0" 2>&1 || fail "tags: $(cat "$tmp/t0")"
  "$PCOL" tags "$lab" --focus . $o >"$tmp/t1" 2>&1 || fail "tags $o: $(cat "$tmp/t1")"
  cmp -s "$tmp/t0" "$tmp/t1" || fail "tags $o changed the output: $(diff "$tmp/t0" "$tmp/t1")"
  "$PCOL" unpack "$lab" --to pprof -o "$tmp/u0.pb.gz" 2>"$tmp/err" || fail "unpack: $(cat "$tmp/err")"
  "$PCOL" unpack "$lab" $o --to pprof -o "$tmp/u1.pb.gz" 2>"$tmp/err" || fail "unpack $o: $(cat "$tmp/err")"
  cmp -s "$tmp/u0.pb.gz" "$tmp/u1.pb.gz" || fail "unpack $o changed the profile written"
done
"$PCOL" traces "$lab" --focus . >"$tmp/t0" 2>&1 || fail "traces: $(cat "$tmp/t0")"
"$PCOL" traces "$lab" --focus . --relative-percentages >"$tmp/t1" 2>&1 || fail "traces --relative-percentages: $(cat "$tmp/t1")"
cmp -s "$tmp/t0" "$tmp/t1" || fail "traces --relative-percentages changed the output"
for c in tags traces unpack; do
  "$PCOL" $c --help | grep -q -- '--relative-percentages accepted and ignored, as pprof' ||
    fail "$c --help does not say --relative-percentages is ignored"
done
echo "t_pprof_semantics: ok"
