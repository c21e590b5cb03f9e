#!/usr/bin/env python3
"""Writes a 1 KB gzipped pprof built to amplify (tests/cli/t_hostile.sh,
tests/bounds/t_bounds.sh): one sample at one location with 1,024 inline
frames of one function whose name is 256 KiB, so every stack's text is
256 MiB.  Usage: amplifier.py OUT.pb.gz [--time]: --time declares the
value cpu/nanoseconds instead of samples/count (for `unpack --to v8`), 10 ms
(a V8 export of a time under 1 us in all is the empty profile, which
amplifies nothing: doc/mappings.md §10.1)."""
import gzip
import sys

from pprofgen import field, varint  # (tests/support: the encoding pprofgen.py writes with)


time = sys.argv[2:] == ["--time"]
p = field(1, 2, field(1, 0, 1) + field(2, 0, 2))                       # samples/count
p += field(2, 2, field(1, 2, varint(1)) + field(2, 2, varint(10000000 if time else 1)))  # one sample at location 1
p += field(4, 2, field(1, 0, 1) + field(4, 2, field(1, 0, 1) + field(2, 0, 7)) * 1024)
p += field(5, 2, field(1, 0, 1) + field(2, 0, 3))                      # function 1
for s in [b"", b"cpu" if time else b"samples", b"nanoseconds" if time else b"count", b"f" * (256 << 10)]:
    p += field(6, 2, s)
with open(sys.argv[1], "wb") as f:
    f.write(gzip.compress(p, 9))
