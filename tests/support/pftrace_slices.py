#!/usr/bin/env python3
"""pftrace_slices.py TRACE.pftrace NAME... — the track-event slices of a
Perfetto protobuf trace named NAME, with their begin and end on the wall
clock (ns since the epoch), as JSON lines {"name", "begin", "end"}, for
tests/interop/t_chrome_perfetto.sh, which judges where pcol puts V8's
samples by the trace's own events.

Written from Perfetto's protos and trace_processor's clock tracker, not
from pcol's code: a packet's timestamp is on its timestamp_clock_id, else
its sequence's TracePacketDefaults', else BOOTTIME (6); a sequence-scoped
clock (64 and on) is the one its sequence's latest ClockSnapshot defines:
incremental ones add each timestamp to the last value (from the
snapshot's), and a value becomes ns on the snapshot's builtin clock by
(value - the snapshot's value) x unit_multiplier_ns + that clock's
snapshot time; a builtin clock goes to REALTIME (1) through the latest
global ClockSnapshot holding both that is not after the time, else the
earliest.  A slice is a TYPE_SLICE_BEGIN event and the TYPE_SLICE_END
that closes it on the same track (track_uuid, else the sequence's
TrackEventDefaults', else the sequence); its name the begin's (name_iid's
EventName, else name)."""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pprof_times import pb_fields as fields  # the tests' one protobuf reader
from pftrace_v8_json import first, packets  # a field; the packets, compressed ones inflated


def main(src, names):
    snaps, seqs, open_, out = [], {}, {}, []
    evs = []
    for p in packets(open(src, "rb").read()):
        seq = first(p, 10, 0) or 0
        st = seqs.setdefault(seq, {"names": {}, "clocks": {}, "dclock": None, "track": None})
        if first(p, 41, 0) or (first(p, 13, 0) or 0) & 1:
            st["names"] = {}
        dflt = first(p, 59, 2)
        if dflt is not None:
            st["dclock"] = first(dflt, 58, 0)
            ted = first(dflt, 11, 2)
            st["track"] = first(ted, 11, 0) if ted is not None else None
        cs = first(p, 6, 2)
        if cs is not None:
            clocks = {}
            for f, wt, c in fields(cs):
                if f == 1 and wt == 2:
                    clocks[first(c, 1, 0) or 0] = (first(c, 2, 0) or 0, first(c, 3, 0) or 0, first(c, 4, 0) or 1)
            builtin = [k for k in clocks if k < 64]
            if any(k >= 64 for k in clocks) and builtin:
                b = builtin[0]
                for k, (v, inc, mult) in clocks.items():
                    if k >= 64:
                        st["clocks"][k] = {"val": v, "inc": inc, "mult": mult, "base": b, "bts": clocks[b][0], "bval": v}
            elif builtin:
                snaps.append({k: v[0] for k, v in clocks.items()})
        for f, wt, v in fields(p):
            if f == 12 and wt == 2:
                for g, w, e in fields(v):
                    if g == 2 and w == 2:
                        st["names"][first(e, 1, 0) or 0] = (first(e, 2, 2) or b"").decode()
        ts = first(p, 8, 0)
        te = first(p, 11, 2)
        if ts is None:
            continue
        clk = first(p, 58, 0)
        if clk is None:
            clk = st["dclock"] if st["dclock"] is not None else 6
        if clk >= 64:
            c = st["clocks"].get(clk)
            if c is None:
                continue
            if c["inc"]:
                c["val"] += ts
                ts = c["val"]
            clk, ts = c["base"], c["bts"] + (ts - c["bval"]) * c["mult"]
        if te is None:  # (a delta all the same: any packet's timestamp is)
            continue
        typ = first(te, 9, 0)
        track = first(te, 11, 0)
        track = ("t", track) if track else ("t", st["track"]) if st["track"] else ("s", seq)
        if typ == 1:
            nm = first(te, 23, 2)
            nm = nm.decode() if nm is not None else st["names"].get(first(te, 10, 0), "")
            open_.setdefault(track, []).append((nm, clk, ts))
        elif typ == 2 and open_.get(track):
            nm, bclk, bts = open_[track].pop()
            if nm in names:
                evs.append((nm, bclk, bts, clk, ts))

    def realtime(clk, t):
        if clk == 1:
            return t
        have = [s for s in snaps if clk in s and 1 in s]
        before = [s for s in have if s[clk] <= t]
        s = max(before, key=lambda s: s[clk]) if before else min(have, key=lambda s: s[clk])
        return t - s[clk] + s[1]

    for nm, bclk, bts, eclk, ets in evs:
        print(json.dumps({"name": nm, "begin": realtime(bclk, bts), "end": realtime(eclk, ets)}))


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2:]))
