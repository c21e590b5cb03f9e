/* jstr.c — THE JSON string rule (jstr.h), of the Firefox and V8 exports. */
#include "jstr.h"
#include "pcol.h" /* pcol_utf8_len */

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
