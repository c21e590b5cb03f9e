/* lasts.h — a sample's thread and how long a sample lasts on a timeline
 * (lasts.c).  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_LASTS_H
#define PCOL_CORE_LASTS_H

#include "pcol.h"
#include "buf.h"    /* pcol_buf */
#include "select.h" /* pcol_sample_cols */
#include "count.h"  /* pcol_rtime */
#include "period.h" /* pcol_period */

/* THE thread rule (lasts.c): a sample's thread is the tuple of its thread
 * labels (PCOL_THREAD_LABEL_KEYS: thread_name, thread, thread_id, tid; a
 * string or a number each, or absent).  (*cls)[ls] (ls = 0 .. labelsets;
 * free() it) numbers the distinct tuples of the file's label sets 1, 2, ...
 * in order of first appearance, 0 for a label set without any (and for ls
 * 0, no labels).  *n: how many. */
int pcol_thread_classes(pcol_file *f, uint32_t **cls, uint32_t *n, pcol_error *err);
/* The tuple itself of label set ls: per key of PCOL_THREAD_LABEL_KEYS (in
 * that order), kind 0 absent, 1 a string (v: its string id), 2 a number
 * (v); the first label of each key counts.  Zeroed first (compared as
 * bytes). */
#define PCOL_THREAD_NKEYS 4
typedef struct pcol_thread_tuple {
  int64_t v[PCOL_THREAD_NKEYS];
  uint8_t kind[PCOL_THREAD_NKEYS];
  uint8_t pad[8 - PCOL_THREAD_NKEYS % 8];
} pcol_thread_tuple;
extern const char *const pcol_thread_keys[PCOL_THREAD_NKEYS];
int pcol_thread_tuple_of(pcol_file *f, uint32_t ls, pcol_thread_tuple *t, pcol_error *err);
/* THE thread-name rule (lasts.c), of every surface that names a thread
 * (the report's tracks, the speedscope, Firefox and V8 exports): a thread
 * (a class of pcol_thread_classes) is named by one of its label sets,
 * pcol_thread_name_sets's: the label set of its last sample (the latest
 * time; at one time, or without times, the last row; a thread no sample
 * has: its first label set).  A thread's label sets differ only in labels
 * outside its tuple, perf's comm, which a thread that names itself after
 * it starts (prctl(PR_SET_NAME), pthread_setname_np) changes mid-way: it is
 * named by its last comm, as `perf report --sort pid` names it by its
 * current one, not by the comm of its first samples (its parent's command;
 * review 15 F6).  The other producers' names (thread_name, thread: JFR,
 * Firefox, Tachyon, V8 and Chrome traces) are in the tuple, the same in
 * every label set of the thread.  (*named)[k], k = 1 .. n (cls, n of
 * pcol_thread_classes; [0] is 0; free() it). */
int pcol_thread_name_sets(pcol_file *f, const uint32_t *cls, uint32_t n, uint32_t **named, pcol_error *err);
/* The name of label set ls's thread (ls: pcol_thread_name_sets's, or,
 * for a sample of no thread label, its own) is its string thread_name
 * (else thread) label, else its comm label (perf's command name, as `perf
 * report --sort comm` and the Firefox Profiler's perf importer name a
 * thread); its id is its first other thread label, written "KEY V" ("tid
 * 201").  Appended to out:
 * the name, with " " and the id after it when with_id (a surface that
 * shows no id of its own: speedscope, the report); the id alone without a
 * name; PCOL_THREAD_UNLABELLED without any thread label.  PCOL_OK,
 * PCOL_ENOMEM, or the file's error. */
#define PCOL_THREAD_UNLABELLED "no thread label"
int pcol_thread_name(pcol_file *f, uint32_t ls, int with_id, pcol_buf *out, pcol_error *err);
/* The first label of set ls with key `key` (a perf sample's pid): *sv its
 * string id (0: none), *nv its number (PCOL_NA_I64: none, or a string). */
int pcol_label_get(pcol_file *f, uint32_t ls, const char *key, uint32_t *sv, int64_t *nv, pcol_error *err);
/* THE thread-id rule (lasts.c): the number an export whose reader tells
 * threads or processes apart by a number (the Firefox Profiler's tid, a
 * Chrome trace's pid and tid) takes from label `key` of set ls (its first
 * such label): a number, or a string that is one's decimal text (no sign,
 * no leading zero: an eBPF profiler's thread_id "2764734", which Parca's
 * pprof writes as a string), of magnitude at most PCOL_ID_MAX (2^53 - 1:
 * those readers are JavaScript, whose numbers hold a larger one inexactly,
 * so that two ids read as one).  *v: that number, PCOL_NA_I64 when the set
 * has no such label or its value is no such number; *other (may be NULL):
 * 1 when the set has the label but its value is not such a number (a
 * name, a larger number: an id the export cannot write as one). */
#define PCOL_ID_MAX 9007199254740991LL
int pcol_label_id(pcol_file *f, uint32_t ls, const char *key, int64_t *v, int *other, pcol_error *err);
/* A thread's id by THE thread-id rule: its tid label's, else its
 * thread_id label's; *lost (may be NULL): no such id, but one of the two
 * labels is there (its value is then nowhere but the thread's name:
 * pcol_thread_name with the id). */
int pcol_thread_id(pcol_file *f, uint32_t ls, int64_t *v, int *lost, pcol_error *err);
/* THE made-up-id rule (lasts.c): an export that writes a pid or a tid
 * where the file gives none (a collapsed source's process, a thread of no
 * tid label, an id the format cannot hold) makes one up that no process or
 * thread of the file has as its own, so that a reader, which tells
 * processes and threads apart by their ids, never puts a made-up one's
 * samples on a real one's track (rd11 F1, F9: a collapsed source's made-up
 * pid 1 merged it into a perf thread's real process 1 in the Perfetto,
 * Firefox and Chrome trace exports).  The real ids: every pid label's by
 * pcol_label_id (any label set's: a thread's label sets may differ in it)
 * and every thread class's tid by pcol_thread_id, sorted. */
typedef struct pcol_real_ids {
  int64_t *id[2]; /* [PCOL_ID_PID], [PCOL_ID_TID]: sorted, no repeats */
  size_t n[2];
} pcol_real_ids;
enum { PCOL_ID_PID = 0, PCOL_ID_TID = 1 };
/* cls: pcol_thread_classes's (ncls classes).  Free with pcol_real_ids_free. */
int pcol_real_ids_init(pcol_file *f, const uint32_t *cls, uint32_t ncls, pcol_real_ids *r, pcol_error *err);
void pcol_real_ids_free(pcol_real_ids *r);
/* 1 when v is a real id of kind `kind` (PCOL_ID_PID, PCOL_ID_TID) */
int pcol_real_id(const pcol_real_ids *r, int kind, int64_t v);
/* A made-up id of kind `kind` (PCOL_ID_PID, PCOL_ID_TID): the k-th (k
 * from 0) number from `from` on that is no real id of that kind.  Source
 * s's made-up pid is (from 1) the (s - 1)-th, s itself when no pid label
 * takes one up to s; a source's k-th thread without a tid the k-th: ids
 * made up for distinct k never meet, nor any real one.  (from + k + the
 * number of real ids: callers keep it far below INT64_MAX.)  Each export
 * counts k as its reader tells threads apart: Perfetto's tids from 1 with
 * one counter over the trace (a tid names one thread track of the whole
 * trace, and 0 is the idle task's); the Chrome trace's from 1 with a
 * counter per source (a thread is its (pid, tid), and each source is its
 * own pid); the Firefox Profiler's from 0 by the thread's index (its tids
 * are only told apart, 0 is no special one). */
int64_t pcol_made_up_id(const pcol_real_ids *r, int kind, int64_t from, uint64_t k);
/* The note an export says once when it made up ids (THE made-up-id
 * rule) for n threads whose label was no id it can write: kind
 * PCOL_ID_PID or PCOL_ID_TID; bound: what the format holds ("up to 2^53
 * (a trace event's pid)"); first (may be NULL; first_len bytes, cut at
 * 100): the first such label (a pid's) or thread name (a tid's, whose
 * label is kept in the thread's name: kept_in names that field). */
void pcol_made_up_note(char *t, size_t cap, int kind, uint64_t n, const char *bound, const char *first,
                       size_t first_len, const char *kept_in);
/* The text of set ls's first label `key` (a string cut at cap - 1 bytes
 * on a character's boundary, or a number's decimal) in buf; "" when the
 * set has none. */
int pcol_label_text(pcol_file *f, uint32_t ls, const char *key, char *buf, size_t cap, pcol_error *err);
/* Meta key of source s as a finite double (a Firefox source's ms); 0 when
 * absent or not one. */
int pcol_meta_double(pcol_file *f, uint32_t s, const char *key, double *v);

/* THE interval rule (lasts.c): source s's sampling interval in ns, 0 when
 * it says none: its period (THE period rule, period.c) when the period's
 * unit is a time, else a Firefox source's meta.interval (firefox.interval_ms),
 * else an Rprof source's interval (rprof.interval_us), else the interval
 * pcol's speedscope export carried of the source it came from
 * (pcol.interval_ns, from pcolInterval); none when that is longer than the
 * duration the source states (OTLP's, else pprof's). */
int64_t pcol_source_interval(pcol_file *f, uint32_t s);
/* The interval source s states, before that check (0: none): for a note
 * that names a period which is no sampling interval; *what (may be NULL):
 * which it is, "period" (THE period rule's), else "interval (Firefox
 * meta.interval)", "interval (Rprof sample.interval)" or "interval
 * (speedscope pcolInterval)" (static text; NULL when none) */
int64_t pcol_source_interval_stated(pcol_file *f, uint32_t s, const char **what);
/* THE written period (lasts.c) of the pprof and OTLP exports: source s's
 * period by THE period rule, else, when THE interval rule finds one (a
 * Firefox source's meta.interval, which pcol's export leaves out of the
 * copy when pcol made it up: meta.pcolIntervalStated false; a speedscope
 * copy's pcol.interval_ns; an Rprof source's interval), that interval
 * as the period of the source's time, in its unit: its default type when
 * that is a time, else its first type of a time unit, else cpu/nanoseconds
 * (as an Rprof source's).  *p as pcol_source_period's (the strings borrowed
 * from f or static). */
int pcol_source_period_or_interval(pcol_file *f, uint32_t s, pcol_period *p, pcol_error *err);

/* THE span rule (lasts.c): how long a sample lasts on a timeline (the
 * speedscope export's timeline, the report's stack chart (report.c spans),
 * the Firefox export's meta.interval):
 * 1. a long sample: its duration;
 * 2. a V8 or Chrome-trace source's point sample (pcol_source_lasts_until_next):
 *    until the next sample of its thread, as DevTools draws it; the last
 *    one of its thread, for the mean gap of the thread's consecutive
 *    samples, (last - first) / (n - 1), as DevTools' CPUProfileDataModel
 *    (normalizeTimestamps: averageIntervalTime) draws it (the source's
 *    threads' gaps pooled: a V8 source has one thread; the speedscope
 *    export ends its timeline there but draws that sample, which measured
 *    no time, for none, as speedscope reads the .cpuprofile, and so does the
 *    report's stack chart: pcol_lasts_measured_none);
 * 3. its own time: its value of the source's default type when that is a
 *    time (perf's period of a cpu-clock or task-clock sample, pprof's cpu =
 *    count x period, Rprof's interval x ticks by the time rule), in ns;
 * 4. else its weight x the source's interval (pcol_source_interval);
 * 5. else, when the source's default value is an amount of memory (a JFR
 *    recording's allocation samples, a heap profile with times): none, a
 *    point at its time: such a sample is an event weighing bytes, and
 *    drawing it until the next one made up a time that speedscope's and
 *    the stack chart's views added up (5.26 ms of "Hot.main");
 * 6. nothing known: until the next sample of its thread, at most `cap`,
 *    the median gap between consecutive samples of one thread of the source
 *    (pcol_gaps over every thread's gaps); without a next, cap.
 * Never across threads: `next` is the time of the next sample of the
 * sample's own thread.  Where it begins: THE placement rule below (a
 * timeline of one thread nests: the caller draws a sample to at most where
 * the next one of its thread begins).  The median and the mean come from
 * the caller's pcol_gaps (pcol_lasts_gaps) before any span is asked. */
typedef struct pcol_lasts {
  int until_next;  /* rule 2 */
  uint32_t tvt;    /* rule 3: the type (PCOL_VT_TIME: the time rule), 0 none */
  int64_t tscale;  /* ns a unit of tvt */
  int64_t interval; /* rule 4: ns, 0 unknown */
  int points;      /* rule 5: the default value is an amount of memory */
  int64_t cap;     /* rule 6: the median gap (pcol_lasts_cap) */
  int64_t mean;    /* rule 2's last sample: the mean gap, 0 when no thread has two samples */
} pcol_lasts;
int pcol_lasts_init(pcol_lasts *l, pcol_file *f, uint32_t s, pcol_error *err);
/* Rules 3 and 5 of type d instead of the source's default (0: none): a
 * view or export of a value asked for (the Rprof export's --value, whose
 * lines are its time in ticks when it is one: l->tvt then). */
int pcol_lasts_type(pcol_lasts *l, pcol_file *f, uint32_t d, pcol_error *err);
/* What sample `row` itself says of its length by rules 3 and 4, ns; 0
 * when nothing.  rt: the time rule's state (pcol_rtime_init). */
int64_t pcol_lasts_own(const pcol_lasts *l, const pcol_sample_cols *c, const pcol_rtime *rt, uint64_t row);
/* The span of a sample at t of duration d (stored), own length `own`
 * (pcol_lasts_own), the next sample of its thread at `next` (has_next), by
 * the rule above. */
static inline int64_t pcol_lasts_span(const pcol_lasts *l, int64_t d, int64_t own, int64_t t, int has_next,
                                      int64_t next) {
  int64_t gap;
  if (d > 0 && d != PCOL_NA_I64) return d;
  if (!has_next || __builtin_sub_overflow(next, t, &gap) || gap < 0) has_next = 0, gap = 0;
  if (l->until_next && has_next) return gap;
  if (l->until_next && l->mean > 0) return l->mean; /* the last of its thread */
  if (own > 0) return own;
  if (l->points) return 0;
  return has_next && gap < l->cap ? gap : l->cap;
}

/* A sample that measured no time: rule 2's point sample of no duration
 * (V8's wall 0: the last of its thread, no sample after it measured it;
 * one of two samples at one time).  Its span still ends where rule 2 ends
 * it (DevTools' mean gap: a timeline ends there), but a timeline draws it
 * for none, as speedscope's importer reads the .cpuprofile, so the
 * timeline is the wall profile frame by frame: the speedscope export's
 * timeline (timeline_step: no frame of it) and the report's stack chart
 * (report.c spans: nothing drawn), which the report's table (wall) agrees
 * with.  (Drawn for the mean gap, a node profile's last sample fib had
 * 696.357 ms in the timeline, 694.457 ms in wall; review 13 m6.) */
static inline int pcol_lasts_measured_none(const pcol_lasts *l, int64_t d) { return l->until_next && d == 0; }

/* THE placement rule: where a sample's span (above) begins on its
 * thread's timeline.  A sample whose span is its own length (rules 3 and
 * 4: an amount of time the profiler counted, or the interval it stands
 * for, not the instant it began) begins at its time, or at the end of its
 * thread's previous sample when that one is drawn past its time by at most
 * PCOL_LASTS_LAY_MAX of the sample's own lengths: such samples lie end to
 * end, as a V8 profile's timeDeltas do, so a thread's timeline adds up to
 * its samples' time.  (Tachyon stamps the samples that catch up missed
 * ticks in bursts 10-30 us apart, each still one interval: drawn to the
 * next sample, a thread's timeline held 20-75% of its samples' time; its
 * recordings in tests/fixtures/tachyon lay a sample at most 247 intervals
 * late; perf's timer jitters around its period.)  Past that bound the
 * sample begins at its time, and the one before it is cut there: a sample
 * of an own length far past the gaps around it (a perf period of 50 s in
 * a 5 ms recording) does not move the rest of its thread, which would
 * never drain when the samples' lengths are their gaps (review-diff3 F2),
 * and a sample is never drawn more than that bound after its time.  Any
 * other sample begins at its time: a duration says when the sample ran,
 * and rules 2 and 6 end at the next sample anyway.  Never before where
 * the previous one began (a timeline's events go forward: speedscope
 * refuses them out of order), which draws that one empty.  prev: the
 * thread's previous sample as placed (pcol_laid_none for the first). */
#define PCOL_LASTS_LAY_MAX 512
typedef struct pcol_laid {
  int64_t start, end; /* where it begins and where it is drawn to (its span after start) */
} pcol_laid;
static inline pcol_laid pcol_laid_none(void) { return (pcol_laid){INT64_MIN, INT64_MIN}; }
static inline int64_t pcol_lasts_start(const pcol_lasts *l, int64_t d, int64_t own, int64_t t, int has_next,
                                       pcol_laid prev) {
  int by_own = !(d > 0 && d != PCOL_NA_I64) && !(l->until_next && (has_next || l->mean > 0)) && own > 0;
  int64_t late, bound;
  if (by_own && prev.end > t && !__builtin_sub_overflow(prev.end, t, &late) &&
      (__builtin_mul_overflow(own, (int64_t)PCOL_LASTS_LAY_MAX, &bound) || late <= bound))
    return prev.end;
  /* past the bound, after a sample itself laid late (a burst of samples
   * longer than their gaps for more than the bound): the bound late,
   * cutting that one there, not at its start, which drew it empty (1,000
   * samples of 1 ms 10 us apart: 478 drawn empty, 523 of 1001 ms shown;
   * review diff5 F2) */
  if (by_own && prev.start > t && !__builtin_mul_overflow(own, (int64_t)PCOL_LASTS_LAY_MAX, &bound) &&
      !__builtin_add_overflow(t, bound, &late) && late > prev.start)
    return late < prev.end ? late : prev.end;
  return prev.start > t ? prev.start : t;
}

/* The median of a series of gaps, from an evenly spaced subsample of at
 * most PCOL_GAPS_KEEP (every stride-th; the stride doubles, and every
 * other kept gap goes, when it is full): bounded memory for any number. */
#define PCOL_GAPS_KEEP 4096
typedef struct pcol_gaps {
  int64_t a[PCOL_GAPS_KEEP];
  size_t n;
  uint64_t stride, seen;
  __int128 sum;   /* every gap, 0 too: the mean */
  uint64_t pairs;
} pcol_gaps;
/* The gap d between two consecutive samples of one thread, in time order
 * (d >= 0; a negative d, or one that overflowed, is no gap): into the
 * mean, and when d > 0 into the median's subsample. */
void pcol_gaps_add(pcol_gaps *g, int64_t d);
/* (last - first) / (n - 1) of one thread: the gaps' sum over their count,
 * rounded to the nearest ns; 0 without any. */
int64_t pcol_gaps_mean(const pcol_gaps *g);
int64_t pcol_gaps_median(pcol_gaps *g); /* 0 without any; sorts the kept gaps */
/* Rule 6's cap, and the interval when nothing else is known: the median
 * gap of g (NULL: none), else 1 ms (no thread has two samples: not 0, which
 * would draw nothing). */
#define PCOL_LASTS_FALLBACK_NS 1000000
int64_t pcol_lasts_cap(pcol_gaps *g);
/* l's cap and mean from the gaps g (NULL: none). */
void pcol_lasts_gaps(pcol_lasts *l, pcol_gaps *g);

#endif
