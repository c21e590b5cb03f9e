/* select.c — which samples a command reads: one source, a time range.
 *
 * THE range rule (spec.md §7): a point sample (duration 0) is selected when
 * from <= time < to.  A long sample (time t, duration d > 0, weight w)
 * stands for n raw samples ("ticks") at t + k d / n, k = 0..n-1: n =
 * max(w, 1), which is where `pcol pack --coalesce` found them, or, for a
 * sample of weight <= 1 in a source marked as intervals (meta
 * pcol.intervals "1": a Chrome trace's stretches of continuous time), n =
 * d, one tick a nanosecond, so that a range selects the nanoseconds of the
 * sample inside it.  A range selects the ticks inside it, num of the n,
 * and every amount of the sample counts pcol_scale(amount, num, n).  The
 * count of ticks before a time is one cumulative function, so adjacent
 * ranges add up to the whole exactly (the time, and every amount that is a
 * multiple of n), and a coalesced file answers every range as its raw twin
 * does. */
#include "pcol.h"
#include "keys.h"     /* PCOL_META_MAX_DURATION_NS, PCOL_META_INTERVALS */
#include "layout.h"   /* PCOL_ENC_MAX_LANES */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "buf.h"      /* PCOL_GROW */
#include "filter.h"   /* pcol_filter, pcol_filter_build, pcol_filter_free, ... */
#include "select.h"   /* pcol_selected_row, pcol_range_ticks_before, pcol_select_iter_filter, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "wall.h"     /* PCOL_WALL_NONE, PCOL_WALL_RANGE, pcol_wall, ... */
#include "reader.h"   /* pcol_column_rows, pcol_column_lazy, pcol_idmemo */
#include <stdlib.h>
#include <string.h>

int64_t pcol_range_ticks_before(int64_t t, int64_t d, int64_t n, int64_t x) {
  if (x <= t) return 0;
  /* ceil((x - t) n / d), at most n: the ticks t + k d / n with k d / n < x - t */
  __int128 a = ((__int128)x - t) * n;
  __int128 k = a / d + (a % d != 0);
  return k > n ? n : (int64_t)k;
}

int64_t pcol_range_ticks(int64_t w) { return w >= 1 ? w : 1; }

int64_t pcol_range_ticks_of(int64_t w, int64_t d, int intervals) {
  return intervals && w <= 1 ? d : pcol_range_ticks(w); /* (w >= 2: a coalesced run, ticks) */
}

int64_t pcol_scale(int64_t v, int64_t num, int64_t den) {
  if (num == den) return v;
  if (den <= 0) return 0;
  __int128 p = (__int128)v * num;
  __int128 q = p / den, r = p % den;
  if (r < 0) r = -r;
  if (2 * r >= (__int128)den) q += p < 0 ? -1 : 1;
  if (q > INT64_MAX) return INT64_MAX;
  if (q < INT64_MIN) return INT64_MIN;
  return (int64_t)q;
}

/* A samples column of which only some rows may be decoded (format 1.4,
 * zstd blocks: pcol_column_rows), or any other. */
typedef struct rows_col {
  pcol_file *f;
  int column, lazy;
  pcol_view v;
} rows_col;
static int rows_col_init(rows_col *c, pcol_file *f, int column, pcol_error *err) {
  c->f = f, c->column = column, c->lazy = pcol_column_lazy(f, PCOL_T_SAMPLES, column);
  return pcol_column_rows(f, PCOL_T_SAMPLES, column, 0, 0, &c->v, err);
}
/* rows [lo, hi) of c made readable */
static int rows_need(rows_col *c, uint64_t lo, uint64_t hi, pcol_error *err) {
  return c->lazy ? pcol_column_rows(c->f, PCOL_T_SAMPLES, c->column, lo, hi, &c->v, err) : PCOL_OK;
}

/* Narrows [*lo, *hi) of a time column in zstd blocks (br rows each) to
 * one block that holds lower_bound's answer, or sets *done: each probe
 * decodes a whole block, whose first and last times bound it, and lands
 * where the times between the known ends say t is (sampled times are
 * close to even: a probe or two instead of a binary search's log2 of the
 * blocks); when two probes in a row move the same end (times far from
 * even), the next one halves the range, so it never takes many more
 * probes than a binary search.  A probe that does not narrow the range
 * hands over to the binary search. */
static int narrow_to_block(rows_col *tim, uint64_t br, uint64_t *lo, uint64_t *hi, int64_t t,
                           int *done, pcol_error *err) {
  const pcol_view *v = &tim->v;
  int side = 0, again = 0; /* which end the last probe moved; twice the same: bisect */
  *done = 0;
  if (*lo >= *hi) return PCOL_OK;
  PCOL_RETURN_NOT_OK(rows_need(tim, *lo, *lo + 1, err));
  PCOL_RETURN_NOT_OK(rows_need(tim, *hi - 1, *hi, err));
  /* known points: row pa (time ta < t, or pa = lo), row pe (time te >= t,
   * or pe = hi - 1), read from blocks already decoded */
  uint64_t pa = *lo, pe = *hi - 1;
  int64_t ta = pcol_view_i64(v, pa), te = pcol_view_i64(v, pe);
  if (ta >= t || te < t) { /* all at or past t, or all before it */
    *lo = *hi = ta >= t ? *lo : *hi;
    *done = 1;
    return PCOL_OK;
  }
  while (*lo / br != (*hi - 1) / br) {
    uint64_t a = *lo, e = *hi;
    /* ta < t <= te: the row where t would be if times were even */
    __int128 g = (__int128)(pe - pa) * ((__int128)t - ta) / ((__int128)te - ta);
    uint64_t guess = again ? a + (e - a) / 2 : pa + (uint64_t)g;
    if (guess < a) guess = a;
    if (guess >= e) guess = e - 1;
    uint64_t bs = guess / br * br, be = bs + br;
    if (bs < a) bs = a;
    if (be > e) be = e;
    PCOL_RETURN_NOT_OK(rows_need(tim, bs, be, err));
    int moved = 0;
    if (pcol_view_i64(v, bs) >= t) { /* the answer is at bs or before */
      *hi = bs + 1, pe = bs, te = pcol_view_i64(v, bs), moved = 2;
    } else if (pcol_view_i64(v, be - 1) < t) {
      *lo = be, pa = be - 1, ta = pcol_view_i64(v, be - 1), moved = 1;
    } else {
      *lo = bs, *hi = be;
    }
    if (*lo == a && *hi == e) return PCOL_OK; /* no narrower: binary search */
    again = moved && moved == side; /* (times far from even: halve the range next) */
    side = moved;
  }
  return PCOL_OK;
}

/* first row in [lo, hi) whose time is >= t (times sorted inside a source);
 * a time column in zstd blocks decodes only the blocks it probes */
static int lower_bound(rows_col *tim, uint64_t lo, uint64_t hi, int64_t t, uint64_t *out,
                       pcol_error *err) {
  uint64_t br = tim->lazy ? pcol_column_block_rows(tim->f, PCOL_T_SAMPLES, tim->column) : 0;
  if (br) {
    int done;
    PCOL_RETURN_NOT_OK(narrow_to_block(tim, br, &lo, &hi, t, &done, err));
    if (done) {
      *out = lo;
      return PCOL_OK;
    }
  }
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    PCOL_RETURN_NOT_OK(rows_need(tim, mid, mid + 1, err));
    if (pcol_view_i64(&tim->v, mid) < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  *out = lo;
  return PCOL_OK;
}

static uint64_t source_end(const pcol_view *src, uint64_t lo, uint64_t hi, uint32_t s) {
  /* first row in [lo, hi) with source > s (sources sorted) */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (pcol_view_u32(src, mid) <= s)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* meta "pcol.max_duration_ns" of every source (written by coalescing and
 * the Chrome importer), in one pass over meta: out[s] = the value, or -1
 * when a source declares none (or a malformed one).  A wrong value can only
 * make a range query miss or re-check samples; it cannot make it read out
 * of bounds. */
int pcol_parse_max_duration(pcol_str v, int64_t *out) {
  if (!v.ptr || v.len == 0 || v.len > 18) return -1;
  int64_t x = 0;
  for (size_t j = 0; j < v.len; j++) {
    if (v.ptr[j] < '0' || v.ptr[j] > '9') return -1;
    x = x * 10 + (v.ptr[j] - '0');
  }
  *out = x;
  return 0;
}

/* ... and, in the same pass, meta "pcol.intervals" of every source:
 * iv[s] = 1 when its first row with the key holds exactly "1" (spec.md
 * §7.1, "Interval sources"), else 0 (2 while a row is still to come). */
int pcol_source_range_meta(pcol_file *f, int64_t **out, uint8_t **ivout, pcol_error *err) {
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  int64_t *d = malloc((ns + 1) * sizeof *d);
  uint8_t *iv = malloc(ns + 1);
  if (!d || !iv) {
    free(d), free(iv);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  for (uint64_t s = 0; s <= ns; s++) d[s] = -1, iv[s] = 2;
  pcol_view mk, mv, ms;
  int rc = pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &mk, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &mv, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &ms, err);
  static const char key[] = PCOL_META_MAX_DURATION_NS, ikey[] = PCOL_META_INTERVALS;
  pcol_idmemo memo = {{0}, {0}}, imemo = {{0}, {0}};
  for (uint64_t i = 0; !rc && i < pcol_rows(f, PCOL_T_META); i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    if (s == 0 || s > ns || (d[s] != -1 && iv[s] != 2)) continue; /* the first row counts, valid or not */
    pcol_str v;
    uint8_t is, isi = 0;
    if ((rc = pcol_string_is_memo(f, &memo, pcol_view_u32(&mk, i), key, &is, err))) break;
    if (!is && (rc = pcol_string_is_memo(f, &imemo, pcol_view_u32(&mk, i), ikey, &isi, err))) break;
    if ((is && d[s] != -1) || (isi && iv[s] != 2) || (!is && !isi)) continue;
    if ((rc = pcol_string(f, pcol_view_u32(&mv, i), &v, err))) break;
    int64_t x;
    if (is) d[s] = pcol_parse_max_duration(v, &x) == 0 ? x : -2; /* the first row counts */
    else iv[s] = v.len == 1 && v.ptr[0] == '1';
  }
  if (rc) {
    free(d), free(iv);
    return rc;
  }
  for (uint64_t s = 0; s <= ns; s++) iv[s] &= 1;
  *out = d, *ivout = iv;
  return PCOL_OK;
}

int pcol_select_whole_stacks(const pcol_select *sel, pcol_error *err) {
  if (sel && (sel->hide || sel->show || sel->show_from || sel->no_inlines))
    return pcol_error_set(err, PCOL_EINVAL, "--hide, --show, --show-from and --no-inlines change stacks, "
                          "which an export keeps whole; use --focus/--ignore/--tag here, or pcol fold --hide");
  return PCOL_OK;
}

int pcol_select_check(pcol_file *f, const pcol_select *sel, pcol_error *err) {
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  if (sel && sel->source_id > nsrc)
    return pcol_error_set(err, PCOL_ENOTFOUND, "no source %u (the file has %llu)", sel->source_id,
                          (unsigned long long)nsrc);
  return PCOL_OK;
}

int pcol_select_iter(pcol_file *f, const pcol_select *sel,
                     int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den),
                     void *ctx, pcol_error *err) {
  /* no fn: the range's refusals only, which the name and label filters
   * change nothing of (no filter built) */
  if (!fn || !pcol_select_filtered(sel)) return pcol_select_iter_filter(f, sel, NULL, fn, ctx, err);
  pcol_filter flt;
  int rc = pcol_filter_build(f, sel, &flt, err);
  if (!rc) rc = pcol_select_iter_filter(f, sel, &flt, fn, ctx, err);
  pcol_filter_free(&flt);
  return rc;
}

int pcol_select_need_view(pcol_file *f, const pcol_select *sel, int column, pcol_view *out,
                          int *lazy, pcol_error *err) {
  *lazy = sel && (sel->has_from || sel->has_to) && pcol_column_lazy(f, PCOL_T_SAMPLES, column);
  return *lazy ? pcol_column_rows(f, PCOL_T_SAMPLES, column, 0, 0, out, err)
               : pcol_column(f, PCOL_T_SAMPLES, column, out, err);
}

int pcol_select_iter_filter(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                            int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den),
                            void *ctx, pcol_error *err) {
  return pcol_select_iter_need(f, sel, flt, NULL, 0, fn, ctx, err);
}

typedef int (*iter_at_fn)(void *ctx, uint64_t row, int64_t num, int64_t den, int64_t at);
static int iter_core(pcol_file *f, const pcol_select *sel, const pcol_filter *flt, const int *need,
                     size_t nneed, int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den),
                     iter_at_fn fn_at, void *ctx, pcol_error *err);

int pcol_select_iter_need(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                          const int *need, size_t nneed,
                          int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den),
                          void *ctx, pcol_error *err) {
  return iter_core(f, sel, flt, need, nneed, fn, NULL, ctx, err);
}

int pcol_select_iter_at(pcol_file *f, const pcol_select *sel, iter_at_fn fn, void *ctx, pcol_error *err) {
  return iter_core(f, sel, NULL, NULL, 0, NULL, fn, ctx, err);
}

static int iter_core(pcol_file *f, const pcol_select *sel, const pcol_filter *flt, const int *need,
                     size_t nneed, int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den),
                     iter_at_fn fn_at, void *ctx, pcol_error *err) {
  uint64_t n = pcol_rows(f, PCOL_T_SAMPLES);
  rows_col nc[PCOL_SELECT_NEED]; /* the caller's columns: the rows handed over */
  if (nneed > PCOL_SELECT_NEED)
    return pcol_error_set(err, PCOL_EINVAL, "pcol_select_iter_need: more than %d columns",
                          PCOL_SELECT_NEED);
  pcol_view src;
  rows_col tc, dc, wc; /* time, duration, weight: only the rows read (format 1.4) */
  int rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src, err);
  if (!rc) rc = rows_col_init(&tc, f, PCOL_C_S_TIME, err);
  if (!rc) rc = rows_col_init(&dc, f, PCOL_C_S_DURATION, err);
  if (!rc) rc = rows_col_init(&wc, f, PCOL_C_S_WEIGHT, err);
  for (size_t k = 0; k < nneed && !rc; k++) rc = rows_col_init(&nc[k], f, need[k], err);
  if (rc) return rc;
  const pcol_view *tim = &tc.v, *dur = &dc.v, *wgt = &wc.v;
  int ranged = sel && (sel->has_from || sel->has_to);
  uint32_t only = sel ? sel->source_id : 0;
  if ((rc = pcol_select_check(f, sel, err))) return rc;
  /* no fn: what the range refuses, decided per source (its last row's
   * time, the span rule), never a pass over its rows */
  int check_only = !fn && !fn_at;
  if (check_only && !ranged) return PCOL_OK;
  int64_t from = sel && sel->has_from ? sel->from_ns : INT64_MIN + 1;
  int64_t to = sel && sel->has_to ? sel->to_ns : INT64_MAX;
  uint64_t row = 0;
  int64_t *declared = NULL; /* see pcol_source_range_meta, read on first need */
  uint8_t *intervals = NULL; /* (and the sources marked as intervals) */
  pcol_wall wall = {NULL, NULL, NULL, 0, NULL, NULL, NULL, 0};
  int is_wall = ranged && sel->wall, wall_read = is_wall;
  if (is_wall && (rc = pcol_wall_init(f, &wall, err))) return rc;
  /* one source: its run found by binary search (F5), not by walking the
   * runs before it (a loop over N sources was quadratic) */
  if (only) row = source_end(&src, 0, n, only - 1);
  while (row < n) {
    uint32_t s = pcol_view_u32(&src, row);
    if (only && s > only) break;
    uint64_t end = source_end(&src, row, n, s);
    if (end <= row) end = row + 1; /* unsorted input: still terminate */
    if (only && s != only) {
      row = end;
      continue;
    }
    uint64_t i = row, stop = end;
    int iv = 0; /* the source's long samples are intervals (n = d) */
    if (ranged && (rc = rows_need(&tc, end - 1, end, err))) goto out;
    int timed = ranged && pcol_view_i64(tim, end - 1) != PCOL_NA_I64, cut = ranged;
    /* this source's part of a wall-clock range, and what a range of either
     * clock takes of a source whose samples have no time (times sort NA
     * first, so the source's last row is NA only when all are): THE span
     * rule of wall.c, whole, nothing, or an error when the range cuts it */
    if (is_wall || (ranged && !timed)) {
      if (!wall_read && (rc = pcol_wall_init(f, &wall, err))) goto out;
      wall_read = 1;
      int w = pcol_wall_bounds(f, &wall, sel, s, timed, &from, &to, err);
      if (w < 0) {
        rc = w;
        goto out;
      }
      if (w == PCOL_WALL_NONE) {
        row = end;
        continue;
      }
      cut = w == PCOL_WALL_RANGE;
    }
    if (check_only) {
      row = end;
      continue;
    }
    if (cut) {
      /* Long samples that start before `from` may reach into the range, and
       * a point sample between them does not end the search: every sample
       * that starts at or after from - (longest duration of the source) may
       * overlap.  Without a duration column (raw samples only) that bound is
       * `from` itself, so the search is one binary search. */
      int64_t maxdur = 0;
      int has_dur = dc.lazy || pcol_view_stored(dur);
      if (has_dur && !declared && (rc = pcol_source_range_meta(f, &declared, &intervals, err))) goto out;
      if (has_dur && s < pcol_rows(f, PCOL_T_SOURCES) + 1 && declared[s] >= 0)
        maxdur = declared[s];
      else if (has_dur) {
        if ((rc = rows_need(&dc, row, end, err))) goto out;
        for (uint64_t k = row; k < end; k++) {
          int64_t d = pcol_view_i64(dur, k);
          if (d > maxdur) maxdur = d;
        }
      }
      iv = has_dur && s <= pcol_rows(f, PCOL_T_SOURCES) && intervals[s];
      int64_t lo; /* from - maxdur, saturated (both come from the file) */
      if (__builtin_sub_overflow(from, maxdur, &lo) || lo < INT64_MIN + 1) lo = INT64_MIN + 1;
      if ((rc = lower_bound(&tc, row, end, lo, &i, err)) ||
          (rc = lower_bound(&tc, i, end, to, &stop, err)))
        goto out;
    }
    /* the rows read below, decoded (zstd blocks: only theirs) */
    if (cut && ((rc = rows_need(&tc, i, stop, err)) || (rc = rows_need(&dc, i, stop, err)) ||
                (rc = rows_need(&wc, i, stop, err))))
      goto out;
    for (size_t k = 0; k < nneed; k++)
      if ((rc = rows_need(&nc[k], i, stop, err))) goto out;
    for (; i < stop; i++) {
      int64_t num = 1, den = 1, at = PCOL_NA_I64;
      if (flt && !pcol_filter_keep(flt, i)) continue;
      if (cut) {
        int64_t t = pcol_view_i64(tim, i), d = pcol_view_i64(dur, i);
        if (t == PCOL_NA_I64) continue;
        at = t;
        if (d <= 0) {
          if (t < from || t >= to) continue;
        } else { /* THE range rule: the ticks of the long sample in [from, to) */
          den = pcol_range_ticks_of(pcol_view_i64(wgt, i), d, iv);
          int64_t k0 = pcol_range_ticks_before(t, d, den, from);
          num = pcol_range_ticks_before(t, d, den, to) - k0;
          if (num <= 0) continue;
          /* its first tick in the range, t + k0 d / n (>= from), floored: in [from, to) */
          if (k0) at = t + (int64_t)((__int128)k0 * d / den);
        }
      }
      if ((rc = fn_at ? fn_at(ctx, i, num, den, at) : fn(ctx, i, num, den))) {
        rc = rc > 0 ? PCOL_OK : rc;
        goto out;
      }
    }
    row = end;
  }
  rc = PCOL_OK;
out:
  free(declared), free(intervals);
  pcol_wall_free(&wall);
  return rc;
}

static int count_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)row, (void)num, (void)den;
  ++*(uint64_t *)ctx;
  return 0;
}

int pcol_select_count(pcol_file *f, const pcol_select *sel, uint64_t *count, pcol_error *err) {
  *count = 0;
  return pcol_select_iter(f, sel, count_row, count, err);
}

int pcol_sample_cols_init(pcol_sample_cols *c, pcol_file *f, pcol_error *err) {
  memset(c, 0, sizeof *c);
  c->nvalues = pcol_rows(f, PCOL_T_VALUES);
  pcol_column_req req[] = {{&c->weight, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},
                           {&c->voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
                           {&c->vtype, PCOL_T_VALUES, PCOL_C_V_TYPE},
                           {&c->vval, PCOL_T_VALUES, PCOL_C_V_VALUE}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  pcol_sample_cols_dense(c);
  return PCOL_OK;
}

/* Dense values (format 1.3, spec.md §4.1): every sample has the same k
 * types (offsets i x k; each type lane a constant), so value j of sample r
 * is row r of the value column's lane j. */
void pcol_sample_cols_dense(pcol_sample_cols *c) {
  const pcol_view *o = &c->voff, *t = &c->vtype, *v = &c->vval;
  uint64_t k = o->nlanes == 1 && !o->lanes->width && !o->lanes->base ? o->lanes->step : 0;
  c->dense_k = 0;
  if (!k || k > PCOL_ENC_MAX_LANES || t->nlanes != k || v->nlanes != k ||
      c->nvalues / k + 1 != o->count || c->nvalues % k)
    return;
  for (uint64_t j = 0; j < k; j++)
    if (t->lanes[j].width || t->lanes[j].step) return;
  c->dense_k = (uint32_t)k;
}
