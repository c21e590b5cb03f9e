/* jstr.c — THE JSON string rule (jstr.h), of the Firefox and V8 exports. */
#include "jstr.h"

int pcol_json_str(FILE *o, const char *p, size_t n) {
  if (fputc('"', o) == EOF) return -1;
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)p[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    int ok = len && i + len <= n;
    for (size_t k = 1; ok && k < len; k++) ok = ((unsigned char)p[i + k] >> 6) == 2;
    if (ok && len == 2 && c < 0xc2) ok = 0; /* overlong */
    if (ok && len == 3) {
      unsigned v = ((c & 15u) << 12) | (((unsigned char)p[i + 1] & 63u) << 6) | ((unsigned char)p[i + 2] & 63u);
      if (v < 0x800 || (v >= 0xd800 && v <= 0xdfff)) ok = 0;
    }
    if (ok && len == 4) {
      unsigned v = ((c & 7u) << 18) | (((unsigned char)p[i + 1] & 63u) << 12) |
                   (((unsigned char)p[i + 2] & 63u) << 6) | ((unsigned char)p[i + 3] & 63u);
      if (v < 0x10000 || v > 0x10ffff) ok = 0;
    }
    int r;
    if (!ok) { /* a byte of Latin-1 */
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
