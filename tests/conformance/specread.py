#!/usr/bin/env python3
"""specread.py — a pcol reader written from spec.md (format 1.4) alone: by a
helper that read spec.md, README.md and doc/ but no libpcol source, for
spec.md's promise that a reader written from it agrees with libpcol on every
file (tests/interop/t_spec_reader.sh holds it to that).  Standard library
only; zstd and LZ4 frames are inflated by the system's libzstd.so.1 and
liblz4.so.1 (ctypes), as the entropy coders are not the spec's.  When spec.md
changes, change this from the spec's text, not from libpcol's code.

usage:
  specread.py cat FILE            all views, pcol `cat --table all --format jsonl` order, tagged
  specread.py views FILE          conformance .views format (spec order, '# view NAME')
  specread.py check [--open|--full] FILE   exit 0 valid, 1 refused (prints rule id)
  specread.py cat-range FILE VIEW FROM TO  view samples or sample_values of the time range
                                  [FROM, TO) (seconds, as `pcol cat --from --to`; spec.md §7, §7.1)
  specread.py count FILE VALUE    "SUM TOTAL" of VALUE (samples, weight, a type) over the samples
                                  with a stack, and the total shares are of (spec.md §6.4, §6.11);
                                  exit 1 where a reader must not show it
  specread.py serve               the commands above, one a line of stdin (a JSON list of
                                  arguments), in one process (run.py --serve; see serve())
"""
import sys, struct, zlib, ctypes, math, re, functools
from array import array

M64 = (1 << 64) - 1
I64MIN = -(1 << 63)
I64MAX = (1 << 63) - 1
NAN_DEFAULT_BITS = 0x7FF8000000000000


class Bad(Exception):
    def __init__(self, rule, msg):
        super().__init__(f"{rule}: {msg}")
        self.rule = rule


U8, U32, I64, U64, F64, BYTES = 1, 2, 3, 4, 5, 6
WIDTH = {1: 1, 2: 4, 3: 8, 4: 8, 5: 8, 6: 1}
ACODE = {U8: 'B', U32: 'I', I64: 'q', U64: 'Q', F64: 'd'}
assert array('I').itemsize == 4 and array('Q').itemsize == 8 and sys.byteorder == 'little'

# ---------------------------------------------------------------- schema (§5)
# column: (name, type, kind, default, target)   kind: plain, str, ref, off, flags, bytes
T = {}
def tab(tid, name, cols):
    T[tid] = (name, {i + 1: c for i, c in enumerate(cols)})
tab(1, 'strings', [('offsets', U64, 'off', 0, 'strings.bytes'), ('bytes', BYTES, 'bytes', None, None)])
tab(2, 'meta', [('key', U32, 'str', 0, None), ('value', U32, 'str', 0, None), ('source_id', U32, 'ref', 0, 3)])
tab(3, 'sources', [('source_type', U32, 'str', 0, None), ('source_uri', U32, 'str', 0, None),
                   ('source_timestamp', I64, 'plain', I64MIN, None)])
tab(4, 'value_types', [('type', U32, 'str', 0, None), ('unit', U32, 'str', 0, None)])
tab(5, 'source_value_types', [('source_id', U32, 'ref', 0, 3), ('value_type_id', U32, 'ref', 0, 4),
                              ('total', I64, 'plain', 0, None), ('rows', U64, 'plain', 0, None)])
tab(6, 'functions', [('name', U32, 'str', 0, None), ('system_name', U32, 'str', 0, None),
                     ('filename', U32, 'str', 0, None), ('start_line', I64, 'plain', I64MIN, None)])
tab(7, 'mappings', [('memory_start', U64, 'plain', 0, None), ('memory_limit', U64, 'plain', 0, None),
                    ('file_offset', U64, 'plain', 0, None), ('filename', U32, 'str', 0, None),
                    ('build_id', U32, 'str', 0, None), ('flags', U8, 'flags', 0, 0xF)])
tab(8, 'locations', [('mapping_id', U32, 'ref', 0, 7), ('address', U64, 'plain', 0, None),
                     ('flags', U8, 'flags', 0, 0x1), ('line_offsets', U64, 'off', 0, 9)])
tab(9, 'lines', [('function_id', U32, 'ref', 0, 6), ('line', I64, 'plain', I64MIN, None),
                 ('column', I64, 'plain', I64MIN, None)])
tab(10, 'stacks', [('parent_id', U32, 'ref', 0, 10), ('location_id', U32, 'ref', 0, 8)])
tab(11, 'samples', [('source_id', U32, 'ref', 1, 3), ('time_ns', I64, 'plain', I64MIN, None),
                    ('duration_ns', I64, 'plain', 0, None), ('weight', I64, 'plain', 1, None),
                    ('cpu_delta_ns', I64, 'plain', I64MIN, None), ('stack_id', U32, 'ref', 0, 10),
                    ('labelset_id', U32, 'ref', 0, 13), ('value_offsets', U64, 'off', 0, 12)])
tab(12, 'values', [('value_type_id', U32, 'ref', 0, 4), ('value', I64, 'plain', 0, None)])
tab(13, 'labelsets', [('label_offsets', U64, 'off', 0, 14)])
tab(14, 'labels', [('key', U32, 'str', 0, None), ('str', U32, 'str', 0, None), ('num', I64, 'plain', 0, None),
                   ('num_unit', U32, 'str', 0, None)])
tab(15, 'text_lines', [('source_id', U32, 'ref', 0, 3), ('before_sample', U64, 'plain', 0, None),
                       ('text', U32, 'str', 0, None)])
tab(16, 'sample_text', [('sample_id', U32, 'ref', 0, 11), ('text', U32, 'str', 0, None)])
tab(17, 'models', [('source_id', U32, 'ref', 0, 3), ('uid', U32, 'str', 0, None), ('model', U32, 'str', 0, None),
                   ('method', U32, 'str', 0, None), ('r_square', F64, 'plain', None, None),
                   ('x_start', F64, 'plain', None, None), ('x_end', F64, 'plain', None, None),
                   ('coeffs', U32, 'str', 0, None)])
tab(18, 'source_summary', [('rows', U64, 'plain', 0, None), ('weight', I64, 'plain', 0, None),
                           ('time_first', I64, 'plain', I64MIN, None), ('time_last', I64, 'plain', I64MIN, None),
                           ('time_end', I64, 'plain', I64MIN, None), ('untimed', U64, 'plain', 0, None)])
TID = {v[0]: k for k, v in T.items()}
NONZERO = {(11, 1), (10, 2), (12, 1), (16, 1)}   # U5 refs never 0
# refs' targets not in T by id where needed: samples.stack -> 10 etc. (given above)

# ---------------------------------------------------------------- zstd via ctypes
_zstd = None
def zstd():
    global _zstd
    if _zstd is None:
        z = ctypes.CDLL('libzstd.so.1')
        z.ZSTD_decompressDCtx.restype = ctypes.c_size_t
        z.ZSTD_decompressDCtx.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
        z.ZSTD_isError.restype = ctypes.c_uint
        z.ZSTD_isError.argtypes = [ctypes.c_size_t]
        z.ZSTD_findFrameCompressedSize.restype = ctypes.c_size_t
        z.ZSTD_findFrameCompressedSize.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        z.ZSTD_getErrorName.restype = ctypes.c_char_p
        z.ZSTD_getErrorName.argtypes = [ctypes.c_size_t]
        z.ZSTD_createDCtx.restype = ctypes.c_void_p
        z.ZSTD_DCtx_setParameter.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        z.ZSTD_DCtx_setParameter.restype = ctypes.c_size_t
        dctx = z.ZSTD_createDCtx()
        r = z.ZSTD_DCtx_setParameter(dctx, 100, 31)  # ZSTD_d_windowLogMax
        if z.ZSTD_isError(r):
            raise RuntimeError('zstd windowLogMax')
        _zstd = (z, dctx)
    return _zstd


def zstd_frame(src, dsize, rule):
    """§4 codec 2 / U9: exactly one frame, FCS == dsize, no dict, window <= 2^31."""
    n = len(src)
    if n < 6 or src[0:4] != b'\x28\xb5\x2f\xfd':
        raise Bad(rule, 'no zstd frame magic')
    fhd = src[4]
    fcs_flag = fhd >> 6
    single = (fhd >> 5) & 1
    if fhd & 0x08:
        raise Bad(rule, 'zstd reserved bit')
    did_flag = fhd & 3
    p = 5
    wsize = None
    if not single:
        wd = src[p]; p += 1
        exp = wd >> 3; man = wd & 7
        base = 1 << (10 + exp)
        wsize = base + (base // 8) * man
    did_len = [0, 1, 2, 4][did_flag]
    if p + did_len > n:
        raise Bad(rule, 'zstd header cut')
    did = int.from_bytes(src[p:p + did_len], 'little'); p += did_len
    if did != 0:
        raise Bad(rule, 'zstd dictionary')
    fcs_len = [1 if single else 0, 2, 4, 8][fcs_flag]
    if fcs_len == 0:
        raise Bad(rule, 'zstd frame without content size')
    if p + fcs_len > n:
        raise Bad(rule, 'zstd header cut')
    fcs = int.from_bytes(src[p:p + fcs_len], 'little'); p += fcs_len
    if fcs_len == 2:
        fcs += 256
    if single:
        wsize = fcs
    if fcs != dsize:
        raise Bad(rule, f'zstd content size {fcs} != {dsize}')
    if wsize > (1 << 31):
        raise Bad(rule, f'zstd window {wsize} > 2^31')
    z, dctx = zstd()
    bsrc = bytes(src)
    fs = z.ZSTD_findFrameCompressedSize(bsrc, n)
    if z.ZSTD_isError(fs) or fs != n:
        raise Bad(rule, 'zstd frame does not fill the section')
    out = ctypes.create_string_buffer(max(dsize, 1))
    r = z.ZSTD_decompressDCtx(dctx, out, dsize, bsrc, n)
    if z.ZSTD_isError(r):
        raise Bad(rule, 'zstd: ' + z.ZSTD_getErrorName(r).decode())
    if r != dsize:
        raise Bad(rule, 'zstd decoded size')
    return out.raw[:dsize]


# ---------------------------------------------------------------- LZ4 (§4 U1), pure python
def lz4_more(src, ip, n, v, what):
    """A length's extension bytes (spec.md §4: 255 goes on), added to v."""
    while True:
        if ip >= n:
            raise Bad('U1', 'lz4: %s past end' % what)
        b = src[ip]; ip += 1; v += b
        if b != 255:
            return v, ip


def lz4_block(src, D):
    n = len(src)
    if n < 1:
        raise Bad('U1', 'empty lz4 block')
    out = bytearray()
    ip = 0
    while True:
        if ip >= n:
            raise Bad('U1', 'lz4: missing token')
        tok = src[ip]; ip += 1
        L = tok >> 4
        if L == 15:
            L, ip = lz4_more(src, ip, n, L, 'length')
        if ip + L > n:
            raise Bad('U1', 'lz4: literals past end')
        if len(out) + L > D:
            raise Bad('U1', 'lz4: output beyond D')
        out += src[ip:ip + L]; ip += L
        if ip == n:
            break
        if ip + 2 > n:
            raise Bad('U1', 'lz4: offset past end')
        off = src[ip] | (src[ip + 1] << 8); ip += 2
        M = (tok & 15) + 4
        if tok & 15 == 15:
            M, ip = lz4_more(src, ip, n, M, 'matchlen')
        op = len(out)
        if off < 1 or off > op:
            raise Bad('U1', 'lz4: bad offset')
        if op > D - 12 or op + M > D - 5:
            raise Bad('U1', 'lz4: match too close to end')
        if off >= M:
            out += out[op - off:op - off + M]
        else:
            for _ in range(M):
                out.append(out[len(out) - off])
    if len(out) != D:
        raise Bad('U1', 'lz4: output size')
    return bytes(out)


# ---------------------------------------------------------------- varint (§3.1)
def varint(buf, p, end):
    v = 0; shift = 0; start = p
    while True:
        if p >= end:
            raise Bad('D16', 'varint past end of file')
        b = buf[p]; p += 1
        if p - start > 10:
            raise Bad('D16', 'varint longer than 10 bytes')
        if p - start == 10 and b > 1:
            raise Bad('D16', 'varint >= 2^64')
        v |= (b & 0x7F) << shift; shift += 7
        if not b & 0x80:
            break
    if p - start > 1 and buf[p - 1] == 0:
        raise Bad('D16', 'varint not minimal')
    return v, p


def crc(b):
    return zlib.crc32(b) & 0xFFFFFFFF


class Entry:
    __slots__ = ('pos', 'tid', 'cid', 'type', 'codec', 'flags', 'offset', 'stored', 'decoded', 'count', 'crc',
                 'reserved', 'blocks')


# ---------------------------------------------------------------- file
class PcolFile:
    def __init__(self, data):
        self.d = data
        self.cache = {}
        self.open_checks()

    # ---- §8.1
    def open_checks(self):
        d = self.d
        if len(d) < 64:
            raise Bad('H1', 'shorter than 64 bytes')
        if d[0:8] != b'\x89PCOL\r\n\x1a':
            raise Bad('H2', 'magic')
        (maj, mnr, hsize, inc, comp, fsize, doff, dcount, desize, bcrc, hcrc) = struct.unpack_from('<HHIQQQQIIII', d, 8)
        if maj != 1:
            raise Bad('H3', f'file has format version {maj}.{mnr}')
        if crc(d[0:60]) != hcrc:
            raise Bad('H4', 'header crc')
        if hsize != 64:
            raise Bad('H5', 'header_size')
        if inc & ~0x1F:
            raise Bad('H6', f'unknown incompat flags {inc & ~0x1F:#x}')
        if fsize != len(d):
            raise Bad('H7', 'file_size')
        compact = bool(inc & 2)
        if desize != (0 if compact else 64):
            raise Bad('H8', 'dir_entry_size')
        if compact:
            if not (64 <= doff <= fsize) or 2 * dcount > fsize - doff:
                raise Bad('H9', 'dir bounds')
        else:
            if doff % 64 or not (64 <= doff <= fsize) or fsize - doff != 64 * dcount:
                raise Bad('H9', 'dir bounds')
        self.minor, self.inc, self.fsize, self.doff, self.dcount = mnr, inc, fsize, doff, dcount
        self.bcrc = bcrc
        self.compact = compact
        self.entries = []
        self.rows = {}          # tid -> rows (has row count entry)
        self.cols = {}          # (tid,cid) -> Entry
        prev_key = -1
        prev_end = 64
        cur_rc_tid = None
        p = doff
        for idx in range(dcount):
            e = Entry()
            e.pos = p
            if compact:
                kd, p = varint(d, p, fsize)
                key = kd if idx == 0 else prev_key + kd
                if idx > 0 and kd < 1:
                    raise Bad('D1', 'key_delta 0')
                if key >= 1 << 32:
                    raise Bad('D16', 'key >= 2^32')
                e.tid, e.cid = key >> 16, key & 0xFFFF
                e.reserved = 0; e.crc = None
                if e.cid == 0:
                    e.count, p = varint(d, p, fsize)
                    e.type = e.codec = e.flags = e.offset = e.stored = e.decoded = 0
                else:
                    if p + 2 > fsize:
                        raise Bad('D16', 'entry past end')
                    e.type, e.codec = d[p], d[p + 1]; p += 2
                    e.flags, p = varint(d, p, fsize)
                    if e.flags >= 65536:
                        raise Bad('D16', 'flags >= 65536')
                    gap, p = varint(d, p, fsize)
                    e.stored, p = varint(d, p, fsize)
                    e.count, p = varint(d, p, fsize)
                    e.offset = prev_end + gap
                    if e.offset > M64:
                        raise Bad('D16', 'offset overflow')
                    if e.type not in WIDTH:
                        raise Bad('D9', 'type')
                    if e.flags & 8:
                        if e.codec != 0:
                            e.decoded, p = varint(d, p, fsize)
                        else:
                            e.decoded = e.stored
                    else:
                        e.decoded = e.count * WIDTH[e.type]
                        if e.decoded > M64:
                            raise Bad('D11', 'count x width overflows')
            else:
                (e.tid, e.cid, e.type, e.codec, e.flags, e.offset, e.stored, e.decoded, e.count, e.crc) = \
                    struct.unpack_from('<HHBBHQQQQI', d, p)
                e.reserved = d[p + 44:p + 64]
                key = e.tid * 65536 + e.cid
                p += 64
            if key <= prev_key:
                raise Bad('D1', 'key order')
            if e.tid == 0:
                raise Bad('D2', 'table 0')
            if not compact and any(e.reserved):
                raise Bad('D3', 'reserved')
            self.check_flags_d3(e.flags)
            if e.cid == 0:
                if e.type or e.codec or e.flags or e.offset or e.stored or e.decoded or (e.crc or 0):
                    raise Bad('D4', 'row-count entry fields')
                lim = 32768 if inc & 3 else 64
                if e.count // lim > fsize + 16:
                    raise Bad('D5', 'row count too large')
                self.rows[e.tid] = e.count
                cur_rc_tid = e.tid
            else:
                self.column_entry_checks(e, prev_end, cur_rc_tid)
                prev_end = e.offset + e.stored
                self.cols[(e.tid, e.cid)] = e
            prev_key = key
            self.entries.append(e)
        if compact and p != fsize:
            raise Bad('D16', 'directory does not end at file_size')
        # tables
        for tid, n in self.rows.items():
            if tid in T and tid not in (9, 12, 14) and n > (1 << 32) - 2:
                raise Bad('T1', f'table {tid} rows')
        for tid, n in self.rows.items():
            if tid not in T:
                continue
            has = any((tid, c) in self.cols for c in T[tid][1])
            if tid == 11:
                if n // 64 > fsize + 16 and not has:
                    raise Bad('T2', 'samples stores no column')
            elif tid == 1:
                if n > 1 and not has:
                    raise Bad('T2', 'strings stores no column')
                if n // 64 > fsize + 16 and (1, 1) not in self.cols:
                    raise Bad('T2', 'strings offsets not stored')
            elif n > 0 and not has:
                raise Bad('T2', f'table {tid} stores no column')

    def check_flags_d3(self, f):
        inc = self.inc
        if (f & 3) and not inc & 1:
            raise Bad('D3', 'delta/split without incompat bit 0')
        if (f & 4) and not inc & 2:
            raise Bad('D3', 'row-relative without incompat bit 1')
        if (f & 8) and not inc & 4:
            raise Bad('D3', 'encoded without incompat bit 2')
        if (f & 8) and (f & 2) and not inc & 16:
            raise Bad('D3', 'encoded with split (1.5) without incompat bit 4')
        if f & ~0xF:
            raise Bad('D3', 'unknown flag bits')

    def column_entry_checks(self, e, prev_end, rc_tid):
        inc = self.inc
        c = e.codec
        if not (c in (0, 1) or (c == 2 and inc & 1) or (c == 3 and inc & 8)):
            raise Bad('D6', f'codec {c}')
        if self.compact:
            if c == 0 and e.flags in (0, 8):
                if e.offset % 8:
                    raise Bad('D7', 'offset not multiple of 8')
        elif e.offset % 64:
            raise Bad('D7', 'offset not multiple of 64')
        if e.offset < prev_end or e.offset > self.doff or e.stored > self.doff - e.offset:
            raise Bad('D7', 'placement')
        if c == 0 and e.stored != e.decoded:
            raise Bad('D8', 'stored != decoded')
        if e.type not in WIDTH:
            raise Bad('D9', 'type')
        if rc_tid != e.tid:
            raise Bad('D10', 'no row-count entry')
        if e.flags & 8:
            if e.decoded < 32:
                raise Bad('D11', 'encoded decoded_size < 32')
        else:
            if e.count * WIDTH[e.type] != e.decoded:
                raise Bad('D11', 'count x width != decoded_size')
        if c == 1:
            if e.stored > 2**31 - 1 or e.decoded > 2**31 - 1 or e.decoded // 255 > e.stored + 1:
                raise Bad('D12', 'lz4 sizes')
        rows = self.rows[e.tid]
        known = e.tid in T and e.cid in T[e.tid][1]
        if known:
            spec = T[e.tid][1][e.cid]
            if e.type != spec[1]:
                raise Bad('D13', 'type differs from schema')
            if spec[1] != BYTES:
                want = rows + 1 if spec[2] == 'off' else rows
                if e.count != want:
                    raise Bad('D13', 'count differs from rows')
        elif e.type != BYTES and e.count not in (rows, rows + 1):
            raise Bad('D13', 'unknown column count')
        f = e.flags
        t = e.type
        if (f & 1) and t not in (U32, I64, U64):
            raise Bad('D14', 'delta type')
        if (f & 2) and t not in (U32, I64, U64, F64):
            raise Bad('D14', 'split type')
        if (f & 4) and (t not in (U32, I64, U64) or f & 1):
            raise Bad('D14', 'row-relative')
        if (f & 8) and (t not in (U32, I64, U64) or f not in (8, 10)):
            raise Bad('D14', 'encoded')
        if f == 10 and c not in (1, 2):
            raise Bad('D14', 'encoded with split lanes, not under codec 1 or 2')
        if c == 2 and e.decoded // 32768 > e.stored:
            raise Bad('D15', 'zstd bomb')
        e.blocks = None
        if c == 3:
            self.d17(e)

    def d17(self, e):
        if e.type == BYTES or e.flags & 8:
            raise Bad('D17', 'codec 3 on bytes or encoded')
        if e.stored < 8:
            raise Bad('D17', 'stored < 8')
        s = self.d[e.offset:e.offset + e.stored]
        nb, br = struct.unpack_from('<II', s, 0)
        if br < 1:
            raise Bad('D17', 'block_rows 0')
        if e.count < 1 or nb != -(-e.count // br):
            raise Bad('D17', 'nblocks')
        if 8 + 8 * nb > e.stored:
            raise Bad('D17', 'table past section')
        ends = struct.unpack_from(f'<{nb}Q', s, 8)
        start = 8 + 8 * nb
        w = WIDTH[e.type]
        blocks = []
        for b, end in enumerate(ends):
            if not (start < end <= e.stored):
                raise Bad('D17', 'block bounds')
            rb = br if b < nb - 1 else e.count - (nb - 1) * br
            if rb * w // 32768 > end - start:
                raise Bad('D17', 'block bomb')
            blocks.append((start, end, rb))
            start = end
        if start != e.stored:
            raise Bad('D17', 'last block does not end at stored_size')
        e.blocks = (br, blocks)

    # ---- helpers
    def nrows(self, tid):
        return self.rows.get(tid, 0)

    def nstr(self):
        return max(self.nrows(1), 1)

    # ---- column decoding (§4, §4.1, §4.2)
    def raw_values(self, e):
        """Return the column's values as a list (ints/floats) or bytes for BYTES."""
        sec = self.d[e.offset:e.offset + e.stored]
        t = e.type
        if e.codec == 3:
            br, blocks = e.blocks
            out = []
            for (s0, s1, rb) in blocks:
                buf = zstd_frame(sec[s0:s1], rb * WIDTH[t], 'U13')
                out.extend(self.untransform(buf, e, rb, 'U13'))
            return out
        if e.codec == 0:
            buf = sec
        elif e.codec == 1:
            buf = lz4_block(bytes(sec), e.decoded)
        else:
            buf = zstd_frame(sec, e.decoded, 'U9')
        if t == BYTES:
            return bytes(buf)
        if e.flags & 8:
            return self.decode_encoded(bytes(buf), e)
        return self.untransform(buf, e, e.count, 'U10')

    def untransform(self, buf, e, n, rule):
        t = e.type; w = WIDTH[t]; f = e.flags
        if f & 2 and n > 0:
            b = bytearray(len(buf))
            for k in range(w):
                b[k::w] = buf[k * n:(k + 1) * n]
            buf = b
        if f & 5:
            a = array({U32: 'i', I64: 'q', U64: 'q'}[t]); a.frombytes(bytes(buf))
            lo, hi = {U32: (0, 2**32 - 1), I64: (I64MIN, I64MAX), U64: (0, 2**64 - 1)}[t]
            if f & 1:
                vals = []; acc = 0
                for x in a:
                    acc += x; vals.append(acc)
            else:
                vals = [i - x for i, x in enumerate(a)]
            if vals and (min(vals) < lo or max(vals) > hi):
                raise Bad(rule, 'delta/row-relative value out of range')
            return vals
        a = array(ACODE[t]); a.frombytes(bytes(buf))
        return a.tolist()

    def decode_encoded(self, s, e):
        n = e.count; D = len(s)
        if D < 8:
            raise Bad('U11', 'short')
        k, r0 = struct.unpack_from('<II', s, 0)
        if not (1 <= k <= 4096) or (k > n if n > 0 else k != 1):
            raise Bad('U11', f'k={k}')
        if r0:
            raise Bad('U11', 'reserved')
        if 8 + 24 * k > D:
            raise Bad('U11', 'lane headers past end')
        lanes = []
        for j in range(k):
            base, step, width = struct.unpack_from('<QQB', s, 8 + 24 * j)
            res = s[25 + 24 * j:28 + 24 * j]
            ej, = struct.unpack_from('<I', s, 28 + 24 * j)
            if any(res):
                raise Bad('U11', 'lane reserved')
            if width not in (0, 1, 2, 4, 8):
                raise Bad('U11', 'width')
            rows = -(-(n - j) // k) if n > j else 0
            if width == 0 and ej:
                raise Bad('U11', 'exceptions on width 0')
            if ej > rows:
                raise Bad('U11', 'too many exceptions')
            lanes.append([base, step, width, ej, rows, None])
        p = 8 + 24 * k
        for L in lanes:
            w = L[2]
            if w:
                q = -(-p // w) * w
                if q > D or any(s[p:q]):
                    raise Bad('U11', 'pad')
                p = q
                if p + L[4] * w > D:
                    raise Bad('U11', 'codes past end')
                L[5] = p
                p += L[4] * w
        if e.flags & 2:  # 1.5: each lane's codes byte-split within its bytes
            s = bytearray(s)
            for L in lanes:
                w, rows, cp = L[2], L[4], L[5]
                if w >= 2 and rows:
                    part = bytes(s[cp:cp + rows * w])
                    for b in range(w):
                        s[cp + b:cp + rows * w:w] = part[b * rows:(b + 1) * rows]
            s = bytes(s)
        q = -(-p // 8) * 8
        if q > D or any(s[p:q]):
            raise Bad('U11', 'pad8')
        p = q
        exc = []
        for L in lanes:
            ej = L[3]
            if p + 16 * ej > D:
                raise Bad('U11', 'exceptions past end')
            ex = struct.unpack_from(f'<{2 * ej}Q', s, p) if ej else ()
            p += 16 * ej
            exc.append(ex)
        if p != D or D != e.decoded:
            raise Bad('U11', 'layout does not end at decoded_size')
        out = [0] * n
        for j, L in enumerate(lanes):
            base, step, w, ej, rows, cp = L
            if w:
                a = array({1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[w]); a.frombytes(s[cp:cp + rows * w])
                codes = a.tolist()
            else:
                codes = None
            vals = [(base + r * step + (codes[r] if codes else 0)) & M64 for r in range(rows)] if codes else \
                   [(base + r * step) & M64 for r in range(rows)]
            ex = exc[j]
            allones = (1 << (8 * w)) - 1
            prev = -1
            for i in range(0, len(ex), 2):
                row, val = ex[i], ex[i + 1]
                if row <= prev or row >= rows:
                    raise Bad('U11', 'exception rows')
                if codes[row] != allones:
                    raise Bad('U11', 'exception at non-all-ones code')
                vals[row] = val
                prev = row
            out[j::k] = vals
        if e.type == U32:
            if out and max(out) >= 1 << 32:
                raise Bad('U11', 'u32 value >= 2^32')
        elif e.type == I64:
            out = [v - (1 << 64) if v >> 63 else v for v in out]
        return out

    def column(self, tid, cid):
        key = (tid, cid)
        if key in self.cache:
            return self.cache[key]
        name, spec = T[tid][0], T[tid][1][cid]
        _, t, kind, default, target = spec
        e = self.cols.get(key)
        rows = self.nrows(tid)
        if t == BYTES:
            v = self.raw_values(e) if e else b''
            self.cache[key] = v
            return v
        n = rows + 1 if kind == 'off' else rows
        if e is None:
            if t == F64:
                v = [float('nan')] * n
            else:
                v = [default] * n
        else:
            v = self.raw_values(e)
        self.ucheck(tid, cid, spec, v)
        self.cache[key] = v
        return v

    def ucheck(self, tid, cid, spec, v):
        _, t, kind, default, target = spec
        if kind == 'off':
            if tid == 1:
                child = len(self.column(1, 2))
            else:
                child = self.nrows(target)
            if v[0] != 0:
                raise Bad('U2', 'offsets[0] != 0')
            for a, b in zip(v, v[1:]) if len(v) > 1 else ():
                if b < a:
                    raise Bad('U2', 'offsets decrease')
            if v[-1] != child:
                raise Bad('U2', f'offsets end {v[-1]} != child {child}')
            if tid == 1 and len(v) > 1 and v[1] != 0:
                raise Bad('U3', 'string 0 not empty')
        elif kind == 'str':
            if v and max(v) >= self.nstr():
                raise Bad('U4', 'string id out of range')
        elif kind == 'ref':
            if v:
                lim = self.nrows(target)
                if max(v) > lim:
                    raise Bad('U5', f'{T[tid][0]}.{spec[0]} ref out of range')
                if (tid, cid) in NONZERO and min(v) == 0:
                    raise Bad('U5', f'{T[tid][0]}.{spec[0]} is 0')
                if (tid, cid) == (10, 1):
                    for i, x in enumerate(v):
                        if x > i:
                            raise Bad('U5', 'stack parent not before child')
        elif kind == 'flags':
            for x in v:
                if x & ~target:
                    raise Bad('U6', 'flag bits')
        if (tid, cid) == (15, 2):
            ns = self.nrows(11)
            for x in v:
                if not (1 <= x <= ns + 1):
                    raise Bad('U7', 'before_sample')
        if tid == 18:
            if self.nrows(18) not in (0, self.nrows(3)):
                raise Bad('U12', 'source_summary rows')

    # ---- §8.3
    def full(self):
        d = self.d
        if crc(d[64:self.fsize]) != self.bcrc:
            raise Bad('F1', 'body crc')
        if not self.compact:
            for e in self.entries:
                if e.cid and crc(d[e.offset:e.offset + e.stored]) != e.crc:
                    raise Bad('F2', 'section crc')
        pos = 64
        for e in self.entries:
            if e.cid:
                if any(d[pos:e.offset]):
                    raise Bad('F3', 'gap not zero')
                pos = e.offset + e.stored
        if any(d[pos:self.doff]):
            raise Bad('F3', 'gap not zero')
        for tid in T:
            for cid in T[tid][1]:
                self.column(tid, cid)
        # F5
        src = self.column(11, 1); tm = self.column(11, 2)
        for i in range(1, len(src)):
            if src[i] < src[i - 1] or (src[i] == src[i - 1] and tm[i] < tm[i - 1]):
                raise Bad('F5', f'samples out of order at row {i}')
        # F6
        dur = self.column(11, 3)
        nsrc = self.nrows(3)
        maxdur = [0] * (nsrc + 1)
        has = [False] * (nsrc + 1)
        for s, x in zip(src, dur):
            if not has[s] or x > maxdur[s]:
                maxdur[s] = x
                has[s] = True
        strs = self.strings()
        mk, mv, ms = self.column(2, 1), self.column(2, 2), self.column(2, 3)
        seen = set()
        for k, v, s in zip(mk, mv, ms):
            if s == 0 or s in seen or strs(k) != b'pcol.max_duration_ns' or k == 0:
                continue
            seen.add(s)
            val = strs(v) if v else b''
            if not (1 <= len(val) <= 18 and all(48 <= c <= 57 for c in val)):
                raise Bad('F6', 'max_duration_ns grammar')
            need = maxdur[s] if has[s] else 0
            if int(val) < need:
                raise Bad('F6', 'max_duration_ns too small')
        # F7
        if self.nrows(18) > 0:
            self.f7(src, tm, dur)

    def f7(self, src, tm, dur):
        ns = self.nrows(3)
        wt = self.column(11, 4)
        rows = [0] * (ns + 1); weight = [0] * (ns + 1); untimed = [0] * (ns + 1)
        tf = [None] * (ns + 1); tl = [None] * (ns + 1); te = [None] * (ns + 1)
        for s, t, d, w in zip(src, tm, dur, wt):
            rows[s] += 1; weight[s] += w
            if t == I64MIN:
                untimed[s] += 1
                continue
            if tf[s] is None or t < tf[s]:
                tf[s] = t
            if tl[s] is None or t > tl[s]:
                tl[s] = t
            end = min(t + d, I64MAX) if d > 0 else t
            if te[s] is None or end > te[s]:
                te[s] = end
        def na(x):
            if x is None:
                return I64MIN
            return x if I64MIN < x <= I64MAX else I64MIN
        want = {1: rows, 2: [na(x) for x in weight], 3: [na(x) for x in tf], 4: [na(x) for x in tl],
                5: [na(x) for x in te], 6: untimed}
        for cid in range(1, 7):
            col = self.column(18, cid)
            for s in range(1, ns + 1):
                if col[s - 1] != want[cid][s]:
                    raise Bad('F7', f'source_summary of source {s}: {T[18][1][cid][0]} is {col[s-1]}, samples give {want[cid][s]}')
        # source_value_types total/rows
        vo = self.column(11, 8); vt = self.column(12, 1); vv = self.column(12, 2)
        svs, svt = self.column(5, 1), self.column(5, 2)
        tot, cnt = self.column(5, 3), self.column(5, 4)
        acc = {}
        for i, s in enumerate(src):
            seen = set()
            for kk in range(vo[i], vo[i + 1]):
                t = vt[kk]
                if t in seen:
                    continue
                seen.add(t)
                a = acc.setdefault((s, t), [0, 0])
                a[0] += vv[kk]; a[1] += 1
        for r in range(len(svs)):
            s, t = svs[r], svt[r]
            if s == 0:
                wt_, wc = 0, 0
            else:
                wt_, wc = acc.get((s, t), [0, 0])
            if tot[r] != na(wt_) or cnt[r] != wc:
                raise Bad('F7', f'source_value_types row {r+1}: total/rows {tot[r]}/{cnt[r]} vs {na(wt_)}/{wc}')

    def strings(self):
        off = self.column(1, 1); b = self.column(1, 2)
        def get(k):
            return b[off[k]:off[k + 1]]
        return get

    # ---- §11 views
    def views(self):
        S = self.strings()
        def jstr(k):
            return None if k == 0 else S(k)
        def ref(x):
            return None if x == 0 else x
        def i64(x):
            return None if x == I64MIN else x
        def f64(x):
            return None if math.isnan(x) else x
        C = self.column
        V = {}
        V['meta'] = (['key', 'value', 'source_id'],
                     [(jstr(a), jstr(b), ref(c)) for a, b, c in zip(C(2, 1), C(2, 2), C(2, 3))])
        V['sources'] = (['source_id', 'source_type', 'source_uri', 'source_timestamp'],
                        [(i + 1, jstr(a), jstr(b), i64(c)) for i, (a, b, c) in enumerate(zip(C(3, 1), C(3, 2), C(3, 3)))])
        vtt, vtu = C(4, 1), C(4, 2)
        V['value_types'] = (['value_type_id', 'type', 'unit'],
                            [(i + 1, jstr(a), jstr(b)) for i, (a, b) in enumerate(zip(vtt, vtu))])
        V['source_value_types'] = (['source_id', 'value_type_id'], [(ref(a), ref(b)) for a, b in zip(C(5, 1), C(5, 2))])
        V['functions'] = (['function_id', 'name', 'system_name', 'filename', 'start_line'],
                          [(i + 1, jstr(a), jstr(b), jstr(c), i64(d)) for i, (a, b, c, d) in
                           enumerate(zip(C(6, 1), C(6, 2), C(6, 3), C(6, 4)))])
        V['mappings'] = (['mapping_id', 'memory_start', 'memory_limit', 'file_offset', 'filename', 'build_id',
                          'has_functions', 'has_filenames', 'has_line_numbers', 'has_inline_frames'],
                         [(i + 1, a, b, c, jstr(d), jstr(e), bool(f & 1), bool(f & 2), bool(f & 4), bool(f & 8))
                          for i, (a, b, c, d, e, f) in enumerate(zip(C(7, 1), C(7, 2), C(7, 3), C(7, 4), C(7, 5), C(7, 6)))])
        lo = C(8, 4); lf, ll, lc = C(9, 1), C(9, 2), C(9, 3)
        def g_loc():
            for i, (m, a, f) in enumerate(zip(C(8, 1), C(8, 2), C(8, 3))):
                s, e = lo[i], lo[i + 1]
                if s < e:
                    yield (i + 1, ref(lf[s]), i64(ll[s]), a, ref(m), bool(f & 1))
                else:
                    yield (i + 1, None, None, a, ref(m), bool(f & 1))
        V['locations'] = (['location_id', 'function_id', 'line', 'address', 'mapping_id', 'is_folded'], g_loc())
        def g_ll():
            for i in range(self.nrows(8)):
                for k in range(lo[i], lo[i + 1]):
                    yield (i + 1, k - lo[i] + 1, ref(lf[k]), i64(ll[k]), i64(lc[k]))
        V['location_lines'] = (['location_id', 'depth', 'function_id', 'line', 'column'], g_ll())
        sp, sl = C(10, 1), C(10, 2)
        V['stacks'] = (['stack_id', 'parent_id', 'location_id'],
                       ((i + 1, ref(a), ref(b)) for i, (a, b) in enumerate(zip(sp, sl))))
        sc = [C(11, c) for c in range(1, 9)]
        V['samples'] = (['sample_id', 'source_id', 'time_ns', 'duration_ns', 'weight', 'cpu_delta_ns', 'stack_id',
                         'labelset_id'],
                        ((i + 1, ref(a), i64(b), i64(c), i64(d), i64(e), ref(f), ref(g)) for i, (a, b, c, d, e, f, g) in
                         enumerate(zip(*sc[:7]))))
        vo = sc[7]; vt, vv = C(12, 1), C(12, 2)
        def g_sv():
            for i in range(self.nrows(11)):
                for k in range(vo[i], vo[i + 1]):
                    t = vt[k]
                    yield (i + 1, jstr(vtt[t - 1]), jstr(vtu[t - 1]), i64(vv[k]))
        V['sample_values'] = (['sample_id', 'type', 'unit', 'value'], g_sv())
        def g_sl():
            for i, n in enumerate(sc[5]):
                j = 1
                while n:
                    yield (i + 1, j, ref(sl[n - 1]))
                    n = sp[n - 1]; j += 1
        V['sample_locations'] = (['sample_id', 'depth', 'location_id'], g_sl())
        lbo = C(13, 1); lk, ls, ln, lu = C(14, 1), C(14, 2), C(14, 3), C(14, 4)
        def g_lab():
            for i, s in enumerate(sc[6]):
                if s:
                    for k in range(lbo[s - 1], lbo[s]):
                        num = None if (ls[k] != 0 and ln[k] == 0) else i64(ln[k])
                        yield (i + 1, jstr(lk[k]), jstr(ls[k]), num, jstr(lu[k]))
        V['sample_labels'] = (['sample_id', 'key', 'str', 'num', 'unit'], g_lab())
        V['text_lines'] = (['source_id', 'before_sample', 'text'],
                           [(ref(a), b, jstr(c)) for a, b, c in zip(C(15, 1), C(15, 2), C(15, 3))])
        V['sample_text'] = (['sample_id', 'text'], [(ref(a), jstr(b)) for a, b in zip(C(16, 1), C(16, 2))])
        V['models'] = (['model_id', 'source_id', 'uid', 'model', 'method', 'r_square', 'x_start', 'x_end', 'coeffs'],
                       [(i + 1, ref(a), jstr(b), jstr(c), jstr(d), f64(e), f64(f), f64(g), jstr(h)) for
                        i, (a, b, c, d, e, f, g, h) in enumerate(zip(*[C(17, c) for c in range(1, 9)]))])
        V['strings'] = (['string_id', 'value'], [(k, S(k)) for k in range(1, self.nstr())])
        return V


# ---------------------------------------------------------------- rendering §11.3
# ---------------------------------------------------------------- time ranges (§7, §7.1)
def scale(v, num, den):
    """v x num / den rounded to the nearest integer, halves away from zero (§7)."""
    p = v * num
    q, r = divmod(abs(p), den)
    if 2 * r >= den:
        q += 1
    return q if p >= 0 else -q


def ranged_views(f, a, b):
    """The samples and sample_values views of the range [a, b) (ns since each
    source's start): the samples it selects, a long sample cut to its ticks
    inside it (§7.1 "Time ranges"), n = d ticks for a long sample of weight
    <= 1 of a source marked as intervals (§7.1 "Interval sources")."""
    C, S = f.column, f.strings()
    first = {}  # source -> its first pcol.intervals row says "1"
    for k, v, s in zip(C(2, 1), C(2, 2), C(2, 3)):
        if s >= 1 and s not in first and k and S(k) == b'pcol.intervals':
            first[s] = bool(v) and S(v) == b'1'
    src, tm, du, wg = C(11, 1), C(11, 2), C(11, 3), C(11, 4)
    part = {}  # sample id -> (k0, k, n, t, d, w), or None: whole
    for i in range(f.nrows(11)):
        t, d, w = tm[i], du[i], wg[i]
        if t == I64MIN:
            continue  # NA time: never in a range
        if d == I64MIN or d <= 0:  # a point sample
            if a <= t < b:
                part[i + 1] = None
            continue
        n = d if first.get(src[i]) and w <= 1 else max(w, 1)
        def R(x):  # the ticks before x: ceil((x - t) n / d), at most n
            return 0 if x <= t else min(n, -(-(x - t) * n // d))
        k0 = R(a)
        k = R(b) - k0
        if k > 0:
            part[i + 1] = None if k == n else (k0, k, n, t, d, w)
    def cut_sample(r, p):
        k0, k, n, t, d, w = p
        s0, s1 = k0 * d // n, (k0 + k) * d // n
        return (r[0], r[1], t + s0, s1 - s0, scale(w, k, n), 0 if k0 and r[5] is not None else r[5], r[6], r[7])
    def cut_value(r, p):
        return r if r[3] is None else (r[0], r[1], r[2], scale(r[3], p[1], p[2]))
    V = f.views()
    out = {}
    for view, cut in (('samples', cut_sample), ('sample_values', cut_value)):
        cols, rows = V[view]
        out[view] = (cols, [r if part[r[0]] is None else cut(r, part[r[0]]) for r in rows if r[0] in part])
    return out


def seconds_ns(x):
    """'S.FFFFFFFFF' (seconds, as run.py writes them) in ns, exactly."""
    neg = x.startswith('-')
    w, _, fr = x.lstrip('-').partition('.')
    ns = int(w or '0') * 10 ** 9 + int((fr + '0' * 9)[:9] or '0')
    return -ns if neg else ns


def _esc_char_bytes(ch_bytes, out):
    out += ch_bytes

# the bytes a valid UTF-8 string escapes (jbytes_any's ASCII cases)
JSON_ESC = re.compile(rb'[\x00-\x1f"\\\x7f]')
def json_esc(m):
    c = m.group()[0]
    return b'\\"' if c == 0x22 else b'\\\\' if c == 0x5C else b'\\u%04x' % c


@functools.lru_cache(maxsize=1 << 16)
def jbytes(b):
    """A string as JSON: valid UTF-8 as it is but for its escaped ASCII
    bytes; otherwise as jbytes_any."""
    try:
        b.decode('utf-8')
    except UnicodeDecodeError:
        return jbytes_any(b)
    return b'"' + JSON_ESC.sub(json_esc, b) + b'"'


def jbytes_any(b):
    out = bytearray(b'"')
    try:
        b.decode('utf-8')
        ok = True
    except UnicodeDecodeError:
        ok = False
    i = 0; n = len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            if c == 0x22:
                out += b'\\"'
            elif c == 0x5C:
                out += b'\\\\'
            elif c < 0x20 or c == 0x7F:
                out += b'\\u%04x' % c
            else:
                out.append(c)
            i += 1
            continue
        if not ok:
            L = utf8_len(b, i)
            if L == 0:
                out += b'\\u%04x' % c
                i += 1
                continue
        else:
            L = 2 if c < 0xE0 else 3 if c < 0xF0 else 4
        out += b[i:i + L]
        i += L
    out += b'"'
    return bytes(out)


def utf8_len(b, i):
    c = b[i]; n = len(b)
    def cont(j, lo=0x80, hi=0xBF):
        return j < n and lo <= b[j] <= hi
    if 0xC2 <= c <= 0xDF:
        return 2 if cont(i + 1) else 0
    if c == 0xE0:
        return 3 if cont(i + 1, 0xA0) and cont(i + 2) else 0
    if 0xE1 <= c <= 0xEC or 0xEE <= c <= 0xEF:
        return 3 if cont(i + 1) and cont(i + 2) else 0
    if c == 0xED:
        return 3 if cont(i + 1, 0x80, 0x9F) and cont(i + 2) else 0
    if c == 0xF0:
        return 4 if cont(i + 1, 0x90) and cont(i + 2) and cont(i + 3) else 0
    if 0xF1 <= c <= 0xF3:
        return 4 if cont(i + 1) and cont(i + 2) and cont(i + 3) else 0
    if c == 0xF4:
        return 4 if cont(i + 1, 0x80, 0x8F) and cont(i + 2) and cont(i + 3) else 0
    return 0


def cell(v):
    t = type(v)
    if t is int:
        return b'%d' % v
    if t is bytes:
        return jbytes(v)
    if v is None:
        return b'null'
    if v is True:
        return b'true'
    if v is False:
        return b'false'
    if isinstance(v, int):
        return str(v).encode()
    if isinstance(v, float):
        if math.isinf(v):
            return b'"Infinity"' if v > 0 else b'"-Infinity"'
        return (b'%.17g' % v)
    return jbytes(v)


def render(cols, rows, out, tag=None):
    """Writes each row of a view as a JSON line, with "table": TAG first."""
    keys = [b'"' + c.encode() + b'":' for c in cols]
    first = [b'"table":"' + tag.encode() + b'"'] if tag else []
    w = out.write
    for row in rows:
        w(b'{' + b','.join(first + [k + cell(v) for k, v in zip(keys, row)]) + b'}\n')


CAT_ORDER = ['meta', 'sources', 'samples', 'sample_values', 'sample_locations', 'locations', 'functions',
             'value_types', 'source_value_types', 'sample_labels', 'location_lines', 'mappings', 'stacks', 'models',
             'text_lines', 'sample_text', 'strings']
SPEC_ORDER = ['meta', 'sources', 'value_types', 'source_value_types', 'functions', 'mappings', 'locations',
              'location_lines', 'stacks', 'samples', 'sample_values', 'sample_locations', 'sample_labels',
              'text_lines', 'sample_text', 'models', 'strings']


# ------------------------------------------------ subtracted bases (§6.11)
def counts(f, value):
    """(SUM, TOTAL) of `value` ('samples', 'weight' or a type name): its sum
    over the samples with a stack (§12: top's rows) and the total of §6.11
    (over every sample), or None where a reader must not show it."""
    V = f.views()
    na = lambda x: I64MIN if x is None else x
    MARK = {(b'pprof.diff_base', b'true'): 'true', (b'pprof.diff_base', b'signed'): 'signed',
            (b'pprof.base', b'true'): 'base'}
    marks = {}
    for k, v, s in V['meta'][1]:
        if s and (k, v) in MARK:
            marks.setdefault(s, set()).add(MARK[(k, v)])
    whole = {s for s, m in marks.items() if m & {'true', 'base'}}
    vt = {i: (t, u) for i, t, u in V['value_types'][1]}
    count_vt = {i for i, tu in vt.items() if tu == (b'samples', b'count')}
    counted = {s for s, t in V['source_value_types'][1] if t in count_vt}
    stype = {i: t for i, t, _, _ in V['sources'][1]}
    vals = {}
    for sid, t, u, x in V['sample_values'][1]:
        vals.setdefault(sid, []).append((t, u, na(x)))
    based_samples = set()
    for sid, k, st, num, unit in V['sample_labels'][1]:
        if k == b'pprof::base' and st == b'true':
            based_samples.add(sid)
    rows = list(V['samples'][1])
    if value == 'weight' and whole:
        return None
    if value == 'samples':
        for sid, s, *_ in rows:
            if (stype[s] == b'pprof' and s not in counted and s not in marks and
                    any(x < 0 for _, _, x in vals.get(sid, []))):
                return None
    amt = []  # (source, stack, label set, sample id, amount)
    for sid, s, t, d, w, c, stack, ls in rows:
        w = na(w)
        if value == 'weight':
            a = w
        elif value == 'samples':
            firsts = [x for ty, u, x in vals.get(sid, []) if (ty, u) == (b'samples', b'count')]
            if s in counted:
                a = firsts[0] if firsts else w
            else:
                a = (I64MAX if w == I64MIN else -w) if s in whole else w
        else:
            firsts = [x for ty, u, x in vals.get(sid, []) if ty == value.encode()]
            if not firsts:
                continue
            a = firsts[0]
        amt.append((s, stack or 0, ls or 0, sid, a))

    def grouped(xs):
        g = {}
        for s, st, ls, sid, a in xs:
            g[(st, ls)] = g.get((st, ls), 0) + a
        return sum(abs(x) for x in g.values())
    kinds = set().union(*marks.values()) if marks else set()
    total = None
    if 'base' in kinds:
        total = grouped(amt)
    elif kinds & {'true', 'signed'}:
        tb = grouped([r for r in amt if marks.get(r[0], set()) & {'true', 'signed'} and r[3] in based_samples])
        total = tb if tb > 0 else None
    if total is None:
        total = grouped(amt) if any(r[4] < 0 for r in amt) else sum(r[4] for r in amt)
    return sum(r[4] for r in amt if r[1]), total


def main(argv):
    cmd = argv[1]
    mode = 'use'
    args = argv[2:]
    if '--open' in args:
        mode = 'open'; args.remove('--open')
    if '--full' in args:
        mode = 'full'; args.remove('--full')
    path = args[0]
    with open(path, 'rb') as fh:
        data = fh.read()
    out = sys.stdout.buffer
    try:
        f = PcolFile(memoryview(data) if False else data)
        if cmd == 'check':
            if mode == 'use':
                for tid in T:
                    for cid in T[tid][1]:
                        f.column(tid, cid)
            elif mode == 'full':
                f.full()
            print('valid')
            return 0
        if cmd == 'count':
            c = counts(f, args[1])
            if c is None:
                print(f'refused: the value {args[1]} has no count to show (spec.md §6.11)', file=sys.stderr)
                return 1
            print('%d %d' % c)
            return 0
        if cmd == 'cat-range':
            cols, rows = ranged_views(f, seconds_ns(args[2]), seconds_ns(args[3]))[args[1]]
            render(cols, rows, out)
            return 0
        V = f.views()
        if cmd == 'cat':
            for name in CAT_ORDER:
                cols, rows = V[name]
                render(cols, rows, out, name)
        elif cmd == 'views':
            for name in SPEC_ORDER:
                cols, rows = V[name]
                out.write(b'# view ' + name.encode() + b'\n')
                render(cols, rows, out)
        return 0
    except Bad as ex:
        print(f'refused: {ex}', file=sys.stderr)
        return 1



def dump(path):
    data = open(path, 'rb').read()
    inc, = struct.unpack_from('<Q', data, 16)
    print('version', struct.unpack_from('<HH', data, 8), 'incompat', hex(inc), 'size', len(data))
    class F(PcolFile):
        def column_entry_checks(self, e, pe, rc):
            e.blocks = None
    try:
        f = F(data)
    except Bad as ex:
        print('open refused', ex)
    for e in getattr(f, 'entries', []):
        print(e.tid, e.cid, 't', e.type, 'c', e.codec, 'f', e.flags, 'off', e.offset, 'st', e.stored, 'dec', e.decoded, 'n', e.count)


def serve():
    """Many commands in one process (tests/conformance/run.py --serve): each
    request a line of JSON, the arguments after `specread.py`; each answer a
    line "EXIT OUTLEN ERRLEN" and then the command's standard output and
    error, as that command run alone would give them.  A reader that fails
    (an exception that is not a refusal) exits 1 with its traceback, as the
    interpreter would."""
    import io, json, traceback
    rd, wr = sys.stdin.buffer, sys.stdout.buffer
    real_out, real_err = sys.stdout, sys.stderr
    for line in rd:
        argv = ['specread.py'] + json.loads(line)
        o, e = io.BytesIO(), io.BytesIO()
        to = sys.stdout = io.TextIOWrapper(o, encoding='utf-8', write_through=True)
        te = sys.stderr = io.TextIOWrapper(e, encoding='utf-8', write_through=True)
        try:
            rc = main(argv)
        except SystemExit as ex:
            rc = ex.code if isinstance(ex.code, int) else 1
        except BaseException:
            traceback.print_exc()
            rc = 1
        finally:
            to.flush(); te.flush()
            to.detach(); te.detach()   # (closing them would close o and e)
            sys.stdout, sys.stderr = real_out, real_err
        ob, eb = o.getvalue(), e.getvalue()
        wr.write(b'%d %d %d\n' % (rc or 0, len(ob), len(eb)) + ob + eb)
        wr.flush()


if __name__ == "__main__" and sys.argv[1] == "serve":
    serve(); sys.exit(0)
if __name__ == "__main__" and sys.argv[1] == "dump":
    dump(sys.argv[2]); sys.exit(0)
if __name__ == "__main__":
    sys.exit(main(sys.argv))
