/* test_export_stream.c — the exporters that write samples as they read
 * them (Firefox: sorted through lib/core/rowsort.c, a thread's columns in
 * memory or temporary files; OTLP: sized, then written a Profile at a
 * time; Perun: sorted through rowsort and read once a pass) give the same
 * bytes whatever their budgets send to disk: runs of a few rows, columns
 * of a few bytes. */
#include <criterion/criterion.h>
#include "testutil.h"
#include "rowsort.h"          /* pcol_rowsort_bytes */
#include "firefox/firefox.h"  /* pcol_firefox_col_bytes */
#include <stdio.h>
#include <string.h>

#define S tu_cstr

/* One source of three threads (thread_name labels) whose samples come
 * interleaved, some of them long (a duration and a weight), with CPU
 * deltas, a second value type (a counter) and times out of the threads'
 * order; and a second source of one thread. */
static pcol_file *profile(void **mem) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src, src2, cpu, bytes, fn[4], loc[4], st[6];
  cr_assert_eq(pcol_b_source(b, "pprof", "threads.pb", PCOL_NA_I64, &src, &err), 0);
  cr_assert_eq(pcol_b_source(b, "pprof", "one.pb", PCOL_NA_I64, &src2, &err), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "nanoseconds"), &cpu, &err), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "alloc"), S(b, "bytes"), &bytes, &err), 0);
  for (uint32_t s = 1; s <= 2; s++) {
    cr_assert_eq(pcol_b_source_value_type(b, s, cpu, &err), 0);
    cr_assert_eq(pcol_b_source_value_type(b, s, bytes, &err), 0);
  }
  static const char *const names[4] = {"main", "work", "parse", "emit"};
  for (int i = 0; i < 4; i++) {
    pcol_function_row f = {S(b, names[i]), S(b, names[i]), S(b, "x.go"), 1};
    cr_assert_eq(pcol_b_function(b, &f, &fn[i], &err), 0);
    pcol_line_row l = {fn[i], 10 + i, 0};
    cr_assert_eq(pcol_b_location(b, 0, 0x1000 + 16 * (uint64_t)i, 0, &l, 1, &loc[i], &err), 0);
  }
  static const int paths[6][3] = {{0, -1, -1}, {0, 1, -1}, {0, 1, 2}, {0, 1, 3}, {0, 2, -1}, {0, 3, 1}};
  for (int i = 0; i < 6; i++) {
    uint32_t ls[3]; /* leaf first */
    size_t n = 0;
    for (int j = 2; j >= 0; j--)
      if (paths[i][j] >= 0) ls[n++] = loc[paths[i][j]];
    cr_assert_eq(pcol_b_stack(b, ls, n, &st[i], &err), 0);
  }
  uint32_t th[3];
  static const char *const threads[3] = {"T1", "T2", "T3"};
  for (int i = 0; i < 3; i++) {
    pcol_label_row l = {S(b, "thread_name"), S(b, threads[i]), 0, 0};
    cr_assert_eq(pcol_b_labelset(b, &l, 1, &th[i], &err), 0);
  }
  uint64_t x = 12345;
  for (int k = 0; k < 3000; k++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    int long_one = k % 17 == 3;
    pcol_sample_row r = {src, 1000000 * (int64_t)k, long_one ? 7000000 : 0, long_one ? 7 : 1,
                         k % 5 ? (int64_t)(x >> 44) : PCOL_NA_I64, st[(x >> 33) % 6], th[(x >> 40) % 3]};
    pcol_value_row v[2] = {{cpu, 1000000 * r.weight}, {bytes, (int64_t)(x >> 50)}};
    cr_assert_eq(pcol_b_sample(b, &r, v, 2, NULL, &err), 0, "%s", err.message);
  }
  for (int k = 0; k < 500; k++) {
    pcol_sample_row r = {src2, 2000000 * (int64_t)k, 0, 1, PCOL_NA_I64, st[k % 6], 0};
    pcol_value_row v[2] = {{cpu, 2000000}, {bytes, k}};
    cr_assert_eq(pcol_b_sample(b, &r, v, 2, NULL, &err), 0, "%s", err.message);
  }
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}

typedef struct out {
  char *p;
  size_t n;
} out;

enum { OTLP, FIREFOX, PERUN };
static const char *const kind_name[] = {"otlp", "firefox", "perun"};

static out export(pcol_file *f, int kind, const pcol_select *sel) {
  out o = {NULL, 0};
  FILE *m = open_memstream(&o.p, &o.n);
  cr_assert_not_null(m);
  pcol_error err = {0};
  pcol_export_options opt = {0};
  opt.no_gzip = true;
  int rc = kind == FIREFOX ? pcol_export_firefox_opt(f, sel, m, &opt, &err)
           : kind == PERUN  ? pcol_export_perun(f, sel, m, &err)
                            : pcol_export_otlp(f, sel, m, &err);
  cr_assert_eq(rc, 0, "%s", err.message);
  fclose(m);
  return o;
}

/* f's export (kind) in memory and through runs of 7 rows and columns of
 * 16 bytes: the same bytes */
static void same_for(pcol_file *f, int kind, const char *what, int nsel) {
  pcol_select range = {0};
  range.has_from = range.has_to = true;
  range.from_ns = 500000000;
  range.to_ns = 2500000000;
  const pcol_select *sels[2] = {NULL, &range};
  for (int k = 0; k < nsel; k++) {
    out a = export(f, kind, sels[k]);
    size_t keep_rows = pcol_rowsort_bytes, keep_col = pcol_firefox_col_bytes;
    pcol_rowsort_bytes = 7 * 96; /* runs of 7 rows */
    pcol_firefox_col_bytes = 16;
    out b = export(f, kind, sels[k]);
    pcol_rowsort_bytes = keep_rows;
    pcol_firefox_col_bytes = keep_col;
    cr_assert_gt(a.n, 1000, "%s: %s export, selection %d: %zu bytes", what, kind_name[kind], k, a.n);
    cr_assert(a.n == b.n && memcmp(a.p, b.p, a.n) == 0,
              "%s: %s export, selection %d: %zu bytes in memory, %zu through files", what, kind_name[kind], k,
              a.n, b.n);
    free(a.p);
    free(b.p);
  }
}

static void same_on_disk(int kind) {
  void *mem;
  pcol_file *f = profile(&mem);
  same_for(f, kind, "threads", 2);
  pcol_close(f);
  free(mem);
}

Test(export_stream, firefox_same_through_files) {
  same_on_disk(FIREFOX);
}

/* the three threads, their long samples (samply's rest rows) and the
 * counter are there, each thread's times in order */
Test(export_stream, firefox_threads_in_time_order) {
  void *mem;
  pcol_file *f = profile(&mem);
  out a = export(f, 1, NULL);
  size_t nthreads = 0;
  for (const char *p = a.p; (p = strstr(p, "\"processType\":\"default\"")); p++) nthreads++;
  cr_assert_eq(nthreads, 4, "threads: %zu", nthreads);
  for (int t = 1; t <= 3; t++) {
    char name[32];
    snprintf(name, sizeof name, "\"name\":\"T%d\"", t);
    const char *th = strstr(a.p, name);
    cr_assert_not_null(th, "no thread T%d", t);
    const char *tm = strstr(th, "\"time\":[");
    cr_assert_not_null(tm);
    double last = -1e300;
    size_t n = 0;
    for (const char *q = tm + 8; *q && *q != ']';) {
      char *end;
      double v = strtod(q, &end);
      cr_assert(end != q);
      cr_assert_geq(v, last, "thread T%d: time %g after %g", t, v, last);
      last = v;
      n++;
      q = *end == ',' ? end + 1 : end;
    }
    cr_assert_gt(n, 900);
  }
  cr_assert_not_null(strstr(a.p, "\"pcolDuration\":["));
  const char *ctrs = strstr(a.p, "\"counters\":[");
  cr_assert_not_null(ctrs);
  cr_assert_not_null(strstr(ctrs, "\"name\":\"alloc\""), "%.200s", ctrs);
  free(a.p);
  pcol_close(f);
  free(mem);
}

Test(export_stream, otlp_same_through_files) {
  same_on_disk(OTLP);
}

/* A Perun profile of layout 1 (one "global" snapshot), 2 (snapshots) or
 * 3 (a type map and its columns), of many events in a few groups. */
static char *perun_doc(int layout, size_t *len) {
  char *p = NULL;
  FILE *m = open_memstream(&p, len);
  cr_assert_not_null(m);
  static const char *const sub[] = {"malloc", "calloc", "realloc"};
  static const char *const fn[] = {"grow", "make_list", "make_table", "parse"};
  fputs("{\"header\": {\"type\": \"memory\", \"units\": {\"memory\": \"B\"}, \"cmd\": \"./gen\", "
        "\"args\": \"\", \"workload\": \"\"},\n\"collector_info\": {\"name\": \"memory\", \"params\": {}},\n"
        "\"postprocessors\": [],\n", m);
  if (layout == 3) {
    fputs("\"resource_type_map\": {", m);
    for (int t = 0; t < 4; t++)
      fprintf(m, "%s\"gen.c:%s:%d#0\": {\"type\": \"memory\", \"subtype\": \"%s\", \"uid\": "
              "{\"source\": \"gen.c\", \"line\": %d, \"function\": \"%s\"}, \"trace\": [{\"source\": "
              "\"gen.c\", \"line\": %d, \"function\": \"%s\"}]}", t ? ", " : "", fn[t], 10 + t, sub[t % 3],
              10 + t, fn[t], 10 + t, fn[t]);
    fputs("},\n\"resources\": {", m);
    for (int t = 0; t < 4; t++) {
      fprintf(m, "%s\"gen.c:%s:%d#0\": {\"amount\": [", t ? ", " : "", fn[t], 10 + t);
      for (int k = 0; k < 60; k++) fprintf(m, "%s%d", k ? ", " : "", (k * 37 + t) % 1000);
      fputs("], \"address\": [", m);
      for (int k = 0; k < 60; k++) fprintf(m, "%s%d", k ? ", " : "", 4096 * (k + 1) + t);
      fputs("]}", m);
    }
    fputs("},\n\"models\": []}\n", m);
  } else {
    int nsnap = layout == 1 ? 1 : 4;
    fputs(layout == 1 ? "\"global\": " : "\"snapshots\": [", m);
    for (int sn = 0; sn < nsnap; sn++) {
      fprintf(m, "%s{\"time\": \"%d.000000\", \"resources\": [", sn ? ",\n" : "", sn + 1);
      for (int k = 0; k < 70; k++) {
        int f = (k * 7 + sn) % 4;
        fprintf(m, "%s{\"type\": \"memory\", \"subtype\": \"%s\", \"amount\": %d, \"address\": %d, "
                "\"trace\": [{\"source\": \"unreachable\", \"line\": 0, \"function\": \"%s\"}, "
                "{\"source\": \"gen.c\", \"line\": %d, \"function\": \"%s\"}], \"uid\": {\"source\": "
                "\"gen.c\", \"line\": %d, \"function\": \"%s\"}}", k ? ", " : "", sub[k % 3], k * 13 % 500,
                4096 * (k + 1), sub[k % 3], 10 + f, fn[f], 10 + f, fn[f]);
      }
      fputs("]}", m);
    }
    fputs(layout == 1 ? "}\n" : "]}\n", m);
  }
  fclose(m);
  return p;
}

/* The Perun export sorts the rows of its memory style (this profile
 * measures bytes) and of a Perun source written back (every layout) by
 * group, and reads them twice where it writes the groups twice. */
Test(export_stream, perun_same_through_files) {
  same_on_disk(PERUN);
  for (int layout = 1; layout <= 3; layout++) {
    size_t len;
    char *doc = perun_doc(layout, &len);
    FILE *in = fmemopen(doc, len, "rb");
    cr_assert_not_null(in);
    pcol_builder *b;
    pcol_error err = {0};
    char what[32];
    snprintf(what, sizeof what, "perun layout %d", layout);
    cr_assert_eq(pcol_builder_new(&b, &err), 0);
    cr_assert_eq(pcol_import_perun(b, in, what, NULL, &err), 0, "%s: %s", what, err.message);
    fclose(in);
    free(doc);
    void *mem;
    pcol_file *f = tu_reopen(b, NULL, &mem);
    pcol_builder_free(b);
    same_for(f, PERUN, what, layout < 3 ? 2 : 1); /* (layout 3 has no times) */
    pcol_close(f);
    free(mem);
  }
}
