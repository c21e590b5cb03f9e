/* test_perun.c — Perun import/export: field-level checks, exact round trips
 * (compared as JSON values with jansson's json_equal), error messages. */
#include "testutil.h"
#include "keys.h"
#include "perun_json.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#define FIX "tests/fixtures/perun/"

static char *path_of(const char *dir, const char *name) {
  static char buf[4][512];
  static int k;
  char *p = buf[k++ & 3];
  snprintf(p, 512, "%s/%s", dir, name);
  return p;
}
static const char *real_file(const char *name) {
  return path_of(testdata_dir(), name);
}

/* imports `path` as Perun and reopens the written pcol file */
static pcol_file *load(const char *path, void **mem) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  FILE *in = fopen(path, "rb");
  cr_assert(in, "cannot open %s", path);
  int rc = pcol_import_perun(b, in, path, NULL, &err);
  fclose(in);
  cr_assert_eq(rc, 0, "%s", err.message);
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}

static int import_text(const char *text, pcol_error *err) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, err), 0);
  FILE *in = fmemopen((void *)text, strlen(text), "r");
  int rc = pcol_import_perun(b, in, "bad.perf", NULL, err);
  fclose(in);
  pcol_builder_free(b);
  return rc;
}

static char *export_perun(pcol_file *f, const pcol_select *sel, size_t *len) {
  char *out = NULL;
  FILE *o = open_memstream(&out, len);
  pcol_error err = {0};
  int rc = pcol_export_perun(f, sel, o, &err);
  fclose(o);
  cr_assert_eq(rc, 0, "%s", err.message);
  return out;
}

/* a file's JSON value as Perun (Python's json) reads it */
static json_t *load_json_file(const char *path, json_error_t *je) {
  FILE *in = fopen(path, "rb");
  cr_assert(in, "cannot open %s", path);
  char *text = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&text, &n);
  char buf[65536];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, k, m);
  fclose(in);
  fclose(m);
  json_t *v = perun_json_loadb(text, n, 0, je);
  free(text);
  return v;
}

/* the round trip that the issue asks for: same JSON value */
static void assert_round_trip(const char *path) {
  void *mem;
  pcol_file *f = load(path, &mem);
  size_t len;
  char *out = export_perun(f, NULL, &len);
  json_error_t je;
  json_t *a = load_json_file(path, &je); /* Python's dialect: NaN is NaN */
  cr_assert(a, "%s: %s", path, je.text);
  json_t *b = perun_json_loadb(out, len, 0, &je);
  cr_assert(b, "export of %s is not JSON: %s (line %d)", path, je.text, je.line);
  if (!json_equal(a, b)) {
    /* name the first top-level key that differs */
    const char *k;
    json_t *v;
    json_object_foreach(a, k, v) cr_expect(json_equal(v, json_object_get(b, k)), "%s: key %s differs", path, k);
    cr_assert_eq(json_object_size(a), json_object_size(b), "%s: top-level key count differs", path);
    cr_assert_fail("%s: export is not the same JSON value", path);
  }
  json_decref(a);
  json_decref(b);
  free(out);
  pcol_close(f);
  free(mem);
}

Test(perun, round_trip_real_files) {
  SKIP_WITHOUT_TESTDATA();
  assert_round_trip(real_file("perun/memory-basic.perf"));
  assert_round_trip(real_file("perun/complexity-models.perf"));
}

/* a type's large member shared by 10k events: imported and exported once
 * per type, not per event (each took 30-70 s when it was per event) */
Test(perun, round_trip_large_shared_members) {
  assert_round_trip("tests/fuzz-regress/perun/map-label-json-redumped-per-event.perf");
  assert_round_trip("tests/fuzz-regress/perun/map-trace-not-list-reparsed-per-event.perf");
}

Test(perun, round_trip_fixtures) {
  const char *names[] = {"layout1-global.perf", "layout2-snapshots.perf", "kperf.perf",
                         "trace-complexity.perf", "time.perf", "imported-perf.perf",
                         "python-nonfinite.perf", "python-nonfinite-memory.perf"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) assert_round_trip(path_of(FIX, names[i]));
}

/* --------------------------------------------------------- helpers */

static pcol_str S(pcol_file *f, uint32_t id) {
  pcol_str s = {0};
  pcol_error err;
  cr_assert_eq(pcol_string(f, id, &s, &err), 0);
  return s;
}
static int streq(pcol_str s, const char *c) { return s.ptr && s.len == strlen(c) && !memcmp(s.ptr, c, s.len); }

/* label of sample `row` by key: 1 if found */
static int label(pcol_file *f, uint64_t row, const char *key, pcol_str *str, int64_t *num) {
  pcol_view ls, off, k, st, nm;
  pcol_error err;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &ls, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &off, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_KEY, &k, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_STR, &st, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_NUM, &nm, &err), 0);
  uint32_t id = pcol_view_u32(&ls, row);
  if (!id) return 0;
  for (uint64_t i = pcol_view_u64(&off, id - 1); i < pcol_view_u64(&off, id); i++)
    if (streq(S(f, pcol_view_u32(&k, i)), key)) {
      if (str) *str = S(f, pcol_view_u32(&st, i));
      if (num) *num = pcol_view_i64(&nm, i);
      return 1;
    }
  return 0;
}

static uint64_t find_by_num_label(pcol_file *f, const char *key, int64_t want) {
  for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SAMPLES); r++) {
    int64_t n;
    if (label(f, r, key, NULL, &n) && n == want) return r;
  }
  cr_assert_fail("no sample with %s = %lld", key, (long long)want);
  return 0;
}
static uint64_t find_by_str_label(pcol_file *f, const char *key, const char *want) {
  for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SAMPLES); r++) {
    pcol_str s;
    if (label(f, r, key, &s, NULL) && streq(s, want)) return r;
  }
  cr_assert_fail("no sample with %s = %s", key, want);
  return 0;
}

typedef struct frames {
  char names[32][96];
  char files[32][96];
  int64_t lines[32];
  int n;
  pcol_file *f;
} frames;

static int frame_cb(void *ctx, uint32_t depth, uint32_t loc) {
  frames *fr = ctx;
  pcol_view off, fn, ln, nm, fl;
  pcol_error err;
  cr_assert_eq(pcol_column(fr->f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &off, &err), 0);
  cr_assert_eq(pcol_column(fr->f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &fn, &err), 0);
  cr_assert_eq(pcol_column(fr->f, PCOL_T_LINES, PCOL_C_LINE_LINE, &ln, &err), 0);
  cr_assert_eq(pcol_column(fr->f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &nm, &err), 0);
  cr_assert_eq(pcol_column(fr->f, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME, &fl, &err), 0);
  uint64_t l = pcol_view_u64(&off, loc - 1);
  uint32_t func = pcol_view_u32(&fn, l);
  pcol_str n = S(fr->f, pcol_view_u32(&nm, func - 1)), file = S(fr->f, pcol_view_u32(&fl, func - 1));
  snprintf(fr->names[fr->n], 96, "%.*s", (int)n.len, n.ptr ? n.ptr : "");
  if (file.ptr) snprintf(fr->files[fr->n], 96, "%.*s", (int)file.len, file.ptr);
  else snprintf(fr->files[fr->n], 96, "<NA>");
  fr->lines[fr->n] = pcol_view_i64(&ln, l);
  (void)depth;
  return ++fr->n == 32;
}

static frames stack_of(pcol_file *f, uint64_t row) {
  pcol_view st;
  pcol_error err;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, &err), 0);
  frames fr = {.f = f};
  cr_assert_eq(pcol_stack_walk(f, pcol_view_u32(&st, row), frame_cb, &fr, &err), 0);
  return fr;
}

static int64_t col_i64(pcol_file *f, int col, uint64_t row) {
  pcol_view v;
  pcol_error err;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, col, &v, &err), 0);
  return pcol_view_i64(&v, row);
}

/* the first value of a sample and its (type, unit) */
static int64_t value_of(pcol_file *f, uint64_t row, pcol_str *type, pcol_str *unit) {
  pcol_view off, vt, val, tt, tu;
  pcol_error err;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &off, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &vt, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &val, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &tt, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &tu, &err), 0);
  uint64_t i = pcol_view_u64(&off, row);
  cr_assert_eq(pcol_view_u64(&off, row + 1), i + 1, "sample %llu should have one value", (unsigned long long)row);
  uint32_t t = pcol_view_u32(&vt, i);
  if (type) *type = S(f, pcol_view_u32(&tt, t - 1));
  if (unit) *unit = S(f, pcol_view_u32(&tu, t - 1));
  return pcol_view_i64(&val, i);
}

static void assert_time_sorted(pcol_file *f) {
  for (uint64_t r = 1; r < pcol_rows(f, PCOL_T_SAMPLES); r++)
    cr_assert_leq(col_i64(f, PCOL_C_S_TIME, r - 1), col_i64(f, PCOL_C_S_TIME, r));
}

/* ------------------------------------------------------ field checks */

Test(perun, memory_basic_fields) {
  SKIP_WITHOUT_TESTDATA();
  void *mem;
  pcol_file *f = load(real_file("perun/memory-basic.perf"), &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 34);
  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES), 1);
  assert_time_sorted(f);
  /* "/home/.../test.c:factorial:23#0": malloc of 4 bytes at 31257328, time 0.027000 */
  uint64_t r = find_by_num_label(f, "address", 31257328);
  pcol_str t, u, s;
  cr_assert_eq(value_of(f, r, &t, &u), 4);
  cr_assert(streq(t, "memory") && streq(u, "B"));
  cr_assert_eq(col_i64(f, PCOL_C_S_TIME, r), 27000000);
  cr_assert(label(f, r, "subtype", &s, NULL) && streq(s, "malloc"));
  int64_t snap;
  cr_assert(label(f, r, "snapshot", NULL, &snap) && snap == 26);
  cr_assert(label(f, r, "uid", &s, NULL));
  cr_assert(streq(s, "{\"source\":\"/home/jirka/Git/memory-repo/test.c\",\"line\":23,\"function\":\"factorial\"}"),
            "uid kept as JSON text: %.*s", (int)s.len, s.ptr);
  cr_assert(label(f, r, "perun.type_key", &s, NULL) && streq(s, "/home/jirka/Git/memory-repo/test.c:factorial:23#0"));
  /* trace is leaf first: malloc, factorial, main, __libc_start_main, _start */
  frames fr = stack_of(f, r);
  cr_assert_eq(fr.n, 5);
  cr_assert_str_eq(fr.names[0], "malloc");
  cr_assert_str_eq(fr.files[0], "unreachable");
  cr_assert_eq(fr.lines[0], 0);
  cr_assert_str_eq(fr.names[1], "factorial");
  cr_assert_str_eq(fr.files[1], "/home/jirka/Git/memory-repo/test.c");
  cr_assert_eq(fr.lines[1], 23);
  cr_assert_str_eq(fr.names[4], "_start");
  /* free events have amount 0 */
  uint64_t nfree = 0;
  for (uint64_t i = 0; i < 34; i++)
    if (label(f, i, "subtype", &s, NULL) && streq(s, "free")) {
      nfree++;
      cr_assert_eq(value_of(f, i, NULL, NULL), 0);
    }
  cr_assert_gt(nfree, 0);
  pcol_str m;
  pcol_error err;
  cr_assert_eq(pcol_meta_get(f, 1, "perun.origin", &m, &err), 0);
  cr_assert(streq(m, "\"1ba8c02d211d40692768b5d61c200c15d91fb2b2\""));
  cr_assert_eq(pcol_meta_get(f, 1, "perun.header", &m, &err), 0);
  cr_assert(streq(m, "{\"type\":\"memory\",\"units\":{\"memory\":\"B\"},\"workload\":\"test\",\"args\":\"\",\"cmd\":\"./test\"}"),
            "header order kept: %.*s", (int)m.len, m.ptr);
  pcol_close(f);
  free(mem);
}

Test(perun, complexity_models_fields) {
  SKIP_WITHOUT_TESTDATA();
  void *mem;
  pcol_file *f = load(real_file("perun/complexity-models.perf"), &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 26);
  cr_assert_eq(pcol_rows(f, PCOL_T_MODELS), 10);
  for (uint64_t r = 0; r < 26; r++) cr_assert_eq(col_i64(f, PCOL_C_S_TIME, r), 230000); /* "0.00023s" */
  /* SLList_insert: structure-unit-size 0..9, amounts 3,2,1,1,1,2,1,1,2,1 */
  uint64_t r = find_by_str_label(f, "uid", "SLList_insert(SLList*, int)");
  int64_t sz;
  cr_assert(label(f, r, "structure-unit-size", NULL, &sz) && sz == 0);
  pcol_str t, u;
  cr_assert_eq(value_of(f, r, &t, &u), 3);
  cr_assert(streq(t, "mixed(time delta)") && streq(u, "ms"));
  cr_assert_eq(value_of(f, r + 9, NULL, NULL), 1);
  cr_assert(label(f, r + 9, "structure-unit-size", NULL, &sz) && sz == 9);
  /* no trace: the uid is the one frame */
  frames fr = stack_of(f, r);
  cr_assert_eq(fr.n, 1);
  cr_assert_str_eq(fr.names[0], "SLList_insert(SLList*, int)");
  /* first model */
  pcol_view uid, model, method, r2, xs, xe, co;
  pcol_error err;
  cr_assert_eq(pcol_column(f, PCOL_T_MODELS, PCOL_C_MOD_UID, &uid, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_MODELS, PCOL_C_MOD_MODEL, &model, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_MODELS, PCOL_C_MOD_METHOD, &method, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_MODELS, PCOL_C_MOD_R_SQUARE, &r2, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_MODELS, PCOL_C_MOD_X_START, &xs, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_MODELS, PCOL_C_MOD_X_END, &xe, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_MODELS, PCOL_C_MOD_COEFFS, &co, &err), 0);
  cr_assert(streq(S(f, pcol_view_u32(&uid, 0)), "SLList_insert(SLList*, int)"));
  cr_assert(streq(S(f, pcol_view_u32(&model, 0)), "exponential"));
  cr_assert(streq(S(f, pcol_view_u32(&method, 0)), "full"));
  cr_assert_float_eq(pcol_view_f64(&r2, 0), 0.17966835944667436, 1e-17);
  cr_assert_float_eq(pcol_view_f64(&xs, 0), 0.0, 0);
  cr_assert_float_eq(pcol_view_f64(&xe, 0), 9.0, 0);
  json_t *c = json_loadb(S(f, pcol_view_u32(&co, 0)).ptr, S(f, pcol_view_u32(&co, 0)).len, 0, NULL);
  cr_assert(json_is_array(c) && json_array_size(c) == 2);
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 1), "name")), "b1");
  cr_assert_float_eq(json_real_value(json_object_get(json_array_get(c, 1), "value")), 0.9458006943320206, 1e-17);
  json_decref(c);
  pcol_str m;
  cr_assert_eq(pcol_meta_get(f, 1, "perun.models", &m, &err), PCOL_ENOTFOUND,
               "canonical models need no verbatim copy");
  pcol_close(f);
  free(mem);
}

Test(perun, layout1_global) {
  void *mem;
  pcol_file *f = load(FIX "layout1-global.perf", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 3);
  for (uint64_t r = 0; r < 3; r++) cr_assert_eq(col_i64(f, PCOL_C_S_TIME, r), 125000000);
  /* same time: file order kept */
  pcol_str s;
  cr_assert(label(f, 2, "subtype", &s, NULL) && streq(s, "free"));
  cr_assert_eq(value_of(f, 1, NULL, NULL), 128);
  pcol_str m;
  pcol_error err;
  cr_assert_eq(pcol_meta_get(f, 1, "perun.layout", &m, &err), 0);
  cr_assert(streq(m, "1"));
  cr_assert_eq(pcol_meta_get(f, 1, "perun.global", &m, &err), 0);
  cr_assert(streq(m, "{\"time\":\"0.125000\",\"resources\":[]}"), "%.*s", (int)m.len, m.ptr);
  pcol_close(f);
  free(mem);
}

Test(perun, layout2_snapshots_sorted_and_restored) {
  void *mem;
  pcol_file *f = load(FIX "layout2-snapshots.perf", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 3);
  assert_time_sorted(f);
  /* snapshot 1 (0.025) comes first; the realloc with its own time 0.030
   * before the malloc of snapshot 0 (0.050) */
  int64_t n;
  cr_assert(label(f, 0, "perun.snapshot_index", NULL, &n) && n == 1);
  cr_assert_eq(col_i64(f, PCOL_C_S_TIME, 0), 25000000);
  cr_assert_eq(col_i64(f, PCOL_C_S_TIME, 1), 30000000);
  cr_assert_eq(value_of(f, 1, NULL, NULL), 20);
  cr_assert(label(f, 1, "perun.index", NULL, &n) && n == 1, "moved inside its snapshot: index kept");
  cr_assert(label(f, 2, "perun.index", NULL, &n) && n == 0);
  cr_assert(!label(f, 0, "perun.index", NULL, NULL), "unmoved groups carry no index");
  pcol_close(f);
  free(mem);
}

Test(perun, kperf_stacks_and_weights) {
  void *mem;
  pcol_file *f = load(FIX "kperf.perf", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 5);
  uint64_t r = find_by_str_label(f, "perun.type_key", "memcpy#0");
  cr_assert_eq(col_i64(f, PCOL_C_S_WEIGHT, r), 95, "kperf amount is the sample count");
  cr_assert_eq(col_i64(f, PCOL_C_S_TIME, r), PCOL_NA_I64);
  frames fr = stack_of(f, r);
  /* leaf (uid) first, then the trace reversed */
  cr_assert_eq(fr.n, 5);
  cr_assert_str_eq(fr.names[0], "memcpy");
  cr_assert_str_eq(fr.names[1], "copy_block");
  cr_assert_str_eq(fr.names[4], "_start");
  cr_assert_str_eq(fr.files[0], "<NA>");
  cr_assert_eq(fr.lines[1], PCOL_NA_I64);
  pcol_str s;
  cr_assert(label(f, r, "command", &s, NULL) && streq(s, "busy"));
  r = find_by_str_label(f, "perun.type_key", "[unknown]#0");
  fr = stack_of(f, r);
  cr_assert_eq(fr.n, 1);
  pcol_str m;
  pcol_error err;
  cr_assert_eq(pcol_meta_get(f, 1, "perun.machine", &m, &err), 0);
  json_t *mj = json_loadb(m.ptr, m.len, 0, NULL);
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(mj, "cpu"), "total")), 8);
  json_decref(mj);
  pcol_close(f);
  free(mem);
}

Test(perun, trace_collector_columns) {
  void *mem;
  pcol_file *f = load(FIX "trace-complexity.perf", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 7);
  assert_time_sorted(f);
  cr_assert_eq(pcol_rows(f, PCOL_T_MODELS), 3);
  uint64_t r = find_by_num_label(f, "timestamp", 1036);
  int64_t n;
  cr_assert(label(f, r, "exclusive", NULL, &n) && n == 11);
  cr_assert(label(f, r, "call-order", NULL, &n) && n == 4);
  cr_assert(label(f, r, "tid", NULL, &n) && n == 4243);
  cr_assert(label(f, r, "structure-unit-size", NULL, &n) && n == 3);
  pcol_str t, u;
  cr_assert_eq(value_of(f, r, &t, &u), 11);
  cr_assert(streq(t, "mixed(time delta)") && streq(u, "us"));
  cr_assert_eq(col_i64(f, PCOL_C_S_TIME, r), 4000000); /* "0.004s" */
  cr_assert_eq(col_i64(f, PCOL_C_S_TIME, 0), 1000000); /* main#0, "0.001s", sorted first */
  pcol_str s;
  cr_assert(label(f, r, "perun.columns", &s, NULL));
  cr_assert(streq(s, "[\"amount\",\"exclusive\",\"structure-unit-size\",\"timestamp\",\"call-order\",\"tid\"]"));
  /* r_square 1.0 is a real, so the models are kept verbatim as well */
  pcol_str m;
  pcol_error err;
  cr_assert_eq(pcol_meta_get(f, 1, "perun.models", &m, &err), 0);
  pcol_close(f);
  free(mem);
}

Test(perun, time_collector_real_amounts) {
  void *mem;
  pcol_file *f = load(FIX "time.perf", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 6);
  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES), 1);
  pcol_str m;
  pcol_error err;
  cr_assert_eq(pcol_meta_get(f, 1, "perun.amount_scale", &m, &err), 0);
  uint64_t r = find_by_str_label(f, "perun.type_key", "sleep#0");
  pcol_str t, u;
  cr_assert_eq(value_of(f, r, &t, &u), 101200000); /* 0.1012 s */
  cr_assert(streq(t, "time") && streq(u, "ns"));
  cr_assert(!label(f, r, "perun.amount", NULL, NULL));
  /* the integer 2 among reals keeps its exact JSON form */
  r = find_by_str_label(f, "perun.type_key", "sleep#2");
  cr_assert_eq(value_of(f, r + 1, NULL, NULL), 2000000000);
  cr_assert(label(f, r + 1, "perun.amount", &m, NULL) && streq(m, "2"));
  pcol_close(f);
  free(mem);
}

Test(perun, imported_perf_unknown_time_and_folded_uid) {
  void *mem;
  pcol_file *f = load(FIX "imported-perf.perf", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 3);
  uint64_t r = find_by_str_label(f, "uid", "ls;__libc_start_main;main;qsort;strcoll");
  cr_assert_eq(col_i64(f, PCOL_C_S_TIME, r), PCOL_NA_I64, "\"???\" is NA");
  cr_assert_eq(col_i64(f, PCOL_C_S_WEIGHT, r), 25);
  frames fr = stack_of(f, r);
  cr_assert_eq(fr.n, 5);
  cr_assert_str_eq(fr.names[0], "strcoll");
  cr_assert_str_eq(fr.names[4], "ls");
  pcol_str m;
  pcol_error err;
  cr_assert_eq(pcol_meta_get(f, 1, "perun.stats", &m, &err), 0);
  cr_assert_eq(pcol_meta_get(f, 1, "perun.metadata", &m, &err), 0);
  json_t *md = json_loadb(m.ptr, m.len, 0, NULL);
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(md, 1), "value")), 140);
  json_decref(md);
  pcol_close(f);
  free(mem);
}

/* ------------------------------------ Python's NaN and Infinity (F7) */

/* Perun's own output, written by Python's json: a bare NaN in a model's
 * bucket_stats.  It packs, and comes back as the same value (NaN as NaN). */
Test(perun, python_nan_in_a_real_file_round_trips) {
  SKIP_WITHOUT_TESTDATA();
  assert_round_trip(real_file("ext/perun/postprocess_profiles__exp_datapoints_rg_ma_kr.perf"));
}

/* An amount that is NaN or +-Infinity has no int64 value: the sample has no
 * value and keeps the amount verbatim in perun.amount; finite ones are
 * values as before.  Everything else non-finite is kept as JSON text. */
Test(perun, non_finite_amounts_are_kept_verbatim) {
  void *mem;
  pcol_file *f = load(FIX "python-nonfinite-memory.perf", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 3);
  pcol_view off;
  pcol_error err;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &off, &err), 0);
  const char *want[] = {"NaN", NULL, "-Infinity"};
  for (uint64_t r = 0; r < 3; r++) {
    pcol_str a = {0};
    int has = label(f, r, PERUN_LABEL_AMOUNT, &a, NULL);
    uint64_t nv = pcol_view_u64(&off, r + 1) - pcol_view_u64(&off, r);
    if (want[r]) {
      cr_expect(has && streq(a, want[r]), "sample %llu: perun.amount %s", (unsigned long long)r, want[r]);
      cr_expect_eq(nv, 0, "sample %llu: a non-finite amount is no value", (unsigned long long)r);
    } else {
      cr_expect_not(has);
      cr_expect_eq(value_of(f, r, NULL, NULL), 64);
    }
  }
  pcol_str u = {0};
  cr_assert(label(f, 2, "uid", &u, NULL) && streq(u, "NaN"), "a NaN uid is JSON text, not a string");
  cr_assert(label(f, 1, "address", &u, NULL) && streq(u, "Infinity"));
  pcol_close(f);
  free(mem);
}

/* the loader and the writer of the dialect, alone */
Test(perun, json_dialect_load_and_dump) {
  json_error_t je;
  const char *t = "{\"NaN\": [NaN, Infinity, -Infinity, \"NaN\", -1.5], \"x\": {\"Infinity\": NaN}}";
  json_t *v = perun_json_loadb(t, strlen(t), 0, &je);
  cr_assert(v, "%s", je.text);
  json_t *a = json_object_get(v, "NaN");
  cr_assert(perun_json_is_token(json_string_value(json_array_get(a, 0)), json_string_length(json_array_get(a, 0))));
  cr_assert(perun_json_is_str(json_array_get(a, 3)), "the string \"NaN\" stays a string");
  cr_assert_not(perun_json_is_str(json_array_get(a, 1)));
  char *out = perun_json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
  cr_assert_str_eq(out, "{\"NaN\":[NaN,Infinity,-Infinity,\"NaN\",-1.5],\"x\":{\"Infinity\":NaN}}");
  free(out);
  /* strings that only begin like a token's are written as they are */
  json_t *w = json_pack("[s#, s#, s]", "\0NaNx", (size_t)5, "\0Na", (size_t)3, "a\"b\\");
  out = perun_json_dumps(w, JSON_COMPACT);
  cr_assert_str_eq(out, "[\"\\u0000NaNx\",\"\\u0000Na\",\"a\\\"b\\\\\"]");
  free(out);
  json_decref(w);
  json_decref(v);
  /* a string holding \u0000 could be mistaken for a token: refused */
  cr_assert_null(perun_json_loadb("[\"\\u0000NaN\", NaN]", 19, 0, &je));
  /* a token in a key's place is not a key */
  cr_assert_null(perun_json_loadb("{NaN: 1}", 8, 0, &je));
  cr_assert_null(perun_json_loadb("{\"a\": 1, Infinity: 2}", 21, 0, &je));
  /* errors are placed in the caller's text */
  const char *bad = "[NaN, NaN, 1e99999]";
  json_error_t jj;
  cr_assert_null(perun_json_loadb(bad, strlen(bad), 0, &je));
  cr_assert_null(json_loadb("[0.0, 0.0, 1e99999]", strlen(bad), 0, &jj)); /* NaN and 0.0: same length */
  cr_expect_eq(je.position, jj.position, "position %d, jansson %d", je.position, jj.position);
  cr_expect_eq(je.column, jj.column, "column %d, jansson %d", je.column, jj.column);
}

/* -------------------------------------------------------------- errors */

Test(perun, invalid_json_names_line_and_column) {
  pcol_error err = {0};
  int rc = import_text("{\n  \"header\": {\"type\": \"memory\",,}\n}\n", &err);
  cr_assert_eq(rc, PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "bad.perf:2:"), "%s", err.message);
  cr_assert(strstr(err.message, "invalid JSON"), "%s", err.message);
}

Test(perun, wrong_types_and_missing_keys) {
  pcol_error err = {0};
  cr_assert_eq(import_text("[1, 2]", &err), PCOL_EFORMAT);
  cr_assert(strstr(err.message, "not a JSON object"), "%s", err.message);
  cr_assert_eq(import_text("{\"header\": {}}", &err), PCOL_EFORMAT);
  cr_assert(strstr(err.message, "not a Perun profile"), "%s", err.message);
  cr_assert_eq(import_text("{\"resource_type_map\": {}, \"resources\": {\"a#0\": {\"amount\": [1]}}}", &err),
               PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "a#0") && strstr(err.message, "resource_type_map"), "%s", err.message);
  cr_assert_eq(import_text("{\"resource_type_map\": {\"a#0\": {}}, \"resources\": {\"a#0\": {\"amount\": [1, 2], "
                           "\"address\": [1]}}}",
                           &err),
               PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "'address' has 1 entries but 'amount' has 2") && strstr(err.message, "bad.perf:1:"),
            "%s", err.message);
  cr_assert_eq(import_text("{\"resource_type_map\": {\"a#0\": {}}, \"resources\": {\"a#0\": {\"amount\": 3}}}", &err),
               PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "expected a list"), "%s", err.message);
  cr_assert_eq(import_text("{\"snapshots\": [{\"time\": \"1\", \"resources\": [5]}]}", &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "bad.perf:1:44: snapshots[0].resources[0]: expected an object"), "%s",
            err.message);
  cr_assert_eq(import_text("{\"global\": {\"resources\": {}}}", &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "global.resources: expected a list"), "%s", err.message);
}

Test(perun, duplicate_keys_refused) {
  /* the walked objects refuse a repeated key (naming line and key) */
  const char *docs[][2] = {
      {"{\"global\": {\"resources\": []},\n \"global\": {\"resources\": []}}", "bad.perf:2:"},
      {"{\"resource_type_map\": {\"a#0\": {}, \"a#0\": {}},\n\"resources\": {}}", "bad.perf:1:"},
      {"{\"resource_type_map\": {\"a#0\": {}},\n\"resources\": {\"a#0\": {\"amount\": [1]},\n\"a#0\": {}}}",
       "bad.perf:3:"},
      {"{\"resource_type_map\": {\"a#0\": {}},\n\"resources\": {\"a#0\": {\"amount\": [1],\n \"amount\": [2]}}}",
       "bad.perf:3:"},
      {"{\"snapshots\": [{\"time\": \"1\",\n\"resources\": [], \"time\": \"2\"}]}", "bad.perf:2:"},
      /* the same key spelled with an escape is the same key */
      {"{\"global\": {\"resources\": []},\n \"glob\\u0061l\": {}}", "bad.perf:2:"},
      /* resources are walked in place: the second taker of a map entry */
      {"{\"resource_type_map\": {\"a#0\": {}},\n\"resources\": {\"a#0\": {\"amount\": [1]},\n\"\\u0061#0\": {}}}",
       "bad.perf:3:"},
  };
  for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
    pcol_error err = {0};
    cr_assert_eq(import_text(docs[i][0], &err), PCOL_ECORRUPT, "doc %zu", i);
    cr_assert(strstr(err.message, "duplicate key"), "doc %zu: %s", i, err.message);
    cr_assert(strstr(err.message, docs[i][1]), "doc %zu: %s", i, err.message);
  }
}

Test(perun, errors_deep_in_the_data_name_their_line) {
  pcol_error err = {0};
  /* a syntax error in the 3rd event (line 5) */
  const char *bad = "{\"snapshots\": [{\"time\": \"1\", \"resources\": [\n"
                    "{\"amount\": 1, \"uid\": \"a\"},\n"
                    "{\"amount\": 2, \"uid\": \"b\"},\n"
                    "\n"
                    "{\"amount\": 3, \"uid\": \"c\"\n"
                    "]}]}\n";
  cr_assert_eq(import_text(bad, &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "bad.perf:6:") && strstr(err.message, "invalid JSON"), "%s", err.message);
  /* valid grammar, but a number jansson cannot hold: found when the event is read */
  const char *big = "{\"resource_type_map\": {\"a#0\": {\"uid\": \"a\"}},\n"
                    "\"resources\": {\"a#0\": {\"amount\": [1,\n"
                    "1e999]}}}\n";
  cr_assert_eq(import_text(big, &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "bad.perf:3:1:") && strstr(err.message, "invalid JSON"), "%s", err.message);
  /* also where a column overrides the member, or a trace column the trace */
  const char *hidden[] = {
      "{\"resource_type_map\": {\"a#0\": {\"uid\": \"a\", \"amount\": 1e999}},\n"
      "\"resources\": {\"a#0\": {\"amount\": [1]}}}\n",
      "{\"resource_type_map\": {\"a#0\": {\"uid\": \"a\", \"trace\": [1e999]}},\n"
      "\"resources\": {\"a#0\": {\"trace\": [[]]}}}\n"};
  for (int i = 0; i < 2; i++) {
    cr_assert_eq(import_text(hidden[i], &err), PCOL_ECORRUPT, "doc %d", i);
    cr_assert(strstr(err.message, "bad.perf:1:"), "doc %d: %s", i, err.message);
  }
  /* invalid UTF-8 and \u0000 anywhere are refused like jansson refuses them */
  cr_assert_eq(import_text("{\"global\": {\"resources\": [{\"uid\": \"\xff\"}]}}", &err), PCOL_ECORRUPT);
  cr_assert_eq(import_text("{\"global\": {\"resources\": [{\"uid\": \"a\\u0000\"}]}}", &err), PCOL_ECORRUPT);
  cr_assert_eq(import_text("{\"global\": {\"resources\": []}} x", &err), PCOL_ECORRUPT);
}

/* pcol_import_path maps a regular file; pcol_import_perun reads a stream
 * into memory: both must build the same file, byte for byte. */
static void *import_both_ways(const char *path, size_t *len_map, void **via_stream, size_t *len_stream) {
  pcol_error err = {0};
  pcol_builder *a, *b;
  cr_assert_eq(pcol_builder_new(&a, &err), 0);
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  cr_assert_eq(pcol_import_path(a, path, PCOL_FMT_PERUN, NULL, &err), 0, "%s", err.message);
  FILE *in = fopen(path, "rb");
  cr_assert(in);
  /* pcol_import_path names the source by its path too */
  cr_assert_eq(pcol_import_perun(b, in, path, NULL, &err), 0, "%s", err.message);
  fclose(in);
  void *ma;
  cr_assert_eq(pcol_builder_write_mem(a, NULL, &ma, len_map, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_builder_write_mem(b, NULL, via_stream, len_stream, &err), 0, "%s", err.message);
  pcol_builder_free(a);
  pcol_builder_free(b);
  return ma;
}

Test(perun, mapped_and_streamed_imports_agree) {
  const char *names[] = {"layout1-global.perf", "layout2-snapshots.perf", "kperf.perf",
                         "trace-complexity.perf", "time.perf", "imported-perf.perf",
                         "python-nonfinite.perf", "python-nonfinite-memory.perf"};
  for (size_t i = 0; i < sizeof names / sizeof names[0] + 2; i++) {
    const char *path = i < 6 ? path_of(FIX, names[i])
                             : real_file(i == 6 ? "perun/memory-basic.perf" : "perun/complexity-models.perf");
    if (i >= 6 && !testdata_present()) continue;
    size_t la, lb;
    void *b;
    void *a = import_both_ways(path, &la, &b, &lb);
    cr_assert(la == lb && !memcmp(a, b, la), "%s: mapped and streamed imports differ", path);
    free(a);
    free(b);
  }
}

Test(perun, escaped_keys_are_decoded) {
  /* a resource type key written with escapes in resources and plainly in
   * resource_type_map is one type; escaped column names are columns */
  const char *t = "{\"header\": {\"type\": \"memory\", \"units\": {\"memory\": \"B\"}},\n"
                  "\"resource_type_map\": {\"f\xc3\xa9#0\": {\"uid\": \"f\\u00e9\", \"type\": \"memory\"}},\n"
                  "\"resources\": {\"f\\u00e9#0\": {\"\\u0061mount\": [5, 7], \"addr\\\"ess\": [1, 2]}}}\n";
  char path[] = "/tmp/pcol-perun-esc-XXXXXX";
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  cr_assert_eq(write(fd, t, strlen(t)), (ssize_t)strlen(t));
  close(fd);
  void *mem;
  pcol_file *f = load(path, &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 2);
  pcol_str type, unit;
  cr_assert_eq(value_of(f, 1, &type, &unit), 7);
  cr_assert(streq(type, "memory") && streq(unit, "B"));
  pcol_str str;
  int64_t num;
  cr_assert(label(f, 0, "addr\"ess", &str, &num) && num == 1);
  cr_assert(label(f, 0, "perun.type_key", &str, &num) && streq(str, "f\xc3\xa9#0"));
  size_t len;
  char *out = export_perun(f, NULL, &len);
  json_error_t je;
  json_t *x = json_loadb(t, strlen(t), 0, &je), *y = json_loadb(out, len, 0, &je);
  cr_assert(x && y && json_equal(x, y), "escaped keys did not come back: %s", out);
  json_decref(x);
  json_decref(y);
  free(out);
  pcol_close(f);
  free(mem);
  unlink(path);
}

static int count_frames(void *ctx, uint32_t depth, uint32_t loc) {
  (void)depth;
  (void)loc;
  ++*(size_t *)ctx;
  return 0;
}

/* text of a layout 3 file: one type whose map entry has `keys` extra keys and
 * a trace `depth` frames deep, and `events` events (one amount column) */
static char *one_type(int keys, int depth, int events) {
  char *t = NULL;
  size_t len;
  FILE *o = open_memstream(&t, &len);
  fprintf(o, "{\"resource_type_map\": {\"a#0\": {\"uid\": \"a\"");
  for (int i = 0; i < keys; i++) fprintf(o, ", \"k%d\": %d", i, i);
  fprintf(o, ", \"trace\": [");
  for (int i = 0; i < depth; i++) fprintf(o, "%s{\"func\": \"f%d\"}", i ? ", " : "", i);
  fprintf(o, "]}},\n\"resources\": {\"a#0\": {\"amount\": [");
  for (int i = 0; i < events; i++) fprintf(o, "%s%d", i ? "," : "", i);
  fprintf(o, "]}}}\n");
  fclose(o);
  return t;
}

Test(perun, shared_keys_and_traces_do_not_amplify) {
  pcol_error err = {0};
  /* a deep trace shared by many events is one stack, made once: accepted
   * (2000 frames x 20000 events would be 40M frames if made per event) */
  char *deep = one_type(3, 2000, 20000);
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  FILE *in = fmemopen(deep, strlen(deep), "r");
  cr_assert_eq(pcol_import_perun(b, in, "deep.perf", NULL, &err), 0, "%s", err.message);
  fclose(in);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_builder_free(b);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 20000);
  pcol_view st;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, &err), 0);
  uint32_t s0 = pcol_view_u32(&st, 0);
  for (uint64_t r = 1; r < 20000; r++) cr_assert_eq(pcol_view_u32(&st, r), s0);
  size_t depth = 0;
  cr_assert_eq(pcol_stack_walk(f, s0, count_frames, &depth, &err), 0);
  cr_assert_eq(depth, 2000);
  frames fr = stack_of(f, 19999); /* leaf first, as the trace lists it */
  cr_assert_str_eq(fr.names[0], "f0");
  cr_assert_str_eq(fr.names[31], "f31");
  pcol_close(f);
  free(mem);
  free(deep);
  /* 3000 keys copied into 20000 events' labels: 60M labels from ~140 KB */
  char *wide = one_type(3000, 1, 20000);
  cr_assert_eq(import_text(wide, &err), PCOL_ETOOBIG);
  cr_assert(strstr(err.message, "bad.perf") && strstr(err.message, "amplification"), "%s", err.message);
  free(wide);
}

/* the "n"th subtype s<n> of one type, each with its own unit */
Test(perun, many_subtypes_declared_once_each) {
  char *t = NULL;
  size_t len;
  FILE *o = open_memstream(&t, &len);
  fprintf(o, "{\"header\": {\"type\": \"memory\", \"units\": {");
  for (int i = 0; i < 100; i++) fprintf(o, "%s\"memory(s%d)\": \"B%d\"", i ? ", " : "", i, i);
  fprintf(o, "}}, \"global\": {\"resources\": [");
  for (int i = 0; i < 300; i++) fprintf(o, "%s{\"amount\": %d, \"subtype\": \"s%d\", \"uid\": \"f\"}", i ? ", " : "", i, i % 100);
  fprintf(o, "]}}");
  fclose(o);
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  FILE *in = fmemopen(t, len, "r");
  cr_assert_eq(pcol_import_perun(b, in, "sub.perf", NULL, &err), 0, "%s", err.message);
  fclose(in);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_builder_free(b);
  /* 100 value types, each declared once for the source (doc/mappings.md §3.1) */
  cr_assert_eq(pcol_rows(f, PCOL_T_VALUE_TYPES), 100);
  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES), 100);
  pcol_str type, unit;
  for (uint64_t r = 0; r < 300; r += 37) {
    cr_assert_eq(value_of(f, r, &type, &unit), (int64_t)r);
    char want[16];
    snprintf(want, sizeof want, "B%d", (int)(r % 100));
    cr_assert(streq(unit, want), "row %llu", (unsigned long long)r);
  }
  pcol_close(f);
  free(mem);
  free(t);
}

Test(perun, uid_column_keeps_a_shared_trace_one_stack) {
  /* not kperf: a uid column does not change the stack of a type with a trace */
  const char *t = "{\"resource_type_map\": {\"a#0\": {\"type\": \"memory\", "
                  "\"trace\": [{\"function\": \"f\", \"source\": \"x.c\", \"line\": 3}]}},\n"
                  "\"resources\": {\"a#0\": {\"amount\": [1, 2, 3], \"uid\": [\"u\", \"v\", \"w\"]}}}\n";
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  FILE *in = fmemopen((void *)t, strlen(t), "r");
  cr_assert_eq(pcol_import_perun(b, in, "uid.perf", NULL, &err), 0, "%s", err.message);
  fclose(in);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_builder_free(b);
  cr_assert_eq(pcol_rows(f, PCOL_T_STACKS), 1);
  pcol_str str;
  int64_t num;
  cr_assert(label(f, 2, "uid", &str, &num) && streq(str, "w"));
  frames fr = stack_of(f, 1);
  cr_assert(fr.n == 1 && !strcmp(fr.names[0], "f") && fr.lines[0] == 3);
  pcol_close(f);
  free(mem);
}

Test(perun, input_cap) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  const char *t = "{\"global\": {\"time\": \"0\", \"resources\": []}}";
  FILE *in = fmemopen((void *)t, strlen(t), "r");
  pcol_import_options o = {.max_input_bytes = 10};
  cr_assert_eq(pcol_import_perun(b, in, "big.perf", &o, &err), PCOL_ETOOBIG);
  cr_assert(strstr(err.message, "big.perf"), "%s", err.message);
  fclose(in);
  pcol_builder_free(b);
}

/* ------------------------------------------- profiles from elsewhere */

static pcol_file *synthetic(int bytes, void **mem) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src, ty, un, vt, fa, fb, fc, la, lb, lc, s1, s2, key, ls;
  cr_assert_eq(pcol_b_source(b, "pprof", "heap.pb.gz", PCOL_NA_I64, &src, &err), 0);
  cr_assert_eq(pcol_b_cstr(b, bytes ? "alloc_space" : "cpu", &ty, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, bytes ? "bytes" : "nanoseconds", &un, &err), PCOL_OK);
  cr_assert_eq(pcol_b_value_type(b, ty, un, &vt, &err), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, &err), 0);
  pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_cstr(b, "main", &fn.name, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, "main.c", &fn.filename, &err), PCOL_OK);
  cr_assert_eq(pcol_b_function(b, &fn, &fa, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, "alloc", &fn.name, &err), PCOL_OK);
  cr_assert_eq(pcol_b_function(b, &fn, &fb, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, "helper", &fn.name, &err), PCOL_OK);
  fn.filename = 0;
  cr_assert_eq(pcol_b_function(b, &fn, &fc, &err), PCOL_OK);
  pcol_line_row l = {fa, 10, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0x10, 0, &l, 1, &la, &err), PCOL_OK);
  l = (pcol_line_row){fb, 20, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0x20, 0, &l, 1, &lb, &err), PCOL_OK);
  l = (pcol_line_row){fc, PCOL_NA_I64, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0x30, 0, &l, 1, &lc, &err), PCOL_OK);
  uint32_t st1[] = {lb, la}, st2[] = {lc, lb, la};
  cr_assert_eq(pcol_b_stack(b, st1, 2, &s1, &err), PCOL_OK);
  cr_assert_eq(pcol_b_stack(b, st2, 3, &s2, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, "address", &key, &err), PCOL_OK);
  pcol_label_row lr = {key, 0, 4096, 0};
  cr_assert_eq(pcol_b_labelset(b, &lr, 1, &ls, &err), PCOL_OK);
  pcol_sample_row s = {src, 1000000, 0, 1, PCOL_NA_I64, s1, ls};
  pcol_value_row v = {vt, 512};
  cr_assert_eq(pcol_b_sample(b, &s, &v, 1, NULL, &err), 0);
  s.time_ns = 2000000;
  v.value = 256;
  cr_assert_eq(pcol_b_sample(b, &s, &v, 1, NULL, &err), 0);
  s.stack_id = s2;
  s.time_ns = 3000000;
  s.weight = 3;
  v.value = 64;
  cr_assert_eq(pcol_b_sample(b, &s, &v, 1, NULL, &err), 0);
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}

/* export, then import the export again */
static pcol_file *reimport(pcol_file *f, void **mem, json_t **js) {
  size_t len;
  char *out = export_perun(f, NULL, &len);
  *js = json_loadb(out, len, 0, NULL);
  cr_assert(*js, "export is not JSON: %s", out);
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  FILE *in = fmemopen(out, len, "r");
  cr_assert_eq(pcol_import_perun(b, in, "re.perf", NULL, &err), 0, "%s", err.message);
  fclose(in);
  free(out);
  pcol_file *g = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return g;
}

Test(perun, export_memory_style) {
  void *m1, *m2;
  pcol_file *f = synthetic(1, &m1);
  json_t *js;
  pcol_file *g = reimport(f, &m2, &js);
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(js, "collector_info"), "name")), "memory");
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(js, "header"), "units"), "memory")), "B");
  cr_assert_eq(pcol_rows(g, PCOL_T_SAMPLES), 3);
  /* every event kept, with its amount, address and time */
  uint64_t r = find_by_num_label(g, "address", 4096);
  (void)r;
  int64_t total = 0;
  for (uint64_t i = 0; i < 3; i++) total += value_of(g, i, NULL, NULL);
  cr_assert_eq(total, 512 + 256 + 64);
  cr_assert_eq(col_i64(g, PCOL_C_S_TIME, 0), 1000000);
  frames fr = stack_of(g, 2);
  cr_assert_eq(fr.n, 3);
  cr_assert_str_eq(fr.names[0], "helper");
  cr_assert_str_eq(fr.files[0], "unreachable", "memory frames always name a source");
  cr_assert_str_eq(fr.names[2], "main");
  cr_assert_eq(fr.lines[2], 10);
  json_decref(js);
  pcol_close(g);
  pcol_close(f);
  free(m1);
  free(m2);
}

Test(perun, export_kperf_style) {
  void *m1, *m2;
  pcol_file *f = synthetic(0, &m1);
  json_t *js;
  pcol_file *g = reimport(f, &m2, &js);
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(js, "collector_info"), "name")), "kperf");
  /* one event per distinct stack, amount = the summed default value (cpu:
   * 512 + 256 ns, and 64 ns of a row of weight 3, not the counts 2 and 3),
   * in its unit as go names it; no sample count, so each reads back as one
   * sample (doc/mappings.md §3.2) */
  cr_assert_eq(pcol_rows(g, PCOL_T_SAMPLES), 2);
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(js, "header"), "units"), "time")),
                   "ns");
  json_t *res = json_object_get(js, "resources");
  json_t *a = json_object_get(json_object_get(res, "alloc#0"), "amount");
  cr_assert_eq(json_integer_value(json_array_get(a, 0)), 768);
  a = json_object_get(json_object_get(res, "helper#0"), "amount");
  cr_assert_eq(json_integer_value(json_array_get(a, 0)), 64);
  json_t *tr = json_object_get(json_object_get(json_object_get(js, "resource_type_map"), "helper#0"), "trace");
  cr_assert_eq(json_array_size(tr), 2);
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(tr, 0), "func")), "main");
  uint64_t r = find_by_str_label(g, "uid", "helper");
  cr_assert_eq(col_i64(g, PCOL_C_S_WEIGHT, r), 1);
  frames fr = stack_of(g, r);
  cr_assert_eq(fr.n, 3);
  cr_assert_str_eq(fr.names[0], "helper");
  cr_assert_str_eq(fr.names[1], "alloc");
  json_decref(js);
  pcol_close(g);
  pcol_close(f);
  free(m1);
  free(m2);
}

Test(perun, export_respects_time_range) {
  void *mem;
  pcol_file *f = load(FIX "trace-complexity.perf", &mem);
  pcol_select sel = {.has_from = 1, .has_to = 1, .from_ns = 2000000, .to_ns = 4000001};
  size_t len;
  char *out = export_perun(f, &sel, &len);
  json_t *js = json_loadb(out, len, 0, NULL);
  cr_assert(js);
  json_t *res = json_object_get(js, "resources");
  cr_assert_null(json_object_get(res, "main#0"), "main#0 (time 0.001s) is outside the range");
  cr_assert_eq(json_array_size(json_object_get(json_object_get(res, "insert#0"), "amount")), 4);
  json_decref(js);
  free(out);
  pcol_close(f);
  free(mem);
}
