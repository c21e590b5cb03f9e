#!/usr/bin/env python3
"""Judges pcol's import of a JFR recording by the JDK's own `jfr` tool.

usage: jfr_judge.py JFR.json PCOL.json JFR-TEXT TOP-DIR [JFR-ALLOC-TEXT [SETTINGS]]

JFR.json: `jfr print --json --events <the six sampled types> FILE`; PCOL.json:
`pcol cat FILE --table all --format json`; JFR-TEXT: `jfr print --events
jdk.ExecutionSample FILE` (the frames as the JDK prints them); TOP-DIR holds
`pcol top FILE --source N --format tsv` of each source as top-N.tsv;
JFR-ALLOC-TEXT: `jfr print --events <the types with an objectClass> FILE`,
whose `objectClass = NAME` lines, in the order of the JSON's events, say
how `jfr print` names each class (`int[]` for the JSON's `[I`).
SETTINGS: `java Settings FILE` (tests/interop/jfr/Settings.java): the
"period" settings of jdk.ExecutionSample as the JDK's reader gives them,
"EPOCH_NS<TAB>VALUE" a line; each execution sample's `cpu` is then the
period in force at its time (the latest setting at or before it, before
the first the first), when every sample has one that is a whole number of
milliseconds; else (and without settings) no sample has a `cpu`, and the
source's pprof.period is that period when it is one for all samples.

Per event type, every sample of the JDK must be one of pcol's with the same
time (epoch ns: pprof.time_nanos + time_ns), thread (name and Java id),
whole stack (each frame's `pkg.Class.method`, line, bytecode index and
frame type: Interpreted, JIT compiled, Inlined or Native), thread state,
allocated class, byte values and the samples an event stands for, as
multisets; so the counts per event type
and per thread and each leaf frame's self count are equal.  The leaf
frames' names, as `jfr print` prints them without the argument list, are
those of pcol's top rows of the execution samples, with the same flat counts.
Prints what differs; exit 1 if anything does.
"""
import calendar
import collections
import json
import os
import re
import sys

KINDS = {
    "jdk.ExecutionSample": [],
    "jdk.NativeMethodSample": [],
    "jdk.CPUTimeSample": [("samplingPeriod", "cpu-time")],  # JDK 25: not cpu (a second measure)
    "jdk.ObjectAllocationSample": [("weight", "allocation_weight")],
    "jdk.ObjectAllocationInNewTLAB": [("allocationSize", "allocationSize"), ("tlabSize", "tlabSize")],
    "jdk.ObjectAllocationOutsideTLAB": [("allocationSize", "allocationSize")],
    "profiler.WallClockSample": [],  # async-profiler's
    "profiler.Malloc": [("size", "size")],
    # lock and park events: each one contention, its duration the delay
    "jdk.JavaMonitorEnter": [("duration", "delay")],
    "jdk.ThreadPark": [("duration", "delay")],
}
# the class field of an event read as a label (the allocations' objectClass
# by class_names)
CLASS_LABEL = {"jdk.JavaMonitorEnter": ("monitorClass", "monitor_class"),
               "jdk.ThreadPark": ("parkedClass", "parked_class")}
# how many samples an event is (1 when absent)
COUNT = {"profiler.WallClockSample": "samples"}


def epoch_ns(s):
    """2026-11-24T06:09:50.451043642Z (or +HH:MM) -> ns since the epoch"""
    m = re.match(r"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$", s)
    if not m:
        raise ValueError("time %r" % s)
    y, mo, d, h, mi, se, frac, z = m.groups()
    t = calendar.timegm((int(y), int(mo), int(d), int(h), int(mi), int(se)))
    if z != "Z":
        off = int(z[1:3]) * 3600 + int(z[4:6]) * 60
        t -= off if z[0] == "+" else -off
    return t * 10**9 + int((frac or "0").ljust(9, "0")[:9])


def duration_ns(s):
    """an ISO-8601 duration as jfr prints one (PT0.01S) -> ns"""
    m = re.match(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?$", s)
    if not m:
        raise ValueError("duration %r" % s)
    h, mi, se, frac = m.groups()
    return ((int(h or 0) * 60 + int(mi or 0)) * 60 + int(se or 0)) * 10**9 + int((frac or "0").ljust(9, "0")[:9])


def jclass(name):
    """a class's name as `jfr print` prints it (ValueFormatter.formatClass):
    '.' for '/', an array's descriptor as its type ([I int[])"""
    d = len(name) - len(name.lstrip("["))
    e = name[d:]
    prim = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int", "J": "long", "S": "short",
            "Z": "boolean"}
    if d and len(e) == 1 and e in prim:
        word = prim[e]
    elif d and len(e) > 2 and e[0] == "L" and e[-1] == ";":
        word = e[1:-1]
    else:
        word, d = name, 0
    return word.replace("/", ".") + "[]" * d


def jname(method):
    """`jfr print`'s name of a frame: the class name (also when empty, as
    async-profiler writes native frames' classes) + "." + the method name"""
    t = method.get("type")
    cls = (t.get("name") or "").replace("/", ".") + "." if t is not None else ""
    return cls + (method.get("name") or "")


def class_names(doc, alloc_text):
    """The JSON's objectClass names -> `jfr print`'s text for them, from the
    two outputs' events in the same order (one name per JSON name)."""
    if alloc_text is None:
        return None
    shown = re.findall(r"\n\s*objectClass = (.*?)(?: \(classLoader = .*\))?\n", open(alloc_text).read())
    names = [(v["objectClass"] or {}).get("name", "") for ev in doc["recording"]["events"]
             for v in [ev["values"]] if ev["type"] in KINDS and "objectClass" in v]
    if len(shown) != len(names):
        raise SystemExit("FAIL jfr print shows %d objectClass values, --json %d" % (len(shown), len(names)))
    out = {}
    for j, t in zip(names, shown):
        if out.setdefault(j, t) != t:
            raise SystemExit("FAIL jfr print names class %r both %r and %r" % (j, out[j], t))
    return out


def period_ns(v):
    """a period setting as the JDK's sampler takes it, in ns (None: none)"""
    m = re.match(r"^\s*\+?(\d+)\s*(ns|us|ms|s|m|h|d)$", v)
    if not m:
        return None
    ns = int(m.group(1)) * {"ns": 1, "us": 10**3, "ms": 10**6, "s": 10**9, "m": 60 * 10**9,
                            "h": 3600 * 10**9, "d": 86400 * 10**9}[m.group(2)]
    return ns if ns > 0 and ns % 10**6 == 0 and ns < 2**63 else None


def ap_settings(settings):
    """async-profiler's settings (Settings.java's "ap" lines): the first of each name"""
    ap = {}
    for line in open(settings) if settings else []:
        f = line.rstrip("\n").split("\t")
        if f[0] == "ap" and len(f) == 3:
            ap.setdefault(f[1], f[2])
    return ap


def ap_values(want, settings):
    """async-profiler's samples with their time (its engines: cpu, itimer,
    ctimer an interval of CPU time, 0 their 10 ms default; wall of wall
    time; the wall-clock samples the "wall" interval, else with event=wall
    the interval): (period of the execution samples or None, its type)"""
    ap = ap_settings(settings)
    ev, iv = ap.get("event"), ap.get("interval")
    iv = int(iv) if iv is not None and iv.isdigit() else None
    per, vt = None, None
    if ev == "wall" and iv == 0:
        iv = 5 * 10**7  # (interval 0: its wall-clock engine's default, 50 ms)
    if ev in ("cpu", "itimer", "ctimer") and iv is not None:
        per, vt = iv or 10**7, "cpu"
    elif ev == "wall" and iv:
        per, vt = iv, "wall"
    if per and want.get("jdk.ExecutionSample"):
        want["jdk.ExecutionSample"] = [x[:4] + (tuple(sorted(x[4] + ((vt, per),))),)
                                       for x in want.get("jdk.ExecutionSample", [])]
    w = ap.get("wall")
    w = int(w) if w is not None and w.isdigit() and int(w) > 0 else (iv if ev == "wall" and iv else None)
    if w and want.get("profiler.WallClockSample"):
        want["profiler.WallClockSample"] = [x[:4] + (tuple(sorted(x[4] + (("wall", dict(x[4])["samples"] * w),))),)
                                            for x in want["profiler.WallClockSample"]]
    return per, vt


def with_periods(samples, settings):
    """the execution samples with their cpu: the period in force"""
    sets = []
    for line in open(settings) if settings else []:
        t, v = line.rstrip("\n").split("\t", 1)
        if t == "ap":
            continue
        sets.append((int(t), period_ns(v)))
    sets.sort(key=lambda x: x[0])  # (stable: file order among ties)
    if not sets:
        return samples, None
    pers = []
    for x in samples:
        p = sets[0][1]
        for t, q in sets:
            if t <= x[0]:
                p = q
        pers.append(p)
    if None in pers:
        return samples, None
    out = [x[:4] + (tuple(sorted(x[4] + (("cpu", p),))),) for x, p in zip(samples, pers)]
    return out, (pers[0] if len(set(pers)) == 1 else 0)


def jfr_samples(path, alloc_text=None):
    doc = json.load(open(path))
    cls = class_names(doc, alloc_text)
    out = collections.defaultdict(list)
    visible = collections.Counter()  # execution samples' leaf frames that `jfr print` shows
    for ev in doc["recording"]["events"]:
        kind, v = ev["type"], ev["values"]
        if kind not in KINDS:
            continue
        th = v.get("sampledThread") or v.get("eventThread") or {}
        frames = tuple(
            (jname(f["method"]), f["lineNumber"] if f["lineNumber"] >= 0 else None,
             f["bytecodeIndex"] if f["bytecodeIndex"] >= 0 else None, f["type"])
            for f in ((v.get("stackTrace") or {}).get("frames") or []))
        shown = [jname(f["method"]) for f in ((v.get("stackTrace") or {}).get("frames") or [])
                 if not f["method"].get("hidden")]
        if kind == "jdk.ExecutionSample" and shown:
            visible[shown[0]] += 1
        extra = []
        if "state" in v:
            extra.append(("thread_state", v["state"]))
        if "objectClass" in v:
            name = (v["objectClass"] or {}).get("name", "")
            extra.append(("object_class", cls[name] if cls is not None else name.replace("/", ".")))
        for f, vt in KINDS[kind]:
            extra.append((vt, duration_ns(v[f]) if isinstance(v[f], str) else v[f]))
        if kind in CLASS_LABEL:
            extra.append(("contentions", 1))
            f, lab = CLASS_LABEL[kind]
            if (v.get(f) or {}).get("name"):
                extra.append((lab, jclass(v[f]["name"])))
        extra.append(("samples", v[COUNT[kind]] if kind in COUNT else 1))
        # javaName, else osName: a virtual thread's javaName "" is its name
        # (jfr print shows ""), its osName null
        name = th.get("javaName") if th.get("javaName") is not None else th.get("osName")
        out[kind].append((epoch_ns(v["startTime"]), name,
                          th.get("javaThreadId"), frames, tuple(sorted(extra))))
    return out, visible


def pcol_samples(path):
    t = json.load(open(path))
    src = {s["source_id"]: s["source_uri"].rsplit(": ", 1)[-1] for s in t["sources"]}
    start = {m["source_id"]: int(m["value"]) for m in t["meta"] if m["key"] == "pprof.time_nanos"}
    fname = {f["function_id"]: f["name"] for f in t["functions"]}
    mapname = {m["mapping_id"]: m["filename"] for m in t["mappings"]}
    lmap = {l["location_id"]: l["mapping_id"] for l in t["locations"]}
    lines = collections.defaultdict(list)
    for l in t["location_lines"]:
        lines[l["location_id"]].append((l["depth"], l))
    locs = collections.defaultdict(list)
    for r in t["sample_locations"]:
        locs[r["sample_id"]].append((r["depth"], r["location_id"]))
    labels = collections.defaultdict(dict)
    for r in t["sample_labels"]:
        labels[r["sample_id"]][r["key"]] = r["str"] if r["str"] is not None else r["num"]
    values = collections.defaultdict(dict)
    for r in t["sample_values"]:
        values[r["sample_id"]][r["type"]] = r["value"]
    out = collections.defaultdict(list)
    for s in t["samples"]:
        sid, kind = s["sample_id"], src[s["source_id"]]
        frames = []
        for _, loc in sorted(locs[sid]):
            chain = [l for _, l in sorted(lines[loc], key=lambda x: x[0])]
            for i, l in enumerate(chain):
                ftype = mapname.get(lmap[loc]) if i == len(chain) - 1 else "Inlined"
                frames.append((fname[l["function_id"]], l["line"], l["column"], ftype))
        lab = labels[sid]
        extra = [(k, lab[k]) for k in ("thread_state", "object_class", "monitor_class", "parked_class") if k in lab]
        extra += list(values[sid].items())
        out[kind].append((start[s["source_id"]] + s["time_ns"], lab.get("thread_name"),
                          lab.get("thread_id"), tuple(frames), tuple(sorted(extra))))
    return out


def main():
    jfr_json, pcol_json, jfr_text, topdir = sys.argv[1:5]
    alloc_text = sys.argv[5] if len(sys.argv) > 5 else None
    settings = sys.argv[6] if len(sys.argv) > 6 else None
    (want, visible), got = jfr_samples(jfr_json, alloc_text), pcol_samples(pcol_json)
    bad = 0
    ap_per, ap_vt = ap_values(want, settings)  # (the wall-clock samples' too)
    if "jdk.ExecutionSample" in want:
        want["jdk.ExecutionSample"], one = with_periods(want["jdk.ExecutionSample"], settings)
        if ap_per:
            one = ap_per
        t = json.load(open(pcol_json))
        n = next((s["source_id"] for s in t["sources"] if s["source_uri"].endswith(": jdk.ExecutionSample")), 0)
        meta = {m["key"]: m["value"] for m in t["meta"] if m["source_id"] == n}
        per = (meta.get("pprof.period"), meta.get("pprof.period_type.type"), meta.get("pprof.period_type.unit"))
        wper = (str(one), ap_vt or "cpu", "nanoseconds") if one else (None, None, None)
        if per != wper:
            bad += 1
            print("FAIL jdk.ExecutionSample: pcol's period %s, the settings' %s" % (per, wper))
        else:
            print("ok jdk.ExecutionSample period: %s" % (
                "%d ns, each sample's cpu" % one if one else
                "changed, none; each sample's cpu the period in force at its time" if one == 0 else
                "none, no cpu (no period settings)"))
        # `pcol top` of the recording without --value: the execution
        # samples' CPU (JMC's Method Profiling, async-profiler's converter),
        # jfr's samples x the period in force, also beside jdk.CPUTimeSample
        # (whose cpu-time, a second measure of the same time, counts 0
        # there); `--value cpu-time`: jfr's CPU-time samples' samplingPeriod
        cpu = [dict(x[4]).get(ap_vt or "cpu") for x in want["jdk.ExecutionSample"]]
        dflt = os.path.join(topdir, "default.json")
        ct = os.path.join(topdir, "cpu-time.json")
        if os.path.exists(ct) and want.get("jdk.CPUTimeSample"):
            top = json.load(open(ct))
            w = ("cpu-time", "nanoseconds", sum(dict(x[4])["cpu-time"] for x in want["jdk.CPUTimeSample"]))
            g = (top["type"], top["unit"], top["total"])
            if g != w:
                bad += 1
                print("FAIL pcol top --value cpu-time: %s, jfr's CPU-time samples' samplingPeriod: %s" % (g, w))
            else:
                print("ok pcol top --value cpu-time: %s %s %s (%d CPU-time samples)" % (
                    w + (len(want["jdk.CPUTimeSample"]),)))
        if os.path.exists(dflt) and cpu and None not in cpu:
            top = json.load(open(dflt))
            w = (ap_vt or "cpu", "nanoseconds", sum(cpu))
            g = (top["type"], top["unit"], top["total"])
            if g != w:
                bad += 1
                print("FAIL pcol top (default value): %s, jfr's execution samples x the period: %s" % (g, w))
            else:
                print("ok pcol top (default value): %s %s %s (%d execution samples)" % (w[0], w[1], w[2], len(cpu)))
    for kind in sorted(set(want) | set(got)):
        a, b = collections.Counter(want[kind]), collections.Counter(got[kind])
        if a != b:
            bad += 1
            print("FAIL %s: %d samples in jfr, %d in pcol; %d differ" % (
                kind, len(want[kind]), len(got[kind]), sum(((a - b) + (b - a)).values())))
            for x in list((a - b).elements())[:3]:
                print("  only jfr:  %r" % (x,))
            for x in list((b - a).elements())[:3]:
                print("  only pcol: %r" % (x,))
        else:
            threads = collections.Counter(str(x[1]) for x in want[kind])
            print("ok %s: %d samples, equal one by one (time, thread, stack, values); threads %s" % (
                kind, len(want[kind]), dict(sorted(threads.items()))))
    if not want.get("jdk.ExecutionSample"):
        return 1 if bad else 0
    # the leaf frames as `jfr print` names them (it hides hidden frames, such
    # as lambda forms: their first frame not hidden) are named as above
    leaf = collections.Counter()
    text = open(jfr_text).read().split("\njdk.ExecutionSample {")
    for ev in text:
        m = re.search(r"stackTrace = \[\n\s+(.*?)\n", ev)
        if m and m.group(1).strip() == "]":  # every frame hidden: none shown (as visible counts it)
            leaf[None] += 1
        elif m:
            # "NAME(PARAMS) line: N": the last argument list off (a C++
            # name of async-profiler's native frames has '(' in it:
            # PostRuntimeDispatch<..., (AccessInternal::BarrierType)2, ...>)
            leaf[re.sub(r"\([^()]*\)$", "", re.sub(r"\s+line: .*$", "", m.group(1).strip()))] += 1
        elif "stackTrace = " in ev:
            leaf[None] += 1
    srcs = json.load(open(pcol_json))["sources"]
    n = next((s["source_id"] for s in srcs if s["source_uri"].endswith(": jdk.ExecutionSample")), 0)
    top = collections.Counter()
    rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(topdir, "top-%d.tsv" % n))]
    col = {c: i for i, c in enumerate(rows[0])}
    for f in rows[1:]:
        if int(f[col["flat"]]):
            top[f[col["name"]]] += int(f[col["flat"]])
    leaf.pop(None, None)
    if leaf != visible or not leaf:
        bad += 1
        print("FAIL jfr print's leaf frames are not named as pkg.Class.method of --json:")
        for k in sorted(set(leaf) | set(visible)):
            if leaf[k] != visible[k]:
                print("  %s: jfr print %d, --json %d" % (k, leaf[k], visible[k]))
    else:
        print("ok jfr print: %d leaf names of %d samples as the --json frames name them" % (len(leaf), sum(leaf.values())))
    # pcol top's flat per name: each leaf frame's self count
    self_count = collections.Counter(x[3][0][0] for x in want["jdk.ExecutionSample"] if x[3])
    if self_count != top:
        bad += 1
        print("FAIL pcol top (execution samples) flat by name differs from jfr's leaf frames:")
        for k in sorted(set(self_count) | set(top)):
            if self_count[k] != top[k]:
                print("  %s: jfr %d, pcol %d" % (k, self_count[k], top[k]))
    else:
        print("ok pcol top: %d names, flat = jfr's leaf frame self counts (%d samples)" % (len(top), sum(top.values())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
