/* chrome_trace.c — Chrome's trace-event JSON (DevTools' Performance panel
 * "Save profile", chrome://tracing, Perfetto's JSON export, `node
 * --trace-events`) into a builder: the V8 CPU profiles it carries.
 *
 *   [event, ...]  or  {"traceEvents": [event, ...], "metadata": {...}, ...}
 *   event: {"ph", "name", "pid", "tid", "ts", "id", "args": {...}}
 *
 * A sampled profile arrives as a "Profile" event (args.data.startTime, µs
 * on the trace's clock) and "ProfileChunk" events of the same pid and id,
 * each adding nodes (parent form), samples and timeDeltas
 * (args.data.cpuProfile.{nodes,samples}, args.data.timeDeltas) and V8's
 * source line of each sample (args.data.lines: a sample's own frame is at
 * it, v8_import.c's PCOL_V8_SAMPLE_LINES); older
 * traces hold one whole profile in a "CpuProfile" event
 * (args.data.cpuProfile).  Each profile is put back together as the V8
 * document it was cut from — its nodes, samples, deltas and lines copied as text,
 * into temporary files, the chunks taken in ts order as DevTools and
 * speedscope sort a trace's events — and read by the V8 importer
 * (v8_import.c), so names, checks and times are V8's own: one source per
 * profile, type "chrome", every sample labelled with the profiled thread
 * (`pid`, `tid`, and `thread_name`/`process_name` from the "M" metadata
 * events).  Duration events (ph X, B/E) are then not samples: they are
 * counted into the meta `chrome.duration_events` (doc/mappings.md §14).
 *
 * A trace without a CPU profile is read as speedscope's trace-event importer
 * reads it: per thread (pid, tid), its B, E and X events merged from a B
 * queue and an E queue in ts order, an E closing the innermost open frame
 * when the names match (else left out) or when it has no name (as
 * chrome://tracing and Perfetto close it), each stretch of time between two
 * changes of the stack a sample of that stack (value wall, ns).  A trace
 * of the samples form (Hermes: "samples" and "stackFrames" beside
 * "traceEvents") is read as speedscope reads that form, unless its first
 * event has the keys pid, tid, ph and cat and a CPU profile is there (then
 * the profile, as speedscope reads it): per thread in file order, each
 * sample's stack its sf up the parent chain of stackFrames, weighed by the
 * time to the thread's next sample, its frames speedscope's (one per
 * NAME:CATEGORY text in a profile), every value read as JavaScript's
 * Number() and String() read it (but a time: a ts that is a number is its
 * text's, to the ns, pcol_v8_time_us, as the duration events' ts and dur).
 *
 * The document is streamed (json_pull.c): memory holds one event's scalars,
 * the thread names, a few counters per profile and the distinct names of
 * duration events; the profiles' text waits in temporary files, the
 * duration events in a sorter (rowsort.c: runs in a temporary file), read
 * back one at a time but for the E events of one thread at one time (at
 * most MAX_TIED_ENDS: egroup); the samples in a sorter too, the stack
 * frames in memory (at most MAX_SFRAMES). */
#include "v8.h"
#include "keys.h"     /* PCOL_SRC_CHROME, PCOL_META_INTERVALS, PCOL_META_MAX_DURATION_NS */
#include "error.h"    /* pcol_error_in, pcol_oom */
#include "buf.h"      /* PCOL_GROW */
#include "hash.h"     /* pcol_hash_keyed */
#include "rowsort.h"  /* pcol_rowsort: the duration events in speedscope's order */
#include "spill.h"    /* pcol_temp_file: close-on-exec, in $TMPDIR */
#include "srcname.h"  /* pcol_source_name */
#include "count.h"    /* pcol_kept_add, pcol_kept_verdict: THE kept rule */
#include "builder.h"  /* pcol_b_source_n */
#include <math.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A thread, as speedscope keys it (pidTidKey): its pid and its tid each as
 * JavaScript writes the value, String() of it ("undefined" when absent; in
 * the samples form String() of Number() of it, as speedscope reads that
 * form).  One rule for both forms, the CPU profiles' threads and the M
 * events' names (doc/mappings.md §14): a string that is a number's text
 * ("7") is that number's thread; any other ("main", "pool-1-thread-1": a
 * thread of its own, as chrome://tracing and Perfetto show it; speedscope
 * 1.25 fails on such a trace) keeps its text.  Threads are ordered as
 * speedscope orders its profiles, by the text, each zero-padded to 10
 * characters; those with a text that is no number's after all others, by
 * where their pid's and then their tid's text first appear in the file. */
typedef struct tkey {
  double v[2];      /* pid, tid: the number (NaN when isstr) */
  uint32_t id[2];   /* the text's index in the names (dtrace) + 1; 0: not interned (the samples form) */
  uint8_t isstr[2]; /* the text is no number's */
  char tx[2][26];   /* a number's text (at most 25 bytes, "-0.0000012345678901234567") when
                     * it is no SMALL_ID: the sort's key */
} tkey;

typedef struct cname {
  uint32_t pid, tid; /* the texts' ids (tkey) */
  int proc;          /* a process_name (tid unused) */
  char *name;        /* name[0..len): it may hold NUL (\u0000), kept */
  size_t len;
} cname;

/* The E events (ph E, and the ends of ph X) of one thread that end at one
 * time are held in memory at once, 64 bytes each (egroup): at most this
 * many (64 MiB), else the trace is refused (doc/mappings.md §14). */
#define MAX_TIED_ENDS (1u << 20)

/* A duration event (ph B, E or X) in one of the two queues speedscope's
 * trace-event importer makes of a thread's events (doc/mappings.md §14):
 * the B queue (B events, then X events as begins) and the E queue (E
 * events, then X events as ends), each in ts order, ties in that order
 * (X events among themselves by ts, the longer first, then file order). */
typedef struct drow {
  tkey k;         /* its thread */
  int64_t t;      /* ns: a B's or E's ts; an X's ts (B queue) or ts + dur (E queue) */
  int64_t xts;    /* an X's ts in the E queue, else 0 */
  int64_t negdur; /* an X's -dur, else 0 */
  uint64_t seq;   /* file order: the event's index in traceEvents */
  uint64_t key;   /* name and args: speedscope's event id */
  uint32_t name;  /* index into the names */
  uint32_t kind;  /* 0: B or E, 1: X */
  uint32_t anon;  /* an E without a name (absent, empty, not a string): it closes the innermost open B */
  int32_t res;    /* what the file's time has more than t, in 1e-6 ns (its fraction of a ns; in
                   * bytes that were padding): THE kept rule's input (dur_flush) */
} drow;

typedef struct dtrace {
  pcol_rowsort *q[2];   /* the B queue, the E queue; made at the first event */
  char *nb;             /* the distinct names, each with a NUL after it, back to back
                         * (a name may hold NUL too: its length is name_len's) */
  size_t nbl, nbcap;
  size_t *noff;         /* name i at nb + noff[i] */
  uint32_t nn, ncap;
  uint32_t *tab;        /* hash table of name index + 1 (0: empty) */
  size_t ntab;
  uint64_t n;           /* the duration events' rows (an X: 1) */
  int64_t t0;           /* the earliest ts, ns: the sources' time 0 */
  int64_t tmax;         /* the latest time (a ts, an X's end), ns: t0 .. tmax is the trace's extent */
  pcol_kept_tally kept; /* THE kept rule of the stretches held as whole ns (dur_flush) */
  const char *bad;      /* the first event that cannot be read, and why */
  size_t bad_ev;
  char *ename;          /* the name of the event being read */
  size_t enl, encap;
  int has_name;
} dtrace;

/* A value as JavaScript holds what JSON.parse made of it: its kind, and
 * String() of it in t (n bytes; an array's: its elements' joined with ",",
 * null as ""; an object's: "[object Object]"). */
enum { JS_UNDEF, JS_NULL, JS_FALSE, JS_TRUE, JS_NUM, JS_STR, JS_ARR, JS_OBJ };
typedef struct jsval {
  int kind;
  double num; /* JS_NUM */
  char *t;
  size_t n, cap;
} jsval;

/* The samples/stackFrames form (Hermes, React Native's sampling profiler:
 * {"traceEvents", "samples", "stackFrames"}), as speedscope 1.25's
 * sampleListToProfileGroup reads it (doc/mappings.md §14).  A frame id, a
 * sample's sf or a frame's parent, is what JavaScript makes a key of: a
 * string, or a number's decimal form.  Falsy ones (0, "", null, false,
 * absent) end a stack. */
enum { SID_NONE, SID_INT, SID_STR };
typedef struct sframe {
  int64_t id, parent;   /* SID_INT: the number; SID_STR: an offset into the pool */
  uint32_t idlen, plen; /* SID_STR: the length */
  uint32_t name;        /* index into the names (dtrace's): String() of its name */
  uint32_t key;         /* index into the names: speedscope's frame key, NAME:CATEGORY */
  uint32_t up;          /* its parent's index + 1 (0: none), once its chain is checked */
  uint32_t node;        /* the builder's stack node of its chain */
  uint32_t nsrc;        /* 0: none made; else made in this source (sread's src; dep 0: for good) */
  uint32_t tick;        /* dep: made at this tick of that source (sread's tick) */
  uint8_t idk, pk;      /* SID_* of id and parent */
  uint8_t bad;          /* a falsy value, no frame */
  uint8_t state;        /* 0, 1 (on the chain being checked), 2 (checked) */
  uint8_t dep;          /* its chain holds a frame of a key that frames of two names have */
  uint8_t fin;          /* dep: every such key on its chain was claimed in nsrc when its node was made */
} sframe;
/* The stack frames are held in memory (56 bytes each and an index of 8 to
 * 16, their names and keys once each): at most this many (doc/mappings.md §14). */
#define MAX_SFRAMES (1u << 22)

/* A sample, sorted by thread and then file order. */
typedef struct srow {
  tkey k;          /* its thread: JavaScript's Number() of pid and tid (NaN: one NaN) */
  uint64_t seq;    /* its index in samples */
  int64_t t;       /* ns: its ts, when tsbad is 0 */
  int64_t sf;      /* SID_INT: the number; SID_STR: an offset into the sf file */
  uint32_t sflen;  /* SID_STR: the length */
  uint8_t sfk;     /* SID_NONE, SID_INT, SID_STR */
  uint8_t tsbad;   /* TS_*: what Number() of its ts is, when it is no time */
} srow;
/* A pid or tid whose text zero-padded to 10 characters orders as the number. */
#define SMALL_ID(v) ((v) >= 0 && (v) < 1e10 && (v) == floor(v))
enum { TS_NAN = 1, TS_INF, TS_FAR };
#define SAME_NUM(a, b) ((a) == (b) || (isnan(a) && isnan(b)))

typedef struct strace {
  pcol_rowsort *rows;  /* the samples; made at the first */
  FILE *sftext;        /* the samples' sf strings that are no number, back to back */
  uint64_t sftlen;
  int64_t t0;          /* the earliest ts, ns: the sources' time 0 */
  int has_t0;
  sframe *f;
  size_t nf, capf;
  uint32_t *tab;       /* frame index + 1, by id (hash, open addressing) */
  size_t ntab;
  char *pool;          /* the frame ids and parents that are no number */
  size_t npool, cappool;
  jsval jv[3];         /* values being read */
  char *kb;            /* a frame key being made */
  size_t kbcap;
  int bad;             /* what cannot be read (msg): said only when the form is read */
  char msg[400];
} strace;

typedef struct ctrace {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  pcol_jpull *j;
  const pcol_import_options *opt;
  pcol_v8c v;         /* the Profile and ProfileChunk events' profiles (v8_chunks.c); a stream's
                       * thread is a tkey */
  cname *nm;
  size_t nnm, capnm;
  char *mname;        /* args.name of the event being read, mnamel bytes (NUL kept) */
  size_t mnamel;
  uint64_t n_duration;
  pcol_buf parts;     /* the sources made so far, a u32 each, UINT32_MAX between recordings
                       * (pcol.recording_part, numbered once all are made: number_parts) */
  int sample_form;    /* the object's keys samples (1) and stackFrames (2): Hermes */
  int first_keys;     /* the first event has the keys pid, tid, ph and cat */
  int profile_named;  /* an event is named CpuProfile, Profile or ProfileChunk */
  int events_read;    /* traceEvents has been read */
  uint64_t nev;       /* traceEvents' elements */
  int64_t shape_ev;   /* the first that speedscope does not take for an event (no ph; B/E/X without ts), or -1 */
  jsval idv[2];       /* the event's pid and tid (String() of them) */
  int has_idv[2];
  dtrace d;
  strace s;
} ctrace;

static int fail(ctrace *c, size_t ev, const char *what) {
  return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: traceEvents[%zu]: %s", c->name, ev, what);
}

static int read_args(ctrace *c) {
  pcol_jpull *j = c->j;
  int rc;
  if (j->tok != PCOL_JT_OBJ) return pcol_jp_skip(j);
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int is_data = pcol_jp_key_is(j, "data"), is_name = pcol_jp_key_is(j, "name");
    if ((rc = pcol_jp_next(j))) return rc;
    if (is_data) {
      rc = pcol_v8c_read_data(&c->v, j);
    } else if (is_name && j->tok == PCOL_JT_STR) { /* (by length: a NUL kept) */
      free(c->mname);
      if (!(c->mname = malloc(j->len + 1))) return pcol_oom(c->err);
      memcpy(c->mname, j->str, j->len + 1);
      c->mnamel = j->len;
    } else rc = pcol_jp_skip(j);
    if (rc) return rc;
  }
  return rc;
}

static int add_name(ctrace *c, const tkey *k, int proc) {
  if (c->nnm == c->capnm) {
    size_t cap = c->capnm ? 2 * c->capnm : 16;
    cname *n = realloc(c->nm, cap * sizeof *n);
    if (!n) return pcol_oom(c->err);
    c->nm = n, c->capnm = cap;
  }
  c->nm[c->nnm++] = (cname){k->id[0], k->id[1], proc, c->mname, c->mnamel};
  c->mname = NULL;
  return 0;
}

/* The thread's (proc 0) or process's (proc 1) name: the last one given
 * (pid, tid: the texts' ids, 0 for a text no M event has); *len its length. */
static const char *name_of(const ctrace *c, uint32_t pid, uint32_t tid, int proc, size_t *len) {
  const char *r = NULL;
  *len = 0;
  for (size_t i = 0; pid && (proc || tid) && i < c->nnm; i++)
    if (c->nm[i].pid == pid && c->nm[i].proc == proc && (proc || c->nm[i].tid == tid))
      r = c->nm[i].name, *len = c->nm[i].len;
  return r;
}

/* ------------------------------------------------------------ duration events */
/* *p holds at least need bytes */
static int room(char **p, size_t *cap, size_t need) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 64;
  while (n < need) {
    if (n > SIZE_MAX / 2) return -1;
    n *= 2;
  }
  char *q = realloc(*p, n);
  if (!q) return -1;
  *p = q, *cap = n;
  return 0;
}

/* keyed (hash.h: every table keyed by data from a file), so that a
 * trace cannot be made of names that all land in one slot */
static uint64_t name_hash(const char *s, size_t n) { return pcol_hash_keyed(s, n); }

/* The length of name i (its bytes up to the NUL written after it: a NUL
 * of its own, read from \u0000, is kept). */
static size_t name_len(const dtrace *d, uint32_t i) {
  return (i + 1 < d->nn ? d->noff[i + 1] : d->nbl) - d->noff[i] - 1;
}

/* The index of the name s (n bytes), added when new; -1: out of memory. */
static int64_t find_name(dtrace *d, const char *s, size_t n, int add);
static int64_t intern(dtrace *d, const char *s, size_t n) { return find_name(d, s, n, 1); }

/* ... or, add 0, -1 when it is not there */
static int64_t find_name(dtrace *d, const char *s, size_t n, int add) {
  if (!add && !d->ntab) return -1;
  if (add && d->nn >= d->ntab / 2) { /* at most half full: doubled when it would be more */
    size_t nt = d->ntab ? d->ntab * 2 : 256;
    uint32_t *t = calloc(nt, sizeof *t);
    if (!t || d->nn >= UINT32_MAX - 1) return free(t), -1;
    for (uint32_t i = 0; i < d->nn; i++) {
      size_t k = name_hash(d->nb + d->noff[i], name_len(d, i)) & (nt - 1);
      while (t[k]) k = (k + 1) & (nt - 1);
      t[k] = i + 1;
    }
    free(d->tab);
    d->tab = t, d->ntab = nt;
  }
  size_t k = name_hash(s, n) & (d->ntab - 1);
  for (; d->tab[k]; k = (k + 1) & (d->ntab - 1)) {
    const char *x = d->nb + d->noff[d->tab[k] - 1];
    if (name_len(d, d->tab[k] - 1) == n && memcmp(x, s, n) == 0) return d->tab[k] - 1;
  }
  if (!add) return -1;
  if (d->nbl + n + 1 < d->nbl || room(&d->nb, &d->nbcap, d->nbl + n + 1)) return -1;
  if (d->nn == d->ncap) {
    uint32_t nc = d->ncap ? d->ncap * 2 : 64;
    size_t *o = realloc(d->noff, nc * sizeof *o);
    if (!o) return -1;
    d->noff = o, d->ncap = nc;
  }
  memcpy(d->nb + d->nbl, s, n);
  d->nb[d->nbl + n] = 0;
  d->noff[d->nn] = d->nbl;
  d->nbl += n + 1;
  d->tab[k] = ++d->nn;
  return d->nn - 1;
}

static int tkey_cmp(const tkey *x, const tkey *y);
static int drow_cmp(const void *a, const void *b) {
  const drow *x = a, *y = b;
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
  int k = tkey_cmp(&x->k, &y->k);
  if (k) return k;
  CMP(t); CMP(kind); CMP(xts); CMP(negdur); CMP(seq);
#undef CMP
  return 0;
}

static int sorter_failed(ctrace *c, int rc) {
  if (rc == PCOL_ENOMEM) return pcol_oom(c->err);
  return pcol_error_set(c->err, PCOL_EIO, "%s: the duration events' temporary file: %s", c->name, strerror(errno));
}

/* A time (µs) as the file has it, to the ns: THE rule of a time read from
 * JSON (pcol_v8_time_us: the number's text, not the double) */
typedef struct xtime {
  int64_t whole; /* µs */
  int frac;      /* ns more */
  double sub;    /* ns more than those (-0.5..0.5) */
  int64_t sub18; /* the same exactly, in 1e-18 ns */
} xtime;

/* the current token (a number) into *x (a time out of +-9e18 µs: 0, which
 * no caller reads: each refuses a time out of +-4e15 µs first) */
static void xtime_read(const pcol_jpull *j, xtime *x) {
  if (pcol_v8_time_us(j, 9e18, &x->whole, &x->frac, &x->sub, &x->sub18)) *x = (xtime){0, 0, 0, 0};
}

/* x in ns (x within +-4e15 µs: the callers' range) */
static int64_t xtime_ns(const xtime *x) { return x->whole * 1000 + x->frac; }

/* A B, E or X event into the queues.  What makes one unreadable (no ts, a
 * time out of range, a negative duration) is kept, not said: it matters
 * only when the trace has no CPU profile (then the duration events are
 * read, and the first such event refuses the trace). */
static int add_duration(ctrace *c, size_t ev, char ph, const tkey *th, int has_ts, double ts, const xtime *tsx,
                        int has_dur, double dur, const xtime *durx, uint64_t args) {
  dtrace *d = &c->d;
  int rc;
  if (d->bad) return 0;
  double t = ts * 1000, du = ph == 'X' && has_dur ? dur * 1000 : 0;
  if (!has_ts) d->bad = "a duration event (ph B, E or X) without a ts that is a number";
  else if (!(t > -4e18 && t < 4e18) || !(du < 4e18)) d->bad = "a duration event's ts or dur out of range";
  else if (du < 0) d->bad = "a negative dur";
  if (d->bad) return d->bad_ev = ev, 0;
  const char *nm = d->has_name ? d->ename : "(unnamed)"; /* speedscope's name of a nameless event */
  int64_t name = intern(d, nm, d->has_name ? d->enl : 9);
  if (name < 0) return pcol_oom(c->err);
  for (int q = 0; q < 2; q++)
    if (!d->q[q] && (rc = pcol_rowsort_new(&d->q[q], sizeof(drow), drow_cmp))) return pcol_oom(c->err);
  drow r;
  memset(&r, 0, sizeof r); /* (padding too: rows are written out as bytes) */
  /* the times the file's to half a ns (xtime: its text), not the double's
   * ts * 1000, 256 ns apart at an epoch's µs (1.7e15 µs): whole µs held 128
   * ns off were refused by the kept rule below */
  r.k = *th, r.t = xtime_ns(tsx), r.name = (uint32_t)name;
  r.res = (int32_t)llround(tsx->sub * 1e6);
  r.key = name_hash(nm, d->has_name ? d->enl : 9) ^ (args * 0x9e3779b97f4a7c15ULL);
  if (!d->n++ || r.t < d->t0) d->t0 = r.t;
  if (d->n == 1 || r.t > d->tmax) d->tmax = r.t;
  r.seq = ev;
  r.anon = ph == 'E' && !d->has_name;
  if (ph == 'X') {
    /* its end, ts + dur, rounded as one time (THE rule: half away from
     * zero), not the sum of the two rounded: 0.0002 + 0.0003 us is 1 ns,
     * as the V8 deltas' sums (v8_profile.c) */
    int64_t dn = xtime_ns(durx), cs = tsx->sub18 + durx->sub18, s = 0;
    if (cs > PCOL_V8_NS18 / 2 || (cs == PCOL_V8_NS18 / 2 && r.t + dn >= 0)) s = 1;
    else if (cs < -PCOL_V8_NS18 / 2 || (cs == -PCOL_V8_NS18 / 2 && r.t + dn <= 0)) s = -1;
    dn += s;
    r.kind = 1, r.negdur = -dn;
    if ((rc = pcol_rowsort_add(d->q[0], &r))) return sorter_failed(c, rc);
    r.xts = r.t, r.t += dn, r.res += (int32_t)llround(durx->sub * 1e6) - (int32_t)(s * 1000000);
    if (r.t > d->tmax) d->tmax = r.t;
    rc = pcol_rowsort_add(d->q[1], &r);
  } else {
    rc = pcol_rowsort_add(d->q[ph == 'E'], &r);
  }
  return rc ? sorter_failed(c, rc) : 0;
}

/* ------------------------------------------------------------ JavaScript's values */
/* The samples form is read as speedscope reads it, in JavaScript: a ts, pid
 * or tid through Number(), a frame's name and category through String()
 * (a template literal), an id as the property key String() makes of it. */

/* JavaScript's String() of a number (Number::toString: the shortest digits
 * that read back, plain from 1e-6 up to 1e21, else with an exponent). */
static size_t js_num_text(double d, char out[40]) {
  char e[40], dg[24];
  int p, k = 0, x;
  if (isnan(d)) return (size_t)snprintf(out, 40, "NaN");
  if (isinf(d)) return (size_t)snprintf(out, 40, d < 0 ? "-Infinity" : "Infinity");
  if (d == 0) return (size_t)snprintf(out, 40, "0");
  if (d == floor(d) && fabs(d) <= 9007199254740992.0) return (size_t)snprintf(out, 40, "%.0f", d); /* (fast: ids) */
  for (p = 1; p < 17; p++) {
    snprintf(e, sizeof e, "%.*e", p - 1, d);
    if (strtod(e, NULL) == d) break;
  }
  snprintf(e, sizeof e, "%.*e", p - 1, d);
  const char *s = e + (d < 0);
  for (; *s && *s != 'e'; s++)
    if (*s != '.') dg[k++] = *s;
  while (k > 1 && dg[k - 1] == '0') k--;
  x = atoi(s + 1);
  int n = x + 1; /* the decimal point after n digits */
  size_t o = 0;
  if (d < 0) out[o++] = '-';
  if (k <= n && n <= 21) {
    memcpy(out + o, dg, (size_t)k), o += (size_t)k;
    for (int i = k; i < n; i++) out[o++] = '0';
  } else if (0 < n && n <= 21) {
    memcpy(out + o, dg, (size_t)n), o += (size_t)n;
    out[o++] = '.';
    memcpy(out + o, dg + n, (size_t)(k - n)), o += (size_t)(k - n);
  } else if (-6 < n && n <= 0) {
    out[o++] = '0', out[o++] = '.';
    for (int i = n; i < 0; i++) out[o++] = '0';
    memcpy(out + o, dg, (size_t)k), o += (size_t)k;
  } else {
    out[o++] = dg[0];
    if (k > 1) out[o++] = '.', memcpy(out + o, dg + 1, (size_t)(k - 1)), o += (size_t)(k - 1);
    o += (size_t)snprintf(out + o, 40 - o, "e%c%d", n - 1 < 0 ? '-' : '+', abs(n - 1));
  }
  out[o] = 0;
  return o;
}

static int js_put(jsval *v, const char *s, size_t n) {
  if (v->n + n + 1 < v->n || room(&v->t, &v->cap, v->n + n + 1)) return -1;
  memcpy(v->t + v->n, s, n);
  v->t[v->n += n] = 0;
  return 0;
}

/* The scalar at the current token as an element of a String(): its text. */
static int js_scalar(pcol_jpull *j, jsval *v) {
  char num[40];
  switch (j->tok) {
  case PCOL_JT_STR: return js_put(v, j->str, j->len);
  case PCOL_JT_INT:
  case PCOL_JT_REAL: return js_put(v, num, js_num_text(j->d, num));
  case PCOL_JT_TRUE: return js_put(v, "true", 4);
  case PCOL_JT_FALSE: return js_put(v, "false", 5);
  default: return 0; /* null: "" in an array (alone: "null", said by the caller) */
  }
}

/* The value at the current token into v (read to its end). */
static int js_value(ctrace *c, jsval *v) {
  pcol_jpull *j = c->j;
  int rc;
  static const int KIND[] = {[PCOL_JT_OBJ] = JS_OBJ, [PCOL_JT_ARR] = JS_ARR, [PCOL_JT_STR] = JS_STR,
                             [PCOL_JT_INT] = JS_NUM, [PCOL_JT_REAL] = JS_NUM, [PCOL_JT_TRUE] = JS_TRUE,
                             [PCOL_JT_FALSE] = JS_FALSE, [PCOL_JT_NULL] = JS_NULL};
  v->n = 0, v->num = j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL ? j->d : 0;
  if (room(&v->t, &v->cap, 1)) return pcol_oom(c->err);
  v->t[0] = 0;
  if ((unsigned)j->tok >= sizeof KIND / sizeof *KIND) return v->kind = JS_UNDEF, 0;
  v->kind = KIND[j->tok];
  if (v->kind == JS_OBJ) return js_put(v, "[object Object]", 15) ? pcol_oom(c->err) : pcol_jp_skip(j);
  if (v->kind == JS_NULL) return js_put(v, "null", 4) ? pcol_oom(c->err) : 0;
  if (v->kind != JS_ARR) return js_scalar(j, v) ? pcol_oom(c->err) : 0;
  /* an array: its elements joined with ",", those of an inner array too
   * (each level's first element without one before it) */
  size_t top = j->depth;
  int first = 1;
  while (!(rc = pcol_jp_next(j))) {
    if (j->tok == PCOL_JT_ARR_END) {
      if (j->depth < top) break;
      first = 0;
      continue;
    }
    if (!first && js_put(v, ",", 1)) return pcol_oom(c->err);
    first = j->tok == PCOL_JT_ARR;
    if (j->tok == PCOL_JT_OBJ) {
      if (js_put(v, "[object Object]", 15)) return pcol_oom(c->err);
      if ((rc = pcol_jp_skip(j))) return rc;
    } else if (j->tok != PCOL_JT_ARR && js_scalar(j, v)) {
      return pcol_oom(c->err);
    }
  }
  return rc;
}

/* JavaScript's Number() of v: NaN for undefined, an object, a string or
 * an array that is no number. */
static int js_number(const jsval *v, double *out) {
  switch (v->kind) {
  case JS_NULL:
  case JS_FALSE: *out = 0; return 0;
  case JS_TRUE: *out = 1; return 0;
  case JS_NUM: *out = v->num; return 0;
  case JS_STR:
  case JS_ARR: return pcol_js_str_num(v->t, v->n, out);
  default: *out = NAN; return 0;
  }
}

/* ------------------------------------------------------------ threads */
/* Component i (0 pid, 1 tid) of k: the number d, its text kept when the
 * sort needs it. */
static void tkey_num(tkey *k, int i, double d) {
  if (isnan(d)) d = NAN; /* (one NaN: they are one thread) */
  if (d == 0) d = 0;     /* (-0: String() writes it 0) */
  k->v[i] = d, k->isstr[i] = 0;
  memset(k->tx[i], 0, sizeof k->tx[i]);
  if (!SMALL_ID(d)) {
    char num[40];
    size_t n = js_num_text(d, num);
    memcpy(k->tx[i], num, n < sizeof k->tx[i] ? n : sizeof k->tx[i]);
  }
}

/* Component i of k from an event's value (v; NULL: absent): String() of
 * it, a number's when it is one's text, interned.  -1: out of memory. */
static int tkey_text(ctrace *c, tkey *k, int i, const jsval *v) {
  char num[40];
  const char *t = "undefined";
  size_t n = 9;
  double d = NAN;
  int isnum = 0;
  if (v && v->kind == JS_NUM) {
    n = js_num_text(v->num, num), t = num, d = v->num, isnum = 1;
  } else if (v) { /* a number's text is the number's (NaN's too) */
    t = v->t, n = v->n;
    if (pcol_js_str_num(t, n, &d)) return -1;
    isnum = js_num_text(d, num) == n && !memcmp(num, t, n);
  }
  if (isnum) tkey_num(k, i, d);
  else k->v[i] = NAN, k->isstr[i] = 1, memset(k->tx[i], 0, sizeof k->tx[i]);
  int64_t x = intern(&c->d, t, n);
  if (x < 0) return -1;
  k->id[i] = (uint32_t)x + 1;
  return 0;
}

/* speedscope's key of a thread whose pid and tid are numbers, "PID:TID"
 * with each zero-padded to 10 characters (pidTidKey), by which it orders
 * its profiles. */
static void thread_key(const tkey *r, char out[80]) {
  size_t o = 0;
  for (int k = 0; k < 2; k++) {
    double v = r->v[k];
    char num[24];
    const char *t = num;
    size_t n = SMALL_ID(v) ? (size_t)snprintf(num, sizeof num, "%.0f", v) : strnlen(t = r->tx[k], sizeof r->tx[k]);
    for (size_t i = n; i < 10; i++) out[o++] = '0';
    memcpy(out + o, t, n), o += n;
    out[o++] = k ? 0 : ':';
  }
}

/* Threads in the order of tkey; 0: the same thread. */
static int tkey_cmp(const tkey *x, const tkey *y) {
  int xs = x->isstr[0] | x->isstr[1], ys = y->isstr[0] | y->isstr[1];
  if (xs != ys) return xs - ys;
  if (xs) {
    for (int i = 0; i < 2; i++)
      if (x->id[i] != y->id[i]) return x->id[i] < y->id[i] ? -1 : 1;
    return 0;
  }
  if (SMALL_ID(x->v[0]) && SMALL_ID(x->v[1]) && SMALL_ID(y->v[0]) && SMALL_ID(y->v[1])) {
    for (int i = 0; i < 2; i++)
      if (x->v[i] != y->v[i]) return x->v[i] < y->v[i] ? -1 : 1;
    return 0;
  }
  if (SAME_NUM(x->v[0], y->v[0]) && SAME_NUM(x->v[1], y->v[1])) return 0;
  char kx[80], ky[80];
  thread_key(x, kx), thread_key(y, ky);
  return strcmp(kx, ky);
}

/* Component i of k as JavaScript writes it (in out, or the names'). */
static const char *tkey_str(const ctrace *c, const tkey *k, int i, char out[40]) {
  if (k->id[i]) return c->d.nb + c->d.noff[k->id[i] - 1];
  js_num_text(k->v[i], out);
  return out;
}

/* The texts' ids of k, for its names: interned (the events form) or looked
 * up (0: none, no M event has the text). */
static void tkey_ids(const ctrace *c, const tkey *k, uint32_t id[2]) {
  for (int i = 0; i < 2; i++) {
    char num[40];
    const char *t = tkey_str(c, k, i, num);
    int64_t x = k->id[i] ? (int64_t)k->id[i] - 1 : find_name((dtrace *)&c->d, t, strlen(t), 0);
    id[i] = x < 0 ? 0 : (uint32_t)x + 1;
  }
}

static int event(ctrace *c, size_t ev) {
  pcol_jpull *j = c->j;
  int rc;
  char ph[8] = "", nm[16] = "", id[40] = "";
  int id_nul = 0; /* the id holds NUL */
  int has_ts = 0, has_dur = 0, has_tdur = 0;
  double ts = 0, dur = 0, tdur = 0;
  xtime tsx = {0, 0, 0, 0}, durx = {0, 0, 0, 0}, tdurx = {0, 0, 0, 0};
  uint64_t args = 0; /* 0: none (absent, or as JavaScript's falsy values) */
  if ((rc = pcol_v8c_begin(&c->v))) return rc;
  c->d.has_name = 0;
  free(c->mname), c->mname = NULL;
  c->has_idv[0] = c->has_idv[1] = 0;
  int has_ph = 0, ts_key = 0; /* the keys speedscope asks an event to have */
  int pid_key = 0, tid_key = 0, cat_key = 0; /* the first event's, for speedscope's isChromeTimeline */
  if (j->tok != PCOL_JT_OBJ) {
    if (c->shape_ev < 0) c->shape_ev = (int64_t)ev;
    return pcol_jp_skip(j);
  }
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    char *dst = NULL;
    size_t cap = 0;
    int idk = -1; /* 0 pid, 1 tid */
    double *dn = NULL;
    xtime *dx = NULL;
    int *has = NULL;
    int is_args = pcol_jp_key_is(j, "args"), is_name = pcol_jp_key_is(j, "name");
    has_ph |= pcol_jp_key_is(j, "ph");
    ts_key |= pcol_jp_key_is(j, "ts");
    pid_key |= pcol_jp_key_is(j, "pid"), tid_key |= pcol_jp_key_is(j, "tid"), cat_key |= pcol_jp_key_is(j, "cat");
    if (pcol_jp_key_is(j, "ph")) dst = ph, cap = sizeof ph;
    else if (is_name) dst = nm, cap = sizeof nm;
    else if (pcol_jp_key_is(j, "id")) dst = id, cap = sizeof id;
    else if (pcol_jp_key_is(j, "pid")) idk = 0;
    else if (pcol_jp_key_is(j, "tid")) idk = 1;
    else if (pcol_jp_key_is(j, "ts")) dn = &ts, dx = &tsx, has = &has_ts;
    else if (pcol_jp_key_is(j, "dur")) dn = &dur, dx = &durx, has = &has_dur;
    else if (pcol_jp_key_is(j, "tdur")) dn = &tdur, dx = &tdurx, has = &has_tdur;
    if ((rc = pcol_jp_next(j))) return rc;
    if (dn && (j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL)) {
      *has = 1, *dn = j->d;
      xtime_read(j, dx);
    } else if (is_args) {
      /* its identity, as speedscope keys an event by name and
       * JSON.stringify(args) (null, false, 0 and "" count as none) */
      uint64_t h = 0xcbf29ce484222325ULL;
      int none = j->tok == PCOL_JT_NULL || j->tok == PCOL_JT_FALSE ||
                 ((j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL) && j->d == 0) || (j->tok == PCOL_JT_STR && !j->len);
      pcol_jp_hash_tok(j, &h);
      j->hash = &h;
      rc = read_args(c);
      j->hash = NULL;
      args = none ? 0 : h | 1;
    } else if (dst && j->tok == PCOL_JT_STR) {
      /* a longer name is none of the ones read here, nor one holding NUL
       * ("Profile\u0000" is not "Profile" in DevTools either) */
      int nul = memchr(j->str, 0, j->len) != NULL;
      if (j->len < cap && !nul) memcpy(dst, j->str, j->len + 1);
      else snprintf(dst, cap, "-");
      if (dst == id) id_nul = nul;
      if (is_name) { /* the whole name, for a duration event */
        c->d.enl = 0;
        if (room(&c->d.ename, &c->d.encap, j->len + 1)) return pcol_oom(c->err);
        memcpy(c->d.ename, j->str, j->len + 1);
        c->d.enl = j->len, c->d.has_name = j->len > 0;
      }
    } else if (dst == id && j->tok == PCOL_JT_INT) {
      snprintf(id, sizeof id, "%" PRId64, j->i);
    } else if (idk >= 0) { /* String() of it (tkey) */
      rc = js_value(c, &c->idv[idk]);
      c->has_idv[idk] = 1;
    } else {
      rc = pcol_jp_skip(j);
    }
    if (rc) return rc;
  }
  if (rc) return rc;
  if (c->shape_ev < 0 && (!has_ph || (!ts_key && (!strcmp(ph, "B") || !strcmp(ph, "E") || !strcmp(ph, "X")))))
    c->shape_ev = (int64_t)ev;
  if (ev == 0) c->first_keys = pid_key && tid_key && has_ph && cat_key;
  int is_m = strcmp(ph, "M") == 0, is_dur = strchr("XBE", ph[0]) && ph[0] && !ph[1];
  int named = strcmp(nm, "Profile") == 0 || strcmp(nm, "ProfileChunk") == 0 || strcmp(nm, "CpuProfile") == 0;
  tkey th;
  memset(&th, 0, sizeof th); /* (padding too: rows are written out as bytes) */
  if (!is_dur && !named && !(is_m && c->mname)) return 0;
  /* a thread is keyed by its pid's and tid's texts, held as C strings */
  for (int i = 0; i < 2; i++)
    if (c->has_idv[i] && c->idv[i].kind != JS_NUM && memchr(c->idv[i].t, 0, c->idv[i].n))
      return fail(c, ev, i ? "a tid that holds \\u0000 (the NUL character), which pcol does not read"
                           : "a pid that holds \\u0000 (the NUL character), which pcol does not read");
  for (int i = 0; i < 2; i++)
    if (tkey_text(c, &th, i, c->has_idv[i] ? &c->idv[i] : NULL)) return pcol_oom(c->err);
  if (is_m) { /* (an empty name: none, as speedscope has it) */
    if (c->mname && c->mnamel && strcmp(nm, "thread_name") == 0) return add_name(c, &th, 0);
    if (c->mname && c->mnamel && strcmp(nm, "process_name") == 0) return add_name(c, &th, 1);
    return 0;
  }
  if (strcmp(ph, "X") == 0 || strcmp(ph, "B") == 0) c->n_duration++;
  if ((strcmp(ph, "X") == 0 || strcmp(ph, "B") == 0 || strcmp(ph, "E") == 0) &&
      (rc = add_duration(c, ev, ph[0], &th, has_ts, ts, &tsx, has_dur || has_tdur, has_dur ? dur : tdur,
                         has_dur ? &durx : &tdurx, args)))
    return rc;
  int whole = strcmp(nm, "CpuProfile") == 0;
  if (strcmp(nm, "Profile") != 0 && strcmp(nm, "ProfileChunk") != 0 && !whole) return 0;
  c->profile_named = 1;
  /* a trace of the samples form whose first event lacks one of pid, tid,
   * ph and cat: speedscope reads its samples, not its CPU profile */
  if (c->sample_form == 3 && !c->first_keys) return 0;
  if (!whole && id_nul)
    return fail(c, ev, "a Profile or ProfileChunk event whose id holds \\u0000 (the NUL character), which pcol "
                "does not read");
  if (!whole && !*id) return fail(c, ev, "a Profile or ProfileChunk event without an id");
  char wid[32];
  if (whole) snprintf(wid, sizeof wid, "CpuProfile %zu", ev);
  char where[48];
  snprintf(where, sizeof where, "traceEvents[%zu]", ev);
  return pcol_v8c_add(&c->v, th.id[0], whole ? wid : id, strcmp(nm, "ProfileChunk") == 0, &th, has_ts, ts, where);
}

/* ------------------------------------------------------------ samples/stackFrames */
/* The first thing that cannot be read, said when the form is read. */
static void sbad(ctrace *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sbad(ctrace *c, const char *fmt, ...) {
  if (c->s.bad) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->s.msg, sizeof c->s.msg, fmt, ap);
  va_end(ap);
  c->s.bad = 1;
}

/* An id from a file for a message: quoted, escaped, cut at 40 bytes. */
static const char *id_text(char out[64], int kind, int64_t v, const char *str, size_t len) {
  if (kind == SID_INT) {
    snprintf(out, 64, "%" PRId64, v);
    return out;
  }
  size_t o = 0;
  out[o++] = '"';
  for (size_t i = 0; i < len && o < 50; i++) {
    unsigned char ch = (unsigned char)str[i];
    if (i == 40) {
      memcpy(out + o, "...", 3), o += 3;
      break;
    }
    if (ch == '"' || ch == '\\') out[o++] = '\\', out[o++] = (char)ch;
    else if (ch < 0x20) o += (size_t)snprintf(out + o, 8, "\\u%04x", ch);
    else out[o++] = (char)ch;
  }
  out[o++] = '"';
  out[o] = 0;
  return out;
}

/* A string id that is a number's decimal form (as JavaScript writes an
 * integer of at most 2^53) is that number. */
static int id_is_int(const char *s, size_t n, int64_t *v) {
  size_t i = s[0] == '-';
  if (n == i || n - i > 16 || (s[i] == '0' && n - i > 1) || (i && s[1] == '0')) return 0;
  int64_t x = 0;
  for (size_t k = i; k < n; k++) {
    if (s[k] < '0' || s[k] > '9') return 0;
    x = x * 10 + (s[k] - '0');
  }
  if (x > (INT64_C(1) << 53)) return 0;
  return *v = i ? -x : x, 1;
}

/* The id the current value is (a sample's sf, a frame's parent), as
 * JavaScript makes a property key of it, String() of it: *kind SID_NONE
 * when the value is falsy (0, "", null, false), SID_INT with *v when the
 * key is an integer's decimal form, else SID_STR, its text in v (an empty
 * array is truthy: the key ""). */
static int read_id(ctrace *c, jsval *jv, int *kind, int64_t *v) {
  int rc = js_value(c, jv);
  if (rc) return rc;
  if (jv->kind == JS_NULL || jv->kind == JS_FALSE || jv->kind == JS_UNDEF || (jv->kind == JS_NUM && jv->num == 0) ||
      (jv->kind == JS_STR && !jv->n))
    *kind = SID_NONE;
  else *kind = jv->n && id_is_int(jv->t, jv->n, v) ? SID_INT : SID_STR;
  return 0;
}

static int sorter_failed(ctrace *c, int rc);

/* Samples by thread, in speedscope's order of its profiles (the text of
 * their keys), then file order. */
static int srow_cmp(const void *a, const void *b) {
  const srow *x = a, *y = b;
  int d = tkey_cmp(&x->k, &y->k);
  if (d) return d;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int read_sample(ctrace *c, uint64_t k) {
  pcol_jpull *j = c->j;
  strace *s = &c->s;
  int rc, kind;
  double ts = NAN;
  xtime tsx = {0, 0, 0, 0};
  int ts_num = 0; /* ts is a number (tsx: its time), not a string */
  srow r;
  memset(&r, 0, sizeof r); /* (padding too: rows are written out as bytes) */
  double id[2] = {NAN, NAN}; /* (what JavaScript's Number() makes of undefined) */
  r.seq = k;
  if (j->tok == PCOL_JT_NULL) sbad(c, "samples[%" PRIu64 "]: null (speedscope fails reading it)", k);
  if (j->tok != PCOL_JT_OBJ) { /* (a value that is no object has none of the keys) */
    if ((rc = pcol_jp_skip(j))) return rc;
  } else {
    while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
      int is_sf = pcol_jp_key_is(j, "sf");
      double *num = pcol_jp_key_is(j, "pid") ? &id[0] : pcol_jp_key_is(j, "tid") ? &id[1]
                    : pcol_jp_key_is(j, "ts") ? &ts : NULL;
      if ((rc = pcol_jp_next(j))) return rc;
      if (num) {
        if (num == &ts && (ts_num = j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL)) xtime_read(j, &tsx);
        if ((rc = js_value(c, &s->jv[0]))) return rc;
        if (js_number(&s->jv[0], num)) return pcol_oom(c->err);
      } else if (is_sf) {
        if ((rc = read_id(c, &s->jv[0], &kind, &r.sf))) return rc;
        if (kind == SID_STR && !s->bad) { /* kept in a file: samples may be many */
          size_t n = s->jv[0].n;
          if (!s->sftext && !(s->sftext = pcol_temp_file("pcol-chrome")))
            return pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
          if (n > UINT32_MAX || fwrite(s->jv[0].t, 1, n, s->sftext) != n)
            return pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
          r.sf = (int64_t)s->sftlen, r.sflen = (uint32_t)n, s->sftlen += n;
        }
        r.sfk = (uint8_t)kind;
      } else {
        rc = pcol_jp_skip(j);
      }
      if (rc) return rc;
    }
    if (rc) return rc;
  }
  tkey_num(&r.k, 0, id[0]), tkey_num(&r.k, 1, id[1]);
  double t = ts * 1000;
  r.tsbad = isnan(ts) ? TS_NAN : isinf(ts) ? TS_INF : !(t > -4e18 && t < 4e18) ? TS_FAR : 0;
  if (s->bad) return 0; /* (nothing more is kept: it will be refused) */
  if (!r.tsbad) {
    /* a number: the file's time to half a ns (xtime: its text; the double's
     * ts * 1000 is 256 ns apart at an epoch's µs, 1.7e15); a string: its
     * Number()'s, exactly */
    r.t = ts_num ? xtime_ns(&tsx) : llroundl((long double)ts * 1000);
    if (!s->has_t0 || r.t < s->t0) s->t0 = r.t, s->has_t0 = 1;
  }
  if (!s->rows && pcol_rowsort_new(&s->rows, sizeof(srow), srow_cmp)) return pcol_oom(c->err);
  return (rc = pcol_rowsort_add(s->rows, &r)) ? sorter_failed(c, rc) : 0;
}

/* s into the pool: *off. */
static int pool_put(ctrace *c, const char *t, size_t n, int64_t *off) {
  strace *s = &c->s;
  /* (made for "" too: a string id's text is never a null pointer) */
  if (s->npool + n < s->npool || room(&s->pool, &s->cappool, s->npool + n + !n)) return pcol_oom(c->err);
  if (!n) return *off = (int64_t)s->npool, 0;
  memcpy(s->pool + s->npool, t, n);
  *off = (int64_t)s->npool;
  s->npool += n;
  return 0;
}

/* The text of a string id (kind SID_STR) at off in the pool; NULL for another kind. */
static const char *pool_at(const strace *s, int kind, int64_t off) { return kind == SID_STR ? s->pool + off : NULL; }

static uint64_t id_hash(int kind, int64_t v, const char *str, size_t len) {
  if (kind == SID_INT) return pcol_hash_keyed(&v, sizeof v) ^ 0x5bd1e995u;
  return pcol_hash_keyed(str, len);
}

/* The index of the frame of an id, -1 when none has it. */
static int64_t frame_find(const strace *s, int kind, int64_t v, const char *str, size_t len) {
  if (!s->ntab) return -1;
  for (size_t k = id_hash(kind, v, str, len) & (s->ntab - 1); s->tab[k]; k = (k + 1) & (s->ntab - 1)) {
    const sframe *f = &s->f[s->tab[k] - 1];
    if (f->idk != kind) continue;
    if (kind == SID_INT ? f->id == v : f->idlen == len && memcmp(s->pool + f->id, str, len) == 0)
      return s->tab[k] - 1;
  }
  return -1;
}

static int frame_index(ctrace *c) { /* the last frame added into the index (doubled when half full) */
  strace *s = &c->s;
  if (s->nf * 2 > s->ntab) {
    size_t nt = s->ntab ? s->ntab * 2 : 1024;
    uint32_t *t = calloc(nt, sizeof *t);
    if (!t) return pcol_oom(c->err);
    free(s->tab);
    s->tab = t, s->ntab = nt;
    for (size_t i = 0; i < s->nf; i++) {
      const sframe *f = &s->f[i];
      size_t k = id_hash(f->idk, f->id, pool_at(s, f->idk, f->id), f->idlen) & (nt - 1);
      while (t[k]) k = (k + 1) & (nt - 1);
      t[k] = (uint32_t)i + 1;
    }
    return 0;
  }
  const sframe *f = &s->f[s->nf - 1];
  size_t k = id_hash(f->idk, f->id, pool_at(s, f->idk, f->id), f->idlen) & (s->ntab - 1);
  while (s->tab[k]) k = (k + 1) & (s->ntab - 1);
  s->tab[k] = (uint32_t)s->nf;
  return 0;
}

/* A frame's name and key as speedscope's frameInfoForSampleFrame makes
 * them: String() of its name, and `${name}:${category}` (either absent:
 * "undefined"), both into the names. */
static int frame_name(ctrace *c, sframe *f, const jsval *name, const jsval *cat) {
  strace *s = &c->s;
  const char *nt = name->kind == JS_UNDEF ? "undefined" : name->t, *ct = cat->kind == JS_UNDEF ? "undefined" : cat->t;
  size_t nn = name->kind == JS_UNDEF ? 9 : name->n, cn = cat->kind == JS_UNDEF ? 9 : cat->n;
  if (nn + cn + 2 < nn || room(&s->kb, &s->kbcap, nn + cn + 2)) return pcol_oom(c->err);
  memcpy(s->kb, nt, nn), s->kb[nn] = ':', memcpy(s->kb + nn + 1, ct, cn);
  int64_t x = intern(&c->d, nt, nn), y = x < 0 ? -1 : intern(&c->d, s->kb, nn + 1 + cn);
  if (y < 0) return pcol_oom(c->err);
  f->name = (uint32_t)x, f->key = (uint32_t)y;
  return 0;
}

static int read_frames(ctrace *c) {
  pcol_jpull *j = c->j;
  strace *s = &c->s;
  int rc, kind;
  jsval *name = &s->jv[0], *cat = &s->jv[1], *par = &s->jv[2];
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    if (s->nf >= MAX_SFRAMES) {
      sbad(c, "stackFrames: more than %u frames: pcol holds them in memory, at most %u (doc/mappings.md §14)",
           MAX_SFRAMES, MAX_SFRAMES);
      if ((rc = pcol_jp_next(j)) || (rc = pcol_jp_skip(j))) return rc;
      continue;
    }
    if (PCOL_GROW(s->f, s->nf, s->capf)) return pcol_oom(c->err);
    sframe *f = &s->f[s->nf];
    memset(f, 0, sizeof *f);
    if (j->len > UINT32_MAX) return pcol_oom(c->err);
    if (j->len && id_is_int(j->str, j->len, &f->id)) f->idk = SID_INT;
    else if ((rc = pool_put(c, j->str, j->len, &f->id))) return rc;
    else f->idk = SID_STR, f->idlen = (uint32_t)j->len; /* (the key "" too: an empty array names it) */
    if ((rc = pcol_jp_next(j))) return rc;
    name->kind = cat->kind = JS_UNDEF;
    if (j->tok == PCOL_JT_OBJ) {
      while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
        int is_name = pcol_jp_key_is(j, "name"), is_cat = pcol_jp_key_is(j, "category");
        int is_parent = pcol_jp_key_is(j, "parent");
        if ((rc = pcol_jp_next(j))) return rc;
        if (is_name || is_cat) rc = js_value(c, is_name ? name : cat);
        else if (is_parent) {
          if ((rc = read_id(c, par, &kind, &f->parent))) return rc;
          if (kind == SID_STR) {
            if (par->n > UINT32_MAX) return pcol_oom(c->err);
            if ((rc = pool_put(c, par->t, par->n, &f->parent))) return rc;
            f->plen = (uint32_t)par->n;
          }
          f->pk = (uint8_t)kind;
        } else rc = pcol_jp_skip(j);
        if (rc) return rc;
      }
      if (rc) return rc;
    } else { /* no object: a falsy value is no frame (speedscope fails on it); another has no keys */
      f->bad = j->tok == PCOL_JT_NULL || j->tok == PCOL_JT_FALSE || (j->tok == PCOL_JT_STR && !j->len) ||
               ((j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL) && j->d == 0);
      if ((rc = pcol_jp_skip(j))) return rc;
    }
    if ((rc = frame_name(c, f, name, cat))) return rc;
    s->nf++;
    if ((rc = frame_index(c))) return rc;
  }
  return rc;
}

static int read_doc(ctrace *c) {
  pcol_jpull *j = c->j;
  int rc;
  size_t ev = 0;
  if ((rc = pcol_jp_next(j))) return rc;
  if (j->tok == PCOL_JT_OBJ) { /* {"traceEvents": [...], ...} */
    int found = 0;
    while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
      int is_events = pcol_jp_key_is(j, "traceEvents");
      int is_samples = pcol_jp_key_is(j, "samples"), is_frames = pcol_jp_key_is(j, "stackFrames");
      c->sample_form |= is_samples | is_frames << 1;
      if ((rc = pcol_jp_next(j))) return rc;
      if (is_events && j->tok == PCOL_JT_ARR) {
        found = 1;
        while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END)
          if ((rc = event(c, ev++))) return rc;
        c->events_read = 1;
      } else if ((is_samples || is_frames) && c->events_read && c->first_keys && c->profile_named) {
        rc = pcol_jp_skip(j); /* speedscope reads the CPU profile then: not kept */
      } else if (is_samples && j->tok == PCOL_JT_ARR) {
        uint64_t k = 0;
        while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END)
          if ((rc = read_sample(c, k++))) return rc;
      } else if (is_frames && j->tok == PCOL_JT_OBJ) {
        rc = read_frames(c);
      } else if (is_samples || is_frames) {
        sbad(c, "%s: not %s", is_samples ? "samples" : "stackFrames", is_samples ? "an array" : "an object");
        rc = pcol_jp_skip(j);
      } else if ((rc = pcol_jp_skip(j))) {
        return rc;
      }
      if (rc) return rc;
    }
    if (rc) return rc;
    if (!found) return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: traceEvents: missing or not an array", c->name);
    c->nev = ev;
  } else if (j->tok == PCOL_JT_ARR) {
    while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END)
      if ((rc = event(c, ev++))) return rc;
    if (rc) return rc;
  } else {
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: not a trace (an array of events, or an object with traceEvents)",
                          c->name);
  }
  return pcol_jp_finish(j);
}

/* A thread's source URI, "FILE: THREAD (pid P, tid T)" ("FILE: pid P, tid
 * T" without a thread_name; THE rule of srcname.h), and the labels of its samples: pid, tid (a
 * number when the text is a whole number's of at most 2^53, else the text),
 * and thread_name and process_name from the M events. */
static int thread_bits(ctrace *c, const tkey *k, char **uri, size_t *ulen, uint32_t *ls) {
  uint32_t id[2];
  tkey_ids(c, k, id);
  size_t tl, pl; /* (the names' lengths: a NUL kept) */
  const char *tname = name_of(c, id[0], id[1], 0, &tl), *pname = name_of(c, id[0], 0, 1, &pl);
  char pb[40], tb[40];
  int rc;
  const char *pt = tkey_str(c, k, 0, pb), *tt = tkey_str(c, k, 1, tb);
  *uri = pcol_source_name(c->name, tname, tl, pcol_source_part(pt), pcol_source_part(tt), pcol_source_part(NULL),
                          ulen);
  if (!*uri) return pcol_oom(c->err);
  uint32_t kp = 0, kt = 0, ktn = 0, kpn = 0, sv = 0, v[2] = {0, 0};
  pcol_label_row lab[4];
  size_t nl = 0;
  if (!(rc = pcol_b_cstr(c->b, "pid", &kp, c->err)) && !(rc = pcol_b_cstr(c->b, "tid", &kt, c->err)) &&
      !(rc = pcol_b_cstr(c->b, "thread_name", &ktn, c->err)))
    rc = pcol_b_cstr(c->b, "process_name", &kpn, c->err);
  for (int i = 0; i < 2; i++) {
    int whole = !k->isstr[i] && k->v[i] == floor(k->v[i]) && fabs(k->v[i]) <= 9007199254740992.0;
    if (!rc && !whole) rc = pcol_b_cstr(c->b, i ? tt : pt, &v[i], c->err);
    lab[nl++] = (pcol_label_row){i ? kt : kp, v[i], whole ? (int64_t)k->v[i] : PCOL_NA_I64, 0};
  }
  if (!rc && tname && !(rc = pcol_b_string(c->b, tname, tl, &sv, c->err)))
    lab[nl++] = (pcol_label_row){ktn, sv, PCOL_NA_I64, 0};
  if (!rc && pname && !(rc = pcol_b_string(c->b, pname, pl, &sv, c->err)))
    lab[nl++] = (pcol_label_row){kpn, sv, PCOL_NA_I64, 0};
  if (!rc) rc = pcol_b_labelset(c->b, lab, nl, ls, c->err);
  return rc;
}

/* The trace's sources are one recording (its profiles on one clock, as
 * DevTools shows the trace): each its place in it, from 1, in the order
 * they are made (THE recording rule, format/keys.h), once all are made
 * (number_parts): a recording of one source is numbered not at all
 * (spec.md §7), as the Perfetto and OTLP imports have it */
static int recording_part(ctrace *c, uint32_t src) {
  return pcol_buf_append(&c->parts, &src, sizeof src) ? pcol_oom(c->err) : 0;
}
static int recording_end(ctrace *c) { return recording_part(c, UINT32_MAX); }
static int number_parts(ctrace *c) {
  const uint32_t *r = (const uint32_t *)(const void *)c->parts.data;
  size_t n = c->parts.len / sizeof *r;
  for (size_t i = 0, j; i < n; i = j + 1) {
    for (j = i; j < n && r[j] != UINT32_MAX; j++) {}
    for (size_t k = i; j - i >= 2 && k < j; k++) {
      char num[24];
      snprintf(num, sizeof num, "%zu", k - i + 1);
      int rc = pcol_b_meta_str(c->b, r[k], PCOL_META_RECORDING_PART, num, c->err);
      if (rc) return rc;
    }
  }
  return 0;
}

/* Component i of k for a message: a number's text, or the string quoted
 * and escaped (id_text). */
static const char *id_text(char out[64], int kind, int64_t v, const char *str, size_t len);
static const char *tkey_msg(const ctrace *c, const tkey *k, int i, char out[64]) {
  char num[40];
  const char *t = tkey_str(c, k, i, num);
  if (!k->isstr[i]) return snprintf(out, 64, "%s", t), out;
  return id_text(out, SID_STR, 0, t, strlen(t));
}

/* a profile's recording (pcol_v8c_stream.rec) and its place: the order
 * of the import */
typedef struct recs {
  uint64_t rec;
  size_t i;
} recs;
static int recs_cmp(const void *pa, const void *pb) {
  const recs *a = pa, *b = pb;
  if (a->rec != b->rec) return a->rec < b->rec ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

static int import_stream(ctrace *c, pcol_v8c_stream *s, size_t k, const vnum *origin) {
  int rc;
  char *ename = NULL, *uri = NULL, pm[64], tm[64], num[32];
  size_t ulen = 0;
  uint32_t ls = 0, src;
  const tkey *th = s->thread;
  tkey_msg(c, th, 0, pm), tkey_msg(c, th, 1, tm);
  if ((rc = pcol_v8c_check(&c->v, s, pm))) return rc;
  if (!(ename = pcol_v8c_name(&c->v, s, pm, tm))) return pcol_oom(c->err);
  /* the builder's refusals after the profile's name, as the profile's own
   * errors (pcol_v8_import_profile) have it */
  if ((rc = thread_bits(c, th, &uri, &ulen, &ls))) {
    rc = pcol_error_in(c->err, rc, ename, 0);
    goto out;
  }
  if ((rc = pcol_v8c_import(&c->v, s, uri, ulen, ls, pm, tm, origin, &src))) goto out; /* (named already) */
  snprintf(num, sizeof num, "%" PRIu64, c->n_duration);
  if (k == 0) rc = pcol_b_meta_str(c->b, src, "chrome.duration_events", num, c->err);
  if (!rc) rc = recording_part(c, src);
  rc = pcol_error_in(c->err, rc, ename, 0);
out:
  free(ename), free(uri);
  return rc;
}

/* Reading the duration events back: a thread's B and E queues merged as
 * speedscope's importer merges them (eventListToProfile), each stretch of
 * time between two changes of the stack a sample of its stack. */
typedef struct dframe {
  uint32_t name, node; /* node: the builder's stack node of the stack up to it */
  uint64_t key;
} dframe;

/* The E queue's events at its first ts (of one thread), as speedscope's
 * queue holds them: slots [front, n), each an event's key and name.  A
 * take (dur_take_e) finds the first slot after the front that holds a key,
 * or a name: for each distinct key and name of the group, a heap of the
 * slots that hold it (leftist, smallest slot on top: O(log n) a take, not
 * a scan of the group).  A node whose slot no longer holds its key or name
 * (taken, or given another event by a swap) is stale: dropped when it
 * comes to the top.  Every slot left has a node of its key and of its name
 * that is not stale, so a heap's top, once the stale ones are dropped, is
 * the first slot that holds it. */
typedef struct enode {
  uint32_t slot, l, r, rank; /* l, r: node index, 0 none */
} enode;

typedef struct egroup {
  int64_t t;
  int32_t res;       /* its first E's drow.res */
  uint64_t seq;      /* and its event */
  uint32_t front, n, cap;
  uint64_t *key;     /* per slot */
  uint32_t *name;    /* per slot */
  uint8_t *anon;     /* per slot: drow's anon */
  uint64_t *keys;    /* the group's distinct keys, ascending ... */
  uint32_t *names;   /* ... and names */
  uint32_t nk, nnm;
  uint32_t *kroot, *nroot; /* the heap of keys[i], names[i] */
  enode *h;          /* nodes 1..: 2 a slot (its key's, its name's) */
  uint32_t nh;
} egroup;

typedef struct dthread {
  tkey k;
  uint32_t src, ls, vt; /* src 0: not made yet (at the first sample) */
  dframe *f;            /* the open frames, outermost first */
  size_t nf, capf;
  int64_t last;         /* ns: the stack's last change */
  int32_t last_res;     /* what the file's time of it has more, 1e-6 ns */
  egroup g;             /* the E queue's events at its first ts */
  uint64_t unmatched, open;
  int64_t maxd; /* the longest sample of the thread's source */
} dthread;

static int dur_next(ctrace *c, int q, drow *out, int *have) {
  const void *r;
  int rc = pcol_rowsort_next(c->d.q[q], &r);
  if (rc) return sorter_failed(c, rc);
  if ((*have = r != NULL)) memcpy(out, r, sizeof *out);
  return 0;
}

/* A thread's source (of duration events, or of samples): its URI and
 * labels (thread_bits), value wall (ns). */
static int thread_source(ctrace *c, const tkey *k, uint32_t *src, uint32_t *ls, uint32_t *vt) {
  char *uri = NULL;
  size_t ulen = 0;
  uint32_t ty, un;
  int rc;
  if (!(rc = thread_bits(c, k, &uri, &ulen, ls))) rc = pcol_b_source_n(c->b, PCOL_SRC_CHROME, uri, ulen, PCOL_NA_I64, src, c->err);
  if (!rc) rc = pcol_source_file_mark(c->b, *src, c->name, strlen(c->name), uri, ulen, c->err);
  free(uri);
  if (!rc && !(rc = pcol_b_cstr(c->b, PCOL_VT_WALL, &ty, c->err)) &&
      !(rc = pcol_b_cstr(c->b, PCOL_UNIT_NANOSECONDS, &un, c->err)) &&
      !(rc = pcol_b_value_type(c->b, ty, un, vt, c->err)) && !(rc = pcol_b_source_value_type(c->b, *src, *vt, c->err)))
    rc = pcol_b_meta_str(c->b, *src, PPROF_META_DEFAULT_SAMPLE_TYPE, PCOL_VT_WALL, c->err);
  /* its samples are stretches of continuous time: a range counts the part
   * of each inside it (spec.md §7.1, "Interval sources") */
  if (!rc) rc = pcol_b_meta_str(c->b, *src, PCOL_META_INTERVALS, "1", c->err);
  return rc ? rc : recording_part(c, *src);
}

/* The location of name i (of dtrace's names), made at its first use. */
static int name_loc(ctrace *c, uint32_t *locs, uint32_t i) {
  if (locs[i]) return 0;
  pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
  pcol_line_row l = {0, PCOL_NA_I64, PCOL_NA_I64};
  int rc;
  if ((rc = pcol_b_string(c->b, c->d.nb + c->d.noff[i], name_len(&c->d, i), &fn.name, c->err)) ||
      (rc = pcol_b_function(c->b, &fn, &l.function_id, c->err)))
    return rc;
  return pcol_b_location(c->b, 0, 0, 0, &l, 1, &locs[i], c->err);
}

/* The time since the last change of the stack, as a sample of it: at t
 * (res: what the file's time has more, 1e-6 ns; seq: the event there).  Times
 * are whole ns, each the file's to half a ns, so a stretch is its length
 * to a ns: THE kept rule (pcol_kept_add, lib/core/count.c, as the V8
 * deltas', v8_profile.c) judges it against a millionth of the trace's
 * extent, and the verdict after the events refuses a trace whose
 * stretches whole ns cannot hold (a dur of 0.0004 us left no sample, and
 * was said nowhere) or warns once of one a ns or less off. */
static int dur_flush(ctrace *c, dthread *th, int64_t t, int32_t res, uint64_t seq) {
  int rc;
  /* the stretch in µs, the double nearest the file's (its 1e-6 ns
   * counted whole, divided once: no digits of the arithmetic's in messages) */
  double w = th->nf && th->last != INT64_MIN
                 ? (double)((long double)((__int128)(t - th->last) * 1000000 + (res - th->last_res)) / 1e9L) : 0;
  if (w > 0 && pcol_kept_add(&c->d.kept, w, t - th->last, 1000, (double)(c->d.tmax - c->d.t0) / 1000)) {
    char m[240];
    snprintf(c->d.kept.first_at, sizeof c->d.kept.first_at, "traceEvents[%" PRIu64 "] (µs)", seq);
    snprintf(m, sizeof m, "the stretch of %.6g µs that ends at this event is not held to six significant digits: "
             "pcol holds a trace's times as whole ns (the trace spans %.6g ns)", w, (double)(c->d.tmax - c->d.t0));
    pcol_error_set(&c->d.kept.refusal, PCOL_ECORRUPT, "%s: traceEvents[%" PRIu64 "]: %s", c->name, seq, m);
  }
  th->last_res = res;
  if (th->nf && t > th->last) {
    if (!th->src && (rc = thread_source(c, &th->k, &th->src, &th->ls, &th->vt))) return rc;
    pcol_sample_row r = {th->src, th->last - c->d.t0, t - th->last, 1, PCOL_NA_I64, th->f[th->nf - 1].node, th->ls};
    if (r.duration_ns > th->maxd) th->maxd = r.duration_ns;
    pcol_value_row v = {th->vt, t - th->last};
    if ((rc = pcol_b_sample(c->b, &r, &v, 1, NULL, c->err))) return rc;
  }
  th->last = t;
  return 0;
}

static int dur_enter(ctrace *c, dthread *th, const drow *b, uint32_t *locs) {
  int rc;
  if ((rc = dur_flush(c, th, b->t, b->res, b->seq)) || (rc = name_loc(c, locs, b->name))) return rc;
  if (PCOL_GROW(th->f, th->nf, th->capf)) return pcol_oom(c->err);
  dframe *f = &th->f[th->nf];
  f->name = b->name, f->key = b->key;
  if ((rc = pcol_b_stack_node(c->b, th->nf ? th->f[th->nf - 1].node : 0, locs[b->name], &f->node, c->err)))
    return rc;
  th->nf++;
  return 0;
}

static int u64_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The index of v in the ascending a[0..n) (of u64 when wide, else u32),
 * -1 when absent. */
static int64_t efind(const void *a, uint32_t n, int wide, uint64_t v) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t m = lo + (hi - lo) / 2;
    uint64_t x = wide ? ((const uint64_t *)a)[m] : ((const uint32_t *)a)[m];
    if (x == v) return m;
    if (x < v) lo = m + 1;
    else hi = m;
  }
  return -1;
}

/* Two leftist heaps made one (the smallest slot on top).  The recursion
 * follows the right spines, of O(log n) nodes each. */
static uint32_t emeld(enode *h, uint32_t a, uint32_t b) {
  if (!a || !b) return a ? a : b;
  if (h[b].slot < h[a].slot) {
    uint32_t t = a;
    a = b, b = t;
  }
  h[a].r = emeld(h, h[a].r, b);
  if (h[h[a].l].rank < h[h[a].r].rank) {
    uint32_t t = h[a].l;
    h[a].l = h[a].r, h[a].r = t;
  }
  h[a].rank = h[h[a].r].rank + 1;
  return a;
}

/* The top of the heap *root of key v (by_name: of name v), its stale
 * nodes dropped: the node of the first slot from the front that holds v;
 * 0 when none does. */
static uint32_t etop(egroup *g, uint32_t *root, int by_name, uint64_t v) {
  enode *h = g->h;
  for (uint32_t a = *root; a; a = *root) {
    uint32_t s = h[a].slot;
    if (s >= g->front && (by_name ? g->name[s] : g->key[s]) == v) return a;
    *root = emeld(h, h[a].l, h[a].r);
  }
  return 0;
}

/* Room for one more slot (and its index). */
static int egroup_room(ctrace *c, egroup *g) {
  if (g->n < g->cap) return 0;
  uint32_t cap = g->cap ? 2 * g->cap : 16;
  if (cap > MAX_TIED_ENDS) cap = MAX_TIED_ENDS;
#define ERESIZE(f, m)                                               \
  do {                                                              \
    void *q = realloc(g->f, ((size_t)(m)) * sizeof *g->f);          \
    if (!q) return pcol_oom(c->err);                                \
    g->f = q;                                                       \
  } while (0)
  ERESIZE(key, cap); ERESIZE(name, cap); ERESIZE(anon, cap); ERESIZE(keys, cap); ERESIZE(names, cap);
  ERESIZE(kroot, cap); ERESIZE(nroot, cap); ERESIZE(h, 2 * (size_t)cap + 1);
#undef ERESIZE
  g->cap = cap;
  return 0;
}

/* The group's distinct keys and names, and the heap of each. */
static void egroup_index(egroup *g) {
  uint32_t n = g->n, i, k;
  memcpy(g->keys, g->key, n * sizeof *g->keys);
  memcpy(g->names, g->name, n * sizeof *g->names);
  qsort(g->keys, n, sizeof *g->keys, u64_cmp);
  qsort(g->names, n, sizeof *g->names, u32_cmp);
  for (i = k = 0; i < n; i++)
    if (!i || g->keys[i] != g->keys[k - 1]) g->keys[k++] = g->keys[i];
  g->nk = k;
  for (i = k = 0; i < n; i++)
    if (!i || g->names[i] != g->names[k - 1]) g->names[k++] = g->names[i];
  g->nnm = k;
  memset(g->kroot, 0, g->nk * sizeof *g->kroot);
  memset(g->nroot, 0, g->nnm * sizeof *g->nroot);
  g->h[0] = (enode){0, 0, 0, 0}; /* the empty heap: rank 0 */
  g->nh = 0;
  for (i = 0; i < n; i++) { /* (each node the last slot yet: down the right spine) */
    uint32_t *kr = &g->kroot[efind(g->keys, g->nk, 1, g->key[i])];
    uint32_t *nr = &g->nroot[efind(g->names, g->nnm, 0, g->name[i])];
    g->h[++g->nh] = (enode){i, 0, 0, 1};
    *kr = emeld(g->h, *kr, g->nh);
    g->h[++g->nh] = (enode){i, 0, 0, 1};
    *nr = emeld(g->h, *nr, g->nh);
  }
}

/* The group's front event taken, as speedscope takes the E queue's first:
 * among the events of its ts, the first after the front that matches the
 * innermost open frame (top; NULL: none open) by name and args first swaps
 * places with it, else the first that matches by name.  Returns the name
 * of the event taken.  The front's two nodes leave their heaps; when it
 * is swapped into slot i, they go back with that slot, unless the event
 * that was there had the same key (or name): its node holds for it.
 * *anon: the event taken has no name (drow's anon). */
static uint32_t dur_take_e(egroup *g, const dframe *top, int *anon) {
  enode *h = g->h;
  uint32_t x = g->front, xn = g->name[x];
  uint64_t xk = g->key[x];
  uint8_t xa = g->anon[x];
  *anon = xa;
  uint32_t *kr = &g->kroot[efind(g->keys, g->nk, 1, xk)], *nr = &g->nroot[efind(g->names, g->nnm, 0, xn)];
  uint32_t a = etop(g, kr, 0, xk), b = etop(g, nr, 1, xn); /* slot x's */
  *kr = emeld(h, h[a].l, h[a].r);
  *nr = emeld(h, h[b].l, h[b].r);
  g->front++;
  if (!top) return xn;
  int64_t ci;
  uint32_t hit = 0;
  if ((ci = efind(g->keys, g->nk, 1, top->key)) >= 0) hit = etop(g, &g->kroot[ci], 0, top->key);
  if (!hit && (ci = efind(g->names, g->nnm, 0, top->name)) >= 0) hit = etop(g, &g->nroot[ci], 1, top->name);
  if (!hit) return xn;
  uint32_t i = h[hit].slot, yn = g->name[i];
  uint64_t yk = g->key[i];
  *anon = g->anon[i];
  g->key[i] = xk, g->name[i] = xn, g->anon[i] = xa;
  if (yk != xk && a) h[a] = (enode){i, 0, 0, 1}, *kr = emeld(h, *kr, a);
  if (yn != xn && b) h[b] = (enode){i, 0, 0, 1}, *nr = emeld(h, *nr, b);
  return yn;
}

static int import_durations(ctrace *c, uint64_t *unmatched, uint64_t *open) {
  dtrace *d = &c->d;
  int rc, hb = 0, he = 0;
  drow b, en;
  uint32_t *locs = calloc(d->nn ? d->nn : 1, sizeof *locs);
  dthread th;
  egroup *g = &th.g;
  memset(&th, 0, sizeof th);
  if (!locs) return pcol_oom(c->err);
  if ((rc = pcol_rowsort_rewind(d->q[0])) || (rc = pcol_rowsort_rewind(d->q[1]))) {
    rc = sorter_failed(c, rc);
    goto out;
  }
  if ((rc = dur_next(c, 0, &b, &hb)) || (rc = dur_next(c, 1, &en, &he))) goto out;
  while (hb || he) { /* a thread */
    int first_b = hb && (!he || tkey_cmp(&b.k, &en.k) <= 0);
    th.k = first_b ? b.k : en.k;
    th.src = 0, th.nf = 0, g->front = g->n = 0, th.last = INT64_MIN, th.maxd = 0;
    for (;;) {
      int bin = hb && !tkey_cmp(&b.k, &th.k);
      if (g->front == g->n && he && !tkey_cmp(&en.k, &th.k)) { /* the E queue's events at its next ts */
        g->front = g->n = 0, g->t = en.t, g->res = en.res, g->seq = en.seq;
        do {
          if (g->n == MAX_TIED_ENDS) {
            char pm[64], tm[64];
            rc = pcol_error_set(c->err, PCOL_ETOOBIG, "%s: traceEvents[%" PRIu64 "]: more than %u E events (ph E, "
                                "or the end of a ph X) at one time (ts %.3f) of one thread (pid %s, tid %s): pcol "
                                "holds those in memory, at most %u (doc/mappings.md §14)", c->name, en.seq,
                                MAX_TIED_ENDS, (double)en.t / 1000, tkey_msg(c, &th.k, 0, pm),
                                tkey_msg(c, &th.k, 1, tm), MAX_TIED_ENDS);
            goto out;
          }
          if ((rc = egroup_room(c, g))) goto out;
          g->key[g->n] = en.key, g->anon[g->n] = (uint8_t)en.anon, g->name[g->n++] = en.name;
          if ((rc = dur_next(c, 1, &en, &he))) goto out;
        } while (he && !tkey_cmp(&en.k, &th.k) && en.t == g->t);
        egroup_index(g);
      }
      int ein = g->front < g->n;
      if (!bin && !ein) break;
      /* the earlier; at one ts the B first when it is the same event as
       * the E (a zero duration), else the E */
      if (bin && (!ein || b.t < g->t || (b.t == g->t && b.key == g->key[g->front]))) {
        if ((rc = dur_enter(c, &th, &b, locs)) || (rc = dur_next(c, 0, &b, &hb))) goto out;
        continue;
      }
      int anon;
      uint32_t name = dur_take_e(g, th.nf ? &th.f[th.nf - 1] : NULL, &anon);
      /* an E without a name closes the innermost open B (the Trace Event
       * Format, chrome://tracing, Perfetto); one whose name differs from
       * it is left out (speedscope: "Doing nothing instead") */
      if (!th.nf || (!anon && name != th.f[th.nf - 1].name)) {
        th.unmatched++;
        continue;
      }
      if ((rc = dur_flush(c, &th, g->t, g->res, g->seq))) goto out;
      th.nf--;
    }
    th.open += th.nf; /* closed at the last change (speedscope: no more time) */
    if (th.src && (rc = pcol_v8_max_duration(c->b, th.src, th.maxd, c->err))) goto out;
  }
  *unmatched = th.unmatched, *open = th.open;
  rc = pcol_kept_verdict(&d->kept, 1, c->name, c->err);
out:
  free(locs), free(th.f);
  free(g->key), free(g->name), free(g->anon), free(g->keys), free(g->names), free(g->kroot), free(g->nroot), free(g->h);
  return rc;
}

/* Reading the samples back (samples/stackFrames form): per thread in file
 * order, each sample's stack its sf's frame and that frame's parents, its
 * value the time to its thread's next sample (the last: 0), as speedscope's
 * sampleListToProfile weighs it.
 *
 * A frame is speedscope's Frame: one per key (NAME:CATEGORY) in a profile,
 * named by the first frame of that key in the profile's samples that weigh
 * more than 0 (speedscope builds frames of those only), root first; in
 * pcol a function of that name whose system_name is the key.  When every
 * frame of a key has one name (all but hostile traces), a frame's builder
 * node is made once.  A chain that holds a key frames of two names share
 * (dep) is made per source, and made again in it only when a key on it was
 * claimed after its node was made (tick): never once every such key on it
 * is claimed (fin), as after a sample that weighs more than 0 it is. */
typedef struct sread {
  uint32_t *locs;  /* per key of one name: its location */
  uint32_t *kname; /* per key: its first frame's name (UINT32_MAX: none) */
  uint8_t *kamb;   /* per key: frames of two names have it */
  uint32_t *csrc;  /* per key of two names: the last source (src) that claimed it, */
  uint32_t *cname; /* the name it took there, */
  uint32_t *ctick; /* and when (tick) */
  uint32_t src;    /* the source being read, from 1 */
  uint32_t tick;   /* the claims made in it, plus 1 (a key per claim: no wrap) */
  uint32_t *chain; /* frames being walked */
  size_t nchain, capchain;
  char *sfbuf;     /* a sample's sf read back */
  size_t sfcap;
} sread;

/* A frame's id for a message: its key, quoted. */
static const char *frame_id_text(const strace *s, const sframe *f, char out[64]) {
  char num[24];
  if (f->idk == SID_STR) return id_text(out, SID_STR, 0, s->pool + f->id, f->idlen);
  snprintf(num, sizeof num, "%" PRId64, f->id);
  return id_text(out, SID_STR, 0, num, strlen(num));
}

/* Checks frame x's parent chain once (an unknown parent, a cycle or a
 * falsy frame refuses the trace: speedscope fails or never ends), linking
 * each frame to its parent (up) and marking the chains that hold a key of
 * two names (dep). */
static int frame_check(ctrace *c, sread *rd, uint32_t x) {
  strace *s = &c->s;
  char a[64], b[64];
  uint8_t dep = 0;
  rd->nchain = 0;
  for (uint32_t i = x;;) {
    sframe *f = &s->f[i];
    if (f->state == 2) {
      dep = f->dep;
      break;
    }
    if (f->state == 1)
      return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: stackFrames[%s]: its parent chain comes back to it (a cycle; "
                            "speedscope never ends reading it)", c->name, frame_id_text(s, f, a));
    if (f->bad)
      return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: stackFrames[%s]: a falsy value, no frame (speedscope: \"Could "
                            "not find frame for id\")", c->name, frame_id_text(s, f, a));
    if (PCOL_GROW(rd->chain, rd->nchain, rd->capchain)) return pcol_oom(c->err);
    rd->chain[rd->nchain++] = i;
    f->state = 1;
    if (f->pk == SID_NONE) break;
    int64_t p = frame_find(s, f->pk, f->parent, pool_at(s, f->pk, f->parent), f->plen);
    if (p < 0)
      return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: stackFrames[%s]: parent %s is no frame's id (speedscope: "
                            "\"Could not find frame for id\")", c->name, frame_id_text(s, f, a),
                            id_text(b, f->pk, f->parent, pool_at(s, f->pk, f->parent), f->plen));
    f->up = (uint32_t)p + 1;
    i = (uint32_t)p;
  }
  while (rd->nchain) {
    sframe *f = &s->f[rd->chain[--rd->nchain]];
    dep |= rd->kamb[f->key];
    f->dep = dep, f->state = 2;
  }
  return 0;
}

/* Frame f's node, once made, is its node for good in source rd->src: no
 * key of two names on its chain, or all of them claimed there when it was
 * made (a claimed key keeps its name in the source). */
static int node_fin(const sread *rd, const sframe *f) { return !f->dep || (f->nsrc == rd->src && f->fin); }

/* A sample that weighs more than 0 in source rd->src: the keys of two
 * names on its stack that the source has not claimed take the name of
 * their first frame on it, root first (speedscope's Frame.getOrInsert).
 * The walk stops at a chain whose keys are all claimed (fin). */
static void frame_claim(ctrace *c, sread *rd, uint32_t x) {
  strace *s = &c->s;
  rd->nchain = 0;
  for (uint32_t i = x + 1; i;) {
    sframe *f = &s->f[i - 1];
    if (!f->dep || (f->nsrc == rd->src && f->fin)) break;
    rd->chain[rd->nchain++] = i - 1; /* (room: no longer than frame_check's walk of it) */
    i = f->up;
  }
  while (rd->nchain) {
    const sframe *f = &s->f[rd->chain[--rd->nchain]];
    if (rd->kamb[f->key] && rd->csrc[f->key] != rd->src)
      rd->csrc[f->key] = rd->src, rd->cname[f->key] = f->name, rd->ctick[f->key] = ++rd->tick;
  }
}

/* The location of frame f in source rd->src: a function named as its key
 * is there (its own name for a key of two names the source has not
 * claimed: in a sample that weighs 0, which speedscope does not keep),
 * system_name its key. */
static int frame_loc(ctrace *c, sread *rd, const sframe *f, uint32_t *loc) {
  uint32_t k = f->key, nm = rd->kamb[k] && rd->csrc[k] == rd->src ? rd->cname[k] : f->name;
  if (!rd->kamb[k] && rd->locs[k]) return *loc = rd->locs[k], 0;
  pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
  pcol_line_row l = {0, PCOL_NA_I64, PCOL_NA_I64};
  const char *n = c->d.nb + c->d.noff[nm], *kt = c->d.nb + c->d.noff[k];
  int rc;
  if ((rc = pcol_b_string(c->b, n, name_len(&c->d, nm), &fn.name, c->err)) ||
      (rc = pcol_b_string(c->b, kt, name_len(&c->d, k), &fn.system_name, c->err)) ||
      (rc = pcol_b_function(c->b, &fn, &l.function_id, c->err)) ||
      (rc = pcol_b_location(c->b, 0, 0, 0, &l, 1, loc, c->err)))
    return rc;
  if (!rd->kamb[k]) rd->locs[k] = *loc;
  return 0;
}

/* The builder's stack node of frame x (checked): the nodes of its parents
 * made first, outermost first (a loop: a chain as deep as the frames are
 * many is read).  A dep frame's node is good in source rd->src when it was
 * made there and no key on its chain was claimed since: fin, or made at
 * this tick, or its own key claimed before it and its parent's node good
 * and made no later than it. */
static int frame_node(ctrace *c, sread *rd, uint32_t x, uint32_t *node) {
  strace *s = &c->s;
  int rc;
  uint32_t base = 0, loc, top = 0; /* top: the frame whose node base is, + 1 */
  rd->nchain = 0;
  for (uint32_t i = x + 1; i;) {
    const sframe *f = &s->f[i - 1];
    if (f->nsrc && (node_fin(rd, f) || (f->nsrc == rd->src && f->tick == rd->tick))) {
      base = f->node, top = i;
      break;
    }
    rd->chain[rd->nchain++] = i - 1;
    i = f->up;
  }
  int good = 1; /* the nodes above are the ones made before */
  while (rd->nchain) {
    uint32_t i = rd->chain[--rd->nchain];
    sframe *f = &s->f[i];
    const sframe *p = top ? &s->f[top - 1] : NULL;
    good = good && f->nsrc == rd->src && (!p || !p->dep || p->tick <= f->tick) &&
           !(rd->kamb[f->key] && rd->csrc[f->key] == rd->src && rd->ctick[f->key] > f->tick);
    if (!good) {
      if ((rc = frame_loc(c, rd, f, &loc)) || (rc = pcol_b_stack_node(c->b, base, loc, &f->node, c->err)))
        return rc;
      f->nsrc = rd->src, f->tick = rd->tick;
      f->fin = (uint8_t)((!p || node_fin(rd, p)) && (!rd->kamb[f->key] || rd->csrc[f->key] == rd->src));
    }
    base = f->node, top = i + 1;
  }
  return *node = base, 0;
}

/* A sample's stack (0 when its sf is falsy); w: its weight. */
static int sample_stack(ctrace *c, sread *rd, const srow *r, int64_t w, uint32_t *node) {
  strace *s = &c->s;
  const char *str = NULL;
  char a[64];
  int rc;
  *node = 0;
  if (r->sfk == SID_NONE) return 0;
  if (r->sfk == SID_STR) {
    if (room(&rd->sfbuf, &rd->sfcap, (size_t)r->sflen + 1)) return pcol_oom(c->err);
    if (fseeko(s->sftext, (off_t)r->sf, SEEK_SET) || fread(rd->sfbuf, 1, r->sflen, s->sftext) != r->sflen)
      return pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
    str = rd->sfbuf;
  }
  int64_t x = frame_find(s, (int)r->sfk, r->sf, str, r->sflen);
  if (x < 0)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: samples[%" PRIu64 "]: sf %s is no frame's id in stackFrames "
                          "(speedscope: \"Could not find frame for id\")", c->name, r->seq,
                          id_text(a, (int)r->sfk, r->sf, str, r->sflen));
  if (s->f[x].state != 2 && (rc = frame_check(c, rd, (uint32_t)x))) return rc;
  if (w > 0 && s->f[x].dep) frame_claim(c, rd, (uint32_t)x);
  return frame_node(c, rd, (uint32_t)x, node);
}

/* A sample whose ts is no time, in a thread of more than one sample. */
static int ts_refused(ctrace *c, const srow *r) {
  static const char *const WHY[] = {
      "", "Number() of it is NaN (absent, or no number; speedscope fails: \"invalid weight\")",
      "it is infinite (so would speedscope's weights of the thread be, or NaN)",
      "it is past ±4·10^15 µs (pcol keeps times as int64 ns)"};
  return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: samples[%" PRIu64 "]: ts: %s", c->name, r->seq, WHY[r->tsbad]);
}

static int import_samples(ctrace *c) {
  strace *s = &c->s;
  sread rd = {0};
  int rc, have = 0;
  const void *p;
  srow cur, nx;
  uint32_t src = 0, ls = 0, vt = 0, first = 0;
  int64_t maxd = 0; /* the longest sample of the thread's source */
  if (s->bad) return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: %s", c->name, s->msg);
  if (!c->nev)
    return pcol_error_set(c->err, PCOL_EFORMAT, "%s: a trace of \"samples\" and \"stackFrames\" whose traceEvents is "
                          "empty: speedscope does not take it for a trace, and pcol does not read it either", c->name);
  if (c->shape_ev >= 0)
    return pcol_error_set(c->err, PCOL_EFORMAT, "%s: traceEvents[%" PRId64 "]: not an object with a ph (and a ts, for "
                          "ph B, E and X): speedscope does not take a trace of \"samples\" and \"stackFrames\" with "
                          "it for a trace, and pcol does not read it either", c->name, c->shape_ev);
  if (!s->rows || !pcol_rowsort_count(s->rows))
    return pcol_error_set(c->err, PCOL_EFORMAT, "%s: a trace of \"samples\" and \"stackFrames\" without samples", c->name);
  size_t nn = c->d.nn ? c->d.nn : 1;
  if (!(rd.locs = calloc(nn, sizeof *rd.locs)) || !(rd.kname = malloc(nn * sizeof *rd.kname)) ||
      !(rd.kamb = calloc(nn, 1)) || !(rd.csrc = calloc(nn, sizeof *rd.csrc)) ||
      !(rd.cname = calloc(nn, sizeof *rd.cname)) || !(rd.ctick = calloc(nn, sizeof *rd.ctick)) || !(rd.chain = malloc((s->nf + 1) * sizeof *rd.chain))) {
    rc = pcol_oom(c->err);
    goto out;
  }
  rd.capchain = s->nf + 1; /* (a chain holds a frame once) */
  memset(rd.kname, 0xff, nn * sizeof *rd.kname);
  for (size_t i = 0; i < s->nf; i++) { /* the keys frames of two names have */
    const sframe *f = &s->f[i];
    if (rd.kname[f->key] == UINT32_MAX) rd.kname[f->key] = f->name;
    else if (rd.kname[f->key] != f->name) rd.kamb[f->key] = 1;
  }
  if (s->sftext && fflush(s->sftext)) {
    rc = pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
    goto out;
  }
  if ((rc = pcol_rowsort_rewind(s->rows)) || (rc = pcol_rowsort_next(s->rows, &p))) {
    rc = sorter_failed(c, rc);
    goto out;
  }
  memcpy(&cur, p, sizeof cur);
  for (int more = 1; more;) {
    if ((rc = pcol_rowsort_next(s->rows, &p))) {
      rc = sorter_failed(c, rc);
      goto out;
    }
    if ((more = p != NULL)) memcpy(&nx, p, sizeof nx);
    int same = more && !tkey_cmp(&nx.k, &cur.k);
    /* speedscope weighs a thread's only sample 0, its ts unread */
    if ((have || same) && cur.tsbad) {
      rc = ts_refused(c, &cur);
      goto out;
    }
    if (same && nx.tsbad) {
      rc = ts_refused(c, &nx);
      goto out;
    }
    int64_t w = same ? nx.t - cur.t : 0;
    char pt[64], tt[64];
    if (w < 0) {
      rc = pcol_error_set(c->err, PCOL_ECORRUPT, "%s: samples[%" PRIu64 "]: ts %.3f is before the ts of samples[%" PRIu64
                          "], its thread's (pid %s, tid %s) sample before it in the file (speedscope: \"Samples must "
                          "have positive weights\")", c->name, nx.seq, (double)nx.t / 1000, cur.seq,
                          tkey_msg(c, &cur.k, 0, pt), tkey_msg(c, &cur.k, 1, tt));
      goto out;
    }
    if (!have) {
      if ((rc = thread_source(c, &cur.k, &src, &ls, &vt))) goto out;
      if (!first++) { /* not read, as speedscope does not read them in this form */
        char num[32];
        snprintf(num, sizeof num, "%" PRIu64, c->n_duration);
        if ((rc = pcol_b_meta_str(c->b, src, "chrome.duration_events", num, c->err))) goto out;
      }
      rd.src++, rd.tick = 1;
      have = 1;
    }
    pcol_sample_row r = {src, cur.tsbad ? 0 : cur.t - s->t0, w, 1, PCOL_NA_I64, 0, ls};
    pcol_value_row v = {vt, w};
    if ((rc = sample_stack(c, &rd, &cur, w, &r.stack_id)) || (rc = pcol_b_sample(c->b, &r, &v, 1, NULL, c->err)))
      goto out;
    if (w > maxd) maxd = w;
    if (!same && (rc = pcol_v8_max_duration(c->b, src, maxd, c->err))) goto out; /* the thread's last sample */
    if (!same) maxd = 0;
    have = same;
    if (more) cur = nx;
  }
out:
  free(rd.locs), free(rd.kname), free(rd.kamb), free(rd.csrc), free(rd.cname), free(rd.ctick), free(rd.chain), free(rd.sfbuf);
  return rc;
}

int pcol_import_chrome(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                       pcol_error *err) {
  ctrace c = {0};
  pcol_jpull j;
  c.b = b, c.name = name, c.err = err, c.j = &j, c.opt = opt, c.shape_ev = -1;
  pcol_v8c_init(&c.v, b, name, opt, sizeof(tkey), err);
  /* names may hold NUL (\u0000: pprof's do, and the Chrome export writes
   * them so): DevTools and speedscope keep it in a CPU profile's frames,
   * an event's, a thread's or process's name and a Hermes frame's name and
   * category, and so does pcol, each held with its length */
  int rc = pcol_jp_open(&j, in, name, opt, PCOL_JP_BIG_INTS | PCOL_JP_OPEN_ARRAY | PCOL_JP_ALLOW_NUL, err);
  int opened = !rc;
  if (!rc) rc = read_doc(&c);
  if (opened) pcol_jp_close(&j);
  size_t used = 0;
  /* the samples form: speedscope reads its samples (not its duration
   * events), and not its CPU profile either but when the first event has
   * the keys pid, tid, ph and cat (speedscope's isChromeTimeline) */
  int sample_form = c.sample_form == 3 && !(c.first_keys && c.profile_named);
  /* the profiles' one timeline: since the earliest startTime of them, as
   * DevTools and the Firefox Profiler put every thread on the trace's clock
   * (each profile's own start would shift one thread against another) */
  /* of a trace whose profiles pcol's export marked as of several
   * recordings (V8_KEY_RECORDING: a merge of recordings apart in time),
   * each recording's profiles in turn, on its own timeline (since its
   * earliest startTime), its parts numbered from 1: separate recordings
   * each counted, as go's merge adds them (THE recording rule) */
  recs *ord = NULL;
  size_t nord = 0;
  if (!rc && !sample_form && !(ord = malloc((c.v.nst ? c.v.nst : 1) * sizeof *ord))) rc = pcol_oom(err);
  for (size_t i = 0; !rc && !sample_form && i < c.v.nst; i++)
    if (pcol_v8c_has_profile(&c.v.st[i])) ord[nord++] = (recs){c.v.st[i].rec, i};
  if (nord > 1) qsort(ord, nord, sizeof *ord, recs_cmp);
  const vnum *origin = NULL;
  const pcol_v8c_stream *untaken = NULL; /* the first whose span start is not taken */
  for (size_t k = 0; !rc && k < nord; k++) {
    if (k && ord[k].rec != ord[k - 1].rec && (rc = recording_end(&c))) break;
    if (!k || ord[k].rec != ord[k - 1].rec) origin = pcol_v8c_origin_of(&c.v, ord[k].rec);
    /* a profile whose source's time 0 is not its recording's origin
     * (V8_KEY_SPAN_START, pcol's export: a part of a recording timed from
     * its own start) is timed from there: its startTime less that */
    pcol_v8c_stream *st = &c.v.st[ord[k].i];
    const vnum *sp = &st->span_start, *o = origin;
    vnum own;
    if (sp->present && !sp->bad && sp->v >= 0 && sp->frac >= 0 && sp->v <= ((int64_t)1 << 51) && st->start.present &&
        !st->start.bad) {
      __int128 z = ((__int128)st->start.v - sp->v) * 1000 + (st->start.frac - sp->frac);
      own = (vnum){.present = 1, .v = (int64_t)(z / 1000), .frac = (int)(z % 1000)};
      o = &own;
    } else if ((sp->present || sp->bad) && !untaken)
      untaken = st;
    rc = import_stream(&c, st, used++, o);
  }
  free(ord);
  /* one not taken is said (review rd17b F6: before, silently; as the
   * Perfetto import says of a window it does not take) */
  if (!rc && untaken)
    pcol_warn_add(err, "%s: %s: profile %s: " V8_KEY_SPAN_START " %s is not a time of 0 to 2^51 us: not taken "
                   "(the profile timed from its recording's earliest startTime)", name, untaken->span_at, untaken->id,
                   untaken->span_text);
  if (!rc && used) pcol_v8c_lost_warning(&c.v, err);
  /* no CPU profile: the duration events, as speedscope reads such a trace */
  if (!rc && sample_form)
    rc = import_samples(&c);
  else if (!rc && !used && c.d.bad) rc = fail(&c, c.d.bad_ev, c.d.bad);
  else if (!rc && !used && c.d.n) {
    uint64_t unmatched = 0, open = 0;
    uint64_t before = pcol_b_sample_count(b);
    rc = import_durations(&c, &unmatched, &open);
    if (!rc && pcol_b_sample_count(b) == before)
      rc = pcol_error_set(err, PCOL_EFORMAT, "%s: a Chrome trace whose duration events (ph B/E, X) never "
                          "have a frame open for any time, and without a CPU profile", name);
    if (!rc && (unmatched || open)) /* (after the kept rule's warning, pcol_kept_verdict's) */
      pcol_warn_add(err, "%s: duration events: %" PRIu64 " E event%s matching no open B (left out, as "
                     "speedscope does), %" PRIu64 " frame%s still open at the end (closed there)", name, unmatched,
                     unmatched == 1 ? "" : "s", open, open == 1 ? "" : "s");
  } else if (!rc && !used)
    rc = pcol_error_set(err, PCOL_EFORMAT,
                        "%s: a Chrome trace without a CPU profile or duration events (no Profile/ProfileChunk or "
                        "CpuProfile events, no ph B/E or X; record with the disabled-by-default-v8.cpu_profiler "
                        "category)", name);
  if (!rc) rc = number_parts(&c);
  pcol_buf_free(&c.parts);
  pcol_v8c_free(&c.v);
  for (size_t i = 0; i < c.nnm; i++) free(c.nm[i].name);
  free(c.nm), free(c.mname);
  for (int q = 0; q < 2; q++) pcol_rowsort_free(c.d.q[q]);
  free(c.d.nb), free(c.d.noff), free(c.d.tab), free(c.d.ename);
  pcol_rowsort_free(c.s.rows);
  if (c.s.sftext) fclose(c.s.sftext);
  free(c.s.f), free(c.s.tab), free(c.s.pool), free(c.s.kb);
  for (int v = 0; v < 3; v++) free(c.s.jv[v].t);
  free(c.idv[0].t), free(c.idv[1].t);
  return rc;
}
