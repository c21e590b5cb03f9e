/* perun_import.c — Perun profiles (.perf, JSON) into a pcol builder.
 *
 * Written from the file format only (spec.md §10.3 has the exact
 * mapping, which pcol_export_perun inverts).  In short: one Perun resource
 * event becomes one sample; `amount` becomes a sample value; `trace` (or a
 * string `uid`) becomes the stack; every other key of the event becomes a
 * label; the rest of the file is kept as JSON text in `meta` under
 * "perun.<key>" so that the exporter can give back the same JSON value. */
#include "internal.h"
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

typedef struct pev {
  int64_t time;  /* ns, PCOL_NA_I64 first */
  uint64_t seq;  /* original position (stable sort) */
  uint32_t group, idx;
  json_t *obj;   /* layout 1/2: the event; layout 3: the resource_type_map entry */
  json_t *cols;  /* layout 3: resources[key] */
} pev;

typedef struct pgroup {
  uint32_t name_sid;    /* layout 3 type key */
  uint32_t columns_sid; /* layout 3 JSON array of column names */
  int64_t last_idx;
  int needs_index;
} pgroup;

typedef struct vtcache {
  const char *subtype; /* NULL = no subtype */
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
} pimp;

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
    p->vts[p->nvts].subtype = subtype;
    p->vts[p->nvts++].vt = *out;
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------- labels */

static int push_label(pimp *p, const char *key, uint32_t str, int64_t num, uint32_t unit) {
  if (p->nlabels == p->caplabels) {
    size_t c = p->caplabels ? 2 * p->caplabels : 16;
    pcol_label_row *n = realloc(p->labels, c * sizeof *n);
    if (!n) return oom(p);
    p->labels = n;
    p->caplabels = c;
  }
  pcol_label_row *l = &p->labels[p->nlabels];
  if (pcol_b_cstr(p->b, key, &l->key)) return oom(p);
  l->str = str;
  l->num = num;
  l->num_unit = unit;
  p->nlabels++;
  return PCOL_OK;
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

/* Builds p->locs (leaf first) from trace / uid; adds the perun.trace label
 * when the exporter cannot rebuild the trace from the stack. */
static int event_stack(pimp *p, const json_t *trace, const json_t *uid, uint32_t *stack_id) {
  p->nlocs = 0;
  int rc;
  uint32_t loc;
  if (trace) {
    int canonical = json_is_array(trace);
    size_t n = json_is_array(trace) ? json_array_size(trace) : 0;
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
      if ((rc = trace_frame(p, json_array_get(trace, j), &canonical, &loc)) ||
          (rc = push_loc(p, loc)))
        return rc;
    }
    if (!canonical && (rc = label_json_text(p, K_TRACE, trace))) return rc;
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

/* The value of key k for event e (layout 3: the column entry wins). */
static json_t *ev_get(const pev *e, const char *k) {
  if (e->cols) {
    json_t *c = json_object_get(e->cols, k);
    if (c) return json_array_get(c, e->idx);
  }
  return json_object_get(e->obj, k);
}

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

static int add_field(pimp *p, const char *k, const json_t *v, const json_t **trace,
                     const json_t **amount) {
  if (!strcmp(k, "trace")) {
    *trace = v;
    return PCOL_OK;
  }
  if (!strcmp(k, "amount")) {
    *amount = v;
    return PCOL_OK;
  }
  return generic_label(p, k, v);
}

static int emit_event(pimp *p, const pev *e, pgroup *g) {
  p->nlabels = 0;
  int rc;
  if (p->layout == 3) {
    if ((rc = push_label(p, K_TYPE_KEY, g->name_sid, 0, 0)) ||
        (rc = push_label(p, K_COLUMNS, g->columns_sid, 0, p->u_json)))
      return rc;
  } else if (p->layout == 2) {
    if ((rc = push_label(p, K_SNAPSHOT, 0, e->group, 0))) return rc;
  }
  if (g->needs_index && (rc = push_label(p, K_INDEX, 0, e->idx, 0))) return rc;
  const json_t *trace = NULL, *amount = NULL;
  const char *k;
  json_t *v;
  json_object_foreach(e->obj, k, v) {
    if (e->cols && json_object_get(e->cols, k)) continue;
    if ((rc = add_field(p, k, v, &trace, &amount))) return rc;
  }
  if (e->cols) json_object_foreach(e->cols, k, v) {
      if ((rc = add_field(p, k, json_array_get(v, e->idx), &trace, &amount))) return rc;
    }
  pcol_sample_row s = {p->src, e->time, 0, 1, PCOL_NA_I64, 0, 0};
  pcol_value_row val;
  size_t nval = 0;
  json_t *st = ev_get(e, "subtype");
  if (amount && (rc = amount_label_and_value(p, amount, json_is_string(st) ? json_string_value(st) : NULL,
                                             &val, &nval, &s.weight)))
    return rc;
  if ((rc = event_stack(p, trace, ev_get(e, "uid"), &s.stack_id))) return rc;
  if (pcol_b_labelset(p->b, p->labels, p->nlabels, &s.labelset_id)) return oom(p);
  if (pcol_b_sample(p->b, &s, &val, nval, NULL))
    return pcol_error_set(p->err, PCOL_EINVAL, "%s: could not add a sample (internal order error)", p->name);
  return PCOL_OK;
}

static int cmp_ev(const void *a, const void *b) {
  const pev *x = a, *y = b;
  if (x->time != y->time) return x->time < y->time ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* --------------------------------------------------------------- load */

typedef struct capped {
  FILE *in;
  uint64_t left;
  int over;
} capped;

static size_t capped_read(void *buf, size_t len, void *data) {
  capped *c = data;
  if (c->left == 0) {
    /* one more byte tells a file of exactly the cap from a longer one */
    int ch = fgetc(c->in);
    if (ch != EOF) c->over = 1;
    return 0;
  }
  if (len > c->left) len = (size_t)c->left;
  size_t n = fread(buf, 1, len, c->in);
  c->left -= n;
  if (n == 0 && ferror(c->in)) return (size_t)-1;
  return n;
}

typedef struct evlist {
  pev *v;
  size_t n, cap;
} evlist;

static int ev_push(pimp *p, evlist *l, pev e) {
  if (l->n == l->cap) {
    size_t c = l->cap ? 2 * l->cap : 256;
    pev *n = realloc(l->v, c * sizeof *n);
    if (!n) return oom(p);
    l->v = n;
    l->cap = c;
  }
  e.seq = l->n;
  l->v[l->n++] = e;
  return PCOL_OK;
}

/* Copy of a snapshot/global object with "resources" emptied (the skeleton
 * the exporter fills in again). */
static json_t *skeleton(const json_t *o) {
  json_t *c = json_object();
  if (!c) return NULL;
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)o, k, v) {
    if (json_object_set_new(c, k, !strcmp(k, "resources") ? json_array() : json_incref(v))) {
      json_decref(c);
      return NULL;
    }
  }
  return c;
}

static int collect_list(pimp *p, evlist *l, const json_t *snap, uint32_t group, const char *where) {
  json_t *res = json_object_get(snap, "resources");
  if (!res) return PCOL_OK;
  if (!json_is_array(res))
    return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: %s.resources: expected a list", p->name, where);
  for (size_t j = 0; j < json_array_size(res); j++) {
    json_t *e = json_array_get(res, j);
    if (!json_is_object(e))
      return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: %s.resources[%zu]: expected an object",
                            p->name, where, j);
    if (j > UINT32_MAX)
      return pcol_error_set(p->err, PCOL_ETOOBIG, "%s: %s: too many resources", p->name, where);
    pev ev = {parse_time(json_object_get(e, "time")), 0, group, (uint32_t)j, e, NULL};
    int rc = ev_push(p, l, ev);
    if (rc) return rc;
  }
  return PCOL_OK;
}

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

static int is_data_key(int layout, const char *k, const json_t *v) {
  if (!strcmp(k, "models")) return json_is_array(v);
  if (layout == 3) return !strcmp(k, "resource_type_map") || !strcmp(k, "resources");
  if (layout == 2) return !strcmp(k, "snapshots");
  return !strcmp(k, "global");
}

static int import_root(pimp *p, json_t *root, evlist *l, pgroup **groups, size_t *ngroups) {
  int rc;
  json_t *map = json_object_get(root, "resource_type_map"), *res = json_object_get(root, "resources");
  json_t *snaps = json_object_get(root, "snapshots"), *glob = json_object_get(root, "global");
  if (map || json_is_object(res)) p->layout = 3;
  else if (json_is_array(snaps)) p->layout = 2;
  else if (json_is_object(glob)) p->layout = 1;
  else
    return pcol_error_set(p->err, PCOL_EFORMAT,
                          "%s: not a Perun profile: no 'resource_type_map'/'resources', "
                          "'snapshots' or 'global' key", p->name);
  json_t *hdr = json_object_get(root, "header");
  if (json_is_object(hdr)) {
    json_t *t = json_object_get(hdr, "type");
    p->htype = json_is_string(t) ? json_string_value(t) : NULL;
    p->units = json_object_get(hdr, "units");
  }
  json_t *ci = json_object_get(root, "collector_info");
  json_t *cn = json_is_object(ci) ? json_object_get(ci, "name") : NULL;
  p->kperf = json_is_string(cn) && !strcmp(json_string_value(cn), "kperf");

  /* provenance: every top-level key's place, and the non-data keys' values */
  char lay[2] = {(char)('0' + p->layout), 0};
  if ((rc = pcol_b_meta_str(p->b, p->src, "perun.layout", lay))) return oom(p);
  json_t *keys = json_array();
  if (!keys) return oom(p);
  const char *k;
  json_t *v;
  json_object_foreach(root, k, v) {
    if (json_array_append_new(keys, json_string(k))) {
      json_decref(keys);
      return oom(p);
    }
    if (is_data_key(p->layout, k, v)) continue;
    size_t kl = strlen(k) + 7;
    char *mk = malloc(kl);
    if (!mk) {
      json_decref(keys);
      return oom(p);
    }
    snprintf(mk, kl, "perun.%s", k);
    rc = meta_json(p, mk, v);
    free(mk);
    if (rc) {
      json_decref(keys);
      return rc;
    }
  }
  rc = meta_json(p, "perun.keys", keys);
  json_decref(keys);
  if (rc) return rc;

  if (p->layout == 3) {
    if (map && !json_is_object(map))
      return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: resource_type_map: expected an object", p->name);
    if (res && !json_is_object(res))
      return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: resources: expected an object", p->name);
    size_t ng = json_object_size(res);
    *groups = calloc(ng ? ng : 1, sizeof **groups);
    if (!*groups) return oom(p);
    json_t *empty = json_pack("{s{}s{}}", "resource_type_map", "resources");
    if (!empty) return oom(p);
    json_t *emap = json_object_get(empty, "resource_type_map"), *eres = json_object_get(empty, "resources");
    size_t gi = 0;
    rc = PCOL_OK;
    json_object_foreach(res, k, v) {
      json_t *pe = json_object_get(map, k);
      if (!json_is_object(v)) {
        rc = pcol_error_set(p->err, PCOL_ECORRUPT, "%s: resources[\"%s\"]: expected an object", p->name, k);
        break;
      }
      if (!json_is_object(pe)) {
        rc = pcol_error_set(p->err, PCOL_ECORRUPT,
                            "%s: resources[\"%s\"] has no object in resource_type_map", p->name, k);
        break;
      }
      size_t n = 0;
      int first = 1;
      const char *ck, *first_key = NULL;
      json_t *cv;
      json_t *cols = json_array();
      if (!cols) {
        rc = oom(p);
        break;
      }
      json_object_foreach(v, ck, cv) {
        json_array_append_new(cols, json_string(ck));
        if (!json_is_array(cv)) {
          rc = pcol_error_set(p->err, PCOL_ECORRUPT, "%s: resources[\"%s\"][\"%s\"]: expected a list",
                              p->name, k, ck);
          break;
        }
        if (first) n = json_array_size(cv), first_key = ck, first = 0;
        else if (json_array_size(cv) != n) {
          rc = pcol_error_set(p->err, PCOL_ECORRUPT,
                              "%s: resources[\"%s\"]: column '%s' has %zu entries but '%s' has %zu",
                              p->name, k, ck, json_array_size(cv), first_key, n);
          break;
        }
      }
      if (!rc && n > UINT32_MAX)
        rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: resources[\"%s\"]: too many entries", p->name, k);
      if (rc) {
        json_decref(cols);
        break;
      }
      if (n == 0) {
        /* nothing to make samples of: keep the entry verbatim */
        json_decref(cols);
        json_object_set(emap, k, pe);
        json_object_set(eres, k, v);
        continue;
      }
      pgroup *g = &(*groups)[gi];
      char *cs = jtext(cols);
      json_decref(cols);
      if (!cs || pcol_b_cstr(p->b, k, &g->name_sid) || pcol_b_cstr(p->b, cs, &g->columns_sid)) {
        free(cs);
        rc = oom(p);
        break;
      }
      free(cs);
      g->last_idx = -1;
      for (size_t i = 0; i < n && !rc; i++) {
        pev e = {0, 0, (uint32_t)gi, (uint32_t)i, pe, v};
        e.time = parse_time(ev_get(&e, "time"));
        rc = ev_push(p, l, e);
      }
      gi++;
    }
    *ngroups = gi;
    if (!rc) json_object_foreach(map, k, v) {
        if (!json_object_get(res, k)) json_object_set(emap, k, v);
      }
    if (!rc && (json_object_size(emap) || json_object_size(eres)))
      rc = meta_json(p, "perun.empty_types", empty);
    json_decref(empty);
    if (rc) return rc;
  } else {
    json_t *list = p->layout == 2 ? snaps : NULL;
    size_t ns = p->layout == 2 ? json_array_size(snaps) : 1;
    *groups = calloc(ns ? ns : 1, sizeof **groups);
    if (!*groups) return oom(p);
    *ngroups = ns;
    json_t *skel = p->layout == 2 ? json_array() : NULL;
    if (p->layout == 2 && !skel) return oom(p);
    for (size_t i = 0; i < ns; i++) {
      json_t *s = p->layout == 2 ? json_array_get(list, i) : glob;
      char where[48];
      if (p->layout == 2) snprintf(where, sizeof where, "snapshots[%zu]", i);
      else snprintf(where, sizeof where, "global");
      if (!json_is_object(s)) {
        json_decref(skel);
        return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: %s: expected an object", p->name, where);
      }
      (*groups)[i].last_idx = -1;
      size_t before = l->n;
      if ((rc = collect_list(p, l, s, (uint32_t)i, where))) {
        json_decref(skel);
        return rc;
      }
      /* events without their own time take the snapshot's */
      int64_t st = parse_time(json_object_get(s, "time"));
      for (size_t j = before; j < l->n; j++)
        if (!json_object_get(l->v[j].obj, "time")) l->v[j].time = st;
      json_t *sk = skeleton(s);
      if (!sk) {
        json_decref(skel);
        return oom(p);
      }
      if (p->layout == 2) json_array_append_new(skel, sk);
      else skel = sk;
    }
    rc = meta_json(p, p->layout == 2 ? "perun.snapshots" : "perun.global", skel);
    json_decref(skel);
    if (rc) return rc;
  }
  json_t *ms = json_object_get(root, "models");
  if (json_is_array(ms) && (rc = models(p, ms))) return rc;
  return PCOL_OK;
}

int pcol_import_perun(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  pimp p = {0};
  p.b = b;
  p.name = name;
  p.err = err;
  capped c = {in, opt && opt->max_input_bytes ? opt->max_input_bytes : (uint64_t)8 << 30, 0};
  json_error_t je;
  json_t *root = json_load_callback(capped_read, &c, 0, &je);
  if (c.over) {
    json_decref(root);
    return pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                          (unsigned long long)(opt && opt->max_input_bytes ? opt->max_input_bytes
                                                                           : (uint64_t)8 << 30));
  }
  if (!root) {
    if (ferror(in)) return pcol_error_set(err, PCOL_EIO, "%s: read error", name);
    return pcol_error_set(err, PCOL_ECORRUPT, "%s:%d:%d: invalid JSON: %s", name, je.line, je.column,
                          je.text);
  }
  if (!json_is_object(root)) {
    json_decref(root);
    return pcol_error_set(err, PCOL_EFORMAT, "%s: not a Perun profile: the top level is not a JSON object",
                          name);
  }
  evlist l = {0};
  pgroup *groups = NULL;
  size_t ngroups = 0;
  int rc = PCOL_OK;
  if (pcol_b_source(b, "perun", name, PCOL_NA_I64, &p.src) || pcol_b_cstr(b, U_JSON, &p.u_json) ||
      pcol_b_cstr(b, U_ABSENT, &p.u_absent))
    rc = oom(&p);
  if (!rc) rc = import_root(&p, root, &l, &groups, &ngroups);
  if (!rc) {
    /* amounts with a fraction anywhere: store every amount scaled by 1e9 */
    for (size_t i = 0; i < l.n && !p.real_amounts; i++) {
      json_t *a = ev_get(&l.v[i], "amount");
      if (json_is_real(a)) p.real_amounts = 1;
    }
    if (p.real_amounts && pcol_b_meta_str(b, p.src, "perun.amount_scale", "1e9")) rc = oom(&p);
  }
  if (!rc) {
    /* samples go in time order (NA first); remember positions that moved */
    if (l.n) qsort(l.v, l.n, sizeof *l.v, cmp_ev); /* qsort(NULL, 0) is UB */
    for (size_t i = 0; i < l.n; i++) {
      pgroup *g = &groups[l.v[i].group];
      if ((int64_t)l.v[i].idx < g->last_idx) g->needs_index = 1;
      g->last_idx = l.v[i].idx;
    }
    for (size_t i = 0; i < l.n && !rc; i++) rc = emit_event(&p, &l.v[i], &groups[l.v[i].group]);
  }
  free(l.v);
  free(groups);
  free(p.labels);
  free(p.locs);
  json_decref(root);
  return rc;
}
