#!/usr/bin/env python3
"""firefox_range.py IN OUT [MODE...] — writes OUT, the Firefox profile IN
(made by firefox_gen.py: processed or Gecko) with its sample times moved
1000.25 ms on (its range then starts after meta.startTime), and prints the
length in ns of the range the Firefox Profiler gives it (profile-data's
getTimeRangeIncludingAllThreads), computed here by that rule:

  meta.profilingStartTime .. meta.profilingEndTime when both are there (the
  end not 0); else the union over the threads of: the first sample's time
  .. the last one's + meta.interval (file order; time deltas: the first
  delta .. their sum); for a thread without samples, each marker by its
  phase (0 instant and 2 start: startTime, 3 end: endTime, 1 interval:
  both), each time t giving t .. t + interval; the first and last time of
  its JS and native allocations (a Gecko thread's "JS allocation" and
  "Native allocation" markers, in the order of their endTime || startTime).
  A Gecko child process's times count from its own meta.startTime.

tests/interop/t_firefox.sh holds this rule against the profiler's own code.
MODE: range (a profiling range), markers (a thread without samples whose
markers of every phase reach past the samples' range, markers of threads
with samples that would, and allocations that do), only-markers (markers
without any samples: every thread's samples emptied, a thread of markers
added).  Prints "none" when the profile has no range."""
import json, math, sys

src, out, modes = sys.argv[1], sys.argv[2], sys.argv[3:]
d = json.load(open(src))
SHIFT = 1000.25
iv = d["meta"]["interval"]
gecko = "preprocessedProfileVersion" not in d["meta"]
lo, hi = math.inf, -math.inf


def stretch(a, b):
    global lo, hi
    lo, hi = min(lo, a), max(hi, b + iv)


# markers of every phase (name, start, end, phase): the interval's start is
# the least time, the end marker's end the greatest; the instant and the
# start marker carry an end time the profiler does not read
MARKERS = [(997.0, 1009.0, 1), (1001.0, 5000.0, 0), (1002.0, 6000.0, 2), (None, 1012.5, 3)]
# a JS allocation of a thread with samples, past its samples
ALLOC = 1020.0


def only_markers_thread(th):
    """empties a thread's samples (only-markers)"""
    s = th["samples"]
    if "schema" in s:
        s["data"] = []
    else:
        for k in ("stack", "time", "timeDeltas", "weight", "threadCPUDelta"):
            if k in s:
                s[k] = []
        s["length"] = 0


def marker_thread(proto):
    """a thread like proto with no samples and the MARKERS"""
    th = json.loads(json.dumps(proto))
    th["name"], th["tid"] = "Markers", 99
    th.pop("jsAllocations", None)
    only_markers_thread(th)
    if gecko:
        th["markers"]["data"] = [[0, s, e, p, 0, None] for s, e, p in MARKERS]
    else:
        th["markers"] = {"length": len(MARKERS), "data": [None] * len(MARKERS), "name": [0] * len(MARKERS),
                         "startTime": [m[0] for m in MARKERS], "endTime": [m[1] for m in MARKERS],
                         "phase": [m[2] for m in MARKERS], "category": [0] * len(MARKERS)}
    return th


def thread(th, off):
    s = th["samples"]
    if "schema" in s:  # Gecko: rows, times from the process's own start
        k = s["schema"]["time"]
        for r in s["data"]:
            r[k] += SHIFT
        ts = [r[k] + off for r in s["data"]]
        if ts:
            stretch(ts[0], ts[-1])
    elif "time" in s:
        s["time"] = [t + SHIFT for t in s["time"]]
        if s["time"]:
            stretch(s["time"][0], s["time"][-1])
    elif s["timeDeltas"]:  # the profiler starts at the first delta, ends at their sum
        s["timeDeltas"][0] += SHIFT
        stretch(s["timeDeltas"][0], sum(s["timeDeltas"]))
    n = len(s["data"]) if "schema" in s else s["length"]
    m = th.get("markers")
    allocs = []
    if gecko:
        sc = m["schema"]
        rows = sorted(m["data"], key=lambda r: r[sc["endTime"]] or r[sc["startTime"]])
        for r in rows:
            st, et, ph, data = r[sc["startTime"]], r[sc["endTime"]], r[sc["phase"]], r[sc["data"]]
            if data and data.get("type") in ("JS allocation", "Native allocation"):
                allocs.append(st)
            elif not n:
                marker(st, et, ph, off)
    else:
        if not n:
            for i in range(m["length"]):
                marker(m["startTime"][i], m["endTime"][i], m["phase"][i], 0)
        for k in ("jsAllocations", "nativeAllocations"):
            if th.get(k):
                stretch(th[k]["time"][0], th[k]["time"][-1])
    if allocs:
        stretch(allocs[0] + off, allocs[-1] + off)


def marker(st, et, ph, off):
    if ph in (0, 2):
        stretch(st + off, st + off)
    elif ph == 3:
        stretch(et + off, et + off)
    else:
        stretch(min(st, et) + off, max(st, et) + off)


def alloc_on(th):
    """a JS allocation at ALLOC on thread th (which has samples)"""
    if gecko:
        th["markers"]["data"].append([0, ALLOC, None, 0, 0, {
            "type": "JS allocation", "className": "Object", "typeName": "JSObject", "coarseType": "Object",
            "size": 8, "inNursery": True}])
    else:
        th["jsAllocations"] = {"length": 2, "time": [1001.5, ALLOC], "className": [0, 0], "typeName": [0, 0],
                               "coarseType": [0, 0], "weight": [8, 8], "inNursery": [True, True],
                               "stack": [None, None]}


def far_marker_on(th):
    """a marker of a thread with samples far past them (not in the range)"""
    if gecko:
        th["markers"]["data"].append([0, 9000.0, None, 0, 0, None])
    else:
        m = json.loads(json.dumps(th["markers"]))
        for k, v in (("data", None), ("name", 0), ("startTime", 9000.0), ("endTime", None), ("phase", 0),
                     ("category", 0)):
            m[k].append(v)
        m["length"] += 1
        th["markers"] = m


if "markers" in modes or "only-markers" in modes:
    # Gecko: the thread of markers goes to the child process (its offset)
    owner = d["processes"][0] if gecko else d
    if "only-markers" in modes:
        for p in [d] + d.get("processes", []):
            for th in p["threads"]:
                only_markers_thread(th)
    else:
        alloc_on(d["threads"][0])
        far_marker_on(d["threads"][0])
    owner["threads"].append(marker_thread(owner["threads"][0]))


def proc(p, base):
    off = p["meta"]["startTime"] - base
    for th in p["threads"]:
        thread(th, off)
    for c in p.get("processes", []):
        proc(c, base)


proc(d, d["meta"]["startTime"])
if "range" in modes:
    d["meta"]["profilingStartTime"], d["meta"]["profilingEndTime"] = 999.5, 1017.125
    lo, hi = 999.5, 1017.125
json.dump(d, open(out, "w"))
print(round((hi - lo) * 10**6) if hi >= lo else "none")
