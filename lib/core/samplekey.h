/* samplekey.h — THE rule of which stacks go tool pprof takes as one (not
 * installed).  pprof's Merge (profile/merge.go, run on every profile it
 * reads, and on a profile with its -base) makes one sample of those with
 * the same locations and labels, a location keyed by its content, not its
 * id: its address less its mapping's start (a mapping keyed by its size
 * rounded up to 4 KiB, its offset and its build id, else its file), its
 * is_folded flag, and its lines, each its function (start line, name,
 * system name, file) and line number.  pcol's stack nodes may be more: two
 * runs of a binary loaded at other addresses (a profile and its --base),
 * or a column pprof does not key by (a line's column).  The views that
 * group samples as pprof merges them (traces, and tags where a label's
 * values add up to 0: lib/query/labels.c; pprof's total of |values| and
 * the merged samples that are not 0, with a base or negative values:
 * lib/query/weights.c) group by these ids.  An NA name
 * or file is "" and an NA number 0, as pcol's pprof export writes them. */
#ifndef PCOL_SAMPLEKEY_H
#define PCOL_SAMPLEKEY_H

#include "pcol.h"

/* *ids (free it): ids[stack] for stack 0 .. nstacks, 0 for the empty stack
 * and 1 .. *n for the others, equal exactly when pprof's Merge makes their
 * location lists one (*n = nstacks: every stack node is its own).
 * O(stacks + locations + lines + functions).  PCOL_ENOMEM, PCOL_ECORRUPT
 * (a stack whose parent is not before it) with err filled. */
int pcol_pprof_stack_ids(pcol_file *f, uint32_t **ids, uint32_t *n, pcol_error *err);

/* The same of label sets (pprof's Merge keys a sample by its labels, not by
 * an id): *ids (free it): ids[set] for set 0 .. labelsets, 0 for the empty
 * set (set 0, or a stored set of no labels) and 1 .. *n for the others,
 * equal exactly when the sets hold the same labels: each key's strings,
 * then its numbers with their units, in their order, the keys in any
 * order.  A writer stores each set once (spec.md §6.7); a file another
 * wrote may hold one twice, whose samples pprof still merges.
 * O(labels x log labels); PCOL_ENOMEM with err filled. */
int pcol_pprof_labelset_ids(pcol_file *f, uint32_t **ids, uint32_t *n, pcol_error *err);

#endif
