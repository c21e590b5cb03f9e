/* v8_export.c — pcol samples as a V8 CPU profile (.cpuprofile: the
 * inspector protocol's Profiler.Profile, which Chrome DevTools, VS Code and
 * speedscope open); doc/mappings.md §10.1, "V8 .cpuprofile (export)".
 *
 *   {"nodes": [{"id", "callFrame": {"functionName", "scriptId", "url",
 *               "lineNumber", "columnNumber"}, "hitCount", "children": [id]}],
 *    "startTime": us, "endTime": us, "samples": [id], "timeDeltas": [us]}
 *
 * V8 weighs a sample by time only: sample i lasts until sample i + 1
 * (speedscope's importFromChromeCPUProfile, DevTools alike), the last one
 * 0.  So each selected sample becomes one V8 sample whose gap to the next
 * is its value of the written type: `value` of the options, else the
 * source's default (count.c, pcol_source_default_types; pprof's
 * samples/count for the count, as the Firefox export takes it), which must
 * be a time (a unit of unit_scale.c's time family, or a decimal unit of
 * one: count.c's rule); any other type is refused, and so is a negative
 * value.  Samples with times go in time order (stable: lib/core/rowsort.c,
 * runs on disk past its budget), else in stored order; timeDeltas[0] is the
 * first one's time since the source's start (0 untimed); each timed sample
 * starts at its own time, or where the ones before it end when later, a
 * gap before it a sample of the thread's idle node "(idle)" (THE gap rule,
 * advance(): DevTools and speedscope show it idle, pcol's importer reads
 * it as no sample); the deltas are the differences of that running end
 * rounded to whole microseconds, so every stretch of the timeline is exact
 * to 1 us.  When the last sample lasts (value > 0), a sample of the root
 * node follows it, its end.
 * startTime is the profile's own startTime (meta v8.start_time_us, a V8
 * or Chrome-trace source read back), else 0; timeDeltas[0] is the first
 * sample's time since it, where the source's time 0 is meta
 * v8.time_origin_us (a Chrome trace's profiles share the earliest one's
 * start: v8_times, the one rule), else startTime; endTime = startTime +
 * the source's span (its stated duration, pcol_wall: a .cpuprofile's
 * endTime - startTime, a pprof profile's duration_nanos), else + the
 * timeline's length, whichever is longer (the last sample's end alone
 * lost a node profile's last 3 ms and a pprof profile's gaps).  Of a
 * time range, startTime is where the range's part of the source begins
 * (pcol_wall_cut) and endTime at least that part's end, as every export
 * of a range states it; of a source whose window the range misses, its
 * rows past that window selected, endTime = startTime (NO_SPAN: no length,
 * as top counts no window of it).
 * One source and one thread only: the format holds one thread, whose
 * samples follow one another, so the samples of threads that ran at once
 * would draw one thread busy for their sum (a 788 ms Tachyon recording of
 * three threads became a 2.12 s profile); a selection of several sources,
 * or of one source's several threads (THE thread rule, lib/core/lasts.h),
 * is refused with the threads listed and how --tag picks one of them.
 * Nodes: the root "(root)" (id 1), and one per distinct path of frames
 * from it, frames as the speedscope export makes them (frames.h: a line of
 * a location's inline chain is a frame, outermost nearest the root; the
 * unsymbolized locations of one name are one frame), each named as pcol
 * prints it, with its function's file (url) and 0-based start line (the
 * line's own when the name is composed from it) and the line's column (-1
 * unknown).  Memory: the nodes and frames (counted against the export
 * budget, stream.h) and a word per stack; the samples go through the
 * sorter, not memory.  gzip-compressed unless opt->no_gzip, as the Firefox
 * export (the CLI: when -o ends in .gz); pcol_export_v8 writes the text.
 *
 * The Chrome trace export (pcol_export_chrome_opt; doc/mappings.md §14.1)
 * is this writer with neither refusal: every source with selected samples,
 * each of its threads (THE thread rule) a vthr with its own root, laid out
 * by the same value, time and delta rules (value_type, v8_times,
 * thread_layout, step) and written as a {"traceEvents": [...]} document:
 * "M" events naming processes and threads, then per thread a "Profile"
 * event and "ProfileChunk" events of at most CHUNK_SAMPLES samples (its
 * nodes in parent form in the first, its endTime in the last), in one
 * pass over the sorter, whose rows go by (thread, time, order).  Of a
 * time range, a source whose cut window the range hits without a selected
 * sample there is an empty profile of that window (empty_thread: the
 * windows pcol_wall_states says a copy states). */
#include "frames.h"
#include "keys.h"     /* PCOL_VT_SAMPLES, PCOL_UNIT_COUNT, PCOL_UNIT_NANOSECONDS, PCOL_THREAD_PID_KEY, V8_KEY_CLOSING_SAMPLE */
#include "error.h"    /* pcol_oom, pcol_write_error */
#include "buf.h"      /* pcol_buf, PCOL_GROW */
#include "hash.h"     /* pcol_u64map */
#include "jstr.h"     /* pcol_json_str */
#include "select.h"   /* pcol_sample_cols, pcol_select_iter_filter, pcol_select_count, ... */
#include "stream.h"   /* pcol_gz_export, pcol_budget, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "count.h"    /* pcol_count_types, pcol_rtime, pcol_sample_value_rt, pcol_unit_decimals, ... */
#include "xvalues.h"  /* pcol_export_pick_make */
#include "filter.h"   /* pcol_filter, pcol_filter_build, pcol_filter_free */
#include "rowsort.h"  /* pcol_rowsort, ... */
#include "reader.h"   /* pcol_meta_probe */
#include "lasts.h"    /* pcol_thread_classes, pcol_thread_name, pcol_thread_tuple_of, pcol_thread_id */
#include "wall.h"     /* pcol_wall, pcol_wall_cut: a range's window */
#include "loss.h"     /* pcol_export_loss_note, pcol_export_say */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a sample on its way to the output, sorted by (key, seq) */
typedef struct vrow {
  int64_t key;  /* its time (ns since the source's start); 0 untimed */
  uint64_t seq; /* its place among the selected rows */
  int64_t ns;   /* its value, in ns */
  uint32_t node;
  uint32_t slot; /* its thread (vthr; the V8 export's one: 0) */
} vrow;

static int vrow_cmp(const void *pa, const void *pb) {
  vrow a, b;
  memcpy(&a, pa, sizeof a);
  memcpy(&b, pb, sizeof b);
  if (a.slot != b.slot) return a.slot < b.slot ? -1 : 1;
  if (a.key != b.key) return a.key < b.key ? -1 : 1;
  return a.seq < b.seq ? -1 : a.seq > b.seq;
}

/* A thread of a source with selected samples: the V8 export's one, or each
 * of the Chrome trace export's (a Profile of its own, its own tree of
 * nodes under its own root). */
typedef struct vthr {
  uint32_t src, ls; /* its source; the label set of its first selected row */
  uint32_t cls;     /* its thread class (THE thread rule) */
  uint32_t root;    /* its root node */
  int have_first;
  int64_t first_key;
  vrow last;        /* its last row in the sorted order */
  __int128 total;   /* ns */
  int64_t zero_us, start_us; /* its source's V8 times (v8_times) */
  int64_t span_ns, len_ns;   /* where its source's span ends, ns after startTime, and its length: the
                              * source's, of a range its cut window's (v8_times; 0 none stated) */
  int untimed;               /* its source's selected samples are not all timed (laid from 0) */
  int64_t max_end;           /* timed: the latest time + value of its samples (ns of the source's clock) */
  __int128 laid_end;         /* where its last sample ends, ns after startTime, laid by THE gap rule (layout) */
  uint64_t gaps;             /* its samples of its idle node (THE gap rule) */
  uint32_t idle;             /* its idle node, when gaps */
} vthr;

/* span_ns of a thread whose source's window a time range misses while it
 * selects rows of the source lying past that window (v8_times): its
 * profile states no length, endTime = startTime, where startTime is its
 * first sample's whole µs (layout: DevTools and pcol's import read an
 * endTime of 0 as none, the profile ending at its last sample) */
#define NO_SPAN INT64_MIN

/* n_frame of a thread's idle node: "(idle)", under its root (THE gap rule) */
#define IDLE_FRAME (UINT32_MAX - 1)

typedef struct vex {
  pcol_file *f;
  const char *what; /* "v8 export", "chrome export": for messages */
  int chrome;       /* the Chrome trace export: every source, every thread */
  pcol_error *err;
  FILE *out; /* the budget's counting stream */
  pcol_budget *bud;
  pcol_view s_time, s_stack, s_w, s_voff, s_ls, v_type, v_val, vt_type, vt_unit, fn_line, fn_file, ln_line,
      ln_col, src_uri;
  /* THE thread rule (lasts.h): label set -> thread class; per class, the
   * label set of its first selected row + 1 (0: none); how many have one */
  uint32_t *tcls, ntcls, *tfirst, nthreads;
  uint32_t *tslot; /* per class, its thread (vthr) in the source at hand */
  vthr *th;
  size_t nth, capth;
  int64_t cur_zero_us, cur_start_us, cur_span_ns, cur_len_ns; /* the source at hand's V8 times (v8_times) */
  const pcol_select *sel; /* the selection; wall: the sources' spans, of a time range their windows (pcol_wall_cut) */
  int ranged;
  pcol_wall wall;
  /* the Chrome trace export: the earliest wall-clock start of the written
   * sources without a V8 clock (has_ref), which places each such one on
   * the trace's clock (v8_times) */
  int64_t wall_ref;
  int has_ref;
  uint32_t cur_src;                   /* the source at hand */
  pcol_frames fr;
  const pcol_nameless_rule *rule; /* THE nameless rule of the selection (fr.rule) */
  pcol_unsym_ids unsym;
  pcol_sample_cols sc;
  pcol_rtime rt;
  uint32_t *cvt;
  /* frames: key -> index (fmap); per frame its line row (UINT64_MAX: the
   * unsymbolized frame of mapping fm) */
  pcol_u64map fmap;
  uint64_t *f_line;
  uint32_t *f_map;
  size_t nfr, capfr;
  /* nodes: index 0 the root; (parent, frame) -> index (nmap) */
  pcol_u64map nmap;
  uint32_t *n_parent, *n_frame;
  uint64_t *n_hits;
  size_t nnodes, capnodes;
  uint32_t *stack_node; /* stack id -> node index + 1 */
  uint32_t *stack_slot; /* ... of the tree of this thread (the Chrome export's many) */
  uint32_t *tmp;
  size_t ntmp, captmp;
  pcol_buf name;
  /* the value written */
  uint32_t vt;
  pcol_str vtype, vunit;
  int64_t factor; /* ns per unit */
  int dec;        /* the unit's decimals (count.c) */
  /* the pass */
  pcol_rowsort *rs;
  int all_times;
  uint64_t seq;
  char note[400]; /* for opt->note once written ("": none) */
  char span_note[300]; /* ... of the first thread laid past its source's span (thread_layout) */
} vex;

static int oom(vex *x) { return pcol_oom(x->err); }
static int io(vex *x) { return pcol_write_error(x->err, 0, x->what); }
static int put(vex *x, const char *s) { return fputs(s, x->out) < 0 ? io(x) : PCOL_OK; }
static int jstr(vex *x, pcol_str s) {
  return pcol_json_str(x->out, s.ptr ? s.ptr : "", s.ptr ? s.len : 0) ? io(x) : PCOL_OK;
}

/* ------------------------------------------------------------ frames and nodes */
static int frame_of(vex *x, uint64_t key, uint64_t line, uint32_t map, uint32_t *out) {
  int added;
  int rc = pcol_u64map_get(&x->fmap, key, out, &added);
  if (rc) return rc == PCOL_ENOMEM ? oom(x) : pcol_error_set(x->err, rc, "%s: too many frames", x->what);
  if (!added) return PCOL_OK;
  if (x->nfr == x->capfr) {
    size_t c = x->capfr ? 2 * x->capfr : 256;
    uint64_t *l = realloc(x->f_line, c * sizeof *l);
    if (l) x->f_line = l;
    uint32_t *m = realloc(x->f_map, c * sizeof *m);
    if (m) x->f_map = m;
    if (!l || !m) return oom(x);
    x->capfr = c;
  }
  x->f_line[x->nfr] = line;
  x->f_map[x->nfr] = map;
  x->nfr++;
  /* its entry and its map slot (two words and a key), kept to the end */
  return pcol_budget_hold(x->bud, 32, x->err);
}

static int child_of(vex *x, uint32_t parent, uint32_t frame, uint32_t *out) {
  int added;
  int rc = pcol_u64map_get(&x->nmap, (uint64_t)parent << 32 | frame, out, &added);
  if (rc) return rc == PCOL_ENOMEM ? oom(x) : pcol_error_set(x->err, rc, "%s: too many nodes", x->what);
  if (!added) return PCOL_OK;
  if (x->nnodes == x->capnodes) {
    size_t c = x->capnodes ? 2 * x->capnodes : 256;
    uint32_t *p = realloc(x->n_parent, c * sizeof *p);
    if (p) x->n_parent = p;
    uint32_t *fm = realloc(x->n_frame, c * sizeof *fm);
    if (fm) x->n_frame = fm;
    uint64_t *h = realloc(x->n_hits, c * sizeof *h);
    if (h) x->n_hits = h;
    if (!p || !fm || !h) return oom(x);
    x->capnodes = c;
  }
  /* (the map's index is the node's: node 0, the root, is made first) */
  x->n_parent[x->nnodes] = parent;
  x->n_frame[x->nnodes] = frame;
  x->n_hits[x->nnodes] = 0;
  x->nnodes++;
  /* its entry, map slot and child id (written at the end) */
  return pcol_budget_hold(x->bud, 48, x->err);
}

/* 1..2^31-1 as it is, else 0 (unknown) */
static uint32_t small(int64_t v) { return v > 0 && v < INT32_MAX ? (uint32_t)v : 0; }

/* The child of *node of the frame named after mapping m (unsymbolized
 * locations, and nameless functions in a mapping): one frame per name. */
static int mapping_frame(vex *x, uint32_t m, uint32_t *node) {
  uint32_t id, fi;
  int added, rc;
  if ((rc = pcol_unsym_id(&x->unsym, &x->fr, m, &id, &added, x->err)) ||
      (rc = frame_of(x, 0xffffffff00000000u | id, UINT64_MAX, m, &fi)))
    return rc;
  return child_of(x, *node, fi, node);
}

/* The node of a stack: its frames from the root (frames.h's rule, as the
 * speedscope export expands them), each a child of the last. */
static int stack_node(vex *x, uint32_t stack, uint32_t slot, uint32_t *out) {
  if (stack > pcol_rows(x->f, PCOL_T_STACKS))
    return pcol_error_set(x->err, PCOL_ECORRUPT, "stack id %u is out of range", stack);
  if (x->stack_node[stack] && x->stack_slot[stack] == slot) return *out = x->stack_node[stack] - 1, PCOL_OK;
  int rc = pcol_stack_locations(x->f, stack, &x->tmp, &x->ntmp, &x->captmp, x->err);
  if (rc) return rc;
  uint32_t node = x->th[slot].root, fi;
  for (size_t i = x->ntmp; i-- > 0;) {
    uint32_t loc = x->tmp[i];
    if (!loc || loc > x->fr.nloc) continue;
    uint64_t lo, hi;
    pcol_frames_lines(&x->fr, loc, &lo, &hi);
    if (lo == hi) { /* unsymbolized: one frame per name */
      if ((rc = mapping_frame(x, pcol_frames_mapping(&x->fr, loc), &node))) return rc;
      continue;
    }
    for (uint64_t l = hi; l-- > lo;) {
      uint32_t fn = pcol_frames_fn(&x->fr, l), m;
      pcol_str file;
      if ((rc = pcol_frame_nameless_file(&x->fr, l, &file, x->err))) return rc;
      /* named as its mapping (frames.h), one frame per name; a nameless
       * function of a file at a line a frame of that name with its url
       * (rd15a F5: the file was lost), as one of no mapping is (below) */
      if (pcol_frame_line_unsym(&x->fr, l, &m) && !file.len) {
        if ((rc = mapping_frame(x, m, &node))) return rc;
        continue;
      }
      if (!fn) continue;
      /* a named function's frame is the function at a column (two V8
       * functions of one line are one pcol function); a name made from
       * the line ("FILE:LINE") is the line's */
      pcol_str nm = {0};
      if ((rc = pcol_string(x->f, pcol_view_u32(&x->fr.fn_name, fn - 1), &nm, x->err))) return rc;
      uint64_t k = nm.ptr ? small(pcol_view_i64(&x->ln_col, l)) : 1u << 31 | small(pcol_view_i64(&x->ln_line, l));
      if ((rc = frame_of(x, (uint64_t)fn << 32 | k, l, 0, &fi)) || (rc = child_of(x, node, fi, &node))) return rc;
    }
  }
  x->stack_node[stack] = node + 1;
  x->stack_slot[stack] = slot;
  *out = node;
  return PCOL_OK;
}

/* ------------------------------------------------------------ the value */
/* The type written and its unit in ns (refused unless a time). */
static int value_type(vex *x, const pcol_export_options *opt, uint32_t s, pcol_str uri) {
  uint32_t vt = 0;
  int given = opt && opt->value;
  int rc = PCOL_OK;
  if (given) {
    vt = opt->value->vt_id;
    x->vtype = opt->value->type;
    x->vunit = opt->value->unit;
  } else {
    if ((rc = pcol_source_default_types(x->f, s, s, &vt, x->err))) return rc;
    if (!vt) vt = pcol_count_vt(x->cvt[s]); /* the count is pprof's samples/count */
    if (vt == PCOL_VT_TIME) {
      x->vtype = (pcol_str){"cpu", 3};
      x->vunit = (pcol_str){PCOL_UNIT_NANOSECONDS, sizeof PCOL_UNIT_NANOSECONDS - 1};
    } else if (!vt) {
      x->vtype = (pcol_str){PCOL_VT_SAMPLES, sizeof PCOL_VT_SAMPLES - 1};
      x->vunit = (pcol_str){PCOL_UNIT_COUNT, sizeof PCOL_UNIT_COUNT - 1};
    } else if ((rc = pcol_string(x->f, pcol_view_u32(&x->vt_type, vt - 1), &x->vtype, x->err)) ||
               (rc = pcol_string(x->f, pcol_view_u32(&x->vt_unit, vt - 1), &x->vunit, x->err))) {
      return rc;
    }
  }
  x->vt = vt;
  pcol_str shown = {0};
  x->dec = pcol_unit_decimals(x->vunit, &shown);
  if (!x->dec) shown = x->vunit;
  const char *u;
  int time = vt && vt != PCOL_VT_WEIGHT && vt != PCOL_VT_RPROF_ALLOC && shown.ptr && pcol_unit_known(shown) &&
             pcol_unit_valid_target(shown, "ns");
  if (time) x->factor = (int64_t)pcol_unit_scale(1, shown, "ns", &u);
  if (time && x->factor > 0) return PCOL_OK;
  int ul = (int)(x->vunit.ptr ? x->vunit.len : 0), tl = (int)(x->vtype.ptr ? x->vtype.len : 0);
  const char *prof = x->chrome ? "a Chrome trace's CPU profile (V8's Profile events)" : "a V8 profile";
  if (given)
    return pcol_error_set(x->err, PCOL_EINVAL,
                          "%s: --value %.*s/%.*s is not a time; %s weighs each sample by its duration "
                          "(its time until the next sample): choose a time value (nanoseconds, microseconds, "
                          "milliseconds, seconds)", x->what, tl, x->vtype.ptr ? x->vtype.ptr : "", ul, x->vunit.ptr ? x->vunit.ptr : "",
                          prof);
  return pcol_error_set(x->err, PCOL_EUNSUPPORTED,
                        "%s: source %u (%.*s) weighs its samples by %.*s/%.*s by default, not a "
                        "time; %s weighs each sample by its duration (its time until the next sample): "
                        "choose a time value of the source with --value", x->what, s,
                        (int)(uri.len > 200 ? 200 : uri.len), uri.ptr ? uri.ptr : "", tl, x->vtype.ptr ? x->vtype.ptr : "",
                        ul, x->vunit.ptr ? x->vunit.ptr : "", prof);
}

/* ------------------------------------------------------------ the samples */
/* The next thread, zeroed (x->th[x->nth], not counted yet); NULL: out of memory. */
static vthr *new_thread(vex *x) {
  if (PCOL_GROW(x->th, x->nth, x->capth)) return NULL;
  return memset(&x->th[x->nth], 0, sizeof *x->th);
}

static int times_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  vex *x = ctx;
  (void)num, (void)den;
  if (pcol_view_i64(&x->s_time, row) == PCOL_NA_I64) x->all_times = 0;
  uint32_t ls = pcol_view_u32(&x->s_ls, row), th = ls <= pcol_rows(x->f, PCOL_T_LABELSETS) ? x->tcls[ls] : 0;
  if (th > x->ntcls || x->tfirst[th]) return PCOL_OK;
  x->tfirst[th] = ls + 1, x->nthreads++;
  /* a thread of its own (the V8 export refuses a second one after the pass) */
  vthr *t = new_thread(x);
  if (!t) return oom(x);
  t->src = x->cur_src, t->ls = ls, t->cls = th;
  t->zero_us = x->cur_zero_us, t->start_us = x->cur_start_us, t->span_ns = x->cur_span_ns, t->len_ns = x->cur_len_ns;
  x->tslot[th] = (uint32_t)x->nth++;
  return pcol_budget_hold(x->bud, sizeof *t, x->err);
}

/* How --tag selects the thread of label set ls (THE thread rule's tuple):
 * its numeric thread label, KEY=V (a number is a range of one), else its
 * string one, KEY=^V$ (a regular expression, escaped), an id before a name
 * (tid, thread_id, thread, thread_name: the threads of an eBPF profile are
 * all thread_name parca, apart by a string thread_id, and --tag
 * thread_name='^parca$' selected them all); nothing for the samples of no
 * thread label. */
static int tag_of(vex *x, uint32_t ls, pcol_buf *b) {
  pcol_thread_tuple t;
  int rc = pcol_thread_tuple_of(x->f, ls, &t, x->err);
  if (rc) return rc;
  for (int pass = 2; pass >= 1; pass--)
    for (int k = PCOL_THREAD_NKEYS - 1; k >= 0; k--) {
      if (t.kind[k] != pass) continue;
      char num[32];
      if (pcol_buf_append(b, " (--tag ", 8) || pcol_buf_append(b, pcol_thread_keys[k], strlen(pcol_thread_keys[k])))
        return oom(x);
      if (pass == 2) {
        snprintf(num, sizeof num, "=%lld)", (long long)t.v[k]);
        return pcol_buf_append(b, num, strlen(num)) ? oom(x) : PCOL_OK;
      }
      pcol_str v = {0};
      if ((rc = pcol_string(x->f, (uint32_t)t.v[k], &v, x->err))) return rc;
      if (pcol_buf_append(b, "='^", 3)) return oom(x);
      for (size_t i = 0; v.ptr && i < v.len; i++)
        if ((strchr("\\.+*?()|[]{}^$", v.ptr[i]) && v.ptr[i] && pcol_buf_append(b, "\\", 1)) ||
            (v.ptr[i] == '\'' ? pcol_buf_append(b, "'\\''", 4) : pcol_buf_append(b, v.ptr + i, 1)))
          return oom(x);
      return pcol_buf_append(b, "$')", 3) ? oom(x) : PCOL_OK;
    }
  return PCOL_OK;
}

/* What selects the samples of no thread label (class 0) among the selected
 * threads: --tag has no "no such label", but one --tag-ignore drops every
 * labelled thread when all of them have a string thread label (the keyless
 * form, regular expressions on "KEY:VALUE": '^(thread_name|tid):') or all
 * have one numeric thread key (a range from the least of its values,
 * KEY=N:); else nothing does (--tag-ignore takes one expression, and the
 * threads have different keys), and the message says so.  (Short: the
 * message holds 511 bytes.) */
static int unlabelled_tag(vex *x, pcol_buf *b) {
  unsigned str = 0, num = ~0u; /* thread keys: of a string label somewhere; numeric in every thread */
  int all_str = 1, rc;
  int64_t lo[PCOL_THREAD_NKEYS]; /* a numeric key's least value */
  for (int k = 0; k < PCOL_THREAD_NKEYS; k++) lo[k] = INT64_MAX;
  for (uint32_t th = 1; th <= x->ntcls; th++) {
    if (!x->tfirst[th]) continue;
    pcol_thread_tuple t;
    if ((rc = pcol_thread_tuple_of(x->f, x->tfirst[th] - 1, &t, x->err))) return rc;
    unsigned s = 0, n = 0;
    for (int k = 0; k < PCOL_THREAD_NKEYS; k++) {
      if (t.kind[k] == 1) s |= 1u << k;
      if (t.kind[k] != 2) continue;
      if (t.v[k] < lo[k]) lo[k] = t.v[k];
      n |= 1u << k;
    }
    str |= s, num &= n, all_str &= s != 0;
  }
  char one[80];
  if (all_str && str) {
    if (pcol_buf_append(b, " (--tag-ignore '^(", 18)) return oom(x);
    for (int k = 0, first = 1; k < PCOL_THREAD_NKEYS; k++)
      if (str & (1u << k)) {
        if ((!first && pcol_buf_append(b, "|", 1)) ||
            pcol_buf_append(b, pcol_thread_keys[k], strlen(pcol_thread_keys[k])))
          return oom(x);
        first = 0;
      }
    return pcol_buf_append(b, "):')", 4) ? oom(x) : PCOL_OK;
  }
  for (int k = 0; k < PCOL_THREAD_NKEYS; k++)
    if (num & (1u << k)) {
      snprintf(one, sizeof one, " (--tag-ignore %s=%lld:)", pcol_thread_keys[k], (long long)lo[k]);
      return pcol_buf_append(b, one, strlen(one)) ? oom(x) : PCOL_OK;
    }
  static const char none[] = " (no --tag or --tag-ignore selects these alone)";
  return pcol_buf_append(b, none, sizeof none - 1) ? oom(x) : PCOL_OK;
}

/* The refusal of a selection of several threads: the first of them named
 * (THE thread-name rule), each with the --tag that selects it (the samples
 * of no thread label: unlabelled_tag). */
static int several_threads(vex *x, uint32_t src) {
  pcol_buf b = {0};
  uint32_t shown = 0, *named = NULL;
  int rc = pcol_thread_name_sets(x->f, x->tcls, x->ntcls, &named, x->err);
  for (uint32_t th = 0; th <= x->ntcls && !rc && shown < 8; th++) {
    if (!x->tfirst[th]) continue;
    if (shown++ && pcol_buf_append(&b, "; ", 2)) rc = oom(x);
    if (!rc) rc = pcol_thread_name(x->f, th ? named[th] : x->tfirst[th] - 1, 1, &b, x->err);
    if (!rc) rc = th ? tag_of(x, x->tfirst[th] - 1, &b) : unlabelled_tag(x, &b);
  }
  if (!rc && x->nthreads > shown) {
    char more[48];
    snprintf(more, sizeof more, "; and %u more", x->nthreads - shown);
    if (pcol_buf_append(&b, more, strlen(more))) rc = oom(x);
  }
  if (!rc)
    rc = pcol_error_set(x->err, PCOL_EUNSUPPORTED,
                        "v8 export: source %u has selected samples of %u threads, and a V8 profile holds one "
                        "thread, whose samples it lays end to end (those of threads that ran at once would add "
                        "up to more than the recording): choose one with --tag (pcol tags lists the labels): %.*s",
                        src, x->nthreads, (int)(b.len > 1500 ? 1500 : b.len), b.data ? (const char *)b.data : "");
  pcol_buf_free(&b);
  free(named);
  return rc;
}

static int sample_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  vex *x = ctx;
  int64_t v = 0;
  if (!pcol_sample_value_rt(&x->sc, &x->rt, row, x->vt, &v)) v = 0;
  v = pcol_scale(v, num, den);
  if (v < 0)
    return pcol_error_set(x->err, PCOL_EUNSUPPORTED,
                          "%s: sample %llu (row %llu of the samples table) has a negative %.*s (%lld); "
                          "a V8 sample lasts its value, which cannot be negative%s", x->what,
                          (unsigned long long)x->seq + 1, (unsigned long long)row + 1,
                          (int)(x->vtype.ptr ? x->vtype.len : 0), x->vtype.ptr ? x->vtype.ptr : "",
                          (long long)v, pcol_export_base_advice(x->f, x->sel));
  __int128 ns = (__int128)v * x->factor;
  for (int k = 0; k < x->dec; k++) ns /= 10;
  uint32_t ls = pcol_view_u32(&x->s_ls, row), th = ls <= pcol_rows(x->f, PCOL_T_LABELSETS) ? x->tcls[ls] : 0;
  uint32_t slot = th <= x->ntcls ? x->tslot[th] : 0;
  vthr *t = &x->th[slot];
  if (ns > INT64_MAX || (t->total += ns) > INT64_MAX)
    return pcol_error_set(x->err, PCOL_ETOOBIG, "%s: the samples last more than 2^63 ns in all "
                          "(at sample %llu), which no V8 profile holds", x->what, (unsigned long long)x->seq + 1);
  vrow r;
  memset(&r, 0, sizeof r);
  r.key = x->all_times ? pcol_view_i64(&x->s_time, row) : 0;
  r.seq = x->seq++;
  r.ns = (int64_t)ns;
  r.slot = slot;
  int rc = stack_node(x, pcol_view_u32(&x->s_stack, row), slot, &r.node);
  if (rc) return rc;
  x->n_hits[r.node]++;
  if (!t->have_first || r.key < t->first_key) t->first_key = r.key;
  int64_t end = r.key > INT64_MAX - r.ns ? INT64_MAX : r.key + r.ns;
  if (!t->have_first || end > t->max_end) t->max_end = end;
  if (!t->have_first || vrow_cmp(&r, &t->last) > 0) t->last = r;
  t->have_first = 1;
  rc = pcol_rowsort_add(x->rs, &r);
  return rc == PCOL_ENOMEM ? oom(x) : rc;
}

/* THE V8 time rule of a source s (v8_import.c writes it): *zero_us, the
 * V8 clock's time of the source's time 0 (meta v8.time_origin_us: a Chrome
 * trace's earliest profile start, which its profiles share; else
 * v8.start_time_us; else 0), and *start_us, the profile's own startTime
 * (v8.start_time_us, else *zero_us).  Absent keys leave err as it was (a
 * success's err holds a warning or nothing). */
static int v8_time_meta(vex *x, uint32_t s, const char *key, int64_t *v, int *has) {
  pcol_str st;
  int rc = pcol_meta_probe(x->f, s, key, &st, x->err);
  if (rc < 0) return rc;
  *has = rc > 0;
  return rc ? pcol_meta_get_i64(x->f, s, key, v, x->err) : PCOL_OK;
}

static int64_t us_round(__int128 ns);
static int v8_times(vex *x, uint32_t s, int64_t *zero_us, int64_t *start_us, int64_t *span_ns, int64_t *len_ns) {
  int has_zero, has_start, rc;
  *zero_us = *start_us = *span_ns = *len_ns = 0;
  if ((rc = v8_time_meta(x, s, V8_META_START_TIME_US, start_us, &has_start)) ||
      (rc = v8_time_meta(x, s, V8_META_TIME_ORIGIN_US, zero_us, &has_zero)))
    return rc;
  if (!has_zero) *zero_us = *start_us;
  if (!has_start) *start_us = *zero_us;
  /* a trace's source without a V8 clock (a pprof profile, a speedscope
   * one) where its wall-clock start places it among the others (one.json
   * 100 s before later.json, not both at 0: DevTools draws them so, and
   * the parts of one recording so placed read back as its span) */
  if (x->chrome && !has_zero && !has_start && x->has_ref && s <= x->wall.n && x->wall.known[s] &&
      x->wall.start[s] != PCOL_NA_I64 && x->wall.start[s] >= x->wall_ref)
    *zero_us = *start_us = us_round((__int128)x->wall.start[s] - x->wall_ref);
  /* of a time range, the profile starts where the range's part of the
   * source begins and lasts at least that part (THE range rule of the
   * header, pcol_wall_cut, as the pprof, OTLP, speedscope and Firefox
   * exports state it), not at the source's own start: read back, its
   * Duration: is the range's */
  pcol_wall_window win;
  if (s > x->wall.n) return PCOL_OK;
  if (!pcol_wall_cut(&x->wall, x->sel, s, &win)) {
    /* a range that misses the window but selects rows of it lying past
     * the duration it states: the profile states no length (NO_SPAN), so
     * that it adds nothing to the copy's Duration:, as pcol top of the
     * range counts its samples, not its window (THE range rule of the
     * header; the other exports write it without a duration,
     * pcol_wall_states) */
    if (x->ranged) *span_ns = NO_SPAN;
    return PCOL_OK;
  }
  if (x->ranged && win.cut) {
    /* the start moves with the range whether or not the source states a
     * duration (an Rprof file's does not: it started 200 ms early) */
    int64_t sh = us_round(win.shift);
    if (__builtin_add_overflow(*zero_us, sh, start_us))
      return pcol_error_set(x->err, PCOL_ETOOBIG, "%s: the range's start is past 2^63 us", x->what);
    if (win.stated > 0) *span_ns = *len_ns = win.stated;
    return PCOL_OK;
  }
  if (win.stated <= 0) return PCOL_OK;
  /* the whole source: its span [off, off + stated) of its clock, whose 0
   * is *zero_us, ends this far after startTime (a .cpuprofile's endTime -
   * startTime; a trace's later profile off after the trace's start) */
  __int128 end = ((__int128)*zero_us - *start_us) * 1000 + x->wall.off[s] + win.stated;
  *span_ns = end > 0 && end < INT64_MAX / 2 ? (int64_t)end : 0;
  if (*span_ns) *len_ns = win.stated;
  return PCOL_OK;
}

/* ------------------------------------------------------------ writing */
/* Node i's callFrame, from its functionName on: the one rule of a V8
 * node's frame, for both forms (a .cpuprofile's node, a trace's). */
static int write_call_frame(vex *x, uint32_t i) {
  int rc;
  int64_t line = -1, col = -1;
  pcol_str url = {0};
  if (x->n_frame[i] == UINT32_MAX || x->n_frame[i] == IDLE_FRAME) { /* a root, an idle node (as V8 names them) */
    if ((rc = put(x, x->n_frame[i] == IDLE_FRAME ? "\"(idle)\"" : "\"(root)\""))) return rc;
  } else {
    uint32_t fi = x->n_frame[i];
    uint64_t li = x->f_line[fi];
    pcol_str name;
    x->name.len = 0;
    if (li == UINT64_MAX) {
      if ((rc = pcol_frame_unsymbolized_name(&x->fr, x->f_map[fi], &x->name, x->err))) return rc;
      name = (pcol_str){(const char *)x->name.data, x->name.len};
    } else {
      int by_fn;
      if ((rc = pcol_frame_line_name(&x->fr, li, &x->name, &name, &by_fn, x->err))) return rc;
      uint32_t fn = pcol_frames_fn(&x->fr, li);
      if ((rc = pcol_string(x->f, pcol_view_u32(&x->fn_file, fn - 1), &url, x->err))) return rc;
      int64_t l = by_fn ? pcol_view_i64(&x->fn_line, fn - 1) : pcol_view_i64(&x->ln_line, li);
      int64_t c = pcol_view_i64(&x->ln_col, li);
      if (l > 0 && l != PCOL_NA_I64) line = l - 1;
      if (c > 0 && c != PCOL_NA_I64) col = c - 1;
    }
    if ((rc = jstr(x, name))) return rc;
  }
  if ((rc = put(x, ",\"scriptId\":\"0\",\"url\":")) || (rc = jstr(x, url))) return rc;
  return fprintf(x->out, ",\"lineNumber\":%lld,\"columnNumber\":%lld}", (long long)line, (long long)col) < 0 ? io(x)
                                                                                                           : PCOL_OK;
}

static int write_node(vex *x, uint32_t i, const uint32_t *kid_off, const uint32_t *kids) {
  int rc;
  if (fprintf(x->out, i ? ",\n{\"id\":%u,\"callFrame\":{\"functionName\":" : "\n{\"id\":%u,\"callFrame\":{\"functionName\":",
              i + 1) < 0)
    return io(x);
  if ((rc = write_call_frame(x, i))) return rc;
  if (x->n_frame[i] == IDLE_FRAME && (rc = put(x, ",\"" V8_KEY_IDLE_GAP "\":true"))) return rc;
  if (fprintf(x->out, ",\"hitCount\":%llu,\"children\":[", (unsigned long long)x->n_hits[i]) < 0) return io(x);
  for (uint32_t k = kid_off[i]; k < kid_off[i + 1]; k++)
    if (fprintf(x->out, k > kid_off[i] ? ",%u" : "%u", kids[k] + 1) < 0) return io(x);
  return put(x, "]}");
}

static int write_nodes(vex *x) {
  size_t n = x->nnodes;
  uint32_t *off = calloc(n + 2, sizeof *off), *kids = malloc((n ? n : 1) * sizeof *kids);
  int rc = off && kids ? PCOL_OK : oom(x);
  /* children lists (a count per node, then each in node order) */
  for (size_t i = 1; i < n && !rc; i++) off[x->n_parent[i] + 2]++;
  for (size_t i = 2; i < n + 2 && !rc; i++) off[i] += off[i - 1];
  for (size_t i = 1; i < n && !rc; i++) kids[off[x->n_parent[i] + 1]++] = (uint32_t)i;
  if (!rc) rc = put(x, "{\"nodes\":[");
  for (uint32_t i = 0; i < n && !rc; i++) rc = write_node(x, i, off, kids);
  free(off);
  free(kids);
  return rc ? rc : put(x, "]");
}

typedef struct wpass {
  vex *x;
  int deltas, rc; /* rc: a write's failure (not the sorter's) */
  uint64_t k;
  __int128 cum;  /* ns: where the samples so far end */
  int64_t prev_us;
  int timed;     /* its samples have times (THE gap rule) */
  __int128 shift; /* ns: a sample's time since startTime less its time since its source's start */
  uint32_t idle; /* the thread's idle node */
} wpass;

static int64_t us_round(__int128 ns) { return (int64_t)((ns + 500) / 1000); }

static int emit(wpass *w, int64_t v) {
  if (fprintf(w->x->out, w->k++ ? ",%lld" : "%lld", (long long)v) < 0) w->rc = io(w->x);
  return w->rc;
}

/* THE delta rule: the next sample's timeDelta, the running end (offset,
 * the samples before it and the gaps between them) rounded to whole us
 * less the last one written; then it lasts ns.  (The closing root sample
 * and an idle one: step(w, 0).) */
static int64_t step(wpass *w, int64_t ns) {
  int64_t us = us_round(w->cum), d = us - w->prev_us;
  w->prev_us = us;
  w->cum += ns;
  return d;
}

/* The pass over thread t's sorted rows, from its first sample's time
 * since startTime, offset_ns (thread_offset). */
static wpass wpass_of(vex *x, const vthr *t, int deltas, int64_t offset_ns) {
  wpass w;
  memset(&w, 0, sizeof w);
  w.x = x, w.deltas = deltas, w.cum = offset_ns;
  w.timed = t->have_first && !t->untimed;
  w.shift = ((__int128)t->zero_us - t->start_us) * 1000;
  w.idle = t->idle;
  return w;
}

/* THE gap rule: a timed sample starts at its own time since startTime, or
 * where the samples before it end when that is later (samples that
 * overlap, or whose values add up past their times, are laid end to end);
 * a gap before it, of a written us or more, is a sample of the thread's
 * idle node at the end of the one before, as V8 writes the time a thread
 * sleeps: DevTools and speedscope draw it idle (not the one before
 * lasting longer), pcol reads it as no sample (V8_KEY_IDLE_GAP).  So every
 * sample is written at its time (to 1 us) lasting its value.  Returns 1
 * and *gap_d, the idle sample's delta, when row r has one; *d, its own. */
static int advance(wpass *w, const vrow *r, int64_t *gap_d, int64_t *d) {
  int gap = 0;
  __int128 at = (__int128)r->key + w->shift;
  if (w->timed && at > w->cum) {
    if (us_round(at) > us_round(w->cum)) *gap_d = step(w, 0), gap = 1;
    w->cum = at;
  }
  *d = step(w, r->ns);
  return gap;
}

static int write_row(void *ctx, const void *p) {
  wpass *w = ctx;
  vrow r;
  memcpy(&r, p, sizeof r);
  int64_t gap_d, d;
  int gap = advance(w, &r, &gap_d, &d);
  if (gap && emit(w, w->deltas ? gap_d : (int64_t)w->idle + 1)) return w->rc;
  return emit(w, w->deltas ? d : (int64_t)r.node + 1);
}

/* samples or timeDeltas: the sorted rows, and the closing root sample */
static int write_list(vex *x, const vthr *t, int deltas, int closing, int64_t offset_ns) {
  wpass w = wpass_of(x, t, deltas, offset_ns);
  int rc = pcol_rowsort_each(x->rs, write_row, &w);
  if (rc && !w.rc) /* the sorter's own failure */
    return rc == PCOL_ENOMEM ? oom(x)
                             : pcol_error_set(x->err, rc, "%s: a temporary file ($TMPDIR, else /tmp) could not be read", x->what);
  if (rc) return rc;
  if (closing) rc = emit(&w, deltas ? step(&w, 0) : 1);
  return rc;
}

/* Thread t's first sample's time since its startTime (a negative time:
 * 0), *offset_ns. */
static int thread_offset(vex *x, const vthr *t, int64_t *offset_ns) {
  __int128 first = t->have_first ? (__int128)t->first_key + ((__int128)t->zero_us - t->start_us) * 1000 : 0;
  if (first > INT64_MAX / 2)
    return pcol_error_set(x->err, PCOL_ETOOBIG, "%s: the first sample is more than 2^62 ns after startTime", x->what);
  *offset_ns = first > 0 ? (int64_t)first : 0;
  return PCOL_OK;
}

/* The timeline of thread t, THE V8 time rule of both exports: *offset_ns,
 * its first sample's time since its startTime (thread_offset); *empty
 * when its samples last nothing in all (below); *closing when a sample of
 * the root ends its last one; *end_us its endTime. */
static int thread_layout(vex *x, const vthr *t, int64_t *offset_ns, int *empty, int *closing, int64_t *end_us) {
  int rc = thread_offset(x, t, offset_ns);
  if (rc) return rc;
  /* samples that last nothing in all (a .NET profile's default lock_time,
   * 0 in every sample) would be deltas all 0 and startTime = endTime,
   * which speedscope's importer refuses: the profile is written empty (the
   * root alone, no sample), as the Rprof export writes no sample line of
   * such a source, with a note naming --value */
  *empty = t->have_first && us_round(t->total) == 0;
  if (*empty && !x->note[0]) {
    char *n = x->note;
    const char *what = x->chrome ? "profile of that thread" : "V8 profile";
    int tl = (int)(x->vtype.ptr ? (x->vtype.len > 100 ? 100 : x->vtype.len) : 0);
    int ul = (int)(x->vunit.ptr ? (x->vunit.len > 40 ? 40 : x->vunit.len) : 0);
    if (t->total == 0)
      snprintf(n, sizeof x->note, "source %u: its %.*s/%.*s is 0 in every selected sample%s: no sample written, an "
               "empty %s (pcol top shows 0 too); choose a time value with --value (pcol info lists them)",
               t->src, tl, x->vtype.ptr ? x->vtype.ptr : "", ul, x->vunit.ptr ? x->vunit.ptr : "",
               x->chrome ? " of a thread" : "", what);
    else
      snprintf(n, sizeof x->note, "source %u: its %.*s/%.*s lasts %lld ns in all%s, less than the 1 us a V8 profile "
               "counts in: no sample written, an empty %s; choose another time value with --value",
               t->src, tl, x->vtype.ptr ? x->vtype.ptr : "", ul, x->vunit.ptr ? x->vunit.ptr : "",
               (long long)t->total, x->chrome ? " in a thread" : "", what);
  }
  if (*empty) *offset_ns = 0;
  *closing = t->have_first && !*empty && t->last.ns > 0;
  int64_t len_us = *empty ? us_round(*offset_ns) : us_round(t->laid_end);
  /* the profile lasts its source's span (v8_times: a .cpuprofile's endTime
   * - startTime, a pprof profile's duration, a range's part of them), which
   * the samples laid out (THE gap rule) may end before (the last sample a
   * point) or, laid end to end past it, after: then the profile is longer
   * than the recording (a Go wall profile of many goroutines, 30 s of
   * 2104 s of samples; threads' CPU time where the samples lack times),
   * and a warning says so, once */
  if (t->span_ns == NO_SPAN) { /* (of a range, no length: endTime = startTime, layout) */
    *end_us = t->start_us;
    return PCOL_OK;
  }
  int64_t span_us = us_round(t->span_ns);
  if (t->span_ns && span_us > len_us) len_us = span_us;
  /* (timed samples that lie past the span in the source itself, a Chrome
   * trace's last ones after its endTime, are where they were: no warning) */
  __int128 own_end = (__int128)t->max_end + ((__int128)t->zero_us - t->start_us) * 1000;
  int laid_past = t->untimed || !t->have_first || us_round(t->laid_end) > us_round(own_end);
  if (t->span_ns && len_us > span_us && laid_past && !x->span_note[0]) {
    double w = ((double)len_us * 1000 - (double)(t->span_ns - t->len_ns)) / 1e9, d = (double)t->len_ns / 1e9;
    snprintf(x->span_note, sizeof x->span_note, "source %u: the samples are laid end to end: %.6g s written for a "
             "%.6g s profile%s", t->src, w, d, t->untimed ? " (they have no times)" : "");
  }
  if (__builtin_add_overflow(t->start_us, len_us, end_us))
    return pcol_error_set(x->err, PCOL_ETOOBIG, "%s: startTime + the samples' length is past 2^63 us", x->what);
  return PCOL_OK;
}

/* Source src's selected samples (one: the selection of it alone) into the
 * sorter, each thread of them a vthr of its own with its own root (the V8
 * export refuses a second one: several_threads). */
static int gather_source(vex *x, const pcol_select *one, uint32_t src, const pcol_export_options *opt) {
  pcol_file *f = x->f;
  pcol_str uri = {0};
  int rc = pcol_string(f, pcol_view_u32(&x->src_uri, src - 1), &uri, x->err);
  if (rc) return rc;
  if (!uri.ptr) uri = (pcol_str){"pcol", 4};
  if ((rc = value_type(x, opt, src, uri))) return rc;
  if ((rc = v8_times(x, src, &x->cur_zero_us, &x->cur_start_us, &x->cur_span_ns, &x->cur_len_ns))) return rc;
  x->cur_src = src;
  pcol_filter flt = {0};
  int filtered = pcol_select_filtered(one);
  if (filtered && (rc = pcol_filter_build(f, one, &flt, x->err))) return rc;
  x->all_times = 1;
  x->nthreads = 0;
  memset(x->tfirst, 0, ((size_t)x->ntcls + 1) * sizeof *x->tfirst);
  size_t first_slot = x->nth;
  rc = pcol_select_iter_filter(f, one, filtered ? &flt : NULL, times_row, x, x->err);
  if (!rc && !x->chrome && x->nthreads > 1) rc = several_threads(x, src);
  for (size_t k = first_slot; k < x->nth && !rc; k++) x->th[k].untimed = !x->all_times;
  /* each thread's root (the V8 export's, node 0, is made first) */
  for (size_t k = first_slot; k < x->nth && !rc; k++) rc = child_of(x, (uint32_t)k, UINT32_MAX, &x->th[k].root);
  if (!rc) rc = pcol_select_iter_filter(f, one, filtered ? &flt : NULL, sample_row, x, x->err);
  pcol_filter_free(&flt);
  if (rc == PCOL_ENOMEM) return oom(x);
  if (rc == PCOL_EIO)
    return pcol_error_set(x->err, rc, "%s: a temporary file ($TMPDIR, else /tmp) could not be written", x->what);
  return rc;
}

/* The layout pass: each thread's samples as the writers lay them out
 * (THE gap rule), for where they end (its endTime, before the samples in
 * a .cpuprofile) and how many gaps it has: its idle node's samples. */
typedef struct lpass {
  vex *x;
  wpass w;
  size_t cur; /* the thread at hand + 1 */
  int rc;
} lpass;

static void l_end(lpass *l) {
  if (l->cur) l->x->th[l->cur - 1].laid_end = l->w.cum;
}

static int l_row(void *ctx, const void *p) {
  lpass *l = ctx;
  vrow r;
  memcpy(&r, p, sizeof r);
  if (l->cur != (size_t)r.slot + 1) {
    int64_t offset = 0;
    l_end(l);
    l->cur = (size_t)r.slot + 1;
    if ((l->rc = thread_offset(l->x, &l->x->th[r.slot], &offset))) return l->rc;
    l->w = wpass_of(l->x, &l->x->th[r.slot], 1, offset);
  }
  int64_t gap_d, d;
  l->x->th[r.slot].gaps += (uint64_t)advance(&l->w, &r, &gap_d, &d);
  return PCOL_OK;
}

static int layout(vex *x) {
  lpass l = {x, {0}, 0, 0};
  for (size_t k = 0; k < x->nth; k++) { /* (a thread of no row: its offset) */
    int64_t offset = 0;
    int rc = thread_offset(x, &x->th[k], &offset);
    if (rc) return rc;
    if (x->th[k].span_ns == NO_SPAN && offset >= 1000) { /* (NO_SPAN: it starts at its first sample) */
      x->th[k].start_us += offset / 1000;
      if ((rc = thread_offset(x, &x->th[k], &offset))) return rc;
    }
    x->th[k].laid_end = offset;
  }
  int rc = pcol_rowsort_each(x->rs, l_row, &l);
  if (rc && !l.rc)
    return rc == PCOL_ENOMEM ? oom(x)
                             : pcol_error_set(x->err, rc, "%s: a temporary file ($TMPDIR, else /tmp) could not be read", x->what);
  if (rc) return rc;
  l_end(&l);
  /* each thread's idle node, of its samples that last something (an empty
   * profile is its root alone: thread_layout) */
  for (size_t k = 0; k < x->nth && !rc; k++) {
    vthr *t = &x->th[k];
    if (!t->gaps || us_round(t->total) == 0) continue;
    if (!(rc = child_of(x, t->root, IDLE_FRAME, &t->idle))) x->n_hits[t->idle] = t->gaps;
  }
  return rc;
}

/* A thread of source s without a selected sample (its root alone, an
 * empty profile of its V8 times): the Chrome trace's profile of a source
 * whose cut window a range hits where it has no samples (gather). */
static int empty_thread(vex *x, uint32_t s) {
  vthr *t = new_thread(x);
  if (!t) return oom(x);
  t->src = s;
  int rc = v8_times(x, s, &t->zero_us, &t->start_us, &t->span_ns, &t->len_ns);
  if (!rc) rc = child_of(x, (uint32_t)x->nth, UINT32_MAX, &t->root);
  if (rc) return rc;
  x->nth++;
  return pcol_budget_hold(x->bud, sizeof *t, x->err);
}

/* Every selected source's samples into the sorter (the V8 export: one
 * source, one thread), and their layout. */
static int gather(vex *x, const pcol_select *sel, const pcol_export_options *opt) {
  pcol_file *f = x->f;
  int rc;
  const pcol_column_req cols[] = {
      {&x->s_time, PCOL_T_SAMPLES, PCOL_C_S_TIME},        {&x->s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},
      {&x->s_w, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},         {&x->s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
      {&x->s_ls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET},
      {&x->v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},         {&x->v_val, PCOL_T_VALUES, PCOL_C_V_VALUE},
      {&x->vt_type, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE},  {&x->vt_unit, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT},
      {&x->fn_line, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE}, {&x->fn_file, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME},
      {&x->ln_line, PCOL_T_LINES, PCOL_C_LINE_LINE},      {&x->ln_col, PCOL_T_LINES, PCOL_C_LINE_COLUMN},
      {&x->src_uri, PCOL_T_SOURCES, PCOL_C_SOURCES_URI}};
  if ((rc = pcol_columns(f, cols, PCOL_NCOLS(cols), x->err)) || (rc = pcol_frames_init(&x->fr, f, x->err)) ||
      (rc = pcol_count_types(f, &x->cvt, x->err)) || (rc = pcol_rtime_init(&x->rt, f, x->err)) ||
      (rc = pcol_select_check(f, sel, x->err)))
    return rc;
  /* the value as the views read it: of a type of kin, or one a source
   * lists twice (its default: go's, the last without default_sample_type),
   * each source's in its column (pcol_sample_value_rt reads rt.pick) */
  pcol_kin_pick pick;
  int asked = opt && opt->value;
  if ((rc = pcol_export_pick_make(&x->rt, f, sel, asked, asked ? opt->value->vt_id : 0,
                                  asked ? opt->value->column : 0, &pick, x->err)))
    return rc;
  free(x->rt.pick.src);
  x->rt.pick = pick;
  x->fr.rule = x->rule;
  x->sc = (pcol_sample_cols){x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(f, PCOL_T_VALUES), 0};
  /* the sources with selected samples */
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), nsrc = 0, nrows = 0;
  uint64_t *count = calloc(ns + 1, sizeof *count);
  if (!count) return oom(x);
  for (uint32_t s = 1; s <= ns && !rc; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    pcol_select o = sel ? *sel : (pcol_select){0};
    o.source_id = s;
    if ((rc = pcol_select_count(f, &o, &count[s], x->err))) break;
    nsrc += count[s] != 0;
    nrows += count[s];
  }
  /* (THE advice under a base: its sides cannot be parted by --source) */
  const char *based = nsrc > 1 && !x->chrome ? pcol_export_base_advice(f, sel) : "";
  if (!rc && nsrc > 1 && !x->chrome)
    rc = pcol_error_set(x->err, PCOL_EUNSUPPORTED,
                        "%s: %llu sources have selected samples, and a V8 profile holds one "
                        "thread%s", x->what, (unsigned long long)nsrc,
                        *based ? based : ": choose one with --source N (pcol info lists them)");
  /* each sample writes at least two numbers and two commas */
  if (!rc && nrows && pcol_budget_exceeded(x->bud, nrows > UINT64_MAX / 4 ? UINT64_MAX : 4 * nrows))
    rc = pcol_budget_refuse(x->bud, x->err);
  size_t nst = (size_t)pcol_rows(f, PCOL_T_STACKS) + 1;
  if (!rc && (!(x->stack_node = calloc(nst, sizeof *x->stack_node)) ||
              !(x->stack_slot = calloc(nst, sizeof *x->stack_slot))))
    rc = oom(x);
  uint32_t root;
  if (!rc && !x->chrome) rc = child_of(x, 0, UINT32_MAX, &root); /* node 0, with or without a sample */
  if (!rc && !(rc = pcol_thread_classes(f, &x->tcls, &x->ntcls, x->err)) &&
      (!(x->tfirst = calloc((size_t)x->ntcls + 1, sizeof *x->tfirst)) ||
       !(x->tslot = calloc((size_t)x->ntcls + 1, sizeof *x->tslot)) || pcol_rowsort_new(&x->rs, sizeof(vrow), vrow_cmp)))
    rc = oom(x);
  /* of a time range, the Chrome trace states the window of each source
   * the range hits, samples there or not (pcol_wall_states, as the
   * speedscope, Firefox, OTLP and Perfetto copies state it): one the cut
   * window of which holds no selected sample is an empty profile (its root
   * alone), read back its cut window's duration, as pcol top counts it */
  uint8_t *take = NULL;
  if (!rc && x->chrome && x->ranged) rc = pcol_wall_states(f, sel, &take, NULL, x->err);
  for (uint32_t s = 1; s <= ns && !rc && x->chrome; s++) { /* (v8_times' wall_ref) */
    pcol_str v;
    int a, b;
    if (!(count[s] || (take && take[s])) || s > x->wall.n || !x->wall.known[s] || x->wall.start[s] == PCOL_NA_I64) continue;
    if ((a = pcol_meta_probe(f, s, V8_META_START_TIME_US, &v, x->err)) < 0 ||
        (b = pcol_meta_probe(f, s, V8_META_TIME_ORIGIN_US, &v, x->err)) < 0)
      rc = a < 0 ? a : b;
    else if (!a && !b && (!x->has_ref || x->wall.start[s] < x->wall_ref))
      x->wall_ref = x->wall.start[s], x->has_ref = 1;
  }
  for (uint32_t s = 1; s <= ns && !rc; s++) {
    if (!count[s]) {
      if (take && take[s]) rc = empty_thread(x, s);
      continue;
    }
    pcol_select o = sel ? *sel : (pcol_select){0};
    o.source_id = s;
    rc = gather_source(x, &o, s, opt);
  }
  free(take);
  free(count);
  return rc ? rc : layout(x);
}

static int export_body(vex *x, const pcol_select *sel, const pcol_export_options *opt) {
  int rc = gather(x, sel, opt);
  if (rc) return rc;
  vthr none;
  memset(&none, 0, sizeof none);
  const vthr *t = x->nth ? &x->th[0] : &none;
  int64_t offset, end_us;
  int empty, closing;
  if ((rc = thread_layout(x, t, &offset, &empty, &closing, &end_us))) return rc;
  if (empty) { /* the root alone */
    x->nnodes = 1;
    x->n_hits[0] = 0;
    pcol_rowsort_free(x->rs);
    x->rs = NULL;
  }
  if (closing) x->n_hits[0]++;
  if ((rc = write_nodes(x))) return rc;
  if (fprintf(x->out, ",\n\"startTime\":%lld,\"endTime\":%lld,%s\n\"samples\":[", (long long)t->start_us,
              (long long)end_us, closing ? "\"" V8_KEY_CLOSING_SAMPLE "\":true," : "") < 0)
    return io(x);
  if (x->rs && (rc = write_list(x, t, 0, closing, offset))) return rc;
  if ((rc = put(x, "],\n\"timeDeltas\":["))) return rc;
  if (x->rs && (rc = write_list(x, t, 1, closing, offset))) return rc;
  return put(x, "]}\n");
}

/* ------------------------------------------------------------ the Chrome trace export */
/* samples a ProfileChunk event holds at most (Chrome writes a chunk every
 * 100 or so) */
#define CHUNK_SAMPLES 1024

typedef struct cpass {
  vex *x;
  wpass w;           /* the thread at hand's deltas */
  int64_t *pid, *tid; /* per thread */
  uint8_t *made;      /* per thread: its tid made up (c_ids) */
  uint64_t lost;      /* threads whose tid or thread_id label is no id (c_ids) */
  uint64_t pids_lost; /* threads whose pid label is no id (c_ids) */
  char lost_pid[41];  /* the first such label (40 bytes at most) */
  uint32_t *order, *off; /* the nodes by thread: thread k's are order[off[k] .. off[k + 1]) */
  size_t cur;        /* the thread at hand + 1 (0: none yet) */
  int empty, closing, nodes_due;
  int64_t end_us;
  uint32_t n;
  uint32_t node[CHUNK_SAMPLES];
  int64_t delta[CHUNK_SAMPLES];
  uint64_t nev;      /* events written */
  int rc;            /* a write's failure (not the sorter's) */
  /* the recording of each thread's source (THE recording rule's run,
   * pcol_wall_run_end: its first source), written as its Profile's
   * pcolRecording when the threads' sources are of several (c_recordings) */
  uint64_t *rec;
  int recs;
  /* per thread: where its startTime lies after its source's time 0 in the
   * copy (ns), written as V8_KEY_SPAN_START when that time 0 is not the
   * earliest startTime of its recording's threads, which the import takes
   * (c_recordings); -1: not written */
  int64_t *span_start;
} cpass;

/* c->rec of each thread, and c->recs: its sources are of several
 * recordings (separate inputs of a merge: read back, each its own
 * duration, as go's merge adds them, not one trace's span: 4s for 6s) */
static int c_recordings(cpass *c) {
  vex *x = c->x;
  if (!(c->rec = calloc(x->nth ? x->nth : 1, sizeof *c->rec))) return oom(x);
  uint64_t s0 = 0, e = 1;
  for (size_t k = 0; k < x->nth; k++) {
    uint64_t s = x->th[k].src;
    if (!s || s > x->wall.n) continue;
    if (s < s0) s0 = 0, e = 1; /* (threads come in source order: not reached) */
    while (s >= e) s0 = e, e = pcol_wall_run_end(&x->wall, s0);
    c->rec[k] = s0;
    if (k && c->rec[k] != c->rec[0]) c->recs = 1;
  }
  /* each source's time 0 in the copy: its own (a speedscope recording's
   * parts are timed each from its own start; OTLP profiles of one
   * request), of a range moved as the Perfetto export moves it (THE span
   * start of a cut copy, pcol_wall_cut_keep_span), so that a range in
   * seconds of the copy counts from where it counts in the source (before:
   * from the recording's earliest start, `--from 1.5 --to 2.5` 1s, 150%
   * for 2s, 75%: review rd17a F3) */
  if (!(c->span_start = malloc((x->nth ? x->nth : 1) * sizeof *c->span_start))) return oom(x);
  for (size_t k = 0; k < x->nth; k++) {
    const vthr *t = &x->th[k];
    int64_t first = t->start_us, keep = 0, own;
    for (size_t i = 0; i < x->nth; i++)
      if (c->rec[i] == c->rec[k] && x->th[i].start_us < first) first = x->th[i].start_us;
    pcol_wall_window win;
    if (x->ranged && t->src && t->src <= x->wall.n && pcol_wall_cut(&x->wall, x->sel, t->src, &win) && win.cut)
      pcol_wall_cut_keep_span(&x->wall, t->src, &win), keep = win.shift;
    __int128 o = ((__int128)t->start_us - t->zero_us) * 1000 - keep, d = ((__int128)t->start_us - first) * 1000;
    own = o < 0 ? 0 : o > ((__int128)1 << 51) * 1000 ? -1 : (int64_t)o;
    c->span_start[k] = own >= 0 && own != d ? own : -1;
  }
  return PCOL_OK;
}

static int c_event(cpass *c, const char *name, const char *ph, size_t k, int64_t ts) {
  vex *x = c->x;
  if (fprintf(x->out, "%s{\"cat\":\"%s\",", c->nev++ ? ",\n" : "\n",
              *ph == 'M' ? "__metadata" : "disabled-by-default-v8.cpu_profiler") < 0)
    return io(x);
  if (*ph == 'P' && fprintf(x->out, "\"id\":\"0x%zx\",", k + 1) < 0) return io(x);
  if (*ph == 'I' && fputs("\"s\":\"t\",", x->out) < 0) return io(x);
  return fprintf(x->out, "\"name\":\"%s\",\"ph\":\"%s\",\"pid\":%lld,\"tid\":%lld,\"ts\":%lld,\"args\":{", name, ph,
                 (long long)c->pid[k], (long long)(strcmp(name, "process_name") ? c->tid[k] : 0), (long long)ts) < 0
             ? io(x)
             : PCOL_OK;
}

/* A ProfileChunk of the thread at hand: its nodes (parent form) in the
 * first, the batch of samples and their deltas, its endTime in the last. */
static int c_flush(cpass *c, int last) {
  vex *x = c->x;
  size_t k = c->cur - 1;
  const vthr *t = &x->th[k];
  int rc = c_event(c, "ProfileChunk", "P", k, t->start_us + c->w.prev_us);
  if (!rc) rc = put(x, "\"data\":{\"cpuProfile\":{\"nodes\":[");
  for (uint32_t i = c->off[k]; i < c->off[k + 1] && c->nodes_due && !rc; i++) {
    uint32_t nd = c->order[i];
    if (c->empty && nd != t->root) continue; /* the root alone */
    if (fprintf(x->out, "%s{\"id\":%u,\"callFrame\":{\"functionName\":", i > c->off[k] ? ",\n" : "\n", nd + 1) < 0)
      return io(x);
    if ((rc = write_call_frame(x, nd))) return rc;
    if (nd != t->root && fprintf(x->out, ",\"parent\":%u", x->n_parent[nd] + 1) < 0) return io(x);
    if (x->n_frame[nd] == IDLE_FRAME && (rc = put(x, ",\"" V8_KEY_IDLE_GAP "\":true"))) return rc;
    rc = put(x, "}");
  }
  c->nodes_due = 0;
  if (!rc) rc = put(x, "],\"samples\":[");
  for (uint32_t i = 0; i < c->n && !rc; i++)
    if (fprintf(x->out, i ? ",%u" : "%u", c->node[i] + 1) < 0) rc = io(x);
  if (!rc) rc = put(x, "]},\"timeDeltas\":[");
  for (uint32_t i = 0; i < c->n && !rc; i++)
    if (fprintf(x->out, i ? ",%lld" : "%lld", (long long)c->delta[i]) < 0) rc = io(x);
  c->n = 0;
  if (!rc) rc = put(x, "]");
  if (!rc && last && fprintf(x->out, ",\"endTime\":%lld%s", (long long)c->end_us,
                            c->closing ? ",\"" V8_KEY_CLOSING_SAMPLE "\":true" : "") < 0)
    rc = io(x);
  return rc ? rc : put(x, "}}}");
}

static int c_push(cpass *c, uint32_t node, int64_t delta) {
  c->node[c->n] = node;
  c->delta[c->n] = delta;
  return ++c->n == CHUNK_SAMPLES ? c_flush(c, 0) : PCOL_OK;
}

static int c_end_thread(cpass *c) {
  int rc = c->closing ? c_push(c, c->x->th[c->cur - 1].root, step(&c->w, 0)) : PCOL_OK;
  return rc ? rc : c_flush(c, 1);
}

static int c_begin_thread(cpass *c, size_t k) {
  vex *x = c->x;
  const vthr *t = &x->th[k];
  int64_t offset;
  c->cur = k + 1;
  int rc = thread_layout(x, t, &offset, &c->empty, &c->closing, &c->end_us);
  if (rc) return rc;
  c->w = wpass_of(x, t, 1, offset);
  c->n = 0;
  c->nodes_due = 1;
  if ((rc = c_event(c, "Profile", "P", k, t->start_us))) return rc;
  char sp[40];
  if (c->span_start[k] % 1000) snprintf(sp, sizeof sp, "%lld.%03d", (long long)(c->span_start[k] / 1000), (int)(c->span_start[k] % 1000));
  else snprintf(sp, sizeof sp, "%lld", (long long)(c->span_start[k] / 1000));
  if (fprintf(x->out, "\"data\":{\"startTime\":%lld", (long long)t->start_us) < 0 ||
      (c->recs && fprintf(x->out, ",\"" V8_KEY_RECORDING "\":%llu", (unsigned long long)c->rec[k]) < 0) ||
      (c->span_start[k] >= 0 && fprintf(x->out, ",\"" V8_KEY_SPAN_START "\":%s", sp) < 0))
    return io(x);
  return put(x, "}}}");
}

/* Ends the thread at hand and begins the next ones up to thread k: those
 * between, of no row, are written empty (empty_thread's, the root alone). */
static int c_goto(cpass *c, size_t k) {
  int rc = PCOL_OK;
  while (!rc && c->cur != k + 1) {
    if (c->cur) rc = c_end_thread(c);
    if (!rc) rc = c_begin_thread(c, c->cur);
  }
  return rc;
}

static int c_row(void *ctx, const void *p) {
  cpass *c = ctx;
  vrow r;
  memcpy(&r, p, sizeof r);
  if (c->cur != (size_t)r.slot + 1 && (c->rc = c_goto(c, r.slot))) return c->rc;
  if (c->empty) return PCOL_OK;
  int64_t gap_d, d;
  if (advance(&c->w, &r, &gap_d, &d) && (c->rc = c_push(c, c->w.idle, gap_d))) return c->rc;
  return c->rc = c_push(c, r.node, d);
}

/* Each thread's pid and tid (THE thread-id rule, lasts.h: a number, or a
 * string of one's digits, as an eBPF profiler's thread_id): its pid label,
 * else its source's made-up pid; its tid (else thread_id) label, else a
 * made-up tid, the source's 1st, 2nd, ... (c->made[k]: its name carries
 * its other thread labels, c_names; c->lost counts those whose tid or
 * thread_id label is no such number, c->pids_lost those whose pid label
 * is none); a pair taken already (two sources of one process) the next
 * made-up tid free.  Made up by THE made-up-id rule (pcol_made_up_id): no
 * process's or thread's real id in the file, so a made-up pair never
 * takes a real thread's (rd11 F9: a collapsed source's made-up (1, 1)
 * moved a later perf thread (1, 1) to tid 2, in the collapsed source's
 * process). */
static int c_ids(cpass *c) {
  vex *x = c->x;
  pcol_u64map seen = {0};
  pcol_real_ids real;
  int rc = pcol_real_ids_init(x->f, x->tcls, x->ntcls, &real, x->err);
  uint64_t m = 0; /* tids the source at hand made up */
  for (size_t k = 0; k < x->nth && !rc; k++) {
    const vthr *t = &x->th[k];
    int64_t pid, tid;
    int lost, pid_other;
    if ((rc = pcol_label_id(x->f, t->ls, PCOL_THREAD_PID_KEY, &pid, &pid_other, x->err)) ||
        (rc = pcol_thread_id(x->f, t->ls, &tid, &lost, x->err)))
      break;
    if (pid_other && !c->pids_lost++ &&
        (rc = pcol_label_text(x->f, t->ls, PCOL_THREAD_PID_KEY, c->lost_pid, sizeof c->lost_pid, x->err)))
      break;
    c->made[k] = tid == PCOL_NA_I64;
    c->lost += (uint64_t)lost;
    if (!k || x->th[k - 1].src != t->src) m = 0;
    if (pid == PCOL_NA_I64) pid = pcol_made_up_id(&real, PCOL_ID_PID, 1, t->src ? t->src - 1 : 0);
    if (tid == PCOL_NA_I64) tid = pcol_made_up_id(&real, PCOL_ID_TID, 1, m++);
    for (;;) {
      uint32_t idx;
      int added;
      if (pcol_u64map_get(&seen, (uint64_t)pid * 0x9e3779b97f4a7c15u ^ (uint64_t)tid, &idx, &added)) {
        rc = oom(x);
        break;
      }
      if (added) break;
      tid = pcol_made_up_id(&real, PCOL_ID_TID, 1, m++); /* taken: the next made up */
    }
    c->pid[k] = pid, c->tid[k] = tid;
  }
  pcol_u64map_free(&seen);
  pcol_real_ids_free(&real);
  return rc;
}

/* The "M" events: each process's name (its process_name label, else its
 * source's URI), once, and each labelled thread's (THE thread-name rule:
 * by pcol_thread_name_sets's label set, its last sample's).  And after a
 * process's name, an instant event of its first thread at that thread's
 * profile's start, named as V8's event of a profiler's start: DevTools'
 * trace engine (Chromium 156: its RendererHandler) makes the calls of a
 * process's profiles only for a process that has some trace event other
 * than the profiles' (a trace of profiles alone shows its threads empty in
 * the Performance panel); the other readers leave an instant event out
 * (pcol, speedscope) or show it as a marker (the Firefox Profiler). */
static int c_names(cpass *c) {
  vex *x = c->x;
  pcol_u64map procs = {0};
  uint32_t *named = NULL;
  int rc = pcol_thread_name_sets(x->f, x->tcls, x->ntcls, &named, x->err);
  for (size_t k = 0; k < x->nth && !rc; k++) {
    const vthr *t = &x->th[k];
    uint32_t idx, sv = 0;
    int added;
    int64_t nv;
    if (pcol_u64map_get(&procs, (uint64_t)c->pid[k], &idx, &added)) {
      rc = oom(x);
      break;
    }
    pcol_str name = {"pcol", 4};
    if (added) {
      if ((rc = pcol_label_get(x->f, t->ls, "process_name", &sv, &nv, x->err)) ||
          ((sv || t->src) && (rc = pcol_string(x->f, sv ? sv : pcol_view_u32(&x->src_uri, t->src - 1), &name, x->err))) ||
          (rc = c_event(c, "process_name", "M", k, 0)) || (rc = put(x, "\"name\":")) || (rc = jstr(x, name)) ||
          (rc = put(x, "}}")) || (rc = c_event(c, "CpuProfiler::StartProfiling", "I", k, t->start_us)) ||
          (rc = put(x, "}}")))
        break;
    }
    if (!t->cls) continue;
    x->name.len = 0;
    if ((rc = pcol_thread_name(x->f, named[t->cls], c->made[k], &x->name, x->err)) ||
        (rc = c_event(c, "thread_name", "M", k, 0)) ||
        (rc = put(x, "\"name\":")) || (rc = jstr(x, (pcol_str){(const char *)x->name.data, x->name.len})) ||
        (rc = put(x, "}}")))
      break;
  }
  pcol_u64map_free(&procs);
  free(named);
  return rc;
}

static int chrome_body(vex *x, const pcol_select *sel, const pcol_export_options *opt) {
  int rc = gather(x, sel, opt);
  if (rc) return rc;
  /* no selected sample: one empty profile (the root alone), as the V8
   * export writes one, of the selected source or the first (a trace of no
   * profile is a CPU profile of nothing to its readers) */
  if (!x->nth) {
    uint32_t s = sel && sel->source_id ? sel->source_id : 1;
    if (s > pcol_rows(x->f, PCOL_T_SOURCES)) s = 0;
    if (!(x->th = calloc(1, sizeof *x->th))) return oom(x);
    x->nth = x->capth = 1;
    x->th->src = s;
    if ((s && (rc = v8_times(x, s, &x->th->zero_us, &x->th->start_us, &x->th->span_ns, &x->th->len_ns))) ||
        (rc = child_of(x, 0, UINT32_MAX, &x->th->root)))
      return rc;
  }
  cpass *c = calloc(1, sizeof *c);
  if (!c) return oom(x);
  c->x = x;
  size_t n = x->nnodes, nt = x->nth;
  c->pid = malloc((nt ? nt : 1) * sizeof *c->pid);
  c->tid = malloc((nt ? nt : 1) * sizeof *c->tid);
  c->made = calloc(nt ? nt : 1, 1);
  c->off = calloc(nt + 2, sizeof *c->off);
  c->order = malloc((n ? n : 1) * sizeof *c->order);
  uint32_t *slot = malloc((n ? n : 1) * sizeof *slot);
  rc = c->pid && c->tid && c->made && c->off && c->order && slot ? PCOL_OK : oom(x);
  /* each node's thread (a root's parent is its thread; a parent comes
   * first), then the nodes by thread */
  for (size_t i = 0; i < n && !rc; i++) {
    slot[i] = x->n_frame[i] == UINT32_MAX ? x->n_parent[i] : slot[x->n_parent[i]];
    c->off[slot[i] + 2]++;
  }
  for (size_t k = 2; k < nt + 2 && !rc; k++) c->off[k] += c->off[k - 1];
  for (size_t i = 0; i < n && !rc; i++) c->order[c->off[slot[i] + 1]++] = (uint32_t)i;
  if (!rc) rc = c_ids(c);
  if (!rc) rc = c_recordings(c);
  if (!rc && c->lost && pcol_export_heard(opt)) {
    char t[400];
    pcol_made_up_note(t, sizeof t, PCOL_ID_TID, c->lost, "up to 2^53 (a trace event's tid)", NULL, 0, "thread_name");
    pcol_export_say(opt, PCOL_EXPORT_LOSS, t);
  }
  if (!rc && c->pids_lost && pcol_export_heard(opt)) {
    char t[400];
    pcol_made_up_note(t, sizeof t, PCOL_ID_PID, c->pids_lost, "up to 2^53 (a trace event's pid)", c->lost_pid,
                      strlen(c->lost_pid), NULL);
    pcol_export_say(opt, PCOL_EXPORT_LOSS, t);
  }
  if (!rc) rc = put(x, "{\"traceEvents\":[");
  if (!rc) rc = c_names(c);
  if (!rc) {
    rc = pcol_rowsort_each(x->rs, c_row, c);
    if (rc && !c->rc) /* the sorter's own failure */
      rc = rc == PCOL_ENOMEM ? oom(x)
                             : pcol_error_set(x->err, rc, "%s: a temporary file ($TMPDIR, else /tmp) could not be read", x->what);
  }
  if (!rc) rc = c_goto(c, x->nth - 1); /* (the threads of no row past the last row's: empty profiles) */
  if (!rc) rc = c_end_thread(c);
  if (!rc) rc = put(x, "\n]}\n");
  free(slot);
  free(c->pid);
  free(c->rec);
  free(c->span_start);
  free(c->tid);
  free(c->made);
  free(c->off);
  free(c->order);
  free(c);
  return rc;
}

static int export_run(pcol_file *f, const pcol_select *sel, FILE *out, const pcol_export_options *opt,
                      pcol_error *err, int chrome) {
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  const char *what = chrome ? "chrome export" : "v8 export";
  pcol_gz_export g; /* a .gz unless opt->no_gzip, as the Firefox export */
  int rc = pcol_gz_export_open(&g, f, opt, what, out, err);
  if (rc) return rc;
  vex x;
  memset(&x, 0, sizeof x);
  x.f = f;
  x.err = err;
  x.out = g.bud.fp;
  x.bud = &g.bud;
  x.what = what;
  x.chrome = chrome;
  x.sel = sel;
  x.ranged = sel && (sel->has_from || sel->has_to);
  rc = pcol_wall_init(f, &x.wall, err); /* each source's span (v8_times) */
  /* a pprof source's nameless line is "<unknown>", an Rprof one's a place
   * (frames.h; x.fr is made by the body, which reads the rule through it) */
  pcol_nameless_rule rule = {0};
  if (!rc) rc = pcol_nameless_rule_make(f, sel, &rule, err);
  x.rule = &rule;
  if (!rc) rc = chrome ? chrome_body(&x, sel, opt) : export_body(&x, sel, opt);
  pcol_nameless_rule_free(&rule);
  rc = pcol_gz_export_close(&g, rc, err);
  if (!rc && x.note[0] && pcol_export_heard(opt)) pcol_export_say(opt, PCOL_EXPORT_DATA, x.note);
  if (!rc && x.span_note[0] && pcol_export_heard(opt)) pcol_export_say(opt, PCOL_EXPORT_DATA, x.span_note);
  pcol_rowsort_free(x.rs);
  pcol_wall_free(&x.wall);
  free(x.cvt);
  free(x.tcls);
  free(x.tfirst);
  free(x.tslot);
  free(x.th);
  pcol_rtime_free(&x.rt);
  pcol_unsym_ids_reset(&x.unsym);
  pcol_u64map_free(&x.fmap);
  pcol_u64map_free(&x.nmap);
  free(x.f_line);
  free(x.f_map);
  free(x.n_parent);
  free(x.n_frame);
  free(x.n_hits);
  free(x.stack_node);
  free(x.stack_slot);
  free(x.tmp);
  pcol_buf_free(&x.name);
  return rc;
}

int pcol_export_v8_opt(pcol_file *f, const pcol_select *sel, FILE *out, const pcol_export_options *opt,
                       pcol_error *err) {
  int rc = export_run(f, sel, out, opt, err, 0);
  if (!rc) pcol_export_loss_note(f, sel, PCOL_FMT_V8, 0, opt, NULL); /* the labels and values it cannot hold */
  return rc;
}

int pcol_export_chrome_opt(pcol_file *f, const pcol_select *sel, FILE *out, const pcol_export_options *opt,
                           pcol_error *err) {
  int rc = export_run(f, sel, out, opt, err, 1);
  if (!rc) pcol_export_loss_note(f, sel, PCOL_FMT_CHROME, 0, opt, NULL);
  return rc;
}

int pcol_export_v8(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  pcol_export_options o = {0};
  o.no_gzip = 1;
  return pcol_export_v8_opt(f, sel, out, &o, err);
}
