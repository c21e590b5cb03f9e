#!/usr/bin/env bash
# CLI: a Chrome trace (and a V8 profile's samples: each until the next
# one) cut by a time range counts the part of each event inside it (spec.md §7.1, "Interval sources"; doc/mappings.md §14), as
# DevTools' Performance panel, Perfetto and chrome://tracing count a window.
# Traces made here (tests/support/chrome_range.py: nested X events on one
# thread, B/E pairs with a recursion on another; and the samples/stackFrames
# form), the expected self and total time of each function inside [A, B)
# computed from the trace's JSON alone (each event clipped to the window),
# compared with `pcol top --from A --to B` on the trace and on its pcol file:
#  - ranges that cut events at both ends, one inside a single event, one
#    before and one past every event, the whole trace;
#  - adjacent ranges add up to the range they make, exactly;
#  - `pcol cat --table samples` shows the part of a cut stretch inside the
#    range (its start, its length, its value);
#  - the importer marks its sources (meta pcol.intervals) and declares their
#    longest stretch (pcol.max_duration_ns), which full validation checks;
#  - a V8 profile, .cpuprofile and in a trace: the part of each sample
#    inside a range, and the exports of a range say what top says;
#  - an E event without a name closes the innermost open B;
#  - the same stretches as a speedscope file of "evented" profiles, and a
#    V8 profile's and the samples form's pcol exports to speedscope
#    (--timeline) and Firefox, read back: ranges count what they count over
#    the original (their importers mark the sources as intervals too).
# And a trace of more V8 profiles than the open files' limit allows (each
# keeps 3-4 temporary files open) is refused naming `ulimit -n` and its
# value (review h11 F6), and read whole under the usual limit.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_chrome_range: FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }
cr=tests/support/chrome_range.py
secs() { [ "$1" = - ] && return; printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000)); }
# top over [A, B) (ns, or -) of FILE against the trace's own numbers
check() { # TRACE FILE A B
  local args=()
  [ "$3" = - ] || args+=(--from "$(secs "$3")")
  [ "$4" = - ] || args+=(--to "$(secs "$4")")
  python3 $cr expect "$1" "$3" "$4" >"$tmp/want" || fail "chrome_range.py expect $1"
  "$PCOL" top "$2" "${args[@]}" --format tsv >"$tmp/top" 2>"$tmp/err" || fail "top $2 ${args[*]}: $(head -3 "$tmp/err")"
  python3 $cr top <"$tmp/top" >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" ||
    fail "top $2 ${args[*]}: name, self, total inside the range differ from the trace's: $(diff "$tmp/want" "$tmp/got" | head -8)"
}
n=0
for seed in 1 2 3; do
  t=$tmp/ev$seed.json
  python3 $cr gen-events "$t" $seed || fail "gen-events"
  "$PCOL" pack "$t" -o "$tmp/ev$seed.pcol" 2>"$tmp/err" || fail "pack $t: $(head -3 "$tmp/err")"
  "$PCOL" validate --full -q "$tmp/ev$seed.pcol" || fail "validate --full of the packed trace"
  # ranges: the whole, open ends, cuts at both ends (times not on µs), one
  # inside the longest event, nothing
  # the same stretches as speedscope "evented" profiles (one a thread)
  python3 $cr to-speedscope "$t" "$tmp/ev$seed.ss.json" || fail "to-speedscope"
  for r in "- -" "- 40000500" "30000250 -" "12345678 57654321" "2000001 98000001" "40000000 40000001" \
           "0 1" "500000000 600000000" "0 99000000"; do
    set -- $r
    check "$t" "$t" "$1" "$2"
    check "$t" "$tmp/ev$seed.pcol" "$1" "$2"
    check "$t" "$tmp/ev$seed.ss.json" "$1" "$2"
    n=$((n + 1))
  done
  [ "$("$PCOL" cat "$tmp/ev$seed.ss.json" --table meta --format tsv | grep -c "^pcol.intervals	1	")" = 2 ] ||
    fail "speedscope evented profiles not marked as intervals: $("$PCOL" cat "$tmp/ev$seed.ss.json" --table meta --format tsv)"
  # inside the longest event of thread 1 (a root of it)
  in=$(python3 -c 'import json,sys; e=[x for x in json.load(open(sys.argv[1]))["traceEvents"] if x["ph"]=="X"]
t0=min(x["ts"] for x in json.load(open(sys.argv[1]))["traceEvents"]); x=max(e,key=lambda x:x["dur"])
a=(x["ts"]-t0)*1000; print(a+x["dur"]*300+7, a+x["dur"]*700+3)' "$t")
  set -- $in
  check "$t" "$tmp/ev$seed.pcol" "$1" "$2"
  "$PCOL" cat "$tmp/ev$seed.pcol" --table meta --format tsv >"$tmp/meta"
  [ "$(grep -c "^pcol.intervals	1	" "$tmp/meta")" = 2 ] || fail "not both sources marked as intervals: $(cat "$tmp/meta")"
  [ "$(grep -c "^pcol.max_duration_ns	" "$tmp/meta")" = 2 ] || fail "no longest duration declared: $(cat "$tmp/meta")"
  # adjacent ranges add up to the range they make (a cut at any ns)
  "$PCOL" top "$tmp/ev$seed.pcol" --from 0.012345678 --to 0.087654321 --format tsv | python3 $cr top >"$tmp/ab"
  "$PCOL" top "$tmp/ev$seed.pcol" --from 0.012345678 --to 0.050000333 --format tsv | python3 $cr top >"$tmp/am"
  "$PCOL" top "$tmp/ev$seed.pcol" --from 0.050000333 --to 0.087654321 --format tsv | python3 $cr top >"$tmp/mb"
  python3 - "$tmp/ab" "$tmp/am" "$tmp/mb" <<'PY' || fail "[A, M) + [M, B) is not [A, B) (seed $seed)"
import sys
def rd(p):
    d = {}
    for l in open(p):
        n, s, t = l.rstrip("\n").split("\t"); d[n] = (int(s), int(t))
    return d
ab, am, mb = map(rd, sys.argv[1:])
for n in set(ab) | set(am) | set(mb):
    a, b, c = ab.get(n, (0, 0)), am.get(n, (0, 0)), mb.get(n, (0, 0))
    if (b[0] + c[0], b[1] + c[1]) != a:
        sys.exit("%s: %s + %s != %s" % (n, b, c, a))
PY
done
# the samples form (each sample until its thread's next one); its
# speedscope (--timeline: each sample's time and duration) and Firefox
# exports read back as intervals too (before, 455 ms of a 500 ms window)
for seed in 4 5; do
  t=$tmp/sm$seed.json
  python3 $cr gen-samples "$t" $seed || fail "gen-samples"
  "$PCOL" pack "$t" -o "$tmp/sm$seed.pcol" 2>"$tmp/err" || fail "pack $t: $(head -3 "$tmp/err")"
  "$PCOL" validate --full -q "$tmp/sm$seed.pcol" || fail "validate --full of the packed samples"
  "$PCOL" unpack "$t" --to speedscope --timeline -o "$tmp/sm$seed.speedscope.json" 2>"$tmp/err" &&
    "$PCOL" unpack "$t" --to firefox -o "$tmp/sm$seed.firefox.json" 2>>"$tmp/err" || fail "exports of $t: $(head -3 "$tmp/err")"
  for r in "- -" "3000333 9000777" "100 200" "0 17000001" "8000000 -"; do
    set -- $r
    check "$t" "$tmp/sm$seed.pcol" "$1" "$2"
    check "$t" "$tmp/sm$seed.speedscope.json" "$1" "$2"
    check "$t" "$tmp/sm$seed.firefox.json" "$1" "$2"
    n=$((n + 1))
  done
done
# cat shows the part of a cut stretch: main [0, 1 ms) less f [0.2, 0.5 ms)
# on tid 1, g [0.1, 0.9 ms) on tid 2; [0.4, 0.7 ms) cuts f's and main's
# second stretch, and g's
cat >"$tmp/a.json" <<'J'
{"traceEvents":[{"ph":"X","name":"main","pid":1,"tid":1,"ts":1000,"dur":1000},{"ph":"X","name":"f","pid":1,"tid":1,"ts":1200,"dur":300},
{"ph":"B","name":"g","pid":1,"tid":2,"ts":1100},{"ph":"E","name":"g","pid":1,"tid":2,"ts":1900}]}
J
"$PCOL" cat "$tmp/a.json" --table samples --from 0.0004 --to 0.0007 --format tsv | cut -f2-5 >"$tmp/got"
printf 'source_id\ttime_ns\tduration_ns\tweight\n1\t400000\t100000\t0\n1\t500000\t200000\t0\n2\t400000\t300000\t0\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" || fail "cat --from --to of cut stretches: $(diff "$tmp/want" "$tmp/got")"
"$PCOL" cat "$tmp/a.json" --table sample_values --from 0.0004 --to 0.0007 --format tsv | cut -f4 | tail -n +2 | tr '\n' ' ' >"$tmp/got"
[ "$(cat "$tmp/got")" = "100000 200000 300000 " ] || fail "cat sample_values of cut stretches: $(cat "$tmp/got")"
# the weight: a stretch counts 1 in a range that holds at least half of it
"$PCOL" top "$tmp/a.json" --from 0.0004 --to 0.0008 --value weight --format tsv | python3 $cr top >"$tmp/got"
printf 'f\t0\t0\ng\t1\t1\nmain\t1\t1\n' | grep -v '	0	0$' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" || fail "the weight of cut stretches: $(diff "$tmp/want" "$tmp/got")"
# two CPU profiles of one trace (two renderers, profiled 1 s apart): one
# timeline, since the earlier profile's startTime, as DevTools and the
# Firefox Profiler (its Chrome importer: startTime + the running sum of
# timeDeltas, every thread on the trace's clock) put them; a range selects
# the same stretch of the trace in both threads
python3 $cr gen-apart "$tmp/two.json" || fail "chrome_range.py gen-apart"
"$PCOL" cat "$tmp/two.json" --table samples --format tsv | awk -F'\t' 'NR > 1 { print $2, $3 }' >"$tmp/got"
printf '1 100000\n1 1100000\n1 2100000\n1 3100000\n2 1000100000\n2 1001100000\n2 1002100000\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" || fail "two profiles 1 s apart: source, time_ns not on one timeline: $(diff "$tmp/want" "$tmp/got" | tr '\n' ' ')"
# (each V8 sample is the stretch until the next one: f22's first, all of
# it, and 0.1 ms of its second, as DevTools sums a selection)
"$PCOL" top "$tmp/two.json" --from 1.0001 --to 1.0012 --value wall --format tsv | python3 $cr top >"$tmp/got"
printf 'f22\t1100000\t1100000\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" || fail "two profiles 1 s apart, --from 1.0001 --to 1.0012: $(diff "$tmp/want" "$tmp/got" | tr '\n' ' ')"
[ "$("$PCOL" cat "$tmp/two.json" --table meta --format tsv | awk -F'\t' '$1 == "v8.time_origin_us" && $2 == 5000000' | wc -l)" = 2 ] ||
  fail "two profiles: each source's time 0 (v8.time_origin_us) is not the trace's first profile's start"
# (each keeps its own start: tests/cli/t_v8_devtools.sh)
[ "$("$PCOL" cat "$tmp/two.json" --table meta --format tsv | awk -F'\t' '$1 == "v8.start_time_us" { printf "%s ", $2 }')" = "5000000 6000000 " ] ||
  fail "two profiles: v8.start_time_us is not each profile's own startTime"
# a V8 profile's samples (a .cpuprofile, and the same profile as a Chrome
# trace's ProfileChunk) are stretches too: each until the next sample (main
# [0, 1 ms), fib [1, 6 ms) and [6, 8 ms), main at 8 ms lasting 0), and a
# range counts the part of each inside it, as DevTools sums a selection
# (the rest against DevTools' own sums of a real profile:
# tests/interop/t_v8_range.sh)
cat >"$tmp/v.cpuprofile" <<'J'
{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
{"id":2,"callFrame":{"functionName":"main","url":"a.js","lineNumber":0,"columnNumber":0},"children":[3]},
{"id":3,"callFrame":{"functionName":"fib","url":"a.js","lineNumber":4,"columnNumber":0}}],
"startTime":1000,"endTime":9000,"samples":[2,3,3,2],"timeDeltas":[0,1000,5000,2000]}
J
python3 - "$tmp/v.cpuprofile" "$tmp/v.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
nodes = [{"id": 1, "callFrame": p["nodes"][0]["callFrame"]}, {"id": 2, "parent": 1, "callFrame": p["nodes"][1]["callFrame"]},
         {"id": 3, "parent": 2, "callFrame": p["nodes"][2]["callFrame"]}]
ev = [{"ph": "P", "name": "Profile", "pid": 1, "tid": 1, "ts": 1000, "id": "0x1", "args": {"data": {"startTime": 1000}}},
      {"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 1, "ts": 1001, "id": "0x1",
       "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": p["samples"][:2]}, "timeDeltas": p["timeDeltas"][:2]}}},
      {"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 1, "ts": 1002, "id": "0x1",
       "args": {"data": {"cpuProfile": {"samples": p["samples"][2:]}, "timeDeltas": p["timeDeltas"][2:], "endTime": 9000}}}]
json.dump({"traceEvents": ev}, open(sys.argv[2], "w"))
PY
# (and its exports to speedscope, with its timeline, and Firefox, read back)
"$PCOL" unpack "$tmp/v.cpuprofile" --to speedscope --timeline -o "$tmp/v.speedscope.json" 2>"$tmp/err" &&
  "$PCOL" unpack "$tmp/v.cpuprofile" --to firefox -o "$tmp/v.firefox.json" 2>>"$tmp/err" || fail "exports of v.cpuprofile: $(head -3 "$tmp/err")"
for v in v.cpuprofile v.json v.speedscope.json v.firefox.json; do
  "$PCOL" pack "$tmp/$v" -o "$tmp/$v.pcol" 2>"$tmp/err" || fail "pack $v: $(head -3 "$tmp/err")"
  "$PCOL" validate --full -q "$tmp/$v.pcol" || fail "validate --full of $v's pcol file"
  "$PCOL" cat "$tmp/$v.pcol" --table meta --format tsv >"$tmp/meta"
  case $v in
    *.cpuprofile|v.json) grep -q "^pcol.max_duration_ns	5000000	" "$tmp/meta" || fail "$v: its longest sample (5 ms) not declared: $(cat "$tmp/meta")" ;;
  esac
  grep -q "^pcol.intervals	1	" "$tmp/meta" || fail "$v: not marked as intervals: $(cat "$tmp/meta")"
  for x in "$tmp/$v" "$tmp/$v.pcol"; do
    for r in "- -|fib 7000000 7000000;main 1000000 8000000" \
             "0.0005 0.007|fib 6000000 6000000;main 500000 6500000" \
             "0.0005 0.003|fib 2000000 2000000;main 500000 2500000" \
             "0.003 0.007|fib 4000000 4000000;main 0 4000000" \
             "0.0015 0.001501|fib 1000 1000;main 0 1000" \
             "0.008 -|"; do
      set -- ${r%%|*}
      args=()
      [ "$1" = - ] || args+=(--from "$1")
      [ "$2" = - ] || args+=(--to "$2")
      echo "${r#*|}" | tr ';' '\n' | tr ' ' '\t' | grep . >"$tmp/want"
      xval=(--value wall) # (a Firefox file's value: its "tracing" weight, ns)
      [ "$v" = v.firefox.json ] && xval=()
      "$PCOL" top "$x" "${args[@]}" "${xval[@]}" --format tsv 2>"$tmp/err" | python3 $cr top >"$tmp/got" ||
        fail "top $x ${args[*]}: $(head -3 "$tmp/err")"
      cmp -s "$tmp/want" "$tmp/got" ||
        fail "top $(basename "$x") ${args[*]}: not each sample's part inside the range: $(diff "$tmp/want" "$tmp/got" | tr '\n' ' ')"
      # the exports of the range say what top says
      for fmt in pprof speedscope firefox collapsed; do
        uval=() tval=(--value wall) # (collapsed: one value, chosen here; Firefox's: "tracing", ns)
        case $fmt in collapsed) uval=(--value wall) tval=() ;; firefox) tval=() ;; esac
        [ -s "$tmp/want" ] || continue
        "$PCOL" unpack "$x" "${args[@]}" -t $fmt "${uval[@]}" -o "$tmp/x.$fmt" 2>"$tmp/err" || fail "unpack $fmt: $(head -3 "$tmp/err")"
        "$PCOL" top "$tmp/x.$fmt" "${tval[@]}" --format tsv 2>"$tmp/err" | python3 $cr top >"$tmp/got" ||
          fail "top of the $fmt export: $(head -3 "$tmp/err")"
        cmp -s "$tmp/want" "$tmp/got" ||
          fail "the $fmt export of $(basename "$x") ${args[*]} is not top's: $(diff "$tmp/want" "$tmp/got" | tr '\n' ' ')"
      done
      n=$((n + 1))
    done
  done
done
# the duration of a trace's profile (DevTools' TimelineModel: a chunk's
# endTime, else startTime + the sum of timeDeltas, its last sample; 0 is
# none), as the .cpuprofile of the same profile states it (endTime -
# startTime): Duration: in top, duration: in info (before, a trace whose
# chunks state no endTime, as a real Chromium trace's, had neither)
python3 - "$tmp/v.json" "$tmp" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
for name, end in (("none", None), ("zero", 0), ("later", 12000)):
    ev = json.loads(json.dumps(t["traceEvents"]))
    d = ev[2]["args"]["data"]
    del d["endTime"]
    if end is not None:
        d["endTime"] = end
    json.dump({"traceEvents": ev}, open("%s/end-%s.json" % (sys.argv[2], name), "w"))
PY
dur() { "$PCOL" top "$1" -n 1 2>/dev/null | grep '^Duration:' | cut -d, -f1; }
for c in "v.cpuprofile|8ms" "v.json|8ms" "end-none.json|8ms" "end-zero.json|8ms" "end-later.json|11ms"; do
  f=$tmp/${c%%|*} want=${c#*|}
  [ "$(dur "$f")" = "Duration: $want" ] || fail "${c%%|*}: '$(dur "$f")', not 'Duration: $want'"
  "$PCOL" info "$f" | grep -q "^  duration: *$want\$" || fail "${c%%|*}: info has no 'duration: $want': $("$PCOL" info "$f" | head -5)"
  # the recording of one profile: the same through pcol files and exports
  "$PCOL" unpack "$f" -t pprof -o "$tmp/d.pb.gz" && [ "$(dur "$tmp/d.pb.gz")" = "Duration: $want" ] ||
    fail "${c%%|*}: the pprof export's '$(dur "$tmp/d.pb.gz")', not 'Duration: $want'"
done
# an E event without a name (absent, or "") closes the innermost open B of
# its thread (the Trace Event Format, chrome://tracing, Perfetto); one
# whose name differs from it is left out, as speedscope leaves it
printf '{"traceEvents":[{"ph":"B","name":"C","tid":"u","ts":1003},{"ph":"E","tid":"u","ts":1009}]}\n' >"$tmp/e.json"
"$PCOL" top "$tmp/e.json" --format tsv 2>"$tmp/err" | python3 $cr top >"$tmp/got" || fail "top of a nameless E: $(head -3 "$tmp/err")"
[ "$(cat "$tmp/got")" = "C	6000	6000" ] || fail "an E without a name does not close its B (C 6 us): $(cat "$tmp/got")"
[ -s "$tmp/err" ] && fail "an E without a name: a warning: $(cat "$tmp/err")"
printf '{"traceEvents":[{"ph":"B","name":"C","tid":"u","ts":1003},{"ph":"B","name":"D","tid":"u","ts":1004},{"ph":"E","name":"","tid":"u","ts":1006},{"ph":"E","name":"X","tid":"u","ts":1007},{"ph":"E","tid":"u","ts":1012}]}\n' >"$tmp/e.json"
"$PCOL" top "$tmp/e.json" --format tsv 2>"$tmp/err" | python3 $cr top >"$tmp/got" || fail "top of nameless Es: $(head -3 "$tmp/err")"
[ "$(cat "$tmp/got" | tr '\t\n' ' ')" = "C 7000 9000 D 2000 2000 " ] ||
  fail "E events \"\" and absent close D then C, E \"X\" closes nothing (C 7 us self, 9 us; D 2 us): $(cat "$tmp/got")"
grep -q "1 E event matching no open B" "$tmp/err" || fail "E \"X\" not reported as left out: $(cat "$tmp/err")"
python3 - "$tmp/many.json" <<'PY'
import json, sys
ev = []
for i in range(1, 41):
    ev.append({"ph": "P", "name": "Profile", "id": hex(i), "pid": 7, "tid": 9, "ts": 3000 + i, "args": {"data": {"startTime": 1000 + i}}})
    ev.append({"ph": "P", "name": "ProfileChunk", "id": hex(i), "pid": 7, "tid": 9, "ts": 3000 + i, "args": {"data": {
        "cpuProfile": {"nodes": [{"callFrame": {"functionName": "(root)", "scriptId": 0}, "id": 1},
                                 {"callFrame": {"functionName": "w", "scriptId": 0}, "id": 2, "parent": 1}], "samples": [2]},
        "timeDeltas": [5]}}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
(ulimit -n 48 && "$PCOL" info "$tmp/many.json") >/dev/null 2>"$tmp/err"
[ $? != 0 ] && grep -q "Too many open files: each V8 profile keeps 3 or 4 temporary files open until the trace is read, and \`ulimit -n\` allows 48 open files" "$tmp/err" ||
  fail "40 V8 profiles under ulimit -n 48: $(cat "$tmp/err")"
if [ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge 256 ]; then
  "$PCOL" info "$tmp/many.json" >/dev/null 2>"$tmp/err" || fail "40 V8 profiles: $(cat "$tmp/err")"
fi
echo "t_chrome_range: $n ranges of Chrome traces count the part of each event inside them, as the traces say"
