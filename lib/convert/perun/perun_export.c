/* perun_export.c — pcol samples out as a Perun profile (.perf, JSON).
 *
 * A source imported from Perun (source_type "perun" with "perun.keys" in
 * meta) is written back to the same JSON value: the kept top-level values
 * come from meta, the resources from the samples' labels, values and stacks
 * (doc/mappings.md §3.2).  Anything else becomes a new Perun profile in the
 * current layout, of one value (Perun's one resource type): the value
 * asked for (opt->value), else the selection's default (THE default rule);
 * memory-collector style when it is bytes, kperf style (folded stacks)
 * otherwise.
 *
 * Output is streamed one resource group at a time (a snapshot's events one
 * at a time), so memory stays in proportion to the largest layout 3 type,
 * not the file; what a group holds as JSON is counted against the export
 * budget (stream.h, pcol_budget), as are the bytes written.  No selected
 * row is held: the rows of a group must be together, so they are sorted
 * through lib/core/rowsort.c (runs in a temporary file past its budget)
 * and read back as often as the layout writes them (twice for layout 3
 * and the memory style); the kperf style needs no order, only a sum a
 * stack, kept in an array by stack id.   Stored text
 * reaches the output only re-serialised by jansson: a meta value that is
 * not one JSON value is rc_pending, never pasted. */
#include "frames.h"
#include "perun_json.h"
#include "keys.h"     /* PERUN_META_PREFIX, PERUN_META_GLOBAL, PERUN_META_SNAPSHOTS, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_write_error */
#include "buf.h"      /* PCOL_GROW */
#include "bytes.h"    /* pcol_str_is */
#include "hash.h"     /* pcol_hash_bytes, pcol_hset, pcol_hset_find, ... */
#include "select.h"   /* pcol_sample_cols, pcol_sample_value, pcol_select_iter, ... */
#include "stream.h"   /* pcol_budget, pcol_budget_release, PCOL_EXPORT_HOLD_MIN, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "count.h"    /* pcol_count_types, pcol_sample_count, pcol_sources_having */
#include "xvalues.h"  /* pcol_rtime_drop_init, pcol_rtime_pick_init, pcol_kin_default_column */
#include "rowsort.h"  /* pcol_rowsort, pcol_rowsort_add, pcol_rowsort_rewind, pcol_rowsort_next, ... */
#include "loss.h"     /* pcol_export_loss_note, pcol_export_say */
#include "jstr.h"     /* pcol_json_utf8 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NANO 1000000000.0
#define DUMP_FLAGS (JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17))

/* label-key / unit classes (names as in perun_import.c) */
enum { C_GENERIC = 1, C_TYPE_KEY, C_COLUMNS, C_SNAPSHOT, C_INDEX, C_TRACE, C_AMOUNT, C_JSON, C_ABSENT,
       C_ADDRESS, C_SUBTYPE, C_UID };
static const char *const class_names[] = {NULL, NULL, PERUN_LABEL_TYPE_KEY, PERUN_LABEL_COLUMNS,
                                          PERUN_LABEL_SNAPSHOT, PERUN_LABEL_INDEX, PERUN_LABEL_TRACE,
                                          PERUN_LABEL_AMOUNT, PERUN_UNIT_JSON, PERUN_UNIT_ABSENT,
                                          "address", "subtype", "uid"};

typedef struct selrow {
  uint64_t row;     /* the selected row and its fraction num/den, then the grouping */
  int64_t num, den;
  uint64_t order;   /* sort key inside the group */
  uint32_t group;   /* group key (string id / snapshot index / stack id) */
  uint32_t aux;
} selrow;

enum { K_PRESENT = 1, K_OVERFLOW = 2, K_NEGATIVE = 4 };

typedef struct kv {
  pcol_str key, val;
} kv;

typedef struct pexp {
  pcol_file *f;
  pcol_error *err;
  FILE *out;        /* the budget's counting stream */
  pcol_budget *bud;
  int rc_pending;   /* a helper's failure (budget, damaged string) behind a NULL */
  json_t **jstr;    /* string id -> its JSON string, made once and shared */
  uint64_t pinned;  /* budget held by jstr, kept to the end */
  pcol_view s_src, s_time, s_dur, s_w, s_stack, s_ls, s_voff, v_type, v_val, ls_off, lb_key, lb_str,
      lb_num, lb_unit, st_par, st_loc, vt_type, vt_unit, src_type, src_uri, m_src, m_uid, m_model,
      m_method, m_r2, m_xs, m_xe, m_coeffs;
  pcol_frames fr; /* locations, lines, functions */
  pcol_buf unsym; /* an unsymbolized frame's name (frames.h) */
  uint8_t *cls; /* per string id: class + 1, 0 = not looked at yet */
  int real_amounts, kperf;
  double amount_scale; /* real amounts: stored x this (perun.amount_scale) */
  uint32_t src; /* exact mode: the source */
  kv *meta;
  size_t nmeta;
  pcol_rowsort *rs; /* the selected rows, sorted by group */
  const selrow *cur; /* the current one (valid until rows_next), NULL past the last */
  int layout;       /* exact mode: 1, 2 or 3 */
  uint64_t nrows;   /* the selected rows */
  uint32_t nsel, first_src, last_src; /* runs of one source among them (1: one source), the first's */
  uint64_t nsources;
  uint8_t *src_sel; /* per source (0..ns): a selected row is of it */
  const pcol_select *sel;
  /* kperf style: per stack id, the summed amount and K_ flags */
  int64_t *ksum;
  uint8_t *kflag;
  uint64_t nstacks;
  uint32_t bad_stack; /* the least stack id out of range a row names (0: none) */
  uint32_t *locs;
  size_t nlocs, caplocs;
  /* synthetic mode */
  const pcol_value_sel *value; /* the value asked for (opt->value), NULL: the selection's default */
  int memory;
  uint32_t *amount_vt; /* per source: memory: the value type used as amount (0 = none: 0 bytes); kperf: its count type (pcol_count_types) */
  /* kperf style: the selection's default value type (pcol_selection_default_type,
   * the views' and the other exporters' rule), 0 = the count; its unit's
   * decimals (a "1e-9" unit: the amounts are written as reals) */
  uint32_t kvt;
  int kdec;
  pcol_rtime rt; /* the time rule (an Rprof source's time), for kvt */
  /* amounts below 0 (a difference of profiles: pprof -base, a delta heap
   * profile), which no Perun profile holds (an allocation's size, a time,
   * a count): not written, and noted (neg_note) */
  uint32_t wvt;         /* the value written (0: the count) */
  uint64_t neg_rows;    /* the samples left out */
  uint64_t neg_stacks;  /* kperf: the stacks of a negative sum left out */
} pexp;

/* A failure to make JSON: out of memory, unless a helper failed first (its
 * message is in err already: the budget, a damaged string). */
static int oom(pexp *x) {
  return x->rc_pending ? x->rc_pending : pcol_error_set(x->err, PCOL_ENOMEM, "perun export: out of memory");
}
static int ioerr(pexp *x) { return pcol_write_error(x->err, 0, "perun export"); }

static int str_of(pexp *x, uint32_t id, pcol_str *s) { return pcol_string(x->f, id, s, x->err); }

/* ------------------------------------------------------ selected rows */
static int sorter_failed(pexp *x, int rc, const char *what) {
  return rc == PCOL_ENOMEM ? oom(x)
                           : pcol_error_set(x->err, rc, "perun export: a temporary file ($TMPDIR, else /tmp) "
                                            "could not be %s", what);
}
/* x->cur = the next sorted row (NULL past the last) */
static int rows_next(pexp *x) {
  const void *r;
  int rc = pcol_rowsort_next(x->rs, &r);
  x->cur = r;
  return rc ? sorter_failed(x, rc, "read") : PCOL_OK;
}
/* x->cur = the first sorted row */
static int rows_rewind(pexp *x) {
  int rc = pcol_rowsort_rewind(x->rs);
  return rc ? sorter_failed(x, rc, "written or read") : rows_next(x);
}

/* ------------------------------------------------- memory of JSON trees */
/* jansson's cost of a value, roughly: a node and its text. */
#define JNODE 64
static int hold(pexp *x, uint64_t n) {
  int rc = pcol_budget_hold(x->bud, n, x->err);
  if (rc) x->rc_pending = rc;
  return rc;
}
/* What parsing JSON text costs: its bytes, and a node per value (values are
 * at most the brackets and commas outside strings, plus one). */
static uint64_t json_cost(const char *p, size_t n) {
  uint64_t values = 1;
  int in_str = 0;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (in_str) {
      if (c == '\\') i++;
      else if (c == '"') in_str = 0;
    } else if (c == '"') {
      in_str = 1;
    } else if (c == '[' || c == '{' || c == ',') {
      values++;
    }
  }
  return n + values * JNODE;
}
/* Parses stored JSON text (NULL when it is not one JSON value; *rc set
 * when the budget refuses it). */
static json_t *load_text(pexp *x, pcol_str s, int *rc) {
  *rc = PCOL_OK;
  if (!s.ptr) return NULL;
  if ((*rc = hold(x, json_cost(s.ptr, s.len)))) return NULL;
  return perun_json_loadb(s.ptr, s.len, JSON_DECODE_ANY, NULL);
}

static int classify(pexp *x, uint32_t sid) {
  if (sid >= pcol_string_count(x->f)) return C_GENERIC;
  if (!x->cls[sid]) {
    pcol_str s = {0};
    int c = C_GENERIC;
    if (!str_of(x, sid, &s) && s.ptr)
      for (int i = C_TYPE_KEY; i <= C_UID; i++)
        if (strlen(class_names[i]) == s.len && !memcmp(class_names[i], s.ptr, s.len)) c = i;
    x->cls[sid] = (uint8_t)(c + 1);
  }
  return x->cls[sid] - 1;
}

/* A JSON string of any bytes by THE rule of bytes that are not UTF-8
 * (pcol_json_utf8: read as Latin-1, so every byte string has some JSON
 * form). NA -> null.  NUL is written as a blank: Perun's JSON never holds
 * \u0000 (it marks perun_json.h's tokens, "\0NaN"), so a string is never
 * written as a bare NaN and every export reads back. */
static json_t *jbytes(pcol_str s) {
  if (!s.ptr) return json_null();
  int nul = s.len && memchr(s.ptr, 0, s.len) != NULL;
  json_t *j = nul ? NULL : json_stringn(s.ptr, s.len);
  if (j) return j;
  char *t = malloc(2 * s.len + 1);
  if (!t) return NULL;
  j = json_stringn(t, pcol_json_utf8(s.ptr, s.len, t, 1));
  free(t);
  return j;
}

/* A new reference to the JSON string of string id `id` (NA: null).  Each
 * string is made once and shared: a name repeated in every frame of every
 * event is held once. */
static json_t *jstr_id(pexp *x, uint32_t id) {
  if (id < pcol_string_count(x->f) && x->jstr[id]) return json_incref(x->jstr[id]);
  pcol_str s = {0};
  int rc = str_of(x, id, &s);
  if (rc) {
    x->rc_pending = rc;
    return NULL;
  }
  if (hold(x, s.len + JNODE)) return NULL;
  json_t *j = jbytes(s);
  if (j && id < pcol_string_count(x->f)) {
    x->jstr[id] = json_incref(j);
    x->pinned += s.len + JNODE;
  }
  return j;
}

/* What a group of events holds is released after it is written; the shared
 * strings it made stay. */
typedef struct held_mark {
  uint64_t held, pinned;
} held_mark;
static held_mark group_begin(const pexp *x) { return (held_mark){x->bud->held, x->pinned}; }
static void group_end(pexp *x, held_mark m) {
  uint64_t made = x->bud->held - m.held, kept = x->pinned - m.pinned;
  pcol_budget_release(x->bud, made > kept ? made - kept : 0);
}

/* obj[key] = v (taking v), for a key of any bytes (as jbytes makes them
 * UTF-8).  PCOL_ENOMEM only when memory ran out. */
static int set_key(pexp *x, json_t *obj, pcol_str k, json_t *v) {
  if (!v) return oom(x);
  json_t *ks = jbytes(k.ptr ? k : (pcol_str){"", 0});
  int bad = !ks || !json_is_string(ks) ||
            json_object_setn_new(obj, json_string_value(ks), json_string_length(ks), v);
  json_decref(ks);
  return bad ? oom(x) : PCOL_OK;
}

/* The fewest bytes jansson writes for v (compact): strings may be shared by
 * many nodes, so a small tree can stand for much text. */
static uint64_t text_min(json_t *v) {
  uint64_t n = 2;
  size_t i, kl;
  const char *k;
  json_t *e;
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    json_object_keylen_foreach(v, k, kl, e) n += (n > 2) + kl + 3 + text_min(e); /* ,"k":v */
    return n;
  case JSON_ARRAY:
    json_array_foreach(v, i, e) n += (i > 0) + text_min(e);
    return n;
  case JSON_STRING: /* a NaN/Infinity token (perun_json.h) is written bare */
    return perun_json_is_token(json_string_value(v), json_string_length(v)) ? json_string_length(v) - 1
                                                                            : json_string_length(v) + 2;
  default: return 1;
  }
}

/* Writes v, refused unwritten when it cannot fit in the budget. */
static int dump(pexp *x, const json_t *v) {
  if (!v) return oom(x);
  if (pcol_budget_exceeded(x->bud, text_min((json_t *)v))) return pcol_budget_refuse(x->bud, x->err);
  return perun_json_dumpf(v, x->out, DUMP_FLAGS) ? ioerr(x) : PCOL_OK;
}
/* dumps and releases v */
static int dump_new(pexp *x, json_t *v) {
  int rc = dump(x, v);
  json_decref(v);
  return rc;
}
static int put(pexp *x, const char *s) { return fputs(s, x->out) < 0 ? ioerr(x) : PCOL_OK; }
static int put_key(pexp *x, pcol_str k, int first) {
  int rc = put(x, first ? "\n" : ",\n");
  if (!rc) rc = dump_new(x, jbytes(k));
  if (!rc) rc = put(x, ": ");
  return rc;
}

static const pcol_str *meta_find(pexp *x, const char *key) {
  size_t kl = strlen(key);
  for (size_t i = 0; i < x->nmeta; i++)
    if (x->meta[i].key.len == kl && !memcmp(x->meta[i].key.ptr, key, kl)) return &x->meta[i].val;
  return NULL;
}
/* NULL when absent or not JSON (*rc set when the budget rc_pending it) */
static json_t *meta_json(pexp *x, const char *key, int *rc) {
  const pcol_str *v = meta_find(x, key);
  *rc = PCOL_OK;
  return v ? load_text(x, *v, rc) : NULL;
}

/* ------------------------------------------------------------ stacks */

/* One frame object per inline line of the stack's locations, leaf first.
 * style 0: {source, line, function} when the function has a file and the
 * line is known, else {func}; style 1 (memory): always {source, line, function}.
 * A function without a name is named by the frame rule (frames.h:
 * FILE:LINE, <unknown> at pprof's line 0, [unknown] without a file), as
 * fold, the collapsed and speedscope exports name it (its file and line
 * stay in their own fields too), and a location without lines
 * (unsymbolized) is named after its mapping (frames.h). */
static int frames_leaf_first(pexp *x, uint32_t stack, int style, json_t **out) {
  int rc = pcol_stack_locations(x->f, stack, &x->locs, &x->nlocs, &x->caplocs, x->err);
  if (rc) return rc;
  json_t *a = json_array();
  if (!a) return oom(x);
  for (size_t i = 0; i < x->nlocs; i++) {
    uint64_t lo, hi;
    pcol_frames_lines(&x->fr, x->locs[i], &lo, &hi);
    if (lo == hi && x->locs[i] && x->locs[i] <= x->fr.nloc) {
      /* unsymbolized: its mapping's name (frames.h), as fold and top */
      pcol_buf *nm = &x->unsym;
      nm->len = 0;
      if ((rc = pcol_frame_unsymbolized_name(&x->fr, pcol_frames_mapping(&x->fr, x->locs[i]), nm,
                                             x->err)) ||
          (rc = hold(x, 2 * JNODE + nm->len))) {
        json_decref(a);
        return rc;
      }
      json_t *jn = jbytes((pcol_str){(const char *)nm->data, nm->len}), *fr;
      fr = !jn ? NULL
           : style == 1 ? json_pack("{s:s,s:i,s:o}", "source", "unreachable", "line", 0, "function", jn)
                        : json_pack("{s:o}", "func", jn);
      if (!fr || json_array_append_new(a, fr)) {
        json_decref(a);
        return oom(x);
      }
      continue;
    }
    for (uint64_t l = lo; l < hi; l++) {
      uint32_t fn = pcol_frames_fn(&x->fr, l);
      int64_t line = pcol_view_i64(&x->fr.ln_line, l);
      uint32_t name = 0, file = 0;
      if (fn) {
        name = pcol_view_u32(&x->fr.fn_name, fn - 1);
        file = pcol_view_u32(&x->fr.fn_file, fn - 1);
      }
      json_t *fr;
      if ((rc = hold(x, 2 * JNODE))) {
        json_decref(a);
        return rc;
      }
      json_t *jn;
      if (name) {
        jn = jstr_id(x, name);
      } else {
        pcol_str nm;
        int byf;
        if ((rc = pcol_frame_line_name(&x->fr, l, &x->unsym, &nm, &byf, x->err))) {
          json_decref(a);
          return rc;
        }
        jn = jbytes(nm);
      }
      if (style == 1 || (file && line != PCOL_NA_I64)) {
        json_t *jf = file ? jstr_id(x, file) : json_string("unreachable");
        fr = json_pack("{s:o,s:I,s:o}", "source", jf, "line",
                       (json_int_t)(line == PCOL_NA_I64 ? 0 : line), "function", jn);
      } else {
        fr = json_pack("{s:o}", "func", jn);
      }
      if (!fr || json_array_append_new(a, fr)) {
        json_decref(a);
        return oom(x);
      }
    }
  }
  *out = a;
  return PCOL_OK;
}

/* --------------------------------------------------------- exact mode */

typedef struct rowinfo {
  uint32_t type_key, columns; /* string ids */
  int64_t snapshot, index;    /* -1 if absent */
} rowinfo;

static void label_range(pexp *x, uint64_t row, uint64_t *lo, uint64_t *hi) {
  uint32_t ls = pcol_view_u32(&x->s_ls, row);
  *lo = *hi = 0;
  if (!ls || ls > pcol_rows(x->f, PCOL_T_LABELSETS)) return;
  *lo = pcol_view_u64(&x->ls_off, ls - 1);
  *hi = pcol_view_u64(&x->ls_off, ls);
  uint64_t nl = pcol_rows(x->f, PCOL_T_LABELS);
  if (*hi > nl) *hi = nl;
  if (*lo > *hi) *lo = *hi;
}

static void row_info(pexp *x, uint64_t row, rowinfo *ri) {
  ri->type_key = ri->columns = 0;
  ri->snapshot = ri->index = -1;
  uint64_t lo, hi;
  label_range(x, row, &lo, &hi);
  for (uint64_t i = lo; i < hi; i++) {
    switch (classify(x, pcol_view_u32(&x->lb_key, i))) {
    case C_TYPE_KEY: ri->type_key = pcol_view_u32(&x->lb_str, i); break;
    case C_COLUMNS: ri->columns = pcol_view_u32(&x->lb_str, i); break;
    case C_SNAPSHOT: ri->snapshot = pcol_view_i64(&x->lb_num, i); break;
    case C_INDEX: ri->index = pcol_view_i64(&x->lb_num, i); break;
    default: break;
    }
  }
}

/* The value of label row i: JSON text parsed (refused when it is not one
 * JSON value), a string, or the number. */
static int label_value(pexp *x, uint64_t i, json_t **out) {
  uint32_t str = pcol_view_u32(&x->lb_str, i);
  int rc;
  *out = NULL;
  if (classify(x, pcol_view_u32(&x->lb_unit, i)) == C_JSON) {
    pcol_str s;
    if ((rc = str_of(x, str, &s))) return rc;
    if (!(*out = load_text(x, s, &rc)) && !rc)
      rc = pcol_error_set(x->err, PCOL_ECORRUPT,
                          "perun export: label row %llu has unit json but is not one JSON value",
                          (unsigned long long)i + 1);
    return rc;
  }
  if (hold(x, JNODE)) return x->rc_pending;
  *out = str ? jstr_id(x, str) : json_integer(pcol_view_i64(&x->lb_num, i));
  return *out ? PCOL_OK : oom(x);
}

/* The Perun event a sample came from: all its keys (persistent and
 * collectable), or with `only` (an object whose keys are the wanted ones:
 * a layout 3 type's columns) just those, so that a type's persistent members
 * are not rebuilt for every one of its events. */
static int event_json(pexp *x, const selrow *r, const json_t *only, json_t **out) {
  json_t *ev = json_object();
  if (!ev) return oom(x);
  uint64_t lo, hi;
  label_range(x, r->row, &lo, &hi);
  json_t *trace = NULL, *amount = NULL;
  int trace_absent = 0, uid_is_str = 0;
  int rc = PCOL_OK;
  int want_trace = !only || json_object_get(only, "trace"), want_amount = !only || json_object_get(only, "amount");
  for (uint64_t i = lo; i < hi && !rc; i++) {
    uint32_t key = pcol_view_u32(&x->lb_key, i);
    int c = classify(x, key);
    if ((c == C_TRACE && !want_trace) || (c == C_AMOUNT && !want_amount)) continue;
    if (c == C_TRACE) {
      /* a damaged file may repeat the label: the last one wins */
      json_decref(trace);
      trace = NULL;
      if (classify(x, pcol_view_u32(&x->lb_unit, i)) == C_ABSENT) trace_absent = 1;
      else rc = label_value(x, i, &trace);
      continue;
    }
    if (c == C_AMOUNT) {
      json_decref(amount);
      rc = label_value(x, i, &amount);
      continue;
    }
    if (c != C_GENERIC && c != C_ADDRESS && c != C_SUBTYPE && c != C_UID) continue;
    if (c == C_UID && pcol_view_u32(&x->lb_str, i) &&
        classify(x, pcol_view_u32(&x->lb_unit, i)) != C_JSON)
      uid_is_str = 1;
    pcol_str ks;
    json_t *v;
    if ((rc = str_of(x, key, &ks))) break;
    if (only && !(ks.ptr && json_object_getn(only, ks.ptr, ks.len))) continue;
    if (!(rc = label_value(x, i, &v)) && !(rc = hold(x, ks.len + JNODE))) rc = set_key(x, ev, ks, v);
    else json_decref(v);
  }
  if (!rc && !amount && want_amount) {
    uint64_t vlo = pcol_view_u64(&x->s_voff, r->row), vhi = pcol_view_u64(&x->s_voff, r->row + 1);
    if (vhi > vlo && vlo < pcol_rows(x->f, PCOL_T_VALUES)) {
      int64_t v = pcol_scale(pcol_view_i64(&x->v_val, vlo), r->num, r->den);
      amount = x->real_amounts ? json_real((double)v / x->amount_scale) : json_integer(v);
      if (!amount) rc = oom(x);
    }
  }
  if (!rc && amount) {
    if (json_object_set_new(ev, "amount", amount)) rc = oom(x);
    amount = NULL;
  }
  if (!rc && !trace && !trace_absent && want_trace) {
    rc = frames_leaf_first(x, pcol_view_u32(&x->s_stack, r->row), 0, &trace);
    if (!rc && x->kperf) {
      /* kperf: root first, and the leaf is the uid */
      size_t n = json_array_size(trace);
      if (uid_is_str && n) json_array_remove(trace, 0), n--;
      for (size_t i = 0; i < n / 2; i++) {
        json_t *a = json_incref(json_array_get(trace, i)), *b = json_incref(json_array_get(trace, n - 1 - i));
        json_array_set_new(trace, i, b);
        json_array_set_new(trace, n - 1 - i, a);
      }
    }
  }
  if (!rc && trace) {
    if (json_object_set_new(ev, "trace", trace)) rc = oom(x);
    trace = NULL;
  }
  json_decref(trace);
  json_decref(amount);
  if (rc) {
    json_decref(ev);
    return rc;
  }
  *out = ev;
  return PCOL_OK;
}

static int sort_rows(pexp *x, int (*cmp)(const void *, const void *));

static int cmp_selrow(const void *a, const void *b) {
  const selrow *x = a, *y = b;
  if (x->group != y->group) return x->group < y->group ? -1 : 1;
  if (x->order != y->order) return x->order < y->order ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row; /* (a stable sort kept rows in row order) */
}

/* Layout 3: "resource_type_map" (persistent = 1) or "resources". */
static int write_l3(pexp *x, int persistent, const json_t *empty) {
  int rc = put(x, "{"), first = 1;
  if (!rc) rc = rows_rewind(x);
  while (x->cur && !rc) {
    const selrow head = *x->cur; /* the group's first row */
    rowinfo ri;
    row_info(x, head.row, &ri);
    pcol_str key, cols;
    json_t *colnames = NULL, *obj = NULL, *ev = NULL;
    held_mark mark = group_begin(x); /* what this type's JSON holds is released after it */
    if ((rc = str_of(x, ri.type_key, &key)) || (rc = str_of(x, ri.columns, &cols))) break;
    colnames = cols.ptr ? load_text(x, cols, &rc) : json_array();
    if (rc) break;
    if (!json_is_array(colnames)) {
      json_decref(colnames);
      rc = pcol_error_set(x->err, PCOL_ECORRUPT, "perun.columns label is not a JSON list");
      break;
    }
    if (persistent) {
      if (!(rc = event_json(x, &head, NULL, &obj))) {
        size_t c;
        json_t *cn;
        json_array_foreach(colnames, c, cn) json_object_del(obj, json_string_value(cn));
      }
      while (!rc && x->cur && x->cur->group == head.group) rc = rows_next(x);
    } else {
      obj = json_object();
      json_t *only = json_object();
      size_t c;
      json_t *cn;
      if (!obj || !only) rc = oom(x);
      json_array_foreach(colnames, c, cn) {
        if (!json_is_string(cn)) continue; /* damaged label: that column stays out */
        if (!rc && (json_object_set_new(obj, json_string_value(cn), json_array()) ||
                    json_object_set_new(only, json_string_value(cn), json_null())))
          rc = oom(x);
      }
      while (!rc && x->cur && x->cur->group == head.group) {
        if ((rc = event_json(x, x->cur, only, &ev))) break;
        json_array_foreach(colnames, c, cn) {
          json_t *v = json_object_get(ev, json_string_value(cn));
          json_array_append(json_object_get(obj, json_string_value(cn)), v ? v : json_null());
        }
        json_decref(ev);
        rc = rows_next(x);
      }
      json_decref(only);
    }
    json_decref(colnames);
    if (!rc && !key.ptr) rc = pcol_error_set(x->err, PCOL_ECORRUPT, "sample without a perun.type_key label");
    if (!rc) rc = put_key(x, key, first);
    if (!rc) rc = dump(x, obj);
    json_decref(obj);
    group_end(x, mark);
    first = 0;
  }
  const char *k;
  json_t *v;
  json_t *e = json_object_get(empty, persistent ? "resource_type_map" : "resources");
  if (!rc) json_object_foreach(e, k, v) {
      pcol_str ks = {k, strlen(k)};
      if ((rc = put_key(x, ks, first)) || (rc = dump(x, v))) break;
      first = 0;
    }
  if (!rc) rc = put(x, "}");
  return rc;
}

/* dumps a JSON string of key bytes */
static int put_jkey(pexp *x, const char *k, size_t n) {
  json_t *j = json_stringn(k, n);
  return j ? dump_new(x, j) : oom(x);
}

/* Layouts 1 and 2: a snapshot skeleton from meta (`what`) with its
 * resources refilled by the events of group `index` (the sorted rows from
 * x->cur on).  Written member by member, each event made, written and
 * freed in turn: the bytes are those json_dumpf (compact) gives for the
 * filled skeleton. */
static int write_snapshot(pexp *x, json_t *s, const char *what, uint32_t index) {
  json_t *res = json_object_get(s, "resources");
  if (!json_is_object(s) || (res && !json_is_array(res)))
    return pcol_error_set(x->err, PCOL_ECORRUPT, "source %u: %s meta is not a snapshot "
                          "(an object whose resources are a list)", x->src, what);
  int rc = put(x, "{"), first = 1;
  const char *k;
  size_t kl;
  json_t *v;
  json_object_keylen_foreach(s, k, kl, v) {
    if (!rc && !first) rc = put(x, ",");
    if (!rc) rc = put_jkey(x, k, kl);
    if (!rc) rc = put(x, ":");
    first = 0;
    if (rc) break;
    if (v != res) {
      rc = dump(x, v);
      continue;
    }
    rc = put(x, "[");
    size_t i, nfirst = 0;
    json_t *e;
    json_array_foreach(res, i, e) { /* what the skeleton holds already */
      if (!rc && i) rc = put(x, ",");
      if (!rc) rc = dump(x, e);
      nfirst++;
    }
    for (size_t r = 0; !rc && x->cur && x->cur->group == index; r++) {
      held_mark mark = group_begin(x);
      json_t *ev;
      if ((rc = event_json(x, x->cur, NULL, &ev))) break;
      if (r || nfirst) rc = put(x, ",");
      if (!rc) rc = dump(x, ev);
      json_decref(ev);
      group_end(x, mark);
      if (!rc) rc = rows_next(x);
    }
    if (!rc) rc = put(x, "]");
  }
  if (!rc) rc = put(x, "}");
  /* without a resources list, the events have nowhere to go */
  while (!rc && x->cur && x->cur->group == index) rc = rows_next(x);
  return rc;
}

/* Model row i as a Perun model object.  A NaN number is an absent one;
 * an infinite one cannot be written in JSON and is refused. */
static int model_json(pexp *x, uint64_t i, json_t **out) {
  static const char *const sk[] = {"uid", "model", "method"};
  static const char *const nk[] = {"r_square", "x_start", "x_end"};
  const pcol_view *sv[] = {&x->m_uid, &x->m_model, &x->m_method};
  const pcol_view *nv[] = {&x->m_r2, &x->m_xs, &x->m_xe};
  int rc = hold(x, 8 * JNODE);
  json_t *m = rc ? NULL : json_object();
  if (!m) return oom(x);
  for (int k = 0; k < 3 && !rc; k++) {
    uint32_t id = pcol_view_u32(sv[k], i);
    if (id && json_object_set_new(m, sk[k], jstr_id(x, id))) rc = oom(x);
  }
  uint32_t c = pcol_view_u32(&x->m_coeffs, i);
  pcol_str cs;
  if (!rc && c && !(rc = str_of(x, c, &cs)) && cs.ptr) {
    json_t *cj = load_text(x, cs, &rc); /* JSON text, else kept as a string */
    if (!rc && json_object_set_new(m, "coeffs", cj ? cj : jbytes(cs))) rc = oom(x);
  }
  for (int k = 0; k < 3 && !rc; k++) {
    double d = pcol_view_f64(nv[k], i);
    if (isnan(d)) continue;
    if (isinf(d))
      rc = pcol_error_set(x->err, PCOL_EUNSUPPORTED,
                          "perun export: model %llu has %s = %sinfinity, which JSON cannot hold",
                          (unsigned long long)i + 1, nk[k], d < 0 ? "-" : "");
    else if (json_object_set_new(m, nk[k], d == floor(d) && fabs(d) < 9e15 ? json_integer((json_int_t)d)
                                                                             : json_real(d)))
      rc = oom(x);
  }
  if (rc) {
    json_decref(m);
    return rc;
  }
  *out = m;
  return PCOL_OK;
}

static int write_models(pexp *x, int all_sources) {
  int rc = put(x, "["), first = 1;
  for (uint64_t i = 0; i < pcol_rows(x->f, PCOL_T_MODELS) && !rc; i++) {
    if (!all_sources && pcol_view_u32(&x->m_src, i) != x->src) continue;
    held_mark mark = group_begin(x);
    json_t *m = NULL;
    if (!first) rc = put(x, ", ");
    if (!rc && !(rc = model_json(x, i, &m))) rc = dump_new(x, m);
    group_end(x, mark);
    first = 0;
  }
  return rc ? rc : put(x, "]");
}

static int export_exact(pexp *x) {
  int rc;
  json_t *keys = meta_json(x, PERUN_META_KEYS, &rc);
  const pcol_str *lay = meta_find(x, PERUN_META_LAYOUT);
  if (rc) return rc;
  if (!json_is_array(keys) || !lay || lay->len != 1 || lay->ptr[0] < '1' || lay->ptr[0] > '3') {
    json_decref(keys);
    return pcol_error_set(x->err, PCOL_ECORRUPT, "source %u: perun.keys/perun.layout meta is missing or bad",
                          x->src);
  }
  int layout = lay->ptr[0] - '0';
  const pcol_str *sc = meta_find(x, PERUN_META_AMOUNT_SCALE);
  x->real_amounts = sc != NULL;
  /* "1eK", K = 0..9: amounts were stored x 10^K (perun_import.c) */
  x->amount_scale = sc && sc->len == 3 && !memcmp(sc->ptr, "1e", 2) && sc->ptr[2] >= '0' && sc->ptr[2] <= '9'
                        ? pow(10, sc->ptr[2] - '0') : NANO;
  json_t *ci = meta_json(x, PERUN_META_COLLECTOR_INFO, &rc);
  if (rc) {
    json_decref(keys);
    return rc;
  }
  json_t *cn = json_object_get(ci, "name");
  x->kperf = json_is_string(cn) && !strcmp(json_string_value(cn), "kperf");
  json_decref(ci);
  /* group the rows: layout 3 by type key (string ids keep the original key
   * order), 1/2 by snapshot; inside a group by perun.index, else row order */
  x->layout = layout;
  if ((rc = sort_rows(x, cmp_selrow))) {
    json_decref(keys);
    return rc;
  }
  json_t *empty = meta_json(x, PERUN_META_EMPTY_TYPES, &rc);
  if (!rc) rc = put(x, "{");
  size_t n;
  json_t *kj, *seen = json_object();
  if (!seen) rc = oom(x);
  json_array_foreach(keys, n, kj) {
    if (rc) break;
    const char *k = json_string_value(kj);
    if (!k) {
      rc = pcol_error_set(x->err, PCOL_ECORRUPT, "source %u: perun.keys holds a non-string", x->src);
      break;
    }
    /* the importer refuses a repeated key: the document had each once */
    if (json_object_get(seen, k) || json_object_set_new(seen, k, json_null())) {
      rc = json_object_get(seen, k)
               ? pcol_error_set(x->err, PCOL_ECORRUPT, "source %u: perun.keys names a key twice", x->src)
               : oom(x);
      break;
    }
    pcol_str ks = {k, strlen(k)};
    if ((rc = put_key(x, ks, n == 0))) break;
    char mk[256];
    snprintf(mk, sizeof mk, PERUN_META_PREFIX "%s", k);
    const pcol_str *mv = strlen(k) < 200 ? meta_find(x, mk) : NULL;
    if (mv && !(layout == 1 && !strcmp(k, "global")) && !(layout == 2 && !strcmp(k, "snapshots"))) {
      /* kept JSON text goes out only as jansson writes it back: one value,
       * so a file cannot add keys or break the document */
      json_t *v = load_text(x, *mv, &rc);
      if (!rc && !v)
        rc = pcol_error_set(x->err, PCOL_ECORRUPT, "source %u: meta %s is not one JSON value", x->src, mk);
      if (!rc) rc = dump(x, v);
      json_decref(v);
    } else if (layout == 3 && !strcmp(k, "resource_type_map")) {
      rc = write_l3(x, 1, empty);
    } else if (layout == 3 && !strcmp(k, "resources")) {
      rc = write_l3(x, 0, empty);
    } else if (layout == 1 && !strcmp(k, "global")) {
      json_t *g = meta_json(x, PERUN_META_GLOBAL, &rc);
      if (!rc) rc = !g ? pcol_error_set(x->err, PCOL_ECORRUPT, "source %u: meta " PERUN_META_GLOBAL
                                       " is missing or not JSON", x->src)
                   : rows_rewind(x);
      if (!rc) rc = write_snapshot(x, g, PERUN_META_GLOBAL, 0);
      json_decref(g);
    } else if (layout == 2 && !strcmp(k, "snapshots")) {
      json_t *ss = meta_json(x, PERUN_META_SNAPSHOTS, &rc);
      if (!rc && !json_is_array(ss))
        rc = pcol_error_set(x->err, PCOL_ECORRUPT, "source %u: meta " PERUN_META_SNAPSHOTS
                            " is missing or not a JSON list", x->src);
      if (rc) {
        json_decref(ss);
        break;
      }
      size_t si;
      json_t *s;
      rc = put(x, "[");
      if (!rc) rc = rows_rewind(x);
      json_array_foreach(ss, si, s) {
        while (!rc && x->cur && x->cur->group < si) rc = rows_next(x); /* out-of-range indexes */
        if (rc) break;
        if (si && (rc = put(x, ",\n"))) break;
        rc = write_snapshot(x, s, PERUN_META_SNAPSHOTS, (uint32_t)si);
      }
      if (!rc) rc = put(x, "]");
      json_decref(ss);
    } else if (!strcmp(k, "models")) {
      rc = write_models(x, 0);
    } else {
      rc = pcol_error_set(x->err, PCOL_ECORRUPT, "source %u: meta %s is missing", x->src, mk);
    }
  }
  if (!rc) rc = put(x, "\n}\n");
  json_decref(seen);
  json_decref(empty);
  json_decref(keys);
  return rc;
}

/* ----------------------------------------------------- synthetic mode */

static int unit_is_bytes(pexp *x, uint32_t vt) {
  pcol_str u;
  if (!vt || vt > pcol_rows(x->f, PCOL_T_VALUE_TYPES) || str_of(x, pcol_view_u32(&x->vt_unit, vt - 1), &u) ||
      !u.ptr)
    return 0;
  return (u.len == 5 && !memcmp(u.ptr, "bytes", 5)) || (u.len == 1 && u.ptr[0] == 'B');
}

static int64_t row_amount(pexp *x, const selrow *r) {
  uint32_t s = pcol_view_u32(&x->s_src, r->row);
  uint32_t vt = s < pcol_rows(x->f, PCOL_T_SOURCES) + 1 ? x->amount_vt[s] : 0;
  pcol_sample_cols sc = {x->s_w, x->s_voff, x->v_type, x->v_val, pcol_rows(x->f, PCOL_T_VALUES), 0};
  int64_t v;
  if (!x->memory && x->kvt == PCOL_VT_WEIGHT) /* kperf: --value weight, the weight column */
    return pcol_scale(pcol_view_i64(&x->s_w, r->row), r->num, r->den);
  if (!x->memory && x->kvt) /* kperf: the value written, as the views show it */
    return pcol_sample_value_rt(&sc, &x->rt, r->row, x->kvt, &v) ? pcol_scale(v, r->num, r->den) : 0;
  if (!x->memory) /* kperf, the default being the count: the raw samples a row stands for (THE count rule) */
    return pcol_scale(pcol_sample_count(&sc, r->row, vt), r->num, r->den);
  /* memory: a source without the value allocated nothing (its samples
   * count 0, as in the views; vt 0 would read the weight, a CPU sample as
   * a 1-byte allocation) */
  if (!vt) return 0;
  return pcol_sample_value_rt(&sc, &x->rt, r->row, vt, &v) ? pcol_scale(v, r->num, r->den) : 0;
}

/* a label of the row by class (address / subtype); 0 if absent */
static int row_label(pexp *x, uint64_t row, int cls, uint64_t *at) {
  uint64_t lo, hi;
  label_range(x, row, &lo, &hi);
  for (uint64_t i = lo; i < hi; i++)
    if (classify(x, pcol_view_u32(&x->lb_key, i)) == cls) {
      *at = i;
      return 1;
    }
  return 0;
}

typedef struct uidcount {
  struct uident {
    char *name;
    uint32_t count;
  } *e;
  size_t n, cap;
  pcol_hset set;
} uidcount;

static int uid_eq(const void *ctx, uint32_t id, const void *key) {
  const uidcount *u = ctx;
  return !strcmp(u->e[id - 1].name, key);
}

/* "<uid>#<n>": n counts earlier groups with the same uid string */
static char *next_type_key(uidcount *u, const char *uid) {
  uint64_t h = pcol_hash_bytes(uid, strlen(uid), 7);
  uint32_t id = pcol_hset_find(&u->set, h, uid_eq, u, uid);
  if (!id) {
    if (PCOL_GROW(u->e, u->n, u->cap)) return NULL;
    if (!(u->e[u->n].name = strdup(uid))) return NULL;
    u->e[u->n].count = 0;
    id = (uint32_t)++u->n;
    if (pcol_hset_insert(&u->set, h, id)) return NULL;
  }
  size_t l = strlen(uid) + 24;
  char *k = malloc(l);
  if (k) snprintf(k, l, "%s#%u", uid, u->e[id - 1].count++);
  return k;
}

static void uidcount_free(uidcount *u) {
  for (size_t i = 0; i < u->n; i++) free(u->e[i].name);
  free(u->e);
  pcol_hset_free(&u->set);
}

/* Persistent part of a synthetic group, and its uid text. */
static int synth_persistent(pexp *x, const selrow *r, json_t **out, char **uidtext) {
  uint32_t stack = r->group; /* (kperf: r->row is not a row of the group) */
  json_t *tr = NULL, *p = NULL, *uid;
  int rc = frames_leaf_first(x, stack, x->memory, &tr);
  if (rc) return rc;
  size_t n = json_array_size(tr);
  if (x->memory) {
    uid = n ? json_copy(json_array_get(tr, 0)) /* shares its strings */
            : json_pack("{s:s,s:i,s:s}", "source", "unreachable", "line", 0, "function", "[unknown]");
    json_t *src = json_object_get(uid, "source"), *fn = json_object_get(uid, "function");
    char lb[32];
    snprintf(lb, sizeof lb, "%lld", (long long)json_integer_value(json_object_get(uid, "line")));
    size_t l = json_string_length(src) + json_string_length(fn) + strlen(lb) + 3;
    *uidtext = malloc(l);
    if (*uidtext) snprintf(*uidtext, l, "%s:%s:%s", json_string_value(src), json_string_value(fn), lb);
    uint64_t at;
    json_t *sub = row_label(x, r->row, C_SUBTYPE, &at) && pcol_view_u32(&x->lb_str, at)
                      ? jstr_id(x, pcol_view_u32(&x->lb_str, at))
                      : json_string("malloc");
    p = json_pack("{s:s,s:o,s:o,s:o}", "type", "memory", "subtype", sub, "uid", uid, "trace", tr);
    int64_t t = pcol_view_i64(&x->s_time, r->row);
    if (p && t != PCOL_NA_I64) {
      char tb[48];
      snprintf(tb, sizeof tb, "%s%lld.%06lld", t < 0 ? "-" : "", (long long)(t < 0 ? -(t / 1000000000) : t / 1000000000),
               (long long)((t < 0 ? -(t % 1000000000) : t % 1000000000) / 1000));
      json_object_set_new(p, "time", json_string(tb));
    }
  } else {
    /* kperf: trace root first without the leaf; uid = the leaf */
    json_t *leaf = n ? json_incref(json_object_get(json_array_get(tr, 0), "func")) : json_string("[unknown]");
    if (!leaf) leaf = json_incref(json_object_get(json_array_get(tr, 0), "function"));
    json_t *rt = json_array();
    for (size_t i = n; i-- > 1;) {
      json_t *fr = json_array_get(tr, i), *nm = json_object_get(fr, "func");
      if (!nm) nm = json_object_get(fr, "function");
      json_array_append_new(rt, json_pack("{s:O}", "func", nm));
    }
    json_decref(tr);
    *uidtext = strdup(json_string_value(leaf) ? json_string_value(leaf) : "[unknown]");
    p = json_pack("{s:s,s:o,s:o}", "type", "time", "uid", leaf, "trace", rt);
  }
  if (!p || !*uidtext) {
    json_decref(p);
    free(*uidtext);
    *uidtext = NULL;
    return oom(x);
  }
  *out = p;
  return PCOL_OK;
}

static int cmp_synth(const void *a, const void *b) {
  const selrow *x = a, *y = b;
  if (x->group != y->group) return x->group < y->group ? -1 : 1;
  if (x->aux != y->aux) return x->aux < y->aux ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

/* A selected row to the sorter, with its group: exact mode by type key or
 * snapshot, then perun.index (else the row); the memory style by stack and
 * subtype. */
static int add_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  pexp *x = ctx;
  selrow r = {row, num, den, row, 0, 0};
  if (x->layout) {
    rowinfo ri;
    row_info(x, row, &ri);
    r.group = x->layout == 3 ? ri.type_key : x->layout == 2 ? (uint32_t)ri.snapshot : 0;
    r.order = ri.index >= 0 ? (uint64_t)ri.index : row;
  } else {
    uint64_t at;
    if (row_amount(x, &r) < 0) return x->neg_rows++, PCOL_OK; /* memory style: no negative size (neg_note) */
    r.group = pcol_view_u32(&x->s_stack, row);
    r.aux = row_label(x, row, C_SUBTYPE, &at) ? pcol_view_u32(&x->lb_str, at) : 0;
  }
  int rc = pcol_rowsort_add(x->rs, &r);
  return rc ? sorter_failed(x, rc, "written") : PCOL_OK;
}

static int sort_rows(pexp *x, int (*cmp)(const void *, const void *)) {
  if (pcol_rowsort_new(&x->rs, sizeof(selrow), cmp)) return oom(x);
  return pcol_select_iter(x->f, x->sel, add_row, x, x->err);
}

/* kperf: the amounts summed a stack, in row order (the order a sort by
 * stack, then row, gave them) */
static int add_kperf(void *ctx, uint64_t row, int64_t num, int64_t den) {
  pexp *x = ctx;
  uint32_t st = pcol_view_u32(&x->s_stack, row);
  if (st > x->nstacks) { /* (its frames say so when its group is written) */
    if (!x->bad_stack || st < x->bad_stack) x->bad_stack = st;
    return PCOL_OK;
  }
  selrow r = {row, num, den, row, st, 0};
  x->kflag[st] |= K_PRESENT;
  if (__builtin_add_overflow(x->ksum[st], row_amount(x, &r), &x->ksum[st])) x->kflag[st] |= K_OVERFLOW;
  return PCOL_OK;
}

/* kperf: a selected row of a stack left out for its negative sum */
static int count_negative(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)num, (void)den;
  pexp *x = ctx;
  uint32_t st = pcol_view_u32(&x->s_stack, row);
  if (st <= x->nstacks && (x->kflag[st] & K_NEGATIVE)) x->neg_rows++;
  return PCOL_OK;
}

/* kperf: the stacks whose amounts sum below 0 are not written (their
 * rows counted for neg_note) */
static int drop_negative(pexp *x) {
  for (uint64_t k = 0; k <= x->nstacks; k++)
    if ((x->kflag[k] & (K_PRESENT | K_OVERFLOW)) == K_PRESENT && x->ksum[k] < 0)
      x->kflag[k] = K_NEGATIVE, x->neg_stacks++;
  return x->neg_stacks ? pcol_select_iter(x->f, x->sel, count_negative, x, x->err) : PCOL_OK;
}

/* THE note of amounts left out for being negative (doc/mappings.md §3.2,
 * as the Rprof and speedscope exports leave out what they cannot hold):
 * how many samples, of which value, and why */
static void neg_note(pexp *x, const pcol_export_options *opt) {
  if (!x->neg_rows && !x->neg_stacks) return;
  if (!pcol_export_heard(opt)) return;
  pcol_str t = {0}, u = {0};
  const char *name = x->wvt == PCOL_VT_WEIGHT ? "weight" : x->wvt == PCOL_VT_TIME ? "cpu/nanoseconds" : "samples/count";
  if (x->wvt && x->wvt <= pcol_rows(x->f, PCOL_T_VALUE_TYPES) && !str_of(x, pcol_view_u32(&x->vt_type, x->wvt - 1), &t) &&
      !str_of(x, pcol_view_u32(&x->vt_unit, x->wvt - 1), &u) && t.ptr && u.ptr)
    name = NULL;
  char vn[160], text[512];
  snprintf(vn, sizeof vn, "%.*s%s%.*s", name ? 0 : (int)(t.len > 70 ? 70 : t.len), name ? "" : t.ptr,
           name ? name : "/", name ? 0 : (int)(u.len > 70 ? 70 : u.len), name ? "" : u.ptr);
  if (x->neg_stacks)
    snprintf(text, sizeof text, "%llu sample%s in %llu stack%s whose %s sums below 0 (a difference of profiles), "
             "which a Perun profile cannot hold (an amount is a count, a time or a size): not written; pcol top "
             "counts them", (unsigned long long)x->neg_rows, x->neg_rows == 1 ? "" : "s",
             (unsigned long long)x->neg_stacks, x->neg_stacks == 1 ? "" : "s", vn);
  else
    snprintf(text, sizeof text, "%llu sample%s with a negative %s (a difference of profiles), which a Perun "
             "profile cannot hold (an amount is a count, a time or a size): not written; pcol top counts them",
             (unsigned long long)x->neg_rows, x->neg_rows == 1 ? "" : "s", vn);
  pcol_export_say(opt, PCOL_EXPORT_DATA, text);
}

/* The next group of the synthetic profile: *g its stack (group), subtype
 * (aux) and first row; 0 past the last.  kperf: the next stack with
 * selected rows (*k the cursor), then a stack id out of range, whose
 * frames refuse it; memory: x->cur's, the rows of equal stack, subtype and
 * time that follow it being the group. */
static int next_group(pexp *x, uint64_t *k, int pass, selrow *g) {
  if (x->memory) {
    if (!x->cur) return 0;
    *g = *x->cur;
    return 1;
  }
  while (*k <= x->nstacks && !(x->kflag[*k] & K_PRESENT)) ++*k;
  *g = (selrow){0, 1, 1, 0, (uint32_t)*k, 0};
  if (*k <= x->nstacks) return ++*k, 1;
  if (pass || !x->bad_stack || *k > x->nstacks + 1) return 0;
  g->group = x->bad_stack;
  return ++*k, 1;
}

static int same_memory_group(pexp *x, const selrow *g, int64_t t) {
  return x->cur && x->cur->group == g->group && x->cur->aux == g->aux &&
         pcol_view_i64(&x->s_time, x->cur->row) == t;
}

/* pass 1's object of group g: {"amount": [...], "address": [...]} (memory:
 * an amount a row, and the rows' addresses when each has one) or
 * {"amount": [sum]} (kperf) */
static int group_amounts(pexp *x, const selrow *g, json_t **out) {
  json_t *am = json_array(), *ad = NULL;
  int rc = am ? PCOL_OK : oom(x);
  if (!x->memory) {
    if (!rc && (x->kflag[g->group] & K_OVERFLOW))
      rc = pcol_error_set(x->err, PCOL_ETOOBIG, "perun: summed amount overflows 64 bits");
    if (!rc && !(rc = hold(x, JNODE)))
      json_array_append_new(am, x->kdec ? json_real((double)x->ksum[g->group] / pow(10, x->kdec))
                                        : json_integer(x->ksum[g->group]));
  }
  int64_t t = pcol_view_i64(&x->s_time, g->row);
  while (!rc && x->memory && same_memory_group(x, g, t)) {
    if ((rc = hold(x, JNODE))) break;
    json_array_append_new(am, json_integer(row_amount(x, x->cur)));
    uint64_t at;
    if (row_label(x, x->cur->row, C_ADDRESS, &at)) {
      if (!ad) ad = json_array();
      json_array_append_new(ad, json_integer(pcol_view_i64(&x->lb_num, at)));
    }
    rc = rows_next(x);
  }
  if (ad && json_array_size(ad) != json_array_size(am)) {
    json_decref(ad);
    ad = NULL;
  }
  if (rc) {
    json_decref(am);
    json_decref(ad);
    return rc;
  }
  *out = ad ? json_pack("{s:o,s:o}", "amount", am, "address", ad) : json_pack("{s:o}", "amount", am);
  return *out ? PCOL_OK : oom(x);
}

/* kperf: header.units.time for x->kvt, and x->kdec: kperf's own "sample"
 * for a count of samples (the count, a type named samples or count: pprof's
 * samples/count, a collapsed file's decimal counts); else the unit's name
 * as go tool pprof's families print it ("nanoseconds" -> "ns"), or as
 * stored ("count" for perf's cycles/count: cycles, not samples) */
static int kperf_unit(pexp *x, char *out, size_t n) {
  pcol_str u = {0}, t = {0}, shown;
  if (x->kvt == PCOL_VT_TIME) {
    snprintf(out, n, "ns"); /* an Rprof source's time (the time rule) */
    return PCOL_OK;
  }
  if (!x->kvt || x->kvt > pcol_rows(x->f, PCOL_T_VALUE_TYPES)) return PCOL_OK;
  int rc = str_of(x, pcol_view_u32(&x->vt_unit, x->kvt - 1), &u);
  if (!rc) rc = str_of(x, pcol_view_u32(&x->vt_type, x->kvt - 1), &t);
  if (rc) return rc;
  x->kdec = pcol_unit_decimals(u, &shown);
  if (pcol_str_is(t, "samples") || pcol_str_is(t, "count")) return PCOL_OK;
  char raw[40];
  const char *c;
  if (!shown.ptr || !shown.len || shown.len >= sizeof raw) return PCOL_OK;
  memcpy(raw, shown.ptr, shown.len);
  raw[shown.len] = 0;
  (void)pcol_unit_scale(0, shown, raw, &c); /* the canonical name; "" for count, sample, unit */
  snprintf(out, n, "%s", *c ? c : raw);
  return PCOL_OK;
}

static int export_synth(pexp *x) {
  int rc;
  uint64_t ns = pcol_rows(x->f, PCOL_T_SOURCES);
  x->amount_vt = calloc(ns + 1, sizeof *x->amount_vt);
  if (!x->amount_vt) return oom(x);
  /* the one value written: the value asked for, else the selection's
   * default (THE default rule: what pcol top shows, and the collapsed and
   * Rprof exports write); memory style when it is bytes, each source
   * that has it its amounts (one without it allocated nothing: amounts 0,
   * and pcol unpack warns of it, as of the sources the collapsed export
   * leaves out), kperf style otherwise (doc/mappings.md §3.2) */
  uint32_t vt = 0;
  if (x->value) vt = x->value->vt_id;
  else if ((rc = pcol_selection_default_type(x->f, x->sel, &vt, NULL, x->err)))
    return rc;
  if (vt == PCOL_VT_RPROF_ALLOC)
    return pcol_error_set(x->err, PCOL_EINVAL, "perun export: value '%s' is derived from R's memory snapshots "
                          "and not available here; use `pcol fold --value %s`, or another value",
                          PCOL_VALUE_RPROF_ALLOC, PCOL_VALUE_RPROF_ALLOC);
  if (vt > pcol_rows(x->f, PCOL_T_VALUE_TYPES) && vt != PCOL_VT_TIME && vt != PCOL_VT_WEIGHT)
    return pcol_error_set(x->err, PCOL_EINVAL, "perun export: value type %u does not exist", vt);
  x->wvt = vt;
  x->memory = unit_is_bytes(x, vt);
  /* the value as the views read it (pcol_sample_value_rt): the time rule,
   * the unit rule (a coarser kin scaled, its drop) and a kin's column */
  uint32_t kcol = x->value ? x->value->column : 0;
  if ((rc = pcol_rtime_init(&x->rt, x->f, x->err)) || (rc = pcol_rtime_drop_init(&x->rt, x->f, x->sel, x->err)) ||
      (!x->value && (rc = pcol_kin_default_column(x->f, x->sel, vt, &kcol, x->err))) ||
      (rc = pcol_rtime_pick_init(&x->rt, x->f, vt, kcol, x->err)))
    return rc;
  if (x->memory) { /* the sources that have it, in its unit or a coarser kin (THE rule, pcol_sources_having) */
    uint8_t *has = calloc(ns + 1, 1);
    if (!has) return oom(x);
    if ((rc = pcol_sources_having(x->f, vt, &vt, 1, has, x->err))) {
      free(has);
      return rc;
    }
    for (uint64_t s = 1; s <= ns; s++)
      if (has[s]) x->amount_vt[s] = vt;
    free(has);
  }
  char kunit[40] = "sample"; /* kperf: header.units.time */
  if (!x->memory) {
    /* kperf: the amount is the value in its unit (a speedscope profile's
     * time, a pprof CPU profile's cpu); when that is the count, the
     * samples a row stands for: a pprof row stands for its samples/count
     * value (176 samples, not 76 rows, for go-cpu-inline-small.pb.gz), as
     * in every other exporter that writes counts */
    x->kvt = vt;
    if ((rc = kperf_unit(x, kunit, sizeof kunit))) return rc;
    uint32_t *cvt;
    if ((rc = pcol_count_types(x->f, &cvt, x->err))) return rc;
    memcpy(x->amount_vt, cvt, (ns + 1) * sizeof *x->amount_vt);
    free(cvt);
  }
  /* groups: kperf one per stack (a sum a stack: no row kept); memory one
   * per run of (stack, time) in the rows sorted by (stack, subtype, row) */
  if (x->memory) {
    rc = sort_rows(x, cmp_synth);
  } else {
    x->nstacks = pcol_rows(x->f, PCOL_T_STACKS);
    /* (calloc'd: the pages of stacks no row names are never touched) */
    if (!(x->ksum = calloc(x->nstacks + 1, sizeof *x->ksum)) || !(x->kflag = calloc(x->nstacks + 1, 1)))
      rc = oom(x);
    if (!rc) rc = pcol_select_iter(x->f, x->sel, add_kperf, x, x->err);
    if (!rc) rc = drop_negative(x);
  }
  if (rc) return rc;
  const char *cmd = "pcol";
  pcol_str uri = {0};
  if (x->nsel == 1 && x->nrows) {
    uint32_t s = x->first_src;
    if (s && s <= ns && !str_of(x, pcol_view_u32(&x->src_uri, s - 1), &uri) && uri.ptr) cmd = NULL;
  }
  json_t *cmdj = cmd ? json_string(cmd) : jbytes(uri);
  json_t *hdr = x->memory ? json_pack("{s:s,s:{s:s},s:o,s:s,s:s}", "type", "memory", "units", "memory", "B",
                                      "cmd", cmdj, "args", "", "workload", "")
                          : json_pack("{s:s,s:{s:o},s:o,s:s,s:s}", "type", "time", "units", "time",
                                      jbytes((pcol_str){kunit, strlen(kunit)}),
                                      "cmd", cmdj, "args", "", "workload", "");
  rc = put(x, "{\n\"header\": ");
  if (!rc) rc = dump_new(x, hdr);
  if (!rc) rc = put(x, ",\n\"collector_info\": ");
  if (!rc) rc = dump_new(x, json_pack("{s:s,s:{}}", "name", x->memory ? "memory" : "kperf", "params"));
  if (!rc) rc = put(x, ",\n\"postprocessors\": []");
  /* two passes over the same groups: map, then columns */
  for (int pass = 0; pass < 2 && !rc; pass++) {
    uidcount uc = {0};
    uint64_t uc_held = 0; /* the uid texts uc keeps, for this pass */
    rc = put(x, pass ? ",\n\"resources\": {" : ",\n\"resource_type_map\": {");
    if (!rc && x->memory) rc = rows_rewind(x);
    int first = 1;
    uint64_t k = 0;
    selrow g;
    while (!rc && next_group(x, &k, pass, &g)) {
      json_t *p = NULL;
      char *uid = NULL, *key = NULL;
      held_mark mark = group_begin(x); /* released after the group */
      rc = synth_persistent(x, &g, &p, &uid);
      size_t before = uc.n;
      if (!rc && !(key = next_type_key(&uc, uid))) rc = oom(x);
      if (!rc && uc.n > before) { /* a new uid: kept until the pass ends */
        uint64_t kh = strlen(uid) + JNODE;
        if (!(rc = hold(x, kh))) uc_held += kh, x->pinned += kh;
      }
      json_t *obj = p;
      if (!rc && pass) {
        json_decref(p);
        obj = NULL;
        rc = group_amounts(x, &g, &obj);
      } else if (!rc && x->memory) { /* pass 0 writes the group's first row only */
        int64_t t = pcol_view_i64(&x->s_time, g.row);
        while (!rc && same_memory_group(x, &g, t)) rc = rows_next(x);
      }
      pcol_str ks = {key, key ? strlen(key) : 0};
      if (!rc) rc = put_key(x, ks, first);
      if (!rc) rc = dump(x, obj);
      json_decref(obj);
      free(uid);
      free(key);
      group_end(x, mark);
      first = 0;
    }
    if (!rc) rc = put(x, "}");
    uidcount_free(&uc);
    pcol_budget_release(x->bud, uc_held);
    x->pinned -= uc_held;
  }
  if (!rc) rc = put(x, ",\n\"models\": ");
  if (!rc) rc = write_models(x, 1);
  if (!rc) rc = put(x, "\n}\n");
  return rc;
}

/* ---------------------------------------------------------------- main */

/* The first pass over the selection: its rows counted, and which sources
 * they are of. */
static int count_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)num, (void)den;
  pexp *x = ctx;
  uint32_t s = pcol_view_u32(&x->s_src, row);
  if (!x->nrows) x->first_src = s;
  if (s != x->last_src) x->nsel++, x->last_src = s;
  x->src_sel[s <= x->nsources ? s : 0] = 1;
  x->nrows++;
  return PCOL_OK;
}

static int open_views(pexp *x) {
  const pcol_column_req cols[] = {
      {&x->s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},     {&x->s_time, PCOL_T_SAMPLES, PCOL_C_S_TIME},
      {&x->s_dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION},   {&x->s_w, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},
      {&x->s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},    {&x->s_ls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET},
      {&x->s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS}, {&x->v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},
      {&x->v_val, PCOL_T_VALUES, PCOL_C_V_VALUE},       {&x->ls_off, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
      {&x->lb_key, PCOL_T_LABELS, PCOL_C_LB_KEY},       {&x->lb_str, PCOL_T_LABELS, PCOL_C_LB_STR},
      {&x->lb_num, PCOL_T_LABELS, PCOL_C_LB_NUM},       {&x->lb_unit, PCOL_T_LABELS, PCOL_C_LB_UNIT},
      {&x->st_par, PCOL_T_STACKS, PCOL_C_STACK_PARENT}, {&x->st_loc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION},
      {&x->vt_type, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE}, {&x->vt_unit, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT},
      {&x->src_type, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE}, {&x->src_uri, PCOL_T_SOURCES, PCOL_C_SOURCES_URI},
      {&x->m_src, PCOL_T_MODELS, PCOL_C_MOD_SOURCE},    {&x->m_uid, PCOL_T_MODELS, PCOL_C_MOD_UID},
      {&x->m_model, PCOL_T_MODELS, PCOL_C_MOD_MODEL},   {&x->m_method, PCOL_T_MODELS, PCOL_C_MOD_METHOD},
      {&x->m_r2, PCOL_T_MODELS, PCOL_C_MOD_R_SQUARE},   {&x->m_xs, PCOL_T_MODELS, PCOL_C_MOD_X_START},
      {&x->m_xe, PCOL_T_MODELS, PCOL_C_MOD_X_END},      {&x->m_coeffs, PCOL_T_MODELS, PCOL_C_MOD_COEFFS},
  };
  PCOL_RETURN_NOT_OK(pcol_columns(x->f, cols, PCOL_NCOLS(cols), x->err));
  return pcol_frames_init(&x->fr, x->f, x->err);
}

static int load_meta(pexp *x, uint32_t src) {
  pcol_view k, v, s;
  int rc = pcol_column(x->f, PCOL_T_META, PCOL_C_META_KEY, &k, x->err);
  if (!rc) rc = pcol_column(x->f, PCOL_T_META, PCOL_C_META_VALUE, &v, x->err);
  if (!rc) rc = pcol_column(x->f, PCOL_T_META, PCOL_C_META_SOURCE, &s, x->err);
  if (rc) return rc;
  uint64_t n = pcol_rows(x->f, PCOL_T_META);
  x->meta = calloc(n ? n : 1, sizeof *x->meta);
  if (!x->meta) return oom(x);
  for (uint64_t i = 0; i < n; i++) {
    if (pcol_view_u32(&s, i) != src) continue;
    kv e;
    if ((rc = str_of(x, pcol_view_u32(&k, i), &e.key)) || (rc = str_of(x, pcol_view_u32(&v, i), &e.val)))
      return rc;
    if (e.key.ptr && e.val.ptr && e.key.len >= sizeof PERUN_META_PREFIX - 1 &&
        !memcmp(e.key.ptr, PERUN_META_PREFIX, sizeof PERUN_META_PREFIX - 1)) x->meta[x->nmeta++] = e;
  }
  return PCOL_OK;
}

/* *own = 1 when vt is a value type source src declares (a Perun source
 * declares one: its amount's, which exact mode writes) */
static int amount_is(pexp *x, uint32_t src, uint32_t vt, int *own) {
  pcol_view svs, svv;
  *own = 0;
  PCOL_RETURN_NOT_OK(pcol_column(x->f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &svs, x->err));
  PCOL_RETURN_NOT_OK(pcol_column(x->f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, x->err));
  for (uint64_t i = 0; i < pcol_rows(x->f, PCOL_T_SOURCE_VALUE_TYPES) && !*own; i++)
    *own = pcol_view_u32(&svs, i) == src && vt && pcol_view_u32(&svv, i) == vt;
  return PCOL_OK;
}

int pcol_export_perun_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                          const pcol_export_options *opt, pcol_error *err) {
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  pexp x = {0};
  pcol_budget bud;
  int rc = pcol_budget_open(&bud, f, opt, "perun export", out, err);
  if (rc) return rc;
  bud.hold_floor = PCOL_EXPORT_HOLD_MIN; /* a layout 3 type's events: one JSON value (stream.h) */
  x.f = f;
  x.err = err;
  x.out = bud.fp;
  x.bud = &bud;
  rc = open_views(&x);
  /* a pprof source's nameless line is "<unknown>", an Rprof one's a place (frames.h) */
  pcol_nameless_rule rule = {0};
  if (!rc && !(rc = pcol_nameless_rule_make(f, sel, &rule, err))) x.fr.rule = &rule;
  if (!rc && (!(x.cls = calloc(pcol_string_count(f) + 1, 1)) ||
              !(x.jstr = calloc(pcol_string_count(f) + 1, sizeof *x.jstr))))
    rc = oom(&x);
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  x.sel = sel;
  x.nsources = ns;
  if (!rc && !(x.src_sel = calloc(ns + 1, 1))) rc = oom(&x);
  if (!rc) rc = pcol_select_iter(f, sel, count_row, &x, err);
  /* one Perun source selected (or the only one): write it back exactly */
  uint32_t src = sel && sel->source_id ? sel->source_id : 0;
  if (!src && ns == 1) src = 1;
  int exact = 0;
  x.value = opt ? opt->value : NULL;
  /* (a value asked for other than its amount's type: written as any source's) */
  int own = 1;
  if (!rc && src && src <= ns && x.value) rc = amount_is(&x, src, x.value->vt_id, &own);
  if (!rc && src && src <= ns && own) {
    pcol_str st;
    if (!(rc = str_of(&x, pcol_view_u32(&x.src_type, src - 1), &st)) && st.ptr && st.len == 5 &&
        !memcmp(st.ptr, "perun", 5)) {
      x.src = src;
      rc = load_meta(&x, src);
      exact = !rc && meta_find(&x, PERUN_META_KEYS) != NULL;
    }
  }
  if (!rc) rc = exact ? export_exact(&x) : export_synth(&x);
  rc = pcol_budget_close(&bud, rc, err);
  if (!rc) neg_note(&x, opt);
  /* the labels and values it cannot hold (none lost written back exactly) */
  if (!rc) pcol_export_loss_note(f, sel, PCOL_FMT_PERUN, exact ? PCOL_LOSS_EXACT : 0, opt, NULL);
  for (uint64_t i = 0; x.jstr && i < pcol_string_count(f); i++) json_decref(x.jstr[i]);
  free(x.jstr);
  free(x.cls);
  free(x.meta);
  pcol_rowsort_free(x.rs);
  free(x.src_sel);
  free(x.ksum);
  free(x.kflag);
  free(x.locs);
  pcol_buf_free(&x.unsym);
  free(x.amount_vt);
  pcol_rtime_free(&x.rt);
  pcol_nameless_rule_free(&rule);
  return rc;
}

int pcol_export_perun(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  return pcol_export_perun_opt(f, sel, out, NULL, err);
}
