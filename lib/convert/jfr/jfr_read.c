/* jfr_read.c — one JFR chunk's structure, read in place and bounds-checked.
 *
 * There is no published specification; this follows what the JDK's own
 * reader (jdk.jfr.internal.consumer: ChunkHeader, MetadataReader,
 * ChunkParser, RecordingInput) accepts.  A file is a sequence of chunks:
 *
 *   header (68 bytes, big-endian): "FLR\0", major u16, minor u16, chunk size,
 *     constant pool offset, metadata offset, start nanos (epoch), duration
 *     nanos, start ticks, ticks per second (i64 each), features u32 (bit 0:
 *     integers are LEB128 varints; the last byte of the 9 takes 8 bits)
 *   events to the chunk's end: size (int, counting itself), type id (long),
 *     then the fields of the type's class in order
 *   the metadata event (type 0): start, duration, metadata id (longs), a
 *     string table (int count, strings), then an element tree (name index,
 *     attributes as (key, value) index pairs, children): root > metadata >
 *     class (name, id, superType) > field (name, class, constantPool,
 *     dimension)
 *   checkpoint events (type 1): start, duration, delta to the previous
 *     checkpoint (0: the first), a flags byte, a pool count, then per pool
 *     a class id, a count and (key, value) pairs
 *
 * A value is by its field: constantPool="true" a key (long) into the pool
 * of the field's class, dimension="1" an int count and the elements,
 * otherwise by the class: boolean and byte one byte, char/short/int/long
 * an integer, float/double 4/8 bytes big-endian, java.lang.String an
 * encoding byte (0 null, 1 empty, 2 a key into the String pool, 3 UTF-8,
 * 4 UTF-16 code units as chars, 5 Latin-1) with an int length, any other
 * class its fields in order. */
#include "jfr.h"
#include "error.h"    /* pcol_oom */
#include "buf.h"      /* PCOL_GROW, pcol_buf_append, pcol_buf, ... */
#include "hash.h"     /* pcol_u64map_get, pcol_u64map_free */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int jfr_bad(jrd *r, uint64_t at, const char *fmt, ...) {
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return pcol_error_set(r->err, PCOL_ECORRUPT, "%s: chunk %u, byte %llu: %s", r->name, r->chunk_no,
                        (unsigned long long)at, what);
}

static inline uint8_t rd_u8(jcur *c) {
  if (c->pos >= c->end) {
    c->bad = 1;
    return 0;
  }
  return c->p[c->pos++ - c->org];
}

static uint64_t rd_be(jcur *c, unsigned n) {
  if (c->end - c->pos < n || c->pos > c->end) {
    c->bad = 1;
    c->pos = c->end;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++) v = v << 8 | c->p[c->pos - c->org + i];
  c->pos += n;
  return v;
}

uint64_t jfr_long(jcur *c) {
  if (!c->compressed) return rd_be(c, 8);
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; i++) {
    uint8_t b = rd_u8(c);
    v |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) return v;
  }
  return v | (uint64_t)rd_u8(c) << 56; /* the ninth byte: all 8 bits */
}

/* Java's (int) of the long, or 4 bytes */
int64_t jfr_int(jcur *c) {
  return c->compressed ? (int32_t)(uint32_t)jfr_long(c) : (int32_t)(uint32_t)rd_be(c, 4);
}
static int64_t rd_short(jcur *c) {
  return c->compressed ? (int16_t)(uint16_t)jfr_long(c) : (int16_t)(uint16_t)rd_be(c, 2);
}
static int64_t rd_char(jcur *c) {
  return c->compressed ? (uint16_t)jfr_long(c) : (uint16_t)rd_be(c, 2);
}

/* A count (int) that is not negative and at most the bytes left (each
 * element takes at least min_size bytes: 1, or 0 for an unknown size). */
static int rd_count(jcur *c, uint64_t min_size, uint64_t *n) {
  int64_t v = jfr_int(c);
  if (c->bad || v < 0) return 0;
  if (min_size && (uint64_t)v > (c->end - c->pos) / min_size) return 0;
  *n = (uint64_t)v;
  return 1;
}

const char *jfr_str(const jchunk *k, uint32_t off) { return (const char *)k->strs.data + off; }

/* ------------------------------------------------------------ strings */
static int put_utf8(pcol_buf *b, uint32_t cp) {
  uint8_t u[4];
  size_t n;
  if (cp < 0x80) u[0] = (uint8_t)cp, n = 1;
  else if (cp < 0x800) u[0] = (uint8_t)(0xc0 | cp >> 6), u[1] = (uint8_t)(0x80 | (cp & 0x3f)), n = 2;
  else if (cp < 0x10000)
    u[0] = (uint8_t)(0xe0 | cp >> 12), u[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f)),
    u[2] = (uint8_t)(0x80 | (cp & 0x3f)), n = 3;
  else
    u[0] = (uint8_t)(0xf0 | cp >> 18), u[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f)),
    u[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f)), u[3] = (uint8_t)(0x80 | (cp & 0x3f)), n = 4;
  return pcol_buf_append(b, u, n);
}

/* A string value at c, appended to out as UTF-8 (out NULL: skipped).
 * 1 a string, 0 null, < 0 an error (err filled). */
static int rd_string(jrd *r, jchunk *k, jcur *c, pcol_buf *out, int depth) {
  uint64_t at = c->pos, n;
  uint8_t enc = rd_u8(c);
  if (c->bad) return jfr_bad(r, at, "string runs past its event");
  switch (enc) {
  case 0: return 0;
  case 1: return 1;
  case 2: { /* a key into the String pool */
    uint64_t key = jfr_long(c);
    jloc sl;
    if (c->bad) return jfr_bad(r, at, "string runs past its event");
    if (!out) return 1;
    if (depth || !k->string_cls || !jfr_pool_at(r, k, k->string_cls - 1, key, &sl))
      return 0; /* no such constant: null, as the JDK reads it */
    jcur s = jfr_cur(r, sl.k, sl.pos);
    return rd_string(r, sl.k, &s, out, depth + 1);
  }
  case 3:
  case 5:
    if (!rd_count(c, 1, &n)) return jfr_bad(r, at, "string length out of range");
    if (out) {
      if (enc == 3 && pcol_buf_append(out, c->p + (c->pos - c->org), n)) return pcol_oom(r->err);
      for (uint64_t i = 0; enc == 5 && i < n; i++)
        if (put_utf8(out, c->p[c->pos - c->org + i])) return pcol_oom(r->err);
    }
    c->pos += n;
    return 1;
  case 4: { /* UTF-16 code units, one char each */
    if (!rd_count(c, c->compressed ? 1 : 2, &n)) return jfr_bad(r, at, "string length out of range");
    uint32_t hi = 0;
    for (uint64_t i = 0; i < n; i++) {
      uint32_t u = (uint32_t)rd_char(c);
      if (c->bad) return jfr_bad(r, at, "string runs past its event");
      if (!out) continue;
      uint32_t cp = u;
      if (u >= 0xd800 && u < 0xdc00) { /* a high surrogate: wait for the low one */
        if (hi && put_utf8(out, 0xfffd)) return pcol_oom(r->err);
        hi = u;
        continue;
      }
      if (u >= 0xdc00 && u < 0xe000) cp = hi ? 0x10000 + ((hi - 0xd800) << 10) + (u - 0xdc00) : 0xfffd;
      else if (hi && put_utf8(out, 0xfffd)) return pcol_oom(r->err);
      hi = 0;
      if (put_utf8(out, cp)) return pcol_oom(r->err);
    }
    if (out && hi && put_utf8(out, 0xfffd)) return pcol_oom(r->err);
    return 1;
  }
  default: return jfr_bad(r, at, "unknown string encoding %u", enc);
  }
}

int jfr_string(jrd *r, jchunk *k, const jv *v, const char **s, size_t *n) {
  r->sbuf.len = 0;
  *s = "", *n = 0;
  uint64_t pos = v->pos;
  if (v->cls >= k->ncls || k->cls[v->cls].kind != JK_STRING) return 0;
  if (v->kind == JV_CP) {
    jloc at;
    if (!jfr_pool_at(r, k, v->cls, (uint64_t)v->i, &at)) return 0;
    k = at.k, pos = at.pos;
  } else if (v->kind != JV_STR) {
    return 0;
  }
  jcur c = jfr_cur(r, k, pos);
  int rc = rd_string(r, k, &c, &r->sbuf, 0);
  if (rc == 1) *s = (const char *)r->sbuf.data, *n = r->sbuf.len;
  if (rc == 1 && !*s) *s = "";
  return rc;
}

/* ------------------------------------------------------------ values */
static int budget(jrd *r, jcur *c) {
  if (++r->work <= r->work_max) return PCOL_OK;
  return pcol_error_set(r->err, PCOL_ETOOBIG,
                        "%s: chunk %u, byte %llu: more than %llu values read (nested empty "
                        "structs or arrays?)",
                        r->name, r->chunk_no, (unsigned long long)c->pos,
                        (unsigned long long)r->work_max);
}

int jfr_skip(jrd *r, jchunk *k, jcur *c, uint32_t ci, int cp, int array, int depth) {
  uint64_t at = c->pos, n;
  int rc;
  if ((rc = budget(r, c))) return rc;
  if (depth > JFR_MAX_DEPTH) return jfr_bad(r, at, "values nested more than %d deep", JFR_MAX_DEPTH);
  if (array) {
    if (!rd_count(c, 0, &n)) return jfr_bad(r, at, "array length out of range");
    for (uint64_t i = 0; i < n; i++)
      if ((rc = jfr_skip(r, k, c, ci, cp, 0, depth + 1))) return rc;
    return PCOL_OK;
  }
  const jclass *t = &k->cls[ci];
  if (cp) {
    jfr_long(c);
  } else {
    switch (t->kind) {
    case JK_BOOL:
    case JK_BYTE: rd_u8(c); break;
    case JK_CHAR: rd_char(c); break;
    case JK_SHORT: rd_short(c); break;
    case JK_INT: jfr_int(c); break;
    case JK_LONG: jfr_long(c); break;
    case JK_FLOAT: rd_be(c, 4); break;
    case JK_DOUBLE: rd_be(c, 8); break;
    case JK_STRING: return rd_string(r, k, c, NULL, 0) < 0 ? PCOL_ECORRUPT : PCOL_OK;
    default:
      for (uint32_t f = 0; f < t->nf; f++) {
        const jfield *fd = &k->fields[t->f0 + f];
        if ((rc = jfr_skip(r, k, c, fd->cls, fd->cp, fd->array, depth + 1))) return rc;
      }
    }
  }
  return c->bad ? jfr_bad(r, at, "value runs past its event") : PCOL_OK;
}

int jfr_read_struct(jrd *r, jchunk *k, jcur *c, uint32_t ci, jv *out, size_t n) {
  const jclass *t = &k->cls[ci];
  int rc;
  for (size_t i = t->nf; i < n; i++) out[i].kind = JV_NONE;
  if (t->kind != JK_STRUCT) return jfr_bad(r, c->pos, "a %s where a struct was expected", jfr_str(k, t->name));
  for (uint32_t f = 0; f < t->nf; f++) {
    const jfield *fd = &k->fields[t->f0 + f];
    jv v = {JV_NONE, 0, 0, c->pos, fd->cls};
    uint64_t at = c->pos;
    if ((rc = budget(r, c))) return rc;
    if (fd->array) {
      uint64_t cnt;
      if (!rd_count(c, 0, &cnt)) return jfr_bad(r, at, "array length out of range");
      v.kind = JV_ARR, v.i = (int64_t)cnt, v.pos = c->pos;
      for (uint64_t e = 0; e < cnt; e++)
        if ((rc = jfr_skip(r, k, c, fd->cls, fd->cp, 0, 1))) return rc;
    } else if (fd->cp) {
      v.kind = JV_CP, v.i = (int64_t)jfr_long(c);
    } else {
      uint64_t u;
      float fl;
      uint32_t f32;
      switch (k->cls[fd->cls].kind) {
      case JK_BOOL: v.kind = JV_NUM, v.i = rd_u8(c) != 0; break;
      case JK_BYTE: v.kind = JV_NUM, v.i = (int8_t)rd_u8(c); break;
      case JK_CHAR: v.kind = JV_NUM, v.i = rd_char(c); break;
      case JK_SHORT: v.kind = JV_NUM, v.i = rd_short(c); break;
      case JK_INT: v.kind = JV_NUM, v.i = jfr_int(c); break;
      case JK_LONG: v.kind = JV_NUM, v.i = (int64_t)jfr_long(c); break;
      case JK_FLOAT:
        f32 = (uint32_t)rd_be(c, 4);
        memcpy(&fl, &f32, 4);
        v.kind = JV_DBL, v.d = fl;
        break;
      case JK_DOUBLE:
        u = rd_be(c, 8);
        memcpy(&v.d, &u, 8);
        v.kind = JV_DBL;
        break;
      case JK_STRING:
        v.kind = JV_STR;
        if (rd_string(r, k, c, NULL, 0) < 0) return PCOL_ECORRUPT;
        break;
      default:
        v.kind = JV_STRUCT;
        if ((rc = jfr_skip(r, k, c, fd->cls, 0, 0, 1))) return rc;
      }
    }
    if (c->bad) return jfr_bad(r, at, "value runs past its event");
    if (f < n) out[f] = v;
  }
  return PCOL_OK;
}

int jfr_field(const jchunk *k, uint32_t ci, const char *name) {
  if (ci >= k->ncls) return -1;
  const jclass *t = &k->cls[ci];
  for (uint32_t f = 0; f < t->nf; f++)
    if (!strcmp(jfr_str(k, k->fields[t->f0 + f].name), name)) return (int)f;
  return -1;
}

uint32_t jfr_class_by_name(const jchunk *k, const char *name) {
  for (size_t i = 0; i < k->ncls; i++)
    if (!strcmp(jfr_str(k, k->cls[i].name), name)) return (uint32_t)i;
  return UINT32_MAX;
}

/* ------------------------------------------------------------ pools */
/* The entry of key in class ci's pool (added, absent, when new): entry 0
 * is key 2^64 - 1 (-1L), which the map cannot hold; the map's n-th key is
 * entry n + 1. */
static int pool_entry(jrd *r, jclass *t, uint64_t key, uint32_t *eidx, int *added) {
  uint32_t idx = 0;
  if (key == UINT64_MAX) *added = !t->nent || t->ent[0].off == UINT64_MAX;
  else if (pcol_u64map_get(&t->pool, key, &idx, added)) return pcol_oom(r->err);
  else idx++;
  while (t->nent <= idx) {
    if (PCOL_GROW(t->ent, t->nent, t->capent)) return pcol_oom(r->err);
    t->ent[t->nent].off = UINT64_MAX, t->ent[t->nent].use = t->ent[t->nent].flag = 0;
    t->ent[t->nent].len = 0, t->ent[t->nent].lk = NULL, t->ent[t->nent].lci = t->ent[t->nent].lidx = 0;
    t->ent[t->nent++].memo = 0;
  }
  *eidx = idx;
  return PCOL_OK;
}

/* key's entry in class ci's pool of k, without the link: 1 found */
static int pool_find(jrd *r, jchunk *k, uint32_t ci, uint64_t key, uint32_t *idx) {
  jclass *t = &k->cls[ci];
  int added;
  if (!t->nent || pool_entry(r, t, key, idx, &added)) return 0;
  return t->ent[*idx].off != UINT64_MAX;
}

int jfr_pool_at(jrd *r, jchunk *k, uint32_t ci, uint64_t key, jloc *at) {
  uint32_t idx;
  if (!pool_find(r, k, ci, key, &idx)) return 0;
  const jentry *e = &k->cls[ci].ent[idx];
  if (e->lk) *at = (jloc){e->lk, e->lci, e->lidx, e->lk->cls[e->lci].ent[e->lidx].off};
  else *at = (jloc){k, ci, idx, e->off};
  return 1;
}

int jfr_link_pools(jrd *r, jchunk *k, jchunk *p) {
  if (!p) return PCOL_OK;
  for (uint32_t ci = 0; ci < k->ncls; ci++) {
    jclass *t = &k->cls[ci];
    if (!t->nent) continue;
    /* the JDK's String pool is made anew with new metadata
     * (ParserFactory.createPrimitiveParser): no string of the chunk before */
    if (ci + 1 == k->string_cls && k->md_id != p->md_id) continue;
    uint32_t pci;
    int added;
    if (pcol_u64map_get(&p->ids, t->id, &pci, &added)) return pcol_oom(r->err);
    /* (an id p lacks stays in p's map, whose reading is done; k's ids are
     * distinct, so it is not asked again) */
    if (added || pci >= p->ncls) continue;
    /* slot i of the pool's map (i < cap), then key -1L (entry 0) */
    for (size_t i = 0; i <= t->pool.cap; i++) {
      uint64_t key;
      uint32_t idx, pidx;
      if (i < t->pool.cap) {
        if (!t->pool.k || !t->pool.k[i]) continue;
        key = t->pool.k[i] - 1, idx = t->pool.v[i] + 1;
      } else {
        key = UINT64_MAX, idx = 0;
      }
      if (idx >= t->nent || t->ent[idx].off == UINT64_MAX) continue;
      if (!pool_find(r, p, pci, key, &pidx)) continue;
      jentry *e = &k->cls[ci].ent[idx];
      const jentry *pe = &p->cls[pci].ent[pidx];
      if (pe->lk) {
        e->lk = pe->lk, e->lci = pe->lci, e->lidx = pe->lidx;
      } else {
        /* the same bytes under the same metadata: the same value (its keys
         * are resolved by this rule in both chunks) */
        jcur a = jfr_cur(r, k, e->off), b = jfr_cur(r, p, pe->off);
        if (k->md_id == p->md_id && k->compressed == p->compressed && e->len == pe->len &&
            !memcmp(a.p + (a.pos - a.org), b.p + (b.pos - b.org), (size_t)e->len))
          continue;
        e->lk = p, e->lci = pci, e->lidx = pidx;
      }
      e->lk->refs++;
    }
  }
  return PCOL_OK;
}

int jfr_chunk_keep(jchunk *k) {
  if (k->own) return PCOL_OK;
  if (!(k->own = malloc(k->size ? (size_t)k->size : 1))) return PCOL_ENOMEM;
  memcpy(k->own, k->bytes, (size_t)k->size);
  k->bytes = k->own;
  return PCOL_OK;
}

void jfr_chunk_release(jchunk *k) {
  /* the chunks freed hand their links on: a list threaded through the
   * freed chunks' own fields would do, but a chain of links can be as
   * long as the input has chunks, so no recursion: a worklist */
  jchunk **todo = NULL;
  size_t n = 0, cap = 0;
  while (k) {
    if (!--k->refs) {
      for (size_t ci = 0; ci < k->ncls; ci++)
        for (size_t i = 0; i < k->cls[ci].nent; i++) {
          jchunk *l = k->cls[ci].ent[i].lk;
          if (!l) continue;
          if (n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            jchunk **t = realloc(todo, nc * sizeof *t);
            if (!t) { l->refs--; continue; } /* out of memory: that chunk leaks, nothing breaks */
            todo = t, cap = nc;
          }
          todo[n++] = l;
        }
      free(k->own);
      jfr_chunk_free(k);
      free(k);
    }
    k = n ? todo[--n] : NULL;
  }
  free(todo);
}

static int read_pools(jrd *r, jchunk *k) {
  uint64_t pos = k->start + k->cp_off, first = k->start + JFR_HEADER_SIZE;
  for (;;) {
    jcur c = jfr_cur(r, k, pos);
    int64_t size = jfr_int(&c);
    if (c.bad || size <= 0 || (uint64_t)size > c.end - pos)
      return jfr_bad(r, pos, "checkpoint event size out of range");
    c.end = pos + (uint64_t)size;
    uint64_t type = jfr_long(&c);
    if (type != 1) return jfr_bad(r, pos, "expected a checkpoint event (type 1), found type %llu", (unsigned long long)type);
    jfr_long(&c), jfr_long(&c); /* start, duration */
    int64_t delta = (int64_t)jfr_long(&c);
    rd_u8(&c); /* flags */
    uint64_t npools, n;
    if (!rd_count(&c, 1, &npools)) return jfr_bad(r, pos, "checkpoint pool count out of range");
    for (uint64_t i = 0; i < npools; i++) {
      uint64_t at = c.pos, id = jfr_long(&c);
      uint32_t ci;
      int added, rc;
      if (pcol_u64map_get(&k->ids, id, &ci, &added) || added || c.bad)
        return jfr_bad(r, at, "constant pool of type id %llu, which no class has", (unsigned long long)id);
      if (!rd_count(&c, 1, &n)) return jfr_bad(r, at, "constant count out of range");
      jclass *t = &k->cls[ci];
      for (uint64_t j = 0; j < n; j++) {
        uint64_t key = jfr_long(&c);
        uint32_t e;
        if ((rc = pool_entry(r, t, key, &e, &added))) return rc;
        /* the last one read wins, as in the JDK's reader (ChunkParser puts
         * every entry into the pool's map): the checkpoints are read from
         * the latest back, so a key's value is the earliest checkpoint's,
         * and of a key listed twice in one, the second */
        t->ent[e].off = c.pos;
        if ((rc = jfr_skip(r, k, &c, ci, 0, 0, 0))) return rc;
        t->ent[e].len = c.pos - t->ent[e].off;
      }
    }
    if (c.bad) return jfr_bad(r, pos, "checkpoint runs past its size");
    if (delta == 0) return PCOL_OK;
    uint64_t back = (uint64_t)0 - (uint64_t)delta;
    if (delta > 0 || back > pos - first)
      return jfr_bad(r, pos, "checkpoint delta %lld points outside the chunk", (long long)delta);
    pos -= back;
  }
}

/* ------------------------------------------------------------ metadata */
static int md_index(jrd *r, const jchunk *k, jcur *c, uint32_t *off) {
  uint64_t at = c->pos;
  int64_t i = jfr_int(c);
  if (c->bad || i < 0 || (uint64_t)i >= k->nstr) return jfr_bad(r, at, "metadata string index out of range");
  *off = k->str_off[i];
  return PCOL_OK;
}

static int parse_u64(const char *s, uint64_t *v) {
  *v = 0;
  if (!*s) return 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || *v > (UINT64_MAX - 9) / 10) return 0;
    *v = *v * 10 + (uint64_t)(*s - '0');
  }
  return 1;
}

enum { MD_ROOT, MD_TOP, MD_META, MD_CLASS, MD_OTHER };
static int md_element(jrd *r, jchunk *k, jcur *c, int depth, int where) {
  uint64_t at = c->pos, nattr, nkids;
  uint32_t name;
  int rc;
  if (depth > JFR_MAX_DEPTH) return jfr_bad(r, at, "metadata elements nested more than %d deep", JFR_MAX_DEPTH);
  if ((rc = budget(r, c)) || (rc = md_index(r, k, c, &name))) return rc;
  const char *nm = jfr_str(k, name);
  int is_meta = where == MD_TOP && !strcmp(nm, "metadata");
  int is_class = where == MD_META && !strcmp(nm, "class");
  int is_field = where == MD_CLASS && !strcmp(nm, "field");
  uint32_t a_name = UINT32_MAX, a_id = UINT32_MAX, a_super = UINT32_MAX, a_cp = UINT32_MAX,
           a_dim = UINT32_MAX;
  if (!rd_count(c, 2, &nattr)) return jfr_bad(r, at, "metadata attribute count out of range");
  for (uint64_t i = 0; i < nattr; i++) {
    uint32_t key, val;
    if ((rc = md_index(r, k, c, &key)) || (rc = md_index(r, k, c, &val))) return rc;
    const char *ks = jfr_str(k, key);
    if (!strcmp(ks, "name")) a_name = val;
    else if (!strcmp(ks, is_class ? "id" : "class")) a_id = val;
    else if (!strcmp(ks, "superType")) a_super = val;
    else if (!strcmp(ks, "constantPool")) a_cp = val;
    else if (!strcmp(ks, "dimension")) a_dim = val;
  }
  size_t ci = k->ncls;
  uint64_t id = 0;
  if ((is_class || is_field) && (a_name == UINT32_MAX || a_id == UINT32_MAX || !parse_u64(jfr_str(k, a_id), &id)))
    return jfr_bad(r, at, "metadata %s without a name or a numeric %s", nm, is_class ? "id" : "class");
  if (is_class) {
    if (PCOL_GROW(k->cls, k->ncls, k->capcls)) return pcol_oom(r->err);
    jclass *t = &k->cls[k->ncls++];
    memset(t, 0, sizeof *t);
    t->id = id, t->name = a_name, t->super = a_super, t->f0 = (uint32_t)k->nfields;
  } else if (is_field) {
    const char *dim = a_dim == UINT32_MAX ? "0" : jfr_str(k, a_dim);
    if (strcmp(dim, "0") && strcmp(dim, "1")) return jfr_bad(r, at, "field dimension %.20s (0 or 1 expected)", dim);
    if (PCOL_GROW(k->fields, k->nfields, k->capfields) || k->nfields >= UINT32_MAX) return pcol_oom(r->err);
    jfield *f = &k->fields[k->nfields++];
    f->name = a_name, f->type_id = id, f->cls = 0, f->array = !strcmp(dim, "1");
    f->cp = a_cp != UINT32_MAX && !strcmp(jfr_str(k, a_cp), "true");
  }
  if (!rd_count(c, 1, &nkids)) return jfr_bad(r, at, "metadata child count out of range");
  int kid = where == MD_ROOT ? MD_TOP : is_meta ? MD_META : is_class ? MD_CLASS : MD_OTHER;
  for (uint64_t i = 0; i < nkids; i++)
    if ((rc = md_element(r, k, c, depth + 1, kid))) return rc;
  if (is_class) k->cls[ci].nf = (uint32_t)(k->nfields - k->cls[ci].f0);
  return PCOL_OK;
}

static const struct { const char *name; int kind; } PRIMS[] = {
    {"boolean", JK_BOOL}, {"byte", JK_BYTE}, {"char", JK_CHAR},     {"short", JK_SHORT},
    {"int", JK_INT},      {"long", JK_LONG}, {"float", JK_FLOAT},   {"double", JK_DOUBLE},
    {"java.lang.String", JK_STRING}};

static int read_metadata(jrd *r, jchunk *k) {
  uint64_t pos = k->start + k->md_off, n;
  jcur c = jfr_cur(r, k, pos);
  int64_t size = jfr_int(&c);
  int rc;
  if (c.bad || size <= 0 || (uint64_t)size > c.end - pos) return jfr_bad(r, pos, "metadata event size out of range");
  c.end = pos + (uint64_t)size;
  uint64_t type = jfr_long(&c);
  if (type != 0) return jfr_bad(r, pos, "expected the metadata event (type 0), found type %llu", (unsigned long long)type);
  jfr_long(&c), jfr_long(&c); /* start, duration */
  k->md_id = jfr_long(&c);
  if (!rd_count(&c, 1, &n)) return jfr_bad(r, pos, "metadata string count out of range");
  k->str_off = malloc((n ? n : 1) * sizeof *k->str_off);
  if (!k->str_off) return pcol_oom(r->err);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t at = c.pos;
    uint8_t enc = c.pos < c.end ? c.p[c.pos - c.org] : 0;
    if (enc == 2) return jfr_bad(r, at, "metadata string refers to a constant pool");
    if (k->strs.len > UINT32_MAX - 1) return jfr_bad(r, at, "metadata strings too long");
    k->str_off[i] = (uint32_t)k->strs.len;
    if ((rc = rd_string(r, k, &c, &k->strs, 0)) < 0) return rc;
    if (k->strs.len > k->str_off[i] && memchr(k->strs.data + k->str_off[i], 0, k->strs.len - k->str_off[i]))
      return jfr_bad(r, at, "metadata string holds a NUL byte");
    if (pcol_buf_append(&k->strs, "", 1)) return pcol_oom(r->err);
    k->nstr++;
  }
  if ((rc = md_element(r, k, &c, 0, MD_ROOT))) return rc;
  /* class ids, kinds, the fields' classes */
  for (size_t i = 0; i < k->ncls; i++) {
    jclass *t = &k->cls[i];
    uint32_t idx;
    int added;
    if (pcol_u64map_get(&k->ids, t->id, &idx, &added) || !added)
      return jfr_bad(r, pos, "metadata class id %llu repeated or out of range", (unsigned long long)t->id);
    for (size_t p = 0; p < sizeof PRIMS / sizeof PRIMS[0]; p++)
      if (!strcmp(jfr_str(k, t->name), PRIMS[p].name)) t->kind = PRIMS[p].kind;
    if (t->kind == JK_STRING) k->string_cls = (uint32_t)i + 1;
  }
  for (size_t f = 0; f < k->nfields; f++) {
    uint32_t idx;
    int added;
    if (pcol_u64map_get(&k->ids, k->fields[f].type_id, &idx, &added) || added)
      return jfr_bad(r, pos, "metadata field %s has type id %llu, which no class has",
                     jfr_str(k, k->fields[f].name), (unsigned long long)k->fields[f].type_id);
    k->fields[f].cls = idx;
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------ chunks */
int jfr_chunk_header(jrd *r, uint64_t at, jchunk *k) {
  memset(k, 0, sizeof *k);
  if (r->len - at < JFR_HEADER_SIZE)
    return jfr_bad(r, at, "%llu bytes, less than a chunk header (68)", (unsigned long long)(r->len - at));
  const uint8_t *p = r->data + (at - r->org);
  if (memcmp(p, "FLR\0", 4) != 0) return jfr_bad(r, at, "no chunk magic FLR\\0");
  jcur c = {r->data, r->org, at + 4, r->len, 0, 0};
  k->start = at;
  k->major = (uint16_t)rd_be(&c, 2), k->minor = (uint16_t)rd_be(&c, 2);
  k->size = rd_be(&c, 8), k->cp_off = rd_be(&c, 8), k->md_off = rd_be(&c, 8);
  k->start_nanos = (int64_t)rd_be(&c, 8), k->duration_nanos = (int64_t)rd_be(&c, 8);
  k->start_ticks = (int64_t)rd_be(&c, 8), k->tps = (int64_t)rd_be(&c, 8);
  k->compressed = (rd_be(&c, 4) & 1) != 0;
  if (k->major != 1 && k->major != 2)
    return jfr_bad(r, at, "file version %u.%u (1.x and 2.x are read)", k->major, k->minor);
  if (k->size < JFR_HEADER_SIZE)
    return jfr_bad(r, at, "chunk size %llu, less than its header (68)", (unsigned long long)k->size);
  if (k->size > r->len - at) /* the common case: a copy cut short, a JVM killed mid-chunk */
    return jfr_bad(r, at, "truncated: chunk size %llu, only %llu bytes left (the recording was cut "
                   "short, or its chunk was still being written)", (unsigned long long)k->size,
                   (unsigned long long)(r->len - at));
  if (k->cp_off < JFR_HEADER_SIZE || k->cp_off >= k->size || k->md_off < JFR_HEADER_SIZE ||
      k->md_off >= k->size)
    return jfr_bad(r, at, "constant pool or metadata offset outside the chunk");
  if (k->tps <= 0) return jfr_bad(r, at, "ticks per second %lld", (long long)k->tps);
  return PCOL_OK;
}

int jfr_chunk_read(jrd *r, jchunk *k) {
  int rc = read_metadata(r, k);
  return rc ? rc : read_pools(r, k);
}

void jfr_chunk_free(jchunk *k) {
  for (size_t i = 0; i < k->ncls; i++) {
    pcol_u64map_free(&k->cls[i].pool);
    free(k->cls[i].ent);
  }
  free(k->cls);
  free(k->fields);
  free(k->str_off);
  pcol_buf_free(&k->strs);
  pcol_u64map_free(&k->ids);
  memset(k, 0, sizeof *k);
}
