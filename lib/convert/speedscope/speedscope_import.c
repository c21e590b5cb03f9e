/* speedscope_import.c — a speedscope file
 * (https://www.speedscope.app/file-format-schema.json) into a builder: every
 * profile becomes a source (source_uri "<file>: <profile name>").
 *
 * Frames (shared.frames: name, file, line, col) become functions and
 * locations.  A "sampled" profile's samples (frame indices, root first)
 * become samples in file order; an "evented" profile's open/close events
 * become one sample per stretch of time with a non-empty stack: time = the
 * stretch's start, duration = its length (a long sample).
 * Values: the unit "none" is a count, ("samples", "count") and the weight;
 * time units are scaled to nanoseconds, bytes stay bytes, with weight 1.
 * The value type's name is the profile name's last ": " part when pcol
 * wrote it that way ("x.out: cpu"), else "samples", "wall" or "space";
 * the weight is the value of a "none" profile, else 1.  The profile of
 * activeProfileIndex (the one speedscope opens on) names the default type
 * of its source (meta pprof.default_sample_type, lib/core/count.c).
 * Weights are rounded to integers (half away from zero).  doc/mappings.md §11. */
#include "speedscope.h"
#include <math.h>

typedef struct simp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  size_t nframes;
  int64_t active;   /* activeProfileIndex, -1 if none */
  uint32_t *floc;   /* frame index -> location */
  uint32_t *locs;   /* a stack, leaf first */
  size_t nlocs, caplocs;
  uint32_t *open;   /* evented: the open frames, root first */
  size_t nopen, capopen;
} simp;

static int at(simp *s, const char *fmt, size_t a, size_t b, const char *what) {
  char path[96];
  snprintf(path, sizeof path, fmt, a, b);
  return pcol_error_set(s->err, PCOL_ECORRUPT, "%s: %s: %s", s->name, path, what);
}

static int frames(simp *s, json_t *root) {
  json_t *sh = json_object_get(root, "shared"), *fr = json_object_get(sh, "frames");
  if (!json_is_object(sh) || !json_is_array(fr)) return at(s, "shared.frames", 0, 0, "missing or not an array");
  s->nframes = json_array_size(fr);
  s->floc = calloc(s->nframes + 1, sizeof *s->floc);
  if (!s->floc) return pcol_oom(s->err);
  for (size_t i = 0; i < s->nframes; i++) {
    json_t *f = json_array_get(fr, i), *nm = json_object_get(f, "name"), *file = json_object_get(f, "file"),
           *ln = json_object_get(f, "line"), *cl = json_object_get(f, "col");
    if (!json_is_object(f) || !json_is_string(nm)) return at(s, "shared.frames[%zu]", i, 0, "no string name");
    if ((file && !json_is_string(file)) || (ln && !json_is_number(ln)) || (cl && !json_is_number(cl)))
      return at(s, "shared.frames[%zu]", i, 0, "file must be a string, line and col numbers");
    pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
    pcol_line_row l = {0, PCOL_NA_I64, PCOL_NA_I64};
    if (ln && json_number_value(ln) >= 0 && json_number_value(ln) < 9e15) l.line = (int64_t)json_number_value(ln);
    if (cl && json_number_value(cl) >= 0 && json_number_value(cl) < 9e15) l.column = (int64_t)json_number_value(cl);
    fn.start_line = l.line;
    if (pcol_b_string(s->b, json_string_value(nm), json_string_length(nm), &fn.name) ||
        (file && pcol_b_string(s->b, json_string_value(file), json_string_length(file), &fn.filename)) ||
        pcol_b_function(s->b, &fn, &l.function_id) || pcol_b_location(s->b, 0, 0, 0, &l, 1, &s->floc[i]))
      return pcol_oom(s->err);
  }
  return PCOL_OK;
}

/* unit -> (scale to the stored unit, stored unit, default type name) */
static int unit_of(const char *u, double *scale, const char **unit, const char **type) {
  static const struct { const char *n; double sc; const char *unit, *type; } t[] = {
      {"none", 1, PCOL_UNIT_COUNT, PCOL_VT_SAMPLES}, {"nanoseconds", 1, PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL},
      {"microseconds", 1e3, PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL},
      {"milliseconds", 1e6, PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL},
      {"seconds", 1e9, PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL}, {"bytes", 1, "bytes", "space"}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(u, t[i].n) == 0) return *scale = t[i].sc, *unit = t[i].unit, *type = t[i].type, 0;
  return -1;
}

static int to_i64(double d, int64_t *out) {
  if (!(d > -9.2e18 && d < 9.2e18)) return -1;
  *out = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
  return 0;
}

/* the stack of frame indices fi[0..n) (root first) */
static int stack_of(simp *s, const uint32_t *open, size_t n, uint32_t *sid) {
  s->nlocs = 0;
  for (size_t k = n; k-- > 0;) {
    if (PCOL_GROW(s->locs, s->nlocs, s->caplocs)) return pcol_oom(s->err);
    s->locs[s->nlocs++] = s->floc[open[k]];
  }
  return pcol_b_stack(s->b, s->locs, s->nlocs, sid) ? pcol_oom(s->err) : PCOL_OK;
}

static int frame_ix(simp *s, json_t *j, size_t *out) {
  if (!json_is_integer(j) || json_integer_value(j) < 0 || (uint64_t)json_integer_value(j) >= s->nframes) return -1;
  *out = (size_t)json_integer_value(j);
  return 0;
}

/* A profile's name "<prefix>: <type>" as pcol writes it: the prefix's
 * length, or 0 when the name has no such type part. */
static size_t name_prefix(const char *name) {
  const char *last = NULL;
  for (const char *q = strstr(name, ": "); q; q = strstr(q + 2, ": ")) last = q;
  if (!last || last == name || !last[2] || strchr(last + 2, ' ')) return 0;
  return (size_t)(last - name);
}

/* Profile pi's unit and value type (in the source src). */
static int profile_vt(simp *s, json_t *p, size_t pi, uint32_t src, double *scale, int *is_count,
                      uint32_t *vt) {
  json_t *nm = json_object_get(p, "name"), *un = json_object_get(p, "unit");
  const char *unit, *tname;
  if (!json_is_string(un) || unit_of(json_string_value(un), scale, &unit, &tname))
    return at(s, "profiles[%zu].unit", pi, 0, "not a speedscope unit");
  const char *pname = json_is_string(nm) ? json_string_value(nm) : "";
  size_t k = name_prefix(pname);
  uint32_t ts, us;
  if ((k ? pcol_b_cstr(s->b, pname + k + 2, &ts) : pcol_b_cstr(s->b, tname, &ts)) ||
      pcol_b_cstr(s->b, unit, &us) || pcol_b_value_type(s->b, ts, us, vt) ||
      pcol_b_source_value_type(s->b, src, *vt))
    return pcol_oom(s->err);
  *is_count = strcmp(unit, PCOL_UNIT_COUNT) == 0;
  return PCOL_OK;
}

/* The source of profiles [pi, ...): named by the profile name's prefix
 * (the source_uri pcol exported it from), else "<file>: <name>". */
static int profile_source(simp *s, json_t *p, uint32_t *src) {
  json_t *nm = json_object_get(p, "name");
  const char *pname = json_is_string(nm) ? json_string_value(nm) : "";
  size_t k = name_prefix(pname), ul = strlen(s->name) + strlen(pname) + 3;
  char *uri = malloc(ul);
  if (!uri) return pcol_oom(s->err);
  if (k) snprintf(uri, ul, "%.*s", (int)k, pname);
  else snprintf(uri, ul, "%s: %s", s->name, pname);
  int rc = pcol_b_source(s->b, PCOL_SRC_SPEEDSCOPE, uri, PCOL_NA_I64, src);
  free(uri);
  return rc ? pcol_oom(s->err) : PCOL_OK;
}

static int is_sampled(json_t *p) {
  json_t *t = json_object_get(p, "type");
  return json_is_string(t) && strcmp(json_string_value(t), "sampled") == 0;
}

/* Sampled profiles [pi, pj) of one source (pcol writes one per value type
 * of a source, with the same samples): their samples, with a value each. */
static int sampled(simp *s, json_t *ps, size_t pi, size_t pj) {
  enum { MAXG = 64 };
  uint32_t src, vt[MAXG];
  double scale[MAXG];
  int is_count[MAXG], rc;
  json_t *w[MAXG];
  if ((rc = profile_source(s, json_array_get(ps, pi), &src))) return rc;
  json_t *sm = json_object_get(json_array_get(ps, pi), "samples");
  if (!json_is_array(sm)) return at(s, "profiles[%zu].samples", pi, 0, "not an array");
  int count_at = -1;
  for (size_t g = pi; g < pj; g++) {
    json_t *p = json_array_get(ps, g);
    if ((rc = profile_vt(s, p, g, src, &scale[g - pi], &is_count[g - pi], &vt[g - pi]))) return rc;
    w[g - pi] = json_object_get(p, "weights");
    if (!json_is_array(w[g - pi]) || json_array_size(w[g - pi]) != json_array_size(sm))
      return at(s, "profiles[%zu].weights", g, 0, "not an array as long as samples");
    if (count_at < 0 && is_count[g - pi]) count_at = (int)(g - pi);
    /* the profile speedscope opens on is the source's default type */
    if (s->active == (int64_t)g && pj - pi > 1) {
      json_t *nm = json_object_get(p, "name");
      const char *pname = json_string_value(nm);
      if (pcol_b_meta_str(s->b, src, PPROF_META_DEFAULT_SAMPLE_TYPE, pname + name_prefix(pname) + 2))
        return pcol_oom(s->err);
    }
  }
  pcol_value_row v[MAXG];
  for (size_t i = 0; i < json_array_size(sm); i++) {
    json_t *st = json_array_get(sm, i);
    for (size_t g = 0; g < pj - pi; g++) {
      json_t *wj = json_array_get(w[g], i);
      v[g].value_type_id = vt[g];
      if (!json_is_number(wj) || json_number_value(wj) < 0 || to_i64(json_number_value(wj) * scale[g], &v[g].value))
        return at(s, "profiles[%zu].weights[%zu]", pi + g, i, "not a weight >= 0");
    }
    if (!json_is_array(st)) return at(s, "profiles[%zu].samples[%zu]", pi, i, "not an array");
    s->nopen = 0;
    for (size_t k = 0; k < json_array_size(st); k++) {
      size_t f;
      if (frame_ix(s, json_array_get(st, k), &f)) return at(s, "profiles[%zu].samples[%zu]", pi, i, "not a frame index");
      if (PCOL_GROW(s->open, s->nopen, s->capopen)) return pcol_oom(s->err);
      s->open[s->nopen++] = (uint32_t)f;
    }
    pcol_sample_row r = {src, PCOL_NA_I64, 0, count_at >= 0 ? v[count_at].value : 1, PCOL_NA_I64, 0, 0};
    if ((rc = stack_of(s, s->open, s->nopen, &r.stack_id))) return rc;
    if (pcol_b_sample(s->b, &r, v, pj - pi, NULL)) return pcol_oom(s->err);
  }
  return PCOL_OK;
}

static int evented(simp *s, json_t *p, size_t pi) {
  uint32_t src, vt;
  double scale;
  int is_count, rc;
  if ((rc = profile_source(s, p, &src)) || (rc = profile_vt(s, p, pi, src, &scale, &is_count, &vt)))
    return rc;
  int timed = strcmp(json_string_value(json_object_get(p, "unit")), "none") != 0 &&
              strcmp(json_string_value(json_object_get(p, "unit")), "bytes") != 0;
  json_t *ev = json_object_get(p, "events");
  if (!json_is_array(ev)) return at(s, "profiles[%zu].events", pi, 0, "not an array");
  s->nopen = 0;
  double prev = 0;
  for (size_t i = 0; i < json_array_size(ev); i++) {
    json_t *e = json_array_get(ev, i), *et = json_object_get(e, "type"), *a = json_object_get(e, "at");
    size_t f;
    if (!json_is_object(e) || !json_is_string(et) || !json_is_number(a) ||
        frame_ix(s, json_object_get(e, "frame"), &f))
      return at(s, "profiles[%zu].events[%zu]", pi, i, "expected {type, at, frame}");
    double t = json_number_value(a);
    if (i && t < prev) return at(s, "profiles[%zu].events[%zu]", pi, i, "goes back in time");
    if (s->nopen && t > prev) { /* the stretch [prev, t) */
      int64_t t0, t1;
      if (to_i64(prev * scale, &t0) || to_i64(t * scale, &t1))
        return at(s, "profiles[%zu].events[%zu]", pi, i, "time out of range");
      pcol_sample_row r = {src, timed ? t0 : PCOL_NA_I64, timed ? t1 - t0 : 0, is_count ? t1 - t0 : 1,
                           PCOL_NA_I64, 0, 0};
      pcol_value_row v = {vt, t1 - t0};
      if ((rc = stack_of(s, s->open, s->nopen, &r.stack_id))) return rc;
      if (pcol_b_sample(s->b, &r, &v, 1, NULL)) return pcol_oom(s->err);
    }
    prev = t;
    const char *ty = json_string_value(et);
    if (strcmp(ty, "O") == 0) {
      if (PCOL_GROW(s->open, s->nopen, s->capopen)) return pcol_oom(s->err);
      s->open[s->nopen++] = (uint32_t)f;
    } else if (strcmp(ty, "C") == 0) {
      if (!s->nopen || s->open[s->nopen - 1] != f)
        return at(s, "profiles[%zu].events[%zu]", pi, i, "closes a frame that is not the innermost open one");
      s->nopen--;
    } else {
      return at(s, "profiles[%zu].events[%zu].type", pi, i, "neither \"O\" nor \"C\"");
    }
  }
  if (s->nopen) return at(s, "profiles[%zu].events", pi, 0, "frames left open at the end");
  return PCOL_OK;
}

/* Profiles pi and pj belong to one source: both sampled, one name prefix,
 * the same samples. */
static int same_source(json_t *a, json_t *b) {
  json_t *na = json_object_get(a, "name"), *nb = json_object_get(b, "name");
  if (!is_sampled(a) || !is_sampled(b) || !json_is_string(na) || !json_is_string(nb)) return 0;
  size_t ka = name_prefix(json_string_value(na)), kb = name_prefix(json_string_value(nb));
  return ka && ka == kb && memcmp(json_string_value(na), json_string_value(nb), ka) == 0 &&
         json_equal(json_object_get(a, "samples"), json_object_get(b, "samples"));
}

static int profiles(simp *s, json_t *ps) {
  size_t n = json_array_size(ps);
  for (size_t i = 0; i < n;) {
    json_t *p = json_array_get(ps, i), *type = json_object_get(p, "type");
    if (!json_is_object(p) || !json_is_string(type)) return at(s, "profiles[%zu]", i, 0, "no string type");
    int rc;
    if (is_sampled(p)) {
      size_t j = i + 1;
      while (j < n && j - i < 64 && same_source(p, json_array_get(ps, j))) j++;
      if ((rc = sampled(s, ps, i, j))) return rc;
      i = j;
    } else if (strcmp(json_string_value(type), "evented") == 0) {
      if ((rc = evented(s, p, i))) return rc;
      i++;
    } else {
      return at(s, "profiles[%zu].type", i, 0, "neither \"sampled\" nor \"evented\"");
    }
  }
  return PCOL_OK;
}

int pcol_import_speedscope(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                           pcol_error *err) {
  simp s = {0};
  s.b = b, s.name = name, s.err = err;
  json_t *root = NULL;
  int rc = pcol_json_doc_load(in, name, opt, &root, err);
  if (!rc && !json_is_object(root)) rc = at(&s, "$", 0, 0, "not a JSON object");
  if (!rc) rc = frames(&s, root);
  json_t *ps = rc ? NULL : json_object_get(root, "profiles");
  if (!rc && !json_is_array(ps)) rc = at(&s, "profiles", 0, 0, "missing or not an array");
  json_t *act = rc ? NULL : json_object_get(root, "activeProfileIndex");
  s.active = json_is_integer(act) ? json_integer_value(act) : -1;
  if (!rc) rc = profiles(&s, ps);
  json_decref(root);
  free(s.floc), free(s.locs), free(s.open);
  return rc;
}
