/* pprof_import.c — a pprof profile (profile.proto, gzip or raw) into a builder.
 *
 * The whole stream is read first (inflated when it starts with the gzip magic,
 * all gzip members concatenated, capped relative to the compressed bytes:
 * pcol_inflate_cap), because the string table and the other tables may sit
 * anywhere in the message, after the samples too.  The message is then
 * decoded in place by a hand-written wire reader (lib/convert/pb_wire.h),
 * never copied into per-field allocations (issue 32: protobuf-c's unpack of
 * the whole message took 28x the .pb.gz):
 *  - pass 1 walks the top-level fields once: the small tables (sample types,
 *    mappings, locations and their lines, functions) are decoded into
 *    arrays, the string table is a list of (pointer, length) into the
 *    inflated bytes, and each sample is only checked, the way protobuf-c
 *    would have read it, so a malformed message is refused before anything
 *    is built, as before;
 *  - pass 2 walks the fields again and decodes each sample into reused
 *    buffers, checks it and adds it to the builder, one at a time.
 * The checks are google/pprof's CheckValid ones, in the same order as when
 * the whole message was decoded first (tables, then samples in file order),
 * with the same messages; the builder sees the same calls in the same
 * order, so the pcol file is byte-identical to the one the protobuf-c
 * decoder gave (tests/cli/t_pprof_stream.sh).  Mapped into the builder as
 * doc/mappings.md §2.1 describes: one source, one pcol sample per pprof
 * sample, every field kept.
 */
#include "pcol.h"
#include "keys.h"     /* PCOL_SRC_PPROF, PPROF_META_COMMENT, PPROF_META_DEFAULT_SAMPLE_TYPE, ... */
#include "bytes.h"    /* pcol_rd64, pcol_rd32 */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_error_in */
#include "buf.h"      /* pcol_buf_free, pcol_buf, pcol_buf_reserve, ... */
#include "hash.h"     /* pcol_hash2 */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include "read_all.h" /* pcol_input_done, pcol_input, pcol_input_free, ... */
#include "pb_wire.h"
#include "pprof.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ detection */
/* A Profile field with its wire type (profile.proto: 1-6 and 11 are
 * messages or strings, 13 comment is repeated int64, packed or not, the
 * rest int64); numbers past 15 are unknown fields of any wire type. */
static int profile_field_ok(uint64_t field, unsigned wt) {
  if (field == 0) return 0;
  if (field > 15) return wt == 0 || wt == 1 || wt == 2 || wt == 5;
  if (field <= 6 || field == 11) return wt == 2;
  return wt == 0 || (field == 13 && wt == 2);
}

int pcol_pprof_detect(const uint8_t *p, size_t n) {
  size_t i = 0;
  int fields = 0;
  while (i < n) {
    size_t at = i;
    uint64_t tag;
    if (pcol_pb_varint(p, n, &i, &tag)) return fields > 0;
    /* the first field is one of Profile's own */
    if (!profile_field_ok(tag >> 3, (unsigned)(tag & 7)) || (!fields && tag >> 3 > 15)) return 0;
    pcol_pb_field f;
    i = at;
    int r = pcol_pb_next(p, n, &i, &f);
    if (r == -1) return 1; /* a field cut by the head's end */
    if (r) return 0;
    fields++;
  }
  return fields > 0;
}

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

/* Walks the top-level fields: gives byte offsets for framing errors and
 * detects concatenated profiles (a second time_nanos after a nonzero one,
 * google/pprof's rule). */
/* Every pass drops the pages of a spilled input behind it (8 MiB at a time). */
#define DROP_BEHIND(in, last, i)                                                \
  do {                                                                          \
    if ((i) - (last) >= ((size_t)8 << 20)) {                                    \
      pcol_input_done((in), (last), (i));                                       \
      (last) = (i);                                                             \
    }                                                                           \
  } while (0)

static int scan_top(pcol_input *in, const char *name, int *packed_comments, pcol_error *err) {
  const uint8_t *p = in->data;
  size_t n = in->len, i = 0, last = 0;
  int64_t time_nanos = 0;
  pcol_pb_field f;
  *packed_comments = 0;
  while (i < n) {
    DROP_BEHIND(in, last, i);
    int r = pcol_pb_next(p, n, &i, &f);
    if (r == -2)
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: malformed protobuf: varint longer than 10 bytes at byte "
                            "offset %zu",
                            name, f.at);
    if (r == -1)
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: truncated protobuf: the field at byte offset %zu runs past "
                            "the end (%zu bytes)",
                            name, f.at, n);
    if (f.field == 0)
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: not a pprof protobuf: field number 0 at byte offset %zu",
                            name, f.at);
    if (r == -3)
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: not a pprof protobuf: wire type %u (field %" PRIu64
                            ") at byte offset %zu",
                            name, f.wt, f.field, f.at);
    if (f.wt == 0 && f.field == 9) {
      if (time_nanos != 0)
        return pcol_error_set(err, PCOL_ECORRUPT,
                              "%s: concatenated profiles detected (second time_nanos "
                              "at byte offset %zu)",
                              name, f.at);
      time_nanos = (int64_t)f.v;
    }
    if (f.field == 13 && f.wt == 2) *packed_comments = 1;
  }
  pcol_input_done(in, last, n);
  return PCOL_OK;
}

/* ------------------------------------------- decoding the Profile message */

/* The tables of a Profile, decoded; the samples stay in the input. */
typedef struct pvtype {
  int64_t type, unit;
} pvtype;
typedef struct pmapping {
  uint64_t id, memory_start, memory_limit, file_offset;
  int64_t filename, build_id;
  uint64_t has_functions, has_filenames, has_line_numbers, has_inline_frames;
} pmapping;
typedef struct pline {
  uint64_t function_id;
  int64_t line, column;
} pline;
typedef struct plocation {
  uint64_t id, mapping_id, address;
  uint64_t is_folded;
  size_t line0, n_line; /* its lines: prof.line[line0 .. line0 + n_line) */
} plocation;
typedef struct pfunction {
  uint64_t id;
  int64_t name, system_name, filename, start_line;
} pfunction;
typedef struct pstring {
  const uint8_t *data;
  size_t len;
} pstring;
typedef struct plabel {
  int64_t key, str, num, num_unit;
} plabel;

typedef struct prof {
  pvtype *sample_type;
  pmapping *mapping;
  plocation *location;
  pline *line;
  pfunction *function;
  pstring *string_table;
  int64_t *comment;
  size_t n_sample_type, n_mapping, n_location, n_line, n_function, n_string_table, n_comment;
  size_t cap_sample_type, cap_mapping, cap_location, cap_line, cap_function, cap_string_table,
      cap_comment;
  size_t n_sample;
  int64_t drop_frames, keep_frames, time_nanos, duration_nanos, period, default_sample_type,
      doc_url;
  int has_period_type;
  pvtype period_type;
} prof;

static void prof_free(prof *p) {
  free(p->sample_type);
  free(p->mapping);
  free(p->location);
  free(p->line);
  free(p->function);
  free(p->string_table);
  free(p->comment);
}

/* One sample, decoded into buffers reused from sample to sample. */
typedef struct psample {
  pcol_buf loc, val, lab; /* uint64 location ids, int64 values, plabel */
} psample;

#define PB_ERR (-1)
#define PB_NOMEM (-2)

/* A repeated int64/uint64 field: one varint (wire type 0) or packed ones
 * (wire type 2), appended to out (NULL: only checked). */
static int dec_repeated(const uint8_t *d, const pcol_pb_field *f, pcol_buf *out) {
  if (f->wt == 0) return out && PCOL_BUF_PUSH(out, uint64_t, f->v) ? PB_NOMEM : 0;
  if (f->wt != 2) return PB_ERR;
  for (size_t k = f->b; k < f->e;) {
    uint64_t v;
    if (pcol_pb_varint(d, f->e, &k, &v)) return PB_ERR;
    if (out && PCOL_BUF_PUSH(out, uint64_t, v)) return PB_NOMEM;
  }
  return 0;
}

/* The messages whose fields are all int64, uint64 or bool (every one but
 * Sample): off[k] is where field k goes in the struct (an 8-byte member),
 * bools has bit k set for a bool field k.  An int field takes a varint, the
 * last one wins; a bool any wire type (protobuf-c's reading); a field
 * number past the table is unknown and skipped.  Location's repeated Line
 * (field 4) goes to p->line. */
typedef struct pmsg {
  unsigned nf;
  const uint16_t *off;
  uint32_t bools;
} pmsg;

#define OFF(T, m) ((uint16_t)offsetof(T, m))
static const uint16_t VTYPE_OFF[] = {0, OFF(pvtype, type), OFF(pvtype, unit)};
static const uint16_t LABEL_OFF[] = {0, OFF(plabel, key), OFF(plabel, str), OFF(plabel, num),
                                     OFF(plabel, num_unit)};
static const uint16_t MAPPING_OFF[] = {0,
                                       OFF(pmapping, id),
                                       OFF(pmapping, memory_start),
                                       OFF(pmapping, memory_limit),
                                       OFF(pmapping, file_offset),
                                       OFF(pmapping, filename),
                                       OFF(pmapping, build_id),
                                       OFF(pmapping, has_functions),
                                       OFF(pmapping, has_filenames),
                                       OFF(pmapping, has_line_numbers),
                                       OFF(pmapping, has_inline_frames)};
static const uint16_t LINE_OFF[] = {0, OFF(pline, function_id), OFF(pline, line), OFF(pline, column)};
static const uint16_t LOCATION_OFF[] = {0, OFF(plocation, id), OFF(plocation, mapping_id),
                                        OFF(plocation, address), 0, OFF(plocation, is_folded)};
static const uint16_t FUNCTION_OFF[] = {0, OFF(pfunction, id), OFF(pfunction, name),
                                        OFF(pfunction, system_name), OFF(pfunction, filename),
                                        OFF(pfunction, start_line)};
#undef OFF
#define N_(a) (unsigned)(sizeof a / sizeof a[0])
static const pmsg M_VTYPE = {N_(VTYPE_OFF), VTYPE_OFF, 0};
static const pmsg M_LABEL = {N_(LABEL_OFF), LABEL_OFF, 0};
static const pmsg M_MAPPING = {N_(MAPPING_OFF), MAPPING_OFF, 0xfu << 7};
static const pmsg M_LINE = {N_(LINE_OFF), LINE_OFF, 0};
static const pmsg M_LOCATION = {N_(LOCATION_OFF), LOCATION_OFF, 1u << 5};
static const pmsg M_FUNCTION = {N_(FUNCTION_OFF), FUNCTION_OFF, 0};
#undef N_

static int dec_flat(const uint8_t *d, size_t b, size_t e, const pmsg *m, void *o, size_t size,
                    prof *p) {
  memset(o, 0, size);
  pcol_pb_field f;
  for (size_t i = b; i < e;) {
    if (pcol_pb_next_c(d, e, &i, &f)) return PB_ERR;
    if (m == &M_LOCATION && f.field == 4) { /* repeated Line */
      if (f.wt != 2) return PB_ERR;
      if (PCOL_GROW(p->line, p->n_line, p->cap_line)) return PB_NOMEM;
      if (dec_flat(d, f.b, f.e, &M_LINE, &p->line[p->n_line], sizeof(pline), NULL)) return PB_ERR;
      p->n_line++;
      continue;
    }
    if (f.field >= m->nf) continue; /* unknown: skipped */
    uint64_t v;
    if (m->bools >> f.field & 1) {
      v = (uint64_t)pcol_pb_bool_c(d, &f);
    } else {
      if (f.wt != 0) return PB_ERR;
      v = f.v;
    }
    memcpy((uint8_t *)o + m->off[f.field], &v, sizeof v);
  }
  return 0;
}

/* A Sample into s (reset first), or only checked (s NULL). */
static int dec_sample(const uint8_t *d, size_t b, size_t e, psample *s) {
  if (s) s->loc.len = s->val.len = s->lab.len = 0;
  pcol_pb_field f;
  int r;
  for (size_t i = b; i < e;) {
    if (pcol_pb_next_c(d, e, &i, &f)) return PB_ERR;
    switch (f.field) {
    case 1:
      if ((r = dec_repeated(d, &f, s ? &s->loc : NULL))) return r;
      break;
    case 2:
      if ((r = dec_repeated(d, &f, s ? &s->val : NULL))) return r;
      break;
    case 3: {
      if (f.wt != 2) return PB_ERR;
      plabel l;
      if ((r = dec_flat(d, f.b, f.e, &M_LABEL, &l, sizeof l, NULL))) return r;
      if (s && pcol_buf_append(&s->lab, &l, sizeof l)) return PB_NOMEM;
      break;
    }
    default: break;
    }
  }
  return 0;
}


/* A Location; its lines are appended to p->line. */
static int dec_location(const uint8_t *d, size_t b, size_t e, prof *p, plocation *o) {
  size_t line0 = p->n_line;
  int r = dec_flat(d, b, e, &M_LOCATION, o, sizeof *o, p);
  o->line0 = line0;
  o->n_line = p->n_line - line0;
  return r;
}

/* Pass 1 (scan_top has checked the framing): every field but the samples,
 * which are counted and checked. */
static int decode_profile(pcol_input *in, int packed_comments, const char *name, int gz, prof *p,
                          pcol_error *err) {
  const uint8_t *raw = in->data;
  size_t n = in->len, last = 0;
  memset(p, 0, sizeof *p);
  size_t pt_b = 0, pt_e = 0; /* period_type: the last occurrence wins (protobuf-c, Go) */
  int has_pt = 0, r = 0;
  pcol_pb_field f;
  /* packed comments first: the decoder before issue 32 counted them in a
   * pass of its own, so their errors came before any other */
  for (size_t i = 0; packed_comments && i < n;) {
    DROP_BEHIND(in, last, i);
    if (pcol_pb_next(raw, n, &i, &f)) goto framing;
    if (f.field != 13 || f.wt != 2) continue;
    for (size_t k = f.b; k < f.e;) {
      uint64_t v;
      if (pcol_pb_varint(raw, f.e, &k, &v)) goto bad_field;
    }
  }
  pcol_input_done(in, last, n);
  last = 0;
  for (size_t i = 0; i < n;) {
    DROP_BEHIND(in, last, i);
    if (pcol_pb_next(raw, n, &i, &f)) goto framing;
    if (f.field >= 16) continue; /* unknown: skipped, as protobuf-c skips them */
    int is_msg = (f.field >= 1 && f.field <= 6) || f.field == 11;
    if (is_msg ? f.wt != 2 : (f.wt != 0 && !(f.field == 13 && f.wt == 2)))
      return pcol_error_set(err, PCOL_ECORRUPT,
                            "%s: malformed pprof protobuf (%s%zu bytes): field %" PRIu64 " at byte "
                            "offset %zu has wire type %u, not %u",
                            name, gz ? "inflated, " : "", n, f.field, f.at, f.wt, is_msg ? 2u : 0u);
#define ADD(arr)                                                                     \
  do {                                                                               \
    if (PCOL_GROW(p->arr, p->n_##arr, p->cap_##arr)) goto nomem;                     \
  } while (0)
    switch (f.field) {
    case 1:
      ADD(sample_type);
      r = dec_flat(raw, f.b, f.e, &M_VTYPE, &p->sample_type[p->n_sample_type++], sizeof(pvtype), p);
      break;
    case 2:
      r = dec_sample(raw, f.b, f.e, NULL);
      p->n_sample++;
      break;
    case 3:
      ADD(mapping);
      r = dec_flat(raw, f.b, f.e, &M_MAPPING, &p->mapping[p->n_mapping++], sizeof(pmapping), p);
      break;
    case 4:
      ADD(location);
      r = dec_location(raw, f.b, f.e, p, &p->location[p->n_location++]);
      break;
    case 5:
      ADD(function);
      r = dec_flat(raw, f.b, f.e, &M_FUNCTION, &p->function[p->n_function++], sizeof(pfunction), p);
      break;
    case 6:
      ADD(string_table);
      p->string_table[p->n_string_table].data = raw + f.b;
      p->string_table[p->n_string_table++].len = f.e - f.b;
      break;
    case 11:
      pt_b = f.b;
      pt_e = f.e;
      has_pt = 1;
      break;
    case 7: p->drop_frames = (int64_t)f.v; break;
    case 8: p->keep_frames = (int64_t)f.v; break;
    case 9: p->time_nanos = (int64_t)f.v; break;
    case 10: p->duration_nanos = (int64_t)f.v; break;
    case 12: p->period = (int64_t)f.v; break;
    case 14: p->default_sample_type = (int64_t)f.v; break;
    case 15: p->doc_url = (int64_t)f.v; break;
    case 13:
      if (f.wt == 0) {
        ADD(comment);
        p->comment[p->n_comment++] = (int64_t)f.v;
      } else {
        for (size_t k = f.b; k < f.e;) {
          uint64_t v;
          if (pcol_pb_varint(raw, f.e, &k, &v)) goto bad_field;
          ADD(comment);
          p->comment[p->n_comment++] = (int64_t)v;
        }
      }
      break;
    default: break; /* field 0: refused by scan_top */
    }
#undef ADD
    if (r == PB_NOMEM) goto nomem;
    if (r) goto bad_field;
  }
  pcol_input_done(in, last, n);
  if (has_pt) {
    p->has_period_type = 1;
    if (dec_flat(raw, pt_b, pt_e, &M_VTYPE, &p->period_type, sizeof p->period_type, p)) goto bad_period;
  }
  return PCOL_OK;
framing: /* scan_top walked the same bytes: not reached */
  return pcol_error_set(err, PCOL_ECORRUPT, "%s: truncated protobuf near byte offset %zu", name, f.at);
nomem:
  return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
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
    if (id - 1 < c->p->n_##FIELD && c->p->FIELD[id - 1].id == id)             \
      return (uint32_t)id;                                                      \
    return idmap_get(&c->MAP, id);                                              \
  }

/* --------------------------------------------------------- validation */

typedef struct ctx {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  const prof *p;
  pcol_input *in; /* the inflated message: pass 2 reads the samples there */
  int gz;
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
                     uint64_t (*id_at)(const prof *, size_t)) {
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
static uint64_t map_id_at(const prof *p, size_t i) { return p->mapping[i].id; }
static uint64_t loc_id_at(const prof *p, size_t i) { return p->location[i].id; }
static uint64_t fn_id_at(const prof *p, size_t i) { return p->function[i].id; }

/* The rules of google/pprof's parser + CheckValid, with messages that say
 * which record is wrong: everything but the samples, which check_sample
 * checks one at a time as pass 2 reads them (after these, as before). */
static int validate(ctx *c) {
  const prof *p = c->p;
  int rc;
  if (p->n_string_table == 0) return bad(c, "the string table is missing (entry 0 must be \"\")");
  if (p->string_table[0].len != 0)
    return bad(c, "string_table[0] is %zu bytes long; it must be the empty string",
               p->string_table[0].len);
  if (p->n_sample > UINT32_MAX || p->n_location >= UINT32_MAX ||
      p->n_function >= UINT32_MAX || p->n_mapping >= UINT32_MAX)
    return pcol_error_set(c->err, PCOL_ETOOBIG, "%s: too many records for pcol", c->name);
  for (size_t i = 0; i < p->n_sample_type; i++) {
    CHK_STR(p->sample_type[i].type, "sample_type #%zu type", i + 1);
    CHK_STR(p->sample_type[i].unit, "sample_type #%zu unit", i + 1);
  }
  if (p->has_period_type) {
    CHK_STR(p->period_type.type, "period_type type%s", "");
    CHK_STR(p->period_type.unit, "period_type unit%s", "");
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
    CHK_STR(p->mapping[i].filename, "mapping #%zu filename", i + 1);
    CHK_STR(p->mapping[i].build_id, "mapping #%zu build_id", i + 1);
  }
  for (size_t i = 0; i < p->n_function; i++) {
    const pfunction *fn = &p->function[i];
    CHK_STR(fn->name, "function #%zu name", i + 1);
    CHK_STR(fn->system_name, "function #%zu system_name", i + 1);
    CHK_STR(fn->filename, "function #%zu filename", i + 1);
  }
  for (size_t i = 0; i < p->n_location; i++) {
    const plocation *l = &p->location[i];
    for (size_t j = 0; j < l->n_line; j++)
      if (!fn_ix(c, p->line[l->line0 + j].function_id))
        return bad(c, "location #%zu (id %" PRIu64 ") line %zu names function id %" PRIu64
                      ", which does not exist",
                   i + 1, l->id, j + 1, p->line[l->line0 + j].function_id);
  }
  if (p->n_sample && !p->n_sample_type) return bad(c, "samples present but no sample_type");
  return PCOL_OK;
}

/* sample #i (1-based), decoded into s */
static int check_sample(ctx *c, size_t i, const psample *s) {
  const prof *p = c->p;
  size_t nloc = s->loc.len / sizeof(uint64_t), nval = s->val.len / sizeof(int64_t),
         nlab = s->lab.len / sizeof(plabel);
  if (nval != p->n_sample_type)
    return bad(c, "sample #%zu has %zu values, but there are %zu sample types", i, nval,
               p->n_sample_type);
  const uint64_t *loc = (const uint64_t *)(const void *)s->loc.data;
  for (size_t j = 0; j < nloc; j++)
    if (!loc_ix(c, loc[j]))
      return bad(c, "sample #%zu refers to location id %" PRIu64 ", which does not exist", i,
                 loc[j]);
  const plabel *lab = (const plabel *)(const void *)s->lab.data;
  for (size_t j = 0; j < nlab; j++) {
    CHK_STR(lab[j].key, "sample #%zu label %zu key", i, j + 1);
    CHK_STR(lab[j].str, "sample #%zu label %zu str", i, j + 1);
    CHK_STR(lab[j].num_unit, "sample #%zu label %zu num_unit", i, j + 1);
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------ mapping */

/* A failed builder call: its own message (the pcol_b_* call and its
 * reason) after the file's name. */
#define TRY(x) PCOL_RETURN_NOT_OK(pcol_error_in(c->err, (x), c->name, 0))
/* A status without a message (the importer's own allocation): its name. */
static int bare(ctx *c, int rc) {
  return pcol_error_set(c->err, rc, "%s: building pcol tables: %s", c->name, pcol_strerror(rc));
}

/* pcol string id of a (validated) pprof string index; index 0 -> 0 (NA). */
static int sid(ctx *c, int64_t idx, uint32_t *out) {
  if (idx == 0) {
    *out = 0;
    return PCOL_OK;
  }
  uint32_t *s = &c->sids[idx];
  if (*s == UINT32_MAX) {
    const pstring *d = &c->p->string_table[idx];
    int rc = pcol_b_string(c->b, d->len ? (const void *)d->data : "", d->len, s, c->err);
    if (rc) return rc;
  }
  *out = *s;
  return PCOL_OK;
}

static int meta_i64(ctx *c, uint32_t src, const char *key, int64_t v) {
  char t[32];
  int n = snprintf(t, sizeof t, "%" PRId64, v);
  return pcol_b_meta(c->b, src, key, t, (size_t)n, c->err);
}
static int meta_strx(ctx *c, uint32_t src, const char *key, int64_t idx) {
  const pstring *d = &c->p->string_table[idx];
  return pcol_b_meta(c->b, src, key, d->len ? (const void *)d->data : "", d->len, c->err);
}

static int floor_div(int64_t a, int64_t b) { return (int)(a % b < 0); }

/* Pass 2: each Sample of the message, decoded, checked and added in file
 * order; nothing of it outlives the next one. */
static int add_samples(ctx *c, uint32_t src, pcol_value_row *vals, size_t nvt) {
  pcol_builder *b = c->b;
  psample s = {{0}, {0}, {0}};
  pcol_buf stack = {0}, labels = {0};
  pcol_stack_memo memo = {0};
  int rc = PCOL_OK;
  size_t ns = 0;
  pcol_pb_field f;
  const uint8_t *raw = c->in->data;
  size_t n = c->in->len, last = 0;
  for (size_t i = 0; i < n && !rc;) {
    DROP_BEHIND(c->in, last, i);
    if (pcol_pb_next(raw, n, &i, &f)) break; /* checked by scan_top */
    if (f.field != 2) continue;
    ns++;
    int r = dec_sample(raw, f.b, f.e, &s);
    if (r) { /* pass 1 decoded the same bytes: only memory can fail here */
      rc = bare(c, r == PB_NOMEM ? PCOL_ENOMEM : PCOL_ECORRUPT);
      goto out;
    }
    if ((rc = check_sample(c, ns, &s))) goto out;
    size_t nloc = s.loc.len / sizeof(uint64_t), nlab = s.lab.len / sizeof(plabel);
    if (pcol_buf_reserve(&stack, nloc * sizeof(uint32_t) + 1) ||
        pcol_buf_reserve(&labels, nlab * sizeof(pcol_label_row) + 1)) {
      rc = bare(c, PCOL_ENOMEM);
      goto out;
    }
    const uint64_t *loc = (const uint64_t *)(const void *)s.loc.data;
    uint32_t *st = (uint32_t *)(void *)stack.data;
    for (size_t j = 0; j < nloc; j++) st[j] = c->loc_ids[loc_ix(c, loc[j]) - 1];
    const plabel *L = (const plabel *)(const void *)s.lab.data;
    pcol_label_row *lb = (pcol_label_row *)(void *)labels.data;
    for (size_t j = 0; j < nlab && !rc; j++) {
      lb[j].num = L[j].num;
      if (!(rc = sid(c, L[j].key, &lb[j].key)) && !(rc = sid(c, L[j].str, &lb[j].str)))
        rc = sid(c, L[j].num_unit, &lb[j].num_unit);
    }
    pcol_sample_row row = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
    if (!rc) rc = pcol_b_stack_memo(b, &memo, st, nloc, &row.stack_id, c->err);
    if (!rc) rc = pcol_b_labelset(b, lb, nlab, &row.labelset_id, c->err);
    const int64_t *v = (const int64_t *)(const void *)s.val.data;
    for (size_t j = 0; j < nvt; j++) vals[j].value = v[j];
    if (!rc) rc = pcol_b_sample(b, &row, vals, nvt, NULL, c->err);
  }
  rc = pcol_error_in(c->err, rc, c->name, 0);
out:
  pcol_buf_free(&s.loc);
  pcol_buf_free(&s.val);
  pcol_buf_free(&s.lab);
  pcol_buf_free(&stack);
  pcol_buf_free(&labels);
  pcol_stack_memo_free(&memo);
  pcol_input_done(c->in, last, n);
  return rc;
}

static int build(ctx *c) {
  const prof *p = c->p;
  pcol_builder *b = c->b;
  int64_t ts = PCOL_NA_I64;
  if (p->time_nanos) ts = p->time_nanos / 1000000000 - floor_div(p->time_nanos, 1000000000);
  uint32_t src;
  TRY(pcol_b_source(b, PCOL_SRC_PPROF, c->name, ts, &src, c->err));

  /* profile-level fields, present (nonzero) ones only: proto3 has no other
   * notion of presence, so this reproduces the same encoded fields */
  if (p->drop_frames) TRY(meta_strx(c, src, PPROF_META_DROP_FRAMES, p->drop_frames));
  if (p->keep_frames) TRY(meta_strx(c, src, PPROF_META_KEEP_FRAMES, p->keep_frames));
  if (p->time_nanos) TRY(meta_i64(c, src, PPROF_META_TIME_NANOS, p->time_nanos));
  if (p->duration_nanos) TRY(meta_i64(c, src, PPROF_META_DURATION_NANOS, p->duration_nanos));
  if (p->has_period_type) {
    TRY(meta_strx(c, src, PPROF_META_PERIOD_TYPE_TYPE, p->period_type.type));
    TRY(meta_strx(c, src, PPROF_META_PERIOD_TYPE_UNIT, p->period_type.unit));
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
    if (!(rc = sid(c, p->sample_type[i].type, &t)) && !(rc = sid(c, p->sample_type[i].unit, &u)) &&
        !(rc = pcol_b_value_type(b, t, u, &vals[i].value_type_id, c->err)))
      rc = pcol_b_source_value_type(b, src, vals[i].value_type_id, c->err);
  }
  for (size_t i = 0; i < p->n_mapping && !rc; i++) {
    const pmapping *m = &p->mapping[i];
    pcol_mapping_row r = {m->memory_start, m->memory_limit, m->file_offset, 0, 0, 0};
    r.flags = (uint8_t)((m->has_functions ? PCOL_MAP_HAS_FUNCTIONS : 0) |
                        (m->has_filenames ? PCOL_MAP_HAS_FILENAMES : 0) |
                        (m->has_line_numbers ? PCOL_MAP_HAS_LINE_NUMBERS : 0) |
                        (m->has_inline_frames ? PCOL_MAP_HAS_INLINE_FRAMES : 0));
    if (!(rc = sid(c, m->filename, &r.filename)) && !(rc = sid(c, m->build_id, &r.build_id)))
      rc = pcol_b_mapping(b, &r, 0, &c->map_ids[i], c->err);
  }
  for (size_t i = 0; i < p->n_function && !rc; i++) {
    const pfunction *fn = &p->function[i];
    pcol_function_row r = {0, 0, 0, fn->start_line};
    if (!(rc = sid(c, fn->name, &r.name)) && !(rc = sid(c, fn->system_name, &r.system_name)) &&
        !(rc = sid(c, fn->filename, &r.filename)))
      rc = pcol_b_function(b, &r, &c->fn_ids[i], c->err);
  }
  pcol_buf lines = {0};
  for (size_t i = 0; i < p->n_location && !rc; i++) {
    const plocation *l = &p->location[i];
    lines.len = 0;
    if (pcol_buf_reserve(&lines, l->n_line * sizeof(pcol_line_row) + 1)) {
      pcol_buf_free(&lines);
      free(vals);
      return bare(c, PCOL_ENOMEM);
    }
    pcol_line_row *lr = (pcol_line_row *)(void *)lines.data;
    for (size_t j = 0; j < l->n_line; j++) {
      const pline *pl = &p->line[l->line0 + j];
      lr[j].function_id = c->fn_ids[fn_ix(c, pl->function_id) - 1];
      lr[j].line = pl->line;
      lr[j].column = pl->column;
    }
    /* a missing mapping silently becomes "no mapping", as in google/pprof */
    uint32_t mi = map_ix(c, l->mapping_id);
    rc = pcol_b_location(b, mi ? c->map_ids[mi - 1] : 0, l->address,
                         l->is_folded ? PCOL_LOC_IS_FOLDED : 0, lr, l->n_line, &c->loc_ids[i], c->err);
  }
  pcol_buf_free(&lines);
  if (rc) {
    free(vals);
    TRY(rc);
  }
  rc = add_samples(c, src, vals, nvt);
  free(vals);
  return rc;
}

/* ---------------------------------------------------------- entry point */

int pcol_import_pprof(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  if (!b || !in) return pcol_error_set(err, PCOL_EINVAL, "pcol_import_pprof: NULL argument");
  if (!name) name = "<pprof>";
  pcol_input raw;
  int gz = 0, packed_comments = 0;
  int rc = pcol_read_input(in, opt, name, &raw, &gz, err);
  if (rc) return rc;
  if (raw.len == 0) {
    pcol_input_free(&raw);
    return pcol_error_set(err, PCOL_ECORRUPT, "%s: empty profile (gzip stream inflates to 0 bytes)", name);
  }
  prof p;
  memset(&p, 0, sizeof p);
  rc = scan_top(&raw, name, &packed_comments, err);
  if (!rc) rc = decode_profile(&raw, packed_comments, name, gz, &p, err);
  if (rc) {
    const char *kind = pcol_pprof_legacy_kind(raw.data, raw.len);
    if (kind)
      rc = pcol_error_set(err, PCOL_EFORMAT,
                          "%s: %s, not profile.proto; convert it with `pprof -proto %s > "
                          "out.pb.gz`",
                          name, kind, name);
    prof_free(&p);
    pcol_input_free(&raw);
    return rc;
  }

  ctx c;
  memset(&c, 0, sizeof c);
  c.b = b;
  c.name = name;
  c.err = err;
  c.p = &p;
  c.in = &raw;
  c.gz = gz;
  c.sids = malloc((p.n_string_table ? p.n_string_table : 1) * sizeof *c.sids);
  c.map_ids = calloc(p.n_mapping + 1, sizeof *c.map_ids);
  c.loc_ids = calloc(p.n_location + 1, sizeof *c.loc_ids);
  c.fn_ids = calloc(p.n_function + 1, sizeof *c.fn_ids);
  if (!c.sids || !c.map_ids || !c.loc_ids || !c.fn_ids) {
    rc = pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  } else {
    memset(c.sids, 0xff, (p.n_string_table ? p.n_string_table : 1) * sizeof *c.sids);
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
  prof_free(&p);
  pcol_input_free(&raw);
  return rc;
}
