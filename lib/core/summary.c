/* summary.c — the per-source summary of format 1.3 (spec.md §6.10):
 * what each source's samples add up to (rows, weight, time span, and per
 * declared value type its total), written by the writer so that `pcol
 * info` and the other header views need no pass over the samples.
 *
 * THE rule of what counts is sacc_sample and vacc_value below, used by the
 * builder (as samples come, pcol_b_sample; again after coalescing) and by
 * full validation (F7, pcol_summary_validate), which recomputes it from
 * the samples and refuses a file whose summary disagrees.
 *
 * Cost: O(1) a sample and value in the builder, O(sources + their value
 * types) to write; reading is O(1) a source (pcol_summary_get), and
 * pcol_summary_plausible's check against the samples is O(sources). */
#include "pcol.h"
#include "layout.h"   /* PCOL_CODEC_RAW */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "buf.h"      /* pcol_buf_get64, pcol_buf_get32, pcol_buf */
#include "builder.h"  /* struct pcol_builder, pcol_bt_push_i64, pcol_bt_push_u64, ... */
#include "summary.h"  /* pcol_summary, pcol_bsum_add, pcol_summary_get, ... */
#include "reader.h"   /* struct pcol_file, pcol_view_release, pcol_column_stored, ... */
#include "select.h"   /* pcol_sample_cols, pcol_sample_cols_init */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- the rule */
/* One source's samples added up (spec.md §6.10). */
typedef struct pcol_sacc {
  uint64_t rows, untimed;
  __int128 weight;
  int64_t first, last, end; /* meaningful when untimed < rows */
} pcol_sacc;

/* One (source, value type): the sum of the type's value over the source's
 * samples that have one (the first of the type in a sample, as
 * pcol_sample_value reads it) and how many samples have one. */
typedef struct pcol_vacc {
  uint32_t vt;
  uint64_t rows;
  __int128 total;
} pcol_vacc;

static void sacc_sample(pcol_sacc *a, int64_t t, int64_t d, int64_t w) {
  a->weight += w;
  if (t == PCOL_NA_I64) {
    a->untimed++;
  } else {
    int64_t e; /* the sample's end: t + d for d > 0, at most INT64_MAX */
    if (d <= 0) e = t;
    else if (__builtin_add_overflow(t, d, &e)) e = INT64_MAX;
    if (a->rows == a->untimed) { /* its first timed sample */
      a->first = a->last = t;
      a->end = e;
    } else {
      if (t < a->first) a->first = t;
      if (t > a->last) a->last = t;
      if (e > a->end) a->end = e;
    }
  }
  a->rows++;
}

static void vacc_value(pcol_vacc *v, int64_t x) {
  v->total += x;
  v->rows++;
}

/* A sum as stored: itself when it fits int64 and is not NA, else NA. */
static int64_t stored_sum(__int128 x) {
  return x > INT64_MAX || x <= INT64_MIN ? PCOL_NA_I64 : (int64_t)x;
}

/* The stored columns of one source's sacc. */
static void sacc_stored(const pcol_sacc *a, uint64_t out_u[2], int64_t out_i[4]) {
  int timed = a->untimed < a->rows;
  out_u[0] = a->rows;
  out_u[1] = a->untimed;
  out_i[0] = stored_sum(a->weight);
  out_i[1] = timed ? a->first : PCOL_NA_I64;
  out_i[2] = timed ? a->last : PCOL_NA_I64;
  out_i[3] = timed ? a->end : PCOL_NA_I64;
}

/* ------------------------------------------------------ the builder */
typedef struct pcol_bsum {
  pcol_sacc a;
  pcol_vacc *v;
  uint32_t nv, cap;
} pcol_bsum;

void pcol_bsum_free(pcol_builder *b) {
  for (size_t i = 0; i < b->nsum; i++) free(b->sum[i].v);
  free(b->sum);
  free(b->vt_stamp);
  b->sum = NULL;
  b->vt_stamp = NULL;
  b->nsum = b->nstamp = 0;
}

/* Grows a zeroed array of n elements of size w to at least want (+ room). */
static int grow_zeroed(void **p, size_t *n, size_t want, size_t w) {
  if (want <= *n) return PCOL_OK;
  size_t nn = want < 16 ? 16 : want + want / 2;
  if (nn > SIZE_MAX / w) return PCOL_ENOMEM;
  void *q = realloc(*p, nn * w);
  if (!q) return PCOL_ENOMEM;
  memset((char *)q + *n * w, 0, (nn - *n) * w);
  *p = q;
  *n = nn;
  return PCOL_OK;
}

/* Source s's accumulator of type vt, added when missing; `hint` is the
 * value's position in its sample (samples of a source list their types in
 * the same order, so the hint is usually right). */
static pcol_vacc *bsum_vt(pcol_bsum *s, uint32_t vt, size_t hint) {
  if (hint < s->nv && s->v[hint].vt == vt) return &s->v[hint];
  for (uint32_t i = 0; i < s->nv; i++)
    if (s->v[i].vt == vt) return &s->v[i];
  if (s->nv == s->cap) {
    uint32_t nc = s->cap ? s->cap * 2 : 4;
    pcol_vacc *q = nc > s->cap ? realloc(s->v, (size_t)nc * sizeof *q) : NULL;
    if (!q) return NULL;
    s->v = q;
    s->cap = nc;
  }
  pcol_vacc *x = &s->v[s->nv++];
  memset(x, 0, sizeof *x);
  x->vt = vt;
  return x;
}

void pcol_bsum_add(pcol_builder *b, const pcol_sample_row *s, const pcol_value_row *v, size_t nv) {
  if (b->sum_bad) return;
  size_t nvt = (size_t)b->t[PCOL_T_VALUE_TYPES].rows + 1;
  if (grow_zeroed((void **)&b->sum, &b->nsum, (size_t)s->source_id + 1, sizeof *b->sum) ||
      grow_zeroed((void **)&b->vt_stamp, &b->nstamp, nvt, sizeof *b->vt_stamp)) {
    b->sum_bad = 1;
    return;
  }
  pcol_bsum *x = &b->sum[s->source_id];
  sacc_sample(&x->a, s->time_ns, s->duration_ns, s->weight);
  uint64_t st = ++b->stamp;
  for (size_t i = 0; i < nv; i++) {
    uint32_t vt = v[i].value_type_id; /* checked by pcol_b_sample: 1..value types */
    if (b->vt_stamp[vt] == st) continue; /* a type's first value in the sample counts */
    b->vt_stamp[vt] = st;
    pcol_vacc *a = bsum_vt(x, vt, i);
    if (!a) {
      b->sum_bad = 1;
      return;
    }
    vacc_value(a, v[i].value);
  }
}


void pcol_bsum_rebuild(pcol_builder *b) {
  for (size_t i = 0; i < b->nsum; i++) {
    memset(&b->sum[i].a, 0, sizeof b->sum[i].a);
    b->sum[i].nv = 0;
  }
  b->sum_bad = 0;
  /* every column is in memory and stored (coalescing materialized them) */
  const pcol_buf *sc = b->t[PCOL_T_SAMPLES].cols, *vc = b->t[PCOL_T_VALUES].cols;
  pcol_value_row *vals = NULL;
  size_t cap = 0;
  for (uint64_t r = 0; r < b->t[PCOL_T_SAMPLES].rows && !b->sum_bad; r++) {
    pcol_sample_row s = {pcol_buf_get32(&sc[PCOL_C_S_SOURCE - 1], r), pcol_buf_get64(&sc[PCOL_C_S_TIME - 1], r),
                         pcol_buf_get64(&sc[PCOL_C_S_DURATION - 1], r), pcol_buf_get64(&sc[PCOL_C_S_WEIGHT - 1], r),
                         0, 0, 0};
    uint64_t a = (uint64_t)pcol_buf_get64(&sc[PCOL_C_S_VALUE_OFFSETS - 1], r);
    uint64_t e = (uint64_t)pcol_buf_get64(&sc[PCOL_C_S_VALUE_OFFSETS - 1], r + 1);
    if (e - a > cap) {
      size_t nc = (size_t)(e - a) * 2;
      pcol_value_row *q = realloc(vals, nc * sizeof *q);
      if (!q) {
        b->sum_bad = 1;
        break;
      }
      vals = q;
      cap = nc;
    }
    for (uint64_t k = a; k < e; k++)
      vals[k - a] = (pcol_value_row){pcol_buf_get32(&vc[PCOL_C_V_TYPE - 1], k), pcol_buf_get64(&vc[PCOL_C_V_VALUE - 1], k)};
    pcol_bsum_add(b, &s, vals, (size_t)(e - a));
  }
  free(vals);
}

int pcol_bsum_fill(pcol_builder *b, unsigned minor) {
  pcol_btable *t = &b->t[PCOL_T_SOURCE_SUMMARY], *svt = &b->t[PCOL_T_SOURCE_VALUE_TYPES];
  const pcol_table_info *ti = pcol_table_info_get(PCOL_T_SOURCE_SUMMARY);
  for (size_t c = 0; c < ti->ncolumns; c++) t->cols[c].len = 0;
  t->rows = 0;
  svt->cols[PCOL_C_SVT_TOTAL - 1].len = svt->cols[PCOL_C_SVT_ROWS - 1].len = 0;
  if (minor < 3 || b->sum_bad) return PCOL_OK; /* 1.2: no summary */
  uint64_t ns = b->t[PCOL_T_SOURCES].rows;
  static const pcol_sacc none = {0, 0, 0, 0, 0, 0};
  for (uint64_t s = 1; s <= ns; s++) {
    const pcol_sacc *a = s < b->nsum ? &b->sum[s].a : &none;
    uint64_t u[2];
    int64_t i[4];
    sacc_stored(a, u, i);
    PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_SUM_ROWS, u[0]));
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(t, PCOL_C_SUM_WEIGHT, i[0]));
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(t, PCOL_C_SUM_TIME_FIRST, i[1]));
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(t, PCOL_C_SUM_TIME_LAST, i[2]));
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(t, PCOL_C_SUM_TIME_END, i[3]));
    PCOL_RETURN_NOT_OK(pcol_bt_push_u64(t, PCOL_C_SUM_UNTIMED, u[1]));
  }
  t->rows = ns;
  for (uint64_t r = 0; r < svt->rows; r++) {
    uint32_t s = pcol_buf_get32(&svt->cols[PCOL_C_SVT_SOURCE - 1], r), vt = pcol_buf_get32(&svt->cols[PCOL_C_SVT_VALUE_TYPE - 1], r);
    const pcol_vacc *v = NULL;
    for (uint32_t k = 0; s < b->nsum && k < b->sum[s].nv && !v; k++)
      if (b->sum[s].v[k].vt == vt) v = &b->sum[s].v[k];
    PCOL_RETURN_NOT_OK(pcol_bt_push_i64(svt, PCOL_C_SVT_TOTAL, v ? stored_sum(v->total) : 0));
    PCOL_RETURN_NOT_OK(pcol_bt_push_u64(svt, PCOL_C_SVT_ROWS, v ? v->rows : 0));
  }
  return PCOL_OK;
}

/* -------------------------------------------------------- the reader */
int pcol_summary_get(pcol_file *f, pcol_summary *s, pcol_error *err) {
  memset(s, 0, sizeof *s);
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  if (!ns || pcol_rows(f, PCOL_T_SOURCE_SUMMARY) == 0) return 0;
  const pcol_column_req cols[] = {
      {&s->rows, PCOL_T_SOURCE_SUMMARY, PCOL_C_SUM_ROWS},
      {&s->weight, PCOL_T_SOURCE_SUMMARY, PCOL_C_SUM_WEIGHT},
      {&s->first, PCOL_T_SOURCE_SUMMARY, PCOL_C_SUM_TIME_FIRST},
      {&s->last, PCOL_T_SOURCE_SUMMARY, PCOL_C_SUM_TIME_LAST},
      {&s->end, PCOL_T_SOURCE_SUMMARY, PCOL_C_SUM_TIME_END},
      {&s->untimed, PCOL_T_SOURCE_SUMMARY, PCOL_C_SUM_UNTIMED},
      {&s->total, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_TOTAL},
      {&s->vrows, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_ROWS}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, cols, PCOL_NCOLS(cols), err));
  return 1;
}

/* Column (table, column) of the samples as stored, when that costs O(1)
 * (absent, or raw and read in place); 0 otherwise. */
static int cheap_column(pcol_file *f, int table, int column, pcol_view *out) {
  uint32_t sec = f->idx[table][column];
  if (sec) {
    const pcol_section_info *si = &f->sections[sec].info;
    if (si->codec != PCOL_CODEC_RAW || si->transform) return 0;
  }
  return pcol_column_unchecked(f, table, column, out, NULL) == PCOL_OK;
}

int pcol_summary_plausible(pcol_file *f, const pcol_summary *s) {
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), n = pcol_rows(f, PCOL_T_SAMPLES), at = 0;
  pcol_view src, tim;
  int look = cheap_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src) &&
             cheap_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim);
  /* without a weight or duration column every weight is 1 and every end
   * its time: then the weight is the rows and the end the last time */
  int weight1 = !pcol_column_stored(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT),
      points = !pcol_column_stored(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION);
  for (uint64_t i = 0; i < ns; i++) {
    uint64_t r = pcol_view_u64(&s->rows, i), u = pcol_view_u64(&s->untimed, i);
    int64_t t0 = pcol_view_i64(&s->first, i), t1 = pcol_view_i64(&s->last, i),
            te = pcol_view_i64(&s->end, i);
    if (r > n - at || u > r) return 0;
    if (u == r ? t0 != PCOL_NA_I64 || t1 != PCOL_NA_I64 || te != PCOL_NA_I64
               : t0 == PCOL_NA_I64 || t0 > t1 || t1 > te)
      return 0;
    if ((weight1 && pcol_view_i64(&s->weight, i) != (int64_t)r) || (points && te != t1)) return 0;
    uint64_t a = at, e = at + r;
    at = e;
    if (!look || !r) continue;
    /* the source's run of rows: its first and last row are source i + 1,
     * the rows around them not; its untimed rows come first (F5) */
    uint32_t id = (uint32_t)(i + 1);
    if (pcol_view_u32(&src, a) != id || pcol_view_u32(&src, e - 1) != id ||
        (a > 0 && pcol_view_u32(&src, a - 1) == id) || (e < n && pcol_view_u32(&src, e) == id))
      return 0;
    if (u && pcol_view_i64(&tim, a + u - 1) != PCOL_NA_I64) return 0;
    if (u < r && (pcol_view_i64(&tim, a + u) != t0 || pcol_view_i64(&tim, e - 1) != t1)) return 0;
  }
  return at == n;
}

/* F7: the summary is what the samples give. */
int pcol_summary_validate(pcol_file *f, pcol_error *err) {
  pcol_summary sm;
  int rc = pcol_summary_get(f, &sm, err);
  if (rc <= 0) return rc;
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), n = pcol_rows(f, PCOL_T_SAMPLES);
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES), nsvt = pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES);
  pcol_view src, tim, dur, svs, svv;
  pcol_sample_cols sc;
  const pcol_column_req cols[] = {{&src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},
                                  {&tim, PCOL_T_SAMPLES, PCOL_C_S_TIME},
                                  {&dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION},
                                  {&svs, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE},
                                  {&svv, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, cols, PCOL_NCOLS(cols), err));
  PCOL_RETURN_NOT_OK(pcol_sample_cols_init(&sc, f, err));
  pcol_sacc *acc = calloc(ns + 1, sizeof *acc);
  pcol_vacc *vacc = calloc(nsvt ? nsvt : 1, sizeof *vacc);
  /* slot[vt]: the accumulator of type vt of the current source (+ 1), its
   * first svt row; stamp[vt]: the last sample that counted vt */
  uint64_t *slot = calloc(nvt + 1, sizeof *slot), *stamp = calloc(nvt + 1, sizeof *stamp);
  rc = acc && vacc && slot && stamp ? PCOL_OK : pcol_oom(err);
  /* svt rows grouped by source, in order (the file's index of them); a big
   * mapped file is read in windows of pcol_release_rows rows (as the rest
   * of full validation), so that merge validating its output holds a
   * window of it, not the whole */
  uint64_t r = 0, win = pcol_release_rows ? pcol_release_rows : 1, next = win, sfrom = 0, vfrom = 0;
  const pcol_view *scol[] = {&src, &tim, &dur, &sc.weight, &sc.voff};
  for (uint64_t s = 1; !rc && s <= ns; s++) {
    const uint32_t *vr;
    size_t nvr;
    if ((rc = pcol_source_rows(f, PCOL_T_SOURCE_VALUE_TYPES, (uint32_t)s, &vr, &nvr, err))) break;
    for (size_t k = 0; k < nvr; k++) {
      uint32_t vt = pcol_view_u32(&svv, vr[k]);
      if (!slot[vt]) slot[vt] = (uint64_t)vr[k] + 1;
    }
    for (; r < n && pcol_view_u32(&src, r) == s; r++) {
      if (r == next) {
        uint64_t va = pcol_view_u64(&sc.voff, r);
        next += win;
        for (size_t k = 0; k < sizeof scol / sizeof *scol; k++) pcol_view_release(f, scol[k], sfrom, r);
        pcol_view_release(f, &sc.vtype, vfrom, va);
        pcol_view_release(f, &sc.vval, vfrom, va);
        sfrom = r;
        vfrom = va;
      }
      sacc_sample(&acc[s], pcol_view_i64(&tim, r), pcol_view_i64(&dur, r), pcol_view_i64(&sc.weight, r));
      uint64_t a = pcol_view_u64(&sc.voff, r), e = pcol_view_u64(&sc.voff, r + 1);
      for (uint64_t k = a; k < e; k++) {
        uint32_t vt = pcol_view_u32(&sc.vtype, k);
        if (stamp[vt] == r + 1) continue;
        stamp[vt] = r + 1;
        if (slot[vt]) vacc_value(&vacc[slot[vt] - 1], pcol_view_i64(&sc.vval, k));
      }
    }
    for (size_t k = 0; k < nvr; k++) { /* a type listed twice: its first row counted */
      uint32_t vt = pcol_view_u32(&svv, vr[k]);
      if (slot[vt] && slot[vt] != (uint64_t)vr[k] + 1) vacc[vr[k]] = vacc[slot[vt] - 1];
    }
    for (size_t k = 0; k < nvr; k++) slot[pcol_view_u32(&svv, vr[k])] = 0;
  }
  if (!rc && r != n) /* F5 is checked before F7 */
    rc = pcol_error_set(err, PCOL_ECORRUPT, "samples out of source order at sample %llu",
                        (unsigned long long)r + 1);
  for (uint64_t s = 1; !rc && s <= ns; s++) {
    uint64_t u[2];
    int64_t i[4];
    sacc_stored(&acc[s], u, i);
    static const char *const names[6] = {"rows", "untimed", "weight", "time_first", "time_last",
                                          "time_end"};
    uint64_t got[6] = {pcol_view_u64(&sm.rows, s - 1), pcol_view_u64(&sm.untimed, s - 1),
                       (uint64_t)pcol_view_i64(&sm.weight, s - 1), (uint64_t)pcol_view_i64(&sm.first, s - 1),
                       (uint64_t)pcol_view_i64(&sm.last, s - 1), (uint64_t)pcol_view_i64(&sm.end, s - 1)};
    uint64_t want[6] = {u[0], u[1], (uint64_t)i[0], (uint64_t)i[1], (uint64_t)i[2], (uint64_t)i[3]};
    for (int k = 0; k < 6 && !rc; k++)
      if (got[k] != want[k])
        rc = pcol_error_set(err, PCOL_ECORRUPT, "source_summary of source %llu: %s is %lld, its samples give %lld",
                          (unsigned long long)s, names[k], (long long)got[k], (long long)want[k]);
  }
  for (uint64_t k = 0; !rc && k < nsvt; k++) {
    int64_t tot = stored_sum(vacc[k].total), gt = pcol_view_i64(&sm.total, k);
    uint64_t gr = pcol_view_u64(&sm.vrows, k);
    if (gt != tot || gr != vacc[k].rows)
      rc = pcol_error_set(err, PCOL_ECORRUPT, "source_value_types row %llu: total %lld over %llu samples, its "
                        "samples give %lld over %llu", (unsigned long long)k + 1, (long long)gt,
                        (unsigned long long)gr, (long long)tot, (unsigned long long)vacc[k].rows);
  }
  free(acc);
  free(vacc);
  free(slot);
  free(stamp);
  return rc;
}
