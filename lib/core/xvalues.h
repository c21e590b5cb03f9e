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
  uint32_t nth;         /* a stored type the source lists twice: which of its values of vt it is (0: the
                         * first; pcol_xvalue_nth reads it) */
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
 * rule (cvt from pcol_count_types; NULL: the weight, for a caller that asks
 * no count), rprof.alloc, or pcol_sample_value_rt. */
int pcol_xvalue(const pcol_xvalues *x, const uint32_t *cvt, uint64_t row, uint32_t vt, int64_t *v,
                pcol_error *err);
/* The same of the nth value of stored type vt the sample's source lists
 * (pcol_xtype.nth; 0: pcol_xvalue's), as stored: a type listed twice is
 * two values (dupnd's two cpu/nanoseconds), not the first one twice. */
int pcol_xvalue_nth(const pcol_xvalues *x, const uint32_t *cvt, uint64_t row, uint32_t vt, uint32_t nth, int64_t *v,
                    pcol_error *err);
/* rprof.alloc of sample `row` (see PCOL_VT_RPROF_ALLOC): its stored
 * rprof.alloc/bytes when it has one (rt->ralloc_vt: a pprof copy's, or
 * --normalize's scaled copy's), else made from its levels; PCOL_ETOOBIG on
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
/* THE union of value columns (xvalues.c): the one list of value types that
 * every selected source's values are written into, as the pprof export
 * writes them (a pprof profile has one list of sample types for all its
 * samples) and as -base/-diff_base pair two profiles' lists by position
 * (pcol_open_diff_base).  In source order, each source's values (its
 * stored types, or the derived ones apart from levels) go to the columns
 * of the same type and unit, the k-th value of a source such a column
 * takes (with kin: of its type in a unit of its family too) to the k-th
 * such column, a column added where none is left; a decimal time
 * unit finer than a ns ("1e-9 milliseconds", which pprof would print as a
 * number glued to its text) is written as nanoseconds, divided.  A stored
 * source without samples/count has its count (the weight: THE count rule)
 * in the samples/count column another source has, or in one added for it
 * when the selection's default is the count or its weights are counts
 * held (a Firefox profile's: not one row each) or it is a subtracted
 * base's (negated: PCOL_COUNT_NEG); without any, no column of the count:
 * no view shows it by default, and it is the rows.  THE count column rule:
 * the added column is the last, but a subtracted base's is the first, so
 * that the diff's default stays where go's -proto of the same diff has it
 * (its last column, unnamed: go opens a named default on the FIRST column
 * of that name, and a diff of kin lists names it twice).  go's -proto of
 * such a diff has no count at all (go counts only a samples/count column:
 * -sample_index=samples refuses it, and under -base its merge folds the
 * base's rows into the profile's, so nothing else can carry the base's
 * count); go -raw of the export shows this one column more, and go
 * -sample_index=samples of it is pcol's --value samples of the diff. */
typedef struct pcol_vcol {
  pcol_str type, unit; /* as written (borrowed from the file or literals) */
} pcol_vcol;
typedef struct pcol_vsrc {
  int involved;      /* in the selection */
  int derived;       /* its values are derived (pcol_xvalues_source) */
  size_t n;          /* its values, in order */
  uint32_t *vt;      /* each one's value type id (derived: pcol_xtype.vt) */
  uint32_t *col;     /* its column */
  int64_t *div;      /* what it is divided by in its column (1: as stored) */
  double *fill;      /* then scaled by (pcol_unit_fill; 0: not): a kin unit's (kin unions) */
  pcol_str *unit;    /* its unit as written to its column before the kin rule */
  int count_fill;    /* its count (the weight by THE count rule) goes to column count_col */
  uint32_t count_col;
} pcol_vsrc;
typedef struct pcol_vunion {
  pcol_vcol *cols;
  size_t ncols, capcols;
  int count_added;   /* a samples/count column was added for count_fill sources */
  pcol_vsrc *src;    /* src[s - 1] for source s */
  uint64_t nsrc;
} pcol_vunion;
/* The union of the sources sel selects (NULL: all) of x's file.  kin: a
 * type in a unit of one family with a column's (THE unit rule,
 * pcol_unit_common: bytes and kilobytes, ns and ms) goes to that column,
 * whose unit is the finest of them (of two as fine, the first), each value
 * scaled into it (fill), as go tool pprof scales profiles into one unit
 * before it merges them (the pprof export, each side of -diff_base, the
 * views' drop).  Free with pcol_vunion_free (also after an error). */
int pcol_vunion_make(const pcol_xvalues *x, const pcol_select *sel, int kin, pcol_vunion *u, pcol_error *err);
void pcol_vunion_free(pcol_vunion *u);
/* THE unit rule's drop (count.h pcol_unit_drop) of u, a kin union: each
 * source's values and which of them are scaled into their column's unit
 * (fill), per column as go's ScaleN (rd13a F4b), into *d (free with
 * pcol_unit_drop_free).  Derived values (Rprof's) are never dropped. */
int pcol_vunion_drop(const pcol_vunion *u, pcol_unit_drop *d, pcol_error *err);
/* Each source's values in order and the column of each in THE union of
 * value columns (pcol_vunion_positions): source s's at [off[s - 1],
 * off[s]) of vt and col (s = 1..nsrc), col < ncols; what --diff-base's
 * copy (add_file.c, pcol_b_copy.pos) adds up by, as go's merge adds a
 * profile's samples by position (rd13a F3: one source's inuse_space in
 * kilobytes and in bytes, both written in bytes, were added together). */
typedef struct pcol_vpos {
  uint64_t nsrc, ncols;
  uint64_t *off;
  uint32_t *vt, *col;
} pcol_vpos;
int pcol_vunion_positions(const pcol_vunion *u, pcol_vpos *p, pcol_error *err);
void pcol_vpos_free(pcol_vpos *p);
/* THE column a value of kin names (pcol_value_sel.column): *col = 0 when
 * no source sel selects (NULL: all) lists two types of vt's name in units
 * of its family (vt's kin, or vt itself twice: a --diff-base of kin sides
 * lists inuse_space/bytes twice) (a type is then its own column); else 1 +
 * which of a source's such types it is, as THE union of value columns
 * pairs them (pcol_vunion_make: the k-th of a source's types of one name
 * and unit family goes to the k-th column of them): own NULL, the first (a
 * bare TYPE: go's SampleIndexByName); else of own[s] (s = 1..sources),
 * each source's own default or its type at -sample_index=N, at its place
 * own_place[s] (own_place NULL: every one PCOL_PLACE_FIRST): the index
 * among the source's listed types, or its first place, or its last
 * (PCOL_PLACE_LAST: go's default without default_sample_type, the last
 * column), when every selected source that lists its own as such a type
 * has it at one occurrence (else 0). */
#define PCOL_PLACE_FIRST UINT64_MAX
#define PCOL_PLACE_LAST (UINT64_MAX - 1)
int pcol_kin_column(pcol_file *f, const pcol_select *sel, uint32_t vt, const uint32_t *own, const uint64_t *own_place,
                    uint32_t *col, pcol_error *err);
/* The column of vt as the default of the sources sel selects (NULL: all),
 * go's merge's: the first selected source (in the inputs' order) that
 * states a default_sample_type names the default of them all
 * (combineHeaders), read at its FIRST column in every source
 * (SampleIndexByName: pcol_kin_column with own NULL); where none states
 * one, or the one stated names none of its types, each source's default
 * at its LAST place (go's last column); where the name stated is not
 * vt's (the defaults' rule chose another type), each source's own at its
 * place (pcol_source_default_places) */
int pcol_kin_default_column(pcol_file *f, const pcol_select *sel, uint32_t vt, uint32_t *col, pcol_error *err);
/* The pick (below, pcol_kin_pick_make) an export reads its value by, as
 * the views read it: of the value asked (asked: --value, vt and its column
 * col, pcol_value_sel.column), else of the selection's default (THE default
 * rule, pcol_selection_default_type, out->dflt) at its column
 * (pcol_kin_default_column: the LAST of a type a source lists twice
 * without default_sample_type, as go's default): out->vt 0 when a type is
 * its own column.  An export of each
 * source's own default reads the pick for a source whose default is
 * out->vt (pcol_kin_pick_value), else its type's first value. */
int pcol_export_pick_make(const pcol_rtime *rt, pcol_file *f, const pcol_select *sel, int asked, uint32_t vt,
                          uint32_t col, pcol_kin_pick *out, pcol_error *err);
/* THE default weight of source s in an export that writes each source's
 * own values (Perfetto, Firefox), where pick p (above) names no column of
 * it (count.h pcol_kin_pick_source): *vt the selection's default p->dflt
 * when the source lists it, as the views read it (u2+a2 of rd16a F5: a
 * merge whose sources' defaults are kin, inuse_space in kilobytes and in
 * bytes, is read in bytes, the finest, in each), else the source's own
 * (THE default rule, pcol_source_default_types; 0: the count). */
int pcol_export_source_default(pcol_file *f, const pcol_kin_pick *p, uint32_t s, uint32_t *vt, pcol_error *err);
/* rt->pick (count.h pcol_kin_pick) of value type vt's column col (above;
 * 0: none), which pcol_sample_value_rt then reads for vt: each source's
 * col-th type of vt's kin, scaled into vt's unit.  rt from
 * pcol_rtime_init. */
int pcol_rtime_pick_init(pcol_rtime *rt, pcol_file *f, uint32_t vt, uint32_t col, pcol_error *err);
/* The same pick into *out (free out->src), for an export that reads it for
 * one value only (count.h pcol_kin_pick_value) and every other as stored */
int pcol_kin_pick_make(const pcol_rtime *rt, pcol_file *f, uint32_t vt, uint32_t col, pcol_kin_pick *out,
                       pcol_error *err);
/* rt->drop of a view of the sources sel selects (NULL: all) of f: that of
 * their kin union (pcol_vunion_make), made only when rt has kin. */
int pcol_rtime_drop_init(pcol_rtime *rt, pcol_file *f, const pcol_select *sel, pcol_error *err);

#endif
