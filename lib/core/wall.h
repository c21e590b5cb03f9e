/* wall.h — where a source lies in wall-clock time (wall.c).  Inside libpcol
 * only (not installed). */
#ifndef PCOL_CORE_WALL_H
#define PCOL_CORE_WALL_H

#include "pcol.h"

/* Each source's wall-clock start and duration in ns (index 1..n; NA when
 * unknown), from one pass over sources and meta (wall.c, THE start rule). */
typedef struct pcol_wall {
  int64_t *start, *dur;
  uint64_t n;
} pcol_wall;
int pcol_wall_init(pcol_file *f, pcol_wall *w, pcol_error *err);
void pcol_wall_free(pcol_wall *w);
/* What a wall-clock selection (sel->wall) takes of source s, whose samples
 * have times (timed) or not: PCOL_WALL_RANGE with *from and *to the range
 * relative to the source's start, PCOL_WALL_ALL (every sample, whole),
 * PCOL_WALL_NONE, or an error code (no start; a time-less source cut). */
enum { PCOL_WALL_RANGE = 1, PCOL_WALL_ALL = 2, PCOL_WALL_NONE = 3 };
int pcol_wall_bounds(pcol_file *f, const pcol_wall *w, const pcol_select *sel, uint32_t s,
                     int timed, int64_t *from, int64_t *to, pcol_error *err);

#endif
