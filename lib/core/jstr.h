/* jstr.h — THE JSON string rule of pcol's JSON writers, and THE
 * whole-number rule of its JSON writers and readers (jstr.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_JSTR_H
#define PCOL_CORE_JSTR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes p[0..n) to o as a JSON string: valid UTF-8 as it is, every other
 * byte read as Latin-1 (so any bytes have a JSON form), '"' and '\\'
 * escaped, control characters and DEL as \u00XX.  0, or -1 when a write
 * failed. */
int pcol_json_str(FILE *o, const char *p, size_t n);

/* The same rule for a writer that builds its strings with jansson (which
 * takes valid UTF-8 only): copies p[0..n) to out, which has room for 2n
 * bytes, as valid UTF-8: valid sequences as they are, every other byte
 * read as Latin-1 (as pcol_json_str writes it).  NUL is kept, or written
 * as a blank when nul_blank (the Perun export: Perun's JSON never holds
 * \u0000).  Returns the length written. */
size_t pcol_json_utf8(const char *p, size_t n, char *out, int nul_blank);

/* THE rule of a whole number in pcol's JSON (the speedscope and Firefox
 * exports' weights and their importers): every reader takes a JSON number
 * as a double (JSON.parse in speedscope and the Firefox Profiler, strtod in
 * pcol's importers), so a writer writes v only when that double is v:
 * |v| <= 2^53, or past it a double's multiple of its power of 2, below
 * 2^63 (9223372036854774784 is, 9007199254740993 is not).  1 when v is
 * so, else 0 (the writer refuses it, or ends a run before it). */
int pcol_json_int_exact(__int128 v);

/* The int64 a JSON number d (as read: a double) holds: 0 and *out = d
 * when d is whole and below 2^63 in magnitude (every such double is an
 * int64 exactly, each pcol_json_int_exact value among them; -2^63 is
 * not: it is PCOL_NA_I64, the NA of an i64 column); 1 when d is not a
 * whole number (or NaN); 2 when d is whole but out of that range. */
int pcol_json_int_of(double d, int64_t *out);

#endif
