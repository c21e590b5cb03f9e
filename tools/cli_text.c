/* cli_text.c — THE text rule (cli.h, cli_put_text) for every string from a
 * file that people read: the text views, TSV, messages on stderr. */
#include "cli.h"
#include <string.h>

/* The one escaping rule (cli.h, cli_put_text): the text of s[0..n) from
 * s[*i], one character or byte at a time, into out (at most 9 bytes);
 * returns its length and moves *i past what it used. */
static size_t esc_next(const unsigned char *s, size_t n, size_t *i, int tsv, char *out) {
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
  size_t len = pcol_utf8_len((const char *)s + *i, n - *i);
  if (len == 2 && c == 0xc2 && s[*i + 1] < 0xa0) len = 0; /* C1 controls (U+0080..U+009F) */
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

void cli_put_text(FILE *fp, const char *p, size_t n, int tsv) {
  const unsigned char *s = (const unsigned char *)p;
  char e[9];
  for (size_t i = 0; i < n;) {
    size_t from = i; /* a run that needs no escape goes out at once */
    while (i < n && s[i] >= 0x20 && s[i] < 0x7f && (!tsv || s[i] != '\\')) i++;
    if (i > from) fwrite_unlocked(s + from, 1, i - from, fp);
    if (i < n) fwrite_unlocked(e, 1, esc_next(s, n, &i, tsv, e), fp);
  }
}

size_t cli_text_buf(const char *p, size_t n, char *out, size_t cap) {
  const unsigned char *s = (const unsigned char *)p;
  size_t o = 0;
  char e[9];
  for (size_t i = 0; i < n && cap;) {
    size_t at = i, k = esc_next(s, n, &i, 0, e);
    if (o + k + 1 > cap) {
      i = at;
      break;
    }
    memcpy(out + o, e, k);
    o += k;
  }
  if (cap) out[o] = 0;
  return o;
}

void cli_print_name(FILE *fp, pcol_str name) {
  if (name.ptr) cli_put_text(fp, name.ptr, name.len, 0);
}

void cli_print_str(FILE *fp, pcol_str s) {
  if (s.ptr) cli_put_text(fp, s.ptr, s.len, 0);
  else fputs("NA", fp);
}

void cli_print_cstr(FILE *fp, const char *s) { cli_put_text(fp, s, strlen(s), 0); }
