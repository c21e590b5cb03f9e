/* count.h — the count, time, decimal-count and default-value rules (count.c).
 * Inside libpcol only (not installed). */
#ifndef PCOL_CORE_COUNT_H
#define PCOL_CORE_COUNT_H

#include "pcol.h"
#include "select.h"

/* Which sources of f hold a subtracted base (pcol_open_diff_base, or a
 * pprof file written so): *kinds[s] (s = 1..sources) 1 -diff_base (meta
 * PCOL_META_DIFF_BASE), 2 -base (PCOL_META_BASE), 4 -diff_base whose
 * samples are as written (PCOL_META_DIFF_BASE = PCOL_BASE_SIGNED, keys.h:
 * weights negated already, so THE count rule does not negate them), [0] the
 * kinds any source has.  Scanned once a file and kept on it (not to be freed).  count.c */
int pcol_base_kinds(pcol_file *f, const uint8_t **kinds, pcol_error *err);
/* (pcol_source_who, how a message names a source, is public: pcol.h;
 * count.c, by pcol_base_kinds and f->side_source) */
/* The number of source s of f as the user knows it (pcol_source_who's,
 * without the words): f->side_source when set, else s.  count.c */
uint32_t pcol_source_shown(const pcol_file *f, uint32_t s);
/* The label sets that hold PCOL_DIFF_BASE_KEY = "true" (pprof's
 * Sample.DiffBaseSample): (*ok)[ls] (ls = 1..label sets; free() it), *any
 * 1 when one does.  With pcol_base_kinds' -diff_base sources (1, 4), the
 * samples of the base (THE diff-base total, weights.c; the Firefox
 * export's pcolBase).  count.c */
int pcol_base_labelsets(pcol_file *f, uint8_t **ok, int *any, pcol_error *err);

/* The first source of f whose count --normalize could not scale (meta
 * PCOL_META_NORMALIZE_UNSCALED = "samples": it counts by its weight, which
 * its pprof copy holds in no column; pcol_open_diff_base), *src 0 when
 * none: no view shows such a count, and no export writes one (count.c) */
int pcol_normalize_unscaled(pcol_file *f, uint32_t *src, pcol_error *err);

/* The first source of f that has no count to show (*src 0 when none): a
 * pprof source without samples/count, no subtracted base by its meta
 * (pcol_base_kinds), whose samples hold a negative value.  Its rows are a
 * difference (go tool pprof -proto -base of count-less profiles, which
 * marks nothing; a delta heap profile), not raw samples: THE count rule
 * would count each +1, the base's rows too, where go refuses
 * -sample_index=samples.  So no view shows its count (value.c, as
 * pcol_normalize_unscaled's).  One pass over the samples' values of such
 * sources only (count.c) */
int pcol_count_unmarked_diff(pcol_file *f, uint32_t *src, pcol_error *err);

/* THE count rule (count.c): how many raw samples a row stands for.  c[s]
 * (s = 1..sources; *out has sources + 1 entries, free() it) is the stored
 * "samples/count" type when source s measured one; else PCOL_COUNT_NEG
 * when s holds a subtracted base (pcol_base_kinds): its count is its
 * weight negated, as its stored values were (go subtracts the
 * samples/count column the pprof export writes for it; rd13a F1); else 0.
 * A row of source s counts pcol_sample_count(cols, row, c[s]): the stored
 * value, or the weight (negated for PCOL_COUNT_NEG) when the source has
 * none (or the row lacks it).  pcol_count_vt(c[s]): the stored type or 0. */
#define PCOL_COUNT_NEG (UINT32_MAX - 3) /* no value type: PCOL_VT_WEIGHT - 1 */
int pcol_count_types(pcol_file *f, uint32_t **out, pcol_error *err);
/* *vt: the stored value type "samples"/"count" (0 if none): the count
 * column of the pprof copies, where a source of another kind's count is */
int pcol_samples_count_vt(pcol_file *f, uint32_t *vt, pcol_error *err);
static inline uint32_t pcol_count_vt(uint32_t cvt) { return cvt == PCOL_COUNT_NEG ? 0 : cvt; }
/* the count of a row of weight w by c[s] when it has no stored count */
static inline int64_t pcol_count_of_weight(int64_t w, uint32_t cvt) {
  return cvt != PCOL_COUNT_NEG ? w : w == INT64_MIN ? INT64_MAX : -w;
}
/* (PCOL_COUNT_NEG is no value type's id, whose value no row has: the hot
 * path of a stored count is one test, bench/analysis.md) */
static inline int64_t pcol_sample_count(const pcol_sample_cols *c, uint64_t row, uint32_t cvt) {
  int64_t v;
  if (cvt && pcol_sample_value(c, row, cvt, &v)) return v;
  return pcol_count_of_weight(pcol_view_i64(&c->weight, row), cvt);
}
/* THE time rule (count.c): the CPU time in ns a sample of an Rprof source
 * stands for, which Rprof does not store (interval x ticks, per segment).
 * last_ns[s] > 0: source s derives its time this way (s = 1..nsources);
 * cpu_vt: the stored value type cpu/nanoseconds (0 if none), which the
 * derived time stands in for in sources that lack it.
 * With it, THE decimal-count rule (count.c): a collapsed source stores a
 * decimal count as (T, "1e-9") = count x 10^9 on the lines that have one,
 * and an integer count as (T, "count"), or as the weight for T = "count";
 * a sample of a collapsed source that lacks the decimal type stands for its
 * integer count x 10^9 there.  dec_from[vt] (vt = 1..nvt) = 1 + the type it
 * fills in from (1 + 0: the weight), 0 for other types; collapsed[s] = 1
 * for a collapsed source. */
/* THE unit rule's drop (go's Profile.ScaleN, which keeps a sample of a
 * profile it scales only when a value it scaled is not 0; the sample's
 * other values, its count too, go with it), per column as go scales: a
 * source s with a value scaled into a finer kin's unit has src[s] = 1 and
 * its values' types in order at vt[off[s] .. off[s + 1]), scaled[i] = 1
 * for each one scaled (p1.pb's x/kilobytes twice, the first scaled into a
 * column of bytes and the second not: one type, two columns, rd13a F4b);
 * src NULL: nothing is scaled.  Made from THE union of value columns
 * (xvalues.h pcol_vunion_drop), so the views, the pprof export and
 * --diff-base drop the same samples; free with pcol_unit_drop_free. */
typedef struct pcol_unit_drop {
  uint8_t *src;
  uint64_t nsrc;
  uint64_t *off;
  uint32_t *vt;
  uint8_t *scaled;
} pcol_unit_drop;
void pcol_unit_drop_free(pcol_unit_drop *d);
/* 1 when value v of a type that was scaled (scaled != 0), once scaled,
 * keeps its sample: it is not 0 (a value scaled into a finer unit is 0
 * only when it was) */
static inline int pcol_unit_keeps(int scaled, int64_t v) { return scaled && v != 0; }

/* THE value a view reads of a type of kin (pcol_value_sel.column k > 0):
 * of each source, its k-th type of vt's name in a unit of vt's family, the
 * column go's merge pairs by position (THE union of value columns,
 * xvalues.h), scaled into vt's unit (pcol_rtime_pick_init): src[s].vt the
 * type (0: the source has none), .nth which of the source's values of that
 * type it is (0: its first), .ratio its scale (1: none).  vt 0: none. */
typedef struct pcol_kin_pick {
  uint32_t vt;
  struct pcol_kin_src { uint32_t vt, nth; double ratio; } *src;
  uint64_t nsrc;
  /* an export's pick (xvalues.h pcol_export_pick_make) without --value:
   * the selection's default it was made of (THE default rule; 0: none, or
   * the count), which pcol_export_source_default gives each source that
   * lists it, where no column is picked (the views read it as a type) */
  uint32_t dflt;
} pcol_kin_pick;

typedef struct pcol_rtime {
  pcol_view time, dur, weight, source;
  uint64_t nsamples, nsources, nvt;
  int64_t *last_ns;
  uint32_t cpu_vt;
  uint32_t ralloc_vt; /* the stored value type rprof.alloc/bytes (0 if none: pcol_ralloc_value) */
  uint32_t *dec_from;
  uint8_t *collapsed;
  uint32_t *kin_next; /* the unit rule (pcol_value_kin), NULL: no kin */
  double *kin_factor;
  pcol_unit_drop drop; /* its drop of the sources of a view (pcol_rtime_drop_init; none by default) */
  pcol_kin_pick pick;  /* the column a view's value of kin reads (pcol_rtime_pick_init; none by default) */
  const uint8_t *base; /* pcol_base_kinds when a base is subtracted (else NULL): [s] a source whose
                        * derived time and memory count below 0, as its stored values (rd13a F1) */
  /* the Rprof segments after the first (meta rprof.segment_start_ns):
   * (source, time of the segment's first sample), sorted */
  struct pcol_rseg { uint32_t src; int64_t t; } *seg;
  size_t nseg;
} pcol_rtime;
/* 1 when sample `row` is the first of an Rprof segment after its source's
 * first (Rprof(append = TRUE)); binary search, only when t->nseg */
int pcol_rtime_segment_start(const pcol_rtime *t, uint64_t row);
int pcol_rtime_init(pcol_rtime *t, pcol_file *f, pcol_error *err);
/* How long a point sample of source s lasts on a timeline (the speedscope
 * export's, the report's stack chart): 1 when until the next sample, as
 * Chrome DevTools draws a V8 or Chrome-trace profile (V8 samples an idle
 * thread too, and its gaps vary); 0 when at most the sampling interval.  A
 * damaged type names nothing: 0. */
int pcol_source_lasts_until_next(pcol_file *f, uint32_t s);
/* Its rules of each source and type (last_ns, cpu_vt, dec_from, collapsed:
 * passes over meta, sources and value types), without the samples' views:
 * what pcol_rtime_has and pcol_rtime_fills need, not pcol_rtime_value. */
int pcol_rtime_init_meta(pcol_rtime *t, pcol_file *f, pcol_error *err);
void pcol_rtime_free(pcol_rtime *t);
static inline int pcol_rtime_has(const pcol_rtime *t, uint32_t src) {
  return t->last_ns && src >= 1 && src <= t->nsources && t->last_ns[src] > 0;
}
/* The time of sample `row`, whose source has pcol_rtime_has (inline: the
 * views add it up for every sample, bench/analysis.md); of a subtracted
 * base's source, negated (t->base), as go subtracts the cpu column of its
 * pprof export. */
static inline int64_t pcol_rtime_value_(const pcol_rtime *t, uint64_t row, uint32_t s) {
  int64_t d = pcol_view_i64(&t->dur, row);
  if (d != PCOL_NA_I64 && d > 0) return d; /* a coalesced run: N x interval */
  int64_t t0 = pcol_view_i64(&t->time, row);
  if (row + 1 < t->nsamples && pcol_view_u32(&t->source, row + 1) == s && t0 != PCOL_NA_I64) {
    int64_t t1 = pcol_view_i64(&t->time, row + 1), gap;
    if (t1 != PCOL_NA_I64 && t1 >= t0 && !__builtin_sub_overflow(t1, t0, &gap)) return gap;
  }
  __int128 v = (__int128)pcol_view_i64(&t->weight, row) * (s <= t->nsources ? t->last_ns[s] : 0);
  return v > INT64_MAX ? INT64_MAX : v < -INT64_MAX ? -INT64_MAX : (int64_t)v;
}
static inline int64_t pcol_rtime_value(const pcol_rtime *t, uint64_t row) {
  uint32_t s = pcol_view_u32(&t->source, row);
  int64_t v = pcol_rtime_value_(t, row, s);
  return t->base && s <= t->nsources && (t->base[s] & 3) ? -v : v; /* (|v| <= INT64_MAX) */
}

/* The time of sample `row` under the time rule: its derived time when its
 * source derives one, else 0 (what pcol_sample_value_rt gives for
 * PCOL_VT_TIME; inline for the loops that add it up a sample). */
static inline __attribute__((always_inline)) int64_t pcol_rtime_time(const pcol_rtime *t,
                                                                     uint64_t row) {
  return pcol_rtime_has(t, pcol_view_u32(&t->source, row)) ? pcol_rtime_value(t, row) : 0;
}

/* 1 when the samples of source src that lack value type vt get it from the
 * decimal-count rule. */
static inline int pcol_rtime_fills(const pcol_rtime *t, uint32_t src, uint32_t vt) {
  return t->dec_from && vt >= 1 && vt <= t->nvt && t->dec_from[vt] && src >= 1 && src <= t->nsources &&
         t->collapsed[src];
}
/* THE rule of which sources have value vt (pcol_value_sources, and the
 * Rprof export's --value): has[s] = 1 (s = 1 .. sources; has holds
 * sources + 1 bytes) when source s declares every type of want[0..nwant)
 * (vt's stored types: vt itself, or rprof.alloc's three), or derives vt by
 * the time rule (PCOL_VT_TIME, or the stored cpu an Rprof source fills
 * in), or fills it by the decimal-count rule or the unit rule (a coarser
 * kin of vt: pcol_value_kin).  vt 0 and PCOL_VT_WEIGHT
 * (every source) are the caller's. */
int pcol_sources_having(pcol_file *f, uint32_t vt, const uint32_t *want, int nwant, uint8_t *has,
                        pcol_error *err);
/* The decimal form (T, "1e-9") of type `from` (0 = the weight) in this
 * file, 0 if none: what a collapsed source's counts are shown as. */
uint32_t pcol_rtime_decimal_of(const pcol_rtime *t, uint32_t from);

/* THE rule of units of one kind (go tool pprof's measurement package:
 * compatibleValueTypes, CommonValueType, Scale; unit_scale.c).  The family
 * of unit u as go knows it: 1 bytes, 2 time, 3 Google compute units, with
 * *factor what one u is in the family's base unit; 0 (and *factor 0) for
 * any other unit, a decimal unit "1e-D U" and pcol's own fs and ps. */
int pcol_unit_family(pcol_str u, double *factor);
/* 1 when values in units a and b may be added up once scaled (the same
 * string, or both of one family: pcol_unit_family), *b_in_a = what one b
 * is in a (measurement.Scale(1, b, a)); else 0. */
int pcol_unit_common(pcol_str a, pcol_str b, double *b_in_a);
/* A value scaled by ratio as pprof's Profile.ScaleN scales it:
 * int64(math.Round(float64(v) x ratio)); out of int64's range INT64_MIN,
 * go's int64() of such a float on amd64 (as pcol_unit_ratio). */
int64_t pcol_unit_fill(int64_t v, double ratio);
/* THE unit rule's kin (go tool pprof's measurement.ScaleProfiles before it
 * merges profiles): value types of one name whose units are of one family
 * (pcol_unit_family: bytes and kilobytes, nanoseconds and milliseconds)
 * measure one thing, and a sample of a source that has the coarser one
 * counts, for the finer, its value scaled into it (pcol_unit_fill), as go
 * scales every profile into the finest unit (CommonValueType) before it
 * adds their samples up.  next[vt] (value types + 1 entries) links each
 * type to the next of its kin in a ring (0: none), factor[vt] its unit's
 * (pcol_unit_family); both NULL when no type has kin.  More than 64
 * (KIN_MAX) types of one name and family, which no profile of go's units
 * lists but a hostile file may, are no kin, silently: they are then types
 * of several units (a bare name of them is refused, "several units", and
 * the default of sources that disagree is samples), while a file with 64
 * such types has them as kin.  One pass over the value types and a sort
 * of those in a family. */
int pcol_value_kin(pcol_file *f, uint32_t **next, double **factor, pcol_error *err);
/* Of value types a and b, the finer when they are kin (a when as fine:
 * CommonValueType keeps the first), a when a == b, else 0. */
uint32_t pcol_kin_finer(const uint32_t *next, const double *factor, uint32_t a, uint32_t b);

/* The nth (0: the first) value of type vt of sample `row`: 1 and *v when
 * it has one, else 0 (*v 0). */
static inline int pcol_sample_value_nth(const pcol_sample_cols *c, uint64_t row, uint32_t vt, uint32_t nth,
                                        int64_t *v) {
  if (!nth) return pcol_sample_value(c, row, vt, v);
  if (c->dense_k) {
    for (uint32_t j = 0; j < c->dense_k; j++)
      if ((uint32_t)c->vtype.lanes[j].base == vt && !nth--) {
        *v = (int64_t)pcol_lane_get(&c->vval.lanes[j], row);
        return 1;
      }
  } else {
    uint64_t a = pcol_view_u64(&c->voff, row), e = pcol_view_u64(&c->voff, row + 1);
    if (e > c->nvalues) e = c->nvalues;
    for (uint64_t i = a; i < e; i++)
      if (pcol_view_u32(&c->vtype, i) == vt && !nth--) {
        *v = pcol_view_i64(&c->vval, i);
        return 1;
      }
  }
  *v = 0;
  return 0;
}

/* THE weight of source s in an export that writes each source's own
 * values (Perfetto, Firefox) by pick p (pcol_export_pick_make: the value
 * asked, else the selection's default at go's merged column): 1 and *vt,
 * *nth, the source's type in p's column and which of its values of that
 * type it is, whenever p names one, whatever the source's own default (a
 * merge of sources whose defaults sit at other columns is read by the
 * views at go's one column: rd16a F5); else 0 (the value asked, or
 * xvalues.h pcol_export_source_default). */
static inline int pcol_kin_pick_source(const pcol_kin_pick *p, uint32_t s, uint32_t *vt, uint32_t *nth) {
  if (!p->src || s < 1 || s > p->nsrc || !p->src[s - 1].vt) return 0;
  *vt = p->src[s - 1].vt;
  *nth = p->src[s - 1].nth;
  return 1;
}

/* The value of pick p of sample `row` (of source s): 1 and *v, its
 * source's value in p's column scaled, else 0 (*v 0) */
static inline int pcol_kin_pick_value(const pcol_kin_pick *p, const pcol_sample_cols *c, uint64_t row, uint32_t s,
                                      int64_t *v) {
  const struct pcol_kin_src *k = s >= 1 && s <= p->nsrc ? &p->src[s - 1] : NULL;
  int64_t n;
  if (!k || !k->vt || !pcol_sample_value_nth(c, row, k->vt, k->nth, &n)) {
    *v = 0;
    return 0;
  }
  *v = k->ratio == 1 ? n : pcol_unit_fill(n, k->ratio);
  return 1;
}

/* 1 when sample `row` (of source s) is dropped by the unit rule (d): its
 * source has a scaled column and no value in one is other than 0.  The
 * sample's values are its source's, in order (a missing one skipped):
 * each is matched to the next of the source's types that is its.  (The
 * --diff-base copy, add_file.c norm_values, writes a merged sample's
 * values by its side's columns, not always in its source's order; but it
 * writes each column in one unit, so no drop is ever made of its file:
 * pcol_vunion_drop finds nothing scaled there.  Its own drop reads the
 * inputs, in their order.  rd15a's risk; t_values item 24.) */
static inline int pcol_unit_dropped(const pcol_unit_drop *d, const pcol_sample_cols *c, uint64_t row, uint32_t s) {
  if (!d->src || s < 1 || s > d->nsrc || !d->src[s]) return 0;
  uint64_t k = d->off[s - 1], ke = d->off[s];
  if (c->dense_k) {
    for (uint32_t j = 0; j < c->dense_k; j++) {
      uint32_t t = (uint32_t)c->vtype.lanes[j].base;
      while (k < ke && d->vt[k] != t) k++;
      if (k == ke) break;
      if (pcol_unit_keeps(d->scaled[k++], (int64_t)pcol_lane_get(&c->vval.lanes[j], row))) return 0;
    }
    return 1;
  }
  uint64_t a = pcol_view_u64(&c->voff, row), e = pcol_view_u64(&c->voff, row + 1);
  if (e > c->nvalues) e = c->nvalues;
  for (uint64_t i = a; i < e; i++) {
    uint32_t t = pcol_view_u32(&c->vtype, i);
    while (k < ke && d->vt[k] != t) k++;
    if (k == ke) break;
    if (pcol_unit_keeps(d->scaled[k++], pcol_view_i64(&c->vval, i))) return 0;
  }
  return 1;
}

/* THE value of type vt of a sample with the time rule applied: the stored
 * value when the sample has one; else the derived time when vt asks for
 * time (PCOL_VT_TIME, or the stored cpu/nanoseconds type a source lacks)
 * and the sample's source derives it; else, when the sample has a coarser
 * kin of vt (the unit rule, pcol_value_kin), that one scaled into vt's
 * unit.  A type of kin a view reads by its column (t->pick: go's merge
 * pairs the columns by position, rd13a F2) is each source's value there,
 * scaled.  A sample the unit rule drops (t->drop) has no value: 0.  t may
 * be NULL (no time rule). */
static inline int pcol_sample_value_rt(const pcol_sample_cols *c, const pcol_rtime *t,
                                       uint64_t row, uint32_t vt, int64_t *v) {
  if (t && t->drop.src && pcol_unit_dropped(&t->drop, c, row, pcol_view_u32(&t->source, row))) {
    *v = 0;
    return 0;
  }
  int64_t n;
  if (t && t->pick.src && vt == t->pick.vt) /* a type of kin: the source's in its column */
    return pcol_kin_pick_value(&t->pick, c, row, pcol_view_u32(&t->source, row), v);
  if (vt != PCOL_VT_TIME && pcol_sample_value(c, row, vt, v)) return 1;
  if (t && vt == PCOL_VT_TIME) {
    *v = pcol_rtime_time(t, row);
    return *v != 0 || pcol_rtime_has(t, pcol_view_u32(&t->source, row));
  }
  if (t && vt && vt == t->cpu_vt && pcol_rtime_has(t, pcol_view_u32(&t->source, row))) {
    *v = pcol_rtime_value(t, row);
    return 1;
  }
  if (t && pcol_rtime_fills(t, pcol_view_u32(&t->source, row), vt) &&
      pcol_sample_value(c, row, t->dec_from[vt] - 1, &n)) { /* the decimal-count rule */
    *v = n > INT64_MAX / 1000000000 ? INT64_MAX : n < -(INT64_MAX / 1000000000) ? -INT64_MAX : n * 1000000000;
    return 1;
  }
  if (t && t->kin_next && vt >= 1 && vt <= t->nvt) /* the unit rule */
    for (uint32_t k = t->kin_next[vt]; k && k != vt; k = t->kin_next[k])
      if (t->kin_factor[k] >= t->kin_factor[vt] && pcol_sample_value(c, row, k, &n)) {
        *v = pcol_unit_fill(n, t->kin_factor[k] / t->kin_factor[vt]);
        return 1;
      }
  *v = 0;
  return 0;
}

/* THE rule of decimal units (count.c): a unit "1e-9" or "1e-9 U" holds the
 * value x 10^9 (collapsed decimal counts, Perun real amounts without a time
 * unit).  Returns 9 for such a unit, else 0; *shown (may be NULL) = the
 * unit the value is in once divided: U, "" for "1e-9", else the unit. */
int pcol_unit_decimals(pcol_str unit, pcol_str *shown);
/* THE time-unit rule (unit_scale.c): the whole ns in one unit u of the
 * time family as go tool pprof reads units (ns, us, µs, ms, s, hrs, their
 * long names and plurals, any case: "nanoseconds", "microseconds", "ms",
 * "Seconds"), 0 for any other unit and for a unit finer than a ns or a
 * decimal unit's fraction (fs, ps, "1e-9 ms").  A source's interval (its
 * period in such a unit, lasts.c) and the streaming writer's point-sample
 * extent (a period in such a unit, stream_writer.c) ask here. */
int64_t pcol_unit_ns(pcol_str u);
/* The D of the unit "1e-D U" that holds reals up to amax (>= 0) exactly to
 * D decimals in 64 bits: 9, or the largest D < 9 at which amax x 10^D still
 * fits (0: it does not fit with a decimal; the values stay in U).  Perun's
 * real amounts, speedscope's fractional weights. */
int pcol_decimals_for(double amax);
/* THE kept rule of a real value w of a file (a JSON number: a double, as
 * speedscope and the Firefox Profiler read it) stored as the whole number
 * v of a grid of 1 / scale (10^D of a decimal unit, or a unit's ns): 1
 * when v / scale is w to six significant digits of the larger of |w| and
 * ref (a relative 1e-6, so that every number the views print is the
 * file's; 0 only for 0), else 0: the importer counts w, naming the first
 * (pcol_kept_add), rather than keep another number with no word (a weight
 * of 1e-12 beside 1, or 1e-7 beside 1e15, held as 0).  ref: 0 for a weight (each its own), the profile's
 * extent for the length between two of its times (a time is held to a
 * millionth of the profile, as a double holds it to a part in 2^53 of its
 * size: a stretch of one ulp between two times is no weight of its own). */
int pcol_decimal_kept(double w, int64_t v, double scale, double ref);
/* THE kept rule over a file, per value type (the speedscope, Firefox and
 * Perun imports): each amount w held as v / scale is added to its value
 * type's tally; one not kept (pcol_decimal_kept) is counted, with those
 * held as 0 and what they lost (w - v / scale, summed).  After the file,
 * pcol_kept_verdict: a value type whose loss changes its total (every w,
 * summed) by more than a millionth refuses the file (a profile of only
 * 1e-12 weights: its total would be 0), with the first's refusal the
 * importer wrote; else the file is read with ONE warning
 * (pcol_rounded_text), naming the file, how many were rounded, how many to
 * 0, the first (its place and value) and the total lost. */
/* An exact sum of decimals (count.c): each added as a whole number times
 * a power of ten, m x 10^e, |m| < 10^18 and e within a double's decimals
 * (10^-342 .. 10^308), held in 9-digit limbs; what a message prints of a
 * sum of a file's numbers (pcol_dec_sum_text), never the arithmetic's
 * digits (0.000117 + 0.000117 is 0.000234, not 0.00023400000000000008). */
#define PCOL_DEC_LIMBS 76
typedef struct pcol_dec_sum {
  int64_t l[PCOL_DEC_LIMBS]; /* limb i: 10^(9 i - 342), each |l| < 2^62 */
  uint32_t adds;             /* additions since the limbs were carried */
} pcol_dec_sum;
void pcol_dec_sum_add(pcol_dec_sum *s, int64_t m, int e);
/* d (finite) added as its shortest decimal that reads back as d (as
 * pcol_g_text prints it: the file's number, as a JSON reader reads it) */
void pcol_dec_sum_add_double(pcol_dec_sum *s, double d);
/* s as text: every digit, as "%g" prints (an exponent below 1e-4 and from
 * 1e15, or past the digits), to 30 significant digits (past them, rounded
 * half away from zero).  Returns the length (cap: 48 is enough). */
int pcol_dec_sum_text(const pcol_dec_sum *s, char *buf, size_t cap);

typedef struct pcol_kept_tally {
  uint64_t n, zero;        /* amounts not kept; of them, held as 0 */
  long double lost, total; /* what those lost, summed; every amount w, summed */
  pcol_dec_sum lost_dec;   /* what those lost, exactly (each the file's decimal less the grid's) */
  pcol_dec_sum total_dec;  /* every amount as held (v / scale), exactly; with lost_dec, the
                            * total the messages print */
  double first_w, first_v; /* the first not kept: the file's, and as held */
  char first_at[128];      /* where it is (the importer's words) */
  pcol_error refusal;      /* the importer's refusal of it */
  uint64_t amounts;        /* every amount added */
  char type[64];           /* the value type's name (the importer's; "": unnamed) */
} pcol_kept_tally;
/* The tally of value type vt in (*t)[0..*n), grown (zeros) to hold it;
 * NULL when out of memory. */
pcol_kept_tally *pcol_kept_at(pcol_kept_tally **t, size_t *n, uint32_t vt);
/* Adds w (held as v of a grid of 1 / scale; ref as pcol_decimal_kept's):
 * 1 when it is the tally's first amount not kept (the caller then writes
 * first_at and refusal), else 0. */
int pcol_kept_add(pcol_kept_tally *t, double w, int64_t v, double scale, double ref);
/* The file name's tallies t[0..nt) (one per value type; those with no
 * amount are zeros): PCOL_OK, with err untouched, when every amount was
 * kept; the refusal of the first tally whose loss is past a millionth of
 * its total; else PCOL_OK with the warning in err (after a warning already
 * there, "; "): ONE warning, a clause per value type that lost any (its
 * count, first and loss of its own total: the counts and losses of several
 * are never added up), each named by its type when the file has amounts of
 * more than one. */
int pcol_kept_verdict(const pcol_kept_tally *t, size_t nt, const char *name, pcol_error *err);
/* THE rounding warning's words, the collapsed import's counts with more
 * than 9 decimals and the kept rule's amounts alike: "N WHAT (the first:
 * AT) are rounded to GRID, as pcol keeps them, Z of them to 0 (ZWHY): the
 * total lost L"; one_what/many_what: WHAT for 1 and for more; zero_why may
 * be NULL (no parenthesis).  Returns snprintf's. */
int pcol_rounded_text(char *buf, size_t cap, uint64_t n, const char *one_what, const char *many_what,
                      const char *at, const char *grid, uint64_t zero, const char *zero_why, long double lost);
/* d as the shortest "%.*g" text (15 to 17 digits) that reads back as d,
 * for a message naming a file's number as a JSON reader reads it. */
void pcol_g_text(char *buf, size_t cap, double d);
/* v / 10^decimals exactly, without trailing zeros ("12", "1.5", "-0.25");
 * NUL-terminated, truncated to cap.  Returns the length. */
int pcol_decimal_text(char *buf, size_t cap, __int128 v, int decimals);

/* THE default value type of each source in [lo, hi] (0 = the count):
 * d[s - lo].  count.c */
int pcol_source_default_types(pcol_file *f, uint32_t lo, uint32_t hi, uint32_t *d,
                              pcol_error *err);
/* The same (uncached), and how[s - lo] says how the source's default was
 * found: PCOL_DPLACE_LAST where it is pprof's fallback, the LAST type the
 * source lists (no default_sample_type), so that its place is the type's
 * last place, not its first: go's default of a profile that lists a type
 * twice (samples of a --diff-base of kin sides: inuse_space/bytes twice)
 * is its last column (xvalues.c pcol_kin_column); PCOL_DPLACE_UNLISTED the
 * same where default_sample_type names none of its types (go's merge keeps
 * that name: it reads the last column); PCOL_DPLACE_NAMED where
 * default_sample_type names it (the first of that name, SampleIndexByName);
 * PCOL_DPLACE_OWN a format's own rule (Rprof's time, a decimal count). */
enum { PCOL_DPLACE_OWN, PCOL_DPLACE_LAST, PCOL_DPLACE_UNLISTED, PCOL_DPLACE_NAMED };
int pcol_source_default_places(pcol_file *f, uint32_t lo, uint32_t hi, uint32_t *d, uint8_t *how,
                               pcol_error *err);
/* THE default value of a selection: over its sources (wall.c
 * pcol_selection_sources: sel->source_id's, else every one; of a
 * wall-clock range, the recordings it reaches), the sources' default
 * when they agree; else, each source that states its profile's default
 * (meta PCOL_META_DEFAULT_VALUE, a type name) counted as the type of that
 * name a source of its recording (else any selected source) has as its
 * own default, and the others as their own: that one type when they then
 * agree (*differ = 2); else 0, "samples", each source's own count, which
 * every source has (*differ = 1; may be NULL).  sel may be NULL.  The
 * views (lib/query/value.c, `pcol fold`) and the exporters all follow it.
 * count.c */
int pcol_selection_default_type(pcol_file *f, const pcol_select *sel, uint32_t *chosen, int *differ,
                                pcol_error *err);

/* *chosen = the selection's default (pcol_selection_default_type), *agree
 * = 1 when its sources agree on it (its *differ is 0), *named = 1 when
 * they do and a selected source whose own default it is names it in meta
 * pprof.default_sample_type: the rule of go's merge (combineHeaders) that
 * pcol_value_diff_default follows.  count.c */
int pcol_selection_named_default(pcol_file *f, const pcol_select *sel, uint32_t *chosen, int *agree,
                                 int *named, pcol_error *err);

#endif
