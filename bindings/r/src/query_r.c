/* query_r.c — the CLI's views for R: top, peek, list, tags, traces, diff,
 * fold and the sources' summaries, each through the libpcol call its
 * tools/cmd_*.c makes, in the same order with the same options, so that a
 * rule lives in libpcol only and the numbers are the CLI's.  Results are
 * raw (sums in the value's own unit, as `--format json` prints them); the R
 * code (R/query.R) converts units and builds the data frames.
 *
 * Every libpcol result is owned by an external pointer whose finalizer
 * frees it, so an R error (which unwinds past C) cannot leak it. */
#include "pcolb.h"
#include "pcol_r.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- selection */

/* q: list(source, from, to, focus, ignore, hide, show, tag, tag_ignore,
 * show_from, tagshow, taghide, no_inlines, relative_percentages), NULL
 * entries unset (R/query.R .query builds it), into the
 * pcol_select of `pcol VIEW --source --from --to --focus ...` (cli_select:
 * seconds rounded to the nanosecond with llround). */
static void parse_query(SEXP q, pcol_select *s) {
  memset(s, 0, sizeof *s);
  if (TYPEOF(q) != VECSXP || XLENGTH(q) != 14) Rf_error("internal: bad query");
  SEXP src = VECTOR_ELT(q, 0), from = VECTOR_ELT(q, 1), to = VECTOR_ELT(q, 2);
  if (src != R_NilValue) {
    double d = Rf_asReal(src);
    if (!(d >= 1 && d <= UINT32_MAX) || d != (double)(uint32_t)d) Rf_error("source must be a source_id (1 or more)");
    s->source_id = (uint32_t)d;
  }
  pcol_r_range(from, to, s);
  const char **re[9] = {&s->focus,     &s->ignore,   &s->hide,
                        &s->show,      &s->tag,      &s->tag_ignore,
                        &s->show_from, &s->tag_show, &s->tag_hide};
  for (int k = 0; k < 9; k++) {
    SEXP x = VECTOR_ELT(q, 3 + k);
    if (x != R_NilValue) *re[k] = Rf_translateCharUTF8(STRING_ELT(x, 0)); /* R_alloc: lives until .Call returns */
  }
  s->no_inlines = Rf_asLogical(VECTOR_ELT(q, 12)) == TRUE;
  s->relative = Rf_asLogical(VECTOR_ELT(q, 13)) == TRUE;
}

static const char *str1(SEXP x) {
  return x == R_NilValue ? NULL : Rf_translateCharUTF8(STRING_ELT(x, 0));
}

static pcol_sort parse_sort(SEXP x) {
  const char *s = str1(x);
  if (!s || !strcmp(s, "flat")) return PCOL_SORT_FLAT;
  if (!strcmp(s, "cum")) return PCOL_SORT_CUM;
  if (!strcmp(s, "name")) return PCOL_SORT_NAME;
  Rf_error("sort must be \"flat\", \"cum\" or \"name\", not \"%s\"", s);
}

/* --by of top, peek and diff (cli_report_options) */
static pcol_by parse_by(const char *s) {
  pcol_by by;
  if (pcol_by_parse(s, &by) == PCOL_OK) return by;
  Rf_error("by must be \"function\", \"line\", \"file\", \"address\" or \"filefunction\", not \"%s\"", s);
}

#define ADVICE "name one with value = \"TYPE\"" /* R's words for --value TYPE */

/* the value, as cli_load resolves it (NULL: the source's default), and
 * unless quiet the data warnings the CLI's views print then
 * (pcb_view_notes: the library's rules and words, "PATH: the sources
 * measure different values, so the default is samples ...", "PATH: source
 * N (...) has no value T/U; its samples count 0", "PATH: a relative time
 * range counts from each source's own start: ..."), an R warning each;
 * by: the view's (by "label:KEY": its filters see KEY's frames) or NULL */
static void resolve_value(pcol_file *f, const char *path, const pcol_select *s, SEXP value,
                          pcol_value_sel *v, int quiet, const char *by) {
  pcol_error err = {0};
  int rc = pcol_value_resolve(f, s, str1(value), v, &err);
  if (rc) pcol_stop(path, &err, rc);
  if (!quiet)
    pcolr_warn_notes(pcb_view_notes(&f, 1, by, s, NULL, v, str1(value) != NULL, &path, ADVICE, 0));
}
static void resolve(pcol_file *f, const char *path, const pcol_select *s, SEXP value, pcol_value_sel *v) {
  resolve_value(f, path, s, value, v, 0, NULL);
}

static SEXP mkstr(pcol_str s) { return pcolr_mkchar(s.ptr, s.len); }

/* the common tail of every result: total, type, unit (before the value's
 * strings go with the file); a mean view's type is "mean_TYPE", as the
 * CLI's (pcol_mean_type) */
static void set_meta_mean(SEXP out, int at, double total, const pcol_value_sel *v, int mean) {
  char b[PCOL_MEAN_TYPE_MAX];
  SET_VECTOR_ELT(out, at, Rf_ScalarReal(total)); /* (pcolr_dbl'd by the caller) */
  SET_VECTOR_ELT(out, at + 1, Rf_ScalarString(mkstr(mean ? pcol_mean_type(v->type, b) : v->type)));
  SET_VECTOR_ELT(out, at + 2, Rf_ScalarString(mkstr(v->unit)));
}
static void set_meta(SEXP out, int at, double total, const pcol_value_sel *v) {
  set_meta_mean(out, at, total, v, 0);
}

/* pprof -mean (pcol_mean_divisor, pcol_top_mean): t's rows, total and
 * *cutoff in means, as tools/cli_value.c cli_mean; dtop NULL, or peek's
 * top of the divisor, computed into it once (by: t's granularity) */
static int top_mean(pcol_file *f, const pcol_select *s, pcol_top *t, double fraction, pcol_sum *cutoff,
                    pcol_value_sel *div, pcol_by by, pcol_top *dtop, pcol_error *err) {
  int rc = pcol_mean_divisor(f, s, div, err);
  if (!rc && dtop) rc = pcol_top_compute_frames(f, s, div, by, dtop, err); /* peek's keys */
  return rc ? rc : pcol_top_mean_with(f, s, div, dtop, t, fraction, cutoff, err);
}

static const char *inline_name(int inl) {
  return inl == PCOL_INLINE_ONLY ? "inline" : inl == PCOL_INLINE_PARTIAL ? "partial-inline" : NULL;
}

/* ------------------------------------------------------- owned results */

typedef struct owned {
  pcol_top top, top2;
  pcol_peek peek;
  pcol_list list;
  pcol_tags tags;
  pcol_diff diff;
  pcol_graph graph;
  pcol_source_summary *sum;
  size_t nsum;
  FILE *tmp;
  char *buf; /* traces: text of labels and stacks */
  size_t len, cap;
  struct trow { int64_t value; size_t lab, lablen, stk, stklen; } *rows;
  size_t nrows, rcap;
  pcol_file *file; /* diff by address: the base at the new side's addresses */
} owned;

static void owned_finalize(SEXP x) {
  owned *o = R_ExternalPtrAddr(x);
  if (!o) return;
  pcol_peek_free(&o->peek);
  pcol_diff_free(&o->diff);
  pcol_top_free(&o->top);
  pcol_top_free(&o->top2);
  pcol_list_free(&o->list);
  pcol_tags_free(&o->tags);
  pcol_graph_free(&o->graph);
  if (o->sum) pcol_source_summaries_free(o->sum, o->nsum);
  if (o->tmp) fclose(o->tmp);
  if (o->file) pcol_close(o->file);
  free(o->buf);
  free(o->rows);
  free(o);
  R_ClearExternalPtr(x);
}

/* a zeroed owned, protected (the caller unprotects 1) */
static owned *new_owned(SEXP *x) {
  owned *o = calloc(1, sizeof *o);
  if (!o) Rf_error("out of memory");
  *x = PROTECT(R_MakeExternalPtr(o, R_NilValue, R_NilValue));
  R_RegisterCFinalizerEx(*x, owned_finalize, TRUE);
  return o;
}

static SEXP named_list(const char *const *names, int n) {
  SEXP out = PROTECT(Rf_allocVector(VECSXP, n)), nm = PROTECT(Rf_allocVector(STRSXP, n));
  for (int i = 0; i < n; i++) SET_STRING_ELT(nm, i, Rf_mkChar(names[i]));
  Rf_setAttrib(out, R_NamesSymbol, nm);
  UNPROTECT(2);
  return out;
}

/* ---------------------------------------------------------------- top */

/* cmd_top: pcol_top_by_label (cut, sort, then pprof's inline marks from
 * the rows shown) or pcol_top_compute_shown; drop_negative (pprof
 * -drop_negative): the rows below 0 dropped before the cut
 * (pcol_top_drop_negative); mean (pprof -mean): the rows kept in means
 * (pcol_top_mean; R refuses it by label, as the CLI). */
SEXP C_q_top(SEXP file, SEXP by_, SEXP value, SEXP q, SEXP fraction, SEXP sort_, SEXP limit_, SEXP mean_,
             SEXP drop_negative) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file), *bys = str1(by_);
  pcol_select s;
  parse_query(q, &s);
  pcol_sort sort = parse_sort(sort_);
  double fr = Rf_asReal(fraction), lim = Rf_asReal(limit_);
  if (!(fr >= 0 && fr <= 1)) Rf_error("node_fraction must be a number from 0 to 1");
  int label = !strncmp(bys, "label:", 6), mean = Rf_asLogical(mean_) == TRUE;
  int drop_neg = Rf_asLogical(drop_negative) == TRUE;
  if (mean && label) Rf_error("mean divides a function's value by its count: not with by = \"label:KEY\"");
  pcol_by by = label ? PCOL_BY_FUNCTION : parse_by(bys);
  pcol_value_sel v;
  resolve_value(f, path, &s, value, &v, 0, bys);
  SEXP ox;
  owned *o = new_owned(&ox);
  pcol_top *t = &o->top;
  pcol_error err = {0};
  pcol_sum cutoff = 0;
  size_t dropped = 0;
  int rc;
  size_t shown = !ISNA(lim) && lim >= 0 && lim < (double)SIZE_MAX ? (size_t)lim : SIZE_MAX;
  if (label) {
    rc = pcol_top_by_label(f, &s, &v, bys + 6, t, &err);
    if (!rc && drop_neg) rc = pcol_top_drop_negative(t, fr, SIZE_MAX, &dropped, &cutoff, &err);
    else if (!rc) dropped = pcol_top_cutoff(t, fr, &cutoff);
    if (!rc) pcol_top_sort(t, sort);
  } else if (drop_neg) { /* pprof: the negative nodes dropped, then the cut of the others */
    rc = pcol_top_compute_shown(f, &s, &v, by, 0, sort, SIZE_MAX, t, NULL, NULL, &err);
    if (!rc) rc = pcol_top_drop_negative(t, fr, shown, &dropped, &cutoff, &err);
  } else { /* the marks of the rows shown, made once */
    rc = pcol_top_compute_shown(f, &s, &v, by, fr, sort, shown, t, &dropped, &cutoff, &err);
  }
  pcol_value_sel div;
  if (!rc && mean) rc = top_mean(f, &s, t, fr, &cutoff, &div, PCOL_BY_FUNCTION, NULL, &err);
  size_t n = t->nrows;
  if (!ISNA(lim) && lim >= 0 && lim < (double)n) n = (size_t)lim;
  if (!rc && label && (dropped || n < t->nrows)) {
    size_t all = t->nrows;
    t->nrows = n;
    rc = pcol_top_mark_inline(t, &err);
    t->nrows = all;
  }
  if (rc) pcol_stop(path, &err, rc);
  static const char *const nm[] = {"name", "flat", "cum", "inline", "total", "type", "unit", "dropped", "sum_pct"};
  SEXP out = PROTECT(named_list(nm, 9));
  SEXP name = Rf_allocVector(STRSXP, (R_xlen_t)n);
  SET_VECTOR_ELT(out, 0, name);
  SEXP flat = Rf_allocVector(REALSXP, (R_xlen_t)n);
  SET_VECTOR_ELT(out, 1, flat);
  SEXP cum = Rf_allocVector(REALSXP, (R_xlen_t)n);
  SET_VECTOR_ELT(out, 2, cum);
  SEXP inl = Rf_allocVector(STRSXP, (R_xlen_t)n);
  SET_VECTOR_ELT(out, 3, inl);
  /* sum%: the rows' flat% added up in doubles, as cmd_top's print_table
   * (R's cumsum adds in long double: a sum near 0 could differ in sign) */
  SEXP sump = Rf_allocVector(REALSXP, (R_xlen_t)n);
  SET_VECTOR_ELT(out, 8, sump);
  double sum = 0;
  pcolr_lost lost = {0}; /* a sum past 2^53 rounded: one warning */
  for (size_t i = 0; i < n; i++) {
    const pcol_top_row *r = &t->rows[i];
    sum += t->total ? 100.0 * (double)r->flat / (double)t->total : 0.0;
    REAL(sump)[i] = sum;
    SET_STRING_ELT(name, (R_xlen_t)i, r->name.ptr ? mkstr(r->name) : Rf_mkChar(""));
    REAL(flat)[i] = pcolr_dbl(r->flat, &lost);
    REAL(cum)[i] = pcolr_dbl(r->cum, &lost);
    const char *in = inline_name(r->inl);
    SET_STRING_ELT(inl, (R_xlen_t)i, in ? Rf_mkChar(in) : NA_STRING);
  }
  set_meta_mean(out, 4, pcolr_dbl(t->total, &lost), &t->value, mean);
  SET_VECTOR_ELT(out, 7, Rf_ScalarReal((double)dropped));
  pcolr_warn_lost(&lost, path, "pcol_top");
  UNPROTECT(2);
  return out;
}

/* --------------------------------------------------------------- peek */

/* cmd_peek: pcol_top_compute_frames (nothing trimmed), sort, pcol_peek_compute;
 * a row per caller, node and callee as `pcol peek --format json`. */
/* The rows of peek and tree (tools/cli_tree.c's): a node's callers, the
 * node (flat, cum), its callees (value, inline).  trows_new allocates n of
 * each column in a named list (protected: trows_done unprotects it and the
 * three relation names, and sets the meta). */
typedef struct trows {
  SEXP out, node, rel, name, flat, cum, val, inl, caller, callee, nd;
  R_xlen_t k;
  pcolr_lost lost; /* a sum past 2^53 rounded (trows_done warns) */
} trows;
static const char *const trow_names[] = {"node", "relation", "name", "flat", "cum", "value", "inline", "total", "type", "unit"};
static void trows_new(trows *t, size_t n) {
  t->out = PROTECT(named_list(trow_names, 10));
  R_xlen_t N = (R_xlen_t)n;
  SEXP *col[] = {&t->node, &t->rel, &t->name, &t->flat, &t->cum, &t->val, &t->inl};
  const SEXPTYPE ty[] = {STRSXP, STRSXP, STRSXP, REALSXP, REALSXP, REALSXP, LGLSXP};
  for (int i = 0; i < 7; i++) {
    *col[i] = Rf_allocVector(ty[i], N);
    SET_VECTOR_ELT(t->out, i, *col[i]);
  }
  t->caller = PROTECT(Rf_mkChar("caller"));
  t->callee = PROTECT(Rf_mkChar("callee"));
  t->nd = PROTECT(Rf_mkChar("node"));
  t->k = 0;
  t->lost = (pcolr_lost){0};
}
static void trows_node(trows *t, SEXP me, const pcol_top_row *r) {
  SET_STRING_ELT(t->node, t->k, me);
  SET_STRING_ELT(t->rel, t->k, t->nd);
  SET_STRING_ELT(t->name, t->k, me);
  REAL(t->flat)[t->k] = pcolr_dbl(r->flat, &t->lost);
  REAL(t->cum)[t->k] = pcolr_dbl(r->cum, &t->lost);
  REAL(t->val)[t->k] = NA_REAL;
  LOGICAL(t->inl)[t->k] = NA_LOGICAL;
  t->k++;
}
static void trows_edge(trows *t, SEXP me, int callee, pcol_str name, pcol_sum value, bool inl) {
  SET_STRING_ELT(t->node, t->k, me);
  SET_STRING_ELT(t->rel, t->k, callee ? t->callee : t->caller);
  SET_STRING_ELT(t->name, t->k, mkstr(name));
  REAL(t->flat)[t->k] = NA_REAL;
  REAL(t->cum)[t->k] = NA_REAL;
  REAL(t->val)[t->k] = pcolr_dbl(value, &t->lost);
  LOGICAL(t->inl)[t->k] = inl;
  t->k++;
}
/* (a sum rounded: one warning, "PATH: VIEW: ...") */
static SEXP trows_done(trows *t, pcol_sum total, const pcol_top *top, int mean, const char *path,
                       const char *view) {
  set_meta_mean(t->out, 7, pcolr_dbl(total, &t->lost), &top->value, mean);
  pcolr_warn_lost(&t->lost, path, view);
  UNPROTECT(4);
  return t->out;
}

SEXP C_q_peek(SEXP file, SEXP by_, SEXP value, SEXP q, SEXP regex, SEXP sort_, SEXP mean_,
              SEXP drop_negative) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file), *re = str1(regex);
  int mean = Rf_asLogical(mean_) == TRUE, drop_neg = Rf_asLogical(drop_negative) == TRUE;
  pcol_select s;
  parse_query(q, &s);
  pcol_sort sort = parse_sort(sort_);
  pcol_by by = parse_by(str1(by_));
  pcol_value_sel v;
  resolve(f, path, &s, value, &v);
  SEXP ox;
  owned *o = new_owned(&ox);
  pcol_error err = {0};
  int rc = pcol_top_compute_frames(f, &s, &v, by, &o->top, &err); /* go's keys (cmd_peek.c) */
  /* mean: the nodes' flat and cum in means, in the sums' order; the calls
   * stay sums (pcol_peek_compute_mean with a top of the divisor) */
  pcol_value_sel div;
  if (!rc) pcol_top_sort(&o->top, sort);
  /* drop_negative: the negative nodes unlisted by their sums (cmd_peek.c) */
  if (!rc && drop_neg) rc = pcol_top_drop_negative(&o->top, 0, SIZE_MAX, NULL, NULL, &err);
  if (!rc && mean) rc = top_mean(f, &s, &o->top, 0, NULL, &div, by, &o->top2, &err);
  if (!rc)
    rc = mean ? pcol_peek_compute_mean(&o->top, &o->top2, re, &o->peek, &err)
              : pcol_peek_compute(&o->top, re, &o->peek, &err);
  if (rc) pcol_stop(path, &err, rc);
  if (o->peek.nnodes == 0) Rf_errorcall(R_NilValue, "%s: no matches found for regexp: %s", path ? path : "", re);
  size_t n = 0;
  for (size_t i = 0; i < o->peek.nnodes; i++) n += 1 + o->peek.nodes[i].nin + o->peek.nodes[i].nout;
  trows t;
  trows_new(&t, n);
  for (size_t i = 0; i < o->peek.nnodes; i++) {
    const pcol_peek_node *p = &o->peek.nodes[i];
    SEXP me = PROTECT(mkstr(p->row->name));
    for (size_t j = 0; j < p->nin; j++) trows_edge(&t, me, 0, p->in[j].caller, p->in[j].value, p->in[j].inl);
    trows_node(&t, me, p->row);
    for (size_t j = 0; j < p->nout; j++) trows_edge(&t, me, 1, p->out[j].callee, p->out[j].value, p->out[j].inl);
    UNPROTECT(1);
  }
  SEXP out = trows_done(&t, o->top.total, &o->top, mean, path, "pcol_peek");
  UNPROTECT(1); /* ox */
  return out;
}

/* cmd_tree: pprof -tree's graph (pcol_graph_compute in text mode), a node
 * and its callers and callees a block, as peek's rows */
SEXP C_q_tree(SEXP file, SEXP by_, SEXP value, SEXP q, SEXP sort_, SEXP nf_, SEXP ef_, SEXP nc_, SEXP mean_,
              SEXP drop_negative) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file);
  pcol_select s;
  parse_query(q, &s);
  pcol_sort sort = parse_sort(sort_);
  if (sort == PCOL_SORT_NAME) Rf_error("sort must be \"flat\" or \"cum\", not \"name\"");
  pcol_by by = parse_by(str1(by_));
  pcol_graph_opts go = pcol_graph_opts_default();
  go.text = go.no_tags = true;
  go.cum_sort = sort == PCOL_SORT_CUM;
  double nf = Rf_asReal(nf_), ef = Rf_asReal(ef_), nc = Rf_asReal(nc_);
  if (!(nf >= 0 && nf <= 1) || !(ef >= 0 && ef <= 1)) Rf_error("node_fraction and edge_fraction must be from 0 to 1");
  if (!(nc >= 0 && nc <= 1e15) || nc != floor(nc)) Rf_error("node_count must be 0 (all) or a whole number");
  go.node_fraction = nf;
  go.edge_fraction = ef;
  go.node_count = (size_t)nc;
  go.drop_negative = Rf_asLogical(drop_negative) == TRUE;
  pcol_value_sel v;
  resolve(f, path, &s, value, &v);
  SEXP ox;
  owned *o = new_owned(&ox);
  pcol_error err = {0};
  int mean = Rf_asLogical(mean_) == TRUE, rc = 0;
  pcol_value_sel div; /* mean: the nodes in means of this value (the graph's mean_div) */
  if (mean && !(rc = pcol_mean_divisor(f, &s, &div, &err))) go.mean_div = &div;
  if (!rc) rc = pcol_graph_compute(f, &s, &v, by, &go, &o->graph, &err);
  if (rc) pcol_stop(path, &err, rc);
  const pcol_graph *g = &o->graph;
  trows t;
  /* the rows: each node with its callers and callees (a call of a phantom,
   * pcol_graph.nphantom, is a row of its other end only, or of none) */
  size_t nrows = g->nnodes;
  for (size_t i = 0; i < g->nnodes; i++)
    nrows += (g->in_off[i + 1] - g->in_off[i]) + (g->out_off[i + 1] - g->out_off[i]);
  trows_new(&t, nrows);
  for (size_t i = 0; i < g->nnodes; i++) {
    const pcol_top_row *r = &g->nodes[i];
    SEXP me = PROTECT(mkstr(r->name));
    for (size_t k = g->in_off[i]; k < g->in_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g->edges[g->in_edge[k]];
      trows_edge(&t, me, 0, g->nodes[e->from].name, e->weight, e->inl);
    }
    trows_node(&t, me, r);
    for (size_t k = g->out_off[i]; k < g->out_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g->edges[g->out_edge[k]];
      trows_edge(&t, me, 1, g->nodes[e->to].name, e->weight, e->inl);
    }
    UNPROTECT(1);
  }
  SEXP out = trows_done(&t, g->total, &g->top, mean, path, "pcol_tree"); /* (mean: the divided total) */
  UNPROTECT(1); /* ox */
  return out;
}

/* --------------------------------------------------------------- list */

/* cmd_list: by function (pprof -list, PCOL_BY_LINE) or file
 * (PCOL_BY_SOURCE_LINE); a row per source line; blocks without lines
 * ("No source information", a file that cannot be read) have none. */
SEXP C_q_list(SEXP file, SEXP by_, SEXP value, SEXP q, SEXP regex, SEXP source_path, SEXP any, SEXP mean,
              SEXP drop_negative) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file), *re = str1(regex), *bys = str1(by_);
  pcol_by by = PCOL_BY_LINE;
  if (!strcmp(bys, "file")) by = PCOL_BY_SOURCE_LINE;
  else if (strcmp(bys, "function")) Rf_error("by must be \"function\" or \"file\", not \"%s\"", bys);
  pcol_select s;
  parse_query(q, &s);
  pcol_value_sel v;
  resolve(f, path, &s, value, &v);
  SEXP ox;
  owned *o = new_owned(&ox);
  pcol_error err = {0};
  pcol_list_options lo = {str1(source_path), Rf_asLogical(any) == TRUE, Rf_asLogical(drop_negative) == TRUE};
  int rc = pcol_list_compute(f, &s, &v, by, re, &lo, &o->list, &err);
  /* mean: the lines stay sums beside the mean total (pprof -list prints
   * fn.Flat, fn.Cum, rpt.total), the type as it is (cmd_list) */
  pcol_value_sel div;
  if (!rc && Rf_asLogical(mean) == TRUE && !(rc = pcol_mean_divisor(f, &s, &div, &err)))
    rc = pcol_mean_total(f, &s, &o->list.value, &div, &o->list.total, &err);
  if (rc) pcol_stop(path, &err, rc);
  if (o->list.nblocks == 0) Rf_errorcall(R_NilValue, "%s: no matches found for regexp: %s", path ? path : "", re);
  size_t n = 0;
  for (size_t i = 0; i < o->list.nblocks; i++) n += o->list.blocks[i].nlines;
  static const char *const nm[] = {"function", "file", "line", "flat", "cum", "text", "total", "type", "unit"};
  SEXP out = PROTECT(named_list(nm, 9));
  R_xlen_t N = (R_xlen_t)n, k = 0;
  SEXP fn = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 0, fn);
  SEXP fl = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 1, fl);
  SEXP ln = Rf_allocVector(REALSXP, N);
  SET_VECTOR_ELT(out, 2, ln);
  SEXP flat = Rf_allocVector(REALSXP, N);
  SET_VECTOR_ELT(out, 3, flat);
  SEXP cum = Rf_allocVector(REALSXP, N);
  SET_VECTOR_ELT(out, 4, cum);
  SEXP text = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 5, text);
  pcolr_lost lost = {0};
  for (size_t i = 0; i < o->list.nblocks; i++) {
    const pcol_list_block *b = &o->list.blocks[i];
    SEXP bn = PROTECT(mkstr(b->name)), bf = PROTECT(mkstr(b->file));
    for (size_t j = 0; j < b->nlines; j++, k++) {
      const pcol_list_line *l = &b->lines[j];
      SET_STRING_ELT(fn, k, bn);
      SET_STRING_ELT(fl, k, bf);
      REAL(ln)[k] = l->line == PCOL_NA_I64 ? NA_REAL : (double)l->line;
      REAL(flat)[k] = pcolr_dbl(l->flat, &lost);
      REAL(cum)[k] = pcolr_dbl(l->cum, &lost);
      SET_STRING_ELT(text, k, mkstr(l->text));
    }
    UNPROTECT(2);
  }
  set_meta(out, 6, pcolr_dbl(o->list.total, &lost), &v);
  pcolr_warn_lost(&lost, path, "pcol_list");
  UNPROTECT(2);
  return out;
}

/* --------------------------------------------------------------- tags */

/* cmd_tags: a row per (key, value) in pcol_tags_compute's order */
SEXP C_q_tags(SEXP file, SEXP value, SEXP q) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file);
  pcol_select s;
  parse_query(q, &s);
  pcol_value_sel v;
  resolve(f, path, &s, value, &v);
  SEXP ox;
  owned *o = new_owned(&ox);
  pcol_error err = {0};
  int rc = pcol_tags_compute(f, &s, &v, &o->tags, &err);
  if (rc) pcol_stop(path, &err, rc);
  size_t n = 0;
  for (size_t i = 0; i < o->tags.nkeys; i++) n += o->tags.keys[i].nvalues;
  static const char *const nm[] = {"key", "value", "amount", "key_total", "total", "type", "unit"};
  SEXP out = PROTECT(named_list(nm, 7));
  R_xlen_t N = (R_xlen_t)n, k = 0;
  SEXP key = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 0, key);
  SEXP val = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 1, val);
  SEXP amt = Rf_allocVector(REALSXP, N);
  SET_VECTOR_ELT(out, 2, amt);
  SEXP kt = Rf_allocVector(REALSXP, N);
  SET_VECTOR_ELT(out, 3, kt);
  double total = 0;
  pcolr_lost lost = {0};
  for (size_t i = 0; i < o->tags.nkeys; i++) {
    const pcol_tag_key *tk = &o->tags.keys[i];
    total += pcolr_dbl(tk->total, &lost);
    SEXP kn = PROTECT(mkstr(tk->key));
    for (size_t j = 0; j < tk->nvalues; j++, k++) {
      SET_STRING_ELT(key, k, kn);
      SET_STRING_ELT(val, k, mkstr(tk->values[j].name));
      REAL(amt)[k] = pcolr_dbl(tk->values[j].value, &lost);
      REAL(kt)[k] = (double)tk->total;
    }
    UNPROTECT(1);
  }
  set_meta(out, 4, total, &v);
  pcolr_warn_lost(&lost, path, "pcol_tags");
  UNPROTECT(2);
  return out;
}

/* ------------------------------------------------------------- traces */

typedef struct tr_ctx {
  owned *o;
  double left;
  pcol_str unit;
  pcol_error *err; /* where on_trace says why it failed */
  int mean;        /* each value over its divisor (pcol_traces_iter_mean) */
} tr_ctx;

static int put(owned *o, const char *p, size_t n) {
  if (o->len + n + 1 > o->cap) {
    size_t c = (o->len + n + 1) * 2;
    char *b = realloc(o->buf, c);
    if (!b) return PCOL_ENOMEM;
    o->buf = b;
    o->cap = c;
  }
  if (n) memcpy(o->buf + o->len, p, n);
  o->len += n;
  return 0;
}

/* cmd_traces' machine row: labels "k=v,k=v" (a numeric label in its unit,
 * pcol_unit_label "auto"), stack root;...;leaf.  Called inside libpcol: no
 * R allocation here (an R error would unwind through it). */
static int trace_row(tr_ctx *c, const pcol_trace *t) {
  owned *o = c->o;
  if (c->left <= 0) return 1;
  c->left--;
  if (o->nrows == o->rcap) {
    size_t cap = o->rcap ? 2 * o->rcap : 64;
    struct trow *r = realloc(o->rows, cap * sizeof *r);
    if (!r) return PCOL_ENOMEM;
    o->rows = r;
    o->rcap = cap;
  }
  struct trow *r = &o->rows[o->nrows++];
  r->value = t->value;
  r->lab = o->len;
  char b[4200];
  for (size_t i = 0; i < t->nlabels; i++) {
    const pcol_label_kv *l = &t->labels[i];
    int w;
    if (l->str.ptr) {
      w = snprintf(b, sizeof b, "%.*s", (int)(l->str.len > 4000 ? 4000 : l->str.len), l->str.ptr);
    } else {
      pcol_str u = l->unit.ptr && l->unit.len ? l->unit : l->key;
      pcol_unit_label(l->num, u, "auto", b, sizeof b);
      w = (int)strlen(b);
    }
    if ((i && put(o, ",", 1)) || put(o, l->key.ptr ? l->key.ptr : "", l->key.len) || put(o, "=", 1) ||
        put(o, b, (size_t)w))
      return PCOL_ENOMEM;
  }
  r->lablen = o->len - r->lab;
  r->stk = o->len;
  size_t sn = pcol_trace_stack_text(t, NULL, 0); /* the line's length, then the line */
  if (o->len + sn + 1 > o->cap) {
    char *b = realloc(o->buf, (o->len + sn + 1) * 2);
    if (!b) return PCOL_ENOMEM;
    o->buf = b;
    o->cap = (o->len + sn + 1) * 2;
  }
  o->len += pcol_trace_stack_text(t, o->buf + o->len, sn);
  r->stklen = o->len - r->stk;
  return 0;
}

/* The iterator's callback: a row, or the reason it failed (every failure of
 * trace_row is a failed allocation). */
static int on_trace(void *ctx, const pcol_trace *t) {
  tr_ctx *c = ctx;
  int rc = trace_row(c, t);
  return rc < 0 ? pcol_error_set(c->err, PCOL_ENOMEM, "out of memory") : rc;
}

SEXP C_q_traces(SEXP file, SEXP value, SEXP q, SEXP limit, SEXP mean, SEXP by_) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file);
  pcol_by by = parse_by(str1(by_)); /* how each frame is named (pcol traces --by) */
  pcol_select s;
  parse_query(q, &s);
  pcol_value_sel v;
  resolve(f, path, &s, value, &v);
  SEXP ox;
  owned *o = new_owned(&ox);
  pcol_error err = {0};
  tr_ctx c = {o, Rf_asReal(limit), v.unit, &err, Rf_asLogical(mean) == TRUE};
  if (ISNA(c.left)) c.left = INFINITY;
  pcol_value_sel div; /* report.go printTraces: each trace over its divisor */
  int rc = c.mean ? pcol_mean_divisor(f, &s, &div, &err) : 0;
  if (!rc) rc = pcol_traces_iter_by(f, &s, &v, c.mean ? &div : NULL, by, on_trace, &c, &err);
  if (rc) pcol_stop(path, &err, rc);
  static const char *const nm[] = {"value", "labels", "stack", "total", "type", "unit"};
  SEXP out = PROTECT(named_list(nm, 6));
  R_xlen_t N = (R_xlen_t)o->nrows;
  SEXP val = Rf_allocVector(REALSXP, N);
  SET_VECTOR_ELT(out, 0, val);
  SEXP lab = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 1, lab);
  SEXP stk = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 2, stk);
  double total = 0;
  pcolr_lost lost = {0};
  for (R_xlen_t i = 0; i < N; i++) {
    const struct trow *r = &o->rows[i];
    REAL(val)[i] = pcolr_dbl(r->value, &lost);
    total += REAL(val)[i];
    SET_STRING_ELT(lab, i, pcolr_mkchar(o->buf + r->lab, r->lablen));
    SET_STRING_ELT(stk, i, pcolr_mkchar(o->buf + r->stk, r->stklen));
  }
  set_meta_mean(out, 3, total, &v, c.mean);
  pcolr_warn_lost(&lost, path, "pcol_traces");
  UNPROTECT(2);
  return out;
}

/* --------------------------------------------------------------- diff */

/* cmd_diff: each side resolved and computed with the same filters, the
 * values checked to be comparable, joined by name, sorted as pprof
 * -diff_base, marked as the graph of both merged (pcol_diff_mark_inline). */
SEXP C_q_diff(SEXP base, SEXP nw, SEXP by_, SEXP value, SEXP q, SEXP absolute, SEXP sort_) {
  pcol_file *fb = file_of(base), *fn = file_of(nw);
  const char *pb = path_of(base), *pn = path_of(nw);
  pcol_select s;
  parse_query(q, &s);
  pcol_sort sort = parse_sort(sort_);
  pcol_by by = parse_by(str1(by_));
  int abs_ = Rf_asLogical(absolute) == TRUE;
  pcol_value_sel vs[2];
  resolve_value(fb, pb, &s, value, &vs[0], 1, NULL);
  resolve_value(fn, pn, &s, value, &vs[1], 1, NULL);
  { /* the two sides' warnings, as pcol diff's: each side's, a filter's once, of both */
    pcol_file *fs[2] = {fb, fn};
    const char *ps[2] = {pb, pn};
    pcolr_warn_notes(pcb_view_notes(fs, 2, NULL, &s, NULL, vs, str1(value) != NULL, ps, ADVICE, 0));
  }
  pcol_value_sel vb = vs[0], vn = vs[1];
  SEXP ox;
  owned *o = new_owned(&ox);
  pcol_error err = {0};
  /* no value named: the two defaults as pcol diff takes them (go's
   * -diff_base: the one the new side names, else the base's) */
  int rc = str1(value) ? PCOL_OK : pcol_value_diff_default(fb, fn, &s, NULL, &vb, &vn, &err);
  if (rc) pcol_stop(NULL, &err, rc);
  /* by address: the base at the new side's addresses (pcol diff's rule) */
  if (by == PCOL_BY_ADDRESS && (rc = pcol_open_readdressed(fb, fn, &o->file, &err))) pcol_stop(pb, &err, rc);
  rc = pcol_top_compute(o->file ? o->file : fb, &s, &vb, by, &o->top, &err);
  if (rc) pcol_stop(pb, &err, rc);
  rc = pcol_top_compute(fn, &s, &vn, by, &o->top2, &err);
  if (rc) pcol_stop(pn, &err, rc);
  rc = pcol_value_compatible(&o->top.value, &o->top2.value, &err);
  if (!rc) rc = pcol_diff_compute(&o->top, &o->top2, abs_, &o->diff, &err);
  if (rc) pcol_stop(NULL, &err, rc);
  pcol_diff_sort(&o->diff, sort);
  /* every row's marks: of both sides merged, as pcol diff --node-fraction 0
   * -n 0's and go's -diff_base (each side's joined where go refuses to
   * merge them) */
  rc = pcol_diff_mark_inline(o->file ? o->file : fb, fn, &s, NULL, &o->top2.value, by, &o->diff,
                             o->diff.nrows, NULL, &err);
  if (rc) pcol_stop(NULL, &err, rc);
  static const char *const nm[] = {"name", "base_flat", "new_flat", "base_cum", "new_cum", "d_flat", "d_cum",
                                   "inline", "base_total", "new_total", "type", "unit"};
  SEXP out = PROTECT(named_list(nm, 12));
  R_xlen_t N = (R_xlen_t)o->diff.nrows;
  SEXP name = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 0, name);
  SEXP col[6];
  for (int k = 0; k < 6; k++) {
    col[k] = Rf_allocVector(REALSXP, N);
    SET_VECTOR_ELT(out, 1 + k, col[k]);
  }
  SEXP inl = Rf_allocVector(STRSXP, N);
  SET_VECTOR_ELT(out, 7, inl);
  pcolr_lost lost = {0};
  for (R_xlen_t i = 0; i < N; i++) {
    const pcol_diff_row *r = &o->diff.rows[i];
    SET_STRING_ELT(name, i, mkstr(r->name));
    REAL(col[0])[i] = pcolr_dbl(r->base_flat, &lost);
    REAL(col[1])[i] = pcolr_dbl(r->new_flat, &lost);
    REAL(col[2])[i] = pcolr_dbl(r->base_cum, &lost);
    REAL(col[3])[i] = pcolr_dbl(r->new_cum, &lost);
    REAL(col[4])[i] = abs_ ? pcolr_dbl(r->abs_flat, &lost) : r->d_flat;
    REAL(col[5])[i] = abs_ ? pcolr_dbl(r->abs_cum, &lost) : r->d_cum;
    const char *in = inline_name(r->inl);
    SET_STRING_ELT(inl, i, in ? Rf_mkChar(in) : NA_STRING);
  }
  SET_VECTOR_ELT(out, 8, Rf_ScalarReal(pcolr_dbl(o->diff.base_total, &lost)));
  set_meta(out, 9, pcolr_dbl(o->diff.new_total, &lost), &o->top2.value);
  pcolr_warn_lost(&lost, NULL, "pcol_diff");
  UNPROTECT(2);
  return out;
}

/* --------------------------------------------------------------- fold */

/* cmd_fold: pcol_fold_write (its sort, its name rule, its budget) into a
 * temporary file, read back as (stack, value) rows. */
SEXP C_q_fold(SEXP file, SEXP value, SEXP q, SEXP max_output) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file);
  pcol_select s;
  parse_query(q, &s);
  pcol_value_sel v;
  resolve(f, path, &s, value, &v);
  SEXP ox;
  owned *o = new_owned(&ox);
  double mo = Rf_asReal(max_output);
  pcol_export_options eo = {.max_output_bytes = ISNA(mo) || mo <= 0 ? 0 : (uint64_t)mo};
  if (!(o->tmp = tmpfile())) Rf_error("fold: cannot make a temporary file");
  pcol_error err = {0};
  int rc = pcol_fold_write(f, &s, &v, &eo, o->tmp, &err);
  if (rc) pcol_stop(path, &err, rc);
  if (fflush(o->tmp) || fseek(o->tmp, 0, SEEK_END)) Rf_error("fold: cannot read the temporary file");
  long sz = ftell(o->tmp);
  if (sz < 0 || (unsigned long)sz >= (size_t)-1 / 2) Rf_error("fold: cannot read the temporary file");
  rewind(o->tmp);
  if (!(o->buf = malloc((size_t)sz + 1))) Rf_error("out of memory");
  if (fread(o->buf, 1, (size_t)sz, o->tmp) != (size_t)sz) Rf_error("fold: cannot read the temporary file");
  o->buf[sz] = 0;
  size_t n = 0;
  for (long i = 0; i < sz; i++) n += o->buf[i] == '\n';
  static const char *const nm[] = {"stack", "value", "total", "type", "unit"};
  SEXP out = PROTECT(named_list(nm, 5));
  SEXP stk = Rf_allocVector(STRSXP, (R_xlen_t)n);
  SET_VECTOR_ELT(out, 0, stk);
  SEXP val = Rf_allocVector(REALSXP, (R_xlen_t)n);
  SET_VECTOR_ELT(out, 1, val);
  char *p = o->buf, *end = o->buf + sz;
  double total = 0;
  pcolr_lost lost = {0};
  for (size_t k = 0; k < n && p < end; k++) {
    char *nl = memchr(p, '\n', (size_t)(end - p)), *sp = nl;
    while (sp > p && sp[-1] != ' ') sp--; /* the value follows the line's last space */
    if (sp == p) Rf_error("fold: a line without a value");
    SET_STRING_ELT(stk, (R_xlen_t)k, pcolr_mkchar(p, (size_t)(sp - 1 - p)));
    *nl = 0;
    /* a whole number (pcol_sum_text's digits: a decimal unit's have a '.')
     * exactly, then as a double by pcolr_dbl's rule */
    const char *dg = sp + (*sp == '-');
    size_t nd = strspn(dg, "0123456789");
    if (nd && nd < 39 && !dg[nd]) {
      pcol_sum x = 0;
      for (size_t i = 0; i < nd; i++) x = x * 10 + (dg[i] - '0');
      REAL(val)[k] = pcolr_dbl(*sp == '-' ? -x : x, &lost);
    } else {
      REAL(val)[k] = strtod(sp, NULL);
    }
    total += fabs(REAL(val)[k]);
    p = nl + 1;
  }
  set_meta(out, 2, total, &v);
  pcolr_warn_lost(&lost, path, "pcol_fold");
  UNPROTECT(2);
  return out;
}

/* ------------------------------------------------------------ sources */

/* pcol_source_summaries (what `pcol info` says of each source): id, type,
 * uri, samples (rows), count (raw samples, THE count rule), period and its
 * type/unit, first/end/duration in ns; NA where the library says NA (a
 * source without a period: PCOL_NA_I64, never a number) */
static double na_real(int64_t x) { return x == PCOL_NA_I64 ? NA_REAL : (double)x; }
SEXP C_q_summaries(SEXP file) {
  pcol_file *f = file_of(file);
  SEXP ox;
  owned *o = new_owned(&ox);
  pcol_error err = {0};
  int rc = pcol_source_summaries(f, &o->sum, &o->nsum, &err);
  if (rc) pcol_stop(path_of(file), &err, rc);
  enum { NC = 11 };
  static const char *const nm[NC] = {"source_id", "type", "uri", "samples", "count", "period", "period_type",
                                     "period_unit", "first_ns", "end_ns", "duration_ns"};
  SEXP out = PROTECT(named_list(nm, NC));
  R_xlen_t N = (R_xlen_t)o->nsum;
  SEXP c[NC];
  for (int k = 0; k < NC; k++) {
    c[k] = Rf_allocVector(k == 1 || k == 2 || k == 6 || k == 7 ? STRSXP : REALSXP, N);
    SET_VECTOR_ELT(out, k, c[k]);
  }
  pcolr_lost lost = {0};
  for (R_xlen_t i = 0; i < N; i++) {
    const pcol_source_summary *x = &o->sum[i];
    REAL(c[0])[i] = x->id;
    SET_STRING_ELT(c[1], i, mkstr(x->type));
    SET_STRING_ELT(c[2], i, mkstr(x->uri));
    REAL(c[3])[i] = pcolr_dbl(x->samples, &lost);
    REAL(c[4])[i] = pcolr_dbl(x->count, &lost);
    REAL(c[5])[i] = na_real(x->period);
    SET_STRING_ELT(c[6], i, mkstr(x->period_type));
    SET_STRING_ELT(c[7], i, mkstr(x->period_unit));
    REAL(c[8])[i] = na_real(x->first_ns);
    REAL(c[9])[i] = na_real(x->end_ns);
    REAL(c[10])[i] = na_real(x->duration_ns);
  }
  pcolr_warn_lost(&lost, path_of(file), "pcol_sources");
  UNPROTECT(2);
  return out;
}

/* ------------------------------------------------------------- export */

/* The lines a note callback is given (pcol_value_lacking_notes, an
 * export's opt.note), kept in C memory while the library runs (an R
 * allocation that fails longjmps past it) and made an R character vector
 * after: each text and its NUL, one after another. */
typedef struct {
  char *buf;
  size_t len, cap, n;
  int oom;
} note_lines;
static void note_add(void *ctx, const char *text) {
  note_lines *l = ctx;
  size_t k = strlen(text) + 1;
  if (l->oom) return;
  if (l->len + k > l->cap) {
    size_t cap = l->cap ? l->cap : 256;
    while (cap < l->len + k) cap *= 2;
    char *b = realloc(l->buf, cap);
    if (!b) {
      l->oom = 1;
      return;
    }
    l->buf = b, l->cap = cap;
  }
  memcpy(l->buf + l->len, text, k);
  l->len += k;
  l->n++;
}
/* n lines at t (note_lines' layout, in R's memory) as a character vector */
static SEXP note_strings(const char *t, size_t n) {
  SEXP v = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)n));
  for (size_t i = 0, at = 0; i < n; i++) {
    size_t k = strlen(t + at);
    SET_STRING_ELT(v, (R_xlen_t)i, pcolr_mkchar(t + at, k)); /* its names as the file has them */
    at += k + 1;
  }
  UNPROTECT(1);
  return v;
}

/* pcol_export (rprof: `pcol unpack --to rprof [--value V]`) of the
 * selected samples into `out`, published atomically (pcol_out_open /
 * commit); value NULL: each source's default, else resolved as the CLI
 * resolves --value (the export refuses a value that is no time; and a
 * selection with hide, show, show_from or no_inlines: an export keeps
 * each stack whole).  Returns what pcol unpack says of it, for R to say:
 * list(note, warning, lacking, notes): of each source's default, the
 * sources' defaults differing, the library's note (pcol_value_rprof_note)
 * and whether it is a warning, else NULL and FALSE; of the value written
 * (asked for, or the default when no such note is said), the warning of
 * each selected source without it (pcol_value_lacking_notes); the export's notes (opt.note: each source's
 * tick, the time "written" of times rounded to ticks, a time 0 in every
 * sample ...), which pcol unpack prints as notes. */
SEXP C_q_export(SEXP file, SEXP format, SEXP q, SEXP out_, SEXP value) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file);
  pcol_select s;
  parse_query(q, &s);
  pcol_format fmt = pcol_format_by_name(str1(format));
  if (fmt == PCOL_FMT_UNKNOWN) Rf_error("unknown format \"%s\"", str1(format));
  pcol_export_options eo = {0};
  pcol_value_sel v;
  if (value != R_NilValue) {
    resolve_value(f, path, &s, value, &v, 1, NULL); /* (its notes: the list returned) */
    eo.value = &v;
  }
  const char *dst = R_ExpandFileName(Rf_translateChar(STRING_ELT(out_, 0)));
  pcol_out o;
  pcol_error err = {0};
  int rc = pcol_out_open(&o, dst, &err);
  if (rc) pcol_stop(dst, &err, rc);
  note_lines lacking = {0}, notes = {0};
  eo.note = note_add, eo.note_ctx = &notes;
  rc = pcol_export(f, fmt, &s, o.fp, &eo, &err);
  if (rc) {
    pcol_out_abort(&o);
    free(notes.buf);
    pcol_stop(path, &err, rc);
  }
  rc = pcol_out_commit(&o, &err);
  if (rc) {
    free(notes.buf);
    pcol_stop(dst, &err, rc);
  }
  /* (a damaged table says nothing here, as in the CLI: the export read it) */
  pcol_error e2 = {0};
  char *note = NULL;
  bool warning = false;
  if (fmt == PCOL_FMT_RPROF && value == R_NilValue &&
      pcol_value_rprof_note(f, &s, "source = N", &note, &warning, &e2))
    note = NULL;
  /* the sources whose samples the output does not hold: of the value
   * asked for, or of the default written when no note was said (pcol
   * unpack's rule, cli_warn_written: review 16 F6) */
  int say = value != R_NilValue || !note;
  if (say && value == R_NilValue && pcol_value_resolve(f, &s, NULL, &v, &e2)) say = 0;
  if (say && pcol_value_lacking_notes(f, &s, &v, note_add, &lacking, &e2)) {
    /* nothing said */
  }
  /* all of it into R's memory at once, the C copies freed, before an R
   * allocation that may fail (and longjmp) */
  size_t nn = note ? strlen(note) + 1 : 0;
  char *t = R_alloc(lacking.len + notes.len + nn + 1, 1);
  if (lacking.len) memcpy(t, lacking.buf, lacking.len);
  if (notes.len) memcpy(t + lacking.len, notes.buf, notes.len);
  if (note) memcpy(t + lacking.len + notes.len, note, nn);
  free(lacking.buf);
  free(notes.buf);
  free(note);
  static const char *const nm[] = {"note", "warning", "lacking", "notes"};
  SEXP ans = PROTECT(named_list(nm, 4));
  SET_VECTOR_ELT(ans, 2, note_strings(t, lacking.n));
  SET_VECTOR_ELT(ans, 3, note_strings(t + lacking.len, notes.n));
  if (note) SET_VECTOR_ELT(ans, 0, Rf_ScalarString(pcolr_mkchar(t + lacking.len + notes.len, nn - 1)));
  SET_VECTOR_ELT(ans, 1, Rf_ScalarLogical(warning));
  UNPROTECT(1);
  return ans;
}

/* ------------------------------------------------------------- units */

/* THE unit rule (pcol_unit_base, lib/core/unit_scale.c) for R/query.R's
 * columns: list(div, base, decimals), a sum in `unit` / div being in base
 * ("s", "B", "GCU", or the unit's own; decimals: D of a decimal unit
 * "1e-D U") */
SEXP C_unit_base(SEXP unit) {
  if (TYPEOF(unit) != STRSXP || XLENGTH(unit) != 1 || STRING_ELT(unit, 0) == NA_STRING)
    Rf_error("internal: a unit is one string");
  const char *u = Rf_translateCharUTF8(STRING_ELT(unit, 0));
  pcol_str base;
  int dec;
  double div = pcol_unit_base((pcol_str){u, strlen(u)}, &base, &dec);
  static const char *const nm[] = {"div", "base", "decimals"};
  SEXP out = PROTECT(named_list(nm, 3));
  SET_VECTOR_ELT(out, 0, Rf_ScalarReal(div));
  SET_VECTOR_ELT(out, 1, Rf_ScalarString(mkstr(base)));
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(dec));
  UNPROTECT(1);
  return out;
}
