/* jstr.h — THE JSON string rule of pcol's JSON writers (jstr.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_JSTR_H
#define PCOL_CORE_JSTR_H

#include <stddef.h>
#include <stdio.h>

/* Writes p[0..n) to o as a JSON string: valid UTF-8 as it is, every other
 * byte read as Latin-1 (so any bytes have a JSON form), '"' and '\\'
 * escaped, control characters and DEL as \u00XX.  0, or -1 when a write
 * failed. */
int pcol_json_str(FILE *o, const char *p, size_t n);

#endif
