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

/* drop_frames and keep_frames: go tool pprof's prune of every profile it
 * reads (profile/prune.go RemoveUninteresting), THE rule of each reader of
 * pprof data, applied once, as it reads (pprof_prune.c). */
#include "filter.h" /* pcol_rx */
enum { PCOL_PPROF_CUT_NONE, PCOL_PPROF_CUT_AT, PCOL_PPROF_CUT_BELOW }; /* pprof's prune, pruneBeneath */
typedef struct pcol_pprof_prune {
  int on;         /* the stacks are pruned (both expressions read) */
  int has_keep;   /* keep_frames set */
  int go_refused; /* an expression Go refuses: nothing pruned, why says so */
  char why[sizeof(((pcol_error *)0)->message)];
  pcol_rx drop, keep;
  uint8_t *cut; /* per location (index): PCOL_PPROF_CUT_* */
  char *rxbuf;
  size_t rxcap;
} pcol_pprof_prune;
/* The expressions (empty: not set) for a profile of nloc locations: pr->on
 * when its stacks are to be pruned.  An expression Go refuses: PCOL_OK and
 * nothing pruned (pcol_pprof_prune_warn says so); one pcol cannot match as
 * Go does: PCOL_EUNSUPPORTED.  pcol_pprof_prune_free after either. */
int pcol_pprof_prune_init(pcol_pprof_prune *pr, pcol_str drop, pcol_str keep, size_t nloc, const char *name,
                          pcol_error *err);
void pcol_pprof_prune_free(pcol_pprof_prune *pr);
/* With pr->on: location i of lines ln[0, *n) (innermost first, function
 * ids of b's functions table, names as pprof has them after demangling):
 * its cut kind, and *n the lines it keeps (the outermost ones:
 * ln + (n0 - *n)).  PCOL_ENOMEM, for the caller to name. */
int pcol_pprof_prune_location(pcol_pprof_prune *pr, const pcol_builder *b, size_t i, const pcol_line_row *ln,
                              size_t *n);
/* With pr->on: where a stack of locations ix[0, n) (their indexes i, leaf
 * first) begins once pruned: the frames from it on are kept. */
size_t pcol_pprof_prune_stack(const pcol_pprof_prune *pr, const uint32_t *ix, size_t n);
/* An expression Go refuses: the warning, added to err's message. */
void pcol_pprof_prune_warn(const pcol_pprof_prune *pr, const char *name, pcol_error *err);
/* A legacy text profile (heap, Go's count profiles, threadz, contention,
 * Java heapz and contentionz), whole in d[0..n), into b as go tool pprof
 * reads it; PCOL_PPROF_NOT_LEGACY_TEXT (no error set) when go's rules
 * recognize none of them in it.  pprof_legacy_text.c */
#define PCOL_PPROF_NOT_LEGACY_TEXT 2
int pcol_pprof_legacy_text(pcol_builder *b, const uint8_t *d, size_t n, const char *name,
                           const pcol_import_options *opt, pcol_error *err);

#endif
