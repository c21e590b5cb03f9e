/* pprof.h — what the pprof importer and exporter share.
 *
 * The meta keys (format/keys.h, PPROF_META_*) record every profile-level field of a pprof Profile
 * (doc/mappings.md §2), so export can write the same fields back. */
#ifndef PCOL_PPROF_H
#define PCOL_PPROF_H

#include "keys.h"

#endif
