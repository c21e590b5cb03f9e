/* diff.c — two profiles compared: per-key flat/cum changes (`pcol diff`) and
 * per-node share changes of a frame tree (`pcol flame --diff`).  One
 * definition of a share serves both: 100 x value / total, where total is
 * the sum of |value| over the selected samples (pprof's total), so a profile
 * twice as long does not look twice as slow, and negative values (a diff
 * profile) cannot make a total cancel out. */
#include "pcol.h"
#include "error.h"    /* pcol_oom */
#include "query.h"
#include "count.h"    /* pcol_selection_named_default, pcol_selection_default_type */
#include "wall.h"     /* pcol_selection_sources */
#include "reader.h"   /* pcol_source_display_name */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int str_eq(pcol_str a, pcol_str b) {
  return a.len == b.len && (a.len == 0 || (a.ptr && b.ptr && memcmp(a.ptr, b.ptr, a.len) == 0));
}

/* The unit rule (count.h pcol_unit_common: go's CommonValueType): one type
 * in units of one family (bytes and kilobytes) is one value, *base_in_new
 * what one of the base's unit is in the new profile's. */
static int value_kin(const pcol_value_sel *base, const pcol_value_sel *nw, double *base_in_new) {
  *base_in_new = 1;
  return str_eq(base->type, nw->type) && pcol_unit_common(nw->unit, base->unit, base_in_new);
}

int pcol_value_compatible(const pcol_value_sel *base, const pcol_value_sel *nw, pcol_error *err) {
  double r;
  if (value_kin(base, nw, &r)) return PCOL_OK;
#define VS(v) (int)pcol_utf8_cut((v)->type.ptr, (v)->type.len, 100), (v)->type.ptr ? (v)->type.ptr : "", \
              (int)pcol_utf8_cut((v)->unit.ptr, (v)->unit.len, 100), (v)->unit.ptr ? (v)->unit.ptr : ""
  return pcol_error_set(err, PCOL_EINVAL,
                        "incompatible value types: the base measures %.*s (%.*s), the new profile "
                        "%.*s (%.*s); compare a value both have with --value TYPE, or the "
                        "samples of each with --value samples",
                        VS(base), VS(nw));
#undef VS
}

/* The stored type of f with v's type and unit (else a kin unit) that
 * every selected source of f measures (*out untouched when there is none). */
static int same_value(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_value_sel *out,
                      pcol_error *err) {
  pcol_view ty, un;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
  /* v's type in v's unit, else in a unit of its family (THE unit rule:
   * alloc_space in kilobytes is bytes' kin, as go scales it; rd12a F5) */
  uint32_t vt = 0, kin = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_VALUE_TYPES) && !vt; i++) {
    pcol_str t, u;
    double r;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &t, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, i), &u, err));
    if (!t.ptr || !u.ptr || !str_eq(t, v->type)) continue;
    if (str_eq(u, v->unit)) vt = (uint32_t)(i + 1);
    else if (!kin && pcol_unit_common(v->unit, u, &r)) kin = (uint32_t)(i + 1);
  }
  if (!vt) vt = kin;
  if (!vt) return PCOL_OK;
  pcol_value_sel w;
  uint8_t *has = NULL, *keep = NULL;
  int rc = pcol_q_value_of_vt(f, vt, &w, err), all = 1;
  if (!rc) rc = pcol_value_sources(f, &w, &has, err);
  if (!rc) rc = pcol_selection_sources(f, sel, &keep, err);
  for (uint64_t s = 1; !rc && s <= pcol_rows(f, PCOL_T_SOURCES); s++) all &= !keep[s] || has[s];
  if (!rc && all) *out = w;
  free(has);
  free(keep);
  return rc;
}

int pcol_value_diff_default(pcol_file *base, pcol_file *nw, const pcol_select *sel, const pcol_select *nsel,
                            pcol_value_sel *vb, pcol_value_sel *vn, pcol_error *err) {
  if (!base || !nw || !vb || !vn || pcol_value_compatible(vb, vn, NULL) == PCOL_OK) return PCOL_OK;
  if (!nsel) nsel = sel; /* (nw's own source and range, or sel's) */
  /* each side's default, agreed by its sources (a side of sources that
   * disagree is one go's merge refuses), and whether it names it */
  uint32_t c[2];
  int agree[2], named[2]; /* nw's, then base's */
  PCOL_RETURN_NOT_OK(pcol_selection_named_default(nw, nsel, &c[0], &agree[0], &named[0], err));
  PCOL_RETURN_NOT_OK(pcol_selection_named_default(base, sel, &c[1], &agree[1], &named[1], err));
  if (!agree[0] || !agree[1] || c[0] != vn->vt_id || c[1] != vb->vt_id) return PCOL_OK;
  /* (a side changed here had no default note, its sources agreeing on
   * one, and none lacking the value it takes, as same_value asks: the
   * notes said of each side's own value before this rule, pcol diff's and
   * the R package's, stay right; rd12a F7) */
  /* the new side first (go merges the profile, then the base), the one
   * it names decides even where the base lacks it (go refuses that pair) */
  if (named[0]) return same_value(base, sel, vn, vb, err);
  if (named[1]) return same_value(nw, nsel, vb, vn, err);
  return PCOL_OK;
}

double pcol_share(pcol_sum v, pcol_sum total) {
  return total ? 100.0 * (double)v / (double)total : 0;
}

static int name_cmp(pcol_str a, pcol_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  return c ? c : a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}
static int row_name_cmp(const void *x, const void *y) {
  return name_cmp(((const pcol_top_row *)x)->name, ((const pcol_top_row *)y)->name);
}
/* pprof's orders on the changes (graph.go FlatNameOrder, CumNameOrder) */
static int mag_cmp(double a, double b) {
  a = fabs(a);
  b = fabs(b);
  return a == b ? 0 : a > b ? -1 : 1;
}
static int drow_cmp_flat(const void *x, const void *y) {
  const pcol_diff_row *a = x, *b = y;
  int c = mag_cmp(a->d_flat, b->d_flat);
  if (!c) c = name_cmp(a->name, b->name);
  return c ? c : mag_cmp(a->d_cum, b->d_cum);
}
static int drow_cmp_cum(const void *x, const void *y) {
  const pcol_diff_row *a = x, *b = y;
  int c = mag_cmp(a->d_cum, b->d_cum);
  if (!c) c = name_cmp(a->name, b->name);
  return c ? c : mag_cmp(a->d_flat, b->d_flat);
}
static int drow_cmp_name(const void *x, const void *y) {
  return name_cmp(((const pcol_diff_row *)x)->name, ((const pcol_diff_row *)y)->name);
}

void pcol_diff_sort(pcol_diff *d, pcol_sort order) {
  if (!d || !d->nrows) return;
  qsort(d->rows, d->nrows, sizeof *d->rows,
        order == PCOL_SORT_CUM ? drow_cmp_cum : order == PCOL_SORT_NAME ? drow_cmp_name
                                                                       : drow_cmp_flat);
}

/* a key's "(inline)" mark from both sides: inlined on one side and not on
 * the other is partly inlined */
static int inl_join(int a, int b, int has_a, int has_b) {
  if (!has_a) return b;
  if (!has_b) return a;
  return a == b ? a : PCOL_INLINE_PARTIAL;
}

/* A row of one side as the two are joined: by name, then by what keeps
 * rows of one name apart (pcol_q_top_hidden: pprof's nodes of no function
 * name, "[app]" of two start lines or two mappings), so that each pairs
 * with the other side's node of its identity, as go's merge pairs them,
 * not with whichever row of its name sorts beside it. */
typedef struct jrow {
  const pcol_top_row *r;
  pcol_str hid;
  int kind;
} jrow;
static int jrow_cmp(const void *x, const void *y) {
  const jrow *a = x, *b = y;
  int c = name_cmp(a->r->name, b->r->name);
  if (!c) c = a->kind - b->kind;
  return c ? c : name_cmp(a->hid, b->hid);
}

/* rows of t sorted by name and identity, in a new array */
static jrow *by_name(const pcol_top *t) {
  jrow *r = malloc((t->nrows + 1) * sizeof *r);
  if (!r) return NULL;
  for (size_t i = 0; i < t->nrows; i++) {
    r[i].r = &t->rows[i];
    r[i].kind = pcol_q_top_hidden(t, t->rows[i].key, &r[i].hid);
  }
  qsort(r, t->nrows, sizeof *r, jrow_cmp);
  return r;
}

static int delta(const pcol_top *base, const pcol_top *nw, int absolute, pcol_diff_row *r,
                 pcol_error *err) {
  if (!absolute) {
    r->d_flat = pcol_share(r->new_flat, nw->total) - pcol_share(r->base_flat, base->total);
    r->d_cum = pcol_share(r->new_cum, nw->total) - pcol_share(r->base_cum, base->total);
    return PCOL_OK;
  }
  /* raw sums: exact (sums of 64-bit values fit well inside 128 bits) */
  (void)err;
  r->abs_flat = r->new_flat - r->base_flat;
  r->abs_cum = r->new_cum - r->base_cum;
  r->d_flat = (double)r->abs_flat;
  r->d_cum = (double)r->abs_cum;
  return PCOL_OK;
}

/* a base's sum in the new profile's unit (ScaleN's rounding) */
static pcol_sum in_new(pcol_sum x, double r) {
  return r == 1 ? x : (pcol_sum)round((double)x * r);
}

int pcol_diff_compute(const pcol_top *base, const pcol_top *nw, bool absolute, pcol_diff *out,
                      pcol_error *err) {
  memset(out, 0, sizeof *out);
  /* raw differences of kin units (the unit rule): the base's sums in the
   * new profile's unit, as the rows are shown (shares need no scaling) */
  double sc = 1;
  if (!absolute || !value_kin(&base->value, &nw->value, &sc)) sc = 1;
  /* a base in a finer unit would be rounded into the new one's, a change
   * smaller than its unit shown as 0 or a whole unit (bytes against
   * megabytes: no row at all), where go's -diff_base shows the finer:
   * refused, naming the view that scales as go does (rd12a F1) */
  if (sc < 1)
    return pcol_error_set(err, PCOL_EINVAL,
                          "raw differences of a base in %.*s against a new profile in %.*s, a coarser unit, "
                          "would be rounded to it: compare shares (without --absolute), or ask `pcol top NEW "
                          "--diff-base BASE`, which shows them in the finer unit as go tool pprof -diff_base",
                          (int)pcol_utf8_cut(base->value.unit.ptr, base->value.unit.len, 60),
                          base->value.unit.ptr ? base->value.unit.ptr : "",
                          (int)pcol_utf8_cut(nw->value.unit.ptr, nw->value.unit.len, 60),
                          nw->value.unit.ptr ? nw->value.unit.ptr : "");
  jrow *b = by_name(base), *n = by_name(nw);
  pcol_diff_row *rows = calloc(base->nrows + nw->nrows + 1, sizeof *rows);
  int rc = PCOL_OK;
  if (!b || !n || !rows) rc = pcol_oom(err);
  size_t nr = 0, i = 0, j = 0;
  /* merge-join the two lists sorted by name and identity */
  while (!rc && (i < base->nrows || j < nw->nrows)) {
    int c = i >= base->nrows ? 1 : j >= nw->nrows ? -1 : jrow_cmp(&b[i], &n[j]);
    pcol_diff_row *r = &rows[nr++];
    memset(r, 0, sizeof *r); /* (the slot of a row left out is reused) */
    if (c <= 0) {
      r->name = b[i].r->name;
      r->base_flat = in_new(b[i].r->flat, sc);
      r->base_cum = in_new(b[i].r->cum, sc);
      i++;
    }
    r->inl = c <= 0 ? b[i - 1].r->inl : 0;
    if (c >= 0) {
      r->name = n[j].r->name;
      r->new_flat = n[j].r->flat;
      r->new_cum = n[j].r->cum;
      r->inl = inl_join(r->inl, n[j].r->inl, c <= 0, 1);
      j++;
    }
    rc = delta(base, nw, absolute, r, err);
    /* pprof leaves a node whose flat and cum are both 0 out of the graph
     * (graph.go selectNodesForGraph): not shown, not counted as dropped */
    if (!rc && absolute && r->abs_flat == 0 && r->abs_cum == 0) nr--;
  }
  free(b);
  free(n);
  if (rc) {
    free(rows);
    return rc;
  }
  out->rows = rows;
  out->nrows = nr;
  pcol_diff_sort(out, PCOL_SORT_FLAT);
  out->base_total = in_new(base->total, sc);
  out->new_total = nw->total;
  out->absolute = absolute;
  return PCOL_OK;
}

size_t pcol_diff_cutoff(pcol_diff *d, double fraction, pcol_sum *label_cutoff) {
  if (label_cutoff) *label_cutoff = d->absolute ? (pcol_sum)pcol_q_frac_cut(d->base_total, fraction, 1) : 0;
  pcol_sum sum = 0;
  for (size_t i = 0; d->absolute && i < d->nrows; i++) sum += d->rows[i].abs_flat;
  pcol_q_umag cut = d->absolute ? pcol_q_frac_cut(sum, fraction, 1) : 0;
  double points = 100.0 * fraction;
  if (d->absolute ? cut == 0 : !(points > 0)) return 0;
  size_t k = 0;
  for (size_t i = 0; i < d->nrows; i++) {
    const pcol_diff_row *r = &d->rows[i];
    pcol_q_umag m = r->abs_cum < 0 ? -(pcol_q_umag)r->abs_cum : (pcol_q_umag)r->abs_cum;
    if (d->absolute ? m >= cut : fabs(r->d_cum) >= points) d->rows[k++] = *r;
  }
  size_t dropped = d->nrows - k;
  d->nrows = k;
  return dropped;
}

void pcol_diff_free(pcol_diff *d) {
  if (!d) return;
  free(d->rows);
  memset(d, 0, sizeof *d);
}

int pcol_ftree_diff(const pcol_ftree *nw, const pcol_ftree *base, double **base_share,
                    double **delta_out, pcol_error *err) {
  uint32_t n = nw->n;
  uint32_t *map = malloc(((size_t)n + 1) * sizeof *map);
  double *bs = calloc((size_t)n + 1, sizeof *bs), *d = calloc((size_t)n + 1, sizeof *d);
  *base_share = *delta_out = NULL;
  if (!map || !bs || !d) {
    free(map);
    free(bs);
    free(d);
    return pcol_oom(err);
  }
  if (n) map[0] = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (i) {
      uint32_t p = map[nw->parent[i]];
      map[i] = p == UINT32_MAX ? UINT32_MAX
                               : pcol_ftree_child(base, p, nw->name[i].ptr, nw->name[i].len);
      if (map[i] == 0) map[i] = UINT32_MAX;
    }
    bs[i] = map[i] == UINT32_MAX ? 0 : pcol_share(base->total[map[i]], base->total_abs);
    d[i] = pcol_share(nw->total[i], nw->total_abs) - bs[i];
  }
  free(map);
  *base_share = bs;
  *delta_out = d;
  return PCOL_OK;
}

/* rows of a top by name, for the merged graph's rows looked up by a diff row's */
static pcol_top_row *find_row(pcol_top_row *rows, size_t n, pcol_str name) {
  pcol_top_row key = {.name = name};
  return bsearch(&key, rows, n, sizeof *rows, row_name_cmp);
}

/* A side of the diff as its merge's messages name it: what ("the base",
 * "the profile") and its source's name (pcol_source_display_name) when one
 * source of it is read (source s, or its only one): "the base (old.pb.gz)" */
static void side_name(pcol_file *f, uint32_t s, const char *what, char *buf, size_t cap) {
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES);
  pcol_view uri;
  pcol_str name = {NULL, 0};
  if (!s && n == 1) s = 1;
  if (s && s <= n && !pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, NULL) &&
      !pcol_string(f, pcol_view_u32(&uri, s - 1), &name, NULL) && name.ptr)
    name = pcol_source_display_name(f, s, name);
  if (name.ptr) snprintf(buf, cap, "%s (%.*s)", what, (int)pcol_utf8_cut(name.ptr, name.len, 200), name.ptr);
  else snprintf(buf, cap, "%s", what);
}

/* What the merge's messages start with: a side's failure, or the pair's */
typedef struct merge_names {
  char side[2][300]; /* the base's, the profile's */
  char both[600];
} merge_names;
static void merge_names_make(pcol_file *base, pcol_file *nw, const pcol_select *sel, const pcol_select *nsel,
                             merge_names *m) {
  char s[2][256];
  side_name(base, sel->source_id, "the base", s[0], sizeof s[0]);
  side_name(nw, nsel->source_id, "the profile", s[1], sizeof s[1]);
  for (int k = 0; k < 2; k++) snprintf(m->side[k], sizeof m->side[k], "the (inline) marks' merge, %.255s", s[k]);
  snprintf(m->both, sizeof m->both, "the (inline) marks' merge of %.255s and %.255s", s[0], s[1]);
}

/* The merged graph's top (pcol_open_diff_base_select of nw and base,
 * -diff_base) of v: *u and *t (u borrowed by t's names).  PCOL_ENOTFOUND:
 * *refused set: a pair go's -diff_base refuses (pcol_open_diff_base_select's
 * ENOTFOUND: its period types, its value types, a source N one side lacks),
 * or a value the merged graph does not hold (pcol_value_resolve's
 * ENOTFOUND: one made from the samples' weight), `pcol top NW --diff-base
 * BASE`'s refusals; any other failure is one, its message after the side
 * it is of, or both (mn; review LOW-3: "out of memory" alone). */
static int merged_top(pcol_file *base, pcol_file *nw, const pcol_select *sel, const pcol_select *nsel,
                      const pcol_value_sel *v, pcol_by by, const merge_names *mn, pcol_file **u, pcol_top *t,
                      int *refused, pcol_error *err) {
  char name[512];
  pcol_select ms = *sel; /* the merge's: source N of each side, or each side's own taken first */
  pcol_file *bo = NULL, *no = NULL;
  int rc = PCOL_OK;
  if (nsel->source_id != sel->source_id) {
    uint32_t s[2] = {sel->source_id, nsel->source_id};
    pcol_file *f[2] = {base, nw}, **o[2] = {&bo, &no};
    for (int k = 0; !rc && k < 2; k++)
      if (s[k] > pcol_rows(f[k], PCOL_T_SOURCES)) /* (the diff refused it first) */
        rc = pcol_error_set(err, PCOL_ENOTFOUND, "no source %u (the %s has %llu)", s[k], k ? "profile" : "base",
                            (unsigned long long)pcol_rows(f[k], PCOL_T_SOURCES));
      else if (s[k] && (rc = pcol_q_source_alone(f[k], s[k], o[k], err)))
        pcol_error_prefix(err, mn->side[k]);
    ms.source_id = 0;
  }
  int side;
  if (!rc && (rc = pcol_open_diff_base_select(no ? no : nw, bo ? bo : base, &ms, PCOL_BASE_DIFF, u, &side, err)))
    pcol_error_prefix(err, side ? mn->both : mn->side[1]); /* (1: the base's or the pair's) */
  *refused = rc == PCOL_ENOTFOUND;
  pcol_close(bo);
  pcol_close(no);
  pcol_select us = ms; /* (the union's sources: each side's source N alone) */
  us.source_id = 0;
  if ((size_t)snprintf(name, sizeof name, "%.*s/%.*s", (int)v->type.len, v->type.ptr ? v->type.ptr : "",
                       (int)v->unit.len, v->unit.ptr ? v->unit.ptr : "") >= sizeof name)
    snprintf(name, sizeof name, "%.*s", (int)(v->type.len < 500 ? v->type.len : 500),
             v->type.ptr ? v->type.ptr : "");
  pcol_value_sel uv;
  if (!rc && (rc = pcol_value_resolve(*u, &us, v->vt_id ? name : "samples", &uv, err)) == PCOL_ENOTFOUND) {
    /* kin units (the unit rule): the union holds the type in the finest */
    name[v->type.len < sizeof name ? v->type.len : sizeof name - 1] = 0;
    rc = pcol_value_resolve(*u, &us, name, &uv, err);
    *refused = rc == PCOL_ENOTFOUND;
  }
  if (!rc) rc = pcol_top_compute(*u, &us, &uv, by, t, err);
  if (rc && !*refused && *u) pcol_error_prefix(err, mn->both);
  return rc;
}

int pcol_diff_mark_inline(pcol_file *base, pcol_file *nw, const pcol_select *sel, const pcol_select *nsel,
                          const pcol_value_sel *v, pcol_by by, pcol_diff *d, size_t shown, bool *merged,
                          pcol_error *err) {
  if (merged) *merged = false;
  if (!base || !nw || !v || !d) return pcol_error_set(err, PCOL_EINVAL, "pcol_diff_mark_inline: NULL argument");
  pcol_select none;
  if (!sel) {
    memset(&none, 0, sizeof none);
    sel = &none;
  }
  if (!nsel) nsel = sel;
  if (shown > d->nrows) shown = d->nrows;
  if (!shown) return PCOL_OK; /* (no row shown, or none: no merge, no top of it) */
  pcol_file *u = NULL;
  pcol_top t = {0};
  /* the merge's own error: a refusal leaves err (NULL, or a caller's
   * warning) as it was; any other failure is copied there */
  pcol_error me = {0};
  merge_names mn;
  merge_names_make(base, nw, sel, nsel, &mn);
  int refused = 0, rc = merged_top(base, nw, sel, nsel, v, by, &mn, &u, &t, &refused, &me), merge_rc = rc;
  /* a refusal, or a merge that fails on what the diff itself does not
   * read (a damaged label set: the merge reads every table): each side's
   * marks, joined (pcol_diff_compute's); out of memory and I/O are errors */
  if (refused || (rc && rc != PCOL_ENOMEM && rc != PCOL_EIO)) {
    pcol_top_free(&t);
    pcol_close(u);
    return PCOL_OK;
  }
  if (rc && err) *err = me;
  /* the shown rows first (in name order: a stable partition), then their
   * marks alone (pprof's graph of the nodes it keeps) */
  unsigned char *on = NULL;
  pcol_top_row *part = NULL;
  size_t all = t.nrows, m = 0, kept = 0;
  if (!rc) {
    qsort(t.rows, all, sizeof *t.rows, row_name_cmp);
    on = calloc(all + 1, 1);
    part = malloc((all + 1) * sizeof *part);
    if (!on || !part) rc = pcol_oom(err);
  }
  for (size_t k = 0; !rc && k < shown; k++) {
    pcol_top_row *r = find_row(t.rows, all, d->rows[k].name);
    if (r && !on[r - t.rows]) on[r - t.rows] = 1, kept++; /* (a name of no node: no mark) */
  }
  for (int pass = 1; !rc && pass >= 0; pass--)
    for (size_t k = 0; k < all; k++)
      if (on[k] == pass) part[m++] = t.rows[k];
  if (!rc) {
    memcpy(t.rows, part, all * sizeof *part);
    t.nrows = kept;
    rc = pcol_top_mark_inline(&t, err);
  }
  for (size_t k = 0; !rc && k < d->nrows; k++) {
    pcol_top_row *r = k < shown ? find_row(t.rows, kept, d->rows[k].name) : NULL;
    d->rows[k].inl = r ? r->inl : PCOL_INLINE_NONE;
  }
  if (rc && !merge_rc) pcol_error_prefix(err, mn.both); /* (the merged top's marks) */
  if (!rc && merged) *merged = true;
  t.nrows = all;
  free(on);
  free(part);
  pcol_top_free(&t);
  pcol_close(u);
  return rc;
}
