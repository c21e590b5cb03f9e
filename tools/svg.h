/* svg.h — flame graph drawing for `pcol flame` (tools/svg.c). */
#ifndef PCOL_TOOLS_SVG_H
#define PCOL_TOOLS_SVG_H

#include "pcol.h"
#include <stdio.h>

/* Writes tree t as an SVG img_w pixels wide.  delta/base_share (NULL for a
 * plain graph) are pcol_ftree_diff's arrays: frames are then coloured by the
 * change of their share.  PCOL_OK or PCOL_EIO. */
int svg_flame_write(FILE *fp, const pcol_ftree *t, const char *title, double img_w,
                    const double *delta, const double *base_share, const char *subtitle);

#endif
