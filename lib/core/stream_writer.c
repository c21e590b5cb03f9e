/* stream_writer.c — the streaming writer (pcol_writer_*, include/pcol.h):
 * samples added one at a time into a builder per file, published by
 * pcol_builder_write (so the layout and the atomic rename stay in
 * writer.c and out.c) at close or at each roll.
 *
 * The builder holds a file's tables in memory (its sample columns past
 * 16 MiB in temporary files, lib/core/spill.c): the writer's memory is
 * bounded by the roll size.  A function or location added by id lives in
 * the writer's dictionary (its own builder, for interning and
 * deduplication, plus the rows in plain arrays) and is copied into a file's
 * builder the first time a sample of that file uses it. */
#include "pcol.h"
#include "keys.h"     /* PCOL_META_MAX_DURATION_NS, PCOL_SRC_PPROF, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom, PCOL_RETURN_NOT_OK_WITH_ERROR */
#include "buf.h"      /* PCOL_GROW, pcol_grow */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free, pcol_b_source_timestamp_set */
#include "count.h"    /* pcol_unit_ns */
#include "writer.h"   /* pcol_write_options_check, pcol_out_temp_letters, pcol_out_temp_marked */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h> /* AT_SYMLINK_NOFOLLOW */
#include <libgen.h>
#include <stdbool.h>
#include <sys/file.h> /* flock */
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

typedef struct dict_fn {
  uint32_t name, system_name, filename; /* dictionary string ids */
  int64_t start_line;
} dict_fn;
typedef struct dict_loc {
  uint64_t address;
  size_t first_line, nlines; /* into lines */
} dict_loc;
typedef struct dict_line {
  uint32_t fn; /* dictionary function id */
  int64_t line;
} dict_line;

struct pcol_writer {
  char *path;             /* as given (no rolling) */
  char *stem, *suffix;    /* rolled names: stem-TIME-SEQ suffix */
  char *source_type, *source_uri, *period_type, *period_unit;
  char **meta;            /* 2 x nmeta */
  size_t nmeta;
  pcol_writer_value_type *vts;
  size_t nvts;
  int64_t period;
  uint64_t roll_samples, roll_ns;
  pcol_write_options wopt;
  void (*on_file)(void *ctx, const char *path);
  void *ctx;
  /* the dictionary of pcol_writer_function / pcol_writer_location */
  pcol_builder *dict;
  dict_fn *fns;
  size_t nfns, cfns;
  dict_loc *locs;
  size_t nlocs, clocs;
  dict_line *lines;
  size_t nlines, clines;
  /* the current file */
  pcol_builder *b; /* NULL until its first sample */
  uint32_t src, *vt;
  pcol_stack_memo memo;
  uint32_t *fmap, *lmap; /* dictionary id -> this file's id (0: not yet) */
  size_t cfmap, clmap;
  int64_t ts_sec;          /* the source's timestamp (s since the epoch) */
  int64_t start_ns;        /* the file's start (ns since the epoch): its
                            * time_nanos, the samples' times count from it */
  int any_time;
  int64_t last_time, last_end, max_dur;
  int64_t prev_end;        /* the previous file's end (PCOL_NA_I64: none) */
  int64_t tick_ns;         /* a point sample's extent: the period in ns (its unit
                            * a time unit, THE time-unit rule), or 0 */
  uint64_t began_mono;     /* when the file began (monotonic ns) */
  uint64_t seq, files;
  /* scratch */
  uint32_t *stack;
  size_t cstack;
  pcol_label_row *lab;
  size_t clab;
};

static uint64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
static int64_t real_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}
/* floor(a / b) for b > 0 */
static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b < 0); }

static int dup_str(const char *s, char **out) {
  *out = NULL;
  if (!s) return PCOL_OK;
  return (*out = strdup(s)) ? PCOL_OK : PCOL_ENOMEM;
}

static void file_reset(pcol_writer *w) {
  pcol_builder_free(w->b);
  w->b = NULL;
  pcol_stack_memo_free(&w->memo);
  memset(&w->memo, 0, sizeof w->memo);
  if (w->fmap) memset(w->fmap, 0, w->cfmap * sizeof *w->fmap);
  if (w->lmap) memset(w->lmap, 0, w->clmap * sizeof *w->lmap);
  w->any_time = 0;
  w->last_time = PCOL_NA_I64;
  w->last_end = PCOL_NA_I64;
  w->max_dur = 0;
}

static void writer_free(pcol_writer *w) {
  if (!w) return;
  file_reset(w);
  pcol_builder_free(w->dict);
  free(w->path);
  free(w->stem);
  free(w->suffix);
  free(w->source_type);
  free(w->source_uri);
  free(w->period_type);
  free(w->period_unit);
  for (size_t i = 0; i < 2 * w->nmeta; i++) free(w->meta[i]);
  free(w->meta);
  for (size_t i = 0; i < w->nvts; i++) {
    free((char *)w->vts[i].type);
    free((char *)w->vts[i].unit);
  }
  free(w->vts);
  free(w->vt);
  free(w->fns);
  free(w->locs);
  free(w->lines);
  free(w->fmap);
  free(w->lmap);
  free(w->stack);
  free(w->lab);
  free(w);
}

/* The most a rolled name adds to the stem's (next_path):
 * "-YYYYMMDDTHHMMSS" 16, ".mmmZ" 5, "-" and the sequence number (at most
 * 20 digits) 21, ".pcol" 5. */
#define ROLL_NAME_EXTRA 47

static int rolled(const pcol_writer_options *o) { return o->roll_samples || o->roll_ns; }

/* The length of a rolled writer's stem in name (its length n): name
 * without a ".pcol" at its end (next_path puts the stamp before it). */
static size_t stem_len(const char *name, size_t n) {
  return n >= 5 && strcmp(name + n - 5, ".pcol") == 0 ? n - 5 : n;
}

/* Every name the writer will publish can be made, so that no option fails
 * at the first publication (and loses that file's samples): the directory
 * `path` goes into exists and is writable; `path` itself is not a
 * directory (a rename cannot replace one); its file name, or a rolled
 * name with the longest sequence number, fits the directory's NAME_MAX. */
static int check_target(const char *path, const pcol_writer_options *o, pcol_error *err) {
  char *p = strdup(path);
  if (!p) return pcol_oom(err);
  const char *d = dirname(p);
  struct stat st;
  int rc = PCOL_OK;
  if (stat(d, &st) != 0)
    rc = pcol_error_set(err, PCOL_EIO, "%s: directory %s: %s", path, d, strerror(errno));
  else if (!S_ISDIR(st.st_mode))
    rc = pcol_error_set(err, PCOL_EIO, "%s: %s is not a directory", path, d);
  else if (access(d, W_OK | X_OK) != 0)
    rc = pcol_error_set(err, PCOL_EIO, "%s: directory %s: %s", path, d, strerror(errno));
  else if (!rolled(o) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    rc = pcol_error_set(err, PCOL_EINVAL, "writer: %s is a directory: the path names the file "
                        "to publish", path);
  if (!rc) {
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    size_t n = strlen(base);
    if (rolled(o)) n = stem_len(base, n) + ROLL_NAME_EXTRA;
    long name_max = pathconf(d, _PC_NAME_MAX);
    if (name_max <= 0) name_max = 255;
    if (!*base)
      rc = pcol_error_set(err, PCOL_EINVAL, "writer: %s names no file", path);
    else if (n > (size_t)name_max)
      rc = pcol_error_set(err, PCOL_EINVAL, "writer: %s: %s %zu bytes long, over the directory's "
                          "limit of %ld", path, rolled(o) ? "a rolled file name can be" : "the file name is",
                          n, name_max);
  }
  free(p);
  return rc;
}

static int copy_options(pcol_writer *w, const char *path, const pcol_writer_options *o) {
  PCOL_RETURN_NOT_OK(dup_str(path, &w->path));
  PCOL_RETURN_NOT_OK(dup_str(o->source_type ? o->source_type : PCOL_SRC_PPROF, &w->source_type));
  PCOL_RETURN_NOT_OK(dup_str(o->source_uri, &w->source_uri));
  PCOL_RETURN_NOT_OK(dup_str(o->period_type, &w->period_type));
  PCOL_RETURN_NOT_OK(dup_str(o->period_unit, &w->period_unit));
  if (o->nmeta && !(w->meta = calloc(2 * o->nmeta, sizeof *w->meta))) return PCOL_ENOMEM;
  w->nmeta = o->nmeta;
  for (size_t i = 0; i < 2 * o->nmeta; i++) PCOL_RETURN_NOT_OK(dup_str(o->meta[i], &w->meta[i]));
  if (!(w->vts = calloc(o->nvalue_types, sizeof *w->vts)) ||
      !(w->vt = calloc(o->nvalue_types, sizeof *w->vt)))
    return PCOL_ENOMEM;
  w->nvts = o->nvalue_types;
  for (size_t i = 0; i < o->nvalue_types; i++) {
    PCOL_RETURN_NOT_OK(dup_str(o->value_types[i].type, (char **)&w->vts[i].type));
    PCOL_RETURN_NOT_OK(dup_str(o->value_types[i].unit, (char **)&w->vts[i].unit));
  }
  w->period = o->period;
  w->roll_samples = o->roll_samples;
  w->roll_ns = o->roll_ns;
  w->wopt = o->write;
  w->on_file = o->on_file;
  w->ctx = o->ctx;
  /* a period in any time unit ("nanoseconds", "microseconds", "ms", ...:
   * THE time-unit rule, as a source's interval is read back, lasts.c) */
  int64_t ns1 = o->period_unit ? pcol_unit_ns((pcol_str){o->period_unit, strlen(o->period_unit)}) : 0;
  w->tick_ns = ns1 && o->period <= INT64_MAX / ns1 ? o->period * ns1 : 0;
  w->prev_end = PCOL_NA_I64;
  if (rolled(o)) { /* "a/prof.pcol" -> stem "a/prof", suffix ".pcol" */
    size_t n = strlen(path);
    size_t k = stem_len(path, n);
    if (!(w->stem = strndup(path, k))) return PCOL_ENOMEM;
    PCOL_RETURN_NOT_OK(dup_str(".pcol", &w->suffix));
  }
  return PCOL_OK;
}

/* Meta keys the writer writes itself, or that readers prefer over them
 * (spec.md §7's start and period rules): a caller's row would override the
 * writer's value (a wrong start or period with PCOL_OK). */
static const struct {
  const char *key, *instead;
} writer_keys[] = {
    {PPROF_META_PERIOD, "the period option"},
    {PPROF_META_PERIOD_TYPE_TYPE, "the period_type option"},
    {PPROF_META_PERIOD_TYPE_UNIT, "the period_unit option"},
    {OTLP_META_PERIOD, "the period option"},
    {OTLP_META_PERIOD_TYPE_TYPE, "the period_type option"},
    {OTLP_META_PERIOD_TYPE_UNIT, "the period_unit option"},
    {PPROF_META_TIME_NANOS, "the samples' time_unix_ns"},
    {PPROF_META_DURATION_NANOS, "the samples' time_unix_ns and duration_ns"},
    {OTLP_META_TIME_UNIX_NANO, "the samples' time_unix_ns"},
    {OTLP_META_DURATION_NANO, "the samples' time_unix_ns and duration_ns"},
    {PCOL_META_MAX_DURATION_NS, "the samples' duration_ns"},
};

static int check_options(const char *path, const pcol_writer_options *o, pcol_error *err) {
  if (!path || !*path) return pcol_error_set(err, PCOL_EINVAL, "writer: no output path");
  if (strcmp(path, "-") == 0)
    return pcol_error_set(err, PCOL_EINVAL, "writer: %s: a writer publishes files by rename, "
                          "not to standard output", path);
  if (!o) return pcol_error_set(err, PCOL_EINVAL, "writer: no options");
  if (o->nvalue_types == 0 || !o->value_types)
    return pcol_error_set(err, PCOL_EINVAL, "writer: at least one value type is needed");
  if (o->nvalue_types > UINT32_MAX)
    return pcol_error_set(err, PCOL_EINVAL, "writer: too many value types");
  for (size_t i = 0; i < o->nvalue_types; i++)
    if (!o->value_types[i].type || !o->value_types[i].unit)
      return pcol_error_set(err, PCOL_EINVAL, "writer: value type %zu has no %s", i + 1,
                            o->value_types[i].type ? "unit" : "type");
  for (size_t i = 0; i < o->nvalue_types; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(o->value_types[i].type, o->value_types[j].type) == 0 &&
          strcmp(o->value_types[i].unit, o->value_types[j].unit) == 0)
        return pcol_error_set(err, PCOL_EINVAL, "writer: value type %zu (%s %s) repeats value "
                              "type %zu", i + 1, o->value_types[i].type, o->value_types[i].unit,
                              j + 1);
  if (o->nmeta && !o->meta) return pcol_error_set(err, PCOL_EINVAL, "writer: nmeta without meta");
  if (o->nmeta > SIZE_MAX / 4) return pcol_error_set(err, PCOL_EINVAL, "writer: too many meta rows");
  for (size_t i = 0; i < o->nmeta; i++)
    if (!o->meta[2 * i] || !o->meta[2 * i + 1])
      return pcol_error_set(err, PCOL_EINVAL, "writer: meta row %zu has no %s", i + 1,
                            o->meta[2 * i] ? "value" : "key");
  for (size_t i = 0; i < o->nmeta; i++)
    for (size_t k = 0; k < sizeof writer_keys / sizeof *writer_keys; k++)
      if (strcmp(o->meta[2 * i], writer_keys[k].key) == 0)
        return pcol_error_set(err, PCOL_EINVAL, "writer: meta row %zu: key %s is the writer's "
                              "(use %s)", i + 1, writer_keys[k].key, writer_keys[k].instead);
  if (o->period < 0) return pcol_error_set(err, PCOL_EINVAL, "writer: negative period");
  if (o->period && (!o->period_type || !o->period_unit))
    return pcol_error_set(err, PCOL_EINVAL, "writer: a period needs its type and unit");
  return PCOL_OK;
}

/* A temporary file a publication leaves only when its process dies
 * between making and renaming it (out.c: ".NAME.tmp-XXXXXX" beside NAME,
 * locked by its maker while open); one unchanged this long and unlocked
 * is no live process's.  The age guards the files of a maker that took
 * no lock (an older pcol). */
#define STALE_TEMP_SECONDS 600

/* Whether s[0..n) is what next_path adds to a rolled writer's stem:
 * "-YYYYMMDDTHHMMSS.mmmZ-" then the sequence number (6 digits or more) and
 * ".pcol" (next_path's format, which this must follow); cut: or the start
 * of that, as a temporary file's name cut to fit NAME_MAX keeps it. */
static bool rolled_tail(const char *s, size_t n, bool cut) {
  static const char shape[] = "-DDDDDDDDTDDDDDD.DDDZ-DDDDDD"; /* D: a digit */
  size_t k = sizeof shape - 1, i;
  for (i = 0; i < k && i < n; i++)
    if (shape[i] == 'D' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i]) return false;
  while (i < n && s[i] >= '0' && s[i] <= '9') i++;
  /* then ".pcol", or (cut) its start */
  return i >= k && n - i <= 5 && !memcmp(s + i, ".pcol", n - i) && (cut || n - i == 5);
}

/* Removes what killed writers of w's path left beside it: "." + the name
 * of the file it publishes (a rolled writer's: its stem's name and a
 * rolled tail; a plain one's: the file its path names after symbolic
 * links, as out.c writes through a link) cut as out.c cuts it to fit the
 * directory's NAME_MAX + ".tmp-" and 6 of out.c's letters, a regular file
 * of this user that begins with the magic (as writer.c's temporary file
 * does from its first write: a user's own file of that name, a
 * ".data.pcol.tmp-backup" or a copy of another kind, is not pcol's to
 * remove), unchanged for STALE_TEMP_SECONDS and whose lock (out.c) no
 * process holds (review 16 m3: an agent restarted often gathered them;
 * hidden, so readers skip them, but nothing removed them).  An empty one
 * (killed, or the power lost, before its first write) and one of pcol 1.1
 * (its header's zeros first) prove nothing, and are left.  A cut name is
 * also the temporary file of every other name that starts the same: one
 * of those that is unlocked and unchanged that long is a killed writer's
 * too.
 * Nothing is said: a failure leaves the file as it was. */
static void remove_stale_temps(const pcol_writer *w) {
  char *name = w->stem ? strdup(w->stem) : pcol_out_target(w->path, NULL);
  char *p = name ? strdup(name) : NULL;
  if (!p) {
    free(name);
    return;
  }
  const char *slash = strrchr(name, '/'), *base = slash ? slash + 1 : name, *d = dirname(p);
  size_t bn = strlen(base), keep = pcol_out_temp_keep(d), tail = sizeof ".tmp-XXXXXX" - 1;
  DIR *dir = opendir(d);
  time_t now = time(NULL);
  struct dirent *e;
  while (dir && (e = readdir(dir))) {
    const char *n = e->d_name;
    size_t nl = strlen(n), m = nl - 1 - tail; /* the name kept (when nl is long enough) */
    if (n[0] != '.' || nl < 1 + tail || strncmp(n + nl - tail, ".tmp-", 5) || m > keep ||
        !pcol_out_temp_letters(n + nl - 6))
      continue;
    if (w->stem ? m < bn || strncmp(n + 1, base, bn) || !rolled_tail(n + 1 + bn, m - bn, m == keep)
                : m != (bn < keep ? bn : keep) || strncmp(n + 1, base, m))
      continue;
    int fd = openat(dirfd(dir), n, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) continue;
    if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() && now - st.st_mtime >= STALE_TEMP_SECONDS &&
        pcol_out_temp_marked(fd) && !flock(fd, LOCK_EX | LOCK_NB) && unlinkat(dirfd(dir), n, 0)) { /* (left as it was) */
    }
    close(fd);
  }
  if (dir) closedir(dir);
  free(p);
  free(name);
}

int pcol_writer_open(pcol_writer **out, const char *path, const pcol_writer_options *opt,
                     pcol_error *err) {
  if (!out) return pcol_error_set(err, PCOL_EINVAL, "writer: no result pointer");
  *out = NULL;
  PCOL_RETURN_NOT_OK(check_options(path, opt, err));
  PCOL_RETURN_NOT_OK(pcol_write_options_check(&opt->write, err));
  PCOL_RETURN_NOT_OK(check_target(path, opt, err));
  pcol_writer *w = calloc(1, sizeof *w);
  if (!w) return pcol_oom(err);
  if (copy_options(w, path, opt) || pcol_builder_new(&w->dict, err)) {
    writer_free(w);
    return pcol_oom(err);
  }
  remove_stale_temps(w);
  file_reset(w);
  *out = w;
  return PCOL_OK;
}

/* ---------------------------------------------------------- dictionary */

static int dict_str(pcol_writer *w, const char *s, uint32_t *id) {
  return pcol_b_cstr(w->dict, s, id, NULL);
}

int pcol_writer_function(pcol_writer *w, const char *name, const char *system_name,
                         const char *file, int64_t start_line, uint32_t *id, pcol_error *err) {
  if (!w || !id) return pcol_error_set(err, PCOL_EINVAL, "writer: function: NULL argument");
  pcol_function_row r = {0, 0, 0, start_line};
  uint32_t fid;
  PCOL_RETURN_NOT_OK_WITH_ERROR(dict_str(w, name, &r.name), err);
  PCOL_RETURN_NOT_OK_WITH_ERROR(dict_str(w, system_name, &r.system_name), err);
  PCOL_RETURN_NOT_OK_WITH_ERROR(dict_str(w, file, &r.filename), err);
  PCOL_RETURN_NOT_OK(pcol_b_function(w->dict, &r, &fid, err));
  if (fid > w->nfns) { /* new: keep its row (ids are dense, in order) */
    if (PCOL_GROW(w->fns, w->nfns, w->cfns)) return pcol_oom(err);
    w->fns[w->nfns++] = (dict_fn){r.name, r.system_name, r.filename, start_line};
  }
  *id = fid;
  return PCOL_OK;
}

int pcol_writer_location(pcol_writer *w, uint64_t address, const uint32_t *functions,
                         const int64_t *lines, size_t nlines, uint32_t *id, pcol_error *err) {
  if (!w || !id || (nlines && (!functions || !lines)))
    return pcol_error_set(err, PCOL_EINVAL, "writer: location: NULL argument");
  if (nlines > UINT32_MAX) return pcol_error_set(err, PCOL_EINVAL, "writer: location: too many lines");
  pcol_line_row *lr = nlines ? malloc(nlines * sizeof *lr) : NULL;
  if (nlines && !lr) return pcol_oom(err);
  for (size_t i = 0; i < nlines; i++) {
    if (functions[i] == 0 || functions[i] > w->nfns) {
      free(lr);
      return pcol_error_set(err, PCOL_EINVAL, "writer: location: line %zu names function %u, "
                            "but %zu functions were added", i + 1, functions[i], w->nfns);
    }
    lr[i] = (pcol_line_row){functions[i], lines[i] ? lines[i] : PCOL_NA_I64, PCOL_NA_I64};
  }
  uint32_t lid;
  int rc = pcol_b_location(w->dict, 0, address, 0, lr, nlines, &lid, err);
  if (rc == PCOL_OK && lid > w->nlocs) {
    if (PCOL_GROW(w->locs, w->nlocs, w->clocs)) rc = PCOL_ENOMEM;
    while (rc == PCOL_OK && w->nlines + nlines > w->clines)
      if (pcol_grow(&w->lines, &w->clines, sizeof *w->lines)) rc = PCOL_ENOMEM;
    if (rc == PCOL_OK) {
      w->locs[w->nlocs++] = (dict_loc){address, w->nlines, nlines};
      for (size_t i = 0; i < nlines; i++)
        w->lines[w->nlines++] = (dict_line){lr[i].function_id, lr[i].line};
    }
  }
  free(lr);
  if (rc) return pcol_error_set(err, rc, "writer: location: %s", pcol_strerror(rc));
  *id = lid;
  return PCOL_OK;
}

/* A dictionary string into the file's builder. */
static int file_str(pcol_writer *w, uint32_t dsid, uint32_t *id) {
  if (dsid == 0) return *id = 0, PCOL_OK;
  pcol_str s = pcol_b_string_get(w->dict, dsid);
  return pcol_b_string(w->b, s.ptr, s.len, id, NULL);
}

/* map[i] for i < n, growing (zeroed) to hold it */
static int map_slot(uint32_t **map, size_t *cap, size_t i) {
  if (i < *cap) return PCOL_OK;
  size_t old = *cap, n = old ? old : 64;
  while (n <= i) n *= 2;
  uint32_t *m = realloc(*map, n * sizeof *m);
  if (!m) return PCOL_ENOMEM;
  memset(m + old, 0, (n - old) * sizeof *m);
  *map = m;
  *cap = n;
  return PCOL_OK;
}

static int file_function(pcol_writer *w, uint32_t dfn, uint32_t *id) {
  PCOL_RETURN_NOT_OK(map_slot(&w->fmap, &w->cfmap, dfn));
  if (!w->fmap[dfn]) {
    const dict_fn *f = &w->fns[dfn - 1];
    pcol_function_row r = {0, 0, 0, f->start_line};
    PCOL_RETURN_NOT_OK(file_str(w, f->name, &r.name));
    PCOL_RETURN_NOT_OK(file_str(w, f->system_name, &r.system_name));
    PCOL_RETURN_NOT_OK(file_str(w, f->filename, &r.filename));
    PCOL_RETURN_NOT_OK(pcol_b_function(w->b, &r, &w->fmap[dfn], NULL));
  }
  *id = w->fmap[dfn];
  return PCOL_OK;
}

static int file_location(pcol_writer *w, uint32_t dloc, uint32_t *id) {
  PCOL_RETURN_NOT_OK(map_slot(&w->lmap, &w->clmap, dloc));
  if (!w->lmap[dloc]) {
    const dict_loc *l = &w->locs[dloc - 1];
    pcol_line_row lr[16], *lp = l->nlines <= 16 ? lr : malloc(l->nlines * sizeof *lp);
    if (!lp) return PCOL_ENOMEM;
    int rc = PCOL_OK;
    for (size_t i = 0; rc == PCOL_OK && i < l->nlines; i++) {
      const dict_line *dl = &w->lines[l->first_line + i];
      lp[i] = (pcol_line_row){0, dl->line, PCOL_NA_I64};
      rc = file_function(w, dl->fn, &lp[i].function_id);
    }
    if (rc == PCOL_OK) rc = pcol_b_location(w->b, 0, l->address, 0, lp, l->nlines, &w->lmap[dloc], NULL);
    if (lp != lr) free(lp);
    PCOL_RETURN_NOT_OK(rc);
  }
  *id = w->lmap[dloc];
  return PCOL_OK;
}

/* A frame given by name, straight into the file's builder (deduplicated
 * there). */
static int file_frame(pcol_writer *w, const pcol_writer_frame *fr, uint32_t *id) {
  if (!fr->function && !fr->file) return pcol_b_location(w->b, 0, fr->address, 0, NULL, 0, id, NULL);
  pcol_function_row r = {0, 0, 0, PCOL_NA_I64};
  uint32_t fid;
  PCOL_RETURN_NOT_OK(pcol_b_cstr(w->b, fr->function, &r.name, NULL));
  PCOL_RETURN_NOT_OK(pcol_b_cstr(w->b, fr->file, &r.filename, NULL));
  PCOL_RETURN_NOT_OK(pcol_b_function(w->b, &r, &fid, NULL));
  pcol_line_row l = {fid, fr->line ? fr->line : PCOL_NA_I64, PCOL_NA_I64};
  return pcol_b_location(w->b, 0, fr->address, 0, &l, 1, id, NULL);
}

/* ------------------------------------------------------------- files */

static int meta_i64(pcol_builder *b, uint32_t src, const char *key, int64_t v) {
  char t[24];
  snprintf(t, sizeof t, "%lld", (long long)v);
  return pcol_b_meta_str(b, src, key, t, NULL);
}

/* The file's builder, its source, meta and value types.  Its start: the
 * previous file's end, else the first sample's time (an untimed sample's:
 * the wall clock's reading when it is added, to the ns; a later first
 * timed sample earlier than that moves it back, pcol_writer_add).  A rolled
 * series covers its time without gaps or overlaps, so that the files'
 * durations add up to the span of the same samples in one file, as go's
 * merge of profiles adds them: a file begins at the previous one's end
 * also when its first sample is earlier than that end (samples closer
 * together than the period, whose last one's period runs past them), its
 * first samples then a little before its start (time_ns < 0, spec.md §7).
 * The source's timestamp is the start's second. */
static int file_begin(pcol_writer *w, const pcol_writer_sample *first) {
  int64_t start = w->prev_end != PCOL_NA_I64         ? w->prev_end
                  : first && first->has_time          ? first->time_unix_ns
                                                      : real_ns();
  PCOL_RETURN_NOT_OK(pcol_builder_new(&w->b, NULL));
  w->began_mono = mono_ns();
  w->start_ns = start;
  w->ts_sec = floor_div(start, 1000000000);
  PCOL_RETURN_NOT_OK(pcol_b_source(w->b, w->source_type, w->source_uri, w->ts_sec, &w->src, NULL));
  for (size_t i = 0; i < w->nmeta; i++)
    PCOL_RETURN_NOT_OK(pcol_b_meta_str(w->b, w->src, w->meta[2 * i], w->meta[2 * i + 1], NULL));
  if (w->period) {
    PCOL_RETURN_NOT_OK(pcol_b_meta_str(w->b, w->src, PPROF_META_PERIOD_TYPE_TYPE, w->period_type, NULL));
    PCOL_RETURN_NOT_OK(pcol_b_meta_str(w->b, w->src, PPROF_META_PERIOD_TYPE_UNIT, w->period_unit, NULL));
    PCOL_RETURN_NOT_OK(meta_i64(w->b, w->src, PPROF_META_PERIOD, w->period));
  }
  for (size_t i = 0; i < w->nvts; i++) {
    uint32_t t, u;
    PCOL_RETURN_NOT_OK(pcol_b_cstr(w->b, w->vts[i].type, &t, NULL));
    PCOL_RETURN_NOT_OK(pcol_b_cstr(w->b, w->vts[i].unit, &u, NULL));
    PCOL_RETURN_NOT_OK(pcol_b_value_type(w->b, t, u, &w->vt[i], NULL));
    PCOL_RETURN_NOT_OK(pcol_b_source_value_type(w->b, w->src, w->vt[i], NULL));
  }
  return PCOL_OK;
}

/* The path of the next file: `path`, or the rolled name (spec in pcol.h)
 * with sequence number seq + 1 + k. */
static char *next_path(pcol_writer *w, unsigned k) {
  if (!w->stem) return strdup(w->path);
  int64_t s = floor_div(w->start_ns, 1000000000), ms = (w->start_ns - s * 1000000000) / 1000000;
  time_t tt = (time_t)s;
  struct tm tm;
  char when[32];
  if (!gmtime_r(&tt, &tm) || !strftime(when, sizeof when, "%Y%m%dT%H%M%S", &tm))
    snprintf(when, sizeof when, "%lld", (long long)s);
  size_t n = strlen(w->stem) + strlen(w->suffix) + 64;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s-%s.%03dZ-%06llu%s", w->stem, when, (int)ms,
                  (unsigned long long)w->seq + 1 + k, w->suffix);
  return p;
}
static char *next_path_k(void *w, unsigned k) { return next_path(w, k); }

int pcol_writer_flush(pcol_writer *w, pcol_error *err) {
  if (!w) return pcol_error_set(err, PCOL_EINVAL, "writer: NULL writer");
  if (!w->b) {
    /* nothing added: a rolled series skips the file, a single file is
     * written once, empty */
    if (w->stem || w->files) return PCOL_OK;
    int rc = file_begin(w, NULL);
    if (rc) {
      file_reset(w);
      return pcol_error_set(err, rc, "writer: %s", pcol_strerror(rc));
    }
  }
  int rc = PCOL_OK;
  /* the file's span [start_ns, last_end): pprof's time_nanos (the start the
   * samples' times count from, spec.md §7) and duration_nanos, and the
   * longest duration (spec.md §7.2) */
  if (w->any_time) {
    rc = meta_i64(w->b, w->src, PPROF_META_TIME_NANOS, w->start_ns);
    if (!rc && w->last_end > w->start_ns)
      rc = meta_i64(w->b, w->src, PPROF_META_DURATION_NANOS, w->last_end - w->start_ns);
    /* also when the file is lost: the next does not claim its time; never
     * before the start (a file of samples all before it lasts 0) */
    w->prev_end = w->last_end > w->start_ns ? w->last_end : w->start_ns;
  }
  if (!rc && w->max_dur > 0) rc = meta_i64(w->b, w->src, PCOL_META_MAX_DURATION_NS, w->max_dur);
  if (rc) {
    file_reset(w);
    return pcol_error_set(err, rc, "writer: %s", pcol_strerror(rc));
  }
  char *path = next_path(w, 0);
  if (!path) {
    file_reset(w);
    return pcol_oom(err);
  }
  /* a rolled file never replaces one: a name taken (by another writer on
   * the same path) moves it to the next sequence number */
  unsigned used = 0;
  rc = w->stem ? pcol_builder_write_new(w->b, path, next_path_k, w, &used, &w->wopt, err)
               : pcol_builder_write(w->b, path, &w->wopt, err);
  if (rc == PCOL_OK && used) {
    free(path);
    path = next_path(w, used);
  }
  if (rc == PCOL_OK) {
    w->seq += 1 + used;
    w->files++;
    if (w->on_file && path) w->on_file(w->ctx, path);
  }
  free(path);
  file_reset(w);
#ifdef __GLIBC__
  /* the file's memory back to the system: glibc keeps freed heap (its
   * dynamic mmap threshold puts the next file's large arrays there), so
   * a rolling writer's RSS would climb to ~5x one file's (pcol.h) */
  if (w->stem) malloc_trim(0);
#endif
  return rc;
}

int pcol_writer_poll(pcol_writer *w, pcol_error *err) {
  if (!w) return pcol_error_set(err, PCOL_EINVAL, "writer: NULL writer");
  /* (an empty period writes no file; the next file's period begins with
   * its first sample) */
  if (w->roll_ns && w->b && mono_ns() - w->began_mono >= w->roll_ns) return pcol_writer_flush(w, err);
  return PCOL_OK;
}

/* ----------------------------------------------------------- samples */

static int check_sample(const pcol_writer *w, const pcol_writer_sample *s, pcol_error *err) {
  if (!s) return pcol_error_set(err, PCOL_EINVAL, "writer: NULL sample");
  if (s->nframes && s->nlocations)
    return pcol_error_set(err, PCOL_EINVAL, "writer: a sample's stack is frames or location ids, not both");
  if ((s->nframes && !s->frames) || (s->nlocations && !s->locations) ||
      (s->nlabels && !s->labels) || (s->nvalues && !s->values))
    return pcol_error_set(err, PCOL_EINVAL, "writer: a sample has a count without its array");
  if (s->nframes > UINT32_MAX || s->nlocations > UINT32_MAX || s->nlabels > UINT32_MAX)
    return pcol_error_set(err, PCOL_EINVAL, "writer: a sample's stack or label set is too long");
  if (s->nvalues != w->nvts)
    return pcol_error_set(err, PCOL_EINVAL, "writer: a sample has %zu values, the writer's "
                          "value types are %zu", s->nvalues, w->nvts);
  for (size_t i = 0; i < s->nlocations; i++)
    if (s->locations[i] == 0 || s->locations[i] > w->nlocs)
      return pcol_error_set(err, PCOL_EINVAL, "writer: frame %zu names location %u, but %zu "
                            "locations were added", i + 1, s->locations[i], w->nlocs);
  for (size_t i = 0; i < s->nlabels; i++)
    if (!s->labels[i].key)
      return pcol_error_set(err, PCOL_EINVAL, "writer: label %zu has no key", i + 1);
  if (s->duration_ns < 0)
    return pcol_error_set(err, PCOL_EINVAL, "writer: negative duration %lld",
                          (long long)s->duration_ns);
  if (s->weight < 0)
    return pcol_error_set(err, PCOL_EINVAL, "writer: negative weight %lld", (long long)s->weight);
  if (s->has_time && s->time_unix_ns < 0) /* also keeps time - start from overflowing */
    return pcol_error_set(err, PCOL_EINVAL, "writer: sample time %lld ns is before 1970",
                          (long long)s->time_unix_ns);
  if (s->has_time && s->duration_ns > INT64_MAX - s->time_unix_ns)
    return pcol_error_set(err, PCOL_EINVAL, "writer: time + duration overflows");
  if (!w->stem && w->files)
    return pcol_error_set(err, PCOL_EINVAL, "writer: %s is already published (without rolling "
                          "the writer writes one file)", w->path);
  if (w->b && !s->has_time && w->any_time)
    return pcol_error_set(err, PCOL_EINVAL, "writer: a sample without a time after samples "
                          "with times (samples go in time order, no time first)");
  if (w->b && s->has_time && w->any_time && s->time_unix_ns < w->last_time)
    return pcol_error_set(err, PCOL_EINVAL, "writer: sample time %lld ns is before the previous "
                          "sample's %lld (samples go in time order)",
                          (long long)s->time_unix_ns, (long long)w->last_time);
  return PCOL_OK;
}

/* The sample into the file's builder.  Anything appended before a failure
 * (a string, a location) is harmless: dictionary rows without samples. */
static int add_sample(pcol_writer *w, const pcol_writer_sample *s) {
  size_t n = s->nframes ? s->nframes : s->nlocations;
  if (n > w->cstack) {
    uint32_t *p = realloc(w->stack, n * sizeof *p);
    if (!p) return PCOL_ENOMEM;
    w->stack = p;
    w->cstack = n;
  }
  for (size_t i = 0; i < s->nframes; i++) PCOL_RETURN_NOT_OK(file_frame(w, &s->frames[i], &w->stack[i]));
  for (size_t i = 0; i < s->nlocations; i++)
    PCOL_RETURN_NOT_OK(file_location(w, s->locations[i], &w->stack[i]));
  pcol_sample_row row = {w->src, PCOL_NA_I64, s->duration_ns, s->weight ? s->weight : 1,
                         PCOL_NA_I64, 0, 0};
  PCOL_RETURN_NOT_OK(pcol_b_stack_memo(w->b, &w->memo, w->stack, n, &row.stack_id, NULL));
  if (s->nlabels) {
    if (s->nlabels > w->clab) {
      pcol_label_row *p = realloc(w->lab, s->nlabels * sizeof *p);
      if (!p) return PCOL_ENOMEM;
      w->lab = p;
      w->clab = s->nlabels;
    }
    for (size_t i = 0; i < s->nlabels; i++) {
      const pcol_writer_label *l = &s->labels[i];
      w->lab[i].num = l->num;
      PCOL_RETURN_NOT_OK(pcol_b_cstr(w->b, l->key, &w->lab[i].key, NULL));
      PCOL_RETURN_NOT_OK(pcol_b_cstr(w->b, l->str, &w->lab[i].str, NULL));
      PCOL_RETURN_NOT_OK(pcol_b_cstr(w->b, l->num_unit, &w->lab[i].num_unit, NULL));
    }
    PCOL_RETURN_NOT_OK(pcol_b_labelset(w->b, w->lab, s->nlabels, &row.labelset_id, NULL));
  }
  if (s->has_time) row.time_ns = s->time_unix_ns - w->start_ns;
  pcol_value_row vr[8], *vp = w->nvts <= 8 ? vr : malloc(w->nvts * sizeof *vp);
  if (!vp) return PCOL_ENOMEM;
  for (size_t i = 0; i < w->nvts; i++) vp[i] = (pcol_value_row){w->vt[i], s->values[i]};
  int rc = pcol_b_sample(w->b, &row, vp, w->nvts, NULL, NULL);
  if (vp != vr) free(vp);
  return rc;
}

int pcol_writer_add(pcol_writer *w, const pcol_writer_sample *s, pcol_error *err) {
  if (!w) return pcol_error_set(err, PCOL_EINVAL, "writer: NULL writer");
  PCOL_RETURN_NOT_OK(pcol_writer_poll(w, err));
  PCOL_RETURN_NOT_OK(check_sample(w, s, err));
  if (!w->b) {
    int rc = file_begin(w, s);
    if (rc) {
      file_reset(w);
      return pcol_error_set(err, rc, "writer: %s", pcol_strerror(rc));
    }
  }
  /* the first timed sample of a file begun by untimed ones, earlier than
   * its start: the file starts at it (no sample's time counts from the
   * start yet) */
  int64_t was = w->start_ns, was_sec = w->ts_sec;
  if (s->has_time && !w->any_time && w->prev_end == PCOL_NA_I64 && s->time_unix_ns < w->start_ns) {
    w->start_ns = s->time_unix_ns;
    w->ts_sec = floor_div(w->start_ns, 1000000000);
    if (pcol_b_source_timestamp_set(w->b, w->src, w->ts_sec)) /* (cannot fail: the file's source) */
      return pcol_error_set(err, PCOL_EINVAL, "writer: the file has no source");
  }
  int rc = add_sample(w, s);
  if (rc) {
    if (w->start_ns != was) {
      w->start_ns = was, w->ts_sec = was_sec;
      (void)pcol_b_source_timestamp_set(w->b, w->src, w->ts_sec);
    }
    return pcol_error_set(err, rc, "writer: sample: %s", pcol_strerror(rc));
  }
  if (s->has_time) {
    w->any_time = 1;
    w->last_time = s->time_unix_ns;
    /* a point sample lasts a period (a tick of a sampling profiler: go's
     * runtime/pprof's duration covers the last one's) */
    int64_t ext = s->duration_ns ? s->duration_ns : w->tick_ns;
    int64_t end = ext > INT64_MAX - s->time_unix_ns ? INT64_MAX : s->time_unix_ns + ext;
    if (w->last_end == PCOL_NA_I64 || end > w->last_end) w->last_end = end;
  }
  if (s->duration_ns > w->max_dur) w->max_dur = s->duration_ns;
  if (w->roll_samples && pcol_b_sample_count(w->b) >= w->roll_samples)
    return pcol_writer_flush(w, err);
  return PCOL_OK;
}

uint64_t pcol_writer_pending(const pcol_writer *w) {
  return w && w->b ? pcol_b_sample_count(w->b) : 0;
}
uint64_t pcol_writer_files(const pcol_writer *w) { return w ? w->files : 0; }

int pcol_writer_close(pcol_writer *w, pcol_error *err) {
  if (!w) return PCOL_OK;
  int rc = pcol_writer_flush(w, err);
  writer_free(w);
  return rc;
}
