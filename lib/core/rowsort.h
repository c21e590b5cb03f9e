/* rowsort.h — fixed-width rows sorted through temporary files (rowsort.c).
 * Inside libpcol only (not installed).
 *
 * For an importer whose samples arrive out of the builder's order (JFR
 * writes them per thread buffer, Tachyon per thread), or an exporter that
 * writes them in another order than the file's (Firefox by thread, Perun
 * by group): it adds each row as it reads it, and gets them back sorted,
 * as often as it needs them.  Past pcol_rowsort_bytes of rows
 * in memory the sorted run goes to an unlinked temporary file ($TMPDIR,
 * else /tmp), and the rows come back by a merge of the runs, so memory
 * stays near that budget whatever the number of rows.  Without a
 * temporary file to be had, or when the first run cannot be written (a
 * full disk), the rows stay in memory (as the builder's columns do when
 * they cannot spill). */
#ifndef PCOL_CORE_ROWSORT_H
#define PCOL_CORE_ROWSORT_H

#include <stddef.h>
#include <stdint.h>

extern size_t pcol_rowsort_bytes; /* rows in memory before a run is written (8 MiB; tests lower it) */

typedef struct pcol_rowsort pcol_rowsort;
/* Rows of `width` bytes ordered by cmp, which must be a total order on the
 * rows added (two rows it calls equal come back in either order: give
 * them a sequence number).  PCOL_OK or PCOL_ENOMEM. */
int pcol_rowsort_new(pcol_rowsort **o, size_t width, int (*cmp)(const void *, const void *));
/* Adds a copy of row.  PCOL_OK, PCOL_ENOMEM, or PCOL_EIO (a run not written). */
int pcol_rowsort_add(pcol_rowsort *o, const void *row);
uint64_t pcol_rowsort_count(const pcol_rowsort *o);
/* Reading the rows back in order, as often as wanted: rewind starts at the
 * first row (the first call sorts what was added; no row may be added
 * after it), next gives the next row in *row, NULL past the last.  *row
 * stays valid until the next call of next, rewind or free.  PCOL_OK,
 * PCOL_EIO when a run cannot be written or read back (every later next
 * says so until a rewind; a run not written, every later rewind too),
 * PCOL_ENOMEM. */
int pcol_rowsort_rewind(pcol_rowsort *o);
int pcol_rowsort_next(pcol_rowsort *o, const void **row);
/* rewind, then f on every row in order, stopping at f's first non-zero
 * result, which it returns; or the sorter's own failure as above. */
int pcol_rowsort_each(pcol_rowsort *o, int (*f)(void *ctx, const void *row), void *ctx);
/* The number of runs written to the temporary file so far (tests). */
unsigned pcol_rowsort_runs(const pcol_rowsort *o);
void pcol_rowsort_free(pcol_rowsort *o);

#endif
