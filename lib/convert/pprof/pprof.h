/* pprof.h — what the pprof importer and exporter share.
 *
 * The meta keys (format/keys.h, PPROF_META_*) record every profile-level field of a pprof Profile
 * (doc/mappings.md §2), so export can write the same fields back. */
#ifndef PCOL_PPROF_H
#define PCOL_PPROF_H

#include "keys.h"
#include <stddef.h>

/* The pprof importer's window over its input (pprof_import.c: 1 MiB; a
 * field larger than the window doubles it), and the size up to which a
 * message is held whole and read once (16 MiB; at most the window's
 * size when smaller).  Tests make them tiny. */
extern size_t pcol_pprof_window, pcol_pprof_whole;

#endif
