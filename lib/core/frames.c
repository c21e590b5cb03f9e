/* frames.c — the frame-naming rule (frames.h) and stack location lists. */
#include "frames.h"
#include "buf.h"      /* pcol_buf_append, pcol_buf, PCOL_GROW */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_error_set */
#include "bytes.h"    /* pcol_str_is */
#include "keys.h"     /* PCOL_SRC_RPROF, PCOL_META_NAMELESS_PLACES */
#include "reader.h"   /* pcol_meta_probe */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcol_frames_init(pcol_frames *fr, pcol_file *f, pcol_error *err) {
  memset(fr, 0, sizeof *fr);
  fr->f = f;
  fr->nloc = pcol_rows(f, PCOL_T_LOCATIONS);
  fr->nlines = pcol_rows(f, PCOL_T_LINES);
  fr->nfn = pcol_rows(f, PCOL_T_FUNCTIONS);
  fr->nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  const pcol_column_req cols[] = {{&fr->loc_off, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS},
                                  {&fr->loc_addr, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS},
                                  {&fr->loc_map, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING},
                                  {&fr->map_file, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME},
                                  {&fr->ln_fn, PCOL_T_LINES, PCOL_C_LINE_FUNCTION},
                                  {&fr->ln_line, PCOL_T_LINES, PCOL_C_LINE_LINE},
                                  {&fr->fn_name, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME},
                                  {&fr->fn_file, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME}};
  return pcol_columns(f, cols, PCOL_NCOLS(cols), err);
}

void pcol_frames_lines(const pcol_frames *fr, uint32_t loc, uint64_t *a, uint64_t *e) {
  *a = *e = 0;
  if (!loc || loc > fr->nloc) return;
  uint64_t lo = pcol_view_u64(&fr->loc_off, loc - 1), hi = pcol_view_u64(&fr->loc_off, loc);
  if (hi > fr->nlines) hi = fr->nlines;
  if (lo > hi) lo = hi;
  *a = lo;
  *e = hi;
}

/* The location whose lines hold line row li (0: none): the offsets are
 * non-decreasing (the reader checks), so location L holds rows
 * [off[L-1], off[L]) and a binary search finds it. */
uint32_t pcol_frames_line_location(const pcol_frames *fr, uint64_t li) {
  uint64_t lo = 1, hi = fr->nloc; /* the answer is in [lo, hi] */
  if (!fr->nloc || li >= fr->nlines) return 0;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (pcol_view_u64(&fr->loc_off, mid) <= li) lo = mid + 1;
    else hi = mid;
  }
  return pcol_view_u64(&fr->loc_off, lo - 1) <= li && li < pcol_view_u64(&fr->loc_off, lo) ? (uint32_t)lo : 0;
}

int pcol_frame_line_unsym(const pcol_frames *fr, uint64_t li, uint32_t *m) {
  uint32_t fn = pcol_frames_fn(fr, li);
  *m = 0;
  if (fn && pcol_view_u32(&fr->fn_name, fn - 1)) return 0; /* named (string 0 is NA) */
  /* no function name.  In a mapping (pprof's native frames: gperftools'
   * "??" at line 0): the mapping's name, "[libR.so]", as go tool pprof's
   * graph names it (nodeInfo keys it by Objfile; by function its file and
   * line are dropped) and top does (review 19 F2: "<unknown>" here merged
   * two libraries).  Else at line 0, pprof's "no line" (R's lines start
   * at 1): go's "<unknown>", the name of no mapping.  An Rprof top-level
   * ref (no mapping, a line) is a place. */
  *m = pcol_frames_mapping(fr, pcol_frames_line_location(fr, li));
  return *m || pcol_view_i64(&fr->ln_line, li) == 0;
}

/* 1 when string sid is present (not NA) and empty.  (A string id out of
 * range is no name here: the views that read it say so.) */
static int str_empty(pcol_file *f, uint32_t sid) {
  pcol_str name = {NULL, 0};
  pcol_error e;
  return sid && pcol_string(f, sid, &name, &e) == PCOL_OK && name.ptr && !name.len;
}

int pcol_frame_fn_empty(const pcol_frames *fr, uint32_t fn) {
  return fn && fn <= fr->nfn && str_empty(fr->f, pcol_view_u32(&fr->fn_name, fn - 1));
}

uint32_t pcol_frame_export_system_name(pcol_file *f, uint32_t name, uint32_t system_name) {
  return str_empty(f, name) ? 0 : system_name;
}

int pcol_frame_line_name(const pcol_frames *fr, uint64_t li, pcol_buf *scratch, pcol_str *out,
                         int *by_function, pcol_error *err) {
  uint32_t fn = pcol_frames_fn(fr, li);
  pcol_str name = {NULL, 0}, file = {NULL, 0};
  int rc;
  *by_function = 0;
  if (fn && (rc = pcol_string(fr->f, pcol_view_u32(&fr->fn_name, fn - 1), &name, err))) return rc;
  /* a view's "" is go's frame of no name (THE empty-name rule, frames.h) */
  int empty = fr->views && name.ptr && !name.len;
  if (name.ptr && !empty) {
    *out = name;
    *by_function = 1;
    return PCOL_OK;
  }
  uint32_t m;
  /* (a frame of a source of frames: "<unknown>" without a mapping) */
  if (pcol_frame_line_unsym(fr, li, &m) || empty ||
      (fr->rule && pcol_nameless_frames_at(fr->rule, pcol_frames_line_location(fr, li)))) {
    if (empty) m = pcol_frames_mapping(fr, pcol_frames_line_location(fr, li));
    scratch->len = 0;
    PCOL_RETURN_NOT_OK(pcol_frame_unsymbolized_name(fr, m, scratch, err));
    *out = (pcol_str){(const char *)scratch->data, scratch->len};
    return PCOL_OK;
  }
  /* Else (an Rprof top-level ref): the place */
  if (fn && (rc = pcol_string(fr->f, pcol_view_u32(&fr->fn_file, fn - 1), &file, err))) return rc;
  scratch->len = 0;
  int64_t line = pcol_view_i64(&fr->ln_line, li);
  if (!file.ptr) {
    rc = pcol_buf_append(scratch, "[unknown]", 9);
  } else {
    rc = pcol_buf_append(scratch, file.ptr, file.len);
    if (!rc && line != PCOL_NA_I64) {
      char b[24];
      int n = snprintf(b, sizeof b, ":%lld", (long long)line);
      rc = pcol_buf_append(scratch, b, (size_t)n);
    }
  }
  if (rc) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  *out = (pcol_str){(const char *)scratch->data, scratch->len};
  return PCOL_OK;
}

int pcol_frame_nameless_file(const pcol_frames *fr, uint64_t li, pcol_str *file, pcol_error *err) {
  *file = (pcol_str){NULL, 0};
  uint32_t fn = pcol_frames_fn(fr, li);
  int64_t line = li < fr->nlines ? pcol_view_i64(&fr->ln_line, li) : 0;
  if (!fn || line == 0 || line == PCOL_NA_I64) return PCOL_OK;
  pcol_str name, f;
  PCOL_RETURN_NOT_OK(pcol_string(fr->f, pcol_view_u32(&fr->fn_name, fn - 1), &name, err));
  if (name.ptr) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_string(fr->f, pcol_view_u32(&fr->fn_file, fn - 1), &f, err));
  if (f.ptr && f.len) *file = f;
  return PCOL_OK;
}

int pcol_source_nameless_places(pcol_file *f, uint32_t s, int *places, pcol_error *err) {
  pcol_view ty;
  pcol_str t, v;
  *places = 0;
  if (s < 1 || s > pcol_rows(f, PCOL_T_SOURCES)) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, s - 1), &t, err));
  if (pcol_str_is(t, PCOL_SRC_RPROF)) return *places = 1, PCOL_OK;
  int h = pcol_meta_probe(f, s, PCOL_META_NAMELESS_PLACES, &v, err);
  if (h < 0) return h;
  *places = h && pcol_str_is(v, "1");
  return PCOL_OK;
}

int pcol_places_lines_note(pcol_file *f, const pcol_select *sel, const char *there, char *text,
                           size_t n, int *said, pcol_error *err) {
  int places = 0, with = 0, without = 0;
  *said = 0;
  for (uint32_t s = 1; s <= pcol_rows(f, PCOL_T_SOURCES) && !places; s++) {
    if (sel && sel->source_id && s != sel->source_id) continue;
    PCOL_RETURN_NOT_OK(pcol_source_nameless_places(f, s, &places, err));
  }
  if (!places) return PCOL_OK;
  /* the rules differ only where frames with a line (line profiling) meet
   * frames without one (<GC>, builtins): a pass over the lines */
  pcol_view ln;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &ln, err));
  for (uint64_t i = 0; i < ln.count && !(with && without); i++) {
    int64_t l = pcol_view_i64(&ln, i);
    if (l == PCOL_NA_I64 || l == 0) without = 1;
    else with = 1;
  }
  if (!with || !without) return PCOL_OK;
  snprintf(text, n, "by line, summaryRprof and `pcol top --by line` of Rprof sources give a frame without "
           "a line (<GC>, a builtin) to the innermost calling line; %s", there);
  *said = 1;
  return PCOL_OK;
}

/* "[" go's filepath.Base "]", with '\\' a separator too (Windows paths in
 * profiles): trailing separators dropped, the last element, "[/]" for a
 * path of separators only; "<unknown>" for none. */
static int mapping_name(pcol_str file, pcol_buf *out) {
  if (!file.ptr || !file.len) return pcol_buf_append(out, "<unknown>", 9);
  while (file.len && (file.ptr[file.len - 1] == '/' || file.ptr[file.len - 1] == '\\')) file.len--;
  if (!file.len) return pcol_buf_append(out, "[/]", 3);
  for (size_t i = file.len; i > 0; i--)
    if (file.ptr[i - 1] == '/' || file.ptr[i - 1] == '\\') {
      file.ptr += i;
      file.len -= i;
      break;
    }
  if (pcol_buf_append(out, "[", 1) || pcol_buf_append(out, file.ptr, file.len) ||
      pcol_buf_append(out, "]", 1))
    return PCOL_ENOMEM;
  return PCOL_OK;
}

int pcol_frame_unsymbolized_name(const pcol_frames *fr, uint32_t m, pcol_buf *out,
                                 pcol_error *err) {
  pcol_str file = {NULL, 0};
  if (m && m <= fr->nmap)
    PCOL_RETURN_NOT_OK(pcol_string(fr->f, pcol_view_u32(&fr->map_file, m - 1), &file, err));
  return mapping_name(file, out) ? pcol_error_set(err, PCOL_ENOMEM, "out of memory") : PCOL_OK;
}

static int unsym_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_unsym_ids *u = ctx;
  const pcol_str *k = key;
  const size_t *end = (const size_t *)(const void *)u->name_end.data;
  size_t a = id > 1 ? end[id - 2] : 0, e = end[id - 1];
  return e - a == k->len && !memcmp(u->name_bytes.data + a, k->ptr, k->len);
}

int pcol_unsym_id(pcol_unsym_ids *u, const pcol_frames *fr, uint32_t m, uint32_t *id, int *added,
                  pcol_error *err) {
  *added = 0;
  if (m > fr->nmap) m = 0;
  if (!u->by_mapping && !(u->by_mapping = calloc(fr->nmap + 1, sizeof *u->by_mapping)))
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  if (u->by_mapping[m]) {
    *id = u->by_mapping[m] - 1;
    return PCOL_OK;
  }
  /* the file's string (0: none) names every mapping of that file alike */
  uint32_t sid = m ? pcol_view_u32(&fr->map_file, m - 1) : 0, slot;
  int new_sid, rc = pcol_u64map_get(&u->by_sid, sid, &slot, &new_sid);
  if (rc) return pcol_error_set(err, rc, rc == PCOL_ENOMEM ? "out of memory" : "too many frames");
  if (!new_sid) { /* 0: a file whose naming failed before (the caller stopped then) */
    const uint32_t *ids = (const uint32_t *)(const void *)u->sid_id.data;
    uint32_t got = slot < u->sid_id.len / sizeof *ids ? ids[slot] : 0;
    if (!got) return pcol_error_set(err, PCOL_EINVAL, "pcol_unsym_id: used after a failure");
    u->by_mapping[m] = got;
    *id = got - 1;
    return PCOL_OK;
  }
  if (PCOL_BUF_PUSH(&u->sid_id, uint32_t, 0)) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  /* a new file: its name, appended, is either a name seen (then taken back)
   * or a new id */
  size_t start = u->name_bytes.len;
  PCOL_RETURN_NOT_OK(pcol_frame_unsymbolized_name(fr, m, &u->name_bytes, err));
  pcol_str name = {(const char *)u->name_bytes.data + start, u->name_bytes.len - start};
  uint64_t h = pcol_hash_keyed(name.ptr, name.len);
  uint32_t got = pcol_hset_find(&u->names, h, unsym_eq, u, &name);
  if (got) {
    u->name_bytes.len = start;
  } else {
    size_t nid = u->name_end.len / sizeof(size_t);
    if (nid >= UINT32_MAX - 1) return pcol_error_set(err, PCOL_ETOOBIG, "too many frames");
    got = (uint32_t)nid + 1;
    if (PCOL_BUF_PUSH(&u->name_end, size_t, u->name_bytes.len) ||
        pcol_hset_insert(&u->names, h, got))
      return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    *added = 1;
  }
  if (slot >= u->sid_id.len / sizeof(uint32_t)) /* a push that failed before: out of step */
    return pcol_error_set(err, PCOL_EINVAL, "pcol_unsym_id: used after a failure");
  ((uint32_t *)(void *)u->sid_id.data)[slot] = got;
  u->by_mapping[m] = got;
  *id = got - 1;
  return PCOL_OK;
}

void pcol_unsym_ids_reset(pcol_unsym_ids *u) {
  free(u->by_mapping);
  pcol_u64map_free(&u->by_sid);
  pcol_buf_free(&u->sid_id);
  pcol_hset_free(&u->names);
  pcol_buf_free(&u->name_end);
  pcol_buf_free(&u->name_bytes);
  memset(u, 0, sizeof *u);
}

size_t pcol_frame_sanitize(char *p, size_t n) {
  size_t changed = 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] == ';' || p[i] == '\n' || p[i] == '\r' || p[i] == 0) p[i] = '_', changed++;
  return changed;
}

typedef struct loc_list {
  uint32_t **locs;
  size_t *n, *cap;
} loc_list;

static int push_loc(void *ctx, uint32_t depth, uint32_t loc) {
  loc_list *l = ctx;
  (void)depth;
  if (PCOL_GROW(*l->locs, *l->n, *l->cap)) return PCOL_ENOMEM;
  (*l->locs)[(*l->n)++] = loc;
  return 0;
}

int pcol_stack_locations(pcol_file *f, uint32_t stack_id, uint32_t **locs, size_t *n,
                         size_t *cap, pcol_error *err) {
  loc_list l = {locs, n, cap};
  *n = 0;
  return pcol_stack_walk(f, stack_id, push_loc, &l, err);
}

/* The kinds of the selected sources' nameless rules: bit 1 a source whose
 * nameless lines are places, bit 2 one whose are frames. */
static int rule_kinds(pcol_file *f, const pcol_select *sel, uint8_t **kind, int *kinds, pcol_error *err) {
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  *kinds = 0;
  *kind = calloc(ns + 1, 1);
  if (!*kind) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (uint32_t s = 1; s <= ns; s++) {
    int places;
    if (sel && sel->source_id && s != sel->source_id) continue;
    int rc = pcol_source_nameless_places(f, s, &places, err);
    if (rc) {
      free(*kind);
      *kind = NULL;
      return rc;
    }
    (*kind)[s] = places ? 1 : 2;
    *kinds |= (*kind)[s];
  }
  return PCOL_OK;
}

int pcol_nameless_rule_kinds(pcol_file *f, const pcol_select *sel, int *kinds, pcol_error *err) {
  uint8_t *kind;
  PCOL_RETURN_NOT_OK(rule_kinds(f, sel, &kind, kinds, err));
  free(kind);
  return PCOL_OK;
}

int pcol_nameless_rule_make(pcol_file *f, const pcol_select *sel, pcol_nameless_rule *r, pcol_error *err) {
  uint8_t *kind;
  int kinds;
  memset(r, 0, sizeof *r);
  PCOL_RETURN_NOT_OK(rule_kinds(f, sel, &kind, &kinds, err));
  r->frames = (kinds & 2) != 0;
  r->places = (kinds & 1) != 0;
  if (kinds != 3) {
    free(kind);
    return PCOL_OK;
  }
  /* both (a merge of an Rprof profile and a pprof one): the locations the
   * places sources' samples reach, and those the others' reach, by a pass
   * over the samples, each stack walked up to the first one seen */
  uint64_t nst = pcol_rows(f, PCOL_T_STACKS), nloc = pcol_rows(f, PCOL_T_LOCATIONS);
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES), nrows = pcol_rows(f, PCOL_T_SAMPLES);
  pcol_view src, stk, par, sloc;
  const pcol_column_req cols[] = {{&src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},
                                  {&stk, PCOL_T_SAMPLES, PCOL_C_S_STACK},
                                  {&par, PCOL_T_STACKS, PCOL_C_STACK_PARENT},
                                  {&sloc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION}};
  uint8_t *seen = calloc(nst + 1, 1), *at = calloc(nloc + 1, 1);
  int rc = seen && at ? pcol_columns(f, cols, PCOL_NCOLS(cols), err)
                      : pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (uint64_t i = 0; !rc && i < nrows; i++) {
    uint32_t s = pcol_view_u32(&src, i), st = pcol_view_u32(&stk, i);
    uint8_t k = s && s <= nsrc ? kind[s] : 0;
    if (!k) continue; /* (a source not selected) */
    /* (ids out of range end the walk; a cycle ends at a stack seen) */
    while (st && st <= nst && !(seen[st] & k)) {
      seen[st] |= k;
      uint32_t loc = pcol_view_u32(&sloc, st - 1);
      if (loc && loc <= nloc) at[loc] |= k;
      st = pcol_view_u32(&par, st - 1);
    }
  }
  free(seen);
  free(kind);
  if (rc) {
    free(at);
    return rc;
  }
  /* a location only places sources reach keeps their rule; one a source of
   * frames reaches too (one function of both) is a frame, pprof's rule */
  for (uint64_t l = 1; l <= nloc; l++) at[l] = at[l] == 1;
  r->loc_places = at;
  r->nloc = nloc;
  return PCOL_OK;
}

void pcol_nameless_rule_free(pcol_nameless_rule *r) {
  free(r->loc_places);
  r->loc_places = NULL;
}
