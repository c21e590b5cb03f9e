/* test_api.c — the library's conventions: error messages, the callback rule
 * of pcol_stack_walk, the version, and the one definition of a diff share. */
#include "testutil.h"
#include "builder.h" /* struct pcol_builder: a table filled to its row limit */
#include "../lib/query/query.h" /* pcol_q_key_intern: a table of names at its limit */
#include <limits.h>
#include <sys/stat.h> /* mkdir, mkfifo: a directory's inputs */

/* A message extended with its own text (as value resolution does) must come
 * out whole, not garbled: pcol_error_set used to format err->message into
 * itself. */
Test(api, error_set_may_quote_its_own_message) {
  pcol_error err = {0};
  pcol_error_set(&err, PCOL_ENOTFOUND, "no value type '%s'", "vsize.small");
  int rc = pcol_error_set(&err, PCOL_ENOTFOUND, "needs memory profiling (%s)", err.message);
  cr_assert_eq(rc, PCOL_ENOTFOUND);
  cr_assert_str_eq(err.message, "needs memory profiling (no value type 'vsize.small')");
  cr_assert_eq(pcol_error_prefix(&err, "run.out"), PCOL_ENOTFOUND);
  cr_assert_str_eq(err.message, "run.out: needs memory profiling (no value type 'vsize.small')");
  cr_assert_eq(err.code, PCOL_ENOTFOUND);
  cr_assert_eq(pcol_error_prefix(NULL, "x"), 0);
}

/* An importer whose builder refuses a call says the builder's reason, not
 * "out of memory", after the file's name (and line, where its other
 * messages give one): here a table has reached its row limit (2^32 - 2,
 * set by hand: a real file would need 4 billion rows).  The sources table
 * makes the first call fail, the functions table one in the middle. */
typedef pcol_status (*importer)(pcol_builder *, FILE *, const char *, const pcol_import_options *,
                                pcol_error *);
static void import_into_full_builder(const char *what, const void *data, size_t len, importer imp,
                                     int table, const char *prefix) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  b->t[table].rows = UINT32_MAX - 1;
  FILE *in = fmemopen((void *)data, len, "rb");
  cr_assert(in);
  int rc = imp(b, in, what, NULL, &err);
  fclose(in);
  b->t[table].rows = 0;
  pcol_builder_free(b);
  char expect[256];
  snprintf(expect, sizeof expect, "%s%s: a table reached its row limit (2^32 - 2)", prefix,
           table == PCOL_T_SOURCES ? "pcol_b_source" : "pcol_b_function");
  cr_assert_eq(rc, PCOL_ETOOBIG, "%s: rc %d: %s", what, rc, err.message);
  cr_assert_str_eq(err.message, expect, "%s", what);
}

/* a pprof Profile by hand: sample_type (samples, count), one sample of
 * location 1 valued 1, location 1 -> function 1 named "f" */
static const char pprof_min[] = "\x0a\x04\x08\x01\x10\x02"         /* sample_type */
                                "\x12\x06\x0a\x01\x01\x12\x01\x01" /* sample */
                                "\x22\x06\x08\x01\x22\x02\x08\x01" /* location */
                                "\x2a\x04\x08\x01\x10\x03"         /* function */
                                "\x32\x00\x32\x07" "samples\x32\x05" "count\x32\x01" "f"; /* string_table */

#define T(s) s, sizeof s - 1
Test(api, importers_give_the_builders_reason) {
  /* each importer, a minimal input of its format, and what its messages
   * say before the builder's: for the source (its first call), and for a
   * function (NULL: the input makes none) */
  static const struct {
    const char *what, *data;
    size_t len;
    importer imp;
    const char *at_source, *at_function;
  } cases[] = {
      {"x.perf", T("{\"header\": {\"type\": \"time\", \"units\": {\"time\": \"s\"}}, \"resources\": []}"),
       pcol_import_perun, "x.perf: ", NULL},
      {"x.json", T("{\"meta\": {\"preprocessedProfileVersion\": 48, \"startTime\": 0}, \"threads\": []}"),
       pcol_import_firefox, "", NULL},
      {"x.txt", T("a;b 1\n"), pcol_import_collapsed, "x.txt: ", "x.txt:1: "},
      {"x.perf", T("prog 123/123 [000] 1.000000: 1 cycles:\n\t    7f00 main+0x1 (/bin/prog)\n\n"),
       pcol_import_perf, "x.perf: ", "x.perf:2: "},
      {"x.json",
       T("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
         "\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]},"
         "\"profiles\":[{\"type\":\"sampled\",\"name\":\"p\",\"unit\":\"none\",\"startValue\":0,"
         "\"endValue\":1,\"samples\":[[0,1]],\"weights\":[1]}]}"),
       pcol_import_speedscope, "x.json: ", "x.json: "},
      {"x.cpuprofile",
       T("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"},\"children\":[2]},"
         "{\"id\":2,\"callFrame\":{\"functionName\":\"f\",\"url\":\"a.js\"},\"hitCount\":1}],"
         "\"startTime\":0,\"endTime\":10,\"samples\":[2],\"timeDeltas\":[1]}"),
       pcol_import_v8, "x.cpuprofile: ", "x.cpuprofile: "},
      {"x.json",
       T("{\"traceEvents\":[{\"ph\":\"P\",\"name\":\"Profile\",\"pid\":1,\"tid\":2,\"id\":\"0x1\",\"ts\":0,"
         "\"args\":{\"data\":{\"startTime\":0}}},{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"pid\":1,\"tid\":2,"
         "\"id\":\"0x1\",\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[{\"id\":1,\"callFrame\":"
         "{\"functionName\":\"(root)\",\"url\":\"\"}},{\"id\":2,\"parent\":1,\"callFrame\":"
         "{\"functionName\":\"f\",\"url\":\"a.js\"}}],\"samples\":[2]},\"timeDeltas\":[1]}}}]}"),
       pcol_import_chrome, "x.json: profile 0x1 (pid 1, tid 2): ", "x.json: profile 0x1 (pid 1, tid 2): "},
      {"x.json",
       T("{\"dictionary\":{\"locationTable\":[{},{\"lines\":[{\"functionIndex\":1}]}],"
         "\"functionTable\":[{},{\"nameStrindex\":3}],\"stackTable\":[{},{\"locationIndices\":[1]}],"
         "\"stringTable\":[\"\",\"samples\",\"count\",\"main\"]},\"resourceProfiles\":[{\"scopeProfiles\":"
         "[{\"profiles\":[{\"sampleType\":{\"typeStrindex\":1,\"unitStrindex\":2},"
         "\"samples\":[{\"stackIndex\":1,\"values\":[\"1\"]}]}]}]}]}"),
       pcol_import_otlp, "x.json: ", "x.json: "},
      {"x.out", T("sample.interval=20000\n\"f\" \"g\" \n"), pcol_import_rprof, "x.out: ", "x.out:2: "},
      {"x.pb", T(pprof_min), pcol_import_pprof, "x.pb: ", "x.pb: "},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    import_into_full_builder(cases[i].what, cases[i].data, cases[i].len, cases[i].imp, PCOL_T_SOURCES,
                             cases[i].at_source);
    if (cases[i].at_function)
      import_into_full_builder(cases[i].what, cases[i].data, cases[i].len, cases[i].imp, PCOL_T_FUNCTIONS,
                               cases[i].at_function);
  }
}
#undef T

/* The views' table of names fills err at its limit (2^31 - 1 names, set by
 * hand), which report.c, labels.c, top.c and ftree.c pass on as it is. */
Test(api, key_interning_names_its_limit) {
  pcol_q_keytab t = {0};
  pcol_error err = {0};
  uint32_t id;
  cr_assert_eq(pcol_q_key_intern(&t, "a", 1, 1, &id, &err), PCOL_OK);
  cr_assert_eq(id, 1);
  uint32_t had = t.n;
  t.n = (UINT32_C(1) << 31) - 1;
  cr_assert_eq(pcol_q_key_intern(&t, "a", 1, 1, &id, &err), PCOL_OK); /* known: found, not added */
  cr_assert_eq(pcol_q_key_intern(&t, "b", 1, 1, &id, &err), PCOL_ETOOBIG);
  cr_assert_str_eq(err.message, "more than 2^31 - 1 distinct names");
  t.n = had;
  pcol_q_keytab_free(&t);
}

Test(api, version_matches_the_header) {
  cr_assert_eq(pcol_version(), PCOL_VERSION_NUMBER);
  cr_assert_str_eq(pcol_version_string(), PCOL_VERSION_STRING);
  char v[32];
  snprintf(v, sizeof v, "%d.%d.%d", PCOL_VERSION_MAJOR, PCOL_VERSION_MINOR, PCOL_VERSION_PATCH);
  cr_assert_str_eq(v, PCOL_VERSION_STRING);
}

/* a file with one stack main > f > g (3 nodes) */
static pcol_file *three_frames(void **mem) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  uint32_t src, locs[3];
  cr_assert_eq(pcol_b_source(b, "test", "t", PCOL_NA_I64, &src, NULL), 0);
  const char *names[3] = {"g", "f", "main"};
  for (int i = 0; i < 3; i++) {
    pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
    uint32_t fid;
    cr_assert_eq(pcol_b_cstr(b, names[i], &fn.name, NULL), 0);
    cr_assert_eq(pcol_b_function(b, &fn, &fid, NULL), 0);
    pcol_line_row l = {fid, PCOL_NA_I64, PCOL_NA_I64};
    cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &locs[i], NULL), 0);
  }
  pcol_sample_row s = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
  cr_assert_eq(pcol_b_stack(b, locs, 3, &s.stack_id, NULL), 0);
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  size_t len;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, mem, &len, NULL), 0);
  pcol_builder_free(b);
  pcol_file *f;
  cr_assert_eq(pcol_open_buffer(*mem, len, NULL, &f, NULL), 0);
  return f;
}

typedef struct walk {
  int calls, stop_at, fail_at;
} walk;
static int on_frame(void *ctx, uint32_t depth, uint32_t loc) {
  walk *w = ctx;
  (void)loc;
  w->calls++;
  if ((int)depth == w->fail_at) return PCOL_ENOMEM;
  return (int)depth == w->stop_at;
}

/* One rule for callbacks: 0 goes on, > 0 stops with PCOL_OK, < 0 fails and
 * is returned (a failed realloc in an exporter's callback used to be
 * swallowed, and the stack written truncated with exit 0). */
Test(api, stack_walk_returns_a_callback_failure) {
  void *mem;
  pcol_file *f = three_frames(&mem);
  pcol_error err = {0};
  walk w = {0, 0, 0};
  cr_assert_eq(pcol_stack_walk(f, 3, on_frame, &w, &err), PCOL_OK);
  cr_assert_eq(w.calls, 3);
  w = (walk){0, 2, 0};
  cr_assert_eq(pcol_stack_walk(f, 3, on_frame, &w, &err), PCOL_OK);
  cr_assert_eq(w.calls, 2);
  w = (walk){0, 0, 2};
  cr_assert_eq(pcol_stack_walk(f, 3, on_frame, &w, &err), PCOL_ENOMEM);
  cr_assert_eq(w.calls, 2);
  cr_assert_eq(err.code, PCOL_ENOMEM);
  cr_assert_str_eq(err.message, "out of memory");
  pcol_close(f);
  free(mem);
}

/* pcol diff and pcol flame --diff share one definition: 100 x v / sum|v| */
Test(api, diff_shares_and_exact_absolute_changes) {
  cr_assert_float_eq(pcol_share(1, 4), 25.0, 1e-12);
  cr_assert_float_eq(pcol_share(-1, 4), -25.0, 1e-12);
  cr_assert_eq(pcol_share(5, 0), 0.0);
  pcol_top_row br[] = {{{"a", 1}, 2, 4, 0, 0}, {{"b", 1}, 2, 2, 0, 0}}, nr[] = {{{"a", 1}, 6, 8, 0, 0}, {{"c", 1}, 2, 2, 0, 0}};
  pcol_top base = {br, 2, 4, {0, 0, {0, 0}, {0, 0}}, NULL}, nw = {nr, 2, 8, {0, 0, {0, 0}, {0, 0}}, NULL};
  pcol_diff d;
  pcol_error err = {0};
  cr_assert_eq(pcol_diff_compute(&base, &nw, 0, &d, &err), 0, "%s", err.message);
  cr_assert_eq(d.nrows, 3);
  /* sorted by max(|d_flat|, |d_cum|), then name: b (-50, -50) first, then
   * a (flat 50% -> 75%: +25, cum 100% -> 100%) and c (+25, +25) */
  cr_assert_eq(d.rows[0].name.ptr[0], 'b');
  cr_assert_float_eq(d.rows[0].d_flat, -50.0, 1e-9);
  cr_assert_eq(d.rows[1].name.ptr[0], 'a');
  cr_assert_float_eq(d.rows[1].d_flat, 25.0, 1e-9);
  cr_assert_float_eq(d.rows[1].d_cum, 0.0, 1e-9);
  cr_assert_eq(d.rows[2].name.ptr[0], 'c');
  pcol_diff_free(&d);
  cr_assert_eq(pcol_diff_compute(&base, &nw, 1, &d, &err), 0);
  cr_assert_eq(d.rows[0].name.ptr[0], 'a'); /* raw: a +4 */
  cr_assert_eq(d.rows[0].abs_flat, 4);
  cr_assert_eq(d.rows[0].abs_cum, 4);
  pcol_diff_free(&d);
  /* a name whose flat and cum both change by 0 is no node of pprof's
   * -diff_base graph: left out of the raw rows, kept in the shares' */
  pcol_top_row zr[] = {{{"a", 1}, 2, 4, 0, 0}, {{"z", 1}, 0, 4, 0, 0}},
               zn[] = {{{"a", 1}, 2, 4, 0, 0}, {{"b", 1}, 3, 3, 0, 0}, {{"z", 1}, 0, 4, 0, 0}};
  pcol_top zb = {zr, 2, 4, {0, 0, {0, 0}, {0, 0}}, NULL}, zw = {zn, 3, 7, {0, 0, {0, 0}, {0, 0}}, NULL};
  cr_assert_eq(pcol_diff_compute(&zb, &zw, 1, &d, &err), 0);
  cr_assert_eq(d.nrows, 1);
  cr_assert_eq(d.rows[0].name.ptr[0], 'b');
  cr_assert_eq(d.rows[0].base_flat, 0); /* (not a's, left out before it) */
  cr_assert_eq(d.rows[0].base_cum, 0);
  cr_assert_eq(d.rows[0].abs_flat, 3);
  pcol_diff_free(&d);
  cr_assert_eq(pcol_diff_compute(&zb, &zb, 0, &d, &err), 0);
  cr_assert_eq(d.nrows, 2);
  pcol_diff_free(&d);
  /* a raw change past 64 bits is exact (sums are 128-bit, pcol_sum), not
   * wrapped and not refused */
  pcol_top_row big_b[] = {{{"x", 1}, INT64_MIN + 1, 0, 0, 0}}, big_n[] = {{{"x", 1}, INT64_MAX, 0, 0, 0}};
  pcol_top tb = {big_b, 1, 1, {0, 0, {0, 0}, {0, 0}}, NULL}, tn = {big_n, 1, 1, {0, 0, {0, 0}, {0, 0}}, NULL};
  cr_assert_eq(pcol_diff_compute(&tb, &tn, 1, &d, &err), 0, "%s", err.message);
  cr_assert(d.rows[0].abs_flat == (pcol_sum)INT64_MAX - (pcol_sum)(INT64_MIN + 1));
  char txt[48];
  pcol_sum_text(d.rows[0].abs_flat, txt, sizeof txt);
  cr_assert_str_eq(txt, "18446744073709551614");
  pcol_diff_free(&d);
  cr_assert_eq(pcol_diff_compute(&tb, &tn, 0, &d, &err), 0); /* shares are finite */
  pcol_diff_free(&d);
}

/* `pcol cat --format json|jsonl` writes every float as valid JSON: an
 * infinite value (a Perun model's r_square, say) is the string "Infinity",
 * never a bare inf that no JSON parser accepts. */
#include <jansson.h>
#include <math.h>
Test(api, cat_json_writes_infinity_as_valid_json) {
  const char *bdir = getenv("PCOL_BUILD");
  char pcol[512], path[] = "/tmp/pcol-inf-XXXXXX";
  snprintf(pcol, sizeof pcol, "%s/bin/pcol", bdir ? bdir : "build");
  if (access(pcol, X_OK) != 0) cr_skip_test("no pcol binary at %s", pcol);
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  close(fd);
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  uint32_t src;
  cr_assert_eq(pcol_b_source(b, "test", "t", PCOL_NA_I64, &src, NULL), 0);
  pcol_model_row m = {src, 0, 0, 0, 0, INFINITY, -INFINITY, NAN};
  cr_assert_eq(pcol_b_cstr(b, "linear", &m.model, NULL), 0);
  cr_assert_eq(pcol_b_model(b, &m, NULL), 0);
  cr_assert_eq(pcol_builder_write(b, path, NULL, NULL), 0);
  pcol_builder_free(b);
  const char *fmts[2] = {"json", "jsonl"};
  for (int k = 0; k < 2; k++) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "%s cat %s --table models --format %s", pcol, path, fmts[k]);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    char out[8192];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    cr_assert_eq(pclose(p), 0, "%s", cmd);
    json_error_t je;
    /* jsonl: one row, so the whole output is one JSON value either way */
    json_t *j = json_loads(out, JSON_DECODE_ANY, &je);
    cr_assert(j, "%s is not JSON (%s): %s", fmts[k], je.text, out);
    json_t *row = json_is_array(j) ? json_array_get(j, 0) : j;
    cr_assert_str_eq(json_string_value(json_object_get(row, "r_square")), "Infinity", "%s", out);
    cr_assert_str_eq(json_string_value(json_object_get(row, "x_start")), "-Infinity", "%s", out);
    cr_assert(json_is_null(json_object_get(row, "x_end")), "%s", out); /* NaN = NA */
    json_decref(j);
  }
  unlink(path);
}

/* One rule for a sample's value: a value type listed twice in one sample
 * (a pprof profile may declare a sample type twice) counts its first entry
 * in every view and exporter — the collapsed exporter took the last one. */
static char *collapsed_of(pcol_file *f, const pcol_value_sel *v) {
  char *out = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&out, &len);
  pcol_error err = {0};
  pcol_select all = {0};
  cr_assert_eq(pcol_export_collapsed(f, &all, v, m, &err), 0, "%s", err.message);
  fclose(m);
  return out;
}
/* A profile of one function f whose samples each list the value type
 * TYPE/bytes twice (values vals[i][0] and vals[i][1], as a pprof may list
 * a type twice), the type declared twice among the source's value types
 * when `declared`, opened from memory (*mem: free it after pcol_close). */
static pcol_file *type_listed_twice(const char *type, int declared, const int64_t (*vals)[2], size_t n,
                                    void **mem) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  uint32_t src, t, u, vt, fid, loc;
  cr_assert_eq(pcol_b_source(b, "test", "t", PCOL_NA_I64, &src, NULL), 0);
  cr_assert_eq(pcol_b_cstr(b, type, &t, NULL), 0);
  cr_assert_eq(pcol_b_cstr(b, "bytes", &u, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, t, u, &vt, NULL), 0);
  for (int i = 0; declared && i < 2; i++) cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_cstr(b, "f", &fn.name, NULL), 0);
  cr_assert_eq(pcol_b_function(b, &fn, &fid, NULL), 0);
  pcol_line_row l = {fid, PCOL_NA_I64, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &loc, NULL), 0);
  pcol_sample_row s = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
  cr_assert_eq(pcol_b_stack(b, &loc, 1, &s.stack_id, NULL), 0);
  for (size_t i = 0; i < n; i++) {
    pcol_value_row v[2] = {{vt, vals[i][0]}, {vt, vals[i][1]}};
    cr_assert_eq(pcol_b_sample(b, &s, v, 2, NULL, NULL), 0);
  }
  size_t len;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, mem, &len, NULL), 0);
  pcol_builder_free(b);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(*mem, len, NULL, &f, &err), 0, "%s", err.message);
  return f;
}
Test(api, a_value_type_listed_twice_counts_its_first_entry) {
  static const int64_t vals[][2] = {{5, 7}};
  void *mem;
  pcol_file *f = type_listed_twice("alloc", 0, vals, 1, &mem);
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, NULL, "alloc", &v, &err), 0, "%s", err.message);
  pcol_top top = {0};
  cr_assert_eq(pcol_top_compute(f, NULL, &v, PCOL_BY_FUNCTION, &top, &err), 0);
  cr_assert_eq(top.total, 5);
  pcol_top_free(&top);
  char *c = collapsed_of(f, &v);
  cr_assert_str_eq(c, "f 5\n");
  free(c);
  /* a selection made by hand (or resolved on another file) whose id is
   * past the file's value types is refused, not an empty OK (review 11 m6) */
  pcol_value_sel bad = v;
  bad.vt_id = 999;
  cr_assert_eq(pcol_top_compute(f, NULL, &bad, PCOL_BY_FUNCTION, &top, &err), PCOL_EINVAL);
  cr_assert(strstr(err.message, "value type id 999") != NULL, "%s", err.message);
  cr_assert_null(top.rows);
  pcol_close(f);
  free(mem);
}

/* pcol_value_sel.column (since 1.2, in 1.1's padding) is checked where it
 * is read: a column past every source's types of the kin is EINVAL naming
 * it, not a total of 0 with status OK (review rd15a F4: a 1.1 caller that
 * assigns the fields one by one leaves it unset); a column of "samples"
 * (no stored type) is not read. */
static void top_of_column(pcol_file *f, pcol_value_sel v, uint32_t column, int rc, pcol_sum total) {
  pcol_top top = {0};
  pcol_error err = {0};
  v.column = column;
  cr_assert_eq(pcol_top_compute(f, NULL, &v, PCOL_BY_FUNCTION, &top, &err), rc, "column %u: %s", column,
               err.message);
  if (!rc) cr_assert_eq(top.total, total, "column %u", column);
  if (rc) cr_assert(strstr(err.message, "value column") != NULL, "%s", err.message);
  pcol_top_free(&top);
}
Test(api, a_value_column_past_the_sources_is_refused) {
  static const int64_t vals[][2] = {{10, 20}, {30, 40}};
  void *mem;
  pcol_file *f = type_listed_twice("x", 1, vals, 2, &mem); /* x/bytes twice, as a pprof may */
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, NULL, "x", &v, &err), 0, "%s", err.message);
  cr_assert_eq(v.column, 0, "a bare TYPE listed twice: the type itself, its first value");
  top_of_column(f, v, 0, 0, 40); /* the type itself: its first value */
  top_of_column(f, v, 1, 0, 40);
  top_of_column(f, v, 2, 0, 60);
  top_of_column(f, v, 3, PCOL_EINVAL, 0);
  top_of_column(f, v, 0x7f7f7f7f, PCOL_EINVAL, 0); /* padding's garbage */
  /* the exporters that read it refuse it too */
  v.column = 3;
  char *out = NULL;
  size_t olen = 0;
  FILE *m = open_memstream(&out, &olen);
  pcol_select all = {0};
  cr_assert_eq(pcol_export_collapsed(f, &all, &v, m, &err), PCOL_EINVAL);
  cr_assert(strstr(err.message, "value column 3") != NULL, "%s", err.message);
  fclose(m);
  free(out);
  /* "samples" reads no column */
  cr_assert_eq(pcol_value_resolve(f, NULL, "samples", &v, &err), 0, "%s", err.message);
  top_of_column(f, v, 5, 0, 2);
  pcol_close(f);
  free(mem);
}

/* Stored tables by spec.md §5's name and by the schema's (pcol info's). */
Test(api, table_info_by_name_takes_the_spec_names) {
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    const pcol_table_info *ti = pcol_table_info_get(t);
    cr_assert_eq(pcol_table_info_by_name(ti->name), ti, "%s", ti->name);
  }
  cr_assert_eq(pcol_table_info_by_name("samples")->id, PCOL_T_SAMPLES);
  cr_assert_eq(pcol_table_info_by_name("locations")->id, PCOL_T_LOCATIONS);
  cr_assert_eq(pcol_table_info_by_name("samples_stored")->id, PCOL_T_SAMPLES);
  cr_assert_null(pcol_table_info_by_name("sample"));
  cr_assert_null(pcol_table_info_by_name("_stored"));
  cr_assert_null(pcol_table_info_by_name("stacks_stored"));
  cr_assert_null(pcol_table_info_by_name(""));
}

/* Sources and meta by string id: any bytes (NUL too); ids the builder has
 * not given out are refused. */
Test(api, builder_sources_and_meta_by_string_id) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t ty, key, val, src;
  cr_assert_eq(pcol_b_string(b, "a\0b", 3, &ty, &err), 0);
  cr_assert_eq(pcol_b_string(b, "k\0", 2, &key, &err), 0);
  cr_assert_eq(pcol_b_string(b, "v", 1, &val, &err), 0);
  cr_assert_eq(pcol_b_source_sid(b, ty, 99, 0, &src, &err), PCOL_EINVAL);
  cr_assert_eq(pcol_b_source_sid(b, ty, 0, 7, &src, &err), 0);
  cr_assert_eq(src, 1);
  cr_assert_eq(pcol_b_meta_sid(b, 2, key, val, &err), PCOL_EINVAL, "no source 2");
  cr_assert_eq(pcol_b_meta_sid(b, 1, key, 99, &err), PCOL_EINVAL);
  cr_assert_eq(pcol_b_meta_sid(b, 1, key, val, &err), 0);
  void *mem;
  size_t len;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &mem, &len, &err), 0, "%s", err.message);
  pcol_builder_free(b);
  pcol_file *f;
  cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
  pcol_view v;
  pcol_str s;
  cr_assert_eq(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &v, &err), 0);
  cr_assert_eq(pcol_string(f, pcol_view_u32(&v, 0), &s, &err), 0);
  cr_assert(s.len == 3 && memcmp(s.ptr, "a\0b", 3) == 0);
  cr_assert_eq(pcol_meta_get(f, 1, "k", &s, &err), PCOL_ENOTFOUND, "the key is k NUL, not k");
  pcol_close(f);
  free(mem);
}

/* Numeric meta values: one rule ([-]digits within int64) for every reader
 * of an interval, a period or a time. */
Test(api, meta_get_i64_takes_decimal_integers_only) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src;
  cr_assert_eq(pcol_b_source(b, "t", "u", 0, &src, &err), 0);
  const char *kv[][2] = {{"ok", "10000"},  {"neg", "-5"},     {"max", "9223372036854775807"},
                         {"min", "-9223372036854775808"}, {"under", "-9223372036854775809"},
                         {"over", "9223372036854775808"}, {"word", "12a"}, {"space", " 1"},
                         {"empty", ""},    {"minus", "-"},     {"long", "00000000000000000001"}};
  for (size_t i = 0; i < sizeof kv / sizeof *kv; i++)
    cr_assert_eq(pcol_b_meta_str(b, src, kv[i][0], kv[i][1], &err), 0);
  void *mem;
  size_t len;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &mem, &len, &err), 0, "%s", err.message);
  pcol_builder_free(b);
  pcol_file *f;
  cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0, "%s", err.message);
  int64_t v = 0;
  cr_assert_eq(pcol_meta_get_i64(f, src, "ok", &v, &err), 0);
  cr_assert_eq(v, 10000);
  cr_assert_eq(pcol_meta_get_i64(f, src, "neg", &v, &err), 0);
  cr_assert_eq(v, -5);
  cr_assert_eq(pcol_meta_get_i64(f, src, "max", &v, &err), 0);
  cr_assert_eq(v, INT64_MAX);
  cr_assert_eq(pcol_meta_get_i64(f, src, "min", &v, &err), 0);
  cr_assert_eq(v, INT64_MIN);
  const char *bad[] = {"over", "under", "word", "space", "empty", "minus", "long"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    cr_assert_eq(pcol_meta_get_i64(f, src, bad[i], &v, &err), PCOL_EFORMAT, "%s", bad[i]);
    cr_assert(strstr(err.message, bad[i]), "the message names the key: %s", err.message);
  }
  /* not found fills err too, as every function does (helper-88 F5) */
  err = (pcol_error){0};
  cr_assert_eq(pcol_meta_get_i64(f, src, "absent", &v, &err), PCOL_ENOTFOUND);
  cr_assert(err.code == PCOL_ENOTFOUND && strstr(err.message, "no key absent"), "%d %s", err.code,
            err.message);
  err = (pcol_error){0};
  cr_assert_eq(pcol_meta_get_i64(f, 0, "ok", &v, &err), PCOL_ENOTFOUND, "file-level is another scope");
  cr_assert(err.code == PCOL_ENOTFOUND && strstr(err.message, "ok"), "%d %s", err.code, err.message);
  err = (pcol_error){0};
  pcol_str ms;
  cr_assert_eq(pcol_meta_get(f, 99, "ok", &ms, &err), PCOL_ENOTFOUND);
  cr_assert(err.code == PCOL_ENOTFOUND && err.message[0], "%d '%s'", err.code, err.message);
  pcol_close(f);
  free(mem);
}

/* a perf script text: times and a time value (cpu-clock ns), which every
 * export takes, and no v8.* or otlp.* meta; *mem: free() it after
 * pcol_close */
static pcol_file *perf_two_samples(void **mem) {
  static const char text[] = "app 200/201 [000] 1.000000: 250000 cpu-clock: \n\t401000 g (/bin/app)\n"
                             "\t401100 main (/bin/app)\n\n"
                             "app 200/201 [000] 1.000250: 250000 cpu-clock: \n\t401100 main (/bin/app)\n\n";
  pcol_builder *b;
  pcol_error e0 = {0};
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  FILE *in = fmemopen((void *)text, sizeof text - 1, "r");
  cr_assert(in);
  cr_assert_eq(pcol_import_perf(b, in, "x.perf", NULL, &e0), 0, "%s", e0.message);
  fclose(in);
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}
/* every format an export writes */
static const pcol_format export_fmts[] = {PCOL_FMT_RPROF,      PCOL_FMT_PPROF, PCOL_FMT_PERUN,   PCOL_FMT_COLLAPSED,
                                          PCOL_FMT_SPEEDSCOPE, PCOL_FMT_V8,    PCOL_FMT_FIREFOX, PCOL_FMT_OTLP};
#define NFMTS (sizeof export_fmts / sizeof *export_fmts)
/* pcol_export of f in export_fmts[i] into memory: its status, *n the bytes written */
static int export_mem(pcol_file *f, size_t i, const pcol_select *sel, size_t *n, pcol_error *err) {
  char *buf = NULL;
  FILE *out = open_memstream(&buf, n);
  cr_assert(out);
  int rc = pcol_export(f, export_fmts[i], sel, out, NULL, err);
  fclose(out);
  free(buf);
  return rc;
}

/* The warning rule (pcol.h): a success leaves err as it was, so a caller
 * who passes a cleared err and finds a message prints it as a warning.
 * Since pcol_meta_get fills err on PCOL_ENOTFOUND (ea5a43a), the v8 and
 * OTLP exports' look-ups of keys a source may lack (v8.start_time_us,
 * otlp.profile_id) left "meta: source 1 has no key ..." in err with
 * PCOL_OK: every export of a file without them must leave err clear. */
Test(api, export_success_leaves_err_clear) {
  void *mem;
  pcol_file *f = perf_two_samples(&mem);
  for (size_t i = 0; i < NFMTS; i++) {
    pcol_error err = {0};
    size_t n = 0;
    int rc = export_mem(f, i, NULL, &n, &err);
    cr_assert_eq(rc, 0, "format %d: %s", (int)export_fmts[i], err.message);
    cr_assert(err.code == PCOL_OK && !err.message[0], "format %d: success with err %d '%s'",
              (int)export_fmts[i], err.code, err.message);
  }
  pcol_close(f);
  free(mem);
}

/* An export keeps each stack whole: pcol_export of every format, and the
 * pcol_export_<format> functions, refuse a selection with hide, show,
 * show_from or no_inlines (EINVAL, the message `pcol unpack` gives, nothing
 * written), where focus (which selects samples) is taken.  (Before, the
 * library wrote the whole stacks without a word; only the CLI and R
 * refused, each with its own check.) */
Test(api, export_refuses_filters_that_change_stacks) {
  void *mem;
  pcol_file *f = perf_two_samples(&mem);
  for (int k = 0; k < 5; k++) {
    pcol_select sel = {0};
    if (k == 0) sel.hide = "g";
    if (k == 1) sel.show = "main";
    if (k == 2) sel.show_from = "main";
    if (k == 3) sel.no_inlines = true;
    if (k == 4) sel.focus = "g"; /* selects samples: taken */
    for (size_t i = 0; i < NFMTS; i++) {
      pcol_error err = {0};
      size_t n = 0;
      int rc = export_mem(f, i, &sel, &n, &err);
      if (k == 4) {
        cr_assert_eq(rc, 0, "focus, format %d: %s", (int)export_fmts[i], err.message);
        cr_assert_gt(n, 0);
      } else {
        cr_assert_eq(rc, PCOL_EINVAL, "filter %d, format %d: rc %d", k, (int)export_fmts[i], rc);
        cr_assert(strstr(err.message, "change stacks, which an export keeps whole"), "%s", err.message);
        cr_assert_eq(n, 0, "filter %d, format %d: %zu bytes written", k, (int)export_fmts[i], n);
      }
    }
    /* the one-format functions too */
    pcol_error err = {0};
    FILE *out = fopen("/dev/null", "w");
    cr_assert(out);
    int rc = pcol_export_rprof(f, &sel, out, &err);
    int rc2 = pcol_export_pprof(f, &sel, out, 1, &err);
    fclose(out);
    cr_assert_eq(rc, k == 4 ? 0 : PCOL_EINVAL, "pcol_export_rprof, filter %d: %s", k, err.message);
    cr_assert_eq(rc2, k == 4 ? 0 : PCOL_EINVAL, "pcol_export_pprof, filter %d: %s", k, err.message);
  }
  pcol_close(f);
  free(mem);
}

/* pcol_meta_each: every row of a key of one source, in file order (pprof's
 * repeated comments), an empty value as it is, fn's stop returned. */
typedef struct {
  char got[8][16];
  int n, stop_at;
} each_ctx;
static int each_row(void *ctx, pcol_str v) {
  each_ctx *c = ctx;
  snprintf(c->got[c->n], sizeof c->got[0], "%.*s", v.ptr ? (int)v.len : 2, v.ptr ? v.ptr : "NA");
  return ++c->n == c->stop_at ? 42 : 0;
}
Test(api, meta_each_gives_every_row_of_a_key_in_order) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t s1, s2;
  cr_assert_eq(pcol_b_source(b, "t", "u1", 0, &s1, &err), 0);
  cr_assert_eq(pcol_b_source(b, "t", "u2", 0, &s2, &err), 0);
  const char *rows[][3] = {{"1", "c", "one"}, {"2", "c", "other"}, {"1", "d", "x"},
                           {"1", "c", "two"}, {"1", "c", ""},      {"1", "c", "one"}};
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    cr_assert_eq(pcol_b_meta_str(b, rows[i][0][0] == '1' ? s1 : s2, rows[i][1], rows[i][2], &err), 0);
  void *mem;
  size_t len;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &mem, &len, &err), 0, "%s", err.message);
  pcol_builder_free(b);
  pcol_file *f;
  cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0, "%s", err.message);
  each_ctx c = {.stop_at = -1};
  cr_assert_eq(pcol_meta_each(f, s1, "c", each_row, &c, &err), 0, "%s", err.message);
  cr_assert_eq(c.n, 4);
  cr_assert_str_eq(c.got[0], "one");
  cr_assert_str_eq(c.got[1], "two");
  cr_assert(!strcmp(c.got[2], "") || !strcmp(c.got[2], "NA"), "%s", c.got[2]);
  cr_assert_str_eq(c.got[3], "one", "a repeated value is a row of its own");
  c = (each_ctx){.stop_at = 2};
  cr_assert_eq(pcol_meta_each(f, s1, "c", each_row, &c, &err), 42, "fn's stop is returned");
  cr_assert_eq(c.n, 2);
  c = (each_ctx){.stop_at = -1};
  cr_assert_eq(pcol_meta_each(f, s2, "c", each_row, &c, &err), 0);
  cr_assert(c.n == 1 && !strcmp(c.got[0], "other"), "%d", c.n);
  c = (each_ctx){.stop_at = -1};
  cr_assert_eq(pcol_meta_each(f, s2, "absent", each_row, &c, &err), 0, "no row: PCOL_OK");
  cr_assert_eq(c.n, 0);
  err = (pcol_error){0};
  cr_assert_eq(pcol_meta_each(f, 3, "c", each_row, &c, &err), PCOL_ENOTFOUND);
  cr_assert(err.code == PCOL_ENOTFOUND && err.message[0], "%d '%s'", err.code, err.message);
  /* pcol_meta_get still gives the first row */
  pcol_str v;
  cr_assert_eq(pcol_meta_get(f, s1, "c", &v, &err), 0);
  cr_assert(v.len == 3 && !memcmp(v.ptr, "one", 3));
  pcol_close(f);
  free(mem);
}

/* pcol_meta_get looks rows up through a per-source index (issue 32: the
 * many-file view header asked each of 1,440 sources a few keys, a scan of
 * every row each time).  Its answers are the scan's: rows of several
 * sources interleaved, a key repeated (the first row counts), file-level
 * rows apart, an unknown source, and meta rows that come before any
 * source's. */
Test(api, meta_get_answers_per_source_in_file_order) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  enum { NS = 40 };
  uint32_t src[NS];
  char k[32], v[32];
  cr_assert_eq(pcol_b_meta_str(b, 0, "k", "file", &err), 0);
  for (int s = 0; s < NS; s++) cr_assert_eq(pcol_b_source(b, "t", "u", s, &src[s], &err), 0);
  for (int round = 0; round < 3; round++) /* source s, key r: value "s.round" (first wins) */
    for (int s = NS - 1; s >= 0; s--)
      for (int r = 0; r <= s % 4; r++) {
        snprintf(k, sizeof k, "k%d", r);
        snprintf(v, sizeof v, "%d.%d", s, round);
        cr_assert_eq(pcol_b_meta_str(b, src[s], k, v, &err), 0);
      }
  cr_assert_eq(pcol_b_meta_str(b, 0, "k", "file again", &err), 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_builder_free(b);
  pcol_str got;
  for (int s = 0; s < NS; s++)
    for (int r = 0; r < 5; r++) {
      snprintf(k, sizeof k, "k%d", r);
      int rc = pcol_meta_get(f, src[s], k, &got, &err);
      if (r > s % 4) {
        cr_expect_eq(rc, PCOL_ENOTFOUND, "source %d key %s", s, k);
        continue;
      }
      snprintf(v, sizeof v, "%d.0", s);
      cr_assert_eq(rc, 0, "source %d key %s: %s", s, k, err.message);
      cr_expect(got.len == strlen(v) && !memcmp(got.ptr, v, got.len), "source %d key %s: %.*s", s, k,
                (int)got.len, got.ptr);
    }
  cr_assert_eq(pcol_meta_get(f, 0, "k", &got, &err), 0);
  cr_expect(got.len == 4 && !memcmp(got.ptr, "file", 4));
  cr_expect_eq(pcol_meta_get(f, 0, "k0", &got, &err), PCOL_ENOTFOUND);
  cr_expect_eq(pcol_meta_get(f, NS + 1, "k0", &got, &err), PCOL_ENOTFOUND);
  cr_expect_eq(pcol_meta_get(f, UINT32_MAX, "k0", &got, &err), PCOL_ENOTFOUND);
  pcol_close(f);
  free(mem);
}

/* The header's first rule holds for the builder too: a refused append fills
 * err with its code and a message naming the call (the pcol_b_* appends used
 * to return a bare code, and callers patched a message in afterwards), and
 * pcol_section_get says why an index is refused. */
Test(api, builder_appends_and_section_get_fill_err) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  cr_assert_eq(pcol_b_source_value_type(b, 5, 1, &err), PCOL_EINVAL); /* no source 5 */
  cr_assert_eq(err.code, PCOL_EINVAL);
  cr_assert(strstr(err.message, "pcol_b_source_value_type"), "%s", err.message);
  err = (pcol_error){0};
  cr_assert_eq(pcol_b_sample_text(b, 1, "x", 1, &err), PCOL_EINVAL); /* no sample 1 */
  cr_assert(strstr(err.message, "pcol_b_sample_text"), "%s", err.message);
  pcol_builder_free(b);

  void *mem;
  pcol_file *f = three_frames(&mem);
  pcol_section_info si;
  err = (pcol_error){0};
  cr_assert_eq(pcol_section_get(f, pcol_section_count(f), &si, &err), PCOL_EINVAL);
  cr_assert_eq(err.code, PCOL_EINVAL);
  cr_assert(strstr(err.message, "section"), "%s", err.message);
  pcol_close(f);
  free(mem);
}

/* The streaming importers (JFR: sources made after the last chunk;
 * Tachyon: after its tables, before the samples) pass a builder's refusal
 * on as it is, not as "out of memory": a small file of each, read in place,
 * into a builder whose sources or functions table is at its row limit
 * (2^32 - 2, set by hand). */
Test(api, streaming_importers_give_the_builders_reason) {
  static const struct {
    const char *path;
    pcol_status (*imp)(pcol_builder *, FILE *, const char *, const pcol_import_options *, pcol_error *);
  } cases[] = {{"tests/fuzz-regress/jfr/gen-2chunks.jfr", pcol_import_jfr},
               {"tests/fuzz-regress/tachyon/gen-rich.bin", pcol_import_tachyon}};
  static const struct {
    int table;
    const char *call;
  } full[] = {{PCOL_T_SOURCES, "pcol_b_source"}, {PCOL_T_FUNCTIONS, "pcol_b_function"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    for (size_t j = 0; j < sizeof full / sizeof *full; j++) {
      const char *what = cases[i].path;
      FILE *in = fopen(what, "rb");
      cr_assert(in, "%s: not found (run from the repository root)", what);
      pcol_builder *b;
      pcol_error err = {0};
      cr_assert_eq(pcol_builder_new(&b, &err), 0);
      b->t[full[j].table].rows = UINT32_MAX - 1;
      int rc = cases[i].imp(b, in, what, NULL, &err);
      fclose(in);
      b->t[full[j].table].rows = 0;
      pcol_builder_free(b);
      cr_assert_eq(rc, PCOL_ETOOBIG, "%s: rc %d: %s", what, rc, err.message);
      cr_assert(strstr(err.message, full[j].call) && strstr(err.message, ": a table reached its row limit (2^32 - 2)"),
                "%s: %s", what, err.message);
      cr_assert(!strstr(err.message, "out of memory"), "%s: %s", what, err.message);
    }
}

/* pcol_inputs_expand, THE rule for a path's files (lib/core/inputs.c): a
 * directory's regular files by name (not dot files, not a subdirectory or
 * a FIFO); a glob's regular matches, the others skipped and named, escaped
 * (a newline in a name as \n); the refusals, each naming its argument; "-"
 * once.  Without an index file, no index note.  Nothing opens a FIFO. */
Test(api, inputs_expand_the_cli_rule) {
  char dir[] = "/tmp/pcol-inputs-XXXXXX";
  cr_assert(mkdtemp(dir));
  char p[256];
  const char *files[] = {"b.pcol", "a.pcol", ".hidden.pcol", "c\nd.pcol"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, files[i]);
    FILE *fp = fopen(p, "w");
    cr_assert(fp);
    fclose(fp);
  }
  snprintf(p, sizeof p, "%s/sub.pcol", dir);
  cr_assert_eq(mkdir(p, 0700), 0);
  snprintf(p, sizeof p, "%s/x\ny.pcol", dir);
  cr_assert_eq(mkdir(p, 0700), 0);
  snprintf(p, sizeof p, "%s/fifo.pcol", dir);
  cr_assert_eq(mkfifo(p, 0600), 0);
  pcol_inputs in;
  pcol_error err = {0};
  pcol_inputs_options o = {.index = true};
  const char *arg = dir;
  cr_assert_eq(pcol_inputs_expand(&arg, 1, &o, &in, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(in.n, 3);
  cr_assert(in.many && !in.first_is_union && !in.index_note && !in.skipped && in.nskipped == 0);
  snprintf(p, sizeof p, "%s/a.pcol", dir);
  cr_assert_str_eq(in.paths[0], p);
  snprintf(p, sizeof p, "%s/b.pcol", dir);
  cr_assert_str_eq(in.paths[1], p);
  pcol_inputs_free(&in);
  char pat[256];
  snprintf(pat, sizeof pat, "%s/*.pcol", dir);
  arg = pat;
  cr_assert_eq(pcol_inputs_expand(&arg, 1, NULL, &in, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(in.n, 3);
  cr_assert_eq(in.nskipped, 3);
  char want[1024];
  snprintf(want, sizeof want,
           "skipped '%s/fifo.pcol' (matched by '%s'): not a regular file\n"
           "skipped '%s/sub.pcol' (matched by '%s'): not a regular file\n"
           "skipped '%s/x\\ny.pcol' (matched by '%s'): not a regular file\n", dir, pat, dir, pat, dir, pat);
  cr_assert_str_eq(in.skipped, want); /* (a newline in a name escaped) */
  cr_assert(strstr(in.paths[2], "c\nd.pcol")); /* (a file's path as it is) */
  pcol_inputs_free(&in);
  /* refusals, each naming its argument */
  snprintf(pat, sizeof pat, "%s/*.nothing", dir);
  cr_assert_eq(pcol_inputs_expand(&arg, 1, NULL, &in, &err), PCOL_EINVAL);
  cr_assert(strstr(err.message, "no file matches") && strstr(err.message, pat), "%s", err.message);
  pcol_inputs_free(&in);
  snprintf(pat, sizeof pat, "%s/[s]ub.pcol", dir);
  cr_assert_eq(pcol_inputs_expand(&arg, 1, NULL, &in, &err), PCOL_ENOTFOUND);
  cr_assert(strstr(err.message, "no regular file matches"), "%s", err.message);
  cr_assert_eq(in.nskipped, 1); /* said before it failed */
  pcol_inputs_free(&in);
  snprintf(pat, sizeof pat, "%s/sub.pcol", dir);
  cr_assert_eq(pcol_inputs_expand(&arg, 1, NULL, &in, &err), PCOL_EINVAL);
  cr_assert(strstr(err.message, "holds no file"), "%s", err.message);
  pcol_inputs_free(&in);
  const char *two[] = {"-", "-"};
  cr_assert_eq(pcol_inputs_expand(two, 2, NULL, &in, &err), PCOL_EINVAL);
  cr_assert_eq(pcol_inputs_expand(two, 0, NULL, &in, &err), PCOL_EINVAL);
  cr_assert_eq(pcol_inputs_expand(two, 1, NULL, &in, &err), PCOL_OK);
  cr_assert(!in.many && in.n == 1 && !strcmp(in.paths[0], "-"));
  pcol_inputs_free(&in);
  pcol_inputs_free(&in); /* (twice: a zeroed one is empty) */
  pcol_inputs zero = {0};
  pcol_inputs_free(&zero);
  /* the text rule of the notes: a control byte and a stray byte escaped */
  char out[9];
  size_t i = 0;
  cr_assert_eq(pcol_text_char("\n", 1, &i, false, out), 2);
  cr_assert(!memcmp(out, "\\n", 2) && i == 1);
  i = 0;
  cr_assert_eq(pcol_text_char("\xff", 1, &i, false, out), 4);
  cr_assert(!memcmp(out, "\\xff", 4));
  const char *rm[] = {"a.pcol", "b.pcol", ".hidden.pcol", "c\nd.pcol", "fifo.pcol"};
  for (size_t k = 0; k < 5; k++) {
    snprintf(p, sizeof p, "%s/%s", dir, rm[k]);
    unlink(p);
  }
  snprintf(p, sizeof p, "%s/sub.pcol", dir);
  rmdir(p);
  snprintf(p, sizeof p, "%s/x\ny.pcol", dir);
  rmdir(p);
  rmdir(dir);
}

/* pcol_time_parse (review 21 F8): seconds since the start as a bare number
 * or with a time unit, as pcol prints durations (Duration: 2s, period: 10ms)
 * and --unit names them; a wall-clock time; anything else -1, *ns kept. */
Test(api, time_parse_takes_a_unit_suffix) {
  static const struct { const char *s; int rc; int64_t ns; } cases[] = {
      {"1.5", 0, 1500000000},        {"2s", 0, 2000000000},         {"250ms", 0, 250000000},
      {"1500us", 0, 1500000},        {"1500\xce\xbcs", 0, 1500000}, {"1500\xc2\xb5s", 0, 1500000},
      {"100ns", 0, 100},             {"1.5min", 0, 90000000000},    {"1h", 0, 3600000000000},
      {"2hrs", 0, 7200000000000},    {"2 s", 0, 2000000000},        {"3seconds", 0, 3000000000},
      {"2ms ", -1, 0},               {"2x", -1, 0},                 {"s", -1, 0},
      {"2e", -1, 0},                 {"1ps", -1, 0},                {"2m", -1, 0},
      {"1e10h", -1, 0},              {"@1700000000", 1, 1700000000000000000},
      /* units in any case, as pprof's (rd16a N1: 1HOUR, 1MS were, 1H, 1Min not) */
      {"1H", 0, 3600000000000},      {"1.5Min", 0, 90000000000},   {"0.006MINUTE", 0, 360000000},
      {"1HOUR", 0, 3600000000000},   {"1MS", 0, 1000000},           {"2Hrs", 0, 7200000000000},
      {"1500US", 0, 1500000},        {"2M", -1, 0},                 {"1PS", -1, 0},
      {"2026-11-23T10:00:00Z", 1, 1795428000000000000},
      /* a decimal number only (user review 5: strtod read "0x10" as 16 s,
       * and white space, "inf" and "nan" too) */
      {"0x10", -1, 0},               {" 1", -1, 0},                 {"0x1p3", -1, 0},
      {"infinity", -1, 0},           {"nan", -1, 0},                {".", -1, 0},
      {"-.5", 0, -500000000},        {"+2", 0, 2000000000},         {"5.", 0, 5000000000},
      {"1e3ms", 0, 1000000000},      {"1.5E-3s", 0, 1500000},       {"1e+1", 0, 10000000000}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int64_t ns = -7;
    int rc = pcol_time_parse(cases[i].s, &ns);
    cr_expect_eq(rc, cases[i].rc, "'%s': %d, not %d", cases[i].s, rc, cases[i].rc);
    cr_expect_eq(ns, cases[i].rc < 0 ? -7 : cases[i].ns, "'%s': %lld ns", cases[i].s, (long long)ns);
  }
}
