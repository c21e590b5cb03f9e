/* perun_import.c — Perun profiles (.perf, JSON) into a pcol builder: what
 * each event becomes (perun_doc.c finds the events in the text).
 *
 * Written from the file format only (doc/mappings.md §3.1 has the exact
 * mapping, which pcol_export_perun inverts).  In short: one Perun resource
 * event becomes one sample; `amount` becomes a sample value; `trace` (or a
 * string `uid`) becomes the stack; every other key of the event becomes a
 * label; the rest of the file is kept as JSON text in `meta` under
 * "perun.<key>" so that the exporter can give back the same JSON value. */
#include "perun.h"
#include "keys.h"     /* PERUN_LABEL_TRACE, PCOL_SRC_PERUN, PERUN_LABEL_AMOUNT, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK */
#include "count.h"    /* pcol_decimals_for, pcol_decimal_kept, pcol_g_text */
#include "json_scan.h" /* pcol_js_line_col */
#include "buf.h"      /* PCOL_GROW, pcol_buf, pcol_buf_append, ... */
#include "hash.h"     /* pcol_hash_keyed, pcol_hset_find, pcol_hset_free, ... */
#include "instream.h" /* pcol_input_cap */
#include "stream.h"   /* pcol_capped, pcol_capped_stream */
#include "rowsort.h"  /* pcol_rowsort: the sample rows by time */
#include "read_all.h" /* pcol_input: a stream's copy, mapped past PERUN_SPILL_AT */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stream's text past this many bytes is copied into a mapped temporary
 * file, not the heap (pcol_import_perun). */
#define PERUN_SPILL_AT ((size_t)8 << 20)

/* ---------------------------------------------------------- value types */

static int value_type(pimp *p, const char *subtype, uint32_t *out) {
  json_t *hit = subtype ? json_object_get(p->vt_by_subtype, subtype) : NULL;
  if (hit || (!subtype && p->vt_no_subtype)) {
    *out = hit ? (uint32_t)json_integer_value(hit) : p->vt_no_subtype;
    return PCOL_OK;
  }
  /* header.units is keyed by "type(subtype)" (trace), "type" (memory), or has
   * just one entry. */
  const char *tname = NULL, *unit = NULL;
  char *tsub = NULL; /* "type(subtype)" */
  if (json_is_object(p->units)) {
    json_t *u = NULL;
    if (p->htype && subtype) {
      size_t tl = strlen(p->htype), sl = strlen(subtype);
      if (!(tsub = malloc(tl + sl + 3))) return perun_oom(p);
      snprintf(tsub, tl + sl + 3, "%s(%s)", p->htype, subtype);
      if ((u = json_object_get(p->units, tsub))) tname = tsub;
    }
    if (!u && p->htype && (u = json_object_get(p->units, p->htype))) tname = p->htype;
    if (!u && json_object_size(p->units) == 1) {
      const char *key;
      json_t *val;
      json_object_foreach(p->units, key, val) {
        tname = key;
        u = val;
      }
    }
    if (u && perun_json_is_str(u)) unit = json_string_value(u);
  }
  if (!tname) tname = p->htype ? p->htype : "amount";
  /* kperf's amounts in its own unit "sample" (or none) are counts of
   * samples, header.type "time" or not (Perun's kperf collector writes
   * {"type": "time", "units": {"time": "sample"}}): pcol's count,
   * samples/count, so that a view of it says Type: samples and counts, as
   * of the profile it was made from (a Perun copy of an eBPF profile's
   * counts read back as Type: time, unit "sample") */
  if (p->kperf_counts && !p->real_amounts) tname = PCOL_VT_SAMPLES, unit = PCOL_UNIT_COUNT;
  char ubuf[128];
  if (p->real_amounts && p->amount_k != 9) { /* stored x 10^k: "1e-k U" */
    if (unit) snprintf(ubuf, sizeof ubuf, "1e-%d %s", p->amount_k, unit);
    else snprintf(ubuf, sizeof ubuf, "1e-%d", p->amount_k);
    unit = p->amount_k ? ubuf : unit;
  } else if (p->real_amounts) {
    /* amounts are stored as integers scaled by 1e9 */
    if (!unit) unit = "1e-9";
    else if (!strcmp(unit, "s")) unit = "ns";
    else if (!strcmp(unit, "ms")) unit = "ps";
    else if (!strcmp(unit, "us")) unit = "fs";
    else {
      snprintf(ubuf, sizeof ubuf, "1e-9 %s", unit);
      unit = ubuf;
    }
  }
  uint32_t ts, us = 0;
  int rc = pcol_b_cstr(p->b, tname, &ts, p->err);
  if (!rc && unit) rc = pcol_b_cstr(p->b, unit, &us, p->err);
  if (!rc) rc = pcol_b_value_type(p->b, ts, us, out, p->err);
  pcol_kept_tally *t = rc ? NULL : pcol_kept_at(&p->kept, &p->nkept, *out);
  if (t) snprintf(t->type, sizeof t->type, "%s", tname); /* (the kept rule's warning names it) */
  free(tsub);
  if (rc) return perun_b(p, rc);
  if (!t) return perun_oom(p);
  /* several subtypes may share one value type: declare it once */
  if (*out >= p->nvt_declared) {
    size_t n = (size_t)*out + 64;
    uint8_t *d = realloc(p->vt_declared, n);
    if (!d) return perun_oom(p);
    memset(d + p->nvt_declared, 0, n - p->nvt_declared);
    p->vt_declared = d;
    p->nvt_declared = n;
  }
  if (!p->vt_declared[*out]) {
    PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_source_value_type(p->b, p->src, *out, p->err)));
    p->vt_declared[*out] = 1;
  }
  if (!subtype) p->vt_no_subtype = *out;
  else if (json_object_set_new(p->vt_by_subtype, subtype, json_integer(*out))) return perun_oom(p);
  return PCOL_OK;
}

/* ------------------------------------------------------------- labels */

static int push_label_row(pimp *p, const pcol_label_row *r) {
  if (PCOL_GROW(p->labels, p->nlabels, p->caplabels)) return perun_oom(p);
  p->labels[p->nlabels++] = *r;
  return PCOL_OK;
}

static int push_label(pimp *p, const char *key, uint32_t str, int64_t num, uint32_t unit) {
  pcol_label_row l = {0, str, num, unit};
  PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_cstr(p->b, key, &l.key, p->err)));
  return push_label_row(p, &l);
}

static int label_json_text(pimp *p, const char *key, const json_t *v) {
  char *s = perun_jtext(v);
  if (!s) return perun_oom(p);
  uint32_t sid;
  int rc = pcol_b_string(p->b, s, strlen(s), &sid, p->err);
  free(s);
  if (rc) return perun_b(p, rc);
  return push_label(p, key, sid, 0, p->u_json);
}

/* Strings as str, integers as num, anything else as JSON text (unit "json"). */
static int generic_label(pimp *p, const char *key, const json_t *v) {
  if (perun_json_is_str(v)) {
    uint32_t sid;
    PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_string(p->b, json_string_value(v), json_string_length(v), &sid, p->err)));
    return push_label(p, key, sid, 0, 0);
  }
  if (json_is_integer(v)) return push_label(p, key, 0, (int64_t)json_integer_value(v), 0);
  return label_json_text(p, key, v);
}

/* -------------------------------------------------------------- stacks */

static int push_loc(pimp *p, uint32_t loc) {
  if (PCOL_GROW(p->locs, p->nlocs, p->caplocs)) return perun_oom(p);
  p->locs[p->nlocs++] = loc;
  return PCOL_OK;
}

static int frame_loc(pimp *p, const char *fn, size_t fnlen, const char *file, size_t filelen,
                     int64_t line, uint32_t *loc) {
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  int rc = pcol_b_string(p->b, fn, fnlen, &f.name, p->err);
  if (!rc && file) rc = pcol_b_string(p->b, file, filelen, &f.filename, p->err);
  pcol_line_row l = {0, line, PCOL_NA_I64};
  if (!rc) rc = pcol_b_function(p->b, &f, &l.function_id, p->err);
  if (!rc) rc = pcol_b_location(p->b, 0, 0, 0, &l, 1, loc, p->err);
  return perun_b(p, rc);
}

static const char *jstr(const json_t *o, const char *k, size_t *len) {
  json_t *v = json_object_get(o, k);
  if (!perun_json_is_str(v)) return NULL;
  *len = json_string_length(v);
  return json_string_value(v);
}

/* One trace frame.  *canonical stays 1 only for {function, source, line}
 * (string, string, integer) and {func} (string): the shapes the exporter
 * writes back from the stack alone. */
static int trace_frame(pimp *p, const json_t *fr, int *canonical, uint32_t *loc) {
  size_t fl = 0, sl = 0;
  const char *fn = NULL, *file = NULL;
  int64_t line = PCOL_NA_I64;
  if (json_is_object(fr)) {
    size_t n = json_object_size(fr);
    json_t *ln = json_object_get(fr, "line");
    if ((fn = jstr(fr, "function", &fl))) {
      file = jstr(fr, "source", &sl);
      if (!(n == 3 && file && json_is_integer(ln))) *canonical = 0;
    } else if ((fn = jstr(fr, "func", &fl))) {
      if (n != 1) *canonical = 0;
    } else {
      *canonical = 0;
      fn = jstr(fr, "name", &fl);
    }
    if (!file) file = jstr(fr, "source", &sl);
    if (!file) file = jstr(fr, "file", &sl);
    if (!file) file = jstr(fr, "location", &sl);
    if (json_is_integer(ln)) line = (int64_t)json_integer_value(ln);
  } else {
    *canonical = 0;
    if (perun_json_is_str(fr)) fn = json_string_value(fr), fl = json_string_length(fr);
  }
  if (!fn) {
    char *t = perun_jtext(fr);
    if (!t) return perun_oom(p);
    int rc = frame_loc(p, t, strlen(t), file, sl, line, loc);
    free(t);
    return rc;
  }
  return frame_loc(p, fn, fl, file, sl, line, loc);
}

static int frame_eq(const void *ctx, uint32_t id, const void *key) {
  const pimp *p = ctx;
  const fent *f = &p->fc[id - 1];
  const vslice *q = key;
  return f->e - f->b == q->e - q->b && !memcmp(p->text + f->b, p->text + q->b, q->e - q->b);
}

/* The location of the frame whose text is q (parsed once per distinct text). */
static int frame_at(pimp *p, vslice q, int *canonical, uint32_t *loc) {
  uint64_t h = pcol_hash_keyed(p->text + q.b, q.e - q.b);
  uint32_t id = pcol_hset_find(&p->fch, h, frame_eq, p, &q);
  if (id) {
    *loc = p->fc[id - 1].loc;
    if (!p->fc[id - 1].canonical) *canonical = 0;
    return PCOL_OK;
  }
  json_t *fr;
  int canon = 1, rc = perun_load(p, q.b, q.e, &fr);
  if (rc) return rc;
  rc = trace_frame(p, fr, &canon, loc);
  json_decref(fr);
  if (rc) return rc;
  if (!canon) *canonical = 0;
  if (PCOL_GROW(p->fc, p->nfc, p->capfc)) return perun_oom(p);
  if (p->nfc >= UINT32_MAX - 1) return PCOL_OK; /* cache full: still correct */
  p->fc[p->nfc++] = (fent){q.b, q.e, *loc, canon};
  return pcol_hset_insert(&p->fch, h, (uint32_t)p->nfc) ? perun_oom(p) : PCOL_OK;
}

/* The frames of the list at trace (none if it is not a list). */
static int trace_frames(pimp *p, vslice trace) {
  p->nfr = 0;
  if (p->text[trace.b] != '[') return PCOL_OK;
  pcol_jscan s = perun_cursor_at(p, trace.b);
  pcol_jiter it;
  int more;
  pcol_js_begin(&s, '[', &it);
  while ((more = pcol_js_next(&s, &it, NULL)) == 1) {
    if (PCOL_GROW(p->fr, p->nfr, p->capfr)) return perun_oom(p);
    vslice *f = &p->fr[p->nfr];
    if (pcol_js_value(&s, &f->b, &f->e)) return perun_scan_failed(p, &s);
    f->has = 1;
    p->nfr++;
  }
  return more < 0 ? perun_scan_failed(p, &s) : PCOL_OK;
}

/* Builds p->locs (leaf first) from trace / uid; adds the perun.trace label
 * when the exporter cannot rebuild the trace from the stack. */
static int event_stack(pimp *p, vslice trace, const json_t *uid, uint32_t *stack_id) {
  p->nlocs = 0;
  int rc;
  uint32_t loc;
  if (trace.has) {
    int canonical = p->text[trace.b] == '[';
    if ((rc = trace_frames(p, trace))) return rc;
    size_t n = p->nfr;
    /* kperf: root first without the leaf, which is the string uid, whole:
     * the trace holds the callers, so a ';' in the uid is part of the
     * name (a Java frame "Lcom/example/A;::run"; Perun's kperf collector
     * makes the uid the last frame of a folded line, never a stack) */
    if (p->kperf && perun_json_is_str(uid)) {
      if ((rc = frame_loc(p, json_string_value(uid), json_string_length(uid), NULL, 0, PCOL_NA_I64, &loc)) ||
          (rc = push_loc(p, loc)))
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
      size_t j = p->kperf ? n - 1 - i : i;
      if ((rc = frame_at(p, p->fr[j], &canonical, &loc)) || (rc = push_loc(p, loc))) return rc;
    }
    if (!canonical) {
      json_t *t;
      if ((rc = perun_load(p, trace.b, trace.e, &t))) return rc;
      rc = label_json_text(p, PERUN_LABEL_TRACE, t);
      json_decref(t);
      if (rc) return rc;
    }
  } else {
    if ((rc = push_label(p, PERUN_LABEL_TRACE, 0, 0, p->u_absent))) return rc;
    /* no trace: a string uid is the stack (imported perf: "a;b;leaf") */
    if (perun_json_is_str(uid)) {
      const char *u = json_string_value(uid);
      size_t e = json_string_length(uid);
      for (;;) {
        size_t k = e;
        while (k > 0 && u[k - 1] != ';') k--;
        if ((rc = frame_loc(p, u + k, e - k, NULL, 0, PCOL_NA_I64, &loc)) || (rc = push_loc(p, loc)))
          return rc;
        if (k == 0) break;
        e = k - 1;
      }
    }
  }
  PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_stack_memo(p->b, &p->memo, p->locs, p->nlocs, stack_id, p->err)));
  return PCOL_OK;
}

/* ------------------------------------------------------------- events */

/* What an amount gives (after the first pass: real_amounts is known). */
static int amount_parse(pimp *p, const json_t *a, amount_info *ai) {
  memset(ai, 0, sizeof *ai);
  ai->present = 1;
  if (!p->real_amounts && json_is_integer(a)) {
    ai->v = (int64_t)json_integer_value(a);
    ai->has = ai->exact = 1;
  } else if (json_is_number(a)) {
    double scale = p->real_amounts ? pow(10, p->amount_k) : 1.0;
    double d = (ai->w = json_number_value(a)) * scale;
    if (isfinite(d) && fabs(d) < 9.2e18) {
      ai->v = llround(d);
      ai->has = 1;
      ai->exact = p->real_amounts && json_is_real(a) && (double)ai->v / scale == json_real_value(a);
    }
  }
  /* kperf amounts are sample counts (in kperf's unit "sample") */
  /* (the count as written: v is it times 10^K in a file of real amounts) */
  ai->weight = ai->has && p->kperf_counts && json_is_integer(a) && json_integer_value(a) >= 0;
  if (ai->weight) ai->n = (int64_t)json_integer_value(a);
  if (!ai->exact) {
    char *t = perun_jtext(a);
    if (!t) return perun_oom(p);
    int rc = pcol_b_string(p->b, t, strlen(t), &ai->text_sid, p->err);
    free(t);
    if (rc) return perun_b(p, rc);
  }
  return PCOL_OK;
}

static int amount_apply(pimp *p, const amount_info *ai, const char *subtype, prow *pd) {
  int rc;
  if (!ai->exact && (rc = push_label(p, PERUN_LABEL_AMOUNT, ai->text_sid, 0, p->u_json))) return rc;
  if (ai->has) {
    if ((rc = value_type(p, subtype, &pd->value_type_id))) return rc;
    pd->value = ai->v;
    pd->nval = 1;
    if (ai->weight) pd->weight = ai->n;
  }
  return PCOL_OK;
}

/* A real file's amount am (the event's own, else its type's) of value
 * type vt, added to vt's tally of THE kept rule (pcol_kept_add): the first
 * its stored whole number of 10^-K does not hold to six significant digits
 * (1e-12 at K = 9, 1e-7 beside 1e15 at K = 3, both held as 0) is named,
 * where it is and the grid, for the verdict after the file (Perun reads an
 * amount as a Python float): refused when the rounding changes the value
 * type's total by more than a millionth, else read with a warning. */
static int amount_kept(pimp *p, const amount_info *am, int own, const pgroup *g, uint32_t idx, uint32_t vt) {
  double scale = pow(10, p->amount_k);
  if (!p->real_amounts || !am->has) return PCOL_OK;
  pcol_kept_tally *t = pcol_kept_at(&p->kept, &p->nkept, vt);
  if (!t) return perun_oom(p);
  if (!pcol_kept_add(t, am->w, am->v, scale, 0)) return PCOL_OK;
  size_t pos = g->obj, line, col;
  char where[80] = "amount", a[32], b[32];
  if (own && p->layout == 3) { /* (the type's resources entry: its columns are not kept) */
    pos = g->list;
    snprintf(where, sizeof where, "amount[%u]", idx);
  } else if (own) {
    pos = g->list;
    if (p->layout == 2) snprintf(where, sizeof where, "snapshots[%zu].resources[%u].amount", (size_t)(g - p->groups), idx);
    else snprintf(where, sizeof where, "global.resources[%u].amount", idx);
  }
  pcol_js_line_col(p->text, p->len, pos, &line, &col);
  pcol_g_text(a, sizeof a, am->w), pcol_g_text(b, sizeof b, p->amount_max);
  snprintf(t->first_at, sizeof t->first_at, "line %zu column %zu, %s", line, col, where);
  pcol_error_set(&t->refusal, PCOL_ECORRUPT,
                        "%s:%zu:%zu: %s %s is not held to six significant digits: pcol holds this file's amounts as "
                        "whole multiples of %g (at most 9 decimals, and few enough that its largest, %s, fits in 64 bits)",
                        p->name, line, col, where, a, 1 / scale, b);
  return PCOL_OK;
}

/* The labels (and amount) of an object's members, in order. */
static int member_labels(pimp *p, const json_t *o, amount_info *amount) {
  const char *k;
  json_t *v;
  int rc;
  json_object_foreach((json_t *)o, k, v) {
    if (!strcmp(k, "amount")) rc = amount_parse(p, v, amount);
    else rc = generic_label(p, k, v);
    if (rc) return rc;
  }
  return PCOL_OK;
}

/* The sorter's failure: out of memory, or its temporary file. */
static int sorter_rc(pimp *p, int rc) {
  if (!rc) return PCOL_OK;
  if (rc == PCOL_ENOMEM) return perun_oom(p);
  return pcol_error_set(p->err, PCOL_EIO, "%s: the samples' temporary file (sorting them by time): %s", p->name,
                        strerror(errno));
}

/* A member of the event: its own, else (layout 3) its type's. */
static const json_t *ev_get(const pimp *p, const json_t *own, const char *k) {
  const json_t *v = json_object_get(own, k);
  return v || !p->base ? v : json_object_get(p->base, k);
}

/* An event: layouts 1 and 2 the resources entry (`own`), layout 3 the
 * members of its type's resource_type_map entry that no column overrides
 * (p->base; their labels are made once per type) followed by its entry of
 * every column (`own`).  Everything but trace and amount becomes a label.
 * Its sample row goes to the sorter (p->rows), by time. */
static int emit_event(pimp *p, json_t *own, vslice trace, uint32_t gi, uint32_t idx, uint64_t seq) {
  pgroup *g = &p->groups[gi];
  p->nlabels = 0;
  int rc;
  if (p->layout == 3) {
    if ((rc = push_label(p, PERUN_LABEL_TYPE_KEY, g->name_sid, 0, 0)) ||
        (rc = push_label(p, PERUN_LABEL_COLUMNS, g->columns_sid, 0, p->u_json)))
      return rc;
  } else if (p->layout == 2) {
    if ((rc = push_label(p, PERUN_LABEL_SNAPSHOT, 0, gi, 0))) return rc;
  }
  if (g->needs_index && (rc = push_label(p, PERUN_LABEL_INDEX, 0, idx, 0))) return rc;
  if (p->base && !p->base_ready) {
    size_t before = p->nlabels;
    if ((rc = member_labels(p, p->base, &p->base_amount))) return rc;
    p->nbase_rows = 0;
    for (size_t i = before; i < p->nlabels; i++) {
      if (PCOL_GROW(p->base_rows, p->nbase_rows, p->capbase_rows)) return perun_oom(p);
      p->base_rows[p->nbase_rows++] = p->labels[i];
    }
    p->base_ready = 1;
  } else if (p->base) {
    for (size_t i = 0; i < p->nbase_rows; i++)
      if ((rc = push_label_row(p, &p->base_rows[i]))) return rc;
  }
  amount_info own_amount = {0};
  if ((rc = member_labels(p, own, &own_amount))) return rc;
  prow row = {PCOL_NA_I64, seq, 0, 1, 0, 0, 0, 0}, *pd = &row;
  const json_t *tv = ev_get(p, own, "time"); /* as the first pass read it */
  pd->time = tv ? perun_parse_time(tv) : p->layout == 3 ? PCOL_NA_I64 : g->snap_time;
  const amount_info *am = own_amount.present ? &own_amount : p->base && p->base_amount.present ? &p->base_amount : NULL;
  const json_t *st = ev_get(p, own, "subtype");
  if (am && (rc = amount_apply(p, am, perun_json_is_str(st) ? json_string_value(st) : NULL, pd))) return rc;
  if (am && (rc = amount_kept(p, am, am == &own_amount, g, idx, pd->value_type_id))) return rc;
  if (p->stack_done) {
    pd->stack_id = p->stack_id;
    if (p->has_trace_label && (rc = push_label_row(p, &p->trace_label))) return rc;
  } else {
    size_t before = p->nlabels;
    if ((rc = event_stack(p, trace, ev_get(p, own, "uid"), &pd->stack_id))) return rc;
    /* a type's trace read again for every event (kperf with a uid column)
     * costs its length each time */
    p->work += p->nlocs + (trace.has ? trace.e - trace.b : 0);
    if (p->same_stack) {
      p->stack_done = 1;
      p->stack_id = pd->stack_id;
      if ((p->has_trace_label = p->nlabels > before)) p->trace_label = p->labels[p->nlabels - 1];
    }
  }
  /* Every event carries its type's keys as labels, so a type with many keys
   * and many events multiplies two things the file holds once each: bound it
   * (real profiles make a few labels per input byte). */
  p->work += p->nlabels;
  if (p->work > p->max_work)
    return pcol_error_set(p->err, PCOL_ETOOBIG,
                          "%s: the events expand to more than %llu labels, frames and trace bytes (%d per input byte): "
                          "refusing the amplification", p->name, (unsigned long long)p->max_work, WORK_PER_BYTE);
  PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_labelset(p->b, p->labels, p->nlabels, &pd->labelset_id, p->err)));
  return sorter_rc(p, pcol_rowsort_add(p->rows, pd));
}

static int cmp_row(const void *a, const void *b) {
  const prow *x = a, *y = b;
  if (x->time != y->time) return x->time < y->time ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int add_sample(void *ctx, const void *r) {
  pimp *p = ctx;
  const prow *pd = r;
  pcol_sample_row s = {p->src, pd->time, 0, pd->weight, PCOL_NA_I64, pd->stack_id, pd->labelset_id};
  pcol_value_row val = {pd->value_type_id, pd->value};
  return perun_b(p, pcol_b_sample(p->b, &s, &val, pd->nval, NULL, p->err));
}

/* ------------------------------------------------------------ models */

static int import_models(pimp *p, json_t *ms) {
  int canonical = 1;
  for (size_t i = 0; i < json_array_size(ms); i++) {
    json_t *m = json_array_get(ms, i);
    pcol_model_row r = {p->src, 0, 0, 0, 0, NAN, NAN, NAN};
    if (!json_is_object(m)) {
      canonical = 0;
      continue;
    }
    size_t expect = 0;
    const char *sk[] = {"uid", "model", "method"};
    uint32_t *sv[] = {&r.uid, &r.model, &r.method};
    for (int k = 0; k < 3; k++) {
      json_t *v = json_object_get(m, sk[k]);
      if (!v) continue;
      expect++;
      if (!perun_json_is_str(v)) canonical = 0;
      if (perun_json_is_str(v))
        PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_string(p->b, json_string_value(v), json_string_length(v), sv[k], p->err)));
    }
    const char *nk[] = {"r_square", "x_start", "x_end"};
    double *nv[] = {&r.r_square, &r.x_start, &r.x_end};
    for (int k = 0; k < 3; k++) {
      json_t *v = json_object_get(m, nk[k]);
      if (!v) continue;
      expect++;
      if (json_is_number(v)) *nv[k] = json_number_value(v);
      else canonical = 0;
      /* the exporter writes integral values as JSON integers */
      if (json_is_real(v) && json_real_value(v) == floor(json_real_value(v))) canonical = 0;
      if (json_is_integer(v) && (double)json_integer_value(v) != json_number_value(v)) canonical = 0;
    }
    json_t *c = json_object_get(m, "coeffs");
    if (c) {
      expect++;
      char *s = perun_jtext(c);
      if (!s) return perun_oom(p);
      int rc = pcol_b_string(p->b, s, strlen(s), &r.coeffs, p->err);
      free(s);
      if (rc) return perun_b(p, rc);
    }
    if (json_object_size(m) != expect) canonical = 0;
    PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_model(p->b, &r, p->err)));
  }
  /* records the table cannot give back exactly are kept verbatim too */
  return canonical ? PCOL_OK : perun_meta_json(p, PERUN_META_MODELS, ms);
}

/* Two walks over the events: the first finds whether amounts need scaling
 * (which changes every value) and which groups' events move when sorted by
 * time; the second interns stacks and labels in document order; the
 * samples are then added by time, through the sorter.  Memory: the
 * document (mapped or read), 40 bytes a group (kperf: a stack), the
 * sorter's budget and the builder. */
static int import_events(pimp *p) {
  int rc = perun_note_events(p);
  if (rc) return rc;
  if (p->real_amounts) {
    /* real amounts are stored x 10^9, or x 10^k with the largest k <= 9 at
     * which the largest amount still fits in 64 bits (interop review F4: a
     * real file has amounts of 5.6e17 ms); what a value cannot hold exactly
     * is kept verbatim in perun.amount as well */
    p->amount_k = pcol_decimals_for(p->amount_max);
    char sc[8];
    snprintf(sc, sizeof sc, "1e%d", p->amount_k);
    PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_meta_str(p->b, p->src, PERUN_META_AMOUNT_SCALE, sc, p->err)));
  }
  if (!p->nev) return PCOL_OK;
  perun_release(p);
  if (pcol_rowsort_new(&p->rows, sizeof(prow), cmp_row)) return perun_oom(p);
  if ((rc = perun_walk_events(p, emit_event))) return rc;
  if ((rc = pcol_kept_verdict(p->kept, p->nkept, p->name, p->err))) return rc;
  perun_release(p);
  rc = pcol_rowsort_each(p->rows, add_sample, p);
  /* add_sample's failures are in p->err already; the sorter's are not */
  return rc && !p->err->code ? sorter_rc(p, rc) : rc;
}

/* A profile with no resources is read as an empty one (Perun's own
 * complexity-empty-resources.perf), but said: a total of 0 with no word
 * looked like "nothing measured" where a file of Perun's corrupted-profile
 * tests keeps its 26 resources under a key of its own (review 17 F3).
 * Top-level keys Perun does not define are named: they are kept in meta
 * as perun.<key>, not read as resources. */
static void empty_warning(pimp *p) {
  static const char *const KNOWN[] = {"origin",  "header",   "collector_info", "postprocessors", "snapshots",
                                      "global",  "resources", "resource_type_map", "models",      "machine",
                                      "metadata", "stats"};
  enum { SHOWN = 200 }; /* bytes of key names shown; the rest counted */
  char keys[SHOWN + 64];
  size_t n = 0, nkeys = 0, more = 0;
  keys[0] = 0;
  for (size_t i = 0; i < p->top.n; i++) {
    const kent *e = &p->top.v[i];
    size_t k = 0;
    while (k < sizeof KNOWN / sizeof *KNOWN &&
           (strlen(KNOWN[k]) != e->kl || memcmp(KNOWN[k], e->k, e->kl)))
      k++;
    if (k < sizeof KNOWN / sizeof *KNOWN) continue;
    nkeys++;
    if (n >= SHOWN) {
      more++;
      continue;
    }
    if (n) keys[n++] = ',', keys[n++] = ' ';
    keys[n++] = '\'';
    for (size_t j = 0; j < e->kl; j++) { /* printable ASCII, else '?'; a long name cut with "..." */
      if (n >= SHOWN) {
        memcpy(keys + n, "...", 3);
        n += 3;
        break;
      }
      unsigned char c = (unsigned char)e->k[j];
      keys[n++] = c >= 0x20 && c < 0x7f && c != '\'' ? (char)c : '?';
    }
    keys[n++] = '\'';
    keys[n] = 0;
  }
  char tail[48] = "";
  if (more) snprintf(tail, sizeof tail, " and %zu more", more);
  /* "no resource with an amount": a file may list resources, none of which
   * gives a sample (Perun's examples/bounds-short.perf) */
  if (nkeys)
    pcol_error_set(p->err, PCOL_OK,
                   "%s: no resource with an amount: an empty profile (its top-level key%s %s%s, not Perun's, kept "
                   "in meta as perun.<key>, not read as resources)",
                   p->name, nkeys > 1 ? "s" : "", keys, tail);
  else
    pcol_error_set(p->err, PCOL_OK, "%s: no resource with an amount: an empty profile", p->name);
}

int pcol_import_perun_text(pcol_builder *b, const char *text, size_t len, int mapped, const char *name,
                           pcol_error *err) {
  pimp p = {0};
  p.mapped = mapped;
  p.b = b;
  p.name = name;
  p.err = err;
  p.text = text;
  p.len = len;
  p.max_work = (uint64_t)len > (UINT64_MAX - WORK_FLOOR) / WORK_PER_BYTE ? UINT64_MAX
                                                                         : WORK_FLOOR + (uint64_t)len * WORK_PER_BYTE;
  int rc = PCOL_OK;
  if (!(p.vt_by_subtype = json_object())) rc = perun_oom(&p);
  if (!rc) rc = pcol_b_source(b, PCOL_SRC_PERUN, name, PCOL_NA_I64, &p.src, err);
  if (!rc) rc = pcol_b_cstr(b, PERUN_UNIT_JSON, &p.u_json, err);
  if (!rc) rc = pcol_b_cstr(b, PERUN_UNIT_ABSENT, &p.u_absent, err);
  if (rc) (void)perun_b(&p, rc);
  if (!rc) rc = perun_read_top(&p);
  if (!rc && p.models) rc = import_models(&p, p.models); /* after the events' types */
  if (!rc) rc = import_events(&p);
  if (!rc && !p.nev) empty_warning(&p);
  json_decref(p.header);
  json_decref(p.models);
  json_decref(p.vt_by_subtype);
  free(p.vt_declared);
  free(p.base_rows);
  free(p.kept);
  perun_kidx_free(&p.top);
  perun_kidx_free(&p.map);
  perun_drop_columns(&p, 0);
  free(p.cols);
  free(p.groups);
  pcol_rowsort_free(p.rows);
  free(p.cur);
  free(p.it);
  free(p.labels);
  free(p.locs);
  pcol_stack_memo_free(&p.memo);
  free(p.fc);
  free(p.fr);
  pcol_hset_free(&p.fch);
  return rc;
}

int pcol_import_perun(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  /* the text is walked in place, so a stream (a pipe, a gzip file) is
   * copied first: past 8 MiB into an unlinked temporary file that is
   * mapped, whose pages are handed back as the walks move on, as a mapped
   * file's are (it was held whole in the heap, its buffer doubling: 1.7 x
   * the text at the peak); --no-mmap keeps it in memory, and so does a
   * $TMPDIR where that file cannot be made or written (read_all.c) */
  uint64_t cap = pcol_input_cap(opt);
  pcol_capped k;
  FILE *cin = pcol_capped_stream(&k, in, cap);
  if (!cin) return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  pcol_input t;
  memset(&t, 0, sizeof t);
  t.nospill = opt && opt->no_mmap;
  t.spill_at = PERUN_SPILL_AT;
  char tmp[65536];
  size_t m;
  int rc = PCOL_OK;
  while (!rc && (m = fread(tmp, 1, sizeof tmp, cin)) > 0) rc = pcol_input_append(&t, tmp, m, name, err);
  if (!rc && k.over)
    rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                        (unsigned long long)cap);
  if (!rc && ferror(cin)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  fclose(cin);
  if (!rc) rc = pcol_input_seal(&t, name, err);
  if (!rc) rc = pcol_import_perun_text(b, (const char *)t.data, t.len, t.map != NULL, name, err);
  pcol_input_free(&t);
  return rc;
}
