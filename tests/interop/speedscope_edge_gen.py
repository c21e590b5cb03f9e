#!/usr/bin/env python3
"""speedscope_edge_gen.py — edge-case inputs (fixed seed) of the formats
speedscope and pcol both import, for tests/interop/t_import_judged.sh, which
judges pcol's reading of each by speedscope's own importer.

  speedscope_edge_gen.py DIR

Writes into DIR:
- frac.cpuprofile: a V8 profile whose timeDeltas, startTime and endTime have
  fractions of a microsecond (negative deltas among them), as speedscope and
  DevTools read them (doubles): each function's time, and the profile's
  length (endTime - startTime), to the ns;
- frac-trace.json: a Chrome trace of two profiles (Profile and ProfileChunk
  events) with fractional startTime and timeDeltas, each profile alone in
  frac-trace-a.json and frac-trace-b.json (speedscope pairs chunks with
  profiles by id);
- frac-events.json: duration events (B/E and X, nested, several pids and
  tids, thread_name and process_name metadata, unmatched E events, frames
  open at the end) at ts and dur with three decimals, as Perfetto's JSON
  export writes them;
- edge.folded: collapsed stacks that speedscope and pcol read alike (blank
  lines, names with spaces and tabs, counts with leading zeros, empty frames
  from ';;', a leading ';', a trailing blank, CR LF);
- edge.speedscope.json: speedscope's own format, several profiles (sampled
  with weights, evented), units, frames shared and named alike; each
  profile alone in edge-K-UNIT.speedscope.json.
"""
import json, os, random, sys

r = random.Random(20261128)
out = sys.argv[1]


def w(name, obj):
    with open(os.path.join(out, name), "w") as f:
        json.dump(obj, f)


def frac(lo, hi):
    # a time in us with up to three decimals (DevTools and Perfetto write ns)
    return round(r.uniform(lo, hi), r.choice([1, 2, 3]))


def cf(fn, line, url="app.js"):
    return {"functionName": fn, "url": url, "scriptId": 1, "lineNumber": line, "columnNumber": 0}


ROOT = {"functionName": "(root)", "url": "", "scriptId": 0, "lineNumber": -1, "columnNumber": -1}


def v8_nodes(names):
    # (root) > main > names[0..] nested two deep, a few leaves
    nodes = [{"id": 1, "callFrame": ROOT}, {"id": 2, "parent": 1, "callFrame": cf("main", 1)}]
    for i, n in enumerate(names):
        nodes.append({"id": 3 + i, "parent": 2 if i % 3 == 0 else 3 + i - 1, "callFrame": cf(n, 10 * (i + 1))})
    return nodes


def v8_run(nodes, k):
    ids = [n["id"] for n in nodes[1:]]
    samples, deltas = [], []
    for _ in range(k):
        n = r.choice(ids)
        for j in range(r.randint(1, 3)):
            samples.append(n)
            # fractions of a us; now and then a negative one inside a run
            deltas.append(-frac(0, 30) if j and r.random() < 0.2 else frac(0, 1200))
    deltas[0] = frac(0, 2)
    return samples, deltas


# ------------------------------------------------------------ V8
nodes = v8_nodes(["alpha", "beta", "gamma", "delta"])
samples, deltas = v8_run(nodes, 60)
start = 1000000 + frac(0, 1)
w("frac.cpuprofile", {"nodes": nodes, "startTime": start, "endTime": round(start + sum(deltas) + 0.75, 3),
                      "samples": samples, "timeDeltas": deltas})

# ------------------------------------------------------------ Chrome trace (profiles)
ev = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}},
      {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "DedicatedWorker thread"}}]
one = {}
for pid, tid, pfid, t0 in ((1, 1, "0x1", 5000000.25), (1, 2, "0x2", 5000123.125)):
    nodes = v8_nodes(["p%s_%s" % (pfid[-1], n) for n in ("load", "run", "draw")])
    s, d = v8_run(nodes, 40)
    mine = [{"ph": "P", "name": "Profile", "id": pfid, "pid": pid, "tid": tid, "ts": t0,
             "args": {"data": {"startTime": t0}}}]
    half = len(s) // 2  # two chunks, the nodes in the first
    for k, (a, b) in enumerate(((0, half), (half, len(s)))):
        data = {"cpuProfile": {"samples": s[a:b]}, "timeDeltas": d[a:b]}
        if not k:
            data["cpuProfile"]["nodes"] = nodes
        mine.append({"ph": "P", "name": "ProfileChunk", "id": pfid, "pid": pid, "tid": tid + 10,
                     "ts": t0 + 1 + k, "args": {"data": data}})
    ev += mine
    one[pfid] = mine
for e in ev:  # (speedscope tells a trace by its first event's pid, tid, ph and cat)
    e["cat"] = "disabled-by-default-v8.cpu_profiler"
w("frac-trace.json", {"traceEvents": ev})
for pfid, name in (("0x1", "a"), ("0x2", "b")):
    w("frac-trace-%s.json" % name, {"traceEvents": ev[:2] + one[pfid]})

# ------------------------------------------------------------ Chrome trace (duration events)
ev = [{"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "Browser"}},
      {"ph": "M", "name": "thread_name", "pid": 7, "tid": 70, "args": {"name": "CrBrowserMain"}},
      {"ph": "M", "name": "thread_name", "pid": 8, "tid": 80, "args": {"name": "Compositor"}}]
names = ["task", "parse", "layout", "paint", "gc"]


def tree(pid, tid, t0, t1, depth):
    t = t0
    while t < t1 and depth < 4:
        d = frac(0, (t1 - t0) / 2)
        if t + d > t1:
            break
        nm = r.choice(names)
        if r.random() < 0.5:
            ev.append({"ph": "X", "name": nm, "pid": pid, "tid": tid, "ts": t, "dur": d})
        else:
            ev.append({"ph": "B", "name": nm, "pid": pid, "tid": tid, "ts": t})
            ev.append({"ph": "E", "name": nm, "pid": pid, "tid": tid, "ts": round(t + d, 3)})
        if d > 5:
            tree(pid, tid, round(t + frac(0, 1), 3), round(t + d - frac(0, 1), 3), depth + 1)
        t = round(t + d + frac(0, 3), 3)


for pid, tid in ((7, 70), (7, 71), (8, 80)):
    tree(pid, tid, 1000.125, 1400.5, 0)
ev.append({"ph": "E", "name": "stray", "pid": 7, "tid": 71, "ts": 1500.001})  # nothing open
ev.append({"ph": "B", "name": "open", "pid": 8, "tid": 80, "ts": 1500.25})  # open at the end
ev.append({"ph": "X", "name": "late", "pid": 8, "tid": 80, "ts": 1600.333, "dur": 2.667})
r.shuffle(ev)  # (each thread's queues are sorted by ts)
for e in ev:
    e["cat"] = "toplevel"
w("frac-events.json", {"traceEvents": ev})

# ------------------------------------------------------------ collapsed stacks
lines = []
frames = ["main", "my func", "a b c", "leaf", "x\ty", "ünï", "(anon)", "[k]"]
for _ in range(40):
    st = [r.choice(frames) for _ in range(r.randint(1, 4))]
    if r.random() < 0.15:
        st.insert(r.randint(1, len(st)), "")  # ';;': an empty frame
    n = r.randint(0, 500)
    lines.append(";".join(st) + " " + ("%0*d" % (r.randint(1, 6), n)))
lines += ["", "   ", ";lead 3", "main;work  4", "main;trail 5 ", "main;crlf 6\r", "7"]
r.shuffle(lines)
with open(os.path.join(out, "edge.folded"), "w", newline="") as f:
    f.write("main;first 1\n" + "\n".join(lines) + "\n")

# ------------------------------------------------------------ speedscope JSON
fr = [{"name": n} for n in ("main", "parse", "eval", "gc", "io")] + [{"name": "eval", "file": "b.js", "line": 3}]
profs = []
for k, unit in enumerate(("milliseconds", "bytes", "none")):
    smp = [[0] + r.sample(range(1, len(fr)), r.randint(0, 3)) for _ in range(30)]
    wts = [r.choice([0, 1, 2.5, 10, 0.125]) for _ in smp]
    profs.append({"type": "sampled", "name": "s%d" % k, "unit": unit, "startValue": 0,
                  "endValue": sum(wts), "samples": smp, "weights": wts})


def events(rng, n, steps, t):
    # n random opens and closes of frames of fr from t (steps apart), then
    # the frames left open closed: (the events, the end)
    evs, open_ = [], []
    for _ in range(n):
        if open_ and (rng.random() < 0.45 or len(open_) > 4):
            evs.append({"type": "C", "frame": open_.pop(), "at": t})
        else:
            f = rng.randrange(len(fr))
            if f in open_:
                continue
            open_.append(f)
            evs.append({"type": "O", "frame": f, "at": t})
        t = round(t + rng.choice(steps), 3)
    while open_:
        evs.append({"type": "C", "frame": open_.pop(), "at": t})
    return evs, t


evs, t = events(r, 120, [0, 0.25, 1, 3.5], 0.5)
profs.append({"type": "evented", "name": "ev", "unit": "microseconds", "startValue": 0.5, "endValue": t,
              "events": evs})
doc = {"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": fr},
       "profiles": profs, "activeProfileIndex": 0}
w("edge.speedscope.json", doc)
for k, p in enumerate(profs):  # each alone (speedscope adds up all profiles of a file)
    w("edge-%d-%s.speedscope.json" % (k, p["unit"]), dict(doc, profiles=[p]))

# ------------------------------------------------------------ speedscope JSON: values pcol's units cannot hold
# An evented profile of unit none or bytes whose times have fractions
# (startValue too), and milliseconds past 2^63 ns (1.2e13 ms and more,
# evented and sampled, with fractions of a ms): speedscope keeps the doubles,
# pcol a decimal unit (doc/mappings.md §11).  Quarters of a ms are exact in
# doubles at that size, so speedscope's sums are exact too.
q = random.Random(20261129)
for unit, steps, t0, start in (("none", [0, 0.125, 0.3, 2.5, 1], 0.5, 0.3),
                               ("bytes", [0, 0.5, 0.001, 12.25, 4096], 1.75, 1.75),
                               ("milliseconds", [0, 0.25, 1e12, 3.5e12], 1.2e13 + 0.75, 0)):
    evs, t = events(q, 150, steps, t0)
    p = {"type": "evented", "name": "ev-" + unit, "unit": unit, "startValue": start, "endValue": t, "events": evs}
    w("edge-ev-%s.speedscope.json" % unit, dict(doc, profiles=[p]))
smp = [[0] + q.sample(range(1, len(fr)), q.randint(0, 3)) for _ in range(30)]
wts = [q.choice([0, 0.25, 1.5e13, 2.25e13, 9.3e12 + 0.75, 4]) for _ in smp]
w("edge-big-milliseconds.speedscope.json",
  dict(doc, profiles=[{"type": "sampled", "name": "big", "unit": "milliseconds", "startValue": 0,
                       "endValue": sum(wts), "samples": smp, "weights": wts}]))
