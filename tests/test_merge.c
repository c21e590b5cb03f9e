/* test_merge.c — pcol_b_add_file: merged files keep every source's
 * identity and share functions, locations, strings, value types. */
#include "testutil.h"
#include "reader.h"   /* pcol_release_min, pcol_release_rows */
#include "../lib/query/query.h" /* pcol_q_keytab, pcol_q_key_front */
#include <stdio.h>

#define S tu_cstr
static uint32_t LOC(pcol_builder *b, const char *fn, const char *file, int64_t line) {
  pcol_function_row r = {S(b, fn), 0, S(b, file), PCOL_NA_I64};
  uint32_t f, id;
  cr_assert_eq(pcol_b_function(b, &r, &f, NULL), 0);
  pcol_line_row l = {f, line, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &id, NULL), 0);
  return id;
}

/* one input: source `uri` with value type vt_name, samples of main;<leaf> */
static pcol_builder *input(const char *uri, const char *vt_name, const char *leaf, int n) {
  pcol_builder *b;
  uint32_t src, vt;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "rprof", uri, 1234, &src, NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "rprof.interval_us", "20000", NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, 0, "file.note", uri, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, vt_name), S(b, "bytes"), &vt, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  uint32_t locs[2] = {LOC(b, leaf, "x.R", 2), LOC(b, "main", "x.R", 1)};
  uint32_t st;
  cr_assert_eq(pcol_b_stack(b, locs, 2, &st, NULL), 0);
  pcol_label_row lab = {S(b, "thread"), S(b, uri), 0, 0};
  uint32_t ls;
  cr_assert_eq(pcol_b_labelset(b, &lab, 1, &ls, NULL), 0);
  cr_assert_eq(pcol_b_text_line(b, src, 1, "header", 6, NULL), 0);
  for (int i = 0; i < n; i++) {
    pcol_sample_row s = {src, i * 20000000LL, 0, 1, PCOL_NA_I64, st, ls};
    pcol_value_row v = {vt, 100 + i};
    cr_assert_eq(pcol_b_sample(b, &s, &v, 1, NULL, NULL), 0);
  }
  cr_assert_eq(pcol_b_sample_text(b, (uint32_t)n, "last", 4, NULL), 0);
  return b;
}

static pcol_file *reopen(pcol_builder *b, void **mem) { return tu_reopen(b, NULL, mem); }

static uint32_t find_fn(pcol_file *f, const char *name, int *count) {
  pcol_view nm;
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &nm, NULL), 0);
  uint32_t found = 0;
  *count = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_FUNCTIONS); i++) {
    pcol_str s;
    cr_assert_eq(pcol_string(f, pcol_view_u32(&nm, i), &s, NULL), 0);
    if (s.ptr && s.len == strlen(name) && !memcmp(s.ptr, name, s.len)) {
      found = (uint32_t)i + 1;
      ++*count;
    }
  }
  return found;
}

Test(merge, keeps_sources_and_shares_functions) {
  pcol_builder *a = input("a.out", "mem", "f", 3), *b = input("b.out", "alloc", "g", 2);
  void *ma, *mb, *mm;
  pcol_file *fa = reopen(a, &ma), *fb = reopen(b, &mb);
  pcol_builder *m;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&m, NULL), 0);
  cr_assert_eq(pcol_b_add_file(m, fa, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_b_add_file(m, fb, &err), 0, "%s", err.message);
  pcol_file *f = reopen(m, &mm);

  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCES), 2);
  pcol_view uri, ts;
  cr_assert_eq(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, NULL), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts, NULL), 0);
  pcol_str s;
  cr_assert_eq(pcol_string(f, pcol_view_u32(&uri, 1), &s, NULL), 0);
  cr_expect(s.len == 5 && !memcmp(s.ptr, "b.out", 5));
  cr_expect_eq(pcol_view_i64(&ts, 1), 1234);
  /* main shared; f and g once each */
  int cnt;
  cr_expect(find_fn(f, "main", &cnt) != 0);
  cr_expect_eq(cnt, 1);
  cr_expect_eq(pcol_rows(f, PCOL_T_FUNCTIONS), 3);
  cr_expect_eq(pcol_rows(f, PCOL_T_LOCATIONS), 3);
  cr_expect_eq(pcol_rows(f, PCOL_T_STACKS), 3); /* main shared as the root node */
  cr_expect_eq(pcol_rows(f, PCOL_T_VALUE_TYPES), 2);
  cr_expect_eq(pcol_rows(f, PCOL_T_LABELSETS), 2);
  /* samples keep their source */
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 5);
  pcol_view src;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src, NULL), 0);
  uint32_t want[5] = {1, 1, 1, 2, 2};
  for (int i = 0; i < 5; i++) cr_expect_eq(pcol_view_u32(&src, i), want[i]);
  /* per-source meta keeps its source; texts follow their samples */
  pcol_str iv;
  cr_expect_eq(pcol_meta_get(f, 2, "rprof.interval_us", &iv, NULL), 0);
  cr_expect_eq(pcol_rows(f, PCOL_T_META), 4);
  pcol_view tl, tls, st;
  cr_assert_eq(pcol_column(f, PCOL_T_TEXT_LINES, PCOL_C_TL_BEFORE, &tl, NULL), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_TEXT_LINES, PCOL_C_TL_SOURCE, &tls, NULL), 0);
  cr_expect_eq(pcol_view_u64(&tl, 0), 1);
  cr_expect_eq(pcol_view_u64(&tl, 1), 4);
  cr_expect_eq(pcol_view_u32(&tls, 1), 2);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE, &st, NULL), 0);
  cr_expect_eq(pcol_view_u32(&st, 0), 3);
  cr_expect_eq(pcol_view_u32(&st, 1), 5);

  /* --source 2 sees only b's samples; value types are unioned */
  pcol_select two = {.source_id = 2};
  pcol_value_sel v;
  pcol_top t;
  cr_assert_eq(pcol_value_resolve(f, &two, "alloc", &v, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_top_compute(f, &two, &v, PCOL_BY_FUNCTION, &t, &err), 0, "%s", err.message);
  cr_expect_eq(t.total, 100 + 101);
  cr_expect_eq(t.nrows, 2);
  pcol_top_free(&t);
  /* source 1 did not measure alloc: nothing */
  pcol_select one = {.source_id = 1};
  cr_assert_eq(pcol_top_compute(f, &one, &v, PCOL_BY_FUNCTION, &t, &err), 0);
  cr_expect_eq(t.total, 0);
  pcol_top_free(&t);

  /* merging the merged file again keeps both identities (plus a third) */
  pcol_builder *m2;
  void *mm2;
  cr_assert_eq(pcol_builder_new(&m2, NULL), 0);
  cr_assert_eq(pcol_b_add_file(m2, f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_b_add_file(m2, fa, &err), 0, "%s", err.message);
  pcol_file *f2 = reopen(m2, &mm2);
  cr_expect_eq(pcol_rows(f2, PCOL_T_SOURCES), 3);
  cr_expect_eq(pcol_rows(f2, PCOL_T_FUNCTIONS), 3);
  cr_expect_eq(pcol_rows(f2, PCOL_T_SAMPLES), 8);
  cr_assert_eq(pcol_column(f2, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE, &st, NULL), 0);
  cr_expect_eq(pcol_view_u32(&st, 2), 8);

  pcol_close(f2);
  free(mm2);
  pcol_builder_free(m2);
  pcol_close(f);
  pcol_close(fa);
  pcol_close(fb);
  free(mm);
  free(ma);
  free(mb);
  pcol_builder_free(m);
  pcol_builder_free(a);
  pcol_builder_free(b);
}

Test(merge, real_rprof_files) {
  SKIP_WITHOUT_TESTDATA();
  const char *names[] = {"proftools__Rprof-rec0.out", "proftools__Rprof-dg.out"};
  pcol_builder *m;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&m, NULL), 0);
  pcol_import_options o = {0};
  uint64_t total = 0;
  for (int i = 0; i < 2; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/rprof/%s", testdata_dir(), names[i]);
    /* each through a pcol file, as `pcol merge a.pcol b.pcol` does */
    pcol_builder *one;
    cr_assert_eq(pcol_builder_new(&one, NULL), 0);
    int rc = pcol_import_path(one, path, PCOL_FMT_RPROF, &o, &err);
    if (rc == PCOL_EUNSUPPORTED) cr_skip_test("Rprof import not built");
    cr_assert_eq(rc, 0, "%s", err.message);
    void *mem;
    pcol_file *f = tu_reopen(one, NULL, &mem);
    total += pcol_rows(f, PCOL_T_SAMPLES);
    cr_assert_eq(pcol_b_add_file(m, f, &err), 0, "%s", err.message);
    pcol_close(f);
    free(mem);
    pcol_builder_free(one);
  }
  void *mm;
  pcol_file *f = tu_reopen(m, NULL, &mm);
  cr_expect_eq(pcol_rows(f, PCOL_T_SAMPLES), total);
  cr_expect_eq(pcol_rows(f, PCOL_T_SOURCES), 2);
  /* "system.time" is in both files: one function row */
  int cnt;
  find_fn(f, "system.time", &cnt);
  cr_expect_eq(cnt, 1);
  pcol_select two = {.source_id = 2};
  pcol_value_sel v;
  pcol_top t;
  cr_assert_eq(pcol_value_resolve(f, &two, NULL, &v, NULL), 0);
  cr_assert_eq(pcol_top_compute(f, &two, &v, PCOL_BY_FUNCTION, &t, &err), 0);
  /* an Rprof source's default is its time: 194 ticks of 20 ms */
  cr_expect_eq(t.total, 194 * 20000000LL);
  cr_expect_eq(t.rows[0].flat, 185 * 20000000LL); /* dg, as in the file alone */
  pcol_top_free(&t);
  cr_assert_eq(pcol_value_resolve(f, &two, "samples", &v, NULL), 0);
  cr_assert_eq(pcol_top_compute(f, &two, &v, PCOL_BY_FUNCTION, &t, &err), 0);
  cr_expect_eq(t.total, 194); /* its own count: the ticks */
  cr_expect_eq(t.rows[0].flat, 185);
  pcol_top_free(&t);
  pcol_close(f);
  free(mm);
  pcol_builder_free(m);
}

/* ------------------------------------ big inputs, read in windows (issue 32) */

/* Past pcol_release_min bytes, a mapped input's pages leave the process
 * behind each pass (validation, then the copy into the builder), so merging
 * files larger than memory holds a window of each, not all of it.  With the
 * thresholds lowered, a small file takes that path: the process keeps
 * (almost) none of its pages, and the merged file is the same, byte for
 * byte, as when every page stays. */

static long rss_file_kb(void) {
  FILE *fp = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (fp && fgets(line, sizeof line, fp))
    if (sscanf(line, "RssFile: %ld", &kb) == 1) break;
  if (fp) fclose(fp);
  return kb;
}

/* `path` merged with itself, as `pcol merge path path` does; *held_kb: the
 * file pages the process still maps after the copy, before the close */
static void merge_twice(const char *path, void **out, size_t *len, long *held_kb) {
  pcol_builder *m;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&m, NULL), 0);
  *held_kb = 0;
  for (int i = 0; i < 2; i++) {
    pcol_file *f;
    cr_assert_eq(pcol_open(path, NULL, &f, &err), 0, "%s", err.message);
    long before = rss_file_kb();
    cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_b_add_file(m, f, &err), 0, "%s", err.message);
    long held = rss_file_kb() - before;
    if (held > *held_kb) *held_kb = held;
    pcol_close(f);
  }
  cr_assert_eq(pcol_builder_write_mem(m, NULL, out, len, &err), 0, "%s", err.message);
  pcol_builder_free(m);
}

Test(merge, big_mapped_inputs_are_read_in_windows) {
  if (rss_file_kb() < 0) cr_skip_test("no RssFile in /proc/self/status");
  char path[] = "/tmp/pcol-test-merge-XXXXXX";
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  close(fd);
  pcol_builder *in = input("big.out", "alloc", "leaf", 300000);
  pcol_error err = {0};
  /* plain columns (1.2): windows release a plain column's pages; the
   * encoded columns of 1.3 are a few bytes a row and are not released */
  pcol_write_options plain = {.format_version = 2};
  cr_assert_eq(pcol_builder_write(in, path, &plain, &err), 0, "%s", err.message);
  pcol_builder_free(in);
  size_t fsize = 0;
  free(tu_slurp(path, &fsize));
  cr_assert(fsize > (4u << 20), "the input is %zu bytes", fsize);

  size_t keep_min = pcol_release_min;
  uint64_t keep_rows = pcol_release_rows;
  void *all, *win;
  size_t nall, nwin;
  long held_all, held_win;
  pcol_release_min = SIZE_MAX; /* every page stays */
  merge_twice(path, &all, &nall, &held_all);
  pcol_release_min = 0; /* every file is big; windows of 4096 samples */
  pcol_release_rows = 4096;
  merge_twice(path, &win, &nwin, &held_win);
  pcol_release_min = keep_min;
  pcol_release_rows = keep_rows;
  unlink(path);
  /* the measure sees the pages a pass maps ... */
  cr_expect_gt(held_all, (long)(fsize / 1024 / 2), "kept %ld KB of a %zu-byte file", held_all, fsize);
  /* ... and released, they are gone */
  cr_expect_lt(held_win, (long)(fsize / 1024 / 8), "held %ld KB of a %zu-byte file", held_win, fsize);
  cr_assert_eq(nwin, nall);
  cr_expect(memcmp(all, win, nall) == 0, "the merged files differ");
  free(all);
  free(win);
}

/* pcol_top_many (issue 47): top of pcol files, each computed on its own and
 * added up by name, is top of their union (pcol_open_many), row for row;
 * one input, or by line, is left to the union (answered = 0). */
static void write_input(pcol_builder *b, char *path) {
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  close(fd);
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_write(b, path, NULL, &err), 0, "%s", err.message);
  pcol_builder_free(b);
}

Test(merge, top_of_many_files_is_top_of_their_union) {
  char p1[] = "/tmp/pcol-test-many1-XXXXXX", p2[] = "/tmp/pcol-test-many2-XXXXXX",
       p3[] = "/tmp/pcol-test-many3-XXXXXX";
  write_input(input("a.out", "alloc", "leaf", 40), p1);
  write_input(input("b.out", "alloc", "other", 25), p2);
  write_input(input("c.out", "alloc", "leaf", 7), p3);
  const char *paths[] = {p1, p2, p3};
  pcol_error err = {0};
  for (int sort = 0; sort < 3; sort++) {
    pcol_top t = {0}, u = {0};
    pcol_many_top info;
    size_t d1 = 0, d2 = 0;
    pcol_sum c1 = 0, c2 = 0;
    cr_assert_eq(pcol_top_many(paths, 3, NULL, NULL, "alloc", PCOL_BY_FUNCTION, 0.4,
                               (pcol_sort)sort, SIZE_MAX, &t, &d1, &c1, &info, &err), 0, "%s",
                 err.message);
    cr_assert(info.answered);
    cr_assert_eq(info.used, 3);
    cr_assert_null(info.file); /* three sources: no one source's header */
    pcol_file *f = NULL;
    pcol_value_sel v;
    cr_assert_eq(pcol_open_many(paths, 3, NULL, NULL, &f, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_value_resolve(f, NULL, "alloc", &v, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_top_compute_cut(f, NULL, &v, PCOL_BY_FUNCTION, 0.4, (pcol_sort)sort, &u,
                                      &d2, &c2, &err), 0, "%s", err.message);
    cr_assert(t.total == u.total && c1 == c2);
    cr_assert_eq(d1, d2);
    cr_assert_eq(d1, 1, "other (2,800 of 8,301) is under the cut of 0.4");
    cr_assert_eq(t.nrows, u.nrows);
    cr_assert(t.value.type.len == v.type.len && !memcmp(t.value.type.ptr, v.type.ptr, v.type.len));
    for (size_t i = 0; i < t.nrows; i++) {
      cr_assert(t.rows[i].name.len == u.rows[i].name.len &&
                !memcmp(t.rows[i].name.ptr, u.rows[i].name.ptr, u.rows[i].name.len), "row %zu", i);
      cr_assert(t.rows[i].flat == u.rows[i].flat && t.rows[i].cum == u.rows[i].cum, "row %zu", i);
      cr_assert_eq(t.rows[i].inl, u.rows[i].inl);
    }
    /* alloc: samples of 100, 101, ... in each file (by hand) */
    cr_assert(t.total == (pcol_sum)(40 * 100 + 780 + 25 * 100 + 300 + 7 * 100 + 21));
    pcol_top_free(&t);
    pcol_top_free(&u);
    pcol_close(f);
  }
  pcol_top t = {0};
  pcol_many_top info;
  size_t d = 0;
  cr_assert_eq(pcol_top_many(paths, 1, NULL, NULL, NULL, PCOL_BY_FUNCTION, 0, PCOL_SORT_FLAT,
                             SIZE_MAX, &t, &d, NULL, &info, &err), 0);
  cr_assert(!info.answered);
  cr_assert_eq(pcol_top_many(paths, 3, NULL, NULL, NULL, PCOL_BY_LINE, 0, PCOL_SORT_FLAT,
                             SIZE_MAX, &t, &d, NULL, &info, &err), 0);
  cr_assert(!info.answered);
  unlink(p1);
  unlink(p2);
  unlink(p3);
}

/* The front cache of a key table (pcol_q_key_front, top DIR's shared
 * names): names that fall in one slot (the same length, and the same first,
 * middle and last 8 bytes: they differ in bytes 8-10 of 30) still get ids
 * of their own, and the same ids as without the cache, in any order. */
Test(top_many, key_front_cache_compares_names) {
  pcol_q_keytab a = {0}, b = {0};
  cr_assert_eq(pcol_q_key_front(&a, 16), 0);
  char names[40][31];
  for (int i = 0; i < 40; i++) {
    memcpy(names[i], "gitcom/a000/svc/store.fn000000", 31);
    names[i][9] = (char)('0' + i / 10), names[i][10] = (char)('0' + i % 10);
  }
  for (int pass = 0; pass < 3; pass++)
    for (int i = 0; i < 40; i++) {
      int j = pass == 1 ? 39 - i : i;
      uint32_t ia, ib;
      cr_assert_eq(pcol_q_key_intern(&a, names[j], 30, 1, &ia, NULL), 0);
      cr_assert_eq(pcol_q_key_intern(&b, names[j], 30, 1, &ib, NULL), 0);
      cr_assert_eq(ia, ib, "%s: id %u with the cache, %u without", names[j], ia, ib);
      cr_assert_eq(ia, (uint32_t)j + 1);
    }
  cr_assert_eq(a.n, 40);
  pcol_q_keytab_free(&a);
  pcol_q_keytab_free(&b);
}

/* A file whose one profile keeps rows of one mapping key apart (packed
 * before 1.2.0: two processes' library, A and B) is copied as go's merge
 * reads that profile: the row its samples meet first (a sample of 0
 * skipped, the stack leaf first) is kept, B here, and A's location moves
 * to B's address of its offset (pcol_mappings_reach, add_file.c). */
Test(merge, key_rows_apart_kept_as_go_meets_them) {
  pcol_builder *b;
  uint32_t src, vt, mx, ma, mb, lx, la, lb, sa, sb;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "pprof", "old.pb", PCOL_NA_I64, &src, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "samples"), S(b, "count"), &vt, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  pcol_mapping_row x = {0x400000, 0x403000, 0, S(b, "/app"), 0, 0};
  pcol_mapping_row a = {0x7f0000010000, 0x7f0000013000, 0, S(b, "/lib.so"), 0, 0};
  pcol_mapping_row c = {0x7f0000090000, 0x7f0000093000, 0, S(b, "/lib.so"), 0, 0};
  cr_assert_eq(pcol_b_mapping(b, &x, false, &mx, NULL), 0);
  cr_assert_eq(pcol_b_mapping(b, &a, false, &ma, NULL), 0);
  cr_assert_eq(pcol_b_mapping(b, &c, false, &mb, NULL), 0);
  cr_assert_eq(pcol_b_location(b, mx, 0x400100, 0, NULL, 0, &lx, NULL), 0);
  cr_assert_eq(pcol_b_location(b, ma, 0x7f0000010010, 0, NULL, 0, &la, NULL), 0);
  cr_assert_eq(pcol_b_location(b, mb, 0x7f0000090020, 0, NULL, 0, &lb, NULL), 0);
  uint32_t ka[2] = {la, lx}, kb[2] = {lb, lx};
  cr_assert_eq(pcol_b_stack(b, ka, 2, &sa, NULL), 0);
  cr_assert_eq(pcol_b_stack(b, kb, 2, &sb, NULL), 0);
  uint32_t st[3] = {sa, sb, sa};
  int64_t val[3] = {0, 5, 3};
  for (int i = 0; i < 3; i++) {
    pcol_sample_row s = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, st[i], 0};
    pcol_value_row v = {vt, val[i]};
    cr_assert_eq(pcol_b_sample(b, &s, &v, 1, NULL, NULL), 0);
  }
  void *m1, *m2;
  pcol_file *f = reopen(b, &m1);
  pcol_builder_free(b);
  cr_assert_eq(pcol_rows(f, PCOL_T_MAPPINGS), 3);
  pcol_builder *m;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&m, NULL), 0);
  cr_assert_eq(pcol_b_add_file(m, f, &err), 0, "%s", err.message);
  pcol_file *g = reopen(m, &m2);
  pcol_builder_free(m);
  pcol_view ms, ad;
  cr_assert_eq(pcol_column(g, PCOL_T_MAPPINGS, PCOL_C_MAP_START, &ms, &err), 0);
  cr_assert_eq(pcol_column(g, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS, &ad, &err), 0);
  cr_assert_eq(pcol_rows(g, PCOL_T_MAPPINGS), 2);
  cr_assert_eq(pcol_view_u64(&ms, 1), 0x7f0000090000, "the library kept at %#llx",
               (unsigned long long)pcol_view_u64(&ms, 1));
  cr_assert_eq(pcol_view_u64(&ad, 1), 0x7f0000090010, "A's location at %#llx",
               (unsigned long long)pcol_view_u64(&ad, 1));
  pcol_close(g);
  /* and as the NEW of `pcol diff --by address` (pcol_open_readdressed:
   * NEW's rows by NEW's samples, then BASE moved to them) */
  pcol_file *r;
  cr_assert_eq(pcol_open_readdressed(f, f, &r, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_column(r, PCOL_T_MAPPINGS, PCOL_C_MAP_START, &ms, &err), 0);
  cr_assert_eq(pcol_rows(r, PCOL_T_MAPPINGS), 2);
  cr_assert_eq(pcol_view_u64(&ms, 1), 0x7f0000090000, "readdressed: the library kept at %#llx",
               (unsigned long long)pcol_view_u64(&ms, 1));
  pcol_close(r);
  pcol_close(f);
  free(m1);
  free(m2);
}
