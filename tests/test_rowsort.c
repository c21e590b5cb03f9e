/* test_rowsort.c — lib/core/rowsort.c (issue 43): rows come back in order,
 * each once, held in memory or merged from many runs in a temporary file
 * (the budget, pcol_rowsort_bytes, lowered so that small inputs take that
 * path); and the JFR and Tachyon importers, which sort their samples
 * through it, write the same file byte for byte either way. */
#include "testutil.h"
#include "rowsort.h" /* pcol_rowsort_*, pcol_rowsort_bytes */
#include <signal.h>
#include <sys/resource.h>

typedef struct row {
  uint64_t key, seq;
} row;

static int row_cmp(const void *a, const void *b) {
  const row *p = a, *q = b;
  if (p->key != q->key) return p->key < q->key ? -1 : 1;
  return p->seq < q->seq ? -1 : p->seq > q->seq;
}

typedef struct seen {
  row last;
  uint64_t n;
  uint8_t *hit;
} seen;

static int check_row(void *ctx, const void *r) {
  seen *s = ctx;
  const row *x = r;
  if (s->n) cr_assert_lt(row_cmp(&s->last, x), 0, "row %llu out of order", (unsigned long long)s->n);
  cr_assert_eq(s->hit[x->seq], 0, "row %llu given twice", (unsigned long long)x->seq);
  s->hit[x->seq] = 1;
  s->last = *x;
  s->n++;
  return 0;
}

/* A sorter (its budget set first) of n rows whose keys are drawn from
 * [0, range) (many ties, broken by seq). */
static pcol_rowsort *filled(uint64_t n, size_t budget, uint64_t range, uint64_t x) {
  pcol_rowsort_bytes = budget;
  pcol_rowsort *s;
  cr_assert_eq(pcol_rowsort_new(&s, sizeof(row), row_cmp), PCOL_OK);
  for (uint64_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    row r = {x % range, i};
    cr_assert_eq(pcol_rowsort_add(s, &r), PCOL_OK);
  }
  return s;
}

static void sort_n(uint64_t n, size_t budget, unsigned *runs) {
  size_t keep = pcol_rowsort_bytes;
  pcol_rowsort *s = filled(n, budget, 1000, 88172645463325252ull);
  cr_assert_eq(pcol_rowsort_count(s), n);
  seen v = {{0, 0}, 0, calloc(n + 1, 1)};
  cr_assert(v.hit);
  cr_assert_eq(pcol_rowsort_each(s, check_row, &v), PCOL_OK);
  cr_assert_eq(v.n, n, "%llu rows back of %llu", (unsigned long long)v.n, (unsigned long long)n);
  *runs = pcol_rowsort_runs(s);
  free(v.hit);
  pcol_rowsort_free(s);
  pcol_rowsort_bytes = keep;
}

Test(rowsort, in_memory) {
  unsigned runs;
  sort_n(5000, (size_t)8 << 20, &runs);
  cr_assert_eq(runs, 0, "5000 rows of 16 bytes went to a file (%u runs)", runs);
  sort_n(0, (size_t)8 << 20, &runs);
}

Test(rowsort, many_runs_merged) {
  unsigned runs;
  sort_n(200000, 1024, &runs); /* 64 rows a run */
  cr_assert_geq(runs, 3000, "only %u runs", runs);
  sort_n(1000, 1024, &runs); /* rows past a full buffer, and an exact multiple */
  sort_n(1024, 1024, &runs);
  cr_assert_eq(runs, 16);
}

static int stop_at_3(void *ctx, const void *r) {
  (void)r;
  return ++*(int *)ctx == 3 ? 42 : 0;
}

Test(rowsort, stops_at_the_callers_error) {
  size_t keep = pcol_rowsort_bytes;
  pcol_rowsort_bytes = 256;
  pcol_rowsort *s;
  cr_assert_eq(pcol_rowsort_new(&s, sizeof(row), row_cmp), PCOL_OK);
  for (uint64_t i = 0; i < 100; i++) {
    row r = {100 - i, i};
    cr_assert_eq(pcol_rowsort_add(s, &r), PCOL_OK);
  }
  int n = 0;
  cr_assert_eq(pcol_rowsort_each(s, stop_at_3, &n), 42);
  cr_assert_eq(n, 3);
  pcol_rowsort_free(s);
  pcol_rowsort_bytes = keep;
}

/* rewind and next: the same rows in the same order each time the sorter
 * is read (an exporter that writes its groups twice reads them twice), a
 * rewind half way starts again, and a past-the-end next stays at the end */
static void read_again(uint64_t n, size_t budget) {
  size_t keep = pcol_rowsort_bytes;
  pcol_rowsort *s = filled(n, budget, 97, 2463534242ull);
  uint64_t *first = malloc((n + 1) * sizeof *first);
  cr_assert(first);
  for (int round = 0; round < 3; round++) {
    if (round == 1) { /* read a third, then start again */
      cr_assert_eq(pcol_rowsort_rewind(s), PCOL_OK);
      const void *p;
      for (uint64_t i = 0; i < n / 3; i++) cr_assert_eq(pcol_rowsort_next(s, &p), PCOL_OK);
    }
    cr_assert_eq(pcol_rowsort_rewind(s), PCOL_OK);
    seen v = {{0, 0}, 0, calloc(n + 1, 1)};
    cr_assert(v.hit);
    const void *p;
    for (;;) {
      cr_assert_eq(pcol_rowsort_next(s, &p), PCOL_OK);
      if (!p) break;
      if (round == 0) first[v.n] = ((const row *)p)->seq;
      else cr_assert_eq(first[v.n], ((const row *)p)->seq, "round %d: row %llu differs", round,
                        (unsigned long long)v.n);
      check_row(&v, p);
    }
    cr_assert_eq(v.n, n, "round %d: %llu rows of %llu", round, (unsigned long long)v.n, (unsigned long long)n);
    const void *end;
    cr_assert_eq(pcol_rowsort_next(s, &end), PCOL_OK);
    cr_assert_null(end, "a row past the last");
    free(v.hit);
  }
  free(first);
  pcol_rowsort_free(s);
  pcol_rowsort_bytes = keep;
}

Test(rowsort, read_again) {
  read_again(3000, (size_t)8 << 20); /* in memory */
  read_again(3000, 1024);            /* 47 runs merged, each time */
  read_again(0, 1024);
  read_again(64, 1024); /* exactly one full buffer */
}

/* the file an importer writes from path, with the sorter's budget */
static void *import_with(const char *path, size_t budget, int tachyon, size_t *len) {
  size_t keep = pcol_rowsort_bytes;
  pcol_rowsort_bytes = budget;
  FILE *f = fopen(path, "rb");
  cr_assert(f, "%s", path);
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  int rc = tachyon ? pcol_import_tachyon(b, f, path, NULL, &err) : pcol_import_jfr(b, f, path, NULL, &err);
  cr_assert_eq(rc, PCOL_OK, "%s: %s", path, err.message);
  fclose(f);
  void *out = NULL;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &out, len, &err), PCOL_OK, "%s", err.message);
  pcol_builder_free(b);
  pcol_rowsort_bytes = keep;
  return out;
}

Test(rowsort, importers_same_file_in_runs) {
  const char *files[] = {"tests/fuzz-regress/jfr/gen-3chunks.jfr", "tests/fuzz-regress/jfr/gen-fixed.jfr",
                         "tests/fuzz-regress/tachyon/gen-rich.bin", "tests/fuzz-regress/tachyon/rich-zstd.bin"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    int tachyon = strstr(files[i], "tachyon") != NULL;
    size_t n1, n2;
    void *a = import_with(files[i], (size_t)8 << 20, tachyon, &n1);
    void *b = import_with(files[i], tachyon ? 240 : 320, tachyon, &n2); /* 10 (5) rows a run */
    cr_assert(n1 == n2 && !memcmp(a, b, n1), "%s: the file differs when its samples are sorted in runs", files[i]);
    free(a);
    free(b);
  }
}

Test(rowsort, no_temporary_file_in_memory) {
  /* $TMPDIR that cannot hold a file: the rows stay in memory, still sorted */
  const char *old = getenv("TMPDIR");
  char *keep = old ? strdup(old) : NULL;
  setenv("TMPDIR", "/nonexistent/pcol-rowsort-test", 1);
  unsigned runs;
  sort_n(20000, 1024, &runs);
  cr_assert_eq(runs, 0, "%u runs written where no temporary file can be made", runs);
  if (keep) setenv("TMPDIR", keep, 1), free(keep);
  else unsetenv("TMPDIR");
}

/* rows added in order are not sorted again (one comparison a row finds
 * it out), and a row out of order at the very end of a buffer still is */
Test(rowsort, rows_in_order) {
  size_t keep = pcol_rowsort_bytes;
  for (int late = 0; late < 2; late++)
    for (size_t budget = 1024; budget <= (size_t)8 << 20; budget *= 8192) {
      pcol_rowsort_bytes = budget;
      pcol_rowsort *s;
      cr_assert_eq(pcol_rowsort_new(&s, sizeof(row), row_cmp), PCOL_OK);
      uint64_t n = 1000;
      for (uint64_t i = 0; i < n; i++) {
        row r = {i / 3, i};
        if (late && (i % 64 == 63 || i == n - 1)) r.key = 0; /* the last row of each buffer (and of all) */
        cr_assert_eq(pcol_rowsort_add(s, &r), PCOL_OK);
      }
      seen v = {{0, 0}, 0, calloc(n + 1, 1)};
      cr_assert(v.hit);
      cr_assert_eq(pcol_rowsort_each(s, check_row, &v), PCOL_OK);
      cr_assert_eq(v.n, n);
      free(v.hit);
      pcol_rowsort_free(s);
    }
  pcol_rowsort_bytes = keep;
}

/* the last run cannot be written (a full disk: here a file-size limit):
 * the first rewind says so, and so does every later one, rather than give
 * the rows of the runs written before as if they were all */
Test(rowsort, a_run_not_written_stays_an_error) {
  size_t keep = pcol_rowsort_bytes;
  pcol_rowsort_bytes = 40 * sizeof(row); /* runs of 40 rows */
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit rl = {40 * sizeof(row), 40 * sizeof(row)}; /* room for the first run only */
  cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
  pcol_rowsort *s;
  cr_assert_eq(pcol_rowsort_new(&s, sizeof(row), row_cmp), PCOL_OK);
  for (uint64_t i = 0; i < 60; i++) {
    row r = {60 - i, i};
    cr_assert_eq(pcol_rowsort_add(s, &r), PCOL_OK, "row %llu", (unsigned long long)i);
  }
  cr_assert_eq(pcol_rowsort_runs(s), 1);
  cr_assert_eq(pcol_rowsort_rewind(s), PCOL_EIO);
  cr_assert_eq(pcol_rowsort_rewind(s), PCOL_EIO, "a second rewind after the lost run");
  const void *p;
  cr_assert_eq(pcol_rowsort_next(s, &p), PCOL_EIO);
  cr_assert_null(p);
  pcol_rowsort_free(s);
  pcol_rowsort_bytes = keep;
}
