/* coalesce.c — long samples: merge runs of identical, evenly spaced raw
 * samples into one row (spec.md §7.1).
 *
 * A run is a maximal sequence of consecutive sample rows r0..rN-1 such that
 *  - every row has the same source, stack, label set and the identical list
 *    of (value type, value) pairs;
 *  - every row is a raw point sample: weight 1, duration 0, time not NA;
 *  - times are evenly spaced: t[k+1] - t[k] = d > 0, the same d for the run;
 *  - rows after the first have cpu_delta 0 or NA (CPU time "before the
 *    sample" belongs to the first tick; a later non-zero delta is a wake-up
 *    and starts a new run, as in Firefox Profiler issue #4101);
 *  - no text line is placed before a row after the first (the text sits
 *    between two raw samples, so merging across it would lose its place);
 *  - no row has a sample_text (its verbatim text belongs to one raw sample);
 *  - no row is an Rprof sample with values: Rprof's memory fields are
 *    snapshots, not amounts, so N equal snapshots are not one value x N
 *    (interop review F2: `top --value rprof.alloc` and the byte-identical
 *    round trip both depend on each line's own snapshot).
 * A run of N >= 2 rows becomes one row: time t[0], duration N*d, weight N,
 * cpu_delta of the first row, each value multiplied by N (the per-type sum).
 * Sample ids in sample_text and positions in text_lines are renumbered.
 * Every range query whose bounds fall on raw sample times then gives the
 * same answer on the coalesced rows as on the raw ones (pcol_select_iter).
 */
#include "pcol.h"
#include "keys.h"     /* PCOL_META_MAX_DURATION_NS, PCOL_SRC_RPROF */
#include "bytes.h"    /* pcol_str_is */
#include "buf.h"      /* pcol_buf, pcol_buf_get32, pcol_buf_get64 */
#include "builder.h"  /* struct pcol_builder, pcol_btable, pcol_b_materialize */
#include "summary.h"  /* pcol_bsum_rebuild */
#include "spill.h"    /* pcol_b_unspill */
#include "select.h"   /* pcol_parse_max_duration */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCOL(b, c) (&(b)->t[PCOL_T_SAMPLES].cols[(c)-1])
#define VCOL(b, c) (&(b)->t[PCOL_T_VALUES].cols[(c)-1])

/* element i of a column held in memory (buf.h) */
#define g32 pcol_buf_get32
#define g64 pcol_buf_get64
static void p32(pcol_buf *b, uint64_t i, uint32_t v) { memcpy(b->data + i * 4, &v, 4); }
static void p64(pcol_buf *b, uint64_t i, int64_t v) { memcpy(b->data + i * 8, &v, 8); }

/* Same source, stack, labels and values (rows r and s). */
static int same_kind(pcol_builder *b, uint64_t r, uint64_t s) {
  if (g32(SCOL(b, PCOL_C_S_SOURCE), r) != g32(SCOL(b, PCOL_C_S_SOURCE), s) ||
      g32(SCOL(b, PCOL_C_S_STACK), r) != g32(SCOL(b, PCOL_C_S_STACK), s) ||
      g32(SCOL(b, PCOL_C_S_LABELSET), r) != g32(SCOL(b, PCOL_C_S_LABELSET), s))
    return 0;
  const pcol_buf *off = SCOL(b, PCOL_C_S_VALUE_OFFSETS);
  uint64_t ra = (uint64_t)g64(off, r), re = (uint64_t)g64(off, r + 1);
  uint64_t sa = (uint64_t)g64(off, s), se = (uint64_t)g64(off, s + 1);
  if (re - ra != se - sa) return 0;
  for (uint64_t k = 0; k < re - ra; k++)
    if (g32(VCOL(b, PCOL_C_V_TYPE), ra + k) != g32(VCOL(b, PCOL_C_V_TYPE), sa + k) ||
        g64(VCOL(b, PCOL_C_V_VALUE), ra + k) != g64(VCOL(b, PCOL_C_V_VALUE), sa + k))
      return 0;
  return 1;
}

/* Row r carries snapshots: its source is Rprof and it has values. */
static int snapshots(pcol_builder *b, uint64_t r) {
  const pcol_buf *off = SCOL(b, PCOL_C_S_VALUE_OFFSETS);
  if (g64(off, r + 1) == g64(off, r)) return 0;
  uint32_t src = g32(SCOL(b, PCOL_C_S_SOURCE), r);
  const pcol_btable *so = &b->t[PCOL_T_SOURCES];
  if (src == 0 || src > so->rows) return 0;
  pcol_str ty = pcol_b_string_get(b, g32(&so->cols[PCOL_C_SOURCES_TYPE - 1], src - 1));
  return pcol_str_is(ty, PCOL_SRC_RPROF);
}

static int raw_point(pcol_builder *b, uint64_t r) {
  return g64(SCOL(b, PCOL_C_S_WEIGHT), r) == 1 && g64(SCOL(b, PCOL_C_S_DURATION), r) == 0 &&
         g64(SCOL(b, PCOL_C_S_TIME), r) != PCOL_NA_I64;
}

/* The values of row r times n fit in 64 bits. */
static int values_fit(pcol_builder *b, uint64_t r, int64_t n) {
  const pcol_buf *off = SCOL(b, PCOL_C_S_VALUE_OFFSETS);
  int64_t tmp;
  for (uint64_t k = (uint64_t)g64(off, r); k < (uint64_t)g64(off, r + 1); k++)
    if (__builtin_mul_overflow(g64(VCOL(b, PCOL_C_V_VALUE), k), n, &tmp)) return 0;
  return 1;
}

/* Records, per source with long samples, the longest duration as meta
 * "pcol.max_duration_ns" (spec.md §7): a range query then starts its binary
 * search at from - max instead of reading the duration column. */
static int note_max_durations(pcol_builder *b, pcol_error *err) {
  uint64_t n = b->t[PCOL_T_SAMPLES].rows, ns = b->t[PCOL_T_SOURCES].rows;
  const pcol_buf *src = SCOL(b, PCOL_C_S_SOURCE), *dur = SCOL(b, PCOL_C_S_DURATION);
  const pcol_btable *meta = &b->t[PCOL_T_META];
  uint32_t key;
  if (pcol_b_cstr(b, PCOL_META_MAX_DURATION_NS, &key, err)) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (uint64_t i = 0; i < n;) {
    uint32_t s = g32(src, i);
    int64_t mx = 0;
    for (; i < n && g32(src, i) == s; i++)
      if (g64(dur, i) > mx) mx = g64(dur, i);
    if (mx <= 0 || s == 0 || s > ns) continue;
    int have = 0;
    for (uint64_t m = 0; m < meta->rows && !have; m++)
      have = g32(&meta->cols[PCOL_C_META_KEY - 1], m) == key &&
             g32(&meta->cols[PCOL_C_META_SOURCE - 1], m) == s;
    if (have) continue;
    char v[24];
    snprintf(v, sizeof v, "%lld", (long long)mx);
    /* declare only what §7.2's grammar allows (pcol_parse_max_duration, the
     * one rule): a duration of 19 digits (up to INT64_MAX, merging crafted
     * files) is not declared at all, and readers scan, as §7.2 permits; a
     * smaller value would be a lie (issue 28 #9) */
    int64_t back;
    if (pcol_parse_max_duration((pcol_str){v, strlen(v)}, &back) || back != mx) continue;
    if (pcol_b_meta_str(b, s, PCOL_META_MAX_DURATION_NS, v, err)) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  return PCOL_OK;
}

int pcol_builder_coalesce(pcol_builder *b, pcol_error *err) {
  uint64_t n = b->t[PCOL_T_SAMPLES].rows;
  if (n < 2) return PCOL_OK;
  /* rows are rewritten in place: spilled columns come back into memory
   * (doc/safety.md: --coalesce holds the samples) */
  int ur = pcol_b_unspill(b);
  if (ur) return pcol_b_spill_error(b, ur, err);
  if (pcol_b_materialize(b)) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  /* cut[r] = 1: row r may not join the run of row r-1 */
  uint8_t *cut = calloc(n + 1, 1);
  uint32_t *map = malloc(n * sizeof *map);
  if (!cut || !map) {
    free(cut);
    free(map);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  pcol_btable *tl = &b->t[PCOL_T_TEXT_LINES], *st = &b->t[PCOL_T_SAMPLE_TEXT];
  for (uint64_t i = 0; i < tl->rows; i++) {
    uint64_t k = (uint64_t)g64(&tl->cols[PCOL_C_TL_BEFORE - 1], i);
    if (k >= 1 && k <= n) cut[k - 1] = 1;
  }
  for (uint64_t i = 0; i < st->rows; i++) {
    uint32_t id = g32(&st->cols[PCOL_C_ST_SAMPLE - 1], i);
    if (id >= 1 && id <= n) cut[id - 1] = cut[id] = 1;
  }
  pcol_buf *src = SCOL(b, PCOL_C_S_SOURCE), *tim = SCOL(b, PCOL_C_S_TIME),
           *dur = SCOL(b, PCOL_C_S_DURATION), *wt = SCOL(b, PCOL_C_S_WEIGHT),
           *cpu = SCOL(b, PCOL_C_S_CPU_DELTA), *stk = SCOL(b, PCOL_C_S_STACK),
           *lab = SCOL(b, PCOL_C_S_LABELSET), *off = SCOL(b, PCOL_C_S_VALUE_OFFSETS);
  pcol_buf *vty = VCOL(b, PCOL_C_V_TYPE), *vva = VCOL(b, PCOL_C_V_VALUE);
  uint64_t o = 0, vo = 0;
  for (uint64_t s = 0; s < n;) {
    /* extend the run [s, e) */
    uint64_t e = s + 1;
    int64_t d = 0;
    if (raw_point(b, s) && !snapshots(b, s))
      while (e < n && !cut[e] && raw_point(b, e) && same_kind(b, s, e)) {
        int64_t step;
        if (__builtin_sub_overflow(g64(tim, e), g64(tim, e - 1), &step) || step <= 0) break;
        if (e - s >= 2 && step != d) break;
        int64_t c = g64(cpu, e);
        if (c != 0 && c != PCOL_NA_I64) break;
        int64_t len = (int64_t)(e - s + 1), span;
        if (__builtin_mul_overflow(len, step, &span) || !values_fit(b, s, len)) break;
        d = step;
        e++;
      }
    int64_t len = (int64_t)(e - s);
    /* write row o from row s (o <= s, vo <= off[s]: moving down is safe) */
    p32(src, o, g32(src, s));
    p64(tim, o, g64(tim, s));
    p64(dur, o, len > 1 ? len * d : g64(dur, s));
    p64(wt, o, len > 1 ? len : g64(wt, s));
    p64(cpu, o, g64(cpu, s));
    p32(stk, o, g32(stk, s));
    p32(lab, o, g32(lab, s));
    uint64_t va = (uint64_t)g64(off, s), ve = (uint64_t)g64(off, s + 1);
    for (uint64_t k = va; k < ve; k++, vo++) {
      p32(vty, vo, g32(vty, k));
      p64(vva, vo, g64(vva, k) * len);
    }
    p64(off, o + 1, (int64_t)vo);
    for (uint64_t r = s; r < e; r++) map[r] = (uint32_t)(o + 1);
    o++;
    s = e;
  }
  b->t[PCOL_T_SAMPLES].rows = o;
  src->len = stk->len = lab->len = o * 4;
  tim->len = dur->len = wt->len = cpu->len = o * 8;
  off->len = (o + 1) * 8;
  b->t[PCOL_T_VALUES].rows = vo;
  vty->len = vo * 4;
  vva->len = vo * 8;
  /* renumber references to samples */
  for (uint64_t i = 0; i < tl->rows; i++) {
    uint64_t k = (uint64_t)g64(&tl->cols[PCOL_C_TL_BEFORE - 1], i);
    if (k >= 1 && k <= n) k = map[k - 1];
    else if (k == n + 1) k = o + 1;
    p64(&tl->cols[PCOL_C_TL_BEFORE - 1], i, (int64_t)k);
  }
  for (uint64_t i = 0; i < st->rows; i++) {
    uint32_t id = g32(&st->cols[PCOL_C_ST_SAMPLE - 1], i);
    if (id >= 1 && id <= n) p32(&st->cols[PCOL_C_ST_SAMPLE - 1], i, map[id - 1]);
  }
  free(cut);
  free(map);
  pcol_bsum_rebuild(b); /* the rows changed: the summary of what they are now */
  return note_max_durations(b, err);
}
