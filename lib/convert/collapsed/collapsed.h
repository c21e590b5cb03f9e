/* collapsed.h — what the collapsed-stacks importer and exporter share (not
 * installed): decimal counts as nano-units and their canonical text.  The
 * importer keeps a line's text when it differs from what the exporter would
 * write, so both must render counts with this one function. */
#ifndef PCOL_COLLAPSED_H
#define PCOL_COLLAPSED_H

#include "internal.h"
#include <stdio.h>

#define NANO_I 1000000000LL

/* nano-units as text: "12" or "1.5" (no trailing zeros). */
static inline int render_nano(char *buf, size_t cap, __int128 v) {
  int neg = v < 0;
  unsigned __int128 a = neg ? -(unsigned __int128)v : (unsigned __int128)v;
  unsigned __int128 ip = a / NANO_I;
  uint64_t fp = (uint64_t)(a % NANO_I);
  char ib[48];
  int n = 0;
  do {
    ib[n++] = (char)('0' + (int)(ip % 10));
    ip /= 10;
  } while (ip && n < 47);
  size_t o = 0;
  if (neg && o < cap) buf[o++] = '-';
  while (n && o < cap) buf[o++] = ib[--n];
  if (fp) {
    char fb[10];
    snprintf(fb, sizeof fb, "%09llu", (unsigned long long)fp);
    int e = 9;
    while (e > 0 && fb[e - 1] == '0') e--;
    if (o < cap) buf[o++] = '.';
    for (int k = 0; k < e && o < cap; k++) buf[o++] = fb[k];
  }
  if (o >= cap) o = cap - 1;
  buf[o] = 0;
  return (int)o;
}

#endif
