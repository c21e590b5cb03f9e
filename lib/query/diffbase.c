/* diffbase.c — pcol_open_diff_base: go tool pprof's -base and -diff_base
 * (driver/fetch.go: the base profile scaled by -1 and merged with the
 * profile; -diff_base also labels the base's samples "pprof::base" =
 * "true").  Every view then shows the change: a function's flat and cum
 * are the profile's minus the base's.  The total is pprof's (report.go
 * computeTotal, weights.c diff_base_total): with -diff_base the base's, so
 * shares are of the base; with -base that of the merged profile's |values|.
 *
 * As pprof's merge, the two must measure the same value types, paired by
 * position (else "inconsistent samples type count", "sample types:
 * incompatible types"), each one's list that of its pprof export: THE
 * union of its sources' values (pcol_vunion_make, lib/core/xvalues.c), as
 * go reads the export of a profile whose sources measure different values
 * (a JFR recording's execution and allocation samples), and the default
 * type is the first one named, the
 * profile's before the base's (profile.go combineHeaders), so a profile
 * that names none takes the base's.  Before the merge pprof's
 * measurement.ScaleProfiles makes their units one: a value type (and the
 * period type) may be in another unit of the same family (cpu in
 * nanoseconds and in microseconds), and the one in the coarser unit is
 * scaled into the finer one (ScaleN: rounded, after its own samples are
 * merged); a period type of another name or of units of no one family is
 * refused ("period type: incompatible types").  -normalize checks the
 * types as they are (profile.go Normalize: compatible), before any
 * scaling.
 *
 * Cost: a copy of both into memory (pcol_b_add_file_copy): O(both files)
 * time, the copy's size in memory; -normalize of a profile whose values
 * are made from its samples (Rprof, collapsed) one more copy of the
 * profile, its made values stored, while it is merged (the base's are
 * made as it is merged).  pcol_open_diff_base_select: a selection of each
 * side first (go's view of the two selections' exports): --source N makes
 * a copy of source N of a side of several sources (pcol_q_source_alone), and a
 * time range narrows the samples merged before they are scaled (the
 * -normalize ratio's sums and groups, a unit's merge: pcol_b_copy.norm_sel);
 * the other samples keep their times for the views' range. */
#include "query.h"
#include "builder.h" /* pcol_b_add_file_copy */
#include "reader.h"  /* struct pcol_file: input_bytes */
#include "error.h"   /* pcol_oom */
#include "bytes.h"   /* pcol_str_is */
#include "keys.h"    /* PPROF_META_DEFAULT_SAMPLE_TYPE */
#include "columns.h" /* PCOL_NCOLS, pcol_columns */
#include "period.h"  /* pcol_period, pcol_source_period */
#include "count.h"   /* pcol_unit_decimals, pcol_unit_common */
#include "xvalues.h" /* pcol_vunion_make: THE union of value columns */
#include "buf.h"     /* PCOL_GROW */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int str_eq(pcol_str a, pcol_str b) {
  return a.len == b.len && (!a.len || !memcmp(a.ptr, b.ptr, a.len));
}

/* pprof's measurement.CommonValueType of two units of one name (THE unit
 * rule, count.h pcol_unit_common): 0 when they differ and are not of one
 * family; else 1, *ra and *rb what a value in a and in b is multiplied by
 * to be in the finer one (a's when as fine: pprof keeps the first). */
static int unit_common(pcol_str a, pcol_str b, double *ra, double *rb) {
  double b_in_a;
  *ra = *rb = 1;
  if (!pcol_unit_common(a, b, &b_in_a)) return 0;
  if (b_in_a < 1) (void)pcol_unit_common(b, a, ra); /* b is finer */
  else *rb = b_in_a;
  return 1;
}

/* The period type the first source of f that has one (*src) names (*has 0: none;
 * a pprof profile without one has pprof's empty one, postDecode's: "/",
 * which another period type is not compatible with). */
static int period_type(pcol_file *f, int *has, pcol_str *type, pcol_str *unit, uint32_t *src,
                       pcol_error *err) {
  *has = 0;
  *src = 1;
  *type = *unit = (pcol_str){"", 0};
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  for (uint64_t s = 1; s <= ns && !*has; s++) {
    pcol_period pd; /* THE period rule (lib/core/period.c) */
    PCOL_RETURN_NOT_OK(pcol_source_period(f, (uint32_t)s, &pd, err));
    *type = pd.has_type ? pd.type : (pcol_str){"", 0};
    *unit = pd.has_unit ? pd.unit : (pcol_str){"", 0};
    *has = pd.has_type || pd.has_unit;
    *src = (uint32_t)s;
  }
  if (!*has && ns) {
    pcol_view sty;
    pcol_str t;
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &sty, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&sty, 0), &t, err));
    *has = pcol_str_is(t, PCOL_SRC_PPROF);
    *type = *unit = (pcol_str){"", 0};
  }
  return PCOL_OK;
}

/* pprof's measurement.ScaleProfiles of f and its base: the period types
 * must be of one name and family, and the value types are paired by
 * position (each one's union of its sources' lists, pcol_vunion): as many,
 * of the same names in the same order, in units of one family; rf[t]
 * and rb[t] (f's and base's value type ids t, NULL when no type is scaled)
 * the ratio into the finer unit, uf/ub the unit it writes.  *why (NULL:
 * they match) says what does not. */
typedef struct type_scale {
  double *rf, *rb;
  pcol_str *uf, *ub;
  uint64_t nf, nb; /* rows + 1 */
  uint8_t *wf, *wb; /* [t]: scaled as the whole profile is, after its merge (its list's unit is not the finer) */
  pcol_unit_drop df, db; /* each one's own sources' drop before its merge (THE unit rule, count.h) */
  pcol_vpos pf, pb; /* each one's columns, by which its merged samples add up (rd13a F3) */
  double *sf, *sb;  /* [t]: the ratio a column scaled type t by (0: none yet; scale_side) */
  int units_differ; /* a type is in another unit than its pair or its list */
} type_scale;

static void type_scale_free(type_scale *x) {
  free(x->rf);
  free(x->rb);
  free(x->uf);
  free(x->ub);
  free(x->wf);
  free(x->wb);
  pcol_unit_drop_free(&x->df);
  pcol_unit_drop_free(&x->db);
  pcol_vpos_free(&x->pf);
  pcol_vpos_free(&x->pb);
  free(x->sf);
  free(x->sb);
  memset(x, 0, sizeof *x);
}

/* One profile's THE union of value columns (the list its pprof export
 * writes, pcol_vunion_make) */
typedef struct side {
  pcol_file *f;
  pcol_rtime rt;
  pcol_xvalues xv;
  pcol_vunion u;
} side;

static void side_free(side *sd) {
  pcol_vunion_free(&sd->u);
  pcol_rtime_free(&sd->rt);
}

static int side_make(pcol_file *f, side *sd, pcol_error *err) {
  memset(sd, 0, sizeof *sd);
  sd->f = f;
  int rc = pcol_rtime_init(&sd->rt, f, err);
  if (!rc) rc = pcol_xvalues_init(&sd->xv, f, &sd->rt, err);
  /* kin: its sources merged as go merges a side's profiles, each scaled
   * into the finest unit of its kin first (ScaleProfiles), the list its
   * pprof export writes (rd12a F4: kin 0 refused b.pb kb.pb against mb.pb) */
  if (!rc) rc = pcol_vunion_make(&sd->xv, NULL, 1, &sd->u, err);
  return rc;
}

#define ANY_VT UINT32_MAX
/* The first source of u with a value in column c: any (ANY_VT), of stored
 * value type vt, or (vt 0) a derived value or its count; 0 when none.  As
 * messages number it: `only` when each side is its input's source `only`
 * alone (pcol_open_diff_base_select's --source N; its copy's source 1) */
static uint32_t col_source(const pcol_vunion *u, size_t c, uint32_t vt, uint32_t only) {
  for (uint64_t s = 1; s <= u->nsrc; s++) {
    const pcol_vsrc *vs = &u->src[s - 1];
    for (size_t k = 0; vs->involved && k < vs->n; k++)
      if (vs->col[k] == c && (vt == ANY_VT || (vs->derived ? !vt : vs->vt[k] == vt))) return only ? only : (uint32_t)s;
    if (vs->count_fill && vs->count_col == c && (vt == ANY_VT || !vt)) return only ? only : (uint32_t)s;
  }
  return 0;
}

/* msg[o..] += the formatted text, within cap; the new length (cap - 1 at most) */
static size_t putf(char *msg, size_t cap, size_t o, const char *fmt, ...) {
  if (o + 1 >= cap) return o;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(msg + o, cap - o, fmt, ap);
  va_end(ap);
  return n < 0 ? o : o + (size_t)n < cap ? o + (size_t)n : cap - 1;
}

#define CUT(s) (int)pcol_utf8_cut((s).ptr, (s).len, 60), (s).ptr ? (s).ptr : ""
/* what to do about two lists that do not pair */
#define DIFF_HINT                                                                                  \
  "diff sources that measure the same values (`pcol unpack FILE --source N --to pprof` writes one " \
  "alone), or compare by value name with `pcol diff BASE PROFILE`"

/* u's columns at msg[o..]: "source 1: type/unit, type/unit; source 2: ...",
 * each after the first source with a value there (the first `show`) */
static size_t put_types(const pcol_vunion *u, char *msg, size_t cap, size_t o, size_t show, uint32_t only) {
  uint32_t last = UINT32_MAX;
  for (size_t c = 0; c < u->ncols && c < show; c++) {
    uint32_t s = col_source(u, c, ANY_VT, only);
    if (s != last) o = putf(msg, cap, o, "%ssource %u: ", c ? "; " : "", s);
    o = putf(msg, cap, o, "%s%.*s/%.*s", s == last ? ", " : "", CUT(u->cols[c].type), CUT(u->cols[c].unit));
    last = s;
  }
  return u->ncols > show ? putf(msg, cap, o, "%s...", show ? "; " : "") : o;
}

/* msg made to fit a pcol_error's message (its last byte the NUL): cut
 * after its last whole word that leaves room for " ...", never inside a
 * character (a type's name may be any UTF-8) */
static void fit_message(char *msg) {
  size_t max = sizeof ((pcol_error *)0)->message - 1, n = strlen(msg);
  if (n <= max) return;
  n = pcol_utf8_cut(msg, n, max - 4);
  while (n > 0 && msg[n - 1] != ' ') n--;
  while (n > 0 && (msg[n - 1] == ' ' || msg[n - 1] == ',' || msg[n - 1] == ';')) n--;
  memcpy(msg + n, " ...", 5);
}

/* The distinct stored value type ids of u in column c (*ids, *n; free()),
 * and whether a derived value or a count is there too (*other) */
static int col_ids(const pcol_vunion *u, size_t c, uint32_t **ids, size_t *n, int *other, pcol_error *err) {
  size_t capn = 0;
  *ids = NULL, *n = 0, *other = 0;
  for (uint64_t s = 1; s <= u->nsrc; s++) {
    const pcol_vsrc *vs = &u->src[s - 1];
    *other |= vs->count_fill && vs->count_col == c;
    for (size_t k = 0; vs->involved && k < vs->n; k++) {
      if (vs->col[k] != c) continue;
      if (vs->derived) {
        *other = 1;
        continue;
      }
      size_t i = 0;
      while (i < *n && (*ids)[i] != vs->vt[k]) i++;
      if (i < *n) continue;
      if (PCOL_GROW(*ids, *n, capn)) return pcol_oom(err);
      (*ids)[(*n)++] = vs->vt[k];
    }
  }
  return PCOL_OK;
}

/* Column c of the two lists (of one name) in units of one family, as
 * pprof's ScaleProfiles scales them: each list's unit is the finest of its
 * side (its sources merged, each scaled into it), and of the two the finer
 * is the one both are scaled into, every stored type there of either side
 * (a derived value and a count are in the column's unit) by its ratio into
 * it, in x; w[t] marks a type whose side's list is scaled as a whole
 * (after its merge: ScaleN then drops its merged samples of 0). */
static int scale_side(const side *sd, size_t c, pcol_str to, double *r, pcol_str *as, uint8_t *w,
                      double *seen, uint32_t *clash, int *differ, pcol_error *err) {
  uint32_t *ids = NULL;
  size_t n;
  int other;
  pcol_view un;
  double whole;
  int rc = col_ids(&sd->u, c, &ids, &n, &other, err);
  if (!rc) rc = pcol_column(sd->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err);
  (void)pcol_unit_common(to, sd->u.cols[c].unit, &whole);
  for (size_t i = 0; !rc && i < n; i++) {
    pcol_str u;
    double k;
    if ((rc = pcol_string(sd->f, pcol_view_u32(&un, ids[i] - 1), &u, err))) break;
    if (!pcol_unit_common(to, u, &k)) continue; /* (kin: of the family) */
    /* a type in two columns (x/kilobytes twice) scaled in one and not in
     * the other: pcol's copy scales a type alike everywhere, go each
     * column alone (rd13a F4b's p1.pb against p2.pb): refused */
    if (seen[ids[i]] && seen[ids[i]] != k) {
      *clash = ids[i];
      break;
    }
    seen[ids[i]] = k;
    if (k == 1) continue;
    r[ids[i]] = k;
    as[ids[i]] = to;
    w[ids[i]] = whole != 1;
    *differ = 1;
  }
  free(ids);
  return rc;
}

static int pair_units(const side *sf, const side *sb, size_t c, type_scale *x, const char **why,
                      char *msg, size_t cap, uint32_t only, pcol_error *err) {
  pcol_str ua = sf->u.cols[c].unit, ub = sb->u.cols[c].unit;
  double r1, r2;
  if (!unit_common(ua, ub, &r1, &r2)) {
    putf(msg, cap, 0, "value type %zu is %.*s/%.*s in the profile, %.*s/%.*s in the base (the profile's "
         "source %u, the base's source %u): units of no one family (pprof: sample types: incompatible "
         "types); %s", c + 1, CUT(sf->u.cols[c].type), CUT(ua), CUT(sb->u.cols[c].type), CUT(ub),
         col_source(&sf->u, c, ANY_VT, only), col_source(&sb->u, c, ANY_VT, only), DIFF_HINT);
    *why = msg;
    return PCOL_OK;
  }
  x->units_differ |= !str_eq(ua, ub);
  pcol_str to = r1 != 1 ? ub : ua; /* the finer (the profile's when as fine) */
  uint32_t cf = 0, cb = 0;
  int rc = scale_side(sf, c, to, x->rf, x->uf, x->wf, x->sf, &cf, &x->units_differ, err);
  if (!rc && !cf) rc = scale_side(sb, c, to, x->rb, x->ub, x->wb, x->sb, &cb, &x->units_differ, err);
  if (!rc && (cf || cb)) {
    const side *sd = cf ? sf : sb;
    pcol_view ty, un;
    pcol_str t = {0}, u = {0};
    if ((rc = pcol_column(sd->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err)) ||
        (rc = pcol_column(sd->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err)) ||
        (rc = pcol_string(sd->f, pcol_view_u32(&ty, (cf ? cf : cb) - 1), &t, err)) ||
        (rc = pcol_string(sd->f, pcol_view_u32(&un, (cf ? cf : cb) - 1), &u, err)))
      return rc;
    putf(msg, cap, 0, "value type %.*s/%.*s of the %s's source %u is in two of its value types' places, one of "
         "which the other side's unit scales and the other not (pprof scales each place alone; pcol a type "
         "alike in every place); %s", CUT(t), CUT(u), cf ? "profile" : "base", col_source(&sd->u, c, cf ? cf : cb, only),
         DIFF_HINT);
    *why = msg;
  }
  return rc;
}

static int type_scale_make(pcol_file *f, pcol_file *base, type_scale *x, const char **why,
                           char *msg, size_t cap, uint32_t only, pcol_error *err) {
  memset(x, 0, sizeof *x);
  *why = NULL;
  int hf, hb;
  pcol_str pt, pu, bt2, bu2;
  uint32_t sf1, sb1;
  PCOL_RETURN_NOT_OK(period_type(f, &hf, &pt, &pu, &sf1, err));
  PCOL_RETURN_NOT_OK(period_type(base, &hb, &bt2, &bu2, &sb1, err));
  double r1, r2;
  if (hf && hb && (!str_eq(pt, bt2) || !unit_common(pu, bu2, &r1, &r2))) {
    putf(msg, cap, 0, "the base profile's period type (%.*s/%.*s) is not the profile's (%.*s/%.*s) "
         "(the base's source %u, the profile's source %u; pprof: period type: incompatible types); %s",
         CUT(bt2), CUT(bu2), CUT(pt), CUT(pu), only ? only : sb1, only ? only : sf1, DIFF_HINT);
    *why = msg;
    return PCOL_OK;
  }
  side sf, sb;
  memset(&sb, 0, sizeof sb); /* (side_free'd even when f's fails) */
  int rc = side_make(f, &sf, err);
  if (!rc) rc = side_make(base, &sb, err);
  uint64_t na = pcol_rows(f, PCOL_T_VALUE_TYPES), nb = pcol_rows(base, PCOL_T_VALUE_TYPES);
  x->nf = na + 1;
  x->nb = nb + 1;
  x->rf = malloc(x->nf * sizeof *x->rf);
  x->rb = malloc(x->nb * sizeof *x->rb);
  x->uf = calloc(x->nf, sizeof *x->uf);
  x->ub = calloc(x->nb, sizeof *x->ub);
  x->wf = calloc(x->nf, 1);
  x->wb = calloc(x->nb, 1);
  x->sf = calloc(x->nf, sizeof *x->sf);
  x->sb = calloc(x->nb, sizeof *x->sb);
  if (!rc && !(x->rf && x->rb && x->uf && x->ub && x->wf && x->wb && x->sf && x->sb)) rc = pcol_oom(err);
  if (!rc) rc = pcol_vunion_drop(&sf.u, &x->df, err);
  if (!rc) rc = pcol_vunion_drop(&sb.u, &x->db, err);
  if (!rc) rc = pcol_vunion_positions(&sf.u, &x->pf, err);
  if (!rc) rc = pcol_vunion_positions(&sb.u, &x->pb, err);
  for (uint64_t i = 0; !rc && i < x->nf; i++) x->rf[i] = 1;
  for (uint64_t j = 0; !rc && j < x->nb; j++) x->rb[j] = 1;
  /* pprof pairs the value types by position (ScaleProfiles, then
   * Profile.compatible), and a pprof profile has one list of them for all
   * its samples: each profile's is THE union of its sources' values, the
   * list its pprof export writes (pcol_vunion_make), so a JFR recording's
   * execution and allocation samples are one profile of samples, cpu and
   * allocation_weight, as go reads the export.  The two lists must be as
   * long, of the same names in the same order, in units of one family. */
  const pcol_vunion *a = &sf.u, *b = &sb.u;
  /* (the lists shortened until the sentence fits a pcol_error's message) */
  for (size_t show = 6; !rc && a->ncols != b->ncols; show -= show > 2 ? 2 : 1) {
    size_t o = putf(msg, cap, 0, "the profile's sources measure %zu value type%s (", a->ncols, a->ncols == 1 ? "" : "s");
    o = put_types(a, msg, cap, o, show, only);
    o = putf(msg, cap, o, "), the base's %zu (", b->ncols);
    o = put_types(b, msg, cap, o, show, only);
    o = putf(msg, cap, o, "): pprof pairs them by position (inconsistent samples type count: %zu != %zu); %s",
             a->ncols, b->ncols, DIFF_HINT);
    *why = msg;
    if (o < sizeof err->message || !show) break;
  }
  for (size_t c = 0; !rc && !*why && c < a->ncols; c++) {
    if (!str_eq(a->cols[c].type, b->cols[c].type)) {
      putf(msg, cap, 0, "value type %zu is %.*s/%.*s in the profile, %.*s/%.*s in the base (the profile's "
           "source %u, the base's source %u): pprof pairs them by position (sample types: incompatible "
           "types); %s", c + 1, CUT(a->cols[c].type), CUT(a->cols[c].unit), CUT(b->cols[c].type),
           CUT(b->cols[c].unit), col_source(a, c, ANY_VT, only), col_source(b, c, ANY_VT, only), DIFF_HINT);
      *why = msg;
      break;
    }
    rc = pair_units(&sf, &sb, c, x, why, msg, cap, only, err);
  }
  side_free(&sf);
  side_free(&sb);
  if (rc) type_scale_free(x);
  return rc;
}

static int any_scaled(const double *r, uint64_t n) {
  for (uint64_t i = 0; r && i < n; i++)
    if (r[i] != 1) return 1;
  return 0;
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

/* column_sums' pass over a side's selected samples */
typedef struct sum_pass {
  side *sd;
  uint32_t *cvt;
  uint64_t *sum;
  pcol_error *err;
} sum_pass;

static int sum_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  sum_pass *p = ctx;
  side *sd = p->sd;
  const pcol_vunion *u = &sd->u;
  const pcol_sample_cols *sc = &sd->xv.sc;
  uint64_t *sum = p->sum;
  uint32_t s = pcol_view_u32(&sd->rt.source, row);
  if (s < 1 || s > u->nsrc || !u->src[s - 1].involved) return PCOL_OK;
  const pcol_vsrc *vs = &u->src[s - 1];
  int64_t v;
  if (vs->derived) {
    for (size_t k = 0; k < vs->n; k++) {
      int rc = pcol_xvalue(&sd->xv, p->cvt, row, vs->vt[k], &v, p->err);
      if (rc) return rc;
      v = pcol_scale(v, num, den);
      sum[vs->col[k]] += (uint64_t)(vs->fill[k] ? pcol_unit_fill(v, vs->fill[k]) : v);
    }
    return PCOL_OK;
  }
  /* each stored value to the next of its source's types that is its
   * (add_file.c value_cols) */
  uint64_t a = pcol_view_u64(&sc->voff, row), e = pcol_view_u64(&sc->voff, row + 1);
  size_t k = 0;
  for (uint64_t j = a; j < e && j < sc->nvalues; j++) {
    uint32_t t = pcol_view_u32(&sc->vtype, j);
    while (k < vs->n && vs->vt[k] != t) k++;
    if (k == vs->n) break;
    v = pcol_scale(pcol_view_i64(&sc->vval, j), num, den) / (vs->div[k] > 1 ? vs->div[k] : 1);
    sum[vs->col[k]] += (uint64_t)(vs->fill[k] ? pcol_unit_fill(v, vs->fill[k]) : v);
    k++;
  }
  if (vs->count_fill) sum[vs->count_col] += (uint64_t)pcol_scale(pcol_sample_count(sc, row, p->cvt[s]), num, den);
  return PCOL_OK;
}

/* Each column's sum over the samples of a side that rsel selects (NULL:
 * every one; THE union of value columns: the values its pprof export
 * writes, made or stored, each the part of its sample the range selects,
 * as that export scales it), as Go adds int64s (wrapping): sums[c], c <
 * ncols */
static int column_sums(side *sd, const pcol_select *rsel, uint64_t **out, pcol_error *err) {
  sum_pass p = {sd, NULL, NULL, err};
  p.sum = *out = calloc(sd->u.ncols + 1, sizeof *p.sum);
  if (!p.sum) return pcol_oom(err);
  int rc = pcol_count_types(sd->f, &p.cvt, err);
  if (!rc) rc = pcol_select_iter(sd->f, rsel, sum_row, &p, err);
  free(p.cvt);
  return rc;
}

/* pprof -normalize (profile.go Normalize), of the profile f and its base:
 * per column of their pprof copies (THE union of value columns, which
 * pcol_open_diff_base has paired by position), the base's sum over f's (0
 * when f's is 0).  A value of f that is no stored type is its weight (THE
 * count rule's count, the time rule's time, Rprof's rprof.alloc): fill[s]
 * (f's sources + 1) says which of them f's copy writes as stored values
 * (pcol_b_copy.fill), to be scaled as they are; unscaled[s] 1 when its
 * count is none of its copy's columns (go's -sample_index=samples refuses
 * that copy) */
typedef struct norm_plan {
  double *rcol;     /* per column of f's union */
  pcol_vcol *cols;  /* f's union's names (copies: cols[c].type.ptr owned for c < nowned) */
  size_t ncols, nowned;
  uint8_t *fill, *unscaled, *bfill; /* (bfill: the base's, which are not scaled but written alike,
                                     * so that each source of a side declares what the other's does) */
  uint64_t nsrc, nbsrc;
  int any_fill, any_bfill;
} norm_plan;

static void norm_plan_free(norm_plan *p) {
  for (size_t c = 0; p->cols && c < p->nowned; c++) free((void *)p->cols[c].type.ptr);
  free(p->rcol);
  free(p->cols);
  free(p->fill);
  free(p->unscaled);
  free(p->bfill);
  memset(p, 0, sizeof *p);
}

/* Which values of each source of u (its pprof copy's columns) are made
 * from its samples, to be written as stored ones (fill[s], PCOL_B_FILL_*:
 * THE count rule's count, the time rule's time, Rprof's rprof.alloc; *any
 * 1 when one is), and (unscaled[s], unless NULL) 1 when --normalize cannot
 * scale its count: its weight, which is no column of its copy */
static void fill_flags(const pcol_vunion *u, const uint32_t *cvt, uint8_t *fill, uint8_t *unscaled, int *any) {
  for (uint64_t s = 1; s <= u->nsrc; s++) {
    const pcol_vsrc *vs = &u->src[s - 1];
    uint8_t fl = 0;
    if (!vs->involved) continue;
    for (size_t k = 0; vs->derived && k < vs->n; k++) {
      if (vs->vt[k] == 0) fl |= PCOL_B_FILL_COUNT;
      else if (vs->vt[k] == PCOL_VT_TIME) fl |= PCOL_B_FILL_TIME;
      else if (vs->vt[k] == PCOL_VT_RPROF_ALLOC) fl |= PCOL_B_FILL_ALLOC;
    }
    if (vs->count_fill) fl |= PCOL_B_FILL_COUNT;
    fill[s] = fl;
    if (unscaled) unscaled[s] = !vs->derived && !vs->count_fill && !pcol_count_vt(cvt[s]);
    *any |= fl != 0;
  }
}

static int norm_plan_make(pcol_file *f, pcol_file *base, const pcol_select *rsel, norm_plan *p,
                          int *who, pcol_error *err) {
  memset(p, 0, sizeof *p);
  side sf, sb;
  memset(&sb, 0, sizeof sb);
  uint64_t *fs = NULL, *bs = NULL;
  uint32_t *cvt = NULL;
  int rc = side_make(f, &sf, err);
  if (!rc) rc = side_make(base, &sb, err);
  if (!rc) rc = column_sums(&sf, rsel, &fs, err);
  if (rc) *who = 0; /* (the range of f: its error) */
  if (!rc) rc = column_sums(&sb, rsel, &bs, err);
  if (!rc) rc = pcol_count_types(f, &cvt, err);
  p->nsrc = pcol_rows(f, PCOL_T_SOURCES);
  p->ncols = sf.u.ncols;
  if (!rc) {
    p->rcol = calloc(p->ncols + 1, sizeof *p->rcol);
    p->cols = calloc(p->ncols + 1, sizeof *p->cols);
    p->fill = calloc(p->nsrc + 1, 1);
    p->unscaled = calloc(p->nsrc + 1, 1);
    if (!p->rcol || !p->cols || !p->fill || !p->unscaled) rc = pcol_oom(err);
  }
  for (size_t c = 0; !rc && c < p->ncols; c++) {
    p->cols[c] = sf.u.cols[c];
    /* (the lists pair: type_scale_make) */
    int64_t b = c < sb.u.ncols ? (int64_t)bs[c] : 0, a = (int64_t)fs[c];
    p->rcol[c] = a ? (double)b / (double)a : 0.0;
  }
  if (!rc) fill_flags(&sf.u, cvt, p->fill, p->unscaled, &p->any_fill);
  free(cvt);
  cvt = NULL;
  p->nbsrc = pcol_rows(base, PCOL_T_SOURCES);
  if (!rc) rc = pcol_count_types(base, &cvt, err);
  if (!rc && !(p->bfill = calloc(p->nbsrc + 1, 1))) rc = pcol_oom(err);
  if (!rc) fill_flags(&sb.u, cvt, p->bfill, NULL, &p->any_bfill);
  /* the column names outlive the sides: copied */
  for (size_t c = 0; !rc && c < p->ncols; c++) {
    pcol_str t = p->cols[c].type, u = p->cols[c].unit;
    char *m = malloc(t.len + u.len + 2);
    if (!m) {
      rc = pcol_oom(err);
      break;
    }
    if (t.len) memcpy(m, t.ptr, t.len);
    if (u.len) memcpy(m + t.len + 1, u.ptr, u.len);
    p->cols[c].type = (pcol_str){m, t.len};
    p->cols[c].unit = (pcol_str){m + t.len + 1, u.len};
    p->nowned = c + 1;
  }
  free(fs);
  free(bs);
  free(cvt);
  side_free(&sf);
  side_free(&sb);
  if (rc) norm_plan_free(p);
  return rc;
}

/* The ratios F (f, or its copy with p->fill's values stored) is scaled
 * by: as go's Normalize, per column of its pprof copy (ScaleN's ratio per
 * position; a type may be in two columns, x/bytes twice: rd16a F2), which
 * pcol_b_copy.col_scale (p->rcol) and .pos (*pos: F's THE union of value
 * columns, when it is f's list) give; per value type for a value of no
 * column (pcol_b_copy.scale, *out): the first column of its name and
 * unit's, 1 for a type in none (an Rprof level) */
static int normalize_ratios(pcol_file *F, const norm_plan *p, double **out, uint64_t *n, pcol_vpos *pos,
                            pcol_error *err) {
  memset(pos, 0, sizeof *pos);
  side sd;
  int prc = side_make(F, &sd, err);
  int same = !prc && sd.u.ncols == p->ncols;
  for (size_t c = 0; same && c < p->ncols; c++)
    same = str_eq(sd.u.cols[c].type, p->cols[c].type) && str_eq(sd.u.cols[c].unit, p->cols[c].unit);
  if (same) prc = pcol_vunion_positions(&sd.u, pos, err);
  side_free(&sd);
  if (prc) return prc;
  uint64_t nf = pcol_rows(F, PCOL_T_VALUE_TYPES);
  pcol_view ft, fu;
  pcol_column_req rf[] = {{&ft, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE}, {&fu, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT}};
  double *r = *out = calloc(nf + 1, sizeof *r);
  *n = nf + 1;
  int rc = r ? PCOL_OK : pcol_oom(err);
  if (r) r[0] = 1; /* (no type 0) */
  if (!rc) rc = pcol_columns(F, rf, PCOL_NCOLS(rf), err);
  for (uint64_t i = 1; !rc && i <= nf; i++) {
    pcol_str t, u;
    if ((rc = pcol_string(F, pcol_view_u32(&ft, i - 1), &t, err)) ||
        (rc = pcol_string(F, pcol_view_u32(&fu, i - 1), &u, err)))
      break;
    size_t c = 0;
    while (c < p->ncols && !(str_eq(t, p->cols[c].type) && str_eq(u, p->cols[c].unit))) c++;
    r[i] = c < p->ncols ? p->rcol[c] : 1.0;
  }
  if (rc) {
    free(r);
    *out = NULL;
  }
  return rc;
}

/* What pcol_b_copy.fill makes the values of f's sources from (THE count
 * rule's types, the time rule, Rprof's levels), for fill[s] (s = 1..nsrc)
 * into cp; nothing when any is 0. */
typedef struct fill_from {
  pcol_rtime rt;
  uint32_t *cvt;
  pcol_xvalues xv; /* (its levels' types) */
  int on;
} fill_from;
static int fill_from_init(pcol_file *f, const uint8_t *fill, uint64_t nsrc, int any, fill_from *ff,
                          pcol_b_copy *cp, pcol_error *err) {
  memset(ff, 0, sizeof *ff);
  if (!any) return PCOL_OK;
  int rc = pcol_rtime_init(&ff->rt, f, err);
  if (rc) return rc;
  ff->on = 1;
  rc = pcol_xvalues_init(&ff->xv, f, &ff->rt, err);
  if (!rc) rc = pcol_count_types(f, &ff->cvt, err);
  cp->fill = fill;
  cp->nfill = nsrc + 1;
  cp->fill_cvt = ff->cvt;
  cp->fill_rt = &ff->rt;
  cp->fill_alloc_vt = ff->xv.alloc_vt;
  return rc;
}
static void fill_from_free(fill_from *ff) {
  if (ff->on) pcol_rtime_free(&ff->rt);
  free(ff->cvt);
  memset(ff, 0, sizeof *ff);
}

/* f with the values fill names (fill[s], s = 1..nsrc) written as stored
 * values (*out; NULL when none is to be: any 0): the profile's copy that
 * -normalize scales (its ratios are of the filled types) */
static int normalize_fill(pcol_file *f, const uint8_t *fill, uint64_t nsrc, int any, pcol_file **out,
                          pcol_error *err) {
  *out = NULL;
  if (!any) return PCOL_OK;
  pcol_b_copy fc;
  memset(&fc, 0, sizeof fc);
  fill_from ff;
  pcol_builder *b = NULL;
  int rc = fill_from_init(f, fill, nsrc, any, &ff, &fc, err);
  if (!rc) rc = pcol_builder_new(&b, err);
  if (!rc) rc = pcol_b_add_file_copy(b, f, &fc, err);
  fill_from_free(&ff);
  if (rc && !b) return rc;
  return pcol_q_open_built(b, rc, f->input_bytes, out, err);
}

/* Marks the sources of f (1..p->nsrc in b) whose value --normalize leaves
 * as it is, which the views then refuse (weights.c diff_base_total) */
static int normalize_marks(pcol_builder *b, const norm_plan *p, pcol_error *err) {
  for (uint64_t s = 1; s <= p->nsrc; s++) {
    if (p->unscaled[s])
      PCOL_RETURN_NOT_OK(pcol_b_meta(b, (uint32_t)s, PCOL_META_NORMALIZE_UNSCALED, PCOL_VT_SAMPLES,
                                     strlen(PCOL_VT_SAMPLES), err));
  }
  return PCOL_OK;
}

/* f's source s alone (*out; f itself, *out NULL, when it is f's only one):
 * as its export with --source s, so that the pair is checked and merged as
 * go merges the two sources' exports.  Memory: a copy of that source. */
int pcol_q_source_alone(pcol_file *f, uint32_t s, pcol_file **out, pcol_error *err) {
  *out = NULL;
  if (pcol_rows(f, PCOL_T_SOURCES) <= 1) return PCOL_OK;
  pcol_b_copy oc;
  memset(&oc, 0, sizeof oc);
  oc.only_source = s;
  pcol_builder *b = NULL;
  int rc = pcol_builder_new(&b, err);
  if (!rc) rc = pcol_b_add_file_copy(b, f, &oc, err);
  if (rc && !b) return rc;
  return pcol_q_open_built(b, rc, f->input_bytes, out, err);
}

static int open_diff_base(pcol_file *f, pcol_file *base, const pcol_select *rsel, unsigned flags,
                          uint32_t only, pcol_file **out, int *who, pcol_error *err);

int pcol_open_diff_base(pcol_file *f, pcol_file *base, unsigned flags, pcol_file **out,
                        pcol_error *err) {
  return pcol_open_diff_base_select(f, base, NULL, flags, out, NULL, err);
}

int pcol_open_diff_base_select(pcol_file *f, pcol_file *base, const pcol_select *sel, unsigned flags,
                               pcol_file **out, int *who, pcol_error *err) {
  *out = NULL;
  int whose;
  if (!who) who = &whose;
  *who = 1;
  uint32_t n = sel ? sel->source_id : 0;
  uint64_t nf = pcol_rows(f, PCOL_T_SOURCES), nb = pcol_rows(base, PCOL_T_SOURCES);
  if (n && n > nf) *who = 0;
  if (n && (n > nf || n > nb)) /* (pcol_select_check's words, of either side) */
    return pcol_error_set(err, PCOL_ENOTFOUND, "no source %u (the %s has %llu; source N is taken of "
                          "the profile and of the base)", n, n > nf ? "profile" : "base",
                          (unsigned long long)(n > nf ? nf : nb));
  /* the range, of each side's sources (after --source: its one) */
  pcol_select r;
  memset(&r, 0, sizeof r);
  if (sel && (sel->has_from || sel->has_to)) {
    r.has_from = sel->has_from, r.has_to = sel->has_to;
    r.from_ns = sel->from_ns, r.to_ns = sel->to_ns;
    r.wall = sel->wall;
  }
  pcol_file *fo = NULL, *bo = NULL;
  int rc = n ? pcol_q_source_alone(f, n, &fo, err) : PCOL_OK;
  if (rc) *who = 0;
  if (!rc && n) rc = pcol_q_source_alone(base, n, &bo, err);
  if (!rc)
    rc = open_diff_base(fo ? fo : f, bo ? bo : base, r.has_from || r.has_to ? &r : NULL, flags, n, out, who, err);
  if (!rc) (*out)->side_source = n; /* (its messages name source N, not the copies' 1) */
  if (fo) pcol_close(fo);
  if (bo) pcol_close(bo);
  return rc;
}

static int open_diff_base(pcol_file *f, pcol_file *base, const pcol_select *rsel, unsigned flags,
                          uint32_t only, pcol_file **out, int *who, pcol_error *err) {
  *out = NULL;
  if (flags & ~(unsigned)(PCOL_BASE_DIFF | PCOL_BASE_NORMALIZE))
    return pcol_error_set(err, PCOL_EINVAL, "pcol_open_diff_base: unknown flags 0x%x", flags);
  int diff = (flags & PCOL_BASE_DIFF) != 0;
  type_scale ts;
  const char *why;
  char msg[1024];
  int rc = type_scale_make(f, base, &ts, &why, msg, sizeof msg, only, err);
  if (rc) return rc;
  if (!why && ts.units_differ && (flags & PCOL_BASE_NORMALIZE)) /* profile.go Normalize: compatible */
    why = "--normalize: a value type is in other units (of one kind) in the base and the profile, or "
          "among the files of one side (pprof: incompatible sample types, for two profiles); compare "
          "profiles in one unit";
  if (why) {
    type_scale_free(&ts);
    if (why == msg) fit_message(msg);
    return pcol_error_set(err, PCOL_ENOTFOUND, "%s", why);
  }
  uint64_t nf = pcol_rows(f, PCOL_T_SOURCES), nb = pcol_rows(base, PCOL_T_SOURCES);
  uint8_t *has = calloc(nf + nb + 2, 1);
  pcol_str dflt = {NULL, 0}, bdflt;
  if (!rc && !has) rc = pcol_oom(err);
  if (!rc) rc = default_named(f, &dflt, has, err);
  if (!rc) rc = default_named(base, &bdflt, has + nf, err);
  if (!rc && !dflt.ptr) dflt = bdflt;
  pcol_builder *b = NULL;
  if (!rc) rc = pcol_builder_new(&b, err);
  if (!rc) b->merge_ids = 1; /* go's Merge: a collapsed frame (no line) is a pprof one (line 0) */
  pcol_b_copy cp;
  memset(&cp, 0, sizeof cp);
  cp.negate = 1;
  if (!rc && diff) rc = pcol_b_cstr(b, PCOL_DIFF_BASE_KEY, &cp.label_key, err);
  if (!rc && diff) rc = pcol_b_cstr(b, "true", &cp.label_str, err);
  pcol_b_copy nc; /* -normalize: f scaled */
  memset(&nc, 0, sizeof nc);
  double *ratios = NULL;
  norm_plan np;
  memset(&np, 0, sizeof np);
  /* -normalize: f's copy with its made values stored (F), which is
   * scaled; the base's made values are stored as it is copied (cp.fill:
   * it is not scaled, so no copy of it is needed) */
  pcol_file *F = f, *filled = NULL;
  fill_from bff;
  memset(&bff, 0, sizeof bff);
  if (!rc && (flags & PCOL_BASE_NORMALIZE)) rc = norm_plan_make(f, base, rsel, &np, who, err);
  if (!rc && (flags & PCOL_BASE_NORMALIZE)) rc = normalize_fill(f, np.fill, np.nsrc, np.any_fill, &filled, err);
  if (filled) F = filled;
  pcol_vpos npos; /* (-normalize: F's columns, by which it is scaled) */
  memset(&npos, 0, sizeof npos);
  if (!rc && (flags & PCOL_BASE_NORMALIZE)) rc = normalize_ratios(F, &np, &ratios, &nc.nscale, &npos, err);
  nc.scale = ratios;
  nc.norm_sel = rsel; /* (the groups of the range's part: select first, then normalize) */
  if (npos.off) {
    nc.pos = &npos;
    nc.col_scale = np.rcol;
    nc.ncol_scale = np.ncols;
  }
  if (!ratios && any_scaled(ts.rf, ts.nf)) { /* ScaleProfiles: f into the base's finer units */
    nc.scale = ts.rf;
    nc.nscale = ts.nf;
    nc.unit_as = ts.uf;
    nc.nunit_as = ts.nf;
    nc.whole = ts.wf;
    nc.drop = &ts.df;
    nc.pos = &ts.pf;
  }
  cp.norm_sel = rsel; /* (a merge before a unit's scaling: of the range's part too) */
  if (any_scaled(ts.rb, ts.nb)) {
    cp.scale = ts.rb;
    cp.nscale = ts.nb;
    cp.unit_as = ts.ub;
    cp.nunit_as = ts.nb;
    cp.whole = ts.wb;
    cp.drop = &ts.db;
    cp.pos = &ts.pb;
  }
  if (!rc && (rc = nc.scale ? pcol_b_add_file_copy(b, F, &nc, err) : pcol_b_add_file(b, F, err))) *who = 0;
  if (!rc && (flags & PCOL_BASE_NORMALIZE)) rc = normalize_marks(b, &np, err);
  free(ratios);
  pcol_vpos_free(&npos);
  if (filled) pcol_close(filled);
  uint64_t s0 = b ? b->t[PCOL_T_SOURCES].rows : 0; /* the base's sources come after f's */
  if (!rc && (flags & PCOL_BASE_NORMALIZE)) rc = fill_from_init(base, np.bfill, np.nbsrc, np.any_bfill, &bff, &cp, err);
  if (!rc) rc = pcol_b_add_file_copy(b, base, &cp, err);
  fill_from_free(&bff);
  norm_plan_free(&np);
  for (uint64_t s = s0 + 1; !rc && s <= b->t[PCOL_T_SOURCES].rows; s++)
    rc = pcol_b_meta(b, (uint32_t)s, diff ? PCOL_META_DIFF_BASE : PCOL_META_BASE, PCOL_BASE_TRUE,
                     sizeof PCOL_BASE_TRUE - 1, err);
  /* a source that names no default type takes the first one named */
  for (uint64_t s = 1; !rc && dflt.ptr && s <= b->t[PCOL_T_SOURCES].rows && s <= nf + nb; s++)
    if (!has[s]) rc = pcol_b_meta(b, (uint32_t)s, PPROF_META_DEFAULT_SAMPLE_TYPE, dflt.ptr, dflt.len, err);
  free(has);
  type_scale_free(&ts);
  if (rc && !b) return rc;
  return pcol_q_open_built(b, rc, f->input_bytes + base->input_bytes, out, err);
}

/* like's mapping rows into b, as a profile of their own (one key's rows
 * one, pcol_b_mappings_shared) */
static int like_mappings(pcol_builder *b, pcol_file *like, pcol_error *err) {
  uint64_t n = pcol_rows(like, PCOL_T_MAPPINGS);
  pcol_view c[6];
  int rc = PCOL_OK;
  for (int k = 0; !rc && k < 6; k++) rc = pcol_column(like, PCOL_T_MAPPINGS, PCOL_C_MAP_START + k, &c[k], err);
  if (rc || !n) return rc;
  pcol_mapping_row *m = malloc(n * sizeof *m);
  uint32_t *id = malloc(n * sizeof *id);
  uint64_t *shift = malloc(n * sizeof *shift);
  if (!m || !id || !shift) rc = pcol_oom(err);
  for (uint64_t i = 0; !rc && i < n; i++) {
    uint32_t s[2] = {pcol_view_u32(&c[3], i), pcol_view_u32(&c[4], i)}; /* file name, build id */
    for (int k = 0; !rc && k < 2; k++) {
      pcol_str t;
      if (!s[k]) continue; /* NA stays NA */
      if (!(rc = pcol_string(like, s[k], &t, err))) rc = pcol_b_string(b, t.ptr, t.len, &s[k], err);
    }
    m[i] = (pcol_mapping_row){pcol_view_u64(&c[0], i), pcol_view_u64(&c[1], i), pcol_view_u64(&c[2], i),
                              s[0], s[1], pcol_view_u8(&c[5], i)};
  }
  /* one key's rows (like packed before 1.2.0): the one its samples meet first */
  int repeat = 0;
  uint64_t *reach = NULL;
  if (!rc) rc = pcol_b_mappings_repeat(b, m, (size_t)n, &repeat, err);
  if (!rc && repeat && !(reach = malloc(n * sizeof *reach))) rc = pcol_oom(err);
  if (!rc && repeat) rc = pcol_mappings_reach(like, 0, pcol_rows(like, PCOL_T_SAMPLES), reach, err);
  if (!rc) rc = pcol_b_mappings_shared(b, m, (size_t)n, reach, id, shift, err);
  free(reach);
  free(m);
  free(id);
  free(shift);
  return rc;
}

int pcol_open_readdressed(pcol_file *f, pcol_file *like, pcol_file **out, pcol_error *err) {
  if (out) *out = NULL;
  if (!f || !like || !out) return pcol_error_set(err, PCOL_EINVAL, "pcol_open_readdressed: NULL argument");
  pcol_builder *b = NULL;
  int rc = pcol_builder_new(&b, err);
  if (!rc) rc = like_mappings(b, like, err);
  if (!rc) rc = pcol_b_add_file(b, f, err);
  if (rc && !b) return rc;
  return pcol_q_open_built(b, rc, f->input_bytes, out, err);
}
