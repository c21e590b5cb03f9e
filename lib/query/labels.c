/* labels.c — the label views: pcol_tags_compute (go tool pprof -tags: per
 * label key, the value of the samples carrying each label value) and
 * pcol_traces_iter (pprof -traces: each sample with its labels, value and
 * named frames).
 *
 * Cost model: tags sums the selected samples' values per label set in one
 * pass (the label sets are few), then walks each label set's labels once
 * (a second pass groups the samples as pprof merges them, only when a
 * label set's values add up to 0);
 * traces walks each kept sample's stack (O(depth) per sample), after
 * top's keys of every location (pcol_q_top_keys: O(lines)) and pprof's
 * key of every stack node (pcol_pprof_stack_ids: O(stacks + locations)),
 * which the groups of both are of. */
#include "query.h"
#include "keys.h"     /* PCOL_SRC_PPROF */
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "bytes.h"    /* pcol_str_is */
#include "buf.h"      /* PCOL_GROW, pcol_buf_append, pcol_buf_free, ... */
#include "hash.h"     /* pcol_u64map, pcol_u64map_free, pcol_u64map_get */
#include "filter.h"   /* pcol_filter, pcol_filter_build, pcol_filter_free, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "select.h"   /* pcol_select_need_view */
#include "frames.h"   /* pcol_frame_line_name, pcol_frames_lines, pcol_stack_locations */
#include "count.h"    /* pcol_rtime, pcol_value_kin, pcol_unit_dropped, pcol_count_of_weight, ... */
#include "xvalues.h"  /* pcol_rtime_drop_init */
#include "samplekey.h" /* pcol_pprof_stack_ids */
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------- pprof's merged samples */
/* pprof -traces and -tags see the samples of the profile as pprof merged
 * it on reading (profile/merge.go Merge; with -base/-diff_base the
 * profile and the negated base, driver/fetch.go): samples with the same
 * stack and labels are one, their values added, at the place of the
 * first; a merged sample whose every value is 0 is dropped (isZeroSample).  Grouped here by pprof's key of the
 * stack (THE rule, lib/core/samplekey.h: two runs' stacks at other load
 * addresses are one, as a profile and its -base; a chain per key, one
 * group per label set on it), with the sum of the chosen value.
 * Whether every value of a group adds up to 0: when no stored value and no
 * weight is negative, exactly when every member's values are 0 (one bit a
 * group); otherwise the sum of every value type is kept per group.
 * With -base pprof merges the profile and the base each alone first
 * (fetch.go: each fetched profile is merged), dropping what adds up to 0
 * there, and then the two: a sample of the profile that its own samples
 * cancel is gone before, so the base's sample of that stack and labels
 * takes the place of the base's first one, after the profile's.  So a
 * group's place is its first row of the profile's sources when those add
 * up to other than 0 (nz0), else its first row of the base's (row1). */
typedef struct tr_group {
  uint64_t row;   /* the first kept row */
  uint64_t row1;  /* with -base: the first kept row of the base's sources (UINT64_MAX: none) */
  pcol_sum sum;   /* of the chosen value */
  pcol_sum dsum;  /* of -mean's divisor (pcol_traces_iter_mean) */
  uint32_t ls;    /* its label set (its first row's) */
  uint32_t lsk;   /* pprof's key of it (pcol_pprof_labelset_ids) */
  uint32_t next;  /* the next group of the same stack node + 1 (0 = none) */
  uint8_t nz;     /* a member has a value that is not 0 */
  uint8_t nz0;    /* with -base: so in the profile's sources alone */
} tr_group;
typedef struct tr_groups {
  pcol_view stack, ls, source, weight, voff, vtype, vval;
  uint8_t *typed;  /* typed[source] = a pprof source with value types */
  uint32_t *cnt;   /* with a subtracted base: THE count rule (pcol_count_types), else NULL */
  int stored_count; /* a source not typed has its count stored (cnt) */
  uint32_t made_vt[2]; /* then the types cpu/nanoseconds and rprof.alloc/bytes (0: none) */
  uint32_t count_t; /* samples/count (0: none): the type a source of another kind's count adds
                     * up in, as its pprof copy's, with a pprof source's of one stack (-base) */
  uint64_t nsources, nvalues, ntypes, nstacks;
  uint32_t *key;   /* key[stack node] = pprof's key of its stack (pcol_pprof_stack_ids) */
  uint32_t *lsk;   /* lsk[label set] = pprof's key of its labels (pcol_pprof_labelset_ids) */
  uint64_t nls;
  uint32_t *head;  /* head[key] = its first group + 1 */
  size_t n, capv;
  tr_group *v;
  int signed_values; /* a negative value or weight: the sums below are kept */
  pcol_u64map tmap;  /* group << 32 | value type (0: the weight) -> tsum index */
  pcol_sum *tsum;    /* per (group, type) met: at most one a stored value or sample */
  size_t ntsum, captsum;
  const uint8_t *base; /* -base: base[source] & 2 for the base's sources (NULL: none) */
  pcol_u64map tmap0;   /* -base: the same of the profile's sources alone */
  pcol_sum *tsum0;
  size_t ntsum0, captsum0;
  int has_rt;          /* rt.drop: THE unit rule's drop of kin sources (as the views, weights.c) */
  pcol_rtime rt;
  pcol_sample_cols sc;
  pcol_error *err;
} tr_groups;

/* The samples columns the traces read: the selected rows of them only (a
 * range of a file in zstd blocks: their blocks, pcol_q_values_iter_need) */
static const int tr_need[] = {PCOL_C_S_STACK, PCOL_C_S_LABELSET, PCOL_C_S_SOURCE, PCOL_C_S_WEIGHT};

static int tr_groups_init(tr_groups *g, pcol_file *f, const pcol_select *sel, pcol_error *err) {
  g->err = err;
  g->nsources = pcol_rows(f, PCOL_T_SOURCES);
  g->nvalues = pcol_rows(f, PCOL_T_VALUES);
  g->ntypes = pcol_rows(f, PCOL_T_VALUE_TYPES);
  g->nstacks = pcol_rows(f, PCOL_T_STACKS);
  pcol_view svs, sty;
  pcol_view *sv[] = {&g->stack, &g->ls, &g->source, &g->weight};
  int lazy[PCOL_NCOLS(tr_need)];
  for (size_t k = 0; k < PCOL_NCOLS(tr_need); k++)
    PCOL_RETURN_NOT_OK(pcol_select_need_view(f, sel, tr_need[k], sv[k], &lazy[k], err));
  pcol_column_req req[] = {{&sty, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE},
                           {&svs, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  if (!(g->typed = calloc(g->nsources + 1, 1)) || !(g->head = calloc(g->nstacks + 1, sizeof *g->head)))
    return pcol_oom(err);
  uint32_t nkeys;
  PCOL_RETURN_NOT_OK(pcol_pprof_stack_ids(f, &g->key, &nkeys, err));
  PCOL_RETURN_NOT_OK(pcol_pprof_labelset_ids(f, &g->lsk, &nkeys, err));
  g->nls = pcol_rows(f, PCOL_T_LABELSETS);
  /* a pprof source's stored values are the pprof sample's values; another
   * source is as pprof reads its pprof export, whose values never are all
   * 0 but for a weight of 0 (a collapsed line of count 0) */
  int any_typed = 0;
  for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++) {
    uint32_t s = pcol_view_u32(&svs, r);
    pcol_str t;
    if (!s || s > g->nsources || g->typed[s]) continue;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&sty, s - 1), &t, err));
    if (pcol_str_is(t, PCOL_SRC_PPROF)) any_typed = g->typed[s] = 1;
  }
  const uint8_t *kinds;
  PCOL_RETURN_NOT_OK(pcol_base_kinds(f, &kinds, err));
  if (kinds[0]) PCOL_RETURN_NOT_OK(pcol_count_types(f, &g->cnt, err));
  PCOL_RETURN_NOT_OK(pcol_samples_count_vt(f, &g->count_t, err));
  /* a source of another kind whose count is stored (--normalize's copy of
   * one that counts by its weight, diffbase.c): its count is that value */
  for (uint64_t s = 1; g->cnt && s <= g->nsources; s++)
    g->stored_count |= !g->typed[s] && pcol_count_vt(g->cnt[s]) != 0;
  /* and its other values made so (its time, cpu/nanoseconds; Rprof's rprof.alloc/bytes) */
  for (uint64_t i = 0; g->stored_count && i < g->ntypes && !(g->made_vt[0] && g->made_vt[1]); i++) {
    pcol_view ty, un;
    pcol_str t, u;
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &t, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, i), &u, err));
    if (!g->made_vt[0] && pcol_str_is(t, PCOL_VT_CPU) && pcol_str_is(u, PCOL_UNIT_NANOSECONDS))
      g->made_vt[0] = (uint32_t)(i + 1);
    if (!g->made_vt[1] && pcol_str_is(t, PCOL_VALUE_RPROF_ALLOC) && pcol_str_is(u, "bytes"))
      g->made_vt[1] = (uint32_t)(i + 1);
  }
  int64_t lo = 0;
  if (any_typed || g->stored_count) { /* the value columns are read (and checked) only then */
    pcol_column_req vreq[] = {{&g->voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
                              {&g->vtype, PCOL_T_VALUES, PCOL_C_V_TYPE},
                              {&g->vval, PCOL_T_VALUES, PCOL_C_V_VALUE}};
    PCOL_RETURN_NOT_OK(pcol_columns(f, vreq, PCOL_NCOLS(vreq), err));
    for (uint64_t i = 0; i < g->nvalues; i++) {
      int64_t x = pcol_view_i64(&g->vval, i);
      lo = x < lo ? x : lo;
    }
  }
  /* (weights in zstd blocks under a range are not all read: the sums are
   * kept then, which gives the same groups when no value is negative) */
  for (uint64_t i = 0, ns = pcol_rows(f, PCOL_T_SAMPLES);
       i < ns && !lazy[3] && pcol_view_stored(&g->weight); i++) {
    int64_t x = pcol_view_i64(&g->weight, i);
    lo = x < lo ? x : lo;
  }
  if (kinds[0] & 2) g->base = kinds;
  g->signed_values = lo < 0 || lazy[3] || g->cnt; /* (a base's counts by the weight: negated) */
  /* a sample the unit rule drops (go's ScaleN) is no trace, as in top
   * (rd13a F6: it printed as a trace "0" and set the traces' order) */
  uint32_t *kn = NULL;
  double *kf = NULL;
  PCOL_RETURN_NOT_OK(pcol_value_kin(f, &kn, &kf, err));
  int kin = kn != NULL;
  free(kn);
  free(kf);
  if (kin && any_typed) {
    PCOL_RETURN_NOT_OK(pcol_rtime_init(&g->rt, f, err));
    g->has_rt = 1;
    PCOL_RETURN_NOT_OK(pcol_rtime_drop_init(&g->rt, f, sel, err));
    g->sc = (pcol_sample_cols){g->weight, g->voff, g->vtype, g->vval, g->nvalues, 0};
  }
  return PCOL_OK;
}

static void tr_groups_free(tr_groups *g) {
  free(g->typed);
  free(g->cnt);
  free(g->head);
  free(g->key);
  free(g->lsk);
  free(g->v);
  pcol_u64map_free(&g->tmap);
  free(g->tsum);
  pcol_u64map_free(&g->tmap0);
  free(g->tsum0);
  if (g->has_rt) pcol_rtime_free(&g->rt);
}

/* adds v to the sum of (group gi, type t); of the profile's sources alone
 * too when side0 */
static int tr_tsum_add(tr_groups *g, uint32_t gi, uint32_t t, int64_t v, int side0) {
  for (int k = 0; k < 1 + side0; k++) {
    pcol_u64map *m = k ? &g->tmap0 : &g->tmap;
    pcol_sum **sum = k ? &g->tsum0 : &g->tsum;
    size_t *n = k ? &g->ntsum0 : &g->ntsum, *cap = k ? &g->captsum0 : &g->captsum;
    uint32_t i;
    int added;
    int rc = pcol_u64map_get(m, (uint64_t)gi << 32 | t, &i, &added);
    if (rc) return rc == PCOL_ENOMEM ? pcol_oom(g->err) : pcol_error_set(g->err, rc, "too many traces");
    if (added) {
      if (PCOL_GROW(*sum, *n, *cap)) return pcol_oom(g->err);
      (*sum)[(*n)++] = 0;
    }
    (*sum)[i] += v;
  }
  return PCOL_OK;
}

/* The count of sample `row` of source s, not a pprof source's, by THE
 * count rule (the weight without a base) */
static int64_t tr_count(const tr_groups *g, uint32_t s, uint64_t row) {
  int64_t w = pcol_view_i64(&g->weight, row);
  if (!g->cnt || s > g->nsources) return w;
  if (g->stored_count && pcol_count_vt(g->cnt[s])) {
    pcol_sample_cols sc = {g->weight, g->voff, g->vtype, g->vval, g->nvalues, 0};
    return pcol_sample_count(&sc, row, g->cnt[s]);
  }
  return pcol_count_of_weight(w, g->cnt[s]);
}

/* 1 when a sample `row` of source s, not a pprof source, has a value
 * other than 0 in its pprof copy: its count, or its time stored beside a
 * stored count, or its rprof.alloc (made[], unless NULL; --normalize
 * scales them all, and go's ScaleN keeps a sample while one is not 0) */
static int tr_untyped_nz(const tr_groups *g, uint32_t s, uint64_t row, int64_t count, int64_t made[2]) {
  int64_t v[2] = {0, 0};
  for (int k = 0; k < 2 && g->stored_count && s <= g->nsources && pcol_count_vt(g->cnt[s]); k++)
    if (g->made_vt[k]) {
      pcol_sample_cols sc = {g->weight, g->voff, g->vtype, g->vval, g->nvalues, 0};
      (void)pcol_sample_value(&sc, row, g->made_vt[k], &v[k]);
    }
  if (made) made[0] = v[0], made[1] = v[1];
  if (count != 0 || v[0] != 0 || v[1] != 0) return 1;
  /* a stored count: its other stored values are its copy's too (a V8
   * sample's wall; --normalize of a time range: the part of a sample a
   * range cuts can count 0 and last 122 us, pcol_open_diff_base_select) */
  if (!(g->stored_count && s <= g->nsources && pcol_count_vt(g->cnt[s]))) return 0;
  uint64_t a = pcol_view_u64(&g->voff, row), e = pcol_view_u64(&g->voff, row + 1);
  for (uint64_t i = a; i < e && i < g->nvalues; i++)
    if (pcol_view_i64(&g->vval, i)) return 1;
  return 0;
}

/* 1 when sample `row` (of source s) has a value not 0 and the unit rule
 * keeps it */
static int tr_row_nz(const tr_groups *g, uint32_t s, uint64_t row) {
  if (!(s <= g->nsources && g->typed[s])) return tr_untyped_nz(g, s, row, tr_count(g, s, row), NULL);
  if (g->rt.drop.src && pcol_unit_dropped(&g->rt.drop, &g->sc, row, s)) return 0;
  uint64_t a = pcol_view_u64(&g->voff, row), e = pcol_view_u64(&g->voff, row + 1);
  if (e > g->nvalues) e = g->nvalues;
  for (uint64_t i = a; i < e; i++)
    if (pcol_view_i64(&g->vval, i)) return 1;
  return 0;
}

static int tr_group_row(void *p, uint64_t row, int64_t value) {
  tr_groups *g = p;
  uint32_t st = pcol_view_u32(&g->stack, row), ls = pcol_view_u32(&g->ls, row);
  if (st > g->nstacks) return pcol_error_set(g->err, PCOL_ECORRUPT, "sample %llu names stack %u, out of range",
                                             (unsigned long long)row + 1, st);
  /* a sample whose values are all 0 is none (pprof's Merge drops it as it
   * reads): it places no trace before a later sample of its stack does */
  uint32_t s = pcol_view_u32(&g->source, row);
  if (!tr_row_nz(g, s, row)) return PCOL_OK;
  if (ls > g->nls) return pcol_error_set(g->err, PCOL_ECORRUPT, "sample %llu names label set %u, out of range",
                                          (unsigned long long)row + 1, ls);
  uint32_t sk = g->key[st], gi = g->head[sk], lk = g->lsk[ls];
  while (gi && g->v[gi - 1].lsk != lk) gi = g->v[gi - 1].next;
  if (gi) {
    gi--;
  } else {
    if (g->n >= UINT32_MAX - 1) return pcol_error_set(g->err, PCOL_ETOOBIG, "more than 2^32 traces");
    if (PCOL_GROW(g->v, g->n, g->capv)) return pcol_oom(g->err);
    gi = (uint32_t)g->n++;
    g->v[gi] = (tr_group){row, UINT64_MAX, 0, 0, ls, lk, g->head[sk], 0, 0};
    g->head[sk] = gi + 1;
  }
  g->v[gi].sum += value;
  int side0 = g->base && !(s <= g->nsources && (g->base[s] & 2)), rc = PCOL_OK;
  if (g->base && !side0 && g->v[gi].row1 == UINT64_MAX) g->v[gi].row1 = row;
  uint8_t nz = 0;
  if (s <= g->nsources && g->typed[s]) {
    uint64_t a = pcol_view_u64(&g->voff, row), e = pcol_view_u64(&g->voff, row + 1);
    if (e > g->nvalues) e = g->nvalues;
    for (uint64_t i = a; i < e && !rc; i++) {
      int64_t val = pcol_view_i64(&g->vval, i);
      uint32_t t = pcol_view_u32(&g->vtype, i);
      if (g->signed_values && t && t <= g->ntypes) rc = tr_tsum_add(g, gi, t, val, side0);
      nz |= val != 0;
    }
  } else if (g->stored_count && s <= g->nsources && pcol_count_vt(g->cnt[s])) {
    /* its count stored: every value of its copy is stored (tr_untyped_nz) */
    uint64_t a = pcol_view_u64(&g->voff, row), e = pcol_view_u64(&g->voff, row + 1);
    for (uint64_t i = a; i < e && i < g->nvalues && !rc; i++) {
      int64_t val = pcol_view_i64(&g->vval, i);
      uint32_t t = pcol_view_u32(&g->vtype, i);
      if (g->signed_values && t && t <= g->ntypes) rc = tr_tsum_add(g, gi, t, val, side0);
      nz |= val != 0;
    }
  } else {
    int64_t w = tr_count(g, s, row), made[2]; /* THE count rule */
    if (g->signed_values) rc = tr_tsum_add(g, gi, g->count_t, w, side0);
    nz |= tr_untyped_nz(g, s, row, w, made);
    for (int k = 0; k < 2 && !rc; k++)
      if (made[k] && g->signed_values) rc = tr_tsum_add(g, gi, g->made_vt[k], made[k], side0);
  }
  g->v[gi].nz |= nz;
  if (side0) g->v[gi].nz0 |= nz;
  return rc;
}

/* -mean's second pass: the divisor of each kept sample added to its group
 * (the groups are those of the first pass: the same kept rows) */
static int tr_group_div(void *p, uint64_t row, int64_t value) {
  tr_groups *g = p;
  uint32_t st = pcol_view_u32(&g->stack, row), ls = pcol_view_u32(&g->ls, row);
  uint32_t gi = st <= g->nstacks && ls <= g->nls ? g->head[g->key[st]] : 0;
  while (gi && g->v[gi - 1].lsk != g->lsk[ls]) gi = g->v[gi - 1].next;
  if (!gi && !tr_row_nz(g, pcol_view_u32(&g->source, row), row)) return PCOL_OK; /* (tr_group_row) */
  if (!gi) return pcol_error_set(g->err, PCOL_ECORRUPT, "sample %llu: no trace for its divisor",
                                 (unsigned long long)row + 1);
  g->v[gi - 1].dsum += value;
  return PCOL_OK;
}

static int64_t clamp64(pcol_sum x) { return x > INT64_MAX ? INT64_MAX : x < INT64_MIN ? INT64_MIN : (int64_t)x; }

/* pprof keeps a merged sample unless every value adds up to 0 (with
 * signed values: its sums, marked first in tr_groups_kept) */
static void tr_groups_kept(tr_groups *g) {
  if (!g->signed_values) return; /* nz: a member had a value other than 0 */
  for (size_t i = 0; i < g->n; i++) g->v[i].nz = g->v[i].nz0 = 0;
  for (size_t i = 0; i < g->tmap.cap; i++)
    if (g->tmap.k[i] && g->tsum[g->tmap.v[i]] != 0) g->v[(g->tmap.k[i] - 1) >> 32].nz = 1;
  for (size_t i = 0; i < g->tmap0.cap; i++)
    if (g->tmap0.k[i] && g->tsum0[g->tmap0.v[i]] != 0) g->v[(g->tmap0.k[i] - 1) >> 32].nz0 = 1;
}

/* -base: pprof's order of the merged samples (tr_group): the groups the
 * profile's sources keep (nz0) in their order, then the others by their
 * first row of the base's.  *ord (free it): the group indices in that
 * order, NULL without a base (the groups' own order). */
typedef struct tr_place {
  uint64_t key; /* nz0: the first row; else past them, the base's first row */
  uint32_t gi;
  uint8_t later;
} tr_place;
static int tr_place_cmp(const void *pa, const void *pb) {
  const tr_place *a = pa, *b = pb;
  if (a->later != b->later) return a->later ? 1 : -1;
  return (a->key > b->key) - (a->key < b->key);
}
static int tr_base_order(const tr_groups *g, uint32_t **ord) {
  *ord = NULL;
  if (!g->base || !g->n) return PCOL_OK;
  tr_place *p = malloc(g->n * sizeof *p);
  uint32_t *o = malloc(g->n * sizeof *o);
  if (!p || !o) {
    free(p);
    free(o);
    return pcol_oom(g->err);
  }
  for (size_t i = 0; i < g->n; i++) {
    const tr_group *x = &g->v[i];
    p[i] = (tr_place){x->nz0 ? x->row : x->row1, (uint32_t)i, !x->nz0};
  }
  qsort(p, g->n, sizeof *p, tr_place_cmp);
  for (size_t i = 0; i < g->n; i++) o[i] = p[i].gi;
  free(p);
  *ord = o;
  return PCOL_OK;
}

/* ------------------------------------------------------------- tags */
typedef struct tags_acc {
  int64_t *per_ls; /* value per label set */
  uint8_t *seen;   /* a kept sample has the label set (its value may be 0) */
  uint64_t nls;
  pcol_view ls, st;
  const pcol_filter *root; /* top --by label: the filter with -tagroot's frame, else NULL */
  tr_groups *g; /* the second pass (tags_compute): the kept rows into pprof's merged samples */
  pcol_error *err;
} tags_acc;

static int tags_add(void *p, uint64_t row, int64_t v) {
  tags_acc *a = p;
  /* pprof's filters, run before -tags even when none is given, drop a
   * sample without locations (profile/filter.go focusedAndNotIgnored);
   * -tagroot's frame gives it one, and a filter may hide that frame */
  if (a->root ? !pcol_filter_root_shown(a->root, row) : pcol_view_u32(&a->st, row) == 0) return 0;
  uint32_t ls = pcol_view_u32(&a->ls, row);
  if (ls > a->nls)
    return pcol_error_set(a->err, PCOL_ECORRUPT, "sample %llu names label set %u, out of range",
                          (unsigned long long)row + 1, ls);
  if (a->g) return tr_group_row(a->g, row, v);
  a->seen[ls] = 1;
  if (__builtin_add_overflow(a->per_ls[ls], v, &a->per_ls[ls]))
    return pcol_error_set(a->err, PCOL_ETOOBIG, "sum of values overflows 64 bits");
  return 0;
}

typedef struct tags_priv {
  pcol_q_keytab keys, vals; /* label keys; "key id, value" pairs */
  pcol_tag_value *values;
} tags_priv;

static int tag_value_cmp(const void *pa, const void *pb) {
  const pcol_tag_value *a = pa, *b = pb;
  uint64_t x = a->value_abs, y = b->value_abs;
  if (x != y) return x > y ? -1 : 1;
  size_t n = a->name.len < b->name.len ? a->name.len : b->name.len;
  int c = n ? memcmp(a->name.ptr, b->name.ptr, n) : 0;
  return c ? c : (a->name.len > b->name.len) - (a->name.len < b->name.len);
}

static int tag_key_cmp(const void *pa, const void *pb) {
  const pcol_tag_key *a = pa, *b = pb;
  size_t n = a->key.len < b->key.len ? a->key.len : b->key.len;
  int c = n ? memcmp(a->key.ptr, b->key.ptr, n) : 0;
  return c ? c : (a->key.len > b->key.len) - (a->key.len < b->key.len);
}

int pcol_q_labelcols_open(pcol_file *f, pcol_q_labelcols *c, pcol_error *err) {
  pcol_column_req req[] = {{&c->off, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
                           {&c->key, PCOL_T_LABELS, PCOL_C_LB_KEY},
                           {&c->str, PCOL_T_LABELS, PCOL_C_LB_STR},
                           {&c->num, PCOL_T_LABELS, PCOL_C_LB_NUM},
                           {&c->unit, PCOL_T_LABELS, PCOL_C_LB_UNIT}};
  c->nlabels = pcol_rows(f, PCOL_T_LABELS);
  return pcol_columns(f, req, PCOL_NCOLS(req), err);
}

/* Label i's value as -tags names it: its string, or its number in its
 * key's unit (report.go printTags: o.NumLabelUnits[key], whatever unit the
 * label gives: pcol_label_key_unit; "64B"), in num (>= 96 bytes). */
static int label_value_name(pcol_file *f, const pcol_q_labelcols *c, const pcol_label_keys *keys,
                            uint64_t i, const char *unit, char *num, size_t cap, pcol_str *s,
                            pcol_error *err) {
  uint32_t sid = pcol_view_u32(&c->str, i);
  if (sid) return pcol_string(f, sid, s, err);
  pcol_str u;
  PCOL_RETURN_NOT_OK(pcol_label_key_unit(f, keys, pcol_view_u32(&c->key, i), &u, err));
  pcol_q_label_scaled(pcol_view_i64(&c->num, i), u, unit, num, cap);
  s->ptr = num;
  s->len = strlen(num);
  return PCOL_OK;
}

/* The filter of sel with -tagroot=KEY's frame (pcol_filter_root): per label
 * set, the frame is named as pcol_open_tag_frames names it
 * (pcol_q_tagframe_name: a key's values in the sample's order, as
 * pprof's), "" for a set without it. */
static int root_filter_build(pcol_file *f, const pcol_select *sel, const char *key,
                             pcol_filter *flt, pcol_error *err) {
  int rc = pcol_filter_build(f, sel, flt, err);
  pcol_str k = {key, strlen(key)};
  if (rc || !flt->node_state) /* (no name filter: the frame only gives each sample a stack) */
    return rc ? rc : pcol_filter_root(flt, sel, NULL, 0, NULL, k, err);
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS);
  pcol_q_labelcols lc;
  pcol_q_keytab names;
  memset(&names, 0, sizeof names);
  pcol_buf name = {0};
  pcol_str *nm = NULL;
  uint32_t *ls_name = calloc(nls + 1, sizeof *ls_name);
  if (!ls_name) rc = pcol_oom(err);
  if (!rc) rc = pcol_q_labelcols_open(f, &lc, err);
  for (uint64_t ls = 1; !rc && ls <= nls; ls++) {
    /* the frame as pcol_open_tag_frames names it (no value: no name, "") */
    if (!(rc = pcol_q_tagframe_name(f, &lc, ls, key, k.len, sel ? sel->label_unit : NULL, &name, NULL, err)) &&
        name.len)
      rc = pcol_q_key_intern(&names, (const char *)name.data, name.len, 1, &ls_name[ls], err);
  }
  if (!rc && !(nm = calloc((size_t)names.n + 1, sizeof *nm))) rc = pcol_oom(err);
  for (uint32_t i = 1; !rc && i <= names.n; i++) nm[i] = names.s[i];
  if (!rc) rc = pcol_filter_root(flt, sel, nm, (uint64_t)names.n + 1, ls_name, k, err);
  free(nm);
  free(ls_name);
  pcol_buf_free(&name);
  pcol_q_keytab_free(&names);
  if (rc) pcol_filter_free(flt);
  return rc;
}

/* root_key: top --by label's -tagroot=KEY frame (root_filter_build), else NULL */
static int tags_compute(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                        const char *root_key, pcol_tags *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  out->value = *v;
  tags_priv *p = calloc(1, sizeof *p);
  tags_acc a = {0};
  pcol_filter flt;
  int64_t *sums = NULL;
  uint32_t *val_key = NULL;
  size_t val_cap = 0, sums_cap = 0;
  pcol_buf tmp = {0};
  pcol_q_tagkeys ks;
  memset(&ks, 0, sizeof ks);
  pcol_label_keys lk;
  memset(&lk, 0, sizeof lk);
  if (!p) return pcol_oom(err);
  out->priv_ = p;
  a.nls = pcol_rows(f, PCOL_T_LABELSETS);
  a.err = err;
  pcol_q_labelcols lc;
  /* the label sets and stacks of the selected rows only (a range: their blocks) */
  static const int need[] = {PCOL_C_S_LABELSET, PCOL_C_S_STACK};
  int lazy;
  int rc = pcol_select_need_view(f, sel, need[0], &a.ls, &lazy, err);
  if (!rc) rc = pcol_select_need_view(f, sel, need[1], &a.st, &lazy, err);
  if (!rc) rc = pcol_q_labelcols_open(f, &lc, err);
  if (!rc) rc = pcol_label_keys_load(f, &lk, err);
  if (!rc) rc = pcol_q_tagkeys_init(&ks, sel, err);
  if (!rc) rc = root_key ? root_filter_build(f, sel, root_key, &flt, err) : pcol_filter_build(f, sel, &flt, err);
  else memset(&flt, 0, sizeof flt);
  if (root_key) a.root = &flt;
  if (!rc && (!(a.per_ls = calloc(a.nls + 1, sizeof *a.per_ls)) || !(a.seen = calloc(a.nls + 1, 1))))
    rc = pcol_oom(err);
  if (!rc) rc = pcol_q_values_iter_need(f, sel, &flt, v, need, PCOL_NCOLS(need), tags_add, &a, err);
  /* pprof lists a value whose samples add up to 0 too, unless its merged
   * samples are all dropped (every value 0, as a base can cancel them):
   * when a label set's value is 0, the samples are grouped as pprof merges
   * them (tr_groups, as -traces) and a label set is listed when a kept
   * merged sample has it */
  int zero = 0;
  for (uint64_t ls = 1; !rc && ls <= a.nls && !zero; ls++) zero = a.seen[ls] && !a.per_ls[ls];
  tr_groups g;
  memset(&g, 0, sizeof g);
  if (zero) {
    a.g = &g;
    rc = tr_groups_init(&g, f, sel, err);
    if (!rc) rc = pcol_q_values_iter_need(f, sel, &flt, v, tr_need, PCOL_NCOLS(tr_need), tags_add, &a, err);
    if (!rc) tr_groups_kept(&g);
    if (!rc) memset(a.seen, 0, a.nls + 1);
    for (size_t i = 0; !rc && i < g.n; i++) a.seen[g.v[i].ls] |= g.v[i].nz;
  }
  tr_groups_free(&g);
  for (uint64_t ls = 1; !rc && ls <= a.nls; ls++) {
    if (!a.seen[ls]) continue;
    uint64_t lo = pcol_view_u64(&lc.off, ls - 1), hi = pcol_view_u64(&lc.off, ls);
    if (hi > lc.nlabels) hi = lc.nlabels;
    for (uint64_t i = lo; i < hi && !rc; i++) {
      pcol_str k, s;
      uint32_t ksid = pcol_view_u32(&lc.key, i);
      int shown;
      if ((rc = pcol_string(f, ksid, &k, err)) || (rc = pcol_q_tagkeys_kept(&ks, ksid, k, &shown, err)))
        break;
      if (!shown) continue; /* --tagshow/--taghide */
      uint32_t kid, vid;
      if ((rc = pcol_q_key_intern(&p->keys, k.ptr ? k.ptr : "", k.ptr ? k.len : 0, 0, &kid, err)))
        break;
      char num[96]; /* a number: pprof prints it in its unit, scaled ("1.50MB") */
      if ((rc = label_value_name(f, &lc, &lk, i, sel ? sel->label_unit : NULL, num, sizeof num, &s, err)))
        break;
      /* the pair (key id, value) as one interned byte string */
      tmp.len = 0;
      if (pcol_buf_append(&tmp, &kid, sizeof kid) ||
          pcol_buf_append(&tmp, s.ptr ? s.ptr : "", s.ptr ? s.len : 0)) {
        rc = pcol_oom(err);
        break;
      }
      if ((rc = pcol_q_key_intern(&p->vals, (const char *)tmp.data, tmp.len, 1, &vid, err))) break;
      while (vid >= sums_cap) {
        size_t had = sums_cap;
        if (pcol_grow(&sums, &sums_cap, sizeof *sums)) { rc = pcol_oom(err); break; }
        memset(sums + had, 0, (sums_cap - had) * sizeof *sums);
      }
      while (!rc && vid >= val_cap) {
        if (pcol_grow(&val_key, &val_cap, sizeof *val_key)) rc = pcol_oom(err);
      }
      if (rc) break;
      val_key[vid] = kid;
      if (__builtin_add_overflow(sums[vid], a.per_ls[ls], &sums[vid]))
        rc = pcol_error_set(err, PCOL_ETOOBIG, "sum of values overflows 64 bits");
    }
  }
  if (!rc) {
    out->nkeys = p->keys.n;
    out->keys = calloc(p->keys.n + 1, sizeof *out->keys);
    p->values = calloc(p->vals.n + 1, sizeof *p->values);
    if (!out->keys || !p->values) rc = pcol_oom(err);
  }
  if (!rc) {
    /* values grouped by key: count, offsets, place */
    size_t *cnt = calloc(p->keys.n + 2, sizeof *cnt);
    if (!cnt) rc = pcol_oom(err);
    for (uint32_t i = 1; !rc && i <= p->vals.n; i++) cnt[val_key[i]]++;
    size_t off = 0;
    for (uint32_t k = 1; !rc && k <= p->keys.n; k++) {
      out->keys[k - 1].key = p->keys.s[k];
      out->keys[k - 1].values = p->values + off;
      off += cnt[k];
    }
    for (uint32_t i = 1; !rc && i <= p->vals.n; i++) {
      pcol_tag_key *tk = &out->keys[val_key[i] - 1];
      pcol_tag_value *tv = &tk->values[tk->nvalues++];
      pcol_str s = p->vals.s[i];
      tv->name.ptr = s.ptr + sizeof(uint32_t);
      tv->name.len = s.len - sizeof(uint32_t);
      tv->value = sums[i];
      tv->value_abs = sums[i] < 0 ? -(uint64_t)sums[i] : (uint64_t)sums[i];
      tk->total += sums[i];
    }
    for (uint32_t k = 0; !rc && k < p->keys.n; k++)
      qsort(out->keys[k].values, out->keys[k].nvalues, sizeof *out->keys[k].values, tag_value_cmp);
    if (!rc) qsort(out->keys, out->nkeys, sizeof *out->keys, tag_key_cmp);
    free(cnt);
  }
  free(a.per_ls);
  free(a.seen);
  free(sums);
  free(val_key);
  pcol_buf_free(&tmp);
  pcol_filter_free(&flt);
  pcol_q_tagkeys_free(&ks);
  pcol_label_keys_free(&lk);
  if (rc) pcol_tags_free(out);
  return rc;
}

int pcol_tags_compute(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      pcol_tags *out, pcol_error *err) {
  return tags_compute(f, sel, v, NULL, out, err);
}

void pcol_tags_free(pcol_tags *t) {
  if (!t) return;
  tags_priv *p = t->priv_;
  if (p) {
    pcol_q_keytab_free(&p->keys);
    pcol_q_keytab_free(&p->vals);
    free(p->values);
    free(p);
  }
  free(t->keys);
  memset(t, 0, sizeof *t);
}

/* ----------------------------------------------------------- traces */
typedef struct tr_ctx {
  pcol_q_fctx fc;
  const pcol_filter *flt;
  pcol_q_tagkeys ks; /* --tagshow/--taghide */
  pcol_label_keys lk; /* each numeric key's unit */
  pcol_view stack, ls;
  pcol_q_labelcols lc;
  uint64_t nls;
  pcol_str *frames;
  uint8_t *inl;
  size_t nfr, capf, capi;
  pcol_label_kv *labels;
  size_t caplab;
  uint32_t *locs;
  size_t nlocs, caplocs;
  int (*fn)(void *ctx, const pcol_trace *t);
  /* each frame is named by the key top counts it under in its views of
   * frames (pcol_q_top_keys, build_loc_keys of top.c: THE rule of names,
   * the nameless frames' too, shared with tree, peek and the graph) */
  pcol_q_topkeys k;
  void *ctx;
  pcol_error *err;
} tr_ctx;

/* A frame is named by the key top counts it under: the key of a line row
 * (none: no frame, as an Rprof line without a line number by line), or,
 * for a location without lines, whose lines have no key but one has no
 * function, the location's own key (its mapping's name).  Pushes the key's
 * name, if any. */
static int tr_push_key(tr_ctx *c, uint32_t key, int inl) {
  if (!key || key > c->k.n) return PCOL_OK;
  if (PCOL_GROW(c->frames, c->nfr, c->capf) || PCOL_GROW(c->inl, c->nfr, c->capi))
    return pcol_oom(c->err);
  c->frames[c->nfr] = c->k.name[key];
  c->inl[c->nfr] = (uint8_t)inl;
  c->nfr++;
  return PCOL_OK;
}

static int tr_row(void *p, uint64_t row, int64_t value) {
  tr_ctx *c = p;
  uint32_t st = pcol_view_u32(&c->stack, row);
  int rc = pcol_stack_locations(c->fc.f, st, &c->locs, &c->nlocs, &c->caplocs, c->err);
  if (rc) return rc;
  c->nfr = 0;
  const uint8_t *hid = c->flt && c->flt->active ? c->flt->line_hidden : NULL;
  size_t nloc = c->nlocs;
  if (c->flt && c->flt->active && c->flt->node_cut) /* show_from: the outermost nodes go */
    for (uint32_t x = st; x && x <= c->fc.nstacks; x = pcol_view_u32(&c->fc.st_parent, x - 1))
      if (c->flt->node_cut[x] && nloc) nloc--;
  for (size_t i = 0; i < nloc; i++) { /* innermost first */
    uint32_t loc = c->locs[i];
    if (hid && c->flt->loc_hidden[loc]) continue;
    uint64_t a, e;
    pcol_frames_lines(&c->fc.fr, loc, &a, &e);
    if (a == e) { /* the location's own key, as top's */
      uint32_t j = 0, je = 0;
      if (loc <= c->k.nloc) j = c->k.loc_aoff[loc], je = c->k.loc_aoff[loc + 1];
      for (; j < je; j++)
        if ((rc = tr_push_key(c, c->k.loc_all[j] & 0x7fffffffu, 0))) return rc;
      continue;
    }
    uint64_t last = e;
    while (hid && last > a && hid[last - 1]) last--;
    size_t had = c->nfr;
    for (uint64_t li = a; li < e; li++)
      if (!(hid && hid[li]) && (rc = tr_push_key(c, c->k.line_key[li], li + 1 != last))) return rc;
    if (c->nfr == had && loc <= c->k.nloc && (rc = tr_push_key(c, c->k.loc_ukey[loc], 0))) return rc;
  }
  if (c->nfr == 0) return 0; /* pprof -traces skips a sample without frames */
  /* labels */
  uint32_t ls = pcol_view_u32(&c->ls, row);
  size_t nl = 0;
  if (ls && ls <= c->nls) {
    uint64_t lo = pcol_view_u64(&c->lc.off, ls - 1), hi = pcol_view_u64(&c->lc.off, ls);
    if (hi > c->lc.nlabels) hi = c->lc.nlabels;
    for (uint64_t i = lo; i < hi; i++) {
      if (PCOL_GROW(c->labels, nl, c->caplab)) return pcol_oom(c->err);
      pcol_label_kv *kv = &c->labels[nl];
      memset(kv, 0, sizeof *kv);
      uint32_t ksid = pcol_view_u32(&c->lc.key, i);
      int shown;
      if ((rc = pcol_string(c->fc.f, ksid, &kv->key, c->err)) ||
          (rc = pcol_q_tagkeys_kept(&c->ks, ksid, kv->key, &shown, c->err)))
        return rc;
      if (!shown) continue;
      nl++;
      uint32_t sid = pcol_view_u32(&c->lc.str, i);
      if (sid) {
        if ((rc = pcol_string(c->fc.f, sid, &kv->str, c->err))) return rc;
        if (!kv->str.ptr) kv->str.ptr = "";
      } else {
        /* named in its key's unit (report.go printTraces: o.NumLabelUnits[key]) */
        kv->num = pcol_view_i64(&c->lc.num, i);
        if ((rc = pcol_label_key_unit(c->fc.f, &c->lk, ksid, &kv->unit, c->err))) return rc;
      }
    }
  }
  pcol_trace t = {row, value, c->nfr, c->frames, c->inl, nl, c->labels};
  return c->fn(c->ctx, &t);
}

static int traces_run(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      const pcol_value_sel *div, pcol_by by,
                      int (*fn)(void *ctx, const pcol_trace *t), void *ctx, pcol_error *err);

int pcol_traces_iter(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                     int (*fn)(void *ctx, const pcol_trace *t), void *ctx, pcol_error *err) {
  return traces_run(f, sel, v, NULL, PCOL_BY_FUNCTION, fn, ctx, err);
}

int pcol_traces_iter_by(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                        const pcol_value_sel *div, pcol_by by,
                        int (*fn)(void *ctx, const pcol_trace *t), void *ctx, pcol_error *err) {
  if (!fn) return pcol_error_set(err, PCOL_EINVAL, "pcol_traces_iter_by: NULL argument");
  if ((unsigned)by > PCOL_BY_FILE_FUNCTION) return pcol_error_set(err, PCOL_EINVAL, "no such granularity");
  return traces_run(f, sel, v, div, by, fn, ctx, err);
}

int pcol_traces_iter_mean(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                          const pcol_value_sel *div, int (*fn)(void *ctx, const pcol_trace *t),
                          void *ctx, pcol_error *err) {
  if (!div || !fn) return pcol_error_set(err, PCOL_EINVAL, "pcol_traces_iter_mean: NULL argument");
  return traces_run(f, sel, v, div, PCOL_BY_FUNCTION, fn, ctx, err);
}

/* The traces; with div, each merged sample's value over its sum of div
 * (report.go printTraces: Go's integer division, a divisor of 0 leaves it) */
static int traces_run(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      const pcol_value_sel *div, pcol_by by,
                      int (*fn)(void *ctx, const pcol_trace *t), void *ctx, pcol_error *err) {
  tr_ctx c;
  memset(&c, 0, sizeof c);
  c.fn = fn;
  c.ctx = ctx;
  c.err = err;
  c.nls = pcol_rows(f, PCOL_T_LABELSETS);
  pcol_filter flt;
  memset(&flt, 0, sizeof flt);
  int rc = pcol_q_labelcols_open(f, &c.lc, err);
  if (!rc) rc = pcol_q_tagkeys_init(&c.ks, sel, err);
  if (!rc) rc = pcol_label_keys_load(f, &c.lk, err);
  if (!rc) rc = pcol_q_fctx_init(&c.fc, f, err);
  if (!rc) rc = pcol_filter_build(f, sel, &flt, err);
  c.flt = &flt;
  int keyed = 0; /* (by function too: tree's keys, review rd15a F5) */
  if (!rc && !(rc = pcol_q_top_keys(f, sel, by, 1, &c.k, err))) keyed = 1;
  tr_groups g;
  memset(&g, 0, sizeof g);
  if (!rc) rc = tr_groups_init(&g, f, sel, err);
  /* the first kept row of each group (tr_row) was handed over: readable */
  c.stack = g.stack;
  c.ls = g.ls;
  if (!rc)
    rc = pcol_q_values_iter_need(f, sel, &flt, v, tr_need, PCOL_NCOLS(tr_need), tr_group_row, &g, err);
  if (!rc && div)
    rc = pcol_q_values_iter_need(f, sel, &flt, div, tr_need, PCOL_NCOLS(tr_need), tr_group_div, &g, err);
  if (!rc) tr_groups_kept(&g);
  uint32_t *ord = NULL;
  if (!rc) rc = tr_base_order(&g, &ord);
  for (size_t i = 0; !rc && i < g.n; i++) {
    const tr_group *x = &g.v[ord ? ord[i] : i];
    if (!x->nz) continue;
    int64_t value = clamp64(x->sum), d = div ? clamp64(x->dsum) : 0;
    if (d && !(value == INT64_MIN && d == -1)) value /= d;
    rc = tr_row(&c, x->row, value);
    if (rc > 0) rc = 0, i = g.n; /* the callback asked to stop */
  }
  free(ord);
  tr_groups_free(&g);
  pcol_filter_free(&flt);
  pcol_q_tagkeys_free(&c.ks);
  pcol_label_keys_free(&c.lk);
  if (keyed) pcol_q_topkeys_free(&c.k);
  pcol_buf_free(&c.fc.scratch);
  free(c.frames);
  free(c.inl);
  free(c.labels);
  free(c.locs);
  return rc;
}

size_t pcol_trace_stack_text(const pcol_trace *t, char *buf, size_t cap) {
  size_t len = 0;
  for (size_t i = t->nframes; i-- > 0;) {
    const pcol_str *s = &t->frames[i];
    size_t n = s->ptr ? s->len : 0, at = len;
    if (at < cap) {
      size_t k = n < cap - at ? n : cap - at;
      if (k) memcpy(buf + at, s->ptr, k);
      pcol_frame_sanitize(buf + at, k);
    }
    len += n;
    if (i) {
      if (len < cap) buf[len] = ';';
      len++;
    }
  }
  return len;
}

static int sum_abs(void *p, uint64_t row, int64_t v) {
  pcol_sum *t = p;
  (void)row;
  *t += v < 0 ? -(pcol_sum)v : v;
  return 0;
}

/* top --by label:KEY: a row per value of the string or numeric label KEY
 * (pcol_tags_compute's names and values), flat = cum = the value of the
 * selected samples carrying it; samples without KEY make no row, and the
 * total stays the selection's.  The names are interned in the result's key
 * table, so it lives and is freed like any pcol_top. */
int pcol_top_by_label(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      const char *key, pcol_top *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  out->value = *v;
  pcol_tags tg;
  pcol_sum *w = NULL;
  /* pprof's -tagroot makes its label nodes before -tagshow/-taghide and
   * the filters run: a sample without locations gets one, and counts */
  pcol_select all_keys = sel ? *sel : (pcol_select){0};
  all_keys.tag_show = all_keys.tag_hide = NULL;
  int rc = pcol_label_key_check(f, "by label", key, err);
  if (!rc) rc = tags_compute(f, &all_keys, v, key, &tg, err);
  if (rc) return rc;
  pcol_q_top_priv *p = calloc(1, sizeof *p);
  if (!p) rc = pcol_oom(err);
  if (!rc && !(sel && sel->relative)) {
    rc = pcol_stack_weights(f, sel, v, &w, &out->total, err);
    free(w);
  } else if (!rc) {
    /* -relative_percentages: the kept samples' total, those without
     * locations too, as the rows count them (their -tagroot node keeps
     * them; weights.c leaves them out of the other views' relative total) */
    pcol_filter flt;
    rc = root_filter_build(f, sel, key, &flt, err);
    if (!rc) rc = pcol_q_values_iter(f, sel, &flt, v, sum_abs, &out->total, err);
    int found = 0; /* a base subtracted: pprof's total, as every view's (weights.c) */
    pcol_sum base = 0;
    if (!rc) rc = pcol_q_base_total(f, sel, &flt, v, &found, &base, err);
    if (!rc && found) out->total = base;
    pcol_filter_free(&flt);
  }
  const pcol_tag_key *k = NULL;
  for (size_t i = 0; !rc && i < tg.nkeys; i++)
    if (tg.keys[i].key.len == strlen(key) && !memcmp(tg.keys[i].key.ptr, key, tg.keys[i].key.len))
      k = &tg.keys[i];
  if (!rc && k && !(out->rows = calloc(k->nvalues ? k->nvalues : 1, sizeof *out->rows)))
    rc = pcol_oom(err);
  for (size_t i = 0; !rc && k && i < k->nvalues; i++) {
    uint32_t id;
    if ((rc = pcol_q_key_intern(&p->keys, k->values[i].name.ptr, k->values[i].name.len, 1, &id, err))) break;
    pcol_top_row *r = &out->rows[out->nrows++];
    r->name = p->keys.s[id];
    r->key = id;
    r->flat = r->cum = k->values[i].value;
  }
  pcol_tags_free(&tg);
  out->priv_ = p;
  if (rc) {
    pcol_top_free(out);
    return rc;
  }
  pcol_top_sort(out, PCOL_SORT_FLAT);
  return PCOL_OK;
}
