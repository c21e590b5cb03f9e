/* pcolb.c — logical views, UTF-8 cleaning and the writer shared by the R and
 * Python bindings (see pcolb.h).  Uses include/pcol.h only.
 *
 * The views are libpcol's (pcol_lview_*, lib/query/views.c), the same code
 * that `pcol cat` prints: here a view's stored columns are borrowed whole
 * (zero-copy) and the rest are filled by pcol_lview_scan in one batch.
 * Every column is fetched through pcol_column (checked on first use); only
 * a whole stored view asked for `unchecked` borrows its columns as stored
 * (col_borrow), to be handed on, never indexed here. */
#include "pcolb.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcb_seconds(double s, int64_t *ns) {
  if (!isfinite(s) || fabs(s) > 9.2e9) return -1;
  *ns = (int64_t)llround(s * 1e9);
  return 0;
}

int pcb_range_end(pcol_select *sel, int is_to, const char *text, double secs, const char *name,
                  pcol_error *err) {
  int64_t ns;
  int wall = text ? pcol_time_parse(text, &ns) : pcb_seconds(secs, &ns);
  if (wall < 0)
    return text ? pcol_error_set(err, PCOL_EINVAL, "%s wants seconds since the profile's start (1.5, or with a "
                                 "unit: 250ms, 2s), or a wall-clock time (2026-11-23T10:00:00Z, or @EPOCH_SECONDS), "
                                 "not '%s'", name, text)
                : pcol_error_set(err, PCOL_EINVAL, "%s must be a finite number of seconds", name);
  if (is_to && sel->has_from && (int)sel->wall != wall)
    return pcol_error_set(err, PCOL_EINVAL, "%s: give both ends of the range in seconds since the start "
                          "or both as wall-clock times", name);
  *(is_to ? &sel->to_ns : &sel->from_ns) = ns;
  *(is_to ? &sel->has_to : &sel->has_from) = 1;
  sel->wall = sel->wall || wall;
  return PCOL_OK;
}

/* ---------------------------------------------------------------- views */

static int oom(pcol_error *err) { return pcol_error_set(err, PCOL_ENOMEM, "out of memory"); }

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

/* A stored column, borrowed: checked, or as stored (`unchecked`, for a
 * binding to hand on; the glue never indexes with such a column). */
static int col_borrow(pcol_file *f, int table, int column, int unchecked, pcb_col *c,
                      pcol_error *err) {
  pcol_view v;
  int rc = unchecked ? pcol_column_unchecked(f, table, column, &v, err)
                     : pcol_column(f, table, column, &v, err);
  if (rc) return rc;
  c->data = v.data;
  c->dflt = v.dflt;
  if (pcol_view_stored(&v) && v.type != c->type)
    return pcol_error_set(err, PCOL_ECORRUPT, "column %d of table %d has an unexpected type", column, table);
  if (v.nlanes) { /* encoded (format 1.3): the binding hands on an array */
    if ((rc = col_alloc(c, v.count, err)) != PCOL_OK) return rc;
    if (elem_size(c->type) == 4) pcol_view_read_u32(&v, 0, (size_t)v.count, c->owned);
    else pcol_view_read_u64(&v, 0, (size_t)v.count, c->owned);
  }
  return PCOL_OK;
}

static int want_col(uint32_t want, int k) { return k < 32 && ((want >> k) & 1u); }

/* The batch is the whole view (cap = its rows): one call, then stop. */
static int one_batch(void *ctx, size_t n) {
  (void)ctx;
  return n ? 1 : 0; /* 0: the start signal */
}

/* The whole view: columns stored as they are borrowed (pcol_lview_col's
 * table/column), row ids as sequences, the rest filled by the library in one
 * batch.  A selection fills every column (but a whole view's ids). */
int pcb_table_get(pcol_file *f, const char *name, const pcb_select *sel, uint32_t want,
                  pcb_table *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  const pcb_view_info *vi = pcb_view_by_name(name);
  if (!vi) return pcol_error_set(err, PCOL_ENOTFOUND, "no view named '%s'", name);
  out->view = vi;
  out->ncols = vi->ncols;
  const pcol_select *ps =
      sel && (sel->sel.source_id || sel->sel.has_from || sel->sel.has_to) && vi->sample_view ? &sel->sel : NULL;
  uint64_t n;
  int rc = pcol_lview_rows(f, vi, ps, &n, err);
  if (rc) return rc;
  if (sel && sel->max_rows && n > sel->max_rows)
    return pcol_error_set(err, PCOL_ETOOBIG,
                          "view %s would have %llu rows, more than the limit of %llu (max_rows)", name,
                          (unsigned long long)n, (unsigned long long)sel->max_rows);
  out->nrows = n;
  pcol_lview_batch b = {0};
  int fill = 0;
  for (size_t k = 0; k < vi->ncols && !rc; k++) {
    if (!want_col(want, k)) continue;
    const pcol_lview_col *vc = &vi->cols[k];
    pcb_col *c = &out->cols[k];
    c->name = vc->name;
    c->kind = vc->kind;
    c->type = vc->type;
    if (!ps && vc->seq) c->seq = 1;
    else if (!ps && vc->column > 0)
      rc = col_borrow(f, vc->table, vc->column, sel && sel->unchecked && !vi->derived, c, err);
    else if (!(rc = col_alloc(c, n, err))) {
      b.cols[k] = c->owned;
      fill = 1;
    }
  }
  if (!rc && fill && n) {
    b.cap = (size_t)n;
    rc = pcol_lview_scan(f, vi, ps, &b, one_batch, NULL, err);
  }
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

/* ============================================================ writing
 *
 * Input tables are the views above (any subset of their columns).  Ids are
 * keys: a table's id column (or, when absent, its row numbers 1..n) names
 * its rows, references are looked up by key, and rows get new ids in input
 * order.  The builder deduplicates strings, value types, functions,
 * locations, stacks and label sets, so rows equal in every field share one
 * id; input that came from pcb_table_get has no such duplicates and keeps
 * its ids. */

enum { /* view indexes, as pcb_view_at (pcol_lview_at) numbers them */
  V_META, V_SOURCES, V_SAMPLES, V_SAMPLE_VALUES, V_SAMPLE_LOCATIONS, V_LOCATIONS, V_FUNCTIONS,
  V_VALUE_TYPES, V_SOURCE_VALUE_TYPES, V_SAMPLE_LABELS, V_LOCATION_LINES, V_MAPPINGS, V_STACKS,
  V_MODELS, V_TEXT_LINES, V_SAMPLE_TEXT, V_STRINGS
};

typedef struct idmap {
  uint64_t n;       /* rows of the table */
  int ident;        /* keys are 1..n in order */
  int64_t *key;     /* sorted keys (when not ident) */
  uint64_t *row;    /* row of key[i] */
  uint32_t *newid;  /* new id of each row (0: none yet) */
} idmap;

typedef struct wctx {
  const pcb_input *in;
  pcol_builder *b;
  pcol_error *err;
  idmap m[PCB_NVIEWS];
} wctx;

static const pcb_in_table *wt(const wctx *w, int v) { return &w->in->t[v]; }
static int has_table(const wctx *w, int v) { return w->in->t[v].present; }
static int has_col(const wctx *w, int v, int c) {
  return w->in->t[v].present && w->in->t[v].cols[c].type != PCB_IN_ABSENT;
}

/* a cell (c >= 0) or row of the input, named as the binding's user reaches
 * it (pcb_input.names) */
static int werr(wctx *w, int code, int v, int c, uint64_t r, const char *what) {
  const pcb_view_info *vi = pcb_view_at(v);
  if (w->in->names == PCB_NAMES_PY && c >= 0)
    return pcol_error_set(w->err, code, "tables['%s']['%s'][%llu]: %s", vi->name, vi->cols[c].name,
                          (unsigned long long)r, what);
  if (w->in->names == PCB_NAMES_PY)
    return pcol_error_set(w->err, code, "tables['%s'], row at index %llu: %s", vi->name, (unsigned long long)r,
                          what);
  if (c >= 0)
    return pcol_error_set(w->err, code, "%s$%s, row %llu: %s", vi->name, vi->cols[c].name,
                          (unsigned long long)r + 1, what);
  return pcol_error_set(w->err, code, "%s, row %llu: %s", vi->name, (unsigned long long)r + 1, what);
}

/* The builder's appends return a code only: name what failed. */
static int bcheck(wctx *w, int rc, int v, uint64_t r) {
  if (!rc) return 0;
  return werr(w, rc, v, -1, r, rc == PCOL_EINVAL ? "refused by the builder (a reference or order rule)"
                                                 : pcol_strerror(rc));
}

/* i64 cell; `na` is what NA becomes (callers pass PCOL_NA_I64 or a default). */
static int cell_i64(wctx *w, int v, int c, uint64_t r, int64_t dflt, int64_t *out) {
  const pcb_in_col *col = &wt(w, v)->cols[c];
  switch (col->type) {
  case PCB_IN_ABSENT: *out = dflt; return 0;
  case PCB_IN_I32: {
    int32_t x = ((const int32_t *)col->data)[r];
    *out = x == INT32_MIN ? PCOL_NA_I64 : x;
    return 0;
  }
  case PCB_IN_F64: {
    double d = ((const double *)col->data)[r];
    if (isnan(d)) *out = PCOL_NA_I64;
    else if (d != floor(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
      return werr(w, PCOL_EINVAL, v, c, r, "not a whole number in the range of a 64-bit integer");
    else *out = (int64_t)d;
    return 0;
  }
  case PCB_IN_I64: *out = ((const int64_t *)col->data)[r]; return 0;
  case PCB_IN_U64: {
    uint64_t x = ((const uint64_t *)col->data)[r];
    if (x > INT64_MAX) return werr(w, PCOL_EINVAL, v, c, r, "larger than a 64-bit signed integer");
    *out = (int64_t)x;
    return 0;
  }
  case PCB_IN_U32: *out = ((const uint32_t *)col->data)[r]; return 0;
  case PCB_IN_U8: *out = ((const uint8_t *)col->data)[r]; return 0;
  case PCB_IN_STR: return werr(w, PCOL_EINVAL, v, c, r, "must be numbers, not strings");
  }
  return werr(w, PCOL_EINVAL, v, c, r, "unknown column type");
}

static int cell_u64(wctx *w, int v, int c, uint64_t r, uint64_t *out) {
  const pcb_in_col *col = &wt(w, v)->cols[c];
  if (col->type == PCB_IN_U64) {
    *out = ((const uint64_t *)col->data)[r];
    return 0;
  }
  if (col->type == PCB_IN_F64) { /* R: addresses as doubles */
    double d = ((const double *)col->data)[r];
    if (isnan(d) || d < 0 || d != floor(d) || d > 18446744073709551616.0)
      return werr(w, PCOL_EINVAL, v, c, r, "not a whole number from 0 to 2^64");
    /* 2^64 is how a double holds the values from 2^64-1024 up: the largest */
    *out = d == 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
    return 0;
  }
  int64_t x;
  int rc = cell_i64(w, v, c, r, 0, &x);
  if (rc) return rc;
  if (x < 0) return werr(w, PCOL_EINVAL, v, c, r, x == PCOL_NA_I64 ? "NA where a number is needed" : "negative");
  *out = (uint64_t)x;
  return 0;
}

static int cell_f64(wctx *w, int v, int c, uint64_t r, double *out) {
  const pcb_in_col *col = &wt(w, v)->cols[c];
  if (col->type == PCB_IN_ABSENT) {
    *out = NAN;
    return 0;
  }
  if (col->type == PCB_IN_F64) {
    *out = ((const double *)col->data)[r];
    return 0;
  }
  int64_t x;
  int rc = cell_i64(w, v, c, r, 0, &x);
  if (rc) return rc;
  *out = x == PCOL_NA_I64 ? NAN : (double)x;
  return 0;
}

static int cell_bytes(wctx *w, int v, int c, uint64_t r, const char **p, size_t *len) {
  const pcb_in_col *col = &wt(w, v)->cols[c];
  *p = NULL;
  *len = 0;
  if (col->type == PCB_IN_ABSENT) return 0;
  if (col->type != PCB_IN_STR) return werr(w, PCOL_EINVAL, v, c, r, "must be strings");
  return w->in->get_str(w->in->ctx, v, c, r, p, len, w->err);
}

static int cell_str(wctx *w, int v, int c, uint64_t r, uint32_t *sid) {
  const char *p;
  size_t len;
  int rc = cell_bytes(w, v, c, r, &p, &len);
  if (rc) return rc;
  *sid = 0;
  return p ? bcheck(w, pcol_b_string(w->b, p, len, sid, NULL), v, r) : 0;
}

/* ------------------------------------------------------------- id maps */

static const int64_t *sort_keys;
static int cmp_rows(const void *a, const void *b) {
  int64_t x = sort_keys[*(const uint64_t *)a], y = sort_keys[*(const uint64_t *)b];
  return x < y ? -1 : x > y;
}

/* The keys of view v: its id column (c >= 0) or its row numbers. */
static int map_build(wctx *w, int v, int c) {
  idmap *m = &w->m[v];
  uint64_t n = has_table(w, v) ? wt(w, v)->nrows : 0;
  m->n = n;
  m->ident = 1;
  if (n > SIZE_MAX / 8 - 1 || !(m->newid = calloc(n + 1, sizeof *m->newid))) return oom(w->err);
  if (c < 0 || !has_col(w, v, c)) return 0;
  int64_t *keys = malloc((n + 1) * sizeof *keys);
  if (!keys) return oom(w->err);
  int rc = 0;
  for (uint64_t r = 0; r < n; r++) {
    if ((rc = cell_i64(w, v, c, r, 0, &keys[r]))) goto out;
    if (keys[r] <= 0) {
      rc = werr(w, PCOL_EINVAL, v, c, r, "ids must be 1 or more");
      goto out;
    }
    if (keys[r] != (int64_t)r + 1) m->ident = 0;
  }
  if (m->ident) goto out;
  uint64_t *rows = malloc((n + 1) * sizeof *rows);
  if (!rows) {
    rc = oom(w->err);
    goto out;
  }
  for (uint64_t r = 0; r < n; r++) rows[r] = r;
  sort_keys = keys; /* qsort has no context argument in C11 */
  qsort(rows, (size_t)n, sizeof *rows, cmp_rows);
  m->key = malloc((n + 1) * sizeof *m->key);
  if (!m->key) {
    free(rows);
    rc = oom(w->err);
    goto out;
  }
  for (uint64_t i = 0; i < n; i++) {
    m->key[i] = keys[rows[i]];
    if (i && m->key[i] == m->key[i - 1]) {
      rc = werr(w, PCOL_EINVAL, v, c, rows[i], "duplicate id");
      free(rows);
      goto out;
    }
  }
  m->row = rows;
out:
  free(keys);
  return rc;
}

/* Row of `key` in the map, or -1. */
static int64_t map_row(const idmap *m, int64_t key) {
  if (m->ident) return key >= 1 && (uint64_t)key <= m->n ? key - 1 : -1;
  uint64_t lo = 0, hi = m->n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (m->key[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < m->n && m->key[lo] == key ? (int64_t)m->row[lo] : -1;
}

/* A reference cell of view v into view `to`: 0 for NA or 0, else the new id
 * of the row with that key (which must exist and be built). */
static int cell_ref(wctx *w, int v, int c, uint64_t r, int to, uint32_t dflt, uint32_t *out) {
  int64_t k;
  int rc = cell_i64(w, v, c, r, dflt, &k);
  if (rc) return rc;
  if (k == PCOL_NA_I64 || k == 0) {
    *out = 0;
    return 0;
  }
  int64_t row = map_row(&w->m[to], k);
  if (row < 0 || !w->m[to].newid[row]) {
    char msg[160];
    snprintf(msg, sizeof msg, "refers to id %lld, which %s does not have%s", (long long)k, pcb_view_at(to)->name,
             row >= 0 ? " (yet: rows must come after the rows they refer to)" : "");
    return werr(w, PCOL_EINVAL, v, c, r, msg);
  }
  *out = w->m[to].newid[row];
  return 0;
}

/* The rows of child view v grouped by the row of their parent (view p,
 * key column c): rows of parent i are rows[off[i]..off[i+1]).  With a depth
 * column, each group is put in depth order. */
typedef struct groups {
  uint64_t *off, *rows;
} groups;

static const int64_t *sort_depth;
static int cmp_depth(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  int64_t dx = sort_depth[x], dy = sort_depth[y];
  return dx != dy ? (dx < dy ? -1 : 1) : (x > y) - (x < y);
}

static int group_by(wctx *w, int v, int c, int p, int depth_col, groups *g) {
  uint64_t n = has_table(w, v) ? wt(w, v)->nrows : 0, np = w->m[p].n;
  int rc = 0;
  int64_t *depth = NULL;
  uint64_t *parent = malloc((n + 1) * sizeof *parent);
  g->off = calloc(np + 2, sizeof *g->off);
  g->rows = malloc((n + 1) * sizeof *g->rows);
  if (!parent || !g->off || !g->rows) {
    rc = oom(w->err);
    goto out;
  }
  for (uint64_t r = 0; r < n; r++) {
    int64_t k;
    if ((rc = cell_i64(w, v, c, r, 0, &k))) goto out;
    int64_t row = map_row(&w->m[p], k);
    if (row < 0) {
      char msg[160];
      snprintf(msg, sizeof msg, "refers to id %lld, which %s does not have", (long long)k, pcb_view_at(p)->name);
      rc = werr(w, PCOL_EINVAL, v, c, r, msg);
      goto out;
    }
    parent[r] = (uint64_t)row;
    g->off[row + 2]++;
  }
  for (uint64_t i = 2; i < np + 2; i++) g->off[i] += g->off[i - 1];
  for (uint64_t r = 0; r < n; r++) g->rows[g->off[parent[r] + 1]++] = r; /* stable */
  if (depth_col >= 0 && has_col(w, v, depth_col)) {
    if (!(depth = malloc((n + 1) * sizeof *depth))) {
      rc = oom(w->err);
      goto out;
    }
    for (uint64_t r = 0; r < n; r++)
      if ((rc = cell_i64(w, v, depth_col, r, 0, &depth[r]))) goto out;
    sort_depth = depth;
    for (uint64_t i = 0; i < np; i++) {
      uint64_t a = g->off[i], e = g->off[i + 1];
      int sorted = 1;
      for (uint64_t k = a + 1; k < e && sorted; k++) sorted = depth[g->rows[k - 1]] <= depth[g->rows[k]];
      if (!sorted) qsort(g->rows + a, (size_t)(e - a), sizeof *g->rows, cmp_depth);
    }
  }
out:
  free(parent);
  free(depth);
  return rc;
}

static void groups_free(groups *g) {
  free(g->off);
  free(g->rows);
  g->off = g->rows = NULL;
}

/* ------------------------------------------------------------- tables */

static int w_strings(wctx *w) {
  if (!has_table(w, V_STRINGS)) return 0;
  for (uint64_t r = 0; r < wt(w, V_STRINGS)->nrows; r++) {
    uint32_t id;
    int rc = cell_str(w, V_STRINGS, 1, r, &id);
    if (rc) return rc;
  }
  return 0;
}

static int w_sources(wctx *w) {
  int rc = map_build(w, V_SOURCES, 0);
  if (rc) return rc;
  if (!has_table(w, V_SOURCES) || wt(w, V_SOURCES)->nrows == 0) {
    /* no sources given: one unnamed source for whatever refers to source 1 */
    free(w->m[V_SOURCES].newid);
    w->m[V_SOURCES] = (idmap){.n = 1, .ident = 1, .newid = calloc(2, sizeof(uint32_t))};
    if (!w->m[V_SOURCES].newid) return oom(w->err);
    if (!has_table(w, V_SAMPLES) || wt(w, V_SAMPLES)->nrows == 0) return 0;
    return bcheck(w, pcol_b_source(w->b, NULL, NULL, PCOL_NA_I64, &w->m[V_SOURCES].newid[0], NULL), V_SOURCES, 0);
  }
  for (uint64_t r = 0; !rc && r < wt(w, V_SOURCES)->nrows; r++) {
    uint32_t type, uri;
    int64_t ts;
    if (!(rc = cell_str(w, V_SOURCES, 1, r, &type)) && !(rc = cell_str(w, V_SOURCES, 2, r, &uri)) &&
        !(rc = cell_i64(w, V_SOURCES, 3, r, PCOL_NA_I64, &ts)))
      rc = bcheck(w, pcol_b_source_sid(w->b, type, uri, ts, &w->m[V_SOURCES].newid[r], NULL), V_SOURCES, r);
  }
  return rc;
}

static int w_meta(wctx *w) {
  if (!has_table(w, V_META)) return 0;
  int rc = 0;
  for (uint64_t r = 0; !rc && r < wt(w, V_META)->nrows; r++) {
    uint32_t key, val, src;
    if (!(rc = cell_str(w, V_META, 0, r, &key)) && !(rc = cell_str(w, V_META, 1, r, &val)) &&
        !(rc = cell_ref(w, V_META, 2, r, V_SOURCES, 0, &src)))
      rc = bcheck(w, pcol_b_meta_sid(w->b, src, key, val, NULL), V_META, r);
  }
  return rc;
}

static int w_value_types(wctx *w) {
  int rc = map_build(w, V_VALUE_TYPES, 0);
  for (uint64_t r = 0; !rc && r < w->m[V_VALUE_TYPES].n; r++) {
    uint32_t t, u;
    if (!(rc = cell_str(w, V_VALUE_TYPES, 1, r, &t)) && !(rc = cell_str(w, V_VALUE_TYPES, 2, r, &u)))
      rc = bcheck(w, pcol_b_value_type(w->b, t, u, &w->m[V_VALUE_TYPES].newid[r], NULL), V_VALUE_TYPES, r);
  }
  if (rc || !has_table(w, V_SOURCE_VALUE_TYPES)) return rc;
  for (uint64_t r = 0; !rc && r < wt(w, V_SOURCE_VALUE_TYPES)->nrows; r++) {
    uint32_t s, vt;
    if (!(rc = cell_ref(w, V_SOURCE_VALUE_TYPES, 0, r, V_SOURCES, 0, &s)) &&
        !(rc = cell_ref(w, V_SOURCE_VALUE_TYPES, 1, r, V_VALUE_TYPES, 0, &vt)))
      rc = bcheck(w, pcol_b_source_value_type(w->b, s, vt, NULL), V_SOURCE_VALUE_TYPES, r);
  }
  return rc;
}

static int w_functions(wctx *w) {
  int rc = map_build(w, V_FUNCTIONS, 0);
  for (uint64_t r = 0; !rc && r < w->m[V_FUNCTIONS].n; r++) {
    pcol_function_row fn;
    if (!(rc = cell_str(w, V_FUNCTIONS, 1, r, &fn.name)) && !(rc = cell_str(w, V_FUNCTIONS, 2, r, &fn.system_name)) &&
        !(rc = cell_str(w, V_FUNCTIONS, 3, r, &fn.filename)) &&
        !(rc = cell_i64(w, V_FUNCTIONS, 4, r, PCOL_NA_I64, &fn.start_line)))
      rc = bcheck(w, pcol_b_function(w->b, &fn, &w->m[V_FUNCTIONS].newid[r], NULL), V_FUNCTIONS, r);
  }
  return rc;
}

static int w_mappings(wctx *w) {
  int rc = map_build(w, V_MAPPINGS, 0);
  for (uint64_t r = 0; !rc && r < w->m[V_MAPPINGS].n; r++) {
    pcol_mapping_row m = {0};
    uint64_t *u[3] = {&m.memory_start, &m.memory_limit, &m.file_offset};
    for (int k = 0; k < 3 && !rc; k++)
      if (has_col(w, V_MAPPINGS, 1 + k)) rc = cell_u64(w, V_MAPPINGS, 1 + k, r, u[k]);
    if (!rc) rc = cell_str(w, V_MAPPINGS, 4, r, &m.filename);
    if (!rc) rc = cell_str(w, V_MAPPINGS, 5, r, &m.build_id);
    for (int k = 0; k < 4 && !rc; k++) {
      int64_t b;
      if (!(rc = cell_i64(w, V_MAPPINGS, 6 + k, r, 0, &b)) && b && b != PCOL_NA_I64) m.flags |= (uint8_t)(1u << k);
    }
    if (!rc) rc = bcheck(w, pcol_b_mapping(w->b, &m, 0, &w->m[V_MAPPINGS].newid[r], NULL), V_MAPPINGS, r);
  }
  return rc;
}

static int w_locations(wctx *w) {
  int rc = map_build(w, V_LOCATIONS, 0);
  if (rc) return rc;
  groups g = {0};
  int by_lines = has_table(w, V_LOCATION_LINES);
  if (by_lines && (rc = group_by(w, V_LOCATION_LINES, 0, V_LOCATIONS, 1, &g))) goto out;
  pcol_line_row *lines = NULL;
  size_t cap = 0;
  for (uint64_t r = 0; !rc && r < w->m[V_LOCATIONS].n; r++) {
    size_t nl = 0;
    if (by_lines) {
      uint64_t a = g.off[r], e = g.off[r + 1];
      if (e - a > cap) {
        pcol_line_row *t = realloc(lines, (size_t)(e - a) * sizeof *t);
        if (!t) {
          rc = oom(w->err);
          break;
        }
        lines = t;
        cap = (size_t)(e - a);
      }
      for (uint64_t k = a; k < e && !rc; k++, nl++) {
        uint64_t lr = g.rows[k];
        if (!(rc = cell_ref(w, V_LOCATION_LINES, 2, lr, V_FUNCTIONS, 0, &lines[nl].function_id)) &&
            !(rc = cell_i64(w, V_LOCATION_LINES, 3, lr, PCOL_NA_I64, &lines[nl].line)))
          rc = cell_i64(w, V_LOCATION_LINES, 4, lr, PCOL_NA_I64, &lines[nl].column);
      }
    } else { /* the location's one line, when it has a function or a line */
      pcol_line_row l1;
      if (!cap) {
        if (!(lines = malloc(sizeof *lines))) {
          rc = oom(w->err);
          break;
        }
        cap = 1;
      }
      if (!(rc = cell_ref(w, V_LOCATIONS, 1, r, V_FUNCTIONS, 0, &l1.function_id)) &&
          !(rc = cell_i64(w, V_LOCATIONS, 2, r, PCOL_NA_I64, &l1.line))) {
        l1.column = PCOL_NA_I64;
        if (l1.function_id || l1.line != PCOL_NA_I64) lines[nl++] = l1;
      }
    }
    uint64_t addr = 0;
    uint32_t map = 0;
    int64_t folded = 0;
    if (!rc && has_col(w, V_LOCATIONS, 3)) rc = cell_u64(w, V_LOCATIONS, 3, r, &addr);
    if (!rc) rc = cell_ref(w, V_LOCATIONS, 4, r, V_MAPPINGS, 0, &map);
    if (!rc) rc = cell_i64(w, V_LOCATIONS, 5, r, 0, &folded);
    if (!rc)
      rc = bcheck(w,
                  pcol_b_location(w->b, map, addr, folded && folded != PCOL_NA_I64 ? PCOL_LOC_IS_FOLDED : 0,
                                  lines, nl, &w->m[V_LOCATIONS].newid[r], NULL),
                  V_LOCATIONS, r);
  }
  free(lines);
out:
  groups_free(&g);
  return rc;
}

static int w_stacks(wctx *w) {
  int rc = map_build(w, V_STACKS, 0);
  for (uint64_t r = 0; !rc && r < w->m[V_STACKS].n; r++) {
    uint32_t parent, loc;
    if (!(rc = cell_ref(w, V_STACKS, 1, r, V_STACKS, 0, &parent)) &&
        !(rc = cell_ref(w, V_STACKS, 2, r, V_LOCATIONS, 0, &loc)))
      rc = bcheck(w, pcol_b_stack_node(w->b, parent, loc, &w->m[V_STACKS].newid[r], NULL), V_STACKS, r);
  }
  return rc;
}

static int grow(void **p, size_t *cap, size_t need, size_t es, pcol_error *err) {
  if (need <= *cap) return 0;
  size_t nc = need < 16 ? 16 : need * 2;
  void *t = realloc(*p, nc * es);
  if (!t) return oom(err);
  *p = t;
  *cap = nc;
  return 0;
}

/* The label set of sample row r (its sample_labels rows), built or found. */
static int labels_of(wctx *w, const groups *gb, uint64_t r, pcol_label_row **labs, size_t *clabs, uint32_t *id) {
  uint64_t a = gb->off[r], e = gb->off[r + 1];
  int rc = grow((void **)labs, clabs, (size_t)(e - a), sizeof **labs, w->err);
  for (uint64_t k = a; k < e && !rc; k++) {
    uint64_t lr = gb->rows[k];
    pcol_label_row *l = &(*labs)[k - a];
    if (!(rc = cell_str(w, V_SAMPLE_LABELS, 1, lr, &l->key)) && !(rc = cell_str(w, V_SAMPLE_LABELS, 2, lr, &l->str)) &&
        !(rc = cell_i64(w, V_SAMPLE_LABELS, 3, lr, PCOL_NA_I64, &l->num)))
      rc = cell_str(w, V_SAMPLE_LABELS, 4, lr, &l->num_unit);
    /* a string label without a number is shown with num NA: stored 0 */
    if (!rc && l->str && l->num == PCOL_NA_I64) l->num = 0;
  }
  *id = 0;
  if (!rc && e > a) rc = bcheck(w, pcol_b_labelset(w->b, *labs, (size_t)(e - a), id, NULL), V_SAMPLES, r);
  return rc;
}

/* Label sets have no view of their own: when samples$labelset_id is given,
 * the sets are first built in the order of those ids (from the first sample
 * of each), so that a file read back keeps its label set ids. */
static int labelsets_in_id_order(wctx *w, const groups *gb, pcol_label_row **labs, size_t *clabs) {
  uint64_t n = w->m[V_SAMPLES].n;
  int64_t *key = malloc((n + 1) * sizeof *key);
  uint64_t *rows = malloc((n + 1) * sizeof *rows);
  int rc = 0;
  if (!key || !rows) {
    rc = oom(w->err);
    goto out;
  }
  uint64_t m = 0;
  for (uint64_t r = 0; r < n && !rc; r++) {
    rc = cell_i64(w, V_SAMPLES, 7, r, 0, &key[r]);
    if (!rc && key[r] > 0 && gb->off[r + 1] > gb->off[r]) rows[m++] = r;
  }
  if (rc) goto out;
  sort_keys = key;
  qsort(rows, (size_t)m, sizeof *rows, cmp_rows); /* by key, then (stable enough) */
  for (uint64_t i = 0; i < m && !rc; i++) {
    if (i && key[rows[i]] == key[rows[i - 1]]) continue;
    uint32_t id;
    /* the first sample with this key: the smallest row among equal keys */
    uint64_t best = rows[i];
    for (uint64_t j = i + 1; j < m && key[rows[j]] == key[rows[i]]; j++)
      if (rows[j] < best) best = rows[j];
    rc = labels_of(w, gb, best, labs, clabs, &id);
  }
out:
  free(key);
  free(rows);
  return rc;
}

static int w_samples(wctx *w) {
  int rc = map_build(w, V_SAMPLES, 0);
  if (rc) return rc;
  groups gv = {0}, gl = {0}, gb = {0};
  uint32_t *locs = NULL;
  pcol_value_row *vals = NULL;
  pcol_label_row *labs = NULL;
  size_t clocs = 0, cvals = 0, clabs = 0;
  /* stacks: samples$stack_id through `stacks` when both are given, else
   * sample_locations */
  int use_stack_ids = has_table(w, V_STACKS) && has_col(w, V_SAMPLES, 6);
  int by_locs = !use_stack_ids && has_table(w, V_SAMPLE_LOCATIONS);
  if (has_table(w, V_SAMPLE_VALUES) && (rc = group_by(w, V_SAMPLE_VALUES, 0, V_SAMPLES, -1, &gv))) goto out;
  if (by_locs && (rc = group_by(w, V_SAMPLE_LOCATIONS, 0, V_SAMPLES, 1, &gl))) goto out;
  if (has_table(w, V_SAMPLE_LABELS) && (rc = group_by(w, V_SAMPLE_LABELS, 0, V_SAMPLES, -1, &gb))) goto out;
  if (gb.off && has_col(w, V_SAMPLES, 7) && (rc = labelsets_in_id_order(w, &gb, &labs, &clabs))) goto out;
  for (uint64_t r = 0; !rc && r < w->m[V_SAMPLES].n; r++) {
    pcol_sample_row s;
    if ((rc = cell_ref(w, V_SAMPLES, 1, r, V_SOURCES, 1, &s.source_id)) ||
        (rc = cell_i64(w, V_SAMPLES, 2, r, PCOL_NA_I64, &s.time_ns)) ||
        (rc = cell_i64(w, V_SAMPLES, 3, r, 0, &s.duration_ns)) || (rc = cell_i64(w, V_SAMPLES, 4, r, 1, &s.weight)) ||
        (rc = cell_i64(w, V_SAMPLES, 5, r, PCOL_NA_I64, &s.cpu_delta_ns)))
      break;
    if (s.source_id == 0) {
      rc = werr(w, PCOL_EINVAL, V_SAMPLES, 1, r, "a sample needs a source");
      break;
    }
    s.stack_id = 0;
    if (use_stack_ids) {
      if ((rc = cell_ref(w, V_SAMPLES, 6, r, V_STACKS, 0, &s.stack_id))) break;
    } else if (by_locs) {
      uint64_t a = gl.off[r], e = gl.off[r + 1];
      if ((rc = grow((void **)&locs, &clocs, (size_t)(e - a), sizeof *locs, w->err))) break;
      for (uint64_t k = a; k < e && !rc; k++)
        rc = cell_ref(w, V_SAMPLE_LOCATIONS, 2, gl.rows[k], V_LOCATIONS, 0, &locs[k - a]);
      for (uint64_t k = a; k < e && !rc; k++)
        if (!locs[k - a]) rc = werr(w, PCOL_EINVAL, V_SAMPLE_LOCATIONS, 2, gl.rows[k], "NA location");
      if (!rc) rc = bcheck(w, pcol_b_stack(w->b, locs, (size_t)(e - a), &s.stack_id, NULL), V_SAMPLES, r);
      if (rc) break;
    }
    s.labelset_id = 0;
    if (gb.off && (rc = labels_of(w, &gb, r, &labs, &clabs, &s.labelset_id))) break;
    size_t nv = 0;
    if (gv.off) {
      uint64_t a = gv.off[r], e = gv.off[r + 1];
      if ((rc = grow((void **)&vals, &cvals, (size_t)(e - a), sizeof *vals, w->err))) break;
      for (uint64_t k = a; k < e && !rc; k++, nv++) {
        uint64_t vr = gv.rows[k];
        uint32_t t, u;
        if (!(rc = cell_str(w, V_SAMPLE_VALUES, 1, vr, &t)) && !(rc = cell_str(w, V_SAMPLE_VALUES, 2, vr, &u)) &&
            !(rc = bcheck(w, pcol_b_value_type(w->b, t, u, &vals[nv].value_type_id, NULL), V_SAMPLE_VALUES, vr)))
          rc = cell_i64(w, V_SAMPLE_VALUES, 3, vr, 0, &vals[nv].value);
      }
      if (rc) break;
    }
    rc = pcol_b_sample(w->b, &s, vals, nv, &w->m[V_SAMPLES].newid[r], NULL);
    if (rc == PCOL_EINVAL)
      rc = werr(w, rc, V_SAMPLES, -1, r,
                "refused: samples must be grouped by source_id, in time order within a source");
    else if (rc) rc = bcheck(w, rc, V_SAMPLES, r);
  }
out:
  groups_free(&gv);
  groups_free(&gl);
  groups_free(&gb);
  free(locs);
  free(vals);
  free(labs);
  return rc;
}

static int w_text(wctx *w) {
  int rc = 0;
  for (uint64_t r = 0; !rc && has_table(w, V_TEXT_LINES) && r < wt(w, V_TEXT_LINES)->nrows; r++) {
    uint32_t src;
    int64_t k;
    const char *p;
    size_t len;
    if ((rc = cell_ref(w, V_TEXT_LINES, 0, r, V_SOURCES, 0, &src)) || (rc = cell_i64(w, V_TEXT_LINES, 1, r, 0, &k)) ||
        (rc = cell_bytes(w, V_TEXT_LINES, 2, r, &p, &len)))
      break;
    /* before_sample is a sample id, or one past the last sample */
    int64_t row = map_row(&w->m[V_SAMPLES], k);
    uint64_t before;
    if (row >= 0) before = w->m[V_SAMPLES].newid[row];
    else if (k >= 1 && (uint64_t)k == w->m[V_SAMPLES].n + 1) before = pcol_b_sample_count(w->b) + 1;
    else {
      rc = werr(w, PCOL_EINVAL, V_TEXT_LINES, 1, r, "not a sample id (nor one past the last)");
      break;
    }
    rc = bcheck(w, pcol_b_text_line(w->b, src, before, p, len, NULL), V_TEXT_LINES, r);
  }
  for (uint64_t r = 0; !rc && has_table(w, V_SAMPLE_TEXT) && r < wt(w, V_SAMPLE_TEXT)->nrows; r++) {
    uint32_t sid;
    const char *p;
    size_t len;
    if (!(rc = cell_ref(w, V_SAMPLE_TEXT, 0, r, V_SAMPLES, 0, &sid)) && !(rc = cell_bytes(w, V_SAMPLE_TEXT, 1, r, &p, &len)))
      rc = bcheck(w, pcol_b_sample_text(w->b, sid, p, len, NULL), V_SAMPLE_TEXT, r);
  }
  return rc;
}

static int w_models(wctx *w) {
  int rc = 0;
  for (uint64_t r = 0; !rc && has_table(w, V_MODELS) && r < wt(w, V_MODELS)->nrows; r++) {
    pcol_model_row m;
    if (!(rc = cell_ref(w, V_MODELS, 1, r, V_SOURCES, 0, &m.source_id)) && !(rc = cell_str(w, V_MODELS, 2, r, &m.uid)) &&
        !(rc = cell_str(w, V_MODELS, 3, r, &m.model)) && !(rc = cell_str(w, V_MODELS, 4, r, &m.method)) &&
        !(rc = cell_f64(w, V_MODELS, 5, r, &m.r_square)) && !(rc = cell_f64(w, V_MODELS, 6, r, &m.x_start)) &&
        !(rc = cell_f64(w, V_MODELS, 7, r, &m.x_end)) && !(rc = cell_str(w, V_MODELS, 8, r, &m.coeffs)))
      rc = bcheck(w, pcol_b_model(w->b, &m, NULL), V_MODELS, r);
  }
  return rc;
}

int pcb_write(const pcb_input *in, const char *path, int compress_lz4, pcol_error *err) {
  wctx w = {0};
  w.in = in;
  w.err = err;
  int rc = pcol_builder_new(&w.b, err);
  if (rc) return rc;
  if (!(rc = w_strings(&w)) && !(rc = w_sources(&w)) && !(rc = w_meta(&w)) && !(rc = w_value_types(&w)) &&
      !(rc = w_functions(&w)) && !(rc = w_mappings(&w)) && !(rc = w_locations(&w)) && !(rc = w_stacks(&w)) &&
      !(rc = w_samples(&w)) && !(rc = w_text(&w)) && !(rc = w_models(&w))) {
    pcol_write_options opt = {0};
    opt.compress_lz4 = compress_lz4;
    rc = pcol_builder_write(w.b, path, &opt, err);
  }
  pcol_builder_free(w.b);
  for (int v = 0; v < PCB_NVIEWS; v++) {
    free(w.m[v].key);
    free(w.m[v].row);
    free(w.m[v].newid);
  }
  return rc;
}

/* ------------------------------------------------------------ streaming writer */

static void pcb_on_file(void *ctx, const char *path) {
  pcb_writer *pw = ctx;
  if (pw->nfiles == pw->cap) {
    size_t cap = pw->cap ? 2 * pw->cap : 8;
    char **f = realloc(pw->files, cap * sizeof *f);
    if (!f) { pw->oom = 1; return; }
    pw->files = f;
    pw->cap = cap;
  }
  char *p = strdup(path);
  if (!p) { pw->oom = 1; return; }
  pw->files[pw->nfiles++] = p;
}

int pcb_writer_open(pcb_writer **out, const char *path, const pcol_writer_options *opt, pcol_error *err) {
  *out = NULL;
  pcb_writer *pw = calloc(1, sizeof *pw);
  if (!pw) return oom(err);
  pcol_writer_options o = *opt;
  o.on_file = pcb_on_file;
  o.ctx = pw;
  int rc = pcol_writer_open(&pw->w, path, &o, err);
  if (rc) { free(pw); return rc; }
  *out = pw;
  return PCOL_OK;
}

int pcb_writer_close(pcb_writer *pw, pcol_error *err) {
  if (!pw || !pw->w) return PCOL_OK;
  int rc = pcol_writer_close(pw->w, err);
  pw->w = NULL;
  if (!rc && pw->oom) rc = oom(err);
  return rc;
}

void pcb_writer_free(pcb_writer *pw) {
  if (!pw) return;
  pcol_error e = {0};
  pcb_writer_close(pw, &e);
  for (size_t i = 0; i < pw->nfiles; i++) free(pw->files[i]);
  free(pw->files);
  free(pw);
}

int pcb_writer_add(pcb_writer *pw, const pcb_wbatch *b, size_t *done, pcol_error *err) {
  *done = 0;
  if (!pw || !pw->w) return pcol_error_set(err, PCOL_EINVAL, "the writer is closed");
  size_t maxf = 0, maxl = 0;
  for (size_t i = 0; i < b->n; i++) {
    if (b->frame_off[i + 1] < b->frame_off[i] || (b->label_off && b->label_off[i + 1] < b->label_off[i]))
      return pcol_error_set(err, PCOL_EINVAL, "sample %zu: bad frame or label offsets", i + 1);
    size_t nf = b->frame_off[i + 1] - b->frame_off[i], nl = b->label_off ? b->label_off[i + 1] - b->label_off[i] : 0;
    if (nf > maxf) maxf = nf;
    if (nl > maxl) maxl = nl;
  }
  pcol_writer_frame *fr = calloc(maxf ? maxf : 1, sizeof *fr);
  pcol_writer_label *lb = calloc(maxl ? maxl : 1, sizeof *lb);
  int rc = PCOL_OK;
  if (!fr || !lb) rc = oom(err);
  for (size_t i = 0; !rc && i < b->n; i++) {
    size_t f0 = b->frame_off[i], nf = b->frame_off[i + 1] - f0;
    for (size_t k = 0; k < nf; k++) { /* root first in, innermost first out */
      size_t j = f0 + nf - 1 - k;
      fr[k] = (pcol_writer_frame){b->function[j], b->file ? b->file[j] : NULL,
                                  b->line ? b->line[j] : PCOL_NA_I64, 0};
    }
    size_t l0 = b->label_off ? b->label_off[i] : 0, nl = b->label_off ? b->label_off[i + 1] - l0 : 0;
    for (size_t k = 0; k < nl; k++)
      lb[k] = (pcol_writer_label){b->label_key[l0 + k], b->label_str[l0 + k],
                                  b->label_str[l0 + k] ? 0 : b->label_num[l0 + k], NULL};
    pcol_writer_sample s = {0};
    s.frames = nf ? fr : NULL;
    s.nframes = nf;
    s.values = b->values + i * b->nvalues;
    s.nvalues = b->nvalues;
    if (b->time_ns && b->time_ns[i] != PCOL_NA_I64) {
      s.has_time = 1;
      s.time_unix_ns = b->time_ns[i];
    }
    s.weight = b->weight ? b->weight[i] : 0;
    s.labels = nl ? lb : NULL;
    s.nlabels = nl;
    if ((rc = pcol_writer_add(pw->w, &s, err))) {
      char m[sizeof err->message];
      memcpy(m, err->message, sizeof m);
      m[sizeof m - 40] = 0; /* room for the prefix */
      pcol_error_set(err, rc, "sample %zu: %s", i + 1, m);
    } else {
      ++*done;
    }
  }
  free(fr);
  free(lb);
  if (!rc && pw->oom) rc = oom(err);
  return rc;
}

/* --------------------------------------------------------------- inputs */

char *pcb_inputs_notes(const pcol_inputs *in) {
  size_t a = in->index_note ? strlen(in->index_note) + 1 : 0, b = in->skipped ? strlen(in->skipped) : 0;
  if (!a && !b) return NULL;
  char *s = malloc(a + b + 1);
  if (!s) return NULL;
  if (a) snprintf(s, a + 1, "%s\n", in->index_note);
  memcpy(s + a, b ? in->skipped : "", b + 1);
  return s;
}

int pcb_open_inputs(const pcol_inputs *in, const pcol_open_options *opt, const pcol_select *sel,
                    pcol_file **out, pcol_error *err) {
  pcol_open_options o = {0};
  if (opt) o = *opt;
  if (!in->many && in->n == 1) return pcol_open_any(in->paths[0], &o, out, err);
  const char **names = NULL; /* the index by its name, not its descriptor's */
  if (in->first_is_union) {
    o.first_is_union = 1;
    o.given_bytes = in->given_bytes;
    if (!o.names && !(names = calloc(in->n, sizeof *names))) return oom(err);
    if (names) names[0] = in->index_name, o.names = names;
  }
  int rc = pcol_open_many((const char *const *)in->paths, in->n, &o, sel, out, NULL, err);
  if (rc) pcol_inputs_explain(in, err); /* a README in a directory, as the CLI says */
  free(names);
  return rc;
}

int pcb_open(const char *path, const pcol_open_options *opt, pcol_file **out, char **notes,
             pcol_error *err) {
  pcol_inputs in;
  pcol_inputs_options io = {0};
  io.index = 1; /* the range is applied to the file opened: the index stands for the files */
  *out = NULL;
  *notes = NULL;
  int rc = pcol_inputs_expand(&path, 1, &io, &in, err);
  *notes = pcb_inputs_notes(&in);
  if (!rc) rc = pcb_open_inputs(&in, opt, NULL, out, err);
  pcol_inputs_free(&in);
  if (rc == PCOL_OK && err && err->message[0] != 0) { /* an importer's warning: after the expansion's, as the CLI */
    size_t a = *notes ? strlen(*notes) : 0, b = strlen(err->message);
    char *s = realloc(*notes, a + b + 2);
    if (s) {
      memcpy(s + a, err->message, b);
      memcpy(s + a + b, "\n", 2);
      *notes = s;
    }
    err->message[0] = 0;
  }
  return rc;
}

/* a line of pcol_view_notes, after the lines before it */
typedef struct value_lines {
  int kinds; /* each line begins "warning: " or "note: " */
  const char *const *label; /* of each input */
  size_t n;
  char *buf;
  size_t len;
  int oom;
} value_lines;
/* p[0..n) onto l->buf by the text rule (pcol_text_char: a control byte or
 * an invalid UTF-8 one as \xNN), as the CLI prints a note: the lines quote
 * file data (names, URIs) that R's warning() and Python's warnings and
 * DuckDB's stderr would otherwise pass to a terminal raw (rd11 F10) */
static void put_escaped(value_lines *l, const char *p, size_t n) {
  char e[9];
  for (size_t i = 0; i < n && !l->oom;) {
    size_t k = pcol_text_char(p, n, &i, false, e);
    char *s = realloc(l->buf, l->len + k + 2);
    if (!s) {
      l->oom = 1;
      return;
    }
    memcpy(s + l->len, e, k);
    l->buf = s;
    l->len += k;
    s[l->len] = 0;
  }
}
static void value_line(void *ctx, size_t input, const char *text, bool warning) {
  value_lines *l = ctx;
  const char *kind = !l->kinds ? "" : warning ? "warning: " : "note: ";
  const char *label = input < l->n && l->label ? l->label[input] : NULL; /* (a filter's names none) */
  put_escaped(l, kind, strlen(kind));
  if (label) {
    put_escaped(l, label, strlen(label));
    put_escaped(l, ": ", 2);
  }
  put_escaped(l, text, strlen(text));
  char *s = l->oom ? NULL : realloc(l->buf, l->len + 2);
  if (!s) {
    l->oom = 1;
    return;
  }
  memcpy(s + l->len, "\n", 2);
  l->buf = s;
  l->len += 1;
}

char *pcb_view_notes(pcol_file *const *f, size_t n, const char *by, const pcol_select *sel,
                     const pcol_select *const *sels, const pcol_value_sel *v, int asked, const char *const *label, const char *advice,
                     int kinds) {
  value_lines l = {kinds, label, n, NULL, 0, 0};
  pcol_error e = {0};
  /* top by "label:KEY": its filters see KEY's frames (pcol_view_notes' by_label) */
  const char *key = by && !strncmp(by, "label:", 6) ? by + 6 : NULL;
  if (pcol_view_notes(f, n, key, sel, sels, v, asked != 0, advice, value_line, &l, &e)) {
    /* a damaged table, a bad filter: the view says so */
  }
  return l.buf;
}
