/* jstr.c — THE JSON string rule (jstr.h), of every JSON export (the Firefox,
 * V8 and Chrome exports write with it; speedscope and Perun build jansson
 * strings by pcol_json_utf8);
 * THE whole-number rule, of the speedscope and Firefox exports and imports. */
#include "jstr.h"
#include "pcol.h" /* pcol_utf8_len */

#include <math.h>
#include <string.h>

int pcol_json_str(FILE *o, const char *p, size_t n) {
  if (fputc('"', o) == EOF) return -1;
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)p[i];
    size_t len = c < 0x80 ? 1 : pcol_utf8_len(p + i, n - i);
    int r;
    if (!len) { /* a byte of Latin-1 */
      r = fprintf(o, "%c%c", 0xc0 | (c >> 6), 0x80 | (c & 0x3f));
      i++;
    } else if (c == '"' || c == '\\') {
      r = fprintf(o, "\\%c", c);
      i++;
    } else if (c < 0x20 || c == 0x7f) {
      r = fprintf(o, "\\u%04x", c);
      i++;
    } else {
      r = fwrite(p + i, 1, len, o) == len ? 1 : -1;
      i += len;
    }
    if (r < 0) return -1;
  }
  return fputc('"', o) == EOF ? -1 : 0;
}

size_t pcol_json_utf8(const char *p, size_t n, char *out, int nul_blank) {
  size_t k = 0;
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)p[i];
    size_t len = c < 0x80 ? 1 : pcol_utf8_len(p + i, n - i);
    if (!len) { /* a byte of Latin-1 */
      out[k++] = (char)(0xc0 | (c >> 6));
      out[k++] = (char)(0x80 | (c & 0x3f));
      i++;
    } else if (!c) {
      out[k++] = nul_blank ? ' ' : 0;
      i++;
    } else {
      memcpy(out + k, p + i, len);
      k += len;
      i += len;
    }
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
