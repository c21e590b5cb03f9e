/* test_views.c — flat/cum aggregation, value choice, time ranges, frame
 * trees and collapsed stacks, coalescing (long samples). */
#include "testutil.h"
#include <math.h>
#include <stdio.h>

/* ------------------------------------------------------------ helpers */
#define S tu_cstr
static uint32_t FN(pcol_builder *b, const char *name, const char *file) {
  pcol_function_row r = {S(b, name), 0, S(b, file), PCOL_NA_I64};
  uint32_t id;
  cr_assert_eq(pcol_b_function(b, &r, &id, NULL), 0);
  return id;
}
static uint32_t LOC(pcol_builder *b, uint32_t fn, int64_t line) {
  pcol_line_row l = {fn, line, PCOL_NA_I64};
  uint32_t id;
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &id, NULL), 0);
  return id;
}
/* stack from locations given leaf first, terminated by 0 */
static uint32_t STK(pcol_builder *b, ...) {
  uint32_t locs[64];
  size_t n = 0;
  va_list ap;
  va_start(ap, b);
  for (uint32_t l; (l = va_arg(ap, uint32_t)) != 0;) locs[n++] = l;
  va_end(ap);
  uint32_t id;
  cr_assert_eq(pcol_b_stack(b, locs, n, &id, NULL), 0);
  return id;
}
static void SAMPLE(pcol_builder *b, uint32_t src, int64_t t, int64_t dur, int64_t w,
                   uint32_t stack, const pcol_value_row *v, size_t nv) {
  pcol_sample_row s = {src, t, dur, w, PCOL_NA_I64, stack, 0};
  cr_assert_eq(pcol_b_sample(b, &s, v, nv, NULL, NULL), 0);
}
static pcol_builder *NEWB(uint32_t *src, const char *type) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  cr_assert_eq(pcol_b_source(b, type, "test", PCOL_NA_I64, src, NULL), 0);
  return b;
}
static const pcol_top_row *ROW(const pcol_top *t, const char *name) {
  for (size_t i = 0; i < t->nrows; i++)
    if (t->rows[i].name.len == strlen(name) && !memcmp(t->rows[i].name.ptr, name, strlen(name)))
      return &t->rows[i];
  return NULL;
}
static void TOP(pcol_file *f, const pcol_select *sel, const char *value, pcol_by by, pcol_top *t) {
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, sel, value, &v, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_top_compute(f, sel, &v, by, t, &err), 0, "%s", err.message);
}
static void EXPECT(const pcol_top *t, const char *name, int64_t flat, int64_t cum) {
  const pcol_top_row *r = ROW(t, name);
  cr_assert(r != NULL, "no row '%s'", name);
  cr_expect_eq(r->flat, flat, "%s flat %lld, want %lld", name, (long long)r->flat, (long long)flat);
  cr_expect_eq(r->cum, cum, "%s cum %lld, want %lld", name, (long long)r->cum, (long long)cum);
}
static char *FOLD(pcol_file *f, const pcol_select *sel, const char *value) {
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, sel, value, &v, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_fold_write(f, sel, &v, NULL, fp, &err), 0, "%s", err.message);
  fclose(fp);
  return buf;
}

/* ------------------------------------------------------------ top */
/* 3 x main>f>f>g (recursion), 1 x main>f, 2 x main>h; one file a.R, lines 1..4 */
static pcol_file *RECURSION(pcol_builder **bp, void **mem) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "test");
  uint32_t m = LOC(b, FN(b, "main", "a.R"), 1), f = LOC(b, FN(b, "f", "a.R"), 2),
           g = LOC(b, FN(b, "g", "a.R"), 3), h = LOC(b, FN(b, "h", "a.R"), 4);
  uint32_t s1 = STK(b, g, f, f, m, 0), s2 = STK(b, f, m, 0), s3 = STK(b, h, m, 0);
  for (int i = 0; i < 3; i++) SAMPLE(b, src, i, 0, 1, s1, NULL, 0);
  SAMPLE(b, src, 3, 0, 1, s2, NULL, 0);
  SAMPLE(b, src, 4, 0, 1, s3, NULL, 0);
  SAMPLE(b, src, 5, 0, 1, s3, NULL, 0);
  *bp = b;
  return tu_reopen(b, NULL, mem);
}

Test(top, recursion_counts_once_in_cum) {
  pcol_builder *b;
  void *mem;
  pcol_file *fl = RECURSION(&b, &mem);
  pcol_top t;
  TOP(fl, NULL, NULL, PCOL_BY_FUNCTION, &t);
  cr_assert_eq(t.total, 6);
  cr_assert_eq(t.nrows, 4);
  EXPECT(&t, "g", 3, 3);
  EXPECT(&t, "h", 2, 2);
  EXPECT(&t, "f", 1, 4); /* not 7: f recurses in three samples */
  EXPECT(&t, "main", 0, 6);
  /* sorted by flat, then name */
  cr_expect(!memcmp(t.rows[0].name.ptr, "g", 1) && !memcmp(t.rows[1].name.ptr, "h", 1) &&
            !memcmp(t.rows[2].name.ptr, "f", 1) && !memcmp(t.rows[3].name.ptr, "main", 4));
  pcol_top_free(&t);
  /* by line (pprof -lines names): f's line 2 appears twice in s1, counted once */
  TOP(fl, NULL, NULL, PCOL_BY_LINE, &t);
  EXPECT(&t, "f a.R:2", 1, 4);
  EXPECT(&t, "main a.R:1", 0, 6);
  pcol_top_free(&t);
  TOP(fl, NULL, NULL, PCOL_BY_FILE, &t);
  cr_expect_eq(t.nrows, 1);
  EXPECT(&t, "a.R", 6, 6);
  pcol_top_free(&t);
  pcol_close(fl);
  free(mem);
  pcol_builder_free(b);
}

/* Node sums are 64-bit when the sum of |weights| fits (pcol_q_nsum) and
 * 128-bit otherwise: both give exact flat and cum, at and past the edge. */
static void big_weights(int64_t w1, int64_t w2, int64_t w3, pcol_sum want_main) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "test");
  uint32_t m = LOC(b, FN(b, "main", "a.R"), 1), f = LOC(b, FN(b, "f", "a.R"), 2),
           g = LOC(b, FN(b, "g", "a.R"), 3);
  uint32_t sf = STK(b, f, m, 0), sg = STK(b, g, m, 0), sm = STK(b, m, 0);
  SAMPLE(b, src, 0, 0, w1, sf, NULL, 0);
  SAMPLE(b, src, 1, 0, w2, sg, NULL, 0);
  SAMPLE(b, src, 2, 0, w3, sm, NULL, 0);
  void *mem;
  pcol_file *fl = tu_reopen(b, NULL, &mem);
  pcol_top t;
  TOP(fl, NULL, NULL, PCOL_BY_FUNCTION, &t);
  const pcol_top_row *r = ROW(&t, "main");
  cr_assert(r != NULL);
  cr_assert(r->cum == want_main, "main's cum is exact (w %lld %lld %lld)", (long long)w1,
            (long long)w2, (long long)w3);
  cr_assert(r->flat == w3);
  cr_assert(ROW(&t, "f")->cum == w1 && ROW(&t, "g")->cum == w2);
  pcol_sum abs = (pcol_sum)(w1 < 0 ? -(pcol_sum)w1 : w1) + (w2 < 0 ? -(pcol_sum)w2 : w2) +
                 (w3 < 0 ? -(pcol_sum)w3 : w3);
  cr_assert(t.total == abs);
  pcol_top_free(&t);
  pcol_close(fl);
  free(mem);
  pcol_builder_free(b);
}

Test(top, sums_past_64_bits_stay_exact) {
  /* sum of |w| exactly INT64_MAX: 64-bit cells */
  big_weights(INT64_MAX - 30, -20, 10, (pcol_sum)INT64_MAX - 40);
  /* one more: the 128-bit path, with a cum of 2^64 - 2 */
  big_weights(INT64_MAX, INT64_MAX, 0, 2 * (pcol_sum)INT64_MAX);
  big_weights(INT64_MIN + 1, INT64_MIN + 1, -1, 2 * (pcol_sum)(INT64_MIN + 1) - 1);
  /* |w| fits but the partial sums alternate in sign: still 64-bit, exact */
  big_weights(INT64_MAX / 2, -(INT64_MAX / 2), 1, 1);
}

Test(top, inline_frames_and_fold) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "pprof");
  uint32_t fm = FN(b, "main", "m.go"), fo = FN(b, "outer", "m.go"), fi = FN(b, "inl", "m.go");
  pcol_line_row lines[2] = {{fi, 10, PCOL_NA_I64}, {fo, 20, PCOL_NA_I64}}; /* innermost first */
  uint32_t l1, lm = LOC(b, fm, 5);
  cr_assert_eq(pcol_b_location(b, 0, 0x1000, 0, lines, 2, &l1, NULL), 0);
  uint32_t s = STK(b, l1, lm, 0), s2 = STK(b, lm, 0);
  SAMPLE(b, src, 0, 0, 1, s, NULL, 0);
  SAMPLE(b, src, 1, 0, 1, s, NULL, 0);
  SAMPLE(b, src, 2, 0, 1, s2, NULL, 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_top t;
  TOP(f, NULL, "samples", PCOL_BY_FUNCTION, &t);
  EXPECT(&t, "inl", 2, 2);
  EXPECT(&t, "outer", 0, 2);
  EXPECT(&t, "main", 1, 3);
  pcol_top_free(&t);
  TOP(f, NULL, "samples", PCOL_BY_LINE, &t);
  EXPECT(&t, "inl m.go:10", 2, 2);
  EXPECT(&t, "outer m.go:20", 0, 2);
  pcol_top_free(&t);
  char *fold = FOLD(f, NULL, NULL);
  cr_expect_str_eq(fold, "main 1\nmain;outer;inl 2\n");
  free(fold);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(top, na_function_names_and_no_location) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "rprof");
  uint32_t busy = LOC(b, FN(b, "busy", "dir/x.R"), 1);
  pcol_function_row nr = {0, 0, S(b, "dir/x.R"), PCOL_NA_I64}; /* a top-level ref */
  uint32_t fna;
  cr_assert_eq(pcol_b_function(b, &nr, &fna, NULL), 0);
  uint32_t top5 = LOC(b, fna, 5);
  uint32_t nofile = LOC(b, 0, PCOL_NA_I64);
  uint32_t s1 = STK(b, busy, top5, 0), s2 = STK(b, top5, 0), s3 = STK(b, nofile, 0);
  SAMPLE(b, src, 0, 0, 1, s1, NULL, 0);
  SAMPLE(b, src, 1, 0, 1, s2, NULL, 0);
  SAMPLE(b, src, 2, 0, 1, s3, NULL, 0);
  SAMPLE(b, src, 3, 0, 1, 0, NULL, 0); /* empty stack: in the total only */
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_top t;
  TOP(f, NULL, NULL, PCOL_BY_FUNCTION, &t);
  cr_expect_eq(t.total, 4);
  cr_expect_eq(t.nrows, 3);
  EXPECT(&t, "busy", 1, 1);
  EXPECT(&t, "<no location>", 1, 1); /* only the NA-named frame */
  EXPECT(&t, "<unknown>", 1, 1);     /* a line without function: pprof's unsymbolized */
  pcol_top_free(&t);
  TOP(f, NULL, NULL, PCOL_BY_LINE, &t);
  EXPECT(&t, "busy dir/x.R:1", 1, 1);
  EXPECT(&t, "dir/x.R:5", 1, 2); /* a top-level ref: no function */
  EXPECT(&t, "<no location>", 1, 1);
  pcol_top_free(&t);
  char *fold = FOLD(f, NULL, NULL);
  /* the empty stack is the line " 1", so the lines add up to the total */
  cr_expect_str_eq(fold, " 1\n[unknown] 1\ndir/x.R:5 1\ndir/x.R:5;busy 1\n");
  free(fold);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(top, same_name_functions_merge) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "rprof");
  uint32_t fa = LOC(b, FN(b, "f", "a.R"), 1), fb = LOC(b, FN(b, "f", "b.R"), 1),
           m = LOC(b, FN(b, "main", "a.R"), 9);
  SAMPLE(b, src, 0, 0, 1, STK(b, fa, fb, m, 0), NULL, 0);
  SAMPLE(b, src, 1, 0, 1, STK(b, fb, m, 0), NULL, 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_top t;
  TOP(f, NULL, NULL, PCOL_BY_FUNCTION, &t);
  cr_expect_eq(t.nrows, 2);
  EXPECT(&t, "f", 2, 2);
  pcol_top_free(&t);
  TOP(f, NULL, NULL, PCOL_BY_FILE, &t);
  EXPECT(&t, "a.R", 1, 2);
  EXPECT(&t, "b.R", 1, 2);
  pcol_top_free(&t);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* ------------------------------------------------------- value types */
/* two pprof sources of one list of value types, cpu and alloc; the second
 * names cpu its default (go's merge then takes it) */
static pcol_builder *two_pprof(uint32_t *s1, uint32_t *s2, uint32_t *cpu, uint32_t *alloc) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "pprof", "one", PCOL_NA_I64, s1, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "pprof", "two", PCOL_NA_I64, s2, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "nanoseconds"), cpu, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "alloc"), S(b, "bytes"), alloc, NULL), 0);
  for (uint32_t s = *s1; s <= *s2; s++) {
    cr_assert_eq(pcol_b_source_value_type(b, s, *cpu, NULL), 0);
    cr_assert_eq(pcol_b_source_value_type(b, s, *alloc, NULL), 0);
  }
  cr_assert_eq(pcol_b_meta_str(b, *s2, "pprof.default_sample_type", "cpu", NULL), 0);
  return b;
}

/* go's merge rule asks one period type too (rd10: a profile of another
 * period type decided the default, where go's merge refuses the pair) */
Test(values, merge_rule_needs_one_period_type) {
  uint32_t s1, s2, cpu, alloc;
  pcol_builder *b = two_pprof(&s1, &s2, &cpu, &alloc);
  cr_assert_eq(pcol_b_meta_str(b, s1, "pprof.period_type.type", "space", NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, s2, "pprof.period_type.type", "other", NULL), 0);
  uint32_t st = STK(b, LOC(b, FN(b, "main", "m.go"), 1), 0);
  pcol_value_row v[2] = {{cpu, 1}, {alloc, 2}};
  SAMPLE(b, s1, 0, 0, 1, st, v, 2);
  SAMPLE(b, s2, 0, 0, 1, st, v, 2);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_error err = {0};
  pcol_value_sel vs;
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &vs, &err), 0);
  cr_expect_eq(vs.vt_id, 0); /* samples, warned: not go's merge */
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(values, default_and_named_types) {
  uint32_t s1, s2, cpu, alloc;
  pcol_builder *b = two_pprof(&s1, &s2, &cpu, &alloc);
  uint32_t m = LOC(b, FN(b, "main", "m.go"), 1), w = LOC(b, FN(b, "work", "m.go"), 2);
  uint32_t st = STK(b, w, m, 0);
  pcol_value_row v1[2] = {{cpu, 100}, {alloc, -40}}; /* negative: see the total below */
  pcol_value_row v2[2] = {{cpu, 7}, {alloc, 64}};
  SAMPLE(b, s1, 0, 0, 1, st, v1, 2);
  SAMPLE(b, s2, 0, 0, 3, st, v2, 2);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_error err = {0};
  pcol_value_sel v;
  /* source 1: pprof's rule, the last type; source 2: its default_sample_type */
  pcol_select one = {.source_id = 1}, two = {.source_id = 2};
  cr_assert_eq(pcol_value_resolve(f, &one, NULL, &v, &err), 0);
  cr_expect_eq(v.vt_id, alloc);
  cr_assert_eq(pcol_value_resolve(f, &two, NULL, &v, &err), 0);
  cr_expect_eq(v.vt_id, cpu);
  /* both sources: their own defaults disagree, but they have one list of
   * value types and source 2 names cpu: go's merge takes the first named
   * (review 17 F6; it was samples) */
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, &err), 0);
  cr_expect_eq(v.vt_id, cpu);
  cr_expect_eq(pcol_value_resolve(f, NULL, "nope", &v, &err), PCOL_ENOTFOUND);
  cr_expect(strstr(err.message, "cpu/nanoseconds") != NULL, "%s", err.message);
  pcol_top t;
  TOP(f, NULL, "alloc/bytes", PCOL_BY_FUNCTION, &t);
  /* pprof merges the samples of one stack and label set before it adds
   * up |values|: |-40 + 64|, not 40 + 64 */
  cr_expect_eq(t.total, 24);
  EXPECT(&t, "work", 24, 24);
  pcol_top_free(&t);
  /* pprof sources without samples/count, a value below 0 and no base mark:
   * a difference (go's -proto -base), whose rows are no raw samples: no
   * count (spec.md §6.11; it counted 4, the rows), as go refuses
   * -sample_index=samples */
  cr_expect_eq(pcol_value_resolve(f, NULL, "samples", &v, &err), PCOL_ENOTFOUND);
  cr_expect(strstr(err.message, "source 1") && strstr(err.message, "negative values"), "%s", err.message);
  TOP(f, &two, "cpu", PCOL_BY_FUNCTION, &t);
  EXPECT(&t, "work", 7, 7);
  pcol_top_free(&t);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* one pprof source of the value types named in types (each "TYPE/UNIT"),
 * a sample of value 10 x (k + 1) in the k-th, naming dflt (NULL: none)
 * its default_sample_type */
static pcol_file *one_pprof(const char *const *types, int n, const char *dflt, void **mem) {
  pcol_builder *b;
  uint32_t s, vt[4];
  pcol_value_row v[4];
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "pprof", "p", PCOL_NA_I64, &s, NULL), 0);
  for (int k = 0; k < n; k++) {
    char t[32];
    snprintf(t, sizeof t, "%s", types[k]);
    char *u = strchr(t, '/');
    *u++ = 0;
    cr_assert_eq(pcol_b_value_type(b, S(b, t), S(b, u), &vt[k], NULL), 0);
    cr_assert_eq(pcol_b_source_value_type(b, s, vt[k], NULL), 0);
    v[k] = (pcol_value_row){vt[k], 10 * (k + 1)};
  }
  if (dflt) cr_assert_eq(pcol_b_meta_str(b, s, "pprof.default_sample_type", dflt, NULL), 0);
  SAMPLE(b, s, 0, 0, 1, STK(b, LOC(b, FN(b, "main", "m.go"), 1), 0), v, (size_t)n);
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}

static int str_is(pcol_str s, const char *c) {
  return s.ptr && s.len == strlen(c) && !memcmp(s.ptr, c, s.len);
}

/* pcol_value_diff_default: the default the new profile names, else the
 * base's, where the other side has it, as go tool pprof -diff_base's
 * merge (combineHeaders); else nothing changed (review 17 F6: pcol diff
 * refused two heap profiles, one naming alloc_space, one none) */
static void diff_default(pcol_file *base, pcol_file *nw, const char *want_b, const char *want_n) {
  pcol_error err = {0};
  pcol_value_sel vb, vn;
  cr_assert_eq(pcol_value_resolve(base, NULL, NULL, &vb, &err), 0);
  cr_assert_eq(pcol_value_resolve(nw, NULL, NULL, &vn, &err), 0);
  cr_assert_eq(pcol_value_diff_default(base, nw, NULL, NULL, &vb, &vn, &err), 0, "%s", err.message);
  cr_expect(str_is(vb.type, want_b), "base %.*s, want %s", (int)vb.type.len, vb.type.ptr, want_b);
  cr_expect(str_is(vn.type, want_n), "new %.*s, want %s", (int)vn.type.len, vn.type.ptr, want_n);
}
Test(values, diff_default_is_pprof_diff_bases) {
  static const char *const heap[2] = {"alloc_space/bytes", "inuse_space/bytes"};
  static const char *const alloc[1] = {"alloc_space/bytes"};
  void *m[5];
  pcol_file *named = one_pprof(heap, 2, "alloc_space", &m[0]); /* alloc_space */
  pcol_file *plain = one_pprof(heap, 2, NULL, &m[1]);          /* inuse_space: the last */
  pcol_file *inuse = one_pprof(heap, 2, "inuse_space", &m[2]);
  pcol_file *only = one_pprof(alloc, 1, NULL, &m[3]);          /* alloc_space: its one type */
  pcol_file *other = one_pprof(heap, 2, "alloc_space", &m[4]);
  diff_default(plain, named, "alloc_space", "alloc_space"); /* the new side's */
  diff_default(named, plain, "alloc_space", "alloc_space"); /* else the base's */
  diff_default(inuse, named, "alloc_space", "alloc_space"); /* both named: the new side's */
  diff_default(named, inuse, "inuse_space", "inuse_space");
  diff_default(named, other, "alloc_space", "alloc_space"); /* alike: as they are */
  /* only names none: plain's inuse_space is not there; plain names none */
  diff_default(only, plain, "alloc_space", "inuse_space");
  diff_default(plain, only, "inuse_space", "alloc_space");
  /* the new side names one the base lacks: as they are (go refuses them),
   * not the base's */
  diff_default(only, inuse, "alloc_space", "inuse_space");
  pcol_error err = {0};
  pcol_value_sel vb, vn;
  cr_assert_eq(pcol_value_resolve(plain, NULL, NULL, &vb, &err), 0);
  cr_assert_eq(pcol_value_resolve(named, NULL, NULL, &vn, &err), 0);
  cr_expect_eq(pcol_value_diff_default(NULL, named, NULL, NULL, &vb, &vn, &err), 0);
  cr_expect(str_is(vb.type, "inuse_space"));
  /* a value the caller named (samples) is not its default: as it is */
  cr_assert_eq(pcol_value_resolve(plain, NULL, "samples", &vb, &err), 0);
  cr_expect_eq(pcol_value_diff_default(plain, named, NULL, NULL, &vb, &vn, &err), 0);
  cr_expect_eq(vb.vt_id, 0);
  /* the numbers of the side changed are that value's */
  cr_assert_eq(pcol_value_resolve(plain, NULL, NULL, &vb, &err), 0);
  cr_assert_eq(pcol_value_diff_default(plain, named, NULL, NULL, &vb, &vn, &err), 0);
  pcol_top t;
  cr_assert_eq(pcol_top_compute(plain, NULL, &vb, PCOL_BY_FUNCTION, &t, &err), 0);
  EXPECT(&t, "main", 10, 10);
  pcol_top_free(&t);
  pcol_file *fs[5] = {named, plain, inuse, only, other};
  for (int k = 0; k < 5; k++) {
    pcol_close(fs[k]);
    free(m[k]);
  }
}

Test(values, rprof_default_is_samples) {
  uint32_t src, vt;
  pcol_builder *b = NEWB(&src, "rprof");
  cr_assert_eq(pcol_b_value_type(b, S(b, "mem_small"), S(b, "bytes"), &vt, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, NULL), 0);
  cr_expect_eq(v.vt_id, 0);
  cr_expect_eq(v.type.len, 7);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* An Rprof source's default value is its time (the time rule, count.c):
 * the distance to the next sample of its source, a coalesced run's
 * duration, the last sample weight x the last interval.  `top` of a whole
 * file counts the most common time per node and adds the others as they
 * are (weights.c): every kind of sample here is one of the others. */
Test(values, rprof_time_of_mixed_segments) {
  const int64_t ms = 1000000;
  uint32_t s1, s2;
  pcol_builder *b = NEWB(&s1, "rprof");
  cr_assert_eq(pcol_b_source(b, "rprof", "second", PCOL_NA_I64, &s2, NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, s1, "rprof.interval_us", "20000", NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, s1, "rprof.interval_last_us", "5000", NULL), 0); /* appended */
  cr_assert_eq(pcol_b_meta_str(b, s2, "rprof.interval_us", "10000", NULL), 0);
  uint32_t m = LOC(b, FN(b, "main", "m.R"), 1);
  uint32_t a = STK(b, LOC(b, FN(b, "a", "m.R"), 2), m, 0), bb = STK(b, LOC(b, FN(b, "b", "m.R"), 3), m, 0),
           c = STK(b, LOC(b, FN(b, "c", "m.R"), 4), m, 0), d = STK(b, LOC(b, FN(b, "d", "m.R"), 5), m, 0),
           e = STK(b, LOC(b, FN(b, "e", "m.R"), 6), m, 0);
  SAMPLE(b, s1, 0, PCOL_NA_I64, 1, a, NULL, 0);       /* 20 ms to the next */
  SAMPLE(b, s1, 20 * ms, PCOL_NA_I64, 1, a, NULL, 0); /* 20 */
  SAMPLE(b, s1, 40 * ms, PCOL_NA_I64, 1, bb, NULL, 0); /* 5: the appended segment */
  SAMPLE(b, s1, 45 * ms, 15 * ms, 3, c, NULL, 0);     /* a coalesced run: 15 */
  SAMPLE(b, s1, 60 * ms, PCOL_NA_I64, 1, bb, NULL, 0); /* 5 */
  SAMPLE(b, s1, 65 * ms, PCOL_NA_I64, 2, d, NULL, 0); /* last: 2 x 5 */
  SAMPLE(b, s2, 0, PCOL_NA_I64, 1, a, NULL, 0);       /* 10 */
  SAMPLE(b, s2, 10 * ms, PCOL_NA_I64, 1, e, NULL, 0); /* last: 1 x 10 */
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_top t;
  /* the whole file (the counted path), then a range holding every sample
   * (a row at a time): the same numbers */
  pcol_select all = {.has_from = 1, .from_ns = 0, .has_to = 1, .to_ns = 100 * ms};
  for (int k = 0; k < 2; k++) {
    TOP(f, k ? &all : NULL, NULL, PCOL_BY_FUNCTION, &t);
    cr_expect_eq(t.total, 95 * ms, "pass %d: total %lld", k, (long long)t.total);
    EXPECT(&t, "a", 50 * ms, 50 * ms);
    EXPECT(&t, "b", 10 * ms, 10 * ms);
    EXPECT(&t, "c", 15 * ms, 15 * ms);
    EXPECT(&t, "d", 10 * ms, 10 * ms);
    EXPECT(&t, "e", 10 * ms, 10 * ms);
    EXPECT(&t, "main", 0, 95 * ms);
    pcol_top_free(&t);
  }
  TOP(f, NULL, "samples", PCOL_BY_FUNCTION, &t);
  EXPECT(&t, "a", 3, 3);
  EXPECT(&t, "c", 3, 3);
  EXPECT(&t, "main", 0, 11);
  pcol_top_free(&t);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* ------------------------------------------------------- time ranges */
Test(ranges, scale_rounds_half_away_from_zero) {
  cr_expect_eq(pcol_scale(10, 25, 100), 3);   /* 2.5 -> 3 */
  cr_expect_eq(pcol_scale(-10, 25, 100), -3); /* -2.5 -> -3 */
  cr_expect_eq(pcol_scale(10, 24, 100), 2);   /* 2.4 -> 2 */
  cr_expect_eq(pcol_scale(7, 1, 1), 7);
  cr_expect_eq(pcol_scale(INT64_MAX, 3, 3), INT64_MAX);
  cr_expect_eq(pcol_scale(INT64_MAX / 2, 3, 2), INT64_MAX / 2 + INT64_MAX / 4 + 1);
}

Test(ranges, long_samples_count_by_overlap) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "test");
  uint32_t a = LOC(b, FN(b, "a", "f"), 1), p = LOC(b, FN(b, "p", "f"), 2);
  uint32_t sa = STK(b, a, 0), sp = STK(b, p, 0);
  const int64_t sec = 1000000000;
  SAMPLE(b, src, 0, 10 * sec, 10, sa, NULL, 0); /* a: 10 ticks over [0s, 10s) */
  SAMPLE(b, src, 2 * sec, 0, 1, sp, NULL, 0);
  SAMPLE(b, src, 5 * sec, 0, 1, sp, NULL, 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_top t;
  pcol_select sel = {.has_from = 1, .from_ns = 2500000000LL, .has_to = 1, .to_ns = 5 * sec};
  TOP(f, &sel, NULL, PCOL_BY_FUNCTION, &t);
  EXPECT(&t, "a", 2, 2);   /* the range rule: ticks at 0s, 1s, ... 9s; [2.5s, 5s) holds 3s and 4s */
  cr_expect(ROW(&t, "p") == NULL); /* 2s is before, 5s is not < to */
  pcol_top_free(&t);
  pcol_select sel2 = {.has_from = 1, .from_ns = 2 * sec, .has_to = 1, .to_ns = 6 * sec};
  TOP(f, &sel2, NULL, PCOL_BY_FUNCTION, &t);
  EXPECT(&t, "a", 4, 4);
  EXPECT(&t, "p", 2, 2); /* [from, to) holds 2s and 5s */
  cr_expect_eq(t.total, 6);
  pcol_top_free(&t);
  pcol_select only_to = {.has_to = 1, .to_ns = sec};
  TOP(f, &only_to, NULL, PCOL_BY_FUNCTION, &t);
  EXPECT(&t, "a", 1, 1);
  cr_expect_eq(t.nrows, 1);
  pcol_top_free(&t);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* ------------------------------------------------------- frame tree */
Test(ftree, totals_and_child_lookup) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "test");
  uint32_t m = LOC(b, FN(b, "main", "f"), 1), x = LOC(b, FN(b, "x", "f"), 2),
           y = LOC(b, FN(b, "y", "f"), 3), x2 = LOC(b, FN(b, "x", "f"), 7);
  SAMPLE(b, src, 0, 0, 2, STK(b, x, m, 0), NULL, 0);
  SAMPLE(b, src, 1, 0, 3, STK(b, x2, m, 0), NULL, 0); /* same name, other line: same frame */
  SAMPLE(b, src, 2, 0, 1, STK(b, y, x, m, 0), NULL, 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, NULL, "samples", &v, NULL), 0);
  pcol_ftree t;
  pcol_error err = {0};
  cr_assert_eq(pcol_ftree_build(f, NULL, &v, &t, &err), 0, "%s", err.message);
  uint32_t nm = pcol_ftree_child(&t, 0, "main", 4);
  uint32_t nx = pcol_ftree_child(&t, nm, "x", 1);
  uint32_t ny = pcol_ftree_child(&t, nx, "y", 1);
  cr_assert(nm && nx && ny);
  cr_expect_eq(pcol_ftree_child(&t, 0, "x", 1), 0);
  cr_expect_eq(t.total[0], 6);
  cr_expect_eq(t.total[nm], 6);
  cr_expect_eq(t.self[nx], 5);
  cr_expect_eq(t.total[nx], 6);
  cr_expect_eq(t.depth[ny], 3);
  cr_expect_eq(t.parent[ny], nx);
  pcol_ftree_free(&t);
  char *fold = FOLD(f, NULL, NULL);
  cr_expect_str_eq(fold, "main;x 5\nmain;x;y 1\n");
  free(fold);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(fold, separators_in_names_are_replaced) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "test");
  uint32_t a = LOC(b, FN(b, "a;b\nc", "f"), 1);
  SAMPLE(b, src, 0, 0, 1, STK(b, a, 0), NULL, 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  char *fold = FOLD(f, NULL, NULL);
  cr_expect_str_eq(fold, "a_b_c 1\n");
  free(fold);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* ------------------------------------------------------- coalescing */
#define MS 1000000LL

/* raw twin: A x5, B x3, A x2 every 20 ms, value "mem" 7 on each; a text
 * line before sample 7 (inside the B run), a sample_text on sample 10, a
 * text line after the last sample */
/* A timed profile whose value "mem" is an amount (a Perun source: Rprof's
 * memory fields are snapshots, which are never coalesced, spec.md §7.1 rule 8). */
static pcol_builder *raw_profile_of(const char *type) {
  uint32_t src, vt;
  pcol_builder *b = NEWB(&src, type);
  cr_assert_eq(pcol_b_value_type(b, S(b, "mem"), S(b, "bytes"), &vt, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  uint32_t m = LOC(b, FN(b, "main", "f"), 1), fa = LOC(b, FN(b, "A", "f"), 2),
           fb = LOC(b, FN(b, "B", "f"), 3);
  uint32_t sa = STK(b, fa, m, 0), sb = STK(b, fb, m, 0);
  pcol_value_row v = {vt, 7};
  for (int i = 0; i < 10; i++) {
    if (i == 6) cr_assert_eq(pcol_b_text_line(b, src, 7, "#File 1: x.R", 12, NULL), 0);
    SAMPLE(b, src, i * 20 * MS, 0, 1, i >= 5 && i < 8 ? sb : sa, &v, 1);
  }
  cr_assert_eq(pcol_b_sample_text(b, 10, "odd", 3, NULL), 0);
  cr_assert_eq(pcol_b_text_line(b, src, 11, "tail", 4, NULL), 0);
  return b;
}
static pcol_builder *raw_profile(void) { return raw_profile_of("perun"); }

/* F2: the same rows in an Rprof source: values are snapshots, no row merges */
Test(coalesce, rprof_snapshots_are_not_merged) {
  pcol_builder *b = raw_profile_of("rprof");
  cr_assert_eq(pcol_builder_coalesce(b, NULL), 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 10);
  pcol_view vv;
  cr_assert_eq(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &vv, NULL), 0);
  for (int i = 0; i < 10; i++) cr_expect_eq(pcol_view_i64(&vv, i), 7, "row %d keeps its snapshot", i);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(coalesce, runs_merge_and_references_follow) {
  pcol_builder *b = raw_profile();
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_coalesce(b, &err), 0, "%s", err.message);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  /* rows: A(5) B(1) | B(2) A(1) A(1, has text) */
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 5);
  pcol_view w, d, t, tl, st, vv;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &w, NULL), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &d, NULL), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &t, NULL), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &vv, NULL), 0);
  int64_t ew[5] = {5, 1, 2, 1, 1}, ed[5] = {100 * MS, 0, 40 * MS, 0, 0},
          et[5] = {0, 100 * MS, 120 * MS, 160 * MS, 180 * MS}, ev[5] = {35, 7, 14, 7, 7};
  for (int i = 0; i < 5; i++) {
    cr_expect_eq(pcol_view_i64(&w, i), ew[i], "row %d weight", i);
    cr_expect_eq(pcol_view_i64(&d, i), ed[i], "row %d duration", i);
    cr_expect_eq(pcol_view_i64(&t, i), et[i], "row %d time", i);
    cr_expect_eq(pcol_view_i64(&vv, i), ev[i], "row %d value", i);
  }
  cr_assert_eq(pcol_column(f, PCOL_T_TEXT_LINES, PCOL_C_TL_BEFORE, &tl, NULL), 0);
  cr_expect_eq(pcol_view_u64(&tl, 0), 3);
  cr_expect_eq(pcol_view_u64(&tl, 1), 6);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE, &st, NULL), 0);
  cr_expect_eq(pcol_view_u32(&st, 0), 5);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(coalesce, uneven_spacing_and_cpu_wakeups_keep_samples_apart) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "test");
  uint32_t s = STK(b, LOC(b, FN(b, "a", "f"), 1), 0);
  int64_t times[6] = {0, 10, 20, 35, 50, 65};
  for (int i = 0; i < 6; i++) {
    pcol_sample_row r = {src, times[i], 0, 1, i == 5 ? 3 : 0, s, 0};
    cr_assert_eq(pcol_b_sample(b, &r, NULL, 0, NULL, NULL), 0);
  }
  cr_assert_eq(pcol_builder_coalesce(b, NULL), 0);
  /* 0,10,20 (d=10) | 35,50 (d=15; 20->35 breaks the first run) | 65 (cpu wake-up) */
  cr_expect_eq(pcol_b_sample_count(b), 3);
  pcol_builder_free(b);
}

static int same_top(pcol_file *a, pcol_file *b, const pcol_select *sel, const char *value,
                    pcol_by by) {
  pcol_top x, y;
  TOP(a, sel, value, by, &x);
  TOP(b, sel, value, by, &y);
  int same = x.total == y.total && x.nrows == y.nrows;
  for (size_t i = 0; same && i < x.nrows; i++)
    same = x.rows[i].flat == y.rows[i].flat && x.rows[i].cum == y.rows[i].cum &&
           x.rows[i].name.len == y.rows[i].name.len &&
           !memcmp(x.rows[i].name.ptr, y.rows[i].name.ptr, x.rows[i].name.len);
  pcol_top_free(&x);
  pcol_top_free(&y);
  return same;
}

Test(coalesce, raw_and_coalesced_agree_on_boundary_ranges) {
  pcol_builder *raw = raw_profile(), *co = raw_profile();
  cr_assert_eq(pcol_builder_coalesce(co, NULL), 0);
  void *m1, *m2;
  pcol_file *a = tu_reopen(raw, NULL, &m1), *b = tu_reopen(co, NULL, &m2);
  int checked = 0;
  for (int from = -1; from <= 10; from++)
    for (int to = from + 1; to <= 11; to++) {
      pcol_select sel = {0};
      if (from >= 0) sel.has_from = 1, sel.from_ns = from * 20 * MS;
      if (to <= 10) sel.has_to = 1, sel.to_ns = to * 20 * MS;
      cr_expect(same_top(a, b, &sel, "samples", PCOL_BY_FUNCTION), "samples [%d, %d)", from, to);
      cr_expect(same_top(a, b, &sel, "mem", PCOL_BY_FUNCTION), "mem [%d, %d)", from, to);
      checked++;
    }
  cr_expect_gt(checked, 70);
  /* a bound inside a long sample is a fraction, not a raw count: 30 ms cuts
   * A's run [0, 100 ms) at 1.5 ticks */
  pcol_select mid = {.has_to = 1, .to_ns = 30 * MS};
  pcol_top t;
  TOP(b, &mid, "samples", PCOL_BY_FUNCTION, &t);
  EXPECT(&t, "A", 2, 2); /* 5 x 30/100 = 1.5 -> 2 */
  pcol_top_free(&t);
  pcol_close(a);
  pcol_close(b);
  free(m1);
  free(m2);
  pcol_builder_free(raw);
  pcol_builder_free(co);
}

/* --------------------------------------------------- real Rprof data */
/* A file of the test data (DIR/NAME) imported as FMT. */
static pcol_file *import_as(const char *dir, const char *name, int fmt, int coalesce, void **mem) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s/%s", testdata_dir(), dir, name);
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  pcol_import_options o = {0};
  int rc = pcol_import_path(b, path, (pcol_format)fmt, &o, &err);
  if (rc == PCOL_EUNSUPPORTED) {
    pcol_builder_free(b);
    cr_skip_test("%s import not built: %s", dir, err.message);
  }
  cr_assert_eq(rc, 0, "%s: %s", name, err.message);
  if (coalesce) cr_assert_eq(pcol_builder_coalesce(b, &err), 0, "%s", err.message);
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}

static pcol_file *import(const char *name, int coalesce, void **mem) {
  return import_as("rprof", name, PCOL_FMT_RPROF, coalesce, mem);
}

Test(real, summaryRprof_reference_values) {
  SKIP_WITHOUT_TESTDATA();
  void *mem;
  pcol_file *f = import("proftools__Rprof-dg.out", 0, &mem);
  pcol_top t;
  TOP(f, NULL, NULL, PCOL_BY_FUNCTION, &t);
  /* summaryRprof: "dg" self 3.70 s, total 3.86 s, "<GC>" self 0.16 s at 20 ms:
   * an Rprof source's default value is its time (issue 27 #8), in ns */
  EXPECT(&t, "dg", 3700000000, 3860000000);
  EXPECT(&t, "<GC>", 160000000, 160000000);
  pcol_top_free(&t);
  TOP(f, NULL, "samples", PCOL_BY_FUNCTION, &t); /* the ticks stay one value away */
  EXPECT(&t, "dg", 185, 193);
  EXPECT(&t, "<GC>", 8, 8);
  pcol_top_free(&t);
  pcol_close(f);
  free(mem);
  f = import("proftools__Rprof-rec0.out", 0, &mem);
  TOP(f, NULL, NULL, PCOL_BY_FUNCTION, &t);
  /* "g" self 3.66 s, total 8.50 s; "f" total 8.58 s (recursive: once per sample) */
  EXPECT(&t, "g", 3660000000, 8500000000);
  cr_expect_eq(ROW(&t, "f")->cum, 8580000000);
  pcol_top_free(&t);
  pcol_close(f);
  free(mem);
}

Test(real, coalesced_twin_answers_ranges_like_raw) {
  SKIP_WITHOUT_TESTDATA();
  const char *files[] = {"proftools__Rprof-dg.out", "proftools__Rprof-lmfit-new.out",
                         "aprof__lotka1_naiveL.out", "proftools__Rprof-rec.out"};
  for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
    void *m1, *m2;
    pcol_file *a = import(files[k], 0, &m1), *b = import(files[k], 1, &m2);
    pcol_str iv;
    cr_assert_eq(pcol_meta_get(a, 1, "rprof.interval_us", &iv, NULL), 0);
    int64_t step = strtoll(iv.ptr, NULL, 10) * 1000;
    uint64_t n = pcol_rows(a, PCOL_T_SAMPLES);
    if (strcmp(files[k], "proftools__Rprof-rec.out") != 0)
      cr_expect_lt(pcol_rows(b, PCOL_T_SAMPLES), n, "%s did not coalesce", files[k]);
    int64_t bounds[6] = {0, (int64_t)n / 7, (int64_t)n / 3, (int64_t)n / 2, (int64_t)n - 3, (int64_t)n + 5};
    for (int i = 0; i < 6; i++)
      for (int j = i + 1; j < 6; j++) {
        pcol_select sel = {.has_from = 1, .from_ns = bounds[i] * step, .has_to = 1,
                           .to_ns = bounds[j] * step};
        cr_expect(same_top(a, b, &sel, NULL, PCOL_BY_FUNCTION), "%s [%lld, %lld)", files[k],
                  (long long)bounds[i], (long long)bounds[j]);
        cr_expect(same_top(a, b, &sel, NULL, PCOL_BY_LINE), "%s lines", files[k]);
      }
    pcol_close(a);
    pcol_close(b);
    free(m1);
    free(m2);
  }
}

Test(values, rprof_alloc_is_summaryRprof_mem_total) {
  uint32_t src, vs, vl, vn;
  pcol_builder *b = NEWB(&src, "rprof");
  cr_assert_eq(pcol_b_value_type(b, S(b, "vsize.small"), S(b, "bytes"), &vs, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "vsize.large"), S(b, "bytes"), &vl, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "nodes"), S(b, "bytes"), &vn, NULL), 0);
  uint32_t m = LOC(b, FN(b, "main", "f"), 1), x = LOC(b, FN(b, "x", "f"), 2);
  uint32_t sm = STK(b, m, 0), sx = STK(b, x, m, 0);
  /* levels: (small, large, nodes) */
  int64_t lv[4][3] = {{100, 100, 100}, {180, 90, 156}, {50, 50, 50}, {60, 80, 50}};
  uint32_t st[4] = {sm, sx, sx, sm};
  for (int i = 0; i < 4; i++) {
    pcol_value_row v[3] = {{vs, lv[i][0]}, {vl, lv[i][1]}, {vn, lv[i][2]}};
    SAMPLE(b, src, i, 0, 1, st[i], v, 3);
  }
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_top t;
  TOP(f, NULL, "rprof.alloc", PCOL_BY_FUNCTION, &t);
  /* increases: 0 (first), 80+0+56, 0 (after a GC), 10+30+0 */
  EXPECT(&t, "x", 136, 136);
  EXPECT(&t, "main", 40, 176);
  pcol_top_free(&t);
  pcol_value_sel v;
  cr_expect_eq(pcol_value_resolve(f, NULL, "rprof.alloc", &v, NULL), 0);
  cr_expect_eq(v.vt_id, PCOL_VT_RPROF_ALLOC);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* An increase past INT64_MAX is refused (ETOOBIG) whether the difference
 * itself or the sum of the three overflows; a decrease that overflows is
 * no increase (max(0, d)). */
Test(values, rprof_alloc_overflow_is_refused) {
  const int64_t lv[3][2][3] = {{{-10, 0, 0}, {INT64_MAX, 0, 0}},                 /* d overflows */
                               {{0, 0, 0}, {INT64_MAX, INT64_MAX, 0}},           /* the sum does */
                               {{INT64_MAX, 0, 0}, {-10, 5, 0}}};                /* a decrease */
  for (int k = 0; k < 3; k++) {
    uint32_t src, vt[3];
    pcol_builder *b = NEWB(&src, "rprof");
    const char *names[3] = {"vsize.small", "vsize.large", "nodes"};
    for (int j = 0; j < 3; j++) cr_assert_eq(pcol_b_value_type(b, S(b, names[j]), S(b, "bytes"), &vt[j], NULL), 0);
    uint32_t st = STK(b, LOC(b, FN(b, "main", "f"), 1), 0);
    for (int i = 0; i < 2; i++) {
      pcol_value_row v[3] = {{vt[0], lv[k][i][0]}, {vt[1], lv[k][i][1]}, {vt[2], lv[k][i][2]}};
      SAMPLE(b, src, i, 0, 1, st, v, 3);
    }
    void *mem;
    pcol_file *f = tu_reopen(b, NULL, &mem);
    pcol_error err = {0};
    pcol_value_sel v;
    cr_assert_eq(pcol_value_resolve(f, NULL, "rprof.alloc", &v, &err), 0, "%s", err.message);
    pcol_top t;
    int rc = pcol_top_compute(f, NULL, &v, PCOL_BY_FUNCTION, &t, &err);
    if (k < 2) {
      cr_expect_eq(rc, PCOL_ETOOBIG, "case %d: rc %d", k, rc);
      cr_expect(strstr(err.message, "memory increase overflows at sample 2"), "case %d: %s", k, err.message);
    } else {
      cr_assert_eq(rc, 0, "%s", err.message);
      EXPECT(&t, "main", 5, 5);
    }
    if (!rc) pcol_top_free(&t);
    pcol_close(f);
    free(mem);
    pcol_builder_free(b);
  }
}

Test(real, rprof_alloc_matches_mem_total) {
  SKIP_WITHOUT_TESTDATA();
  /* summaryRprof(memory = "both")$by.total$mem.total, R 4.2.2:
   * aprof__foo.prof "foo" 21.1 MB, r-prof-profile__memory.out
   * "Ops.data.frame" 56.0 MB */
  struct {
    const char *file, *fn;
    double mb;
  } ref[2] = {{"aprof__foo.prof", "foo", 21.1}, {"r-prof-profile__memory.out", "Ops.data.frame", 56.0}};
  for (int k = 0; k < 2; k++) {
    void *mem;
    pcol_file *f = import(ref[k].file, 0, &mem);
    pcol_top t;
    TOP(f, NULL, "rprof.alloc", PCOL_BY_FUNCTION, &t);
    const pcol_top_row *r = ROW(&t, ref[k].fn);
    cr_assert(r != NULL);
    cr_expect_eq(round((double)r->cum / 1048576 * 10) / 10, ref[k].mb, "%s: %f", ref[k].fn,
                 (double)r->cum / 1048576);
    pcol_top_free(&t);
    pcol_close(f);
    free(mem);
  }
}

/* ------------------------------------------ peek, list, info (issue 15) */
Test(peek, callers_and_callees_once_per_sample) {
  pcol_builder *b;
  void *mem;
  pcol_file *fl = RECURSION(&b, &mem);
  pcol_top t;
  TOP(fl, NULL, NULL, PCOL_BY_FUNCTION, &t);
  pcol_peek p;
  pcol_error err = {0};
  cr_assert_eq(pcol_peek_compute(&t, "^f$", &p, &err), 0, "%s", err.message);
  cr_assert_eq(p.nnodes, 1);
  const pcol_peek_node *n = &p.nodes[0];
  cr_expect_eq(n->row->flat, 1);
  cr_expect_eq(n->row->cum, 4);
  /* main -> f in 4 samples; f -> f is no call; f -> g in 3 */
  cr_assert_eq(n->nin, 1);
  cr_expect(n->in[0].caller.len == 4 && !memcmp(n->in[0].caller.ptr, "main", 4));
  cr_expect_eq(n->in[0].value, 4);
  cr_assert_eq(n->nout, 1);
  cr_expect(n->out[0].callee.len == 1 && n->out[0].callee.ptr[0] == 'g');
  cr_expect_eq(n->out[0].value, 3);
  pcol_peek_free(&p);
  cr_expect_eq(pcol_peek_compute(&t, "(", &p, &err), PCOL_EINVAL); /* a bad expression */
  pcol_top_free(&t);
  pcol_close(fl);
  free(mem);
  pcol_builder_free(b);
}

Test(list, lines_per_function_and_per_file) {
  pcol_builder *b;
  void *mem;
  pcol_file *fl = RECURSION(&b, &mem);
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(fl, NULL, NULL, &v, &err), 0, "%s", err.message);
  pcol_list l;
  pcol_list_options lo = {"/nonexistent", 0, 0};
  /* by function: f's block, its file not found (no such directory) */
  cr_assert_eq(pcol_list_compute(fl, NULL, &v, PCOL_BY_LINE, "^f$", &lo, &l, &err), 0,
               "%s", err.message);
  cr_assert_eq(l.nblocks, 1);
  cr_expect(l.blocks[0].error != NULL);
  cr_assert_eq(l.blocks[0].nlines, 1);
  cr_expect_eq(l.blocks[0].lines[0].line, 2);
  cr_expect_eq(l.blocks[0].lines[0].flat, 1);
  cr_expect_eq(l.blocks[0].lines[0].cum, 4);
  pcol_list_free(&l);
  /* by file: every function's lines of a.R in one block */
  cr_assert_eq(pcol_list_compute(fl, NULL, &v, PCOL_BY_SOURCE_LINE, "a\\.R", &lo, &l, &err),
               0, "%s", err.message);
  cr_assert_eq(l.nblocks, 1);
  cr_assert_eq(l.blocks[0].nlines, 4);
  static const int64_t want[4][3] = {{1, 0, 6}, {2, 1, 4}, {3, 3, 3}, {4, 2, 2}};
  for (int i = 0; i < 4; i++) {
    cr_expect_eq(l.blocks[0].lines[i].line, want[i][0]);
    cr_expect_eq(l.blocks[0].lines[i].flat, want[i][1]);
    cr_expect_eq(l.blocks[0].lines[i].cum, want[i][2]);
  }
  cr_expect_eq(l.blocks[0].flat, 6);
  pcol_list_free(&l);
  pcol_close(fl);
  free(mem);
  pcol_builder_free(b);
}

/* pcol_list_compute's default (opt NULL): only files under the current
 * directory; /etc/passwd is named but not read, and --allow-any-source's
 * option reads it.  Line INT64_MAX: the window saturates. */
Test(list, default_reads_only_the_source_path) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "test");
  uint32_t l1 = LOC(b, FN(b, "f", "/etc/passwd"), 1), l2 = LOC(b, FN(b, "g", "/etc/passwd"), INT64_MAX);
  SAMPLE(b, src, 0, 0, 1, STK(b, l1, 0), NULL, 0);
  SAMPLE(b, src, 1, 0, 1, STK(b, l2, 0), NULL, 0);
  void *mem;
  pcol_file *fl = tu_reopen(b, NULL, &mem);
  cr_assert_eq(chdir("/tmp"), 0);
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(fl, NULL, NULL, &v, &err), 0, "%s", err.message);
  pcol_list l;
  cr_assert_eq(pcol_list_compute(fl, NULL, &v, PCOL_BY_LINE, "^f$", NULL, &l, &err), 0, "%s", err.message);
  cr_assert_eq(l.nblocks, 1);
  cr_assert(l.blocks[0].error != NULL);
  cr_expect(strstr(l.blocks[0].error, "not read: outside the source path") != NULL, "%s", l.blocks[0].error);
  cr_assert_eq(l.blocks[0].nlines, 1);
  cr_expect(l.blocks[0].lines[0].text.ptr == NULL);
  pcol_list_free(&l);
  pcol_list_options any = {NULL, 1, 0};
  cr_assert_eq(pcol_list_compute(fl, NULL, &v, PCOL_BY_LINE, ".", &any, &l, &err), 0, "%s", err.message);
  cr_assert_eq(l.nblocks, 2);
  cr_expect(l.blocks[0].error == NULL && l.blocks[0].nlines > 0 && l.blocks[0].lines[0].text.ptr != NULL);
  cr_expect(l.blocks[1].error == NULL && l.blocks[1].nlines == 0); /* far past the file's end */
  pcol_list_free(&l);
  pcol_close(fl);
  free(mem);
  pcol_builder_free(b);
}

Test(info, source_summaries) {
  pcol_builder *b;
  void *mem;
  pcol_file *fl = RECURSION(&b, &mem);
  pcol_error err = {0};
  pcol_source_summary *s;
  size_t n;
  cr_assert_eq(pcol_source_summaries(fl, &s, &n, &err), 0, "%s", err.message);
  cr_assert_eq(n, 1);
  cr_expect_eq(s[0].id, 1);
  cr_expect_eq(s[0].samples, 6);
  cr_expect_eq(s[0].first_ns, 0);
  cr_expect_eq(s[0].end_ns, 5);
  cr_expect_eq(s[0].period, PCOL_NA_I64);
  cr_expect_eq(s[0].duration_ns, PCOL_NA_I64);
  cr_expect(s[0].type.len == 4 && !memcmp(s[0].type.ptr, "test", 4));
  pcol_source_summaries_free(s, n);
  pcol_close(fl);
  free(mem);
  pcol_builder_free(b);
}

/* Two deep branches whose stack nodes alternate in id order (a1 b1 a2 b2
 * ...): the path walk of top would climb each branch again at every node,
 * so it gives up for the tree walk; both must count a recursive function
 * once per sample.  The same profile built branch after branch (the order
 * writers give) takes the path walk: the rows must be the same. */
static pcol_file *TWO_BRANCHES(int interleaved, void **mem) {
  enum { D = 3000 };
  uint32_t src;
  pcol_builder *b = NEWB(&src, "test");
  uint32_t r = LOC(b, FN(b, "r", "a.R"), 1), leaf = LOC(b, FN(b, "leaf", "b.R"), 2);
  uint32_t pa = 0, pb = 0;
  if (interleaved) {
    for (int i = 0; i < D; i++) {
      cr_assert_eq(pcol_b_stack_node(b, pa, r, &pa, NULL), 0);
      cr_assert_eq(pcol_b_stack_node(b, pb, i + 1 == D ? leaf : r, &pb, NULL), 0);
    }
  } else {
    for (int i = 0; i < D; i++) cr_assert_eq(pcol_b_stack_node(b, pa, r, &pa, NULL), 0);
    for (int i = 0; i < D; i++) cr_assert_eq(pcol_b_stack_node(b, pb, i + 1 == D ? leaf : r, &pb, NULL), 0);
  }
  SAMPLE(b, src, 0, 0, 5, pa, NULL, 0);
  SAMPLE(b, src, 1, 0, 7, pb, NULL, 0);
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}
Test(top, cum_once_whatever_the_order_of_stack_nodes) {
  for (int interleaved = 0; interleaved < 2; interleaved++) {
    void *mem;
    pcol_file *f = TWO_BRANCHES(interleaved, &mem);
    pcol_top t;
    TOP(f, NULL, NULL, PCOL_BY_FUNCTION, &t);
    cr_assert_eq(t.total, 12);
    cr_assert_eq(t.nrows, 2, "order %d: %zu rows", interleaved, t.nrows);
    EXPECT(&t, "r", 5, 12); /* 3000 frames deep, counted once a sample */
    EXPECT(&t, "leaf", 7, 7);
    /* peek walks the same way (path walk, or the tree when interleaved) */
    pcol_peek pk;
    pcol_error err = {0};
    cr_assert_eq(pcol_peek_compute(&t, "^(r|leaf)$", &pk, &err), 0, "%s", err.message);
    cr_assert_eq(pk.nnodes, 2);
    for (size_t i = 0; i < pk.nnodes; i++) {
      const pcol_peek_node *nd = &pk.nodes[i];
      int is_leaf = nd->row->name.len == 4;
      cr_assert_eq(nd->nin, (size_t)is_leaf, "order %d", interleaved);
      cr_assert_eq(nd->nout, (size_t)!is_leaf, "order %d", interleaved);
      const pcol_peek_edge *e = is_leaf ? nd->in : nd->out;
      cr_assert(e->value == 7 && e->caller.len == 1 && e->callee.len == 4, "order %d", interleaved);
    }
    pcol_peek_free(&pk);
    pcol_top_free(&t);
    pcol_close(f);
    free(mem);
  }
}

/* pprof -traces shows samples as profile.Merge leaves them: same stack and
 * labels are one trace (values added, at the first one's place), and a
 * trace whose values all add up to 0 is left out. */
typedef struct traces_seen {
  size_t n;
  uint64_t row[8];
  int64_t value[8];
} traces_seen;
static int collect_trace(void *ctx, const pcol_trace *t) {
  traces_seen *s = ctx;
  cr_assert(s->n < 8);
  s->row[s->n] = t->row;
  s->value[s->n++] = t->value;
  return 0;
}
/* samples i = 0..n-1 of source src (time i, weight 1): stack st[i], label
 * set ls[i], one value v[i] of type vt; b is written, reopened and freed,
 * *val the file's default value */
static pcol_file *WITH_SAMPLES(pcol_builder *b, uint32_t src, uint32_t vt, size_t n, const uint32_t *st,
                               const uint32_t *ls, const int64_t *v, void **mem, pcol_value_sel *val) {
  for (size_t i = 0; i < n; i++) {
    pcol_sample_row s = {src, (int64_t)i, 0, 1, PCOL_NA_I64, st[i], ls[i]};
    pcol_value_row vr = {vt, v[i]};
    cr_assert_eq(pcol_b_sample(b, &s, &vr, 1, NULL, NULL), 0);
  }
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  pcol_error err = {0};
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, val, &err), 0, "%s", err.message);
  return f;
}
Test(traces, merged_as_pprof_reads_a_profile) {
  uint32_t src, vt, k, va, vb, lsa, lsb;
  pcol_builder *b = NEWB(&src, "pprof");
  cr_assert_eq(pcol_b_value_type(b, S(b, "alloc_space"), S(b, "bytes"), &vt, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  uint32_t m = LOC(b, FN(b, "main", "m.go"), 1), f = LOC(b, FN(b, "f", "m.go"), 2);
  uint32_t s1 = STK(b, f, m, 0), s2 = STK(b, m, 0);
  cr_assert_eq(pcol_b_cstr(b, "k", &k, NULL), 0);
  cr_assert_eq(pcol_b_cstr(b, "a", &va, NULL), 0);
  cr_assert_eq(pcol_b_cstr(b, "b", &vb, NULL), 0);
  pcol_label_row la = {k, va, 0, 0}, lb = {k, vb, 0, 0};
  cr_assert_eq(pcol_b_labelset(b, &la, 1, &lsa, NULL), 0);
  cr_assert_eq(pcol_b_labelset(b, &lb, 1, &lsb, NULL), 0);
  const uint32_t st[] = {s1, s2, s1, s1, s2, s2, s2}, ls[] = {lsa, lsa, lsb, lsa, lsb, lsb, 0};
  const int64_t val[] = {10, 3, 4, 20, 6, -6, 0}; /* rows 0..6 */
  void *mem;
  pcol_value_sel v;
  pcol_file *fl = WITH_SAMPLES(b, src, vt, 7, st, ls, val, &mem, &v);
  pcol_error err = {0};
  traces_seen seen = {0};
  cr_assert_eq(pcol_traces_iter(fl, NULL, &v, collect_trace, &seen, &err), 0, "%s", err.message);
  /* (s1, a) = rows 0 + 3; (s2, a) row 1; (s1, b) row 2; (s2, b) adds up to
   * 0 and (s2, none) is 0: both left out */
  cr_assert_eq(seen.n, 3, "%zu traces", seen.n);
  cr_expect_eq(seen.row[0], 0);
  cr_expect_eq(seen.value[0], 30);
  cr_expect_eq(seen.row[1], 1);
  cr_expect_eq(seen.value[1], 3);
  cr_expect_eq(seen.row[2], 2);
  cr_expect_eq(seen.value[2], 4);
  pcol_close(fl);
  free(mem);
}

/* pprof -tagshow/-taghide (FilterTagsByName): tags lists only the keys
 * they let through, traces prints only those labels but keeps its traces
 * (merged by every label as pprof read them), top --by label ignores them
 * (-tagroot's nodes are made first). */
typedef struct traces_labels {
  size_t n, nlabels[4];
  int64_t value[4];
  char key0[4][8];
} traces_labels;
static int collect_labels(void *ctx, const pcol_trace *t) {
  traces_labels *s = ctx;
  cr_assert(s->n < 4);
  s->value[s->n] = t->value;
  s->nlabels[s->n] = t->nlabels;
  if (t->nlabels) snprintf(s->key0[s->n], 8, "%.*s", (int)t->labels[0].key.len, t->labels[0].key.ptr);
  s->n++;
  return 0;
}
Test(tags, tagshow_and_taghide_choose_keys_not_samples) {
  uint32_t src, vt, k, j, va, vb, vx, ls1, ls2;
  pcol_builder *b = NEWB(&src, "pprof");
  cr_assert_eq(pcol_b_value_type(b, S(b, "samples"), S(b, "count"), &vt, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  uint32_t st = STK(b, LOC(b, FN(b, "main", "m.go"), 1), 0);
  cr_assert_eq(pcol_b_cstr(b, "k", &k, NULL), 0);
  cr_assert_eq(pcol_b_cstr(b, "j", &j, NULL), 0);
  cr_assert_eq(pcol_b_cstr(b, "a", &va, NULL), 0);
  cr_assert_eq(pcol_b_cstr(b, "b", &vb, NULL), 0);
  cr_assert_eq(pcol_b_cstr(b, "x", &vx, NULL), 0);
  pcol_label_row l1[] = {{j, vx, 0, 0}, {k, va, 0, 0}}, l2[] = {{j, vx, 0, 0}, {k, vb, 0, 0}};
  cr_assert_eq(pcol_b_labelset(b, l1, 2, &ls1, NULL), 0);
  cr_assert_eq(pcol_b_labelset(b, l2, 2, &ls2, NULL), 0);
  const uint32_t sts[] = {st, st, st}, ls[] = {ls1, ls2, ls1};
  const int64_t val[] = {5, 7, 1};
  void *mem;
  pcol_value_sel v;
  pcol_file *fl = WITH_SAMPLES(b, src, vt, 3, sts, ls, val, &mem, &v);
  pcol_error err = {0};
  pcol_tags t;
  pcol_select none = {0}, hide_k = {.tag_hide = "^k$"}, show_k = {.tag_show = "k"},
              nothing = {.tag_show = "k", .tag_hide = "."};
  cr_assert_eq(pcol_tags_compute(fl, &none, &v, &t, &err), 0, "%s", err.message);
  cr_expect_eq(t.nkeys, 2);
  pcol_tags_free(&t);
  cr_assert_eq(pcol_tags_compute(fl, &hide_k, &v, &t, &err), 0, "%s", err.message);
  cr_assert_eq(t.nkeys, 1);
  cr_expect(t.keys[0].key.len == 1 && t.keys[0].key.ptr[0] == 'j' && t.keys[0].total == 13);
  pcol_tags_free(&t);
  cr_assert_eq(pcol_tags_compute(fl, &nothing, &v, &t, &err), 0, "%s", err.message);
  cr_expect_eq(t.nkeys, 0);
  pcol_tags_free(&t);
  traces_labels seen = {0};
  cr_assert_eq(pcol_traces_iter(fl, &show_k, &v, collect_labels, &seen, &err), 0, "%s", err.message);
  cr_assert_eq(seen.n, 2, "%zu traces", seen.n); /* (st, ls1) = 5 + 1, (st, ls2) = 7 */
  cr_expect(seen.value[0] == 6 && seen.value[1] == 7);
  cr_expect(seen.nlabels[0] == 1 && seen.nlabels[1] == 1);
  cr_expect_str_eq(seen.key0[0], "k");
  memset(&seen, 0, sizeof seen);
  cr_assert_eq(pcol_traces_iter(fl, &nothing, &v, collect_labels, &seen, &err), 0, "%s", err.message);
  cr_expect(seen.n == 2 && seen.nlabels[0] == 0 && seen.nlabels[1] == 0);
  pcol_top bl;
  cr_assert_eq(pcol_top_by_label(fl, &hide_k, &v, "k", &bl, &err), 0, "%s", err.message);
  cr_expect_eq(bl.nrows, 2);
  pcol_top_free(&bl);
  pcol_select bad = {.tag_show = "("};
  cr_expect_eq(pcol_tags_compute(fl, &bad, &v, &t, &err), PCOL_EINVAL);
  cr_expect(strstr(err.message, "--tagshow"), "%s", err.message);
  pcol_close(fl);
  free(mem);
}

/* Only a pprof source's stored values are pprof's values: a sample of
 * another source (an Rprof memory sample whose fields are all 0) is kept,
 * as in pprof's reading of the pprof export (its count is 1). */
Test(traces, zero_values_drop_only_pprof_samples) {
  uint32_t src, vt;
  pcol_builder *b = NEWB(&src, "rprof");
  cr_assert_eq(pcol_b_value_type(b, S(b, "small_v"), S(b, "cells"), &vt, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  uint32_t m = LOC(b, FN(b, "main", "m.R"), 1);
  pcol_sample_row s = {src, 0, 0, 1, PCOL_NA_I64, STK(b, m, 0), 0};
  pcol_value_row v0 = {vt, 0};
  cr_assert_eq(pcol_b_sample(b, &s, &v0, 1, NULL, NULL), 0);
  void *mem;
  pcol_file *fl = tu_reopen(b, NULL, &mem);
  pcol_builder_free(b);
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(fl, NULL, "samples", &v, &err), 0, "%s", err.message);
  traces_seen seen = {0};
  cr_assert_eq(pcol_traces_iter(fl, NULL, &v, collect_trace, &seen, &err), 0, "%s", err.message);
  cr_assert_eq(seen.n, 1, "%zu traces", seen.n);
  cr_expect_eq(seen.value[0], 1);
  pcol_close(fl);
  free(mem);
}

/* pcol_top_compute_cut names and sorts only the rows the cut keeps: its
 * rows must be those of compute + cutoff + sort, in the same order, for
 * every granularity and order (real pprof profiles: inlined frames,
 * unsymbolized frames, addresses). */
static void SAME_ROWS(const pcol_top *a, const pcol_top *b, const char *what) {
  cr_assert_eq(a->nrows, b->nrows, "%s: %zu rows, want %zu", what, b->nrows, a->nrows);
  for (size_t i = 0; i < a->nrows; i++) {
    const pcol_top_row *x = &a->rows[i], *y = &b->rows[i];
    cr_assert(x->name.len == y->name.len && !memcmp(x->name.ptr, y->name.ptr, x->name.len),
              "%s row %zu: '%.*s', want '%.*s'", what, i, (int)y->name.len, y->name.ptr,
              (int)x->name.len, x->name.ptr);
    cr_assert(x->flat == y->flat && x->cum == y->cum && x->inl == y->inl, "%s row %zu", what, i);
  }
}

Test(top, cut_before_naming_gives_the_rows_of_compute_cutoff_sort) {
  SKIP_WITHOUT_TESTDATA();
  const char *files[] = {"go-cpu-large.pb.gz", "go-heap-allocs-inline.pb.gz",
                         "cpp-cpu-unsymbolized-mappings.pb.gz", "java-cpu-async-profiler.pb.gz"};
  const pcol_by bys[] = {PCOL_BY_FUNCTION, PCOL_BY_LINE, PCOL_BY_FILE, PCOL_BY_SOURCE_LINE,
                         PCOL_BY_ADDRESS};
  const double fractions[] = {0, 0.005, 0.05};
  for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
    void *mem;
    pcol_error err = {0};
    pcol_file *f = import_as("pprof", files[k], PCOL_FMT_PPROF, 0, &mem);
    pcol_value_sel v;
    cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, &err), 0, "%s", err.message);
    size_t cut_some = 0;
    for (size_t i = 0; i < sizeof bys / sizeof bys[0]; i++)
      for (size_t j = 0; j < sizeof fractions / sizeof fractions[0]; j++) {
        /* compute + cutoff once; each order sorts the same rows (the three
         * orders are total: a row's key breaks every tie) */
        pcol_top want;
        cr_assert_eq(pcol_top_compute(f, NULL, &v, bys[i], &want, &err), 0, "%s", err.message);
        pcol_sum wl = -1;
        size_t wd = pcol_top_cutoff(&want, fractions[j], &wl);
        for (int order = PCOL_SORT_FLAT; order <= PCOL_SORT_NAME; order++) {
          pcol_top got;
          pcol_sum gl = -2;
          size_t gd = 0;
          pcol_top_sort(&want, (pcol_sort)order);
          cr_assert_eq(pcol_top_compute_cut(f, NULL, &v, bys[i], fractions[j], (pcol_sort)order,
                                            &got, &gd, &gl, &err),
                       0, "%s", err.message);
          char what[256];
          snprintf(what, sizeof what, "%s by %d fraction %g order %d", files[k], (int)bys[i],
                   fractions[j], order);
          cr_assert_eq(wd, gd, "%s: dropped %zu, want %zu", what, gd, wd);
          cr_assert(wl == gl, "%s: label cutoff", what);
          SAME_ROWS(&want, &got, what);
          cut_some += wd > 0;
          pcol_top_free(&got);
        }
        pcol_top_free(&want);
      }
    cr_assert(cut_some > 0, "%s: no fraction dropped a row; the test proves nothing", files[k]);
    pcol_close(f);
    free(mem);
  }
}

/* By line, two functions of one name and file are one row per line (pprof
 * keys a node by name, file and line); a function without a file is
 * "NAME :LINE", without a line "NAME FILE". */
Test(top, line_rows_merge_by_name_file_and_line) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "pprof");
  uint32_t f1 = FN(b, "f", "a.c"), f2 = FN(b, "f", "a.c"), g = FN(b, "g", ""), m = FN(b, "main", "m.c");
  uint32_t l1 = LOC(b, f1, 3), l2 = LOC(b, f2, 3), l3 = LOC(b, g, 7), l4 = LOC(b, m, PCOL_NA_I64);
  SAMPLE(b, src, 0, 0, 2, STK(b, l1, l4, 0), NULL, 0);
  SAMPLE(b, src, 1, 0, 3, STK(b, l2, l3, l4, 0), NULL, 0);
  SAMPLE(b, src, 2, 0, 5, STK(b, l3, l1, l4, 0), NULL, 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_builder_free(b);
  pcol_top t;
  TOP(f, NULL, NULL, PCOL_BY_LINE, &t);
  EXPECT(&t, "f a.c:3", 5, 10);
  EXPECT(&t, "g :7", 5, 8);
  EXPECT(&t, "main m.c", 0, 10);
  cr_expect_eq(t.nrows, 3);
  pcol_top_free(&t);
  TOP(f, NULL, NULL, PCOL_BY_SOURCE_LINE, &t); /* g has no file: its flat goes to its caller */
  EXPECT(&t, "a.c:3", 10, 10);
  cr_expect_eq(t.nrows, 1);
  pcol_top_free(&t);
  pcol_close(f);
  free(mem);
}

/* Random deep stacks over a few functions (recursion everywhere), some
 * locations inlined (two or three lines): top's flat and cum, computed on
 * the stack nodes, against a reference that walks every sample's whole
 * stack and counts each function once per sample; and the "(inline)" marks
 * of the full result (made on the flat keys) against those of the same
 * rows marked again as kept rows (the walk that finds the innermost kept
 * key itself). */
Test(top, deep_recursive_stacks_match_a_per_sample_reference) {
  enum { NF = 12, NL = 24, NS = 400, MAXD = 160 };
  uint32_t src;
  pcol_builder *b = NEWB(&src, "pprof");
  uint32_t fn[NF], loc[NL], lfn[NL][3], nlf[NL];
  char name[16];
  for (int i = 0; i < NF; i++) {
    snprintf(name, sizeof name, "f%d", i);
    fn[i] = FN(b, name, "r.go");
  }
  uint64_t x = 88172645463325252ull; /* xorshift64 */
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
  for (int l = 0; l < NL; l++) {
    pcol_line_row lines[3];
    nlf[l] = l % 4 == 3 ? 2 + (uint32_t)(RND() % 2) : 1;
    for (uint32_t j = 0; j < nlf[l]; j++) {
      /* the inner lines call f9..f11, which are also called (not inlined)
       * from a few locations of their own */
      lfn[l][j] = j + 1 < nlf[l] || l % 8 == 5 ? NF - 3 + (uint32_t)(RND() % 3)
                                                : (uint32_t)(RND() % (NF - 3));
      lines[j] = (pcol_line_row){fn[lfn[l][j]], 10 + l, PCOL_NA_I64};
    }
    cr_assert_eq(pcol_b_location(b, 0, 0x1000 + (uint64_t)l, 0, lines, nlf[l], &loc[l], NULL), 0);
  }
  int64_t flat[NF] = {0}, cum[NF] = {0}, total = 0;
  static uint32_t st[NS][MAXD]; /* leaf first */
  int depth[NS];
  for (int s = 0; s < NS; s++) {
    /* half the stacks share a prefix with an earlier one (branches) */
    int d = 0;
    if (s && RND() % 2) {
      int o = (int)(RND() % (uint64_t)s);
      int keep = (int)(RND() % (uint64_t)depth[o]);
      for (int j = 0; j < keep; j++) st[s][MAXD - 1 - j] = st[o][depth[o] - 1 - j];
      d = keep;
    }
    int want = 1 + (int)(RND() % (MAXD - 1));
    if (want < d + 1) want = d + 1;
    for (; d < want; d++) st[s][MAXD - 1 - d] = loc[RND() % NL];
    depth[s] = d;
    memmove(st[s], st[s] + MAXD - d, (size_t)d * sizeof st[s][0]);
    uint32_t id;
    cr_assert_eq(pcol_b_stack(b, st[s], (size_t)d, &id, NULL), 0);
    int64_t w = 1 + (int64_t)(RND() % 50);
    SAMPLE(b, src, s, 0, w, id, NULL, 0);
    total += w;
    /* reference: the leaf's innermost line is flat; every function once */
    int l0 = 0;
    while (loc[l0] != st[s][0]) l0++;
    flat[lfn[l0][0]] += w;
    int seen[NF] = {0};
    for (int j = 0; j < d; j++) {
      int l = 0;
      while (loc[l] != st[s][j]) l++;
      for (uint32_t k = 0; k < nlf[l]; k++) seen[lfn[l][k]] = 1;
    }
    for (int i = 0; i < NF; i++) cum[i] += seen[i] ? w : 0;
  }
#undef RND
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_top t;
  TOP(f, NULL, NULL, PCOL_BY_FUNCTION, &t);
  cr_assert_eq(t.total, total);
  for (int i = 0; i < NF; i++) {
    snprintf(name, sizeof name, "f%d", i);
    if (flat[i] || cum[i]) EXPECT(&t, name, flat[i], cum[i]);
    else cr_expect(ROW(&t, name) == NULL, "%s has no weight", name);
  }
  int inl[NF + 1], marked = 0;
  for (size_t i = 0; i < t.nrows; i++) marked += (inl[i] = t.rows[i].inl) != 0;
  pcol_error err = {0};
  cr_assert_eq(pcol_top_mark_inline(&t, &err), 0, "%s", err.message);
  for (size_t i = 0; i < t.nrows; i++)
    cr_expect_eq(t.rows[i].inl, inl[i], "row %zu: inline mark %d, kept rows %d", i, inl[i],
                 t.rows[i].inl);
  cr_expect(marked > 0, "f9..f11 are inlined");
  pcol_top_free(&t);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* ---------------------------------------------------- frame rows */
/* pcol_frame_rows_scan's rows, copied (names into one buffer each). */
typedef struct frow {
  uint64_t sample;
  uint32_t depth, loc;
  char name[128];
  int64_t line, value;
  uint8_t self, first, inl;
} frow;
typedef struct fr_acc {
  pcol_frame_rows b;
  frow *r;
  size_t n, cap, calls;
} fr_acc;
static int fr_take(void *ctx, size_t n) {
  fr_acc *a = ctx;
  a->calls++;
  for (size_t i = 0; i < n; i++) {
    if (a->n == a->cap) {
      a->cap = a->cap ? 2 * a->cap : 64;
      a->r = realloc(a->r, a->cap * sizeof *a->r);
      cr_assert(a->r != NULL);
    }
    frow *r = &a->r[a->n++];
    memset(r, 0, sizeof *r);
    r->sample = a->b.sample_id[i];
    r->depth = a->b.depth[i];
    r->loc = a->b.location_id[i];
    size_t l = a->b.name[i].len < 127 ? a->b.name[i].len : 127;
    if (l) memcpy(r->name, a->b.name[i].ptr, l);
    r->line = a->b.line[i];
    r->value = a->b.value[i];
    r->self = a->b.self[i];
    r->first = a->b.first[i];
    r->inl = a->b.inlined[i];
  }
  return 0;
}
static void FRAMES(pcol_file *f, const pcol_select *sel, const char *value, pcol_by by, size_t cap,
                   fr_acc *a) {
  memset(a, 0, sizeof *a);
  a->b.cap = cap;
  a->b.sample_id = calloc(cap, 8);
  a->b.depth = calloc(cap, 4);
  a->b.location_id = calloc(cap, 4);
  a->b.name = calloc(cap, sizeof(pcol_str));
  a->b.line = calloc(cap, 8);
  a->b.value = calloc(cap, 8);
  a->b.self = calloc(cap, 1);
  a->b.first = calloc(cap, 1);
  a->b.inlined = calloc(cap, 1);
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, sel, value, &v, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_frame_rows_scan(f, sel, &v, by, &a->b, fr_take, a, &err), 0, "%s", err.message);
  free(a->b.sample_id);
  free(a->b.depth);
  free(a->b.location_id);
  free(a->b.name);
  free(a->b.line);
  free(a->b.value);
  free(a->b.self);
  free(a->b.first);
  free(a->b.inlined);
}

Test(frame_rows, rows_of_a_recursive_stack_by_hand) {
  pcol_builder *b;
  void *mem;
  pcol_file *fl = RECURSION(&b, &mem);
  fr_acc a;
  FRAMES(fl, NULL, NULL, PCOL_BY_FUNCTION, 3, &a); /* 3 rows a call: samples span calls */
  /* 3 x g f f main, f main, 2 x h main: 12 + 2 + 4 rows, fn(ctx, 0) first */
  cr_assert_eq(a.n, 18);
  cr_expect_eq(a.calls, 1 + 6);
  static const char *const nm[4] = {"g", "f", "f", "main"};
  static const uint8_t first[4] = {1, 0, 1, 1}; /* the outer f counts cum */
  for (uint32_t i = 0; i < 4; i++) {
    cr_expect_str_eq(a.r[i].name, nm[i]);
    cr_expect_eq(a.r[i].depth, i + 1);
    cr_expect_eq(a.r[i].self, i == 0);
    cr_expect_eq(a.r[i].first, first[i], "row %u", i);
    cr_expect_eq(a.r[i].sample, 1);
    cr_expect_eq(a.r[i].value, 1);
    cr_expect_eq(a.r[i].line, (int64_t)(i == 0 ? 3 : i == 3 ? 1 : 2));
  }
  cr_expect_str_eq(a.r[12].name, "f");
  cr_expect_eq(a.r[12].sample, 4);
  cr_expect_str_eq(a.r[17].name, "main");
  cr_expect_eq(a.r[17].sample, 6);
  cr_expect_eq(a.r[17].depth, 2);
  free(a.r);
  /* a range keeps the samples of [2, 4) ns */
  pcol_select sel = {.has_from = 1, .from_ns = 2, .has_to = 1, .to_ns = 4};
  FRAMES(fl, &sel, NULL, PCOL_BY_FUNCTION, 100, &a);
  cr_expect_eq(a.n, 4 + 2);
  cr_expect_eq(a.r[0].sample, 3);
  free(a.r);
  pcol_close(fl);
  free(mem);
  pcol_builder_free(b);
}

/* An inline chain, an unsymbolized address in a mapped library, a
 * location of a function without a name (a pprof frame of its own). */
Test(frame_rows, inline_and_unsymbolized_frames_by_hand) {
  uint32_t src;
  pcol_builder *b = NEWB(&src, "pprof");
  pcol_mapping_row m = {0x1000, 0x2000, 0, S(b, "/usr/lib/libc.so.6"), 0, 0};
  uint32_t map, inl, un, nn;
  cr_assert_eq(pcol_b_mapping(b, &m, 1, &map, NULL), 0);
  pcol_line_row lines[2] = {{FN(b, "inner", "a.go"), 7, PCOL_NA_I64}, {FN(b, "outer", "a.go"), 20, PCOL_NA_I64}};
  cr_assert_eq(pcol_b_location(b, 0, 0x10, 0, lines, 2, &inl, NULL), 0);
  cr_assert_eq(pcol_b_location(b, map, 0x1234, 0, NULL, 0, &un, NULL), 0);
  pcol_function_row fr = {0, 0, S(b, "b.c"), PCOL_NA_I64};
  pcol_line_row l3 = {0, 5, PCOL_NA_I64};
  cr_assert_eq(pcol_b_function(b, &fr, &l3.function_id, NULL), 0);
  cr_assert_eq(pcol_b_location(b, map, 0x1300, 0, &l3, 1, &nn, NULL), 0);
  uint32_t main = LOC(b, FN(b, "main", "a.go"), 1);
  SAMPLE(b, src, 0, 0, 5, STK(b, un, inl, main, 0), NULL, 0);
  SAMPLE(b, src, 1, 0, 2, STK(b, nn, main, 0), NULL, 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  fr_acc a;
  FRAMES(f, NULL, "weight", PCOL_BY_FUNCTION, 64, &a);
  cr_assert_eq(a.n, 4 + 2);
  static const char *const nm[6] = {"[libc.so.6]", "inner", "outer", "main", "[libc.so.6]", "main"};
  static const int64_t ln[6] = {PCOL_NA_I64, 7, 20, 1, 5, 1};
  static const uint8_t il[6] = {0, 1, 0, 0, 0, 0};
  for (int i = 0; i < 6; i++) {
    cr_expect_str_eq(a.r[i].name, nm[i], "row %d", i);
    cr_expect_eq(a.r[i].line, ln[i], "row %d", i);
    cr_expect_eq(a.r[i].inl, il[i], "row %d", i);
    cr_expect_eq(a.r[i].value, i < 4 ? 5 : 2);
    cr_expect_eq(a.r[i].first, 1);
  }
  cr_expect_eq(a.r[1].loc, a.r[2].loc); /* one location, two lines */
  free(a.r);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* flat = sum of value where self, cum = where first, per name: pcol top's
 * rows exactly, on real profiles (inline frames, unsymbolized mappings,
 * recursion, Rprof refs), with a value, a range and a source. */
static void frames_match_top(pcol_file *f, const pcol_select *sel, const char *value, pcol_by by,
                             const char *what) {
  fr_acc a;
  FRAMES(f, sel, value, by, 1000, &a);
  pcol_top t;
  TOP(f, sel, value, by, &t);
  uint8_t *used = calloc(a.n + 1, 1);
  for (size_t i = 0; i < t.nrows; i++) {
    pcol_sum flat = 0, cum = 0;
    char nm[128] = "";
    memcpy(nm, t.rows[i].name.ptr, t.rows[i].name.len < 127 ? t.rows[i].name.len : 127);
    for (size_t j = 0; j < a.n; j++)
      if (!strcmp(a.r[j].name, nm)) {
        used[j] = 1;
        if (a.r[j].self) flat += a.r[j].value;
        if (a.r[j].first) cum += a.r[j].value;
      }
    cr_expect(flat == t.rows[i].flat && cum == t.rows[i].cum, "%s: %s flat %lld/%lld cum %lld/%lld",
              what, nm, (long long)flat, (long long)t.rows[i].flat, (long long)cum,
              (long long)t.rows[i].cum);
  }
  size_t extra = 0; /* a name top has no row for adds up to 0 */
  for (size_t j = 0; j < a.n; j++) extra += !used[j];
  cr_expect_eq(extra, 0, "%s: %zu rows of names top does not show", what, extra);
  cr_expect_gt(a.n, 0, "%s: no rows", what);
  free(used);
  free(a.r);
  pcol_top_free(&t);
}

Test(frame_rows, sums_equal_top_on_real_profiles) {
  SKIP_WITHOUT_TESTDATA();
  void *mem;
  pcol_file *f = import_as("pprof", "go-cpu-inline-small.pb.gz", PCOL_FMT_PPROF, 0, &mem);
  frames_match_top(f, NULL, NULL, PCOL_BY_FUNCTION, "go inline");
  frames_match_top(f, NULL, "samples", PCOL_BY_LINE, "go inline by line");
  frames_match_top(f, NULL, NULL, PCOL_BY_FILE, "go inline by file");
  pcol_close(f);
  free(mem);
  f = import_as("pprof", "cpp-cpu-unsymbolized-mappings.pb.gz", PCOL_FMT_PPROF, 0, &mem);
  frames_match_top(f, NULL, NULL, PCOL_BY_FUNCTION, "cpp unsymbolized");
  frames_match_top(f, NULL, NULL, PCOL_BY_ADDRESS, "cpp by address");
  pcol_close(f);
  free(mem);
  f = import("proftools__Rprof-rec.out", 0, &mem);
  frames_match_top(f, NULL, NULL, PCOL_BY_FUNCTION, "Rprof recursion");
  pcol_select sel = {.has_from = 1, .from_ns = 1000000000, .has_to = 1, .to_ns = 2500000000};
  frames_match_top(f, &sel, "samples", PCOL_BY_FUNCTION, "Rprof range");
  pcol_close(f);
  free(mem);
  f = import("proftools__Rprof-dg.out", 1, &mem); /* coalesced: long samples cut by the range */
  sel = (pcol_select){.source_id = 1, .has_from = 1, .from_ns = 1010000000, .has_to = 1, .to_ns = 2990000000};
  frames_match_top(f, &sel, NULL, PCOL_BY_FUNCTION, "Rprof cut long samples");
  frames_match_top(f, NULL, NULL, PCOL_BY_LINE, "Rprof by line");
  pcol_close(f);
  free(mem);
}

Test(frame_rows, refuses_filters_and_bad_granularity) {
  pcol_builder *b;
  void *mem;
  pcol_file *fl = RECURSION(&b, &mem);
  pcol_frame_rows fb = {0};
  uint64_t id[4];
  fb.cap = 4;
  fb.sample_id = id;
  pcol_value_sel v = {0};
  pcol_error err = {0};
  pcol_select sel = {.focus = "f"};
  cr_expect_eq(pcol_frame_rows_scan(fl, &sel, &v, PCOL_BY_FUNCTION, &fb, fr_take, NULL, &err), PCOL_EINVAL);
  cr_expect_eq(pcol_frame_rows_scan(fl, NULL, &v, (pcol_by)9, &fb, fr_take, NULL, &err), PCOL_EINVAL);
  pcol_close(fl);
  free(mem);
  pcol_builder_free(b);
}

/* pprof's -divide_by (report.go New: int64(float64(v) * Ratio) when
 * Ratio > 0 && Ratio != 1; selectOutputUnit on the scaled values) */
Test(units, divide_by_ratio) {
  cr_assert(pcol_unit_ratio(10, 1.0 / 3) == 3);
  cr_assert(pcol_unit_ratio(-10, 1.0 / 3) == -3); /* toward 0 */
  cr_assert(pcol_unit_ratio(-1, 0.5) == 0);
  cr_assert(pcol_unit_ratio(7, 2) == 14);
  cr_assert(pcol_unit_ratio(7, 1) == 7);
  cr_assert(pcol_unit_ratio(7, -0.5) == 7); /* a negative F: ignored, as pprof */
  cr_assert(pcol_unit_ratio(7, NAN) == 7);
  cr_assert(pcol_unit_ratio(INT64_MAX, 4) == INT64_MIN); /* Go's int64() past the range, amd64 */
  cr_assert(pcol_unit_ratio(0, INFINITY) == INT64_MIN);  /* 0 x inf is NaN */
  pcol_str ns = {"nanoseconds", 11};
  char u[32], b[64];
  pcol_sum vals[] = {4000000, 20000000}; /* 4 ms, 20 ms of 1 s */
  pcol_unit_pick_ratio(vals, 2, 1000000000, ns, false, 1, u, sizeof u);
  cr_assert_str_eq(u, "ms");
  pcol_unit_pick_ratio(vals, 2, 1000000000, ns, false, 1e-3, u, sizeof u); /* 4 us .. 1 ms */
  cr_assert_str_eq(u, "us");
  pcol_unit_pick_ratio(vals, 2, 1000000000, ns, true, 1e-3, u, sizeof u); /* callgrind: 4 us */
  cr_assert_str_eq(u, "us");
  pcol_unit_label(pcol_unit_ratio(INT64_MAX, 4), (pcol_str){"bytes", 5}, "minimum", b, sizeof b);
  cr_assert_str_eq(b, "-9223372036854775808B"); /* measurement.Scale cannot negate MinInt64 */
}

/* THE cut rule (utf8.c pcol_utf8_cut): at most max bytes, never inside a
 * well-formed character, a byte of none alone; and the units that use it
 * (pcol_unit_label_alone, pcol_unit_pick: 31 bytes, a NUL as '?') */
Test(units, utf8_cut) {
  cr_assert_eq(pcol_utf8_len("a", 1), 1);
  cr_assert_eq(pcol_utf8_len("", 1), 1);
  cr_assert_eq(pcol_utf8_len("\xc2\xb5", 2), 2);
  cr_assert_eq(pcol_utf8_len("\xc2\xb5", 1), 0);                /* cut short */
  cr_assert_eq(pcol_utf8_len("\xf4\x90\x80\x80", 4), 0);        /* past U+10FFFF */
  cr_assert_eq(pcol_utf8_len("\xef\xbf\xbd", 3), 3);             /* U+FFFD itself */
  cr_assert_eq(pcol_utf8_cut(NULL, 0, 5), 0);
  cr_assert_eq(pcol_utf8_cut("abc", 3, 3), 3);
  cr_assert_eq(pcol_utf8_cut("abcd", 4, 3), 3);
  cr_assert_eq(pcol_utf8_cut("a\xc2\xb5", 3, 2), 1);            /* inside a 2-byte character */
  cr_assert_eq(pcol_utf8_cut("ab\xe4\xb8\xadz", 6, 4), 2);       /* inside a 3-byte one */
  cr_assert_eq(pcol_utf8_cut("\xf0\x9f\x98\x80z", 5, 4), 4);     /* a 4-byte one whole */
  cr_assert_eq(pcol_utf8_cut("\xf0\x9f\x98\x80z", 5, 3), 0);
  cr_assert_eq(pcol_utf8_cut("\xe4\xb8\xff\x80z", 5, 3), 3);     /* broken: a byte each */
  cr_assert_eq(pcol_utf8_cut("\xed\xa0\x80z", 4, 2), 2);         /* a surrogate is no character */
  cr_assert_eq(pcol_utf8_cut("\xc0\xafz", 3, 1), 1);             /* nor an overlong form */
  cr_assert_eq(pcol_utf8_cut("a\0\xc2\xb5", 4, 3), 2);           /* NUL is a byte */
  char b[64], u[32];
  /* "unitxx" + "µs" x 12: byte 31 inside a µ */
  const char *mu = "unitxx\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s"
                   "\xc2\xb5s\xc2\xb5s\xc2\xb5s";
  pcol_unit_label_alone(7, (pcol_str){mu, strlen(mu)}, b, sizeof b);
  cr_assert_str_eq(b, "7unitxx\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s\xc2\xb5s");
  pcol_sum vals[] = {7};
  pcol_unit_pick(vals, 1, 7, (pcol_str){mu, strlen(mu)}, u, sizeof u);
  cr_assert_eq(strlen(u), 30);
  cr_assert(!memcmp(u, mu, 30));
  pcol_unit_label_alone(7, (pcol_str){"a\0b", 3}, b, sizeof b);
  cr_assert_str_eq(b, "7a?b");
}
