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
    got = {f: 0 for f in fields}
    for f, wt, v in pb_fields(b):
        if wt == 0 and f in got:
            got[f] = v - (1 << 64) if v >= 1 << 63 else v
    return got


# protobuf read by hand: the tests' one reader (profile.proto: t_matrix.py,
# filter_search.py; Perfetto's trace: perfetto_judge.py, pftrace_*.py)
def pb_varint(b, i):
    c = b[i]
    if c < 0x80:  # most varints are one byte
        return c, i + 1
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def pb_fields(b):
    i = 0
    while i < len(b):
        key, i = pb_varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = pb_varint(b, i)
        elif wt == 2:
            n, i = pb_varint(b, i)
            v, i = b[i:i + n], i + n
            if len(v) != n:
                raise ValueError("a field runs past its message")
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wt)
        yield f, wt, v


def pb_vars(msg):
    """The varint fields of a message: {field number: value} (the last wins)."""
    return {f: v for f, wt, v in pb_fields(msg) if wt == 0}


def pb_load(path):
    b = open(path, "rb").read()
    return gzip.decompress(b) if b[:2] == b"\x1f\x8b" else b


def pb_ints(wt, v):
    """A repeated integer field: packed (wire type 2) or one varint."""
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = pb_varint(v, i)
        out.append(x)
    return out


if __name__ == "__main__":
    fs = [int(x) for x in sys.argv[2:]] or [9, 10]
    got = top_varints(open(sys.argv[1], "rb").read(), fs)
    print(*(got[f] for f in fs))
