/* jstr.c — THE JSON string rule (jstr.h), of every JSON export (the Firefox,
 * V8 and Chrome exports write with it; speedscope and Perun build jansson
 * strings by pcol_json_utf8);
 * THE whole-number rule, of the speedscope and Firefox exports and imports. */
#include "jstr.h"
#include "pcol.h" /* pcol_utf8_len */

#include <math.h>
#include <string.h>

/* THE rule, once: the text of the bytes at p[i..n) as JSON holds them, one
 * unit at a time: a valid UTF-8 sequence as it is, any other byte read as
 * Latin-1 (its two bytes of UTF-8).  *unit points at the unit's bytes (p's,
 * or buf's), its length returned; *used: the bytes of p it stands for. */
static size_t jstr_unit(const char *p, size_t n, size_t i, char buf[2], const char **unit, size_t *used) {
  unsigned char c = (unsigned char)p[i];
  size_t len = c < 0x80 ? 1 : pcol_utf8_len(p + i, n - i);
  if (len) return *unit = p + i, *used = len;
  buf[0] = (char)(0xc0 | (c >> 6)); /* a byte of Latin-1 */
  buf[1] = (char)(0x80 | (c & 0x3f));
  return *unit = buf, *used = 1, 2;
}

int pcol_json_str(FILE *o, const char *p, size_t n) {
  if (fputc('"', o) == EOF) return -1;
  for (size_t i = 0, used; i < n; i += used) {
    char buf[2];
    const char *u;
    size_t len = jstr_unit(p, n, i, buf, &u, &used);
    unsigned char c = (unsigned char)u[0];
    int r;
    if (len == 1 && (c == '"' || c == '\\')) r = fprintf(o, "\\%c", c);
    else if (len == 1 && (c < 0x20 || c == 0x7f)) r = fprintf(o, "\\u%04x", c);
    else r = fwrite(u, 1, len, o) == len ? 1 : -1;
    if (r < 0) return -1;
  }
  return fputc('"', o) == EOF ? -1 : 0;
}

size_t pcol_json_utf8(const char *p, size_t n, char *out, int nul_blank) {
  size_t k = 0;
  for (size_t i = 0, used; i < n; i += used) {
    char buf[2];
    const char *u;
    size_t len = jstr_unit(p, n, i, buf, &u, &used);
    memcpy(out + k, u, len);
    if (len == 1 && !u[0] && nul_blank) out[k] = ' ';
    k += len;
  }
  return k;
}

int pcol_json_int_exact(__int128 v) {
  if (v > (__int128)INT64_MAX || v < -(__int128)INT64_MAX) return 0;
  double d = (double)(int64_t)v; /* (INT64_MAX: 2^63, out of range) */
  return d < 0x1p63 && (__int128)(int64_t)d == v;
}

int pcol_json_int_of(double d, int64_t *out) {
  if (d != floor(d)) return 1; /* (NaN too) */
  if (!(d > -0x1p63 && d < 0x1p63)) return 2; /* (-2^63: PCOL_NA_I64) */
  *out = (int64_t)d;
  return 0;
}
