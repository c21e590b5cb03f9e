/* firefox_json.c — a Firefox profile's JSON read as a stream into a compact
 * tree of what the importer reads, and checked access to its tables
 * (firefox_json.h).
 *
 * The input (inflated when it starts as gzip does, under the input cap)
 * goes through json_pull.c into json_tree.c, which keeps only the keys the
 * importer reads (ff_filter): meta's few numbers and categories' names, the
 * tables' columns, the threads' samples; of the markers only their times
 * and phases (the Firefox Profiler's range of a thread: firefox_import.c)
 * and a Gecko payload's type, their payloads counted, not kept; an
 * allocation table's times; a Gecko child process (processes[i]) is
 * filtered as the root is.  So memory follows the tables, samples and
 * marker times, not the document (marker payloads and libs are most of a
 * real one), and keys may come in any order but one: a Gecko markers
 * table's schema must come before its data (as Firefox writes it), else
 * its rows are counted only. */
#include "firefox_json.h"
#include "instream.h" /* pcol_instream, pcol_instream_finish, pcol_instream_free, ... */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ffj_fail(ffj *j, const char *fmt, ...) {
  char m[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  return pcol_error_set(j->err, PCOL_ECORRUPT, "%s: %s", j->name, m);
}

/* ------------------------------------------------------------ the filter */
static int eq(const char *a, const char *b) { return a && !strcmp(a, b); }
static int one_of(const char *k, const char *const *set) {
  for (; *set; set++)
    if (eq(k, *set)) return 1;
  return 0;
}

static const char *const ROOT[] = {"meta", "shared", "threads", "processes", NULL};
static const char *const META[] = {"preprocessedProfileVersion", "version", "startTime", "interval",
                                   "categories", "sampleUnits", "profilingStartTime", "profilingEndTime",
                                   "pcolDefaultValue", "pcolDurationNanos", "pcolIntervalStated",
                                   "pcolNamelessPlaces", "pcolTruncatedStacks", NULL};
static const char *const SHARED[] = {"stringArray", "stackTable", "frameTable", "funcTable", "sources", NULL};
static const char *const THREAD[] = {"name", "tid", "pid", "samples", "markers", "stringArray", "stringTable",
                                     "stackTable", "frameTable", "funcTable", "jsAllocations",
                                     "nativeAllocations", "pcolTimeAxis", "pcolDurationNanos", "pcolValueType",
                                     "pcolCountFirst", "registerTime", "unregisterTime", "processStartupTime", "pcolRecording", NULL};
/* a table's columns (processed) or its schema and rows (Gecko) */
static const char *const SAMPLES[] = {"length", "weightType", "weight", "stack", "time", "timeDeltas",
                                      "threadCPUDelta", "pcolDuration", "pcolWeight", "pcolCount", "pcolBase", "schema", "data",
                                      NULL};
static const char *const STACKS[] = {"length", "frame", "prefix", "prefixOffset", "schema", "data", NULL};
static const char *const FRAMES[] = {"length", "func", "line", "column", "category", "flags", "schema", "data", NULL};
static const char *const FUNCS[] = {"length", "name", "source", "fileName", "lineNumber", "flags", "pcolNameless", NULL};
static const char *const SOURCES[] = {"length", "filename", NULL};
/* processed markers (data: the payloads, counted) and allocations */
static const char *const MARKERS[] = {"length", "startTime", "endTime", "phase", "schema", NULL};
static const char *const ALLOCS[] = {"length", "time", NULL};

/* (gecko_schema: the markers table being read has had its schema) */
static int column(const char *table, const char *key, int gecko_schema) {
  const char *const *set = eq(table, "samples") ? SAMPLES : eq(table, "stackTable") ? STACKS
                         : eq(table, "frameTable") ? FRAMES : eq(table, "funcTable") ? FUNCS
                         : eq(table, "sources") ? SOURCES : eq(table, "markers") ? MARKERS
                         : eq(table, "jsAllocations") || eq(table, "nativeAllocations") ? ALLOCS : NULL;
  /* a Gecko table's rows after its schema; processed payloads: counted */
  if (eq(table, "markers") && eq(key, "data")) return gecko_schema ? PCOL_JF_KEEP : PCOL_JF_COUNT;
  if (!set) return PCOL_JF_KEEP;
  return one_of(key, set) ? PCOL_JF_KEEP : PCOL_JF_SKIP;
}

static int ff_filter(void *ctx, const char *const *p, size_t n) {
  int *gecko_schema = ctx;
  while (n >= 3 && eq(p[0], "processes") && !p[1]) p += 2, n -= 2; /* a child process reads as the root */
  if (n == 1) return one_of(p[0], ROOT) ? PCOL_JF_KEEP : PCOL_JF_SKIP;
  if (eq(p[0], "processes")) return PCOL_JF_SKIP; /* not an array: ignored */
  if (eq(p[0], "meta")) {
    if (n == 2) return one_of(p[1], META) ? PCOL_JF_KEEP : PCOL_JF_SKIP;
    if (eq(p[1], "sampleUnits") && n == 3) return eq(p[2], "threadCPUDelta") ? PCOL_JF_KEEP : PCOL_JF_SKIP;
    if (eq(p[1], "categories") && n == 4 && !p[2]) return eq(p[3], "name") ? PCOL_JF_KEEP : PCOL_JF_SKIP;
    return PCOL_JF_KEEP;
  }
  if (eq(p[0], "shared")) {
    if (n == 2) return one_of(p[1], SHARED) ? PCOL_JF_KEEP : PCOL_JF_SKIP;
    return n == 3 ? column(p[1], p[2], 0) : PCOL_JF_KEEP;
  }
  if (eq(p[0], "threads")) {
    if (p[1]) return PCOL_JF_SKIP; /* threads is not an array: refused */
    if (n == 3) {
      if (eq(p[2], "markers")) *gecko_schema = 0; /* a new markers table */
      return one_of(p[2], THREAD) ? PCOL_JF_KEEP : PCOL_JF_SKIP;
    }
    if (n == 4 && eq(p[2], "markers") && eq(p[3], "schema")) *gecko_schema = 1;
    if (n == 4) return column(p[2], p[3], *gecko_schema);
    /* a Gecko marker's payload (data[i][k]): its type only */
    if (eq(p[2], "markers") && eq(p[3], "data")) return n == 7 && eq(p[6], "type") ? PCOL_JF_KEEP : PCOL_JF_SKIP;
    return PCOL_JF_KEEP;
  }
  return p[0] ? PCOL_JF_KEEP : PCOL_JF_SKIP; /* the root is an array: refused */
}

/* ------------------------------------------------------------ the input */
/* The input as a stream, inflated if gzip, under the input cap
 * (lib/core/instream.c): its errors win over the JSON reader's. */
int ffj_read(ffj *j, FILE *in, const char *name, const pcol_import_options *opt, pcol_error *err) {
  memset(j, 0, sizeof *j);
  j->name = name;
  j->err = err;
  pcol_instream *o;
  FILE *s;
  int rc = pcol_instream_open(&o, in, name, opt, &s, err);
  if (rc) return rc;
  /* the cap is the stream's (its messages); the reader's is off */
  pcol_import_options jo = {0};
  jo.max_input_bytes = UINT64_MAX;
  pcol_jpull jp;
  rc = pcol_jp_open(&jp, s, name, &jo, PCOL_JP_ALLOW_NUL, err); /* names may hold NUL (pprof's do) */
  if (!rc) {
    int gecko_schema = 0;
    rc = pcol_jtree_build(&j->t, &jp, ff_filter, &gecko_schema);
    j->root = j->t.root;
    pcol_jp_close(&jp);
  }
  int orc = pcol_instream_finish(o, rc, err);
  if (orc) rc = orc;
  else if (rc && rc != PCOL_ENOMEM && pcol_instream_total(o) == 0) rc = ffj_fail(j, "empty input");
  pcol_instream_free(o);
  if (rc) {
    ffj_free(j);
    return rc;
  }
  if (!pcol_jt_is_obj(j->root)) {
    ffj_free(j);
    return pcol_error_set(err, PCOL_EFORMAT, "%s: not a Firefox profile (not a JSON object)", name);
  }
  return PCOL_OK;
}

void ffj_free(ffj *j) {
  pcol_jtree_free(&j->t);
  j->root = 0;
}

/* ------------------------------------------------------------ the tables */
int ffj_array(ffj *j, pcol_jv obj, const char *key, const char *path, pcol_jv *out) {
  *out = pcol_jt_get(&j->t, obj, key);
  if (!pcol_jt_is_arr(*out)) return ffj_fail(j, "%s%s%s: missing or not an array", path, *path ? "." : "", key);
  return PCOL_OK;
}

size_t ffj_len(ffj *j, pcol_jv table) {
  pcol_jv l = pcol_jt_get(&j->t, table, "length");
  return pcol_jt_is_int(l) && pcol_jt_int(&j->t, l) > 0 ? (size_t)pcol_jt_int(&j->t, l) : 0;
}

int ffj_table(ffj *j, pcol_jv obj, const char *key, const char *path, pcol_jv *out, size_t *len) {
  *out = pcol_jt_get(&j->t, obj, key);
  pcol_jv l = pcol_jt_get(&j->t, *out, "length");
  if (!pcol_jt_is_obj(*out)) return ffj_fail(j, "%s.%s: missing or not an object", path, key);
  if (!pcol_jt_is_int(l) || pcol_jt_int(&j->t, l) < 0)
    return ffj_fail(j, "%s.%s.length: missing or not a whole number >= 0", path, key);
  *len = (size_t)pcol_jt_int(&j->t, l);
  return PCOL_OK;
}

int ffj_column(ffj *j, pcol_jv table, const char *key, size_t n, const char *path, pcol_jv *out) {
  *out = pcol_jt_get(&j->t, table, key);
  if (!pcol_jt_is_arr(*out)) return ffj_fail(j, "%s: column %s missing or not an array", path, key);
  if (pcol_jt_size(&j->t, *out) < n)
    return ffj_fail(j, "%s: column %s has %zu entries for length %zu", path, key, pcol_jt_size(&j->t, *out), n);
  return PCOL_OK;
}

int ffj_index(ffj *j, pcol_jv v, size_t n, const char *path, const char *what, size_t *out) {
  if (!v) return ffj_fail(j, "%s: missing", path);
  if (!pcol_jt_is_int(v)) return ffj_fail(j, "%s: not an index", path);
  int64_t i = pcol_jt_int(&j->t, v);
  if (i < 0 || (uint64_t)i >= n)
    return ffj_fail(j, "%s: index %lld is out of range (%s has %zu rows)", path, (long long)i, what, n);
  *out = (size_t)i;
  return PCOL_OK;
}

int ffj_prefix(ffj *j, pcol_jv stacks, int version, size_t s, const char *path, size_t *parent,
               int *root) {
  *root = 0;
  *parent = 0;
  if (version >= 66) {
    pcol_jv o = ffj_col(j, stacks, "prefixOffset", s);
    if (!pcol_jt_is_int(o) || pcol_jt_int(&j->t, o) < 0 || (uint64_t)pcol_jt_int(&j->t, o) > s)
      return ffj_fail(j, "%s.stackTable.prefixOffset[%zu]: not an offset between 0 and %zu", path, s, s);
    if (!pcol_jt_int(&j->t, o)) *root = 1;
    else *parent = s - (size_t)pcol_jt_int(&j->t, o);
    return PCOL_OK;
  }
  pcol_jv p = ffj_col(j, stacks, "prefix", s);
  if (pcol_jt_is_null(p)) {
    *root = 1;
    return PCOL_OK;
  }
  if (!pcol_jt_is_int(p) || pcol_jt_int(&j->t, p) < 0 || (uint64_t)pcol_jt_int(&j->t, p) >= s)
    return ffj_fail(j, "%s.stackTable.prefix[%zu]: not null or a stack before %zu", path, s, s);
  *parent = (size_t)pcol_jt_int(&j->t, p);
  return PCOL_OK;
}
