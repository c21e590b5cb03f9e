/* v8.h — the V8 .cpuprofile importer's private header (not installed). */
#ifndef PCOL_V8_H
#define PCOL_V8_H

#include "pcol.h"
#include "convert.h"
#include "keys.h"
#include "json_pull.h"
#include <stdio.h>

/* an optional number of a document ("startTime"): a time in µs is v
 * whole µs (toward zero) and frac ns more (-999..999, of v's sign) */
typedef struct vnum {
  int present, bad;
  int64_t v;
  int frac;
  double d; /* the number as a double (the old shape's seconds) */
} vnum;

/* THE rule of a V8 time (µs) read from JSON (`startTime`, `endTime`,
 * `timeDeltas`, a Chrome trace's `startTime`): an integer, or a finite
 * double strictly within +-lim whose fraction is kept to the ns (rounded
 * half away from zero), as speedscope and DevTools keep it (they read the
 * double).  *whole: the whole µs (toward zero), *frac: the ns more
 * (-999..999, of *whole's sign).  -1 when the token is no such number. */
int pcol_v8_time_us(const pcol_jpull *j, double lim, int64_t *whole, int *frac);
/* The time whole µs + frac ns as JSON text (µs: "12", "12.5", "-0.25"). */
void pcol_v8_time_text(char out[40], int64_t whole, int frac);

/* PCOL_V8_ORPHANS_AT_ROOT: a node whose parent id names no node hangs
 * from the root (counted in lost[0]), as speedscope reads it, a sample of
 * an id no node has is kept with no stack (lost[1]; speedscope skips it),
 * and a child id of no node is left out (lost[2], as speedscope does),
 * instead of each being an error: a Chrome trace's chunks can be lost (the
 * tracing buffer wraps, a trace is cut), and its CpuProfile events name
 * children the trace does not hold. */
enum { PCOL_V8_ORPHANS_AT_ROOT = 1 };
/* PCOL_V8_SAMPLE_LINES: the document's "lines" (a Chrome trace's chunks':
 * V8's line of each sample, 1-based, 0 none; chrome_trace.c makes it one a
 * sample) give each sample's own frame that line (v8_import.c,
 * leaf_line_stack; doc/mappings.md §14).  A .cpuprofile has none. */
enum { PCOL_V8_SAMPLE_LINES = 2 };
/* PCOL_V8_END_AT_LAST_SAMPLE: a profile without an endTime (or with 0)
 * ends at startTime + the sum of its timeDeltas, its last sample, as
 * DevTools' TimelineModel ends a Chrome trace's profile whose chunks state
 * no endTime (V8 writes it in a last chunk when the profiler stops, which
 * a trace that ends first does not hold): the source's duration
 * (pprof.duration_nanos; doc/mappings.md §14).  A .cpuprofile states it. */
enum { PCOL_V8_END_AT_LAST_SAMPLE = 4 };
/* JavaScript's Number() of a string (StringToNumber): *out, NaN when it
 * is no number's text; -1: out of memory (chrome_trace.c). */
int pcol_js_str_num(const char *str, size_t n, double *out);
/* One V8 Profile document read from in into a new source (type src_type,
 * URI uri) whose every sample carries the label set labelset (0: none);
 * name is the document's name in messages.  origin: the source's time
 * 0 (µs on the profile's clock, at most its startTime: a Chrome trace's
 * earliest profile start, so that its profiles share one timeline; its
 * samples are then at startTime - origin + the deltas, meta
 * v8.time_origin_us is its whole µs), or NULL: the profile's own
 * startTime.  Either way meta v8.start_time_us, v8.end_time_us and the
 * duration are the profile's own.  pcol_import_v8 is this with
 * the file's own name and type "v8"; chrome_trace.c gives it each profile
 * of a trace. */
int pcol_v8_import_profile(pcol_builder *b, FILE *in, const char *name, const char *src_type, const char *uri,
                           uint32_t labelset, unsigned flags, const vnum *origin, const pcol_import_options *opt,
                           uint32_t *source_id, uint64_t lost[3], pcol_error *err);

/* Source src's longest sample (ns), as meta pcol.max_duration_ns, so
 * that a range query's search starts early enough for the intervals that
 * start before it (spec.md §7.2); none past 18 digits (readers then scan):
 * the V8 importer's and the Chrome trace's interval sources (§7.1). */
int pcol_v8_max_duration(pcol_builder *b, uint32_t src, int64_t maxd, pcol_error *err);

#endif
