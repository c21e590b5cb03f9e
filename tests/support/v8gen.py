#!/usr/bin/env python3
"""V8 CPU profiles and the Chrome traces that carry them, for the judges
(tests/interop/t_matrix.py reads a .trace by the .cpuprofile beside it).

    v8gen.py random OUT.cpuprofile SEED
        a seeded random .cpuprofile: a call tree of up to 40 nodes under
        (root) (names shared between nodes and depths, recursion, anonymous
        functions with and without a url, a url without a line (V8's -1),
        names with unicode, quotes, blanks and ';'), 1-400 samples of
        random nodes (the root too), timeDeltas of 0-5000 us (some 0)
    v8gen.py trace IN.cpuprofile OUT.trace [CHUNK]
        the profile as a Chrome trace: a Profile event and ProfileChunk
        events of CHUNK (50) samples each, every chunk adding the nodes its
        samples need (parent form), as Chrome writes them

The answers are the .cpuprofile itself: nothing here reads pcol's output."""
import json
import random
import sys

NAMES = ["main", "work", "fib", "parse", "render", "a b", "semi;colon", 'quo"te', "ünï", "日本",
         "(program)", "Array.prototype.map", "x"]
URLS = ["", "file:///app/main.js", "https://example.invalid/lib/v.js", "node:internal/timers"]


def random_profile(seed):
    r = random.Random(seed)
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "",
                                     "lineNumber": -1, "columnNumber": -1}, "children": []}]
    for i in range(2, r.randint(2, 40) + 1):
        par = r.choice(nodes)
        fn = r.choice(NAMES) if r.random() < 0.8 else ""
        url = r.choice(URLS)
        ln = (-1 if r.random() < 0.15 else r.randint(0, 300)) if url else -1
        nodes.append({"id": i, "callFrame": {"functionName": fn, "scriptId": str(r.randint(0, 3)), "url": url,
                                             "lineNumber": ln, "columnNumber": r.randint(-1, 40)}})
        par.setdefault("children", []).append(i)
    ids = [n["id"] for n in nodes]
    n = r.randint(1, 400)
    samples = [r.choice(ids) for _ in range(n)]
    deltas = [0 if r.random() < 0.1 else r.randint(1, 5000) for _ in range(n)]
    start = r.randint(0, 10 ** 12)
    return {"nodes": nodes, "startTime": start, "endTime": start + sum(deltas) + r.randint(0, 100),
            "samples": samples, "timeDeltas": deltas}


def trace(d, chunk=50):
    parent = {c: n["id"] for n in d["nodes"] for c in n.get("children", [])}
    nodes = {n["id"]: n for n in d["nodes"]}
    ev = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "ts": 0, "args": {"name": "main"}},
          {"ph": "P", "name": "Profile", "id": "0x1", "pid": 1, "tid": 1, "ts": d["startTime"],
           "args": {"data": {"startTime": d["startTime"]}}}]
    sent = set()

    def need(i, out):
        if i in sent:
            return
        if i in parent:
            need(parent[i], out)
        sent.add(i)
        n = {"id": i, "callFrame": nodes[i]["callFrame"]}
        if i in parent:
            n["parent"] = parent[i]
        out.append(n)

    s, t = d["samples"], d["timeDeltas"]
    for a in range(0, len(s), chunk):
        new = []
        for i in s[a:a + chunk]:
            need(i, new)
        ev.append({"ph": "P", "name": "ProfileChunk", "id": "0x1", "pid": 1, "tid": 2, "ts": d["startTime"] + a,
                   "args": {"data": {"cpuProfile": {"nodes": new, "samples": s[a:a + chunk]},
                                     "timeDeltas": t[a:a + chunk]}}})
    return {"traceEvents": ev}


def main(argv):
    if len(argv) == 4 and argv[1] == "random":
        json.dump(random_profile(int(argv[3])), open(argv[2], "w", encoding="utf-8"), ensure_ascii=False)
    elif len(argv) in (4, 5) and argv[1] == "trace":
        d = json.load(open(argv[2], encoding="utf-8"))
        json.dump(trace(d, int(argv[4]) if len(argv) == 5 else 50), open(argv[3], "w", encoding="utf-8"),
                  ensure_ascii=False)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
