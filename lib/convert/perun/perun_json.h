/* perun_json.h — Python's JSON dialect on top of jansson (not installed).
 *
 * Perun writes its profiles with Python's json module, which writes the
 * non-finite floats as the bare tokens NaN, Infinity and -Infinity and reads
 * them back (interop review F7).  jansson knows neither token, and its reals
 * cannot hold a non-finite value, so the Perun code reads and writes JSON
 * only through these functions:
 *
 *  - perun_json_loadb parses text in that dialect.  Only when a token stands
 *    outside strings in a value's place does it parse a copy in which each
 *    token became a JSON string holding a NUL byte and the token
 *    ("\u0000NaN", "\u0000Infinity", "\u0000-Infinity": PERUN_JSON_NAN ...),
 *    loaded with JSON_ALLOW_NUL.  Such a string cannot come from the input:
 *    a text with \u0000 in a string is refused (as json_scan.c and jansson
 *    refuse it).  Error positions are positions in the caller's text.
 *  - perun_json_dumps / perun_json_dumpf write a tree with every such string
 *    back as the bare token, so a Perun value goes round as itself
 *    (NaN stays NaN).  They write jansson's output otherwise unchanged.
 *
 * What pcol writes in its own views (`--format json`) never holds these
 * tokens: only the Perun exporter reproduces Perun's dialect. */
#ifndef PCOL_PERUN_JSON_H
#define PCOL_PERUN_JSON_H

#include <jansson.h>
#include <stdio.h>

/* The strings that stand for the tokens in a loaded tree. */
#define PERUN_JSON_NAN "\0NaN"
#define PERUN_JSON_INF "\0Infinity"
#define PERUN_JSON_NINF "\0-Infinity"

json_t *perun_json_loadb(const char *text, size_t n, size_t flags, json_error_t *err);
/* malloc'd text, NULL when out of memory */
char *perun_json_dumps(const json_t *v, size_t flags);
/* 0, or -1 on a write error (as json_dumpf) */
int perun_json_dumpf(const json_t *v, FILE *out, size_t flags);
/* 1 when s[0..n) is one of the token strings above */
int perun_json_is_token(const char *s, size_t n);
/* A JSON string of the input, not a token: what the importer tests with in
 * place of json_is_string. */
static inline int perun_json_is_str(const json_t *v) {
  return json_is_string(v) && !perun_json_is_token(json_string_value(v), json_string_length(v));
}

#endif
