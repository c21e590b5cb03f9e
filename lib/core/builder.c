/* builder.c — in-memory tables that importers fill and the writer stores.
 *
 * Every table is kept column-wise in growable buffers, in exactly the layout
 * the file will hold, so writing is a copy.  Strings, value types, functions,
 * locations, stack nodes and label sets are deduplicated through hash sets.
 */
#include "pcol.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK */
#include "schema.h"   /* pcol_type_width */
#include "buf.h"      /* pcol_buf, pcol_buf_reserve, PCOL_BUF_PUSH, ... */
#include "hash.h"     /* pcol_hs_add, pcol_hset_find, pcol_hset_free, ... */
#include "builder.h"  /* pcol_bt_push_u32, pcol_btable, pcol_bt_push_u64, ... */
#include "summary.h"  /* pcol_bsum_add, pcol_bsum_free */
#include "spill.h"    /* pcol_b_col_append, pcol_b_spill_check, pcol_b_spill_free */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define BT(b, table) (&(b)->t[table])
#define COL(b, table, c) (&(b)->t[table].cols[(c)-1])

int pcol_bt_push_u32(pcol_btable *t, int col, uint32_t v) {
  return PCOL_BUF_PUSH(&t->cols[col - 1], uint32_t, v);
}
int pcol_bt_push_u64(pcol_btable *t, int col, uint64_t v) {
  return PCOL_BUF_PUSH(&t->cols[col - 1], uint64_t, v);
}
int pcol_bt_push_i64(pcol_btable *t, int col, int64_t v) {
  return PCOL_BUF_PUSH(&t->cols[col - 1], int64_t, v);
}
int pcol_bt_push_u8(pcol_btable *t, int col, uint8_t v) {
  return PCOL_BUF_PUSH(&t->cols[col - 1], uint8_t, v);
}
int pcol_bt_push_f64(pcol_btable *t, int col, double v) {
  return PCOL_BUF_PUSH(&t->cols[col - 1], double, v);
}

#define u32_at pcol_buf_get32 /* buf.h */
static inline uint64_t u64_at(const pcol_buf *b, uint64_t i) {
  uint64_t v;
  memcpy(&v, b->data + i * 8, 8);
  return v;
}
#define i64_at pcol_buf_get64

/* Ids are u32; refuse to wrap. */
static int next_id(uint64_t rows, uint32_t *id) {
  if (rows >= UINT32_MAX - 1) return PCOL_ETOOBIG;
  *id = (uint32_t)rows + 1;
  return PCOL_OK;
}

/* An empty builder's first rows, into b zeroed (its buffers may hold
 * memory kept by pcol_builder_reset, each of length 0).  PCOL_OK or
 * PCOL_ENOMEM. */
static int builder_init(pcol_builder *b) {
  /* strings: id 0 is NA (empty), so offsets start [0, 0]. */
  int rc = pcol_bt_push_u64(BT(b, PCOL_T_STRINGS), PCOL_C_STRINGS_OFFSETS, 0);
  rc |= pcol_bt_push_u64(BT(b, PCOL_T_STRINGS), PCOL_C_STRINGS_OFFSETS, 0);
  rc |= pcol_bt_push_u64(BT(b, PCOL_T_LOCATIONS), PCOL_C_LOC_LINE_OFFSETS, 0);
  rc |= pcol_bt_push_u64(BT(b, PCOL_T_SAMPLES), PCOL_C_S_VALUE_OFFSETS, 0);
  rc |= pcol_bt_push_u64(BT(b, PCOL_T_LABELSETS), PCOL_C_LS_OFFSETS, 0);
  if (rc) return PCOL_ENOMEM;
  const pcol_table_info *si = pcol_table_info_get(PCOL_T_SAMPLES);
  for (size_t c = 0; c < si->ncolumns; c++) {
    size_t w = pcol_type_width(si->columns[c].type);
    uint64_t d = (uint64_t)si->columns[c].dflt;
    b->sdflt[c] = w < 8 ? d & (((uint64_t)1 << (8 * w)) - 1) : d;
  }
  b->t[PCOL_T_STRINGS].rows = 1;
  b->string_count = 1;
  b->vimplicit = 1;
  return PCOL_OK;
}

int pcol_builder_new(pcol_builder **out, pcol_error *err) {
  pcol_builder *b = calloc(1, sizeof *b);
  if (!b || builder_init(b)) {
    pcol_builder_free(b);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  *out = b;
  return PCOL_OK;
}

/* pcol_builder_reset's rule: memory the last profile used a quarter of at
 * least is kept (a table grows by doubling: it is then at least 3/8 full),
 * the rest freed, so that a small profile after a big one neither keeps
 * nor clears the big one's tables. */
static void keep_buf(pcol_buf *to, pcol_buf *from) {
  if (from->cap && from->len >= from->cap / 4) *to = *from, to->len = 0, from->data = NULL;
}
static void keep_set(pcol_hset *to, pcol_hset *from) {
  if (!from->cap || from->count < from->cap / 4) return;
  memset(from->e, 0, from->cap * sizeof *from->e);
  to->e = from->e, to->cap = from->cap, from->e = NULL;
}

int pcol_builder_reset(pcol_builder **bp, pcol_error *err) {
  pcol_builder *b = *bp, *nb = calloc(1, sizeof *nb);
  if (!nb) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  int spilled = b->spilling;
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < PCOL_MAX_COLUMNS; c++) spilled |= b->spill[k][c].fd > 0;
  if (!spilled) { /* (a spilled builder's columns are in files: not kept) */
    for (int i = 0; i < PCOL_T_COUNT_; i++)
      for (int c = 0; c < PCOL_MAX_COLUMNS; c++) keep_buf(&nb->t[i].cols[c], &b->t[i].cols[c]);
    pcol_hset *from[] = {&b->strings, &b->value_types, &b->functions,
                         &b->mappings, &b->locations, &b->labelsets, &b->mapkeys};
    pcol_hset *to[] = {&nb->strings, &nb->value_types, &nb->functions,
                       &nb->mappings, &nb->locations, &nb->labelsets, &nb->mapkeys};
    for (size_t k = 0; k < sizeof from / sizeof *from; k++) keep_set(to[k], from[k]);
    pcol_nodeset *ns = &b->stacks;
    if (ns->cap && ns->count >= ns->cap / 4) {
      memset(ns->e, 0, ns->cap * PCOL_NODE_W * sizeof *ns->e);
      nb->stacks.e = ns->e, nb->stacks.cap = ns->cap, ns->e = NULL;
      keep_buf(&nb->stacks.ph, &ns->ph);
    }
  }
  pcol_builder_free(b);
  *bp = nb;
  if (builder_init(nb)) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  return PCOL_OK;
}

void pcol_builder_free(pcol_builder *b) {
  if (!b) return;
  for (int i = 0; i < PCOL_T_COUNT_; i++)
    for (int c = 0; c < 16; c++) pcol_buf_free(&b->t[i].cols[c]);
  pcol_hset_free(&b->strings);
  pcol_hset_free(&b->value_types);
  pcol_hset_free(&b->functions);
  pcol_hset_free(&b->mappings);
  pcol_hset_free(&b->mapkeys);
  pcol_hset_free(&b->locations);
  free(b->stacks.e);
  pcol_buf_free(&b->stacks.ph);
  free(b->vpat);
  pcol_hset_free(&b->labelsets);
  free(b->ls_last);
  pcol_b_spill_free(b);
  pcol_bsum_free(b);
  free(b);
}

/* ------------------------------------------------------------- strings */
typedef struct {
  const void *p;
  size_t n;
} bytes_key;

pcol_str pcol_b_string_get(const pcol_builder *b, uint32_t id) {
  pcol_str s = {NULL, 0};
  if (id == 0 || id >= b->string_count) return s;
  const pcol_buf *off = &b->t[PCOL_T_STRINGS].cols[PCOL_C_STRINGS_OFFSETS - 1];
  const pcol_buf *by = &b->t[PCOL_T_STRINGS].cols[PCOL_C_STRINGS_BYTES - 1];
  uint64_t a = u64_at(off, id), e = u64_at(off, id + 1);
  s.ptr = by->data ? (const char *)by->data + a : "";
  s.len = (size_t)(e - a);
  return s;
}

static int string_eq(const void *ctx, uint32_t id, const void *key) {
  const bytes_key *k = key;
  pcol_str s = pcol_b_string_get(ctx, id);
  return s.len == k->n && (k->n == 0 || memcmp(s.ptr, k->p, k->n) == 0);
}

static int b_string(pcol_builder *b, const void *ptr, size_t len, uint32_t *id) {
  if (!ptr) {
    *id = 0;
    return PCOL_OK;
  }
  bytes_key k = {ptr, len};
  uint64_t h = pcol_hash_bytes(ptr, len, 0);
  uint32_t found = pcol_hset_find(&b->strings, h, string_eq, b, &k);
  if (found) {
    *id = found;
    return PCOL_OK;
  }
  if (b->string_count >= UINT32_MAX - 1) return PCOL_ETOOBIG;
  pcol_btable *t = BT(b, PCOL_T_STRINGS);
  PCOL_RETURN_NOT_OK(pcol_buf_append(&t->cols[PCOL_C_STRINGS_BYTES - 1], ptr, len));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_STRINGS_OFFSETS,
                         t->cols[PCOL_C_STRINGS_BYTES - 1].len));
  uint32_t nid = (uint32_t)b->string_count;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&b->strings, h, nid));
  b->string_count++;
  t->rows = b->string_count;
  *id = nid;
  return PCOL_OK;
}

static int b_cstr(pcol_builder *b, const char *s, uint32_t *id) {
  return b_string(b, s, s ? strlen(s) : 0, id);
}

/* ------------------------------------------------------ sources, meta */
static int b_source_sid(pcol_builder *b, uint32_t type_sid, uint32_t uri_sid, int64_t timestamp,
                      uint32_t *source_id) {
  uint32_t id;
  pcol_btable *t = BT(b, PCOL_T_SOURCES);
  if (type_sid >= b->string_count || uri_sid >= b->string_count) return PCOL_EINVAL;
  PCOL_RETURN_NOT_OK(next_id(t->rows, &id));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_SOURCES_TYPE, type_sid));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_SOURCES_URI, uri_sid));
  PCOL_RETURN_NOT_OK(pcol_bt_push_i64(t, PCOL_C_SOURCES_TIMESTAMP, timestamp));
  t->rows++;
  *source_id = id;
  return PCOL_OK;
}

int pcol_b_source_timestamp_set(pcol_builder *b, uint32_t source_id, int64_t timestamp) {
  pcol_buf *c = COL(b, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP);
  if (source_id == 0 || source_id > BT(b, PCOL_T_SOURCES)->rows || (size_t)source_id * 8 > c->len)
    return PCOL_EINVAL;
  memcpy(c->data + ((size_t)source_id - 1) * 8, &timestamp, 8);
  return PCOL_OK;
}

static int b_source(pcol_builder *b, const char *type, const char *uri,
                  int64_t timestamp, uint32_t *source_id) {
  uint32_t ts, us;
  PCOL_RETURN_NOT_OK(b_cstr(b, type, &ts));
  PCOL_RETURN_NOT_OK(b_cstr(b, uri, &us));
  return b_source_sid(b, ts, us, timestamp, source_id);
}

static int b_source_n(pcol_builder *b, const char *type, const char *uri, size_t ulen, int64_t timestamp,
                      uint32_t *source_id) {
  uint32_t ts, us;
  PCOL_RETURN_NOT_OK(b_cstr(b, type, &ts));
  PCOL_RETURN_NOT_OK(b_string(b, uri, ulen, &us));
  return b_source_sid(b, ts, us, timestamp, source_id);
}

static int b_meta_sid(pcol_builder *b, uint32_t source_id, uint32_t key_sid, uint32_t value_sid) {
  pcol_btable *t = BT(b, PCOL_T_META);
  if (source_id > b->t[PCOL_T_SOURCES].rows || key_sid >= b->string_count ||
      value_sid >= b->string_count)
    return PCOL_EINVAL;
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_META_KEY, key_sid));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_META_VALUE, value_sid));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_META_SOURCE, source_id));
  t->rows++;
  return PCOL_OK;
}

static int b_meta(pcol_builder *b, uint32_t source_id, const char *key,
                const void *value, size_t value_len) {
  uint32_t ks, vs;
  if (source_id > b->t[PCOL_T_SOURCES].rows) return PCOL_EINVAL;
  PCOL_RETURN_NOT_OK(b_cstr(b, key, &ks));
  PCOL_RETURN_NOT_OK(b_string(b, value, value_len, &vs));
  return b_meta_sid(b, source_id, ks, vs);
}

static int b_meta_str(pcol_builder *b, uint32_t source_id, const char *key,
                    const char *value) {
  return b_meta(b, source_id, key, value, value ? strlen(value) : 0);
}

/* -------------------------------------------------------- value types */
typedef struct {
  uint32_t a, b;
} pair_key;

static int vt_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_builder *b = ctx;
  const pair_key *k = key;
  return u32_at(COL(b, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE), id - 1) == k->a &&
         u32_at(COL(b, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT), id - 1) == k->b;
}

static int b_value_type(pcol_builder *b, uint32_t type_sid, uint32_t unit_sid,
                      uint32_t *vt_id) {
  pair_key k = {type_sid, unit_sid};
  uint64_t h = pcol_hash2(1, type_sid, unit_sid);
  uint32_t found = pcol_hset_find(&b->value_types, h, vt_eq, b, &k);
  if (found) {
    *vt_id = found;
    return PCOL_OK;
  }
  pcol_btable *t = BT(b, PCOL_T_VALUE_TYPES);
  uint32_t id;
  PCOL_RETURN_NOT_OK(next_id(t->rows, &id));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_VT_TYPE, type_sid));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_VT_UNIT, unit_sid));
  t->rows++;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&b->value_types, h, id));
  *vt_id = id;
  return PCOL_OK;
}

static int b_source_value_type(pcol_builder *b, uint32_t source_id, uint32_t vt_id) {
  pcol_btable *t = BT(b, PCOL_T_SOURCE_VALUE_TYPES);
  if (source_id == 0 || source_id > b->t[PCOL_T_SOURCES].rows || vt_id == 0 ||
      vt_id > b->t[PCOL_T_VALUE_TYPES].rows)
    return PCOL_EINVAL;
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_SVT_SOURCE, source_id));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_SVT_VALUE_TYPE, vt_id));
  t->rows++;
  return PCOL_OK;
}

/* ---------------------------------------------------------- functions */
/* a line number as b compares it: NA is pprof's 0 under merge_ids */
static int64_t id_line(const pcol_builder *b, int64_t v) {
  return b->merge_ids && v == PCOL_NA_I64 ? 0 : v;
}

static int fn_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_builder *b = ctx;
  const pcol_function_row *k = key;
  uint64_t r = id - 1;
  return u32_at(COL(b, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME), r) == k->name &&
         u32_at(COL(b, PCOL_T_FUNCTIONS, PCOL_C_FN_SYSTEM_NAME), r) == k->system_name &&
         u32_at(COL(b, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME), r) == k->filename &&
         id_line(b, i64_at(COL(b, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE), r)) == id_line(b, k->start_line);
}

static int b_function(pcol_builder *b, const pcol_function_row *fn, uint32_t *id) {
  pcol_hstate hs;
  pcol_hs_init(&hs, 2);
  pcol_hs_add(&hs, ((uint64_t)fn->name << 32) | fn->system_name);
  pcol_hs_add(&hs, fn->filename);
  pcol_hs_add(&hs, (uint64_t)id_line(b, fn->start_line));
  uint64_t h = pcol_hs_end(&hs);
  uint32_t found = pcol_hset_find(&b->functions, h, fn_eq, b, fn);
  if (found) {
    *id = found;
    return PCOL_OK;
  }
  pcol_btable *t = BT(b, PCOL_T_FUNCTIONS);
  uint32_t nid;
  PCOL_RETURN_NOT_OK(next_id(t->rows, &nid));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_FN_NAME, fn->name));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_FN_SYSTEM_NAME, fn->system_name));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_FN_FILENAME, fn->filename));
  PCOL_RETURN_NOT_OK(pcol_bt_push_i64(t, PCOL_C_FN_START_LINE, fn->start_line));
  t->rows++;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&b->functions, h, nid));
  *id = nid;
  return PCOL_OK;
}

/* ----------------------------------------------------------- mappings */
static int map_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_builder *b = ctx;
  const pcol_mapping_row *k = key;
  uint64_t r = id - 1;
  return u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_START), r) == k->memory_start &&
         u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_LIMIT), r) == k->memory_limit &&
         u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_OFFSET), r) == k->file_offset &&
         u32_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME), r) == k->filename &&
         u32_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_BUILD_ID), r) == k->build_id &&
         (b->merge_ids || COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_FLAGS)->data[r] == k->flags);
}

/* map_eq for the rows with ids up to below (b_mapping) */
typedef struct {
  pcol_mapping_row row;
  uint32_t below;
} below_key;
static int map_eq_below(const void *ctx, uint32_t id, const void *key) {
  const below_key *k = key;
  return id <= k->below && map_eq(ctx, id, &k->row);
}

/* (under merge_ids, the flags are not part of it: go's mappingKey) */
static uint64_t map_hash(const pcol_builder *b, const pcol_mapping_row *m) {
  pcol_hstate hs;
  pcol_hs_init(&hs, 3);
  pcol_hs_add(&hs, m->memory_start);
  pcol_hs_add(&hs, m->memory_limit);
  pcol_hs_add(&hs, m->file_offset);
  pcol_hs_add(&hs, ((uint64_t)m->filename << 32) | m->build_id);
  pcol_hs_add(&hs, b->merge_ids ? 0 : m->flags);
  return pcol_hs_end(&hs);
}

/* go's merge key of a mapping (merge.go Mapping.key, mapsizeRounding):
 * its size rounded up to 4 KiB (in uint64, as go's), its file offset, and
 * its build id, else its file name, else none (0: a fake mapping) */
typedef struct {
  uint64_t size, offset;
  uint32_t ident, below, first; /* first: the lowest matching id (0: none) */
} map_mkey;
static map_mkey map_merge_key(const pcol_builder *b, const pcol_mapping_row *m) {
  uint64_t size = m->memory_limit - m->memory_start + 0xfff;
  /* by the strings' bytes, as go's `BuildID != ""`: a stored "" (a pprof
   * table's second "", an OTLP attribute's empty value) is none */
  uint32_t ident = pcol_b_string_get(b, m->build_id).len  ? m->build_id
                   : pcol_b_string_get(b, m->filename).len ? m->filename
                                                          : 0;
  map_mkey k = {size - size % 0x1000, m->file_offset, ident, 0, 0};
  return k;
}
static uint64_t map_mkey_hash(const map_mkey *k) {
  return pcol_hash2(7, pcol_hash2(7, k->size, k->offset), k->ident);
}
static pcol_mapping_row map_row(const pcol_builder *b, uint32_t id) {
  uint64_t r = id - 1;
  pcol_mapping_row m = {u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_START), r),
                        u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_LIMIT), r),
                        u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_OFFSET), r),
                        u32_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME), r),
                        u32_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_BUILD_ID), r),
                        COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_FLAGS)->data[r]};
  return m;
}
/* notes the lowest id of k's key up to k->below, and goes on: the probe
 * order of equal hashes is not the ids' once the set has grown */
static int map_mkey_note(const void *ctx, uint32_t id, const void *key) {
  map_mkey *k = (map_mkey *)(uintptr_t)key;
  if (id > k->below || (k->first && id > k->first)) return 0;
  pcol_mapping_row m = map_row(ctx, id);
  map_mkey o = map_merge_key(ctx, &m);
  if (o.size == k->size && o.offset == k->offset && o.ident == k->ident) k->first = id;
  return 0;
}

/* Mapping row m: an equal row with an id up to below is m's id (below
 * UINT32_MAX: any equal row, pcol_b_mapping's dedup; 0: none, a row of
 * its own), else m is added. */
static int b_mapping(pcol_builder *b, const pcol_mapping_row *m, uint32_t below, uint32_t *id) {
  if (m->flags & ~0x0f) return PCOL_EINVAL; /* spec.md §5: unknown bits */
  uint64_t h = map_hash(b, m);
  if (below) {
    below_key k = {*m, below};
    uint32_t found = pcol_hset_find(&b->mappings, h, map_eq_below, b, &k);
    if (found) {
      *id = found;
      return PCOL_OK;
    }
  }
  pcol_btable *t = BT(b, PCOL_T_MAPPINGS);
  uint32_t nid;
  PCOL_RETURN_NOT_OK(next_id(t->rows, &nid));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_MAP_START, m->memory_start));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_MAP_LIMIT, m->memory_limit));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_MAP_OFFSET, m->file_offset));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_MAP_FILENAME, m->filename));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_MAP_BUILD_ID, m->build_id));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u8(t, PCOL_C_MAP_FLAGS, m->flags));
  t->rows++;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&b->mappings, h, nid));
  /* only the first row of a key is in the set (the one a later row
   * shares): rows of one key would make one probe chain, each lookup a
   * walk of all of them (O(n^2) over a file of n such rows, rd16b F2) */
  map_mkey mk = map_merge_key(b, m);
  mk.below = UINT32_MAX;
  uint64_t mh = map_mkey_hash(&mk);
  (void)pcol_hset_find(&b->mapkeys, mh, map_mkey_note, b, &mk);
  if (!mk.first) PCOL_RETURN_NOT_OK(pcol_hset_insert(&b->mapkeys, mh, nid));
  *id = nid;
  return PCOL_OK;
}

/* a row of no earlier profile's key (id <= below) is added (a row of its
 * own); else that earlier row is m's, *shift what m's addresses gain in it */
static int b_mapping_shared(pcol_builder *b, const pcol_mapping_row *m, uint32_t below, uint32_t *id,
                            uint64_t *shift) {
  *shift = 0;
  if (m->flags & ~0x0f) return PCOL_EINVAL;
  map_mkey k = map_merge_key(b, m);
  k.below = below;
  if (below) (void)pcol_hset_find(&b->mapkeys, map_mkey_hash(&k), map_mkey_note, b, &k);
  if (k.first) {
    *id = k.first;
    *shift = u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_START), k.first - 1) - m->memory_start;
    return PCOL_OK;
  }
  return b_mapping(b, m, 0, id);
}

/* a profile's rows by merge key, a key's rows by rank, then index (mkey_cmp) */
typedef struct {
  uint64_t size, offset, rank;
  uint32_t ident;
  size_t ix;
} map_ord;
static int mkey_cmp(const void *x, const void *y) {
  const map_ord *a = x, *c = y;
  if (a->size != c->size) return a->size < c->size ? -1 : 1;
  if (a->offset != c->offset) return a->offset < c->offset ? -1 : 1;
  if (a->ident != c->ident) return a->ident < c->ident ? -1 : 1;
  if (a->rank != c->rank) return a->rank < c->rank ? -1 : 1;
  return a->ix < c->ix ? -1 : a->ix > c->ix;
}
static int mkey_same(const map_ord *a, const map_ord *c) {
  return a->size == c->size && a->offset == c->offset && a->ident == c->ident;
}

/* pcol_b_mapping_first_kept */
int pcol_b_mapping_first_kept(const pcol_builder *b) { return b->t[PCOL_T_MAPPINGS].rows == 0; }

/* m[0..n) sorted by key into *out (n + 1 entries), a key's rows by the
 * rank go's profile.Merge meets them in (reach NULL: by index): the
 * profile's first row ahead of all when it is the builder's first profile
 * of mappings (pcol_b_mapping_first_kept: merge.go maps src.Mapping[0] first), then by
 * reach (a row no sample reaches after those that are), then by index */
static int mkeys_sorted(const pcol_builder *b, const pcol_mapping_row *m, size_t n, const uint64_t *reach,
                        map_ord **out) {
  int first = pcol_b_mapping_first_kept(b);
  *out = NULL;
  for (size_t i = 0; i < n; i++)
    if (m[i].flags & ~0x0f) return PCOL_EINVAL;
  if (n > SIZE_MAX / sizeof(map_ord) - 1) return PCOL_ENOMEM;
  map_ord *o = malloc((n + 1) * sizeof *o);
  if (!o) return PCOL_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    map_mkey k = map_merge_key(b, &m[i]);
    uint64_t r = !reach || (i == 0 && first) ? 0 : reach[i] == UINT64_MAX ? UINT64_MAX : reach[i] + 1;
    o[i] = (map_ord){k.size, k.offset, r, k.ident, i};
  }
  qsort(o, n, sizeof *o, mkey_cmp);
  *out = o;
  return PCOL_OK;
}

/* pcol_b_mappings_repeat: a key of rows that differ, and whose row kept
 * is none of an earlier profile nor the first row ahead of all */
static int b_mappings_repeat(const pcol_builder *b, const pcol_mapping_row *m, size_t n, int *repeat) {
  map_ord *o;
  uint32_t below = (uint32_t)b->t[PCOL_T_MAPPINGS].rows;
  *repeat = 0;
  PCOL_RETURN_NOT_OK(mkeys_sorted(b, m, n, NULL, &o));
  for (size_t g = 0, e; g < n && !*repeat; g = e) {
    int differ = 0, first = pcol_b_mapping_first_kept(b) && o[g].ix == 0; /* (sorted by index in a key) */
    for (e = g + 1; e < n && mkey_same(&o[e], &o[g]); e++) {
      const pcol_mapping_row *x = &m[o[e].ix], *y = &m[o[e - 1].ix];
      differ |= x->memory_start != y->memory_start || x->memory_limit != y->memory_limit ||
                x->filename != y->filename || x->build_id != y->build_id || x->flags != y->flags;
    }
    if (!differ || first) continue;
    map_mkey k = map_merge_key(b, &m[o[g].ix]);
    k.below = below;
    if (below) (void)pcol_hset_find(&b->mapkeys, map_mkey_hash(&k), map_mkey_note, b, &k);
    *repeat = !k.first;
  }
  free(o);
  return PCOL_OK;
}

/* pcol_b_mappings_shared */
static int b_mappings_shared(pcol_builder *b, const pcol_mapping_row *m, size_t n, const uint64_t *reach,
                             uint32_t *id, uint64_t *shift) {
  uint32_t below = (uint32_t)b->t[PCOL_T_MAPPINGS].rows; /* the earlier profiles' rows */
  map_ord *o = NULL;
  size_t *lead = NULL;
  int rc = mkeys_sorted(b, m, n, reach, &o);
  if (!rc && !(lead = malloc((n + 1) * sizeof *lead))) rc = PCOL_ENOMEM;
  for (size_t i = 0; !rc && i < n; i++) /* a key's first row leads its others */
    lead[o[i].ix] = i && mkey_same(&o[i], &o[i - 1]) ? lead[o[i - 1].ix] : o[i].ix;
  for (size_t i = 0; !rc && i < n; i++)
    if (lead[i] == i) rc = b_mapping_shared(b, &m[i], below, &id[i], &shift[i]);
  for (size_t i = 0; !rc && i < n; i++) {
    size_t l = lead[i];
    if (l == i) continue;
    id[i] = id[l]; /* go's mapInfo.offset, modulo 2^64 as go's uint64(int64(...)) */
    shift[i] = shift[l] + (m[l].memory_start - m[i].memory_start);
  }
  free(o);
  free(lead);
  return rc;
}

/* ---------------------------------------------------------- locations */
typedef struct {
  uint32_t mapping;
  uint64_t address;
  uint8_t flags;
  const pcol_line_row *lines;
  size_t n;
} loc_key;

/* A location's mapping as b compares it: under merge_ids, a mapping of
 * nothing (no file, no build id, at 0, and of 0 bytes as go's mappingKey
 * rounds them up to 4 KiB, with its wraparound: 0 to 2^64 - 1, Pyroscope's,
 * is 0 too) is none, as go's Merge keys it as the fake mapping its driver
 * gives a profile without mappings (collapsed stacks' pprof copies): the
 * frames of a pprof source of such a mapping with its has_functions flag
 * set (async-profiler's, Parca's) are a collapsed source's of equal name. */
static uint32_t id_mapping(const pcol_builder *b, uint32_t m) {
  if (!b->merge_ids || !m) return m;
  uint64_t r = m - 1, start = u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_START), r);
  uint64_t size = u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_LIMIT), r) - start + 0xfff;
  size -= size % 0x1000;
  if (start || size || u64_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_OFFSET), r) ||
      pcol_b_string_get(b, u32_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME), r)).len ||
      pcol_b_string_get(b, u32_at(COL(b, PCOL_T_MAPPINGS, PCOL_C_MAP_BUILD_ID), r)).len)
    return m;
  return 0;
}

static int loc_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_builder *b = ctx;
  const loc_key *k = key;
  uint64_t r = id - 1;
  if (id_mapping(b, u32_at(COL(b, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING), r)) != id_mapping(b, k->mapping) ||
      u64_at(COL(b, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS), r) != k->address ||
      COL(b, PCOL_T_LOCATIONS, PCOL_C_LOC_FLAGS)->data[r] != k->flags)
    return 0;
  const pcol_buf *off = COL(b, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS);
  uint64_t a = u64_at(off, r), e = u64_at(off, r + 1);
  if (e - a != k->n) return 0;
  for (size_t i = 0; i < k->n; i++) {
    if (u32_at(COL(b, PCOL_T_LINES, PCOL_C_LINE_FUNCTION), a + i) != k->lines[i].function_id ||
        id_line(b, i64_at(COL(b, PCOL_T_LINES, PCOL_C_LINE_LINE), a + i)) != id_line(b, k->lines[i].line) ||
        id_line(b, i64_at(COL(b, PCOL_T_LINES, PCOL_C_LINE_COLUMN), a + i)) != id_line(b, k->lines[i].column))
      return 0;
  }
  return 1;
}

static int b_location(pcol_builder *b, uint32_t mapping_id, uint64_t address,
                    uint8_t flags, const pcol_line_row *lines, size_t nlines,
                    uint32_t *id) {
  if ((flags & ~PCOL_LOC_IS_FOLDED) || mapping_id > b->t[PCOL_T_MAPPINGS].rows) return PCOL_EINVAL;
  for (size_t i = 0; i < nlines; i++)
    if (lines[i].function_id > b->t[PCOL_T_FUNCTIONS].rows) return PCOL_EINVAL;
  loc_key k = {mapping_id, address, flags, lines, nlines};
  pcol_hstate hs;
  pcol_hs_init(&hs, 4);
  pcol_hs_add(&hs, ((uint64_t)id_mapping(b, mapping_id) << 8) | flags);
  pcol_hs_add(&hs, address);
  for (size_t i = 0; i < nlines; i++) {
    pcol_hs_add(&hs, lines[i].function_id);
    pcol_hs_add(&hs, (uint64_t)id_line(b, lines[i].line));
    pcol_hs_add(&hs, (uint64_t)id_line(b, lines[i].column));
  }
  uint64_t h = pcol_hs_end(&hs);
  uint32_t found = pcol_hset_find(&b->locations, h, loc_eq, b, &k);
  if (found) {
    *id = found;
    return PCOL_OK;
  }
  pcol_btable *t = BT(b, PCOL_T_LOCATIONS), *lt = BT(b, PCOL_T_LINES);
  uint32_t nid;
  PCOL_RETURN_NOT_OK(next_id(t->rows, &nid));
  for (size_t i = 0; i < nlines; i++) {
    PCOL_RETURN_NOT_OK(pcol_bt_push_u32(lt, PCOL_C_LINE_FUNCTION, lines[i].function_id));
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(lt, PCOL_C_LINE_LINE, lines[i].line));
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(lt, PCOL_C_LINE_COLUMN, lines[i].column));
    lt->rows++;
  }
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_LOC_MAPPING, mapping_id));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_LOC_ADDRESS, address));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u8(t, PCOL_C_LOC_FLAGS, flags));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_LOC_LINE_OFFSETS, lt->rows));
  t->rows++;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&b->locations, h, nid));
  *id = nid;
  return PCOL_OK;
}

/* -------------------------------------------------------------- stacks */
static uint32_t node_ph(const pcol_nodeset *h, uint32_t id) {
  uint32_t v;
  memcpy(&v, h->ph.data + (size_t)id * 4, 4);
  return v;
}

/* The path hash of a child of a node whose path hash is parent_ph: 32 bits
 * (a slot's home and its tag; two paths of one hash are told apart by the
 * parent and location compared on a match). */
static uint32_t child_ph(uint32_t parent_ph, uint32_t location_id) {
  return (uint32_t)pcol_hash2(5, parent_ph, location_id);
}

/* A node's home slot: its path hash scaled to the table's size, which is
 * not a power of two (cap <= 2^32). */
static inline size_t node_home(const pcol_nodeset *h, uint32_t hash) {
  return (size_t)(((uint64_t)hash * (uint64_t)h->cap) >> 32);
}

/* The table half as large again, rebuilt from the nodes' path hashes
 * (ph[1..count], read in order), not copied from the old one: that is
 * freed before the new one's pages are touched, so the two are never
 * resident at once (it was the old table beside the new, while doubling,
 * that set the peak: builder.h). */
static int nodeset_grow(pcol_nodeset *h) {
  size_t ncap = h->cap ? h->cap + h->cap / 2 : 1024;
  if (ncap > SIZE_MAX / (PCOL_NODE_W * sizeof(uint32_t))) return PCOL_ENOMEM;
  /* at most 2^32 slots (node_home): the ids, below 2^32 - 1, never fill it */
  if ((uint64_t)ncap > (uint64_t)UINT32_MAX + 1) ncap = (size_t)((uint64_t)UINT32_MAX + 1);
  if (ncap <= h->cap) return PCOL_OK;
  /* written all over at once: its pages faulted in by one call, not one
   * page fault a page */
  uint32_t *ne = pcol_alloc_hot_replacing(ncap * PCOL_NODE_W * sizeof *ne, h->e);
  if (!ne) return PCOL_ENOMEM;
  h->e = ne;
  h->cap = ncap;
  for (size_t id = 1; id <= h->count; id++) {
    uint32_t v = node_ph(h, (uint32_t)id);
    size_t j = node_home(h, v);
    while (ne[PCOL_NODE_W * j])
      if (++j == ncap) j = 0;
    ne[PCOL_NODE_W * j] = (uint32_t)id, ne[PCOL_NODE_W * j + 1] = v;
  }
  return PCOL_OK;
}

/* pcol_b_stack_node with the node's path hash known (child_ph). */
static int stack_node_ph(pcol_builder *b, uint32_t parent, uint32_t location_id, uint32_t hash,
                         uint32_t *stack_id) {
  pcol_btable *t = BT(b, PCOL_T_STACKS);
  pcol_nodeset *h = &b->stacks;
  size_t i = 0, cap = h->cap;
  uint32_t tag = hash;
  if (cap) {
    const uint32_t *par = (const uint32_t *)(const void *)t->cols[PCOL_C_STACK_PARENT - 1].data;
    const uint32_t *lo = (const uint32_t *)(const void *)t->cols[PCOL_C_STACK_LOCATION - 1].data;
    for (i = node_home(h, hash);;) {
      const uint32_t *s = h->e + PCOL_NODE_W * i;
      if (!s[0]) break;
      if (s[1] == tag && par[s[0] - 1] == parent && lo[s[0] - 1] == location_id) {
        *stack_id = s[0];
        return PCOL_OK;
      }
      if (++i == cap) i = 0;
    }
  }
  uint32_t nid;
  PCOL_RETURN_NOT_OK(next_id(t->rows, &nid));
  if ((h->count + 1) * 4 > cap * 3) { /* load <= 3/4, as pcol_hset */
    PCOL_RETURN_NOT_OK(nodeset_grow(h));
    cap = h->cap;
    for (i = node_home(h, hash); h->e[PCOL_NODE_W * i];)
      if (++i == cap) i = 0;
  }
  PCOL_RETURN_NOT_OK(pcol_buf_reserve(&h->ph, 4));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_STACK_PARENT, parent));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_STACK_LOCATION, location_id));
  memcpy(h->ph.data + h->ph.len, &hash, 4);
  h->ph.len += 4;
  t->rows++;
  uint32_t *s = h->e + PCOL_NODE_W * i;
  s[0] = nid, s[1] = tag;
  h->count++;
  *stack_id = nid;
  return PCOL_OK;
}

/* ph[0], the root's path hash, once the table has it. */
static int nodeset_root(pcol_nodeset *h) {
  if (h->ph.len) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_buf_reserve(&h->ph, 4));
  uint32_t root = 0x9e3779b9u;
  memcpy(h->ph.data, &root, 4);
  h->ph.len = 4;
  return PCOL_OK;
}

static int location_ok(const pcol_builder *b, uint32_t location_id) {
  return location_id != 0 && location_id <= b->t[PCOL_T_LOCATIONS].rows;
}

static int b_stack_node(pcol_builder *b, uint32_t parent, uint32_t location_id,
                      uint32_t *stack_id) {
  if (parent > b->t[PCOL_T_STACKS].rows || !location_ok(b, location_id)) return PCOL_EINVAL;
  PCOL_RETURN_NOT_OK(nodeset_root(&b->stacks));
  return stack_node_ph(b, parent, location_id, child_ph(node_ph(&b->stacks, parent), location_id),
                       stack_id);
}

/* How many nodes ahead pcol_b_stack_nodes prefetches a node's slot: enough
 * misses in flight to cover a memory latency, few enough that the lines
 * are still in cache when their probes come. */
#define STACK_NODES_AHEAD 16

static int b_stack_nodes(pcol_builder *b, const uint32_t *par, const uint32_t *loc, size_t n,
                         uint32_t *map, uint32_t *ph, size_t *bad) {
  *bad = 0;
  PCOL_RETURN_NOT_OK(nodeset_root(&b->stacks));
  pcol_nodeset *ns = &b->stacks;
  /* a node's path hash is that of its builder node (the same path of the
   * same locations), known from its parent's alone: all of them first */
  ph[0] = node_ph(ns, 0);
  for (size_t i = 0; i < n; i++) {
    if (par[i] > i || !location_ok(b, loc[i])) {
      *bad = i + 1;
      return PCOL_EINVAL;
    }
    ph[i + 1] = child_ph(ph[par[i]], loc[i]);
  }
  map[0] = 0;
  for (size_t i = 0; i < n; i++) {
    if (i + STACK_NODES_AHEAD < n && ns->cap)
      __builtin_prefetch(ns->e + PCOL_NODE_W * node_home(ns, ph[i + 1 + STACK_NODES_AHEAD]));
    PCOL_RETURN_NOT_OK(stack_node_ph(b, map[par[i]], loc[i], ph[i + 1], &map[i + 1]));
  }
  return PCOL_OK;
}

static int b_stack(pcol_builder *b, const uint32_t *locs, size_t n,
                 uint32_t *stack_id) {
  uint32_t node = 0;
  for (size_t i = n; i-- > 0;) PCOL_RETURN_NOT_OK(b_stack_node(b, node, locs[i], &node));
  *stack_id = node;
  return PCOL_OK;
}

static int b_stack_memo(pcol_builder *b, pcol_stack_memo *m, const uint32_t *locs, size_t n,
                        uint32_t *stack_id) {
  const uint32_t *pl = (const uint32_t *)(const void *)m->locs.data;
  const uint32_t *pn = (const uint32_t *)(const void *)m->nodes.data;
  size_t pm = m->locs.len / sizeof(uint32_t), k = 0;
  while (k < n && k < pm && pl[k] == locs[n - 1 - k]) k++;
  uint32_t node = k ? pn[k - 1] : 0;
  m->locs.len = m->nodes.len = k * sizeof(uint32_t);
  m->hashes.len = 0;
  if (pcol_buf_reserve(&m->locs, (n - k) * sizeof(uint32_t)) ||
      pcol_buf_reserve(&m->nodes, (n - k) * sizeof(uint32_t)) ||
      pcol_buf_reserve(&m->hashes, (n - k) * sizeof(uint32_t)) || nodeset_root(&b->stacks)) {
    m->locs.len = m->nodes.len = 0;
    return PCOL_ENOMEM;
  }
  /* the new frames' slots, all known now: prefetched, their misses overlap */
  uint32_t *hs = (uint32_t *)(void *)m->hashes.data;
  pcol_nodeset *ns = &b->stacks;
  uint32_t ph = node_ph(ns, node);
  for (size_t j = k; j < n; j++) {
    uint32_t loc = locs[n - 1 - j];
    if (!location_ok(b, loc)) {
      m->locs.len = m->nodes.len = 0;
      return PCOL_EINVAL;
    }
    hs[j - k] = ph = child_ph(ph, loc);
    if (ns->cap) __builtin_prefetch(ns->e + PCOL_NODE_W * node_home(ns, ph));
  }
  for (size_t j = k; j < n; j++) {
    int rc = stack_node_ph(b, node, locs[n - 1 - j], hs[j - k], &node);
    if (rc) {
      m->locs.len = m->nodes.len = 0;
      return rc;
    }
    memcpy(m->locs.data + m->locs.len, &locs[n - 1 - j], sizeof(uint32_t));
    memcpy(m->nodes.data + m->nodes.len, &node, sizeof node);
    m->locs.len += sizeof(uint32_t);
    m->nodes.len += sizeof node;
  }
  *stack_id = node;
  return PCOL_OK;
}

/* ------------------------------------------------------------- labels */
static int labelset_add(pcol_builder *b, const pcol_label_row *labels, size_t n,
                        uint32_t *id);
typedef struct {
  const pcol_label_row *l;
  size_t n;
} ls_key;

static int ls_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_builder *b = ctx;
  const ls_key *k = key;
  const pcol_buf *off = COL(b, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS);
  uint64_t a = u64_at(off, id - 1), e = u64_at(off, id);
  if (e - a != k->n) return 0;
  for (size_t i = 0; i < k->n; i++)
    if (u32_at(COL(b, PCOL_T_LABELS, PCOL_C_LB_KEY), a + i) != k->l[i].key ||
        u32_at(COL(b, PCOL_T_LABELS, PCOL_C_LB_STR), a + i) != k->l[i].str ||
        i64_at(COL(b, PCOL_T_LABELS, PCOL_C_LB_NUM), a + i) != k->l[i].num ||
        u32_at(COL(b, PCOL_T_LABELS, PCOL_C_LB_UNIT), a + i) != k->l[i].num_unit)
      return 0;
  return 1;
}

static int str_cmp(const pcol_builder *b, uint32_t x, uint32_t y) {
  if (x == y) return 0;
  pcol_str s = pcol_b_string_get(b, x), t = pcol_b_string_get(b, y);
  size_t n = s.len < t.len ? s.len : t.len;
  int c = n ? memcmp(s.ptr, t.ptr, n) : 0;
  if (c) return c;
  return s.len < t.len ? -1 : s.len > t.len;
}

/* The canonical order of a label set: key (bytes compared, so the order
 * is the same in every file), a key's strings before its numbers, and the
 * values of one key and kind in the order they came (the sort is stable). */
static int label_cmp(const pcol_builder *b, const pcol_label_row *x,
                     const pcol_label_row *y) {
  int c = str_cmp(b, x->key, y->key);
  if (!c) c = (x->str == 0) - (y->str == 0);
  return c;
}

/* A label set is a set of keys: Go writes a sample's labels in map order, so
 * the same set arrives in many orders.  Sorting by key before deduplication
 * makes one id per set, for every importer; the values of a key keep their
 * order, which pprof keeps too (profile.Sample.Label[k] and NumLabel[k] are
 * lists: its merge key (merge.go Sample.key) sorts the keys, not a key's
 * values; -traces prints them and -tagroot names its frame in that order,
 * "k: b a" and "b,a" another sample than "a,b"). */
static int same_label(const pcol_label_row *a, const pcol_label_row *b) {
  return a->key == b->key && a->str == b->str && a->num == b->num && a->num_unit == b->num_unit;
}

static int labelset_sorted(pcol_builder *b, const pcol_label_row *labels, size_t n, uint32_t *id);

/* The set of labels[0, n).  The same rows as the last call's (in the same
 * order) give its set at O(n) without sorting and hashing them again. */
static int b_labelset(pcol_builder *b, const pcol_label_row *labels, size_t n,
                    uint32_t *id) {
  if (n == 0) {
    *id = 0;
    return PCOL_OK;
  }
  if (b->ls_has_last && n == b->ls_nlast) {
    size_t i = 0;
    while (i < n && same_label(&labels[i], &b->ls_last[i])) i++;
    if (i == n) {
      *id = b->ls_last_id;
      return PCOL_OK;
    }
  }
  int rc = labelset_sorted(b, labels, n, id);
  if (rc) return rc;
  b->ls_has_last = 0;
  while (b->ls_caplast < n)
    if (pcol_grow(&b->ls_last, &b->ls_caplast, sizeof *b->ls_last)) return PCOL_OK; /* no cache */
  memcpy(b->ls_last, labels, n * sizeof *labels);
  b->ls_nlast = n;
  b->ls_last_id = *id;
  b->ls_has_last = 1;
  return PCOL_OK;
}

/* labels[0, n) sorted (a copy, when they are not) and added as a set. */
static int labelset_sorted(pcol_builder *b, const pcol_label_row *labels, size_t n,
                           uint32_t *id) {
  pcol_label_row small[32], *sorted = NULL;
  size_t i = 1;
  while (i < n && label_cmp(b, &labels[i - 1], &labels[i]) <= 0) i++;
  if (i < n) { /* a stable bottom-up merge sort of a copy (O(n log n) on any input) */
    if (n > SIZE_MAX / (2 * sizeof *sorted)) return PCOL_ENOMEM;
    sorted = n <= 16 ? small : malloc(2 * n * sizeof *sorted);
    if (!sorted) return PCOL_ENOMEM;
    pcol_label_row *a = sorted, *t = sorted + n;
    memcpy(a, labels, n * sizeof *a);
    for (size_t w = 1; w < n; w *= 2) {
      for (size_t lo = 0; lo < n; lo += 2 * w) {
        size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
        size_t x = lo, y = mid, o = lo;
        while (x < mid && y < hi) t[o++] = label_cmp(b, &a[y], &a[x]) < 0 ? a[y++] : a[x++];
        while (x < mid) t[o++] = a[x++];
        while (y < hi) t[o++] = a[y++];
      }
      pcol_label_row *swap = a;
      a = t;
      t = swap;
    }
    labels = a;
  }
  int rc = labelset_add(b, labels, n, id);
  if (sorted != small) free(sorted);
  return rc;
}

static int labelset_add(pcol_builder *b, const pcol_label_row *labels, size_t n,
                        uint32_t *id) {
  ls_key k = {labels, n};
  pcol_hstate hs;
  pcol_hs_init(&hs, 6);
  for (size_t i = 0; i < n; i++) {
    pcol_hs_add(&hs, ((uint64_t)labels[i].key << 32) | labels[i].str);
    pcol_hs_add(&hs, (uint64_t)labels[i].num);
    pcol_hs_add(&hs, labels[i].num_unit);
  }
  uint64_t h = pcol_hs_end(&hs);
  uint32_t found = pcol_hset_find(&b->labelsets, h, ls_eq, b, &k);
  if (found) {
    *id = found;
    return PCOL_OK;
  }
  pcol_btable *t = BT(b, PCOL_T_LABELSETS), *lt = BT(b, PCOL_T_LABELS);
  uint32_t nid;
  PCOL_RETURN_NOT_OK(next_id(t->rows, &nid));
  for (size_t i = 0; i < n; i++) {
    PCOL_RETURN_NOT_OK(pcol_bt_push_u32(lt, PCOL_C_LB_KEY, labels[i].key));
    PCOL_RETURN_NOT_OK(pcol_bt_push_u32(lt, PCOL_C_LB_STR, labels[i].str));
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(lt, PCOL_C_LB_NUM, labels[i].num));
    PCOL_RETURN_NOT_OK(pcol_bt_push_u32(lt, PCOL_C_LB_UNIT, labels[i].num_unit));
    lt->rows++;
  }
  PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_LS_OFFSETS, lt->rows));
  t->rows++;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&b->labelsets, h, nid));
  *id = nid;
  return PCOL_OK;
}

/* ------------------------------------------------------------ samples */
/* Appends v (w bytes) to samples column col, lazily while it is default. */
static int s_push(pcol_builder *b, int col, uint64_t v, size_t w) {
  pcol_buf *buf = COL(b, PCOL_T_SAMPLES, col);
  if (buf->len == 0 && !b->spill[0][col - 1].len) {
    uint64_t d = b->sdflt[col - 1];
    if (v == d) {
      b->lazy[col - 1]++;
      return PCOL_OK;
    }
    PCOL_RETURN_NOT_OK(pcol_b_materialize_sample_column(b, col - 1));
  }
  PCOL_RETURN_NOT_OK(pcol_buf_reserve(buf, w));
  memcpy(buf->data + buf->len, &v, w);
  buf->len += w;
  return PCOL_OK;
}

void pcol_b_implicit_fill(const pcol_builder *b, int kind, uint64_t first, size_t n, void *out) {
  if (kind == 0) {
    uint64_t *o = out;
    for (size_t i = 0; i < n; i++) o[i] = (first + i) * b->vk;
  } else {
    uint32_t *o = out;
    uint64_t j = b->vk ? first % b->vk : 0;
    for (size_t i = 0; i < n; i++) {
      o[i] = b->vpat[j];
      if (++j == b->vk) j = 0;
    }
  }
}

/* Stores the implicit offsets and types (see vimplicit). */
static int values_materialize(pcol_builder *b) {
  if (!b->vimplicit) return PCOL_OK;
  /* in pieces, after the elements already stored (the leading offset 0),
   * so that a spilling builder spills them as they come */
  const struct {
    int t, c, kind;
    uint64_t n;
  } col[2] = {{PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS - 1, 0, b->t[PCOL_T_SAMPLES].rows + 1},
              {PCOL_T_VALUES, PCOL_C_V_TYPE - 1, 1, b->t[PCOL_T_VALUES].rows}};
  uint64_t piece[8192];
  /* (explicit from here: a spilling builder spills these columns too as
   * they grow, not only the others: a profile whose first millions of
   * samples had one value type each grew them whole in memory, 64 MB for
   * 5.9M samples) */
  b->vimplicit = 0;
  for (int k = 0; k < 2; k++) {
    size_t w = col[k].kind ? 4 : 8;
    uint64_t have = (b->spill[col[k].t == PCOL_T_VALUES][col[k].c].len +
                     b->t[col[k].t].cols[col[k].c].len) / w;
    for (uint64_t i = have; i < col[k].n;) {
      size_t m = col[k].n - i < sizeof piece / w ? (size_t)(col[k].n - i) : sizeof piece / w;
      pcol_b_implicit_fill(b, col[k].kind, i, m, piece);
      PCOL_RETURN_NOT_OK(pcol_b_col_append(b, col[k].t, col[k].c, piece, NULL, w, m));
      i += m;
    }
  }
  free(b->vpat);
  b->vpat = NULL;
  return PCOL_OK;
}

int pcol_b_materialize_sample_column(pcol_builder *b, int c) {
  if (!b->lazy[c]) return PCOL_OK;
  const pcol_column_info *ci = &pcol_table_info_get(PCOL_T_SAMPLES)->columns[c];
  uint64_t n = b->lazy[c];
  size_t w = pcol_type_width(ci->type);
  uint64_t d = b->sdflt[c]; /* its first w bytes: little endian */
  PCOL_RETURN_NOT_OK(pcol_b_col_append(b, PCOL_T_SAMPLES, c, NULL, &d, w, n));
  b->lazy[c] = 0;
  return PCOL_OK;
}

int pcol_b_materialize(pcol_builder *b) {
  PCOL_RETURN_NOT_OK(values_materialize(b));
  for (size_t c = 0; c < pcol_table_info_get(PCOL_T_SAMPLES)->ncolumns; c++)
    PCOL_RETURN_NOT_OK(pcol_b_materialize_sample_column(b, c));
  return PCOL_OK;
}

static int b_sample(pcol_builder *b, const pcol_sample_row *s,
                  const pcol_value_row *values, size_t nvalues,
                  uint32_t *sample_id, pcol_error *err) {
  /* (each refusal says which rule failed: EINVAL here is always filled) */
  const char *fn = "pcol_b_sample";
  pcol_btable *t = BT(b, PCOL_T_SAMPLES), *vt = BT(b, PCOL_T_VALUES);
  if (s->source_id == 0 || s->source_id > b->t[PCOL_T_SOURCES].rows)
    return pcol_error_set(err, PCOL_EINVAL, "%s: source %u out of range (%" PRIu64 " sources)", fn,
                          s->source_id, b->t[PCOL_T_SOURCES].rows);
  if (s->stack_id > b->t[PCOL_T_STACKS].rows)
    return pcol_error_set(err, PCOL_EINVAL, "%s: stack %u out of range (%" PRIu64 " stacks)", fn,
                          s->stack_id, b->t[PCOL_T_STACKS].rows);
  if (s->labelset_id > b->t[PCOL_T_LABELSETS].rows)
    return pcol_error_set(err, PCOL_EINVAL, "%s: label set %u out of range (%" PRIu64 " label sets)",
                          fn, s->labelset_id, b->t[PCOL_T_LABELSETS].rows);
  /* Samples are stored grouped by source and in time order inside each
   * source (the time index relies on it). */
  if (t->rows && s->source_id < b->last_source)
    return pcol_error_set(err, PCOL_EINVAL, "%s: a sample of source %u after one of source %u "
                          "(samples come grouped by source, in source order)", fn, s->source_id,
                          b->last_source);
  if (t->rows && s->source_id == b->last_source && s->time_ns < b->last_time) {
    if (s->time_ns == PCOL_NA_I64)
      return pcol_error_set(err, PCOL_EINVAL, "%s: a sample with NA time after one at time %" PRId64
                            " in source %u (NA time comes first)", fn, b->last_time, s->source_id);
    return pcol_error_set(err, PCOL_EINVAL, "%s: time %" PRId64 " is earlier than the previous "
                          "sample's %" PRId64 " in source %u (times come in order)", fn, s->time_ns,
                          b->last_time, s->source_id);
  }
  uint32_t id;
  PCOL_RETURN_NOT_OK(next_id(t->rows, &id));
  for (size_t i = 0; i < nvalues; i++) /* all checked before anything is stored */
    if (values[i].value_type_id == 0 ||
        values[i].value_type_id > b->t[PCOL_T_VALUE_TYPES].rows)
      return pcol_error_set(err, PCOL_EINVAL, "%s: value %zu: value type %u out of range (%" PRIu64
                            " value types)", fn, i + 1, values[i].value_type_id,
                            b->t[PCOL_T_VALUE_TYPES].rows);
  if (b->vimplicit) { /* the first sample sets the pattern, the others keep it or store */
    int same = t->rows != 0 && nvalues == b->vk;
    for (size_t i = 0; same && i < nvalues; i++) same = values[i].value_type_id == b->vpat[i];
    if (t->rows == 0) { /* (again, after a first sample that failed) */
      free(b->vpat);
      b->vpat = NULL;
      b->vk = 0;
      if (nvalues > UINT32_MAX || (nvalues && !(b->vpat = malloc(nvalues * sizeof *b->vpat))))
        return PCOL_ENOMEM;
      for (size_t i = 0; i < nvalues; i++) b->vpat[i] = values[i].value_type_id;
      b->vk = (uint32_t)nvalues;
    } else if (!same) {
      PCOL_RETURN_NOT_OK(values_materialize(b));
    }
  }
  for (size_t i = 0; i < nvalues; i++) {
    if (!b->vimplicit) PCOL_RETURN_NOT_OK(pcol_bt_push_u32(vt, PCOL_C_V_TYPE, values[i].value_type_id));
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(vt, PCOL_C_V_VALUE, values[i].value));
    vt->rows++;
  }
  PCOL_RETURN_NOT_OK(s_push(b, PCOL_C_S_SOURCE, s->source_id, 4));
  PCOL_RETURN_NOT_OK(s_push(b, PCOL_C_S_TIME, (uint64_t)s->time_ns, 8));
  PCOL_RETURN_NOT_OK(s_push(b, PCOL_C_S_DURATION, (uint64_t)s->duration_ns, 8));
  PCOL_RETURN_NOT_OK(s_push(b, PCOL_C_S_WEIGHT, (uint64_t)s->weight, 8));
  PCOL_RETURN_NOT_OK(s_push(b, PCOL_C_S_CPU_DELTA, (uint64_t)s->cpu_delta_ns, 8));
  PCOL_RETURN_NOT_OK(s_push(b, PCOL_C_S_STACK, s->stack_id, 4));
  PCOL_RETURN_NOT_OK(s_push(b, PCOL_C_S_LABELSET, s->labelset_id, 4));
  if (!b->vimplicit) PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_S_VALUE_OFFSETS, vt->rows));
  t->rows++;
  b->last_source = s->source_id;
  b->last_time = s->time_ns;
  pcol_bsum_add(b, s, values, nvalues);
  /* a sample's columns (52 bytes) and its values' (12 each), at most */
  pcol_b_spill_added(b, 64 + 16 * nvalues);
  if (sample_id) *sample_id = id;
  return PCOL_OK;
}

uint64_t pcol_b_sample_count(const pcol_builder *b) {
  return b->t[PCOL_T_SAMPLES].rows;
}

static int b_text_line(pcol_builder *b, uint32_t source_id, uint64_t before_sample,
                     const void *text, size_t len) {
  uint32_t ts;
  pcol_btable *t = BT(b, PCOL_T_TEXT_LINES);
  /* before_sample may name a sample still to come; the writer checks it
   * against the final count */
  if (source_id == 0 || source_id > b->t[PCOL_T_SOURCES].rows || before_sample == 0)
    return PCOL_EINVAL;
  PCOL_RETURN_NOT_OK(b_string(b, text ? text : "", len, &ts));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_TL_SOURCE, source_id));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_TL_BEFORE, before_sample));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_TL_TEXT, ts));
  t->rows++;
  return PCOL_OK;
}

static int b_sample_text(pcol_builder *b, uint32_t sample_id, const void *text,
                       size_t len) {
  uint32_t ts;
  pcol_btable *t = BT(b, PCOL_T_SAMPLE_TEXT);
  if (sample_id == 0 || sample_id > b->t[PCOL_T_SAMPLES].rows) return PCOL_EINVAL;
  PCOL_RETURN_NOT_OK(b_string(b, text ? text : "", len, &ts));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_ST_SAMPLE, sample_id));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_ST_TEXT, ts));
  t->rows++;
  return PCOL_OK;
}

static int b_model(pcol_builder *b, const pcol_model_row *m) {
  pcol_btable *t = BT(b, PCOL_T_MODELS);
  if (m->source_id > b->t[PCOL_T_SOURCES].rows) return PCOL_EINVAL;
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_MOD_SOURCE, m->source_id));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_MOD_UID, m->uid));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_MOD_MODEL, m->model));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_MOD_METHOD, m->method));
  PCOL_RETURN_NOT_OK(pcol_bt_push_f64(t, PCOL_C_MOD_R_SQUARE, m->r_square));
  PCOL_RETURN_NOT_OK(pcol_bt_push_f64(t, PCOL_C_MOD_X_START, m->x_start));
  PCOL_RETURN_NOT_OK(pcol_bt_push_f64(t, PCOL_C_MOD_X_END, m->x_end));
  PCOL_RETURN_NOT_OK(pcol_bt_push_u32(t, PCOL_C_MOD_COEFFS, m->coeffs));
  t->rows++;
  return PCOL_OK;
}

/* ------------------------------------------------- the public appends
 * Each pcol_b_* append is its static b_* above with the error filled in:
 * the code's meaning for the builder, named after the call. */
static int b_fail(pcol_error *err, int rc, const char *fn) {
  if (!rc) return PCOL_OK;
  const char *why = rc == PCOL_EINVAL    ? "an id, flag or argument out of range"
                    : rc == PCOL_ETOOBIG ? "a table reached its row limit (2^32 - 2)"
                                         : pcol_strerror(rc);
  return pcol_error_set(err, rc, "%s: %s", fn, why);
}
int pcol_b_mappings_shared(pcol_builder *b, const pcol_mapping_row *m, size_t n, const uint64_t *reach,
                           uint32_t *id, uint64_t *shift, pcol_error *err) {
  return b_fail(err, b_mappings_shared(b, m, n, reach, id, shift), "adding a profile's mappings");
}
int pcol_b_mappings_repeat(const pcol_builder *b, const pcol_mapping_row *m, size_t n, int *repeat,
                           pcol_error *err) {
  return b_fail(err, b_mappings_repeat(b, m, n, repeat), "adding a profile's mappings");
}
int pcol_b_string(pcol_builder *b, const void *ptr, size_t len, uint32_t *id, pcol_error *err) {
  return b_fail(err, b_string(b, ptr, len, id), "pcol_b_string");
}
int pcol_b_cstr(pcol_builder *b, const char *s, uint32_t *id, pcol_error *err) {
  return b_fail(err, b_cstr(b, s, id), "pcol_b_cstr");
}
int pcol_b_source(pcol_builder *b, const char *type, const char *uri, int64_t timestamp,
                  uint32_t *source_id, pcol_error *err) {
  return b_fail(err, b_source(b, type, uri, timestamp, source_id), "pcol_b_source");
}
int pcol_b_source_n(pcol_builder *b, const char *type, const char *uri, size_t ulen, int64_t timestamp,
                    uint32_t *source_id, pcol_error *err) {
  return b_fail(err, b_source_n(b, type, uri, ulen, timestamp, source_id), "pcol_b_source");
}
int pcol_b_meta(pcol_builder *b, uint32_t source_id, const char *key, const void *value,
                size_t value_len, pcol_error *err) {
  return b_fail(err, b_meta(b, source_id, key, value, value_len), "pcol_b_meta");
}
int pcol_b_meta_str(pcol_builder *b, uint32_t source_id, const char *key, const char *value,
                    pcol_error *err) {
  return b_fail(err, b_meta_str(b, source_id, key, value), "pcol_b_meta_str");
}
int pcol_b_source_sid(pcol_builder *b, uint32_t type_sid, uint32_t uri_sid, int64_t timestamp,
                      uint32_t *source_id, pcol_error *err) {
  return b_fail(err, b_source_sid(b, type_sid, uri_sid, timestamp, source_id), "pcol_b_source_sid");
}
int pcol_b_meta_sid(pcol_builder *b, uint32_t source_id, uint32_t key_sid, uint32_t value_sid,
                    pcol_error *err) {
  return b_fail(err, b_meta_sid(b, source_id, key_sid, value_sid), "pcol_b_meta_sid");
}
int pcol_b_value_type(pcol_builder *b, uint32_t type_sid, uint32_t unit_sid, uint32_t *vt_id,
                      pcol_error *err) {
  return b_fail(err, b_value_type(b, type_sid, unit_sid, vt_id), "pcol_b_value_type");
}
int pcol_b_source_value_type(pcol_builder *b, uint32_t source_id, uint32_t vt_id, pcol_error *err) {
  return b_fail(err, b_source_value_type(b, source_id, vt_id), "pcol_b_source_value_type");
}
int pcol_b_function(pcol_builder *b, const pcol_function_row *fn, uint32_t *id, pcol_error *err) {
  return b_fail(err, b_function(b, fn, id), "pcol_b_function");
}
int pcol_b_mapping(pcol_builder *b, const pcol_mapping_row *m, bool dedup, uint32_t *id,
                   pcol_error *err) {
  return b_fail(err, b_mapping(b, m, dedup ? UINT32_MAX : 0, id), "pcol_b_mapping");
}
int pcol_b_location(pcol_builder *b, uint32_t mapping_id, uint64_t address, uint8_t flags,
                    const pcol_line_row *lines, size_t nlines, uint32_t *id, pcol_error *err) {
  return b_fail(err, b_location(b, mapping_id, address, flags, lines, nlines, id),
                "pcol_b_location");
}
int pcol_b_stack_node(pcol_builder *b, uint32_t parent, uint32_t location_id, uint32_t *stack_id,
                      pcol_error *err) {
  return b_fail(err, b_stack_node(b, parent, location_id, stack_id), "pcol_b_stack_node");
}
int pcol_b_stack_nodes(pcol_builder *b, const uint32_t *par, const uint32_t *loc, size_t n,
                       uint32_t *map, uint32_t *ph, size_t *bad, pcol_error *err) {
  return b_fail(err, b_stack_nodes(b, par, loc, n, map, ph, bad), "pcol_b_stack_node");
}
int pcol_b_stack(pcol_builder *b, const uint32_t *locations_leaf_first, size_t n,
                 uint32_t *stack_id, pcol_error *err) {
  return b_fail(err, b_stack(b, locations_leaf_first, n, stack_id), "pcol_b_stack");
}
int pcol_b_stack_memo(pcol_builder *b, pcol_stack_memo *m, const uint32_t *locs, size_t n,
                      uint32_t *stack_id, pcol_error *err) {
  return b_fail(err, b_stack_memo(b, m, locs, n, stack_id), "pcol_b_stack_memo");
}
int pcol_b_labelset(pcol_builder *b, const pcol_label_row *labels, size_t n, uint32_t *id,
                    pcol_error *err) {
  return b_fail(err, b_labelset(b, labels, n, id), "pcol_b_labelset");
}
int pcol_b_sample(pcol_builder *b, const pcol_sample_row *s, const pcol_value_row *values,
                  size_t nvalues, uint32_t *sample_id, pcol_error *err) {
  int rc = b_sample(b, s, values, nvalues, sample_id, err);
  return rc == PCOL_EINVAL ? rc : b_fail(err, rc, "pcol_b_sample");
}
int pcol_b_text_line(pcol_builder *b, uint32_t source_id, uint64_t before_sample, const void *text,
                     size_t len, pcol_error *err) {
  return b_fail(err, b_text_line(b, source_id, before_sample, text, len), "pcol_b_text_line");
}
int pcol_b_sample_text(pcol_builder *b, uint32_t sample_id, const void *text, size_t len,
                       pcol_error *err) {
  return b_fail(err, b_sample_text(b, sample_id, text, len), "pcol_b_sample_text");
}
int pcol_b_model(pcol_builder *b, const pcol_model_row *m, pcol_error *err) {
  return b_fail(err, b_model(b, m), "pcol_b_model");
}
