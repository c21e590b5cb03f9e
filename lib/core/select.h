/* select.h — selected rows, the range rule and sample values (select.c).
 * Inside libpcol only (not installed). */
#ifndef PCOL_CORE_SELECT_H
#define PCOL_CORE_SELECT_H

#include "pcol.h"
#include "filter.h"

/* The selection's source exists (ENOTFOUND naming both numbers otherwise);
 * pcol_select_iter checks it, and so must code that walks sources itself. */
int pcol_select_check(pcol_file *f, const pcol_select *sel, pcol_error *err);

/* THE rule of an export's selection: an export keeps each sample's stack
 * whole, so hide, show, show_from and no_inlines (which change stacks) are
 * refused, EINVAL with the message `pcol unpack` gives; focus, ignore and
 * the tag filters (which select samples) are not.  Every exporter that
 * takes a selection checks it first (pcol_export and each
 * pcol_export_<format>), so the CLI and the bindings need no check of
 * their own. */
int pcol_select_whole_stacks(const pcol_select *sel, pcol_error *err);

/* pcol_select_iter with a filter built by the caller (NULL: none; sel's
 * own filter strings are then ignored), for views that also need the
 * hidden lines or the unfiltered rows' total. */
int pcol_select_iter_filter(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                            int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den),
                            void *ctx, pcol_error *err);
/* The same, and before each run of rows it hands fn, those rows of the
 * samples columns need[0..nneed) made readable: of a column in zstd blocks
 * (format 1.4) only the blocks that hold them are decoded, so a view that
 * reads its samples columns through views from pcol_select_need_view reads
 * a time range without decoding them whole (at most PCOL_SELECT_NEED). */
#define PCOL_SELECT_NEED 8
int pcol_select_iter_need(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                          const int *need, size_t nneed,
                          int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den),
                          void *ctx, pcol_error *err);
/* pcol_select_iter with, for each selected sample, *at: the time of its
 * first selected tick (THE range rule: t + floor(k d / n) of its first tick
 * k in the range; its own time when it is a point sample or selected
 * whole; PCOL_NA_I64 where the source is not cut: no range, or a source
 * without times taken whole), which lies in the range, so that a point sample there is
 * selected whole by the same range: the time a copy of the selected part
 * of a sample is given (diffbase.c: --normalize's groups of a time range). */
int pcol_select_iter_at(pcol_file *f, const pcol_select *sel,
                        int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den, int64_t at),
                        void *ctx, pcol_error *err);
/* The view of samples column `column` for pcol_select_iter_need: its rows
 * are readable only once the iteration hands them over (a column in zstd
 * blocks under a time range; *lazy = 1), or it is pcol_column's whole
 * view (*lazy = 0). */
int pcol_select_need_view(pcol_file *f, const pcol_select *sel, int column, pcol_view *out,
                          int *lazy, pcol_error *err);

/* Meta "pcol.max_duration_ns": 1 to 18 decimal digits, nothing else
 * (spec.md §7).  0 and *out, or -1 when v does not follow that grammar. */
int pcol_parse_max_duration(pcol_str v, int64_t *out);
/* What each source declares for range queries, in one pass over meta:
 * (*maxd)[s] its "pcol.max_duration_ns" (-1: none, -2: malformed), and
 * (*intervals)[s] 1 when its first "pcol.intervals" row holds "1" (spec.md
 * §7.1, "Interval sources"), for s = 0 .. sources; free() both. */
int pcol_source_range_meta(pcol_file *f, int64_t **maxd, uint8_t **intervals, pcol_error *err);

/* THE range rule (select.c, spec.md §7): a long sample of weight w stands
 * for pcol_range_ticks(w) = max(w, 1) ticks at t + k d / n; of them,
 * pcol_range_ticks_before(t, d, n, x) lie before time x (0 for x <= t, n
 * from the last tick on).  A range [a, b) selects before(b) - before(a). */
int64_t pcol_range_ticks(int64_t w);
/* n of a long sample of weight w and duration d > 0: d (one tick a
 * nanosecond) when w <= 1 in a source marked as intervals (meta
 * pcol.intervals "1", spec.md §7.1), else pcol_range_ticks(w). */
int64_t pcol_range_ticks_of(int64_t w, int64_t d, int intervals);
int64_t pcol_range_ticks_before(int64_t t, int64_t d, int64_t n, int64_t x);
/* A selected sample row and the fraction num/den of it that is selected
 * (pcol_select_iter, spec.md §7). */
typedef struct pcol_selected_row {
  uint64_t row;
  int64_t num, den;
} pcol_selected_row;

/* THE rule for "the number of value type vt of a sample", used by every
 * view and exporter: vt 0 (and PCOL_VT_WEIGHT) is the weight column (the
 * query level counts vt 0 by pcol_sample_count below); otherwise the sample's first
 * sample_values entry of that type (a type declared twice by a source, as a
 * pprof profile may, counts once, as go tool pprof -sample_index takes the
 * first).  Returns 1 when present, 0 when the sample has none (*v = 0). */
typedef struct pcol_sample_cols {
  pcol_view weight, voff, vtype, vval;
  uint64_t nvalues;
  /* k > 0: dense values (1.3): every sample's values are the k types of
   * vtype's constant lanes, value j in vval's lane j (pcol_sample_cols_init) */
  uint32_t dense_k;
} pcol_sample_cols;
int pcol_sample_cols_init(pcol_sample_cols *c, pcol_file *f, pcol_error *err);
/* Sets c->dense_k for c's columns (select.c; pcol_sample_cols_init does). */
void pcol_sample_cols_dense(pcol_sample_cols *c);
static inline int pcol_sample_value(const pcol_sample_cols *c, uint64_t row, uint32_t vt,
                                    int64_t *v) {
  if (!vt || vt == PCOL_VT_WEIGHT) {
    *v = pcol_view_i64(&c->weight, row);
    return 1;
  }
  if (c->dense_k) {
    for (uint32_t j = 0; j < c->dense_k; j++)
      if ((uint32_t)c->vtype.lanes[j].base == vt) {
        *v = (int64_t)pcol_lane_get(&c->vval.lanes[j], row);
        return 1;
      }
    *v = 0;
    return 0;
  }
  uint64_t a = pcol_view_u64(&c->voff, row), e = pcol_view_u64(&c->voff, row + 1);
  if (e > c->nvalues) e = c->nvalues; /* the reader checked; belt and braces */
  for (uint64_t i = a; i < e; i++)
    if (pcol_view_u32(&c->vtype, i) == vt) {
      *v = pcol_view_i64(&c->vval, i);
      return 1;
    }
  *v = 0;
  return 0;
}

/* The number of rows sel selects, allocating nothing (an exporter whose
 * output has a known least size per row refuses before taking them). */
int pcol_select_count(pcol_file *f, const pcol_select *sel, uint64_t *count, pcol_error *err);

#endif
