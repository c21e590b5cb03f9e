#!/usr/bin/env python3
"""chrome_one.py — one CPU profile of a Chrome trace, alone, for judging pcol
against speedscope (tests/interop/t_import_judged.sh).

  chrome_one.py TRACE OUT.json

Writes OUT.json: the trace's metadata events and the Profile/ProfileChunk
events (or the CpuProfile event) of its profile with the most samples, and
prints "SAMPLES_OF_IT SAMPLES_OF_ALL" (every profile's chunks' samples:
what `pcol top --value samples` must add up to).  speedscope pairs chunks
with a Profile event by id alone, and ids repeat across processes, hence the
copy.  In the copy:
- an anonymous function without a line is named "(anonymous FILE)" as
  DevTools and pcol name it (speedscope: "(anonymous FILE:undefined)",
  doc/mappings.md §10);
- every event has a "cat" (speedscope tells a trace by its first event's
  pid, tid, ph and cat; `node` and Rust tracers write none);
- a sample of a node that is in no chunk (a chunk the trace lost) is taken
  out, its time delta added to the next sample's: speedscope skips such a
  sample, so the stack before it lasts until the next one (pcol keeps it
  with no stack and says so; the judge compares what both show).
"""
import json, sys


def key_of(e, i):
    if e.get("name") == "CpuProfile":
        return (e.get("pid"), "CpuProfile %d" % i)
    return (e.get("pid"), e.get("id"))


def cpu_profile(e):
    return (e.get("args") or {}).get("data", {}).get("cpuProfile") or {}


def main():
    d = json.load(open(sys.argv[1]))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    count = {}
    for i, e in enumerate(ev):
        if e.get("name") in ("ProfileChunk", "CpuProfile"):
            k = key_of(e, i)
            count[k] = count.get(k, 0) + len(cpu_profile(e).get("samples", []))
    best = max(count, key=count.get)
    keep = [e for i, e in enumerate(ev) if e.get("ph") == "M" or
            (e.get("name") in ("Profile", "ProfileChunk", "CpuProfile") and key_of(e, i) == best)]
    ids = {n.get("id") for e in keep for n in cpu_profile(e).get("nodes", [])}
    carry = 0  # the time of samples taken out, for the next sample kept
    for e in keep:
        cp = cpu_profile(e)
        for n in cp.get("nodes", []):
            cf = n.get("callFrame", {})
            if not cf.get("functionName") and (cf.get("lineNumber") is None or cf.get("lineNumber") < 0):
                url = cf.get("url") or ""
                cf["functionName"] = "(anonymous %s)" % url.rsplit("/", 1)[-1] if url else "(anonymous)"
        if "samples" not in cp:
            continue
        deltas = (e["args"]["data"].get("timeDeltas") or cp.get("timeDeltas") or [])
        s2, d2 = [], []
        for s, dt in zip(cp["samples"], deltas):
            if s not in ids:
                carry += dt
                continue
            s2.append(s)
            d2.append(dt + carry)
            carry = 0
        cp["samples"] = s2
        if "timeDeltas" in e["args"]["data"]:
            e["args"]["data"]["timeDeltas"] = d2
        else:
            cp["timeDeltas"] = d2
    for e in keep:
        e.setdefault("cat", "")
    json.dump({"traceEvents": keep}, open(sys.argv[2], "w"))
    print(count[best], sum(count.values()))


main()
