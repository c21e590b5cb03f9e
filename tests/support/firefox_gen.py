#!/usr/bin/env python3
"""firefox_gen.py KIND OUT — writes a processed Firefox profile made by the
project (no profiler needed) and prints, as JSON, what pcol must read from
it: {"total": .., "flat": {name: ..}, "cum": {name: ..}} computed here from
the stacks this script wrote, not from pcol.

KIND: gecko (a Gecko profile: {schema, data} tables, a stringTable per
thread, a child process, location strings of every kind the profiler
names: an address, "f (in lib) + 12", "g (url:line:col)", "url:line", a
label), v70 (shared tables, prefixOffset, two threads, threadCPUDelta in µs,
categories, markers), v71 and v75 (the same, as the profiler's upgraders
write it: the frames' and then the functions' nulls as 0 and a `flags` bit), v48 (per-thread tables, prefix, per-thread
stringArray, funcTable.fileName, timeDeltas), tracing (weightType
tracing-ms), and the hostile ones, which pcol must refuse with the JSON
path: bad-stack, bad-prefix, bad-func, bad-string, bad-version, short-column."""
import json, sys

kind, out = sys.argv[1], sys.argv[2]
names = ["main", "work", "leaf", "other", "main.c", "GeckoMain", "Worker"]
# stacks: 0 main, 1 main>work, 2 main>work>leaf, 3 main>other
paths = [[0], [0, 1], [0, 1, 2], [0, 3]]
prefix = [None, 0, 1, 0]
frame = [0, 1, 2, 3]
threads = [  # (name, tid, [(time ms, stack, weight)])
    ("GeckoMain", 1, [(0.0, 2, 2), (1.0, 1, 1), (2.0, 3, 3), (3.0, None, 1)]),
    ("Worker", 2, [(0.5, 2, 5), (1.5, 0, 1)]),
]
flat, cum = {}, {}
for _, _, rows in threads:
    for _, s, w in rows:
        if s is None:
            continue
        fs = [names[frame[k]] for k in paths[s]]
        flat[fs[-1]] = flat.get(fs[-1], 0) + w
        for n in set(fs):
            cum[n] = cum.get(n, 0) + w
total = sum(w for _, _, rows in threads for _, _, w in rows)
tracing = kind == "tracing"
frames = {"length": 4, "func": [0, 1, 2, 3], "line": [10, 20, None, None], "column": [None] * 4,
          "inlineDepth": [0] * 4, "address": [-1] * 4, "category": [1, 1, 2, None],
          "subcategory": [0] * 4, "nativeSymbol": [None] * 4, "innerWindowID": [0] * 4}
funcs = {"length": 4, "name": [0, 1, 2, 3], "isJS": [False] * 4, "relevantForJS": [False] * 4,
         "resource": [-1] * 4, "lineNumber": [1, None, None, None], "columnNumber": [None] * 4}
meta = {"interval": 1, "startTime": 1700000000000.0, "processType": 0, "product": "pcol test",
        "stackwalk": 0, "version": 24, "markerSchema": [],
        "sampleUnits": {"time": "ms", "eventDelay": "ms", "threadCPUDelta": "µs"},
        "categories": [{"name": "Other", "color": "grey", "subcategories": ["Other"]},
                       {"name": "JavaScript", "color": "yellow", "subcategories": ["Other"]},
                       {"name": "Layout", "color": "purple", "subcategories": ["Other"]}]}
def samples(rows, deltas=False):
    s = {"length": len(rows), "stack": [r[1] for r in rows], "weight": [r[2] for r in rows],
         "weightType": "tracing-ms" if tracing else "samples", "threadCPUDelta": [7] * len(rows)}
    if deltas:
        s["timeDeltas"] = [rows[0][0]] + [rows[i][0] - rows[i - 1][0] for i in range(1, len(rows))]
    else:
        s["time"] = [r[0] for r in rows]
    return s
markers = {"length": 1, "data": [None], "name": [0], "startTime": [0.0], "endTime": [None],
           "phase": [0], "category": [0]}
if kind == "gecko":
    locs = ["Label frame", "foo (in libxul.so) + 12", "bar (https://x.com/app -> https://x.com/a.js:10:5)",
            "https://x.com/b.js:3", "0x1234"]
    gnames = ["Label frame", "foo", "bar", "(root scope) https://x.com/b.js", "0x1234"]
    # stacks: 0 label, 1 label>foo, 2 label>foo>bar, 3 label>b.js, 4 label>0x1234
    gpaths = [[0], [0, 1], [0, 1, 2], [0, 3], [0, 4]]
    gprefix = [None, 0, 1, 0, 0]
    rows = [(0.0, 2), (1.0, 4), (2.0, 3), (3.0, 1), (4.0, None), (5.0, 2)]
    def gthread(name, tid):
        return {"name": name, "tid": tid, "pid": 9, "processType": "default",
                "stringTable": locs,
                "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[p, i] for i, p in enumerate(gprefix)]},
                "frameTable": {"schema": {"location": 0, "relevantForJS": 1, "innerWindowID": 2, "implementation": 3,
                                          "line": 4, "column": 5, "category": 6, "subcategory": 7},
                               "data": [[i, False, 0, None, None, None, 1, 0] for i in range(5)]},
                "samples": {"schema": {"stack": 0, "time": 1, "eventDelay": 2}, "data": [[s, t, 0] for t, s in rows]},
                "markers": {"schema": {"name": 0, "startTime": 1, "endTime": 2, "phase": 3, "category": 4, "data": 5},
                            "data": [[0, 0.0, None, 0, 0, None]]}}
    gmeta = dict(meta, version=29)
    child = {"meta": dict(gmeta, startTime=meta["startTime"] + 10), "libs": [], "threads": [gthread("Content", 2)],
             "processes": []}
    doc = {"meta": gmeta, "libs": [], "threads": [gthread("GeckoMain", 1)], "processes": [child]}
    flat, cum = {}, {}
    for _ in range(2):
        for _, sk in rows:
            if sk is None:
                continue
            fs = [gnames[k] for k in gpaths[sk]]
            flat[fs[-1]] = flat.get(fs[-1], 0) + 1
            for n in set(fs):
                cum[n] = cum.get(n, 0) + 1
    total = 2 * len(rows)
elif kind == "v48":
    meta["preprocessedProfileVersion"] = 48
    funcs["fileName"] = [4, 4, None, None]
    th = []
    for name, tid, rows in threads:
        th.append({"name": name, "tid": tid, "pid": "7", "processType": "default", "stringArray": names,
                   "stackTable": {"length": 4, "frame": frame, "prefix": prefix,
                                  "category": [0] * 4, "subcategory": [0] * 4},
                   "frameTable": frames, "funcTable": funcs,
                   "resourceTable": {"length": 0, "lib": [], "name": [], "host": [], "type": []},
                   "samples": samples(rows, deltas=True), "markers": markers})
    doc = {"meta": meta, "libs": [], "threads": th}
else:
    meta["preprocessedProfileVersion"] = 70
    funcs["source"] = [0, 0, None, None]
    # every column version 70 has (the profiler's upgraders to 71 and 75 read
    # them all: a newer profiler fails on a v70 file without them)
    funcs["originalLocation"] = [None] * 4
    frames["lib"] = [-1] * 4
    frames["originalLocation"] = [None] * 4
    offs = [0 if p is None else i - p for i, p in enumerate(prefix)]
    shared = {"stringArray": names, "stackTable": {"length": 4, "frame": frame, "prefixOffset": offs},
              "frameTable": frames, "funcTable": funcs,
              "sources": {"length": 1, "id": [None], "filename": [4], "startLine": [1], "startColumn": [1],
                          "sourceMapURL": [None], "content": [None]},
              "resourceTable": {"length": 0, "name": [], "host": [], "type": []},
              "nativeSymbols": {"length": 0, "libIndex": [], "address": [], "name": [], "functionSize": []},
              "sourceLocationTable": {"length": 0, "source": [], "line": [], "column": []}}
    th = [{"name": n, "tid": t, "pid": "7", "samples": samples(r), "markers": markers} for n, t, r in threads]
    doc = {"meta": meta, "libs": [], "shared": shared, "threads": th}
    def flag_nulls(table, i, bits):
        """row i's flag bits of the columns that hold a value; 0 where null"""
        b = 0
        for bit, col in bits:
            if table[col][i] is not None:
                b |= bit
            else:
                table[col][i] = 0
        return b
    if kind in ("v71", "v75"):
        # the profiler's upgraders to 71 and 75 (its processed-profile
        # versioning, as @firefox-devtools/profiler-cli 0.10.0 bundles it):
        # a frame's and then a function's null columns become 0 and a bit
        # of the row's `flags` says which hold a value
        meta["preprocessedProfileVersion"] = 71
        ff = []
        for i in range(frames["length"]):
            b = 1 if frames["inlineDepth"][i] > 0 else 0
            if frames["address"][i] != -1 and frames["lib"][i] != -1:
                b |= 2
            else:
                frames["address"][i] = frames["lib"][i] = 0
            if frames["category"][i] is not None:
                b |= 4
            else:
                frames["category"][i] = frames["subcategory"][i] = 0
            ff.append(b | flag_nulls(frames, i, ((8, "nativeSymbol"), (16, "line"), (32, "column"),
                                                 (64, "originalLocation"))))
        frames["flags"] = ff
        del frames["inlineDepth"]
    if kind == "v75":
        meta["preprocessedProfileVersion"] = 75
        fl = []
        for i in range(funcs["length"]):
            b = (1 if funcs["isJS"][i] else 0) | (2 if funcs["relevantForJS"][i] else 0)
            if funcs["resource"][i] not in (-1, None):
                b |= 4
            else:
                funcs["resource"][i] = 0
            fl.append(b | flag_nulls(funcs, i, ((8, "source"), (16, "lineNumber"), (32, "columnNumber"),
                                                (64, "originalLocation"))))
        funcs["flags"] = fl
        del funcs["isJS"], funcs["relevantForJS"]
    if kind == "bad-stack":
        th[0]["samples"]["stack"][1] = 4
    elif kind == "bad-prefix":
        shared["stackTable"]["prefixOffset"][1] = 2
    elif kind == "bad-func":
        frames["func"][2] = 9
    elif kind == "bad-string":
        funcs["name"][3] = 99
    elif kind == "bad-version":
        meta["preprocessedProfileVersion"] = 99
    elif kind == "short-column":
        th[1]["samples"]["weight"].pop()
json.dump(doc, open(out, "w"))
scale = 1e6 if tracing else 1  # tracing-ms weights: pcol keeps nanoseconds
print(json.dumps({"total": total * scale, "flat": {k: v * scale for k, v in flat.items()},
                  "cum": {k: v * scale for k, v in cum.items()}}))
