/* json_scan.h — a validating, allocation-free walker over JSON text in memory.
 *
 * Why: a Perun profile is one JSON document whose bulk is a few large
 * objects and lists (resource_type_map, resources, snapshots).  Building the
 * whole tree with jansson costs ~20x the file size; walking the text and
 * handing jansson one small element at a time costs the file plus the
 * builder.  This walker checks the grammar of RFC 8259 exactly as strictly as
 * jansson's default parser (no NUL escapes, valid UTF-8, valid surrogate
 * pairs, nesting at most 2048 deep), so a document it accepts is one jansson
 * accepts too, apart from numbers out of jansson's range (those fail when the
 * element holding them is loaded).  The other way round, jansson 2.14 also
 * accepts a NUL byte right after a number or a literal ("[1\0]": its lexer
 * loses the byte when it pushes back the look-ahead); the scanner refuses it.
 *
 * The nesting limit counts as jansson does: every value, scalars included,
 * at most 2048 deep, so "[[...[]...]]" may hold 2048 arrays but "[[...[1]...]]"
 * only 2047.  Containers entered with pcol_js_begin count too.
 *
 * The dialect is Python's json module's, which writes Perun's profiles: the
 * bare tokens NaN, Infinity and -Infinity (exactly so spelled) are numbers
 * too (interop review F7).  jansson refuses them; perun_json.h loads them
 * (as "\u0000NaN"-style strings, which no accepted input string can be,
 * since \u0000 is refused) and writes them back.  So "a document it accepts
 * is one jansson accepts" above means jansson through perun_json_loadb.
 *
 * A cursor is a plain struct; copy it to walk several places of one text at
 * once (Perun's column lists are read in lockstep that way). */
#ifndef PCOL_JSON_SCAN_H
#define PCOL_JSON_SCAN_H

#include <stddef.h>

typedef struct pcol_jscan {
  const char *p;   /* the text (not owned) */
  size_t n;        /* its length */
  size_t pos;      /* next byte to read */
  size_t err_pos;  /* on error: byte offset of the problem */
  const char *err; /* on error: what is wrong (static text) */
  size_t depth;    /* containers entered with pcol_js_begin, not yet left */
} pcol_jscan;

/* Where a walk through one container stands. */
typedef struct pcol_jiter {
  int first;  /* no member read yet */
  char close; /* the closing bracket */
} pcol_jiter;

/* A key as it stands in the text: [start, start+len) between the quotes. */
typedef struct pcol_jkey {
  size_t start, len;
  int escaped; /* contains a backslash: decode with pcol_js_key_decode */
} pcol_jkey;

void pcol_js_init(pcol_jscan *s, const char *p, size_t n);
/* Skips whitespace and returns the next byte, or -1 at the end. */
int pcol_js_peek(pcol_jscan *s);
/* Skips (and checks) one value; [*start, *end) is its text.  0 or -1. */
int pcol_js_value(pcol_jscan *s, size_t *start, size_t *end);
/* Checks that only whitespace is left.  0 or -1. */
int pcol_js_end(pcol_jscan *s);

/* Containers (nested walks use one pcol_jiter per level).  begin consumes the opening bracket ('{' or '['); each next
 * returns 1 when there is another member (objects: *key is set and the ':'
 * consumed, so the cursor stands at the value), 0 when the closing bracket
 * was consumed, -1 on error.  The member's value must be consumed (with
 * pcol_js_value or a nested begin/next) before the next call. */
int pcol_js_begin(pcol_jscan *s, char open, pcol_jiter *it);
int pcol_js_next(pcol_jscan *s, pcol_jiter *it, pcol_jkey *key);

/* Decodes a key's escapes into a NUL-terminated malloc'd string (a valid
 * key never holds NUL: \u0000 is rejected).  NULL when out of memory. */
char *pcol_js_key_decode(const pcol_jscan *s, const pcol_jkey *k, size_t *len);
/* 1 when the key equals the C string `lit` (lit has no characters that need
 * escaping; an escaped key is compared after decoding). */
int pcol_js_key_is(const pcol_jscan *s, const pcol_jkey *k, const char *lit);

/* 1-based line and column of byte offset `pos`, for messages. */
void pcol_js_line_col(const char *p, size_t n, size_t pos, size_t *line, size_t *col);

#endif
