/* test_rprof.c — Rprof import/export on real R output and synthetic fixtures.
 *
 * Expected sample and frame counts are computed here from the file text by a
 * method independent of the importer's scanner (a quote-aware split on
 * spaces), and cross-checked against the counts in SOURCES.md. */
#include "testutil.h"
#include <dirent.h>
#include <stdio.h>

#define FIXTURES "tests/fixtures/rprof"

/* ------------------------------------------------------------ helpers */

static int starts(const char *p, size_t n, const char *s) {
  return n >= strlen(s) && memcmp(p, s, strlen(s)) == 0;
}

/* Independent count: sample lines are the lines that are neither a header
 * nor a #File line.  Frames: after a memory prefix, split on single spaces,
 * re-joining a token that starts with '"' until one ends with '"' (names
 * with spaces); a name is a frame, and so is a ref not followed by a name.
 * A last token without its trailing space is kept only if it is a whole
 * name ("..."), as the importer keeps the complete frames of a cut line. */
static void count_expected(const char *buf, size_t len, uint64_t *samples, uint64_t *frames) {
  *samples = *frames = 0;
  size_t i = 0;
  while (i < len) {
    size_t e = i;
    while (e < len && buf[e] != '\n') e++;
    size_t n = e - i;
    const char *p = buf + i;
    if (n && p[n - 1] == '\r') n--;
    i = e + 1;
    if (starts(p, n, "sample.interval=") || starts(p, n, "memory profiling: ") ||
        starts(p, n, "GC profiling: ") || starts(p, n, "line profiling: ") ||
        starts(p, n, "#File "))
      continue;
    (*samples)++;
    size_t k = 0;
    if (n && p[0] == ':') {
      int colons = 0;
      while (k < n && colons < 5) colons += p[k++] == ':';
    }
    int complete_end = n > 0 && p[n - 1] == ' ';
    int prev_ref = 0;
    while (k < n) {
      size_t t = k;
      while (t < n && p[t] != ' ') t++;
      if (p[k] == '"') /* join the pieces of a name with spaces */
        while (!(t - k >= 2 && p[t - 1] == '"') && t < n) {
          t++;
          while (t < n && p[t] != ' ') t++;
        }
      int last = t >= n;
      int is_name = p[k] == '"';
      if (last && !complete_end && !(is_name && t - k >= 2 && p[t - 1] == '"')) {
        /* cut token: dropped, but a ref before it is still a frame */
        break;
      }
      if (is_name) {
        (*frames)++;
        prev_ref = 0;
      } else {
        if (prev_ref) (*frames)++;
        prev_ref = 1;
      }
      k = t + 1;
    }
    if (prev_ref) (*frames)++;
  }
}

typedef struct walk_ctx {
  uint64_t n;
} walk_ctx;
static int count_fn(void *ctx, uint32_t depth, uint32_t loc) {
  ((walk_ctx *)ctx)->n++;
  return 0;
}

static uint64_t count_frames(pcol_file *f) {
  pcol_view st;
  pcol_error err = {0};
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, &err), 0);
  walk_ctx c = {0};
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_SAMPLES); i++)
    cr_assert_eq(pcol_stack_walk(f, pcol_view_u32(&st, i), count_fn, &c, &err), 0);
  return c.n;
}

static char *export_mem(pcol_file *f, const pcol_select *sel, size_t *len) {
  char *out = NULL;
  FILE *m = open_memstream(&out, len);
  cr_assert(m);
  pcol_error err = {0};
  int rc = pcol_export_rprof(f, sel, m, &err);
  fclose(m);
  cr_assert_eq(rc, 0, "export: %s", err.message);
  return out;
}

/* Imports a path, reopens, validates. */
static pcol_file *pack_path(const char *path, void **mem) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  cr_assert_eq(pcol_import_path(b, path, PCOL_FMT_UNKNOWN, NULL, &err), 0, "%s: %s", path,
               err.message);
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_builder_free(b);
  return f;
}

/* Imports bytes from memory (through a temporary file). */
static int import_bytes(const char *data, size_t n, pcol_builder *b, pcol_error *err) {
  FILE *t = tmpfile();
  cr_assert(t);
  if (n) cr_assert_eq(fwrite(data, 1, n, t), n);
  rewind(t);
  int rc = pcol_import_rprof(b, t, "mem.out", NULL, err);
  fclose(t);
  return rc;
}

static void check_file(const char *path, int64_t want_samples, int64_t want_frames) {
  size_t len;
  char *bytes = tu_slurp(path, &len);
  uint64_t es, ef;
  count_expected(bytes, len, &es, &ef);
  if (want_samples >= 0) cr_assert_eq(es, (uint64_t)want_samples, "%s: counted %llu samples",
                                      path, (unsigned long long)es);
  if (want_frames >= 0) ef = (uint64_t)want_frames;
  void *mem;
  pcol_file *f = pack_path(path, &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), es, "%s: %llu samples, expected %llu", path,
               (unsigned long long)pcol_rows(f, PCOL_T_SAMPLES), (unsigned long long)es);
  uint64_t fr = count_frames(f);
  cr_assert_eq(fr, ef, "%s: %llu sample_locations, expected %llu", path,
               (unsigned long long)fr, (unsigned long long)ef);
  size_t olen;
  char *out = export_mem(f, NULL, &olen);
  cr_assert_eq(olen, len, "%s: exported %zu bytes, input has %zu", path, olen, len);
  cr_assert(memcmp(out, bytes, len) == 0, "%s: export differs from the input", path);
  free(out);
  pcol_close(f);
  free(mem);
  free(bytes);
}

/* Sample counts from ../shared/testdata/SOURCES.md. */
static const struct {
  const char *name;
  int64_t samples;
} known[] = {
    {"r-prof-profile__1.out", 22},          {"r-prof-profile__incomplete.out", 18},
    {"r-prof-profile__memory.out", 13},     {"profvis__test-parse.prof", 6},
    {"proftools__Rprof-dg.out", 194},       {"proftools__Rprof-rec.out", 399},
    {"proftools__Rprof-rec0.out", 431},     {"proftools__Rprof-rec1.out", 348},
    {"proftools__glmEx.out", 25},           {"proftools__Rprof-lmfit-new.out", 908},
    {"aprof__foo.prof", 9},                 {"aprof__lotka1_naiveL.out", 1200},
    {"aprof__Rprof-truncated.out", 204},    {"diversityForest__Rprof.out", 12},
    {"outlierMBC__Rprof.out", 139},         {"tidywater__Rprof.out", 14},
};

/* ------------------------------------------------------------- tests */

Test(rprof, every_testdata_file_packs_and_round_trips) {
  SKIP_WITHOUT_TESTDATA();
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/rprof", testdata_dir());
  DIR *d = opendir(dir);
  cr_assert(d, "cannot open %s", dir);
  struct dirent *e;
  int nfiles = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    int64_t want = -1;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
      if (!strcmp(known[i].name, e->d_name)) want = known[i].samples;
    check_file(path, want, -1);
    nfiles++;
  }
  closedir(d);
  cr_assert_geq(nfiles, 16, "only %d files in %s", nfiles, dir);
}

Test(rprof, every_fixture_packs_and_round_trips) {
  DIR *d = opendir(FIXTURES);
  cr_assert(d, "run from the repository root");
  struct dirent *e;
  int n = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, FIXTURES "/%s", e->d_name);
    /* "say "hi" there" defeats the simple independent splitter: 19 frames
     * counted by hand */
    check_file(path, -1, strcmp(e->d_name, "names.out") ? -1 : 19);
    n++;
  }
  closedir(d);
  cr_assert_geq(n, 7);
}

static pcol_str meta(pcol_file *f, const char *key) {
  pcol_str s = {NULL, 0};
  pcol_error err = {0};
  cr_assert_eq(pcol_meta_get(f, 1, key, &s, &err), PCOL_OK);
  return s;
}
static int meta_is(pcol_file *f, const char *key, const char *v) {
  pcol_str s = meta(f, key);
  return s.ptr && s.len == strlen(v) && !memcmp(s.ptr, v, s.len);
}
static int str_is(pcol_file *f, uint32_t id, const char *v) {
  pcol_str s;
  pcol_error err = {0};
  cr_assert_eq(pcol_string(f, id, &s, &err), 0);
  if (!v) return s.ptr == NULL;
  return s.ptr && s.len == strlen(v) && !memcmp(s.ptr, v, s.len);
}

/* functions.name / filename of the frame at `depth` of sample `row` */
typedef struct frame_q {
  uint32_t want_depth, loc;
} frame_q;
static int find_depth(void *ctx, uint32_t depth, uint32_t loc) {
  frame_q *q = ctx;
  if (depth == q->want_depth) {
    q->loc = loc;
    return 1;
  }
  return 0;
}
static void frame_at(pcol_file *f, uint64_t row, uint32_t depth, uint32_t *fn, int64_t *line) {
  pcol_view st, off, lf, ll;
  pcol_error err = {0};
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &off, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &lf, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &ll, &err), 0);
  frame_q q = {depth, 0};
  cr_assert_eq(pcol_stack_walk(f, pcol_view_u32(&st, row), find_depth, &q, &err), PCOL_OK);
  cr_assert_neq(q.loc, 0, "no frame at depth %u of sample %llu", depth,
                (unsigned long long)row + 1);
  uint64_t a = pcol_view_u64(&off, q.loc - 1);
  cr_assert_eq(pcol_view_u64(&off, q.loc) - a, 1, "one line per Rprof location");
  *fn = pcol_view_u32(&lf, a);
  *line = pcol_view_i64(&ll, a);
}
static void expect_frame(pcol_file *f, uint64_t row, uint32_t depth, const char *name,
                         const char *file, int64_t line) {
  pcol_view fname, ffile;
  pcol_error err = {0};
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &fname, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME, &ffile, &err), 0);
  uint32_t fn;
  int64_t l;
  frame_at(f, row, depth, &fn, &l);
  cr_assert(str_is(f, pcol_view_u32(&fname, fn - 1), name), "sample %llu depth %u: name",
            (unsigned long long)row + 1, depth);
  cr_assert(str_is(f, pcol_view_u32(&ffile, fn - 1), file), "sample %llu depth %u: file",
            (unsigned long long)row + 1, depth);
  cr_assert_eq(l, line, "sample %llu depth %u: line %lld", (unsigned long long)row + 1, depth,
               (long long)l);
}

Test(rprof, append_segments_keep_their_intervals_and_file_numbers) {
  void *mem;
  pcol_file *f = pack_path(FIXTURES "/append.out", &mem);
  pcol_view t;
  pcol_error err = {0};
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &t, &err), 0);
  /* 2 x 10 ms, 3 x 20 ms, then 10 ms again */
  const int64_t want[] = {0, 10, 20, 40, 60, 80, 90, 100};
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 8);
  for (int i = 0; i < 8; i++) cr_assert_eq(pcol_view_i64(&t, i), want[i] * 1000000, "sample %d", i + 1);
  cr_assert(meta_is(f, "rprof.interval_us", "10000"));
  cr_assert(meta_is(f, "rprof.segments", "3"));
  cr_assert(meta_is(f, "rprof.flags", "line"));
  cr_assert_eq(pcol_rows(f, PCOL_T_TEXT_LINES), 6);
  /* segment 3: "#File 1" is b.R and "#File 2" is a.R again */
  expect_frame(f, 5, 1, "other", "b.R", 9);
  expect_frame(f, 7, 1, "busy", "a.R", 2);
  expect_frame(f, 7, 2, "other", "b.R", 9);
  expect_frame(f, 0, 1, "busy", "a.R", 2);
  expect_frame(f, 0, 2, "outer", "a.R", 5);
  /* segment 2 has no refs: same names, no file */
  expect_frame(f, 2, 1, "busy", NULL, PCOL_NA_I64);
  /* the memory-only line is an empty stack with its values */
  pcol_view st;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, &err), 0);
  cr_assert_eq(pcol_view_u32(&st, 6), 0);
  pcol_close(f);
  free(mem);
}

Test(rprof, profvis_fixture_semantics) {
  SKIP_WITHOUT_TESTDATA();
  char path[4096];
  snprintf(path, sizeof path, "%s/rprof/profvis__test-parse.prof", testdata_dir());
  void *mem;
  pcol_file *f = pack_path(path, &mem);
  /* line 2: :2097152:...:"test space" "test" 1#3 (a trailing ref in <expr>) */
  size_t len;
  char *bytes = tu_slurp(path, &len);
  cr_assert(strstr(bytes, "\"test space\""));
  free(bytes);
  pcol_view fname;
  pcol_error err = {0};
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &fname, &err), 0);
  int has_space = 0, has_gc = 0, has_na = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_FUNCTIONS); i++) {
    has_space |= str_is(f, pcol_view_u32(&fname, i), "test space");
    has_gc |= str_is(f, pcol_view_u32(&fname, i), "<GC>");
    has_na |= pcol_view_u32(&fname, i) == 0;
  }
  cr_assert(has_space && has_gc && has_na, "names with spaces, <GC>, trailing refs");
  /* the memory fields: small and large in cells of 8 bytes */
  pcol_view vo, vt, vv;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &vo, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &vt, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &vv, &err), 0);
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_SAMPLES); i++)
    cr_assert_eq(pcol_view_u64(&vo, i + 1) - pcol_view_u64(&vo, i), 4, "4 values per sample");
  cr_assert_eq(pcol_view_i64(&vv, 0), 1048576 * 8LL);
  cr_assert_eq(pcol_view_i64(&vv, 1), 16777216 * 8LL);
  cr_assert_eq(pcol_view_i64(&vv, 2), 10000000);
  cr_assert_eq(pcol_view_i64(&vv, 3), 100);
  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES), 4);
  cr_assert(meta_is(f, "rprof.flags", "memory,gc,line"));
  cr_assert(meta_is(f, "rprof.interval_us", "10000"));
  pcol_close(f);
  free(mem);
}

Test(rprof, huge_memory_values_are_exact) {
  void *mem;
  pcol_file *f = pack_path(FIXTURES "/hugemem.out", &mem);
  pcol_view vv;
  pcol_error err = {0};
  cr_assert_eq(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &vv, &err), 0);
  cr_assert_eq(pcol_view_i64(&vv, 0), INT64_MAX - 7); /* 1152921504606846975 cells */
  cr_assert_eq(pcol_view_i64(&vv, 1), INT64_MAX - 7);
  cr_assert_eq(pcol_view_i64(&vv, 2), INT64_MAX);
  cr_assert_eq(pcol_view_i64(&vv, 3), INT64_MAX);
  cr_assert_eq(pcol_view_i64(&vv, 8), 4294967296LL * 8);
  pcol_close(f);
  free(mem);
}

Test(rprof, crlf_is_stripped_and_restored) {
  void *mem;
  pcol_file *f = pack_path(FIXTURES "/crlf.out", &mem);
  cr_assert(meta_is(f, "rprof.eol", "crlf"));
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLE_TEXT), 0, "CRLF lines need no verbatim copies");
  expect_frame(f, 1, 1, "f", "C:/Users/me/work/script.R", 3);
  expect_frame(f, 1, 3, NULL, "C:/Users/me/work/script.R", 12);
  pcol_close(f);
  free(mem);
}

Test(rprof, cut_last_line_keeps_complete_frames) {
  void *mem;
  pcol_file *f = pack_path(FIXTURES "/cut.out", &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 3);
  cr_assert(meta_is(f, "rprof.final_newline", "0"));
  cr_assert(meta_is(f, "rprof.truncated_lines", "1"));
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLE_TEXT), 1);
  expect_frame(f, 2, 1, "f", NULL, PCOL_NA_I64);
  uint32_t fn;
  int64_t line;
  pcol_view st;
  pcol_error err = {0};
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, &err), 0);
  frame_at(f, 2, 1, &fn, &line);
  walk_ctx c = {0};
  cr_assert_eq(pcol_stack_walk(f, pcol_view_u32(&st, 2), count_fn, &c, &err), PCOL_OK);
  cr_assert_eq(c.n, 1, "the cut name \"lon is not a frame");
  pcol_close(f);
  free(mem);
}

/* --------------------------------------------------------- malformed */

static const struct bad_case {
  const char *data;
  size_t len;
  int code;
  const char *msg;
} bad[] = {
#define B(s, code, msg) {s, sizeof(s) - 1, code, msg}
    B("", PCOL_ECORRUPT, "mem.out: empty input"),
    B("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", PCOL_ECORRUPT, "mem.out:1: not an Rprof file"),
    B("\"f\" \"g\" \n", PCOL_ECORRUPT, "mem.out:1: not an Rprof file"),
    B("sample.interval=20000\n:1:2:3\"f\" \n", PCOL_ECORRUPT, "mem.out:2: malformed memory prefix"),
    B("sample.interval=20000\n:1:x:3:4:\"f\" \n", PCOL_ECORRUPT, "mem.out:2: malformed memory prefix"),
    B("sample.interval=20000\n\"f\" \n:99999999999999999999:0:0:0:\n", PCOL_ECORRUPT,
      "mem.out:3: memory field 1 does not fit in 64 bits"),
    B("sample.interval=20000\n:0:1152921504606846976:0:0:\n", PCOL_ECORRUPT,
      "mem.out:2: memory field 2 (vsize.large)"),
    B("sample.interval=20000\n:0:0:0:9223372036854775808:\n", PCOL_ECORRUPT,
      "mem.out:2: memory field 4 (duplications)"),
    B("sample.interval=20000\n\"f\" \nhello world\n", PCOL_ECORRUPT,
      "mem.out:3:1: not an Rprof header, #File line or sample line"),
    B("sample.interval=20000\n\"f\" \x01\x02\n", PCOL_ECORRUPT, "mem.out:2:5: unexpected text after the name"),
    B("sample.interval=20000\n\"f\" hello \"g\n", PCOL_ECORRUPT, "mem.out:2:5: unexpected text after the name"),
    B("sample.interval=abc\n", PCOL_ECORRUPT, "mem.out:1: malformed Rprof header"),
    B("line profiling: sample.interval=\n", PCOL_ECORRUPT, "mem.out:1: malformed Rprof header"),
    B("sample.interval=20000\n\"f\" \nsample.interval=2x\n", PCOL_ECORRUPT,
      "mem.out:3: malformed Rprof header"),
    B("sample.interval=99999999999999999\n", PCOL_ETOOBIG, "mem.out:1: sample.interval="),
    B("sample.interval=20000\n#File x: a.R\n", PCOL_ECORRUPT, "mem.out:2: malformed #File line"),
    B("sample.interval=20000\n#File 0: a.R\n", PCOL_ECORRUPT, "mem.out:2: malformed #File line"),
    B("sample.interval=20000\n#Files\n", PCOL_ECORRUPT, "mem.out:2:1: not an Rprof header"),
    B("sample.interval=20000\n\n\"f\" \n", PCOL_ECORRUPT, "mem.out:2: empty line"),
    B("sample.interval=20000\n1x2 \"f\" \n", PCOL_ECORRUPT, "mem.out:2:1: malformed source reference"),
    B("sample.interval=20000\n\"f\" 1#99999999999999999999 \"g\" \n", PCOL_ECORRUPT,
      "mem.out:2:5: number in source reference does not fit in 64 bits"),
    B("sample.interval=20000\n\"f\" 1#9223372036854775808 \"g\" \n", PCOL_ECORRUPT,
      "mem.out:2: line number 9223372036854775808 is too large"),
#undef B
};

Test(rprof, malformed_inputs_fail_with_line_numbers) {
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pcol_builder *b;
    pcol_error err = {0};
    cr_assert_eq(pcol_builder_new(&b, &err), 0);
    int rc = import_bytes(bad[i].data, bad[i].len, b, &err);
    cr_expect_eq(rc, bad[i].code, "case %zu: rc %d (%s)", i, rc, err.message);
    cr_expect(strstr(err.message, bad[i].msg) != NULL, "case %zu: message '%s' lacks '%s'", i,
              err.message, bad[i].msg);
    pcol_builder_free(b);
  }
}

/* Odd but legitimate: every line cut, refs to files without #File lines,
 * leading zeros, doubled spaces.  They import and come back byte for byte. */
Test(rprof, odd_lines_round_trip_verbatim) {
  static const char *odd[] = {
      "sample.interval=20000\n\"f\" \"g\"",
      "sample.interval=20000\n\"f\" \"g\" 1#",
      "sample.interval=20000\n\"f\" 12",
      "sample.interval=20000\n:1:2:",
      "sample.interval=20000\n:1:2:3:4:",
      "line profiling: sample.interval=20000\n3#4 \"f\" \n",
      "line profiling: sample.interval=20000\n#File 1: a.R\n01#4 \"f\" \n",
      "line profiling: sample.interval=20000\n#File 1: a.R\n#File 2: a.R\n2#4 \"f\" 1#1 \n",
      "sample.interval=20000\n:01:2:3:4:\"f\" \n",
      "sample.interval=20000\n\"f\"  \"g\" \n",
      "sample.interval=20000\n\"f\" \"g\" \r\n\"h\" \n",
      "sample.interval=20000\r\n\"f\" \"g\" \n#File 1: x\n\"h\" \r\n",
      "sample.interval=20000\n#File 1: a.R",
      "sample.interval=20000\r",
      "sample.interval=0\n\"f\" \n\"f\" \n",
  };
  for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
    pcol_builder *b;
    pcol_error err = {0};
    cr_assert_eq(pcol_builder_new(&b, &err), 0);
    cr_assert_eq(import_bytes(odd[i], strlen(odd[i]), b, &err), 0, "case %zu: %s", i,
                 err.message);
    void *mem;
    pcol_file *f = tu_reopen(b, NULL, &mem);
    size_t olen;
    char *out = export_mem(f, NULL, &olen);
    cr_assert_eq(olen, strlen(odd[i]), "case %zu: %zu bytes", i, olen);
    cr_assert(!memcmp(out, odd[i], olen), "case %zu: '%s'", i, out);
    free(out);
    pcol_close(f);
    free(mem);
    pcol_builder_free(b);
  }
}

/* ---------------------------------------------------------- selection */

Test(rprof, time_range_export_keeps_headers_and_file_lines) {
  void *mem;
  pcol_file *f = pack_path(FIXTURES "/append.out", &mem);
  pcol_select sel = {0};
  sel.has_from = sel.has_to = 1;
  sel.from_ns = 20000000; /* samples 3..5: the 20 ms segment */
  sel.to_ns = 80000000;
  size_t n;
  char *out = export_mem(f, &sel, &n);
  const char *want = "line profiling: sample.interval=10000\n#File 1: a.R\n"
                     "sample.interval=20000\n\"busy\" \"outer\" \n\"busy\" \"outer\" \n"
                     "\"busy\" \"outer\" \n";
  cr_assert_str_eq(out, want);
  free(out);
  pcol_close(f);
  free(mem);
}

Test(rprof, two_sources_export_one_or_both) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  cr_assert_eq(pcol_import_path(b, FIXTURES "/cut.out", PCOL_FMT_RPROF, NULL, &err), 0);
  cr_assert_eq(pcol_import_path(b, FIXTURES "/crlf.out", PCOL_FMT_RPROF, NULL, &err), 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  size_t l1, l2, n;
  char *a = tu_slurp(FIXTURES "/cut.out", &l1), *c = tu_slurp(FIXTURES "/crlf.out", &l2);
  pcol_select sel = {0};
  sel.source_id = 2;
  char *out = export_mem(f, &sel, &n);
  cr_assert(n == l2 && !memcmp(out, c, n), "source 2 alone is crlf.out");
  free(out);
  sel.source_id = 1;
  out = export_mem(f, &sel, &n);
  cr_assert(n == l1 && !memcmp(out, a, n), "source 1 alone is cut.out, unterminated");
  free(out);
  /* both: ONE header (summaryRprof reads any later header as a sample),
   * every sample line of each file, rendered (doc/mappings.md §1.2) */
  out = export_mem(f, NULL, &n);
  size_t heads = 0, lines = 0, want = 0;
  const char *texts[3] = {a, c, out};
  size_t lens[3] = {l1, l2, n};
  for (int k = 0; k < 3; k++)
    for (size_t i = 0; i < lens[k];) {
      const char *p = texts[k] + i, *e = memchr(p, '\n', lens[k] - i);
      size_t len = e ? (size_t)(e - p) : lens[k] - i;
      int head = memmem(p, len, "sample.interval=", 16) != NULL, file = len > 5 && !memcmp(p, "#File", 5);
      if (k == 2) heads += head, lines += !head && !file;
      else want += !head && !file;
      i += len + 1;
    }
  cr_assert_eq(heads, 1, "one header");
  cr_assert(n > 37 && !memcmp(out, "line profiling: sample.interval=20000\n", 38));
  cr_assert_eq(lines, want, "%zu sample lines, the files have %zu", lines, want);
  free(out);
  free(a);
  free(c);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(rprof, coalesced_import_still_round_trips) {
  SKIP_WITHOUT_TESTDATA();
  char path[4096];
  snprintf(path, sizeof path, "%s/rprof/aprof__lotka1_naiveL.out", testdata_dir());
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  int rc = pcol_import_path(b, path, PCOL_FMT_RPROF, NULL, &err);
  if (!rc) rc = pcol_builder_coalesce(b, &err);
  if (rc == PCOL_EUNSUPPORTED) cr_skip_test("coalescing not built: %s", err.message);
  cr_assert_eq(rc, 0, "%s", err.message);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  cr_assert_lt(pcol_rows(f, PCOL_T_SAMPLES), 1200, "runs were merged");
  size_t len, n;
  char *bytes = tu_slurp(path, &len);
  char *out = export_mem(f, NULL, &n);
  cr_assert(n == len && !memcmp(out, bytes, n), "coalesced export is the input");
  free(out);
  free(bytes);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* ---------------------------------------------- from non-Rprof sources */

Test(rprof, pprof_like_source_exports_as_rprof_r_can_read) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src, leaf, mid, top, na, file, loc[4], stack, stack2;
  cr_assert_eq(pcol_b_source(b, "pprof", "x.pb.gz", PCOL_NA_I64, &src, &err), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "pprof.period", "10000000", &err), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "pprof.period_type.unit", "nanoseconds", &err), 0);
  cr_assert_eq(pcol_b_cstr(b, "main.go", &file, &err), PCOL_OK);
  pcol_function_row fr = {0, 0, file, PCOL_NA_I64};
  cr_assert_eq(pcol_b_cstr(b, "leaf\nx", &fr.name, &err), PCOL_OK);
  cr_assert_eq(pcol_b_function(b, &fr, &leaf, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, "mid", &fr.name, &err), PCOL_OK);
  cr_assert_eq(pcol_b_function(b, &fr, &mid, &err), PCOL_OK);
  fr.filename = 0;
  cr_assert_eq(pcol_b_cstr(b, "runtime.main", &fr.name, &err), PCOL_OK);
  cr_assert_eq(pcol_b_function(b, &fr, &top, &err), PCOL_OK);
  fr.name = 0;
  cr_assert_eq(pcol_b_function(b, &fr, &na, &err), PCOL_OK);
  /* an inlined chain: leaf inlined into mid, one location */
  pcol_line_row inl[2] = {{leaf, 10, PCOL_NA_I64}, {mid, 20, PCOL_NA_I64}};
  cr_assert_eq(pcol_b_location(b, 0, 0x1000, 0, inl, 2, &loc[0], &err), PCOL_OK);
  pcol_line_row l2 = {top, PCOL_NA_I64, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0x2000, 0, &l2, 1, &loc[1], &err), PCOL_OK);
  pcol_line_row l3 = {na, PCOL_NA_I64, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0x3000, 0, &l3, 1, &loc[2], &err), PCOL_OK);
  cr_assert_eq(pcol_b_stack(b, loc, 2, &stack, &err), PCOL_OK);
  uint32_t s2[2] = {loc[2], loc[1]};
  cr_assert_eq(pcol_b_stack(b, s2, 2, &stack2, &err), PCOL_OK);
  pcol_sample_row s = {src, PCOL_NA_I64, 0, 3, PCOL_NA_I64, stack, 0};
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, &err), 0);
  s.weight = 1;
  s.stack_id = 0; /* empty: Rprof cannot write it */
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, &err), 0);
  s.stack_id = stack2;
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, &err), 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  size_t n;
  char *out = export_mem(f, NULL, &n);
  const char *want = "line profiling: sample.interval=10000\n"
                     "#File 1: main.go\n"
                     "1#10 \"leaf x\" 1#20 \"mid\" \"runtime.main\" \n"
                     "1#10 \"leaf x\" 1#20 \"mid\" \"runtime.main\" \n"
                     "1#10 \"leaf x\" 1#20 \"mid\" \"runtime.main\" \n"
                     "\"<Anonymous>\" \"runtime.main\" \n";
  cr_assert_str_eq(out, want);
  /* and it reads back as Rprof: 4 samples */
  pcol_builder *b2;
  cr_assert_eq(pcol_builder_new(&b2, &err), 0);
  cr_assert_eq(import_bytes(out, n, b2, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_b_sample_count(b2), 4);
  pcol_builder_free(b2);
  free(out);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(rprof, huge_weights_are_refused_before_writing) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  uint32_t src, fn, loc, stack;
  cr_assert_eq(pcol_b_source(b, "collapsed", "x.txt", PCOL_NA_I64, &src, &err), 0);
  pcol_function_row fr = {0, 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_cstr(b, "f", &fr.name, &err), PCOL_OK);
  cr_assert_eq(pcol_b_function(b, &fr, &fn, &err), PCOL_OK);
  pcol_line_row l = {fn, PCOL_NA_I64, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &loc, &err), PCOL_OK);
  cr_assert_eq(pcol_b_stack(b, &loc, 1, &stack, &err), PCOL_OK);
  pcol_sample_row s = {src, PCOL_NA_I64, 0, 1000000000000LL, PCOL_NA_I64, stack, 0};
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, &err), 0);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  char *out = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&out, &n);
  int rc = pcol_export_rprof(f, NULL, m, &err);
  fclose(m);
  cr_assert_eq(rc, PCOL_ETOOBIG, "%s", err.message);
  cr_assert(strstr(err.message, "one line per tick"));
  cr_assert_eq(n, 0, "nothing written");
  free(out);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(rprof, endless_line_stops_at_the_input_cap) {
  /* one line with no end: the importer must stop at the cap, not buffer it */
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  FILE *in = tu_endless("sample.interval=20000\n\"f\" \"g", 'x');
  pcol_import_options o = {.max_input_bytes = 1 << 20};
  cr_assert_eq(pcol_import_rprof(b, in, "endless", &o, &err), PCOL_ETOOBIG, "%s", err.message);
  cr_assert(strstr(err.message, "endless") && strstr(err.message, "1048576"), "%s", err.message);
  fclose(in);
  pcol_builder_free(b);
}
