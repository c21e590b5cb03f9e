#!/usr/bin/env python3
"""Writes legacy text profiles as google/pprof's profile/legacy_profile.go
(parseHeap, parseGoCount, parseThread, parseContention) and
legacy_java_profile.go (parseJavaProfile) read them, random but seeded, for
pcol's reader (lib/convert/pprof/pprof_legacy_text.c) to be judged against
go tool pprof (tests/interop/t_pprof_views.sh).

  legacy_text_gen.py all DIR [SEED]   writes DIR/<case>.<kind> for every case
  legacy_text_gen.py CASE OUT [SEED]  one case

Cases:
  heap-rate.heap       "@ heap/RATE" (rate halved, unsampled), alloc != inuse
                       (four sample types), a MAPPED_LIBRARIES: section with a
                       glog prefix, a non-executable row, "name=value" lines;
                       comments, blank lines, a sample without addresses
  heap-v2.heap         "@ heap_v2/RATE", alloc = inuse (two types), zero rows,
                       a "--- Memory map: ---" section, the main binary at
                       0x400000 + offset
  heap-v2-norate.heap  "@ heap_v2" (no rate: not unsampled), no map
  heapprofile.heap     "@ heapprofile" (period 1, not unsampled), alloc "0"
  growth.heap          "@ growthz" (period 1)
  goroutine.thread     "goroutine profile: total N", a "---" then a map
  threadcreate.thread  "threadcreate profile: total N", comments first
  threadz.thread       "--- threadz 1 ---", "same as previous thread",
                       symbolized "PC:" lines, a leaf written twice, a map
  contentionz.contention  "--- contentionz 1 ---": cycles/second, sampling
                       period, ms since reset, discarded samples; a map
  mutex.contention     "--- mutex:" with cycles/second, no sampling period
  contention.contention "--- contention:" with neither
  java-heapz.heap      "--- heapz 1 ---", format = java, resolution = bytes,
                       symbols after the samples
  java-contentionz.contention  "--- contentionz 1 ---", format = java,
                       resolution = microseconds, sampling period
"""
import os
import random
import sys


def stacks(r, n, pool, depth=(1, 9)):
    out = []
    for _ in range(n):
        d = r.randint(*depth)
        s = [r.choice(pool) for _ in range(d)]
        if d > 3 and r.random() < 0.3:  # recursion
            s[2] = s[0]
        out.append(s)
    return out


def addrs(s):
    return " ".join("0x%x" % a for a in s)


def pool(r, lo, hi, n):
    return sorted({r.randrange(lo, hi) | 1 for _ in range(n)})


MAPS = [
    "I1128 12:00:00.000 123 procmaps.cc:42] 00400000-00500000 r-xp 00000000 08:01 123 /bin/app",
    "00500000-00600000 rw-p 00100000 08:01 123 /bin/app",
    "build=abc123",
    "7f0000000000-7f0000100000 r-xp 00000000 08:01 456 /lib/libc.so.6",
    "7f0000200000 7f0000300000 /lib/libm.so.6 (@1000) $build",
]


def heap(r, form, alloc, rate, maps):
    p = pool(r, 0x400100, 0x4ff000, 40) + pool(r, 0x7f0000000100, 0x7f00000ff000, 10)
    rows = []
    for s in stacks(r, r.randint(15, 40), p):
        n = r.choice([0, 1, 1, 2, 5, 40])
        sz = n * r.choice([16, 32, 100, 4096, 65536, 1 << 20])
        an, asz = (n + r.randint(0, 5), sz + r.randint(0, 5) * 64) if alloc else (n, sz)
        if an == 0:
            asz = 0
        rows.append((n, sz, an, asz, s))
    tn, ts = sum(x[0] for x in rows), sum(x[1] for x in rows)
    ta, tas = (sum(x[2] for x in rows), sum(x[3] for x in rows)) if alloc else (tn, ts)
    if form == "heapprofile":
        ta, tas = 0, 0
    tail = {"heap": "heap/%d" % rate, "heap_v2": "heap_v2/%d" % rate, "heap_v2-": "heap_v2",
            "heapprofile": "heapprofile", "growth": "growthz"}[form]
    sep = " @ " if form == "growth" else " @ "
    out = ["heap profile: %6d: %8d [%6d: %8d]%s%s" % (tn, ts, ta, tas, sep, tail), "# a comment", ""]
    for n, sz, an, asz, s in rows:
        out.append("%6d: %8d [%6d: %8d] @ %s" % (n, sz, an, asz, addrs(s)))
    out.append("   1:      64 [     1:      64] @")
    if maps == "mapped":
        out += ["", "MAPPED_LIBRARIES:"] + MAPS
    elif maps == "memory":
        out += ["--- Memory map: ---", "00401000-00500000: /bin/app (@1000)",
                "7f0000000000-7f0000100000: /lib/libc.so.6"]
    return "\n".join(out) + "\n"


def gocount(r, kind, maps):
    p = pool(r, 0x1000, 0x90000, 30)
    ss = stacks(r, r.randint(5, 20), p)
    cs = [r.randint(1, 9) for _ in ss]
    out = ["# comment", ""] if kind == "threadcreate" else []
    out.append("%s profile: total %d" % (kind, sum(cs)))
    for c, s in zip(cs, ss):
        out.append("%d @ %s" % (c, addrs(s)))
    if maps:
        out += ["---", "MAPPED_LIBRARIES:", "00001000-00090000 r-xp 00000000 08:01 1 /bin/godoc"]
    return "\n".join(out) + "\n"


def threadz(r):
    p = pool(r, 0x400100, 0x4ff000, 30)
    out = ["--- threadz 1 ---", "", "# comment"]
    for i, s in enumerate(stacks(r, r.randint(4, 12), p)):
        out.append("--- Thread %x (name: worker/%d) stack: ---" % (0x7f0000000000 + i * 0x1000, 100 + i))
        if i and r.random() < 0.3:
            out.append("  same as previous thread")
            continue
        out.append("  PC:  0x%08x: fn_%d(int)" % (s[0], i))
        if r.random() < 0.3:
            out.append("  0x%08x: fn_dup" % (s[0] - 1 + 1 + 1))  # a leaf written twice (+ 1 after - 1)
        for a in s[1:]:
            out.append("  0x%08x: caller" % a)
    out += ["--- Memory map: ---", "  00400000-00500000: /bin/server"]
    return "\n".join(out) + "\n"


def contention(r, head, attrs):
    p = pool(r, 0x400100, 0x4ff000, 30)
    out = [head] + attrs
    for s in stacks(r, r.randint(5, 25), p):
        out.append("%10d %6d @ %s" % (r.randint(1, 10 ** 7), r.randint(1, 50), addrs(s)))
    out += ["--- Memory map: ---", "  00400000-00500000: /bin/server"]
    return "\n".join(out) + "\n"


def java(r, heapz):
    names = ["java.lang.Thread.run (Thread.java:%d)", "com.example.App.work (App.java:%d)",
             "com.example.Pool.get (Pool.java:%d)", "libjvm.so (/usr/lib/jvm/lib/server/libjvm.so)",
             "generated stub/JIT", "GC", "com.example.App.alloc (App.java:-1)"]
    p = list(range(3, 40))
    out = ["--- heapz 1 ---", "format = java", "resolution = bytes"] if heapz else \
        ["--- contentionz 1 ---", "format = java", "resolution = microseconds", "sampling period = 100",
         "ms since reset = 6019923"]
    for s in stacks(r, r.randint(5, 20), p):
        n = r.randint(1, 9)
        out.append("%14d %5d @ %s" % (n * r.choice([16, 24, 1000, 70000]) if heapz else r.randint(1, 500), n,
                                       " ".join("0x%08x" % a for a in s)))
    for a in p:
        nm = r.choice(names)
        out.append("0x%08x %s" % (a, nm % r.randint(1, 300) if "%d" in nm else nm))
    return "\n".join(out) + "\n"


CASES = {
    "heap-rate.heap": lambda r: heap(r, "heap", True, 1048576, "mapped"),
    "heap-v2.heap": lambda r: heap(r, "heap_v2", False, 524288, "memory"),
    "heap-v2-norate.heap": lambda r: heap(r, "heap_v2-", True, 0, None),
    "heapprofile.heap": lambda r: heap(r, "heapprofile", True, 0, "mapped"),
    "growth.heap": lambda r: heap(r, "growth", False, 0, "memory"),
    "goroutine.thread": lambda r: gocount(r, "goroutine", True),
    "threadcreate.thread": lambda r: gocount(r, "threadcreate", False),
    "threadz.thread": threadz,
    "contentionz.contention": lambda r: contention(r, "--- contentionz 1 ---", [
        "cycles/second = 3201000000", "sampling period = 100", "ms since reset = 16502830",
        "discarded samples = 0"]),
    "mutex.contention": lambda r: contention(r, "--- mutex:", ["cycles/second = 2000000000"]),
    "contention.contention": lambda r: contention(r, "--- contention:", []),
    "java-heapz.heap": lambda r: java(r, True),
    "java-contentionz.contention": lambda r: java(r, False),
}


def main():
    a = sys.argv[1:]
    if len(a) in (2, 3) and a[0] == "all":
        seed = int(a[2]) if len(a) == 3 else 1
        for i, (c, f) in enumerate(sorted(CASES.items())):
            with open(os.path.join(a[1], "gen-" + c), "w") as o:
                o.write(f(random.Random(seed * 1000 + i)))
    elif len(a) in (2, 3) and a[0] in CASES:
        with open(a[1], "w") as o:
            o.write(CASES[a[0]](random.Random(int(a[2]) if len(a) == 3 else 1)))
    else:
        raise SystemExit(__doc__)


main()
