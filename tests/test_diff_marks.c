/* test_diff_marks.c — pcol_diff_mark_inline: a diff's "(inline)" marks are
 * those of the graph of both sides merged, the base negated (go tool pprof
 * -diff_base's, `pcol top NEW --diff-base BASE`'s), not each side's marks
 * joined (rd21 F5); sides go refuses to merge keep the joined marks, and
 * other failures are errors (review h7). */
#include "testutil.h"
#include <unistd.h>

/* Allocations fail from the fail_at-th on (counted while armed), for the
 * merge's failures below.  The sanitizers' allocators cannot be replaced:
 * the test is skipped in their builds. */
#if defined(__SANITIZE_ADDRESS__)
#define NO_MALLOC_HOOK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_MALLOC_HOOK 1
#endif
#endif
#ifndef NO_MALLOC_HOOK
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static volatile int armed;
static volatile long allocs, fail_at;
static int alloc_fails(void) { return armed && __atomic_add_fetch(&allocs, 1, __ATOMIC_SEQ_CST) >= fail_at; }
void *malloc(size_t n) { return alloc_fails() ? NULL : __libc_malloc(n); }
void *calloc(size_t n, size_t m) { return alloc_fails() ? NULL : __libc_calloc(n, m); }
void *realloc(void *p, size_t n) { return alloc_fails() ? NULL : __libc_realloc(p, n); }
#endif

static pcol_file *open_td(const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/pprof/%s", testdata_dir(), name);
  pcol_file *f = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_any(path, NULL, &f, &err), PCOL_OK, "%s: %s", path, err.message);
  return f;
}

/* the diff of base and nw as pcol diff --absolute computes it (each side's
 * default value, joined marks) */
static void diff_of(pcol_file *base, pcol_file *nw, pcol_top *tb, pcol_top *tn, pcol_diff *d) {
  pcol_error err = {0};
  pcol_select sel;
  memset(&sel, 0, sizeof sel);
  pcol_value_sel vb, vn;
  cr_assert_eq(pcol_value_resolve(base, &sel, NULL, &vb, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_value_resolve(nw, &sel, NULL, &vn, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_value_diff_default(base, nw, &sel, NULL, &vb, &vn, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_top_compute(base, &sel, &vb, PCOL_BY_FUNCTION, tb, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_top_compute(nw, &sel, &vn, PCOL_BY_FUNCTION, tn, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_diff_compute(tb, tn, true, d, &err), PCOL_OK, "%s", err.message);
}

static const pcol_diff_row *row_named(const pcol_diff *d, const char *name) {
  for (size_t k = 0; k < d->nrows; k++)
    if (d->rows[k].name.len == strlen(name) && !memcmp(d->rows[k].name.ptr, name, d->rows[k].name.len))
      return &d->rows[k];
  return NULL;
}

/* the merged top, as `pcol top NEW --diff-base BASE --node-fraction 0 -n
 * 0` computes it (the library's merge and top; every row kept, so its
 * marks are of every row) */
static void top_diff_base(pcol_file *base, pcol_file *nw, pcol_file **u, pcol_top *t) {
  pcol_error err = {0};
  pcol_select sel;
  memset(&sel, 0, sizeof sel);
  pcol_value_sel v;
  cr_assert_eq(pcol_open_diff_base(nw, base, PCOL_BASE_DIFF, u, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_value_resolve(*u, &sel, NULL, &v, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_top_compute(*u, &sel, &v, PCOL_BY_FUNCTION, t, &err), PCOL_OK, "%s", err.message);
}
static int top_mark(const pcol_top *t, pcol_str name) {
  for (size_t k = 0; k < t->nrows; k++)
    if (t->rows[k].name.len == name.len && !memcmp(t->rows[k].name.ptr, name.ptr, name.len)) return t->rows[k].inl;
  return -1;
}

/* rd21 F5: math.Abs is inlined in go-cpu-inline-small (the base) alone.
 * Each side's marks joined say "(inline)"; the merged graph, where the
 * base's calls count negative and the small edges go, marks nothing, and
 * go tool pprof -diff_base says nothing (tests/interop/t_diff_marks.sh). */
Test(diff_marks, inlined_in_the_base_alone_is_not_marked) {
  SKIP_WITHOUT_TESTDATA();
  pcol_file *b = open_td("go-cpu-inline-small.pb.gz"), *n = open_td("go-cpu-large.pb.gz");
  pcol_top tb = {0}, tn = {0};
  pcol_diff d;
  diff_of(b, n, &tb, &tn, &d);
  const pcol_diff_row *r = row_named(&d, "math.Abs");
  cr_assert(r, "no row math.Abs");
  cr_assert_eq(r->inl, PCOL_INLINE_ONLY, "the joined mark of math.Abs: %d", r->inl);
  /* the base's own mark is the one joined */
  int base_inl = -1;
  for (size_t k = 0; k < tb.nrows; k++)
    if (tb.rows[k].name.len == 8 && !memcmp(tb.rows[k].name.ptr, "math.Abs", 8)) base_inl = tb.rows[k].inl;
  cr_assert_eq(base_inl, PCOL_INLINE_ONLY);
  pcol_error err = {0};
  bool merged = false;
  int marked = 0;
  cr_assert_eq(pcol_diff_mark_inline(b, n, NULL, NULL, &tn.value, PCOL_BY_FUNCTION, &d, d.nrows, &merged, &err),
               PCOL_OK, "%s", err.message);
  cr_assert(merged);
  r = row_named(&d, "math.Abs");
  cr_assert_eq(r->inl, PCOL_INLINE_NONE, "math.Abs marked %d in the merged graph", r->inl);
  pcol_file *u = NULL;
  pcol_top tu = {0};
  top_diff_base(b, n, &u, &tu);
  cr_assert_eq(top_mark(&tu, r->name), PCOL_INLINE_NONE);
  /* every row shown: the marks of the merged top's rows, row for row */
  for (size_t k = 0; k < d.nrows; k++) {
    int want = top_mark(&tu, d.rows[k].name);
    cr_assert_eq(d.rows[k].inl, want < 0 ? PCOL_INLINE_NONE : want, "%.*s: %d, top --diff-base %d",
                 (int)d.rows[k].name.len, d.rows[k].name.ptr, d.rows[k].inl, want);
    marked += d.rows[k].inl != PCOL_INLINE_NONE;
  }
  pcol_top_free(&tu);
  pcol_close(u);
  cr_assert_gt(marked, 0, "no row marked: nothing compared");
  /* the first 3 rows shown: the rows after them get no mark */
  cr_assert_eq(pcol_diff_mark_inline(b, n, NULL, NULL, &tn.value, PCOL_BY_FUNCTION, &d, 3, NULL, &err), PCOL_OK);
  for (size_t k = 3; k < d.nrows; k++) cr_assert_eq(d.rows[k].inl, PCOL_INLINE_NONE);
  pcol_diff_free(&d);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  pcol_close(b);
  pcol_close(n);
}

/* No row shown (shown 0, or a diff of no row): nothing to mark, so no
 * merge and no top of it (review LOW-4: the union and its top were made
 * for nothing); d stays as it is, *merged false. */
Test(diff_marks, no_row_shown_merges_nothing) {
  SKIP_WITHOUT_TESTDATA();
  pcol_file *b = open_td("go-cpu-inline-small.pb.gz"), *n = open_td("go-cpu-large.pb.gz");
  pcol_top tb = {0}, tn = {0};
  pcol_diff d;
  diff_of(b, n, &tb, &tn, &d);
  int *joined = malloc((d.nrows + 1) * sizeof *joined), marked = 0;
  cr_assert(joined);
  for (size_t k = 0; k < d.nrows; k++) joined[k] = d.rows[k].inl, marked += joined[k] != 0;
  cr_assert_gt(marked, 0, "no joined mark: nothing compared");
  pcol_error err = {0};
  bool merged = true;
  cr_assert_eq(pcol_diff_mark_inline(b, n, NULL, NULL, &tn.value, PCOL_BY_FUNCTION, &d, 0, &merged, &err),
               PCOL_OK, "%s", err.message);
  cr_assert(!merged, "merged for no row shown");
  for (size_t k = 0; k < d.nrows; k++) cr_assert_eq(d.rows[k].inl, joined[k]);
  pcol_diff none = {0};
  merged = true;
  cr_assert_eq(pcol_diff_mark_inline(b, n, NULL, NULL, &tn.value, PCOL_BY_FUNCTION, &none, 10, &merged, &err),
               PCOL_OK, "%s", err.message);
  cr_assert(!merged, "merged for a diff of no row");
  free(joined);
  pcol_diff_free(&d);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  pcol_close(b);
  pcol_close(n);
}

/* A pair go's -diff_base refuses to merge (a CPU profile against a heap
 * profile: period types cpu/nanoseconds and space/bytes), which pcol diff
 * compares by --value samples... of each: the joined marks stay, PCOL_OK,
 * *merged false; the merge's own refusal is PCOL_ENOTFOUND. */
Test(diff_marks, a_pair_go_refuses_keeps_the_joined_marks) {
  SKIP_WITHOUT_TESTDATA();
  pcol_file *b = open_td("go-heap-allocs-inline.pb.gz"), *n = open_td("go-cpu-inline-small.pb.gz");
  pcol_error err = {0};
  pcol_file *u = NULL;
  cr_assert_eq(pcol_open_diff_base(n, b, PCOL_BASE_DIFF, &u, &err), PCOL_ENOTFOUND, "%s", err.message);
  cr_assert_null(u);
  pcol_select sel;
  memset(&sel, 0, sizeof sel);
  pcol_value_sel vb, vn;
  cr_assert_eq(pcol_value_resolve(b, &sel, "samples", &vb, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_value_resolve(n, &sel, "samples", &vn, &err), PCOL_OK, "%s", err.message);
  pcol_top tb = {0}, tn = {0};
  pcol_diff d;
  cr_assert_eq(pcol_top_compute(b, &sel, &vb, PCOL_BY_FUNCTION, &tb, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_top_compute(n, &sel, &vn, PCOL_BY_FUNCTION, &tn, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_diff_compute(&tb, &tn, false, &d, &err), PCOL_OK, "%s", err.message);
  int *joined = malloc((d.nrows + 1) * sizeof *joined), marked = 0;
  cr_assert(joined);
  for (size_t k = 0; k < d.nrows; k++) joined[k] = d.rows[k].inl, marked += joined[k] != 0;
  cr_assert_gt(marked, 0, "no joined mark: nothing compared");
  bool merged = true;
  memset(&err, 0, sizeof err);
  cr_assert_eq(pcol_diff_mark_inline(b, n, &sel, NULL, &vn, PCOL_BY_FUNCTION, &d, d.nrows, &merged, &err),
               PCOL_OK, "%s", err.message);
  cr_assert(!merged);
  cr_assert_eq(err.code, 0, "the refusal left in err: %s", err.message);
  for (size_t k = 0; k < d.nrows; k++) cr_assert_eq(d.rows[k].inl, joined[k]);
  /* err may be NULL (pcol.h: every err), and a caller's warning in it
   * stays (review h6 MED-1: the refusal cleared err with memset, a NULL
   * one too) */
  cr_assert_eq(pcol_diff_mark_inline(b, n, &sel, NULL, &vn, PCOL_BY_FUNCTION, &d, d.nrows, NULL, NULL),
               PCOL_OK);
  pcol_error warned = {0};
  snprintf(warned.message, sizeof warned.message, "a caller's warning");
  cr_assert_eq(pcol_diff_mark_inline(b, n, &sel, NULL, &vn, PCOL_BY_FUNCTION, &d, d.nrows, NULL, &warned),
               PCOL_OK);
  cr_assert_str_eq(warned.message, "a caller's warning");
  free(joined);
  /* other failures are errors, never the joined marks (a NULL side) */
  cr_assert_eq(pcol_diff_mark_inline(NULL, n, &sel, NULL, &vn, PCOL_BY_FUNCTION, &d, d.nrows, NULL, &err),
               PCOL_EINVAL);
  pcol_diff_free(&d);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  pcol_close(b);
  pcol_close(n);
}

/* The merge failing (out of memory at each of its allocations in turn):
 * its message names the side it failed on, or both, by their sources'
 * names (review LOW-3: "out of memory" alone, no side named). */
Test(diff_marks, a_failed_merge_names_its_sides) {
#ifdef NO_MALLOC_HOOK
  cr_skip_test("a sanitizer's allocator: no allocation failures to make");
#else
  SKIP_WITHOUT_TESTDATA();
  pcol_file *b = open_td("go-cpu-inline-small.pb.gz"), *n = open_td("go-cpu-string-labels.pb.gz");
  pcol_top tb = {0}, tn = {0};
  pcol_diff d;
  diff_of(b, n, &tb, &tn, &d);
  int failed = 0, named_both = 0, rc = PCOL_ENOMEM;
  bool merged = false;
  for (long k = 1; k < 100000 && rc; k++) {
    pcol_error err = {0};
    allocs = 0, fail_at = k, armed = 1;
    rc = pcol_diff_mark_inline(b, n, NULL, NULL, &tn.value, PCOL_BY_FUNCTION, &d, d.nrows, &merged, &err);
    armed = 0;
    if (!rc && allocs >= fail_at && !merged) rc = PCOL_ENOMEM; /* (a failure taken for a refusal: go on) */
    if (rc == PCOL_OK) break;
    cr_assert_eq(rc, PCOL_ENOMEM, "allocation %ld: %d %s", k, rc, err.message);
    failed++;
    const char *both = "the (inline) marks' merge of the base (go-cpu-inline-small.pb.gz) and the profile "
                       "(go-cpu-string-labels.pb.gz): ";
    const char *nw = "the (inline) marks' merge, the profile (go-cpu-string-labels.pb.gz): ";
    named_both += !strncmp(err.message, both, strlen(both));
    cr_assert(!strncmp(err.message, both, strlen(both)) || !strncmp(err.message, nw, strlen(nw)),
              "allocation %ld: %s", k, err.message);
  }
  cr_assert_eq(rc, PCOL_OK);
  cr_assert(merged);
  cr_assert_gt(failed, 0, "no allocation failed: nothing shown");
  cr_assert_gt(named_both, 0);
  pcol_diff_free(&d);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  pcol_close(b);
  pcol_close(n);
#endif
}

/* A side's name is cut at 200 bytes on a character's boundary: a source
 * named "a" and 100 two-byte characters (".pb.gz" after) loses its last
 * whole character, not half of one (the message is printed, escaped, as
 * UTF-8). */
Test(diff_marks, a_long_side_name_is_cut_between_characters) {
#ifdef NO_MALLOC_HOOK
  cr_skip_test("a sanitizer's allocator: no allocation failures to make");
#else
  SKIP_WITHOUT_TESTDATA();
  char src[1024], dir[] = "/tmp/pcol-diffmarks-XXXXXX", path[1024], name[256];
  cr_assert(mkdtemp(dir));
  size_t nl = 0;
  name[nl++] = 'a';
  for (int i = 0; i < 100; i++) name[nl++] = (char)0xC3, name[nl++] = (char)0xA9; /* U+00E9 */
  memcpy(name + nl, ".pb.gz", 7);
  snprintf(src, sizeof src, "%s/pprof/go-cpu-string-labels.pb.gz", testdata_dir());
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *in = fopen(src, "rb"), *out = fopen(path, "wb");
  cr_assert(in && out);
  char buf[65536];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, in)) > 0) cr_assert_eq(fwrite(buf, 1, got, out), got);
  fclose(in);
  cr_assert_eq(fclose(out), 0);
  pcol_file *b = open_td("go-cpu-inline-small.pb.gz"), *n = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_any(path, NULL, &n, &err), PCOL_OK, "%s", err.message);
  pcol_top tb = {0}, tn = {0};
  pcol_diff d;
  diff_of(b, n, &tb, &tn, &d);
  int rc = PCOL_ENOMEM, seen = 0;
  bool merged = false;
  char want[256];
  snprintf(want, sizeof want, "the profile (%.199s)", name); /* "a" and 99 whole characters */
  for (long k = 1; k < 100000 && rc; k++) {
    err = (pcol_error){0};
    allocs = 0, fail_at = k, armed = 1;
    rc = pcol_diff_mark_inline(b, n, NULL, NULL, &tn.value, PCOL_BY_FUNCTION, &d, d.nrows, &merged, &err);
    armed = 0;
    if (!rc && allocs >= fail_at && !merged) rc = PCOL_ENOMEM;
    if (rc == PCOL_OK) break;
    const unsigned char *p = (const unsigned char *)err.message;
    for (size_t i = 0; p[i]; i++) /* no lead byte without its continuation */
      cr_assert(p[i] != 0xC3 || p[i + 1] == 0xA9, "allocation %ld: a character cut: %s", k, err.message);
    seen += strstr(err.message, want) != NULL;
  }
  cr_assert_eq(rc, PCOL_OK);
  cr_assert_gt(seen, 0, "no message named the profile's side");
  pcol_diff_free(&d);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  pcol_close(b);
  pcol_close(n);
  unlink(path);
  rmdir(dir);
#endif
}
