/* ahead.h — the union's compressed inputs read and inflated ahead of their
 * import, on a thread (ahead.c; used by pcol_open_many in detect.c).
 * Inside libpcol only (not installed). */
#ifndef PCOL_CONVERT_AHEAD_H
#define PCOL_CONVERT_AHEAD_H

#include "pcol.h"
#include <stddef.h>
#include <stdint.h>

typedef struct pcol_ahead pcol_ahead;

/* Starts the thread that reads paths[0..n) in order and inflates each
 * small gzip regular file among them (opt: the import's caps).
 * NULL when there is no thread to spare (pcol_thread_limit() < 2, n < 2,
 * or it did not start): every input is then read where it is imported. */
pcol_ahead *pcol_ahead_start(const char *const *paths, size_t n, const pcol_import_options *opt);

/* Input i's inflated bytes: 1 with *buf (the caller's, to free) and *len,
 * or 0 when it was not inflated ahead (not a regular file, not compressed,
 * too large, or any error: its import then meets it and names it as it
 * always did).  Waits for the thread; inputs are taken in order (one
 * skipped is dropped).  a may be NULL (0). */
int pcol_ahead_take(pcol_ahead *a, size_t i, uint8_t **buf, size_t *len);

/* Stops the thread and frees what was not taken.  a may be NULL. */
void pcol_ahead_stop(pcol_ahead *a);

#endif
