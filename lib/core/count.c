/* count.c — THE rule for how many raw samples a sample row stands for, and
 * for which value type a source shows by default (doc/mappings.md §0).
 *
 * Count: a source that measured pprof's "samples/count" (it lists that
 * value type in source_value_types) counts a row by that value, as
 * `go tool pprof -sample_index=samples` does; every other source counts a
 * row by its weight column.  Rprof lines, collapsed counts and speedscope
 * sample weights of an export all follow this rule.
 *
 * Default type: pprof.default_sample_type when the source names one it
 * measured, else a pprof-like source's last type (go tool pprof's
 * fallback), but 0 (the count) for Rprof, whose values are memory
 * snapshots.  Cost: one pass over meta and one over source_value_types. */
#include "internal.h"

/* The stored value type "samples"/"count" (0 if none). */
static int samples_count_vt(pcol_file *f, uint32_t *vt, pcol_error *err) {
  pcol_view ty, un;
  *vt = 0;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_VALUE_TYPES) && !*vt; i++) {
    pcol_str t, u;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &t, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, i), &u, err));
    if (pcol_str_is(t, PCOL_VT_SAMPLES) && pcol_str_is(u, PCOL_UNIT_COUNT)) *vt = (uint32_t)(i + 1);
  }
  return PCOL_OK;
}

int pcol_count_types(pcol_file *f, uint32_t **out, pcol_error *err) {
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  uint32_t vt, *c;
  pcol_view ss, sv;
  *out = NULL;
  PCOL_RETURN_NOT_OK(samples_count_vt(f, &vt, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err));
  if (!(c = calloc(ns + 1, sizeof *c))) return pcol_oom(err);
  for (uint64_t i = 0; vt && i < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); i++) {
    uint32_t s = pcol_view_u32(&ss, i);
    if (s >= 1 && s <= ns && pcol_view_u32(&sv, i) == vt) c[s] = vt;
  }
  *out = c;
  return PCOL_OK;
}

int pcol_source_default_types(pcol_file *f, uint32_t lo, uint32_t hi, uint32_t *d,
                              pcol_error *err) {
  size_t n = (size_t)(hi - lo) + 1;
  pcol_view sty, svs, svv, vty, mk, mv, ms;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &sty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &svs, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &mk, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &mv, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &ms, err));
  pcol_str *want = calloc(n, sizeof *want);
  uint32_t *named = calloc(n, sizeof *named);
  int rc = want && named ? PCOL_OK : pcol_oom(err);
  /* pprof's default_sample_type names the type */
  for (uint64_t i = 0; !rc && i < pcol_rows(f, PCOL_T_META); i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    if (s < lo || s > hi || want[s - lo].ptr) continue;
    pcol_str k;
    if ((rc = pcol_string(f, pcol_view_u32(&mk, i), &k, err))) break;
    if (pcol_str_is(k, PPROF_META_DEFAULT_SAMPLE_TYPE))
      rc = pcol_string(f, pcol_view_u32(&mv, i), &want[s - lo], err);
  }
  for (size_t i = 0; i < n; i++) d[i] = 0;
  for (uint64_t i = 0; !rc && i < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); i++) {
    uint32_t s = pcol_view_u32(&svs, i), v = pcol_view_u32(&svv, i);
    if (s < lo || s > hi || v == 0) continue;
    d[s - lo] = v; /* the last type, pprof's fallback */
    pcol_str *w = &want[s - lo];
    if (w->ptr && !named[s - lo]) {
      pcol_str t;
      if ((rc = pcol_string(f, pcol_view_u32(&vty, v - 1), &t, err))) break;
      if (t.ptr && t.len == w->len && memcmp(t.ptr, w->ptr, w->len) == 0) named[s - lo] = v;
    }
  }
  for (uint64_t s = lo; !rc && s <= hi; s++) {
    if (named[s - lo]) {
      d[s - lo] = named[s - lo];
      continue;
    }
    /* pprof's rule (the last type) does not suit Rprof: its values are
     * memory snapshots, and summaryRprof counts samples. */
    pcol_str st = {NULL, 0};
    if ((rc = pcol_string(f, pcol_view_u32(&sty, s - 1), &st, err))) break;
    if (pcol_str_is(st, PCOL_SRC_RPROF)) d[s - lo] = 0;
  }
  free(want);
  free(named);
  return rc;
}
