/* perun_doc.c — where a Perun document's events are.
 *
 * The whole text is checked once with the allocation-free walker
 * (json_scan.c); the top level and resource_type_map are indexed by byte
 * offset, resources walked in place; each event is then handed to the
 * caller as a small jansson object, so no tree of the whole file is ever
 * built.  A mapped text's pages are handed back as the walks move on
 * (perun_release).  What an event becomes
 * is perun_import.c's business. */
#include "perun.h"
#include "keys.h"     /* PERUN_META_EMPTY_TYPES, PERUN_META_GLOBAL, PERUN_META_KEYS, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK */
#include "buf.h"      /* PCOL_GROW */
#include "hash.h"     /* pcol_hash_keyed, pcol_hset_find, pcol_hset_free, ... */
#include <math.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------- helpers perun_import.c uses too
 * (defined here, below it: the document never calls the import half) */

int perun_oom(pimp *p) { return pcol_error_set(p->err, PCOL_ENOMEM, "%s: out of memory", p->name); }

int perun_b(pimp *p, int rc) {
  if (rc) (void)pcol_error_prefix(p->err, p->name);
  return rc;
}

/* JSON text of any value (compact, key order kept; NaN and Infinity as
 * Python writes them, perun_json.h); malloc'd. */
char *perun_jtext(const json_t *v) {
  return perun_json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
}

int perun_meta_json(pimp *p, const char *key, const json_t *v) {
  char *s = perun_jtext(v);
  if (!s) return perun_oom(p);
  int rc = pcol_b_meta(p->b, p->src, key, s, strlen(s), p->err);
  free(s);
  return perun_b(p, rc);
}

/* ------------------------------------------------ the mapped document */

void perun_release(pimp *p) {
  p->touched = 0;
  if (p->mapped && p->len) (void)madvise((void *)p->text, p->len, MADV_DONTNEED);
}

void perun_touched(pimp *p, size_t bytes) {
  if ((p->touched += bytes) > ((size_t)8 << 20)) perun_release(p);
}

/* ---------------------------------------------------------------- time */

/* "0.025000", "0.00023s", "12ms", 3, 0.5 (seconds) -> ns; NA if unknown ("???"). */
int64_t perun_parse_time(const json_t *v) {
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
  if (!perun_json_is_str(v)) return PCOL_NA_I64;
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

/* ------------------------------------------------------- the document */

static int bad_json(pimp *p, size_t pos, const char *why) {
  size_t line, col;
  pcol_js_line_col(p->text, p->len, pos, &line, &col);
  return pcol_error_set(p->err, PCOL_ECORRUPT, "%s:%zu:%zu: invalid JSON: %s", p->name, line, col, why);
}

/* A structural error at byte `pos`: "NAME:LINE:COL: <fmt>". */
static int bad_at(pimp *p, size_t pos, const char *fmt, ...) {
  char body[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  size_t line, col;
  pcol_js_line_col(p->text, p->len, pos, &line, &col);
  return pcol_error_set(p->err, PCOL_ECORRUPT, "%s:%zu:%zu: %s", p->name, line, col, body);
}

int perun_scan_failed(pimp *p, const pcol_jscan *s) { return bad_json(p, s->err_pos, s->err); }

/* The JSON value at [b, e) as a jansson tree (small parts only). */
int perun_load(pimp *p, size_t b, size_t e, json_t **out) {
  json_error_t je;
  *out = perun_json_loadb(p->text + b, e - b, JSON_DECODE_ANY, &je);
  if (*out) return PCOL_OK;
  /* the scanner accepted it, so this is a number out of range or no memory */
  /* a scalar (a number out of range) is named where it starts */
  if (je.position < 0 || (size_t)je.position > e - b || (p->text[b] != '{' && p->text[b] != '['))
    je.position = 0;
  return bad_json(p, b + (size_t)je.position, je.text);
}

static int first_char(const pimp *p, size_t vb) { return vb < p->len ? p->text[vb] : 0; }

void perun_kidx_free(kindex *x) {
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
  uint32_t id = pcol_hset_find(&x->h, pcol_hash_keyed(k, kl), kidx_eq, x, &q);
  return id ? &x->v[id - 1] : NULL;
}

static const kent *kidx_getc(const kindex *x, const char *k) { return kidx_get(x, k, strlen(k)); }

/* Reads the object at the cursor (which must stand on '{') into x. */
static int kidx_read(pimp *p, pcol_jscan *s, kindex *x, const char *where) {
  pcol_jiter it;
  pcol_jkey key;
  int more;
  if (pcol_js_begin(s, '{', &it)) return perun_scan_failed(p, s);
  while ((more = pcol_js_next(s, &it, &key)) == 1) {
    if (PCOL_GROW(x->v, x->n, x->cap)) return perun_oom(p);
    if (x->n >= UINT32_MAX - 1)
      return pcol_error_set(p->err, PCOL_ETOOBIG, "%s: %s: too many keys", p->name, where);
    kent *e = &x->v[x->n];
    e->owned = key.escaped;
    if (key.escaped) {
      if (!(e->k = pcol_js_key_decode(s, &key, &e->kl))) return perun_oom(p);
    } else {
      e->k = p->text + key.start;
      e->kl = key.len;
    }
    if (pcol_js_value(s, &e->vb, &e->ve)) {
      if (e->owned) free((char *)e->k);
      return perun_scan_failed(p, s);
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
        if (pcol_hset_insert(&x->h, pcol_hash_keyed(x->v[i].k, x->v[i].kl), (uint32_t)(i + 1))) return perun_oom(p);
    }
  }
  return more < 0 ? perun_scan_failed(p, s) : PCOL_OK;
}

/* A cursor standing at byte `pos`. */
pcol_jscan perun_cursor_at(const pimp *p, size_t pos) {
  pcol_jscan s;
  pcol_js_init(&s, p->text, p->len);
  s.pos = pos;
  return s;
}

static int kidx_read_at(pimp *p, size_t pos, kindex *x, const char *where) {
  pcol_jscan s = perun_cursor_at(p, pos);
  return kidx_read(p, &s, x, where);
}

static pgroup *new_group(pimp *p) {
  if (PCOL_GROW(p->groups, p->ngroups, p->capgroups)) return NULL;
  pgroup *g = &p->groups[p->ngroups++];
  memset(g, 0, sizeof *g);
  g->snap_time = PCOL_NA_I64;
  return g;
}

/* ------------------------------------------------- layouts 1 and 2 */

/* The number of entries of the list at pos; with `objects` (a name for
 * messages) each must be an object. */
static int count_entries(pimp *p, size_t pos, const char *objects, size_t *n) {
  pcol_jscan s = perun_cursor_at(p, pos);
  pcol_jiter it;
  size_t vb, ve;
  int more;
  *n = 0;
  if (pcol_js_begin(&s, '[', &it)) return perun_scan_failed(p, &s);
  while ((more = pcol_js_next(&s, &it, NULL)) == 1) {
    if (pcol_js_value(&s, &vb, &ve)) return perun_scan_failed(p, &s);
    if (objects && first_char(p, vb) != '{') return bad_at(p, vb, "%s[%zu]: expected an object", objects, *n);
    ++*n;
  }
  return more < 0 ? perun_scan_failed(p, &s) : PCOL_OK;
}

/* One snapshot (or `global`) object at byte `pos`: its resources list
 * becomes a group; the rest, with resources emptied, is appended to skel
 * (the skeleton the exporter fills in again). */
static int read_snapshot(pimp *p, size_t pos, const char *where, json_t *skel) {
  if (first_char(p, pos) != '{')
    return bad_at(p, pos, "%s: expected an object", where);
  kindex x = {0};
  json_t *sk = json_object();
  int rc = sk ? kidx_read_at(p, pos, &x, where) : perun_oom(p);
  pgroup *g = rc ? NULL : new_group(p);
  if (!rc && !g) rc = perun_oom(p);
  for (size_t i = 0; i < x.n && !rc; i++) {
    kent *e = &x.v[i];
    json_t *v = NULL;
    int is_res = e->kl == 9 && !memcmp(e->k, "resources", 9);
    if (is_res) v = json_array();
    else rc = perun_load(p, e->vb, e->ve, &v);
    if (!rc && (!v || json_object_setn_new(sk, e->k, e->kl, v))) rc = perun_oom(p);
    if (rc || !is_res) continue;
    if (first_char(p, e->vb) != '[') {
      rc = bad_at(p, e->vb, "%s.resources: expected a list", where);
      break;
    }
    /* every entry must be an object; count them */
    char rw[96];
    size_t n;
    snprintf(rw, sizeof rw, "%s.resources", where);
    if ((rc = count_entries(p, e->vb, rw, &n))) break;
    if (n > UINT32_MAX) {
      rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: %s: too many resources", p->name, where);
      break;
    }
    g->list = e->vb;
    g->nev = (uint32_t)n;
  }
  if (!rc) {
    const kent *t = kidx_getc(&x, "time");
    json_t *tv = t ? json_object_getn(sk, t->k, t->kl) : NULL;
    g->snap_time = perun_parse_time(tv);
  }
  perun_kidx_free(&x);
  if (!rc && (json_is_array(skel) ? json_array_append(skel, sk) : json_object_update(skel, sk))) rc = perun_oom(p);
  json_decref(sk);
  return rc;
}

static int read_snapshots(pimp *p, const kent *list) {
  json_t *skel = p->layout == 2 ? json_array() : json_object();
  if (!skel) return perun_oom(p);
  int rc = PCOL_OK;
  if (p->layout == 1) {
    rc = read_snapshot(p, list->vb, "global", skel);
  } else {
    pcol_jscan s = perun_cursor_at(p, list->vb);
    pcol_jiter it;
    size_t vb, ve;
    int more;
    pcol_js_begin(&s, '[', &it);
    while (!rc && (more = pcol_js_next(&s, &it, NULL)) == 1) {
      char where[48];
      snprintf(where, sizeof where, "snapshots[%zu]", p->ngroups);
      if (pcol_js_value(&s, &vb, &ve)) rc = perun_scan_failed(p, &s);
      else if (p->ngroups >= UINT32_MAX) rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: too many snapshots", p->name);
      else rc = read_snapshot(p, vb, where, skel);
    }
    if (!rc && more < 0) rc = perun_scan_failed(p, &s);
  }
  if (!rc) rc = perun_meta_json(p, p->layout == 2 ? PERUN_META_SNAPSHOTS : PERUN_META_GLOBAL, skel);
  json_decref(skel);
  return rc;
}

/* --------------------------------------------------------- layout 3 */

/* Takes the key (and its ownership) of a column entry. */
static int add_column(pimp *p, kent *ce) {
  if (PCOL_GROW(p->cols, p->ncols, p->capcols)) return perun_oom(p);
  p->cols[p->ncols++] = (pcolumn){ce->k, ce->kl, ce->vb, ce->owned};
  ce->owned = 0;
  return PCOL_OK;
}

void perun_drop_columns(pimp *p, size_t from) {
  while (p->ncols > from) {
    pcolumn *c = &p->cols[--p->ncols];
    if (c->owned) free((char *)c->name);
  }
}

/* Layout 3: the columns of group g (checked by read_type) into p->cols,
 * read again from its resources entry at each walk rather than kept for
 * every type. */
static int group_columns(pimp *p, const pgroup *g) {
  perun_drop_columns(p, 0);
  pcol_jscan s = perun_cursor_at(p, g->list);
  pcol_jiter it;
  pcol_jkey key;
  int more, rc = PCOL_OK;
  if (pcol_js_begin(&s, '{', &it)) return perun_scan_failed(p, &s);
  while (!rc && (more = pcol_js_next(&s, &it, &key)) == 1) {
    kent e = {p->text + key.start, key.len, 0, 0, key.escaped};
    if (key.escaped && !(e.k = pcol_js_key_decode(&s, &key, &e.kl))) return perun_oom(p);
    if (pcol_js_value(&s, &e.vb, &e.ve)) rc = perun_scan_failed(p, &s);
    else rc = add_column(p, &e);
    if (e.owned) free((char *)e.k);
  }
  perun_touched(p, s.pos - g->list);
  return rc ? rc : more < 0 ? perun_scan_failed(p, &s) : PCOL_OK;
}

/* resources[k] (entry e, its map entry pe): its columns, checked to be
 * lists of one length; a group of that many events, or, when there are
 * none, both entries kept verbatim in `empty`. */
static int read_type(pimp *p, const kent *e, const kent *pe, json_t *empty) {
  int kl = (int)(e->kl > 200 ? 200 : e->kl);
  if (first_char(p, e->vb) != '{')
    return bad_at(p, e->vb, "resources[\"%.*s\"]: expected an object", kl, e->k);
  if (!pe || first_char(p, pe->vb) != '{')
    return bad_at(p, e->vb, "resources[\"%.*s\"] has no object in resource_type_map", kl, e->k);
  char where[256];
  snprintf(where, sizeof where, "resources[\"%.*s\"]", kl, e->k);
  kindex x = {0};
  int rc = kidx_read_at(p, e->vb, &x, where);
  size_t n = 0;
  json_t *names = rc ? NULL : json_array();
  if (!rc && !names) rc = perun_oom(p);
  for (size_t c = 0; c < x.n && !rc; c++) {
    kent *ce = &x.v[c];
    if (first_char(p, ce->vb) != '[') {
      rc = bad_at(p, ce->vb, "%s[\"%.*s\"]: expected a list", where,
                          (int)(ce->kl > 200 ? 200 : ce->kl), ce->k);
      break;
    }
    size_t cnt;
    if ((rc = count_entries(p, ce->vb, NULL, &cnt))) break;
    if (c == 0) n = cnt;
    else if (cnt != n) {
      rc = bad_at(p, ce->vb, "%s: column '%.*s' has %zu entries but '%.*s' has %zu", where,
                  (int)(ce->kl > 200 ? 200 : ce->kl), ce->k, cnt, (int)(x.v[0].kl > 200 ? 200 : x.v[0].kl),
                  x.v[0].k, n);
      break;
    }
    if (json_array_append_new(names, json_stringn(ce->k, ce->kl))) rc = perun_oom(p);
  }
  perun_kidx_free(&x);
  if (!rc && n > UINT32_MAX)
    rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: %s: too many entries", p->name, where);
  if (!rc && n == 0) {
    /* nothing to make samples of: keep the entry verbatim */
    /* json_object_setn_new takes the value even when it fails */
    json_t *v;
    if (!(rc = perun_load(p, pe->vb, pe->ve, &v)) &&
        json_object_setn_new(json_object_get(empty, "resource_type_map"), e->k, e->kl, v))
      rc = perun_oom(p);
    if (!rc && !(rc = perun_load(p, e->vb, e->ve, &v)) &&
        json_object_setn_new(json_object_get(empty, "resources"), e->k, e->kl, v))
      rc = perun_oom(p);
  } else if (!rc) {
    pgroup *g = new_group(p);
    char *cs = perun_jtext(names);
    if (!g || !cs) rc = perun_oom(p);
    else if ((rc = pcol_b_string(p->b, e->k, e->kl, &g->name_sid, p->err)) ||
             (rc = pcol_b_cstr(p->b, cs, &g->columns_sid, p->err)))
      rc = perun_b(p, rc);
    free(cs);
    if (!rc) {
      g->nev = (uint32_t)n;
      g->obj = pe->vb;
      g->list = e->vb;
    }
  }
  json_decref(names);
  return rc;
}

static int read_types(pimp *p, const kent *map, const kent *res) {
  if (map && first_char(p, map->vb) != '{')
    return bad_at(p, map->vb, "resource_type_map: expected an object");
  if (res && first_char(p, res->vb) != '{')
    return bad_at(p, res->vb, "resources: expected an object");
  int rc;
  if (map && (rc = kidx_read_at(p, map->vb, &p->map, "resource_type_map"))) return rc;
  if (map) perun_touched(p, map->ve - map->vb);
  /* the resources are walked in place, not indexed: each takes its map
   * entry, whose bit says it was taken (a second resource of that key is
   * a duplicate; a resource without one has no map entry, refused) */
  uint8_t *taken = calloc(p->map.n / 8 + 1, 1);
  json_t *empty = taken ? json_pack("{s{}s{}}", "resource_type_map", "resources") : NULL;
  if (!empty) {
    free(taken);
    return perun_oom(p);
  }
  rc = PCOL_OK;
  if (res) {
    pcol_jscan s = perun_cursor_at(p, res->vb);
    pcol_jiter it;
    pcol_jkey key;
    int more = 0;
    if (pcol_js_begin(&s, '{', &it)) rc = perun_scan_failed(p, &s);
    while (!rc && (more = pcol_js_next(&s, &it, &key)) == 1) {
      kent e = {p->text + key.start, key.len, 0, 0, key.escaped};
      if (key.escaped && !(e.k = pcol_js_key_decode(&s, &key, &e.kl))) {
        rc = perun_oom(p);
        break;
      }
      const kent *pe = kidx_get(&p->map, e.k, e.kl);
      size_t mi = pe ? (size_t)(pe - p->map.v) : 0;
      if (pcol_js_value(&s, &e.vb, &e.ve)) {
        rc = perun_scan_failed(p, &s);
      } else if (pe && (taken[mi / 8] >> (mi % 8) & 1)) {
        size_t line, col;
        pcol_js_line_col(p->text, p->len, key.start, &line, &col);
        rc = pcol_error_set(p->err, PCOL_ECORRUPT, "%s:%zu:%zu: resources: duplicate key \"%.*s\"", p->name, line,
                            col, (int)(e.kl > 200 ? 200 : e.kl), e.k);
      } else if (p->ngroups >= UINT32_MAX) {
        rc = pcol_error_set(p->err, PCOL_ETOOBIG, "%s: too many resource types", p->name);
      } else {
        if (pe) taken[mi / 8] |= (uint8_t)(1u << (mi % 8));
        rc = read_type(p, &e, pe, empty);
        perun_touched(p, e.ve - e.vb + (pe ? pe->ve - pe->vb : 0));
      }
      if (e.owned) free((char *)e.k);
    }
    if (!rc && more < 0) rc = perun_scan_failed(p, &s);
  }
  json_t *emap = json_object_get(empty, "resource_type_map");
  for (size_t i = 0; i < p->map.n && !rc; i++) {
    const kent *e = &p->map.v[i];
    json_t *v;
    if (taken[i / 8] >> (i % 8) & 1) continue;
    if (!(rc = perun_load(p, e->vb, e->ve, &v)) && json_object_setn_new(emap, e->k, e->kl, v)) rc = perun_oom(p);
  }
  free(taken);
  if (!rc && (json_object_size(emap) || json_object_size(json_object_get(empty, "resources"))))
    rc = perun_meta_json(p, PERUN_META_EMPTY_TYPES, empty);
  json_decref(empty);
  /* the groups hold what the events need from here on */
  perun_kidx_free(&p->map);
  return rc;
}

/* ------------------------------------------------------ event walks */


/* A scalar without escapes is made directly; anything else goes to jansson. */
static int load_fast(pimp *p, size_t b, size_t e, json_t **out) {
  const char *t = p->text + b;
  size_t n = e - b;
  *out = NULL;
  if (t[0] == '"') {
    if (!memchr(t + 1, '\\', n - 2)) *out = json_stringn_nocheck(t + 1, n - 2); /* checked UTF-8 */
    else return perun_load(p, b, e, out);
  } else if (t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) {
    uint64_t v = 0, lim = t[0] == '-' ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    size_t i = t[0] == '-';
    for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) {
      if (v > (lim - (uint64_t)(t[i] - '0')) / 10) return perun_load(p, b, e, out); /* jansson's error */
      v = v * 10 + (uint64_t)(t[i] - '0');
    }
    if (i < n) return perun_load(p, b, e, out); /* a real */
    *out = json_integer(t[0] == '-' ? (json_int_t)(0 - v) : (json_int_t)v);
  } else if (n == 4 && !memcmp(t, "true", 4)) {
    *out = json_true();
  } else if (n == 5 && !memcmp(t, "false", 5)) {
    *out = json_false();
  } else if (n == 4 && !memcmp(t, "null", 4)) {
    *out = json_null();
  } else {
    return perun_load(p, b, e, out);
  }
  return *out ? PCOL_OK : perun_oom(p);
}

/* The members of the object at pos into `into` (a repeated key replaces the
 * value, as jansson's parser does), except "trace", whose place goes to
 * *trace, and keys of `skip`. */
static int read_object(pimp *p, size_t pos, json_t *into, vslice *trace, const json_t *skip) {
  pcol_jscan s = perun_cursor_at(p, pos);
  pcol_jiter it;
  pcol_jkey k;
  int more, rc = PCOL_OK;
  if (pcol_js_begin(&s, '{', &it)) return perun_scan_failed(p, &s);
  while (!rc && (more = pcol_js_next(&s, &it, &k)) == 1) {
    size_t vb, ve, kl = k.len;
    if (pcol_js_value(&s, &vb, &ve)) return perun_scan_failed(p, &s);
    char *owned = NULL;
    const char *key = p->text + k.start;
    if (k.escaped && !(key = owned = pcol_js_key_decode(&s, &k, &kl))) return perun_oom(p);
    json_t *v = NULL;
    if (kl == 5 && !memcmp(key, "trace", 5)) {
      *trace = (vslice){vb, ve, 1};
    } else if (skip && json_object_getn(skip, key, kl)) {
      /* overridden by a column: not used, but it must be valid JSON too
       * (numbers in jansson's range); once per type */
      if (!(rc = perun_load(p, vb, ve, &v))) json_decref(v);
    } else if (!(rc = load_fast(p, vb, ve, &v)) && json_object_setn_new(into, key, kl, v)) {
      rc = perun_oom(p);
    }
    free(owned);
  }
  if (rc) return rc;
  perun_touched(p, s.pos - pos);
  return more < 0 ? perun_scan_failed(p, &s) : PCOL_OK;
}

/* Layout 3: the group's map entry plus entry `i` of each column, the columns
 * read in lockstep (one cursor each), so no column is ever held whole. */
static int walk_type(pimp *p, uint32_t gi, uint64_t *seq, event_fn fn) {
  pgroup *g = &p->groups[gi];
  json_t *base = json_object(), *colset = json_object();
  int rc = base && colset ? group_columns(p, g) : perun_oom(p);
  pcolumn *cols = p->cols;
  for (size_t c = 0; c < p->ncols && !rc; c++)
    if (json_object_setn_new(colset, cols[c].name, cols[c].len, json_null())) rc = perun_oom(p);
  /* the map entry's members that no column overrides, in their order */
  vslice pe_trace = {0, 0, 0};
  if (!rc) rc = read_object(p, g->obj, base, &pe_trace, colset);
  int trace_col = json_object_get(colset, "trace") != NULL, uid_col = json_object_get(colset, "uid") != NULL;
  json_decref(colset);
  if (!rc && trace_col && pe_trace.has) {
    /* overridden: checked once like the other overridden members */
    json_t *v;
    if (!(rc = perun_load(p, pe_trace.b, pe_trace.e, &v))) json_decref(v);
  }
  /* every event has the same stack unless a column can change it: a trace
   * column, or a uid column where the uid is (part of) the stack */
  p->same_stack = !trace_col && (!uid_col || (!p->kperf && pe_trace.has));
  p->stack_done = 0;
  p->base = base;
  p->base_ready = 0;
  memset(&p->base_amount, 0, sizeof p->base_amount);
  if (!rc && p->ncols > p->ncur) { /* a cursor for each column */
    void *nc = realloc(p->cur, p->ncols * sizeof *p->cur), *ni = nc ? realloc(p->it, p->ncols * sizeof *p->it) : NULL;
    if (nc) p->cur = nc;
    if (ni) p->it = ni, p->ncur = p->ncols;
    else rc = perun_oom(p);
  }
  pcol_jscan *cur = p->cur;
  pcol_jiter *it = p->it;
  for (size_t c = 0; c < p->ncols && !rc; c++) {
    cur[c] = perun_cursor_at(p, cols[c].pos);
    if (pcol_js_begin(&cur[c], '[', &it[c])) rc = perun_scan_failed(p, &cur[c]);
  }
  for (uint32_t i = 0; i < g->nev && !rc; i++) {
    json_t *own = json_object(), *v;
    vslice trace = trace_col ? (vslice){0, 0, 0} : pe_trace;
    if (!own) rc = perun_oom(p);
    for (size_t c = 0; c < p->ncols && !rc; c++) {
      size_t vb, ve;
      if (pcol_js_next(&cur[c], &it[c], NULL) != 1 || pcol_js_value(&cur[c], &vb, &ve))
        rc = perun_scan_failed(p, &cur[c]);
      else if (cols[c].len == 5 && !memcmp(cols[c].name, "trace", 5))
        trace = (vslice){vb, ve, 1};
      else if (!(rc = load_fast(p, vb, ve, &v)) && json_object_setn_new(own, cols[c].name, cols[c].len, v))
        rc = perun_oom(p);
    }
    if (!rc) rc = fn(p, own, trace, gi, i, (*seq)++);
    json_decref(own);
  }
  for (size_t c = 0; c < p->ncols && !rc; c++) perun_touched(p, cur[c].pos - cols[c].pos);
  p->base = NULL;
  json_decref(base);
  return rc;
}

static int walk_list(pimp *p, uint32_t gi, uint64_t *seq, event_fn fn) {
  pcol_jscan s = perun_cursor_at(p, p->groups[gi].list);
  pcol_jiter it;
  pcol_js_begin(&s, '[', &it);
  int rc = PCOL_OK;
  for (uint32_t i = 0; i < p->groups[gi].nev && !rc; i++) {
    size_t vb, ve;
    vslice trace = {0, 0, 0};
    if (pcol_js_next(&s, &it, NULL) != 1 || pcol_js_value(&s, &vb, &ve)) return perun_scan_failed(p, &s);
    json_t *ev = json_object();
    if (!ev) return perun_oom(p);
    if (!(rc = read_object(p, vb, ev, &trace, NULL))) rc = fn(p, ev, trace, gi, i, (*seq)++);
    json_decref(ev);
  }
  return rc;
}

/* Every event of the document in document order. */
int perun_walk_events(pimp *p, event_fn fn) {
  int rc = PCOL_OK;
  uint64_t seq = 0;
  for (size_t g = 0; g < p->ngroups && !rc; g++) {
    if (!p->groups[g].nev) continue;
    p->same_stack = p->stack_done = 0;
    rc = p->layout == 3 ? walk_type(p, (uint32_t)g, &seq, fn) : walk_list(p, (uint32_t)g, &seq, fn);
  }
  return rc;
}

/* ------------------------------------------------ the first pass */

/* The first pass needs only each event's time and whether its amount has a
 * fraction, so it loads nothing else (traces are most of a Perun file). */

/* "time" and "amount" of the object at pos (the last of each, as jansson). */
static int find_time_amount(pimp *p, size_t pos, vslice *t, vslice *a) {
  pcol_jscan s = perun_cursor_at(p, pos);
  pcol_jiter it;
  pcol_jkey k;
  int more;
  t->has = a->has = 0;
  if (pcol_js_begin(&s, '{', &it)) return perun_scan_failed(p, &s);
  while ((more = pcol_js_next(&s, &it, &k)) == 1) {
    size_t vb, ve;
    if (pcol_js_value(&s, &vb, &ve)) return perun_scan_failed(p, &s);
    vslice *d = pcol_js_key_is(&s, &k, "time") ? t : pcol_js_key_is(&s, &k, "amount") ? a : NULL;
    if (d) *d = (vslice){vb, ve, 1};
  }
  perun_touched(p, s.pos - pos);
  return more < 0 ? perun_scan_failed(p, &s) : PCOL_OK;
}

/* jansson reads a number with a fraction or exponent as a real. */
static int is_real_text(const pimp *p, vslice a) {
  if (!a.has || !(p->text[a.b] == '-' || (p->text[a.b] >= '0' && p->text[a.b] <= '9'))) return 0;
  for (size_t i = a.b; i < a.e; i++)
    if (p->text[i] == '.' || p->text[i] == 'e' || p->text[i] == 'E') return 1;
  return 0;
}

/* First pass over an amount: is it a real, and how large (for the scale
 * real amounts are stored with, perun_import.c). */
static void note_amount(pimp *p, vslice a) {
  if (is_real_text(p, a)) p->real_amounts = 1;
  if (!a.has || !(p->text[a.b] == '-' || (p->text[a.b] >= '0' && p->text[a.b] <= '9'))) return;
  char buf[64];
  size_t n = a.e - a.b;
  if (n >= sizeof buf) n = sizeof buf - 1; /* a number's first 63 bytes give its size */
  memcpy(buf, p->text + a.b, n);
  buf[n] = 0;
  double d = fabs(strtod(buf, NULL));
  /* only a value pcol stores sizes the grid: -Infinity (Python's json
   * writes it) or 1e300 has none (kept in perun.amount), and as the largest
   * it rounded every amount to a whole number (0.1012 + 0.5 + 2 read as 3) */
  if (isfinite(d) && d < 9.2e18 && d > p->amount_max) p->amount_max = d;
}

static int slice_time(pimp *p, vslice t, int64_t *out) {
  json_t *v;
  int rc = perun_load(p, t.b, t.e, &v);
  if (rc) return rc;
  *out = perun_parse_time(v);
  json_decref(v);
  return PCOL_OK;
}

/* Event idx of group gi at `time` (*last: the time of the one before it).
 * Sorted by time, then document order, a group's events stay in its order
 * exactly when their times never decrease; else each says its place
 * (perun.index), so the first pass tells, and nothing is kept an event. */
static void push_ev(pimp *p, int64_t time, uint32_t gi, uint32_t idx, int64_t *last) {
  if (idx && time < *last) p->groups[gi].needs_index = 1;
  *last = time;
  p->nev++;
}

/* Layout 3: time and amount come from their columns, else from the map entry. */
static int note_type(pimp *p, uint32_t gi) {
  pgroup *g = &p->groups[gi];
  vslice t, a;
  int rc = find_time_amount(p, g->obj, &t, &a);
  if (rc) return rc;
  pcol_jscan cur[2];
  pcol_jiter it[2];
  size_t cur0[2] = {0, 0};
  int have[2] = {0, 0};
  if ((rc = group_columns(p, g))) return rc;
  for (size_t c = 0; c < p->ncols; c++) {
    const pcolumn *col = &p->cols[c];
    int w = col->len == 4 && !memcmp(col->name, "time", 4)     ? 0
            : col->len == 6 && !memcmp(col->name, "amount", 6) ? 1
                                                                : -1;
    if (w < 0) continue;
    have[w] = 1;
    cur[w] = perun_cursor_at(p, cur0[w] = col->pos);
    if (pcol_js_begin(&cur[w], '[', &it[w])) return perun_scan_failed(p, &cur[w]);
  }
  int64_t time = PCOL_NA_I64, last = 0;
  if (!have[0] && t.has && (rc = slice_time(p, t, &time))) return rc;
  if (!have[1]) note_amount(p, a);
  for (uint32_t i = 0; i < g->nev; i++) {
    vslice v[2];
    for (int w = 0; w < 2; w++) {
      if (!have[w]) continue;
      if (pcol_js_next(&cur[w], &it[w], NULL) != 1 || pcol_js_value(&cur[w], &v[w].b, &v[w].e))
        return perun_scan_failed(p, &cur[w]);
      v[w].has = 1;
    }
    if (have[0] && (rc = slice_time(p, v[0], &time))) return rc;
    if (have[1]) note_amount(p, v[1]);
    push_ev(p, time, gi, i, &last);
  }
  for (int w = 0; w < 2; w++)
    if (have[w]) perun_touched(p, cur[w].pos - cur0[w]);
  return PCOL_OK;
}

/* Layouts 1, 2: events without their own time take the snapshot's. */
static int note_list(pimp *p, uint32_t gi) {
  pcol_jscan s = perun_cursor_at(p, p->groups[gi].list);
  pcol_jiter it;
  int64_t last = 0;
  pcol_js_begin(&s, '[', &it);
  for (uint32_t i = 0; i < p->groups[gi].nev; i++) {
    size_t vb, ve;
    vslice t, a;
    int64_t time = p->groups[gi].snap_time;
    int rc;
    if (pcol_js_next(&s, &it, NULL) != 1 || pcol_js_value(&s, &vb, &ve)) return perun_scan_failed(p, &s);
    if ((rc = find_time_amount(p, vb, &t, &a)) || (t.has && (rc = slice_time(p, t, &time)))) return rc;
    note_amount(p, a);
    push_ev(p, time, gi, i, &last);
  }
  return PCOL_OK;
}

int perun_note_events(pimp *p) {
  int rc = PCOL_OK;
  for (size_t g = 0; g < p->ngroups && !rc; g++)
    if (p->groups[g].nev) rc = p->layout == 3 ? note_type(p, (uint32_t)g) : note_list(p, (uint32_t)g);
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

/* Top level: which layout, the header, every non-data key as meta, the
 * resource types or snapshots, and p->models (a JSON array, or NULL). */
int perun_read_top(pimp *p) {
  pcol_jscan s;
  pcol_js_init(&s, p->text, p->len);
  int c = pcol_js_peek(&s);
  if (c != '{') {
    size_t vb, ve;
    if (c != '[') return bad_json(p, s.pos, "'[' or '{' expected");
    if (pcol_js_value(&s, &vb, &ve) || pcol_js_end(&s)) return perun_scan_failed(p, &s);
    return pcol_error_set(p->err, PCOL_EFORMAT, "%s: not a Perun profile: the top level is not a JSON object",
                          p->name);
  }
  /* this walk checks the whole document before anything is built */
  int rc = kidx_read(p, &s, &p->top, "top level");
  if (rc) return rc;
  if (pcol_js_end(&s)) return perun_scan_failed(p, &s);
  perun_release(p);
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
    if ((rc = perun_load(p, h->vb, h->ve, &p->header))) return rc;
    json_t *t = json_object_get(p->header, "type");
    p->htype = perun_json_is_str(t) ? json_string_value(t) : NULL;
    p->units = json_object_get(p->header, "units");
  }
  const kent *ci = kidx_getc(&p->top, "collector_info");
  if (ci && first_char(p, ci->vb) == '{') {
    json_t *v;
    if ((rc = perun_load(p, ci->vb, ci->ve, &v))) return rc;
    json_t *cn = json_object_get(v, "name");
    p->kperf = perun_json_is_str(cn) && !strcmp(json_string_value(cn), "kperf");
    /* its amounts count samples unless its header gives them another unit
     * (pcol's export of a default value that is a time: "ns") */
    json_t *tu = json_is_object(p->units) ? json_object_get(p->units, "time") : NULL;
    p->kperf_counts = p->kperf && (!tu || (perun_json_is_str(tu) && !strcmp(json_string_value(tu), "sample")));
    json_decref(v);
  }

  /* provenance: every top-level key's place, and the non-data keys' values */
  char lay[2] = {(char)('0' + p->layout), 0};
  PCOL_RETURN_NOT_OK(perun_b(p, pcol_b_meta_str(p->b, p->src, PERUN_META_LAYOUT, lay, p->err)));
  json_t *keys = json_array();
  if (!keys) return perun_oom(p);
  for (size_t i = 0; i < p->top.n && !rc; i++) {
    const kent *e = &p->top.v[i];
    if (json_array_append_new(keys, json_stringn(e->k, e->kl))) rc = perun_oom(p);
    if (rc || is_data_key(p->layout, e, first_char(p, e->vb))) continue;
    size_t kl = e->kl + 7;
    char *mk = malloc(kl);
    json_t *v = NULL;
    if (!mk) rc = perun_oom(p);
    else snprintf(mk, kl, PERUN_META_PREFIX "%.*s", (int)e->kl, e->k);
    if (!rc && !(rc = perun_load(p, e->vb, e->ve, &v))) rc = perun_meta_json(p, mk, v);
    json_decref(v);
    free(mk);
  }
  if (!rc) rc = perun_meta_json(p, PERUN_META_KEYS, keys);
  json_decref(keys);
  if (rc) return rc;

  rc = p->layout == 3 ? read_types(p, map, res) : read_snapshots(p, p->layout == 2 ? snaps : glob);
  if (rc) return rc;
  /* the models: loaded here, imported by perun_import.c (import_models) */
  const kent *ms = kidx_getc(&p->top, "models");
  if (ms && first_char(p, ms->vb) == '[') rc = perun_load(p, ms->vb, ms->ve, &p->models);
  return rc;
}

