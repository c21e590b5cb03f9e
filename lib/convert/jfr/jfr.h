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
  uint32_t memo;
  uint8_t use;
  uint8_t flag; /* a stack trace's "truncated" (with its memo) */
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
/* The position of the value of key in class ci's pool: 1 found, 0 absent;
 * *idx: its entry's index in the class's ent (whose memo the importer
 * keeps; an index, as later lookups may move ent). */
int jfr_pool_find(jrd *r, jchunk *k, uint32_t ci, uint64_t key, uint64_t *pos, uint32_t *idx);
/* The string of a JV_STR or a JV_CP (a pool value) v, decoded to UTF-8 in
 * r->sbuf: 1 a string (s, n), 0 null, < 0 an error. */
int jfr_string(jrd *r, jchunk *k, const jv *v, const char **s, size_t *n);
/* A cursor over the chunk at pos. */
static inline jcur jfr_cur(const jrd *r, const jchunk *k, uint64_t pos) {
  jcur c = {r->data, r->org, pos, k->start + k->size, k->compressed, 0};
  if (pos < r->org) c.pos = c.end, c.bad = 1; /* (never: positions are the chunk's) */
  return c;
}

#endif
