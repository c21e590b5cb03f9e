/* v8_import.c — a V8 CPU profile (`node --cpu-prof`, Chrome DevTools'
 * "Save profile": the Profiler.Profile of the inspector protocol) into a
 * builder.
 *
 *   {"nodes": [{"id", "callFrame": {"functionName", "scriptId", "url",
 *               "lineNumber", "columnNumber"}, "hitCount", "children": [id]}],
 *    "startTime": us, "endTime": us, "samples": [id], "timeDeltas": [us]}
 *
 * A node's stack is its callFrame and its ancestors' up to, not including,
 * the tree's root "(root)" (in every stack, shown by no tool); V8's own
 * pseudo-frames (idle), (program) and (garbage collector) stay frames
 * under the root, as V8 and DevTools name them.  lineNumber/columnNumber
 * are 0-based in V8 (-1: unknown) and 1-based in pcol.  A function without
 * a name is "(anonymous FILE:LINE)" or "(anonymous)" as speedscope names it.
 * Sample i is at startTime + timeDeltas[0..i] (a negative delta does not
 * move time back: speedscope's rule), weight 1, with the values samples = 1
 * and wall = the time until the next sample (0 for the last one), in ns, so
 * that the wall sums are speedscope's per-frame weights.  A profile without
 * samples (old format) gives each node's hitCount as one untimed sample.
 * The document is read as a stream (lib/convert/json_pull.c): nodes, samples
 * and timeDeltas in any order into compact arrays, resolved at its end, so
 * memory follows the output, not the document.  doc/mappings.md §10. */
#include "v8.h"

typedef struct vnode {
  int64_t hits;       /* hitCount (0 if none) */
  int64_t parent_id;  /* the parent form's "parent", -1 if none */
  size_t kid0, nkids; /* its children in kids[] */
  uint32_t loc;       /* its location */
  uint8_t is_root_name, hits_bad;
  /* what is wrong with it, reported in the order of the checks when the
   * ids are known: 1 no callFrame object, 2 its names, 3 its numbers */
  uint8_t cf_bad, kids_notarr, parent_bad;
} vnode;

/* an optional number of the document ("startTime") */
typedef struct vnum {
  int present, bad;
  int64_t v;
} vnum;

typedef struct vimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  pcol_jpull *j;
  uint32_t src;
  int sem;               /* the first error of meaning (reported when the JSON is valid) */
  size_t n;              /* nodes */
  int have_nodes;        /* "nodes" is an array */
  vnode *nodes;
  size_t capnodes;
  int64_t *kids;         /* every node's children ids, node after node */
  size_t nkids, capkids;
  uint32_t *parent;      /* node index -> parent index + 1, 0 = none */
  uint32_t *loc;         /* node index -> location (0: the skipped root) */
  uint32_t *stack;       /* node index -> stack id + 1, 0 = not yet */
  pcol_u64map map;       /* id -> node index */
  uint32_t *work;
  vnum start, end;
  int samples_kind, deltas_kind; /* 0 absent, 1 an array, 2 something else */
  int64_t *samples, *deltas;     /* node ids (-1: not an id), microseconds */
  size_t ns, capns, nd, capnd;
  size_t bad_delta;              /* the first delta that is not a number, or SIZE_MAX */
  char *fn, *url;                /* the callFrame being read */
  size_t fnl, urll, capfn, capurl;
} vimp;

static int at(vimp *v, const char *path, size_t i, const char *what) {
  if (i == SIZE_MAX)
    return pcol_error_set(v->err, PCOL_ECORRUPT, "%s: %s: %s", v->name, path, what);
  return pcol_error_set(v->err, PCOL_ECORRUPT, "%s: %s[%zu]: %s", v->name, path, i, what);
}

/* An error of meaning found while reading: the JSON after it is still
 * checked (a syntax error anywhere wins, as when the document was parsed
 * whole first), then it is the result. */
static int sem(vimp *v, int rc) {
  v->sem = rc;
  int r = pcol_jp_finish(v->j);
  return r ? r : rc;
}

/* get_int's rule on the current token: an integer, or a finite double
 * within +-9e15 (truncated). */
static int tok_int(const pcol_jpull *j, int64_t *out) {
  if (j->tok == PCOL_JT_INT) return *out = j->i, 0;
  if (j->tok == PCOL_JT_REAL) {
    double d = j->d;
    if (d != d || d < -9e15 || d > 9e15) return -1;
    return *out = (int64_t)d, 0;
  }
  return -1;
}

/* the value of the current key: its first token (skip_rest() after use) */
static int val(vimp *v) { return pcol_jp_next(v->j); }
static int skip_rest(vimp *v) { return pcol_jp_skip(v->j); }

static int copy_str(vimp *v, char **dst, size_t *dl, size_t *cap) {
  if (v->j->len + 1 > *cap) {
    char *p = realloc(*dst, v->j->len + 1);
    if (!p) return pcol_oom(v->err);
    *dst = p, *cap = v->j->len + 1;
  }
  memcpy(*dst, v->j->str, v->j->len + 1);
  *dl = v->j->len;
  return PCOL_OK;
}

/* V8's 0-based line or column as pcol's 1-based one.  -1 (V8's "unknown")
 * and any other negative are NA; so is INT64_MAX, whose 1-based form has
 * no int64 (line + 1 overflowed: UB, and NA by chance in a release build;
 * issue 42 F4), on purpose as the OTLP and Firefox importers do. */
static int64_t one_based(int64_t n) { return n >= 0 && n < INT64_MAX ? n + 1 : PCOL_NA_I64; }

static int node_location(vimp *v, const char *fs, size_t fl, const char *us, size_t ul,
                         int64_t line, int64_t col, uint32_t *loc) {
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  pcol_line_row l = {0, one_based(line), one_based(col)};
  f.start_line = l.line;
  int rc;
  if (fl) {
    rc = pcol_b_string(v->b, fs, fl, &f.name);
  } else if (ul) { /* speedscope's name: (anonymous <basename>:<line>) */
    size_t k = ul;
    while (k > 0 && us[k - 1] != '/') k--;
    char *t = malloc(ul - k + 48);
    if (!t) return pcol_oom(v->err);
    int tn = l.line != PCOL_NA_I64 ? sprintf(t, "(anonymous %.*s:%lld)", (int)(ul - k), us + k, (long long)l.line)
                       : sprintf(t, "(anonymous %.*s:undefined)", (int)(ul - k), us + k);
    rc = pcol_b_string(v->b, t, (size_t)tn, &f.name);
    free(t);
  } else {
    rc = pcol_b_cstr(v->b, "(anonymous)", &f.name);
  }
  if (rc || (ul && pcol_b_string(v->b, us, ul, &f.filename)) ||
      pcol_b_function(v->b, &f, &l.function_id) || pcol_b_location(v->b, 0, 0, 0, &l, 1, loc))
    return pcol_oom(v->err);
  return PCOL_OK;
}

/* A callFrame object (its '{' read): its fields into fn/url, *line, *col;
 * *bad = 1: a field of the wrong type, 2: a number that is not one. */
static int call_frame(vimp *v, int *has_fn, int *has_url, int64_t *line, int64_t *col, int *bad) {
  pcol_jpull *j = v->j;
  int rc;
  *has_fn = *has_url = 0, *line = *col = -1;
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int fn = pcol_jp_key_is(j, "functionName"), url = pcol_jp_key_is(j, "url");
    int ln = pcol_jp_key_is(j, "lineNumber"), cl = pcol_jp_key_is(j, "columnNumber");
    if ((rc = val(v))) return rc;
    if (fn || url) {
      if (j->tok != PCOL_JT_STR) *bad |= 1;
      else if ((rc = fn ? copy_str(v, &v->fn, &v->fnl, &v->capfn) : copy_str(v, &v->url, &v->urll, &v->capurl)))
        return rc;
      else *(fn ? has_fn : has_url) = 1;
    } else if ((ln || cl) && tok_int(j, ln ? line : col)) {
      *bad |= 2;
    }
    if ((rc = skip_rest(v))) return rc;
  }
  return rc;
}

/* Node i (its '{' read). */
static int node(vimp *v, size_t i) {
  pcol_jpull *j = v->j;
  int rc, id_ok = 0, cf = 0, cf_bad = 0, has_fn = 0, has_url = 0, kids_bad = 0, parent_bad = 0;
  int64_t id = -1, line = -1, col = -1;
  if (PCOL_GROW(v->nodes, v->n, v->capnodes)) return pcol_oom(v->err);
  vnode *nd = &v->nodes[v->n];
  memset(nd, 0, sizeof *nd);
  nd->parent_id = -1;
  nd->kid0 = v->nkids;
  v->fnl = v->urll = 0;
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    if (pcol_jp_key_is(j, "id")) {
      if ((rc = val(v))) return rc;
      id_ok = !tok_int(j, &id) && id >= 0;
    } else if (pcol_jp_key_is(j, "callFrame")) {
      if ((rc = val(v))) return rc;
      if (j->tok == PCOL_JT_OBJ) {
        cf = 1;
        if ((rc = call_frame(v, &has_fn, &has_url, &line, &col, &cf_bad))) return rc;
      }
    } else if (pcol_jp_key_is(j, "children")) {
      if ((rc = val(v))) return rc;
      if (j->tok != PCOL_JT_ARR) {
        kids_bad |= 1;
      } else {
        while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
          if (PCOL_GROW(v->kids, v->nkids, v->capkids)) return pcol_oom(v->err);
          v->kids[v->nkids++] = j->tok == PCOL_JT_INT && j->i >= 0 ? j->i : -1; /* -1: a non-id */
          if ((rc = skip_rest(v))) return rc;
        }
        if (rc) return rc;
      }
    } else if (pcol_jp_key_is(j, "parent")) {
      if ((rc = val(v))) return rc;
      if (j->tok != PCOL_JT_INT || j->i < 0) parent_bad = 1;
      else nd->parent_id = j->i;
    } else if (pcol_jp_key_is(j, "hitCount")) {
      if ((rc = val(v))) return rc;
      nd->hits_bad = tok_int(j, &nd->hits) || nd->hits < 0;
    } else if ((rc = val(v))) {
      return rc;
    }
    if ((rc = skip_rest(v))) return rc;
  }
  if (rc) return rc;
  nd->nkids = v->nkids - nd->kid0;
  if (!id_ok) return sem(v, at(v, "nodes", i, "id missing or not a number >= 0"));
  uint32_t idx;
  int added;
  if (pcol_u64map_get(&v->map, (uint64_t)id, &idx, &added)) return pcol_oom(v->err);
  if (!added) return sem(v, at(v, "nodes", i, "id repeats an earlier node's"));
  nd->cf_bad = !cf ? 1 : (cf_bad & 1) ? 2 : (cf_bad & 2) ? 3 : 0;
  nd->kids_notarr = kids_bad != 0;
  nd->parent_bad = (uint8_t)parent_bad;
  v->n++;
  if (nd->cf_bad) return PCOL_OK; /* reported by resolve() */
  const char *fs = has_fn ? v->fn : "", *us = has_url ? v->url : "";
  size_t fl = has_fn ? v->fnl : 0, ul = has_url ? v->urll : 0;
  nd->is_root_name = fl == 6 && memcmp(fs, "(root)", 6) == 0;
  return node_location(v, fs, fl, us, ul, line, col, &nd->loc);
}
/* stack id of node i (builds its ancestors first, without recursion) */
static int node_stack(vimp *v, uint32_t i, uint32_t *out) {
  size_t nw = 0;
  uint32_t k = i;
  while (!v->stack[k]) {
    if (nw == v->n) return at(v, "nodes", SIZE_MAX, "the parent links form a cycle");
    v->work[nw++] = k;
    if (!v->parent[k]) break;
    k = v->parent[k] - 1;
  }
  uint32_t parent = v->stack[k] ? v->stack[k] - 1 : 0;
  while (nw) {
    uint32_t j = v->work[--nw];
    if (v->stack[j]) { parent = v->stack[j] - 1; continue; }
    uint32_t sid = parent;
    if (v->loc[j] && pcol_b_stack_node(v->b, parent, v->loc[j], &sid)) return pcol_oom(v->err);
    v->stack[j] = sid + 1;
    parent = sid;
  }
  *out = v->stack[i] - 1;
  return PCOL_OK;
}


/* An array of numbers into *a (`samples`: ids, -1 for a non-id;
 * `timeDeltas`: an integer or a double strictly within +-9e15, *bad the
 * first that is not). */
static int numbers(vimp *v, int64_t **a, size_t *n, size_t *cap, int ids, size_t *bad) {
  pcol_jpull *j = v->j;
  int rc;
  while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
    int64_t x = 0;
    if (ids) x = j->tok == PCOL_JT_INT && j->i >= 0 ? j->i : -1;
    else if (j->tok == PCOL_JT_INT) x = j->i;
    else if (j->tok == PCOL_JT_REAL && j->d > -9e15 && j->d < 9e15) x = (int64_t)j->d; /* open bounds */
    else if (*bad == SIZE_MAX) *bad = *n;
    if (PCOL_GROW(*a, *n, *cap)) return pcol_oom(v->err);
    (*a)[(*n)++] = x;
    if ((rc = skip_rest(v))) return rc;
  }
  return rc;
}

static int opt_num(vimp *v, vnum *x) {
  int rc = val(v);
  if (rc) return rc;
  x->present = 1;
  x->bad = tok_int(v->j, &x->v) != 0;
  return PCOL_OK;
}

/* The document, read once: nodes into the builder's functions and
 * locations and compact arrays, samples and deltas into arrays. */
static int read_doc(vimp *v) {
  pcol_jpull *j = v->j;
  int rc = pcol_jp_next(j);
  if (rc) return rc;
  if (j->tok != PCOL_JT_OBJ) return sem(v, at(v, "$", SIZE_MAX, "not a JSON object"));
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    if (pcol_jp_key_is(j, "nodes")) {
      if ((rc = val(v))) return rc;
      if (j->tok != PCOL_JT_ARR) return sem(v, at(v, "nodes", SIZE_MAX, "missing or not an array"));
      v->have_nodes = 1;
      while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
        if (v->n >= UINT32_MAX / 2 - 1) return sem(v, at(v, "nodes", SIZE_MAX, "too many nodes"));
        if (j->tok != PCOL_JT_OBJ) return sem(v, at(v, "nodes", v->n, "not an object"));
        if ((rc = node(v, v->n)) || v->sem) return rc ? rc : v->sem;
      }
      if (rc) return rc;
    } else if (pcol_jp_key_is(j, "startTime")) {
      if ((rc = opt_num(v, &v->start))) return rc;
    } else if (pcol_jp_key_is(j, "endTime")) {
      if ((rc = opt_num(v, &v->end))) return rc;
    } else if (pcol_jp_key_is(j, "samples")) {
      if ((rc = val(v))) return rc;
      v->samples_kind = j->tok == PCOL_JT_ARR ? 1 : 2;
      if (j->tok == PCOL_JT_ARR && (rc = numbers(v, &v->samples, &v->ns, &v->capns, 1, NULL))) return rc;
    } else if (pcol_jp_key_is(j, "timeDeltas")) {
      if ((rc = val(v))) return rc;
      v->deltas_kind = j->tok == PCOL_JT_ARR ? 1 : 2;
      if (j->tok == PCOL_JT_ARR && (rc = numbers(v, &v->deltas, &v->nd, &v->capnd, 0, &v->bad_delta)))
        return rc;
    } else if ((rc = val(v))) {
      return rc;
    }
    if ((rc = skip_rest(v))) return rc;
  }
  if (rc) return rc;
  return pcol_jp_finish(j);
}

/* What the document holds, in the order of checks of the importer that
 * read it whole. */
static int resolve(vimp *v) {
  int rc;
  if (!v->have_nodes) return at(v, "nodes", SIZE_MAX, "missing or not an array");
  v->parent = calloc(v->n + 1, sizeof *v->parent);
  v->loc = calloc(v->n + 1, sizeof *v->loc);
  v->stack = calloc(v->n + 1, sizeof *v->stack);
  v->work = calloc(v->n + 1, sizeof *v->work);
  if (!v->parent || !v->loc || !v->stack || !v->work) return pcol_oom(v->err);
  for (size_t i = 0; i < v->n; i++) {
    vnode *nd = &v->nodes[i];
    static const char *cf_what[] = {"", "callFrame is not an object", "callFrame.functionName and .url must be strings",
                                    "callFrame.lineNumber and .columnNumber must be numbers"};
    if (nd->cf_bad) return at(v, "nodes", i, cf_what[nd->cf_bad]);
    if (nd->kids_notarr) return at(v, "nodes", i, "children is not an array");
    v->loc[i] = nd->loc;
    for (size_t c = 0; c < nd->nkids; c++) {
      uint32_t idx;
      int added;
      if (v->kids[nd->kid0 + c] < 0) return at(v, "nodes", i, "children holds a non-id");
      if (pcol_u64map_get(&v->map, (uint64_t)v->kids[nd->kid0 + c], &idx, &added)) return pcol_oom(v->err);
      if (added) return at(v, "nodes", i, "children names an id no node has");
      if (idx == i || (v->parent[idx] && v->parent[idx] != i + 1))
        return at(v, "nodes", i, "a child with two parents");
      v->parent[idx] = (uint32_t)i + 1;
    }
    if (nd->parent_bad) return at(v, "nodes", i, "parent is not an id");
    if (nd->parent_id >= 0) { /* the other form: parent ids */
      uint32_t idx;
      int added;
      if (pcol_u64map_get(&v->map, (uint64_t)nd->parent_id, &idx, &added)) return pcol_oom(v->err);
      if (added || idx == i) return at(v, "nodes", i, "parent names an id no node has");
      v->parent[i] = idx + 1;
    }
  }
  /* the tree's root "(root)" is in every stack: no frame of its own */
  for (size_t i = 0; i < v->n; i++)
    if (!v->parent[i] && v->nodes[i].is_root_name) v->loc[i] = 0;
  if (v->start.bad || v->end.bad)
    return at(v, "startTime", SIZE_MAX, "startTime and endTime must be numbers (microseconds)");
  int64_t start = v->start.present ? v->start.v : PCOL_NA_I64, end = v->end.present ? v->end.v : PCOL_NA_I64;
  char num[32];
  if (start != PCOL_NA_I64) {
    snprintf(num, sizeof num, "%lld", (long long)start);
    if (pcol_b_meta_str(v->b, v->src, "v8.start_time_us", num)) return pcol_oom(v->err);
  }
  if (end != PCOL_NA_I64) {
    snprintf(num, sizeof num, "%lld", (long long)end);
    if (pcol_b_meta_str(v->b, v->src, "v8.end_time_us", num)) return pcol_oom(v->err);
  }
  uint32_t t, u, vt_samples, vt_wall;
  if (pcol_b_cstr(v->b, PCOL_VT_SAMPLES, &t) || pcol_b_cstr(v->b, PCOL_UNIT_COUNT, &u) ||
      pcol_b_value_type(v->b, t, u, &vt_samples) || pcol_b_source_value_type(v->b, v->src, vt_samples))
    return pcol_oom(v->err);
  if (!v->samples_kind) { /* the old form: hit counts only, no times */
    for (size_t i = 0; i < v->n; i++) {
      int64_t hits = v->nodes[i].hits;
      if (v->nodes[i].hits_bad) return at(v, "nodes", i, "hitCount is not a count");
      if (!hits) continue;
      pcol_sample_row s = {v->src, PCOL_NA_I64, 0, hits, PCOL_NA_I64, 0, 0};
      pcol_value_row val = {vt_samples, hits};
      if ((rc = node_stack(v, (uint32_t)i, &s.stack_id))) return rc;
      if (pcol_b_sample(v->b, &s, &val, 1, NULL)) return pcol_oom(v->err);
    }
    return PCOL_OK;
  }
  if (v->samples_kind != 1) return at(v, "samples", SIZE_MAX, "not an array");
  size_t ns = v->ns;
  if (v->deltas_kind != 1 || v->nd != ns) return at(v, "timeDeltas", SIZE_MAX, "missing, or not as long as samples");
  if (start == PCOL_NA_I64) return at(v, "startTime", SIZE_MAX, "missing");
  if (pcol_b_cstr(v->b, PCOL_VT_WALL, &t) || pcol_b_cstr(v->b, PCOL_UNIT_NANOSECONDS, &u) ||
      pcol_b_value_type(v->b, t, u, &vt_wall) || pcol_b_source_value_type(v->b, v->src, vt_wall))
    return pcol_oom(v->err);
  /* times first (a sample's wall time needs the next one's time) */
  int64_t elapsed = 0, last = INT64_MIN, prev_t = 0;
  uint32_t prev_node = 0;
  for (size_t i = 0; i <= ns; i++) {
    int64_t tus = 0;
    uint32_t idx = 0;
    if (i < ns) {
      int64_t d = v->deltas[i];
      if (v->samples[i] < 0) return at(v, "samples", i, "not a node id");
      if (i == v->bad_delta) return at(v, "timeDeltas", i, "not a number");
      if (d > INT64_MAX / 4000 || d < -INT64_MAX / 4000 ||
          (elapsed > 0 && d > INT64_MAX / 4000 - elapsed) || (elapsed < 0 && d < -INT64_MAX / 4000 - elapsed))
        return at(v, "timeDeltas", i, "time out of range");
      elapsed += d;
      int added;
      if (pcol_u64map_get(&v->map, (uint64_t)v->samples[i], &idx, &added)) return pcol_oom(v->err);
      if (added) return at(v, "samples", i, "names an id no node has");
      tus = elapsed > last ? elapsed : last; /* speedscope: time never goes back */
      last = tus;
    } else {
      tus = last;
    }
    if (i > 0) { /* sample i-1 lasts until sample i */
      if (start > INT64_MAX / 4000 || start < -INT64_MAX / 4000) return at(v, "startTime", SIZE_MAX, "out of range");
      pcol_sample_row s = {v->src, (start + prev_t) * 1000, 0, 1, PCOL_NA_I64, 0, 0};
      pcol_value_row val[2] = {{vt_samples, 1}, {vt_wall, (tus - prev_t) * 1000}};
      if ((rc = node_stack(v, prev_node, &s.stack_id))) return rc;
      if (pcol_b_sample(v->b, &s, val, 2, NULL)) return pcol_oom(v->err);
    }
    prev_t = tus;
    prev_node = idx;
  }
  return PCOL_OK;
}

int pcol_import_v8(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                   pcol_error *err) {
  vimp v = {0};
  pcol_jpull j;
  v.b = b, v.name = name, v.err = err, v.j = &j, v.bad_delta = SIZE_MAX;
  int rc = pcol_jp_open(&j, in, name, opt, 0, err);
  if (!rc && pcol_b_source(b, PCOL_SRC_V8, name, PCOL_NA_I64, &v.src)) rc = pcol_oom(err);
  if (!rc) rc = read_doc(&v);
  if (!rc) rc = resolve(&v);
  pcol_jp_close(&j);
  free(v.nodes), free(v.kids), free(v.samples), free(v.deltas), free(v.fn), free(v.url);
  free(v.parent), free(v.loc), free(v.stack), free(v.work);
  pcol_u64map_free(&v.map);
  return rc;
}
