/* pprof.h — what the pprof importer and exporter share.
 *
 * The meta keys (format/keys.h, PPROF_META_*) record every profile-level field of a pprof Profile
 * (doc/mappings.md §2), so export can write the same fields back. */
#ifndef PCOL_PPROF_H
#define PCOL_PPROF_H

#include "keys.h"
#include <stdatomic.h>
#include <stddef.h>

/* The pprof importer's window over its input (pprof_import.c: 1 MiB; a
 * field larger than the window doubles it), and the size up to which a
 * message is held whole and read once (16 MiB; at most the window's
 * size when smaller).  Tests make them tiny. */
extern size_t pcol_pprof_window, pcol_pprof_whole;
/* The largest window of a reading that may hold the message whole ([0])
 * and of one that slides from the start ([1]: the second reading of a
 * message past pcol_pprof_whole, a drain) in this process: tests check the
 * bounds (whole + 1 bytes; the window's size again). */
extern _Atomic size_t pcol_pprof_window_peak[2];

#endif
