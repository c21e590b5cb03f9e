#!/usr/bin/env bash
# V8 .cpuprofile, perf script, collapsed and speedscope inputs judged by speedscope's
# own importer (npm speedscope, run in node by speedscope_any_judge.cjs): per
# function, the self and total weights `pcol fold` gives equal speedscope's
# (judge_compare.py).
#
# - V8: .cpuprofile files made here by `node --cpu-prof` (CPU-bound
#   recursion, async code with awaits and immediates, allocation-heavy code
#   that makes the garbage collector run, and a long idle stretch), weighed
#   by pcol's "wall" value (the time to the next sample, speedscope's
#   weights, in us).  speedscope hides (idle) and moves (garbage collector)
#   and (program) on top of the previous sample's stack: self weights are
#   compared on the file as node wrote it, and total weights on a copy where
#   those two are renamed (so both tools keep them where V8 put them).
# - speedscope JSON: pcol's own exports of several inputs (sampled
#   profiles) and a generated evented profile.
# - Chrome trace events: a trace Chromium records here (below); traces of
#   duration events only (B/E, X), made here and speedscope's fixtures.
# - collapsed stacks: the shared test data's (ext/collapsed: flamegraph's,
#   async-profiler's, speedscope's own fixtures), counts as the weights.
# - pprof: the shared test data's, each function's weight by `pcol fold
#   --no-inlines` (speedscope drops inlined functions, doc/mappings.md §2).
# - edge cases of each (speedscope_edge_gen.py, a fixed seed).
# - Perun: the speedscope export of each file of the shared test data, each
#   profile as speedscope reads it against `pcol fold` of the file and of
#   the export as pcol reads it back, and its unit a time for a time.
# - perf script: speedscope weighs a perf sample by the time to the
#   midpoints of its neighbours, not by count or period, so its numbers are
#   not comparable; perf is judged by inferno: if $PCOL_INFERNO_DIR holds a
#   checkout of github.com/jonhoo/inferno, `pcol fold` of each
#   tests/data/collapse-perf input equals inferno's expected result
#   (inferno_compare.py), else that part is skipped (no network in CI).
#
# Env: PCOL, BUILD, PCOL_NPM_DIR, PCOL_INFERNO_DIR, PCOL_SPEEDSCOPE_SRC, FIREFOX_PROFILER_SRC.  Exit 0 pass, 1 fail,
# 77 skip (no node/npm).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/speedscope_env.sh"
fail=0 n=0
TD=${PCOL_TESTDATA:-../shared/testdata}
judge() { # file -> $tmp/rec (one JSON line)
  echo "$1" > "$tmp/list"
  speedscope_import "$tmp/list" "$tmp/rec" >/dev/null || return 1
}
compare() { # name input scale fold-args... (then -- compare-args)
  local name=$1 in=$2 scale=$3; shift 3
  local fa=() ca=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do fa+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  ca=("$@")
  if ! judge "$in"; then echo "FAIL $name: speedscope judge did not run"; fail=1; return; fi
  if ! $PCOL fold "$in" "${fa[@]}" > "$tmp/fold" 2>"$tmp/err"; then echo "FAIL $name: $(cat "$tmp/err")"; fail=1; return; fi
  if ! python3 "$HERE/judge_compare.py" "$tmp/fold" "$tmp/rec" "$scale" "${ca[@]}" > "$tmp/out"; then
    echo "FAIL $name: $(head -c 1500 "$tmp/out")"; fail=1; return
  fi
  n=$((n + 1))
}

# ---------------------------------------------------------------- V8
mkdir -p "$tmp/v8"
cat > "$tmp/v8/cpu.js" <<'JS'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const sorted = (k) => Array.from({ length: k }, (_, i) => (i * 7919) % k).sort((a, b) => a - b);
for (let i = 0; i < 4; i++) { fib(24); sorted(50000); }
JS
cat > "$tmp/v8/async.js" <<'JS'
async function step(i) { await new Promise((r) => setImmediate(r)); let s = 0; for (let k = 0; k < 3e4; k++) s += Math.sqrt(k * i); return s; }
async function main() { let t = 0; for (let i = 0; i < 60; i++) t += await step(i); await Promise.all([1, 2, 3].map(step)); return t; }
main();
JS
cat > "$tmp/v8/gc_idle.js" <<'JS'
function churn() { const a = []; for (let i = 0; i < 2e5; i++) a.push({ i, s: String(i) }); return a.length; }
churn();
setTimeout(() => { churn(); setTimeout(churn, 50); }, 400); // a long idle stretch
JS
for w in cpu async gc_idle; do
  (cd "$tmp/v8" && timeout 60 node --cpu-prof --cpu-prof-name=$w.cpuprofile $w.js) ||
    { echo "FAIL node --cpu-prof $w.js"; fail=1; continue; }
  f=$tmp/v8/$w.cpuprofile
  compare "$w.cpuprofile (self)" "$f" 1000 --value wall -- --skip '(idle)' --self-only '(garbage collector)'
  sed 's/"(garbage collector)"/"garbage collector"/g; s/"(program)"/"program"/g' "$f" > "$tmp/v8/$w-r.cpuprofile"
  compare "$w.cpuprofile (total)" "$tmp/v8/$w-r.cpuprofile" 1000 --value wall -- --skip '(idle)'
done
grep -q '"(idle)"' "$tmp/v8/gc_idle.cpuprofile" && grep -q '"(garbage collector)"' "$tmp/v8/gc_idle.cpuprofile" ||
  { echo "FAIL gc_idle.cpuprofile has no (idle) or (garbage collector) node"; fail=1; }

# ---------------------------------------------------------------- speedscope
for f in tests/fixtures/collapsed/annotated.folded tests/fixtures/perun/kperf.perf "$tmp/v8/cpu.cpuprofile"; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  $PCOL pack "$f" -o "$tmp/s.pcol" && $PCOL unpack "$tmp/s.pcol" --to speedscope -o "$tmp/$b.speedscope.json" ||
    { echo "FAIL export $b"; fail=1; continue; }
  # speedscope adds up every profile of the file: compare its first (the
  # samples profile) with pcol's samples
  python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['profiles'] = d['profiles'][:1]; d['activeProfileIndex'] = 0
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/$b.speedscope.json" "$tmp/$b.one.speedscope.json"
  compare "$b.speedscope.json" "$tmp/$b.one.speedscope.json" 1
done
python3 - "$tmp/ev.speedscope.json" <<'PY'
import json, random, sys
r = random.Random(5)
frames = [{"name": n} for n in ("main", "parse", "eval", "gc", "io")]
ev, t, open_ = [], 0, []
for _ in range(400):
    if open_ and (r.random() < 0.45 or len(open_) > 5):
        ev.append({"type": "C", "frame": open_.pop(), "at": t})
    else:
        f = r.randrange(len(frames)); open_.append(f); ev.append({"type": "O", "frame": f, "at": t})
    t += r.randint(0, 9)
while open_:
    ev.append({"type": "C", "frame": open_.pop(), "at": t}); t += 1
json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": frames},
           "profiles": [{"type": "evented", "name": "ev", "unit": "microseconds", "startValue": 0,
                         "endValue": t, "events": ev}]}, open(sys.argv[1], "w"))
PY
compare "evented speedscope" "$tmp/ev.speedscope.json" 1000

# ---------------------------------------------------------------- Chrome traces
# judge_trace NAME TRACE MIN: pcol's samples equal the chunks' samples of
# every profile, and per function its wall self and total equal
# speedscope's on a copy holding the profile with the most samples (at
# least MIN) alone (chrome_one.py: speedscope pairs chunks with a Profile
# event by id only, and trace ids repeat across processes).
judge_trace() {
  local name=$1 trace=$2 min=$3 one all got
  local d=$tmp/ct-$n; mkdir -p "$d"
  read -r one all < <(python3 "$HERE/chrome_one.py" "$trace" "$d/one.json") ||
    { echo "FAIL $name: chrome_one.py could not read it"; fail=1; return; }
  $PCOL info "$trace" 2>/dev/null | grep -q 'input_format: *chrome' || { echo "FAIL $name: not detected as chrome"; fail=1; return; }
  got=$($PCOL top "$trace" --value samples --format json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
  [ "$got" = "$all" ] || { echo "FAIL $name: $got samples, its chunks hold $all"; fail=1; }
  [ "${one:-0}" -ge "$min" ] || { echo "FAIL $name: its largest profile has ${one:-0} samples"; fail=1; }
  # (speedscope drops V8's "native dummy.js" frames; pcol keeps them)
  local dummy='(anonymous native dummy.js:1)'
  compare "$name (self)" "$d/one.json" 1000 --value wall -- --skip '(idle)' --skip "$dummy" \
    --self-only '(garbage collector)' --self-only '(program)'
  sed 's/"(garbage collector)"/"garbage collector"/g; s/"(program)"/"program"/g' "$d/one.json" > "$d/one-r.json"
  compare "$name (total)" "$d/one-r.json" 1000 --value wall -- --skip '(idle)' --skip "$dummy"
}

# ---------------------------------------------------------------- Chrome trace (made here)
# What real DevTools traces hold and the fixtures of speedscope showed
# (below): uint64 counters past int64 in other events' args, negative time
# deltas inside runs of one node, chunks written out of ts order, a chunk
# lost (nodes whose parent is in no chunk, samples of a node in no chunk), a
# child id of no node, a chunk holding its deltas twice.
python3 - "$tmp/made-trace.json" <<'PY'
import json, random, sys
r = random.Random(11)
def node(i, parent, fn, line):
    return {"id": i, "parent": parent, "callFrame": {"functionName": fn, "url": "app.js", "scriptId": 1,
                                                     "lineNumber": line, "columnNumber": 0}}
nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "url": "", "scriptId": 0, "lineNumber": -1, "columnNumber": -1}},
         {"id": 2, "parent": 1, "callFrame": {"functionName": "(program)", "url": "", "scriptId": 0, "lineNumber": -1, "columnNumber": -1}},
         node(3, 1, "main", 1), node(4, 3, "work", 10), node(5, 4, "leaf", 20), node(6, 3, "other", 30)]
lost = [node(7, 3, "lostParent", 40)]           # in the lost chunk
orphans = [node(8, 7, "orphan", 50), node(9, 8, "orphanLeaf", 60)]  # parent 7: in no chunk
ids = [2, 3, 4, 5, 6]
ev = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "CrRendererMain"}},
      {"ph": "X", "name": "Counters", "pid": 1, "tid": 2, "ts": 5, "dur": 1,
       "args": {"data": {"begin_main_sent_to_started_us": 18446744064077150000}}},
      {"ph": "P", "name": "Profile", "id": "0x1", "pid": 1, "tid": 2, "ts": 10, "args": {"data": {"startTime": 10}}}]
def chunk(ns, samples, deltas, ts):
    return {"ph": "P", "name": "ProfileChunk", "id": "0x1", "pid": 1, "tid": 3, "ts": ts,
            "args": {"data": {"cpuProfile": {"nodes": ns, "samples": samples}, "timeDeltas": deltas}}}
def run(k, pool):
    s, d = [], []
    for _ in range(k):
        n = r.choice(pool); rep = r.randint(1, 4)
        for j in range(rep):
            s.append(n); d.append(r.randint(50, 150) if j == 0 or r.random() < 0.7 else -r.randint(1, 40))
    return s, d
nodes[5]["children"] = [99]  # a child id of no node
s, d = run(40, ids); ev.append(chunk(nodes, s, d, 20))
# (the lost chunk: its node 7 and samples never written; the last chunk
# written before the one it follows in time)
s, d = run(30, ids + [9]); ev.append(chunk([], s, d, 40))
s, d = run(30, ids + [8, 9]); s[3] = 7; ev.append(chunk(orphans, s, d, 30))
ev[-1]["args"]["data"]["cpuProfile"]["timeDeltas"] = d  # the deltas twice, as Node writes them
for e in ev:  # (speedscope tells a trace by its first event's pid, tid, ph and cat)
    e["cat"] = "disabled-by-default-v8.cpu_profiler" if e["name"].startswith("Profile") else "devtools.timeline"
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
judge_trace "made trace (lost chunk, negative deltas, uint64 args)" "$tmp/made-trace.json" 100
$PCOL top "$tmp/made-trace.json" 2>&1 >/dev/null | grep -q 'nodes lost from the trace: 1 profile node whose parent is in no chunk.*; 1 sample of a node in no chunk.*; 1 child id of no node' ||
  { echo "FAIL made trace: no warning of the lost chunk: $($PCOL top "$tmp/made-trace.json" 2>&1 >/dev/null)"; fail=1; }

# ---------------------------------------------------------------- Chrome trace: duration events
# A trace without a CPU profile is read from its duration events (B/E, X)
# as speedscope's trace-event importer reads it: per function, pcol's wall
# self and total equal speedscope's.  speedscope names a frame NAME {ARGS
# as JSON}, pcol NAME: speedscope's names are taken back to NAME, adding
# up (a name whose frames differ by args is compared by self weight only:
# speedscope's total of each counts a frame nested in another of the name).
judge_events() { # name trace [the file pcol reads: by default the trace] [E events it has more, left out]
  local name=$1 trace=$2 mine=${3:-$2} more=${4:-0}
  echo "$trace" > "$tmp/list"
  if ! speedscope_import "$tmp/list" "$tmp/rec" >/dev/null 2>"$tmp/warn"; then
    echo "FAIL $name: speedscope judge did not run"; fail=1; return
  fi
  # the E events speedscope leaves out and the frames it closes at the end
  # (its console warnings) are those pcol's warning counts
  local want got
  want="$(($(grep -c 'Doing nothing instead' "$tmp/warn") + more)) $(grep -c 'still open at end of profile' "$tmp/warn")"
  got=$($PCOL fold "$mine" 2>&1 >/dev/null | sed -n 's/.*duration events: \([0-9]*\) E events\{0,1\} matching no open B.*, \([0-9]*\) frames\{0,1\} still open.*/\1 \2/p')
  [ "${got:-0 0}" = "$want" ] || { echo "FAIL $name: pcol leaves out ${got:-0 0} (E events, open frames), speedscope $want"; fail=1; }
  local so
  so=$(python3 - "$tmp/rec" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
merged = set()
for p in r.get("profiles", []):
    for k in ("frames", "names"):
        d, seen = {}, {}
        for n, v in p[k].items():
            m = n.split(" {", 1)[0]
            seen.setdefault(m, set()).add(n)
            if k == "frames":
                e = d.setdefault(m, [0, 0]); e[0] += v[0]; e[1] += v[1]
            else:
                d[m] = d.get(m, 0) + v
        p[k] = d
        merged |= {m for m, ns in seen.items() if len(ns) > 1}
json.dump(r, open(sys.argv[1], "w"))
print(" ".join("--self-only " + m for m in sorted(merged)))
PY
) || { echo "FAIL $name: speedscope's record"; fail=1; return; }
  if ! $PCOL fold "$mine" --value wall > "$tmp/fold" 2>"$tmp/err"; then echo "FAIL $name: $(cat "$tmp/err")"; fail=1; return; fi
  # shellcheck disable=SC2086
  if ! python3 "$HERE/judge_compare.py" "$tmp/fold" "$tmp/rec" 1000 $so > "$tmp/out"; then
    echo "FAIL $name: $(head -c 1500 "$tmp/out")"; fail=1; return
  fi
  n=$((n + 1))
}
python3 - "$tmp/events.json" <<'PY'
import json, random, sys
r = random.Random(7)
ev = [{"ph": "M", "name": "process_name", "pid": 3, "tid": 0, "args": {"name": "Renderer"}},
      {"ph": "M", "name": "thread_name", "pid": 3, "tid": 5, "args": {"name": "CrRendererMain"}},
      {"ph": "M", "name": "thread_name", "pid": 3, "tid": 9, "args": {"name": "Compositor ✓"}},
      {"ph": "I", "name": "instant", "pid": 3, "tid": 5, "ts": 3, "s": "t"},
      {"ph": "C", "name": "counter", "pid": 3, "ts": 4, "args": {"n": 1}}]
names = ["parse", "layout", "paint", "script", "gc", "idle"]
def tree(pid, tid, t0, t1, depth):
    # children in [t0, t1): B/E pairs (B with args, E without, as Chrome
    # writes them), X events (the same ts as a sibling, zero durations)
    t = t0
    while t < t1 and depth < 5:
        d = r.choice([0, 0.5, 1, 2, 3, 5, 8])
        if t + d > t1:
            break
        nm = names[depth] if r.random() < 0.6 else r.choice(names)
        # (a zero duration as X: a B with args and an E without at one ts
        # are two events to speedscope, and it takes the E first)
        if r.random() < 0.5 or d == 0:
            ev.append({"ph": "X", "name": nm, "pid": pid, "tid": tid, "ts": t, "dur": d})
        else:
            ev.append({"ph": "B", "name": nm, "pid": pid, "tid": tid, "ts": t, "args": {"step": r.randint(0, 1)}})
            ev.append({"ph": "E", "name": nm, "pid": pid, "tid": tid, "ts": t + d})
        if d >= 2:
            tree(pid, tid, t + r.choice([0, 0.5]), t + d - r.choice([0, 0.5]), depth + 1)
        t += d + r.choice([0, 0, 0.5, 1])
for tid in (5, 9):
    tree(3, tid, 10, 400, 0)
ev.append({"ph": "X", "name": "task", "pid": 4, "tid": 4, "ts": 20, "tdur": 7})  # tdur when no dur
ev.append({"ph": "X", "name": "task", "pid": 4, "tid": 4, "ts": 30, "dur": 3, "tdur": 1})
ev.append({"ph": "E", "name": "stray", "pid": 4, "tid": 4, "ts": 31})           # an E with nothing open
ev.append({"ph": "B", "name": "unclosed", "pid": 4, "tid": 4, "ts": 40})
ev.append({"ph": "B", "name": "inner", "pid": 4, "tid": 4, "ts": 41})
ev.append({"ph": "E", "name": "other", "pid": 4, "tid": 4, "ts": 42})           # names no open frame
ev.append({"ph": "E", "name": "inner", "pid": 4, "tid": 4, "ts": 45})
r.shuffle(ev)  # (out of ts order: each queue is sorted, ties in file order)
for e in ev:
    e["cat"] = "devtools.timeline"
json.dump({"traceEvents": ev, "metadata": {"source": "test"}}, open(sys.argv[1], "w"))
PY
judge_events "trace of duration events (made here)" "$tmp/events.json"
# the array form cut after an event, with and without its comma (the
# Trace Event Format allows a trace without its closing ']'; speedscope's
# file reader closes it, and its importer is judged on the closed copy)
python3 - "$tmp/events.json" "$tmp/cut" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
k = len(ev) * 2 // 3
body = "[\n" + ",\n".join(json.dumps(e) for e in ev[:k])
open(sys.argv[2] + "-comma.json", "w").write(body + ",\n")
open(sys.argv[2] + "-bare.json", "w").write(body + "\n  ")
open(sys.argv[2] + "-closed.json", "w").write(body + "]")
PY
for c in comma bare; do
  judge_events "trace of duration events cut before ']' ($c)" "$tmp/cut-closed.json" "$tmp/cut-$c.json"
done
head -c -40 "$tmp/cut-bare.json" > "$tmp/cut-mid.json"  # inside an event: not JSON
$PCOL fold "$tmp/cut-mid.json" >/dev/null 2>"$tmp/err" && { echo "FAIL a trace cut inside an event was read"; fail=1; }
grep -q 'invalid JSON: premature end of input' "$tmp/err" || { echo "FAIL a trace cut inside an event: $(cat "$tmp/err")"; fail=1; }
# Many E events at one ts that match no open frame, taken while one is
# open: speedscope scans the events of that ts for a match at each (n^2:
# 400,000 took pcol 2 minutes when it scanned the same way).  Among them
# an E that closes the innermost frame by name (its args differ), B and X
# events of that ts, and another thread.  Judged directly at 3,000; at
# 300,000 pcol's weights equal speedscope's of the 3,000 and it leaves out
# 297,000 E events more: the events added are E events of a name no frame
# has, after the one that matches, so each is left out and nothing else
# changes (speedscope's merge takes them one by one, the stack as it was).
ties() { # out n
  python3 - "$1" "$2" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
ev = [{"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 0, "args": {"a": 1}},
      {"ph": "B", "name": "mid", "pid": 1, "tid": 1, "ts": 1, "args": {"m": 2}},
      {"ph": "X", "name": "tie", "pid": 1, "tid": 1, "ts": 5, "dur": 0},
      {"ph": "B", "name": "late", "pid": 1, "tid": 1, "ts": 5},
      {"ph": "E", "name": "late", "pid": 1, "tid": 1, "ts": 7},
      {"ph": "E", "name": "outer", "pid": 1, "tid": 1, "ts": 9},
      {"ph": "B", "name": "other", "pid": 1, "tid": 2, "ts": 5},
      {"ph": "E", "name": "other", "pid": 1, "tid": 2, "ts": 8}]
for i in range(n):
    e = {"ph": "E", "name": "stray", "pid": 1, "tid": 1, "ts": 5}
    if i % 3 == 0:
        e["args"] = {"s": i % 7}
    ev.append(e)
    if i == 1000:  # (matches the innermost frame by name: mid)
        ev.append({"ph": "E", "name": "mid", "pid": 1, "tid": 1, "ts": 5})
json.dump({"traceEvents": ev}, open(out, "w"), separators=(",", ":"))
PY
}
ties "$tmp/ties-3k.json" 3000 && ties "$tmp/ties-300k.json" 300000 || { echo "FAIL ties.py"; fail=1; }
judge_events "3,000 E events at one ts" "$tmp/ties-3k.json"
judge_events "300,000 E events at one ts (judged on 3,000)" "$tmp/ties-3k.json" "$tmp/ties-300k.json" 297000
# ... and E events at one ts mixed with E events that match open frames
# (by name and args, by name only), B and X events of that ts, judged
# directly
python3 - "$tmp/ties-mixed.json" <<'PY'
import json, random, sys
r = random.Random(11)
names = ["parse", "layout", "paint", "gc", "stray"]
ev = []
for i in range(400):  # open before the tie, most until after it
    e = {"ph": "B", "name": r.choice(names[:4]), "pid": 1, "tid": 1, "ts": i * 0.25}
    if r.random() < 0.5:
        e["args"] = {"k": r.randint(0, 1)}
    ev.append(e)
for i in range(3000):
    x = r.random()
    if x < 0.6:
        e = {"ph": "E", "name": "stray" if r.random() < 0.7 else r.choice(names[:4]), "ts": 100}
    elif x < 0.75:
        e = {"ph": "B", "name": r.choice(names), "ts": 100}
    elif x < 0.85:
        e = {"ph": "X", "name": r.choice(names), "ts": 100, "dur": 0}
    else:
        e = {"ph": "E", "name": r.choice(names[:4]), "ts": 100}
    if r.random() < 0.3:
        e["args"] = {"k": r.randint(0, 1)}
    e.update(pid=1, tid=1)
    ev.append(e)
for i in range(600):
    ev.append({"ph": "E", "name": r.choice(names[:4]), "pid": 1, "tid": 1, "ts": 101 + i})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
judge_events "3,000 events at one ts, mixed" "$tmp/ties-mixed.json"
# ... and 300 threads, each a random trace of few names and few ts (ties
# everywhere: an E matching the open frame by name and args, by name only,
# or not at all; B and X events at the E events' ts), names distinct per
# thread so that the sums per name are per thread
python3 - "$tmp/ties-threads.json" <<'PY'
import json, random, sys
r = random.Random(3)
ev = []
for tid in range(1, 301):
    names = ["t%d%s" % (tid, c) for c in "abcde"[: r.randint(1, 5)]]
    nts = r.randint(0, 3)
    for _ in range(r.randint(1, 150)):
        ph = r.choice("BBBEEEEX")
        e = {"ph": ph, "name": r.choice(names), "pid": 1, "tid": tid, "ts": r.randint(0, nts)}
        if r.random() < 0.5:
            e["args"] = {"k": r.randint(0, 1)}
        if ph == "X":
            e["dur"] = r.choice([0, 0, 1])
        ev.append(e)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
judge_events "300 threads of events at few ts" "$tmp/ties-threads.json"
# The samples/stackFrames form (Hermes, React Native's sampling profiler:
# {"traceEvents", "samples", "stackFrames"}): speedscope reads its samples
# (and not its duration events), per thread in file order, each weighed by
# the time to its thread's next sample.  Judged as above (per function
# self and total, its wall in us; and per frame: judge_frames.py, each
# source's functions, by system_name, equal to speedscope's frames of its
# profile, by key, in name, self and total), with as many sources as
# speedscope has profiles and a sample for each of the trace's; and what
# speedscope refuses (samples out of ts order in a thread, an sf of no
# frame, an empty traceEvents, a ts that is no number) pcol refuses too.
judge_samples() { # name trace speedscope's-record [--frames-only]
  local name=$1 trace=$2 rec=$3 want got
  if ! $PCOL fold "$trace" --value wall > "$tmp/fold" 2>"$tmp/err"; then echo "FAIL $name: $(cat "$tmp/err")"; fail=1; return; fi
  if ! python3 "$HERE/judge_frames.py" "$PCOL" "$trace" "$rec" 1000 > "$tmp/out" 2>&1; then
    echo "FAIL $name (frames): $(head -c 1500 "$tmp/out")"; fail=1; return
  fi
  # (--frames-only: names "" at a stack's root, which `pcol fold` writes as
  # it writes a sample of no stack: judged by the frames alone)
  if [ "${4:-}" != --frames-only ] && ! python3 "$HERE/judge_compare.py" "$tmp/fold" "$rec" 1000 > "$tmp/out"; then
    echo "FAIL $name: $(head -c 1500 "$tmp/out")"; fail=1; return
  fi
  want="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["profiles"]), len(json.load(open(sys.argv[2]))["samples"]))' "$rec" "$trace")"
  got="$($PCOL info "$trace" | sed -n 's/^sources: *//p') $($PCOL cat "$trace" --table samples | tail -n +2 | wc -l)"
  [ "$got" = "$want" ] || { echo "FAIL $name: pcol's sources and samples $got, speedscope's profiles and the samples $want"; fail=1; return; }
  n=$((n + 1))
}
mkdir -p "$tmp/sf"
python3 "$HERE/hermes_gen.py" "$tmp/sf" || { echo "FAIL hermes_gen.py"; fail=1; }
for f in hermes keys chains odd cpu-not-first cpu-first ooo nosf empty nots; do echo "$tmp/sf/$f.json"; done > "$tmp/list"
if ! speedscope_import "$tmp/list" "$tmp/sf/recs" >/dev/null 2>&1; then
  echo "FAIL the samples form: speedscope judge did not run"; fail=1
else
  k=1
  for f in hermes keys chains odd cpu-not-first; do
    sed -n ${k}p "$tmp/sf/recs" > "$tmp/sf/rec"
    judge_samples "samples/stackFrames trace $f.json (made here)" "$tmp/sf/$f.json" "$tmp/sf/rec" \
      $([ $f = keys ] && echo --frames-only)
    k=$((k + 1))
  done
  # cpu-first.json: speedscope reads its CPU profile (judged per name, as
  # the traces above), not its samples
  sed -n ${k}p "$tmp/sf/recs" > "$tmp/sf/rec"
  k=$((k + 1))
  $PCOL fold "$tmp/sf/cpu-first.json" --value wall > "$tmp/fold" 2>"$tmp/err" &&
    python3 "$HERE/judge_compare.py" "$tmp/fold" "$tmp/sf/rec" 1000 > "$tmp/out" && grep -q '^cpuf;cpug ' "$tmp/fold" &&
    n=$((n + 1)) || { echo "FAIL cpu-first.json: $(cat "$tmp/err" "$tmp/out" | head -c 1500)"; fail=1; }
  for f in ooo nosf empty nots; do
    sed -n ${k}p "$tmp/sf/recs" | grep -q '"error"' || { echo "FAIL speedscope read $f.json: $(sed -n ${k}p "$tmp/sf/recs" | head -c 300)"; fail=1; }
    k=$((k + 1))
    $PCOL fold "$tmp/sf/$f.json" >/dev/null 2>"$tmp/sf/$f.err" && { echo "FAIL pcol read $f.json"; fail=1; }
  done
  grep -q 'ooo.json: samples\[2\]: ts 9.000 is before the ts of samples\[0\]' "$tmp/sf/ooo.err" ||
    { echo "FAIL samples out of order: $(cat "$tmp/sf/ooo.err")"; fail=1; }
  grep -q 'nosf.json: samples\[1\]: sf 3 is no frame.s id' "$tmp/sf/nosf.err" ||
    { echo "FAIL an sf of no frame: $(cat "$tmp/sf/nosf.err")"; fail=1; }
  grep -q 'empty.json: a trace of "samples" and "stackFrames" whose traceEvents is empty' "$tmp/sf/empty.err" ||
    { echo "FAIL an empty traceEvents: $(cat "$tmp/sf/empty.err")"; fail=1; }
  grep -q 'nots.json: samples\[1\]: ts: Number() of it is NaN' "$tmp/sf/nots.err" ||
    { echo "FAIL a sample without ts: $(cat "$tmp/sf/nots.err")"; fail=1; }
  $PCOL info "$tmp/sf/hermes.json" | grep -q 'chrome .*hermes.json: mqt_js (pid 7, tid 9)' ||
    { echo "FAIL the samples form: no source named by its thread: $($PCOL info "$tmp/sf/hermes.json" | head)"; fail=1; }
fi
$PCOL info "$tmp/events.json" | grep -q 'chrome .*events.json: CrRendererMain (pid 3, tid 5)' ||
  { echo "FAIL trace of duration events: no source named by its thread: $($PCOL info "$tmp/events.json" | head -20)"; fail=1; }
$PCOL top "$tmp/events.json" 2>&1 >/dev/null | grep -q 'duration events: [0-9]* E events matching no open B' ||
  { echo "FAIL trace of duration events: no warning of the unmatched events: $($PCOL top "$tmp/events.json" 2>&1 >/dev/null)"; fail=1; }

# ---------------------------------------------------------------- speedscope's total (endValue)
# speedscope's total of a profile (Profile.getTotalWeight: its builder
# starts at endValue - startValue, then takes the larger of that and the
# weights' sum, or an evented profile's last time) is its flame chart's
# width, the part past the samples an idle gap.  In a unit of time pcol's
# duration (`pcol info`'s duration_ns) is that total where it is larger than
# the samples (before, endValue was not read: no duration, or the evented
# samples' extent), and states none of a sampled profile without a gap.
mkdir -p "$tmp/gap"
python3 - "$tmp/gap" <<'PY'
import json, sys
fr = [{"name": "main"}, {"name": "a"}, {"name": "b"}]
def doc(p): return {"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": fr}, "profiles": [p]}
def ev(t, f, at): return {"type": t, "frame": f, "at": at}
cases = {
    "s-gap": {"type": "sampled", "name": "p", "unit": "milliseconds", "startValue": 0, "endValue": 10,
              "samples": [[0, 1], [0, 2]], "weights": [3, 1]},
    "s-gap-us": {"type": "sampled", "name": "p", "unit": "microseconds", "startValue": 2.5, "endValue": 1000.25,
                 "samples": [[0, 1], [0, 2], [0, 1]], "weights": [300, 100.5, 0]},
    "s-nogap": {"type": "sampled", "name": "p", "unit": "milliseconds", "startValue": 0, "endValue": 2,
                "samples": [[0, 1], [0, 2]], "weights": [3, 1]},
    "e-gap": {"type": "evented", "name": "p", "unit": "milliseconds", "startValue": 5, "endValue": 25,
              "events": [ev("O", 0, 5), ev("O", 1, 6), ev("C", 1, 8), ev("C", 0, 9)]},
    "e-gap-s": {"type": "evented", "name": "p", "unit": "seconds", "startValue": -1, "endValue": 1.5,
                "events": [ev("O", 0, -1), ev("O", 2, 0), ev("C", 2, 0.25), ev("C", 0, 0.5)]},
}
for k, p in cases.items():
    json.dump(doc(p), open("%s/%s.json" % (sys.argv[1], k), "w"))
PY
for c in s-gap:1000000 s-gap-us:1000 s-nogap:1000000 e-gap:1000000 e-gap-s:1000000000; do
  f=${c%%:*} scale=${c#*:}
  if ! judge "$tmp/gap/$f.json"; then echo "FAIL $f: speedscope judge did not run"; fail=1; continue; fi
  $PCOL info "$tmp/gap/$f.json" --format json > "$tmp/gap/$f.info" 2>"$tmp/err" || { echo "FAIL $f: $(cat "$tmp/err")"; fail=1; continue; }
  if ! python3 - "$tmp/rec" "$tmp/gap/$f.info" "$scale" "$f" <<'PY'; then fail=1; continue; fi
import json, sys
r = json.loads(open(sys.argv[1]).read())
doc = json.loads(open(sys.argv[2]).read())
info = doc["rows"][0]
total = r["profiles"][0]["total"] * int(sys.argv[3])  # speedscope's, in ns
held = doc["total"] if sys.argv[4].startswith("s-") else info["end_ns"]  # pcol's samples: weights, or extent
dur = info["duration_ns"]
if total > held and (dur is None or abs(dur - total) > 0.5):
    sys.exit("FAIL %s: pcol's duration %s ns, speedscope's total %s ns (the samples %s)" % (sys.argv[4], dur, total, held))
if total <= held and sys.argv[4].startswith("s-") and dur is not None:
    sys.exit("FAIL %s: pcol states a duration %s ns, speedscope's total is the weights' %s ns" % (sys.argv[4], dur, total))
PY
  n=$((n + 1))
done

# ---------------------------------------------------------------- edge cases (generated)
# speedscope_edge_gen.py (a fixed seed) writes edge cases of the formats
# both read; per function, pcol's self and total equal speedscope's.
# Times in µs with fractions (a V8 profile's timeDeltas, startTime and
# endTime, a Chrome trace's profiles, duration events at ts and dur with
# three decimals as Perfetto writes them) are read to the ns, as speedscope
# and DevTools read the doubles (before, pcol cut timeDeltas to whole µs:
# alpha 14,447 us where speedscope has 14,447.241), and a .cpuprofile's
# length (endTime - startTime, speedscope's profile weight) is pcol's
# duration to the ns.
E=$tmp/edge; mkdir -p "$E"
if python3 "$HERE/speedscope_edge_gen.py" "$E"; then
  compare "frac.cpuprofile (edge)" "$E/frac.cpuprofile" 1000 --value wall
  for x in a b; do compare "frac-trace-$x.json (edge)" "$E/frac-trace-$x.json" 1000 --value wall; done
  judge_events "frac-events.json (edge)" "$E/frac-events.json"
  compare "edge.folded (edge)" "$E/edge.folded" 1
  compare "edge-0-milliseconds.speedscope.json (edge)" "$E/edge-0-milliseconds.speedscope.json" 1000000
  compare "edge-3-microseconds.speedscope.json (edge)" "$E/edge-3-microseconds.speedscope.json" 1000
  # fractional weights of a "none" or "bytes" profile (2.5, 0.125): speedscope
  # keeps them, and so does pcol (decimal units, doc/mappings.md §11)
  compare "edge-1-bytes.speedscope.json (edge)" "$E/edge-1-bytes.speedscope.json" 1
  compare "edge-2-none.speedscope.json (edge)" "$E/edge-2-none.speedscope.json" 1
  # an evented profile's fractional times (none, bytes), and milliseconds past
  # 2^63 ns (evented and sampled): pcol keeps them in a decimal unit, whose
  # values `pcol fold` prints as they are (before: rounded, or refused)
  for x in ev-none ev-bytes ev-milliseconds big-milliseconds; do
    compare "edge-$x.speedscope.json (edge)" "$E/edge-$x.speedscope.json" 1
  done
  echo "$E/frac.cpuprofile" > "$tmp/list"
  speedscope_import "$tmp/list" "$tmp/rec" >/dev/null &&
    python3 - "$tmp/rec" <($PCOL cat "$E/frac.cpuprofile" --table meta --format tsv) <<'PY' || fail=1
import json, sys
want = round(json.load(open(sys.argv[1]))["profiles"][0]["total"] * 1000)
got = [int(l.split("\t")[1]) for l in open(sys.argv[2]) if l.startswith("pprof.duration_nanos\t")]
if got != [want]:
    sys.exit("FAIL frac.cpuprofile: pcol's duration %s ns, speedscope's profile weight (endTime - startTime) %s ns" % (got, want))
PY
else
  echo "FAIL speedscope_edge_gen.py"; fail=1
fi

# times with a fraction of a ns (float noise: an `at` of 1.3333333333 ms,
# a weight of 1.0001 µs; review 10 F2): pcol keeps them in their decimal
# unit (1e-9 milliseconds), whose values `pcol fold` prints as speedscope
# sums them, here to the ps (fold's ms and µs x 10^6 and 10^3: ns, which
# judge_compare.py compares to a thousandth)
H='{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":['
printf '%s{"type":"evented","name":"p","unit":"milliseconds","startValue":0,"endValue":10.5,"events":[{"type":"O","frame":0,"at":0},{"type":"O","frame":1,"at":1.3333333333},{"type":"C","frame":1,"at":5},{"type":"C","frame":0,"at":10.5}]}]}' "$H" >"$E/subns-ev.json"
printf '%s{"type":"sampled","name":"p","unit":"microseconds","startValue":0,"endValue":10,"samples":[[0],[0,1]],"weights":[1.0001,3]}]}' "$H" >"$E/subns-us.json"
for x in ev:1000000 us:1000; do
  f=$E/subns-${x%%:*}.json sc=${x#*:}
  if judge "$f" && $PCOL fold "$f" | python3 -c 'import sys; from decimal import Decimal as D
for l in sys.stdin.read().splitlines():
    k, _, v = l.rpartition(" ")
    print(k, D(v) * D(sys.argv[1]))' "$sc" >"$tmp/fold" && python3 "$HERE/judge_compare.py" "$tmp/fold" "$tmp/rec" "$sc" >"$tmp/out"; then
    n=$((n + 1))
  else
    echo "FAIL ${f##*/} (a decimal unit of time): $(head -c 1500 "$tmp/out")"; fail=1
  fi
done

# numbers at the limits (tests/support/speedscope_limits.py, the table
# t_json_whole.sh reads without speedscope): each case pcol reads, per
# function as speedscope reads it (2^53 + 1 as 2^53, 9007199254740992.0 and
# 0.5, 1e3 and 2.5e-1, a startValue of 1e19 or -0.5; --terms 2: speedscope
# adds the doubles, 2^53 + 1 is 2^53 there); each it refuses, named so
# (h3: before, 1e-12 read as 0, a startValue of 1e19 taken as 0); 1e-7
# beside 1e15 and 1e-12 beside 1, rounded to 0 with a warning: the total to
# a millionth (h14; h3 refused them)
L=$tmp/limits; mkdir -p "$L"
if python3 "$HERE/../support/speedscope_limits.py" "$L" >"$L/cases.tsv"; then
  while IFS=$'\t' read -r name want sc how; do
    case $want:$how in
      "refused: "*) if $PCOL fold "$L/$name.json" >/dev/null 2>"$tmp/err" || ! grep -qF -- "${want#refused: }" "$tmp/err"; then
                      echo "FAIL limits $name: not refused as $want: $(cat "$tmp/err")"; fail=1
                    else n=$((n + 1)); fi ;;
      *:self) compare "limits $name" "$L/$name.json" "$sc" -- --terms 2 --self-only a --self-only b --self-only main ;;
      *:6) if judge "$L/$name.json" && $PCOL fold "$L/$name.json" | python3 -c '
import json, sys
rec = json.load(open(sys.argv[1]))["profiles"][0]["frames"]
got = {}
for l in sys.stdin.read().splitlines():
    k, _, v = l.rpartition(" ")
    got[k.split(";")[-1]] = got.get(k.split(";")[-1], 0) + float(v) / float(sys.argv[2])
bad = [(k, got.get(k, 0), s) for k, (s, _) in rec.items() if abs(got.get(k, 0) - s) > 1e-6 * abs(s)]
sys.exit("self weights not to six digits: %s" % bad if bad else 0)' "$tmp/rec" "$sc"; then n=$((n + 1))
           else echo "FAIL limits $name (six significant digits)"; fail=1; fi ;;
      *:total) # rounded to pcol's grid with one warning: the total to a millionth
           if judge "$L/$name.json" && $PCOL fold "$L/$name.json" 2>"$tmp/err" | python3 -c '
import json, sys
rec = json.load(open(sys.argv[1]))["profiles"][0]["frames"]
want = sum(s for s, _ in rec.values())
got = sum(float(l.rpartition(" ")[2]) for l in sys.stdin.read().splitlines()) / float(sys.argv[2])
sys.exit("total %r, speedscope %r" % (got, want) if abs(got - want) > 1e-6 * abs(want) else 0)' "$tmp/rec" "$sc" &&
              [ "$(grep -c . "$tmp/err")" = 1 ] && grep -q "not held to six significant digits" "$tmp/err"; then n=$((n + 1))
           else echo "FAIL limits $name (the total to a millionth, one warning): $(cat "$tmp/err")"; fail=1; fi ;;
      *) compare "limits $name" "$L/$name.json" "$sc" -- --terms 2 ;;
    esac
  done <"$L/cases.tsv"
else
  echo "FAIL speedscope_limits.py"; fail=1
fi

# ---------------------------------------------------------------- Perun exports (the shared test data)
# Each Perun file's speedscope export (pcol's own, doc/mappings.md §5): its
# values stay in the file's unit, named as speedscope names it ("ms" as
# milliseconds, a real amount in "1e-1 ms" as milliseconds with a decimal:
# before, unit "none"), so speedscope shows the times pcol shows.  Per
# profile of a value type (each alone: speedscope adds up a file's
# profiles; not the samples count), per function, speedscope's weights
# equal `pcol fold --value TYPE` of the Perun file, and of the export as
# pcol reads it back (a time in ns, or one past 2^63 ns in its decimal
# unit, "1e-1 milliseconds", which pcol refused before), within the
# rounding of speedscope's sums of doubles (judge_compare.py --terms).
PD=$tmp/perun; mkdir -p "$PD"; : > "$PD/exports"; : > "$PD/batch"
for f in "$TD"/ext/perun/*.perf; do
  [ -f "$f" ] || continue
  b=${f##*/}; b=${b%.perf}
  $PCOL pack "$f" -o "$PD/$b.pcol" >/dev/null 2>&1 || continue # (a file pcol refuses: t_perun's part)
  $PCOL unpack "$PD/$b.pcol" --to speedscope -o "$PD/$b.json" 2>"$tmp/err" ||
    { echo "FAIL ${f##*/}: speedscope export: $(cat "$tmp/err")"; fail=1; continue; }
  $PCOL cat "$PD/$b.pcol" --table value_types --format tsv > "$PD/$b.vt" || { echo "FAIL ${f##*/}: its value types"; fail=1; continue; }
  printf '%s\t%s\n' "$PD/$b.json" "$f" >> "$PD/exports"
done
python3 - "$PD/exports" > "$PD/cases" 2>"$PD/units" <<'PY' || { cat "$PD/units"; fail=1; }
import json, sys
# the units speedscope shows for the Perun header's unit of a type: a time
# as a time (pcol keeps ms and us amounts with fractions in ps and fs, which
# speedscope has not), bytes as bytes, else numbers
TIMES = ["nanoseconds", "microseconds", "milliseconds", "seconds"]
SPEEDSCOPE = {"ns": TIMES, "us": TIMES, "ms": TIMES, "s": TIMES, "B": ["bytes"]}
bad = 0
for line in open(sys.argv[1]):
    exp, orig = line.rstrip("\n").split("\t")
    d = json.load(open(exp))
    try:
        units = json.load(open(orig))["header"]["units"]
    except (ValueError, KeyError, TypeError):
        units = {}
    # pcol's own unit of each type: its values, as `pcol fold` prints them,
    # are those of the export x 1000 (ps, written as ns), x 10^6 (fs), else x 1
    stored = dict(l.rstrip("\n").split("\t")[1:3] for l in list(open(exp[:-5] + ".vt"))[1:])
    for k, p in enumerate(d["profiles"]):
        t = p["name"].rsplit(": ", 1)[-1]
        if p["type"] != "sampled" or t == "samples":
            continue
        scale = {"ps": "1000", "fs": "1000000"}.get(stored.get(t), "1")
        want = SPEEDSCOPE.get(units.get(t), ["none"]) if isinstance(units, dict) and t in units else [p["unit"]]
        if p["unit"] not in want:
            print("FAIL %s -> speedscope: %s (%s) written as unit %s, not %s" % (orig.split("/")[-1], t, units[t], p["unit"],
                  " or ".join(want)), file=sys.stderr)
            bad = 1
        one = "%s.%d.json" % (exp[:-5], k)
        json.dump(dict(d, profiles=[p], activeProfileIndex=0), open(one, "w"))
        print("\t".join((one, orig, exp, t, p["unit"], str(len(p["weights"])), scale)))
sys.exit(bad)
PY
cut -f1 "$PD/cases" > "$PD/list"
if [ -s "$PD/list" ] && speedscope_import "$PD/list" "$PD/rec.jsonl" >/dev/null &&
  python3 -c 'import json, sys
for l in open(sys.argv[1]):
    open(json.loads(l)["file"] + ".rec", "w").write(l)' "$PD/rec.jsonl"; then
  np=0
  while IFS=$'\t' read -r one orig exp type unit terms osc; do
    name="${orig##*/} -> speedscope: $type ($unit)"
    $PCOL fold "$orig" --value "$type" > "$one.fold" 2>"$tmp/err" || { echo "FAIL $name: $(cat "$tmp/err")"; fail=1; continue; }
    # pcol's reading of the export: a time in ns, else in the file's unit
    case $unit in nanoseconds) sc=1 ;; microseconds) sc=1000 ;; milliseconds) sc=1000000 ;; seconds) sc=1000000000 ;; *) sc= ;; esac
    if [ -n "$sc" ] && $PCOL fold "$exp" --value "$type/nanoseconds" > "$one.back" 2>/dev/null; then :
    elif $PCOL fold "$exp" --value "$type" > "$one.back" 2>"$tmp/err"; then sc=1
    else echo "FAIL $name: pcol reads its export: $(cat "$tmp/err")"; fail=1; continue
    fi
    printf '%s\t%s\t%s\t%s\t--terms\t%s\n' "$name (the Perun file)" "$one.fold" "$one.rec" "$osc" "$terms" >> "$PD/batch"
    printf '%s\t%s\t%s\t%s\t--terms\t%s\n' "$name (pcol reads the export)" "$one.back" "$one.rec" "$sc" "$terms" >> "$PD/batch"
    np=$((np + 1))
  done < "$PD/cases"
  if python3 "$HERE/judge_compare.py" --batch "$PD/batch"; then
    n=$((n + np))
    echo "t_import_judged: $np profiles of $(wc -l < "$PD/exports") Perun files' speedscope exports agree with speedscope"
  else
    fail=1
  fi
else
  echo "FAIL the Perun files' speedscope exports: speedscope judge did not run"; fail=1
fi

# ---------------------------------------------------------------- Chrome trace (Chromium)
# A trace Chromium records of a page running JS (--trace-startup with the V8
# CPU profiler's category, written as JSON): pcol's samples per profile equal
# the chunks' samples, and per function its wall self and total equal
# speedscope's on a copy holding that profile alone (speedscope pairs chunks
# with a Profile event by id only, and trace ids repeat across processes).
if command -v chromium >/dev/null 2>&1; then
  mkdir -p "$tmp/ct"
  cat > "$tmp/ct/page.html" <<'HTML'
<html><body><script>
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function busyLoop() { let s = 0; for (let i = 0; i < 3e6; i++) s += Math.sqrt(i); return s; }
function churn() { const a = []; for (let i = 0; i < 1e5; i++) a.push({ i, s: String(i) }); return a.length; }
const t0 = Date.now(); while (Date.now() - t0 < 1200) { fib(20); busyLoop(); churn(); }
</script></body></html>
HTML
  timeout 60 chromium --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/ct/ud" \
    --trace-startup=v8,disabled-by-default-v8.cpu_profiler --trace-startup-file="$tmp/ct/trace.json" \
    --trace-startup-format=json --trace-startup-duration=4 --timeout=5000 "file://$tmp/ct/page.html" \
    --dump-dom >/dev/null 2>&1
  if [ ! -s "$tmp/ct/trace.json" ]; then
    echo "FAIL chromium wrote no trace"; fail=1
  else
    judge_trace "trace.json" "$tmp/ct/trace.json" 100
    n=$((n + 1))
    # its profiles on one timeline (the Firefox Profiler's Chrome importer:
    # startTime + the running sum of timeDeltas, on the trace's clock): each
    # source's first sample is at its profile's startTime + first delta,
    # since the earliest profile's startTime; and each profile's duration
    # by DevTools' rule (its TimelineModel: a chunk's args.data.endTime,
    # else startTime + the sum of its timeDeltas, its last sample;
    # doc/mappings.md §14), pcol info's and top --source N's (before, a
    # trace without an endTime chunk, as Chromium's --trace-startup ones
    # are, gave its profiles none)
    "$PCOL" cat "$tmp/ct/trace.json" --table sources --format tsv >"$tmp/ct/src.tsv" &&
      "$PCOL" cat "$tmp/ct/trace.json" --table samples --format tsv >"$tmp/ct/smp.tsv" &&
      "$PCOL" cat "$tmp/ct/trace.json" --table meta --format tsv >"$tmp/ct/meta.tsv" &&
      python3 - "$tmp/ct/trace.json" "$tmp/ct/src.tsv" "$tmp/ct/smp.tsv" "$tmp/ct/meta.tsv" <<'PY' || { echo "FAIL trace.json: the profiles' first samples or durations are not where the trace puts them"; fail=1; }
import json, re, sys
ev = json.load(open(sys.argv[1]))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
start = {(e["pid"], e.get("id")): e["args"]["data"]["startTime"] for e in ev if e.get("name") == "Profile"}
tid = {(e["pid"], e.get("id")): e["tid"] for e in ev if e.get("name") == "Profile"}
first, end, dsum = {}, {}, {}
for e in sorted((e for e in ev if e.get("name") == "ProfileChunk"), key=lambda e: e["ts"]):
    k, data = (e["pid"], e.get("id")), e["args"]["data"]
    d = data.get("timeDeltas") or data.get("cpuProfile", {}).get("timeDeltas") or []
    if d and k not in first: first[k] = d[0]
    dsum[k] = dsum.get(k, 0) + sum(d)
    if data.get("endTime"): end[k] = data["endTime"]
origin = min(start[k] for k in first)
src = {}
for line in open(sys.argv[2]).read().splitlines()[1:]:
    sid, _, uri = line.split("\t")[:3]
    m = re.search(r"pid (\d+), tid (\d+)", uri)
    src[int(sid)] = (int(m.group(1)), int(m.group(2)))
got = {}
for line in open(sys.argv[3]).read().splitlines()[1:]:
    c = line.split("\t")
    got.setdefault(int(c[1]), int(c[2]))
mine = {sid: k for sid, pt in src.items() for k in first if (k[0], tid[k]) == pt}
want = {sid: (start[k] - origin + first[k]) * 1000 for sid, k in mine.items()}
assert got == want, "first samples: pcol %s, the trace %s" % (got, want)
print("ok   trace.json: %d profiles on one timeline, first samples at %s ns" % (len(want), sorted(want.values())))
want = {sid: round(((end[k] if k in end else start[k] + dsum[k]) - start[k]) * 1000) for sid, k in mine.items()}
got = {int(c[2]): int(c[1]) for c in (l.split("\t") for l in open(sys.argv[4]).read().splitlines()[1:])
       if c[0] == "pprof.duration_nanos"}
assert got == want and want, "durations: pcol %s, DevTools' rule %s" % (got, want)
print("ok   trace.json: each profile's duration is DevTools' (%s ns)" % sorted(want.values()))
PY
  fi
else
  echo "t_import_judged: chromium not installed: Chrome trace part skipped"
fi

# ---------------------------------------------------------------- Chrome traces (speedscope's test data)
# speedscope's own Chrome fixtures (sample/profiles/Chrome: DevTools
# recordings of Chrome 65 to 141, CpuProfile events and Profile chunks, one
# with chunks lost, one with uint64 counters past int64) when
# $PCOL_SPEEDSCOPE_SRC holds a checkout of github.com/jlfwong/speedscope
# (no network in CI).
if [ -n "${PCOL_SPEEDSCOPE_SRC:-}" ] && [ -d "$PCOL_SPEEDSCOPE_SRC/sample/profiles/Chrome" ]; then
  for f in "$PCOL_SPEEDSCOPE_SRC"/sample/profiles/Chrome/*/*.json; do
    judge_trace "speedscope's ${f#"$PCOL_SPEEDSCOPE_SRC"/sample/profiles/}" "$f" 1
  done
  # ... and its trace-event fixtures (duration events; the samples form,
  # *-with-samples.json), but the one pcol refuses: a trace whose only B
  # never closes for any time (an empty profile there)
  for f in "$PCOL_SPEEDSCOPE_SRC"/sample/profiles/trace-event/*.json; do
    case $(basename "$f") in mismatched-name.json) continue ;; esac
    case $(basename "$f") in
    *with-samples*)
      echo "$f" > "$tmp/list"
      if speedscope_import "$tmp/list" "$tmp/rec" >/dev/null 2>&1; then
        judge_samples "speedscope's ${f#"$PCOL_SPEEDSCOPE_SRC"/sample/profiles/}" "$f" "$tmp/rec"
      else echo "FAIL $f: speedscope judge did not run"; fail=1; fi ;;
    simple-partial*) # speedscope's reader closes the array: the judge gets it closed
      python3 -c 'import sys; t = open(sys.argv[1]).read().rstrip().rstrip(","); open(sys.argv[2], "w").write(t if t.endswith("]") else t + "]")' \
        "$f" "$tmp/closed.json"
      judge_events "speedscope's ${f#"$PCOL_SPEEDSCOPE_SRC"/sample/profiles/}" "$tmp/closed.json" "$f" ;;
    *) judge_events "speedscope's ${f#"$PCOL_SPEEDSCOPE_SRC"/sample/profiles/}" "$f" ;;
    esac
  done
else
  echo "t_import_judged: speedscope's Chrome fixtures not given (PCOL_SPEEDSCOPE_SRC): that part skipped"
fi
# ... and the Firefox Profiler's (src/test/fixtures/upgrades: a chunked
# trace, a CpuProfile event naming children the trace does not hold, a
# chunk holding its timeDeltas twice) when $FIREFOX_PROFILER_SRC holds a
# checkout of firefox-devtools/profiler (as for t_firefox.sh)
if [ -n "${FIREFOX_PROFILER_SRC:-}" ] && [ -d "$FIREFOX_PROFILER_SRC/src/test/fixtures/upgrades" ]; then
  for b in test.chrome.gz test.chrome-unchunked.json chrome-trace-issue-5429.json.gz; do
    f=$FIREFOX_PROFILER_SRC/src/test/fixtures/upgrades/$b
    [ -f "$f" ] || { echo "FAIL $f is missing"; fail=1; continue; }
    case $b in *.gz) gzip -dc "$f" > "$tmp/ffx-${b%.gz}"; f=$tmp/ffx-${b%.gz} ;; esac
    judge_trace "the Firefox Profiler's $b" "$f" 1
  done
else
  echo "t_import_judged: the Firefox Profiler's Chrome fixtures not given (FIREFOX_PROFILER_SRC): that part skipped"
fi

# ---------------------------------------------------------------- collapsed stacks (the shared test data)
# Brendan Gregg's folded stacks, which speedscope imports too: the shared
# test data's (flamegraph's, async-profiler's and speedscope's own fixtures:
# CRLF, invalid lines, recursion, UTF-16).  The judge gets text, so the
# UTF-16 file is given to it decoded (speedscope's app decodes it by its
# BOM) and to pcol as it is.
for f in "$TD"/ext/collapsed/*; do
  [ -f "$f" ] || continue
  case $f in
  *utf16*)
    python3 -c 'import sys; open(sys.argv[2], "w", encoding="utf-8").write(open(sys.argv[1], "rb").read().decode("utf-16"))' \
      "$f" "$tmp/utf8.txt" || { echo "FAIL decode $f"; fail=1; continue; }
    judge "$tmp/utf8.txt" || { echo "FAIL ${f##*/}: speedscope judge did not run"; fail=1; continue; }
    $PCOL fold "$f" > "$tmp/fold" 2>"$tmp/err" || { echo "FAIL ${f##*/}: $(cat "$tmp/err")"; fail=1; continue; }
    python3 "$HERE/judge_compare.py" "$tmp/fold" "$tmp/rec" 1 > "$tmp/out" ||
      { echo "FAIL ${f##*/}: $(head -c 1500 "$tmp/out")"; fail=1; continue; }
    n=$((n + 1)) ;;
  *) compare "${f##*/}" "$f" 1 ;;
  esac
done

# ---------------------------------------------------------------- pprof (the shared test data)
# speedscope reads a pprof profile's default sample type (else its last, as
# go tool pprof picks it) and makes a frame of each location's outermost
# function (its last line): inlined functions are dropped, their time goes
# to the function they were inlined into, which is what `pcol fold
# --no-inlines` (pprof -noinlines) gives.  speedscope's app gunzips a
# .pb.gz before its importer reads it: the judge gets it gunzipped.
for f in go-cpu-inline-small go-heap-allocs-inline nodejs-wall java-cpu-async-profiler; do
  [ -f "$TD/pprof/$f.pb.gz" ] || continue
  gzip -dc "$TD/pprof/$f.pb.gz" > "$tmp/$f.pb" || { echo "FAIL gunzip $f"; fail=1; continue; }
  compare "$f.pb (pprof, --no-inlines)" "$tmp/$f.pb" 1 --no-inlines
done

# ---------------------------------------------------------------- perf (inferno)
if [ -n "${PCOL_INFERNO_DIR:-}" ] && [ -d "$PCOL_INFERNO_DIR/tests/data/collapse-perf/results" ]; then
  D=$PCOL_INFERNO_DIR/tests/data/collapse-perf
  for r in "$D"/results/*-collapsed*.txt; do
    b=$(basename "$r"); stem=${b%%-collapsed*}
    [ -f "$D/$stem.txt" ] && [ -s "$D/$stem.txt" ] || continue
    $PCOL fold "$D/$stem.txt" > "$tmp/perf.fold" 2>"$tmp/err" || { echo "FAIL $stem: $(cat "$tmp/err")"; fail=1; continue; }
    python3 "$HERE/inferno_compare.py" "$tmp/perf.fold" "$r" > "$tmp/out" ||
      { echo "FAIL $stem vs inferno $b: $(head -c 1000 "$tmp/out")"; fail=1; continue; }
    n=$((n + 1))
  done
else
  echo "t_import_judged: inferno's collapse-perf data not given (PCOL_INFERNO_DIR): perf part skipped"
fi
echo "t_import_judged: $n comparisons with speedscope $SPEEDSCOPE_VERSION and inferno"
exit $fail
