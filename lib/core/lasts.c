/* lasts.c — THE thread rule, THE thread-name rule, THE interval rule and
 * THE span rule of lasts.h: which thread a sample is of, what that thread
 * is called, a source's sampling interval, and how long a sample lasts on
 * a timeline.  The speedscope and Firefox exports' threads and timelines
 * and the report's tracks and stack chart ask here.
 *
 * Why the span rule reads the data before any gap: a point sample's length
 * is what the profiler measured, perf's period (a cpu-clock sample at 4 kHz
 * stands for 250 us of CPU), pprof's count x period, Rprof's interval.
 * Gaps between samples say less: samples of several threads interleave (a
 * 6-thread perf recording has samples 1 us apart), and a thread's own gaps
 * jitter around the period (perf's 250 us period gave gaps from 195 us);
 * the smallest gap, which the exports took before, drew a 947 ms CPU
 * profile as a 5 ms timeline.  So a gap is measured between samples of one
 * thread only, and only where nothing else is known. */
#include "pcol.h"
#include "keys.h"    /* PCOL_THREAD_LABEL_KEYS, PCOL_THREAD_COMM_KEY, RPROF_META_INTERVAL_US, FIREFOX_META_INTERVAL_MS */
#include "bytes.h"   /* pcol_str_is */
#include "error.h"   /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "hash.h"    /* pcol_hset, pcol_hash_bytes */
#include "period.h"  /* pcol_period, pcol_source_period */
#include "count.h"   /* pcol_unit_ns, pcol_source_default_types */
#include "reader.h"  /* pcol_source_rows */
#include "lasts.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ threads */
const char *const pcol_thread_keys[PCOL_THREAD_NKEYS] = {PCOL_THREAD_LABEL_KEYS};
_Static_assert(sizeof((const char *[]){PCOL_THREAD_LABEL_KEYS}) / sizeof(const char *) == PCOL_THREAD_NKEYS,
               "PCOL_THREAD_NKEYS: the keys of PCOL_THREAD_LABEL_KEYS");
#define TKEYS pcol_thread_keys
#define NTK PCOL_THREAD_NKEYS
typedef pcol_thread_tuple tuple;

typedef struct lbcols {
  pcol_view off, key, str, num;
  uint64_t nls, nlb;
} lbcols;

static int lb_cols(pcol_file *f, lbcols *c, pcol_error *err) {
  c->nls = pcol_rows(f, PCOL_T_LABELSETS);
  c->nlb = pcol_rows(f, PCOL_T_LABELS);
  if (!c->nls) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &c->off, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_KEY, &c->key, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_STR, &c->str, err));
  return pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_NUM, &c->num, err);
}

/* The labels of set ls: rows [*a, *e) of the labels table (none: a = e). */
static void ls_rows(const lbcols *c, uint32_t ls, uint64_t *a, uint64_t *e) {
  *a = *e = 0;
  if (!ls || ls > c->nls) return;
  *a = pcol_view_u64(&c->off, ls - 1), *e = pcol_view_u64(&c->off, ls);
  if (*e > c->nlb) *e = c->nlb;
}

/* The thread tuple of label set ls (the first label of each key counts). */
static int tuple_of(pcol_file *f, const lbcols *c, uint32_t ls, tuple *t, pcol_error *err) {
  memset(t, 0, sizeof *t);
  uint64_t a, e;
  pcol_str k;
  ls_rows(c, ls, &a, &e);
  for (uint64_t i = a; i < e; i++) {
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&c->key, i), &k, err));
    for (int j = 0; j < NTK; j++) {
      if (t->kind[j] || !pcol_str_is(k, TKEYS[j])) continue;
      uint32_t sv = pcol_view_u32(&c->str, i);
      int64_t nv = pcol_view_i64(&c->num, i);
      if (sv) t->kind[j] = 1, t->v[j] = sv;
      else if (nv != PCOL_NA_I64) t->kind[j] = 2, t->v[j] = nv;
    }
  }
  return PCOL_OK;
}

typedef struct tset {
  tuple *t;
  size_t n, cap;
} tset;
static int tuple_eq(const void *ctx, uint32_t id, const void *key) {
  const tset *s = ctx;
  return !memcmp(&s->t[id - 1], key, sizeof(tuple));
}

int pcol_thread_classes(pcol_file *f, uint32_t **cls, uint32_t *n, pcol_error *err) {
  *cls = NULL;
  *n = 0;
  lbcols c;
  PCOL_RETURN_NOT_OK(lb_cols(f, &c, err));
  uint32_t *m = calloc(c.nls + 1, sizeof *m);
  if (!m) return pcol_oom(err);
  tset s = {0};
  pcol_hset hs = {0};
  int rc = PCOL_OK;
  for (uint64_t ls = 1; ls <= c.nls && !rc; ls++) {
    tuple t;
    if ((rc = tuple_of(f, &c, (uint32_t)ls, &t, err))) break;
    int any = 0;
    for (int j = 0; j < NTK; j++) any |= t.kind[j];
    if (!any) continue;
    uint64_t h = pcol_hash_bytes(&t, sizeof t, 0x74687264);
    uint32_t id = pcol_hset_find(&hs, h, tuple_eq, &s, &t);
    if (!id) {
      if (s.n == s.cap) {
        size_t nc = s.cap ? 2 * s.cap : 16;
        tuple *g = realloc(s.t, nc * sizeof *g);
        if (!g) {
          rc = pcol_oom(err);
          break;
        }
        s.t = g, s.cap = nc;
      }
      s.t[s.n++] = t;
      id = (uint32_t)s.n;
      if (pcol_hset_insert(&hs, h, id)) rc = pcol_oom(err);
    }
    m[ls] = id;
  }
  pcol_hset_free(&hs);
  free(s.t);
  if (rc) {
    free(m);
    return rc;
  }
  *cls = m;
  *n = (uint32_t)s.n;
  return PCOL_OK;
}

int pcol_thread_name_sets(pcol_file *f, const uint32_t *cls, uint32_t n, uint32_t **named, pcol_error *err) {
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS), ns = pcol_rows(f, PCOL_T_SAMPLES);
  uint32_t *m = calloc((size_t)n + 1, sizeof *m);
  int64_t *at = malloc(((size_t)n + 1) * sizeof *at); /* per thread: the time of the set chosen */
  if (!m || !at) {
    free(m), free(at);
    return pcol_oom(err);
  }
  /* a thread no sample has: its first label set */
  for (uint64_t ls = nls; ls >= 1; ls--)
    if (cls[ls] && cls[ls] <= n) m[cls[ls]] = (uint32_t)ls, at[cls[ls]] = PCOL_NA_I64;
  pcol_view sls, tim;
  int rc = ns ? pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &sls, err) : PCOL_OK;
  if (!rc && ns) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim, err);
  uint8_t *seen = rc ? NULL : calloc((size_t)n + 1, 1);
  if (!rc && !seen) rc = pcol_oom(err);
  for (uint64_t i = 0; i < ns && !rc; i++) {
    uint32_t ls = pcol_view_u32(&sls, i), k = ls <= nls ? cls[ls] : 0;
    if (!k || k > n) continue;
    int64_t t = pcol_view_i64(&tim, i);
    /* the latest time; at one time, or without times, the last row */
    if (seen[k] && t == PCOL_NA_I64 && at[k] != PCOL_NA_I64) continue;
    if (seen[k] && t != PCOL_NA_I64 && at[k] != PCOL_NA_I64 && t < at[k]) continue;
    seen[k] = 1, m[k] = ls, at[k] = t;
  }
  free(seen);
  free(at);
  if (rc) {
    free(m);
    return rc;
  }
  *named = m;
  return PCOL_OK;
}

int pcol_thread_tuple_of(pcol_file *f, uint32_t ls, pcol_thread_tuple *t, pcol_error *err) {
  lbcols c;
  memset(t, 0, sizeof *t);
  PCOL_RETURN_NOT_OK(lb_cols(f, &c, err));
  return tuple_of(f, &c, ls, t, err);
}

/* The first label of set ls with key `key`: *sv its string id (0: none),
 * *nv its number (PCOL_NA_I64: none); 0 when the set has none. */
static int label_of(pcol_file *f, const lbcols *c, uint32_t ls, const char *key, uint32_t *sv, int64_t *nv,
                    pcol_error *err) {
  uint64_t a, e;
  pcol_str k;
  *sv = 0, *nv = PCOL_NA_I64;
  ls_rows(c, ls, &a, &e);
  for (uint64_t i = a; i < e; i++) {
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&c->key, i), &k, err));
    if (!pcol_str_is(k, key)) continue;
    *sv = pcol_view_u32(&c->str, i);
    if (!*sv) *nv = pcol_view_i64(&c->num, i);
    return PCOL_OK;
  }
  return PCOL_OK;
}

int pcol_thread_name(pcol_file *f, uint32_t ls, int with_id, pcol_buf *out, pcol_error *err) {
  lbcols c;
  tuple t;
  PCOL_RETURN_NOT_OK(lb_cols(f, &c, err));
  PCOL_RETURN_NOT_OK(tuple_of(f, &c, ls, &t, err));
  /* the name: a string thread_name or thread label, else perf's comm (an
   * empty one is none) */
  pcol_str name = {0};
  int named = -1, id = -1;
  for (int j = 0; j < 2 && !name.len; j++)
    if (t.kind[j] == 1) {
      PCOL_RETURN_NOT_OK(pcol_string(f, (uint32_t)t.v[j], &name, err));
      if (name.ptr && name.len) named = j;
    }
  if (!name.len || !name.ptr) {
    uint32_t sv;
    int64_t nv;
    name = (pcol_str){0};
    PCOL_RETURN_NOT_OK(label_of(f, &c, ls, PCOL_THREAD_COMM_KEY, &sv, &nv, err));
    if (sv) PCOL_RETURN_NOT_OK(pcol_string(f, sv, &name, err));
  }
  int has_name = name.ptr && name.len;
  /* the id: the first other thread label */
  for (int j = 0; j < NTK && id < 0; j++)
    if (t.kind[j] && j != named) id = j;
  if (!has_name && id < 0)
    return pcol_buf_append(out, PCOL_THREAD_UNLABELLED, strlen(PCOL_THREAD_UNLABELLED)) ? pcol_oom(err) : PCOL_OK;
  if (has_name) {
    if (pcol_buf_append(out, name.ptr, name.len)) return pcol_oom(err);
    if (!with_id || id < 0) return PCOL_OK;
    if (pcol_buf_append(out, " ", 1)) return pcol_oom(err);
  }
  if (pcol_buf_append(out, TKEYS[id], strlen(TKEYS[id])) || pcol_buf_append(out, " ", 1)) return pcol_oom(err);
  if (t.kind[id] == 1) {
    pcol_str v;
    PCOL_RETURN_NOT_OK(pcol_string(f, (uint32_t)t.v[id], &v, err));
    return v.ptr && pcol_buf_append(out, v.ptr, v.len) ? pcol_oom(err) : PCOL_OK;
  }
  char b[24];
  int k = snprintf(b, sizeof b, "%lld", (long long)t.v[id]);
  return pcol_buf_append(out, b, (size_t)k) ? pcol_oom(err) : PCOL_OK;
}

int pcol_label_get(pcol_file *f, uint32_t ls, const char *key, uint32_t *sv, int64_t *nv, pcol_error *err) {
  lbcols c;
  *sv = 0, *nv = PCOL_NA_I64;
  PCOL_RETURN_NOT_OK(lb_cols(f, &c, err));
  return label_of(f, &c, ls, key, sv, nv, err);
}

/* The number whose decimal text s is (no sign, no leading zero), at most
 * PCOL_ID_MAX: *v; 0 when s is no such text. */
static int id_text(pcol_str s, int64_t *v) {
  if (!s.ptr || !s.len || s.len > 16 || (s.ptr[0] == '0' && s.len > 1)) return 0;
  int64_t n = 0;
  for (size_t i = 0; i < s.len; i++) {
    if (s.ptr[i] < '0' || s.ptr[i] > '9') return 0;
    n = n * 10 + (s.ptr[i] - '0'); /* (16 digits: no overflow) */
  }
  if (n > PCOL_ID_MAX) return 0;
  *v = n;
  return 1;
}

/* pcol_label_id with the label columns c read */
static int label_id(pcol_file *f, const lbcols *c, uint32_t ls, const char *key, int64_t *v, int *other,
                    pcol_error *err) {
  uint32_t sv;
  int64_t nv;
  int o = 0;
  *v = PCOL_NA_I64;
  PCOL_RETURN_NOT_OK(label_of(f, c, ls, key, &sv, &nv, err));
  if (sv) {
    pcol_str s;
    PCOL_RETURN_NOT_OK(pcol_string(f, sv, &s, err));
    o = !id_text(s, v);
  } else if (nv != PCOL_NA_I64) {
    if (nv >= -PCOL_ID_MAX && nv <= PCOL_ID_MAX) *v = nv;
    else o = 1;
  }
  if (other) *other = o;
  return PCOL_OK;
}

int pcol_label_id(pcol_file *f, uint32_t ls, const char *key, int64_t *v, int *other, pcol_error *err) {
  lbcols c;
  *v = PCOL_NA_I64;
  PCOL_RETURN_NOT_OK(lb_cols(f, &c, err));
  return label_id(f, &c, ls, key, v, other, err);
}

int pcol_thread_id(pcol_file *f, uint32_t ls, int64_t *v, int *lost, pcol_error *err) {
  int o1 = 0, o2 = 0;
  PCOL_RETURN_NOT_OK(pcol_label_id(f, ls, "tid", v, &o1, err));
  if (*v == PCOL_NA_I64) PCOL_RETURN_NOT_OK(pcol_label_id(f, ls, "thread_id", v, &o2, err));
  if (lost) *lost = *v == PCOL_NA_I64 && (o1 || o2);
  return PCOL_OK;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
  return (p > q) - (p < q);
}

/* r->id[kind] sorted, each id once */
static void ids_sort(pcol_real_ids *r, int kind) {
  size_t n = r->n[kind], m = 0;
  int64_t *v = r->id[kind];
  if (!n) return;
  qsort(v, n, sizeof *v, cmp_i64);
  for (size_t i = 0; i < n; i++)
    if (!m || v[m - 1] != v[i]) v[m++] = v[i];
  r->n[kind] = m;
}

int pcol_real_ids_init(pcol_file *f, const uint32_t *cls, uint32_t ncls, pcol_real_ids *r, pcol_error *err) {
  memset(r, 0, sizeof *r);
  lbcols c;
  PCOL_RETURN_NOT_OK(lb_cols(f, &c, err));
  if (!c.nls) return PCOL_OK;
  size_t cap[2] = {0, 0};
  uint8_t *seen = calloc((size_t)ncls + 1, 1); /* a thread class's tid read */
  if (!seen) return pcol_oom(err);
  int rc = PCOL_OK;
  for (uint64_t ls = 1; ls <= c.nls && !rc; ls++) {
    int64_t v[2] = {PCOL_NA_I64, PCOL_NA_I64};
    uint32_t k = cls ? cls[ls] : 0;
    if ((rc = label_id(f, &c, (uint32_t)ls, PCOL_THREAD_PID_KEY, &v[PCOL_ID_PID], NULL, err))) break;
    if (k && k <= ncls && !seen[k]) {
      seen[k] = 1;
      if ((rc = pcol_thread_id(f, (uint32_t)ls, &v[PCOL_ID_TID], NULL, err))) break;
    }
    for (int j = 0; j < 2 && !rc; j++) {
      if (v[j] == PCOL_NA_I64) continue;
      if (r->n[j] == cap[j]) {
        size_t nc = cap[j] ? 2 * cap[j] : 16;
        int64_t *g = nc < SIZE_MAX / sizeof *g ? realloc(r->id[j], nc * sizeof *g) : NULL;
        if (!g) {
          rc = pcol_oom(err);
          break;
        }
        r->id[j] = g, cap[j] = nc;
      }
      r->id[j][r->n[j]++] = v[j];
    }
  }
  free(seen);
  if (rc) {
    pcol_real_ids_free(r);
    return rc;
  }
  ids_sort(r, PCOL_ID_PID);
  ids_sort(r, PCOL_ID_TID);
  return PCOL_OK;
}

void pcol_real_ids_free(pcol_real_ids *r) {
  free(r->id[0]);
  free(r->id[1]);
  memset(r, 0, sizeof *r);
}

/* how many real ids of kind are <= v */
static size_t ids_upto(const pcol_real_ids *r, int kind, int64_t v) {
  size_t lo = 0, hi = r->n[kind];
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->id[kind][mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int pcol_real_id(const pcol_real_ids *r, int kind, int64_t v) {
  size_t i = ids_upto(r, kind, v);
  return i && r->id[kind][i - 1] == v;
}

int64_t pcol_made_up_id(const pcol_real_ids *r, int kind, int64_t from, uint64_t k) {
  /* the least v >= from + k with v - from - (real ids in [from, v]) = k:
   * from v = from + k up, each step adding the real ids passed (at most n
   * steps); the real ids below from do not count */
  size_t below = from > INT64_MIN ? ids_upto(r, kind, from - 1) : 0;
  int64_t v = from + (int64_t)k;
  for (;;) {
    int64_t w = from + (int64_t)k + (int64_t)(ids_upto(r, kind, v) - below);
    if (w == v) return v;
    v = w;
  }
}

/* THE made-up-id note: one sentence, whatever the export (Perfetto's,
 * the Chrome trace's, the Firefox Profiler's ids differ only in bound) */
void pcol_made_up_note(char *t, size_t cap, int kind, uint64_t n, const char *bound, const char *first,
                       size_t first_len, const char *kept_in) {
  const char *have = n > 1 ? "s have" : " has", *its = n > 1 ? "their" : "its";
  int fl = first ? (int)pcol_utf8_cut(first, first_len, 100) : 0;
  if (kind == PCOL_ID_PID)
    snprintf(t, cap, "%llu thread%s a pid label that is no whole number %s: %s pid is made up (the first "
             "label: \"%.*s\")", (unsigned long long)n, have, bound, its, fl, first ? first : "");
  else if (first)
    snprintf(t, cap, "%llu thread%s a tid or thread_id label that is no whole number %s: %s tid is made up, "
             "the label kept in %s %s (\"%.*s\"%s)", (unsigned long long)n, have, bound, its, its, kept_in, fl, first,
             n > 1 ? ", ..." : "");
  else
    snprintf(t, cap, "%llu thread%s a tid or thread_id label that is no whole number %s: %s tid is made up, "
             "the label kept in %s %s", (unsigned long long)n, have, bound, its, its, kept_in);
}

int pcol_label_text(pcol_file *f, uint32_t ls, const char *key, char *buf, size_t cap, pcol_error *err) {
  uint32_t sv;
  int64_t nv;
  pcol_str s = {0};
  buf[0] = 0;
  PCOL_RETURN_NOT_OK(pcol_label_get(f, ls, key, &sv, &nv, err));
  if (sv) PCOL_RETURN_NOT_OK(pcol_string(f, sv, &s, err));
  if (sv) snprintf(buf, cap, "%.*s", (int)pcol_utf8_cut(s.ptr, s.len, cap ? cap - 1 : 0), s.ptr ? s.ptr : "");
  else if (nv != PCOL_NA_I64) snprintf(buf, cap, "%lld", (long long)nv);
  return PCOL_OK;
}

/* ------------------------------------------------------------ interval */
int pcol_meta_double(pcol_file *f, uint32_t s, const char *key, double *v) {
  pcol_str fi;
  if (pcol_meta_get(f, s, key, &fi, NULL) != PCOL_OK || !fi.ptr || fi.len >= 32) return 0;
  char t[32], *end;
  memcpy(t, fi.ptr, fi.len);
  t[fi.len] = 0;
  *v = strtod(t, &end);
  return end != t && !*end && isfinite(*v);
}

int64_t pcol_source_interval_stated(pcol_file *f, uint32_t s, const char **what) {
  pcol_period pd; /* THE period rule (period.c) */
  int64_t v, k;
  const char *w_ = NULL, **w = what ? what : &w_;
  *w = "period";
  if (pcol_source_period(f, s, &pd, NULL) == PCOL_OK && pd.has_period && pd.period > 0 && pd.has_unit &&
      (k = pcol_unit_ns(pd.unit)) && pd.period <= INT64_MAX / k)
    return pd.period * k;
  double ms;
  *w = "interval (Firefox meta.interval)";
  if (pcol_meta_double(f, s, FIREFOX_META_INTERVAL_MS, &ms) && ms > 0 && ms < 9e9) return (int64_t)llround(ms * 1e6);
  *w = "interval (Rprof sample.interval)";
  if (pcol_meta_get_i64(f, s, RPROF_META_INTERVAL_US, &v, NULL) == PCOL_OK && v > 0 && v < INT64_MAX / 1000)
    return v * 1000;
  /* (bounded as firefox.interval_ms is: a speedscope file's pcolInterval
   * of INT64_MAX laid its copy's samples past what any reader takes) */
  *w = "interval (speedscope pcolInterval)";
  if (pcol_meta_get_i64(f, s, PCOL_META_INTERVAL_NS, &v, NULL) == PCOL_OK && v > 0 && v < 9000000000000000LL)
    return v;
  *w = NULL;
  return 0;
}

int64_t pcol_source_interval(pcol_file *f, uint32_t s) {
  int64_t ns = pcol_source_interval_stated(f, s, NULL), dur;
  /* an interval longer than the profile it samples is no sampling
   * interval: Pyroscope's pprof files state 10^9 ms for an hour's profile,
   * whose samples laid 10^9 ms apart spread over 14 to 53 years (the
   * Firefox export; an Rprof export's ticks overflowed the times a reader
   * adds up).  The duration as the source states it: OTLP's, else pprof's
   * (THE start rule's keys, wall.c) */
  if (ns > 0 && ((pcol_meta_get_i64(f, s, OTLP_META_DURATION_NANO, &dur, NULL) == PCOL_OK && dur > 0) ||
                 (pcol_meta_get_i64(f, s, PPROF_META_DURATION_NANOS, &dur, NULL) == PCOL_OK && dur > 0)) &&
      ns > dur)
    return 0;
  return ns;
}

int pcol_source_period_or_interval(pcol_file *f, uint32_t s, pcol_period *p, pcol_error *err) {
  PCOL_RETURN_NOT_OK(pcol_source_period(f, s, p, err));
  int64_t ns;
  if (p->has_type || p->has_unit || p->has_period || (ns = pcol_source_interval(f, s)) <= 0) return PCOL_OK;
  /* the source's time: its default type when a time, else its first type
   * of a time unit (a Firefox copy's tracing-ms weight, stored in ns) */
  pcol_view svv, vtt, vtu;
  const uint32_t *rows;
  size_t n;
  uint32_t d = 0;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &svv, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vtt, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &vtu, err));
  PCOL_RETURN_NOT_OK(pcol_source_rows(f, PCOL_T_SOURCE_VALUE_TYPES, s, &rows, &n, err));
  PCOL_RETURN_NOT_OK(pcol_source_default_types(f, s, s, &d, err));
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  pcol_str t = {"cpu", 3}, u = {PCOL_UNIT_NANOSECONDS, sizeof PCOL_UNIT_NANOSECONDS - 1};
  int64_t k = 1;
  for (size_t j = 0; j <= n; j++) {
    uint32_t vt = j == 0 ? d : pcol_view_u32(&svv, rows[j - 1]);
    if (vt == 0 || vt > nvt) continue; /* (the count, Rprof's time: cpu in ns) */
    pcol_str ty, un;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&vtt, vt - 1), &ty, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&vtu, vt - 1), &un, err));
    int64_t kk = pcol_unit_ns(un);
    if (kk) {
      t = ty, u = un, k = kk;
      break;
    }
  }
  p->type = t, p->unit = u;
  p->has_type = p->has_unit = p->has_period = 1;
  p->period = ns / k + (ns % k >= k - k / 2); /* (rounded half up) */
  return PCOL_OK;
}

/* ------------------------------------------------------------ spans */
int pcol_lasts_init(pcol_lasts *l, pcol_file *f, uint32_t s, pcol_error *err) {
  memset(l, 0, sizeof *l);
  l->until_next = pcol_source_lasts_until_next(f, s);
  l->interval = pcol_source_interval(f, s);
  uint32_t d = 0;
  PCOL_RETURN_NOT_OK(pcol_source_default_types(f, s, s, &d, err));
  return pcol_lasts_type(l, f, d, err);
}

int pcol_lasts_type(pcol_lasts *l, pcol_file *f, uint32_t d, pcol_error *err) {
  l->tvt = 0, l->tscale = 0, l->points = 0;
  if (d == PCOL_VT_TIME) { /* Rprof's time (the time rule), ns */
    l->tvt = d, l->tscale = 1;
  } else if (d && d <= pcol_rows(f, PCOL_T_VALUE_TYPES)) {
    pcol_view un;
    pcol_str u;
    PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, d - 1), &u, err));
    if ((l->tscale = pcol_unit_ns(u))) l->tvt = d;
    else l->points = pcol_unit_valid_target(u, "bytes");
  }
  return PCOL_OK;
}

int64_t pcol_lasts_own(const pcol_lasts *l, const pcol_sample_cols *c, const pcol_rtime *rt, uint64_t row) {
  int64_t v;
  if (l->tvt && pcol_sample_value_rt(c, rt, row, l->tvt, &v) && v > 0)
    return v > INT64_MAX / l->tscale ? INT64_MAX : v * l->tscale;
  if (l->interval) {
    int64_t w = pcol_view_i64(&c->weight, row);
    if (w < 1) w = 1;
    return w > INT64_MAX / l->interval ? INT64_MAX : w * l->interval;
  }
  return 0;
}

/* ------------------------------------------------------------ gaps */
void pcol_gaps_add(pcol_gaps *g, int64_t d) {
  if (d < 0) return;
  g->sum += d, g->pairs++;
  if (!d) return;
  if (!g->stride) g->stride = 1;
  if (g->seen++ % g->stride) return;
  if (g->n == PCOL_GAPS_KEEP) {
    for (size_t j = 0; j < g->n / 2; j++) g->a[j] = g->a[2 * j];
    g->n /= 2;
    g->stride *= 2;
    if ((g->seen - 1) % g->stride) return;
  }
  g->a[g->n++] = d;
}

int64_t pcol_gaps_median(pcol_gaps *g) {
  if (!g->n) return 0;
  qsort(g->a, g->n, sizeof *g->a, cmp_i64);
  return g->a[g->n / 2];
}

int64_t pcol_lasts_cap(pcol_gaps *g) {
  int64_t m = g ? pcol_gaps_median(g) : 0;
  return m > 0 ? m : PCOL_LASTS_FALLBACK_NS;
}

int64_t pcol_gaps_mean(const pcol_gaps *g) {
  if (!g->pairs) return 0;
  __int128 m = (g->sum + g->pairs / 2) / g->pairs;
  return m > INT64_MAX ? INT64_MAX : (int64_t)m;
}

void pcol_lasts_gaps(pcol_lasts *l, pcol_gaps *g) {
  l->cap = pcol_lasts_cap(g);
  l->mean = g ? pcol_gaps_mean(g) : 0;
}
