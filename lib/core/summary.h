/* summary.h — the per-source summary of format 1.3 (summary.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_SUMMARY_H
#define PCOL_CORE_SUMMARY_H

#include "pcol.h"

/* The per-source summary of format 1.3 (summary.c, spec.md §6.10): THE
 * rule for what each source's samples add up to, shared by the writer and
 * full validation (F7).  pcol_bsum_add counts one sample (pcol_b_sample);
 * pcol_bsum_rebuild counts the builder's samples again (after coalescing:
 * every column in memory); pcol_bsum_fill puts the summary into the tables
 * to write (format minor 3) or leaves it out (2); pcol_bsum_free. */
void pcol_bsum_add(pcol_builder *b, const pcol_sample_row *s, const pcol_value_row *v, size_t nv);
void pcol_bsum_rebuild(pcol_builder *b);
int pcol_bsum_fill(pcol_builder *b, unsigned minor);
void pcol_bsum_free(pcol_builder *b);
/* The summary of a file: 1 (the views filled) when it has one, 0 when not
 * (a file of format 1.0-1.2, or without sources), or an error (§8.2 U11).
 * pcol_summary_plausible: 1 when it agrees with the samples wherever
 * O(sources) reads of the stored columns can tell (row counts, each
 * source's first and last row and times); full validation (F7,
 * pcol_summary_validate) recomputes all of it. */
typedef struct pcol_summary {
  pcol_view rows, weight, first, last, end, untimed; /* source_summary: [s - 1] */
  pcol_view total, vrows;                            /* source_value_types' */
} pcol_summary;
int pcol_summary_get(pcol_file *f, pcol_summary *s, pcol_error *err);
int pcol_summary_plausible(pcol_file *f, const pcol_summary *s);
int pcol_summary_validate(pcol_file *f, pcol_error *err);

#endif
