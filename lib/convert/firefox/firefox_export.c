/* firefox_export.c — pcol samples as a Firefox Profiler processed profile
 * (preprocessedProfileVersion FIREFOX_PROCESSED_VERSION), gzip-compressed
 * unless opt->no_gzip; doc/mappings.md §8.2 is the contract.
 *
 * Shared tables: a function per pcol function (and one per address-only
 * location, named by the frame rule of frames.h), a frame per line of a
 * location (its inline chain: inlineDepth 0 is the outermost line), a stack
 * node per frame of every pcol stack node, in pcol's order (parents come
 * first, so prefixOffset = index - parent index is positive); the frames
 * of an address-only location belong to its mapping's function, named as
 * `pcol top` names it.  Threads: one
 * per selected source and distinct combination of its samples' thread
 * labels (THE thread rule, lib/core/lasts.h).  A thread's samples are weighted by the
 * source's default value (count.c), whose unit picks the weightType; the
 * source's other values (lib/core/xvalues.c: an Rprof memory profile's
 * rprof.alloc and levels too) and a weight in bytes become counters.  Long samples are written as
 * samply writes them (weight 1 at the start, the rest at the last tick,
 * CPU delta 0 there), and the exact duration and weight go in the columns
 * pcolDuration and pcolWeight, which the profiler ignores and the importer
 * reads back; so does pcolBase, 1 for a sample of a -diff_base's base
 * (pprof::base, which no thread holds), so that the copy totals the base's.  Sources without times get a synthetic axis: sample k at
 * k x interval.  Memory: a few words per stack node, frame and function,
 * counted against the export budget; the samples are not held: a source's
 * rows go through lib/core/rowsort.c (sorted by thread and time, runs on
 * disk past its budget) and each thread's columns but the first through
 * temporary files (below). */
#include "firefox.h"
#include "frames.h"
#include "keys.h"     /* PCOL_UNIT_NANOSECONDS, PCOL_THREAD_LABEL_KEYS, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "bytes.h"    /* pcol_str_is */
#include "buf.h"      /* pcol_buf, pcol_buf_free, PCOL_BUF_PUSH, ... */
#include "period.h"   /* pcol_period, pcol_source_period */
#include "lasts.h"    /* pcol_lasts, pcol_lasts_own, pcol_gaps, ... */
#include "wall.h"     /* pcol_wall, pcol_wall_init, pcol_wall_merge_step */
#include "reader.h"   /* pcol_source_rows */
#include "select.h"   /* pcol_selected_row, pcol_sample_cols, pcol_sample_cols_init, ... */
#include "stream.h"   /* pcol_gz_export, pcol_budget, PCOL_EXPORT_HOLD_MIN, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "count.h"    /* pcol_unit_decimals, pcol_count_types, pcol_decimal_text, ... */
#include "xvalues.h"  /* pcol_xtype, PCOL_XV_MAX, pcol_xvalue, ... */
#include "rowsort.h"  /* pcol_rowsort, pcol_rowsort_add, pcol_rowsort_each, ... */
#include "spill.h"    /* pcol_temp_fd */
#include "jstr.h"     /* pcol_json_str, pcol_json_int_exact */
#include "read_all.h" /* pcol_input, pcol_input_append, pcol_input_seal, ... */
#include "loss.h"     /* pcol_export_loss_note, pcol_export_say */
#include "truncated.h" /* pcol_truncated_total */
#include <unistd.h>   /* close */
#include <math.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ state */
typedef struct fthread { /* a thread: a source and a tuple of thread labels */
  uint32_t src, ls; /* ls: the label set of its name (THE thread-name rule), else its first row's (0: none) */
  pcol_thread_tuple t; /* THE thread rule (lib/core/lasts.h) */
} fthread;

/* a thread's columns after its first (stack), each in a temporary file
 * until the thread ends: time, weight, threadCPUDelta, pcolDuration,
 * pcolWeight, pcolCount, pcolBase; and a counter's two columns (ctr) */
enum { C_TIME, C_WEIGHT, C_CPU, C_DUR, C_FULL, C_COUNT, C_BASE, NCOL };
/* a column's text: a pcol_input (read_all.h), in memory up to its
 * spill_at bytes, then staged to an unlinked temporary file */
typedef pcol_input fcol;
size_t pcol_firefox_col_bytes = (size_t)1 << 20;
typedef struct ctr {
  fcol count;         /* (their times: fx.ctime, the same for every counter) */
  size_t n;
  int64_t prev;
} ctr;

typedef struct svt { /* a source and one of its value types (note_counters) */
  uint32_t s, vt, untimed;
} svt;

typedef struct fx {
  pcol_kin_pick pick; /* --value of a type of kin: each source's column (xvalues.h pcol_kin_pick_make) */
  pcol_file *f;
  pcol_error *err;
  const pcol_value_sel *value; /* --value: every source's weight (NULL: its default) */
  const pcol_export_options *say; /* its notes (pcol_export_say; NULL: none heard) */
  uint64_t src_rows, src_nonzero; /* the source being written: its rows, those weighing != 0 */
  /* per written source: its weight's type, and its stored types written
   * only as counters (or, a source without times, not at all): svt pairs
   * (note_counters) */
  pcol_buf weighs, countered;
  FILE *out;
  pcol_budget *bud;
  pcol_frames fr;
  pcol_sample_cols sc;
  pcol_rtime rt;
  pcol_xvalues xv; /* which values a source has (lib/core/xvalues.c) */
  pcol_wall wall;  /* the sources' starts and stated durations (a synthetic axis', a range's windows): made once */
  int wall_made;
  int has_t;          /* a row was written: its times (ns since start_ns) span [t_lo, t_hi] */
  int64_t t_lo, t_hi;
  uint32_t *cvt;
  /* the samples of a -diff_base's base (pprof::base = true in a label set
   * base_ls marks, of a source pcol_base_kinds gives 1 or 4): pcolBase 1,
   * which the importer reads back as that label (NULL: none) */
  uint8_t *base_ls;
  const uint8_t *base_kind;
  uint32_t *tcls, ntcls; /* label set -> thread class (THE thread rule, lib/core/lasts.h) */
  uint32_t *tname;       /* thread class -> the label set of its name (pcol_thread_name_sets) */
  pcol_view s_src, s_time, s_dur, s_cpu, s_stack, s_ls, src_uri, src_type, src_ts, vt_type,
      vt_unit, svt_vt, st_parent, st_loc, fn_line, ln_line, ln_col;
  /* strings: out index -> pcol string id (sid) or, when bit 31 of kind is
   * set, an owned synthetic string */
  uint32_t *str_of_sid;     /* sid -> out index + 1 */
  pcol_buf strs;            /* uint32 per out string: sid, or 1<<31 | synthetic index */
  pcol_buf syn;             /* synthetic string bytes, NUL-separated */
  pcol_buf syn_off;         /* uint64 offsets into syn */
  pcol_buf name;            /* the name of the thread being written */
  /* functions: per pcol function, per address-only location, per NA-named line */
  uint32_t *fn_out;         /* pcol fn -> out func + 1 */
  pcol_buf func_name, func_src, func_line; /* out funcs: string index; source index + 1; i64 line */
  pcol_buf func_place;      /* out funcs: u8, 1 for a place (a nameless line: pcolNameless) */
  int any_place;
  uint32_t *src_of_file;    /* pcol string id of a file -> out source + 1 */
  pcol_buf source_file;     /* out sources: string index */
  /* frames: per location, its lines outermost first */
  uint32_t *loc_frame;      /* location -> first out frame + 1 */
  pcol_unsym_ids unsym;     /* frames.h: which unsymbolized locations are one function */
  pcol_buf unsym_func;      /* u32: such a function's id -> its out func */
  pcol_u64map nf;           /* a nameless function of a file's (pcol fn, mapping) -> its id */
  pcol_buf nf_func;         /* u32: such an id -> its out func */
  pcol_buf fr_func, fr_line, fr_col, fr_depth; /* u32 func, i64 line, i64 col, u32 depth */
  /* stacks */
  uint32_t *node_out;       /* pcol stack -> out stack + 1 (its innermost frame's node) */
  pcol_buf st_frame, st_prefix; /* u32 frame, u32 prefix + 1 */
  uint32_t *tmp;
  size_t ntmp, captmp;
  uint64_t held;
  int64_t start_ns;         /* the profile's zero, ns since the epoch (0: none known) */
  int has_start;
  /* where the earliest window the copy states begins, ns after its zero
   * (has_span0: one does; export_body) */
  int64_t span0_ns;
  int has_span0;
  uint64_t run_s, run_e; /* the recording run of the source being written (write_source) */
  double interval_ms;
  /* the written sources' interval by THE interval rule, ns: 0 when one
   * states none or they differ, so meta.interval is pcol's choice, not a
   * sampling interval, and meta.pcolIntervalStated false says so */
  int64_t stated_ns;
  int nthreads_written, ncounters;
  /* the ids of the file's threads (THE thread-id rule: their tid, else
   * thread_id labels), sorted (a thread without one takes a tid none of
   * them is: thread_start), and the last such tid given (-1 none) */
  pcol_real_ids real; /* THE made-up-id rule's real ids (lasts.h) */
  long long last_fallback;
  /* threads written whose tid or thread_id label is no id (a name, a
   * number past 2^53): their tid made up, the label in their name; the
   * first one's name, for the note */
  uint64_t ids_lost;
  pcol_buf lost_name;
  pcol_nameless_rule rule;  /* each location's: its source's, Rprof's or not (func_of_line) */
  int frames_differ;        /* sources of both rules: a frame of the others' the copy's places rule moves */
  FILE *counters;           /* JSON text of the counters, written after the threads: a temporary file */
  fcol col[NCOL];           /* the columns of the thread being written (emptied a thread) */
  ctr *ctr;                 /* the counters of the thread being written */
  size_t nctr;
  fcol ctime;               /* their times: the thread's rows but samply's rest rows */
  size_t col_mem;           /* a column's bytes in memory before its file (the source's share) */
} fx;

static int oom(fx *x) { return pcol_oom(x->err); }
static int io(fx *x) { return pcol_error_set(x->err, PCOL_EIO, "write error"); }
static int put(fx *x, const char *s) { return fputs(s, x->out) < 0 ? io(x) : PCOL_OK; }

static int jstr(fx *x, pcol_str s) {
  return pcol_json_str(x->out, s.ptr ? s.ptr : "", s.ptr ? s.len : 0) ? io(x) : PCOL_OK;
}

/* Holds n more bytes of output tables in memory (the budget). */
static int hold(fx *x, uint64_t n) {
  x->held += n;
  return pcol_budget_hold(x->bud, n, x->err);
}

/* ---------------------------------------------------------- strings */
static int str_sid(fx *x, uint32_t sid, uint32_t *out) {
  if (!x->str_of_sid[sid]) {
    if (PCOL_BUF_PUSH(&x->strs, uint32_t, sid)) return oom(x);
    x->str_of_sid[sid] = (uint32_t)(x->strs.len / 4);
    PCOL_RETURN_NOT_OK(hold(x, 16));
  }
  *out = x->str_of_sid[sid] - 1;
  return PCOL_OK;
}

static int str_new(fx *x, const char *p, size_t n, uint32_t *out) {
  uint64_t k = x->syn_off.len / 8;
  if (k >= (1u << 31) || x->strs.len / 4 >= UINT32_MAX - 1)
    return pcol_error_set(x->err, PCOL_ETOOBIG, "firefox export: too many strings");
  if (PCOL_BUF_PUSH(&x->syn_off, uint64_t, x->syn.len) || pcol_buf_append(&x->syn, p, n) ||
      PCOL_BUF_PUSH(&x->syn, char, 0) || PCOL_BUF_PUSH(&x->strs, uint32_t, (uint32_t)k | (1u << 31)))
    return oom(x);
  *out = (uint32_t)(x->strs.len / 4 - 1);
  return hold(x, n + 16);
}

/* ------------------------------------------------- functions, frames */
static int source_of(fx *x, uint32_t file_sid, uint32_t *out) {
  *out = 0;
  if (!file_sid) return PCOL_OK;
  if (!x->src_of_file[file_sid]) {
    uint32_t si;
    PCOL_RETURN_NOT_OK(str_sid(x, file_sid, &si));
    if (PCOL_BUF_PUSH(&x->source_file, uint32_t, si)) return oom(x);
    x->src_of_file[file_sid] = (uint32_t)(x->source_file.len / 4);
  }
  *out = x->src_of_file[file_sid];
  return PCOL_OK;
}

static int func_push(fx *x, uint32_t name, uint32_t src1, int64_t line, uint32_t *out) {
  if (PCOL_BUF_PUSH(&x->func_name, uint32_t, name) || PCOL_BUF_PUSH(&x->func_src, uint32_t, src1) ||
      PCOL_BUF_PUSH(&x->func_line, int64_t, line) || PCOL_BUF_PUSH(&x->func_place, uint8_t, 0))
    return oom(x);
  *out = (uint32_t)(x->func_name.len / 4 - 1);
  return hold(x, 24);
}

/* The function of an unsymbolized location (no lines, or a line without a
 * named function outside Rprof): its mapping's, named as go tool pprof
 * and `pcol top` name it ("[libc.so.6]", "<unknown>"), one per mapping. */
static int mapping_func(fx *x, uint32_t loc, pcol_buf *scratch, uint32_t *out) {
  uint32_t m = pcol_frames_mapping(&x->fr, loc), id;
  int added;
  PCOL_RETURN_NOT_OK(pcol_unsym_id(&x->unsym, &x->fr, m, &id, &added, x->err));
  if (added) {
    scratch->len = 0;
    PCOL_RETURN_NOT_OK(pcol_frame_unsymbolized_name(&x->fr, m, scratch, x->err));
    uint32_t ni, fi;
    PCOL_RETURN_NOT_OK(str_new(x, (const char *)scratch->data, scratch->len, &ni));
    PCOL_RETURN_NOT_OK(func_push(x, ni, 0, PCOL_NA_I64, &fi));
    if (PCOL_BUF_PUSH(&x->unsym_func, uint32_t, fi)) return oom(x);
  }
  *out = ((const uint32_t *)(const void *)x->unsym_func.data)[id];
  return PCOL_OK;
}

/* The function of line row li of nameless function fn, in location loc:
 * its mapping's (mapping_func), or for a function of a file at a line
 * (pcol_frame_nameless_file) one of that name with the file in its
 * fileName (rd15a F5: the file was lost; pcol's import reads it back as
 * the function's file), one per (function, mapping). */
static int nameless_func(fx *x, uint32_t fn, uint32_t loc, uint64_t li, pcol_buf *scratch, uint32_t *out) {
  pcol_str file;
  PCOL_RETURN_NOT_OK(pcol_frame_nameless_file(&x->fr, li, &file, x->err));
  if (!file.len) return mapping_func(x, loc, scratch, out);
  uint32_t m = pcol_frames_mapping(&x->fr, loc), id;
  int added, rc = pcol_u64map_get(&x->nf, (uint64_t)fn << 32 | m, &id, &added);
  if (rc) return rc == PCOL_ENOMEM ? oom(x) : pcol_error_set(x->err, rc, "firefox export: too many functions");
  if (!added) return *out = ((const uint32_t *)(const void *)x->nf_func.data)[id], PCOL_OK;
  scratch->len = 0;
  PCOL_RETURN_NOT_OK(pcol_frame_unsymbolized_name(&x->fr, m, scratch, x->err));
  uint32_t ni, src1;
  PCOL_RETURN_NOT_OK(str_new(x, (const char *)scratch->data, scratch->len, &ni));
  PCOL_RETURN_NOT_OK(source_of(x, pcol_view_u32(&x->fr.fn_file, fn - 1), &src1));
  PCOL_RETURN_NOT_OK(func_push(x, ni, src1, pcol_view_i64(&x->fn_line, fn - 1), out));
  return PCOL_BUF_PUSH(&x->nf_func, uint32_t, *out) ? oom(x) : PCOL_OK;
}

/* Of sources whose nameless rules differ (x->rule.loc_places): 1 when a
 * location of the sources of frames has a frame the copy's places rule (one
 * profile, one rule) gives to the calling line by line: a line without a
 * number, or a location without lines.  (A line of a function without a
 * name, at a number, keeps its flat there: func_of_line names it after its
 * mapping, as a frame of its own.) */
static int frames_moved(fx *x) {
  for (uint32_t loc = 1; loc <= x->fr.nloc; loc++) {
    if (!pcol_nameless_frames_at(&x->rule, loc)) continue;
    uint64_t a, e;
    pcol_frames_lines(&x->fr, loc, &a, &e);
    if (a == e) return 1; /* (a location without lines: its mapping's frame) */
    for (uint64_t li = a; li < e; li++) {
      int64_t ln = pcol_view_i64(&x->fr.ln_line, li);
      if (ln == PCOL_NA_I64 || ln == 0) return 1;
    }
  }
  return 0;
}

/* The out function of line row li of location loc: a named pcol function's
 * (one per function); a line without a named function is its mapping's
 * (as in `pcol top`), or in Rprof-only exports (a top-level srcref, which
 * summaryRprof does not count) a function of its own named by the frame
 * rule ("FILE:LINE"). */
static int func_of_line(fx *x, uint32_t loc, uint64_t li, pcol_buf *scratch, uint32_t *out) {
  uint32_t fn = pcol_frames_fn(&x->fr, li);
  if (fn && x->fn_out[fn]) {
    *out = x->fn_out[fn] - 1;
    return PCOL_OK;
  }
  pcol_str name;
  int by_fn = 0;
  PCOL_RETURN_NOT_OK(pcol_frame_line_name(&x->fr, li, scratch, &name, &by_fn, x->err));
  if (!by_fn && pcol_nameless_frames_at(&x->rule, loc)) return nameless_func(x, fn, loc, li, scratch, out);
  uint32_t ni, src1 = 0;
  int64_t line = PCOL_NA_I64;
  if (fn) {
    PCOL_RETURN_NOT_OK(source_of(x, pcol_view_u32(&x->fr.fn_file, fn - 1), &src1));
    line = pcol_view_i64(&x->fn_line, fn - 1);
  }
  if (by_fn) PCOL_RETURN_NOT_OK(str_sid(x, pcol_view_u32(&x->fr.fn_name, fn - 1), &ni));
  else PCOL_RETURN_NOT_OK(str_new(x, name.ptr, name.len, &ni));
  PCOL_RETURN_NOT_OK(func_push(x, ni, src1, line, out));
  if (fn && by_fn) x->fn_out[fn] = *out + 1;
  /* a place, not a function: funcTable.pcolNameless (a column the profiler
   * ignores) says so, and pcol's import makes it a line of a function
   * without a name again (the Rprof export of the copy writes the srcref,
   * not a call "FILE:LINE" that summaryRprof counts; review 12 F3) */
  if (!by_fn) x->func_place.data[x->func_place.len - 1] = 1, x->any_place = 1;
  return PCOL_OK;
}

static int frame_push(fx *x, uint32_t func, int64_t line, int64_t col, uint32_t depth) {
  if (PCOL_BUF_PUSH(&x->fr_func, uint32_t, func) || PCOL_BUF_PUSH(&x->fr_line, int64_t, line) ||
      PCOL_BUF_PUSH(&x->fr_col, int64_t, col) || PCOL_BUF_PUSH(&x->fr_depth, uint32_t, depth))
    return oom(x);
  return hold(x, 24);
}

/* The frames of location loc (first index, count), made on first use. */
static int loc_frames(fx *x, uint32_t loc, pcol_buf *scratch, uint32_t *first, uint32_t *n) {
  uint64_t lo, hi;
  pcol_frames_lines(&x->fr, loc, &lo, &hi);
  *n = lo == hi ? 1 : (uint32_t)(hi - lo);
  if (x->loc_frame[loc]) {
    *first = x->loc_frame[loc] - 1;
    return PCOL_OK;
  }
  *first = (uint32_t)(x->fr_func.len / 4);
  if (lo == hi) {
    uint32_t fi;
    PCOL_RETURN_NOT_OK(mapping_func(x, loc, scratch, &fi));
    PCOL_RETURN_NOT_OK(frame_push(x, fi, PCOL_NA_I64, PCOL_NA_I64, 0));
  } else {
    for (uint64_t li = hi, d = 0; li-- > lo; d++) { /* outermost line first */
      uint32_t fi;
      PCOL_RETURN_NOT_OK(func_of_line(x, loc, li, scratch, &fi));
      PCOL_RETURN_NOT_OK(frame_push(x, fi, pcol_view_i64(&x->ln_line, li),
                                    pcol_view_i64(&x->ln_col, li), (uint32_t)d));
    }
  }
  x->loc_frame[loc] = *first + 1;
  return PCOL_OK;
}

/* The out stack of pcol stack s (0 = empty), made on first use with its
 * ancestors. */
static int stack_of(fx *x, uint32_t s, pcol_buf *scratch, uint32_t *out) {
  *out = 0;
  if (!s) return PCOL_OK;
  if (x->node_out[s]) {
    *out = x->node_out[s];
    return PCOL_OK;
  }
  /* the chain of nodes not yet made, innermost first */
  x->ntmp = 0;
  for (uint32_t c = s; c && !x->node_out[c]; c = pcol_view_u32(&x->st_parent, c - 1)) {
    if (PCOL_GROW(x->tmp, x->ntmp, x->captmp)) return oom(x);
    x->tmp[x->ntmp++] = c;
  }
  uint32_t c0 = x->tmp[x->ntmp - 1], p0 = pcol_view_u32(&x->st_parent, c0 - 1);
  uint32_t prefix = p0 ? x->node_out[p0] : 0; /* out index + 1 */
  for (size_t k = x->ntmp; k-- > 0;) {
    uint32_t c = x->tmp[k], loc = pcol_view_u32(&x->st_loc, c - 1), first, n;
    if (!loc || loc > x->fr.nloc)
      return pcol_error_set(x->err, PCOL_ECORRUPT, "stack %u names location %u, which does not exist",
                            c, loc);
    PCOL_RETURN_NOT_OK(loc_frames(x, loc, scratch, &first, &n));
    for (uint32_t i = 0; i < n; i++) {
      if (x->st_frame.len / 4 >= INT32_MAX)
        return pcol_error_set(x->err, PCOL_ETOOBIG, "firefox export: too many stack nodes");
      if (PCOL_BUF_PUSH(&x->st_frame, uint32_t, first + i) || PCOL_BUF_PUSH(&x->st_prefix, uint32_t, prefix))
        return oom(x);
      PCOL_RETURN_NOT_OK(hold(x, 8));
      prefix = (uint32_t)(x->st_frame.len / 4);
    }
    x->node_out[c] = prefix;
  }
  *out = x->node_out[s];
  return PCOL_OK;
}

/* ----------------------------------------------------------- units */
/* How a value of type vt (0: the count) is written as a weight:
 * weightType, and the power of ten to divide the stored value by (a
 * negative one multiplies). */
static int weight_kind(fx *x, uint32_t vt, const char **wtype, int *dec, int64_t *mul) {
  *wtype = "samples";
  *dec = 0;
  *mul = 1;
  if (!vt || vt == PCOL_VT_WEIGHT) return PCOL_OK; /* the count; --value weight */
  pcol_str u = {0}, shown = {0};
  if (vt == PCOL_VT_TIME) u = (pcol_str){PCOL_UNIT_NANOSECONDS, sizeof PCOL_UNIT_NANOSECONDS - 1};
  else PCOL_RETURN_NOT_OK(pcol_string(x->f, pcol_view_u32(&x->vt_unit, vt - 1), &u, x->err));
  if (!u.ptr) return PCOL_OK;
  *dec = pcol_unit_decimals(u, &shown);
  if (!*dec) shown = u;
  static const struct { const char *u; int d; } times[] = {
      {"nanoseconds", 6}, {"ns", 6}, {"microseconds", 3}, {"us", 3}, {"µs", 3},
      {"milliseconds", 0}, {"ms", 0}, {"seconds", -3}, {"s", -3}};
  for (size_t i = 0; i < sizeof times / sizeof *times; i++)
    if (pcol_str_is(shown, times[i].u)) {
      *wtype = "tracing-ms";
      *dec += times[i].d;
      return PCOL_OK;
    }
  if (pcol_str_is(shown, "bytes") || pcol_str_is(shown, "B")) *wtype = "bytes";
  /* another unit of go's bytes (kilobytes, MB: THE unit rule's family) in
   * bytes, x its factor, as go scales it (rd16a F4: 3kB read back 3, a
   * count); weight_fits refuses a weight past int64 so */
  double factor;
  if (!*dec && !strcmp(*wtype, "samples") && pcol_unit_family(u, &factor) == 1 && factor > 1 && factor < 0x1p62 &&
      factor == (double)(int64_t)factor)
    *wtype = "bytes", *mul = (int64_t)factor;
  return PCOL_OK;
}

/* v / 10^dec as JSON (dec < 0: v x 10^-dec). */
static int put_num(fx *x, __int128 v, int dec) {
  char b[64];
  for (; dec < 0; dec++) v *= 10;
  pcol_decimal_text(b, sizeof b, v, dec);
  return put(x, b);
}

/* ---------------------------------------------------------- threads */
#define TKEYS pcol_thread_keys
#define NTK PCOL_THREAD_NKEYS

typedef struct tctx {
  fthread *th;
  size_t n, cap;
} tctx;

/* The epoch start of source s in ns, or 0 when unknown: spec.md §7's start
 * rule (otlp.time_unix_nano, else pprof.time_nanos, else source_timestamp). */
static int source_epoch(fx *x, uint32_t s, int64_t *ns) {
  int64_t v;
  *ns = 0;
  if (pcol_meta_get_i64(x->f, s, OTLP_META_TIME_UNIX_NANO, &v, NULL) == PCOL_OK && v > 0) {
    *ns = v;
    return PCOL_OK;
  }
  if (pcol_meta_get_i64(x->f, s, PPROF_META_TIME_NANOS, &v, NULL) == PCOL_OK && v > 0) {
    *ns = v;
    return PCOL_OK;
  }
  int64_t ts = pcol_view_i64(&x->src_ts, s - 1);
  if (ts != PCOL_NA_I64 && ts > 0 && ts < INT64_MAX / 1000000000) *ns = ts * 1000000000;
  return PCOL_OK;
}

/* A source's values other than the count and `skip` (its weight) that
 * become counters: THE export rule (lib/core/xvalues.c), so an Rprof
 * memory profile gets rprof.alloc (the memory each sample allocated) and
 * its levels vsize.small, vsize.large and nodes.  types has room for
 * cap entries: the source's own source_value_types rows + PCOL_XV_MAX. */
static int other_types(fx *x, uint32_t s, uint32_t skip, pcol_xtype *types, size_t cap, size_t *n) {
  size_t m;
  int derived;
  PCOL_RETURN_NOT_OK(pcol_xvalues_source(&x->xv, s, types, cap, &m, &derived, x->err));
  *n = 0;
  for (size_t i = 0; i < m; i++) {
    uint32_t vt = types[i].vt;
    /* not the count, nor the time of an Rprof source; the weight only when
     * it is memory (bytes: a Perun memory profile), which the profiler
     * draws as a track only from a counter */
    pcol_str shown;
    (void)pcol_unit_decimals(types[i].unit, &shown);
    int bytes = pcol_str_is(shown, "bytes") || pcol_str_is(shown, "B");
    if (!vt || (vt == skip && !bytes) || (derived && vt == PCOL_VT_TIME)) continue;
    int dup = 0;
    for (size_t k = 0; k < *n; k++) dup |= types[k].vt == vt;
    if (!dup) types[(*n)++] = types[i];
  }
  return PCOL_OK;
}

typedef struct tw { /* what one source's threads share */
  uint32_t s, wvt, cvt; /* cvt: the stored count type (pcol_count_vt), 0: none */
  uint32_t count;       /* THE count rule's (pcol_count_types): pcol_sample_count's */
  const char *wtype;
  int dec;
  int64_t mul; /* the weight's values x this (weight_kind: kilobytes in bytes) */
  int synthetic;
  int64_t offset_ns, interval_ns;
  int64_t dur_ns; /* a synthetic source's stated duration (pcolDurationNanos; 0: none) */
  pcol_str uri;
  pcol_str vname; /* the weight's value type name (pcolValueType; NULL: none) */
  int count_first; /* its count (cvt) comes before the weight's type in its value types (pcolCountFirst) */
  /* its (cut) window in the copy's clock, ms since meta.startTime, when it
   * states one (registerTime, unregisterTime: each thread's lifetime in
   * the Firefox Profiler), and the first source of its recording (THE
   * recording rule's run, pcol_wall_run_end: pcolRecording) */
  int has_win;
  double zero_ms, reg_ms, unreg_ms; /* zero_ms: its time 0 (offset_ns + its cut's shift) */
  uint64_t rec;
} tw;

static __int128 amount(fx *x, const tw *w, const pcol_selected_row *r) {
  int64_t v = 0;
  if (!w->wvt) v = pcol_sample_count(&x->sc, r->row, w->count);
  else if (x->pick.src && w->wvt == x->pick.vt) (void)pcol_kin_pick_value(&x->pick, &x->sc, r->row, w->s, &v);
  else if (!pcol_sample_value_rt(&x->sc, &x->rt, r->row, w->wvt, &v)) v = 0;
  return (__int128)pcol_scale(v, r->num, r->den) * w->mul;
}

/* A tracing-ms weight is read back in nanoseconds (an int64): a weight
 * beyond that is refused here rather than written into a file no reader
 * of pcol's (nor a JavaScript number, exactly) holds.  A whole weight
 * (samples, bytes) is written only as THE whole-number rule writes one
 * (pcol_json_int_exact: the Firefox Profiler and pcol's import read a
 * double; 2^53 + 1 would read back 2^53, rd17a F4). */
static int weight_fits(fx *x, const tw *w, __int128 v) {
  if (w->mul > 1 && (v > (__int128)INT64_MAX || v < -(__int128)INT64_MAX))
    return pcol_error_set(x->err, PCOL_ETOOBIG, "firefox export: a sample's weight is beyond 2^63 bytes, which no "
                          "reader of the profile holds exactly; export another format");
  if (!w->dec && strcmp(w->wtype, "tracing-ms") != 0 && !pcol_json_int_exact(v)) {
    char num[48];
    pcol_decimal_text(num, sizeof num, v, 0);
    return pcol_error_set(x->err, PCOL_ETOOBIG, "firefox export: a sample's weight %s%s is not a number a reader of "
                          "the profile holds exactly (JSON numbers are read as doubles: past 2^53 only theirs); "
                          "export another format", num, !strcmp(w->wtype, "bytes") ? " bytes" : "");
  }
  if (strcmp(w->wtype, "tracing-ms") != 0) return PCOL_OK;
  __int128 ns = v < 0 ? -v : v;
  int e = 6 - w->dec; /* ns = v x 10^e */
  for (; e > 0; e--) {
    if (ns > (__int128)INT64_MAX) break;
    ns *= 10;
  }
  for (; e < 0; e++) ns /= 10;
  if (ns < (__int128)9200000000000000000LL) return PCOL_OK;
  return pcol_error_set(x->err, PCOL_ETOOBIG,
                        "firefox export: a sample's weight is beyond 2^63 nanoseconds, which no "
                        "reader of the profile holds exactly; export another format");
}

/* ----------------------------------------------- a thread's columns, on disk */
/* A source's samples are written a thread at a time, each thread's rows in
 * time order; its columns follow one another in the JSON, so the stack
 * column goes straight out and the others, each a column of a counter too,
 * to temporary files copied out when the thread ends: no sample is held in
 * memory. */
static int col_new(fx *x, FILE **c) {
  if (*c) return PCOL_OK;
  int fd = pcol_temp_fd("pcol-firefox-");
  if (fd < 0 || !(*c = fdopen(fd, "w+"))) {
    if (fd >= 0) close(fd);
    return pcol_error_set(x->err, PCOL_EIO, "firefox export: no temporary file ($TMPDIR, else /tmp)");
  }
  return PCOL_OK;
}
/* Copies file c from its start to the output (the counters). */
static int file_copy(fx *x, FILE *c) {
  if (!c) return PCOL_OK;
  if (fflush(c)) return io(x);
  rewind(c);
  char b[65536];
  size_t n;
  while ((n = fread(b, 1, sizeof b, c)) > 0)
    if (fwrite(b, 1, n, x->out) != n) return io(x);
  return ferror(c) ? io(x) : PCOL_OK;
}

#define COL_WHAT "firefox export: a column of a thread"
static int col_put(fx *x, fcol *c, const char *p, size_t n) {
  return pcol_input_append(c, p, n, COL_WHAT, x->err);
}
/* Empties column c for the next thread (its file, unlinked, goes); it
 * keeps up to `mem` bytes in memory. */
static void col_reset(fcol *c, size_t mem) {
  pcol_input_free(c);
  c->spill_at = mem;
}
/* The column as written: c->data[0..len) (mapped when it went to its file). */
static int col_seal(fx *x, fcol *c) {
  return pcol_input_seal(c, COL_WHAT, x->err);
}
/* Copies sealed column c to the output, a mapped one's pages handed back
 * as they are copied. */
static int col_copy(fx *x, fcol *c) {
  for (size_t at = 0, w = (size_t)8 << 20; at < c->len; at += w) {
    size_t k = c->len - at < w ? c->len - at : w;
    if (fwrite(c->data + at, 1, k, x->out) != k) return io(x);
    pcol_input_done(c, at, at + k);
  }
  return PCOL_OK;
}

/* put_num to column c: "," first but for its first value */
static int col_num(fx *x, fcol *c, size_t k, __int128 v, int dec) {
  char b[72];
  size_t n = 0;
  if (k) b[n++] = ',';
  for (; dec < 0; dec++) v *= 10;
  pcol_decimal_text(b + n, sizeof b - n, v, dec);
  return col_put(x, c, b, n + strlen(b + n));
}
static int col_str(fx *x, fcol *c, size_t k, const char *s) {
  if (k) PCOL_RETURN_NOT_OK(col_put(x, c, ",", 1));
  return col_put(x, c, s, strlen(s));
}

/* one row of a thread's samples table, sorted (pcol_rowsort) by thread,
 * time and order */
typedef struct orow {
  uint32_t thread;    /* the source's thread number */
  uint32_t stack;     /* pcol stack id (0: none) */
  int64_t t;          /* ns from the profile's start */
  uint64_t seq;       /* for a stable sort */
  __int128 w;         /* weight, in the thread's unit x 10^dec */
  __int128 full;      /* long sample: the whole weight (pcolWeight) */
  int64_t cpu, dur;   /* cpu NA: null; dur: long sample's ns, -1 a rest row, 0 none */
  int64_t count;      /* THE count of the row (pcolCount; a rest row 0) */
  uint64_t row;       /* pcol row (counters) */
  int base;           /* a -diff_base's base's sample (pcolBase) */
  int64_t num, den;
} orow;

static int orow_cmp(const void *pa, const void *pb) {
  orow a, b;
  memcpy(&a, pa, sizeof a);
  memcpy(&b, pb, sizeof b);
  if (a.thread != b.thread) return a.thread < b.thread ? -1 : 1;
  if (a.t != b.t) return a.t < b.t ? -1 : 1;
  return a.seq < b.seq ? -1 : a.seq > b.seq;
}

/* A counter (ctr): value t of the rows of one thread, as count per sample
 * (the profiler draws the running sum): an amount as it is, a level
 * (Rprof's memory in use) as its change since the thread's previous
 * sample, so that the drawn sum is the level.  Its times and counts are
 * two columns. */

/* The source being written: its threads, and the one being written. */
typedef struct wsrc {
  tw w;
  const fthread *th;     /* its threads, in order of first appearance */
  const pcol_xtype *others;
  size_t nothers;
  pcol_buf *scratch;
  fcol *col;             /* x->col */
  ctr *ctr;              /* x->ctr: a counter of each other type */
  size_t nth;            /* its threads */
  uint32_t cur;          /* the thread being written + 1 (0: none yet) */
  pcol_str pid;          /* that thread's pid as written (pidn: a number's text) */
  char pidn[24];
  size_t n;              /* its rows so far */
  int has_cpu, has_long, has_count, has_base;
  int rc;
} wsrc;

static int counter_write(fx *x, const tw *w, pcol_str pid, const pcol_xtype *t, ctr *c, int thread_index) {
  pcol_str ty = t->type, un = t->unit, shown = {0};
  if (!pcol_unit_decimals(un, &shown)) shown = un;
  int bytes = pcol_str_is(shown, "bytes") || pcol_str_is(shown, "B");
  int rc = put(x, x->ncounters++ ? ",\n{\"name\":" : "\n{\"name\":");
  if (!rc) rc = jstr(x, ty);
  if (!rc) rc = put(x, ",\"category\":\"pcol\",\"description\":");
  char d[512];
  snprintf(d, sizeof d, "%.*s/%.*s of %.*s", (int)(ty.ptr ? ty.len : 0), ty.ptr ? ty.ptr : "",
           (int)(un.ptr ? un.len : 0), un.ptr ? un.ptr : "", (int)(w->uri.len > 300 ? 300 : w->uri.len),
           w->uri.ptr ? w->uri.ptr : "");
  if (!rc) rc = jstr(x, (pcol_str){d, strlen(d)});
  if (!rc) rc = put(x, ",\"pid\":");
  if (!rc) rc = jstr(x, pid);
  if (!rc && fprintf(x->out, ",\"mainThreadIndex\":%d,\"display\":{\"graphType\":"
                     "\"line-accumulated\",\"unit\":\"%s\",\"color\":\"blue\",\"markerSchemaLocation\":null,"
                     "\"sortWeight\":100,\"label\":", thread_index, bytes ? "bytes" : "") < 0)
    rc = io(x);
  if (!rc) rc = jstr(x, ty);
  if (!rc && fprintf(x->out, ",\"tooltipRows\":[{\"type\":\"value\",\"source\":\"count\",\"format\":"
                     "{\"unit\":\"%s\"},\"label\":\"value of the sample\"}]},\"samples\":{\"time\":",
                     bytes ? "bytes" : "number") < 0)
    rc = io(x);
  if (!rc) rc = put(x, "[");
  if (!rc) rc = col_copy(x, &x->ctime);
  if (!rc) rc = put(x, "],\"count\":[");
  if (!rc) rc = col_copy(x, &c->count);
  if (!rc && fprintf(x->out, "],\"length\":%zu}}", c->n) < 0) rc = io(x);
  return rc;
}

/* The end of thread ws->cur: its other columns, its counters (to the
 * counters' file: they follow the threads). */
static int thread_end(fx *x, wsrc *ws) {
  int rc = put(x, "]");
  for (int k = 0; k < NCOL && !rc; k++) rc = col_seal(x, &ws->col[k]);
  if (!rc && ws->nothers) rc = col_seal(x, &x->ctime);
  for (size_t k = 0; k < ws->nothers && !rc; k++) rc = col_seal(x, &ws->ctr[k].count);
  static const char *const names[NCOL] = {",\"time\":[", ",\"weight\":[", ",\"threadCPUDelta\":[",
                                          ",\"pcolDuration\":[", ",\"pcolWeight\":[", ",\"pcolCount\":[",
                                          ",\"pcolBase\":["};
  for (int k = 0; k < NCOL && !rc; k++) {
    if ((k == C_CPU && !ws->has_cpu) || ((k == C_DUR || k == C_FULL) && !ws->has_long) ||
        (k == C_COUNT && !ws->has_count) || (k == C_BASE && !ws->has_base))
      continue;
    if (!(rc = put(x, names[k])) && !(rc = col_copy(x, &ws->col[k]))) rc = put(x, "]");
  }
  if (!rc && fprintf(x->out, ",\"length\":%zu}}", ws->n) < 0) rc = io(x);
  if (!rc && ws->nothers) rc = col_new(x, &x->counters);
  FILE *save = x->out;
  x->out = x->counters;
  for (size_t k = 0; k < ws->nothers && !rc; k++)
    rc = counter_write(x, &ws->w, ws->pid, &ws->others[k], &ws->ctr[k], x->nthreads_written);
  x->out = save;
  x->nthreads_written++;
  return rc;
}

/* A thread's fields up to its stack column, the one place they are
 * written: the fixed ones, its tid, pid (a string), name and process name,
 * the samples' weight type (a source's thread, thread_start, or the empty
 * thread of a profile without samples, empty_thread). */
static int thread_head(fx *x, int is_main, long long tid, pcol_str pid, pcol_str name, pcol_str process,
                       int synthetic, int64_t dur_ns, const char *wtype, pcol_str vname, int count_first,
                       const tw *w) {
  int rc = put(x, x->nthreads_written ? ",\n{" : "\n{");
  /* the source's window as the thread's lifetime (registerTime to
   * unregisterTime, which the import reads back as its source's window;
   * processStartupTime its time 0, which relative ranges count from,
   * so that a range of the copy cuts each source's as it cut the
   * original's: two profiles 1 s apart are not one window), with its
   * recording (pcolRecording: separate recordings in one profile are each
   * counted, as go's merge adds them); else the profile's */
  if (!rc && w && w->has_win)
    rc = fprintf(x->out, "\"processType\":\"default\",\"processStartupTime\":%.17g,\"processShutdownTime\":%.17g,"
                 "\"registerTime\":%.17g,\"unregisterTime\":%.17g,\"pcolRecording\":%llu,", w->zero_ms, w->unreg_ms,
                 w->reg_ms, w->unreg_ms, (unsigned long long)w->rec) < 0 ? io(x) : PCOL_OK;
  else if (!rc)
    rc = put(x, "\"processType\":\"default\",\"processStartupTime\":0,\"processShutdownTime\":null,"
                "\"registerTime\":0,\"unregisterTime\":null,");
  if (!rc && fprintf(x->out, "\"pausedRanges\":[],\"isMainThread\":%s,\"tid\":%lld,\"pid\":",
                     is_main ? "true" : "false", tid) < 0)
    rc = io(x);
  if (!rc) rc = jstr(x, pid);
  if (!rc) rc = put(x, ",\"name\":");
  if (!rc) rc = jstr(x, name);
  if (!rc) rc = put(x, ",\"processName\":");
  if (!rc) rc = jstr(x, process);
  if (!rc && synthetic) rc = put(x, ",\"pcolTimeAxis\":\"synthetic\"");
  if (!rc && synthetic && dur_ns > 0 && fprintf(x->out, ",\"pcolDurationNanos\":%lld", (long long)dur_ns) < 0)
    rc = io(x);
  /* the weight's value type ("cpu", "alloc_space"), which weightType alone
   * names only as a time or bytes: the importer reads it back */
  if (!rc && vname.ptr) rc = put(x, ",\"pcolValueType\":");
  if (!rc && vname.ptr) rc = jstr(x, vname);
  /* its source lists its count (samples/count, each row's pcolCount) before
   * the weight's type (a pprof profile's [samples, cpu]): the import makes
   * them in that order, so that a value's index is the original's (--value
   * 0, go's -sample_index=0: review diff5 m2, the copy's [cpu, samples]) */
  if (!rc && count_first) rc = put(x, ",\"pcolCountFirst\":true");
  if (!rc) rc = put(x, ",\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],\"endTime\":[],\"phase\":[],"
                       "\"category\":[],\"length\":0},\"samples\":{\"weightType\":\"");
  if (!rc) rc = put(x, wtype);
  if (!rc) rc = put(x, "\",\"stack\":[");
  return rc;
}

/* The start of thread k of the source: its fields up to its stack column. */
static int thread_start(fx *x, wsrc *ws, uint32_t k) {
  const tw *w = &ws->w;
  const fthread *t = &ws->th[k];
  for (int c = 0; c < NCOL; c++) col_reset(&ws->col[c], x->col_mem);
  col_reset(&x->ctime, x->col_mem);
  for (size_t c = 0; c < ws->nothers; c++) {
    col_reset(&ws->ctr[c].count, x->col_mem);
    ws->ctr[c].n = 0;
    ws->ctr[c].prev = 0;
  }
  ws->n = 0;
  ws->has_cpu = ws->has_long = ws->has_count = ws->has_base = 0;
  /* its tid: THE thread-id rule's (its tid, else thread_id label: a
   * number, or a string of one's digits, as eBPF profilers write it) */
  int64_t tid;
  int lost;
  PCOL_RETURN_NOT_OK(pcol_thread_id(x->f, t->ls, &tid, &lost, x->err));
  /* the thread's name (THE thread-name rule, lasts.c; the tid is its own
   * field), the source's name when it has one thread and no thread label.
   * A thread without a tid of its own is named with its id (the first of
   * its other thread labels: "parca thread_id w-3"), as the report's
   * timeline names it, so that two threads of one name are told apart, and
   * an id that is no number is kept */
  x->name.len = 0;
  pcol_str name = w->uri;
  int any = 0;
  for (int j = 0; j < NTK; j++) any |= t->t.kind[j];
  if (ws->nth > 1 || any) {
    PCOL_RETURN_NOT_OK(pcol_thread_name(x->f, t->ls, tid == PCOL_NA_I64, &x->name, x->err));
    name = (pcol_str){(const char *)x->name.data, x->name.len};
  }
  if (lost && !x->ids_lost++ && pcol_buf_append(&x->lost_name, name.ptr, name.len)) return oom(x);
  uint32_t psv;
  int64_t pnv;
  PCOL_RETURN_NOT_OK(pcol_label_get(x->f, t->ls, PCOL_THREAD_PID_KEY, &psv, &pnv, x->err));
  if (psv) PCOL_RETURN_NOT_OK(pcol_string(x->f, psv, &ws->pid, x->err));
  /* no pid label: the source's made-up pid, and no tid: one made up from
   * the thread's index on, by THE made-up-id rule (lasts.h): no process's
   * or thread's real id in the file (the Firefox Profiler groups threads
   * by pid and tells them apart by tid: a made-up pid 1 put a collapsed
   * source's thread in a perf thread's process 1; rd11 F1) */
  if (!psv || !ws->pid.ptr) {
    snprintf(ws->pidn, sizeof ws->pidn, "%lld",
             pnv != PCOL_NA_I64 ? (long long)pnv : (long long)pcol_made_up_id(&x->real, PCOL_ID_PID, 1, w->s - 1));
    ws->pid = (pcol_str){ws->pidn, strlen(ws->pidn)};
  }
  if (tid == PCOL_NA_I64) {
    /* (the k-th made up, k the thread's index, or past the last one made
     * up: made-up tids never meet) */
    uint64_t kk = x->nthreads_written > x->last_fallback ? x->nthreads_written : x->last_fallback + 1;
    tid = pcol_made_up_id(&x->real, PCOL_ID_TID, 0, kk);
    x->last_fallback = (long long)kk;
  }
  return thread_head(x, k == 0, (long long)tid, ws->pid, name, w->uri, w->synthetic, w->dur_ns, w->wtype, w->vname,
                     w->count_first, w);
}

/* Each row of the sorter, in order: its thread started or ended as it
 * changes, its values to the columns. */
static int put_row(void *ctx, const void *row) {
  fx *x = ((void **)ctx)[0];
  wsrc *ws = ((void **)ctx)[1];
  orow o;
  memcpy(&o, row, sizeof o);
  int rc = PCOL_OK;
  if (ws->cur != o.thread + 1) {
    if (ws->cur && (rc = thread_end(x, ws))) return ws->rc = rc;
    ws->cur = o.thread + 1;
    if ((rc = thread_start(x, ws, o.thread))) return ws->rc = rc;
  }
  uint32_t stack = 0;
  if ((rc = stack_of(x, o.stack, ws->scratch, &stack))) return ws->rc = rc;
  size_t k = ws->n++;
  if (k && (rc = put(x, ","))) return ws->rc = rc;
  rc = stack ? (fprintf(x->out, "%u", stack - 1) < 0 ? io(x) : 0) : put(x, "null");
  ws->has_cpu |= o.cpu != PCOL_NA_I64;
  ws->has_long |= o.dur != 0;
  /* a time or bytes weight leaves the row's count unsaid (the profiler
   * counts a sample 1): pcolCount says it where one is not 1, and always
   * for a source that counted its samples (samples/count: the import keeps
   * it as that value, which the pprof export writes back) */
  ws->has_count |= o.dur >= 0 && (o.count != 1 || ws->w.cvt) && (strcmp(ws->w.wtype, "samples") || ws->w.vname.ptr);
  if (!rc) rc = col_num(x, &ws->col[C_TIME], k, o.t, 6);
  if (!rc) rc = col_num(x, &ws->col[C_WEIGHT], k, o.w, ws->w.dec);
  if (!rc) rc = o.cpu == PCOL_NA_I64 ? col_str(x, &ws->col[C_CPU], k, "null") : col_num(x, &ws->col[C_CPU], k, o.cpu, 0);
  if (!rc) rc = o.dur > 0 ? col_num(x, &ws->col[C_DUR], k, o.dur, 6) : col_str(x, &ws->col[C_DUR], k, o.dur < 0 ? "0" : "null");
  if (!rc) rc = o.dur > 0 ? col_num(x, &ws->col[C_FULL], k, o.full, ws->w.dec) : col_str(x, &ws->col[C_FULL], k, "null");
  if (!rc) rc = col_num(x, &ws->col[C_COUNT], k, o.count, 0);
  /* the base's samples of a -diff_base, whose |values| are the total
   * (pprof's computeTotal): the label pprof::base, a thread's no more */
  ws->has_base |= o.base;
  if (!rc) rc = col_num(x, &ws->col[C_BASE], k, o.base, 0);
  for (size_t c = 0; c < ws->nothers && !rc && o.dur >= 0; c++) {
    const pcol_xtype *t = &ws->others[c];
    ctr *cc = &ws->ctr[c];
    pcol_str shown = {0};
    int dec = pcol_unit_decimals(t->unit, &shown);
    int64_t v = 0;
    if ((rc = pcol_xvalue(&x->xv, x->cvt, o.row, t->vt, &v, x->err))) break;
    __int128 cv = t->level ? (__int128)v - cc->prev : pcol_scale(v, o.num, o.den);
    cc->prev = v;
    if (!c) rc = col_num(x, &x->ctime, cc->n, o.t, 6);
    if (!rc) rc = col_num(x, &cc->count, cc->n, cv, dec);
    cc->n++;
  }
  return ws->rc = rc;
}

/* pass 1 over a source's selected rows: its threads, whether any row has
 * no time, and what its sampling interval (meta.interval) is taken from
 * when the source declares none (THE interval and span rules, lasts.h):
 * its samples' own lengths (perf's periods) per raw sample, else the
 * median gap between consecutive samples of one thread */
typedef struct scan {
  fx *x;
  tctx tc;
  uint32_t *cls_thread;  /* thread class (x->tcls) -> the source's thread + 1 (0: not yet) */
  uint64_t nls;
  int synthetic;
  int64_t last;
  int has_last;
  int in_order;          /* times never go back, and no long sample */
  uint64_t n;
  pcol_lasts lasts;      /* the source's span rule */
  __int128 own, ticks;   /* the rows' own lengths (pcol_lasts_own), their raw samples */
  pcol_buf tlast;        /* int64 per thread: the time of its last row (NA: none yet) */
  pcol_gaps *gaps;       /* the gaps between a thread's consecutive rows */
} scan;

static int thread_of(scan *sc, uint32_t ls, uint32_t *th) {
  fx *x = sc->x;
  uint32_t k = ls <= sc->nls ? x->tcls[ls] : 0;
  if (!sc->cls_thread[k]) {
    fthread t;
    memset(&t, 0, sizeof t);
    t.ls = k ? x->tname[k] : ls;
    PCOL_RETURN_NOT_OK(pcol_thread_tuple_of(x->f, ls, &t.t, x->err));
    if (PCOL_GROW(sc->tc.th, sc->tc.n, sc->tc.cap)) return oom(x);
    sc->tc.th[sc->tc.n++] = t;
    sc->cls_thread[k] = (uint32_t)sc->tc.n;
  }
  *th = sc->cls_thread[k] - 1;
  return PCOL_OK;
}

static int scan_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  scan *sc = ctx;
  (void)num, (void)den;
  uint32_t th;
  PCOL_RETURN_NOT_OK(thread_of(sc, pcol_view_u32(&sc->x->s_ls, row), &th));
  int64_t t = pcol_view_i64(&sc->x->s_time, row), g;
  sc->synthetic |= t == PCOL_NA_I64;
  if ((sc->has_last && t < sc->last) || pcol_view_i64(&sc->x->s_dur, row) > 0) sc->in_order = 0;
  /* the span rule's evidence: own lengths; gaps within a thread only */
  int64_t own = pcol_lasts_own(&sc->lasts, &sc->x->sc, &sc->x->rt, row), d = pcol_view_i64(&sc->x->s_dur, row);
  int64_t wt = pcol_view_i64(&sc->x->sc.weight, row);
  if (d > 0) own = d;
  if (own > 0) sc->own += own, sc->ticks += wt > 1 ? wt : 1;
  while (sc->tlast.len / sizeof(int64_t) <= th)
    if (PCOL_BUF_PUSH(&sc->tlast, int64_t, PCOL_NA_I64)) return oom(sc->x);
  int64_t *tl = (int64_t *)(void *)sc->tlast.data + th;
  if (*tl != PCOL_NA_I64 && t != PCOL_NA_I64 && !__builtin_sub_overflow(t, *tl, &g)) pcol_gaps_add(sc->gaps, g);
  if (t != PCOL_NA_I64) *tl = t;
  sc->last = t;
  sc->has_last = 1;
  sc->n++;
  return PCOL_OK;
}

/* pass 2: each selected row (two for a long sample, as samply writes it)
 * to the sorter */
typedef struct fill {
  fx *x;
  scan *sc;
  const tw *w;
  const pcol_select *one;
  uint64_t *seq;         /* per thread */
  pcol_rowsort *rs;      /* NULL: the rows come in order, each straight to put_row */
  void **put;            /* put_row's context */
} fill;

static int fill_put(fill *fl, const orow *o) {
  fx *x = fl->x; /* the written times, for the profiling range (span_range) */
  if (!x->has_t || o->t < x->t_lo) x->t_lo = o->t;
  if (!x->has_t || o->t > x->t_hi) x->t_hi = o->t;
  x->has_t = 1;
  if (fl->rs) return pcol_rowsort_add(fl->rs, o);
  return put_row(fl->put, o);
}

static int fill_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  fill *fl = ctx;
  fx *x = fl->x;
  const tw *w = fl->w;
  uint32_t th;
  PCOL_RETURN_NOT_OK(thread_of(fl->sc, pcol_view_u32(&x->s_ls, row), &th));
  int64_t t = pcol_view_i64(&x->s_time, row), d = pcol_view_i64(&x->s_dur, row);
  int64_t wgt = pcol_view_i64(&x->sc.weight, row);
  uint64_t *seq = &fl->seq[th];
  if (w->synthetic) {
    /* saturated, never going back: past half the range every later row
     * is there too (a period of INT64_MAX ns: 1 x INT64_MAX, then 2 x
     * overflowed to INT64_MAX / 2, and the copy's times went backwards;
     * review diff5 F3) */
    if (__builtin_mul_overflow((int64_t)*seq, w->interval_ns, &t) || t > INT64_MAX / 2) t = INT64_MAX / 2;
    d = 0;
  } else if (d > 0 && num != den) { /* a long sample cut by the range */
    int64_t from = fl->one->has_from ? fl->one->from_ns : INT64_MIN;
    if (t < from) t = from;
    d = pcol_scale(d, num, den);
    wgt = pcol_scale(wgt, num, den);
  }
  if (d < 0) d = 0;
  orow a;
  memset(&a, 0, sizeof a);
  a.thread = th;
  a.seq = (*seq)++;
  if (__builtin_add_overflow(t, w->offset_ns, &a.t)) a.t = t;
  a.stack = pcol_view_u32(&x->s_stack, row);
  a.row = row;
  a.num = num;
  a.den = den;
  pcol_selected_row r = {row, num, den};
  a.w = amount(x, w, &r);
  x->src_rows++;
  x->src_nonzero += a.w != 0;
  a.count = pcol_scale(pcol_sample_count(&x->sc, row, w->count), num, den);
  uint32_t ls = pcol_view_u32(&x->s_ls, row);
  a.base = x->base_ls && (x->base_kind[w->s] & 5) && ls <= pcol_rows(x->f, PCOL_T_LABELSETS) && x->base_ls[ls];
  PCOL_RETURN_NOT_OK(weight_fits(x, w, a.w));
  if (!pcol_json_int_exact(a.count)) /* (pcolCount: the same rule) */
    return pcol_error_set(x->err, PCOL_ETOOBIG, "firefox export: a sample's count %lld is not a number a reader of "
                          "the profile holds exactly (JSON numbers are read as doubles); export another format",
                          (long long)a.count);
  a.cpu = pcol_view_i64(&x->s_cpu, row);
  int rc;
  if (d > 0 && wgt >= 2) { /* samply's two samples: 1/N at the start, the rest at the last tick */
    orow b = a;
    b.seq = (*seq)++;
    int64_t last = d - d / wgt;
    if (__builtin_add_overflow(a.t, last, &b.t)) b.t = a.t;
    b.w = a.w - a.w / wgt;
    b.cpu = a.cpu == PCOL_NA_I64 ? PCOL_NA_I64 : 0;
    b.dur = -1;
    b.count = 0;
    a.full = a.w;
    a.w = a.w / wgt;
    a.dur = d;
    if ((rc = fill_put(fl, &b))) return rc;
  } else if (d > 0) {
    a.full = a.w;
    a.dur = d;
  }
  return fill_put(fl, &a);
}

/* The rows of one source, split into threads and written. */
static int write_source(fx *x, const pcol_select *sel, uint32_t s, pcol_buf *scratch) {
  pcol_select one = sel ? *sel : (pcol_select){0};
  one.source_id = s;
  /* Every row is written in three columns (stack, time, weight), at least
   * one digit and a comma each: a source whose rows cannot fit in what is
   * left of the budget is refused before they are read (a 2 KB file of
   * 16 Mi samples took 11 s and 460 MB to be refused). */
  uint64_t nsel = 0;
  PCOL_RETURN_NOT_OK(pcol_select_count(x->f, &one, &nsel, x->err));
  if (nsel && pcol_budget_exceeded(x->bud, nsel > UINT64_MAX / 6 ? UINT64_MAX : 6 * nsel - 3))
    return pcol_budget_refuse(x->bud, x->err);
  if (!nsel) return PCOL_OK;
  wsrc ws;
  memset(&ws, 0, sizeof ws);
  tw *w = &ws.w;
  w->s = s;
  w->cvt = pcol_count_vt(x->cvt[s]);
  w->count = x->cvt[s];
  ws.scratch = scratch;
  scan sc;
  memset(&sc, 0, sizeof sc);
  sc.x = x;
  sc.nls = pcol_rows(x->f, PCOL_T_LABELSETS);
  sc.in_order = 1;
  pcol_xtype *others = NULL;
  fill fl;
  memset(&fl, 0, sizeof fl);
  /* the weight: the value asked for (--value; a source without it weighs
   * 0), else the selection's default as the views read it (THE default
   * rule: the source's own where it lacks that) */
  int rc = x->value ? PCOL_OK : pcol_export_source_default(x->f, &x->pick, s, &w->wvt, x->err);
  if (x->value) w->wvt = x->value->vt_id; /* (PCOL_VT_WEIGHT: the weight column, amount) */
  if (!rc && !w->wvt && w->cvt) w->wvt = w->cvt;
  /* go's merged column, whatever the source's own default (rd16a F5): the
   * pick's type, read by the pick (amount); else the selection's default
   * where the source lists it (pcol_export_source_default) */
  uint32_t pvt, pnth;
  if (!rc && pcol_kin_pick_source(&x->pick, s, &pvt, &pnth)) w->wvt = x->pick.vt;
  if (!rc) rc = weight_kind(x, w->wvt, &w->wtype, &w->dec, &w->mul);
  /* the weight's name (pcolValueType): a time's or bytes', and a count's
   * that is not the samples' own (inuse_objects, goroutine: the import
   * reads it back as that value, not as the samples' count) */
  int named_count = !rc && !strcmp(w->wtype, "samples") && !w->dec && w->wvt != w->cvt &&
                    w->wvt >= 1 && w->wvt <= pcol_rows(x->f, PCOL_T_VALUE_TYPES);
  if (!rc && strcmp(w->wtype, "samples") && w->wvt == PCOL_VT_TIME) w->vname = (pcol_str){"cpu", 3};
  else if (!rc && (strcmp(w->wtype, "samples") || named_count) && w->wvt && w->wvt < PCOL_VT_WEIGHT)
    rc = pcol_string(x->f, pcol_view_u32(&x->vt_type, w->wvt - 1), &w->vname, x->err);
  if (named_count && (!w->vname.ptr || !w->vname.len || pcol_str_is(w->vname, PCOL_VT_SAMPLES)))
    w->vname = (pcol_str){NULL, 0}; /* (no name to give, or the samples': the count) */
  if (!rc) rc = pcol_string(x->f, pcol_view_u32(&x->src_uri, s - 1), &w->uri, x->err);
  if (!rc && !w->uri.ptr) w->uri = (pcol_str){"pcol", 4};
  w->uri = pcol_source_display_name(x->f, s, w->uri); /* thread and process names: no directory */
  /* pass 1: the threads, the time axis */
  if (!rc && !(sc.cls_thread = calloc((size_t)x->ntcls + 1, sizeof *sc.cls_thread))) rc = oom(x);
  if (!rc) rc = pcol_lasts_init(&sc.lasts, x->f, s, x->err);
  if (!rc && !(sc.gaps = calloc(1, sizeof *sc.gaps))) rc = oom(x);
  if (!rc) rc = pcol_select_iter(x->f, &one, scan_row, &sc, x->err);
  w->synthetic = sc.synthetic;
  /* the source's window in a range (pcol_wall_cut, over the file's walls
   * made once) */
  pcol_wall_window win;
  int hit = 0;
  if (!rc) hit = pcol_wall_cut(&x->wall, sel, s, &win);
  /* of a source without a start, its times written only as far earlier
   * as the range starts (THE span start of a cut copy): the threads of a
   * trace whose profiles start apart keep their places, as the speedscope
   * copy's do (rd13a F7: each began at 0) */
  if (!rc) pcol_wall_cut_keep_span(&x->wall, s, &win);
  /* a source without times keeps its stated duration (THE duration rule,
   * pcol_sources_time; of a range, its window's), which its synthetic axis
   * does not give: the import reads it back as the source's */
  if (!rc && w->synthetic) {
    /* pcol_sources_time of this source alone (go's merge step, from 0),
     * over the file's walls made once: a pcol_sources_time a source made
     * them a source at a time, O(sources^2) (t_many's 80,000 sources) */
    int64_t t0 = 0;
    uint64_t dn = 0;
    pcol_wall_merge_step(&t0, &dn, pcol_wall_go_start(&x->wall, s), win.cut ? win.stated : x->wall.stated[s]);
    w->dur_ns = (int64_t)dn;
  }
  /* meta.interval: THE interval rule, else the samples' own length per
   * raw sample (a perf source's period), else a thread's median gap */
  w->interval_ns = rc ? 0 : sc.lasts.interval;
  if (!w->interval_ns && sc.ticks > 0) {
    __int128 m = (sc.own + sc.ticks / 2) / sc.ticks;
    w->interval_ns = m > INT64_MAX ? INT64_MAX : (int64_t)m;
  }
  if (!w->interval_ns) w->interval_ns = pcol_lasts_cap(sc.gaps);
  int64_t epoch = 0;
  if (!rc) rc = source_epoch(x, s, &epoch);
  /* its rows' times since the profile's zero: since its start, moved by
   * its start's place (a source without one: its window's start at 0) */
  w->offset_ns = epoch && x->has_start ? epoch - x->start_ns : rc ? 0 : -win.shift;
  /* its window (thread_head), where span_range places the span: from
   * offset + span, its stated (cut) duration long; of its recording (the
   * runs walked once, as the sources come in order) */
  while (s >= x->run_e) x->run_s = x->run_e, x->run_e = pcol_wall_run_end(&x->wall, x->run_s);
  w->rec = x->run_s;
  w->has_win = !rc && hit && !w->synthetic && win.stated > 0;
  if (w->has_win) {
    __int128 a = (__int128)w->offset_ns + win.span;
    /* (its time 0 moved with its cut window, as pcol_wall_meta_cut moves
     * a copy's: the copy of a range starts where the range's part does) */
    w->zero_ms = (double)((__int128)w->offset_ns + win.shift) / 1e6;
    w->reg_ms = (double)a / 1e6, w->unreg_ms = (double)(a + win.stated) / 1e6;
  }
  int64_t stated = rc ? 0 : sc.lasts.interval;
  if (x->nthreads_written == 0) x->interval_ms = (double)w->interval_ns / 1e6, x->stated_ns = stated;
  else if (stated != x->stated_ns) x->stated_ns = 0;
  /* room for this source's own value types (not every source's: once per
   * source, that was quadratic in the number of sources) */
  size_t cap_others = 0;
  if (!rc) {
    const uint32_t *srows;
    size_t nsrows;
    if (!(rc = pcol_source_rows(x->f, PCOL_T_SOURCE_VALUE_TYPES, s, &srows, &nsrows, x->err))) {
      cap_others = nsrows + PCOL_XV_MAX;
      /* whether the count comes first (pcolCountFirst, thread_head) */
      for (size_t j = 0; j < nsrows && w->cvt && w->wvt != w->cvt; j++) {
        uint32_t vt = pcol_view_u32(&x->svt_vt, srows[j]);
        if (vt == w->wvt) break;
        if (vt == w->cvt) w->count_first = 1;
      }
      if (!(others = malloc(cap_others * sizeof *others))) rc = oom(x);
    }
  }
  size_t nothers = 0;
  if (!rc) rc = other_types(x, s, w->wvt, others, cap_others, &nothers);
  for (size_t k = 0; !rc && x->say && k <= nothers; k++) { /* (note_counters; the count is
                                                              * kept, pcolCount, and the weight
                                                              * in bytes a counter too) */
    svt e = {s, k < nothers ? others[k].vt : w->wvt, (uint32_t)w->synthetic};
    if ((k == nothers || (e.vt != w->cvt && e.vt != w->wvt)) && pcol_buf_append(k < nothers ? &x->countered : &x->weighs, &e, sizeof e))
      rc = oom(x);
  }
  if (w->synthetic) nothers = 0; /* values over no time are not counters */
  ws.th = sc.tc.th;
  ws.nth = sc.tc.n;
  ws.others = others;
  ws.nothers = nothers;
  /* pass 2: the rows, sorted by thread, time, order (runs on disk past the
   * sorter's budget); then written */
  if (!rc && !(fl.seq = calloc(sc.tc.n + 1, sizeof *fl.seq))) rc = oom(x);
  if (!rc && nothers > x->nctr) { /* (the files are made once, for every source) */
    ctr *c = realloc(x->ctr, nothers * sizeof *c);
    if (!c) rc = oom(x);
    else memset(c + x->nctr, 0, (nothers - x->nctr) * sizeof *c), x->ctr = c, x->nctr = nothers;
  }
  /* one thread whose rows come in time order (the usual pprof or perf
   * source) needs no sorting */
  int direct = sc.tc.n == 1 && (sc.in_order || w->synthetic);
  if (!rc && !direct && pcol_rowsort_new(&fl.rs, sizeof(orow), orow_cmp)) rc = oom(x);
  ws.col = x->col;
  ws.ctr = x->ctr;
  /* the columns in memory share 16 MiB (a source of many value types
   * gets a smaller share a column, and its files sooner) */
  x->col_mem = ((size_t)16 << 20) / (NCOL + 1 + nothers);
  if (x->col_mem > pcol_firefox_col_bytes) x->col_mem = pcol_firefox_col_bytes;
  fl.x = x;
  fl.sc = &sc;
  fl.w = w;
  fl.one = &one;
  void *ctx[2] = {x, &ws};
  fl.put = ctx;
  x->src_rows = x->src_nonzero = 0;
  if (!rc) {
    rc = pcol_select_iter(x->f, &one, fill_row, &fl, x->err);
    if (rc && !ws.rc && rc == PCOL_ENOMEM) rc = oom(x);
    else if (rc && !ws.rc && rc == PCOL_EIO) rc = pcol_error_set(x->err, rc, "firefox export: a temporary file ($TMPDIR, else /tmp) could not be written");
  }
  if (!rc && direct) {
    if (ws.cur) rc = thread_end(x, &ws);
  } else if (!rc) {
    rc = pcol_rowsort_each(fl.rs, put_row, ctx);
    if (rc && !ws.rc) /* the sorter's own failure */
      rc = rc == PCOL_ENOMEM ? oom(x)
                             : pcol_error_set(x->err, rc, "firefox export: a temporary file ($TMPDIR, "
                                              "else /tmp) could not be read");
    if (!rc && ws.cur) rc = thread_end(x, &ws);
  }
  /* a weight that is 0 in every row (dotnet's default lock_time): the
   * profiler shows an empty call tree, with the CPU time in another value
   * type the export did not write (review 9 F3): said, with the way out */
  if (!rc && x->say && x->src_rows && !x->src_nonzero) {
    char t[300];
    pcol_str vn = w->vname.ptr ? w->vname : (pcol_str){"the count", 9}; /* (a samples weight) */
    snprintf(t, sizeof t,
             "source %u: the value its samples weigh (%.*s) is 0 in every selected sample, so the "
             "Firefox Profiler shows an empty call tree; --value TYPE weighs them by another",
             s, (int)pcol_utf8_cut(vn.ptr, vn.len, 80), vn.ptr);
    pcol_export_say(x->say, PCOL_EXPORT_DATA, t);
  }
  pcol_rowsort_free(fl.rs);
  free(fl.seq);
  free(others);
  free(sc.cls_thread);
  free(sc.gaps);
  pcol_buf_free(&sc.tlast);
  free(sc.tc.th);
  return rc;
}

/* A thread without samples, for an export none of whose sources has a
 * sample (a profile of markers only, a time range that holds no sample):
 * the Firefox Profiler refuses a profile without threads ("This profile has
 * no threads"), and opens this one on its range.  Named as thread_start
 * names a source's only thread; source s's number as its pid. */
static int empty_thread(fx *x, uint32_t s) {
  pcol_str uri = {0};
  PCOL_RETURN_NOT_OK(pcol_string(x->f, pcol_view_u32(&x->src_uri, s - 1), &uri, x->err));
  if (!uri.ptr) uri = (pcol_str){"pcol", 4};
  uri = pcol_source_display_name(x->f, s, uri);
  char pid[16];
  snprintf(pid, sizeof pid, "%u", s);
  int rc = thread_head(x, 1, 0, (pcol_str){pid, strlen(pid)}, uri, uri, 0, 0, "samples", (pcol_str){0}, 0, NULL);
  if (!rc) rc = put(x, "],\"time\":[],\"weight\":[],\"length\":0}}");
  if (!rc) x->nthreads_written++;
  return rc;
}

/* ------------------------------------------------------------ shared */
static int put_u32s(fx *x, const pcol_buf *b, int plus_one_null) {
  const uint32_t *v = (const uint32_t *)b->data;
  size_t n = b->len / 4;
  int rc = put(x, "[");
  for (size_t i = 0; i < n && !rc; i++) {
    if (plus_one_null && !v[i]) rc = put(x, i ? ",null" : "null");
    else if (fprintf(x->out, i ? ",%u" : "%u", plus_one_null ? v[i] - 1 : v[i]) < 0) rc = io(x);
  }
  return rc ? rc : put(x, "]");
}
static int put_i64s(fx *x, const pcol_buf *b) {
  const int64_t *v = (const int64_t *)b->data;
  size_t n = b->len / 8;
  int rc = put(x, "[");
  for (size_t i = 0; i < n && !rc; i++) {
    if (v[i] == PCOL_NA_I64) rc = put(x, i ? ",null" : "null");
    else if (fprintf(x->out, i ? ",%lld" : "%lld", (long long)v[i]) < 0) rc = io(x);
  }
  return rc ? rc : put(x, "]");
}
/* n copies of `s` as a JSON array */
static int put_rep(fx *x, size_t n, const char *s) {
  int rc = put(x, "[");
  for (size_t i = 0; i < n && !rc; i++) rc = (i ? put(x, ",") : 0) || put(x, s);
  return rc ? rc : put(x, "]");
}

static int write_shared(fx *x) {
  size_t nst = x->st_frame.len / 4, nfr = x->fr_func.len / 4, nfn = x->func_name.len / 4,
         nsrc = x->source_file.len / 4, nstr = x->strs.len / 4;
  int rc = put(x, ",\n\"shared\":{\"stackTable\":{\"frame\":");
  if (!rc) rc = put_u32s(x, &x->st_frame, 0);
  if (!rc) rc = put(x, ",\"prefixOffset\":[");
  const uint32_t *pre = (const uint32_t *)x->st_prefix.data;
  for (size_t i = 0; i < nst && !rc; i++)
    if (fprintf(x->out, i ? ",%zu" : "%zu", pre[i] ? i - (pre[i] - 1) : 0) < 0) rc = io(x);
  if (!rc && fprintf(x->out, "],\"length\":%zu},\n\"frameTable\":{\"func\":", nst) < 0) rc = io(x);
  if (!rc) rc = put_u32s(x, &x->fr_func, 0);
  if (!rc) rc = put(x, ",\"line\":");
  if (!rc) rc = put_i64s(x, &x->fr_line);
  if (!rc) rc = put(x, ",\"column\":");
  if (!rc) rc = put_i64s(x, &x->fr_col);
  if (!rc) rc = put(x, ",\"inlineDepth\":");
  if (!rc) rc = put_u32s(x, &x->fr_depth, 0);
  if (!rc) rc = put(x, ",\"address\":");
  if (!rc) rc = put_rep(x, nfr, "-1");
  if (!rc) rc = put(x, ",\"lib\":");
  if (!rc) rc = put_rep(x, nfr, "-1");
  if (!rc) rc = put(x, ",\"category\":");
  if (!rc) rc = put_rep(x, nfr, "0");
  if (!rc) rc = put(x, ",\"subcategory\":");
  if (!rc) rc = put_rep(x, nfr, "0");
  if (!rc) rc = put(x, ",\"nativeSymbol\":");
  if (!rc) rc = put_rep(x, nfr, "null");
  if (!rc) rc = put(x, ",\"innerWindowID\":");
  if (!rc) rc = put_rep(x, nfr, "0");
  if (!rc) rc = put(x, ",\"originalLocation\":");
  if (!rc) rc = put_rep(x, nfr, "null");
  if (!rc && fprintf(x->out, ",\"length\":%zu},\n\"funcTable\":{\"name\":", nfr) < 0) rc = io(x);
  if (!rc) rc = put_u32s(x, &x->func_name, 0);
  if (!rc) rc = put(x, ",\"source\":");
  if (!rc) rc = put_u32s(x, &x->func_src, 1);
  if (!rc) rc = put(x, ",\"lineNumber\":");
  if (!rc) rc = put_i64s(x, &x->func_line);
  if (!rc) rc = put(x, ",\"columnNumber\":");
  if (!rc) rc = put_rep(x, nfn, "null");
  if (!rc) rc = put(x, ",\"isJS\":");
  if (!rc) rc = put_rep(x, nfn, "false");
  if (!rc) rc = put(x, ",\"relevantForJS\":");
  if (!rc) rc = put_rep(x, nfn, "false");
  if (!rc) rc = put(x, ",\"resource\":");
  if (!rc) rc = put_rep(x, nfn, "-1");
  if (!rc) rc = put(x, ",\"originalLocation\":");
  if (!rc) rc = put_rep(x, nfn, "null");
  if (!rc && x->any_place) {
    rc = put(x, ",\"pcolNameless\":[");
    for (size_t i = 0; i < nfn && !rc; i++) rc = put(x, x->func_place.data[i] ? (i ? ",1" : "1") : (i ? ",0" : "0"));
    if (!rc) rc = put(x, "]");
  }
  if (!rc && fprintf(x->out, ",\"length\":%zu},\n\"resourceTable\":{\"name\":[],\"host\":[],\"type\":[],"
                     "\"length\":0},\n\"nativeSymbols\":{\"libIndex\":[],\"address\":[],\"name\":[],"
                     "\"functionSize\":[],\"length\":0},\n\"sourceLocationTable\":{\"source\":[],"
                     "\"line\":[],\"column\":[],\"length\":0},\n\"sources\":{\"id\":", nfn) < 0)
    rc = io(x);
  if (!rc) rc = put_rep(x, nsrc, "null");
  if (!rc) rc = put(x, ",\"filename\":");
  if (!rc) rc = put_u32s(x, &x->source_file, 0);
  if (!rc) rc = put(x, ",\"startLine\":");
  if (!rc) rc = put_rep(x, nsrc, "1");
  if (!rc) rc = put(x, ",\"startColumn\":");
  if (!rc) rc = put_rep(x, nsrc, "1");
  if (!rc) rc = put(x, ",\"sourceMapURL\":");
  if (!rc) rc = put_rep(x, nsrc, "null");
  if (!rc) rc = put(x, ",\"content\":");
  if (!rc) rc = put_rep(x, nsrc, "null");
  if (!rc && fprintf(x->out, ",\"length\":%zu},\n\"stringArray\":[", nsrc) < 0) rc = io(x);
  const uint32_t *sv = (const uint32_t *)x->strs.data;
  for (size_t i = 0; i < nstr && !rc; i++) {
    if (i && (rc = put(x, ",\n"))) break;
    if (sv[i] >> 31) {
      uint64_t off = ((const uint64_t *)x->syn_off.data)[sv[i] & 0x7fffffffu];
      const char *p = (const char *)x->syn.data + off;
      uint64_t e = (sv[i] & 0x7fffffffu) + 1 < x->syn_off.len / 8
                       ? ((const uint64_t *)x->syn_off.data)[(sv[i] & 0x7fffffffu) + 1] - 1
                       : x->syn.len - 1;
      rc = jstr(x, (pcol_str){p, e - off});
    } else {
      pcol_str s;
      if (!(rc = pcol_string(x->f, sv[i], &s, x->err))) rc = jstr(x, s);
    }
  }
  return rc ? rc : put(x, "]}");
}

/* meta.pcolDefaultValue: the name of the value the views show of the
 * selection by default (THE default rule, pcol_selection_default_type:
 * the sources' own default, or their stated one, a JFR recording's cpu
 * beside its allocation sources; "samples" for the count, sources whose
 * own defaults differ and state none), which the threads' weightTypes do
 * not say: the import gives the file's one source that default
 * (doc/mappings.md §8.1), not its last value type.  Written as every
 * string of the export is (jstr: escaped, into the budgeted output). */
static int put_default(fx *x, const pcol_select *sel) {
  uint32_t vt = 0;
  if (x->value) /* --value: the weights are that value (the weight: the count's column) */
    vt = x->value->vt_id == PCOL_VT_WEIGHT ? 0 : x->value->vt_id;
  else
    PCOL_RETURN_NOT_OK(pcol_selection_default_type(x->f, sel, &vt, NULL, x->err));
  pcol_str name = {PCOL_VT_SAMPLES, sizeof PCOL_VT_SAMPLES - 1};
  if (vt == PCOL_VT_TIME) name = (pcol_str){PCOL_VT_CPU, sizeof PCOL_VT_CPU - 1}; /* an Rprof source's time */
  else if (vt >= 1 && vt <= pcol_rows(x->f, PCOL_T_VALUE_TYPES))
    PCOL_RETURN_NOT_OK(pcol_string(x->f, pcol_view_u32(&x->vt_type, vt - 1), &name, x->err));
  if (!name.ptr) return PCOL_OK; /* (a type without a name: none to state) */
  int rc = put(x, ",\"pcolDefaultValue\":");
  return rc ? rc : jstr(x, name);
}

/* meta.profilingStartTime/profilingEndTime (ms since meta.startTime), the
 * range the Firefox Profiler shows and counts samples in (its
 * getTimeRangeIncludingAllThreads; its profile-meta's duration is their
 * difference): the selection's time and duration (THE rule,
 * pcol_sources_time: a JFR recording's span, a pprof profile's
 * duration_nanos, go's merge of several), which the import reads back as
 * the source's duration, so that `pcol top` of the copy says the
 * original's Duration:; a Firefox source's own range when its length is
 * that duration (firefox.range_start_ms/end_ms: one its markers made,
 * not exported).  The profiler counts only the samples in [start, end):
 * when written rows lie outside the span (go adds the durations of a
 * merge of profiles recorded apart), the range reaches to them, one
 * interval past the last, and *stated = the duration (meta
 * pcolDurationNanos, which the import prefers to the range's length).
 * None when no duration is stated (the samples make the profiler's
 * range).  *lo > *hi: none. */
static int span_range(fx *x, const pcol_select *sel, double fr_lo, double fr_hi, int fr_ok, double *lo,
                      double *hi, int64_t *stated) {
  int64_t tn, dn;
  *lo = 1, *hi = 0;
  *stated = 0;
  PCOL_RETURN_NOT_OK(pcol_sources_time(x->f, sel, &tn, &dn, x->err));
  if (dn <= 0) return PCOL_OK;
  if (fr_ok && llround((fr_hi - fr_lo) * 1e6) == dn &&
      (!x->has_t || ((double)x->t_lo / 1e6 >= fr_lo && (double)x->t_hi / 1e6 < fr_hi))) {
    *lo = fr_lo, *hi = fr_hi;
    return PCOL_OK;
  }
  /* in ns since start_ns, in 128 bits (a hostile start or duration does
   * not overflow): the span, widened to the written rows */
  __int128 a = x->has_span0 ? (__int128)x->span0_ns : tn > 0 && x->has_start ? (__int128)tn - x->start_ns : 0;
  __int128 b = a + dn;
  __int128 iv = (__int128)llround((x->interval_ms > 0 ? x->interval_ms : 1) * 1e6);
  if (x->has_t && x->t_lo < a) a = x->t_lo, *stated = dn;
  if (x->has_t && x->t_hi >= b) b = (__int128)x->t_hi + (iv > 0 ? iv : 1), *stated = dn;
  *lo = (double)a / 1e6, *hi = (double)b / 1e6;
  return PCOL_OK;
}

/* -------------------------------------------------------------- main */
/* Sources listed: "source 2", "sources 2, 3, 7 and 4 more" (of the
 * entries e[0..n) whose vt is vt, the first `most` named). */
static void list_sources(char *b, size_t cap, const svt *e, size_t n, uint32_t vt, unsigned most,
                         unsigned *count, int *untimed) {
  unsigned c = 0;
  *untimed = 0;
  for (size_t i = 0; i < n; i++) c += e[i].vt == vt;
  int l = snprintf(b, cap, "%s", c == 1 ? "source " : "sources ");
  unsigned named = 0;
  for (size_t i = 0; i < n && l >= 0 && (size_t)l < cap; i++) {
    if (e[i].vt != vt) continue;
    *untimed |= e[i].untimed != 0;
    if (named == most) continue;
    l += snprintf(b + l, cap - (size_t)l, "%s%u", named ? ", " : "", e[i].s);
    named++;
  }
  if (c > named && l >= 0 && (size_t)l < cap) snprintf(b + l, cap - (size_t)l, " and %u more", c - named);
  *count = c;
}

/* A source's stored value types other than its weight are written as
 * counters (other_types), which the Firefox Profiler's call tree does not
 * weigh and pcol's import drops (doc/mappings.md §8.1), or not at all by a
 * source without times.  Alone, the copy then lacks the type and a query
 * of it is refused; but when another written source weighs its samples by
 * that type, the copy has it, of that source alone, and answers a smaller
 * number (a V8 profile's wall beside a Tachyon profile's samples: 714 ms
 * for 2830; review 13 m4): said, with the way out. */
static void note_counters(fx *x) {
  const svt *c = (const svt *)(const void *)x->countered.data, *w = (const svt *)(const void *)x->weighs.data;
  size_t nc = x->countered.len / sizeof *c, nw = x->weighs.len / sizeof *w;
  uint64_t nvt = pcol_rows(x->f, PCOL_T_VALUE_TYPES);
  unsigned notes = 0;
  for (size_t i = 0; i < nc; i++) {
    uint32_t vt = c[i].vt;
    int weighed = 0, earlier = 0;
    if (!vt || vt > nvt) continue; /* (a stored type only: no source weighs by a derived one) */
    for (size_t j = 0; j < i && !earlier; j++) earlier = c[j].vt == vt; /* noted with it */
    for (size_t j = 0; j < nw && !earlier && !weighed; j++) weighed = w[j].vt == vt;
    if (earlier || !weighed) continue;
    if (++notes > 8) { /* (bounded: a note per value type, 8 at most) */
      pcol_export_say(x->say, PCOL_EXPORT_DATA, "more value types are written only as counters beside sources that weigh "
                           "their samples by them (as above)");
      return;
    }
    pcol_str t = {0}, u = {0};
    if (pcol_string(x->f, pcol_view_u32(&x->vt_type, vt - 1), &t, NULL) ||
        pcol_string(x->f, pcol_view_u32(&x->vt_unit, vt - 1), &u, NULL))
      continue;
    char cs[96], ws[96], n[700];
    unsigned ncs, nws;
    int untimed, unused;
    list_sources(cs, sizeof cs, c, nc, vt, 4, &ncs, &untimed);
    list_sources(ws, sizeof ws, w, nw, vt, 4, &nws, &unused);
    int tl = (int)pcol_utf8_cut(t.ptr, t.len, 60), ul = (int)pcol_utf8_cut(u.ptr, u.len, 40);
    const char *tp = t.ptr ? t.ptr : "", *up = u.ptr ? u.ptr : "";
    snprintf(n, sizeof n,
             "%s: %s %.*s/%.*s is written only as %s%s, which the Firefox Profiler's call tree does not "
             "weigh and pcol's import drops, while %s %s %s samples by it: the copy's %.*s is %s alone; "
             "--value %.*s/%.*s weighs every source's samples by it",
             cs, ncs == 1 ? "its" : "their", tl, tp, ul, up, ncs == 1 ? "a counter" : "counters",
             untimed ? " (by a source without times, not at all)" : "", ws, nws == 1 ? "weighs" : "weigh",
             nws == 1 ? "its" : "their", tl, tp, nws == 1 ? "that source's" : "theirs", tl, tp, ul, up);
    pcol_export_say(x->say, PCOL_EXPORT_DATA, n);
  }
}

static int export_body(fx *x, const pcol_select *sel) {
  pcol_file *f = x->f;
  const pcol_column_req cols[] = {
      {&x->s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},       {&x->s_time, PCOL_T_SAMPLES, PCOL_C_S_TIME},
      {&x->s_dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION},     {&x->s_cpu, PCOL_T_SAMPLES, PCOL_C_S_CPU_DELTA},
      {&x->s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},      {&x->s_ls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET},
      {&x->src_uri, PCOL_T_SOURCES, PCOL_C_SOURCES_URI},  {&x->src_type, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE},
      {&x->src_ts, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP},
      {&x->vt_type, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE},  {&x->vt_unit, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT},
      {&x->svt_vt, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE},
      {&x->st_parent, PCOL_T_STACKS, PCOL_C_STACK_PARENT}, {&x->st_loc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION},
      {&x->fn_line, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE},
      {&x->ln_line, PCOL_T_LINES, PCOL_C_LINE_LINE},      {&x->ln_col, PCOL_T_LINES, PCOL_C_LINE_COLUMN}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, cols, PCOL_NCOLS(cols), x->err));
  PCOL_RETURN_NOT_OK(pcol_frames_init(&x->fr, f, x->err));
  PCOL_RETURN_NOT_OK(pcol_sample_cols_init(&x->sc, f, x->err));
  PCOL_RETURN_NOT_OK(pcol_count_types(f, &x->cvt, x->err));
  PCOL_RETURN_NOT_OK(pcol_base_kinds(f, &x->base_kind, x->err));
  int labelled = 0;
  if (x->base_kind[0] & 5) PCOL_RETURN_NOT_OK(pcol_base_labelsets(f, &x->base_ls, &labelled, x->err));
  PCOL_RETURN_NOT_OK(pcol_rtime_init(&x->rt, f, x->err));
  PCOL_RETURN_NOT_OK(pcol_xvalues_init(&x->xv, f, &x->rt, x->err));
  /* the weight of a type of kin, or of a type a source lists twice (its
   * default: go's, the last without default_sample_type): each source's
   * in its column, as the views (rd13a F2) */
  PCOL_RETURN_NOT_OK(pcol_export_pick_make(&x->rt, f, sel, x->value != NULL, x->value ? x->value->vt_id : 0,
                                           x->value ? x->value->column : 0, &x->pick, x->err));
  PCOL_RETURN_NOT_OK(pcol_thread_classes(f, &x->tcls, &x->ntcls, x->err));
  PCOL_RETURN_NOT_OK(pcol_thread_name_sets(f, x->tcls, x->ntcls, &x->tname, x->err));
  PCOL_RETURN_NOT_OK(pcol_real_ids_init(x->f, x->tcls, x->ntcls, &x->real, x->err));
  PCOL_RETURN_NOT_OK(pcol_select_check(f, sel, x->err));
  uint64_t nst = pcol_rows(f, PCOL_T_STACKS), ns = pcol_rows(f, PCOL_T_SOURCES);
  PCOL_RETURN_NOT_OK(hold(x, (pcol_string_count(f) + 1) * 8 + (nst + 1) * 4 +
                                 (pcol_rows(f, PCOL_T_FUNCTIONS) + pcol_rows(f, PCOL_T_LOCATIONS) + 2) * 4));
  if (!(x->str_of_sid = calloc(pcol_string_count(f) + 1, sizeof *x->str_of_sid)) ||
      !(x->src_of_file = calloc(pcol_string_count(f) + 1, sizeof *x->src_of_file)) ||
      !(x->fn_out = calloc(pcol_rows(f, PCOL_T_FUNCTIONS) + 1, sizeof *x->fn_out)) ||
      !(x->loc_frame = calloc(pcol_rows(f, PCOL_T_LOCATIONS) + 1, sizeof *x->loc_frame)) ||
      !(x->node_out = calloc(nst + 1, sizeof *x->node_out)))
    return oom(x);
  /* the profile's zero (meta.startTime, which the import reads back as
   * the copy's start: its Time:): the earliest known start of a selected
   * source, of a time range the earliest start of their windows in it
   * (THE range rule of the header, pcol_wall_cut: where top's Time: of
   * the range is; a source whose window the range misses states
   * nothing there, as pcol_wall_header takes it not); rows keep their
   * instants */
  PCOL_RETURN_NOT_OK(pcol_wall_init(f, &x->wall, x->err));
  x->wall_made = 1;
  uint8_t *states = NULL; /* of a range, the sources whose cut window is stated (pcol_wall_states) */
  int rs = sel && (sel->has_from || sel->has_to) ? pcol_wall_states(f, sel, &states, NULL, x->err) : PCOL_OK;
  for (uint32_t s = 1; s <= ns && !rs; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    int64_t e;
    pcol_wall_window win;
    if (states && !states[s]) continue;
    if ((rs = source_epoch(x, s, &e))) break;
    (void)pcol_wall_cut(&x->wall, sel, s, &win);
    if (e && e <= INT64_MAX - win.shift) e += win.shift;
    if (e && (!x->has_start || e < x->start_ns)) x->start_ns = e, x->has_start = 1;
  }
  free(states);
  PCOL_RETURN_NOT_OK(rs);
  /* a nameless function's lines: its mapping's frame unless the sources
   * whose samples reach it hold places (THE nameless rule, frames.c:
   * func_of_line) */
  PCOL_RETURN_NOT_OK(pcol_nameless_rule_make(f, sel, &x->rule, x->err));
  x->frames_differ = x->rule.loc_places && frames_moved(x);
  /* the selected sources' Firefox ranges: their union, each moved by its
   * start's offset, when each has one (span_range keeps it when it is the
   * selection's span) */
  int has_range = 1;
  double r_lo = INFINITY, r_hi = -INFINITY;
  /* and where the earliest stated (cut) window begins in the copy's clock
   * (span_range's start: of a range, the range's part, which starts after
   * the copy's time 0 when the range starts before the first window; a
   * trace's later profile alone, where its span starts) */
  x->has_span0 = 0;
  for (uint32_t s = 1; s <= ns; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    int64_t e;
    double a, b;
    PCOL_RETURN_NOT_OK(source_epoch(x, s, &e));
    pcol_wall_window win;
    int hit = pcol_wall_cut(&x->wall, sel, s, &win);
    pcol_wall_cut_keep_span(&x->wall, s, &win); /* (as write_source) */
    int64_t off_ns = e && x->has_start ? e - x->start_ns : -win.shift; /* (write_source's offset) */
    __int128 at = (__int128)off_ns + win.span; /* (in 128 bits: a hostile start does not overflow) */
    if (at > INT64_MAX) at = INT64_MAX;
    if (at < INT64_MIN) at = INT64_MIN;
    if (hit && win.stated > 0 && (!x->has_span0 || at < x->span0_ns)) x->span0_ns = (int64_t)at, x->has_span0 = 1;
    if (!has_range) continue;
    double off = (double)off_ns / 1e6;
    has_range = pcol_meta_double(x->f, s, FIREFOX_META_RANGE_START_MS, &a) && pcol_meta_double(x->f, s, FIREFOX_META_RANGE_END_MS, &b) &&
                a <= b;
    if (has_range && a + off < r_lo) r_lo = a + off;
    if (has_range && b + off > r_hi) r_hi = b + off;
  }
  has_range = has_range && r_lo <= r_hi;
  x->interval_ms = 1, x->stated_ns = 0;
  x->run_s = 0, x->run_e = 1;
  PCOL_RETURN_NOT_OK(put(x, "{\"threads\":["));
  pcol_buf scratch = {0};
  int rc = PCOL_OK;
  for (uint32_t s = 1; s <= ns && !rc; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    rc = write_source(x, sel, s, &scratch);
  }
  pcol_buf_free(&scratch);
  if (!rc && x->say) note_counters(x);
  if (!rc && x->say && x->ids_lost) {
    char n[400];
    pcol_made_up_note(n, sizeof n, PCOL_ID_TID, x->ids_lost, "up to 2^53 (the Firefox Profiler's tid)",
                      x->lost_name.data ? (const char *)x->lost_name.data : "", x->lost_name.len, "name");
    pcol_export_say(x->say, PCOL_EXPORT_LOSS, n);
  }
  for (uint32_t s = 1; s <= ns && !rc && !x->nthreads_written; s++)
    if (!(sel && sel->source_id && sel->source_id != s)) rc = empty_thread(x, s);
  if (!rc) rc = put(x, "\n],\n\"counters\":[");
  if (!rc) rc = file_copy(x, x->counters);
  if (!rc) rc = put(x, "],\n\"libs\":[],\"pages\":[],\"meta\":{\"interval\":");
  char b[64];
  snprintf(b, sizeof b, "%.9g", x->interval_ms > 0 ? x->interval_ms : 1);
  if (!rc) rc = put(x, b);
  /* an interval no source states (a median gap, 1 ms for counts of
   * collapsed stacks): a key the profiler ignores says so, and the import
   * keeps no firefox.interval_ms, which THE interval rule would read as
   * the samples' period (an Rprof export of the copy wrote each counted
   * sample at it, without its note; review 12) */
  if (!rc && !x->stated_ns) rc = put(x, ",\"pcolIntervalStated\":false");
  if (!rc) rc = put(x, ",\"startTime\":");
  if (!rc) rc = put_num(x, x->has_start ? x->start_ns : 0, 6);
  double p_lo, p_hi;
  int64_t stated;
  if (!rc) rc = span_range(x, sel, r_lo, r_hi, has_range, &p_lo, &p_hi, &stated);
  /* (the profiler takes a profiling range whose end is not 0) */
  if (!rc && p_lo <= p_hi && p_hi != 0 &&
      fprintf(x->out, ",\"profilingStartTime\":%.17g,\"profilingEndTime\":%.17g", p_lo, p_hi) < 0)
    rc = io(x);
  if (!rc && stated > 0 && fprintf(x->out, ",\"pcolDurationNanos\":%lld", (long long)stated) < 0) rc = io(x);
  /* no duration stated (an Rprof source's, a range that misses every
   * source): said so, 0, which the import takes as none, not the
   * samples' extent the profiler's range would give (review F8) */
  if (!rc && p_lo > p_hi) rc = put(x, ",\"pcolDurationNanos\":0");
  if (!rc) rc = put_default(x, sel);
  /* sources whose nameless lines are places (Rprof's, THE nameless rule):
   * said, so that the import's sources are again (`top --by line` of the
   * copy gives a frame without a line's time to the calling line, as
   * summaryRprof and `top` of the original do; a key the profiler ignores,
   * as the speedscope export's pcolLine says it; review 19 F6) */
  if (!rc && x->rule.places) rc = put(x, ",\"pcolNamelessPlaces\":true");
  /* the selection's stacks the recorder truncated (pcol.truncated_stacks,
   * THE rule: truncated.c), which the profiler has no place for: a key it
   * ignores, which pcol's import gives back, so a view of the copy warns as
   * one of the original */
  uint64_t trunc = 0;
  if (!rc) rc = pcol_truncated_total(x->f, sel, &trunc, NULL, x->err);
  if (!rc && trunc && fprintf(x->out, ",\"pcolTruncatedStacks\":%llu", (unsigned long long)trunc) < 0) rc = io(x);
  if (!rc && fprintf(x->out, ",\"processType\":0,\"product\":\"pcol\",\"importedFrom\":\"pcol %s\","
                     "\"stackwalk\":0,\"debug\":false,\"version\":%d,\"preprocessedProfileVersion\":%d,"
                     "\"symbolicated\":true,\"pausedRanges\":[],\"markerSchema\":[],"
                     "\"sampleUnits\":{\"time\":\"ms\",\"eventDelay\":\"ms\",\"threadCPUDelta\":\"ns\"},"
                     "\"categories\":[{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]}],"
                     "\"extensions\":{\"id\":[],\"name\":[],\"baseURL\":[],\"length\":0}}",
                     PCOL_VERSION_STRING, FIREFOX_GECKO_VERSION, FIREFOX_PROCESSED_VERSION) < 0)
    rc = io(x);
  if (!rc) rc = write_shared(x);
  if (!rc) rc = put(x, "}\n");
  return rc;
}

int pcol_export_firefox_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                            const pcol_export_options *opt, pcol_error *err) {
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  pcol_gz_export g; /* a .gz unless opt->no_gzip */
  int rc = pcol_gz_export_open(&g, f, opt, "firefox export", out, err);
  if (rc) return rc;
  g.bud.hold_floor = PCOL_EXPORT_HOLD_MIN; /* its output tables (stream.h) */
  fx x;
  memset(&x, 0, sizeof x);
  x.f = f;
  x.err = err;
  x.out = g.bud.fp;
  x.bud = &g.bud;
  x.last_fallback = -1;
  x.value = opt ? opt->value : NULL;
  if (pcol_export_heard(opt)) x.say = opt;
  if (x.value && (x.value->vt_id == PCOL_VT_RPROF_ALLOC ||
                  (x.value->vt_id > pcol_rows(f, PCOL_T_VALUE_TYPES) && x.value->vt_id != PCOL_VT_TIME &&
                   x.value->vt_id != PCOL_VT_WEIGHT)))
    rc = pcol_error_set(err, PCOL_EINVAL, "firefox export: value '%.*s' is not one the export can "
                        "weigh samples by (a stored type, samples, weight or cpu)",
                        (int)pcol_utf8_cut(x.value->type.ptr, x.value->type.len, 80),
                        x.value->type.ptr ? x.value->type.ptr : "");
  else
    rc = export_body(&x, sel);
  rc = pcol_gz_export_close(&g, rc, err);
  if (!rc) pcol_export_loss_note(f, sel, PCOL_FMT_FIREFOX, 0, opt, NULL); /* the labels it cannot hold */
  /* one profile, one nameless rule (pcolNamelessPlaces): of sources whose
   * rules differ, the copy keeps the Rprof sources' (review h7) */
  if (!rc && x.frames_differ && pcol_export_heard(opt))
    pcol_export_say(opt, PCOL_EXPORT_LOSS, "by line, go tool pprof -lines and `pcol top --by line` of the sources not Rprof's "
                             "give a frame without a line to the frame itself; a Firefox profile holds one rule, "
                             "and `pcol top`, `diff` and `list` by line of this copy give it to the innermost "
                             "calling line, as summaryRprof does for the Rprof sources (its `tree`, `traces`, "
                             "`peek` and `graph` keep it, as go's views do)");
  pcol_nameless_rule_free(&x.rule);
  if (x.wall_made) pcol_wall_free(&x.wall);
  free(x.cvt);
  free(x.base_ls);
  free(x.tcls);
  free(x.tname);
  pcol_rtime_free(&x.rt);
  free(x.pick.src);
  free(x.str_of_sid);
  free(x.src_of_file);
  free(x.fn_out);
  free(x.loc_frame);
  free(x.node_out);
  pcol_unsym_ids_reset(&x.unsym);
  pcol_buf_free(&x.unsym_func);
  pcol_u64map_free(&x.nf);
  pcol_buf_free(&x.nf_func);
  free(x.tmp);
  pcol_buf_free(&x.strs);
  pcol_buf_free(&x.syn);
  pcol_buf_free(&x.syn_off);
  pcol_buf_free(&x.name);
  pcol_buf_free(&x.func_name);
  pcol_buf_free(&x.func_src);
  pcol_buf_free(&x.func_line);
  pcol_buf_free(&x.func_place);
  pcol_buf_free(&x.source_file);
  pcol_buf_free(&x.fr_func);
  pcol_buf_free(&x.fr_line);
  pcol_buf_free(&x.fr_col);
  pcol_buf_free(&x.fr_depth);
  pcol_buf_free(&x.st_frame);
  pcol_buf_free(&x.st_prefix);
  pcol_real_ids_free(&x.real);
  pcol_buf_free(&x.lost_name);
  pcol_buf_free(&x.weighs);
  pcol_buf_free(&x.countered);
  if (x.counters) fclose(x.counters);
  for (int c = 0; c < NCOL; c++) pcol_input_free(&x.col[c]);
  for (size_t c = 0; c < x.nctr; c++) pcol_input_free(&x.ctr[c].count);
  pcol_input_free(&x.ctime);
  free(x.ctr);
  return rc;
}

int pcol_export_firefox(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  return pcol_export_firefox_opt(f, sel, out, NULL, err);
}
