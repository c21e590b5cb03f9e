/* test_writer.c — the streaming writer (pcol_writer_*): its files are the
 * files the builder makes from the same samples (every logical view the
 * same through `pcol cat`), rolling by count and by time gives complete
 * valid files whose union is the unrolled profile, labels, times and
 * durations are kept, and bad arguments are refused with a message while
 * the writer goes on. */
#include "testutil.h"
#include <dirent.h>
#include <time.h>

static char dir[256];

static void mkdir_tmp(void) {
  snprintf(dir, sizeof dir, "/tmp/pcol_test_writer.XXXXXX");
  cr_assert(mkdtemp(dir));
}
static void rm_tmp(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}
TestSuite(writer, .init = mkdir_tmp, .fini = rm_tmp);

static const char *pcol_bin(void) {
  static char p[512];
  const char *b = getenv("PCOL_BUILD");
  snprintf(p, sizeof p, "%s/bin/pcol", b ? b : "build");
  return p;
}

/* Output of `pcol ARGS` (malloc'd); the command must succeed. */
static char *run(const char *args) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "%s %s", pcol_bin(), args);
  FILE *p = popen(cmd, "r");
  cr_assert(p);
  size_t cap = 1 << 16, n = 0, k;
  char *out = malloc(cap);
  while ((k = fread(out + n, 1, cap - n - 1, p)) > 0)
    if ((n += k) + 1 == cap) out = realloc(out, cap *= 2);
  out[n] = 0;
  cr_assert_eq(pclose(p), 0, "%s", cmd);
  return out;
}

/* Every logical view (spec.md §11) of two files is the same text. */
static void same_views(const char *a, const char *b) {
  static const char *views[] = {"meta", "sources", "value_types", "source_value_types",
                                "samples", "sample_values", "sample_locations", "sample_labels",
                                "locations", "location_lines", "functions", "mappings",
                                "stacks", "strings", "text_lines", "sample_text"};
  for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
    char args[1200];
    snprintf(args, sizeof args, "cat %s --table %s", a, views[i]);
    char *x = run(args);
    snprintf(args, sizeof args, "cat %s --table %s", b, views[i]);
    char *y = run(args);
    cr_assert_str_eq(x, y, "view %s differs:\n%s\n---\n%s", views[i], x, y);
    free(x);
    free(y);
  }
}

static void validate(const char *path) {
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(pcol_open(path, NULL, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s: %s", path, err.message);
  pcol_close(f);
}

/* ------------------------------------------------ a fixed set of samples */
#define NS 400
static const pcol_writer_value_type VTS[2] = {{"samples", "count"}, {"cpu", "nanoseconds"}};
static const pcol_writer_frame FRAMES[6] = {
    {"leaf_a", "a.c", 10, 0},   {"leaf_b", "b.c", 20, 0x1000}, {"mid", "m.c", 0, 0},
    {"main", "main.c", 5, 0},   {NULL, NULL, 0, 0xdead},       {"leaf_a", "a.c", 11, 0}};
static const int64_t T0 = 1763890000123456789; /* 2025-11-23, with ns */

/* Sample i: a stack of 1..4 frames, values, time, duration, labels. */
static void sample_of(int i, pcol_writer_frame *fr, size_t *nfr, int64_t *v,
                      pcol_writer_label *lab, size_t *nlab, pcol_writer_sample *s) {
  size_t n = 1 + (size_t)(i % 4);
  fr[0] = FRAMES[(i * 7) % 6];
  for (size_t k = 1; k < n; k++) fr[k] = FRAMES[k == n - 1 ? 3 : 2 + (i + (int)k) % 3];
  *nfr = n;
  v[0] = 1;
  v[1] = 10000000 + i;
  *nlab = (size_t)(i % 3);
  lab[0] = (pcol_writer_label){"thread", i % 2 ? "worker" : "main", 0, NULL};
  lab[1] = (pcol_writer_label){"bytes", NULL, 4096 * i, "bytes"};
  *s = (pcol_writer_sample){.frames = fr, .nframes = n, .values = v, .nvalues = 2,
                            .has_time = 1, .time_unix_ns = T0 + (int64_t)i * 10000000,
                            .duration_ns = i % 5 == 0 ? 30000000 : 0, .weight = i % 5 == 0 ? 3 : 0,
                            .labels = lab, .nlabels = *nlab};
}

static const char *META[4] = {"agent", "test", "host", "h1"};
static pcol_writer_options options(void) {
  return (pcol_writer_options){.source_uri = "svc", .meta = META, .nmeta = 2,
                               .value_types = VTS, .nvalue_types = 2, .period = 10000000,
                               .period_type = "cpu", .period_unit = "nanoseconds"};
}

/* The same samples [lo, hi) through the builder, as the writer's contract
 * in pcol.h says it stores them: the file starts at its first sample (or
 * at the previous file's end when that is earlier: not in these tests,
 * where a file [0, lo) ends at sample lo's time, T0 + 30 ms at lo = 3). */
static void builder_file(int lo, int hi, const char *path) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  int64_t first = T0 + (int64_t)lo * 10000000;
  int64_t ts = first / 1000000000;
  uint32_t src, vt[2], t, u;
  cr_assert_eq(pcol_b_source(b, "pprof", "svc", ts, &src, NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "agent", "test", NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "host", "h1", NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "pprof.period_type.type", "cpu", NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "pprof.period_type.unit", "nanoseconds", NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "pprof.period", "10000000", NULL), 0);
  for (int k = 0; k < 2; k++) {
    cr_assert_eq(pcol_b_cstr(b, VTS[k].type, &t, NULL), 0);
    cr_assert_eq(pcol_b_cstr(b, VTS[k].unit, &u, NULL), 0);
    cr_assert_eq(pcol_b_value_type(b, t, u, &vt[k], NULL), 0);
    cr_assert_eq(pcol_b_source_value_type(b, src, vt[k], NULL), 0);
  }
  int64_t end = 0, maxd = 0;
  for (int i = lo; i < hi; i++) {
    pcol_writer_frame fr[4];
    pcol_writer_label lab[2];
    size_t nfr, nlab;
    int64_t v[2];
    pcol_writer_sample s;
    sample_of(i, fr, &nfr, v, lab, &nlab, &s);
    uint32_t locs[4], st, ls = 0;
    for (size_t k = 0; k < nfr; k++) {
      if (!fr[k].function) {
        cr_assert_eq(pcol_b_location(b, 0, fr[k].address, 0, NULL, 0, &locs[k], NULL), 0);
        continue;
      }
      pcol_function_row r = {0, 0, 0, PCOL_NA_I64};
      uint32_t fid;
      cr_assert_eq(pcol_b_cstr(b, fr[k].function, &r.name, NULL), 0);
      cr_assert_eq(pcol_b_cstr(b, fr[k].file, &r.filename, NULL), 0);
      cr_assert_eq(pcol_b_function(b, &r, &fid, NULL), 0);
      pcol_line_row l = {fid, fr[k].line ? fr[k].line : PCOL_NA_I64, PCOL_NA_I64};
      cr_assert_eq(pcol_b_location(b, 0, fr[k].address, 0, &l, 1, &locs[k], NULL), 0);
    }
    cr_assert_eq(pcol_b_stack(b, locs, nfr, &st, NULL), 0);
    if (nlab) {
      pcol_label_row lr[2];
      for (size_t k = 0; k < nlab; k++) {
        lr[k].num = lab[k].num;
        cr_assert_eq(pcol_b_cstr(b, lab[k].key, &lr[k].key, NULL), 0);
        cr_assert_eq(pcol_b_cstr(b, lab[k].str, &lr[k].str, NULL), 0);
        cr_assert_eq(pcol_b_cstr(b, lab[k].num_unit, &lr[k].num_unit, NULL), 0);
      }
      cr_assert_eq(pcol_b_labelset(b, lr, nlab, &ls, NULL), 0);
    }
    pcol_sample_row row = {src, s.time_unix_ns - first, s.duration_ns,
                           s.weight ? s.weight : 1, PCOL_NA_I64, st, ls};
    pcol_value_row vr[2] = {{vt[0], v[0]}, {vt[1], v[1]}};
    cr_assert_eq(pcol_b_sample(b, &row, vr, 2, NULL, NULL), 0);
    /* a point sample lasts the period, 10 ms in nanoseconds (pcol.h) */
    int64_t e = s.time_unix_ns + (s.duration_ns ? s.duration_ns : 10000000);
    if (e > end) end = e;
    if (s.duration_ns > maxd) maxd = s.duration_ns;
  }
  char num[32];
  /* the source's start, which the sample times count from (spec.md §7: a
   * reader adds them to time_nanos); its timestamp is that second */
  snprintf(num, sizeof num, "%lld", (long long)first);
  cr_assert_eq(pcol_b_meta_str(b, src, "pprof.time_nanos", num, NULL), 0);
  snprintf(num, sizeof num, "%lld", (long long)(end - first));
  cr_assert_eq(pcol_b_meta_str(b, src, "pprof.duration_nanos", num, NULL), 0);
  if (maxd) {
    snprintf(num, sizeof num, "%lld", (long long)maxd);
    cr_assert_eq(pcol_b_meta_str(b, src, "pcol.max_duration_ns", num, NULL), 0);
  }
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_write(b, path, NULL, &err), 0, "%s", err.message);
  pcol_builder_free(b);
}

static void add_range(pcol_writer *w, int lo, int hi) {
  for (int i = lo; i < hi; i++) {
    pcol_writer_frame fr[4];
    pcol_writer_label lab[2];
    size_t nfr, nlab;
    int64_t v[2];
    pcol_writer_sample s;
    sample_of(i, fr, &nfr, v, lab, &nlab, &s);
    pcol_error err = {0};
    cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "sample %d: %s", i, err.message);
  }
}

typedef struct published {
  char paths[64][512];
  int n;
} published;
static void on_file(void *ctx, const char *path) {
  published *p = ctx;
  cr_assert_lt(p->n, 64);
  snprintf(p->paths[p->n++], 512, "%s", path);
}

Test(writer, same_file_as_the_builder) {
  char wpath[400], bpath[400];
  snprintf(wpath, sizeof wpath, "%s/w.pcol", dir);
  snprintf(bpath, sizeof bpath, "%s/b.pcol", dir);
  pcol_writer_options o = options();
  pcol_writer *w;
  pcol_error err = {0};
  cr_assert_eq(pcol_writer_open(&w, wpath, &o, &err), 0, "%s", err.message);
  cr_assert(access(wpath, F_OK) != 0, "nothing is written before close");
  add_range(w, 0, NS);
  cr_assert_eq(pcol_writer_pending(w), NS);
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
  builder_file(0, NS, bpath);
  validate(wpath);
  same_views(wpath, bpath);
  /* the views a user reads: top and the label tags */
  char a[1024], b[1024];
  snprintf(a, sizeof a, "top --value cpu %s | tail -n +2", wpath);
  snprintf(b, sizeof b, "top --value cpu %s | tail -n +2", bpath);
  char *x = run(a), *y = run(b);
  cr_assert_str_eq(x, y);
  cr_assert(strstr(x, "leaf_a"), "%s", x);
  free(x);
  free(y);
}

/* ids of pcol_writer_function/location stay valid across rolls; every
 * rolled file is complete; their union is the unrolled profile */
Test(writer, roll_by_count_with_ids) {
  char path[400], one[400], merged[400];
  snprintf(path, sizeof path, "%s/r.pcol", dir);
  snprintf(one, sizeof one, "%s/one.pcol", dir);
  snprintf(merged, sizeof merged, "%s/merged.pcol", dir);
  published pub = {.n = 0};
  pcol_error err = {0};
  pcol_writer *w[2];
  for (int k = 0; k < 2; k++) {
    pcol_writer_options o = options();
    if (k == 0) o.roll_samples = 7, o.on_file = on_file, o.ctx = &pub;
    cr_assert_eq(pcol_writer_open(&w[k], k ? one : path, &o, &err), 0, "%s", err.message);
    uint32_t fa, fb, fm, l[3];
    int64_t ln[2] = {3, 9};
    cr_assert_eq(pcol_writer_function(w[k], "alpha", NULL, "x.c", 1, &fa, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_writer_function(w[k], "beta", NULL, "x.c", 2, &fb, &err), 0);
    cr_assert_eq(pcol_writer_function(w[k], "main", NULL, "x.c", 7, &fm, &err), 0);
    uint32_t again;
    cr_assert_eq(pcol_writer_function(w[k], "alpha", NULL, "x.c", 1, &again, &err), 0);
    cr_assert_eq(again, fa, "functions are deduplicated");
    uint32_t inl[2] = {fb, fa}; /* beta inlined into alpha */
    cr_assert_eq(pcol_writer_location(w[k], 0x400, inl, ln, 2, &l[0], &err), 0, "%s", err.message);
    cr_assert_eq(pcol_writer_location(w[k], 0x500, &fa, ln, 1, &l[1], &err), 0);
    cr_assert_eq(pcol_writer_location(w[k], 0x600, &fm, ln + 1, 1, &l[2], &err), 0);
    for (int i = 0; i < 20; i++) {
      uint32_t st[2] = {l[i % 2], l[2]};
      int64_t v[2] = {1, 1000 * (i + 1)};
      pcol_writer_sample s = {.locations = st, .nlocations = 2, .values = v, .nvalues = 2,
                              .has_time = 1, .time_unix_ns = T0 + i * 1000};
      cr_assert_eq(pcol_writer_add(w[k], &s, &err), 0, "%s", err.message);
    }
    cr_assert_eq(pcol_writer_close(w[k], &err), 0, "%s", err.message);
  }
  cr_assert_eq(pub.n, 3, "20 samples by 7: files of 7, 7 and 6");
  uint64_t want[3] = {7, 7, 6};
  char args[4096] = "merge";
  for (int i = 0; i < 3; i++) {
    cr_assert(strstr(pub.paths[i], "/r-") && strstr(pub.paths[i], ".pcol"), "%s", pub.paths[i]);
    char seq[32];
    snprintf(seq, sizeof seq, "-%06d.pcol", i + 1);
    cr_assert(strstr(pub.paths[i], seq), "%s", pub.paths[i]);
    validate(pub.paths[i]);
    pcol_file *f;
    cr_assert_eq(pcol_open(pub.paths[i], NULL, &f, &err), 0);
    cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), want[i]);
    cr_assert_eq(pcol_rows(f, PCOL_T_FUNCTIONS), 3, "each file has its functions");
    pcol_close(f);
    strcat(args, " ");
    strcat(args, pub.paths[i]);
  }
  strcat(args, " -o ");
  strcat(args, merged);
  free(run(args));
  char a[1024], b[1024];
  /* the rows (a merged file of 3 sources has no single Time/Duration) */
  snprintf(a, sizeof a, "top --value cpu %s | sed -n '/^Showing/,$p'", merged);
  snprintf(b, sizeof b, "top --value cpu %s | sed -n '/^Showing/,$p'", one);
  char *x = run(a), *y = run(b);
  cr_assert_str_eq(x, y);
  /* alpha (l[1] leaf, l[0] around the inlined beta): cum 1000 x (1 + ... + 20) ns */
  cr_assert(strstr(x, "beta") && strstr(x, "210us"), "%s", x);
  free(x);
  free(y);
  /* no temporary file is left in the directory */
  DIR *d = opendir(dir);
  struct dirent *e;
  while ((e = readdir(d))) cr_assert(!strstr(e->d_name, ".tmp-"), "%s left", e->d_name);
  closedir(d);
}

static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};
  nanosleep(&t, NULL);
}

Test(writer, roll_by_time) {
  char path[400];
  snprintf(path, sizeof path, "%s/t.pcol", dir);
  published pub = {.n = 0};
  pcol_writer_options o = options();
  o.roll_ns = 150000000; /* 150 ms */
  o.on_file = on_file;
  o.ctx = &pub;
  pcol_writer *w;
  pcol_error err = {0};
  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0, "%s", err.message);
  add_range(w, 0, 3);
  cr_assert_eq(pcol_writer_poll(w, &err), 0);
  cr_assert_eq(pub.n, 0, "not yet due");
  sleep_ms(200);
  add_range(w, 3, 5); /* due: the first 3 are published before these */
  cr_assert_eq(pub.n, 1);
  cr_assert_eq(pcol_writer_pending(w), 2);
  sleep_ms(200);
  cr_assert_eq(pcol_writer_poll(w, &err), 0, "%s", err.message);
  cr_assert_eq(pub.n, 2, "poll publishes a due file");
  sleep_ms(200);
  cr_assert_eq(pcol_writer_poll(w, &err), 0);
  cr_assert_eq(pub.n, 2, "an empty period writes no file");
  /* roll_ns counts from the file's first sample, not from the last poll
   * (review 11 m2): 100 ms after that poll a sample, 60 ms later not due */
  sleep_ms(100);
  add_range(w, 5, 6);
  sleep_ms(60);
  cr_assert_eq(pcol_writer_poll(w, &err), 0);
  cr_assert_eq(pub.n, 2, "the file is 60 ms old");
  cr_assert_eq(pcol_writer_flush(w, &err), 0);
  cr_assert_eq(pub.n, 3);
  cr_assert_eq(pcol_writer_close(w, &err), 0);
  cr_assert_eq(pub.n, 3, "close writes no empty rolled file");
  char b[400];
  snprintf(b, sizeof b, "%s/b.pcol", dir);
  builder_file(0, 3, b);
  same_views(pub.paths[0], b);
  builder_file(3, 5, b);
  same_views(pub.paths[1], b);
}

/* what the views say of times, durations and labels, from the numbers
 * given (not from pcol's own output) */
Test(writer, times_durations_labels_kept) {
  char path[400];
  snprintf(path, sizeof path, "%s/k.pcol", dir);
  pcol_writer_options o = options();
  pcol_writer *w;
  pcol_error err = {0};
  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0);
  add_range(w, 0, 10);
  cr_assert_eq(pcol_writer_close(w, &err), 0);
  pcol_file *f;
  cr_assert_eq(pcol_open(path, NULL, &f, &err), 0);
  pcol_view ts, tm, du, wt, ls;
  cr_assert_eq(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tm, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &du, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &wt, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &ls, &err), 0);
  cr_assert_eq(pcol_view_i64(&ts, 0), T0 / 1000000000);
  int64_t start;
  cr_assert_eq(pcol_meta_get_i64(f, 1, "pprof.time_nanos", &start, &err), 0, "%s", err.message);
  cr_assert_eq(start, T0, "the file starts at its first sample");
  for (int i = 0; i < 10; i++) {
    cr_assert_eq(start + pcol_view_i64(&tm, (uint64_t)i), T0 + (int64_t)i * 10000000);
    cr_assert_eq(pcol_view_i64(&du, (uint64_t)i), i % 5 == 0 ? 30000000 : 0);
    cr_assert_eq(pcol_view_i64(&wt, (uint64_t)i), i % 5 == 0 ? 3 : 1);
    cr_assert_eq(pcol_view_u32(&ls, (uint64_t)i) != 0, i % 3 != 0);
  }
  pcol_str v;
  cr_assert_eq(pcol_meta_get(f, 1, "pcol.max_duration_ns", &v, &err), 0);
  cr_assert_eq(v.len, 8);
  cr_assert(!memcmp(v.ptr, "30000000", 8));
  pcol_close(f);
  char args[600];
  snprintf(args, sizeof args, "cat %s --table sample_labels", path);
  char *x = run(args);
  /* sample 2 (i = 1): thread=worker; sample 3 (i = 2): thread=main and bytes 8192 */
  cr_assert(strstr(x, "2\tthread\tworker"), "%s", x);
  cr_assert(strstr(x, "3\tbytes\tNA\t8192\tbytes"), "%s", x);
  free(x);
}

static int refused(pcol_writer *w, const pcol_writer_sample *s, const char *want) {
  pcol_error err = {0};
  int rc = pcol_writer_add(w, s, &err);
  cr_assert_eq(rc, PCOL_EINVAL, "%s: rc %d", want, rc);
  cr_assert(strstr(err.message, want), "'%s' not in '%s'", want, err.message);
  return 1;
}

Test(writer, hostile_arguments_refused) {
  char path[400];
  snprintf(path, sizeof path, "%s/h.pcol", dir);
  pcol_writer *w = (pcol_writer *)1;
  pcol_error err = {0};
  pcol_writer_options o = options();
  /* open */
  cr_assert_eq(pcol_writer_open(&w, NULL, &o, &err), PCOL_EINVAL);
  cr_assert_null(w);
  cr_assert_eq(pcol_writer_open(&w, "-", &o, &err), PCOL_EINVAL);
  cr_assert_eq(pcol_writer_open(&w, path, NULL, &err), PCOL_EINVAL);
  cr_assert_eq(pcol_writer_open(&w, "/nonexistent/dir/x.pcol", &o, &err), PCOL_EIO);
  cr_assert(strstr(err.message, "/nonexistent/dir"), "%s", err.message);
  pcol_writer_options bad = o;
  bad.nvalue_types = 0;
  cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), PCOL_EINVAL);
  pcol_writer_value_type nounit[1] = {{"cpu", NULL}};
  bad = o, bad.value_types = nounit, bad.nvalue_types = 1;
  cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), PCOL_EINVAL);
  cr_assert(strstr(err.message, "unit"), "%s", err.message);
  const char *m1[2] = {"k", NULL};
  bad = o, bad.meta = m1, bad.nmeta = 1;
  cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), PCOL_EINVAL);
  bad = o, bad.period_type = NULL;
  cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), PCOL_EINVAL);
  bad = o, bad.period = -1;
  cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), PCOL_EINVAL);
  /* meta keys the writer writes, or that readers prefer over them
   * (spec.md §7's start and period rules): a caller's row would override the
   * writer's time or period (helper-88 F1: time 1970, period 999 with
   * PCOL_OK); refused, naming the key and the option to use */
  static const char *const owned[][2] = {
      {"pprof.period", "period option"},
      {"pprof.period_type.type", "period_type option"},
      {"pprof.period_type.unit", "period_unit option"},
      {"otlp.period", "period option"},
      {"otlp.period_type.type", "period_type option"},
      {"otlp.period_type.unit", "period_unit option"},
      {"pprof.time_nanos", "time_unix_ns"},
      {"pprof.duration_nanos", "duration_ns"},
      {"otlp.time_unix_nano", "time_unix_ns"},
      {"otlp.duration_nano", "duration_ns"},
      {"pcol.max_duration_ns", "duration_ns"},
  };
  for (size_t i = 0; i < sizeof owned / sizeof *owned; i++) {
    const char *m[4] = {"comment", "fine", owned[i][0], "999"};
    bad = o, bad.meta = m, bad.nmeta = 2;
    w = (pcol_writer *)1;
    cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), PCOL_EINVAL, "%s accepted", m[2]);
    cr_assert_null(w);
    cr_assert(strstr(err.message, owned[i][0]) && strstr(err.message, owned[i][1]) &&
                  strstr(err.message, "meta row 2"), "%s", err.message);
  }
  /* keys beside them stay the caller's */
  const char *mine[4] = {"pprof.comment", "c", "otlp.scope.name", "s"};
  bad = o, bad.meta = mine, bad.nmeta = 2;
  cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
  /* one (type, unit) twice: only the first would be reachable by --value */
  pcol_writer_value_type twice[3] = {{"cpu", "nanoseconds"}, {"cpu", "count"},
                                     {"cpu", "nanoseconds"}};
  bad = o, bad.value_types = twice, bad.nvalue_types = 3;
  cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), PCOL_EINVAL, "a repeated value type accepted");
  cr_assert(strstr(err.message, "value type 3 (cpu nanoseconds) repeats value type 1"), "%s",
            err.message);
  bad.nvalue_types = 2; /* same type, other unit: fine */
  cr_assert_eq(pcol_writer_open(&w, path, &bad, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);

  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0, "%s", err.message);
  int64_t v[2] = {1, 5};
  pcol_writer_frame fr = {"f", "f.c", 1, 0};
  uint32_t loc = 1;
  pcol_writer_label lab = {NULL, "x", 0, NULL};
  pcol_writer_sample good = {.frames = &fr, .nframes = 1, .values = v, .nvalues = 2,
                             .has_time = 1, .time_unix_ns = T0};
  cr_assert_eq(pcol_writer_add(w, &good, &err), 0, "%s", err.message);
  pcol_writer_sample s;
  refused(w, NULL, "NULL sample");
  s = good, s.nvalues = 1;
  refused(w, &s, "1 values");
  s = good, s.values = NULL;
  refused(w, &s, "without its array");
  s = good, s.frames = NULL;
  refused(w, &s, "without its array");
  s = good, s.locations = &loc, s.nlocations = 1;
  refused(w, &s, "not both");
  s = good, s.frames = NULL, s.nframes = 0, s.locations = &loc, s.nlocations = 1;
  refused(w, &s, "location 1, but 0");
  s = good, s.labels = &lab, s.nlabels = 1;
  refused(w, &s, "no key");
  s = good, s.duration_ns = -1;
  refused(w, &s, "negative duration");
  s = good, s.weight = -5;
  refused(w, &s, "negative weight");
  s = good, s.time_unix_ns = T0 - 1;
  refused(w, &s, "time order");
  s = good, s.time_unix_ns = -1;
  refused(w, &s, "before 1970");
  s = good, s.time_unix_ns = INT64_MAX - 5, s.duration_ns = 10;
  refused(w, &s, "overflows");
  s = good, s.has_time = 0;
  refused(w, &s, "without a time");
  s = good, s.nframes = (size_t)UINT32_MAX + 1;
  refused(w, &s, "too long");
  uint32_t id;
  uint32_t nofn = 7;
  int64_t ln = 1;
  cr_assert_eq(pcol_writer_location(w, 0, &nofn, &ln, 1, &id, &err), PCOL_EINVAL);
  cr_assert(strstr(err.message, "function 7"), "%s", err.message);
  cr_assert_eq(pcol_writer_location(w, 0, NULL, &ln, 1, &id, &err), PCOL_EINVAL);
  cr_assert_eq(pcol_writer_function(NULL, "f", NULL, NULL, 0, &id, &err), PCOL_EINVAL);
  cr_assert_eq(pcol_writer_add(NULL, &good, &err), PCOL_EINVAL);
  /* the writer went on: a second good sample, and the file has the two */
  good.time_unix_ns = T0 + 1;
  cr_assert_eq(pcol_writer_add(w, &good, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_writer_flush(w, &err), 0, "%s", err.message);
  refused(w, &good, "already published");
  cr_assert_eq(pcol_writer_close(w, &err), 0);
  cr_assert_eq(pcol_writer_close(NULL, &err), 0);
  validate(path);
  pcol_file *f;
  cr_assert_eq(pcol_open(path, NULL, &f, &err), 0);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 2);
  pcol_close(f);
}

/* without rolling, close writes the file even with no sample */
Test(writer, empty_single_file) {
  char path[400];
  snprintf(path, sizeof path, "%s/e.pcol", dir);
  pcol_writer_options o = options();
  pcol_writer *w;
  pcol_error err = {0};
  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0);
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
  validate(path);
  char args[600];
  snprintf(args, sizeof args, "cat %s --table value_types", path);
  char *x = run(args);
  cr_assert(strstr(x, "cpu\tnanoseconds"), "%s", x);
  free(x);
}

/* Options the writer could never honour are refused at open (issue 42 F7),
 * not at the first publication, which lost that file's samples. */
Test(writer, unwritable_options_refused_at_open) {
  char path[400], name[300];
  snprintf(path, sizeof path, "%s/o.pcol", dir);
  pcol_writer *w = (pcol_writer *)1;
  pcol_error err = {0};
  pcol_writer_options o = options();
  o.write.compress_zstd = 1;
  int bad_levels[2] = {99, -5};
  for (int i = 0; i < 2; i++) {
    o.write.zstd_level = bad_levels[i];
    cr_assert_eq(pcol_writer_open(&w, path, &o, &err), PCOL_EINVAL, "zstd level %d accepted",
                 bad_levels[i]);
    cr_assert_null(w);
    cr_assert(strstr(err.message, "zstd level"), "%s", err.message);
  }
  o.write.zstd_level = 22; /* the limits themselves write */
  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0, "%s", err.message);
  add_range(w, 0, 1000);
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
  validate(path);
  o = options();
  /* the path is a directory: a rename cannot replace it */
  cr_assert_eq(pcol_writer_open(&w, dir, &o, &err), PCOL_EINVAL, "a directory accepted");
  cr_assert(strstr(err.message, "is a directory"), "%s", err.message);
  /* a rolled name past NAME_MAX: 220 bytes of stem + 47 at most */
  memset(name, 'n', 220);
  name[220] = 0;
  char longp[600];
  snprintf(longp, sizeof longp, "%s/%s.pcol", dir, name);
  o.roll_samples = 100;
  cr_assert_eq(pcol_writer_open(&w, longp, &o, &err), PCOL_EINVAL, "a long rolled name accepted");
  cr_assert(strstr(err.message, "rolled file name"), "%s", err.message);
  /* a name that fits as a single file is fine; a directory's name rolls */
  o.roll_samples = 0;
  cr_assert_eq(pcol_writer_open(&w, longp, &o, &err), 0, "%s", err.message);
  add_range(w, 0, 10);
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
  validate(longp);
  o.roll_samples = 100;
  name[200] = 0;
  snprintf(longp, sizeof longp, "%s/%s.pcol", dir, name);
  cr_assert_eq(pcol_writer_open(&w, longp, &o, &err), 0, "%s", err.message);
  add_range(w, 0, 250);
  cr_assert_eq(pcol_writer_close(w, &err), 0, "200 bytes of stem roll: %s", err.message);
}

/* Review 11 F1: a file's Time: and Duration: are the span it covers, from
 * its first sample to its last one's end (a point sample lasts a period),
 * and a rolled series' files cover it without gaps or overlaps, so that
 * their durations add up (pcol's and go's merge add them) to the span of
 * the unrolled file: 1000 samples of 10 ms of cpu every 10 ms from .900 s
 * are 10 s at 100 %, in one file and rolled every 100 samples.  `step` is
 * the samples' spacing in ns (10 ms: one a period). */
static void busy_profile(const char *path, uint64_t roll, published *pub, int64_t step) {
  static const pcol_writer_value_type vt[2] = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  pcol_writer_options o = {.value_types = vt, .nvalue_types = 2, .period = 10000000,
                           .period_type = "cpu", .period_unit = "nanoseconds",
                           .roll_samples = roll, .on_file = pub ? on_file : NULL, .ctx = pub};
  pcol_writer *w;
  pcol_error err = {0};
  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0, "%s", err.message);
  const int64_t t0 = 1795860000900000000; /* 2026-11-28T10:00:00.900Z */
  for (int i = 0; i < 1000; i++) {
    pcol_writer_frame fr[2] = {{i % 2 ? "spin" : "work", "a.c", 1, 0}, {"main", "a.c", 9, 0}};
    int64_t v[2] = {1, 10000000};
    pcol_writer_sample s = {.frames = fr, .nframes = 2, .values = v, .nvalues = 2,
                            .has_time = 1, .time_unix_ns = t0 + step * (int64_t)i};
    cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "%s", err.message);
  }
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
}

/* The files of pub: each starts where the previous one ends (no gap, no
 * overlap); the first at `start`; their durations sum to `total`; each
 * lasts `each` ns when that is not 0. */
static void files_tile(const published *pub, int64_t start, int64_t total, int64_t each) {
  pcol_error err = {0};
  int64_t end = start;
  for (int i = 0; i < pub->n; i++) {
    pcol_file *f;
    int64_t t, d;
    cr_assert_eq(pcol_open(pub->paths[i], NULL, &f, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_meta_get_i64(f, 1, "pprof.time_nanos", &t, &err), 0);
    cr_assert_eq(pcol_meta_get_i64(f, 1, "pprof.duration_nanos", &d, &err), 0);
    cr_assert_eq(t, end, "file %d starts at %lld, the previous ends at %lld (gap or overlap)", i,
                 (long long)t, (long long)end);
    cr_assert(!each || d == each, "file %d lasts %lld ns", i, (long long)d);
    end = t + d;
    pcol_close(f);
  }
  cr_assert_eq(end - start, total, "the files add up to %lld ns, one file says %lld",
               (long long)(end - start), (long long)total);
}

Test(writer, duration_is_the_span_rolled_or_not) {
  char one[400], roll[400], args[4096];
  snprintf(one, sizeof one, "%s/one.pcol", dir);
  snprintf(roll, sizeof roll, "%s/roll.pcol", dir);
  busy_profile(one, 0, NULL, 10000000);
  published pub = {.n = 0};
  busy_profile(roll, 100, &pub, 10000000);
  cr_assert_eq(pub.n, 10);
  int64_t want_start = 1795860000900000000;
  files_tile(&pub, want_start, 10000000000, 1000000000); /* file k: [.900 + k s, .900 + (k + 1) s) */
  snprintf(args, sizeof args, "top %s", one);
  char *x = run(args);
  cr_assert(strstr(x, "Time: Nov 28, 2026 at 10:00am (UTC)\nDuration: 10s, Total samples = 10s (  100%)"),
            "%s", x);
  free(x);
  snprintf(args, sizeof args, "top %s", pub.paths[3]);
  x = run(args);
  cr_assert(strstr(x, "Duration: 1s, Total samples = 1000ms (  100%)"), "%s", x);
  free(x);
  snprintf(args, sizeof args, "top %s/roll-*.pcol", dir);
  x = run(args);
  cr_assert(strstr(x, "Time: Nov 28, 2026 at 10:00am (UTC)\nDuration: 10s, Total samples = 10s (  100%)"),
            "%s", x);
  free(x);
  /* the pprof export of their merge states the same span (go's header) */
  snprintf(args, sizeof args, "merge %s/roll-*.pcol -o %s/m.pcol && %s unpack %s/m.pcol --to pprof "
           "-o %s/m.pb.gz && %s top %s/m.pb.gz", dir, dir, pcol_bin(), dir, dir, pcol_bin(), dir);
  x = run(args);
  cr_assert(strstr(x, "Duration: 10s, Total samples = 10s (  100%)"), "%s", x);
  free(x);

  /* Review 18 F2: samples closer than the period (several threads sampled
   * every 10 ms), 1 ms apart: one file lasts 999 ms + a period; each rolled
   * file used to end a period after its last sample while the next began at
   * its first, 9 ms earlier, so the series said 1.099 s.  Now each file
   * begins where the previous one ends, whatever its first sample's time. */
  snprintf(one, sizeof one, "%s/one1.pcol", dir);
  snprintf(roll, sizeof roll, "%s/roll1.pcol", dir);
  busy_profile(one, 0, NULL, 1000000);
  published pub1 = {.n = 0};
  busy_profile(roll, 100, &pub1, 1000000);
  cr_assert_eq(pub1.n, 10);
  files_tile(&pub1, want_start, 1009000000, 0);
  const char *want = "Duration: 1.01s, Total samples = 10s (991.08%)";
  snprintf(args, sizeof args, "top %s", one);
  x = run(args);
  cr_assert(strstr(x, want), "%s", x);
  free(x);
  snprintf(args, sizeof args, "top %s/roll1-*.pcol", dir);
  x = run(args);
  cr_assert(strstr(x, want), "%s", x);
  free(x);
  snprintf(args, sizeof args, "merge %s/roll1-*.pcol -o %s/m1.pcol && %s unpack %s/m1.pcol --to pprof "
           "-o %s/m1.pb.gz && %s top %s/m1.pb.gz", dir, dir, pcol_bin(), dir, dir, pcol_bin(), dir);
  x = run(args);
  cr_assert(strstr(x, want), "%s", x);
  free(x);
  /* a wall-clock window across the first boundary (10:00:01.000) is its
   * length in the series as in one file, and selects the same samples */
  const char *win = "--from 2026-11-28T10:00:00.950Z --to 2026-11-28T10:00:01.050Z";
  snprintf(args, sizeof args, "top %s %s", one, win);
  x = run(args);
  cr_assert(strstr(x, "Duration: 100ms, Total samples = 1000ms (1000.00%)"), "%s", x);
  free(x);
  snprintf(args, sizeof args, "top %s/roll1-*.pcol %s", dir, win);
  x = run(args);
  cr_assert(strstr(x, "Duration: 100ms, Total samples = 1000ms (1000.00%)"), "%s", x);
  free(x);
}

/* Review 11 F2: two writers on one path whose files start in the same
 * millisecond (here: the same sample times) never replace each other's
 * files: the second takes the next free sequence number, and every
 * sample is in the directory. */
Test(writer, two_writers_on_one_path_lose_nothing) {
  char path[400], args[1024];
  snprintf(path, sizeof path, "%s/svc.pcol", dir);
  published pub[2] = {{.n = 0}, {.n = 0}};
  pcol_writer *w[2];
  pcol_error err = {0};
  for (int k = 0; k < 2; k++) {
    pcol_writer_options o = options();
    o.roll_samples = 10;
    o.on_file = on_file;
    o.ctx = &pub[k];
    cr_assert_eq(pcol_writer_open(&w[k], path, &o, &err), 0, "%s", err.message);
  }
  for (int i = 0; i < 50; i += 5) /* 5 samples each in turn: the same names come due */
    for (int k = 0; k < 2; k++) add_range(w[k], i, i + 5);
  for (int k = 0; k < 2; k++) cr_assert_eq(pcol_writer_close(w[k], &err), 0, "%s", err.message);
  cr_assert_eq(pub[0].n, 5);
  cr_assert_eq(pub[1].n, 5);
  for (int i = 0; i < 5; i++) {
    cr_assert_str_neq(pub[0].paths[i], pub[1].paths[i]);
    for (int k = 0; k < 2; k++) validate(pub[k].paths[i]);
  }
  /* writer 0 published first: its names are the sequence's; writer 1 was
   * moved past each (000002, 000004, ...) */
  cr_assert(strstr(pub[0].paths[0], "-000001.pcol"), "%s", pub[0].paths[0]);
  cr_assert(strstr(pub[1].paths[0], "-000002.pcol"), "%s", pub[1].paths[0]);
  snprintf(args, sizeof args, "top --value samples %s/svc-*.pcol", dir);
  char *x = run(args);
  /* 50 samples a writer, each of value samples 1 */
  cr_assert(strstr(x, "Total samples = 100 "), "%s", x);
  free(x);
}

/* Review 14 F1: a point sample lasts one period whatever time unit states
 * it (THE time-unit rule, lib/core/unit_scale.c pcol_unit_ns), not only
 * "nanoseconds": 10 samples of one period, a period apart, span 10
 * periods at 100 % (they said 9 periods, 111.11 %, with the period in
 * microseconds or ms), and a one-sample file lasts its period (it had no
 * Duration:).  Every spelling the rule accepts ("μs" is not one: pprof's
 * sniffUnit drops the plural 's' of its 3 bytes, as pcol's rule does).  The pprof export says the same; with $PPROF (a go tool
 * pprof binary: tests/interop/t_writer_units.sh sets it) go's header too. */
static char *top_of(const char *path) {
  char args[1200];
  snprintf(args, sizeof args, "top %s", path);
  return run(args);
}
/* A writer file's span: pprof.time_nanos, pprof.duration_nanos (both
 * required) and its source's timestamp (s). */
static void span_of(const char *path, int64_t *t, int64_t *d, int64_t *ts_sec) {
  pcol_file *f;
  pcol_error err = {0};
  pcol_view ts;
  cr_assert_eq(pcol_open(path, NULL, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_meta_get_i64(f, 1, "pprof.time_nanos", t, &err), 0, "%s: no time_nanos", path);
  cr_assert_eq(pcol_meta_get_i64(f, 1, "pprof.duration_nanos", d, &err), 0, "%s: no duration", path);
  cr_assert_eq(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts, &err), 0);
  *ts_sec = pcol_view_i64(&ts, 0);
  pcol_close(f);
}

static void units_series(const char *unit, int64_t per, int64_t per_ns, int n, const char *want) {
  char path[400], pb[400], args[1600];
  snprintf(path, sizeof path, "%s/u_%s_%d.pcol", dir, unit, n);
  pcol_writer_value_type vt[1] = {{"cpu", unit}};
  pcol_writer_options o = {.value_types = vt, .nvalue_types = 1, .period = per,
                           .period_type = "cpu", .period_unit = unit};
  pcol_writer *w;
  pcol_error err = {0};
  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0, "%s", err.message);
  for (int i = 0; i < n; i++) {
    pcol_writer_frame fr[2] = {{"f", "a.c", 1, 0}, {"main", "a.c", 9, 0}};
    int64_t v[1] = {per};
    pcol_writer_sample s = {.frames = fr, .nframes = 2, .values = v, .nvalues = 1,
                            .has_time = 1, .time_unix_ns = T0 + per_ns * (int64_t)i};
    cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "%s", err.message);
  }
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
  int64_t t, d, sec;
  span_of(path, &t, &d, &sec);
  cr_assert_eq(t, T0);
  cr_assert_eq(d, per_ns * n, "%s x %d: %lld ns", unit, n, (long long)d);
  char *x = top_of(path);
  cr_assert(strstr(x, want), "%s: want '%s' in\n%s", unit, want, x);
  free(x);
  snprintf(pb, sizeof pb, "%s/u_%s_%d.pb.gz", dir, unit, n);
  snprintf(args, sizeof args, "unpack %s --to pprof -o %s", path, pb);
  free(run(args));
  x = top_of(pb);
  cr_assert(strstr(x, want), "%s pprof export: want '%s' in\n%s", unit, want, x);
  free(x);
  const char *pprof = getenv("PPROF");
  if (pprof && *pprof) {
    snprintf(args, sizeof args, "'%s' -top '%s' 2>&1", pprof, pb);
    FILE *p = popen(args, "r");
    cr_assert(p);
    char buf[8192];
    size_t k = fread(buf, 1, sizeof buf - 1, p);
    buf[k] = 0;
    pclose(p);
    cr_assert(strstr(buf, want), "%s: go tool pprof -top: want '%s' in\n%s", unit, want, buf);
  }
}

Test(writer, point_sample_lasts_a_period_in_any_time_unit) {
  static const struct {
    const char *unit;
    int64_t per; /* 10 ms, or 1 s in seconds */
  } u[] = {{"nanoseconds", 10000000}, {"ns", 10000000},  {"microseconds", 10000}, {"us", 10000},
           {"microsecond", 10000},   {"milliseconds", 10},
           {"ms", 10},               {"Milliseconds", 10}, {"millisecond", 10},  {"seconds", 1},
           {"s", 1},                 {"sec", 1}};
  for (size_t i = 0; i < sizeof u / sizeof *u; i++) {
    int sec = u[i].per == 1;
    int64_t per_ns = sec ? 1000000000 : 10000000;
    units_series(u[i].unit, u[i].per, per_ns, 10,
                 sec ? "Duration: 10s, Total samples = 10s (  100%)"
                     : "Duration: 100ms, Total samples = 100ms (  100%)");
    units_series(u[i].unit, u[i].per, per_ns, 1,
                 sec ? "Duration: 1s, Total samples = 1s (  100%)"
                     : "Duration: 10ms, Total samples = 10ms (  100%)");
  }
}

/* A period of no time unit (a count of events) gives a point sample no
 * extent: the span ends at the last sample's time. */
Test(writer, period_of_no_time_unit_adds_nothing) {
  char path[400];
  snprintf(path, sizeof path, "%s/c.pcol", dir);
  pcol_writer_value_type vt[1] = {{"events", "count"}};
  pcol_writer_options o = {.value_types = vt, .nvalue_types = 1, .period = 1000,
                           .period_type = "events", .period_unit = "count"};
  pcol_writer *w;
  pcol_error err = {0};
  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0, "%s", err.message);
  for (int i = 0; i < 3; i++) {
    pcol_writer_frame fr[1] = {{"f", "a.c", 1, 0}};
    int64_t v[1] = {1000};
    pcol_writer_sample s = {.frames = fr, .nframes = 1, .values = v, .nvalues = 1,
                            .has_time = 1, .time_unix_ns = T0 + 5000000 * (int64_t)i};
    cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "%s", err.message);
  }
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
  pcol_file *f;
  int64_t d;
  cr_assert_eq(pcol_open(path, NULL, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_meta_get_i64(f, 1, "pprof.duration_nanos", &d, &err), 0);
  cr_assert_eq(d, 10000000);
  pcol_close(f);
}

/* Review 14 F2: a file begun by an untimed sample starts at that sample's
 * clock reading to the ns (it started at the wall clock's whole second: a
 * timed sample 200 ms later made the file 0.2 to 1.2 s long, by where in
 * its second the run began).  Its span is from then to the timed samples'
 * end; a first timed sample earlier than that reading (taken before,
 * added after) moves the start back to it. */
static int64_t wall_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}
Test(writer, untimed_first_sample_starts_the_file_at_its_clock_reading) {
  char path[400];
  pcol_writer_value_type vt[1] = {{"samples", "count"}};
  pcol_writer_options o = {.value_types = vt, .nvalue_types = 1};
  pcol_error err = {0};
  for (int trial = 0; trial < 3; trial++) { /* at three places in the second */
    snprintf(path, sizeof path, "%s/ut%d.pcol", dir, trial);
    pcol_writer *w;
    cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0, "%s", err.message);
    pcol_writer_frame fr[1] = {{"untimed", "a.c", 1, 0}};
    int64_t v[1] = {1};
    pcol_writer_sample s = {.frames = fr, .nframes = 1, .values = v, .nvalues = 1};
    int64_t before = wall_ns();
    cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "%s", err.message);
    int64_t after = wall_ns();
    sleep_ms(200 + 300 * trial);
    fr[0].function = "timed";
    s.has_time = 1, s.time_unix_ns = wall_ns();
    int64_t timed = s.time_unix_ns;
    cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
    int64_t t, d, sec;
    span_of(path, &t, &d, &sec);
    cr_assert(t >= before && t <= after, "start %lld not the untimed sample's clock [%lld, %lld]",
              (long long)t, (long long)before, (long long)after);
    cr_assert_eq(t + d, timed, "the span ends at the timed sample (no period)");
    cr_assert_eq(sec, t / 1000000000, "the source's timestamp is the start's second");
    /* the 200 (500, 800) ms slept (and the time measured around the
     * untimed add), not up to a second more; pcol info's
     * duration and the timed sample's time (from the start), top's header */
    int64_t want_ms = 200 + 300 * trial;
    cr_assert(d >= want_ms * 1000000 && d <= timed - before, "duration %lld ns for %lld ms (%lld ns measured)",
              (long long)d, (long long)want_ms, (long long)(timed - before));
    char args[600], want[200], lab[64];
    snprintf(args, sizeof args, "info %s --format tsv | cut -f 5-8 | tail -1", path);
    char *x = run(args);
    snprintf(want, sizeof want, "2\t%lld\t%lld\t%lld\n", (long long)d, (long long)d, (long long)d);
    cr_assert_str_eq(x, want, "pcol info: samples, first_ns, end_ns, duration_ns");
    free(x);
    pcol_unit_label(d, (pcol_str){"nanoseconds", 11}, "minimum", lab, sizeof lab);
    snprintf(want, sizeof want, "Duration: %s, Total samples = 2 ", lab);
    x = top_of(path);
    cr_assert(strstr(x, want), "want '%s' in\n%s", want, x);
    free(x);
  }
  /* a timed sample taken before the untimed one was added (a ring drained
   * after it): the file starts at it, and the source's second with it */
  snprintf(path, sizeof path, "%s/ut_back.pcol", dir);
  pcol_writer *w;
  cr_assert_eq(pcol_writer_open(&w, path, &o, &err), 0, "%s", err.message);
  pcol_writer_frame fr[1] = {{"untimed", "a.c", 1, 0}};
  int64_t v[1] = {1};
  pcol_writer_sample s = {.frames = fr, .nframes = 1, .values = v, .nvalues = 1};
  int64_t early = wall_ns() - 3000000000; /* 3 s before: another second */
  cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "%s", err.message);
  s.has_time = 1, s.time_unix_ns = early;
  cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "%s", err.message);
  s.time_unix_ns = early + 20000000;
  cr_assert_eq(pcol_writer_add(w, &s, &err), 0, "%s", err.message);
  s.time_unix_ns = early - 1; /* after timed ones, the order holds */
  refused(w, &s, "time order");
  cr_assert_eq(pcol_writer_close(w, &err), 0, "%s", err.message);
  validate(path);
  int64_t t, d, sec;
  span_of(path, &t, &d, &sec);
  cr_assert_eq(t, early);
  cr_assert_eq(d, 20000000);
  cr_assert_eq(sec, early / 1000000000);
}
