#!/usr/bin/env python3
"""chrome_seeds.py DIR — writes fuzz_chrome's hand-made seeds into DIR: small
Chrome trace-event files, each reaching another part of the importer
(lib/convert/v8/chrome_trace.c; doc/mappings.md §14):

  chunks.json      a DevTools trace: two processes, three threads named by
                   "M" events (thread_name, process_name), three Profile
                   events (two pids with the same id 0x1, a second id on
                   one pid) and their ProfileChunks, sent from a sampler
                   thread; the nodes in parent form spread over the chunks,
                   a call tree 6 deep with recursion and urls, lines and
                   columns; timeDeltas in args.data, in cpuProfile (the
                   older form) and in both (the same deltas twice); a chunk
                   with an endTime, one before an earlier chunk's ts, one
                   without a ts; X, B/E and instant events beside them
                   (counted, not samples) and a "metadata" object
  cpuprofile.json  an older trace, a bare array: one "CpuProfile" event
                   holding a whole V8 profile (nodes with children and
                   hitCount, startTime, endTime, samples, timeDeltas), a
                   second one on another thread, thread names
  durations.json   no CPU profile: duration events on four threads of two
                   processes (tids 1 and 2, "7" and "main"), B/E nested 5
                   deep, X inside B and B inside X, X events at one ts (the
                   longer first), an E whose name does not match (left
                   out), an E without a B, a B never closed, tdur for dur,
                   ts as a fraction, one name with two args (two frames),
                   thread and process names
  durations-array.json  the same kind of trace as a bare array, no names
  samples.json     the samples/stackFrames form (Hermes): samples of three
                   threads (pid and tid as numbers and strings), stack
                   frames with numeric and string ids, categories, parent
                   chains 5 deep, a sample of no frame
  samples-profile.json  the samples form whose first event has pid, tid,
                   ph and cat, with a CPU profile too (its profile is read)
  lines.json       a Performance-panel trace with V8's per-sample lines
                   (args.data.lines and columns): chunks with lines, one
                   without (padded with 0s), one whose lines are not as
                   many as its samples, one before an earlier chunk's ts
                   (sorted: the lines follow their samples), lines of 0,
                   negative, real, string and huge values, lines inside
                   cpuProfile (not read), a native frame (scriptId 0, no
                   url) and an eval'd script's (a scriptId, as a string,
                   and no url) with lines

Everything here is written by this script: nothing is copied from test data.
"""
import json
import os
import sys


def write(d, name, obj):
    with open(os.path.join(d, name), "w") as f:
        json.dump(obj, f, separators=(",", ":"))


def cf(name, url="", line=-1, col=-1, sid=0):
    return {"functionName": name, "url": url, "lineNumber": line, "columnNumber": col, "scriptId": sid}


# a call tree: (id, parent, callFrame); 6 deep, `fib` recursive
TREE = [
    (1, None, cf("(root)")),
    (2, 1, cf("(program)")),
    (3, 1, cf("main", "file:///app/main.js", 0, 0, 3)),
    (4, 3, cf("run", "file:///app/main.js", 10, 4, 3)),
    (5, 4, cf("fib", "file:///app/fib.js", 2, 12, 4)),
    (6, 5, cf("fib", "file:///app/fib.js", 2, 12, 4)),
    (7, 6, cf("fib", "file:///app/fib.js", 2, 12, 4)),
    (8, 7, cf("", "file:///app/fib.js", 7, 1, 4)),
    (9, 4, cf("parse", "https://cdn.example/lib.min.js", 0, 5012, 5)),
    (10, 1, cf("(garbage collector)")),
    (11, 1, cf("(idle)")),
    (12, 3, cf("emit \"x\";y", "node:events", 516, 28, 6)),
]


def node(i):
    nid, parent, frame = TREE[i - 1]
    n = {"id": nid, "callFrame": frame}
    if parent:
        n["parent"] = parent
    return n


def chunks(d):
    pid = [4242, 4343]
    ev = [
        {"ph": "M", "name": "process_name", "pid": pid[0], "tid": 0, "ts": 0, "cat": "__metadata",
         "args": {"name": "Renderer"}},
        {"ph": "M", "name": "thread_name", "pid": pid[0], "tid": 1, "ts": 0, "cat": "__metadata",
         "args": {"name": "CrRendererMain"}},
        {"ph": "M", "name": "thread_name", "pid": pid[0], "tid": 9, "ts": 0, "cat": "__metadata",
         "args": {"name": "DedicatedWorker thread"}},
        {"ph": "M", "name": "thread_name", "pid": pid[1], "tid": 1, "ts": 0, "cat": "__metadata",
         "args": {"name": "CrBrowserMain"}},
        {"ph": "M", "name": "thread_name", "pid": pid[1], "tid": 2, "ts": 0, "cat": "__metadata",
         "args": {"name": ""}},
    ]
    start = 900000
    cat = "disabled-by-default-v8.cpu_profiler"
    # (pid, tid of the profiled thread, id)
    profs = [(pid[0], 1, "0x1"), (pid[1], 1, "0x1"), (pid[0], 9, "0x2")]
    for p, t, i in profs:
        ev.append({"ph": "P", "name": "Profile", "id": i, "pid": p, "tid": t, "ts": start, "cat": cat,
                   "args": {"data": {"startTime": start}}})
    # chunk plans: (nodes, samples, deltas, where the deltas go, extra)
    plan = [
        ([1, 2, 3, 4, 5], [2, 4, 5, 5, 3], [3, 100, 125, 0, 250], "data", {}),
        ([6, 7, 8], [6, 7, 8, 8, 6, 5], [130, 130, 10, 0, 500, 125], "inner", {}),
        ([9, 10, 11, 12], [9, 9, 10, 11, 12, 4], [125, 125, 40, 900, 125, 125], "both", {}),
        ([], [3, 2, 8, 1], [125, 125, 125, 1], "data", {"endTime": start + 6000}),
    ]
    sampler = 77  # chunks come from the sampler's thread
    for k, (p, t, i) in enumerate(profs):
        for c, (nodes, samples, deltas, where, extra) in enumerate(plan):
            if k == 2 and c == 3:
                continue  # a profile whose last chunk never came
            data = {"cpuProfile": {"nodes": [node(n) for n in nodes], "samples": samples}}
            if where in ("data", "both"):
                data["timeDeltas"] = deltas
            if where in ("inner", "both"):
                data["cpuProfile"]["timeDeltas"] = deltas
            data.update(extra)
            e = {"ph": "P", "name": "ProfileChunk", "id": i, "pid": p, "tid": sampler, "cat": cat,
                 "ts": start + 1000 * (c + 1), "args": {"data": data}}
            if k == 1 and c == 2:
                e["ts"] = start + 500  # before an earlier chunk's ts: taken in ts order
            if k == 2 and c == 1:
                del e["ts"]  # no ts: file order
            ev.append(e)
    # duration and instant events beside the profiles: counted, not samples
    ev += [
        {"ph": "X", "name": "RunTask", "pid": pid[0], "tid": 1, "ts": start + 10, "dur": 900, "cat": "toplevel"},
        {"ph": "B", "name": "v8.compile", "pid": pid[0], "tid": 1, "ts": start + 20, "cat": "v8"},
        {"ph": "E", "name": "v8.compile", "pid": pid[0], "tid": 1, "ts": start + 60, "cat": "v8"},
        {"ph": "I", "name": "mark", "pid": pid[1], "tid": 1, "ts": start + 30, "s": "t"},
        {"ph": "C", "name": "counter", "pid": pid[1], "tid": 1, "ts": start + 40, "args": {"n": 3}},
    ]
    write(d, "chunks.json", {"traceEvents": ev, "metadata": {"source": "DevTools", "startTime": "2026-11-29"}})


def children_profile(samples, start):
    nodes = []
    for nid, parent, frame in TREE:
        kids = [n for n, p, _ in TREE if p == nid]
        n = {"id": nid, "callFrame": frame, "hitCount": samples.count(nid)}
        if kids:
            n["children"] = kids
        nodes.append(n)
    deltas = [5] + [100 + 25 * (k % 3) for k in range(len(samples) - 1)]
    return {"nodes": nodes, "startTime": start, "endTime": start + sum(deltas) + 100,
            "samples": samples, "timeDeltas": deltas}


def cpuprofile(d):
    ev = [
        {"ph": "M", "name": "thread_name", "pid": 5, "tid": 6, "ts": 0, "args": {"name": "main"}},
        {"ph": "M", "name": "process_name", "pid": 5, "tid": 0, "ts": 0, "args": {"name": "node"}},
        {"ph": "I", "name": "CpuProfile", "pid": 5, "tid": 6, "ts": 2000, "cat": "disabled-by-default-v8.cpu_profiler",
         "args": {"data": {"cpuProfile": children_profile([2, 5, 6, 7, 8, 8, 9, 12, 11, 4, 3], 1000)}}},
        {"ph": "I", "name": "CpuProfile", "pid": 5, "tid": 8, "ts": 3000, "cat": "disabled-by-default-v8.cpu_profiler",
         "args": {"data": {"cpuProfile": children_profile([10, 10, 3, 4, 9], 2500)}}},
    ]
    write(d, "cpuprofile.json", ev)


def durations(d, bare):
    e = []

    def be(ph, name, pid, tid, ts, **kw):
        x = {"ph": ph, "name": name, "pid": pid, "tid": tid, "ts": ts}
        x.update(kw)
        e.append(x)

    # thread (1, 1): B/E nested 5 deep, X inside B, B inside X
    names = ["main", "loop", "step", "work", "leaf"]
    for k, n in enumerate(names):
        be("B", n, 1, 1, 100 + 10 * k, cat="app")
    be("X", "inner", 1, 1, 145, dur=3)
    for k, n in reversed(list(enumerate(names))):
        be("E", n, 1, 1, 200 - 10 * k, cat="app")
    be("X", "outer", 1, 1, 300, dur=100)
    be("B", "nested", 1, 1, 320)
    be("E", "nested", 1, 1, 350)
    # thread (1, 2): X events at one ts (the longer first), args telling
    # two frames of one name apart, tdur for dur, a fractional ts
    be("X", "short", 1, 2, 100, dur=10)
    be("X", "long", 1, 2, 100, dur=50)
    be("X", "task", 1, 2, 160, dur=5, args={"url": "a"})
    be("X", "task", 1, 2, 170, dur=5, args={"url": "b"})
    be("X", "task", 1, 2, 180, tdur=4)
    be("X", "frac", 1, 2, 190.25, dur=2.5)
    # thread (2, "7") and (2, "main"): a mismatched E, an E without a B, a
    # B never closed
    be("B", "a", 2, "7", 10)
    be("B", "b", 2, "7", 20)
    be("E", "zz", 2, "7", 25)  # does not match b: left out
    be("E", "b", 2, "7", 30)
    be("E", "a", 2, "7", 40)
    be("E", "lonely", 2, "7", 50)
    be("B", "open", 2, "main", 60)
    be("B", "open2", 2, "main", 70)
    be("E", "open2", 2, "main", 80)
    be("B", "", 2, "main", 90)  # an empty name
    if not bare:
        e += [
            {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "Main thread"}},
            {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "Worker \u2713"}},
            {"ph": "M", "name": "thread_name", "pid": 2, "tid": "7", "args": {"name": "seven"}},
            {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "helper"}},
        ]
        write(d, "durations.json", {"traceEvents": e, "displayTimeUnit": "ns"})
    else:
        write(d, "durations-array.json", e)


def samples(d, with_profile):
    frames = {
        "1": {"name": "(root)", "category": "root"},
        "2": {"name": "main", "category": "JavaScript", "parent": 1},
        "3": {"name": "run", "category": "JavaScript", "parent": "2"},
        "k": {"name": "fib", "category": "JavaScript", "parent": 3},
        "k2": {"name": "fib", "category": "JavaScript", "parent": "k"},
        "5": {"name": "fib", "category": "Native", "parent": "k2"},
        "6": {"name": "gc", "category": "GC", "parent": 1},
        "7": {"name": "io", "parent": "2"},
    }
    smp = []
    for k, sf in enumerate([2, "3", "k", "k2", 5, "5", 6, 7, 0, "k"]):
        smp.append({"ts": 1000 + 125 * k, "pid": 7, "tid": 9, "sf": sf, "weight": 1})
    for k, sf in enumerate(["6", 3, "k2"]):
        smp.append({"ts": str(1100 + 200 * k), "pid": "7", "tid": "10", "sf": sf})
    smp.append({"ts": 1500, "pid": 8, "tid": 1, "sf": "7"})
    ev = [{"name": "thread_name", "ph": "M", "pid": 7, "tid": 9, "args": {"name": "mqt_js"}},
          {"name": "process_name", "ph": "M", "pid": 7, "tid": 0, "args": {"name": "hermes"}}]
    if with_profile:  # (speedscope's isChromeTimeline: the first event's keys)
        ev[0]["cat"] = "__metadata"
        ev.append({"ph": "P", "name": "Profile", "id": "0x1", "pid": 7, "tid": 9, "ts": 1000, "cat": "v8",
                   "args": {"data": {"startTime": 1000}}})
        ev.append({"ph": "P", "name": "ProfileChunk", "id": "0x1", "pid": 7, "tid": 9, "ts": 1001, "cat": "v8",
                   "args": {"data": {"cpuProfile": {"nodes": [node(1), node(3), node(4)], "samples": [3, 4, 4]},
                                     "timeDeltas": [10, 20, 30]}}})
    write(d, "samples-profile.json" if with_profile else "samples.json",
          {"traceEvents": ev, "samples": smp, "stackFrames": frames})


def lines(d):
    """V8's per-sample lines (ProfileChunk args.data.lines, 1-based, 0 none)."""
    cat = "disabled-by-default-v8.cpu_profiler"
    tree = TREE + [
        (13, 4, cf("appendChild")),                       # native: scriptId 0, no url
        (14, 4, cf("evalled", "", 0, 9, "17")),           # an eval'd script: a scriptId, no url
        (15, 4, cf("bad-id", "", 2, 0, "x7")),            # a scriptId that is no number
    ]
    nodes = [{"id": n, "callFrame": f, **({"parent": p} if p else {})} for n, p, f in tree]
    start = 5000
    ev = [{"ph": "M", "name": "thread_name", "pid": 9, "tid": 9, "ts": 0, "cat": "__metadata",
           "args": {"name": "CrRendererMain"}},
          {"ph": "P", "name": "Profile", "id": "0x1", "pid": 9, "tid": 9, "ts": start, "cat": cat,
           "args": {"data": {"startTime": start}}}]
    # (nodes, samples, deltas, lines (None: no key), columns, ts, lines inside cpuProfile)
    plan = [
        (nodes[:8], [5, 6, 7, 8, 5], [3, 100, 125, 80, 250], [3, 4, 0, 9, 3], [1, 5, 0, 2, 13], 1, None),
        (nodes[8:], [9, 13, 14, 15, 12], [100, 120, 130, 140, 150], [1, 79, 2, 3, 517], [9, 53, 4, 1, 30], 2, None),
        ([], [2, 10, 11, 11], [125, 125, 40, 900], None, None, 3, [7, 7, 7, 7]),
        ([], [5, 6, 5], [100, 100, 100], [3, 3], [1, 1], 4, None),                 # fewer lines than samples
        ([], [7, 8, 5, 6, 5, 4], [90, 90, 90, 90, 90, 90],
         [-3, 2.0, "4", 9223372036854775807, 1.5, None], [0, 0, 0, 0, 0, 0], 0.5, None),  # before chunk 1
        ([], [5, 5], [10, 10], [4, 4], [2, 2], 6, None),
    ]
    for k, (nd, smp, dl, ln, co, ts, inner) in enumerate(plan):
        data = {"cpuProfile": {"nodes": nd, "samples": smp}, "timeDeltas": dl}
        if ln is not None:
            data["lines"], data["columns"] = ln, co
        if inner is not None:
            data["cpuProfile"]["lines"] = inner
        ev.append({"ph": "P", "name": "ProfileChunk", "id": "0x1", "pid": 9, "tid": 77, "cat": cat,
                   "ts": start + 1000 * ts, "args": {"data": data}})
    write(d, "lines.json", {"traceEvents": ev})


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(__doc__.strip(), file=sys.stderr if len(sys.argv) != 2 or sys.argv[1] not in ("-h", "--help") else sys.stdout)
        sys.exit(0 if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help") else 2)
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    chunks(d)
    cpuprofile(d)
    durations(d, False)
    durations(d, True)
    samples(d, False)
    samples(d, True)
    lines(d)


if __name__ == "__main__":
    main()
