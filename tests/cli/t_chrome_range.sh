#!/usr/bin/env bash
# CLI: a Chrome trace cut by a time range counts the part of each event
# inside it (spec.md §7.1, "Interval sources"; doc/mappings.md §14), as
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
#    longest stretch (pcol.max_duration_ns), which full validation checks.
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
  for r in "- -" "- 40000500" "30000250 -" "12345678 57654321" "2000001 98000001" "40000000 40000001" \
           "0 1" "500000000 600000000" "0 99000000"; do
    set -- $r
    check "$t" "$t" "$1" "$2"
    check "$t" "$tmp/ev$seed.pcol" "$1" "$2"
    n=$((n + 1))
  done
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
# the samples form (each sample until its thread's next one)
for seed in 4 5; do
  t=$tmp/sm$seed.json
  python3 $cr gen-samples "$t" $seed || fail "gen-samples"
  "$PCOL" pack "$t" -o "$tmp/sm$seed.pcol" 2>"$tmp/err" || fail "pack $t: $(head -3 "$tmp/err")"
  "$PCOL" validate --full -q "$tmp/sm$seed.pcol" || fail "validate --full of the packed samples"
  for r in "- -" "3000333 9000777" "100 200" "0 17000001" "8000000 -"; do
    set -- $r
    check "$t" "$tmp/sm$seed.pcol" "$1" "$2"
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
python3 - "$tmp/two.json" <<'PY'
import json, sys
ev = []
for pid, start, n in ((11, 5000000, 4), (22, 6000000, 3)):
    ev.append({"ph": "P", "name": "Profile", "pid": pid, "tid": pid, "ts": start, "id": "0x1",
               "args": {"data": {"startTime": start}}})
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)"}},
             {"id": 2, "parent": 1, "callFrame": {"functionName": "f%d" % pid, "url": "a.js"}}]
    ev.append({"ph": "P", "name": "ProfileChunk", "pid": pid, "tid": 99, "ts": start + 1, "id": "0x1",
               "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": [2] * n}, "timeDeltas": [100] + [1000] * (n - 1)}}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PCOL" cat "$tmp/two.json" --table samples --format tsv | awk -F'\t' 'NR > 1 { print $2, $3 }' >"$tmp/got"
printf '1 100000\n1 1100000\n1 2100000\n1 3100000\n2 1000100000\n2 1001100000\n2 1002100000\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" || fail "two profiles 1 s apart: source, time_ns not on one timeline: $(diff "$tmp/want" "$tmp/got" | tr '\n' ' ')"
"$PCOL" top "$tmp/two.json" --from 1.0001 --to 1.0012 --value samples --format tsv | python3 $cr top >"$tmp/got"
printf 'f22\t2\t2\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" || fail "two profiles 1 s apart, --from 1.0001 --to 1.0012: $(diff "$tmp/want" "$tmp/got" | tr '\n' ' ')"
[ "$("$PCOL" cat "$tmp/two.json" --table meta --format tsv | awk -F'\t' '$1 == "v8.time_origin_us" && $2 == 5000000' | wc -l)" = 2 ] ||
  fail "two profiles: each source's time 0 (v8.time_origin_us) is not the trace's first profile's start"
# (each keeps its own start: tests/cli/t_v8_devtools.sh)
[ "$("$PCOL" cat "$tmp/two.json" --table meta --format tsv | awk -F'\t' '$1 == "v8.start_time_us" { printf "%s ", $2 }')" = "5000000 6000000 " ] ||
  fail "two profiles: v8.start_time_us is not each profile's own startTime"
echo "t_chrome_range: $n ranges of Chrome traces count the part of each event inside them, as the traces say"
