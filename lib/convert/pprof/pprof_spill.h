/* pprof_spill.h — the samples of a pprof message that cannot be read twice
 * (a pipe), kept compactly for the importer's second pass (pprof_spill.c).
 *
 * Pass 1 of a pipe adds every Sample as it decodes it; pass 2 reads them
 * back in the same order.  A stack met before is kept as its number, not
 * its location ids again, and the records go through zstd, so the copy is
 * far smaller than the message and than the .pb.gz (issue 47: temporary
 * disk at most the output's size). */
#ifndef PCOL_PPROF_SPILL_H
#define PCOL_PPROF_SPILL_H

#include "pcol.h"
#include "buf.h"      /* pcol_buf */
#include "intern.h"   /* pcol_intern */
#include "read_all.h" /* pcol_input */
#include <stddef.h>
#include <stdint.h>

/* Stacks remembered by number at most this many bytes of ids and table
 * (past it a new stack is kept whole, each time it comes). */
extern size_t pcol_pprof_spill_memo_bytes;

typedef struct pprof_spill {
  const char *name;
  pcol_input copy; /* the zstd stream of records */
  void *cc, *dc;   /* ZSTD_CCtx, ZSTD_DCtx */
  pcol_buf rec;    /* records not yet compressed (writing) */
  pcol_buf out;    /* compressed bytes not yet appended (writing) */
  pcol_intern memo; /* the stacks remembered (writing): number k's location ids are run k + 1 */
  uint32_t n_stacks; /* the stacks numbered (reading) */
  /* reading: window[lo..hi) inflated, not yet taken; pos: bytes of copy read */
  uint8_t *win;
  size_t cap, lo, hi, pos, done;
  int ended;
  int hold; /* reading: the copy read is kept (not given back): it is read again */
} pprof_spill;

/* What a record's stack is: PPROF_STACK_NEW (its location ids), or the
 * number of one met before (its location ids not read again). */
#define PPROF_STACK_NEW UINT32_MAX

void pprof_spill_init(pprof_spill *s, const char *name);
/* One Sample: its location ids, values and labels (4 int64 each: key, str,
 * num, num_unit).  PCOL_OK, or the failure (err set: memory, the
 * temporary file). */
int pprof_spill_add(pprof_spill *s, const uint64_t *loc, size_t nloc, const int64_t *val,
                    size_t nval, const int64_t *lab, size_t nlab, pcol_error *err);
/* After the last add: the copy ready to be read. */
int pprof_spill_seal(pprof_spill *s, pcol_error *err);
/* The next record: loc, val and lab filled as dec_sample fills them (loc
 * left empty for a stack met before); *stack PPROF_STACK_NEW or the number
 * of the stack met before; *keep: a new stack gets the next number.
 * PCOL_OK, 1 at the end, or PCOL_EIO (err set: the copy does not decode). */
int pprof_spill_next(pprof_spill *s, pcol_buf *loc, pcol_buf *val, pcol_buf *lab,
                     uint32_t *stack, int *keep, pcol_error *err);
/* Reading starts over at the first record (a reading done with s->hold
 * set: nothing of the copy was given back). */
void pprof_spill_rewind(pprof_spill *s);
void pprof_spill_free(pprof_spill *s);

#endif
