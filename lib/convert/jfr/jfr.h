/* jfr.h — the JDK Flight Recorder importer's private header (not installed).
 *
 * jfr_read.c reads one chunk's structure: its header, the metadata event
 * (the classes and their fields), the constant pools (checkpoint events,
 * chained backwards by their deltas from the header's offset) and values
 * of any class (numbers, strings, constant-pool references, arrays, inline
 * structs) at a byte position, every read bounds-checked.  jfr_import.c
 * walks the chunk's events and turns the samples into pcol rows. */
#ifndef PCOL_JFR_H
#define PCOL_JFR_H

#include "pcol.h"
#include "buf.h"      /* pcol_buf */
#include "hash.h"     /* pcol_u64map */
#include "convert.h"
#include "keys.h"
#include <stdio.h>

#define JFR_HEADER_SIZE 68
#define JFR_MAX_DEPTH 64 /* nested inline structs, metadata elements */

/* A cursor over [pos, end) of the input; a read past end sets bad.  p
 * holds the input from position org on (the chunk being read). */
typedef struct jcur {
  const uint8_t *p;
  uint64_t org, pos, end;
  int compressed; /* the chunk's integers are LEB128 varints */
  int bad;
} jcur;

/* The kind of a class: a primitive, a string or a struct of fields. */
enum { JK_STRUCT, JK_BOOL, JK_BYTE, JK_CHAR, JK_SHORT, JK_INT, JK_LONG, JK_FLOAT, JK_DOUBLE,
       JK_STRING };

typedef struct jfield {
  uint32_t name; /* offset of its name in the metadata strings */
  uint32_t cls;  /* class index */
  uint8_t cp, array;
  uint64_t type_id; /* until resolved */
} jfield;

typedef struct jclass {
  uint64_t id;
  uint32_t name, super; /* offsets in the metadata strings (UINT32_MAX: none) */
  uint32_t f0, nf;      /* fields[f0 .. f0 + nf) */
  int kind;
  /* its constant pool: key -> dense index into ent, + 1 (ent[0]: key -1L) */
  pcol_u64map pool;
  struct jentry *ent;
  size_t nent, capent;
} jclass;

/* A constant of a pool: where its value is (UINT64_MAX: a key asked for
 * that the pool lacks) and what the importer made of it + 1 (0: not yet)
 * for which use (a file may name one class for two roles: a memo is only
 * read back for the use that wrote it). */
typedef struct jentry {
  uint64_t off;
  uint64_t len; /* its bytes */
  uint32_t memo;
  uint8_t use;
  uint8_t flag; /* a stack trace's "truncated" (with its memo) */
  /* the JDK's reader gives a key the previous chunk's pool also has that
   * value (jfr_link_pools): where it is, a retained chunk's entry; NULL:
   * this entry is the value */
  struct jchunk *lk;
  uint32_t lci, lidx;
} jentry;

/* One chunk as read. */
typedef struct jchunk {
  uint64_t start, size; /* position in the input, bytes */
  uint16_t major, minor;
  uint64_t cp_off, md_off;
  int64_t start_nanos, duration_nanos, start_ticks, tps;
  int compressed;
  /* metadata */
  uint64_t md_id;       /* the metadata event's id */
  pcol_buf strs;        /* the metadata strings, each NUL-terminated */
  uint32_t *str_off;    /* string index -> offset in strs */
  size_t nstr;
  jclass *cls;
  size_t ncls, capcls;
  jfield *fields;
  size_t nfields, capfields;
  pcol_u64map ids; /* class id -> class index */
  uint32_t string_cls; /* the java.lang.String class + 1 (0: none) */
  /* its bytes (from start on): the reader's buffer while it is the
   * current or the previous chunk, then, if it is kept (jfr_link_pools),
   * its own copy (own); and its holders: itself while it is the current
   * or previous chunk, + 1 per linked entry */
  const uint8_t *bytes;
  uint8_t *own;
  uint64_t refs;
} jchunk;

/* The reading context: the input and what errors name.  The input is read
 * a chunk at a time: data[0 .. len - org) are its bytes org .. len (the
 * current chunk); positions are the input's, for messages. */
typedef struct jrd {
  const uint8_t *data;
  uint64_t org, len;
  const char *name;
  pcol_error *err;
  unsigned chunk_no; /* 1-based, for messages */
  uint64_t work, work_max; /* values read or skipped, under a budget */
  pcol_buf sbuf;           /* scratch for decoded strings */
} jrd;

/* A field's value as read: a number, or where a string/array/struct is. */
enum { JV_NONE, JV_NUM, JV_DBL, JV_STR, JV_CP, JV_ARR, JV_STRUCT };
typedef struct jv {
  int kind;
  int64_t i; /* JV_NUM, JV_CP (the key), JV_ARR (the count) */
  double d;
  uint64_t pos; /* JV_STR, JV_ARR (first element), JV_STRUCT */
  uint32_t cls;
} jv;

/* jfr_read.c */
int jfr_bad(jrd *r, uint64_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint64_t jfr_long(jcur *c);
int64_t jfr_int(jcur *c);
int jfr_chunk_header(jrd *r, uint64_t at, jchunk *k);
int jfr_chunk_read(jrd *r, jchunk *k);
void jfr_chunk_free(jchunk *k);
const char *jfr_str(const jchunk *k, uint32_t off);
/* the class index of a name, or UINT32_MAX */
uint32_t jfr_class_by_name(const jchunk *k, const char *name);
/* the index of field `name` of class ci, or -1 */
int jfr_field(const jchunk *k, uint32_t ci, const char *name);
/* Reads the fields of a struct of class ci at c into out[0 .. n) (fields
 * past n are skipped, out[k] for k >= the class's fields is JV_NONE). */
int jfr_read_struct(jrd *r, jchunk *k, jcur *c, uint32_t ci, jv *out, size_t n);
/* Skips one value of class ci (cp: a reference; array: an array of them). */
int jfr_skip(jrd *r, jchunk *k, jcur *c, uint32_t ci, int cp, int array, int depth);
/* Where the value of key in class ci's pool of chunk k is, as the JDK's
 * reader resolves it (a linked entry: in an earlier chunk, jfr_link_pools):
 * 1 found, 0 absent.  *at: that chunk, class, entry (whose memo the
 * importer keeps; an index, as later lookups may move ent) and position. */
typedef struct jloc {
  jchunk *k;
  uint32_t ci, idx;
  uint64_t pos;
} jloc;
int jfr_pool_at(jrd *r, jchunk *k, uint32_t ci, uint64_t key, jloc *at);
/* After chunk k's pools are read, p the chunk before (NULL: none): the
 * JDK's rule of constants across chunks (doc/mappings.md §16), for every
 * pool: a key of k's pool that
 * p's pool of the same type id also has keeps p's value.  Where the two
 * entries' bytes are the same, under the same metadata, k's own entry is
 * that value; else k's entry is linked to p's (or to what p's was linked
 * to), and that chunk is kept (its bytes copied by jfr_chunk_keep). */
int jfr_link_pools(jrd *r, jchunk *k, jchunk *p);
/* Chunk k's bytes copied out of the reader's buffer, before the next
 * chunk is read into it (entries link to k): PCOL_OK or PCOL_ENOMEM (the
 * caller sets the error). */
int jfr_chunk_keep(jchunk *k);
/* Drops a holder of k (a heap chunk); the last frees it and drops its links. */
void jfr_chunk_release(jchunk *k);
/* The string of a JV_STR or a JV_CP (a pool value) v, decoded to UTF-8 in
 * r->sbuf: 1 a string (s, n), 0 null, < 0 an error. */
int jfr_string(jrd *r, jchunk *k, const jv *v, const char **s, size_t *n);
/* A cursor over the chunk at pos. */
static inline jcur jfr_cur(const jrd *r, const jchunk *k, uint64_t pos) {
  jcur c = {k->bytes ? k->bytes : r->data, k->bytes ? k->start : r->org, pos, k->start + k->size, k->compressed, 0};
  if (pos < c.org) c.pos = c.end, c.bad = 1; /* (never: positions are the chunk's) */
  return c;
}

#endif
