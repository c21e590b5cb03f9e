/* pcolb.c — logical views, UTF-8 cleaning and the writer shared by the R and
 * Python bindings (see pcolb.h).  Uses include/pcol.h only.
 *
 * The views follow spec.md §11 and tools/cmd_cat.c row for row.  Every
 * column is fetched through pcol_column, which checks it on first use (ids
 * in range, offsets monotonic and ending at the child table, stack parents
 * before children), so the derivations below index only checked data. */
#include "pcolb.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ catalogue */

#define C(n, k) {n, PCB_##k}
static const pcb_view_info views[PCB_NVIEWS] = {
    {"meta", 3, {C("key", STR), C("value", STR), C("source_id", REF)}, 0, 0},
    {"sources", 4,
     {C("source_id", ID), C("source_type", STR), C("source_uri", STR), C("source_timestamp", I64)}, 0, 0},
    {"samples", 8,
     {C("sample_id", ID), C("source_id", REF), C("time_ns", I64), C("duration_ns", I64), C("weight", I64),
      C("cpu_delta_ns", I64), C("stack_id", REF), C("labelset_id", REF)}, 1, 0},
    {"sample_values", 4, {C("sample_id", REF), C("type", STR), C("unit", STR), C("value", I64)}, 1, 1},
    {"sample_locations", 3, {C("sample_id", REF), C("depth", COUNT), C("location_id", REF)}, 1, 1},
    {"locations", 6,
     {C("location_id", ID), C("function_id", REF), C("line", I64), C("address", U64), C("mapping_id", REF),
      C("is_folded", BOOL)}, 0, 1},
    {"functions", 5,
     {C("function_id", ID), C("name", STR), C("system_name", STR), C("filename", STR), C("start_line", I64)},
     0, 0},
    {"value_types", 3, {C("value_type_id", ID), C("type", STR), C("unit", STR)}, 0, 0},
    {"source_value_types", 2, {C("source_id", REF), C("value_type_id", REF)}, 0, 0},
    {"sample_labels", 5, {C("sample_id", REF), C("key", STR), C("str", STR), C("num", I64), C("unit", STR)}, 1, 1},
    {"location_lines", 5,
     {C("location_id", REF), C("depth", COUNT), C("function_id", REF), C("line", I64), C("column", I64)}, 0, 1},
    {"mappings", 10,
     {C("mapping_id", ID), C("memory_start", U64), C("memory_limit", U64), C("file_offset", U64),
      C("filename", STR), C("build_id", STR), C("has_functions", BOOL), C("has_filenames", BOOL),
      C("has_line_numbers", BOOL), C("has_inline_frames", BOOL)}, 0, 1},
    {"stacks", 3, {C("stack_id", ID), C("parent_id", REF), C("location_id", REF)}, 0, 0},
    {"models", 9,
     {C("model_id", ID), C("source_id", REF), C("uid", STR), C("model", STR), C("method", STR),
      C("r_square", F64), C("x_start", F64), C("x_end", F64), C("coeffs", STR)}, 0, 0},
    {"text_lines", 3, {C("source_id", REF), C("before_sample", U64), C("text", STR)}, 0, 0},
    {"sample_text", 2, {C("sample_id", REF), C("text", STR)}, 0, 0},
    {"strings", 2, {C("string_id", ID), C("value", STR)}, 0, 0},
};
#undef C

/* Stored views: the table and, per view column, the stored column (0: the
 * row id). */
typedef struct stored_map {
  const char *view;
  int table;
  int cols[PCB_MAX_COLS];
} stored_map;
static const stored_map stored[] = {
    {"meta", PCOL_T_META, {PCOL_C_META_KEY, PCOL_C_META_VALUE, PCOL_C_META_SOURCE}},
    {"sources", PCOL_T_SOURCES, {0, 1, 2, 3}},
    {"samples", PCOL_T_SAMPLES, {0, 1, 2, 3, 4, 5, 6, 7}},
    {"functions", PCOL_T_FUNCTIONS, {0, 1, 2, 3, 4}},
    {"value_types", PCOL_T_VALUE_TYPES, {0, 1, 2}},
    {"source_value_types", PCOL_T_SOURCE_VALUE_TYPES, {1, 2}},
    {"stacks", PCOL_T_STACKS, {0, 1, 2}},
    {"models", PCOL_T_MODELS, {0, 1, 2, 3, 4, 5, 6, 7, 8}},
    {"text_lines", PCOL_T_TEXT_LINES, {1, 2, 3}},
    {"sample_text", PCOL_T_SAMPLE_TEXT, {1, 2}},
};

const pcb_view_info *pcb_view_at(int i) { return i >= 0 && i < PCB_NVIEWS ? &views[i] : NULL; }

const pcb_view_info *pcb_view_by_name(const char *name) {
  for (int i = 0; i < PCB_NVIEWS; i++)
    if (strcmp(views[i].name, name) == 0) return &views[i];
  return NULL;
}

int pcb_seconds(double s, int64_t *ns) {
  if (!isfinite(s) || fabs(s) > 9.2e9) return -1;
  *ns = (int64_t)llround(s * 1e9);
  return 0;
}

/* ------------------------------------------------------------- helpers */

static int oom(pcol_error *err) { return pcol_error_set(err, PCOL_ENOMEM, "out of memory"); }

static pcol_type elem_type(pcb_kind k) {
  switch (k) {
  case PCB_I64: return PCOL_TYPE_I64;
  case PCB_U64: return PCOL_TYPE_U64;
  case PCB_F64: return PCOL_TYPE_F64;
  case PCB_BOOL: return PCOL_TYPE_U8;
  default: return PCOL_TYPE_U32;
  }
}

static size_t elem_size(pcol_type t) {
  switch (t) {
  case PCOL_TYPE_U8: return 1;
  case PCOL_TYPE_U32: return 4;
  default: return 8;
  }
}

/* A computed column of n rows. */
static int col_alloc(pcb_col *c, uint64_t n, pcol_error *err) {
  size_t es = elem_size(c->type);
  if (n > SIZE_MAX / es - 1) return oom(err);
  c->owned = malloc(n ? (size_t)n * es : 1);
  if (!c->owned) return oom(err);
  c->data = c->owned;
  return PCOL_OK;
}

/* A stored column, borrowed. */
static int col_borrow(pcol_file *f, int table, int column, pcb_col *c, pcol_error *err) {
  pcol_view v;
  int rc = pcol_column(f, table, column, &v, err);
  if (rc) return rc;
  c->data = v.data;
  c->dflt = v.dflt;
  if (v.data && v.type != c->type)
    return pcol_error_set(err, PCOL_ECORRUPT, "column %d of table %d has an unexpected type", column, table);
  return PCOL_OK;
}

static int get(pcol_file *f, int table, int column, pcol_view *v, pcol_error *err) {
  return pcol_column(f, table, column, v, err);
}

#define TRY(x)                                                                                     \
  do {                                                                                             \
    if ((rc = (x)) != 0) goto done;                                                                \
  } while (0)

/* The selected sample rows: all of them (all = 1) or the list rows[0..n). */
typedef struct rowset {
  int all;
  uint64_t n;
  uint64_t *rows;
  size_t cap;
} rowset;

static int rows_add(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)num;
  (void)den;
  rowset *s = ctx;
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 1024;
    uint64_t *p = realloc(s->rows, nc * sizeof *p);
    if (!p) return PCOL_ENOMEM;
    s->rows = p;
    s->cap = nc;
  }
  s->rows[s->n++] = row;
  return 0;
}

static int select_rows(pcol_file *f, const pcb_select *sel, rowset *s, pcol_error *err) {
  memset(s, 0, sizeof *s);
  if (!sel || (sel->sel.source_id == 0 && !sel->sel.has_from && !sel->sel.has_to)) {
    s->all = 1;
    s->n = pcol_rows(f, PCOL_T_SAMPLES);
    return PCOL_OK;
  }
  int rc = pcol_select_iter(f, &sel->sel, rows_add, s, err);
  if (rc) {
    free(s->rows);
    s->rows = NULL;
    if (rc == PCOL_ENOMEM) return oom(err);
  }
  return rc;
}
#define ROW(s, i) ((s)->all ? (uint64_t)(i) : (s)->rows[i])

static int too_many(const pcb_select *sel, const char *view, uint64_t n, pcol_error *err) {
  if (sel && sel->max_rows && n > sel->max_rows)
    return pcol_error_set(err, PCOL_ETOOBIG,
                          "view %s would have %llu rows, more than the limit of %llu (max_rows)", view,
                          (unsigned long long)n, (unsigned long long)sel->max_rows);
  return PCOL_OK;
}

static int want_col(uint32_t want, int k) { return k < 32 && ((want >> k) & 1u); }

/* ------------------------------------------------------- stored views */

static int get_stored(pcol_file *f, const stored_map *m, const rowset *rs, uint32_t want,
                      pcb_table *t, pcol_error *err) {
  int rc = 0;
  const pcb_view_info *vi = t->view;
  for (int k = 0; k < vi->ncols; k++) {
    if (!want_col(want, k)) continue;
    pcb_col *c = &t->cols[k];
    int sc = m->cols[k];
    if (!rs || rs->all) { /* the whole table: borrowed */
      if (sc == 0) c->seq = 1;
      else TRY(col_borrow(f, m->table, sc, c, err));
      continue;
    }
    /* a selection of samples: gathered */
    TRY(col_alloc(c, rs->n, err));
    if (sc == 0) {
      uint32_t *o = c->owned;
      for (uint64_t i = 0; i < rs->n; i++) o[i] = (uint32_t)(rs->rows[i] + 1);
      continue;
    }
    pcol_view v;
    TRY(get(f, m->table, sc, &v, err));
    if (c->type == PCOL_TYPE_U32) {
      uint32_t *o = c->owned;
      for (uint64_t i = 0; i < rs->n; i++) o[i] = pcol_view_u32(&v, rs->rows[i]);
    } else {
      int64_t *o = c->owned;
      for (uint64_t i = 0; i < rs->n; i++) o[i] = pcol_view_i64(&v, rs->rows[i]);
    }
  }
done:
  return rc;
}

/* ------------------------------------------------------- derived views */

static int get_sample_values(pcol_file *f, const rowset *rs, uint32_t want, pcb_table *t,
                             pcol_error *err) {
  int rc = 0;
  pcol_view vo, vt, vv, tt, tu;
  TRY(get(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &vo, err));
  TRY(get(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &vt, err));
  TRY(get(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &vv, err));
  TRY(get(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &tt, err));
  TRY(get(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &tu, err));
  uint64_t n = 0;
  if (rs->all) n = pcol_rows(f, PCOL_T_VALUES);
  else
    for (uint64_t i = 0; i < rs->n; i++)
      n += pcol_view_u64(&vo, rs->rows[i] + 1) - pcol_view_u64(&vo, rs->rows[i]);
  t->nrows = n;
  for (int k = 0; k < 4; k++)
    if (want_col(want, k) && !(k == 3 && rs->all)) TRY(col_alloc(&t->cols[k], n, err));
  if (want_col(want, 3) && rs->all) TRY(col_borrow(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &t->cols[3], err));
  uint32_t *sid = t->cols[0].owned, *ty = t->cols[1].owned, *un = t->cols[2].owned;
  int64_t *val = t->cols[3].owned;
  uint64_t o = 0;
  for (uint64_t i = 0; i < rs->n && (sid || ty || un || val); i++) {
    uint64_t r = ROW(rs, i);
    uint64_t a = pcol_view_u64(&vo, r), e = pcol_view_u64(&vo, r + 1);
    for (uint64_t k = a; k < e; k++, o++) {
      uint32_t vtid = pcol_view_u32(&vt, k); /* checked: 1..rows(value_types) */
      if (sid) sid[o] = (uint32_t)(r + 1);
      if (ty) ty[o] = pcol_view_u32(&tt, vtid - 1);
      if (un) un[o] = pcol_view_u32(&tu, vtid - 1);
      if (val) val[o] = pcol_view_i64(&vv, k);
    }
  }
done:
  return rc;
}

static int get_sample_locations(pcol_file *f, const rowset *rs, const pcb_select *sel, uint32_t want,
                                pcb_table *t, pcol_error *err) {
  int rc = 0;
  pcol_view st, par, loc;
  uint32_t *depth = NULL;
  TRY(get(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, err));
  TRY(get(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &par, err));
  TRY(get(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &loc, err));
  uint64_t nodes = pcol_rows(f, PCOL_T_STACKS);
  /* depth of each node: parents precede their children (checked) */
  if (nodes > SIZE_MAX / sizeof *depth - 1 || !(depth = malloc(((size_t)nodes + 1) * sizeof *depth))) {
    rc = oom(err);
    goto done;
  }
  depth[0] = 0;
  for (uint64_t n = 1; n <= nodes; n++) depth[n] = depth[pcol_view_u32(&par, n - 1)] + 1;
  uint64_t total = 0;
  for (uint64_t i = 0; i < rs->n; i++) total += depth[pcol_view_u32(&st, ROW(rs, i))];
  TRY(too_many(sel, "sample_locations", total, err));
  t->nrows = total;
  for (int k = 0; k < 3; k++)
    if (want_col(want, k)) TRY(col_alloc(&t->cols[k], total, err));
  uint32_t *sid = t->cols[0].owned, *dep = t->cols[1].owned, *lid = t->cols[2].owned;
  uint64_t o = 0;
  for (uint64_t i = 0; i < rs->n; i++) {
    uint64_t r = ROW(rs, i);
    uint32_t d = 1;
    for (uint32_t n = pcol_view_u32(&st, r); n; n = pcol_view_u32(&par, n - 1), d++, o++) {
      if (sid) sid[o] = (uint32_t)(r + 1);
      if (dep) dep[o] = d;
      if (lid) lid[o] = pcol_view_u32(&loc, n - 1);
    }
  }
done:
  free(depth);
  return rc;
}

static int get_sample_labels(pcol_file *f, const rowset *rs, const pcb_select *sel, uint32_t want,
                             pcb_table *t, pcol_error *err) {
  int rc = 0;
  pcol_view ls, lo, key, str, num, unit;
  TRY(get(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &ls, err));
  TRY(get(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &lo, err));
  TRY(get(f, PCOL_T_LABELS, PCOL_C_LB_KEY, &key, err));
  TRY(get(f, PCOL_T_LABELS, PCOL_C_LB_STR, &str, err));
  TRY(get(f, PCOL_T_LABELS, PCOL_C_LB_NUM, &num, err));
  TRY(get(f, PCOL_T_LABELS, PCOL_C_LB_UNIT, &unit, err));
  uint64_t total = 0;
  for (uint64_t i = 0; i < rs->n; i++) {
    uint32_t s = pcol_view_u32(&ls, ROW(rs, i));
    if (s) total += pcol_view_u64(&lo, s) - pcol_view_u64(&lo, s - 1);
  }
  TRY(too_many(sel, "sample_labels", total, err));
  t->nrows = total;
  for (int k = 0; k < 5; k++)
    if (want_col(want, k)) TRY(col_alloc(&t->cols[k], total, err));
  uint32_t *sid = t->cols[0].owned, *k_ = t->cols[1].owned, *s_ = t->cols[2].owned, *u_ = t->cols[4].owned;
  int64_t *n_ = t->cols[3].owned;
  uint64_t o = 0;
  for (uint64_t i = 0; i < rs->n; i++) {
    uint64_t r = ROW(rs, i);
    uint32_t s = pcol_view_u32(&ls, r);
    if (!s) continue;
    for (uint64_t k = pcol_view_u64(&lo, s - 1), e = pcol_view_u64(&lo, s); k < e; k++, o++) {
      uint32_t sv = pcol_view_u32(&str, k);
      int64_t nv = pcol_view_i64(&num, k);
      if (sid) sid[o] = (uint32_t)(r + 1);
      if (k_) k_[o] = pcol_view_u32(&key, k);
      if (s_) s_[o] = sv;
      /* a string label without a number shows no number (spec.md §11.2) */
      if (n_) n_[o] = sv && nv == 0 ? PCOL_NA_I64 : nv;
      if (u_) u_[o] = pcol_view_u32(&unit, k);
    }
  }
done:
  return rc;
}

static int get_locations(pcol_file *f, uint32_t want, pcb_table *t, pcol_error *err) {
  int rc = 0;
  pcol_view lo, fn, ln;
  TRY(get(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &lo, err));
  TRY(get(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &fn, err));
  TRY(get(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &ln, err));
  uint64_t n = pcol_rows(f, PCOL_T_LOCATIONS);
  t->nrows = n;
  if (want_col(want, 0)) t->cols[0].seq = 1;
  if (want_col(want, 1)) TRY(col_alloc(&t->cols[1], n, err));
  if (want_col(want, 2)) TRY(col_alloc(&t->cols[2], n, err));
  if (want_col(want, 3)) TRY(col_borrow(f, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS, &t->cols[3], err));
  if (want_col(want, 4)) TRY(col_borrow(f, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, &t->cols[4], err));
  /* flags may hold only bit 0, is_folded (checked on first use): 0 or 1 */
  if (want_col(want, 5)) TRY(col_borrow(f, PCOL_T_LOCATIONS, PCOL_C_LOC_FLAGS, &t->cols[5], err));
  uint32_t *fid = t->cols[1].owned;
  int64_t *line = t->cols[2].owned;
  for (uint64_t r = 0; r < n && (fid || line); r++) {
    uint64_t a = pcol_view_u64(&lo, r), e = pcol_view_u64(&lo, r + 1);
    /* the location's own function and line: its first (innermost) line */
    if (fid) fid[r] = a < e ? pcol_view_u32(&fn, a) : 0;
    if (line) line[r] = a < e ? pcol_view_i64(&ln, a) : PCOL_NA_I64;
  }
done:
  return rc;
}

static int get_location_lines(pcol_file *f, uint32_t want, pcb_table *t, pcol_error *err) {
  int rc = 0;
  pcol_view lo;
  TRY(get(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &lo, err));
  uint64_t n = pcol_rows(f, PCOL_T_LINES), nl = pcol_rows(f, PCOL_T_LOCATIONS);
  t->nrows = n;
  /* the offsets start at 0, never decrease and end at rows(lines)
   * (checked), so the view's rows are the lines rows in stored order */
  if (want_col(want, 0)) TRY(col_alloc(&t->cols[0], n, err));
  if (want_col(want, 1)) TRY(col_alloc(&t->cols[1], n, err));
  for (int k = 2; k < 5; k++)
    if (want_col(want, k)) TRY(col_borrow(f, PCOL_T_LINES, k - 1, &t->cols[k], err));
  uint32_t *lid = t->cols[0].owned, *dep = t->cols[1].owned;
  for (uint64_t r = 0; r < nl && (lid || dep); r++)
    for (uint64_t k = pcol_view_u64(&lo, r), a = k, e = pcol_view_u64(&lo, r + 1); k < e; k++) {
      if (lid) lid[k] = (uint32_t)(r + 1);
      if (dep) dep[k] = (uint32_t)(k - a + 1);
    }
done:
  return rc;
}

static int get_mappings(pcol_file *f, uint32_t want, pcb_table *t, pcol_error *err) {
  int rc = 0;
  uint64_t n = pcol_rows(f, PCOL_T_MAPPINGS);
  t->nrows = n;
  if (want_col(want, 0)) t->cols[0].seq = 1;
  for (int k = 1; k < 6; k++)
    if (want_col(want, k)) TRY(col_borrow(f, PCOL_T_MAPPINGS, k, &t->cols[k], err));
  pcol_view fl;
  TRY(get(f, PCOL_T_MAPPINGS, PCOL_C_MAP_FLAGS, &fl, err));
  for (int b = 0; b < 4; b++) {
    if (!want_col(want, 6 + b)) continue;
    TRY(col_alloc(&t->cols[6 + b], n, err));
    uint8_t *o = t->cols[6 + b].owned;
    for (uint64_t r = 0; r < n; r++) o[r] = (pcol_view_u8(&fl, r) >> b) & 1;
  }
done:
  return rc;
}

/* ----------------------------------------------------------- the entry */

int pcb_table_get(pcol_file *f, const char *name, const pcb_select *sel, uint32_t want,
                  pcb_table *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  const pcb_view_info *vi = pcb_view_by_name(name);
  if (!vi) return pcol_error_set(err, PCOL_ENOTFOUND, "no view named '%s'", name);
  out->view = vi;
  out->ncols = vi->ncols;
  for (int k = 0; k < vi->ncols; k++) {
    if (!want_col(want, k)) continue;
    out->cols[k].name = vi->cols[k].name;
    out->cols[k].kind = vi->cols[k].kind;
    out->cols[k].type = elem_type(vi->cols[k].kind);
  }
  int rc = 0;
  rowset rs = {0};
  if (vi->sample_view) TRY(select_rows(f, sel, &rs, err));
  if (!strcmp(name, "sample_values")) rc = get_sample_values(f, &rs, want, out, err);
  else if (!strcmp(name, "sample_locations")) rc = get_sample_locations(f, &rs, sel, want, out, err);
  else if (!strcmp(name, "sample_labels")) rc = get_sample_labels(f, &rs, sel, want, out, err);
  else if (!strcmp(name, "locations")) rc = get_locations(f, want, out, err);
  else if (!strcmp(name, "location_lines")) rc = get_location_lines(f, want, out, err);
  else if (!strcmp(name, "mappings")) rc = get_mappings(f, want, out, err);
  else if (!strcmp(name, "strings")) {
    uint64_t n = pcol_string_count(f);
    out->nrows = n ? n - 1 : 0;
    out->cols[0].seq = out->cols[1].seq = 1;
    /* touch the strings columns so that a damaged one fails here */
    pcol_str s;
    if (out->nrows) rc = pcol_string(f, 1, &s, err);
  } else {
    for (size_t i = 0; i < sizeof stored / sizeof stored[0]; i++) {
      if (strcmp(stored[i].view, name)) continue;
      out->nrows = vi->sample_view ? rs.n : pcol_rows(f, stored[i].table);
      rc = get_stored(f, &stored[i], vi->sample_view ? &rs : NULL, want, out, err);
    }
  }
done:
  free(rs.rows);
  if (rc) pcb_table_free(out);
  return rc;
}

void pcb_table_free(pcb_table *t) {
  for (int k = 0; k < PCB_MAX_COLS; k++) {
    free(t->cols[k].owned);
    t->cols[k].owned = NULL;
    t->cols[k].data = NULL;
  }
}

/* ------------------------------------------------------------ strings */

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), 0 if there is none. */
static size_t utf8_seq(const unsigned char *p, size_t n) {
  unsigned c = p[0];
  if (c < 0x80) return 1;
  if (c < 0xC2 || c > 0xF4) return 0;
  if (c < 0xE0) return n >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
  if (c < 0xF0) {
    if (n < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
    if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0)) return 0;
    return 3;
  }
  if (n < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
  if ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90)) return 0;
  return 4;
}

int pcb_utf8_clean_already(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    if (p[i] >= 0x01 && p[i] < 0x80) {
      i++;
      continue;
    }
    size_t l = p[i] ? utf8_seq(p + i, n - i) : 0;
    if (!l) return 0;
    i += l;
  }
  return 1;
}

size_t pcb_utf8_clean(const char *s, size_t n, char *out, const char *nul) {
  const unsigned char *p = (const unsigned char *)s;
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (p[i] == 0 && nul) {
      size_t l = strlen(nul);
      memcpy(out + o, nul, l);
      o += l;
      i++;
      continue;
    }
    size_t l = utf8_seq(p + i, n - i);
    if (l) {
      memcpy(out + o, p + i, l);
      o += l;
      i += l;
    } else { /* the byte as its Latin-1 code point U+0080..U+00FF */
      out[o++] = (char)(0xC0 | (p[i] >> 6));
      out[o++] = (char)(0x80 | (p[i] & 0x3F));
      i++;
    }
  }
  return o;
}
