/* json_tree.h — a compact, read-only JSON tree built from json_pull, for the
 * importers that need random access to parts of a document (Firefox
 * profiles: tables may come after the samples that index them).
 *
 * Why not jansson: its DOM costs 10 to 50 times the text (a heap object per
 * value).  Here a value is one 64-bit word: integers up to 2^60 inline,
 * others and doubles in flat arrays, strings in one byte arena, containers
 * as runs of words (an object member is two: its key, its value).  And a
 * filter can drop what the importer never reads (a profile's markers) as
 * the document streams by, so memory follows what is kept, not the text.
 *
 * Values are read with the accessors below; the tree is immutable once
 * built, members keep the document's order (as jansson's iteration does),
 * and every accessor is safe on any value (0 = absent, as jansson's NULL). */
#ifndef PCOL_JSON_TREE_H
#define PCOL_JSON_TREE_H

#include "json_pull.h"
#include "buf.h"      /* pcol_buf */

typedef uint64_t pcol_jv; /* 0: absent */

enum pcol_jkind { PCOL_JK_ABSENT, PCOL_JK_NULL, PCOL_JK_TRUE, PCOL_JK_FALSE, PCOL_JK_INT,
                  PCOL_JK_REAL, PCOL_JK_STR, PCOL_JK_ARR, PCOL_JK_OBJ };

/* What to do with the value of an object's key: keep it, skip it, or (an
 * array) keep only its length (its elements read as absent; another value
 * kept as null, or an empty object for an object). */
enum { PCOL_JF_KEEP, PCOL_JF_SKIP, PCOL_JF_COUNT };
/* path[0..n) are the keys from the root to this key (path[n-1]), NULL
 * standing for an array element. */
typedef int (*pcol_jfilter)(void *ctx, const char *const *path, size_t n);

typedef struct pcol_jcont {
  size_t first; /* its words in slots; an array of numbers: in i32 or reals (json_tree.c);
                 * SIZE_MAX: only counted */
  size_t n;     /* elements (members for an object) */
} pcol_jcont;

typedef struct pcol_jtree {
  pcol_jv root;
  int64_t *ints;   /* integers too large to inline */
  double *reals;
  size_t nints, capints, nreals, capreals;
  size_t *strs;    /* string i: bytes at strs[2i] of length strs[2i+1] (NUL after it) */
  size_t nstrs, capstrs;
  pcol_buf bytes;
  pcol_jcont *conts;
  size_t nconts, capconts;
  pcol_jv *slots;
  size_t nslots, capslots;
  int32_t *i32;    /* the elements of arrays of small integers, 4 bytes each */
  size_t ni32, capi32;
} pcol_jtree;

/* Reads the document (or what remains of it: the next value) from j into
 * t, keeping what filter (NULL: everything) keeps.  Errors are j's (JSON)
 * or PCOL_ENOMEM. */
int pcol_jtree_build(pcol_jtree *t, pcol_jpull *j, pcol_jfilter filter, void *ctx);
void pcol_jtree_free(pcol_jtree *t);

static inline int pcol_jt_kind(pcol_jv v) {
  static const unsigned char k[8] = {PCOL_JK_ABSENT, 0, PCOL_JK_INT, PCOL_JK_INT, PCOL_JK_REAL,
                                     PCOL_JK_STR, PCOL_JK_ARR, PCOL_JK_OBJ};
  if (!v) return PCOL_JK_ABSENT;
  if ((v & 7) == 1) return (int)(v >> 3) == 0 ? PCOL_JK_NULL : (v >> 3) == 1 ? PCOL_JK_TRUE : PCOL_JK_FALSE;
  return k[v & 7];
}
static inline int pcol_jt_is_int(pcol_jv v) { return pcol_jt_kind(v) == PCOL_JK_INT; }
static inline int pcol_jt_is_num(pcol_jv v) { int k = pcol_jt_kind(v); return k == PCOL_JK_INT || k == PCOL_JK_REAL; }
static inline int pcol_jt_is_str(pcol_jv v) { return pcol_jt_kind(v) == PCOL_JK_STR; }
static inline int pcol_jt_is_arr(pcol_jv v) { return pcol_jt_kind(v) == PCOL_JK_ARR; }
static inline int pcol_jt_is_obj(pcol_jv v) { return pcol_jt_kind(v) == PCOL_JK_OBJ; }
static inline int pcol_jt_is_null(pcol_jv v) { return pcol_jt_kind(v) == PCOL_JK_NULL; }
static inline int pcol_jt_is_bool(pcol_jv v) { int k = pcol_jt_kind(v); return k == PCOL_JK_TRUE || k == PCOL_JK_FALSE; }

/* An integer's value (0 otherwise), a number's as a double (0 otherwise). */
int64_t pcol_jt_int(const pcol_jtree *t, pcol_jv v);
double pcol_jt_num(const pcol_jtree *t, pcol_jv v);
/* A string's text (NUL-terminated) and length; NULL and 0 otherwise. */
const char *pcol_jt_str(const pcol_jtree *t, pcol_jv v);
size_t pcol_jt_strlen(const pcol_jtree *t, pcol_jv v);
/* An array's or object's length (0 otherwise). */
size_t pcol_jt_size(const pcol_jtree *t, pcol_jv v);
/* Element i of an array (0 when out of range or not an array). */
pcol_jv pcol_jt_at(const pcol_jtree *t, pcol_jv arr, size_t i);
/* obj[key] (0 when absent or not an object). */
pcol_jv pcol_jt_get(const pcol_jtree *t, pcol_jv obj, const char *key);
/* Member i of an object: its key (NUL-terminated) and value. */
const char *pcol_jt_member(const pcol_jtree *t, pcol_jv obj, size_t i, pcol_jv *val);

#endif
