/* wall.c — where each source lies in wall-clock time, and what a range in
 * wall-clock time (pcol_select.wall) selects of it.
 *
 * THE start rule: a source starts at meta otlp.time_unix_nano, else
 * pprof.time_nanos, else source_timestamp x 10^9 (the order of the OTLP
 * exporter, doc/mappings.md §12); NA when it has none of them.  Its samples'
 * time_ns are relative to that start (spec.md §6.6), so a wall range
 * [from, to) is [from - start, to - start) of the source, and from there
 * THE range rule of select.c decides.  THE span rule: a source whose
 * samples have no times (a pprof CPU profile) is selected whole when its
 * span [start, start + duration) lies inside the range, not at all when
 * it lies outside, and is an error when the range cuts it: its samples
 * cannot be told apart.  A relative range judges the span [span start,
 * span start + duration) of the source's own clock by the same rule
 * (pcol_wall_span, pcol_wall_bounds, for both clocks); a source stating
 * no duration has a span with no known end there, held only by a range
 * with no --to that starts at most at its span start, and refused by any
 * other.
 *
 * THE span start: a source's window begins meta pcol.span_start_ns after
 * its time 0 (a trace's V8 profile on the trace's timeline), else there.
 *
 * THE recording rule (wall_recordings): the sources one file made of one
 * recording (meta pcol.recording_part 1, 2, ...) count their time once, as
 * their span, in the header go's merge of several sources gives
 * (pcol_sources_time); separate inputs add up, as in go.
 *
 * Everything here reads the sources and meta tables, and of the samples
 * at most one source column's run bounds and two times per source (binary
 * search): which inputs of a many-file query can be left out is decided
 * without reading their samples. */
#include "pcol.h"
#include "keys.h"     /* OTLP_META_DURATION_NANO, OTLP_META_TIME_UNIX_NANO, ... */
#include "error.h"    /* pcol_oom */
#include "bytes.h"    /* pcol_str_i64 */
#include "reader.h"   /* pcol_idmemo, pcol_string_which_memo */
#include "wall.h"     /* pcol_wall, pcol_wall_free, pcol_wall_init, ... */
#include "count.h"    /* pcol_unit_ns, pcol_source_who */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the start and duration keys, and the rank of each (a higher rank wins);
 * then the keys of THE recording rule (wall_recordings): a source's place
 * in its recording, and a V8 profile's start on its trace's clock */
static const char *const wall_keys[] = {OTLP_META_TIME_UNIX_NANO, PPROF_META_TIME_NANOS,
                                        OTLP_META_DURATION_NANO, PPROF_META_DURATION_NANOS,
                                        PCOL_META_RECORDING_PART, V8_META_START_TIME_US,
                                        PCOL_META_SPAN_START_NS};
static const int8_t start_rank[] = {0, 3, 2, 0, 0, 0, 0, 0}, dur_rank[] = {0, 0, 0, 2, 1, 0, 0, 0};
enum { KEY_PART = 5, KEY_V8_START = 6, KEY_SPAN_START = 7 };

int pcol_wall_init(pcol_file *f, pcol_wall *w, pcol_error *err) {
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  memset(w, 0, sizeof *w);
  w->n = ns;
  w->start = malloc((ns + 1) * sizeof *w->start);
  w->stated = calloc(ns + 1, sizeof *w->stated);
  /* which key gave start: 3 otlp, 2 pprof, 1 timestamp; kept as known */
  uint8_t *rank = w->known = calloc(ns + 1, 1);
  w->part = calloc(ns + 1, sizeof *w->part);
  w->clock = malloc((ns + 1) * sizeof *w->clock);
  w->off = calloc(ns + 1, sizeof *w->off);
  if (!w->start || !w->stated || !rank || !w->part || !w->clock || !w->off) {
    pcol_wall_free(w);
    return pcol_oom(err);
  }
  pcol_view ts, mk, mv, ms;
  pcol_strings st; /* fetched once: a day's merge has 1,440 sources' values */
  int rc = pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &mk, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &mv, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &ms, err);
  if (!rc) rc = pcol_strings_get(f, &st, err);
  for (uint64_t s = 0; !rc && s <= ns; s++) {
    w->start[s] = w->clock[s] = PCOL_NA_I64;
    int64_t sec = s ? pcol_view_i64(&ts, s - 1) : PCOL_NA_I64, x;
    if (sec != PCOL_NA_I64 && !__builtin_mul_overflow(sec, (int64_t)1000000000, &x)) {
      w->start[s] = x;
      rank[s] = 1;
    }
  }
  /* one pass over meta: the first row of a key counts, as pcol_meta_get */
  /* (the first third is unused since the span a range judged by, dur, went:
   * THE span rule reads stated alone, pcol_wall_span) */
  int8_t *drank = rc ? NULL : calloc(3 * (ns + 1), 1), *srank = drank ? drank + ns + 1 : NULL;
  int8_t *seen = drank ? drank + 2 * (ns + 1) : NULL; /* 1 part, 2 V8 start, 4 span start: a first row read */
  if (!rc && !drank) rc = pcol_oom(err);
  pcol_idmemo memo = {{0}, {0}};
  for (uint64_t i = 0; !rc && i < pcol_rows(f, PCOL_T_META); i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    if (s == 0 || s > ns) continue;
    pcol_str v;
    uint8_t which;
    if ((rc = pcol_string_which_memo(f, &memo, pcol_view_u32(&mk, i), wall_keys, 7, &which, err)))
      break;
    int r = start_rank[which], d = dur_rank[which];
    if (!r && !d && which < KEY_PART) continue;
    if ((rc = pcol_strings_at(&st, pcol_view_u32(&mv, i), &v, err))) break;
    int64_t x;
    if (pcol_str_i64(v, &x)) continue; /* not a number: as if absent */
    if (which == KEY_PART) { /* the first row counts */
      if (!(seen[s] & 1) && x >= 1 && x <= UINT32_MAX) w->part[s] = (uint32_t)x;
      seen[s] |= 1;
      continue;
    }
    if (which == KEY_SPAN_START) { /* ns, the first row counts; a negative one is none */
      if (!(seen[s] & 4) && x > 0) w->off[s] = x;
      seen[s] |= 4;
      continue;
    }
    if (which == KEY_V8_START) { /* us, the first row counts */
      if (!(seen[s] & 2) && !__builtin_mul_overflow(x, (int64_t)1000, &x) && x != PCOL_NA_I64)
        w->clock[s] = x;
      seen[s] |= 2;
      continue;
    }
    if (r > rank[s]) {
      w->start[s] = x;
      rank[s] = (uint8_t)r;
    }
    if (d > srank[s] && x != 0) { /* 0 is unset, as pcol_meta_get's readers take it */
      w->stated[s] = x;
      srank[s] = (int8_t)d;
    }
  }
  free(drank);
  if (rc) pcol_wall_free(w);
  return rc;
}

void pcol_wall_free(pcol_wall *w) {
  free(w->start);
  free(w->stated);
  free(w->known);
  free(w->part);
  free(w->clock);
  free(w->off);
  w->start = w->stated = w->clock = w->off = NULL;
  w->known = NULL;
  w->part = NULL;
}

/* a + b saturated to [INT64_MIN + 1, INT64_MAX] (INT64_MIN is NA) */
static int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN + 1;
  return r == PCOL_NA_I64 ? INT64_MIN + 1 : r;
}
static int64_t sat_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? INT64_MAX : INT64_MIN + 1;
  return r == PCOL_NA_I64 ? INT64_MIN + 1 : r;
}

/* ns since the epoch as RFC 3339 UTC, the form --from/--to take
 * ("2026-11-29T01:29:09.841614617Z", the fraction without trailing zeros) */
static void utc_text(char *b, size_t cap, int64_t ns) {
  int64_t sec = ns / 1000000000, frac = ns % 1000000000;
  if (frac < 0) frac += 1000000000, sec--;
  time_t tt = (time_t)sec;
  struct tm tm;
  size_t n = gmtime_r(&tt, &tm) ? strftime(b, cap, "%Y-%m-%dT%H:%M:%S", &tm) : 0;
  if (!n) {
    snprintf(b, cap, "@%lld.%09lld", (long long)sec, (long long)frac);
    return;
  }
  if (frac) {
    char f[16];
    int w = 9;
    while (frac % 10 == 0) frac /= 10, w--;
    snprintf(f, sizeof f, ".%0*lld", w, (long long)frac);
    snprintf(b + n, cap - n, "%sZ", f);
  } else {
    snprintf(b + n, cap - n, "Z");
  }
}

static void source_name(pcol_file *f, uint32_t s, pcol_str *ty, pcol_str *uri) {
  pcol_view t, u;
  *ty = *uri = (pcol_str){NULL, 0};
  if (s && s <= pcol_rows(f, PCOL_T_SOURCES) &&
      !pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &t, NULL) &&
      !pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &u, NULL)) {
    if (pcol_string(f, pcol_view_u32(&t, s - 1), ty, NULL)) {
      /* damaged: the name stays empty (pcol_string clears it); it only names a source */
    }
    if (pcol_string(f, pcol_view_u32(&u, s - 1), uri, NULL)) {
      /* damaged: the name stays empty (pcol_string clears it); it only names a source */
    }
  }
}
#define SHOWN(x) (int)((x).ptr ? ((x).len > 80 ? 80 : (x).len) : 2), (x).ptr ? (x).ptr : "NA"


/* ns as seconds, the form a relative --from/--to takes ("30s", "0.37s") */
static void sec_text(char *b, size_t cap, int64_t ns) {
  int64_t sec = ns / 1000000000, frac = ns % 1000000000;
  const char *sign = ns < 0 ? "-" : "";
  if (sec < 0) sec = -sec;
  if (frac < 0) frac = -frac;
  if (!frac) {
    snprintf(b, cap, "%s%llds", sign, (long long)sec);
    return;
  }
  int w = 9;
  while (frac % 10 == 0) frac /= 10, w--;
  snprintf(b, cap, "%s%lld.%0*llds", sign, (long long)sec, w, (long long)frac);
}

int pcol_wall_span(const pcol_wall *w, const pcol_select *sel, uint64_t s, int64_t *lo, int64_t *d) {
  int64_t st = !sel || !sel->wall ? 0 : s <= w->n ? w->start[s] : PCOL_NA_I64;
  *lo = st;
  *d = 0;
  if (s > w->n || st == PCOL_NA_I64) return 0;
  *lo = sat_add(st, w->off[s]);
  *d = w->stated[s] > 0 ? w->stated[s] : 0; /* (a negative one: none, as pcol_wall_cut) */
  return 1;
}

int pcol_wall_bounds(pcol_file *f, const pcol_wall *w, const pcol_select *sel, uint32_t s,
                     int timed, int64_t *from, int64_t *to, pcol_error *err) {
  int64_t a = sel->has_from ? sel->from_ns : INT64_MIN + 1;
  int64_t b = sel->has_to ? sel->to_ns : INT64_MAX;
  /* a relative range is in the source's own clock: its start is 0 there */
  int64_t st = !sel->wall ? 0 : s <= w->n ? w->start[s] : PCOL_NA_I64;
  pcol_str ty, uri;
  char who[48];
  if (st == PCOL_NA_I64) {
    /* --source is a way out only to another source that has a start, and
     * only while --source has not picked one already */
    bool other = false;
    for (uint32_t k = 1; !sel->source_id && k <= w->n && !other; k++)
      other = k != s && w->start[k] != PCOL_NA_I64;
    source_name(f, s, &ty, &uri);
    return pcol_error_set(err, PCOL_ENOTFOUND,
                          "%s (%.*s %.*s) has no wall-clock start (no otlp.time_unix_nano, "
                          "pprof.time_nanos or source_timestamp), so a range in wall-clock time "
                          "cannot select its samples; give --from/--to in seconds since its start%s",
                          pcol_source_who(f, s, who, sizeof who), SHOWN(ty), SHOWN(uri),
                          other ? ", or leave it out with --source N (one of the others)" : "");
  }
  if (timed) {
    *from = sel->has_from ? sat_sub(a, st) : INT64_MIN + 1;
    *to = sel->has_to ? sat_sub(b, st) : INT64_MAX;
    return PCOL_WALL_RANGE;
  }
  /* THE span rule of a source without sample times (in either clock): its
   * span [lo, lo + d) (pcol_wall_span: from its span start, spec.md §7)
   * inside the range counts whole, outside it not at all, and cut by it is
   * an error (its samples cannot be told apart).  Without a duration the
   * span's end is unknown: in wall-clock time a source whose start is
   * stated (a heap snapshot's time_nanos) is that instant alone; in
   * seconds since its start (where 0 is no stated instant) only a range
   * that holds all from its span start on (--from at most that, no --to)
   * holds it, any other is refused (rd14a F1: a point at 0 counted 380 ms
   * of CPU in --from 0 --to 0.01) */
  int64_t lo, d;
  pcol_wall_span(w, sel, s, &lo, &d);
  int64_t e = sat_add(lo, d);
  if (!d && !sel->wall) {
    if (a <= lo && !sel->has_to) return PCOL_WALL_ALL;
    char t0[48];
    source_name(f, s, &ty, &uri);
    sec_text(t0, sizeof t0, lo);
    return pcol_error_set(err, PCOL_ENOTFOUND,
                          "%s (%.*s %.*s) has no sample times and states no duration, so "
                          "its span (from %s since its start) has no known end and a range in "
                          "seconds cannot select its samples: give no --to and a --from of at most "
                          "%s, or no range",
                          pcol_source_who(f, s, who, sizeof who), SHOWN(ty), SHOWN(uri), t0, t0);
  }
  int inside = lo >= a && (d ? e <= b : lo < b);
  int outside = d ? (e <= a || lo >= b) : (lo < a || lo >= b);
  if (inside) return PCOL_WALL_ALL;
  if (outside) return PCOL_WALL_NONE;
  source_name(f, s, &ty, &uri);
  char t0[48], t1[48];
  if (sel->wall) {
    utc_text(t0, sizeof t0, lo);
    utc_text(t1, sizeof t1, e);
  } else {
    sec_text(t0, sizeof t0, lo);
    sec_text(t1, sizeof t1, e);
  }
  return pcol_error_set(err, PCOL_ENOTFOUND,
                        "%s (%.*s %.*s) has no sample times and the range cuts its span "
                        "(%s to %s%s), so the range cannot select its samples: "
                        "choose a range that holds it whole or leaves it out",
                        pcol_source_who(f, s, who, sizeof who), SHOWN(ty), SHOWN(uri), t0, t1,
                        sel->wall ? "" : " since its start");
}

/* first row in [lo, hi) with source > s */
static uint64_t after(const pcol_view *src, uint64_t lo, uint64_t hi, uint32_t s) {
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (pcol_view_u32(src, mid) <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Which sources of w a wall-clock selection (sel->wall with a range) can
 * reach: each source's span (start + its duration and first/last sample
 * times, found by binary search) against the range; reach[s] = 1 for
 * those (and for a source whose start is unknown: the query says so),
 * else 0; with reach NULL, *any alone (the scan stops at the first). */
static int wall_reach(pcol_file *f, const pcol_wall *w, const pcol_select *sel, uint8_t *reach,
                      bool *any, pcol_error *err) {
  pcol_view src, tim, dur;
  int rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &dur, err);
  int64_t a = sel->has_from ? sel->from_ns : INT64_MIN + 1;
  int64_t b = sel->has_to ? sel->to_ns : INT64_MAX;
  uint64_t n = pcol_rows(f, PCOL_T_SAMPLES), lo = 0;
  *any = false;
  for (uint32_t s = 1; !rc && s <= w->n && (reach || !*any); s++) {
    uint64_t r0 = after(&src, lo, n, s - 1), r1 = after(&src, r0, n, s);
    lo = r1;
    bool in = false;
    if (sel->source_id && sel->source_id != s) {
      /* not selected */
    } else if (w->start[s] == PCOL_NA_I64) { /* cannot tell: the query will say so */
      in = true;
    } else {
      uint64_t t0 = r0;
      while (t0 < r1 && pcol_view_i64(&tim, t0) == PCOL_NA_I64) t0++; /* NA sorts first */
      if (t0 == r1) { /* no sample times: THE rule of pcol_wall_bounds, by its span */
        int64_t f_, t_;
        pcol_error quiet = {0};
        /* (no samples: nothing to select) */
        in = r0 < r1 && pcol_wall_bounds(f, w, sel, s, 0, &f_, &t_, &quiet) != PCOL_WALL_NONE;
      } else {
        /* samples with times: [start + first, start + last + its duration], the
         * end included (a point sample there is selected when from <= it) */
        int64_t first = pcol_view_i64(&tim, t0), last = pcol_view_i64(&tim, r1 - 1);
        int64_t ld = pcol_view_i64(&dur, r1 - 1);
        int64_t sa = sat_add(w->start[s], first);
        int64_t sb = sat_add(sat_add(w->start[s], last), ld > 0 ? ld : 0);
        in = sa < b && sb >= a;
      }
    }
    if (reach) reach[s] = in;
    *any = *any || in;
  }
  return rc;
}

int pcol_wall_overlaps(pcol_file *f, const pcol_select *sel, bool *overlaps, pcol_error *err) {
  *overlaps = true;
  if (!sel || !sel->wall || (!sel->has_from && !sel->has_to)) return PCOL_OK;
  pcol_wall w;
  int rc = pcol_wall_init(f, &w, err);
  if (!rc) rc = wall_reach(f, &w, sel, NULL, overlaps, err);
  pcol_wall_free(&w);
  return rc;
}

/* THE sources of a selection, those its default value is resolved over
 * (pcol_selection_default_type) and its value notes speak of: source_id's
 * alone, else every one; of a wall-clock range, the recordings (THE
 * recording rule's runs, pcol_wall_run_end: an input file's sources) the
 * range reaches in one of their sources (wall_reach), as a query of many
 * inputs keeps the files it reaches (pcol_wall_overlaps) and leaves out
 * the others: the union answers as `pcol merge` of the files the range
 * reaches, whichever formats the others have and whether they were read.
 * A range that reaches no source keeps every one (an empty answer in the
 * file's own default, as without the range). */
int pcol_selection_sources(pcol_file *f, const pcol_select *sel, uint8_t **keep, pcol_error *err) {
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES);
  uint8_t *k = calloc(n + 1, 1);
  *keep = NULL;
  if (!k) return pcol_oom(err);
  if (sel && sel->source_id) {
    if (sel->source_id <= n) k[sel->source_id] = 1;
  } else {
    memset(k + 1, 1, n);
  }
  int rc = PCOL_OK;
  if (sel && !sel->source_id && sel->wall && (sel->has_from || sel->has_to) && n > 0) {
    pcol_wall w;
    bool any;
    uint8_t *reach = calloc(n + 1, 1);
    if (!reach) rc = pcol_oom(err);
    if (!rc && !(rc = pcol_wall_init(f, &w, err))) {
      /* (a range that reaches none: every source, the file's own default
       * over its empty answer, as without the range) */
      if (!(rc = wall_reach(f, &w, sel, reach, &any, err)) && any)
        for (uint64_t s = 1, e; s <= n; s = e) {
          e = pcol_wall_run_end(&w, s);
          uint8_t in = 0;
          for (uint64_t i = s; i < e; i++) in |= reach[i];
          memset(k + s, in, e - s);
        }
      pcol_wall_free(&w);
    }
    free(reach);
  }
  if (rc) free(k);
  else *keep = k;
  return rc;
}

/* THE recording rule: the sources one input file made (one recording)
 * count their time once.  A run of sources whose pcol.recording_part is
 * K, K + 1, ... (the importer numbered them, and a merge keeps each
 * input's run: the next input's starts again at 1) is one recording.  Its
 * time is the span of its taken sources that state a duration > 0: from
 * the earliest start to the latest end (start + duration), placed by
 * their wall-clock starts when all have one, else by their V8 startTime
 * when all have one (a Chrome trace's profiles), else as if they began
 * together (the longest duration) -- the recording's length, as JFR's
 * chunks and DevTools' trace give it.  That span becomes the first one's
 * stated duration, the others' 0, so that go's merge step adds the
 * recording once; separate inputs (their runs) are still added, as go
 * tool pprof adds the profiles it merges. */
uint64_t pcol_wall_run_end(const pcol_wall *w, uint64_t s) { /* past the run from s */
  uint64_t e = s + 1;
  while (e <= w->n && w->part[e - 1] && w->part[e] == (uint64_t)w->part[e - 1] + 1) e++;
  return e;
}
int pcol_wall_part_covered(const pcol_wall *w, uint64_t s, const uint8_t *has, const uint8_t *keep) {
  if (s < 1 || s > w->n || has[s]) return 0;
  uint64_t b = s; /* the run's first source */
  while (b > 1 && w->part[b - 1] && w->part[b] == (uint64_t)w->part[b - 1] + 1) b--;
  for (uint64_t i = b, e = pcol_wall_run_end(w, b); i < e; i++)
    if (i != s && has[i] && (!keep || keep[i])) return 1;
  return 0;
}
static void wall_recordings(pcol_wall *w, const uint8_t *take) {
  for (uint64_t s = 1, e; s <= w->n; s = e) {
    e = pcol_wall_run_end(w, s);
    size_t m = 0;
    bool by_start = true, by_v8 = true;
    uint64_t first = 0;
    for (uint64_t i = s; i < e; i++)
      if (take[i] && w->stated[i] > 0) {
        m++;
        by_start = by_start && w->known[i] && w->start[i] != PCOL_NA_I64;
        by_v8 = by_v8 && w->clock[i] != PCOL_NA_I64;
        if (!first) first = i;
      }
    if (m < 2) continue;
    int64_t a = INT64_MAX, b = INT64_MIN;
    for (uint64_t i = s; i < e; i++)
      if (take[i] && w->stated[i] > 0) {
        int64_t at = by_start ? sat_add(w->start[i], w->clipped ? 0 : w->off[i]) : by_v8 ? w->clock[i] : w->off[i];
        int64_t end = sat_add(at, w->stated[i]);
        if (at < a) a = at;
        if (end > b) b = end;
        w->stated[i] = 0;
      }
    int64_t len = sat_sub(b, a);
    w->stated[first] = len > 0 ? len : 1; /* (0 would be "none") */
  }
}

/* THE selection rule of recording parts (spec.md §7 "Recordings"): what
 * a writer of the sources take[] writes as each one's pcol.recording_part.
 * A run (pcol_wall_run_end) written whole keeps its parts as they are (a
 * whole-file export writes what the file holds); of one written in part,
 * the written sources are numbered 1..k in order, and none when k < 2 (a
 * lone source of a recording is a recording of its own), so that the
 * selection read back is one recording of exactly those sources, not
 * joined to another file's run. */
void pcol_wall_select_parts(pcol_wall *w, const uint8_t *take) {
  for (uint64_t s = 1, e; s <= w->n; s = e) {
    e = pcol_wall_run_end(w, s);
    uint64_t k = 0;
    for (uint64_t i = s; i < e; i++) k += take[i] != 0;
    if (k == e - s) continue;
    uint32_t p = 0;
    for (uint64_t i = s; i < e; i++) w->part[i] = take[i] && k >= 2 ? ++p : 0;
  }
}

typedef struct taken {
  pcol_view src;
  uint8_t *take; /* [0, n] */
  uint64_t n;
} taken;
static int take_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)num, (void)den;
  taken *t = ctx;
  uint32_t s = pcol_view_u32(&t->src, row);
  if (s <= t->n) t->take[s] = 1; /* (an id past the sources: a damaged file's, written nowhere) */
  return 0;
}

int pcol_wall_select_parts_of(pcol_wall *w, pcol_file *f, const pcol_select *sel, const uint8_t *states,
                              pcol_error *err) {
  int parts = 0;
  for (uint64_t s = 1; s <= w->n && !parts; s++) parts = w->part[s] != 0;
  if (!parts || !sel || !(sel->source_id || sel->has_from || sel->has_to || pcol_select_filtered(sel)))
    return PCOL_OK;
  taken tk = {{0}, calloc(w->n + 1, 1), w->n};
  if (!tk.take) return pcol_oom(err);
  int rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &tk.src, err);
  if (!rc) rc = pcol_select_iter(f, sel, take_row, &tk, err); /* one pass: not one a source */
  for (uint64_t s = 1; !rc && states && s <= w->n; s++) tk.take[s] |= states[s];
  if (!rc) pcol_wall_select_parts(w, tk.take);
  free(tk.take);
  return rc;
}

/* take[s] = 1 for the sources a header of sel speaks of (pcol_wall_header) */
static int wall_take(pcol_file *f, const pcol_select *sel, pcol_wall *w, uint8_t **take, pcol_error *err) {
  uint8_t *t = *take = calloc(w->n + 1, 1);
  bool any;
  if (!t) return pcol_oom(err);
  if (sel && sel->wall && (sel->has_from || sel->has_to)) return wall_reach(f, w, sel, t, &any, err);
  for (uint64_t s = 1; s <= w->n; s++) t[s] = !sel || !sel->source_id || sel->source_id == s;
  return PCOL_OK;
}

/* THE range rule of the header (spec.md §7 "Recordings"): a selection
 * with a time range speaks of each taken source's window [start + off,
 * start + off + stated) (off: its span start, spec.md §7 "Span start") as
 * the range cuts it, in the range's clock (a relative range
 * counts from each source's own start, as select.c's; a wall-clock one is
 * made the source's by its start, as pcol_wall_bounds does).  start (and
 * the V8 clock that places it among its recording's parts) move to where
 * the cut window begins, the later of the range's start and the source's;
 * stated becomes the cut window's length; a source whose window the range
 * misses is taken no more (it adds nothing to the header: no time, no
 * duration, no comment).  A source stating no duration (0, or a negative
 * one) has no window to cut: it states none in the range either, and is
 * missed only when the range ends before it starts.  A wall-clock range
 * leaves a source whose start is unknown as it is (the query says so).
 * pcol_wall_cut cuts one source; wall_clip cuts the header's, and the
 * exports each source they write (wall.h), so that a copy of a range
 * states what the header of the range says. */
int pcol_wall_cut(const pcol_wall *w, const pcol_select *sel, uint64_t s, pcol_wall_window *win) {
  int64_t a = sel && sel->has_from ? sel->from_ns : INT64_MIN + 1;
  int64_t b = sel && sel->has_to ? sel->to_ns : INT64_MAX;
  *win = (pcol_wall_window){w->start[s], w->stated[s], 0, a, b, w->off[s], 0};
  if (!sel || (!sel->has_from && !sel->has_to)) return 1;
  if (sel->wall) { /* the source's own clock, as pcol_wall_bounds */
    if (w->start[s] == PCOL_NA_I64) return win->from = INT64_MIN + 1, win->to = INT64_MAX, 1;
    if (sel->has_from) a = win->from = sat_sub(a, w->start[s]);
    if (sel->has_to) b = win->to = sat_sub(b, w->start[s]);
  }
  /* the window [off, off + d) of the source's clock (off: pcol.span_start_ns) */
  int64_t off = w->off[s], d = w->stated[s] > 0 ? w->stated[s] : 0, lo = a > off ? a : off;
  int64_t hi = d && b > sat_add(off, d) ? sat_add(off, d) : b;
  if (hi <= lo) return 0; /* (d == 0: hi is b) */
  win->cut = 1;
  win->stated = d ? hi - lo : 0;
  win->shift = win->span = lo;
  if (w->start[s] != PCOL_NA_I64) win->start = sat_add(w->start[s], lo);
  return 1;
}

/* THE span start of a cut copy: a range's copy of a trace whose profiles
 * start apart (pcol.span_start_ns, no wall-clock start) is placed by the
 * span starts alone (THE recording rule), so each source's times move by
 * the range's start, which all of them share, not by where its own window
 * starts (rd12b F2: each copy began at 0, and the copy said the longest
 * profile's Duration: 200us of 5s).  The range's start is at most the
 * window's (lo = max(from, off), off >= 0). */
void pcol_wall_cut_keep_span(const pcol_wall *w, uint64_t s, pcol_wall_window *win) {
  if (!win->cut) return;
  int64_t m = win->from > 0 ? win->from : 0;
  if (m > win->span) m = win->span;
  win->shift = m;
  win->start = s <= w->n && w->start[s] != PCOL_NA_I64 ? sat_add(w->start[s], m) : PCOL_NA_I64;
}

int pcol_wall_meta_cut(const pcol_wall *w, uint64_t s, const pcol_wall_window *win, pcol_str key, pcol_str val,
                       char out[24]) {
  int64_t x, us = win->shift / 1000 + (win->shift % 1000 >= 500); /* (shift >= 0 when cut) */
  int span = pcol_str_is(key, PCOL_META_SPAN_START_NS), v8 = pcol_str_is(key, V8_META_START_TIME_US);
  int origin = pcol_str_is(key, V8_META_TIME_ORIGIN_US);
  if (!win->cut || win->shift <= 0 || (!span && !v8 && !origin) || pcol_str_i64(val, &x))
    return 0;
  if (span) { /* its (cut) span's start in the copy's clock: at its time 0, none */
    if (win->span <= win->shift) return 2;
    x = win->span - win->shift;
  } else if (origin) { /* the copy's time 0 */
    x = sat_add(x, us);
  } else { /* the span's start, as far as it moved (wall_clip's clock) */
    int64_t moved = sat_sub(win->span, s <= w->n ? w->off[s] : 0);
    if (moved <= 0) return 0;
    x = sat_add(x, moved / 1000 + (moved % 1000 >= 500));
  }
  snprintf(out, 24, "%lld", (long long)x);
  return 1;
}

static void wall_clip(pcol_wall *w, const pcol_select *sel, uint8_t *take) {
  if (!sel || (!sel->has_from && !sel->has_to)) return;
  for (uint64_t s = 1; s <= w->n; s++) {
    pcol_wall_window win;
    if (!take[s]) continue;
    if (!pcol_wall_cut(w, sel, s, &win)) {
      take[s] = 0;
      continue;
    }
    if (!win.cut) continue; /* (a wall-clock range, the start unknown: as it is) */
    w->stated[s] = win.stated;
    w->start[s] = win.start;
    /* the clock (the span's start) moves as far as the span's start did;
     * start now is the cut window's own */
    if (w->clock[s] != PCOL_NA_I64) w->clock[s] = sat_add(w->clock[s], sat_sub(win.shift, w->off[s]));
    /* and the span start to where the cut window starts: the sources of a
     * trace without wall-clock starts are placed by it (wall_recordings;
     * rd12b F2: a range of a speedscope copy said the longest profile's
     * Duration:) */
    w->off[s] = win.shift;
  }
  w->clipped = 1;
}

int pcol_wall_header(pcol_file *f, const pcol_select *sel, pcol_wall *w, uint8_t **take,
                     pcol_error *err) {
  *take = NULL;
  int rc = pcol_wall_init(f, w, err);
  if (rc) return rc;
  uint8_t *t;
  rc = wall_take(f, sel, w, &t, err);
  if (!rc) wall_clip(w, sel, t);
  if (!rc) wall_recordings(w, t);
  if (rc) {
    free(t);
    pcol_wall_free(w);
    return rc;
  }
  *take = t;
  return PCOL_OK;
}

/* go's profile.Merge header of the sources take[] of pcol_wall_header's w
 * (pcol_wall_merge_step) */
static void wall_merge(const pcol_wall *w, const uint8_t *take, int64_t *time_ns, int64_t *duration_ns) {
  int64_t tn = 0;
  uint64_t dn = 0;
  for (uint64_t s = 1; s <= w->n; s++)
    if (take[s]) pcol_wall_merge_step(&tn, &dn, pcol_wall_go_start(w, s), w->stated[s]);
  *time_ns = tn;
  *duration_ns = (int64_t)dn; /* (two's complement: Go's wrap) */
}

int pcol_wall_states(pcol_file *f, const pcol_select *sel, uint8_t **take, int64_t *time_ns,
                     pcol_error *err) {
  pcol_wall w;
  int64_t tn, dn;
  if (time_ns) *time_ns = 0;
  int rc = pcol_wall_header(f, sel, &w, take, err);
  if (rc) return rc;
  wall_merge(&w, *take, &tn, &dn);
  if (time_ns) *time_ns = tn;
  pcol_wall_free(&w);
  return PCOL_OK;
}

/* go's profile.Merge header, which every pprof read of several profiles
 * goes through (pcol_wall_merge_step) */
int pcol_sources_time(pcol_file *f, const pcol_select *sel, int64_t *time_ns, int64_t *duration_ns,
                      pcol_error *err) {
  pcol_wall w;
  uint8_t *take;
  *time_ns = *duration_ns = 0;
  int rc = pcol_wall_header(f, sel, &w, &take, err);
  if (rc) return rc;
  wall_merge(&w, take, time_ns, duration_ns);
  free(take);
  pcol_wall_free(&w);
  return PCOL_OK;
}

uint64_t pcol_wall_runs_taken(const pcol_wall *w, const uint8_t *take) {
  uint64_t k = 0;
  for (uint64_t s = 1, e; s <= w->n; s = e) {
    e = pcol_wall_run_end(w, s);
    for (uint64_t i = s; i < e; i++) /* (e <= n + 1) */
      if (take[i]) {
        k++;
        break;
      }
  }
  return k;
}

/* *cut: a range cuts a source of take[] whose samples have no times (THE
 * span rule, pcol_wall_bounds, over w of pcol_wall_init: not a header's,
 * whose spans are cut): the query is refused, and says why */
static int cuts_untimed(pcol_file *f, const pcol_wall *w, const pcol_select *sel, const uint8_t *take,
                        bool *cut, pcol_error *err) {
  pcol_view src, tim;
  int rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim, err);
  uint64_t n = pcol_rows(f, PCOL_T_SAMPLES), lo = 0;
  *cut = false;
  for (uint32_t s = 1; !rc && s <= w->n && !*cut; s++) {
    uint64_t r0 = after(&src, lo, n, s - 1), r1 = after(&src, r0, n, s);
    lo = r1;
    int64_t f_, t_;
    pcol_error quiet = {0};
    /* (times sort NA first: the last row is NA only when all are) */
    *cut = take[s] && r0 < r1 && pcol_view_i64(&tim, r1 - 1) == PCOL_NA_I64 &&
           pcol_wall_bounds(f, w, sel, s, 0, &f_, &t_, &quiet) < 0;
  }
  return rc;
}

int pcol_range_note(pcol_file *f, const pcol_select *sel, char **note, pcol_error *err) {
  *note = NULL;
  if (!sel || sel->wall || (!sel->has_from && !sel->has_to)) return PCOL_OK;
  pcol_wall w;
  uint8_t *take;
  bool cut = false;
  int rc = pcol_wall_header(f, sel, &w, &take, err);
  if (rc) return rc;
  /* a subtracted base's sources (pcol_open_diff_base) are no recording of
   * the profile's: their window is the base's own (review 23 F3) */
  const uint8_t *kinds = NULL;
  if (!rc) rc = pcol_base_kinds(f, &kinds, err);
  for (uint64_t s = 1; !rc && kinds[0] && s <= w.n && s <= pcol_rows(f, PCOL_T_SOURCES); s++)
    if (kinds[s]) take[s] = 0;
  uint64_t k = rc ? 0 : pcol_wall_runs_taken(&w, take);
  /* a range the query refuses took no window (review 20 F7: a note that
   * windows were added up, then the refusal) */
  pcol_wall_free(&w);
  if (k >= 2 && !(rc = pcol_wall_init(f, &w, err))) { /* (the sources' own spans: not the header's cut ones) */
    rc = cuts_untimed(f, &w, sel, take, &cut, err);
    pcol_wall_free(&w);
  }
  free(take);
  return rc || cut ? rc : pcol_range_note_of(k, sel, note, err);
}

int pcol_range_note_of(uint64_t k, const pcol_select *sel, char **note, pcol_error *err) {
  *note = NULL;
  if (!sel || sel->wall || (!sel->has_from && !sel->has_to) || k < 2) return PCOL_OK;
  static const char fmt[] =
      "a relative time range counts from each source's own start: it took a window of each of "
      "the %llu recordings it reaches, and their durations add up; a wall-clock range (a time "
      "such as 2026-11-30T00:40:00Z) takes one window of them all";
  int len = snprintf(NULL, 0, fmt, (unsigned long long)k);
  if (len < 0 || !(*note = malloc((size_t)len + 1))) return pcol_oom(err);
  snprintf(*note, (size_t)len + 1, fmt, (unsigned long long)k);
  return PCOL_OK;
}

/* the comments of a source in meta order, gathered for the once rule */
typedef struct {
  pcol_str *c;
  size_t n, cap;
} str_list;
static int str_list_add(void *ctx, pcol_str v) {
  str_list *l = ctx;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    pcol_str *c = realloc(l->c, cap * sizeof *c);
    if (!c) return PCOL_ENOMEM;
    l->c = c, l->cap = cap;
  }
  l->c[l->n++] = v;
  return PCOL_OK;
}

typedef struct {
  pcol_str s;
  size_t i;
} str_at;
static int str_at_cmp(const void *a, const void *b) { /* bytes (NA as ""), then order */
  const str_at *x = a, *y = b;
  size_t m = x->s.len < y->s.len ? x->s.len : y->s.len;
  int c = m ? memcmp(x->s.ptr, y->s.ptr, m) : 0;
  if (c) return c;
  if (x->s.len != y->s.len) return x->s.len < y->s.len ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

int pcol_strs_repeats(const pcol_str *c, size_t n, uint8_t *rep) {
  str_at *o = n ? malloc(n * sizeof *o) : NULL;
  if (n && !o) return PCOL_ENOMEM;
  for (size_t i = 0; i < n; i++) o[i] = (str_at){c[i], i}, rep[i] = 0;
  if (n > 1) qsort(o, n, sizeof *o, str_at_cmp);
  for (size_t i = 1; i < n; i++)
    rep[o[i].i] = o[i - 1].s.len == o[i].s.len && (!o[i].s.len || !memcmp(o[i - 1].s.ptr, o[i].s.ptr, o[i].s.len));
  free(o);
  return PCOL_OK;
}

/* go's profile.Merge comments of the sources pcol_sources_time speaks of
 * (pcol_wall_header decides both) */
int pcol_sources_comments_taken(pcol_file *f, uint64_t n, const uint8_t *take,
                                int (*fn)(void *ctx, pcol_str value), void *ctx, pcol_error *err) {
  uint8_t *rep = NULL;
  str_list l = {0};
  int rc = PCOL_OK;
  for (uint64_t s = 1; !rc && s <= n; s++)
    if (take[s]) rc = pcol_meta_each(f, (uint32_t)s, PPROF_META_COMMENT, str_list_add, &l, err);
  if (rc == PCOL_ENOMEM) rc = pcol_oom(err);
  if (!rc && l.n && (!(rep = malloc(l.n)) || pcol_strs_repeats(l.c, l.n, rep))) rc = pcol_oom(err);
  for (size_t i = 0; !rc && i < l.n; i++)
    if (!rep[i]) rc = fn(ctx, l.c[i]);
  free(rep);
  free(l.c);
  return rc;
}

int pcol_sources_comments(pcol_file *f, const pcol_select *sel,
                          int (*fn)(void *ctx, pcol_str value), void *ctx, pcol_error *err) {
  pcol_wall w;
  uint8_t *take;
  int rc = pcol_wall_header(f, sel, &w, &take, err);
  if (rc) return rc;
  rc = pcol_sources_comments_taken(f, w.n, take, fn, ctx, err);
  free(take);
  pcol_wall_free(&w);
  return rc;
}

int pcol_source_wall_start(pcol_file *f, uint32_t s, int64_t *ns, pcol_error *err) {
  pcol_wall w;
  *ns = PCOL_NA_I64;
  int rc = pcol_wall_init(f, &w, err);
  if (rc) return rc;
  if (s >= 1 && s <= w.n) *ns = w.start[s];
  pcol_wall_free(&w);
  return PCOL_OK;
}

int pcol_source_span_starts(pcol_file *f, int64_t *ns, size_t n, pcol_error *err) {
  if (!f || (n && !ns)) return pcol_error_set(err, PCOL_EINVAL, "pcol_source_span_starts: NULL argument");
  for (size_t i = 0; i < n; i++) ns[i] = 0;
  pcol_wall w;
  int rc = pcol_wall_init(f, &w, err);
  if (rc) return rc;
  for (size_t i = 0; i < n && i < w.n; i++) ns[i] = w.off[i + 1]; /* (THE span start: KEY_SPAN_START) */
  pcol_wall_free(&w);
  return PCOL_OK;
}

int pcol_select_relative(pcol_file *f, const pcol_select *sel, pcol_select *out,
                         pcol_error *err) {
  *out = *sel;
  if (!sel->wall) return PCOL_OK;
  out->wall = 0;
  if (!sel->has_from && !sel->has_to) return PCOL_OK;
  pcol_wall w;
  int rc = pcol_wall_init(f, &w, err);
  if (rc) return rc;
  int64_t start = PCOL_NA_I64;
  uint32_t first = 0;
  for (uint32_t s = 1; s <= w.n; s++) {
    if (sel->source_id && sel->source_id != s) continue;
    if (w.start[s] == PCOL_NA_I64) {
      rc = pcol_wall_bounds(f, &w, sel, s, 1, &out->from_ns, &out->to_ns, err);
      break;
    }
    if (first && w.start[s] != start) {
      rc = pcol_error_set(err, PCOL_EINVAL,
                          "sources %u and %u start at different times, and this output holds one "
                          "range for all: choose one with --source, or give --from/--to in seconds",
                          first, s);
      break;
    }
    start = w.start[s];
    if (!first) first = s;
  }
  if (!rc && first) {
    if (sel->has_from) out->from_ns = sat_sub(sel->from_ns, start);
    if (sel->has_to) out->to_ns = sat_sub(sel->to_ns, start);
  }
  pcol_wall_free(&w);
  return rc;
}

/* ------------------------------------------------------------ pcol_time_parse
 * THE text of a time range's end (the CLI's --from/--to, the bindings'
 * from/to): a time since the profile's start, or a wall-clock time. */

/* ns in one unit of a time since the start: a unit of pcol's time family
 * that is a ns or more (pcol_unit_ns, the rule of --unit: ns, us or µs,
 * ms, s, hrs, and their long names: second, hours, ...), or min/h, which
 * pprof's units lack; 0 for anything else.  In any case, as pprof's units
 * (sniffUnit: 1MS, 1Hour, 1H, 1Min alike; rd16a N1: the extra names were
 * lower case only) */
static double time_unit_ns(const char *u) {
  static const struct { const char *name; double ns; } extra[] = {
      {"min", 60e9}, {"mins", 60e9}, {"minute", 60e9}, {"minutes", 60e9}, {"h", 3600e9},
      {"\xc2\xb5s", 1e3}, {"\xce\xbcs", 1e3}}; /* (µs, the micro sign and the Greek letter: pcol_unit_ns
                                               * drops its s as a plural's, its 3 bytes) */
  char low[16]; /* (ASCII letters lowered; the longest name fits) */
  size_t n = strlen(u);
  for (size_t i = 0; i < n && i < sizeof low; i++) low[i] = u[i] >= 'A' && u[i] <= 'Z' ? (char)(u[i] - 'A' + 'a') : u[i];
  for (size_t i = 0; n < sizeof low && i < sizeof extra / sizeof *extra; i++)
    if (strlen(extra[i].name) == n && !memcmp(low, extra[i].name, n)) return extra[i].ns;
  return (double)pcol_unit_ns((pcol_str){u, n});
}

/* seconds ("1.5"), or a number and a time unit ("1500ms", "2s", "1.5 min") */
static int parse_seconds(const char *s, int64_t *ns) {
  char *end;
  /* a decimal number alone, [+-]digits[.digits][e[+-]digits]: strtod
   * also reads white space before it, hex ("0x10" was 16 s), "inf" and
   * "nan", none of which is a time a user means */
  const char *q = s + (*s == '+' || *s == '-');
  size_t nd = strspn(q, "0123456789");
  if (q[nd] == '.') nd += 1 + strspn(q + nd + 1, "0123456789");
  if (!nd || (nd == 1 && *q == '.')) return -1;
  if (q[nd] == 'e' || q[nd] == 'E') { /* an exponent, when digits follow */
    size_t x = nd + 1 + (q[nd + 1] == '+' || q[nd + 1] == '-'), xd = strspn(q + x, "0123456789");
    if (xd) nd = x + xd;
  }
  errno = 0;
  double d = strtod(s, &end), unit = 1e9;
  if (errno || end != q + nd || !isfinite(d)) return -1; /* (strtod read what was checked) */
  const char *u = end;
  while (*u == ' ') u++; /* ("1.5 min"; "1.5 " stays no time) */
  if (*end && (!*u || !(unit = time_unit_ns(u)))) return -1;
  if (fabs(d) * unit > 9.2e18) return -1;
  *ns = (int64_t)llround(d * unit);
  return 0;
}

/* digits of s[0..n) as a number; -1 unless all are digits */
static int digits(const char *s, int n) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/* A wall-clock time: "@SECONDS" since the Unix epoch (as GNU date writes
 * it; a fraction allowed), or RFC 3339 "YYYY-MM-DDTHH:MM:SS[.frac]" with
 * "Z" or "+HH:MM"/"-HH:MM" (a space for the T too).  A bare number is not
 * one: it stays seconds since the profile's start, as --from/--to always
 * meant.  0 and *ns (since the epoch), or -1. */
static int parse_wall(const char *s, int64_t *ns) {
  if (s[0] == '@') { /* exact: integer seconds, then up to 9 digits of fraction */
    const char *p = s + 1;
    int neg = *p == '-';
    p += neg;
    int64_t sec = 0, frac = 0, scale = 100000000;
    const char *d0 = p;
    for (; *p >= '0' && *p <= '9'; p++) {
      sec = sec * 10 + (*p - '0');
      if (sec > 9200000000LL) return -1; /* int64 ns */
    }
    if (p == d0) return -1;
    if (*p == '.') {
      for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
        if (scale) frac += scale * (*p - '0'); /* digits past the nanosecond: dropped */
    }
    if (*p) return -1;
    *ns = neg ? -(sec * 1000000000 + frac) : sec * 1000000000 + frac;
    return 0;
  }
  size_t n = strlen(s);
  if (n < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
      s[13] != ':' || s[16] != ':')
    return -1;
  int Y = digits(s, 4), M = digits(s + 5, 2), D = digits(s + 8, 2), h = digits(s + 11, 2),
      m = digits(s + 14, 2), sec = digits(s + 17, 2);
  if (Y < 0 || M < 1 || M > 12 || D < 1 || D > 31 || h < 0 || h > 23 || m < 0 || m > 59 ||
      sec < 0 || sec > 60)
    return -1;
  const char *p = s + 19;
  int64_t frac = 0, scale = 100000000;
  if (*p == '.') {
    if (p[1] < '0' || p[1] > '9') return -1;
    for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10) frac += scale * (*p - '0');
  }
  int off = 0;
  if (*p == 'Z' || *p == 'z') p++;
  else if ((*p == '+' || *p == '-') && strlen(p) == 6 && p[3] == ':') {
    int oh = digits(p + 1, 2), om = digits(p + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return -1;
    off = (oh * 60 + om) * 60 * (*p == '-' ? -1 : 1);
    p += 6;
  } else return -1; /* a zone is required: a time without one is ambiguous */
  if (*p) return -1;
  struct tm tm = {0};
  tm.tm_year = Y - 1900;
  tm.tm_mon = M - 1;
  tm.tm_mday = D;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = sec;
  time_t t = timegm(&tm);
  if (tm.tm_mday != D) return -1; /* 2026-02-31 */
  if ((int64_t)t - off > 9200000000LL || (int64_t)t - off < -9200000000LL) return -1; /* int64 ns */
  *ns = ((int64_t)t - off) * 1000000000 + frac;
  return 0;
}

/* (pcol.h) */
int pcol_time_parse(const char *s, int64_t *ns) {
  if (!parse_seconds(s, ns)) return 0;
  return parse_wall(s, ns) ? -1 : 1;
}
