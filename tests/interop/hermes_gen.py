#!/usr/bin/env python3
"""hermes_gen.py DIR — Chrome traces of the samples/stackFrames form
(Hermes, React Native's sampling profiler) for tests/interop/t_import_judged.sh:

  hermes.json  three threads (pids and tids as numbers and as strings),
               samples interleaved, ts as numbers and strings (.5 and .25
               fractions, ties), sf as numbers and strings, falsy sf (no
               stack), a thread of one sample, frames shared by threads,
               one name in several categories, ids that are no numbers,
               parents as numbers and strings, a chain 1,500 deep, and
               duration and metadata events (names of threads);
  ooo.json     a thread's sample before the one before it in the file;
  nosf.json    a sample of an sf no frame has;
  empty.json   traceEvents empty.
"""
import json, random, sys

d = sys.argv[1]
r = random.Random(17)
ev = [{"name": "process_name", "ph": "M", "cat": "__metadata", "pid": 7, "ts": "100", "tid": "-1", "args": {"name": "hermes"}},
      {"name": "thread_name", "ph": "M", "cat": "__metadata", "pid": 7, "ts": "100", "tid": "9", "args": {"name": "mqt_js"}},
      {"name": "thread_name", "ph": "M", "pid": 8, "tid": 2, "args": {"name": "worker \u2713"}},
      {"name": "x", "ph": "X", "pid": 7, "tid": 9, "ts": 100, "dur": 50},  # (not read in this form)
      {"name": "y", "ph": "B", "pid": 7, "tid": "9", "ts": "120"}]
names = ["main", "render", "layout", "fib", "gc", "[GC Young Gen]", "anon(http://x/a.js:1:2)"]
frames = {"1": {"name": "[root]", "category": "root"}}
ids = ["1"]
for i in range(2, 400):
    p = r.choice(ids)
    frames[str(i)] = {"name": r.choice(names), "category": r.choice(["JavaScript", "Native", "Metadata"]),
                      "parent": int(p) if p.isdigit() and r.random() < 0.7 else p, "line": "1", "column": "2"}
    ids.append(str(i))
for k in ("alpha", "beta"):
    frames[k] = {"name": "str_" + k, "category": "JavaScript", "parent": r.choice(ids)}
    ids.append(k)
prev = "399"
for i in range(1000, 2500):  # the deep chain
    frames[str(i)] = {"name": "deep%d" % (i % 5), "category": "JavaScript", "parent": prev}
    prev = str(i)
ids.append(prev)
samples = []
t = {(7, "9"): 1000, (7, "3"): 1000, (8, 2): 5000}
for _ in range(3000):
    th = r.choice(list(t))
    t[th] += r.choice([0, 0.5, 1, 10, 25, 100, 1000.25])
    sf = r.choice(ids + [0, ""]) if r.random() < 0.05 else r.choice(ids)
    if isinstance(sf, str) and sf.isdigit() and r.random() < 0.5:
        sf = int(sf)
    ts = t[th] if r.random() < 0.5 else str(t[th])
    samples.append({"cpu": "-1", "name": "", "ts": ts, "pid": th[0], "tid": th[1], "weight": "1", "sf": sf})
samples.append({"cpu": "-1", "name": "", "ts": "2000", "pid": 7, "tid": "4", "weight": "1", "sf": 5})  # one sample
json.dump({"traceEvents": ev, "samples": samples, "stackFrames": frames}, open(d + "/hermes.json", "w"))

base = {"traceEvents": ev, "stackFrames": {"1": {"name": "a"}, "2": {"name": "b", "parent": 1}}}
def bad(name, samples, **kw):
    json.dump(dict(base, samples=samples, **kw), open(d + "/" + name, "w"))
bad("ooo.json", [{"ts": 10, "pid": 1, "tid": 1, "sf": 2}, {"ts": 20, "pid": 1, "tid": 2, "sf": 1},
                 {"ts": 9, "pid": 1, "tid": 1, "sf": 2}])
bad("nosf.json", [{"ts": 10, "pid": 1, "tid": 1, "sf": 2}, {"ts": 20, "pid": 1, "tid": 1, "sf": 3}])
bad("empty.json", [{"ts": 10, "pid": 1, "tid": 1, "sf": 2}, {"ts": 20, "pid": 1, "tid": 1, "sf": 2}], traceEvents=[])
