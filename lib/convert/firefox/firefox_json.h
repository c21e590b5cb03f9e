/* firefox_json.h — reading a Firefox profile's JSON with jansson: the
 * document, and checked access to its tables (every index bounds-checked,
 * errors naming the JSON path).  firefox_json.c */
#ifndef PCOL_FIREFOX_JSON_H
#define PCOL_FIREFOX_JSON_H

#include "convert.h"
#include <jansson.h>
#include <zlib.h>

typedef struct ffj {
  json_t *root;
  const char *name; /* the input, for messages */
  pcol_error *err;
} ffj;

/* Reads the whole input (gzip inflated; under the input cap) and parses it. */
int ffj_read(ffj *j, FILE *in, const char *name, const pcol_import_options *opt, pcol_error *err);
void ffj_free(ffj *j);
/* PCOL_ECORRUPT with "NAME: " and the message. */
int ffj_fail(ffj *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* obj[key] as an array (PCOL_ECORRUPT naming path.key otherwise). */
int ffj_array(ffj *j, json_t *obj, const char *key, const char *path, json_t **out);
/* obj[key] as a table: an object with a whole "length" >= 0. */
int ffj_table(ffj *j, json_t *obj, const char *key, const char *path, json_t **out, size_t *len);
/* table[key] as an array of at least n entries. */
int ffj_column(ffj *j, json_t *table, const char *key, size_t n, const char *path, json_t **out);
/* table[key][i], NULL when absent. */
static inline json_t *ffj_col(json_t *table, const char *key, size_t i) {
  return json_array_get(json_object_get(table, key), i);
}
/* A table's length (0 when it has none). */
size_t ffj_len(json_t *table);
/* v as an index into a table of n rows named `what` (at JSON path `path`). */
int ffj_index(ffj *j, json_t *v, size_t n, const char *path, const char *what, size_t *out);
/* The parent of stack s: prefixOffset (version 66 on) or prefix; *root = 1
 * for a root.  A parent must come before its child. */
int ffj_prefix(ffj *j, json_t *stacks, int version, size_t s, const char *path, size_t *parent,
               int *root);
/* v's string, or NULL. */
static inline const char *ffj_str(json_t *v) { return json_is_string(v) ? json_string_value(v) : NULL; }

#endif
