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
 * doc/mappings.md §10. */
#include "v8.h"

typedef struct vimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  size_t n;              /* nodes */
  int64_t *ids;          /* node index -> id */
  uint32_t *parent;      /* node index -> parent index + 1, 0 = none */
  uint32_t *loc;         /* node index -> location (0: the skipped root) */
  uint32_t *stack;       /* node index -> stack id + 1, 0 = not yet */
  pcol_u64map map;       /* id -> node index */
  uint32_t *work;
} vimp;

static int at(vimp *v, const char *path, size_t i, const char *what) {
  if (i == SIZE_MAX)
    return pcol_error_set(v->err, PCOL_ECORRUPT, "%s: %s: %s", v->name, path, what);
  return pcol_error_set(v->err, PCOL_ECORRUPT, "%s: %s[%zu]: %s", v->name, path, i, what);
}

static int get_int(json_t *o, const char *key, int64_t dflt, int64_t *out) {
  json_t *j = json_object_get(o, key);
  if (!j) return *out = dflt, 0;
  if (json_is_integer(j)) return *out = json_integer_value(j), 0;
  if (json_is_real(j)) {
    double d = json_real_value(j);
    if (d != d || d < -9e15 || d > 9e15) return -1;
    return *out = (int64_t)d, 0;
  }
  return -1;
}

static int node_location(vimp *v, json_t *node, size_t i, uint32_t *loc, int *is_root_name) {
  json_t *cf = json_object_get(node, "callFrame");
  if (!json_is_object(cf)) return at(v, "nodes", i, "callFrame is not an object");
  json_t *fn = json_object_get(cf, "functionName"), *url = json_object_get(cf, "url");
  if ((fn && !json_is_string(fn)) || (url && !json_is_string(url)))
    return at(v, "nodes", i, "callFrame.functionName and .url must be strings");
  int64_t line, col;
  if (get_int(cf, "lineNumber", -1, &line) || get_int(cf, "columnNumber", -1, &col))
    return at(v, "nodes", i, "callFrame.lineNumber and .columnNumber must be numbers");
  const char *fs = fn ? json_string_value(fn) : "";
  size_t fl = fn ? json_string_length(fn) : 0;
  const char *us = url ? json_string_value(url) : "";
  size_t ul = url ? json_string_length(url) : 0;
  *is_root_name = fl == 6 && memcmp(fs, "(root)", 6) == 0;
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  pcol_line_row l = {0, line >= 0 ? line + 1 : PCOL_NA_I64, col >= 0 ? col + 1 : PCOL_NA_I64};
  f.start_line = l.line;
  int rc;
  if (fl) {
    rc = pcol_b_string(v->b, fs, fl, &f.name);
  } else if (ul) { /* speedscope's name: (anonymous <basename>:<line>) */
    size_t k = ul;
    while (k > 0 && us[k - 1] != '/') k--;
    char *t = malloc(ul - k + 48);
    if (!t) return pcol_oom(v->err);
    int tn = line >= 0 ? sprintf(t, "(anonymous %.*s:%lld)", (int)(ul - k), us + k, (long long)line + 1)
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

static int import_doc(vimp *v, json_t *root) {
  if (!json_is_object(root)) return at(v, "$", SIZE_MAX, "not a JSON object");
  json_t *nodes = json_object_get(root, "nodes");
  if (!json_is_array(nodes)) return at(v, "nodes", SIZE_MAX, "missing or not an array");
  v->n = json_array_size(nodes);
  if (v->n >= UINT32_MAX / 2) return at(v, "nodes", SIZE_MAX, "too many nodes");
  v->ids = calloc(v->n + 1, sizeof *v->ids);
  v->parent = calloc(v->n + 1, sizeof *v->parent);
  v->loc = calloc(v->n + 1, sizeof *v->loc);
  v->stack = calloc(v->n + 1, sizeof *v->stack);
  v->work = calloc(v->n + 1, sizeof *v->work);
  if (!v->ids || !v->parent || !v->loc || !v->stack || !v->work) return pcol_oom(v->err);
  int rc;
  for (size_t i = 0; i < v->n; i++) {
    json_t *nd = json_array_get(nodes, i);
    int64_t id;
    if (!json_is_object(nd)) return at(v, "nodes", i, "not an object");
    if (get_int(nd, "id", -1, &id) || id < 0) return at(v, "nodes", i, "id missing or not a number >= 0");
    uint32_t idx;
    int added;
    if (pcol_u64map_get(&v->map, (uint64_t)id, &idx, &added)) return pcol_oom(v->err);
    if (!added) return at(v, "nodes", i, "id repeats an earlier node's");
    v->ids[i] = id;
  }
  for (size_t i = 0; i < v->n; i++) {
    json_t *nd = json_array_get(nodes, i), *ch = json_object_get(nd, "children");
    int is_root_name;
    if ((rc = node_location(v, nd, i, &v->loc[i], &is_root_name))) return rc;
    if (ch && !json_is_array(ch)) return at(v, "nodes", i, "children is not an array");
    for (size_t c = 0; ch && c < json_array_size(ch); c++) {
      int64_t cid;
      json_t *cj = json_array_get(ch, c);
      if (!json_is_integer(cj) || (cid = json_integer_value(cj)) < 0)
        return at(v, "nodes", i, "children holds a non-id");
      uint32_t idx;
      int added;
      if (pcol_u64map_get(&v->map, (uint64_t)cid, &idx, &added)) return pcol_oom(v->err);
      if (added) return at(v, "nodes", i, "children names an id no node has");
      if (idx == i || (v->parent[idx] && v->parent[idx] != i + 1))
        return at(v, "nodes", i, "a child with two parents");
      v->parent[idx] = (uint32_t)i + 1;
    }
    json_t *pj = json_object_get(nd, "parent"); /* the other form: parent ids */
    if (pj) {
      uint32_t idx;
      int added;
      if (!json_is_integer(pj) || json_integer_value(pj) < 0) return at(v, "nodes", i, "parent is not an id");
      if (pcol_u64map_get(&v->map, (uint64_t)json_integer_value(pj), &idx, &added)) return pcol_oom(v->err);
      if (added || idx == i) return at(v, "nodes", i, "parent names an id no node has");
      v->parent[i] = idx + 1;
    }
  }
  /* the tree's root "(root)" is in every stack: no frame of its own */
  for (size_t i = 0; i < v->n; i++) {
    json_t *cf = json_object_get(json_array_get(nodes, i), "callFrame");
    json_t *fn = json_object_get(cf, "functionName");
    if (!v->parent[i] && json_is_string(fn) && strcmp(json_string_value(fn), "(root)") == 0)
      v->loc[i] = 0;
  }
  int64_t start, end;
  if (get_int(root, "startTime", PCOL_NA_I64, &start) || get_int(root, "endTime", PCOL_NA_I64, &end))
    return at(v, "startTime", SIZE_MAX, "startTime and endTime must be numbers (microseconds)");
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
  json_t *samples = json_object_get(root, "samples"), *deltas = json_object_get(root, "timeDeltas");
  if (!samples) { /* the old form: hit counts only, no times */
    for (size_t i = 0; i < v->n; i++) {
      int64_t hits;
      if (get_int(json_array_get(nodes, i), "hitCount", 0, &hits) || hits < 0)
        return at(v, "nodes", i, "hitCount is not a count");
      if (!hits) continue;
      pcol_sample_row s = {v->src, PCOL_NA_I64, 0, hits, PCOL_NA_I64, 0, 0};
      pcol_value_row val = {vt_samples, hits};
      if ((rc = node_stack(v, (uint32_t)i, &s.stack_id))) return rc;
      if (pcol_b_sample(v->b, &s, &val, 1, NULL)) return pcol_oom(v->err);
    }
    return PCOL_OK;
  }
  if (!json_is_array(samples)) return at(v, "samples", SIZE_MAX, "not an array");
  size_t ns = json_array_size(samples);
  if (!json_is_array(deltas) || json_array_size(deltas) != ns)
    return at(v, "timeDeltas", SIZE_MAX, "missing, or not as long as samples");
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
      json_t *sj = json_array_get(samples, i), *dj = json_array_get(deltas, i);
      int64_t d;
      if (!json_is_integer(sj) || json_integer_value(sj) < 0) return at(v, "samples", i, "not a node id");
      if (json_is_integer(dj)) d = json_integer_value(dj);
      else if (json_is_real(dj) && json_real_value(dj) > -9e15 && json_real_value(dj) < 9e15)
        d = (int64_t)json_real_value(dj);
      else return at(v, "timeDeltas", i, "not a number");
      if (d > INT64_MAX / 4000 || d < -INT64_MAX / 4000 ||
          (elapsed > 0 && d > INT64_MAX / 4000 - elapsed) || (elapsed < 0 && d < -INT64_MAX / 4000 - elapsed))
        return at(v, "timeDeltas", i, "time out of range");
      elapsed += d;
      int added;
      if (pcol_u64map_get(&v->map, (uint64_t)json_integer_value(sj), &idx, &added)) return pcol_oom(v->err);
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
  v.b = b, v.name = name, v.err = err;
  json_t *root = NULL;
  int rc = pcol_json_doc_load(in, name, opt, &root, err);
  if (!rc && pcol_b_source(b, PCOL_SRC_V8, name, PCOL_NA_I64, &v.src)) rc = pcol_oom(err);
  if (!rc) rc = import_doc(&v, root);
  json_decref(root);
  free(v.ids), free(v.parent), free(v.loc), free(v.stack), free(v.work);
  pcol_u64map_free(&v.map);
  return rc;
}
