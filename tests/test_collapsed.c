/* test_collapsed.c — collapsed stacks in/out, and the speedscope exporter. */
#include "testutil.h"
#include <jansson.h>
#include <stdio.h>

#define FIX "tests/fixtures/collapsed/"

static pcol_file *import_text(const char *text, void **mem, pcol_error *err, int *rc) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, err), 0);
  FILE *in = fmemopen((void *)text, strlen(text), "r");
  *rc = pcol_import_collapsed(b, in, "t.folded", NULL, err);
  fclose(in);
  pcol_file *f = *rc ? NULL : tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}

static pcol_file *load(const char *text, void **mem) {
  pcol_error err = {0};
  int rc;
  pcol_file *f = import_text(text, mem, &err, &rc);
  cr_assert_eq(rc, 0, "%s", err.message);
  return f;
}

static char *export(pcol_file *f, const pcol_select *sel, const char *vt, int want_rc) {
  char *out = NULL;
  size_t len;
  FILE *o = open_memstream(&out, &len);
  pcol_error err = {0};
  /* the exporter takes a resolved value; names resolve as for the views */
  pcol_value_sel v;
  int rc = vt ? pcol_value_resolve(f, sel, vt, &v, &err) : PCOL_OK;
  if (!rc) rc = pcol_export_collapsed(f, sel, vt ? &v : NULL, o, &err);
  fclose(o);
  cr_assert_eq(rc, want_rc, "%s", err.message);
  return out;
}

static void assert_round_trip(const char *name) {
  char path[256];
  snprintf(path, sizeof path, FIX "%s", name);
  size_t len;
  char *text = tu_slurp(path, &len);
  void *mem;
  pcol_file *f = load(text, &mem);
  char *out = export(f, NULL, NULL, 0);
  cr_assert_str_eq(out, text, "%s does not come back byte for byte", name);
  free(out);
  free(text);
  pcol_close(f);
  free(mem);
}

Test(collapsed, round_trip_fixtures) {
  const char *names[] = {"simple.folded", "decimal.folded", "diff.folded", "annotated.folded"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) assert_round_trip(names[i]);
}

Test(collapsed, unaggregated_lines_are_summed_in_first_seen_order) {
  size_t len;
  char *text = tu_slurp(FIX "unaggregated.folded", &len);
  void *mem;
  pcol_file *f = load(text, &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 5, "one sample per line");
  char *out = export(f, NULL, NULL, 0);
  cr_assert_str_eq(out, "main;a 6\nmain;b 1\nmain;b;c 1\n");
  free(out);
  free(text);
  pcol_close(f);
  free(mem);
}

static pcol_str S(pcol_file *f, uint32_t id) {
  pcol_str s = {0};
  pcol_error err;
  cr_assert_eq(pcol_string(f, id, &s, &err), 0);
  return s;
}
static int streq(pcol_str s, const char *c) { return s.ptr && s.len == strlen(c) && !memcmp(s.ptr, c, s.len); }

static int leaf_cb(void *ctx, uint32_t depth, uint32_t loc) {
  uint32_t *out = ctx;
  out[depth - 1] = loc;
  return depth == 8;
}

/* function name of the frame at `depth` (1 = leaf) of sample row */
static pcol_str frame_name(pcol_file *f, uint64_t row, uint32_t depth) {
  pcol_view st, off, fn, nm;
  pcol_error err;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &off, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &fn, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &nm, &err), 0);
  uint32_t locs[8] = {0};
  cr_assert_eq(pcol_stack_walk(f, pcol_view_u32(&st, row), leaf_cb, locs, &err), 0);
  cr_assert(locs[depth - 1], "no frame at depth %u", depth);
  uint32_t func = pcol_view_u32(&fn, pcol_view_u64(&off, locs[depth - 1] - 1));
  return S(f, pcol_view_u32(&nm, func - 1));
}

static int64_t i64(pcol_file *f, int table, int col, uint64_t row) {
  pcol_view v;
  pcol_error err;
  cr_assert_eq(pcol_column(f, table, col, &v, &err), 0);
  return pcol_view_i64(&v, row);
}
static uint32_t u32(pcol_file *f, int table, int col, uint64_t row) {
  pcol_view v;
  pcol_error err;
  cr_assert_eq(pcol_column(f, table, col, &v, &err), 0);
  return pcol_view_u32(&v, row);
}

Test(collapsed, fields_of_a_simple_file) {
  void *mem;
  pcol_file *f = load("main;work;compute 412\nmain;work;copy_block;memcpy_[k] 95\n\n 1\n", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 3, "blank lines are skipped");
  cr_assert_eq(i64(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, 0), 412);
  cr_assert_eq(i64(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, 0), PCOL_NA_I64);
  cr_assert(streq(frame_name(f, 0, 1), "compute"));
  cr_assert(streq(frame_name(f, 0, 3), "main"));
  cr_assert(streq(frame_name(f, 1, 1), "memcpy_[k]"), "the kind suffix stays in the name");
  cr_assert_eq(u32(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, 2), 0, "' 1' is the empty stack");
  cr_assert_eq(pcol_rows(f, PCOL_T_VALUES), 0, "integer counts are weights only");
  pcol_str st;
  cr_assert(streq(S(f, u32(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, 0)), "collapsed"));
  (void)st;
  pcol_close(f);
  free(mem);
}

Test(collapsed, decimal_counts) {
  void *mem;
  pcol_file *f = load("a;b 1.5\na;c 0.25\na;d 2.50\n", &mem);
  cr_assert_eq(i64(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, 0), 2, "1.5 rounds half away from zero");
  cr_assert_eq(i64(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, 1), 0);
  cr_assert_eq(pcol_rows(f, PCOL_T_VALUES), 3);
  cr_assert_eq(i64(f, PCOL_T_VALUES, PCOL_C_V_VALUE, 0), 1500000000);
  cr_assert_eq(i64(f, PCOL_T_VALUES, PCOL_C_V_VALUE, 1), 250000000);
  uint32_t vt = u32(f, PCOL_T_VALUES, PCOL_C_V_TYPE, 0);
  cr_assert(streq(S(f, u32(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, vt - 1)), "count"));
  cr_assert(streq(S(f, u32(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, vt - 1)), "1e-9"));
  /* "2.50" is not how 2.5 is written back: its line is kept */
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLE_TEXT), 1);
  cr_assert_eq(u32(f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE, 0), 3);
  cr_assert(streq(S(f, u32(f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_TEXT, 0)), "a;d 2.50"));
  char *out = export(f, NULL, "samples", 0);
  cr_assert_str_eq(out, "a;b 2\na;c 0\na;d 3\n", "by weight: rounded counts");
  free(out);
  pcol_close(f);
  free(mem);
}

/* what `pcol fold` writes for the default value */
static char *fold_default(pcol_file *f) {
  char *out = NULL;
  size_t len;
  FILE *o = open_memstream(&out, &len);
  pcol_error err = {0};
  pcol_value_sel v;
  int rc = pcol_value_resolve(f, NULL, NULL, &v, &err);
  if (!rc) rc = pcol_fold_write(f, NULL, &v, NULL, o, &err);
  fclose(o);
  cr_assert_eq(rc, 0, "%s", err.message);
  return out;
}

/* user review, defect 4: integer and decimal counts in one file.  The
 * default value is count/1e-9, which only the decimal lines store; the
 * integer lines count their weight x 10^9 there (the decimal-count rule),
 * so no line is lost, and the views print the counts as given. */
Test(collapsed, mixed_integer_and_decimal_counts_keep_every_line) {
  void *mem;
  const char *text = "a;b 1.5\nc 2\n";
  pcol_file *f = load(text, &mem);
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, &err), 0, "%s", err.message);
  cr_assert(streq(v.type, "count") && streq(v.unit, "1e-9"));
  pcol_str unit;
  cr_assert_eq(pcol_value_decimals(&v, &unit), 9);
  cr_assert_eq(unit.len, 0);
  pcol_sum *w, total;
  cr_assert_eq(pcol_stack_weights(f, NULL, &v, &w, &total, &err), 0, "%s", err.message);
  cr_assert_eq(total, 3500000000, "every line counts: %lld", (long long)total);
  free(w);
  char *out = fold_default(f);
  cr_assert_str_eq(out, "a;b 1.5\nc 2\n");
  free(out);
  pcol_top t = {0};
  cr_assert_eq(pcol_top_compute(f, NULL, &v, PCOL_BY_FUNCTION, &t, &err), 0, "%s", err.message);
  cr_assert_eq(t.total, 3500000000);
  char b[48];
  pcol_value_text(&t.value, t.rows[0].flat, b, sizeof b);
  cr_assert(streq(t.rows[0].name, "c") && !strcmp(b, "2"), "top: %.*s %s", (int)t.rows[0].name.len, t.rows[0].name.ptr, b);
  pcol_value_text(&t.value, -250000000, b, sizeof b);
  cr_assert_str_eq(b, "-0.25");
  pcol_top_free(&t);
  uint8_t *has;
  cr_assert_eq(pcol_value_sources(f, &v, &has, &err), 0);
  cr_assert_eq(has[1], 1, "the source has the value on every line");
  free(has);
  /* the export: byte for byte without a value, decimals with count/1e-9 */
  out = export(f, NULL, NULL, 0);
  cr_assert_str_eq(out, text);
  free(out);
  out = export(f, NULL, "count", 0);
  cr_assert_str_eq(out, text);
  free(out);
  pcol_close(f);
  free(mem);
  /* a differential file mixing both: count_after, the decimal form */
  f = load("a 1 2\nb 1.5 2.5\nc 3 4\n", &mem);
  out = fold_default(f);
  cr_assert_str_eq(out, "a 2\nb 2.5\nc 4\n");
  free(out);
  out = export(f, NULL, "count_before/1e-9", 0);
  cr_assert_str_eq(out, "a 1\nb 1.5\nc 3\n");
  free(out);
  out = export(f, NULL, NULL, 0);
  cr_assert_str_eq(out, "a 1 2\nb 1.5 2.5\nc 3 4\n");
  free(out);
  pcol_close(f);
  free(mem);
}

Test(collapsed, differential_files) {
  void *mem;
  pcol_file *f = load("main;a 10 12\nmain;b 5 0\n", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 2);
  cr_assert_eq(i64(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, 0), 12, "weight = the after count");
  cr_assert_eq(pcol_rows(f, PCOL_T_VALUES), 4);
  cr_assert_eq(i64(f, PCOL_T_VALUES, PCOL_C_V_VALUE, 0), 10);
  cr_assert_eq(i64(f, PCOL_T_VALUES, PCOL_C_V_VALUE, 1), 12);
  uint32_t vt = u32(f, PCOL_T_VALUES, PCOL_C_V_TYPE, 0);
  cr_assert(streq(S(f, u32(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, vt - 1)), "count_before"));
  cr_assert(streq(S(f, u32(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, vt - 1)), "count"));
  char *out = export(f, NULL, "count_before", 0);
  cr_assert_str_eq(out, "main;a 10\nmain;b 5\n");
  free(out);
  out = export(f, NULL, "no_such_type", PCOL_ENOTFOUND);
  free(out);
  pcol_close(f);
  free(mem);
}

Test(collapsed, bad_lines_name_file_and_line) {
  pcol_error err = {0};
  void *mem;
  int rc;
  /* a line that is not "stack count" is skipped (as speedscope and
   * flamegraph.pl): success, with a warning that counts and places it */
  pcol_file *f = import_text("a;b 1\nno-count-here\na;c x12\n", &mem, &err, &rc);
  cr_assert_eq(rc, PCOL_OK, "%s", err.message);
  cr_assert(strstr(err.message, "t.folded: skipped 2 lines") && strstr(err.message, "line 2"), "%s", err.message);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 1);
  pcol_close(f);
  free(mem);
  memset(&err, 0, sizeof err);
  import_text("a;b 1\na;c 99999999999999999999\n", &mem, &err, &rc);
  cr_assert_eq(rc, PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "t.folded:2: count '99999999999999999999' is out of range"), "%s", err.message);
  import_text("a;b 1 2\na;c 3\n", &mem, &err, &rc);
  cr_assert_eq(rc, PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "t.folded:2:") && strstr(err.message, "differential"), "%s", err.message);
  import_text("a;b 1.2.3\n", &mem, &err, &rc); /* no line of the file is one */
  cr_assert_eq(rc, PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "t.folded:1: expected 'stack count'"), "%s", err.message);
}

Test(collapsed, from_a_perun_kperf_profile) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  FILE *in = fopen("tests/fixtures/perun/kperf.perf", "rb");
  cr_assert(in);
  cr_assert_eq(pcol_import_perun(b, in, "kperf.perf", NULL, &err), 0, "%s", err.message);
  fclose(in);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_builder_free(b);
  char *out = export(f, NULL, NULL, 0);
  /* kperf resources in file order, stacks root first, weight = amount */
  cr_assert_str_eq(out, "_start;main;work;compute 412\n_start;main;compute 37\n"
                        "_start;main;work;copy_block;memcpy 95\n_start;main 3\n[unknown] 1\n");
  free(out);
  pcol_close(f);
  free(mem);
}

/* ------------------------------------------------------------ speedscope */

static json_t *speedscope_opt(pcol_file *f, const pcol_select *sel, int timeline) {
  char *out = NULL;
  size_t len;
  FILE *o = open_memstream(&out, &len);
  pcol_error err = {0};
  pcol_export_options opt = {.timeline = timeline};
  int rc = pcol_export(f, PCOL_FMT_SPEEDSCOPE, sel, o, &opt, &err);
  fclose(o);
  cr_assert_eq(rc, 0, "%s", err.message);
  json_error_t je;
  json_t *j = json_loadb(out, len, 0, &je);
  cr_assert(j, "not JSON: %s", je.text);
  free(out);
  return j;
}
static json_t *speedscope(pcol_file *f, const pcol_select *sel) { return speedscope_opt(f, sel, 0); }

/* the integers of array key k of profile p, as "a b c" */
static void ints(json_t *p, const char *k, char *out, size_t n) {
  json_t *a = json_object_get(p, k), *x;
  size_t i;
  *out = 0;
  cr_assert(json_is_array(a), "%s: not an array", k);
  json_array_foreach(a, i, x) {
    char one[32];
    snprintf(one, sizeof one, "%s%lld", i ? " " : "", (long long)json_integer_value(x));
    strncat(out, one, n - strlen(out) - 1);
  }
}

Test(speedscope, sampled_profile_from_collapsed) {
  void *mem;
  pcol_file *f = load("main;work;compute 412\nmain;work 37\n 1\n", &mem);
  json_t *j = speedscope(f, NULL);
  cr_assert_str_eq(json_string_value(json_object_get(j, "$schema")), "https://www.speedscope.app/file-format-schema.json");
  json_t *frames = json_object_get(json_object_get(j, "shared"), "frames");
  cr_assert_eq(json_array_size(frames), 3);
  json_t *profiles = json_object_get(j, "profiles");
  cr_assert_eq(json_array_size(profiles), 1, "no times: no evented profile");
  json_t *p = json_array_get(profiles, 0);
  cr_assert_str_eq(json_string_value(json_object_get(p, "type")), "sampled");
  cr_assert_eq(json_integer_value(json_object_get(p, "endValue")), 450);
  json_t *s0 = json_array_get(json_object_get(p, "samples"), 0);
  cr_assert_eq(json_array_size(s0), 3);
  /* root first */
  const char *root = json_string_value(json_object_get(json_array_get(frames, json_integer_value(json_array_get(s0, 0))), "name"));
  const char *leaf = json_string_value(json_object_get(json_array_get(frames, json_integer_value(json_array_get(s0, 2))), "name"));
  cr_assert_str_eq(root, "main");
  cr_assert_str_eq(leaf, "compute");
  cr_assert_eq(json_array_size(json_array_get(json_object_get(p, "samples"), 2)), 0);
  cr_assert_eq(json_integer_value(json_array_get(json_object_get(p, "weights"), 1)), 37);
  json_decref(j);
  pcol_close(f);
  free(mem);
}

/* samples with times: an evented profile whose opens/closes balance, long
 * samples keep their duration, point samples last one interval */
Test(speedscope, evented_profile_keeps_durations) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  uint32_t src, fa, fb, la, lb, s1, s2;
  cr_assert_eq(pcol_b_source(b, "rprof", "t.out", PCOL_NA_I64, &src, &err), PCOL_OK);
  pcol_function_row fn = {0, 0, 0, 7};
  cr_assert_eq(pcol_b_cstr(b, "outer", &fn.name, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, "x.R", &fn.filename, &err), PCOL_OK);
  cr_assert_eq(pcol_b_function(b, &fn, &fa, &err), PCOL_OK);
  fn.start_line = PCOL_NA_I64;
  fn.filename = 0;
  cr_assert_eq(pcol_b_cstr(b, "inner", &fn.name, &err), PCOL_OK);
  cr_assert_eq(pcol_b_function(b, &fn, &fb, &err), PCOL_OK);
  pcol_line_row l = {fa, PCOL_NA_I64, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &la, &err), PCOL_OK);
  l.function_id = fb;
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &lb, &err), PCOL_OK);
  uint32_t st1[] = {la}, st2[] = {lb, la};
  cr_assert_eq(pcol_b_stack(b, st1, 1, &s1, &err), PCOL_OK);
  cr_assert_eq(pcol_b_stack(b, st2, 2, &s2, &err), PCOL_OK);
  /* t=0 point, t=10 long (30 ns, weight 3), t=40 point, t=100 point after a gap */
  pcol_sample_row r = {src, 0, 0, 1, PCOL_NA_I64, s1, 0};
  cr_assert_eq(pcol_b_sample(b, &r, NULL, 0, NULL, &err), 0);
  r = (pcol_sample_row){src, 10, 30, 3, PCOL_NA_I64, s2, 0};
  cr_assert_eq(pcol_b_sample(b, &r, NULL, 0, NULL, &err), 0);
  r = (pcol_sample_row){src, 40, 0, 1, PCOL_NA_I64, s2, 0};
  cr_assert_eq(pcol_b_sample(b, &r, NULL, 0, NULL, &err), 0);
  r = (pcol_sample_row){src, 100, 0, 1, PCOL_NA_I64, s1, 0};
  cr_assert_eq(pcol_b_sample(b, &r, NULL, 0, NULL, &err), 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_builder_free(b);
  json_t *j = speedscope(f, NULL);
  json_t *profiles = json_object_get(j, "profiles");
  cr_assert_eq(json_array_size(profiles), 2);
  json_t *e = json_array_get(profiles, 1);
  cr_assert_str_eq(json_string_value(json_object_get(e, "type")), "evented");
  cr_assert_str_eq(json_string_value(json_object_get(e, "unit")), "nanoseconds");
  json_t *ev = json_object_get(e, "events");
  /* expected: O outer@0; O inner@10; C inner@40? no: the long sample ends at
   * 40 and the next sample (same stack) starts at 40, which lasts (THE span
   * rule, lib/core/lasts.h: no interval, no time value, so until the next
   * sample, at most the thread's median gap, of 10, 30 and 60) 30, so inner
   * stays open until 70; then a gap: C inner@70, C outer@70; O outer@100,
   * C outer@130 */
  const char *want = "O0@0 O1@10 C1@70 C0@70 O0@100 C0@130";
  char got[256] = "";
  size_t i;
  json_t *x;
  int64_t last = -1, depth = 0;
  json_array_foreach(ev, i, x) {
    const char *t = json_string_value(json_object_get(x, "type"));
    int64_t at = json_integer_value(json_object_get(x, "at"));
    cr_assert_geq(at, last, "events must not go back in time");
    last = at;
    depth += *t == 'O' ? 1 : -1;
    cr_assert_geq(depth, 0);
    char one[32];
    snprintf(one, sizeof one, "%s%s%lld@%lld", i ? " " : "", t, (long long)json_integer_value(json_object_get(x, "frame")),
             (long long)at);
    strncat(got, one, sizeof got - strlen(got) - 1);
  }
  cr_assert_eq(depth, 0, "balanced");
  cr_assert_str_eq(got, want);
  cr_assert_eq(json_integer_value(json_object_get(e, "endValue")), 130);
  json_t *fr0 = json_array_get(json_object_get(json_object_get(j, "shared"), "frames"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(fr0, "file")), "x.R");
  cr_assert_eq(json_integer_value(json_object_get(fr0, "line")), 7);
  /* with the timeline, the sampled profile has a sample a row (weights 3
   * for the long sample), and the timeline each one's own time and
   * duration (pcolTimes, pcolDurations), which its stretches do not say */
  char s_got[128];
  ints(json_array_get(profiles, 0), "weights", s_got, sizeof s_got);
  cr_assert_str_eq(s_got, "1 3 1 1");
  ints(e, "pcolTimes", s_got, sizeof s_got);
  cr_assert_str_eq(s_got, "0 10 40 100");
  ints(e, "pcolDurations", s_got, sizeof s_got);
  cr_assert_str_eq(s_got, "0 30 0 0");
  json_decref(j);
  /* without it, a run of consecutive samples of one stack is one sample
   * (3 + 1; issue 44) */
  j = speedscope_opt(f, NULL, -1);
  cr_assert_eq(json_array_size(json_object_get(j, "profiles")), 1);
  ints(json_array_get(json_object_get(j, "profiles"), 0), "weights", s_got, sizeof s_got);
  cr_assert_str_eq(s_got, "1 4 1");
  json_decref(j);
  /* a time range cuts the long sample: [20, 45): 20 of its 30 ns (weight
   * 2 of 3) from 20, and the sample at 40; the copy of the range starts
   * where the range's part of the source begins (20: THE range rule of
   * the header, pcol_wall_cut), so its times count from there: 0 and 20 */
  pcol_select sel = {.has_from = 1, .has_to = 1, .from_ns = 20, .to_ns = 45};
  j = speedscope(f, &sel);
  ints(json_array_get(json_object_get(j, "profiles"), 0), "weights", s_got, sizeof s_got);
  cr_assert_str_eq(s_got, "2 1");
  e = json_array_get(json_object_get(j, "profiles"), 1);
  ints(e, "pcolTimes", s_got, sizeof s_got);
  cr_assert_str_eq(s_got, "0 20");
  ints(e, "pcolDurations", s_got, sizeof s_got);
  cr_assert_str_eq(s_got, "20 0");
  json_decref(j);
  j = speedscope_opt(f, &sel, -1);
  ints(json_array_get(json_object_get(j, "profiles"), 0), "weights", s_got, sizeof s_got);
  cr_assert_str_eq(s_got, "3", "20 of 30 ns of weight 3, and the sample at 40");
  json_decref(j);
  pcol_close(f);
  free(mem);
}

Test(collapsed, endless_line_stops_at_the_input_cap) {
  /* one line with no end: the importer must stop at the cap, not buffer it */
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  FILE *in = tu_endless("a;b 1\nc;", 'x');
  pcol_import_options o = {.max_input_bytes = 1 << 20};
  cr_assert_eq(pcol_import_collapsed(b, in, "endless", &o, &err), PCOL_ETOOBIG, "%s", err.message);
  cr_assert(strstr(err.message, "endless") && strstr(err.message, "1048576"), "%s", err.message);
  fclose(in);
  pcol_builder_free(b);
}
