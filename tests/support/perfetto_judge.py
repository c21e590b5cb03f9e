#!/usr/bin/env python3
"""perfetto_judge.py TRACE — reads a Perfetto trace of StackSample packets
(pcol unpack --to perfetto) by the wire format alone, as trace_processor's
ProtoTraceReader and StackSampleModule take it (none of pcol's code):
per trusted_packet_sequence_id, interned data is valid only after a packet
flagged SEQ_INCREMENTAL_STATE_CLEARED (1) on that sequence, and an iid
refers to an entry written earlier on the same sequence; a packet flagged
SEQ_NEEDS_INCREMENTAL_STATE (2) before that is an error here.  Strings must
be valid UTF-8.  Prints JSON: the samples (rows), the primary weights'
total, each thread's samples and name, each source's stream and
descriptors, the samples without a callstack, the leaf frames' primary weight (flat) and the frames'
cumulative weight (cum, a name once per stack), the pcs of the frames in a
mapping of a range (rel_pc back to the address, as trace_processor's
ToAddress), and the timestamps' span.  A pid that names two processes and a
rel_pc outside its mapping are errors."""
import json, os, sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pprof_times import pb_varint as varint, pb_fields as fields  # the tests' one protobuf reader


def msg(b):
    d = defaultdict(list)
    for f, wt, v in fields(b):
        d[f].append(v)
    return d


def one(d, f, default=None):
    return d[f][-1] if d.get(f) else default


def text(v):
    return bytes(v).decode("utf-8")  # raises on invalid UTF-8


def packed(vals):
    out = []
    for v in vals:
        if isinstance(v, int):
            out.append(v)
        else:
            i = 0
            while i < len(v):
                x, i = varint(v, i)
                out.append(x)
    return out


def desc(b):
    d = msg(b)
    units = {1: "nanoseconds", 2: "cycles", 3: "instructions", 4: "bytes", 9: "count"}
    u = units.get(one(d, 3), None) if d.get(3) else (text(one(d, 4)) if d.get(4) else None)
    return [text(one(d, 2, b"")), u]


data = open(sys.argv[1], "rb").read()
seqs = {}
threads, procs, tnames = {}, {}, {}
rows, total, times, no_stack = 0, 0, [], 0
by_thread = defaultdict(int)
flat, cum = defaultdict(int), defaultdict(int)
pcs = set()  # the pcs of the frames in a mapping of a range
sources = {}
for f, wt, p in fields(data):
    if f != 1 or wt != 2:
        raise SystemExit("Trace holds field %d" % f)
    d = msg(p)
    ts = one(d, 8)
    if ts is not None:
        times.append(ts)
    seq = one(d, 10, 0)
    flags = one(d, 13, 0)
    if flags & 1:
        seqs[seq] = {"s": defaultdict(dict), "defaults": None}
    st = seqs.get(seq)
    if flags & 2 and st is None:
        raise SystemExit("sequence %d: a packet needs incremental state before it was cleared" % seq)
    if d.get(59):
        st["defaults"] = msg(one(d, 59))
    if d.get(12):
        for k, vals in msg(one(d, 12)).items():
            for v in vals:
                e = msg(v)
                st["s"][k][one(e, 1)] = e
    if d.get(60):
        t = msg(one(d, 60))
        if t.get(4):
            th = msg(one(t, 4))
            tnames[one(th, 2)] = text(one(th, 5, b""))
        if t.get(3):
            pr = msg(one(t, 3))
            # a pid names one process: trace_processor merges the process
            # tracks of one pid, so a second name puts one process's threads
            # in another's (rd11 F1: a made-up pid that was a real one)
            pn = text(one(pr, 6, b""))
            if procs.get(one(pr, 1), pn) != pn:
                raise SystemExit("pid %d names two processes: %r and %r" % (one(pr, 1), procs[one(pr, 1)], pn))
            procs[one(pr, 1)] = pn
    if not d.get(135):
        continue
    ss = msg(one(d, 135))
    dflt = msg(one(st["defaults"], 100)) if st["defaults"] and st["defaults"].get(100) else None
    src = text(one(dflt, 1, b"")) if dflt else ""
    sources.setdefault(seq, {"source": src,
                             "primary": desc(one(dflt, 2)) if dflt and dflt.get(2) else None,
                             "followers": [desc(v) for v in dflt.get(3, [])] if dflt else []})
    tc = msg(one(ss, 1)) if ss.get(1) else {}
    pid, tid = one(tc, 2), one(tc, 3)
    w = one(ss, 11, 0)
    rows += 1
    total += w
    by_thread["%s/%s" % (pid, tid)] += 1
    names = []
    no_stack += not ss.get(6)
    if ss.get(6):
        cs = st["s"][7].get(one(ss, 6))
        if cs is None:
            raise SystemExit("callstack iid %d not interned on sequence %d" % (one(ss, 6), seq))
        for fid in packed(cs.get(2, [])):
            fr = st["s"][6].get(fid)
            if fr is None:
                raise SystemExit("frame iid %d not interned" % fid)
            fn = one(fr, 2, 0)
            if fn and fn not in st["s"][5]:
                raise SystemExit("function name iid %d not interned" % fn)
            if one(fr, 3, 0) and one(fr, 3) not in st["s"][19]:
                raise SystemExit("mapping iid %d not interned" % one(fr, 3))
            mp = st["s"][19].get(one(fr, 3, 0))
            if mp and one(mp, 5, 0) > one(mp, 4, 0):
                # rel_pc is the pc relative to the mapping (trace_processor's
                # ToRelativePc: pc - start + exact_offset): within its size,
                # and back to the pc by ToAddress
                start, end, off = one(mp, 4, 0), one(mp, 5), one(mp, 8, 0)
                rel = one(fr, 4, 0)
                if not off <= rel < off + end - start:
                    raise SystemExit("frame iid %d: rel_pc %#x outside its mapping [%#x, %#x) at offset %#x"
                                     % (fid, rel, start, end, off))
                pcs.add(rel - off + start)
            if one(fr, 5) is not None and one(fr, 5) not in st["s"][18]:
                raise SystemExit("source path iid %d not interned" % one(fr, 5))
            names.append(text(one(st["s"][5][fn], 2, b"")) if fn else "")
    if names:
        flat[names[-1]] += w
        for n in set(names):
            cum[n] += w
print(json.dumps({"rows": rows, "no_stack": no_stack, "total": total, "by_thread": by_thread,
                  "thread_names": {str(k): v for k, v in tnames.items()},
                  "process_names": {str(k): v for k, v in procs.items()},
                  "sources": list(sources.values()), "flat": flat, "cum": cum, "pcs": sorted(pcs),
                  "first": min(times) if times else None, "last": max(times) if times else None}))
