/* diffbase.c — pcol_open_diff_base: go tool pprof's -base and -diff_base
 * (driver/fetch.go: the base profile scaled by -1 and merged with the
 * profile; -diff_base also labels the base's samples "pprof::base" =
 * "true").  Every view then shows the change: a function's flat and cum
 * are the profile's minus the base's.  The total is pprof's (report.go
 * computeTotal, weights.c diff_base_total): with -diff_base the base's, so
 * shares are of the base; with -base that of the merged profile's |values|.
 *
 * As pprof's merge, the two must measure the same value types (else
 * "incompatible types"), and the default type is the first one named, the
 * profile's before the base's (profile.go combineHeaders), so a profile
 * that names none takes the base's.
 *
 * Cost: a copy of both into memory (pcol_b_add_file_copy): O(both files)
 * time, the copy's size in memory. */
#include "query.h"
#include "builder.h" /* pcol_b_add_file_copy */
#include "reader.h"  /* struct pcol_file: input_bytes */
#include "error.h"   /* pcol_oom */
#include "bytes.h"   /* pcol_str_is */
#include "keys.h"    /* PPROF_META_DEFAULT_SAMPLE_TYPE */
#include "columns.h" /* PCOL_NCOLS, pcol_columns */
#include <stdlib.h>
#include <string.h>

static int str_eq(pcol_str a, pcol_str b) {
  return a.len == b.len && (!a.len || !memcmp(a.ptr, b.ptr, a.len));
}

/* 1 when each value type (type/unit) of a is one of b's */
static int types_within(pcol_file *a, pcol_file *b, int *yes, pcol_error *err) {
  pcol_view at, au, bt, bu;
  pcol_column_req ra[] = {{&at, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE}, {&au, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT}};
  pcol_column_req rb[] = {{&bt, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE}, {&bu, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT}};
  PCOL_RETURN_NOT_OK(pcol_columns(a, ra, PCOL_NCOLS(ra), err));
  PCOL_RETURN_NOT_OK(pcol_columns(b, rb, PCOL_NCOLS(rb), err));
  uint64_t na = pcol_rows(a, PCOL_T_VALUE_TYPES), nb = pcol_rows(b, PCOL_T_VALUE_TYPES);
  *yes = 1;
  for (uint64_t i = 0; i < na && *yes; i++) {
    pcol_str t, u;
    PCOL_RETURN_NOT_OK(pcol_string(a, pcol_view_u32(&at, i), &t, err));
    PCOL_RETURN_NOT_OK(pcol_string(a, pcol_view_u32(&au, i), &u, err));
    int found = 0;
    for (uint64_t j = 0; j < nb && !found; j++) {
      pcol_str t2, u2;
      PCOL_RETURN_NOT_OK(pcol_string(b, pcol_view_u32(&bt, j), &t2, err));
      PCOL_RETURN_NOT_OK(pcol_string(b, pcol_view_u32(&bu, j), &u2, err));
      found = str_eq(t, t2) && str_eq(u, u2);
    }
    *yes = found;
  }
  return PCOL_OK;
}

/* The first pprof default type named by a source of f (*out {NULL, 0}:
 * none), and per source whether it names one (has[s], s = 1..sources). */
static int default_named(pcol_file *f, pcol_str *out, uint8_t *has, pcol_error *err) {
  *out = (pcol_str){NULL, 0};
  pcol_view mk, mv, ms;
  pcol_column_req r[] = {{&mk, PCOL_T_META, PCOL_C_META_KEY},
                         {&mv, PCOL_T_META, PCOL_C_META_VALUE},
                         {&ms, PCOL_T_META, PCOL_C_META_SOURCE}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, r, PCOL_NCOLS(r), err));
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  uint32_t first = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_META); i++) {
    pcol_str k, v;
    uint32_t s = pcol_view_u32(&ms, i);
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&mk, i), &k, err));
    if (!s || s > nsrc || !pcol_str_is(k, PPROF_META_DEFAULT_SAMPLE_TYPE)) continue;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&mv, i), &v, err));
    if (!v.ptr || !v.len) continue;
    has[s] = 1;
    if (!first || s < first) first = s, *out = v;
  }
  return PCOL_OK;
}

/* Each value type's sum over every sample of f, as Go adds int64s
 * (wrapping): sums[t] for value type ids t = 1..rows */
static int type_sums(pcol_file *f, uint64_t **out, pcol_error *err) {
  pcol_view vt, vv;
  pcol_column_req r[] = {{&vt, PCOL_T_VALUES, PCOL_C_V_TYPE}, {&vv, PCOL_T_VALUES, PCOL_C_V_VALUE}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, r, PCOL_NCOLS(r), err));
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES), nv = pcol_rows(f, PCOL_T_VALUES);
  uint64_t *s = *out = calloc(nvt + 1, sizeof *s);
  if (!s) return pcol_oom(err);
  for (uint64_t i = 0; i < nv; i++) {
    uint32_t t = pcol_view_u32(&vt, i);
    if (t >= 1 && t <= nvt) s[t] += (uint64_t)pcol_view_i64(&vv, i);
  }
  return PCOL_OK;
}

/* pprof -normalize (profile.go Normalize): per value type of f, the base's
 * sum of the type of the same name and unit over f's (0 when f's is 0),
 * for pcol_b_copy.scale */
static int normalize_ratios(pcol_file *f, pcol_file *base, double **out, uint64_t *n,
                            pcol_error *err) {
  uint64_t *fs = NULL, *bs = NULL, nf = pcol_rows(f, PCOL_T_VALUE_TYPES);
  uint64_t nb = pcol_rows(base, PCOL_T_VALUE_TYPES);
  pcol_view ft, fu, bt, bu;
  pcol_column_req rf[] = {{&ft, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE}, {&fu, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT}};
  pcol_column_req rb[] = {{&bt, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE}, {&bu, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT}};
  double *r = *out = calloc(nf + 1, sizeof *r);
  *n = nf + 1;
  int rc = r ? PCOL_OK : pcol_oom(err);
  if (r) r[0] = 1; /* (no type 0) */
  if (!rc) rc = pcol_columns(f, rf, PCOL_NCOLS(rf), err);
  if (!rc) rc = pcol_columns(base, rb, PCOL_NCOLS(rb), err);
  if (!rc) rc = type_sums(f, &fs, err);
  if (!rc) rc = type_sums(base, &bs, err);
  for (uint64_t i = 1; !rc && i <= nf; i++) {
    pcol_str t, u, t2, u2;
    int64_t b = 0;
    if ((rc = pcol_string(f, pcol_view_u32(&ft, i - 1), &t, err)) ||
        (rc = pcol_string(f, pcol_view_u32(&fu, i - 1), &u, err)))
      break;
    for (uint64_t j = 1; !rc && j <= nb; j++) {
      if ((rc = pcol_string(base, pcol_view_u32(&bt, j - 1), &t2, err)) ||
          (rc = pcol_string(base, pcol_view_u32(&bu, j - 1), &u2, err)))
        break;
      if (str_eq(t, t2) && str_eq(u, u2)) b = (int64_t)bs[j];
    }
    r[i] = fs[i] ? (double)b / (double)(int64_t)fs[i] : 0.0;
  }
  free(fs);
  free(bs);
  if (rc) {
    free(r);
    *out = NULL;
  }
  return rc;
}

int pcol_open_diff_base(pcol_file *f, pcol_file *base, unsigned flags, pcol_file **out,
                        pcol_error *err) {
  *out = NULL;
  if (flags & ~(unsigned)(PCOL_BASE_DIFF | PCOL_BASE_NORMALIZE))
    return pcol_error_set(err, PCOL_EINVAL, "pcol_open_diff_base: unknown flags 0x%x", flags);
  int diff = (flags & PCOL_BASE_DIFF) != 0;
  int same = 0, back = 0;
  int rc = types_within(f, base, &same, err);
  if (!rc && same) rc = types_within(base, f, &back, err);
  if (!rc && !(same && back))
    return pcol_error_set(err, PCOL_ENOTFOUND,
                          "the base profile measures other value types than the profile "
                          "(pprof: incompatible types); compare profiles of one kind");
  uint64_t nf = pcol_rows(f, PCOL_T_SOURCES), nb = pcol_rows(base, PCOL_T_SOURCES);
  uint8_t *has = calloc(nf + nb + 2, 1);
  pcol_str dflt = {NULL, 0}, bdflt;
  if (!rc && !has) rc = pcol_oom(err);
  if (!rc) rc = default_named(f, &dflt, has, err);
  if (!rc) rc = default_named(base, &bdflt, has + nf, err);
  if (!rc && !dflt.ptr) dflt = bdflt;
  pcol_builder *b = NULL;
  if (!rc) rc = pcol_builder_new(&b, err);
  pcol_b_copy cp;
  memset(&cp, 0, sizeof cp);
  cp.negate = 1;
  if (!rc && diff) rc = pcol_b_cstr(b, PCOL_DIFF_BASE_KEY, &cp.label_key, err);
  if (!rc && diff) rc = pcol_b_cstr(b, "true", &cp.label_str, err);
  pcol_b_copy nc; /* -normalize: f scaled */
  memset(&nc, 0, sizeof nc);
  double *ratios = NULL;
  if (!rc && (flags & PCOL_BASE_NORMALIZE)) rc = normalize_ratios(f, base, &ratios, &nc.nscale, err);
  nc.scale = ratios;
  if (!rc) rc = ratios ? pcol_b_add_file_copy(b, f, &nc, err) : pcol_b_add_file(b, f, err);
  free(ratios);
  uint64_t s0 = b ? b->t[PCOL_T_SOURCES].rows : 0; /* the base's sources come after f's */
  if (!rc) rc = pcol_b_add_file_copy(b, base, &cp, err);
  for (uint64_t s = s0 + 1; !rc && s <= b->t[PCOL_T_SOURCES].rows; s++)
    rc = pcol_b_meta(b, (uint32_t)s, diff ? PCOL_META_DIFF_BASE : PCOL_META_BASE, "true", 4, err);
  /* a source that names no default type takes the first one named */
  for (uint64_t s = 1; !rc && dflt.ptr && s <= b->t[PCOL_T_SOURCES].rows && s <= nf + nb; s++)
    if (!has[s]) rc = pcol_b_meta(b, (uint32_t)s, PPROF_META_DEFAULT_SAMPLE_TYPE, dflt.ptr, dflt.len, err);
  free(has);
  if (rc && !b) return rc;
  return pcol_q_open_built(b, rc, f->input_bytes + base->input_bytes, out, err);
}
