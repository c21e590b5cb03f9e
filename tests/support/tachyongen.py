#!/usr/bin/env python3
"""Writes CPython 3.15 sampling-profiler ("Tachyon") binary files the way
CPython's writer does (InternalDocs/profiling_binary_format.md;
Modules/_remote_debugging/binary_io_writer.c), standard library only, and
computes what a reader must find in them from what it wrote -- never from
pcol.  CPython 3.15 could not be built here, so this is the producer the
tests use (doc/mappings.md, Tachyon).

  tachyongen.py rich OUT [--zstd] [--narrow] [--big-endian] [--samples N] [--seed S]
      several threads in two interpreters (one thread id in both), stacks
      that grow, shrink and repeat (REPEAT, FULL, SUFFIX and POP_PUSH
      records), status bits, a TACHSTAT block; prints the truth as JSON:
      samples, records per kind, per-function self and total, per-thread
      (tid) counts, first and last sample time (ns since the start).
      --narrow: the first header layout (4-byte sample count, 3-field frames)
      --big-endian: written on a big-endian machine (the fixed-width fields)
      --collapsed BASE: also BASE.count (collapsed stacks, root first, with
      their sample counts) and BASE.wall (the same x the interval, in ns)
  tachyongen.py big OUT N [--zstd]
      N samples (a multiple of 4) fast, for the memory bounds
      (tests/bounds/t_stream_json.sh): four threads, each a FULL record then
      REPEAT runs of 50,000 samples 1 ms apart, the threads' runs in turn
      (so the file is not in time order); prints {"samples": N}

As a module: Writer(...).sample(tid, interp, t_us, status, frames) with
frames innermost first as (file, function, line, column) tuples, then
.finish() -> bytes."""
import json, os, random, struct, subprocess, sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pprofgen import varint as uv  # LEB128, as protobuf's (one writer of it)


def sv(n):
    return uv(((n << 1) ^ (n >> 31)) & 0xFFFFFFFF)


class Writer:
    def __init__(self, start_us=1_700_000_000_123_456, interval_us=1000, zstd=False, narrow=False, version=None,
                 mode=0, stats=True, py=(3, 15, 0), endian="<"):
        self.start, self.interval, self.zstd, self.narrow = start_us, interval_us, zstd, narrow
        self.version = version if version is not None else (1 if narrow else 2)
        self.mode, self.stats, self.py = mode, stats, py
        self.e = endian  # ">": a big-endian machine's file (fixed-width fields only)
        self.strings, self.sidx = [], {}
        self.frames, self.fidx = [], {}
        self.threads = {}  # (tid, interp) -> state
        self.out = bytearray()
        self.n = 0
        self.kinds = {"REPEAT": 0, "FULL": 0, "SUFFIX": 0, "POP_PUSH": 0}
        self.truth_self, self.truth_total, self.per_tid = {}, {}, {}
        self.stacks = {}  # names root first -> samples
        self.times = []

    def s(self, text):
        if text not in self.sidx:
            self.sidx[text] = len(self.strings)
            self.strings.append(text)
        return self.sidx[text]

    def f(self, fr):
        file, func, line, col = fr
        key = (self.s(file), self.s(func), line, col)
        if key not in self.fidx:
            self.fidx[key] = len(self.frames)
            self.frames.append(key)
        return self.fidx[key]

    def _hdr(self, tid, interp, kind):
        return struct.pack(self.e + "QIB", tid, interp, kind)

    def _flush(self, key):
        st = self.threads[key]
        if st["rle"]:
            self.out += self._hdr(key[0], key[1], 0) + uv(len(st["rle"]))
            for d, stat in st["rle"]:
                self.out += uv(d) + bytes([stat])
            self.kinds["REPEAT"] += 1
            st["rle"] = []

    def sample(self, tid, interp, t_us, status, frames, force_full=False):
        """frames innermost first; t_us since the start"""
        key = (tid, interp)
        # a new thread's previous stack is empty: an empty first stack is a
        # REPEAT (CPython's writer, gh test_writer_handles_empty_stack_first_sample)
        st = self.threads.setdefault(key, {"prev": [], "new": True, "t": 0, "rle": []})
        idx = [self.f(fr) for fr in frames]
        delta = t_us - st["t"]
        assert delta >= 0
        st["t"] = t_us
        self.n += 1
        self.times.append(t_us * 1000)
        self.per_tid[str(tid)] = self.per_tid.get(str(tid), 0) + 1
        names = [fr[1] for fr in frames]
        key_names = tuple(reversed(names))
        self.stacks[key_names] = self.stacks.get(key_names, 0) + 1
        if names:
            self.truth_self[names[0]] = self.truth_self.get(names[0], 0) + 1
        for nm in set(names):
            self.truth_total[nm] = self.truth_total.get(nm, 0) + 1
        prev, new = st["prev"], st["new"]
        st["new"] = False
        if prev == idx and not force_full:
            st["rle"].append((delta, status))
            return
        self._flush(key)
        shared = 0
        if not new and not force_full:
            while shared < min(len(prev), len(idx)) and prev[-1 - shared] == idx[-1 - shared]:
                shared += 1
        h = lambda k: self._hdr(tid, interp, k) + uv(delta) + bytes([status])
        if new or shared == 0 or force_full:
            self.out += h(1) + uv(len(idx)) + b"".join(uv(i) for i in idx)
            self.kinds["FULL"] += 1
        elif shared == len(prev):  # frames pushed on top of the last stack
            new = idx[: len(idx) - shared]
            self.out += h(2) + uv(shared) + uv(len(new)) + b"".join(uv(i) for i in new)
            self.kinds["SUFFIX"] += 1
        else:
            new = idx[: len(idx) - shared]
            self.out += h(3) + uv(len(prev) - shared) + uv(len(new)) + b"".join(uv(i) for i in new)
            self.kinds["POP_PUSH"] += 1
        st["prev"] = idx

    def finish(self, raw_samples=None, count=None):
        """the file; raw_samples replaces the sample data (before zstd),
        count the header's sample count (hostile copies)"""
        for key in self.threads:
            self._flush(key)
        data = bytes(self.out) if raw_samples is None else raw_samples
        n = self.n if count is None else count
        if self.zstd:  # one streamed frame, as CPython's ZSTD_compressStream2 (no content size)
            data = subprocess.run(["zstd", "-q", "-5", "-c"], input=data, stdout=subprocess.PIPE,
                                  check=True).stdout
        sto = 64 + len(data)
        st = b"".join(uv(len(x.encode())) + x.encode() for x in self.strings)
        fto = sto + len(st)
        ft = bytearray()
        for fi, fu, line, col in self.frames:
            ft += uv(fi) + uv(fu) + sv(line)
            if not self.narrow:  # 3.15's 7 fields: end line and column deltas, opcode
                ft += sv(0) + sv(col) + sv(0 if col < 0 else 7) + bytes([255 if col < 0 else 100])
        stats = b""
        if self.stats == 32:  # the original extension: duration and rate only
            stats = struct.pack(self.e + "dd8sII", self.n * self.interval / 1e6, 1e6 / self.interval, b"TACHSTAT", 1, 32)
        elif self.stats:
            stats = struct.pack(self.e + "ddddII8sII", self.n * self.interval / 1e6, 1e6 / self.interval, 0.5, 1.25, 3, 0,
                                b"TACHSTAT", 1, 56)
        size = fto + len(ft) + len(stats) + 32
        footer = struct.pack(self.e + "IIQ16s", len(self.strings), len(self.frames), size, b"\0" * 16)
        if self.narrow:
            hdr = struct.pack(self.e + "II4BQQIIQQI", 0x54414348, self.version, *self.py, 0, self.start, self.interval,
                              n, len(self.threads), sto, fto, 1 if self.zstd else 0)
        else:
            hdr = struct.pack(self.e + "II4BQQQIQQII", 0x54414348, self.version, *self.py, 0, self.start,
                              self.interval, n, len(self.threads), sto, fto, 1 if self.zstd else 0, self.mode + 1)
        hdr = hdr.ljust(64, b"\0")
        return hdr + data + st + bytes(ft) + stats + footer

    def collapsed(self, base):
        """the samples as collapsed stacks (BASE.count) and their wall time,
        the interval each, in ns (BASE.wall): tests/interop/t_matrix.py's
        reference for a Tachyon source"""
        for ext, mult in ((".count", 1), (".wall", self.interval * 1000)):
            with open(base + ext, "w", encoding="utf-8") as o:
                for st, c in sorted(self.stacks.items()):
                    if st:
                        o.write("%s %d\n" % (";".join(st), c * mult))

    def truth(self):
        return {"samples": self.n, "records": self.kinds, "self": self.truth_self, "total": self.truth_total,
                "threads": {"tid": self.per_tid}, "first_ns": min(self.times), "span_ns": max(self.times),
                "times_ns": sorted(self.times)}


def rich(out, zstd=False, narrow=False, samples=3000, seed=43, endian="<", collapsed=None):
    """a program of several threads: a main thread in a loop of calls, two
    workers, one sub-interpreter whose thread reuses a thread id"""
    rnd = random.Random(seed)
    w = Writer(zstd=zstd, narrow=narrow, mode=0, endian=endian)
    files = ["/srv/app/main.py", "/srv/app/work er.py", "/usr/lib/python3.15/json/decoder.py", "<frozen runpy>"]
    funcs = [("<module>", 0, 1), ("main", 0, 10), ("run_loop", 0, 20), ("handle", 1, 5), ("parse", 2, 330),
             ("raw_decode", 2, 344), ("compute", 1, 40), ("inner ✓", 1, 52), ("_run_module_as_main", 3, -1),
             ("wait", 1, 70)]
    threads = [(140245123456789, 0), (140245000000001, 0), (140245000000002, 0), (140245000000001, 1)]
    stacks = {k: [] for k in threads}
    t = {k: 100 + 37 * i for i, k in enumerate(threads)}
    def fr(i, line_off=0):
        name, fi, line = funcs[i]
        return (files[fi], name, line if line < 0 else line + line_off, -1 if line < 0 else 4 + line_off)
    base = [fr(0), fr(8)]  # innermost last here; reversed when sampled
    for k in threads:
        stacks[k] = base + [fr(1)]
    for n in range(samples):
        k = threads[rnd.randrange(len(threads))] if n % 5 else threads[0]
        s = stacks[k]
        r = rnd.random()
        if r < 0.35:
            pass  # the same stack: REPEAT
        elif r < 0.6 and len(s) < 40:
            s = s + [fr(rnd.randrange(2, len(funcs)), rnd.randrange(3))]  # a call: SUFFIX
        elif r < 0.85 and len(s) > 3:
            s = s[: rnd.randrange(3, len(s))] + [fr(rnd.randrange(2, len(funcs)))]  # return, call: POP_PUSH
        elif len(s) > 3:
            s = s[:3]  # back to main: POP_PUSH with nothing pushed
        stacks[k] = s
        t[k] += 900 + rnd.randrange(250)
        status = rnd.choice([0b00011, 0b00010, 0b01000, 0b00000, 0b10011, 0b00100])
        if k == threads[0]:
            status |= 0b100000  # THREAD_STATUS_MAIN_THREAD
        w.sample(k[0], k[1], t[k], status, list(reversed(s)), force_full=(n % 97 == 13))
    open(out, "wb").write(w.finish())
    if collapsed:
        w.collapsed(collapsed)
    return w.truth()


def big(out, n, zstd=False):
    w = Writer(zstd=zstd)
    keys = [(1000 + i, 0) for i in range(4)]
    fr = [w.f(("/srv/big.py", name, 10 * i + 1, 4)) for i, name in enumerate(["leaf", "work", "main", "<module>"])]
    data = bytearray()
    for i, k in enumerate(keys):  # each thread's first sample: a FULL stack
        w.threads[k] = {"prev": [], "new": False, "t": 0, "rle": []}
        idx = fr[i % 2:]
        data += w._hdr(k[0], k[1], 1) + uv(1000) + bytes([3]) + uv(len(idx)) + b"".join(uv(x) for x in idx)
    left = [n // 4 - 1] * 4
    one = uv(1000) + bytes([3])
    while any(left):
        for i, k in enumerate(keys):
            c = min(left[i], 50000)
            if c:
                data += w._hdr(k[0], k[1], 0) + uv(c) + one * c
                left[i] -= c
    open(out, "wb").write(w.finish(raw_samples=bytes(data), count=n // 4 * 4))
    return {"samples": n // 4 * 4}


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "big":
        json.dump(big(a[1], int(a[2]), zstd="--zstd" in a), sys.stdout)
        sys.exit(0)
    if not a or a[0] != "rich" or len(a) < 2:
        sys.exit(__doc__)
    n = int(a[a.index("--samples") + 1]) if "--samples" in a else 3000
    seed = int(a[a.index("--seed") + 1]) if "--seed" in a else 43
    json.dump(rich(a[1], zstd="--zstd" in a, narrow="--narrow" in a, samples=n, seed=seed,
                   endian=">" if "--big-endian" in a else "<",
                   collapsed=a[a.index("--collapsed") + 1] if "--collapsed" in a else None), sys.stdout,
              ensure_ascii=False)
