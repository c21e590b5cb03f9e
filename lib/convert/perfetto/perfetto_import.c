/* perfetto_import.c — Perfetto protobuf traces' CPU stack samples
 * (doc/mappings.md §17): StackSample (the 2026 transport-neutral sample),
 * traced_perf's PerfSample and Chrome's StreamingProfilePacket.
 *
 * The trace is read whole (a regular file mapped in place; else
 * pcol_read_input: in memory, past 64 MiB a mapped temporary copy; gzip
 * inflated under the input cap) and walked twice, a packet at a time, the
 * mapped pages handed back every 8 MiB as the walk moves on, with pb_wire.h
 * (the field numbers: format/perfetto/, a trimmed copy of Perfetto's
 * protos that the tests encode fixtures with):
 *  1. the clock snapshots, the process and thread names (process_tree,
 *     track_descriptor, thread_descriptor): what any packet may need;
 *  2. each packet in order with its sequence's state as Perfetto defines
 *     it (trusted_packet_sequence_id): incremental_state_cleared or
 *     SEQ_INCREMENTAL_STATE_CLEARED starts a new generation of interned
 *     data; previous_packet_dropped makes it invalid until then, and a
 *     packet with SEQ_NEEDS_INCREMENTAL_STATE is skipped while it is (as
 *     trace_processor skips it); trace_packet_defaults give the clock and
 *     the samples' descriptors; interned_data entries are kept as where
 *     their bytes are, by (sequence, field, iid), the last one given
 *     winning, and dropped with what was made of them when the sequence's
 *     state is cleared (gen_drop: the entries held follow the live
 *     generations, not their count).  A sample's callstack is resolved
 *     when it is read, against the generation in force, into the builder's
 *     stacks (cached by sequence and iid for the generation); an iid the
 *     generation does not hold is refused naming the packet.
 * compressed_packets (deflate) are inflated once, under the input cap, and
 * read as the packets they hold: in pass 1 one at a time, then appended to
 * a copy (past 8 MiB a mapped temporary file) that pass 2 reads.
 * Samples go with their trace-clock times to a sorter (lib/core/rowsort.c)
 * and come back by source and time; time 0 is the trace's first timestamp
 * (the earliest of any packet's). */
#include "convert.h"
#include "buf.h"      /* pcol_buf, pcol_grow */
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "hash.h"     /* pcol_hset, pcol_hash2 */
#include "instream.h" /* pcol_inflate_cap */
#include "keys.h"     /* PCOL_SRC_PERFETTO, PCOL_VT_SAMPLES, ... */
#include "pb_wire.h"  /* pcol_pb_next, pcol_pb_varint */
#include "read_all.h" /* pcol_input, pcol_read_input */
#include "rowsort.h"  /* pcol_rowsort */
#include "perfetto_v8.h" /* the V8 profiles of Chrome's legacy track events */
#include "srcname.h"  /* pcol_source_name */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ----------------------------------------------------- field numbers */
enum { /* Trace, TracePacket */
  F_TRACE_PACKET = 1,
  P_PROCESS_TREE = 2,
  P_CLOCK_SNAPSHOT = 6,
  P_TIMESTAMP = 8,
  P_SEQ_ID = 10,
  P_INTERNED = 12,
  P_SEQ_FLAGS = 13,
  P_PROFILE_PACKET = 37,
  P_CLEARED = 41,
  P_DROPPED = 42,
  P_PROCESS_DESCRIPTOR = 43,
  P_THREAD_DESCRIPTOR = 44,
  P_COMPRESSED = 50,
  P_STREAMING = 54,
  P_HEAP_GRAPH = 56,
  P_TIMESTAMP_CLOCK = 58,
  P_DEFAULTS = 59,
  P_TRACK_DESCRIPTOR = 60,
  P_MODULE_SYMBOLS = 61,
  P_PERF_SAMPLE = 66,
  P_TRACK_EVENT = 11,
  P_STACK_SAMPLE = 135,
};
enum { SEQ_CLEARED = 1, SEQ_NEEDS_STATE = 2 };
enum { /* InternedData */
  I_FUNCTION_NAMES = 5,
  I_FRAMES = 6,
  I_CALLSTACKS = 7,
  I_BUILD_IDS = 16,
  I_MAPPING_PATHS = 17,
  I_SOURCE_PATHS = 18,
  I_MAPPINGS = 19,
  I_TASK_CONTEXTS = 48,
  I_EXEC_CONTEXTS = 49,
  I_COUNTER_DESCRIPTORS = 50,
  I_ASYNC_CONTEXTS = 51,
  /* (kinds of the cache entries: no InternedData field has them) */
  K_STACK = 250,
  K_LOCATION = 251,
  K_PROCESS = 252,
  K_THREAD = 253,
  K_TGID = 249, /* a thread's process (process_tree threads' tgid) */
  K_MAPPING = 254, /* a Mapping iid's pcol mapping (v) and symbol key (m.n) */
};
/* a mapping's joined path_string_ids are cut here (PATH_MAX), so that a
 * file makes at most this much path per Mapping entry it holds */
#define PATH_CAP 4096
#define BOOTTIME 6
#define MONOTONIC 3
#define REALTIME 1
/* a sample row's values: samples, the primary weight, followers */
#define PV_MAX 8
/* sources (a kind, a stream's source name and timebase): more are refused */
#define MAX_SOURCES 4096

typedef struct pspan {
  const uint8_t *p;
  size_t n;
} pspan;

/* an interned entry or a cache entry: (a, b) -> the bytes, or a value;
 * next: the next entry of its sequence's generation (seqst.ghead), or of
 * the free entries (pimp.efree), 1-based, 0 at the end */
typedef struct ientry {
  uint64_t a, b;
  pspan m;
  uint32_t v, next;
} ientry;

/* A counter descriptor's name and unit (StackSample.CounterDescriptor) */
typedef struct cdesc {
  pspan name;
  const char *unit;
  pspan unit_str;
  uint64_t mult;
} cdesc;

/* what a sequence's TracePacketDefaults give, read once when first needed
 * after a packet sets them (D_*: which parts are read), not per sample */
enum { D_CLOCK = 1, D_STACK = 2, D_PERF = 4 };
typedef struct seqst {
  uint32_t id;          /* trusted_packet_sequence_id */
  uint32_t no;          /* 1 + its index in pimp.seq: its entries' keys */
  uint32_t ghead;       /* its generation's entries, a chain (ientry.next) */
  int invalid;          /* packet loss since the last clear */
  pspan defaults;       /* TracePacketDefaults (n == 0: none) */
  unsigned dread;       /* D_*: the parts of defaults read into these */
  uint32_t dclock;      /* timestamp_clock_id (0: none) */
  pspan ss_stream;      /* StackSampleDefaults: source, */
  cdesc ss_primary;     /* primary descriptor, */
  int ss_has_primary;
  cdesc ss_fd[PV_MAX - 2]; /* followers (ss_nfd may count more) */
  uint32_t ss_nfd;
  cdesc pf_v0;          /* PerfSampleDefaults' timebase: name and unit, */
  int64_t pf_period;    /* period, */
  uint64_t pf_freq;     /* frequency */
  int has_td, has_ref;  /* a ThreadDescriptor; its reference time */
  int64_t pid, tid, tev_ns; /* its pid, tid; the track-event clock (ns) */
  uint32_t sbase;       /* the builtin clock its sequence-scoped clocks (64..127) count, by its
                         * latest ClockSnapshot naming both (Chrome's TimeTicks' clock), 0 none */
  /* its source's window (window_event): a slice of category pcol.window
   * on track win_track, begun (1) at win_lo, closed (2) at win_hi (-1: a
   * second or unclosed one, none); the window starts win_span ns after
   * the source's time 0; win_rec its recording; win_pkt, win_off, win_z
   * its begin's packet (where_at); src1: 1 + the source of its last
   * sample (0 none) */
  int win;
  int64_t win_lo, win_hi, win_span;
  uint64_t win_rec, win_track, win_pkt;
  size_t win_off;
  int win_z;
  uint32_t src1;
} seqst;

typedef struct snap {
  uint32_t n;
  uint32_t id[8];
  uint64_t ts[8];
} snap;

/* a clock's times paired with the trace clock's, by the snapshots */
typedef struct cpair {
  uint64_t c, t;
} cpair;

typedef struct psource {
  uint32_t id, nvt;
  uint32_t vt[PV_MAX];
  uint64_t samples;
  pcol_buf key; /* kind, then the names that make it */
  /* its window, from its sequences' (finish): win 1 stated, -1 two that
   * differ (windows: 1 taken, else 0); lo, hi, span, rec, pkt, off, z as
   * seqst's; tlo, thi: its samples' first and last times */
  int win;
  int64_t wlo, whi, wspan, tlo, thi;
  uint64_t wrec, wpkt;
  size_t woff;
  int wz;
  int64_t zero; /* its time 0 on the trace clock (its rows' times count from it) */
} psource;

typedef struct prow {
  uint32_t src, stack, labels, nv;
  int64_t t;
  uint64_t seq;
  int64_t v[PV_MAX];
} prow;

typedef struct pimp {
  pcol_builder *b;
  const char *name;
  const pcol_import_options *opt;
  pcol_error *err;
  pcol_input raw;
  /* compressed_packets, inflated in pass 1 one at a time (ztmp) and
   * appended to zin, which past 8 MiB is a mapped temporary file (sealed
   * after pass 1): packet k's are zin.data[zoff[k - 1] (0 for the first)
   * .. zoff[k]), which pass 2 reads, its pages handed back as it goes;
   * zfix: the module symbols read in pass 1 from inflated bytes, placed
   * in zin once it is sealed */
  pcol_input zin;
  pcol_buf ztmp;
  uint64_t *zoff;
  size_t nz, zcap, zat, zgiven;
  uint64_t zbytes, zstart; /* inflated so far; where ztmp's bytes go in zin */
  struct zfix *zfix;
  size_t nzfix, zfixcap;
  /* packets: the number of the one being read (from 1), its offset */
  uint64_t pkt;
  size_t pkt_off;
  int in_z; /* reading inflated packets */
  /* interned entries and caches */
  ientry *e;
  size_t ne, ecap;
  uint32_t efree; /* entries of superseded generations, to reuse */
  pcol_hset eh;
  seqst *seq;
  size_t nseq, seqcap;
  snap *snaps;
  size_t nsnap, snapcap;
  pcol_hset snaph; /* the snapshots by their clocks and times */
  cpair *conv[64]; /* per clock id: (its time, the trace clock's), sorted */
  size_t nconv[64], convcap[64];
  uint32_t trace_clock;
  psource *src;
  size_t nsrc, srccap;
  pcol_hset srch; /* sources by key */
  pcol_buf key;   /* scratch: a source's key */
  pcol_rowsort *rows;
  uint64_t nrows;
  int have_t, have_s;
  int64_t tmin, tmax; /* the trace's first and last timestamps */
  int64_t smin, smax; /* the samples' (the bounds when no time converts) */
  /* the packet of the latest of them (where(): refused when it is past
   * 2262 on the wall clock, finish) */
  uint64_t late_pkt;
  size_t late_off;
  int late_z;
  /* notes: what was read and not kept */
  uint64_t n_skipped_state, n_empty, n_nostack, n_lost_records, n_skipped_perf, n_heap, n_heapgraph,
      n_no_ref, n_unconverted, n_followers_cut, n_no_ts, n_perf_followers, n_negative, n_paths_cut;
  /* string ids */
  uint32_t k_pid, k_tid, k_thread, k_process, k_cpu, k_mode, k_async, u_count;
  /* scratch */
  uint32_t *locs;
  size_t nlocs, loccap;
  pcol_stack_memo memo; /* the last stack's nodes: pcol_b_stack_memo */
  pcol_line_row *lines;
  size_t nlines, linecap;
  pcol_buf tmp;
  struct ctxv *cv; /* interned contexts and descriptors, read once */
  size_t ncv, cvcap;
  uint32_t *cvfree; /* cv slots of superseded generations, to reuse */
  size_t ncvfree, cvfreecap;
  size_t given; /* the input's pages before this handed back (walk) */
  pf_v8 v8;        /* V8's Profile/ProfileChunk legacy events (perfetto_v8.c) */
  pf_v8_host host;
} pimp;

/* ------------------------------------------------------------ errors */
/* packet pkt at byte offset off (z: inside the compressed packets there), in messages */
static void where_at(uint64_t pkt, size_t off, int z, char *out, size_t n) {
  if (z) snprintf(out, n, "packet %" PRIu64 " (inside the compressed packets at byte offset %zu)", pkt, off);
  else snprintf(out, n, "packet %" PRIu64 " at byte offset %zu", pkt, off);
}
/* the packet being read */
static void where(void *ctx, char *out, size_t n) {
  const pimp *x = ctx;
  where_at(x->pkt, x->pkt_off, x->in_z, out, n);
}
/* the packet being read holds the latest time so far */
static void late(pimp *x) { x->late_pkt = x->pkt, x->late_off = x->pkt_off, x->late_z = x->in_z; }
static int bad(pimp *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(pimp *x, const char *fmt, ...) {
  char m[512], w[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  where(x, w, sizeof w);
  return pcol_error_set(x->err, PCOL_ECORRUPT, "%s: Perfetto trace: %s: %s", x->name, w, m);
}

/* The next field of message m at *i: 1, 0 at its end, or a refusal naming
 * the message. */
static int next(pimp *x, pspan m, size_t *i, pcol_pb_field *f, const char *what) {
  if (*i >= m.n) return 0;
  int r = pcol_pb_next(m.p, m.n, i, f);
  if (r == -3) return bad(x, "%s: field %" PRIu64 " has the unknown wire type %u", what, f->field, f->wt);
  if (r) return bad(x, "%s: a field is cut off or its varint is longer than 10 bytes", what);
  if (f->field == 0) return bad(x, "%s: field number 0", what);
  return 1;
}
/* each field f of message m: the body (a block) runs with f set; a
 * refusal returns from the function (nested loops use another f) */
#define FIELDS(x, m, f, what, ...)                                      \
  do {                                                                  \
    size_t i_##f = 0;                                                   \
    int r_##f;                                                          \
    while ((r_##f = next((x), (m), &i_##f, &(f), (what))) == 1) __VA_ARGS__ \
    if (r_##f < 0) return r_##f;                                        \
  } while (0)
static pspan sub(const pspan *m, const pcol_pb_field *f) { return (pspan){m->p + f->b, f->e - f->b}; }

/* each varint of a repeated field (packed or not) */
typedef int (*each_fn)(pimp *x, void *ctx, uint64_t v);
static int each_varint(pimp *x, pspan m, const pcol_pb_field *f, each_fn fn, void *ctx, const char *what) {
  if (f->wt == 0) return fn(x, ctx, f->v);
  if (f->wt != 2) return bad(x, "%s: field %" PRIu64 " is not a varint", what, f->field);
  size_t i = f->b;
  while (i < f->e) {
    uint64_t v;
    if (pcol_pb_varint(m.p, f->e, &i, &v)) return bad(x, "%s: a packed varint is cut off", what);
    int rc = fn(x, ctx, v);
    if (rc) return rc;
  }
  return 0;
}

/* ------------------------------------------------------ entry table */
static int e_eq(const void *ctx, uint32_t id, const void *key) {
  const pimp *x = ctx;
  const uint64_t *k = key;
  return x->e[id - 1].a == k[0] && x->e[id - 1].b == k[1];
}
static uint64_t e_hash(uint64_t a, uint64_t b) { return pcol_hash2(0x70667470, a, b); }
static ientry *e_find(pimp *x, uint64_t a, uint64_t b) {
  uint64_t k[2] = {a, b};
  uint32_t id = pcol_hset_find(&x->eh, e_hash(a, b), e_eq, x, k);
  return id ? &x->e[id - 1] : NULL;
}
/* the entry (a, b), made when new (a free one reused first); s: it is of
 * s's generation (dropped with it: gen_drop) */
static int e_put_of(pimp *x, const seqst *s, uint64_t a, uint64_t b, ientry **out) {
  ientry *o = e_find(x, a, b);
  if (o) return *out = o, 0;
  uint32_t id = x->efree;
  if (id) {
    x->efree = x->e[id - 1].next;
  } else {
    if (x->ne >= UINT32_MAX - 1) return bad(x, "more than 2^32 interned entries");
    if (x->ne == x->ecap && pcol_grow(&x->e, &x->ecap, sizeof *x->e)) return pcol_oom(x->err);
    id = (uint32_t)++x->ne;
  }
  x->e[id - 1] = (ientry){a, b, {NULL, 0}, 0, 0};
  if (pcol_hset_insert(&x->eh, e_hash(a, b), id)) {
    x->e[id - 1].next = x->efree, x->efree = id;
    return pcol_oom(x->err);
  }
  if (s) x->e[id - 1].next = x->seq[s->no - 1].ghead, x->seq[s->no - 1].ghead = id;
  *out = &x->e[id - 1];
  return 0;
}
static int e_put(pimp *x, uint64_t a, uint64_t b, ientry **out) { return e_put_of(x, NULL, a, b, out); }
/* a generation's entries are keyed by their sequence (one generation of
 * it at a time), kind and iid */
static uint64_t gkey(const seqst *s, unsigned kind) { return (uint64_t)s->no << 8 | kind; }
/* s's incremental state is cleared: its generation's entries (interned
 * data and what was made of it: stacks, locations, mappings, contexts)
 * leave the table, their slots (and the contexts' values) to be reused,
 * so that the entries held follow the live generations, not their count */
static int gen_drop(pimp *x, seqst *s) {
  for (uint32_t id = s->ghead, nx; id; id = nx) {
    ientry *e = &x->e[id - 1];
    nx = e->next;
    unsigned kind = (unsigned)(e->b & 0xff);
    if (e->v && (kind == I_TASK_CONTEXTS || kind == I_EXEC_CONTEXTS || kind == I_COUNTER_DESCRIPTORS)) {
      /* (no more than were made: the array grown once holds them all) */
      if (x->ncvfree == x->cvfreecap && pcol_grow(&x->cvfree, &x->cvfreecap, sizeof *x->cvfree))
        return pcol_oom(x->err);
      x->cvfree[x->ncvfree++] = e->v - 1;
    }
    (void)pcol_hset_remove(&x->eh, e_hash(e->a, e->b), id);
    *e = (ientry){0, 0, {NULL, 0}, 0, x->efree};
    x->efree = id;
  }
  s->ghead = 0;
  return 0;
}

/* ModuleSymbols are found by (the module's path, its raw build id) and an
 * address: the pair hashed into b (bit 63 set, bit 0 clear: no
 * generation key, sequence or name entry has such a b) */
static uint64_t sym_key(pspan path, pspan bid) {
  uint64_t h = pcol_hash_bytes(path.p, path.n, 0x6d6f64);
  h = pcol_hash2(0x6d6f6473, h, pcol_hash_bytes(bid.p, bid.n, 0x626964));
  return (h | (uint64_t)1 << 63) & ~(uint64_t)1;
}

/* ---------------------------------------------------------- sequences */
static int seq_of(pimp *x, uint32_t id, seqst **out) {
  ientry *e;
  int rc = e_put(x, id, UINT64_MAX, &e);
  if (rc) return rc;
  if (!e->v) {
    if (x->nseq == x->seqcap && pcol_grow(&x->seq, &x->seqcap, sizeof *x->seq)) return pcol_oom(x->err);
    x->seq[x->nseq] = (seqst){.id = id, .no = (uint32_t)x->nseq + 1};
    e->v = (uint32_t)++x->nseq;
  }
  *out = &x->seq[e->v - 1];
  return 0;
}

/* ------------------------------------------------------------- clocks */
static int snap_eq(const void *ctx, uint32_t id, const void *key) {
  const snap *p = &((const pimp *)ctx)->snaps[id - 1], *q = key;
  if (p->n != q->n) return 0;
  for (uint32_t k = 0; k < p->n; k++)
    if (p->id[k] != q->id[k] || p->ts[k] != q->ts[k]) return 0;
  return 1;
}
static int read_snapshot(pimp *x, pspan m) {
  snap s = {0};
  pcol_pb_field f, g;
  FIELDS(x, m, f, "clock_snapshot", {
    if (f.field == 2 && f.wt == 0) x->trace_clock = (uint32_t)f.v; /* primary_trace_clock */
    if (f.field != 1 || f.wt != 2) continue;
    pspan c = sub(&m, &f);
    uint64_t id = 0, ts = 0;
    int has = 0;
    FIELDS(x, c, g, "clock_snapshot.clocks", {
      if (g.field == 1 && g.wt == 0) id = g.v;
      if (g.field == 2 && g.wt == 0) ts = g.v, has = 1;
    });
    if (has && s.n < 8 && id < 64) s.id[s.n] = (uint32_t)id, s.ts[s.n++] = ts;
  });
  if (!s.n) return 0;
  /* one the same as an earlier one (a trace made of copies of one, a
   * sequence that repeats its snapshot) places no time anew */
  pcol_hstate h;
  pcol_hs_init(&h, 0x736e6170);
  for (uint32_t k = 0; k < s.n; k++) pcol_hs_add(&h, s.id[k]), pcol_hs_add(&h, s.ts[k]);
  uint64_t hash = pcol_hs_end(&h);
  if (pcol_hset_find(&x->snaph, hash, snap_eq, x, &s)) return 0;
  if (x->nsnap >= 1u << 20) return 0; /* (enough to place any time) */
  if (x->nsnap == x->snapcap && pcol_grow(&x->snaps, &x->snapcap, sizeof *x->snaps)) return pcol_oom(x->err);
  x->snaps[x->nsnap++] = s;
  if (pcol_hset_insert(&x->snaph, hash, (uint32_t)x->nsnap)) return pcol_oom(x->err);
  return 0;
}
static int snap_get(const snap *s, uint32_t id, uint64_t *ts) {
  for (uint32_t k = 0; k < s->n; k++)
    if (s->id[k] == id) return *ts = s->ts[k], 1;
  return 0;
}
static int cpair_cmp(const void *a, const void *b) {
  const cpair *p = a, *q = b;
  return p->c < q->c ? -1 : p->c > q->c;
}
/* After pass 1: each clock's pairs with the trace clock, sorted by its time */
static int conv_tables(pimp *x) {
  uint32_t tc = x->trace_clock ? x->trace_clock : BOOTTIME;
  for (size_t k = 0; k < x->nsnap; k++) {
    uint64_t st;
    if (!snap_get(&x->snaps[k], tc, &st)) continue;
    for (uint32_t j = 0; j < x->snaps[k].n; j++) {
      uint32_t c = x->snaps[k].id[j];
      if (c == tc) continue;
      if (x->nconv[c] == x->convcap[c] && pcol_grow(&x->conv[c], &x->convcap[c], sizeof *x->conv[c]))
        return pcol_oom(x->err);
      x->conv[c][x->nconv[c]++] = (cpair){x->snaps[k].ts[j], st};
    }
  }
  for (int c = 0; c < 64; c++)
    if (x->nconv[c] > 1) qsort(x->conv[c], x->nconv[c], sizeof *x->conv[c], cpair_cmp);
  return 0;
}
/* t on clock c in the trace clock's ns, by the latest snapshot that holds
 * both clocks and is not after t (else the earliest), as trace_processor's
 * clock tracker converts; 0 when none can (or the result is past 64 bits) */
static int to_trace(pimp *x, uint32_t c, int64_t t, int64_t *out) {
  uint32_t tc = x->trace_clock ? x->trace_clock : BOOTTIME;
  if (!c || c == tc) return *out = t, 1;
  if (c >= 64 || !x->nconv[c] || t < 0) return 0;
  const cpair *a = x->conv[c];
  size_t lo = 0, hi = x->nconv[c]; /* the first pair after t */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (a[mid].c <= (uint64_t)t) lo = mid + 1;
    else hi = mid;
  }
  const cpair *p = &a[lo ? lo - 1 : 0];
  if (p->c > INT64_MAX || p->t > INT64_MAX) return 0;
  int64_t d, r;
  if (__builtin_sub_overflow(t, (int64_t)p->c, &d) || __builtin_add_overflow(d, (int64_t)p->t, &r)) return 0;
  *out = r;
  return 1;
}

/* THE rule of Chrome's TimeTicks (ns: base::TimeTicks, V8's too) on the
 * trace clock: on the builtin clock the trace states them on (a V8
 * profile's: its Profile event's packet clock, kTraceClockId: MONOTONIC on
 * Linux, Android and ChromeOS, BOOTTIME on macOS and Windows), else (clock
 * 0) CLOCK_MONOTONIC, as trace_processor's ProfileModule places the
 * sampler's reference_timestamp_us and deltas; placed by the snapshots
 * (doc/mappings.md §17); 0 when none can */
static int chrome_ticks(pimp *x, uint32_t clock, int64_t ns, int64_t *t) {
  return to_trace(x, clock ? clock : MONOTONIC, ns, t);
}

/* A sequence's ClockSnapshot (m): the builtin clock its sequence-scoped
 * clocks count, when it names both (Chrome's track events: 64 and 65 in
 * µs beside kTraceClockId) */
static int seq_clocks(pimp *x, seqst *s, pspan m) {
  pcol_pb_field f, g;
  uint32_t base = 0;
  int scoped = 0;
  FIELDS(x, m, f, "clock_snapshot", {
    if (f.field != 1 || f.wt != 2) continue;
    pspan c = sub(&m, &f);
    FIELDS(x, c, g, "clock_snapshot.clocks", {
      if (g.field != 1 || g.wt != 0) continue;
      if (g.v >= 64 && g.v < 128) scoped = 1;
      else if (g.v && g.v < 64 && !base) base = (uint32_t)g.v;
    });
  });
  if (scoped && base) s->sbase = base;
  return 0;
}

/* ------------------------------------------------------------ names */
static int put_name(pimp *x, unsigned kind, int64_t id, pspan s) {
  ientry *e;
  int rc = e_put(x, (uint64_t)id, kind, &e);
  if (!rc && s.n) rc = pcol_b_string(x->b, s.p, s.n, &e->v, x->err);
  return rc;
}
static uint32_t name_of(pimp *x, unsigned kind, int64_t id) {
  ientry *e = e_find(x, (uint64_t)id, kind);
  return e ? e->v : 0;
}
static int read_process_tree(pimp *x, pspan m) {
  pcol_pb_field f, g;
  FIELDS(x, m, f, "process_tree", {
    if (f.wt != 2 || (f.field != 1 && f.field != 2)) continue;
    pspan c = sub(&m, &f);
    int64_t id = 0, tgid = 0;
    pspan nm = {NULL, 0};
    int first = 1, has_tgid = 0;
    FIELDS(x, c, g, f.field == 1 ? "process_tree.processes" : "process_tree.threads", {
      if (g.field == 1 && g.wt == 0) id = (int32_t)g.v;
      if (f.field == 2 && g.field == 3 && g.wt == 0) tgid = (int32_t)g.v, has_tgid = 1;
      if (f.field == 1 && g.field == 3 && g.wt == 2 && first) nm = sub(&c, &g), first = 0; /* cmdline[0] */
      if (f.field == 2 && g.field == 2 && g.wt == 2) nm = sub(&c, &g);
    });
    if (nm.n) {
      int rc = put_name(x, f.field == 1 ? K_PROCESS : K_THREAD, id, nm);
      if (rc) return rc;
    }
    if (has_tgid) {
      ientry *e;
      int rc = e_put(x, (uint64_t)id, K_TGID, &e);
      if (rc) return rc;
      e->v = (uint32_t)tgid + 1;
    }
  });
  return 0;
}
/* ThreadDescriptor (thread_descriptor, track_descriptor.thread) or
 * ProcessDescriptor (track_descriptor.process): their names */
static int read_descriptor(pimp *x, pspan m, int thread) {
  pcol_pb_field f;
  int64_t pid = 0, tid = 0;
  pspan nm = {NULL, 0};
  FIELDS(x, m, f, thread ? "thread descriptor" : "process descriptor", {
    if (f.field == 1 && f.wt == 0) pid = (int32_t)f.v;
    if (thread && f.field == 2 && f.wt == 0) tid = (int64_t)f.v;
    if (f.field == (thread ? 5u : 6u) && f.wt == 2) nm = sub(&m, &f);
  });
  return nm.n ? put_name(x, thread ? K_THREAD : K_PROCESS, thread ? tid : pid, nm) : 0;
}

/* ------------------------------------------------------------- walking */
typedef int (*packet_fn)(pimp *x, pspan pk);
static int inflate_packets(pimp *x, pspan z, pcol_buf *out) {
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit(&s) != Z_OK) return pcol_oom(x->err);
  /* as a gzip input's: the option, else 64 x the trace's bytes, at least
   * 32 MiB (a deflate bomb stops there) */
  uint64_t cap = pcol_inflate_cap(x->opt, x->raw.len);
  s.next_in = (Bytef *)(uintptr_t)z.p;
  s.avail_in = z.n > UINT32_MAX ? UINT32_MAX : (uInt)z.n;
  int zr = Z_OK, rc = 0;
  while (zr == Z_OK) {
    if (out->cap - out->len < 65536 && pcol_buf_reserve(out, out->len < 65536 ? 65536 : out->len)) {
      rc = pcol_oom(x->err);
      break;
    }
    s.next_out = out->data + out->len;
    s.avail_out = (uInt)(out->cap - out->len > UINT32_MAX ? UINT32_MAX : out->cap - out->len);
    size_t before = s.avail_out;
    zr = inflate(&s, Z_NO_FLUSH);
    out->len += before - s.avail_out;
    if (x->zbytes + out->len > cap) {
      rc = bad(x, "compressed_packets inflate past the input cap (%" PRIu64 " bytes)", cap);
      break;
    }
    if (zr == Z_BUF_ERROR && s.avail_in == 0) break;
  }
  if (!rc && zr != Z_STREAM_END) rc = bad(x, "compressed_packets: not a whole zlib stream");
  inflateEnd(&s);
  if (!rc) x->zbytes += out->len;
  return rc;
}
/* a module symbol of inflated bytes (pass 1): entry id's bytes are zin's
 * [off, off + n) once zin is sealed (its v ZPENDING until then) */
typedef struct zfix {
  uint32_t id;
  uint64_t off;
  size_t n;
} zfix;
#define ZPENDING UINT32_MAX
/* after pass 1: the inflated packets sealed, the module symbols placed */
static int z_seal(pimp *x) {
  if (!x->nz) return 0;
  pcol_buf_free(&x->ztmp);
  int rc = pcol_input_seal(&x->zin, x->name, x->err);
  if (rc) return rc;
  for (size_t k = 0; k < x->nzfix; k++) { /* (in order: the last given wins) */
    ientry *e = &x->e[x->zfix[k].id - 1];
    if (e->v == ZPENDING) e->m = (pspan){x->zin.data + x->zfix[k].off, x->zfix[k].n};
  }
  for (size_t k = 0; k < x->nzfix; k++)
    if (x->e[x->zfix[k].id - 1].v == ZPENDING) x->e[x->zfix[k].id - 1].v = 0;
  free(x->zfix);
  x->zfix = NULL, x->nzfix = x->zfixcap = 0;
  return 0;
}
static int walk(pimp *x, pspan t, packet_fn fn, int pass) {
  size_t i = 0;
  pcol_pb_field f;
  while (i < t.n) {
    size_t at = i;
    int r = pcol_pb_next(t.p, t.n, &i, &f);
    if (!x->in_z) x->pkt_off = at;
    if (r) {
      x->pkt++;
      return bad(x, "the trace is cut off or damaged here (%zu bytes%s)", t.n, x->in_z ? " inflated" : "");
    }
    if (f.field != F_TRACE_PACKET) continue; /* (Trace has no other field) */
    if (f.wt != 2) return bad(x, "a packet that is not a message (wire type %u)", f.wt);
    x->pkt++;
    pspan pk = sub(&t, &f);
    /* compressed_packets: the packets they hold, in their place */
    size_t j = 0;
    pcol_pb_field g;
    int rc;
    if (!x->in_z) {
      uint64_t here = x->pkt;
      while (j < pk.n && !pcol_pb_next(pk.p, pk.n, &j, &g))
        if (g.field == P_COMPRESSED && g.wt == 2) {
          pspan zb;
          uint64_t end;
          if (pass == 1) {
            if (x->nz == x->zcap && pcol_grow(&x->zoff, &x->zcap, sizeof *x->zoff)) return pcol_oom(x->err);
            x->ztmp.len = 0, x->zstart = x->zbytes;
            if ((rc = inflate_packets(x, sub(&pk, &g), &x->ztmp))) return rc;
            zb = (pspan){x->ztmp.data, x->ztmp.len};
            end = x->zoff[x->nz++] = x->zbytes;
          } else {
            if (x->zat >= x->nz) return bad(x, "compressed packets changed between passes");
            uint64_t a = x->zat ? x->zoff[x->zat - 1] : 0;
            end = x->zoff[x->zat++];
            zb = (pspan){x->zin.data + a, (size_t)(end - a)};
          }
          x->in_z = 1;
          rc = walk(x, zb, fn, pass);
          x->in_z = 0;
          if (rc) return rc;
          x->pkt = here;
          if (pass == 1) { /* (past 8 MiB in all, to a temporary file) */
            x->zin.spill_at = (size_t)8 << 20;
            if ((rc = pcol_input_append(&x->zin, x->ztmp.data, x->ztmp.len, x->name, x->err))) return rc;
          } else if (end - x->zgiven >= ((size_t)8 << 20)) {
            pcol_input_done(&x->zin, (size_t)x->zgiven, (size_t)end), x->zgiven = end;
          }
        }
    }
    if ((rc = fn(x, pk))) return rc;
    /* a mapped input's pages read hand back every 8 MiB (what is read
     * again, a generation's interned entries, comes back from the page
     * cache) */
    if (!x->in_z && i - x->given >= ((size_t)8 << 20)) pcol_input_done(&x->raw, x->given, i), x->given = i;
  }
  return 0;
}

/* ModuleSymbols (symbols added after the fact, `traceconv symbolize`):
 * each address's AddressSymbols by (path, build id, address), the last
 * given winning, as trace_processor sets a frame's symbol set */
static int read_module_symbols(pimp *x, pspan m) {
  pcol_pb_field f;
  pspan path = {NULL, 0}, bid = {NULL, 0};
  FIELDS(x, m, f, "module_symbols", {
    if (f.field == 1 && f.wt == 2) path = sub(&m, &f);
    if (f.field == 2 && f.wt == 2) bid = sub(&m, &f);
  });
  uint64_t key = sym_key(path, bid);
  FIELDS(x, m, f, "module_symbols", {
    if (f.field != 3 || f.wt != 2) continue;
    pspan a = sub(&m, &f);
    pcol_pb_field g;
    uint64_t addr = 0;
    FIELDS(x, a, g, "module_symbols.address_symbols", {
      if (g.field == 1 && g.wt == 0) addr = g.v;
    });
    ientry *e;
    int rc = e_put(x, addr, key, &e);
    if (rc) return rc;
    e->m = a, e->v = 0; /* (v: its location, once made) */
    if (x->in_z) { /* (inflated bytes: placed when they are sealed) */
      if (x->nzfix == x->zfixcap && pcol_grow(&x->zfix, &x->zfixcap, sizeof *x->zfix)) return pcol_oom(x->err);
      x->zfix[x->nzfix++] = (zfix){(uint32_t)(e - x->e) + 1, x->zstart + (uint64_t)(a.p - x->ztmp.data), a.n};
      e->m = (pspan){NULL, a.n}, e->v = ZPENDING;
    }
  });
  return 0;
}

/* pass 1: clocks, names and symbols */
static int pass1(pimp *x, pspan pk) {
  pcol_pb_field f, g;
  FIELDS(x, pk, f, "packet", {
    if (f.wt != 2) continue;
    pspan m = sub(&pk, &f);
    int rc = 0;
    if (f.field == P_CLOCK_SNAPSHOT) rc = read_snapshot(x, m);
    else if (f.field == P_PROCESS_TREE) rc = read_process_tree(x, m);
    else if (f.field == P_THREAD_DESCRIPTOR) rc = read_descriptor(x, m, 1);
    else if (f.field == P_PROCESS_DESCRIPTOR) rc = read_descriptor(x, m, 0);
    else if (f.field == P_MODULE_SYMBOLS) rc = read_module_symbols(x, m);
    else if (f.field == P_TRACK_DESCRIPTOR) {
      size_t k = 0;
      int r;
      while ((r = next(x, m, &k, &g, "track_descriptor")) == 1)
        if (g.wt == 2 && (g.field == 3 || g.field == 4) && (rc = read_descriptor(x, sub(&m, &g), g.field == 4)))
          return rc;
      if (r < 0) return r;
      rc = pf_v8_track(&x->v8, &x->host, m.p, m.n); /* (a thread's track, for V8's events) */
    }
    if (rc) return rc;
  });
  return 0;
}

/* ------------------------------------------------------------ interning */
/* the bytes of interned entry (kind, iid) of s's generation, or a refusal
 * naming it (what: the referring field) */
static int interned_entry(pimp *x, const seqst *s, unsigned kind, uint64_t iid, const char *what, ientry **out) {
  ientry *e = e_find(x, iid, gkey(s, kind));
  if (!e || !e->m.p)
    return bad(x, "%s %" PRIu64 " is not in the interned data of sequence %" PRIu32
               " (since its incremental state was last cleared)", what, iid, s->id);
  *out = e;
  return 0;
}
static int interned(pimp *x, const seqst *s, unsigned kind, uint64_t iid, const char *what, pspan *out) {
  ientry *e = NULL;
  int rc = interned_entry(x, s, kind, iid, what, &e);
  if (!rc) *out = e->m;
  return rc;
}
/* the string of an InternedString entry */
/* (InternedString kinds: read_interned keeps the str itself, v 1 + whether
 * the entry has one, so that a string costs its bytes once, not per use) */
static int is_str_kind(uint64_t kind) {
  return kind == I_FUNCTION_NAMES || kind == I_BUILD_IDS || kind == I_MAPPING_PATHS || kind == I_SOURCE_PATHS ||
         kind == I_ASYNC_CONTEXTS; /* (AsyncContext: its name is field 2) */
}
static int interned_str(pimp *x, const seqst *s, unsigned kind, uint64_t iid, const char *what, pspan *out) {
  ientry *e = NULL;
  int rc = interned_entry(x, s, kind, iid, what, &e);
  if (!rc) *out = e->v == 2 ? e->m : (pspan){NULL, 0};
  return rc;
}
static int read_interned(pimp *x, seqst *s, pspan m) {
  pcol_pb_field f, g;
  FIELDS(x, m, f, "interned_data", {
    if (f.wt != 2 || f.field > 249) continue;
    pspan c = sub(&m, &f);
    uint64_t iid = 0;
    pspan str = {NULL, 0};
    int has_str = 0;
    FIELDS(x, c, g, "interned_data entry", {
      if (g.field == 1 && g.wt == 0) iid = g.v;
      if (g.field == 2 && g.wt == 2) str = sub(&c, &g), has_str = 1;
    });
    ientry *e;
    int rc = e_put_of(x, s, iid, gkey(s, (unsigned)f.field), &e);
    if (rc) return rc;
    e->m = c, e->v = 0;
    if (is_str_kind(f.field)) e->m = has_str ? str : (pspan){c.p, 0}, e->v = 1 + has_str;
  });
  return 0;
}

/* ------------------------------------------------------------- frames */
static int str_sid(pimp *x, pspan s, uint32_t *sid) {
  return s.p ? pcol_b_string(x->b, s.p, s.n, sid, x->err) : (*sid = 0, 0);
}
/* a Line (ModuleSymbols) or an InlineCallstack.Frame, which have the same
 * fields: function name, file, line ("" is none) */
static int read_line(pimp *x, pspan m, const char *what, pspan *fn, pspan *file, int64_t *line) {
  pcol_pb_field g;
  *fn = *file = (pspan){NULL, 0};
  *line = PCOL_NA_I64;
  FIELDS(x, m, g, what, {
    if (g.field == 1 && g.wt == 2) *fn = sub(&m, &g);
    if (g.field == 2 && g.wt == 2) *file = sub(&m, &g);
    if (g.field == 3 && g.wt == 0) *line = (int64_t)(uint32_t)g.v;
  });
  if (fn->p && !fn->n) fn->p = NULL;
  if (file->p && !file->n) file->p = NULL;
  return 0;
}
/* a line row: its function (name, file; may be none) and line */
static int line_row(pimp *x, pspan fn, pspan file, int64_t line, pcol_line_row *ln) {
  pcol_function_row fr = {0, 0, 0, PCOL_NA_I64};
  int rc;
  if ((rc = str_sid(x, fn, &fr.name)) || (rc = str_sid(x, file, &fr.filename))) return rc;
  fr.system_name = fr.name;
  *ln = (pcol_line_row){0, line, PCOL_NA_I64};
  return pcol_b_function(x->b, &fr, &ln->function_id, x->err);
}
/* a location of one line: function name, file, line; with neither name
 * nor file, a location without lines */
static int line_location(pimp *x, uint32_t map, uint64_t addr, pspan fn, pspan file, int64_t line, uint32_t *loc) {
  if (!fn.p && !file.p) return pcol_b_location(x->b, map, addr, 0, NULL, 0, loc, x->err);
  pcol_line_row ln;
  int rc = line_row(x, fn, file, line, &ln);
  return rc ? rc : pcol_b_location(x->b, map, addr, 0, &ln, 1, loc, x->err);
}
typedef struct pathctx {
  const seqst *s;
  pcol_buf *out;
  int stop, cut;
} pathctx;
static int path_part(pimp *x, void *ctx, uint64_t iid) {
  pathctx *c = ctx;
  if (c->stop) return 0;
  ientry *e = e_find(x, iid, gkey(c->s, I_MAPPING_PATHS));
  if (!e || !e->m.p) return c->stop = 1, 0; /* trace_processor stops there */
  pspan str;
  int rc = interned_str(x, c->s, I_MAPPING_PATHS, iid, "mapping path", &str);
  if (rc) return rc;
  size_t room = PATH_CAP - c->out->len; /* (len <= PATH_CAP) */
  if (1 + str.n > room) { /* cut at the cap, on a UTF-8 character's start */
    size_t k = room ? room - 1 : 0;
    while (k && k < str.n && (str.p[k] & 0xC0) == 0x80) k--;
    str.n = k, c->stop = c->cut = 1;
    if (!room) return 0;
  }
  if (pcol_buf_append(c->out, "/", 1) || pcol_buf_append(c->out, str.p, str.n)) return pcol_oom(x->err);
  return 0;
}
/* A Mapping's address range [start, end) and exact_offset (Mapping
 * { start = 4, end = 5, exact_offset = 8 }, varints; the first of each
 * counts, as elsewhere here): *ranged 1 when it states a range (end >
 * start, and exact_offset + its length within 64 bits: trace_processor's
 * VirtualMemoryMapping, whose rel_pc is pc - start + exact_offset), else
 * 0 and all three 0 (a mapping without one, or a range no address can
 * lie in; the frames' rel_pcs are then kept as they are) */
static int mapping_range(pimp *x, pspan m, uint64_t *start, uint64_t *end, uint64_t *off, int *ranged) {
  pcol_pb_field f;
  int seen = 0;
  *start = *end = *off = 0;
  FIELDS(x, m, f, "mapping", {
    int k = f.field == 4 ? 1 : f.field == 5 ? 2 : f.field == 8 ? 4 : 0;
    if (!k || f.wt != 0 || (seen & k)) continue;
    seen |= k;
    *(k == 1 ? start : k == 2 ? end : off) = f.v;
  });
  uint64_t top;
  *ranged = *end > *start && !__builtin_add_overflow(*off, *end - *start, &top);
  if (!*ranged) *start = *end = *off = 0;
  return 0;
}
/* Mapping iid -> a pcol mapping: its name the path components joined by
 * '/' (one leading '/' when the only component is a whole path, as
 * trace_processor names it; cut at PATH_CAP bytes, with a note), its build
 * id, its range and file offset (mapping_range: what the exporter writes
 * of a pprof mapping's memory_start, memory_limit and file_offset) */
static int mapping_make(pimp *x, const seqst *s, uint64_t iid, uint32_t *out, uint64_t *symkey) {
  pspan m = {NULL, 0}, bid = {NULL, 0};
  pcol_pb_field f;
  int rc = interned(x, s, I_MAPPINGS, iid, "mapping_id", &m);
  if (rc) return rc;
  x->tmp.len = 0;
  pathctx pc = {s, &x->tmp, 0, 0};
  FIELDS(x, m, f, "mapping", {
    if (f.field == 2 && f.wt == 0 && f.v && (rc = interned_str(x, s, I_BUILD_IDS, f.v, "build_id", &bid))) return rc;
    if (f.field == 7 && (rc = each_varint(x, m, &f, path_part, &pc, "mapping.path_string_ids"))) return rc;
  });
  pcol_mapping_row mr = {0};
  int ranged;
  if ((rc = mapping_range(x, m, &mr.memory_start, &mr.memory_limit, &mr.file_offset, &ranged))) return rc;
  x->n_paths_cut += pc.cut;
  const char *p = (const char *)x->tmp.data;
  size_t n = x->tmp.len;
  if (n >= 2 && p[0] == '/' && p[1] == '/') p++, n--;
  *symkey = sym_key((pspan){(const uint8_t *)p, n}, bid);
  if (n && (rc = pcol_b_string(x->b, p, n, &mr.filename, x->err))) return rc;
  if (bid.n) { /* the raw build id, as hex */
    char hex[2 * 256 + 1]; /* (a Go build id is 80-odd bytes: 64 cut it) */
    size_t k = 0;
    for (size_t j = 0; j < bid.n && j < 256; j++) k += (size_t)snprintf(hex + k, sizeof hex - k, "%02x", bid.p[j]);
    if ((rc = pcol_b_string(x->b, hex, k, &mr.build_id, x->err))) return rc;
  }
  return pcol_b_mapping(x->b, &mr, 1, out, x->err);
}
static int mapping_of(pimp *x, const seqst *s, uint64_t iid, uint32_t *out, uint64_t *symkey) {
  ientry *c = e_find(x, iid, gkey(s, K_MAPPING)); /* (made once per generation) */
  if (c && c->v) return *out = c->v - 1, *symkey = c->m.n, 0;
  int rc = mapping_make(x, s, iid, out, symkey);
  if (rc || (rc = e_put_of(x, s, iid, gkey(s, K_MAPPING), &c))) return rc;
  c->v = *out + 1, c->m.n = (size_t)*symkey;
  return 0;
}
/* a location of a symbolized address: its lines (the first innermost, the
 * inline chain outwards, as trace_processor's flamegraph nests them), each
 * a function name, a file, a line only with a file, as trace_processor
 * keeps them; none: no line */
static int symbol_location(pimp *x, uint32_t map, uint64_t addr, pspan a, uint32_t *loc) {
  pcol_pb_field f;
  int rc;
  x->nlines = 0;
  FIELDS(x, a, f, "module_symbols.address_symbols", {
    if (f.field != 2 || f.wt != 2) continue;
    pspan fn, file;
    int64_t line;
    pcol_line_row ln;
    if ((rc = read_line(x, sub(&a, &f), "module_symbols line", &fn, &file, &line)) ||
        (rc = line_row(x, fn, file, file.p ? line : PCOL_NA_I64, &ln)))
      return rc;
    if (x->nlines == x->linecap && pcol_grow(&x->lines, &x->linecap, sizeof *x->lines)) return pcol_oom(x->err);
    x->lines[x->nlines++] = ln;
  });
  return pcol_b_location(x->b, map, addr, 0, x->lines, x->nlines, loc, x->err);
}
static int frame_location(pimp *x, const seqst *s, uint64_t iid, uint32_t *loc) {
  ientry *c = e_find(x, iid, gkey(s, K_LOCATION));
  if (c && c->v) return *loc = c->v, 0;
  pspan m = {NULL, 0}, fn = {NULL, 0}, file = {NULL, 0};
  pcol_pb_field f;
  uint64_t fid = 0, mid = 0, pc = 0;
  int64_t line = PCOL_NA_I64;
  int has_path = 0;
  uint64_t path = 0;
  int rc = interned(x, s, I_FRAMES, iid, "frame", &m);
  if (rc) return rc;
  FIELDS(x, m, f, "frame", {
    if (f.wt != 0) continue;
    if (f.field == 2) fid = f.v;
    if (f.field == 3) mid = f.v;
    if (f.field == 4) pc = f.v;
    if (f.field == 5) path = f.v, has_path = 1;
    if (f.field == 6) line = (int64_t)(uint32_t)f.v;
  });
  if (fid && (rc = interned_str(x, s, I_FUNCTION_NAMES, fid, "function_name_id", &fn))) return rc;
  if (fn.p && !fn.n) fn.p = NULL; /* "" is no name */
  if (has_path && (rc = interned_str(x, s, I_SOURCE_PATHS, path, "source_path_iid", &file))) return rc;
  uint32_t map = 0;
  uint64_t symkey = 0;
  if (mid && (rc = mapping_of(x, s, mid, &map, &symkey))) return rc;
  /* the address: rel_pc made the pc again in a mapping of a range
   * (VirtualMemoryMapping::ToAddress: rel_pc - exact_offset + start), as
   * pprof's and the exporter's are (it writes pc - start + exact_offset:
   * read back, an address and its mapping are the ones written); a rel_pc
   * outside the range, or of a mapping without one, as it is.  Symbols
   * (module_symbols) are looked up by rel_pc, as trace_processor does. */
  uint64_t addr = pc;
  if (mid) {
    pspan mm;
    uint64_t ms, me, mo;
    int ranged;
    if ((rc = interned(x, s, I_MAPPINGS, mid, "mapping_id", &mm)) || (rc = mapping_range(x, mm, &ms, &me, &mo, &ranged)))
      return rc;
    if (ranged && pc >= mo && pc - mo < me - ms) addr = pc - mo + ms;
  }
  ientry *sym = mid ? e_find(x, pc, symkey) : NULL;
  if (sym && sym->m.p && sym->v) *loc = sym->v; /* (its lines built once) */
  else if (sym && sym->m.p && !(rc = symbol_location(x, map, addr, sym->m, loc))) sym->v = *loc;
  else rc = line_location(x, map, addr, fn, file, fn.p || file.p ? line : PCOL_NA_I64, loc);
  if (rc) return rc;
  if ((rc = e_put_of(x, s, iid, gkey(s, K_LOCATION), &c))) return rc;
  c->v = *loc;
  return 0;
}
static int push_loc(pimp *x, uint32_t loc) {
  if (x->nlocs == x->loccap && pcol_grow(&x->locs, &x->loccap, sizeof *x->locs)) return pcol_oom(x->err);
  x->locs[x->nlocs++] = loc;
  return 0;
}
static int frame_id(pimp *x, void *ctx, uint64_t iid) {
  uint32_t loc;
  int rc = frame_location(x, ctx, iid, &loc);
  return rc ? rc : push_loc(x, loc);
}
/* the builder's stack of x->locs (outermost first), 0 when empty */
static int locs_stack(pimp *x, uint32_t *stack) {
  for (size_t i = 0, j = x->nlocs ? x->nlocs - 1 : 0; i < j; i++, j--) {
    uint32_t t = x->locs[i];
    x->locs[i] = x->locs[j], x->locs[j] = t;
  }
  if (!x->nlocs) return *stack = 0, 0;
  return pcol_b_stack_memo(x->b, &x->memo, x->locs, x->nlocs, stack, x->err);
}
/* Callstack iid -> stack (frame_ids outermost first); 0 when it has no frame */
static int callstack(pimp *x, const seqst *s, uint64_t iid, uint32_t *stack) {
  ientry *c = e_find(x, iid, gkey(s, K_STACK));
  if (c && c->v) return *stack = c->v - 1, 0;
  pspan m = {NULL, 0};
  pcol_pb_field f;
  int rc = interned(x, s, I_CALLSTACKS, iid, "callstack_iid", &m);
  if (rc) return rc;
  x->nlocs = 0;
  FIELDS(x, m, f, "callstack", {
    if (f.field == 2 && (rc = each_varint(x, m, &f, frame_id, (void *)s, "callstack.frame_ids"))) return rc;
  });
  if ((rc = locs_stack(x, stack)) || (rc = e_put_of(x, s, iid, gkey(s, K_STACK), &c))) return rc;
  c->v = *stack + 1;
  return 0;
}
/* InlineCallstack: frames outermost first, each a name, a file, a line */
static int inline_callstack(pimp *x, pspan m, uint32_t *stack) {
  pcol_pb_field f;
  x->nlocs = 0;
  FIELDS(x, m, f, "stack_sample.callstack", {
    if (f.field != 1 || f.wt != 2) continue;
    pspan fn, file;
    int64_t line;
    uint32_t loc;
    int rc;
    if ((rc = read_line(x, sub(&m, &f), "stack_sample.callstack.frames", &fn, &file, &line)) ||
        (rc = line_location(x, 0, 0, fn, file, line, &loc)) || (rc = push_loc(x, loc)))
      return rc;
  });
  return locs_stack(x, stack);
}

/* ------------------------------------------------------------- sources */
static int key_add(pcol_buf *k, const void *p, size_t n) {
  uint32_t l = (uint32_t)n;
  return pcol_buf_append(k, &l, sizeof l) || pcol_buf_append(k, p, n);
}
/* a value type of the source (name, unit), another name when it has it */
static int add_vt(pimp *x, psource *s, pspan name, const char *unit) {
  uint32_t nsid, usid, vt;
  int rc;
  if ((rc = pcol_b_string(x->b, name.p, name.n, &nsid, x->err)) || (rc = pcol_b_cstr(x->b, unit, &usid, x->err)) ||
      (rc = pcol_b_value_type(x->b, nsid, usid, &vt, x->err)))
    return rc;
  for (uint32_t k = 0; k < s->nvt; k++)
    if (s->vt[k] == vt) { /* the same name and unit twice: number it */
      char nm[160];
      int l = snprintf(nm, sizeof nm, "%.*s.%u", (int)(name.n > 120 ? 120 : name.n), (const char *)name.p, s->nvt);
      if ((rc = pcol_b_string(x->b, nm, (size_t)l, &nsid, x->err)) ||
          (rc = pcol_b_value_type(x->b, nsid, usid, &vt, x->err)))
        return rc;
      break;
    }
  s->vt[s->nvt++] = vt;
  return pcol_b_source_value_type(x->b, s->id, vt, x->err);
}
static int meta_str(pimp *x, uint32_t src, const char *k, const char *v) {
  return pcol_b_meta_str(x->b, src, k, v, x->err);
}
static int meta_span(pimp *x, uint32_t src, const char *k, pspan v) {
  return pcol_b_meta(x->b, src, k, v.p, v.n, x->err);
}
static int meta_i64(pimp *x, uint32_t src, const char *k, int64_t v) {
  char num[32];
  snprintf(num, sizeof num, "%" PRId64, v);
  return meta_str(x, src, k, num);
}

static const char *const UNITS[] = {NULL, PCOL_UNIT_NANOSECONDS, "cycles", "instructions", "bytes", "page_faults",
                                    "cache_misses", "cache_references", "branch_misses", PCOL_UNIT_COUNT};
static int read_cdesc(pimp *x, pspan m, cdesc *d) {
  pcol_pb_field f;
  *d = (cdesc){{NULL, 0}, PCOL_UNIT_COUNT, {NULL, 0}, 1};
  FIELDS(x, m, f, "counter descriptor", {
    if (f.field == 2 && f.wt == 2) d->name = sub(&m, &f);
    if (f.field == 3 && f.wt == 0) d->unit = f.v < sizeof UNITS / sizeof UNITS[0] && f.v ? UNITS[f.v] : PCOL_UNIT_COUNT;
    if (f.field == 4 && f.wt == 2) d->unit_str = sub(&m, &f);
    if (f.field == 5 && f.wt == 0) d->mult = f.v ? f.v : 1;
  });
  return 0;
}

/* the source of key k (made when new: kind's label, names, value types) */
typedef struct srcspec {
  const char *kind;   /* meta perfetto.kind */
  const char *label;  /* after "FILE: " in the URI */
  pspan stream;       /* StackSampleDefaults.source, a perf timebase's name */
  cdesc vals[PV_MAX - 1];
  uint32_t nvals;
  int64_t period;     /* > 0: pprof's period of vals[0] */
  uint64_t freq;      /* a perf timebase's frequency */
  int dflt;           /* the default: 1 + the index in vals, 0 samples */
} srcspec;
static int src_eq(const void *ctx, uint32_t id, const void *key) {
  const pimp *x = ctx;
  const pcol_buf *k = key;
  return x->src[id - 1].key.len == k->len && !memcmp(x->src[id - 1].key.data, k->data, k->len);
}
static int source_of(pimp *x, const srcspec *sp, uint32_t *out) {
  pcol_buf k = x->key; /* (the scratch key; a new source takes it) */
  k.len = 0;
  int rc = 0;
  if (key_add(&k, sp->kind, strlen(sp->kind)) || key_add(&k, sp->stream.p, sp->stream.n)) rc = pcol_oom(x->err);
  for (uint32_t v = 0; !rc && v < sp->nvals; v++) {
    const cdesc *d = &sp->vals[v];
    if (key_add(&k, d->name.p, d->name.n) || key_add(&k, d->unit_str.p ? (const char *)d->unit_str.p : d->unit,
                                                     d->unit_str.p ? d->unit_str.n : strlen(d->unit)))
      rc = pcol_oom(x->err);
  }
  if (!rc && (key_add(&k, &sp->period, sizeof sp->period) || key_add(&k, &sp->freq, sizeof sp->freq) ||
              key_add(&k, &sp->dflt, sizeof sp->dflt)))
    rc = pcol_oom(x->err);
  x->key = k;
  if (rc) return rc;
  uint64_t h = pcol_hash_bytes(k.data, k.len, 0x737263);
  uint32_t id = pcol_hset_find(&x->srch, h, src_eq, x, &k);
  if (id) return *out = id - 1, 0;
  if (x->nsrc >= MAX_SOURCES) return bad(x, "more than %d sampling streams (kinds, sources and timebases)", MAX_SOURCES);
  if (x->nsrc == x->srccap && pcol_grow(&x->src, &x->srccap, sizeof *x->src)) return pcol_oom(x->err);
  psource *s = &x->src[x->nsrc];
  memset(s, 0, sizeof *s);
  s->key = k;
  x->key = (pcol_buf){0};
  x->nsrc++;
  if (pcol_hset_insert(&x->srch, h, (uint32_t)x->nsrc)) return pcol_oom(x->err);
  /* URI: FILE: LABEL (STREAM) */
  x->tmp.len = 0;
  char buf[64];
  if (pcol_buf_append(&x->tmp, x->name, strlen(x->name)) || pcol_buf_append(&x->tmp, ": ", 2) ||
      pcol_buf_append(&x->tmp, sp->label, strlen(sp->label)) ||
      (sp->stream.n && (pcol_buf_append(&x->tmp, " (", 2) || pcol_buf_append(&x->tmp, sp->stream.p, sp->stream.n) ||
                        pcol_buf_append(&x->tmp, ")", 1))))
    return pcol_oom(x->err);
  uint32_t tsid, usid;
  if ((rc = pcol_b_cstr(x->b, PCOL_SRC_PERFETTO, &tsid, x->err)) ||
      (rc = pcol_b_string(x->b, x->tmp.data, x->tmp.len, &usid, x->err)) ||
      (rc = pcol_b_source_sid(x->b, tsid, usid, PCOL_NA_I64, &s->id, x->err)) ||
      (rc = pcol_source_file_mark(x->b, s->id, x->name, strlen(x->name), (const char *)x->tmp.data, x->tmp.len, x->err)) ||
      (rc = meta_str(x, s->id, PERFETTO_META_KIND, sp->kind)) ||
      (sp->stream.n && (rc = meta_span(x, s->id, PERFETTO_META_STREAM, sp->stream))))
    return rc;
  if ((rc = add_vt(x, s, (pspan){(const uint8_t *)PCOL_VT_SAMPLES, strlen(PCOL_VT_SAMPLES)}, PCOL_UNIT_COUNT)))
    return rc;
  for (uint32_t v = 0; v < sp->nvals; v++) {
    const cdesc *d = &sp->vals[v];
    pspan nm = d->name.n ? d->name : (pspan){(const uint8_t *)"weight", 6};
    const char *unit = d->unit;
    char ubuf[128];
    if (d->unit_str.p) {
      snprintf(ubuf, sizeof ubuf, "%.*s", (int)(d->unit_str.n > 120 ? 120 : d->unit_str.n), (const char *)d->unit_str.p);
      unit = ubuf;
    }
    if ((rc = add_vt(x, s, nm, unit))) return rc;
  }
  if (sp->period > 0) {
    const cdesc *d = &sp->vals[0];
    if ((rc = meta_span(x, s->id, PPROF_META_PERIOD_TYPE_TYPE, d->name)) ||
        (rc = meta_str(x, s->id, PPROF_META_PERIOD_TYPE_UNIT, d->unit)) ||
        (rc = meta_i64(x, s->id, PPROF_META_PERIOD, sp->period)))
      return rc;
  }
  if (sp->freq) {
    snprintf(buf, sizeof buf, "%" PRIu64, sp->freq);
    if ((rc = meta_str(x, s->id, PERFETTO_META_FREQUENCY, buf))) return rc;
  }
  if (sp->dflt) {
    const cdesc *d = &sp->vals[sp->dflt - 1];
    if ((rc = d->name.n ? meta_span(x, s->id, PPROF_META_DEFAULT_SAMPLE_TYPE, d->name)
                        : meta_str(x, s->id, PPROF_META_DEFAULT_SAMPLE_TYPE, "weight")))
      return rc;
  } else if ((rc = meta_str(x, s->id, PPROF_META_DEFAULT_SAMPLE_TYPE, PCOL_VT_SAMPLES)))
    return rc;
  s->nvt = 1 + sp->nvals;
  *out = (uint32_t)(x->nsrc - 1);
  return 0;
}

/* ------------------------------------------------------------- samples */
typedef struct labels {
  int64_t pid, tid, cpu;
  int has_pid, has_tid, has_cpu;
  const char *mode;
  uint32_t async;
} labels;
static int labelset(pimp *x, const labels *l, uint32_t *out) {
  pcol_label_row r[7];
  size_t n = 0;
  memset(r, 0, sizeof r);
  uint32_t nm;
  ientry *tg;
  labels inferred;
  if (l->has_tid && !l->has_pid && (tg = e_find(x, (uint64_t)l->tid, K_TGID))) {
    /* only the tid: its process from the process tree, as trace_processor
     * associates them */
    inferred = *l;
    inferred.pid = (int64_t)tg->v - 1, inferred.has_pid = 1;
    l = &inferred;
  }
  if (l->has_pid) {
    r[n].key = x->k_pid, r[n++].num = l->pid;
    if ((nm = name_of(x, K_PROCESS, l->pid))) r[n].key = x->k_process, r[n++].str = nm;
  }
  if (l->has_tid) {
    r[n].key = x->k_tid, r[n++].num = l->tid;
    if ((nm = name_of(x, K_THREAD, l->tid))) r[n].key = x->k_thread, r[n++].str = nm;
  }
  if (l->has_cpu) r[n].key = x->k_cpu, r[n++].num = l->cpu;
  if (l->mode) {
    int rc = pcol_b_cstr(x->b, l->mode, &r[n].str, x->err);
    if (rc) return rc;
    r[n++].key = x->k_mode;
  }
  if (l->async) r[n].key = x->k_async, r[n++].str = l->async;
  return pcol_b_labelset(x->b, r, n, out, x->err);
}
/* a sample row; bound: its time is on the trace clock and bounds the
 * trace (a StreamingProfilePacket's, which has no packet time of its own) */
static int add_row(pimp *x, uint32_t src, int64_t t, int bound, uint32_t stack, uint32_t ls, const int64_t *v,
                   uint32_t nv) {
  prow r;
  memset(&r, 0, sizeof r);
  r.src = src, r.stack = stack, r.labels = ls, r.nv = nv, r.t = t, r.seq = x->nrows++;
  memcpy(r.v, v, nv * sizeof *v);
  psource *p = &x->src[src];
  if (!p->samples || t < p->tlo) p->tlo = t;
  if (!p->samples || t > p->thi) p->thi = t;
  p->samples++;
  if (bound) {
    if (!x->have_t || t < x->tmin) x->tmin = t;
    if (!x->have_t || t > x->tmax) x->tmax = t, late(x);
    x->have_t = 1;
  }
  if (!x->have_s || t < x->smin) x->smin = t;
  if (!x->have_s || t > x->smax) x->smax = t, late(x);
  x->have_s = 1;
  int rc = pcol_rowsort_add(x->rows, &r);
  if (rc) return pcol_error_set(x->err, rc, "%s: %s", x->name, rc == PCOL_ENOMEM ? "out of memory" : "a temporary file for sorting the samples could not be written");
  return 0;
}
static int64_t weight_of(pimp *x, uint64_t w, uint64_t mult, int *over) {
  (void)x;
  if (mult && w > (uint64_t)INT64_MAX / mult) return *over = 1, 0;
  return (int64_t)(w * mult);
}

static const char *const MODES[] = {NULL, "user", "kernel", "hypervisor", "guest_user", "guest_kernel"};
typedef struct wctx {
  uint64_t *w;
  uint32_t n, max;
} wctx;
static int push_w(pimp *x, void *ctx, uint64_t v) {
  (void)x;
  wctx *c = ctx;
  if (c->n < c->max) c->w[c->n] = v;
  c->n++;
  return 0;
}
typedef struct dctx {
  const seqst *s;
  cdesc *d;
  uint32_t n, max;
} dctx;
/* a task or execution context's labels, or a counter descriptor; an
 * interned one is read once (its entry's v: 1 + its index in x->cv), so a
 * sample costs its own bytes */
typedef struct ctxv {
  labels l;
  cdesc d;
} ctxv;
static int read_task(pimp *x, const seqst *s, pspan c, labels *l) {
  pcol_pb_field g;
  FIELDS(x, c, g, "task context", {
    if (g.wt != 0) continue;
    if (g.field == 2) l->pid = (int64_t)(uint32_t)g.v, l->has_pid = 1;
    if (g.field == 3) l->tid = (int64_t)(uint32_t)g.v, l->has_tid = 1;
    if (g.field == 4 && g.v) {
      pspan an = {NULL, 0};
      int rc = interned_str(x, s, I_ASYNC_CONTEXTS, g.v, "async_id", &an);
      if (rc || (an.n && (rc = pcol_b_string(x->b, an.p, an.n, &l->async, x->err)))) return rc;
    }
  });
  return 0;
}
static int read_exec(pimp *x, pspan c, labels *l) {
  pcol_pb_field g;
  FIELDS(x, c, g, "execution context", {
    if (g.wt != 0) continue;
    if (g.field == 2) l->cpu = (int64_t)(uint32_t)g.v, l->has_cpu = 1;
    if (g.field == 3 && g.v && g.v < sizeof MODES / sizeof MODES[0]) l->mode = MODES[g.v];
  });
  return 0;
}
static int ctx_of(pimp *x, const seqst *s, unsigned kind, uint64_t iid, const char *what, const ctxv **out) {
  pspan m;
  int rc = interned(x, s, kind, iid, what, &m);
  if (rc) return rc;
  ientry *e = e_find(x, iid, gkey(s, kind));
  if (!e->v) {
    ctxv o;
    memset(&o, 0, sizeof o);
    rc = kind == I_TASK_CONTEXTS ? read_task(x, s, m, &o.l) : kind == I_EXEC_CONTEXTS ? read_exec(x, m, &o.l)
                                                                                      : read_cdesc(x, m, &o.d);
    if (rc) return rc;
    if (x->ncvfree) {
      x->cv[x->cvfree[--x->ncvfree]] = o;
      e->v = x->cvfree[x->ncvfree] + 1;
    } else {
      if (x->ncv == x->cvcap && pcol_grow(&x->cv, &x->cvcap, sizeof *x->cv)) return pcol_oom(x->err);
      x->cv[x->ncv++] = o;
      e->v = (uint32_t)x->ncv;
    }
  }
  *out = &x->cv[e->v - 1];
  return 0;
}
/* the labels a context sets over l */
static void labels_over(labels *l, const labels *c) {
  if (c->has_pid) l->pid = c->pid, l->has_pid = 1;
  if (c->has_tid) l->tid = c->tid, l->has_tid = 1;
  if (c->has_cpu) l->cpu = c->cpu, l->has_cpu = 1;
  if (c->mode) l->mode = c->mode;
  if (c->async) l->async = c->async;
}
static int push_desc(pimp *x, void *ctx, uint64_t iid) {
  dctx *c = ctx;
  if (c->n < c->max) {
    const ctxv *v;
    int rc = ctx_of(x, c->s, I_COUNTER_DESCRIPTORS, iid, "follower_descriptor_iids", &v);
    if (rc) return rc;
    c->d[c->n] = v->d;
  }
  c->n++;
  return 0;
}

/* StackSampleDefaults (TracePacketDefaults 100) into s->ss_*, once */
static int stack_defaults(pimp *x, seqst *s) {
  pcol_pb_field f, g;
  int rc;
  if (s->dread & D_STACK) return 0;
  s->ss_stream = (pspan){NULL, 0}, s->ss_has_primary = 0, s->ss_nfd = 0;
  s->ss_primary = (cdesc){{NULL, 0}, PCOL_UNIT_COUNT, {NULL, 0}, 1};
  FIELDS(x, s->defaults, f, "trace_packet_defaults", {
    if (f.field != 100 || f.wt != 2) continue;
    pspan d = sub(&s->defaults, &f);
    FIELDS(x, d, g, "stack_sample_defaults", {
      if (g.wt != 2) continue;
      if (g.field == 1) s->ss_stream = sub(&d, &g);
      if (g.field == 2 && (rc = read_cdesc(x, sub(&d, &g), &s->ss_primary))) return rc;
      if (g.field == 2) s->ss_has_primary = 1;
      if (g.field == 3) {
        if (s->ss_nfd < PV_MAX - 2 && (rc = read_cdesc(x, sub(&d, &g), &s->ss_fd[s->ss_nfd]))) return rc;
        if (s->ss_nfd < UINT32_MAX) s->ss_nfd++;
      }
    });
  });
  s->dread |= D_STACK;
  return 0;
}
static int stack_sample(pimp *x, seqst *s, pspan m, int64_t t) {
  pcol_pb_field f;
  labels l = {0};
  srcspec sp = {.kind = "stack_sample", .label = "stack samples", .dflt = 1};
  uint32_t stack = 0;
  int has_stack = 0, has_primary = 0, rc;
  uint64_t pw = 0, fw[PV_MAX];
  wctx wc = {fw, 0, PV_MAX - 2};
  cdesc fd[PV_MAX - 2];
  dctx dc = {s, fd, 0, PV_MAX - 2};
  int fdesc = 0;
  /* defaults: StackSampleDefaults of the sequence's TracePacketDefaults */
  cdesc primary = {{NULL, 0}, PCOL_UNIT_COUNT, {NULL, 0}, 1};
  if (s->defaults.n) {
    if ((rc = stack_defaults(x, s))) return rc;
    sp.stream = s->ss_stream, primary = s->ss_primary, has_primary = s->ss_has_primary;
    memcpy(fd, s->ss_fd, sizeof fd);
    dc.n = s->ss_nfd;
  }
  const ctxv *cv;
  FIELDS(x, m, f, "stack_sample", {
    uint64_t iid = f.v;
    switch (f.field) {
    case 1: case 2: /* task context, inline or interned */
      if (f.field == 2 && f.wt != 0) continue;
      if (f.field == 1 && f.wt != 2) continue;
      if (f.field == 1) {
        if ((rc = read_task(x, s, sub(&m, &f), &l))) return rc;
      } else {
        if ((rc = ctx_of(x, s, I_TASK_CONTEXTS, iid, "task_context_iid", &cv))) return rc;
        labels_over(&l, &cv->l);
      }
      break;
    case 3: case 4: /* execution context */
      if ((f.field == 4) != (f.wt == 0)) continue;
      if (f.field == 3) {
        if ((rc = read_exec(x, sub(&m, &f), &l))) return rc;
      } else {
        if ((rc = ctx_of(x, s, I_EXEC_CONTEXTS, iid, "execution_context_iid", &cv))) return rc;
        labels_over(&l, &cv->l);
      }
      break;
    case 5:
      if (f.wt != 2) continue;
      if ((rc = inline_callstack(x, sub(&m, &f), &stack))) return rc;
      has_stack = 1;
      break;
    case 6:
      if (f.wt != 0) continue;
      if ((rc = callstack(x, s, iid, &stack))) return rc;
      has_stack = 1;
      break;
    case 9: case 10:
      if ((f.field == 10) != (f.wt == 0)) continue;
      if (f.field == 9) {
        if ((rc = read_cdesc(x, sub(&m, &f), &primary))) return rc;
      } else {
        if ((rc = ctx_of(x, s, I_COUNTER_DESCRIPTORS, iid, "primary_descriptor_iid", &cv))) return rc;
        primary = cv->d;
      }
      has_primary = 1;
      break;
    case 11:
      if (f.wt == 0) pw = f.v;
      break;
    case 12:
      if (f.wt != 2) continue;
      if (!fdesc) dc.n = 0, fdesc = 1; /* the sample's own list replaces the defaults' */
      if (dc.n < dc.max && (rc = read_cdesc(x, sub(&m, &f), &fd[dc.n]))) return rc;
      dc.n++;
      break;
    case 13:
      if (!fdesc) dc.n = 0, fdesc = 1;
      if ((rc = each_varint(x, m, &f, push_desc, &dc, "follower_descriptor_iids"))) return rc;
      break;
    case 14:
      if ((rc = each_varint(x, m, &f, push_w, &wc, "follower_weights"))) return rc;
      break;
    default: break;
    }
  });
  if (!has_stack || !stack) { /* trace_processor keeps no callsite for it */
    x->n_empty++;
    return 0;
  }
  /* no primary descriptor (the sample's, nor the defaults'): no timebase,
   * and the sample count the default, as Perfetto's UI has it (its
   * StackSample flame graph's metrics are a counter track's weights per
   * descriptor, the timebase's first, and "Sample Count": without one,
   * only the count); its primary_weight is kept as weight/count */
  if (!has_primary) primary.name = (pspan){(const uint8_t *)"weight", 6}, sp.dflt = 0;
  uint32_t nf = dc.n < dc.max ? dc.n : dc.max;
  if (dc.n > dc.max) x->n_followers_cut++;
  sp.vals[0] = primary;
  for (uint32_t k = 0; k < nf; k++) sp.vals[1 + k] = fd[k];
  sp.nvals = 1 + nf;
  int64_t v[PV_MAX];
  int over = 0;
  v[0] = 1;
  v[1] = weight_of(x, pw, primary.mult, &over);
  for (uint32_t k = 0; k < nf; k++) v[2 + k] = weight_of(x, k < wc.n ? fw[k] : 0, fd[k].mult, &over);
  if (over) return bad(x, "stack_sample: a weight times its unit_multiplier is past 2^63");
  /* a descriptor named "samples" in count (as pcol's export writes a
   * sample that stands for several, pprof's): the sample's count, in
   * place of 1, not a value of its own; the first such one */
  for (uint32_t k = 0; k < sp.nvals; k++) {
    const cdesc *d = &sp.vals[k];
    int count = d->unit_str.p ? d->unit_str.n == 5 && !memcmp(d->unit_str.p, "count", 5)
                              : !strcmp(d->unit, PCOL_UNIT_COUNT);
    if (!count || d->name.n != strlen(PCOL_VT_SAMPLES) || memcmp(d->name.p, PCOL_VT_SAMPLES, d->name.n)) continue;
    v[0] = v[1 + k];
    memmove(&sp.vals[k], &sp.vals[k + 1], (sp.nvals - k - 1) * sizeof sp.vals[0]);
    memmove(&v[1 + k], &v[2 + k], (sp.nvals - k - 1) * sizeof v[0]);
    sp.nvals--;
    sp.dflt = k == 0 ? 0 : 1; /* the count the default when it was the primary */
    break;
  }
  uint32_t src, ls;
  if ((rc = source_of(x, &sp, &src)) || (rc = labelset(x, &l, &ls))) return rc;
  s->src1 = src + 1;
  return add_row(x, src, t, 0, stack, ls, v, 1 + sp.nvals);
}

/* PerfSampleDefaults.timebase: name and unit as trace_processor names
 * them, period or frequency */
static const char *const COUNTERS[] = {
    [1] = "cpu-clock", [2] = "page-faults", [3] = "task-clock", [4] = "context-switches", [5] = "cpu-migrations",
    [6] = "minor-faults", [7] = "major-faults", [8] = "alignment-faults", [9] = "emulation-faults",
    [10] = "cpu-cycles", [11] = "instructions", [12] = "cache-references", [13] = "cache-misses",
    [14] = "branch-instructions", [15] = "branch-misses", [16] = "bus-cycles", [17] = "stalled-cycles-frontend",
    [18] = "stalled-cycles-backend", [19] = "ref-cycles", [20] = "dummy"};
static int timebase_read(pimp *x, seqst *s) {
  pcol_pb_field f, g, h;
  srcspec tb0 = {0}, *sp = &tb0;
  sp->vals[0] = (cdesc){{(const uint8_t *)"cpu-clock", 9}, PCOL_UNIT_NANOSECONDS, {NULL, 0}, 1};
  FIELDS(x, s->defaults, f, "trace_packet_defaults", {
    if (f.field != 12 || f.wt != 2) continue;
    pspan d = sub(&s->defaults, &f);
    FIELDS(x, d, g, "perf_sample_defaults", {
      if (g.field == 4 && g.wt == 2) x->n_perf_followers = 1;
      if (g.field != 1 || g.wt != 2) continue;
      pspan tb = sub(&d, &g);
      pspan name = {NULL, 0}, tp = {NULL, 0};
      uint64_t counter = 0;
      int has_counter = 0;
      FIELDS(x, tb, h, "timebase", {
        if (h.field == 1 && h.wt == 0) sp->period = h.v > INT64_MAX ? 0 : (int64_t)h.v;
        if (h.field == 2 && h.wt == 0) sp->freq = h.v;
        if (h.field == 4 && h.wt == 0) counter = h.v, has_counter = 1;
        if (h.field == 3 && h.wt == 2) {
          pspan t = sub(&tb, &h);
          pcol_pb_field q;
          FIELDS(x, t, q, "timebase.tracepoint", {
            if (q.field == 1 && q.wt == 2) tp = sub(&t, &q);
          });
        }
        if (h.field == 10 && h.wt == 2) name = sub(&tb, &h);
      });
      const char *cn = has_counter && counter < sizeof COUNTERS / sizeof COUNTERS[0] && COUNTERS[counter]
                           ? COUNTERS[counter] : "unknown";
      cdesc *d0 = &sp->vals[0];
      d0->name = name.n ? name : tp.n ? tp : (pspan){(const uint8_t *)cn, strlen(cn)};
      d0->unit = !has_counter ? PCOL_UNIT_COUNT
                 : counter == 1 || counter == 3 ? PCOL_UNIT_NANOSECONDS
                 : counter == 10 || counter == 16 || counter == 19 ? "cycles"
                 : counter == 11 ? "instructions" : PCOL_UNIT_COUNT;
    });
  });
  s->pf_v0 = sp->vals[0], s->pf_period = sp->period, s->pf_freq = sp->freq;
  s->dread |= D_PERF;
  return 0;
}
/* the sequence's timebase (read once from its defaults) into sp */
static int timebase(pimp *x, seqst *s, srcspec *sp) {
  sp->vals[0] = (cdesc){{(const uint8_t *)"cpu-clock", 9}, PCOL_UNIT_NANOSECONDS, {NULL, 0}, 1};
  if (!s->defaults.n) return 0;
  int rc = s->dread & D_PERF ? 0 : timebase_read(x, s);
  if (rc) return rc;
  sp->vals[0] = s->pf_v0, sp->period = s->pf_period, sp->freq = s->pf_freq;
  return 0;
}
static int perf_sample(pimp *x, seqst *s, pspan m, int64_t t) {
  pcol_pb_field f;
  labels l = {0};
  uint64_t cs = 0;
  int skipped = 0, rc;
  uint64_t lost = 0;
  int event = 0;
  FIELDS(x, m, f, "perf_sample", {
    if (f.field == 19 && f.wt == 2) event = 1;
    if (f.wt != 0) continue;
    switch (f.field) {
    case 1: l.cpu = (int64_t)(uint32_t)f.v, l.has_cpu = 1; break;
    case 2: l.pid = (int64_t)(uint32_t)f.v, l.has_pid = 1; break;
    case 3: l.tid = (int64_t)(uint32_t)f.v, l.has_tid = 1; break;
    case 4: cs = f.v; break;
    case 5: l.mode = f.v == 1 ? "kernel" : f.v == 2 ? "user" : f.v == 3 ? "hypervisor" : f.v == 4 ? "guest_kernel" : f.v == 5 ? "guest_user" : NULL; break;
    case 17: lost = f.v; break;
    case 18: skipped = 1; break;
    default: break;
    }
  });
  if (lost) return x->n_lost_records += lost, 0;
  if (event) return 0;
  if (skipped) return x->n_skipped_perf++, 0;
  if (!cs) return x->n_nostack++, 0;
  uint32_t stack;
  if ((rc = callstack(x, s, cs, &stack))) return rc;
  if (!stack) return x->n_empty++, 0;
  srcspec sp = {.kind = "perf_sample", .label = "perf samples", .nvals = 0};
  if ((rc = timebase(x, s, &sp))) return rc;
  sp.stream = sp.vals[0].name;
  int64_t v[2] = {1, sp.period};
  if (sp.period > 0) sp.nvals = 1, sp.dflt = 1;
  uint32_t src, ls;
  if ((rc = source_of(x, &sp, &src)) || (rc = labelset(x, &l, &ls))) return rc;
  s->src1 = src + 1;
  return add_row(x, src, t, 0, stack, ls, v, sp.period > 0 ? 2 : 1);
}

typedef struct sctx {
  seqst *s;
  uint64_t *iids;
  size_t n, cap, k;
  int64_t t;
  uint32_t src, ls;
} sctx;
static int push_iid(pimp *x, void *ctx, uint64_t v) {
  sctx *c = ctx;
  if (c->n == c->cap && pcol_grow(&c->iids, &c->cap, sizeof *c->iids)) return pcol_oom(x->err);
  c->iids[c->n++] = v;
  return 0;
}
static int delta(pimp *x, void *ctx, uint64_t v) {
  sctx *c = ctx;
  int64_t d = (int64_t)v;
  if (d > INT64_MAX / 1000 || d < INT64_MIN / 1000 ||
      (d > 0 && c->s->tev_ns > INT64_MAX - d * 1000) || (d < 0 && c->s->tev_ns < INT64_MIN - d * 1000))
    return bad(x, "streaming_profile_packet: a timestamp_delta_us takes the time past 64 bits");
  c->s->tev_ns += d * 1000;
  if (c->k >= c->n) return c->k++, 0; /* trailing deltas still move the clock */
  uint64_t iid = c->iids[c->k++];
  uint32_t stack;
  int rc = callstack(x, c->s, iid, &stack);
  if (rc) return rc;
  if (!stack) return x->n_empty++, 0;
  if (c->s->tev_ns < 0) return x->n_negative++, 0; /* (trace_processor drops it too) */
  int64_t t;
  int conv = chrome_ticks(x, 0, c->s->tev_ns, &t);
  if (!conv) t = c->s->tev_ns, x->n_unconverted++; /* (as trace_processor keeps it) */
  int64_t one = 1;
  return add_row(x, c->src, t, conv, stack, c->ls, &one, 1);
}
static int streaming(pimp *x, seqst *s, pspan m) {
  pcol_pb_field f;
  sctx c = {.s = s};
  int rc = 0;
  size_t i = 0;
  int r;
  if (!s->has_ref) { /* (its iids counted for a note) */
    while ((r = next(x, m, &i, &f, "streaming_profile_packet")) == 1)
      if (f.field == 1 && (rc = each_varint(x, m, &f, push_iid, &c, "callstack_iid"))) break;
    if (r < 0) rc = r;
    x->n_no_ref += c.n;
    free(c.iids);
    return rc;
  }
  srcspec sp = {.kind = "streaming_profile_packet", .label = "Chrome sampler"};
  labels l = {0};
  l.has_pid = s->has_td, l.pid = s->pid, l.has_tid = s->has_td, l.tid = s->tid;
  if ((rc = source_of(x, &sp, &c.src)) || (rc = labelset(x, &l, &c.ls))) return rc;
  while ((r = next(x, m, &i, &f, "streaming_profile_packet")) == 1)
    if (f.field == 1 && (rc = each_varint(x, m, &f, push_iid, &c, "callstack_iid"))) break;
  if (r < 0) rc = r;
  i = 0;
  while (!rc && (r = next(x, m, &i, &f, "streaming_profile_packet")) == 1)
    if (f.field == 2) rc = each_varint(x, m, &f, delta, &c, "timestamp_delta_us");
  if (!rc && r < 0) rc = r;
  if (!rc && c.k < c.n) rc = bad(x, "streaming_profile_packet: %zu callstack_iid but %zu timestamp_delta_us", c.n, c.k);
  free(c.iids);
  return rc;
}

/* pass 2: every packet in order */
/* A source's window (doc/mappings.md §17): on its stream's sequence, a
 * slice (TrackEvent TYPE_SLICE_BEGIN, then TYPE_SLICE_END on its track)
 * of category "pcol.window" (pcol's Perfetto export writes it: the
 * Perfetto UI draws it on a track named after the source), its begin the
 * window's start and its end the window's end on the trace clock, its
 * debug annotations pcol.span_start_ns (where the window starts after the
 * source's time 0, which a range in seconds counts from) and
 * pcol.recording (the source's recording: those of one are its parts).
 * t: the packet's time on the trace clock.  A second window on the
 * sequence, or an end before the begin, leaves it none (-1). */
enum { TE_TYPE = 9, TE_TRACK = 11, TE_CATEGORIES = 22, TE_DEBUG = 4 };
static int window_event(pimp *x, seqst *s, pspan m, int64_t t) {
  pcol_pb_field f, g;
  uint64_t type = 0, track = 0, rec = 0;
  int64_t span = 0;
  int cat = 0;
  FIELDS(x, m, f, "track_event", {
    if (f.field == TE_TYPE && f.wt == 0) type = f.v;
    else if (f.field == TE_TRACK && f.wt == 0) track = f.v;
    else if (f.field == TE_CATEGORIES && f.wt == 2)
      cat |= f.e - f.b == strlen(PERFETTO_WINDOW_CATEGORY) && !memcmp(m.p + f.b, PERFETTO_WINDOW_CATEGORY, f.e - f.b);
    else if (f.field == TE_DEBUG && f.wt == 2) {
      pspan a = sub(&m, &f), nm = {NULL, 0};
      uint64_t v = 0;
      int has_v = 0;
      FIELDS(x, a, g, "track_event.debug_annotations", {
        if (g.field == 10 && g.wt == 2) nm = sub(&a, &g);
        else if ((g.field == 3 || g.field == 4) && g.wt == 0) v = g.v, has_v = 1; /* uint_value, int_value */
      });
      if (has_v && nm.n == strlen(PERFETTO_WINDOW_SPAN_START) && !memcmp(nm.p, PERFETTO_WINDOW_SPAN_START, nm.n))
        span = (int64_t)v;
      if (has_v && nm.n == strlen(PERFETTO_WINDOW_RECORDING) && !memcmp(nm.p, PERFETTO_WINDOW_RECORDING, nm.n)) rec = v;
    }
  });
  if (type == 1 && cat) { /* TYPE_SLICE_BEGIN */
    if (s->win) s->win = -1;
    else
      s->win = 1, s->win_lo = t, s->win_span = span >= 0 ? span : 0, s->win_rec = rec, s->win_track = track,
      s->win_pkt = x->pkt, s->win_off = x->pkt_off, s->win_z = x->in_z;
  } else if (type == 2 && s->win == 1 && track == s->win_track) { /* TYPE_SLICE_END */
    s->win = t >= s->win_lo ? 2 : -1, s->win_hi = t;
  }
  return 0;
}

static int pass2(pimp *x, pspan pk) {
  pcol_pb_field f;
  uint64_t seq_id = 0, flags = 0, ts = 0, clock = 0;
  int has_seq = 0, cleared = 0, dropped = 0, has_ts = 0, has_clock = 0;
  pspan interned_m = {NULL, 0}, defaults = {NULL, 0}, payload = {NULL, 0}, td = {NULL, 0};
  pspan tev = {NULL, 0}, trk = {NULL, 0}; /* a track event, a track descriptor (perfetto_v8.c) */
  pspan snapm = {NULL, 0};
  unsigned kind = 0;
  FIELDS(x, pk, f, "packet", {
    switch (f.field) {
    case P_SEQ_ID: if (f.wt == 0) seq_id = f.v, has_seq = 1; break;
    case P_SEQ_FLAGS: if (f.wt == 0) flags = f.v; break;
    case P_CLEARED: if (f.wt == 0 && f.v) cleared = 1; break;
    case P_DROPPED: if (f.wt == 0 && f.v) dropped = 1; break;
    case P_TIMESTAMP: if (f.wt == 0) ts = f.v, has_ts = 1; break;
    case P_TIMESTAMP_CLOCK: if (f.wt == 0) clock = f.v, has_clock = 1; break;
    case P_INTERNED: if (f.wt == 2) interned_m = sub(&pk, &f); break;
    case P_DEFAULTS: if (f.wt == 2) defaults = sub(&pk, &f); break;
    case P_THREAD_DESCRIPTOR: if (f.wt == 2) td = sub(&pk, &f); break;
    case P_TRACK_EVENT: if (f.wt == 2) tev = sub(&pk, &f); break;
    case P_TRACK_DESCRIPTOR: if (f.wt == 2) trk = sub(&pk, &f); break;
    case P_CLOCK_SNAPSHOT: if (f.wt == 2) snapm = sub(&pk, &f); break;
    case P_STACK_SAMPLE: case P_PERF_SAMPLE: case P_STREAMING:
      if (f.wt == 2) payload = sub(&pk, &f), kind = (unsigned)f.field;
      break;
    case P_PROFILE_PACKET: x->n_heap++; break;
    case P_HEAP_GRAPH: x->n_heapgraph++; break;
    default: break;
    }
  });
  if (seq_id > UINT32_MAX) return bad(x, "trusted_packet_sequence_id %" PRIu64 " is past 32 bits", seq_id);
  seqst *s = NULL;
  int rc;
  if ((rc = seq_of(x, has_seq ? (uint32_t)seq_id : 0, &s))) return rc;
  if (cleared || (flags & SEQ_CLEARED)) {
    if ((rc = gen_drop(x, s))) return rc;
    s->invalid = 0;
  } else if (dropped && has_seq) {
    s->invalid = 1;
  }
  if (defaults.n) s->defaults = defaults, s->dread = 0;
  if (interned_m.n && !s->invalid && (rc = read_interned(x, s, interned_m))) return rc;
  if (snapm.n && has_seq && (rc = seq_clocks(x, s, snapm))) return rc;
  /* the packet's time, on the trace clock; its builtin clock (pclock: 0
   * none stated, or a sequence-scoped one no snapshot of it names) */
  int64_t t = PCOL_NA_I64;
  uint32_t pclock = 0;
  int on_trace = 0;
  if (has_ts) {
    uint32_t c = has_clock ? (uint32_t)clock : 0;
    if (!has_clock && s->defaults.n) {
      if (!(s->dread & D_CLOCK)) {
        pcol_pb_field g;
        s->dclock = 0;
        FIELDS(x, s->defaults, g, "trace_packet_defaults", {
          if (g.field == P_TIMESTAMP_CLOCK && g.wt == 0) s->dclock = (uint32_t)g.v;
        });
        s->dread |= D_CLOCK;
      }
      c = s->dclock;
    }
    if (ts > INT64_MAX) return bad(x, "timestamp %" PRIu64 " is past 2^63", ts);
    pclock = c < 64 ? c : c < 128 ? s->sbase : 0;
    /* (a time no snapshot converts, or on a sequence-scoped clock, 64 on,
     * which Chrome's track events use incrementally, bounds nothing) */
    if (c < 64 && to_trace(x, c, (int64_t)ts, &t)) {
      on_trace = 1;
      if (!x->have_t || t < x->tmin) x->tmin = t;
      if (!x->have_t || t > x->tmax) x->tmax = t, late(x);
      x->have_t = 1;
    } else {
      t = (int64_t)ts, x->n_unconverted += kind != 0;
    }
  }
  if (td.n) { /* the sequence's thread, and the track-event clock */
    pcol_pb_field g;
    FIELDS(x, td, g, "thread_descriptor", {
      if (g.wt != 0) continue;
      if (g.field == 1) s->pid = (int32_t)g.v, s->has_td = 1;
      if (g.field == 2) s->tid = (int64_t)g.v, s->has_td = 1;
      if (g.field == 6) { /* reference_timestamp_us (int64) */
        int64_t us = (int64_t)g.v;
        if (us > INT64_MAX / 1000 || us < INT64_MIN / 1000)
          return bad(x, "thread_descriptor: reference_timestamp_us %" PRId64 " takes the time past 64 bits", us);
        s->tev_ns = us * 1000, s->has_ref = 1;
      }
    });
  }
  /* V8's profile events: the sequence's thread, then the event (skipped,
   * as trace_processor skips it, while the sequence lost its state) */
  if ((td.n || trk.n) && !s->invalid &&
      (rc = pf_v8_seq_thread(&x->v8, &x->host, s->id, td.p, td.n, trk.p, trk.n)))
    return rc;
  if (tev.n && on_trace && has_seq && (rc = window_event(x, s, tev, t))) return rc;
  if (tev.n && !((flags & SEQ_NEEDS_STATE) && s->invalid) &&
      (rc = pf_v8_track_event(&x->v8, &x->host, s, s->id, pclock, s->defaults.p, s->defaults.n, tev.p, tev.n)))
    return rc;
  if (!kind) return 0;
  if ((flags & SEQ_NEEDS_STATE) && s->invalid) {
    x->n_skipped_state++;
    return 0;
  }
  if (kind == P_STREAMING) return streaming(x, s, payload);
  if (t == PCOL_NA_I64) return x->n_no_ts++, 0;
  return kind == P_STACK_SAMPLE ? stack_sample(x, s, payload, t) : perf_sample(x, s, payload, t);
}

/* ------------------------------------------------------------- output */
static int row_cmp(const void *a, const void *b) {
  const prow *p = a, *q = b;
  if (p->src != q->src) return p->src < q->src ? -1 : 1;
  if (p->t != q->t) return p->t < q->t ? -1 : 1;
  return p->seq < q->seq ? -1 : p->seq > q->seq;
}
static int put_row(void *ctx, const void *row) {
  pimp *x = ctx;
  const prow *r = row;
  const psource *s = &x->src[r->src];
  pcol_value_row v[PV_MAX];
  for (uint32_t k = 0; k < r->nv && k < s->nvt; k++) v[k].value_type_id = s->vt[k], v[k].value = r->v[k];
  int64_t t;
  if (__builtin_sub_overflow(r->t, s->zero, &t) || t == PCOL_NA_I64) t = PCOL_NA_I64;
  pcol_sample_row sr = {s->id, t, 0, 1, PCOL_NA_I64, r->stack, r->labels};
  return pcol_b_sample(x->b, &sr, v, r->nv < s->nvt ? r->nv : s->nvt, NULL, x->err);
}
static int note(pimp *x, uint32_t src, uint64_t n, const char *what) {
  if (!n) return 0;
  char m[256];
  snprintf(m, sizeof m, "%s: %" PRIu64, what, n);
  return meta_str(x, src, PCOL_META_NOTE, m);
}
/* what was read and not kept: each a note (and, NULL src, a refusal's words) */
static const struct {
  size_t off;
  const char *what;
} NOTES[] = {
#define N(f, w) {offsetof(pimp, f), w}
    N(n_skipped_state, "packets skipped: SEQ_NEEDS_INCREMENTAL_STATE after data loss, before the state was cleared"),
    N(n_empty, "samples with an empty callstack, not kept (trace_processor keeps no callsite)"),
    N(n_nostack, "PerfSample counter readings without a callstack, not kept"),
    N(n_skipped_perf, "PerfSample records of skipped samples (sample_skipped_reason)"),
    N(n_lost_records, "kernel records lost (PerfSample kernel_records_lost)"),
    N(n_heap, "heapprofd ProfilePacket packets ignored"),
    N(n_heapgraph, "heap graph packets ignored"),
    N(n_no_ref, "StreamingProfilePacket samples without a thread descriptor's reference time, not kept"),
    N(n_unconverted, "sample times on a clock no clock snapshot converts, kept as they are"),
    N(n_followers_cut, "StackSample samples with more than 6 followers (the rest not kept)"),
    N(n_no_ts, "samples in packets without a timestamp, not kept"),
    N(n_negative, "StreamingProfilePacket samples at a negative time, not kept"),
    N(n_paths_cut, "mapping paths (path_string_ids joined) cut at 4096 bytes"),
    N(n_perf_followers, "PerfSample follower counters not read (cumulative counts)"),
#undef N
};
static uint64_t note_n(const pimp *x, size_t k) { return *(const uint64_t *)((const char *)x + NOTES[k].off); }
static int notes(pimp *x, uint32_t src) {
  int rc = 0;
  for (size_t k = 0; !rc && k < sizeof NOTES / sizeof NOTES[0]; k++) rc = note(x, src, note_n(x, k), NOTES[k].what);
  return rc;
}
/* A trace without samples or V8 profiles: refused, as a Chrome JSON trace
 * without a CPU profile is (doc/mappings.md §17), saying what it held. */
static int no_samples(pimp *x) {
  char held[1024];
  size_t n = 0;
  for (size_t k = 0; k < sizeof NOTES / sizeof NOTES[0] && n < sizeof held; k++)
    if (note_n(x, k))
      n += (size_t)snprintf(held + n, sizeof held - n, "%s%s: %" PRIu64, n ? "; " : "", NOTES[k].what, note_n(x, k));
  return pcol_error_set(x->err, PCOL_EFORMAT, "%s: a Perfetto trace without CPU samples: no StackSample, PerfSample "
                        "or StreamingProfilePacket sample with a callstack, no V8 Profile/ProfileChunk events (for "
                        "Chrome's JavaScript: record with the disabled-by-default-v8.cpu_profiler category)%s%s",
                        x->name, n ? "; in the trace: " : "", n ? held : "");
}
/* A source's window not taken (windows, finish): the source falls back
 * as one without a window does (finish), and a warning names the first
 * such window (the numbers printed stay true: a window that does not hold
 * its samples, or whose time 0 or end is past what int64 ns hold, would
 * put samples before time 0 or a wrong length in the header: review rd17a
 * F7) */
static void window_dropped(pimp *x, psource *p, uint64_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void window_dropped(pimp *x, psource *p, uint64_t *n, const char *fmt, ...) {
  p->win = 0;
  if ((*n)++) return;
  char m[256], w[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  where_at(p->wpkt, p->woff, p->wz, w, sizeof w);
  pcol_error_set(x->err, PCOL_OK, "%s: Perfetto trace: %s: the pcol.window of source %u %s: not taken (the source "
                 "read as one without a window: its samples' span)", x->name, w, p->id, m);
}
/* Which sources state their window (window_event: each sequence of its
 * samples a closed one, all alike), when no V8 profile is there: those
 * (win 1) take it (finish: their time 0 is the window's start less its
 * span start, their duration the window's, their wall-clock start the
 * trace's moved as far, and consecutive ones of the same pcol.recording
 * the parts of one recording); the others (win 0: a source that stated
 * no duration, a trace pcol did not write) are read as before, of their
 * samples' span.  A window that is empty, does not hold its source's
 * samples, or whose span start + length pass 2^63 ns is not taken
 * (window_dropped).  Returns how many are taken. */
static size_t windows(pimp *x, uint64_t *dropped) {
  if (!x->nsrc || pf_v8_profiles(&x->v8)) return 0;
  for (size_t k = 0; k < x->nseq; k++) {
    const seqst *q = &x->seq[k];
    if (!q->src1) continue;
    psource *p = &x->src[q->src1 - 1];
    if (q->win != 2) p->win = -1;
    else if (!p->win)
      p->win = 1, p->wlo = q->win_lo, p->whi = q->win_hi, p->wspan = q->win_span, p->wrec = q->win_rec,
      p->wpkt = q->win_pkt, p->woff = q->win_off, p->wz = q->win_z;
    else if (p->wlo != q->win_lo || p->whi != q->win_hi || p->wspan != q->win_span || p->wrec != q->win_rec)
      p->win = -1;
  }
  size_t n = 0;
  for (size_t i = 0; i < x->nsrc; i++) {
    psource *p = &x->src[i];
    int64_t d, end;
    if (p->win != 1) p->win = 0;
    else if (__builtin_sub_overflow(p->whi, p->wlo, &d) || d <= 0)
      window_dropped(x, p, dropped, "is empty or longer than 2^63 ns (%" PRId64 " .. %" PRId64 " ns on the trace clock)",
                     p->wlo, p->whi);
    else if (p->samples && (p->tlo < p->wlo || p->thi > p->whi))
      window_dropped(x, p, dropped, "(%" PRId64 " .. %" PRId64 " ns on the trace clock) does not hold its samples (at %"
                     PRId64 " .. %" PRId64 " ns)", p->wlo, p->whi, p->tlo, p->thi);
    else if (__builtin_sub_overflow(p->wlo, p->wspan, &p->zero) || __builtin_add_overflow(p->wspan, d, &end))
      window_dropped(x, p, dropped, "starts %" PRId64 " ns after the source's time 0 and lasts %" PRId64
                     " ns: past 2^63 ns", p->wspan, d);
    else
      n++;
  }
  return n;
}

static int finish(pimp *x) {
  int rc;
  size_t nv8 = pf_v8_profiles(&x->v8), made = 0;
  if (!x->nsrc && !nv8) return no_samples(x);
  /* V8's profiles, when the snapshots place their startTimes: those bound
   * the trace as a sample's converted time does */
  int v8_placed;
  int64_t v8_lo, v8_hi;
  if ((rc = pf_v8_place(&x->v8, &x->host, &v8_placed, &v8_lo, &v8_hi))) return rc;
  if (v8_placed) {
    if (!x->have_t || v8_lo < x->tmin) x->tmin = v8_lo;
    if (!x->have_t || v8_hi > x->tmax) x->tmax = v8_hi, x->late_pkt = 0; /* (a V8 sample's: no one packet) */
    x->have_t = 1;
  }
  int on_clock = x->have_t;
  /* the samples' span too: without a timestamp on the trace clock, or
   * with sample times no snapshot converts, no sample lies before time 0 */
  if (x->have_s && (!x->have_t || x->smin < x->tmin)) x->tmin = x->smin;
  if (x->have_s && (!x->have_t || x->smax > x->tmax)) x->tmax = x->smax;
  x->have_t |= x->have_s;
  int64_t span = -1;
  if (x->have_t && __builtin_sub_overflow(x->tmax, x->tmin, &span)) span = -1;
  int64_t wall = PCOL_NA_I64;
  if (on_clock) { /* the trace's start on the wall clock, when a snapshot has it */
    uint32_t tc = x->trace_clock ? x->trace_clock : BOOTTIME;
    for (size_t k = 0; k < x->nsnap && wall == PCOL_NA_I64; k++) {
      uint64_t rt, st;
      if (snap_get(&x->snaps[k], REALTIME, &rt) && snap_get(&x->snaps[k], tc, &st))
        if (rt > INT64_MAX || st > INT64_MAX || __builtin_sub_overflow((int64_t)rt, (int64_t)st, &wall) ||
            __builtin_add_overflow(wall, x->tmin, &wall))
          wall = PCOL_NA_I64;
    }
  }
  /* the trace's end on the wall clock: past 2^63 ns since 1970 (2262-04-11)
   * it is no time pcol (or pprof's int64 time_nanos) can hold, and every
   * view would count the samples there as hours after a start that was
   * (before: 55555.56hrs after 2262-04-07, exit 0) */
  int64_t wend;
  if (wall != PCOL_NA_I64 && span >= 0 && __builtin_add_overflow(wall, span, &wend)) {
    char w[128] = "its V8 profiles";
    if (x->late_pkt) where_at(x->late_pkt, x->late_off, x->late_z, w, sizeof w);
    return pcol_error_set(x->err, PCOL_ECORRUPT,
                          "%s: Perfetto trace: %s: a time past 2262-04-11 (2^63 ns since 1970): the clock snapshot "
                          "puts the trace's start at %" PRId64 " ns since 1970 and this %" PRId64 " ns after it",
                          x->name, w, wall, span);
  }
  int many = x->nsrc + nv8 > 1;
  x->tmin = x->have_t ? x->tmin : 0;
  uint64_t dropped = 0;
  size_t nwin = windows(x, &dropped);
  /* the parts of a recording without a wall clock are placed by their
   * span starts from one time 0 (THE recording rule: taken to begin
   * together): the earliest of theirs, where pcol's export puts them all,
   * each window's span start moved to count from it; parts that cannot be
   * so placed in 2^63 ns take no window (window_dropped: before, each kept
   * its own time 0 unsaid, 1281023.89hrs) */
  for (size_t i = 0, e; nwin && wall == PCOL_NA_I64 && i < x->nsrc; i = e) {
    for (e = i + 1; x->src[i].win && e < x->nsrc && x->src[e].win && x->src[e].wrec == x->src[i].wrec;) e++;
    if (!x->src[i].win) continue;
    int64_t z = x->src[i].zero, d, end;
    for (size_t k = i + 1; k < e; k++)
      if (x->src[k].zero < z) z = x->src[k].zero;
    size_t k = i;
    for (; k < e; k++)
      if (__builtin_sub_overflow(x->src[k].wlo, z, &d) || __builtin_add_overflow(d, x->src[k].whi - x->src[k].wlo, &end))
        break;
    for (size_t j = i; j < e; j++)
      if (k < e)
        window_dropped(x, &x->src[j], &dropped, "is a part of recording %" PRIu64 " whose parts' span starts are "
                       "more than 2^63 ns apart", x->src[j].wrec), nwin--;
      else
        x->src[j].wspan = x->src[j].wlo - z, x->src[j].zero = z;
  }
  if (nwin) { /* each source its window (window_event), the others as below */
    for (size_t i = 0, e; i < x->nsrc; i = e) {
      for (e = i + 1; e < x->nsrc && !x->src[e].win == !x->src[i].win && (!x->src[i].win || x->src[e].wrec == x->src[i].wrec);)
        e++;
      if (!x->src[i].win) {
        /* sources without a window (of no stated duration, or one not
         * taken): one recording of their samples' span, as in a trace of
         * them alone (before, all the others' windows were dropped with
         * them: 490896.03hrs for 6s, review rd17a F2); a source of no
         * sample has no span (its tlo, thi unset: before, 0 pulled the
         * others' time 0 back to the trace clock's, review rd17b F2), a
         * run of none no duration */
        int64_t lo = x->tmin, hi = x->tmin, d = -1, w;
        int any = 0;
        for (size_t k = i; k < e; k++) {
          if (!x->src[k].samples) continue;
          if (!any || x->src[k].tlo < lo) lo = x->src[k].tlo;
          if (!any || x->src[k].thi > hi) hi = x->src[k].thi;
          any = 1;
        }
        if (any && __builtin_sub_overflow(hi, lo, &d)) d = -1;
        for (size_t k = i; k < e; k++) {
          psource *p = &x->src[k];
          p->zero = lo;
          if ((d >= 0 && (rc = meta_i64(x, p->id, PPROF_META_DURATION_NANOS, d))) ||
              (e - i > 1 && (rc = meta_i64(x, p->id, PCOL_META_RECORDING_PART, (int64_t)(k - i) + 1))))
            return rc;
          if (wall != PCOL_NA_I64 && !__builtin_sub_overflow(lo, x->tmin, &w) && !__builtin_add_overflow(wall, w, &w) &&
              w > 0 && (rc = meta_i64(x, p->id, PPROF_META_TIME_NANOS, w)))
            return rc;
          if ((rc = notes(x, p->id))) return rc;
        }
        continue;
      }
      for (size_t k = i; k < e; k++) {
        psource *p = &x->src[k];
        int64_t w;
        if ((rc = meta_i64(x, p->id, PPROF_META_DURATION_NANOS, p->whi - p->wlo)) ||
            (p->wspan > 0 && (rc = meta_i64(x, p->id, PCOL_META_SPAN_START_NS, p->wspan))) ||
            (e - i > 1 && (rc = meta_i64(x, p->id, PCOL_META_RECORDING_PART, (int64_t)(k - i) + 1))))
          return rc;
        if (wall != PCOL_NA_I64 && !__builtin_sub_overflow(p->zero, x->tmin, &w) && !__builtin_add_overflow(wall, w, &w) &&
            w > 0 &&
            (rc = meta_i64(x, p->id, PPROF_META_TIME_NANOS, w)))
          return rc;
        if ((rc = notes(x, p->id))) return rc;
      }
    }
  } else { /* the sources, one recording: numbered when more than one */
    for (size_t i = 0; i < x->nsrc; i++) {
      uint32_t src = x->src[i].id;
      x->src[i].zero = x->tmin;
      if (x->have_t && span >= 0 && (rc = meta_i64(x, src, PPROF_META_DURATION_NANOS, span))) return rc;
      if (wall != PCOL_NA_I64 && wall > 0 && (rc = meta_i64(x, src, PPROF_META_TIME_NANOS, wall))) return rc;
      if (many && (rc = meta_i64(x, src, PCOL_META_RECORDING_PART, (int64_t)i + 1))) return rc;
      if ((rc = notes(x, src))) return rc;
    }
  }
  if (x->nsrc) {
    rc = pcol_rowsort_each(x->rows, put_row, x);
    if (rc == PCOL_EIO) return pcol_error_set(x->err, rc, "%s: a temporary file of sorted samples could not be read back", x->name);
    if (rc) return rc;
  }
  /* V8's profiles: on the trace's timeline when placed, with its wall
   * clock; else on their own, as a JSON trace's */
  uint32_t first = 0;
  if ((rc = pf_v8_finish(&x->v8, &x->host, many ? (int64_t)x->nsrc + 1 : 0, x->tmin, wall, &made, &first))) return rc;
  for (size_t i = 0; !x->nsrc && i < made; i++) /* (else the notes are the samples' sources') */
    if ((rc = notes(x, first + (uint32_t)i))) return rc;
  return 0;
}

/* ----------------------------------------- perfetto_v8.c's host */
static int host_bad(void *ctx, const char *msg) { return bad(ctx, "%s", msg); }
/* an EventName or DebugAnnotationName: its name (field 2); 0 when the
 * sequence's generation holds no such entry */
static int host_name(void *ctx, const void *seq, unsigned kind, uint64_t iid, const uint8_t **p, size_t *n) {
  pimp *x = ctx;
  const seqst *s = seq;
  ientry *e = e_find(x, iid, gkey(s, kind));
  if (!e || !e->m.p) return 0;
  pcol_pb_field f;
  *p = NULL, *n = 0;
  FIELDS(x, e->m, f, "interned name", {
    if (f.field == 2 && f.wt == 2) *p = e->m.p + f.b, *n = f.e - f.b;
  });
  return *p != NULL;
}
/* V8's clock on the trace clock: THE rule of Chrome's TimeTicks */
static int host_ticks(void *ctx, uint32_t clock, int64_t ns, int64_t *t) { return chrome_ticks(ctx, clock, ns, t); }
/* a V8 profile's thread: its source's URI, "FILE: THREAD (pid P, tid T)"
 * ("FILE: pid P, tid T" without a thread name; THE rule of srcname.h), as
 * a JSON trace's, and
 * the labels of the trace's threads (pid, tid, their names) */
static int host_thread(void *ctx, const pf_v8_thread *t, char **uri, size_t *ulen, uint32_t *ls) {
  pimp *x = ctx;
  labels l = {0};
  l.pid = t->pid, l.has_pid = t->has_pid, l.tid = t->tid, l.has_tid = t->has_tid;
  char pt[24] = "?", tt[24] = "?";
  if (t->has_pid) snprintf(pt, sizeof pt, "%" PRId64, t->pid);
  if (t->has_tid) snprintf(tt, sizeof tt, "%" PRId64, t->tid);
  uint32_t sid = t->has_tid ? name_of(x, K_THREAD, t->tid) : 0;
  pcol_str tn = sid ? pcol_b_string_get(x->b, sid) : (pcol_str){NULL, 0};
  *uri = pcol_source_name(x->name, tn.ptr, tn.len, pcol_source_part(pt), pcol_source_part(tt), pcol_source_part(NULL),
                          ulen); /* (whole: it may hold NUL) */
  if (!*uri) return pcol_oom(x->err);
  return labelset(x, &l, ls);
}

static int setup(pimp *x) {
  int rc;
  if ((rc = pcol_rowsort_new(&x->rows, sizeof(prow), row_cmp))) return pcol_oom(x->err);
  struct {
    const char *s;
    uint32_t *id;
  } k[] = {{"pid", &x->k_pid}, {"tid", &x->k_tid}, {"thread_name", &x->k_thread}, {"process_name", &x->k_process},
           {"cpu", &x->k_cpu}, {"cpu_mode", &x->k_mode}, {"async_context", &x->k_async}, {PCOL_UNIT_COUNT, &x->u_count}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if ((rc = pcol_b_cstr(x->b, k[i].s, k[i].id, x->err))) return rc;
  return 0;
}

int pcol_import_perfetto(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                         pcol_error *err) {
  if (!b || !in) return pcol_error_set(err, PCOL_EINVAL, "pcol_import_perfetto: NULL builder or stream");
  pimp x;
  memset(&x, 0, sizeof x);
  x.b = b, x.name = name ? name : "<input>", x.opt = opt, x.err = err;
  int gz = 0, rc = 0;
  /* a regular file is mapped in place, not copied */
  if (!pcol_input_map_file(in, opt, &x.raw)) rc = pcol_read_input(in, opt, x.name, &x.raw, &gz, err);
  if (!rc && !x.raw.len) rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: empty input (no Perfetto trace packets)", x.name);
  x.host = (pf_v8_host){&x, b, x.name, opt, err, host_bad, where, host_name, host_thread, host_ticks};
  if (!rc) rc = setup(&x);
  pspan t = {x.raw.data, x.raw.len};
  if (!rc) rc = walk(&x, t, pass1, 1);
  if (!rc) rc = z_seal(&x);
  if (!rc) rc = conv_tables(&x);
  if (!rc) {
    x.pkt = 0, x.zat = 0, x.given = 0;
    rc = walk(&x, t, pass2, 2);
  }
  if (!rc) rc = finish(&x);
  pcol_input_free(&x.zin);
  pcol_buf_free(&x.ztmp);
  free(x.zoff);
  free(x.zfix);
  for (size_t i = 0; i < x.nsrc; i++) pcol_buf_free(&x.src[i].key);
  free(x.src);
  pcol_hset_free(&x.srch);
  pcol_buf_free(&x.key);
  free(x.e);
  pcol_hset_free(&x.eh);
  free(x.seq);
  free(x.snaps);
  pcol_hset_free(&x.snaph);
  for (int c = 0; c < 64; c++) free(x.conv[c]);
  free(x.locs);
  pcol_stack_memo_free(&x.memo);
  free(x.lines);
  free(x.cv);
  free(x.cvfree);
  pcol_buf_free(&x.tmp);
  pcol_rowsort_free(x.rows);
  pf_v8_free(&x.v8);
  pcol_input_free(&x.raw);
  return rc;
}
