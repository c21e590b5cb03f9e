/* pcol_duckdb.c — the DuckDB extension `pcol`: read_pcol() and pcol_top().
 *
 * Built against DuckDB's stable C extension API (duckdb_extension.h, C API
 * v1.2.0: loads in DuckDB >= 1.2) by `make duckdb`; uses include/pcol.h
 * and the bindings' glue (bindings/common/pcolb.c) only.
 *
 *   read_pcol(path [, table := VIEW] [, source := ID] [, "from" := T, "to" := T]
 *             [, no_mmap := true])
 *
 * returns view VIEW (default samples) of spec.md §11, the rows `pcol cat
 * --table VIEW` prints, with its column names; ids, counts and i64 cells as
 * BIGINT, u64 as UBIGINT, f64 as DOUBLE, bools as BOOLEAN, strings as
 * VARCHAR (bytes that are not UTF-8 as their Latin-1 code points, the rule
 * of `pcol cat --format json`), NA as NULL.  `path` is a file, a directory
 * (its files), a glob or a list of those (pcol_inputs_expand: the CLI's
 * rule): then the rows of each file in turn, with a last column `file`
 * (ids are the file's own).  T: seconds since the source's start, or a
 * wall-clock time (text as the CLI's --from/--to, a TIMESTAMP[TZ]).  Any input pcol reads
 * (pprof, Rprof, ...) is converted in memory (pcol_open_any) under the
 * CLI's budgets.  Only the columns a query uses are read (projection
 * pushdown); rows go to DuckDB 2048 at a time.
 *
 *   pcol_top(path [, value := NAME] [, by := 'function'|'line'|'file'|'address'|'filefunction'|'label:KEY']
 *            [, source := ID] [, "from" := T, "to" := T])
 *
 * returns `pcol top --format json`'s rows (name, flat, cum) of the union of
 * the inputs (pcol_open_many, as the CLI opens many inputs; a directory
 * given first through its index, `pcol index`, as the CLI reads it).
 *
 *   pcol_frames(path [, value := NAME] [, by := 'function'|'line'|'file'|'address'|'filefunction']
 *               [, source := ID] [, "from" := T, "to" := T] [, no_mmap := true])
 *
 * returns pcol_frame_rows_scan's rows (a row per sample and frame, named as
 * pcol top names it), streamed as read_pcol streams a computed view, each
 * input in turn (a `file` column for many; their value resolved on their
 * union, as pcol_top's: frames_value): GROUP BY name with sum(value)
 * FILTER (WHERE self) and FILTER (WHERE first_on_stack) is pcol top's table. */
#define DUCKDB_EXTENSION_NAME pcol
#include "duckdb_extension.h"

#include "pcolb.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

DUCKDB_EXTENSION_EXTERN

/* ------------------------------------------------------------ bind */

/* What read_pcol and pcol_frames read: a view of spec.md §11 (copied from
 * its pcol_lview_info) or the frame rows (pcol_frame_rows_scan). */
#define MAX_COLS 16
enum { K_TEXT = 100 }; /* a column of pcol_str cells ({NULL, 0}: NULL), frames only */
typedef struct vdef {
  const char *name;
  size_t ncols;
  int sample_view, frames;
  pcol_lview_col cols[MAX_COLS];
} vdef;

/* pcol_frames' columns, pcol_frame_rows' arrays in this order (frame_arrays) */
static const pcol_lview_col frame_cols[] = {
    {"sample_id", PCOL_LK_COUNT, PCOL_TYPE_U64, 0, 0, 0},
    {"source_id", PCOL_LK_REF, PCOL_TYPE_U32, 0, 0, 0},
    {"time_ns", PCOL_LK_I64, PCOL_TYPE_I64, 0, 0, 0},
    {"depth", PCOL_LK_COUNT, PCOL_TYPE_U32, 0, 0, 0},
    {"location_id", PCOL_LK_REF, PCOL_TYPE_U32, 0, 0, 0},
    {"name", (pcol_lview_kind)K_TEXT, PCOL_TYPE_BYTES, 0, 0, 0},
    {"filename", (pcol_lview_kind)K_TEXT, PCOL_TYPE_BYTES, 0, 0, 0}, /* as functions names it */
    {"line", PCOL_LK_I64, PCOL_TYPE_I64, 0, 0, 0},
    {"self", PCOL_LK_BOOL, PCOL_TYPE_U8, 0, 0, 0},
    {"first_on_stack", PCOL_LK_BOOL, PCOL_TYPE_U8, 0, 0, 0},
    {"inlined", PCOL_LK_BOOL, PCOL_TYPE_U8, 0, 0, 0},
    {"value", PCOL_LK_COUNT, PCOL_TYPE_I64, 0, 0, 0}, /* never NULL, whatever its bits */
};
#define FRAME_NCOLS ((int)(sizeof frame_cols / sizeof frame_cols[0]))

static void frame_arrays(pcol_frame_rows *fb, void *const *c) {
  fb->sample_id = c[0];
  fb->source_id = c[1];
  fb->time_ns = c[2];
  fb->depth = c[3];
  fb->location_id = c[4];
  fb->name = c[5];
  fb->file = c[6];
  fb->line = c[7];
  fb->self = c[8];
  fb->first = c[9];
  fb->inlined = c[10];
  fb->value = c[11];
}

/* DuckDB hands a bind's and an init's data to its other threads through
 * its scheduler, whose atomics ThreadSanitizer does not see (libduckdb is
 * not instrumented; t_duckdb's TSan run now and then reported bind's
 * writes racing init's reads on another thread): a release store once the
 * data is made and an acquire load where it is taken state that handoff in
 * C11's terms, where the sanitizer sees it.  One atomic access a call. */
static void hand_over(atomic_int *h) { atomic_store_explicit(h, 1, memory_order_release); }
static void take_over(atomic_int *h) { (void)atomic_load_explicit(h, memory_order_acquire); }

typedef struct bind_data {
  atomic_int handed; /* hand_over, take_over */
  pcol_inputs in; /* the library's rule (pcol_inputs_expand), as the CLI's */
  int many;       /* a list, a directory or a glob: a `file` column */
  vdef v; /* read_pcol's view or pcol_frames' rows (not pcol_top) */
  pcol_select sel;
  pcol_open_options open; /* no_mmap := true: read the files, do not map them */
  char *value, *by; /* pcol_top */
  char *label;      /* the path argument(s) as given, space-separated: what pcol top's warnings name */
} bind_data;

static void bind_free(void *p) {
  bind_data *b = p;
  if (!b) return;
  pcol_inputs_free(&b->in);
  free(b->value);
  free(b->by);
  free(b->label);
  free(b);
}

/* A VARCHAR named parameter as a malloc'd string (NULL when absent). */
static char *named_str(duckdb_bind_info info, const char *name) {
  duckdb_value v = duckdb_bind_get_named_parameter(info, name);
  if (!v) return NULL;
  char *s = duckdb_is_null_value(v) ? NULL : duckdb_get_varchar(v);
  char *r = s ? strdup(s) : NULL;
  if (s) duckdb_free(s);
  duckdb_destroy_value(&v);
  return r;
}

/* What the expansion notes (a directory's index not used and why, glob
 * matches skipped: pcol_inputs_expand's text, escaped), on standard error
 * as the CLI says it, "FN: note: ..." and "FN: warning: ...": a table
 * function of DuckDB's C API has no warnings of its own. */
static void say(const char *fn, const pcol_inputs *in) {
  if (in->index_note) fprintf(stderr, "%s: note: %s\n", fn, in->index_note);
  for (const char *l = in->skipped, *nl; l && *l; l = nl + 1) {
    if (!(nl = strchr(l, '\n'))) break;
    fprintf(stderr, "%s: warning: %.*s\n", fn, (int)(nl - l), l);
  }
}

/* An importer's warning (a success's err message: a collapsed file cut
 * short, ...), a line each on standard error as the CLI says it after
 * opening its inputs, "FN: warning: ..."; err's message is cleared. */
static void say_warning(const char *fn, pcol_error *err) {
  if (err->code == PCOL_OK)
    for (const char *m = err->message, *nl; *m; m = nl ? nl + 1 : m + strlen(m)) {
      nl = strchr(m, '\n');
      fprintf(stderr, "%s: warning: %.*s\n", fn, (int)(nl ? (size_t)(nl - m) : strlen(m)), m);
    }
  err->message[0] = 0;
}

/* The path argument, a VARCHAR or a LIST of them, expanded as the CLI
 * expands its arguments (pcol_inputs_expand: files, directories, globs);
 * indexed (pcol_top, one union): a directory given first is read through
 * its index (`pcol index`) where it may, which b->sel's wall-clock range
 * rules out.  "-" is refused: standard input is DuckDB's own (its shell). */
static int bind_paths(duckdb_bind_info info, bind_data *b, const char *fn, int indexed,
                      pcol_error *err) {
  duckdb_value v = duckdb_bind_get_parameter(info, 0);
  duckdb_logical_type t = duckdb_get_value_type(v);
  int rc = PCOL_OK;
  char **args = NULL;
  size_t n = 0;
  if (duckdb_is_null_value(v)) {
    rc = pcol_error_set(err, PCOL_EINVAL, "the path is NULL");
  } else if (duckdb_get_type_id(t) == DUCKDB_TYPE_LIST) {
    idx_t len = duckdb_get_list_size(v);
    b->many = 1;
    if (!len) rc = pcol_error_set(err, PCOL_EINVAL, "the list of paths is empty");
    else if (!(args = calloc((size_t)len, sizeof *args))) rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    for (idx_t i = 0; i < len && !rc; i++) {
      duckdb_value c = duckdb_get_list_child(v, i);
      char *s = duckdb_is_null_value(c) ? NULL : duckdb_get_varchar(c);
      if (!s) rc = pcol_error_set(err, PCOL_EINVAL, "path %llu of the list is NULL", (unsigned long long)i + 1);
      else if (!(args[n++] = strdup(s))) rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
      if (s) duckdb_free(s);
      duckdb_destroy_value(&c);
    }
  } else {
    char *s = duckdb_get_varchar(v);
    if (!s) rc = pcol_error_set(err, PCOL_EINVAL, "the path is not a string");
    else if (!(args = calloc(1, sizeof *args)) || !(args[n++] = strdup(s)))
      rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    if (s) duckdb_free(s);
  }
  duckdb_destroy_value(&v);
  for (size_t i = 0; i < n && !rc; i++)
    if (!strcmp(args[i], "-")) /* the library's name for standard input: DuckDB's own, in its shell */
      rc = pcol_error_set(err, PCOL_EINVAL, "'-' (standard input) cannot be read here; name a file");
  size_t len = 1; /* the label: the arguments, as the CLI's (make_label) */
  for (size_t i = 0; i < n; i++) len += strlen(args[i]) + 1;
  if (!rc && !(b->label = calloc(1, len))) rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (size_t i = 0; i < n && !rc; i++) {
    if (i) strcat(b->label, " ");
    strcat(b->label, args[i]);
  }
  if (!rc) {
    pcol_inputs_options o = {0};
    o.index = indexed;
    o.sel = &b->sel;
    rc = pcol_inputs_expand((const char *const *)args, n, &o, &b->in, err);
    say(fn, &b->in);
    b->many |= b->in.many;
  }
  for (size_t i = 0; i < n; i++) free(args[i]);
  free(args);
  return rc;
}

/* d as the shortest %g that reads back as d (0.2, not 0.20000000000000001). */
static const char *shortest(char buf[32], double d) {
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, 32, "%.*g", p, d);
    if (strtod(buf, NULL) == d) break;
  }
  return buf;
}

/* One end of the range, "from" or "to" (k = 0, 1), into b->sel as the
 * Python and R bindings take it (pcb_range_end): a number, seconds since
 * the source's start; a VARCHAR, the CLI's --from/--to text (seconds, or a
 * wall-clock time: RFC 3339 or @EPOCH_SECONDS, pcol_time_parse); a
 * TIMESTAMP (taken as UTC) or TIMESTAMPTZ, a wall-clock time.  shown: the
 * value as given, for a message. */
static int range_end(duckdb_value v, int k, pcol_select *sel, char shown[48], pcol_error *err) {
  static const char *const names[2] = {"\"from\"", "\"to\""};
  duckdb_logical_type t = duckdb_get_value_type(v);
  duckdb_type id = duckdb_get_type_id(t);
  int64_t ns = 0;
  switch (id) {
  case DUCKDB_TYPE_VARCHAR: {
    char *text = duckdb_get_varchar(v);
    if (!text) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    snprintf(shown, 48, "'%.40s'", text);
    int rc = pcb_range_end(sel, k, text, 0, names[k], err);
    duckdb_free(text);
    return rc;
  }
  case DUCKDB_TYPE_TIMESTAMP:
  case DUCKDB_TYPE_TIMESTAMP_TZ:
  case DUCKDB_TYPE_TIMESTAMP_NS: {
    if (id == DUCKDB_TYPE_TIMESTAMP_NS) ns = duckdb_get_timestamp_ns(v).nanos;
    else {
      int64_t us = (id == DUCKDB_TYPE_TIMESTAMP ? duckdb_get_timestamp(v) : duckdb_get_timestamp_tz(v)).micros;
      if (us > INT64_MAX / 1000 || us < INT64_MIN / 1000)
        return pcol_error_set(err, PCOL_EINVAL, "%s: a time out of range", names[k]);
      ns = us * 1000;
    }
    /* as pcol_time_parse's "@SECONDS" (the text the message shows) */
    char text[48];
    int64_t sec = ns / 1000000000, frac = ns % 1000000000;
    if (frac < 0) sec -= 1, frac += 1000000000;
    snprintf(text, sizeof text, "@%lld.%09lld", (long long)sec, (long long)frac);
    snprintf(shown, 48, "%s", text);
    return pcb_range_end(sel, k, text, 0, names[k], err);
  }
  case DUCKDB_TYPE_TINYINT: case DUCKDB_TYPE_SMALLINT: case DUCKDB_TYPE_INTEGER: case DUCKDB_TYPE_BIGINT:
  case DUCKDB_TYPE_UTINYINT: case DUCKDB_TYPE_USMALLINT: case DUCKDB_TYPE_UINTEGER: case DUCKDB_TYPE_UBIGINT:
  case DUCKDB_TYPE_HUGEINT: case DUCKDB_TYPE_UHUGEINT: case DUCKDB_TYPE_FLOAT: case DUCKDB_TYPE_DOUBLE:
  case DUCKDB_TYPE_DECIMAL: {
    double d = duckdb_get_double(v);
    shortest(shown, d);
    return pcb_range_end(sel, k, NULL, d, names[k], err);
  }
  default:
    return pcol_error_set(err, PCOL_EINVAL, "%s wants seconds since the profile's start (a number), or a "
                          "wall-clock time (a TIMESTAMP, or text: '2026-11-23T10:00:00Z', '@EPOCH_SECONDS')",
                          names[k]);
  }
}

/* source := ID, "from" := T, "to" := T (range_end: seconds since the
 * source's start, or wall-clock times), no_mmap := BOOL. */
static int bind_select(duckdb_bind_info info, bind_data *b, pcol_error *err) {
  pcol_select *sel = &b->sel;
  memset(sel, 0, sizeof *sel);
  duckdb_value nm = duckdb_bind_get_named_parameter(info, "no_mmap");
  if (nm) {
    b->open.no_mmap = !duckdb_is_null_value(nm) && duckdb_get_bool(nm);
    duckdb_destroy_value(&nm);
  }
  duckdb_value v = duckdb_bind_get_named_parameter(info, "source");
  if (v && !duckdb_is_null_value(v)) {
    int64_t s = duckdb_get_int64(v);
    if (s < 1 || s > UINT32_MAX) {
      duckdb_destroy_value(&v);
      return pcol_error_set(err, PCOL_EINVAL, "source must be a source id (1 or more)");
    }
    sel->source_id = (uint32_t)s;
  }
  if (v) duckdb_destroy_value(&v);
  static const char *const names[2] = {"from", "to"};
  char shown[2][48];
  for (int k = 0; k < 2; k++) {
    v = duckdb_bind_get_named_parameter(info, names[k]);
    if (!v) continue;
    int rc = duckdb_is_null_value(v) ? PCOL_OK : range_end(v, k, sel, shown[k], err);
    duckdb_destroy_value(&v);
    if (rc) return rc;
  }
  /* an empty range is a mistake, refused as the CLI, R and Python refuse it */
  if (sel->has_from && sel->has_to && sel->from_ns > sel->to_ns)
    return pcol_error_set(err, PCOL_EINVAL, "\"from\" := %s is after \"to\" := %s", shown[0], shown[1]);
  return PCOL_OK;
}

static duckdb_type kind_type(pcol_lview_kind k) {
  switch ((int)k) {
  case PCOL_LK_STR:
  case K_TEXT: return DUCKDB_TYPE_VARCHAR;
  case PCOL_LK_U64: return DUCKDB_TYPE_UBIGINT;
  case PCOL_LK_F64: return DUCKDB_TYPE_DOUBLE;
  case PCOL_LK_BOOL: return DUCKDB_TYPE_BOOLEAN;
  default: return DUCKDB_TYPE_BIGINT; /* ID, REF, COUNT (u32), I64 */
  }
}

static void add_column(duckdb_bind_info info, const char *name, duckdb_type type) {
  duckdb_logical_type t = duckdb_create_logical_type(type);
  duckdb_bind_add_result_column(info, name, t);
  duckdb_destroy_logical_type(&t);
}

static void bind_fail(duckdb_bind_info info, const char *fn, pcol_error *err, bind_data *b) {
  char msg[700];
  snprintf(msg, sizeof msg, "%s: %s", fn, err->message[0] ? err->message : pcol_strerror(err->code));
  duckdb_bind_set_error(info, msg);
  bind_free(b);
}

/* An estimate of the view's rows for DuckDB's planner (which side of a join
 * to build): the rows of the stored table behind the view, from the
 * directory of each pcol input (pcol_open: O(sections)); the first 64
 * inputs, scaled to all.  0 when no input is a pcol file (others would
 * have to be converted twice). */
static uint64_t estimate_rows(const bind_data *b) {
  const vdef *vi = &b->v;
  int table = 0;
  for (size_t k = 0; k < vi->ncols && !table; k++) table = vi->cols[k].column > 0 ? vi->cols[k].table : 0;
  uint64_t sum = 0;
  size_t n = b->in.n < 64 ? b->in.n : 64, seen = 0;
  for (size_t i = 0; i < n; i++) {
    pcol_file *f;
    if (pcol_open(b->in.paths[i], &b->open, &f, NULL)) continue;
    seen++;
    if (!strcmp(vi->name, "strings")) sum += pcol_string_count(f);
    else if (table) sum += pcol_rows(f, table);
    else sum += 8 * pcol_rows(f, PCOL_T_SAMPLES); /* sample_locations, sample_labels: a guess */
    pcol_close(f);
  }
  return seen ? sum / seen * b->in.n : 0;
}

static void bind_columns(duckdb_bind_info info, bind_data *b) {
  for (size_t k = 0; k < b->v.ncols; k++) add_column(info, b->v.cols[k].name, kind_type(b->v.cols[k].kind));
  if (b->many) add_column(info, "file", DUCKDB_TYPE_VARCHAR);
  uint64_t est = estimate_rows(b);
  if (est) duckdb_bind_set_cardinality(info, est, false);
  hand_over(&b->handed);
  duckdb_bind_set_bind_data(info, b, bind_free);
}

static void read_pcol_bind(duckdb_bind_info info) {
  pcol_error err = {0};
  bind_data *b = calloc(1, sizeof *b);
  if (!b) {
    duckdb_bind_set_error(info, "read_pcol: out of memory");
    return;
  }
  char *table = named_str(info, "table");
  const pcol_lview_info *vi = pcol_lview_by_name(table ? table : "samples");
  int rc = PCOL_OK;
  if (vi) {
    b->v.name = vi->name;
    b->v.ncols = vi->ncols;
    b->v.sample_view = vi->sample_view;
    memcpy(b->v.cols, vi->cols, (size_t)vi->ncols * sizeof *vi->cols);
  } else { /* the views' names, as the library lists them */
    char names[400] = "";
    const pcol_lview_info *v;
    for (int i = 0; (v = pcol_lview_at(i)) != NULL; i++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", v->name);
    rc = pcol_error_set(&err, PCOL_EINVAL, "unknown table '%s' (%s)", table, names);
  }
  free(table);
  if (!rc) rc = bind_select(info, b, &err);
  if (!rc && !b->v.sample_view && (b->sel.source_id || b->sel.has_from || b->sel.has_to))
    rc = pcol_error_set(&err, PCOL_EINVAL,
                        "source, from and to select samples; they apply to samples, sample_values, "
                        "sample_locations and sample_labels, not %s",
                        b->v.name);
  if (!rc) rc = bind_paths(info, b, "read_pcol", 0, &err); /* a row's file: each file read */
  if (rc) return bind_fail(info, "read_pcol", &err, b);
  bind_columns(info, b);
}

/* pcol_frames(path [, value := NAME] [, by := 'function'|'line'|'file'|'address'|'filefunction']
 *             [, source := ID] [, "from" := T, "to" := T] [, no_mmap := true]) */
static void pcol_frames_bind(duckdb_bind_info info) {
  pcol_error err = {0};
  bind_data *b = calloc(1, sizeof *b);
  if (!b) {
    duckdb_bind_set_error(info, "pcol_frames: out of memory");
    return;
  }
  b->v = (vdef){.name = "frames", .ncols = FRAME_NCOLS, .sample_view = 1, .frames = 1};
  memcpy(b->v.cols, frame_cols, sizeof frame_cols);
  b->value = named_str(info, "value");
  b->by = named_str(info, "by");
  int rc = PCOL_OK;
  pcol_by by_ok;
  if (b->by && pcol_by_parse(b->by, &by_ok))
    rc = pcol_error_set(&err, PCOL_EINVAL, "by must be function, line, file, address or filefunction, not '%s'", b->by);
  if (!rc) rc = bind_select(info, b, &err);
  if (!rc) rc = bind_paths(info, b, "pcol_frames", 0, &err); /* a row's file: each file read */
  if (rc) return bind_fail(info, "pcol_frames", &err, b);
  bind_columns(info, b);
}

/* ------------------------------------------------------------ scan */

#define CHUNK 2048

/* A view with computed columns (or a selection) is read by pcol_lview_scan,
 * which pushes batches through a callback; DuckDB pulls chunks.  The scan
 * runs in a thread of its own that fills one batch of CHUNK rows, hands it
 * over and waits until DuckDB has copied it: memory stays at one batch
 * whatever the view's size (sample_locations of 10M samples). */
enum { P_WANT, P_READY, P_DONE };
typedef struct producer {
  pthread_t th;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int state, cancel;
  size_t n; /* rows in the batch (P_READY) */
  int rc;   /* pcol_lview_scan's result (P_DONE) */
  pcol_error err;
  pcol_file *f;
  const vdef *vi;
  const pcol_select *sel;
  pcol_value_sel value; /* frames: the value and granularity */
  pcol_by by;
  void *cols[MAX_COLS]; /* the batch's arrays (NULL: not wanted) */
  char *mem;
} producer;

static int p_batch(void *ctx, size_t n) {
  producer *p = ctx;
  if (!n) return 0; /* the columns are read */
  pthread_mutex_lock(&p->mu);
  p->n = n;
  p->state = P_READY;
  pthread_cond_broadcast(&p->cv);
  while (p->state == P_READY && !p->cancel) pthread_cond_wait(&p->cv, &p->mu);
  int stop = p->cancel;
  pthread_mutex_unlock(&p->mu);
  return stop; /* > 0: pcol_lview_scan stops, PCOL_OK */
}

static void *p_run(void *arg) {
  producer *p = arg;
  int rc;
  if (p->vi->frames) {
    pcol_frame_rows fb = {.cap = CHUNK};
    frame_arrays(&fb, p->cols);
    rc = pcol_frame_rows_scan(p->f, p->sel, &p->value, p->by, &fb, p_batch, p, &p->err);
  } else {
    pcol_lview_batch lb = {.cap = CHUNK};
    memcpy(lb.cols, p->cols, sizeof lb.cols);
    rc = pcol_lview_scan(p->f, pcol_lview_by_name(p->vi->name), p->sel, &lb, p_batch, p, &p->err);
  }
  pthread_mutex_lock(&p->mu);
  p->rc = rc;
  p->state = P_DONE;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Starts the scan of the view's columns in `want`. */
static int p_start(producer *p, pcol_file *f, const vdef *vi, const pcol_select *sel,
                   const pcol_value_sel *value, pcol_by by, uint32_t want, pcol_error *err) {
  memset(p, 0, sizeof *p);
  p->f = f;
  p->vi = vi;
  p->sel = sel;
  if (value) p->value = *value;
  p->by = by;
  enum { CELL = sizeof(pcol_str) }; /* the widest cell */
  if (!(p->mem = malloc((size_t)vi->ncols * CHUNK * CELL))) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (size_t k = 0; k < vi->ncols; k++)
    if ((want >> k) & 1u) p->cols[k] = p->mem + (size_t)k * CHUNK * CELL;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  if (pthread_create(&p->th, NULL, p_run, p)) {
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->mem);
    p->mem = NULL;
    return pcol_error_set(err, PCOL_ENOMEM, "cannot start a thread");
  }
  return PCOL_OK;
}

/* The next batch: its rows (0 at the end; *rc the scan's result then). */
static size_t p_next(producer *p, int *rc, pcol_error *err) {
  pthread_mutex_lock(&p->mu);
  while (p->state == P_WANT) pthread_cond_wait(&p->cv, &p->mu);
  size_t n = p->state == P_READY ? p->n : 0;
  if (!n) {
    *rc = p->rc;
    if (p->rc) *err = p->err;
  }
  pthread_mutex_unlock(&p->mu);
  return n;
}

/* DuckDB has copied the batch: the next one may be filled. */
static void p_release(producer *p) {
  pthread_mutex_lock(&p->mu);
  if (p->state == P_READY) p->state = P_WANT;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

/* Stops the scan (it ends at its next batch) and waits for the thread. */
static void p_stop(producer *p) {
  if (!p->mem) return;
  pthread_mutex_lock(&p->mu);
  p->cancel = 1;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->th, NULL);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  free(p->mem);
  p->mem = NULL;
}

/* One input being read: its file and, for a stored view, its borrowed
 * columns.  Threads hold a reference while they fill a chunk from it. */
typedef struct input {
  struct input *next; /* the list of inputs not yet closed */
  size_t idx;         /* in bind_data.in */
  pcol_file *f;
  pcb_table t;        /* a stored view's columns (not stream) */
  int refs;
} input;

/* The scan.  A view whose projected columns are all stored as they are (or
 * row ids) and no selection: its columns are borrowed whole from the file
 * (pcb_table_get) and any number of DuckDB's threads take CHUNK rows at a
 * time.  Any other view is streamed by the producer, one thread. */
typedef struct scan_state {
  atomic_int handed; /* hand_over, take_over */
  pthread_mutex_t mu;
  int stream;
  size_t next;      /* the next input to open */
  input *cur;       /* the input rows are taken from */
  uint64_t row;     /* rows of cur handed out */
  uint64_t limit;   /* at most this many rows of cur (row_limit) */
  input *live;      /* every input not yet closed */
  int done;         /* the end, or an error */
  producer p;       /* stream */
  pcb_col bc[MAX_COLS]; /* the producer's batch as columns */
  idx_t ncols;      /* projected columns */
  idx_t *cols;      /* their indexes in the bind's schema */
  uint32_t want;    /* bit k: view column k is projected */
  char *value;      /* pcol_frames of many inputs: the value of them all, by
                     * name (frames_value) */
  int of_union;     /* ... resolved on their union: a file without it has no rows */
} scan_state;

/* A thread's state: the input of its chunk, a buffer for UTF-8 cleaning. */
typedef struct local_state {
  input *in;
  char *sbuf;
  size_t scap;
} local_state;

static void input_close(input *in) {
  pcb_table_free(&in->t);
  pcol_close(in->f);
  free(in);
}

/* Closes the inputs no thread reads any more (under mu). */
static void close_unused(scan_state *s) {
  for (input **pp = &s->live; *pp;) {
    input *in = *pp;
    if (in != s->cur && !in->refs) {
      *pp = in->next;
      input_close(in);
    } else {
      pp = &in->next;
    }
  }
}

/* DuckDB may free the scan on another thread than the last that read it:
 * the mutex orders this after every take_rows (DuckDB's own ordering is
 * invisible to ThreadSanitizer in its uninstrumented code). */
static void scan_free(void *ptr) {
  scan_state *s = ptr;
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  if (s->stream) p_stop(&s->p);
  while (s->live) {
    input *in = s->live;
    s->live = in->next;
    input_close(in);
  }
  pthread_mutex_unlock(&s->mu);
  pthread_mutex_destroy(&s->mu);
  free(s->cols);
  free(s->value);
  free(s);
}

static void local_free(void *ptr) {
  local_state *l = ptr;
  if (!l) return;
  free(l->sbuf);
  free(l);
}

static int has_sel(const pcol_select *sel) { return sel->source_id || sel->has_from || sel->has_to; }

static void top_name_input(const bind_data *b, pcol_error *err);

/* A resolved value as the name pcol_value_resolve reads back in another
 * file (malloc'd): "samples", "pcol.weight" (the weight column: "weight"
 * names a file's stored type where it has one, review rd14a F2),
 * "rprof.alloc", else "TYPE/UNIT" (the
 * Rprof time's is "cpu/nanoseconds", which names it in a file without a
 * stored cpu/nanoseconds). */
static int value_name(const pcol_value_sel *v, char **out, pcol_error *err) {
  const char *fixed = v->vt_id == 0 ? "samples" : v->vt_id == PCOL_VT_WEIGHT ? PCOL_VALUE_WEIGHT_COLUMN
                    : v->vt_id == PCOL_VT_RPROF_ALLOC ? "rprof.alloc" : NULL;
  if (!fixed && (!v->type.ptr || !v->unit.ptr || memchr(v->type.ptr, 0, v->type.len) ||
                 memchr(v->unit.ptr, 0, v->unit.len)))
    return pcol_error_set(err, PCOL_EINVAL, "the value has no name to find it by in each file (a type or "
                          "unit NA, or with a NUL byte)%s", v->vt_id ? "" : "; name one with value :=");
  size_t n = fixed ? strlen(fixed) : v->type.len + 1 + v->unit.len;
  char *p = malloc(n + 1);
  if (!p) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  if (fixed) memcpy(p, fixed, n + 1);
  else snprintf(p, n + 1, "%.*s/%.*s", (int)v->type.len, v->type.ptr, (int)v->unit.len, v->unit.ptr);
  *out = p;
  return PCOL_OK;
}

/* pcol_frames of many inputs adds up one value in every file: value := NAME
 * or THE default of what it reads, resolved as pcol_top and `pcol top`
 * resolve it (pcol_value_resolve on the union of the inputs: sources whose
 * own defaults differ count samples, or the default they all state; a
 * number is the N-th type of them all), into *name, which each file then
 * resolves (open_next; *of_union: a file without it has no rows, as its
 * samples count 0 in pcol top).  Each file's own default added nanoseconds
 * and sample counts into one column (user review 13, F5).  With source := N
 * (each file's own source N, not one of the union's) a named value is each
 * file's, and without one the files' defaults must agree, else the value
 * must be named. */
static int frames_value(bind_data *b, char **name, int *of_union, pcol_error *err) {
  pcol_file *f = NULL;
  pcol_value_sel v;
  int rc = PCOL_OK;
  *name = NULL;
  *of_union = !b->sel.source_id;
  if (!b->sel.source_id) {
    rc = pcb_open_inputs(&b->in, &b->open, &b->sel, &f, err);
    if (!rc) rc = pcol_value_resolve(f, &b->sel, b->value, &v, err);
    if (!rc) rc = value_name(&v, name, err);
    char *note = NULL; /* the CLI's warning (pcol top DIR), on standard error as say() */
    pcol_error e2 = {0};
    if (!rc && !b->value && !pcol_value_default_note(f, &b->sel, NULL, "name one with value := 'TYPE'", &note, &e2) &&
        note)
      fprintf(stderr, "pcol_frames: warning: %s: %s\n", b->label, note);
    free(note);
    if (rc) top_name_input(b, err);
    pcol_close(f);
    return rc;
  }
  for (size_t i = 0; i < b->in.n && !rc; i++) {
    char *nm = NULL;
    rc = pcol_open_any(b->in.paths[i], &b->open, &f, err);
    if (!rc) rc = pcol_value_resolve(f, &b->sel, NULL, &v, err);
    if (!rc) rc = value_name(&v, &nm, err);
    if (rc && strncmp(err->message, b->in.paths[i], strlen(b->in.paths[i])))
      pcol_error_prefix(err, b->in.paths[i]);
    if (!rc && *name && strcmp(*name, nm))
      rc = pcol_error_set(err, PCOL_EINVAL, "source := %u of %s and of %s have different default values "
                          "(%s, %s): name the value to add up with value :=",
                          b->sel.source_id, b->in.paths[0], b->in.paths[i], *name, nm);
    if (!rc && !*name) *name = nm, nm = NULL;
    free(nm);
    pcol_close(f);
    f = NULL;
  }
  if (rc) free(*name), *name = NULL;
  return rc;
}

static void read_pcol_init(duckdb_init_info info) {
  bind_data *b = duckdb_init_get_bind_data(info);
  take_over(&b->handed);
  const vdef *vi = &b->v;
  scan_state *s = calloc(1, sizeof *s);
  idx_t n = duckdb_init_get_column_count(info);
  if (!s || !(s->cols = malloc((n ? n : 1) * sizeof *s->cols))) {
    free(s);
    duckdb_init_set_error(info, "read_pcol: out of memory");
    return;
  }
  pthread_mutex_init(&s->mu, NULL);
  s->ncols = n;
  for (idx_t i = 0; i < n; i++) {
    s->cols[i] = duckdb_init_get_column_index(info, i);
    if (s->cols[i] < (idx_t)vi->ncols) s->want |= 1u << s->cols[i];
  }
  s->stream = vi->frames || (vi->sample_view && has_sel(&b->sel));
  for (size_t k = 0; k < vi->ncols; k++)
    if (((s->want >> k) & 1u) && !vi->cols[k].seq && vi->cols[k].column <= 0) s->stream = 1;
  hand_over(&s->handed);
  duckdb_init_set_init_data(info, s, scan_free);
  if (!s->stream) duckdb_init_set_max_threads(info, 64);
  pcol_error err = {0};
  if (vi->frames && b->many && !(b->value && b->sel.source_id) && frames_value(b, &s->value, &s->of_union, &err)) {
    char msg[800];
    snprintf(msg, sizeof msg, "pcol_frames: %s", err.message[0] ? err.message : pcol_strerror(err.code));
    duckdb_init_set_error(info, msg);
  }
}

static void read_pcol_local_init(duckdb_init_info info) {
  local_state *l = calloc(1, sizeof *l);
  if (!l) duckdb_init_set_error(info, "read_pcol: out of memory");
  else duckdb_init_set_init_data(info, l, local_free);
}

/* A view can have more rows than the file stores (sample_locations of a
 * deep stack shared by many samples): at most PCOL_ROW_BUDGET_PER_BYTE rows
 * per byte of input, as pcol_open bounds the rows it stores. */
static uint64_t row_limit(const char *path) {
  struct stat st;
  uint64_t size = stat(path, &st) ? 0 : (uint64_t)st.st_size;
  uint64_t lim = size > UINT64_MAX / PCOL_ROW_BUDGET_PER_BYTE ? UINT64_MAX : size * PCOL_ROW_BUDGET_PER_BYTE;
  return lim < PCOL_ROW_BUDGET_MIN ? PCOL_ROW_BUDGET_MIN : lim;
}

/* by, checked at bind (pcol_by_parse; label:KEY is read apart) */
static pcol_by by_of(const char *s) {
  pcol_by by = PCOL_BY_FUNCTION;
  if (s && pcol_by_parse(s, &by)) by = PCOL_BY_FUNCTION;
  return by;
}

/* Opens input s->next as s->cur (under mu). */
static int open_next(bind_data *b, scan_state *s, pcol_error *err) {
  input *in = calloc(1, sizeof *in);
  if (!in) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  in->idx = s->next++;
  const char *path = b->in.paths[in->idx];
  const vdef *vi = &b->v;
  pcol_value_sel value = {0};
  int rc = pcol_open_any(path, &b->open, &in->f, err);
  if (rc) in->f = NULL;
  else say_warning(vi->frames ? "pcol_frames" : "read_pcol", err); /* an importer's (the CLI's words) */
  if (rc) {
  } else if (vi->frames && /* the value by this file's value types; of many files, theirs (frames_value) */
           (rc = pcol_value_resolve(in->f, &b->sel, s->value ? s->value : b->value, &value, err)) ==
               PCOL_ENOTFOUND && s->of_union) { /* a file without the value: no rows */
    fprintf(stderr, "pcol_frames: warning: %s has no value %s: its samples count 0 (no rows), as in pcol top\n", path,
            s->value);
    pcol_close(in->f);
    free(in);
    memset(err, 0, sizeof *err);
    return PCOL_OK;
  }
  if (rc) {
  } else if (s->stream) {
    rc = p_start(&s->p, in->f, vi, vi->frames || (vi->sample_view && has_sel(&b->sel)) ? &b->sel : NULL,
                 &value, by_of(b->by), s->want, err);
    for (size_t k = 0; k < vi->ncols; k++)
      s->bc[k] = (pcb_col){.name = vi->cols[k].name, .kind = vi->cols[k].kind, .type = vi->cols[k].type,
                           .data = s->p.cols[k]};
  } else {
    pcb_select ps = {.sel = b->sel};
    rc = pcb_table_get(in->f, vi->name, &ps, s->want, &in->t, err);
  }
  if (rc) {
    if (in->f) pcol_close(in->f);
    free(in);
    /* name the file unless the library's message starts with it */
    if (strncmp(err->message, path, strlen(path))) pcol_error_prefix(err, path);
    return rc;
  }
  in->next = s->live;
  s->live = in;
  s->cur = in;
  s->row = 0;
  s->limit = row_limit(path);
  return PCOL_OK;
}

/* Takes the next rows for thread l (under mu): n (0 at the end), from
 * column set *cols at row *r0 of input l->in. */
static int take_rows(bind_data *b, scan_state *s, local_state *l, idx_t *n, const pcb_col **cols,
                     uint64_t *r0, pcol_error *err) {
  *n = 0;
  if (l->in) l->in->refs--;
  l->in = NULL;
  close_unused(s);
  while (!s->done) {
    input *in = s->cur;
    if (in && s->stream) {
      int rc = PCOL_OK;
      size_t got = p_next(&s->p, &rc, err);
      if (rc) return rc;
      if (got > s->limit - s->row)
        return pcol_error_set(err, PCOL_ETOOBIG,
                              "view %s has more than %llu rows, the limit for an input of this size "
                              "(%d rows a byte)",
                              b->v.name, (unsigned long long)s->limit, PCOL_ROW_BUDGET_PER_BYTE);
      if (got) {
        *n = got;
        *cols = s->bc;
        *r0 = 0;
      }
    } else if (in && s->row < in->t.nrows) {
      uint64_t left = in->t.nrows - s->row;
      *n = left < CHUNK ? (idx_t)left : CHUNK;
      *cols = in->t.cols;
      *r0 = s->row;
    }
    if (*n) {
      s->row += *n;
      l->in = in;
      in->refs++;
      return PCOL_OK;
    }
    if (in) { /* this input is read: the next */
      if (s->stream) p_stop(&s->p);
      s->cur = NULL;
      close_unused(s);
    }
    if (s->next >= b->in.n) break;
    int rc = open_next(b, s, err);
    if (rc) return rc;
  }
  s->done = 1;
  return PCOL_OK;
}

/* String cell i of vec: str as UTF-8 (pcb_utf8_clean's rule), cleaned in
 * *buf (grown to 3 bytes per input byte) when it is not UTF-8 already. */
static int set_str(char **buf, size_t *cap, duckdb_vector vec, idx_t i, pcol_str str,
                   pcol_error *err) {
  if (pcb_utf8_clean_already(str.ptr, str.len)) {
    duckdb_vector_assign_string_element_len(vec, i, str.ptr, str.len);
    return PCOL_OK;
  }
  if (str.len > *cap / 3) {
    size_t c = str.len * 3 + 16;
    char *q = realloc(*buf, c);
    if (!q) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    *buf = q;
    *cap = c;
  }
  size_t n = pcb_utf8_clean(str.ptr, str.len, *buf, NULL);
  duckdb_vector_assign_string_element_len(vec, i, *buf, n);
  return PCOL_OK;
}

/* Cell r of column c as its raw 64-bit pattern (u32 ids widened). */
static int64_t cell(const pcb_col *c, uint64_t r) {
  if (c->seq) return (int64_t)(r + 1);
  if (!c->data) return c->dflt;
  switch (c->type) {
  case PCOL_TYPE_U32: return ((const uint32_t *)c->data)[r];
  case PCOL_TYPE_U8: return ((const uint8_t *)c->data)[r];
  default: return ((const int64_t *)c->data)[r];
  }
}

static void set_null(duckdb_vector vec, uint64_t **valid, idx_t i) {
  if (!*valid) {
    duckdb_vector_ensure_validity_writable(vec);
    *valid = duckdb_vector_get_validity(vec);
  }
  duckdb_validity_set_row_invalid(*valid, i);
}

/* Fills rows [r0, r0 + n) of column c into vec. */
static int fill_column(local_state *l, const pcb_col *c, uint64_t r0, duckdb_vector vec, idx_t n,
                       pcol_error *err) {
  void *out = duckdb_vector_get_data(vec);
  uint64_t *valid = NULL;
  if ((int)c->kind == K_TEXT) { /* pcol_frames' names and files */
    const pcol_str *str = (const pcol_str *)c->data + r0;
    for (idx_t i = 0; i < n; i++) {
      if (!str[i].ptr) set_null(vec, &valid, i);
      else if (set_str(&l->sbuf, &l->scap, vec, i, str[i], err)) return err->code;
    }
    return PCOL_OK;
  }
  for (idx_t i = 0; i < n; i++) {
    int64_t x = cell(c, r0 + i);
    int null = 0;
    switch (c->kind) {
    case PCOL_LK_REF:
    case PCOL_LK_STR: null = x == 0; break;
    case PCOL_LK_I64: null = x == PCOL_NA_I64; break;
    case PCOL_LK_F64: {
      double d;
      memcpy(&d, &x, sizeof d);
      null = d != d;
      break;
    }
    default: break;
    }
    if (null) {
      set_null(vec, &valid, i);
      continue;
    }
    switch (c->kind) {
    case PCOL_LK_STR: {
      pcol_str str;
      int rc = pcol_string(l->in->f, (uint32_t)x, &str, err);
      if (!rc) rc = set_str(&l->sbuf, &l->scap, vec, i, str, err);
      if (rc) return rc;
      break;
    }
    case PCOL_LK_BOOL: ((bool *)out)[i] = x != 0; break;
    default: ((int64_t *)out)[i] = x; break; /* BIGINT, UBIGINT, DOUBLE: 8 bytes as they are */
    }
  }
  return PCOL_OK;
}

/* The query fails with "FN: message" (the message names the file). */
static void fn_error(duckdb_function_info info, const char *fn, const pcol_error *err) {
  char msg[800];
  snprintf(msg, sizeof msg, "%s: %s", fn, err->message[0] ? err->message : pcol_strerror(err->code));
  duckdb_function_set_error(info, msg);
}

/* The scan stops for every thread; the message names the file. */
static void scan_fail(duckdb_function_info info, bind_data *b, scan_state *s, size_t idx,
                      pcol_error *err) {
  const char *path = b->in.paths[idx < b->in.n ? idx : 0];
  if (strncmp(err->message, path, strlen(path))) pcol_error_prefix(err, path);
  pthread_mutex_lock(&s->mu);
  s->done = 1;
  pthread_mutex_unlock(&s->mu);
  fn_error(info, b->v.frames ? "pcol_frames" : "read_pcol", err);
}

static void read_pcol_scan(duckdb_function_info info, duckdb_data_chunk out) {
  bind_data *b = duckdb_function_get_bind_data(info);
  scan_state *s = duckdb_function_get_init_data(info);
  local_state *l = duckdb_function_get_local_init_data(info);
  take_over(&b->handed);
  take_over(&s->handed);
  pcol_error err = {0};
  idx_t n;
  const pcb_col *cols = NULL;
  uint64_t r0 = 0;
  if (!l) return; /* local init failed: DuckDB has its error */
  pthread_mutex_lock(&s->mu);
  int rc = take_rows(b, s, l, &n, &cols, &r0, &err);
  /* an error is about the input being read, or the one that failed to open */
  size_t at = s->cur ? s->cur->idx : s->next - 1;
  pthread_mutex_unlock(&s->mu);
  if (rc) return scan_fail(info, b, s, at, &err);
  for (idx_t i = 0; i < s->ncols && n; i++) {
    duckdb_vector vec = duckdb_data_chunk_get_vector(out, i);
    idx_t k = s->cols[i];
    if (k < (idx_t)b->v.ncols) {
      if (fill_column(l, &cols[k], r0, vec, n, &err)) return scan_fail(info, b, s, l->in->idx, &err);
    } else if (k == (idx_t)b->v.ncols && b->many) {
      const char *p = b->in.paths[l->in->idx];
      for (idx_t r = 0; r < n; r++) duckdb_vector_assign_string_element(vec, r, p);
    } else { /* a column DuckDB adds (none is declared): NULL, whatever its type */
      duckdb_vector_ensure_validity_writable(vec);
      uint64_t *valid = duckdb_vector_get_validity(vec);
      for (idx_t r = 0; r < n; r++) duckdb_validity_set_row_invalid(valid, r);
    }
  }
  if (s->stream && n) p_release(&s->p);
  duckdb_data_chunk_set_size(out, n);
}

/* ------------------------------------------------------------ pcol_top */

typedef struct top_state {
  atomic_int handed; /* hand_over, take_over */
  pcol_file *f; /* the union, open while the rows (their names) are read */
  pcol_top t;
  int have;
  size_t row;
  char *sbuf; /* UTF-8 cleaning */
  size_t scap;
} top_state;

static void top_free(void *p) {
  top_state *s = p;
  if (!s) return;
  if (s->have) pcol_top_free(&s->t);
  pcol_close(s->f);
  free(s->sbuf);
  free(s);
}

static void pcol_top_bind(duckdb_bind_info info) {
  pcol_error err = {0};
  bind_data *b = calloc(1, sizeof *b);
  if (!b) {
    duckdb_bind_set_error(info, "pcol_top: out of memory");
    return;
  }
  b->value = named_str(info, "value");
  b->by = named_str(info, "by");
  int rc = PCOL_OK;
  pcol_by by_ok;
  /* divide_by := F (pprof's -divide_by): refused as the R and Python
   * views refuse it, one rule with `pcol top --format json` (cli_view.c):
   * the rows are the raw sums, never silently undivided */
  duckdb_value dv = duckdb_bind_get_named_parameter(info, "divide_by");
  if (dv) {
    duckdb_destroy_value(&dv);
    rc = pcol_error_set(&err, PCOL_EINVAL, "divide_by: a view's numbers are raw, as those of `pcol VIEW "
                        "--format json`, which refuses --divide-by (pprof's -divide_by is for the text, "
                        "pcol unpack --to pprof and flame); divide the columns instead");
  }
  if (!rc && b->by && pcol_by_parse(b->by, &by_ok) && (strncmp(b->by, "label:", 6) || !b->by[6]))
    rc = pcol_error_set(&err, PCOL_EINVAL, "by must be function, line, file, address, filefunction or "
                        "label:KEY, not '%s'", b->by);
  if (!rc) rc = bind_select(info, b, &err);
  if (!rc) rc = bind_paths(info, b, "pcol_top", 1, &err);
  if (rc) return bind_fail(info, "pcol_top", &err, b);
  add_column(info, "name", DUCKDB_TYPE_VARCHAR);
  add_column(info, "flat", DUCKDB_TYPE_HUGEINT);
  add_column(info, "cum", DUCKDB_TYPE_HUGEINT);
  /* the value added up, as pcol top --format json's "type" and "unit": the
   * default of inputs whose defaults differ is "samples"/"count" (pcol top
   * warns of it; a query has these columns to say it) */
  add_column(info, "type", DUCKDB_TYPE_VARCHAR);
  add_column(info, "unit", DUCKDB_TYPE_VARCHAR);
  hand_over(&b->handed);
  duckdb_bind_set_bind_data(info, b, bind_free);
}

static void pcol_top_init(duckdb_init_info info) {
  top_state *s = calloc(1, sizeof *s);
  if (!s) {
    duckdb_init_set_error(info, "pcol_top: out of memory");
    return;
  }
  hand_over(&s->handed);
  duckdb_init_set_init_data(info, s, top_free);
}

/* Computed on the first call (errors then reach the query). */
static int top_compute(bind_data *b, top_state *s, pcol_error *err) {
  int rc = pcb_open_inputs(&b->in, &b->open, &b->sel, &s->f, err); /* (one file: pcol_open_any) */
  if (!rc) say_warning("pcol_top", err);
  pcol_value_sel v;
  if (!rc) rc = pcol_value_resolve(s->f, &b->sel, b->value, &v, err);
  if (!rc) { /* the data warnings of pcol top (its filters', its value's, its range's), its words (pcb_view_notes) */
    const char *label = b->label;
    char *notes = pcb_view_notes(&s->f, 1, b->by, &b->sel, NULL, &v, b->value != NULL, &label, "name one with value := 'TYPE'", 1);
    for (const char *l = notes, *nl; l && (nl = strchr(l, '\n')); l = nl + 1)
      fprintf(stderr, "pcol_top: %.*s\n", (int)(nl - l), l);
    free(notes);
  }
  if (!rc && b->by && !strncmp(b->by, "label:", 6))
    rc = pcol_top_by_label(s->f, &b->sel, &v, b->by + 6, &s->t, err);
  else if (!rc)
    rc = pcol_top_compute(s->f, &b->sel, &v, by_of(b->by), &s->t, err);
  if (!rc) s->have = 1;
  return rc;
}

/* pcol_top's error names the input: damage found in a column names the
 * table only (core), as in `pcol top`, which names its argument
 * (cli_fail_in); an input pcol_open_many could not read is named already. */
static void top_name_input(const bind_data *b, pcol_error *err) {
  const pcol_inputs *in = &b->in;
  const char *first = in->first_is_union ? in->index_name : in->paths[0]; /* (not its descriptor) */
  for (size_t i = 0; i < in->n; i++)
    if (strstr(err->message, i ? in->paths[i] : first)) return;
  if (in->n == 1) {
    pcol_error_prefix(err, first);
  } else {
    char label[320];
    snprintf(label, sizeof label, "the union of %s and %zu more", first, in->n - 1);
    pcol_error_prefix(err, label);
  }
}

static duckdb_hugeint huge(pcol_sum v) {
  duckdb_hugeint h;
  h.lower = (uint64_t)v;
  h.upper = (int64_t)(v >> 64);
  return h;
}

static void pcol_top_scan(duckdb_function_info info, duckdb_data_chunk out) {
  bind_data *b = duckdb_function_get_bind_data(info);
  top_state *s = duckdb_function_get_init_data(info);
  take_over(&b->handed);
  take_over(&s->handed);
  pcol_error err = {0};
  if (!s->have && top_compute(b, s, &err)) {
    top_name_input(b, &err);
    return fn_error(info, "pcol_top", &err);
  }
  idx_t n = 0;
  duckdb_vector vn = duckdb_data_chunk_get_vector(out, 0), vf = duckdb_data_chunk_get_vector(out, 1),
                vc = duckdb_data_chunk_get_vector(out, 2);
  duckdb_vector vt = duckdb_data_chunk_get_vector(out, 3), vu = duckdb_data_chunk_get_vector(out, 4);
  duckdb_hugeint *flat = duckdb_vector_get_data(vf), *cum = duckdb_vector_get_data(vc);
  pcol_str ty = s->t.value.type.ptr ? s->t.value.type : (pcol_str){"", 0},
           un = s->t.value.unit.ptr ? s->t.value.unit : (pcol_str){"", 0};
  for (; n < CHUNK && s->row < s->t.nrows; n++, s->row++) {
    const pcol_top_row *r = &s->t.rows[s->row];
    pcol_str nm = r->name.ptr ? r->name : (pcol_str){"", 0};
    if (set_str(&s->sbuf, &s->scap, vn, n, nm, &err) || set_str(&s->sbuf, &s->scap, vt, n, ty, &err) ||
        set_str(&s->sbuf, &s->scap, vu, n, un, &err))
      return fn_error(info, "pcol_top", &err);
    flat[n] = huge(r->flat);
    cum[n] = huge(r->cum);
  }
  duckdb_data_chunk_set_size(out, n);
}

/* ------------------------------------------------------------ entry */

static duckdb_state add_named(duckdb_table_function tf, const char *name, duckdb_type type) {
  duckdb_logical_type t = duckdb_create_logical_type(type);
  duckdb_table_function_add_named_parameter(tf, name, t);
  duckdb_destroy_logical_type(&t);
  return DuckDBSuccess;
}

static int register_fn(duckdb_connection con, const char *name, duckdb_table_function_bind_t bind,
                       duckdb_table_function_init_t init, duckdb_table_function_t fn, int is_top,
                       int is_frames) {
  duckdb_table_function tf = duckdb_create_table_function();
  duckdb_table_function_set_name(tf, name);
  duckdb_logical_type any = duckdb_create_logical_type(DUCKDB_TYPE_ANY);
  duckdb_table_function_add_parameter(tf, any); /* VARCHAR or LIST(VARCHAR) */
  duckdb_destroy_logical_type(&any);
  if (is_top || is_frames) {
    add_named(tf, "value", DUCKDB_TYPE_VARCHAR);
    add_named(tf, "by", DUCKDB_TYPE_VARCHAR);
    if (is_top) add_named(tf, "divide_by", DUCKDB_TYPE_DOUBLE); /* refused: pcol_top_bind */
  } else {
    add_named(tf, "table", DUCKDB_TYPE_VARCHAR);
  }
  add_named(tf, "source", DUCKDB_TYPE_BIGINT);
  add_named(tf, "from", DUCKDB_TYPE_ANY); /* seconds, or a wall-clock time (range_end) */
  add_named(tf, "to", DUCKDB_TYPE_ANY);
  add_named(tf, "no_mmap", DUCKDB_TYPE_BOOLEAN);
  duckdb_table_function_set_bind(tf, bind);
  duckdb_table_function_set_init(tf, init);
  duckdb_table_function_set_function(tf, fn);
  if (!is_top) {
    duckdb_table_function_set_local_init(tf, read_pcol_local_init);
    duckdb_table_function_supports_projection_pushdown(tf, true);
  }
  duckdb_state st = duckdb_register_table_function(con, tf);
  duckdb_destroy_table_function(&tf);
  return st == DuckDBSuccess;
}

DUCKDB_EXTENSION_ENTRYPOINT(duckdb_connection connection, duckdb_extension_info info,
                            struct duckdb_extension_access *access) {
  if (!register_fn(connection, "read_pcol", read_pcol_bind, read_pcol_init, read_pcol_scan, 0, 0) ||
      !register_fn(connection, "pcol_top", pcol_top_bind, pcol_top_init, pcol_top_scan, 1, 0) ||
      !register_fn(connection, "pcol_frames", pcol_frames_bind, read_pcol_init, read_pcol_scan, 0, 1)) {
    access->set_error(info, "pcol: could not register read_pcol/pcol_top/pcol_frames");
    return false;
  }
  return true;
}
