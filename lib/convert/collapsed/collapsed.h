/* collapsed.h — what the collapsed-stacks importer and exporter share (not
 * installed): decimal counts as nano-units and their canonical text.  The
 * importer keeps a line's text when it differs from what the exporter would
 * write, so both must render counts with this one function. */
#ifndef PCOL_COLLAPSED_H
#define PCOL_COLLAPSED_H

#include "pcol.h"
#include "count.h"    /* pcol_decimal_text */
#include <stdio.h>

#define NANO_I 1000000000LL

/* nano-units as text: "12" or "1.5" (no trailing zeros): the one rendering
 * of decimal values (core, pcol_decimal_text), which fold also uses. */
static inline int render_nano(char *buf, size_t cap, __int128 v) { return pcol_decimal_text(buf, cap, v, 9); }

/* What the importer reads back (collapsed_import.c, parse_count): an
 * integer count up to INT64_MAX, a decimal one up to INT64_MAX nano-units,
 * and in a file with any decimal count every count in nano-units (views add
 * them up in that unit, mappings.md §0).  v in nano-units; frac: the file
 * has a count with decimals.  The exporter refuses a line it cannot write. */
static inline int collapsed_count_readable(__int128 v, int frac) {
  unsigned __int128 a = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  return frac || a % NANO_I ? a <= INT64_MAX : a / NANO_I <= INT64_MAX;
}

#endif
