/* test_fuzz_replay.c — the fuzz corpus under gcc + ASan/UBSan (`make test`).
 *
 * Runs the same target functions as the libFuzzer binaries (fuzz/fuzz_common.h)
 * over every file in tests/fuzz-regress/<target>/ (inputs that once crashed,
 * hung or leaked, or that pin down a hole that was closed) and over the seed
 * corpus: the shared test data and synthetic pcol files.  A broken invariant
 * aborts, which Criterion reports as a crash of the test. */
#include "testutil.h"
#include "fuzz_common.h"
#include "fuzz_views.h"
#include "fuzz_http.h"
#include "fuzz_regex.h"
#include "fuzz_demangle.h"
#include "fuzz_unwrap.h"
#define FZ_JS_NO_ENTRY
#include "fuzz_json_scan.c"
#include <dirent.h>
#include <sys/stat.h>

typedef void (*target_fn)(const uint8_t *data, size_t size);

static void t_pcol(const uint8_t *d, size_t n) { fz_pcol_one(d, n); }
static void t_rprof(const uint8_t *d, size_t n) { fz_import_one(pcol_import_rprof, d, n, (n & 2) != 0); }
static void t_pprof(const uint8_t *d, size_t n) { fz_import_one(pcol_import_pprof, d, n, (n & 2) != 0); }
static void t_otlp(const uint8_t *d, size_t n) { fz_import_one(pcol_import_otlp, d, n, (n & 2) != 0); }
static void t_perun(const uint8_t *d, size_t n) { fz_import_one(pcol_import_perun, d, n, (n & 2) != 0); }
static void t_collapsed(const uint8_t *d, size_t n) { fz_collapsed_one(d, n); }
static void t_firefox(const uint8_t *d, size_t n) { fz_import_one(pcol_import_firefox, d, n, (n & 2) != 0); }
static void t_v8(const uint8_t *d, size_t n) { fz_import_one(pcol_import_v8, d, n, (n & 2) != 0); }
static void t_perf(const uint8_t *d, size_t n) { fz_import_one(pcol_import_perf, d, n, (n & 2) != 0); }
static void t_chrome(const uint8_t *d, size_t n) { fz_import_one(pcol_import_chrome, d, n, (n & 2) != 0); }
static void t_tachyon(const uint8_t *d, size_t n) { fz_import_one(pcol_import_tachyon, d, n, (n & 2) != 0); }
static void t_jfr(const uint8_t *d, size_t n) { fz_import_one(pcol_import_jfr, d, n, (n & 2) != 0); }
static void t_perfetto(const uint8_t *d, size_t n) { fz_import_one(pcol_import_perfetto, d, n, (n & 2) != 0); }
static void t_http(const uint8_t *d, size_t n) { fz_http_one(d, n); }
static void t_speedscope(const uint8_t *d, size_t n) {
  fz_import_one(pcol_import_speedscope, d, n, (n & 2) != 0);
}
static void t_json_scan(const uint8_t *d, size_t n) { fz_json_scan_one(d, n); }
static void t_views(const uint8_t *d, size_t n) { fz_views_one(d, n); }
static void t_regex(const uint8_t *d, size_t n) { fz_regex_one(d, n); }
static void t_demangle(const uint8_t *d, size_t n) { fz_demangle_one(d, n); }
static void t_unwrap(const uint8_t *d, size_t n) { fz_unwrap_one(d, n); }

/* Runs fn on every regular file of dir whose name matches the filter
 * (NULL = all); returns how many. */
static int run_dir(const char *dir, const char *must_contain, target_fn fn) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int count = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    if (must_contain && !strstr(e->d_name, must_contain)) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    size_t len = 0;
    uint8_t *buf = (uint8_t *)tu_slurp(path, &len);
    cr_assert(buf, "cannot read %s", path);
    fn(buf, len);
    free(buf);
    count++;
  }
  closedir(d);
  return count;
}

static int run_testdata(const char *sub, const char *must_contain, target_fn fn) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", testdata_dir(), sub);
  return run_dir(dir, must_contain, fn);
}

Test(fuzz_replay, regressions) {
  static const struct {
    const char *name;
    target_fn fn;
  } targets[] = {{"pcol", t_pcol},   {"rprof", t_rprof},         {"pprof", t_pprof},
                 {"perun", t_perun}, {"collapsed", t_collapsed}, {"json_scan", t_json_scan},
                 {"views", t_views}, {"v8", t_v8},               {"perf", t_perf},
                 {"speedscope", t_speedscope}, {"firefox", t_firefox}, {"otlp", t_otlp},
                 {"chrome", t_chrome}, {"tachyon", t_tachyon}, {"jfr", t_jfr},
                 {"perfetto", t_perfetto},
                 {"http", t_http}, {"regex", t_regex}, {"demangle", t_demangle},
                 {"unwrap", t_unwrap}};
  int total = 0;
  for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fuzz-regress/%s", targets[i].name);
    total += run_dir(dir, NULL, targets[i].fn);
  }
  cr_assert_gt(total, 0, "no regression inputs found under tests/fuzz-regress (run from the repo root)");
}

/* Inputs that stopped a fuzzer, built here rather than kept as files.  The
 * clang fuzzer's UBSan (and a clang build of this test) reports what gcc's
 * does not, such as NULL + 0. */
Test(fuzz_replay, generated_regressions) {
  /* issue 28 #8: a header, then a quoted frame that never closes: the
   * Rprof importer's sample had no frames, and it indexed its empty (NULL)
   * frame buffers with 0 */
  static const char rprof_null_plus_0[] = "sample.interval=20000\n\"file.existGC pr";
  cr_assert_eq(sizeof rprof_null_plus_0 - 1, 38);
  t_rprof((const uint8_t *)rprof_null_plus_0, sizeof rprof_null_plus_0 - 1);
}

/* fuzz_views, 2026-12-02: a file that stores the label set bytes=1 twice
 * (sets 1 and 2; labels.num patched in a raw pack) with +5 and -3 of one
 * stack under them and 4 without labels.  pprof's Merge keys samples by
 * their labels, so the two are one merged sample of 2: a total of 6, and
 * two traces (2, 4), as the --tagroot copy (which stores the set once)
 * says.  Keyed by the set's id they were 5 + 3 + 4 = 12 and three traces. */
static int count_trace(void *ctx, const pcol_trace *t) {
  int64_t *s = ctx;
  s[0]++;
  s[1] += t->value;
  return 0;
}
Test(fuzz_replay, label_set_stored_twice_is_one) {
  size_t len = 0;
  uint8_t *buf = (uint8_t *)tu_slurp("tests/fuzz-regress/views/labelset-twice-cancel.pcol", &len);
  cr_assert(buf);
  pcol_file *f = NULL, *tf = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(buf, len, NULL, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_rows(f, PCOL_T_LABELSETS), 2);
  pcol_value_sel v;
  pcol_top t;
  pcol_select sel = {0};
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_top_compute(f, &sel, &v, PCOL_BY_FUNCTION, &t, &err), 0, "%s", err.message);
  cr_assert_eq(t.total, 6);
  pcol_top_free(&t);
  int64_t n[2] = {0, 0};
  cr_assert_eq(pcol_traces_iter(f, &sel, &v, count_trace, n, &err), 0, "%s", err.message);
  cr_assert_eq(n[0], 2);
  cr_assert_eq(n[1], 6);
  cr_assert_eq(pcol_open_tag_frames(f, "bytes", NULL, NULL, &tf, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_value_resolve(tf, NULL, NULL, &v, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_top_compute(tf, &sel, &v, PCOL_BY_FUNCTION, &t, &err), 0, "%s", err.message);
  cr_assert_eq(t.total, 6);
  pcol_top_free(&t);
  pcol_close(tf);
  pcol_close(f);
  free(buf);
}

Test(fuzz_replay, synthetic_pcol_seeds) {
  static const uint32_t sizes[] = {0, 1, 7, 60, 300};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int lz4 = 0; lz4 <= 3; lz4++) {
      void *mem = NULL;
      size_t len = 0;
      cr_assert_eq(fz_make_file(sizes[i], lz4, &mem, &len), 0);
      /* the synthetic file itself must be valid, or the seed is useless */
      pcol_file *f = NULL;
      pcol_error err = {0};
      cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0, "%s", err.message);
      cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
      cr_assert_eq(fz_walk(f, 1), 0, "a valid synthetic file walks cleanly");
      pcol_close(f);
      t_pcol(mem, len);
      t_views(mem, len);
      /* and every prefix of a small one (truncations) */
      if (sizes[i] <= 7)
        for (size_t cut = 0; cut < len; cut += 7) t_pcol(mem, cut);
      free(mem);
    }
}

/* The conformance files of a -diff_base (spec.md §6.11), through the views
 * target: their total is the base's samples' (go's computeTotal), which a
 * difference's |flat| and |cum| pass; fuzz_views took it for a broken
 * invariant (fuzz/RESULTS.md, 2026-12-01: valid-diff-base-signed.pcol, a
 * seed, aborted the run). */
Test(fuzz_replay, views_diff_base_files) {
  /* (the .pcol files and their .counts and .views texts, which open as no pcol file) */
  cr_assert_geq(run_dir("tests/conformance/files", "valid-diff-base-", t_views), 2);
}

/* fuzz_views' pairs (fz_views_pair): two synthetic files of two sources
 * (7 and 60 samples), through pcol_open_readdressed both ways and
 * pcol_open_diff_base_select of the parameter blocks of fzv_chosen: no
 * block; source 1 over a range; source N past both counts (2, as the
 * synthetic files have 2 sources: 3) and huge; a reversed, an empty and a
 * huge range; wall-clock; every flag, an unknown one among them. */
Test(fuzz_replay, synthetic_views_pairs) {
  void *a = NULL, *b = NULL;
  size_t na = 0, nb = 0;
  cr_assert_eq(fz_make_file(7, 0, &a, &na), 0);
  cr_assert_eq(fz_make_file(60, 1, &b, &nb), 0);
  static const uint8_t params[][18] = {
      {0},
      {1, 0x03 | 1 << 5, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0xe1, 0xf5, 0x05}, /* [0, 100 ms), -diff_base */
      {3, 0x03 | 2 << 5},
      {0xff, 0x00 | 4 << 5},
      {2, 0x03 | 1 << 3 | 3 << 5, 0x00, 0xe1, 0xf5, 0x05},               /* reversed */
      {0, 0x03 | 2 << 3, 0x00, 0x2d, 0x31, 0x01},                        /* empty */
      {1, 0x03 | 3 << 3 | 2 << 5},                                       /* huge */
      {2, 0x07 | 3 << 3, 0, 0, 0, 0, 0, 0, 0, 0, 1},                     /* wall, huge; side NULL */
      {0, 0x05, 0x00, 0x00, 0x2a, 0x36, 0xfe, 0x9c, 0x97, 0x17},         /* wall from 1.7e18 */
  };
  for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
    for (int swap = 0; swap < 2; swap++) {
      size_t n = na + nb + 2 * FZ_NEXT_LEN + sizeof params[i];
      uint8_t *in = malloc(n), *p = in;
      cr_assert(in);
      memcpy(p, swap ? b : a, swap ? nb : na), p += swap ? nb : na;
      memcpy(p, FZ_NEXT, FZ_NEXT_LEN), p += FZ_NEXT_LEN;
      memcpy(p, swap ? a : b, swap ? na : nb), p += swap ? na : nb;
      /* the first pair without a parameter block at all */
      if (i) memcpy(p, FZ_NEXT, FZ_NEXT_LEN), memcpy(p + FZ_NEXT_LEN, params[i], sizeof params[i]);
      t_views(in, i ? n : na + nb + FZ_NEXT_LEN);
      free(in);
    }
  free(a);
  free(b);
}

Test(fuzz_replay, regex_seeds) {
  for (size_t i = 0; i < FZ_RX_NSEEDS; i++) t_regex((const uint8_t *)fz_regex_seeds[i], strlen(fz_regex_seeds[i]));
}

Test(fuzz_replay, collapsed_seeds) {
  for (size_t i = 0; i < FZ_NCOLLAPSED; i++)
    t_collapsed((const uint8_t *)fz_collapsed_seeds[i], strlen(fz_collapsed_seeds[i]));
}

Test(fuzz_replay, testdata_seeds) {
  SKIP_WITHOUT_TESTDATA();
  int n = run_testdata("rprof", NULL, t_rprof);
  n += run_testdata("perun", ".perf", t_perun);
  run_testdata("perun", ".perf", t_json_scan);
  run_dir("tests/fixtures/perun", NULL, t_json_scan);
  n += run_testdata("pprof", ".pb", t_pprof);
  n += run_testdata("pprof-from-r", ".pb", t_pprof);
  cr_assert_gt(n, 10, "expected the shared test data files, found %d", n);
}

/* Each test data file imported with format detection, written raw and LZ4,
 * and run through the pcol target: the seeds `make fuzz-run` packs with
 * `pcol pack`.  Files whose importer has not landed yet are skipped. */
static int pack_dir(const char *sub) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", testdata_dir(), sub);
  DIR *d = opendir(dir);
  if (!d) return 0;
  int packed = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || strstr(e->d_name, ".md") || strstr(e->d_name, ".txt")) continue;
    char path[4096 + 256];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    pcol_builder *b = NULL;
    pcol_error err = {0};
    cr_assert_eq(pcol_builder_new(&b, &err), 0);
    if (pcol_import_path(b, path, PCOL_FMT_UNKNOWN, NULL, &err) == 0) {
      for (int lz4 = 0; lz4 <= 3; lz4++) { /* raw, LZ4, zstd */
        pcol_write_options wo = FZ_WRITE_OPTIONS(lz4);
        void *mem = NULL;
        size_t len = 0;
        cr_assert_eq(pcol_builder_write_mem(b, &wo, &mem, &len, &err), 0, "%s", err.message);
        t_pcol(mem, len);
        if (!lz4) t_views(mem, len);
        free(mem);
      }
      packed++;
    }
    pcol_builder_free(b);
  }
  closedir(d);
  return packed;
}

Test(fuzz_replay, packed_testdata_seeds, .timeout = 600) {
  SKIP_WITHOUT_TESTDATA();
  int n = pack_dir("rprof") + pack_dir("pprof") + pack_dir("pprof-from-r") + pack_dir("perun");
  cr_log_info("packed %d test data files", n);
}
