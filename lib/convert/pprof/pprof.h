/* pprof.h — what the pprof importer and exporter share.
 *
 * The meta keys (format/keys.h, PPROF_META_*) record every profile-level field of a pprof Profile
 * (doc/mappings.md §2), so export can write the same fields back. */
#ifndef PCOL_PPROF_H
#define PCOL_PPROF_H

#include "pcol.h"
#include "keys.h"
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

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

/* A legacy binary CPU profile's header (gperftools' CPUPROFILE, Java's
 * profilez), as google/pprof's parseCPU tells it: 1 and its word size
 * (4, 8), byte order, Java flag and period (us) when p[0..n) starts with
 * one (w may be NULL).  pprof_legacy.c */
int pcol_pprof_legacy_cpu_header(const uint8_t *p, size_t n, int *w, int *big, int *java,
                                 uint64_t *period);
/* Such a profile, whole in d[0..n), into b as one pprof source (opt:
 * --symbolize local).  pprof_legacy.c */
int pcol_pprof_legacy_cpu(pcol_builder *b, const uint8_t *d, size_t n, const char *name,
                          const pcol_import_options *opt, pcol_error *err);

#endif
