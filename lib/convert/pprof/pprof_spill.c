/* pprof_spill.c — a pipe's Samples kept for the pprof importer's pass 2.
 *
 * A pprof message may put its tables after its samples (Go does), so the
 * importer reads it twice; a stream that cannot seek back was copied as
 * pass 1 read it, compressed as it came (the .pb.gz's size).  For profiles
 * of one Sample a tick that copy was larger than the pcol file made of it
 * (10M samples: 82 MB against 50 MB).  Here pass 1 keeps only what pass 2
 * needs of each Sample, as records (varints), through zstd:
 *
 *   record  := len body                       (len: the body's bytes)
 *   body    := head [n id*n] nval zz*nval nlab (zz zz zz zz)*nlab
 *   head    := 0 a stack of n location ids, not numbered
 *            | 1 a stack of n location ids, given the next number (from 0)
 *            | k + 2 the stack numbered k, met before
 *   zz      := a zigzag varint (values; a label's key, str, num, num_unit)
 *
 * A stack met before costs its number: a profile repeats a few thousand
 * stacks, so a record is a few bytes before zstd and about one after.  The
 * numbering stops once the stacks remembered take pcol_pprof_spill_memo_bytes
 * (a hostile message of millions of distinct stacks is kept whole, in
 * bounded memory).  The copy is the importer's own, written and read in
 * one call, but read back with every length checked all the same. */
#include "pprof_spill.h"
#include "error.h"   /* pcol_oom */
#include "pb_wire.h" /* pcol_pb_varint, pcol_pb_put_varint */
#include <string.h>
#include <zstd.h>

size_t pcol_pprof_spill_memo_bytes = (size_t)32 << 20;

#define SPILL_LEVEL 1                   /* written at the pace the message is read */
#define SPILL_BATCH ((size_t)128 << 10) /* records compressed a batch at a time */
#define SPILL_GIVE_BACK ((size_t)8 << 20)
/* the copy stays in memory up to this, then goes to a temporary file (the
 * builder's ~100 MB budget is for its own columns) */
#define SPILL_IN_MEMORY ((size_t)4 << 20)

void pprof_spill_init(pprof_spill *s, const char *name) {
  memset(s, 0, sizeof *s);
  s->name = name;
  s->copy.spill_at = SPILL_IN_MEMORY;
  s->copy.discard = 1; /* read once: its disk given back as it is read */
}

/* What only writing needs: the stacks remembered, the buffers, zstd's
 * compressor (the numbering then restarts, for the reader). */
static void writer_free(pprof_spill *s) {
  pcol_intern_free(&s->memo);
  pcol_buf_free(&s->rec);
  pcol_buf_free(&s->out);
  ZSTD_freeCCtx(s->cc);
  s->cc = NULL;
  s->n_stacks = 0;
}

void pprof_spill_free(pprof_spill *s) {
  writer_free(s);
  ZSTD_freeDCtx(s->dc);
  pcol_input_free(&s->copy);
  free(s->win);
  memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------ writing */

static int spill_oom(const pprof_spill *s, pcol_error *err) {
  return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory (keeping the samples of a pipe)",
                        s->name);
}

/* Compresses rec into the copy (end: and ends the frame). */
static int flush(pprof_spill *s, ZSTD_EndDirective end, pcol_error *err) {
  if (!s->cc && !(s->cc = ZSTD_createCCtx())) return spill_oom(s, err);
  if (!s->out.cap) {
    if (ZSTD_isError(ZSTD_CCtx_setParameter(s->cc, ZSTD_c_compressionLevel, SPILL_LEVEL)) ||
        pcol_buf_reserve(&s->out, ZSTD_CStreamOutSize()))
      return spill_oom(s, err);
  }
  ZSTD_inBuffer in = {s->rec.data, s->rec.len, 0};
  for (;;) {
    ZSTD_outBuffer o = {s->out.data, s->out.cap, 0};
    size_t left = ZSTD_compressStream2(s->cc, &o, &in, end);
    if (ZSTD_isError(left))
      return pcol_error_set(err, PCOL_ENOMEM, "%s: keeping the samples of a pipe: zstd: %s",
                            s->name, ZSTD_getErrorName(left));
    if (o.pos) PCOL_RETURN_NOT_OK(pcol_input_append(&s->copy, o.dst, o.pos, s->name, err));
    if (end == ZSTD_e_end ? left == 0 : in.pos == in.size) break;
  }
  s->rec.len = 0;
  return PCOL_OK;
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

/* The record's head for stack loc[0..n): its number if met before, else
 * 1 when it gets the next one (room left), else 0. */
static int stack_head(pprof_spill *s, const uint64_t *loc, size_t n, uint64_t *head) {
  pcol_intern *t = &s->memo;
  uint64_t h;
  uint32_t id = pcol_intern_find(t, loc, n * sizeof *loc, &h);
  if (id) {
    *head = (uint64_t)id + 1; /* number id - 1, plus 2 */
    return PCOL_OK;
  }
  size_t used = t->bytes.len + t->off.len + t->h.cap * (sizeof(uint32_t) + sizeof(uint64_t));
  *head = 0;
  if (t->n == UINT32_MAX - 2 || n * 8 > pcol_pprof_spill_memo_bytes ||
      used + n * 8 + 32 > pcol_pprof_spill_memo_bytes)
    return PCOL_OK;
  if (pcol_intern_add(t, loc, n * sizeof *loc, h, &id)) return PCOL_ENOMEM;
  *head = 1;
  return PCOL_OK;
}

int pprof_spill_add(pprof_spill *s, const uint64_t *loc, size_t nloc, const int64_t *val,
                    size_t nval, const int64_t *lab, size_t nlab, pcol_error *err) {
  uint64_t head;
  if (stack_head(s, loc, nloc, &head)) return spill_oom(s, err);
  size_t nid = head < 2 ? nloc : 0;
  /* at most 10 bytes a varint */
  size_t most = 10 * (5 + nid + nval + 4 * nlab);
  if (most / 10 < nid || pcol_buf_reserve(&s->rec, most)) return spill_oom(s, err);
  uint8_t body_at = 10; /* the body is written after room for its length, then moved */
  uint8_t *r = s->rec.data + s->rec.len, *p = r + body_at;
  p += pcol_pb_put_varint(p, head);
  if (head < 2) {
    p += pcol_pb_put_varint(p, nloc);
    for (size_t i = 0; i < nloc; i++) p += pcol_pb_put_varint(p, loc[i]);
  }
  p += pcol_pb_put_varint(p, nval);
  for (size_t i = 0; i < nval; i++) p += pcol_pb_put_varint(p, zigzag(val[i]));
  p += pcol_pb_put_varint(p, nlab);
  for (size_t i = 0; i < 4 * nlab; i++) p += pcol_pb_put_varint(p, zigzag(lab[i]));
  size_t body = (size_t)(p - r) - body_at, l = pcol_pb_put_varint(r, body);
  memmove(r + l, r + body_at, body);
  s->rec.len += l + body;
  return s->rec.len >= SPILL_BATCH ? flush(s, ZSTD_e_continue, err) : PCOL_OK;
}

int pprof_spill_seal(pprof_spill *s, pcol_error *err) {
  PCOL_RETURN_NOT_OK(flush(s, ZSTD_e_end, err));
  writer_free(s); /* the numbering is the reader's now */
  return pcol_input_seal(&s->copy, s->name, err);
}

/* ------------------------------------------------------------ reading */

static int bad_copy(const pprof_spill *s, const char *why, pcol_error *err) {
  return pcol_error_set(err, PCOL_EIO, "%s: the copy kept of the samples does not read back (%s)",
                        s->name, why);
}

/* More inflated bytes after win[lo..hi), keeping them (the window grows
 * when a record does not fit).  PCOL_OK (ended set at the copy's end), or
 * the failure. */
static int more(pprof_spill *s, pcol_error *err) {
  if (s->lo) {
    memmove(s->win, s->win + s->lo, s->hi - s->lo);
    s->hi -= s->lo;
    s->lo = 0;
  }
  if (s->hi == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : ZSTD_DStreamOutSize();
    uint8_t *w = cap > s->cap ? realloc(s->win, cap) : NULL;
    if (!w) return spill_oom(s, err);
    s->win = w;
    s->cap = cap;
  }
  if (!s->dc && !(s->dc = ZSTD_createDCtx())) return spill_oom(s, err);
  ZSTD_inBuffer in = {s->copy.data, s->copy.len, s->pos};
  ZSTD_outBuffer o = {s->win, s->cap, s->hi};
  while (o.pos == s->hi) {
    if (in.pos == in.size) {
      s->ended = 1;
      break;
    }
    size_t r = ZSTD_decompressStream(s->dc, &o, &in);
    if (ZSTD_isError(r)) return bad_copy(s, ZSTD_getErrorName(r), err);
  }
  s->hi = o.pos;
  s->pos = in.pos;
  if (!s->hold && s->pos - s->done >= SPILL_GIVE_BACK) { /* compressed pages read: given back */
    pcol_input_discard(&s->copy, s->done, s->pos);
    s->done = s->pos;
  }
  return PCOL_OK;
}

static int get(const uint8_t *p, size_t e, size_t *i, uint64_t *v) { return pcol_pb_varint(p, e, i, v); }

/* n zigzag varints (per 1 value) from p[*i..e) into out as int64. */
static int get_zz(const uint8_t *p, size_t e, size_t *i, size_t n, pcol_buf *out) {
  out->len = 0;
  if (n > (e - *i) || pcol_buf_reserve(out, n * sizeof(int64_t) + 1)) return -1;
  int64_t *o = (int64_t *)(void *)out->data;
  for (size_t k = 0; k < n; k++) {
    uint64_t v;
    if (get(p, e, i, &v)) return -1;
    o[k] = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
  }
  out->len = n * sizeof(int64_t);
  return 0;
}

void pprof_spill_rewind(pprof_spill *s) {
  s->lo = s->hi = s->pos = s->done = 0;
  s->ended = 0;
  s->n_stacks = 0;
  if (s->dc) ZSTD_DCtx_reset(s->dc, ZSTD_reset_session_only);
}

int pprof_spill_next(pprof_spill *s, pcol_buf *loc, pcol_buf *val, pcol_buf *lab,
                     uint32_t *stack, int *keep, pcol_error *err) {
  uint64_t len = 0;
  size_t i;
  for (;;) { /* the record's length, and the record, whole in the window */
    i = s->lo;
    int r = s->lo < s->hi ? get(s->win, s->hi, &i, &len) : -1;
    if (!r && len <= s->hi - i) break;
    if (s->ended) {
      if (s->lo == s->hi) return 1;
      return bad_copy(s, "a record cut short", err);
    }
    if (!r && len > SIZE_MAX / 4) return bad_copy(s, "a record's length", err);
    PCOL_RETURN_NOT_OK(more(s, err));
  }
  const uint8_t *p = s->win;
  size_t e = i + (size_t)len;
  uint64_t head, n;
  loc->len = 0;
  if (get(p, e, &i, &head)) return bad_copy(s, "a record's head", err);
  *keep = head == 1;
  *stack = PPROF_STACK_NEW;
  if (head >= 2) {
    if (head - 2 >= s->n_stacks) return bad_copy(s, "a stack number", err);
    *stack = (uint32_t)(head - 2);
  } else {
    if (get(p, e, &i, &n) || n > e - i || pcol_buf_reserve(loc, n * sizeof(uint64_t) + 1))
      return bad_copy(s, "a stack", err);
    uint64_t *o = (uint64_t *)(void *)loc->data;
    for (uint64_t k = 0; k < n; k++)
      if (get(p, e, &i, &o[k])) return bad_copy(s, "a location id", err);
    loc->len = (size_t)n * sizeof(uint64_t);
    if (head == 1) s->n_stacks++;
  }
  if (get(p, e, &i, &n) || get_zz(p, e, &i, (size_t)n, val))
    return bad_copy(s, "the values", err);
  if (get(p, e, &i, &n) || n > (e - i) / 4 || get_zz(p, e, &i, 4 * (size_t)n, lab) || i != e)
    return bad_copy(s, "the labels", err);
  s->lo = e;
  return PCOL_OK;
}
