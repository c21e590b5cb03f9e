/* firefox_import.c — a Firefox Profiler profile into a builder
 * (doc/mappings.md §8.1): processed profiles of versions FIREFOX_IMPORT_MIN
 * to FIREFOX_IMPORT_MAX (samply's, the profiler's Upload/Download, pcol's own
 * export), gzip or not, and Gecko profiles from Firefox of versions
 * FIREFOX_GECKO_MIN to FIREFOX_GECKO_VERSION (names of frames: firefox_gecko.c).
 *
 * The document is read as a stream (inflated under the input cap) into a
 * compact tree of the parts read here (firefox_json.c: tables and samples in
 * any key order; markers only as times).  Every index read from it is
 * checked against the table it points into before use, and a bad one is an
 * error that names the JSON path
 * (threads[2].samples.stack[17]).  One source per file; each thread's
 * samples carry its name, pid and tid as labels (thread_name, pid, tid) and
 * the category of their leaf frame (label category); samples of all threads
 * are added in time order.  Weights: "samples" is the weight column,
 * "tracing-ms" the value tracing/nanoseconds, "bytes" the value bytes/bytes.
 * Markers are not kept (their times give the profiler's range of a thread
 * without samples: range_duration): the source's pcol.note says how many
 * were left. */
#include "firefox.h"
#include "firefox_json.h"
#include "firefox_gecko.h"
#include "keys.h"     /* PCOL_UNIT_NANOSECONDS, PCOL_META_NOTE, PPROF_META_TIME_NANOS */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "jstr.h"     /* pcol_json_int_of */
#include "buf.h"      /* PCOL_GROW, pcol_buf_free, pcol_buf */
#include "rowsort.h"  /* pcol_rowsort, pcol_rowsort_add, pcol_rowsort_each, ... */
#include "truncated.h" /* pcol_b_truncated_stacks */
#include "count.h"    /* pcol_decimal_kept, pcol_g_text */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the document's tree, in functions that have an import (ffi *x) */
#define T (&x->j.t)

/* ------------------------------------------------------- detection */
/* The top-level keys a Firefox profile starts with (processed: meta first
 * as the profiler and samply write it, threads first as pcol does, counters
 * first when keys are sorted; Gecko: libs or meta). */
static const char *const FIRST_KEYS[] = {"meta", "libs", "threads", "counters", "pages",
                                         "profilerOverhead"};

int pcol_firefox_sniff(const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
  if (i >= n || p[i++] != '{') return 0;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
  if (i >= n || p[i++] != '"') return 0;
  size_t k0 = i;
  while (i < n && p[i] != '"' && p[i] != '\\') i++;
  if (i >= n || p[i] != '"') return 0;
  for (size_t j = 0; j < sizeof FIRST_KEYS / sizeof *FIRST_KEYS; j++)
    if (strlen(FIRST_KEYS[j]) == i - k0 && !memcmp(FIRST_KEYS[j], p + k0, i - k0)) return 1;
  return 0;
}

/* ------------------------------------------------------- one import */
typedef struct srow { /* a sample before the sort */
  int64_t t, cpu, dur, w, v;
  uint32_t stack, ls, src; /* src: its thread's source (windows_scan) */
  uint64_t seq;
  int kind;    /* 0 weight only, 1 tracing/nanoseconds, 2 bytes/bytes, 3 a decimal count (vt_frac), 4 a named count */
  uint32_t vt; /* kind 1, 2, 3: the value type of v (weight_type, vt_frac) */
  int held;    /* its count w is its thread's pcolCount (vt_held) */
} srow;

#define WVT_NAMES 16 /* value type names a file's threads may give (pcolValueType) */
typedef struct wvt_ent {
  int kind;          /* 1 tracing-ms, 2 bytes, 4 a named count (thread_kind) */
  uint32_t name, vt; /* its name's string id, its value type */
  const char *text;  /* its name (in the document's tree, or static) */
} wvt_ent;

typedef struct ffi {
  ffj j;                 /* the document and the error context */
  pcol_builder *b;
  uint32_t src, k_thread, k_tid, k_pid, k_cat;
  /* pcol's export of a -diff_base: the label its base's samples (pcolBase
   * 1) read back with, pprof::base = true (made at the first: 0 none), and
   * whether one was (the source's meta PCOL_META_DIFF_BASE) */
  uint32_t k_base, s_true;
  int based;
  /* the value types of weights (weight_type): a kind and a name each */
  wvt_ent wvt[WVT_NAMES + 3]; /* + the three kinds' own names */
  size_t nwvt;
  uint32_t cur_vt; /* the current thread's */
  const char *cur_name; /* its name (NULL: the weight, no value type) */
  /* the value type of the first thread with samples, the source's default
   * when the file states none (default_type); NULL: none yet, or a count */
  const char *first_name;
  int first_seen;
  /* the default pcol's export states (meta.pcolDefaultValue; NULL: none),
   * and the weight kind whose own name took its values when a thread of
   * that pcolValueType came past the first WVT_NAMES (weight_type; 0: none) */
  const char *said;
  int said_kind;
  /* the default is the count beside threads of other weights (count_scan):
   * every row is also the value samples/count, a samples weight's own
   * number, 1 for a row of another weight; 0: not so */
  uint32_t vt_cnt;
  /* samples/count of the rows of threads whose counts pcol's export holds
   * (pcolCount beside a time or bytes weight: its source counted its
   * samples, as a CPU profile's samples/count, each 1 or not); 0: none */
  uint32_t vt_held;
  /* a samples weight of the file has decimals (pcol's export of a decimal
   * collapsed count): every samples weight is also the value
   * count/1e-9 (vt_frac), as the collapsed importer keeps them */
  int frac;
  uint32_t vt_frac;
  pcol_kept_tally *kept; /* [value type id]: THE kept rule's tally (kept) */
  size_t nkept;
  int version;
  /* the current tables (shared, or the thread's before version 60) */
  pcol_jv strings, stacks, frames, funcs, sources, categories;
  const char *tpath;     /* JSON path of the tables' owner: "shared" or "threads[i]" */
  uint32_t *stack_memo;  /* FF stack -> pcol stack + 1 */
  uint32_t *frame_memo;  /* FF frame -> pcol location + 1 */
  uint32_t *func_memo;   /* FF func -> pcol function + 1 */
  int32_t *stack_cat;    /* FF stack -> category index + 1 (0 none) */
  size_t nstacks, nframes, nfuncs;
  pcol_rowsort *rows;    /* the samples, sorted by time and file order */
  uint64_t nrows;
  int put_failed;        /* the builder refused a sample (its message is set) */
  int direct;            /* one thread whose samples come in time order: no sorting */
  uint64_t markers;
  int64_t cpu_scale;     /* ns per threadCPUDelta unit; 0: cycles (not kept) */
  /* the profiler's range of the threads (ms since meta.startTime): the
   * least first time, the greatest last time + meta.interval; r_bad: a
   * marker or allocation table the profiler cannot take a range of */
  double r_lo, r_hi, interval_ms;
  int r_bad;
  /* the greatest pcolDurationNanos of pcol's synthetic threads (-1: none) */
  int64_t synth_dur;
  /* a sample of weight <= 1 with pcol's own duration (pcolDuration): the
   * source is an interval source (spec.md §7.1), as the one pcol exported */
  int intervals;
  int places; /* a function was a place pcol's export marked (pcolNameless) */
  /* the sources of the threads' windows (windows_scan): gsrc[0..ngroups)
   * (gsrc[0] is src; ngroups 0: one source, src), each thread's index
   * there (tgroup), each one's window in ms since meta.startTime and its
   * recording part (0 none); cur_src the source of the thread being read */
  uint32_t *gsrc, *tgroup, cur_src;
  size_t ngroups;
  double *g_lo, *g_hi;
  int64_t *g_zero; /* its time 0, ns after meta.startTime (processStartupTime) */
  uint32_t *g_part;
} ffi;

/* ----------------------------------------- the threads' windows */
/* value type vt, tied to every source of the file (each thread's window
 * its own source: windows_scan) */
static int svt_all(ffi *x, uint32_t vt) {
  int rc = pcol_b_source_value_type(x->b, x->src, vt, x->j.err);
  for (size_t g = 1; !rc && g < x->ngroups; g++) rc = pcol_b_source_value_type(x->b, x->gsrc[g], vt, x->j.err);
  return rc;
}
/* meta key = val of every source of the file */
static int meta_all(ffi *x, const char *key, const char *val) {
  int rc = pcol_b_meta_str(x->b, x->src, key, val, x->j.err);
  for (size_t g = 1; !rc && g < x->ngroups; g++) rc = pcol_b_meta_str(x->b, x->gsrc[g], key, val, x->j.err);
  return rc;
}

typedef struct tkey { /* a thread's window (windows_scan) */
  double zero, lo, hi;
  uint64_t rec;
  size_t ti;
} tkey;
static int tkey_cmp(const void *pa, const void *pb) {
  const tkey *a = pa, *b = pb;
  if (a->rec != b->rec) return a->rec < b->rec ? -1 : 1;
  if (a->zero != b->zero) return a->zero < b->zero ? -1 : 1;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  return a->ti < b->ti ? -1 : a->ti > b->ti;
}

/* A processed profile's threads whose lifetimes differ: each thread's
 * window is registerTime to unregisterTime (ms since meta.startTime; the
 * Firefox Profiler's thread lifetime, src/types/profile.js), and threads
 * of one window are one source of that window (its duration, its span
 * start), so that a range cuts each window, as it cut the sources pcol's
 * export wrote them from (two profiles 1 s apart are not one window of
 * 1 s).  The windows of one recording (pcol's pcolRecording, else the
 * profile: one recording) are its parts (THE recording rule: the whole
 * counts its span once), separate recordings each their own.  Only when
 * every thread states a window (numbers, 0 <= registerTime <=
 * unregisterTime: a live thread's unregisterTime is null) and not all
 * one; else one source, the profile's range its window (range_duration).
 * Makes the sources after src, in the order of their recording, then
 * their window's start. */
static int windows_scan(ffi *x, const char *name, int64_t t0) {
  pcol_jv threads = pcol_jt_get(T, x->j.root, "threads");
  size_t n = pcol_jt_is_arr(threads) ? pcol_jt_size(T, threads) : 0;
  if (n < 2) return PCOL_OK;
  tkey *k = malloc(n * sizeof *k);
  if (!k) return pcol_oom(x->j.err);
  size_t i;
  for (i = 0; i < n; i++) {
    pcol_jv th = pcol_jt_at(T, threads, i);
    pcol_jv r = pcol_jt_get(T, th, "registerTime"), u = pcol_jt_get(T, th, "unregisterTime");
    pcol_jv rec = pcol_jt_get(T, th, "pcolRecording"), ax = pcol_jt_get(T, th, "pcolTimeAxis");
    pcol_jv z = pcol_jt_get(T, th, "processStartupTime");
    if (!pcol_jt_is_obj(th) || !pcol_jt_is_num(r) || !pcol_jt_is_num(u) || ax) break;
    k[i] = (tkey){pcol_jt_is_num(z) ? pcol_jt_num(T, z) : 0, pcol_jt_num(T, r), pcol_jt_num(T, u),
                  pcol_jt_is_int(rec) && pcol_jt_int(T, rec) > 0 ? (uint64_t)pcol_jt_int(T, rec) : 0, i};
    if (!(k[i].lo >= 0 && k[i].lo <= k[i].hi && k[i].hi * 1e6 < 0x1p62 && k[i].zero <= k[i].lo &&
          k[i].zero * 1e6 > -0x1p62))
      break;
  }
  int one = i < n;
  if (!one) {
    qsort(k, n, sizeof *k, tkey_cmp);
    one = k[0].rec == k[n - 1].rec;
    for (i = 1; one && i < n; i++) one = k[i].zero == k[0].zero && k[i].lo == k[0].lo && k[i].hi == k[0].hi;
  }
  if (one) {
    free(k);
    return PCOL_OK;
  }
  int rc = PCOL_OK;
  if (!(x->gsrc = calloc(n, sizeof *x->gsrc)) || !(x->tgroup = calloc(n, sizeof *x->tgroup)) ||
      !(x->g_lo = calloc(n, sizeof *x->g_lo)) || !(x->g_hi = calloc(n, sizeof *x->g_hi)) ||
      !(x->g_part = calloc(n, sizeof *x->g_part)) || !(x->g_zero = calloc(n, sizeof *x->g_zero)))
    rc = pcol_oom(x->j.err);
  size_t g = 0, first = 0; /* first: the group that begins the recording of group g */
  char tv[24];
  for (i = 0; !rc && i < n; i++) {
    int same = i && k[i].rec == k[i - 1].rec && k[i].zero == k[i - 1].zero && k[i].lo == k[i - 1].lo &&
               k[i].hi == k[i - 1].hi;
    if (!same) {
      if (i && k[i].rec != k[i - 1].rec) first = g;
      x->gsrc[g] = x->src;
      /* (its start: meta.startTime + its time 0) */
      int64_t z = llround(k[i].zero * 1e6), st = t0;
      if (t0 != PCOL_NA_I64 && (__builtin_add_overflow(t0, z, &st) || st < 0)) st = PCOL_NA_I64;
      int64_t sts = st == PCOL_NA_I64 ? PCOL_NA_I64 : st / 1000000000;
      if (g) rc = pcol_b_source(x->b, "firefox", name, sts, &x->gsrc[g], x->j.err);
      else if (pcol_b_source_timestamp_set(x->b, x->src, sts))
        rc = ffj_fail(&x->j, "threads: the source's start could not be set");
      snprintf(tv, sizeof tv, "%lld", (long long)st);
      if (!rc && st != PCOL_NA_I64 && st) rc = pcol_b_meta_str(x->b, x->gsrc[g], PPROF_META_TIME_NANOS, tv, x->j.err);
      x->g_lo[g] = k[i].lo, x->g_hi[g] = k[i].hi, x->g_zero[g] = llround(k[i].zero * 1e6);
      x->g_part[g] = (uint32_t)(g - first + 1);
      g++;
    }
    x->tgroup[k[i].ti] = (uint32_t)(g - 1);
  }
  /* a recording of one window is no part */
  for (size_t a = 0; a < g; a++)
    if (x->g_part[a] == 1 && !(a + 1 < g && x->g_part[a + 1] == 2)) x->g_part[a] = 0;
  x->ngroups = g;
  free(k);
  return rc;
}

/* Each window's source: its duration, where its span starts after
 * meta.startTime (THE span start), its recording part. */
static int windows_meta(ffi *x) {
  char v[32];
  int rc = PCOL_OK;
  for (size_t g = 0; !rc && g < x->ngroups; g++) {
    snprintf(v, sizeof v, "%lld", (long long)llround((x->g_hi[g] - x->g_lo[g]) * 1e6));
    rc = pcol_b_meta_str(x->b, x->gsrc[g], PPROF_META_DURATION_NANOS, v, x->j.err);
    long long o = llround(x->g_lo[g] * 1e6) - x->g_zero[g];
    snprintf(v, sizeof v, "%lld", o);
    if (!rc && o > 0) rc = pcol_b_meta_str(x->b, x->gsrc[g], PCOL_META_SPAN_START_NS, v, x->j.err);
    snprintf(v, sizeof v, "%u", x->g_part[g]);
    if (!rc && x->g_part[g]) rc = pcol_b_meta_str(x->b, x->gsrc[g], PCOL_META_RECORDING_PART, v, x->j.err);
  }
  return rc;
}

/* The Firefox Profiler's range of a thread (profile-data's
 * _getTimeRangeForThread, memoized as getTimeRangeForThread) is made of
 * times t, each stretching it to [t, t + meta.interval]: its samples' first
 * and last times (in file order, whatever lies between); without samples,
 * its markers' times by their phase (marker_range); and the first and last
 * times of its JS and native allocations, with samples or without.  The
 * profile's range is the threads' union (range_duration). */
static void thread_range(ffi *x, double first, double last) {
  if (first < x->r_lo) x->r_lo = first;
  if (last + x->interval_ms > x->r_hi) x->r_hi = last + x->interval_ms;
}

/* One marker: phase 0 (instant) or 2 (interval start) its start time, 3
 * (interval end) its end time, 1 (interval) both.  A time the phase needs
 * that is not a number, or another phase, makes the profiler fail
 * (ensureExists, "Unhandled marker phase type"): r_bad, no range. */
static void marker_range(ffi *x, pcol_jv phase, pcol_jv start, pcol_jv end, double off) {
  double pv = pcol_jt_num(T, phase); /* (JavaScript's switch: 0.0 is 0) */
  int ph = pcol_jt_is_num(phase) && pv >= 0 && pv <= 3 && pv == floor(pv) ? (int)pv : -1;
  int need_s = ph == 0 || ph == 1 || ph == 2, need_e = ph == 1 || ph == 3;
  if ((!need_s && !need_e) || (need_s && !pcol_jt_is_num(start)) || (need_e && !pcol_jt_is_num(end))) {
    x->r_bad = 1;
    return;
  }
  if (need_s) thread_range(x, pcol_jt_num(T, start) + off, pcol_jt_num(T, start) + off);
  if (need_e) thread_range(x, pcol_jt_num(T, end) + off, pcol_jt_num(T, end) + off);
}

/* A processed thread's markers (when it has no samples) and allocation
 * tables (jsAllocations, nativeAllocations: time[0] and time[length - 1];
 * an empty one gives the profiler no number, r_bad). */
static void processed_extra_range(ffi *x, pcol_jv th, size_t nsamples) {
  pcol_jv m = pcol_jt_get(T, th, "markers");
  size_t nm = nsamples ? 0 : ffj_len(&x->j, m);
  pcol_jv st = pcol_jt_get(T, m, "startTime"), et = pcol_jt_get(T, m, "endTime"), ph = pcol_jt_get(T, m, "phase");
  for (size_t i = 0; i < nm && !x->r_bad; i++)
    marker_range(x, pcol_jt_at(T, ph, i), pcol_jt_at(T, st, i), pcol_jt_at(T, et, i), 0);
  static const char *const alloc[] = {"jsAllocations", "nativeAllocations"};
  for (int k = 0; k < 2; k++) {
    pcol_jv a = pcol_jt_get(T, th, alloc[k]);
    if (!a || pcol_jt_is_null(a)) continue;
    size_t n = ffj_len(&x->j, a);
    pcol_jv t = pcol_jt_get(T, a, "time"), t0 = pcol_jt_at(T, t, 0), t1 = n ? pcol_jt_at(T, t, n - 1) : 0;
    if (!pcol_jt_is_num(t0) || !pcol_jt_is_num(t1)) x->r_bad = 1;
    else thread_range(x, pcol_jt_num(T, t0), pcol_jt_num(T, t1));
  }
}

static void tables_free(ffi *x) {
  free(x->stack_memo);
  free(x->frame_memo);
  free(x->func_memo);
  free(x->stack_cat);
  x->stack_memo = x->frame_memo = x->func_memo = NULL;
  x->stack_cat = NULL;
}

/* Loads the tables of `owner` (shared, or a thread of an old version). */
static int tables_load(ffi *x, pcol_jv owner, pcol_jv str_owner, const char *path) {
  tables_free(x);
  x->tpath = path;
  PCOL_RETURN_NOT_OK(ffj_array(&x->j, str_owner, "stringArray", path, &x->strings));
  PCOL_RETURN_NOT_OK(ffj_table(&x->j, owner, "stackTable", path, &x->stacks, &x->nstacks));
  PCOL_RETURN_NOT_OK(ffj_table(&x->j, owner, "frameTable", path, &x->frames, &x->nframes));
  PCOL_RETURN_NOT_OK(ffj_table(&x->j, owner, "funcTable", path, &x->funcs, &x->nfuncs));
  /* the columns every row needs are as long as their tables say (so the
   * lengths bound what is allocated below) */
  char tp[96];
  pcol_jv col;
  snprintf(tp, sizeof tp, "%s.stackTable", path);
  PCOL_RETURN_NOT_OK(ffj_column(&x->j, x->stacks, "frame", x->nstacks, tp, &col));
  PCOL_RETURN_NOT_OK(ffj_column(&x->j, x->stacks, x->version >= 66 ? "prefixOffset" : "prefix", x->nstacks, tp, &col));
  snprintf(tp, sizeof tp, "%s.frameTable", path);
  PCOL_RETURN_NOT_OK(ffj_column(&x->j, x->frames, "func", x->nframes, tp, &col));
  snprintf(tp, sizeof tp, "%s.funcTable", path);
  PCOL_RETURN_NOT_OK(ffj_column(&x->j, x->funcs, "name", x->nfuncs, tp, &col));
  x->sources = 0;
  if (x->version >= 58) {
    pcol_jv sh = pcol_jt_get(T, x->j.root, "shared");
    size_t ns;
    PCOL_RETURN_NOT_OK(ffj_table(&x->j, sh, "sources", "shared", &x->sources, &ns));
  }
  if (!(x->stack_memo = calloc(x->nstacks + 1, sizeof *x->stack_memo)) ||
      !(x->frame_memo = calloc(x->nframes + 1, sizeof *x->frame_memo)) ||
      !(x->func_memo = calloc(x->nfuncs + 1, sizeof *x->func_memo)) ||
      !(x->stack_cat = calloc(x->nstacks + 1, sizeof *x->stack_cat)))
    return pcol_oom(x->j.err);
  return PCOL_OK;
}

/* string index idx (a JSON integer) of the current string array, interned */
static int string_at(ffi *x, pcol_jv v, const char *path, uint32_t *sid) {
  *sid = 0;
  if (!v || pcol_jt_is_null(v)) return PCOL_OK;
  size_t i;
  PCOL_RETURN_NOT_OK(ffj_index(&x->j, v, pcol_jt_size(T, x->strings), path, "stringArray", &i));
  pcol_jv s = pcol_jt_at(T, x->strings, i);
  if (!pcol_jt_is_str(s)) return ffj_fail(&x->j, "%s: stringArray[%zu] is not a string", path, i);
  return pcol_b_string(x->b, pcol_jt_str(T, s), pcol_jt_strlen(T, s), sid, x->j.err);
}

/* Whether a frame's (version 71 on) or a function's (75 on) optional
 * column holds a value at row i: those versions say so in the row's
 * `flags` (the profiler's upgraders to 71 and 75 write 0 where null was,
 * and clear the bit), older ones by a null.  The bits, as the profiler
 * defines them: a frame's 2 address and lib, 4 category and subcategory,
 * 16 line, 32 column; a function's 4 resource, 8 source, 16 lineNumber, 32
 * columnNumber.  A row without flags (an older writer's table) has its
 * values, as before. */
enum { FF_FRAME_FLAGS = 71, FF_FUNC_FLAGS = 75, FF_HAS_CATEGORY = 4, FF_HAS_SOURCE = 8,
       FF_HAS_LINE = 16, FF_HAS_COLUMN = 32 };
static int ff_has(ffi *x, pcol_jv table, int since, size_t i, int64_t bit) {
  if (x->version < since) return 1;
  pcol_jv f = ffj_col(&x->j, table, "flags", i);
  return !pcol_jt_is_int(f) || (pcol_jt_int(T, f) & bit) != 0;
}

static int function_of(ffi *x, size_t fi, uint32_t *out) {
  if (x->func_memo[fi]) {
    *out = x->func_memo[fi];
    return PCOL_OK;
  }
  char path[256];
  pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
  snprintf(path, sizeof path, "%s.funcTable.name[%zu]", x->tpath, fi);
  PCOL_RETURN_NOT_OK(string_at(x, ffj_col(&x->j, x->funcs, "name", fi), path, &fn.name));
  pcol_jv file = 0;
  if (x->version >= 58) {
    pcol_jv src = ffj_col(&x->j, x->funcs, "source", fi);
    if (src && !pcol_jt_is_null(src) && ff_has(x, x->funcs, FF_FUNC_FLAGS, fi, FF_HAS_SOURCE)) {
      size_t si;
      snprintf(path, sizeof path, "%s.funcTable.source[%zu]", x->tpath, fi);
      PCOL_RETURN_NOT_OK(ffj_index(&x->j, src, ffj_len(&x->j, x->sources), path, "shared.sources", &si));
      file = ffj_col(&x->j, x->sources, "filename", si);
      snprintf(path, sizeof path, "shared.sources.filename[%zu]", si);
    }
  } else {
    file = ffj_col(&x->j, x->funcs, "fileName", fi);
    snprintf(path, sizeof path, "%s.funcTable.fileName[%zu]", x->tpath, fi);
  }
  PCOL_RETURN_NOT_OK(string_at(x, file, path, &fn.filename));
  pcol_jv ln = ffj_col(&x->j, x->funcs, "lineNumber", fi);
  if (pcol_jt_is_int(ln) && ff_has(x, x->funcs, FF_FUNC_FLAGS, fi, FF_HAS_LINE)) fn.start_line = pcol_jt_int(T, ln);
  /* a place pcol's export marked (funcTable.pcolNameless: an Rprof
   * top-level srcref, named FILE:LINE for the profiler): a function without
   * a name again, its source's nameless lines places (THE nameless rule,
   * meta pcol.nameless_places), as the Rprof source it came from */
  pcol_jv pl = ffj_col(&x->j, x->funcs, "pcolNameless", fi);
  if (pcol_jt_is_int(pl) && pcol_jt_int(T, pl) == 1 && fn.filename) fn.name = 0, fn.start_line = PCOL_NA_I64, x->places = 1;
  PCOL_RETURN_NOT_OK(pcol_b_function(x->b, &fn, out, x->j.err));
  x->func_memo[fi] = *out;
  return PCOL_OK;
}

/* The pcol location of FF frame fr: one line (its function, line, column). */
static int location_of(ffi *x, size_t fr, uint32_t *out) {
  if (x->frame_memo[fr]) {
    *out = x->frame_memo[fr];
    return PCOL_OK;
  }
  char path[256];
  size_t fi;
  snprintf(path, sizeof path, "%s.frameTable.func[%zu]", x->tpath, fr);
  PCOL_RETURN_NOT_OK(ffj_index(&x->j, ffj_col(&x->j, x->frames, "func", fr), x->nfuncs, path,
                               "funcTable", &fi));
  pcol_line_row ln = {0, PCOL_NA_I64, PCOL_NA_I64};
  PCOL_RETURN_NOT_OK(function_of(x, fi, &ln.function_id));
  pcol_jv l = ffj_col(&x->j, x->frames, "line", fr), c = ffj_col(&x->j, x->frames, "column", fr);
  if (pcol_jt_is_int(l) && ff_has(x, x->frames, FF_FRAME_FLAGS, fr, FF_HAS_LINE)) ln.line = pcol_jt_int(T, l);
  if (pcol_jt_is_int(c) && ff_has(x, x->frames, FF_FRAME_FLAGS, fr, FF_HAS_COLUMN)) ln.column = pcol_jt_int(T, c);
  PCOL_RETURN_NOT_OK(pcol_b_location(x->b, 0, 0, 0, &ln, 1, out, x->j.err));
  x->frame_memo[fr] = *out;
  return PCOL_OK;
}

/* The pcol stack of FF stack st (prefix first: FF stacks point backwards). */
static int stack_of(ffi *x, size_t st, uint32_t *out) {
  if (x->stack_memo[st]) {
    *out = x->stack_memo[st];
    return PCOL_OK;
  }
  /* walk to the first stack already made (prefixes are smaller: finite) */
  size_t chain_n = 0, cap = 0, *chain = NULL, s = st;
  int rc = PCOL_OK;
  char path[256];
  for (;;) {
    if (PCOL_GROW(chain, chain_n, cap)) {
      free(chain);
      return pcol_oom(x->j.err);
    }
    chain[chain_n++] = s;
    size_t parent;
    int root;
    if ((rc = ffj_prefix(&x->j, x->stacks, x->version, s, x->tpath, &parent, &root))) break;
    if (root || x->stack_memo[parent]) break;
    s = parent;
  }
  for (size_t k = chain_n; k-- > 0 && !rc;) {
    size_t c = chain[k], parent, fr;
    int root;
    if ((rc = ffj_prefix(&x->j, x->stacks, x->version, c, x->tpath, &parent, &root))) break;
    snprintf(path, sizeof path, "%s.stackTable.frame[%zu]", x->tpath, c);
    if ((rc = ffj_index(&x->j, ffj_col(&x->j, x->stacks, "frame", c), x->nframes, path, "frameTable", &fr))) break;
    uint32_t loc, node;
    if ((rc = location_of(x, fr, &loc))) break;
    if ((rc = pcol_b_stack_node(x->b, root ? 0 : x->stack_memo[parent], loc, &node, x->j.err))) break;
    x->stack_memo[c] = node;
    /* the category: the frame's, else the prefix's (version 53's rule) */
    pcol_jv cat = ffj_col(&x->j, x->frames, "category", fr);
    if (pcol_jt_is_int(cat) && pcol_jt_int(T, cat) >= 0 && ff_has(x, x->frames, FF_FRAME_FLAGS, fr, FF_HAS_CATEGORY))
      x->stack_cat[c] = (int32_t)(pcol_jt_int(T, cat) + 1);
    else if (!root) x->stack_cat[c] = x->stack_cat[parent];
  }
  free(chain);
  if (!rc) *out = x->stack_memo[st];
  return rc;
}

/* The label set of a thread, plus a category. */
static int labels_of(ffi *x, pcol_jv th, int32_t cat, int base, uint32_t *ls) {
  pcol_label_row l[5];
  size_t n = 0;
  pcol_jv name = pcol_jt_get(T, th, "name"), tid = pcol_jt_get(T, th, "tid"),
         pid = pcol_jt_get(T, th, "pid");
  memset(l, 0, sizeof l);
  if (pcol_jt_is_str(name)) {
    l[n].key = x->k_thread;
    l[n].num = PCOL_NA_I64;
    PCOL_RETURN_NOT_OK(pcol_b_string(x->b, pcol_jt_str(T, name), pcol_jt_strlen(T, name), &l[n++].str, x->j.err));
  }
  pcol_jv ids[2] = {pid, tid};
  uint32_t keys[2] = {x->k_pid, x->k_tid};
  for (int k = 0; k < 2; k++) {
    if (pcol_jt_is_int(ids[k])) {
      l[n].key = keys[k];
      l[n++].num = pcol_jt_int(T, ids[k]);
    } else if (pcol_jt_is_str(ids[k])) {
      l[n].key = keys[k];
      l[n].num = PCOL_NA_I64;
      PCOL_RETURN_NOT_OK(pcol_b_string(x->b, pcol_jt_str(T, ids[k]), pcol_jt_strlen(T, ids[k]), &l[n++].str, x->j.err));
    }
  }
  if (cat > 0 && x->categories) {
    pcol_jv c = pcol_jt_get(T, pcol_jt_at(T, x->categories, (size_t)(cat - 1)), "name");
    if (pcol_jt_is_str(c)) {
      l[n].key = x->k_cat;
      l[n].num = PCOL_NA_I64;
      PCOL_RETURN_NOT_OK(pcol_b_string(x->b, pcol_jt_str(T, c), pcol_jt_strlen(T, c), &l[n++].str, x->j.err));
    }
  }
  if (base) {
    if (!x->k_base) {
      PCOL_RETURN_NOT_OK(pcol_b_cstr(x->b, PCOL_DIFF_BASE_KEY, &x->k_base, x->j.err));
      PCOL_RETURN_NOT_OK(pcol_b_cstr(x->b, "true", &x->s_true, x->j.err));
    }
    l[n].key = x->k_base;
    l[n].num = PCOL_NA_I64;
    l[n++].str = x->s_true;
    x->based = 1;
  }
  return pcol_b_labelset(x->b, l, n, ls, x->j.err);
}

/* The value type of weight kind 1 (tracing-ms, stored in ns) or 2 (bytes)
 * into x->cur_vt, made and tied to the source the first time a table uses
 * it.  Its name: "tracing" or "bytes", or the pcolValueType a thread of
 * pcol's export states (the exported value's, so that "cpu" or
 * "alloc_space" reads back as itself); past 16 names, the kind's own. */
static const char *kind_name(int kind) { return kind == 1 ? "tracing" : kind == 2 ? "bytes" : "count"; }

/* A processed thread's weight kind: 0 a count (the samples'), 1
 * tracing-ms, 2 bytes, 4 a count of a named value: pcol's export of a
 * value whose unit is a count but which is not the samples' count
 * (weightType samples with a pcolValueType: inuse_objects, a goroutine
 * profile's goroutine), read back as that value, each row's count its
 * pcolCount, else 1 (before, as the samples' count: `--value samples` of
 * the copy was goroutines, not samples); -1 an unknown weightType.  Not
 * with decimal counts (frac: their samples weights are count/1e-9). */
static int thread_kind(const ffi *x, const char *w, pcol_jv vn) {
  int kind = !strcmp(w, "samples") ? 0 : !strcmp(w, "tracing-ms") ? 1 : !strcmp(w, "bytes") ? 2 : -1;
  if (!kind && !x->frac && pcol_jt_is_str(vn) && *pcol_jt_str(T, vn) && strcmp(pcol_jt_str(T, vn), PCOL_VT_SAMPLES))
    kind = 4;
  return kind;
}
static int weight_type(ffi *x, int kind, const char *name) {
  x->cur_vt = 0;
  x->cur_name = NULL;
  if (!kind) return PCOL_OK;
  const char *dflt = kind_name(kind), *text = name && *name ? name : dflt;
  uint32_t t, u, vt;
  int rc = pcol_b_cstr(x->b, text, &t, x->j.err);
  size_t i = 0;
  while (!rc && i < x->nwvt && !(x->wvt[i].kind == kind && x->wvt[i].name == t)) i++;
  /* a name past the first WVT_NAMES takes the kind's own; the three own
   * names always have room (the table holds WVT_NAMES + 3).  When it is
   * the stated default's, the default is that own name (default_type) */
  int own = !name || !*name || !strcmp(name, dflt);
  if (!rc && i == x->nwvt && x->nwvt >= WVT_NAMES && !own) {
    if (x->said && !strcmp(name, x->said) && !x->said_kind) x->said_kind = kind;
    return weight_type(x, kind, NULL);
  }
  if (rc || i < x->nwvt) return rc ? rc : (x->cur_vt = x->wvt[i].vt, x->cur_name = x->wvt[i].text, PCOL_OK);
  rc = pcol_b_cstr(x->b, kind == 1 ? PCOL_UNIT_NANOSECONDS : kind == 2 ? "bytes" : PCOL_UNIT_COUNT, &u, x->j.err);
  if (!rc) rc = pcol_b_value_type(x->b, t, u, &vt, x->j.err);
  if (!rc) rc = svt_all(x, vt);
  if (!rc) x->wvt[x->nwvt++] = (wvt_ent){kind, t, vt, text}, x->cur_vt = vt, x->cur_name = text;
  return rc;
}

/* A thread's samples are read: the first thread with samples names the
 * source's default when the file states none (default_type): its value
 * type, or a samples weight's decimal count (count/1e-9, vt_frac) */
static void thread_seen(ffi *x, size_t n) {
  if (x->first_seen || !n) return;
  x->first_seen = 1;
  x->first_name = x->cur_name ? x->cur_name : x->frac ? COLLAPSED_VT_COUNT : NULL;
}

/* The source's default value type (meta pprof.default_sample_type, which
 * THE default rule reads, lib/core/count.c; doc/mappings.md §8.1), once
 * its threads are read: the count when count_scan made samples/count;
 * else the one pcol's export states (meta.pcolDefaultValue: the value its
 * views showed, a JFR recording's cpu beside its allocation threads) when
 * it names a value type of the file; else the first thread's value type
 * (the thread the Firefox Profiler opens on, when no GeckoMain of a tab
 * comes first); none when that thread's weight is a count without
 * decimals and no samples/count was made: a file of such threads only has
 * no value type (the count is its default), and in a Gecko profile go tool
 * pprof's fallback, the last type, stands. */
static int default_type(ffi *x) {
  const char *name = x->first_name, *said = x->said;
  int found = 0;
  for (size_t i = 0; said && i < x->nwvt; i++)
    if (!strcmp(x->wvt[i].text, said)) name = said, found = 1;
  /* a stated name past the first WVT_NAMES: its values are under the
   * kind's own name (weight_type), as count_scan took them to be a
   * thread's value (the first thread's default was taken instead) */
  if (said && !found && x->said_kind) name = kind_name(x->said_kind);
  if (said && x->frac && !strcmp(said, COLLAPSED_VT_COUNT)) name = said;
  if (x->vt_cnt) name = PCOL_VT_SAMPLES;
  return name ? meta_all(x, PPROF_META_DEFAULT_SAMPLE_TYPE, name) : PCOL_OK;
}

/* The value type samples/count, tied to the source, into *vt. */
static int samples_type(ffi *x, uint32_t *vt) {
  uint32_t t, u;
  int rc = pcol_b_cstr(x->b, PCOL_VT_SAMPLES, &t, x->j.err);
  if (!rc) rc = pcol_b_cstr(x->b, PCOL_UNIT_COUNT, &u, x->j.err);
  if (!rc) rc = pcol_b_value_type(x->b, t, u, vt, x->j.err);
  if (!rc) rc = svt_all(x, *vt);
  return rc;
}

/* Before a processed profile's rows: whether its default is the count
 * (pcolDefaultValue "samples": pcol's export of sources whose own defaults
 * differ and state none; else, when it names no thread's value, the first
 * thread with samples weighs by samples) while a thread weighs by time or
 * bytes, whose rows have no count of their own (their weight column is 1):
 * then the value samples/count (vt_cnt) on every row, which THE count rule
 * counts by (lib/core/count.c), and default_type names it.  Not with
 * decimal counts (frac: their count/1e-9 is the samples weights' value). */
static int count_scan(ffi *x, pcol_jv threads) {
  const char *said = x->said;
  int first = -1, typed = 0, named = 0;
  for (size_t ti = 0; ti < pcol_jt_size(T, threads); ti++) {
    pcol_jv th = pcol_jt_at(T, threads, ti), s = pcol_jt_get(T, th, "samples");
    pcol_jv l = pcol_jt_get(T, s, "length"), wt = pcol_jt_get(T, s, "weightType");
    pcol_jv vn = pcol_jt_get(T, th, "pcolValueType");
    const char *w = pcol_jt_is_str(wt) ? pcol_jt_str(T, wt) : "samples";
    int kind = thread_kind(x, w, vn);
    if (kind < 0 || !pcol_jt_is_int(l) || pcol_jt_int(T, l) <= 0) continue; /* (an error, or no sample) */
    if (first < 0) first = kind;
    typed |= kind > 0;
    const char *vname = pcol_jt_is_str(vn) && *pcol_jt_str(T, vn) ? pcol_jt_str(T, vn) : kind_name(kind);
    named |= kind > 0 && said && !strcmp(said, vname);
  }
  int count = said && !named && !strcmp(said, PCOL_VT_SAMPLES) ? 1 : said && named ? 0 : first == 0;
  if (!count || !typed || x->frac) return PCOL_OK;
  return samples_type(x, &x->vt_cnt);
}

/* The sorter's failure: memory, or its temporary file. */
static int rows_failed(ffi *x, int rc, const char *what) {
  if (rc == PCOL_ENOMEM) return pcol_oom(x->j.err);
  return pcol_error_set(x->j.err, rc, "%s: Firefox samples: a temporary file ($TMPDIR, else /tmp) could "
                        "not be %s", x->j.name, what);
}

/* A sample to the sorter (lib/core/rowsort.c: runs on disk past its
 * budget), so that they reach the builder in time order without an array
 * of every one beside the document's tree. */
static int put_row(void *ctx, const void *row);
static int row_push(ffi *x, const srow *r) {
  srow c = *r;
  c.seq = x->nrows++;
  if (x->direct) return put_row(x, &c);
  int rc = pcol_rowsort_add(x->rows, &c);
  return rc ? rows_failed(x, rc, "written") : PCOL_OK;
}

/* A whole-number weight (or pcolCount) w at path as an int64, THE
 * whole-number rule's (pcol_json_int_of: every weight pcol's export
 * writes, to 9223372036854774784, reads back; rd17a F4), what: how the
 * message names it. */
static int whole_of(ffi *x, double w, const char *path, const char *what, int64_t *out) {
  int r = pcol_json_int_of(w, out);
  if (r == 1) return ffj_fail(&x->j, "%s: %s %.17g is not a whole number", path, what, w);
  if (r == 2) return ffj_fail(&x->j, "%s: %s %.0f is out of range (a whole number below 2^63 in magnitude)", path, what, w);
  return PCOL_OK;
}

/* A weight w with a fraction (a JSON number: a double, as the Firefox
 * Profiler reads it) of value type vt held as v whole multiples of 1 /
 * scale (grid: how the message names them), added to vt's tally of THE
 * kept rule (pcol_kept_add): the first not held to six significant digits
 * is named for the verdict after the file (pcol_kept_verdict: refused when
 * the rounding changes the total by more than a millionth, a weight of
 * 1e-12 as 0, else read with a warning). */
static int kept(ffi *x, uint32_t vt, double w, int64_t v, double scale, const char *path, const char *what,
                const char *grid) {
  pcol_kept_tally *k = pcol_kept_at(&x->kept, &x->nkept, vt);
  if (!k) return pcol_oom(x->j.err);
  if (!pcol_kept_add(k, w, v, scale, 0)) return PCOL_OK;
  char t[32];
  pcol_g_text(t, sizeof t, w);
  snprintf(k->first_at, sizeof k->first_at, "%s", path);
  pcol_error *e = x->j.err;
  x->j.err = &k->refusal;
  ffj_fail(&x->j, "%s: weight %s %s is not held to six significant digits (pcol holds it as whole "
           "multiples of %s)", path, t, what, grid);
  x->j.err = e;
  return PCOL_OK;
}

/* ms (a JSON number) as ns, refused when it does not fit */
static int ms_to_ns(ffi *x, double ms, const char *path, int64_t *ns) {
  double v = ms * 1e6;
  if (!isfinite(v) || v >= 9.2e18 || v <= -9.2e18) return ffj_fail(&x->j, "%s: %g ms is out of range", path, ms);
  *ns = llround(v);
  return PCOL_OK;
}

/* A thread of pcol's export marked "pcolTimeAxis": "synthetic" (its
 * source had no sample times); its "pcolDurationNanos" (a whole number,
 * more than 0) is the source's stated duration, the largest of them kept. */
static int is_synthetic(ffi *x, pcol_jv th) {
  pcol_jv ax = pcol_jt_get(T, th, "pcolTimeAxis"), d = pcol_jt_get(T, th, "pcolDurationNanos");
  if (!pcol_jt_is_str(ax) || strcmp(pcol_jt_str(T, ax), "synthetic") != 0) return 0;
  int64_t v = pcol_jt_is_int(d) ? pcol_jt_int(T, d) : 0;
  if (v > 0 && v > x->synth_dur) x->synth_dur = v;
  return 1;
}

static int thread_samples(ffi *x, pcol_jv th, size_t ti) {
  char path[160], tp[48];
  snprintf(tp, sizeof tp, "threads[%zu]", ti);
  pcol_jv s;
  size_t n;
  PCOL_RETURN_NOT_OK(ffj_table(&x->j, th, "samples", tp, &s, &n));
  pcol_jv markers = pcol_jt_get(T, th, "markers");
  if (pcol_jt_is_obj(markers) && pcol_jt_is_int(pcol_jt_get(T, markers, "length")) &&
      pcol_jt_int(T, pcol_jt_get(T, markers, "length")) > 0)
    x->markers += (uint64_t)pcol_jt_int(T, pcol_jt_get(T, markers, "length"));
  pcol_jv wt = pcol_jt_get(T, s, "weightType"), weight = pcol_jt_get(T, s, "weight");
  const char *wtype = pcol_jt_is_str(wt) ? pcol_jt_str(T, wt) : "samples";
  pcol_jv vname = pcol_jt_get(T, th, "pcolValueType");
  int kind = thread_kind(x, wtype, vname);
  if (kind < 0) return ffj_fail(&x->j, "%s.samples.weightType: unknown weight type \"%s\"", tp, wtype);
  if (weight && !pcol_jt_is_null(weight)) PCOL_RETURN_NOT_OK(ffj_column(&x->j, s, "weight", n, tp, &weight));
  else weight = 0;
  /* pcol's export of a time or bytes weight: each row's count (THE count
   * rule), which the weight does not give; read as the row's weight */
  pcol_jv pcnt = pcol_jt_get(T, s, "pcolCount");
  if (pcnt && !pcol_jt_is_null(pcnt) && kind != 0) PCOL_RETURN_NOT_OK(ffj_column(&x->j, s, "pcolCount", n, tp, &pcnt));
  else pcnt = 0;
  /* and kept as the value samples/count: a source whose counts were all 1
   * (R's pprof of an Rprof file) kept none, and the pprof export of the
   * copy had no samples/count (go -sample_index=samples refused it); made
   * before the weight's type when the source listed it first
   * (pcolCountFirst: a pprof profile's [samples, cpu], whose copy was
   * [cpu, samples], --value 0 the cpu; review diff5 m2) */
  int held = pcnt && n && !x->vt_cnt && !x->vt_held;
  if (held && pcol_jt_kind(pcol_jt_get(T, th, "pcolCountFirst")) == PCOL_JK_TRUE)
    PCOL_RETURN_NOT_OK(samples_type(x, &x->vt_held));
  PCOL_RETURN_NOT_OK(weight_type(x, kind, pcol_jt_is_str(vname) ? pcol_jt_str(T, vname) : NULL));
  if (held && !x->vt_held) PCOL_RETURN_NOT_OK(samples_type(x, &x->vt_held));
  thread_seen(x, n);
  pcol_jv stack, time = 0, deltas = 0, cpu = pcol_jt_get(T, s, "threadCPUDelta");
  pcol_jv pdur = pcol_jt_get(T, s, "pcolDuration"), pw = pcol_jt_get(T, s, "pcolWeight");
  PCOL_RETURN_NOT_OK(ffj_column(&x->j, s, "stack", n, tp, &stack));
  if (pcol_jt_get(T, s, "time")) PCOL_RETURN_NOT_OK(ffj_column(&x->j, s, "time", n, tp, &time));
  else PCOL_RETURN_NOT_OK(ffj_column(&x->j, s, "timeDeltas", n, tp, &deltas));
  if (cpu) PCOL_RETURN_NOT_OK(ffj_column(&x->j, s, "threadCPUDelta", n, tp, &cpu));
  int pcol_long = pdur && pw && pcol_jt_is_arr(pdur) && pcol_jt_is_arr(pw) && pcol_jt_size(T, pdur) == n &&
                  pcol_jt_size(T, pw) == n;
  /* pcol's export of samples without times: the axis is made up, so the
   * samples come back without times, out of the profile's range, and the
   * source's stated duration with them (pcolDurationNanos) */
  int synthetic = is_synthetic(x, th);
  /* pcol's export of a -diff_base: its base's samples are pcolBase 1 */
  pcol_jv pbase = pcol_jt_get(T, s, "pcolBase");
  if (pbase && !pcol_jt_is_null(pbase)) PCOL_RETURN_NOT_OK(ffj_column(&x->j, s, "pcolBase", n, tp, &pbase));
  else pbase = 0;
  double t = 0;
  for (size_t i = 0; i < n; i++) {
    srow r = {0};
    pcol_jv tv = time ? pcol_jt_at(T, time, i) : pcol_jt_at(T, deltas, i);
    snprintf(path, sizeof path, "%s.samples.%s[%zu]", tp, time ? "time" : "timeDeltas", i);
    if (!pcol_jt_is_num(tv)) return ffj_fail(&x->j, "%s: not a number", path);
    t = time ? pcol_jt_num(T, tv) : t + pcol_jt_num(T, tv);
    /* (the profiler starts a thread of time deltas at its first delta) */
    if (i == n - 1 && !synthetic) thread_range(x, pcol_jt_num(T, pcol_jt_at(T, time ? time : deltas, 0)), t);
    PCOL_RETURN_NOT_OK(ms_to_ns(x, t, path, &r.t));
    if (synthetic) r.t = PCOL_NA_I64;
    pcol_jv sv = pcol_jt_at(T, stack, i);
    int32_t cat = 0;
    if (!pcol_jt_is_null(sv)) {
      size_t st;
      snprintf(path, sizeof path, "%s.samples.stack[%zu]", tp, i);
      PCOL_RETURN_NOT_OK(ffj_index(&x->j, sv, x->nstacks, path, "stackTable", &st));
      PCOL_RETURN_NOT_OK(stack_of(x, st, &r.stack));
      cat = x->stack_cat[st];
    }
    int base = 0;
    if (pbase) {
      pcol_jv bv = pcol_jt_at(T, pbase, i);
      if (!pcol_jt_is_num(bv)) return ffj_fail(&x->j, "%s.samples.pcolBase[%zu]: not a number", tp, i);
      base = pcol_jt_num(T, bv) != 0;
    }
    PCOL_RETURN_NOT_OK(labels_of(x, th, cat, base, &r.ls));
    double w = 1;
    if (weight) {
      pcol_jv wv = pcol_jt_at(T, weight, i);
      snprintf(path, sizeof path, "%s.samples.weight[%zu]", tp, i);
      if (!pcol_jt_is_num(wv)) return ffj_fail(&x->j, "%s: not a number", path);
      w = pcol_jt_num(T, wv);
    }
    r.cpu = PCOL_NA_I64;
    pcol_jv cv = cpu ? pcol_jt_at(T, cpu, i) : 0;
    if (cv && pcol_jt_is_num(cv) && x->cpu_scale) {
      double c = pcol_jt_num(T, cv) * (double)x->cpu_scale;
      if (isfinite(c) && fabs(c) < 9.2e18) r.cpu = llround(c);
    }
    /* pcol's own long samples: the start row has the duration and the whole
     * weight, the rest row (pcolDuration 0) is part of it */
    if (pcol_long) {
      pcol_jv d = pcol_jt_at(T, pdur, i), full = pcol_jt_at(T, pw, i);
      if (pcol_jt_is_num(d) && pcol_jt_num(T, d) == 0) continue;
      if (pcol_jt_is_num(d) && pcol_jt_num(T, d) > 0 && pcol_jt_is_num(full)) {
        snprintf(path, sizeof path, "%s.samples.pcolDuration[%zu]", tp, i);
        PCOL_RETURN_NOT_OK(ms_to_ns(x, pcol_jt_num(T, d), path, &r.dur));
        w = pcol_jt_num(T, full);
        x->intervals |= r.dur > 0 && w <= 1;
      }
    }
    snprintf(path, sizeof path, "%s.samples.weight[%zu]", tp, i);
    r.kind = kind, r.vt = x->cur_vt;
    if (kind == 0 && x->frac) { /* a count with decimals: to the 1e-9 */
      if (!isfinite(w) || fabs(w) >= 9.2e9)
        return ffj_fail(&x->j, "%s: weight %g of weightType samples is out of range (a file with decimal "
                        "weights holds them to 9223372036.854775807)", path, w);
      r.w = llround(w), r.v = llround(w * 1e9), r.kind = 3, r.vt = x->vt_frac;
      PCOL_RETURN_NOT_OK(kept(x, r.vt, w, r.v, 1e9, path, "of weightType samples", "1e-9"));
    } else if (kind == 0) { /* a count: whole */
      PCOL_RETURN_NOT_OK(whole_of(x, w, path, "weight of weightType samples", &r.w));
    } else {
      r.w = 1;
      if (pcnt) {
        pcol_jv cv2 = pcol_jt_at(T, pcnt, i);
        if (!pcol_jt_is_num(cv2)) /* review 14 m2: the words of doc/mappings.md §8.1 */
          return ffj_fail(&x->j, "%s.samples.pcolCount[%zu]: not a number", tp, i);
        snprintf(path, sizeof path, "%s.samples.pcolCount[%zu]", tp, i);
        PCOL_RETURN_NOT_OK(whole_of(x, pcol_jt_num(T, cv2), path, "count", &r.w));
        snprintf(path, sizeof path, "%s.samples.weight[%zu]", tp, i);
        r.held = 1;
      }
      if (kind == 1) {
        PCOL_RETURN_NOT_OK(ms_to_ns(x, w, path, &r.v));
        PCOL_RETURN_NOT_OK(kept(x, r.vt, w, r.v, 1e6, path, "of weightType tracing-ms", "1e-6 ms (a ns)"));
      }
      else PCOL_RETURN_NOT_OK(whole_of(x, w, path, kind == 2 ? "weight in bytes" : "weight (a count)", &r.v));
    }
    r.src = x->cur_src;
    if (x->ngroups && r.t != PCOL_NA_I64 && __builtin_sub_overflow(r.t, x->g_zero[x->tgroup[ti]], &r.t))
      return ffj_fail(&x->j, "%s.samples.time[%zu]: out of range less processStartupTime", tp, i); /* (since its time 0) */
    PCOL_RETURN_NOT_OK(row_push(x, &r));
  }
  processed_extra_range(x, th, n);
  return PCOL_OK;
}

static int row_cmp(const void *pa, const void *pb) {
  srow a, b;
  memcpy(&a, pa, sizeof a);
  memcpy(&b, pb, sizeof b);
  if (a.src != b.src) return a.src < b.src ? -1 : 1; /* (the builder takes sources in order) */
  if (a.t != b.t) return a.t < b.t ? -1 : 1;
  return a.seq < b.seq ? -1 : a.seq > b.seq;
}

/* Each sample, in time order, to the builder. */
static int put_row(void *ctx, const void *row) {
  ffi *x = ctx;
  srow r;
  memcpy(&r, row, sizeof r);
  pcol_sample_row smp = {r.src ? r.src : x->src, r.t, r.dur, r.w, r.cpu, r.stack, r.ls};
  pcol_value_row val[2];
  size_t nv = 0;
  if (x->vt_cnt) val[nv++] = (pcol_value_row){x->vt_cnt, r.w}; /* (count_scan; pcolCount, else 1) */
  else if (r.held) val[nv++] = (pcol_value_row){x->vt_held, r.w};
  if (r.kind) val[nv++] = (pcol_value_row){r.vt, r.v};
  int rc = pcol_b_sample(x->b, &smp, val, nv, NULL, x->j.err);
  x->put_failed = rc != 0;
  return rc;
}


/* ------------------------------------------------------------- Gecko */
/* column `name` of a Gecko table's schema: its index in a row, or -1 */
static int gk_idx(const pcol_jtree *t, pcol_jv table, const char *name) {
  pcol_jv v = pcol_jt_get(t, pcol_jt_get(t, table, "schema"), name);
  return pcol_jt_is_int(v) && pcol_jt_int(t, v) >= 0 && pcol_jt_int(t, v) < 64
             ? (int)pcol_jt_int(t, v) : -1;
}
static pcol_jv gk_cell(const pcol_jtree *t, pcol_jv rows, size_t r, int c) {
  return c < 0 ? 0 : pcol_jt_at(t, pcol_jt_at(t, rows, r), (size_t)c);
}

typedef struct gk { /* one Gecko thread's tables */
  pcol_jv strings, stacks, frames;
  int st_prefix, st_frame, fr_loc, fr_line, fr_col, fr_cat;
  size_t nstacks, nframes;
  uint32_t *stack_memo, *frame_memo;
  int32_t *stack_cat;
  pcol_buf name, file;
} gk;

static int gk_location(ffi *x, gk *g, size_t fr, const char *tp, uint32_t *out) {
  if (g->frame_memo[fr]) {
    *out = g->frame_memo[fr];
    return PCOL_OK;
  }
  char path[256];
  size_t si;
  snprintf(path, sizeof path, "%s.frameTable.data[%zu] location", tp, fr);
  PCOL_RETURN_NOT_OK(ffj_index(&x->j, gk_cell(T, g->frames, fr, g->fr_loc), pcol_jt_size(T, g->strings), path,
                               "stringTable", &si));
  pcol_jv str = pcol_jt_at(T, g->strings, si);
  if (!pcol_jt_is_str(str)) return ffj_fail(&x->j, "%s.stringTable[%zu]: not a string", tp, si);
  pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
  if (pcol_gecko_name(pcol_jt_str(T, str), pcol_jt_strlen(T, str), &g->name, &g->file, &fn.start_line))
    return pcol_oom(x->j.err);
  PCOL_RETURN_NOT_OK(pcol_b_string(x->b, g->name.data ? (const char *)g->name.data : "", g->name.len,
                                   &fn.name, x->j.err));
  if (g->file.len)
    PCOL_RETURN_NOT_OK(pcol_b_string(x->b, (const char *)g->file.data, g->file.len, &fn.filename, x->j.err));
  pcol_line_row ln = {0, PCOL_NA_I64, PCOL_NA_I64};
  pcol_jv l = gk_cell(T, g->frames, fr, g->fr_line), c = gk_cell(T, g->frames, fr, g->fr_col);
  if (pcol_jt_is_int(l)) ln.line = pcol_jt_int(T, l);
  if (pcol_jt_is_int(c)) ln.column = pcol_jt_int(T, c);
  PCOL_RETURN_NOT_OK(pcol_b_function(x->b, &fn, &ln.function_id, x->j.err));
  PCOL_RETURN_NOT_OK(pcol_b_location(x->b, 0, 0, 0, &ln, 1, out, x->j.err));
  g->frame_memo[fr] = *out;
  return PCOL_OK;
}

static int gk_stack(ffi *x, gk *g, size_t st, const char *tp, uint32_t *out) {
  /* the chain up to a stack already made; a prefix must come first */
  size_t n = 0, cap = 0, *chain = NULL, s = st;
  int rc = PCOL_OK;
  char path[256];
  while (!g->stack_memo[s]) {
    if (PCOL_GROW(chain, n, cap)) {
      free(chain);
      return pcol_oom(x->j.err);
    }
    chain[n++] = s;
    pcol_jv p = gk_cell(T, g->stacks, s, g->st_prefix);
    if (!p || pcol_jt_is_null(p)) break;
    if (!pcol_jt_is_int(p) || pcol_jt_int(T, p) < 0 || (uint64_t)pcol_jt_int(T, p) >= s) {
      rc = ffj_fail(&x->j, "%s.stackTable.data[%zu]: prefix is not null or a stack before %zu", tp, s, s);
      break;
    }
    s = (size_t)pcol_jt_int(T, p);
  }
  for (size_t k = n; k-- > 0 && !rc;) {
    size_t c = chain[k], fr;
    pcol_jv p = gk_cell(T, g->stacks, c, g->st_prefix);
    size_t parent = pcol_jt_is_int(p) ? (size_t)pcol_jt_int(T, p) : 0;
    int root = !pcol_jt_is_int(p);
    snprintf(path, sizeof path, "%s.stackTable.data[%zu] frame", tp, c);
    if ((rc = ffj_index(&x->j, gk_cell(T, g->stacks, c, g->st_frame), g->nframes, path, "frameTable", &fr))) break;
    uint32_t loc;
    if ((rc = gk_location(x, g, fr, tp, &loc))) break;
    if ((rc = pcol_b_stack_node(x->b, root ? 0 : g->stack_memo[parent], loc, &g->stack_memo[c], x->j.err))) break;
    pcol_jv cat = gk_cell(T, g->frames, fr, g->fr_cat);
    if (pcol_jt_is_int(cat) && pcol_jt_int(T, cat) >= 0) g->stack_cat[c] = (int32_t)(pcol_jt_int(T, cat) + 1);
    else if (!root) g->stack_cat[c] = g->stack_cat[parent];
  }
  free(chain);
  if (!rc) *out = g->stack_memo[st];
  return rc;
}

static int gk_table(ffi *x, pcol_jv th, const char *key, const char *tp, pcol_jv *rows) {
  pcol_jv t = pcol_jt_get(T, th, key);
  *rows = pcol_jt_get(T, t, "data");
  if (!pcol_jt_is_obj(pcol_jt_get(T, t, "schema")) || !pcol_jt_is_arr(*rows))
    return ffj_fail(&x->j, "%s.%s: not a Gecko table ({schema, data})", tp, key);
  return PCOL_OK;
}

/* A Gecko thread's markers, as the profiler processes them
 * (process-profile's _sortMarkers and _processMarkers): sorted by endTime,
 * else startTime (one that has neither makes it fail: r_bad), those whose
 * payload's type is "JS allocation" or "Native allocation" become the
 * allocation tables (their startTime: the first and last in that order),
 * the others the markers (marker_range, when the thread has no samples);
 * a child process's times move by off.  Rows of a table whose data came
 * before its schema were not kept (firefox_json.c): r_bad. */
static void gecko_extra_range(ffi *x, pcol_jv th, size_t nsamples, double off) {
  pcol_jv m = pcol_jt_get(T, th, "markers"), rows = pcol_jt_get(T, m, "data");
  size_t n = pcol_jt_size(T, rows);
  if (!n) return;
  int c_s = gk_idx(T, m, "startTime"), c_e = gk_idx(T, m, "endTime"), c_p = gk_idx(T, m, "phase"),
      c_d = gk_idx(T, m, "data");
  double lo_key = INFINITY, hi_key = -INFINITY;
  pcol_jv lo_t = 0, hi_t = 0; /* the allocations' first and last startTime */
  for (size_t i = 0; i < n && !x->r_bad; i++) {
    pcol_jv row = pcol_jt_at(T, rows, i);
    if (!pcol_jt_is_arr(row)) {
      x->r_bad = 1;
      break;
    }
    pcol_jv st = gk_cell(T, rows, i, c_s), et = gk_cell(T, rows, i, c_e);
    /* the sort key: endTime || startTime (a sort of one compares nothing) */
    pcol_jv key = pcol_jt_is_num(et) && pcol_jt_num(T, et) != 0 ? et : st;
    if (!pcol_jt_is_num(key) && n > 1) x->r_bad = 1;
    const char *type = ffj_str(&x->j, pcol_jt_get(T, gk_cell(T, rows, i, c_d), "type"));
    if (type && (!strcmp(type, "JS allocation") || !strcmp(type, "Native allocation"))) {
      if (!pcol_jt_is_num(st)) x->r_bad = 1;
      else {
        double k = pcol_jt_num(T, key);
        if (k < lo_key || !lo_t) lo_key = k, lo_t = st;
        if (k >= hi_key || !hi_t) hi_key = k, hi_t = st;
      }
    } else if (!nsamples)
      marker_range(x, gk_cell(T, rows, i, c_p), st, et, off);
  }
  if (lo_t && !x->r_bad) thread_range(x, pcol_jt_num(T, lo_t) + off, pcol_jt_num(T, hi_t) + off);
}

static int gecko_thread(ffi *x, pcol_jv th, double offset_ms, const char *tp) {
  gk g;
  memset(&g, 0, sizeof g);
  pcol_jv samples, srows;
  PCOL_RETURN_NOT_OK(ffj_array(&x->j, th, "stringTable", tp, &g.strings));
  PCOL_RETURN_NOT_OK(gk_table(x, th, "stackTable", tp, &g.stacks));
  PCOL_RETURN_NOT_OK(gk_table(x, th, "frameTable", tp, &g.frames));
  PCOL_RETURN_NOT_OK(gk_table(x, th, "samples", tp, &srows));
  pcol_jv st = pcol_jt_get(T, th, "stackTable"), ft = pcol_jt_get(T, th, "frameTable");
  samples = pcol_jt_get(T, th, "samples");
  g.st_prefix = gk_idx(T, st, "prefix");
  g.st_frame = gk_idx(T, st, "frame");
  g.fr_loc = gk_idx(T, ft, "location");
  g.fr_line = gk_idx(T, ft, "line");
  g.fr_col = gk_idx(T, ft, "column");
  g.fr_cat = gk_idx(T, ft, "category");
  int s_stack = gk_idx(T, samples, "stack"), s_time = gk_idx(T, samples, "time"),
      s_cpu = gk_idx(T, samples, "threadCPUDelta"), s_w = gk_idx(T, samples, "weight");
  if (g.st_prefix < 0 || g.st_frame < 0 || g.fr_loc < 0 || s_stack < 0 || s_time < 0)
    return ffj_fail(&x->j, "%s: a Gecko table's schema lacks prefix, frame, location, stack or time", tp);
  pcol_jv markers = pcol_jt_get(T, pcol_jt_get(T, th, "markers"), "data");
  if (pcol_jt_is_arr(markers)) x->markers += pcol_jt_size(T, markers);
  g.nstacks = pcol_jt_size(T, g.stacks);
  g.nframes = pcol_jt_size(T, g.frames);
  int rc = PCOL_OK;
  if (!(g.stack_memo = calloc(g.nstacks + 1, sizeof *g.stack_memo)) ||
      !(g.frame_memo = calloc(g.nframes + 1, sizeof *g.frame_memo)) ||
      !(g.stack_cat = calloc(g.nstacks + 1, sizeof *g.stack_cat)))
    rc = pcol_oom(x->j.err);
  const char *wt = ffj_str(&x->j, pcol_jt_get(T, samples, "weightType"));
  int kind = !wt || !strcmp(wt, "samples") ? 0 : !strcmp(wt, "tracing-ms") ? 1 : !strcmp(wt, "bytes") ? 2 : -1;
  if (!rc && kind < 0) rc = ffj_fail(&x->j, "%s.samples.weightType: unknown weight type \"%s\"", tp, wt);
  if (!rc) rc = weight_type(x, kind, NULL);
  if (!rc) thread_seen(x, pcol_jt_size(T, srows));
  char path[256];
  for (size_t i = 0; i < pcol_jt_size(T, srows) && !rc; i++) {
    srow r = {0};
    pcol_jv tv = gk_cell(T, srows, i, s_time), sv = gk_cell(T, srows, i, s_stack);
    snprintf(path, sizeof path, "%s.samples.data[%zu]", tp, i);
    if (!pcol_jt_is_num(tv)) {
      rc = ffj_fail(&x->j, "%s: time is not a number", path);
      break;
    }
    if ((rc = ms_to_ns(x, pcol_jt_num(T, tv) + offset_ms, path, &r.t))) break;
    if (i == pcol_jt_size(T, srows) - 1)
      thread_range(x, pcol_jt_num(T, gk_cell(T, srows, 0, s_time)) + offset_ms, pcol_jt_num(T, tv) + offset_ms);
    int32_t cat = 0;
    if (sv && !pcol_jt_is_null(sv)) {
      size_t si;
      snprintf(path, sizeof path, "%s.samples.data[%zu] stack", tp, i);
      if ((rc = ffj_index(&x->j, sv, g.nstacks, path, "stackTable", &si))) break;
      if ((rc = gk_stack(x, &g, si, tp, &r.stack))) break;
      cat = g.stack_cat[si];
    }
    /* the thread's labels: its name, pid and tid; the leaf's category */
    if ((rc = labels_of(x, th, cat, 0, &r.ls))) break;
    pcol_jv wv = gk_cell(T, srows, i, s_w);
    double w = pcol_jt_is_num(wv) ? pcol_jt_num(T, wv) : 1;
    r.cpu = PCOL_NA_I64;
    pcol_jv cv = gk_cell(T, srows, i, s_cpu);
    if (pcol_jt_is_num(cv) && x->cpu_scale) {
      double c = pcol_jt_num(T, cv) * (double)x->cpu_scale;
      if (isfinite(c) && fabs(c) < 9.2e18) r.cpu = llround(c);
    }
    r.kind = kind, r.vt = x->cur_vt;
    if (kind == 0) {
      if ((rc = whole_of(x, w, path, "weight of weightType samples", &r.w))) break;
    } else {
      r.w = 1;
      if (kind == 1) rc = ms_to_ns(x, w, path, &r.v);
      else rc = whole_of(x, w, path, "weight in bytes", &r.v);
    }
    if (!rc) rc = row_push(x, &r);
  }
  if (!rc) gecko_extra_range(x, th, pcol_jt_size(T, srows), offset_ms);
  free(g.stack_memo);
  free(g.frame_memo);
  free(g.stack_cat);
  pcol_buf_free(&g.name);
  pcol_buf_free(&g.file);
  return rc;
}

/* A Gecko process and its child processes (at most 16 deep). */
static int gecko_process(ffi *x, pcol_jv proc, double base_ms, const char *path, int depth) {
  if (depth > 16) return ffj_fail(&x->j, "%s: processes nested more than 16 deep", path);
  pcol_jv meta = pcol_jt_get(T, proc, "meta");
  if (!pcol_jt_is_obj(meta)) return ffj_fail(&x->j, "%s%smeta: missing or not an object", path, *path ? "." : "");
  double start = pcol_jt_num(T, pcol_jt_get(T, meta, "startTime"));
  double off = isfinite(start) && start > 0 ? start - base_ms : 0;
  pcol_jv threads;
  PCOL_RETURN_NOT_OK(ffj_array(&x->j, proc, "threads", path, &threads));
  pcol_jv th;
  char tp[192];
  for (size_t i = 0; i < pcol_jt_size(T, threads) && (th = pcol_jt_at(T, threads, i)); i++) {
    snprintf(tp, sizeof tp, "%.120s%sthreads[%zu]", path, *path ? "." : "", i);
    if (!pcol_jt_is_obj(th)) return ffj_fail(&x->j, "%s: not an object", tp);
    PCOL_RETURN_NOT_OK(gecko_thread(x, th, off, tp));
  }
  pcol_jv procs = pcol_jt_get(T, proc, "processes");
  if (pcol_jt_is_arr(procs))
    for (size_t i = 0; i < pcol_jt_size(T, procs) && (th = pcol_jt_at(T, procs, i)); i++) {
      snprintf(tp, sizeof tp, "%.120s%sprocesses[%zu]", path, *path ? "." : "", i);
      PCOL_RETURN_NOT_OK(gecko_process(x, th, base_ms, tp, depth + 1));
    }
  return PCOL_OK;
}

static int import_gecko(ffi *x, pcol_jv meta) {
  x->categories = pcol_jt_get(T, meta, "categories");
  if (!pcol_jt_is_arr(x->categories)) x->categories = 0;
  const char *cu = ffj_str(&x->j, pcol_jt_get(T, pcol_jt_get(T, meta, "sampleUnits"), "threadCPUDelta"));
  x->cpu_scale = !cu || !strcmp(cu, "µs") ? 1000 : !strcmp(cu, "ns") ? 1 : 0;
  double start = pcol_jt_num(T, pcol_jt_get(T, meta, "startTime"));
  return gecko_process(x, x->j.root, isfinite(start) ? start : 0, "", 0);
}

/* 1 when thread th's samples are in time order (a time column that never
 * goes back, or time deltas that are never negative): the usual profile
 * of one thread, whose samples then go to the builder as they are read. */
static int thread_in_order(ffi *x, pcol_jv th) {
  pcol_jv s = pcol_jt_get(T, th, "samples");
  if (!pcol_jt_is_obj(s)) return 0;
  pcol_jv time = pcol_jt_get(T, s, "time"), deltas = time ? 0 : pcol_jt_get(T, s, "timeDeltas");
  pcol_jv col = time ? time : deltas;
  if (!pcol_jt_is_arr(col)) return 0;
  double last = -INFINITY;
  for (size_t i = 0, n = pcol_jt_size(T, col); i < n; i++) {
    pcol_jv v = pcol_jt_at(T, col, i);
    if (!pcol_jt_is_num(v)) return 0; /* (the reading says what is wrong) */
    double t = pcol_jt_num(T, v);
    if (time ? !(t >= last) : !(t >= 0)) return 0;
    last = t;
  }
  return 1;
}

/* 1 when a samples weight of a thread (weight, or pcol's pcolWeight) is a
 * number with decimals: pcol's export of a decimal collapsed count writes
 * them so (doc/mappings.md §8.1) */
static int has_frac_weights(ffi *x, pcol_jv threads) {
  for (size_t ti = 0; ti < pcol_jt_size(T, threads); ti++) {
    pcol_jv s = pcol_jt_get(T, pcol_jt_at(T, threads, ti), "samples");
    pcol_jv wt = pcol_jt_get(T, s, "weightType");
    if (pcol_jt_is_str(wt) && strcmp(pcol_jt_str(T, wt), "samples")) continue;
    const char *cols[] = {"weight", "pcolWeight"};
    for (int c = 0; c < 2; c++) {
      pcol_jv a = pcol_jt_get(T, s, cols[c]);
      for (size_t i = 0; pcol_jt_is_arr(a) && i < pcol_jt_size(T, a); i++) {
        pcol_jv v = pcol_jt_at(T, a, i);
        double w = pcol_jt_is_num(v) ? pcol_jt_num(T, v) : 0;
        if (isfinite(w) && w != floor(w)) return 1;
      }
    }
  }
  return 0;
}

static int import_processed(ffi *x, pcol_jv meta) {
  pcol_jv threads;
  PCOL_RETURN_NOT_OK(ffj_array(&x->j, x->j.root, "threads", "", &threads));
  x->categories = pcol_jt_get(T, meta, "categories");
  if (!pcol_jt_is_arr(x->categories)) x->categories = 0;
  const char *cu = ffj_str(&x->j, pcol_jt_get(T, pcol_jt_get(T, meta, "sampleUnits"), "threadCPUDelta"));
  x->cpu_scale = !cu || !strcmp(cu, "µs") ? 1000 : !strcmp(cu, "ns") ? 1 : 0;
  pcol_jv shared = pcol_jt_get(T, x->j.root, "shared");
  if (x->version >= 60 && !pcol_jt_is_obj(shared)) return ffj_fail(&x->j, "shared: missing (version %d)", x->version);
  if (x->version >= 60)
    PCOL_RETURN_NOT_OK(tables_load(x, shared, shared, "shared"));
  pcol_jv th;
  char tp[48];
  if ((x->frac = has_frac_weights(x, threads))) {
    uint32_t t, u;
    int rc = pcol_b_cstr(x->b, COLLAPSED_VT_COUNT, &t, x->j.err);
    if (!rc) rc = pcol_b_cstr(x->b, COLLAPSED_UNIT_NANO, &u, x->j.err);
    if (!rc) rc = pcol_b_value_type(x->b, t, u, &x->vt_frac, x->j.err);
    if (!rc) rc = svt_all(x, x->vt_frac);
    if (rc) return rc;
  }
  PCOL_RETURN_NOT_OK(count_scan(x, threads));
  x->direct = pcol_jt_size(T, threads) == 1 && pcol_jt_is_obj(pcol_jt_at(T, threads, 0)) &&
              thread_in_order(x, pcol_jt_at(T, threads, 0));
  for (size_t ti = 0; ti < pcol_jt_size(T, threads) && (th = pcol_jt_at(T, threads, ti)); ti++) {
    snprintf(tp, sizeof tp, "threads[%zu]", ti);
    if (!pcol_jt_is_obj(th)) return ffj_fail(&x->j, "%s: not an object", tp);
    if (x->version < 60) PCOL_RETURN_NOT_OK(tables_load(x, th, x->version >= 56 ? shared : th, tp));
    x->cur_src = x->ngroups ? x->gsrc[x->tgroup[ti]] : x->src;
    PCOL_RETURN_NOT_OK(thread_samples(x, th, ti));
  }
  return PCOL_OK;
}

/* meta.startTime, ms since the epoch (a double), as ns since the epoch in
 * *ns: the whole ms and the fraction apart (the fraction of a double is
 * exact, and ms x 10^6 as one double would round to 256 ns at today's
 * dates), the fraction rounded to the ns.  NA when absent, null or 0 (a
 * profile with no start, as pcol's export of a source without one writes
 * it).  Refused (PCOL_ECORRUPT, named): not a number, negative, or 2^63 ns
 * or later (the year 2262); no float is converted out of its range. */
static int start_ns(ffi *x, pcol_jv meta, int64_t *ns) {
  pcol_jv v = pcol_jt_get(T, meta, "startTime");
  *ns = PCOL_NA_I64;
  if (!v || pcol_jt_is_null(v)) return PCOL_OK;
  if (!pcol_jt_is_num(v)) return ffj_fail(&x->j, "meta.startTime: not a number");
  int64_t whole, frac = 0, r;
  if (pcol_jt_is_int(v)) {
    whole = pcol_jt_int(T, v);
    if (whole < 0) return ffj_fail(&x->j, "meta.startTime: %lld ms is before the epoch", (long long)whole);
  } else {
    double ms = pcol_jt_num(T, v);
    if (ms != ms) return ffj_fail(&x->j, "meta.startTime: not a number (NaN)");
    if (ms < 0) return ffj_fail(&x->j, "meta.startTime: %.16g ms is before the epoch", ms);
    /* 2^63 ns is 9223372036854.775808 ms; larger (and inf) are refused below */
    if (!(ms < 0x1p63 / 1e6 + 1)) goto late;
    double w = floor(ms);
    whole = (int64_t)w;                   /* 0 <= w < 2^44: in range */
    frac = (int64_t)llround((ms - w) * 1e6); /* ms - w is exact, in [0, 1) */
  }
  if (whole == 0 && frac == 0) return PCOL_OK;
  if (__builtin_mul_overflow(whole, (int64_t)1000000, &r) || __builtin_add_overflow(r, frac, &r)) goto late;
  *ns = r;
  return PCOL_OK;
late:
  return ffj_fail(&x->j, "meta.startTime: %.16g ms is past the year 2262 (2^63 ns since the epoch)",
                  pcol_jt_num(T, v));
}

/* The source's duration (spec.md §7's duration rule: pprof.duration_nanos)
 * is the length of the range the Firefox Profiler gives the profile
 * (profile-data's getTimeRangeIncludingAllThreads, its root range): from
 * meta.profilingStartTime to meta.profilingEndTime when the profile has
 * both (the end not 0), else the union of the threads' ranges
 * (thread_range: samples, else markers; allocations); none when no thread
 * has one, or when the profiler would fail on a marker (r_bad).  The start
 * stays meta.startTime, which the sample times count from; the range itself
 * goes in FIREFOX_META_RANGE_START_MS/END_MS (ms since it).  pcol's
 * export states the duration itself (meta.pcolDurationNanos, a whole
 * number more than 0) when its range reaches past it to samples the
 * profiler would not count (a merge of profiles recorded apart): that is
 * the duration then; 0 when the selection states none (an Rprof
 * source's): none then, not the samples' extent; anything else ignored. */
static int range_duration(ffi *x, pcol_jv meta) {
  pcol_jv ps = pcol_jt_get(T, meta, "profilingStartTime"), pe = pcol_jt_get(T, meta, "profilingEndTime");
  pcol_jv pd = pcol_jt_get(T, meta, "pcolDurationNanos");
  int64_t said = pcol_jt_is_int(pd) ? pcol_jt_int(T, pd) : 0;
  if (pcol_jt_is_int(pd) && said == 0) return PCOL_OK; /* pcol's export: no duration stated */
  double lo = x->r_lo, hi = x->r_hi;
  if (pcol_jt_is_num(ps) && pcol_jt_is_num(pe) && pcol_jt_num(T, pe) != 0) {
    lo = pcol_jt_num(T, ps);
    hi = pcol_jt_num(T, pe);
  } else if (x->r_bad)
    return PCOL_OK; /* the profiler has no range */
  double d = (hi - lo) * 1e6;
  char v[32];
  if (!(d >= 0 && d < 0x1p63)) { /* none, or not a length */
    if (lo <= hi || x->synth_dur < 0) return PCOL_OK;
    /* only pcol's synthetic threads: their source's stated duration */
    snprintf(v, sizeof v, "%lld", (long long)x->synth_dur);
    return pcol_b_meta_str(x->b, x->src, PPROF_META_DURATION_NANOS, v, x->j.err);
  }
  snprintf(v, sizeof v, "%lld", said > 0 ? (long long)said : (long long)llround(d));
  PCOL_RETURN_NOT_OK(pcol_b_meta_str(x->b, x->src, PPROF_META_DURATION_NANOS, v, x->j.err));
  /* where that range starts after meta.startTime is where the source's
   * span starts (THE span start, spec.md §7): a range of the copy of a
   * range that began before its part (pcol's export: the copy's zero is
   * the range's start, pcol_wall_cut_keep_span), or of a profile whose
   * profiling began after its process, cuts the window the profiler shows
   * (it was taken to start at meta.startTime); not a range pcol's export
   * widened to rows past the duration it states (pcolDurationNanos) */
  double o = lo * 1e6;
  if (said <= 0 && o >= 0.5 && o < 0x1p63) {
    snprintf(v, sizeof v, "%lld", (long long)llround(o));
    PCOL_RETURN_NOT_OK(pcol_b_meta_str(x->b, x->src, PCOL_META_SPAN_START_NS, v, x->j.err));
  }
  /* the range itself, for the export (meta.profilingStartTime/EndTime) */
  snprintf(v, sizeof v, "%.17g", lo);
  PCOL_RETURN_NOT_OK(pcol_b_meta_str(x->b, x->src, FIREFOX_META_RANGE_START_MS, v, x->j.err));
  snprintf(v, sizeof v, "%.17g", hi);
  return pcol_b_meta_str(x->b, x->src, FIREFOX_META_RANGE_END_MS, v, x->j.err);
}

int pcol_import_firefox(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                        pcol_error *err) {
  ffi x;
  memset(&x, 0, sizeof x);
  x.b = b;
  if (pcol_rowsort_new(&x.rows, sizeof(srow), row_cmp)) return pcol_oom(err);
  int rc = ffj_read(&x.j, in, name, opt, err);
  if (rc) {
    pcol_rowsort_free(x.rows);
    return rc;
  }
  pcol_jv meta = pcol_jt_get(&x.j.t, x.j.root, "meta");
  if (!pcol_jt_is_obj(meta)) {
    ffj_free(&x.j);
    pcol_rowsort_free(x.rows);
    return pcol_error_set(err, PCOL_EFORMAT, "%s: not a Firefox profile (no meta object)", name);
  }
  pcol_jv ppv = pcol_jt_get(&x.j.t, meta, "preprocessedProfileVersion");
  int processed = pcol_jt_is_int(ppv);
  x.version = processed ? (int)pcol_jt_int(&x.j.t, ppv) : 0;
  int64_t t0;
  rc = start_ns(&x, meta, &t0);
  int64_t ts = t0 == PCOL_NA_I64 ? PCOL_NA_I64 : t0 / 1000000000;
  if (rc) {
    /* (start_ns said what is wrong) */
  } else if (processed && (x.version < FIREFOX_IMPORT_MIN || x.version > FIREFOX_IMPORT_MAX))
    rc = pcol_error_set(err, PCOL_EUNSUPPORTED,
                        "%s: processed profile version %d; pcol reads versions %d to %d%s", name,
                        x.version, FIREFOX_IMPORT_MIN, FIREFOX_IMPORT_MAX,
                        x.version < FIREFOX_IMPORT_MIN
                            ? " (profiler.firefox.com upgrades older ones: load it there and download it again)"
                            : "");
  if (!rc) rc = pcol_b_source(b, "firefox", name, ts, &x.src, err);
  if (!rc && processed) rc = windows_scan(&x, name, t0);
  /* the start to the ns (spec.md §7's start rule; source_timestamp holds
   * whole seconds only; of windows, each its own: windows_scan) */
  if (!rc && t0 != PCOL_NA_I64 && !x.ngroups) {
    char tv[24];
    snprintf(tv, sizeof tv, "%lld", (long long)t0);
    rc = meta_all(&x, PPROF_META_TIME_NANOS, tv);
  }
  const struct { const char *s; uint32_t *id; } keys[] = {
      {"thread_name", &x.k_thread}, {"tid", &x.k_tid}, {"pid", &x.k_pid}, {"category", &x.k_cat}};
  for (size_t i = 0; !rc && i < sizeof keys / sizeof *keys; i++) rc = pcol_b_cstr(b, keys[i].s, keys[i].id, err);
  char v[32];
  if (!rc) {
    snprintf(v, sizeof v, "%d", x.version);
    if (processed) rc = meta_all(&x, "firefox.processed_version", v);
  }
  /* meta.interval, the samples' interval (THE interval rule), unless
   * pcol's export says it chose it (pcolIntervalStated false: no source
   * stated one); the range below still reaches one interval past a
   * thread's last sample */
  pcol_jv iv = pcol_jt_get(&x.j.t, meta, "interval");
  if (!rc && pcol_jt_is_num(iv) && pcol_jt_kind(pcol_jt_get(&x.j.t, meta, "pcolIntervalStated")) != PCOL_JK_FALSE) {
    snprintf(v, sizeof v, "%.17g", pcol_jt_num(&x.j.t, iv));
    rc = meta_all(&x, FIREFOX_META_INTERVAL_MS, v);
  }
  /* meta.pcolTruncatedStacks, pcol's export's: its stacks the recorder
   * truncated (THE rule: truncated.c), so the views warn as the original's */
  pcol_jv tr = pcol_jt_get(&x.j.t, meta, "pcolTruncatedStacks");
  if (!rc && pcol_jt_is_int(tr) && pcol_jt_int(&x.j.t, tr) > 0)
    rc = pcol_b_truncated_stacks(b, x.src, (uint64_t)pcol_jt_int(&x.j.t, tr), err);
  x.r_lo = INFINITY;
  x.r_hi = -INFINITY;
  x.synth_dur = -1;
  x.interval_ms = pcol_jt_is_num(iv) ? pcol_jt_num(&x.j.t, iv) : NAN;
  pcol_jv dv = pcol_jt_get(&x.j.t, meta, "pcolDefaultValue"); /* (count_scan, weight_type, default_type) */
  x.said = pcol_jt_is_str(dv) ? pcol_jt_str(&x.j.t, dv) : NULL;
  /* pcol's export of sources whose nameless lines are places (Rprof's):
   * this one's are too (THE nameless rule, meta pcol.nameless_places) */
  if (pcol_jt_kind(pcol_jt_get(&x.j.t, meta, "pcolNamelessPlaces")) == PCOL_JK_TRUE) x.places = 1;
  if (!rc && processed) rc = import_processed(&x, meta);
  if (!rc && !processed) {
    pcol_jv gv = pcol_jt_get(&x.j.t, meta, "version");
    if (!pcol_jt_is_int(gv) || pcol_jt_int(&x.j.t, gv) < FIREFOX_GECKO_MIN || pcol_jt_int(&x.j.t, gv) > FIREFOX_GECKO_VERSION)
      rc = pcol_error_set(err, PCOL_EUNSUPPORTED, "%s: Gecko profile version %lld; pcol reads versions %d to %d "
                          "(profiler.firefox.com reads older ones: load it there and download the processed profile)",
                          name, pcol_jt_is_int(gv) ? (long long)pcol_jt_int(&x.j.t, gv) : -1LL,
                          FIREFOX_GECKO_MIN, FIREFOX_GECKO_VERSION);
    else rc = import_gecko(&x, meta);
    snprintf(v, sizeof v, "%lld", pcol_jt_is_int(gv) ? (long long)pcol_jt_int(&x.j.t, gv) : -1LL);
    if (!rc) rc = pcol_b_meta_str(b, x.src, "firefox.gecko_version", v, err);
  }
  if (!rc) rc = x.ngroups ? windows_meta(&x) : range_duration(&x, meta);
  if (!rc) rc = default_type(&x);
  /* the document is read: its tree goes before the samples come back
   * from the sorter (times stay ms since meta.startTime, the source's
   * timestamp) */
  tables_free(&x);
  ffj_free(&x.j);
  if (!rc && !x.direct) {
    rc = pcol_rowsort_each(x.rows, put_row, &x);
    if (rc && !x.put_failed) rc = rows_failed(&x, rc, "read");
  }
  /* (a time range counts the part of each such sample inside it, as it did
   * in the source pcol exported: V8's samples, a Chrome trace's stretches) */
  if (!rc && x.intervals) rc = meta_all(&x, PCOL_META_INTERVALS, "1");
  if (!rc && x.places) rc = meta_all(&x, PCOL_META_NAMELESS_PLACES, "1");
  /* a -diff_base's base among the samples, their weights the difference's:
   * the total is theirs, and THE count rule does not negate them again */
  if (!rc && x.based) rc = meta_all(&x, PCOL_META_DIFF_BASE, PCOL_BASE_SIGNED);
  if (!rc && x.markers) {
    char note[96];
    snprintf(note, sizeof note, "%llu markers not imported (pcol keeps samples only)",
             (unsigned long long)x.markers);
    rc = pcol_b_meta_str(b, x.src, PCOL_META_NOTE, note, err);
  }
  if (!rc) rc = pcol_kept_verdict(x.kept, x.nkept, name, err);
  free(x.kept);
  pcol_rowsort_free(x.rows);
  free(x.gsrc), free(x.tgroup), free(x.g_lo), free(x.g_hi), free(x.g_part), free(x.g_zero);
  return rc;
}
