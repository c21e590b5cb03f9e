/* speedscope.c — pcol samples as a speedscope file
 * (https://www.speedscope.app/file-format-schema.json).
 *
 * Per selected source: one "sampled" profile "<uri>: samples" weighted by
 * THE count rule (pcol_sample_count; left out when the source measured
 * pprof's samples/count, whose own profile is that count), one "sampled"
 * profile per value of THE export rule (lib/core/xvalues.c: the declared
 * types, or an Rprof source's cpu and rprof.alloc; skipped when a value is
 * negative: speedscope rejects negative weights), and, when every selected
 * sample has a time and the timeline is asked for or fits its budget
 * (PCOL_SPEEDSCOPE_TIMELINE_EVENTS, counted by a dry run), one "evented"
 * profile in nanoseconds, because sampled profiles cannot say when a sample
 * happened or how long it lasted.  What speedscope needs is written once
 * (doc/mappings.md §5): frames are shared and deduplicated per function, and
 * a run of consecutive samples with the same frames is one sample of their
 * summed weight (the runs depend on the frames only, so a source's profiles
 * have the same samples), except with the timeline: then each row is a
 * sample, and the timeline carries each one's own time and duration
 * (pcolTimes, pcolDurations), which its stretches cannot say of a run with
 * a gap, a sample of no length or one without frames; the source's first
 * profile carries its start and duration (pcolStart, pcolDuration; keys
 * speedscope ignores), its part of its recording, its sampling interval,
 * its own default value and the one that recording states
 * (pcolRecordingPart, pcolInterval, pcolDefaultSampleType,
 * pcolDefaultValue).  The
 * timeline is one evented profile a thread of the source (THE thread rule,
 * lib/core/lasts.h; samples of threads that ran at once cannot nest in
 * one), the first carrying the times and, of several threads, each
 * sample's (pcolThreads), each its thread's labels (pcolThread), so that
 * pcol's import gives the threads back, a
 * thread's rows sorted out of file order through lib/core/rowsort.c; a
 * sample spans [time, time + length) by THE span rule (lasts.h: its
 * duration, else until the next sample of its thread for V8, else its own
 * time value or weight x the source's interval, else a gap of its thread),
 * such a sample of its own length after the previous one of its thread when
 * that one is drawn past its time, by at most a bound (THE placement rule:
 * end to end), drawn to
 * at most where the next sample of its thread begins.  Written as a stream:
 * each pass selects the rows of the source being written again, in file
 * order (pcol_select_iter_filter, the filter built once), and keeps none
 * (but the sorter's rows of a timeline of several threads, 24 bytes a row
 * in memory up to pcol_rowsort_bytes, then in a temporary file), so memory grows with the
 * distinct stacks and frames, not the samples; the frame lists of the
 * stacks it keeps and the bytes it writes count against the export budget
 * (stream.h, pcol_budget; doc/safety.md), the rows where a run must break
 * (a bit a row, made only when a sum passes INT64_MAX) do not, as the byte
 * a row they took did not.  activeProfileIndex is the profile of
 * the first written source's default type (pcol_source_default_types), the
 * one speedscope opens on. */
#include "frames.h"
#include "keys.h"     /* PCOL_VT_SAMPLES, PCOL_VT_CPU, PCOL_META_DEFAULT_VALUE */
#include "reader.h"   /* pcol_meta_probe */
#include "bytes.h"    /* pcol_str_is */
#include "error.h"    /* pcol_write_error */
#include "buf.h"      /* PCOL_BUF_PUSH, pcol_buf, pcol_buf_free, ... */
#include "select.h"   /* pcol_selected_row, pcol_sample_cols, pcol_select_check, ... */
#include "stream.h"   /* pcol_budget, pcol_budget_close, pcol_budget_exceeded, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "count.h"    /* pcol_decimal_text, pcol_count_types, pcol_rtime, ... */
#include "xvalues.h"  /* pcol_xtype, PCOL_XV_MAX, pcol_ralloc_value, ... */
#include "filter.h"   /* pcol_filter, pcol_filter_build, pcol_filter_free */
#include "wall.h"     /* pcol_wall, pcol_wall_free, pcol_wall_init, pcol_wall_select_parts */
#include "lasts.h"    /* pcol_lasts, pcol_lasts_span, pcol_thread_classes, ... */
#include "rowsort.h"  /* pcol_rowsort, pcol_rowsort_add, pcol_rowsort_each, ... */
#include "hash.h"     /* pcol_u64map */
#include "loss.h"     /* pcol_export_loss_note, pcol_export_say */
#include "truncated.h" /* pcol_truncated_of */
#include "jstr.h"     /* pcol_json_int_exact */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sexp {
  pcol_file *f;
  pcol_error *err;
  FILE *out;                      /* the budget's counting stream */
  pcol_budget *bud;
  pcol_view s_src, s_time, s_dur, s_w, s_stack, s_voff, s_ls, v_type, v_val, fn_line, src_uri;
  pcol_view vt_type, vt_unit;     /* value types' names (the default's profile) */
  pcol_kin_pick dpick;            /* the default's column, as the views read it (pcol_export_pick_make) */
  pcol_frames fr;                 /* locations, lines, functions; unsymbolized names */
  uint32_t *fn_frame;             /* function id -> frame index + 1 */
  uint8_t *fn_kind;               /* function id -> 0 not known yet, 1 named, 2 nameless */
  pcol_u64map nl;                 /* a nameless function's (function, line id) -> its frame's id */
  pcol_u64map nl_lines;           /* a line number -> its line id (line -1: UINT32_MAX) */
  pcol_nameless_rule rule;        /* a location of a source not Rprof's: a nameless line is its mapping's frame */
  pcol_buf nl_frame, nl_li;       /* u32 each, per such id: its frame index, a line row of it */
  pcol_unsym_ids unsym;           /* frames.h: which unsymbolized locations are one frame */
  pcol_buf unsym_frame;           /* u32: such a frame's id -> its frame index */
  pcol_u64map nf;                 /* a nameless function of a file's (function, mapping) -> its id */
  pcol_buf nf_frame, nf_fn, nf_m; /* u32 each, per such id: its frame index, function, mapping */
  uint32_t *frames;               /* frame i: function id, or mapping id | 1<<31 (the
                                   * name of its unsymbolized locations, frames.h), or
                                   * id | 1<<30 (a line: nl), id | 3<<30 (nf) */
  pcol_buf name;                  /* such a name */
  size_t nframes, capframes;
  uint64_t *memo_off;             /* stack id -> offset + 1 in `stk` */
  uint32_t *memo_len;
  pcol_buf stk;                   /* u32 frame indices, root first */
  uint32_t *tmp;                  /* a stack's locations, leaf first */
  size_t ntmp, captmp;
  pcol_select one;                /* the selection of the source being written */
  pcol_filter flt;                /* its name and label filters (built at the first pass) */
  int flt_state;                  /* 0: not built yet, 1: built */
  uint64_t nrows;                 /* its selected rows */
  uint64_t pos;                   /* the place among them of the row a pass is at */
  int nprofiles;
  uint32_t *cvt;                  /* per source: its count type (pcol_count_types) */
  uint32_t cur_src;
  pcol_rtime rt;                  /* count.c: the time rule (an Rprof source's cpu profile) and
                                   * the decimal-count rule (every collapsed line counts) */
  pcol_xvalues xv;                /* xvalues.c: which values a source's profiles weigh */
  int timeline;                   /* opt->timeline: 1 always, -1 never, 0 within the budget */
  uint64_t nevents;               /* evented(): events counted (a dry run) or written */
  int dry;                        /* evented(): count the events, write nothing */
  uint8_t *brk;                   /* bit i: a run must end before row i (scan); NULL: nowhere */
  size_t capbrk;                  /* its bytes */
  /* what scan found of the source's rows, per type of source_types */
  uint8_t *neg;                   /* a negative amount: no sampled profile */
  __int128 *total;                /* the amounts' sum */
  int all_times;                  /* every row has a time: a timeline can be made */
  int64_t first_time;             /* the first row's time */
  pcol_lasts lasts;               /* lasts.c: how long the source's samples last */
  uint32_t *tcls;                 /* lasts.c: label set -> thread class (THE thread rule) */
  uint32_t ntcls;
  uint32_t *tloc;                 /* thread class -> the source's thread + 1 (order of first row) */
  uint32_t *tname;                /* thread class -> the label set of its name (pcol_thread_name_sets) */
  pcol_buf tls;                   /* u32: the source's thread -> the label set of its name */
  uint32_t nthreads;              /* the source's threads */
  pcol_buf tlast;                 /* int64 per thread of the source: its last row's time */
  pcol_gaps *gaps;                /* the gaps between consecutive rows of one thread */
  int per_row;                    /* the source's timeline is written: a run is one row */
  pcol_wall wall;                 /* wall.c: each source's start, duration and recording part (pcolStart, pcolDuration, pcolRecordingPart) */
  pcol_wall_window win;           /* the source's window cut by the range (pcol_wall_cut): its times are written win.shift earlier */
  uint8_t *states;                /* of a range, the sources whose cut window the copy states (pcol_wall_states) */
  int stated;                     /* states[cur_src]: the copy states its cut window */
  int64_t hstart;                 /* of a range, its header's start (pcol_wall_states: 0 none) */
  int src_head;                   /* the source's first sampled profile is written */
  int dnamed;                     /* the source's default is the first profile of its name: named
                                   * (pcolDefaultSampleType), else its last, read so unnamed */
  int64_t *mul;                   /* per type of source_types: its values x this in speedscope's unit */
  int need_known;                 /* need: counted for this source */
  uint64_t need;                  /* the least bytes of a sampled profile's frame lists */
  uint64_t frames_need;           /* the least bytes of the frames found so far (written last) */
  size_t nframes_counted;         /* frames [0, it) are in frames_need */
  pcol_xskipped skipped;          /* (source, type) profiles not written for a negative amount */
} sexp;

static int oom(sexp *x) { return pcol_error_set(x->err, PCOL_ENOMEM, "out of memory"); }
static int io(sexp *x) { return pcol_write_error(x->err, 0, "speedscope export"); }

static int put(sexp *x, const char *s) { return fputs(s, x->out) < 0 ? io(x) : PCOL_OK; }

/* ------------------------------------------------ the selected rows */
/* A pass over the selected rows of the source being written (x->one), in
 * file order: fn(ctx, row) for each, x->pos its place.  The rows are
 * selected again for every pass (a pass over the source's sample columns,
 * cheaper than keeping them: 24 bytes a row). */
typedef int (*row_fn)(void *ctx, const pcol_selected_row *r);
typedef struct pass {
  sexp *x;
  row_fn fn;
  void *ctx;
} pass;

static int pass_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  pass *p = ctx;
  pcol_selected_row r = {row, num, den};
  int rc = p->fn(p->ctx, &r);
  p->x->pos++;
  return rc;
}

static int each_row(sexp *x, row_fn fn, void *ctx) {
  int filtered = pcol_select_filtered(&x->one), rc;
  if (filtered && !x->flt_state) {
    if ((rc = pcol_filter_build(x->f, &x->one, &x->flt, x->err))) return rc;
    x->flt_state = 1;
  }
  x->pos = 0;
  pass p = {x, fn, ctx};
  rc = pcol_select_iter_filter(x->f, &x->one, filtered ? &x->flt : NULL, pass_row, &p, x->err);
  return rc == PCOL_ENOMEM ? oom(x) : rc;
}

/* a run must end before the row at x->pos (scan) */
static int at_break(const sexp *x) {
  return x->brk && x->pos < (uint64_t)x->capbrk * 8 && (x->brk[x->pos >> 3] >> (x->pos & 7) & 1);
}

/* JSON string of any bytes (THE rule of bytes that are not UTF-8,
 * pcol_json_utf8: read as Latin-1; NUL kept, as speedscope keeps it). */
static int put_str(sexp *x, pcol_str s) {
  json_t *j = json_stringn(s.ptr ? s.ptr : "", s.ptr ? s.len : 0);
  if (!j) {
    char *t = malloc(2 * s.len + 1);
    if (!t) return oom(x);
    j = json_stringn(t, pcol_json_utf8(s.ptr, s.len, t, 0));
    free(t);
    if (!j) return oom(x);
  }
  int rc = json_dumpf(j, x->out, JSON_ENCODE_ANY) ? io(x) : PCOL_OK;
  json_decref(j);
  return rc;
}

static int frame_index(sexp *x, uint32_t *memo, uint32_t key, uint32_t tag, uint32_t *out) {
  if (!memo[key]) {
    if (PCOL_GROW(x->frames, x->nframes, x->capframes)) return oom(x);
    x->frames[x->nframes++] = key | tag;
    memo[key] = (uint32_t)x->nframes;
  }
  *out = memo[key] - 1;
  return PCOL_OK;
}

/* The frame of the unsymbolized locations of mapping m (one per name). */
static int unsym_frame(sexp *x, uint32_t m, uint32_t *out) {
  uint32_t id;
  int added, rc = pcol_unsym_id(&x->unsym, &x->fr, m, &id, &added, x->err);
  if (rc) return rc;
  if (added) {
    if (PCOL_GROW(x->frames, x->nframes, x->capframes) ||
        PCOL_BUF_PUSH(&x->unsym_frame, uint32_t, (uint32_t)x->nframes))
      return oom(x);
    x->frames[x->nframes++] = m | 1u << 31;
  }
  *out = ((const uint32_t *)(const void *)x->unsym_frame.data)[id];
  return PCOL_OK;
}

/* The frame of nameless function fn of a file in mapping m: named as the
 * mapping's frame ("<unknown>", "[libc.so.6]"), with the function's file
 * in the frame's "file" (rd15a F5: the file was lost, and pcol's import
 * reads it back as that function's file), one per (function, mapping). */
static int nameless_file_frame(sexp *x, uint32_t fn, uint32_t m, uint32_t *out) {
  uint32_t id;
  int added, rc;
  if ((rc = pcol_u64map_get(&x->nf, (uint64_t)fn << 32 | m, &id, &added)))
    return rc == PCOL_ENOMEM ? oom(x) : pcol_error_set(x->err, rc, "speedscope export: too many frames");
  if (added) {
    if (id >= 1u << 30) return pcol_error_set(x->err, PCOL_ETOOBIG, "speedscope export: too many frames");
    if (PCOL_GROW(x->frames, x->nframes, x->capframes) ||
        PCOL_BUF_PUSH(&x->nf_frame, uint32_t, (uint32_t)x->nframes) || PCOL_BUF_PUSH(&x->nf_fn, uint32_t, fn) ||
        PCOL_BUF_PUSH(&x->nf_m, uint32_t, m))
      return oom(x);
    x->frames[x->nframes++] = id | 3u << 30;
  }
  *out = ((const uint32_t *)(const void *)x->nf_frame.data)[id];
  return PCOL_OK;
}

/* The frame of line row l (of location loc) of function fn: a named
 * function's (one per function); when fn has no name, as the Firefox
 * export names it (firefox_export.c func_of_line): its mapping's frame
 * when a selected source is not Rprof (as pcol top shows it; a function of
 * a file: a frame of that name and the file, nameless_file_frame), else (an
 * Rprof script's top-level line `1#7`) a frame per (function, line), named
 * by THE frame rule (frames.c pcol_frame_line_name: "FILE:LINE", ":7" in a
 * file of no name) as pcol top --by line names the place; keyed by the
 * function, a script's top-level lines were one frame of an empty name
 * (review 8).  So too a named function's line of a number where lines are
 * places (THE nameless rule, frames.c: Rprof's line profiling, `1#7 "g"`):
 * a frame per (function, line), named by the function, with that "line"
 * (as py-spy writes a frame per line) and pcolLine, so that pcol's import
 * makes it that line of the function again, not a function starting
 * there (keyed by the function, the lines were lost: summaryRprof(lines =
 * "show") of the Rprof export of the copy refused it, review h2).  Frame
 * key: the id with bit 30 set. */
static int fn_frame_of(sexp *x, uint32_t fn, uint32_t loc, uint64_t l, uint32_t *fi) {
  if (fn >= 1u << 30) /* (keys carry bits 30 and 31) */
    return pcol_error_set(x->err, PCOL_ETOOBIG, "speedscope export: more than 2^30 functions");
  if (!x->fn_kind[fn]) {
    pcol_str name;
    int rc = pcol_string(x->f, pcol_view_u32(&x->fr.fn_name, fn - 1), &name, x->err);
    if (rc) return rc;
    x->fn_kind[fn] = name.ptr ? 1 : 2;
  }
  int64_t line = pcol_view_i64(&x->fr.ln_line, l);
  int frames = pcol_nameless_frames_at(&x->rule, loc);
  if (x->fn_kind[fn] == 1 && (frames || line == PCOL_NA_I64))
    return frame_index(x, x->fn_frame, fn, 0, fi);
  if (frames) {
    /* a nameless function of a file keeps it, at a line (the frame's "file") */
    uint32_t m = pcol_frames_mapping(&x->fr, loc);
    pcol_str file;
    int rc = pcol_frame_nameless_file(&x->fr, l, &file, x->err);
    if (rc) return rc;
    return file.len ? nameless_file_frame(x, fn, m, fi) : unsym_frame(x, m, fi);
  }
  /* the line's id: the whole int64 (NA, negative and huge lines apart) */
  uint32_t lid, id;
  int added, rc = PCOL_OK;
  if ((uint64_t)line == UINT64_MAX) /* line -1, the key pcol_u64map keeps for itself: an id no */
    lid = UINT32_MAX;                /* other line gets (the map's stop below 2^32 - 1) */
  else if ((rc = pcol_u64map_get(&x->nl_lines, (uint64_t)line, &lid, &added)))
    goto fail;
  if ((rc = pcol_u64map_get(&x->nl, (uint64_t)fn << 32 | lid, &id, &added))) goto fail;
  if (added) {
    uint32_t li = l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
    if (id >= 1u << 30)
      return pcol_error_set(x->err, PCOL_ETOOBIG, "speedscope export: too many frames");
    if (PCOL_GROW(x->frames, x->nframes, x->capframes) ||
        PCOL_BUF_PUSH(&x->nl_frame, uint32_t, (uint32_t)x->nframes) || PCOL_BUF_PUSH(&x->nl_li, uint32_t, li))
      return oom(x);
    x->frames[x->nframes++] = id | 1u << 30;
  }
  *fi = ((const uint32_t *)(const void *)x->nl_frame.data)[id];
  return PCOL_OK;
fail:
  return rc == PCOL_ENOMEM ? oom(x) : pcol_error_set(x->err, rc, "speedscope export: too many frames");
}

/* frame indices of a stack, root first (inline lines expanded) */
static int stack_frames(sexp *x, uint32_t stack, const uint32_t **fr, uint32_t *n) {
  if (stack > pcol_rows(x->f, PCOL_T_STACKS))
    return pcol_error_set(x->err, PCOL_ECORRUPT, "stack id %u is out of range", stack);
  if (!x->memo_off[stack]) {
    int rc = pcol_stack_locations(x->f, stack, &x->tmp, &x->ntmp, &x->captmp, x->err);
    if (rc) return rc;
    size_t off = x->stk.len;
    for (size_t i = x->ntmp; i-- > 0;) {
      uint32_t loc = x->tmp[i], fi = 0;
      if (!loc || loc > x->fr.nloc) continue;
      uint64_t lo, hi;
      pcol_frames_lines(&x->fr, loc, &lo, &hi);
      if (lo == hi) {
        if ((rc = unsym_frame(x, pcol_frames_mapping(&x->fr, loc), &fi))) return rc;
        if (PCOL_BUF_PUSH(&x->stk, uint32_t, fi)) return oom(x);
        continue;
      }
      for (uint64_t l = hi; l-- > lo;) {
        uint32_t fn = pcol_frames_fn(&x->fr, l);
        if (!fn) continue;
        if ((rc = fn_frame_of(x, fn, loc, l, &fi))) return rc;
        if (PCOL_BUF_PUSH(&x->stk, uint32_t, fi)) return oom(x);
      }
    }
    /* a stack's frame list is kept for its later samples: count it */
    if ((x->stk.len - off) / sizeof(uint32_t) > UINT32_MAX)
      return pcol_error_set(x->err, PCOL_ETOOBIG, "speedscope: stack %u is too deep", stack);
    if ((rc = pcol_budget_hold(x->bud, x->stk.len - off, x->err))) return rc;
    x->memo_off[stack] = off + 1;
    x->memo_len[stack] = (uint32_t)((x->stk.len - off) / sizeof(uint32_t));
  }
  /* empty stacks only: the buffer is still unallocated (NULL + k is UB) */
  if (!x->stk.data && pcol_buf_reserve(&x->stk, sizeof(uint32_t))) return oom(x);
  *fr = (const uint32_t *)(x->stk.data + x->memo_off[stack] - 1);
  *n = x->memo_len[stack];
  return PCOL_OK;
}

/* Source s's default as the views read it of the selection (x->dpick,
 * THE export rule of xvalues.h): its type *vt and which of its values of
 * that type *nth (a later one of a type it lists twice): go's merged
 * column (rd16a F5: a merge whose defaults sit at other columns), else
 * the selection's default where s lists it, else its own (0: the count) */
static int source_default(sexp *x, uint32_t s, uint32_t *vt, uint32_t *nth) {
  *nth = 0;
  if (pcol_kin_pick_source(&x->dpick, s, vt, nth)) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_export_source_default(x->f, &x->dpick, s, vt, x->err));
  if (!*vt) *vt = pcol_count_vt(x->cvt[s]); /* the count is pprof's samples/count */
  return PCOL_OK;
}

/* x->dnamed: whether source s's default (source_default) is the first
 * of its profiles (types, after scan: those without a value below 0) of
 * its name, which pcolDefaultSampleType then names */
static int default_named(sexp *x, uint32_t s, const pcol_xtype *types, size_t ntypes) {
  uint32_t vt, nth;
  x->dnamed = 1;
  PCOL_RETURN_NOT_OK(source_default(x, s, &vt, &nth));
  pcol_str n = {0};
  if (vt >= 1 && vt <= pcol_rows(x->f, PCOL_T_VALUE_TYPES))
    PCOL_RETURN_NOT_OK(pcol_string(x->f, pcol_view_u32(&x->vt_type, vt - 1), &n, x->err));
  for (size_t i = 0; i < ntypes; i++) {
    if (x->neg[i]) continue;
    if (types[i].vt == vt && types[i].nth == nth) return PCOL_OK;
    /* an earlier stored type of its name (not a derived one: an Rprof
     * source's cpu is the stored cpu's profile, the active one's rule) */
    if (n.ptr && types[i].vt >= 1 && types[i].vt <= pcol_rows(x->f, PCOL_T_VALUE_TYPES) && types[i].type.ptr &&
        types[i].type.len == n.len && !memcmp(types[i].type.ptr, n.ptr, n.len)) {
      x->dnamed = 0;
      return PCOL_OK;
    }
  }
  return PCOL_OK; /* (none: a value below 0 not written, or derived: named, as the active profile's) */
}

/* weight (vt 0) or value of type vt of a selected row (of a type its
 * source lists twice, its nth value: pcol_xtype.nth); *has = 0 if absent */
static int64_t amount(sexp *x, const pcol_selected_row *r, uint32_t vt, uint32_t nth, int *has) {
  *has = 1;
  pcol_sample_cols sc = {x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(x->f, PCOL_T_VALUES), 0};
  int64_t v;
  if (!vt) /* the count profile: THE count rule */
    return pcol_scale(pcol_sample_count(&sc, r->row, x->cvt[x->cur_src]), r->num, r->den);
  if (vt == PCOL_VT_RPROF_ALLOC) { /* lib/core/xvalues.c (an overflow is refused first, by scan) */
    if (pcol_ralloc_value(&sc, &x->rt, x->xv.alloc_vt, r->row, &v)) v = 0;
    return pcol_scale(v, r->num, r->den);
  }
  *has = nth ? pcol_sample_value_nth(&sc, r->row, vt, nth, &v) : pcol_sample_value_rt(&sc, &x->rt, r->row, vt, &v);
  return *has ? pcol_scale(v, r->num, r->den) : 0;
}

/* The types whose sampled profiles source s gets, in order (vt 0 = the
 * count profile); *n of them.  types has room for source_value_types +
 * PCOL_XV_MAX + 1.  Which values: THE export rule (lib/core/xvalues.c): a
 * source's declared types, or an Rprof source's count, time and
 * rprof.alloc; Rprof's memory levels are not additive, so no profile. */
static int source_types(sexp *x, uint32_t s, pcol_xtype *types, size_t *n) {
  *n = 0;
  size_t m;
  int derived;
  int rc = pcol_xvalues_source(&x->xv, s, types + 1, pcol_rows(x->f, PCOL_T_SOURCE_VALUE_TYPES) + PCOL_XV_MAX,
                               &m, &derived, x->err);
  if (rc) return rc;
  if (!derived && !pcol_count_vt(x->cvt[s])) /* the count profile, unless samples/count is declared */
    types[(*n)++] = (pcol_xtype){0, 0, {PCOL_VT_SAMPLES, sizeof PCOL_VT_SAMPLES - 1}, {0}, 0};
  for (size_t i = 0; i < m; i++)
    if (!types[i + 1].level) types[(*n)++] = types[i + 1];
  return PCOL_OK;
}

/* speedscope's unit of a type's unit, and the decimals its values are
 * written with (*dec: the value is v / 10^dec in that unit).  "1e-9
 * bytes", "1e-1 ms" (a Perun real amount): bytes, milliseconds, as
 * decimals; a Perun real amount in ps or fs (perun_import.c: ms and us x
 * 10^9) in nanoseconds with 3 or 6 decimals, so that speedscope shows a
 * time; pcol's import keeps a time past 2^63 ns or with a fraction of a
 * ns in a decimal unit again (speedscope_import.c values_decimals). */
static const char *unit_name(const pcol_xtype *t, int *dec, int64_t *mul) {
  pcol_str u = t->unit;
  *dec = 0;
  *mul = 1;
  if (!t->vt || !u.ptr) return "none";
  *dec = pcol_unit_decimals(u, &u);
  static const struct { const char *u, *name; int dec; } map[] = {
      {"nanoseconds", "nanoseconds", 0}, {"ns", "nanoseconds", 0},  {"ps", "nanoseconds", 3},
      {"fs", "nanoseconds", 6},          {"microseconds", "microseconds", 0}, {"us", "microseconds", 0},
      {"milliseconds", "milliseconds", 0}, {"ms", "milliseconds", 0}, {"seconds", "seconds", 0},
      {"s", "seconds", 0},               {"bytes", "bytes", 0},     {"B", "bytes", 0}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strlen(map[i].u) == u.len && !memcmp(map[i].u, u.ptr, u.len)) return *dec += map[i].dec, map[i].name;
  /* another unit of go's bytes or time (kilobytes, MB, hours: THE unit
   * rule's families): in bytes or nanoseconds, x its whole factor, as go
   * scales it (rd16a F4: kilobytes were written "none", a count, 3kB read
   * back 3); the scan refuses a value that would pass int64 so */
  double factor;
  int fam = *dec ? 0 : pcol_unit_family(u, &factor);
  if ((fam == 1 || fam == 2) && factor >= 1 && factor < 0x1p62 && factor == (double)(int64_t)factor) {
    *mul = (int64_t)factor;
    return fam == 1 ? "bytes" : "nanoseconds";
  }
  return "none";
}

static int profile_head(sexp *x, const char *type, pcol_str uri, const char *what, pcol_str what2,
                        const char *unit) {
  int rc = put(x, x->nprofiles++ ? ",\n{\"type\":\"" : "\n{\"type\":\"");
  if (!rc) rc = put(x, type);
  if (!rc) rc = put(x, "\",\"name\":");
  /* "<source uri>: <what>", by length: a NUL in the URI (a thread's name)
   * or in what2 kept, as put_str writes it */
  size_t ul = uri.ptr ? uri.len : 0, wl = strlen(what), w2 = what2.ptr ? what2.len : 0, k = 0;
  char *n = malloc(ul + wl + w2 + 2);
  if (!n) return oom(x);
  if (ul) memcpy(n, uri.ptr, ul), k = ul;
  memcpy(n + k, ": ", 2), k += 2;
  memcpy(n + k, what, wl), k += wl;
  if (w2) memcpy(n + k, what2.ptr, w2), k += w2;
  pcol_str ns = {n, k};
  if (!rc) rc = put_str(x, ns);
  free(n);
  if (!rc && fprintf(x->out, ",\"unit\":\"%s\"", unit) < 0) rc = io(x);
  return rc;
}

static int write_frames_list(sexp *x, const uint32_t *fr, uint32_t n) {
  if (fputc('[', x->out) == EOF) return io(x);
  for (uint32_t i = 0; i < n; i++)
    if (fprintf(x->out, i ? ",%u" : "%u", fr[i]) < 0) return io(x);
  return fputc(']', x->out) == EOF ? io(x) : PCOL_OK;
}

/* Runs: consecutive selected samples with the same frames, as one sample
 * of their summed amount of vt.  Runs depend on the frames only, so every
 * profile of a source has the same samples (as pcol's speedscope import
 * expects of one source's profiles), and speedscope draws a run as it
 * draws its samples, in every view.  A pass hands each run, when it ends,
 * to run_end, which counts its frame list's least bytes (RUN_NEED), writes
 * its frame list (RUN_SAMPLES) or its weight (RUN_WEIGHTS). */
enum { RUN_NEED, RUN_SAMPLES, RUN_WEIGHTS };
typedef struct runs {
  sexp *x;
  uint32_t vt, nth;
  int what, dec, started, k;
  uint32_t stack; /* the run's first stack */
  __int128 w;
  int64_t mul; /* the type's values x this (unit_name) */
} runs;

static int run_end(runs *c) {
  sexp *x = c->x;
  const uint32_t *fr;
  uint32_t n;
  int rc;
  if (c->what == RUN_WEIGHTS) {
    char num[48];
    pcol_decimal_text(num, sizeof num, c->w, c->dec);
    return fprintf(x->out, c->k++ ? ",%s" : "%s", num) < 0 ? io(x) : PCOL_OK;
  }
  if (c->what == RUN_SAMPLES && c->k++ && fputc(',', x->out) == EOF) return io(x);
  if ((rc = stack_frames(x, c->stack, &fr, &n))) return rc;
  if (c->what == RUN_NEED) {
    x->need += 2 * (uint64_t)n + 1; /* "[", n numbers and n - 1 commas, "]" */
    return PCOL_OK;
  }
  return write_frames_list(x, fr, n);
}

static int run_row(void *ctx, const pcol_selected_row *r) {
  runs *c = ctx;
  sexp *x = c->x;
  int has, rc;
  uint32_t st = pcol_view_u32(&x->s_stack, r->row);
  if (c->started) {
    /* the run's weight would not fit an int64; or every row is a sample
     * of its own, whose time and duration the timeline gives (evented) */
    int end = at_break(x) || x->per_row;
    if (!end && st != c->stack) {
      /* stack_frames may move the buffer the frame lists live in when it
       * meets a new stack: both are made first, then both are looked up */
      const uint32_t *f1, *f2;
      uint32_t n1, n2;
      if ((rc = stack_frames(x, c->stack, &f1, &n1)) || (rc = stack_frames(x, st, &f2, &n2)) ||
          (rc = stack_frames(x, c->stack, &f1, &n1)))
        return rc;
      end = n1 != n2 || (n2 && memcmp(f1, f2, n2 * sizeof *f2));
    }
    if (end) {
      if ((rc = run_end(c))) return rc;
      c->started = 0;
    }
  }
  if (!c->started) { /* its frames: run_end's stack_frames (which checks the id) */
    c->stack = st;
    c->started = 1;
    c->w = 0;
  }
  c->w += (__int128)amount(x, r, c->vt, c->nth, &has) * c->mul;
  return PCOL_OK;
}

/* A pass over the source's runs for vt. */
static int each_run(sexp *x, uint32_t vt, uint32_t nth, int what, int dec, int64_t mul) {
  runs c = {x, vt, nth, what, dec, 0, 0, 0, 0, mul};
  int rc = each_row(x, run_row, &c);
  return !rc && c.started ? run_end(&c) : rc;
}

/* The thread of row (THE thread rule, lasts.h) among the source's, which
 * are numbered 0, 1, ... in order of their first row by scan. */
static int thread_of(sexp *x, uint64_t row, uint32_t *th) {
  uint32_t ls = pcol_view_u32(&x->s_ls, row), k = ls < pcol_rows(x->f, PCOL_T_LABELSETS) + 1 ? x->tcls[ls] : 0;
  if (!x->tloc[k]) {
    if (PCOL_BUF_PUSH(&x->tls, uint32_t, k ? x->tname[k] : ls)) return oom(x);
    x->tloc[k] = ++x->nthreads;
  }
  *th = x->tloc[k] - 1;
  return PCOL_OK;
}

/* One pass over the source's rows for what every profile needs: for each
 * of its types, whether an amount is negative (speedscope rejects negative
 * weights: no profile) and the amounts' sum; whether every row has a time,
 * its threads and the gaps between rows of one thread (the timeline); and, with `full`, where
 * runs must end whatever their frames: before a row that would take the
 * sum of any of the source's types (from the last such break on) past
 * INT64_MAX, so that every run's weight is an int64 (speedscope's and
 * pcol's importers read no larger one; a Perun file's huge amounts added
 * up to 1.17e19), or, a whole weight, to a number THE whole-number rule
 * does not write (pcol_json_int_exact: past 2^53 and not a double; a
 * reader's double would change it, rd17a F4).  Breaks depend on all the
 * types at once, so every profile of the source keeps the same samples.
 * A sample's own whole weight that is no such number is refused. */
typedef struct scanning {
  sexp *x;
  const pcol_xtype *types;
  size_t ntypes;
  int full;
  /* acc[k]: type k's sum since the last break; am[k]: the row's amount of
   * type k (each amount looked up once) */
  __int128 *acc, *am;
  int *dec; /* type k's decimals (unit_name): 0, a whole weight */
} scanning;

static int scan_row(void *ctx, const pcol_selected_row *r) {
  scanning *c = ctx;
  sexp *x = c->x;
  int has, over = 0, rc = PCOL_OK;
  for (size_t k = 0; k < c->ntypes; k++) {
    int64_t a;
    if (c->full && c->types[k].vt == PCOL_VT_RPROF_ALLOC && /* an increase past int64: refused, as by every export */
        (rc = pcol_xvalue(&x->xv, x->cvt, r->row, c->types[k].vt, &a, x->err)))
      return rc;
    a = amount(x, r, c->types[k].vt, c->types[k].nth, &has);
    if (a < 0) x->neg[k] = 1;
    __int128 w = (__int128)a * x->mul[k]; /* (in speedscope's unit: unit_name) */
    int big = w > (__int128)INT64_MAX || w < -(__int128)INT64_MAX;
    if (big || (!c->dec[k] && w > 0 && !pcol_json_int_exact(w))) {
      const pcol_xtype *t = &c->types[k];
      char num[48];
      pcol_decimal_text(num, sizeof num, w, 0);
      return pcol_error_set(x->err, PCOL_ETOOBIG, "speedscope export: a sample's %.*s in %.*s is %s once "
                            "written in speedscope's unit (x %lld), which no reader of the profile holds exactly "
                            "(JSON numbers are read as doubles); export another format",
                            (int)pcol_utf8_cut(t->type.ptr, t->type.len, 80), t->type.ptr ? t->type.ptr : "",
                            (int)pcol_utf8_cut(t->unit.ptr, t->unit.len, 40), t->unit.ptr ? t->unit.ptr : "",
                            big ? "beyond 2^63" : num, (long long)x->mul[k]);
    }
    x->total[k] += w;
    c->am[k] = w > 0 ? w : 0;
    __int128 s = c->acc[k] + c->am[k];
    over |= s > (__int128)INT64_MAX || (!c->dec[k] && !pcol_json_int_exact(s));
  }
  if (c->full && over) { /* (rare: a bit a row, made at the first break, as the byte a row it was) */
    if (!x->brk && !(x->brk = calloc(x->capbrk = (size_t)(x->nrows / 8 + 1), 1))) return oom(x);
    if (x->pos < (uint64_t)x->capbrk * 8) x->brk[x->pos >> 3] |= (uint8_t)(1u << (x->pos & 7));
  }
  for (size_t k = 0; k < c->ntypes; k++) c->acc[k] = (over ? 0 : c->acc[k]) + c->am[k];
  int64_t t = pcol_view_i64(&x->s_time, r->row), g;
  if (!x->pos) x->first_time = t;
  if (t == PCOL_NA_I64) x->all_times = 0;
  /* the row's thread (numbered in order of first row), and the gap from
   * the last row of its thread (times come from the file: the difference
   * may overflow) */
  uint32_t th;
  if ((rc = thread_of(x, r->row, &th))) return rc;
  while (x->tlast.len / sizeof(int64_t) <= th)
    if (PCOL_BUF_PUSH(&x->tlast, int64_t, PCOL_NA_I64)) return oom(x);
  int64_t *tl = (int64_t *)(void *)x->tlast.data + th;
  if (*tl != PCOL_NA_I64 && t != PCOL_NA_I64 && !__builtin_sub_overflow(t, *tl, &g)) pcol_gaps_add(x->gaps, g);
  if (t != PCOL_NA_I64) *tl = t;
  return PCOL_OK;
}

static int scan(sexp *x, const pcol_xtype *types, size_t ntypes, int full) {
  free(x->brk); /* (the last source's) */
  x->brk = NULL;
  x->capbrk = 0;
  x->need_known = 0;
  x->all_times = 1;
  x->nthreads = 0;
  x->tlast.len = 0;
  x->tls.len = 0;
  if (x->tloc) memset(x->tloc, 0, (x->ntcls + 1) * sizeof *x->tloc);
  if (!x->gaps && !(x->gaps = malloc(sizeof *x->gaps))) return oom(x);
  memset(x->gaps, 0, sizeof *x->gaps);
  free(x->neg);
  free(x->total);
  free(x->mul);
  x->neg = calloc(ntypes + 1, 1);
  x->total = calloc(ntypes + 1, sizeof *x->total);
  x->mul = malloc((ntypes + 1) * sizeof *x->mul);
  int *dec = calloc(ntypes + 1, sizeof *dec);
  for (size_t k = 0; x->mul && dec && k < ntypes; k++) (void)unit_name(&types[k], &dec[k], &x->mul[k]);
  __int128 *acc = calloc(2 * ntypes + 1, sizeof *acc);
  scanning c = {x, types, ntypes, full, acc, acc + ntypes, dec};
  int rc = acc && dec && x->neg && x->total && x->mul ? each_row(x, scan_row, &c) : oom(x);
  free(acc);
  free(dec);
  pcol_lasts_gaps(&x->lasts, x->gaps); /* the median and the mean gap */
  return rc;
}

static int frames_least(sexp *x);

/* The sampled profile of type t (the ti-th of source_types, after scan). */
static int sampled(sexp *x, pcol_str uri, const pcol_xtype *t, size_t ti) {
  int rc;
  uint32_t vt = t->vt;
  if (x->neg[ti]) { /* negative weights: speedscope would reject the file; said once written */
    pcol_xskipped_add(&x->skipped, t, x->cur_src);
    return PCOL_OK;
  }
  __int128 total = x->total[ti]; /* 64-bit weights: their sum fits 128 bits (interop review F4) */
  /* each run writes its frame list, at least 2 bytes a frame: a profile
   * that cannot fit in what is left of the budget is refused unwritten
   * (the runs, and so the least, are the same for every type) */
  if (!x->need_known) {
    x->need = 0;
    if ((rc = each_run(x, vt, t->nth, RUN_NEED, 0, 1))) return rc;
    x->need_known = 1;
  }
  /* and the frames, written after every profile, at their least (frames_least) */
  if ((rc = frames_least(x))) return rc;
  uint64_t least = x->need > UINT64_MAX - x->frames_need ? UINT64_MAX : x->need + x->frames_need;
  if (pcol_budget_exceeded(x->bud, least)) return pcol_budget_refuse(x->bud, x->err);
  /* a decimal unit ("1e-9": collapsed 1.5) is written as the decimal it stands for */
  int dec;
  int64_t mul; /* (x->mul[ti]: the total and the runs' weights are x it) */
  const char *unit = unit_name(t, &dec, &mul);
  if ((rc = profile_head(x, "sampled", uri, "", t->type, unit))) return rc;
  char num[48];
  pcol_decimal_text(num, sizeof num, total, dec);
  if (total > (__int128)INT64_MAX) { /* no JSON reader takes so large an integer: a double, as JavaScript holds it */
    double d = (double)total;
    for (int k = 0; k < dec; k++) d /= 10;
    snprintf(num, sizeof num, "%.17g", d);
  }
  if (fprintf(x->out, ",\"startValue\":0,\"endValue\":%s", num) < 0) return io(x);
  /* the source's start and duration (spec.md §7), which speedscope has no
   * place for, on its first profile, after speedscope's own keys: pcol's
   * import gives them back */
  int64_t st = x->win.start, lo, du; /* (uncut: THE span rule's, pcol_wall_span: the duration stated) */
  (void)pcol_wall_span(&x->wall, NULL, x->cur_src, &lo, &du);
  if (x->win.cut) du = x->win.stated;
  if (x->states && !x->stated) du = 0; /* (a window the range misses: none; the header's start, load_source) */
  if (!x->src_head++) {
    if (st != PCOL_NA_I64 && fprintf(x->out, ",\"pcolStart\":%lld", (long long)st) < 0) return io(x);
    if (du != PCOL_NA_I64 && du > 0 && fprintf(x->out, ",\"pcolDuration\":%lld", (long long)du) < 0) return io(x);
    /* its place in its recording (pcol.recording_part: THE recording rule),
     * as the selection has it (pcol_wall_select_parts) */
    uint32_t pt = x->wall.part[x->cur_src];
    if (pt && fprintf(x->out, ",\"pcolRecordingPart\":%u", (unsigned)pt) < 0) return io(x);
    /* its sampling interval (THE interval rule, lasts.h), which a sample of
     * its weight x the interval lasts on the timeline (THE span rule's 4:
     * Tachyon, Firefox): pcol's import gives it back (pcol.interval_ns), so
     * the copy's timeline is the original's */
    int64_t iv = pcol_source_interval(x->f, x->cur_src);
    if (iv > 0 && fprintf(x->out, ",\"pcolInterval\":%lld", (long long)iv) < 0) return io(x);
    /* where its span starts after its time 0 (THE span start, spec.md §7:
     * a trace's later profile), in the copy's clock as a range moves it
     * (pcol_wall_meta_cut): read back, the profiles keep their places on
     * the trace's timeline (rd12b F2: the copy said the longest profile's
     * Duration:, 2s of 2.01s) */
    int64_t off = x->wall.off ? x->wall.off[x->cur_src] : 0;
    if (off > 0) {
      char in[24], out[24];
      int n = snprintf(in, sizeof in, "%lld", (long long)off);
      int m = pcol_wall_meta_cut(&x->wall, x->cur_src, &x->win, (pcol_str){PCOL_META_SPAN_START_NS, sizeof PCOL_META_SPAN_START_NS - 1},
                                 (pcol_str){in, (size_t)n}, out);
      if (m != 2 && fprintf(x->out, ",\"pcolSpanStart\":%s", m == 1 ? out : in) < 0) return io(x);
    }
    /* its stacks the recorder truncated (pcol.truncated_stacks, THE rule:
     * truncated.c), which speedscope has no place for: pcol's import gives
     * it back, so a view of the copy warns as one of the original */
    uint64_t trunc;
    if ((rc = pcol_truncated_of(x->f, x->cur_src, &trunc, x->err))) return rc;
    if (trunc && fprintf(x->out, ",\"pcolTruncatedStacks\":%llu", (unsigned long long)trunc) < 0) return io(x);
    /* its nameless rule, where the profiles' differ (a merge of an Rprof
     * profile and a pprof one; THE nameless rule, frames.c): pcol's import
     * gives each profile its own, not the places of one to all */
    if (x->rule.loc_places) {
      int places;
      if ((rc = pcol_source_nameless_places(x->f, x->cur_src, &places, x->err))) return rc;
      if (fprintf(x->out, ",\"pcolNamelessPlaces\":%s", places ? "true" : "false") < 0) return io(x);
    }
    /* its own default (THE default rule, count.c), which speedscope's
     * activeProfileIndex names of one source only (a merge's second
     * source read back took its last type), and the default its recording
     * states (pcol.default_value: a JFR recording's cpu, beside its
     * allocation sources), which THE default rule shows of sources whose
     * own defaults differ: pcol's import gives both back */
    uint32_t own = 0, nth;
    pcol_str dv = {PCOL_VT_SAMPLES, sizeof PCOL_VT_SAMPLES - 1}; /* the count */
    if ((rc = source_default(x, x->cur_src, &own, &nth))) return rc;
    if (own == PCOL_VT_TIME) dv = (pcol_str){PCOL_VT_CPU, sizeof PCOL_VT_CPU - 1}; /* an Rprof source's time */
    else if (own >= 1 && own <= pcol_rows(x->f, PCOL_T_VALUE_TYPES) &&
             (rc = pcol_string(x->f, pcol_view_u32(&x->vt_type, own - 1), &dv, x->err)))
      return rc;
    /* (only of a default that is the first profile of its name: a name
     * reads its first, go's SampleIndexByName; without one, pcol's import
     * takes the last profile, the default's, as go takes the last type
     * without default_sample_type: inuse_space in kilobytes then in bytes,
     * the bytes the default, read back in kilobytes, rd16a F4) */
    if (dv.ptr && x->dnamed && ((rc = put(x, ",\"pcolDefaultSampleType\":")) || (rc = put_str(x, dv))))
      return rc;
    if ((rc = pcol_meta_probe(x->f, x->cur_src, PCOL_META_DEFAULT_VALUE, &dv, x->err)) < 0) return rc;
    if (rc && dv.ptr && ((rc = put(x, ",\"pcolDefaultValue\":")) || (rc = put_str(x, dv)))) return rc;
  }
  if ((rc = put(x, ",\"samples\":["))) return rc;
  if ((rc = each_run(x, vt, t->nth, RUN_SAMPLES, dec, mul)) || (rc = put(x, "],\"weights\":[")) ||
      (rc = each_run(x, vt, t->nth, RUN_WEIGHTS, dec, mul)))
    return rc;
  return put(x, "]}");
}

/* A time of the source's clock as written: since the start of its window
 * in the range (x->win.shift earlier), saturated */
static int64_t shifted(const sexp *x, int64_t t) {
  int64_t r;
  return __builtin_sub_overflow(t, x->win.shift, &r) || r == PCOL_NA_I64 ? (t < 0 ? INT64_MIN + 1 : INT64_MAX) : r;
}

static int event(sexp *x, int *first, char t, uint32_t frame, int64_t at) {
  x->nevents++;
  if (x->dry) return PCOL_OK;
  int rc = fprintf(x->out, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%lld}", *first ? "" : ",", t, frame,
                   (long long)shifted(x, at)) < 0 ? io(x) : PCOL_OK;
  *first = 0;
  return rc;
}

/* The evented profiles' pass: a row is written when the next one of its
 * thread (or the thread's end) is met, whose time bounds it. */
typedef struct timeline {
  sexp *x;
  pcol_str uri;
  int64_t from, to, start, cur_end;
  int64_t tail;   /* where the thread's last sample ends by THE span rule when it draws nothing (INT64_MIN: none) */
  pcol_laid laid; /* the thread's row written last as placed (THE placement rule) */
  pcol_buf open; /* open frames, root first */
  pcol_buf name; /* " (THREAD)" of a source of several threads */
  int first, have;
  uint32_t th;   /* the thread of the row met last */
  uint64_t row;  /* the row met last, not yet written */
  pcol_sample_cols sc;
} timeline;

static int timeline_step(timeline *c, int has_next, int64_t next) {
  sexp *x = c->x;
  int rc = PCOL_OK;
  int64_t t = pcol_view_i64(&x->s_time, c->row), d = pcol_view_i64(&x->s_dur, c->row);
  /* THE span rule (lasts.h): its duration, else its own length (perf's
   * period, pprof's count x period, Rprof's interval, Tachyon's interval),
   * else a gap of its thread; from its time, or, a sample of its own
   * length, from the end of the previous one of its thread when that is
   * drawn past it, by at most PCOL_LASTS_LAY_MAX own lengths (THE placement
   * rule, lasts.h: end to end).  Drawn to at
   * most where the next sample of its thread begins by the events
   * themselves: the next row closes, where it begins, the frames it does
   * not share (speedscope's evented profile is one stack at a time), and e
   * (cur_end) only says whether a gap comes before it, so an end past the
   * next sample is not cut here (it drew the same) */
  int64_t own = pcol_lasts_own(&x->lasts, &c->sc, &x->rt, c->row);
  int64_t at = pcol_lasts_start(&x->lasts, d, own, t, has_next, c->laid);
  /* a V8 or Chrome-trace sample that measured no time (the last of its
   * thread: V8's wall 0, no sample after it) draws nothing, as
   * speedscope's importer reads the .cpuprofile, so that the timeline adds
   * up, frame by frame, to the wall profile; the timeline still ends where
   * THE span rule ends it (rule 2: DevTools' mean gap after it; endValue,
   * tail).  (lasts.h pcol_lasts_measured_none: the report's stack chart
   * draws it for none too) */
  int measured_none = pcol_lasts_measured_none(&x->lasts, d);
  d = pcol_lasts_span(&x->lasts, d, own, t, has_next, next);
  if (d < 0) d = 0;
  t = at;
  int64_t e = t > INT64_MAX - d ? INT64_MAX : t + d;
  if (measured_none) {
    int64_t tl = e > c->to ? c->to : e;
    if (tl > c->tail) c->tail = tl;
    e = t;
  }
  c->laid = (pcol_laid){at, e};
  if (t < c->from) t = c->from;
  if (t > c->to) t = c->to; /* (laid past the range's end: nothing of it is drawn) */
  if (e > c->to) e = c->to;
  if (e < t) e = t;
  const uint32_t *fr;
  uint32_t n;
  if ((rc = stack_frames(x, pcol_view_u32(&x->s_stack, c->row), &fr, &n))) return rc;
  if (measured_none) n = 0; /* no frame of it: not even one of no length (review diff6 F6) */
  uint32_t *o = (uint32_t *)c->open.data;
  size_t no = c->open.len / sizeof *o, common = 0;
  if (c->cur_end < t) { /* a gap: close everything */
    while (no && !rc) rc = event(x, &c->first, 'C', o[--no], c->cur_end);
  }
  while (common < no && common < n && o[common] == fr[common]) common++;
  while (no > common && !rc) rc = event(x, &c->first, 'C', o[--no], t);
  c->open.len = no * sizeof *o;
  for (size_t k = common; k < n && !rc; k++) {
    rc = event(x, &c->first, 'O', fr[k], t);
    if (!rc && PCOL_BUF_PUSH(&c->open, uint32_t, fr[k])) rc = oom(x);
  }
  c->cur_end = e;
  return rc;
}

static int rowtimes_write(sexp *x, const timeline *tl);
static int thread_write(sexp *x, uint32_t th);

/* The head of thread th's evented profile: "URI: timeline", or, of a
 * source of several threads, "URI: timeline (THREAD)". */
static int timeline_begin(timeline *c, uint32_t th) {
  sexp *x = c->x;
  int rc;
  c->th = th;
  c->first = 1;
  c->open.len = 0;
  c->cur_end = c->start;
  c->tail = INT64_MIN;
  c->laid = pcol_laid_none();
  if (x->dry) return PCOL_OK;
  c->name.len = 0;
  if (x->nthreads > 1) {
    const uint32_t *ls = (const uint32_t *)(const void *)x->tls.data;
    if (pcol_buf_append(&c->name, " (", 2)) return oom(x);
    if ((rc = pcol_thread_name(x->f, ls[th], 1, &c->name, x->err))) return rc;
    if (pcol_buf_append(&c->name, ")", 1)) return oom(x);
  }
  if ((rc = profile_head(x, "evented", c->uri, "timeline", (pcol_str){(const char *)c->name.data, c->name.len},
                         "nanoseconds")))
    return rc;
  /* the events' times are since the source's start (spec.md §7; of a
   * range, its window's), which is the profile's start: speedscope counts
   * them from startValue */
  int64_t sv = shifted(x, c->start);
  return fprintf(x->out, ",\"startValue\":%lld,\"events\":[", (long long)(sv < 0 ? sv : 0)) < 0 ? io(x) : PCOL_OK;
}

/* The end of the thread's profile: its last row, its frames closed; the
 * first one written carries every row's time and duration (rowtimes). */
static int timeline_end(timeline *c) {
  sexp *x = c->x;
  int rc = c->have ? timeline_step(c, 0, INT64_MAX) : PCOL_OK;
  uint32_t *o = (uint32_t *)c->open.data;
  size_t no = c->open.len / sizeof(uint32_t);
  while (no && !rc) rc = event(x, &c->first, 'C', o[--no], c->cur_end);
  c->have = 0;
  if (rc || x->dry) return rc;
  int64_t end = c->tail > c->cur_end ? c->tail : c->cur_end;
  if (fprintf(x->out, "],\"endValue\":%lld", (long long)shifted(x, end)) < 0) return io(x);
  if (c->th == 0 && (rc = rowtimes_write(x, c))) return rc;
  if ((rc = thread_write(x, c->th))) return rc;
  return put(x, "}");
}

/* The rows come thread by thread, each thread's in file order. */
static int timeline_row(timeline *c, uint64_t row, uint32_t th) {
  int rc = PCOL_OK;
  if (c->have && th != c->th) rc = timeline_end(c);
  if (!rc && !c->have && (th != c->th || c->first == 2)) rc = timeline_begin(c, th);
  if (!rc && c->have) rc = timeline_step(c, 1, pcol_view_i64(&c->x->s_time, row));
  c->row = row;
  c->have = 1;
  return rc;
}

static int timeline_one(void *ctx, const pcol_selected_row *r) { /* a source of one thread: file order */
  return timeline_row(ctx, r->row, 0);
}

/* a source of several threads: its rows sorted by thread, then file order */
typedef struct trow {
  uint32_t th, pad;
  uint64_t pos, row;
} trow;
static int trow_cmp(const void *a, const void *b) {
  const trow *p = a, *q = b;
  if (p->th != q->th) return p->th < q->th ? -1 : 1;
  return (p->pos > q->pos) - (p->pos < q->pos);
}
static int trow_add(void *ctx, const pcol_selected_row *r) {
  void **a = ctx;
  sexp *x = a[0];
  trow t = {0, 0, x->pos, r->row};
  int rc = thread_of(x, r->row, &t.th);
  return rc ? rc : pcol_rowsort_add(a[1], &t);
}
static int trow_each(void *ctx, const void *row) {
  const trow *t = row;
  return timeline_row(ctx, t->row, t->th);
}

/* pcolTimes / pcolDurations: each selected row's time and duration in ns
 * since the source's start, clipped to --from/--to as the timeline draws
 * it, one per sample of the sampled profiles (a row each, x->per_row). */
typedef struct rowtimes {
  sexp *x;
  int64_t from, to;
  int dur, k;
} rowtimes;

static int rowtimes_row(void *ctx, const pcol_selected_row *r) {
  rowtimes *c = ctx;
  int64_t t = pcol_view_i64(&c->x->s_time, r->row), d = pcol_view_i64(&c->x->s_dur, r->row);
  if (d < 0 || d == PCOL_NA_I64) d = 0;
  int64_t e = t > INT64_MAX - d ? INT64_MAX : t + d;
  if (t < c->from) t = c->from;
  if (e > c->to) e = c->to;
  if (e < t) e = t;
  return fprintf(c->x->out, c->k++ ? ",%lld" : "%lld", (long long)(c->dur ? e - t : shifted(c->x, t))) < 0 ? io(c->x)
                                                                                                           : PCOL_OK;
}

/* pcolThreads: each selected row's thread (THE thread rule), the index of
 * its timeline among the source's (thread_of: in order of first row) */
static int rowthreads_row(void *ctx, const pcol_selected_row *r) {
  rowtimes *c = ctx;
  uint32_t th;
  int rc = thread_of(c->x, r->row, &th);
  if (rc) return rc;
  return fprintf(c->x->out, c->k++ ? ",%u" : "%u", (unsigned)th) < 0 ? io(c->x) : PCOL_OK;
}

static int rowtimes_write(sexp *x, const timeline *tl) {
  int rc = PCOL_OK;
  for (int dur = 0; dur < 2 && !rc; dur++) {
    rowtimes c = {x, tl->from, tl->to, dur, 0};
    rc = put(x, dur ? "],\"pcolDurations\":[" : ",\"pcolTimes\":[");
    if (!rc) rc = each_row(x, rowtimes_row, &c);
  }
  if (!rc && x->nthreads > 1) {
    rowtimes c = {x, 0, 0, 0, 0};
    rc = put(x, "],\"pcolThreads\":[");
    if (!rc) rc = each_row(x, rowthreads_row, &c);
  }
  return rc ? rc : put(x, "]");
}

/* pcolThread: thread th's labels, for pcol's import to give its samples
 * back: of the label set its name is of (THE thread-name rule's: its last
 * row's), the labels THE thread
 * rule reads (thread_name, thread, thread_id, tid), the comm THE
 * thread-name rule names it by and the pid the Firefox export gives it, a
 * string or an integer each, as stored; nothing for a thread of none */
static int thread_write(sexp *x, uint32_t th) {
  static const char *const other[] = {PCOL_THREAD_COMM_KEY, PCOL_THREAD_PID_KEY};
  enum { NK = PCOL_THREAD_NKEYS, NO = sizeof other / sizeof other[0] };
  uint32_t ls = ((const uint32_t *)(const void *)x->tls.data)[th];
  pcol_thread_tuple t;
  int rc = pcol_thread_tuple_of(x->f, ls, &t, x->err), n = 0;
  for (int j = 0; j < NK + NO && !rc; j++) {
    uint32_t sv = 0;
    int64_t nv = PCOL_NA_I64;
    const char *k = j < NK ? pcol_thread_keys[j] : other[j - NK];
    if (j < NK && t.kind[j] == 1) sv = (uint32_t)t.v[j];
    else if (j < NK && t.kind[j] == 2) nv = t.v[j];
    else if (j >= NK && (rc = pcol_label_get(x->f, ls, k, &sv, &nv, x->err))) break;
    if (!sv && nv == PCOL_NA_I64) continue;
    if ((rc = put(x, n++ ? "," : ",\"pcolThread\":{")) || (rc = put_str(x, (pcol_str){k, strlen(k)})) ||
        (rc = put(x, ":")))
      break;
    pcol_str str;
    if (!sv) rc = fprintf(x->out, "%lld", (long long)nv) < 0 ? io(x) : PCOL_OK;
    else if (!(rc = pcol_string(x->f, sv, &str, x->err))) rc = put_str(x, str);
  }
  return rc || !n ? rc : put(x, "}");
}

/* The evented profiles (after scan: every row has a time, else none; the
 * source's threads), one a thread of the source with its labels
 * (thread_write), and, on the first, for pcol's import, each sample's own
 * time, duration and thread (rowtimes_write).  A
 * thread's samples are one timeline: samples of threads that ran at once
 * cannot nest in one. */
static int evented(sexp *x, pcol_str uri, const pcol_select *sel) {
  if (!x->nrows || !x->all_times) return PCOL_OK;
  int rc;
  timeline c;
  memset(&c, 0, sizeof c);
  c.x = x;
  c.uri = uri;
  c.from = x->win.from; /* the range in the source's clock (a wall-clock one made its own) */
  c.to = x->win.to;
  c.first = 2; /* no profile begun */
  c.sc = (pcol_sample_cols){x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(x->f, PCOL_T_VALUES), 0};
  pcol_sample_cols_dense(&c.sc);
  x->nevents = 0;
  c.start = x->first_time;
  if (c.start < c.from) c.start = c.from;
  if (x->nthreads <= 1) {
    rc = each_row(x, (row_fn)timeline_one, &c);
  } else {
    pcol_rowsort *rs = NULL;
    void *a[2];
    rc = pcol_rowsort_new(&rs, sizeof(trow), trow_cmp) ? oom(x) : PCOL_OK;
    a[0] = x, a[1] = rs;
    if (!rc) rc = each_row(x, trow_add, a);
    if (!rc) rc = pcol_rowsort_each(rs, trow_each, &c);
    if (rc == PCOL_ENOMEM && (!x->err || !x->err->code)) rc = oom(x);
    else if (rc == PCOL_EIO && (!x->err || !x->err->code))
      rc = pcol_error_set(x->err, rc, "speedscope export: a temporary file ($TMPDIR, else /tmp) could not be used");
    pcol_rowsort_free(rs);
  }
  if (!rc && c.have) rc = timeline_end(&c);
  pcol_buf_free(&c.open);
  pcol_buf_free(&c.name);
  return rc;
}

/* What frame `key` says: its name, file (NULL: none), line (NA: none),
 * and for a line as a frame of its own whether it is a named function's
 * (pcolLine) or a place (pcolNameless); the one place write_frame and
 * frames_least read them.  name may point into x->name. */
typedef struct frame_parts {
  pcol_str name, file;
  int64_t line;
  int by_fn;
} frame_parts;
static int frame_of_key(sexp *x, uint32_t key, frame_parts *p) {
  pcol_str name = {0}, file = {0};
  int64_t line = PCOL_NA_I64;
  int rc, by_fn = 0;
  if ((key >> 30) == 3) { /* a nameless function of a file: its mapping's name, its file */
    uint32_t id = key & 0x3fffffffu, fn = ((const uint32_t *)(const void *)x->nf_fn.data)[id];
    x->name.len = 0;
    if ((rc = pcol_frame_unsymbolized_name(&x->fr, ((const uint32_t *)(const void *)x->nf_m.data)[id],
                                           &x->name, x->err)) ||
        (rc = pcol_string(x->f, pcol_view_u32(&x->fr.fn_file, fn - 1), &file, x->err)))
      return rc;
    name = (pcol_str){(const char *)x->name.data, x->name.len};
    line = pcol_view_i64(&x->fn_line, fn - 1);
  } else if (key >> 31) { /* the frames.h rule */
    x->name.len = 0;
    if ((rc = pcol_frame_unsymbolized_name(&x->fr, key & 0x7fffffffu, &x->name, x->err))) return rc;
    name = (pcol_str){(const char *)x->name.data, x->name.len};
  } else if (key >> 30) { /* a line as a frame of its own: a place, or a function's (fn_frame_of) */
    uint32_t li = ((const uint32_t *)(const void *)x->nl_li.data)[key & 0x3fffffffu];
    uint32_t fn = pcol_frames_fn(&x->fr, li);
    if ((rc = pcol_frame_line_name(&x->fr, li, &x->name, &name, &by_fn, x->err)) ||
        (rc = pcol_string(x->f, pcol_view_u32(&x->fr.fn_file, fn - 1), &file, x->err)))
      return rc;
    line = pcol_view_i64(&x->fr.ln_line, li);
  } else {
    if ((rc = pcol_string(x->f, pcol_view_u32(&x->fr.fn_name, key - 1), &name, x->err)) ||
        (rc = pcol_string(x->f, pcol_view_u32(&x->fr.fn_file, key - 1), &file, x->err)))
      return rc;
    line = pcol_view_i64(&x->fn_line, key - 1);
    if (!name.ptr) name = file.ptr ? file : (pcol_str){"[unknown]", 9};
  }
  *p = (frame_parts){name, file, line, by_fn};
  return PCOL_OK;
}

#define FRAME_LINE_KEY ",\"pcolLine\":true"
#define FRAME_PLACE_KEY ",\"pcolNameless\":true"

/* The least bytes frames [nframes_counted, nframes) add to "shared"
 * (write_frame: a name and a file written as JSON strings are at least
 * their bytes and quotes), into frames_need.  The frames are written after
 * the profiles, so the budget's check before a profile counts them: a
 * function of a long name at many lines (Rprof's line profiling: a frame
 * per (function, line), pcolLine, each writing the name and the file) was
 * refused only once the profiles were written, B bytes later */
static int frames_least(sexp *x) {
  for (; x->nframes_counted < x->nframes; x->nframes_counted++) {
    uint32_t key = x->frames[x->nframes_counted];
    frame_parts p;
    int rc = frame_of_key(x, key, &p);
    if (rc) return rc;
    uint64_t n = (x->nframes_counted ? sizeof ",\n" - 1 : 0) + sizeof "{\"name\":\"\"}" - 1 + p.name.len;
    if (p.file.ptr) n += sizeof ",\"file\":\"\"" - 1 + p.file.len;
    if (p.line != PCOL_NA_I64) n += sizeof ",\"line\":0" - 1;
    if ((key >> 30) == 1) n += p.by_fn ? sizeof FRAME_LINE_KEY - 1 : sizeof FRAME_PLACE_KEY - 1;
    x->frames_need += n;
  }
  return PCOL_OK;
}

static int write_frame(sexp *x, uint32_t key) {
  frame_parts p;
  int rc = frame_of_key(x, key, &p);
  if (rc) return rc;
  if ((rc = put(x, "{\"name\":")) || (rc = put_str(x, p.name))) return rc;
  if (p.file.ptr && ((rc = put(x, ",\"file\":")) || (rc = put_str(x, p.file)))) return rc;
  if (p.line != PCOL_NA_I64 && fprintf(x->out, ",\"line\":%lld", (long long)p.line) < 0) return io(x);
  /* a place, not a function (a key speedscope ignores): pcol's import
   * makes it a line of a function without a name again, so the Rprof
   * export of the copy writes the srcref, not a call "FILE:LINE" that
   * summaryRprof counts (review 12 F3); a named function's line: that
   * line of it, not its start (pcolLine, also ignored by speedscope) */
  if ((key >> 30) == 1 && (rc = put(x, p.by_fn ? FRAME_LINE_KEY : FRAME_PLACE_KEY))) return rc;
  return put(x, "}");
}

/* source s (sel's range, names and labels) is the one written: its
 * selected rows counted */
static int load_source(sexp *x, const pcol_select *sel, uint32_t s) {
  if (x->cur_src == s) return PCOL_OK;
  x->one = sel ? *sel : (pcol_select){0};
  x->one.source_id = s;
  x->cur_src = s;
  x->nrows = 0;
  /* the source's window in the range (THE range rule of the header,
   * wall.c): its pcolStart and pcolDuration, the timeline's clip, and
   * how much earlier its times are written, so that a copy of the range
   * starts where the range's part starts and each sample keeps its
   * instant (a range the window misses: written only for rows past the
   * duration it states, writes(), with the header's start and no
   * duration, pcol_wall_states, its times since that start: the instants
   * they were, of a start unknown since the header's; of a header without
   * a start, with none, its times since its own) */
  (void)pcol_wall_cut(&x->wall, &x->one, s, &x->win);
  pcol_wall_cut_keep_span(&x->wall, s, &x->win); /* (its pcolSpanStart places it) */
  x->stated = x->states && x->states[s];
  if (x->states && !x->stated) {
    int64_t own = x->win.start;
    x->win.start = x->hstart ? x->hstart : PCOL_NA_I64;
    x->win.shift = 0;
    if (x->hstart && own != PCOL_NA_I64 && __builtin_sub_overflow(x->hstart, own, &x->win.shift))
      x->win.shift = x->hstart < 0 ? INT64_MIN + 1 : INT64_MAX;
  }
  int rc = pcol_lasts_init(&x->lasts, x->f, s, x->err);
  return rc ? rc : pcol_select_count(x->f, &x->one, &x->nrows, x->err);
}

/* Whether the loaded source is written: a selected row, or a window the
 * copy states (pcol_wall_states, THE rule of the header: a source whose
 * cut window the range hits states it, samples there or not, as pcol top
 * of the range counts it; one the range misses states nothing) */
static int writes(const sexp *x) { return x->nrows || x->stated; }

int pcol_export_speedscope_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                               const pcol_export_options *opt, pcol_error *err) {
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  sexp x = {0};
  pcol_budget bud;
  int rc = pcol_budget_open(&bud, f, opt, "speedscope export", out, err);
  if (rc) return rc;
  x.f = f;
  x.err = err;
  x.out = bud.fp;
  x.bud = &bud;
  x.timeline = opt ? opt->timeline : 0;
  const pcol_column_req cols[] = {
      {&x.s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},        {&x.s_time, PCOL_T_SAMPLES, PCOL_C_S_TIME},
      {&x.s_dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION},      {&x.s_w, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},
      {&x.s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},       {&x.s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
      {&x.s_ls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET},
      {&x.v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},          {&x.v_val, PCOL_T_VALUES, PCOL_C_V_VALUE},
      {&x.fn_line, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE},
      {&x.src_uri, PCOL_T_SOURCES, PCOL_C_SOURCES_URI},
      {&x.vt_type, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE},   {&x.vt_unit, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT}};
  rc = pcol_columns(f, cols, PCOL_NCOLS(cols), err);
  if (!rc) rc = pcol_frames_init(&x.fr, f, err);
  if (!rc) rc = pcol_count_types(f, &x.cvt, err);
  const uint8_t *base = NULL; /* the subtracted base's sources: no timeline */
  if (!rc) rc = pcol_base_kinds(f, &base, err);
  if (!rc) rc = pcol_rtime_init(&x.rt, f, err);
  if (!rc) rc = pcol_xvalues_init(&x.xv, f, &x.rt, err);
  if (!rc) rc = pcol_wall_init(f, &x.wall, err);
  if (!rc && sel && (sel->has_from || sel->has_to)) rc = pcol_wall_states(f, sel, &x.states, &x.hstart, err);
  if (!rc) rc = pcol_thread_classes(f, &x.tcls, &x.ntcls, err);
  if (!rc) rc = pcol_thread_name_sets(f, x.tcls, x.ntcls, &x.tname, err);
  if (!rc && !(x.tloc = calloc((size_t)x.ntcls + 1, sizeof *x.tloc))) rc = oom(&x);
  uint64_t nst = pcol_rows(f, PCOL_T_STACKS), ns = pcol_rows(f, PCOL_T_SOURCES);
  if (!rc) {
    x.fn_frame = calloc(pcol_rows(f, PCOL_T_FUNCTIONS) + 1, sizeof *x.fn_frame);
    x.fn_kind = calloc(pcol_rows(f, PCOL_T_FUNCTIONS) + 1, 1);
    x.memo_off = calloc(nst + 1, sizeof *x.memo_off);
    x.memo_len = calloc(nst + 1, sizeof *x.memo_len);
    if (!x.fn_frame || !x.fn_kind || !x.memo_off || !x.memo_len) rc = oom(&x);
  }
  /* a nameless function's lines: frames of their own (their mapping's)
   * unless the sources whose samples reach them hold places (THE nameless
   * rule, frames.c: Rprof's srcrefs), as the Firefox export's (fn_frame_of) */
  if (!rc) rc = pcol_nameless_rule_make(f, sel, &x.rule, err);
  if (!rc) rc = pcol_select_check(f, sel, err);
  /* the parts of a selection's recordings (THE selection rule of parts,
   * wall.c) over the sources it writes: those with selected rows */
  if (!rc) rc = pcol_wall_select_parts_of(&x.wall, f, sel, x.states, err);
  if (!rc) rc = put(&x, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
                        "\"exporter\":\"pcol " PCOL_VERSION_STRING "\",\"name\":");
  pcol_str name = {"pcol", 4};
  if (!rc && ns == 1) rc = pcol_string(f, pcol_view_u32(&x.src_uri, 0), &name, err);
  if (!rc && !name.ptr) name = (pcol_str){"pcol", 4};
  if (!rc) rc = put_str(&x, pcol_source_display_name(f, ns == 1 ? 1 : 0, name));
  pcol_xtype *types = NULL;
  size_t ntypes = 0;
  if (!rc && !(types = malloc((pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES) + PCOL_XV_MAX + 2) * sizeof *types)))
    rc = oom(&x);
  /* activeProfileIndex: the default type's profile of the first source
   * written; of a type it lists twice, the one the views read (go's
   * default: the last without default_sample_type; pcol_export_pick_make) */
  int active = 0;
  if (!rc) rc = pcol_export_pick_make(&x.rt, f, sel, 0, 0, 0, &x.dpick, err);
  unsigned no_threads = 0;
  for (uint32_t s = 1; s <= ns && !rc; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    if ((rc = load_source(&x, sel, s)) || !writes(&x)) continue;
    uint32_t dflt = 0, dnth = 0;
    if ((rc = source_default(&x, s, &dflt, &dnth))) break;
    if ((rc = source_types(&x, s, types, &ntypes)) || (rc = scan(&x, types, ntypes, 0))) break;
    /* the default's profile; when it is skipped (a value below 0), the
     * count's (the count profile, or pprof's samples/count), else the first */
    int k = 0, count = -1, found = 0;
    /* the default as a stored type where a profile's value is derived (an
     * Rprof source's cpu in a file where a pprof source stores cpu/
     * nanoseconds: the default is that stored type, the profile the derived
     * one): the same value by its type and unit */
    pcol_str dty = {0}, dun = {0};
    if (dflt && dflt <= pcol_rows(f, PCOL_T_VALUE_TYPES) &&
        ((rc = pcol_string(f, pcol_view_u32(&x.vt_type, dflt - 1), &dty, err)) ||
         (rc = pcol_string(f, pcol_view_u32(&x.vt_unit, dflt - 1), &dun, err))))
      break;
    for (size_t i = 0; i < ntypes; i++) {
      if (x.neg[i]) continue;
      if ((types[i].vt == dflt && types[i].nth == dnth) ||
          (dty.ptr && types[i].type.ptr && types[i].vt > pcol_rows(f, PCOL_T_VALUE_TYPES) &&
           types[i].type.len == dty.len && !memcmp(types[i].type.ptr, dty.ptr, dty.len) &&
           types[i].unit.len == dun.len && (!dun.len || !memcmp(types[i].unit.ptr, dun.ptr, dun.len)))) {
        active = k;
        found = 1;
        break;
      }
      if (count < 0 && (!types[i].vt || types[i].vt == x.cvt[s])) count = k;
      k++;
    }
    if (!found && count >= 0) active = count;
    break;
  }
  if (!rc && fprintf(x.out, ",\"activeProfileIndex\":%d,\"profiles\":[", active) < 0) rc = io(&x);
  for (uint32_t s = 1; s <= ns && !rc; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    if ((rc = load_source(&x, sel, s)) || !writes(&x)) continue;
    pcol_str uri;
    if ((rc = pcol_string(f, pcol_view_u32(&x.src_uri, s - 1), &uri, err))) break;
    uri = pcol_source_display_name(f, s, uri); /* the profiles' names: no directory */
    if ((rc = source_types(&x, s, types, &ntypes)) || (rc = scan(&x, types, ntypes, 1))) break;
    /* the evented timeline: when asked, or by default when its events fit
     * PCOL_SPEEDSCOPE_TIMELINE_EVENTS (counted by a dry run); with it,
     * every row is a sample of its own (runs are not joined), whose time
     * and duration it carries; none of a subtracted base (pcol_base_kinds),
     * whose samples count below 0: their time on a timeline would add */
    int write = x.timeline > 0 && !base[s];
    if (!rc && !x.timeline && !base[s]) {
      x.dry = 1;
      rc = evented(&x, uri, sel);
      x.dry = 0;
      write = x.nevents <= PCOL_SPEEDSCOPE_TIMELINE_EVENTS;
    }
    x.per_row = write && x.all_times;
    if (!x.per_row) no_threads = PCOL_LOSS_NO_THREADS; /* a source without its threads' labels */
    x.src_head = 0;
    if (!rc) rc = default_named(&x, s, types, ntypes);
    for (size_t i = 0; i < ntypes && !rc; i++) rc = sampled(&x, uri, &types[i], i);
    if (!rc && write) rc = evented(&x, uri, sel);
    x.per_row = 0;
  }
  free(types);
  free(x.dpick.src);
  if (!rc) rc = put(&x, "\n],\"shared\":{\"frames\":[");
  for (size_t i = 0; i < x.nframes && !rc; i++) {
    if (i) rc = put(&x, ",\n");
    if (!rc) rc = write_frame(&x, x.frames[i]);
  }
  if (!rc) rc = put(&x, "]}}\n");
  rc = pcol_budget_close(&bud, rc, err);
  /* a profile not written is said (review 13 m1: a delta heap profile's
   * inuse_space, its default, vanished without a word) */
  if (!rc && x.skipped.n && pcol_export_heard(opt)) {
    char text[sizeof x.skipped.list + 160];
    pcol_xskipped_text(&x.skipped, "speedscope does not read", text, sizeof text);
    pcol_export_say(opt, PCOL_EXPORT_DATA, text);
  }
  if (!rc) pcol_export_loss_note(f, sel, PCOL_FMT_SPEEDSCOPE, no_threads, opt, NULL); /* labels it cannot hold */
  free(x.cvt);
  free(x.tcls);
  free(x.tloc);
  free(x.tname);
  free(x.gaps);
  pcol_buf_free(&x.tlast);
  pcol_buf_free(&x.tls);
  pcol_wall_free(&x.wall);
  free(x.states);
  pcol_rtime_free(&x.rt);
  free(x.fn_frame);
  free(x.fn_kind);
  pcol_nameless_rule_free(&x.rule);
  pcol_u64map_free(&x.nl);
  pcol_u64map_free(&x.nf);
  pcol_buf_free(&x.nf_frame);
  pcol_buf_free(&x.nf_fn);
  pcol_buf_free(&x.nf_m);
  pcol_u64map_free(&x.nl_lines);
  pcol_buf_free(&x.nl_frame);
  pcol_buf_free(&x.nl_li);
  pcol_unsym_ids_reset(&x.unsym);
  pcol_buf_free(&x.unsym_frame);
  pcol_buf_free(&x.name);
  free(x.frames);
  free(x.brk);
  free(x.neg);
  free(x.total);
  free(x.mul);
  free(x.memo_off);
  free(x.memo_len);
  free(x.tmp);
  pcol_filter_free(&x.flt);
  pcol_buf_free(&x.stk);
  return rc;
}

int pcol_export_speedscope(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  return pcol_export_speedscope_opt(f, sel, out, NULL, err);
}
