/* codec.c — section codecs and column transforms (spec.md §4), both ways.
 *
 * Reading: pcol_section_decode turns a section's stored bytes into the
 * plain little-endian array of its decoded_size: the codec first (LZ4 block,
 * checked and decoded in one pass; or one zstd frame), then the transforms
 * of format 1.1 and 1.2 (byte-stream split, then delta or row-relative),
 * each refusing what the spec refuses.  Writing: pcol_section_encode picks
 * the transforms and compresses with the codec asked for, keeping the
 * smaller result.
 */
#include "pcol.h"
#include "layout.h"   /* PCOL_TRANSFORM_SPLIT, PCOL_TRANSFORM_DELTA, PCOL_TRANSFORM_ROWREL, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_corrupt */
#include "schema.h"   /* pcol_type_width */
#include "buf.h"      /* pcol_alloc_hot */
#include "bytes.h"    /* pcol_rd32, pcol_rd64, pcol_wr32, pcol_wr64 */
#include "codec.h"    /* pcol_transform_allowed, pcol_encoded, pcol_section_decode, ... */
#include <lz4.h>
#include <lz4hc.h>
#include <zstd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ LZ4 block */

/* One LZ4 block as spec.md §4 requires it (rules 1-5), checked and decoded
 * in the same pass: src[0, n) is a run of sequences whose last one has
 * literals only and ends the input exactly; every match has an offset from
 * 1 to the bytes decoded so far, starts at least 12 bytes and ends at least
 * 5 bytes before the end of the block; the output is exactly `want` bytes
 * and nothing is written past it.  Returns 1 when valid (dst filled). */
static int lz4_decode(const uint8_t *src, uint64_t n, uint8_t *dst, uint64_t want) {
  uint64_t ip = 0, op = 0;
  for (;;) {
    if (ip >= n) return 0; /* a sequence starts with a token (n = 0: no block) */
    unsigned token = src[ip++], b;
    uint64_t len = token >> 4;
    if (len == 15) do {
        if (ip >= n) return 0;
        len += b = src[ip++];
      } while (b == 255 && len <= want);
    if (len > n - ip || len > want - op) return 0;
    if (n - ip >= len + 16 && want - op >= len + 16) /* room: 16-byte chunks, may overshoot */
      for (uint64_t k = 0; k < len; k += 16) memcpy(dst + op + k, src + ip + k, 16);
    else
      memcpy(dst + op, src + ip, len);
    ip += len;
    op += len;
    if (ip == n) return op == want; /* the last sequence: literals only */
    if (n - ip < 2) return 0;
    uint64_t off = (uint64_t)src[ip] | (uint64_t)src[ip + 1] << 8, m = (token & 15u) + 4;
    ip += 2;
    if (off == 0 || off > op || op + 12 > want) return 0;
    if ((token & 15u) == 15) do {
        if (ip >= n) return 0;
        m += b = src[ip++];
      } while (b == 255 && m <= want);
    if (m > want - op || op + m + 5 > want) return 0;
    uint8_t *d = dst + op;
    const uint8_t *s = d - off;
    /* Chunks may write past the match (never past `want`): later sequences
     * overwrite those bytes.  A chunk reads only bytes already written when
     * the offset is at least the chunk size. */
    if (off >= 16 && want - op >= m + 16) {
      for (uint64_t k = 0; k < m; k += 16) memcpy(d + k, s + k, 16);
    } else if (off >= 8 && want - op >= m + 8) {
      for (uint64_t k = 0; k < m; k += 8) memcpy(d + k, s + k, 8);
    } else if (off == 1 && want - op >= m) {
      memset(d, *s, m); /* a run of one byte (the high bytes of split columns) */
    } else if (want - op >= m + 8) {
      /* overlapping: the match repeats with period off, so with any multiple
       * p of it; past its first p >= 8 bytes, 8-byte chunks read bytes
       * already written */
      uint64_t p = off, k = 0;
      while (p < 8) p += off;
      for (; k < p && k < m; k++) d[k] = s[k];
      for (; k < m; k += 8) memcpy(d + k, d + k - p, 8);
    } else { /* at the end: byte by byte */
      for (uint64_t k = 0; k < m; k++) d[k] = s[k];
    }
    op += m;
  }
}

/* ------------------------------------------------------------ zstd frame */

/* One zstd frame as spec.md §4 requires it: the frame magic, exactly one
 * frame filling the stored bytes, a Frame_Content_Size equal to `want`, no
 * dictionary; then libzstd decodes it (checking the content checksum when
 * the frame has one) and must produce exactly `want` bytes.  The output
 * buffer is the whole window, so any window size is accepted. */
static int zstd_decode(const uint8_t *src, uint64_t n, uint8_t *dst, uint64_t want,
                       const char **why) {
  static const uint8_t magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
  if (n < 4 || memcmp(src, magic, 4) != 0) return *why = "does not start with the zstd frame magic", 0;
  size_t fs = ZSTD_findFrameCompressedSize(src, (size_t)n);
  if (ZSTD_isError(fs) || fs != n) return *why = "is not exactly one zstd frame", 0;
  unsigned long long cs = ZSTD_getFrameContentSize(src, (size_t)n);
  if (cs == ZSTD_CONTENTSIZE_UNKNOWN || cs == ZSTD_CONTENTSIZE_ERROR)
    return *why = "is a zstd frame without a content size", 0;
  if (cs != want) return *why = "is a zstd frame whose content size differs from the decoded size", 0;
  if (ZSTD_getDictID_fromFrame(src, (size_t)n) != 0) return *why = "is a zstd frame that needs a dictionary", 0;
  ZSTD_DCtx *dc = ZSTD_createDCtx();
  if (!dc) return *why = "out of memory", 0;
  ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, ZSTD_dParam_getBounds(ZSTD_d_windowLogMax).upperBound);
  size_t got = ZSTD_decompressDCtx(dc, dst, (size_t)want, src, (size_t)n);
  ZSTD_freeDCtx(dc);
  if (ZSTD_isError(got) || got != want) return *why = "does not decode to its declared size", 0;
  return 1;
}

/* ------------------------------------------------------------ transforms */

/* Byte-stream split (Parquet's BYTE_STREAM_SPLIT): byte k of element i is
 * stored at k * count + i.  split: plain -> streams; join: streams -> plain. */
void pcol_byte_split(const uint8_t *in, uint8_t *out, uint64_t count, unsigned w) {
  for (uint64_t i = 0; i < count; i++)
    for (unsigned k = 0; k < w; k++) out[k * count + i] = in[i * w + k];
}
void pcol_byte_join(const uint8_t *in, uint8_t *out, uint64_t count, unsigned w) {
  if (w == 4) {
    const uint8_t *s0 = in, *s1 = in + count, *s2 = in + 2 * count, *s3 = in + 3 * count;
    for (uint64_t i = 0; i < count; i++) {
      uint8_t *o = out + 4 * i;
      o[0] = s0[i], o[1] = s1[i], o[2] = s2[i], o[3] = s3[i];
    }
    return;
  }
  for (uint64_t i = 0; i < count; i++)
    for (unsigned k = 0; k < w; k++) out[i * w + k] = in[k * count + i];
}

/* Delta, undone in place: element i holds v[i] - v[i-1] as a signed w-byte
 * integer (v[-1] = 0); the exact sums must stay in the column's type.
 * Returns the index of the first element that leaves it, or count. */
static uint64_t undelta(uint8_t *p, uint64_t count, pcol_type type) {
  if (type == PCOL_TYPE_U32) {
    int64_t v = 0;
    for (uint64_t i = 0; i < count; i++) {
      int32_t d;
      memcpy(&d, p + 4 * i, 4);
      v += d;
      if (v < 0 || v > (int64_t)UINT32_MAX) return i;
      uint32_t u = (uint32_t)v;
      memcpy(p + 4 * i, &u, 4);
    }
  } else if (type == PCOL_TYPE_I64) {
    int64_t v = 0;
    for (uint64_t i = 0; i < count; i++) {
      int64_t d;
      memcpy(&d, p + 8 * i, 8);
      if (__builtin_add_overflow(v, d, &v)) return i;
      memcpy(p + 8 * i, &v, 8);
    }
  } else { /* u64 */
    uint64_t v = 0;
    for (uint64_t i = 0; i < count; i++) {
      int64_t d;
      memcpy(&d, p + 8 * i, 8);
      uint64_t mag = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
      if (d < 0 ? v < mag : __builtin_add_overflow(v, mag, &v)) return i;
      if (d < 0) v -= mag;
      memcpy(p + 8 * i, &v, 8);
    }
  }
  return count;
}

/* Delta, applied into out; 0 when some difference does not fit a signed
 * w-byte integer (the transform is then not used). */
static int delta(const uint8_t *in, uint8_t *out, uint64_t count, pcol_type type) {
  if (type == PCOL_TYPE_U32) {
    int64_t prev = 0;
    for (uint64_t i = 0; i < count; i++) {
      uint32_t u;
      memcpy(&u, in + 4 * i, 4);
      int64_t d = (int64_t)u - prev;
      if (d < INT32_MIN || d > INT32_MAX) return 0;
      int32_t d32 = (int32_t)d;
      memcpy(out + 4 * i, &d32, 4);
      prev = u;
    }
  } else if (type == PCOL_TYPE_I64) {
    int64_t prev = 0;
    for (uint64_t i = 0; i < count; i++) {
      int64_t v, d;
      memcpy(&v, in + 8 * i, 8);
      if (__builtin_sub_overflow(v, prev, &d)) return 0;
      memcpy(out + 8 * i, &d, 8);
      prev = v;
    }
  } else { /* u64 */
    uint64_t prev = 0;
    for (uint64_t i = 0; i < count; i++) {
      uint64_t v;
      memcpy(&v, in + 8 * i, 8);
      int64_t d;
      if (v >= prev) {
        if (v - prev > (uint64_t)INT64_MAX) return 0;
        d = (int64_t)(v - prev);
      } else {
        uint64_t mag = prev - v;
        if (mag > (uint64_t)INT64_MAX + 1) return 0;
        d = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
      }
      memcpy(out + 8 * i, &d, 8);
      prev = v;
    }
  }
  return 1;
}

/* Element i of a u32, i64 or u64 column, exactly; `signed_width`: read as
 * a signed integer of the element's width (a transform's stored form). */
static __int128 elem_get(const uint8_t *p, uint64_t i, pcol_type type, int signed_width) {
  if (type == PCOL_TYPE_U32) {
    uint32_t u;
    memcpy(&u, p + 4 * i, 4);
    return signed_width ? (__int128)(int32_t)u : (__int128)u;
  }
  uint64_t u;
  memcpy(&u, p + 8 * i, 8);
  return signed_width || type == PCOL_TYPE_I64 ? (__int128)(int64_t)u : (__int128)u;
}

/* Stores v as element i when it lies in the column type's range (or, with
 * `signed_width`, in the signed range of the element's width); else 0. */
static int elem_put(uint8_t *p, uint64_t i, pcol_type type, int signed_width, __int128 v) {
  if (type == PCOL_TYPE_U32) {
    if (signed_width ? v < INT32_MIN || v > INT32_MAX : v < 0 || v > UINT32_MAX) return 0;
    uint32_t u = (uint32_t)(int64_t)v;
    memcpy(p + 4 * i, &u, 4);
    return 1;
  }
  if (signed_width || type == PCOL_TYPE_I64 ? v < INT64_MIN || v > INT64_MAX
                                            : v < 0 || v > (__int128)UINT64_MAX)
    return 0;
  uint64_t u = (uint64_t)v;
  memcpy(p + 8 * i, &u, 8);
  return 1;
}

/* Row-relative (format 1.2), undone in place: element i holds i - v[i] as
 * a signed w-byte integer; v[i] = i - d[i], exactly, must stay in the
 * column's type.  Returns the index of the first element that leaves it,
 * or count. */
static uint64_t unrowrel(uint8_t *p, uint64_t count, pcol_type type) {
  for (uint64_t i = 0; i < count; i++)
    if (!elem_put(p, i, type, 0, (__int128)i - elem_get(p, i, type, 1))) return i;
  return count;
}

/* Row-relative, applied into out; 0 when some i - v[i] does not fit a
 * signed w-byte integer (the transform is then not used). */
static int rowrel(const uint8_t *in, uint8_t *out, uint64_t count, pcol_type type) {
  for (uint64_t i = 0; i < count; i++)
    if (!elem_put(out, i, type, 1, (__int128)i - elem_get(in, i, type, 0))) return 0;
  return 1;
}

int pcol_transform_allowed(unsigned transform, unsigned type) {
  int integer = type == PCOL_TYPE_U32 || type == PCOL_TYPE_I64 || type == PCOL_TYPE_U64;
  /* format 1.3: alone, on integers (§4.1); 1.5: with split, its lanes'
   * codes byte-split (the header bit and the codec: the reader's D3, D14) */
  if (transform & PCOL_TRANSFORM_ENCODED)
    return (transform == PCOL_TRANSFORM_ENCODED ||
            transform == (PCOL_TRANSFORM_ENCODED | PCOL_TRANSFORM_SPLIT)) && integer;
  if (transform & ~(unsigned)(PCOL_TRANSFORM_DELTA | PCOL_TRANSFORM_SPLIT | PCOL_TRANSFORM_ROWREL))
    return 0;
  if ((transform & PCOL_TRANSFORM_DELTA) && (transform & PCOL_TRANSFORM_ROWREL)) return 0;
  if ((transform & (PCOL_TRANSFORM_DELTA | PCOL_TRANSFORM_ROWREL)) && !integer) return 0;
  if ((transform & PCOL_TRANSFORM_SPLIT) && !integer && type != PCOL_TYPE_F64) return 0;
  return 1;
}

/* ------------------------------------------------------------ decoding */

/* a decoder writes every byte of its output (pcol_alloc_hot) */
static void *alloc_written(size_t n) { return pcol_alloc_hot(n, 0); }

/* What zstd frames inflated, in this process (PCOL_DEBUG=inflate prints
 * them when a file is closed: bench/tachyon_size.sh, t_format_versions). */
static _Atomic uint64_t inflated_bytes, inflated_frames;
void pcol_inflated(uint64_t *bytes, uint64_t *frames) {
  *bytes = inflated_bytes;
  *frames = inflated_frames;
}

/* pcol_section_decode into dec (decoded_size bytes, all written). */
static int decode_into(const pcol_section_info *si, unsigned transform, const uint8_t *stored,
                       uint8_t *dec, pcol_error *err) {
  uint64_t d = si->decoded_size;
  uint8_t *tmp = NULL;
  int split = (transform & PCOL_TRANSFORM_SPLIT) && d;
  /* the codec's output goes to dec, or to tmp when a split must be undone */
  uint8_t *codec_out = dec;
  if (split && si->codec != PCOL_CODEC_RAW && !(codec_out = tmp = alloc_written(d)))
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory decoding section at offset %llu",
                          (unsigned long long)si->offset);
  const char *why = NULL;
  int rc = PCOL_OK;
  if (si->codec == PCOL_CODEC_LZ4) {
    if (!lz4_decode(stored, si->stored_size, codec_out, d))
      rc = pcol_corrupt(err, "LZ4 section at offset %llu is not an LZ4 block that decodes to its declared size %llu",
                        si->offset, d);
  } else if (si->codec == PCOL_CODEC_ZSTD) {
    if (!zstd_decode(stored, si->stored_size, codec_out, d, &why)) {
      char m[200];
      snprintf(m, sizeof m, "zstd section at offset %%llu (decoded size %%llu) %s", why);
      rc = pcol_corrupt(err, m, si->offset, d);
    }
    inflated_bytes += d;
    inflated_frames++;
  } else if (!split) {
    memcpy(dec, stored, d); /* raw with delta only (or realigned raw) */
  } else {
    codec_out = (uint8_t *)(uintptr_t)stored; /* raw + split: join straight from the file */
  }
  if (!rc && split) {
    unsigned w = (unsigned)pcol_type_width((pcol_type)si->type);
    pcol_byte_join(codec_out, dec, si->count, w);
  }
  free(tmp);
  if (!rc && (transform & PCOL_TRANSFORM_DELTA)) {
    uint64_t bad = undelta(dec, si->count, (pcol_type)si->type);
    if (bad != si->count)
      rc = pcol_corrupt(err, "delta section at offset %llu leaves its column's type at element %llu",
                        si->offset, bad);
  } else if (!rc && (transform & PCOL_TRANSFORM_ROWREL)) {
    uint64_t bad = unrowrel(dec, si->count, (pcol_type)si->type);
    if (bad != si->count)
      rc = pcol_corrupt(err, "row-relative section at offset %llu leaves its column's type at element %llu",
                        si->offset, bad);
  }
  return rc;
}

static int blocks_decode_all(const pcol_section_info *si, const uint8_t *stored, uint8_t *dec,
                             pcol_error *err);

int pcol_section_decode(const pcol_section_info *si, unsigned transform, const uint8_t *stored,
                        void **out, pcol_error *err) {
  uint8_t *dec = alloc_written(si->decoded_size ? si->decoded_size : 1);
  if (!dec)
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory decoding section at offset %llu",
                          (unsigned long long)si->offset);
  int rc = si->codec == PCOL_CODEC_ZSTD_BLOCKS ? blocks_decode_all(si, stored, dec, err)
                                               : decode_into(si, transform, stored, dec, err);
  if (rc) {
    free(dec);
    return rc;
  }
  *out = dec;
  return PCOL_OK;
}

/* ------------------------------------------------ zstd blocks (format 1.4) */

/* Block b's stored bytes [*start, *end) (the table checked). */
static void block_span(const uint8_t *stored, uint32_t n, uint32_t b, uint64_t *start,
                       uint64_t *end) {
  *start = b ? pcol_rd64(stored + PCOL_BLOCKS_HEADER + (uint64_t)(b - 1) * PCOL_BLOCKS_END)
             : PCOL_BLOCKS_HEADER + (uint64_t)n * PCOL_BLOCKS_END;
  *end = pcol_rd64(stored + PCOL_BLOCKS_HEADER + (uint64_t)b * PCOL_BLOCKS_END);
}

int pcol_blocks_check(const pcol_section_info *si, const uint8_t *stored, uint32_t *nblocks,
                      uint32_t *block_rows, pcol_error *err) {
  uint64_t size = si->stored_size, w = pcol_type_width((pcol_type)si->type);
#define BAD(what, a) pcol_corrupt(err, "zstd-blocks section at offset %llu: " what, si->offset, a)
  if (size < PCOL_BLOCKS_HEADER) return BAD("%llu bytes, shorter than its header", size);
  uint32_t n = pcol_rd32(stored), rows = pcol_rd32(stored + 4);
  if (rows == 0) return BAD("blocks of %llu rows", (uint64_t)rows);
  if (si->count == 0 || n != (si->count - 1) / rows + 1)
    return BAD("%llu blocks do not hold its elements in blocks of its rows", (uint64_t)n);
  if ((size - PCOL_BLOCKS_HEADER) / PCOL_BLOCKS_END < n)
    return BAD("block table of %llu blocks runs past its end", (uint64_t)n);
  uint64_t start = PCOL_BLOCKS_HEADER + (uint64_t)n * PCOL_BLOCKS_END;
  for (uint32_t b = 0; b < n; b++) {
    uint64_t end = pcol_rd64(stored + PCOL_BLOCKS_HEADER + (uint64_t)b * PCOL_BLOCKS_END);
    uint64_t brows = b + 1 < n ? rows : si->count - (uint64_t)b * rows;
    if (end <= start || end > size)
      return BAD("block %llu ends before it starts or past the section", (uint64_t)b);
    /* a zstd frame expands at most 32768:1 (§4, D15): a bomb, refused now */
    if (brows * w / 32768 > end - start)
      return BAD("block %llu claims more decoded bytes than zstd can expand to", (uint64_t)b);
    start = end;
  }
  if (start != size) return BAD("its blocks end at byte %llu, not at its end", start);
#undef BAD
  *nblocks = n;
  *block_rows = rows;
  return PCOL_OK;
}

int pcol_block_decode(const pcol_section_info *si, const uint8_t *stored, uint32_t nblocks,
                      uint32_t block_rows, uint32_t b, uint8_t *dst, pcol_error *err) {
  uint64_t start, end, brows = b + 1 < nblocks ? block_rows : si->count - (uint64_t)b * block_rows;
  block_span(stored, nblocks, b, &start, &end);
  pcol_section_info bi = *si;
  bi.codec = PCOL_CODEC_ZSTD;
  bi.offset = si->offset + start; /* messages name the block's frame */
  bi.stored_size = end - start;
  bi.count = brows;
  bi.decoded_size = brows * pcol_type_width((pcol_type)si->type);
  return decode_into(&bi, si->transform, stored + start, dst, err);
}

/* Every block of a zstd-blocks section, in order, into dec. */
static int blocks_decode_all(const pcol_section_info *si, const uint8_t *stored, uint8_t *dec,
                             pcol_error *err) {
  uint32_t n, rows;
  PCOL_RETURN_NOT_OK(pcol_blocks_check(si, stored, &n, &rows, err));
  uint64_t step = (uint64_t)rows * pcol_type_width((pcol_type)si->type);
  for (uint32_t b = 0; b < n; b++)
    PCOL_RETURN_NOT_OK(pcol_block_decode(si, stored, n, rows, b, dec + b * step, err));
  return PCOL_OK;
}

/* ------------------------------------------------------------ encoding */

/* The compressed form of in[0, n) with the codec, into a new buffer; 0
 * bytes (and NULL) when it does not shrink or cannot be made. */
static size_t compress_bytes(int codec, int level, const uint8_t *in, size_t n, uint8_t **out) {
  *out = NULL;
  if (codec == PCOL_CODEC_LZ4) {
    if (n > (size_t)LZ4_MAX_INPUT_SIZE) return 0;
    int bound = LZ4_compressBound((int)n);
    uint8_t *c = malloc((size_t)bound);
    if (!c) return 0;
    /* levels as the lz4 command's: below LZ4HC's least, the fast coder */
    int k = level >= LZ4HC_CLEVEL_MIN
                ? LZ4_compress_HC((const char *)in, (char *)c, (int)n, bound, level)
                : LZ4_compress_default((const char *)in, (char *)c, (int)n, bound);
    if (k <= 0 || (size_t)k >= n) return free(c), 0;
    *out = c;
    return (size_t)k;
  }
  size_t bound = ZSTD_compressBound(n);
  uint8_t *c = malloc(bound);
  if (!c) return 0;
  ZSTD_CCtx *cc = ZSTD_createCCtx();
  size_t k = cc ? ZSTD_compressCCtx(cc, c, bound, in, n, level) : 0;
  ZSTD_freeCCtx(cc);
  /* a frame over 1/32768 of its content would break spec.md's ratio rule
   * only if zstd broke its own format: checked all the same */
  if (!cc || ZSTD_isError(k) || k >= n || n / 32768 > k) return free(c), 0;
  *out = c;
  return k;
}

/* Which transforms to try for a column of this type, of those in
 * `allowed`. */
static size_t candidates(pcol_type type, unsigned allowed, unsigned *t) {
  static const unsigned all[] = {
      0,
      PCOL_TRANSFORM_SPLIT,
      PCOL_TRANSFORM_DELTA,
      PCOL_TRANSFORM_DELTA | PCOL_TRANSFORM_SPLIT,
      PCOL_TRANSFORM_ROWREL,
      PCOL_TRANSFORM_ROWREL | PCOL_TRANSFORM_SPLIT,
  };
  size_t n = 0;
  for (size_t k = 0; k < sizeof all / sizeof *all; k++)
    if ((all[k] & ~allowed) == 0 && pcol_transform_allowed(all[k], type)) t[n++] = all[k];
  return n;
}

/* in transformed by t into out (same size); 0 when delta or row-relative
 * does not apply (a value whose difference does not fit). */
static int apply(unsigned t, const uint8_t *in, uint8_t *out, uint8_t *scratch, uint64_t count,
                 pcol_type type) {
  unsigned w = (unsigned)pcol_type_width(type);
  uint8_t *first = (t & PCOL_TRANSFORM_SPLIT) ? scratch : out;
  if (t & PCOL_TRANSFORM_DELTA) {
    if (!delta(in, first, count, type)) return 0;
  } else if (t & PCOL_TRANSFORM_ROWREL) {
    if (!rowrel(in, first, count, type)) return 0;
  } else {
    first = (uint8_t *)(uintptr_t)in;
    if (!(t & PCOL_TRANSFORM_SPLIT)) return memcpy(out, in, count * w), 1;
  }
  if (t & PCOL_TRANSFORM_SPLIT) pcol_byte_split(first, out, count, w);
  return 1;
}

/* The transform whose compressed form of a sample of the column (its first
 * PCOL_PROBE_BYTES) is smallest under the codec.  A zstd probe compresses
 * at most at level PCOL_ZSTD_DEFAULT_LEVEL: six probes at 19 made packing
 * 4x slower, and chose no better on the test data (bench/analysis.md). */
#define PCOL_PROBE_BYTES ((size_t)1 << 18)
static int choose_transform(int codec, int level, unsigned allowed, const uint8_t *in,
                            uint64_t count, pcol_type type, unsigned *best) {
  unsigned t[6];
  size_t nt = candidates(type, allowed, t), w = pcol_type_width(type);
  uint64_t pc = count * w > PCOL_PROBE_BYTES ? PCOL_PROBE_BYTES / w : count;
  size_t pn = (size_t)(pc * w), best_size = SIZE_MAX;
  *best = 0;
  if (nt == 1) return PCOL_OK;
  uint8_t *buf = malloc(pn ? 2 * pn : 1);
  if (!buf) return PCOL_ENOMEM;
  for (size_t k = 0; k < nt; k++) {
    if (!apply(t[k], in, buf, buf + pn, pc, type)) continue;
    uint8_t *c;
    int probe_level = codec != PCOL_CODEC_ZSTD || level < PCOL_ZSTD_DEFAULT_LEVEL
                          ? level : PCOL_ZSTD_DEFAULT_LEVEL;
    size_t sz = compress_bytes(codec, probe_level, buf, pn, &c);
    free(c);
    if (!sz) sz = pn;
    if (sz < best_size) best_size = sz, *best = t[k];
  }
  free(buf);
  return PCOL_OK;
}

int pcol_section_encode(int codec, int level, unsigned allowed, const uint8_t *in, uint64_t n,
                        uint64_t count, pcol_type type, pcol_encoded *out) {
  memset(out, 0, sizeof *out);
  if (n < 128) return PCOL_OK; /* too small to gain: raw */
  unsigned t = 0;
  uint8_t *src = (uint8_t *)(uintptr_t)in, *work = NULL;
  if (codec == PCOL_CODEC_ZSTD && !level) /* auto: small sections are cheap to squeeze */
    level = n <= PCOL_ZSTD_SMALL_BYTES ? PCOL_ZSTD_SMALL_LEVEL : PCOL_ZSTD_DEFAULT_LEVEL;
  if (allowed && type != PCOL_TYPE_BYTES) { /* (LZ4: format 1.5's writer, writer.c) */
    PCOL_RETURN_NOT_OK(choose_transform(codec, level, allowed, in, count, type, &t));
    if (t) {
      work = malloc((t & PCOL_TRANSFORM_SPLIT) && t != PCOL_TRANSFORM_SPLIT ? 2 * n : n);
      if (!work) return PCOL_ENOMEM;
      if (!apply(t, in, work, work + n, count, type)) t = 0; /* the probe fitted, the rest not */
      else src = work;
    }
  }
  uint8_t *c;
  size_t k = compress_bytes(codec, level, src, (size_t)n, &c);
  free(work);
  if (!k) return PCOL_OK; /* stays raw (a transform alone is not worth a copy) */
  out->data = c;
  out->size = k;
  out->codec = (uint8_t)codec;
  out->transform = (uint16_t)t;
  return PCOL_OK;
}

int pcol_section_encode_blocks(int level, unsigned allowed, const uint8_t *in, uint64_t count,
                               pcol_type type, uint32_t block_rows, pcol_encoded *out) {
  memset(out, 0, sizeof *out);
  size_t w = pcol_type_width(type);
  uint64_t n = count * w, nb = count ? (count - 1) / block_rows + 1 : 0;
  if (!count || nb > UINT32_MAX) return PCOL_OK;
  if (!level) level = n <= PCOL_ZSTD_SMALL_BYTES ? PCOL_ZSTD_SMALL_LEVEL : PCOL_ZSTD_DEFAULT_LEVEL;
  unsigned t = 0;
  PCOL_RETURN_NOT_OK(choose_transform(PCOL_CODEC_ZSTD, level, allowed, in, count, type, &t));
  size_t bbytes = (size_t)block_rows * w, head = PCOL_BLOCKS_HEADER + (size_t)nb * PCOL_BLOCKS_END;
  uint8_t *work = malloc(2 * bbytes), *c = NULL;
  ZSTD_CCtx *cc = ZSTD_createCCtx();
  pcol_buf o = {0};
  int rc = !work || !cc || pcol_buf_reserve(&o, head) ? PCOL_ENOMEM : PCOL_OK;
  size_t bound = ZSTD_compressBound(bbytes);
  if (!rc && !(c = malloc(bound))) rc = PCOL_ENOMEM;
  if (!rc) {
    memset(o.data, 0, head);
    o.len = head;
    pcol_wr32(o.data, (uint32_t)nb);
    pcol_wr32(o.data + 4, block_rows);
  }
  /* each block transformed alone (delta from 0, rows from 0), so that it
   * decodes alone; a block where delta or row-relative does not fit makes
   * the column try again without them */
  for (uint64_t b = 0; !rc && b < nb; b++) {
    uint64_t rows = b + 1 < nb ? block_rows : count - b * block_rows;
    const uint8_t *src = in + b * bbytes;
    if (t && !apply(t, src, work, work + bbytes, rows, type)) {
      free(work), free(c), ZSTD_freeCCtx(cc), pcol_buf_free(&o);
      return t & PCOL_TRANSFORM_SPLIT && t != PCOL_TRANSFORM_SPLIT
                 ? pcol_section_encode_blocks(level, PCOL_TRANSFORM_SPLIT, in, count, type,
                                              block_rows, out)
                 : pcol_section_encode_blocks(level, 0, in, count, type, block_rows, out);
    }
    size_t k = ZSTD_compressCCtx(cc, c, bound, t ? work : src, (size_t)(rows * w), level);
    if (ZSTD_isError(k)) rc = PCOL_ENOMEM;
    else if (pcol_buf_append(&o, c, k)) rc = PCOL_ENOMEM;
    else pcol_wr64(o.data + PCOL_BLOCKS_HEADER + b * PCOL_BLOCKS_END, o.len);
  }
  free(work), free(c), ZSTD_freeCCtx(cc);
  if (rc || o.len >= n) { /* not smaller than raw: stays raw */
    pcol_buf_free(&o);
    return rc;
  }
  out->data = o.data, out->size = o.len, out->codec = PCOL_CODEC_ZSTD_BLOCKS;
  out->transform = (uint16_t)t;
  return PCOL_OK;
}
