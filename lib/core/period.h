/* period.h — a source's sampling period (period.c).  Inside libpcol only
 * (not installed). */
#ifndef PCOL_CORE_PERIOD_H
#define PCOL_CORE_PERIOD_H

#include "pcol.h"

/* A source's period type (type, unit: borrowed from the file, {NULL, 0}
 * when its key is not there; has_type, has_unit: the key is there, its
 * value may be "") and period (has_period:
 * a number was found), by THE period rule of period.c. */
typedef struct pcol_period {
  int has_type, has_unit, has_period;
  pcol_str type, unit;
  int64_t period;
} pcol_period;
int pcol_source_period(pcol_file *f, uint32_t s, pcol_period *p, pcol_error *err);

#endif
