/* wall.h — where a source lies in wall-clock time (wall.c).  Inside libpcol
 * only (not installed). */
#ifndef PCOL_CORE_WALL_H
#define PCOL_CORE_WALL_H

#include "pcol.h"

/* Each source's wall-clock start and duration in ns (index 1..n; NA when
 * unknown), from one pass over sources and meta (wall.c, THE start rule):
 * stated the duration as the source states it (THE span rule,
 * pcol_wall_span, reads it: > 0, else none), any sign (0: none; pprof's duration_nanos is an int64:
 * go's headers print and add a negative one too); known[s] whether a key
 * gave start[s] (a start of INT64_MIN is NA in start, but a time there). */
typedef struct pcol_wall {
  int64_t *start, *stated;
  uint8_t *known;
  uint64_t n;
  /* part[s]: meta pcol.recording_part (0: none, or not a number from 1);
   * clock[s]: its V8 startTime (v8.start_time_us) in ns, NA when none:
   * where a Chrome trace's profile lies among the others (THE recording
   * rule, wall.c); off[s]: where its span starts, ns after its time 0
   * (meta pcol.span_start_ns, 0 none: a trace's V8 profile on the trace's
   * timeline), so that its window is [start + off, start + off + dur) */
  uint32_t *part;
  int64_t *clock, *off;
  /* cut by a range (pcol_wall_header): start[s] is then the cut window's
   * start, off[s] where that window starts after the source's time 0 */
  int clipped;
} pcol_wall;
int pcol_wall_init(pcol_file *f, pcol_wall *w, pcol_error *err);
void pcol_wall_free(pcol_wall *w);
/* One source's step of go's profile.Merge header (merge.go
 * combineHeaders; THE rule of pcol_sources_time), from *tn = *dn = 0 over
 * the sources in order: the first nonzero start replaced by any earlier
 * one, and a 0 after it taking its place as in Go; the durations added,
 * wrapping as Go's int64: start as pcol_wall_go_start gives it, stated as
 * pcol_wall holds it. */
static inline void pcol_wall_merge_step(int64_t *tn, uint64_t *dn, int64_t start, int64_t stated) {
  if (*tn == 0 || start < *tn) *tn = start;
  *dn += (uint64_t)stated;
}
/* Source s's start as Go has it (0 when none is known) */
static inline int64_t pcol_wall_go_start(const pcol_wall *w, uint64_t s) {
  return w->known[s] ? w->start[s] : 0;
}
/* pcol_wall_init, and take[s] = 1 for the sources a header of sel speaks
 * of: sel->source_id's, else every one; of a wall-clock range, those it
 * can reach (pcol_wall_overlaps' rule, a source at a time), as a query of
 * many inputs leaves out those it cannot.  Of a time range (relative or
 * wall-clock), each taken source's window cut by it (THE range rule of
 * the header, wall.c wall_clip): start, clock and stated those of the cut
 * window, a source whose window the range misses not taken.  The stated durations of the
 * taken sources of one recording (THE recording rule, wall.c
 * wall_recordings) are made its time counted once: the first taken one's
 * their span (the earliest start to the latest end), the others' 0, so
 * that go's merge step (pcol_wall_merge_step) adds a recording once and
 * separate recordings each.  free(*take), pcol_wall_free. */
int pcol_wall_header(pcol_file *f, const pcol_select *sel, pcol_wall *w, uint8_t **take,
                     pcol_error *err);
/* The sources a copy of sel states the window of (the speedscope,
 * Firefox and OTLP exports, each source's cut by pcol_wall_cut): *take of
 * pcol_wall_header, those its header speaks of (of a range, a source
 * whose cut window it hits, samples there or not; not one it misses, nor
 * of a wall-clock range one whose samples it cannot reach).  free(*take).
 * *time_ns (NULL: not asked): the header's start (pcol_sources_time's Time:, 0 none), the
 * start a copy that states each source's start gives a source it writes
 * without stating its window (rows past the duration of a window the range
 * misses), with no duration: so placed it adds nothing to the copy's
 * header in go's merge (the earliest start; a 0 after a start replaces
 * it) wherever it stands, and its rows keep their instants. */
int pcol_wall_states(pcol_file *f, const pcol_select *sel, uint8_t **take, int64_t *time_ns,
                     pcol_error *err);
/* THE recording rule's runs (spec.md §7 "Recordings", wall.c): the
 * source just past the recording source s (1..w->n) is part of: s + 1
 * when s has no pcol.recording_part, else past the run of parts K, K + 1,
 * ... that s begins (the next input of a merge starts again at 1).  Walk
 * the recordings with for (s = 1; s <= w->n; s = e) e = pcol_wall_run_end(w, s). */
uint64_t pcol_wall_run_end(const pcol_wall *w, uint64_t s);
/* THE rule of a recording's parts without a value (spec.md §7
 * "Recordings"; doc/cli.md "What a view adds up"): source s, which lacks
 * it (has[s] = 0), counts 0 there as its recording means, and no note says
 * so, when another part of its recording (its run) that keep[] selects
 * (NULL: every one) has it: 1; else 0 (a lone source, or a recording none
 * of whose selected parts has it: the note is said).  has and keep are
 * indexed by source id, 1..w->n. */
int pcol_wall_part_covered(const pcol_wall *w, uint64_t s, const uint8_t *has, const uint8_t *keep);
/* The recordings (pcol_wall_run_end's runs) of which take[] (of
 * pcol_wall_header) holds a source: those a relative range took a window
 * of, each from its own start (pcol_range_note's count). */
uint64_t pcol_wall_runs_taken(const pcol_wall *w, const uint8_t *take);
/* pcol_sources_comments of the sources 1..n that take[] (of
 * pcol_wall_header) holds: for a caller that made the header already
 * (top_many.c, each input's). */
int pcol_sources_comments_taken(pcol_file *f, uint64_t n, const uint8_t *take,
                                int (*fn)(void *ctx, pcol_str value), void *ctx, pcol_error *err);
/* pcol_range_note's words for k such recordings under sel (none below 2,
 * or without a relative range): also pcol_top_many_range_note's. */
int pcol_range_note_of(uint64_t k, const pcol_select *sel, char **note, pcol_error *err);
/* THE range rule of the header (wall.c), one source at a time, for a
 * writer of a selection's samples (the speedscope, Firefox and OTLP
 * exports): source s of w (pcol_wall_init's, not cut) under sel's time
 * range, the cut window without a recording's parts joined (a writer
 * keeps each part, and the reader joins them again).  *win: start and
 * stated the cut window's (as pcol_wall holds them: NA start, 0 stated
 * when unknown, none), shift how far its start moved (ns of the source's
 * clock: a copy's samples are written shift earlier, so that each keeps
 * its instant and the copy starts where the range's part starts), from and
 * to the range in the source's clock (INT64_MIN + 1 and INT64_MAX when
 * open; a wall-clock range made the source's by its start, as
 * pcol_wall_bounds does), cut 1 when the range moved or cut it.  Without
 * a range, and of a wall-clock one when the start is unknown: the
 * source's own, shift 0, cut 0.  Returns 0 when the range misses the
 * window (pcol_wall_header takes no such source; *win is then the
 * source's own, from and to the range's), else 1. */
typedef struct pcol_wall_window {
  int64_t start, stated, shift, from, to;
  int64_t span; /* where the (cut) window starts in the source's clock: w->off[s] uncut */
  int cut;
} pcol_wall_window;
int pcol_wall_cut(const pcol_wall *w, const pcol_select *sel, uint64_t s, pcol_wall_window *win);
/* THE span start of a cut copy (wall.c): for a writer that states where
 * each source's span starts (pcol.span_start_ns: the speedscope export's
 * pcolSpanStart), *win of pcol_wall_cut made to write the source's times
 * only as far earlier as the range starts (its from, not below 0), so
 * that the sources of one trace, which share their time 0 and are placed
 * by their span starts alone, keep a common time 0 in the copy; the span
 * then starts win->span - win->shift after it (pcol_wall_meta_cut). */
void pcol_wall_cut_keep_span(const pcol_wall *w, uint64_t s, pcol_wall_window *win);
/* THE clock keys of a copy of a cut window: a writer that copies source
 * s's meta (the OTLP export's Profile attributes) and writes its times
 * win->shift earlier (pcol_wall_cut of w, not cut: the copy's time 0 is
 * where the range's part begins, or with pcol_wall_cut_keep_span where
 * the range begins) writes the value val of key as this says: 0 as it
 * is, 1 *out instead, 2 not at all.  The keys that place the source on a
 * clock move with it: pcol.span_start_ns (win->span - win->shift, none
 * when 0), v8.time_origin_us (the copy's time 0) and v8.start_time_us (its
 * span's start, moved as far as the cut window's start), so that the copy read back lies where the range's part
 * did among its recording's parts (THE recording rule). */
int pcol_wall_meta_cut(const pcol_wall *w, uint64_t s, const pcol_wall_window *win, pcol_str key, pcol_str val,
                       char out[24]);
/* THE selection rule of recording parts (wall.c): w->part[s] made what a
 * writer of the sources take[s] writes as their pcol.recording_part (0:
 * none): a run written whole as it is, the k >= 2 written of a run in
 * part numbered 1..k, a lone one none. */
void pcol_wall_select_parts(pcol_wall *w, const uint8_t *take);
/* pcol_wall_select_parts over the sources a writer of sel writes: those
 * with a selected row (one pass over the selection), and those states[s]
 * (may be NULL: a range's windows it states, pcol_wall_states); nothing
 * changes when no source has a part, or sel selects every row of each
 * (no source, range or filter).  The speedscope and OTLP exports. */
int pcol_wall_select_parts_of(pcol_wall *w, pcol_file *f, const pcol_select *sel, const uint8_t *states,
                              pcol_error *err);
/* THE "each once" rule of comments (go's profile.Merge keeps a comment's
 * first occurrence): rep[i] = 1 when c[i] has the bytes of an earlier c[j]
 * (NA and "" alike), else 0.  PCOL_ENOMEM (nothing else set) when no room. */
int pcol_strs_repeats(const pcol_str *c, size_t n, uint8_t *rep);
/* THE sources of a selection (wall.c): *keep[s] = 1 (s in 1..n) for those
 * the default value rule (pcol_selection_default_type) and the value notes
 * count: sel->source_id's, else every one; of a wall-clock range, the
 * recordings (pcol_wall_run_end's runs) it reaches in one of their
 * sources, as a query of many inputs keeps the files it reaches (one
 * that reaches none: every one).  sel may be NULL (every source).
 * free(*keep). */
int pcol_selection_sources(pcol_file *f, const pcol_select *sel, uint8_t **keep, pcol_error *err);
/* What a selection with a range takes of source s, whose samples have
 * times (timed) or not: PCOL_WALL_RANGE with *from and *to the range
 * relative to the source's start, PCOL_WALL_ALL (every sample, whole),
 * PCOL_WALL_NONE, or an error code (a wall-clock range: no start; either
 * range: a time-less source cut, or with no duration and a range in
 * seconds other than one that holds all from its span start on).  A
 * relative range (sel->wall 0) is in the source's own clock, where it
 * starts at 0: THE span rule of a source without sample times is one rule
 * for both clocks (its span, pcol_wall_span, held whole, missed, or cut). */
enum { PCOL_WALL_RANGE = 1, PCOL_WALL_ALL = 2, PCOL_WALL_NONE = 3 };
/* THE span of source s of w (pcol_wall_init's, not pcol_wall_header's:
 * its spans are cut) in sel's clock (wall-clock
 * ns for a wall-clock range, else ns of the source's own clock): [*lo,
 * *lo + *d), from its span start (meta pcol.span_start_ns, spec.md §7);
 * *d = 0 when it states no duration (none, 0 or a negative one).  Returns
 * 0 (and *lo NA) for a wall-clock range and a source whose start is
 * unknown.  The one span pcol_wall_bounds judges and notes.c reports. */
int pcol_wall_span(const pcol_wall *w, const pcol_select *sel, uint64_t s, int64_t *lo, int64_t *d);
int pcol_wall_bounds(pcol_file *f, const pcol_wall *w, const pcol_select *sel, uint32_t s,
                     int timed, int64_t *from, int64_t *to, pcol_error *err);

#endif
