#!/usr/bin/env python3
"""Writes small pprof profiles for tests/cli/t_pprof_semantics.sh and
tests/interop/t_pprof_semantics.sh, each with what one pprof rule needs:

  labels.pb.gz   one stack twice with the same label set in two orders (Go
                 writes labels in map order), and a frame without a file
                 (Node's runMicrotasks) as a leaf and in the middle of stacks
  bucket-cancel.pb.gz
                 "bytes" labels whose +2 and -2 of one size cancel: -dot's
                 buckets of that node take no box of them
  nums.pb.gz     numeric labels with units ("bytes", "alloc" in kilobytes,
                 "dur" in ms) and a string label, for -tagfocus ranges
  inline-chain.pb.gz
                 locations whose inline chains repeat functions (recursion
                 inlined): short ones, one of 17 lines whose last repeats its
                 first, and one of 40 lines over 20 functions, so that a
                 function is counted once a sample however long the chain
                 (pcol tells a location's keys apart by a scan below 16 of
                 them and by stamps from there: top.c build_loc_keys)
  inline-rec-NN.pb.gz (NN = 00..23)
                 recursion through inlined frames: a few functions on
                 locations of 1-3 lines, on stacks that repeat locations (a
                 fixed seed), so that a call (caller, callee) recurs on a
                 stack, once into an inlined line and once not; pprof counts
                 a call once a sample, at its first occurrence from the root,
                 for its "(inline)" marks (graph.go newGraph's seenEdge)
  deep-65530.pb.gz, deep-70000.pb.gz
                 one function recursing 65,530 and 70,000 frames deep, under
                 main, beside two shallow stacks: more stack nodes than
                 samples, so pcol's top walks the paths, whose per-function
                 counts are 16 bits (top.c WALK_MAX_DEPTH): the first stays
                 below the limit, the second passes it (the walk gives up
                 and the sums of every node take over)
  signed.pb.gz, signed-2.pb.gz, signed-bare.pb.gz
                 a delta heap profile (values below 0) whose samples of one
                 stack and label set have opposite signs, some cancelling
                 to 0, one of them beside the same stack with other labels
                 (signed-bare: the like without labels, where a group is a
                 stack and pcol takes its sums from the stack sums);
                 the second cancels some of the first's stacks: pprof merges
                 samples (of the profiles given) before it adds up |values|
                 for the total, so these are what tells that rule apart
  cancel.pb.gz, cancel-base.pb.gz
                 calls whose samples add up to 0: of two label sets (pprof
                 lists the call at 0), of one (merged into a sample of 0:
                 no call); and, as -diff_base of the second, a call of the
                 same weight in both (the base's samples carry a label of
                 their own, so the call is listed at 0)

Usage: semantics_pprof.py OUTDIR"""
import gzip
import os
import random
import sys

from pprofgen import field, varint  # (tests/support: the encoding pprofgen.py writes with)


class Profile:
    def __init__(self):
        self.strings = [""]
        self.body = b""
        self.funcs = {}
        self.locs = {}

    def s(self, text):
        if text not in self.strings:
            self.strings.append(text)
        return self.strings.index(text)

    def sample_type(self, typ, unit):
        self.body += field(1, 2, field(1, 0, self.s(typ)) + field(2, 0, self.s(unit)))

    def func(self, name, filename):
        if name not in self.funcs:
            fid = len(self.funcs) + 1
            self.funcs[name] = fid
            f = field(1, 0, fid) + field(2, 0, self.s(name)) + field(3, 0, self.s(name))
            if filename:
                f += field(4, 0, self.s(filename))
            self.body += field(5, 2, f)
        return self.funcs[name]

    def loc(self, lines, address=0):
        """lines: [(function, file, line)], innermost first (inlined frames)"""
        key = (tuple(lines), address)
        if key not in self.locs:
            lid = len(self.locs) + 1
            self.locs[key] = lid
            m = field(1, 0, lid)
            if address:
                m += field(3, 0, address)
            for fn, fl, ln in lines:
                m += field(4, 2, field(1, 0, self.func(fn, fl)) + field(2, 0, ln))
            self.body += field(4, 2, m)
        return self.locs[key]

    def sample(self, locs, values, labels=()):
        m = field(1, 2, b"".join(varint(l) for l in locs))
        m += field(2, 2, b"".join(varint(v) for v in values))
        for k, v, unit in labels:
            lab = field(1, 0, self.s(k))
            if isinstance(v, str):
                lab += field(2, 0, self.s(v))
            else:
                lab += field(3, 0, v)
                if unit:
                    lab += field(4, 0, self.s(unit))
            m += field(3, 2, lab)
        self.body += field(2, 2, m)

    def write(self, path, period_type=None, period=0):
        b = self.body
        if period_type:
            b += field(11, 2, field(1, 0, self.s(period_type[0])) + field(2, 0, self.s(period_type[1])))
            b += field(12, 0, period)
        for t in self.strings:
            b += field(6, 2, t.encode())
        with open(path, "wb") as f:
            f.write(gzip.compress(b, 9))


def typed(*types):
    """A Profile with these (type, unit) sample types."""
    p = Profile()
    for typ, unit in types:
        p.sample_type(typ, unit)
    return p


def leaves(p, names, filename):
    """One location a name, each with one line, at addresses 0x1000 on."""
    return [p.loc([(n, filename, 3 * i + 1)], 0x1000 * (i + 1)) for i, n in enumerate(names)]


CPU = (("samples", "count"), ("cpu", "nanoseconds"))
out = sys.argv[1]

p = Profile()
p.sample_type("samples", "count")
p.sample_type("wall", "nanoseconds")
a = p.loc([("main.a", "a.go", 10)], 0x1000)
mt = p.loc([("runMicrotasks", "", 0)], 0x2000)
b = p.loc([("main.b", "a.go", 20)], 0x3000)
c = p.loc([("main.c", "c.go", 5)], 0x4000)
p.sample([a, mt, b], [1, 10000000], [("worker", "x", ""), ("kind", "y", "")])
p.sample([a, mt, b], [1, 10000000], [("kind", "y", ""), ("worker", "x", "")])
p.sample([a, mt, b], [1, 10000000], [("kind", "z", ""), ("worker", "x", "")])
p.sample([mt, c], [2, 20000000], [("kind", "y", ""), ("worker", "x", "")])
p.sample([c, mt, b], [3, 30000000])
p.sample([c, b], [4, 40000000], [("worker", "x", ""), ("kind", "y", "")])
p.write(os.path.join(out, "labels.pb.gz"), ("wall", "nanoseconds"), 10000000)

p = Profile()
p.sample_type("alloc_objects", "count")
p.sample_type("alloc_space", "bytes")
f = p.loc([("main.alloc", "m.go", 3)], 0x1000)
g = p.loc([("main.grow", "m.go", 9)], 0x2000)
r = p.loc([("main.main", "m.go", 20)], 0x3000)
sizes = [8, 100, 512, 513, 1000, 1024, 1025, 4096, 65536, 1 << 20, (1 << 20) + 1, 2 << 20, 5 << 20, 1 << 30]
for i, sz in enumerate(sizes):
    labs = [("bytes", sz, "bytes"), ("alloc", i * 300, "kilobytes"), ("dur", i * 7, "ms"),
            ("count", i, ""), ("kind", "big" if sz > 4096 else "small", "")]
    p.sample([f if i % 2 else g, r], [i + 1, (i + 1) * sz], labs)
p.write(os.path.join(out, "nums.pb.gz"))

# -dot's "bytes" boxes when a (stack, label set) cancels: +2 and -2 of 40B
# merge into a sample of 0, which makes no box and widens no bucket
p = typed(("alloc_space", "bytes"))
f = p.loc([("main.f", "b.go", 3)], 0x1000)
r = p.loc([("main.main", "b.go", 9)], 0x2000)
for v, sz in ((1, 8), (2, 100), (3, 1000), (4, 10000), (2, 40), (-2, 40)):
    p.sample([f, r], [v], [("bytes", sz, "bytes")])
p.write(os.path.join(out, "bucket-cancel.pb.gz"))

p = typed(*CPU)
fns = ["main.f%02d" % i for i in range(20)]
short = p.loc([(fns[1], "r.go", 11), (fns[2], "r.go", 12), (fns[1], "r.go", 13)], 0x1000)
at16 = p.loc([(fns[i % 16], "r.go", 100 + i) for i in range(17)], 0x2000)
long40 = p.loc([(fns[(7 * i) % 20], "r.go", 200 + i) for i in range(40)], 0x3000)
top_ = p.loc([("main.main", "r.go", 1)], 0x4000)
leaf = p.loc([(fns[3], "r.go", 30)], 0x5000)
p.sample([short, top_], [1, 10000000])
p.sample([at16, top_], [2, 20000000])
p.sample([long40, top_], [3, 30000000])
p.sample([leaf, long40, at16, short, top_], [4, 40000000])
p.sample([leaf, at16, long40, top_], [5, 50000000])
p.write(os.path.join(out, "inline-chain.pb.gz"), ("cpu", "nanoseconds"), 10000000)

rnd = random.Random(47)
for k in range(24):
    p = typed(("samples", "count"))
    fns = ["F%d" % i for i in range(rnd.randint(2, 5))]
    locs = [p.loc([(rnd.choice(fns), "t.go", j + 1) for j in range(rnd.choice((1, 1, 2, 2, 3)))], 0x1000 * (i + 1))
            for i in range(rnd.randint(3, 8))]
    for _ in range(rnd.randint(1, 8)):
        p.sample([rnd.choice(locs) for _ in range(rnd.randint(1, 7))], [rnd.randint(1, 20)])
    p.write(os.path.join(out, "inline-rec-%02d.pb.gz" % k))

for depth in (65530, 70000):
    p = typed(*CPU)
    rec, leaf, other, mn = leaves(p, ["main.rec", "main.leaf", "main.other", "main.main"], "d.go")
    p.sample([leaf] + [rec] * depth + [mn], [2, 20000000])
    p.sample([other] + [rec] * 100 + [mn], [3, 30000000])
    p.sample([other, mn], [1, 10000000])
    p.write(os.path.join(out, "deep-%d.pb.gz" % depth), ("cpu", "nanoseconds"), 10000000)

p = typed(("alloc_objects", "count"), ("alloc_space", "bytes"))
mn, srv, enc, buf, log = leaves(p, ["main.main", "main.serve", "main.encode", "bytes.grow", "main.log"], "h.go")
p.sample([buf, enc, srv, mn], [5, 5000])
p.sample([buf, enc, srv, mn], [-3, -3000])          # one stack: 2, 2000
p.sample([enc, srv, mn], [4, 4096], [("tenant", "a", "")])
p.sample([enc, srv, mn], [-4, -4096], [("tenant", "a", "")])  # cancels to 0
p.sample([enc, srv, mn], [-1, -1024])               # other labels: stays
p.sample([log, mn], [-6, -600])
p.sample([log, mn], [2, 200])                        # -4, -400
p.sample([srv, mn], [3, 300], [("tenant", "b", "")])
p.write(os.path.join(out, "signed.pb.gz"))

# the same without labels: a (stack, label set) group is a stack
p = typed(("alloc_objects", "count"), ("alloc_space", "bytes"))
mn, srv, enc, buf, log = leaves(p, ["main.main", "main.serve", "main.encode", "bytes.grow", "main.log"], "h.go")
p.sample([buf, enc, srv, mn], [5, 5000])
p.sample([buf, enc, srv, mn], [-3, -3000])          # one stack: 2, 2000
p.sample([enc, srv, mn], [4, 4096])
p.sample([enc, srv, mn], [-4, -4096])               # cancels to 0: no call
p.sample([log, mn], [-6, -600])
p.sample([log, mn], [2, 200])                        # -4, -400
p.sample([srv, mn], [3, 300])
p.sample([srv, mn], [-1, -100])
p.write(os.path.join(out, "signed-bare.pb.gz"))

p = typed(("alloc_objects", "count"), ("alloc_space", "bytes"))
mn, srv, enc, buf, log = leaves(p, ["main.main", "main.serve", "main.encode", "bytes.grow", "main.log"], "h.go")
p.sample([buf, enc, srv, mn], [-2, -2000])          # with signed.pb.gz's: 0
p.sample([log, mn], [4, 400])                        # with signed.pb.gz's: 0
p.sample([srv, mn], [1, 100], [("tenant", "b", "")])
p.write(os.path.join(out, "signed-2.pb.gz"))

for name, cancel in (("cancel.pb.gz", True), ("cancel-base.pb.gz", False)):
    p = typed(("inuse_space", "bytes"))
    mn, leaf, other, deep, zed = leaves(p, ["main.main", "main.leaf", "main.other", "main.deep", "main.zed"], "c.go")
    p.sample([leaf, mn], [5])
    if cancel:
        p.sample([leaf, mn], [-5], [("k", "b", "")])
        p.sample([zed, mn], [4], [("k", "a", "")])
        p.sample([zed, mn], [-4], [("k", "b", "")])       # two label sets: a call of 0
        p.sample([other, mn], [3], [("k", "a", "")])
        p.sample([other, mn], [-3], [("k", "a", "")])     # one label set: no call
    p.sample([deep, leaf, mn], [2])
    p.sample([mn], [3 if cancel else 1])
    p.write(os.path.join(out, name))
