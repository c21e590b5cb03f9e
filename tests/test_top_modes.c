/* test_top_modes.c — pcol_top_compute's two kernels (top.c: sums mode, a
 * subtree sum a stack node; walk mode, one walk with running totals over a
 * list of the samples' own weights) give the same result on every pprof,
 * Rprof, Perun and collapsed file of the test data: rows (names, flat, cum,
 * "(inline)" marks), order, total and dropped rows, under every
 * granularity, the default value and "samples", the filters, --no-inlines
 * and a time range; the marks of a cut result (pcol_top_mark_inline, as
 * `pcol top` makes them) and peek's edges (which read the subtree sums walk
 * mode makes afterwards) too.  The mode is chosen by PCOL_DEBUG (top.c
 * top_run), so both run in one process; by line and source line, so is
 * whether the line keys are found by place or hashed (line-hash).  In each mode,
 * pcol_top_compute_shown (marks made once, for the rows shown) must give
 * the rows and marks of pcol_top_compute_cut + pcol_top_mark_inline, and of
 * pcol_top_compute_cut alone when nothing is dropped and every row is
 * shown (the marks of every key).  Whether either is right is judged
 * elsewhere: t_go_pprof against go tool pprof, test_views against
 * summaryRprof. */
#include "testutil.h"
#include "../lib/query/query.h" /* pcol_q_top_regroup */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tops {
  pcol_top t;
  size_t dropped;
  int rc;
  pcol_top full; /* uncut, for peek */
  pcol_peek pk;
  int prc;
} tops;

static int same_rows(const pcol_top *a, const pcol_top *b, size_t marked, const char *what);

/* pcol_top_compute_shown(fraction, shown) against want's rows */
static void check_shown(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                        pcol_by by, double fraction, size_t shown, int want_rc,
                        const pcol_top *want, size_t want_dropped, const char *mode) {
  pcol_error err = {0};
  pcol_top t;
  size_t dropped = 0;
  int rc = pcol_top_compute_shown(f, sel, v, by, fraction, PCOL_SORT_FLAT, shown, &t, &dropped,
                                  NULL, &err);
  char what[200];
  snprintf(what, sizeof what, "%s: shown %zu fraction %g by %d", mode, shown, fraction, (int)by);
  cr_expect_eq(rc, want_rc, "%s: rc %d, want %d (%s)", what, rc, want_rc, err.message);
  if (rc || want_rc) return;
  cr_expect_eq(dropped, want_dropped, "%s: dropped", what);
  cr_expect(same_rows(want, &t, shown, what), "%s", what); /* (rows past shown: no marks) */
  pcol_top_free(&t);
}

static void run(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                const char *mode, int peek, tops *o) {
  setenv("PCOL_DEBUG", mode, 1);
  pcol_error err = {0};
  memset(o, 0, sizeof *o);
  pcol_sum cutoff; /* (o->prc: pcol_top_compute's code, -1 when only peek failed) */
  o->rc = pcol_top_compute_cut(f, sel, v, by, 0.005, PCOL_SORT_FLAT, &o->t, &o->dropped, &cutoff,
                               &err);
  if (!o->rc) { /* as cmd_top did: the marks of the rows shown, when some are not */
    size_t all = o->t.nrows, n = all > 12 ? 12 : all;
    o->t.nrows = n;
    if (o->dropped || n < all) o->rc = pcol_top_mark_inline(&o->t, &err);
    o->t.nrows = all;
  }
  check_shown(f, sel, v, by, 0.005, 12, o->rc, &o->t, o->dropped, mode);
  pcol_top every; /* nothing dropped, every row shown: the marks of every key */
  size_t d0 = 0;
  int rc0 = pcol_top_compute_cut(f, sel, v, by, 0, PCOL_SORT_FLAT, &every, &d0, NULL, &err);
  check_shown(f, sel, v, by, 0, SIZE_MAX, rc0, &every, d0, mode);
  if (!rc0) pcol_top_free(&every);
  o->prc = peek ? pcol_top_compute(f, sel, v, by, &o->full, &err) : -1;
  if (!o->prc && pcol_peek_compute(&o->full, ".", &o->pk, &err)) o->prc = -1;
  unsetenv("PCOL_DEBUG");
}

static int str_eq(pcol_str a, pcol_str b) {
  return a.len == b.len && (!a.len || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* a's rows in b, their marks up to row `marked` */
static int same_rows(const pcol_top *a, const pcol_top *b, size_t marked, const char *what) {
  if (a->total != b->total || a->nrows != b->nrows) {
    cr_log_error("%s: total/rows differ (%zu vs %zu rows)", what, a->nrows, b->nrows);
    return 0;
  }
  for (size_t i = 0; i < a->nrows; i++) {
    const pcol_top_row *x = &a->rows[i], *y = &b->rows[i];
    if (!str_eq(x->name, y->name) || x->flat != y->flat || x->cum != y->cum ||
        (i < marked && x->inl != y->inl)) {
      cr_log_error("%s: row %zu differs (%.*s)", what, i, (int)x->name.len, x->name.ptr);
      return 0;
    }
  }
  return 1;
}

static int same(const tops *a, const tops *b, const char *what) {
  if (a->rc != b->rc) {
    cr_log_error("%s: rc %d vs %d", what, a->rc, b->rc);
    return 0;
  }
  if (a->rc) return 1;
  if (a->t.total != b->t.total || a->t.nrows != b->t.nrows || a->dropped != b->dropped) {
    cr_log_error("%s: total/rows/dropped differ (%zu vs %zu rows)", what, a->t.nrows,
                 b->t.nrows);
    return 0;
  }
  for (size_t i = 0; i < a->t.nrows; i++) {
    const pcol_top_row *x = &a->t.rows[i], *y = &b->t.rows[i];
    if (!str_eq(x->name, y->name) || x->flat != y->flat || x->cum != y->cum || x->inl != y->inl) {
      cr_log_error("%s: row %zu differs (%.*s)", what, i, (int)x->name.len, x->name.ptr);
      return 0;
    }
  }
  if (a->prc != b->prc || (!a->prc && a->pk.nnodes != b->pk.nnodes)) {
    cr_log_error("%s: peek differs", what);
    return 0;
  }
  for (size_t i = 0; !a->prc && i < a->pk.nnodes; i++) {
    const pcol_peek_node *x = &a->pk.nodes[i], *y = &b->pk.nodes[i];
    int ok = str_eq(x->row->name, y->row->name) && x->nin == y->nin && x->nout == y->nout;
    for (size_t j = 0; ok && j < x->nin + x->nout; j++) {
      const pcol_peek_edge *p = j < x->nin ? &x->in[j] : &x->out[j - x->nin];
      const pcol_peek_edge *q = j < x->nin ? &y->in[j] : &y->out[j - x->nin];
      ok = str_eq(p->caller, q->caller) && str_eq(p->callee, q->callee) && p->value == q->value &&
           p->inl == q->inl;
    }
    if (!ok) {
      cr_log_error("%s: peek node %zu differs", what, i);
      return 0;
    }
  }
  return 1;
}

static void tops_free(tops *o) {
  if (!o->rc) pcol_top_free(&o->t);
  if (!o->prc) pcol_peek_free(&o->pk);
  pcol_top_free(&o->full); /* (zeroed when it failed) */
}

/* pcol_q_top_regroup (list --by file: a result's node sums read again
 * by another granularity) gives pcol_top_compute's rows, in each mode
 * (walk mode makes its sums afterwards); the number compared. */
static int compare_regroup(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                           const pcol_by *bys, size_t nby, const char *name, size_t s) {
  int n = 0;
  for (int m = 0; m < 2; m++) {
    setenv("PCOL_DEBUG", m ? "top-walk" : "top-sums", 1);
    pcol_top base, want, got;
    pcol_error err = {0};
    if (pcol_q_top_unnamed(f, sel, v, PCOL_BY_SOURCE_LINE, &base, &err)) continue;
    for (size_t b = 0; b < nby; b++) {
      int wrc = pcol_top_compute(f, sel, v, bys[b], &want, &err);
      int grc = pcol_q_top_regroup(&base, f, sel, bys[b], &got, &err);
      char what[1300];
      snprintf(what, sizeof what, "%s select %zu by %d mode %d: regroup", name, s, (int)bys[b], m);
      cr_expect_eq(grc, wrc, "%s: rc %d, want %d", what, grc, wrc);
      if (!wrc && !grc) {
        cr_expect(same_rows(&want, &got, 0, what), "%s", what);
        n++;
      }
      if (!wrc) pcol_top_free(&want);
      if (!grc) pcol_top_free(&got);
    }
    pcol_top_free(&base);
  }
  unsetenv("PCOL_DEBUG");
  return n;
}

/* Every view of f compared between the modes; the number compared. */
static int compare_file(pcol_file *f, const char *name) {
  static const pcol_by bys[] = {PCOL_BY_FUNCTION, PCOL_BY_LINE, PCOL_BY_FILE, PCOL_BY_ADDRESS,
                                PCOL_BY_SOURCE_LINE};
  pcol_select sels[7] = {{0}};
  sels[1].focus = "a";  /* some frames match, some do not */
  sels[2].ignore = "e";
  sels[3].hide = "[0-9]";
  sels[4].show = "[a-m]";
  sels[5].no_inlines = 1;
  sels[6].has_to = 1;
  sels[6].to_ns = 1000000000; /* the first second, where samples have times */
  int n = 0;
  for (int vi = 0; vi < 2; vi++) {
    pcol_value_sel v;
    pcol_error err = {0};
    if (pcol_value_resolve(f, NULL, vi ? "samples" : NULL, &v, &err)) continue;
    for (size_t s = 0; s < sizeof sels / sizeof sels[0]; s++)
      for (size_t b = 0; b < sizeof bys / sizeof bys[0]; b++) {
        if (s && b) continue; /* the filters by function */
        tops x, y;
        int peek = !s && b < 2; /* peek by function and line */
        run(f, &sels[s], &v, bys[b], "top-sums", peek, &x);
        run(f, &sels[s], &v, bys[b], "top-walk", peek, &y);
        char what[1300];
        snprintf(what, sizeof what, "%s value %d select %zu by %d", name, vi, s, (int)bys[b]);
        cr_expect(same(&x, &y, what), "%s", what);
        n += !x.rc;
        if (bys[b] == PCOL_BY_LINE || bys[b] == PCOL_BY_SOURCE_LINE) {
          tops z; /* line keys hashed, not found by place (top.c dense_make) */
          run(f, &sels[s], &v, bys[b], "top-sums line-hash", peek, &z);
          cr_expect(same(&x, &z, what), "%s: line-hash", what);
          n += !z.rc;
          tops_free(&z);
        }
        tops_free(&x);
        tops_free(&y);
      }
    for (size_t s = 0; s < sizeof sels / sizeof sels[0]; s++)
      n += compare_regroup(f, &sels[s], &v, bys, sizeof bys / sizeof bys[0], name, s);
  }
  return n;
}

Test(top_modes, every_file_of_the_test_data) {
  SKIP_WITHOUT_TESTDATA();
  static const char *const dirs[] = {"pprof",         "pprof-from-r", "rprof",
                                     "perun",         "ext/pprof",    "ext/rprof",
                                     "ext/collapsed", "ext/legacy",   "ext/legacy-proto",
                                     "ext/perun"};
  int files = 0, views = 0;
  for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", testdata_dir(), dirs[d]);
    DIR *dp = opendir(dir);
    if (!dp) continue;
    struct dirent *e;
    while ((e = readdir(dp))) {
      if (e->d_name[0] == '.' || strstr(e->d_name, ".md") || !strcmp(e->d_name, "expected-go1.19-pprof"))
        continue;
      char path[1100];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      pcol_file *f;
      pcol_error err = {0};
      if (pcol_open_any(path, NULL, &f, &err)) continue; /* not a profile pcol reads */
      files++;
      views += compare_file(f, path);
      pcol_close(f);
    }
    closedir(dp);
  }
  cr_log_info("%d files, %d views compared", files, views);
  cr_expect_gt(files, 80);
  cr_expect_gt(views, 1000);
}
