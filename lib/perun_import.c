/* perun_import.c — Perun profiles (.perf, JSON) into a pcol builder.
 *
 * Written from the file format only (spec.md §10.3 has the exact
 * mapping, which pcol_export_perun inverts).  In short: one Perun resource
 * event becomes one sample; `amount` becomes a sample value; `trace` (or a
 * string `uid`) becomes the stack; every other key of the event becomes a
 * label; the rest of the file is kept as JSON text in `meta` under
 * "perun.<key>" so that the exporter can give back the same JSON value. */
#include "internal.h"
#include "json_scan.h"
#include <jansson.h>
#include <math.h>

/* Label keys and units with a fixed meaning (shared with perun_export.c). */
#define K_TYPE_KEY "perun.type_key"   /* layout 3: "<uid>#<n>" of the event */
#define K_COLUMNS "perun.columns"     /* layout 3: JSON array of collectable keys */
#define K_SNAPSHOT "perun.snapshot_index" /* layout 2: index into snapshots[] */
#define K_INDEX "perun.index"         /* position in its group, when sorting moved it */
#define K_TRACE "perun.trace"         /* verbatim trace, or num_unit "absent" */
#define K_AMOUNT "perun.amount"       /* verbatim amount when the value cannot hold it */
#define U_JSON "json"                 /* label str is JSON text */
#define U_ABSENT "absent"
#define NANO 1000000000.0
#define WORK_PER_BYTE 64           /* labels + frames an input byte may make */
#define WORK_FLOOR ((uint64_t)1 << 24)

/* A value's place in the document: [b, e). */
typedef struct vslice {
  size_t b, e;
  int has;
} vslice;

/* A trace frame's text already seen, and what it became (frames repeat:
 * every stack repeats its callers' frames, byte for byte). */
typedef struct fent {
  size_t b, e;
  uint32_t loc;
  int canonical;
} fent;

/* One resource event, in document order (seq) and by time. */
typedef struct pev {
  int64_t time;  /* ns, PCOL_NA_I64 first */
  uint64_t seq;  /* position in the document (stable sort, pending[]) */
  uint32_t group, idx;
} pev;

/* What an event becomes, kept until the events are sorted by time. */
typedef struct pending {
  uint32_t stack_id, labelset_id, value_type_id, nval;
  int64_t value, weight;
} pending;

/* A run of events: a snapshot (layouts 1, 2) or a resource type (layout 3).
 * Positions are byte offsets into the document. */
typedef struct pgroup {
  uint32_t name_sid;    /* layout 3 type key */
  uint32_t columns_sid; /* layout 3 JSON array of column names */
  int64_t last_idx;
  int needs_index;
  uint32_t nev;         /* events in the group */
  size_t obj, obj_end;  /* layout 3: its resource_type_map entry */
  size_t col0, ncols;   /* layout 3: its columns, p->cols[col0 ..] */
  size_t list;          /* layouts 1, 2: its resources list (if nev) */
  int64_t snap_time;    /* layouts 1, 2: time of events without their own */
  /* layout 3 without trace or uid columns: every event has the same stack */
  int same_stack, stack_done, has_trace_label;
  uint32_t stack_id;
  pcol_label_row trace_label;
} pgroup;

/* A layout 3 column: its decoded name (into the document unless it had
 * escapes) and the position of its list. */
typedef struct pcolumn {
  const char *name;
  size_t len, pos;
  int owned;
} pcolumn;

/* Keys of one object in the document, decoded, with their value's place;
 * duplicates are refused (jansson would keep the last, Python too, but a
 * profile with them is damaged and the mapping would be ambiguous). */
typedef struct kent {
  const char *k; /* into the document, or owned when the key had escapes */
  size_t kl, vb, ve;
  int owned;
} kent;
typedef struct kindex {
  kent *v;
  size_t n, cap;
  pcol_hset h;
} kindex;

typedef struct vtcache {
  char *subtype; /* NULL = no subtype; owned (events are freed one by one) */
  uint32_t vt;
} vtcache;

typedef struct pimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  int layout, kperf, real_amounts;
  const char *htype;
  json_t *units;
  vtcache vts[64];
  size_t nvts;
  uint32_t u_json, u_absent;
  pcol_label_row *labels;
  size_t nlabels, caplabels;
  uint32_t *locs;
  size_t nlocs, caplocs;
  /* the document and where its parts are */
  const char *text;
  size_t len;
  json_t *header;
  kindex top, map, res;
  pgroup *groups;
  size_t ngroups, capgroups;
  pcolumn *cols;
  size_t ncols, capcols;
  pev *ev;
  size_t nev, capev;
  pending *pend;
  fent *fc;          /* frame cache */
  size_t nfc, capfc;
  pcol_hset fch;
  vslice *fr;        /* the frames of one trace */
  size_t nfr, capfr;
  uint64_t work, max_work; /* labels + frames made, and the budget */
} pimp;

static int load(pimp *p, size_t b, size_t e, json_t **out);
static int scan_failed(pimp *p, const pcol_jscan *s);
static pcol_jscan cursor_at(const pimp *p, size_t pos);

static int oom(pimp *p) { return pcol_error_set(p->err, PCOL_ENOMEM, "%s: out of memory", p->name); }

/* JSON text of any value (compact, key order kept); malloc'd. */
static char *jtext(const json_t *v) {
  return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
}

static int meta_json(pimp *p, const char *key, const json_t *v) {
  char *s = jtext(v);
  if (!s) return oom(p);
  int rc = pcol_b_meta(p->b, p->src, key, s, strlen(s));
  free(s);
  return rc ? oom(p) : PCOL_OK;
}

/* ---------------------------------------------------------------- time */

/* "0.025000", "0.00023s", "12ms", 3, 0.5 (seconds) -> ns; NA if unknown ("???"). */
static int64_t parse_time(const json_t *v) {
  if (!v) return PCOL_NA_I64;
  if (json_is_integer(v)) {
    json_int_t s = json_integer_value(v);
    if (s > INT64_MAX / 1000000000 || s < -(INT64_MAX / 1000000000)) return PCOL_NA_I64;
    return (int64_t)s * 1000000000;
  }
  if (json_is_real(v)) {
    double d = json_real_value(v) * NANO;
    if (!isfinite(d) || fabs(d) >= 9.2e18) return PCOL_NA_I64;
    return llround(d);
  }
  if (!json_is_string(v)) return PCOL_NA_I64;
  const char *s = json_string_value(v);
  size_t n = json_string_length(v), i = 0;
  int neg = 0;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  unsigned __int128 num = 0;
  int digits = 0, frac = 0, seen_dot = 0;
  for (; i < n; i++) {
    if (s[i] >= '0' && s[i] <= '9') {
      if (++digits > 27) return PCOL_NA_I64;
      num = num * 10 + (unsigned)(s[i] - '0');
      if (seen_dot) frac++;
    } else if (s[i] == '.' && !seen_dot) {
      seen_dot = 1;
    } else {
      break;
    }
  }
  if (!digits) return PCOL_NA_I64;
  const char *u = s + i;
  size_t ul = n - i;
  unsigned __int128 scale;
  if (ul == 0 || (ul == 1 && u[0] == 's')) scale = 1000000000;
  else if (ul == 2 && !memcmp(u, "ms", 2)) scale = 1000000;
  else if (ul == 2 && !memcmp(u, "us", 2)) scale = 1000;
  else if (ul == 2 && !memcmp(u, "ns", 2)) scale = 1;
  else return PCOL_NA_I64;
  unsigned __int128 den = 1;
  for (int k = 0; k < frac; k++) den *= 10;
  unsigned __int128 q = num * scale, r = q % den;
  q /= den;
  if (2 * r >= den) q++;
  if (q > (unsigned __int128)INT64_MAX) return PCOL_NA_I64;
  return neg ? -(int64_t)q : (int64_t)q;
}

/* ---------------------------------------------------------- value types */

static int value_type(pimp *p, const char *subtype, uint32_t *out) {
  for (size_t i = 0; i < p->nvts; i++) {
    const char *s = p->vts[i].subtype;
    if ((!s && !subtype) || (s && subtype && !strcmp(s, subtype))) {
      *out = p->vts[i].vt;
      return PCOL_OK;
    }
  }
  /* header.units is keyed by "type(subtype)" (trace), "type" (memory), or has
   * just one entry. */
  const char *tname = NULL, *unit = NULL;
  if (json_is_object(p->units)) {
    json_t *u = NULL;
    const char *key;
    json_t *val;
    if (p->htype && subtype) {
      size_t tl = strlen(p->htype), sl = strlen(subtype);
      json_object_foreach(p->units, key, val) {
        size_t kl = strlen(key);
        if (kl == tl + sl + 2 && !memcmp(key, p->htype, tl) && key[tl] == '(' &&
            !memcmp(key + tl + 1, subtype, sl) && key[kl - 1] == ')') {
          tname = key;
          u = val;
          break;
        }
      }
    }
    if (!u && p->htype && (u = json_object_get(p->units, p->htype))) tname = p->htype;
    if (!u && json_object_size(p->units) == 1) {
      json_object_foreach(p->units, key, val) {
        tname = key;
        u = val;
      }
    }
    if (u && json_is_string(u)) unit = json_string_value(u);
  }
  if (!tname) tname = p->htype ? p->htype : "amount";
  char ubuf[128];
  if (p->real_amounts) {
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
  if (pcol_b_cstr(p->b, tname, &ts) || (unit && pcol_b_cstr(p->b, unit, &us)) ||
      pcol_b_value_type(p->b, ts, us, out))
    return oom(p);
  /* several subtypes may share one value type: declare it once */
  int known = 0;
  for (size_t i = 0; i < p->nvts; i++) known |= p->vts[i].vt == *out;
  if (!known && pcol_b_source_value_type(p->b, p->src, *out)) return oom(p);
  if (p->nvts < sizeof p->vts / sizeof p->vts[0]) {
    char *copy = subtype ? strdup(subtype) : NULL;
    if (subtype && !copy) return oom(p);
    p->vts[p->nvts].subtype = copy;
    p->vts[p->nvts++].vt = *out;
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------- labels */

static int push_label_row(pimp *p, const pcol_label_row *r) {
  if (p->nlabels == p->caplabels) {
    size_t c = p->caplabels ? 2 * p->caplabels : 16;
    pcol_label_row *n = realloc(p->labels, c * sizeof *n);
    if (!n) return oom(p);
    p->labels = n;
    p->caplabels = c;
  }
  p->labels[p->nlabels++] = *r;
  return PCOL_OK;
}

static int push_label(pimp *p, const char *key, uint32_t str, int64_t num, uint32_t unit) {
  pcol_label_row l = {0, str, num, unit};
  if (pcol_b_cstr(p->b, key, &l.key)) return oom(p);
  return push_label_row(p, &l);
}

static int label_json_text(pimp *p, const char *key, const json_t *v) {
  char *s = jtext(v);
  if (!s) return oom(p);
  uint32_t sid;
  int rc = pcol_b_string(p->b, s, strlen(s), &sid);
  free(s);
  if (rc) return oom(p);
  return push_label(p, key, sid, 0, p->u_json);
}

/* Strings as str, integers as num, anything else as JSON text (unit "json"). */
static int generic_label(pimp *p, const char *key, const json_t *v) {
  if (json_is_string(v)) {
    uint32_t sid;
    if (pcol_b_string(p->b, json_string_value(v), json_string_length(v), &sid)) return oom(p);
    return push_label(p, key, sid, 0, 0);
  }
  if (json_is_integer(v)) return push_label(p, key, 0, (int64_t)json_integer_value(v), 0);
  return label_json_text(p, key, v);
}

/* -------------------------------------------------------------- stacks */

static int push_loc(pimp *p, uint32_t loc) {
  if (p->nlocs == p->caplocs) {
    size_t c = p->caplocs ? 2 * p->caplocs : 32;
    uint32_t *n = realloc(p->locs, c * sizeof *n);
    if (!n) return oom(p);
    p->locs = n;
    p->caplocs = c;
  }
  p->locs[p->nlocs++] = loc;
  return PCOL_OK;
}

static int frame_loc(pimp *p, const char *fn, size_t fnlen, const char *file, size_t filelen,
                     int64_t line, uint32_t *loc) {
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  if (pcol_b_string(p->b, fn, fnlen, &f.name) ||
      (file && pcol_b_string(p->b, file, filelen, &f.filename)))
    return oom(p);
  pcol_line_row l = {0, line, PCOL_NA_I64};
  if (pcol_b_function(p->b, &f, &l.function_id) ||
      pcol_b_location(p->b, 0, 0, 0, &l, 1, loc))
    return oom(p);
  return PCOL_OK;
}

static const char *jstr(const json_t *o, const char *k, size_t *len) {
  json_t *v = json_object_get(o, k);
  if (!json_is_string(v)) return NULL;
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
    if (json_is_string(fr)) fn = json_string_value(fr), fl = json_string_length(fr);
  }
  if (!fn) {
    char *t = jtext(fr);
    if (!t) return oom(p);
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
  uint64_t h = pcol_hash_bytes(p->text + q.b, q.e - q.b, 0);
  uint32_t id = pcol_hset_find(&p->fch, h, frame_eq, p, &q);
  if (id) {
    *loc = p->fc[id - 1].loc;
    if (!p->fc[id - 1].canonical) *canonical = 0;
    return PCOL_OK;
  }
  json_t *fr;
  int canon = 1, rc = load(p, q.b, q.e, &fr);
  if (rc) return rc;
  rc = trace_frame(p, fr, &canon, loc);
  json_decref(fr);
  if (rc) return rc;
  if (!canon) *canonical = 0;
  if (p->nfc == p->capfc) {
    size_t c = p->capfc ? 2 * p->capfc : 256;
    fent *n = realloc(p->fc, c * sizeof *n);
    if (!n) return oom(p);
    p->fc = n;
    p->capfc = c;
  }
  if (p->nfc >= UINT32_MAX - 1) return PCOL_OK; /* cache full: still correct */
  p->fc[p->nfc++] = (fent){q.b, q.e, *loc, canon};
  return pcol_hset_insert(&p->fch, h, (uint32_t)p->nfc) ? oom(p) : PCOL_OK;
}

/* The frames of the list at trace (none if it is not a list). */
static int trace_frames(pimp *p, vslice trace) {
  p->nfr = 0;
  if (p->text[trace.b] != '[') return PCOL_OK;
  pcol_jscan s = cursor_at(p, trace.b);
  pcol_jiter it;
  int more;
  pcol_js_begin(&s, '[', &it);
  while ((more = pcol_js_next(&s, &it, NULL)) == 1) {
    if (p->nfr == p->capfr) {
      size_t c = p->capfr ? 2 * p->capfr : 64;
      vslice *n = realloc(p->fr, c * sizeof *n);
      if (!n) return oom(p);
      p->fr = n;
      p->capfr = c;
    }
    vslice *f = &p->fr[p->nfr];
    if (pcol_js_value(&s, &f->b, &f->e)) return scan_failed(p, &s);
    f->has = 1;
    p->nfr++;
  }
  return more < 0 ? scan_failed(p, &s) : PCOL_OK;
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
    /* kperf: root first without the leaf, which is the string uid */
    if (p->kperf && json_is_string(uid)) {
      const char *u = json_string_value(uid);
      size_t ul = json_string_length(uid), k = ul;
      while (k > 0 && u[k - 1] != ';') k--;
      if ((rc = frame_loc(p, u + k, ul - k, NULL, 0, PCOL_NA_I64, &loc)) || (rc = push_loc(p, loc)))
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
      size_t j = p->kperf ? n - 1 - i : i;
      if ((rc = frame_at(p, p->fr[j], &canonical, &loc)) || (rc = push_loc(p, loc))) return rc;
    }
    if (!canonical) {
      json_t *t;
      if ((rc = load(p, trace.b, trace.e, &t))) return rc;
      rc = label_json_text(p, K_TRACE, t);
      json_decref(t);
      if (rc) return rc;
    }
  } else {
    if ((rc = push_label(p, K_TRACE, 0, 0, p->u_absent))) return rc;
    /* no trace: a string uid is the stack (imported perf: "a;b;leaf") */
    if (json_is_string(uid)) {
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
  if (pcol_b_stack(p->b, p->locs, p->nlocs, stack_id)) return oom(p);
  return PCOL_OK;
}

/* ------------------------------------------------------------- events */

static int amount_label_and_value(pimp *p, const json_t *a, const char *subtype,
                                  pcol_value_row *val, size_t *nval, int64_t *weight) {
  int exact = 0;
  int64_t v = 0;
  int has = 0;
  if (!p->real_amounts && json_is_integer(a)) {
    v = (int64_t)json_integer_value(a);
    has = exact = 1;
  } else if (json_is_number(a)) {
    double d = json_number_value(a) * (p->real_amounts ? NANO : 1.0);
    if (isfinite(d) && fabs(d) < 9.2e18) {
      v = llround(d);
      has = 1;
      exact = p->real_amounts && json_is_real(a) &&
              (double)v / NANO == json_real_value(a);
    }
  }
  int rc;
  if (!exact && (rc = label_json_text(p, K_AMOUNT, a))) return rc;
  if (has) {
    if ((rc = value_type(p, subtype, &val->value_type_id))) return rc;
    val->value = v;
    *nval = 1;
    /* kperf amounts are sample counts */
    if (p->kperf && json_is_integer(a) && v >= 0) *weight = v;
  }
  return PCOL_OK;
}

/* An event is one JSON object: layouts 1 and 2 the resources entry itself,
 * layout 3 the resource_type_map entry's keys (those without a column)
 * followed by the event's entry of every column.  Everything but trace and
 * amount becomes a label.  The sample row waits in p->pend[seq]. */
static int emit_event(pimp *p, json_t *ev, vslice trace, uint32_t gi, uint32_t idx, uint64_t seq) {
  pgroup *g = &p->groups[gi];
  p->nlabels = 0;
  int rc;
  if (p->layout == 3) {
    if ((rc = push_label(p, K_TYPE_KEY, g->name_sid, 0, 0)) ||
        (rc = push_label(p, K_COLUMNS, g->columns_sid, 0, p->u_json)))
      return rc;
  } else if (p->layout == 2) {
    if ((rc = push_label(p, K_SNAPSHOT, 0, gi, 0))) return rc;
  }
  if (g->needs_index && (rc = push_label(p, K_INDEX, 0, idx, 0))) return rc;
  const json_t *amount = NULL;
  const char *k;
  json_t *v;
  json_object_foreach(ev, k, v) {
    if (!strcmp(k, "amount")) amount = v;
    else if ((rc = generic_label(p, k, v))) return rc;
  }
  pending *pd = &p->pend[seq];
  pd->weight = 1;
  pcol_value_row val;
  size_t nval = 0;
  json_t *st = json_object_get(ev, "subtype");
  if (amount && (rc = amount_label_and_value(p, amount, json_is_string(st) ? json_string_value(st) : NULL,
                                             &val, &nval, &pd->weight)))
    return rc;
  if (nval) {
    pd->nval = 1;
    pd->value_type_id = val.value_type_id;
    pd->value = val.value;
  }
  if (g->stack_done) {
    pd->stack_id = g->stack_id;
    if (g->has_trace_label && (rc = push_label_row(p, &g->trace_label))) return rc;
  } else {
    size_t before = p->nlabels;
    if ((rc = event_stack(p, trace, json_object_get(ev, "uid"), &pd->stack_id))) return rc;
    p->work += p->nlocs;
    if (g->same_stack) {
      g->stack_done = 1;
      g->stack_id = pd->stack_id;
      if ((g->has_trace_label = p->nlabels > before)) g->trace_label = p->labels[p->nlabels - 1];
    }
  }
  /* Every event carries its type's keys as labels, so a type with many keys
   * and many events multiplies two things the file holds once each: bound it
   * (real profiles make a few labels per input byte). */
  p->work += p->nlabels;
  if (p->work > p->max_work)
    return pcol_error_set(p->err, PCOL_ETOOBIG,
                          "%s: the events expand to more than %llu labels and frames (%d per input byte): "
                          "refusing the amplification", p->name, (unsigned long long)p->max_work, WORK_PER_BYTE);
  if (pcol_b_labelset(p->b, p->labels, p->nlabels, &pd->labelset_id)) return oom(p);
  return PCOL_OK;
}

static int cmp_ev(const void *a, const void *b) {
  const pev *x = a, *y = b;
  if (x->time != y->time) return x->time < y->time ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ------------------------------------------------------- the document */

static int bad_json(pimp *p, size_t pos, const char *why) {
  size_t line, col;
  pcol_js_line_col(p->text, p->len, pos, &line, &col);
  return pcol_error_set(p->err, PCOL_ECORRUPT, "%s:%zu:%zu: invalid JSON: %s", p->name, line, col, why);
}

static int scan_failed(pimp *p, const pcol_jscan *s) { return bad_json(p, s->err_pos, s->err); }

/* The JSON value at [b, e) as a jansson tree (small parts only). */
static int load(pimp *p, size_t b, size_t e, json_t **out) {
  json_error_t je;
  *out = json_loadb(p->text + b, e - b, JSON_DECODE_ANY, &je);
  if (*out) return PCOL_OK;
  /* the scanner accepted it, so this is a number out of range or no memory */
  if (je.position < 0 || (size_t)je.position > e - b) je.position = 0;
  return bad_json(p, b + (size_t)je.position, je.text);
}

static int first_char(const pimp *p, size_t vb) { return vb < p->len ? p->text[vb] : 0; }

static void kidx_free(kindex *x) {
  for (size_t i = 0; i < x->n; i++)
    if (x->v[i].owned) free((char *)x->v[i].k);
  free(x->v);
  pcol_hset_free(&x->h);
  memset(x, 0, sizeof *x);
}

typedef struct kq {
  const char *k;
  size_t kl;
} kq;

static int kidx_eq(const void *ctx, uint32_t id, const void *key) {
  const kent *e = &((const kindex *)ctx)->v[id - 1];
  const kq *q = key;
  return e->kl == q->kl && !memcmp(e->k, q->k, q->kl);
}

#define KIDX_LINEAR 8 /* small objects (most) need no hash table */

static const kent *kidx_get(const kindex *x, const char *k, size_t kl) {
  if (!x->h.cap) {
    for (size_t i = 0; i < x->n; i++)
      if (x->v[i].kl == kl && !memcmp(x->v[i].k, k, kl)) return &x->v[i];
    return NULL;
  }
  kq q = {k, kl};
  uint32_t id = pcol_hset_find(&x->h, pcol_hash_bytes(k, kl, 0), kidx_eq, x, &q);
  return id ? &x->v[id - 1] : NULL;
}

static const kent *kidx_getc(const kindex *x, const char *k) { return kidx_get(x, k, strlen(k)); }

/* Reads the object at the cursor (which must stand on '{') into x. */
static int kidx_read(pimp *p, pcol_jscan *s, kindex *x, const char *where) {
  pcol_jiter it;
  pcol_jkey key;
  int more;
  if (pcol_js_begin(s, '{', &it)) return scan_failed(p, s);
  while ((more = pcol_js_next(s, &it, &key)) == 1) {
    if (x->n == x->cap) {
      size_t c = x->cap ? 2 * x->cap : 16;
      kent *n = realloc(x->v, c * sizeof *n);
      if (!n) return oom(p);
      x->v = n;
      x->cap = c;
    }
    if (x->n >= UINT32_MAX - 1)
      return pcol_error_set(p->err, PCOL_ETOOBIG, "%s: %s: too many keys", p->name, where);
    kent *e = &x->v[x->n];
    e->owned = key.escaped;
    if (key.escaped) {
      if (!(e->k = pcol_js_key_decode(s, &key, &e->kl))) return oom(p);
    } else {
      e->k = p->text + key.start;
      e->kl = key.len;
    }
    if (pcol_js_value(s, &e->vb, &e->ve)) {
      if (e->owned) free((char *)e->k);
      return scan_failed(p, s);
    }
    if (kidx_get(x, e->k, e->kl)) {
      x->n++; /* freed by kidx_free */
      size_t line, col;
      pcol_js_line_col(p->text, p->len, key.start, &line, &col);
      return pcol_error_set(p->err, PCOL_ECORRUPT, "%s:%zu:%zu: %s: duplicate key \"%.*s\"", p->name,
                            line, col, where, (int)(e->kl > 200 ? 200 : e->kl), e->k);
    }
    x->n++;
    if (x->n > KIDX_LINEAR) {
      /* index what came so far on crossing the limit, then each new key */
      for (size_t i = x->h.cap ? x->n - 1 : 0; i < x->n; i++)
        if (pcol_hset_insert(&x->h, pcol_hash_bytes(x->v[i].k, x->v[i].kl, 0), (uint32_t)(i + 1))) return oom(p);
    }
  }
  return more < 0 ? scan_failed(p, s) : PCOL_OK;
}

/* A cursor standing at byte `pos`. */
static pcol_jscan cursor_at(const pimp *p, size_t pos) {
  pcol_jscan s;
  pcol_js_init(&s, p->text, p->len);
  s.pos = pos;
  return s;
}

static int kidx_read_at(pimp *p, size_t pos, kindex *x, const char *where) {
  pcol_jscan s = cursor_at(p, pos);
  return kidx_read(p, &s, x, where);
}

static pgroup *new_group(pimp *p) {
  if (p->ngroups == p->capgroups) {
    size_t c = p->capgroups ? 2 * p->capgroups : 16;
    pgroup *n = realloc(p->groups, c * sizeof *n);
    if (!n) return NULL;
    p->groups = n;
    p->capgroups = c;
  }
  pgroup *g = &p->groups[p->ngroups++];
  memset(g, 0, sizeof *g);
  g->last_idx = -1;
  g->snap_time = PCOL_NA_I64;
  return g;
}

/* ------------------------------------------------------------ models */

static int models(pimp *p, json_t *ms) {
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
      if (!json_is_string(v)) canonical = 0;
      if (json_is_string(v) ? pcol_b_string(p->b, json_string_value(v), json_string_length(v), sv[k])
                            : 0)
        return oom(p);
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
      char *s = jtext(c);
      if (!s) return oom(p);
      int rc = pcol_b_string(p->b, s, strlen(s), &r.coeffs);
      free(s);
      if (rc) return oom(p);
    }
    if (json_object_size(m) != expect) canonical = 0;
    if (pcol_b_model(p->b, &r)) return oom(p);
  }
  /* records the table cannot give back exactly are kept verbatim too */
  return canonical ? PCOL_OK : meta_json(p, "perun.models", ms);
}

/* ------------------------------------------------- layouts 1 and 2 */

/* One snapshot (or `global`) object at byte `pos`: its resources list
 * becomes a group; the rest, with resources emptied, is appended to skel
 * (the skeleton the exporter fills in again). */
static int read_snapshot(pimp *p, size_t pos, const char *where, json_t *skel) {
  if (first_char(p, pos) != '{')
    return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: %s: expected an object", p->name, where);
  kindex x = {0};
  json_t *sk = json_object();
  int rc = sk ? kidx_read_at(p, pos, &x, where) : oom(p);
  pgroup *g = rc ? NULL : new_group(p);
  if (!rc && !g) rc = oom(p);
  for (size_t i = 0; i < x.n && !rc; i++) {
    kent *e = &x.v[i];
    json_t *v = NULL;
    int is_res = e->kl == 9 && !memcmp(e->k, "resources", 9);
    if (is_res) v = json_array();
    else rc = load(p, e->vb, e->ve, &v);
    if (!rc && (!v || json_object_setn_new(sk, e->k, e->kl, v))) rc = oom(p);
    if (rc || !is_res) continue;
    if (first_char(p, e->vb) != '[') {
      rc = pcol_error_set(p->err, PCOL_ECORRUPT, "%s: %s.resources: expected a list", p->name, where);
      break;
    }
    /* every entry must be an object; count them */
    pcol_jscan s = cursor_at(p, e->vb);
    pcol_jiter it;
    size_t vb, ve, n = 0;
    int more;
    pcol_js_begin(&s, '[', &it);
    while (!rc && (more = pcol_js_next(&s, &it, NULL)) == 1) {
      if (pcol_js_value(&s, &vb, &ve)) {
        rc = scan_failed(p, &s);
      } else if (first_char(p, vb) != '{') {
        rc = pcol_error_set(p->err, PCOL_ECORRUPT, "%s: %s.resources[%zu]: expected an object",
                            p->name, where, n);
      } else if (++n > UINT32_MAX) {
        rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: %s: too many resources", p->name, where);
      }
    }
    if (!rc && more < 0) rc = scan_failed(p, &s);
    g->list = e->vb;
    g->nev = (uint32_t)n;
  }
  if (!rc) {
    const kent *t = kidx_getc(&x, "time");
    json_t *tv = t ? json_object_getn(sk, t->k, t->kl) : NULL;
    g->snap_time = parse_time(tv);
  }
  kidx_free(&x);
  if (!rc && (json_is_array(skel) ? json_array_append(skel, sk) : json_object_update(skel, sk))) rc = oom(p);
  json_decref(sk);
  return rc;
}

static int read_snapshots(pimp *p, const kent *list) {
  json_t *skel = p->layout == 2 ? json_array() : json_object();
  if (!skel) return oom(p);
  int rc = PCOL_OK;
  if (p->layout == 1) {
    rc = read_snapshot(p, list->vb, "global", skel);
  } else {
    pcol_jscan s = cursor_at(p, list->vb);
    pcol_jiter it;
    size_t vb, ve;
    int more;
    pcol_js_begin(&s, '[', &it);
    while (!rc && (more = pcol_js_next(&s, &it, NULL)) == 1) {
      char where[48];
      snprintf(where, sizeof where, "snapshots[%zu]", p->ngroups);
      if (pcol_js_value(&s, &vb, &ve)) rc = scan_failed(p, &s);
      else if (p->ngroups >= UINT32_MAX) rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: too many snapshots", p->name);
      else rc = read_snapshot(p, vb, where, skel);
    }
    if (!rc && more < 0) rc = scan_failed(p, &s);
  }
  if (!rc) rc = meta_json(p, p->layout == 2 ? "perun.snapshots" : "perun.global", skel);
  json_decref(skel);
  return rc;
}

/* --------------------------------------------------------- layout 3 */

/* Takes the key (and its ownership) of a column entry. */
static int add_column(pimp *p, kent *ce) {
  if (p->ncols == p->capcols) {
    size_t c = p->capcols ? 2 * p->capcols : 16;
    pcolumn *n = realloc(p->cols, c * sizeof *n);
    if (!n) return oom(p);
    p->cols = n;
    p->capcols = c;
  }
  p->cols[p->ncols++] = (pcolumn){ce->k, ce->kl, ce->vb, ce->owned};
  ce->owned = 0;
  return PCOL_OK;
}

static void drop_columns(pimp *p, size_t from) {
  while (p->ncols > from) {
    pcolumn *c = &p->cols[--p->ncols];
    if (c->owned) free((char *)c->name);
  }
}

/* resources[k] (entry e, its map entry pe): its columns, checked to be
 * lists of one length; a group of that many events, or, when there are
 * none, both entries kept verbatim in `empty`. */
static int read_type(pimp *p, const kent *e, const kent *pe, json_t *empty) {
  int kl = (int)(e->kl > 200 ? 200 : e->kl);
  if (first_char(p, e->vb) != '{')
    return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: resources[\"%.*s\"]: expected an object", p->name, kl, e->k);
  if (!pe || first_char(p, pe->vb) != '{')
    return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: resources[\"%.*s\"] has no object in resource_type_map",
                          p->name, kl, e->k);
  char where[256];
  snprintf(where, sizeof where, "resources[\"%.*s\"]", kl, e->k);
  kindex x = {0};
  int rc = kidx_read_at(p, e->vb, &x, where);
  size_t col0 = p->ncols, n = 0;
  json_t *names = rc ? NULL : json_array();
  if (!rc && !names) rc = oom(p);
  for (size_t c = 0; c < x.n && !rc; c++) {
    kent *ce = &x.v[c];
    if (first_char(p, ce->vb) != '[') {
      rc = pcol_error_set(p->err, PCOL_ECORRUPT, "%s: %s[\"%.*s\"]: expected a list", p->name, where,
                          (int)(ce->kl > 200 ? 200 : ce->kl), ce->k);
      break;
    }
    pcol_jscan s = cursor_at(p, ce->vb);
    pcol_jiter it;
    size_t vb, ve, cnt = 0;
    int more;
    pcol_js_begin(&s, '[', &it);
    while ((more = pcol_js_next(&s, &it, NULL)) == 1 && !pcol_js_value(&s, &vb, &ve)) cnt++;
    if (more) {
      rc = scan_failed(p, &s);
      break;
    }
    if (c == 0) n = cnt;
    else if (cnt != n) {
      rc = pcol_error_set(p->err, PCOL_ECORRUPT, "%s: %s: column '%.*s' has %zu entries but '%.*s' has %zu",
                          p->name, where, (int)(ce->kl > 200 ? 200 : ce->kl), ce->k, cnt,
                          (int)(x.v[0].kl > 200 ? 200 : x.v[0].kl), x.v[0].k, n);
      break;
    }
    if (json_array_append_new(names, json_stringn(ce->k, ce->kl))) {
      rc = oom(p);
      break;
    }
    rc = add_column(p, ce);
  }
  kidx_free(&x);
  if (!rc && n > UINT32_MAX)
    rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: %s: too many entries", p->name, where);
  if (!rc && n == 0) {
    /* nothing to make samples of: keep the entry verbatim */
    json_t *pv = NULL, *v = NULL;
    rc = load(p, pe->vb, pe->ve, &pv);
    if (!rc) rc = load(p, e->vb, e->ve, &v);
    if (!rc && (json_object_setn_new(json_object_get(empty, "resource_type_map"), e->k, e->kl, pv) ||
                json_object_setn_new(json_object_get(empty, "resources"), e->k, e->kl, v)))
      rc = oom(p);
    else pv = v = NULL;
    json_decref(pv);
    json_decref(v);
    drop_columns(p, col0);
  } else if (!rc) {
    pgroup *g = new_group(p);
    char *cs = jtext(names);
    if (!g || !cs || pcol_b_string(p->b, e->k, e->kl, &g->name_sid) ||
        pcol_b_cstr(p->b, cs, &g->columns_sid))
      rc = oom(p);
    free(cs);
    if (!rc) {
      g->nev = (uint32_t)n;
      g->obj = pe->vb;
      g->obj_end = pe->ve;
      g->col0 = col0;
      g->ncols = p->ncols - col0;
    }
  }
  json_decref(names);
  return rc;
}

static int read_types(pimp *p, const kent *map, const kent *res) {
  if (map && first_char(p, map->vb) != '{')
    return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: resource_type_map: expected an object", p->name);
  if (res && first_char(p, res->vb) != '{')
    return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: resources: expected an object", p->name);
  int rc;
  if (map && (rc = kidx_read_at(p, map->vb, &p->map, "resource_type_map"))) return rc;
  if (res && (rc = kidx_read_at(p, res->vb, &p->res, "resources"))) return rc;
  json_t *empty = json_pack("{s{}s{}}", "resource_type_map", "resources");
  if (!empty) return oom(p);
  rc = PCOL_OK;
  for (size_t i = 0; i < p->res.n && !rc; i++) {
    const kent *e = &p->res.v[i];
    if (p->ngroups >= UINT32_MAX)
      rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: too many resource types", p->name);
    else rc = read_type(p, e, kidx_get(&p->map, e->k, e->kl), empty);
  }
  json_t *emap = json_object_get(empty, "resource_type_map");
  for (size_t i = 0; i < p->map.n && !rc; i++) {
    const kent *e = &p->map.v[i];
    json_t *v;
    if (kidx_get(&p->res, e->k, e->kl)) continue;
    if (!(rc = load(p, e->vb, e->ve, &v)) && json_object_setn_new(emap, e->k, e->kl, v)) rc = oom(p);
  }
  if (!rc && (json_object_size(emap) || json_object_size(json_object_get(empty, "resources"))))
    rc = meta_json(p, "perun.empty_types", empty);
  json_decref(empty);
  /* the groups hold what the events need from here on */
  kidx_free(&p->map);
  kidx_free(&p->res);
  return rc;
}

/* ------------------------------------------------------ event walks */

typedef int (*event_fn)(pimp *p, json_t *ev, vslice trace, uint32_t gi, uint32_t idx, uint64_t seq);

/* A scalar without escapes is made directly; anything else goes to jansson. */
static int load_fast(pimp *p, size_t b, size_t e, json_t **out) {
  const char *t = p->text + b;
  size_t n = e - b;
  *out = NULL;
  if (t[0] == '"') {
    if (!memchr(t + 1, '\\', n - 2)) *out = json_stringn_nocheck(t + 1, n - 2); /* checked UTF-8 */
    else return load(p, b, e, out);
  } else if (t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) {
    uint64_t v = 0, lim = t[0] == '-' ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    size_t i = t[0] == '-';
    for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) {
      if (v > (lim - (uint64_t)(t[i] - '0')) / 10) return load(p, b, e, out); /* jansson's error */
      v = v * 10 + (uint64_t)(t[i] - '0');
    }
    if (i < n) return load(p, b, e, out); /* a real */
    *out = json_integer(t[0] == '-' ? (json_int_t)(0 - v) : (json_int_t)v);
  } else if (n == 4 && !memcmp(t, "true", 4)) {
    *out = json_true();
  } else if (n == 5 && !memcmp(t, "false", 5)) {
    *out = json_false();
  } else if (n == 4 && !memcmp(t, "null", 4)) {
    *out = json_null();
  } else {
    return load(p, b, e, out);
  }
  return *out ? PCOL_OK : oom(p);
}

/* The members of the object at pos into `into` (a repeated key replaces the
 * value, as jansson's parser does), except "trace", whose place goes to
 * *trace, and keys of `skip`. */
static int read_object(pimp *p, size_t pos, json_t *into, vslice *trace, const json_t *skip) {
  pcol_jscan s = cursor_at(p, pos);
  pcol_jiter it;
  pcol_jkey k;
  int more, rc = PCOL_OK;
  if (pcol_js_begin(&s, '{', &it)) return scan_failed(p, &s);
  while (!rc && (more = pcol_js_next(&s, &it, &k)) == 1) {
    size_t vb, ve, kl = k.len;
    if (pcol_js_value(&s, &vb, &ve)) return scan_failed(p, &s);
    char *owned = NULL;
    const char *key = p->text + k.start;
    if (k.escaped && !(key = owned = pcol_js_key_decode(&s, &k, &kl))) return oom(p);
    json_t *v;
    if (kl == 5 && !memcmp(key, "trace", 5)) *trace = (vslice){vb, ve, 1};
    else if (!(skip && json_object_getn(skip, key, kl)) && !(rc = load_fast(p, vb, ve, &v)) &&
             json_object_setn_new(into, key, kl, v))
      rc = oom(p);
    free(owned);
  }
  if (rc) return rc;
  return more < 0 ? scan_failed(p, &s) : PCOL_OK;
}

/* Layout 3: the group's map entry plus entry `i` of each column, the columns
 * read in lockstep (one cursor each), so no column is ever held whole. */
static int walk_type(pimp *p, uint32_t gi, uint64_t *seq, event_fn fn, pcol_jscan *cur, pcol_jiter *it) {
  pgroup *g = &p->groups[gi];
  json_t *base = json_object(), *colset = json_object();
  int rc = base && colset ? PCOL_OK : oom(p);
  pcolumn *cols = p->cols + g->col0;
  for (size_t c = 0; c < g->ncols && !rc; c++)
    if (json_object_setn_new(colset, cols[c].name, cols[c].len, json_null())) rc = oom(p);
  g->same_stack = !json_object_get(colset, "trace") && !json_object_get(colset, "uid");
  /* the map entry's keys that no column overrides, in their order */
  vslice pe_trace = {0, 0, 0};
  if (!rc) rc = read_object(p, g->obj, base, &pe_trace, colset);
  json_decref(colset);
  for (size_t c = 0; c < g->ncols && !rc; c++) {
    cur[c] = cursor_at(p, cols[c].pos);
    if (pcol_js_begin(&cur[c], '[', &it[c])) rc = scan_failed(p, &cur[c]);
  }
  for (uint32_t i = 0; i < g->nev && !rc; i++) {
    json_t *ev = json_copy(base), *v;
    vslice trace = pe_trace;
    if (!ev) rc = oom(p);
    for (size_t c = 0; c < g->ncols && !rc; c++) {
      size_t vb, ve;
      if (pcol_js_next(&cur[c], &it[c], NULL) != 1 || pcol_js_value(&cur[c], &vb, &ve))
        rc = scan_failed(p, &cur[c]);
      else if (cols[c].len == 5 && !memcmp(cols[c].name, "trace", 5))
        trace = (vslice){vb, ve, 1};
      else if (!(rc = load_fast(p, vb, ve, &v)) && json_object_setn_new(ev, cols[c].name, cols[c].len, v))
        rc = oom(p);
    }
    if (!rc) rc = fn(p, ev, trace, gi, i, (*seq)++);
    json_decref(ev);
  }
  json_decref(base);
  return rc;
}

static int walk_list(pimp *p, uint32_t gi, uint64_t *seq, event_fn fn) {
  pcol_jscan s = cursor_at(p, p->groups[gi].list);
  pcol_jiter it;
  pcol_js_begin(&s, '[', &it);
  int rc = PCOL_OK;
  for (uint32_t i = 0; i < p->groups[gi].nev && !rc; i++) {
    size_t vb, ve;
    vslice trace = {0, 0, 0};
    if (pcol_js_next(&s, &it, NULL) != 1 || pcol_js_value(&s, &vb, &ve)) return scan_failed(p, &s);
    json_t *ev = json_object();
    if (!ev) return oom(p);
    if (!(rc = read_object(p, vb, ev, &trace, NULL))) rc = fn(p, ev, trace, gi, i, (*seq)++);
    json_decref(ev);
  }
  return rc;
}

/* Every event of the document in document order. */
static int walk_events(pimp *p, event_fn fn) {
  size_t maxcols = 0;
  for (size_t g = 0; g < p->ngroups; g++)
    if (p->groups[g].ncols > maxcols) maxcols = p->groups[g].ncols;
  pcol_jscan *cur = malloc((maxcols ? maxcols : 1) * sizeof *cur);
  pcol_jiter *it = malloc((maxcols ? maxcols : 1) * sizeof *it);
  int rc = cur && it ? PCOL_OK : oom(p);
  uint64_t seq = 0;
  for (size_t g = 0; g < p->ngroups && !rc; g++) {
    if (!p->groups[g].nev) continue;
    rc = p->layout == 3 ? walk_type(p, (uint32_t)g, &seq, fn, cur, it) : walk_list(p, (uint32_t)g, &seq, fn);
  }
  free(cur);
  free(it);
  return rc;
}

/* ------------------------------------------------ the first pass */

/* The first pass needs only each event's time and whether its amount has a
 * fraction, so it loads nothing else (traces are most of a Perun file). */

/* "time" and "amount" of the object at pos (the last of each, as jansson). */
static int find_time_amount(pimp *p, size_t pos, vslice *t, vslice *a) {
  pcol_jscan s = cursor_at(p, pos);
  pcol_jiter it;
  pcol_jkey k;
  int more;
  t->has = a->has = 0;
  if (pcol_js_begin(&s, '{', &it)) return scan_failed(p, &s);
  while ((more = pcol_js_next(&s, &it, &k)) == 1) {
    size_t vb, ve;
    if (pcol_js_value(&s, &vb, &ve)) return scan_failed(p, &s);
    vslice *d = pcol_js_key_is(&s, &k, "time") ? t : pcol_js_key_is(&s, &k, "amount") ? a : NULL;
    if (d) *d = (vslice){vb, ve, 1};
  }
  return more < 0 ? scan_failed(p, &s) : PCOL_OK;
}

/* jansson reads a number with a fraction or exponent as a real. */
static int is_real_text(const pimp *p, vslice a) {
  if (!a.has || !(p->text[a.b] == '-' || (p->text[a.b] >= '0' && p->text[a.b] <= '9'))) return 0;
  for (size_t i = a.b; i < a.e; i++)
    if (p->text[i] == '.' || p->text[i] == 'e' || p->text[i] == 'E') return 1;
  return 0;
}

static int slice_time(pimp *p, vslice t, int64_t *out) {
  json_t *v;
  int rc = load(p, t.b, t.e, &v);
  if (rc) return rc;
  *out = parse_time(v);
  json_decref(v);
  return PCOL_OK;
}

static int push_ev(pimp *p, int64_t time, uint64_t seq, uint32_t gi, uint32_t idx) {
  if (p->nev == p->capev) {
    size_t c = p->capev ? 2 * p->capev : 256;
    pev *n = realloc(p->ev, c * sizeof *n);
    if (!n) return oom(p);
    p->ev = n;
    p->capev = c;
  }
  p->ev[p->nev++] = (pev){time, seq, gi, idx};
  return PCOL_OK;
}

/* Layout 3: time and amount come from their columns, else from the map entry. */
static int note_type(pimp *p, uint32_t gi, uint64_t *seq) {
  pgroup *g = &p->groups[gi];
  vslice t, a;
  int rc = find_time_amount(p, g->obj, &t, &a);
  if (rc) return rc;
  pcol_jscan cur[2];
  pcol_jiter it[2];
  int have[2] = {0, 0};
  for (size_t c = 0; c < g->ncols; c++) {
    const pcolumn *col = &p->cols[g->col0 + c];
    int w = col->len == 4 && !memcmp(col->name, "time", 4)     ? 0
            : col->len == 6 && !memcmp(col->name, "amount", 6) ? 1
                                                                : -1;
    if (w < 0) continue;
    have[w] = 1;
    cur[w] = cursor_at(p, col->pos);
    if (pcol_js_begin(&cur[w], '[', &it[w])) return scan_failed(p, &cur[w]);
  }
  int64_t time = PCOL_NA_I64;
  if (!have[0] && t.has && (rc = slice_time(p, t, &time))) return rc;
  if (!have[1] && is_real_text(p, a)) p->real_amounts = 1;
  for (uint32_t i = 0; i < g->nev; i++) {
    vslice v[2];
    for (int w = 0; w < 2; w++) {
      if (!have[w]) continue;
      if (pcol_js_next(&cur[w], &it[w], NULL) != 1 || pcol_js_value(&cur[w], &v[w].b, &v[w].e))
        return scan_failed(p, &cur[w]);
      v[w].has = 1;
    }
    if (have[0] && (rc = slice_time(p, v[0], &time))) return rc;
    if (have[1] && is_real_text(p, v[1])) p->real_amounts = 1;
    if ((rc = push_ev(p, time, (*seq)++, gi, i))) return rc;
  }
  return PCOL_OK;
}

/* Layouts 1, 2: events without their own time take the snapshot's. */
static int note_list(pimp *p, uint32_t gi, uint64_t *seq) {
  pcol_jscan s = cursor_at(p, p->groups[gi].list);
  pcol_jiter it;
  pcol_js_begin(&s, '[', &it);
  for (uint32_t i = 0; i < p->groups[gi].nev; i++) {
    size_t vb, ve;
    vslice t, a;
    int64_t time = p->groups[gi].snap_time;
    int rc;
    if (pcol_js_next(&s, &it, NULL) != 1 || pcol_js_value(&s, &vb, &ve)) return scan_failed(p, &s);
    if ((rc = find_time_amount(p, vb, &t, &a)) || (t.has && (rc = slice_time(p, t, &time)))) return rc;
    if (is_real_text(p, a)) p->real_amounts = 1;
    if ((rc = push_ev(p, time, (*seq)++, gi, i))) return rc;
  }
  return PCOL_OK;
}

static int note_events(pimp *p) {
  uint64_t seq = 0;
  int rc = PCOL_OK;
  for (size_t g = 0; g < p->ngroups && !rc; g++)
    if (p->groups[g].nev) rc = p->layout == 3 ? note_type(p, (uint32_t)g, &seq) : note_list(p, (uint32_t)g, &seq);
  return rc;
}

/* ----------------------------------------------------------- import */

static int is_data_key(int layout, const kent *e, int first) {
  if (e->kl == 6 && !memcmp(e->k, "models", 6)) return first == '[';
#define IS(lit) (e->kl == sizeof lit - 1 && !memcmp(e->k, lit, sizeof lit - 1))
  if (layout == 3) return IS("resource_type_map") || IS("resources");
  if (layout == 2) return IS("snapshots");
  return IS("global");
#undef IS
}

/* Top level: which layout, the header, and every non-data key as meta. */
static int read_top(pimp *p) {
  pcol_jscan s;
  pcol_js_init(&s, p->text, p->len);
  int c = pcol_js_peek(&s);
  if (c != '{') {
    size_t vb, ve;
    if (c != '[') return bad_json(p, s.pos, "'[' or '{' expected");
    if (pcol_js_value(&s, &vb, &ve) || pcol_js_end(&s)) return scan_failed(p, &s);
    return pcol_error_set(p->err, PCOL_EFORMAT, "%s: not a Perun profile: the top level is not a JSON object",
                          p->name);
  }
  /* this walk checks the whole document before anything is built */
  int rc = kidx_read(p, &s, &p->top, "top level");
  if (rc) return rc;
  if (pcol_js_end(&s)) return scan_failed(p, &s);
  const kent *map = kidx_getc(&p->top, "resource_type_map"), *res = kidx_getc(&p->top, "resources");
  const kent *snaps = kidx_getc(&p->top, "snapshots"), *glob = kidx_getc(&p->top, "global");
  if (map || (res && first_char(p, res->vb) == '{')) p->layout = 3;
  else if (snaps && first_char(p, snaps->vb) == '[') p->layout = 2;
  else if (glob && first_char(p, glob->vb) == '{') p->layout = 1;
  else
    return pcol_error_set(p->err, PCOL_EFORMAT,
                          "%s: not a Perun profile: no 'resource_type_map'/'resources', "
                          "'snapshots' or 'global' key", p->name);
  const kent *h = kidx_getc(&p->top, "header");
  if (h && first_char(p, h->vb) == '{') {
    if ((rc = load(p, h->vb, h->ve, &p->header))) return rc;
    json_t *t = json_object_get(p->header, "type");
    p->htype = json_is_string(t) ? json_string_value(t) : NULL;
    p->units = json_object_get(p->header, "units");
  }
  const kent *ci = kidx_getc(&p->top, "collector_info");
  if (ci && first_char(p, ci->vb) == '{') {
    json_t *v;
    if ((rc = load(p, ci->vb, ci->ve, &v))) return rc;
    json_t *cn = json_object_get(v, "name");
    p->kperf = json_is_string(cn) && !strcmp(json_string_value(cn), "kperf");
    json_decref(v);
  }

  /* provenance: every top-level key's place, and the non-data keys' values */
  char lay[2] = {(char)('0' + p->layout), 0};
  if (pcol_b_meta_str(p->b, p->src, "perun.layout", lay)) return oom(p);
  json_t *keys = json_array();
  if (!keys) return oom(p);
  for (size_t i = 0; i < p->top.n && !rc; i++) {
    const kent *e = &p->top.v[i];
    if (json_array_append_new(keys, json_stringn(e->k, e->kl))) rc = oom(p);
    if (rc || is_data_key(p->layout, e, first_char(p, e->vb))) continue;
    size_t kl = e->kl + 7;
    char *mk = malloc(kl);
    json_t *v = NULL;
    if (!mk) rc = oom(p);
    else snprintf(mk, kl, "perun.%.*s", (int)e->kl, e->k);
    if (!rc && !(rc = load(p, e->vb, e->ve, &v))) rc = meta_json(p, mk, v);
    json_decref(v);
    free(mk);
  }
  if (!rc) rc = meta_json(p, "perun.keys", keys);
  json_decref(keys);
  if (rc) return rc;

  rc = p->layout == 3 ? read_types(p, map, res) : read_snapshots(p, p->layout == 2 ? snaps : glob);
  if (rc) return rc;
  const kent *ms = kidx_getc(&p->top, "models");
  if (ms && first_char(p, ms->vb) == '[') {
    json_t *v;
    if ((rc = load(p, ms->vb, ms->ve, &v))) return rc;
    rc = models(p, v);
    json_decref(v);
  }
  return rc;
}

/* Two walks over the events: the first finds their times (and whether
 * amounts need scaling, which changes every value); the second interns
 * stacks and labels in document order; the samples are then added by time.
 * Memory: the document (mapped or read), 56 bytes per event and the builder. */
static int import_events(pimp *p) {
  int rc = note_events(p);
  if (rc) return rc;
  if (p->real_amounts && pcol_b_meta_str(p->b, p->src, "perun.amount_scale", "1e9")) return oom(p);
  if (!p->nev) return PCOL_OK;
  p->pend = calloc(p->nev, sizeof *p->pend);
  if (!p->pend) return oom(p);
  qsort(p->ev, p->nev, sizeof *p->ev, cmp_ev);
  /* remember positions that moved in their group */
  for (size_t i = 0; i < p->nev; i++) {
    pgroup *g = &p->groups[p->ev[i].group];
    if ((int64_t)p->ev[i].idx < g->last_idx) g->needs_index = 1;
    g->last_idx = p->ev[i].idx;
  }
  if ((rc = walk_events(p, emit_event))) return rc;
  for (size_t i = 0; i < p->nev; i++) {
    const pending *pd = &p->pend[p->ev[i].seq];
    pcol_sample_row s = {p->src, p->ev[i].time, 0, pd->weight, PCOL_NA_I64, pd->stack_id, pd->labelset_id};
    pcol_value_row val = {pd->value_type_id, pd->value};
    if (pcol_b_sample(p->b, &s, &val, pd->nval, NULL))
      return pcol_error_set(p->err, PCOL_EINVAL, "%s: could not add a sample (internal order error)", p->name);
  }
  return PCOL_OK;
}

int pcol_import_perun_text(pcol_builder *b, const char *text, size_t len, const char *name,
                           pcol_error *err) {
  pimp p = {0};
  p.b = b;
  p.name = name;
  p.err = err;
  p.text = text;
  p.len = len;
  p.max_work = (uint64_t)len > (UINT64_MAX - WORK_FLOOR) / WORK_PER_BYTE ? UINT64_MAX
                                                                         : WORK_FLOOR + (uint64_t)len * WORK_PER_BYTE;
  int rc = PCOL_OK;
  if (pcol_b_source(b, "perun", name, PCOL_NA_I64, &p.src) || pcol_b_cstr(b, U_JSON, &p.u_json) ||
      pcol_b_cstr(b, U_ABSENT, &p.u_absent))
    rc = oom(&p);
  if (!rc) rc = read_top(&p);
  if (!rc) rc = import_events(&p);
  json_decref(p.header);
  for (size_t i = 0; i < p.nvts; i++) free(p.vts[i].subtype);
  kidx_free(&p.top);
  kidx_free(&p.map);
  kidx_free(&p.res);
  drop_columns(&p, 0);
  free(p.cols);
  free(p.groups);
  free(p.ev);
  free(p.pend);
  free(p.labels);
  free(p.locs);
  free(p.fc);
  free(p.fr);
  pcol_hset_free(&p.fch);
  return rc;
}

int pcol_import_perun(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  uint64_t cap = opt && opt->max_input_bytes ? opt->max_input_bytes : (uint64_t)8 << 30;
  pcol_buf buf = {0};
  int rc = PCOL_OK;
  for (;;) {
    if (buf.cap - buf.len < 65536 && pcol_buf_reserve(&buf, buf.len < (1 << 20) ? 65536 : buf.len / 2)) {
      rc = pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
      break;
    }
    size_t want = buf.cap - buf.len;
    size_t n = fread(buf.data + buf.len, 1, want, in);
    buf.len += n;
    if (buf.len > cap) {
      rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                          (unsigned long long)cap);
      break;
    }
    if (n < want) {
      if (ferror(in)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
      break;
    }
  }
  if (!rc) rc = pcol_import_perun_text(b, (const char *)buf.data, buf.len, name, err);
  pcol_buf_free(&buf);
  return rc;
}
