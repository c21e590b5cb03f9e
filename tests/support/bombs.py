"""bombs.py — tiny valid pcol files (format 1.2, zstd) that declare huge
work, for tests/cli/t_bombs.sh (issue 28 #5, #6).  Built with the
conformance suite's spec-only writer (tests/conformance/pcolgen.py): every
column is given as runs of one byte (after its transform), stored as zstd
RLE blocks, so nothing large is ever held here.

  python3 tests/support/bombs.py KIND OUT [N]   (N: inline's lines, longname's bytes, rows' samples)
  KIND: deep     16,384 samples on one 16,384-deep stack (cat sample_locations)
        inline   one location with 4 Mi inline lines (flame)
        longname one function whose name is 64 MiB (report)
        rows     2^29 samples in ~66 KB (top, every command: the row budget)
        labels   one sample whose label set has N (16,384) labels k = a 64 KiB
                 string: 1 GiB of "key:value" text for graph's label boxes
        tags     N (400) samples on a chain of N functions, stack i i deep, all
                 with one label set of 10 N "bytes" values: graph's label
                 boxes, 80,000 (node, set) pairs x 4,000 tags
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "conformance"))
import pcolgen as g  # noqa: E402

BLOCK = 1 << 17  # zstd Block_Maximum_Size


def zstd_runs(runs):
    """A zstd frame for the bytes given as runs [(byte, count)]: RLE blocks
    (raw for a run of 1), never the bytes themselves."""
    blocks, total = [], 0
    for b, n in runs:
        total += n
        while n:
            k = min(n, BLOCK)
            blocks.append((1, bytes([b]), k) if k > 1 else (0, bytes([b])))
            n -= k
    return g.zstd_frame(blocks, total)


def zcol(table, col, type, count, runs, tf=0):
    """A zstd column entry of `count` elements whose stored (transformed)
    bytes are `runs`."""
    w = g.WIDTH[type]
    assert sum(n for _, n in runs) == (count if type == g.BYTES else count * w)
    e = g.Entry(table, col, type, zstd_runs(runs), count, codec=2,
                decoded=count if type == g.BYTES else count * w)
    e.flags = tf
    return e


def u32_first_then_zero(first, count):
    """delta-coded u32 column: `first`, then `first` again count-1 times
    (the deltas: first, 0, 0, ...) as runs."""
    head = struct.pack("<I", first)
    return [(b, 1) for b in head] + [(0, 4 * (count - 1))]


def raw(table, col, type, values):
    return g.column(table, col, type, values)


def one_source():
    return [g.rowcount(3, 1), raw(3, 3, g.I64, [0])]  # sources.source_timestamp


def deep():
    n = 16384
    e = one_source()
    e += [g.rowcount(8, 1), raw(8, 2, g.U64, [4096])]  # one location (address)
    e += [g.rowcount(10, n),
          zcol(10, 1, g.U32, n, [(0, 4 * n)], g.ROWREL),  # parent of stack i is i - 1
          zcol(10, 2, g.U32, n, u32_first_then_zero(1, n), g.DELTA)]  # location 1
    e += [g.rowcount(11, n), zcol(11, 6, g.U32, n, u32_first_then_zero(n, n), g.DELTA)]
    return e


def inline(n=4 << 20):
    e = one_source()
    e += [g.rowcount(6, 1), raw(6, 4, g.I64, [1])]  # one function (start_line)
    e += [g.rowcount(8, 1), raw(8, 4, g.U64, [0, n])]  # its n lines
    e += [g.rowcount(9, n), zcol(9, 1, g.U32, n, u32_first_then_zero(1, n), g.DELTA)]
    e += [g.rowcount(10, 1), raw(10, 2, g.U32, [1])]
    e += [g.rowcount(11, 1), raw(11, 6, g.U32, [1])]
    return e


def longname(n=64 << 20):
    e = [g.rowcount(1, 2), raw(1, 1, g.U64, [0, 0, n]), zcol(1, 2, g.BYTES, n, [(ord("a"), n)])]
    e += one_source()
    e += [g.rowcount(6, 1), raw(6, 1, g.U32, [1])]  # function named by string 1
    e += [g.rowcount(8, 1), raw(8, 4, g.U64, [0, 1])]
    e += [g.rowcount(9, 1), raw(9, 1, g.U32, [1])]
    e += [g.rowcount(10, 1), raw(10, 2, g.U32, [1])]
    e += [g.rowcount(11, 1), raw(11, 6, g.U32, [1])]
    return e


def rows(n=1 << 29):
    return one_source() + [g.rowcount(11, n), zcol(11, 1, g.U32, n, u32_first_then_zero(1, n),
                                                   g.DELTA)]


def labels(n=16384, length=65536):
    e = [g.rowcount(1, 3), raw(1, 1, g.U64, [0, 0, 1, 1 + length]),
         zcol(1, 2, g.BYTES, 1 + length, [(ord("k"), 1), (ord("a"), length)])]
    e += one_source()
    e += [g.rowcount(8, 1), raw(8, 2, g.U64, [4096])]  # one location (address)
    e += [g.rowcount(10, 1), raw(10, 2, g.U32, [1])]
    e += [g.rowcount(11, 1), raw(11, 6, g.U32, [1]), raw(11, 7, g.U32, [1])]  # stack 1, label set 1
    e += [g.rowcount(13, 1), raw(13, 1, g.U64, [0, n])]
    e += [g.rowcount(14, n), zcol(14, 1, g.U32, n, u32_first_then_zero(1, n), g.DELTA),  # key "k"
          zcol(14, 2, g.U32, n, u32_first_then_zero(2, n), g.DELTA)]  # value: the long string
    return e


def tags(n=400):
    names = [b"bytes"] + [b"f%d" % i for i in range(n)]
    offs = [0, 0]
    for s in names:
        offs.append(offs[-1] + len(s))
    nl = 10 * n
    e = [g.rowcount(1, len(names) + 1), raw(1, 1, g.U64, offs), raw(1, 2, g.BYTES, b"".join(names))]
    e += one_source()
    e += [g.rowcount(6, n), raw(6, 1, g.U32, list(range(2, n + 2)))]  # function i named f<i-1>
    e += [g.rowcount(8, n), raw(8, 4, g.U64, list(range(n + 1)))]  # location i: line i
    e += [g.rowcount(9, n), raw(9, 1, g.U32, list(range(1, n + 1)))]  # line i: function i
    e += [g.rowcount(10, n), zcol(10, 1, g.U32, n, [(0, 4 * n)], g.ROWREL),  # parent of stack i is i - 1
          raw(10, 2, g.U32, list(range(1, n + 1)))]
    e += [g.rowcount(11, n), raw(11, 6, g.U32, list(range(1, n + 1))),  # sample i on stack i
          zcol(11, 7, g.U32, n, u32_first_then_zero(1, n), g.DELTA)]  # label set 1
    e += [g.rowcount(13, 1), raw(13, 1, g.U64, [0, nl])]
    e += [g.rowcount(14, nl), zcol(14, 1, g.U32, nl, u32_first_then_zero(1, nl), g.DELTA),  # key "bytes"
          zcol(14, 3, g.I64, nl, [(1, 1), (0, 7)] * nl, g.DELTA)]  # values 1, 2, 3, ...
    return e


if __name__ == "__main__":
    kind, out = sys.argv[1], sys.argv[2]
    make = {"deep": deep, "inline": inline, "longname": longname, "rows": rows, "labels": labels, "tags": tags}[kind]
    data = g.serialize_compact(make(*[int(x) for x in sys.argv[3:]]))
    with open(out, "wb") as f:
        f.write(data)
