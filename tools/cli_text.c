/* cli_text.c — THE text rule (cli.h, cli_put_text) for every string from a
 * file that people read: the text views, TSV, messages on stderr. */
#include "cli.h"
#include <string.h>

/* The one escaping rule (cli.h, cli_put_text): the library's
 * (pcol_text_char), which the notes of pcol_inputs_expand follow too. */
static size_t esc_next(const unsigned char *s, size_t n, size_t *i, int tsv, char *out) {
  return pcol_text_char((const char *)s, n, i, tsv != 0, out);
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
