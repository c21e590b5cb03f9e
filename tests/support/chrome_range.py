#!/usr/bin/env python3
"""Chrome traces cut by a time range, checked against the trace itself.

    chrome_range.py gen-events OUT.json SEED [SCALE]   nested X and B/E events on two
                                               threads (times x SCALE: a longer trace)
    chrome_range.py gen-samples OUT.json SEED  the samples/stackFrames form
    chrome_range.py gen-apart OUT.json         two CPU profiles of one trace (two
                                               renderers, pids 11 and 22, profiled
                                               1 s apart: f11 4 samples from
                                               startTime 5 s, f22 3 from 6 s)
    chrome_range.py expect TRACE.json FROM_NS TO_NS
        per function, the self and total time inside [FROM, TO) in ns, as
        DevTools' Performance panel and Perfetto count a window: each event
        (or each sample, until its thread's next one) clipped to the window;
        lines "NAME<TAB>SELF<TAB>TOTAL", sorted by name.  FROM/TO may be "-"
        (open).  Times count from the trace's earliest event (duration events)
        or earliest sample (samples form), as pcol's --from/--to do.
    chrome_range.py top FILE
        reads `pcol top --format tsv` (stdin) into the same lines.
    chrome_range.py to-speedscope TRACE.json OUT.json
        the duration events' stretches as a speedscope file, one "evented"
        profile a thread (unit milliseconds, times since the trace's
        earliest event), whose open/close events are the trace's: a range
        over it must count what it counts over the trace.

Nothing here reads pcol's output except `top`, which only reformats it: the
expected numbers come from the trace JSON alone."""
import json
import random
import sys

INF = float("inf")


def gen_events(seed, scale=1):
    """Two threads: tid 1 of X events, tid 2 of B/E pairs, each a forest of
    strictly nested events (integer microseconds, no two edges at one time),
    with gaps between the roots; names shared across threads and depths, a
    function recursing into itself on thread 2."""
    rnd = random.Random(seed)
    names = ["main", "parse", "lex", "eval", "gc", "io", "render"]
    events = []
    used = set()

    def fresh(lo, hi):
        for _ in range(1000):
            x = rnd.randint(lo, hi)
            if x not in used:
                used.add(x)
                return x
        return None

    def tree(tid, lo, hi, depth, form, parent):
        # children inside (lo, hi): split into disjoint pieces
        if depth > 3 or hi - lo < 40:
            return
        cuts = sorted({fresh(lo + 1, hi - 1) for _ in range(rnd.randint(4, 12))} - {None})
        for a, b in zip(cuts[0::2], cuts[1::2]):
            if b - a < 4:
                continue
            name = parent if (tid == 2 and depth == 2 and rnd.random() < 0.4) else rnd.choice(names)
            if form == "X":
                events.append({"ph": "X", "name": name, "pid": 7, "tid": tid, "ts": a, "dur": b - a})
            else:
                events.append({"ph": "B", "name": name, "pid": 7, "tid": tid, "ts": a})
                events.append({"ph": "E", "name": name, "pid": 7, "tid": tid, "ts": b})
            tree(tid, a, b, depth + 1, form, name)

    for tid, form in ((1, "X"), (2, "BE")):
        tree(tid, 1000, 100000, 0, form, "main")
    for e in events:
        e["ts"] *= scale
        if "dur" in e:
            e["dur"] *= scale
    rnd.shuffle(events)  # a trace's events come in any order
    return {"traceEvents": events}


def gen_samples(seed):
    rnd = random.Random(seed)
    frames = {"1": {"name": "main", "category": "js"}, "2": {"name": "f", "category": "js", "parent": "1"},
              "3": {"name": "g", "category": "js", "parent": "2"}, "4": {"name": "h", "category": "js", "parent": "1"}}
    samples = []
    for tid in (1, 2):
        t = 5000 + tid * 7
        for _ in range(40):
            samples.append({"ts": t, "tid": tid, "pid": 7, "sf": rnd.choice(list(frames))})
            t += rnd.randint(1, 900)
    return {"traceEvents": [{"ph": "M", "name": "thread_name", "pid": 7, "tid": 1, "args": {"name": "a"}}],
            "samples": samples, "stackFrames": frames}


def intervals(trace):
    """(thread, start_ns, end_ns, frames root first) of every event, and the
    origin: the stacks' intervals read from the events, not from stretches."""
    out = []
    if "samples" in trace:
        fr = trace["stackFrames"]
        by = {}
        for s in trace["samples"]:
            by.setdefault((s["pid"], s["tid"]), []).append(s)
        t0 = min(s["ts"] for s in trace["samples"]) * 1000
        for th, ss in by.items():
            for a, b in zip(ss, ss[1:]):
                chain, f = [], a["sf"]
                while f is not None:
                    chain.append(fr[f]["name"])
                    f = fr[f].get("parent")
                out.append((th, a["ts"] * 1000 - t0, b["ts"] * 1000 - t0, chain[::-1]))
        return out, "samples"
    ev = trace["traceEvents"]
    t0 = min(e["ts"] for e in ev) * 1000
    open_ = {}
    spans = []
    for e in sorted(ev, key=lambda e: (e["ts"], e["ph"] != "E")):
        th = (e["pid"], e["tid"])
        if e["ph"] == "X":
            spans.append((th, e["ts"] * 1000 - t0, (e["ts"] + e["dur"]) * 1000 - t0, e["name"]))
        elif e["ph"] == "B":
            open_.setdefault(th, []).append(e)
        elif e["ph"] == "E":
            b = open_[th].pop()
            assert b["name"] == e["name"]
            spans.append((th, b["ts"] * 1000 - t0, e["ts"] * 1000 - t0, e["name"]))
    return spans, "events"


def clip(a, b, lo, hi):
    return max(0, min(b, hi) - max(a, lo))


def union_len(iv, lo, hi):
    tot, end = 0, -INF
    for a, b in sorted((max(a, lo), min(b, hi)) for a, b in iv if min(b, hi) > max(a, lo)):
        if a > end:
            tot += b - a
            end = b
        elif b > end:
            tot += b - end
            end = b
    return tot


def expect(trace, lo, hi):
    spans, kind = intervals(trace)
    self_, total = {}, {}
    if kind == "samples":  # each sample's stack, clipped
        for th, a, b, chain in spans:
            c = clip(a, b, lo, hi)
            self_[chain[-1]] = self_.get(chain[-1], 0) + c
            for n in set(chain):
                total[n] = total.get(n, 0) + c
            for n in chain:
                self_.setdefault(n, 0)
        return self_, total
    # events: self = clipped event less its clipped children; total = the
    # union of a name's events on each thread (a recursion counts once)
    per = {}
    for th, a, b, n in spans:
        per.setdefault(th, []).append((a, b, n))
    for th, ss in per.items():
        for a, b, n in ss:
            kids = [(x, y) for x, y, _ in ss if a <= x and y <= b and (x, y) != (a, b)]
            direct = [(x, y) for x, y in kids if not any(p <= x and y <= q and (p, q) != (x, y) for p, q in kids)]
            s = clip(a, b, lo, hi) - sum(clip(x, y, lo, hi) for x, y in direct)
            self_[n] = self_.get(n, 0) + s
        for n in {n for _, _, n in ss}:
            total[n] = total.get(n, 0) + union_len([(a, b) for a, b, m in ss if m == n], lo, hi)
    return self_, total


def to_speedscope(trace):
    spans, kind = intervals(trace)
    assert kind == "events"
    frames, fix, profiles = [], {}, []
    for th in sorted({th for th, _, _, _ in spans}):
        edges = []  # (time, 0 close / 1 open, frame); no two edges at one time
        for t, a, b, n in spans:
            if t != th:
                continue
            if n not in fix:
                fix[n] = len(frames)
                frames.append({"name": n})
            edges += [(a, 1, fix[n]), (b, 0, fix[n])]
        edges.sort()
        profiles.append({"type": "evented", "name": "thread %d" % th[1], "unit": "milliseconds", "startValue": 0,
                         "endValue": edges[-1][0] / 1e6,
                         "events": [{"type": "O" if o else "C", "frame": f, "at": t / 1e6} for t, o, f in edges]})
    return {"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": frames},
            "profiles": profiles}


def gen_apart():
    ev = []
    for pid, start, n in ((11, 5000000, 4), (22, 6000000, 3)):
        ev.append({"ph": "P", "name": "Profile", "pid": pid, "tid": pid, "ts": start, "id": "0x1",
                   "args": {"data": {"startTime": start}}})
        nodes = [{"id": 1, "callFrame": {"functionName": "(root)"}},
                 {"id": 2, "parent": 1, "callFrame": {"functionName": "f%d" % pid, "url": "a.js"}}]
        ev.append({"ph": "P", "name": "ProfileChunk", "pid": pid, "tid": 99, "ts": start + 1, "id": "0x1",
                   "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": [2] * n},
                                     "timeDeltas": [100] + [1000] * (n - 1)}}})
    return {"traceEvents": ev}


def main():
    cmd = sys.argv[1]
    if cmd == "gen-apart":
        with open(sys.argv[2], "w") as f:
            json.dump(gen_apart(), f)
        return
    if cmd in ("gen-events", "gen-samples"):
        t = gen_events(int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1) \
            if cmd == "gen-events" else gen_samples(int(sys.argv[3]))
        with open(sys.argv[2], "w") as f:
            json.dump(t, f)
    elif cmd == "expect":
        with open(sys.argv[2]) as f:
            trace = json.load(f)
        lo = -INF if sys.argv[3] == "-" else int(sys.argv[3])
        hi = INF if sys.argv[4] == "-" else int(sys.argv[4])
        s, t = expect(trace, lo, hi)
        for n in sorted(t):
            if t[n]:
                print("%s\t%d\t%d" % (n, s.get(n, 0), t[n]))
    elif cmd == "to-speedscope":
        with open(sys.argv[2]) as f:
            trace = json.load(f)
        with open(sys.argv[3], "w") as f:
            json.dump(to_speedscope(trace), f)
    elif cmd == "top":
        rows = sys.stdin.read().splitlines()
        head = rows[0].split("\t")
        fi, ci, ni = head.index("flat"), head.index("cum"), head.index("name")
        out = []
        for r in rows[1:]:
            c = r.split("\t")
            if int(c[ci]):
                out.append("%s\t%s\t%s" % (c[ni], c[fi], c[ci]))
        print("\n".join(sorted(out)) if out else "", end="\n" if out else "")
    else:
        sys.exit("usage: see the docstring")


if __name__ == "__main__":
    main()
