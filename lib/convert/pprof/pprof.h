/* pprof.h — what the pprof importer and exporter share.
 *
 * The meta keys (format/keys.h, PPROF_META_*) record every profile-level field of a pprof Profile
 * (doc/mappings.md §2), so export can write the same fields back. */
#ifndef PCOL_PPROF_H
#define PCOL_PPROF_H

#include "keys.h"
#include <stddef.h>

/* The pprof importer's first window over its input (pprof_import.c: 1 MiB;
 * a field larger than the window doubles it).  Tests make it tiny. */
extern size_t pcol_pprof_window;

#endif
