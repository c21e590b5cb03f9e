/* test_threads.c — many threads reading one open file at once.
 *
 * All threads start together (a barrier) on a freshly opened file, so the
 * lazy first-use work (LZ4 decoding and column checks, done once under the
 * file's lock) races for real.  Each thread reads every column, string and
 * stack and compares a checksum of what it saw with the single-threaded
 * answer.  `make test-tsan` runs this binary under ThreadSanitizer. */
#ifdef PCOL_PLAIN_TEST /* the TSan build (fuzz/fuzz.mk test-tsan) */
#include "plain_test.h"
#else
#include "testutil.h"
#endif
#include "fuzz_common.h"
#include <pthread.h>
#include <unistd.h> /* truncate */
#include <zlib.h>   /* the gzip inputs of open_many_inflated_ahead */

#define NTHREADS 8

typedef struct shared {
  pcol_file *f;
  pthread_barrier_t go;
  uint64_t want;
  uint64_t got[NTHREADS];
  int rc[NTHREADS];
} shared;

typedef struct arg {
  shared *s;
  int k;
} arg;

static int sum_cb(void *ctx, uint32_t depth, uint32_t loc) {
  *(uint64_t *)ctx += (uint64_t)depth * 31 + loc;
  return 0;
}

/* A deterministic digest of everything readable; the order of tables is
 * rotated by `k` so threads hit different sections first. */
static int digest(pcol_file *f, int k, uint64_t *out) {
  pcol_error err = {0};
  uint64_t h = 0;
  for (int n = 0; n < PCOL_T_COUNT_ - 1; n++) {
    int t = 1 + (n + k) % (PCOL_T_COUNT_ - 1);
    const pcol_table_info *ti = pcol_table_info_get(t);
    uint64_t ht = (uint64_t)t;
    for (size_t c = 1; c <= ti->ncolumns; c++) {
      pcol_view v;
      int rc = pcol_column(f, t, c, &v, &err);
      if (rc) return rc;
      ht = ht * 1000003 + fz_view_sum(&v) + v.count;
    }
    h += ht * 0x9e3779b97f4a7c15ULL; /* order of tables does not matter */
  }
  for (uint64_t id = 0; id < pcol_string_count(f); id++) {
    pcol_str s;
    int rc = pcol_string(f, (uint32_t)id, &s, &err);
    if (rc) return rc;
    for (size_t i = 0; i < s.len; i++) h = h * 31 + (uint8_t)s.ptr[i];
  }
  for (uint64_t id = 0; id <= pcol_rows(f, PCOL_T_STACKS); id++) {
    int rc = pcol_stack_walk(f, (uint32_t)id, sum_cb, &h, &err);
    if (rc) return rc;
  }
  pcol_str m;
  if (pcol_meta_get(f, 1, "rprof.header", &m, &err) == 0) h += m.len;
  *out = h;
  return 0;
}

static void *worker(void *p) {
  arg *a = p;
  pthread_barrier_wait(&a->s->go);
  a->s->rc[a->k] = digest(a->s->f, a->k, &a->s->got[a->k]);
  return NULL;
}

static void run(int lz4, int validate_first) {
  void *mem = NULL;
  size_t len = 0;
  cr_assert_eq(fz_make_file(2000, lz4, &mem, &len), 0);
  pcol_error err = {0};
  pcol_file *f = NULL;
  /* the single-threaded answer, on its own open */
  cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0, "%s", err.message);
  uint64_t want;
  cr_assert_eq(digest(f, 0, &want), 0);
  pcol_close(f);
  if (lz4) {
    int compressed = 0;
    cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0);
    for (uint32_t i = 0; i < pcol_section_count(f); i++) {
      pcol_section_info si;
      cr_assert_eq(pcol_section_get(f, i, &si, NULL), PCOL_OK);
      compressed += si.codec == lz4;
    }
    pcol_close(f);
    cr_assert_gt(compressed, 5, "the test needs compressed sections to decode lazily");
  }
  for (int round = 0; round < 5; round++) {
    shared s = {0};
    cr_assert_eq(pcol_open_buffer(mem, len, NULL, &s.f, &err), 0);
    if (validate_first) cr_assert_eq(pcol_validate_full(s.f, &err), 0, "%s", err.message);
    s.want = want;
    pthread_barrier_init(&s.go, NULL, NTHREADS);
    pthread_t th[NTHREADS];
    arg args[NTHREADS];
    for (int k = 0; k < NTHREADS; k++) {
      args[k] = (arg){&s, k};
      cr_assert_eq(pthread_create(&th[k], NULL, worker, &args[k]), 0);
    }
    for (int k = 0; k < NTHREADS; k++) pthread_join(th[k], NULL);
    pthread_barrier_destroy(&s.go);
    for (int k = 0; k < NTHREADS; k++) {
      cr_assert_eq(s.rc[k], 0, "thread %d failed", k);
      cr_assert_eq(s.got[k], want, "thread %d saw different data", k);
    }
    pcol_close(s.f);
  }
  free(mem);
}

Test(threads, raw_file_lazy_checks_race) { run(0, 0); }
Test(threads, lz4_file_lazy_decoding_races) { run(1, 0); }
Test(threads, zstd_file_lazy_decoding_races) { run(2, 0); }
Test(threads, lz4_file_after_full_validation) { run(1, 1); }

/* Format 1.4: a zstd file whose samples columns are in zstd blocks
 * (spec.md §4.2), decoded a block at a time by time ranges.  Threads count
 * different time ranges at once (each decoding the blocks its binary search
 * and rows touch) while others read every column whole; every count is the
 * single-threaded one, and every digest too. */
typedef struct blk_shared {
  pcol_file *f;
  pthread_barrier_t go;
  uint64_t got[NTHREADS], dig[NTHREADS];
  int rc[NTHREADS];
} blk_shared;
typedef struct blk_arg {
  blk_shared *s;
  int k;
} blk_arg;

/* samples in [k x 400 s, k x 400 s + 30 s) of source 1 (20 ms apart) */
static int count_range(pcol_file *f, int k, uint64_t *n) {
  pcol_select sel = {0};
  sel.source_id = 1;
  sel.has_from = sel.has_to = true;
  sel.from_ns = (int64_t)k * 400000000000;
  sel.to_ns = sel.from_ns + 30000000000;
  *n = 0;
  return pcol_select_iter(f, &sel, fz_count_row, n, NULL);
}

static void *blk_worker(void *p) {
  blk_arg *a = p;
  pthread_barrier_wait(&a->s->go);
  a->s->rc[a->k] = a->k % 4 == 3 ? digest(a->s->f, a->k, &a->s->dig[a->k])
                                 : count_range(a->s->f, a->k, &a->s->got[a->k]);
  return NULL;
}

Test(threads, zstd_blocks_ranges_race) {
  pcol_error err = {0};
  void *mem = NULL;
  size_t len = 0;
  cr_assert_eq(fz_make_file(300000, 4, &mem, &len), 0); /* zstd blocks (format 1.4) */
  pcol_file *f = NULL;
  cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0, "%s", err.message);
  int blocked = 0;
  for (uint32_t i = 0; i < pcol_section_count(f); i++) {
    pcol_section_info si;
    cr_assert_eq(pcol_section_get(f, i, &si, NULL), PCOL_OK);
    blocked += si.codec == 3;
  }
  cr_assert_geq(blocked, 3, "the test needs sections in zstd blocks");
  uint64_t want[NTHREADS], wdig = 0;
  for (int k = 0; k < NTHREADS; k++) cr_assert_eq(count_range(f, k, &want[k]), 0);
  cr_assert_eq(digest(f, 3, &wdig), 0);
  pcol_close(f);
  cr_assert_gt(want[1], 1000, "ranges hold samples");
  for (int round = 0; round < 3; round++) {
    blk_shared s = {0};
    cr_assert_eq(pcol_open_buffer(mem, len, NULL, &s.f, &err), 0);
    pthread_barrier_init(&s.go, NULL, NTHREADS);
    pthread_t th[NTHREADS];
    blk_arg args[NTHREADS];
    for (int k = 0; k < NTHREADS; k++) {
      args[k] = (blk_arg){&s, k};
      cr_assert_eq(pthread_create(&th[k], NULL, blk_worker, &args[k]), 0);
    }
    for (int k = 0; k < NTHREADS; k++) pthread_join(th[k], NULL);
    pthread_barrier_destroy(&s.go);
    for (int k = 0; k < NTHREADS; k++) {
      cr_assert_eq(s.rc[k], 0, "thread %d failed", k);
      if (k % 4 == 3) cr_assert_eq(s.dig[k], wdig, "thread %d read different data", k);
      else cr_assert_eq(s.got[k], want[k], "thread %d counted %llu, not %llu", k,
                        (unsigned long long)s.got[k], (unsigned long long)want[k]);
    }
    pcol_close(s.f);
  }
  free(mem);
}

/* Many threads each opening the same path (mmap) and reading it. */
static void *open_and_read(void *p) {
  const char *path = p;
  pcol_file *f = NULL;
  pcol_error err = {0};
  uint64_t h = 0;
  if (pcol_open(path, NULL, &f, &err) != 0) return (void *)1;
  int rc = digest(f, 3, &h);
  pcol_close(f);
  return rc ? (void *)1 : NULL;
}

Test(threads, separate_opens_of_one_path) {
  pcol_builder *b = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  cr_assert_eq(fz_fill_builder(b, 500), 0);
  char path[] = "/tmp/pcol-threads-XXXXXX";
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  close(fd);
  pcol_write_options wo = {.compress_lz4 = 1};
  cr_assert_eq(pcol_builder_write(b, path, &wo, &err), 0, "%s", err.message);
  pcol_builder_free(b);
  pthread_t th[NTHREADS];
  for (int k = 0; k < NTHREADS; k++) cr_assert_eq(pthread_create(&th[k], NULL, open_and_read, path), 0);
  int failed = 0;
  for (int k = 0; k < NTHREADS; k++) {
    void *r;
    pthread_join(th[k], &r);
    failed += r != NULL;
  }
  unlink(path);
  cr_assert_eq(failed, 0);
}

/* The Rprof importer parses on a second thread (rprof_import.c) once the
 * input is bigger than its first 16 KB block.  A 1 MB input with every
 * feature that carries state across lines (repeats, #File lines mid-way, a
 * second segment that gives file 1 another path, refs that are not
 * canonical, CRLF lines, a cut last line) must come back byte for byte, and
 * two imports must write identical files, whatever the threads' timing. */
static char *rprof_text(size_t *len) {
  char *buf = NULL;
  FILE *m = open_memstream(&buf, len);
  cr_assert(m != NULL);
  fprintf(m, "memory profiling: line profiling: sample.interval=20000\n#File 1: a.R\n#File 2: b.R\n");
  uint64_t x = 12345;
  char prev[512] = "";
  int files = 2;
  for (int i = 0; i < 16000; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned r = (unsigned)(x >> 33);
    if (i == 5000) fprintf(m, "#File 3: a.R\n"), files = 3; /* a.R again: refs 3# are not canonical */
    if (i == 11000)
      fprintf(m, "memory profiling: line profiling: sample.interval=10000\n#File 1: c.R\n#File 2: a.R\n");
    fprintf(m, r % 97 ? ":%u:%u:%u:%u:" : ":0%u:%u:%u:%u:", r % 1000, r % 77, r % 5, r % 3);
    if (r % 3 == 0 && prev[0]) {
      fputs(prev, m); /* the previous stack again */
    } else {
      char *p = prev;
      int depth = 1 + (int)(r % 6);
      for (int d = 0; d < depth && p < prev + 400; d++) {
        unsigned y = (unsigned)(x >> (d * 5)) ^ r;
        if (y % 211 == 0) p += sprintf(p, "9#1 "); /* a file number without a #File line */
        else if (y % 5) p += sprintf(p, "%u#%u ", 1 + y % files, y % 20);
        p += sprintf(p, "\"f%u\" ", (y >> 7) % 40);
      }
      fputs(prev, m);
    }
    fputs(r % 401 == 0 ? "\r\n" : "\n", m);
  }
  fputs(":1:2:3:4:\"f1\" \"tru", m); /* R cut the last line */
  fclose(m);
  return buf;
}

Test(threads, rprof_import_on_two_threads_round_trips) {
  size_t len = 0;
  char *text = rprof_text(&len);
  cr_assert_gt(len, 500000);
  void *first = NULL;
  size_t first_len = 0;
  for (int round = 0; round < 2; round++) {
    pcol_error err = {0};
    pcol_builder *b = NULL;
    cr_assert_eq(pcol_builder_new(&b, &err), 0);
    FILE *in = fmemopen(text, len, "rb");
    cr_assert(in != NULL);
    cr_assert_eq(pcol_import_rprof(b, in, "two-threads.out", NULL, &err), 0, "%s", err.message);
    fclose(in);
    void *mem = NULL;
    size_t mlen = 0;
    cr_assert_eq(pcol_builder_write_mem(b, NULL, &mem, &mlen, &err), 0, "%s", err.message);
    pcol_builder_free(b);
    if (round == 0) {
      first = mem, first_len = mlen;
      pcol_file *f = NULL;
      cr_assert_eq(pcol_open_buffer(mem, mlen, NULL, &f, &err), 0, "%s", err.message);
      char *back = NULL;
      size_t blen = 0;
      FILE *out = open_memstream(&back, &blen);
      cr_assert_eq(pcol_export(f, PCOL_FMT_RPROF, NULL, out, NULL, &err), 0, "%s", err.message);
      fclose(out);
      cr_assert_eq(blen, len, "exported %zu bytes, read %zu", blen, len);
      cr_assert(memcmp(back, text, len) == 0, "the export differs from the input");
      free(back);
      pcol_close(f);
    } else {
      cr_assert(mlen == first_len && memcmp(mem, first, mlen) == 0, "two imports differ");
      free(mem);
    }
  }
  free(first);
  free(text);
}

/* A pcol_top result read by many threads: peek names the keys it meets on
 * demand (line keys are named only when asked), under the result's lock.
 * Each thread's peek must equal the single-threaded one. */
typedef struct peek_shared {
  const pcol_top *t;
  pthread_barrier_t go;
  uint64_t want, got[NTHREADS];
} peek_shared;

static uint64_t peek_digest(const pcol_top *t) {
  pcol_peek pk;
  pcol_error err = {0};
  if (pcol_peek_compute(t, ".", &pk, &err)) return 0;
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < pk.nnodes; i++) {
    const pcol_peek_node *nd = &pk.nodes[i];
    const pcol_peek_edge *es[2] = {nd->in, nd->out};
    size_t ns[2] = {nd->nin, nd->nout};
    for (int s = 0; s < 2; s++)
      for (size_t j = 0; j < ns[s]; j++) {
        const pcol_peek_edge *e = &es[s][j];
        for (size_t c = 0; c < e->caller.len; c++) h = (h ^ (uint8_t)e->caller.ptr[c]) * 1099511628211ULL;
        for (size_t c = 0; c < e->callee.len; c++) h = (h ^ (uint8_t)e->callee.ptr[c]) * 1099511628211ULL;
        h = (h ^ (uint64_t)e->value) * 1099511628211ULL;
      }
  }
  pcol_peek_free(&pk);
  return h;
}

static void *peek_thread(void *p) {
  arg *a = p;
  peek_shared *s = (peek_shared *)(void *)a->s;
  pthread_barrier_wait(&s->go);
  s->got[a->k] = peek_digest(s->t);
  return NULL;
}

Test(threads, peek_on_one_cut_top_by_line) {
  /* 400 lines of 40 functions, 3000 stacks of 1-8 frames, a few heavy:
   * most rows fall under the cut */
  pcol_builder *b = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src, loc[400];
  cr_assert_eq(pcol_b_source(b, "pprof", "t", PCOL_NA_I64, &src, &err), 0);
  for (int i = 0; i < 400; i++) {
    char nm[32];
    snprintf(nm, sizeof nm, "fn_%d", i / 10);
    pcol_function_row fr = {0, 0, 0, PCOL_NA_I64};
    cr_assert_eq(pcol_b_cstr(b, nm, &fr.name, &err), 0);
    cr_assert_eq(pcol_b_cstr(b, "t.c", &fr.filename, &err), 0);
    uint32_t fn;
    cr_assert_eq(pcol_b_function(b, &fr, &fn, &err), 0);
    pcol_line_row l = {fn, 1 + i % 10, PCOL_NA_I64};
    cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &loc[i], &err), 0);
  }
  uint64_t x = 7;
  for (int i = 0; i < 3000; i++) {
    uint32_t st[8], stk;
    size_t d = 0;
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    for (size_t n = 1 + (x >> 60) % 8; d < n; d++) st[d] = loc[(x >> (8 * d)) % 400];
    cr_assert_eq(pcol_b_stack(b, st, d, &stk, &err), 0);
    pcol_sample_row sr = {src, i, 0, i % 100 ? 1 : 500, PCOL_NA_I64, stk, 0};
    cr_assert_eq(pcol_b_sample(b, &sr, NULL, 0, NULL, &err), 0);
  }
  void *mem = NULL;
  size_t len = 0;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &mem, &len, &err), 0, "%s", err.message);
  pcol_builder_free(b);
  pcol_file *f = NULL;
  cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0, "%s", err.message);
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, &err), 0, "%s", err.message);
  for (int round = 0; round < 2; round++) {
    pcol_top t, ref;
    size_t dropped = 0;
    cr_assert_eq(pcol_top_compute_cut(f, NULL, &v, PCOL_BY_LINE, 0.01, PCOL_SORT_FLAT, &t, &dropped, NULL, &err), 0,
                 "%s", err.message);
    cr_assert_gt(dropped, 10); /* the dropped rows' keys are named by peek, on demand */
    cr_assert_eq(pcol_top_compute_cut(f, NULL, &v, PCOL_BY_LINE, 0.01, PCOL_SORT_FLAT, &ref, NULL, NULL, &err), 0,
                 "%s", err.message);
    peek_shared s = {.t = &t};
    s.want = peek_digest(&ref);
    cr_assert_neq(s.want, 0);
    pcol_top_free(&ref);
    cr_assert_eq(pthread_barrier_init(&s.go, NULL, NTHREADS), 0);
    pthread_t th[NTHREADS];
    arg args[NTHREADS];
    for (int k = 0; k < NTHREADS; k++) {
      args[k] = (arg){(shared *)(void *)&s, k};
      cr_assert_eq(pthread_create(&th[k], NULL, peek_thread, &args[k]), 0);
    }
    for (int k = 0; k < NTHREADS; k++) pthread_join(th[k], NULL);
    pthread_barrier_destroy(&s.go);
    for (int k = 0; k < NTHREADS; k++) cr_assert_eq(s.got[k], s.want, "thread %d", k);
    pcol_top_free(&t);
  }
  pcol_close(f);
  free(mem);
}

/* pcol_top_many on threads (top_many.c): files shared among threads, each
 * adding up its own names, the sums added by name at the end.  Twelve
 * pprof-like files whose function sets overlap and whose locations have
 * inlined lines (the marks' call edges, read by several threads): the rows,
 * marks and total on four threads are those on one. */
static int write_day_file(const char *path, uint32_t seed, pcol_error *err) {
  pcol_builder *b = NULL;
  int rc = pcol_builder_new(&b, err);
  uint32_t src, ty, un, vt1, vt2, fn[12], loc[12];
  if (!rc) rc = pcol_b_source(b, "pprof", "day.pb.gz", 1700000000 + 60 * (int64_t)seed, &src, err);
  if (!rc) rc = pcol_b_cstr(b, "samples", &ty, err);
  if (!rc) rc = pcol_b_cstr(b, "count", &un, err);
  if (!rc) rc = pcol_b_value_type(b, ty, un, &vt1, err);
  if (!rc) rc = pcol_b_cstr(b, "cpu", &ty, err);
  if (!rc) rc = pcol_b_cstr(b, "nanoseconds", &un, err);
  if (!rc) rc = pcol_b_value_type(b, ty, un, &vt2, err);
  if (!rc) rc = pcol_b_source_value_type(b, src, vt1, err);
  if (!rc) rc = pcol_b_source_value_type(b, src, vt2, err);
  for (uint32_t i = 0; !rc && i < 12; i++) { /* names fn_<seed+i>: a window over 40 */
    char nm[32];
    snprintf(nm, sizeof nm, "fn_%u", (seed * 3 + i) % 40);
    pcol_function_row fr = {0, 0, 0, PCOL_NA_I64};
    rc = pcol_b_cstr(b, nm, &fr.name, err);
    fr.system_name = fr.name;
    if (!rc) rc = pcol_b_cstr(b, "day.go", &fr.filename, err);
    if (!rc) rc = pcol_b_function(b, &fr, &fn[i], err);
  }
  for (uint32_t i = 0; !rc && i < 12; i++) { /* every third location: an inlined line */
    pcol_line_row ln[2] = {{fn[i], 10 + i, PCOL_NA_I64}, {fn[(i + 5) % 12], 20 + i, PCOL_NA_I64}};
    rc = pcol_b_location(b, 0, 0x1000 + 16u * i, 0, ln, i % 3 == 0 ? 2 : 1, &loc[i], err);
  }
  uint64_t x = seed * 2654435761u + 1;
  for (uint32_t i = 0; !rc && i < 300; i++) {
    uint32_t chain[8], depth = 1 + (uint32_t)(x >> 60) % 8, st, sid;
    for (uint32_t d = 0; d < depth; d++) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      chain[d] = loc[(x >> 33) % 12];
    }
    rc = pcol_b_stack(b, chain, depth, &st, err);
    pcol_sample_row sr = {src, PCOL_NA_I64, 0, 0, PCOL_NA_I64, st, 0};
    pcol_value_row vr[2] = {{vt1, 1}, {vt2, 10000000 * (int64_t)(1 + i % 3)}};
    if (!rc) rc = pcol_b_sample(b, &sr, vr, 2, &sid, err);
  }
  if (!rc) rc = pcol_builder_write(b, path, NULL, err);
  pcol_builder_free(b);
  return rc;
}

Test(threads, top_many_on_four_threads_is_top_on_one) {
  char dir[] = "/tmp/pcol-top-many-XXXXXX";
  cr_assert(mkdtemp(dir) != NULL);
  char paths[12][64];
  const char *pv[12];
  pcol_error err = {0};
  for (int i = 0; i < 12; i++) {
    snprintf(paths[i], sizeof paths[i], "%s/m%02d.pcol", dir, i);
    pv[i] = paths[i];
    cr_assert_eq(write_day_file(paths[i], (uint32_t)i, &err), 0, "%s", err.message);
  }
  const char *was = getenv("PCOL_THREADS");
  for (int shown = 3; shown <= 100; shown += 97) {
    pcol_top t[2];
    pcol_many_top info[2];
    for (int r = 0; r < 2; r++) {
      size_t dropped = 0;
      setenv("PCOL_THREADS", r ? "4" : "1", 1);
      cr_assert_eq(pcol_top_many(pv, 12, NULL, NULL, NULL, PCOL_BY_FUNCTION, 0, PCOL_SORT_CUM,
                                 (size_t)shown, &t[r], &dropped, NULL, &info[r], &err),
                   0, "%s", err.message);
      cr_assert(info[r].answered);
      cr_assert_eq(info[r].used, 12);
      cr_assert_eq(info[r].threads, r ? 4u : 1u);
    }
    cr_assert_gt(t[0].nrows, 20);
    cr_assert_eq(t[1].nrows, t[0].nrows);
    cr_assert(t[1].total == t[0].total);
    int marked = 0;
    for (size_t i = 0; i < t[0].nrows; i++) {
      const pcol_top_row *a = &t[0].rows[i], *c = &t[1].rows[i];
      cr_assert(a->name.len == c->name.len && !memcmp(a->name.ptr, c->name.ptr, a->name.len),
                "row %zu: %.*s / %.*s", i, (int)a->name.len, a->name.ptr, (int)c->name.len, c->name.ptr);
      cr_assert(a->flat == c->flat && a->cum == c->cum, "row %zu (%.*s)", i, (int)a->name.len, a->name.ptr);
      cr_assert_eq(a->inl, c->inl, "row %zu (%.*s)", i, (int)a->name.len, a->name.ptr);
      marked += a->inl != PCOL_INLINE_NONE;
    }
    if (shown > 3) cr_assert_gt(marked, 0); /* the marks were made, not only the sums */
    pcol_top_free(&t[0]);
    pcol_top_free(&t[1]);
  }
  if (was) setenv("PCOL_THREADS", was, 1);
  else unsetenv("PCOL_THREADS");
  for (int i = 0; i < 12; i++) unlink(paths[i]);
  rmdir(dir);
}

/* A collapsed-stacks file of its own stacks, gzip-compressed (cut: the
 * stream cut short, as a file being written is). */
static void write_gz_stacks(const char *path, int seed, int cut) {
  char text[65536];
  size_t n = 0;
  for (int s = 0; s < 300; s++)
    n += (size_t)snprintf(text + n, sizeof text - n, "main;svc_%d;fn%d;leaf%d %d\n", seed % 3,
                          (seed * 7 + s) % 41, s % 13, 1 + (s * seed) % 9);
  gzFile g = gzopen(path, "wb");
  cr_assert(g != NULL);
  cr_assert_eq(gzwrite(g, text, (unsigned)n), (int)n);
  cr_assert_eq(gzclose(g), Z_OK);
  if (cut) cr_assert_eq(truncate(path, 200), 0);
}

/* pcol_open_many with its read-ahead thread (lib/convert/ahead.c) and
 * without: the same union of 16 gzip inputs, and the same refusal of one
 * cut short among them. */
Test(threads, open_many_inflated_ahead_is_open_many_alone) {
  char dir[] = "/tmp/pcol-ahead-XXXXXX";
  cr_assert(mkdtemp(dir) != NULL);
  char paths[17][64];
  const char *pv[17];
  for (int i = 0; i < 17; i++) {
    snprintf(paths[i], sizeof paths[i], "%s/s%02d.folded.gz", dir, i);
    pv[i] = paths[i];
    write_gz_stacks(paths[i], i + 1, i == 16);
  }
  const char *was = getenv("PCOL_THREADS");
  pcol_top t[2];
  pcol_file *fs[2] = {NULL, NULL}; /* open until the rows' names are compared */
  uint64_t rows[2][4];
  static const int tables[4] = {PCOL_T_SAMPLES, PCOL_T_STACKS, PCOL_T_FUNCTIONS, PCOL_T_STRINGS};
  for (int r = 0; r < 2; r++) {
    pcol_error err = {0};
    pcol_file *f = NULL;
    size_t used = 0;
    setenv("PCOL_THREADS", r ? "2" : "1", 1);
    cr_assert_eq(pcol_open_many(pv, 16, NULL, NULL, &f, &used, &err), 0, "%s", err.message);
    cr_assert_eq(used, 16);
    for (int k = 0; k < 4; k++) rows[r][k] = pcol_rows(f, tables[k]);
    pcol_value_sel v;
    cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_top_compute(f, NULL, &v, PCOL_BY_FUNCTION, &t[r], &err), 0, "%s", err.message);
    fs[r] = f;
    /* the cut one, among the others: refused alike, and named */
    pcol_error bad = {0};
    cr_assert_neq(pcol_open_many(pv, 17, NULL, NULL, &f, &used, &bad), 0);
    cr_assert(strstr(bad.message, paths[16]) != NULL, "%s", bad.message);
    static char first[sizeof bad.message];
    if (!r) memcpy(first, bad.message, sizeof first);
    else cr_assert(!strcmp(bad.message, first), "%s / %s", bad.message, first);
  }
  if (was) setenv("PCOL_THREADS", was, 1);
  else unsetenv("PCOL_THREADS");
  for (int k = 0; k < 4; k++) cr_assert_eq(rows[1][k], rows[0][k], "table %d", tables[k]);
  cr_assert_gt(t[0].nrows, 40);
  cr_assert_eq(t[1].nrows, t[0].nrows);
  cr_assert(t[1].total == t[0].total);
  for (size_t i = 0; i < t[0].nrows; i++) {
    const pcol_top_row *a = &t[0].rows[i], *c = &t[1].rows[i];
    cr_assert(a->name.len == c->name.len && !memcmp(a->name.ptr, c->name.ptr, a->name.len), "row %zu", i);
    cr_assert(a->flat == c->flat && a->cum == c->cum, "row %zu", i);
  }
  pcol_top_free(&t[0]);
  pcol_top_free(&t[1]);
  pcol_close(fs[0]);
  pcol_close(fs[1]);
  for (int i = 0; i < 17; i++) unlink(paths[i]);
  rmdir(dir);
}

/* An error in the first input stops the import while the read-ahead thread
 * is still inflating the ones behind it (ahead.c: the thread is left to end
 * on its own, with its own copy of the paths, which the caller frees at
 * once).  Under ThreadSanitizer, repeated: no race, no use after free. */
Test(threads, open_many_fails_while_the_thread_reads_ahead) {
  char dir[] = "/tmp/pcol-ahead-stop-XXXXXX";
  cr_assert(mkdtemp(dir) != NULL);
  enum { N = 9 };
  char *paths[N];
  for (int i = 0; i < N; i++) {
    paths[i] = malloc(64);
    snprintf(paths[i], 64, "%s/s%d.folded.gz", dir, i);
    write_gz_stacks(paths[i], i + 3, i == 0);
  }
  const char *was = getenv("PCOL_THREADS");
  setenv("PCOL_THREADS", "2", 1);
  for (int round = 0; round < 20; round++) {
    char *copy[N];
    for (int i = 0; i < N; i++) copy[i] = strdup(paths[i]);
    pcol_file *f = NULL;
    size_t used = 0;
    pcol_error err = {0};
    cr_assert_neq(pcol_open_many((const char *const *)copy, N, NULL, NULL, &f, &used, &err), 0);
    cr_assert(strstr(err.message, "s0.folded.gz") != NULL, "%s", err.message);
    for (int i = 0; i < N; i++) {
      memset(copy[i], 'x', strlen(copy[i])); /* what the thread must not read */
      free(copy[i]);
    }
  }
  if (was) setenv("PCOL_THREADS", was, 1);
  else unsetenv("PCOL_THREADS");
  usleep(200000); /* the last thread ends (and frees) before the files go */
  for (int i = 0; i < N; i++) {
    unlink(paths[i]);
    free(paths[i]);
  }
  rmdir(dir);
}
