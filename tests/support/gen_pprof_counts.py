#!/usr/bin/env python3
"""Writes a small uncompressed pprof profile (profile.proto, encoded here by
hand) whose samples carry a count other than 1, so that "rows" and "samples"
differ.  Used by tests/cli/t_values.sh.

  gen_pprof_counts.py OUT cpu    samples/count + cpu/nanoseconds, counts 3, 5, 2
  gen_pprof_counts.py OUT heap   alloc_objects/count + alloc_space/bytes, 2 rows

Prints the profile's own count of samples (the sum of samples/count, or the
rows when it has no count) on stdout: the number the test expects."""
import sys

from pprofgen import varint  # (tests/support: the encoding pprofgen.py writes with)


def field(num, payload):  # length-delimited
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def vfield(num, v):  # varint
    return varint(num << 3) + varint(v)


def packed(num, vals):
    return field(num, b"".join(varint(v) for v in vals))


def main():
    out, kind = sys.argv[1], sys.argv[2]
    strings = [""]

    def s(x):
        if x not in strings:
            strings.append(x)
        return strings.index(x)

    if kind == "cpu":
        types = [("samples", "count"), ("cpu", "nanoseconds")]
        samples = [([1, 2], [3, 30000000]), ([2], [5, 50000000]), ([3, 2], [2, 20000000])]
        period = ("cpu", "nanoseconds", 10000000)
        own = sum(v[0] for _, v in samples)
    else:
        types = [("alloc_objects", "count"), ("alloc_space", "bytes")]
        samples = [([1, 2], [4, 4096]), ([3, 2], [1, 512])]
        period = ("space", "bytes", 524288)
        own = len(samples)
    p = b""
    for t, u in types:
        p += field(1, vfield(1, s(t)) + vfield(2, s(u)))
    for locs, vals in samples:
        p += field(2, packed(1, locs) + packed(2, vals))
    names = {1: "leaf", 2: "main", 3: "other"}
    for i, n in names.items():
        p += field(4, vfield(1, i) + field(4, vfield(1, i) + vfield(2, 10 + i)))
    for i, n in names.items():
        p += field(5, vfield(1, i) + vfield(2, s(n)) + vfield(4, s("x.go")))
    pt = field(11, vfield(1, s(period[0])) + vfield(2, s(period[1]))) + vfield(12, period[2])
    p += b"".join(field(6, x.encode()) for x in strings) + pt
    with open(out, "wb") as f:
        f.write(p)
    print(own)


main()
