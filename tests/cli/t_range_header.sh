#!/usr/bin/env bash
# The Time: and Duration: lines of a time range (spec.md §7 "Recordings",
# pcol_sources_time): each source's window [start, start + duration) cut by
# the range in the range's clock (seconds from each source's own start, or
# wall-clock times), Time: where the cut part begins, Duration: its length;
# the cut windows added across separate inputs as go's merge adds them, a
# recording's parts counted once as the span of their cut windows, a
# source the range misses counting for nothing.  Before, the header kept
# the whole recording's time and duration whatever the range, so the share
# after "Total samples" was of the wrong length (a fully sampled second of a
# 4 s profile said 25%).  The pprof export of a range writes the same
# time_nanos and duration_nanos (read here from its bytes by
# tests/support/pprof_times.py; go's own reading of them:
# tests/interop/t_pprof_header.sh).
# Inputs made here: speedscope files with pcolStart/pcolDuration (and
# pcolRecordingPart), sampled all through (tests/support/window_gen.py); a
# pprof (no sample times) by tests/support/pprofgen.py.
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
fail() { echo "t_range_header: FAIL: $*" >&2; exit 1; }

# T0 = 2026-01-01T00:00:58Z: a range from 00:01:00 moves Time:'s minute
T0=1767225658
python3 "$REPO/tests/support/window_gen.py" "$tmp" "$T0" || fail "window_gen.py"
# a pprof at T0+10 s of 2 s, samples without times
python3 "$REPO/tests/support/pprofgen.py" comments-at "$tmp/p.pb" "$((T0 + 10))000000000" c ||
  fail "pprofgen.py"
one=$tmp/one.json later=$tmp/later.json rec=$tmp/rec.json pb=$tmp/p.pb
w() { # w MS: T0 + MS milliseconds in wall-clock time (RFC 3339)
  local t=$((T0 * 1000 + $1))
  echo "$(date -u -d "@$((t / 1000))" +%Y-%m-%dT%H:%M:%S).$(printf %03d $((t % 1000)))Z"
}
hdr() { "$PCOL" top "$@" -n 1 2>/dev/null | grep -E '^(Time|Duration):'; }
# check "LABEL" "TIME LINE" "DURATION LINE" INPUT... OPTIONS: top's lines
check() {
  local label=$1 want
  want=$(printf '%s\n%s' "$2" "$3" | grep .)
  shift 3
  local got
  got=$(hdr "$@")
  [ "$got" = "$want" ] || fail "$label: header
$got
want
$want"
}
# export "LABEL" "TIME_NS DURATION_NS" INPUT OPTIONS: the pprof export's fields
export_is() {
  local label=$1 want=$2
  shift 2
  "$PCOL" unpack "$@" --to pprof -o "$tmp/x.pb.gz" 2>"$tmp/err" || fail "$label: unpack: $(cat "$tmp/err")"
  local got
  got=$(python3 "$REPO/tests/support/pprof_times.py" "$tmp/x.pb.gz")
  [ "$got" = "$want" ] || fail "$label: the export's time_nanos duration_nanos are '$got', want '$want'"
  # and read back, the export's header is top's of the range
  [ "$(hdr "$tmp/x.pb.gz")" = "$(hdr "$@")" ] ||
    fail "$label: the export's header '$(hdr "$tmp/x.pb.gz")' is not top's '$(hdr "$@")'"
}
# copies_are "LABEL" INPUT OPTIONS: the speedscope, Firefox and OTLP exports
# of the selection state its time and duration as top's header of it has
# them, so that top of the copy says the same Time: and Duration: (to the
# ns: the copy's pprof export's time_nanos and duration_nanos are the
# selection's); before, speedscope's pcolStart/pcolDuration and OTLP's
# time_unix_nano/duration_nano were each source's whole window, and the
# Firefox copy's start its earliest source's (its meta.startTime).  The
# Chrome copy states no wall-clock time: its Duration: line and duration
# only (and no wall-clock range can be read of it); CHROME= leaves it out
# where the Chrome export refuses the input (a source weighed by a count:
# a Chrome trace's samples last their time until the next, checked below).
# Before, it was left out also of a source whose cut window holds no sample
# (no profile written: 'Duration: 1s' for 2s) and of rows past a missed
# window (its profile as long as its samples: 'Duration: 3s' for 500ms)
copies_are() {
  local label=$1 want fmt got
  shift
  "$PCOL" unpack "$@" --to pprof -o "$tmp/x.pb.gz" 2>"$tmp/err" || fail "$label: unpack: $(cat "$tmp/err")"
  want=$(python3 "$REPO/tests/support/pprof_times.py" "$tmp/x.pb.gz")
  for fmt in speedscope firefox otlp ${CHROME-chrome}; do
    "$PCOL" unpack "$@" --to $fmt -o "$tmp/c.$fmt" 2>"$tmp/err" || fail "$label: unpack --to $fmt: $(cat "$tmp/err")"
    if [ $fmt = chrome ]; then
      [ "$(hdr "$tmp/c.$fmt" | grep ^Duration)" = "$(hdr "$@" | grep ^Duration)" ] ||
        fail "$label: the $fmt copy's header '$(hdr "$tmp/c.$fmt")' is not top's '$(hdr "$@")'"
      "$PCOL" unpack "$tmp/c.$fmt" --to pprof -o "$tmp/c.pb.gz" 2>"$tmp/err" || fail "$label: $fmt copy: $(cat "$tmp/err")"
      got=$(python3 "$REPO/tests/support/pprof_times.py" "$tmp/c.pb.gz")
      [ "${got#* }" = "${want#* }" ] || fail "$label: the $fmt copy's duration is '${got#* }', the selection's '${want#* }'"
      continue
    fi
    [ "$(hdr "$tmp/c.$fmt")" = "$(hdr "$@")" ] ||
      fail "$label: the $fmt copy's header '$(hdr "$tmp/c.$fmt")' is not top's '$(hdr "$@")'"
    "$PCOL" unpack "$tmp/c.$fmt" --to pprof -o "$tmp/c.pb.gz" 2>"$tmp/err" || fail "$label: $fmt copy: $(cat "$tmp/err")"
    got=$(python3 "$REPO/tests/support/pprof_times.py" "$tmp/c.pb.gz")
    # (Firefox's meta.startTime is a double of ms: within its 244 ns step
    # at today's times, the start of a source that does not start on a ms)
    [ $fmt = firefox ] && [ "${got#* }" = "${want#* }" ] && [ "${got%% *}" != 0 ] &&
      [ $(( ${got%% *} - ${want%% *} )) -lt 250 ] && [ $(( ${want%% *} - ${got%% *} )) -lt 250 ] && got=$want
    [ "$got" = "$want" ] || fail "$label: the $fmt copy's start and duration are '$got', the selection's '$want'"
  done
}
ns() { echo $(((T0 * 1000 + $1) * 1000000)); } # ns MS: T0 + MS milliseconds in ns
t00="Time: Jan 1, 2026 at 12:00am (UTC)" t01="Time: Jan 1, 2026 at 12:01am (UTC)"

# ---- one source, [T0, T0+4), fully sampled (wall time: a range's total is its length)
check "whole" "$t00" "Duration: 4s, Total samples = 4s (  100%)" "$one"
export_is "whole" "$(ns 0) 4000000000" "$one"
# a range inside: relative, then the same instants in wall-clock time
check "inside, relative" "$t00" "Duration: 1s, Total samples = 1000ms (  100%)" "$one" --from 1 --to 2
check "inside, wall-clock" "$t00" "Duration: 1s, Total samples = 1000ms (  100%)" "$one" --from "$(w 1000)" --to "$(w 2000)"
export_is "inside, relative" "$(ns 1000) 1000000000" "$one" --from 1 --to 2
export_is "inside, wall-clock" "$(ns 1000) 1000000000" "$one" --from "$(w 1000)" --to "$(w 2000)"
copies_are "inside, relative" "$one" --from 1 --to 2
copies_are "inside, wall-clock" "$one" --from "$(w 1000)" --to "$(w 2000)"
# Time: is where the cut part begins (00:01:00, not the source's 00:00:58)
check "inside from 00:01:00" "$t01" "Duration: 1s, Total samples = 1000ms (  100%)" "$one" \
  --from 2026-01-01T00:01:00Z --to 2026-01-01T00:01:01Z
check "inside from 2.5 s" "$t01" "Duration: 500ms, Total samples = 500ms (  100%)" "$one" --from 2.5 --to 3
copies_are "inside from 2.5 s" "$one" --from 2.5 --to 3
# overlapping the start: from before it, or no --from
check "over the start, wall-clock" "$t00" "Duration: 1s, Total samples = 1000ms (  100%)" "$one" \
  --from "$(w -5000)" --to "$(w 1000)"
check "over the start, relative" "$t00" "Duration: 1s, Total samples = 1000ms (  100%)" "$one" --to 1
export_is "over the start, wall-clock" "$(ns 0) 1000000000" "$one" --from "$(w -5000)" --to "$(w 1000)"
# overlapping the end: past it, or no --to
check "over the end, relative" "$t01" "Duration: 1s, Total samples = 1000ms (  100%)" "$one" --from 3 --to 10
check "over the end, wall-clock" "$t01" "Duration: 500ms, Total samples = 500ms (  100%)" "$one" \
  --from "$(w 3500)"
export_is "over the end, relative" "$(ns 3000) 1000000000" "$one" --from 3 --to 10
export_is "over the end, wall-clock" "$(ns 3500) 500000000" "$one" --from "$(w 3500)"
copies_are "over the start, relative" "$one" --to 1
copies_are "over the end, wall-clock" "$one" --from "$(w 3500)"
# a range holding it: the whole window
check "holding it" "$t00" "Duration: 4s, Total samples = 4s (  100%)" "$one" --from "$(w -60000)" --to "$(w 60000)"
# missing the window: no Time:, no Duration: (nothing selected either)
check "missing, relative" "" "" "$one" --from 5 --to 6
check "missing, wall-clock" "" "" "$one" --from "$(w 10000)" --to "$(w 20000)"
export_is "missing, relative" "0 0" "$one" --from 5 --to 6

# ---- two separate inputs: their cut windows added, the earliest cut start
# one [T0, T0+4) and later [T0+100, T0+102): 1 s of each
check "two inputs, relative" "$t00" "Duration: 2s, Total samples = 2s (  100%)" "$one" "$later" --from 1 --to 2
# one and the pprof at T0+10 (2 s, no sample times: whole inside the range):
# one's [T0+3, T0+4) and the pprof's 2 s
check "with a pprof, wall-clock" "$t01" "Duration: 3s, Total samples = 1000ms (33.33%)" "$one" "$pb" \
  --from "$(w 3000)" --to "$(w 13000)" --value wall
# a range that misses one of them: the other's alone (its Time: too)
# (the union is the merge of the inputs the range reaches, whatever their
# format: the speedscope file is left out as a pcol file is, so its value
# wall is not the union's, and the pprof's cpu is the default)
check "with a pprof, one missed" "$t01" "Duration: 2s, Total samples = 40ns (2e-06%)" "$one" "$pb" \
  --from "$(w 9000)" --to "$(w 13000)"
"$PCOL" pack "$one" -o "$tmp/one.pcol" || fail "pack one"
check "with a pprof, one missed (packed)" "$t01" "Duration: 2s, Total samples = 40ns (2e-06%)" "$tmp/one.pcol" "$pb" \
  --from "$(w 9000)" --to "$(w 13000)"
for in1 in "$one" "$tmp/one.pcol"; do
  "$PCOL" top "$in1" "$pb" --from "$(w 9000)" --to "$(w 13000)" --value wall >/dev/null 2>"$tmp/err" &&
    fail "with a pprof, one missed: --value wall of the input left out taken ($in1)"
  grep -q "no value type 'wall'" "$tmp/err" || fail "with a pprof, one missed ($in1): $(cat "$tmp/err")"
done
# the same as their merged file and as pcol files read one by one
"$PCOL" pack "$one" -o "$tmp/one.pcol" && "$PCOL" pack "$later" -o "$tmp/later.pcol" &&
  "$PCOL" merge "$one" "$later" -o "$tmp/m.pcol" || fail "pack, merge"
want=$(hdr "$one" "$later" --from 1 --to 2)
[ "$(hdr "$tmp/m.pcol" --from 1 --to 2)" = "$want" ] || fail "two inputs: the merged file's header is not the union's"
# a relative range over two recordings takes a window of each, and says so
# (review 16 F7: "--from 0 --to 1" of three rolled files, "Duration: 3s",
# nothing said): pcol files read one by one (pcol_top_many_range_note) as
# their union (pcol_range_note)
PCOL_DEBUG=inputs "$PCOL" top "$tmp/one.pcol" "$tmp/later.pcol" --from 1 --to 2 -n 1 2>"$tmp/err" |
  grep -E '^(Time|Duration):' >"$tmp/h"
grep -q 'each on its own' "$tmp/err" || fail "two pcol files were not read one by one: $(cat "$tmp/err")"
[ "$(cat "$tmp/h")" = "$want" ] || fail "two pcol files read one by one: '$(cat "$tmp/h")', want '$want'"
note='note: .*: a relative time range counts from each source.s own start: it took a window of each of the 2 recordings it reaches'
grep -q "$note" "$tmp/err" || fail "two pcol files, relative: no note of the two windows: $(cat "$tmp/err")"
"$PCOL" top "$one" "$later" --from 1 --to 2 -n 1 2>&1 >/dev/null | grep -q "$note" ||
  fail "two inputs, relative: no note of the two windows"
"$PCOL" top "$tmp/m.pcol" --from 1 --to 2 -n 1 2>&1 >/dev/null | grep -q "$note" ||
  fail "the merged file, relative: no note of the two windows"
# and an export of it, which writes their durations added (rd8 L2)
"$PCOL" unpack "$tmp/m.pcol" --from 1 --to 2 --to pprof -o "$tmp/rn.pb.gz" 2>&1 >/dev/null | grep -q "$note" ||
  fail "unpack of the merged file, relative: no note of the two windows"
"$PCOL" unpack "$one" --from 1 --to 2 --to pprof -o "$tmp/rn.pb.gz" 2>&1 | grep -q 'relative time range' &&
  fail "unpack of one recording: a note of windows"
# no note: one recording's parts (one window), one source, --source N, a
# wall-clock range (one window of all), no range
for args in "$rec --from 1 --to 2" "$one --from 1 --to 2" "$tmp/m.pcol --source 2 --from 1 --to 2" \
  "$tmp/m.pcol --from $(w 1000) --to $(w 101000)" "$tmp/m.pcol"; do
  # shellcheck disable=SC2086
  "$PCOL" top $args -n 1 2>&1 >/dev/null | grep -q 'relative time range' && fail "top $args: a note of windows"
done
# the two pcol files read one by one (a wall-clock range reaching both):
# the union's header
w2="--from $(w 1000) --to $(w 101000)"
# shellcheck disable=SC2086
want=$(hdr "$one" "$later" $w2)
# shellcheck disable=SC2086
PCOL_DEBUG=inputs "$PCOL" top "$tmp/one.pcol" "$tmp/later.pcol" $w2 -n 1 2>"$tmp/err" |
  grep -E '^(Time|Duration):' >"$tmp/h"
grep -q 'each on its own' "$tmp/err" || fail "two pcol files were not read one by one: $(cat "$tmp/err")"
[ "$(cat "$tmp/h")" = "$want" ] || fail "two pcol files read one by one: '$(cat "$tmp/h")', want '$want'"
export_is "merged file, relative" "$(ns 1000) 2000000000" "$tmp/m.pcol" --from 1 --to 2
copies_are "two inputs, relative" "$one" "$later" --from 1 --to 2
copies_are "merged file, relative" "$tmp/m.pcol" --from 1 --to 2
# --source N: that source's cut window
check "--source 2" "Time: Jan 1, 2026 at 12:02am (UTC)" "Duration: 1s, Total samples = 1000ms (  100%)" \
  "$tmp/m.pcol" --source 2 --from 1 --to 2
copies_are "--source 2, relative" "$tmp/m.pcol" --source 2 --from 1 --to 2
copies_are "--source 1, wall-clock" "$tmp/m.pcol" --source 1 --from "$(w 2500)"
copies_are "--source 2, whole" "$tmp/m.pcol" --source 2
# a range that misses a source's window: the copies state nothing of it,
# as top (review F1: the OTLP copy kept its whole window, 'Duration: 2s'
# and 50%, the Firefox copy its start, 12:00am, where top says 12:02am,
# 1s, 100%): short [T0, T0+1) and later [T0+100, T0+102), from 1 to 2 s
short=$tmp/short.json sparse=$tmp/sparse.json
check "short and later, short missed" "Time: Jan 1, 2026 at 12:02am (UTC)" \
  "Duration: 1s, Total samples = 1000ms (  100%)" "$short" "$later" --from 1 --to 2
"$PCOL" merge "$short" "$later" -o "$tmp/m2.pcol" || fail "merge short later"
copies_are "merged, the first source missed" "$tmp/m2.pcol" --from 1 --to 2
"$PCOL" merge "$later" "$short" -o "$tmp/m2r.pcol" || fail "merge later short"
copies_are "merged, the last source missed" "$tmp/m2r.pcol" --from 1 --to 2
# a range that hits a source's window where it has no samples: the copies
# state its cut window, as top (review F3: the speedscope copy left the
# source out, 'Duration: 1s' and 100% where top says 2s, 50%): one
# [T0, T0+4) and sparse [T0+200, T0+204) sampled in its first second
check "one and sparse, sparse unsampled" "$t01" "Duration: 2s, Total samples = 1000ms (50.00%)" \
  "$one" "$sparse" --from 2 --to 3
"$PCOL" merge "$one" "$sparse" -o "$tmp/m3.pcol" || fail "merge one sparse"
copies_are "merged, a window without samples" "$tmp/m3.pcol" --from 2 --to 3
copies_are "merged, a window without samples, from 1.5 s" "$tmp/m3.pcol" --from 1.5
# a range that misses a source's window but selects rows of it lying past
# the duration it states: top counts its samples, not its window (Time:
# and Duration: of later's cut window); the copies write it with the
# header's start and no duration, so that it adds nothing to the copy's
# header in go's merge (the earliest start) wherever it stands.  Before,
# the OTLP copy wrote it with time_unix_nano 0 and its samples' instants,
# which the import took as its start (12:01am for top's 12:02am), and the
# speedscope copy with no pcolStart, which go's merge of it after later
# takes as the start (no Time: line): overrun states [T0+50, T0+51), sampled
# to T0+53, and later [T0+100, T0+102), from 1.5 to 2.5 s
overrun=$tmp/overrun.json
check "later and overrun, overrun's window missed" "Time: Jan 1, 2026 at 12:02am (UTC)" \
  "Duration: 500ms, Total samples = 1500ms (300.00%)" "$later" "$overrun" --from 1.5 --to 2.5
"$PCOL" merge "$later" "$overrun" -o "$tmp/m4.pcol" && "$PCOL" merge "$overrun" "$later" -o "$tmp/m4r.pcol" ||
  fail "merge later overrun"
copies_are "merged, rows past a missed window, last" "$tmp/m4.pcol" --from 1.5 --to 2.5
copies_are "merged, rows past a missed window, first" "$tmp/m4r.pcol" --from 1.5 --to 2.5
copies_are "two inputs, rows past a missed window" "$later" "$overrun" --from 1.5 --to 2.5
# from 2.2 to 2.8 s: later's 2 s missed too: no Time:, no Duration: (the
# copies state no start of overrun either)
check "overrun's rows, both missed" "" "" "$later" "$overrun" --from 2.2 --to 2.8
copies_are "merged, rows past a missed window, both missed" "$tmp/m4.pcol" --from 2.2 --to 2.8
copies_are "overrun alone, rows past its window" "$overrun" --from 1.5 --to 2.5
# and the rows read back keep their instants: the copy's wall-clock range
# of them holds as many samples as the input's
for fmt in speedscope firefox otlp; do
  "$PCOL" unpack "$tmp/m4.pcol" --from 1.5 --to 2.5 --to $fmt -o "$tmp/c.$fmt" 2>"$tmp/err" || fail "unpack $fmt: $(cat "$tmp/err")"
  a=$("$PCOL" top "$tmp/m4.pcol" --from "$(w 51500)" --to "$(w 52500)" -n 1 2>/dev/null | grep '^Duration\|^Showing nodes' | head -1)
  b=$("$PCOL" top "$tmp/c.$fmt" --from "$(w 51500)" --to "$(w 52500)" -n 1 2>/dev/null | grep '^Duration\|^Showing nodes' | head -1)
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "the $fmt copy's overrun rows moved: '$b', the input's '$a'"
done

# ---- one recording of two parts, p1 [T0, T0+2) and p2 [T0+1, T0+4): once, as
# the span of the parts' cut windows
check "recording, whole" "$t00" "Duration: 4s, Total samples = 5s (125.00%)" "$rec"
# [T0+1.5, T0+3): p1's [1.5, 2) and p2's [1.5, 3): 1.5 s (2 s of samples)
check "recording, inside" "$t00" "Duration: 1.50s, Total samples = 2s (133.33%)" "$rec" \
  --from "$(w 1500)" --to "$(w 3000)"
# [T0+2.5, ...): p1 missed, p2's [2.5, 4)
check "recording, one part missed" "$t01" "Duration: 1.50s, Total samples = 1500ms (  100%)" "$rec" \
  --from "$(w 2500)"
# relative 0.5 to 1: p1's [T0+0.5, T0+1), p2's [T0+1.5, T0+2): span 1.5 s
check "recording, relative" "$t00" "Duration: 1.50s, Total samples = 1000ms (66.67%)" "$rec" --from 0.5 --to 1
export_is "recording, relative" "$(ns 500) 1500000000" "$rec" --from 0.5 --to 1
copies_are "recording, relative" "$rec" --from 0.5 --to 1
copies_are "recording, a part, wall-clock" "$rec" --source 2 --from "$(w 2500)"
# a range that misses p1 (review F1: the OTLP copy said 12:00am, 4s,
# 12.50%, the Firefox copy 12:00am; top 12:01am, 500ms, 100%)
copies_are "recording, a part missed" "$rec" --from 2.5 --to 3
# the whole recording's copies read with a range in seconds: counted from
# each part's own start, as of the source (review rd17a F3: the Chrome copy
# timed p2 from p1's start: --from 1.5 --to 2.5 1s, 150% for 2s, 75%;
# --source 2 --from 0 --to 0.5 nothing for 500ms)
for fmt in speedscope firefox otlp perfetto chrome; do
  "$PCOL" unpack "$rec" --to $fmt -o "$tmp/w.$fmt" 2>"$tmp/err" || fail "recording --to $fmt: $(cat "$tmp/err")"
  for r in "--from 1.5 --to 2.5" "--source 2 --from 0 --to 0.5" "--from 0.5 --to 1"; do
    # shellcheck disable=SC2086
    a=$("$PCOL" top "$rec" $r -n 1 2>/dev/null | grep '^Duration') b=$("$PCOL" top "$tmp/w.$fmt" $r -n 1 2>/dev/null | grep '^Duration')
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "recording, the $fmt copy read $r: '$b', the source '$a'"
  done
done
# the recording beside a separate input: added
check "recording and one" "$t01" "Duration: 2s, Total samples = 2s (  100%)" "$rec" "$one" \
  --from "$(w 3000)" --to "$(w 5000)"
# an Rprof source states no duration (spec.md §7): alone no Duration: line,
# merged with a 30 s Go CPU profile 30 s, its time in the total (review 9)
TD=${PCOL_TESTDATA:-$REPO/../shared/testdata}
# a tool's OTLP message (the eBPF profiler's: 83 Profiles of one recording,
# each 4.79 s, most without samples in a given second): the copies of a
# range say top's Time: and Duration: (before, the speedscope copy's
# import joined the empty profiles of consecutive parts into one source,
# so the recording fell apart into several: 'Duration: 10s' for 1s)
ebpf=$TD/ext/pprof/ODD-otlp-ebpf-profile.pb.bin
if [ -f "$ebpf" ]; then
  CHROME= copies_are "eBPF OTLP, a second" "$ebpf" --from 1 --to 2
  CHROME= copies_are "eBPF OTLP, the end" "$ebpf" --from 4.5
  CHROME= copies_are "eBPF OTLP, the start" "$ebpf" --to 0.01
  # (the Chrome export refuses it, naming the source and why: some of its
  # profiles weigh their samples by samples/count, no duration)
  "$PCOL" unpack "$ebpf" --from 1 --to 2 --to chrome -o "$tmp/c.chrome" 2>"$tmp/err"
  [ $? = 1 ] && grep -q "chrome export: source [0-9]* (.*) weighs its samples by samples/count by default, not a time; a Chrome trace's CPU profile (V8's Profile events) weighs each sample by its duration" "$tmp/err" ||
    fail "eBPF OTLP to chrome: not refused as a count: $(cat "$tmp/err")"
fi
if [ -f "$TD/rprof/proftools__Rprof-dg.out" ] && [ -f "$TD/ext/pprof/go-cpu-phlaredb.pb.gz" ]; then
  $PCOL top "$TD/rprof/proftools__Rprof-dg.out" > "$tmp/top" || fail "top of Rprof"
  grep -q '^Duration:' "$tmp/top" && fail "Rprof alone states a duration: $(grep '^Duration:' "$tmp/top")"
  # and so does its Firefox copy, whole or of a range (review F8: the
  # import took the samples' extent, 'Duration: 3.88s', '1s' of --from 1
  # --to 2); the copy's meta.pcolDurationNanos 0 says none
  for r in "" "--from 1 --to 2"; do
    # shellcheck disable=SC2086
    $PCOL unpack "$TD/rprof/proftools__Rprof-dg.out" $r --to firefox -o "$tmp/rr.json" || fail "Rprof to Firefox"
    $PCOL top "$tmp/rr.json" >"$tmp/top" || fail "top of the Rprof's Firefox copy"
    grep -q '^Duration:' "$tmp/top" && fail "the Firefox copy of Rprof ${r:-whole} states a duration: $(grep '^Duration:' "$tmp/top")"
  done
  $PCOL top "$TD/ext/pprof/go-cpu-phlaredb.pb.gz" "$TD/rprof/proftools__Rprof-dg.out" > "$tmp/top" || fail "top of Go + Rprof"
  grep -qx 'Duration: 30s, Total samples = 4.38s (14.60%)' "$tmp/top" || fail "Go + Rprof: $(grep '^Duration:' "$tmp/top")"
  $PCOL info "$TD/ext/pprof/go-cpu-phlaredb.pb.gz" "$TD/rprof/proftools__Rprof-dg.out" | grep -c '^  duration:' |
    grep -qx 1 || fail "pcol info: a duration for the Rprof source"
fi
# a wall-clock range past a file whose samples have no times (pprof): its
# recording's span said, as for timed samples (rd11 F6: 0 total, no word)
if [ -f "$TD/pprof/go-cpu-inline-small.pb.gz" ]; then
  $PCOL top "$TD/pprof/go-cpu-inline-small.pb.gz" --from 2030-01-01T00:00:00Z -n 1 >/dev/null 2>"$tmp/err" ||
    fail "a range past an untimed file: exit $?"
  grep -q 'selects no sample: the samples are at 2017-09-29T20:57:59.257Z .. 2017-09-29T20:58:01.259Z' "$tmp/err" ||
    fail "a range past an untimed file: $(cat "$tmp/err")"
fi
# a wall-clock range on sources without a wall-clock start: `--source N`
# is offered as a way out only when another selected source has one (rd18
# F5: a Chrome trace, none of whose sources has one, was told to pick
# another, also after --source had picked one)
ct=$REPO/tests/fuzz-regress/chrome/two-threads.json
wall_err() { "$PCOL" top "$@" -n 1 >/dev/null 2>"$tmp/err" && fail "a wall-clock range on $*: exit 0"; cat "$tmp/err"; }
e=$(wall_err "$ct" --from 2026-11-30T06:56:00Z)
case $e in *"has no wall-clock start"*) ;; *) fail "Chrome trace, wall-clock range: $e" ;; esac
case $e in *"--source N"*) fail "Chrome trace (no source has a wall clock) offers --source: $e" ;; esac
e=$(wall_err "$ct" --source 2 --from 2026-11-30T06:56:00Z)
case $e in *"--source N"*) fail "--source 2 given, --source offered again: $e" ;; esac
if [ -f "$TD/pprof/go-cpu-inline-small.pb.gz" ]; then
  "$PCOL" merge "$ct" "$TD/pprof/go-cpu-inline-small.pb.gz" -o "$tmp/mix.pcol" || fail "merge Chrome + pprof"
  e=$(wall_err "$tmp/mix.pcol" --value samples --from 2017-09-29T20:57:00Z)
  case $e in *"source 1 "*"or leave it out with --source N (one of the others)"*) ;;
    *) fail "Chrome + pprof (source 3 has a wall clock): no --source hint: $e" ;; esac
  e=$(wall_err "$tmp/mix.pcol" --value samples --source 2 --from 2017-09-29T20:57:00Z)
  case $e in *"source 2 "*"--source N"*) fail "--source 2 given: --source offered again: $e" ;; *"source 2 "*) ;;
    *) fail "--source 2 of Chrome + pprof: $e" ;; esac
fi
# THE span start (spec.md §7 "Span start", meta pcol.span_start_ns) places a
# source without sample times in the range as `pcol info` and the header
# do (rd14a F4: the range rule put it at [0, duration) while info said
# "from 1s to 1.4s": --from 1 --to 1.5 gave 0 with "Duration: 400ms" and
# --from 0 --to 0.5 all samples), in both clocks.  ss.json: 3 samples
# without times, span start 1 s, duration 400 ms, wall-clock start T0.
printf '%s' '{"shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":[{"type":"sampled","name":"p","unit":"none","startValue":0,"endValue":3,"samples":[[0],[0,1],[1]],"weights":[1,1,1],' \
  "\"pcolStart\":${T0}000000000,\"pcolSpanStart\":1000000000,\"pcolDuration\":400000000}]}" >"$tmp/ss.json"
"$PCOL" info "$tmp/ss.json" | grep -q 'from 1s to 1.4s' || fail "ss.json: info's span: $("$PCOL" info "$tmp/ss.json")"
total() { "$PCOL" top "$tmp/ss.json" "$@" 2>"$tmp/err" | sed -n 's/^Showing nodes accounting for .* of \([0-9]*\) total$/\1/p'; }
for r in "--from 1 --to 1.5" "--from 0.9 --to 1.4" "--from 1" "--from $(w 1000) --to $(w 1500)"; do
  [ "$(total $r)" = 3 ] || fail "ss.json $r: not its 3 samples: $(cat "$tmp/err")"
done
for r in "--from 0 --to 0.5" "--from 0 --to 1" "--from 1.4" "--from $(w 0) --to $(w 500)"; do
  [ "$(total $r)" = 0 ] || fail "ss.json $r: counted samples outside its span"
  grep -q -e 'the samples are at 1s \.\. 1\.40*s' -e 'the samples are at [^ ]*00:00:59\.000Z \.\. [^ ]*00:00:59\.400Z' "$tmp/err" || fail "ss.json $r: the span said: $(cat "$tmp/err")"
done
"$PCOL" top "$tmp/ss.json" --from 1.1 --to 1.2 >/dev/null 2>"$tmp/err" && fail "ss.json --from 1.1 --to 1.2 (a cut) was accepted"
grep -q 'the range cuts its span (1s to 1.4s since its start)' "$tmp/err" || fail "ss.json cut: $(cat "$tmp/err")"
# a time with a unit, as pcol prints durations (Duration: 2s, period: 10ms):
# the same range as seconds (review 21 F8: --from 2s was a usage error)
want=$("$PCOL" top "$tmp/one.pcol" --from 1 --to 2 --format json 2>&1) || fail "--from 1 --to 2: $want"
for r in "1s 2000ms" "1000000us 2s" "1000000000ns 0.0333333333333333333min"; do
  set -- $r
  got=$("$PCOL" top "$tmp/one.pcol" --from "$1" --to "$2" --format json 2>&1) || fail "--from $1 --to $2: $got"
  [ "$got" = "$want" ] || fail "--from $1 --to $2 is not --from 1 --to 2: $got"
done
"$PCOL" top "$tmp/one.pcol" --from 1x >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "wants seconds since the profile's start (1.5, or with a unit: 250ms, 2s" "$tmp/err" ||
  fail "--from 1x: $(cat "$tmp/err")"
echo "t_range_header: ok"
