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
  empty.json   traceEvents empty;
  keys.json, chains.json, odd.json, nots.json, cpu-first.json, cpu-not-first.json: below.
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

# keys.json: frames told apart as speedscope tells them, by "NAME:CATEGORY"
# text: names and categories with colons ("a:b" in "c" and "a" in "b:c" are
# one frame there, named as the first of them a profile keeps), one name in
# several categories, names and categories of every JSON type (String() of
# them: numbers as JavaScript writes them, arrays joined, objects, null,
# absent); four threads whose samples meet the frames of one key in
# different orders, ties (samples that weigh 0: speedscope keeps no frame of
# them, so a key's name is its first frame's in a sample that weighs more).
NAMES = ["a:b", "a", "b:c", "c", "x", "x:y", "", "1", 1, 1.0, None, "null", "undefined", 1.5e10, 1e21, 1e-7,
         -0.0, 123456789012345678901234, True, [1, [2, None], "z"], [], {"k": 1}, "\u00e9:\u2713"]
CATS = ["c", "b:c", "", "y", "x:y", None, "undefined", 1, 0.1, [None], {}, False]
r = random.Random(5)
frames = {}
ids = []
for i in range(1, 300):
    f = {}
    if r.random() < 0.9:
        f["name"] = r.choice(NAMES)
    if r.random() < 0.9:
        f["category"] = r.choice(CATS)
    if ids and r.random() < 0.8:
        f["parent"] = int(r.choice(ids))
    frames[str(i)] = f
    ids.append(str(i))
samples = []
t = {(1, 1): 0, (1, 2): 0, (2, 1): 0, (3, "1"): 0}
for _ in range(2000):
    th = r.choice(list(t))
    t[th] += r.choice([0, 0, 1, 2, 5])
    samples.append({"pid": th[0], "tid": th[1], "ts": t[th], "sf": int(r.choice(ids))})
json.dump({"traceEvents": ev, "samples": samples, "stackFrames": frames}, open(d + "/keys.json", "w"))

# chains.json: the importer's reuse of a chain's nodes (chrome_trace.c,
# frame_node: a chain is made again only when a key on it was claimed after
# it was made): 60 keys of two names ("pN" in "q:r" and "pN:q" in "r"),
# claimed one by one as the samples meet them, chains up to 100 deep, runs of ties (samples that weigh 0 meet
# chains whose keys are not yet claimed, a claim comes, the chains are met
# again), a key claimed deep in one chain and met near the root of another,
# two threads sharing the frames.
r = random.Random(11)
frames, ids = {}, []
for i in range(1, 400):
    f = {"name": "p%d" % r.randrange(60) + r.choice(["", ":q"]), "category": r.choice(["q:r", "r"])}
    if ids and r.random() < 0.93:
        f["parent"] = int(r.choice(ids[-6:] if r.random() < 0.8 else ids))
    frames[str(i)] = f
    ids.append(str(i))
samples, t = [], {1: 0, 2: 0}
for _ in range(3000):
    th = r.choice([1, 1, 2])
    t[th] += r.choice([0, 0, 0, 1]) if r.random() < 0.7 else r.choice([1, 3])
    samples.append({"pid": 1, "tid": th, "ts": t[th], "sf": int(r.choice(ids[-40:] if r.random() < 0.5 else ids))})
json.dump({"traceEvents": ev, "samples": samples, "stackFrames": frames}, open(d + "/chains.json", "w"))

# odd.json: values speedscope reads through JavaScript's Number() and
# String(): pids and tids negative, fractional, strings of them (" 7 ",
# "0x10"), null (0), absent or no number (NaN: one thread); ts as hex,
# octal and binary strings, "1e3", null, true, [5], "" and " "; a thread's
# only sample without a ts, or with one that is no number (speedscope never
# reads it); a sample that is no object (a thread of NaN, alone); ids of
# several JavaScript forms (1.0, "1.5", true, [2], [] for the key ""); pids
# whose text orders otherwise than their numbers.
frames = {"1": {"name": "root"}, "2": {"name": "two", "parent": 1.0}, "1.5": {"name": "half", "parent": [2]},
          "true": {"name": "yes", "parent": "1.5"}, "": {"name": "empty", "parent": True}, "1e+21": {"name": "big"},
          "7": 5, "8": "str", "9": [], "10": {"name": "ten", "parent": 7}}
S = lambda pid, tid, ts, sf, **kw: dict({k: v for k, v in (("pid", pid), ("tid", tid), ("ts", ts)) if v is not Ellipsis},
                                         sf=sf, **kw)
samples = [S(-5, 1.5, 10, 2), S("-5", "1.50", 12, "1.5"), S(-5, 1.5, "0x10", True), S(-5, 1.5, "0o21", []),
           S(-5, 1.5, "0b10010", [2]), S(-5, 1.5, " 0x20 ", 1e21), S(-5, 1.5, "1e2", "10"), S(0, 0, "", 2),
           S(0, 0, None, 1), S(0, 0, " ", 1), S(None, [], True, 2), S([0], "0", [5], "true"), S(0, -0.0, 9, 2),
           S(..., 3, 4, 2), S("x", 3, 8, 1), S(9, 9, ..., 2), S(10, 10, "abc", "1.5"), 5,
           S(" 7 ", "0x10", 1, 2), S(7, 16, 3, "7"), S(7, 16, 5, "8"), S(7, 16, 6, "9"), S(7, 16, 9, 2),
           S(2**70, -1e-7, 1, 2), S(2**70, -1e-7, 2, 1)]
# (speedscope orders its profiles by their keys' text: 12345678901 before
# 2000000000, -1.2345678901234567e-6 first)
samples += [S(p, 1, t, 2) for p in (12345678901, 2000000000, -1.2345678901234567e-6, 0.1) for t in (1, 2)]
json.dump({"traceEvents": ev, "samples": samples, "stackFrames": frames}, open(d + "/odd.json", "w"))
bad("nots.json", [{"ts": 10, "pid": 1, "tid": 1, "sf": 2}, {"pid": 1, "tid": 1, "sf": 2}])

# A CPU profile and samples: speedscope reads the CPU profile when the first
# event has the keys pid, tid, ph and cat (its isChromeTimeline), else the
# samples; cpu-first.json has them so, cpu-not-first.json not.
node = lambda i, p, fn: dict({"id": i, "callFrame": {"functionName": fn, "url": "", "scriptId": 0, "lineNumber": -1,
                                                  "columnNumber": -1}}, **({"parent": p} if p else {}))
prof = [{"ph": "P", "name": "Profile", "pid": 1, "tid": 1, "ts": 0, "id": "0x1", "args": {"data": {"startTime": 0}}},
        {"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 1, "ts": 1, "id": "0x1",
         "args": {"data": {"cpuProfile": {"nodes": [node(1, 0, "(root)"), node(2, 1, "cpuf"), node(3, 2, "cpug")],
                                          "samples": [2, 3, 2, 3]}, "timeDeltas": [0, 10, 10, 5]}}}]
base_s = [{"ts": 10, "pid": 1, "tid": 1, "sf": 2}, {"ts": 25, "pid": 1, "tid": 1, "sf": 1}, {"ts": 30, "pid": 1, "tid": 1, "sf": 2}]
json.dump({"samples": base_s, "traceEvents": [dict(prof[0], cat="x")] + prof[1:], "stackFrames": base["stackFrames"]},
          open(d + "/cpu-first.json", "w"))
json.dump({"traceEvents": prof + ev, "samples": base_s, "stackFrames": base["stackFrames"]},
          open(d + "/cpu-not-first.json", "w"))
