/* utf8.c — what a UTF-8 character is (pcol.h, pcol_utf8_len: the one
 * rule of the text escaping, tools/cli_text.c, of the JSON, SVG and page
 * writers, jstr.c, tools/svg.c, report.c, and of the JSON and OTLP readers,
 * json_pull.c, otlp_wire.c) and THE cut rule (pcol_utf8_cut): where a
 * string from a file is shortened to a fixed number of bytes (a unit of no family in a flame
 * graph's hover and a table's header, a value type in a message or on the
 * report page), never inside a character.  The page's copy
 * (lib/query/report/units.js pcolUtf8Cut) cuts a unit at the same place.
 * And THE text rule (pcol_text_char): how a string people read is written
 * (the CLI's text views and messages, the notes of pcol_inputs_expand). */
#include "pcol.h"
#include "bytes.h"
#include <stdio.h>
#include <string.h>

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

/* the bidi formatting characters (Unicode's Bidi_Control: ALM,
 * LRM, RLM, LRE..RLO, LRI..PDI) that reorder the text around them,
 * invisibly: "Trojan Source" (CVE-2021-42574) */
static bool bidi_control(const char *p, size_t len) {
  const unsigned char *s = (const unsigned char *)p;
  if (len == 2) return s[0] == 0xd8 && s[1] == 0x9c; /* U+061C */
  if (len != 3 || s[0] != 0xe2) return false;
  if (s[1] == 0x80) return s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xaa && s[2] <= 0xae); /* U+200E U+200F U+202A..U+202E */
  return s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9; /* U+2066..U+2069 */
}

/* THE text rule (pcol.h, pcol_text_char): tools/cli_text.c writes every
 * string people read through it, and pcol_inputs_expand its notes. */
size_t pcol_text_char(const char *p, size_t n, size_t *i, bool tsv, char *out) {
  const unsigned char *s = (const unsigned char *)p;
  unsigned c = s[*i];
  static const char hex[] = "0123456789abcdef";
  if (c < 0x80) {
    (*i)++;
    const char *e = c == '\n' ? "\\n" : c == '\r' ? "\\r" : NULL;
    if (tsv && c == '\t') e = "\\t";
    else if (tsv && c == '\\') e = "\\\\";
    else if (tsv && c == 0) e = "\\0";
    if (e) {
      memcpy(out, e, 2);
      return 2;
    }
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      out[0] = '\\', out[1] = 'x', out[2] = hex[c >> 4], out[3] = hex[c & 15];
      return 4;
    }
    out[0] = (char)c;
    return 1;
  }
  size_t len = pcol_utf8_len(p + *i, n - *i);
  if (len == 2 && c == 0xc2 && s[*i + 1] < 0xa0) len = 0; /* C1 controls (U+0080..U+009F) */
  if (len && !tsv && bidi_control(p + *i, len)) { /* as \x{202e}: shown, and read so by a regex */
    unsigned u = len == 2 ? ((c & 0x1fu) << 6) | (s[*i + 1] & 0x3fu)
                          : ((c & 0x0fu) << 12) | ((s[*i + 1] & 0x3fu) << 6) | (s[*i + 2] & 0x3fu);
    *i += len;
    return (size_t)snprintf(out, 9, "\\x{%x}", u);
  }
  if (len) {
    memcpy(out, s + *i, len);
    *i += len;
    return len;
  }
  size_t k = 0; /* one byte; a C1 control's two */
  size_t m = c == 0xc2 && *i + 1 < n && s[*i + 1] >= 0x80 && s[*i + 1] < 0xa0 ? 2 : 1;
  for (size_t j = 0; j < m; j++) {
    unsigned b = s[*i + j];
    out[k++] = '\\', out[k++] = 'x', out[k++] = hex[b >> 4], out[k++] = hex[b & 15];
  }
  *i += m;
  return k;
}

/* THE repair rule of strings from a file written where UTF-8 is required
 * (protobuf strings: the OTLP and Perfetto exports; bytes.h). */
size_t pcol_utf8_repair(const uint8_t *p, size_t n, char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    uint8_t c = p[i];
    size_t len = c < 0x80 ? 1 : pcol_utf8_len((const char *)p + i, n - i);
    if (len) {
      memcpy(out + o, p + i, len);
      o += len;
      i += len;
    } else {
      memcpy(out + o, "\xef\xbf\xbd", 3); /* U+FFFD */
      o += 3;
      i++;
    }
  }
  return o;
}
