/* utf8.c — what a UTF-8 character is (pcol.h, pcol_utf8_len: the one
 * rule of the text escaping, tools/cli_text.c, of the JSON, SVG and page
 * writers, jstr.c, tools/svg.c, report.c, and of the JSON and OTLP readers,
 * json_pull.c, otlp_wire.c) and THE cut rule (pcol_utf8_cut): where a
 * string from a file is shortened to a fixed number of bytes (a unit of no family in a flame
 * graph's hover and a table's header, a value type in a message or on the
 * report page), never inside a character.  The page's copy
 * (lib/query/report/units.js pcolUtf8Cut) cuts a unit at the same place. */
#include "pcol.h"

size_t pcol_utf8_len(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  if (!n) return 0;
  unsigned c = p[0], lo = 0x80, hi = 0xbf;
  size_t len;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) len = 2;
  else if (c >= 0xe0 && c <= 0xef) len = 3;
  else if (c >= 0xf0 && c <= 0xf4) len = 4;
  else return 0;
  if (c == 0xe0) lo = 0xa0;      /* overlong */
  else if (c == 0xed) hi = 0x9f; /* surrogates */
  else if (c == 0xf0) lo = 0x90; /* overlong */
  else if (c == 0xf4) hi = 0x8f; /* above U+10FFFF */
  if (n < len || p[1] < lo || p[1] > hi) return 0;
  for (size_t k = 2; k < len; k++)
    if ((p[k] & 0xc0) != 0x80) return 0;
  return len;
}

size_t pcol_utf8_cut(const char *p, size_t n, size_t max) {
  if (!p) return 0;
  if (n <= max) return n;
  size_t i = 0;
  while (i < max) { /* a byte of no character is one of its own */
    size_t len = pcol_utf8_len(p + i, n - i);
    if (!len) len = 1;
    if (i + len > max) break;
    i += len;
  }
  return i;
}
