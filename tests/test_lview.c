/* test_lview.c — the logical views of the library (pcol_lview_*,
 * lib/query/views.c): catalogue, row counts, batch boundaries, early stop.
 * What the views hold, row for row, is checked against spec.md §11 by
 * tests/conformance (through `pcol cat`) and by the bindings' tests. */
#include "testutil.h"
#include <stdio.h>

#define S tu_cstr

/* Two samples: stack a<-b<-c (depth 3, labels x=1 and y="s"), stack a<-b
 * (depth 2, no labels); values cpu 10 and 20, plus alloc 5 on the first. */
static pcol_file *small(void **mem) {
  pcol_builder *b;
  uint32_t src, fn[3], loc[3], st1, st2, vt_cpu, vt_alloc, ls;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "pprof", "t", PCOL_NA_I64, &src, NULL), 0);
  const char *names[] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++) {
    pcol_function_row r = {S(b, names[i]), 0, S(b, "f.c"), PCOL_NA_I64};
    cr_assert_eq(pcol_b_function(b, &r, &fn[i], NULL), 0);
    pcol_line_row l = {fn[i], 10 + i, PCOL_NA_I64};
    cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &loc[i], NULL), 0);
  }
  uint32_t s1[] = {loc[2], loc[1], loc[0]}, s2[] = {loc[1], loc[0]};
  cr_assert_eq(pcol_b_stack(b, s1, 3, &st1, NULL), 0);
  cr_assert_eq(pcol_b_stack(b, s2, 2, &st2, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "nanoseconds"), &vt_cpu, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "alloc"), S(b, "bytes"), &vt_alloc, NULL), 0);
  pcol_label_row labs[] = {{S(b, "x"), 0, 1, 0}, {S(b, "y"), S(b, "s"), 0, 0}};
  cr_assert_eq(pcol_b_labelset(b, labs, 2, &ls, NULL), 0);
  pcol_value_row v1[] = {{vt_cpu, 10}, {vt_alloc, 5}}, v2[] = {{vt_cpu, 20}};
  pcol_sample_row r1 = {src, 0, 0, 1, PCOL_NA_I64, st1, ls}, r2 = {src, 1000, 0, 1, PCOL_NA_I64, st2, 0};
  cr_assert_eq(pcol_b_sample(b, &r1, v1, 2, NULL, NULL), 0);
  cr_assert_eq(pcol_b_sample(b, &r2, v2, 1, NULL, NULL), 0);
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}

typedef struct collect {
  const pcol_lview_batch *b;
  uint32_t out[3][64]; /* the first three u32 columns, concatenated */
  size_t n, calls, started;
  int ret; /* what the callback returns */
} collect;

static int on_batch(void *ctx, size_t n) {
  collect *c = ctx;
  if (n == 0) { /* the start: once, first */
    cr_assert_eq(c->calls, 0);
    c->started++;
    return 0;
  }
  cr_assert_eq(c->started, 1);
  c->calls++;
  cr_assert(n <= c->b->cap);
  for (size_t i = 0; i < n && c->n + i < 64; i++)
    for (int k = 0; k < 3; k++)
      if (c->b->cols[k]) c->out[k][c->n + i] = ((const uint32_t *)c->b->cols[k])[i];
  c->n += n;
  return c->ret;
}

Test(lview, catalogue) {
  int n = 0;
  while (pcol_lview_at(n)) {
    const pcol_lview_info *v = pcol_lview_at(n);
    cr_assert_eq(v->index, n);
    cr_assert_eq(pcol_lview_by_name(v->name), v);
    cr_assert(v->ncols >= 2 && v->ncols <= PCOL_LVIEW_MAX_COLS);
    n++;
  }
  cr_assert_eq(n, PCOL_LVIEW_COUNT);
  cr_assert_null(pcol_lview_by_name("labelsets"));
  cr_assert_null(pcol_lview_at(-1));
}

/* Any batch size gives the same rows; the row count is what the scan gives. */
Test(lview, batches_and_counts) {
  void *mem;
  pcol_file *f = small(&mem);
  pcol_error err = {0};
  const uint32_t want_sid[] = {1, 1, 1, 2, 2}, want_dep[] = {1, 2, 3, 1, 2};
  for (size_t cap = 1; cap <= 6; cap++) {
    uint64_t buf[PCOL_LVIEW_MAX_COLS][6];
    pcol_lview_batch b = {{0}, cap};
    for (int k = 0; k < 3; k++) b.cols[k] = buf[k];
    collect c = {.b = &b};
    const pcol_lview_info *v = pcol_lview_by_name("sample_locations");
    cr_assert_eq(pcol_lview_scan(f, v, NULL, &b, on_batch, &c, &err), 0, "%s", err.message);
    cr_assert_eq(c.n, 5);
    cr_assert_eq(c.calls, (5 + cap - 1) / cap);
    for (int i = 0; i < 5; i++) {
      cr_assert_eq(c.out[0][i], want_sid[i]);
      cr_assert_eq(c.out[1][i], want_dep[i]);
    }
    /* innermost first: c, b, a then b, a */
    cr_assert_eq(c.out[2][0], c.out[2][3] + 1);
  }
  /* every view, every column wanted: rows == pcol_lview_rows */
  for (int i = 0; pcol_lview_at(i); i++) {
    const pcol_lview_info *v = pcol_lview_at(i);
    uint64_t buf[PCOL_LVIEW_MAX_COLS][4], n;
    pcol_lview_batch b = {{0}, 4};
    for (size_t k = 0; k < v->ncols; k++) b.cols[k] = buf[k];
    collect c = {.b = &b};
    cr_assert_eq(pcol_lview_rows(f, v, NULL, &n, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_lview_scan(f, v, NULL, &b, on_batch, &c, &err), 0, "%s: %s", v->name, err.message);
    cr_assert_eq(c.n, n, "%s: %zu rows scanned, %llu counted", v->name, c.n, (unsigned long long)n);
  }
  uint64_t n;
  cr_assert_eq(pcol_lview_rows(f, pcol_lview_by_name("sample_values"), NULL, &n, &err), 0);
  cr_assert_eq(n, 3);
  cr_assert_eq(pcol_lview_rows(f, pcol_lview_by_name("sample_labels"), NULL, &n, &err), 0);
  cr_assert_eq(n, 2);
  /* a selection: the second sample only (time 1000 ns on) */
  pcol_select sel = {0};
  sel.has_from = 1;
  sel.from_ns = 500;
  cr_assert_eq(pcol_lview_rows(f, pcol_lview_by_name("sample_locations"), &sel, &n, &err), 0, "%s",
               err.message);
  cr_assert_eq(n, 2);
  cr_assert_eq(pcol_lview_rows(f, pcol_lview_by_name("sample_labels"), &sel, &n, &err), 0);
  cr_assert_eq(n, 0);
  pcol_close(f);
  free(mem);
}

/* The callback rule: > 0 stops with PCOL_OK, < 0 is returned; bad batches
 * are refused. */
Test(lview, stop_and_errors) {
  void *mem;
  pcol_file *f = small(&mem);
  pcol_error err = {0};
  const pcol_lview_info *v = pcol_lview_by_name("sample_locations");
  uint32_t sid[2];
  pcol_lview_batch b = {{sid}, 2};
  collect c = {.b = &b, .ret = 1};
  cr_assert_eq(pcol_lview_scan(f, v, NULL, &b, on_batch, &c, &err), 0);
  cr_assert_eq(c.calls, 1);
  c = (collect){.b = &b, .ret = PCOL_EIO};
  cr_assert_eq(pcol_lview_scan(f, v, NULL, &b, on_batch, &c, &err), PCOL_EIO);
  cr_assert_eq(c.calls, 1);
  pcol_select sel = {0}; /* through pcol_select_iter as well */
  c = (collect){.b = &b, .ret = PCOL_EIO};
  cr_assert_eq(pcol_lview_scan(f, v, &sel, &b, on_batch, &c, &err), PCOL_EIO);
  b.cap = 0;
  cr_assert_eq(pcol_lview_scan(f, v, NULL, &b, on_batch, &c, &err), PCOL_EINVAL);
  pcol_close(f);
  free(mem);
}
