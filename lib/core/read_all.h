/* read_all.h — an importer's whole input in memory or mapped (read_all.c).
 * Inside libpcol only (not installed). */
#ifndef PCOL_CORE_READ_ALL_H
#define PCOL_CORE_READ_ALL_H

#include "pcol.h"
#include "buf.h"
#include <stdio.h>

/* Reads all of `in` into `out` (the caller frees it), inflating it when it
 * starts with the gzip magic (*gzipped = 1), under the input cap; messages
 * name `name`.  read_all.c */
int pcol_read_all(FILE *in, const pcol_import_options *opt, const char *name, pcol_buf *out,
                  int *gzipped, pcol_error *err);
/* An importer's whole input, in memory or (past pcol_spill_bytes, 64 MiB)
 * in an unlinked temporary file in $TMPDIR (else /tmp) mapped read-only; data[0..len)
 * either way (in memory when that file cannot be made, written or mapped:
 * no message).  pcol_input_done tells that [from, to) will not be needed
 * for a while: a mapped input's pages there leave the process (they are
 * read back from the page cache if touched again).  read_all.c */
typedef struct pcol_input {
  const uint8_t *data;
  size_t len;
  pcol_buf buf;
  void *map;
  size_t maplen;
  FILE *spill;      /* while appending: the temporary file */
  uint64_t spilled; /* bytes in it */
  int nospill;      /* no temporary file could be made, or written or
                     * mapped (a full $TMPDIR): all in memory */
  int spill_err;    /* ...and why (errno), said after "out of memory" */
  size_t spill_at;  /* appending: spill past this many bytes, if fewer than
                     * pcol_spill_bytes (0: pcol_spill_bytes) */
  int discard;      /* appending: the copy is read once, front to back, and
                     * pcol_input_discard frees what was read (spill then
                     * stays open, for its blocks to be freed) */
} pcol_input;
extern size_t pcol_spill_bytes; /* 0: never spill (tests change it) */
int pcol_read_input(FILE *in, const pcol_import_options *opt, const char *name, pcol_input *out,
                    int *gzipped, pcol_error *err);
/* `in` mapped read-only as *out in place of a copy, when it is a regular
 * file read from its first byte, not compressed, not empty and under the
 * input cap (else the copy's path says what is wrong, as it did): 1, or 0
 * with nothing done.  A file changed while it is mapped is the caller's
 * risk, as a pcol file's is.  read_all.c */
int pcol_input_map_file(FILE *in, const pcol_import_options *opt, pcol_input *out);
/* The same copy made by appending (start from a zeroed pcol_input), then
 * sealed: data[0..len) as above.  On failure of either, pcol_input_free. */
int pcol_input_append(pcol_input *in, const void *p, size_t n, const char *name, pcol_error *err);
int pcol_input_seal(pcol_input *in, const char *name, pcol_error *err);
void pcol_input_done(pcol_input *in, size_t from, size_t to);
/* As pcol_input_done, and [from, to) is never read again: a spilled copy's
 * disk blocks there are freed too (in->discard set before appending), so a
 * copy read once takes less and less disk as it is read. */
void pcol_input_discard(pcol_input *in, size_t from, size_t to);
void pcol_input_free(pcol_input *in);
/* A FILE* that reads a sealed input from its start, handing the mapped pages
 * behind it back every 8 MiB (pcol_input_done), so reading a spilled copy
 * through keeps no more of it resident than a window.  *in must outlive
 * the stream; fclose it before pcol_input_free.  NULL: out of memory. */
FILE *pcol_input_stream(pcol_input *in);

#endif
