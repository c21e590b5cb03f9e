/* collapsed_export.c — pcol samples out as collapsed ("folded") stacks.
 *
 * One line per distinct rendered stack, in order of first appearance among
 * the selected samples, values summed.  Frames are named by THE
 * frame-naming rule of lib/core/frames.h (pcol_frame_line_name,
 * pcol_frame_unsymbolized_name) and sanitized for ';'-separated text
 * (pcol_frame_sanitize), so a frame has the name here that it has in
 * `pcol fold`, top and flame.  The counts are the ones the importer reads
 * (collapsed.h); doc/mappings.md §4.2 has the rules.
 *
 * Streamed: the text of a stack is never held.  Each distinct frame name is
 * kept once (names), and a stack's text is a path in a tree of text nodes
 * (a node = its parent's text, ';', one name), so two stacks whose texts are
 * equal reach the same node however they were stored.  Each stack node is
 * resolved once, from its parent's text node, so the work is linear in the
 * file; a line is rendered only when it is written, under the export budget
 * (stream.h, pcol_budget), which also counts the names and nodes held. */
#include "collapsed.h"
#include "frames.h"
#include "keys.h"     /* PCOL_SRC_COLLAPSED, PCOL_VALUE_RPROF_ALLOC, COLLAPSED_UNIT_COUNT, ... */
#include "error.h"    /* pcol_oom, pcol_write_error */
#include "bytes.h"    /* pcol_str_is */
#include "buf.h"      /* PCOL_GROW, pcol_buf_free, pcol_buf, ... */
#include "hash.h"     /* pcol_hset, pcol_hset_find, pcol_hset_free, ... */
#include "select.h"   /* pcol_sample_cols */
#include "stream.h"   /* pcol_budget_hold, pcol_budget, pcol_budget_close, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "xvalues.h"  /* pcol_rtime_drop_init, pcol_rtime_pick_init, pcol_xvalues_init, ... */
#include "count.h"    /* pcol_sample_count, pcol_sample_value_rt, pcol_unit_decimals, ... */
#include "loss.h"     /* pcol_export_loss_note, pcol_export_say */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct centry {
  uint32_t tn;         /* text node of the line (0 = the empty text) */
  __int128 a1, a2;     /* before (diff) / amount, in nano-units */
  uint64_t first_row;  /* sample_text of a one-sample line */
  uint32_t nsamples;
  uint8_t decimal, diff, partial;
} centry;

typedef struct cname {
  const char *ptr;     /* into the file, or NULL: names.data + off */
  size_t off, len;
} cname;

typedef struct tnode {
  uint32_t parent, name; /* text node (0 = root), name id (1-based) */
} tnode;

/* memory charged to the budget per text node and per name: the entry,
 * its hash slot (two arrays at up to 3/4 load) and the maps that index it */
#define TNODE_COST (sizeof(tnode) + 2 * (sizeof(uint32_t) + sizeof(uint64_t)) + sizeof(uint32_t))
#define NAME_COST (sizeof(cname) + 2 * (sizeof(uint32_t) + sizeof(uint64_t)))

typedef struct cexp {
  pcol_file *f;
  pcol_error *err;
  pcol_budget *bud;
  pcol_view s_src, s_stack, s_w, s_voff, v_type, v_val, st_par, st_loc;
  pcol_frames fr;      /* the frame-naming rule */
  pcol_buf scratch, sane;
  uint8_t *vtcls;      /* per value type: 1 count/1e-9, 2 before/count, 3 after/count, 4 before/1e-9, 5 after/1e-9 */
  uint8_t *vtdec;      /* per value type: D of its unit "1e-D [U]" (pcol_unit_decimals), else 0 */
  uint32_t want_vt;    /* named value: its id (0 = weight) */
  pcol_rtime rt;       /* the time rule, for a named value */
  uint32_t alloc_vt[PCOL_RALLOC_NTYPES]; /* --value rprof.alloc: its levels' types (xvalues.c) */
  uint32_t *dflt;      /* per source: the default value type (0: the count rule;
                        * always 0 for collapsed sources, whose counts round-trip) */
  uint32_t *cvt;       /* per source: its count type (THE count rule, pcol_count_types) */
  uint8_t *skip;       /* per source: not written (it lacks the stated default it is
                        * counted by: counted_defaults), NULL: none */
  int named, named_dec; /* named_dec: D of the named value's unit "1e-D [U]" (0: none) */
  int based;           /* a base is subtracted (pcol_base_kinds): a stack whose counts cancel
                        * out is no line, as in fold */
  /* frame names, each distinct text once */
  cname *names;
  size_t nnames, capnames;
  pcol_buf name_bytes;
  pcol_hset name_set;
  uint32_t *name_of_sid, *name_of_line, *name_of_loc; /* name id, 0 = not yet */
  /* the text tree */
  tnode *tn;           /* tn[i - 1] = text node i */
  size_t ntn, captn;
  pcol_hset tn_set;
  uint32_t *memo;      /* stack id -> text node, 0 = not yet (a stack node has >= 1 frame) */
  uint32_t *chain;     /* stack nodes being resolved / text nodes of a line */
  size_t nchain, capchain;
  uint32_t *entry_of;  /* text node -> entry + 1 (capacity: captn + 1) */
  size_t cap_entry_of;
  centry *e;
  size_t ne, cape;
  uint32_t *text_of;   /* sample row -> sample_text string id */
  int any_diff;
} cexp;

/* THE scale rule of collapsed text (as fold's, pcol_value_text): a value
 * whose unit is "1e-D [U]" (pcol_unit_decimals) holds the number x 10^D, so
 * it is written as value / 10^D; the exporter sums in nano-units (10^-9). */
static int64_t nano_per_unit(int d) {
  int64_t f = 1;
  for (int k = d; k < 9; k++) f *= 10;
  return f;
}

static const char *name_ptr(const cexp *x, const cname *n) {
  return n->ptr ? n->ptr : (const char *)x->name_bytes.data + n->off;
}

static int name_eq(const void *ctx, uint32_t id, const void *key) {
  const cexp *x = ctx;
  const cname *k = key, *n = &x->names[id - 1];
  return n->len == k->len && (!k->len || !memcmp(name_ptr(x, n), k->ptr, k->len));
}

/* The id of a name's text (after sanitizing), interning it on first sight.
 * A name borrowed from the file (stable) is kept by pointer when it needs no
 * change; any other is copied. */
static int intern_name(cexp *x, pcol_str s, int stable, uint32_t *out) {
  const char *p = s.ptr ? s.ptr : "";
  size_t n = s.ptr ? s.len : 0;
  int dirty = 0;
  for (size_t i = 0; i < n && !dirty; i++) dirty = p[i] == ';' || p[i] == '\n' || p[i] == '\r' || !p[i];
  if (dirty) {
    x->sane.len = 0;
    if (pcol_buf_append(&x->sane, p, n)) return pcol_oom(x->err);
    pcol_frame_sanitize((char *)x->sane.data, n);
    p = (const char *)x->sane.data;
  }
  uint64_t h = pcol_hash_keyed(p, n);
  cname k = {p, 0, n};
  uint32_t id = pcol_hset_find(&x->name_set, h, name_eq, x, &k);
  if (!id) {
    int copy = dirty || !stable;
    int rc = pcol_budget_hold(x->bud, NAME_COST + (copy ? n : 0), x->err);
    if (rc) return rc;
    if (x->nnames >= UINT32_MAX - 1)
      return pcol_error_set(x->err, PCOL_ETOOBIG, "collapsed export: too many frame names");
    if (PCOL_GROW(x->names, x->nnames, x->capnames)) return pcol_oom(x->err);
    cname c = {p, 0, n};
    if (copy) { /* a sanitized or composed name */
      c.ptr = NULL;
      c.off = x->name_bytes.len;
      if (pcol_buf_append(&x->name_bytes, p, n)) return pcol_oom(x->err);
    }
    x->names[x->nnames++] = c;
    id = (uint32_t)x->nnames;
    if (pcol_hset_insert(&x->name_set, h, id)) return pcol_oom(x->err);
  }
  *out = id;
  return PCOL_OK;
}

/* Name id of line row li (cached per line row, and per string for names of
 * functions, so each name's bytes are looked at once). */
static int line_name(cexp *x, uint64_t li, uint32_t *out) {
  if (x->name_of_line[li]) {
    *out = x->name_of_line[li];
    return PCOL_OK;
  }
  uint32_t fn = pcol_frames_fn(&x->fr, li);
  uint32_t sid = fn ? pcol_view_u32(&x->fr.fn_name, fn - 1) : 0;
  int rc;
  if (sid && sid < pcol_string_count(x->f) && x->name_of_sid[sid]) {
    *out = x->name_of_sid[sid];
  } else {
    pcol_str name;
    int by_function;
    if ((rc = pcol_frame_line_name(&x->fr, li, &x->scratch, &name, &by_function, x->err))) return rc;
    /* a composed name ("FILE:LINE") is made per line row: count it */
    if (!by_function && (rc = pcol_budget_hold(x->bud, name.len, x->err))) return rc;
    if ((rc = intern_name(x, name, by_function, out))) return rc;
    if (by_function && sid < pcol_string_count(x->f)) x->name_of_sid[sid] = *out;
  }
  x->name_of_line[li] = *out;
  return PCOL_OK;
}

static int tn_eq(const void *ctx, uint32_t id, const void *key) {
  const cexp *x = ctx;
  const tnode *k = key, *t = &x->tn[id - 1];
  return t->parent == k->parent && t->name == k->name;
}

/* The text node "text of parent;name" (or "name" under the root). */
static int child(cexp *x, uint32_t parent, uint32_t name, uint32_t *out) {
  tnode k = {parent, name};
  uint64_t h = pcol_hash2(0x7e, parent, name);
  uint32_t id = pcol_hset_find(&x->tn_set, h, tn_eq, x, &k);
  if (!id) {
    int rc = pcol_budget_hold(x->bud, TNODE_COST, x->err);
    if (rc) return rc;
    if (x->ntn >= UINT32_MAX - 1)
      return pcol_error_set(x->err, PCOL_ETOOBIG, "collapsed export: too many distinct stacks");
    if (PCOL_GROW(x->tn, x->ntn, x->captn)) return pcol_oom(x->err);
    x->tn[x->ntn++] = k;
    id = (uint32_t)x->ntn;
    if (pcol_hset_insert(&x->tn_set, h, id)) return pcol_oom(x->err);
  }
  *out = id;
  return PCOL_OK;
}

/* The text node of stack node `node` (its parent's, then its location's
 * frames, outermost inline line first). */
static int extend(cexp *x, uint32_t t, uint32_t node, uint32_t *out) {
  uint32_t loc = pcol_view_u32(&x->st_loc, node - 1), name;
  uint64_t lo, hi;
  int rc;
  pcol_frames_lines(&x->fr, loc, &lo, &hi);
  if (lo == hi) {
    if (!(loc && loc <= x->fr.nloc && (name = x->name_of_loc[loc]))) {
      x->scratch.len = 0;
      if ((rc = pcol_frame_unsymbolized_name(&x->fr, pcol_frames_mapping(&x->fr, loc), &x->scratch,
                                             x->err)))
        return rc;
      pcol_str s = {(const char *)x->scratch.data, x->scratch.len};
      if ((rc = intern_name(x, s, 0, &name))) return rc;
      if (loc && loc <= x->fr.nloc) x->name_of_loc[loc] = name;
    }
    return child(x, t, name, out);
  }
  for (uint64_t l = hi; l-- > lo;) {
    if ((rc = line_name(x, l, &name)) || (rc = child(x, t, name, &t))) return rc;
  }
  *out = t;
  return PCOL_OK;
}

/* The text node of a stack: walks up to a resolved ancestor, then down. */
static int stack_text(cexp *x, uint32_t stack, uint32_t *out) {
  if (stack > pcol_rows(x->f, PCOL_T_STACKS))
    return pcol_error_set(x->err, PCOL_ECORRUPT, "stack id %u is out of range", stack);
  x->nchain = 0;
  uint32_t s = stack;
  while (s && !x->memo[s]) {
    if (PCOL_GROW(x->chain, x->nchain, x->capchain)) return pcol_oom(x->err);
    x->chain[x->nchain++] = s;
    uint32_t par = pcol_view_u32(&x->st_par, s - 1);
    if (par >= s) return pcol_error_set(x->err, PCOL_ECORRUPT, "stack %u has parent %u", s, par);
    s = par;
  }
  uint32_t t = s ? x->memo[s] : 0;
  for (size_t i = x->nchain; i-- > 0;) {
    int rc = extend(x, t, x->chain[i], &t);
    if (rc) return rc;
    x->memo[x->chain[i]] = t;
  }
  /* the text of one empty name is the empty text */
  if (t && !x->tn[t - 1].parent && !x->names[x->tn[t - 1].name - 1].len) t = 0;
  *out = t;
  return PCOL_OK;
}

/* the line entry of a stack (made on first sight) */
static int entry_of(cexp *x, uint32_t stack, uint32_t *out) {
  uint32_t t = 0;
  int rc = stack_text(x, stack, &t);
  if (rc) return rc;
  if (x->cap_entry_of < x->ntn + 1) {
    size_t c = x->captn + 1;
    uint32_t *n = realloc(x->entry_of, c * sizeof *n);
    if (!n) return pcol_oom(x->err);
    memset(n + x->cap_entry_of, 0, (c - x->cap_entry_of) * sizeof *n);
    x->entry_of = n;
    x->cap_entry_of = c;
  }
  if (!x->entry_of[t]) {
    if (PCOL_GROW(x->e, x->ne, x->cape)) return pcol_oom(x->err);
    x->e[x->ne++] = (centry){t, 0, 0, 0, 0, 0, 0, 0};
    x->entry_of[t] = (uint32_t)x->ne;
  }
  *out = x->entry_of[t] - 1;
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
  uint32_t src = pcol_view_u32(&x->s_src, row);
  if (x->skip && src <= pcol_rows(x->f, PCOL_T_SOURCES) && x->skip[src]) return 0;
  if (x->rt.drop.src) { /* THE unit rule's drop, as fold and the pprof export (rd13a F5) */
    pcol_sample_cols dc = {x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(x->f, PCOL_T_VALUES), 0};
    if (pcol_unit_dropped(&x->rt.drop, &dc, row, src)) return 0;
  }
  uint32_t dv = src <= pcol_rows(x->f, PCOL_T_SOURCES) ? x->dflt[src] : 0;
  if (!x->named && dv) { /* another format's source: its default value (§0), as fold */
    pcol_sample_cols sc = {x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(x->f, PCOL_T_VALUES), 0};
    int64_t v;
    /* as fold: a stack whose value is 0 is no line */
    if (!(has = pcol_sample_value_rt(&sc, &x->rt, row, dv, &v)) || !pcol_scale(v, num, den)) return 0;
    int d = dv <= pcol_rows(x->f, PCOL_T_VALUE_TYPES) ? x->vtdec[dv] : 0;
    a2 = (__int128)pcol_scale(v, num, den) * nano_per_unit(d); /* 1e-1 ms: 1.5, as fold */
    dec = d > 0;
  } else if (x->named) { /* the chosen value: the one rule in core (pcol_sample_value) */
    pcol_sample_cols sc = {x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(x->f, PCOL_T_VALUES), 0};
    int64_t v;
    if (x->want_vt == 0) { /* "samples": THE count rule, each source's own count */
      uint32_t s = pcol_view_u32(&x->s_src, row);
      v = pcol_sample_count(&sc, row, s <= pcol_rows(x->f, PCOL_T_SOURCES) ? x->cvt[s] : 0);
      has = 1;
    } else if (x->want_vt == PCOL_VT_RPROF_ALLOC) { /* summaryRprof's memory increase, as fold */
      if (pcol_ralloc_value(&sc, &x->rt, x->alloc_vt, row, &v)) /* THE rule: lib/core/xvalues.c */
        return pcol_error_set(x->err, PCOL_ETOOBIG, "memory increase overflows at sample %llu",
                              (unsigned long long)row + 1);
      has = 1;
    } else if (!(has = pcol_sample_value_rt(&sc, &x->rt, row, x->want_vt, &v))) return 0;
    a2 = (__int128)pcol_scale(v, num, den) * nano_per_unit(x->named_dec); /* count/1e-9: 1.5, as fold */
    dec = x->named_dec > 0;
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
    if (!diff && !single) { /* THE count rule: samples/count of pprof, else the weight */
      pcol_sample_cols sc = {x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(x->f, PCOL_T_VALUES), 0};
      uint32_t s = pcol_view_u32(&x->s_src, row);
      int64_t c = pcol_sample_count(&sc, row, s <= pcol_rows(x->f, PCOL_T_SOURCES) ? x->cvt[s] : 0);
      a2 = (__int128)pcol_scale(c, num, den) * NANO_I;
    }
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
  x->vtdec = calloc(n + 1, 1);
  if (!x->vtcls || !x->vtdec) return pcol_oom(x->err);
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
    x->vtdec[i + 1] = (uint8_t)pcol_unit_decimals(us, NULL);
  }
  return PCOL_OK;
}

/* x->dflt: THE default value type of each source (lib/core/count.c), but 0
 * for collapsed sources (their own counts, written back as read) */
static int default_types(cexp *x) {
  uint64_t ns = pcol_rows(x->f, PCOL_T_SOURCES);
  pcol_view st;
  int rc = pcol_column(x->f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &st, x->err);
  if (rc) return rc;
  if (!(x->dflt = calloc(ns + 1, sizeof *x->dflt))) return pcol_oom(x->err);
  if (ns && (rc = pcol_source_default_types(x->f, 1, (uint32_t)ns, x->dflt + 1, x->err))) return rc;
  for (uint64_t s = 1; s <= ns; s++) {
    pcol_str t;
    if ((rc = pcol_string(x->f, pcol_view_u32(&st, s - 1), &t, x->err))) return rc;
    if (pcol_str_is(t, PCOL_SRC_COLLAPSED)) x->dflt[s] = 0;
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

/* Writes the text of text node t: its names root first, ';' between.  A
 * line that cannot fit in what is left of the budget is refused unwritten. */
static int write_text(cexp *x, uint32_t t, FILE *out) {
  uint64_t len = 0;
  x->nchain = 0;
  for (; t; t = x->tn[t - 1].parent) {
    if (PCOL_GROW(x->chain, x->nchain, x->capchain)) return pcol_oom(x->err);
    x->chain[x->nchain++] = t;
    len += x->names[x->tn[t - 1].name - 1].len + 1;
  }
  if (pcol_budget_exceeded(x->bud, len)) return pcol_budget_refuse(x->bud, x->err);
  for (size_t i = x->nchain; i-- > 0;) {
    const cname *n = &x->names[x->tn[x->chain[i] - 1].name - 1];
    if ((i + 1 < x->nchain && fputc(';', out) == EOF) ||
        (n->len && fwrite(name_ptr(x, n), 1, n->len, out) != n->len))
      return PCOL_EIO;
  }
  return PCOL_OK;
}

/* Whether the file written will have a count with decimals: then a reader
 * holds every count in nano-units (collapsed.h, collapsed_count_readable). */
static int any_fraction(const cexp *x) {
  for (size_t i = 0; i < x->ne; i++) {
    const centry *e = &x->e[i];
    if (e->nsamples && e->decimal && (e->a1 % NANO_I || e->a2 % NANO_I)) return 1;
  }
  return 0;
}

static int write_lines(cexp *x, FILE *out) {
  char a[64], b[64];
  int frac = any_fraction(x);
  for (size_t i = 0; i < x->ne; i++) {
    centry *e = &x->e[i];
    if (!e->nsamples) continue;
    uint32_t src = pcol_view_u32(&x->s_src, e->first_row);
    if (!x->any_diff && e->a2 == 0 && (x->based || (src <= pcol_rows(x->f, PCOL_T_SOURCES) && x->dflt[src])))
      continue; /* another format's stack, or one of a base, whose values cancel out: no line, as fold */
    if (e->nsamples == 1 && !e->partial && !x->named && x->text_of && x->text_of[e->first_row]) {
      pcol_str t;
      int rc = pcol_string(x->f, x->text_of[e->first_row], &t, x->err);
      if (rc) return rc;
      if (t.ptr && (fwrite(t.ptr, 1, t.len, out) != t.len || fputc('\n', out) == EOF)) goto io;
      continue;
    }
    __int128 v1 = e->decimal ? e->a1 : e->a1 / NANO_I * NANO_I, v2 = e->decimal ? e->a2 : e->a2 / NANO_I * NANO_I;
    render_nano(a, sizeof a, v1), render_nano(b, sizeof b, v2);
    if (!collapsed_count_readable(v1, frac) || !collapsed_count_readable(v2, frac))
      return pcol_error_set(x->err, PCOL_ETOOBIG,
                            "collapsed export: a stack's count (%s) is larger than collapsed stacks hold "
                            "(at most 9223372036854775807, or 9223372036.854775807 when any count has "
                            "decimals: readers keep 64 bits); export to pprof or perun instead, or choose "
                            "another --value", x->any_diff && !collapsed_count_readable(v1, frac) ? a : b);
    int rc = write_text(x, e->tn, out);
    if (rc == PCOL_EIO) goto io;
    if (rc) return rc;
    if (x->any_diff ? fprintf(out, " %s %s\n", a, b) < 0 : fprintf(out, " %s\n", b) < 0) goto io;
  }
  return PCOL_OK;
io:
  return pcol_write_error(x->err, x->bud->werrno, "collapsed export");
}

/* Whether source s counts its samples: it declares samples/count (pprof's;
 * the V8, Chrome, JFR, Perfetto, Tachyon and perf importers'), or it is an
 * Rprof source, whose ticks THE time rule derives its time from. */
static int counts_samples(const cexp *x, uint32_t s) {
  return s <= pcol_rows(x->f, PCOL_T_SOURCES) &&
         (pcol_count_vt(x->cvt[s]) || (x->rt.last_ns && s <= x->rt.nsources && x->rt.last_ns[s] > 0));
}

/* the type and unit of value type vt (empty when damaged) */
static void type_text(cexp *x, uint32_t vt, pcol_str *t, pcol_str *u) {
  pcol_view ty, un;
  *t = *u = (pcol_str){0};
  if (!vt || vt > pcol_rows(x->f, PCOL_T_VALUE_TYPES) ||
      pcol_column(x->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, NULL) ||
      pcol_column(x->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, NULL) ||
      pcol_string(x->f, pcol_view_u32(&ty, vt - 1), t, NULL) || pcol_string(x->f, pcol_view_u32(&un, vt - 1), u, NULL))
    *t = *u = (pcol_str){0};
}

/* A unit no collapsed reader takes for a count: a time, bytes, ... (not
 * "count", a collapsed decimal count "1e-9", nor none) */
static int not_a_count(pcol_str u) {
  return u.len && !pcol_str_is(u, COLLAPSED_UNIT_COUNT) && !pcol_str_is(u, COLLAPSED_UNIT_NANO);
}

static void note_unit(const pcol_export_options *opt, pcol_str t, pcol_str u, const char *why) {
  if (!pcol_export_heard(opt)) return;
  char n[400];
  int tl = (int)(t.len > 60 ? 60 : t.len), ul = (int)(u.len > 40 ? 40 : u.len);
  snprintf(n, sizeof n,
           "the numbers written are %.*s in %.*s (%s), not sample counts, which collapsed stacks' "
           "readers take them for (flamegraph.pl's \"samples\", speedscope, pcol's importer)",
           tl, t.ptr ? t.ptr : "", ul, u.ptr ? u.ptr : "", why);
  pcol_export_say(opt, PCOL_EXPORT_DATA, n);
}

/* THE collapsed count (review 19 F1): a collapsed file's number is a count
 * of samples to every reader (flamegraph.pl prints "N samples";
 * FlameGraph's stackcollapse scripts write "an occurrence count", and
 * stackcollapse-go.pl refuses a profile of several types unless one is
 * named; speedscope and pcol's importer read a count).  So, with no value
 * named, a source that counts its samples (pprof's samples/count, Rprof's
 * ticks) is written by its count, not by its default time: an Rprof
 * profile's cpu nanoseconds written as counts read back as 240 million
 * samples, and as 7.9 GB of Rprof.  A source that counts none (a heap or
 * contention profile, Perun amounts, a Firefox profile's cpu) keeps its
 * default value, as does a named --value: then one note says the unit. */
static int counted_defaults(cexp *x, const pcol_value_sel *value, const pcol_export_options *opt) {
  pcol_str t, u;
  if (value) {
    if (value->vt_id && value->vt_id != PCOL_VT_WEIGHT && not_a_count(value->unit))
      note_unit(opt, value->type, value->unit, "--value");
    return PCOL_OK;
  }
  uint64_t ns = pcol_rows(x->f, PCOL_T_SOURCES);
  if (x->named) { /* the defaults differ: counts (1), or the stated one (2) */
    if (!x->want_vt) return PCOL_OK;
    /* a stated default (a JFR recording's cpu): the counts of the sources
     * that have it, when they all count their samples; the others count 0
     * there, as the CLI warns, so their samples are not written */
    uint32_t want = x->want_vt;
    int all = 1, rc;
    if (!(x->skip = calloc(ns + 1, 1))) return pcol_oom(x->err);
    if ((rc = pcol_sources_having(x->f, want, &want, 1, x->skip, x->err))) return rc;
    for (uint32_t s = 1; s <= ns; s++) all &= !x->skip[s] || counts_samples(x, s);
    for (uint32_t s = 1; s <= ns; s++) x->skip[s] = !x->skip[s];
    if (all) x->want_vt = 0, x->named_dec = 0;
    else {
      free(x->skip), x->skip = NULL;
      type_text(x, want, &t, &u);
      if (not_a_count(u)) note_unit(opt, t, u, "the sources' stated default");
    }
    return PCOL_OK;
  }
  uint32_t kept = 0;
  for (uint32_t s = 1; s <= ns; s++) {
    if (!x->dflt[s]) continue;
    if (counts_samples(x, s)) x->dflt[s] = 0; /* the count rule (add_sample) */
    else if (!kept) kept = x->dflt[s];
  }
  if (kept) {
    type_text(x, kept, &t, &u);
    if (not_a_count(u)) note_unit(opt, t, u, "the default value of a source that counts no samples; "
                                             "--value samples writes counts");
  }
  return PCOL_OK;
}

int pcol_export_collapsed_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                              const pcol_export_options *opt, pcol_error *err) {
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  const pcol_value_sel *value = opt ? opt->value : NULL;
  pcol_budget bud;
  cexp x = {0};
  x.f = f;
  x.err = err;
  x.bud = &bud;
  int rc = pcol_budget_open(&bud, f, opt, "collapsed export", out, err);
  if (rc) return rc;
  const pcol_column_req cols[] = {
      {&x.s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},   {&x.s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},
      {&x.s_w, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},     {&x.s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
      {&x.v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},     {&x.v_val, PCOL_T_VALUES, PCOL_C_V_VALUE},
      {&x.st_par, PCOL_T_STACKS, PCOL_C_STACK_PARENT}, {&x.st_loc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION}};
  rc = pcol_columns(f, cols, PCOL_NCOLS(cols), err);
  if (!rc) rc = pcol_frames_init(&x.fr, f, err);
  /* a pprof source's nameless line is "<unknown>", an Rprof one's a place (frames.h) */
  pcol_nameless_rule rule = {0};
  if (!rc && !(rc = pcol_nameless_rule_make(f, sel, &rule, err))) x.fr.rule = &rule;
  if (!rc && value) {
    if (value->vt_id > pcol_rows(f, PCOL_T_VALUE_TYPES) && value->vt_id != PCOL_VT_TIME &&
             value->vt_id != PCOL_VT_WEIGHT && value->vt_id != PCOL_VT_RPROF_ALLOC)
      rc = pcol_error_set(err, PCOL_EINVAL, "value type %u does not exist", value->vt_id);
    x.named = 1;
    x.named_dec = value->vt_id && value->vt_id != PCOL_VT_WEIGHT ? pcol_unit_decimals(value->unit, NULL) : 0;
    x.want_vt = value->vt_id;
  }
  uint32_t chosen = 0;
  int differ = 0;
  if (!rc && !value) {
    /* no value named: fold's default (one rule, in core); sources whose
     * defaults differ are counted, each by its own count, as fold does */
    rc = pcol_selection_default_type(f, sel, &chosen, &differ, err);
    if (!rc && differ == 1) x.named = 1, x.want_vt = 0, x.named_dec = 0;
    else if (!rc && differ) { /* the sources' stated default (a JFR recording's cpu) */
      pcol_view un;
      pcol_str u = {0};
      rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err);
      if (!rc) rc = pcol_string(f, pcol_view_u32(&un, chosen - 1), &u, err);
      x.named = 1, x.want_vt = chosen, x.named_dec = pcol_unit_decimals(u, NULL);
    }
  }
  if (!rc) rc = pcol_rtime_init(&x.rt, f, err); /* Rprof's time (--value cpu) */
  if (!rc) rc = pcol_rtime_drop_init(&x.rt, f, sel, err); /* (kin only) */
  if (!rc && x.want_vt == PCOL_VT_RPROF_ALLOC) { /* the memory levels it derives from */
    pcol_xvalues xv;
    rc = pcol_xvalues_init(&xv, f, &x.rt, err);
    if (!rc) memcpy(x.alloc_vt, xv.alloc_vt, sizeof x.alloc_vt);
  }
  /* a type of kin read by its column, as the views (rd13a F2) */
  uint32_t kcol = value ? value->column : 0;
  if (!rc && !value && !differ && chosen) rc = pcol_kin_default_column(f, sel, chosen, &kcol, err);
  if (!rc) rc = pcol_rtime_pick_init(&x.rt, f, value ? value->vt_id : chosen, kcol, err);
  if (!rc) rc = default_types(&x);
  /* defaults that agree as kin (the unit rule: bytes and kilobytes) are
   * all read as the one chosen, the finest, the coarser scaled into it */
  for (uint64_t s = 1; !rc && !value && !differ && chosen && chosen <= pcol_rows(f, PCOL_T_VALUE_TYPES) &&
                       s <= pcol_rows(f, PCOL_T_SOURCES); s++)
    if (x.dflt[s] && x.dflt[s] <= pcol_rows(f, PCOL_T_VALUE_TYPES)) x.dflt[s] = chosen;
  if (!rc) rc = classify_value_types(&x);
  if (!rc) rc = pcol_count_types(f, &x.cvt, err);
  const uint8_t *kinds = NULL;
  if (!rc) rc = pcol_base_kinds(f, &kinds, err);
  if (!rc) x.based = kinds[0] != 0;
  if (!rc) rc = counted_defaults(&x, value, opt);
  if (!rc) rc = load_texts(&x);
  if (!rc) {
    x.memo = calloc(pcol_rows(f, PCOL_T_STACKS) + 1, sizeof *x.memo);
    x.name_of_sid = calloc(pcol_string_count(f) + 1, sizeof *x.name_of_sid);
    x.name_of_line = calloc(x.fr.nlines + 1, sizeof *x.name_of_line);
    x.name_of_loc = calloc(x.fr.nloc + 1, sizeof *x.name_of_loc);
    if (!x.memo || !x.name_of_sid || !x.name_of_line || !x.name_of_loc) rc = pcol_oom(err);
  }
  if (!rc) rc = pcol_select_iter(f, sel, add_sample, &x, err);
  if (!rc) rc = write_lines(&x, bud.fp);
  rc = pcol_budget_close(&bud, rc, err);
  /* the labels and values it cannot hold, beside what each source wrote
   * (its count, counted_defaults; else its default, or the stated one) */
  if (!rc && x.named) {
    uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
    for (uint64_t s = 1; s <= ns; s++) x.dflt[s] = x.want_vt;
  }
  if (!rc) pcol_export_loss_note(f, sel, PCOL_FMT_COLLAPSED, 0, opt, x.dflt);
  free(x.vtcls);
  free(x.vtdec);
  free(x.cvt);
  free(x.skip);
  free(x.dflt);
  pcol_rtime_free(&x.rt);
  pcol_nameless_rule_free(&rule);
  free(x.memo);
  free(x.e);
  free(x.chain);
  free(x.text_of);
  free(x.names);
  free(x.name_of_sid);
  free(x.name_of_line);
  free(x.name_of_loc);
  free(x.tn);
  free(x.entry_of);
  pcol_buf_free(&x.name_bytes);
  pcol_buf_free(&x.scratch);
  pcol_buf_free(&x.sane);
  pcol_hset_free(&x.name_set);
  pcol_hset_free(&x.tn_set);
  return rc;
}

int pcol_export_collapsed(pcol_file *f, const pcol_select *sel, const pcol_value_sel *value,
                          FILE *out, pcol_error *err) {
  pcol_export_options o = {.value = value};
  return pcol_export_collapsed_opt(f, sel, out, &o, err);
}
