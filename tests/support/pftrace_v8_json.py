#!/usr/bin/env python3
"""pftrace_v8_json.py TRACE.pftrace OUT.json — the V8 CPU profile events
of a Perfetto protobuf trace written as the Chrome JSON trace that holds
the same events, for the tests that compare pcol's reading of the two
(tests/cli/t_perfetto.sh, tests/interop/t_chrome_perfetto.sh).

Written from Perfetto's protos, not from pcol's code: each TrackEvent whose
legacy_event has phase 'P' and whose name (name_iid's EventName, name, or
the legacy event's name_iid) is "Profile" or "ProfileChunk" becomes
{"ph": "P", "name", "id": "0x<unscoped_id>", "pid", "tid", "ts", "args":
{"data": <its "data" annotation's legacy_json_value>}}, its pid and tid
the legacy event's overrides, else its track's (track_uuid, else the
sequence's TrackEventDefaults) when that is a thread's TrackDescriptor,
else the sequence's thread (its last ThreadDescriptor or thread
TrackDescriptor), as trace_processor places a legacy event; ts counts the
events in trace order (the order Chrome's JSON keeps a profile's chunks
in).  The threads' and processes' names of the descriptors become "M"
events (thread_name, process_name)."""
import json, os, sys, zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pprof_times import pb_fields as fields  # the tests' one protobuf reader


def first(b, num, wt=None):
    for f, w, v in fields(b):
        if f == num and (wt is None or w == wt):
            return v
    return None


def s32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def packets(trace):
    for f, wt, v in fields(trace):
        if f != 1 or wt != 2:
            continue
        z = first(v, 50, 2)  # compressed_packets
        if z is not None:
            yield from packets(zlib.decompress(z))
        yield v


def thread_of(td):
    pid, tid = first(td, 1, 0), first(td, 2, 0)
    return (None if pid is None else s32(pid), None if tid is None else s32(tid))


def main(src, out):
    trace = open(src, "rb").read()
    tracks, tnames, pnames = {}, {}, {}
    for p in packets(trace):  # thread tracks and names first, as any packet may use them
        td = first(p, 60, 2)
        if td is None:
            continue
        uuid, th, pr = first(td, 1, 0), first(td, 4, 2), first(td, 3, 2)
        if th is not None:
            pid, tid = thread_of(th)
            if uuid:
                tracks[uuid] = (pid, tid)
            nm = first(th, 5, 2)
            if nm and pid is not None and tid is not None:
                tnames[(pid, tid)] = nm.decode()
        if pr is not None:
            pid, nm = first(pr, 1, 0), first(pr, 6, 2)
            if pid is not None and nm:
                pnames[s32(pid)] = nm.decode()
    seqs, events = {}, []
    for p in packets(trace):
        seq = first(p, 10, 0) or 0
        st = seqs.setdefault(seq, {"names": {}, "ann": {}, "track": 0, "thread": (None, None)})
        flags = first(p, 13, 0) or 0
        if first(p, 41, 0) or flags & 1:
            st["names"], st["ann"] = {}, {}
        dflt = first(p, 59, 2)
        if dflt is not None:
            ted = first(dflt, 11, 2)
            st["track"] = (first(ted, 11, 0) or 0) if ted is not None else 0
        for f, wt, v in fields(p):
            if f == 12 and wt == 2:  # interned_data
                for g, w, e in fields(v):
                    if g in (2, 3) and w == 2:
                        (st["names"] if g == 2 else st["ann"])[first(e, 1, 0) or 0] = (first(e, 2, 2) or b"").decode()
            if f == 44 and wt == 2:  # thread_descriptor
                st["thread"] = thread_of(v)
            if f == 60 and wt == 2 and first(v, 4, 2) is not None:
                st["thread"] = thread_of(first(v, 4, 2))
        te = first(p, 11, 2)
        if te is None:
            continue
        leg = first(te, 6, 2)
        if leg is None or first(leg, 2, 0) != ord("P"):
            continue
        name_iid, name = first(te, 10, 0), first(te, 23, 2)
        if name_iid or name is None:
            name = st["names"].get(name_iid or first(leg, 1, 0) or 0)
        else:
            name = name.decode()
        if name not in ("Profile", "ProfileChunk"):
            continue
        data = None
        for f, wt, v in fields(te):
            if f == 4 and wt == 2 and data is None:
                an = first(v, 10, 2)
                an = st["ann"].get(first(v, 1, 0)) if first(v, 1, 0) else (an.decode() if an else None)
                js = first(v, 9, 2)
                if an == "data" and js is not None:
                    data = json.loads(js)
        if data is None:
            continue
        track = first(te, 11, 0)
        if track is None:
            track = st["track"]
        pid, tid = tracks.get(track, st["thread"]) if track else st["thread"]
        po, to = first(leg, 18, 0), first(leg, 19, 0)
        pid = s32(po) if po is not None else pid
        tid = s32(to) if to is not None else tid
        events.append({"ph": "P", "cat": "disabled-by-default-v8.cpu_profiler", "name": name,
                       "id": "0x%x" % first(leg, 6, 0), "pid": pid, "tid": tid, "ts": len(events),
                       "args": {"data": data}})
    for (pid, tid), nm in sorted(tnames.items()):
        events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "ts": 0, "args": {"name": nm}})
    for pid, nm in sorted(pnames.items()):
        events.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "ts": 0, "args": {"name": nm}})
    json.dump({"traceEvents": events}, open(out, "w"))
    print(sum(1 for e in events if e["ph"] == "P"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
