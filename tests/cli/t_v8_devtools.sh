#!/usr/bin/env bash
# CLI: Chrome traces and V8 .cpuprofile files read as Chrome DevTools reads
# them (devtools-frontend, front_end/models/cpu_profile/CPUProfileDataModel.ts):
#  - a trace's profiles share one timeline (the earliest startTime), but one
#    profile's Duration and its V8 export are its own: DevTools'
#    profileStartTime/profileEndTime of that profile, startTime + its
#    timeDeltas (the trace's own numbers back); the Duration of the
#    whole trace is its profiles' span, the trace being one recording;
#  - the last sample of a V8 thread lasts the mean gap of its thread,
#    (last - first) / (n - 1), DevTools' averageIntervalTime
#    (normalizeTimestamps), on a hand-made profile and on one `node
#    --cpu-prof` records here: the speedscope timeline ends there, but
#    draws that sample's frames for no time (its wall, 0, as speedscope's
#    importer reads it), so the timeline is the wall profile, frame by frame;
#  - a startTime that is no time is refused naming the event and the byte;
#  - an export of a selection writes the recording parts of what it writes
#    (spec.md §7 "Recordings"): profiles of two traces exported one each
#    add up, two of three written stay one recording, a whole trace's
#    parts are kept;
#  - a source of several threads is refused naming the --tag of each, and
#    what selects its samples of no thread label (or that nothing does).
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_v8_devtools: FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }
# two renderers profiled 1 s apart; each profile's last chunk has its
# endTime (V8's CpuProfile::FinishProfile): A 4 ms, B 1 ms
# (over.json: the same, B inside A: 1 ms from 5.001 s; three.json: two.json
# and C, 3 ms from 5.002 s)
python3 - "$tmp/two.json" "$tmp/over.json" "$tmp/three.json" <<'PY'
import json, sys
A, C = (11, 5000000, 5004000, [100, 1000, 1000, 1000]), (33, 5002000, 5005000, [100, 1000, 1000])
for out, b, more in ((sys.argv[1], (6000000, 6001000), ()), (sys.argv[2], (5001000, 5002000), ()),
                     (sys.argv[3], (6000000, 6001000), (C,))):
    ev = []
    for pid, start, end, deltas in (A, (22, b[0], b[1], [100, 300, 300])) + more:
        ev.append({"ph": "P", "name": "Profile", "pid": pid, "tid": pid, "ts": start, "id": "0x1",
                   "args": {"data": {"startTime": start}}})
        nodes = [{"id": 1, "callFrame": {"functionName": "(root)"}},
                 {"id": 2, "parent": 1, "callFrame": {"functionName": "f%d" % pid, "url": "a.js"}}]
        ev.append({"ph": "P", "name": "ProfileChunk", "pid": pid, "tid": 99, "ts": start + 1, "id": "0x1",
                   "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": [2] * len(deltas)}, "timeDeltas": deltas}}})
        ev.append({"ph": "P", "name": "ProfileChunk", "pid": pid, "tid": 99, "ts": end, "id": "0x1",
                   "args": {"data": {"endTime": end}}})
    json.dump({"traceEvents": ev}, open(out, "w"))
PY
# one profile's Duration: its endTime - startTime (1 ms), not since the
# trace's first profile (1.001 s); its samples: 600 us, 60% of it
"$PCOL" top "$tmp/two.json" --source 2 >"$tmp/top" 2>"$tmp/err" || fail "top --source 2: $(head -3 "$tmp/err")"
grep -qx 'Duration: 1ms, Total samples = 600us (60.00%)' "$tmp/top" ||
  fail "top --source 2: $(grep Duration "$tmp/top"), want Duration: 1ms, Total samples = 600us (60.00%)"
"$PCOL" top "$tmp/two.json" --source 1 | grep -qx 'Duration: 4ms, Total samples = 3ms (75.00%)' ||
  fail "top --source 1: $("$PCOL" top "$tmp/two.json" --source 1 | grep Duration)"
"$PCOL" info "$tmp/two.json" | grep -A3 '^source 2:' | grep -q 'duration: *1ms, from 1s to 1.001s$' || # (its span on the trace's timeline)
  fail "info: source 2's duration: $("$PCOL" info "$tmp/two.json" | grep -A3 '^source 2:')"
# the trace is one recording (THE recording rule, lib/core/wall.c): the
# Duration of both profiles is their span on the trace's clock, the first
# startTime to the last endTime (1.001 s; 4 ms when B lies inside A), as
# DevTools' trace spans them, not their lengths added (5 ms, as go tool
# pprof adds separate profiles); in the pprof export too, to the ns; two
# traces merged are two recordings, added (1.005 s)
jdur() { "$PCOL" info "$1" --format json | python3 -c 'import json, sys; print(" ".join(str(r["duration_ns"]) for r in json.load(sys.stdin)["rows"]))'; }
"$PCOL" top "$tmp/over.json" | grep -qx 'Duration: 4ms, Total samples = 3600us (90.00%)' ||
  fail "top of a trace whose profiles overlap: $("$PCOL" top "$tmp/over.json" | grep Duration), want Duration: 4ms (their span)"
"$PCOL" merge "$tmp/two.json" "$tmp/over.json" -o "$tmp/m.pcol" || fail "merge of two traces"
for w in two.json:1001000000 over.json:4000000 m.pcol:1005000000; do
  "$PCOL" unpack "$tmp/${w%%:*}" --to pprof -o "$tmp/d.pb.gz" 2>/dev/null || fail "unpack ${w%%:*} --to pprof"
  [ "$(jdur "$tmp/d.pb.gz")" = "${w#*:}" ] || fail "${w%%:*}: the pprof export's duration_nanos $(jdur "$tmp/d.pb.gz"), want ${w#*:}"
done
# an export of a selection writes its sources' parts renumbered in what it
# writes (spec.md §7 "Recordings"): one source of a recording is a
# recording of its own, so two profiles of two traces exported one each
# (speedscope, OTLP) read back as two recordings, their durations added
# (1.33 ms + 6 ms), not joined as parts 1 and 2 of one (6 ms)
python3 "$(dirname "$0")/../support/chrome_seeds.py" "$tmp/seeds" >/dev/null || fail "chrome_seeds.py"
for t in speedscope otlp; do
  "$PCOL" unpack --to $t --source 1 "$tmp/seeds/cpuprofile.json" -o "$tmp/p1.$t" || fail "unpack cpuprofile.json --source 1 --to $t"
  "$PCOL" unpack --to $t --source 2 "$tmp/seeds/chunks.json" -o "$tmp/c2.$t" || fail "unpack chunks.json --source 2 --to $t"
  "$PCOL" top "$tmp/p1.$t" "$tmp/c2.$t" -n 1 | grep -q '^Duration: 7.33ms,' ||
    fail "two traces' profiles exported one each ($t): $("$PCOL" top "$tmp/p1.$t" "$tmp/c2.$t" -n 1 | grep Duration), want 7.33ms"
  "$PCOL" merge "$tmp/p1.$t" "$tmp/c2.$t" -o "$tmp/pc.pcol" || fail "merge p1.$t c2.$t"
  "$PCOL" top "$tmp/pc.pcol" -n 1 | grep -q '^Duration: 7.33ms,' ||
    fail "their merge ($t): $("$PCOL" top "$tmp/pc.pcol" -n 1 | grep Duration), want 7.33ms"
done
# two of three.json's three profiles written (--focus leaves B no samples):
# numbered 1 and 2, still one recording read back, whose Duration is their
# span where each profile's span starts (pcolSpanStart: A [0, 4 ms), C
# [2, 5 ms): 5 ms), not A's and C's added (7 ms); the whole trace's export
# read back says the trace's 1 s, as the trace (before, 4 ms: the copy's
# profiles began together; rd12b F2)
"$PCOL" unpack "$tmp/three.json" --to speedscope --focus 'f11|f33' -o "$tmp/ac.json" || fail "unpack three.json --focus"
"$PCOL" unpack "$tmp/three.json" --to speedscope -o "$tmp/abc.json" || fail "unpack three.json"
[ "$(grep -o '"pcolRecordingPart":[0-9]*' "$tmp/ac.json" | tr '\n' ' ')" = '"pcolRecordingPart":1 "pcolRecordingPart":2 ' ] ||
  fail "A and C of three written as parts $(grep -o '"pcolRecordingPart":[0-9]*' "$tmp/ac.json" | tr '\n' ' '), not 1 and 2"
"$PCOL" top "$tmp/ac.json" -n 1 | grep -q '^Duration: 5ms,' ||
  fail "A and C of three read back: $("$PCOL" top "$tmp/ac.json" -n 1 | grep Duration), want 5ms (one recording)"
[ "$("$PCOL" top "$tmp/abc.json" -n 1 | grep '^Duration')" = "$("$PCOL" top "$tmp/three.json" -n 1 | grep '^Duration')" ] ||
  fail "three.json's speedscope export read back: $("$PCOL" top "$tmp/abc.json" -n 1 | grep Duration), not the trace's"
# a whole trace's export writes the parts it holds: read back, the same
"$PCOL" cat "$tmp/seeds/chunks.json" --table meta | grep recording_part >"$tmp/want"
for t in speedscope otlp; do
  "$PCOL" unpack "$tmp/seeds/chunks.json" --to $t -o "$tmp/all.$t" || fail "unpack chunks.json --to $t"
  "$PCOL" cat "$tmp/all.$t" --table meta | grep recording_part >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" || fail "chunks.json's parts read back from $t: $(diff "$tmp/want" "$tmp/got" | head -4)"
done
# a trace of one profile is a recording of its own: no part (spec.md §7),
# as the Perfetto import reads the same profile; two are numbered 1, 2
python3 - "$tmp/two.json" "$tmp/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
evs = d["traceEvents"] if isinstance(d, dict) else d
json.dump([e for e in evs if e.get("pid") == 11], open(sys.argv[2], "w"))
PY
[ "$("$PCOL" cat "$tmp/two.json" --table meta --format tsv | awk -F'\t' '$1 == "pcol.recording_part" { printf "%s=%s ", $3, $2 }')" = "1=1 2=2 " ] ||
  fail "two.json's parts: $("$PCOL" cat "$tmp/two.json" --table meta | grep recording_part)"
"$PCOL" top "$tmp/one.json" -n 1 | grep -q '^Duration: 4ms,' || fail "one.json: $("$PCOL" top "$tmp/one.json" -n 1 2>&1 | head -3)"
! "$PCOL" cat "$tmp/one.json" --table meta | grep -q recording_part ||
  fail "a trace of one profile numbered: $("$PCOL" cat "$tmp/one.json" --table meta | grep recording_part)"
# the views of both stay on one timeline (the first profile's start)
"$PCOL" cat "$tmp/two.json" --table samples --format tsv | awk -F'\t' 'NR > 1 && $2 == 2 { print $3 }' | head -1 >"$tmp/got"
[ "$(cat "$tmp/got")" = 1000100000 ] || fail "source 2's first sample at $(cat "$tmp/got") ns, not 1.0001 s on the trace's timeline"
# its V8 export is the profile the trace holds: startTime, the deltas as
# written (DevTools: startTime + the running sum of timeDeltas) and its
# endTime (its span, 1 ms: before, the last sample's end, 700 us; review
# 19 F3), for the trace and for its pcol file
"$PCOL" pack "$tmp/two.json" -o "$tmp/two.pcol" || fail "pack"
for in in "$tmp/two.json" "$tmp/two.pcol"; do
  "$PCOL" unpack "$in" --to v8 --source 2 -o "$tmp/b.cpuprofile" 2>"$tmp/err" || fail "unpack --to v8 --source 2: $(head -3 "$tmp/err")"
  python3 - "$tmp/b.cpuprofile" <<'PY' || fail "unpack --to v8 --source 2 of $(basename "$in") is not profile B"
import json, sys
d = json.load(open(sys.argv[1]))
got = (d["startTime"], d["timeDeltas"], d["endTime"])
want = (6000000, [100, 300, 300], 6001000)
if got != want:
    sys.exit("startTime, timeDeltas, endTime: %s, want %s" % (got, want))
PY
done
# and read back, the same Duration-free profile times (no shift)
"$PCOL" cat "$tmp/b.cpuprofile" --table samples --format tsv | awk -F'\t' 'NR > 1 { printf "%s ", $3 }' >"$tmp/got"
[ "$(cat "$tmp/got")" = "100000 400000 700000 " ] || fail "the export read back: times $(cat "$tmp/got")"

# the last sample of a V8 thread: DevTools' mean interval.  Gaps 100, 100,
# 400 us: median 100, mean 200; g (the last) from 600 to 800 us
cat >"$tmp/g.cpuprofile" <<'J'
{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3]},
{"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":0,"columnNumber":0}},
{"id":3,"callFrame":{"functionName":"g","url":"a.js","lineNumber":5,"columnNumber":0}}],
"startTime":1000,"endTime":2000,"samples":[2,2,2,3],"timeDeltas":[0,100,100,400]}
J
# the timeline's end against DevTools' rule computed from the profile
devtools_end() { # PROFILE: the last sample's end, ns since startTime
  python3 - "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
t, ts = p["startTime"], []
for d in p["timeDeltas"]:  # convertTimeDeltas
    t += d
    ts.append(t)
ts.sort()  # sortSamples
mean = (ts[-1] - ts[0]) / (len(ts) - 1)  # normalizeTimestamps: averageIntervalTime
print(round((ts[-1] + mean - p["startTime"]) * 1000))
PY
}
timeline_end() { # PROFILE
  "$PCOL" unpack "$1" --to speedscope --timeline -o "$tmp/tl.json" || fail "unpack --timeline $1"
  python3 -c 'import json,sys; print([p for p in json.load(open(sys.argv[1]))["profiles"] if p["type"] == "evented"][0]["endValue"])' "$tmp/tl.json"
}
want=$(devtools_end "$tmp/g.cpuprofile")
[ "$want" = 800000 ] || fail "DevTools' rule computed $want"
got=$(timeline_end "$tmp/g.cpuprofile")
[ "$got" = "$want" ] || fail "the last sample's end on the timeline: $got ns, DevTools' $want (the mean gap)"
# ... but the last sample measured no time (V8's wall 0: no sample after
# it), and speedscope's importer gives it none: its frames draw nothing
# there, so the timeline adds up, frame by frame, to the wall profile
# (doc/mappings.md §5; review 13 m6: drawn for the mean gap, a node
# profile's last sample, fib, had 696.357 ms in the timeline, 694.457 in
# wall and in speedscope's own reading): g 0, not 200 us
timeline_wall() { # SPEEDSCOPE-JSON: each frame's time on the stack in the timeline and in wall
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = [f["name"] for f in d["shared"]["frames"]]
tl = [p for p in d["profiles"] if p["type"] == "evented"]
wall = [p for p in d["profiles"] if p["type"] == "sampled" and p["name"].endswith(": wall")]
if len(tl) != 1 or len(wall) != 1:
    sys.exit("%d timelines, %d wall profiles" % (len(tl), len(wall)))
got, depth, since = {}, {}, {}
for e in tl[0]["events"]:  # a frame's time on the stack, recursion counted once
    f = e["frame"]
    if e["type"] == "O":
        depth[f] = depth.get(f, 0) + 1
        if depth[f] == 1:
            since[f] = e["at"]
    else:
        depth[f] -= 1
        if depth[f] == 0:
            got[f] = got.get(f, 0) + e["at"] - since[f]
want = {}
for st, w in zip(wall[0]["samples"], wall[0]["weights"]):
    for f in set(st):
        want[f] = want.get(f, 0) + w
got = {names[f]: v for f, v in got.items() if v}
want = {names[f]: v for f, v in want.items() if v}
if got != want:
    diff = sorted((n, got.get(n), want.get(n)) for n in set(got) | set(want) if got.get(n) != want.get(n))
    sys.exit("(frame, timeline ns, wall ns) %s" % diff[:5])
PY
}
timeline_wall "$tmp/tl.json" || fail "g.cpuprofile: the timeline is not the wall profile"
# a last sample of a frame sampled nowhere else ((idle), as node's profiles
# often end) has no frame in the timeline, not even one of no length
# (review diff6 F6: speedscope's importer read "(idle)" [0, 0] from it)
cat >"$tmp/idle.cpuprofile" <<'J'
{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3]},
{"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":1,"columnNumber":1}},
{"id":3,"callFrame":{"functionName":"(idle)","url":"","lineNumber":-1,"columnNumber":-1}}],
"startTime":0,"endTime":400,"samples":[2,2,2,3],"timeDeltas":[0,100,100,100]}
J
"$PCOL" unpack "$tmp/idle.cpuprofile" --to speedscope --timeline -o "$tmp/idle.json" || fail "unpack idle.cpuprofile"
python3 - "$tmp/idle.json" <<'PY' || fail "idle.cpuprofile: its last sample's frame is in the timeline"
import json, sys
d = json.load(open(sys.argv[1]))
names = [f["name"] for f in d["shared"]["frames"]]
ev = [e for p in d["profiles"] if p["type"] == "evented" for e in p["events"]]
if any(names[e["frame"]] == "(idle)" for e in ev) or not ev:
    sys.exit("events %s" % [(e["type"], names[e["frame"]], e["at"]) for e in ev])
PY
timeline_wall "$tmp/idle.json" || fail "idle.cpuprofile: the timeline is not the wall profile"
# a profile node records here
if command -v node >/dev/null; then
  cat >"$tmp/w.js" <<'J'
function spin(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i); return s; }
const t = Date.now(); while (Date.now() - t < 150) spin(1e5);
J
  node --cpu-prof --cpu-prof-dir="$tmp/prof" --cpu-prof-name=w.cpuprofile "$tmp/w.js" || fail "node --cpu-prof"
  # (a negative delta, which DevTools sorts and pcol holds in place, would
  # make another end: not in this check)
  if python3 -c 'import json,sys; sys.exit(any(d < 0 for d in json.load(open(sys.argv[1]))["timeDeltas"]))' "$tmp/prof/w.cpuprofile"; then
    want=$(devtools_end "$tmp/prof/w.cpuprofile")
    got=$(timeline_end "$tmp/prof/w.cpuprofile")
    # (within 1 ns: pcol holds the mean gap in whole ns, DevTools in a
    # double of us, so a mean of N.5 ns rounds either way; a recorded
    # profile made the two 157328563 and 157328562 once)
    [ -n "$got" ] && [ -n "$want" ] && [ $((got > want ? got - want : want - got)) -le 1 ] ||
      fail "node's profile: the last sample ends at $got ns, DevTools' $want"
    timeline_wall "$tmp/tl.json" || fail "node's profile: the timeline is not the wall profile"
  fi
fi

# a startTime that is no time: refused naming the event, the key and where
printf '{"traceEvents":[{"ph":"P","name":"Profile","pid":1,"tid":1,"ts":5,"id":"0x1","args":{"data":{"startTime":1e300}}},\n{"ph":"P","name":"ProfileChunk","pid":1,"tid":1,"ts":6,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"f"}}],"samples":[2,2]},"timeDeltas":[10,10]}}}]}\n' >"$tmp/big.json"
"$PCOL" top "$tmp/big.json" >/dev/null 2>"$tmp/err" && fail "startTime 1e300 read"
grep -q 'big.json: traceEvents\[0\], its args.data.startTime (ending at byte 110): profile 0x1 of pid 1: startTime is 1e300, not a time' "$tmp/err" ||
  fail "startTime 1e300: $(cat "$tmp/err")"
# a per-line view of a .cpuprofile says once that its lines are the
# functions' first lines (positionTicks are per node, not kept); a view by
# function, and a Chrome trace (its samples carry their lines), say nothing
"$PCOL" list "$tmp/b.cpuprofile" . >/dev/null 2>"$tmp/err" || fail "list of a .cpuprofile"
[ "$(grep -c "note: .*a V8 .cpuprofile names each frame at its function's first line" "$tmp/err")" = 1 ] || fail "list of a .cpuprofile: no note on its lines: $(cat "$tmp/err")"
"$PCOL" top "$tmp/b.cpuprofile" --by line >/dev/null 2>"$tmp/err" && grep -q "positionTicks" "$tmp/err" || fail "top --by line of a .cpuprofile: no note"
"$PCOL" top "$tmp/b.cpuprofile" >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] || fail "top of a .cpuprofile by function: $(cat "$tmp/err")"
# a source of several threads is refused (one thread a V8 profile), each
# listed with the --tag that selects it; its samples of no thread label
# with the one --tag-ignore that selects them alone (threads all of a
# numeric tid: tid=LEAST:; all with a string thread label: the keyless
# '^(KEY|...):'), which writes those samples (6 ms), or, threads of
# different keys, the word that nothing does (before: "no thread label"
# and no way named)
for m in num str mixed; do
  python3 tests/support/pprofgen.py threads "$tmp/th_$m.pb" $m || fail "pprofgen threads $m"
  "$PCOL" unpack "$tmp/th_$m.pb" --to v8 -o "$tmp/th_$m.cpuprofile" 2>"$tmp/err" && fail "v8 of threads ($m): not refused"
  [ ! -e "$tmp/th_$m.cpuprofile" ] && grep -q "tid 10 (--tag tid=10)\|io (--tag thread_name='^io\$')" "$tmp/err" ||
    fail "v8 of threads ($m): $(cat "$tmp/err")"
  expr=$(sed -n "s/.*no thread label (--tag-ignore \([^;]*\));.*/\1/p" "$tmp/err")
  case $m in
  num) [ "$expr" = "tid=10:" ] || fail "v8 of threads (num): '$expr': $(cat "$tmp/err")" ;;
  str) [ "$expr" = "'^(thread_name|thread):'" ] || fail "v8 of threads (str): '$expr': $(cat "$tmp/err")" ;;
  mixed) grep -q "no thread label (no --tag or --tag-ignore selects these alone); tid 10" "$tmp/err" ||
    fail "v8 of threads (mixed): $(cat "$tmp/err")"
    continue ;;
  esac
  eval "set -- $expr"
  "$PCOL" unpack "$tmp/th_$m.pb" --to v8 --tag-ignore "$1" -o "$tmp/th_$m.cpuprofile" 2>/dev/null || fail "v8 of threads ($m) --tag-ignore $1"
  "$PCOL" top "$tmp/th_$m.cpuprofile" 2>/dev/null | grep -q "Total samples = 6ms " || fail "v8 of threads ($m) --tag-ignore $1: not the 6 ms of no thread label"
done
# a timeDeltas entry that is a number out of range says so, as 9.3e15 did (review 14 m1: 1e17 was
# "not a number"); a string is not a number
for d in '9.3e15:time out of range' '1e17:time out of range' '-1e17:time out of range' '9.2e18:time out of range' \
         '"x":not a number' 'null:not a number'; do
  printf '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
{"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":1,"columnNumber":1}}],
"startTime":0,"endTime":100,"samples":[2,2,2],"timeDeltas":[1,%s,1]}\n' "${d%%:*}" > "$tmp/bd.cpuprofile"
  "$PCOL" top "$tmp/bd.cpuprofile" >/dev/null 2>"$tmp/err"
  [ $? = 1 ] && grep -qF "timeDeltas[1]: ${d#*:}" "$tmp/err" || fail "timeDeltas ${d%%:*}: $(cat "$tmp/err")"
done
# a nameless function is "(anonymous <basename>:<line>)" whole, a NUL of its
# script's name too (\u0000 is read: rd18b F1, the name was cut at the NUL,
# so a\0b.js and a\0c.js were one row "(anonymous a:11)"; speedscope 1.25
# shows two frames)
for form in cpuprofile trace.json; do
  python3 - "$tmp/nul.$form" <<'PY'
import json, sys
nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "", "lineNumber": -1, "columnNumber": -1}, "children": [2, 3]},
         {"id": 2, "callFrame": {"functionName": "", "scriptId": "1", "url": "/x/a\u0000b.js", "lineNumber": 10, "columnNumber": 0}},
         {"id": 3, "callFrame": {"functionName": "", "scriptId": "2", "url": "/x/a\u0000c.js", "lineNumber": 10, "columnNumber": 0}}]
p = {"nodes": nodes, "startTime": 0, "endTime": 3000, "samples": [2, 3, 3], "timeDeltas": [1000, 1000, 1000]}
if sys.argv[1].endswith(".trace.json"):
    p = {"traceEvents": [{"name": "Profile", "ph": "P", "pid": 1, "tid": 1, "ts": 0, "id": "0x1", "args": {"data": {"startTime": 0}}},
                         {"name": "ProfileChunk", "ph": "P", "pid": 1, "tid": 1, "ts": 0, "id": "0x1",
                          "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": p["samples"]}, "timeDeltas": p["timeDeltas"]}}}]}
open(sys.argv[1], "w").write(json.dumps(p))
PY
  "$PCOL" top "$tmp/nul.$form" >"$tmp/out" 2>"$tmp/err" || fail "nul.$form: $(cat "$tmp/err")"
  grep -qF '(anonymous a\x00b.js:11)' "$tmp/out" && grep -qF '(anonymous a\x00c.js:11)' "$tmp/out" ||
    fail "nul.$form: a NUL in a nameless function's script: $(cat "$tmp/out")"
done
echo "t_v8_devtools: one profile's span and V8 export, the last sample's mean gap (the timeline's end; its frames the wall profile), a startTime that is no time, as DevTools"
