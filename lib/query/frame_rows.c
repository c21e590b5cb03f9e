/* frame_rows.c — pcol_frame_rows_scan: one row per (sample, frame), each
 * frame under the key `pcol top` counts it under.
 *
 * The keys are top's own (pcol_q_top_keys: build_loc_keys of top.c, the one
 * place of the naming rule): per location every key, innermost first, with
 * the inline mark (loc_all), which are exactly the frames top walks for
 * flat (the first key on the stack) and cum (each key once).  Each key of a
 * location is matched to the line row it was made from (line_key), for the
 * row's file and line; a location's fallback key (unsymbolized) has none.
 * Then one pass over the selected samples (pcol_q_values_iter: the value
 * top adds up, cut and scaled as there) walks each sample's stack. */
#include "query.h"
#include "error.h"    /* pcol_oom */
#include "buf.h"      /* PCOL_GROW, pcol_buf_free */
#include "frames.h"   /* pcol_frames_fn, pcol_frames_lines */
#include <stdlib.h>

typedef struct frctx {
  pcol_q_fctx fc;
  pcol_q_topkeys k;
  uint64_t *eline;    /* per loc_all entry: its line row (UINT64_MAX: none) */
  uint64_t *stamp;    /* per key: the last sample (row + 1) whose rows had it */
  struct srow {        /* the rows of one sample */
    uint32_t j, loc;     /* its loc_all entry and location */
    uint8_t first;
  } *r;
  size_t rcap;
  pcol_view s_src, s_time, s_stack;
  const pcol_frame_rows *b;
  size_t pos;          /* rows filled in b */
  int (*fn)(void *ctx, size_t n);
  void *ctx;
  int stopped;         /* fn asked to stop */
  pcol_error *err;
} frctx;

/* Hands the rows filled so far to fn. */
static int flush(frctx *c) {
  if (!c->pos) return 0;
  int r = c->fn(c->ctx, c->pos);
  c->pos = 0;
  if (r > 0) c->stopped = 1;
  return r;
}

/* Row `i` of the sample at `row` (i = UINT32_MAX: "<no location>"). */
static int emit(frctx *c, uint64_t row, int64_t value, uint32_t i, uint32_t depth) {
  const pcol_frame_rows *b = c->b;
  size_t p = c->pos;
  uint32_t j = i == UINT32_MAX ? 0 : c->r[i].j, loc = i == UINT32_MAX ? 0 : c->r[i].loc;
  uint32_t x = loc ? c->k.loc_all[j] : c->k.nokey, key = x & 0x7fffffffu;
  uint64_t li = loc ? c->eline[j] : UINT64_MAX;
  if (b->sample_id) b->sample_id[p] = row + 1;
  if (b->source_id) b->source_id[p] = pcol_view_u32(&c->s_src, row);
  if (b->time_ns) b->time_ns[p] = pcol_view_i64(&c->s_time, row);
  if (b->depth) b->depth[p] = depth;
  if (b->location_id) b->location_id[p] = loc;
  if (b->name) b->name[p] = key <= c->k.n ? c->k.name[key] : (pcol_str){NULL, 0};
  if (b->file) {
    b->file[p] = (pcol_str){NULL, 0};
    if (li != UINT64_MAX) {
      int rc = pcol_q_fn_string(&c->fc, pcol_frames_fn(&c->fc.fr, li), &c->fc.fn_file, &b->file[p],
                                c->err);
      if (rc) return rc;
    }
  }
  if (b->line) b->line[p] = li != UINT64_MAX ? pcol_view_i64(&c->fc.ln_line, li) : PCOL_NA_I64;
  if (b->self) b->self[p] = depth == 1;
  if (b->first) b->first[p] = i == UINT32_MAX ? 1 : c->r[i].first;
  if (b->inlined) b->inlined[p] = (uint8_t)(loc ? x >> 31 : 0);
  if (b->value) b->value[p] = value;
  return ++c->pos == b->cap ? flush(c) : 0;
}

static int sample_rows(void *ctx, uint64_t row, int64_t value) {
  frctx *c = ctx;
  if (value == 0) return 0; /* top adds nothing for it */
  uint32_t s = pcol_view_u32(&c->s_stack, row);
  if (s > c->fc.nstacks)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "sample %llu names stack %u, out of range",
                          (unsigned long long)row + 1, s);
  size_t n = 0;
  for (uint32_t nd = s; nd;) { /* the stack, innermost first */
    uint32_t p = pcol_view_u32(&c->fc.st_parent, nd - 1), l = pcol_view_u32(&c->fc.st_loc, nd - 1);
    if (p >= nd || l > c->fc.nloc)
      return pcol_error_set(c->err, PCOL_ECORRUPT, "stack node %u has a bad parent or location", nd);
    for (uint32_t j = c->k.loc_aoff[l]; j < c->k.loc_aoff[l + 1]; j++) {
      if (n >= UINT32_MAX) return pcol_error_set(c->err, PCOL_ETOOBIG, "a stack of 2^32 frames");
      if (PCOL_GROW(c->r, n, c->rcap)) return pcol_oom(c->err);
      c->r[n++] = (struct srow){j, l, 0};
    }
    nd = p;
  }
  if (s && !n) return emit(c, row, value, UINT32_MAX, 1); /* top's "<no location>" */
  for (size_t i = n; i-- > 0;) { /* outermost first: a name's first row there counts cum */
    uint32_t key = c->k.loc_all[c->r[i].j] & 0x7fffffffu;
    c->r[i].first = c->stamp[key] != row + 1;
    c->stamp[key] = row + 1;
  }
  for (size_t i = 0; i < n; i++) {
    int r = emit(c, row, value, (uint32_t)i, (uint32_t)i + 1);
    if (r) return r;
  }
  return 0;
}

/* eline: the line row each key of a location was made from.  A location's
 * keys are its lines' keys in order (line_key, 0 for a line without one),
 * or, when none has one, the location's fallback key alone (no line). */
static int match_lines(frctx *c) {
  uint32_t nall = c->k.loc_aoff[c->k.nloc + 1];
  if (!(c->eline = malloc((nall ? nall : 1) * sizeof *c->eline))) return pcol_oom(c->err);
  for (uint64_t l = 1; l <= c->k.nloc; l++) {
    uint64_t li, e;
    pcol_frames_lines(&c->fc.fr, (uint32_t)l, &li, &e);
    for (uint32_t j = c->k.loc_aoff[l]; j < c->k.loc_aoff[l + 1]; j++) {
      while (li < e && !c->k.line_key[li]) li++;
      if (li < e && c->k.line_key[li] == (c->k.loc_all[j] & 0x7fffffffu)) c->eline[j] = li++;
      else c->eline[j] = UINT64_MAX;
    }
  }
  return PCOL_OK;
}

int pcol_frame_rows_scan(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                         const pcol_frame_rows *b, int (*fn)(void *ctx, size_t n), void *ctx,
                         pcol_error *err) {
  if (!b || !b->cap || !fn) return pcol_error_set(err, PCOL_EINVAL, "no batch or callback");
  if ((unsigned)by > PCOL_BY_FILE_FUNCTION) return pcol_error_set(err, PCOL_EINVAL, "no such granularity");
  if (sel && pcol_select_filtered(sel))
    return pcol_error_set(err, PCOL_EINVAL,
                          "frame rows take no name or label filter (focus, ignore, hide, show, "
                          "show_from, tag, no_inlines); filter the rows instead");
  if (pcol_rows(f, PCOL_T_STACKS) >= 0x7fffffffu)
    return pcol_error_set(err, PCOL_ETOOBIG, "too many stack nodes");
  frctx c = {0};
  c.b = b;
  c.fn = fn;
  c.ctx = ctx;
  c.err = err;
  int rc = pcol_q_fctx_init(&c.fc, f, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &c.s_src, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &c.s_time, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &c.s_stack, err);
  int have_keys = 0;
  if (!rc && !(rc = pcol_q_top_keys(f, sel, by, 0, &c.k, err))) have_keys = 1;
  if (!rc) rc = match_lines(&c);
  if (!rc && !(c.stamp = calloc((size_t)c.k.n + 1, sizeof *c.stamp))) rc = pcol_oom(err);
  if (!rc) {
    int r = fn(ctx, 0);
    if (r > 0) c.stopped = 1;
    else rc = r;
  }
  if (!rc && !c.stopped) rc = pcol_q_values_iter(f, sel, NULL, v, sample_rows, &c, err);
  if (!rc && !c.stopped) rc = flush(&c);
  if (rc > 0) rc = PCOL_OK;
  if (have_keys) pcol_q_topkeys_free(&c.k);
  pcol_buf_free(&c.fc.scratch);
  free(c.eline);
  free(c.stamp);
  free(c.r);
  return rc;
}
