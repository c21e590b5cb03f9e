"""pcolgen.py — a pcol writer and view renderer written from spec.md alone.

The conformance suite's generator (gen.py) builds its files with this module.
Nothing here calls or imports libpcol: files are laid out from spec.md §2-§5,
LZ4 blocks, zstd frames (raw and RLE blocks, RFC 8878) and the transforms of
format 1.1 and 1.2 follow §4, the compact directory of format 1.2 follows
§3.1, the encoded columns of format 1.3 (lanes, codes, exceptions) follow
§4.1, and the expected logical views follow §11.  Python 3 standard library
only.
"""
import math
import struct
import zlib

# ------------------------------------------------------------ §3, §5: types
U8, U32, I64, U64, F64, BYTES = 1, 2, 3, 4, 5, 6
WIDTH = {U8: 1, U32: 4, I64: 8, U64: 8, F64: 8, BYTES: 1}
PACK = {U8: "<B", U32: "<I", I64: "<q", U64: "<Q", F64: "<Q"}
NA = -(2 ** 63)  # i64 NA, INT64_MIN
NAN = 0x7FF8000000000000  # f64 default: the quiet NaN, as bits
ALIGN = 64
COMPACT_ALIGN = 8  # 1.2 compact file: sections read in place (§3.1)
CODECS_1_1, COMPACT_1_2, ENCODED_1_3, BLOCKS_1_4, SPLIT_LANES_1_5 = 0x1, 0x2, 0x4, 0x8, 0x10  # incompat bits (§9)


def f64(x):
    """An f64 cell as its bit pattern (columns hold bits, so NaN payloads survive)."""
    return struct.unpack("<Q", struct.pack("<d", x))[0]


# Tables (§5).  A column: (id, name, type, kind, default); kind is 'str',
# ('ref', table), 'offsets', 'bytes', 'flags' or 'num'.
SCHEMA = {
    1: ("strings", [(1, "offsets", U64, "offsets", 0), (2, "bytes", BYTES, "bytes", None)]),
    2: ("meta", [(1, "key", U32, "str", 0), (2, "value", U32, "str", 0),
                 (3, "source_id", U32, ("ref", 3), 0)]),
    3: ("sources", [(1, "source_type", U32, "str", 0), (2, "source_uri", U32, "str", 0),
                    (3, "source_timestamp", I64, "num", NA)]),
    4: ("value_types", [(1, "type", U32, "str", 0), (2, "unit", U32, "str", 0)]),
    5: ("source_value_types", [(1, "source_id", U32, ("ref", 3), 0),
                               (2, "value_type_id", U32, ("ref", 4), 0),
                               (3, "total", I64, "num", 0), (4, "rows", U64, "num", 0)]),
    6: ("functions", [(1, "name", U32, "str", 0), (2, "system_name", U32, "str", 0),
                      (3, "filename", U32, "str", 0), (4, "start_line", I64, "num", NA)]),
    7: ("mappings", [(1, "memory_start", U64, "num", 0), (2, "memory_limit", U64, "num", 0),
                     (3, "file_offset", U64, "num", 0), (4, "filename", U32, "str", 0),
                     (5, "build_id", U32, "str", 0), (6, "flags", U8, "flags", 0)]),
    8: ("locations", [(1, "mapping_id", U32, ("ref", 7), 0), (2, "address", U64, "num", 0),
                      (3, "flags", U8, "flags", 0), (4, "line_offsets", U64, "offsets", 0)]),
    9: ("lines", [(1, "function_id", U32, ("ref", 6), 0), (2, "line", I64, "num", NA),
                  (3, "column", I64, "num", NA)]),
    10: ("stacks", [(1, "parent_id", U32, ("ref", 10), 0), (2, "location_id", U32, ("ref", 8), 0)]),
    11: ("samples", [(1, "source_id", U32, ("ref", 3), 1), (2, "time_ns", I64, "num", NA),
                     (3, "duration_ns", I64, "num", 0), (4, "weight", I64, "num", 1),
                     (5, "cpu_delta_ns", I64, "num", NA), (6, "stack_id", U32, ("ref", 10), 0),
                     (7, "labelset_id", U32, ("ref", 13), 0),
                     (8, "value_offsets", U64, "offsets", 0)]),
    12: ("values", [(1, "value_type_id", U32, ("ref", 4), 0), (2, "value", I64, "num", 0)]),
    13: ("labelsets", [(1, "label_offsets", U64, "offsets", 0)]),
    14: ("labels", [(1, "key", U32, "str", 0), (2, "str", U32, "str", 0), (3, "num", I64, "num", 0),
                    (4, "num_unit", U32, "str", 0)]),
    15: ("text_lines", [(1, "source_id", U32, ("ref", 3), 0), (2, "before_sample", U64, "num", 0),
                        (3, "text", U32, "str", 0)]),
    16: ("sample_text", [(1, "sample_id", U32, ("ref", 11), 0), (2, "text", U32, "str", 0)]),
    17: ("models", [(1, "source_id", U32, ("ref", 3), 0), (2, "uid", U32, "str", 0),
                    (3, "model", U32, "str", 0), (4, "method", U32, "str", 0),
                    (5, "r_square", F64, "f64", NAN), (6, "x_start", F64, "f64", NAN),
                    (7, "x_end", F64, "f64", NAN), (8, "coeffs", U32, "str", 0)]),
    # format 1.3 (§6.10): row s - 1 sums up the samples of source s
    18: ("source_summary", [(1, "rows", U64, "num", 0), (2, "weight", I64, "num", 0),
                            (3, "time_first", I64, "num", NA), (4, "time_last", I64, "num", NA),
                            (5, "time_end", I64, "num", NA), (6, "untimed", U64, "num", 0)]),
}
TABLE_ID = {v[0]: k for k, v in SCHEMA.items()}
SUMMARY_COLUMNS = ((5, 3), (5, 4))  # source_value_types' total and rows (1.3)
CHILD = {8: 9, 11: 12, 13: 14}  # offsets column -> child table (§5)


def column_info(t, c):
    for col in SCHEMA.get(t, ("", []))[1]:
        if col[0] == c:
            return col
    return None


# ------------------------------------------------------------- §4: LZ4
def _lz4_len(out, n):
    while n >= 255:
        out.append(255)
        n -= 255
    out.append(n)


def lz4_sequences(seqs):
    """An LZ4 block from explicit sequences: ('lit', bytes) followed by
    ('match', offset, length), ..., ending with ('lit', bytes).  Nothing is
    checked: invalid blocks are built on purpose."""
    out = bytearray()
    k = 0
    while k < len(seqs):
        lit = seqs[k][1]
        k += 1
        m = seqs[k] if k < len(seqs) and seqs[k][0] == "match" else None
        if m:
            k += 1
        ml = m[2] - 4 if m else 0
        out.append((min(len(lit), 15) << 4) | min(ml, 15))
        if len(lit) >= 15:
            _lz4_len(out, len(lit) - 15)
        out += lit
        if m:
            out += struct.pack("<H", m[1])
            if ml >= 15:
                _lz4_len(out, ml - 15)
    return bytes(out)


def lz4_compress(data):
    """A greedy LZ4 block compressor that keeps §4's rules: matches of at
    least 4 bytes, starting at or before len - 12, ending at or before len - 5."""
    n = len(data)
    seqs, anchor, i, last = [], 0, 0, {}
    while i + 12 <= n:
        key = data[i:i + 4]
        c = last.get(key)
        last[key] = i
        if c is not None and i - c <= 65535:
            m = 4
            while i + m < n - 5 and data[c + m] == data[i + m]:
                m += 1
            seqs += [("lit", data[anchor:i]), ("match", i - c, m)]
            i += m
            anchor = i
        else:
            i += 1
    seqs.append(("lit", data[anchor:]))
    block = lz4_sequences(seqs)
    assert lz4_decode(block, n) == data
    return block


def lz4_decode(src, want):
    """§4 rules 1-5: the decoded bytes, or None when the block is invalid."""
    n, ip, out = len(src), 0, bytearray()
    while True:
        if ip >= n:
            return None
        token = src[ip]
        ip += 1
        ln = token >> 4
        if ln == 15:
            while True:
                if ip >= n:
                    return None
                b = src[ip]
                ip += 1
                ln += b
                if b != 255:
                    break
        if ln > n - ip or len(out) + ln > want:
            return None
        out += src[ip:ip + ln]
        ip += ln
        if ip == n:
            return bytes(out) if len(out) == want else None
        if n - ip < 2:
            return None
        off = src[ip] | src[ip + 1] << 8
        ip += 2
        if off == 0 or off > len(out) or len(out) + 12 > want:
            return None
        m = (token & 15) + 4
        if token & 15 == 15:
            while True:
                if ip >= n:
                    return None
                b = src[ip]
                ip += 1
                m += b
                if b != 255:
                    break
        if len(out) + m + 5 > want:
            return None
        for _ in range(m):
            out.append(out[-off])


# ------------------------------------------------ §4: zstd (format 1.1)
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def zstd_block(kind, content, last, size=None):
    """One block: kind 0 raw (content = its bytes), 1 RLE (content = one
    byte, repeated `size` times), 3 reserved (invalid)."""
    n = len(content) if kind != 1 else size
    h = (n << 3) | (kind << 1) | (1 if last else 0)
    return struct.pack("<I", h)[:3] + content


def zstd_frame(blocks, fcs, single=True, dict_id=None):
    """A frame header, then the blocks as given (each (kind, content[, size])).
    fcs None: no Frame_Content_Size (then not single-segment: a window
    descriptor is written)."""
    if fcs is None:
        single = False
    fcs_code, fcs_bytes = 0, b""
    if fcs is not None:
        if single and fcs < 256:
            fcs_code, fcs_bytes = 0, struct.pack("<B", fcs)
        elif fcs >= 256 and fcs < 65536 + 256:
            fcs_code, fcs_bytes = 1, struct.pack("<H", fcs - 256)
        elif fcs < 2 ** 32:
            fcs_code, fcs_bytes = 2, struct.pack("<I", fcs)
        else:
            fcs_code, fcs_bytes = 3, struct.pack("<Q", fcs)
    did_code, did_bytes = 0, b""
    if dict_id is not None:
        did_code, did_bytes = 3, struct.pack("<I", dict_id)
    fhd = (fcs_code << 6) | ((1 if single else 0) << 5) | did_code
    out = ZSTD_MAGIC + bytes([fhd])
    if not single:
        out += bytes([(17 - 10) << 3])  # window descriptor: 128 KiB
    out += did_bytes + fcs_bytes
    for i, b in enumerate(blocks):
        out += zstd_block(b[0], b[1], i == len(blocks) - 1, *b[2:])
    return out


def zstd_compress(raw):
    """A valid frame for raw: raw blocks of at most 128 KiB, with a runs of
    one repeated byte as RLE blocks when the whole block is one byte."""
    blocks = []
    for k in range(0, max(len(raw), 1), 1 << 17):
        chunk = raw[k:k + (1 << 17)]
        if len(chunk) > 1 and chunk.count(chunk[:1]) == len(chunk):
            blocks.append((1, chunk[:1], len(chunk)))
        else:
            blocks.append((0, chunk))
    return zstd_frame(blocks, len(raw))


# ------------------------------- §4: transforms (format 1.1; 1.2 row-relative)
DELTA, SPLIT, ROWREL, ENCODED = 1, 2, 4, 8
SIGNED = {U32: "<i", I64: "<q", U64: "<q"}


def split_bytes(raw, w):
    """Byte-stream split: byte k of element i at k * n + i."""
    return b"".join(raw[k::w] for k in range(w))


def delta_values(values, type):
    """The deltas v[i] - v[i-1] (v[-1] = 0) as signed integers of the width,
    packed; None when one does not fit (the writer then does not use delta)."""
    lo, hi = -(2 ** (8 * WIDTH[type] - 1)), 2 ** (8 * WIDTH[type] - 1) - 1
    out, prev = [], 0
    for v in values:
        d = v - prev
        if not lo <= d <= hi:
            return None
        out.append(struct.pack(SIGNED[type], d))
        prev = v
    return b"".join(out)


def rowrel_values(values, type):
    """Row-relative (1.2): d[i] = i - v[i] as signed integers of the width,
    packed; None when one does not fit (the writer then does not use it)."""
    lo, hi = -(2 ** (8 * WIDTH[type] - 1)), 2 ** (8 * WIDTH[type] - 1) - 1
    out = []
    for i, v in enumerate(values):
        d = i - v
        if not lo <= d <= hi:
            return None
        out.append(struct.pack(SIGNED[type], d))
    return b"".join(out)


# ------------------------------------------ §4.1: encoded columns (format 1.3)
M64 = 2 ** 64
ENC_HEADER, ENC_LANE, ENC_MAX_LANES = 8, 24, 4096
ENC_WIDTHS = (0, 1, 2, 4, 8)


def lane_rows(count, k, j):
    """rows_j = ceil((count - j) / k), 0 when count <= j (§4.1, Lanes)."""
    return (count - j + k - 1) // k if count > j else 0


def all_ones(width):
    return 2 ** (8 * width) - 1


class Lane:
    """One lane of §4.1: base and step (any integers, stored modulo 2^64),
    a width, its codes (one per row) and exceptions [(row, value)].  nexc
    and reserved force the descriptor's fields (invalid files)."""

    def __init__(self, base, step, width, codes, exc=()):
        self.base, self.step, self.width = base, step, width
        self.codes, self.exc = list(codes), list(exc)
        self.nexc = None  # forced e_j (else len(exc))
        self.reserved = bytes(3)


def enc_lanes(values, k=1, steps=None, widths=None, bases=None):
    """The lanes that hold `values` (the column's integers: i64 signed, u32
    and u64 unsigned) dealt round-robin to k lanes (§4.1).  Per lane j:
    step steps[j] (default 0); base bases[j], or the lowest value - r x step
    (then every code is that distance, exact); width widths[j], or the
    narrowest that holds every code.  A code above the width's all-ones
    code becomes an exception (code all ones, the value listed); a code equal
    to it is an ordinary code."""
    lanes = []
    for j in range(k):
        vals = values[j::k]
        step = steps[j] if steps else 0
        line = [v - r * step for r, v in enumerate(vals)]
        base = bases[j] if bases else (min(line) if line else 0)
        codes = [(x - base) % M64 for x in line]
        if widths:
            w = widths[j]
        else:
            top = max(codes, default=0)
            w = next(w for w in ENC_WIDTHS if top <= all_ones(w))
        out, exc = [], []
        for r, c in enumerate(codes):
            if c > all_ones(w):
                assert w, "a width-0 lane has no exceptions"
                out.append(all_ones(w))
                exc.append((r, vals[r] % M64))
            else:
                out.append(c)
        lanes.append(Lane(base, step, w, out, exc))
    return lanes


def enc_layout(lanes, reserved=0, k=None, pad=b"\x00", tail=b"", split=False):
    """The decoded section of §4.1: k, reserved, the lane descriptors, each
    lane's codes at a multiple of its width, zero bytes to a multiple of 8,
    then every lane's exceptions.  k forces the lane count, pad is the byte
    of the padding, tail bytes follow the layout (invalid files); split
    (format 1.5) stores each lane of width 2 or more byte-split in place."""
    out = bytearray(struct.pack("<II", len(lanes) if k is None else k, reserved))
    for l in lanes:
        out += struct.pack("<QQB", l.base % M64, l.step % M64, l.width) + l.reserved
        out += struct.pack("<I", len(l.exc) if l.nexc is None else l.nexc)
    for l in lanes:
        if l.width:
            while len(out) % l.width:
                out += pad
            codes = b"".join(c.to_bytes(l.width, "little") for c in l.codes)
            out += split_bytes(codes, l.width) if split and l.width > 1 else codes
    while len(out) % 8:
        out += pad
    for l in lanes:
        for r, v in l.exc:
            out += struct.pack("<QQ", r, v % M64)
    return bytes(out + tail)


def enc_decode(data, count, type):
    """§4.1 read back: the column's values (i64 signed), or a ValueError
    naming the part of U11 that the section breaks."""
    def need(ok, what):
        if not ok:
            raise ValueError(what)
    size = len(data)
    need(size >= 32, "D11: shorter than 32 bytes")
    k, res = struct.unpack_from("<II", data, 0)
    need(res == 0, "reserved header bytes")
    need(1 <= k <= ENC_MAX_LANES and (k <= count if count else k == 1), "lanes")
    need(ENC_HEADER + ENC_LANE * k <= size, "descriptors past the end")
    p, lanes = ENC_HEADER + ENC_LANE * k, []
    for j in range(k):
        d = ENC_HEADER + ENC_LANE * j
        base, step, w = struct.unpack_from("<QQB", data, d)
        e = struct.unpack_from("<I", data, d + 20)[0]
        rows = lane_rows(count, k, j)
        need(data[d + 17:d + 20] == bytes(3), "lane reserved bytes")
        need(w in ENC_WIDTHS, "width")
        need(w or not e, "exceptions in a width-0 lane")
        need(e <= rows, "more exceptions than rows")
        if w:
            q = -(-p // w) * w
            need(data[p:q] == bytes(q - p), "padding before codes")
            need(q + rows * w <= size, "codes past the end")
            codes = [int.from_bytes(data[q + r * w:q + r * w + w], "little") for r in range(rows)]
            p = q + rows * w
        else:
            codes = [0] * rows
        lanes.append((base, step, w, codes, e))
    q = -(-p // 8) * 8
    need(q <= size and data[p:q] == bytes(q - p), "padding before the exceptions")
    p, out = q, [None] * count
    for j, (base, step, w, codes, e) in enumerate(lanes):
        need(p + 16 * e <= size, "exceptions past the end")
        patch = {}
        for x in range(e):
            r, v = struct.unpack_from("<QQ", data, p + 16 * x)
            need(r < len(codes) and (x == 0 or r > prev), "exception rows")
            need(codes[r] == all_ones(w), "an exception at a code not all ones")
            patch[r], prev = v, r
        p += 16 * e
        for r, c in enumerate(codes):
            v = patch.get(r, (base + r * step + c) % M64)
            need(type != U32 or v < 2 ** 32, "a u32 value of 2^32 or more")
            out[r * k + j] = v - M64 if type == I64 and v >= 2 ** 63 else v
    need(p == size, "bytes after the layout")
    return out


def encoded(table, col, type, values, codec=0, lanes=None, split=False, **plan):
    """An encoded column entry (flags bit 3, §4.1) holding `values`: lanes as
    given, or enc_lanes(values, **plan); checked by reading it back.  codec 1
    or 2 compresses the layout (its decoded size is the layout's bytes);
    split (format 1.5, flags bit 1 too) byte-splits each lane's codes."""
    if lanes is None:
        lanes = enc_lanes(values, **plan)
    layout = enc_layout(lanes)
    assert enc_decode(layout, len(values), type) == list(values)
    if split:
        layout = enc_layout(lanes, split=True)
    e = Entry(table, col, type, layout, len(values))
    e.flags, e.decoded = ENCODED | (SPLIT if split else 0), len(layout)
    if codec == 1:
        e.codec, e.data = 1, lz4_compress(layout)
    elif codec == 2:
        e.codec, e.data = 2, zstd_compress(layout)
    return e


# ------------------------------------------------------- §2, §3: the file
def align(x):
    return (x + ALIGN - 1) // ALIGN * ALIGN


class Entry:
    """One directory entry; column 0 is a row-count entry."""

    def __init__(self, table, column, type=0, data=b"", count=0, codec=0, decoded=None):
        self.table, self.column, self.type, self.codec = table, column, type, codec
        self.data, self.count = data, count
        self.decoded = len(data) if decoded is None else decoded
        self.flags, self.reserved = 0, bytes(20)
        self.offset = None  # forced offset (else laid out)
        self.stored = None  # forced stored_size (else len(data))
        self.crc = None  # forced crc (else computed)
        self.gap = 0  # extra zero bytes before the section
        self.fields = {}  # forced raw fields: name -> value
        self.align = None  # compact layout: forced alignment (else by codec and flags)
        self.enc = {}  # compact entry: forced encodings, field name -> bytes

    def key(self):
        return self.table * 65536 + self.column


def rowcount(table, rows):
    return Entry(table, 0, count=rows)


def transformed(values, type, tf):
    """The stored form of values under tf (delta or row-relative, then
    split), and the bits actually used (delta or row-relative dropped where
    a value does not fit, as writers do)."""
    raw = b"".join(struct.pack(PACK[type], v) for v in values)
    stored = raw
    if tf & DELTA:
        stored = delta_values(values, type)
        if stored is None:
            tf &= ~DELTA
            stored = raw
    if tf & ROWREL:
        stored = rowrel_values(values, type)
        if stored is None:
            tf &= ~ROWREL
            stored = raw
    if tf & SPLIT:
        stored = split_bytes(stored, WIDTH[type])
    return stored, tf


def zstd_blocks(values, type, tf, block_rows, frame=None):
    """Codec 3, zstd blocks (1.4, §4.2): nblocks, block_rows, the blocks' ends,
    then each block's frame (frame(raw) -> bytes, zstd_compress by default)
    of its values transformed alone.  Returns (stored bytes, tf used: a
    transform that does not fit one block is dropped for all)."""
    frame = frame or zstd_compress
    blocks = [values[k:k + block_rows] for k in range(0, len(values), block_rows)]
    for b in blocks:
        tf = transformed(b, type, tf)[1]
    frames = [frame(transformed(b, type, tf)[0]) for b in blocks]
    return blocks_layout(frames, block_rows), tf


def blocks_layout(frames, block_rows, nblocks=None):
    """The stored bytes of codec 3 from its frames."""
    head = 8 + 8 * len(frames)
    ends, pos = [], head
    for f in frames:
        pos += len(f)
        ends.append(pos)
    n = len(frames) if nblocks is None else nblocks
    return (struct.pack("<II", n, block_rows) + b"".join(struct.pack("<Q", x) for x in ends)
            + b"".join(frames))


def column(table, col, type, values, codec=0, tf=0, block_rows=2):
    """A column entry from its values (ints, f64 bit patterns, or bytes);
    codec 0 raw, 1 LZ4, 2 zstd, 3 zstd blocks of block_rows (1.4); tf the
    transform bits (delta or row-relative, then split), applied first (with
    codec 3, to each block)."""
    assert not (tf & DELTA and tf & ROWREL), "D14: never both"
    if codec == 3:
        raw = b"".join(struct.pack(PACK[type], v) for v in values)
        data, tf = zstd_blocks(values, type, tf, block_rows)
        e = Entry(table, col, type, data, len(values))
        e.decoded, e.flags, e.codec = len(raw), tf, 3
        return e
    if type == BYTES:
        raw = bytes(values)
        count = len(raw)
    else:
        raw = b"".join(struct.pack(PACK[type], v) for v in values)
        count = len(values)
    stored = raw
    if tf & DELTA:
        stored = delta_values(values, type)
        if stored is None:  # a difference does not fit: no delta (as writers do)
            tf &= ~DELTA
            stored = raw
    if tf & ROWREL:
        stored = rowrel_values(values, type)
        if stored is None:  # a value too far from its row: no row-relative
            tf &= ~ROWREL
            stored = raw
    if tf & SPLIT:
        stored = split_bytes(stored, WIDTH[type])
    e = Entry(table, col, type, stored, count)
    e.decoded, e.flags = len(raw), tf
    if codec == 1:
        e.codec, e.data = 1, lz4_compress(stored)
    elif codec == 2:
        e.codec, e.data = 2, zstd_compress(stored)
    return e


def put(buf, at, fmt, v):
    struct.pack_into(fmt, buf, at, v)


def apply_hooks(buf, layout, hooks):
    """hooks(buf, layout) may change bytes (or return a new buffer) before
    the checksums are computed."""
    for h in hooks:
        r = h(buf, layout)
        if r is not None:
            buf = r
    return buf


def serialize(entries, major=1, minor=0, incompat=0, compat=0, dir_gap=0, dir_shift=0,
              hooks=(), fix=("sections", "body", "header")):
    """Lays out the file (§1-§3): sections in directory order at multiples of
    64, the directory at the end, checksums.  hooks(buf, layout) may change
    bytes before the checksums are computed; `fix` names the checksums to
    compute (the others stay 0 or as the hooks left them)."""
    pos = 64
    for e in entries:
        if e.column == 0:
            e._off = 0
            continue
        e._off = align(pos) + e.gap if e.offset is None else e.offset
        pos = max(pos, e._off + len(e.data))
    dir_off = align(pos) + dir_gap + dir_shift
    size = dir_off + 64 * len(entries)
    buf = bytearray(size)
    for e in entries:
        if e.column and e._off + len(e.data) <= size:
            buf[e._off:e._off + len(e.data)] = e.data
    for i, e in enumerate(entries):
        d = dir_off + 64 * i
        f = dict(table=e.table, column=e.column, type=e.type, codec=e.codec, flags=e.flags,
                 offset=e._off if e.column else 0,
                 stored=(len(e.data) if e.stored is None else e.stored) if e.column else 0,
                 decoded=e.decoded if e.column else 0, count=e.count)
        f.update(e.fields)
        put(buf, d + 0, "<H", f["table"])
        put(buf, d + 2, "<H", f["column"])
        put(buf, d + 4, "<B", f["type"])
        put(buf, d + 5, "<B", f["codec"])
        put(buf, d + 6, "<H", f["flags"])
        put(buf, d + 8, "<Q", f["offset"])
        put(buf, d + 16, "<Q", f["stored"])
        put(buf, d + 24, "<Q", f["decoded"])
        put(buf, d + 32, "<Q", f["count"])
        buf[d + 44:d + 64] = e.reserved
        e._dir = d
    header(buf, major, minor, incompat, compat, size, dir_off, len(entries), 64)
    buf = apply_hooks(buf, {"dir": dir_off, "entries": entries}, hooks)
    for e in entries:
        if e.column == 0:
            if e.crc is not None:
                put(buf, e._dir + 40, "<I", e.crc)
            continue
        off, st = struct.unpack_from("<QQ", buf, e._dir + 8)
        crc = e.crc
        if crc is None and "sections" in fix and off + st <= len(buf):
            crc = zlib.crc32(bytes(buf[off:off + st]))
        if crc is not None:
            put(buf, e._dir + 40, "<I", crc)
    return checksums(buf, fix)


def header(buf, major, minor, incompat, compat, size, dir_off, count, entry_size):
    """The 64-byte header of §2, without its checksums."""
    buf[0:8] = b"\x89PCOL\r\n\x1a"
    put(buf, 8, "<H", major)
    put(buf, 10, "<H", minor)
    put(buf, 12, "<I", 64)
    put(buf, 16, "<Q", incompat)
    put(buf, 24, "<Q", compat)
    put(buf, 32, "<Q", size)
    put(buf, 40, "<Q", dir_off)
    put(buf, 48, "<I", count)
    put(buf, 52, "<I", entry_size)


def checksums(buf, fix):
    """body_crc and header_crc (§2), those that `fix` names."""
    if "body" in fix:
        put(buf, 56, "<I", zlib.crc32(bytes(buf[64:])))
    if "header" in fix:
        put(buf, 60, "<I", zlib.crc32(bytes(buf[0:60])))
    return bytes(buf)


# ------------------------------------------- §3.1: the compact directory (1.2)
def varint(v):
    """Unsigned LEB128, minimal: 7 bits a byte, low group first (§3.1)."""
    assert 0 <= v < 2 ** 64
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def in_place(e):
    """A section read in place (codec 0, flags 0 or exactly bit 3, encoded,
    1.3): aligned to 8 in a compact file; any other is decoded first and may
    start anywhere (§3.1)."""
    return e.codec == 0 and e.flags in (0, ENCODED)


def compact_entry(e, prev_key, prev_end):
    """e's compact entry (§3.1) as [(field, bytes)], in order.  e.fields
    forces a field's value (key_delta, type, codec, flags, gap, stored,
    count, decoded), e.enc its bytes (invalid varints).  An encoded entry
    (flags bit 3) with a codec also has its decoded size (1.3)."""
    f = dict(key_delta=e.key() - prev_key, count=e.count)
    if e.column:
        stored = len(e.data) if e.stored is None else e.stored
        f.update(type=e.type, codec=e.codec, flags=e.flags, gap=e._off - prev_end, stored=stored,
                 decoded=e.decoded)
    f.update(e.fields)
    names = ["key_delta", "count"] if e.column == 0 else [
        "key_delta", "type", "codec", "flags", "gap", "stored", "count"]
    if e.column and f["flags"] & ENCODED and f["codec"] != 0:
        names.append("decoded")
    return [(n, e.enc[n] if n in e.enc else
             struct.pack("<B", f[n]) if n in ("type", "codec") else varint(f[n]))
            for n in names]


def serialize_compact(entries, major=1, minor=None, incompat=None, compat=0, dir_gap=0, tail=b"",
                      cut=0, hooks=(), fix=("body", "header")):
    """A format 1.2 file with the compact directory (§3.1): each section right
    after the previous one, or at the next multiple of 8 when it is read in
    place (plus e.gap zero bytes, or at e.offset); the entries right after the
    last section (plus dir_gap); then `tail` (stray bytes), and the last `cut`
    bytes dropped (file_size follows both).  incompat None: bit 1, bit 0
    when a section uses zstd, delta or split, bit 2 when a column is
    encoded and bit 4 when one has byte-split lanes, as a writer sets them
    (§9); minor None: 5 with bit 4, 4 with bit 3, 3 with bit 2, else 2.
    No crc per section: body_crc covers them (F1)."""
    if incompat is None:
        incompat = COMPACT_1_2 | (CODECS_1_1 if any(
            e.column and (e.codec == 2 or e.flags & (DELTA | SPLIT)) for e in entries) else 0)
        incompat |= ENCODED_1_3 if any(e.column and e.flags & ENCODED for e in entries) else 0
        incompat |= BLOCKS_1_4 if any(e.column and e.codec == 3 for e in entries) else 0
        incompat |= SPLIT_LANES_1_5 if any(
            e.column and e.flags == ENCODED | SPLIT for e in entries) else 0
    if minor is None:
        minor = (5 if incompat & SPLIT_LANES_1_5 else 4 if incompat & BLOCKS_1_4
                 else 3 if incompat & ENCODED_1_3 else 2)
    pos = 64  # the previous section's end
    for e in entries:
        if e.column == 0:
            e._off = 0
            continue
        a = e.align or (COMPACT_ALIGN if in_place(e) else 1)
        e._off = (pos + a - 1) // a * a + e.gap if e.offset is None else e.offset
        pos = max(pos, e._off + len(e.data))
    dir_off = pos + dir_gap
    # key_delta and gap from the previous entry as it is (a forced field
    # changes only its own entry's bytes)
    d, prev_key, prev_end = bytearray(), 0, 64
    for e in entries:
        e._dir, e._at = dir_off + len(d), {}
        for n, b in compact_entry(e, prev_key, prev_end):
            e._at[n] = dir_off + len(d)
            d += b
        prev_key = e.key()
        if e.column:
            prev_end = e._off + len(e.data)
    body = bytearray(dir_off) + d + tail
    size = len(body) - cut
    buf = body[:size]
    for e in entries:
        if e.column and e._off + len(e.data) <= dir_off:
            buf[e._off:e._off + len(e.data)] = e.data
    header(buf, major, minor, incompat, compat, size, dir_off, len(entries), 0)
    buf = apply_hooks(buf, {"dir": dir_off, "entries": entries}, hooks)
    return checksums(buf, fix)


# ------------------------------------------------------ a profile, logically
class Profile:
    """Tables as lists of rows (dicts by column name, missing = default).
    locations rows hold 'lines', samples rows 'values', labelsets rows
    'labels' (lists of child rows); strings are interned with s()."""

    def __init__(self):
        self.strings = [b""]  # id 0: NA
        self.ids = {}
        self.t = {t: [] for t in SCHEMA if t not in (1, 9, 12, 14)}

    def s(self, b):
        if isinstance(b, str):
            b = b.encode()
        if b not in self.ids:
            self.ids[b] = len(self.strings)
            self.strings.append(b)
        return self.ids[b]

    def add(self, table, **row):
        rows = self.t[TABLE_ID[table] if isinstance(table, str) else table]
        rows.append(row)
        return len(rows)

    def materialize(self):
        """{table: {'rows': n, col: [values]}} with every default filled in."""
        M = {}
        rows = dict(self.t)
        rows[9] = [l for loc in self.t[8] for l in loc.get("lines", [])]
        rows[12] = [v for s in self.t[11] for v in s.get("values", [])]
        rows[14] = [l for ls in self.t[13] for l in ls.get("labels", [])]
        for t, (name, cols) in SCHEMA.items():
            if t == 1:
                n = len(self.strings) if len(self.strings) > 1 else 0
                offs, acc = [0], 0
                for b in self.strings[:n]:
                    acc += len(b)
                    offs.append(acc)
                M[1] = {"rows": n, 1: offs if n else [0], 2: b"".join(self.strings[:n])}
                continue
            R = rows[t]
            m = {"rows": len(R)}
            for cid, cname, ty, kind, dflt in cols:
                if kind == "offsets":
                    key = {8: "lines", 11: "values", 13: "labels"}[t]
                    offs, acc = [0], 0
                    for r in R:
                        acc += len(r.get(key, []))
                        offs.append(acc)
                    m[cid] = offs
                else:
                    m[cid] = [r.get(cname, dflt) for r in R]
            M[t] = m
        return M


def is_default(t, c, values):
    info = column_info(t, c)
    if info[3] == "bytes":
        return len(values) == 0
    return all(v == info[4] for v in values)


def pack(M, store_all=False, omit=(), keep=(), codec=None):
    """Directory entries for a materialized profile, in key order.  The
    writer's choice (§3): all-default columns left out, except the first
    column of a table other than samples that would store none.  store_all
    stores every column of every table with rows; omit and keep force
    columns out or in; codec(t, c, type) picks 0 (raw), 1 (LZ4), 2 (zstd), or
    a pair (codec, transform bits)."""
    out = []
    for t in sorted(SCHEMA):
        m = M[t]
        n = m["rows"]
        if n == 0:
            continue
        out.append(rowcount(t, n))
        chosen = []
        for cid, cname, ty, kind, dflt in SCHEMA[t][1]:
            vals = m[cid]
            # store_all: every column of the file's version (the summary's
            # columns of source_value_types only with a summary, 1.3 §6.10)
            store = (store_all and ((t, cid) not in SUMMARY_COLUMNS or M[18]["rows"] > 0)) or \
                not is_default(t, cid, vals)
            if (t, cid) in omit:
                store = False
            if (t, cid) in keep:
                store = True
            chosen.append((cid, ty, vals, store))
        if (t != 11 and not any(c[3] for c in chosen) and (t != 1 or n > 1)
                and (t, chosen[0][0]) not in omit):
            chosen[0] = chosen[0][:3] + (True,)
        for cid, ty, vals, store in chosen:
            if store:
                ct = codec(t, cid, ty) if codec else 0
                ct = ct if isinstance(ct, tuple) else (ct, 0)
                out.append(column(t, cid, ty, vals, *ct))
    return out


def find(entries, t, c):
    for e in entries:
        if e.table == t and e.column == c:
            return e
    raise KeyError((t, c))


# ---------------------------------------------------------- §11: the views
class Str(bytes):
    """A str cell (rendered by §11.3's byte rules)."""


class F(int):
    """An f64 cell, as its bit pattern."""


def json_string(b):
    out = ['"']
    i, n = 0, len(b)
    while i < n:
        c = b[i]
        if c in (0x22, 0x5C):
            out.append("\\" + chr(c))
        elif c < 0x20 or c == 0x7F:
            out.append("\\u%04x" % c)
        elif c < 0x80:
            out.append(chr(c))
        else:
            ln = utf8_len(b, i)
            if ln:
                out.append(b[i:i + ln].decode("utf-8"))
                i += ln - 1
            else:
                out.append("\\u%04x" % c)
        i += 1
    out.append('"')
    return "".join(out)


def utf8_len(b, i):
    """Length of the well-formed UTF-8 sequence at b[i:] (RFC 3629), 0 if none."""
    c = b[i]
    if 0xC2 <= c <= 0xDF:
        ln = 2
    elif 0xE0 <= c <= 0xEF:
        ln = 3
    elif 0xF0 <= c <= 0xF4:
        ln = 4
    else:
        return 0
    lo, hi = 0x80, 0xBF
    if c == 0xE0:
        lo = 0xA0
    elif c == 0xED:
        hi = 0x9F
    elif c == 0xF0:
        lo = 0x90
    elif c == 0xF4:
        hi = 0x8F
    if i + ln > len(b) or not lo <= b[i + 1] <= hi:
        return 0
    if any(b[i + k] & 0xC0 != 0x80 for k in range(2, ln)):
        return 0
    return ln


def render_cell(v):
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, Str):
        return json_string(bytes(v))
    if isinstance(v, F):
        x = struct.unpack("<d", struct.pack("<Q", int(v)))[0]
        if math.isnan(x):
            return "null"
        if math.isinf(x):
            return '"Infinity"' if x > 0 else '"-Infinity"'
        return "%.17g" % x
    return str(int(v))


def render_row(names, cells):
    return "{" + ",".join('"%s":%s' % (k, render_cell(v)) for k, v in zip(names, cells)) + "}"


VIEWS = ["meta", "sources", "value_types", "source_value_types", "functions", "mappings",
         "locations", "location_lines", "stacks", "samples", "sample_values",
         "sample_locations", "sample_labels", "text_lines", "sample_text", "models", "strings"]


def views(M, strings):
    """The 17 logical views of §11.2, as lists of JSON lines (§11.3)."""

    def s(x):  # str(x)
        return None if x == 0 else Str(strings[x])

    def ref(x):
        return None if x == 0 else x

    def i64(x):
        return None if x == NA else x

    def col(t, c):
        return M[t][c]

    out = {}

    def table(name, names, rows):
        out[name] = [render_row(names, r) for r in rows]

    n = lambda t: M[t]["rows"]
    table("meta", ["key", "value", "source_id"],
          [[s(col(2, 1)[i]), s(col(2, 2)[i]), ref(col(2, 3)[i])] for i in range(n(2))])
    table("sources", ["source_id", "source_type", "source_uri", "source_timestamp"],
          [[i + 1, s(col(3, 1)[i]), s(col(3, 2)[i]), i64(col(3, 3)[i])] for i in range(n(3))])
    table("value_types", ["value_type_id", "type", "unit"],
          [[i + 1, s(col(4, 1)[i]), s(col(4, 2)[i])] for i in range(n(4))])
    table("source_value_types", ["source_id", "value_type_id"],
          [[ref(col(5, 1)[i]), ref(col(5, 2)[i])] for i in range(n(5))])
    table("functions", ["function_id", "name", "system_name", "filename", "start_line"],
          [[i + 1, s(col(6, 1)[i]), s(col(6, 2)[i]), s(col(6, 3)[i]), i64(col(6, 4)[i])]
           for i in range(n(6))])
    table("mappings", ["mapping_id", "memory_start", "memory_limit", "file_offset", "filename",
                       "build_id", "has_functions", "has_filenames", "has_line_numbers",
                       "has_inline_frames"],
          [[i + 1, col(7, 1)[i], col(7, 2)[i], col(7, 3)[i], s(col(7, 4)[i]), s(col(7, 5)[i])]
           + [bool(col(7, 6)[i] & b) for b in (1, 2, 4, 8)] for i in range(n(7))])
    lo = col(8, 4)
    rows = []
    for i in range(n(8)):
        a, e = lo[i], lo[i + 1]
        fn, ln = (ref(col(9, 1)[a]), i64(col(9, 2)[a])) if a < e else (None, None)
        rows.append([i + 1, fn, ln, col(8, 2)[i], ref(col(8, 1)[i]), bool(col(8, 3)[i] & 1)])
    table("locations", ["location_id", "function_id", "line", "address", "mapping_id",
                        "is_folded"], rows)
    table("location_lines", ["location_id", "depth", "function_id", "line", "column"],
          [[i + 1, k - lo[i] + 1, ref(col(9, 1)[k]), i64(col(9, 2)[k]), i64(col(9, 3)[k])]
           for i in range(n(8)) for k in range(lo[i], lo[i + 1])])
    table("stacks", ["stack_id", "parent_id", "location_id"],
          [[i + 1, ref(col(10, 1)[i]), ref(col(10, 2)[i])] for i in range(n(10))])
    table("samples", ["sample_id", "source_id", "time_ns", "duration_ns", "weight",
                      "cpu_delta_ns", "stack_id", "labelset_id"],
          [[i + 1, ref(col(11, 1)[i]), i64(col(11, 2)[i]), i64(col(11, 3)[i]),
            i64(col(11, 4)[i]), i64(col(11, 5)[i]), ref(col(11, 6)[i]), ref(col(11, 7)[i])]
           for i in range(n(11))])
    vo = col(11, 8)
    rows = []
    for i in range(n(11)):
        for k in range(vo[i], vo[i + 1]):
            t = col(12, 1)[k]
            rows.append([i + 1, s(col(4, 1)[t - 1]), s(col(4, 2)[t - 1]), i64(col(12, 2)[k])])
    table("sample_values", ["sample_id", "type", "unit", "value"], rows)
    rows = []
    for i in range(n(11)):
        node, depth = col(11, 6)[i], 1
        while node:
            rows.append([i + 1, depth, col(10, 2)[node - 1]])
            node, depth = col(10, 1)[node - 1], depth + 1
    table("sample_locations", ["sample_id", "depth", "location_id"], rows)
    lso = col(13, 1)
    rows = []
    for i in range(n(11)):
        ls = col(11, 7)[i]
        if ls == 0:
            continue
        for k in range(lso[ls - 1], lso[ls]):
            st, num = col(14, 2)[k], col(14, 3)[k]
            rows.append([i + 1, s(col(14, 1)[k]), s(st), None if st and num == 0 else i64(num),
                         s(col(14, 4)[k])])
    table("sample_labels", ["sample_id", "key", "str", "num", "unit"], rows)
    table("text_lines", ["source_id", "before_sample", "text"],
          [[ref(col(15, 1)[i]), col(15, 2)[i], s(col(15, 3)[i])] for i in range(n(15))])
    table("sample_text", ["sample_id", "text"],
          [[ref(col(16, 1)[i]), s(col(16, 2)[i])] for i in range(n(16))])
    table("models", ["model_id", "source_id", "uid", "model", "method", "r_square", "x_start",
                     "x_end", "coeffs"],
          [[i + 1, ref(col(17, 1)[i]), s(col(17, 2)[i]), s(col(17, 3)[i]), s(col(17, 4)[i]),
            F(col(17, 5)[i]), F(col(17, 6)[i]), F(col(17, 7)[i]), s(col(17, 8)[i])]
           for i in range(n(17))])
    nstr = max(len(strings), 1)
    table("strings", ["string_id", "value"], [[k, Str(strings[k])] for k in range(1, nstr)])
    return out


def views_text(M, strings):
    v = views(M, strings)
    lines = []
    for name in VIEWS:
        lines.append("# view " + name)
        lines.extend(v[name])
    return "\n".join(lines) + "\n"
