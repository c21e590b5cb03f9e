#!/usr/bin/env python3
"""chrome_firefox_judge.py TRACE JUDGED_JSONL [TID=TOP_JSON...] — what the Firefox Profiler's own
Chrome importer (the line of firefox_cli_judge.cjs's output for TRACE: its threads and
their function lists) made of a Chrome trace `pcol unpack --to chrome` wrote,
against the trace itself read by the importer's documented sampling rule.

The Firefox Profiler does not weigh a Chrome sample by its time, as DevTools'
CPUProfileDataModel and speedscope do (the time to the next sample): its
importer (src/profile-logic/import/chrome.ts, processTracingEvents) resamples
each thread at meta.interval = 0.5 ms and counts samples.  Per Profile event
(in file order; its ProfileChunk events of the same id and pid, in file
order) the time starts at startTime / 1000 (ms) and each sample adds its
delta / 1000; a sample is kept when that time is at least 0.5 ms after the
last kept one of its thread (pid:tid), which starts at 0, so a sample at
time 0 is dropped.  A kept sample counts 1 for its node's function (self)
and once for every function on its stack, the (root) node included (total).

Checked, per thread (the profiler's `pid:tid` is the Profile event's pid
and tid): the profiler has exactly the trace's threads, each named as the
trace's thread_name event says ("Chrome Thread" without one); it loaded the
file without an error or a warning; and each function's (keyed as the
profiler keys it: name, url, line, column; named as its list names it:
RESOURCE!NAME for a JS function, the resource being the url's host for
http(s), else the url) self and total samples equal the rule's.  Prints one
line: the samples kept of the trace's; exit 1 with the differences.

And against pcol itself, where the rule keeps every sample of the trace and
the trace has one sample a pcol sample besides its (root) samples (closing
each thread: the trace's samples less those are the TOP_JSONs' total):
each TID=TOP_JSON (`pcol top IN --tag tid=TID --value samples --format json
--node-fraction 0`) is the profiler's thread whose tid is PID:TID, and per
function name its self samples added up (the profiler keys a function by its
line too) equal pcol's flat, and its total pcol's cum where the name is one
function of the profiler's (it would count a sample once per function); the
(root) node's function, which pcol has not, is left out."""
import json, sys
from urllib.parse import urlsplit

INTERVAL = 0.5  # ms, the importer's meta.interval


def resource(url):
    try:
        u = urlsplit(url)
        if u.scheme in ("http", "https", "moz-extension") and u.netloc:
            return u.netloc
    except ValueError:
        pass
    return url


def func_of(cf):
    name = cf.get("functionName") or "(anonymous)"
    url = cf.get("url") or None
    line = cf.get("lineNumber")
    line = None if line is None or line == -1 else line
    col = cf.get("columnNumber")
    col = None if col is None or col == -1 else col
    js = name not in ("(idle)", "(root)", "(program)", "(garbage collector)") and (
        url is not None or line is not None or name in ("<WASM UNNAMED>", "(unresolved function)"))
    shown = resource(url or "<unknown>") + "!" + name if js else name
    return (name, url, line, col), shown


def model(trace):
    ev = trace["traceEvents"] if isinstance(trace, dict) else trace
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    threads, last_kept, total, kept, roots = {}, {}, 0, 0, 0
    for p in (e for e in ev if e.get("name") == "Profile"):
        key = "%s:%s" % (p["pid"], p["tid"])
        th = threads.setdefault(key, {"name": names.get((p["pid"], p["tid"]), "Chrome Thread"),
                                      "funcs": {}, "shown": {}})
        parent, fn = {}, {}
        t = p["args"]["data"]["startTime"] / 1000
        for c in (e for e in ev if e.get("name") == "ProfileChunk" and e.get("id") == p["id"]
                  and e.get("pid") == p["pid"]):
            d = c["args"]["data"]
            for n in d["cpuProfile"].get("nodes", []):
                fn[n["id"]] = func_of(n["callFrame"])
                if "parent" in n:
                    parent[n["id"]] = n["parent"]
            for s, dt in zip(d["cpuProfile"]["samples"], d["timeDeltas"]):
                total += 1
                roots += s not in parent
                t += dt / 1000
                if t - last_kept.get(key, 0) < INTERVAL:
                    continue
                last_kept[key] = t
                kept += 1
                on = set()
                n = s
                while n is not None:
                    on.add(fn[n][0])
                    th["shown"][fn[n][0]] = fn[n][1]
                    n = parent.get(n)
                for f in on:
                    r = th["funcs"].setdefault(f, [0, 0])
                    r[1] += 1
                th["funcs"][fn[s][0]][0] += 1
    return threads, kept, total, roots


def main():
    trace = json.load(open(sys.argv[1], encoding="utf-8"))
    j = [j for j in map(json.loads, open(sys.argv[2])) if j["file"] == sys.argv[1]]
    if len(j) != 1:
        sys.exit("%d judged records of %s" % (len(j), sys.argv[1]))
    j = j[0]
    if "error" in j:
        sys.exit("the profiler failed: %s" % j["error"])
    bad = [w for w in j.get("warnings", []) if not w.startswith("log: ")]
    if bad:
        sys.exit("the profiler warned: %s" % "; ".join(bad)[:800])
    want, kept, total, roots = model(trace)
    got = {t["tid"]: t for t in j["threads"]}
    errs = []
    if sorted(got) != sorted(want):
        errs.append("threads %s, the trace's %s" % (sorted(got), sorted(want)))
    for k in sorted(set(got) & set(want)):
        g, w = got[k], want[k]
        if g["name"] != w["name"]:
            errs.append("%s: named %r, the trace's thread_name %r" % (k, g["name"], w["name"]))
        if g["weightType"] != "samples":
            errs.append("%s: weight type %s" % (k, g["weightType"]))
        a = sorted((f[4], f[2], f[3]) for f in g["funcs"])
        b = sorted((w["shown"][f], s, t) for f, (s, t) in w["funcs"].items())
        if a != b:
            errs.append("%s (%s): the profiler's (name, self, total) %s, by the rule %s" % (
                k, w["name"], [x for x in a if x not in b][:6], [x for x in b if x not in a][:6]))
    note = ""
    tops = [(tid, json.load(open(path))["rows"]) for tid, path in (a.split("=", 1) for a in sys.argv[3:])]
    if tops and kept < total:
        note = " (pcol's samples not judged: the rule dropped some)"
    elif tops and sum(r["flat"] for _, rows in tops for r in rows) != total - roots:
        note = " (pcol's samples not judged: a trace sample is not a pcol sample)"
    elif tops and not errs:
        for tid, rows in tops:
            th = [t for t in j["threads"] if t["tid"].split(":")[-1] == tid]
            if len(th) != 1:
                errs.append("tid %s: %d threads of the profiler's" % (tid, len(th)))
                continue
            selfs, tots, count = {}, {}, {}
            for f in th[0]["funcs"]:
                if f[4] == "(root)":
                    continue
                selfs[f[0]] = selfs.get(f[0], 0) + f[2]
                tots[f[0]] = f[3]
                count[f[0]] = count.get(f[0], 0) + 1
            mine = {r["name"]: r for r in rows}
            if sorted(selfs) != sorted(mine):
                errs.append("tid %s: the profiler's functions %s, pcol's %s" % (
                    tid, sorted(set(selfs) - set(mine))[:6], sorted(set(mine) - set(selfs))[:6]))
            for k in sorted(set(selfs) & set(mine)):
                if selfs[k] != mine[k]["flat"] or (count[k] == 1 and tots[k] != mine[k]["cum"]):
                    errs.append("tid %s: %s self/total %d/%d, pcol's flat/cum %d/%d" % (
                        tid, k, selfs[k], tots[k], mine[k]["flat"], mine[k]["cum"]))
        note = ", equal to pcol's samples of %d threads" % len(tops)
    if errs:
        sys.exit("; ".join(errs)[:3000])
    print("%d threads, %d of %d samples kept%s" % (len(want), kept, total, note))


main()
