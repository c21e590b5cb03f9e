/* xvalues.c — THE rule for which values an export writes for a source, and
 * the derived value rprof.alloc (doc/mappings.md §0, "Export values").
 *
 * A source with declared value types and not Rprof: those types, each
 * additive.  An Rprof source, or one without value types ("derived"):
 * samples/count (the weight), cpu/nanoseconds by the time rule (count.c)
 * when it has an interval, and, for an Rprof source with the memory fields
 * vsize.small, vsize.large and nodes, rprof.alloc/bytes (the memory a
 * sample allocated, summaryRprof's mem.total; additive) and the three
 * fields themselves as levels (memory in use at the sample: a counter
 * track where the target has one, never a summed sample value).  pprof,
 * OTLP, speedscope and Firefox exports, and the views' --value
 * rprof.alloc, all take their values from here; the ClickHouse export
 * writes the stored values and takes rprof.alloc from here.
 *
 * rprof.alloc of a sample: max(0, d vsize.small) + max(0, d vsize.large) +
 * max(0, d nodes) against the previous sample row of the same source (0
 * for its first), as summaryRprof(memory = "both") sums it.  Cost: O(1) a
 * sample; init is one pass over value_types; a source's values cost its
 * own source_value_types rows (pcol_source_rows), not a scan of them all. */
#include "pcol.h"
#include "keys.h"     /* PCOL_SRC_RPROF, PCOL_UNIT_COUNT, PCOL_UNIT_NANOSECONDS, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK */
#include "bytes.h"    /* pcol_str_is */
#include "reader.h"   /* pcol_source_rows */
#include "select.h"   /* pcol_sample_value, pcol_sample_cols, pcol_sample_cols_init */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "count.h"    /* pcol_rtime, pcol_rtime_has, pcol_sample_count, ... */
#include "hash.h"     /* pcol_hset: the classes of the union's columns */
#include "xvalues.h"  /* PCOL_RALLOC_NTYPES, pcol_xvalues, pcol_ralloc_types, ... */
#include "wall.h"     /* pcol_selection_sources */
#include <stdio.h>
#include <inttypes.h> /* PRIu32 */
#include <math.h>   /* llround */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

const char *const pcol_ralloc_types[PCOL_RALLOC_NTYPES] = {RPROF_VT_SMALL, RPROF_VT_LARGE,
                                                          RPROF_VT_NODES};

int pcol_xvalues_init(pcol_xvalues *x, pcol_file *f, const pcol_rtime *rt, pcol_error *err) {
  memset(x, 0, sizeof *x);
  x->f = f;
  x->rt = rt;
  const pcol_column_req cols[] = {
      {&x->stype, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE},
      {&x->svs, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE},
      {&x->svv, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE},
      {&x->vtt, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE},
      {&x->vtu, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, cols, PCOL_NCOLS(cols), err));
  PCOL_RETURN_NOT_OK(pcol_sample_cols_init(&x->sc, f, err));
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_VALUE_TYPES); i++) {
    pcol_str t;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&x->vtt, i), &t, err));
    for (int k = 0; k < PCOL_RALLOC_NTYPES; k++)
      if (!x->alloc_vt[k] && t.ptr && pcol_str_is(t, pcol_ralloc_types[k])) x->alloc_vt[k] = (uint32_t)(i + 1);
  }
  return PCOL_OK;
}

static pcol_str lit(const char *s) { return (pcol_str){s, strlen(s)}; }

static int svt_twice(pcol_file *f, int *twice, pcol_error *err);

int pcol_xvalues_source(const pcol_xvalues *x, uint32_t src, pcol_xtype *out, size_t cap, size_t *n,
                        int *derived, pcol_error *err) {
  pcol_file *f = x->f;
  *n = 0;
  *derived = 0;
  if (src < 1 || src > pcol_rows(f, PCOL_T_SOURCES))
    return pcol_error_set(err, PCOL_ECORRUPT, "no source %u", src);
  pcol_str st;
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&x->stype, src - 1), &st, err));
  int rprof = st.ptr && pcol_str_is(st, PCOL_SRC_RPROF);
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  size_t declared = 0;
  unsigned has_mem = 0;
  const uint32_t *rows; /* the source's rows, from the file's index (a scan per source was quadratic) */
  size_t nrows;
  PCOL_RETURN_NOT_OK(pcol_source_rows(f, PCOL_T_SOURCE_VALUE_TYPES, src, &rows, &nrows, err));
  for (size_t i = 0; i < nrows; i++) {
    uint64_t r = rows[i];
    uint32_t vt = pcol_view_u32(&x->svv, r);
    if (vt == 0 || vt > nvt)
      return pcol_error_set(err, PCOL_ECORRUPT, "source_value_types row %llu names value type %u, out of range",
                            (unsigned long long)r + 1, vt);
    declared++;
    for (int k = 0; k < PCOL_RALLOC_NTYPES; k++) has_mem |= (unsigned)(vt == x->alloc_vt[k]) << k;
  }
#define XPUSH(...)                                                                               \
  do {                                                                                           \
    if (*n >= cap) return pcol_error_set(err, PCOL_EINVAL, "export values: no room");            \
    out[(*n)++] = (pcol_xtype){__VA_ARGS__};                                                     \
  } while (0)
  if (!rprof && declared) {
    /* which of the source's values of its type each is (a type listed
     * twice: only when a source of the file lists one, by a map of the
     * types met, not a scan of the earlier ones per type) */
    int twice = 0, rc = svt_twice(f, &twice, err);
    pcol_u64map seen = {0};
    uint32_t *cnt = !rc && twice ? calloc(nrows, sizeof *cnt) : NULL;
    if (!rc && twice && !cnt) rc = pcol_oom(err);
    for (size_t i = 0; !rc && i < nrows; i++) {
      uint32_t vt = pcol_view_u32(&x->svv, rows[i]), k = 0, nth = 0;
      int added;
      pcol_str t, u;
      if ((rc = pcol_string(f, pcol_view_u32(&x->vtt, vt - 1), &t, err)) ||
          (rc = pcol_string(f, pcol_view_u32(&x->vtu, vt - 1), &u, err)))
        break;
      if (cnt && (rc = pcol_u64map_get(&seen, vt, &k, &added))) {
        rc = rc == PCOL_ENOMEM ? pcol_oom(err) : pcol_error_set(err, rc, "export values: too many types");
        break;
      }
      if (cnt) nth = cnt[k]++;
      if (*n >= cap) rc = pcol_error_set(err, PCOL_EINVAL, "export values: no room");
      else out[(*n)++] = (pcol_xtype){vt, 0, t, u, nth};
    }
    free(cnt);
    pcol_u64map_free(&seen);
    return rc;
  }
  *derived = 1;
  XPUSH(0, 0, lit(PCOL_VT_SAMPLES), lit(PCOL_UNIT_COUNT), 0);
  if (x->rt && pcol_rtime_has(x->rt, src)) XPUSH(PCOL_VT_TIME, 0, lit(PCOL_VT_CPU), lit(PCOL_UNIT_NANOSECONDS), 0);
  if (rprof && has_mem == (1u << PCOL_RALLOC_NTYPES) - 1) {
    XPUSH(PCOL_VT_RPROF_ALLOC, 0, lit(PCOL_VALUE_RPROF_ALLOC), lit("bytes"), 0);
    for (int k = 0; k < PCOL_RALLOC_NTYPES; k++) {
      pcol_str t, u;
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&x->vtt, x->alloc_vt[k] - 1), &t, err));
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&x->vtu, x->alloc_vt[k] - 1), &u, err));
      XPUSH(x->alloc_vt[k], 1, t, u, 0);
    }
  }
#undef XPUSH
  return PCOL_OK;
}

int pcol_ralloc_value(const pcol_sample_cols *sc, const pcol_rtime *rt, const uint32_t vt[PCOL_RALLOC_NTYPES],
                      uint64_t row, int64_t *out) {
  *out = 0;
  if (rt->ralloc_vt && pcol_sample_value(sc, row, rt->ralloc_vt, out)) return PCOL_OK; /* stored */
  /* the first sample of its source, of a segment Rprof appended, or after
   * a sample without memory values (a segment not memory-profiled): the
   * levels before it are not its allocation */
  if (row == 0 || pcol_view_u32(&rt->source, row - 1) != pcol_view_u32(&rt->source, row) ||
      (rt->nseg && pcol_rtime_segment_start(rt, row)))
    return PCOL_OK;
  /* a subtracted base's source (rt->base): its levels were negated as its
   * other values: its allocation is that of the levels as recorded,
   * negated (THE count rule's sign, count.h) */
  uint32_t s = pcol_view_u32(&rt->source, row);
  int neg = rt->base && s <= rt->nsources && (rt->base[s] & 3);
  int64_t prev[PCOL_RALLOC_NTYPES];
  for (int k = 0; k < PCOL_RALLOC_NTYPES; k++) {
    if (!pcol_sample_value(sc, row - 1, vt[k], &prev[k])) return PCOL_OK;
    if (neg) prev[k] = prev[k] == INT64_MIN ? INT64_MAX : -prev[k];
  }
  for (int k = 0; k < PCOL_RALLOC_NTYPES; k++) {
    int64_t cur, d;
    (void)pcol_sample_value(sc, row, vt[k], &cur);
    if (neg) cur = cur == INT64_MIN ? INT64_MAX : -cur;
    if (__builtin_sub_overflow(cur, prev[k], &d)) { /* past the int64 range: an increase only when cur > prev */
      if (cur > prev[k]) return PCOL_ETOOBIG;
    } else if (d > 0 && __builtin_add_overflow(*out, d, out)) {
      return PCOL_ETOOBIG;
    }
  }
  if (neg) *out = -*out; /* (>= 0: no overflow) */
  return PCOL_OK;
}

int pcol_xvalue(const pcol_xvalues *x, const uint32_t *cvt, uint64_t row, uint32_t vt, int64_t *v,
                pcol_error *err) {
  if (vt == PCOL_VT_RPROF_ALLOC) {
    if (pcol_ralloc_value(&x->sc, x->rt, x->alloc_vt, row, v))
      return pcol_error_set(err, PCOL_ETOOBIG, "memory increase overflows at sample %llu",
                            (unsigned long long)row + 1);
    return PCOL_OK;
  }
  if (!vt) {
    uint32_t s = pcol_view_u32(&x->rt->source, row);
    *v = pcol_sample_count(&x->sc, row, cvt && s <= x->rt->nsources ? cvt[s] : 0);
    return PCOL_OK;
  }
  /* a derived source's time written as a stored cpu/nanoseconds
   * (--normalize's scaled copy, diffbase.c) is that one */
  if (vt == PCOL_VT_TIME && x->rt->cpu_vt && pcol_sample_value(&x->sc, row, x->rt->cpu_vt, v)) return PCOL_OK;
  (void)pcol_sample_value_rt(&x->sc, x->rt, row, vt, v);
  return PCOL_OK;
}

int pcol_xvalue_nth(const pcol_xvalues *x, const uint32_t *cvt, uint64_t row, uint32_t vt, uint32_t nth, int64_t *v,
                    pcol_error *err) {
  if (!nth || !vt || vt > pcol_rows(x->f, PCOL_T_VALUE_TYPES)) return pcol_xvalue(x, cvt, row, vt, v, err);
  if (!pcol_sample_value_nth(&x->sc, row, vt, nth, v)) *v = 0;
  return PCOL_OK;
}

void pcol_xskipped_add(pcol_xskipped *k, const pcol_xtype *t, uint32_t src) {
  size_t l = strlen(k->list);
  if (l < 240) /* the first few named, then "..." */
    snprintf(k->list + l, sizeof k->list - l, "%s%.*s/%.*s of source %u", k->n ? ", " : "",
             (int)pcol_utf8_cut(t->type.ptr, t->type.len, 48), t->type.ptr ? t->type.ptr : "",
             (int)pcol_utf8_cut(t->unit.ptr, t->unit.len, 24), t->unit.ptr ? t->unit.ptr : "", src);
  else if (!strstr(k->list, ", ..."))
    snprintf(k->list + l, sizeof k->list - l, ", ...");
  k->n++;
}

void pcol_xskipped_text(const pcol_xskipped *k, const char *why, char *out, size_t cap) {
  snprintf(out, cap, "%llu value type%s with negative amounts, which %s, not written: %s", (unsigned long long)k->n,
           k->n > 1 ? "s" : "", why, k->list);
}

/* ------------------------------------------------ the union of columns */

static int vstr_eq(pcol_str a, pcol_str b) { /* NA and "" are one: pprof's "" */
  return a.len == b.len && (!a.len || !memcmp(a.ptr, b.ptr, a.len));
}

/* The columns a value of (type, unit) may go to are those of its class:
 * its type and its unit or (kin) one of its family (pcol_unit_family; a
 * unit of none is its own class).  Matching is by class through a hash, a
 * unit parsed once per value, so a source of many types is near-linear
 * (a 112 KB pprof of 16000 types took 37 s by pairs: rd13a F8). */
typedef struct vclass {
  pcol_str type, unit; /* unit: of a unit of no family (else only family) */
  int fam;
  uint32_t *cols;      /* its columns, in order */
  size_t n, cap;
  uint64_t src;        /* the source whose values seen counts */
  size_t seen;
} vclass;
typedef struct vclasses {
  pcol_hset h;
  vclass *c;
  size_t n, cap;
  double *cfac;        /* each column's unit's factor in its family (0: none) */
  size_t capfac;
} vclasses;
typedef struct vkey {
  pcol_str type, unit;
  int fam;
} vkey;

static int vclass_eq(const void *ctx, uint32_t id, const void *key) {
  const vclass *c = &((const vclasses *)ctx)->c[id - 1];
  const vkey *k = key;
  return c->fam == k->fam && vstr_eq(c->type, k->type) && (k->fam || vstr_eq(c->unit, k->unit));
}

static void vclasses_free(vclasses *v) {
  for (size_t i = 0; i < v->n; i++) free(v->c[i].cols);
  free(v->c);
  free(v->cfac);
  pcol_hset_free(&v->h);
}

/* The class of (type, unit): fam its family when kin (else 0) */
static int vclass_of(vclasses *v, pcol_str type, pcol_str unit, int fam, vclass **out, pcol_error *err) {
  vkey k = {type, unit, fam};
  pcol_hstate hs;
  pcol_hs_init(&hs, 0x7663);
  pcol_hs_add(&hs, pcol_hash_keyed(type.ptr ? type.ptr : "", type.len));
  pcol_hs_add(&hs, fam ? (uint64_t)fam : pcol_hash_keyed(unit.ptr ? unit.ptr : "", unit.len));
  uint64_t h = pcol_hs_end(&hs);
  uint32_t id = pcol_hset_find(&v->h, h, vclass_eq, v, &k);
  if (!id) {
    if (v->n >= UINT32_MAX - 1 || PCOL_GROW(v->c, v->n, v->cap)) return pcol_oom(err);
    v->c[v->n++] = (vclass){type, unit, fam, NULL, 0, 0, 0, 0};
    id = (uint32_t)v->n;
    if (pcol_hset_insert(&v->h, h, id)) return pcol_oom(err);
  }
  *out = &v->c[id - 1];
  return PCOL_OK;
}

/* The column for the occ-th (0-based) occurrence of (type, unit) (factor:
 * its unit's in class c's family) in a source, appended where none is
 * left; a finer kin unit becomes its column's */
static int vunion_column(pcol_vunion *u, vclasses *v, vclass *c, pcol_str type, pcol_str unit, double factor,
                         size_t occ, uint32_t *col, pcol_error *err) {
  if (occ < c->n) {
    uint32_t i = c->cols[occ];
    if (c->fam && factor > 0 && factor < v->cfac[i] && !vstr_eq(u->cols[i].unit, unit)) {
      u->cols[i].unit = unit; /* the finer: the column's (of two as fine, the first) */
      v->cfac[i] = factor;
    }
    *col = i;
    return PCOL_OK;
  }
  while (c->n <= occ) { /* occ - n columns short */
    if (u->ncols >= UINT32_MAX || PCOL_GROW(u->cols, u->ncols, u->capcols) || PCOL_GROW(c->cols, c->n, c->cap))
      return pcol_oom(err);
    if (u->ncols >= v->capfac) {
      double *g = realloc(v->cfac, (u->ncols + 1) * 2 * sizeof *g);
      if (!g) return pcol_oom(err);
      v->cfac = g, v->capfac = (u->ncols + 1) * 2;
    }
    v->cfac[u->ncols] = factor;
    c->cols[c->n++] = (uint32_t)u->ncols;
    u->cols[u->ncols++] = (pcol_vcol){type, unit};
  }
  *col = c->cols[occ];
  return PCOL_OK;
}

/* What a value in a decimal unit of time finer than a ns is divided by to
 * be in nanoseconds (10^k); 1 for any other unit, written as stored (a
 * Perun amount in "1e-1 ms" too: in ns it could pass 64 bits). */
static int64_t ns_divisor(pcol_str unit) {
  const char *us;
  if (!pcol_unit_decimals(unit, NULL)) return 1;
  double v = pcol_unit_scale(1, unit, "ns", &us);
  return strcmp(us, "ns") || !(v > 0 && v < 1) ? 1 : (int64_t)llround(1 / v);
}

/* 1 when a row of a count_fill source weighs other than 1: its weight is a
 * count the file holds (a Firefox profile's samples weights or pcolCount:
 * pprof -> firefox -> pprof kept cpu and lost samples/count, review 12 F6),
 * not one row each (a heap profile's rows, whose count no view shows).
 * *neg 1 (it is then held) when one weighs less than 0: a -diff_base's
 * base sample as written (a pprof file's pprof::base, -1 each; a Firefox
 * pcolBase), whose count column goes first as a subtracted base's. */
static int counts_held(pcol_file *f, const pcol_vunion *u, int *held, int *neg, pcol_error *err) {
  pcol_view so, w;
  *held = 0;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &so, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &w, err));
  uint64_t n = pcol_rows(f, PCOL_T_SAMPLES);
  for (uint64_t r = 0; r < n && !*neg; r++) {
    uint32_t s = pcol_view_u32(&so, r);
    int64_t x = pcol_view_i64(&w, r);
    if (s < 1 || s > u->nsrc || !u->src[s - 1].count_fill) continue;
    *held |= x != 1;
    *neg = x < 0; /* a -diff_base's base as written (pprof::base, weight -1) */
  }
  return PCOL_OK;
}

/* The samples/count column for the stored sources without one */
static int vunion_count(const pcol_xvalues *x, const pcol_select *sel, pcol_vunion *u, pcol_error *err) {
  uint32_t *cvt = NULL, dflt = 0;
  PCOL_RETURN_NOT_OK(pcol_count_types(x->f, &cvt, err));
  int need = 0, neg = 0; /* neg: a subtracted base's count (THE count rule), not one row each */
  for (uint64_t s = 1; s <= u->nsrc; s++) {
    pcol_vsrc *vs = &u->src[s - 1];
    vs->count_fill = vs->involved && !vs->derived && !pcol_count_vt(cvt[s]);
    need |= vs->count_fill;
    neg |= vs->count_fill && cvt[s] == PCOL_COUNT_NEG;
  }
  free(cvt);
  /* no column of the count where --normalize could not scale the
   * profile's (go's -normalize of the pprof copies has none) */
  uint32_t unscaled;
  if (neg) PCOL_RETURN_NOT_OK(pcol_normalize_unscaled(x->f, &unscaled, err));
  if (neg && unscaled) neg = 0;
  if (!need) return PCOL_OK;
  pcol_str t = lit(PCOL_VT_SAMPLES), un = lit(PCOL_UNIT_COUNT);
  size_t c = 0;
  while (c < u->ncols && !(vstr_eq(u->cols[c].type, t) && vstr_eq(u->cols[c].unit, un))) c++;
  if (c == u->ncols) {
    int held;
    PCOL_RETURN_NOT_OK(pcol_selection_default_type(x->f, sel, &dflt, NULL, err));
    PCOL_RETURN_NOT_OK(counts_held(x->f, u, &held, &neg, err));
    if (dflt && !held && !neg) need = 0; /* no column of the count, no view shows it by default, and it is the rows */
    else if (PCOL_GROW(u->cols, u->ncols, u->capcols)) return pcol_oom(err);
    else if (neg) { /* a subtracted base's: the first column (THE count column rule, xvalues.h) */
      memmove(u->cols + 1, u->cols, u->ncols * sizeof *u->cols);
      u->cols[0] = (pcol_vcol){t, un};
      u->ncols++, u->count_added = 1, c = 0;
      for (uint64_t s = 1; s <= u->nsrc; s++)
        for (size_t k = 0; k < u->src[s - 1].n; k++) u->src[s - 1].col[k]++;
    } else {
      u->cols[u->ncols++] = (pcol_vcol){t, un};
      u->count_added = 1;
    }
  }
  for (uint64_t s = 1; s <= u->nsrc; s++) {
    u->src[s - 1].count_fill &= need;
    u->src[s - 1].count_col = (uint32_t)c;
  }
  return PCOL_OK;
}

void pcol_vunion_free(pcol_vunion *u) {
  for (uint64_t s = 0; u->src && s < u->nsrc; s++) {
    free(u->src[s].vt);
    free(u->src[s].col);
    free(u->src[s].div);
    free(u->src[s].fill);
    free(u->src[s].unit);
  }
  free(u->src);
  free(u->cols);
  memset(u, 0, sizeof *u);
}

int pcol_vunion_make(const pcol_xvalues *x, const pcol_select *sel, int kin, pcol_vunion *u, pcol_error *err) {
  memset(u, 0, sizeof *u);
  u->nsrc = pcol_rows(x->f, PCOL_T_SOURCES);
  u->src = calloc(u->nsrc + 1, sizeof *u->src);
  if (!u->src) return pcol_oom(err);
  pcol_xtype *xt = NULL;
  size_t cap = 0;
  int rc = PCOL_OK;
  vclasses vc;
  memset(&vc, 0, sizeof vc);
  for (uint64_t s = 1; !rc && s <= u->nsrc; s++) {
    pcol_vsrc *vs = &u->src[s - 1];
    vs->involved = !sel || !sel->source_id || sel->source_id == s;
    if (!vs->involved) continue;
    const uint32_t *rows;
    size_t n, nxt;
    if ((rc = pcol_source_rows(x->f, PCOL_T_SOURCE_VALUE_TYPES, (uint32_t)s, &rows, &n, err))) break;
    if (n + PCOL_XV_MAX > cap) {
      pcol_xtype *g = realloc(xt, (n + PCOL_XV_MAX) * sizeof *g);
      if (!g) {
        rc = pcol_oom(err);
        break;
      }
      xt = g, cap = n + PCOL_XV_MAX;
    }
    if ((rc = pcol_xvalues_source(x, (uint32_t)s, xt, cap, &nxt, &vs->derived, err))) break;
    vs->vt = malloc((nxt + 1) * sizeof *vs->vt);
    vs->col = malloc((nxt + 1) * sizeof *vs->col);
    vs->div = malloc((nxt + 1) * sizeof *vs->div);
    vs->fill = calloc(nxt + 1, sizeof *vs->fill);
    vs->unit = calloc(nxt + 1, sizeof *vs->unit);
    if (!vs->vt || !vs->col || !vs->div || !vs->fill || !vs->unit) {
      rc = pcol_oom(err);
      break;
    }
    for (size_t k = 0; !rc && k < nxt; k++) {
      if (xt[k].level) continue; /* Rprof's memory levels are not additive */
      pcol_str un = xt[k].unit;
      vs->div[vs->n] = vs->derived ? 1 : ns_divisor(un);
      if (vs->div[vs->n] > 1) un = lit(PCOL_UNIT_NANOSECONDS);
      double fac = 0;
      int fam = kin ? pcol_unit_family(un, &fac) : 0;
      vclass *c = NULL;
      if ((rc = vclass_of(&vc, xt[k].type, un, fam, &c, err))) break;
      /* its occurrence: the source's earlier values of its class (its
       * type, its unit or, kin, one of its family): inside one profile
       * two sample types never merge (go scales across profiles,
       * ScaleProfiles pairing them by position), so inuse_space in
       * kilobytes and in bytes of one source are two columns (rd12a F3).
       * (A derived value is never repeated.) */
      if (c->src != s) c->src = s, c->seen = 0;
      size_t occ = vs->derived ? 0 : c->seen++;
      vs->vt[vs->n] = xt[k].vt;
      vs->unit[vs->n] = un;
      vs->fill[vs->n] = fac; /* (its factor, until the columns are known) */
      rc = vunion_column(u, &vc, c, xt[k].type, un, fac, occ, &vs->col[vs->n], err);
      vs->n++;
    }
  }
  free(xt);
  /* each value in a kin unit of its column's scaled into it (the column's
   * unit, the finest, is known once every source is in): by the ratio of
   * their factors (measurement.Scale(1, unit, column's)) where it is not 1,
   * as go's ScaleN scales (and drops) only where ratio != 1: "kB" beside
   * "kilobytes" is the same unit spelled otherwise (rd13a F4) */
  for (uint64_t s = 1; !rc && s <= u->nsrc; s++)
    for (size_t k = 0; k < u->src[s - 1].n; k++) {
      pcol_vsrc *vs = &u->src[s - 1];
      double f = vs->fill[k], cf = vc.cfac[vs->col[k]];
      vs->fill[k] = kin && f > 0 && cf > 0 && f / cf != 1 ? f / cf : 0;
    }
  vclasses_free(&vc);
  return rc ? rc : vunion_count(x, sel, u, err);
}

int pcol_vunion_drop(const pcol_vunion *u, pcol_unit_drop *d, pcol_error *err) {
  memset(d, 0, sizeof *d);
  int any = 0;
  uint64_t n = 0;
  for (uint64_t s = 1; s <= u->nsrc; s++) {
    const pcol_vsrc *vs = &u->src[s - 1];
    for (size_t k = 0; vs->involved && !vs->derived && k < vs->n; k++) any |= vs->fill[k] != 0;
    n += vs->involved && !vs->derived ? vs->n : 0;
  }
  if (!any) return PCOL_OK;
  d->src = calloc(u->nsrc + 1, 1);
  d->off = calloc(u->nsrc + 1, sizeof *d->off);
  d->vt = malloc((n + 1) * sizeof *d->vt);
  d->scaled = malloc(n + 1);
  if (!d->src || !d->off || !d->vt || !d->scaled) {
    pcol_unit_drop_free(d);
    return pcol_oom(err);
  }
  d->nsrc = u->nsrc;
  uint64_t i = 0;
  for (uint64_t s = 1; s <= u->nsrc; s++) { /* each source's values in order, each one's column's fill */
    const pcol_vsrc *vs = &u->src[s - 1];
    for (size_t k = 0; vs->involved && !vs->derived && k < vs->n; k++, i++) {
      d->vt[i] = vs->vt[k];
      d->scaled[i] = vs->fill[k] != 0;
      d->src[s] |= d->scaled[i];
    }
    d->off[s] = i;
  }
  return PCOL_OK;
}

int pcol_vunion_positions(const pcol_vunion *u, pcol_vpos *p, pcol_error *err) {
  memset(p, 0, sizeof *p);
  uint64_t n = 0;
  for (uint64_t s = 1; s <= u->nsrc; s++) n += !u->src[s - 1].derived ? u->src[s - 1].n : 0;
  p->off = calloc(u->nsrc + 1, sizeof *p->off);
  p->vt = malloc((n + 1) * sizeof *p->vt);
  p->col = malloc((n + 1) * sizeof *p->col);
  if (!p->off || !p->vt || !p->col) {
    pcol_vpos_free(p);
    return pcol_oom(err);
  }
  p->nsrc = u->nsrc, p->ncols = u->ncols;
  uint64_t i = 0;
  for (uint64_t s = 1; s <= u->nsrc; s++) { /* (a derived source's values are not stored types) */
    const pcol_vsrc *vs = &u->src[s - 1];
    for (size_t k = 0; !vs->derived && k < vs->n; k++, i++) p->vt[i] = vs->vt[k], p->col[i] = vs->col[k];
    p->off[s] = i;
  }
  return PCOL_OK;
}

void pcol_vpos_free(pcol_vpos *p) {
  free(p->off);
  free(p->vt);
  free(p->col);
  memset(p, 0, sizeof *p);
}

/* The types of source s (its rows of source_value_types) in order:
 * *rows, *n (pcol_source_rows) */
static int kin_rows(pcol_file *f, uint64_t s, const uint32_t **rows, size_t *n, pcol_error *err) {
  return pcol_source_rows(f, PCOL_T_SOURCE_VALUE_TYPES, (uint32_t)s, rows, n, err);
}

/* 1 when a source of f lists a value type twice (cached: O(source value
 * types + value types) once, then O(1) for a view per source) */
static int svt_twice(pcol_file *f, int *twice, pcol_error *err) {
  int k = atomic_load(&f->svt_twice);
  if (k) {
    *twice = k == 2;
    return PCOL_OK;
  }
  pcol_view ss, sv;
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err));
  uint32_t *last = calloc(nvt + 1, sizeof *last); /* the last source seen listing type t */
  if (!last) return pcol_oom(err);
  *twice = 0;
  for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES) && !*twice; r++) {
    uint32_t s = pcol_view_u32(&ss, r), t = pcol_view_u32(&sv, r);
    if (!s || t < 1 || t > nvt) continue;
    *twice = last[t] == s;
    last[t] = s;
  }
  free(last);
  atomic_store(&f->svt_twice, *twice ? 2 : 1);
  return PCOL_OK;
}

int pcol_kin_column(pcol_file *f, const pcol_select *sel, uint32_t vt, const uint32_t *own, const uint64_t *own_place,
                    uint32_t *col, pcol_error *err) {
  *col = 0;
  uint32_t *kn = NULL;
  double *kf = NULL;
  uint8_t *keep = NULL, *ring = NULL;
  pcol_view sv;
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES), nsrc = pcol_rows(f, PCOL_T_SOURCES);
  if (vt < 1 || vt > nvt) return PCOL_OK;
  int rc = pcol_value_kin(f, &kn, &kf, err), twice = 1;
  if (!rc && (!kn || !kn[vt])) rc = svt_twice(f, &twice, err);
  if (!rc && !twice) goto done; /* no kin, no type twice: a type is its column */
  if (!rc) rc = pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err);
  if (!rc) rc = pcol_selection_sources(f, sel, &keep, err);
  if (!rc && !(ring = calloc(nvt + 1, 1))) rc = pcol_oom(err);
  if (!rc) ring[vt] = 1; /* vt's kin, or vt alone (a type listed twice: its places) */
  for (uint32_t k = kn ? kn[vt] : 0; !rc && k && !ring[k]; k = kn[k]) ring[k] = 1;
  int multi = 0, agree = 1;
  uint64_t occ = UINT64_MAX;
  for (uint64_t s = 1; !rc && s <= nsrc; s++) {
    const uint32_t *rows;
    size_t n, m = 0;
    if (!keep[s] || (rc = kin_rows(f, s, &rows, &n, err))) continue;
    uint64_t o = own ? UINT64_MAX : 0;
    for (size_t i = 0; i < n; i++) {
      uint32_t t = pcol_view_u32(&sv, rows[i]);
      if (t < 1 || t > nvt || !ring[t]) continue;
      uint64_t at = own_place ? own_place[s] : PCOL_PLACE_FIRST;
      if (own && t == own[s] && (at < PCOL_PLACE_LAST ? i == at : o == UINT64_MAX || at == PCOL_PLACE_LAST)) o = m;
      m++;
    }
    multi |= m > 1;
    if (m && o != UINT64_MAX) {
      if (occ != UINT64_MAX && o != occ) agree = 0;
      occ = o;
    }
  }
  if (!rc && multi && agree && occ < UINT32_MAX) *col = (uint32_t)occ + 1;
done:
  free(kn);
  free(kf);
  free(keep);
  free(ring);
  return rc;
}

/* 1 when value types a and b (ids in range) have one name */
static int same_type_name(pcol_file *f, uint32_t a, uint32_t b, int *same, pcol_error *err) {
  pcol_view ty;
  pcol_str x, y;
  *same = a == b;
  if (*same) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, a - 1), &x, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, b - 1), &y, err));
  *same = x.ptr && y.ptr && pcol_str_same(x, y);
  return PCOL_OK;
}

int pcol_kin_default_column(pcol_file *f, const pcol_select *sel, uint32_t vt, uint32_t *col, pcol_error *err) {
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES);
  *col = 0;
  if (!vt || vt > pcol_rows(f, PCOL_T_VALUE_TYPES) || n < 1 || n >= UINT32_MAX) return PCOL_OK;
  /* no selected source lists vt's kin (or vt) twice: a type is its column,
   * without the places' scan (uncached: a view per source of 80,000 was
   * quadratic, t_many) */
  PCOL_RETURN_NOT_OK(pcol_kin_column(f, sel, vt, NULL, NULL, col, err));
  if (!*col) return PCOL_OK;
  *col = 0;
  uint32_t *d = calloc((size_t)n + 1, sizeof *d);
  uint8_t *how = calloc((size_t)n + 1, 1), *keep = NULL;
  uint64_t *at = malloc(((size_t)n + 1) * sizeof *at);
  int rc = d && how && at ? pcol_source_default_places(f, 1, (uint32_t)n, d + 1, how + 1, err) : pcol_oom(err);
  if (!rc) rc = pcol_selection_sources(f, sel, &keep, err);
  /* go's merge (combineHeaders) keeps the first default_sample_type its
   * inputs state (in their order), and SampleIndexByName reads that name's
   * FIRST column in every profile, the last where none states one (rd15a
   * F1: a profile naming inuse_space beside one naming none, each listing
   * it in kilobytes then in bytes, read each one's own place: 24B, go's
   * 14336B) */
  uint64_t s0 = 0;
  for (uint64_t s = 1; !rc && s <= n && !s0; s++)
    if (keep[s] && (how[s] == PCOL_DPLACE_NAMED || how[s] == PCOL_DPLACE_UNLISTED)) s0 = s;
  int first = 0;
  if (!rc && s0 && how[s0] == PCOL_DPLACE_NAMED) rc = same_type_name(f, vt, d[s0], &first, err);
  if (!rc && first) rc = pcol_kin_column(f, sel, vt, NULL, NULL, col, err); /* the first of that name */
  for (uint64_t s = 0; !rc && !first && s <= n; s++) /* none named: the last; else each one's (a name not vt's) */
    at[s] = how[s] == PCOL_DPLACE_LAST || how[s] == PCOL_DPLACE_UNLISTED || (s0 && how[s0] == PCOL_DPLACE_UNLISTED)
                ? PCOL_PLACE_LAST
                : PCOL_PLACE_FIRST;
  if (!rc && !first) rc = pcol_kin_column(f, sel, vt, d, at, col, err);
  free(d);
  free(how);
  free(keep);
  free(at);
  return rc;
}

int pcol_export_pick_make(const pcol_rtime *rt, pcol_file *f, const pcol_select *sel, int asked, uint32_t vt,
                          uint32_t col, pcol_kin_pick *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  if (!asked) {
    col = 0;
    PCOL_RETURN_NOT_OK(pcol_selection_default_type(f, sel, &vt, NULL, err));
    PCOL_RETURN_NOT_OK(pcol_kin_default_column(f, sel, vt, &col, err));
  }
  PCOL_RETURN_NOT_OK(pcol_kin_pick_make(rt, f, vt, col, out, err));
  if (!asked) out->dflt = vt;
  return PCOL_OK;
}

int pcol_export_source_default(pcol_file *f, const pcol_kin_pick *p, uint32_t s, uint32_t *vt, pcol_error *err) {
  PCOL_RETURN_NOT_OK(pcol_source_default_types(f, s, s, vt, err));
  if (!p->dflt || *vt == p->dflt) return PCOL_OK;
  const uint32_t *rows;
  size_t n;
  pcol_view sv;
  PCOL_RETURN_NOT_OK(kin_rows(f, s, &rows, &n, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err));
  for (size_t i = 0; i < n; i++)
    if (pcol_view_u32(&sv, rows[i]) == p->dflt) {
      *vt = p->dflt;
      break;
    }
  return PCOL_OK;
}

int pcol_rtime_pick_init(pcol_rtime *rt, pcol_file *f, uint32_t vt, uint32_t col, pcol_error *err) {
  pcol_kin_pick p;
  PCOL_RETURN_NOT_OK(pcol_kin_pick_make(rt, f, vt, col, &p, err));
  free(rt->pick.src);
  rt->pick = p;
  return PCOL_OK;
}

int pcol_kin_pick_make(const pcol_rtime *rt, pcol_file *f, uint32_t vt, uint32_t col, pcol_kin_pick *out,
                       pcol_error *err) {
  memset(out, 0, sizeof *out);
  if (!col || vt < 1 || vt > rt->nvt) return PCOL_OK;
  pcol_view sv;
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  uint8_t *ring = calloc(rt->nvt + 1, 1);
  struct pcol_kin_src *ps = calloc(nsrc + 1, sizeof *ps);
  int rc = ring && ps ? pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err) : pcol_oom(err);
  if (!rc) ring[vt] = 1; /* vt's kin, or vt alone (a type listed twice) */
  for (uint32_t k = rt->kin_next ? rt->kin_next[vt] : 0; !rc && k && !ring[k]; k = rt->kin_next[k]) ring[k] = 1;
  size_t most = 0; /* the most types of the kin a source lists */
  int any = 0;
  for (uint64_t s = 1; !rc && s <= nsrc; s++) {
    const uint32_t *rows;
    size_t n, m = 0;
    if ((rc = kin_rows(f, s, &rows, &n, err))) break;
    for (size_t i = 0; i < n && !ps[s - 1].vt; i++) {
      uint32_t t = pcol_view_u32(&sv, rows[i]);
      if (t < 1 || t > rt->nvt || !ring[t] || ++m < col) continue;
      ps[s - 1].vt = t; /* the source's col-th type of the kin, the nth of its own type */
      for (size_t j = 0; j < i; j++) ps[s - 1].nth += pcol_view_u32(&sv, rows[j]) == t;
      ps[s - 1].ratio = t == vt || !rt->kin_factor ? 1 : rt->kin_factor[t] / rt->kin_factor[vt];
    }
    any |= ps[s - 1].vt != 0;
    most = m > most ? m : most;
  }
  /* a column no source has (pcol_value_sel.column past them all: a
   * selection made by hand, its 1.1 padding left unset; rd15a F4) is
   * refused: its view was a total of 0, status OK */
  if (!rc && !any)
    rc = pcol_error_set(err, PCOL_EINVAL, "value column %" PRIu32 " of value type %" PRIu32 ": no source "
                        "lists more than %zu types of its name in units of its family (a pcol_value_sel "
                        "made by hand, its column not zeroed, or resolved on another file?)", col, vt, most);
  free(ring);
  if (rc) {
    free(ps);
    return rc;
  }
  *out = (pcol_kin_pick){vt, ps, nsrc, 0};
  return PCOL_OK;
}

int pcol_rtime_drop_init(pcol_rtime *rt, pcol_file *f, const pcol_select *sel, pcol_error *err) {
  if (!rt->kin_next || rt->drop.src) return PCOL_OK;
  pcol_xvalues x;
  pcol_vunion u;
  memset(&u, 0, sizeof u);
  int rc = pcol_xvalues_init(&x, f, rt, err);
  if (!rc) rc = pcol_vunion_make(&x, sel, 1, &u, err);
  if (!rc) rc = pcol_vunion_drop(&u, &rt->drop, err);
  pcol_vunion_free(&u);
  return rc;
}
