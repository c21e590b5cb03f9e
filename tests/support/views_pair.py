#!/usr/bin/env python3
"""views_pair.py OUT A B [--source N] [--from NS] [--to NS] [--wall]
[--kind raw|reversed|empty|huge] [--flags F] [--side-null] — a fuzz_views
seed of two pcol files (fuzz/fuzz_views.h, fz_views_pair): A, FZ_NEXT, B,
and, when any option is given, FZ_NEXT and the parameter block of
fzv_chosen (the source N, range and flags of pcol_open_diff_base_select).
--source takes 0..0xef, or huge (UINT32_MAX), or huge-K (UINT32_MAX - K,
K < 16); --flags: bit 1 PCOL_BASE_DIFF, bit 2 PCOL_BASE_NORMALIZE, bit 4
unknown (refused)."""
import argparse, struct

NEXT = b"\xffpcol-next\xff"
KINDS = {"raw": 0, "reversed": 1, "empty": 2, "huge": 3}

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("a")
ap.add_argument("b")
ap.add_argument("--source")
ap.add_argument("--from", dest="frm", type=int)
ap.add_argument("--to", type=int)
ap.add_argument("--wall", action="store_true")
ap.add_argument("--kind", choices=KINDS)
ap.add_argument("--flags", type=int)
ap.add_argument("--side-null", action="store_true")
o = ap.parse_args()
data = open(o.a, "rb").read() + NEXT + open(o.b, "rb").read()
if any(x not in (None, False) for x in (o.source, o.frm, o.to, o.wall, o.kind, o.flags, o.side_null)):
    s = o.source or "0"
    if s.startswith("huge"):
        k = int(s[5:] or 0) if s != "huge" else 0
        assert 0 <= k < 16
        n = 0xff - k
    else:
        n = int(s)
        assert 0 <= n < 0xf0
    frm, to = o.frm or 0, o.to or 0
    # to_ns odd: the side argument NULL; keep the parity asked for
    if o.side_null != bool(to & 1):
        to += 1 if to < 2**63 - 1 else -1
    k = (o.frm is not None) | (o.to is not None) << 1 | o.wall << 2 | KINDS[o.kind or "raw"] << 3 \
        | (o.flags or 0) << 5
    data += NEXT + bytes([n, k]) + struct.pack("<qq", frm, to)
open(o.out, "wb").write(data)
