/* truncated.h — THE rule of stacks the recorder truncated (meta
 * pcol.truncated_stacks, truncated.c): how an importer states them, how
 * many a selection has, and the mark pprof's comments carry.  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_TRUNCATED_H
#define PCOL_CORE_TRUNCATED_H

#include "pcol.h"
#include "builder.h"

/* Source src has n (> 0) samples whose stacks the recorder truncated:
 * meta pcol.truncated_stacks = n (the views warn, pcol_view_notes) and the
 * note `pcol info` prints ("stack traces truncated by the recorder: n
 * samples").  The JFR import, and the pprof, speedscope and Firefox
 * imports of pcol's exports, which carry it. */
int pcol_b_truncated_stacks(pcol_builder *b, uint32_t src, uint64_t n, pcol_error *err);
/* *n = source s's pcol.truncated_stacks (a whole number > 0; else 0),
 * in O(its meta rows): an export that writes it source by source. */
int pcol_truncated_of(pcol_file *f, uint32_t s, uint64_t *n, pcol_error *err);
/* *d = source s's pcol.stack_depth (the recorder's stack depth, when the
 * recording says it: a whole number > 0; else 0, not known). */
int pcol_stack_depth_of(pcol_file *f, uint32_t s, uint64_t *d, pcol_error *err);
/* *total = the sum of pcol.truncated_stacks over THE sources of sel
 * (pcol_selection_sources; sel NULL: every one), *nsrc how many of them
 * have it (may be NULL); ranges and filters do not cut it (the samples do
 * not say which were truncated), as the views' warning says it. */
int pcol_truncated_total(pcol_file *f, const pcol_select *sel, uint64_t *total, uint64_t *nsrc,
                         pcol_error *err);
/* The pprof comment that carries n (pcol's pprof export writes it, the
 * import reads it back): "pcol.truncated_stacks: N samples have stacks the
 * recorder truncated at its stack depth".  pcol_truncated_comment_parse:
 * 1 and *n when s is one (N a whole number > 0), else 0. */
void pcol_truncated_comment(char *out, size_t cap, uint64_t n);
int pcol_truncated_comment_parse(pcol_str s, uint64_t *n);
/* The note of an export to a format with no place for the mark (rprof,
 * perun, collapsed, v8, chrome, perfetto: pcol_export), n > 0. */
void pcol_truncated_lost(char *out, size_t cap, const char *format, uint64_t n);

#endif
