/* perfetto_v8.h — the V8 CPU profiles of a Perfetto trace (private to
 * perfetto/): Chrome writes V8's sampled profile as legacy track events
 * (TrackEvent.legacy_event, phase 'P'), "Profile" and "ProfileChunk", whose
 * "data" debug annotation holds the JSON of a Chrome JSON trace's
 * args.data (legacy_json_value).  perfetto_v8.c finds them and hands each
 * JSON to the one reader of a trace's V8 profiles (../v8_chunks.c), as
 * the JSON trace importer does (doc/mappings.md §14, §17).
 * perfetto_import.c calls it for the track descriptors (pass 1), each
 * packet's thread and track event (pass 2) and at the end. */
#ifndef PCOL_PERFETTO_V8_H
#define PCOL_PERFETTO_V8_H

#include "v8_profile.h"
#include "hash.h" /* pcol_u64map */

/* a thread as a track event names it */
typedef struct pf_v8_thread {
  int64_t pid, tid;
  uint8_t has_pid, has_tid;
} pf_v8_thread;

/* a profile's Profile event (else its first chunk): its thread, and the
 * builtin clock of its packet's time (perfetto_import.c's pclock: V8's
 * TimeTicks are on it; 0 none stated) */
typedef struct pf_v8_event {
  pf_v8_thread t;
  uint32_t clock;
} pf_v8_event;

/* a sequence's thread (its ThreadDescriptor, or a thread's
 * TrackDescriptor written on it) and its TrackEventDefaults' track */
typedef struct pf_v8_seq {
  pf_v8_thread t;
  const uint8_t *dp; /* the TracePacketDefaults dtrack was read from */
  size_t dn;
  uint64_t dtrack;
} pf_v8_seq;

/* What perfetto_import.c gives: the importer (x) and its rules. */
typedef struct pf_v8_host {
  void *x;
  pcol_builder *b;
  const char *name;
  const pcol_import_options *opt;
  pcol_error *err;
  /* a refusal naming the packet being read */
  int (*bad)(void *x, const char *msg);
  /* the packet being read in messages ("packet 12 at byte offset 345") */
  void (*where)(void *x, char *out, size_t n);
  /* the name (field 2) of interned entry (kind, iid) of sequence seq: 1,
   * 0 when the sequence's interned data has none, or a refusal */
  int (*interned_name)(void *x, const void *seq, unsigned kind, uint64_t iid, const uint8_t **p, size_t *n);
  /* a thread's source URI ("FILE: THREAD (pid P, tid T)"), *ulen its
   * length (a thread's name may hold NUL), and labels */
  int (*thread)(void *x, const pf_v8_thread *t, char **uri, size_t *ulen, uint32_t *labelset);
  /* ns of Chrome's TimeTicks (V8's clock), stated on builtin clock (0:
   * none stated), on the trace clock (*t): 1, or 0 when no clock snapshot
   * places them (perfetto_import.c chrome_ticks) */
  int (*ticks)(void *x, uint32_t clock, int64_t ns, int64_t *t);
} pf_v8_host;

typedef struct pf_v8 {
  pcol_v8c v;
  int on;                     /* v is set up (at the first profile event) */
  pcol_u64map track_ix;       /* a thread track's uuid -> tracks[] */
  pf_v8_thread *tracks;
  size_t ntracks, captracks;
  pcol_u64map seq_ix;         /* trusted_packet_sequence_id -> seqs[] */
  pf_v8_seq *seqs;
  size_t nseqs, capseqs;
  uint64_t n_events;          /* Profile and ProfileChunk events read */
  uint64_t n_no_name;         /* phase 'P' events whose name is in no interned data */
  uint64_t n_no_json;         /* Profile/ProfileChunk events without a "data" legacy_json_value */
  int64_t *at;                /* pf_v8_place: each stream's startTime on the trace clock (ns) */
  int placed;                 /* every profile's startTime is placed there */
} pf_v8;

/* a legacy event's JSON (legacy_json_value) is read up to this size */
#define PF_V8_MAX_JSON (64u << 20)

void pf_v8_free(pf_v8 *v);
/* pass 1: a TrackDescriptor (p, n): a thread track's uuid and thread */
int pf_v8_track(pf_v8 *v, const pf_v8_host *h, const uint8_t *p, size_t n);
/* pass 2: the thread of sequence seq, from a packet's ThreadDescriptor
 * (td) or TrackDescriptor (trk) that names one (n 0: none) */
int pf_v8_seq_thread(pf_v8 *v, const pf_v8_host *h, uint32_t seq, const uint8_t *td, size_t tdn, const uint8_t *trk,
                     size_t trkn);
/* pass 2: a TrackEvent (p, n) of sequence seq (seqctx: the importer's
 * state of it, for interned names; clock: its packet time's builtin clock,
 * 0 none; defaults: its TracePacketDefaults) */
int pf_v8_track_event(pf_v8 *v, const pf_v8_host *h, const void *seqctx, uint32_t seq, uint32_t clock,
                      const uint8_t *defaults, size_t dn, const uint8_t *p, size_t n);
/* at the end, before the trace's time 0 is known: each profile's
 * startTime (µs of Chrome's TimeTicks, on its Profile event's clock) on
 * the trace clock by h->ticks.
 * *placed: 1 when every profile's is (then *lo, *hi: the earliest and
 * latest, which bound the trace as a sample's time does), 0 when one is
 * not (none is: the profiles keep their own timeline, as a JSON trace's,
 * doc/mappings.md §17).  A profile without its startTime, or a bad one, is
 * left to pf_v8_finish to refuse. */
int pf_v8_place(pf_v8 *v, const pf_v8_host *h, int *placed, int64_t *lo, int64_t *hi);
/* then each profile a source of type "chrome" (doc/mappings.md §17),
 * numbered part, part + 1, ... of the recording (meta
 * pcol.recording_part, when numbered: part > 0); when placed, on the
 * trace's timeline: time 0 at zero (the trace's first timestamp, on its
 * clock), meta pprof.time_nanos = wall (PCOL_NA_I64 or <= 0: none), the
 * duration the profile's own, its span placed where its samples are
 * (pcol.span_start_ns, as a JSON trace's); *made: how many, their
 * source ids *first, *first + 1, ... */
int pf_v8_finish(pf_v8 *v, const pf_v8_host *h, int64_t part, int64_t zero, int64_t wall, size_t *made,
                 uint32_t *first);
/* how many profiles (with samples or nodes) the events gave */
size_t pf_v8_profiles(const pf_v8 *v);

#endif
