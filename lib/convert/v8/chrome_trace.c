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
 * (args.data.cpuProfile.{nodes,samples}, args.data.timeDeltas); older
 * traces hold one whole profile in a "CpuProfile" event
 * (args.data.cpuProfile).  Each profile is put back together as the V8
 * document it was cut from — its nodes, samples and deltas copied as text,
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
 * when the names match (else left out), each stretch of time between two
 * changes of the stack a sample of that stack (value wall, ns).
 *
 * The document is streamed (json_pull.c): memory holds one event's scalars,
 * the thread names, a few counters per profile and the distinct names of
 * duration events; the profiles' text waits in temporary files, the
 * duration events in a sorter (rowsort.c: runs in a temporary file), read
 * back one at a time but for the E events of one thread at one time (at
 * most MAX_TIED_ENDS: egroup). */
#include "v8.h"
#include "keys.h"     /* PCOL_SRC_CHROME */
#include "error.h"    /* pcol_error_in, pcol_oom */
#include "buf.h"      /* PCOL_GROW */
#include "hash.h"     /* pcol_hash_keyed */
#include "rowsort.h"  /* pcol_rowsort: the duration events in speedscope's order */
#include <math.h>
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a chunk's samples and deltas are in their part files, and its ts. */
typedef struct cchunk {
  double ts;
  off_t at[2], len[2]; /* P_SAMPLES, P_DELTAS */
} cchunk;

typedef struct cstream {
  int64_t pid, tid;
  char *id;           /* the trace's profile id ("0x1"); "" for a CpuProfile event */
  vnum start, end;    /* µs on the trace's clock */
  FILE *part[3];      /* the text of nodes, samples, timeDeltas: elements, comma-separated */
  uint64_t count[3];
  cchunk *ch;         /* its chunks, in file order */
  size_t nch, capch;
  int unordered;      /* a chunk's ts is before an earlier chunk's */
  int no_ts;          /* a chunk without a ts: file order it is */
} cstream;

typedef struct cname {
  int64_t pid, tid; /* tid -1: the process's name */
  char *name;
} cname;

enum { P_NODES, P_SAMPLES, P_DELTAS };
static const char *const PART_KEY[3] = {"nodes", "samples", "timeDeltas"};
#define MAX_PROFILES 4096
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
  int64_t pid, tid;
  int64_t t;      /* ns: a B's or E's ts; an X's ts (B queue) or ts + dur (E queue) */
  int64_t xts;    /* an X's ts in the E queue, else 0 */
  int64_t negdur; /* an X's -dur, else 0 */
  uint64_t seq;   /* file order: the event's index in traceEvents */
  uint64_t key;   /* name and args: speedscope's event id */
  uint32_t name;  /* index into the names */
  uint32_t kind;  /* 0: B or E, 1: X */
} drow;

typedef struct dtrace {
  pcol_rowsort *q[2];   /* the B queue, the E queue; made at the first event */
  char *nb;             /* the distinct names, NUL-terminated, back to back */
  size_t nbl, nbcap;
  size_t *noff;         /* name i at nb + noff[i] */
  uint32_t nn, ncap;
  uint32_t *tab;        /* hash table of name index + 1 (0: empty) */
  size_t ntab;
  uint64_t n;           /* the duration events' rows (an X: 1) */
  int64_t t0;           /* the earliest ts, ns: the sources' time 0 */
  const char *bad;      /* the first event that cannot be read, and why */
  size_t bad_ev;
  char *ename;          /* the name of the event being read */
  size_t enl, encap;
  int has_name;
} dtrace;

typedef struct ctrace {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  pcol_jpull *j;
  const pcol_import_options *opt;
  cstream *st;
  size_t nst, capst;
  cname *nm;
  size_t nnm, capnm;
  FILE *cur[3];       /* the event being read: what its args.data held */
  uint64_t ccount[3];
  uint64_t lost[3];   /* PCOL_V8_ORPHANS_AT_ROOT's counts (v8.h), all profiles */
  int deltas_from;    /* the event's timeDeltas: 0 none yet, 1 args.data's, 2 cpuProfile's */
  vnum cstart, cend;
  char *mname;        /* args.name of the event being read */
  uint64_t n_duration;
  int sample_form;    /* the object's keys samples (1) and stackFrames (2): Hermes */
  dtrace d;
} ctrace;

static int fail(ctrace *c, size_t ev, const char *what) {
  return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: traceEvents[%zu]: %s", c->name, ev, what);
}

/* JSON text of the current value, re-serialized (strings escaped again:
 * json_pull hands them decoded). */
static int put_str(FILE *o, const char *s, size_t n) {
  putc('"', o);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\') putc('\\', o), putc(ch, o);
    else if (ch < 0x20) fprintf(o, "\\u%04x", ch);
    else putc(ch, o);
  }
  putc('"', o);
  return 0;
}

static int copy_value(pcol_jpull *j, FILE *o) {
  int rc;
  switch (j->tok) {
  case PCOL_JT_OBJ:
  case PCOL_JT_ARR: {
    pcol_jtok end = j->tok == PCOL_JT_OBJ ? PCOL_JT_OBJ_END : PCOL_JT_ARR_END;
    putc(j->tok == PCOL_JT_OBJ ? '{' : '[', o);
    for (int first = 1;; first = 0) {
      if ((rc = pcol_jp_next(j))) return rc;
      if (j->tok == end) break;
      if (!first) putc(',', o);
      if (j->tok == PCOL_JT_KEY) {
        put_str(o, j->str, j->len);
        putc(':', o);
        if ((rc = pcol_jp_next(j))) return rc;
      }
      if ((rc = copy_value(j, o))) return rc;
    }
    putc(end == PCOL_JT_OBJ_END ? '}' : ']', o);
    return 0;
  }
  case PCOL_JT_STR: return put_str(o, j->str, j->len);
  case PCOL_JT_INT: fprintf(o, "%" PRId64, j->i); return 0;
  case PCOL_JT_REAL: fprintf(o, "%.17g", j->d); return 0;
  case PCOL_JT_TRUE: fputs("true", o); return 0;
  case PCOL_JT_FALSE: fputs("false", o); return 0;
  case PCOL_JT_NULL: fputs("null", o); return 0;
  default: return 0;
  }
}

/* The elements of the array that starts now, appended to the current
 * event's part p. */
static int copy_elements(ctrace *c, int p) {
  pcol_jpull *j = c->j;
  int rc;
  if (j->tok != PCOL_JT_ARR) return pcol_jp_skip(j);
  if (!c->cur[p] && !(c->cur[p] = tmpfile()))
    return pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
  while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
    if (c->ccount[p]++) putc(',', c->cur[p]);
    if ((rc = copy_value(j, c->cur[p]))) return rc;
  }
  return rc;
}

static int number(pcol_jpull *j, vnum *v) {
  if (j->tok == PCOL_JT_INT) v->present = 1, v->bad = 0, v->v = j->i;
  else if (j->tok == PCOL_JT_REAL && j->d > -9e18 && j->d < 9e18) v->present = 1, v->bad = 0, v->v = (int64_t)j->d;
  else if (j->tok != PCOL_JT_NULL) return v->bad = 1, pcol_jp_skip(j);
  return 0;
}

/* args.data, or args.data.cpuProfile (inner = 1) */
static int tmp_reset(ctrace *c, int p);

static int read_data(ctrace *c, int inner) {
  pcol_jpull *j = c->j;
  int rc;
  if (j->tok != PCOL_JT_OBJ) return pcol_jp_skip(j);
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int part = -1;
    for (int p = 0; p < 3; p++)
      if (pcol_jp_key_is(j, PART_KEY[p])) part = p;
    int is_start = pcol_jp_key_is(j, "startTime"), is_end = pcol_jp_key_is(j, "endTime");
    int is_prof = !inner && pcol_jp_key_is(j, "cpuProfile");
    if ((rc = pcol_jp_next(j))) return rc;
    /* timeDeltas: args.data's, else cpuProfile's (a chunk may hold both,
     * the same deltas twice: the Firefox Profiler's rule) */
    if (part == P_DELTAS && !inner && c->deltas_from == 2 && (rc = tmp_reset(c, P_DELTAS))) return rc;
    if (part == P_DELTAS && inner && c->deltas_from == 1) rc = pcol_jp_skip(j);
    else if (part == P_DELTAS || (inner && part >= 0)) rc = copy_elements(c, part);
    else if (is_start) rc = number(j, &c->cstart);
    else if (is_end) rc = number(j, &c->cend);
    else if (is_prof) rc = read_data(c, 1);
    else rc = pcol_jp_skip(j);
    if (rc) return rc;
    if (part == P_DELTAS && !(inner && c->deltas_from == 1)) c->deltas_from = inner ? 2 : 1;
  }
  return rc;
}

static int read_args(ctrace *c) {
  pcol_jpull *j = c->j;
  int rc;
  if (j->tok != PCOL_JT_OBJ) return pcol_jp_skip(j);
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int is_data = pcol_jp_key_is(j, "data"), is_name = pcol_jp_key_is(j, "name");
    if ((rc = pcol_jp_next(j))) return rc;
    if (is_data) rc = read_data(c, 0);
    else if (is_name && j->tok == PCOL_JT_STR) {
      free(c->mname);
      if (!(c->mname = strdup(j->str))) return pcol_oom(c->err);
    } else rc = pcol_jp_skip(j);
    if (rc) return rc;
  }
  return rc;
}

/* Empties the current event's part p, when it holds anything: most events
 * hold no profile, and three syscalls each would cost more than reading them. */
static int tmp_reset(ctrace *c, int p) {
  if (!c->ccount[p]) return 0;
  c->ccount[p] = 0;
  rewind(c->cur[p]);
  if (ftruncate(fileno(c->cur[p]), 0))
    return pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
  return 0;
}

/* Appends f's first n bytes to o (both temporary files). */
static int append_file(ctrace *c, FILE *o, FILE *f) {
  char buf[1 << 14];
  size_t k;
  if (fflush(f) || fseeko(f, 0, SEEK_SET)) goto io;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0)
    if (fwrite(buf, 1, k, o) != k) goto io;
  if (ferror(f)) goto io;
  return 0;
io:
  return pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
}

static cstream *stream_for(ctrace *c, int64_t pid, const char *id, int create) {
  for (size_t i = 0; i < c->nst; i++)
    if (c->st[i].pid == pid && *id && strcmp(c->st[i].id, id) == 0) return &c->st[i];
  if (!create || c->nst >= MAX_PROFILES) return NULL;
  if (c->nst == c->capst) {
    size_t cap = c->capst ? 2 * c->capst : 8;
    cstream *n = realloc(c->st, cap * sizeof *n);
    if (!n) return NULL;
    c->st = n, c->capst = cap;
  }
  cstream *s = &c->st[c->nst];
  memset(s, 0, sizeof *s);
  s->pid = pid, s->tid = -1;
  if (!(s->id = strdup(id))) return NULL;
  for (int p = 0; p < 3; p++)
    if (!(s->part[p] = tmpfile())) {
      for (int q = 0; q < p; q++) fclose(s->part[q]);
      free(s->id);
      return NULL;
    }
  c->nst++;
  return s;
}

static int add_chunk(ctrace *c, cstream *s, int has_ts, double ts) {
  int rc;
  cchunk k = {ts, {0, 0}, {0, 0}};
  for (int p = 0; p < 3; p++) {
    if (!c->ccount[p]) continue;
    if (s->count[p]) putc(',', s->part[p]);
    off_t at = p ? ftello(s->part[p]) : 0;
    if ((rc = append_file(c, s->part[p], c->cur[p]))) return rc;
    if (p) k.at[p - 1] = at, k.len[p - 1] = ftello(s->part[p]) - at;
    s->count[p] += c->ccount[p];
  }
  if (!has_ts) s->no_ts = 1;
  else if (s->nch && ts < s->ch[s->nch - 1].ts) s->unordered = 1;
  if (PCOL_GROW(s->ch, s->nch, s->capch)) return pcol_oom(c->err);
  s->ch[s->nch++] = k;
  if (c->cstart.present) s->start = c->cstart;
  if (c->cend.present) s->end = c->cend;
  return 0;
}

static int add_name(ctrace *c, int64_t pid, int64_t tid) {
  if (c->nnm == c->capnm) {
    size_t cap = c->capnm ? 2 * c->capnm : 16;
    cname *n = realloc(c->nm, cap * sizeof *n);
    if (!n) return pcol_oom(c->err);
    c->nm = n, c->capnm = cap;
  }
  c->nm[c->nnm++] = (cname){pid, tid, c->mname};
  c->mname = NULL;
  return 0;
}

static const char *name_of(const ctrace *c, int64_t pid, int64_t tid) {
  const char *r = NULL; /* the last one given */
  for (size_t i = 0; i < c->nnm; i++)
    if (c->nm[i].pid == pid && c->nm[i].tid == tid) r = c->nm[i].name;
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

/* The index of the name s (n bytes), added when new; -1: out of memory. */
static int64_t intern(dtrace *d, const char *s, size_t n) {
  if (d->nn >= d->ntab / 2) { /* at most half full: doubled when it would be more */
    size_t nt = d->ntab ? d->ntab * 2 : 256;
    uint32_t *t = calloc(nt, sizeof *t);
    if (!t || d->nn >= UINT32_MAX - 1) return free(t), -1;
    for (uint32_t i = 0; i < d->nn; i++) {
      const char *x = d->nb + d->noff[i];
      size_t k = name_hash(x, strlen(x)) & (nt - 1);
      while (t[k]) k = (k + 1) & (nt - 1);
      t[k] = i + 1;
    }
    free(d->tab);
    d->tab = t, d->ntab = nt;
  }
  size_t k = name_hash(s, n) & (d->ntab - 1);
  for (; d->tab[k]; k = (k + 1) & (d->ntab - 1)) {
    const char *x = d->nb + d->noff[d->tab[k] - 1];
    if (strlen(x) == n && memcmp(x, s, n) == 0) return d->tab[k] - 1;
  }
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

static int drow_cmp(const void *a, const void *b) {
  const drow *x = a, *y = b;
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
  CMP(pid); CMP(tid); CMP(t); CMP(kind); CMP(xts); CMP(negdur); CMP(seq);
#undef CMP
  return 0;
}

static int sorter_failed(ctrace *c, int rc) {
  if (rc == PCOL_ENOMEM) return pcol_oom(c->err);
  return pcol_error_set(c->err, PCOL_EIO, "%s: the duration events' temporary file: %s", c->name, strerror(errno));
}

/* A B, E or X event into the queues.  What makes one unreadable (no ts, a
 * time out of range, a negative duration) is kept, not said: it matters
 * only when the trace has no CPU profile (then the duration events are
 * read, and the first such event refuses the trace). */
static int add_duration(ctrace *c, size_t ev, char ph, int64_t pid, int64_t tid, int has_ts, double ts,
                        int has_dur, double dur, uint64_t args) {
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
  r.pid = pid, r.tid = tid, r.t = llround(t), r.name = (uint32_t)name;
  r.key = name_hash(nm, d->has_name ? d->enl : 9) ^ (args * 0x9e3779b97f4a7c15ULL);
  if (!d->n++ || r.t < d->t0) d->t0 = r.t;
  r.seq = ev;
  if (ph == 'X') {
    int64_t dn = llround(du);
    r.kind = 1, r.negdur = -dn;
    if ((rc = pcol_rowsort_add(d->q[0], &r))) return sorter_failed(c, rc);
    r.xts = r.t, r.t += dn;
    rc = pcol_rowsort_add(d->q[1], &r);
  } else {
    rc = pcol_rowsort_add(d->q[ph == 'E'], &r);
  }
  return rc ? sorter_failed(c, rc) : 0;
}

static int event(ctrace *c, size_t ev) {
  pcol_jpull *j = c->j;
  int rc;
  char ph[8] = "", nm[16] = "", id[40] = "";
  int64_t pid = -1, tid = -1;
  int has_ts = 0, has_dur = 0, has_tdur = 0;
  double ts = 0, dur = 0, tdur = 0;
  uint64_t args = 0; /* 0: none (absent, or as JavaScript's falsy values) */
  for (int p = 0; p < 3; p++)
    if ((rc = tmp_reset(c, p))) return rc;
  c->cstart = (vnum){0}, c->cend = (vnum){0};
  c->deltas_from = 0;
  c->d.has_name = 0;
  free(c->mname), c->mname = NULL;
  if (j->tok != PCOL_JT_OBJ) return pcol_jp_skip(j);
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    char *dst = NULL;
    size_t cap = 0;
    int64_t *num = NULL;
    double *dn = NULL;
    int *has = NULL;
    int is_args = pcol_jp_key_is(j, "args"), is_name = pcol_jp_key_is(j, "name");
    if (pcol_jp_key_is(j, "ph")) dst = ph, cap = sizeof ph;
    else if (is_name) dst = nm, cap = sizeof nm;
    else if (pcol_jp_key_is(j, "id")) dst = id, cap = sizeof id;
    else if (pcol_jp_key_is(j, "pid")) num = &pid;
    else if (pcol_jp_key_is(j, "tid")) num = &tid;
    else if (pcol_jp_key_is(j, "ts")) dn = &ts, has = &has_ts;
    else if (pcol_jp_key_is(j, "dur")) dn = &dur, has = &has_dur;
    else if (pcol_jp_key_is(j, "tdur")) dn = &tdur, has = &has_tdur;
    if ((rc = pcol_jp_next(j))) return rc;
    if (dn && (j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL)) {
      *has = 1, *dn = j->d;
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
      /* a longer name is none of the ones read here */
      if (j->len < cap) memcpy(dst, j->str, j->len + 1);
      else snprintf(dst, cap, "-");
      if (is_name) { /* the whole name, for a duration event */
        c->d.enl = 0;
        if (room(&c->d.ename, &c->d.encap, j->len + 1)) return pcol_oom(c->err);
        memcpy(c->d.ename, j->str, j->len + 1);
        c->d.enl = j->len, c->d.has_name = j->len > 0;
      }
    } else if (dst == id && j->tok == PCOL_JT_INT) {
      snprintf(id, sizeof id, "%" PRId64, j->i);
    } else if (num && j->tok == PCOL_JT_INT) {
      if (j->i < 0 || j->i > INT64_MAX / 2) return fail(c, ev, "pid or tid out of range");
      *num = j->i;
    } else {
      rc = pcol_jp_skip(j);
    }
    if (rc) return rc;
  }
  if (rc) return rc;
  if (strcmp(ph, "M") == 0) {
    if (c->mname && strcmp(nm, "thread_name") == 0) return add_name(c, pid, tid);
    if (c->mname && strcmp(nm, "process_name") == 0) return add_name(c, pid, -1);
    return 0;
  }
  if (strcmp(ph, "X") == 0 || strcmp(ph, "B") == 0) c->n_duration++;
  if ((strcmp(ph, "X") == 0 || strcmp(ph, "B") == 0 || strcmp(ph, "E") == 0) &&
      (rc = add_duration(c, ev, ph[0], pid, tid, has_ts, ts, has_dur || has_tdur, has_dur ? dur : tdur, args)))
    return rc;
  int whole = strcmp(nm, "CpuProfile") == 0;
  if (strcmp(nm, "Profile") != 0 && strcmp(nm, "ProfileChunk") != 0 && !whole) return 0;
  if (!whole && !*id) return fail(c, ev, "a Profile or ProfileChunk event without an id");
  char wid[32];
  if (whole) snprintf(wid, sizeof wid, "CpuProfile %zu", ev);
  cstream *s = stream_for(c, pid, whole ? wid : id, 1);
  if (!s && c->nst >= MAX_PROFILES) return fail(c, ev, "more than 4096 profiles");
  if (!s && errno != ENOMEM) /* tmpfile(): e.g. EMFILE, 3 open files a profile */
    return pcol_error_set(c->err, PCOL_EIO, "%s: traceEvents[%zu]: a temporary file for profile %zu: %s", c->name,
                          ev, c->nst + 1, strerror(errno));
  if (!s) return pcol_oom(c->err);
  /* the profiled thread: the Profile event's (chunks may come from the
   * sampler's thread) */
  if (strcmp(nm, "ProfileChunk") != 0 || s->tid < 0) s->tid = tid;
  return add_chunk(c, s, has_ts, ts);
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
      c->sample_form |= pcol_jp_key_is(j, "samples") | pcol_jp_key_is(j, "stackFrames") << 1;
      if ((rc = pcol_jp_next(j))) return rc;
      if (is_events && j->tok == PCOL_JT_ARR) {
        found = 1;
        while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END)
          if ((rc = event(c, ev++))) return rc;
      } else if ((rc = pcol_jp_skip(j))) {
        return rc;
      }
      if (rc) return rc;
    }
    if (rc) return rc;
    if (!found) return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: traceEvents: missing or not an array", c->name);
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

/* One profile: its V8 document into a temporary file, read by v8_import.c
 * as a source of type "chrome" labelled with its thread. */
/* Chunks by ts (ties in file order), as DevTools and speedscope order a
 * trace's events: a chunk's first delta counts from the sample before it
 * in that order. */
static int chunk_cmp(const void *a, const void *b) {
  const cchunk *x = *(const cchunk *const *)a, *y = *(const cchunk *const *)b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Part p (samples or deltas) of s into o, its chunks in ts order. */
static int append_sorted(ctrace *c, FILE *o, cstream *s, int p) {
  const cchunk **ord = malloc((s->nch ? s->nch : 1) * sizeof *ord);
  if (!ord) return pcol_oom(c->err);
  for (size_t i = 0; i < s->nch; i++) ord[i] = &s->ch[i];
  qsort(ord, s->nch, sizeof *ord, chunk_cmp);
  FILE *f = s->part[p];
  char buf[1 << 14];
  int first = 1, bad = fflush(f) != 0;
  for (size_t i = 0; i < s->nch && !bad; i++) {
    off_t left = ord[i]->len[p - 1];
    if (!left) continue;
    if (!first && putc(',', o) == EOF) bad = 1;
    first = 0;
    if (fseeko(f, ord[i]->at[p - 1], SEEK_SET)) bad = 1;
    while (!bad && left > 0) {
      size_t want = left < (off_t)sizeof buf ? (size_t)left : sizeof buf, k = fread(buf, 1, want, f);
      if (k != want || fwrite(buf, 1, k, o) != k) bad = 1;
      left -= (off_t)k;
    }
  }
  free(ord);
  return bad ? pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno)) : 0;
}

/* A thread's source URI, "FILE: THREAD (pid P, tid T)" ("FILE: pid P, tid
 * T" without a thread_name), and the labels of its samples: pid, tid, and
 * thread_name and process_name from the M events. */
static int thread_bits(ctrace *c, int64_t pid, int64_t tid, char **uri, uint32_t *ls) {
  const char *tname = name_of(c, pid, tid), *pname = name_of(c, pid, -1);
  int rc;
  *uri = NULL;
  if (tname && asprintf(uri, "%s: %s (pid %" PRId64 ", tid %" PRId64 ")", c->name, tname, pid, tid) < 0) *uri = NULL;
  else if (!tname && asprintf(uri, "%s: pid %" PRId64 ", tid %" PRId64, c->name, pid, tid) < 0) *uri = NULL;
  if (!*uri) return pcol_oom(c->err);
  uint32_t kp = 0, kt = 0, ktn = 0, kpn = 0, sv;
  pcol_label_row lab[4];
  size_t nl = 0;
  if (!(rc = pcol_b_cstr(c->b, "pid", &kp, c->err)) && !(rc = pcol_b_cstr(c->b, "tid", &kt, c->err)) &&
      !(rc = pcol_b_cstr(c->b, "thread_name", &ktn, c->err)))
    rc = pcol_b_cstr(c->b, "process_name", &kpn, c->err);
  lab[nl++] = (pcol_label_row){kp, 0, pid, 0};
  lab[nl++] = (pcol_label_row){kt, 0, tid, 0};
  if (!rc && tname && !(rc = pcol_b_cstr(c->b, tname, &sv, c->err))) lab[nl++] = (pcol_label_row){ktn, sv, PCOL_NA_I64, 0};
  if (!rc && pname && !(rc = pcol_b_cstr(c->b, pname, &sv, c->err))) lab[nl++] = (pcol_label_row){kpn, sv, PCOL_NA_I64, 0};
  if (!rc) rc = pcol_b_labelset(c->b, lab, nl, ls, c->err);
  return rc;
}

static int import_stream(ctrace *c, cstream *s, size_t k) {
  int rc;
  char where[96], *ename = NULL, *uri = NULL;
  FILE *doc = NULL;
  uint32_t ls = 0, src;
  if (*s->id && !s->start.present)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: profile %s of pid %" PRId64 ": no Profile event with its "
                          "startTime", c->name, s->id, s->pid);
  snprintf(where, sizeof where, "profile %s (pid %" PRId64 ", tid %" PRId64 ")", *s->id ? s->id : "", s->pid, s->tid);
  if (asprintf(&ename, "%s: %s", c->name, where) < 0) {
    ename = NULL;
    rc = pcol_oom(c->err);
    goto out;
  }
  /* the builder's refusals after the profile's name, as the profile's own
   * errors (pcol_v8_import_profile) have it */
  if ((rc = thread_bits(c, s->pid, s->tid, &uri, &ls))) {
    rc = pcol_error_in(c->err, rc, ename, 0);
    goto out;
  }
  if (!(doc = tmpfile())) {
    rc = pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
    goto out;
  }
  fputc('{', doc);
  if (s->start.present) fprintf(doc, "\"startTime\":%" PRId64 ",", s->start.v);
  if (s->end.present) fprintf(doc, "\"endTime\":%" PRId64 ",", s->end.v);
  for (int p = 0; p < 3; p++) {
    fprintf(doc, "%s\"%s\":[", p ? "," : "", PART_KEY[p]);
    if ((rc = p && s->unordered && !s->no_ts ? append_sorted(c, doc, s, p) : append_file(c, doc, s->part[p])))
      goto out;
    fputc(']', doc);
  }
  fputc('}', doc);
  if (fflush(doc) || fseeko(doc, 0, SEEK_SET)) {
    rc = pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, strerror(errno));
    goto out;
  }
  uint64_t lost[3] = {0, 0, 0};
  if ((rc = pcol_v8_import_profile(c->b, doc, ename, PCOL_SRC_CHROME, uri, ls, PCOL_V8_ORPHANS_AT_ROOT, c->opt,
                                   &src, lost, c->err)))
    goto out;
  char num[32];
  if (*s->id) rc = pcol_b_meta_str(c->b, src, "chrome.profile_id", s->id, c->err);
  static const char *const LOST_KEY[3] = {"chrome.lost_parents", "chrome.lost_samples", "chrome.lost_children"};
  for (int l = 0; l < 3; l++) { /* what lost nodes left (pcol info's meta) */
    c->lost[l] += lost[l];
    snprintf(num, sizeof num, "%" PRIu64, lost[l]);
    if (!rc && lost[l]) rc = pcol_b_meta_str(c->b, src, LOST_KEY[l], num, c->err);
  }
  snprintf(num, sizeof num, "%" PRIu64, c->n_duration);
  if (!rc && k == 0) rc = pcol_b_meta_str(c->b, src, "chrome.duration_events", num, c->err);
  rc = pcol_error_in(c->err, rc, ename, 0);
out:
  if (doc) fclose(doc);
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
  uint32_t front, n, cap;
  uint64_t *key;     /* per slot */
  uint32_t *name;    /* per slot */
  uint64_t *keys;    /* the group's distinct keys, ascending ... */
  uint32_t *names;   /* ... and names */
  uint32_t nk, nnm;
  uint32_t *kroot, *nroot; /* the heap of keys[i], names[i] */
  enode *h;          /* nodes 1..: 2 a slot (its key's, its name's) */
  uint32_t nh;
} egroup;

typedef struct dthread {
  int64_t pid, tid;
  uint32_t src, ls, vt; /* src 0: not made yet (at the first sample) */
  dframe *f;            /* the open frames, outermost first */
  size_t nf, capf;
  int64_t last;         /* ns: the stack's last change */
  egroup g;             /* the E queue's events at its first ts */
  uint64_t unmatched, open;
} dthread;

static int dur_next(ctrace *c, int q, drow *out, int *have) {
  const void *r;
  int rc = pcol_rowsort_next(c->d.q[q], &r);
  if (rc) return sorter_failed(c, rc);
  if ((*have = r != NULL)) memcpy(out, r, sizeof *out);
  return 0;
}

/* The time since the last change of the stack, as a sample of it. */
static int dur_flush(ctrace *c, dthread *th, int64_t t) {
  int rc;
  if (th->nf && t > th->last) {
    if (!th->src) {
      char *uri = NULL;
      uint32_t ty, un;
      if (!(rc = thread_bits(c, th->pid, th->tid, &uri, &th->ls)))
        rc = pcol_b_source(c->b, PCOL_SRC_CHROME, uri, PCOL_NA_I64, &th->src, c->err);
      free(uri);
      if (!rc && !(rc = pcol_b_cstr(c->b, PCOL_VT_WALL, &ty, c->err)) &&
          !(rc = pcol_b_cstr(c->b, PCOL_UNIT_NANOSECONDS, &un, c->err)) &&
          !(rc = pcol_b_value_type(c->b, ty, un, &th->vt, c->err)) &&
          !(rc = pcol_b_source_value_type(c->b, th->src, th->vt, c->err)))
        rc = pcol_b_meta_str(c->b, th->src, PPROF_META_DEFAULT_SAMPLE_TYPE, PCOL_VT_WALL, c->err);
      if (rc) return rc;
    }
    pcol_sample_row r = {th->src, th->last - c->d.t0, t - th->last, 1, PCOL_NA_I64, th->f[th->nf - 1].node, th->ls};
    pcol_value_row v = {th->vt, t - th->last};
    if ((rc = pcol_b_sample(c->b, &r, &v, 1, NULL, c->err))) return rc;
  }
  th->last = t;
  return 0;
}

static int dur_enter(ctrace *c, dthread *th, const drow *b, uint32_t *locs) {
  int rc;
  if ((rc = dur_flush(c, th, b->t))) return rc;
  if (!locs[b->name]) { /* the name's function and location, at its first use */
    pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
    pcol_line_row l = {0, PCOL_NA_I64, PCOL_NA_I64};
    const char *nm = c->d.nb + c->d.noff[b->name];
    if ((rc = pcol_b_string(c->b, nm, strlen(nm), &fn.name, c->err)) ||
        (rc = pcol_b_function(c->b, &fn, &l.function_id, c->err)) ||
        (rc = pcol_b_location(c->b, 0, 0, 0, &l, 1, &locs[b->name], c->err)))
      return rc;
  }
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
  ERESIZE(key, cap); ERESIZE(name, cap); ERESIZE(keys, cap); ERESIZE(names, cap);
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
 * that was there had the same key (or name): its node holds for it. */
static uint32_t dur_take_e(egroup *g, const dframe *top) {
  enode *h = g->h;
  uint32_t x = g->front, xn = g->name[x];
  uint64_t xk = g->key[x];
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
  g->key[i] = xk, g->name[i] = xn;
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
    int first_b = hb && (!he || b.pid < en.pid || (b.pid == en.pid && b.tid <= en.tid));
    th.pid = first_b ? b.pid : en.pid, th.tid = first_b ? b.tid : en.tid;
    th.src = 0, th.nf = 0, g->front = g->n = 0, th.last = INT64_MIN;
    for (;;) {
      int bin = hb && b.pid == th.pid && b.tid == th.tid;
      if (g->front == g->n && he && en.pid == th.pid && en.tid == th.tid) { /* the E queue's events at its next ts */
        g->front = g->n = 0, g->t = en.t;
        do {
          if (g->n == MAX_TIED_ENDS) {
            rc = pcol_error_set(c->err, PCOL_ETOOBIG, "%s: traceEvents[%" PRIu64 "]: more than %u E events (ph E, "
                                "or the end of a ph X) at one time (ts %.3f) of one thread (pid %" PRId64 ", tid %"
                                PRId64 "): pcol holds those in memory, at most %u (doc/mappings.md §14)", c->name,
                                en.seq, MAX_TIED_ENDS, (double)en.t / 1000, th.pid, th.tid, MAX_TIED_ENDS);
            goto out;
          }
          if ((rc = egroup_room(c, g))) goto out;
          g->key[g->n] = en.key, g->name[g->n++] = en.name;
          if ((rc = dur_next(c, 1, &en, &he))) goto out;
        } while (he && en.pid == th.pid && en.tid == th.tid && en.t == g->t);
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
      uint32_t name = dur_take_e(g, th.nf ? &th.f[th.nf - 1] : NULL);
      if (!th.nf || name != th.f[th.nf - 1].name) { /* speedscope: "Doing nothing instead" */
        th.unmatched++;
        continue;
      }
      if ((rc = dur_flush(c, &th, g->t))) goto out;
      th.nf--;
    }
    th.open += th.nf; /* closed at the last change (speedscope: no more time) */
  }
  *unmatched = th.unmatched, *open = th.open;
out:
  free(locs), free(th.f);
  free(g->key), free(g->name), free(g->keys), free(g->names), free(g->kroot), free(g->nroot), free(g->h);
  return rc;
}

/* The warning of nodes the trace lost (meta chrome.lost_*), naming what
 * pcol did with each kind there is. */
static void lost_warning(const ctrace *c, pcol_error *err) {
  static const char *const WHAT[3] = {
      " profile node%s whose parent is in no chunk, read as called from the root (as speedscope reads them)",
      " sample%s of a node in no chunk, kept with no stack (speedscope skips them)",
      " child id%s of no node, left out (as speedscope does)"};
  char m[512], part[160];
  size_t n = 0;
  for (int l = 0; l < 3; l++) {
    if (!c->lost[l]) continue;
    int k = snprintf(part, sizeof part, WHAT[l], c->lost[l] == 1 ? "" : "s");
    if (k < 0) continue;
    n += (size_t)snprintf(m + n, sizeof m - n, "%s%" PRIu64 "%s", n ? "; " : "", c->lost[l], part);
    if (n >= sizeof m) n = sizeof m - 1;
  }
  if (n) pcol_error_set(err, PCOL_OK, "%s: nodes lost from the trace: %s", c->name, m);
}

int pcol_import_chrome(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                       pcol_error *err) {
  ctrace c = {0};
  pcol_jpull j;
  c.b = b, c.name = name, c.err = err, c.j = &j, c.opt = opt;
  int rc = pcol_jp_open(&j, in, name, opt, PCOL_JP_BIG_INTS | PCOL_JP_OPEN_ARRAY, err);
  int opened = !rc;
  if (!rc) rc = read_doc(&c);
  if (opened) pcol_jp_close(&j);
  size_t used = 0;
  for (size_t i = 0; !rc && i < c.nst; i++)
    if (c.st[i].count[P_SAMPLES] || c.st[i].count[P_NODES]) rc = import_stream(&c, &c.st[i], used++);
  if (!rc && used) lost_warning(&c, err);
  /* no CPU profile: the duration events, as speedscope reads such a trace */
  if (!rc && !used && c.sample_form == 3) /* speedscope reads its samples, not its duration events */
    rc = pcol_error_set(err, PCOL_EFORMAT, "%s: a trace of \"samples\" and \"stackFrames\" (Hermes, React Native's "
                        "sampling profiler) without a CPU profile: a form pcol does not read (doc/mappings.md §14)", name);
  else if (!rc && !used && c.d.bad) rc = fail(&c, c.d.bad_ev, c.d.bad);
  else if (!rc && !used && c.d.n) {
    uint64_t unmatched = 0, open = 0;
    uint64_t before = pcol_b_sample_count(b);
    rc = import_durations(&c, &unmatched, &open);
    if (!rc && pcol_b_sample_count(b) == before)
      rc = pcol_error_set(err, PCOL_EFORMAT, "%s: a Chrome trace whose duration events (ph B/E, X) never "
                          "have a frame open for any time, and without a CPU profile", name);
    if (!rc && (unmatched || open))
      pcol_error_set(err, PCOL_OK, "%s: duration events: %" PRIu64 " E event%s matching no open B (left out, as "
                     "speedscope does), %" PRIu64 " frame%s still open at the end (closed there)", name, unmatched,
                     unmatched == 1 ? "" : "s", open, open == 1 ? "" : "s");
  } else if (!rc && !used)
    rc = pcol_error_set(err, PCOL_EFORMAT,
                        "%s: a Chrome trace without a CPU profile or duration events (no Profile/ProfileChunk or "
                        "CpuProfile events, no ph B/E or X; record with the disabled-by-default-v8.cpu_profiler "
                        "category)", name);
  for (size_t i = 0; i < c.nst; i++) {
    for (int p = 0; p < 3; p++)
      if (c.st[i].part[p]) fclose(c.st[i].part[p]);
    free(c.st[i].id);
    free(c.st[i].ch);
  }
  for (size_t i = 0; i < c.nnm; i++) free(c.nm[i].name);
  for (int p = 0; p < 3; p++)
    if (c.cur[p]) fclose(c.cur[p]);
  free(c.st), free(c.nm), free(c.mname);
  for (int q = 0; q < 2; q++) pcol_rowsort_free(c.d.q[q]);
  free(c.d.nb), free(c.d.noff), free(c.d.tab), free(c.d.ename);
  return rc;
}
