/* mean.c — pcol_top_mean: go tool pprof's -mean (and -mean_delay).  pprof
 * keeps beside each graph node's sums of the value its sums of a divisor,
 * the first value type (graph.go Node.FlatDiv/CumDiv), prints Flat/FlatDiv
 * and Cum/CumDiv (Go's integer division; a divisor of 0 prints the sum),
 * and divides its total, sum |value| of the samples, by the divisor's
 * signed sum over the same samples (report.go computeTotal).  It still
 * sorts and cuts the nodes by their sums (graph.go Nodes.Sort,
 * DiscardLowFrequencyNodes on Cum), so the rows of a mean view are those
 * of the plain view in the plain view's order, and only their numbers
 * change.  Cost: a second top of the divisor (its keys are those of the
 * first: pcol_q_top_made_by) and a pass over the selected samples for the
 * divisor's total. */
#include "query.h"
#include "error.h"  /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "filter.h" /* pcol_filter, pcol_filter_build, pcol_filter_free */
#include "select.h" /* pcol_select_need_view */
#include "count.h"  /* pcol_base_kinds */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct div_total {
  pcol_view st, src, ls;
  int relative;
  const uint8_t *src_ok, *ls_ok; /* -diff_base: the base's samples alone */
  uint64_t nsrc, nls;
  pcol_sum sum;
} div_total;

/* a sample of the total: every selected one, or with -relative_percentages
 * those the filters keep (weights.c sample_adds: not one without stack);
 * under -diff_base the base's (pprof's Sample.DiffBaseSample) */
static int add_div(void *p, uint64_t row, int64_t value) {
  div_total *d = p;
  if (d->relative && pcol_view_u32(&d->st, row) == 0) return PCOL_OK;
  if (d->src_ok) {
    uint32_t s = pcol_view_u32(&d->src, row), ls = pcol_view_u32(&d->ls, row);
    if (s > d->nsrc || !d->src_ok[s] || ls > d->nls || !d->ls_ok[ls]) return PCOL_OK;
  }
  d->sum += value;
  return PCOL_OK;
}

static pcol_sum quot(pcol_sum v, pcol_sum d) { return d ? v / d : v; }

/* pprof's computeTotal: with -diff_base, when the |values| of v over the
 * base's samples add up to more than 0 the total is theirs (weights.c
 * diff_base_total) and its divisor the sum of div over the same samples,
 * the base's counts: below 0, as the base is subtracted */
int pcol_q_mean_div_sum(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                        const pcol_value_sel *div, pcol_sum *sum, pcol_error *err) {
  div_total dt;
  memset(&dt, 0, sizeof dt);
  dt.relative = sel && sel->relative;
  pcol_filter flt;
  memset(&flt, 0, sizeof flt);
  int need[3] = {PCOL_C_S_STACK, PCOL_C_S_SOURCE, PCOL_C_S_LABELSET};
  int lazy, rc = PCOL_OK, nneed = dt.relative ? 1 : 0;
  uint8_t *src_ok = NULL, *ls_ok = NULL;
  const uint8_t *kinds = NULL;
  if (dt.relative) rc = pcol_filter_build(f, sel, &flt, err);
  if (!rc && v) rc = pcol_base_kinds(f, &kinds, err);
  if (!rc && kinds && (kinds[0] & 5)) {
    int found = 0, labelled = 0;
    pcol_sum t = 0;
    rc = pcol_q_base_total(f, sel, dt.relative && flt.active ? &flt : NULL, v, &found, &t, err);
    if (!rc && found) rc = pcol_q_diff_base_marks(f, &src_ok, &ls_ok, &labelled, err);
    if (!rc && src_ok) {
      dt.src_ok = src_ok, dt.ls_ok = ls_ok;
      dt.nsrc = pcol_rows(f, PCOL_T_SOURCES), dt.nls = pcol_rows(f, PCOL_T_LABELSETS);
      if (dt.relative) nneed = 3;
      else need[0] = PCOL_C_S_SOURCE, need[1] = PCOL_C_S_LABELSET, nneed = 2;
    }
  }
  if (!rc && dt.relative) rc = pcol_select_need_view(f, sel, PCOL_C_S_STACK, &dt.st, &lazy, err);
  if (!rc && dt.src_ok) rc = pcol_select_need_view(f, sel, PCOL_C_S_SOURCE, &dt.src, &lazy, err);
  if (!rc && dt.src_ok) rc = pcol_select_need_view(f, sel, PCOL_C_S_LABELSET, &dt.ls, &lazy, err);
  if (!rc)
    rc = pcol_q_values_iter_need(f, sel, dt.relative && flt.active ? &flt : NULL, div, need, nneed,
                                 add_div, &dt, err);
  pcol_filter_free(&flt);
  free(src_ok);
  free(ls_ok);
  *sum = dt.sum;
  return rc;
}

pcol_sum pcol_q_mean_quot(pcol_sum v, pcol_sum d) { return quot(v, d); }

pcol_status pcol_mean_divisor(pcol_file *f, const pcol_select *sel, pcol_value_sel *div,
                              pcol_error *err) {
  if (!f || !div) return pcol_error_set(err, PCOL_EINVAL, "pcol_mean_divisor: NULL argument");
  /* pprof's divisor: the first value type (driver.go sampleFormat); of
   * sources that declare none (Rprof, collapsed) or whose first is a level
   * (Rprof's vsize.small), their own count of samples */
  pcol_error e2 = {0};
  int rc = pcol_value_resolve(f, sel, "0", div, &e2);
  if (rc == PCOL_ENOMEM) {
    *err = e2;
    return rc;
  }
  if (!rc) return PCOL_OK;
  /* the samples only when no selected source has a first type to divide by */
  pcol_select one = sel ? *sel : (pcol_select){0};
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  for (uint64_t s = 1; s <= ns; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    one.source_id = (uint32_t)s;
    pcol_error e3 = {0};
    if (pcol_value_resolve(f, &one, "0", div, &e3) == PCOL_OK)
      return pcol_error_set(err, PCOL_EINVAL,
                            "mean: the sources have no first value type in common to divide "
                            "by (%s); view one source at a time", e2.message);
  }
  return pcol_value_resolve(f, sel, "samples", div, err);
}

pcol_str pcol_mean_type(pcol_str type, char *buf) {
  int n = snprintf(buf, PCOL_MEAN_TYPE_MAX, "mean_%.*s",
                   type.ptr ? (int)pcol_utf8_cut(type.ptr, type.len, PCOL_MEAN_TYPE_MAX - 16) : 2,
                   type.ptr ? type.ptr : "NA");
  return (pcol_str){buf, n > 0 ? (size_t)n : 0};
}

pcol_status pcol_mean_total(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                            const pcol_value_sel *div, pcol_sum *total, pcol_error *err) {
  if (!f || !v || !div || !total) return pcol_error_set(err, PCOL_EINVAL, "pcol_mean_total: NULL argument");
  pcol_sum d = 0;
  PCOL_RETURN_NOT_OK(pcol_q_mean_div_sum(f, sel, v, div, &d, err));
  *total = quot(*total, d);
  return PCOL_OK;
}

/* t's rows divided by those of d, the divisor's top of the same keys */
static pcol_status top_mean(pcol_file *f, const pcol_select *sel, const pcol_value_sel *div,
                            const pcol_top *d, pcol_top *t, double fraction, pcol_sum *label_cutoff,
                            pcol_error *err) {
  uint32_t nk = 0;
  for (size_t i = 0; i < d->nrows; i++)
    if (d->rows[i].key > nk) nk = d->rows[i].key;
  for (size_t i = 0; i < t->nrows; i++)
    if (t->rows[i].key > nk) nk = t->rows[i].key;
  pcol_sum *fd = calloc((size_t)nk + 1, sizeof *fd), *cd = calloc((size_t)nk + 1, sizeof *cd);
  int rc = fd && cd ? PCOL_OK : pcol_oom(err);
  for (size_t i = 0; !rc && i < d->nrows; i++) {
    fd[d->rows[i].key] = d->rows[i].flat;
    cd[d->rows[i].key] = d->rows[i].cum;
  }
  /* the divisor's total, signed, over the samples t->total adds up */
  pcol_sum dsum = 0;
  if (!rc) rc = pcol_q_mean_div_sum(f, sel, &t->value, div, &dsum, err);
  if (!rc) {
    for (size_t i = 0; i < t->nrows; i++) {
      pcol_top_row *r = &t->rows[i];
      r->flat = quot(r->flat, fd[r->key]);
      r->cum = quot(r->cum, cd[r->key]);
    }
    t->total = quot(t->total, dsum);
    if (label_cutoff) *label_cutoff = (pcol_sum)pcol_q_frac_cut(t->total, fraction, 1);
  }
  free(fd);
  free(cd);
  return rc;
}

pcol_status pcol_top_mean(pcol_file *f, const pcol_select *sel, const pcol_value_sel *div,
                          pcol_top *t, double fraction, pcol_sum *label_cutoff, pcol_error *err) {
  return pcol_top_mean_with(f, sel, div, NULL, t, fraction, label_cutoff, err);
}

pcol_status pcol_top_mean_with(pcol_file *f, const pcol_select *sel, const pcol_value_sel *div,
                               const pcol_top *dtop, pcol_top *t, double fraction,
                               pcol_sum *label_cutoff, pcol_error *err) {
  pcol_by by, dby;
  int objnames, dobj;
  if (!f || !div || !t || !pcol_q_top_made_by(t, &by, &objnames))
    return pcol_error_set(err, PCOL_EINVAL, "pcol_top_mean: not a result of pcol_top_compute");
  /* the divisor's rows must have t's keys: the same granularity */
  if (dtop && (!pcol_q_top_made_by(dtop, &dby, &dobj) || dby != by || dobj != objnames))
    return pcol_error_set(err, PCOL_EINVAL, "pcol_top_mean_with: the divisor's top is not of "
                          "the same granularity as t");
  if (dtop) return top_mean(f, sel, div, dtop, t, fraction, label_cutoff, err);
  pcol_top d; /* only its keys' sums: no names */
  PCOL_RETURN_NOT_OK(pcol_q_top_keys_only(f, sel, div, by, objnames, &d, err));
  int rc = top_mean(f, sel, div, &d, t, fraction, label_cutoff, err);
  pcol_top_free(&d);
  return rc;
}
