#!/usr/bin/env bash
# CLI: a question pcol cannot answer gets an error, not an empty or wrong
# answer with exit 0 (issue 13): time ranges over samples without times,
# inverted ranges, sources that do not exist, diffs of different quantities,
# standard input named twice.  Inputs are made here from examples/demo.out.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_answers: FAIL: $*" >&2; exit 1; }
expect() { # CODE PATTERN CMD...: CMD exits CODE and says PATTERN on stderr
  local code=$1 pat=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  [ $rc = "$code" ] || fail "'$*' exited $rc, want $code: $(cat "$tmp/err")"
  grep -q -- "$pat" "$tmp/err" || fail "'$*' did not say '$pat': $(cat "$tmp/err")"
}
rp=examples/demo.out
"$PCOL" unpack $rp --to pprof -o "$tmp/d.pb.gz" 2>/dev/null || fail "unpack --to pprof"

# a time range over a source whose samples have no times (pprof): THE span
# rule (lib/core/wall.c pcol_wall_bounds), one rule for a range in seconds
# and one in wall-clock time: the source's span [0, duration) (in seconds
# since its start) inside the range counts whole, outside it not at all,
# and a range that cuts it is refused, naming the source and its span, in
# every command that takes a range: exit 1 (the data cannot answer), not 2
# (the command line is well formed).  p.pb: 4 samples, time_nanos 1 s,
# duration 2 s (review 20 F4: every range in seconds was refused, even one
# that holds the whole profile, while the same span in wall-clock time
# was accepted).
python3 tests/support/pprofgen.py period "$tmp/p.pb" 10000000 nanoseconds 4 2000000000 || fail "pprofgen.py period"
cp "$tmp/p.pb" "$tmp/p2.pb"
msg='source 1 (pprof [^)]*p.pb) has no sample times and the range cuts its span (0s to 2s since its start)'
expect 1 "$msg" "$PCOL" top "$tmp/p.pb" --from 0.5 --to 1
grep -q -- '--source' "$tmp/err" && fail "one source's message advised --source: $(cat "$tmp/err")"
# refused_everywhere FILE FORMATS...: every command that takes a range refuses
# a range that FILE's span cannot answer, saying $msg, and writes nothing
refused_everywhere() {
  local f=$1 c t
  shift
  expect 1 "$msg" "$PCOL" fold "$f" --to 1
  expect 1 "$msg" "$PCOL" flame "$f" --from 0.5 -o "$tmp/f.svg"
  # the refusal comes alone: no header, no first rows (rd21 F4: traces
  # printed its File:/Type: lines, cat its column names, before it)
  for c in tags traces "traces --format tsv" "cat --table samples" "cat --table all"; do
    expect 1 "$msg" "$PCOL" $c "$f" --from 0 --to 1
    [ -s "$tmp/out" ] && fail "$c $f --from 0 --to 1 printed before its refusal: $(head -3 "$tmp/out")"
  done
  expect 1 "$msg" "$PCOL" peek "$f" . --from 0 --to 1
  for t in "$@"; do
    expect 1 "$msg" "$PCOL" unpack "$f" --to $t --from-time 0 --to-time 1 -o "$tmp/x"
  done
  [ -e "$tmp/f.svg" ] || [ -e "$tmp/x" ] && fail "an output was written for a refused range of $f"
}
refused_everywhere "$tmp/p.pb" rprof pprof perun collapsed speedscope firefox otlp
# a range that holds the span whole: the whole profile, as without the range,
# as the wall-clock range of the same span (@1 .. @3: time_nanos 1 s)
for r in "--from 0 --to 2" "--from 0" "--to 100" "--from -1 --to 100"; do
  for c in top fold tags traces tree "cat --table samples" "peek RE"; do
    set -- $c
    c0=$1; shift; [ "$c0" = peek ] && set -- .
    "$PCOL" $c0 "$tmp/p.pb" "$@" >"$tmp/all" 2>&1 || fail "$c: $(cat "$tmp/all")"
    "$PCOL" $c0 "$tmp/p.pb" "$@" $r >"$tmp/out" 2>&1 || fail "$c $r was refused: $(cat "$tmp/out")"
    cmp -s "$tmp/all" "$tmp/out" || fail "$c $r is not the whole profile: $(diff "$tmp/all" "$tmp/out")"
  done
done
for t in pprof collapsed speedscope; do # (--from-time/--to-time: the same as --from/--to)
  "$PCOL" unpack "$tmp/p.pb" --to $t -o "$tmp/u0" 2>/dev/null || fail "unpack --to $t"
  "$PCOL" unpack "$tmp/p.pb" --to $t --from-time 0 --to-time 2 -o "$tmp/u1" 2>"$tmp/err" || fail "unpack --to $t 0..2: $(cat "$tmp/err")"
  cmp -s "$tmp/u0" "$tmp/u1" || fail "unpack --to $t --from-time 0 --to-time 2 is not the whole profile"
done
"$PCOL" top "$tmp/p.pb" --from @1 --to @3 >"$tmp/wall" 2>&1 || fail "the wall-clock range: $(cat "$tmp/wall")"
"$PCOL" top "$tmp/p.pb" --from 0 --to 2 | cmp -s - "$tmp/wall" || fail "the relative and the wall-clock range differ"
expect 1 'has no sample times and the range cuts its span (1970-01-01T00:00:01Z to 1970-01-01T00:00:03Z)' \
  "$PCOL" top "$tmp/p.pb" --from @1.5
# a range that misses the span: nothing counted, and said, as of a wall-clock range
expect 0 'the range --from 3s selects no sample: the samples are at 0 .. 2s' "$PCOL" top "$tmp/p.pb" --from 3
grep -q '^Showing nodes accounting for 0, 0% of 0 total' "$tmp/out" || fail "--from 3: $(cat "$tmp/out")"
# two such inputs (review 20 F7): a range that holds both counts both, and
# one that cuts them is refused without the note that windows were taken
# and added up, nor advice to choose another --source (none has times)
"$PCOL" top "$tmp/p.pb" "$tmp/p2.pb" --from 0 --to 10 >"$tmp/out" 2>/dev/null || fail "two inputs, 0..10 s"
"$PCOL" top "$tmp/p.pb" "$tmp/p2.pb" | cmp -s - "$tmp/out" || fail "two inputs, 0..10 s: not the whole profiles"
expect 1 "$msg" "$PCOL" top "$tmp/p.pb" "$tmp/p2.pb" --from 0 --to 1
grep -q -e 'took a window' -e '--source' "$tmp/err" && fail "two inputs cut: $(cat "$tmp/err")"
expect 1 'source 2 (pprof [^)]*p2.pb) has no sample times and the range cuts' \
  "$PCOL" top "$tmp/p.pb" "$tmp/p2.pb" --source 2 --from 0 --to 1
grep -q -- '--source' "$tmp/err" && fail "two inputs, --source 2: $(cat "$tmp/err")"
# a source with no sample times and no stated duration (d.pb.gz: pcol's own
# pprof copy of an Rprof file, no duration_nanos) has a span with no known
# end in seconds since its start: only a range that holds all from its
# start on (no --to, --from <= 0) holds it; every other is refused, in every
# command that takes a range (rd14a F1: the span was taken as the point 0,
# so --from 0 --to 0.01 counted all 380 ms, exit 0, and --from 0.01 said
# 0 with a false "the samples are at 0 .. 0")
msg='source 1 (pprof [^)]*d.pb.gz) has no sample times and states no duration'
expect 1 "$msg" "$PCOL" top "$tmp/d.pb.gz" --from 0 --to 0.01
grep -q -e '--source' "$tmp/err" && fail "one source's message advised --source: $(cat "$tmp/err")"
expect 1 "$msg" "$PCOL" top "$tmp/d.pb.gz" --from 0.01
expect 1 "$msg" "$PCOL" top "$tmp/d.pb.gz" --to 1000
refused_everywhere "$tmp/d.pb.gz" rprof pprof perun collapsed speedscope
# two such inputs, or one beside the Rprof file it came from: refused too
expect 1 "$msg" "$PCOL" top "$tmp/d.pb.gz" $rp --from 0 --to 1
# the Rprof file's rows come first in the union: none printed before the refusal
for c in traces "cat --table samples" "cat --table sample_values --format jsonl"; do
  expect 1 'source 2 (pprof [^)]*d.pb.gz) has no sample times and states no duration' \
    "$PCOL" $c $rp "$tmp/d.pb.gz" --from 0 --to 1
  [ -s "$tmp/out" ] && fail "$c of two inputs printed before its refusal: $(head -3 "$tmp/out")"
done
# the range that holds it all: the whole profile
for r in "--from 0" "--from -1"; do
  "$PCOL" top "$tmp/d.pb.gz" $r >"$tmp/out" 2>&1 || fail "d.pb.gz $r was refused: $(cat "$tmp/out")"
  "$PCOL" top "$tmp/d.pb.gz" | cmp -s - "$tmp/out" || fail "d.pb.gz $r is not the whole profile"
done
# the same range on a source with times still works
"$PCOL" top $rp --from 0 --to 1 --format csv | tail -n +2 | grep -q . || fail "a range over Rprof times"

# a range past the samples' span (demo.out: 0 .. 370ms) selects nothing:
# the view is empty as asked (exit 0), with a warning naming the span, in
# every view that takes a range; a range that reaches a sample says nothing
span='selects no sample: the samples are at 0 .. 370ms'
expect 0 "the range --from 2s $span" "$PCOL" top $rp --from 2
expect 0 "the range --to 0 $span" "$PCOL" top $rp --to 0
for c in fold tags traces tree; do
  expect 0 "the range --from 1s --to 3s $span" "$PCOL" $c $rp --from 1 --to 3
done
expect 1 "$span" "$PCOL" peek $rp . --from 1 --to 3  # (no match: exit 1, as pprof -peek)
"$PCOL" top $rp --from 0.36 --to 5 >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] ||
  fail "a range that reaches the last sample warned: $(cat "$tmp/err")"
# the same in wall-clock time: demo.out as a Firefox profile that starts at
# 2026-11-23T10:00:00Z (meta.startTime), an hour it does not reach
"$PCOL" unpack $rp --to firefox -o "$tmp/ff.json" || fail "unpack --to firefox"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["meta"]["startTime"] = 1795428000000.0; json.dump(d, open(sys.argv[1], "w"))' "$tmp/ff.json"
expect 0 "the range --from 2026-11-23T11:00:00.000Z selects no sample: the samples are at 2026-11-23T10:00:00.000Z .. 2026-11-23T10:00:00.370Z" \
  "$PCOL" top "$tmp/ff.json" --from 2026-11-23T11:00:00Z
"$PCOL" fold "$tmp/ff.json" --from @1795428000 --to @1795428000.1 >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] ||
  fail "a wall-clock range that reaches samples warned: $(cat "$tmp/err")"

# from > to is a usage error
expect 2 '--from 0.3 is after --to 0.1' "$PCOL" top $rp --from 0.3 --to 0.1
expect 2 '--from-time 2 is after --to-time 1' "$PCOL" unpack $rp --to collapsed --from-time 2 --to-time 1 -o "$tmp/x"

# a source that does not exist, in every command that selects samples
for cmd in "top $rp" "fold $rp" "flame $rp -o $tmp/f.svg"; do
  expect 1 'no source 9 (the file has 1)' "$PCOL" $cmd --source 9
done
for t in rprof pprof perun collapsed speedscope; do
  expect 1 'no source 9 (the file has 1)' "$PCOL" unpack $rp --to $t --source 9 -o "$tmp/x"
done

# a base subtracted from an Rprof profile's time: its time counts below 0,
# as go subtracts the cpu column of its pprof copy (rd13a F1; refused before,
# review 10 m3): a profile minus itself is 0 of the base's total.  The
# weight column is refused, pointing to pcol diff, which compares shares.
"$PCOL" top $rp --diff-base $rp | grep -q '^Showing nodes accounting for 0, 0% of 380ms total' ||
  fail "top $rp --diff-base itself: not 0 of 380ms: $("$PCOL" top $rp --diff-base $rp 2>&1 | sed -n 3p)"
"$PCOL" diff $rp $rp >/dev/null || fail "pcol diff of an Rprof profile and itself"
expect 1 "or compare the profiles' shares with .pcol diff BASE PROFILE." "$PCOL" top $rp --diff-base $rp --value weight
# ... but samples counted by the rows' weight (collapsed stacks, an OTLP
# eBPF profile's sources) are subtracted, as go -diff_base subtracts the
# samples/count column of their pprof exports (h8: refused as "made by a
# rule"): F minus itself is all 0 of the base's total
printf 'main;a 5
main;b 3
main 2
' >"$tmp/a.txt"
printf 'main;a 2
main;c 4
' >"$tmp/b.txt"
"$PCOL" top "$tmp/a.txt" --diff-base "$tmp/b.txt" --unit raw >"$tmp/out" 2>"$tmp/err" ||
  fail "top of collapsed stacks --diff-base: $(cat "$tmp/err")"
[ "$(awk '$NF == "a" { print $1 } $NF == "c" { print $1 }' "$tmp/out" | tr '\n' ' ')" = "-4 3 " ] &&
  grep -q ' of 6 total' "$tmp/out" || fail "top of collapsed stacks --diff-base: $(cat "$tmp/out")"
otlp="${PCOL_TESTDATA:-../shared/testdata}/ext/pprof/ODD-otlp-ebpf-profile.pb.bin"
if [ -f "$otlp" ]; then
  "$PCOL" top "$otlp" --diff-base "$otlp" >"$tmp/out" 2>"$tmp/err" || fail "OTLP eBPF profile --diff-base itself: $(cat "$tmp/err")"
  grep -q '^Showing nodes accounting for 0, 0% of 5321 total$' "$tmp/out" ||
    fail "OTLP eBPF profile --diff-base itself: not 0 of the base's 5321 $(cat "$tmp/out")"
  if command -v go >/dev/null 2>&1; then
    "$PCOL" unpack "$otlp" --to pprof -o "$tmp/e.pb.gz" 2>/dev/null || fail "pprof export of the OTLP eBPF profile"
    [ "$(go tool pprof -top -diff_base "$tmp/e.pb.gz" "$tmp/e.pb.gz" 2>/dev/null | sed -n '/^Showing/,$p')" = \
      "$(sed -n '/^Showing/,$p' "$tmp/out")" ] || fail "OTLP eBPF profile --diff-base itself: not go's of its export"
  fi
fi
if command -v go >/dev/null 2>&1; then
  "$PCOL" unpack "$tmp/a.txt" --to pprof -o "$tmp/a.pb.gz" 2>/dev/null && "$PCOL" unpack "$tmp/b.txt" --to pprof -o "$tmp/b.pb.gz" 2>/dev/null ||
    fail "pprof exports of collapsed stacks"
  [ "$(go tool pprof -top -diff_base "$tmp/b.pb.gz" "$tmp/a.pb.gz" 2>/dev/null | sed -n '/^Showing/,$p')" = \
    "$("$PCOL" top "$tmp/a.txt" --diff-base "$tmp/b.txt" | sed -n '/^Showing/,$p')" ] ||
    fail "top of collapsed stacks --diff-base: not go's of their exports"
fi

# diff of two different quantities is refused with both named (as go tool
# pprof -diff_base refuses), and works on a value both profiles have
# (an Rprof file and its pprof export default to the time, cpu, as a Go CPU
# profile does; a count against a time is refused)
gocpu="${PCOL_TESTDATA:-../shared/testdata}/pprof/go-cpu-inline-small.pb.gz"
goheap="${PCOL_TESTDATA:-../shared/testdata}/pprof/go-heap-allocs-inline.pb.gz"
if [ -f "$gocpu" ] && [ -f "$goheap" ]; then
  expect 2 'the base measures cpu (nanoseconds), the new profile alloc_space (bytes)' \
    "$PCOL" diff $rp "$goheap"
  expect 2 'or the samples of each with --value samples' "$PCOL" diff $rp "$goheap"
  expect 2 'the base measures cpu (nanoseconds), the new profile alloc_space (bytes)' \
    "$PCOL" flame "$goheap" --diff $rp -o "$tmp/f.svg"
  "$PCOL" diff $rp "$gocpu" >/dev/null || fail "Rprof and Go CPU: both default to cpu"
  "$PCOL" diff $rp "$gocpu" --value samples >/dev/null || fail "Rprof ticks and Go samples/count"
  # two heap profiles whose defaults differ (goheap names alloc_space in
  # pprof's default_sample_type, the delta profile none: inuse_space): the
  # one NEW names, else BASE's, as go tool pprof -diff_base shows (judged by
  # go in tests/interop/t_pprof_header.sh), in diff and flame --diff alike
  # (pcol_value_diff_default; review 17 F6: refused as incompatible)
  gdelta="${PCOL_TESTDATA:-../shared/testdata}/pprof/go-heap-delta-negative-values.pb.gz"
  for pair in "$goheap $gdelta" "$gdelta $goheap"; do
    [ -f "$gdelta" ] || break
    read -r base new <<<"$pair"
    "$PCOL" diff "$base" "$new" -n 3 >"$tmp/d1" 2>"$tmp/err" &&
      "$PCOL" diff "$base" "$new" -n 3 --value alloc_space >"$tmp/d2" &&
      grep -q '^Type: alloc_space (bytes)' "$tmp/d1" && cmp -s "$tmp/d1" "$tmp/d2" ||
      fail "diff $(basename "$base") $(basename "$new"): not alloc_space's: $(head -c 300 "$tmp/d1" "$tmp/err")"
    "$PCOL" flame "$new" --diff "$base" -o "$tmp/f1.svg" 2>"$tmp/err" &&
      "$PCOL" flame "$new" --diff "$base" --value alloc_space -o "$tmp/f2.svg" && cmp -s "$tmp/f1.svg" "$tmp/f2.svg" ||
      fail "flame $(basename "$new") --diff $(basename "$base"): not alloc_space's: $(head -c 300 "$tmp/err")"
  done
  # so of two directories of pcol files, each side answered file by file
  # (pcol_top_many: no one file whose defaults the rule reads) but for the
  # rule, which reads their union, as the R and Python packages read one
  if [ -f "$gdelta" ]; then
    mkdir -p "$tmp/ha" "$tmp/hd"
    for k in 1 2; do
      "$PCOL" pack "$goheap" -o "$tmp/ha/$k.pcol" && "$PCOL" pack "$gdelta" -o "$tmp/hd/$k.pcol" || fail "pack heap"
    done
    "$PCOL" diff "$tmp/hd" "$tmp/ha" -n 3 >"$tmp/d1" 2>"$tmp/err" &&
      "$PCOL" diff "$tmp/hd" "$tmp/ha" -n 3 --value alloc_space >"$tmp/d2" &&
      grep -q '^Type: alloc_space (bytes)' "$tmp/d1" && cmp -s "$tmp/d1" "$tmp/d2" ||
      fail "diff of two directories of heap profiles: not alloc_space's: $(head -c 300 "$tmp/d1" "$tmp/err")"
  fi
  # a pprof export of a CPU and a heap profile: one Profile whose sample
  # types are both's, a type a source lacks 0 for its samples, as in the
  # views, and said as they say it (interop review 4, section 3); one
  # source alone: nothing to say
  "$PCOL" unpack "$gocpu" "$goheap" --to pprof -o "$tmp/mix.pb.gz" 2>"$tmp/err" || fail "unpack cpu+heap"
  grep -q 'source 1 (pprof .*go-cpu-inline-small.pb.gz) has no value alloc_objects/count; its samples count 0' "$tmp/err" ||
    fail "the pprof export of cpu+heap does not say the cpu samples count 0 as alloc_objects: $(head -c 300 "$tmp/err")"
  # (5 lacking: the cpu source's 4 heap types past the 3 shown, the heap
  # source's cpu; its samples/count is its count, THE count rule: review 9 F1)
  grep -q 'and 2 more sample types' "$tmp/err" || fail "the fourth and later lacking types are not counted: $(cat "$tmp/err")"
  "$PCOL" unpack "$gocpu" --to pprof -o "$tmp/one.pb.gz" 2>"$tmp/err" && [ ! -s "$tmp/err" ] ||
    fail "a one-source pprof export warned: $(cat "$tmp/err")"
  # a type one source declares twice and another once: the second has it
  # (only the first's second column is not filled by the other)
  python3 - "$tmp/dup.pb" "$tmp/once.pb" <<'PY' || fail "python3: dup.pb"
import sys
def v(n):
    out = b""
    while n >= 0x80: out += bytes([n & 0x7f | 0x80]); n >>= 7
    return out + bytes([n])
def f(num, payload): return v(num << 3 | 2) + v(len(payload)) + payload
def u(num, n): return v(num << 3) + v(n)
def prof(ntypes):
    st = b"".join(f(1, u(1, 1) + u(2, 2)) for _ in range(ntypes))
    sample = f(2, f(1, v(1)) + f(2, b"".join(v(3) for _ in range(ntypes))))
    loc = f(4, u(1, 1) + u(3, 0x1000))
    strs = b"".join(f(6, s) for s in (b"", b"samples", b"count"))
    return st + sample + loc + strs
open(sys.argv[1], "wb").write(prof(2))
open(sys.argv[2], "wb").write(prof(1))
PY
  "$PCOL" unpack "$tmp/dup.pb" "$tmp/once.pb" --to pprof -o "$tmp/dup2.pb.gz" 2>"$tmp/err" || fail "unpack dup+once"
  grep -q 'has no value samples/count' "$tmp/err" && fail "a source with samples/count was said to have none: $(cat "$tmp/err")"
else
  echo "t_answers: skipped the incompatible-diff checks (no $gocpu)"
fi
"$PCOL" diff $rp "$tmp/d.pb.gz" >/dev/null || fail "an Rprof file and its pprof export: both default to the time"
"$PCOL" diff $rp "$tmp/d.pb.gz" --value samples --format csv > "$tmp/d.csv" || fail "diff --value samples"
# the same samples on both sides: every change is zero
awk -F, 'NR > 1 && ($3 != "0.0000" || $6 != "0.0000") {bad = 1} END {exit bad}' "$tmp/d.csv" ||
  fail "an Rprof profile and its own pprof export differ: $(head -3 "$tmp/d.csv")"

# --value is refused where an exporter would ignore it
for t in pprof speedscope otlp; do
  expect 2 "value applies to --to collapsed, firefox, rprof, perun, v8, chrome and perfetto only" "$PCOL" unpack $rp --to $t --value samples -o "$tmp/x"
done
# (and says what each keeps: speedscope a profile of
# each type; Rprof takes a time, its lines are ticks of it: review 13 m3,
# or samples, a line each: review diff5 m5)
expect 2 "rprof export: --value weight/count is not a time; Rprof's lines are ticks of time" "$PCOL" unpack $rp --to rprof --value weight -o "$tmp/x"
"$PCOL" unpack $rp --to rprof --value samples -o "$tmp/x.out" || fail "unpack --to rprof --value samples"
cmp -s $rp "$tmp/x.out" || fail "unpack --to rprof --value samples of an Rprof file: not the file"
expect 2 "pprof output keeps every value type" "$PCOL" unpack $rp --to pprof --value samples -o "$tmp/x"
expect 2 "otlp output keeps every value type" "$PCOL" unpack $rp --to otlp --value samples -o "$tmp/x"
expect 2 "speedscope output writes a profile of each value type" "$PCOL" unpack $rp --to speedscope --value samples -o "$tmp/x"
# (perun writes one value, --value's: review 16 F5; tests/cli/t_written_value.sh)
"$PCOL" unpack $rp --to perun --value samples -o "$tmp/x" || fail "--value with --to perun"
"$PCOL" unpack $rp --to collapsed --value samples -o "$tmp/x" || fail "--value with --to collapsed"

# standard input can be read once
expect 2 "can be read only once" "$PCOL" diff - - 
expect 2 "can be read only once" "$PCOL" flame - --diff - -o "$tmp/f.svg"
expect 2 "can be read only once" "$PCOL" merge - - -o "$tmp/m.pcol"
# a pprof sample with samples/count N is N samples in every export (THE count
# rule, lib/core/count.c): Rprof lines, collapsed counts and the speedscope
# "samples" profile agree with `top --value samples` and not with the rows
# (t_counts.sh and t_speedscope.sh judge them with go tool pprof and R)
TD=${PCOL_TESTDATA:-../shared/testdata}
g=$TD/pprof/go-cpu-inline-small.pb.gz
# a wall-clock range that cuts a source without sample times names its span
# as the range is given (RFC 3339), not as ns since the epoch (user review 7)
[ -f "$g" ] && expect 1 "cuts its span (2017-09-29T20:57:59.25723537Z to 2017-09-29T20:58:01.25924832Z)" \
  "$PCOL" top "$g" --from 2017-09-29T20:58:00.5Z
if [ -f "$g" ]; then
  total() { sed -n 's/.* of \([0-9]*\) total.*/\1/p'; }
  n=$("$PCOL" top "$g" --value samples -n 1 | total)
  rows=$("$PCOL" top "$g" --value weight -n 1 | total)
  [ -n "$n" ] && [ "$n" != "$rows" ] || fail "$g: samples $n, rows $rows (a profile with counts > 1 expected)"
  "$PCOL" unpack "$g" --to rprof -o "$tmp/g.out" || fail "unpack --to rprof"
  [ "$(grep -vc -e '^sample.interval=' -e '^line profiling:' -e '^#File ' "$tmp/g.out")" = "$n" ] ||
    fail "Rprof export of $g does not have $n sample lines"
  [ "$("$PCOL" unpack "$g" --to collapsed --value samples -o - | awk '{s+=$NF} END{print s}')" = "$n" ] ||
    fail "collapsed export of $g does not count $n samples"
  # without --value a collapsed export writes a source's count (pprof's
  # samples/count), which its readers take its numbers for, not fold's
  # default value (doc/mappings.md §4.2)
  "$PCOL" unpack "$g" --to collapsed -o - | LC_ALL=C sort >"$tmp/u.folded"
  "$PCOL" fold --value samples "$g" | LC_ALL=C sort | cmp -s - "$tmp/u.folded" ||
    fail "collapsed export of $g differs from fold --value samples"
  "$PCOL" unpack "$g" --to speedscope -o "$tmp/g.json" || fail "unpack --to speedscope"
  python3 - "$tmp/g.json" "$n" <<'PY' || fail "speedscope export of $g"
import json, sys
d = json.load(open(sys.argv[1])); p = d["profiles"]
names = [x["name"] for x in p]
assert len(set(names)) == len(names), names
s = [x for x in p if x["name"].endswith(": samples")]
assert len(s) == 1 and sum(s[0]["weights"]) == int(sys.argv[2]), (names, sys.argv[2])
assert p[d["activeProfileIndex"]]["name"].endswith(": cpu"), d["activeProfileIndex"]
PY
fi
# the speedscope export opens on the first source's default, also where an
# Rprof source's cpu (derived) shares its name with a stored type of a pprof
# source in the same file (user review 5: it opened on "demo.out: samples",
# and `pcol top` of the export fell back to sample counts)
"$PCOL" merge $rp "$tmp/d.pb.gz" -o "$tmp/rm.pcol" || fail "merge Rprof and pprof"
"$PCOL" unpack "$tmp/rm.pcol" --to speedscope -o "$tmp/rm.json" || fail "unpack merged --to speedscope"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
n = d["profiles"][d["activeProfileIndex"]]["name"]
assert n.endswith("demo.out: cpu"), n' "$tmp/rm.json" || fail "merged speedscope export opens on the wrong profile"
[ "$("$PCOL" top "$tmp/rm.json" 2>&1 | sed -n 2p)" = "$("$PCOL" top "$tmp/rm.pcol" | sed -n 2p)" ] ||
  fail "top of the merged speedscope export: $("$PCOL" top "$tmp/rm.json" 2>&1 | sed -n 2,3p)"
# Rprof has a time value (the time rule, lib/core/count.c): `--value cpu` is
# ticks x interval, and a merged file warns about a source without it
"$PCOL" top $rp --value cpu --format csv >"$tmp/cpu.csv" || fail "top --value cpu on Rprof"
"$PCOL" top $rp --value samples --format csv >"$tmp/n.csv" || fail "top --value samples"
iv=$(head -1 $rp | sed 's/.*sample.interval=//')
awk -F, -v iv="$iv" 'NR==FNR { if (FNR > 1) n[$6] = $1; next }
  FNR > 1 && $1 != n[$6] * iv * 1000 { print "bad " $6; bad = 1 } END { exit bad }' \
  "$tmp/n.csv" "$tmp/cpu.csv" || fail "Rprof cpu is not samples x interval"
"$PCOL" unpack $rp --to collapsed --value cpu -o "$tmp/cpu.folded" || fail "collapsed export of cpu"
"$PCOL" fold $rp --value cpu | LC_ALL=C sort | cmp -s - <(LC_ALL=C sort "$tmp/cpu.folded") || fail "collapsed cpu export differs from fold"
printf 'main;a 3\nmain;b 2\n' >"$tmp/c.txt"
"$PCOL" merge -o "$tmp/m.pcol" $rp "$tmp/c.txt" || fail "merge"
"$PCOL" top "$tmp/m.pcol" --value cpu --format csv >"$tmp/mcpu.csv" 2>"$tmp/err" || fail "top --value cpu merged"
grep -q "warning: .*source 2 (collapsed .*c.txt) has no value cpu/nanoseconds" "$tmp/err" ||
  fail "no warning for the source without cpu: $(cat "$tmp/err")"
cmp -s "$tmp/cpu.csv" "$tmp/mcpu.csv" || fail "merged cpu differs from the Rprof source's"
"$PCOL" top "$tmp/m.pcol" --value cpu --source 1 2>"$tmp/err" >/dev/null && [ ! -s "$tmp/err" ] ||
  fail "a warning although the selected source has cpu: $(cat "$tmp/err")"
# legacy (pre-protobuf) pprof text is named as legacy, never taken for
# collapsed stacks (interop review F6); the same for the real files of ext/
printf 'threadcreate profile: total 7\n1 @ 0x44cb3 0x271fb5\n' >"$tmp/tc.thread"
printf -- '--- threadz 1 ---\n\n--- Thread 7f79 (name: main/1) stack: ---\n  PC:  0x00bc8f1c: helper\n' >"$tmp/tz.thread"
printf -- '--- heapz 1 ---\nformat = java\nresolution = bytes\n  7048  1 @ 0x3 0x4\n' >"$tmp/hz.heap"
legacy=("$tmp/tc.thread" "$tmp/tz.thread" "$tmp/hz.heap")
[ -d "${PCOL_TESTDATA:-../shared/testdata}/ext/legacy" ] && legacy+=("${PCOL_TESTDATA:-../shared/testdata}"/ext/legacy/*)
# (the legacy profiles go reads, pcol reads: pprof_legacy.c, pprof_legacy_text.c;
# the rest, a threadz without its end and jemalloc's, are refused by name)
for f in "${legacy[@]}"; do
  case $f in *.cpu) continue ;; esac
  case $f in
  */tz.thread | *jemalloc*)
    expect 1 "legacy .*profile (text) in a form go tool pprof does not read either" "$PCOL" top "$f" ;;
  *) "$PCOL" top "$f" 2>"$tmp/err" | grep -q "^Type: " || fail "legacy $f not read: $(cat "$tmp/err")" ;;
  esac
done
# every reading command reads any format; a directory says so; text is not
# taken for pprof; --source on a table without samples is refused
"$PCOL" validate $rp | grep -q "valid (read in full" || fail "validate of an Rprof file"
"$PCOL" info $rp | grep -q "^input_format: *rprof" || fail "info of an Rprof file"
"$PCOL" cat "$tmp/d.pb.gz" -t functions --format csv | grep -q "^[0-9]*,fib," || fail "cat of a pprof file"
# (a directory is its files' union, tests/cli/t_many.sh: an empty one says so)
mkdir "$tmp/empty"
for cmd in "top" "cat -t meta" "info" "fold" "unpack --to rprof -o $tmp/x" "pack -o $tmp/x" "validate"; do
  expect 2 "directory '$tmp/empty' holds no file" "$PCOL" $cmd "$tmp/empty"
done
printf 'hello world\nfoo\n' >"$tmp/t.txt"
expect 1 "unrecognised input format" "$PCOL" top "$tmp/t.txt"
expect 2 "apply to samples, .* not functions" "$PCOL" cat $rp -t functions --source 1
# damage found inside a column names the file, the table and the column
"$PCOL" pack $rp -o "$tmp/d.pcol" --format-version 1.2 || fail "pack" # plain ids, patched in place
off=$("$PCOL" info "$tmp/d.pcol" | awk '$1 == "samples_stored" && $2 == "stack_id" { print $5 }')
[ -n "$off" ] || fail "no stack_id section in pcol info"
cp "$tmp/d.pcol" "$tmp/bad.pcol"
printf '\377\377\377\177' | dd of="$tmp/bad.pcol" bs=1 seek="$off" conv=notrunc 2>/dev/null
for cmd in "top" "fold" "cat -t samples"; do
  expect 1 "$tmp/bad.pcol: table samples_stored, column stack_id: id 2147483647 at row 0 is out of range" \
    "$PCOL" $cmd "$tmp/bad.pcol"
done
# (unpack, which writes, checks the checksums first, as merge: review 20b F1)
expect 1 "$tmp/bad.pcol: body checksum mismatch" "$PCOL" unpack --to pprof -o "$tmp/x" "$tmp/bad.pcol"
# F4: a real Perun file's amounts up to 5.6e17 ms are values (stored x 10^k,
# the largest k <= 9 that fits 64 bits), and their sum past 2^63 is an exact
# 128-bit sum, never an error: top, fold and diff give the file's own sum.
# Its 242 amounts such as 1.0959582263852172 ms, which that grid (0.1 ms)
# does not hold to six significant digits, are rounded to it with ONE
# warning (THE kept rule, pcol_kept_verdict: what they lose is far below a
# millionth of the total; h13 refused the file, h3's rule silently held them)
big="${PCOL_TESTDATA:-../shared/testdata}/ext/perun/degradation_profiles__const4.perf"
if [ -f "$big" ]; then
  "$PCOL" top "$big" --format json >"$tmp/big.json" 2>"$tmp/big.err" || fail "top of $big"
  [ "$(grep -c . "$tmp/big.err")" = 1 ] &&
    grep -q "warning: .*const4.perf: 242 amounts not held to six significant digits (the first: line 127 column 41, amount\[0\], 1.0959582263852172 held as 1.1) are rounded to the file's grid, as pcol keeps them, 0 of them to 0: the total lost 0.411 of " "$tmp/big.err" ||
    fail "the rounding warning of $big: $(cat "$tmp/big.err")"
  "$PCOL" fold "$big" >"$tmp/big.folded" || fail "fold of $big"
  "$PCOL" diff "$big" "$big" --absolute >/dev/null || fail "diff of $big"
  python3 - "$big" "$tmp/big.json" "$tmp/big.folded" <<'PY' || fail "the sum of $big"
import json, sys
from decimal import Decimal
doc = json.load(open(sys.argv[1]), parse_float=Decimal)
# layout 3: resources[K] is a set of columns, one of them "amount"
amounts = [a for cols in doc["resources"].values() for a in cols["amount"]]
want = sum(Decimal(a) for a in amounts)               # the file's own sum
top = json.load(open(sys.argv[2]))
k = int(top["unit"][3]) if top["unit"].startswith("1e-") else 0  # stored x 10^k
fold = sum(Decimal(l.rsplit(" ", 1)[1]) for l in open(sys.argv[3]))  # fold prints the amounts
assert top["total"] > 2**63, top["total"]                 # past 64 bits: a 128-bit sum
assert Decimal(top["total"]) / 10**k == fold, (top["total"], fold)
assert abs(fold - want) <= len(amounts) * Decimal(10) ** -k, (fold, want)  # rounding: 10^-k a value
print("F4: %d amounts, total %s" % (len(amounts), fold))
PY
fi
exit 0
