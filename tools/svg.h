/* svg.h — flame graph drawing for `pcol flame` (tools/svg.c). */
#ifndef PCOL_TOOLS_SVG_H
#define PCOL_TOOLS_SVG_H

#include "pcol.h"
#include <stdio.h>

/* How the graph looks: width in pixels, frames narrower than minwidth
 * pixels left out, inverted = an icicle graph (the root on top), palette =
 * one of svg_palettes (NULL = "hot"). */
typedef struct svg_flame_opts {
  const char *title, *subtitle;
  double width, minwidth;
  int inverted;
  const char *palette;
  double ratio; /* --divide-by: each value shown as pcol_unit_ratio(v, ratio); 0: as it is */
} svg_flame_opts;

/* The palette names, NULL-terminated (flamegraph.pl's colour schemes). */
extern const char *const svg_palettes[];

/* The base of every share the graph shows, the hover's and the search's
 * "Matched": pprof's total, the sum of |value| of the selection before
 * --focus, --tag and the like remove samples (pcol_ftree.total_abs), as
 * pcol top's percentages; not the root's value, which is the filtered
 * signed total the widths are of (the subtitle names it when they differ). */
pcol_sum svg_share_base(const pcol_ftree *t);

/* Writes tree t as an SVG.  delta/base_share (NULL for a plain graph) are
 * pcol_ftree_diff's arrays: frames are then coloured by the change of their
 * share.  PCOL_OK, PCOL_ENOMEM or PCOL_EIO. */
int svg_flame_write(FILE *fp, const pcol_ftree *t, const svg_flame_opts *o, const double *delta,
                    const double *base_share);

#endif
