#!/usr/bin/env bash
# The span of a trace's V8 profiles and of every export of a time range
# (review 18 F1, F10, F8; spec.md §7 "Recordings", meta pcol.span_start_ns;
# doc/mappings.md §14, §17).
#  - A Chrome JSON trace of three profiles (tests/support/v8_trace_gen.py:
#    startTimes 0, 300 ms and 1 s after the first) puts them
#    on one timeline; each profile's Duration: is its own endTime -
#    startTime, as DevTools shows it, and a range --from A --to B says the
#    part of the window [A, B) the profiles' spans cover *on that
#    timeline* (as DevTools' selection and the report page measure it):
#    before, the window was cut on each profile's own clock and placed at
#    its start (a 0.2 s window said 1.31 s of Chromium's trace; a window
#    over a profile's samples past its own length said no Duration: at all).
#  - The pprof export of such a range states the same duration_nanos
#    (tests/support/pprof_times.py reads the bytes).
#  - Every export of a range starts where the range's part of the source
#    begins (THE range rule of the header, pcol_wall_cut, as the pprof and
#    OTLP exports did): read back, pprof, OTLP, speedscope, Firefox,
#    Perfetto, Chrome and V8 copies all say the range's Duration: and the
#    same rows as top of the range; before, the Perfetto, Chrome and V8
#    copies kept the time before the range (a 1 s range of a 4 s profile
#    read back as 2 s, 0.2 s of a trace's profile as 1.63 s).
#  - And of a whole source (review 19 F3): the Chrome and V8 copies end
#    at its span's end (a .cpuprofile's endTime after its last sample, a
#    profile sampled in the first 1 s of its 4 s, a Tachyon recording's
#    threads each a profile of the recording's span), not at the last
#    sample: read back, the same Duration:, rows and sample count (the
#    closing sample before such an endTime is none), and no warning of
#    samples laid past the span; samples without times whose values add up
#    past it are written so, with one warning (a pprof copy of them).
# `pcol info` says where each profile's span starts (before, it said each
# one's duration only), as top --source N --from/--to finds it.
# The Perfetto (protobuf) side of F10, the same profiles' durations as the
# JSON trace of the same events, is in tests/cli/t_perfetto.sh (v8_wall).
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
fail() { echo "t_trace_span: FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }

# three renderer profiles (tests/support/v8_trace_gen.py): pid 1 over
# [0, 1.5 s), pid 2 over [0.3 s, 1.1 s), pid 3 over [1 s, 1.4 s) of the
# trace's timeline, each sampled every 1 ms, endTimes stated
python3 "$REPO/tests/support/v8_trace_gen.py" "$tmp/t.json" || fail "v8_trace_gen.py"
t=$tmp/t.json
dur() { "$PCOL" top "$@" -n 1 2>/dev/null | sed -n 's/^Duration: \([^,]*\),.*/\1/p'; }
is() { # LABEL WANT ARGS...: top's Duration: (none: "")
  local label=$1 want=$2 got
  shift 2
  got=$(dur "$@")
  [ "$got" = "$want" ] || fail "$label: Duration: '$got', want '$want' (top $*)"
}
# each profile's own span; the whole trace's: from the first start to the last end
is "source 1 whole" 1.50s "$t" --source 1
is "source 2 whole" 800ms "$t" --source 2
is "source 3 whole" 400ms "$t" --source 3
is "the trace whole" 1.50s "$t"
# ranges on the trace's timeline (F1)
is "0.2-0.4 s" 200ms "$t" --from 0.2 --to 0.4
is "1.2-1.3 s" 100ms "$t" --from 1.2 --to 1.3
is "0-0.1 s" 100ms "$t" --from 0 --to 0.1
is "1.45-1.6 s (past two profiles' ends)" 50ms "$t" --from 1.45 --to 1.6
is "source 3, 1.2-1.3 s (its samples)" 100ms "$t" --source 3 --from 1.2 --to 1.3
is "source 3, 0.5-0.9 s (before it began)" "" "$t" --source 3 --from 0.5 --to 0.9
is "source 2, 1.0-1.2 s (cut by its end)" 100ms "$t" --source 2 --from 1.0 --to 1.2
is "source 2, 0.1-0.4 s (cut by its start)" 100ms "$t" --source 2 --from 0.1 --to 0.4
# and the share: 3 profiles busy all through 1.02-1.08 s: 300%
"$PCOL" top "$t" --from 1.02 --to 1.08 -n 1 | grep -q '^Duration: 60ms, Total samples = 180ms (300.00%)' ||
  fail "1.02-1.08 s: not 180ms of 60ms: $("$PCOL" top "$t" --from 1.02 --to 1.08 -n 1 | grep Duration)"
# the pprof export of a range states the same (its bytes)
"$PCOL" unpack "$t" --from 0.2 --to 0.4 --to pprof -o "$tmp/r.pb.gz" || fail "unpack --to pprof of a range"
[ "$(python3 "$REPO/tests/support/pprof_times.py" "$tmp/r.pb.gz" | cut -d' ' -f2)" = 200000000 ] ||
  fail "the pprof export of 0.2-0.4 s: duration_nanos $(python3 "$REPO/tests/support/pprof_times.py" "$tmp/r.pb.gz")"

# the Perfetto export of a later profile alone (source 3: its span 1-1.4 s
# of the trace) ends where its span ends, its last ClockSnapshot at or
# after its last sample (rd12b F5: at its duration, 0.4 s, before them)
if command -v protoc >/dev/null; then
  "$PCOL" unpack "$t" --source 3 --to perfetto -o "$tmp/s3.pftrace" 2>/dev/null || fail "unpack --source 3 --to perfetto"
  protoc -I "$REPO/format/perfetto" --decode=perfetto.protos.Trace perfetto_trace.proto <"$tmp/s3.pftrace" |
    awk '/^packet \{/ { ts = ""; snap = 0; smp = 0 } /^  timestamp:/ { ts = $2 } /^  clock_snapshot/ { snap = 1 }
      /^  stack_sample/ { smp = 1 } /^\}/ { if (snap) last_snap = ts; if (smp && ts > last_smp) last_smp = ts }
      END { if (!(last_snap + 0 >= last_smp + 0 && last_smp + 0 > 0)) { print "snapshot " last_snap " sample " last_smp; exit 1 } }' ||
    fail "the Perfetto export of source 3 ends before its last sample"
fi

# the speedscope copy of the whole trace keeps where each profile's span
# starts (pcolSpanStart: rd12b F2, the copy's profiles began together, a
# range over a later one's samples said no Duration:)
"$PCOL" unpack "$t" --to speedscope -o "$tmp/whole.speedscope.json" 2>/dev/null || fail "unpack --to speedscope"
is "speedscope copy, source 3, 1.2-1.3 s" 100ms "$tmp/whole.speedscope.json" --source 3 --from 1.2 --to 1.3
is "speedscope copy, source 2, 1.0-1.2 s" 100ms "$tmp/whole.speedscope.json" --source 2 --from 1.0 --to 1.2
is "speedscope copy whole" 1.50s "$tmp/whole.speedscope.json"

# pcol info says where each profile's span starts on the trace's timeline
# (THE span start, pcol_source_span_starts; meta pcol.span_start_ns), on
# the clock of its samples' times, as top's ranges place it: before, only
# each profile's own duration (source 3's 400ms, not where)
for f in "$t" "$tmp/whole.speedscope.json"; do
  "$PCOL" info "$f" >"$tmp/info.txt" || fail "info $f"
  for want in "source 1:|  duration:      1.50s" "source 2:|  duration:      800ms, from 0.3s to 1.1s" \
              "source 3:|  duration:      400ms, from 1s to 1.4s"; do
    src=${want%%|*} line=${want#*|}
    got=$(sed -n "/^$src/,/^source /p" "$tmp/info.txt" | grep '^  duration:')
    [ "$got" = "$line" ] || fail "info $f, $src '$got', want '$line'"
  done
  got=$("$PCOL" info "$f" --format tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { printf "%s ", $c["span_start_ns"] }')
  [ "$got" = "0 300000000 1000000000 " ] || fail "info $f --format tsv: span_start_ns $got"
done
# the start it says is where top --source N finds the span: 50 ms after it
# is 50 ms of the profile, 50 ms before it none
for n in 2 3; do
  st=$("$PCOL" info "$t" --format tsv | awk -F'\t' -v n=$n 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["source_id"] == n { printf "%.3f %.3f %.3f", $c["span_start_ns"] / 1e9 - 0.05, $c["span_start_ns"] / 1e9, $c["span_start_ns"] / 1e9 + 0.05 }')
  set -- $st
  is "source $n, 50 ms from the start info says" 50ms "$t" --source $n --from "$2" --to "$3"
  is "source $n, 50 ms before the start info says" "" "$t" --source $n --from "$1" --to "$2"
done

# F8: every export of a range, read back, says top's Duration: and rows
# of the range.  CASE: INPUT OPTIONS (the range and what else selects)
rows() { "$PCOL" top "$@" -n 8 --node-fraction 0 2>/dev/null | sed -n '/flat%/,$p'; }
count() { "$PCOL" top "$@" --value samples -n 1 2>/dev/null | sed -n 's/.* of \([0-9]*\) total$/\1/p'; }
python3 "$REPO/tests/support/window_gen.py" "$tmp" 1767225658 || fail "window_gen.py"
# a Chrome copy's pcolSpanStart that is no time of 0 to 2^51 us (hostile:
# pcol writes none such) is not taken, and said so, naming the file and
# the event: the profile is timed from its recording's earliest startTime,
# its span (3 s) 1 s after the first's.  Before (review rd17b F6): left
# out unsaid
"$PCOL" unpack "$tmp/rec.json" --to chrome -o "$tmp/rec.chrome.json" 2>/dev/null || fail "unpack rec.json --to chrome"
grep -q '"pcolSpanStart":0[,}]' "$tmp/rec.chrome.json" || fail "rec.json --to chrome: no pcolSpanStart 0"
for v in -5 2251799813685249 1e300 '"x"'; do
  sed "s/\"pcolSpanStart\":0\([,}]\)/\"pcolSpanStart\":$v\1/" "$tmp/rec.chrome.json" > "$tmp/span.json"
  "$PCOL" info "$tmp/span.json" > "$tmp/span.info" 2> "$tmp/span.err" || fail "pcolSpanStart $v: exit $?: $(cat "$tmp/span.err")"
  grep -qF "warning: $tmp/span.json: traceEvents[" "$tmp/span.err" && grep -q "args.data.pcolSpanStart (ending at byte [0-9]*): profile 0x2: pcolSpanStart .* not taken" "$tmp/span.err" ||
    fail "pcolSpanStart $v: no warning that it is not taken: $(cat "$tmp/span.err")"
  got=$(sed -n '/^source 2:/,/^source /p' "$tmp/span.info" | grep '^  duration:')
  [ "$got" = "  duration:      3s, from 1s to 4s" ] || fail "pcolSpanStart $v: source 2 '$got'"
done
# a trace whose profiles start apart (v8_trace_gen.py apart: [0, 0.2 s),
# [5 s, 5.3 s), [0.5 s, 0.8 s)) and its speedscope copy, placed by their
# span starts alone: ranges that start where no profile's window starts,
# and one that misses the middle part (rd12b F2: the speedscope copy of a
# range began every profile at 0, and said the longest one's Duration:)
python3 "$REPO/tests/support/v8_trace_gen.py" "$tmp/apart.json" apart || fail "v8_trace_gen.py apart"
"$PCOL" unpack "$tmp/apart.json" --to speedscope -o "$tmp/apart.speedscope.json" 2>/dev/null || fail "unpack apart --to speedscope"
is "apart whole" 5.30s "$tmp/apart.json"
is "apart 0-10 s" 5.30s "$tmp/apart.json" --from 0 --to 10
is "apart speedscope copy 0.3-5.1 s" 4.60s "$tmp/apart.speedscope.json" --from 0.3 --to 5.1
# a .cpuprofile as node --cpu-prof writes one: its endTime 3.25 ms after
# its last sample (the V8 copy ended at that sample: 920.80 ms of a real
# one read back as 917.55 ms; review 19 F3)
python3 - "$tmp/node.cpuprofile" <<'PY' || fail "node.cpuprofile"
import json, sys
nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "", "lineNumber": -1, "columnNumber": -1},
          "hitCount": 0, "children": [2]},
         {"id": 2, "callFrame": {"functionName": "main", "scriptId": "1", "url": "file:///a.js", "lineNumber": 0, "columnNumber": 0},
          "hitCount": 0, "children": [3, 4]},
         {"id": 3, "callFrame": {"functionName": "f", "scriptId": "1", "url": "file:///a.js", "lineNumber": 2, "columnNumber": 4}, "hitCount": 0},
         {"id": 4, "callFrame": {"functionName": "g", "scriptId": "1", "url": "file:///a.js", "lineNumber": 6, "columnNumber": 4}, "hitCount": 0}]
samples = [3, 3, 4, 3, 4, 4, 4, 3, 2, 3] * 20
deltas = [6979] + [1000 + 37 * (i % 5) for i in range(len(samples) - 1)]
start = 21776643275
json.dump({"nodes": nodes, "startTime": start, "endTime": start + sum(deltas) + 3253, "samples": samples,
           "timeDeltas": deltas}, open(sys.argv[1], "w"))
PY
n=0
# A row's third field, SPAN, is of a source that states no duration (an
# Rprof file: top of the range says no Duration:): the V8, Chrome and
# Perfetto copies state one, the range's part of the samples, starting
# where the range starts (review rd13b F1: they began at the source's
# start, 0.1-0.3 s of demo.out read back as 300ms with 200ms of samples)
# and ending where the last sample the range counts ends (THE range rule:
# a tick counts whole when it starts in the range, so a range that ends
# mid-tick lasts to that tick's end: the Perfetto copy of 0.1-0.295 s
# said 195ms of 200ms of samples, 102.56%); the others none.
while IFS='|' read -r label args span; do
  [ -n "$label" ] || continue
  set -- $args
  want0=$(dur "$@")
  [ -n "$want0" ] || [ -n "$span" ] || fail "$label: top of the range says no Duration:"
  for fmt in pprof otlp speedscope firefox perfetto chrome v8; do
    case $fmt in v8) [[ " $* " == *" --source "* || $label == one* ]] || continue ;; esac
    want=$want0
    if [ -n "$span" ]; then
      case $fmt in chrome|v8|perfetto) want=$span ;; esac
    fi
    case "$fmt $*" in pprof*--value*|otlp*--value*|speedscope*--value*) continue ;; esac # (they keep every value)
    case $fmt in speedscope) ext=json ;; *) ext=$fmt ;; esac
    "$PCOL" unpack "$@" --to $fmt -o "$tmp/x.$ext" 2>"$tmp/err" || fail "$label: unpack --to $fmt: $(head -3 "$tmp/err")"
    got=$(dur "$tmp/x.$ext")
    [ "$got" = "$want" ] || fail "$label: the $fmt export read back says Duration: '$got', top of the range '$want'"
    [ "$(rows "$tmp/x.$ext")" = "$(rows "$@")" ] ||
      fail "$label: the $fmt export read back has other rows than top of the range: $(diff <(rows "$tmp/x.$ext") <(rows "$@") | head -6)"
    # a whole source's copy has its samples: a V8 copy's closing sample
    # before an endTime past it is none (it was read as one more)
    [[ " $* " == *" --from "* ]] || { [ -n "$(count "$@")" ] && [ "$(count "$tmp/x.$ext")" = "$(count "$@")" ]; } ||
      fail "$label: the $fmt export read back has $(count "$tmp/x.$ext") samples, the input $(count "$@")"
    # nothing laid past the span of these (review 19 F3)
    ! grep -q 'laid end to end' "$tmp/err" || fail "$label: unpack --to $fmt: $(cat "$tmp/err")"
    n=$((n + 1))
  done
done <<EOF
trace 0.2-0.4 s|$t --from 0.2 --to 0.4
trace source 2, 0.9-1.05 s|$t --source 2 --from 0.9 --to 1.05
trace source 3, 1.1-1.2 s|$t --source 3 --from 1.1 --to 1.2
trace 1.15-1.3 s (past the middle profile: parts renumbered, rd12b F1)|$t --from 1.15 --to 1.3
apart 0-10 s|$tmp/apart.json --from 0 --to 10
apart 0.1-10 s|$tmp/apart.json --from 0.1 --to 10
apart 0.3-5.1 s (in a gap)|$tmp/apart.json --from 0.3 --to 5.1
apart 0.1-0.7 s (past the middle part, the last in time)|$tmp/apart.json --from 0.1 --to 0.7
apart 0.6-5.1 s|$tmp/apart.json --from 0.6 --to 5.1
apart speedscope copy 0.3-5.1 s|$tmp/apart.speedscope.json --from 0.3 --to 5.1
apart speedscope copy 0.1-0.7 s|$tmp/apart.speedscope.json --from 0.1 --to 0.7
one 1-2 s|$tmp/one.json --from 1 --to 2
one 2026-01-01T00:01:00Z-00:01:01.5Z|$tmp/one.json --from 2026-01-01T00:01:00Z --to 2026-01-01T00:01:01.5Z
one .cpuprofile whole, its endTime past its last sample|$tmp/node.cpuprofile
one .cpuprofile, 10-200 ms|$tmp/node.cpuprofile --from 0.01 --to 0.2
one whole, sampled in the first 1 s of its 4 s|$tmp/sparse.json
tachyon threads whole, cpu (Chrome: a profile a thread, each of the recording's span)|$REPO/tests/fixtures/tachyon/threads-cpu-none.bin --value cpu
one Rprof 0.1-0.3 s (states no duration)|$REPO/examples/demo.out --from 0.1 --to 0.3|200ms
one Rprof from 0.2 s (states no duration)|$REPO/examples/demo.out --from 0.2|180ms
one Rprof 0.1-0.295 s (ends mid-tick)|$REPO/examples/demo.out --from 0.1 --to 0.295|200ms
one Rprof 0.105-0.295 s (starts and ends mid-tick)|$REPO/examples/demo.out --from 0.105 --to 0.295|195ms
one Rprof 0.1-0.2 s of memory snapshots|$REPO/tests/fixtures/rprof/memgc-snapshots.out --from 0.1 --to 0.2|100ms
EOF

# and the collapsed copy of a range that ends mid-tick counts the ticks
# top of the range counts (a tick that starts in it, whole)
for r in "0.1 0.295" "0.105 0.295" "0.1 0.29"; do
  set -- $r
  "$PCOL" unpack "$REPO/examples/demo.out" --from $1 --to $2 --to collapsed -o "$tmp/x.collapsed" 2>/dev/null ||
    fail "demo.out $r: unpack --to collapsed"
  want=$(count "$REPO/examples/demo.out" --from $1 --to $2)
  [ -n "$want" ] && [ "$(count "$tmp/x.collapsed")" = "$want" ] ||
    fail "demo.out $r: the collapsed copy counts $(count "$tmp/x.collapsed") samples, top of the range $want"
  n=$((n + 1))
done

# the Firefox copy of a range that begins before the range's part (a
# later profile's, the apart trace's first window missed): the Firefox
# Profiler's duration (meta.profilingEndTime - profilingStartTime, its
# getTimeRangeIncludingAllThreads) is the range's part, which begins that
# far after the copy's zero (the range's start: THE span start of a cut
# copy); it said the copy's window from the range's start (700 ms for
# 200 ms, pcol's own pcolDurationNanos hiding it), and a range of the copy
# read back took the window to start at its zero.
# CASE: the range | the profiler's duration in ms | a range of the copy | the original's same range
while IFS='|' read -r label cut want sub orig; do
  "$PCOL" unpack $cut --to firefox -o "$tmp/ff.json" 2>/dev/null || fail "$label: unpack --to firefox"
  got=$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["meta"]; print("%g" % (m["profilingEndTime"] - m["profilingStartTime"]))' "$tmp/ff.json")
  [ "$got" = "$want" ] || fail "$label: the Firefox copy's profiling range is $got ms, want $want"
  is "$label: the Firefox copy" "$(dur $cut)" "$tmp/ff.json"
  is "$label: the Firefox copy, its $sub" "$(dur $orig)" "$tmp/ff.json" $sub
  [ "$(rows "$tmp/ff.json" $sub)" = "$(rows $orig)" ] || fail "$label: the Firefox copy over $sub has other rows than $orig"
  n=$((n + 1))
done <<EOF
source 3, 0.5-1.2 s|$t --source 3 --from 0.5 --to 1.2|200|--from 0.5 --to 0.6|$t --source 3 --from 1.0 --to 1.1
source 3 whole|$t --source 3|400|--from 1.1 --to 1.3|$t --source 3 --from 1.1 --to 1.3
apart 0.3-5.1 s|$tmp/apart.json --from 0.3 --to 5.1|4600|--from 0.1 --to 0.3|$tmp/apart.json --from 0.4 --to 0.6
EOF

# a range OF a ranged copy (a cut of a cut) of the apart trace: each
# profile keeps its place in the copy, whose time 0 is the range's start
# (THE span start of a cut copy, pcol_wall_cut_keep_span), so a range of
# the copy has the original's rows of that range moved by the copy's start
# (rd13a F7: the Firefox copy began every thread at 0, and 4.8-5.1 s of a
# 0-5.15 s copy selected no sample).  (Rows and samples: a Firefox copy
# states one range for all threads, no profile's own span, so its
# Duration: of a part is the copy's window's.)
# CASE: the copy's range | the range read of the copy | the original's
while IFS='|' read -r label cut sub orig; do
  for fmt in firefox speedscope chrome; do
    "$PCOL" unpack "$tmp/apart.json" $cut --to $fmt -o "$tmp/cc.$fmt" 2>"$tmp/err" || fail "$label: unpack --to $fmt: $(head -3 "$tmp/err")"
    [ -n "$(count "$tmp/apart.json" $orig)" ] && [ "$(count "$tmp/cc.$fmt" $sub)" = "$(count "$tmp/apart.json" $orig)" ] ||
      fail "$label: the $fmt copy over $sub has $(count "$tmp/cc.$fmt" $sub) samples, the original over $orig $(count "$tmp/apart.json" $orig)"
    [ "$(rows "$tmp/cc.$fmt" $sub)" = "$(rows "$tmp/apart.json" $orig)" ] ||
      fail "$label: the $fmt copy over $sub has other rows than the original over $orig: $(diff <(rows "$tmp/cc.$fmt" $sub) <(rows "$tmp/apart.json" $orig) | head -6)"
    n=$((n + 1))
  done
done <<EOF
apart 0-5.15 s copy, its 4.8-5.1 s (the same clock)|--from 0 --to 5.15|--from 4.8 --to 5.1|--from 4.8 --to 5.1
apart 0-5.15 s copy, its 0.1-0.6 s|--from 0 --to 5.15|--from 0.1 --to 0.6|--from 0.1 --to 0.6
apart 0.1-5.2 s copy, its 4.7-5.0 s|--from 0.1 --to 5.2|--from 4.7 --to 5.0|--from 4.8 --to 5.1
apart 0.6-5.25 s copy, its 4.3-4.5 s|--from 0.6 --to 5.25|--from 4.3 --to 4.5|--from 4.9 --to 5.1
EOF

# samples laid end to end past their source's span: the V8 and Chrome
# copies state their length, and unpack warns once (review 19 F3: a Go
# fgprof profile of 30 s became a 2104 s CPU profile, silently); timed
# samples past the span in the source itself are where they were.
# CASE: INPUT, the copy's Duration:, the warning ("" none)
"$PCOL" unpack "$tmp/overrun.json" --to pprof -o "$tmp/over.pb.gz" 2>/dev/null || fail "overrun.json --to pprof"
while IFS='|' read -r label in want warn; do
  for fmt in v8 chrome; do
    "$PCOL" unpack "$in" --to $fmt -o "$tmp/w.$fmt" 2>"$tmp/err" || fail "$label: unpack --to $fmt: $(head -3 "$tmp/err")"
    got=$(dur "$tmp/w.$fmt")
    [ "$got" = "$want" ] || fail "$label: the $fmt export read back says Duration: '$got', want '$want'"
    if [ -n "$warn" ]; then
      [ "$(grep -c 'laid end to end' "$tmp/err")" = 1 ] && grep -qF "warning: $in: $warn" "$tmp/err" ||
        fail "$label: unpack --to $fmt said [$(cat "$tmp/err")], want one warning [$warn]"
    else
      ! grep -q 'laid end to end' "$tmp/err" || fail "$label: unpack --to $fmt: $(cat "$tmp/err")"
    fi
    n=$((n + 1))
  done
done <<EOF
a pprof copy of overrun.json (no times: 3 s of samples, 1 s stated)|$tmp/over.pb.gz|3s|source 1: the samples are laid end to end: 3 s written for a 1 s profile (they have no times)
overrun.json (timed: its samples past its span in the source)|$tmp/overrun.json|3s|
EOF
echo "t_trace_span: ok ($n exports of a range or of a whole source read back)"
