/* xvalues.h — which values an export writes for a source, and rprof.alloc
 * (xvalues.c).  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_XVALUES_H
#define PCOL_CORE_XVALUES_H

#include "pcol.h"
#include "count.h"
#include "select.h"

/* THE rule for which values an export writes for a source (xvalues.c,
 * doc/mappings.md §0 "Export values"), and the derived rprof.alloc. */
#define PCOL_RALLOC_NTYPES 3 /* vsize.small, vsize.large, nodes */
#define PCOL_XV_MAX 8        /* room for a derived source's types */
extern const char *const pcol_ralloc_types[PCOL_RALLOC_NTYPES]; /* their names */
typedef struct pcol_xtype {
  uint32_t vt;          /* 0 the count, PCOL_VT_TIME, PCOL_VT_RPROF_ALLOC or a stored type */
  int level;            /* 1: a level snapshot (Rprof vsize.small, vsize.large, nodes):
                         * a counter where the target has one, never a summed value */
  pcol_str type, unit;  /* its name (borrowed) */
} pcol_xtype;
typedef struct pcol_xvalues {
  pcol_file *f;
  const pcol_rtime *rt; /* borrowed, required */
  pcol_sample_cols sc;
  uint32_t alloc_vt[PCOL_RALLOC_NTYPES]; /* the stored types rprof.alloc derives from (0: none) */
  pcol_view stype, svs, svv, vtt, vtu;
} pcol_xvalues;
int pcol_xvalues_init(pcol_xvalues *x, pcol_file *f, const pcol_rtime *rt, pcol_error *err);
/* The values of source src, in order, into out[0..*n) (cap entries; a
 * derived source needs PCOL_XV_MAX).  *derived = 1 when they are derived
 * (an Rprof source, or one without value types): the count, the time, and
 * an Rprof source's rprof.alloc and levels; else the declared types. */
int pcol_xvalues_source(const pcol_xvalues *x, uint32_t src, pcol_xtype *out, size_t cap, size_t *n,
                        int *derived, pcol_error *err);
/* The value of xtype vt of sample `row` (unscaled): the count by THE count
 * rule (cvt from pcol_count_types, may be NULL), rprof.alloc, or
 * pcol_sample_value_rt. */
int pcol_xvalue(const pcol_xvalues *x, const uint32_t *cvt, uint64_t row, uint32_t vt, int64_t *v,
                pcol_error *err);
/* rprof.alloc of sample `row` (see PCOL_VT_RPROF_ALLOC): PCOL_ETOOBIG on
 * overflow (no message). */
int pcol_ralloc_value(const pcol_sample_cols *sc, const pcol_rtime *rt,
                      const uint32_t vt[PCOL_RALLOC_NTYPES], uint64_t row, int64_t *out);

/* THE note of the value types an export leaves out for a negative amount
 * (a difference of profiles), which its format cannot hold (the speedscope
 * and Perfetto exports): pcol_xskipped_add names type t of source src in
 * the list (the first few, each cut at a character, then ", ..."), and
 * pcol_xskipped_text is the one sentence: "N value types with negative
 * amounts, which WHY, not written: T/U of source S, ..." */
typedef struct pcol_xskipped {
  char list[400];
  uint64_t n;
} pcol_xskipped;
void pcol_xskipped_add(pcol_xskipped *k, const pcol_xtype *t, uint32_t src);
void pcol_xskipped_text(const pcol_xskipped *k, const char *why, char *out, size_t cap);

#endif
