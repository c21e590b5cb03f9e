#!/usr/bin/env python3
"""chrome_keys_gen.py OUT D N [shared|0|ties|threads] -- a Chrome trace of the samples form
(Hermes: "samples" and "stackFrames") whose frames share keys, the worst case
of the importer's chains (bench/results/chrome-shared-keys.md).

speedscope keys a frame by the text NAME:CATEGORY, so "kI:x" in category "y"
and "kI" in category "x:y" are one frame there ("kI:x:y"), named as the first
a thread's samples meet.  The trace: a chain D frames deep under a root of
such a key, N/2 frames (one per key) of the other name of each key, and N
samples, one thread, 1 us apart, alternating: the deep chain's leaf, then a
frame of a key not yet met (it claims that key's name).  With SHARED 0 the
names are all distinct (no key of two names): the same shape, for comparison.
With "threads" each pair of samples is a thread of its own (its chains are
made again per thread: the names of a key are per thread).  With "ties" each leaf sample has the ts of the sample after it (it weighs
0, so claims nothing) and no sample that weighs more meets the root's key:
the chain's names are never settled, and each leaf sample re-checks it.
"""
import json, sys

out, depth, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mode = sys.argv[4] if len(sys.argv) > 4 else ""
shared, ties, threads = mode != "0", mode == "ties", mode == "threads"
frames = {"r": {"name": "k0:x" if shared else "r:x", "category": "y"},
          "r2": {"name": "k0", "category": "x:y"}}
prev = "r"
for i in range(1, depth + 1):
    frames[str(i)] = {"name": "f%d" % i, "category": "JavaScript", "parent": prev}
    prev = str(i)
samples = []
for i in range(n // 2):
    k = "c%d" % i
    frames[k] = {"name": ("k%d" % (i + 1)) if shared else ("c%d" % i), "category": "x:y"}
    frames["o%d" % i] = {"name": "k%d:x" % (i + 1), "category": "y", "parent": "1"}  # the other name
    tid = i + 1 if threads else 1
    samples.append({"ts": 2 * i + ties, "pid": 1, "tid": tid, "sf": prev})
    samples.append({"ts": 2 * i + 1, "pid": 1, "tid": tid, "sf": k})
json.dump({"traceEvents": [{"ph": "M", "name": "process_name", "pid": 1, "tid": 1, "args": {"name": "p"}}],
           "samples": samples, "stackFrames": frames}, open(out, "w"), separators=(",", ":"))
