/* views.c — the logical views of spec.md §11, the one implementation behind
 * `pcol cat --table NAME` and the R and Python packages.
 *
 * pcol_lview_scan fills caller-owned column arrays batch by batch
 * (pcol_lview_batch) and hands each batch to a callback; it allocates
 * nothing.  Views of one stored table copy their rows (with the 1-based id
 * first for most); the derived ones follow the samples (sample_values,
 * sample_locations, sample_labels: through pcol_select_iter when a selection
 * is given, else every row) or the locations (locations, location_lines).
 * Every column is fetched through pcol_column, which checks it on first use
 * (ids in range, offsets monotonic and ending at the child table, stack
 * parents before children), so the derivations index only checked data. */
#include "query.h"
#include "error.h"    /* pcol_oom */
#include "select.h"   /* pcol_range_ticks_before */
#include "wall.h"     /* pcol_wall_free, PCOL_WALL_RANGE, pcol_wall, ... */
#include <string.h>
#include <stdlib.h>

/* ------------------------------------------------------------ catalogue */

/* kinds: element type */
#define K_ID PCOL_LK_ID, PCOL_TYPE_U32
#define K_REF PCOL_LK_REF, PCOL_TYPE_U32
#define K_STR PCOL_LK_STR, PCOL_TYPE_U32
#define K_I64 PCOL_LK_I64, PCOL_TYPE_I64
#define K_U64 PCOL_LK_U64, PCOL_TYPE_U64
#define K_F64 PCOL_LK_F64, PCOL_TYPE_F64
#define K_BOOL PCOL_LK_BOOL, PCOL_TYPE_U8
#define K_COUNT PCOL_LK_COUNT, PCOL_TYPE_U32
/* a column: name, kind, then seq / stored table and column / computed */
#define SEQ(n, k) {n, K_##k, 1, 0, 0}
#define ST(n, k, t, c) {n, K_##k, 0, PCOL_T_##t, c}
#define CMP(n, k) {n, K_##k, 0, 0, 0}

enum {
  V_META, V_SOURCES, V_SAMPLES, V_SAMPLE_VALUES, V_SAMPLE_LOCATIONS, V_LOCATIONS, V_FUNCTIONS,
  V_VALUE_TYPES, V_SOURCE_VALUE_TYPES, V_SAMPLE_LABELS, V_LOCATION_LINES, V_MAPPINGS, V_STACKS,
  V_MODELS, V_TEXT_LINES, V_SAMPLE_TEXT, V_STRINGS
};

static const pcol_lview_info views[PCOL_LVIEW_COUNT] = {
    {"meta", V_META, 3,
     {ST("key", STR, META, PCOL_C_META_KEY), ST("value", STR, META, PCOL_C_META_VALUE),
      ST("source_id", REF, META, PCOL_C_META_SOURCE)}, 0, 0},
    {"sources", V_SOURCES, 4,
     {SEQ("source_id", ID), ST("source_type", STR, SOURCES, 1), ST("source_uri", STR, SOURCES, 2),
      ST("source_timestamp", I64, SOURCES, 3)}, 0, 0},
    {"samples", V_SAMPLES, 8,
     {SEQ("sample_id", ID), ST("source_id", REF, SAMPLES, PCOL_C_S_SOURCE),
      ST("time_ns", I64, SAMPLES, PCOL_C_S_TIME), ST("duration_ns", I64, SAMPLES, PCOL_C_S_DURATION),
      ST("weight", I64, SAMPLES, PCOL_C_S_WEIGHT), ST("cpu_delta_ns", I64, SAMPLES, PCOL_C_S_CPU_DELTA),
      ST("stack_id", REF, SAMPLES, PCOL_C_S_STACK), ST("labelset_id", REF, SAMPLES, PCOL_C_S_LABELSET)},
     1, 0},
    /* whole: the values rows in stored order (offsets start at 0, never
     * decrease and end at rows(values): checked) */
    {"sample_values", V_SAMPLE_VALUES, 4,
     {CMP("sample_id", REF), CMP("type", STR), CMP("unit", STR), ST("value", I64, VALUES, PCOL_C_V_VALUE)},
     1, 1},
    {"sample_locations", V_SAMPLE_LOCATIONS, 3,
     {CMP("sample_id", REF), CMP("depth", COUNT), CMP("location_id", REF)}, 1, 1},
    /* is_folded: flags may hold only bit 0 (checked on first use) */
    {"locations", V_LOCATIONS, 6,
     {SEQ("location_id", ID), CMP("function_id", REF), CMP("line", I64),
      ST("address", U64, LOCATIONS, PCOL_C_LOC_ADDRESS), ST("mapping_id", REF, LOCATIONS, PCOL_C_LOC_MAPPING),
      ST("is_folded", BOOL, LOCATIONS, PCOL_C_LOC_FLAGS)}, 0, 1},
    {"functions", V_FUNCTIONS, 5,
     {SEQ("function_id", ID), ST("name", STR, FUNCTIONS, 1), ST("system_name", STR, FUNCTIONS, 2),
      ST("filename", STR, FUNCTIONS, 3), ST("start_line", I64, FUNCTIONS, 4)}, 0, 0},
    {"value_types", V_VALUE_TYPES, 3,
     {SEQ("value_type_id", ID), ST("type", STR, VALUE_TYPES, PCOL_C_VT_TYPE),
      ST("unit", STR, VALUE_TYPES, PCOL_C_VT_UNIT)}, 0, 0},
    {"source_value_types", V_SOURCE_VALUE_TYPES, 2,
     {ST("source_id", REF, SOURCE_VALUE_TYPES, 1), ST("value_type_id", REF, SOURCE_VALUE_TYPES, 2)}, 0, 0},
    {"sample_labels", V_SAMPLE_LABELS, 5,
     {CMP("sample_id", REF), CMP("key", STR), CMP("str", STR), CMP("num", I64), CMP("unit", STR)}, 1, 1},
    /* whole: the lines rows in stored order (offsets checked as above) */
    {"location_lines", V_LOCATION_LINES, 5,
     {CMP("location_id", REF), CMP("depth", COUNT), ST("function_id", REF, LINES, PCOL_C_LINE_FUNCTION),
      ST("line", I64, LINES, PCOL_C_LINE_LINE), ST("column", I64, LINES, PCOL_C_LINE_COLUMN)}, 0, 1},
    {"mappings", V_MAPPINGS, 10,
     {SEQ("mapping_id", ID), ST("memory_start", U64, MAPPINGS, PCOL_C_MAP_START),
      ST("memory_limit", U64, MAPPINGS, PCOL_C_MAP_LIMIT), ST("file_offset", U64, MAPPINGS, PCOL_C_MAP_OFFSET),
      ST("filename", STR, MAPPINGS, PCOL_C_MAP_FILENAME), ST("build_id", STR, MAPPINGS, PCOL_C_MAP_BUILD_ID),
      CMP("has_functions", BOOL), CMP("has_filenames", BOOL), CMP("has_line_numbers", BOOL),
      CMP("has_inline_frames", BOOL)}, 0, 1},
    {"stacks", V_STACKS, 3,
     {SEQ("stack_id", ID), ST("parent_id", REF, STACKS, PCOL_C_STACK_PARENT),
      ST("location_id", REF, STACKS, PCOL_C_STACK_LOCATION)}, 0, 0},
    {"models", V_MODELS, 9,
     {SEQ("model_id", ID), ST("source_id", REF, MODELS, 1), ST("uid", STR, MODELS, 2),
      ST("model", STR, MODELS, 3), ST("method", STR, MODELS, 4), ST("r_square", F64, MODELS, 5),
      ST("x_start", F64, MODELS, 6), ST("x_end", F64, MODELS, 7), ST("coeffs", STR, MODELS, 8)}, 0, 0},
    {"text_lines", V_TEXT_LINES, 3,
     {ST("source_id", REF, TEXT_LINES, 1), ST("before_sample", U64, TEXT_LINES, 2),
      ST("text", STR, TEXT_LINES, 3)}, 0, 0},
    {"sample_text", V_SAMPLE_TEXT, 2, {ST("sample_id", REF, SAMPLE_TEXT, 1), ST("text", STR, SAMPLE_TEXT, 2)},
     0, 0},
    /* the strings view: row r is string id r + 1 */
    {"strings", V_STRINGS, 2, {SEQ("string_id", ID), SEQ("value", STR)}, 0, 0},
};

const pcol_lview_info *pcol_lview_at(int i) { return i >= 0 && i < PCOL_LVIEW_COUNT ? &views[i] : NULL; }

const pcol_lview_info *pcol_lview_by_name(const char *name) {
  for (int i = 0; name && i < PCOL_LVIEW_COUNT; i++)
    if (strcmp(views[i].name, name) == 0) return &views[i];
  return NULL;
}

/* The table a view of one stored table shows (its columns' table). */
static int stored_table(const pcol_lview_info *v) {
  for (size_t k = 0; k < v->ncols; k++)
    if (v->cols[k].column > 0) return v->cols[k].table;
  return 0;
}

static int selects(const pcol_select *sel) { return sel != NULL; }

/* ------------------------------------------------------------- scanning */

typedef struct scan {
  pcol_file *f;
  const pcol_lview_info *vi;
  const pcol_lview_batch *b;
  size_t n; /* rows filled in the batch */
  int (*fn)(void *ctx, size_t n);
  void *ctx;
  int stop; /* the callback's code when it stopped the scan (> 0 or < 0) */
  pcol_view v[PCOL_LVIEW_MAX_COLS];
  pcol_view x[6]; /* the derived views' other columns (samples: time, duration, weight) */
  const pcol_select *sel; /* a time range: a long sample it cuts shows the part inside */
  int64_t num, den;       /* pcol_select_iter's share of the current sample */
  pcol_wall wall;         /* a wall-clock range: each source's start (lib/core/wall.c) */
  pcol_view src;          /* and the samples' sources */
  int need[PCOL_SELECT_NEED]; /* samples columns of which a range reads its rows only */
  size_t nneed;
} scan;

/* Hands over a full batch (and the last one). */
static int flush(scan *s) {
  if (!s->n) return 0;
  size_t n = s->n;
  s->n = 0;
  int rc = s->fn(s->ctx, n);
  if (rc) s->stop = rc;
  return rc;
}
/* After a row is filled: non-zero when the scan must stop. */
static inline int row_done(scan *s) { return ++s->n == s->b->cap ? flush(s) : 0; }

static inline void put32(scan *s, int k, uint32_t x) {
  if (s->b->cols[k]) ((uint32_t *)s->b->cols[k])[s->n] = x;
}
static inline void put64(scan *s, int k, int64_t x) {
  if (s->b->cols[k]) ((int64_t *)s->b->cols[k])[s->n] = x;
}
static inline void put8(scan *s, int k, uint8_t x) {
  if (s->b->cols[k]) ((uint8_t *)s->b->cols[k])[s->n] = x;
}

/* Row r of a view of one stored table (its columns in s->v). */
/* A column of the part of long sample r that a range cuts (THE range rule,
 * lib/core/select.c): the ticks k0 .. k0 + num - 1 of its n = den (max(w,
 * 1), or d in a source of intervals: pcol_range_ticks_of), at t + k d / n;
 * the amounts scaled as every view scales them. */
static int64_t cut_column(const scan *s, uint64_t r, int column, int64_t stored) {
  int64_t t = pcol_view_i64(&s->x[0], r), d = pcol_view_i64(&s->x[1], r);
  int64_t w = pcol_view_i64(&s->x[2], r), n = s->den;
  int64_t from = s->sel && s->sel->has_from ? s->sel->from_ns : 0;
  if (s->sel && s->sel->has_from && s->sel->wall) { /* the source's own from (wall.c) */
    int64_t to;
    uint32_t src = pcol_view_u32(&s->src, r);
    if (pcol_wall_bounds(s->f, &s->wall, s->sel, src, 1, &from, &to, NULL) != PCOL_WALL_RANGE)
      from = INT64_MIN + 1; /* not reached: pcol_select_iter cut this sample by the same rule */
  }
  int64_t k0 = s->sel && s->sel->has_from ? pcol_range_ticks_before(t, d, n, from) : 0;
  __int128 a = (__int128)k0 * d / n, e = (__int128)(k0 + s->num) * d / n;
  switch (column) {
  case PCOL_C_S_TIME: return t + (int64_t)a;
  case PCOL_C_S_DURATION: return (int64_t)(e - a);
  case PCOL_C_S_WEIGHT: return pcol_scale(w, s->num, s->den);
  case PCOL_C_S_CPU_DELTA: return k0 && stored != PCOL_NA_I64 ? 0 : stored; /* the first tick's */
  default: return stored;
  }
}

static int stored_row(scan *s, uint64_t r) {
  const pcol_lview_info *vi = s->vi;
  int cut = vi->index == V_SAMPLES && s->num != s->den;
  for (size_t k = 0; k < vi->ncols; k++) {
    const pcol_lview_col *c = &vi->cols[k];
    if (!s->b->cols[k]) continue;
    if (c->seq) {
      put32(s, k, (uint32_t)(r + 1));
      continue;
    }
    if (cut && c->type == PCOL_TYPE_I64) {
      put64(s, k, cut_column(s, r, c->column, pcol_view_i64(&s->v[k], r)));
      continue;
    }
    switch (c->type) {
    case PCOL_TYPE_U32: put32(s, k, pcol_view_u32(&s->v[k], r)); break;
    case PCOL_TYPE_U8: put8(s, k, pcol_view_u8(&s->v[k], r)); break;
    default: put64(s, k, pcol_view_i64(&s->v[k], r)); break; /* I64, U64, F64: 8 bytes as stored */
    }
  }
  return row_done(s);
}

/* The rows of sample row r in the view being scanned. */
static int sample_rows(scan *s, uint64_t r) {
  pcol_view *x = s->x;
  uint32_t sid = (uint32_t)(r + 1);
  switch (s->vi->index) {
  case V_SAMPLES: return stored_row(s, r);
  case V_SAMPLE_VALUES: {
    /* x: value offsets, values.type, values.value, value_types.type, .unit */
    for (uint64_t i = pcol_view_u64(&x[0], r), e = pcol_view_u64(&x[0], r + 1); i < e; i++) {
      uint32_t vt = pcol_view_u32(&x[1], i); /* checked: 1..rows(value_types) */
      put32(s, 0, sid);
      put32(s, 1, pcol_view_u32(&x[3], vt - 1));
      put32(s, 2, pcol_view_u32(&x[4], vt - 1));
      put64(s, 3, pcol_scale(pcol_view_i64(&x[2], i), s->num, s->den)); /* a cut long sample's part */
      if (row_done(s)) return 1;
    }
    return 0;
  }
  case V_SAMPLE_LOCATIONS: {
    /* x: samples.stack, stacks.parent, stacks.location; innermost first.
     * Stack ids and parents are range-checked and parents precede
     * children, so the walk ends. */
    uint32_t *o0 = s->b->cols[0], *o1 = s->b->cols[1], *o2 = s->b->cols[2];
    const uint32_t *par = x[1].data, *loc = x[2].data;
    uint32_t depth = 1, node = pcol_view_u32(&x[0], r);
    if (o0 && o1 && o2 && par && loc) { /* the common case, in registers (pcol cat's speed) */
      size_t n = s->n, cap = s->b->cap;
      for (; node; node = par[node - 1], depth++) {
        o0[n] = sid;
        o1[n] = depth;
        o2[n] = loc[node - 1];
        if (++n == cap) {
          s->n = n;
          if (flush(s)) return 1;
          n = 0;
        }
      }
      s->n = n;
      return 0;
    }
    for (; node; node = pcol_view_u32(&x[1], node - 1), depth++) {
      put32(s, 0, sid);
      put32(s, 1, depth);
      put32(s, 2, pcol_view_u32(&x[2], node - 1));
      if (row_done(s)) return 1;
    }
    return 0;
  }
  case V_SAMPLE_LABELS: {
    /* x: samples.labelset, labelsets.offsets, labels key, str, num, unit */
    uint32_t ls = pcol_view_u32(&x[0], r);
    if (!ls) return 0;
    for (uint64_t i = pcol_view_u64(&x[1], ls - 1), e = pcol_view_u64(&x[1], ls); i < e; i++) {
      uint32_t sv = pcol_view_u32(&x[3], i);
      int64_t nv = pcol_view_i64(&x[4], i);
      put32(s, 0, sid);
      put32(s, 1, pcol_view_u32(&x[2], i));
      put32(s, 2, sv);
      /* a string label without a number shows no number (spec.md §11.2) */
      put64(s, 3, sv && nv == 0 ? PCOL_NA_I64 : nv);
      put32(s, 4, pcol_view_u32(&x[5], i));
      if (row_done(s)) return 1;
    }
    return 0;
  }
  }
  return 0;
}

static int sample_cb(void *ctx, uint64_t row, int64_t num, int64_t den) {
  scan *s = ctx;
  s->num = num;
  s->den = den;
  if (sample_rows(s, row)) return s->stop < 0 ? s->stop : 1;
  return 0;
}

/* A column the view reads: a samples column under a time range through
 * pcol_select_need_view (in zstd blocks: only the blocks of the selected
 * rows, pcol_select_iter_need), any other whole. */
static int col(scan *s, int table, int column, pcol_view *out, pcol_error *err) {
  if (table != PCOL_T_SAMPLES || !s->sel || s->nneed == PCOL_SELECT_NEED)
    return pcol_column(s->f, table, column, out, err);
  int lazy;
  PCOL_RETURN_NOT_OK(pcol_select_need_view(s->f, s->sel, column, out, &lazy, err));
  size_t k = 0;
  while (k < s->nneed && s->need[k] != column) k++;
  if (lazy && k == s->nneed) s->need[s->nneed++] = column;
  return PCOL_OK;
}

/* The columns a view reads, into s->v (stored) and s->x (derived). */
static int fetch(scan *s, pcol_error *err) {
  pcol_file *f = s->f;
  pcol_view *x = s->x;
  const pcol_lview_info *vi = s->vi;
  int rc = 0;
  switch (vi->index) {
  case V_SAMPLE_VALUES:
    if (!(rc = col(s, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &x[0], err)) &&
        !(rc = pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &x[1], err)) &&
        !(rc = pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &x[2], err)) &&
        !(rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &x[3], err)))
      rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &x[4], err);
    return rc;
  case V_SAMPLE_LOCATIONS:
    if (!(rc = col(s, PCOL_T_SAMPLES, PCOL_C_S_STACK, &x[0], err)) &&
        !(rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &x[1], err)))
      rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &x[2], err);
    return rc;
  case V_SAMPLE_LABELS:
    if (!(rc = col(s, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &x[0], err)) &&
        !(rc = pcol_column(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &x[1], err)))
      for (int k = 0; k < 4 && !rc; k++) rc = pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_KEY + k, &x[2 + k], err);
    return rc;
  case V_LOCATIONS:
  case V_LOCATION_LINES:
    /* x: mapping, address, flags, line offsets; lines function, line, column */
    for (int k = 0; k < 4 && !rc; k++) rc = pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING + k, &x[k], err);
    if (!rc) rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &s->v[0], err);
    if (!rc) rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &s->v[1], err);
    if (!rc) rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_COLUMN, &s->v[2], err);
    return rc;
  case V_MAPPINGS:
    for (int k = 0; k < 6 && !rc; k++) rc = pcol_column(f, PCOL_T_MAPPINGS, PCOL_C_MAP_START + k, &x[k], err);
    return rc;
  case V_STRINGS: return 0; /* read string by string (pcol_string) */
  case V_SAMPLES: /* for the part of a long sample a range cuts */
    if (!(rc = col(s, PCOL_T_SAMPLES, PCOL_C_S_TIME, &x[0], err)) &&
        !(rc = col(s, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &x[1], err)))
      rc = col(s, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &x[2], err);
    for (size_t k = 0; k < vi->ncols && !rc; k++) /* and the view's own columns */
      if (vi->cols[k].column > 0) rc = col(s, vi->cols[k].table, vi->cols[k].column, &s->v[k], err);
    return rc;
  default:
    for (size_t k = 0; k < vi->ncols && !rc; k++)
      if (vi->cols[k].column > 0) rc = col(s, vi->cols[k].table, vi->cols[k].column, &s->v[k], err);
    return rc;
  }
}

static int scan_locations(scan *s) {
  pcol_view *x = s->x, *ln = s->v; /* ln: lines function, line, column */
  uint64_t n = pcol_rows(s->f, PCOL_T_LOCATIONS);
  int lines = s->vi->index == V_LOCATION_LINES;
  for (uint64_t r = 0; r < n; r++) {
    uint64_t a = pcol_view_u64(&x[3], r), e = pcol_view_u64(&x[3], r + 1);
    if (lines) {
      for (uint64_t i = a; i < e; i++) {
        put32(s, 0, (uint32_t)(r + 1));
        put32(s, 1, (uint32_t)(i - a + 1));
        put32(s, 2, pcol_view_u32(&ln[0], i));
        put64(s, 3, pcol_view_i64(&ln[1], i));
        put64(s, 4, pcol_view_i64(&ln[2], i));
        if (row_done(s)) return 1;
      }
      continue;
    }
    /* the location's own function and line: its first (innermost) line */
    put32(s, 0, (uint32_t)(r + 1));
    put32(s, 1, a < e ? pcol_view_u32(&ln[0], a) : 0);
    put64(s, 2, a < e ? pcol_view_i64(&ln[1], a) : PCOL_NA_I64);
    put64(s, 3, (int64_t)pcol_view_u64(&x[1], r));
    put32(s, 4, pcol_view_u32(&x[0], r));
    put8(s, 5, (pcol_view_u8(&x[2], r) & PCOL_LOC_IS_FOLDED) != 0);
    if (row_done(s)) return 1;
  }
  return 0;
}

static int scan_mappings(scan *s) {
  pcol_view *x = s->x;
  uint64_t n = pcol_rows(s->f, PCOL_T_MAPPINGS);
  for (uint64_t r = 0; r < n; r++) {
    put32(s, 0, (uint32_t)(r + 1));
    for (int k = 0; k < 3; k++) put64(s, 1 + k, (int64_t)pcol_view_u64(&x[k], r));
    put32(s, 4, pcol_view_u32(&x[3], r));
    put32(s, 5, pcol_view_u32(&x[4], r));
    uint8_t fl = pcol_view_u8(&x[5], r);
    /* flag bits in column order: has_functions, _filenames, _line_numbers, _inline_frames */
    for (int b = 0; b < 4; b++) put8(s, 6 + b, (fl >> b) & 1);
    if (row_done(s)) return 1;
  }
  return 0;
}

int pcol_lview_scan(pcol_file *f, const pcol_lview_info *v, const pcol_select *sel,
                    const pcol_lview_batch *b, int (*fn)(void *ctx, size_t n), void *ctx,
                    pcol_error *err) {
  if (!v || v != pcol_lview_at(v->index) || !b || !b->cap || !fn)
    return pcol_error_set(err, PCOL_EINVAL, "pcol_lview_scan: no view, batch or callback");
  scan s;
  memset(&s, 0, sizeof s);
  s.f = f;
  s.vi = v;
  s.b = b;
  s.fn = fn;
  s.ctx = ctx;
  s.sel = sel;
  s.num = s.den = 1;
  int rc = fetch(&s, err);
  if (rc) return rc;
  if ((rc = fn(ctx, 0)) != 0) return rc < 0 ? rc : PCOL_OK; /* the columns are read: rows follow */
  if (v->sample_view) {
    if (selects(sel)) {
      if (sel->wall && sel->has_from &&
          ((rc = pcol_wall_init(f, &s.wall, err)) ||
           (rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &s.src, err)))) {
        pcol_wall_free(&s.wall);
        return rc;
      }
      pcol_filter flt;
      rc = pcol_filter_build(f, sel, &flt, err);
      if (!rc)
        rc = pcol_select_iter_need(f, sel, pcol_select_filtered(sel) ? &flt : NULL, s.need,
                                   s.nneed, sample_cb, &s, err);
      pcol_filter_free(&flt);
      pcol_wall_free(&s.wall);
      if (rc) return rc;
    } else {
      uint64_t n = pcol_rows(f, PCOL_T_SAMPLES);
      for (uint64_t r = 0; r < n; r++)
        if (sample_rows(&s, r)) break;
    }
  } else if (v->index == V_LOCATIONS || v->index == V_LOCATION_LINES) {
    scan_locations(&s);
  } else if (v->index == V_MAPPINGS) {
    scan_mappings(&s);
  } else if (v->index == V_STRINGS) {
    uint64_t n = pcol_string_count(f);
    for (uint64_t r = 1; r < n; r++) {
      put32(&s, 0, (uint32_t)r);
      put32(&s, 1, (uint32_t)r);
      if (row_done(&s)) break;
    }
  } else {
    uint64_t n = pcol_rows(f, stored_table(v));
    for (uint64_t r = 0; r < n; r++)
      if (stored_row(&s, r)) break;
  }
  if (!s.stop) flush(&s);
  return s.stop < 0 ? s.stop : PCOL_OK;
}

/* ------------------------------------------------------------ row counts */

typedef struct count_ctx {
  const pcol_lview_info *vi;
  pcol_view x[3];
  const uint32_t *depth; /* sample_locations: depth of each stack node */
  uint64_t n;
} count_ctx;

static int count_cb(void *ctx, uint64_t r, int64_t num, int64_t den) {
  (void)num;
  (void)den;
  count_ctx *c = ctx;
  switch (c->vi->index) {
  case V_SAMPLE_VALUES: c->n += pcol_view_u64(&c->x[0], r + 1) - pcol_view_u64(&c->x[0], r); break;
  case V_SAMPLE_LOCATIONS: c->n += c->depth[pcol_view_u32(&c->x[0], r)]; break;
  case V_SAMPLE_LABELS: {
    uint32_t s = pcol_view_u32(&c->x[0], r);
    if (s) c->n += pcol_view_u64(&c->x[1], s) - pcol_view_u64(&c->x[1], s - 1);
    break;
  }
  default: c->n++;
  }
  return 0;
}

int pcol_lview_rows(pcol_file *f, const pcol_lview_info *v, const pcol_select *sel, uint64_t *out,
                    pcol_error *err) {
  *out = 0;
  if (!v || v != pcol_lview_at(v->index)) return pcol_error_set(err, PCOL_EINVAL, "pcol_lview_rows: no view");
  count_ctx c;
  memset(&c, 0, sizeof c);
  c.vi = v;
  int rc = 0, lazy = 0, need = 0; /* need: the samples column of the rows counted */
  uint32_t *depth = NULL;
  switch (v->index) {
  case V_STRINGS: {
    uint64_t n = pcol_string_count(f);
    *out = n ? n - 1 : 0;
    pcol_str str; /* touch the strings columns, so that a damaged one fails here */
    return n > 1 ? pcol_string(f, 1, &str, err) : PCOL_OK;
  }
  case V_LOCATIONS: *out = pcol_rows(f, PCOL_T_LOCATIONS); return PCOL_OK;
  case V_LOCATION_LINES: {
    /* the offsets end at rows(lines): check them */
    pcol_view lo;
    rc = pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &lo, err);
    if (!rc) *out = pcol_rows(f, PCOL_T_LINES);
    return rc;
  }
  case V_SAMPLES:
    if (!selects(sel)) {
      *out = pcol_rows(f, PCOL_T_SAMPLES);
      return PCOL_OK;
    }
    break;
  case V_SAMPLE_VALUES:
    rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &c.x[0], err);
    if (!rc && !selects(sel)) {
      *out = pcol_rows(f, PCOL_T_VALUES);
      return PCOL_OK;
    }
    break;
  case V_SAMPLE_LOCATIONS: {
    pcol_view par;
    need = PCOL_C_S_STACK;
    if ((rc = pcol_select_need_view(f, sel, need, &c.x[0], &lazy, err)) ||
        (rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &par, err)))
      return rc;
    uint64_t nodes = pcol_rows(f, PCOL_T_STACKS);
    /* depth of each node: parents precede their children (checked) */
    if (nodes > SIZE_MAX / sizeof *depth - 1 || !(depth = malloc(((size_t)nodes + 1) * sizeof *depth)))
      return pcol_oom(err);
    depth[0] = 0;
    for (uint64_t n = 1; n <= nodes; n++) depth[n] = depth[pcol_view_u32(&par, n - 1)] + 1;
    c.depth = depth;
    break;
  }
  case V_SAMPLE_LABELS:
    need = PCOL_C_S_LABELSET;
    if (!(rc = pcol_select_need_view(f, sel, need, &c.x[0], &lazy, err)))
      rc = pcol_column(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &c.x[1], err);
    break;
  default: *out = pcol_rows(f, stored_table(v)); return PCOL_OK;
  }
  if (!rc) {
    if (selects(sel)) {
      pcol_filter flt;
      rc = pcol_filter_build(f, sel, &flt, err);
      if (!rc) /* (a range reads the rows it counts only: pcol_select_iter_need) */
        rc = pcol_select_iter_need(f, sel, pcol_select_filtered(sel) ? &flt : NULL, &need, lazy,
                                   count_cb, &c, err);
      pcol_filter_free(&flt);
    } else
      for (uint64_t r = 0, n = pcol_rows(f, PCOL_T_SAMPLES); r < n; r++) count_cb(&c, r, 1, 1);
  }
  free(depth);
  if (!rc) *out = c.n;
  return rc;
}
