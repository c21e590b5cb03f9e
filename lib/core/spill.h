/* spill.h — a builder's sample columns in temporary files (spill.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_SPILL_H
#define PCOL_CORE_SPILL_H

#include <stdio.h>
#include "pcol.h"
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------ sample spilling (spill.c)
 * Past pcol_sample_spill_bytes (16 MiB) of sample and value columns in
 * memory, a builder moves them to unlinked temporary files in $TMPDIR
 * (else /tmp) and from then on keeps at most ~1 MiB of them in memory, so
 * an importer's memory follows its distinct strings, frames and stacks,
 * not its samples.  The files hold the columns in compressed blocks (a
 * constant column costs next to nothing on disk).  The writer reads a
 * spilled column back in pieces (raw, encoded) or maps a decompressed copy
 * (compressed); coalescing reads them back into memory. */
extern size_t pcol_sample_spill_bytes; /* 0: never spill (tests change it) */
/* Spills when the columns in memory reach the threshold.  Never fails: a
 * builder that cannot spill keeps its columns in memory. */
void pcol_b_spill_check(pcol_builder *b);
/* pcol_b_spill_check once the bytes added since it last ran (an upper
 * bound: a sample's) may have reached the headroom it left below the
 * bound, so the columns spill where a check after every sample would
 * spill them. */
void pcol_b_spill_added(pcol_builder *b, size_t bytes);
/* 1 when column c (0-based) of table t has bytes in its file. */
int pcol_b_col_spilled(const pcol_builder *b, int t, int c);
/* The bytes of column c of table t, in order, fed to f in pieces (file
 * part, then memory part); PCOL_EIO on a read failure or f's non-zero. */
int pcol_b_col_each(const pcol_builder *b, int t, int c,
                    int (*f)(void *ctx, const void *d, size_t n), void *ctx);
/* Sets err for rc, a failure of pcol_b_col_each, pcol_b_col_view's read
 * or pcol_b_unspill: out of memory, or the column could not be read back
 * and why (a read error, the file truncated, a block's checksum mismatch:
 * the file changed on disk), naming $TMPDIR.  Returns err's code. */
int pcol_b_spill_error(const pcol_builder *b, int rc, pcol_error *err);
/* Column c of table t whole and contiguous: decompressed into another
 * unlinked temporary file, mapped read-only (*map, *maplen:
 * pcol_b_col_unmap them); a column not spilled is its buffer (*map NULL). */
int pcol_b_col_view(const pcol_builder *b, int t, int c, const uint8_t **data, void **map,
                    size_t *maplen);
void pcol_b_col_unmap(void *map, size_t maplen);
/* Reads every spilled column back into memory, closes the files and spills
 * no more (coalescing rewrites the columns in place).  PCOL_ENOMEM/EIO. */
int pcol_b_unspill(pcol_builder *b);
/* Appends n elements of w bytes to column c (0-based) of table t, from
 * data or, data NULL, n copies of the w bytes at one, spilling as it goes. */
int pcol_b_col_append(pcol_builder *b, int t, int c, const void *data, const void *one, size_t w,
                      uint64_t n);
void pcol_b_spill_free(pcol_builder *b);
/* An unlinked temporary file in $TMPDIR (else /tmp) opened read-write, or -1. */
int pcol_temp_fd(const char *prefix);
/* The same as a stdio stream ("w+b"), as tmpfile() but close-on-exec and
 * in $TMPDIR; NULL with errno set. */
FILE *pcol_temp_file(const char *prefix);

#endif
