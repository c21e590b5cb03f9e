#!/usr/bin/env bash
# CLI: a speedscope profile whose times have a fraction of a nanosecond
# (float noise: an `at` of 1.3333333333 ms, a weight of 1.0001 µs) is stored
# in its decimal unit ("1e-9 milliseconds", doc/mappings.md §11, §0), and
# every view scales it as the time it is (review 10 F2: a 10.5 ms profile
# was shown as 0.01s, a 4 µs one as all zeros, --unit was refused, and the
# pprof export's unit was "1e-9 microseconds", which go glued to the
# numbers); --unit converts decimal and picosecond units (m1: "wants ... a
# unit of 1e-1 ms (...ms...), not 'ms'").
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_speedscope_units: FAIL: $*" >&2; exit 1; }
H='{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":['
ev() { # AT: a [0, 10.5 ms), b (called by a) [AT, 5 ms)
  printf '%s{"type":"evented","name":"p","unit":"milliseconds","startValue":0,"endValue":10.5,"events":[{"type":"O","frame":0,"at":0},{"type":"O","frame":1,"at":%s},{"type":"C","frame":1,"at":5},{"type":"C","frame":0,"at":10.5}]}]}' "$H" "$1"
}
ev 1.333333 >"$tmp/ns.json"      # whole ns: stored in nanoseconds
ev 1.3333333333 >"$tmp/dec.json" # 1/3 ns more: stored in 1e-9 milliseconds
printf '%s{"type":"sampled","name":"p","unit":"microseconds","startValue":0,"endValue":10,"samples":[[0],[0,1]],"weights":[1.0001,3]}]}' \
  "$H" >"$tmp/us.json"
# endValue - startValue past the samples: speedscope's total (its flame
# chart's width, an idle gap after the samples) is the source's duration
# (before, endValue was not read: no Duration, or the samples' extent)
"$PCOL" top "$tmp/us.json" | grep -qx 'Duration: 10us, Total samples = 4us (40.00%)' ||
  fail "us.json: $("$PCOL" top "$tmp/us.json" | grep Duration), want speedscope's 10 us of endValue"
"$PCOL" info "$tmp/dec.json" | grep -q 'wall/1e-9 milliseconds' || fail "dec.json not stored in 1e-9 milliseconds: $("$PCOL" info "$tmp/dec.json")"
"$PCOL" info "$tmp/ns.json" | grep -q 'wall/nanoseconds' || fail "ns.json not stored in nanoseconds"

# the text views of the two profiles say the same (a third of a ns apart):
# 6.83ms, 3.67ms of 10.50ms, in every unit asked
view() { "$PCOL" "$@" 2>&1 | grep -Ev '^(File|Type): '; } # (File: names the input)
for args in "top" "top --unit us" "top --unit s" "top --unit ms" "peek ." "tree" "traces" "top --sort cum" \
            "top --from 0.002 --to 0.004" "top --from 0.001 --to 0.002" "list . --allow-any-source"; do
  set -- $args
  c=$1; shift
  view "$c" "$tmp/ns.json" "$@" >"$tmp/a" && view "$c" "$tmp/dec.json" "$@" >"$tmp/b" ||
    fail "$c $*: $(head -3 "$tmp/b")"
  cmp -s "$tmp/a" "$tmp/b" || fail "pcol $c $* of the decimal profile differs: $(diff "$tmp/a" "$tmp/b" | head -8)"
done
view top "$tmp/dec.json" >"$tmp/top"
grep -q 'Showing nodes accounting for 10.50ms, 100% of 10.50ms total' "$tmp/top" &&
  grep -Eq '^ +6\.83ms .* a$' "$tmp/top" && grep -Eq '^ +3\.67ms .* b$' "$tmp/top" ||
  fail "top of the decimal profile: $(cat "$tmp/top")"
# an interval source (spec.md §7.1): a range counts the part inside it
"$PCOL" top "$tmp/dec.json" --from 0.002 --to 0.004 | grep -q 'of 2ms total' ||
  fail "range of the decimal profile: $("$PCOL" top "$tmp/dec.json" --from 0.002 --to 0.004)"
"$PCOL" diff "$tmp/dec.json" "$tmp/dec.json" 2>&1 | grep -q '^Base: .*dec.json (total 10.50ms)$' ||
  fail "diff: $("$PCOL" diff "$tmp/dec.json" "$tmp/dec.json" 2>&1 | head -5)"
"$PCOL" flame "$tmp/dec.json" -o "$tmp/f.svg" && grep -q '<title>⁨a⁩ (10.50ms, 100.00%)' "$tmp/f.svg" ||
  fail "flame's hover: $(grep -o '<title>⁨a⁩ ([^<]*' "$tmp/f.svg")"

# a sampled profile in microseconds with a weight of 1.0001
"$PCOL" top "$tmp/us.json" >"$tmp/top" 2>&1 || fail "top us.json: $(cat "$tmp/top")"
grep -q 'Showing nodes accounting for 4us, 100% of 4us total' "$tmp/top" &&
  grep -Eq '^ +3us .* b$' "$tmp/top" && grep -Eq '^ +1us .* a$' "$tmp/top" || fail "top us.json: $(cat "$tmp/top")"
"$PCOL" top "$tmp/us.json" --unit ns >"$tmp/top" 2>&1 && grep -Eq '^ +1000\.10ns .* 4000\.10ns .* a$' "$tmp/top" ||
  fail "top us.json --unit ns: $(cat "$tmp/top")"
"$PCOL" fold "$tmp/us.json" | sort >"$tmp/fold"
printf 'a 1.0001\na;b 3\n' | cmp -s - "$tmp/fold" || fail "fold us.json: $(cat "$tmp/fold")"
# the machine formats keep the stored number and name its unit (doc/cli.md)
"$PCOL" top "$tmp/us.json" --format tsv | awk -F'\t' 'NR > 1 { print $1, $6, $8 }' >"$tmp/tsv"
printf '3000000000 b 1e-9 microseconds\n1000100000 a 1e-9 microseconds\n' | cmp -s - "$tmp/tsv" ||
  fail "tsv of us.json: $(cat "$tmp/tsv")"
# a unit of another family: refused, naming the ones that convert
"$PCOL" top "$tmp/us.json" --unit MB >/dev/null 2>"$tmp/err" && fail "--unit MB on a time accepted"
grep -q "unit of time (fs, ps, ns, us, ms, s, hrs), as the value's unit 1e-9 microseconds is one, not 'MB'" "$tmp/err" ||
  fail "--unit MB: $(cat "$tmp/err")"
# the pprof export: nanoseconds (go tool pprof has no decimal unit), rounded
"$PCOL" unpack "$tmp/us.json" --to pprof -o "$tmp/us.pb.gz" || fail "unpack --to pprof"
"$PCOL" top "$tmp/us.pb.gz" --format tsv | awk -F'\t' 'NR > 1 { print $1, $6, $8 }' >"$tmp/tsv"
printf '3000 b nanoseconds\n1000 a nanoseconds\n' | cmp -s - "$tmp/tsv" || fail "the pprof export: $(cat "$tmp/tsv")"
"$PCOL" unpack "$tmp/dec.json" --to pprof -o "$tmp/dec.pb.gz" || fail "unpack dec.json --to pprof"
view top "$tmp/dec.pb.gz" | grep -q 'of 10.50ms total' || fail "the pprof export of dec.json: $(view top "$tmp/dec.pb.gz")"
if command -v go >/dev/null && go tool pprof -h >/dev/null 2>&1; then
  go tool pprof -top "$tmp/us.pb.gz" 2>/dev/null | grep -q 'Showing nodes accounting for 4us, 100% of 4us total' ||
    fail "go tool pprof -top of the export: $(go tool pprof -top "$tmp/us.pb.gz" 2>&1 | tail -4)"
fi

# Perun: real amounts in ps, and in "1e-1 ms" (too large for 10^9): --unit converts
if [ -f "$TD/ext/perun/degradation_profiles__const1.perf" ]; then
  "$PCOL" top "$TD/ext/perun/degradation_profiles__const1.perf" --unit ms 2>&1 | grep -q 'of 1003.26ms total' ||
    fail "Perun ps --unit ms: $("$PCOL" top "$TD/ext/perun/degradation_profiles__const1.perf" --unit ms 2>&1 | head -4)"
  "$PCOL" top "$TD/ext/perun/degradation_profiles__const4.perf" --unit hrs 2>&1 | grep -q 'of 3245734653787.57hrs total' ||
    fail "Perun 1e-1 ms --unit hrs: $("$PCOL" top "$TD/ext/perun/degradation_profiles__const4.perf" --unit hrs 2>&1 | head -4)"
fi
# a unit of no family: the message says why
printf 'a;b 1.5\na 2\n' >"$tmp/c.folded"
"$PCOL" top "$tmp/c.folded" --unit ms >/dev/null 2>"$tmp/err" && fail "--unit ms on a decimal count accepted"
grep -q "auto or raw: the value's unit 1e-9 is no unit pcol converts" "$tmp/err" || fail "--unit ms on a count: $(cat "$tmp/err")"
# a value type with a negative amount has no speedscope profile (speedscope
# reads no negative weight), and the export says which (review 13 m1: a
# delta heap profile's inuse_space, its default, vanished without a word)
f=$TD/pprof/go-heap-delta-negative-values.pb.gz
if [ -f "$f" ]; then
  "$PCOL" unpack "$f" --to speedscope -o "$tmp/hd.json" 2>"$tmp/err" || fail "$f -> speedscope: $(cat "$tmp/err")"
  grep -q "warning: .*2 value types with negative amounts, which speedscope does not read, not written: inuse_objects/count of source 1, inuse_space/bytes of source 1" "$tmp/err" ||
    fail "$f -> speedscope: no warning of the types not written: $(cat "$tmp/err")"
  grep -q ': alloc_space"' "$tmp/hd.json" && ! grep -q ': inuse_space"' "$tmp/hd.json" ||
    fail "$f -> speedscope: not the profiles of the types without negative amounts"
  "$PCOL" unpack "$TD/pprof/go-cpu-large.pb.gz" --to speedscope -o "$tmp/g.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] ||
    fail "go-cpu-large -> speedscope: $(cat "$tmp/err")"
fi
echo "t_speedscope_units: decimal time units scale as times in every view, --unit and the pprof export"
