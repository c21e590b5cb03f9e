#!/usr/bin/env bash
# CLI: V8 times with fractions of a ns (JSON allows 0.0001 us; V8 writes
# whole us), as DevTools and speedscope read them: doubles, each sample's
# time startTime + the deltas before it.  pcol holds times as whole ns:
#  - the deltas' fractions are carried, so every time is the file's to half
#    a ns (rounded one by one, 3000 deltas of 1.0004 us lost 1.2 us: each
#    function's wall was 0.04% short, exit 0), in a .cpuprofile and in a
#    Chrome trace's ProfileChunk timeDeltas (the same reader);
#  - THE kept rule (lib/core/count.c pcol_kept_verdict, as the speedscope,
#    Firefox and Perun imports): a profile that whole ns cannot hold to a
#    millionth is refused naming the delta (deltas of 0.0001 us gave
#    "Total samples = 0" with exit 0), the old shape's timestamps too, and
#    a trace's duration events (ts and dur are times to the ns: X events
#    of 0.0004 us were left out, exit 0).
T=t_v8_fractions
. "$(dirname "$0")/cli_env.sh"
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
root = {"functionName": "(root)", "url": "", "scriptId": "0", "lineNumber": -1, "columnNumber": -1}
def cf(n): return {"functionName": n, "url": "a.js", "scriptId": "1", "lineNumber": 0, "columnNumber": 0}
nodes = [{"id": 1, "callFrame": root, "children": [2, 3]}, {"id": 2, "callFrame": cf("f")}, {"id": 3, "callFrame": cf("g")}]
def prof(samples, deltas):
    return {"nodes": nodes, "startTime": 100, "endTime": 100 + sum(deltas) + 1, "samples": samples, "timeDeltas": deltas}
# 3000 samples, f and g in runs of 3, 1.0004 us apart
samples = [2 if (i // 3) % 2 == 0 else 3 for i in range(3000)]
deltas = [0] + [1.0004] * 2999
json.dump(prof(samples, deltas), open(d + "/drift.cpuprofile", "w"))
# what DevTools and speedscope sum: sample i lasts until sample i + 1 (ns)
want = {"f": 0.0, "g": 0.0}
t = [0.0]
for x in deltas[1:]:
    t.append(t[-1] + x)
for i in range(len(samples) - 1):
    want["f" if samples[i] == 2 else "g"] += (t[i + 1] - t[i]) * 1000
open(d + "/want", "w").write("%.3f %.3f\n" % (want["f"], want["g"]))
# the same profile in a Chrome trace: a Profile event and two chunks
ev = [{"ph": "P", "name": "Profile", "pid": 1, "tid": 1, "ts": 100, "id": "0x1", "args": {"data": {"startTime": 100}}}]
for k in range(2):
    part = slice(1500 * k, 1500 * (k + 1))
    cp = {"samples": samples[part]}
    if k == 0:
        cp["nodes"] = [{"id": 1, "callFrame": root}, {"id": 2, "parent": 1, "callFrame": cf("f")},
                       {"id": 3, "parent": 1, "callFrame": cf("g")}]
    ev.append({"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 1, "ts": 101 + k, "id": "0x1",
               "args": {"data": {"cpuProfile": cp, "timeDeltas": deltas[part]}}})
json.dump({"traceEvents": ev}, open(d + "/drift.json", "w"))
# four samples 0.0001 us apart: 0.3 ns in all, no whole ns
json.dump(prof([2, 3, 2, 3], [0.0001] * 4), open(d + "/tiny.cpuprofile", "w"))
json.dump({"traceEvents": [ev[0], {"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 1, "ts": 101, "id": "0x1",
          "args": {"data": {"cpuProfile": {"nodes": ev[1]["args"]["data"]["cpuProfile"]["nodes"], "samples": [2, 3, 2, 3]},
                            "timeDeltas": [0.0001] * 4}}}]}, open(d + "/tiny.json", "w"))
# the old shape: timestamps (us) 0.0001 apart
old = {"head": {"id": 1, "functionName": "(root)", "url": "", "lineNumber": 0, "hitCount": 0, "children": [
    {"id": 2, "functionName": "f", "url": "a.js", "lineNumber": 1, "hitCount": 2, "children": []},
    {"id": 3, "functionName": "g", "url": "a.js", "lineNumber": 1, "hitCount": 2, "children": []}]},
    "startTime": 1, "endTime": 2, "samples": [2, 3, 2, 3], "timestamps": [1e6 + 0.0001 * i for i in range(4)]}
json.dump(old, open(d + "/tiny-old.cpuprofile", "w"))
# duration events (no CPU profile): two X events of 0.0004 us beside one of
# 1.0004 us (speedscope: a 0.0004, b 0.0004, c 1.0004; pcol kept c 1 us
# alone, exit 0), and three stretches of 1000.0004 us (each held to a ns
# of a trace of 3 ms: read as they are, no warning)
X = lambda n, ts, dur: {"ph": "X", "name": n, "pid": 1, "tid": 1, "ts": ts, "dur": dur}
json.dump({"traceEvents": [X("a", 0.0001, 0.0004), X("b", 1, 0.0004), X("c", 2, 1.0004)]}, open(d + "/tiny-x.json", "w"))
json.dump({"traceEvents": [X("a", 0, 1000.0004), X("b", 1000.0004, 1000.0004), X("c", 2000.0008, 1000.0004)]},
          open(d + "/x.json", "w"))
# whole us at an epoch's us (1.7e15): the double ts * 1000 is 256 ns apart
# there; the times were held up to 128 ns off and the kept rule refused the
# trace ("the stretch of 1 us ... more than a millionth", exit 1)
E0 = 1700000000123457
B = lambda ph, n, ts: {"ph": ph, "name": n, "pid": 1, "tid": 1, "ts": ts}
json.dump({"traceEvents": [B("B", "a", E0), B("B", "b", E0 + 1), B("E", "b", E0 + 2), X("c", E0 + 3, 1),
                           B("E", "a", E0 + 5)]}, open(d + "/epoch.json", "w"))
PY
read -r wf wg <"$tmp/want"
for f in drift.cpuprofile drift.json; do
  "$PCOL" fold "$tmp/$f" --value wall >"$tmp/fold" 2>"$tmp/err" || fail "fold $f: $(head -3 "$tmp/err")"
  [ -s "$tmp/err" ] && fail "fold $f: a warning: $(head -3 "$tmp/err")"
  python3 - "$tmp/fold" "$wf" "$wg" "$f" <<'PY' || fail "fold $f: the walls are not DevTools' to a ns"
import sys
got = {}
for line in open(sys.argv[1]):
    stack, _, v = line.rstrip("\n").rpartition(" ")
    leaf = stack.split(";")[-1]
    got[leaf] = got.get(leaf, 0) + int(v)
want = {"f": float(sys.argv[2]), "g": float(sys.argv[3])}
bad = [(k, got.get(k, 0), want[k]) for k in want if abs(got.get(k, 0) - want[k]) > 1]
if bad:
    print("%s: %s" % (sys.argv[4], ", ".join("%s %d ns, DevTools %.1f" % b for b in bad)), file=sys.stderr)
    sys.exit(1)
PY
done
"$PCOL" fold "$tmp/x.json" >"$tmp/fold" 2>"$tmp/err" && [ ! -s "$tmp/err" ] || fail "fold x.json: $(cat "$tmp/err")"
# (each end the file's ts + dur to half a ns: b ends at 2000.0008 us, 2000001
# ns, so 1000001 of it; the three end at 3000.0012 us, 3000001 ns: the sum of
# each rounded alone, 3000000, was 1.2 ns short)
[ "$(tr '\n' ' ' <"$tmp/fold")" = "a 1000000 b 1000001 c 1000000 " ] || fail "fold x.json: $(cat "$tmp/fold")"
"$PCOL" fold "$tmp/epoch.json" >"$tmp/fold" 2>"$tmp/err" && [ ! -s "$tmp/err" ] || fail "fold epoch.json: $(cat "$tmp/err")"
[ "$(tr '\n' ' ' <"$tmp/fold")" = "a 3000 a;b 1000 a;c 1000 " ] || fail "fold epoch.json: $(tr '\n' ' ' <"$tmp/fold")"
if "$PCOL" fold "$tmp/tiny-x.json" >"$tmp/fold" 2>"$tmp/err"; then
  fail "fold tiny-x.json: read ($(tr '\n' ' ' <"$tmp/fold")), want it refused: two of its stretches are no whole ns"
fi
grep -q 'tiny-x.json: traceEvents\[0\]: the stretch of 0.0004 µs .*not held to six significant digits.*more than a millionth' \
  "$tmp/err" || fail "fold tiny-x.json: $(head -3 "$tmp/err")"
for f in tiny.cpuprofile tiny.json tiny-old.cpuprofile; do
  if "$PCOL" top "$tmp/$f" >"$tmp/top" 2>"$tmp/err"; then
    fail "top $f: read ($(grep Total "$tmp/top")), want it refused: its times are no whole ns"
  fi
  what=timeDeltas
  [ "$f" = tiny-old.cpuprofile ] && what=timestamps
  grep -q "$what\[[0-9]*\]: .*not held to six significant digits.*more than a millionth" "$tmp/err" ||
    fail "top $f: $(head -3 "$tmp/err")"
done

# Times at an epoch's µs (1.7e15) with fractions of a µs: a double holds
# them 0.25 µs apart (1733000000123456.124 is ...456.0 there, 124 ns off),
# so each is read from the number's text, to the ns (THE rule,
# pcol_v8_time_us): a Profile's startTime (a profile's samples were put up
# to 125 ns off another's), the samples form's ts (the double's ts * 1000,
# 256 ns apart there: weights ~128 ns off) and the duration events' ts and
# dur (the long double's product of the double: 124 ns off).  The times
# the tests want are the texts' exact values (Fraction), here.
python3 - "$tmp" <<'PY'
import json, sys
from fractions import Fraction as F
d = sys.argv[1]
def doc(o):  # JSON with the numbers "#TEXT" written as TEXT (exact digits, not a double's)
    return json.dumps(o).replace('"#', "").replace('#"', "")
def ns(text):  # a time (us) in ns, exact, rounded half away from zero
    x = F(text.lstrip("#").rstrip("#")) * 1000
    return int(x + F(1, 2)) if x >= 0 else -int(-x + F(1, 2))
N = lambda t: "#%s#" % t
E = "1733000000123"
root = {"functionName": "(root)", "url": "", "scriptId": "0", "lineNumber": -1, "columnNumber": -1}
def cf(n): return {"functionName": n, "url": "a.js", "scriptId": "1", "lineNumber": 0, "columnNumber": 0}
# two threads' profiles, startTime at an epoch's us with fractions; the
# deltas whole ns (0.25 ... 1.376 us)
starts = {1: E + "456.124", 2: E + "457.376"}
deltas = {1: ["0", "1.376", "0.25"], 2: ["0.001", "2.999", "0.125"]}
ev = []
for tid in (1, 2):
    ev.append({"ph": "P", "name": "Profile", "pid": 1, "tid": tid, "ts": 100, "id": "0x%d" % tid,
               "args": {"data": {"startTime": N(starts[tid])}}})
    ev.append({"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": tid, "ts": 101, "id": "0x%d" % tid,
               "args": {"data": {"cpuProfile": {"nodes": [{"id": 1, "callFrame": root},
                                                          {"id": 2, "parent": 1, "callFrame": cf("f%d" % tid)}],
                                                "samples": [2, 2, 2]},
                                 "timeDeltas": [N(x) for x in deltas[tid]]}}})
open(d + "/epoch-chunks.json", "w").write(doc({"traceEvents": ev}))
t0 = min(ns(s) for s in starts.values())
with open(d + "/epoch-chunks.want", "w") as o:  # each sample's time since the earliest startTime
    for tid in (1, 2):
        t = ns(starts[tid])
        for x in deltas[tid]:
            t += ns(x)
            o.write("%d\n" % (t - t0))
# the samples form (Hermes): one thread's samples at fractions of a us,
# each weighed by the time to the next (the last: 0)
fr = {"1": {"name": "a", "category": "JS"}, "2": {"name": "b", "category": "JS", "parent": 1}}
ts = [E + "456.124", E + "457.376", E + "458.628", E + "459.001", E + "461.999"]
sf = [1, 2, 1, 2, 1]
sm = [{"ts": N(t), "pid": 7, "tid": 9, "sf": f} for t, f in zip(ts, sf)]
M = {"name": "thread_name", "ph": "M", "cat": "__metadata", "pid": 7, "tid": 9, "ts": 0, "args": {"name": "js"}}
open(d + "/epoch-hermes.json", "w").write(doc({"traceEvents": [M], "samples": sm, "stackFrames": fr}))
w = {}
for i in range(len(ts) - 1):
    k = "a" if sf[i] == 1 else "a;b"
    w[k] = w.get(k, 0) + ns(ts[i + 1]) - ns(ts[i])
open(d + "/epoch-hermes.want", "w").write("".join("%s %d\n" % kv for kv in sorted(w.items())))
# duration events: B/E and X at fractions of a us, a dur with one
X = lambda n, t, du: {"ph": "X", "name": n, "pid": 1, "tid": 1, "ts": N(t), "dur": N(du)}
B = lambda ph, n, t: {"ph": ph, "name": n, "pid": 1, "tid": 1, "ts": N(t)}
a0, b0, bd, a1 = E + "456.124", E + "456.5", "0.752", E + "457.376"
open(d + "/epoch-dur.json", "w").write(doc({"traceEvents": [B("B", "a", a0), X("b", b0, bd), B("E", "a", a1)]}))
b1 = ns(b0) + ns(bd)
open(d + "/epoch-dur.want", "w").write("a %d\na;b %d\n" % (ns(b0) - ns(a0) + ns(a1) - b1, b1 - ns(b0)))
# three profiles, each with deltas whole ns hold 0.4 ns off (the kept rule:
# more than a millionth of its 300 us, but together nothing lost: a
# warning each), the last with a sample of a node in no chunk (a warning
# of the trace's): the nodes lost replaced the profiles' warnings, and the
# third profile's was cut at the message's end; and the first delta not
# kept was said as 0.0005999999999999998 (the double of 1 - 0.4 ns), not
# the file's 0.0006
ev = []
for tid in (1, 2, 3):
    ev.append({"ph": "P", "name": "Profile", "pid": 1, "tid": tid, "ts": 100, "id": "0x%d" % tid,
               "args": {"data": {"startTime": 100}}})
    ev.append({"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": tid, "ts": 101, "id": "0x%d" % tid,
               "args": {"data": {"cpuProfile": {"nodes": [{"id": 1, "callFrame": root},
                                                          {"id": 2, "parent": 1, "callFrame": cf("f")},
                                                          {"id": 3, "parent": 1, "callFrame": cf("g")}],
                                                "samples": [2, 3, 9 if tid == 3 else 2]},
                                 "timeDeltas": [0, N("0.0006"), N("299.9994")]}}})
open(d + "/warns.json", "w").write(doc({"traceEvents": ev}))
PY
"$PCOL" cat "$tmp/epoch-chunks.json" --table samples --format csv >"$tmp/cat" 2>"$tmp/err" ||
  fail "cat epoch-chunks.json: $(head -3 "$tmp/err")"
[ -s "$tmp/err" ] && fail "cat epoch-chunks.json: a warning: $(head -3 "$tmp/err")"
python3 - "$tmp/cat" "$tmp/epoch-chunks.want" <<'PY' || fail "epoch-chunks.json: the samples' times are not the file's to the ns"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [r["time_ns"] for r in rows]
want = open(sys.argv[2]).read().split()
if got != want:
    print("times %s, want %s" % (got, want), file=sys.stderr)
    sys.exit(1)
PY
for f in epoch-hermes epoch-dur; do
  "$PCOL" fold "$tmp/$f.json" >"$tmp/fold" 2>"$tmp/err" || fail "fold $f.json: $(head -3 "$tmp/err")"
  [ -s "$tmp/err" ] && fail "fold $f.json: a warning: $(head -3 "$tmp/err")"
  cmp -s "$tmp/fold" "$tmp/$f.want" || fail "fold $f.json: $(tr '\n' ' ' <"$tmp/fold"), want $(tr '\n' ' ' <"$tmp/$f.want")"
done
"$PCOL" fold "$tmp/warns.json" >"$tmp/fold" 2>"$tmp/err" || fail "fold warns.json: $(head -3 "$tmp/err")"
python3 - "$tmp/err" <<'PY' || fail "fold warns.json: not every warning said or counted: $(cat "$tmp/err")"
import re, sys
err = open(sys.argv[1]).read()
said = [m.group(1) for m in re.finditer(r"profile (0x[0-9]) \(pid 1, tid [0-9]\): 2 amounts not held to six", err)]
said += ["lost"] * err.count("nodes lost from the trace: 1 sample of a node in no chunk")
more = sum(int(n) for n in re.findall(r"; and ([0-9]+) more warnings?", err))
if "profile 0x1" not in err or len(said) != len(set(said)) or len(said) + more != 4:
    print("said %s, %d more: want 4 in all, the first profile's said" % (said, more), file=sys.stderr)
    sys.exit(1)
# the delta as the file has it, not the arithmetic's double (0.0005999999999999998)
if "(the first: timeDeltas[1] (µs), 0.0006 held as 0.001)" not in err:
    print("the first delta not kept is not said as the file has it", file=sys.stderr)
    sys.exit(1)
PY
# Deltas whose sum lands on a half ns (1.0002 + 2.0003 us: 3000.5 ns): the
# time is the sum rounded as THE rule rounds a time, half away from zero
# (3001), as a carry of -0.5 ns already went; a carry of +0.5 went down
# (3000).  The deltas' fractions
# are carried exactly (1e-18 ns), in a .cpuprofile and across a trace's
# ProfileChunks alike; the times wanted are the texts' exact sums (Fraction).
python3 - "$tmp" <<'PY'
import json, sys
from fractions import Fraction as F
d = sys.argv[1]
def doc(o):
    return json.dumps(o).replace('"#', "").replace('#"', "")
def ns(x):  # a time in ns, exact, rounded half away from zero
    return int(x + F(1, 2)) if x >= 0 else -int(-x + F(1, 2))
N = lambda t: "#%s#" % t
root = {"functionName": "(root)", "url": "", "scriptId": "0", "lineNumber": -1, "columnNumber": -1}
def cf(n): return {"functionName": n, "url": "a.js", "scriptId": "1", "lineNumber": 0, "columnNumber": 0}
cases = {"half": ["0", "1.0002", "2.0003", "3000", "0.0004", "0.0001", "0.0005", "0.00000000000000000025",
                  "0.49999999999999999975e-3"],
         # a sum on a half ns that whole deltas take across 0: -1001.5 ns
         # (-1002, carry +0.5), then 2002 ns more, 1000.5 (1001: it was
         # 1000 and 10001000, the carry looked at only after a delta with a
         # fraction).  (The other way, -0.5 carried and a sum taken below
         # 0, is a sample before the one before it, which the importer
         # puts at that one's time, as DevTools does.)
         "cross": ["-1.0015", "2.002", "10000", "0.0004", "3"],
         # a text whose double is below it (1.0025 us is 1002.4999999999999
         # ns as a double): 1002.5 ns, 1003, in a trace's chunks too (their
         # numbers were copied as "%.17g" of the double, 1.0024999999999999)
         "text": ["0", "1.0025", "10000"]}
for name, deltas in cases.items():
    samples = [2 + i % 2 for i in range(len(deltas))]
    nodes = [{"id": 1, "callFrame": root, "children": [2, 3]}, {"id": 2, "callFrame": cf("f")},
             {"id": 3, "callFrame": cf("g")}]
    open("%s/%s.cpuprofile" % (d, name), "w").write(doc({"nodes": nodes, "startTime": 100, "endTime": 10000,
        "samples": samples, "timeDeltas": [N(x) for x in deltas]}))
    ev = [{"ph": "P", "name": "Profile", "pid": 1, "tid": 1, "ts": 100, "id": "0x1", "args": {"data": {"startTime": 100}}}]
    half = len(deltas) // 2
    for k, part in enumerate((slice(0, half), slice(half, None))):
        cp = {"samples": samples[part]}
        if k == 0:
            cp["nodes"] = [{"id": 1, "callFrame": root}, {"id": 2, "parent": 1, "callFrame": cf("f")},
                           {"id": 3, "parent": 1, "callFrame": cf("g")}]
        ev.append({"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 1, "ts": 101 + k, "id": "0x1",
                   "args": {"data": {"cpuProfile": cp, "timeDeltas": [N(x) for x in deltas[part]]}}})
    open("%s/%s.json" % (d, name), "w").write(doc({"traceEvents": ev}))
    t, want = F(0), []
    for x in deltas:
        t += F(x) * 1000
        want.append(ns(t))
    open("%s/%s.want" % (d, name), "w").write("".join("%d\n" % w for w in want))
# an X event's end, ts + dur, is one time rounded so (1000.0002 + 2000.0003
# us: 3000.5 ns, 3001; it was the two rounded and added, 3000), beside a
# long event of another thread (the trace's extent: every stretch kept)
X = lambda n, tid, t, du: {"ph": "X", "name": n, "pid": 1, "tid": tid, "ts": N(t), "dur": N(du)}
xs = [("a", 1, "1000.0002", "2000.0003"), ("b", 1, "5000.0005", "1.0000")]
ev = [X(*e) for e in xs] + [X("z", 2, "0", "10000000")]
open(d + "/half-x.json", "w").write(doc({"traceEvents": ev}))
with open(d + "/half-x.want", "w") as o:
    for n, _, t, du in xs:
        o.write("%s %d\n" % (n, ns((F(t) + F(du)) * 1000) - ns(F(t) * 1000)))
    o.write("z 10000000000\n")
PY
"$PCOL" fold "$tmp/half-x.json" >"$tmp/fold" 2>"$tmp/err" || fail "fold half-x.json: $(head -3 "$tmp/err")"
[ -s "$tmp/err" ] && fail "fold half-x.json: a warning: $(head -3 "$tmp/err")"
cmp -s "$tmp/fold" "$tmp/half-x.want" || fail "fold half-x.json: $(tr '\n' ' ' <"$tmp/fold"), want $(tr '\n' ' ' <"$tmp/half-x.want")"
for f in half.cpuprofile half.json cross.cpuprofile cross.json text.cpuprofile text.json; do
  "$PCOL" cat "$tmp/$f" --table samples --format csv >"$tmp/cat" 2>"$tmp/err" || fail "cat $f: $(head -3 "$tmp/err")"
  python3 - "$tmp/cat" "$tmp/${f%.*}.want" "$f" <<'PY' || fail "$f: the samples' times are not the deltas' sums rounded half away from zero"
import csv, sys
got = [int(r["time_ns"]) for r in csv.DictReader(open(sys.argv[1]))]
want = [int(x) for x in open(sys.argv[2]).read().split()]
if got != want:
    print("%s: times %s, want %s" % (sys.argv[3], got, want), file=sys.stderr)
    sys.exit(1)
PY
done

echo "t_v8_fractions: ok"
