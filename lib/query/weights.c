/* weights.c — pcol_stack_weights: the chosen value of the selected samples
 * summed per stack node, the one pass over samples that every view starts
 * from (top.c explains why the rest works on stack nodes only).  Cost
 * model: O(selected samples) plus one calloc of stacks + 1 int64; the
 * common case (every sample, the weight column) is a tight loop over two
 * columns, other selections go through pcol_select_iter with a callback a
 * row, and a stored value type costs a scan of the sample's few values.
 * Also the derived value rprof.alloc (summaryRprof's memory increase),
 * computed against the previous sample of the same source. */
#include "query.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "bytes.h"    /* pcol_str_is */
#include "hash.h"     /* pcol_u64map */
#include "samplekey.h" /* pcol_pprof_stack_ids */
#include "columns.h"  /* PCOL_NCOLS, pcol_columns */
#include "buf.h"      /* pcol_alloc_hot, pcol_prefault_read */
#include "filter.h"   /* pcol_filter, pcol_filter_keep, pcol_filter_build, ... */
#include "select.h"   /* pcol_sample_cols, pcol_select_iter_filter, pcol_sample_cols_dense */
#include "reader.h"   /* pcol_column_rows, pcol_column_lazy */
#include "count.h"    /* pcol_count_types, pcol_rtime, pcol_rtime_free, ... */
#include "xvalues.h"  /* pcol_ralloc_value, pcol_rtime_drop_init, pcol_rtime_pick_init */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct wctx {
  uint32_t vt, alloc_vt[PCOL_Q_RPROF_ALLOC_NTYPES];
  uint64_t nstacks, nvalues, nsamples;
  pcol_view stack, weight, voff, vtype, vval, source;
  pcol_file *f;
  int lazy_stack; /* a time range over stacks in zstd blocks: each row's block decoded as read */
  pcol_sample_cols sc; /* weight, voff, vtype, vval as THE value rule reads them */
  pcol_sum *w;  /* 128-bit sums: no sum of 64-bit values overflows (F4) */
  int64_t *w64; /* or 64-bit ones, kept only if total ends <= INT64_MAX */
  int narrow;   /* weights_run: make w64, not w */
  int pairs;    /* weights_run: list (stack, value) of each kept sample, no sums */
  uint64_t *pk; /* ... stack << 32 | pair */
  int64_t *pv;  /* ... and values (pcol_q_weights_sparse sorts and sums them) */
  size_t npairs, pcap;
  pcol_sum total; /* of |value| a sample: the bound of every partial sum */
  int64_t neg;    /* < 0 when a value was: then pprof's total is grouped_total */
  int want_nz;    /* pcol_q_weights_nsum: pcol_q_nsum.nonzero is wanted when neg < 0 */
  uint8_t *nz;    /* ... made by weights_run with the total when it can (else NULL) */
  const pcol_filter *flt; /* NULL: every selected sample */
  int relative;           /* sel->relative: the total counts only the kept samples */
  int (*row_fn)(void *ctx, uint64_t row, int64_t value); /* pcol_q_values_iter */
  void *row_ctx;
  const int *need; /* pcol_q_values_iter_need: the caller's samples columns */
  size_t nneed;
  pcol_rtime rt; /* the time and decimal-count rules (a value is chosen) */
  uint32_t *cvt; /* "samples" (vt 0): each source's count type (THE count rule), NULL
                  * when no source has one (then the weight column is the count) */
  int weight_asked;    /* PCOL_VT_WEIGHT: the weight column as it is */
  pcol_error *err;
} wctx;

/* the value of type vt of a sample: the one rule in core
 * (pcol_sample_value, with the time rule of Rprof sources) */
static int value_of(const wctx *c, uint64_t row, uint32_t vt, int64_t *v) {
  (void)pcol_sample_value_rt(&c->sc, &c->rt, row, vt, v);
  return PCOL_OK;
}

/* summaryRprof's per-line memory increase: THE rule of lib/core/xvalues.c */
static int rprof_alloc(const wctx *c, uint64_t row, int64_t *out) {
  if (pcol_ralloc_value(&c->sc, &c->rt, c->alloc_vt, row, out))
    return pcol_error_set(c->err, PCOL_ETOOBIG, "memory increase overflows at sample %llu",
                          (unsigned long long)row + 1);
  return PCOL_OK;
}

/* the value of the sample at `row` that a view adds up (unscaled) */
static int sample_value(const wctx *c, uint64_t row, int64_t *v) {
  *v = 0;
  if (row >= c->nsamples)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "sample row %llu is past the %llu samples",
                          (unsigned long long)row + 1, (unsigned long long)c->nsamples);
  if (c->rt.drop.src && pcol_unit_dropped(&c->rt.drop, &c->sc, row, pcol_view_u32(&c->source, row)))
    return PCOL_OK; /* the unit rule's drop: every value of the sample, its count too */
  if (c->vt == PCOL_VT_RPROF_ALLOC) return rprof_alloc(c, row, v);
  if (c->vt == 0 && c->cvt) { /* THE count rule (lib/core/count.c) */
    uint32_t s = pcol_view_u32(&c->source, row);
    uint32_t t = s <= c->rt.nsources ? c->cvt[s] : 0;
    *v = pcol_sample_count(&c->sc, row, t); /* (a subtracted base's weight: negated) */
    return PCOL_OK;
  }
  if (c->vt == 0) {
    *v = pcol_view_i64(&c->weight, row);
    return PCOL_OK;
  }
  return value_of(c, row, c->vt, v);
}

static int pair_add(wctx *c, uint32_t s, int64_t v) {
  if (c->npairs == c->pcap) {
    size_t nc = c->pcap ? 2 * c->pcap : 1024;
    if (nc > UINT32_MAX) return pcol_error_set(c->err, PCOL_ETOOBIG, "too many samples");
    uint64_t *pk = realloc(c->pk, nc * sizeof *pk);
    if (pk) c->pk = pk;
    int64_t *pv = pk ? realloc(c->pv, nc * sizeof *pv) : NULL;
    if (pv) c->pv = pv;
    if (!pk || !pv) return pcol_oom(c->err);
    c->pcap = nc;
  }
  c->pk[c->npairs] = (uint64_t)s << 32 | c->npairs;
  c->pv[c->npairs++] = v;
  return 0;
}

/* What a selected sample adds: 1 with its stack and scaled value, 0 when
 * it adds nothing (a zero; or filtered out, which still counts in the
 * total: pprof's total is that of the profile before -focus, -ignore,
 * -tagfocus..., but with -relative_percentages, sel->relative, it does
 * not), or an error. */
static inline __attribute__((always_inline)) int sample_adds(wctx *c, uint64_t row, int64_t num,
                                                             int64_t den, uint32_t *s,
                                                             int64_t *v) {
  *v = 0;
  int rc0 = sample_value(c, row, v);
  if (rc0) return rc0;
  if (*v == 0) return 0;
  *v = pcol_scale(*v, num, den);
  if (c->lazy_stack) {
    int rc = pcol_column_rows(c->f, PCOL_T_SAMPLES, PCOL_C_S_STACK, row, row + 1, &c->stack, c->err);
    if (rc) return rc;
  }
  *s = pcol_view_u32(&c->stack, row);
  if (*s > c->nstacks)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "sample %llu names stack %u, out of range",
                          (unsigned long long)row + 1, *s);
  int keep = !c->flt || pcol_filter_keep(c->flt, row);
  /* pprof's filters drop a sample without locations even when none is
   * given (profile/filter.go focusedAndNotIgnored): the relative total
   * leaves it out (the filter's own keep already does) */
  if (c->relative && *s == 0) keep = 0;
  c->neg |= *v;
  if (keep || !c->relative) c->total += *v < 0 ? -(pcol_sum)*v : *v; /* at most 2^64 samples of at most 2^63 */
  return keep;
}

static int add_sample(void *p, uint64_t row, int64_t num, int64_t den) {
  wctx *c = p;
  if (c->row_fn) { /* pcol_q_values_iter: every kept sample, zeros included */
    int64_t v = 0;
    int rc0 = sample_value(c, row, &v);
    if (rc0) return rc0;
    if (c->flt && !pcol_filter_keep(c->flt, row)) return 0;
    return c->row_fn(c->row_ctx, row, pcol_scale(v, num, den));
  }
  uint32_t s = 0;
  int64_t v;
  int r = sample_adds(c, row, num, den, &s, &v);
  if (r <= 0) return r;
  if (c->w64) /* wraps only when total passes INT64_MAX: then not kept */
    c->w64[s] = (int64_t)((uint64_t)c->w64[s] + (uint64_t)v);
  else
    c->w[s] += v;
  return 0;
}

/* add_sample's list (pcol_q_weights_sparse) */
static int add_pair(void *p, uint64_t row, int64_t num, int64_t den) {
  uint32_t s = 0;
  int64_t v;
  int r = sample_adds(p, row, num, den, &s, &v);
  return r <= 0 ? r : pair_add(p, s, v);
}

/* Every sample, weighted by its weight column: one tight loop (stack ids
 * were range-checked when their column was first used). */
static int weights_all_samples(wctx *c) {
  uint64_t one;
  int unit = pcol_view_const(&c->weight, &one) && one == 1; /* every weight 1 */
  pcol_sum *w = c->w, total = 0;
  int64_t neg = 0;
  uint64_t *w64 = (uint64_t *)c->w64; /* unsigned: a wrap is defined (see wctx) */
  uint64_t n = c->nsamples;
  /* w is indexed by stack node, in no order: on a profile of a million
   * distinct stacks every add misses the cache, so the node of a sample
   * PF rows ahead is prefetched (measured: the loop takes half the time).
   * The columns are read a block at a time: in place when plain, decoded
   * into the block's buffers when encoded (format 1.3). */
  enum { PF = 16, BLOCK = 4096 };
  uint32_t sbuf[BLOCK];
  int64_t wbuf[BLOCK];
  uint32_t *cnt = NULL;
  if (unit && n < UINT32_MAX && (cnt = calloc(c->nstacks + 1, sizeof *cnt))) {
    /* counted in 32-bit cells (a quarter of the memory the random adds
     * touch), widened after */
    for (uint64_t b = 0; b < n; b += BLOCK) {
      size_t k = n - b < BLOCK ? (size_t)(n - b) : BLOCK, m = k > PF ? k - PF : 0;
      const uint32_t *stack = pcol_view_span_u32(&c->stack, b, k, sbuf);
      for (size_t i = 0; i < m; i++) {
        __builtin_prefetch(&cnt[stack[i + PF]], 1);
        cnt[stack[i]]++;
      }
      for (size_t i = m; i < k; i++) cnt[stack[i]]++;
    }
    if (w64)
      for (uint64_t s = 0; s <= c->nstacks; s++) w64[s] = cnt[s];
    else
      for (uint64_t s = 0; s <= c->nstacks; s++) w[s] = cnt[s];
    free(cnt);
    total = (pcol_sum)n;
  } else {
    /* a weight column, or (rarely: no memory for cnt) unit weights */
    for (uint64_t b = 0; b < n; b += BLOCK) {
      size_t k = n - b < BLOCK ? (size_t)(n - b) : BLOCK, m = k > PF ? k - PF : 0;
      const uint32_t *stack = pcol_view_span_u32(&c->stack, b, k, sbuf);
      const int64_t *weight = pcol_view_span_i64(&c->weight, b, k, wbuf);
      for (size_t i = 0; i < k; i++) {
        int64_t v = weight[i];
        if (w64) {
          if (i < m) __builtin_prefetch(&w64[stack[i + PF]], 1);
          w64[stack[i]] += (uint64_t)v;
        } else {
          if (i < m) __builtin_prefetch(&w[stack[i + PF]], 1);
          w[stack[i]] += v;
        }
        total += v < 0 ? -(pcol_sum)v : v;
        neg |= v;
      }
    }
  }
  c->total = total;
  c->neg = neg;
  return PCOL_OK;
}

/* weights_all_samples for a list (pcol_q_weights_sparse): a pair a sample
 * whose weight is not 0, in sample order, as add_pair makes them for every
 * sample (unscaled: every sample is selected whole). */
static int weights_all_pairs(wctx *c) {
  enum { BLOCK = 4096 };
  uint32_t sbuf[BLOCK];
  int64_t wbuf[BLOCK];
  uint64_t n = c->nsamples;
  pcol_sum total = 0;
  int64_t neg = 0;
  for (uint64_t b = 0; b < n; b += BLOCK) {
    size_t k = n - b < BLOCK ? (size_t)(n - b) : BLOCK;
    const uint32_t *stack = pcol_view_span_u32(&c->stack, b, k, sbuf);
    const int64_t *weight = pcol_view_span_i64(&c->weight, b, k, wbuf);
    for (size_t i = 0; i < k; i++) {
      int64_t v = weight[i];
      if (v == 0) continue;
      total += v < 0 ? -(pcol_sum)v : v;
      neg |= v;
      int rc = pair_add(c, stack[i], v);
      if (rc) return rc;
    }
  }
  c->total = total;
  c->neg = neg;
  return PCOL_OK;
}

/* Every sample, the time rule's value (an Rprof source's default, F3): the
 * time of most samples is one number (the interval of their segment), so
 * those are counted per node in 32-bit cells, as weights_all_samples counts
 * unit weights, and scaled once at the end; a sample of another time (a
 * coalesced run, a second segment's interval, the last sample) is added as
 * it is.  Exact for any file: only the speed depends on the shape (measured
 * on the 10M-sample Rprof bench file: bench/analysis.md).  Returns 1 when it
 * cannot run (no memory for the counts): the caller takes the general path. */
static int weights_time_all(wctx *c) {
  uint64_t n = c->nsamples;
  if (n >= UINT32_MAX) return 1;
  uint32_t *cnt = calloc(c->nstacks + 1, sizeof *cnt);
  if (!cnt) return 1;
  if (c->rt.time.data) pcol_prefault_read(c->rt.time.data, n * sizeof(int64_t)); /* read whole */
  pcol_sum total = 0;
  int64_t common = 0, neg = 0; /* the first sample's time: the one counted in cnt */
  uint64_t *w64 = (uint64_t *)c->w64; /* unsigned: a wrap is defined (see wctx) */
  enum { PF = 16, BLOCK = 4096 };
  uint32_t sbuf[BLOCK];
  for (uint64_t b = 0; b < n; b += BLOCK) {
    size_t k = n - b < BLOCK ? (size_t)(n - b) : BLOCK; /* stack ids in place, or decoded */
    const uint32_t *stack = pcol_view_span_u32(&c->stack, b, k, sbuf);
    for (size_t j = 0; j < k; j++) {
      uint64_t i = b + j;
      if (j + PF < k) __builtin_prefetch(&cnt[stack[j + PF]], 1);
      int64_t v = pcol_rtime_time(&c->rt, i); /* THE time rule, inlined (a call a sample: 18% of top) */
      if (v == 0) continue;
      total += v < 0 ? -(pcol_sum)v : v;
      neg |= v;
      if (!common) common = v;
      uint32_t s = stack[j];
      if (v == common) cnt[s]++;
      else if (w64) w64[s] += (uint64_t)v;
      else c->w[s] += v;
    }
  }
  for (uint64_t s = 0; s <= c->nstacks; s++) {
    if (!cnt[s]) continue;
    if (w64) w64[s] += (uint64_t)cnt[s] * (uint64_t)common;
    else c->w[s] += (pcol_sum)cnt[s] * common;
  }
  free(cnt);
  c->total = total;
  c->neg = neg;
  return PCOL_OK;
}

/* The columns a value needs (each checked on first use, an O(rows) pass,
 * so the value columns are touched only when a value type is asked for).
 * On success the caller frees c->rt (wctx_free). */
static void wctx_free(wctx *c);
static int grouped_pass(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                        const pcol_value_sel *v, const uint8_t *src_ok, const uint8_t *ls_ok,
                        pcol_sum *total, uint8_t **nz, pcol_error *err);
static int grouped_total(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                         const pcol_value_sel *v, const uint8_t *src_ok, const uint8_t *ls_ok,
                         pcol_sum *total, pcol_error *err) {
  return grouped_pass(f, sel, flt, v, src_ok, ls_ok, total, NULL, err);
}
static int sums_grouped(const wctx *c, pcol_sum *total, uint8_t **nz, pcol_error *err);
static int diff_base_total(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                           const pcol_value_sel *v, const wctx *c, int *found, pcol_sum *total,
                           pcol_error *err);
static int wctx_init_(wctx *c, pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      pcol_error *err);
static int wctx_init(wctx *c, pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                     pcol_error *err) {
  int rc = wctx_init_(c, f, sel, v, err);
  if (rc) wctx_free(c);
  return rc;
}
static int wctx_init_(wctx *c, pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      pcol_error *err) {
  memset(c, 0, sizeof *c);
  PCOL_RETURN_NOT_OK(pcol_q_value_check(f, v, err));
  c->vt = v ? v->vt_id : 0;
  if (c->vt == PCOL_VT_WEIGHT) c->vt = 0, c->weight_asked = 1; /* the weight column as it is */
  else if (c->vt == 0) {                  /* "samples": is any row counted otherwise? */
    PCOL_RETURN_NOT_OK(pcol_count_types(f, &c->cvt, err));
    int any = 0;
    for (uint64_t s = 1; s <= pcol_rows(f, PCOL_T_SOURCES) && !any; s++) any = c->cvt[s] != 0;
    if (!any) {
      free(c->cvt);
      c->cvt = NULL;
    }
  }
  c->err = err;
  c->nstacks = pcol_rows(f, PCOL_T_STACKS);
  c->nvalues = pcol_rows(f, PCOL_T_VALUES);
  c->nsamples = pcol_rows(f, PCOL_T_SAMPLES);
  /* a time range reads the stacks of its rows only (format 1.4, zstd
   * blocks: the blocks that hold them, sample_adds) */
  c->f = f;
  c->lazy_stack = sel && (sel->has_from || sel->has_to) && pcol_column_lazy(f, PCOL_T_SAMPLES, PCOL_C_S_STACK);
  PCOL_RETURN_NOT_OK(c->lazy_stack ? pcol_column_rows(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, 0, 0, &c->stack, err)
                                   : pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &c->stack, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &c->weight, err));
  /* the time rule reads no stored value: their columns (and their
   * first-use checks, O(values)) are left alone */
  int stored = (c->vt && c->vt != PCOL_VT_TIME) || c->cvt;
  /* the unit rule's drop of the selected sources (go's ScaleN: a sample
   * whose scaled values are all 0 is gone, with its other values and its
   * count): with kin, every value asked for reads the samples' values */
  uint32_t *kn = NULL;
  double *kf = NULL;
  int asked = !(v && v->vt_id == PCOL_VT_WEIGHT), kin = 0;
  if (asked) PCOL_RETURN_NOT_OK(pcol_value_kin(f, &kn, &kf, err));
  kin = kn != NULL;
  free(kn);
  free(kf);
  stored |= kin;
  if (stored) {
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &c->voff, err));
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &c->vtype, err));
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &c->vval, err));
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &c->source, err));
  }
  if (c->vt == PCOL_VT_RPROF_ALLOC) {
    for (int k = 0; k < PCOL_Q_RPROF_ALLOC_NTYPES; k++) {
      pcol_value_sel t;
      PCOL_RETURN_NOT_OK(pcol_q_value_named(f, pcol_q_rprof_alloc_types[k], &t, err));
      c->alloc_vt[k] = t.vt_id;
    }
  }
  if (stored && c->voff.count != c->nsamples + 1)
    return pcol_error_set(err, PCOL_ECORRUPT, "sample value offsets have the wrong length");
  c->sc = (pcol_sample_cols){c->weight, c->voff, c->vtype, c->vval, c->nvalues, 0};
  pcol_sample_cols_dense(&c->sc);
  if (c->vt || c->cvt || kin) PCOL_RETURN_NOT_OK(pcol_rtime_init(&c->rt, f, err));
  if (kin) PCOL_RETURN_NOT_OK(pcol_rtime_drop_init(&c->rt, f, sel, err));
  /* a type of kin, or listed twice, read by its column: each source's
   * there (rd13a F2) */
  if (v && v->column && c->vt && c->vt != PCOL_VT_TIME) PCOL_RETURN_NOT_OK(pcol_rtime_pick_init(&c->rt, f, c->vt, v->column, err));
  return PCOL_OK;
}

static void wctx_free(wctx *c) {
  pcol_rtime_free(&c->rt);
  free(c->cvt);
  c->cvt = NULL;
}

int pcol_q_sample_values(pcol_file *f, const pcol_value_sel *v, int64_t *out, pcol_error *err) {
  wctx c;
  PCOL_RETURN_NOT_OK(wctx_init(&c, f, NULL, v, err));
  for (uint64_t i = 0; i < c.nsamples; i++) {
    int rc = sample_value(&c, i, &out[i]);
    if (rc) {
      wctx_free(&c);
      return rc;
    }
  }
  wctx_free(&c);
  return PCOL_OK;
}

int pcol_stack_weights(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                       pcol_sum **w_out, pcol_sum *total_abs, pcol_error *err) {
  pcol_filter flt;
  int rc = pcol_filter_build(f, sel, &flt, err);
  if (!rc) rc = pcol_q_weights(f, sel, &flt, v, w_out, total_abs, err);
  pcol_filter_free(&flt);
  return rc;
}

static int weights_run(wctx *cp, pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                       const pcol_value_sel *v, pcol_q_nsum *out, pcol_sum *total_abs,
                       pcol_error *err);

int pcol_q_values_iter(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                       const pcol_value_sel *v, int (*fn)(void *ctx, uint64_t row, int64_t value),
                       void *ctx, pcol_error *err) {
  return pcol_q_values_iter_need(f, sel, flt, v, NULL, 0, fn, ctx, err);
}

int pcol_q_values_iter_need(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                            const pcol_value_sel *v, const int *need, size_t nneed,
                            int (*fn)(void *ctx, uint64_t row, int64_t value), void *ctx,
                            pcol_error *err) {
  wctx c = {0};
  c.row_fn = fn;
  c.row_ctx = ctx;
  c.need = need;
  c.nneed = nneed;
  pcol_q_nsum w = {0};
  int rc = weights_run(&c, f, sel, flt, v, &w, NULL, err);
  pcol_q_nsum_free(&w);
  return rc;
}

int pcol_q_weights(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                   const pcol_value_sel *v, pcol_sum **w_out, pcol_sum *total_abs,
                   pcol_error *err) {
  wctx c = {0};
  pcol_q_nsum s = {0};
  int rc = weights_run(&c, f, sel, flt, v, &s, total_abs, err);
  *w_out = s.w128;
  return rc;
}

void pcol_q_nsum_free(pcol_q_nsum *s) {
  free(s->w64);
  free(s->w128);
  free(s->nonzero);
  s->w64 = NULL;
  s->w128 = NULL;
  s->nonzero = NULL;
}

int pcol_q_weights_nsum(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                        const pcol_value_sel *v, pcol_q_nsum *out, pcol_sum *total_abs,
                        pcol_error *err) {
  wctx c = {0};
  c.narrow = 1;
  c.want_nz = 1;
  pcol_sum total = 0;
  int rc = weights_run(&c, f, sel, flt, v, out, &total, err);
  if (!rc && out->w64 && c.total > INT64_MAX) { /* some sum may have wrapped: again, wide */
    pcol_q_nsum_free(out);
    memset(&c, 0, sizeof c);
    c.want_nz = 1;
    rc = weights_run(&c, f, sel, flt, v, out, &total, err);
  }
  /* (weights_run made it with the total, or the total was not grouped:
   * a base's, or the kept samples' differ from all under a filter) */
  if (!rc && c.neg < 0 && !out->nonzero)
    rc = grouped_pass(f, sel, flt && flt->active ? flt : NULL, v, NULL, NULL, NULL, &out->nonzero, err);
  if (total_abs) *total_abs = total;
  return rc;
}

/* Dense values (format 1.3: every sample has the same k types, value j
 * of sample r in lane j of the value column): the lane of c's stored type
 * as a view of one value a sample, *out; 0 when the values are not dense,
 * the type is none of them or a rule other than the stored value applies
 * (the count rule, the time rule, Rprof's alloc: with dense values every
 * sample has the type, so pcol_sample_value_rt gives the stored value). */
static int dense_values(const wctx *c, pcol_view *out) {
  if (!c->vt || c->vt == PCOL_VT_TIME || c->vt == PCOL_VT_RPROF_ALLOC || c->cvt ||
      !c->sc.dense_k)
    return 0;
  for (uint32_t j = 0; j < c->sc.dense_k; j++)
    if ((uint32_t)c->sc.vtype.lanes[j].base == c->vt) { /* the first, as pcol_sample_value */
      *out = (pcol_view){.count = c->nsamples, .type = PCOL_TYPE_I64, .nlanes = 1,
                         .lanes = &c->sc.vval.lanes[j]};
      return 1;
    }
  return 0;
}

static int weights_run(wctx *cp, pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                       const pcol_value_sel *v, pcol_q_nsum *out, pcol_sum *total_abs,
                       pcol_error *err) {
  wctx c;
  memset(out, 0, sizeof *out);
  PCOL_RETURN_NOT_OK(wctx_init(&c, f, sel, v, err));
  c.row_fn = cp->row_fn;
  c.row_ctx = cp->row_ctx;
  c.need = cp->need;
  c.nneed = cp->nneed;
  c.flt = flt && flt->active ? flt : NULL;
  c.relative = sel && sel->relative;
  c.pairs = cp->pairs;
  c.want_nz = cp->want_nz;
  /* one sum a stack node, written all over (pcol_alloc_hot) */
  if (c.nstacks + 1 > SIZE_MAX / sizeof *c.w) {
    wctx_free(&c);
    return pcol_oom(err);
  }
  if (c.pairs)
    ; /* a list, not a sum a node */
  else if (cp->narrow)
    c.w64 = pcol_alloc_hot((c.nstacks + 1) * sizeof *c.w64, 1);
  else
    c.w = pcol_alloc_hot((c.nstacks + 1) * sizeof *c.w, 1);
  if (!c.w && !c.w64 && !c.pairs) {
    wctx_free(&c);
    return pcol_oom(err);
  }
  int rc = 1;
  int unrestricted = !sel || (!sel->source_id && !sel->has_from && !sel->has_to);
  /* the common case: every sample whole, weighed by the weight column or by
   * the type's dense lane (then c.weight): one pass over the columns,
   * without a callback a row, for a sum a node and for a list alike (the
   * two modes of top read the same columns) */
  int columns = unrestricted && !c.flt && !c.row_fn && !c.relative && !c.rt.drop.src &&
                ((c.vt == 0 && !c.cvt) || dense_values(&c, &c.weight));
  if (c.pairs) { /* at most a pair a sample */
    c.pcap = c.nsamples && c.nsamples < UINT32_MAX ? c.nsamples : 1;
    c.pk = pcol_alloc_hot(c.pcap * sizeof *c.pk, 0); /* written through: faulted in at once */
    c.pv = pcol_alloc_hot(c.pcap * sizeof *c.pv, 0);
    if (!c.pk || !c.pv) c.pcap = 0; /* pair_add grows them */
    rc = columns ? weights_all_pairs(&c) : pcol_select_iter_filter(f, sel, NULL, add_pair, &c, err);
  }
  else if (columns)
    rc = weights_all_samples(&c);
  else if (!unrestricted || c.vt != PCOL_VT_TIME || c.flt || c.row_fn || c.relative || c.rt.drop.src ||
           (rc = weights_time_all(&c)) == 1)
    rc = pcol_select_iter_need(f, sel, NULL, c.need, c.nneed, add_sample, &c, err);
  /* a base subtracted: values that cannot be negated refused, in every
   * view (those that read rows one by one too), and pprof's total */
  int found = 0;
  pcol_sum base = 0;
  if (!rc)
    rc = diff_base_total(f, sel, flt && flt->active ? flt : NULL, v, &c, &found, c.row_fn ? NULL : &base, err);
  /* no base, but a value below 0 (a delta profile, or one a tool wrote so):
   * pprof merges the samples of one stack and label set before it adds up
   * |values| (profile.Merge, even of one profile), so +5 and -3 of one
   * stack add 2, not 8.  Without a negative value grouping changes nothing,
   * and is skipped (a second pass over the samples).  pcol_q_weights_nsum's
   * non-zero nodes come from the same groups when they are of the same
   * samples (no filter, or the relative total's: the kept ones). */
  if (!rc && !found && c.neg < 0 && total_abs && !c.row_fn && c.pairs)
    found = 1; /* a list: its caller (top_run) sums again per node, where
                * samples may cancel, and gets the grouped total there (a
                * pass of its own here read columns the other does not,
                * so one mode refused a damaged file the other read) */
  else if (!rc && !found && c.neg < 0 && total_abs && !c.row_fn) {
    const pcol_filter *tf = c.relative ? c.flt : NULL;
    uint8_t **nz = c.want_nz && tf == c.flt ? &c.nz : NULL;
    if ((rc = sums_grouped(&c, &base, nz, err)) == 1)
      rc = grouped_pass(f, sel, tf, v, NULL, NULL, &base, nz, err);
    found = 1;
  }
  wctx_free(&c);
  cp->total = c.total;
  cp->neg = c.neg;
  cp->pk = c.pk;
  cp->pv = c.pv;
  cp->npairs = c.npairs;
  if (rc) {
    free(c.w);
    free(c.w64);
    free(c.nz);
    return rc;
  }
  out->w128 = c.w;
  out->w64 = c.w64;
  out->nonzero = c.nz;
  out->grouped = found;
  if (total_abs) *total_abs = found ? base : c.total;
  return PCOL_OK;
}

/* pprof merges profiles (and the samples of one, profile.Merge) before it
 * adds up |values| (report.go computeTotal): samples of one stack and label
 * set are one, so a stack the base cancels adds nothing.  The sum over
 * (stack, label set) groups of |their sum|, of the samples whose source
 * src_ok marks and whose label set ls_ok marks (NULL: all).  A stack is
 * pprof's key of it (THE rule, lib/core/samplekey.h: a profile and a base
 * of two runs loaded at other addresses are one stack, rd15a F5), and a
 * label set its labels' (pcol_pprof_labelset_ids: a set stored twice is
 * one). */
typedef struct gsum {
  pcol_view st, ls, src;
  uint32_t *key; /* stack node -> pprof's key (pcol_pprof_stack_ids) */
  uint32_t *lsk; /* label set -> pprof's key (pcol_pprof_labelset_ids) */
  uint64_t nst;
  const uint8_t *src_ok, *ls_ok;
  uint64_t nsrc, nls;
  int relative; /* the relative total: no sample without locations (sample_adds) */
  pcol_u64map m;
  pcol_sum *s;
  size_t cap;
  pcol_error *err;
} gsum;

static int gsum_add(void *p, uint64_t row, int64_t v) {
  gsum *g = p;
  uint32_t ls = pcol_view_u32(&g->ls, row);
  if (g->src_ok) {
    uint32_t s = pcol_view_u32(&g->src, row);
    if (s > g->nsrc || !g->src_ok[s]) return 0;
  }
  if (g->ls_ok && (ls > g->nls || !g->ls_ok[ls])) return 0;
  uint32_t st = pcol_view_u32(&g->st, row);
  if (g->relative && st == 0) return 0;
  if (st > g->nst) return pcol_error_set(g->err, PCOL_ECORRUPT, "sample %llu names stack %u, out of range",
                                         (unsigned long long)row + 1, st);
  if (ls > g->nls) return pcol_error_set(g->err, PCOL_ECORRUPT, "sample %llu names label set %u, out of range",
                                         (unsigned long long)row + 1, ls);
  uint64_t key = (uint64_t)g->lsk[ls] << 32 | g->key[st];
  uint32_t i;
  int added, rc = pcol_u64map_get(&g->m, key, &i, &added);
  if (rc) return pcol_error_set(g->err, rc, "too many (stack, labels) groups for the total");
  while (i >= g->cap) {
    size_t had = g->cap;
    if (pcol_grow(&g->s, &g->cap, sizeof *g->s)) return pcol_oom(g->err);
    memset(g->s + had, 0, (g->cap - had) * sizeof *g->s);
  }
  g->s[i] += v;
  return 0;
}

/* the groups of g (its src_ok and ls_ok set, the rest 0) */
static int gsum_run(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                    const pcol_value_sel *v, gsum *g, pcol_error *err) {
  static const int need[] = {PCOL_C_S_STACK, PCOL_C_S_LABELSET, PCOL_C_S_SOURCE};
  g->err = err;
  g->relative = sel && sel->relative;
  g->nsrc = pcol_rows(f, PCOL_T_SOURCES);
  g->nls = pcol_rows(f, PCOL_T_LABELSETS);
  g->nst = pcol_rows(f, PCOL_T_STACKS);
  int lazy;
  uint32_t nkeys;
  int rc = pcol_pprof_stack_ids(f, &g->key, &nkeys, err);
  if (!rc) rc = pcol_pprof_labelset_ids(f, &g->lsk, &nkeys, err);
  if (!rc) rc = pcol_select_need_view(f, sel, need[0], &g->st, &lazy, err);
  if (!rc) rc = pcol_select_need_view(f, sel, need[1], &g->ls, &lazy, err);
  if (!rc) rc = pcol_select_need_view(f, sel, need[2], &g->src, &lazy, err);
  if (!rc) rc = pcol_q_values_iter_need(f, sel, flt, v, need, PCOL_NCOLS(need), gsum_add, g, err);
  return rc;
}

/* pprof's grouped total (*total) and pcol_q_nsum.nonzero (*nz: the stack
 * nodes of the (stack key, label set) groups whose sum is not 0: pprof merges
 * a profile's samples by stack and labels, then its graph skips a merged
 * sample of 0, so samples of one label set that cancel make no call, of
 * two label sets they do), of one pass over the groups; either may be NULL. */
static int grouped_pass(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                        const pcol_value_sel *v, const uint8_t *src_ok, const uint8_t *ls_ok,
                        pcol_sum *total, uint8_t **nz, pcol_error *err) {
  uint64_t ns = pcol_rows(f, PCOL_T_STACKS);
  uint8_t *z = NULL;
  if (nz && !(z = ns + 1 <= SIZE_MAX ? calloc(ns + 1, 1) : NULL)) return pcol_oom(err);
  gsum g;
  memset(&g, 0, sizeof g);
  g.src_ok = src_ok;
  g.ls_ok = ls_ok;
  int rc = gsum_run(f, sel, flt, v, &g, err);
  pcol_sum t = 0;
  for (size_t i = 0; !rc && total && i < g.m.n; i++) t += g.s[i] < 0 ? -g.s[i] : g.s[i];
  /* the nodes of the keys of a group not 0 (a key's nodes: one or more) */
  uint8_t *zk = z && !rc ? calloc(ns + 1, 1) : NULL;
  if (z && !rc && !zk) rc = pcol_oom(err);
  for (size_t i = 0; !rc && z && i < g.m.cap; i++) { /* the map's slots: key + 1, or 0 */
    if (!g.m.k[i]) continue;
    uint32_t k = (uint32_t)(g.m.k[i] - 1);
    if (g.s[g.m.v[i]] != 0 && k <= ns) zk[k] = 1;
  }
  for (uint64_t st = 0; !rc && z && st <= ns; st++) z[st] = zk[g.key[st]];
  free(zk);
  free(g.key);
  free(g.lsk);
  pcol_u64map_free(&g.m);
  free(g.s);
  if (rc) {
    free(z);
    return rc;
  }
  if (total) *total = t;
  if (nz) *nz = z;
  return PCOL_OK;
}

/* grouped_pass without a pass: in a file without label sets (every
 * sample's is 0: the reader checks ids against the table's rows) a group
 * is a stack node, and c's sums a node are the groups' sums when they are
 * of every sample (no filter, no relative total) and did not wrap.
 * Returns 1 when it cannot. */
static int sums_grouped(const wctx *c, pcol_sum *total, uint8_t **nz, pcol_error *err) {
  if (c->pairs || c->flt || c->relative || pcol_rows(c->f, PCOL_T_LABELSETS) != 0 ||
      (!c->w && !c->w64) || (c->w64 && c->total > INT64_MAX))
    return 1;
  /* (and when every node is its own pprof stack, samplekey.h) */
  uint32_t *key, nkeys;
  int rc = pcol_pprof_stack_ids(c->f, &key, &nkeys, err);
  if (rc) return rc;
  free(key);
  if (nkeys != c->nstacks) return 1;
  uint8_t *z = NULL;
  if (nz && !(z = calloc(c->nstacks + 1, 1))) return pcol_oom(err);
  pcol_sum t = 0;
  for (uint64_t n = 0; n <= c->nstacks; n++) {
    pcol_sum x = c->w64 ? c->w64[n] : c->w[n];
    t += x < 0 ? -x : x;
    if (z) z[n] = x != 0;
  }
  *total = t;
  if (nz) *nz = z;
  return PCOL_OK;
}

int pcol_q_normalize_unscaled(pcol_file *f, pcol_error *err) {
  uint32_t s;
  pcol_view sty;
  pcol_str st;
  PCOL_RETURN_NOT_OK(pcol_normalize_unscaled(f, &s, err));
  if (!s) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &sty, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&sty, s - 1), &st, err));
  return pcol_error_set(err, PCOL_ENOTFOUND,
                        "--normalize: source %u (%.*s) of the profile counts its samples by their "
                        "weight and stores no samples/count, so there is no count to normalize (go "
                        "tool pprof -normalize of its pprof copy refuses -sample_index=samples): "
                        "show a value it stores (--value TYPE), or leave out --normalize",
                        (unsigned)pcol_source_shown(f, s), (int)st.len, st.ptr ? st.ptr : "");
}

int pcol_q_count_shown(pcol_file *f, pcol_error *err) {
  uint32_t s;
  pcol_view uri;
  pcol_str u;
  PCOL_RETURN_NOT_OK(pcol_q_normalize_unscaled(f, err));
  PCOL_RETURN_NOT_OK(pcol_count_unmarked_diff(f, &s, err));
  if (!s) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&uri, s - 1), &u, err));
  int n = (int)pcol_utf8_cut(u.ptr, u.len, 200);
  return pcol_error_set(err, PCOL_ENOTFOUND,
                        "the value samples (" PCOL_VALUE_SAMPLES_GLOSS "): source %u (%.*s) is "
                        "a pprof profile without samples/count whose samples hold negative values, a "
                        "difference (go tool pprof -proto -base, which marks no base sample, or a "
                        "delta profile), whose rows are no raw samples to count (go tool pprof "
                        "refuses -sample_index=samples there): show a value it stores (--value TYPE), "
                        "or let pcol subtract the base (--base BASE), which counts it",
                        (unsigned)pcol_source_shown(f, s), n, u.ptr ? u.ptr : "");
}

/* go tool pprof's total (report.go computeTotal) where a base was
 * subtracted (base_kinds).  -diff_base: the |values| of the samples
 * labelled PCOL_DIFF_BASE_KEY = "true" alone, so shares are of the base
 * (when they add up to more than 0; else every sample's, as pprof); -base:
 * those of every sample; both grouped as pprof's merge groups them
 * (grouped_total).  Of the kept samples under -relative_percentages, of all
 * the selected ones else (pprof's total is the profile's before filters).
 * *found 0 when no source holds a base (the total stays the selection's).
 * Every view first asks (total NULL: only that): the weight column cannot
 * be subtracted (a number of raw samples, never negative), so it is
 * refused; "samples" of a source without a count type and an Rprof
 * source's time and memory are THE count rule's and the time rule's,
 * which negate a subtracted base's (pcol_count_types, pcol_rtime.base). */
static int diff_base_total(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                           const pcol_value_sel *v, const wctx *c, int *found, pcol_sum *total,
                           pcol_error *err) {
  *found = 0;
  const uint8_t *kind = NULL;
  PCOL_RETURN_NOT_OK(pcol_base_kinds(f, &kind, err));
  if (!kind[0]) return PCOL_OK;
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  for (uint64_t s = 1; s <= nsrc; s++)
    if ((kind[s] & 3) && c->weight_asked)
      return pcol_error_set(err, PCOL_ENOTFOUND,
                            "a base profile's values are subtracted, but the weight is the samples' "
                            "own column (raw samples, never negative), no value the profiles "
                            "measure: name one (--value TYPE, or samples), or compare the profiles' "
                            "shares with `pcol diff BASE PROFILE`");
  /* --normalize could not scale the value (pcol_open_diff_base: meta
   * PCOL_META_NORMALIZE_UNSCALED): refused, as go's -normalize of the pprof
   * copies refuses a count they do not hold */
  if (!c->weight_asked && c->vt == 0) PCOL_RETURN_NOT_OK(pcol_q_normalize_unscaled(f, err));
  if (!total) return PCOL_OK;
  const pcol_filter *kept = sel && sel->relative ? flt : NULL;
  int rc = PCOL_OK;
  if (kind[0] & 2) { /* -base: every sample, grouped */
    *found = 1;
    return grouped_total(f, sel, kept, v, NULL, NULL, total, err);
  }
  uint8_t *ls_ok = NULL, *src_ok = NULL;
  int labelled = 0;
  rc = pcol_q_diff_base_marks(f, &src_ok, &ls_ok, &labelled, err);
  pcol_sum t = 0;
  if (!rc && labelled) rc = grouped_total(f, sel, kept, v, src_ok, ls_ok, &t, err);
  if (!rc && t > 0) { /* pprof: the base's total when it is more than 0 */
    *found = 1;
    *total = t;
  }
  free(ls_ok);
  free(src_ok);
  return rc;
}

int pcol_q_diff_base_marks(pcol_file *f, uint8_t **src_ok, uint8_t **ls_ok, int *labelled,
                           pcol_error *err) {
  const uint8_t *kind = NULL;
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  *labelled = 0;
  *src_ok = *ls_ok = NULL;
  PCOL_RETURN_NOT_OK(pcol_base_kinds(f, &kind, err));
  uint8_t *so = calloc(nsrc + 1, 1), *lo = NULL;
  int rc = so ? PCOL_OK : pcol_oom(err);
  for (uint64_t s = 1; !rc && s <= nsrc; s++) so[s] = (kind[s] & 5) != 0; /* -diff_base: as subtracted (1) or as written (4) */
  if (!rc) rc = pcol_base_labelsets(f, &lo, labelled, err);
  if (rc) {
    free(so);
    free(lo);
    return rc;
  }
  *src_ok = so;
  *ls_ok = lo;
  return PCOL_OK;
}

int pcol_q_base_total(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                      const pcol_value_sel *v, int *found, pcol_sum *total, pcol_error *err) {
  wctx c;
  *found = 0;
  PCOL_RETURN_NOT_OK(wctx_init(&c, f, sel, v, err));
  int rc = diff_base_total(f, sel, flt && flt->active ? flt : NULL, v, &c, found, total, err);
  wctx_free(&c);
  return rc;
}

/* LSD radix sort of keys[0..n) on their bits [32, 32 + bits), stable
 * (tmp: room for n keys); the result is in keys. */
static void radix_hi(uint64_t *keys, uint64_t *tmp, size_t n, unsigned bits) {
  enum { B = 11 };
  uint32_t cnt[1u << B];
  for (unsigned sh = 0; sh < bits; sh += B) {
    memset(cnt, 0, sizeof cnt);
    for (size_t i = 0; i < n; i++) cnt[(keys[i] >> (32 + sh)) & ((1u << B) - 1)]++;
    uint32_t at = 0;
    for (size_t d = 0; d < (1u << B); d++) {
      uint32_t c = cnt[d];
      cnt[d] = at;
      at += c;
    }
    for (size_t i = 0; i < n; i++) tmp[cnt[(keys[i] >> (32 + sh)) & ((1u << B) - 1)]++] = keys[i];
    uint64_t *x = keys;
    keys = tmp;
    tmp = x;
  }
  if (((bits + B - 1) / B) % 2) memcpy(tmp, keys, n * sizeof *keys); /* back into the caller's */
}

void pcol_q_own_free(pcol_q_own *o) {
  free(o->node);
  free(o->w);
  memset(o, 0, sizeof *o);
}

int pcol_q_weights_sparse(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                          const pcol_value_sel *v, pcol_q_own *out, pcol_sum *total_abs,
                          pcol_error *err) {
  wctx c = {0};
  c.pairs = 1;
  pcol_q_nsum none = {0};
  pcol_sum total = 0;
  memset(out, 0, sizeof *out);
  int rc = weights_run(&c, f, sel, flt, v, &none, &total, err);
  if (total_abs) *total_abs = total;
  size_t n = c.npairs;
  uint64_t *tmp = NULL;
  int64_t *w = NULL;
  /* (stack << 32 | pair): already by stack when samples come in stack order
   * (a profile whose every sample made its own stack: then no sort, and the
   * sums are written over the values, at or before the pair they read) */
  int sorted = 1, big = 0;
  for (size_t i = 1; i < n && sorted; i++) sorted = c.pk[i - 1] >> 32 <= c.pk[i] >> 32;
  out->wide = c.total > INT64_MAX;
  out->grouped = none.grouped;
  if (!rc && n && !out->wide) { /* (else the caller sums per node, in 128 bits) */
    if (!sorted) big = !(tmp = pcol_alloc_hot(n * sizeof *tmp, 0));
    out->node = pcol_alloc_hot(n * sizeof *out->node, 0);
    if (big || !out->node) rc = pcol_oom(err);
  }
  if (!rc && n && out->node) {
    if (!sorted) { /* sorted by stack, pairs of one stack in order */
      uint64_t mx = 0;
      for (size_t i = 0; i < n; i++) mx = c.pk[i] > mx ? c.pk[i] : mx;
      unsigned bits = 0;
      while (bits < 32 && (mx >> (32 + bits))) bits++;
      radix_hi(c.pk, tmp, n, bits);
    }
    /* the sums go to a spare buffer (tmp after the sort, else the values
     * themselves): sums of |values| <= c.total fit in 64 bits */
    w = sorted ? c.pv : (int64_t *)tmp;
    size_t m = 0;
    for (size_t i = 0; i < n;) {
      uint32_t s = (uint32_t)(c.pk[i] >> 32);
      int64_t sum = 0;
      for (; i < n && (uint32_t)(c.pk[i] >> 32) == s; i++) sum += c.pv[(uint32_t)c.pk[i]];
      if (sum == 0) continue; /* as a node whose samples add up to 0: not touched */
      out->node[m] = s;
      w[m++] = sum;
    }
    out->w = w;
    out->n = m;
    if (sorted) c.pv = NULL; /* (now out->w) */
    else tmp = NULL;
  }
  free(tmp);
  free(c.pk);
  free(c.pv);
  if (rc) pcol_q_own_free(out);
  return rc;
}
