/* info.c — pcol_source_summaries: what `pcol info` says of each source
 * (type, time, period, duration, time span, samples, value types).
 *
 * Cost: O(sources x log samples + source_value_types), the value types
 * of each source from the file's index of them (pcol_source_rows; a scan
 * per source was quadratic: 200k sources, 52 s), plus one pass over the weight column (and
 * pprof's samples/count values) for each source's count of raw samples.
 * Samples are sorted by source and, inside a source, by time (spec.md F5),
 * so a source's samples are one run of rows found by binary search, and its
 * time span is its first and last row.  Derived values are per source: the
 * time rule where the source has an Rprof interval, rprof.alloc where it
 * has Rprof's three memory snapshots (not where another source has them). */
#include "query.h"

/* meta KEY of source s as a number, NA when absent or not a number */
static int meta_i64(pcol_file *f, uint32_t s, const char *key, int64_t *out, pcol_error *err) {
  int rc = pcol_meta_get_i64(f, s, key, out, err);
  if (rc == PCOL_ENOTFOUND || rc == PCOL_EFORMAT) {
    *out = PCOL_NA_I64;
    if (err) memset(err, 0, sizeof *err);
    return PCOL_OK;
  }
  return rc;
}

static int meta_str(pcol_file *f, uint32_t s, const char *key, pcol_str *out, pcol_error *err) {
  out->ptr = NULL;
  out->len = 0;
  int rc = pcol_meta_get(f, s, key, out, err);
  if (rc == PCOL_ENOTFOUND) {
    if (err) memset(err, 0, sizeof *err);
    return PCOL_OK;
  }
  return rc;
}

/* first row in [lo, hi) with source > s */
static uint64_t after_source(const pcol_view *src, uint64_t lo, uint64_t hi, uint32_t s) {
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (pcol_view_u32(src, mid) <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int pcol_source_summaries(pcol_file *f, pcol_source_summary **out, size_t *n, pcol_error *err) {
  *out = NULL;
  *n = 0;
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), nrows = pcol_rows(f, PCOL_T_SAMPLES);
  pcol_view ty, uri, ts, src, tim, dur, svv;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &dur, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, err));
  pcol_rtime rt;
  pcol_sample_cols sc;
  uint32_t *cvt = NULL;
  uint8_t *has_alloc = NULL;
  pcol_value_sel av;
  pcol_error quiet = {0};
  PCOL_RETURN_NOT_OK(pcol_count_types(f, &cvt, err));
  /* the stored values (and their first-use checks, O(values): 40M rows
   * at 10M Rprof samples) only when some source counts by one */
  int any_cvt = 0;
  for (uint64_t i = 1; i <= ns && !any_cvt; i++) any_cvt = cvt[i] != 0;
  memset(&sc, 0, sizeof sc);
  int rc0 = any_cvt ? pcol_sample_cols_init(&sc, f, err)
                    : pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &sc.weight, err);
  if (rc0) {
    free(cvt);
    return rc0;
  }
  if (pcol_value_resolve(f, NULL, PCOL_VALUE_RPROF_ALLOC, &av, &quiet) == PCOL_OK &&
      pcol_value_sources(f, &av, &has_alloc, err) != PCOL_OK) {
    free(cvt);
    return err ? err->code : PCOL_ENOMEM;
  }
  /* every source's default value type in one pass (per source, each pass
   * over meta and source_value_types made 1,440 sources quadratic) */
  uint32_t *dflt = calloc(ns ? ns : 1, sizeof *dflt);
  int rc = dflt ? PCOL_OK : pcol_oom(err);
  if (!rc && ns) rc = pcol_source_default_types(f, 1, (uint32_t)ns, dflt, err);
  if (!rc) rc = pcol_rtime_init(&rt, f, err);
  pcol_source_summary *s = rc ? NULL : calloc(ns ? ns : 1, sizeof *s);
  if (!s) {
    if (!rc) pcol_rtime_free(&rt);
    free(dflt);
    free(cvt);
    free(has_alloc);
    return rc ? rc : pcol_oom(err);
  }
  uint64_t lo = 0;
  for (uint64_t i = 0; i < ns && !rc; i++) {
    pcol_source_summary *x = &s[i];
    uint32_t id = (uint32_t)(i + 1);
    x->id = id;
    if ((rc = pcol_string(f, pcol_view_u32(&ty, i), &x->type, err))) break;
    if ((rc = pcol_string(f, pcol_view_u32(&uri, i), &x->uri, err))) break;
    x->timestamp_s = pcol_view_i64(&ts, i);
    /* the source's run of samples */
    uint64_t a = after_source(&src, lo, nrows, id - 1), b = after_source(&src, a, nrows, id);
    lo = b;
    x->samples = b - a;
    x->first_ns = x->end_ns = PCOL_NA_I64;
    uint64_t t0 = a;
    while (t0 < b && pcol_view_i64(&tim, t0) == PCOL_NA_I64) t0++; /* NA sorts first */
    if (t0 < b) {
      x->first_ns = pcol_view_i64(&tim, t0);
      int64_t last = pcol_view_i64(&tim, b - 1), d = pcol_view_i64(&dur, b - 1);
      if (d == PCOL_NA_I64 || d < 0 || __builtin_add_overflow(last, d, &x->end_ns)) x->end_ns = last;
    }
    /* period and duration: pprof's, or Rprof's interval */
    if ((rc = meta_i64(f, id, PPROF_META_DURATION_NANOS, &x->duration_ns, err))) break;
    if ((rc = meta_i64(f, id, PPROF_META_PERIOD, &x->period, err))) break;
    if ((rc = meta_str(f, id, PPROF_META_PERIOD_TYPE_TYPE, &x->period_type, err))) break;
    if ((rc = meta_str(f, id, PPROF_META_PERIOD_TYPE_UNIT, &x->period_unit, err))) break;
    x->period_min = x->period_max = PCOL_NA_I64;
    if (x->period == PCOL_NA_I64) {
      int64_t us, iv_lo, iv_hi;
      if ((rc = meta_i64(f, id, RPROF_META_INTERVAL_US, &us, err))) break;
      if ((rc = meta_i64(f, id, RPROF_META_INTERVAL_MIN_US, &iv_lo, err))) break;
      if ((rc = meta_i64(f, id, RPROF_META_INTERVAL_MAX_US, &iv_hi, err))) break;
      if (us != PCOL_NA_I64 && us >= 0 && us < INT64_MAX / 1000) {
        x->period = us * 1000;
        x->period_type = (pcol_str){"sample.interval", 15};
        x->period_unit = (pcol_str){"nanoseconds", 11};
        if (iv_lo != PCOL_NA_I64 && iv_hi != PCOL_NA_I64 && iv_lo >= 0 && iv_lo < iv_hi &&
            iv_hi < INT64_MAX / 1000) { /* segments of different intervals */
          x->period_min = iv_lo * 1000;
          x->period_max = iv_hi * 1000;
        }
      }
    }
    if ((rc = meta_str(f, id, PCOL_META_NOTE, &x->note, err))) break;
    /* value types, and the one the views add up by default */
    const uint32_t *vr;
    size_t nvr;
    if ((rc = pcol_source_rows(f, PCOL_T_SOURCE_VALUE_TYPES, id, &vr, &nvr, err))) break;
    x->nvalue_types = nvr;
    x->value_types = calloc(nvr ? nvr : 1, sizeof *x->value_types);
    if (!x->value_types) {
      rc = pcol_oom(err);
      break;
    }
    for (size_t k = 0; k < nvr; k++) x->value_types[k] = pcol_view_u32(&svv, vr[k]);
    /* pcol_value_resolve of this source alone, from the defaults of all */
    if ((rc = pcol_q_value_of_vt(f, dflt[i], &x->default_value, err))) break;
    /* derived values, per source: its own time rule and memory fields */
    x->derived_cpu = rt.last_ns && pcol_rtime_has(&rt, id);
    x->derived_alloc = has_alloc && has_alloc[id];
    /* its own count of samples (THE count rule, lib/core/count.c) */
    if (!pcol_view_stored(&sc.weight) && !cvt[id] && sc.weight.dflt == 1) x->count = (pcol_sum)(b - a); /* every weight 1 */
    else
      for (uint64_t r = a; r < b; r++) x->count += pcol_sample_count(&sc, r, cvt[id]);
  }
  pcol_rtime_free(&rt);
  free(dflt);
  free(has_alloc);
  free(cvt);
  if (rc) {
    pcol_source_summaries_free(s, ns);
    return rc;
  }
  *out = s;
  *n = (size_t)ns;
  return PCOL_OK;
}

void pcol_source_summaries_free(pcol_source_summary *s, size_t n) {
  if (!s) return;
  for (size_t i = 0; i < n; i++) free(s[i].value_types);
  free(s);
}
