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
 * fallback); for Rprof, whose values are memory snapshots, its time
 * (the time rule below: the stored cpu/nanoseconds type when a merged
 * source has one, else PCOL_VT_TIME), as summaryRprof shows seconds; the
 * count (0) when it has no interval.  Cost: one pass over meta and one over
 * source_value_types (and pcol_rtime_init's pass over meta for Rprof).
 *
 * Time (pcol_rtime): the CPU time an Rprof sample stands for.  Rprof stores
 * no time value; a line is one tick of its segment's sample.interval, and
 * `Rprof(append = TRUE)` may start a segment with another interval (interop
 * review F3).  The importer places each sample at the sum of the intervals
 * before it, so a sample's own interval is the distance to the next sample
 * of its source; a coalesced run (duration N x interval) is its duration;
 * the source's last sample is weight x the last segment's interval (meta
 * rprof.interval_last_us, else rprof.interval_us).  Cost: one pass over
 * meta, then O(1) a sample.
 *
 * Decimal counts (count.h, pcol_rtime): a collapsed file may mix integer
 * counts (the weight; (T, "count") in a differential file) and decimal ones
 * ((T, "1e-9"), on the lines that have one).  Every line has a count, so a
 * collapsed sample without the decimal type is its integer count x 10^9
 * there, and a collapsed source's default type is the decimal form of what
 * it would otherwise be, when the file has one.  Otherwise the lines with
 * integer counts would count 0 in the views (user review, defect 4).  Cost:
 * one pass over value_types and one over sources. */
#include "pcol.h"
#include "keys.h"     /* PCOL_SRC_RPROF, COLLAPSED_UNIT_COUNT, COLLAPSED_UNIT_NANO, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "bytes.h"    /* pcol_str_is, pcol_str_i64, pcol_str_same */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "reader.h"   /* struct pcol_file (its default_types), pcol_idmemo */
#include "count.h"    /* pcol_rtime, pcol_rtime_free, pcol_rtime_init_meta, ... */
#include "buf.h"      /* PCOL_GROW */
#include "wall.h"     /* pcol_selection_sources, pcol_wall_init, pcol_wall_run_end */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcol_samples_count_vt(pcol_file *f, uint32_t *vt, pcol_error *err) {
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

/* (kept on f, as the default types: compared by string id, once) */
uint32_t pcol_source_shown(const pcol_file *f, uint32_t s) {
  return s && f->side_source ? f->side_source : s;
}

const char *pcol_source_who(pcol_file *f, uint32_t s, char *buf, size_t n) {
  const uint8_t *kinds = NULL;
  uint32_t first = s;
  int base = !pcol_base_kinds(f, &kinds, NULL) && kinds[0] && s && s <= pcol_rows(f, PCOL_T_SOURCES) && kinds[s];
  if (base)
    while (first > 1 && kinds[first - 1]) first--;
  if (base)
    snprintf(buf, n, "the base's source %u", f->side_source ? f->side_source : s - first + 1);
  else
    snprintf(buf, n, "source %u", pcol_source_shown(f, s));
  return buf;
}

int pcol_base_kinds(pcol_file *f, const uint8_t **out, pcol_error *err) {
  uint8_t *k = atomic_load_explicit(&f->base_kinds, memory_order_acquire);
  if (k) {
    *out = k;
    return PCOL_OK;
  }
  uint64_t nmeta = pcol_rows(f, PCOL_T_META), nsrc = pcol_rows(f, PCOL_T_SOURCES);
  if (nsrc >= SIZE_MAX - 1 || !(k = calloc(nsrc + 1, 1))) return pcol_oom(err);
  pcol_view mk, mv, ms;
  pcol_column_req req[] = {{&mk, PCOL_T_META, PCOL_C_META_KEY},
                           {&mv, PCOL_T_META, PCOL_C_META_VALUE},
                           {&ms, PCOL_T_META, PCOL_C_META_SOURCE}};
  int rc = nmeta ? pcol_columns(f, req, PCOL_NCOLS(req), err) : PCOL_OK;
  static const char *const keys[] = {PCOL_META_DIFF_BASE, PCOL_META_BASE};
  static const char *const values[] = {PCOL_BASE_TRUE, PCOL_BASE_SIGNED};
  pcol_idmemo memo = {{0}, {0}}, vmemo = {{0}, {0}};
  for (uint64_t i = 0; i < nmeta && !rc; i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    uint8_t which = 0, v = 0;
    if (!s || s > nsrc) continue;
    if ((rc = pcol_string_which_memo(f, &memo, pcol_view_u32(&mk, i), keys, 2, &which, err))) break;
    if (!which) continue;
    /* 1 -diff_base, 2 -base (value "true"), 4 -diff_base's samples as
     * written (PCOL_BASE_SIGNED, of pprof.diff_base); any other value marks
     * nothing, as an unknown key (spec.md §6.11) */
    if ((rc = pcol_string_which_memo(f, &vmemo, pcol_view_u32(&mv, i), values, 2, &v, err))) break;
    if (v == 2 && which == 1) which = 4;
    else if (v != 1) which = 0;
    if (which) k[s] |= (uint8_t)which, k[0] |= (uint8_t)which;
  }
  if (rc) {
    free(k);
    return rc;
  }
  uint8_t *none = NULL;
  if (!atomic_compare_exchange_strong(&f->base_kinds, &none, k)) {
    free(k); /* another thread's is the same */
    k = none;
  }
  *out = k;
  return PCOL_OK;
}

int pcol_base_labelsets(pcol_file *f, uint8_t **out, int *any, pcol_error *err) {
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS), nlab = pcol_rows(f, PCOL_T_LABELS);
  pcol_view off, key, str;
  *out = NULL;
  *any = 0;
  pcol_column_req req[] = {{&off, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
                           {&key, PCOL_T_LABELS, PCOL_C_LB_KEY},
                           {&str, PCOL_T_LABELS, PCOL_C_LB_STR}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  uint8_t *ok = nls < SIZE_MAX - 1 ? calloc(nls + 1, 1) : NULL;
  if (!ok) return pcol_oom(err);
  pcol_idmemo km = {{0}, {0}}, vm = {{0}, {0}};
  int rc = PCOL_OK;
  for (uint64_t ls = 1; ls <= nls && !rc; ls++) {
    uint64_t lo = pcol_view_u64(&off, ls - 1), hi = pcol_view_u64(&off, ls);
    if (hi > nlab) hi = nlab;
    for (uint64_t i = lo; i < hi && !ok[ls] && !rc; i++) {
      uint8_t k = 0, v = 0;
      uint32_t sid = pcol_view_u32(&str, i);
      if (!sid || (rc = pcol_string_is_memo(f, &km, pcol_view_u32(&key, i), PCOL_DIFF_BASE_KEY, &k, err)) || !k)
        continue;
      if (!(rc = pcol_string_is_memo(f, &vm, sid, "true", &v, err)) && v) ok[ls] = 1, *any = 1;
    }
  }
  if (rc) free(ok);
  else *out = ok;
  return rc;
}

int pcol_normalize_unscaled(pcol_file *f, uint32_t *src, pcol_error *err) {
  uint64_t nmeta = pcol_rows(f, PCOL_T_META), nsrc = pcol_rows(f, PCOL_T_SOURCES);
  *src = 0;
  if (!nmeta) return PCOL_OK;
  pcol_view mk, mv, ms;
  pcol_column_req req[] = {{&mk, PCOL_T_META, PCOL_C_META_KEY},
                           {&mv, PCOL_T_META, PCOL_C_META_VALUE},
                           {&ms, PCOL_T_META, PCOL_C_META_SOURCE}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  pcol_idmemo memo = {{0}, {0}};
  for (uint64_t i = 0; i < nmeta; i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    uint8_t is;
    pcol_str v;
    if (!s || s > nsrc || (*src && s >= *src)) continue;
    PCOL_RETURN_NOT_OK(pcol_string_is_memo(f, &memo, pcol_view_u32(&mk, i), PCOL_META_NORMALIZE_UNSCALED, &is, err));
    if (!is) continue;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&mv, i), &v, err));
    if (pcol_str_is(v, PCOL_VT_SAMPLES)) *src = s;
  }
  return PCOL_OK;
}

int pcol_count_unmarked_diff(pcol_file *f, uint32_t *src, pcol_error *err) {
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), nsamp = pcol_rows(f, PCOL_T_SAMPLES);
  uint64_t nval = pcol_rows(f, PCOL_T_VALUES);
  *src = 0;
  if (!ns || !nsamp || !nval) return PCOL_OK;
  uint32_t *cvt = NULL;
  const uint8_t *kind;
  pcol_view sty;
  PCOL_RETURN_NOT_OK(pcol_base_kinds(f, &kind, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &sty, err));
  PCOL_RETURN_NOT_OK(pcol_count_types(f, &cvt, err));
  /* the candidates: pprof sources counted by their weight as it is */
  uint8_t *cand = calloc(ns + 1, 1);
  int rc = cand ? PCOL_OK : pcol_oom(err), any = 0;
  pcol_idmemo memo = {{0}, {0}};
  for (uint64_t s = 1; !rc && s <= ns; s++) {
    uint8_t is = 0;
    if (cvt[s] || kind[s]) continue;
    if (!(rc = pcol_string_is_memo(f, &memo, pcol_view_u32(&sty, s - 1), PCOL_SRC_PPROF, &is, err)) && is)
      cand[s] = 1, any = 1;
  }
  free(cvt);
  pcol_view ss, off, val;
  pcol_column_req req[] = {{&ss, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},
                           {&off, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
                           {&val, PCOL_T_VALUES, PCOL_C_V_VALUE}};
  if (!rc && any) rc = pcol_columns(f, req, PCOL_NCOLS(req), err);
  for (uint64_t i = 0; !rc && any && !*src && i < nsamp; i++) {
    uint32_t s = pcol_view_u32(&ss, i);
    if (s > ns || !cand[s]) continue;
    uint64_t lo = pcol_view_u64(&off, i), hi = pcol_view_u64(&off, i + 1);
    if (hi > nval) hi = nval;
    for (uint64_t k = lo; k < hi && !*src; k++)
      if (pcol_view_i64(&val, k) < 0) *src = s;
  }
  free(cand);
  return rc;
}

int pcol_count_types(pcol_file *f, uint32_t **out, pcol_error *err) {
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  uint32_t vt, *c;
  const uint8_t *base;
  pcol_view ss, sv;
  *out = NULL;
  PCOL_RETURN_NOT_OK(pcol_samples_count_vt(f, &vt, err));
  PCOL_RETURN_NOT_OK(pcol_base_kinds(f, &base, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err));
  if (!(c = calloc(ns + 1, sizeof *c))) return pcol_oom(err);
  for (uint64_t i = 0; vt && i < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); i++) {
    uint32_t s = pcol_view_u32(&ss, i);
    if (s >= 1 && s <= ns && pcol_view_u32(&sv, i) == vt) c[s] = vt;
  }
  for (uint64_t s = 1; base[0] && s <= ns; s++)
    if ((base[s] & 3) && !c[s]) c[s] = PCOL_COUNT_NEG; /* a subtracted base's count, its weight */
  *out = c;
  return PCOL_OK;
}

/* The decimal-count rule's tables: dec[vt] (value types + 1 entries) and
 * col[s] (sources + 1), as pcol_rtime's dec_from and collapsed. */
static int decimal_tables(pcol_file *f, uint32_t **dec_out, uint8_t **col_out, pcol_error *err) {
  static const char *const names[3] = {COLLAPSED_VT_COUNT, COLLAPSED_VT_BEFORE, COLLAPSED_VT_AFTER};
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES), ns = pcol_rows(f, PCOL_T_SOURCES);
  pcol_view ty, un, sty;
  *dec_out = NULL;
  *col_out = NULL;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &sty, err));
  uint32_t *dec = calloc(nvt + 1, sizeof *dec);
  uint8_t *col = calloc(ns + 1, 1), *kind = calloc(nvt + 1, 1); /* kind: 1 + name, +3 when decimal */
  int rc = dec && col && kind ? PCOL_OK : pcol_oom(err);
  uint32_t integer[3] = {0, 0, 0}; /* (T, "count") per name, the first */
  for (uint64_t i = 0; !rc && i < nvt; i++) {
    pcol_str t, u;
    if ((rc = pcol_string(f, pcol_view_u32(&ty, i), &t, err)) || (rc = pcol_string(f, pcol_view_u32(&un, i), &u, err)))
      break;
    for (int k = 0; k < 3; k++) {
      if (!pcol_str_is(t, names[k])) continue;
      if (pcol_str_is(u, COLLAPSED_UNIT_NANO)) kind[i + 1] = (uint8_t)(4 + k);
      else if (pcol_str_is(u, COLLAPSED_UNIT_COUNT) && !integer[k]) integer[k] = (uint32_t)(i + 1);
    }
  }
  for (uint64_t i = 1; !rc && i <= nvt; i++) {
    if (kind[i] < 4) continue;
    int k = kind[i] - 4;
    if (integer[k] || k == 0) dec[i] = integer[k] + 1; /* "count" without one: the weight */
  }
  for (uint64_t s = 0; !rc && s < ns; s++) {
    pcol_str st;
    if ((rc = pcol_string(f, pcol_view_u32(&sty, s), &st, err))) break;
    col[s + 1] = (uint8_t)pcol_str_is(st, PCOL_SRC_COLLAPSED);
  }
  free(kind);
  if (rc) {
    free(dec);
    free(col);
    return rc;
  }
  *dec_out = dec;
  *col_out = col;
  return PCOL_OK;
}

/* (family, type name's string id, value type id) of a type in a family.
 * A run of more than KIN_MAX types of one name and family is no kin at all
 * (not its first KIN_MAX): go's spellings of a family's units, "kB",
 * "kilobytes", "KB", ..., are a few dozen, so only a file that lists one
 * type over and over has such a run (count.h pcol_value_kin). */
#define KIN_MAX 64
typedef struct kin_key { uint32_t fam, type, vt; } kin_key;
static int kin_cmp(const void *pa, const void *pb) {
  const kin_key *a = pa, *b = pb;
  if (a->fam != b->fam) return a->fam < b->fam ? -1 : 1;
  if (a->type != b->type) return a->type < b->type ? -1 : 1;
  return (a->vt > b->vt) - (a->vt < b->vt);
}

int pcol_value_kin(pcol_file *f, uint32_t **next_out, double **factor_out, pcol_error *err) {
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  pcol_view ty, un;
  *next_out = NULL;
  *factor_out = NULL;
  if (nvt < 2 || nvt >= UINT32_MAX) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
  uint32_t *next = calloc(nvt + 1, sizeof *next);
  double *factor = calloc(nvt + 1, sizeof *factor);
  kin_key *k = malloc(nvt * sizeof *k);
  int rc = next && factor && k ? PCOL_OK : pcol_oom(err), any = 0;
  size_t nk = 0;
  for (uint64_t i = 1; !rc && i <= nvt; i++) {
    pcol_str u;
    int fam = 0;
    if (!(rc = pcol_string(f, pcol_view_u32(&un, i - 1), &u, err))) fam = pcol_unit_family(u, &factor[i]);
    if (fam) k[nk++] = (kin_key){(uint32_t)fam, pcol_view_u32(&ty, i - 1), (uint32_t)i};
  }
  /* a ring of each run of one family and name (one string id a text:
   * spec.md §6.1), in id order: O(types log types) */
  if (!rc && nk > 1) qsort(k, nk, sizeof *k, kin_cmp);
  for (size_t a = 0, b; !rc && a < nk; a = b) {
    for (b = a + 1; b < nk && k[b].fam == k[a].fam && k[b].type == k[a].type; b++)
      ;
    /* a run longer than a family has units (hostile: one type listed
     * over and over) is no kin, silently: its types are then read as
     * any others of several units (a sample's fill walks its ring, which
     * stays short) */
    if (b - a < 2 || b - a > KIN_MAX) continue;
    for (size_t c = a + 1; c < b; c++) next[k[c - 1].vt] = k[c].vt;
    next[k[b - 1].vt] = k[a].vt, any = 1;
  }
  free(k);
  if (rc || !any) {
    free(next);
    free(factor);
    return rc;
  }
  *next_out = next;
  *factor_out = factor;
  return PCOL_OK;
}

uint32_t pcol_kin_finer(const uint32_t *next, const double *factor, uint32_t a, uint32_t b) {
  if (a == b) return a;
  if (!next || !a || !b) return 0;
  for (uint32_t k = next[a]; k && k != a; k = next[k])
    if (k == b) return factor[b] < factor[a] ? b : a;
  return 0;
}

static uint32_t decimal_of(const uint32_t *dec, uint64_t nvt, uint32_t from) {
  for (uint64_t i = 1; i <= nvt; i++)
    if (dec[i] == from + 1) return (uint32_t)i;
  return 0;
}

uint32_t pcol_rtime_decimal_of(const pcol_rtime *t, uint32_t from) {
  return t->dec_from ? decimal_of(t->dec_from, t->nvt, from) : 0;
}

/* out[s - lo] = the first meta value of key for each source s of [lo, hi]
 * (ptr NULL: none); one pass over meta. */
static int meta_per_source(pcol_file *f, uint32_t lo, uint32_t hi, const char *key, pcol_str *out,
                           pcol_error *err) {
  pcol_view mk, mv, ms;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &mk, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &mv, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &ms, err));
  int rc = PCOL_OK;
  pcol_idmemo memo = {{0}, {0}};
  for (uint64_t i = 0; !rc && i < pcol_rows(f, PCOL_T_META); i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    if (s < lo || s > hi || out[s - lo].ptr) continue;
    uint8_t is;
    rc = pcol_string_is_memo(f, &memo, pcol_view_u32(&mk, i), key, &is, err);
    if (!rc && is) rc = pcol_string(f, pcol_view_u32(&mv, i), &out[s - lo], err);
  }
  return rc;
}

static int default_types_scan(pcol_file *f, uint32_t lo, uint32_t hi, uint32_t *d, uint8_t *last,
                              pcol_error *err) {
  size_t n = (size_t)(hi - lo) + 1;
  pcol_view sty, svs, svv, vty;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &sty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &svs, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vty, err));
  pcol_str *want = calloc(n, sizeof *want);
  uint32_t *named = calloc(n, sizeof *named);
  pcol_rtime rt; /* the time rule, read on the first Rprof source */
  int rt_ready = 0;
  int rc = want && named ? PCOL_OK : pcol_oom(err);
  /* pprof's default_sample_type names the type */
  if (!rc) rc = meta_per_source(f, lo, hi, PPROF_META_DEFAULT_SAMPLE_TYPE, want, err);
  for (size_t i = 0; i < n; i++) d[i] = 0;
  for (size_t i = 0; last && i < n; i++) last[i] = 0;
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
      if (last) last[s - lo] = PCOL_DPLACE_NAMED;
      continue;
    }
    /* (until Rprof's or a decimal type replaces it) */
    if (last) last[s - lo] = !d[s - lo] ? PCOL_DPLACE_OWN : want[s - lo].len ? PCOL_DPLACE_UNLISTED : PCOL_DPLACE_LAST;
    /* pprof's rule (the last type) does not suit Rprof: its values are
     * memory snapshots (levels).  summaryRprof shows time, interval x
     * ticks per segment (the time rule below), else the count. */
    pcol_str st = {NULL, 0};
    if ((rc = pcol_string(f, pcol_view_u32(&sty, s - 1), &st, err))) break;
    if (pcol_str_is(st, PCOL_SRC_RPROF)) {
      if (!rt_ready && !(rc = pcol_rtime_init_meta(&rt, f, err))) rt_ready = 1;
      if (rc) break;
      d[s - lo] = !pcol_rtime_has(&rt, (uint32_t)s) ? 0 : rt.cpu_vt ? rt.cpu_vt : PCOL_VT_TIME;
      if (last) last[s - lo] = PCOL_DPLACE_OWN;
    }
  }
  if (rt_ready) pcol_rtime_free(&rt);
  /* a collapsed source shows every line's count: the decimal form of its
   * type when the file has one (the decimal-count rule) */
  uint32_t *dec = NULL;
  uint8_t *col = NULL;
  if (!rc) rc = decimal_tables(f, &dec, &col, err);
  /* decimal_of for every type at once: inv[from + 1] = the first decimal
   * type made from FROM (a scan per source was O(sources x value types)) */
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  uint32_t *inv = rc ? NULL : calloc(nvt + 2, sizeof *inv);
  if (!rc && !inv) rc = pcol_oom(err);
  for (uint64_t i = nvt; !rc && i >= 1; i--)
    if (dec[i]) inv[dec[i]] = (uint32_t)i;
  for (uint64_t s = lo; !rc && s <= hi; s++) {
    uint32_t from = d[s - lo];
    uint32_t x = s < pcol_rows(f, PCOL_T_SOURCES) + 1 && col[s] && from <= nvt ? inv[from + 1] : 0;
    if (x) d[s - lo] = x;
    if (x && last) last[s - lo] = PCOL_DPLACE_OWN;
  }
  free(inv);
  free(dec);
  free(col);
  free(want);
  free(named);
  return rc;
}

/* Computed once per file for every source (O(meta + source_value_types +
 * value_types + sources)), then copied: a loop that asks each of N sources
 * its default (the report's sources, the exporters) costs O(N), not O(N^2). */
int pcol_source_default_types(pcol_file *f, uint32_t lo, uint32_t hi, uint32_t *d,
                              pcol_error *err) {
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  if (lo < 1 || lo > hi || hi > ns) return default_types_scan(f, lo, hi, d, NULL, err);
  uint32_t *all = atomic_load_explicit(&f->default_types, memory_order_acquire);
  if (!all) {
    if (!(all = malloc((size_t)ns * sizeof *all))) return pcol_oom(err);
    int rc = default_types_scan(f, 1, (uint32_t)ns, all, NULL, err);
    if (rc) {
      free(all);
      return rc;
    }
    uint32_t *none = NULL; /* another thread may have been first: keep its copy */
    if (!atomic_compare_exchange_strong(&f->default_types, &none, all)) {
      free(all);
      all = none;
    }
  }
  memcpy(d, all + (lo - 1), ((size_t)(hi - lo) + 1) * sizeof *d);
  return PCOL_OK;
}

int pcol_source_default_places(pcol_file *f, uint32_t lo, uint32_t hi, uint32_t *d, uint8_t *last,
                               pcol_error *err) {
  return default_types_scan(f, lo, hi, d, last, err);
}

/* The type named `name` among the own defaults d[i] of the sources
 * i in [lo, hi) that keep[i] marks: *vt its id when exactly one type has
 * that name there (not two units of it; the count and Rprof's time, not
 * named types, never), else 0. */
static int named_default(pcol_file *f, const pcol_view *vty, uint64_t nvt, const uint32_t *d,
                         const uint8_t *keep, uint64_t lo, uint64_t hi, pcol_str name, uint32_t *vt,
                         pcol_error *err) {
  uint32_t c = 0;
  int ok = 1;
  for (uint64_t i = lo; ok && i < hi; i++) {
    pcol_str t;
    if (!keep[i] || d[i] < 1 || d[i] > nvt || d[i] == c) continue;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(vty, d[i] - 1), &t, err));
    if (t.ptr && t.len == name.len && !memcmp(t.ptr, name.ptr, t.len)) {
      ok = !c; /* a second type of that name: none */
      c = d[i];
    }
  }
  *vt = ok ? c : 0;
  return PCOL_OK;
}

/* THE stated-default rule, for kept sources (keep[s], s in 1..n) whose own
 * defaults d[s] differ: a source whose profile states its default (meta
 * PCOL_META_DEFAULT_VALUE, a type name: a JFR recording's cpu, for its
 * allocation and native-method samples too) counts as that type, the own
 * default of a kept source of its recording with that name (THE recording
 * rule's runs, pcol_wall_run_end), else of any kept source; so the union
 * treats a recording's sources as the recording alone does.  A source
 * stating none, or a name no kept source has as its default (one type of
 * that name), counts as its own default.  *c = the one type they all then
 * count as, else 0.  One pass over meta and the sources (a lookup per
 * recording and name met, the last remembered). */
static int stated_default(pcol_file *f, uint64_t n, const uint32_t *d, const uint8_t *keep,
                          const uint32_t *kn, const double *kf, uint32_t *c, pcol_error *err) {
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  pcol_view vty;
  pcol_wall w;
  *c = 0;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vty, err));
  pcol_str *said = calloc(n, sizeof *said);
  if (!said) return pcol_oom(err);
  int rc = meta_per_source(f, 1, (uint32_t)n, PCOL_META_DEFAULT_VALUE, said, err);
  if (rc || (rc = pcol_wall_init(f, &w, err))) {
    free(said);
    return rc;
  }
  uint32_t common = 0;
  int first = 1, ok = 1;
  pcol_str gname = {NULL, 0}; /* the last name looked up among every kept source */
  uint32_t gvt = 0;
  for (uint64_t s = 1, e; !rc && ok && s <= n; s = e) {
    e = pcol_wall_run_end(&w, s);
    pcol_str rname = {NULL, 0}; /* the last name looked up in this recording */
    uint32_t rvt = 0;
    for (uint64_t i = s; !rc && ok && i < e; i++) {
      if (!keep[i]) continue;
      uint32_t x = d[i];
      pcol_str nm = said[i - 1];
      if (nm.ptr && nm.len) {
        if (!rname.ptr || !pcol_str_same(rname, nm)) {
          rname = nm;
          rc = named_default(f, &vty, nvt, d, keep, s, e, nm, &rvt, err);
        }
        uint32_t y = rvt;
        if (!rc && !y) {
          if (!gname.ptr || !pcol_str_same(gname, nm)) {
            gname = nm;
            rc = named_default(f, &vty, nvt, d, keep, 1, n + 1, nm, &gvt, err);
          }
          y = gvt;
        }
        if (y) x = y;
      }
      if (first) common = x, first = 0;
      else ok = (common = pcol_kin_finer(kn, kf, common, x)) != 0; /* (kin: the unit rule) */
    }
  }
  pcol_wall_free(&w);
  free(said);
  if (!rc && ok && !first) *c = common;
  return rc;
}

/* go's merge rule (profile.go combineHeaders), for kept sources whose
 * own defaults differ although they measure the same values: when every
 * kept source is a pprof profile and all have one list of value types (the
 * same types in the same order: pprof's `compatible`, which go's merge
 * requires, with one period type; other formats keep the rules above),
 * they count as the default the first of them (in source order: the
 * inputs' order) names in pprof.default_sample_type, as `go tool pprof A
 * B` shows; a heap profile stating alloc_space beside one stating none
 * (inuse_space, pprof's last-type rule) is alloc_space in either order
 * (review 17 F6: the row count was shown).  *c = 0 when the lists or
 * period types differ or none names one.  Two passes over
 * source_value_types and three over meta. */
static int merged_default(pcol_file *f, uint64_t n, const uint32_t *d, const uint8_t *keep,
                          const uint32_t *kn, const double *kf, uint32_t *c, pcol_error *err) {
  *c = 0;
  uint64_t ref = 0; /* the first kept source */
  for (uint64_t s = 1; s <= n && !ref; s++)
    if (keep[s]) ref = s;
  if (!ref) return PCOL_OK;
  pcol_view sty, svs, svv;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &sty, err));
  pcol_idmemo memo = {{0}, {0}};
  for (uint64_t s = 1; s <= n; s++) {
    uint8_t is = 1;
    if (keep[s]) PCOL_RETURN_NOT_OK(pcol_string_is_memo(f, &memo, pcol_view_u32(&sty, s - 1), PCOL_SRC_PPROF, &is, err));
    if (!is) return PCOL_OK;
  }
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &svs, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, err));
  uint64_t rows = pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES), nref = 0;
  for (uint64_t r = 0; r < rows; r++)
    nref += pcol_view_u32(&svs, r) == ref && pcol_view_u32(&svv, r) != 0;
  uint32_t *list = malloc((size_t)(nref + 1) * sizeof *list);
  uint64_t *at = calloc((size_t)n + 1, sizeof *at); /* the next place of each source in the list */
  pcol_str *said = calloc((size_t)n, sizeof *said);
  int rc = list && at && said ? PCOL_OK : pcol_oom(err), same = 1;
  uint64_t k = 0;
  for (uint64_t r = 0; !rc && r < rows; r++)
    if (pcol_view_u32(&svs, r) == ref && pcol_view_u32(&svv, r) != 0) list[k++] = pcol_view_u32(&svv, r);
  for (uint64_t r = 0; !rc && same && r < rows; r++) {
    uint32_t s = pcol_view_u32(&svs, r), v = pcol_view_u32(&svv, r);
    if (s < 1 || s > n || !keep[s] || v == 0) continue;
    uint32_t w = at[s] < nref ? pcol_kin_finer(kn, kf, list[at[s]], v) : 0; /* (kin: the unit rule) */
    same = w != 0;
    if (same) list[at[s]] = w; /* the finest of each place */
    at[s]++;
  }
  for (uint64_t s = 1; !rc && same && s <= n; s++) same = !keep[s] || at[s] == nref;
  /* and one period type (go's `compatible` asks that too: a profile of
   * another period type is refused by go's merge, so it decides nothing) */
  static const char *const PT[2] = {PPROF_META_PERIOD_TYPE_TYPE, PPROF_META_PERIOD_TYPE_UNIT};
  for (int k2 = 0; !rc && same && nref && k2 < 2; k2++) {
    memset(said, 0, (size_t)n * sizeof *said);
    rc = meta_per_source(f, 1, (uint32_t)n, PT[k2], said, err);
    double r;
    for (uint64_t s = 1; !rc && same && s <= n; s++) /* (a unit of one family: the unit rule) */
      same = !keep[s] || (k2 == 0 ? pcol_str_same(said[s - 1], said[ref - 1])
                                  : pcol_unit_common(said[s - 1], said[ref - 1], &r));
  }
  if (!rc && same && nref) {
    memset(said, 0, (size_t)n * sizeof *said);
    rc = meta_per_source(f, 1, (uint32_t)n, PPROF_META_DEFAULT_SAMPLE_TYPE, said, err);
  }
  for (uint64_t s = 1; !rc && same && nref && s <= n && !*c; s++)
    if (keep[s] && said[s - 1].ptr && said[s - 1].len) *c = d[s];
  for (uint64_t j = 0; *c && j < nref; j++) /* its place's finest kin */
    if (pcol_kin_finer(kn, kf, list[j], *c)) *c = list[j];
  free(list);
  free(at);
  free(said);
  return rc;
}

int pcol_selection_default_type(pcol_file *f, const pcol_select *sel, uint32_t *chosen, int *differ,
                                pcol_error *err) {
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  uint32_t source_id = sel ? sel->source_id : 0;
  *chosen = 0;
  if (differ) *differ = 0;
  if (source_id > nsrc)
    return pcol_error_set(err, PCOL_ENOTFOUND, "no source %u (the file has %llu)", source_id,
                          (unsigned long long)nsrc);
  if (source_id) { /* one source: its own default (O(1): a loop over the sources asks each) */
    int rc = pcol_source_default_types(f, source_id, source_id, chosen, err);
    if (rc) *chosen = 0;
    return rc;
  }
  if (nsrc < 1 || nsrc > UINT32_MAX) return PCOL_OK;
  uint8_t *keep = NULL;
  uint32_t *d = malloc((size_t)(nsrc + 1) * sizeof *d);
  if (!d) return pcol_oom(err);
  int rc = pcol_source_default_types(f, 1, (uint32_t)nsrc, d + 1, err);
  if (!rc) rc = pcol_selection_sources(f, sel, &keep, err);
  uint32_t c = 0, *kn = NULL;
  double *kf = NULL;
  int dis = 0, first = 1;
  /* defaults that are kin (the unit rule: inuse_space in bytes and in
   * kilobytes) agree, on the finest: go scales them so and merges */
  if (!rc) rc = pcol_value_kin(f, &kn, &kf, err);
  for (uint64_t s = 1; !rc && s <= nsrc && !dis; s++) {
    if (!keep[s]) continue;
    if (first) c = d[s], first = 0;
    else if (d[s] != c && !(c = pcol_kin_finer(kn, kf, c, d[s]))) dis = 1; /* sources disagree: count samples, which every source has */
  }
  if (dis && (rc = stated_default(f, nsrc, d, keep, kn, kf, &c, err)) == PCOL_OK && c) dis = 2;
  /* (go's merge is silent: so is this, as sources that agree) */
  if (dis == 1 && !rc && (rc = merged_default(f, nsrc, d, keep, kn, kf, &c, err)) == PCOL_OK && c) dis = 0;
  free(kn);
  free(kf);
  free(keep);
  free(d);
  if (differ) *differ = rc ? 0 : dis;
  *chosen = rc ? 0 : c;
  return rc;
}

/* go's merge (profile.go combineHeaders) keeps the default_sample_type a
 * profile names, the first one's: a pprof diff (-diff_base merges the
 * profile and its base) shows the type the profile names, else the one
 * the base names (pcol_value_diff_default).  The selection's default
 * counts as named when its sources agree on it (as merged_default's rule)
 * and a selected source whose own default it is names it there.  One pass
 * over meta besides pcol_selection_default_type's. */
int pcol_selection_named_default(pcol_file *f, const pcol_select *sel, uint32_t *chosen, int *agree,
                                 int *named, pcol_error *err) {
  int dis;
  *named = *agree = 0;
  PCOL_RETURN_NOT_OK(pcol_selection_default_type(f, sel, chosen, &dis, err));
  uint32_t c = *chosen;
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES);
  *agree = !dis;
  if (dis || c == 0 || c > pcol_rows(f, PCOL_T_VALUE_TYPES) || n < 1 || n > UINT32_MAX) return PCOL_OK;
  pcol_view ty;
  pcol_str t;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, c - 1), &t, err));
  uint8_t *keep = NULL;
  uint32_t *d = malloc((size_t)n * sizeof *d);
  pcol_str *said = calloc((size_t)n, sizeof *said);
  int rc = d && said ? PCOL_OK : pcol_oom(err);
  if (!rc) rc = pcol_source_default_types(f, 1, (uint32_t)n, d, err);
  if (!rc) rc = pcol_selection_sources(f, sel, &keep, err);
  if (!rc) rc = meta_per_source(f, 1, (uint32_t)n, PPROF_META_DEFAULT_SAMPLE_TYPE, said, err);
  for (uint64_t s = 1; !rc && s <= n && !*named; s++)
    *named = keep[s] && d[s - 1] == c && said[s - 1].len && pcol_str_same(said[s - 1], t);
  free(keep);
  free(d);
  free(said);
  return rc;
}

static int rseg_cmp(const void *pa, const void *pb) {
  const struct pcol_rseg *a = pa, *b = pb;
  if (a->src != b->src) return a->src < b->src ? -1 : 1;
  return (a->t > b->t) - (a->t < b->t);
}

int pcol_rtime_segment_start(const pcol_rtime *t, uint64_t row) {
  if (!t->nseg || !t->time.count) return 0; /* (count: the column was read; its data is NULL when encoded) */
  struct pcol_rseg k = {pcol_view_u32(&t->source, row), pcol_view_i64(&t->time, row)};
  /* the first sample at that time: segments of interval 0 (all at one
   * time) are not told apart, rather than every sample taken for a start */
  if (row > 0 && pcol_view_u32(&t->source, row - 1) == k.src && pcol_view_i64(&t->time, row - 1) >= k.t) return 0;
  return bsearch(&k, t->seg, t->nseg, sizeof *t->seg, rseg_cmp) != NULL;
}

/* A meta value that is a positive decimal number of microseconds, in ns. */
static int64_t meta_us_as_ns(pcol_str v) {
  int64_t us;
  if (pcol_str_i64(v, &us) || us <= 0 || us > INT64_MAX / 1000) return 0;
  return us * 1000;
}

int pcol_rtime_init(pcol_rtime *t, pcol_file *f, pcol_error *err) {
  const pcol_column_req cols[] = {
      {&t->source, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},   {&t->time, PCOL_T_SAMPLES, PCOL_C_S_TIME},
      {&t->dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION},    {&t->weight, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT}};
  PCOL_RETURN_NOT_OK(pcol_rtime_init_meta(t, f, err));
  /* the times, durations and weights only when a source derives its time
   * (pcol_rtime_value reads them for those only): a file without one does
   * not decode its time column for nothing (a zstd-blocks column, format
   * 1.4, is then read only where a time range needs it) */
  int derives = 0;
  for (uint64_t s = 1; s <= t->nsources && !derives; s++) derives = pcol_rtime_has(t, (uint32_t)s);
  derives |= t->nseg > 0; /* the segments are found by time (an interval of 0 derives none) */
  int rc = pcol_columns(f, cols, derives ? PCOL_NCOLS(cols) : 1, err);
  if (rc) pcol_rtime_free(t);
  return rc;
}

int pcol_rtime_init_meta(pcol_rtime *t, pcol_file *f, pcol_error *err) {
  memset(t, 0, sizeof *t);
  t->nsources = pcol_rows(f, PCOL_T_SOURCES);
  t->nsamples = pcol_rows(f, PCOL_T_SAMPLES);
  pcol_view sty, mk, mv, ms, ty, un;
  const pcol_column_req cols[] = {
      {&sty, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE},     {&mk, PCOL_T_META, PCOL_C_META_KEY},
      {&mv, PCOL_T_META, PCOL_C_META_VALUE},           {&ms, PCOL_T_META, PCOL_C_META_SOURCE},
      {&ty, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE},       {&un, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, cols, PCOL_NCOLS(cols), err));
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_VALUE_TYPES) && !(t->cpu_vt && t->ralloc_vt); i++) {
    pcol_str a, b;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &a, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, i), &b, err));
    if (!t->cpu_vt && pcol_str_is(a, PCOL_VT_CPU) && pcol_str_is(b, PCOL_UNIT_NANOSECONDS))
      t->cpu_vt = (uint32_t)(i + 1);
    if (!t->ralloc_vt && pcol_str_is(a, PCOL_VALUE_RPROF_ALLOC) && pcol_str_is(b, "bytes"))
      t->ralloc_vt = (uint32_t)(i + 1);
  }
  if (!(t->last_ns = calloc(t->nsources + 1, sizeof *t->last_ns))) return pcol_oom(err);
  int64_t *first = calloc(t->nsources + 1, sizeof *first);
  if (!first) {
    pcol_rtime_free(t);
    return pcol_oom(err);
  }
  int rc = PCOL_OK;
  pcol_idmemo memo = {{0}, {0}};
  static const char *const keys[] = {RPROF_META_INTERVAL_US, RPROF_META_INTERVAL_LAST_US,
                                     RPROF_META_SEGMENT_START_NS};
  size_t segcap = 0;
  for (uint64_t i = 0; !rc && i < pcol_rows(f, PCOL_T_META); i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    if (s < 1 || s > t->nsources) continue;
    pcol_str v, st;
    uint8_t kind; /* 1 interval, 2 last interval, 0 other */
    if ((rc = pcol_string_which_memo(f, &memo, pcol_view_u32(&mk, i), keys, 3, &kind, err))) break;
    int is_first = kind == 1, is_last = kind == 2, is_seg = kind == 3;
    if (!is_first && !is_last && !is_seg) continue;
    if ((rc = pcol_string(f, pcol_view_u32(&sty, s - 1), &st, err))) break;
    if (!pcol_str_is(st, PCOL_SRC_RPROF)) continue;
    if ((rc = pcol_string(f, pcol_view_u32(&mv, i), &v, err))) break;
    int64_t at;
    if (is_seg && !pcol_str_i64(v, &at)) { /* a value not a number: no segment (a damaged file) */
      if (PCOL_GROW(t->seg, t->nseg, segcap)) {
        rc = pcol_oom(err);
        break;
      }
      t->seg[t->nseg++] = (struct pcol_rseg){s, at};
    } else if (is_first) {
      first[s] = meta_us_as_ns(v);
    } else if (is_last) {
      t->last_ns[s] = meta_us_as_ns(v);
    }
  }
  if (t->nseg) qsort(t->seg, t->nseg, sizeof *t->seg, rseg_cmp);
  for (uint64_t s = 1; s <= t->nsources; s++)
    if (!t->last_ns[s]) t->last_ns[s] = first[s];
  free(first);
  t->nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  if (!rc) rc = decimal_tables(f, &t->dec_from, &t->collapsed, err);
  if (!rc) rc = pcol_value_kin(f, &t->kin_next, &t->kin_factor, err);
  const uint8_t *base = NULL; /* (kept on f: not freed) */
  if (!rc) rc = pcol_base_kinds(f, &base, err);
  if (!rc && base[0]) t->base = base;
  if (rc) pcol_rtime_free(t);
  return rc;
}

void pcol_unit_drop_free(pcol_unit_drop *d) {
  free(d->src);
  free(d->off);
  free(d->vt);
  free(d->scaled);
  memset(d, 0, sizeof *d);
}

void pcol_rtime_free(pcol_rtime *t) {
  free(t->seg);
  t->seg = NULL;
  t->nseg = 0;
  free(t->last_ns);
  free(t->dec_from);
  free(t->collapsed);
  free(t->kin_next);
  free(t->kin_factor);
  pcol_unit_drop_free(&t->drop);
  free(t->pick.src);
  memset(&t->pick, 0, sizeof t->pick);
  t->kin_next = NULL;
  t->kin_factor = NULL;
  t->last_ns = NULL;
  t->dec_from = NULL;
  t->collapsed = NULL;
}

int pcol_unit_decimals(pcol_str unit, pcol_str *shown) {
  /* "1e-D" or "1e-D U", D = 1..9 (COLLAPSED_UNIT_NANO is "1e-9"; a Perun
   * file whose amounts are too large for 10^9 is stored with fewer) */
  if (unit.ptr && unit.len >= 4 && !memcmp(unit.ptr, "1e-", 3) && unit.ptr[3] >= '1' &&
      unit.ptr[3] <= '9' && (unit.len == 4 || (unit.ptr[4] == ' ' && unit.len > 5))) {
    if (shown) *shown = unit.len == 4 ? (pcol_str){"", 0} : (pcol_str){unit.ptr + 5, unit.len - 5};
    return unit.ptr[3] - '0';
  }
  if (shown) *shown = unit;
  return 0;
}

int pcol_decimal_kept(double w, int64_t v, double scale, double ref) {
  if (w == 0) return v == 0;
  return fabs((double)v / scale - w) <= 1e-6 * fmax(fabs(w), ref);
}

pcol_kept_tally *pcol_kept_at(pcol_kept_tally **t, size_t *n, uint32_t vt) {
  if (vt >= *n) {
    size_t m = (size_t)vt + 1 > 2 * *n ? (size_t)vt + 1 : 2 * *n;
    pcol_kept_tally *k = realloc(*t, m * sizeof *k);
    if (!k) return NULL;
    memset(k + *n, 0, (m - *n) * sizeof *k);
    *t = k, *n = m;
  }
  return &(*t)[vt];
}

/* ------------------------------------------------ exact decimal sums */
#define DEC_LO (-342) /* limb 0's power of ten */
#define DEC_BASE 1000000000LL

/* every limb within [0, 10^9) but the top one, which holds the sign */
static void dec_carry(pcol_dec_sum *s) {
  for (int i = 0; i < PCOL_DEC_LIMBS - 1; i++) {
    int64_t c = s->l[i] / DEC_BASE;
    if (s->l[i] - c * DEC_BASE < 0) c--; /* (floor) */
    s->l[i] -= c * DEC_BASE, s->l[i + 1] += c;
  }
  s->adds = 0;
}

void pcol_dec_sum_add(pcol_dec_sum *s, int64_t m, int e) {
  if (!m) return;
  int p = e - DEC_LO;
  /* (out of a double's decimals: none is; a tail below 10^-342 is dropped) */
  while (p < 0 && m) m /= 10, p++;
  if (!m || p > 9 * (PCOL_DEC_LIMBS - 3)) return;
  int i = p / 9, o = p % 9;
  int64_t sc = 1;
  for (int k = 0; k < o; k++) sc *= 10;
  int64_t lo = m % DEC_BASE, hi = m / DEC_BASE; /* |lo|, |hi| < 10^9 */
  int64_t a = lo * sc, b = hi * sc;            /* < 10^17 */
  s->l[i] += a % DEC_BASE;
  s->l[i + 1] += a / DEC_BASE + b % DEC_BASE;
  s->l[i + 2] += b / DEC_BASE;
  if (++s->adds >= (1u << 30)) dec_carry(s);
}

void pcol_dec_sum_add_double(pcol_dec_sum *s, double d) {
  if (!(d == d) || d == 0 || isinf(d)) return;
  char b[40];
  for (int p = 15; p <= 17; p++) {
    snprintf(b, sizeof b, "%.*e", p - 1, d);
    if (strtod(b, NULL) == d) break;
  }
  /* [-]D.DDDDe[+-]X: the digits as a whole number, the exponent less the decimals */
  int64_t m = 0;
  int nd = 0, neg = b[0] == '-';
  const char *q = b + neg;
  for (; *q && *q != 'e'; q++)
    if (*q >= '0' && *q <= '9') m = m * 10 + (*q - '0'), nd++;
  int x = *q == 'e' ? atoi(q + 1) : 0;
  pcol_dec_sum_add(s, neg ? -m : m, x - (nd - 1));
}

int pcol_dec_sum_text(const pcol_dec_sum *in, char *buf, size_t cap) {
  pcol_dec_sum s = *in;
  dec_carry(&s);
  int neg = s.l[PCOL_DEC_LIMBS - 1] < 0;
  if (neg) {
    for (int i = 0; i < PCOL_DEC_LIMBS; i++) s.l[i] = -s.l[i];
    dec_carry(&s);
  }
  /* the digits, most significant first, and the power of the first */
  char d[9 * PCOL_DEC_LIMBS + 2];
  int n = 0, top = PCOL_DEC_LIMBS - 1;
  while (top >= 0 && !s.l[top]) top--;
  if (top < 0) return snprintf(buf, cap, "0");
  for (int i = top; i >= 0; i--) {
    char t[10];
    snprintf(t, sizeof t, "%09lld", (long long)s.l[i]);
    memcpy(d + n, t, 9), n += 9;
  }
  int lead = 0;
  while (d[lead] == '0') lead++;
  int x = 9 * top + DEC_LO + 8 - lead; /* the first digit's power of ten */
  memmove(d, d + lead, (size_t)(n - lead)), n -= lead;
  while (n > 1 && d[n - 1] == '0') n--;
  if (n > 30) { /* rounded half away from zero to 30 digits */
    int up = d[30] >= '5';
    n = 30;
    for (int k = n - 1; up && k >= 0; k--) {
      if (d[k] == '9') d[k] = '0';
      else d[k]++, up = 0;
    }
    if (up) memmove(d + 1, d, (size_t)n - 1), d[0] = '1', x++;
    while (n > 1 && d[n - 1] == '0') n--;
  }
  d[n] = 0;
  int o = 0, prec = n > 15 ? n : 15;
  char t[80];
  if (neg) t[o++] = '-';
  if (x < -4 || x >= prec) { /* as %g: D.DDDe+XX */
    t[o++] = d[0];
    if (n > 1) t[o++] = '.', memcpy(t + o, d + 1, (size_t)n - 1), o += n - 1;
    o += snprintf(t + o, sizeof t - (size_t)o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
  } else if (x < 0) {
    t[o++] = '0', t[o++] = '.';
    for (int k = -1; k > x; k--) t[o++] = '0';
    memcpy(t + o, d, (size_t)n), o += n;
  } else {
    for (int k = 0; k <= x || k < n; k++) {
      if (k == x + 1) t[o++] = '.';
      t[o++] = k < n ? d[k] : '0';
    }
  }
  t[o] = 0;
  return snprintf(buf, cap, "%s", t);
}

/* what v / scale is, exactly, added to s: scale a power of ten (every
 * importer's grid), else its double's decimal */
static void dec_add_grid(pcol_dec_sum *s, int64_t v, double scale, int sign) {
  double p = 1;
  for (int k = 0; k <= 18; k++, p *= 10)
    if (p == scale) {
      if (v > -(INT64_MAX / 10) && v < INT64_MAX / 10) pcol_dec_sum_add(s, sign * v, -k);
      else pcol_dec_sum_add(s, sign * (v / 10), 1 - k), pcol_dec_sum_add(s, sign * (v % 10), -k);
      return;
    }
  pcol_dec_sum_add_double(s, sign * ((double)v / scale));
}

int pcol_kept_add(pcol_kept_tally *t, double w, int64_t v, double scale, double ref) {
  t->total += w;
  t->amounts++;
  dec_add_grid(&t->total_dec, v, scale, 1); /* (exact and quick: a whole number of the grid) */
  if (pcol_decimal_kept(w, v, scale, ref)) return 0;
  t->zero += v == 0;
  t->lost += (long double)w - (long double)v / scale;
  pcol_dec_sum_add_double(&t->lost_dec, w);
  dec_add_grid(&t->lost_dec, v, scale, -1);
  if (t->n++) return 0;
  t->first_w = w, t->first_v = (double)v / scale;
  return 1;
}

int pcol_rounded_text(char *buf, size_t cap, uint64_t n, const char *one_what, const char *many_what,
                      const char *at, const char *grid, uint64_t zero, const char *zero_why, long double lost) {
  return snprintf(buf, cap, "%llu %s (the first: %s) %s rounded to %s, as pcol keeps them, %llu of them to 0%s%s%s: "
                  "the total lost %.3Lg", (unsigned long long)n, n == 1 ? one_what : many_what, at,
                  n == 1 ? "is" : "are", grid, (unsigned long long)zero, zero_why ? " (" : "", zero_why ? zero_why : "",
                  zero_why ? ")" : "", lost);
}

/* what t's rounding lost, as a fraction of its total (a loss of a total
 * of 0: past every bound) */
static long double kept_part(const pcol_kept_tally *t) {
  long double tot = fabsl(t->total), l = fabsl(t->lost);
  return l == 0 ? 0 : tot == 0 ? INFINITY : l / tot;
}

/* the total a message says: the amounts as held (exact: whole numbers of
 * the grid) and what those not kept lost (exact: the file's decimals less
 * the grid's), so the file's total to within the kept rule's six digits of
 * each amount kept, and exactly its numbers where each is on the grid or
 * not kept (a weight of 1e-12 beside 0.3: 0.300000000001) */
static pcol_dec_sum kept_total(const pcol_kept_tally *t) {
  pcol_dec_sum s = t->total_dec;
  for (int i = 0; i < PCOL_DEC_LIMBS; i++) s.l[i] += t->lost_dec.l[i];
  s.adds = t->total_dec.adds + t->lost_dec.adds;
  return s;
}

int pcol_kept_verdict(const pcol_kept_tally *t, size_t nt, const char *name, pcol_error *err) {
  size_t typed = 0, lossy = 0; /* value types with amounts; of them, with amounts not kept */
  for (size_t i = 0; i < nt; i++) {
    typed += t[i].amounts != 0, lossy += t[i].n != 0;
    if (!t[i].n || kept_part(&t[i]) <= 1e-6L) continue;
    char a[48], b[48]; /* (exactly: the sums of the file's numbers, not the arithmetic's) */
    pcol_dec_sum tot = kept_total(&t[i]);
    pcol_dec_sum_text(&t[i].lost_dec, a, sizeof a), pcol_dec_sum_text(&tot, b, sizeof b);
    pcol_error_set(err, t[i].refusal.code, "%s; its value type's %llu amount%s so rounded lose %s of their total %s, "
                   "more than a millionth", t[i].refusal.message, (unsigned long long)t[i].n,
                   t[i].n == 1 ? "" : "s", a, b);
    return t[i].refusal.code;
  }
  if (!lossy) return PCOL_OK;
  /* one value type: THE rounding words, of its total (named when the file
   * has others); several: each its own count, first, loss and total, never
   * added up (a count of all beside one type's loss and total read as that
   * type's: review h14) */
  char msg[sizeof err->message], *o = msg;
  size_t room = sizeof msg, done = 0;
  uint64_t n = 0, zero = 0;
  for (size_t i = 0; i < nt; i++) n += t[i].n, zero += t[i].zero;
  if (lossy > 1) {
    int k = snprintf(msg, sizeof msg, "%llu amount%s not held to six significant digits %s rounded to the file's grid, "
                     "as pcol keeps them, %llu of them to 0, each value type's loss less than a millionth of its total:",
                     (unsigned long long)n, n == 1 ? "" : "s", n == 1 ? "is" : "are", (unsigned long long)zero);
    o += k, room -= (size_t)k;
  }
  for (size_t i = 0; i < nt; i++) {
    if (!t[i].n) continue;
    char at[256], w[32], v[32], text[480], tot[48], clause[640], type[80], lt[48];
    pcol_g_text(w, sizeof w, t[i].first_w), pcol_g_text(v, sizeof v, t[i].first_v);
    snprintf(at, sizeof at, "%s, %s held as %s", t[i].first_at, w, v);
    pcol_dec_sum td = kept_total(&t[i]);
    pcol_dec_sum_text(&td, tot, sizeof tot);
    /* the loss to 3 digits, of its exact sum (not of the arithmetic's) */
    pcol_dec_sum_text(&t[i].lost_dec, lt, sizeof lt);
    long double lost = strtold(lt, NULL);
    if (t[i].type[0]) snprintf(type, sizeof type, "%s", t[i].type);
    else snprintf(type, sizeof type, "#%zu", i); /* (unnamed: its id) */
    int k;
    if (lossy > 1) {
      k = snprintf(clause, sizeof clause, "%s %s: %llu (the first: %s), %llu to 0, lost %.3Lg of %s", done ? ";" : "",
                   type, (unsigned long long)t[i].n, at, (unsigned long long)t[i].zero, lost, tot);
    } else {
      pcol_rounded_text(text, sizeof text, t[i].n, "amount not held to six significant digits",
                        "amounts not held to six significant digits", at, "the file's grid", t[i].zero, NULL,
                        lost);
      k = typed > 1 ? snprintf(clause, sizeof clause, "value type %s: %s of its total %s (less than a millionth)",
                               type, text, tot)
                    : snprintf(clause, sizeof clause, "%s of %s (less than a millionth)", text, tot);
    }
    if (k < 0 || (size_t)k >= room - 40) { /* the rest counted, not named */
      snprintf(o, room, "; %zu more value type%s", lossy - done, lossy - done == 1 ? "" : "s");
      break;
    }
    memcpy(o, clause, (size_t)k + 1);
    o += k, room -= (size_t)k, done++;
  }
  /* after the warnings before it (a trace's other profiles'); a file read
   * twice, `top F F`: said once */
  return pcol_warn_add(err, "%s: %s", name, msg);
}

void pcol_g_text(char *buf, size_t cap, double d) {
  for (int p = 15; p <= 17; p++) {
    snprintf(buf, cap, "%.*g", p, d);
    if (strtod(buf, NULL) == d) return;
  }
}

int pcol_decimals_for(double amax) {
  static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  int k = 9;
  while (k > 0 && amax * p10[k] >= 9.2e18) k--;
  return k;
}

int pcol_decimal_text(char *buf, size_t cap, __int128 v, int decimals) {
  if (!cap) return 0;
  unsigned __int128 a = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v, scale = 1;
  for (int k = 0; k < decimals; k++) scale *= 10;
  unsigned __int128 ip = a / scale, fp = a % scale;
  char ib[48];
  int n = 0;
  do {
    ib[n++] = (char)('0' + (int)(ip % 10));
    ip /= 10;
  } while (ip && n < 47);
  size_t o = 0;
  if (v < 0 && o < cap) buf[o++] = '-';
  while (n && o < cap) buf[o++] = ib[--n];
  if (fp) {
    char fb[40];
    int e = decimals;
    for (int k = decimals; k-- > 0; fp /= 10) fb[k] = (char)('0' + (int)(fp % 10));
    while (e > 0 && fb[e - 1] == '0') e--;
    if (o < cap) buf[o++] = '.';
    for (int k = 0; k < e && o < cap; k++) buf[o++] = fb[k];
  }
  if (o >= cap) o = cap - 1;
  buf[o] = 0;
  return (int)o;
}

size_t pcol_sum_text(pcol_sum v, char *buf, size_t cap) { return (size_t)pcol_decimal_text(buf, cap, v, 0); }

int pcol_source_lasts_until_next(pcol_file *f, uint32_t s) {
  pcol_view ty;
  pcol_str t = {0};
  pcol_error e = {0};
  if (!s || s > pcol_rows(f, PCOL_T_SOURCES) ||
      pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, &e) ||
      pcol_string(f, pcol_view_u32(&ty, s - 1), &t, &e) || !t.ptr)
    return 0;
  return pcol_str_is(t, PCOL_SRC_V8) || pcol_str_is(t, PCOL_SRC_CHROME);
}

int pcol_sources_having(pcol_file *f, uint32_t vt, const uint32_t *want, int nwant, uint8_t *has,
                        pcol_error *err) {
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  pcol_view ss, sv;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err));
  memset(has, 0, nsrc + 1);
  for (int k = 0; k < nwant && k < 8; k++) {
    uint8_t bit = (uint8_t)(1u << k);
    for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++) {
      uint32_t s = pcol_view_u32(&ss, r);
      if (s >= 1 && s <= nsrc && pcol_view_u32(&sv, r) == want[k]) has[s] |= bit;
    }
  }
  uint8_t full = (uint8_t)((1u << (nwant < 8 ? nwant : 8)) - 1);
  for (uint64_t s = 1; s <= nsrc; s++) has[s] = has[s] == full;
  pcol_rtime rt;
  PCOL_RETURN_NOT_OK(pcol_rtime_init_meta(&rt, f, err)); /* (has and fills need no samples) */
  if (vt == PCOL_VT_TIME || (rt.cpu_vt && vt == rt.cpu_vt))
    for (uint64_t s = 1; s <= nsrc; s++) has[s] |= (uint8_t)pcol_rtime_has(&rt, (uint32_t)s);
  for (uint64_t s = 1; s <= nsrc; s++) has[s] |= (uint8_t)pcol_rtime_fills(&rt, (uint32_t)s, vt);
  /* the unit rule: a source that declares a coarser kin of vt */
  for (uint64_t r = 0; rt.kin_next && vt >= 1 && vt <= rt.nvt && r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++) {
    uint32_t s = pcol_view_u32(&ss, r), k = pcol_view_u32(&sv, r);
    if (s >= 1 && s <= nsrc && k != vt && k >= 1 && k <= rt.nvt && rt.kin_factor[k] >= rt.kin_factor[vt] &&
        pcol_kin_finer(rt.kin_next, rt.kin_factor, vt, k) == vt)
      has[s] = 1;
  }
  pcol_rtime_free(&rt);
  return PCOL_OK;
}
