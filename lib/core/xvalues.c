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
#include "xvalues.h"  /* PCOL_RALLOC_NTYPES, pcol_xvalues, pcol_ralloc_types, ... */
#include <stdio.h>
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
    for (size_t i = 0; i < nrows; i++) {
      uint32_t vt = pcol_view_u32(&x->svv, rows[i]);
      pcol_str t, u;
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&x->vtt, vt - 1), &t, err));
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&x->vtu, vt - 1), &u, err));
      XPUSH(vt, 0, t, u);
    }
    return PCOL_OK;
  }
  *derived = 1;
  XPUSH(0, 0, lit(PCOL_VT_SAMPLES), lit(PCOL_UNIT_COUNT));
  if (x->rt && pcol_rtime_has(x->rt, src)) XPUSH(PCOL_VT_TIME, 0, lit(PCOL_VT_CPU), lit(PCOL_UNIT_NANOSECONDS));
  if (rprof && has_mem == (1u << PCOL_RALLOC_NTYPES) - 1) {
    XPUSH(PCOL_VT_RPROF_ALLOC, 0, lit(PCOL_VALUE_RPROF_ALLOC), lit("bytes"));
    for (int k = 0; k < PCOL_RALLOC_NTYPES; k++) {
      pcol_str t, u;
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&x->vtt, x->alloc_vt[k] - 1), &t, err));
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&x->vtu, x->alloc_vt[k] - 1), &u, err));
      XPUSH(x->alloc_vt[k], 1, t, u);
    }
  }
#undef XPUSH
  return PCOL_OK;
}

int pcol_ralloc_value(const pcol_sample_cols *sc, const pcol_rtime *rt, const uint32_t vt[PCOL_RALLOC_NTYPES],
                      uint64_t row, int64_t *out) {
  *out = 0;
  /* the first sample of its source, of a segment Rprof appended, or after
   * a sample without memory values (a segment not memory-profiled): the
   * levels before it are not its allocation */
  if (row == 0 || pcol_view_u32(&rt->source, row - 1) != pcol_view_u32(&rt->source, row) ||
      (rt->nseg && pcol_rtime_segment_start(rt, row)))
    return PCOL_OK;
  int64_t prev[PCOL_RALLOC_NTYPES];
  for (int k = 0; k < PCOL_RALLOC_NTYPES; k++)
    if (!pcol_sample_value(sc, row - 1, vt[k], &prev[k])) return PCOL_OK;
  for (int k = 0; k < PCOL_RALLOC_NTYPES; k++) {
    int64_t cur, d;
    (void)pcol_sample_value(sc, row, vt[k], &cur);
    if (__builtin_sub_overflow(cur, prev[k], &d)) { /* past the int64 range: an increase only when cur > prev */
      if (cur > prev[k]) return PCOL_ETOOBIG;
    } else if (d > 0 && __builtin_add_overflow(*out, d, out)) {
      return PCOL_ETOOBIG;
    }
  }
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
  (void)pcol_sample_value_rt(&x->sc, x->rt, row, vt, v);
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
