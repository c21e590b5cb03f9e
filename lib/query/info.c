/* info.c — pcol_source_summaries: what `pcol info` says of each source
 * (type, time, period, duration, time span, samples, value types).
 *
 * Cost: O(sources + source_value_types) in a file with the per-source
 * summary of format 1.3 (spec.md §6.10), which gives each source's rows,
 * time span and count; the value types of each source from the file's
 * index of them (pcol_source_rows; a scan per source was quadratic: 200k
 * sources, 52 s).  A file without it (1.0-1.2), or whose summary does not
 * agree with its samples (pcol_summary_plausible), costs as before:
 * O(sources x log samples) plus one pass over the weight column (and
 * pprof's samples/count values) for each source's count of raw samples,
 * and one over its durations when it has long samples (its end).
 * Samples are sorted by source and, inside a source, by time (spec.md F5),
 * so a source's samples are one run of rows found by binary search, and its
 * time span is its first and last row.  Derived values are per source: the
 * time rule where the source has an Rprof interval, rprof.alloc where it
 * has Rprof's three memory snapshots (not where another source has them). */
#include "query.h"
#include "keys.h"     /* PCOL_META_NOTE, PCOL_VALUE_RPROF_ALLOC, PPROF_META_DURATION_NANOS, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "summary.h"  /* pcol_summary, pcol_summary_get, pcol_summary_plausible */
#include "reader.h"   /* struct pcol_file, pcol_source_rows, pcol_column_stored, pcol_meta_probe */
#include "select.h"   /* pcol_sample_cols, pcol_sample_cols_init */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "count.h"    /* pcol_rtime_free, pcol_count_types, pcol_rtime, ... */
#include "period.h"   /* pcol_period, pcol_source_period */
#include "bytes.h"    /* pcol_str_is */
#include "wall.h"     /* pcol_wall, pcol_wall_init: THE start rule */
#include <stdlib.h>
#include <string.h>

/* meta KEY of source s as a number, NA when absent or not a number */
static int meta_i64(pcol_file *f, uint32_t s, const char *key, int64_t *out, pcol_error *err) {
  pcol_str v;
  int rc = pcol_meta_probe(f, s, key, &v, err);
  if (rc < 0) return rc;
  if (!rc || pcol_str_i64(v, out)) *out = PCOL_NA_I64;
  return PCOL_OK;
}

/* The source's notes (meta pcol.note, one row each, in file order):
 * notes_len gives their bytes joined by "; " (0: none), notes_join writes
 * them to buf and points out at it. */
static int note_at(pcol_file *f, uint32_t row, pcol_str *v, pcol_error *err) {
  pcol_view mk, mv;
  pcol_str k;
  v->ptr = NULL;
  v->len = 0;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &mk, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &mv, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&mk, row), &k, err));
  if (!pcol_str_is(k, PCOL_META_NOTE)) return PCOL_OK;
  return pcol_string(f, pcol_view_u32(&mv, row), v, err);
}

static int notes_len(pcol_file *f, uint32_t s, size_t *len, pcol_error *err) {
  const uint32_t *r;
  size_t n;
  *len = 0;
  PCOL_RETURN_NOT_OK(pcol_source_rows(f, PCOL_T_META, s, &r, &n, err));
  for (size_t i = 0; i < n; i++) {
    pcol_str v;
    PCOL_RETURN_NOT_OK(note_at(f, r[i], &v, err));
    if (v.ptr) *len += (*len ? 2 : 0) + v.len;
  }
  return PCOL_OK;
}

static int notes_join(pcol_file *f, uint32_t s, char *buf, pcol_str *out, pcol_error *err) {
  const uint32_t *r;
  size_t n, at = 0;
  PCOL_RETURN_NOT_OK(pcol_source_rows(f, PCOL_T_META, s, &r, &n, err));
  for (size_t i = 0; i < n; i++) {
    pcol_str v;
    PCOL_RETURN_NOT_OK(note_at(f, r[i], &v, err));
    if (!v.ptr) continue;
    if (at) memcpy(buf + at, "; ", 2), at += 2;
    if (v.len) memcpy(buf + at, v.ptr, v.len);
    at += v.len;
  }
  out->ptr = buf;
  out->len = at;
  return PCOL_OK;
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

/* The samples' columns the pass of a file without a summary reads, opened
 * on first need (their first-use checks are O(samples)). */
typedef struct pass_cols {
  int open;
  pcol_view src, tim, dur;
  pcol_sample_cols sc;
} pass_cols;

static int pass_open(pcol_file *f, pass_cols *p, int any_cvt, pcol_error *err) {
  if (p->open) return PCOL_OK;
  const pcol_column_req cols[] = {{&p->src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},
                                  {&p->tim, PCOL_T_SAMPLES, PCOL_C_S_TIME},
                                  {&p->dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, cols, PCOL_NCOLS(cols), err));
  /* the stored values (and their first-use checks, O(values): 40M rows
   * at 10M Rprof samples) only when some source counts by one */
  memset(&p->sc, 0, sizeof p->sc);
  PCOL_RETURN_NOT_OK(any_cvt ? pcol_sample_cols_init(&p->sc, f, err)
                             : pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &p->sc.weight, err));
  p->open = 1;
  return PCOL_OK;
}

/* Source x's rows (from *lo on), time span and count from its samples. */
static void pass_source(pcol_file *f, const pass_cols *p, uint64_t nrows, uint64_t *lo, uint32_t cvt,
                        pcol_source_summary *x) {
  uint32_t id = x->id;
  uint64_t a = after_source(&p->src, *lo, nrows, id - 1), b = after_source(&p->src, a, nrows, id);
  *lo = b;
  x->samples = b - a;
  x->first_ns = x->end_ns = PCOL_NA_I64;
  uint64_t t0 = a;
  while (t0 < b && pcol_view_i64(&p->tim, t0) == PCOL_NA_I64) t0++; /* NA sorts first */
  if (t0 < b) {
    x->first_ns = pcol_view_i64(&p->tim, t0);
    /* the end: the latest time + duration (spec.md §6.10's time_end); a
     * file without durations ends at its last time */
    x->end_ns = pcol_view_i64(&p->tim, b - 1);
    for (uint64_t r = pcol_column_stored(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION) ? t0 : b; r < b; r++) {
      int64_t t = pcol_view_i64(&p->tim, r), d = pcol_view_i64(&p->dur, r), e;
      if (d <= 0) e = t;
      else if (__builtin_add_overflow(t, d, &e)) e = INT64_MAX;
      if (e > x->end_ns) x->end_ns = e;
    }
  }
  /* its own count of samples (THE count rule, lib/core/count.c) */
  x->count = 0;
  if (!p->sc.weight.data && !cvt && p->sc.weight.dflt == 1) x->count = (pcol_sum)(b - a); /* every weight 1 */
  else
    for (uint64_t r = a; r < b; r++) x->count += pcol_sample_count(&p->sc, r, cvt);
}

/* The same from the file's summary (format 1.3, spec.md §6.10): 0 when it
 * cannot tell (a count past int64, or samples without the counting type:
 * then the pass above answers). */
static int summary_source(pcol_file *f, const pcol_summary *sm, uint32_t cvt, const pcol_view *svv,
                          pcol_source_summary *x) {
  uint64_t i = x->id - 1;
  x->samples = pcol_view_u64(&sm->rows, i);
  x->first_ns = pcol_view_i64(&sm->first, i);
  x->end_ns = pcol_view_i64(&sm->end, i);
  if (!pcol_count_vt(cvt)) { /* THE count rule: the weight (a subtracted base's negated) */
    int64_t w = pcol_view_i64(&sm->weight, i);
    x->count = w == PCOL_NA_I64 ? w : pcol_count_of_weight(w, cvt);
    return w != PCOL_NA_I64;
  }
  const uint32_t *vr;
  size_t nvr;
  if (pcol_source_rows(f, PCOL_T_SOURCE_VALUE_TYPES, x->id, &vr, &nvr, NULL)) return 0;
  for (size_t k = 0; k < nvr; k++) /* the first row of the type */
    if (pcol_view_u32(svv, vr[k]) == cvt) {
      int64_t t = pcol_view_i64(&sm->total, vr[k]);
      x->count = t;
      return t != PCOL_NA_I64 && pcol_view_u64(&sm->vrows, vr[k]) == x->samples;
    }
  return 0;
}

int pcol_source_summaries(pcol_file *f, pcol_source_summary **out, size_t *n, pcol_error *err) {
  *out = NULL;
  *n = 0;
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), nrows = pcol_rows(f, PCOL_T_SAMPLES);
  pcol_view ty, uri, ts, svv;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, err));
  /* the summary, when the file has one and it agrees with the samples as
   * far as O(sources) reads tell (a file whose summary lies is read as if
   * it had none; full validation refuses it, F7) */
  pcol_summary sm;
  int has_sum = pcol_summary_get(f, &sm, err);
  if (has_sum < 0) return has_sum;
  if (has_sum) has_sum = pcol_summary_plausible(f, &sm);
  pcol_rtime rt;
  pass_cols pc = {0};
  uint32_t *cvt = NULL;
  uint8_t *has_alloc = NULL;
  pcol_value_sel av;
  pcol_error quiet = {0};
  PCOL_RETURN_NOT_OK(pcol_count_types(f, &cvt, err));
  int any_cvt = 0;
  for (uint64_t i = 1; i <= ns && !any_cvt; i++) any_cvt = cvt[i] != 0;
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
  if (!rc) rc = pcol_rtime_init_meta(&rt, f, err);
  /* each source's start by THE start rule (otlp.time_unix_nano, else
   * pprof.time_nanos, else its timestamp), as top's Time: line */
  pcol_wall w = {0};
  int have_rt = !rc;
  if (!rc) rc = pcol_wall_init(f, &w, err);
  pcol_source_summary *s = rc ? NULL : calloc(ns ? ns : 1, sizeof *s);
  if (!s) {
    if (have_rt) pcol_rtime_free(&rt);
    pcol_wall_free(&w);
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
    if (id <= w.n && w.known[id] && w.start[id] != PCOL_NA_I64) /* seconds, rounded down */
      x->timestamp_s = w.start[id] / 1000000000 - (w.start[id] % 1000000000 < 0);
    /* rows, time span and count: the summary's, or the samples' */
    if (!has_sum || !summary_source(f, &sm, cvt[id], &svv, x)) {
      if ((rc = pass_open(f, &pc, any_cvt, err))) break;
      pass_source(f, &pc, nrows, &lo, cvt[id], x);
    }
    /* period: OTLP's or pprof's, or Rprof's interval; duration: OTLP's, else pprof's
     * (spec.md §7's duration rule, as lib/core/wall.c reads it) */
    if ((rc = meta_i64(f, id, OTLP_META_DURATION_NANO, &x->duration_ns, err))) break;
    if (x->duration_ns == PCOL_NA_I64 || x->duration_ns < 0)
      if ((rc = meta_i64(f, id, PPROF_META_DURATION_NANOS, &x->duration_ns, err))) break;
    pcol_period pd; /* THE period rule (lib/core/period.c) */
    if ((rc = pcol_source_period(f, id, &pd, err))) break;
    x->period = pd.has_period ? pd.period : PCOL_NA_I64;
    x->period_type = pd.type;
    x->period_unit = pd.unit;
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
    /* value types, and the one the views add up by default; the notes
     * joined after them in the same block (freed with it) */
    const uint32_t *vr;
    size_t nvr, notes = 0;
    if ((rc = notes_len(f, id, &notes, err))) break;
    if ((rc = pcol_source_rows(f, PCOL_T_SOURCE_VALUE_TYPES, id, &vr, &nvr, err))) break;
    x->nvalue_types = nvr;
    x->value_types = nvr + notes / sizeof *x->value_types + 2 < SIZE_MAX / sizeof *x->value_types
                         ? calloc(nvr + notes / sizeof *x->value_types + 2, sizeof *x->value_types)
                         : NULL;
    if (!x->value_types) {
      rc = pcol_oom(err);
      break;
    }
    if (notes && (rc = notes_join(f, id, (char *)(x->value_types + nvr), &x->note, err))) break;
    for (size_t k = 0; k < nvr; k++) x->value_types[k] = pcol_view_u32(&svv, vr[k]);
    /* pcol_value_resolve of this source alone, from the defaults of all */
    if ((rc = pcol_q_value_of_vt(f, dflt[i], &x->default_value, err))) break;
    /* derived values, per source: its own time rule and memory fields */
    x->derived_cpu = rt.last_ns && pcol_rtime_has(&rt, id);
    x->derived_alloc = has_alloc && has_alloc[id];
  }
  pcol_rtime_free(&rt);
  pcol_wall_free(&w);
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
