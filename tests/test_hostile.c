/* test_hostile.c — hostile input, round two (issue 20): the export budget,
 * JSON that only jansson writes, damaged input named as such, format
 * detection, and the decompression cap. */
#include "testutil.h"
#include "keys.h"
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <sys/mman.h>
#include <zlib.h>

/* ---------------------------------------------------------- helpers */

/* A stream that counts what it is given and drops it. */
static ssize_t sink_write(void *c, const char *buf, size_t n) {
  (void)buf;
  *(uint64_t *)c += n;
  return (ssize_t)n;
}
static FILE *sink(uint64_t *count) {
  *count = 0;
  cookie_io_functions_t io = {NULL, sink_write, NULL, NULL};
  FILE *f = fopencookie(count, "w", io);
  cr_assert(f);
  return f;
}

#define S tu_cstr

static pcol_file *reopen(pcol_builder *b, int lz4, void **mem) {
  pcol_write_options wo = {.compress_lz4 = lz4};
  pcol_file *f = tu_reopen(b, &wo, mem);
  pcol_builder_free(b);
  return f;
}

/* One sample whose one location has `nlines` inline frames of a function
 * whose name is `name_len` bytes: its text is name_len x nlines bytes, from
 * a file of a few KB (LZ4). */
static pcol_file *inline_amplifier(size_t name_len, size_t nlines, void **mem) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src, fn, loc, st;
  cr_assert_eq(pcol_b_source(b, "pprof", "amp.pb.gz", PCOL_NA_I64, &src, &err), 0);
  char *name = malloc(name_len);
  cr_assert(name);
  memset(name, 'f', name_len);
  pcol_function_row fr = {0, 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_string(b, name, name_len, &fr.name, &err), 0);
  free(name);
  cr_assert_eq(pcol_b_function(b, &fr, &fn, &err), 0);
  pcol_line_row *ln = calloc(nlines, sizeof *ln);
  cr_assert(ln);
  for (size_t i = 0; i < nlines; i++) ln[i] = (pcol_line_row){fn, (int64_t)i + 1, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0x1000, 0, ln, nlines, &loc, &err), 0);
  free(ln);
  cr_assert_eq(pcol_b_stack(b, &loc, 1, &st, &err), 0);
  pcol_sample_row sr = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, st, 0};
  cr_assert_eq(pcol_b_sample(b, &sr, NULL, 0, NULL, &err), 0);
  return reopen(b, 1, mem);
}

static char *collapsed_of(pcol_file *f);

static void assert_budget_message(const pcol_error *err) {
  cr_assert(strstr(err->message, "output budget"), "message: %s", err->message);
  cr_assert(strstr(err->message, "--max-output"), "message: %s", err->message);
}

/* ------------------------------------------------------ export budget */

/* A refusal past the output budget has a status of its own, not the
 * ETOOBIG of other limits: the CLI maps it to exit 3 without reading the
 * message, the bindings name it through pcol_strerror. */
Test(budget, a_status_of_its_own) {
  pcol_error err = {0};
  cr_assert_neq(PCOL_EBUDGET, PCOL_ETOOBIG);
  cr_assert_eq(pcol_output_budget_error(&err, "x", "the output would be larger than", 10, 0, 1), PCOL_EBUDGET);
  cr_assert_eq(err.code, PCOL_EBUDGET);
  assert_budget_message(&err);
  cr_assert_str_eq(pcol_strerror(PCOL_EBUDGET), "output budget exceeded");
}

/* 256 KiB x 1024 inline frames: 256 MiB of collapsed text from a file of a
 * few KB.  The default budget is 32 MiB for such a file. */
Test(budget, collapsed_inline_amplification_is_refused) {
  void *mem;
  pcol_file *f = inline_amplifier(256 << 10, 1024, &mem);
  pcol_header_info h;
  pcol_file_header(f, &h);
  cr_assert_lt(h.file_size, 1 << 20, "the amplifier is small: %llu bytes", (unsigned long long)h.file_size);
  uint64_t n;
  FILE *o = sink(&n);
  pcol_error err = {0};
  int rc = pcol_export_collapsed(f, NULL, NULL, o, &err);
  fclose(o);
  cr_assert_eq(rc, PCOL_EBUDGET, "rc %d: %s", rc, err.message);
  assert_budget_message(&err);
  cr_assert_leq(n, PCOL_EXPORT_BUDGET_MIN, "wrote %llu bytes past the budget", (unsigned long long)n);
  pcol_close(f);
  free(mem);
}

/* Rprof renders a sample's line whole: refused before it is rendered. */
Test(budget, rprof_inline_amplification_is_refused_before_rendering) {
  void *mem;
  pcol_file *f = inline_amplifier(256 << 10, 1024, &mem);
  uint64_t n;
  FILE *o = sink(&n);
  pcol_error err = {0};
  int rc = pcol_export_rprof(f, NULL, o, &err);
  fclose(o);
  cr_assert_eq(rc, PCOL_EBUDGET, "rc %d: %s", rc, err.message);
  assert_budget_message(&err);
  cr_assert_lt(n, 1024, "only the header may have been written, not %llu bytes", (unsigned long long)n);
  pcol_close(f);
  free(mem);
}

/* Perun builds a JSON trace per event: its size is counted as it grows. */
Test(budget, perun_inline_amplification_is_refused) {
  void *mem;
  pcol_file *f = inline_amplifier(256 << 10, 1024, &mem);
  uint64_t n;
  FILE *o = sink(&n);
  pcol_error err = {0};
  int rc = pcol_export_perun(f, NULL, o, &err);
  fclose(o);
  cr_assert_eq(rc, PCOL_EBUDGET, "rc %d: %s", rc, err.message);
  assert_budget_message(&err);
  pcol_close(f);
  free(mem);
}

/* Speedscope and pprof name a function once: the same file is no problem. */
Test(budget, speedscope_and_pprof_do_not_amplify_inline_frames) {
  void *mem;
  pcol_file *f = inline_amplifier(256 << 10, 1024, &mem);
  uint64_t n;
  pcol_error err = {0};
  FILE *o = sink(&n);
  cr_assert_eq(pcol_export_speedscope(f, NULL, o, &err), 0, "%s", err.message);
  fclose(o);
  cr_assert_lt(n, 1 << 20);
  o = sink(&n);
  cr_assert_eq(pcol_export_pprof(f, NULL, o, 0, &err), 0, "%s", err.message);
  fclose(o);
  cr_assert_lt(n, 1 << 20);
  pcol_close(f);
  free(mem);
}

/* Samples x depth: 20,000 samples of one 4,000-deep stack are 80 M frames
 * (160 MB of speedscope frame lists, 640 MB of pprof location ids) from a
 * file of a few hundred KB.  (Rprof gets 4 KiB more per line of weight and
 * refuses past 149 MB here: the inline test above covers it faster.) */
Test(budget, samples_times_depth_is_refused) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src, fn, loc, st = 0;
  cr_assert_eq(pcol_b_source(b, "pprof", "deep", PCOL_NA_I64, &src, &err), 0);
  pcol_function_row fr = {S(b, "f"), 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_function(b, &fr, &fn, &err), 0);
  pcol_line_row ln = {fn, 1, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0x10, 0, &ln, 1, &loc, &err), 0);
  for (int i = 0; i < 4000; i++) cr_assert_eq(pcol_b_stack_node(b, st, loc, &st, &err), 0);
  /* two stacks in turn: speedscope writes a run of equal stacks once, so
   * equal consecutive samples would not reach the budget (issue 44) */
  uint32_t st2;
  cr_assert_eq(pcol_b_stack_node(b, st, loc, &st2, &err), 0);
  pcol_sample_row sr = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, st, 0};
  for (int i = 0; i < 20000; i++) {
    sr.stack_id = i % 2 ? st2 : st;
    cr_assert_eq(pcol_b_sample(b, &sr, NULL, 0, NULL, &err), 0);
  }
  void *mem;
  pcol_file *f = reopen(b, 1, &mem);
  /* speedscope writes every sample's 4000 frames as text: refused at B */
  uint64_t n;
  FILE *o = sink(&n);
  int rc = pcol_export(f, PCOL_FMT_SPEEDSCOPE, NULL, o, NULL, &err);
  fclose(o);
  cr_assert_eq(rc, PCOL_EBUDGET, "speedscope: rc %d (%s)", rc, err.message);
  assert_budget_message(&err);
  cr_assert_leq(n, PCOL_EXPORT_BUDGET_MIN, "speedscope wrote %llu bytes", (unsigned long long)n);
  /* pprof streams each Sample into gzip, holding none: its 80 MB of
   * location ids compress to far less than B, so it is written in full */
  o = sink(&n);
  rc = pcol_export(f, PCOL_FMT_PPROF, NULL, o, NULL, &err);
  fclose(o);
  cr_assert_eq(rc, PCOL_OK, "pprof: rc %d (%s)", rc, err.message);
  cr_assert(n > 0 && n <= PCOL_EXPORT_BUDGET_MIN, "pprof wrote %llu bytes", (unsigned long long)n);
  /* two distinct stacks: collapsed writes each once */
  char *out = collapsed_of(f);
  cr_assert_eq(strlen(out), 4000 * 2 - 1 + 4001 * 2 - 1 + 2 * strlen(" 10000\n"));
  free(out);
  pcol_close(f);
  free(mem);
}

static pcol_file *collapsed_file(const char *text, void **mem) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  FILE *in = fmemopen((void *)text, strlen(text), "r");
  cr_assert_eq(pcol_import_collapsed(b, in, "t.folded", NULL, &err), 0, "%s", err.message);
  fclose(in);
  return reopen(b, 0, mem);
}

/* The budget counts bytes: an export of N bytes passes a budget of N and is
 * refused by N - 1, for every format, and never writes past the budget.
 * (A long frame name makes the output much larger than the tables the
 * exporter keeps, which the budget counts too.) */
Test(budget, every_exporter_counts_the_bytes_it_writes) {
  void *mem;
  size_t nlong = 100000;
  char *text = malloc(nlong + 64);
  cr_assert(text);
  strcpy(text, "main;");
  memset(text + 5, 'n', nlong);
  strcpy(text + 5 + nlong, " 3\nmain;c 2\nmain 1\n");
  pcol_file *f = collapsed_file(text, &mem);
  free(text);
  const pcol_format fmts[] = {PCOL_FMT_RPROF, PCOL_FMT_PPROF, PCOL_FMT_PERUN, PCOL_FMT_COLLAPSED,
                              PCOL_FMT_SPEEDSCOPE};
  for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
    const char *name = pcol_format_name(fmts[i]);
    pcol_error err = {0};
    char *full = NULL, *part = NULL;
    size_t nfull, npart;
    FILE *o = open_memstream(&full, &nfull);
    cr_assert_eq(pcol_export(f, fmts[i], NULL, o, NULL, &err), 0, "%s: %s", name, err.message);
    fclose(o);
    cr_assert_gt(nfull, 1, "%s", name);
    pcol_export_options eo = {.max_output_bytes = nfull};
    o = open_memstream(&part, &npart);
    cr_assert_eq(pcol_export(f, fmts[i], NULL, o, &eo, &err), 0, "%s at exactly its size: %s", name,
                 err.message);
    fclose(o);
    cr_assert(npart == nfull && !memcmp(full, part, nfull), "%s: the budget changed the output", name);
    free(part);
    eo.max_output_bytes = nfull - 1;
    o = open_memstream(&part, &npart);
    int rc = pcol_export(f, fmts[i], NULL, o, &eo, &err);
    fclose(o);
    cr_assert_eq(rc, PCOL_EBUDGET, "%s one byte short: rc %d (%s)", name, rc, err.message);
    assert_budget_message(&err);
    cr_assert_leq(npart, nfull - 1, "%s wrote %zu bytes past a budget of %zu", name, npart, nfull - 1);
    free(part);
    free(full);
  }
  pcol_close(f);
  free(mem);
}

/* Rprof writes a line per unit of weight, but a count that states no
 * period is a claim of the input, not a measured time: 10 M lines (90 MB)
 * from a 12-byte collapsed file get no allowance past the default budget
 * (before: 4 KiB per line of weight, so 268435456 claimed samples wrote
 * 1.3 GB; review 19 F1), and are refused before a byte is written, the
 * message naming the lines; an explicit budget that holds them writes them. */
Test(budget, rprof_lines_of_claimed_counts_are_held_to_the_budget) {
  void *mem;
  pcol_file *f = collapsed_file("a;b 10000000\n", &mem);
  uint64_t n;
  pcol_error err = {0};
  FILE *o = sink(&n);
  int rc = pcol_export_rprof(f, NULL, o, &err);
  fclose(o);
  cr_assert_eq(rc, PCOL_EBUDGET, "%s", err.message);
  cr_assert_lt(n, 100, "refused before the copies, not after %llu bytes", (unsigned long long)n);
  cr_assert(strstr(err.message, "make 10000000 lines"), "%s", err.message);
  pcol_export_options eo = {.max_output_bytes = 128 << 20};
  o = sink(&n);
  rc = pcol_export(f, PCOL_FMT_RPROF, NULL, o, &eo, &err);
  fclose(o);
  cr_assert_eq(rc, 0, "%s", err.message);
  cr_assert_gt(n, PCOL_EXPORT_BUDGET_MIN, "the output is over the floor: %llu", (unsigned long long)n);
  pcol_close(f);
  free(mem);
}

/* The collapsed exporter no longer compares rendered text: lines that read
 * the same must still be one line. */
static char *collapsed_of(pcol_file *f) {
  char *out = NULL;
  size_t n;
  pcol_error err = {0};
  FILE *o = open_memstream(&out, &n);
  cr_assert_eq(pcol_export_collapsed(f, NULL, NULL, o, &err), 0, "%s", err.message);
  fclose(o);
  return out;
}

Test(budget, collapsed_lines_that_read_the_same_are_one) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src, fsemi, fus, fempty, fmain, l[6], st;
  cr_assert_eq(pcol_b_source(b, "pprof", "x", PCOL_NA_I64, &src, &err), 0);
  pcol_function_row fr = {S(b, "a;b"), 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_function(b, &fr, &fsemi, &err), 0);
  fr.name = S(b, "a_b");
  cr_assert_eq(pcol_b_function(b, &fr, &fus, &err), 0);
  fr.name = S(b, "");
  cr_assert_eq(pcol_b_function(b, &fr, &fempty, &err), 0);
  fr.name = S(b, "main");
  cr_assert_eq(pcol_b_function(b, &fr, &fmain, &err), 0);
  pcol_line_row ln = {fsemi, 1, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0x10, 0, &ln, 1, &l[0], &err), 0);
  ln.function_id = fus;
  cr_assert_eq(pcol_b_location(b, 0, 0x20, 0, &ln, 1, &l[1], &err), 0);
  ln.function_id = fempty;
  cr_assert_eq(pcol_b_location(b, 0, 0x30, 0, &ln, 1, &l[2], &err), 0);
  ln.function_id = fmain;
  cr_assert_eq(pcol_b_location(b, 0, 0x40, 0, &ln, 1, &l[3], &err), 0);
  cr_assert_eq(pcol_b_location(b, 0, 0x50, 0, &ln, 1, &l[4], &err), 0); /* main again, another address */
  pcol_sample_row sr = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
  uint32_t stacks[5][2] = {{l[0], l[3]}, {l[1], l[4]}, {l[2], 0}, {0, 0}, {l[2], l[3]}};
  size_t depth[5] = {2, 2, 1, 0, 2};
  for (int i = 0; i < 5; i++) {
    if (depth[i]) cr_assert_eq(pcol_b_stack(b, stacks[i], depth[i], &st, &err), 0);
    else st = 0;
    sr.stack_id = st;
    sr.weight = i + 1;
    cr_assert_eq(pcol_b_sample(b, &sr, NULL, 0, NULL, &err), 0);
  }
  void *mem;
  pcol_file *f = reopen(b, 0, &mem);
  char *out = collapsed_of(f);
  /* "a;b" is sanitized to "a_b"; the empty stack and a frame named "" both
   * read "", while "main;" (main calling "") is a line of its own */
  cr_assert_str_eq(out, "main;a_b 3\n 7\nmain; 5\n");
  free(out);
  pcol_close(f);
  free(mem);
}

/* -------------------------------------------- JSON only jansson writes */

typedef struct perun_src {
  pcol_builder *b;
  uint32_t src;
} perun_src;

static perun_src perun_source(const char *layout, const char *keys) {
  perun_src p;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&p.b, &err), 0);
  cr_assert_eq(pcol_b_source(p.b, PCOL_SRC_PERUN, "x.perf", PCOL_NA_I64, &p.src, &err), 0);
  cr_assert_eq(pcol_b_meta_str(p.b, p.src, PERUN_META_LAYOUT, layout, &err), 0);
  cr_assert_eq(pcol_b_meta_str(p.b, p.src, PERUN_META_KEYS, keys, &err), 0);
  return p;
}

static int perun_export_text(perun_src p, char **out, pcol_error *err) {
  void *mem;
  pcol_file *f = reopen(p.b, 0, &mem);
  size_t n;
  FILE *o = open_memstream(out, &n);
  int rc = pcol_export_perun(f, NULL, o, err);
  fclose(o);
  pcol_close(f);
  free(mem);
  return rc;
}

/* A kept top-level value is meta text: pasted, it could add keys the source
 * never had (the file passes validate --full). */
Test(perun_json, kept_meta_text_is_not_pasted) {
  perun_src p = perun_source("3", "[\"header\"]");
  cr_assert_eq(pcol_b_meta_str(p.b, p.src, "perun.header", "{\"type\": \"time\"}, \"evil\": {\"x\": 1}", NULL), 0);
  char *out = NULL;
  pcol_error err = {0};
  int rc = perun_export_text(p, &out, &err);
  cr_assert_eq(rc, PCOL_ECORRUPT, "rc %d, output %s", rc, out ? out : "");
  cr_assert(strstr(err.message, "perun.header"), "%s", err.message);
  free(out);
}

/* ... nor can the key list name a key twice (the importer refuses that). */
Test(perun_json, a_key_named_twice_is_damaged_input) {
  perun_src p = perun_source("3", "[\"header\", \"header\"]");
  cr_assert_eq(pcol_b_meta_str(p.b, p.src, "perun.header", "{}", NULL), 0);
  char *out = NULL;
  pcol_error err = {0};
  int rc = perun_export_text(p, &out, &err);
  cr_assert_eq(rc, PCOL_ECORRUPT, "rc %d, output %s", rc, out ? out : "");
  free(out);
}

Test(perun_json, kept_meta_is_written_back_by_jansson) {
  perun_src p = perun_source("3", "[\"header\"]");
  cr_assert_eq(pcol_b_meta_str(p.b, p.src, "perun.header", " {\"type\" : \"time\", \"units\": {}} ", NULL), 0);
  char *out = NULL;
  pcol_error err = {0};
  cr_assert_eq(perun_export_text(p, &out, &err), 0, "%s", err.message);
  json_error_t je;
  json_t *doc = json_loads(out, 0, &je);
  cr_assert(doc, "not JSON (%s): %s", je.text, out);
  cr_assert_eq(json_object_size(doc), 1);
  json_t *want = json_pack("{s:s,s:{}}", "type", "time", "units");
  cr_assert(json_equal(json_object_get(doc, "header"), want), "%s", out);
  cr_assert(strstr(out, "{\"type\":\"time\",\"units\":{}}"), "compact, as jansson writes: %s", out);
  json_decref(want);
  json_decref(doc);
  free(out);
}

/* A snapshot meta that is no snapshot is damaged input (exit 1), not "out
 * of memory" (exit 3). */
static int export_with_global(const char *global, char **out, pcol_error *err) {
  perun_src p = perun_source("1", "[\"global\"]");
  cr_assert_eq(pcol_b_meta_str(p.b, p.src, PERUN_META_GLOBAL, global, err), 0);
  pcol_sample_row sr = {p.src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
  cr_assert_eq(pcol_b_sample(p.b, &sr, NULL, 0, NULL, err), 0);
  return perun_export_text(p, out, err);
}

Test(perun_json, damaged_global_meta_is_damaged_input) {
  const char *bad[] = {"{\"time\": 1, \"resources\": 5}", "[1, 2]", "{\"resources\": [], \"x\": 1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *out = NULL;
    pcol_error err = {0};
    int rc = export_with_global(bad[i], &out, &err);
    cr_assert_eq(rc, PCOL_ECORRUPT, "%s: rc %d (%s)", bad[i], rc, err.message);
    cr_assert(strstr(err.message, PERUN_META_GLOBAL), "%s", err.message);
    free(out);
  }
  /* and a good one still works: the events go into its resources */
  char *out = NULL;
  pcol_error err = {0};
  cr_assert_eq(export_with_global("{\"time\": \"0.5\", \"resources\": []}", &out, &err), 0, "%s", err.message);
  json_t *doc = json_loads(out, 0, NULL);
  cr_assert(doc, "%s", out);
  cr_assert_eq(json_array_size(json_object_get(json_object_get(doc, "global"), "resources")), 1, "%s", out);
  json_decref(doc);
  free(out);
}

/* A label stored as JSON text that is not JSON: damaged, not out of memory. */
Test(perun_json, json_label_that_is_not_json_is_damaged_input) {
  perun_src p = perun_source("3", "[\"resources\"]");
  pcol_label_row lb[3] = {{S(p.b, PERUN_LABEL_TYPE_KEY), S(p.b, "t#0"), 0, 0},
                          {S(p.b, PERUN_LABEL_COLUMNS), S(p.b, "[\"x\"]"), 0, 0},
                          {S(p.b, "x"), S(p.b, "{not json"), 0, S(p.b, PERUN_UNIT_JSON)}};
  uint32_t ls;
  cr_assert_eq(pcol_b_labelset(p.b, lb, 3, &ls, NULL), 0);
  pcol_sample_row sr = {p.src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, ls};
  cr_assert_eq(pcol_b_sample(p.b, &sr, NULL, 0, NULL, NULL), 0);
  char *out = NULL;
  pcol_error err = {0};
  int rc = perun_export_text(p, &out, &err);
  cr_assert_eq(rc, PCOL_ECORRUPT, "rc %d (%s)", rc, err.message);
  free(out);
}

/* A model number JSON cannot hold is refused, not silently dropped; NaN is
 * an absent number (spec.md §5), as before. */
static int export_model(double x_end, char **out, pcol_error *err) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, err), 0);
  uint32_t src;
  cr_assert_eq(pcol_b_source(b, "collapsed", "m", PCOL_NA_I64, &src, err), 0);
  pcol_model_row m = {src, S(b, "f"), S(b, "linear"), S(b, "full"), 0, 0.5, 1.0, x_end};
  cr_assert_eq(pcol_b_model(b, &m, err), 0);
  perun_src p = {b, src};
  return perun_export_text(p, out, err);
}

Test(perun_json, infinite_model_number_is_refused) {
  char *out = NULL;
  pcol_error err = {0};
  int rc = export_model(INFINITY, &out, &err);
  cr_assert_eq(rc, PCOL_EUNSUPPORTED, "rc %d, output %s", rc, out ? out : "");
  cr_assert(strstr(err.message, "x_end"), "%s", err.message);
  free(out);
  out = NULL;
  cr_assert_eq(export_model(NAN, &out, &err), 0, "%s", err.message);
  json_t *doc = json_loads(out, 0, NULL);
  json_t *m = json_array_get(json_object_get(doc, "models"), 0);
  cr_assert(m && json_object_get(m, "x_start") && !json_object_get(m, "x_end"), "%s", out);
  json_decref(doc);
  free(out);
}

/* ------------------------------------------------------- detection */

Test(detect, negative_first_count_is_collapsed) {
  const char *t = "a;b -5\na;c 3\n";
  cr_assert_eq(pcol_detect_format(t, strlen(t)), PCOL_FMT_COLLAPSED);
  t = "a;b +5\n";
  cr_assert_eq(pcol_detect_format(t, strlen(t)), PCOL_FMT_COLLAPSED);
}

/* A first line longer than the 4 KB head: its first byte 'b' reads as a
 * protobuf tag (field 12, length-delimited), but text is not protobuf. */
Test(detect, first_line_longer_than_the_head_is_collapsed) {
  char head[4096];
  memcpy(head, "bar;", 4);
  memset(head + 4, 'x', sizeof head - 4);
  cr_assert_eq(pcol_detect_format(head, sizeof head), PCOL_FMT_COLLAPSED);
  /* the same through import: pack a 10 MB frame name */
  size_t n = 10u << 20;
  char *text = malloc(n + 32);
  cr_assert(text);
  memcpy(text, "bar;", 4);
  memset(text + 4, 'x', n);
  strcpy(text + 4 + n, " 3\nbar 1\n");
  char path[] = "/tmp/pcol-longline-XXXXXX";
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  FILE *w = fdopen(fd, "w");
  cr_assert_eq(fwrite(text, 1, strlen(text), w), strlen(text));
  fclose(w);
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  int rc = pcol_import_path(b, path, PCOL_FMT_UNKNOWN, NULL, &err);
  unlink(path);
  cr_assert_eq(rc, 0, "%s", err.message);
  void *mem;
  pcol_file *f = reopen(b, 0, &mem);
  char *out = collapsed_of(f);
  cr_assert_str_eq(out, text, "the long line comes back");
  free(out);
  free(text);
  pcol_close(f);
  free(mem);
}

Test(detect, text_without_a_line_end) {
  const char *t = "a;b 1";
  cr_assert_eq(pcol_detect_format(t, strlen(t)), PCOL_FMT_COLLAPSED, "a one-line file");
  t = "hello";
  cr_assert_eq(pcol_detect_format(t, strlen(t)), PCOL_FMT_UNKNOWN, "text is not protobuf");
}

/* A gzip head longer than zlib's 32-bit avail_in (a caller's whole mapped
 * file of 4 GiB and more): its first bytes are inflated all the same (the
 * length was cut to 32 bits, here 5 bytes, and the rest taken as read).
 * Only the first page of the 4 GiB mapping is touched. */
Test(detect, gzip_head_past_4_gib) {
  const char *t = "a;b 1\na;c 2\n";
  uint8_t z[128];
  z_stream zs = {0};
  cr_assert_eq(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  zs.next_in = (Bytef *)(uintptr_t)t, zs.avail_in = (uInt)strlen(t);
  zs.next_out = z, zs.avail_out = sizeof z;
  cr_assert_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
  size_t zn = sizeof z - zs.avail_out;
  deflateEnd(&zs);
  size_t len = ((size_t)1 << 32) + 5;
  uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  cr_assert(p != MAP_FAILED);
  memcpy(p, z, zn);
  cr_assert_eq(pcol_detect_format(p, zn), PCOL_FMT_COLLAPSED);
  cr_assert_eq(pcol_detect_format(p, len), PCOL_FMT_COLLAPSED);
  munmap(p, len);
}

/* Every real pprof file is still pprof. */
static int detect_dir(const char *sub) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", testdata_dir(), sub);
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strstr(e->d_name, ".pb") && !strstr(e->d_name, ".pprof") && !strstr(e->d_name, ".prof")) continue;
    if (strstr(e->d_name, ".txt") || strstr(e->d_name, "ODD-")) continue;
    char path[4096 + 256];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    char head[4096];
    size_t k = fread(head, 1, sizeof head, f);
    fclose(f);
    cr_assert_eq(pcol_detect_format(head, k), PCOL_FMT_PPROF, "%s", path);
    n++;
  }
  closedir(d);
  return n;
}

Test(detect, real_pprof_files_are_pprof) {
  SKIP_WITHOUT_TESTDATA();
  int n = detect_dir("pprof") + detect_dir("pprof-from-r") + detect_dir("ext/pprof") +
          detect_dir("ext/legacy-proto");
  cr_assert_gt(n, 40, "found %d pprof files", n);
}

/* ------------------------------------------------ decompression cap */

/* gzip of n zero bytes (a bomb: about 1000 to 1) */
static unsigned char *gzip_zeros(size_t n, size_t *len) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  cr_assert_eq(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  size_t cap = n / 500 + 1024;
  unsigned char *out = malloc(cap), *zero = calloc(1, 1 << 20);
  cr_assert(out && zero);
  zs.next_out = out;
  zs.avail_out = (uInt)cap;
  for (size_t done = 0; done < n;) {
    size_t k = n - done < (1u << 20) ? n - done : (1u << 20);
    zs.next_in = zero;
    zs.avail_in = (uInt)k;
    done += k;
    cr_assert_eq(deflate(&zs, done == n ? Z_FINISH : Z_NO_FLUSH), done == n ? Z_STREAM_END : Z_OK);
  }
  *len = cap - zs.avail_out;
  deflateEnd(&zs);
  free(zero);
  return out;
}

static int import_gz(const unsigned char *gz, size_t len, const pcol_import_options *o, pcol_error *err) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, err), 0);
  FILE *in = fmemopen((void *)gz, len, "rb");
  int rc = pcol_import_pprof(b, in, "bomb.pb.gz", o, err);
  fclose(in);
  pcol_builder_free(b);
  return rc;
}

/* 80 MiB from 80 KB: the default cap (64 x the compressed size, at least
 * 64 MiB) stops it while inflating, whatever it would have been. */
Test(inflate, gzip_bomb_stops_at_the_default_cap) {
  size_t len;
  unsigned char *gz = gzip_zeros(80u << 20, &len);
  cr_assert_lt(len, 1u << 20);
  pcol_error err = {0};
  int rc = import_gz(gz, len, NULL, &err);
  cr_assert_eq(rc, PCOL_ETOOBIG, "rc %d (%s)", rc, err.message);
  cr_assert(strstr(err.message, "bomb.pb.gz") && strstr(err.message, "--max-input"), "%s", err.message);
  /* a raised cap lets it inflate: then it is no profile */
  pcol_import_options o = {.max_input_bytes = 100u << 20};
  rc = import_gz(gz, len, &o, &err);
  cr_assert_eq(rc, PCOL_ECORRUPT, "rc %d (%s)", rc, err.message);
  free(gz);
}

/* ------------------------------------ the top level, decoded by hand */

typedef struct pb {
  unsigned char d[512];
  size_t n;
} pb;
static void pb_varint(pb *b, uint64_t v) {
  do {
    unsigned char c = v & 0x7f;
    v >>= 7;
    b->d[b->n++] = (unsigned char)(c | (v ? 0x80 : 0));
  } while (v);
}
static void pb_int(pb *b, unsigned field, uint64_t v) {
  pb_varint(b, field << 3);
  pb_varint(b, v);
}
static void pb_bytes(pb *b, unsigned field, const void *p, size_t n) {
  pb_varint(b, field << 3 | 2);
  pb_varint(b, n);
  memcpy(b->d + b->n, p, n);
  b->n += n;
}
static void pb_msg(pb *b, unsigned field, const pb *m) { pb_bytes(b, field, m->d, m->n); }

/* Strings interleaved with the other fields, period_type given twice (the
 * last one wins, in protobuf-c and in Go's pprof), comments packed and not,
 * an unknown field: what protobuf-c's unpack made of them, the decoder makes
 * too. */
Test(inflate, top_level_fields_decode_as_protobuf_says) {
  pb p = {{0}, 0}, m = {{0}, 0}, m2 = {{0}, 0};
  pb_bytes(&p, 6, "", 0);
  pb_int(&m, 1, 1), pb_int(&m, 2, 2);
  pb_msg(&p, 1, &m);                   /* sample_type samples/count */
  pb_bytes(&p, 6, "samples", 7);
  m.n = 0, pb_int(&m, 1, 1), pb_int(&m, 2, 2);
  pb_msg(&p, 11, &m);                  /* period_type samples/count, then */
  pb_bytes(&p, 6, "count", 5);
  m.n = 0, pb_int(&m, 1, 3), pb_int(&m, 2, 4);
  pb_msg(&p, 11, &m);                  /* cpu/nanoseconds */
  pb_bytes(&p, 6, "cpu", 3);
  m.n = 0;
  pb_bytes(&m, 1, "\x01", 1);          /* location_id [1], packed */
  pb_bytes(&m, 2, "\x05", 1);          /* value [5] */
  pb_msg(&p, 2, &m);
  pb_bytes(&p, 6, "nanoseconds", 11);
  m.n = 0, m2.n = 0;
  pb_int(&m2, 1, 1), pb_int(&m2, 2, 9);
  pb_int(&m, 1, 1), pb_msg(&m, 4, &m2); /* location 1: function 1, line 9 */
  pb_msg(&p, 4, &m);
  m.n = 0, pb_int(&m, 1, 1), pb_int(&m, 2, 5);
  pb_msg(&p, 5, &m);                   /* function 1 "main" */
  pb_bytes(&p, 6, "main", 4);
  pb_bytes(&p, 6, "c1", 2);
  pb_bytes(&p, 6, "c2", 2);
  pb_bytes(&p, 6, "c3", 2);
  pb_int(&p, 13, 6);                   /* comment "c1" */
  pb_bytes(&p, 13, "\x07\x08", 2);     /* comments "c2", "c3", packed */
  pb_int(&p, 12, 10000000);            /* period */
  pb_int(&p, 99, 1);                   /* unknown: skipped */
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  FILE *in = fmemopen(p.d, p.n, "rb");
  cr_assert_eq(pcol_import_pprof(b, in, "t.pb", NULL, &err), 0, "%s", err.message);
  fclose(in);
  void *mem;
  pcol_file *f = reopen(b, 0, &mem);
  pcol_str v;
  cr_assert_eq(pcol_meta_get(f, 1, PPROF_META_PERIOD_TYPE_TYPE, &v, &err), 0, "%s", err.message);
  cr_assert(v.len == 3 && !memcmp(v.ptr, "cpu", 3));
  cr_assert_eq(pcol_meta_get(f, 1, PPROF_META_PERIOD_TYPE_UNIT, &v, &err), 0, "%s", err.message);
  cr_assert(v.len == 11 && !memcmp(v.ptr, "nanoseconds", 11));
  char *out = NULL;
  size_t n;
  FILE *o = open_memstream(&out, &n);
  cr_assert_eq(pcol_export_pprof(f, NULL, o, 0, &err), 0, "%s", err.message);
  fclose(o);
  /* the comments come back in order, and the function's name */
  char *c1 = memmem(out, n, "c1", 2), *c2 = memmem(out, n, "c2", 2), *c3 = memmem(out, n, "c3", 2);
  cr_assert(c1 && c2 && c3 && c1 < c2 && c2 < c3, "comments lost or reordered");
  cr_assert(memmem(out, n, "main", 4));
  free(out);
  pcol_close(f);
  free(mem);
}
