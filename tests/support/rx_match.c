/* rx_match.c — pcol's answer to Go's regexp.MatchString for many
 * expressions on many names (tests/interop/t_regex.sh judges it against
 * Go's).  Input on stdin, each line hex: the number of names, the names,
 * then one expression a line.  Output, one line per expression: a 0/1 per
 * name, or "R " and pcol's refusal.  Linked with libpcol.a (core's
 * pcol_rx_compile and pcol_rx_match, what every view's filter calls). */
#include "filter.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t unhex(char *s) {
  size_t n = 0;
  for (size_t i = 0; s[i] && s[i + 1] && s[i] != '\n'; i += 2) {
    unsigned v;
    if (sscanf(s + i, "%2x", &v) != 1) break;
    s[n++] = (char)v;
  }
  s[n] = 0;
  return n;
}

int main(void) {
  static char line[1 << 16];
  if (!fgets(line, sizeof line, stdin)) return 2;
  size_t nn = strtoul(line, NULL, 10);
  char **name = calloc(nn + 1, sizeof *name);
  size_t *len = calloc(nn + 1, sizeof *len);
  for (size_t i = 0; i < nn; i++) {
    if (!fgets(line, sizeof line, stdin)) return 2;
    len[i] = unhex(line);
    name[i] = malloc(len[i] + 1);
    memcpy(name[i], line, len[i] + 1);
  }
  char *buf = NULL;
  size_t cap = 0;
  while (fgets(line, sizeof line, stdin)) {
    unhex(line);
    pcol_rx rx;
    pcol_error err = {0};
    if (pcol_rx_compile(&rx, "re", line, &err)) {
      printf("R %s\n", err.message);
      continue;
    }
    for (size_t i = 0; i < nn; i++) {
      int m = pcol_rx_match(&rx, &buf, &cap, (pcol_str){name[i], len[i]});
      if (m < 0) return 3;
      putchar('0' + m);
    }
    putchar('\n');
    pcol_rx_free(&rx);
  }
  for (size_t i = 0; i < nn; i++) free(name[i]);
  free(name), free(len), free(buf);
  return fflush(stdout) ? 3 : 0;
}
