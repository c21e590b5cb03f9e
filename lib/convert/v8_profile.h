/* v8_profile.h — V8 CPU profiles, shared by the converters that read them
 * (not installed): the V8 .cpuprofile importer (v8/v8_import.c), Chrome's
 * JSON traces (v8/chrome_trace.c) and Perfetto traces (perfetto/): the V8
 * document reader (v8_profile.c) and the Profile/ProfileChunk events of a
 * trace put back together into V8 documents (v8_chunks.c).  Files directly
 * under lib/convert/ are shared by every converter (lib/README.md). */
#ifndef PCOL_V8_PROFILE_H
#define PCOL_V8_PROFILE_H

#include "pcol.h"
#include "json_pull.h"
#include <stdio.h>
#include <sys/types.h>

/* an optional number of a document ("startTime"): a time in µs is v
 * whole µs (toward zero) and frac ns more (-999..999, of v's sign) */
typedef struct vnum {
  int present, bad;
  int64_t v;
  int frac;
  double d; /* the number as a double (the old shape's seconds) */
} vnum;

/* THE rule of a time (µs) read from JSON (a V8 profile's `startTime`,
 * `endTime`, `timeDeltas`, a Chrome trace's `startTime` and its events'
 * `ts` and `dur`): an integer, or a finite double strictly within +-lim,
 * held to the ns: the number's exact decimal value (its text, not the
 * double, which at an epoch's µs, 1.7e15, is 0.25 µs apart: 128 ns off)
 * times 1000, rounded half away from zero.  *whole: the whole µs (toward
 * zero), *frac: the ns more (-999..999, of *whole's sign), *sub (NULL: not
 * asked): what the number has more than those, in ns (-0.5..0.5; THE kept
 * rule's input), *sub18 (NULL: not asked) the same exactly, in 1e-18 ns
 * (its digits past those truncated; a sum of them rounds as one time).
 * -1 when the token is no such number. */
#define PCOL_V8_NS18 1000000000000000000LL /* a ns in *sub18's units */
int pcol_v8_time_us(const pcol_jpull *j, double lim, int64_t *whole, int *frac, double *sub, int64_t *sub18);
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
 * V8's line of each sample, 1-based, 0 none; v8_chunks.c makes it one a
 * sample) give each sample's own frame that line (v8_profile.c,
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
 * is no number's text; -1: out of memory. */
int pcol_js_str_num(const char *str, size_t n, double *out);
/* One V8 Profile document read from in into a new source (type src_type,
 * URI uri[0..ulen): a thread's name in it may hold NUL) whose every sample carries the label set labelset (0: none);
 * name is the document's name in messages.  origin: the source's time
 * 0 (µs on the profile's clock, at most its startTime: a trace's
 * earliest profile start, so that its profiles share one timeline; its
 * samples are then at startTime - origin + the deltas, meta
 * v8.time_origin_us is its whole µs, and meta pcol.span_start_ns,
 * startTime - origin in ns, places the profile's span there: THE span
 * rule of a trace's profile, doc/mappings.md §14, §17), or NULL: the
 * profile's own startTime.  Either way meta v8.start_time_us,
 * v8.end_time_us and the duration are the profile's own.  pcol_import_v8 is this with
 * the file's own name and type "v8"; v8_chunks.c gives it each profile
 * of a trace. */
int pcol_v8_import_profile(pcol_builder *b, FILE *in, const char *name, const char *src_type, const char *uri,
                           size_t ulen, uint32_t labelset, unsigned flags, const vnum *origin, const pcol_import_options *opt,
                           uint32_t *source_id, uint64_t lost[3], pcol_error *err);

/* Source src's longest sample (ns), as meta pcol.max_duration_ns, so
 * that a range query's search starts early enough for the intervals that
 * start before it (spec.md §7.2); none past 18 digits (readers scan):
 * the V8 importer's and the Chrome trace's interval sources (§7.1). */
int pcol_v8_max_duration(pcol_builder *b, uint32_t src, int64_t maxd, pcol_error *err);

/* ------------------------------------------------ a trace's V8 profiles
 * THE rule of a trace's sampled V8 profiles (doc/mappings.md §14, §17),
 * for Chrome's JSON traces and Perfetto's protobuf ones: a "Profile" event
 * (args.data.startTime, µs on the trace's clock) and "ProfileChunk" events
 * of the same pid and id, each adding nodes (parent form), samples and
 * timeDeltas (args.data.cpuProfile.{nodes,samples}, args.data.timeDeltas)
 * and V8's source line of each sample (args.data.lines).  Each profile is
 * put back together as the V8 document it was cut from — its nodes,
 * samples, deltas and lines copied as text into temporary files, the
 * chunks in ts order (ties, and chunks without a ts, in the order read) —
 * and read by pcol_v8_import_profile: one source per profile, type
 * "chrome", on one timeline since the earliest profile's startTime.
 *
 * Use: per event pcol_v8c_begin, pcol_v8c_read_data on its args.data (a
 * JSON value), then pcol_v8c_add when it is a Profile or ProfileChunk
 * event; at the end pcol_v8c_origin and pcol_v8c_import for each stream
 * with samples or nodes (pcol_v8c_has_profile); pcol_v8c_free. */
enum { PCOL_V8C_NODES, PCOL_V8C_SAMPLES, PCOL_V8C_DELTAS, PCOL_V8C_LINES, PCOL_V8C_NPARTS };

typedef struct pcol_v8c_chunk {
  double ts;
  off_t at[3], len[3]; /* samples, deltas, lines: where they are in their part files */
  uint64_t nsamp;      /* its samples */
} pcol_v8c_chunk;

typedef struct pcol_v8c_stream {
  uint64_t pid;       /* the caller's key of the pid (one profile: a pid and an id) */
  void *thread;       /* the caller's thread (pcol_v8c's thread_size bytes): the Profile event's */
  int has_tid;
  char *id;           /* the trace's profile id ("0x1") */
  vnum start, end;    /* µs on the trace's clock */
  char start_at[160]; /* where start was read (a bad one is refused, naming it) */
  char start_text[40]; /* and what it was */
  FILE *part[PCOL_V8C_NPARTS]; /* the text of nodes, samples, timeDeltas and lines: elements,
                                * comma-separated (lines made at the first chunk that has them) */
  uint64_t count[PCOL_V8C_NPARTS];
  pcol_v8c_chunk *ch; /* its chunks, in the order read */
  size_t nch, capch;
  int unordered;      /* a chunk's ts is before an earlier chunk's */
  int no_ts;          /* a chunk without a ts: the order read it is */
  int closing_mark;   /* a chunk's args.data says V8_KEY_CLOSING_SAMPLE: true (pcol's export) */
  uint64_t rec;       /* its recording: args.data's V8_KEY_RECORDING (pcol's export), 0 none */
  vnum span_start;    /* args.data's V8_KEY_SPAN_START (pcol's export; present: a number) */
  char span_at[160];  /* where span_start was read, and what it was (a warning names them */
  char span_text[40]; /* when it is not taken) */
} pcol_v8c_stream;

typedef struct pcol_v8c {
  pcol_builder *b;
  const char *name;   /* the input, in messages */
  pcol_error *err;
  const pcol_import_options *opt;
  size_t thread_size;
  pcol_v8c_stream *st;
  size_t nst, capst;
  FILE *cur[PCOL_V8C_NPARTS]; /* the event being read: what its args.data held */
  uint64_t ccount[PCOL_V8C_NPARTS];
  int deltas_from;    /* the event's timeDeltas: 0 none yet, 1 args.data's, 2 cpuProfile's */
  vnum cstart, cend;
  int cmark;          /* the event's V8_KEY_CLOSING_SAMPLE: true */
  uint64_t crec;      /* the event's V8_KEY_RECORDING (a whole number from 1), 0 none */
  vnum cspan;         /* the event's V8_KEY_SPAN_START */
  char cstart_text[40]; /* the startTime read: a number's text, else what it was */
  uint64_t cstart_byte; /* the input's byte just past it */
  char cspan_text[40]; /* the same of V8_KEY_SPAN_START */
  uint64_t cspan_byte;
  uint64_t lost[3];   /* PCOL_V8_ORPHANS_AT_ROOT's counts, all profiles */
  unsigned flags;     /* more flags of pcol_v8_import_profile, 0 none */
} pcol_v8c;

/* at most this many profiles in a trace */
#define PCOL_V8C_MAX_PROFILES 4096

void pcol_v8c_init(pcol_v8c *c, pcol_builder *b, const char *name, const pcol_import_options *opt,
                   size_t thread_size, pcol_error *err);
void pcol_v8c_free(pcol_v8c *c);
/* A new event: what the last one's args.data held is forgotten. */
int pcol_v8c_begin(pcol_v8c *c);
/* The event's args.data, the value at j's current token (read to its end). */
int pcol_v8c_read_data(pcol_v8c *c, pcol_jpull *j);
/* The event (a Profile event, or a ProfileChunk one: chunk) of profile id
 * (not "") of pid, on thread (thread_size bytes; a profile's thread is its
 * Profile event's, else its first chunk's), at ts (has_ts 0: none) into
 * its profile.  where: the event in messages ("traceEvents[12]"); more
 * than PCOL_V8C_MAX_PROFILES profiles are refused. */
int pcol_v8c_add(pcol_v8c *c, uint64_t pid, const char *id, int chunk, const void *thread, int has_ts, double ts,
                 const char *where);
/* Whether stream s holds a profile (samples or nodes). */
int pcol_v8c_has_profile(const pcol_v8c_stream *s);
/* The profiles' one timeline: the earliest startTime of those with a
 * profile, as DevTools and the Firefox Profiler put every thread on the
 * trace's clock (each profile's own start would shift one thread against
 * another); NULL when none has one. */
const vnum *pcol_v8c_origin(const pcol_v8c *c);
/* The same of the profiles of recording rec (pcol_v8c_stream.rec): the
 * timeline of one recording of a trace that holds several. */
const vnum *pcol_v8c_origin_of(const pcol_v8c *c, uint64_t rec);
/* Whether stream s's startTime is there and a time: else refused (pid:
 * its pid in messages).  pcol_v8c_import checks it first too. */
int pcol_v8c_check(pcol_v8c *c, const pcol_v8c_stream *s, const char *pid);
/* Stream s read as a V8 document into a new source of type "chrome" (URI
 * uri[0..ulen), its samples labelled labelset; pid, tid: the thread in messages), meta
 * chrome.profile_id and what lost nodes left; *src: the source. */
int pcol_v8c_import(pcol_v8c *c, pcol_v8c_stream *s, const char *uri, size_t ulen, uint32_t labelset, const char *pid,
                    const char *tid, const vnum *origin, uint32_t *src);
/* Stream s in messages: "FILE: profile ID (pid P, tid T)" (NULL: out of
 * memory; free it). */
char *pcol_v8c_name(const pcol_v8c *c, const pcol_v8c_stream *s, const char *pid, const char *tid);
/* The warning (err, PCOL_OK) of the nodes the trace lost, if any. */
void pcol_v8c_lost_warning(const pcol_v8c *c, pcol_error *err);

#endif
