/* writer.c — lays out a builder's tables as a pcol file (spec.md §2–§4):
 * 64-byte directory entries and 64-byte alignment, or, for zstd, the
 * compact directory of format 1.2 (§3.1).
 *
 * The layout is planned in full before the first byte is written (sections
 * compressed, offsets and checksums known), so the header can go first and
 * the output can be a pipe.
 */
#include "pcol.h"
#include "layout.h"   /* PCOL_HEADER_SIZE, PCOL_CODEC_RAW, PCOL_ALIGN, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK */
#include "bytes.h"    /* pcol_wr64, pcol_wr32, pcol_wr16 */
#include "schema.h"   /* pcol_type_width */
#include "buf.h"      /* pcol_buf, pcol_buf_free, pcol_buf_append, ... */
#include "builder.h"  /* struct pcol_builder, pcol_b_implicit_fill, pcol_btable, ... */
#include "summary.h"  /* pcol_bsum_fill */
#include "spill.h"    /* pcol_b_col_each, pcol_b_col_spilled, pcol_b_col_unmap, ... */
#include "writer.h"   /* pcol_write_options_check */
#include "codec.h"    /* pcol_encoded, pcol_section_encode */
#include "enc.h"      /* pcol_enc_plan, pcol_enc_choose, pcol_enc_emit, ... */
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h> /* pread */

typedef struct plan_entry {
  uint16_t table, column;
  uint8_t type, codec;
  uint16_t transform; /* transform bits (the entry's flags; 1.1, row-relative 1.2) */
  uint64_t offset, stored_size, decoded_size, count;
  uint32_t crc;
  const uint8_t *data; /* stored bytes */
  uint8_t *owned;      /* compressed copy, freed after writing */
  uint8_t gen;         /* 1, 2: data is NULL, the bytes are the builder's implicit
                        * value offsets or types, made as they are written */
  uint8_t spilled;     /* 1: data is NULL, the bytes are the builder's spilled
                        * column (spill.c), read back in pieces as they are written */
  uint8_t encoded;     /* 1: written in the encoded form `enc` (format 1.3, §4.1),
                        * made from the plain bytes above as they are written */
  uint8_t renumbered;  /* 1: the samples' stack ids, each renumbered by the
                        * plan's st_new as they are read (stack_order) */
  pcol_enc_plan enc;
} plan_entry;

typedef struct plan {
  const pcol_builder *b;
  plan_entry *e;
  size_t n, cap;
  uint64_t dir_offset, file_size;
  int v11;     /* some entry uses a codec or transform of format 1.1 */
  int compact; /* format 1.2: compact directory, sections aligned to 8 or not */
  int v13;     /* format 1.3 allowed: columns may be encoded (§4.1) */
  int v14;     /* format 1.4 allowed: zstd blocks (§4.2) for large sample columns */
  int v15;     /* format 1.5 allowed: an encoded column's lanes byte-split under the codec */
  int plain;   /* 1.3 with every column plain (pcol_builder_write_image) */
  int any_blocks;
  /* the values' lanes to try: k when every sample has k values (the
   * samples' value offsets are 0, k, 2k, ...), else 1 — read from the
   * data, so that the same tables give the same bytes however built */
  uint32_t values_k;
  int any_encoded;
  int any_split_lanes;
  /* the stack trie renumbered in preorder (stack_order): st_new[old id] =
   * new id, and the stacks' two columns in the new order; NULL when the
   * builder's trie is in preorder already */
  uint32_t *st_new;
  pcol_buf st_cols[2];
  uint8_t header[PCOL_HEADER_SIZE];
  uint8_t *dir;
  size_t dir_len;
} plan;

static void plan_free(plan *p) {
  for (size_t i = 0; i < p->n; i++) free(p->e[i].owned), pcol_enc_plan_free(&p->e[i].enc);
  free(p->e);
  free(p->dir);
  free(p->st_new);
  pcol_buf_free(&p->st_cols[0]);
  pcol_buf_free(&p->st_cols[1]);
}

static plan_entry *plan_add(plan *p) {
  if (PCOL_GROW(p->e, p->n, p->cap)) return NULL;
  plan_entry *e = &p->e[p->n++];
  memset(e, 0, sizeof *e);
  return e;
}

/* Samples a writer leaves without any stored column (all default) at
 * most: 64 (spec.md §3). */
#define PCOL_SAMPLES_FREE_ROWS 64

/* A column whose every element equals its default is not stored. */
typedef struct dflt_scan {
  size_t w;
  uint8_t d[8];
  int all; /* so far */
} dflt_scan;
static int dflt_piece(void *ctx, const void *p, size_t n) {
  dflt_scan *s = ctx;
  const uint8_t *q = p;
  for (size_t i = 0; i + s->w <= n && s->all; i += s->w) /* pieces hold whole elements */
    if (memcmp(q + i, s->d, s->w) != 0) s->all = 0;
  return !s->all; /* stops the read: a spilled column is not inflated to its end */
}
static int column_is_default(const pcol_builder *b, int t, int c, const pcol_column_info *ci) {
  const pcol_buf *buf = &b->t[t].cols[c];
  if (ci->type == PCOL_TYPE_BYTES) return buf->len == 0 && !pcol_b_col_spilled(b, t, c);
  dflt_scan s = {pcol_type_width(ci->type), {0}, 1};
  int64_t dv = ci->is_offsets ? 0 : ci->dflt;
  memcpy(s.d, &dv, 8); /* little-endian hosts only (checked in spec/build) */
  /* stopped (not default), or unreadable: stored, and then fails there */
  if (pcol_b_col_each(b, t, c, dflt_piece, &s)) return 0;
  return s.all;
}

static uint64_t align_to(uint64_t x, uint64_t a) { return (x + a - 1) & ~(a - 1); }

/* Where a section may start (spec.md §3, §3.1): a multiple of 64, or in a
 * compact file a multiple of 8 for one read in place, anywhere otherwise. */
static uint64_t section_align(const plan *p, const plan_entry *e) {
  if (!p->compact) return PCOL_ALIGN;
  return e->codec == PCOL_CODEC_RAW && (!e->transform || e->transform == PCOL_TRANSFORM_ENCODED)
             ? PCOL_COMPACT_ALIGN : 1;
}

/* crc32 takes uInt lengths: feed large ranges in pieces */
static uLong crc_update(uLong crc, const uint8_t *data, uint64_t n) {
  for (uint64_t done = 0; done < n;) {
    uint64_t chunk = n - done;
    if (chunk > (1u << 30)) chunk = 1u << 30;
    crc = crc32(crc, data + done, (uInt)chunk);
    done += chunk;
  }
  return crc;
}

/* The one reference the builder cannot check when it is added: a text
 * line may stand before a sample added later. */
static int check_text_line_refs(const pcol_builder *b, pcol_error *err) {
  const pcol_btable *tl = &b->t[PCOL_T_TEXT_LINES];
  for (uint64_t i = 0; i < tl->rows; i++) {
    uint64_t k;
    memcpy(&k, tl->cols[PCOL_C_TL_BEFORE - 1].data + i * 8, 8);
    if (k == 0 || k > b->t[PCOL_T_SAMPLES].rows + 1)
      return pcol_error_set(err, PCOL_EINVAL, "text line %llu is placed before sample %llu, "
                            "but there are %llu samples", (unsigned long long)i + 1,
                            (unsigned long long)k, (unsigned long long)b->t[PCOL_T_SAMPLES].rows);
  }
  return PCOL_OK;
}

/* The builder's implicit columns (builder.c vimplicit): 1 for the
 * samples' value offsets, 2 for the values' types, 0 for a stored one. */
static int implicit_kind(const pcol_builder *b, int table, int column) {
  if (!b->vimplicit) return 0;
  if (table == PCOL_T_SAMPLES && column == PCOL_C_S_VALUE_OFFSETS) return 1;
  if (table == PCOL_T_VALUES && column == PCOL_C_V_TYPE) return 2;
  return 0;
}

/* column_is_default for an implicit column: offsets i x vk are all 0 when
 * vk is; the types are their default when the pattern is. */
static int implicit_is_default(const pcol_builder *b, int kind, const pcol_column_info *ci) {
  if (kind == 1) return b->vk == 0;
  for (uint32_t j = 0; j < b->vk; j++)
    if (b->vpat[j] != (uint32_t)ci->dflt) return 0;
  return 1;
}

/* Element width of an implicit column. */
static size_t implicit_width(int kind) { return kind == 1 ? 8 : 4; }

/* Feeds the bytes of implicit entry e to f in pieces of 64 KiB. */
static int implicit_each(const plan *p, const plan_entry *e,
                         int (*f)(void *ctx, const void *d, size_t n), void *ctx) {
  uint64_t chunk[8192];
  size_t w = implicit_width(e->gen), per = sizeof chunk / w;
  for (uint64_t i = 0; i < e->count; i += per) {
    size_t n = e->count - i < per ? (size_t)(e->count - i) : per;
    pcol_b_implicit_fill(p->b, e->gen - 1, i, n, chunk);
    if (f(ctx, chunk, n * w)) return PCOL_EIO;
  }
  return PCOL_OK;
}

static int crc_piece(void *ctx, const void *d, size_t n) {
  *(uLong *)ctx = crc_update(*(uLong *)ctx, d, n);
  return 0;
}

/* The samples' stack ids renumbered (stack_order) on their way to f. */
typedef struct renumber {
  const uint32_t *st_new;
  uint64_t nstacks;
  int (*f)(void *ctx, const void *d, size_t n);
  void *ctx;
} renumber;
static int renumber_piece(void *ctx, const void *d, size_t n) {
  const renumber *r = ctx;
  const uint8_t *q = d;
  uint32_t out[8192];
  for (size_t i = 0; i + 4 <= n;) { /* (pieces hold whole elements) */
    size_t m = 0;
    for (; m < sizeof out / sizeof *out && i + 4 <= n; m++, i += 4) {
      uint32_t id = pcol_rd32(q + i);
      out[m] = id <= r->nstacks ? r->st_new[id] : id; /* (the builder checked them) */
    }
    if (r->f(r->ctx, out, m * 4)) return 1;
  }
  return 0;
}

/* Feeds the plain bytes of entry e's column to f: generated, read back
 * from the builder's temporary file, or from memory. */
static int plain_each(const plan *p, const plan_entry *e,
                      int (*f)(void *ctx, const void *d, size_t n), void *ctx) {
  if (e->gen) return implicit_each(p, e, f, ctx);
  if (e->renumbered) {
    renumber r = {p->st_new, p->b->t[PCOL_T_STACKS].rows, f, ctx};
    if (e->spilled) return pcol_b_col_each(p->b, e->table, e->column - 1, renumber_piece, &r);
    return e->count && renumber_piece(&r, e->data, (size_t)e->count * 4) ? PCOL_EIO : PCOL_OK;
  }
  if (e->spilled) return pcol_b_col_each(p->b, e->table, e->column - 1, f, ctx);
  /* an encoded entry's plain bytes, or a stored one's (compressed or not) */
  uint64_t len = e->encoded ? e->count * pcol_type_width((pcol_type)e->type) : e->stored_size;
  return len && f(ctx, e->data, (size_t)len) ? PCOL_EIO : PCOL_OK;
}

/* plain_each as the encoder's source (enc_write.c) */
typedef struct entry_src {
  const plan *p;
  const plan_entry *e;
} entry_src;
static int src_each(void *src, int (*f)(void *ctx, const void *d, size_t n), void *ctx) {
  const entry_src *s = src;
  return plain_each(s->p, s->e, f, ctx);
}

/* Feeds the stored bytes of entry e to f: its plain bytes, or their
 * encoded form (format 1.3). */
static int entry_each(const plan *p, const plan_entry *e,
                      int (*f)(void *ctx, const void *d, size_t n), void *ctx) {
  if (!e->encoded) return plain_each(p, e, f, ctx);
  entry_src s = {p, e};
  return pcol_enc_emit(&e->enc, src_each, &s, (pcol_type)e->type, e->count, f, ctx);
}

/* The samples' value offsets encoded as 0, k, 2k, ...: the values' k. */
static void note_values_k(plan *p, const plan_entry *e, const pcol_enc_plan *ep) {
  if (e->table != PCOL_T_SAMPLES || e->column != PCOL_C_S_VALUE_OFFSETS || ep->k != 1) return;
  const pcol_enc_lane *l = ep->lanes;
  if (!l->width && !l->base && l->step > 1 && l->step <= PCOL_ENC_MAX_LANES)
    p->values_k = (uint32_t)l->step;
}

static int put_mem(void *ctx, const void *d, size_t n) {
  return pcol_buf_append((pcol_buf *)ctx, d, n) != PCOL_OK;
}

/* A compressed file stores a column's encoded form raw (read in place,
 * nothing inflated) when it is at most this many bytes larger than the
 * column's smallest compressed form: a constant or count-only column
 * (samples' value offsets, values of a profile that counts samples) is
 * 32-56 bytes encoded, and its zstd frame 25-35 bytes that inflate to MBs. */
#define PCOL_RAW_ENCODED_SLACK 64

/* Format 1.3 under a codec (zstd or LZ4, spec.md §4.1): e's encoded bytes
 * (*plan), compressed with codec (at level, for zstd) into *out (out->data
 * NULL when e is not smaller encoded); when the codec does not shrink them,
 * or they are at most PCOL_RAW_ENCODED_SLACK bytes larger than its output,
 * *out is the encoded bytes themselves, codec raw.  The caller compares it
 * with the plain column's compressed form. */
static int encode_compressed(plan *p, plan_entry *e, int codec, int level, pcol_encoded *out,
                             pcol_enc_plan *ep, pcol_error *err) {
  memset(out, 0, sizeof *out);
  if (e->type != PCOL_TYPE_U32 && e->type != PCOL_TYPE_I64 && e->type != PCOL_TYPE_U64) return PCOL_OK;
  uint32_t k = e->table == PCOL_T_VALUES ? p->values_k : 1;
  entry_src s = {p, e};
  if (!pcol_enc_choose(src_each, &s, (pcol_type)e->type, e->count, k, 0, ep)) return PCOL_OK;
  note_values_k(p, e, ep);
  pcol_buf bytes = {0};
  int rc = ep->size == UINT64_MAX ? PCOL_ENOMEM
           : pcol_enc_emit(ep, src_each, &s, (pcol_type)e->type, e->count, put_mem, &bytes);
  if (!rc && pcol_section_encode(codec, level, 0, bytes.data, bytes.len, bytes.len,
                                 PCOL_TYPE_BYTES, out))
    rc = PCOL_ENOMEM;
  /* format 1.5: the lanes' codes byte-split, when the codec then shrinks
   * them more (wide codes whose high bytes repeat: memory values, ids) */
  if (!rc && p->v15 && out->data) {
    pcol_section_info si = {.count = e->count, .decoded_size = bytes.len};
    uint8_t *sp = malloc(bytes.len);
    pcol_encoded spc = {0};
    if (!sp) rc = PCOL_ENOMEM;
    else if (pcol_enc_split(&si, bytes.data, sp) &&
             (rc = pcol_section_encode(codec, level, 0, sp, bytes.len, bytes.len, PCOL_TYPE_BYTES,
                                       &spc)) == PCOL_OK &&
             spc.data && spc.size < out->size) {
      free(out->data);
      *out = spc;
      out->transform = PCOL_TRANSFORM_SPLIT;
      spc.data = NULL;
    }
    free(spc.data);
    free(sp);
  }
  if (!rc && (!out->data || bytes.len <= out->size + PCOL_RAW_ENCODED_SLACK)) { /* raw */
    free(out->data);
    out->data = bytes.data, out->size = bytes.len, out->codec = PCOL_CODEC_RAW, out->transform = 0;
    bytes.data = NULL;
  }
  pcol_buf_free(&bytes);
  return rc ? pcol_error_set(err, rc, "out of memory") : PCOL_OK;
}

/* Format 1.3: stores e encoded when that is smaller (enc_write.c).  The
 * values of a builder whose samples all have the same k value types are
 * tried in k lanes, one a type; min_width keeps a row paid for in bytes. */
static int encode_entry(plan *p, plan_entry *e, unsigned min_width, pcol_error *err) {
  if (e->type != PCOL_TYPE_U32 && e->type != PCOL_TYPE_I64 && e->type != PCOL_TYPE_U64) return PCOL_OK;
  uint32_t k = e->table == PCOL_T_VALUES ? p->values_k : 1;
  entry_src s = {p, e};
  if (!pcol_enc_choose(src_each, &s, (pcol_type)e->type, e->count, k, min_width, &e->enc))
    return PCOL_OK; /* plain is as small (or the column could not be read: it fails later) */
  note_values_k(p, e, &e->enc);
  if (e->enc.size == UINT64_MAX) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  e->encoded = 1;
  e->transform = PCOL_TRANSFORM_ENCODED;
  e->stored_size = e->decoded_size = e->enc.size;
  p->any_encoded = 1;
  return PCOL_OK;
}

/* Format 1.4 (spec.md §4.2): a samples column (not the value offsets) of
 * at least two blocks of PCOL_BLOCK_ROWS rows goes in zstd blocks, so that
 * a time range inflates only the blocks that hold its rows.  On a 1.09 M
 * sample Tachyon recording (bench/results/tachyon-size.md) blocks of 16 Ki
 * rows made the file 0.60x the .bin and `top --from 20 --to 21` inflate
 * 1.2 MB, 32 Ki 0.58x and 1.9 MB, 64 Ki 0.58x and 2.7 MB. */
#define PCOL_BLOCK_ROWS 32768
static int blocked(const plan *p, const plan_entry *e) {
  const pcol_column_info *ci = pcol_column_info_get(e->table, e->column);
  return p->v14 && e->table == PCOL_T_SAMPLES && ci && !ci->is_offsets &&
         e->type != PCOL_TYPE_BYTES && e->count >= 2 * (uint64_t)PCOL_BLOCK_ROWS;
}

/* Stores a compressed copy of e's bytes (codec, level) when that is
 * smaller; else e stays raw.  `blocks`: in zstd blocks (format 1.4). */
static int compress_entry(plan_entry *e, const pcol_buf *buf, int codec, int level,
                          unsigned transforms, int blocks, pcol_error *err) {
  pcol_encoded enc;
  if (blocks ? pcol_section_encode_blocks(level, transforms, buf->data, e->count, (pcol_type)e->type,
                                          PCOL_BLOCK_ROWS, &enc)
             : pcol_section_encode(codec, level, transforms, buf->data, buf->len, e->count,
                                   (pcol_type)e->type, &enc))
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  if (!enc.data) return PCOL_OK;
  e->codec = enc.codec;
  e->transform = enc.transform;
  e->owned = enc.data;
  e->data = enc.data;
  e->stored_size = enc.size;
  return PCOL_OK;
}

/* Whether the sections planned so far keep a table of `rows` within the
 * row budget of spec.md §8.1 (D5, in a compact file: floor(rows / 32768)
 * <= file_size + 16), whatever follows: a column stored raw and encoded
 * may hold millions of rows in 32 bytes, and must not be the one that
 * pays for them (a zstd frame or a plain column holds at most 32768 bytes
 * a stored byte, so they always pay).  The entry being planned, the last,
 * is not counted. */
static int rows_paid(const plan *p, uint64_t rows) {
  uint64_t bytes = PCOL_HEADER_SIZE;
  for (size_t i = 0; i + 1 < p->n; i++) bytes += p->e[i].column ? p->e[i].stored_size : 0;
  return rows / 32768 <= bytes;
}

/* One row-count entry per table with rows, then one entry per stored column,
 * in directory order (table, column). */
static int plan_sections(pcol_builder *b, int codec, int level, plan *p, pcol_error *err) {
  /* the transforms the codec may use: with zstd all of them (the file is
   * compact, 1.2); with LZ4 all of them in format 1.5 (spec.md §4 allows
   * them with any codec: the stack trie's parent ids row-relative, 1M
   * Rprof samples: 1.94 -> 0.45 MB), none before (1.3, 1.4: no bit 0) */
  unsigned tf = codec == PCOL_CODEC_ZSTD || (codec == PCOL_CODEC_LZ4 && p->v15)
                    ? PCOL_TRANSFORM_DELTA | PCOL_TRANSFORM_SPLIT | PCOL_TRANSFORM_ROWREL : 0;
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    const pcol_table_info *ti = pcol_table_info_get(t);
    pcol_btable *bt = &b->t[t];
    if (bt->rows == 0) continue;
    plan_entry *rc = plan_add(p);
    if (!rc) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    rc->table = (uint16_t)t;
    rc->count = bt->rows;
    /* spec.md §3: a table other than samples stores at least one column
     * once it has rows (strings: more than the NA row), so its row count is
     * paid for in bytes; the first column is kept if all are default.  So
     * do samples past 64 rows (PCOL_SAMPLES_FREE_ROWS): rows no column pays
     * for could break D5 in a small file (found by fuzz_pcol: a compact
     * file of 30000 default samples, valid by 1.2's D5, rewritten raw). */
    int must_store = t != PCOL_T_SAMPLES ? bt->rows > (t == PCOL_T_STRINGS ? 1u : 0u)
                                         : bt->rows > PCOL_SAMPLES_FREE_ROWS;
    for (size_t c = 0; c < ti->ncolumns && must_store; c++) {
      int ik = implicit_kind(b, t, ti->columns[c].id);
      if (!(ik ? implicit_is_default(b, ik, &ti->columns[c])
               : column_is_default(b, t, c, &ti->columns[c])))
        must_store = 0;
    }
    /* the kept column must hold its rows: a samples column still lazy
     * (builder.c) is made now, the one kept only (4 bytes a row); so
     * writing such a builder changes it, as coalescing does */
    if (must_store && t == PCOL_T_SAMPLES && pcol_b_materialize_sample_column(b, 0))
      return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    for (size_t c = 0; c < ti->ncolumns; c++) {
      const pcol_column_info *ci = &ti->columns[c];
      pcol_buf *buf = &bt->cols[c];
      if (t == PCOL_T_STACKS && p->st_new && ci->id <= 2) buf = &p->st_cols[ci->id - 1]; /* (stack_order) */
      int ik = implicit_kind(b, t, ci->id);
      int dflt = ik ? implicit_is_default(b, ik, ci) : column_is_default(b, t, c, ci);
      if (dflt && !(must_store && c == 0)) continue;
      plan_entry *e = plan_add(p);
      if (!e) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
      e->table = (uint16_t)t;
      e->column = ci->id;
      e->type = (uint8_t)ci->type;
      if (ik) {
        e->gen = (uint8_t)ik;
        e->count = ik == 1 ? bt->rows + 1 : bt->rows;
        e->decoded_size = e->stored_size = e->count * implicit_width(ik);
      } else {
        uint64_t len = buf->len;
        if (pcol_b_col_spilled(b, t, c)) {
          pcol_colspill *sp = &b->spill[t == PCOL_T_VALUES][c];
          len += sp->len;
          e->spilled = 1;
        } else {
          e->data = buf->data;
        }
        e->decoded_size = len;
        e->count = ci->type == PCOL_TYPE_BYTES ? len : len / pcol_type_width(ci->type);
        e->stored_size = len;
        e->renumbered = t == PCOL_T_SAMPLES && ci->id == PCOL_C_S_STACK && p->st_new;
      }
      if (p->v13 && !p->plain && codec == PCOL_CODEC_RAW) {
        /* the first column samples store pays for its rows (spec.md §4.1) */
        unsigned min_width = t == PCOL_T_SAMPLES && bt->rows > PCOL_SAMPLES_FREE_ROWS &&
                             e == &p->e[p->n - 1] && p->e[p->n - 2].column == 0;
        PCOL_RETURN_NOT_OK(encode_entry(p, e, min_width, err));
      }
      if (codec != PCOL_CODEC_RAW) {
        pcol_buf tmp = {0}; /* an implicit or renumbered column's bytes, made for the codec, then freed */
        void *map = NULL;   /* a spilled column, mapped for the codec, then unmapped */
        size_t maplen = 0;
        if (ik) {
          if (e->decoded_size > SIZE_MAX || pcol_buf_reserve(&tmp, (size_t)e->decoded_size))
            return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
          pcol_b_implicit_fill(b, ik - 1, 0, (size_t)e->count, tmp.data);
          tmp.len = (size_t)e->decoded_size;
        } else if (e->renumbered) {
          int rr = e->decoded_size > SIZE_MAX || pcol_buf_reserve(&tmp, (size_t)e->decoded_size)
                       ? PCOL_ENOMEM : plain_each(p, e, put_mem, &tmp);
          if (rr) {
            pcol_buf_free(&tmp);
            return pcol_b_spill_error(b, rr, err);
          }
        } else if (e->spilled) {
          const uint8_t *d;
          int vr = pcol_b_col_view(b, t, c, &d, &map, &maplen);
          if (vr) return pcol_b_spill_error(b, vr, err);
          tmp.data = (uint8_t *)d, tmp.len = (size_t)e->decoded_size; /* not owned */
        }
        /* format 1.3: the encoded column under the codec, when that is smaller */
        pcol_encoded encc = {0};
        pcol_enc_plan encp = {0};
        int blk = blocked(p, e);
        int zr = p->v13 ? encode_compressed(p, e, codec, level, &encc, &encp, err) : 0;
        if (!zr) zr = compress_entry(e, ik || e->spilled || e->renumbered ? &tmp : buf, codec, level, tf, blk, err);
        /* in blocks, an encoded frame (inflated whole) is not taken: only
         * the encoded form read in place */
        if (!zr && blk && encc.codec != PCOL_CODEC_RAW) free(encc.data), encc.data = NULL;
        if (map) pcol_b_col_unmap(map, maplen);
        else if (ik || e->renumbered) pcol_buf_free(&tmp);
        /* the encoded form wins when smaller; stored raw (read in place),
         * also when up to PCOL_RAW_ENCODED_SLACK bytes larger, if the bytes
         * before it pay for its rows */
        if (!zr && encc.data &&
            (encc.size < e->stored_size ||
             (encc.codec == PCOL_CODEC_RAW && encc.size <= e->stored_size + PCOL_RAW_ENCODED_SLACK)) &&
            (encc.codec != PCOL_CODEC_RAW || rows_paid(p, bt->rows))) {
          free(e->owned); /* the transforms' frame, larger */
          e->owned = encc.data, e->data = encc.data, encc.data = NULL;
          e->codec = encc.codec, e->transform = PCOL_TRANSFORM_ENCODED | encc.transform;
          e->stored_size = encc.size, e->decoded_size = encp.size;
          p->any_encoded = 1;
          if (encc.transform) p->any_split_lanes = 1;
        }
        free(encc.data);
        pcol_enc_plan_free(&encp);
        PCOL_RETURN_NOT_OK(zr);
        if (e->owned) e->gen = 0, e->spilled = 0, e->renumbered = 0; /* stored compressed */
      }
      if (e->codec == PCOL_CODEC_ZSTD || (e->transform & (PCOL_TRANSFORM_DELTA | PCOL_TRANSFORM_SPLIT)))
        p->v11 = 1;
      if (e->codec == PCOL_CODEC_ZSTD_BLOCKS) p->any_blocks = 1;
    }
  }
  return PCOL_OK;
}

/* Offsets: sections one after another, each aligned as section_align
 * says, with their checksums when `crcs` (else emit takes them as it writes
 * the sections).  Returns the directory's offset. */
static uint64_t place_sections(plan *p, int crcs) {
  uint64_t off = PCOL_HEADER_SIZE;
  for (size_t i = 0; i < p->n; i++) {
    plan_entry *e = &p->e[i];
    if (e->column == 0) continue; /* row-count entry: no bytes */
    off = align_to(off, section_align(p, e));
    e->offset = off;
    uLong crc = crc32(0L, Z_NULL, 0);
    if (crcs && entry_each(p, e, crc_piece, &crc)) return UINT64_MAX; /* a spilled column unreadable */
    e->crc = (uint32_t)crc;
    off += e->stored_size;
  }
  return p->compact ? off : align_to(off, PCOL_ALIGN);
}

static size_t put_varint(uint8_t *d, uint64_t v) {
  size_t k = 0;
  for (; v >= 0x80; v >>= 7) d[k++] = (uint8_t)(v | 0x80);
  d[k++] = (uint8_t)v;
  return k;
}

/* The compact directory (spec.md §3.1): varint entries, at most 6 varints
 * and 2 bytes each, without the sections' crcs (the body crc has them). */
static int write_compact_directory(plan *p, pcol_error *err) {
  p->dir = malloc(p->n ? p->n * (7 * PCOL_VARINT_MAX + 2) : 1);
  if (!p->dir) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  uint8_t *d = p->dir;
  uint64_t prev_key = 0, prev_end = PCOL_HEADER_SIZE;
  for (size_t i = 0; i < p->n; i++) {
    const plan_entry *e = &p->e[i];
    uint64_t key = (uint64_t)e->table << 16 | e->column;
    d += put_varint(d, key - prev_key);
    prev_key = key;
    if (e->column == 0) {
      d += put_varint(d, e->count);
      continue;
    }
    *d++ = e->type;
    *d++ = e->codec;
    d += put_varint(d, e->transform);
    d += put_varint(d, e->offset - prev_end);
    d += put_varint(d, e->stored_size);
    d += put_varint(d, e->count);
    if ((e->transform & PCOL_TRANSFORM_ENCODED) && e->codec != PCOL_CODEC_RAW)
      d += put_varint(d, e->decoded_size); /* its lanes' size (§3.1, 1.3) */
    prev_end = e->offset + e->stored_size;
  }
  p->dir_len = (size_t)(d - p->dir);
  return PCOL_OK;
}

/* The directory (spec.md §3): one entry per plan entry. */
static int write_directory(plan *p, pcol_error *err) {
  if (p->compact) return write_compact_directory(p, err);
  p->dir_len = p->n * PCOL_DIR_ENTRY_SIZE;
  p->dir = calloc(p->n ? p->n : 1, PCOL_DIR_ENTRY_SIZE);
  if (!p->dir) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (size_t i = 0; i < p->n; i++) {
    uint8_t *d = p->dir + i * PCOL_DIR_ENTRY_SIZE;
    plan_entry *e = &p->e[i];
    pcol_wr16(d + PCOL_DIR_TABLE, e->table);
    pcol_wr16(d + PCOL_DIR_COLUMN, e->column);
    d[PCOL_DIR_TYPE] = e->type;
    d[PCOL_DIR_CODEC] = e->codec;
    pcol_wr16(d + PCOL_DIR_FLAGS, e->transform);
    pcol_wr64(d + PCOL_DIR_OFFSET, e->offset);
    pcol_wr64(d + PCOL_DIR_STORED_SIZE, e->stored_size);
    pcol_wr64(d + PCOL_DIR_DECODED_SIZE, e->decoded_size);
    pcol_wr64(d + PCOL_DIR_COUNT, e->count);
    pcol_wr32(d + PCOL_DIR_CRC, e->crc);
  }
  return PCOL_OK;
}

/* body crc over [64, file_size): sections, zero padding, directory.  The
 * sections' own crcs are combined in (crc32_combine), not computed again:
 * one pass over the data instead of two. */
static uint32_t body_crc(const plan *p) {
  static const uint8_t zeros[PCOL_ALIGN];
  uLong crc = crc32(0L, Z_NULL, 0);
  uint64_t pos = PCOL_HEADER_SIZE;
  for (size_t i = 0; i < p->n; i++) {
    const plan_entry *e = &p->e[i];
    if (e->column == 0) continue;
    crc = crc32(crc, zeros, (uInt)(e->offset - pos));
    crc = crc32_combine(crc, e->crc, (z_off_t)e->stored_size);
    pos = e->offset + e->stored_size;
  }
  crc = crc32(crc, zeros, (uInt)(p->dir_offset - pos));
  crc = crc_update(crc, p->dir, p->dir_len);
  return (uint32_t)crc;
}

/* The 64-byte header (spec.md §2), once the body's checksum is known. */
static void write_header(plan *p, uint32_t body) {
  uint8_t *h = p->header;
  memset(h, 0, PCOL_HEADER_SIZE);
  memcpy(h + PCOL_HDR_MAGIC, PCOL_MAGIC, PCOL_MAGIC_SIZE);
  pcol_wr16(h + PCOL_HDR_MAJOR, PCOL_FORMAT_MAJOR);
  /* the lowest version whose features the file uses (spec.md §9): 1.0;
   * 1.1 with incompat bit 0 when a section uses zstd, delta or split; 1.2
   * with bit 1 when the directory is compact; 1.3 with bit 2 when a
   * column is encoded; 1.4 with bit 3 when a section is in zstd blocks;
   * 1.5 with bit 4 when a column's lanes are byte-split */
  pcol_wr16(h + PCOL_HDR_MINOR, p->any_split_lanes ? 5 : p->any_blocks ? 4 : p->any_encoded ? 3
                                 : p->compact ? 2 : p->v11 ? 1 : 0);
  pcol_wr32(h + PCOL_HDR_HEADER_SIZE, PCOL_HEADER_SIZE);
  pcol_wr64(h + PCOL_HDR_INCOMPAT, (p->v11 ? PCOL_INCOMPAT_CODECS_1_1 : 0) |
                                       (p->compact ? PCOL_INCOMPAT_COMPACT_1_2 : 0) |
                                       (p->any_encoded ? PCOL_INCOMPAT_ENCODED_1_3 : 0) |
                                       (p->any_blocks ? PCOL_INCOMPAT_BLOCKS_1_4 : 0) |
                                       (p->any_split_lanes ? PCOL_INCOMPAT_SPLIT_LANES_1_5 : 0));
  pcol_wr64(h + PCOL_HDR_COMPAT, 0); /* compat flags */
  pcol_wr64(h + PCOL_HDR_FILE_SIZE, p->file_size);
  pcol_wr64(h + PCOL_HDR_DIR_OFFSET, p->dir_offset);
  pcol_wr32(h + PCOL_HDR_DIR_COUNT, (uint32_t)p->n);
  pcol_wr32(h + PCOL_HDR_DIR_ENTRY_SIZE, p->compact ? 0 : PCOL_DIR_ENTRY_SIZE);
  pcol_wr32(h + PCOL_HDR_BODY_CRC, body);
  pcol_wr32(h + PCOL_HDR_HEADER_CRC, (uint32_t)crc32(0L, h, PCOL_HDR_HEADER_CRC));
}

int pcol_write_options_check(const pcol_write_options *opt, pcol_error *err) {
  if (opt && opt->format_version && (opt->format_version < 2 || opt->format_version > 5))
    return pcol_error_set(err, PCOL_EINVAL, "format version 1.%u cannot be written (1.2 to 1.5)",
                          (unsigned)opt->format_version);
  if (opt && opt->compress_zstd && (opt->zstd_level < 0 || opt->zstd_level > 22))
    return pcol_error_set(err, PCOL_EINVAL, "zstd level %d is not in 1..22 (or 0, auto)",
                          opt->zstd_level);
  /* lz4_level only when LZ4 is the codec: it lies where 1.0's struct had
   * padding, which a 1.0 caller may have left uninitialized (pcol.h) */
  if (opt && opt->compress_lz4 && !opt->compress_zstd && opt->lz4_level > 12)
    return pcol_error_set(err, PCOL_EINVAL, "lz4 level %u is not in 1..12 (or 0, auto)",
                          (unsigned)opt->lz4_level);
  return PCOL_OK;
}

/* The bytes column e (u32) takes in format 1.3: encoded or plain, the
 * smaller (UINT64_MAX out of memory, as pcol_enc_choose says it). */
static uint64_t encoded_cost(const plan *p, const plan_entry *e) {
  entry_src s = {p, e};
  pcol_enc_plan ep = {0};
  uint64_t c = e->count * 4;
  if (c && pcol_enc_choose(src_each, &s, PCOL_TYPE_U32, e->count, 1, 0, &ep))
    c = ep.size == UINT64_MAX ? UINT64_MAX : ep.size < c ? ep.size : c;
  pcol_enc_plan_free(&ep);
  return c;
}

/* How many of the builder's nodes (parents in par, ns nodes) hang off the
 * path from the root to the node before them, counted up to `enough`
 * (UINT64_MAX out of memory).  The path is kept on a stack of ids, which
 * increase from the root; a node off it brings its own ancestors, climbed
 * to the part of the path they share (a walk from the root, as a reader's
 * path walk makes it: query/top.c walk_path). */
static uint64_t off_path(const uint8_t *par, uint64_t ns, uint64_t enough) {
  uint32_t *stk = malloc((ns + 1) * sizeof *stk), *chain = malloc((ns + 1) * sizeof *chain);
  uint64_t off = 0, steps = 0;
  size_t d = 1;
  if (!stk || !chain) {
    free(stk);
    free(chain);
    return UINT64_MAX;
  }
  stk[0] = 0;
  for (uint64_t n = 1; n <= ns && off < enough; n++) {
    uint32_t q = pcol_rd32(par + (n - 1) * 4);
    while (stk[d - 1] > q) d--;
    if (stk[d - 1] != q) { /* q is not on the path: climb to where it joins it */
      off++;
      size_t k = 0;
      for (uint32_t x = q; x > stk[d - 1]; x = pcol_rd32(par + (x - 1) * 4)) {
        if (++steps > 8 * ns) { /* (deep, interleaved branches: count it as enough) */
          off = enough;
          break;
        }
        chain[k++] = x;
        while (stk[d - 1] > pcol_rd32(par + (x - 1) * 4)) d--; /* the path below x's parent */
      }
      while (k) stk[d++] = chain[--k];
    }
    stk[d++] = (uint32_t)n;
  }
  free(stk);
  free(chain);
  return off;
}

/* The stack trie written in preorder, children in id order (the order a
 * builder first saw them): a node's subtree is the rows after it, so a
 * reader's walk from the root reads the columns front to back and a parent
 * is mostly a few rows back.  A builder numbers nodes as samples bring
 * them, and a sample's new frames hang anywhere on the tree: on
 * go-heap-truncated-stacks-3 (147k nodes) 40k nodes' parents were off the
 * previous node's path, its parent_id stayed plain (590 KB, 181 KB encoded
 * in preorder): the file 1.50 -> 1.17 MB, its zstd file 449 -> 410 KB.  The builder
 * keeps its ids (it may take more samples after a write); the plan holds
 * the stacks' columns renumbered and renumbers the samples' stack ids as
 * they are written.  Nothing when the trie is in preorder already. */
static int stack_order(const pcol_builder *b, plan *p, pcol_error *err) {
  const pcol_btable *t = &b->t[PCOL_T_STACKS];
  uint64_t ns = t->rows;
  const pcol_buf *pc = &t->cols[PCOL_C_STACK_PARENT - 1], *lc = &t->cols[PCOL_C_STACK_LOCATION - 1];
  if (ns < 2 || ns >= UINT32_MAX || pc->len != ns * 4 || lc->len != ns * 4) return PCOL_OK;
  /* (tests) stacks-as-built: the builder's order; stacks-preorder: preorder
   * whatever its size */
  const char *dbg = getenv("PCOL_DEBUG");
  int force = dbg && strstr(dbg, "stacks-preorder");
  if (dbg && strstr(dbg, "stacks-as-built")) return PCOL_OK;
  const uint8_t *par = pc->data, *loc = lc->data;
  /* measured only where it may pay: the encoders' passes over the three
   * columns, both ways, were 44% of `pcol top go-cpu-large.pb.gz` (whose
   * trie has 1.6% of its nodes off the path, and is kept).  An image in
   * memory (a view of another format's input) is ordered as the file pack
   * writes, so that its ids are the file's (t_format_versions). */
  if (!force) {
    uint64_t off = off_path(par, ns, ns / 32);
    if (off == UINT64_MAX) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    if (off < ns / 32) return PCOL_OK;
  }
  /* nx[n]: n's descendants (parents come first: the builder's rule), then
   * the next free place below n, as query/top.c's trie_preorder */
  uint32_t *nx = calloc(ns + 1, sizeof *nx), *st_new = malloc((ns + 1) * sizeof *st_new);
  if (!nx || !st_new) {
    free(nx);
    free(st_new);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  int ok = 1, same = 1;
  for (uint64_t n = ns; n >= 1 && ok; n--) {
    uint32_t q = pcol_rd32(par + (n - 1) * 4);
    if (q >= n) ok = 0; /* (never from a builder: then written as it is) */
    else nx[q] += nx[n] + 1;
  }
  nx[0] = 1;
  st_new[0] = 0;
  for (uint64_t n = 1; n <= ns && ok; n++) {
    uint32_t q = pcol_rd32(par + (n - 1) * 4), pre = nx[q];
    nx[q] = pre + nx[n] + 1;
    nx[n] = pre + 1;
    st_new[n] = pre;
    same &= pre == n;
  }
  free(nx);
  if (!ok || same) {
    free(st_new);
    return PCOL_OK;
  }
  if (pcol_buf_reserve(&p->st_cols[0], (size_t)ns * 4) || pcol_buf_reserve(&p->st_cols[1], (size_t)ns * 4)) {
    free(st_new);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  uint8_t *np = p->st_cols[0].data, *nl = p->st_cols[1].data;
  for (uint64_t n = 1; n <= ns; n++) {
    size_t at = (size_t)(st_new[n] - 1) * 4;
    pcol_wr32(np + at, st_new[pcol_rd32(par + (n - 1) * 4)]);
    memcpy(nl + at, loc + (n - 1) * 4, 4);
  }
  p->st_cols[0].len = p->st_cols[1].len = (size_t)ns * 4;
  p->st_new = st_new;
  if (force) return PCOL_OK;
  /* kept only where the three columns are smaller encoded (format 1.3's
   * forms, the same measure for every codec): the samples' stack ids,
   * mostly rising in the builder's order (a sample's leaf is often a node
   * it made), are scattered in preorder.  go-cpu-large, nearly in preorder
   * already (7k of 426k nodes off the path), would grow by 41 KB of stack
   * ids for 0 KB of trie; go-heap-truncated-stacks-3 shrinks by 330 KB. */
  const pcol_btable *st = &b->t[PCOL_T_SAMPLES];
  const pcol_buf *sb = &st->cols[PCOL_C_S_STACK - 1];
  int spilled = pcol_b_col_spilled(b, PCOL_T_SAMPLES, PCOL_C_S_STACK - 1);
  plan_entry col[3] = {{.table = PCOL_T_STACKS, .column = PCOL_C_STACK_PARENT, .data = pc->data},
                       {.table = PCOL_T_STACKS, .column = PCOL_C_STACK_LOCATION, .data = lc->data},
                       {.table = PCOL_T_SAMPLES, .column = PCOL_C_S_STACK, .data = sb->data}};
  col[0].count = col[1].count = ns;
  col[2].count = sb->len || spilled ? st->rows : 0; /* 0: all default, not stored */
  col[2].spilled = (uint8_t)spilled;
  uint64_t was = 0, now = 0;
  for (int k = 0; k < 3 && was != UINT64_MAX && now != UINT64_MAX; k++) {
    col[k].type = PCOL_TYPE_U32;
    col[k].stored_size = col[k].count * 4;
    uint64_t a = encoded_cost(p, &col[k]);
    if (k < 2) col[k].data = p->st_cols[k].data;
    else col[k].renumbered = 1;
    uint64_t z = encoded_cost(p, &col[k]);
    was = a == UINT64_MAX ? a : was + a;
    now = z == UINT64_MAX ? z : now + z;
  }
  if (was == UINT64_MAX || now == UINT64_MAX) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  if (now >= was) { /* the builder's order */
    free(p->st_new);
    p->st_new = NULL;
    pcol_buf_free(&p->st_cols[0]);
    pcol_buf_free(&p->st_cols[1]);
  }
  return PCOL_OK;
}

/* The directory and the header, once the sections' crcs are known. */
static int finish_plan(plan *p, pcol_error *err) {
  PCOL_RETURN_NOT_OK(write_directory(p, err));
  p->file_size = p->dir_offset + p->dir_len;
  write_header(p, body_crc(p));
  return PCOL_OK;
}

/* plain_max: 0, or the most bytes the file may have with every column
 * plain (1 = PLAN_TOO_BIG past it, the plan half made: plan_free it).
 * crcs: the sections' crcs now, and the plan finished; else emit takes
 * them as it writes, and finishes the plan. */
enum { PLAN_TOO_BIG = 1 };
static int make_plan(pcol_builder *b, const pcol_write_options *opt, uint64_t plain_max, int crcs,
                     plan *p, pcol_error *err) {
  PCOL_RETURN_NOT_OK(check_text_line_refs(b, err));
  int codec = !opt ? PCOL_CODEC_RAW
              : opt->compress_zstd ? PCOL_CODEC_ZSTD
              : opt->compress_lz4 ? PCOL_CODEC_LZ4 : PCOL_CODEC_RAW;
  int level = opt ? opt->zstd_level : 0; /* 0: auto, by section size */
  PCOL_RETURN_NOT_OK(pcol_write_options_check(opt, err));
  /* LZ4's level: auto is LZ4HC for 1.3, the fast coder for 1.2's files */
  if (codec == PCOL_CODEC_LZ4)
    level = opt->lz4_level ? opt->lz4_level
            : opt->format_version == 2 ? 1 : PCOL_LZ4_DEFAULT_LEVEL;
  /* format 1.3: the per-source summary (summary.c); 1.2: none */
  if (pcol_bsum_fill(b, opt && opt->format_version ? opt->format_version : PCOL_WRITE_FORMAT_DEFAULT))
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  p->b = b;
  /* format 1.3 (the default) encodes the columns, raw or under the codec,
   * in a compact directory; 1.2 writes what earlier writers wrote (LZ4:
   * format 1.0, plain columns, 64-byte entries) */
  p->v13 = !(opt && opt->format_version == 2);
  /* format 1.4 (and 1.5, the default): zstd blocks for the large columns of samples */
  p->v14 = codec == PCOL_CODEC_ZSTD && !(opt && opt->format_version && opt->format_version < 4);
  /* format 1.5 (the default): an encoded column under the codec may have
   * its lanes byte-split, when that compresses better */
  p->v15 = p->v13 && codec != PCOL_CODEC_RAW && !(opt && opt->format_version && opt->format_version < 5);
  p->compact = codec == PCOL_CODEC_ZSTD || p->v13;
  /* the values' lanes: one a value type, a hint the encoder checks
   * against one lane (note_values_k finds k exactly when every sample
   * has k values; a merge of a source without values and one with k
   * has offsets 0 ... 0, k, 2k, ...) */
  uint64_t nvt = b->t[PCOL_T_VALUE_TYPES].rows;
  p->values_k = nvt > 1 && nvt <= PCOL_ENC_MAX_LANES && b->t[PCOL_T_VALUES].rows % nvt == 0 ? (uint32_t)nvt : 1;
  p->plain = plain_max != 0;
  PCOL_RETURN_NOT_OK(stack_order(b, p, err));
  PCOL_RETURN_NOT_OK(plan_sections(b, codec, level, p, err));
  p->dir_offset = place_sections(p, crcs);
  if (plain_max && p->dir_offset != UINT64_MAX && p->dir_offset > plain_max) return PLAN_TOO_BIG;
  if (p->dir_offset == UINT64_MAX)
    return pcol_b_spill_error(b, PCOL_EIO, err);
  if (p->n > UINT32_MAX) return pcol_error_set(err, PCOL_ETOOBIG, "too many sections");
  return crcs ? finish_plan(p, err) : PCOL_OK;
}

typedef int (*sink_fn)(void *ctx, const void *p, size_t n);
static int put_file(void *ctx, const void *p, size_t n) {
  return n && fwrite(p, 1, n, (FILE *)ctx) != n;
}
static int put_buf(void *ctx, const void *p, size_t n) {
  return pcol_buf_append((pcol_buf *)ctx, p, n) != PCOL_OK;
}

/* put, with the crc of what it was given */
typedef struct crc_sink {
  sink_fn put;
  void *ctx;
  uLong crc;
  int failed; /* put did (else the section could not be read) */
} crc_sink;
static int crc_put(void *ctx, const void *d, size_t n) {
  crc_sink *s = ctx;
  s->crc = crc_update(s->crc, d, n);
  return s->failed = s->put(s->ctx, d, n);
}

/* Writes the file.  A plan made without its crcs (make_plan) takes them
 * here, from the bytes written (an encoded or spilled column read once,
 * not twice: the crc pass was 4% of `pcol pack` of 1M pprof samples), and
 * is finished here: its header, zeros (but the magic, write_file's) when
 * written, then goes where the caller writes it over them. */
static int emit(plan *p, int crcs, sink_fn put, void *ctx, const char *path, pcol_error *err) {
  static const uint8_t zeros[PCOL_ALIGN];
  int werr = PCOL_EIO;
  if (put(ctx, p->header, PCOL_HEADER_SIZE)) goto write_failed;
  uint64_t pos = PCOL_HEADER_SIZE;
  for (size_t i = 0; i < p->n; i++) {
    plan_entry *e = &p->e[i];
    if (e->column == 0) continue;
    if (put(ctx, zeros, (size_t)(e->offset - pos))) goto write_failed;
    if (crcs) {
      if (entry_each(p, e, put, ctx)) goto write_failed;
    } else {
      crc_sink cs = {put, ctx, crc32(0L, Z_NULL, 0), 0};
      if (entry_each(p, e, crc_put, &cs)) {
        if (cs.failed) goto write_failed;
        return pcol_b_spill_error(p->b, PCOL_EIO, err);
      }
      e->crc = (uint32_t)cs.crc;
    }
    pos = e->offset + e->stored_size;
  }
  if (!crcs) PCOL_RETURN_NOT_OK(finish_plan(p, err));
  if (put(ctx, zeros, (size_t)(p->dir_offset - pos))) goto write_failed;
  if (put(ctx, p->dir, p->dir_len)) goto write_failed;
  return PCOL_OK;
write_failed:
  if (put == put_buf) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  werr = errno;
  return pcol_error_set(err, PCOL_EIO, "%s: write failed: %s", path, strerror(werr ? werr : EIO));
}

/* pcol_write_options.validate: the written bytes (a file, or memory) pass
 * pcol_validate_full, or PCOL_ECORRUPT naming what the writer got wrong. */
static int validate_written(const char *tmp_path, const void *mem, size_t len, const char *path,
                            pcol_error *err) {
  pcol_file *f = NULL;
  pcol_error e = {0};
  int rc = tmp_path ? pcol_open(tmp_path, NULL, &f, &e) : pcol_open_buffer(mem, len, NULL, &f, &e);
  if (!rc) rc = pcol_validate_full(f, &e);
  if (f) pcol_close(f);
  if (rc == PCOL_ENOMEM || rc == PCOL_EIO) return pcol_error_set(err, rc, "%s: %s", path, e.message);
  if (rc)
    return pcol_error_set(err, PCOL_ECORRUPT, "%s: not written: the file would not validate "
                          "(a writer's error; please report it): %s", path, e.message);
  return PCOL_OK;
}

static int write_file(pcol_builder *b, const char *path, char *(*name)(void *, unsigned),
                      void *ctx, unsigned *used, const pcol_write_options *opt, pcol_error *err);

/* writer.h */
int pcol_out_temp_marked(int fd) {
  char m[PCOL_MAGIC_SIZE];
  return pread(fd, m, sizeof m, PCOL_HDR_MAGIC) == (ssize_t)sizeof m && !memcmp(m, PCOL_MAGIC, sizeof m);
}

int pcol_builder_write(pcol_builder *b, const char *path,
                       const pcol_write_options *opt, pcol_error *err) {
  return write_file(b, path, NULL, NULL, NULL, opt, err);
}

int pcol_builder_write_new(pcol_builder *b, const char *path, char *(*name)(void *ctx, unsigned k),
                           void *ctx, unsigned *used, const pcol_write_options *opt,
                           pcol_error *err) {
  return write_file(b, path, name, ctx, used, opt, err);
}

/* pcol_builder_write; with name, published as pcol_out_commit_new does.
 * An output written directly (standard output, or an existing FIFO, device
 * or socket, which pcol_out_open writes in place: no temporary file) cannot
 * go back: its crcs are taken first and, to be checked, it is made in
 * memory; a temporary file takes the header last, over the magic and
 * zeros it held from the start. */
static int write_file(pcol_builder *b, const char *path, char *(*name)(void *, unsigned),
                      void *ctx, unsigned *used, const pcol_write_options *opt, pcol_error *err) {
  int check = opt && opt->validate;
  pcol_out o;
  int rc = pcol_out_open(&o, path, err);
  if (rc) return rc;
  int direct = o.tmp_path == NULL;
  if (check && direct) { /* cannot be read back: check it in memory first */
    void *mem = NULL;
    size_t len = 0;
    rc = pcol_builder_write_mem(b, opt, &mem, &len, err);
    if (!rc) rc = validate_written(NULL, mem, len, path, err);
    if (!rc && len && fwrite(mem, 1, len, o.fp) != len)
      rc = pcol_error_set(err, PCOL_EIO, "%s: write failed: %s",
                          strcmp(path, "-") ? path : "standard output", strerror(errno));
    free(mem);
    if (rc) {
      pcol_out_abort(&o);
      return rc;
    }
    return name ? pcol_out_commit_new(&o, name, ctx, used, err) : pcol_out_commit(&o, err);
  }
  plan p = {0};
  /* a temporary file begins with the magic at once, before make_plan
   * (which can take long), and keeps it until the real header replaces
   * its zeros: what a killed writer leaves is told from a user's file by
   * it (pcol_out_temp_marked) */
  if (!direct) {
    memcpy(p.header + PCOL_HDR_MAGIC, PCOL_MAGIC, PCOL_MAGIC_SIZE);
    if (put_file(o.fp, p.header, PCOL_HEADER_SIZE) || fflush(o.fp) || fseeko(o.fp, 0, SEEK_SET))
      rc = pcol_error_set(err, PCOL_EIO, "%s: write failed: %s", path, strerror(errno ? errno : EIO));
  }
  if (!rc) rc = make_plan(b, opt, 0, direct, &p, err);
  if (!rc) rc = emit(&p, direct, put_file, o.fp, path, err);
  if (!rc && !direct && (fseeko(o.fp, 0, SEEK_SET) || put_file(o.fp, p.header, PCOL_HEADER_SIZE)))
    rc = pcol_error_set(err, PCOL_EIO, "%s: write failed: %s", path, strerror(errno ? errno : EIO));
  plan_free(&p);
  if (rc) {
    pcol_out_abort(&o);
    return rc;
  }
  if (check) {
    rc = fflush(o.fp) ? pcol_error_set(err, PCOL_EIO, "%s: write failed: %s", path, strerror(errno))
                      : validate_written(o.tmp_path, NULL, 0, path, err);
    if (rc) {
      pcol_out_abort(&o);
      return rc;
    }
  }
  return name ? pcol_out_commit_new(&o, name, ctx, used, err) : pcol_out_commit(&o, err);
}

/* b written to memory with plan_max as make_plan takes it. */
static int write_mem(pcol_builder *b, const pcol_write_options *opt, uint64_t plain_max,
                     void **out, size_t *len, pcol_error *err) {
  plan p = {0};
  pcol_buf buf = {0};
  int rc = make_plan(b, opt, plain_max, 0, &p, err);
  if (!rc) rc = emit(&p, 0, put_buf, &buf, NULL, err);
  if (!rc) memcpy(buf.data, p.header, PCOL_HEADER_SIZE); /* (emit wrote zeros there) */
  plan_free(&p);
  if (rc) {
    pcol_buf_free(&buf);
    return rc;
  }
  *out = buf.data;
  *len = buf.len;
  return PCOL_OK;
}

int pcol_builder_write_mem(pcol_builder *b, const pcol_write_options *opt,
                           void **out, size_t *len, pcol_error *err) {
  return write_mem(b, opt, 0, out, len, err);
}

int pcol_builder_write_image(pcol_builder *b, void **out, size_t *len, pcol_error *err) {
  /* the columns in memory (a spilled builder is past the bound): a file
   * plainly larger is encoded without a plain plan first (its scans of
   * every column for defaults would be made twice) */
  uint64_t held = 0;
  for (int t = 1; t < PCOL_T_COUNT_ && !b->spilling; t++)
    for (size_t c = 0; c < PCOL_MAX_COLUMNS; c++) held += b->t[t].cols[c].len;
  const char *dbg = getenv("PCOL_DEBUG"); /* image-encoded: as before (tests, bench) */
  int rc = b->spilling || held > PCOL_IMAGE_PLAIN_BYTES || (dbg && strstr(dbg, "image-encoded"))
               ? PLAN_TOO_BIG
               : write_mem(b, NULL, PCOL_IMAGE_PLAIN_BYTES, out, len, err);
  return rc == PLAN_TOO_BIG ? write_mem(b, NULL, 0, out, len, err) : rc;
}
