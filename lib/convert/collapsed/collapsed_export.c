/* collapsed_export.c — pcol samples out as collapsed ("folded") stacks.
 *
 * One line per distinct rendered stack, in order of first appearance among
 * the selected samples, values summed.  Frames are named by THE
 * frame-naming rule of lib/core/frames.h (pcol_frame_line_name,
 * pcol_frame_addr_name) and sanitized for ';'-separated text
 * (pcol_frame_sanitize), so a frame has the name here that it has in
 * `pcol fold`, top and flame.  The counts are the ones the importer reads
 * (collapsed.h); doc/mappings.md §4.2 has the rules. */
#include "collapsed.h"
#include "frames.h"

typedef struct centry {
  size_t off, len;     /* stack text in the arena */
  __int128 a1, a2;     /* before (diff) / amount, in nano-units */
  uint64_t first_row;  /* sample_text of a one-sample line */
  uint32_t nsamples;
  uint8_t decimal, diff, partial;
} centry;

typedef struct cexp {
  pcol_file *f;
  pcol_error *err;
  pcol_view s_src, s_stack, s_w, s_voff, v_type, v_val;
  pcol_frames fr;      /* the frame-naming rule */
  pcol_buf scratch;
  uint8_t *vtcls;      /* per value type: 1 count/1e-9, 2 before/count, 3 after/count, 4 before/1e-9, 5 after/1e-9 */
  uint32_t want_vt;    /* named value: its id (0 = weight) */
  int named;
  uint32_t *memo;      /* stack id -> entry + 1 */
  centry *e;
  size_t ne, cape;
  pcol_buf arena;
  pcol_hset set;
  uint32_t *locs;
  size_t nlocs, caplocs;
  uint32_t *text_of;   /* sample row -> sample_text string id */
  int any_diff;
} cexp;

/* appends a frame name, sanitized for collapsed text */
static int put_name(cexp *x, pcol_str s) {
  size_t start = x->arena.len;
  if (pcol_buf_append(&x->arena, s.ptr, s.len)) return PCOL_ENOMEM;
  pcol_frame_sanitize((char *)x->arena.data + start, s.len);
  return PCOL_OK;
}

static int entry_eq(const void *ctx, uint32_t id, const void *key) {
  const cexp *x = ctx;
  const centry *k = key, *e = &x->e[id - 1];
  return e->len == k->len && !memcmp(x->arena.data + e->off, x->arena.data + k->off, k->len);
}

/* the line entry of a stack (rendering it on first sight) */
static int entry_of(cexp *x, uint32_t stack, uint32_t *out) {
  if (stack > pcol_rows(x->f, PCOL_T_STACKS))
    return pcol_error_set(x->err, PCOL_ECORRUPT, "stack id %u is out of range", stack);
  if (x->memo[stack]) {
    *out = x->memo[stack] - 1;
    return PCOL_OK;
  }
  int rc = pcol_stack_locations(x->f, stack, &x->locs, &x->nlocs, &x->caplocs, x->err);
  if (rc) return rc;
  size_t off = x->arena.len;
  int first = 1;
  for (size_t i = x->nlocs; i-- > 0;) {
    uint32_t loc = x->locs[i];
    uint64_t lo, hi;
    pcol_frames_lines(&x->fr, loc, &lo, &hi);
    if (lo == hi) {
      if (!first && pcol_buf_append(&x->arena, ";", 1)) return pcol_oom(x->err);
      first = 0;
      char b[PCOL_ADDR_NAME_MAX];
      pcol_str name;
      pcol_frame_addr_name(&x->fr, loc, b, &name);
      if (put_name(x, name)) return pcol_oom(x->err);
      continue;
    }
    for (uint64_t l = hi; l-- > lo;) { /* outermost inline line first */
      if (!first && pcol_buf_append(&x->arena, ";", 1)) return pcol_oom(x->err);
      first = 0;
      pcol_str name;
      int by_function;
      if ((rc = pcol_frame_line_name(&x->fr, l, &x->scratch, &name, &by_function, x->err))) return rc;
      if (put_name(x, name)) return pcol_oom(x->err);
    }
  }
  /* an empty stack leaves the arena unallocated: NULL + 0 is UB */
  if (!x->arena.data && pcol_buf_reserve(&x->arena, 1)) return pcol_oom(x->err);
  centry k = {off, x->arena.len - off, 0, 0, 0, 0, 0, 0, 0};
  uint64_t h = pcol_hash_bytes(x->arena.data + off, k.len, 11);
  uint32_t id = pcol_hset_find(&x->set, h, entry_eq, x, &k);
  if (id) {
    x->arena.len = off; /* already known under another stack id */
  } else {
    if (PCOL_GROW(x->e, x->ne, x->cape)) return pcol_oom(x->err);
    x->e[x->ne++] = k;
    id = (uint32_t)x->ne;
    if (pcol_hset_insert(&x->set, h, id)) return pcol_oom(x->err);
  }
  x->memo[stack] = id;
  *out = id - 1;
  return PCOL_OK;
}

static int add_sample(void *ctx, uint64_t row, int64_t num, int64_t den) {
  cexp *x = ctx;
  uint32_t ei = 0;
  int rc = entry_of(x, pcol_view_u32(&x->s_stack, row), &ei);
  if (rc) return rc;
  uint64_t lo = pcol_view_u64(&x->s_voff, row), hi = pcol_view_u64(&x->s_voff, row + 1);
  if (hi > pcol_rows(x->f, PCOL_T_VALUES)) hi = pcol_rows(x->f, PCOL_T_VALUES);
  __int128 a1 = 0, a2 = 0;
  int dec = 0, diff = 0, has = 0, single = 0;
  if (x->named) { /* the chosen value: the one rule in core (pcol_sample_value) */
    pcol_sample_cols sc = {x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(x->f, PCOL_T_VALUES)};
    int64_t v;
    if (!(has = pcol_sample_value(&sc, row, x->want_vt, &v))) return 0;
    a2 = (__int128)pcol_scale(v, num, den) * NANO_I;
  } else {
    for (uint64_t i = lo; i < hi; i++) {
      uint32_t vt = pcol_view_u32(&x->v_type, i);
      int c = vt < pcol_rows(x->f, PCOL_T_VALUE_TYPES) + 1 ? x->vtcls[vt] : 0;
      __int128 v = pcol_scale(pcol_view_i64(&x->v_val, i), num, den);
      switch (c) {
      case 1: a2 = v, dec = single = 1; break;
      case 2: a1 = v * NANO_I, diff = 1; break;
      case 3: a2 = v * NANO_I, diff = 1; break;
      case 4: a1 = v, diff = dec = 1; break;
      case 5: a2 = v, diff = dec = 1; break;
      default: break;
      }
    }
    if (!diff && !single) a2 = (__int128)pcol_scale(pcol_view_i64(&x->s_w, row), num, den) * NANO_I;
  }
  centry *e = &x->e[ei];
  if (e->nsamples == 0) e->first_row = row;
  e->nsamples++;
  e->a1 += a1;
  e->a2 += a2;
  e->decimal |= (uint8_t)dec;
  e->diff |= (uint8_t)diff;
  e->partial |= (uint8_t)(num != den);
  x->any_diff |= diff;
  return 0;
}

static int classify_value_types(cexp *x) {
  pcol_view t, u;
  int rc = pcol_column(x->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &t, x->err);
  if (!rc) rc = pcol_column(x->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &u, x->err);
  if (rc) return rc;
  uint64_t n = pcol_rows(x->f, PCOL_T_VALUE_TYPES);
  x->vtcls = calloc(n + 1, 1);
  if (!x->vtcls) return pcol_oom(x->err);
  for (uint64_t i = 0; i < n; i++) {
    pcol_str ts, us;
    if ((rc = pcol_string(x->f, pcol_view_u32(&t, i), &ts, x->err)) ||
        (rc = pcol_string(x->f, pcol_view_u32(&u, i), &us, x->err)))
      return rc;
    int nano = pcol_str_is(us, COLLAPSED_UNIT_NANO), cnt = pcol_str_is(us, COLLAPSED_UNIT_COUNT);
    uint8_t c = 0;
    if (pcol_str_is(ts, COLLAPSED_VT_COUNT) && nano) c = 1;
    else if (pcol_str_is(ts, COLLAPSED_VT_BEFORE)) c = cnt ? 2 : nano ? 4 : 0;
    else if (pcol_str_is(ts, COLLAPSED_VT_AFTER)) c = cnt ? 3 : nano ? 5 : 0;
    x->vtcls[i + 1] = c;
  }
  return PCOL_OK;
}

/* sample_text of samples of collapsed sources only (other formats use it
 * for their own lines) */
static int load_texts(cexp *x) {
  uint64_t n = pcol_rows(x->f, PCOL_T_SAMPLE_TEXT), ns = pcol_rows(x->f, PCOL_T_SAMPLES);
  if (!n) return PCOL_OK;
  pcol_view sid, txt, stype;
  int rc = pcol_column(x->f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE, &sid, x->err);
  if (!rc) rc = pcol_column(x->f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_TEXT, &txt, x->err);
  if (!rc) rc = pcol_column(x->f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &stype, x->err);
  if (rc) return rc;
  x->text_of = calloc(ns + 1, sizeof *x->text_of);
  if (!x->text_of) return pcol_oom(x->err);
  for (uint64_t i = 0; i < n; i++) {
    uint32_t s = pcol_view_u32(&sid, i);
    if (!s || s > ns) continue;
    uint32_t src = pcol_view_u32(&x->s_src, s - 1);
    pcol_str st;
    if (!src || src > pcol_rows(x->f, PCOL_T_SOURCES) ||
        pcol_string(x->f, pcol_view_u32(&stype, src - 1), &st, x->err) || !pcol_str_is(st, PCOL_SRC_COLLAPSED))
      continue;
    x->text_of[s - 1] = pcol_view_u32(&txt, i);
  }
  return PCOL_OK;
}

static int write_lines(cexp *x, FILE *out) {
  char a[64], b[64];
  for (size_t i = 0; i < x->ne; i++) {
    centry *e = &x->e[i];
    if (!e->nsamples) continue;
    if (e->nsamples == 1 && !e->partial && !x->named && x->text_of && x->text_of[e->first_row]) {
      pcol_str t;
      int rc = pcol_string(x->f, x->text_of[e->first_row], &t, x->err);
      if (rc) return rc;
      if (t.ptr && (fwrite(t.ptr, 1, t.len, out) != t.len || fputc('\n', out) == EOF)) goto io;
      continue;
    }
    if (e->decimal) render_nano(a, sizeof a, e->a1), render_nano(b, sizeof b, e->a2);
    else render_nano(a, sizeof a, e->a1 / NANO_I * NANO_I), render_nano(b, sizeof b, e->a2 / NANO_I * NANO_I);
    if (fwrite(x->arena.data + e->off, 1, e->len, out) != e->len) goto io;
    if (x->any_diff ? fprintf(out, " %s %s\n", a, b) < 0 : fprintf(out, " %s\n", b) < 0) goto io;
  }
  return PCOL_OK;
io:
  return pcol_error_set(x->err, PCOL_EIO, "write error");
}

int pcol_export_collapsed(pcol_file *f, const pcol_select *sel, const pcol_value_sel *value,
                          FILE *out, pcol_error *err) {
  cexp x = {0};
  x.f = f;
  x.err = err;
  const pcol_column_req cols[] = {
      {&x.s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},   {&x.s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},
      {&x.s_w, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},     {&x.s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
      {&x.v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},     {&x.v_val, PCOL_T_VALUES, PCOL_C_V_VALUE}};
  int rc = pcol_columns(f, cols, PCOL_NCOLS(cols), err);
  if (!rc) rc = pcol_frames_init(&x.fr, f, err);
  if (!rc && value) {
    if (value->vt_id == PCOL_VT_RPROF_ALLOC)
      rc = pcol_error_set(err, PCOL_EINVAL, "value '%s' is not available for collapsed export; "
                          "use `pcol fold --value %s`", PCOL_VALUE_RPROF_ALLOC, PCOL_VALUE_RPROF_ALLOC);
    else if (value->vt_id > pcol_rows(f, PCOL_T_VALUE_TYPES))
      rc = pcol_error_set(err, PCOL_EINVAL, "value type %u does not exist", value->vt_id);
    x.named = 1;
    x.want_vt = value->vt_id;
  }
  if (!rc) rc = classify_value_types(&x);
  if (!rc) rc = load_texts(&x);
  if (!rc && !(x.memo = calloc(pcol_rows(f, PCOL_T_STACKS) + 1, sizeof *x.memo))) rc = pcol_oom(err);
  if (!rc) rc = pcol_select_iter(f, sel, add_sample, &x, err);
  if (!rc) rc = write_lines(&x, out);
  if (!rc && fflush(out)) rc = pcol_error_set(err, PCOL_EIO, "write error");
  free(x.vtcls);
  free(x.memo);
  free(x.e);
  free(x.locs);
  free(x.text_of);
  pcol_buf_free(&x.arena);
  pcol_buf_free(&x.scratch);
  pcol_hset_free(&x.set);
  return rc;
}
