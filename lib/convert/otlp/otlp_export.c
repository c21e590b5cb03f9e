/* otlp_export.c — a pcol file (or a selection of it) as one binary OTLP
 * ProfilesData message (v1development, proto v1.10.0 and later), as
 * doc/mappings.md §12.2 describes.
 *
 * One dictionary for everything: entry 0 of every table is the zero value,
 * and pcol's function, location and mapping ids are the OTLP indices (ids
 * start at 1).  Each selected source becomes a ResourceProfiles (its
 * "otel.resource." meta) with one ScopeProfiles holding a Profile per value
 * type; every selected sample is a Sample in each of them, with the same
 * stack, attributes (its labels), link (its otel.trace_id/span_id labels)
 * and timestamp, and that type's value: the importer joins them back into
 * one pcol sample with all its values.
 *
 * No sample is held: a source's selected rows are counted, then read once
 * for the sizes of its Samples (their stacks, attributes and links get
 * their dictionary ids here, in sample order) and its Profiles' ids, then
 * once per Profile to write them, as protobuf-c packs a Sample (the
 * messages around them are packed by protobuf-c, split where the Samples
 * go).  The dictionary, which grows as the samples are read, comes last.
 */
#include "convert.h"
#include "otlp.h"
#include "pb_wire.h"
#include "keys.h"     /* OTLP_ATTR_BUILD_ID, OTLP_ATTR_MAP_FLAGS, OTLP_ATTR_SOURCE_TYPE, ... */
#include "bytes.h"    /* pcol_str_is, pcol_str_i64 */
#include "buf.h"      /* PCOL_GROW, pcol_buf, pcol_buf_free, ... */
#include "hash.h"     /* pcol_hash2, pcol_hset, pcol_hset_find, ... */
#include "intern.h"   /* pcol_intern, pcol_intern_find, pcol_intern_add, pcol_intern_at, ... */
#include "period.h"   /* pcol_period */
#include "lasts.h"    /* pcol_source_period_or_interval */
#include "reader.h"   /* pcol_source_rows, pcol_stack_depths, pcol_meta_probe */
#include "select.h"   /* pcol_selected_row, pcol_sample_cols, pcol_sample_cols_init, ... */
#include "stream.h"   /* pcol_budget, PCOL_EXPORT_HOLD_MIN, pcol_budget_close, ... */
#include "count.h"    /* pcol_rtime, pcol_rtime_fills, pcol_rtime_free, ... */
#include "xvalues.h"  /* PCOL_XV_MAX, pcol_xtype, pcol_xvalue, ... */
#include "wall.h"     /* pcol_wall, pcol_wall_init, pcol_wall_select_parts, pcol_wall_free */
#include "frames.h"   /* pcol_frame_export_system_name */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#define P(x) opentelemetry__proto__profiles__v1development__##x
#define C(x) opentelemetry__proto__common__v1__##x

typedef struct ex {
  pcol_file *f;
  pcol_error *err;
  int rc;
  pcol_arena ar;
  /* strings: index i >= 1 is run i, the string and a NUL (as protobuf-c's
   * strings end); index 0 is "" */
  pcol_intern strs;
  uint32_t *cache; /* pcol string id -> index, UINT32_MAX = not yet */
  /* attributes and links, deduplicated */
  otlp_kvu **attrs;
  size_t nattr, capattr;
  pcol_hset attr_set;
  otlp_link **links;
  size_t nlink, caplink;
  pcol_hset link_set;
  /* stacks: pcol stack id -> index (0 = not yet, or the empty stack) */
  uint32_t *stack_ix;
  otlp_stack **stacks;
  size_t nstack, capstack;
  uint32_t key_trace, key_span; /* pcol string ids of the link label keys */
  pcol_buf scratch;
  pcol_xvalues xv; /* which values a synth source writes (lib/core/xvalues.c) */
  uint32_t *cvt;   /* THE count rule (pcol_count_types): a subtracted base's count negated */
  int whole;       /* no range or filter: each source is exported as it is */
  uint64_t wrote;  /* bytes of the messages written (put) */
  int wr_errno;    /* the errno of put's first failed write */
  pcol_wall wall;  /* of one source's export: its pcol.recording_part in the selection (part); of a time range, each source's window */
  int parts;       /* the part written is wall.part's */
  int walled;      /* wall is there */
  int ranged;      /* a time range: each source's window cut by it (pcol_wall_cut) */
  uint8_t *states; /* of a range, the sources whose cut window is stated (pcol_wall_states) */
  int64_t hstart;  /* of a range, the start of its header (pcol_wall_states: 0 none) */
} ex;

static int oom(ex *x) { return x->rc = pcol_error_set(x->err, PCOL_ENOMEM, "otlp export: out of memory"); }

static void *xalloc(ex *x, size_t n) {
  void *p = pcol_arena_alloc(&x->ar, n ? n : 1);
  if (!p) oom(x);
  else memset(p, 0, n ? n : 1);
  return p;
}

/* ------------------------------------------------------------ strings */

static int32_t str_bytes(ex *x, const char *p, size_t n) {
  if (n == 0 || x->rc) return 0;
  /* as valid UTF-8 (deduplicated after the repair) */
  if (n > SIZE_MAX / 3 - 1 || pcol_buf_reserve(&x->scratch, 3 * n + 1)) return oom(x), 0;
  n = pcol_utf8_repair((const uint8_t *)p, n, (char *)x->scratch.data);
  x->scratch.data[n] = 0;
  uint64_t h;
  uint32_t id = pcol_intern_find(&x->strs, x->scratch.data, n + 1, &h);
  if (id) return (int32_t)id;
  if (x->strs.n >= INT32_MAX - 1) {
    x->rc = pcol_error_set(x->err, PCOL_ETOOBIG, "otlp export: too many strings");
    return 0;
  }
  if (pcol_intern_add(&x->strs, x->scratch.data, n + 1, h, &id)) return oom(x), 0;
  return (int32_t)id;
}
/* String index i's bytes (NUL-terminated) and *n their length. */
static const char *str_at(const ex *x, uint32_t i, size_t *n) {
  *n = 0;
  if (!i) return "";
  const char *p = pcol_intern_at(&x->strs, i, n);
  --*n;
  return p;
}
static int32_t str_c(ex *x, const char *s) { return str_bytes(x, s, strlen(s)); }
static int32_t str_id(ex *x, uint32_t sid) {
  if (sid == 0 || x->rc) return 0;
  if (sid >= pcol_string_count(x->f)) {
    x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "string id %u is out of range", sid);
    return 0;
  }
  if (x->cache[sid] != UINT32_MAX) return (int32_t)x->cache[sid];
  pcol_str s;
  if ((x->rc = pcol_string(x->f, sid, &s, x->err))) return 0;
  int32_t i = str_bytes(x, s.ptr, s.len);
  x->cache[sid] = (uint32_t)i;
  return i;
}

/* ---------------------------------------------------- attributes, links */

/* An attribute, its value and its value's string index (the string's
 * bytes move as the table grows: the value points at them once it is whole,
 * fix_attrs). */
typedef struct xattr {
  otlp_kvu a;
  otlp_any v;
  int32_t str;
} xattr;
typedef struct akey {
  int32_t key, unit, str;
  int is_int;
  int64_t num;
} akey;
static int attr_eq(const void *ctx, uint32_t id, const void *key) {
  const ex *x = ctx;
  const akey *k = key;
  const otlp_kvu *a = x->attrs[id];
  if (a->key_strindex != k->key || a->unit_strindex != k->unit) return 0;
  if (k->is_int) return a->value->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE &&
                        a->value->int_value == k->num;
  return a->value->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE &&
         ((const xattr *)(const void *)a)->str == k->str;
}
/* The attribute (key, string or int value, unit) by string indices. */
static int32_t attr(ex *x, int32_t key, int is_int, int32_t str, int64_t num, int32_t unit) {
  if (x->rc) return 0;
  akey k = {key, unit, str, is_int, is_int ? num : 0};
  uint64_t h = pcol_hash2(0x0a, ((uint64_t)(uint32_t)key << 32) | (uint32_t)unit,
                          is_int ? (uint64_t)num ^ 0x5bd1e995u : (uint64_t)(uint32_t)str);
  uint32_t found = pcol_hset_find(&x->attr_set, h, attr_eq, x, &k);
  if (found) return (int32_t)found;
  if (PCOL_GROW(x->attrs, x->nattr, x->capattr)) return oom(x), 0;
  xattr *xa = xalloc(x, sizeof *xa);
  if (!xa) return 0;
  otlp_kvu *a = &xa->a;
  otlp_any *v = &xa->v;
  P(key_value_and_unit__init)(a);
  C(any_value__init)(v);
  a->key_strindex = key;
  a->unit_strindex = unit;
  a->value = v;
  if (is_int) {
    v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE;
    v->int_value = num;
  } else {
    v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE;
    xa->str = str;
  }
  uint32_t id = (uint32_t)x->nattr++;
  x->attrs[id] = a;
  if (pcol_hset_insert(&x->attr_set, h, id)) return oom(x), 0;
  return (int32_t)id;
}
/* ------------------------------------------------ strings on the wire */
/* protobuf-c packs a string up to its first NUL, and pcol's strings may
 * hold one (a name read whole from JSON's \u0000, pprof's, OTLP's): every
 * message holding a string pcol gives is written here, by length, as
 * protobuf-c would write it otherwise (fields in order, an empty string
 * and a zero number left out, a oneof's member always). */
/* a string field, left out when empty */
static int w_str(pcol_buf *b, unsigned field, pcol_str s) {
  return s.len ? pcol_pb_w_bytes(b, field, s.ptr, s.len) : 0;
}

/* The attribute table (ProfilesDictionary field 6), once no string is
 * added: KeyValueAndUnit { key_strindex 1, value 2 (AnyValue { string_value
 * 1 or int_value 3 }), unit_strindex 3 }, appended to b. */
static int w_attrs(ex *x, pcol_buf *b) {
  pcol_buf m = {0}, v = {0};
  int rc = 0;
  for (size_t i = 0; i < x->nattr && !rc; i++) {
    const otlp_kvu *a = x->attrs[i];
    m.len = v.len = 0;
    if (a->value && a->value->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE) {
      rc = pcol_pb_w_uint(&v, 3, (uint64_t)a->value->int_value);
    } else if (a->value) {
      size_t n;
      const char *p = str_at(x, (uint32_t)((const xattr *)(const void *)a)->str, &n);
      rc = pcol_pb_w_bytes(&v, 1, p, n);
    }
    if (!rc && a->key_strindex) rc = pcol_pb_w_uint(&m, 1, (uint64_t)(int64_t)a->key_strindex);
    if (!rc && a->value) rc = pcol_pb_w_bytes(&m, 2, v.data, v.len);
    if (!rc && a->unit_strindex) rc = pcol_pb_w_uint(&m, 3, (uint64_t)(int64_t)a->unit_strindex);
    if (!rc) rc = pcol_pb_w_bytes(b, 6, m.data, m.len);
  }
  pcol_buf_free(&m);
  pcol_buf_free(&v);
  return rc ? oom(x) : 0;
}

static int hexbytes(const pcol_str *s, uint8_t *out, size_t max, size_t *n) {
  if (!s->ptr || s->len % 2 || s->len / 2 > max) return 0;
  for (size_t i = 0; i < s->len; i += 2) {
    int v = 0;
    for (int k = 0; k < 2; k++) {
      char ch = s->ptr[i + k];
      int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
            : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
      if (d < 0) return 0;
      v = v * 16 + d;
    }
    out[i / 2] = (uint8_t)v;
  }
  *n = s->len / 2;
  return 1;
}

typedef struct lkey {
  uint8_t t[16], s[8];
  size_t nt, ns;
} lkey;
static int link_eq(const void *ctx, uint32_t id, const void *key) {
  const ex *x = ctx;
  const lkey *k = key;
  const otlp_link *l = x->links[id];
  return l->trace_id.len == k->nt && l->span_id.len == k->ns &&
         memcmp(l->trace_id.data, k->t, k->nt) == 0 && memcmp(l->span_id.data, k->s, k->ns) == 0;
}
static int32_t link_ix(ex *x, const lkey *k) {
  uint64_t h = pcol_hash_bytes(k, sizeof *k, 13);
  uint32_t found = pcol_hset_find(&x->link_set, h, link_eq, x, k);
  if (found) return (int32_t)found;
  if (PCOL_GROW(x->links, x->nlink, x->caplink)) return oom(x), 0;
  otlp_link *l = xalloc(x, sizeof *l);
  uint8_t *d = xalloc(x, 24);
  if (!l || !d) return 0;
  P(link__init)(l);
  memcpy(d, k->t, k->nt);
  memcpy(d + 16, k->s, k->ns);
  l->trace_id.data = d;
  l->trace_id.len = k->nt;
  l->span_id.data = d + 16;
  l->span_id.len = k->ns;
  uint32_t id = (uint32_t)x->nlink++;
  x->links[id] = l;
  if (pcol_hset_insert(&x->link_set, h, id)) return oom(x), 0;
  return (int32_t)id;
}

/* ------------------------------------------------------------ tables */

#define COLS(T, ...)                                                            \
  do {                                                                          \
    int c_[] = {__VA_ARGS__};                                                   \
    for (size_t i_ = 0; i_ < sizeof c_ / sizeof c_[0]; i_++)                    \
      if ((x->rc = pcol_column(f, T, c_[i_], &v[c_[i_]], x->err))) return x->rc; \
  } while (0)

static int64_t na0(int64_t v) { return v == PCOL_NA_I64 ? 0 : v; }

static int add_tables(ex *x, otlp_dict *D) {
  pcol_file *f = x->f;
  pcol_view v[16];
  uint64_t n = pcol_rows(f, PCOL_T_FUNCTIONS);
  COLS(PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, PCOL_C_FN_SYSTEM_NAME, PCOL_C_FN_FILENAME, PCOL_C_FN_START_LINE);
  D->function_table = xalloc(x, (n + 1) * sizeof *D->function_table);
  otlp_function *fns = xalloc(x, (n + 1) * sizeof *fns);
  if (x->rc) return x->rc;
  for (uint64_t r = 0; r <= n; r++) {
    P(function__init)(&fns[r]);
    if (r) {
      fns[r].name_strindex = str_id(x, pcol_view_u32(&v[PCOL_C_FN_NAME], r - 1));
      fns[r].system_name_strindex = str_id(x, pcol_frame_export_system_name(f, pcol_view_u32(&v[PCOL_C_FN_NAME], r - 1),
                                                                            pcol_view_u32(&v[PCOL_C_FN_SYSTEM_NAME], r - 1)));
      fns[r].filename_strindex = str_id(x, pcol_view_u32(&v[PCOL_C_FN_FILENAME], r - 1));
      fns[r].start_line = na0(pcol_view_i64(&v[PCOL_C_FN_START_LINE], r - 1));
    }
    D->function_table[r] = &fns[r];
  }
  D->n_function_table = n + 1;

  n = pcol_rows(f, PCOL_T_MAPPINGS);
  COLS(PCOL_T_MAPPINGS, PCOL_C_MAP_START, PCOL_C_MAP_LIMIT, PCOL_C_MAP_OFFSET, PCOL_C_MAP_FILENAME,
       PCOL_C_MAP_BUILD_ID, PCOL_C_MAP_FLAGS);
  D->mapping_table = xalloc(x, (n + 1) * sizeof *D->mapping_table);
  otlp_mapping *maps = xalloc(x, (n + 1) * sizeof *maps);
  int32_t *mattr = xalloc(x, 2 * (n + 1) * sizeof *mattr);
  if (x->rc) return x->rc;
  int32_t k_bid = 0, k_flags = 0;
  for (uint64_t r = 0; r <= n; r++) {
    otlp_mapping *m = &maps[r];
    P(mapping__init)(m);
    D->mapping_table[r] = m;
    if (!r) continue;
    m->memory_start = pcol_view_u64(&v[PCOL_C_MAP_START], r - 1);
    m->memory_limit = pcol_view_u64(&v[PCOL_C_MAP_LIMIT], r - 1);
    m->file_offset = pcol_view_u64(&v[PCOL_C_MAP_OFFSET], r - 1);
    m->filename_strindex = str_id(x, pcol_view_u32(&v[PCOL_C_MAP_FILENAME], r - 1));
    int32_t bid = str_id(x, pcol_view_u32(&v[PCOL_C_MAP_BUILD_ID], r - 1));
    uint8_t fl = pcol_view_u8(&v[PCOL_C_MAP_FLAGS], r - 1);
    m->attribute_indices = mattr + 2 * r;
    if (bid) {
      if (!k_bid) k_bid = str_c(x, OTLP_ATTR_BUILD_ID);
      m->attribute_indices[m->n_attribute_indices++] = attr(x, k_bid, 0, bid, 0, 0);
    }
    if (fl) {
      if (!k_flags) k_flags = str_c(x, OTLP_ATTR_MAP_FLAGS);
      m->attribute_indices[m->n_attribute_indices++] = attr(x, k_flags, 1, 0, fl, 0);
    }
  }
  D->n_mapping_table = n + 1;

  uint64_t nl = pcol_rows(f, PCOL_T_LINES);
  pcol_view lv[4];
  if ((x->rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &lv[1], x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &lv[2], x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_COLUMN, &lv[3], x->err)))
    return x->rc;
  otlp_line *lines = xalloc(x, (nl + 1) * sizeof *lines);
  otlp_line **linep = xalloc(x, (nl + 1) * sizeof *linep);
  if (x->rc) return x->rc;
  uint64_t nfn = D->n_function_table;
  for (uint64_t r = 0; r < nl; r++) {
    P(line__init)(&lines[r]);
    uint32_t fi = pcol_view_u32(&lv[1], r);
    if (fi >= nfn)
      return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "line %" PRIu64 " names function %u, out of range", r + 1, fi);
    lines[r].function_index = (int32_t)fi;
    lines[r].line = na0(pcol_view_i64(&lv[2], r));
    lines[r].column = na0(pcol_view_i64(&lv[3], r));
    linep[r] = &lines[r];
  }
  n = pcol_rows(f, PCOL_T_LOCATIONS);
  COLS(PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, PCOL_C_LOC_ADDRESS, PCOL_C_LOC_LINE_OFFSETS);
  D->location_table = xalloc(x, (n + 1) * sizeof *D->location_table);
  otlp_location *locs = xalloc(x, (n + 1) * sizeof *locs);
  if (x->rc) return x->rc;
  for (uint64_t r = 0; r <= n; r++) {
    otlp_location *l = &locs[r];
    P(location__init)(l);
    D->location_table[r] = l;
    if (!r) continue;
    uint32_t mi = pcol_view_u32(&v[PCOL_C_LOC_MAPPING], r - 1);
    if (mi >= D->n_mapping_table)
      return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "location %" PRIu64 " names mapping %u, out of range", r, mi);
    l->mapping_index = (int32_t)mi;
    l->address = pcol_view_u64(&v[PCOL_C_LOC_ADDRESS], r - 1);
    uint64_t a = pcol_view_u64(&v[PCOL_C_LOC_LINE_OFFSETS], r - 1);
    uint64_t e = pcol_view_u64(&v[PCOL_C_LOC_LINE_OFFSETS], r);
    if (a > e || e > nl)
      return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "location %" PRIu64 " has a bad line range", r);
    l->n_lines = e - a;
    l->lines = linep + a;
  }
  D->n_location_table = n + 1;
  return x->rc;
}

/* --------------------------------------------------------------- stacks */

typedef struct walk {
  pcol_buf *b;
  int failed;
} walk;
static int walk_fn(void *ctx, uint32_t depth, uint32_t loc) {
  walk *w = ctx;
  (void)depth;
  int32_t i = (int32_t)loc;
  if (pcol_buf_append(w->b, &i, sizeof i)) {
    w->failed = 1;
    return 1;
  }
  return 0;
}

static int32_t stack_ix(ex *x, uint32_t sid) {
  if (!sid || x->rc) return 0;
  if (x->stack_ix[sid]) return (int32_t)x->stack_ix[sid];
  pcol_buf b = {0};
  walk w = {&b, 0};
  if ((x->rc = pcol_stack_walk(x->f, sid, walk_fn, &w, x->err))) goto done;
  if (w.failed) {
    oom(x);
    goto done;
  }
  if (PCOL_GROW(x->stacks, x->nstack, x->capstack)) {
    oom(x);
    goto done;
  }
  otlp_stack *s = xalloc(x, sizeof *s);
  int32_t *li = xalloc(x, b.len);
  if (!s || !li) goto done;
  P(stack__init)(s);
  memcpy(li, b.data, b.len);
  s->location_indices = li;
  s->n_location_indices = b.len / sizeof(int32_t);
  x->stack_ix[sid] = (uint32_t)x->nstack;
  x->stacks[x->nstack++] = s;
done:
  pcol_buf_free(&b);
  return x->rc ? 0 : (int32_t)x->stack_ix[sid];
}

/* The stack table holds every selected stack whole (a Stack and 4 bytes a
 * frame): Σ depth of the distinct selected stacks, held against the budget
 * before any is built, as the speedscope and collapsed exports hold theirs.
 * A chain of 100,000 nested stacks (a 92 KB file) is 5e9 frames: 20 GB
 * refused at once instead of grown until memory ran out (issue 42 F2).
 * O(stacks + rows): parents come before children (spec.md F-rules).  Every
 * selected row's source is checked on the way. */
typedef struct held {
  const pcol_view *stk, *src;
  uint64_t n, nsrc, sum;
  const uint32_t *depth;
  uint8_t *seen;
  pcol_error *err;
} held;
static int hold_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  held *h = ctx;
  (void)num, (void)den;
  uint32_t s = pcol_view_u32(h->src, row);
  if (s == 0 || s > h->nsrc)
    return pcol_error_set(h->err, PCOL_ECORRUPT, "sample %" PRIu64 " has source %u", row + 1, s);
  uint32_t sid = pcol_view_u32(h->stk, row);
  if (!sid || sid > h->n || h->seen[sid]) return 0;
  h->seen[sid] = 1;
  uint64_t b = (uint64_t)h->depth[sid] * sizeof(int32_t) + sizeof(otlp_stack) + sizeof(otlp_stack *);
  h->sum = h->sum > UINT64_MAX - b ? UINT64_MAX : h->sum + b;
  return 0;
}
static int hold_stacks(ex *x, pcol_budget *bud, const pcol_view *stk, const pcol_view *src,
                       const pcol_select *sel) {
  held h = {stk, src, pcol_rows(x->f, PCOL_T_STACKS), pcol_rows(x->f, PCOL_T_SOURCES), 0, NULL, NULL,
            x->err};
  uint32_t *depth;
  if ((x->rc = pcol_stack_depths(x->f, &depth, x->err))) return x->rc;
  h.depth = depth;
  h.seen = calloc(h.n + 1, 1);
  if (!h.seen) {
    free(depth);
    return oom(x);
  }
  x->rc = pcol_select_iter(x->f, sel, hold_row, &h, x->err);
  if (x->rc == PCOL_ENOMEM) oom(x);
  free(depth);
  free(h.seen);
  return x->rc ? x->rc : (x->rc = pcol_budget_hold(bud, h.sum, x->err));
}

/* ------------------------------------------------------------ sources */

typedef struct srcmeta {
  pcol_view k, v, s;
  uint64_t n;
  const uint32_t *rows; /* the current source's meta rows (pcol_source_rows) */
  size_t nrows;
} srcmeta;

static int starts(pcol_str s, const char *p) {
  size_t l = strlen(p);
  return s.ptr && s.len >= l && memcmp(s.ptr, p, l) == 0;
}

/* the meta value of key for source src, or NULL */
static int meta(ex *x, uint32_t src, const char *key, pcol_str *out) {
  int rc = pcol_meta_probe(x->f, src, key, out, x->err); /* absent: err as it was */
  if (rc <= 0) return rc < 0 ? (x->rc = rc, 0) : 0;
  if (!out->ptr) out->ptr = "";
  return 1;
}
static int meta_num(ex *x, uint32_t src, const char *key, int64_t *v) {
  pcol_str s;
  return meta(x, src, key, &s) && !pcol_str_i64(s, v);
}

/* s as valid UTF-8 (in the arena), its length kept: it may hold NUL */
static pcol_str utf8(ex *x, pcol_str s) {
  if (s.len > SIZE_MAX / 3 - 1) return oom(x), (pcol_str){"", 0};
  char *c = xalloc(x, 3 * s.len + 1);
  if (!c) return (pcol_str){"", 0};
  return (pcol_str){c, s.len ? pcol_utf8_repair((const uint8_t *)s.ptr, s.len, c) : 0};
}

/* KeyValue attributes of a resource or scope from the source's meta keys
 * that start with prefix, each field `field` (Resource's 1,
 * InstrumentationScope's 3) appended to b: KeyValue { key 1, value 2
 * (AnyValue { string_value 1 }) }, by length. */
static int kvs(ex *x, const srcmeta *m, const char *prefix, unsigned field, pcol_buf *b) {
  size_t pl = strlen(prefix);
  pcol_buf kv = {0}, av = {0};
  for (size_t j = 0; j < m->nrows && !x->rc; j++) {
    uint32_t i = m->rows[j];
    pcol_str k, v;
    if ((x->rc = pcol_string(x->f, pcol_view_u32(&m->k, i), &k, x->err))) break;
    if (!starts(k, prefix) || k.len == pl) continue;
    if ((x->rc = pcol_string(x->f, pcol_view_u32(&m->v, i), &v, x->err))) break;
    pcol_str ks = utf8(x, (pcol_str){k.ptr + pl, k.len - pl}), vs = utf8(x, v);
    kv.len = av.len = 0;
    if (!x->rc && (pcol_pb_w_bytes(&av, 1, vs.ptr, vs.len) || w_str(&kv, 1, ks) ||
                   pcol_pb_w_bytes(&kv, 2, av.data, av.len) || pcol_pb_w_bytes(b, field, kv.data, kv.len)))
      oom(x);
  }
  pcol_buf_free(&kv);
  pcol_buf_free(&av);
  return x->rc;
}


/* a source's value columns: the declared types, or (Rprof, sources
 * without types) the values lib/core/xvalues.c derives: samples/count,
 * cpu/nanoseconds, rprof.alloc/bytes */
typedef struct vcols {
  size_t n;
  uint32_t *vt;     /* declared type per column (synth: 0) */
  int32_t *type, *unit;
  int synth;
  int64_t interval_ns;
} vcols;

static int plan(ex *x, uint32_t src, vcols *vc, const pcol_rtime *rt) {
  pcol_file *f = x->f;
  pcol_view svv, vtt, vtu;
  if ((x->rc = pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vtt, x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &vtu, x->err)))
    return x->rc;
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  const uint32_t *rows; /* the source's rows (the file's index: a scan each was quadratic) */
  size_t n;
  if ((x->rc = pcol_source_rows(f, PCOL_T_SOURCE_VALUE_TYPES, src, &rows, &n, x->err))) return x->rc;
  /* an Rprof source, or one without value types: the values the export
   * rule derives (count, time, rprof.alloc; levels stay out) */
  pcol_xtype *xt = xalloc(x, (n + PCOL_XV_MAX) * sizeof *xt); /* room: pcol_xvalues_source */
  size_t nxt;
  if (!xt) return x->rc;
  if ((x->rc = pcol_xvalues_source(&x->xv, src, xt, n + PCOL_XV_MAX, &nxt, &vc->synth, x->err))) return x->rc;
  size_t cap = vc->synth ? nxt : n;
  vc->vt = xalloc(x, (cap + 1) * sizeof *vc->vt);
  vc->type = xalloc(x, (cap + 1) * sizeof *vc->type);
  vc->unit = xalloc(x, (cap + 1) * sizeof *vc->unit);
  if (x->rc) return x->rc;
  if (vc->synth) {
    int64_t us;
    vc->interval_ns = 0;
    if (meta_num(x, src, RPROF_META_INTERVAL_US, &us) && us > 0 && us <= INT64_MAX / 1000 &&
        pcol_rtime_has(rt, src))
      vc->interval_ns = us * 1000;
    x->rc = 0;
    for (size_t k = 0; k < nxt; k++) {
      if (xt[k].level) continue;
      vc->vt[vc->n] = xt[k].vt;
      vc->type[vc->n] = str_bytes(x, xt[k].type.ptr, xt[k].type.len);
      vc->unit[vc->n] = str_bytes(x, xt[k].unit.ptr, xt[k].unit.len);
      vc->n++;
    }
    return x->rc;
  }
  for (size_t j = 0; j < n; j++) {
    uint32_t r = rows[j], vt = pcol_view_u32(&svv, r);
    if (vt == 0 || vt > nvt)
      return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "source_value_types row %" PRIu64
                                    " names value type %u, out of range", (uint64_t)r + 1, vt);
    vc->vt[vc->n] = vt;
    vc->type[vc->n] = str_id(x, pcol_view_u32(&vtt, vt - 1));
    vc->unit[vc->n] = str_id(x, pcol_view_u32(&vtu, vt - 1));
    vc->n++;
  }
  return x->rc;
}

typedef struct scols {
  pcol_view src, time, weight, stack, ls, voff, vty, vva, lso, lk, lstr, lnum, lunit;
  uint64_t nlab, nvals;
  pcol_sample_cols sc;
} scols;

/* the value of column k of a sample row (occ-th occurrence of its type) */
static int64_t col_value(ex *x, const scols *S, const vcols *vc, size_t k, uint64_t row,
                         const pcol_rtime *rt, uint32_t src) {
  if (vc->synth) {
    int64_t xv = 0;
    if (!x->rc) x->rc = pcol_xvalue(&x->xv, x->cvt, row, vc->vt[k], &xv, x->err);
    return xv;
  }
  uint32_t vt = vc->vt[k];
  size_t occ = 0;
  for (size_t j = 0; j < k; j++) occ += vc->vt[j] == vt;
  uint64_t a = pcol_view_u64(&S->voff, row), e = pcol_view_u64(&S->voff, row + 1);
  if (e > S->nvals) e = S->nvals;
  for (uint64_t i = a; i < e; i++)
    if (pcol_view_u32(&S->vty, i) == vt && occ-- == 0) return pcol_view_i64(&S->vva, i);
  int64_t v;
  if (occ == 0 && pcol_rtime_fills(rt, src, vt) && pcol_sample_value_rt(&S->sc, rt, row, vt, &v)) return v;
  (void)x;
  return 0;
}

/* The id of source src's Profile of value column c (OTLP: 16 bytes, not all
 * zero): the source's own for its first column (`otlp.profile_id`, from an
 * OTLP input: a round trip keeps it) when the export takes the source as it
 * is (no range or filter: a part is another profile), else made from what
 * the Profile holds (its times, period, type, and each of its n samples'
 * stack, time and value) under a fixed key, so that the same input gives
 * the same bytes on every run and machine (it was keyed per process, so
 * every export differed). */
static void profile_id_start(pcol_hstate h[2], size_t c, const vcols *vc, uint64_t time,
                             uint64_t dur, int64_t period, size_t n) {
  pcol_hs_init_fixed(&h[0], 0x70636f6c2e6f746cULL, 0x7270726f66696c31ULL); /* "pcol.otl" "rprofil1" */
  pcol_hs_init_fixed(&h[1], 0x70636f6c2e6f746cULL, 0x7270726f66696c32ULL);
  uint64_t head[7] = {time, dur, (uint64_t)period, c, (uint64_t)(uint32_t)vc->type[c],
                      (uint64_t)(uint32_t)vc->unit[c], n};
  for (size_t i = 0; i < 7; i++) pcol_hs_add(&h[0], head[i]), pcol_hs_add(&h[1], head[i]);
  /* then each sample's stack, time and value (pass_row) */
}
static void profile_id_end(ex *x, uint32_t src, size_t c, pcol_hstate h[2], uint8_t pid[16]) {
  pcol_str s;
  size_t got = 0;
  if (c == 0 && x->whole && meta(x, src, OTLP_META_PROFILE_ID, &s) && hexbytes(&s, pid, 16, &got) &&
      got == 16)
    for (size_t i = 0; i < 16; i++)
      if (pid[i]) return;
  uint64_t h1 = pcol_hs_end(&h[0]), h2 = pcol_hs_end(&h[1]) | 1; /* never all zero */
  memcpy(pid, &h1, 8);
  memcpy(pid + 8, &h2, 8);
}

/* One sample of a source, as its Samples hold it (the same in every
 * Profile but for the value). */
typedef struct spart {
  int32_t stack, link;
  int has_ts;
  uint64_t ts;
  pcol_buf attrs;  /* int32 */
  pcol_buf values; /* int64, one per value column */
} spart;

/* A source's pass over its selected rows (pcol_select_iter). */
typedef struct spass {
  ex *x;
  const scols *S;
  const vcols *vc;
  const pcol_rtime *rt;
  uint32_t src;
  uint64_t time;  /* the source's start (time_unix_nano when no range cut it): the timestamps' base */
  int64_t from;   /* the range's start in the source's clock (INT64_MIN + 1: none) */
  int64_t shift;  /* of a start unknown (time 0): how much earlier its times are written (pcol_wall_cut) */
  spart p;
  int write;      /* 0: sizes and ids (pass 1); 1: write column c */
  size_t c;
  uint64_t *size; /* pass 1: each column's bytes of Samples */
  pcol_hstate *h; /* pass 1: each column's two profile id hashes */
  int timed;      /* pass 1: a sample has a time */
  FILE *fp;       /* writing */
} spass;

/* The sample at row (num/den of it selected) -> ps->p. */
static int sample_parts(spass *ps, uint64_t row, int64_t num, int64_t den) {
  ex *x = ps->x;
  const scols *S = ps->S;
  spart *o = &ps->p;
  o->stack = stack_ix(x, pcol_view_u32(&S->stack, row));
  o->link = 0;
  o->has_ts = 0;
  o->attrs.len = o->values.len = 0;
  int64_t t = pcol_view_i64(&S->time, row);
  uint64_t time = ps->time;
  /* of a range: the sample's part inside it (one that began before it:
   * an interval source's, spec.md §7.1), as the speedscope export's times;
   * of a source without a start, since its window's start */
  if (t != PCOL_NA_I64 && t < ps->from) t = ps->from;
  if (t != PCOL_NA_I64 && !time && __builtin_sub_overflow(t, ps->shift, &t))
    return x->rc = pcol_error_set(x->err, PCOL_ETOOBIG, "sample %" PRIu64 ": its time is out of range", row + 1);
  if (t != PCOL_NA_I64) {
    if ((t < 0 && (uint64_t)-(t + 1) + 1 > time) || (t > 0 && (uint64_t)t > UINT64_MAX - time))
      return x->rc = pcol_error_set(x->err, PCOL_ETOOBIG, "sample %" PRIu64 ": its time does not "
                                    "fit OTLP's unsigned nanoseconds since 1970", row + 1);
    o->ts = t < 0 ? time - ((uint64_t)-(t + 1) + 1) : time + (uint64_t)t;
    o->has_ts = ps->timed = 1;
  }
  uint32_t ls = pcol_view_u32(&S->ls, row);
  if (ls) {
    uint64_t la = pcol_view_u64(&S->lso, ls - 1), le = pcol_view_u64(&S->lso, ls);
    if (la > le || le > S->nlab)
      return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "label set %u has a bad range", ls);
    lkey lk;
    memset(&lk, 0, sizeof lk);
    int has_link = 0;
    for (uint64_t j = la; j < le && !x->rc; j++) {
      uint32_t key = pcol_view_u32(&S->lk, j), str = pcol_view_u32(&S->lstr, j);
      if (str && (key == x->key_trace || key == x->key_span)) {
        pcol_str hv;
        if ((x->rc = pcol_string(x->f, str, &hv, x->err))) return x->rc;
        int ok = key == x->key_trace ? hexbytes(&hv, lk.t, 16, &lk.nt) : hexbytes(&hv, lk.s, 8, &lk.ns);
        if (ok) {
          has_link = 1;
          continue;
        }
      }
      /* one string per declaration: the table's order must not depend on
       * the compiler's order of evaluating arguments */
      int32_t ki = str_id(x, key);
      int32_t si = str_id(x, str);
      int32_t ui = str_id(x, pcol_view_u32(&S->lunit, j));
      int32_t a = attr(x, ki, str == 0, si, pcol_view_i64(&S->lnum, j), ui);
      if (PCOL_BUF_PUSH(&o->attrs, int32_t, a)) return oom(x);
    }
    if (has_link) o->link = link_ix(x, &lk);
  }
  for (size_t c = 0; c < ps->vc->n && !x->rc; c++) {
    int64_t v = pcol_scale(col_value(x, S, ps->vc, c, row, ps->rt, ps->src), num, den);
    if (PCOL_BUF_PUSH(&o->values, int64_t, v)) return oom(x);
  }
  return x->rc;
}

/* The Sample of p with value v, as protobuf-c packs it (fields in order,
 * zero scalars and empty repeated fields left out, repeated ones packed):
 * its bytes at out (NULL: only counted); the length. */
static size_t enc_sample(uint8_t *out, const spart *p, int64_t v) {
  uint8_t tmp[32];
  size_t n = 0, k;
#define PUT(src, len) (out ? memcpy(out + n, (src), (len)) : (void *)0, n += (len))
#define VARINT(x) (k = pcol_pb_put_varint(tmp, (x)), PUT(tmp, k))
#define HEAD(f, wt, x) (k = pcol_pb_put_head(tmp, (f), (wt), (x)), PUT(tmp, k))
  if (p->stack) HEAD(1, PCOL_PB_VARINT, (uint64_t)(int64_t)p->stack);
  size_t na = p->attrs.len / sizeof(int32_t);
  const int32_t *a = (const int32_t *)(const void *)p->attrs.data;
  if (na) {
    size_t len = 0;
    for (size_t i = 0; i < na; i++) len += pcol_pb_varint_len((uint64_t)(int64_t)a[i]);
    HEAD(2, PCOL_PB_LEN, len);
    for (size_t i = 0; i < na; i++) VARINT((uint64_t)(int64_t)a[i]);
  }
  if (p->link) HEAD(3, PCOL_PB_VARINT, (uint64_t)(int64_t)p->link);
  HEAD(4, PCOL_PB_LEN, pcol_pb_varint_len((uint64_t)v)), VARINT((uint64_t)v);
  if (p->has_ts) {
    HEAD(5, PCOL_PB_LEN, 8);
    k = pcol_pb_put_fixed64(tmp, p->ts);
    PUT(tmp, k);
  }
#undef HEAD
#undef VARINT
#undef PUT
  return n;
}

/* n bytes to fp, counted in x->wrote (each source's message is checked
 * against the length written before it).  1, or 0 when the write failed. */
static int put(ex *x, FILE *fp, const void *p, size_t n) {
  x->wrote += n;
  if (fwrite(p, 1, n, fp) == n) return 1;
  if (!x->wr_errno) x->wr_errno = errno ? errno : EIO;
  return 0;
}

/* A length-delimited field's bytes before its payload: tag and length.  The length of them. */
static size_t enc_head(uint8_t *out, unsigned field, uint64_t len) {
  return pcol_pb_put_head(out, field, PCOL_PB_LEN, len);
}

static int count_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)row, (void)num, (void)den;
  ++*(size_t *)ctx;
  return 0;
}

static int pass_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  spass *ps = ctx;
  ex *x = ps->x;
  if (sample_parts(ps, row, num, den)) return x->rc;
  const int64_t *v = (const int64_t *)(const void *)ps->p.values.data;
  if (!ps->write) {
    for (size_t c = 0; c < ps->vc->n; c++) {
      size_t len = enc_sample(NULL, &ps->p, v[c]);
      ps->size[c] += pcol_pb_head_len(2, PCOL_PB_LEN, len) + len;
      /* the profile id (profile_id): each sample's stack, time and value */
      for (int i = 0; i < 2; i++) {
        pcol_hs_add(&ps->h[2 * c + i], (uint64_t)(uint32_t)ps->p.stack);
        pcol_hs_add(&ps->h[2 * c + i], ps->p.has_ts ? ps->p.ts : 0);
        pcol_hs_add(&ps->h[2 * c + i], (uint64_t)v[c]);
      }
    }
    return PCOL_OK;
  }
  uint8_t hdr[24];
  if (pcol_buf_reserve(&x->scratch, enc_sample(NULL, &ps->p, v[ps->c]))) return oom(x);
  size_t len = enc_sample(x->scratch.data, &ps->p, v[ps->c]), hl = enc_head(hdr, 2, len);
  if (!put(x, ps->fp, hdr, hl) || !put(x, ps->fp, x->scratch.data, len))
    return x->rc = pcol_error_set(x->err, PCOL_EIO, "otlp export: write failed: %s", strerror(x->wr_errno));
  return PCOL_OK;
}

/* The packed bytes of message m in buf, and where its fields past number
 * `field` begin (the repeated field `field` goes there). */
static int pack_split(ex *x, const ProtobufCMessage *m, pcol_buf *buf, unsigned field, size_t *at) {
  size_t n = protobuf_c_message_get_packed_size(m);
  buf->len = 0;
  if (pcol_buf_reserve(buf, n + 1)) return oom(x);
  protobuf_c_message_pack(m, buf->data);
  buf->len = n;
  size_t i = 0;
  pcol_pb_field f;
  while (i < n) {
    size_t at0 = i;
    if (pcol_pb_next(buf->data, n, &i, &f)) break;
    if (f.field > field) {
      i = at0;
      break;
    }
  }
  *at = i;
  return PCOL_OK;
}

/* source src's part of the export, written to fp: one ResourceProfiles
 * with its Samples written as they are read (three passes over its
 * selected rows: count, sizes and ids, then one a value column), so no
 * sample is held; its meta rows from the file's index (a scan of all rows
 * for each source was quadratic in the number of sources) */
static int add_source(ex *x, pcol_budget *bud, const srcmeta *m, const scols *S, uint32_t src,
                      const pcol_select *sel, const pcol_rtime *rt) {
  pcol_file *f = x->f;
  vcols vc = {0};
  pcol_select one;
  if (sel) one = *sel;
  else memset(&one, 0, sizeof one);
  one.source_id = src;
  size_t ns = 0;
  if ((x->rc = pcol_select_iter(f, &one, count_row, &ns, x->err))) return x->rc;
  if (plan(x, src, &vc, rt)) return x->rc;
  srcmeta ms = *m;
  if ((x->rc = pcol_source_rows(f, PCOL_T_META, src, &ms.rows, &ms.nrows, x->err))) return x->rc;
  /* profile-level fields: OTLP's own meta first, else pprof's */
  pcol_str s;
  int64_t iv;
  uint64_t time = 0, dur = 0;
  if (meta(x, src, OTLP_META_TIME_UNIX_NANO, &s)) {
    char t[24] = {0};
    if (s.len < sizeof t) memcpy(t, s.ptr, s.len);
    time = strtoull(t, NULL, 10);
  } else if (meta_num(x, src, PPROF_META_TIME_NANOS, &iv) && iv > 0) {
    time = (uint64_t)iv;
  } else {
    pcol_view ts;
    if ((x->rc = pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts, x->err))) return x->rc;
    int64_t t = pcol_view_i64(&ts, src - 1);
    if (t != PCOL_NA_I64 && t > 0 && t < 9223372036) time = (uint64_t)t * 1000000000u;
  }
  if (meta(x, src, OTLP_META_DURATION_NANO, &s)) {
    char t[24] = {0};
    if (s.len < sizeof t) memcpy(t, s.ptr, s.len);
    dur = strtoull(t, NULL, 10);
  } else if (meta_num(x, src, PPROF_META_DURATION_NANOS, &iv) && iv > 0) {
    dur = (uint64_t)iv;
  }
  x->rc = 0;
  /* of a time range: the source's window cut by it (THE range rule of the
   * header, pcol_wall_cut), what pcol top of the range says: the Profiles'
   * time_unix_nano moves to where the window's part begins (the
   * timestamps stay the instants they were) and duration_nano is its
   * length; a start unknown (0) stays unknown, the timestamps since the
   * window's start */
  uint64_t start = time;
  int64_t from = INT64_MIN + 1, shift = 0;
  int cut = 0;
  pcol_wall_window win;
  if (x->ranged) { /* (its pcol.span_start_ns places it, moved by pcol_wall_meta_cut) */
    (void)pcol_wall_cut(&x->wall, sel, src, &win);
    pcol_wall_cut_keep_span(&x->wall, src, &win);
  }
  if (x->ranged && !x->states[src]) {
    /* a window the range misses states nothing (pcol_wall_states, THE
     * rule of the header): not written, unless rows of it are selected (past
     * the duration it states), which are written with the header's start
     * as time_unix_nano and no duration (0 of go's merge after another
     * Profile's start took its place: no Time:), their timestamps the
     * instants they were (of a start unknown, since the header's); of a
     * header without a start, with none, the timestamps since its own */
    if (!ns) return x->rc = 0;
    uint64_t hs = x->hstart > 0 ? (uint64_t)x->hstart : 0; /* (OTLP's times are since 1970) */
    from = win.from, cut = 1, dur = 0;
    start = !hs ? 0 : time ? time : hs;
    time = hs;
  } else if (x->ranged && win.cut) {
    from = win.from, shift = win.shift, cut = 1;
    if (time) time = (uint64_t)shift > UINT64_MAX - time ? UINT64_MAX : time + (uint64_t)shift;
    dur = win.stated > 0 ? (uint64_t)win.stated : 0;
  }
  otlp_vtype *pt = NULL;
  int64_t period = 0;
  pcol_period pd; /* THE period rule (lib/core/period.c) */
  if ((x->rc = pcol_source_period_or_interval(f, src, &pd, x->err))) return x->rc; /* (THE written period, lasts.h) */
  if (pd.has_type || pd.has_unit) {
    pt = xalloc(x, sizeof *pt);
    if (!pt) return x->rc;
    P(value_type__init)(pt);
    pt->type_strindex = pd.has_type ? str_bytes(x, pd.type.ptr, pd.type.len) : 0;
    pt->unit_strindex = pd.has_unit ? str_bytes(x, pd.unit.ptr, pd.unit.len) : 0;
  }
  period = pd.period;
  if (vc.synth && vc.interval_ns && !pt) {
    pt = xalloc(x, sizeof *pt);
    if (!pt) return x->rc;
    P(value_type__init)(pt);
    pt->type_strindex = str_c(x, "cpu");
    pt->unit_strindex = str_c(x, "nanoseconds");
    period = vc.interval_ns;
  }
  x->rc = 0;
  /* Profile attributes: the source's type and name, its other meta keys */
  size_t nmeta = ms.nrows;
  int32_t *pattr = xalloc(x, (nmeta + 3) * sizeof *pattr);
  if (!pattr) return x->rc;
  size_t npattr = 0;
  {
    pcol_view st, su;
    if ((x->rc = pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &st, x->err)) ||
        (x->rc = pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &su, x->err)))
      return x->rc;
    int32_t t = str_id(x, pcol_view_u32(&st, src - 1)), u = str_id(x, pcol_view_u32(&su, src - 1));
    if (t) pattr[npattr++] = attr(x, str_c(x, OTLP_ATTR_SOURCE_TYPE), 0, t, 0, 0);
    if (u) pattr[npattr++] = attr(x, str_c(x, OTLP_ATTR_SOURCE_URI), 0, u, 0, 0);
  }
  for (size_t j = 0; j < ms.nrows && !x->rc; j++) {
    uint32_t i = ms.rows[j];
    pcol_str k;
    if ((x->rc = pcol_string(f, pcol_view_u32(&m->k, i), &k, x->err))) return x->rc;
    if (starts(k, OTLP_META_PREFIX) || starts(k, OTLP_META_OTEL_PREFIX) ||
        pcol_str_is(k, OTLP_ATTR_TIME_BASE))
      continue;
    /* the whole source's start and duration, which the range's window
     * written as time_unix_nano and duration_nano replaces */
    if (cut && (pcol_str_is(k, PPROF_META_TIME_NANOS) || pcol_str_is(k, PPROF_META_DURATION_NANOS)))
      continue;
    int32_t ki = str_bytes(x, k.ptr, k.len), vi;
    if (x->parts && pcol_str_is(k, PCOL_META_RECORDING_PART)) {
      /* its part in the selection (THE selection rule of parts, wall.c),
       * once, none when it is a recording of its own there */
      char num[16];
      uint32_t part = x->wall.part[src];
      if (!part) continue;
      x->wall.part[src] = 0;
      snprintf(num, sizeof num, "%u", (unsigned)part);
      vi = str_c(x, num);
    } else {
      vi = str_id(x, pcol_view_u32(&m->v, i));
      /* the keys that place it on a clock move with its times (THE rule:
       * pcol_wall_meta_cut) */
      pcol_str v;
      char num[24];
      int mc = 0;
      if (cut && shift > 0) {
        if ((x->rc = pcol_string(f, pcol_view_u32(&m->v, i), &v, x->err))) return x->rc;
        mc = pcol_wall_meta_cut(&x->wall, src, &win, k, v, num);
      }
      if (mc == 2) continue;
      if (mc == 1) vi = str_c(x, num);
    }
    pattr[npattr++] = attr(x, ki, 0, vi, 0, 0);
  }
  /* pass 1: the samples' sizes in each Profile, their ids (stacks,
   * attributes, links: the dictionary grows here, in sample order), and
   * the Profiles' ids; refused first when even the least each Sample can
   * take (5 bytes a Profile) would pass the output budget */
  if (vc.n && ns > (UINT64_MAX / 5) / vc.n) return x->rc = pcol_budget_refuse(bud, x->err);
  if (pcol_budget_exceeded(bud, (uint64_t)ns * 5 * vc.n)) return x->rc = pcol_budget_refuse(bud, x->err);
  spass ps;
  memset(&ps, 0, sizeof ps);
  ps.x = x;
  ps.S = S;
  ps.vc = &vc;
  ps.rt = rt;
  ps.src = src;
  ps.time = start;
  ps.from = from;
  ps.shift = shift;
  ps.size = xalloc(x, (vc.n + 1) * sizeof *ps.size);
  ps.h = xalloc(x, (2 * vc.n + 1) * sizeof *ps.h);
  if (x->rc) return x->rc;
  for (size_t c = 0; c < vc.n; c++) profile_id_start(ps.h + 2 * c, c, &vc, time, dur, period, ns);
  pcol_buf sb = {0}, rb = {0}, ra = {0}, sa = {0};
  int rc = pcol_select_iter(f, &one, pass_row, &ps, x->err);
  if (rc && !x->rc) x->rc = rc == PCOL_ENOMEM ? oom(x) : rc;
  if (x->rc) goto out;
  /* timed samples without a wall-clock start: time_unix_nano stays 0 and
   * the timestamps are the times since the source's start, which the
   * importer reads back as such (without this mark it takes the earliest
   * timestamp as the start: a producer that stamps only its samples) */
  if (!start && ps.timed &&
      !(pattr[npattr++] = attr(x, str_c(x, OTLP_ATTR_TIME_BASE), 0, str_c(x, OTLP_TIME_BASE_START), 0, 0)))
    goto out;
  /* the source's messages, without their repeated field of messages (rb:
   * ResourceProfiles { resource 1, [scope_profiles 2 at rat], schema_url 3 },
   * sb: ScopeProfiles { scope 1, [profiles 2 at sat], schema_url 3 }),
   * their strings by length (w_str) */
  size_t sat = 0, rat = 0;
  if (kvs(x, &ms, OTLP_META_RESOURCE, 1, &ra) || kvs(x, &ms, OTLP_META_SCOPE, 3, &sa)) goto out;
  pcol_str rs, sn, sv, ss;
  int hrs = meta(x, src, OTLP_META_RESOURCE_SCHEMA, &rs), hsn = meta(x, src, OTLP_META_SCOPE_NAME, &sn),
      hsv = meta(x, src, OTLP_META_SCOPE_VERSION, &sv), hss = meta(x, src, OTLP_META_SCOPE_SCHEMA, &ss);
  x->rc = 0;
  int wf = pcol_pb_w_bytes(&rb, 1, ra.data, ra.len);
  rat = rb.len;
  wf = wf || (hrs && w_str(&rb, 3, utf8(x, rs)));
  ra.len = 0; /* (the scope's body) */
  wf = wf || (hsn && w_str(&ra, 1, utf8(x, sn))) || (hsv && w_str(&ra, 2, utf8(x, sv))) ||
       pcol_buf_append(&ra, sa.data, sa.len) || pcol_pb_w_bytes(&sb, 1, ra.data, ra.len);
  sat = sb.len;
  wf = wf || (hss && w_str(&sb, 3, utf8(x, ss)));
  if (wf && !x->rc) oom(x);
  pcol_buf *pb = xalloc(x, (vc.n + 1) * sizeof *pb); /* each Profile's bytes */
  size_t *pat = xalloc(x, (vc.n + 1) * sizeof *pat);
  if (x->rc) goto out;
  uint64_t scope_len = 0;
  for (size_t c = 0; c < vc.n && !x->rc; c++) {
    otlp_profile p;
    otlp_vtype st;
    uint8_t pid[16];
    P(profile__init)(&p);
    P(value_type__init)(&st);
    st.type_strindex = vc.type[c];
    st.unit_strindex = vc.unit[c];
    p.sample_type = &st;
    p.time_unix_nano = time;
    p.duration_nano = dur;
    p.period_type = pt;
    p.period = period;
    profile_id_end(x, src, c, ps.h + 2 * c, pid);
    p.profile_id.data = pid;
    p.profile_id.len = 16;
    p.attribute_indices = pattr;
    p.n_attribute_indices = npattr;
    if (pack_split(x, &p.base, &pb[c], 2, &pat[c])) break;
    uint64_t plen = pb[c].len + ps.size[c];
    scope_len += pcol_pb_head_len(2, PCOL_PB_LEN, plen) + plen;
  }
  if (!x->rc) {
    scope_len += sb.len;
    uint64_t res_len = rb.len + pcol_pb_head_len(2, PCOL_PB_LEN, scope_len) + scope_len;
    uint64_t all = pcol_pb_head_len(1, PCOL_PB_LEN, res_len) + res_len;
    if (pcol_budget_exceeded(bud, all)) {
      x->rc = pcol_budget_refuse(bud, x->err);
    } else {
      /* ResourceProfiles { resource, ScopeProfiles { scope, Profile {
       * sample_type, Samples..., the rest }..., the rest }, the rest } */
      uint8_t hdr[24];
      FILE *fp = bud->fp;
      uint64_t at = x->wrote;
      size_t hl = enc_head(hdr, 1, res_len);
      int ok = put(x, fp, hdr, hl) && put(x, fp, rb.data, rat);
      hl = enc_head(hdr, 2, scope_len);
      ok = ok && put(x, fp, hdr, hl) && put(x, fp, sb.data, sat);
      ps.write = 1;
      ps.fp = fp;
      for (size_t c = 0; c < vc.n && ok && !x->rc; c++) {
        hl = enc_head(hdr, 2, pb[c].len + ps.size[c]);
        ok = put(x, fp, hdr, hl) && put(x, fp, pb[c].data, pat[c]);
        ps.c = c;
        rc = ok ? pcol_select_iter(f, &one, pass_row, &ps, x->err) : PCOL_OK;
        if (rc && !x->rc) x->rc = rc == PCOL_ENOMEM ? oom(x) : rc;
        ok = ok && !x->rc && put(x, fp, pb[c].data + pat[c], pb[c].len - pat[c]);
      }
      ok = ok && !x->rc && put(x, fp, sb.data + sat, sb.len - sat) &&
           put(x, fp, rb.data + rat, rb.len - rat);
      if (!ok && !x->rc)
        x->rc = pcol_error_set(x->err, PCOL_EIO, "otlp export: write failed: %s", strerror(x->wr_errno));
      if (!x->rc && x->wrote - at != all) /* the lengths written before the bytes must hold */
        x->rc = pcol_error_set(x->err, PCOL_EINVAL, "otlp export: source %u: %" PRIu64 " bytes "
                               "written for a message of %" PRIu64 " (a bug in pcol)",
                               src, x->wrote - at, all);
    }
  }
  for (size_t c = 0; pb && c < vc.n; c++) pcol_buf_free(&pb[c]);
out:
  pcol_buf_free(&sb);
  pcol_buf_free(&rb);
  pcol_buf_free(&ra);
  pcol_buf_free(&sa);
  pcol_buf_free(&ps.p.attrs);
  pcol_buf_free(&ps.p.values);
  return x->rc;
}

/* --------------------------------------------------------------- output */

typedef struct out_buf {
  ProtobufCBuffer base;
  FILE *fp;
  int failed; /* 0 or the failed write's errno */
} out_buf;
static void out_append(ProtobufCBuffer *pb, size_t len, const uint8_t *data) {
  out_buf *o = (out_buf *)pb;
  if (!o->failed && len && fwrite(data, 1, len, o->fp) != len) o->failed = errno ? errno : EIO;
}

int pcol_export_otlp_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                         const pcol_export_options *opt, pcol_error *err) {
  if (!f || !out) return pcol_error_set(err, PCOL_EINVAL, "pcol_export_otlp: NULL argument");
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  ex x;
  memset(&x, 0, sizeof x);
  pcol_budget bud;
  if ((x.rc = pcol_budget_open(&bud, f, opt, "otlp export", out, err))) return x.rc;
  bud.hold_floor = PCOL_EXPORT_HOLD_MIN; /* the stack table (stream.h) */
  x.f = f;
  x.err = err;
  x.whole = !sel || (!sel->has_from && !sel->has_to && !pcol_select_filtered(sel));
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  pcol_rtime rt;
  memset(&rt, 0, sizeof rt);
  otlp_dict D;
  P(profiles_dictionary__init)(&D);
  if (sel && sel->source_id > nsrc) {
    x.rc = pcol_error_set(err, PCOL_ENOTFOUND, "no source %u (the file has %" PRIu64 ")",
                          sel->source_id, nsrc);
    goto done;
  }
  uint64_t nstrings = pcol_string_count(f), nstacks = pcol_rows(f, PCOL_T_STACKS);
  x.cache = malloc((nstrings + 1) * sizeof *x.cache);
  x.stack_ix = calloc(nstacks + 2, sizeof *x.stack_ix);
  if (!x.cache || !x.stack_ix) {
    oom(&x);
    goto done;
  }
  memset(x.cache, 0xff, (nstrings + 1) * sizeof *x.cache);
  /* entry 0 of every table: the zero value */
  if (PCOL_GROW(x.attrs, x.nattr, x.capattr) || PCOL_GROW(x.links, x.nlink, x.caplink) ||
      PCOL_GROW(x.stacks, x.nstack, x.capstack)) {
    oom(&x);
    goto done;
  }
  {
    static otlp_kvu z_attr = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__KEY_VALUE_AND_UNIT__INIT;
    static otlp_link z_link = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__LINK__INIT;
    static otlp_stack z_stack = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__STACK__INIT;
    x.attrs[x.nattr++] = &z_attr;
    x.links[x.nlink++] = &z_link;
    x.stacks[x.nstack++] = &z_stack;
  }
  /* the link label keys, if the file has them */
  for (uint64_t i = 1; i < nstrings && !x.rc; i++) {
    pcol_str s;
    if ((x.rc = pcol_string(f, (uint32_t)i, &s, err))) break;
    if (pcol_str_is(s, OTLP_LABEL_TRACE_ID)) x.key_trace = (uint32_t)i;
    if (pcol_str_is(s, OTLP_LABEL_SPAN_ID)) x.key_span = (uint32_t)i;
  }
  if (x.rc || (x.rc = pcol_rtime_init(&rt, f, err)) || (x.rc = pcol_xvalues_init(&x.xv, f, &rt, err)) ||
      (x.rc = pcol_count_types(f, &x.cvt, err)) || add_tables(&x, &D))
    goto done;
  srcmeta m;
  scols S;
  memset(&S, 0, sizeof S);
  if ((x.rc = pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &m.k, err)) ||
      (x.rc = pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &m.v, err)) ||
      (x.rc = pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &m.s, err)) ||
      (x.rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &S.src, err)) ||
      (x.rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &S.time, err)) ||
      (x.rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &S.weight, err)) ||
      (x.rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &S.stack, err)) ||
      (x.rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &S.ls, err)) ||
      (x.rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &S.voff, err)) ||
      (x.rc = pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &S.vty, err)) ||
      (x.rc = pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &S.vva, err)) ||
      (x.rc = pcol_column(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &S.lso, err)) ||
      (x.rc = pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_KEY, &S.lk, err)) ||
      (x.rc = pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_STR, &S.lstr, err)) ||
      (x.rc = pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_NUM, &S.lnum, err)) ||
      (x.rc = pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_UNIT, &S.lunit, err)) ||
      (x.rc = pcol_sample_cols_init(&S.sc, f, err)))
    goto done;
  if (hold_stacks(&x, &bud, &S.stack, &S.src, sel)) goto done;
  m.n = pcol_rows(f, PCOL_T_META);
  S.nlab = pcol_rows(f, PCOL_T_LABELS);
  S.nvals = pcol_rows(f, PCOL_T_VALUES);
  /* one source of several: its recording's part in what is written; a
   * time range: each source's window */
  x.ranged = sel && (sel->has_from || sel->has_to);
  if ((sel && sel->source_id && nsrc > 1) || x.ranged) {
    if ((x.rc = pcol_wall_init(f, &x.wall, err))) goto done;
    x.walled = 1;
    if (x.ranged && (x.rc = pcol_wall_states(f, sel, &x.states, &x.hstart, err))) goto done;
  }
  /* the parts of the recordings the selection writes (THE selection rule
   * of parts, wall.c): of a range, the sources it leaves out are no part
   * (a range missing a recording's middle part read back as two
   * recordings, their spans added: rd12b F1) */
  if (x.walled) {
    x.parts = 1;
    if ((x.rc = pcol_wall_select_parts_of(&x.wall, f, sel, x.states, err))) goto done;
  }
  /* a ResourceProfiles a source, each written as its samples are read */
  for (uint64_t s = 1; s <= nsrc && !x.rc; s++)
    if (!sel || !sel->source_id || sel->source_id == s) add_source(&x, &bud, &m, &S, (uint32_t)s, sel, &rt);
  if (x.rc) goto done;
  D.link_table = x.links;
  D.n_link_table = x.nlink;
  /* then the dictionary (field 2), its fields in the order they always
   * had: protobuf-c's tables 1-4, the attribute table (6, w_attrs), the
   * stack table (7), the string table (5): the two holding strings written
   * here, by length (protobuf-c's strings end at a NUL, and pcol's may
   * hold one) */
  otlp_dict D7;
  P(profiles_dictionary__init)(&D7);
  D7.stack_table = x.stacks;
  D7.n_stack_table = x.nstack;
  pcol_buf ab = {0};
  if (w_attrs(&x, &ab)) goto done;
  out_buf o = {{NULL}, bud.fp, 0};
  o.base.append = out_append;
  size_t dlen = P(profiles_dictionary__get_packed_size)(&D) + ab.len + P(profiles_dictionary__get_packed_size)(&D7);
  size_t sn;
  for (uint32_t i = 0; i <= x.strs.n; i++) {
    str_at(&x, i, &sn);
    dlen += pcol_pb_head_len(5, PCOL_PB_LEN, sn) + sn;
  }
  uint8_t hdr[20];
  size_t hl = pcol_pb_put_head(hdr, 2, PCOL_PB_LEN, dlen);
  out_append(&o.base, hl, hdr);
  P(profiles_dictionary__pack_to_buffer)(&D, &o.base);
  out_append(&o.base, ab.len, ab.data);
  pcol_buf_free(&ab);
  P(profiles_dictionary__pack_to_buffer)(&D7, &o.base);
  for (uint32_t i = 0; i <= x.strs.n; i++) {
    const char *sp = str_at(&x, i, &sn);
    hl = pcol_pb_put_head(hdr, 5, PCOL_PB_LEN, sn);
    out_append(&o.base, hl, hdr);
    out_append(&o.base, sn, (const uint8_t *)sp);
  }
  if (!o.failed && fflush(bud.fp)) o.failed = errno ? errno : EIO;
  if (o.failed) x.rc = pcol_error_set(err, PCOL_EIO, "otlp export: write failed: %s", strerror(o.failed));
done:
  pcol_rtime_free(&rt);
  free(x.cvt);
  if (x.walled) pcol_wall_free(&x.wall);
  free(x.states);
  free(x.cache);
  free(x.stack_ix);
  pcol_intern_free(&x.strs);
  free(x.attrs);
  free(x.links);
  free(x.stacks);
  pcol_hset_free(&x.attr_set);
  pcol_hset_free(&x.link_set);
  pcol_buf_free(&x.scratch);
  pcol_arena_release(&x.ar);
  return pcol_budget_close(&bud, x.rc, err);
}

int pcol_export_otlp(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  return pcol_export_otlp_opt(f, sel, out, NULL, err);
}
