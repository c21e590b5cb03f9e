/* firefox_json.h — reading a Firefox profile's JSON as a stream into a
 * compact tree of what the importer reads (json_tree.h), and checked access
 * to its tables (every index bounds-checked, errors naming the JSON path).
 * firefox_json.c */
#ifndef PCOL_FIREFOX_JSON_H
#define PCOL_FIREFOX_JSON_H

#include "convert.h"
#include "json_tree.h"
#include <zlib.h>
#include <stdio.h>

typedef struct ffj {
  pcol_jtree t;     /* the parts of the document the importer reads */
  pcol_jv root;
  const char *name; /* the input, for messages */
  pcol_error *err;
} ffj;

/* Reads the input as a stream (gzip inflated; under the input cap) into j->t. */
int ffj_read(ffj *j, FILE *in, const char *name, const pcol_import_options *opt, pcol_error *err);
void ffj_free(ffj *j);
/* PCOL_ECORRUPT with "NAME: " and the message. */
int ffj_fail(ffj *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* obj[key] as an array (PCOL_ECORRUPT naming path.key otherwise). */
int ffj_array(ffj *j, pcol_jv obj, const char *key, const char *path, pcol_jv *out);
/* obj[key] as a table: an object with a whole "length" >= 0. */
int ffj_table(ffj *j, pcol_jv obj, const char *key, const char *path, pcol_jv *out, size_t *len);
/* table[key] as an array of at least n entries. */
int ffj_column(ffj *j, pcol_jv table, const char *key, size_t n, const char *path, pcol_jv *out);
/* table[key][i], 0 when absent. */
static inline pcol_jv ffj_col(ffj *j, pcol_jv table, const char *key, size_t i) {
  return pcol_jt_at(&j->t, pcol_jt_get(&j->t, table, key), i);
}
/* A table's length (0 when it has none). */
size_t ffj_len(ffj *j, pcol_jv table);
/* v as an index into a table of n rows named `what` (at JSON path `path`). */
int ffj_index(ffj *j, pcol_jv v, size_t n, const char *path, const char *what, size_t *out);
/* The parent of stack s: prefixOffset (version 66 on) or prefix; *root = 1
 * for a root.  A parent must come before its child. */
int ffj_prefix(ffj *j, pcol_jv stacks, int version, size_t s, const char *path, size_t *parent,
               int *root);
/* v's string, or NULL. */
static inline const char *ffj_str(ffj *j, pcol_jv v) { return pcol_jt_str(&j->t, v); }

#endif
