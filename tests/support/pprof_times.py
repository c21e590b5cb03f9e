#!/usr/bin/env python3
"""pprof_times.py FILE [FIELD...] — prints the time_nanos and duration_nanos
(the top-level varint fields 9 and 10; or the FIELDs named, e.g. 7 for
drop_frames' string index) of a pprof Profile, gzip or not, read here from
the protobuf bytes (not by pcol): "TIME DURATION", 0 for unset.
top_varints(bytes, fields) is the same for a caller in Python."""
import gzip, sys


def top_varints(b, fields):
    """{field: value} of the top-level varint fields asked (0 when unset)."""
    if b[:2] == b"\x1f\x8b":
        b = gzip.decompress(b)
    def var(i):
        n = s = 0
        while True:
            c = b[i]; i += 1; n |= (c & 0x7f) << s; s += 7
            if c < 0x80:
                return n, i
    i, got = 0, {f: 0 for f in fields}
    while i < len(b):
        k, i = var(i)
        w = k & 7
        if w == 0:
            v, i = var(i)
            if k >> 3 in got:
                got[k >> 3] = v - (1 << 64) if v >= 1 << 63 else v
        elif w == 2:
            n, i = var(i); i += n
        elif w == 1: i += 8
        elif w == 5: i += 4
        else: raise SystemExit("wire type %d" % w)
    return got


if __name__ == "__main__":
    fs = [int(x) for x in sys.argv[2:]] or [9, 10]
    got = top_varints(open(sys.argv[1], "rb").read(), fs)
    print(*(got[f] for f in fs))
