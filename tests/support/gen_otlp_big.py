#!/usr/bin/env python3
"""gen_otlp_big.py OUT N [--no-times]: one binary OTLP ProfilesData message
(opentelemetry-proto v1.10.0) of N samples, written by hand (no protobuf
library), for the memory bound of the OTLP importer
(tests/bounds/t_stream_json.sh).

One scope holds two Profiles that share their samples (samples/count with
the value 1, cpu/nanoseconds with 10,000,000 + j % 7): OTLP's split of one
profile with two value types, which pcol reads back as one source.  The
samples are a block of 10,000 (stacks of 1 to 24 of 64 locations, each
sample one timestamp) written N / 10,000 times: every copy repeats the
block's timestamps, and inside the block they are a permutation, so the
observations are far from time order (the importer sorts them).  With
--no-times the samples have no timestamps (pprof's shape: one observation
each, of an unknown time), so they are in order as they come.

Prints "N COUNT CPU": the samples, and the two value types' totals."""
import random
import struct
import sys

BLOCK = 10000


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def vfield(num, v):
    return varint(num << 3) + varint(v)


def packed(num, vals):
    return field(num, b"".join(varint(v & (2**64 - 1)) for v in vals))


def fixed64s(num, vals):
    return field(num, b"".join(struct.pack("<Q", v) for v in vals))


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    no_times = "--no-times" in sys.argv[3:]
    if n % BLOCK:
        sys.exit("N must be a multiple of %d" % BLOCK)
    reps = n // BLOCK
    rnd = random.Random(47)
    strings = ["", "samples", "count", "cpu", "nanoseconds", "big.go"]
    fn0 = len(strings)
    strings += ["fn%02d" % i for i in range(64)]
    functions = [b""] + [vfield(1, fn0 + i) + vfield(3, 5) for i in range(64)]
    locations = [b""] + [vfield(2, 0x1000 + 16 * i) + field(3, vfield(1, i + 1) + vfield(2, 10 + i))
                         for i in range(64)]
    stacks = [b""] + [packed(1, [rnd.randrange(1, 65) for _ in range(rnd.randrange(1, 25))])
                      for _ in range(1000)]
    dictionary = (field(1, b"") + b"".join(field(2, l) for l in locations) +
                  b"".join(field(3, f) for f in functions) + field(4, b"") +
                  b"".join(field(5, s.encode()) for s in strings) + field(6, b"") +
                  b"".join(field(7, s) for s in stacks))
    t0 = 1_700_000_000_000_000_000
    cpu_block = 0
    a_parts, b_parts = [], []
    for j in range(BLOCK):
        stack = 1 + (j * 7919) % 1000
        t = t0 + ((j * 104729) % BLOCK) * 1000
        common = vfield(1, stack)
        ts = b"" if no_times else fixed64s(5, [t])
        cpu = 10_000_000 + j % 7
        cpu_block += cpu
        a_parts.append(field(2, common + packed(4, [1]) + ts))
        b_parts.append(field(2, common + packed(4, [cpu]) + ts))

    def profile_head(type_s, unit_s):
        return (field(1, vfield(1, type_s) + vfield(2, unit_s)) + varint(3 << 3 | 1) +
                struct.pack("<Q", t0) + vfield(6, 10_000_000) +
                field(5, vfield(1, 3) + vfield(2, 4)))

    heads = [profile_head(1, 2), profile_head(3, 4)]
    blocks = [b"".join(a_parts), b"".join(b_parts)]

    prof_len = [len(heads[k]) + len(blocks[k]) * reps for k in range(2)]
    scope_body_len = sum(len(varint(2 << 3 | 2)) + len(varint(L)) + L for L in prof_len)
    scope_head = field(1, field(1, b"gen_otlp_big"))
    scope_len = len(scope_head) + scope_body_len
    res_body = varint(2 << 3 | 2) + varint(scope_len)
    res_len = len(res_body) + scope_len
    with open(out, "wb") as f:
        f.write(varint(1 << 3 | 2) + varint(res_len) + res_body + scope_head)
        for k in range(2):
            f.write(varint(2 << 3 | 2) + varint(prof_len[k]) + heads[k])
            for r in range(reps):
                f.write(blocks[k])
        f.write(field(2, dictionary))
    print(n, n, cpu_block * reps)


if __name__ == "__main__":
    main()
