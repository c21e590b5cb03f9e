/* reader.c — opening, checking and viewing a pcol file (spec.md §2–§6).
 *
 * Open checks the header and the directory only: O(number of sections),
 * independent of data size.  Each column is checked on its first use
 * (offsets monotonic and in range, ids in range) and LZ4 sections are
 * decoded then, once; so every view handed out is safe to index.
 * pcol_validate_full, the checks that read every byte, is in validate.c.
 */
#include "pcol.h"
#include "layout.h"   /* PCOL_HEADER_SIZE, PCOL_DIR_ENTRY_SIZE, PCOL_TRANSFORM_ENCODED, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom, pcol_corrupt */
#include "bytes.h"    /* pcol_rd32, pcol_rd64, pcol_rd16, pcol_str_is, ... */
#include "schema.h"   /* pcol_type_width, PCOL_MAX_COLUMNS */
#include "buf.h"      /* pcol_buf_free, pcol_alloc_hot, pcol_buf, ... */
#include "reader.h"   /* pcol_open_fd, pcol_section, ... */
#include "codec.h"    /* pcol_section_decode, pcol_transform_allowed */
#include "enc.h"      /* pcol_enc_parse */
#include "validate.h" /* pcol_check_sums */
#include "keys.h"     /* PCOL_SRC_SPEEDSCOPE, ... */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_DECODED (UINT64_C(4) << 30)
/* The incompat_flags bits this reader implements (spec.md §9): bit 0, the
 * codecs and transforms of format 1.1; bit 1, the compact directory of 1.2;
 * bit 2, the encoded columns of 1.3; bit 3, the zstd blocks of 1.4; bit 4,
 * the byte-split lanes of 1.5. */
#define KNOWN_INCOMPAT (PCOL_INCOMPAT_CODECS_1_1 | PCOL_INCOMPAT_COMPACT_1_2 | \
                        PCOL_INCOMPAT_ENCODED_1_3 | PCOL_INCOMPAT_BLOCKS_1_4 | \
                        PCOL_INCOMPAT_SPLIT_LANES_1_5)

static int compact(const pcol_file *f) {
  return (f->hdr.incompat_flags & PCOL_INCOMPAT_COMPACT_1_2) != 0;
}

/* per-section state bits in `ready` */
typedef struct sec_state {
  _Atomic int ready; /* 1 once data is decoded and checked */
  void *decoded;
  const void *data;
  pcol_lane *lanes; /* an encoded section's lanes (format 1.3), nlanes of them */
  uint32_t nlanes;
  void *plain;      /* an encoded column decoded whole, once asked (pcol_column_plain) */
  /* a zstd-blocks section (format 1.4, spec.md §4.2): its blocks of
   * block_rows rows (checked at open), decoded into blk, the column's
   * whole size, as they are first needed (pcol_column_rows); bready[b]: 1
   * once block b is decoded and checked */
  uint32_t nblocks, block_rows;
  uint8_t *blk;
  _Atomic uint8_t *_Atomic bready; /* set (after blk) when blk is made */
  /* the column's view as pcol_column last gave it (vstate: 0 none, 1 being
   * written, 2 made): a column is asked for over and over (pcol_string,
   * pcol_meta_get: 73k times in `pcol top` of a file of 1,440 sources, a
   * fifth of its instructions), and each answer is the same once checked */
  _Atomic int vstate;
  pcol_view view;
} sec_state;

/* A section read in place: no codec, no transform but the encoding of 1.3
 * (whose codes are read where they lie). */
static int in_place(const pcol_section_info *si) {
  return si->codec == PCOL_CODEC_RAW && (si->transform & ~PCOL_TRANSFORM_ENCODED) == 0;
}

static sec_state *states(pcol_file *f) { return (sec_state *)(void *)f->sections[0].decoded; }

/* The 64-byte header (spec.md §2) into f->hdr: magic, version, checksum,
 * flags, and a directory that ends the file. */
static int parse_header(pcol_file *f, pcol_error *err) {
  const uint8_t *h = f->meta ? f->meta : f->base;
  if (f->size < PCOL_HEADER_SIZE)
    return pcol_corrupt(err, "file is %llu bytes, shorter than the %llu-byte header", f->size,
                        PCOL_HEADER_SIZE);
  if (memcmp(h + PCOL_HDR_MAGIC, PCOL_MAGIC, PCOL_MAGIC_SIZE) != 0)
    return pcol_error_set(err, PCOL_EFORMAT, "not a pcol file (bad magic at byte 0)");
  pcol_header_info *hi = &f->hdr;
  hi->major = pcol_rd16(h + PCOL_HDR_MAJOR);
  hi->minor = pcol_rd16(h + PCOL_HDR_MINOR);
  if (hi->major != PCOL_FORMAT_MAJOR)
    return pcol_error_set(err, PCOL_EUNSUPPORTED,
                          "file has format version %u.%u; this reader understands %d.x (up to %d.%d)",
                          hi->major, hi->minor, PCOL_FORMAT_MAJOR, PCOL_FORMAT_MAJOR,
                          PCOL_FORMAT_MINOR);
  if (pcol_rd32(h + PCOL_HDR_HEADER_CRC) != (uint32_t)crc32(0L, h, PCOL_HDR_HEADER_CRC))
    return pcol_error_set(err, PCOL_ECORRUPT, "header checksum mismatch (bytes 0..63)");
  if (pcol_rd32(h + PCOL_HDR_HEADER_SIZE) != PCOL_HEADER_SIZE)
    return pcol_corrupt(err, "header_size is %llu, expected %llu (byte 12)",
                        pcol_rd32(h + PCOL_HDR_HEADER_SIZE), PCOL_HEADER_SIZE);
  hi->incompat_flags = pcol_rd64(h + PCOL_HDR_INCOMPAT);
  hi->compat_flags = pcol_rd64(h + PCOL_HDR_COMPAT);
  if (hi->incompat_flags & ~KNOWN_INCOMPAT)
    return pcol_error_set(err, PCOL_EUNSUPPORTED,
                          "file uses incompatible feature flags 0x%llx this reader does not know",
                          (unsigned long long)(hi->incompat_flags & ~KNOWN_INCOMPAT));
  hi->file_size = pcol_rd64(h + PCOL_HDR_FILE_SIZE);
  hi->dir_offset = pcol_rd64(h + PCOL_HDR_DIR_OFFSET);
  hi->dir_count = pcol_rd32(h + PCOL_HDR_DIR_COUNT);
  hi->body_crc = pcol_rd32(h + PCOL_HDR_BODY_CRC);
  hi->header_crc = pcol_rd32(h + PCOL_HDR_HEADER_CRC);
  if (hi->file_size != f->size)
    return pcol_corrupt(err, "header says the file is %llu bytes but it is %llu (truncated or extended)",
                        hi->file_size, f->size);
  uint64_t entry_size = compact(f) ? 0 : PCOL_DIR_ENTRY_SIZE;
  if (pcol_rd32(h + PCOL_HDR_DIR_ENTRY_SIZE) != entry_size)
    return pcol_corrupt(err, "dir_entry_size is %llu, expected %llu (byte 52)",
                        pcol_rd32(h + PCOL_HDR_DIR_ENTRY_SIZE), entry_size);
  /* compact (1.2): entries of at least 2 bytes fill [dir_offset, file_size),
   * which bounds dir_count before anything is allocated for it */
  if (compact(f)) {
    if (hi->dir_offset < PCOL_HEADER_SIZE || hi->dir_offset > f->size ||
        (f->size - hi->dir_offset) / 2 < hi->dir_count)
      return pcol_corrupt(err, "compact directory at offset %llu cannot hold its %llu entries",
                          hi->dir_offset, hi->dir_count);
    return PCOL_OK;
  }
  if (hi->dir_offset % PCOL_ALIGN || hi->dir_offset < PCOL_HEADER_SIZE ||
      hi->dir_offset > f->size || (f->size - hi->dir_offset) / PCOL_DIR_ENTRY_SIZE != hi->dir_count ||
      (f->size - hi->dir_offset) % PCOL_DIR_ENTRY_SIZE != 0)
    return pcol_corrupt(err, "directory at offset %llu with %llu entries does not end the file",
                        hi->dir_offset, hi->dir_count);
  return PCOL_OK;
}

/* sections[] plus one extra slot (index 0 is borrowed to hang the state
 * array on; real sections are 1-based in f->idx). */
static int alloc_sections(pcol_file *f, pcol_error *err) {
  f->nsections = f->hdr.dir_count;
  f->sections = calloc((size_t)f->nsections + 1, sizeof *f->sections);
  sec_state *st = calloc((size_t)f->nsections + 1, sizeof *st);
  if (!f->sections || !st) {
    free(st);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  f->sections[0].decoded = st;
  return PCOL_OK;
}

/* What the directory walk carries from one entry to the next. */
typedef struct dir_walk {
  uint64_t prev_key, prev_end; /* entries sorted by key; sections in file order */
  /* the last row-count entry: its table (0 = none yet; table 0 is refused)
   * and count.  Entries are sorted, so a column's row-count entry, when
   * there is one, is the last one seen before it. */
  uint32_t rows_table;
  uint64_t rows;
} dir_walk;

/* The checks of a column entry (column > 0), directory entry i at file
 * byte `at` (spec.md §8.1, rules D6-D13, in that order).  D6-D12 apply to
 * every entry, known or not; D13 checks a known column against the schema
 * (then entered in f->idx) and an unknown one's count against its rows. */
static int check_section(pcol_file *f, uint32_t i, uint64_t at, dir_walk *w, pcol_error *err) {
  const pcol_header_info *hi = &f->hdr;
  pcol_section *s = &f->sections[i + 1];
  pcol_section_info *si = &s->info;
  int v11 = (hi->incompat_flags & PCOL_INCOMPAT_CODECS_1_1) != 0;
  int v14 = (hi->incompat_flags & PCOL_INCOMPAT_BLOCKS_1_4) != 0;
  if (si->codec > PCOL_CODEC_LZ4 && !(v11 && si->codec == PCOL_CODEC_ZSTD) &&
      !(v14 && si->codec == PCOL_CODEC_ZSTD_BLOCKS)) {
    if (si->codec == PCOL_CODEC_ZSTD)
      return pcol_corrupt(err, "section at directory byte %llu uses codec %llu (zstd, format 1.1) but the "
                          "header does not set incompat flag 0x1", at, si->codec);
    if (si->codec == PCOL_CODEC_ZSTD_BLOCKS)
      return pcol_corrupt(err, "section at directory byte %llu uses codec %llu (zstd blocks, format 1.4) "
                          "but the header does not set incompat flag 0x8", at, si->codec);
    return pcol_corrupt(err, "section at directory byte %llu uses unknown codec %llu", at, si->codec);
  }
  /* 1.2 compact files align only sections read in place (spec.md §3.1) */
  uint64_t align = !compact(f) ? PCOL_ALIGN : in_place(si) ? PCOL_COMPACT_ALIGN : 1;
  if (si->offset % align || si->offset < w->prev_end || si->offset > hi->dir_offset ||
      si->stored_size > hi->dir_offset - si->offset)
    return pcol_corrupt(err, "section at file offset %llu (size %llu) is misaligned, overlaps or is out of bounds",
                        si->offset, si->stored_size);
  w->prev_end = si->offset + si->stored_size;
  s->stored = f->base + si->offset;
  if (si->codec == PCOL_CODEC_RAW && si->stored_size != si->decoded_size)
    return pcol_corrupt(err, "raw section at offset %llu: stored size %llu differs from decoded size",
                        si->offset, si->stored_size);
  if (si->decoded_size > f->max_decoded)
    return pcol_error_set(err, PCOL_ETOOBIG,
                          "section at offset %llu decodes to %llu bytes, over the limit of %llu",
                          (unsigned long long)si->offset, (unsigned long long)si->decoded_size,
                          (unsigned long long)f->max_decoded);
  if (si->type < PCOL_TYPE_U8 || si->type > PCOL_TYPE_BYTES)
    return pcol_corrupt(err, "section at offset %llu has unknown element type %llu", si->offset,
                        si->type);
  if (!pcol_transform_allowed(si->transform, si->type))
    return pcol_corrupt(err, "section at offset %llu: transform 0x%llx does not apply to its element type",
                        si->offset, si->transform);
  /* 1.5: an encoded column's lanes byte-split only under codec 1 or 2,
   * which are inflated whole (D14) */
  if ((si->transform & PCOL_TRANSFORM_ENCODED) && (si->transform & PCOL_TRANSFORM_SPLIT) &&
      si->codec != PCOL_CODEC_LZ4 && si->codec != PCOL_CODEC_ZSTD)
    return pcol_corrupt(err, "section at offset %llu: encoded with its lanes byte-split (flags 0xa) "
                        "under codec %llu, not LZ4 or zstd (1 or 2)", si->offset, si->codec);
  if (w->rows_table != si->table)
    return pcol_corrupt(err, "section at offset %llu belongs to table %llu, which has no row count",
                        si->offset, si->table);
  uint64_t width = pcol_type_width((pcol_type)si->type), bytes;
  if (si->transform & PCOL_TRANSFORM_ENCODED) {
    /* its size is that of its lanes, checked on first use (§4.1) */
    if (si->decoded_size < PCOL_ENC_HEADER + PCOL_ENC_LANE)
      return pcol_corrupt(err, "encoded section at offset %llu has %llu bytes, too few for one lane",
                          si->offset, si->decoded_size);
    uint64_t plain = __builtin_mul_overflow(si->count, width, &bytes) ? UINT64_MAX : bytes;
    if (plain > si->decoded_size)
      f->plain_extra = plain - si->decoded_size > UINT64_MAX - f->plain_extra
                           ? UINT64_MAX : f->plain_extra + (plain - si->decoded_size);
  } else if (__builtin_mul_overflow(si->count, width, &bytes) || bytes != si->decoded_size)
    return pcol_corrupt(err, "section at offset %llu: %llu elements do not fill its decoded size",
                        si->offset, si->count);
  if (si->codec == PCOL_CODEC_LZ4 && (si->stored_size > (uint64_t)INT32_MAX ||
                                      si->decoded_size > (uint64_t)INT32_MAX))
    return pcol_corrupt(err, "LZ4 section at offset %llu is larger than one LZ4 block may be (%llu)",
                        si->offset, si->decoded_size);
  /* An LZ4 block expands at most ~255:1 (one length byte adds 255 output
   * bytes), so a larger claim is a decompression bomb: refuse it before
   * anything is allocated. */
  if (si->codec == PCOL_CODEC_LZ4 && si->decoded_size / 255 > si->stored_size + 1)
    return pcol_corrupt(err, "LZ4 section at offset %llu claims %llu decoded bytes, more than LZ4 can expand to",
                        si->offset, si->decoded_size);
  /* A zstd block decodes to at most 128 KiB and takes at least 4 bytes
   * (an RLE block), so a frame expands at most 32768:1: a larger claim is
   * a decompression bomb, refused before anything is allocated. */
  if (si->codec == PCOL_CODEC_ZSTD && si->decoded_size / 32768 > si->stored_size)
    return pcol_corrupt(err, "zstd section at offset %llu claims %llu decoded bytes, more than zstd can expand to",
                        si->offset, si->decoded_size);
  /* zstd blocks (1.4, §4.2): a plain column of fixed-width elements, whose
   * block table (order, bounds, each block's 32768:1) is checked now */
  if (si->codec == PCOL_CODEC_ZSTD_BLOCKS) {
    if (si->type == PCOL_TYPE_BYTES || (si->transform & PCOL_TRANSFORM_ENCODED))
      return pcol_corrupt(err, "zstd-blocks section at offset %llu is a bytes or encoded column (type %llu)",
                          si->offset, si->type);
    sec_state *st = &states(f)[i + 1];
    PCOL_RETURN_NOT_OK(pcol_blocks_check(si, s->stored, &st->nblocks, &st->block_rows, err));
  }
  uint64_t rows = w->rows;
  const pcol_column_info *ci = pcol_column_info_get(si->table, si->column);
  if (!ci) {
    /* a table or column from a newer minor version: ignored, but it is a
     * column all the same: one element a row, or an offsets column (rows +
     * 1), or bytes */
    if (si->type != PCOL_TYPE_BYTES && si->count != rows && si->count != rows + 1)
      return pcol_corrupt(err, "section at offset %llu (a column this reader does not know) has %llu "
                          "elements, neither its table's rows nor rows + 1", si->offset, si->count);
    return PCOL_OK;
  }
  if (si->type != ci->type)
    return pcol_corrupt(err, "section at offset %llu has type %llu, schema says otherwise", si->offset,
                        si->type);
  if (ci->type != PCOL_TYPE_BYTES && si->count != rows + (ci->is_offsets ? 1 : 0))
    return pcol_corrupt(err, "section at offset %llu has %llu elements, table rows disagree",
                        si->offset, si->count);
  f->idx[si->table][si->column] = i + 1;
  return PCOL_OK;
}

/* The checks of directory entry i at file byte `at`, whose fields are in
 * f->sections[i + 1].info (spec.md §8.1 D1-D5; `reserved`: the 20 reserved
 * bytes of a 64-byte entry, NULL in a compact one, which has none); a
 * row-count entry sets the table's rows, a column entry goes on to
 * check_section. */
static int check_entry(pcol_file *f, uint32_t i, uint64_t at, const uint8_t *reserved,
                       dir_walk *w, pcol_error *err) {
  const pcol_header_info *hi = &f->hdr;
  pcol_section_info *si = &f->sections[i + 1].info;
  uint64_t key = ((uint64_t)si->table << 16) | si->column;
  if (i > 0 && key <= w->prev_key)
    return pcol_corrupt(err, "directory entry at byte %llu is out of order (table/column key %llu)",
                        at, key);
  w->prev_key = key;
  if (si->table == 0)
    return pcol_corrupt(err, "directory entry at byte %llu names table 0, which is not used (column %llu)",
                        at, si->column);
  /* flags: the transforms of format 1.1 and 1.2, only in a file that says so */
  uint16_t allowed = (uint16_t)(((hi->incompat_flags & PCOL_INCOMPAT_CODECS_1_1)
                                     ? PCOL_TRANSFORM_DELTA | PCOL_TRANSFORM_SPLIT : 0) |
                                (compact(f) ? PCOL_TRANSFORM_ROWREL : 0) |
                                ((hi->incompat_flags & PCOL_INCOMPAT_ENCODED_1_3)
                                     ? PCOL_TRANSFORM_ENCODED : 0));
  if (si->transform & ~allowed)
    return pcol_corrupt(err, "directory entry at byte %llu has unknown flags 0x%llx", at,
                        si->transform);
  /* 1.5: bits 3 and 1 together (an encoded column's lanes byte-split) */
  if ((si->transform & PCOL_TRANSFORM_ENCODED) && (si->transform & PCOL_TRANSFORM_SPLIT) &&
      !(hi->incompat_flags & PCOL_INCOMPAT_SPLIT_LANES_1_5))
    return pcol_corrupt(err, "directory entry at byte %llu has flags 0x%llx (encoded, its lanes "
                        "byte-split: format 1.5) but the header does not set incompat flag 0x10",
                        at, si->transform);
  for (int k = 0; reserved && k < PCOL_DIR_ENTRY_SIZE - PCOL_DIR_RESERVED; k++)
    if (reserved[k]) return pcol_corrupt(err, "reserved byte %llu of directory entry at byte %llu is not zero",
                                         (uint64_t)(k + PCOL_DIR_RESERVED), at);
  if (si->column == 0) { /* row-count entry */
    if (si->type || si->codec || si->transform || si->offset || si->stored_size || si->decoded_size ||
        si->crc)
      return pcol_corrupt(err, "row-count entry at byte %llu has non-zero fields (table %llu)", at,
                          si->table);
    /* Bound every row count, known table or not, by a multiple of the file
     * size, so that iterating rows cannot run for ages on a tiny file (a
     * known table must also store a column, below: T2); a file with
     * incompat bit 0 or 1, where zstd may expand 32768 times, 32768 (D5). */
    uint64_t ratio = hi->incompat_flags & (PCOL_INCOMPAT_CODECS_1_1 | PCOL_INCOMPAT_COMPACT_1_2) ? 32768 : 64;
    if (si->count / ratio > (uint64_t)f->size + 16)
      return pcol_corrupt(err, "table %llu claims %llu rows, implausible for the file size", si->table,
                          si->count);
    w->rows_table = si->table;
    w->rows = si->count;
    if (si->table < PCOL_T_COUNT_) f->rows[si->table] = si->count;
    return PCOL_OK;
  }
  return check_section(f, i, at, w, err);
}

/* Directory entry i of 64 bytes (spec.md §3) into f->sections[i + 1], then
 * its checks. */
static int parse_dir_entry(pcol_file *f, uint32_t i, dir_walk *w, pcol_error *err) {
  const pcol_header_info *hi = &f->hdr;
  const uint8_t *d = (f->meta ? f->meta + PCOL_HEADER_SIZE : f->base + hi->dir_offset) +
                     (uint64_t)i * PCOL_DIR_ENTRY_SIZE;
  uint64_t at = hi->dir_offset + (uint64_t)i * PCOL_DIR_ENTRY_SIZE;
  pcol_section_info *si = &f->sections[i + 1].info;
  si->table = pcol_rd16(d + PCOL_DIR_TABLE);
  si->column = pcol_rd16(d + PCOL_DIR_COLUMN);
  si->type = d[PCOL_DIR_TYPE];
  si->codec = d[PCOL_DIR_CODEC];
  si->transform = pcol_rd16(d + PCOL_DIR_FLAGS);
  si->offset = pcol_rd64(d + PCOL_DIR_OFFSET);
  si->stored_size = pcol_rd64(d + PCOL_DIR_STORED_SIZE);
  si->decoded_size = pcol_rd64(d + PCOL_DIR_DECODED_SIZE);
  si->count = pcol_rd64(d + PCOL_DIR_COUNT);
  si->crc = pcol_rd32(d + PCOL_DIR_CRC);
  return check_entry(f, i, at, d + PCOL_DIR_RESERVED, w, err);
}

/* One varint of a compact directory (spec.md §3.1): unsigned LEB128 of at
 * most 10 bytes, below 2^64, minimal, within d[0, n).  Returns 1 and
 * advances *pos, or 0 when it breaks one of those (D16). */
static int read_varint(const uint8_t *d, uint64_t n, uint64_t *pos, uint64_t *out) {
  uint64_t v = 0, p = *pos;
  for (unsigned k = 0; k < PCOL_VARINT_MAX; k++) {
    if (p >= n) return 0;
    uint8_t b = d[p++];
    if (k == PCOL_VARINT_MAX - 1 && b > 1) return 0; /* beyond 2^64 - 1 */
    v |= (uint64_t)(b & 0x7f) << (7 * k);
    if (!(b & 0x80)) {
      if (k > 0 && b == 0) return 0; /* not minimal */
      *pos = p;
      *out = v;
      return 1;
    }
  }
  return 0; /* an 11th byte would be needed */
}

/* Compact directory entry i (spec.md §3.1), starting at *pos bytes into the
 * directory, into f->sections[i + 1], then the checks every entry gets. */
static int parse_compact_entry(pcol_file *f, uint32_t i, uint64_t *pos, dir_walk *w,
                               pcol_error *err) {
  const pcol_header_info *hi = &f->hdr;
  const uint8_t *d = f->meta ? f->meta + PCOL_HEADER_SIZE : f->base + hi->dir_offset;
  uint64_t n = f->size - hi->dir_offset, at = hi->dir_offset + *pos, delta, key;
  pcol_section_info *si = &f->sections[i + 1].info;
  memset(si, 0, sizeof *si);
#define BAD(what) pcol_corrupt(err, "compact directory entry at byte %llu: " what " (entry %llu)", at, i)
  if (!read_varint(d, n, pos, &delta)) return BAD("bad or cut key varint");
  /* a delta of 0 repeats the key: check_entry refuses it (D1, or D2 first) */
  key = (i > 0 ? w->prev_key : 0) + delta; /* prev_key < 2^32: no overflow */
  if (delta >= (UINT64_C(1) << 32) || key >= (UINT64_C(1) << 32)) return BAD("key over 2^32 - 1");
  si->table = (uint16_t)(key >> 16);
  si->column = (uint16_t)(key & 0xffff);
  if (si->column == 0) {
    if (!read_varint(d, n, pos, &si->count)) return BAD("bad or cut row count");
    return check_entry(f, i, at, NULL, w, err);
  }
  uint64_t flags, gap;
  if (*pos + 2 > n) return BAD("cut before its type and codec");
  si->type = d[(*pos)++];
  si->codec = d[(*pos)++];
  if (!read_varint(d, n, pos, &flags)) return BAD("bad or cut flags varint");
  if (flags > UINT16_MAX) return BAD("flags over 65535");
  si->transform = (uint16_t)flags;
  if (!read_varint(d, n, pos, &gap) || !read_varint(d, n, pos, &si->stored_size) ||
      !read_varint(d, n, pos, &si->count))
    return BAD("bad or cut varint (gap, stored size or count)");
  /* no crc: the body crc covers the section (spec.md §3.1) */
  if (__builtin_add_overflow(w->prev_end, gap, &si->offset)) return BAD("offset overflows");
  if (!pcol_type_width((pcol_type)si->type)) /* no width, so no decoded size: D9 here */
    return pcol_corrupt(err, "section at offset %llu has unknown element type %llu", si->offset,
                        si->type);
  if (si->transform & PCOL_TRANSFORM_ENCODED) {
    /* an encoded section's size is its lanes' (§4.1): the stored one when
     * raw, else one more varint */
    si->decoded_size = si->stored_size;
    if (si->codec != PCOL_CODEC_RAW && !read_varint(d, n, pos, &si->decoded_size))
      return BAD("bad or cut decoded-size varint");
  } else if (__builtin_mul_overflow(si->count, pcol_type_width((pcol_type)si->type),
                                    &si->decoded_size))
    return pcol_corrupt(err, "section at offset %llu: %llu elements do not fill its decoded size",
                        si->offset, si->count);
#undef BAD
  return check_entry(f, i, at, NULL, w, err);
}

/* Table-level invariants, once every row count and column is known
 * (spec.md §8.1, rules T1 and T2). */
static int check_tables(const pcol_file *f, pcol_error *err) {
  /* Row counts must be representable as u32 ids where ids are used. */
  for (int t = 1; t < PCOL_T_COUNT_; t++)
    if (f->rows[t] >= UINT32_MAX && t != PCOL_T_LINES && t != PCOL_T_VALUES && t != PCOL_T_LABELS)
      return pcol_corrupt(err, "table %llu has %llu rows, more than ids can address", (uint64_t)t,
                          f->rows[t]);
  /* A table must store a column once it has rows, so a tiny file cannot
   * claim millions of free rows (spec.md §3, T2).  samples may store none
   * within the 1.0 bound of D5 (64 rows a byte): the 32768 of a file that
   * may use zstd is for rows that stored bytes pay for. */
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    if (f->rows[t] <= (t == PCOL_T_STRINGS ? 1u : 0u)) continue;
    if (t == PCOL_T_SAMPLES && f->rows[t] / 64 <= (uint64_t)f->size + 16) continue;
    int stored = 0;
    for (int c = 1; c < PCOL_MAX_COLUMNS && !stored; c++) stored = f->idx[t][c] != 0;
    if (!stored)
      return pcol_corrupt(err, "table %llu has %llu rows but stores none of its columns", (uint64_t)t,
                          f->rows[t]);
    /* strings.bytes counts bytes, not rows: a 0-byte one paid for none of
     * 3 million empty strings (issue 28 #6).  Only the offsets column pays
     * for rows; without it they keep the 1.0 bound of 64 a byte, as
     * samples' do (T2). */
    if (t == PCOL_T_STRINGS && !f->idx[t][PCOL_C_STRINGS_OFFSETS] &&
        f->rows[t] / 64 > (uint64_t)f->size + 16)
      return pcol_corrupt(err, "table %llu (strings) has %llu rows, more than 64 a byte, without "
                          "its offsets column", (uint64_t)t, f->rows[t]);
  }
  return PCOL_OK;
}

/* The row budget (not a rule of the format; spec.md §8.1's note, doc/safety.md
 * "Resource bounds"): work linear in rows stays linear in the file's size
 * even where zstd lets 66 KB declare 2^29 samples (issue 28 #6).  Counts
 * the rows of every known table (unknown ones are never read). */
static int check_row_budget(const pcol_file *f, uint64_t max_rows, pcol_error *err) {
  uint64_t rows = 0, budget = max_rows;
  for (int t = 1; t < PCOL_T_COUNT_; t++)
    rows = f->rows[t] > UINT64_MAX - rows ? UINT64_MAX : rows + f->rows[t];
  if (!budget) {
    budget = f->size > UINT64_MAX / PCOL_ROW_BUDGET_PER_BYTE ? UINT64_MAX
                                                             : f->size * PCOL_ROW_BUDGET_PER_BYTE;
    if (budget < PCOL_ROW_BUDGET_MIN) budget = PCOL_ROW_BUDGET_MIN;
  }
  if (rows <= budget) return PCOL_OK;
  char how[128];
  if (max_rows)
    snprintf(how, sizeof how, "set by --max-rows / max_rows");
  else
    snprintf(how, sizeof how, "%d x the file's %llu bytes, at least %llu", PCOL_ROW_BUDGET_PER_BYTE,
             (unsigned long long)f->size, (unsigned long long)PCOL_ROW_BUDGET_MIN);
  return pcol_error_set(err, PCOL_ETOOBIG,
                        "the file declares %llu rows in its tables, more than the row budget of "
                        "%llu (%s); raise it with --max-rows N (pcol_open_options.max_rows)",
                        (unsigned long long)rows, (unsigned long long)budget, how);
}

/* The lock that makes a section's first-use decode happen once. */
static int init_decode_lock(pcol_file *f, pcol_error *err) {
  pthread_mutex_t *mu = malloc(sizeof *mu);
  if (!mu || pthread_mutex_init(mu, NULL) != 0) {
    free(mu);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  f->decode_lock = mu;
  return PCOL_OK;
}

/* Open's checks: the header and the directory only, O(number of sections). */
static int parse(pcol_file *f, pcol_error *err) {
  PCOL_RETURN_NOT_OK(parse_header(f, err));
  PCOL_RETURN_NOT_OK(alloc_sections(f, err));
  dir_walk w = {.prev_key = 0, .prev_end = PCOL_HEADER_SIZE, .rows_table = 0, .rows = 0};
  if (compact(f)) {
    uint64_t pos = 0;
    for (uint32_t i = 0; i < f->nsections; i++)
      PCOL_RETURN_NOT_OK(parse_compact_entry(f, i, &pos, &w, err));
    if (pos != f->size - f->hdr.dir_offset)
      return pcol_corrupt(err, "compact directory ends at byte %llu, not at the end of the file (%llu)",
                          f->hdr.dir_offset + pos, f->size);
  } else {
    for (uint32_t i = 0; i < f->nsections; i++)
      PCOL_RETURN_NOT_OK(parse_dir_entry(f, i, &w, err));
  }
  PCOL_RETURN_NOT_OK(check_tables(f, err));
  return init_decode_lock(f, err);
}

static int open_common(pcol_file *f, const pcol_open_options *opt, pcol_error *err) {
  f->max_decoded = opt && opt->max_decoded_bytes ? opt->max_decoded_bytes : DEFAULT_MAX_DECODED;
  PCOL_RETURN_NOT_OK(parse(f, err));
  PCOL_RETURN_NOT_OK(check_row_budget(f, opt ? opt->max_rows : 0, err));
  return opt && opt->verify_sums ? pcol_check_sums(f, err) : PCOL_OK;
}

int pcol_open_buffer(const void *data, size_t len, const pcol_open_options *opt,
                     pcol_file **out, pcol_error *err) {
  *out = NULL;
  pcol_file *f = calloc(1, sizeof *f);
  if (!f) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  f->base = data;
  f->size = len;
  int rc = open_common(f, opt, err);
  if (rc) {
    pcol_close(f);
    return rc;
  }
  *out = f;
  return PCOL_OK;
}

/* The header and the directory, read with pread into one buffer (the
 * directory right after the 64 header bytes), or NULL to parse the mapping
 * instead.  Touching them through a fresh mapping costs two page faults,
 * ~7-12 µs on the project's VM for a large file, more than two small reads
 * (bench/README.md); the bytes are the same, parse() checks them alike. */
static uint8_t *read_meta(int fd, uint64_t size) {
  uint8_t h[PCOL_HEADER_SIZE];
  if (size < PCOL_HEADER_SIZE || pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h) return NULL;
  uint64_t dir = pcol_rd64(h + PCOL_HDR_DIR_OFFSET);
  if (dir < PCOL_HEADER_SIZE || dir > size || size - dir > (UINT64_C(1) << 20)) return NULL;
  size_t dn = (size_t)(size - dir);
  uint8_t *m = malloc(PCOL_HEADER_SIZE + dn);
  if (!m) return NULL;
  memcpy(m, h, sizeof h);
  if (dn && pread(fd, m + PCOL_HEADER_SIZE, dn, (off_t)dir) != (ssize_t)dn) {
    free(m);
    return NULL;
  }
  return m;
}

int pcol_open(const char *path, const pcol_open_options *opt, pcol_file **out,
              pcol_error *err) {
  *out = NULL;
  if (strcmp(path, "-") == 0) return pcol_open_stream(stdin, "<stdin>", opt, out, err);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
  int rc = pcol_open_fd(fd, path, opt, out, err);
  close(fd);
  return rc;
}

/* pcol_open_fd of a file whose stat is st; buf (NULL: read or map it here)
 * holds its whole content already, read with pread, and is taken over. */
static int open_fd_st(int fd, const struct stat *st, uint8_t *buf, const char *path,
                      const pcol_open_options *opt, pcol_file **out, pcol_error *err) {
  *out = NULL;
  if (!S_ISREG(st->st_mode)) {
    free(buf);
    return pcol_error_set(err, PCOL_EIO, "%s: %s", path,
                          S_ISDIR(st->st_mode) ? strerror(EISDIR) : "not a regular file");
  }
  pcol_file *f = calloc(1, sizeof *f);
  if (!f) {
    free(buf);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  f->size = (size_t)st->st_size;
  if (f->size == 0) {
    free(buf);
    f->base = (const uint8_t *)"";
  } else if (buf || (opt && opt->no_mmap)) {
    size_t got = buf ? f->size : 0;
    if (!buf) buf = pcol_alloc_hot(f->size, 0); /* (written whole below) */
    while (buf && got < f->size) {
      ssize_t n = pread(fd, buf + got, f->size - got, (off_t)got);
      if (n <= 0) break;
      got += (size_t)n;
    }
    if (!buf || got != f->size) {
      free(buf);
      free(f);
      return pcol_error_set(err, buf ? PCOL_EIO : PCOL_ENOMEM, "%s: read failed", path);
    }
    f->base = buf;
    f->owned = 1;
  } else {
    void *m = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      int e = errno;
      free(f);
      return pcol_error_set(err, PCOL_EIO, "%s: mmap failed: %s", path, strerror(e));
    }
    f->base = m;
    f->mapped = 1;
    f->meta = read_meta(fd, f->size);
  }
  int rc = open_common(f, opt, err);
  if (rc) {
    pcol_error_prefix(err, path);
    pcol_close(f);
    return rc;
  }
  *out = f;
  return PCOL_OK;
}

/* A file up to this size is read whole at once to see if it is pcol (one
 * read instead of the magic's and then the file's: `top DIR` of many). */
#define READ_WHOLE_BYTES ((off_t)1 << 20)

int pcol_open_if_pcol(const char *path, int *is_pcol, pcol_file **out, pcol_error *err) {
  *out = NULL;
  *is_pcol = 0;
  int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  uint8_t head[PCOL_MAGIC_SIZE], *buf = NULL;
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < PCOL_MAGIC_SIZE) {
    if (fd >= 0) close(fd);
    return PCOL_OK;
  }
  size_t want = st.st_size <= READ_WHOLE_BYTES ? (size_t)st.st_size : sizeof head;
  if (want > sizeof head) buf = malloc(want);
  ssize_t got = pread(fd, buf ? buf : head, want, 0);
  if (got < (ssize_t)PCOL_MAGIC_SIZE || memcmp(buf ? buf : head, PCOL_MAGIC, PCOL_MAGIC_SIZE) != 0) {
    free(buf);
    close(fd);
    return PCOL_OK;
  }
  *is_pcol = 1;
  if (buf && (size_t)got != want) { /* short: read it again below */
    free(buf);
    buf = NULL;
  }
  pcol_open_options oo = {0};
  oo.no_mmap = 1;
  int rc = open_fd_st(fd, &st, buf, path, &oo, out, err);
  close(fd);
  return rc;
}

int pcol_open_fd(int fd, const char *path, const pcol_open_options *opt, pcol_file **out,
                 pcol_error *err) {
  *out = NULL;
  struct stat st;
  if (fstat(fd, &st) != 0)
    return pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
  return open_fd_st(fd, &st, NULL, path, opt, out, err);
}

int pcol_open_stream(FILE *in, const char *name, const pcol_open_options *opt, pcol_file **out,
                     pcol_error *err) {
  *out = NULL;
  /* a pcol file needs random access: read it whole */
  pcol_buf buf = {0};
  size_t n;
  int rc = PCOL_OK;
  do {
    if ((rc = pcol_buf_reserve(&buf, 1 << 16))) break;
    n = fread(buf.data + buf.len, 1, buf.cap - buf.len, in);
    buf.len += n;
  } while (n > 0);
  if (rc) {
    pcol_buf_free(&buf);
    return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory reading the input", name);
  }
  if (ferror(in)) {
    pcol_buf_free(&buf);
    return pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  }
  pcol_file *f = calloc(1, sizeof *f);
  if (!f) {
    pcol_buf_free(&buf);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  f->base = buf.data ? buf.data : (const uint8_t *)"";
  f->size = buf.len;
  f->owned = buf.data != NULL;
  rc = open_common(f, opt, err);
  if (rc) {
    pcol_error_prefix(err, name);
    pcol_close(f);
    return rc;
  }
  *out = f;
  return PCOL_OK;
}

static void src_index_free(struct pcol_src_index *mi);

void pcol_close(pcol_file *f) {
  if (!f) return;
  const char *dbg = getenv("PCOL_DEBUG"); /* what zstd inflated (bench/tachyon_size.sh) */
  if (dbg && strstr(dbg, "inflate")) {
    uint64_t bytes, frames;
    pcol_inflated(&bytes, &frames);
    fprintf(stderr, "pcol: debug: zstd inflated %llu bytes in %llu frames\n",
            (unsigned long long)bytes, (unsigned long long)frames);
  }
  if (f->sections) {
    sec_state *st = states(f);
    if (st)
      for (uint32_t i = 1; i <= f->nsections; i++)
        free(st[i].decoded), free(st[i].lanes), free(st[i].plain), free(st[i].blk),
            free((void *)atomic_load(&st[i].bready));
    free(st);
    free(f->sections);
  }
  if (f->decode_lock) {
    pthread_mutex_destroy(f->decode_lock);
    free(f->decode_lock);
  }
  free(f->meta);
  src_index_free(atomic_load(&f->meta_index));
  src_index_free(atomic_load(&f->svt_index));
  free(atomic_load(&f->default_types));
  free(atomic_load(&f->base_kinds));
  free(f->frame_keys);
  if (f->mapped) munmap((void *)f->base, f->size);
  if (f->owned) free((void *)f->base);
  free(f);
}

size_t pcol_release_min = (size_t)64 << 20;
uint64_t pcol_release_rows = (uint64_t)1 << 20;

void pcol_file_release(pcol_file *f, const void *p, uint64_t n) {
  if (!f->mapped || f->size < pcol_release_min || !p || !n) return;
  const uint8_t *a = p, *lo = f->base, *hi = f->base + f->size;
  if (a < lo || a > hi || n > (uint64_t)(hi - a)) return; /* decoded data, not the mapping */
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t s = ((uintptr_t)a + pg - 1) / pg * pg, e = ((uintptr_t)a + n) / pg * pg;
  if (s < e) (void)madvise((void *)s, e - s, MADV_DONTNEED);
}

void pcol_view_release(pcol_file *f, const pcol_view *v, uint64_t from, uint64_t to) {
  size_t w = pcol_type_width(v->type);
  if (!v->data || from >= to || to > v->count || !w) return;
  pcol_file_release(f, (const uint8_t *)v->data + from * w, (to - from) * w);
}

void pcol_file_header(const pcol_file *f, pcol_header_info *out) { *out = f->hdr; }
uint32_t pcol_section_count(const pcol_file *f) { return f->nsections; }
int pcol_section_get(const pcol_file *f, uint32_t index, pcol_section_info *out, pcol_error *err) {
  if (index >= f->nsections)
    return pcol_error_set(err, PCOL_EINVAL, "section %u: the file has %u sections", index, f->nsections);
  *out = f->sections[index + 1].info;
  return PCOL_OK;
}
uint64_t pcol_rows(const pcol_file *f, int table) {
  return table > 0 && table < PCOL_T_COUNT_ ? f->rows[table] : 0;
}
uint64_t pcol_string_count(const pcol_file *f) {
  return f->rows[PCOL_T_STRINGS] ? f->rows[PCOL_T_STRINGS] : 1;
}

/* ----------------------------------------------- first-use column checks */

/* Foreign keys that may never be 0 (NA): consumers index `id - 1`. */
static int requires_nonzero(int table, int column) {
  return (table == PCOL_T_SAMPLES && column == PCOL_C_S_SOURCE) ||
         (table == PCOL_T_STACKS && column == PCOL_C_STACK_LOCATION) ||
         (table == PCOL_T_VALUES && column == PCOL_C_V_TYPE) ||
         (table == PCOL_T_SAMPLE_TEXT && column == PCOL_C_ST_SAMPLE);
}

/* The rows an offsets column's last element must equal (§5). */
static uint64_t child_rows(const pcol_file *f, int table) {
  if (table == PCOL_T_STRINGS) {
    uint32_t b = f->idx[PCOL_T_STRINGS][PCOL_C_STRINGS_BYTES];
    return b ? f->sections[b].info.count : 0;
  }
  return f->rows[pcol_table_info_get(table)->child_table];
}

/* The largest code of a lane other than the all-ones code, and how many
 * all-ones codes it has (a loop a width, without branches). */
#define CODE_MAX(T)                                                                    \
  do {                                                                                 \
    const T *c = l->codes;                                                             \
    T m8[8] = {0}, m0 = 0;                                                             \
    uint64_t r = 0;                                                                    \
    for (; r + 8 <= rows; r += 8) /* plain maxima first: 8 chains (vectors at -O2) */  \
      for (int j = 0; j < 8; j++) m8[j] = c[r + j] > m8[j] ? c[r + j] : m8[j];         \
    for (; r < rows; r++) m0 = c[r] > m0 ? c[r] : m0;                                  \
    for (int j = 0; j < 8; j++) m0 = m8[j] > m0 ? m8[j] : m0;                          \
    if (m0 != (T)all) { /* no all-ones code at all */                                  \
      mx = m0;                                                                         \
      break;                                                                           \
    }                                                                                  \
    T m = 0;                                                                           \
    for (r = 0; r < rows; r++) {                                                       \
      T code = c[r];                                                                   \
      nall += code == (T)all;                                                          \
      code = code == (T)all ? 0 : code;                                                \
      m = code > m ? code : m;                                                         \
    }                                                                                  \
    mx = m;                                                                            \
  } while (0)
/* 1 when the lane's u32 values are proven in range from its largest code:
 * step 0 (ids: base + code) or, for a stack's parent, step 1 (row + base +
 * code, at most the row when base + code <= 0; the first -base rows one by
 * one), every all-ones code patched and its exception's value checked. */
static int lane_proven(const pcol_lane *l, uint64_t rows, uint64_t max, int nonzero,
                       int self_parent) {
  uint64_t all = l->width >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * l->width)) - 1, nall = 0, mx = 0;
  if (!l->width || l->width == 8 || l->step != (self_parent ? 1u : 0u)) return 0;
  switch (l->width) {
  case 1: CODE_MAX(uint8_t); break;
  case 2: CODE_MAX(uint16_t); break;
  default: CODE_MAX(uint32_t); break;
  }
  if (nall != l->nexc) return 0; /* an all-ones code unpatched: an ordinary value */
  for (uint32_t e = 0; e < l->nexc; e++) {
    uint64_t r = l->exc[2 * e], y = l->exc[2 * e + 1];
    if (y > max || (nonzero && !y) || (self_parent && y > r)) return 0;
  }
  if (!self_parent) /* base + code in [base, base + mx] (min code unknown: base itself) */
    return l->base <= max && mx <= max - l->base && (!nonzero || l->base >= 1);
  int64_t b = (int64_t)l->base;
  if (b > 0 || mx > (uint64_t)-b) return 0; /* some row's parent would pass the row */
  for (uint64_t r = 0; r < rows && r < (uint64_t)-b; r++) { /* rows where it could be < 0 */
    uint64_t y = pcol_lane_get(l, r);
    if (y > r) return 0;
  }
  return 1; /* y <= r < rows = max, and >= 0 past the first -base rows */
}
#undef CODE_MAX

/* 1 when the lane's u32 values are proven in range from the least and
 * largest code + row x step (one pass over the codes, of any step; a
 * patched row, an all-ones code listed among the exceptions (rows in
 * order), is left out and its exception's value checked): base + that range lies in [nonzero, max] as exact integers
 * (base read as signed), so the sums modulo 2^64 are those values. */
#define CODE_SPAN(T)                                                                   \
  do {                                                                                 \
    const T *c = l->codes;                                                             \
    /* the rows between patched ones (exceptions: rows in order, all-ones codes) */    \
    for (uint64_t e = 0, r = 0; e <= l->nexc; e++) {                                   \
      uint64_t end = e < l->nexc ? l->exc[2 * e] : rows;                               \
      for (int64_t x = (int64_t)r * s; r < end; r++, x += s) {                         \
        int64_t y = (int64_t)c[r] + x;                                                 \
        lo = y < lo ? y : lo;                                                          \
        hi = y > hi ? y : hi;                                                          \
      }                                                                                \
      r = end + 1;                                                                     \
    }                                                                                  \
  } while (0)
static int lane_span_proven(const pcol_lane *l, uint64_t rows, uint64_t max, int nonzero) {
  int64_t s = (int64_t)l->step, lo = INT64_MAX, hi = INT64_MIN, a, b;
  uint64_t us = s < 0 ? -(uint64_t)s : (uint64_t)s;
  /* |row x step| < 2^62 and codes < 2^32: no sum below overflows */
  if (!rows || l->width == 8 || (us && rows > (UINT64_C(1) << 62) / us)) return 0;
  switch (l->width) {
  case 0: /* base + row x step: its ends */
    lo = s < 0 ? (int64_t)(rows - 1) * s : 0;
    hi = s < 0 ? 0 : (int64_t)(rows - 1) * s;
    break;
  case 1: CODE_SPAN(uint8_t); break;
  case 2: CODE_SPAN(uint16_t); break;
  default: CODE_SPAN(uint32_t); break;
  }
  for (uint32_t e = 0; e < l->nexc; e++) {
    uint64_t y = l->exc[2 * e + 1];
    if (y > max || (nonzero && !y)) return 0;
  }
  if (lo > hi) return 1; /* every row patched */
  if (__builtin_add_overflow((int64_t)l->base, lo, &a) ||
      __builtin_add_overflow((int64_t)l->base, hi, &b))
    return 0;
  return a >= (nonzero ? 1 : 0) && (uint64_t)b <= max;
}
#undef CODE_SPAN

/* The u32 rules of §8.2 on an encoded column of one lane (every value
 * below 2^32 and at most max, not 0 when nonzero, at most its row when
 * self_parent): proven from its codes' maximum when it can be
 * (lane_proven), else row by row.  The first row that breaks one, or
 * UINT64_MAX. */
static uint64_t lane_check_u32(const pcol_lane *l, uint64_t rows, uint64_t max, int nonzero,
                               int self_parent) {
  if (lane_proven(l, rows, max, nonzero, self_parent) ||
      (!self_parent && (l->step || !l->width) && lane_span_proven(l, rows, max, nonzero)))
    return UINT64_MAX;
  /* else a block of rows at a time, decoded, the rules without a branch a row */
  pcol_view v = {.count = rows, .type = PCOL_TYPE_U64, .nlanes = 1, .lanes = l};
  uint64_t buf[1024];
  for (uint64_t from = 0; from < rows;) {
    size_t m = rows - from < 1024 ? (size_t)(rows - from) : 1024;
    unsigned bad = 0;
    pcol_view_read_u64(&v, from, m, buf);
    for (size_t j = 0; j < m; j++)
      bad |= (unsigned)(buf[j] > max) | (unsigned)(nonzero && !buf[j]) |
             (unsigned)(self_parent && buf[j] > from + j);
    for (size_t j = 0; bad && j < m; j++)
      if (buf[j] > max || (nonzero && !buf[j]) || (self_parent && buf[j] > from + j)) return from + j;
    from += m;
  }
  return UINT64_MAX;
}

/* check_column's rules (§8.2) for an encoded column (format 1.3), read a
 * run at a time: every element a u32 column holds must be below 2^32 (the
 * lanes' sums are modulo 2^64), then the rules of plain columns. */
static int check_encoded(pcol_file *f, const pcol_section_info *si, const pcol_column_info *ci,
                         const pcol_view *v, pcol_error *err) {
  uint64_t n = v->count, strings = pcol_string_count(f), prev = 0, buf[1024];
  uint64_t refs = ci->ref_table ? f->rows[ci->ref_table] : 0;
  int nonzero = requires_nonzero(si->table, ci->id);
  int self_parent = si->table == PCOL_T_STACKS && ci->id == PCOL_C_STACK_PARENT;
  int before = si->table == PCOL_T_TEXT_LINES && ci->id == PCOL_C_TL_BEFORE;
  const pcol_lane *l = v->lanes;
  /* an offsets column of one lane without codes (o[i] = base + i x step) is
   * checked at its ends: it is monotonic when step < 2^63 */
  uint64_t span;
  if (!ci->is_offsets && !before && ci->type != PCOL_TYPE_U32) {
    /* an i64 or u64 value: any 64-bit pattern is one (as in check_column) */
  } else if (ci->is_offsets && v->nlanes == 1 && l->width == 0 && n > 0) {
    /* 0, s, 2s, ... without wrapping modulo 2^64 (its end is checked below) */
    if (l->base != 0 || __builtin_mul_overflow(n - 1, l->step, &span))
      return pcol_corrupt(err, "offsets section at file offset %llu does not start at 0 or wraps (%llu)",
                          si->offset, l->base);
  } else if (!ci->is_offsets && !before && ci->type == PCOL_TYPE_U32 &&
             (v->nlanes == 1 || !self_parent)) {
    /* each lane on its own: the rules but a parent's (row-relative) hold
     * lane by lane (element r x k + j is lane j's row r) */
    uint64_t max = ci->is_string ? strings - 1 : ci->ref_table ? refs : UINT32_MAX, k = v->nlanes;
    for (uint64_t j = 0; j < k; j++) {
      uint64_t rows = n > j ? (n - j - 1) / k + 1 : 0;
      uint64_t bad = lane_check_u32(&l[j], rows, max > UINT32_MAX ? UINT32_MAX : max, nonzero,
                                    self_parent);
      if (bad != UINT64_MAX)
        return pcol_corrupt(err, "encoded value %llu at row %llu is out of range or order",
                            pcol_view_u64(v, bad * k + j), bad * k + j);
    }
  } else {
    for (uint64_t from = 0; from < n;) {
      size_t m = n - from < 1024 ? (size_t)(n - from) : 1024;
      pcol_view_read_u64(v, from, m, buf);
      for (size_t j = 0; j < m; j++) {
        uint64_t x = buf[j], i = from + j;
        int bad;
        if (ci->is_offsets)
          bad = (i == 0 && x != 0) || (i > 0 && x < prev) ||
                (si->table == PCOL_T_STRINGS && i == 1 && x != 0);
        else if (before)
          bad = x == 0 || x > f->rows[PCOL_T_SAMPLES] + 1;
        else /* a u32 of several lanes */
          bad = x > UINT32_MAX || (ci->is_string && x >= strings) ||
                (ci->ref_table && x > refs) || (nonzero && x == 0) || (self_parent && x > i);
        if (bad)
          return pcol_corrupt(err, "encoded value %llu at row %llu is out of range or order", x, i);
        prev = x;
      }
      from += m;
    }
  }
  if (ci->is_offsets && n && pcol_view_u64(v, n - 1) != child_rows(f, si->table))
    return pcol_corrupt(err, "offsets section at file offset %llu ends at %llu, child table size differs",
                        si->offset, pcol_view_u64(v, n - 1));
  return PCOL_OK;
}

static int check_column(pcol_file *f, const pcol_section_info *si, const pcol_column_info *ci,
                        const pcol_view *view, pcol_error *err) {
  if (!view->data) return check_encoded(f, si, ci, view, err);
  const void *data = view->data;
  if (ci->is_offsets) {
    const uint64_t *o = data;
    if (o[0] != 0)
      return pcol_corrupt(err, "offsets section at file offset %llu does not start at 0 (%llu)",
                          si->offset, o[0]);
    if (si->table == PCOL_T_STRINGS && si->count > 1 && o[1] != 0)
      return pcol_corrupt(err, "string id 0 (NA) has %llu bytes; it must be empty (offset %llu)",
                          o[1], si->offset);
    for (uint64_t i = 1; i < si->count; i++)
      if (o[i] < o[i - 1])
        return pcol_corrupt(err, "offsets section at file offset %llu decreases at element %llu",
                            si->offset, i);
    if (o[si->count - 1] != child_rows(f, si->table))
      return pcol_corrupt(err, "offsets section at file offset %llu ends at %llu, child table size differs",
                          si->offset, o[si->count - 1]);
    return PCOL_OK;
  }
  if (si->table == PCOL_T_TEXT_LINES && ci->id == PCOL_C_TL_BEFORE) {
    /* a position among the samples: 1 .. samples+1 */
    const uint64_t *b = data;
    for (uint64_t i = 0; i < si->count; i++)
      if (b[i] == 0 || b[i] > f->rows[PCOL_T_SAMPLES] + 1)
        return pcol_corrupt(err, "text line %llu is placed before sample %llu, out of range", i + 1, b[i]);
    return PCOL_OK;
  }
  if (ci->type == PCOL_TYPE_U8) { /* flag columns: unknown bits are errors */
    const uint8_t *b = data;
    uint8_t known = si->table == PCOL_T_MAPPINGS ? 0x0f : si->table == PCOL_T_LOCATIONS ? 0x01 : 0xff;
    for (uint64_t i = 0; i < si->count; i++)
      if (b[i] & ~known)
        return pcol_corrupt(err, "flags 0x%llx at row %llu use unknown bits", b[i], i);
    return PCOL_OK;
  }
  if (ci->type != PCOL_TYPE_U32) return PCOL_OK;
  const uint32_t *v = data;
  if (ci->is_string || ci->ref_table) pcol_prefault_read(data, si->count * sizeof *v); /* read whole below */
  if (ci->is_string) {
    uint64_t n = pcol_string_count(f);
    for (uint64_t i = 0; i < si->count; i++)
      if (v[i] >= n)
        return pcol_corrupt(err, "string id %llu at row %llu is out of range", v[i], i);
  } else if (ci->ref_table) {
    uint64_t n = f->rows[ci->ref_table];
    int self_parent = si->table == PCOL_T_STACKS && ci->id == PCOL_C_STACK_PARENT;
    int nonzero = requires_nonzero(si->table, ci->id);
    /* first the largest and smallest id, without branches (a sample's
     * stack column is the largest column a view checks: 10M ids), then the
     * row at fault only when there is one */
    uint32_t mx[4] = {0, 0, 0, 0}, mn[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    uint64_t i = 0;
    if (self_parent && !nonzero && si->count <= UINT32_MAX) {
      /* a stack's parent comes before it (v[i] <= i, so < n too): one
       * pass without branches (go-cpu-large's 425k nodes: 8% of `pcol top`
       * with the one below) */
      uint32_t after = 0, m = (uint32_t)si->count, j = 0;
      for (; m - j >= 4; j += 4) /* (j + 4 wraps for m >= 2^32 - 4: T1 allows 2^32 - 2) */
        after |= (uint32_t)(v[j] > j) | (uint32_t)(v[j + 1] > j + 1) |
                 (uint32_t)(v[j + 2] > j + 2) | (uint32_t)(v[j + 3] > j + 3);
      for (; j < m; j++) after |= (uint32_t)(v[j] > j);
      if (!after) return PCOL_OK;
    }
    for (; i + 4 <= si->count; i += 4)
      for (int k = 0; k < 4; k++) {
        mx[k] = v[i + k] > mx[k] ? v[i + k] : mx[k];
        mn[k] = v[i + k] < mn[k] ? v[i + k] : mn[k];
      }
    for (; i < si->count; i++) {
      mx[0] = v[i] > mx[0] ? v[i] : mx[0];
      mn[0] = v[i] < mn[0] ? v[i] : mn[0];
    }
    for (int k = 1; k < 4; k++) {
      mx[0] = mx[k] > mx[0] ? mx[k] : mx[0];
      mn[0] = mn[k] < mn[0] ? mn[k] : mn[0];
    }
    if (mx[0] > n || (nonzero && mn[0] == 0) || self_parent)
      for (i = 0; i < si->count; i++) {
        if (v[i] > n || (nonzero && v[i] == 0) || (self_parent && v[i] > i))
          return pcol_corrupt(err, "id %llu at row %llu is out of range", v[i], i);
      }
  }
  return PCOL_OK;
}

/* A zstd-blocks column whose first-use checks look at each row alone (ids
 * in range, flags), so that a block is checked when it is decoded: not an
 * offsets column, nor stacks' parents (a parent precedes its row). */
static int rows_checked_alone(const pcol_section_info *si, const pcol_column_info *ci) {
  return si->codec == PCOL_CODEC_ZSTD_BLOCKS && ci && !ci->is_offsets &&
         !(si->table == PCOL_T_STACKS && ci->id == PCOL_C_STACK_PARENT);
}

/* Decodes blocks [b0, b1) of zstd-blocks section sec that are not yet
 * (into st->blk, made on first need), each checked alone when `check`;
 * under decode_lock. */
static int blocks_load_locked(pcol_file *f, uint32_t sec, uint32_t b0, uint32_t b1, int check,
                              pcol_error *err) {
  sec_state *st = &states(f)[sec];
  const pcol_section *s = &f->sections[sec];
  const pcol_section_info *si = &s->info;
  _Atomic uint8_t *ready = atomic_load_explicit(&st->bready, memory_order_relaxed);
  if (!ready) {
    /* the whole column's bytes, written a block at a time (pages of blocks
     * never decoded are never touched) */
    st->blk = malloc(si->decoded_size ? si->decoded_size : 1);
    ready = calloc(st->nblocks ? st->nblocks : 1, 1);
    if (!st->blk || !ready) {
      free(st->blk), free((void *)ready);
      st->blk = NULL;
      return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    }
    atomic_store_explicit(&st->bready, ready, memory_order_release);
  }
  const pcol_column_info *ci = pcol_column_info_get(si->table, si->column);
  uint64_t w = pcol_type_width((pcol_type)si->type);
  for (uint32_t b = b0; b < b1 && b < st->nblocks; b++) {
    if (atomic_load_explicit(&ready[b], memory_order_relaxed)) continue;
    uint8_t *dst = st->blk + (uint64_t)b * st->block_rows * w;
    PCOL_RETURN_NOT_OK(pcol_block_decode(si, s->stored, st->nblocks, st->block_rows, b, dst, err));
    if (check && ci) {
      pcol_section_info bi = *si; /* the block as a column of its own */
      bi.count = b + 1 < st->nblocks ? st->block_rows : si->count - (uint64_t)b * st->block_rows;
      pcol_view bv = {.data = dst, .count = bi.count, .type = (pcol_type)si->type};
      int rc = check_column(f, &bi, ci, &bv, err);
      if (rc) { /* its rows are counted from the block's first */
        char where[64];
        snprintf(where, sizeof where, "block %u (rows from %llu)", (unsigned)b,
                 (unsigned long long)b * st->block_rows);
        pcol_error_prefix(err, where);
        return rc;
      }
    }
    atomic_store_explicit(&ready[b], 1, memory_order_release);
  }
  return PCOL_OK;
}

/* The lanes of an encoded view decoded into a new plain array (NULL: out
 * of memory). */
static void *decode_plain(const pcol_view *v) {
  size_t w = pcol_type_width(v->type);
  /* populated in one call, not a page fault a page (the copy is written whole) */
  void *p = v->count <= SIZE_MAX / w ? pcol_alloc_hot(v->count * w, 0) : NULL;
  if (p && w == 4) pcol_view_read_u32(v, 0, (size_t)v->count, p);
  else if (p) pcol_view_read_u64(v, 0, (size_t)v->count, p);
  return p;
}

/* Damage names its table and column (and the caller the file). */
static void pcol_error_prefix_column(pcol_error *err, const pcol_section_info *si,
                                     const pcol_column_info *ci) {
  const pcol_table_info *ti = pcol_table_info_get(si->table);
  char where[96];
  snprintf(where, sizeof where, "table %s, column %s", ti ? ti->name : "?", ci ? ci->name : "?");
  pcol_error_prefix(err, where);
}

/* pcol_section_data; with want_plain, an encoded section is decoded whole
 * into st->plain first and checked there (the plain checks are the
 * fastest: pcol_column_plain). */
static const void *section_data(pcol_file *f, uint32_t sec, int want_plain, pcol_error *err) {
  sec_state *st = &states(f)[sec];
  if (atomic_load_explicit(&st->ready, memory_order_acquire)) return st->data;
  pthread_mutex_lock(f->decode_lock);
  const void *result = NULL;
  if (st->ready) {
    result = st->data;
    goto out;
  }
  pcol_section *s = &f->sections[sec];
  const pcol_section_info *si = &s->info;
  const void *data = s->stored;
  void *dec = NULL;
  unsigned encoded = si->transform & PCOL_TRANSFORM_ENCODED;
  /* 1.5: the lanes' codes byte-split, joined by pcol_enc_parse_split */
  unsigned split_lanes = encoded ? si->transform & PCOL_TRANSFORM_SPLIT : 0;
  const pcol_column_info *ci = pcol_column_info_get(si->table, si->column);
  int alone = rows_checked_alone(si, ci);
  if (si->codec == PCOL_CODEC_ZSTD_BLOCKS) {
    /* every block not yet decoded, into the buffer pcol_column_rows fills
     * (owned by st, not dec); checked a block at a time when its rows can
     * be, else whole below */
    if (blocks_load_locked(f, sec, 0, st->nblocks, alone, err)) {
      pcol_error_prefix_column(err, si, ci);
      goto out;
    }
    data = st->blk;
  } else if (!in_place(si)) {
    /* decoded once, checked while decoding (codec.c); an encoded
     * section's codec gives its lanes */
    if (pcol_section_decode(si, si->transform & ~(encoded | split_lanes), s->stored, &dec, err) !=
        PCOL_OK)
      goto out;
    data = dec;
  } else if (si->type != PCOL_TYPE_BYTES && si->type != PCOL_TYPE_U8 &&
             ((uintptr_t)data % 8) != 0) {
    /* a caller's buffer that is not 8-byte aligned: copy so loads are aligned */
    dec = malloc(si->decoded_size ? si->decoded_size : 1);
    if (!dec) {
      pcol_error_set(err, PCOL_ENOMEM, "out of memory");
      goto out;
    }
    memcpy(dec, data, si->decoded_size);
    data = dec;
  }
  pcol_view v = {.data = encoded ? NULL : data, .count = si->count, .type = (pcol_type)si->type};
  pcol_lane *lanes = NULL;
  void *plain = NULL;
  int bad = encoded && (split_lanes ? pcol_enc_parse_split(si, dec, &lanes, &v.nlanes, err)
                                    : pcol_enc_parse(si, data, &lanes, &v.nlanes, err)) != PCOL_OK;
  v.lanes = lanes;
  if (!bad && encoded && want_plain) {
    if (!(plain = decode_plain(&v))) {
      pcol_error_set(err, PCOL_ENOMEM, "out of memory");
      free(dec);
      free(lanes);
      goto out;
    }
    pcol_view pv = {.data = plain, .count = v.count, .type = v.type};
    bad = ci && check_column(f, si, ci, &pv, err) != PCOL_OK;
  } else if (!bad && !alone) {
    bad = ci && check_column(f, si, ci, &v, err) != PCOL_OK;
  }
  if (bad) {
    pcol_error_prefix_column(err, si, ci);
    free(dec);
    free(lanes);
    free(plain);
    goto out;
  }
  st->plain = plain;
  st->decoded = dec;
  st->data = data;
  st->lanes = lanes;
  st->nlanes = v.nlanes;
  atomic_store_explicit(&st->ready, 1, memory_order_release);
  result = data;
out:
  pthread_mutex_unlock(f->decode_lock);
  return result;
}

const void *pcol_section_data(pcol_file *f, uint32_t sec, pcol_error *err) {
  return section_data(f, sec, 0, err);
}

static __attribute__((noinline)) int column_made(pcol_file *f, int table, int column,
                                                 pcol_view *out, pcol_error *err);
int pcol_column(pcol_file *f, int table, int column, pcol_view *out, pcol_error *err) {
  if (table > 0 && table < PCOL_T_COUNT_ && column > 0 && column < PCOL_MAX_COLUMNS &&
      f->idx[table][column]) {
    const sec_state *vs = &states(f)[f->idx[table][column]];
    if (atomic_load_explicit(&vs->vstate, memory_order_acquire) == 2) {
      *out = vs->view;
      return PCOL_OK;
    }
  }
  return column_made(f, table, column, out, err);
}

/* pcol_column the first time (and every time for an absent column). */
static int column_made(pcol_file *f, int table, int column, pcol_view *out, pcol_error *err) {
  const pcol_column_info *ci = pcol_column_info_get(table, column);
  if (!ci) return pcol_error_set(err, PCOL_ENOTFOUND, "no column %d in table %d", column, table);
  uint64_t rows = f->rows[table];
  memset(out, 0, sizeof *out);
  out->type = ci->type;
  out->dflt = ci->is_offsets ? 0 : ci->dflt;
  /* U12 (format 1.3): the summary has a row for each source */
  if (table == PCOL_T_SOURCE_SUMMARY && rows && rows != f->rows[PCOL_T_SOURCES])
    return pcol_corrupt(err, "source_summary has %llu rows for %llu sources", (uint64_t)rows,
                        (uint64_t)f->rows[PCOL_T_SOURCES]);
  uint32_t sec = f->idx[table][column];
  if (!sec) {
    out->data = NULL;
    out->count = ci->type == PCOL_TYPE_BYTES ? 0 : rows + (ci->is_offsets ? 1 : 0);
    /* an absent column's default must itself be a valid reference */
    if (ci->ref_table && rows &&
        ((uint64_t)ci->dflt > f->rows[ci->ref_table] ||
         (ci->dflt == 0 && requires_nonzero(table, column))))
      return pcol_corrupt(err, "table %llu lacks column %llu, whose default refers to a missing row",
                          (uint64_t)table, (uint64_t)column);
    if (table == PCOL_T_TEXT_LINES && column == PCOL_C_TL_BEFORE && rows)
      return pcol_corrupt(err, "table %llu lacks column %llu (0 is not a valid position)",
                          (uint64_t)table, (uint64_t)column);
    if (ci->is_offsets) {
      const pcol_table_info *ti = pcol_table_info_get(table);
      uint64_t child = table == PCOL_T_STRINGS ? 0 : f->rows[ti->child_table];
      if (table == PCOL_T_STRINGS) {
        uint32_t b = f->idx[PCOL_T_STRINGS][PCOL_C_STRINGS_BYTES];
        child = b ? f->sections[b].info.count : 0;
      }
      if (child != 0)
        return pcol_corrupt(err, "table %llu lacks its offsets column but its child has %llu rows",
                            (uint64_t)table, child);
    }
    return PCOL_OK;
  }
  const void *d = pcol_section_data(f, sec, err);
  if (!d) return err ? err->code : PCOL_ECORRUPT;
  sec_state *st = &states(f)[sec];
  out->data = st->nlanes ? NULL : d;
  out->nlanes = st->nlanes;
  out->lanes = st->lanes;
  out->count = f->sections[sec].info.count;
  /* kept for the next call (one thread writes it; the others make their own) */
  int none = 0;
  if (atomic_compare_exchange_strong(&st->vstate, &none, 1)) {
    st->view = *out;
    atomic_store_explicit(&st->vstate, 2, memory_order_release);
  }
  return PCOL_OK;
}

int pcol_column_rows(pcol_file *f, int table, int column, uint64_t lo, uint64_t hi,
                     pcol_view *out, pcol_error *err) {
  const pcol_column_info *ci = pcol_column_info_get(table, column);
  uint32_t sec = ci && (table == PCOL_T_SAMPLES || table == PCOL_T_VALUES) ? f->idx[table][column] : 0;
  const pcol_section_info *si = sec ? &f->sections[sec].info : NULL;
  if (!si || !rows_checked_alone(si, ci) || atomic_load_explicit(&states(f)[sec].ready, memory_order_acquire))
    return pcol_column(f, table, column, out, err);
  sec_state *st = &states(f)[sec];
  if (hi > si->count) hi = si->count;
  uint32_t b0 = lo < hi ? (uint32_t)(lo / st->block_rows) : 0;
  uint32_t b1 = lo < hi ? (uint32_t)((hi - 1) / st->block_rows + 1) : 0;
  _Atomic uint8_t *ready = atomic_load_explicit(&st->bready, memory_order_acquire);
  int need = !ready;
  for (uint32_t b = b0; b < b1 && !need; b++)
    need = !atomic_load_explicit(&ready[b], memory_order_acquire);
  if (need) {
    pthread_mutex_lock(f->decode_lock);
    int rc = blocks_load_locked(f, sec, b0, b1, 1, err);
    pthread_mutex_unlock(f->decode_lock);
    if (rc) {
      pcol_error_prefix_column(err, si, ci);
      return rc;
    }
  }
  memset(out, 0, sizeof *out);
  out->type = ci->type;
  out->dflt = ci->dflt;
  out->data = st->blk;
  out->count = si->count;
  return PCOL_OK;
}

int pcol_column_lazy(const pcol_file *f, int table, int column) {
  const pcol_column_info *ci = pcol_column_info_get(table, column);
  uint32_t sec = ci && (table == PCOL_T_SAMPLES || table == PCOL_T_VALUES) ? f->idx[table][column] : 0;
  return sec && rows_checked_alone(&f->sections[sec].info, ci) &&
         !atomic_load_explicit(&states((pcol_file *)f)[sec].ready, memory_order_acquire);
}

uint64_t pcol_column_block_rows(const pcol_file *f, int table, int column) {
  return pcol_column_lazy(f, table, column) ? states((pcol_file *)f)[f->idx[table][column]].block_rows : 0;
}

int pcol_column_plain(pcol_file *f, int table, int column, pcol_view *out, pcol_error *err) {
  uint32_t sec = pcol_column_info_get(table, column) ? f->idx[table][column] : 0;
  if (sec && !section_data(f, sec, 1, err)) return err ? err->code : PCOL_ECORRUPT;
  PCOL_RETURN_NOT_OK(pcol_column(f, table, column, out, err));
  if (!out->nlanes) return PCOL_OK;
  sec_state *st = &states(f)[sec];
  pthread_mutex_lock(f->decode_lock);
  if (!st->plain) st->plain = decode_plain(out); /* checked earlier, as encoded */
  void *plain = st->plain;
  pthread_mutex_unlock(f->decode_lock);
  if (!plain) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  out->data = plain;
  out->nlanes = 0;
  out->lanes = NULL;
  return PCOL_OK;
}

/* The stored elements themselves, without the §8.2 value checks: O(1) for a
 * stored, uncompressed, untransformed, aligned value column (open checked
 * its bounds, type and count, rule D13).  Everything else (an absent,
 * offsets, LZ4, zstd, transformed or unaligned column) is what pcol_column
 * gives, checked and decoded.  Nothing in libpcol indexes with these values. */
int pcol_column_unchecked(pcol_file *f, int table, int column, pcol_view *out, pcol_error *err) {
  const pcol_column_info *ci = pcol_column_info_get(table, column);
  uint32_t sec = ci && !ci->is_offsets ? f->idx[table][column] : 0;
  const pcol_section *s = sec ? &f->sections[sec] : NULL;
  if (!s || !in_place(&s->info) || s->info.transform ||
      (ci->type != PCOL_TYPE_BYTES && ci->type != PCOL_TYPE_U8 && (uintptr_t)s->stored % 8))
    return pcol_column(f, table, column, out, err);
  memset(out, 0, sizeof *out);
  out->type = ci->type;
  out->dflt = ci->dflt;
  out->data = s->stored;
  out->count = s->info.count;
  return PCOL_OK;
}

pcol_str pcol_display_name(pcol_str s) {
  if (!s.ptr) return s;
  size_t i = s.len;
  while (i > 0 && s.ptr[i - 1] != '/') i--;
  if (i == s.len) return s; /* nothing after the last '/' (or no text) */
  return (pcol_str){s.ptr + i, s.len - i};
}

/* reader.h: a source's name in an export (a speedscope profile's, a
 * Firefox thread's).  Which importers name a source "FILE: NAME" (the
 * rest name it FILE, the input's path, ": " anywhere in it) */
static int names_file_colon_name(pcol_str type) {
  static const char *const t[] = {PCOL_SRC_SPEEDSCOPE, PCOL_SRC_CHROME, PCOL_SRC_OTLP, PCOL_SRC_PERFETTO, PCOL_SRC_JFR};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (pcol_str_is(type, t[i])) return 1;
  return !type.ptr; /* (unknown: as such a name) */
}

pcol_str pcol_source_display_name(pcol_file *f, uint32_t source, pcol_str s) {
  if (!s.ptr) return s;
  pcol_view st;
  pcol_str type = {0}, v = {0};
  pcol_error e = {0};
  if (source && !pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &st, &e) && source <= st.count &&
      pcol_string(f, pcol_view_u32(&st, source - 1), &type, &e))
    type = (pcol_str){0}; /* (unread: split as a "FILE: NAME") */
  size_t n = s.len; /* FILE's length: the whole uri, the marked length, or up to the first ": " */
  if (names_file_colon_name(type)) {
    const char *sep = memmem(s.ptr, s.len, ": ", 2);
    if (sep) n = (size_t)(sep - s.ptr);
    /* a FILE holding ": " (PCOL_META_URI_FILE_LEN, srcname.c): where it was joined */
    if (source && pcol_meta_probe(f, source, PCOL_META_URI_FILE_LEN, &v, &e) == 1 && v.ptr && v.len && v.len < 20) {
      size_t m = 0, k = 0;
      for (; k < v.len && v.ptr[k] >= '0' && v.ptr[k] <= '9'; k++) m = m * 10 + (size_t)(v.ptr[k] - '0');
      if (k == v.len && m <= s.len && (m == s.len || (s.len - m >= 2 && !memcmp(s.ptr + m, ": ", 2)))) n = m;
    }
  }
  pcol_str d = pcol_display_name((pcol_str){s.ptr, n});
  return (pcol_str){d.ptr, s.len - (size_t)(d.ptr - s.ptr)};
}

int pcol_string(pcol_file *f, uint32_t id, pcol_str *out, pcol_error *err) {
  out->ptr = NULL;
  out->len = 0;
  if (id == 0) return PCOL_OK;
  if (id >= pcol_string_count(f))
    return pcol_error_set(err, PCOL_ECORRUPT, "string id %u is out of range", id);
  pcol_strings s;
  int rc = pcol_strings_get(f, &s, err);
  return rc ? rc : pcol_strings_at(&s, id, out, err);
}

int pcol_stack_walk(pcol_file *f, uint32_t stack_id,
                    int (*fn)(void *ctx, uint32_t depth, uint32_t location_id), void *ctx,
                    pcol_error *err) {
  pcol_view par, loc;
  int rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &par, err);
  if (!rc) rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &loc, err);
  if (rc) return rc;
  if (stack_id > f->rows[PCOL_T_STACKS])
    return pcol_error_set(err, PCOL_ECORRUPT, "stack id %u is out of range", stack_id);
  uint32_t depth = 1;
  /* parents are checked to be smaller than their child, so this ends */
  for (uint32_t n = stack_id; n; n = pcol_view_u32(&par, n - 1), depth++) {
    int r = fn(ctx, depth, pcol_view_u32(&loc, n - 1));
    if (r > 0) break;
    if (r < 0) /* the callback failed: keep its message if it wrote one */
      return err && err->code == r ? r : pcol_error_set(err, r, "%s", pcol_strerror(r));
  }
  return PCOL_OK;
}

int pcol_stack_depths(pcol_file *f, uint32_t **out, pcol_error *err) {
  *out = NULL;
  uint64_t n = f->rows[PCOL_T_STACKS];
  pcol_view par;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &par, err));
  uint32_t *d = malloc(((size_t)n + 1) * sizeof *d);
  if (!d) return pcol_oom(err);
  d[0] = 0;
  for (uint64_t i = 1; i <= n; i++) {
    uint32_t p = pcol_view_u32(&par, i - 1);
    d[i] = (p < i ? d[p] : 0) + 1; /* parents are checked to be smaller */
  }
  *out = d;
  return PCOL_OK;
}

/* The rows of a table with a source column (meta, source_value_types) by
 * source, in file order: rows[first[s] .. first[s+1]) are source s's (0:
 * file-level).  Without it a lookup scans every row, and a view that asks
 * each of N sources a few keys (the many-file view header, `pcol info`'s
 * value types) is quadratic in N. */
struct pcol_src_index {
  uint64_t nsrc;
  uint32_t *first; /* nsrc + 2 */
  uint32_t *rows;
};

static void src_index_free(struct pcol_src_index *mi) {
  if (!mi) return;
  free(mi->first);
  free(mi->rows);
  free(mi);
}

/* NULL when it cannot be had (out of memory, or more rows than a u32 holds):
 * the caller scans, as before */
static struct pcol_src_index *src_index_build(const pcol_file *f, int table, const pcol_view *s) {
  uint64_t n = f->rows[table], nsrc = f->rows[PCOL_T_SOURCES];
  if (n >= UINT32_MAX || nsrc >= UINT32_MAX - 2) return NULL;
  struct pcol_src_index *mi = calloc(1, sizeof *mi);
  if (!mi) return NULL;
  mi->nsrc = nsrc;
  mi->first = calloc((size_t)nsrc + 2, sizeof *mi->first);
  mi->rows = malloc((n ? (size_t)n : 1) * sizeof *mi->rows);
  if (!mi->first || !mi->rows) {
    src_index_free(mi);
    return NULL;
  }
  for (uint64_t i = 0; i < n; i++) { /* ids checked in range by pcol_column */
    uint32_t sid = pcol_view_u32(s, i);
    if (sid > nsrc) { /* (cannot happen) */
      src_index_free(mi);
      return NULL;
    }
    mi->first[sid + 1]++;
  }
  for (uint64_t j = 0; j <= nsrc; j++) mi->first[j + 1] += mi->first[j];
  uint32_t *at = malloc(((size_t)nsrc + 1) * sizeof *at);
  if (!at) {
    src_index_free(mi);
    return NULL;
  }
  memcpy(at, mi->first, ((size_t)nsrc + 1) * sizeof *at);
  for (uint64_t i = 0; i < n; i++) mi->rows[at[pcol_view_u32(s, i)]++] = (uint32_t)i;
  free(at);
  return mi;
}

/* the index of TABLE's source column S, built once under decode_lock */
static const struct pcol_src_index *src_index(pcol_file *f, int table, const pcol_view *s) {
  struct pcol_src_index *_Atomic *slot =
      table == PCOL_T_META ? &f->meta_index : &f->svt_index;
  struct pcol_src_index *mi = atomic_load_explicit(slot, memory_order_acquire);
  if (mi) return mi;
  pthread_mutex_lock(f->decode_lock);
  mi = atomic_load_explicit(slot, memory_order_relaxed);
  if (!mi && (mi = src_index_build(f, table, s))) atomic_store_explicit(slot, mi, memory_order_release);
  pthread_mutex_unlock(f->decode_lock);
  return mi;
}

int pcol_source_rows(pcol_file *f, int table, uint32_t source_id, const uint32_t **rows,
                     size_t *n, pcol_error *err) {
  *rows = NULL;
  *n = 0;
  int col = table == PCOL_T_META ? PCOL_C_META_SOURCE : PCOL_C_SVT_SOURCE;
  if (table != PCOL_T_META && table != PCOL_T_SOURCE_VALUE_TYPES)
    return pcol_error_set(err, PCOL_EINVAL, "pcol_source_rows: table %d has no source column", table);
  pcol_view s;
  PCOL_RETURN_NOT_OK(pcol_column(f, table, col, &s, err));
  const struct pcol_src_index *mi = src_index(f, table, &s);
  if (!mi) return pcol_oom(err);
  if (source_id > mi->nsrc) return PCOL_OK;
  *rows = mi->rows + mi->first[source_id];
  *n = mi->first[source_id + 1] - mi->first[source_id];
  return PCOL_OK;
}

uint64_t pcol_input_bytes(const pcol_file *f) {
  /* a 1.3 file counts as the size of its plain columns (a constant column
   * of a million rows is 24 bytes), but at most 64 times its own */
  uint64_t cap = f->size > UINT64_MAX / 64 ? UINT64_MAX : f->size * 64;
  uint64_t plain = f->plain_extra > UINT64_MAX - f->size ? UINT64_MAX : f->size + f->plain_extra;
  plain = plain < cap ? plain : cap;
  if (!f->input_bytes) return plain;
  /* a converted input: its bytes as given, or its data's plain size in
   * pcol when larger, at most 8 x the bytes given (review 14 F3: a 774 KB
   * Go heap profile, 3 MB plain, whose traces -lines print 146 MB, was
   * refused at 128 x its compressed bytes; the 8 keeps issue 42 O1's
   * bound: a 32 KB gzip that inflates to a 31 MiB name counts 256 KB) */
  uint64_t given = f->input_bytes, most = given > UINT64_MAX / 8 ? UINT64_MAX : given * 8;
  plain = plain < most ? plain : most;
  return given > plain ? given : plain;
}

int pcol_string_which_memo(pcol_file *f, pcol_idmemo *m, uint32_t id, const char *const *keys,
                           uint8_t nkeys, uint8_t *which, pcol_error *err) {
  if (pcol_idmemo_get(m, id, which)) return PCOL_OK;
  pcol_str k;
  PCOL_RETURN_NOT_OK(pcol_string(f, id, &k, err));
  *which = 0;
  for (uint8_t i = 0; i < nkeys && !*which; i++)
    if (pcol_str_is(k, keys[i])) *which = (uint8_t)(i + 1);
  pcol_idmemo_put(m, id, *which);
  return PCOL_OK;
}

/* The rows of key for source_id in file order: fn(ctx, value) for each
 * until it returns non-zero, which is returned; PCOL_OK after the last.
 * *nosrc: the index has no such source (PCOL_ENOTFOUND, err untouched). */
static int meta_scan(pcol_file *f, uint32_t source_id, const char *key,
                     int (*fn)(void *ctx, pcol_str value), void *ctx, int *nosrc,
                     pcol_error *err) {
  pcol_view k, v, s;
  pcol_strings st; /* fetched once: a source of 667 meta rows is scanned per key */
  *nosrc = 0;
  int rc = pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &k, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &v, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &s, err);
  if (!rc) rc = pcol_strings_get(f, &st, err);
  if (rc) return rc;
  size_t kl = strlen(key);
  int every = source_id == PCOL_EVERY_SOURCE;
  const struct pcol_src_index *mi = every ? NULL : src_index(f, PCOL_T_META, &s);
  if (mi && source_id > mi->nsrc) return *nosrc = 1, PCOL_ENOTFOUND;
  /* with the index, the same rows in the same order as the scan, only the source's */
  uint64_t n = mi ? mi->first[source_id + 1] - mi->first[source_id] : f->rows[PCOL_T_META];
  for (uint64_t j = 0; j < n; j++) {
    uint64_t i = mi ? mi->rows[mi->first[source_id] + j] : j;
    uint32_t si = mi ? source_id : pcol_view_u32(&s, i);
    if (every ? si == 0 || si > f->rows[PCOL_T_SOURCES] : si != source_id) continue;
    pcol_str ks;
    if ((rc = pcol_strings_at(&st, pcol_view_u32(&k, i), &ks, err))) return rc;
    if (ks.ptr && ks.len == kl && memcmp(ks.ptr, key, kl) == 0) {
      pcol_str vs;
      if ((rc = pcol_strings_at(&st, pcol_view_u32(&v, i), &vs, err))) return rc;
      if ((rc = fn(ctx, vs))) return rc;
    }
  }
  return PCOL_OK;
}

enum { META_FOUND = 1 }; /* meta_first's stop: not an error code */
static int meta_first(void *ctx, pcol_str value) {
  *(pcol_str *)ctx = value;
  return META_FOUND;
}

/* pcol_meta_get's search.  *absent: 0 found or failed (err filled), else
 * PCOL_ENOTFOUND with err untouched: 1 the source has no row of key, 2 the
 * index has no such source.  *out is NA unless found. */
static int meta_find(pcol_file *f, uint32_t source_id, const char *key, pcol_str *out, int *absent,
                     pcol_error *err) {
  int nosrc;
  *out = (pcol_str){NULL, 0};
  if (source_id == PCOL_EVERY_SOURCE) return *absent = 2, PCOL_ENOTFOUND; /* (pcol_meta_each's only) */
  int rc = meta_scan(f, source_id, key, meta_first, out, &nosrc, err);
  *absent = rc == META_FOUND || (rc && !nosrc) ? 0 : nosrc ? 2 : 1;
  return rc == META_FOUND ? PCOL_OK : rc ? rc : PCOL_ENOTFOUND;
}

int pcol_meta_get(pcol_file *f, uint32_t source_id, const char *key, pcol_str *out,
                  pcol_error *err) {
  int absent, rc = meta_find(f, source_id, key, out, &absent, err);
  if (absent == 2) return pcol_error_set(err, PCOL_ENOTFOUND, "meta: no source %u", source_id);
  if (absent) return pcol_error_set(err, PCOL_ENOTFOUND, "meta: source %u has no key %s", source_id, key);
  return rc;
}

int pcol_meta_probe(pcol_file *f, uint32_t source_id, const char *key, pcol_str *out,
                    pcol_error *err) {
  int absent, rc = meta_find(f, source_id, key, out, &absent, err);
  return absent ? 0 : rc ? rc : 1;
}

int pcol_meta_each(pcol_file *f, uint32_t source_id, const char *key,
                   int (*fn)(void *ctx, pcol_str value), void *ctx, pcol_error *err) {
  int nosrc, rc;
  if ((source_id > f->rows[PCOL_T_SOURCES] && source_id != PCOL_EVERY_SOURCE) ||
      ((rc = meta_scan(f, source_id, key, fn, ctx, &nosrc, err)) && nosrc))
    return pcol_error_set(err, PCOL_ENOTFOUND, "meta: no source %u", source_id);
  return rc;
}

int pcol_meta_get_i64(pcol_file *f, uint32_t source_id, const char *key, int64_t *out,
                      pcol_error *err) {
  pcol_str v;
  int rc = pcol_meta_get(f, source_id, key, &v, err);
  if (rc) return rc;
  if (pcol_str_i64(v, out))
    return pcol_error_set(err, PCOL_EFORMAT, "meta %s of source %u is not an integer: \"%.*s\"", key,
                          source_id, v.ptr && v.len < 64 ? (int)v.len : 0, v.ptr ? v.ptr : "");
  return PCOL_OK;
}
