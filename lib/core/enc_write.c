/* enc_write.c — choosing and writing the encoded form of a column (format
 * 1.3, spec.md §4.1).
 *
 * A column is read from its source a few times (it may be a spilled
 * temporary file of 100M samples, so nothing of its size is held): once for
 * each lane's ends, which give a candidate step (the slope of a sorted
 * column); once for the range of value - row x step under step 0 and that
 * slope; once to count, for every width, the values outside a window
 * anchored at either end of that range (they become exceptions).  The
 * cheapest (width, step, window) wins, and the encoding is kept only when
 * it is smaller than the plain column.  Writing streams the codes a lane at
 * a time, then the exceptions.
 */
#include "pcol.h"
#include "layout.h"   /* PCOL_ENC_LANE, PCOL_ENC_HEADER, PCOL_ENC_LANE_BASE, ... */
#include "bytes.h"    /* pcol_wr64, pcol_wr32, pcol_rd32, ... */
#include "schema.h"   /* pcol_type_width */
#include "enc.h"      /* pcol_enc_plan, pcol_enc_lane, pcol_enc_source, ... */
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;

/* A column's value as an exact integer of its type. */
static inline i128 value_of(const uint8_t *p, pcol_type t) {
  if (t == PCOL_TYPE_U32) return (i128)pcol_rd32(p);
  uint64_t x = pcol_rd64(p);
  return t == PCOL_TYPE_I64 ? (i128)(int64_t)x : (i128)x;
}

static const unsigned widths[] = {1, 2, 4, 8};
enum { NW = 4, NSTEP = 2, NANCHOR = 2 };

/* What the passes learn about one lane. */
typedef struct lane_stats {
  uint64_t rows;
  i128 first, last;
  /* i64: the first and last values that are not NA, and their rows (a
   * merged time column whose last source has no times: its slope is that
   * of the timed rows, the NA rows become exceptions) */
  i128 first_v, last_v;
  uint64_t first_r, last_r;
  int any_v;
  i128 step[NSTEP];
  int nstep;
  i128 lo[NSTEP], hi[NSTEP];
  uint64_t out[NSTEP][NW][NANCHOR]; /* values outside each window */
  i128 wlo[NSTEP][NW][NANCHOR], whi[NSTEP][NW][NANCHOR]; /* the windows (phase 2) */
  int nmiss[NSTEP]; /* the widths whose windows can miss a value: the first nmiss */
} lane_stats;

typedef struct pass {
  pcol_type type;
  unsigned w;  /* element width */
  uint32_t k;  /* lanes */
  uint32_t j;  /* the next element's lane, */
  uint64_t r;  /* and row in it */
  int phase;   /* 0 ends, 1 ranges, 2 windows */
  lane_stats *ls;
} pass;

static i128 window_lo(const lane_stats *s, int st, int wi, int anchor) {
  i128 span = ((i128)1 << (8 * widths[wi])) - 2; /* codes 0 .. all ones - 1 */
  return anchor ? s->hi[st] - span : s->lo[st];
}

/* Phase 2's windows of every lane, from phase 1's ranges.  A width whose
 * span holds the whole range [lo, hi] misses no value with either anchor;
 * the widths grow, so those that can miss one are the first nmiss. */
static void set_windows(lane_stats *ls, uint32_t k) {
  for (uint32_t j = 0; j < k; j++)
    for (int st = 0; st < ls[j].nstep; st++) {
      ls[j].nmiss[st] = 0;
      for (int wi = 0; wi < NW; wi++) {
        i128 span = ((i128)1 << (8 * widths[wi])) - 2;
        if (ls[j].hi[st] - ls[j].lo[st] > span) ls[j].nmiss[st] = wi + 1;
        for (int a = 0; a < NANCHOR; a++) {
          ls[j].wlo[st][wi][a] = window_lo(&ls[j], st, wi, a);
          ls[j].whi[st][wi][a] = ls[j].wlo[st][wi][a] + span;
        }
      }
    }
}

/* Phases 1 and 2 over one lane's elements of a piece: m of them, stride
 * bytes apart, the first in row `row`.  A step at a time, with what it
 * updates in locals (through *s, the stores of every element were most of
 * pack's time in the encoder, 13% of `pcol pack` of 1M pprof samples). */
static void lane_scan(lane_stats *s, int phase, pcol_type type, const uint8_t *b, size_t m,
                      size_t stride, uint64_t row) {
  for (int st = 0; st < s->nstep; st++) {
    const i128 step = s->step[st];
    i128 at = (i128)row * step; /* row x step, kept as the rows go */
    if (phase == 1) {
      i128 lo = s->lo[st], hi = s->hi[st];
      for (size_t i = 0; i < m; i++, at += step) {
        i128 x = value_of(b + i * stride, type) - at;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      s->lo[st] = lo, s->hi[st] = hi;
      continue;
    }
    /* x is in [lo, hi] (phase 1): a window anchored at lo misses it only
     * above, one anchored at hi only below, and only the first nmiss
     * widths can miss it (the test x < wlo || x > whi of every width and
     * anchor was 23% of the instructions of the union of 200 small
     * files, `top --by line DIR`; with the counting pass below, 17%) */
    const int nmiss = s->nmiss[st];
    i128 whi[NW], wlo[NW];
    uint64_t above[NW] = {0}, below[NW] = {0};
    for (int wi = 0; wi < nmiss; wi++) whi[wi] = s->whi[st][wi][0], wlo[wi] = s->wlo[st][wi][1];
    for (size_t i = 0; nmiss && i < m; i++, at += step) {
      i128 x = value_of(b + i * stride, type) - at;
      for (int wi = 0; wi < nmiss; wi++) {
        above[wi] += x > whi[wi];
        below[wi] += x < wlo[wi];
      }
    }
    for (int wi = 0; wi < nmiss; wi++) s->out[st][wi][0] += above[wi], s->out[st][wi][1] += below[wi];
  }
}

/* Whether an i64 piece of m elements has NA among its first or last k. */
static int na_ends(pcol_type t, const uint8_t *b, size_t m, uint32_t k) {
  if (t != PCOL_TYPE_I64) return 0;
  for (size_t i = 0; i < k; i++)
    if (pcol_rd64(b + 8 * i) == (uint64_t)INT64_MIN || pcol_rd64(b + 8 * (m - 1 - i)) == (uint64_t)INT64_MIN)
      return 1;
  return 0;
}

static int stats_piece(void *ctx, const void *d, size_t n) {
  pass *p = ctx;
  const uint8_t *b = d;
  /* element i is row r of lane j (i = r x k + j), kept as they go: no
   * division a value */
  uint32_t j = p->j, k = p->k;
  uint64_t r = p->r;
  const unsigned w = p->w;
  size_t m = n / w; /* (pieces hold whole elements) */
  /* (an i64 piece that starts or ends with NA is read whole: its non-NA
   * ends are inside it) */
  if (p->phase == 0 && m > 2 * (size_t)k && !na_ends(p->type, b, m, k)) {
    /* the ends alone: row 0 is within a piece's first k elements, and the
     * last k elements hold every lane's last; the rows between are only
     * counted (a pass over a spilled column of 3M values was 3% of pack) */
    stats_piece(p, b, (size_t)k * w);
    size_t skip = (size_t)p->j + (m - 2 * (size_t)k);
    p->r += skip / k, p->j = (uint32_t)(skip % k);
    return stats_piece(p, b + (m - k) * w, (size_t)k * w);
  }
  if (p->phase == 0) {
    for (size_t i = 0; i < m; i++) {
      i128 v = value_of(b + i * w, p->type);
      lane_stats *s = &p->ls[j];
      if (r == 0) s->first = v;
      s->last = v;
      if (p->type == PCOL_TYPE_I64 && v != (i128)INT64_MIN) {
        if (!s->any_v) s->any_v = 1, s->first_v = v, s->first_r = r;
        s->last_v = v, s->last_r = r;
      }
      if (++j == k) j = 0, r++;
    }
  } else {
    /* lane by lane: the lane of element i is (j + i) mod k */
    for (size_t i = 0; i < k && i < m; i++) /* element i: the first of its lane here */
      lane_scan(&p->ls[(j + i) % k], p->phase, p->type, b + i * w, (m - i + k - 1) / k,
                (size_t)k * w, r + (j + i) / k);
    size_t next = (size_t)j + m;
    r += next / k, j = (uint32_t)(next % k);
  }
  p->j = j;
  p->r = r;
  return 0;
}

static uint64_t lane_rows(uint64_t n, uint64_t k, uint64_t j) {
  return n > j ? (n - j - 1) / k + 1 : 0;
}

/* The cheapest form of lane s (its bytes, without alignment), or
 * UINT64_MAX when none holds it (out is then not set). */
static uint64_t choose_lane(const lane_stats *s, unsigned min_width, int outliers_only, pcol_enc_lane *out) {
  uint64_t best = UINT64_MAX;
  for (int st = 0; st < s->nstep; st++) {
    if (s->hi[st] == s->lo[st] && min_width == 0) { /* base + r x step exactly */
      out->lo = s->lo[st], out->step_exact = s->step[st];
      out->base = (uint64_t)s->lo[st], out->step = (uint64_t)s->step[st];
      out->width = 0, out->nexc = 0;
      return 0;
    }
    for (int wi = 0; wi < NW; wi++)
      for (int a = 0; a < NANCHOR; a++) {
        if (widths[wi] < min_width) continue;
        uint64_t nexc = s->out[st][wi][a];
        /* exceptions cost 16 bytes each, and a patched code a search of
         * its block of 64 rows' exceptions on random access (enc_read.c):
         * as many as make the lane cheapest (the NA times of a merged
         * source without times, the offsets of its values after a source
         * without values: a run of rows, not outliers); but a u32 column
         * (ids: the stack trie's parent_id, read on every node of every
         * walk) keeps them for outliers, 1 in 64 rows at most: its patches
         * made `pcol top` 3.8% slower for 10% fewer bytes */
        if (nexc > UINT32_MAX || (outliers_only && nexc > s->rows / 64)) continue;
        uint64_t cost = s->rows * widths[wi] + nexc * 16;
        if (cost >= best) continue;
        best = cost;
        out->lo = window_lo(s, st, wi, a);
        out->step_exact = s->step[st];
        out->base = (uint64_t)out->lo;
        out->step = (uint64_t)s->step[st];
        out->width = (uint8_t)widths[wi];
        out->nexc = (uint32_t)nexc;
      }
  }
  return best;
}

static uint64_t align_up(uint64_t x, uint64_t a) { return a > 1 ? (x + a - 1) / a * a : x; }

/* The encoded size of a plan (spec.md §4.1's layout). */
static uint64_t plan_size(const pcol_enc_plan *p, uint64_t count) {
  uint64_t pos = PCOL_ENC_HEADER + (uint64_t)p->k * PCOL_ENC_LANE;
  for (uint32_t j = 0; j < p->k; j++) {
    pos = align_up(pos, p->lanes[j].width);
    pos += lane_rows(count, p->k, j) * p->lanes[j].width;
  }
  pos = align_up(pos, 8);
  for (uint32_t j = 0; j < p->k; j++) pos += (uint64_t)p->lanes[j].nexc * 16;
  return pos;
}

/* The passes of several plans made together (a plan of 1 lane and one of
 * k_hint): one read of the column feeds them all (a spilled column is
 * inflated a pass). */
typedef struct passes {
  pass p[2];
  int n;
} passes;
static int stats_all(void *ctx, const void *d, size_t n) {
  passes *ps = ctx;
  for (int i = 0; i < ps->n; i++)
    if (ps->p[i].ls) stats_piece(&ps->p[i], d, n);
  return 0;
}

/* The plans for k[i] lanes (n of them, at most 2); size[i] is plan i's
 * size, or UINT64_MAX when none fits (then out[i] is not set). */
static void plans_k(pcol_enc_source each, void *src, pcol_type type, uint64_t count, int n,
                    const uint32_t *k, unsigned min_width, pcol_enc_plan *out, uint64_t *size) {
  passes ps = {.n = n};
  for (int i = 0; i < n; i++) {
    size[i] = UINT64_MAX;
    ps.p[i] = (pass){type, (unsigned)pcol_type_width(type), k[i], 0, 0, 0, calloc(k[i], sizeof(lane_stats))};
  }
  int failed = each(src, stats_all, &ps);
  for (int i = 0; i < n && !failed; i++)
    for (uint32_t j = 0; ps.p[i].ls && j < k[i]; j++) {
      lane_stats *s = &ps.p[i].ls[j];
      s->rows = lane_rows(count, k[i], j);
      s->step[s->nstep++] = 0;
      if (s->rows > 1) {
        i128 slope = (s->last - s->first) / (i128)(s->rows - 1);
        /* NA at an end: the slope of the values between (an i64 NA is
         * INT64_MIN, which makes no slope of a time column) */
        if (type == PCOL_TYPE_I64 && (s->first == (i128)INT64_MIN || s->last == (i128)INT64_MIN))
          slope = s->any_v && s->last_r > s->first_r
                      ? (s->last_v - s->first_v) / (i128)(s->last_r - s->first_r) : 0;
        if (slope != 0 && slope >= INT64_MIN && slope <= INT64_MAX) s->step[s->nstep++] = slope;
      }
      /* row 0's x is its value, under any step: phase 1's range starts there */
      for (int st = 0; st < s->nstep; st++) s->lo[st] = s->hi[st] = s->first;
    }
  for (int phase = 1; phase <= 2 && !failed; phase++) {
    for (int i = 0; i < n; i++) {
      ps.p[i].phase = phase, ps.p[i].j = 0, ps.p[i].r = 0;
      if (phase == 2 && ps.p[i].ls) set_windows(ps.p[i].ls, k[i]);
    }
    failed = each(src, stats_all, &ps);
  }
  for (int i = 0; i < n; i++) {
    lane_stats *ls = ps.p[i].ls;
    pcol_enc_lane *lanes = ls && !failed ? calloc(k[i], sizeof *lanes) : NULL;
    uint32_t j = 0;
    /* no form may hold a lane (values spanning 2^64 with too many outliers
     * for exceptions): the column stays plain */
    while (lanes && j < k[i] && choose_lane(&ls[j], min_width, type == PCOL_TYPE_U32, &lanes[j]) != UINT64_MAX) j++;
    if (lanes && j == k[i]) {
      out[i].k = k[i];
      out[i].lanes = lanes;
      size[i] = plan_size(&out[i], count);
    } else {
      free(lanes);
    }
    free(ls);
  }
}

int pcol_enc_choose(pcol_enc_source each, void *src, pcol_type type, uint64_t count,
                    uint32_t k_hint, unsigned min_width, pcol_enc_plan *out) {
  memset(out, 0, sizeof *out);
  if (type != PCOL_TYPE_U32 && type != PCOL_TYPE_I64 && type != PCOL_TYPE_U64) return 0;
  uint64_t plain = count * pcol_type_width(type);
  pcol_enc_plan pl[2] = {{0}, {0}};
  uint32_t k[2] = {1, k_hint};
  uint64_t sz[2] = {UINT64_MAX, UINT64_MAX};
  int many = k_hint > 1 && k_hint <= PCOL_ENC_MAX_LANES && k_hint <= count && count % k_hint == 0;
  plans_k(each, src, type, count, 1 + many, k, min_width, pl, sz);
  int best = sz[1] < sz[0];
  uint64_t size = sz[best];
  if (size < plain || (min_width && size != UINT64_MAX)) {
    *out = pl[best];
    out->size = size;
    free(pl[!best].lanes);
    return 1;
  }
  free(pl[0].lanes);
  free(pl[1].lanes);
  return 0;
}

void pcol_enc_plan_free(pcol_enc_plan *p) {
  free(p->lanes);
  memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------- writing */

typedef struct emit {
  const pcol_enc_plan *plan;
  pcol_type type;
  unsigned w;
  uint32_t j;     /* the next element's lane, */
  uint64_t r;     /* and row in it */
  uint32_t lane;  /* the lane being written */
  int exceptions; /* 0 codes, 1 exception pairs */
  int (*put)(void *ctx, const void *d, size_t n);
  void *put_ctx;
  uint8_t buf[1 << 16];
  size_t len;
  int failed;
} emit;

static int flush(emit *e) {
  if (e->len && !e->failed && e->put(e->put_ctx, e->buf, e->len)) e->failed = 1;
  e->len = 0;
  return e->failed;
}

static int put_bytes(emit *e, const void *d, size_t n) {
  if (e->len + n > sizeof e->buf && flush(e)) return 1;
  memcpy(e->buf + e->len, d, n);
  e->len += n;
  return 0;
}

static int zeros(emit *e, uint64_t n) {
  static const uint8_t z[8];
  for (; n; n--)
    if (put_bytes(e, z, 1)) return 1;
  (void)z;
  return 0;
}

static int emit_piece(void *ctx, const void *d, size_t n) {
  emit *e = ctx;
  const uint8_t *b = d;
  const uint32_t k = e->plan->k;
  const pcol_enc_lane *l = &e->plan->lanes[e->lane];
  const unsigned lw = l->width;
  const uint64_t all = lw >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * lw)) - 1;
  const size_t m = n / e->w; /* (pieces hold whole elements) */
  /* the lane's elements alone, k apart: its first here, and its row */
  size_t i = (size_t)(e->lane + k - e->j) % k;
  uint64_t r = e->r + (e->j + i) / k;
  for (; i < m; i += k, r++) {
    i128 v = value_of(b + i * e->w, e->type), x = v - (i128)r * l->step_exact;
    /* the same test as the counting pass (lane_scan), exactly */
    int exc = x < l->lo || x - l->lo > (i128)all - 1;
    if (e->exceptions) {
      if (!exc) continue;
      uint8_t pair[16];
      pcol_wr64(pair, r);
      pcol_wr64(pair + 8, (uint64_t)v);
      if (put_bytes(e, pair, 16)) return 1;
      continue;
    }
    /* a code: 8 bytes stored, its lw kept (memcpy of lw bytes was a call a code) */
    if (e->len + 8 > sizeof e->buf && flush(e)) return 1;
    pcol_wr64(e->buf + e->len, exc ? all : (uint64_t)(x - l->lo));
    e->len += lw;
  }
  size_t next = (size_t)e->j + m;
  e->r += next / k, e->j = (uint32_t)(next % k);
  return 0;
}

int pcol_enc_emit(const pcol_enc_plan *plan, pcol_enc_source each, void *src, pcol_type type,
                  uint64_t count, int (*put)(void *ctx, const void *d, size_t n), void *put_ctx) {
  emit *e = calloc(1, sizeof *e);
  if (!e) return PCOL_ENOMEM;
  e->plan = plan, e->type = type, e->w = (unsigned)pcol_type_width(type);
  e->put = put, e->put_ctx = put_ctx;
  uint8_t h[PCOL_ENC_LANE] = {0};
  pcol_wr32(h, plan->k);
  pcol_wr32(h + 4, 0);
  int rc = put_bytes(e, h, PCOL_ENC_HEADER);
  for (uint32_t j = 0; j < plan->k && !rc; j++) {
    const pcol_enc_lane *l = &plan->lanes[j];
    memset(h, 0, sizeof h);
    pcol_wr64(h + PCOL_ENC_LANE_BASE, l->base);
    pcol_wr64(h + PCOL_ENC_LANE_STEP, l->step);
    h[PCOL_ENC_LANE_WIDTH] = l->width;
    pcol_wr32(h + PCOL_ENC_LANE_NEXC, l->nexc);
    rc = put_bytes(e, h, PCOL_ENC_LANE);
  }
  uint64_t pos = PCOL_ENC_HEADER + (uint64_t)plan->k * PCOL_ENC_LANE;
  for (uint32_t j = 0; j < plan->k && !rc; j++) {
    const pcol_enc_lane *l = &plan->lanes[j];
    if (!l->width) continue;
    rc = zeros(e, align_up(pos, l->width) - pos);
    pos = align_up(pos, l->width) + lane_rows(count, plan->k, j) * l->width;
    e->j = 0, e->r = 0, e->lane = j, e->exceptions = 0;
    if (!rc) rc = each(src, emit_piece, e) || e->failed;
  }
  if (!rc) rc = zeros(e, align_up(pos, 8) - pos);
  for (uint32_t j = 0; j < plan->k && !rc; j++) {
    if (!plan->lanes[j].nexc) continue;
    e->j = 0, e->r = 0, e->lane = j, e->exceptions = 1;
    rc = each(src, emit_piece, e) || e->failed;
  }
  if (!rc) rc = flush(e);
  free(e);
  return rc ? PCOL_EIO : PCOL_OK;
}
