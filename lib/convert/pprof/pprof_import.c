/* pprof_import.c — a pprof profile (profile.proto, gzip or raw) into a builder.
 *
 * The whole stream is read first (inflated when it starts with the gzip magic,
 * all gzip members concatenated, capped relative to the compressed bytes:
 * pcol_inflate_cap), because the string table may sit anywhere in the
 * message.  Then the top-level fields are decoded here and each sub-message
 * by protobuf-c into an arena; the string table is not copied but points
 * into the one inflated buffer, which is then cut down to the strings.  The
 * result is checked the way google/pprof's CheckValid does, and it is mapped
 * into the builder as doc/mappings.md §2.1 describes: one source, one pcol
 * sample per pprof sample, every field kept.
 */
#include "internal.h"
#include "pprof.h"
#include "profile.pb-c.h"
#include <inttypes.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <zlib.h>

/* ------------------------------------------------ legacy format names */

const char *pcol_pprof_legacy_kind(const uint8_t *p, size_t n) {
  if (n >= 24 && pcol_rd64(p) == 0 && pcol_rd64(p + 8) == 3 && pcol_rd64(p + 16) == 0)
    return "legacy gperftools CPU profile (64-bit binary)";
  if (n >= 12 && pcol_rd32(p) == 0 && pcol_rd32(p + 4) == 3)
    return "legacy gperftools/Java CPU profile (32-bit binary)";
  static const struct {
    const char *prefix, *kind;
  } text[] = {{"heap profile:", "legacy heap profile (text)"},
              {"heap_v2/", "legacy heap profile (text)"},
              {"--- contention", "legacy contention profile (text)"},
              {"--- mutex", "legacy contention profile (text)"},
              {"--- threadz", "legacy thread profile (text)"},
              {"--- heapz", "legacy Java heap profile (text)"},
              {"--- contentionz", "legacy Java contention profile (text)"},
              {"--- cpuz", "legacy Java CPU profile (text)"},
              {"goroutine profile:", "legacy Go count profile (text)"},
              {"threadcreate profile:", "legacy Go count profile (text)"}};
  for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
    size_t l = strlen(text[i].prefix);
    if (n >= l && memcmp(p, text[i].prefix, l) == 0) return text[i].kind;
  }
  return NULL;
}

/* -------------------------------------------- top-level wire-format scan */

static int varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v) {
  uint64_t r = 0;
  for (int s = 0; s < 70; s += 7) {
    if (*i >= n) return -1; /* truncated */
    uint8_t c = p[(*i)++];
    r |= (uint64_t)(c & 0x7f) << s;
    if (!(c & 0x80)) {
      *v = r;
      return 0;
    }
  }
  return -2; /* longer than 10 bytes */
}

/* Walks the top-level fields: gives byte offsets for framing errors that
 * protobuf-c reports only as "failed", and detects concatenated profiles
 * (a second time_nanos after a nonzero one, google/pprof's rule). */
static int scan_top(const uint8_t *p, size_t n, const char *name, pcol_error *err) {
  size_t i = 0;
  int64_t time_nanos = 0;
  while (i < n) {
    size_t at = i;
    uint64_t tag, v;
    int r = varint(p, n, &i, &tag);
    if (r) goto bad_varint;
    uint64_t field = tag >> 3;
    unsigned wt = tag & 7;
    if (field == 0)
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: not a pprof protobuf: field number 0 at byte offset %zu",
                            name, at);
    switch (wt) {
    case 0:
      if ((r = varint(p, n, &i, &v))) goto bad_varint;
      if (field == 9) {
        if (time_nanos != 0)
          return pcol_error_set(err, PCOL_ECORRUPT,
                                "%s: concatenated profiles detected (second time_nanos "
                                "at byte offset %zu)",
                                name, at);
        time_nanos = (int64_t)v;
      }
      break;
    case 1:
      if (n - i < 8) goto truncated;
      i += 8;
      break;
    case 2:
      if ((r = varint(p, n, &i, &v))) goto bad_varint;
      if (v > n - i) goto truncated;
      i += (size_t)v;
      break;
    case 5:
      if (n - i < 4) goto truncated;
      i += 4;
      break;
    default:
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: not a pprof protobuf: wire type %u (field %" PRIu64
                            ") at byte offset %zu",
                            name, wt, field, at);
    }
    continue;
  bad_varint:
    if (r == -2)
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: malformed protobuf: varint longer than 10 bytes at byte "
                            "offset %zu",
                            name, at);
  truncated:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: truncated protobuf: the field at byte offset %zu runs past "
                          "the end (%zu bytes)",
                          name, at, n);
  }
  return PCOL_OK;
}

/* ------------------------------------------- decoding the Profile message */

/* What protobuf-c's Profile unpack gives, with one difference: the string
 * table is not copied, its entries point into `raw` (the one inflated copy).
 * Sub-messages are unpacked by protobuf-c one at a time into the arena.
 * scan_top has checked the framing. */
typedef struct topf {
  size_t at, b, e; /* field offset; payload [b, e) (wire type 2), or the varint in v */
  uint64_t field, v;
  unsigned wt;
} topf;

static int top_next(const uint8_t *p, size_t n, size_t *i, topf *f) {
  f->at = *i;
  uint64_t tag, len;
  if (varint(p, n, i, &tag)) return -1;
  f->field = tag >> 3;
  f->wt = tag & 7;
  f->b = f->e = *i;
  f->v = 0;
  switch (f->wt) {
  case 0: return varint(p, n, i, &f->v) ? -1 : 0;
  case 1:
    if (n - *i < 8) return -1;
    *i += 8;
    return 0;
  case 5:
    if (n - *i < 4) return -1;
    *i += 4;
    return 0;
  case 2:
    if (varint(p, n, i, &len) || len > n - *i) return -1;
    f->b = *i;
    f->e = *i += (size_t)len;
    return 0;
  default: return -1;
  }
}

static int decode_profile(const uint8_t *raw, size_t n, ProtobufCAllocator *alloc, const char *name,
                          int gz, Perftools__Profiles__Profile **out, pcol_error *err) {
  Perftools__Profiles__Profile *p = alloc->alloc(alloc->allocator_data, sizeof *p);
  if (!p) return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  perftools__profiles__profile__init(p);
  size_t count[16] = {0}, i;
  topf f;
  const uint8_t *pt = NULL; /* period_type: the last occurrence wins (protobuf-c, Go) */
  size_t npt = 0;
  /* pass 1: how many of each repeated field */
  for (i = 0; i < n;) {
    if (top_next(raw, n, &i, &f)) goto framing;
    if (f.field >= 16) continue; /* unknown: skipped, as protobuf-c skips them */
    if (f.field == 13 && f.wt == 2) { /* packed comments: one varint each */
      for (size_t k = f.b; k < f.e;) {
        uint64_t v;
        if (varint(raw, f.e, &k, &v)) goto bad_field;
        count[13]++;
      }
      continue;
    }
    count[f.field]++;
  }
  size_t w = sizeof(void *);
  p->sample_type = alloc->alloc(alloc->allocator_data, (count[1] + 1) * w);
  p->sample = alloc->alloc(alloc->allocator_data, (count[2] + 1) * w);
  p->mapping = alloc->alloc(alloc->allocator_data, (count[3] + 1) * w);
  p->location = alloc->alloc(alloc->allocator_data, (count[4] + 1) * w);
  p->function = alloc->alloc(alloc->allocator_data, (count[5] + 1) * w);
  p->string_table = alloc->alloc(alloc->allocator_data, (count[6] + 1) * sizeof *p->string_table);
  p->comment = alloc->alloc(alloc->allocator_data, (count[13] + 1) * sizeof *p->comment);
  if (!p->sample_type || !p->sample || !p->mapping || !p->location || !p->function ||
      !p->string_table || !p->comment)
    return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  /* pass 2: the values */
  for (i = 0; i < n;) {
    if (top_next(raw, n, &i, &f)) goto framing;
    if (f.field >= 16) continue;
    int is_msg = (f.field >= 1 && f.field <= 6) || f.field == 11;
    if (is_msg ? f.wt != 2 : (f.wt != 0 && !(f.field == 13 && f.wt == 2)))
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: malformed pprof protobuf (%s%zu bytes): field %" PRIu64 " at byte "
                            "offset %zu has wire type %u, not %u",
                            name, gz ? "inflated, " : "", n, f.field, f.at, f.wt, is_msg ? 2u : 0u);
    size_t len = f.e - f.b;
    const uint8_t *d = raw + f.b;
    void *m = NULL;
    switch (f.field) {
    case 1: m = p->sample_type[p->n_sample_type++] = perftools__profiles__value_type__unpack(alloc, len, d); break;
    case 2: m = p->sample[p->n_sample++] = perftools__profiles__sample__unpack(alloc, len, d); break;
    case 3: m = p->mapping[p->n_mapping++] = perftools__profiles__mapping__unpack(alloc, len, d); break;
    case 4: m = p->location[p->n_location++] = perftools__profiles__location__unpack(alloc, len, d); break;
    case 5: m = p->function[p->n_function++] = perftools__profiles__function__unpack(alloc, len, d); break;
    case 6:
      p->string_table[p->n_string_table].len = len;
      p->string_table[p->n_string_table++].data = (uint8_t *)(uintptr_t)d;
      m = p;
      break;
    case 11:
      pt = d;
      npt = len;
      m = p;
      break;
    case 7: p->drop_frames = (int64_t)f.v; m = p; break;
    case 8: p->keep_frames = (int64_t)f.v; m = p; break;
    case 9: p->time_nanos = (int64_t)f.v; m = p; break;
    case 10: p->duration_nanos = (int64_t)f.v; m = p; break;
    case 12: p->period = (int64_t)f.v; m = p; break;
    case 14: p->default_sample_type = (int64_t)f.v; m = p; break;
    case 15: p->doc_url = (int64_t)f.v; m = p; break;
    case 13:
      if (f.wt == 0) {
        p->comment[p->n_comment++] = (int64_t)f.v;
      } else {
        for (size_t k = f.b; k < f.e;) {
          uint64_t v;
          if (varint(raw, f.e, &k, &v)) goto bad_field;
          p->comment[p->n_comment++] = (int64_t)v;
        }
      }
      m = p;
      break;
    default: m = p; break; /* field 0: refused by scan_top */
    }
    if (!m) goto bad_field;
  }
  if (pt && !(p->period_type = perftools__profiles__value_type__unpack(alloc, npt, pt))) goto bad_period;
  *out = p;
  return PCOL_OK;
framing: /* scan_top walked the same bytes: not reached */
  return pcol_error_set(err, PCOL_ECORRUPT, "%s: truncated protobuf near byte offset %zu", name, f.at);
bad_field:
  return pcol_error_set(err, PCOL_ECORRUPT,
                        "%s: malformed pprof protobuf (%s%zu bytes): the message of field %" PRIu64
                        " at byte offset %zu is truncated or has a field of the wrong wire type",
                        name, gz ? "inflated, " : "", n, f.field, f.at);
bad_period:
  return pcol_error_set(err, PCOL_ECORRUPT,
                        "%s: malformed pprof protobuf (%s%zu bytes): period_type is truncated or "
                        "has a field of the wrong wire type",
                        name, gz ? "inflated, " : "", n);
}

/* Cuts the inflated buffer down to the string table (every other field is
 * decoded into the arena by now) and points the table at the new copy. */
static void keep_strings_only(pcol_buf *raw, Perftools__Profiles__Profile *p) {
  size_t o = 0;
  for (size_t k = 0; k < p->n_string_table; k++) { /* in file order: moves go down */
    ProtobufCBinaryData *s = &p->string_table[k];
    if (s->len) memmove(raw->data + o, s->data, s->len);
    s->data = (uint8_t *)(uintptr_t)o; /* an offset until the buffer settles */
    o += s->len;
  }
  uint8_t *shrunk = realloc(raw->data, o ? o : 1);
  if (shrunk) {
    raw->data = shrunk;
    raw->cap = o ? o : 1;
  }
  raw->len = o;
  for (size_t k = 0; k < p->n_string_table; k++)
    p->string_table[k].data = raw->data + (size_t)(uintptr_t)p->string_table[k].data;
}

/* ------------------------------------------------------- id -> index map */

typedef struct idmap {
  uint64_t *keys; /* 0 = empty (ids are nonzero) */
  uint32_t *vals; /* index + 1 */
  size_t mask;
  size_t dense;   /* the records are numbered 1..dense in order (0: not so) */
} idmap;

static int idmap_init(idmap *m, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n + 1) cap *= 2;
  m->keys = calloc(cap, sizeof *m->keys);
  m->vals = calloc(cap, sizeof *m->vals);
  m->mask = cap - 1;
  m->dense = 0;
  return m->keys && m->vals ? PCOL_OK : PCOL_ENOMEM;
}
static void idmap_free(idmap *m) {
  free(m->keys);
  free(m->vals);
}
static size_t idmap_slot(const idmap *m, uint64_t key) {
  /* keyed: ids come from the file, and a fixed mixer (even a full one) is
   * invertible, so a file could aim every id at one slot (50k ids: 13 s) */
  uint64_t h = pcol_hash2(0x1d, key, 0);
  size_t i = (size_t)h & m->mask;
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & m->mask;
  return i;
}
static uint32_t idmap_get(const idmap *m, uint64_t key) {
  /* no table: an empty one (check_ids makes none for 0 records, found by
   * fuzz_pprof: a line naming a function in a profile without any) */
  if (!key || !m->keys) return 0;
  size_t i = idmap_slot(m, key);
  return m->keys[i] ? m->vals[i] : 0;
}
/* 1 if the key was already present */
static int idmap_put(idmap *m, uint64_t key, uint32_t val) {
  size_t i = idmap_slot(m, key);
  if (m->keys[i]) return 1;
  m->keys[i] = key;
  m->vals[i] = val;
  return 0;
}

/* Table index + 1 of an id, 0 if none.  Most producers number records
 * 1..n in order (check_ids notes it): then the id is the index, with no
 * look at the record (a cache miss a frame of every sample, measured a
 * third of `pcol pack`'s time on 1M samples); else the record at that
 * index is tried before hashing. */
#define ID_LOOKUP(NAME, FIELD, MAP)                                             \
  static uint32_t NAME(const struct ctx *c, uint64_t id) {                      \
    if (c->MAP.dense) return id - 1 < c->MAP.dense ? (uint32_t)id : 0;          \
    if (id - 1 < c->p->n_##FIELD && c->p->FIELD[id - 1]->id == id)             \
      return (uint32_t)id;                                                      \
    return idmap_get(&c->MAP, id);                                              \
  }

/* --------------------------------------------------------- validation */

typedef struct ctx {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  const Perftools__Profiles__Profile *p;
  uint32_t *sids; /* pprof string index -> pcol string id; UINT32_MAX = not yet */
  idmap maps, locs, fns;
  uint32_t *map_ids, *loc_ids, *fn_ids; /* pprof table index -> pcol id */
} ctx;

ID_LOOKUP(fn_ix, function, fns)
ID_LOOKUP(loc_ix, location, locs)
ID_LOOKUP(map_ix, mapping, maps)

static int bad(ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int bad(ctx *c, const char *fmt, ...) {
  char m[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: malformed pprof profile: %s", c->name, m);
}

#define CHK_STR(idx, what, ...)                                                          \
  do {                                                                                   \
    int64_t i_ = (idx);                                                                  \
    if (i_ < 0 || (uint64_t)i_ >= p->n_string_table)                                     \
      return bad(c, what " is string index %" PRId64 ", outside the string table (%zu "  \
                         "entries)",                                                     \
                 __VA_ARGS__, i_, p->n_string_table);                                    \
  } while (0)

static int check_ids(ctx *c, idmap *m, const char *table, size_t n,
                     uint64_t (*id_at)(const Perftools__Profiles__Profile *, size_t)) {
  size_t i = 0;
  while (i < n && id_at(c->p, i) == i + 1) i++;
  if (i == n) { /* numbered 1..n in order: no duplicate, no table needed */
    memset(m, 0, sizeof *m);
    m->dense = n;
    return PCOL_OK;
  }
  if (idmap_init(m, n)) return pcol_error_set(c->err, PCOL_ENOMEM, "%s: out of memory", c->name);
  for (i = 0; i < n; i++) {
    uint64_t id = id_at(c->p, i);
    if (id == 0) return bad(c, "%s #%zu has the reserved id 0", table, i + 1);
    if (idmap_put(m, id, (uint32_t)i + 1))
      return bad(c, "%s #%zu has id %" PRIu64 ", already used by an earlier %s", table,
                 i + 1, id, table);
  }
  return PCOL_OK;
}
static uint64_t map_id_at(const Perftools__Profiles__Profile *p, size_t i) { return p->mapping[i]->id; }
static uint64_t loc_id_at(const Perftools__Profiles__Profile *p, size_t i) { return p->location[i]->id; }
static uint64_t fn_id_at(const Perftools__Profiles__Profile *p, size_t i) { return p->function[i]->id; }

/* The rules of google/pprof's parser + CheckValid, with messages that say
 * which record is wrong. */
static int validate(ctx *c) {
  const Perftools__Profiles__Profile *p = c->p;
  int rc;
  if (p->n_string_table == 0) return bad(c, "the string table is missing (entry 0 must be \"\")");
  if (p->string_table[0].len != 0)
    return bad(c, "string_table[0] is %zu bytes long; it must be the empty string",
               p->string_table[0].len);
  if (p->n_sample > UINT32_MAX || p->n_location >= UINT32_MAX ||
      p->n_function >= UINT32_MAX || p->n_mapping >= UINT32_MAX)
    return pcol_error_set(c->err, PCOL_ETOOBIG, "%s: too many records for pcol", c->name);
  for (size_t i = 0; i < p->n_sample_type; i++) {
    CHK_STR(p->sample_type[i]->type, "sample_type #%zu type", i + 1);
    CHK_STR(p->sample_type[i]->unit, "sample_type #%zu unit", i + 1);
  }
  if (p->period_type) {
    CHK_STR(p->period_type->type, "period_type type%s", "");
    CHK_STR(p->period_type->unit, "period_type unit%s", "");
  }
  CHK_STR(p->drop_frames, "drop_frames%s", "");
  CHK_STR(p->keep_frames, "keep_frames%s", "");
  CHK_STR(p->default_sample_type, "default_sample_type%s", "");
  CHK_STR(p->doc_url, "doc_url%s", "");
  for (size_t i = 0; i < p->n_comment; i++) CHK_STR(p->comment[i], "comment #%zu", i + 1);
  if ((rc = check_ids(c, &c->maps, "mapping", p->n_mapping, map_id_at))) return rc;
  if ((rc = check_ids(c, &c->locs, "location", p->n_location, loc_id_at))) return rc;
  if ((rc = check_ids(c, &c->fns, "function", p->n_function, fn_id_at))) return rc;
  for (size_t i = 0; i < p->n_mapping; i++) {
    CHK_STR(p->mapping[i]->filename, "mapping #%zu filename", i + 1);
    CHK_STR(p->mapping[i]->build_id, "mapping #%zu build_id", i + 1);
  }
  for (size_t i = 0; i < p->n_function; i++) {
    const Perftools__Profiles__Function *fn = p->function[i];
    CHK_STR(fn->name, "function #%zu name", i + 1);
    CHK_STR(fn->system_name, "function #%zu system_name", i + 1);
    CHK_STR(fn->filename, "function #%zu filename", i + 1);
  }
  for (size_t i = 0; i < p->n_location; i++) {
    const Perftools__Profiles__Location *l = p->location[i];
    for (size_t j = 0; j < l->n_line; j++)
      if (!fn_ix(c, l->line[j]->function_id))
        return bad(c, "location #%zu (id %" PRIu64 ") line %zu names function id %" PRIu64
                      ", which does not exist",
                   i + 1, l->id, j + 1, l->line[j]->function_id);
  }
  if (p->n_sample && !p->n_sample_type) return bad(c, "samples present but no sample_type");
  for (size_t i = 0; i < p->n_sample; i++) {
    const Perftools__Profiles__Sample *s = p->sample[i];
    if (s->n_value != p->n_sample_type)
      return bad(c, "sample #%zu has %zu values, but there are %zu sample types", i + 1,
                 s->n_value, p->n_sample_type);
    for (size_t j = 0; j < s->n_location_id; j++)
      if (!loc_ix(c, s->location_id[j]))
        return bad(c, "sample #%zu refers to location id %" PRIu64 ", which does not exist",
                   i + 1, s->location_id[j]);
    for (size_t j = 0; j < s->n_label; j++) {
      CHK_STR(s->label[j]->key, "sample #%zu label %zu key", i + 1, j + 1);
      CHK_STR(s->label[j]->str, "sample #%zu label %zu str", i + 1, j + 1);
      CHK_STR(s->label[j]->num_unit, "sample #%zu label %zu num_unit", i + 1, j + 1);
    }
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------ mapping */

#define TRY(x)                                                                  \
  do {                                                                          \
    int r_ = (x);                                                               \
    if (r_) return pcol_error_set(c->err, r_, "%s: building pcol tables: %s",   \
                                  c->name, pcol_strerror(r_));                  \
  } while (0)

/* pcol string id of a (validated) pprof string index; index 0 -> 0 (NA). */
static int sid(ctx *c, int64_t idx, uint32_t *out) {
  if (idx == 0) {
    *out = 0;
    return PCOL_OK;
  }
  uint32_t *s = &c->sids[idx];
  if (*s == UINT32_MAX) {
    const ProtobufCBinaryData *d = &c->p->string_table[idx];
    int rc = pcol_b_string(c->b, d->data ? (const void *)d->data : "", d->len, s);
    if (rc) return rc;
  }
  *out = *s;
  return PCOL_OK;
}

static int meta_i64(ctx *c, uint32_t src, const char *key, int64_t v) {
  char t[32];
  int n = snprintf(t, sizeof t, "%" PRId64, v);
  return pcol_b_meta(c->b, src, key, t, (size_t)n);
}
static int meta_strx(ctx *c, uint32_t src, const char *key, int64_t idx) {
  const ProtobufCBinaryData *d = &c->p->string_table[idx];
  return pcol_b_meta(c->b, src, key, d->len ? (const void *)d->data : "", d->len);
}

static int floor_div(int64_t a, int64_t b) { return (int)(a % b < 0); }

static int build(ctx *c) {
  const Perftools__Profiles__Profile *p = c->p;
  pcol_builder *b = c->b;
  int64_t ts = PCOL_NA_I64;
  if (p->time_nanos) ts = p->time_nanos / 1000000000 - floor_div(p->time_nanos, 1000000000);
  uint32_t src;
  TRY(pcol_b_source(b, PCOL_SRC_PPROF, c->name, ts, &src));

  /* profile-level fields, present (nonzero) ones only: proto3 has no other
   * notion of presence, so this reproduces the same encoded fields */
  if (p->drop_frames) TRY(meta_strx(c, src, PPROF_META_DROP_FRAMES, p->drop_frames));
  if (p->keep_frames) TRY(meta_strx(c, src, PPROF_META_KEEP_FRAMES, p->keep_frames));
  if (p->time_nanos) TRY(meta_i64(c, src, PPROF_META_TIME_NANOS, p->time_nanos));
  if (p->duration_nanos) TRY(meta_i64(c, src, PPROF_META_DURATION_NANOS, p->duration_nanos));
  if (p->period_type) {
    TRY(meta_strx(c, src, PPROF_META_PERIOD_TYPE_TYPE, p->period_type->type));
    TRY(meta_strx(c, src, PPROF_META_PERIOD_TYPE_UNIT, p->period_type->unit));
  }
  if (p->period) TRY(meta_i64(c, src, PPROF_META_PERIOD, p->period));
  for (size_t i = 0; i < p->n_comment; i++) TRY(meta_strx(c, src, PPROF_META_COMMENT, p->comment[i]));
  if (p->default_sample_type)
    TRY(meta_strx(c, src, PPROF_META_DEFAULT_SAMPLE_TYPE, p->default_sample_type));
  if (p->doc_url) TRY(meta_strx(c, src, PPROF_META_DOC_URL, p->doc_url));

  size_t nvt = p->n_sample_type;
  pcol_value_row *vals = calloc(nvt ? nvt : 1, sizeof *vals);
  if (!vals) return pcol_error_set(c->err, PCOL_ENOMEM, "%s: out of memory", c->name);
  int rc = PCOL_OK;
  for (size_t i = 0; i < nvt && !rc; i++) {
    uint32_t t, u;
    if (!(rc = sid(c, p->sample_type[i]->type, &t)) && !(rc = sid(c, p->sample_type[i]->unit, &u)) &&
        !(rc = pcol_b_value_type(b, t, u, &vals[i].value_type_id)))
      rc = pcol_b_source_value_type(b, src, vals[i].value_type_id);
  }
  if (rc) {
    free(vals);
    TRY(rc);
  }

  for (size_t i = 0; i < p->n_mapping && !rc; i++) {
    const Perftools__Profiles__Mapping *m = p->mapping[i];
    pcol_mapping_row r = {m->memory_start, m->memory_limit, m->file_offset, 0, 0, 0};
    r.flags = (uint8_t)((m->has_functions ? PCOL_MAP_HAS_FUNCTIONS : 0) |
                        (m->has_filenames ? PCOL_MAP_HAS_FILENAMES : 0) |
                        (m->has_line_numbers ? PCOL_MAP_HAS_LINE_NUMBERS : 0) |
                        (m->has_inline_frames ? PCOL_MAP_HAS_INLINE_FRAMES : 0));
    if (!(rc = sid(c, m->filename, &r.filename)) && !(rc = sid(c, m->build_id, &r.build_id)))
      rc = pcol_b_mapping(b, &r, 0, &c->map_ids[i]);
  }
  for (size_t i = 0; i < p->n_function && !rc; i++) {
    const Perftools__Profiles__Function *fn = p->function[i];
    pcol_function_row r = {0, 0, 0, fn->start_line};
    if (!(rc = sid(c, fn->name, &r.name)) && !(rc = sid(c, fn->system_name, &r.system_name)) &&
        !(rc = sid(c, fn->filename, &r.filename)))
      rc = pcol_b_function(b, &r, &c->fn_ids[i]);
  }
  pcol_buf lines = {0};
  for (size_t i = 0; i < p->n_location && !rc; i++) {
    const Perftools__Profiles__Location *l = p->location[i];
    lines.len = 0;
    if (pcol_buf_reserve(&lines, l->n_line * sizeof(pcol_line_row) + 1)) {
      rc = PCOL_ENOMEM;
      break;
    }
    pcol_line_row *lr = (pcol_line_row *)(void *)lines.data;
    for (size_t j = 0; j < l->n_line; j++) {
      lr[j].function_id = c->fn_ids[fn_ix(c, l->line[j]->function_id) - 1];
      lr[j].line = l->line[j]->line;
      lr[j].column = l->line[j]->column;
    }
    /* a missing mapping silently becomes "no mapping", as in google/pprof */
    uint32_t mi = map_ix(c, l->mapping_id);
    rc = pcol_b_location(b, mi ? c->map_ids[mi - 1] : 0, l->address,
                         l->is_folded ? PCOL_LOC_IS_FOLDED : 0, lr, l->n_line, &c->loc_ids[i]);
  }
  pcol_buf stack = {0}, labels = {0};
  pcol_stack_memo memo = {0};
  for (size_t i = 0; i < p->n_sample && !rc; i++) {
    const Perftools__Profiles__Sample *s = p->sample[i];
    if (pcol_buf_reserve(&stack, s->n_location_id * sizeof(uint32_t) + 1) ||
        pcol_buf_reserve(&labels, s->n_label * sizeof(pcol_label_row) + 1)) {
      rc = PCOL_ENOMEM;
      break;
    }
    uint32_t *st = (uint32_t *)(void *)stack.data;
    for (size_t j = 0; j < s->n_location_id; j++)
      st[j] = c->loc_ids[loc_ix(c, s->location_id[j]) - 1];
    pcol_label_row *lb = (pcol_label_row *)(void *)labels.data;
    for (size_t j = 0; j < s->n_label && !rc; j++) {
      const Perftools__Profiles__Label *L = s->label[j];
      lb[j].num = L->num;
      if (!(rc = sid(c, L->key, &lb[j].key)) && !(rc = sid(c, L->str, &lb[j].str)))
        rc = sid(c, L->num_unit, &lb[j].num_unit);
    }
    pcol_sample_row row = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
    if (!rc) rc = pcol_b_stack_memo(b, &memo, st, s->n_location_id, &row.stack_id);
    if (!rc) rc = pcol_b_labelset(b, lb, s->n_label, &row.labelset_id);
    for (size_t j = 0; j < nvt; j++) vals[j].value = s->value[j];
    if (!rc) rc = pcol_b_sample(b, &row, vals, nvt, NULL);
  }
  pcol_buf_free(&lines);
  pcol_buf_free(&stack);
  pcol_buf_free(&labels);
  pcol_stack_memo_free(&memo);
  free(vals);
  TRY(rc);
  return PCOL_OK;
}

/* ---------------------------------------------------------- entry point */

int pcol_import_pprof(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  if (!b || !in) return pcol_error_set(err, PCOL_EINVAL, "pcol_import_pprof: NULL argument");
  if (!name) name = "<pprof>";
  pcol_buf raw = {0};
  int gz = 0;
  int rc = pcol_read_all(in, opt, name, &raw, &gz, err);
  if (rc) {
    pcol_buf_free(&raw);
    return rc;
  }
  if (raw.len == 0) {
    pcol_buf_free(&raw);
    return pcol_error_set(err, PCOL_ECORRUPT, "%s: empty profile (gzip stream inflates to 0 bytes)", name);
  }
  pcol_arena ar = {0};
  ProtobufCAllocator alloc = {pcol_arena_alloc, pcol_arena_free_one, &ar};
  Perftools__Profiles__Profile *p = NULL;
  rc = scan_top(raw.data, raw.len, name, err);
  if (!rc) rc = decode_profile(raw.data, raw.len, &alloc, name, gz, &p, err);
  if (rc) {
    const char *kind = pcol_pprof_legacy_kind(raw.data, raw.len);
    if (kind)
      rc = pcol_error_set(err, PCOL_EFORMAT,
                          "%s: %s, not profile.proto; convert it with `pprof -proto %s > "
                          "out.pb.gz`",
                          name, kind, name);
    pcol_arena_release(&ar);
    pcol_buf_free(&raw);
    return rc;
  }
  /* the rest is decoded: keep only the strings the table points at */
  keep_strings_only(&raw, p);

  ctx c;
  memset(&c, 0, sizeof c);
  c.b = b;
  c.name = name;
  c.err = err;
  c.p = p;
  c.sids = malloc((p->n_string_table ? p->n_string_table : 1) * sizeof *c.sids);
  c.map_ids = calloc(p->n_mapping + 1, sizeof *c.map_ids);
  c.loc_ids = calloc(p->n_location + 1, sizeof *c.loc_ids);
  c.fn_ids = calloc(p->n_function + 1, sizeof *c.fn_ids);
  if (!c.sids || !c.map_ids || !c.loc_ids || !c.fn_ids) {
    rc = pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  } else {
    memset(c.sids, 0xff, (p->n_string_table ? p->n_string_table : 1) * sizeof *c.sids);
    rc = validate(&c);
    if (!rc) rc = build(&c);
  }
  idmap_free(&c.maps);
  idmap_free(&c.locs);
  idmap_free(&c.fns);
  free(c.sids);
  free(c.map_ids);
  free(c.loc_ids);
  free(c.fn_ids);
  pcol_arena_release(&ar);
  pcol_buf_free(&raw);
  return rc;
}
