#!/usr/bin/env python3
"""v8_trace_gen.py OUT.json [apart] — a Chrome JSON trace of three V8 CPU profiles
(Profile/ProfileChunk events, as Chromium writes them) on one trace clock,
for the span of a trace's profiles and of the exports of a range
(tests/cli/t_trace_span.sh, tests/interop/t_pprof_header.sh): pid 1 over
[0, 1.5 s), pid 2 over [0.3 s, 1.1 s), pid 3 over [1 s, 1.4 s) after the
first one's startTime (5 s on V8's clock), each sampled every 1 ms (a<pid>
and b<pid> by turns, the first sample at its startTime), its endTime one
sample past its last.  By the DevTools rule (each sample lasts until the
next, the last one 0) every profile is busy all through its span but its
last 1 ms.  With "apart", profiles that start apart and leave gaps,
the second in file order the last in time: pid 1 over [0, 0.2 s), pid 2
over [5 s, 5.3 s), pid 3 over [0.5 s, 0.8 s) (a range can start where no
profile's window starts, and miss the middle part)."""
import json, sys

T = 5000000  # µs


def main():
    ev = []
    spans = ((1, 0, 1500000), (2, 300000, 800000), (3, 1000000, 400000))
    if sys.argv[2:] == ["apart"]:
        spans = ((1, 0, 200000), (2, 5000000, 300000), (3, 500000, 300000))
    for pid, start, length in spans:
        n = length // 1000
        frame = lambda name, line: {"functionName": name, "scriptId": 1, "url": "file:///x.js",
                                    "lineNumber": line, "columnNumber": 1}
        nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": 0, "url": "", "lineNumber": -1,
                                         "columnNumber": -1}},
                 {"id": 2, "parent": 1, "callFrame": frame("a%d" % pid, 1)},
                 {"id": 3, "parent": 1, "callFrame": frame("b%d" % pid, 5)}]
        ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": pid, "ts": 0,
                   "args": {"name": "CrRendererMain"}})
        ev.append({"ph": "P", "name": "Profile", "id": "0x1", "pid": pid, "tid": pid, "ts": T + start,
                   "args": {"data": {"startTime": T + start}}})
        ev.append({"ph": "P", "name": "ProfileChunk", "id": "0x1", "pid": pid, "tid": pid, "ts": T + start + 1,
                   "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": [2 + i % 2 for i in range(n)]},
                                     "timeDeltas": [0] + [1000] * (n - 1), "endTime": T + start + length}}})
    with open(sys.argv[1], "w") as f:
        json.dump({"traceEvents": ev}, f)


if __name__ == "__main__":
    main()
