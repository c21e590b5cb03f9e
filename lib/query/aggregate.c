/* aggregate.c — what the views add up: per-stack weights, flat/cum per
 * function (or line, or file), the named frame tree, collapsed stacks.
 *
 * Cost model (why it is fast): one pass over the selected samples sums the
 * value per stack node; everything after that works on the distinct stack
 * nodes (the prefix tree), never on samples again.  Cumulative weight uses
 * the tree too: a key's cum is the sum of the subtree weights of the nodes
 * where the key appears with no ancestor holding it, which counts a key once
 * per sample however often it recurses (pprof -top, summaryRprof).
 */
#include "frames.h"
#include <errno.h>

/* ------------------------------------------------------------ arena */
/* Blocks that never move, so pcol_str pointers into them stay valid. */
typedef struct ablock {
  struct ablock *next;
  size_t used, cap;
  char data[];
} ablock;

static char *arena_put(ablock **a, const char *p, size_t n) {
  if (!*a || (*a)->cap - (*a)->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    ablock *b = malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->next = *a;
    b->used = 0;
    b->cap = cap;
    *a = b;
  }
  char *r = (*a)->data + (*a)->used;
  if (n) memcpy(r, p, n);
  (*a)->used += n;
  return r;
}

static void arena_free(ablock *a) {
  while (a) {
    ablock *n = a->next;
    free(a);
    a = n;
  }
}

/* ------------------------------------------------------ key table */
/* Interned byte strings -> dense ids 1..n (0 = none). */
typedef struct keytab {
  pcol_str *s; /* s[id] */
  uint32_t n, cap;
  pcol_hset h;
  ablock *arena; /* copies of composed names */
} keytab;

typedef struct {
  const char *p;
  size_t n;
} kkey;

static int key_eq(const void *ctx, uint32_t id, const void *key) {
  const keytab *t = ctx;
  const kkey *k = key;
  return t->s[id].len == k->n && (k->n == 0 || memcmp(t->s[id].ptr, k->p, k->n) == 0);
}

static uint32_t key_find(const keytab *t, const char *p, size_t n) {
  kkey k = {p, n};
  return pcol_hset_find(&t->h, pcol_hash_bytes(p, n, 7), key_eq, t, &k);
}

/* copy = 1: p is temporary and must be copied into the arena. */
static int key_intern(keytab *t, const char *p, size_t n, int copy, uint32_t *id) {
  uint64_t h = pcol_hash_bytes(p, n, 7);
  kkey k = {p, n};
  uint32_t found = pcol_hset_find(&t->h, h, key_eq, t, &k);
  if (found) {
    *id = found;
    return PCOL_OK;
  }
  if (t->n + 2 > t->cap) {
    uint32_t cap = t->cap ? t->cap * 2 : 256;
    if (cap < t->cap) return PCOL_ETOOBIG;
    pcol_str *s = realloc(t->s, (size_t)cap * sizeof *s);
    if (!s) return PCOL_ENOMEM;
    t->s = s;
    t->cap = cap;
  }
  if (copy) {
    p = arena_put(&t->arena, p, n);
    if (!p) return PCOL_ENOMEM;
  }
  uint32_t nid = ++t->n;
  t->s[nid].ptr = p ? p : "";
  t->s[nid].len = n;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&t->h, h, nid));
  *id = nid;
  return PCOL_OK;
}

static void keytab_free(keytab *t) {
  free(t->s);
  pcol_hset_free(&t->h);
  arena_free(t->arena);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------- file column cache */
typedef struct fctx {
  pcol_file *f;
  uint64_t nloc, nlines, nfn, nmap, nstacks;
  pcol_view loc_off, loc_map, loc_addr, ln_fn, ln_line, fn_name, fn_file, map_file, st_parent,
      st_loc;
  pcol_frames fr; /* the frame-naming rule's columns */
  pcol_buf scratch;
} fctx;

static int fctx_init(fctx *c, pcol_file *f, pcol_error *err) {
  memset(c, 0, sizeof *c);
  c->f = f;
  c->nloc = pcol_rows(f, PCOL_T_LOCATIONS);
  c->nlines = pcol_rows(f, PCOL_T_LINES);
  c->nfn = pcol_rows(f, PCOL_T_FUNCTIONS);
  c->nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  c->nstacks = pcol_rows(f, PCOL_T_STACKS);
  /* pcol_column checks ids, offsets and parent < child on first use */
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &c->loc_off, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, &c->loc_map, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS, &c->loc_addr, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &c->ln_fn, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &c->ln_line, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &c->fn_name, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME, &c->fn_file, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME, &c->map_file, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &c->st_parent, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &c->st_loc, err));
  PCOL_RETURN_NOT_OK(pcol_frames_init(&c->fr, f, err));
  if (c->loc_off.count != c->nloc + 1 && c->nloc)
    return pcol_error_set(err, PCOL_ECORRUPT, "location offsets have %llu entries for %llu locations",
                          (unsigned long long)c->loc_off.count, (unsigned long long)c->nloc);
  return PCOL_OK;
}

/* Lines [*a, *e) of location `loc` (1-based; 0 or out of range = none). */
static void loc_lines(const fctx *c, uint32_t loc, uint64_t *a, uint64_t *e) {
  pcol_frames_lines(&c->fr, loc, a, e);
}

static int fn_string(const fctx *c, uint32_t fn, const pcol_view *col, pcol_str *out,
                     pcol_error *err) {
  out->ptr = NULL;
  out->len = 0;
  if (fn == 0 || fn > c->nfn) return PCOL_OK;
  return pcol_string(c->f, pcol_view_u32(col, fn - 1), out, err);
}

static pcol_str basename_of(pcol_str s) {
  for (size_t i = s.len; i > 0; i--)
    if (s.ptr[i - 1] == '/' || s.ptr[i - 1] == '\\') {
      s.ptr += i;
      s.len -= i;
      break;
    }
  return s;
}

/* ----------------------------------------------------- value choice */
static int vt_names(pcol_file *f, uint32_t vt, pcol_value_sel *out, pcol_error *err) {
  out->vt_id = vt;
  if (vt == 0) {
    out->type.ptr = "samples";
    out->type.len = 7;
    out->unit.ptr = "count";
    out->unit.len = 5;
    return PCOL_OK;
  }
  pcol_view ty, un;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, vt - 1), &out->type, err));
  return pcol_string(f, pcol_view_u32(&un, vt - 1), &out->unit, err);
}

/* The default value type of each source in [lo, hi] (0 = samples), in
 * one pass over meta and one over source_value_types (files may hold many
 * sources; per-source scans would be quadratic).  d[s - lo] gets it. */
static int source_defaults(pcol_file *f, uint32_t lo, uint32_t hi, uint32_t *d,
                           pcol_error *err) {
  size_t n = (size_t)(hi - lo) + 1;
  pcol_view sty, svs, svv, vty, mk, mv, ms;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &sty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &svs, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &mk, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &mv, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &ms, err));
  pcol_str *want = calloc(n, sizeof *want);
  uint32_t *named = calloc(n, sizeof *named);
  int rc = want && named ? PCOL_OK : pcol_oom(err);
  /* pprof's default_sample_type names the type */
  for (uint64_t i = 0; !rc && i < pcol_rows(f, PCOL_T_META); i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    if (s < lo || s > hi || want[s - lo].ptr) continue;
    pcol_str k;
    if ((rc = pcol_string(f, pcol_view_u32(&mk, i), &k, err))) break;
    if (pcol_str_is(k, PPROF_META_DEFAULT_SAMPLE_TYPE))
      rc = pcol_string(f, pcol_view_u32(&mv, i), &want[s - lo], err);
  }
  for (size_t i = 0; i < n; i++) d[i] = 0;
  for (uint64_t i = 0; !rc && i < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); i++) {
    uint32_t s = pcol_view_u32(&svs, i), v = pcol_view_u32(&svv, i);
    if (s < lo || s > hi || v == 0) continue;
    d[s - lo] = v; /* the last type, pprof's fallback */
    pcol_str *w = &want[s - lo];
    if (w->ptr && !named[s - lo]) {
      pcol_str t;
      if ((rc = pcol_string(f, pcol_view_u32(&vty, v - 1), &t, err))) break;
      if (t.ptr && t.len == w->len && memcmp(t.ptr, w->ptr, w->len) == 0) named[s - lo] = v;
    }
  }
  for (uint64_t s = lo; !rc && s <= hi; s++) {
    if (named[s - lo]) {
      d[s - lo] = named[s - lo];
      continue;
    }
    /* pprof's rule (the last type) does not suit Rprof: its values are
     * memory snapshots, and summaryRprof counts samples. */
    pcol_str st = {NULL, 0};
    if ((rc = pcol_string(f, pcol_view_u32(&sty, s - 1), &st, err))) break;
    if (pcol_str_is(st, PCOL_SRC_RPROF)) d[s - lo] = 0;
  }
  free(want);
  free(named);
  return rc;
}

/* *vt = the id of the one stored value type named `type` if every selected
 * source lists it in source_value_types, else 0. */
static int stored_type_for_all(pcol_file *f, const pcol_select *sel, const char *type,
                               uint32_t *vt, pcol_error *err) {
  *vt = 0;
  pcol_view ty, ss, sv;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err));
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES), nsrc = pcol_rows(f, PCOL_T_SOURCES);
  uint32_t found = 0;
  for (uint64_t i = 0; i < nvt; i++) {
    pcol_str t;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &t, err));
    if (pcol_str_is(t, type)) {
      if (found) return PCOL_OK; /* several units: ambiguous, use the weight */
      found = (uint32_t)(i + 1);
    }
  }
  if (!found || nsrc == 0) return PCOL_OK;
  uint8_t *has = calloc(nsrc + 1, 1);
  if (!has) return pcol_oom(err);
  for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++)
    if (pcol_view_u32(&sv, r) == found && pcol_view_u32(&ss, r) <= nsrc) has[pcol_view_u32(&ss, r)] = 1;
  int all = 1;
  for (uint64_t s = 1; s <= nsrc && all; s++)
    if (!(sel && sel->source_id && s != sel->source_id)) all = has[s];
  free(has);
  if (all) *vt = found;
  return PCOL_OK;
}

int pcol_value_resolve(pcol_file *f, const pcol_select *sel, const char *name,
                       pcol_value_sel *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  if (!name) {
    uint32_t lo = 1, hi = (uint32_t)(nsrc > UINT32_MAX ? UINT32_MAX : nsrc);
    if (sel && sel->source_id) {
      if (sel->source_id > nsrc)
        return pcol_error_set(err, PCOL_ENOTFOUND, "no source %u (the file has %llu)",
                              sel->source_id, (unsigned long long)nsrc);
      lo = hi = sel->source_id;
    }
    uint32_t chosen = 0;
    if (lo >= 1 && lo <= hi) {
      uint32_t *d = malloc(((size_t)(hi - lo) + 1) * sizeof *d);
      if (!d) return pcol_oom(err);
      int rc = source_defaults(f, lo, hi, d, err);
      chosen = rc ? 0 : d[0];
      for (uint64_t i = 1; !rc && i <= (uint64_t)(hi - lo); i++)
        if (d[i] != chosen) {
          chosen = 0; /* sources disagree: count samples, which every source has */
          break;
        }
      free(d);
      if (rc) return rc;
    }
    return vt_names(f, chosen, out, err);
  }
  if (!strcmp(name, "weight")) return vt_names(f, 0, out, err); /* always the weight column */
  if (!strcmp(name, "samples")) {
    /* A pprof source's own "samples" value (samples/count) is what
     * `pprof -sample_index=samples` shows; prefer it when every selected
     * source measures it, else count the weight column. */
    uint32_t vt = 0;
    PCOL_RETURN_NOT_OK(stored_type_for_all(f, sel, "samples", &vt, err));
    return vt_names(f, vt, out, err);
  }
  if (!strcmp(name, PCOL_VALUE_RPROF_ALLOC)) {
    /* needs the three level snapshots of Rprof memory profiling */
    static const char *need[3] = {RPROF_VT_SMALL, RPROF_VT_LARGE, RPROF_VT_NODES};
    for (int k = 0; k < 3; k++) {
      pcol_value_sel tmp;
      int rc = pcol_value_resolve(f, sel, need[k], &tmp, err);
      if (rc)
        return pcol_error_set(err, rc, "value '%s' needs Rprof memory profiling (%s)",
                              PCOL_VALUE_RPROF_ALLOC, err ? err->message : need[k]);
    }
    out->vt_id = PCOL_VT_RPROF_ALLOC;
    out->type = (pcol_str){PCOL_VALUE_RPROF_ALLOC, sizeof PCOL_VALUE_RPROF_ALLOC - 1};
    out->unit = (pcol_str){"bytes", 5};
    return PCOL_OK;
  }
  const char *slash = strchr(name, '/');
  size_t tl = slash ? (size_t)(slash - name) : strlen(name);
  pcol_view ty, un;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
  uint64_t n = pcol_rows(f, PCOL_T_VALUE_TYPES);
  uint32_t found = 0, count = 0;
  for (uint64_t i = 0; i < n; i++) {
    pcol_str t, u;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &t, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, i), &u, err));
    if (!t.ptr || t.len != tl || memcmp(t.ptr, name, tl)) continue;
    if (slash && !pcol_str_is(u, slash + 1)) continue;
    if (!found) found = (uint32_t)(i + 1);
    count++;
  }
  if (!found) {
    char list[300];
    size_t k = 0;
    list[0] = 0;
    for (uint64_t i = 0; i < n && k + 2 < sizeof list; i++) {
      pcol_str t, u;
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &t, err));
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, i), &u, err));
      int w = snprintf(list + k, sizeof list - k, ", %.*s/%.*s", (int)(t.ptr ? t.len : 2),
                       t.ptr ? t.ptr : "NA", (int)(u.ptr ? u.len : 2), u.ptr ? u.ptr : "NA");
      if (w < 0) break;
      k += (size_t)w;
      if (k >= sizeof list) k = sizeof list - 1;
    }
    return pcol_error_set(err, PCOL_ENOTFOUND, "no value type '%s' (the file has: samples%s)",
                          name, list);
  }
  if (count > 1)
    return pcol_error_set(err, PCOL_EINVAL,
                          "value type '%s' exists with several units; name one as TYPE/UNIT", name);
  return vt_names(f, found, out, err);
}

/* ------------------------------------------------- weights per stack */
typedef struct wctx {
  uint32_t vt, alloc_vt[3];
  uint64_t nstacks, nvalues, nsamples;
  pcol_view stack, weight, voff, vtype, vval, source;
  int64_t *w;
  int64_t total;
  pcol_error *err;
} wctx;

static int value_of(const wctx *c, uint64_t row, uint32_t vt, int64_t *v) {
  uint64_t a = pcol_view_u64(&c->voff, row), e = pcol_view_u64(&c->voff, row + 1);
  *v = 0;
  if (a > e || e > c->nvalues)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "sample %llu has values out of range",
                          (unsigned long long)row + 1);
  for (uint64_t i = a; i < e; i++)
    if (pcol_view_u32(&c->vtype, i) == vt) {
      *v = pcol_view_i64(&c->vval, i);
      break;
    }
  return PCOL_OK;
}

/* summaryRprof's per-line memory increase (see PCOL_VT_RPROF_ALLOC) */
static int rprof_alloc(const wctx *c, uint64_t row, int64_t *out) {
  *out = 0;
  if (row == 0 || pcol_view_u32(&c->source, row - 1) != pcol_view_u32(&c->source, row))
    return PCOL_OK;
  for (int k = 0; k < 3; k++) {
    int64_t cur, prev, d;
    PCOL_RETURN_NOT_OK(value_of(c, row, c->alloc_vt[k], &cur));
    PCOL_RETURN_NOT_OK(value_of(c, row - 1, c->alloc_vt[k], &prev));
    if (!__builtin_sub_overflow(cur, prev, &d) && d > 0 &&
        __builtin_add_overflow(*out, d, out))
      return pcol_error_set(c->err, PCOL_ETOOBIG, "memory increase overflows at sample %llu",
                            (unsigned long long)row + 1);
  }
  return PCOL_OK;
}

static int add_sample(void *p, uint64_t row, int64_t num, int64_t den) {
  wctx *c = p;
  int64_t v = 0;
  if (row >= c->nsamples) return PCOL_ECORRUPT;
  if (c->vt == PCOL_VT_RPROF_ALLOC) {
    int rc = rprof_alloc(c, row, &v);
    if (rc) return rc;
  } else if (c->vt == 0) {
    v = pcol_view_i64(&c->weight, row);
  } else {
    uint64_t a = pcol_view_u64(&c->voff, row), e = pcol_view_u64(&c->voff, row + 1);
    if (a > e || e > c->nvalues)
      return pcol_error_set(c->err, PCOL_ECORRUPT, "sample %llu has values out of range",
                            (unsigned long long)row + 1);
    for (uint64_t i = a; i < e; i++)
      if (pcol_view_u32(&c->vtype, i) == c->vt) {
        v = pcol_view_i64(&c->vval, i);
        break;
      }
  }
  if (v == 0) return 0;
  v = pcol_scale(v, num, den);
  uint32_t s = pcol_view_u32(&c->stack, row);
  if (s > c->nstacks)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "sample %llu names stack %u, out of range",
                          (unsigned long long)row + 1, s);
  int64_t av = v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
  if (__builtin_add_overflow(c->w[s], v, &c->w[s]) ||
      __builtin_add_overflow(c->total, av, &c->total))
    return pcol_error_set(c->err, PCOL_ETOOBIG, "sum of values overflows 64 bits at sample %llu",
                          (unsigned long long)row + 1);
  return 0;
}

/* Every sample, weighted by its weight column: one tight loop (stack ids
 * were range-checked when their column was first used). */
static int weights_all_samples(wctx *c) {
  const uint32_t *stack = c->stack.data;
  const int64_t *weight = c->weight.data;
  int64_t *w = c->w, total = 0;
  uint64_t n = c->nsamples;
  if (!weight) { /* every weight is 1 */
    for (uint64_t i = 0; i < n; i++) w[stack[i]]++;
    total = (int64_t)n;
  } else {
    for (uint64_t i = 0; i < n; i++) {
      int64_t v = weight[i], av = v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
      if (__builtin_add_overflow(w[stack[i]], v, &w[stack[i]]) ||
          __builtin_add_overflow(total, av, &total))
        return pcol_error_set(c->err, PCOL_ETOOBIG, "sum of weights overflows 64 bits at sample %llu",
                              (unsigned long long)i + 1);
    }
  }
  c->total = total;
  return PCOL_OK;
}

int pcol_stack_weights(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                       int64_t **w_out, int64_t *total_abs, pcol_error *err) {
  wctx c = {0};
  c.vt = v ? v->vt_id : 0;
  c.err = err;
  c.nstacks = pcol_rows(f, PCOL_T_STACKS);
  c.nvalues = pcol_rows(f, PCOL_T_VALUES);
  c.nsamples = pcol_rows(f, PCOL_T_SAMPLES);
  *w_out = NULL;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &c.stack, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &c.weight, err));
  /* Columns are checked on first use (an O(rows) pass), so touch the value
   * columns only when a value type is asked for. */
  if (c.vt) {
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &c.voff, err));
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &c.vtype, err));
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &c.vval, err));
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &c.source, err));
  }
  if (c.vt == PCOL_VT_RPROF_ALLOC) {
    static const char *need[3] = {RPROF_VT_SMALL, RPROF_VT_LARGE, RPROF_VT_NODES};
    for (int k = 0; k < 3; k++) {
      pcol_value_sel t;
      PCOL_RETURN_NOT_OK(pcol_value_resolve(f, sel, need[k], &t, err));
      c.alloc_vt[k] = t.vt_id;
    }
  }
  if (c.vt && c.voff.count != c.nsamples + 1)
    return pcol_error_set(err, PCOL_ECORRUPT, "sample value offsets have the wrong length");
  c.w = calloc(c.nstacks + 1, sizeof *c.w);
  if (!c.w) return pcol_oom(err);
  int rc;
  if ((!sel || (!sel->source_id && !sel->has_from && !sel->has_to)) && c.vt == 0 &&
      c.stack.data)
    rc = weights_all_samples(&c); /* the common case, without a callback a row */
  else
    rc = pcol_select_iter(f, sel, add_sample, &c, err);
  if (rc) {
    free(c.w);
    if (err && !err->message[0]) pcol_error_set(err, rc, "sample data is damaged");
    return rc;
  }
  *w_out = c.w;
  if (total_abs) *total_abs = c.total;
  return PCOL_OK;
}

/* ------------------------------------------------------ top (flat/cum) */
typedef struct topctx {
  fctx fc;
  keytab keys;
  pcol_by by;
  uint32_t *fn_key; /* function id -> key (UINT32_MAX = not yet) */
  uint32_t *loc_koff, *loc_keys; /* CSR: distinct keys of each location, innermost first */
  int unnamed_is_frame; /* a function without a name is a frame (pprof), not skipped (Rprof) */
  uint64_t *stamp;      /* build_loc_keys: stamp[key] = the last location that had it */
  size_t stamp_cap;
} topctx;

/* Rprof stores top-level code refs as functions without a name, which
 * summaryRprof does not count as functions; pprof shows a function without
 * a name as a frame of its own ("<unknown>" or its mapping).  Decide by the
 * selected sources: skip them only when every one of them is Rprof. */
static int unnamed_functions_are_frames(pcol_file *f, const pcol_select *sel, int *out,
                                        pcol_error *err) {
  pcol_view ty;
  *out = 0;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, err));
  for (uint64_t s = 0; s < pcol_rows(f, PCOL_T_SOURCES); s++) {
    if (sel && sel->source_id && s + 1 != sel->source_id) continue;
    pcol_str t;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, s), &t, err));
    if (!pcol_str_is(t, PCOL_SRC_RPROF)) *out = 1;
  }
  return PCOL_OK;
}

static int mapping_key(topctx *t, uint32_t loc, uint32_t *key, pcol_error *err) {
  /* a location without lines: pprof folds these per mapping */
  uint32_t m = pcol_view_u32(&t->fc.loc_map, loc - 1);
  pcol_str fnm = {NULL, 0};
  if (m && m <= t->fc.nmap) PCOL_RETURN_NOT_OK(pcol_string(t->fc.f, pcol_view_u32(&t->fc.map_file, m - 1), &fnm, err));
  if (fnm.ptr && fnm.len) {
    pcol_str b = basename_of(fnm);
    char buf[512];
    int n = snprintf(buf, sizeof buf, "[%.*s]", (int)(b.len > 500 ? 500 : b.len), b.ptr);
    return key_intern(&t->keys, buf, (size_t)n, 1, key);
  }
  return key_intern(&t->keys, "<unknown>", 9, 0, key);
}

/* The key of one line row (0 = this frame has none). */
static int line_key(topctx *t, uint64_t li, uint32_t *key, pcol_error *err) {
  *key = 0;
  uint32_t fn = pcol_view_u32(&t->fc.ln_fn, li);
  if (fn > t->fc.nfn) fn = 0;
  if (t->by == PCOL_BY_FUNCTION || t->by == PCOL_BY_FILE) {
    if (fn == 0) return PCOL_OK;
    if (t->fn_key[fn] != UINT32_MAX) {
      *key = t->fn_key[fn];
      return PCOL_OK;
    }
    pcol_str s;
    PCOL_RETURN_NOT_OK(fn_string(&t->fc, fn, t->by == PCOL_BY_FUNCTION ? &t->fc.fn_name : &t->fc.fn_file, &s, err));
    if (s.ptr) PCOL_RETURN_NOT_OK(key_intern(&t->keys, s.ptr, s.len, 0, key));
    t->fn_key[fn] = *key;
    return PCOL_OK;
  }
  int64_t line = pcol_view_i64(&t->fc.ln_line, li);
  if (line == PCOL_NA_I64) return PCOL_OK;
  pcol_str file;
  PCOL_RETURN_NOT_OK(fn_string(&t->fc, fn, &t->fc.fn_file, &file, err));
  pcol_str b = file.ptr ? basename_of(file) : (pcol_str){"[unknown]", 9};
  char buf[600];
  int n = snprintf(buf, sizeof buf, "%.*s#%lld", (int)(b.len > 500 ? 500 : b.len), b.ptr,
                   (long long)line);
  return key_intern(&t->keys, buf, (size_t)n, 1, key);
}

static int build_loc_keys(topctx *t, pcol_error *err) {
  fctx *c = &t->fc;
  t->loc_koff = malloc((c->nloc + 2) * sizeof *t->loc_koff);
  t->loc_keys = malloc((c->nlines + c->nloc + 1) * sizeof *t->loc_keys);
  t->fn_key = malloc((c->nfn + 1) * sizeof *t->fn_key);
  if (!t->loc_koff || !t->loc_keys || !t->fn_key) return pcol_oom(err);
  for (uint64_t i = 0; i <= c->nfn; i++) t->fn_key[i] = UINT32_MAX;
  uint32_t k = 0;
  t->loc_koff[0] = 0;
  t->loc_koff[1] = 0; /* location 0 (none) has no keys */
  for (uint64_t loc = 1; loc <= c->nloc; loc++) {
    uint64_t a, e;
    loc_lines(c, (uint32_t)loc, &a, &e);
    uint32_t start = k;
    int unsymbolized = a == e; /* no lines, or lines without a function */
    for (uint64_t li = a; li < e; li++) {
      uint32_t key;
      if (pcol_view_u32(&t->fc.ln_fn, li) == 0) unsymbolized = 1;
      PCOL_RETURN_NOT_OK(line_key(t, li, &key, err));
      /* a pprof line whose function has no name is its own frame, named
       * after the mapping like an unsymbolized address */
      if (!key && t->by == PCOL_BY_FUNCTION && t->unnamed_is_frame)
        PCOL_RETURN_NOT_OK(mapping_key(t, (uint32_t)loc, &key, err));
      if (!key) continue;
      /* distinct keys of this location: a stamp per key (a scan of the
       * keys so far would be quadratic in a long inline chain) */
      if (key >= t->stamp_cap) {
        size_t nc = t->stamp_cap ? t->stamp_cap : 1024;
        while (nc <= key) nc *= 2;
        uint64_t *ns = realloc(t->stamp, nc * sizeof *ns);
        if (!ns) return pcol_oom(err);
        memset(ns + t->stamp_cap, 0, (nc - t->stamp_cap) * sizeof *ns);
        t->stamp = ns;
        t->stamp_cap = nc;
      }
      if (t->stamp[key] == loc) continue;
      t->stamp[key] = loc;
      t->loc_keys[k++] = key;
    }
    /* pprof names an unsymbolized location after its mapping ("<unknown>"
     * without one); a function with NA name (an Rprof top-level ref) is not
     * unsymbolized and stays skipped */
    if (k == start && unsymbolized && t->by == PCOL_BY_FUNCTION) {
      uint32_t key;
      PCOL_RETURN_NOT_OK(mapping_key(t, (uint32_t)loc, &key, err));
      t->loc_keys[k++] = key;
    }
    t->loc_koff[loc + 1] = k;
  }
  return PCOL_OK;
}

static int row_cmp(const void *pa, const void *pb) {
  const pcol_top_row *a = pa, *b = pb;
  uint64_t fa = a->flat < 0 ? -(uint64_t)a->flat : (uint64_t)a->flat;
  uint64_t fb = b->flat < 0 ? -(uint64_t)b->flat : (uint64_t)b->flat;
  if (fa != fb) return fa > fb ? -1 : 1;
  size_t n = a->name.len < b->name.len ? a->name.len : b->name.len;
  int c = n ? memcmp(a->name.ptr, b->name.ptr, n) : 0;
  if (c) return c;
  if (a->name.len != b->name.len) return a->name.len < b->name.len ? -1 : 1;
  uint64_t ca = a->cum < 0 ? -(uint64_t)a->cum : (uint64_t)a->cum;
  uint64_t cb = b->cum < 0 ? -(uint64_t)b->cum : (uint64_t)b->cum;
  return ca == cb ? 0 : ca > cb ? -1 : 1;
}

typedef struct top_priv {
  keytab keys;
} top_priv;

static int top_run(topctx *t, const pcol_select *sel, const pcol_value_sel *v, pcol_top *out,
                   pcol_error *err) {
  fctx *c = &t->fc;
  uint64_t ns = c->nstacks;
  int64_t *w = NULL, *sub = NULL, *flat = NULL, *cum = NULL;
  uint32_t *fk = NULL, *cnt = NULL, *kids = NULL, *koff = NULL, *stk = NULL;
  uint8_t *touched = NULL;
  int rc = pcol_stack_weights(c->f, sel, v, &w, &out->total, err);
  if (rc) return rc;
  if ((rc = build_loc_keys(t, err))) goto done;
  uint32_t nokey;
  if ((rc = key_intern(&t->keys, "<no location>", 13, 0, &nokey))) goto done;
  size_t nk = (size_t)t->keys.n + 1;
  sub = malloc((ns + 1) * sizeof *sub);
  fk = malloc((ns + 1) * sizeof *fk);
  touched = calloc(ns + 1, 1);
  flat = calloc(nk, sizeof *flat);
  cum = calloc(nk, sizeof *cum);
  cnt = calloc(nk, sizeof *cnt);
  koff = calloc(ns + 2, sizeof *koff);
  kids = malloc((ns + 1) * sizeof *kids);
  stk = malloc((ns + 1) * sizeof *stk);
  if (!sub || !fk || !touched || !flat || !cum || !cnt || !koff || !kids || !stk) {
    rc = pcol_oom(err);
    goto done;
  }
  /* forward: flat key of each node (its own first key, else its parent's) */
  fk[0] = 0;
  for (uint64_t n = 1; n <= ns; n++) {
    uint32_t p = pcol_view_u32(&c->st_parent, n - 1), loc = pcol_view_u32(&c->st_loc, n - 1);
    if (p >= n || loc > c->nloc) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "stack node %llu has a bad parent or location",
                          (unsigned long long)n);
      goto done;
    }
    uint32_t a = t->loc_koff[loc], e = t->loc_koff[loc + 1];
    fk[n] = a < e ? t->loc_keys[a] : fk[p];
    sub[n] = w[n];
    touched[n] = w[n] != 0;
    if (w[n] != 0) {
      uint32_t key = fk[n] ? fk[n] : nokey;
      flat[key] += w[n];
      if (!fk[n]) cum[nokey] += w[n];
    }
  }
  /* backward: subtree sums (parents precede children) */
  for (uint64_t n = ns; n >= 1; n--) {
    uint32_t p = pcol_view_u32(&c->st_parent, n - 1);
    if (p) {
      sub[p] += sub[n];
      touched[p] |= touched[n];
    }
    koff[p + 1]++;
  }
  /* children lists (CSR, parent 0 = roots) */
  for (uint64_t i = 1; i <= ns + 1; i++) koff[i] += koff[i - 1];
  {
    uint32_t *pos = malloc((ns + 1) * sizeof *pos);
    if (!pos) {
      rc = pcol_oom(err);
      goto done;
    }
    memcpy(pos, koff, (ns + 1) * sizeof *pos);
    for (uint64_t n = 1; n <= ns; n++) kids[pos[pcol_view_u32(&c->st_parent, n - 1)]++] = (uint32_t)n;
    free(pos);
  }
  /* depth-first walk with a per-key "on the current path" counter: a key
   * adds its node's subtree only where no ancestor already holds it */
  {
    size_t sp = 0;
    /* stk holds node ids; a node is entered when pushed with its high bit
     * clear and left when popped the second time (high bit set) */
    uint32_t *st2 = realloc(stk, (2 * ns + 2) * sizeof *stk);
    if (!st2) {
      rc = pcol_oom(err);
      goto done;
    }
    stk = st2;
    for (uint32_t i = koff[0]; i < koff[1]; i++)
      if (touched[kids[i]]) stk[sp++] = kids[i];
    while (sp) {
      uint32_t x = stk[--sp];
      uint32_t n = x & 0x7fffffffu;
      uint32_t loc = pcol_view_u32(&c->st_loc, n - 1);
      uint32_t a = t->loc_koff[loc], e = t->loc_koff[loc + 1];
      if (x & 0x80000000u) {
        for (uint32_t j = a; j < e; j++) cnt[t->loc_keys[j]]--;
        continue;
      }
      for (uint32_t j = a; j < e; j++) {
        uint32_t key = t->loc_keys[j];
        if (cnt[key]++ == 0) cum[key] += sub[n];
      }
      stk[sp++] = n | 0x80000000u;
      for (uint32_t i = koff[n]; i < koff[n + 1]; i++)
        if (touched[kids[i]]) stk[sp++] = kids[i];
    }
  }
  /* rows */
  size_t nr = 0;
  for (size_t k = 1; k < nk; k++) nr += flat[k] != 0 || cum[k] != 0;
  out->rows = calloc(nr ? nr : 1, sizeof *out->rows);
  if (!out->rows) {
    rc = pcol_oom(err);
    goto done;
  }
  nr = 0;
  for (size_t k = 1; k < nk; k++)
    if (flat[k] != 0 || cum[k] != 0) {
      out->rows[nr].name = t->keys.s[k];
      out->rows[nr].flat = flat[k];
      out->rows[nr].cum = cum[k];
      nr++;
    }
  out->nrows = nr;
  qsort(out->rows, nr, sizeof *out->rows, row_cmp);
done:
  free(w);
  free(sub);
  free(flat);
  free(cum);
  free(fk);
  free(cnt);
  free(kids);
  free(koff);
  free(stk);
  free(touched);
  return rc;
}

int pcol_top_compute(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                     pcol_top *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  if (pcol_rows(f, PCOL_T_STACKS) >= 0x7fffffffu)
    return pcol_error_set(err, PCOL_ETOOBIG, "too many stack nodes");
  topctx t;
  memset(&t, 0, sizeof t);
  t.by = by;
  int rc = unnamed_functions_are_frames(f, sel, &t.unnamed_is_frame, err);
  if (!rc) rc = fctx_init(&t.fc, f, err);
  if (!rc) {
    out->value = *v;
    rc = top_run(&t, sel, v, out, err);
  }
  pcol_buf_free(&t.fc.scratch);
  free(t.fn_key);
  free(t.loc_koff);
  free(t.loc_keys);
  free(t.stamp);
  if (rc) {
    free(out->rows);
    keytab_free(&t.keys);
    memset(out, 0, sizeof *out);
    return rc;
  }
  top_priv *p = malloc(sizeof *p);
  if (!p) {
    free(out->rows);
    keytab_free(&t.keys);
    memset(out, 0, sizeof *out);
    return pcol_oom(err);
  }
  p->keys = t.keys;
  out->priv_ = p;
  return PCOL_OK;
}

void pcol_top_free(pcol_top *t) {
  if (!t) return;
  free(t->rows);
  if (t->priv_) {
    top_priv *p = t->priv_;
    keytab_free(&p->keys);
    free(p);
  }
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------- frame tree */
typedef struct ft_priv {
  keytab keys;
  pcol_hset kids;    /* (parent, key) -> node */
  uint32_t *keyid;   /* key of node i */
  uint32_t *parent;  /* same array as pcol_ftree.parent while building */
  uint32_t n, cap;
} ft_priv;

typedef struct {
  uint32_t parent, key;
} ft_key;

static int ft_eq(const void *ctx, uint32_t id, const void *key) {
  const ft_priv *p = ctx;
  const ft_key *k = key;
  return p->parent[id] == k->parent && p->keyid[id] == k->key;
}

static uint64_t ft_hash(uint32_t parent, uint32_t key) {
  return pcol_hash_mix(pcol_hash_mix(11, parent), key);
}

static int ft_child(ft_priv *p, uint32_t parent, uint32_t key, uint32_t *out) {
  ft_key k = {parent, key};
  uint64_t h = ft_hash(parent, key);
  uint32_t found = pcol_hset_find(&p->kids, h, ft_eq, p, &k);
  if (found) {
    *out = found;
    return PCOL_OK;
  }
  if (p->n + 1 >= p->cap) {
    uint32_t cap = p->cap * 2;
    if (cap <= p->cap || cap >= 0x7fffffffu) return PCOL_ETOOBIG;
    uint32_t *a = realloc(p->parent, (size_t)cap * sizeof *a);
    if (!a) return PCOL_ENOMEM;
    p->parent = a;
    a = realloc(p->keyid, (size_t)cap * sizeof *a);
    if (!a) return PCOL_ENOMEM;
    p->keyid = a;
    p->cap = cap;
  }
  uint32_t id = p->n++;
  p->parent[id] = parent;
  p->keyid[id] = key;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&p->kids, h, id));
  *out = id;
  return PCOL_OK;
}

/* The name of frame `li` (a line row) for the frame tree (frames.h). */
static int frame_key(fctx *c, keytab *keys, uint32_t *fn_key, uint64_t li, uint32_t *key,
                     pcol_error *err) {
  uint32_t fn = pcol_frames_fn(&c->fr, li);
  if (fn && fn_key[fn] != UINT32_MAX && fn_key[fn] != 0) {
    *key = fn_key[fn];
    return PCOL_OK;
  }
  pcol_str name;
  int by_function;
  PCOL_RETURN_NOT_OK(pcol_frame_line_name(&c->fr, li, &c->scratch, &name, &by_function, err));
  if (by_function) {
    PCOL_RETURN_NOT_OK(key_intern(keys, name.ptr, name.len, 0, key));
    fn_key[fn] = *key;
    return PCOL_OK;
  }
  if (fn) fn_key[fn] = 0; /* named by place: per line, not per function */
  return key_intern(keys, name.ptr, name.len, 1, key);
}

static int addr_key(fctx *c, keytab *keys, uint32_t loc, uint32_t *key) {
  char buf[PCOL_ADDR_NAME_MAX];
  pcol_str name;
  pcol_frame_addr_name(&c->fr, loc, buf, &name);
  return key_intern(keys, name.ptr, name.len, 1, key);
}

static int ftree_run(fctx *c, ft_priv *p, const pcol_select *sel, const pcol_value_sel *v,
                     pcol_ftree *out, pcol_error *err) {
  int64_t *w = NULL;
  uint32_t *map = NULL, *fn_key = NULL;
  int rc = pcol_stack_weights(c->f, sel, v, &w, &out->total_abs, err);
  if (rc) return rc;
  map = malloc((c->nstacks + 1) * sizeof *map);
  fn_key = malloc((c->nfn + 1) * sizeof *fn_key);
  if (!map || !fn_key) {
    rc = pcol_oom(err);
    goto done;
  }
  for (uint64_t i = 0; i <= c->nfn; i++) fn_key[i] = UINT32_MAX;
  map[0] = 0;
  /* Each stack node expands into its location's inline chain, so a small
   * file whose nodes all sit on one location with a huge chain could ask
   * for stacks x lines frames.  Real profiles stay far below this budget. */
  uint64_t budget = 16 * ((uint64_t)c->nstacks + c->nlines) + (UINT64_C(1) << 22);
  for (uint64_t n = 1; n <= c->nstacks; n++) {
    if (p->n > budget) {
      rc = pcol_error_set(err, PCOL_ETOOBIG, "the frame tree would exceed %llu nodes "
                          "(stacks x inline frames); the file is implausible",
                          (unsigned long long)budget);
      goto done;
    }
    uint32_t par = pcol_view_u32(&c->st_parent, n - 1), loc = pcol_view_u32(&c->st_loc, n - 1);
    if (par >= n) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "stack node %llu has a bad parent",
                          (unsigned long long)n);
      goto done;
    }
    uint32_t cur = map[par];
    uint64_t a, e;
    loc_lines(c, loc, &a, &e);
    uint32_t key;
    if (a == e) {
      if ((rc = addr_key(c, &p->keys, loc, &key)) || (rc = ft_child(p, cur, key, &cur))) goto fail;
    }
    for (uint64_t li = e; li > a; li--) /* outermost inline frame first */
      if ((rc = frame_key(c, &p->keys, fn_key, li - 1, &key, err)) ||
          (rc = ft_child(p, cur, key, &cur)))
        goto fail;
    map[n] = cur;
  }
  out->n = p->n;
  out->parent = p->parent;
  out->depth = malloc((size_t)p->n * sizeof *out->depth);
  out->name = malloc((size_t)p->n * sizeof *out->name);
  out->self = calloc(p->n, sizeof *out->self);
  out->total = calloc(p->n, sizeof *out->total);
  if (!out->depth || !out->name || !out->self || !out->total) {
    rc = pcol_oom(err);
    goto done;
  }
  for (uint64_t n = 1; n <= c->nstacks; n++) out->self[map[n]] += w[n];
  out->self[0] += w[0]; /* samples with an empty stack sit on the root */
  out->name[0].ptr = "";
  out->name[0].len = 0;
  out->depth[0] = 0;
  for (uint32_t i = 1; i < p->n; i++) {
    out->name[i] = p->keys.s[p->keyid[i]];
    out->depth[i] = out->depth[p->parent[i]] + 1;
  }
  for (uint32_t i = p->n; i-- > 0;) {
    out->total[i] += out->self[i];
    if (i) out->total[p->parent[i]] += out->total[i];
  }
  goto done;
fail:
  if (err && !err->message[0]) pcol_error_set(err, rc, "building the frame tree: %s", pcol_strerror(rc));
done:
  free(w);
  free(map);
  free(fn_key);
  return rc;
}

int pcol_ftree_build(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                     pcol_ftree *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  fctx c;
  int rc = fctx_init(&c, f, err);
  if (rc) return rc;
  ft_priv *p = calloc(1, sizeof *p);
  if (!p) return pcol_oom(err);
  p->cap = 1024;
  p->parent = malloc(p->cap * sizeof *p->parent);
  p->keyid = malloc(p->cap * sizeof *p->keyid);
  if (!p->parent || !p->keyid) {
    free(p->parent);
    free(p->keyid);
    free(p);
    return pcol_oom(err);
  }
  p->n = 1; /* the root */
  p->parent[0] = 0;
  p->keyid[0] = 0;
  out->value = *v;
  out->priv_ = p;
  rc = ftree_run(&c, p, sel, v, out, err);
  pcol_buf_free(&c.scratch);
  out->parent = p->parent;
  if (rc) {
    pcol_ftree_free(out);
    return rc;
  }
  return PCOL_OK;
}

uint32_t pcol_ftree_child(const pcol_ftree *t, uint32_t parent, const char *name, size_t len) {
  const ft_priv *p = t->priv_;
  if (!p) return 0;
  uint32_t key = key_find(&p->keys, name, len);
  if (!key) return 0;
  ft_key k = {parent, key};
  return pcol_hset_find(&p->kids, ft_hash(parent, key), ft_eq, p, &k);
}

void pcol_ftree_free(pcol_ftree *t) {
  if (!t) return;
  ft_priv *p = t->priv_;
  if (p) {
    keytab_free(&p->keys);
    pcol_hset_free(&p->kids);
    free(p->keyid);
    free(p->parent);
    free(p);
  }
  free(t->depth);
  free(t->name);
  free(t->self);
  free(t->total);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------ collapsed text */
static int cmp_lines(const void *a, const void *b, void *ctx) {
  const uint8_t *base = ((const pcol_buf *)ctx)->data;
  const uint64_t *x = a, *y = b; /* [start, len] pairs */
  size_t n = x[1] < y[1] ? x[1] : y[1];
  int c = memcmp(base + x[0], base + y[0], n);
  if (c) return c;
  return x[1] == y[1] ? 0 : x[1] < y[1] ? -1 : 1;
}

static int put_frame(pcol_buf *b, pcol_str s) {
  size_t at = b->len;
  PCOL_RETURN_NOT_OK(pcol_buf_append(b, s.ptr, s.len));
  for (size_t i = at; i < b->len; i++) {
    uint8_t ch = b->data[i];
    if (ch == ';' || ch == '\n' || ch == '\r' || ch == 0) b->data[i] = '_';
  }
  return PCOL_OK;
}

int pcol_fold_write(pcol_file *f, const pcol_select *sel, const char *value, FILE *out,
                    pcol_error *err) {
  pcol_value_sel v;
  PCOL_RETURN_NOT_OK(pcol_value_resolve(f, sel, value, &v, err));
  pcol_ftree t;
  PCOL_RETURN_NOT_OK(pcol_ftree_build(f, sel, &v, &t, err));
  pcol_buf text = {0}, idx = {0};
  uint32_t *path = malloc(((size_t)t.n + 1) * sizeof *path);
  int rc = path ? PCOL_OK : PCOL_ENOMEM;
  for (uint32_t i = 1; !rc && i < t.n; i++) {
    if (t.self[i] == 0) continue;
    uint32_t d = 0;
    for (uint32_t x = i; x; x = t.parent[x]) path[d++] = x;
    uint64_t start = text.len;
    for (uint32_t k = d; !rc && k-- > 0;) {
      rc = put_frame(&text, t.name[path[k]]);
      if (!rc && k) rc = pcol_buf_append(&text, ";", 1);
    }
    uint64_t pair[2] = {start, text.len - start};
    if (!rc) rc = pcol_buf_append(&idx, pair, sizeof pair);
    /* the value goes after the sort key */
    char num[32];
    int n = snprintf(num, sizeof num, " %lld\n", (long long)t.self[i]);
    if (!rc) rc = pcol_buf_append(&text, num, (size_t)n);
  }
  if (!rc) {
    size_t nl = idx.len / (2 * sizeof(uint64_t));
    uint64_t *pairs = (uint64_t *)(void *)idx.data;
    if (nl) qsort_r(pairs, nl, 2 * sizeof(uint64_t), cmp_lines, &text);
    for (size_t i = 0; i < nl; i++) {
      const uint8_t *p = text.data + pairs[2 * i];
      const uint8_t *e = memchr(p, '\n', text.len - pairs[2 * i]);
      if (!e) continue;
      if (fwrite(p, 1, (size_t)(e - p + 1), out) != (size_t)(e - p + 1)) {
        rc = pcol_error_set(err, PCOL_EIO, "write error");
        break;
      }
    }
  } else if (!(err && err->message[0])) {
    pcol_error_set(err, rc, "folding stacks: %s", pcol_strerror(rc));
  }
  free(path);
  pcol_buf_free(&text);
  pcol_buf_free(&idx);
  pcol_ftree_free(&t);
  return rc;
}
