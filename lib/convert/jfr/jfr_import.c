/* jfr_import.c — a JDK Flight Recorder recording (.jfr, gzip or not) into a
 * builder: one source per sampled event type it holds (jdk.ExecutionSample,
 * jdk.NativeMethodSample, jdk.CPUTimeSample, jdk.ObjectAllocationSample,
 * jdk.ObjectAllocationInNewTLAB, jdk.ObjectAllocationOutsideTLAB, async-
 * profiler's profiler.WallClockSample and profiler.Malloc, and the lock
 * events jdk.JavaMonitorEnter and jdk.ThreadPark: contentions and their
 * delay), each
 * event a sample at its time since the recording's start (ticks turned
 * into ns by each chunk's ticks per second), its thread as labels
 * (thread_name, thread_id: Java's, tid: the OS's), its stack trace as
 * locations: a frame is a line of function `pkg.Class.method` (system name
 * with the descriptor), its line number and, as the line's column, its
 * bytecode index; execution samples have their CPU time, the period of the
 * jdk.ExecutionSample setting in force at their time (exec_periods), or
 * async-profiler's interval read by its event setting (ap_intervals: cpu
 * or wall); events of other types with a stack trace are counted in a
 * note (count_unread), and a file of which nothing is read warns;
 * "Inlined" frames join the inline chain of the next frame
 * out, and each location's mapping names its frame type (Interpreted, JIT
 * compiled, Native).  Allocation events carry their bytes as values and the
 * allocated class as a label.  JVM, OS and CPU information and the
 * recording's settings of the imported event types become source meta.
 * The chunk structure is read by jfr_read.c.  doc/mappings.md §16.
 *
 * The input is streamed a chunk at a time (issue 43; gzip or zstd inflated
 * as read, lib/core/instream.c): a chunk's constant pools and metadata are
 * at its end, so each chunk is in memory whole while its events are read,
 * then dropped.  Events are written per thread buffer, not in time order,
 * and the sources are per event type, so the samples go to a sorter
 * (lib/core/rowsort.c: runs in a temporary file past 8 MiB) with their
 * epoch times and come back by type, time and file order once the
 * recording's start (the earliest chunk's) is known. */
#include "jfr.h"
#include "keys.h"     /* PCOL_META_NOTE, JFR_META_PREFIX, JFR_META_SETTING, ... */
#include "error.h"    /* pcol_oom */
#include "srcname.h"  /* pcol_source_file_mark */
#include "buf.h"      /* pcol_buf_append, PCOL_GROW, pcol_buf_free, ... */
#include "hash.h"     /* pcol_u64map_get */
#include "instream.h" /* pcol_instream_open, pcol_instream_finish, ... */
#include "rowsort.h"  /* pcol_rowsort, pcol_rowsort_add, pcol_rowsort_each, ... */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include "truncated.h" /* pcol_b_truncated_stacks */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the sampled event types, in the order of their sources */
enum { EK_EXEC, EK_NATIVE, EK_CPUTIME, EK_ALLOC, EK_TLAB_IN, EK_TLAB_OUT, EK_WALL, EK_MALLOC, EK_LOCK, EK_PARK, EK_N };
/* a value field "" is the event's count (samples); a field whose ticks
 * bit is set is a duration in ticks, made ns by the chunk's clock */
static const struct {
  const char *event;
  const char *count;    /* the field of how many samples an event is (NULL: 1) */
  const char *field[2]; /* fields read as values (NULL: none) */
  const char *vt[2];    /* their value types */
  const char *unit[2];
  int dflt;  /* the default value: 0 samples, 1 or 2 the field */
  int ticks; /* bit v: field v is a duration in ticks */
  const char *cls, *cls_label; /* the class field read as a label, and its key (NULL: none) */
} KINDS[EK_N] = {
    {"jdk.ExecutionSample", NULL, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}, 0, 0, NULL, NULL},
    {"jdk.NativeMethodSample", NULL, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}, 0, 0, NULL, NULL},
    {"jdk.CPUTimeSample", NULL, {"samplingPeriod", NULL}, {JFR_VT_CPU_TIME, NULL}, {PCOL_UNIT_NANOSECONDS, NULL}, 1, 0,
     NULL, NULL},
    {"jdk.ObjectAllocationSample", NULL, {"weight", NULL}, {JFR_VT_ALLOC_WEIGHT, NULL}, {"bytes", NULL}, 1, 0,
     "objectClass", JFR_LABEL_CLASS},
    {"jdk.ObjectAllocationInNewTLAB", NULL, {"allocationSize", "tlabSize"}, {"allocationSize", "tlabSize"},
     {"bytes", "bytes"}, 2, 0, "objectClass", JFR_LABEL_CLASS},
    {"jdk.ObjectAllocationOutsideTLAB", NULL, {"allocationSize", NULL}, {"allocationSize", NULL}, {"bytes", NULL}, 1,
     0, "objectClass", JFR_LABEL_CLASS},
    /* async-profiler's own: wall-clock samples (an event may stand for
     * several samples of an idle thread) and native allocations */
    {"profiler.WallClockSample", "samples", {NULL, NULL}, {NULL, NULL}, {NULL, NULL}, 0, 0, NULL, NULL},
    {"profiler.Malloc", NULL, {"size", NULL}, {"size", NULL}, {"bytes", NULL}, 1, 0, NULL, NULL},
    /* blocking on a monitor and parking (the JDK's, and async-profiler's
     * lock profiles): each event one contention, its duration the delay,
     * as Pyroscope's converter names them (its mutex and block profiles) */
    {"jdk.JavaMonitorEnter", NULL, {"", "duration"}, {JFR_VT_CONTENTIONS, JFR_VT_DELAY},
     {PCOL_UNIT_COUNT, PCOL_UNIT_NANOSECONDS}, 2, 2, "monitorClass", JFR_LABEL_MONITOR},
    {"jdk.ThreadPark", NULL, {"", "duration"}, {JFR_VT_CONTENTIONS, JFR_VT_DELAY},
     {PCOL_UNIT_COUNT, PCOL_UNIT_NANOSECONDS}, 2, 2, "parkedClass", JFR_LABEL_PARKED},
};
/* events whose fields become source meta (the first of each kind met) */
static const char *const INFO[] = {"jdk.JVMInformation", "jdk.OSInformation", "jdk.CPUInformation"};
#define NINFO (sizeof INFO / sizeof INFO[0])

#define JFR_MAX_FIELDS 32 /* fields of an event read by name (the rest are skipped) */

/* a sample before the sort: its time in epoch ns on the chunk's clock
 * (T_NONE: none), made a time since the recording's start once the
 * earliest chunk is known */
typedef struct srow {
  __int128 t;
  int64_t n; /* samples */
  uint64_t seq;
  uint32_t stack, ls;
  int64_t v[2];
  uint32_t rec; /* the recording (jrec) */
  uint8_t kind;
} srow;
#define T_NONE (-((__int128)1 << 120)) /* below any clock_ns (|ticks x 1e9| < 2^94) */

/* where an event's time was found (for the message when it is out of range) */
typedef struct jat {
  __int128 t;
  uint64_t pos;
  unsigned chunk;
  int set;
} jat;

/* a frame type: its mapping and whether it is inlined into the next frame */
typedef struct ftype {
  uint32_t map;
  int inlined;
} ftype;

/* a thread's labels */
typedef struct jthread {
  uint32_t name; /* string id */
  int64_t id, tid;
  int has_id, has_tid;
} jthread;

/* A period setting of jdk.ExecutionSample or jdk.NativeMethodSample
 * (jdk.ActiveSetting "period"): its recording and event type, its time
 * (epoch ns; T_NONE: none), file order, the period in ns (> 0) or why it
 * gives none (period_ns), and its text for a note. */
typedef struct jper {
  __int128 t;
  uint64_t seq;
  int64_t ns;
  uint32_t rec;
  int kind;
  int ap; /* async-profiler's "interval" (ns, or a count of its event), not the JDK's "period" */
  char text[40];
} jper;
/* per recording; past it, no CPU time for that recording (a note says so).
 * The file's settings are bounded too (80 bytes each; the per-recording
 * caps x JFR_MAX_RECORDINGS would allow 1.3 GB): past the file's cap a
 * recording is treated as past its own. */
#define JFR_MAX_PERIODS 4096
#define JFR_MAX_PERIODS_FILE 262144
#define JFR_MAX_RECORDINGS 4096 /* joined in one file: past it, refused (each makes sources) */

typedef struct kmeta { /* a meta row of one recording's one kind's source (EK_N: all) */
  int kind;
  uint32_t rec, key, val;
} kmeta;

/* How ticks become times: a chunk's start in ticks and epoch ns. */
typedef struct jclock {
  int64_t start_nanos, start_ticks, tps;
  uint64_t md_id;
  int set;
} jclock;

/* One recording of the input (a file joined with `cat` holds several:
 * same_recording): its sources are made as its own file's are, so its
 * length adds to the others' as two files' do (review 10 F5).  The
 * execution (0) and native (1) samples' earliest and latest times. */
/* events of a type with a stack trace that is not read (a note names the
 * first JFR_UNREAD_TYPES types met, with their counts) */
#define JFR_UNREAD_TYPES 8
typedef struct junread {
  char name[64]; /* printable ASCII, '?' for other bytes; cut at 63 */
  uint64_t n;
} junread;

typedef struct jrec {
  int64_t base, end; /* its start (its earliest chunk's) and end, epoch ns */
  unsigned chunks, major, minor;
  jat tmin, tmax; /* the earliest and latest event times */
  uint64_t truncated[EK_N], count[EK_N];
  uint64_t cpu_lost; /* jdk.CPUTimeSamplesLost's lostSamples */
  /* the recorder's stack depth: the stackdepth of the JVM's option
   * FlightRecorderOptions (jdk.StringFlag), 0 when it does not say it (the
   * JDK's default, 64); depth_done: the flag was read (its first event) */
  int64_t stackdepth;
  int depth_done;
  int info_done[NINFO];
  __int128 ex_min[2], ex_max[2];
  int ex_timed[2], ex_untimed[2];
  size_t meta_lo, nmeta; /* its meta rows: x->meta[meta_lo, meta_lo + nmeta) */
  uint64_t meta_dropped; /* past JFR_MAX_META (or the file's cap) */
  size_t nper; /* its period settings kept */
  uint64_t per_over; /* past JFR_MAX_PERIODS (or the file's cap) */
  junread unread[JFR_UNREAD_TYPES];
  size_t nunread;
  /* async-profiler's settings: its "event" (jdk.ActiveRecording's;
   * printable, cut), and the "wall" interval of jdk.ExecutionSample (ns;
   * -1 none, 0 its default) for profiler.WallClockSample */
  char ap_event[24];
  int ap_has_event;
  int64_t ap_wall;
  uint64_t unread_more, unread_total; /* events of types past the list; all of them */
} jrec;

typedef struct jimp {
  jrd r;
  jclock clock;
  pcol_builder *b;
  jrec *recs, *R; /* the recordings; the one being read or emitted */
  size_t nrec, caprec;
  int64_t base; /* emit: R's start, epoch ns */
  pcol_rowsort *rows; /* the samples, sorted by recording, kind, time, file order */
  uint64_t nrows;
  /* emit: the source being filled */
  int cur_kind;
  uint32_t cur_rec;
  int64_t nsrc; /* the recording's sources made so far (pcol.recording_part) */
  int parts;    /* the recording makes several sources: they are numbered (spec.md §7) */
  uint32_t cur_src, cur_vt[3];
  size_t cur_nvt;
  int any;
  const char *input;   /* the input's name */
  pcol_buf src_name;   /* the recording's: the input's, "NAME (recording N)" past the first */
  int64_t span;
  ftype *ft;
  size_t nft, capft;
  jthread *th;
  size_t nth, capth;
  kmeta *meta;
  size_t nmeta, capmeta; /* (recording by recording, in file order) */
  /* the execution samples' periods (exec_periods): the settings, whether
   * every sample has one (per_on: a cpu value), the one period of them all
   * (0: they differ), the cursor of put_row and its end, the note; the
   * native samples' one period (nat_one, 0: none); of the recording R */
  jper *per;
  size_t nper, capper, per_at, per_end;
  int per_on;
  const char *per_vt; /* their value: cpu, or wall (async-profiler's event=wall) */
  /* async-profiler's profiler.WallClockSample: ns a sample (0: none), its
   * "wall" interval, else with event=wall its "interval" */
  int64_t wall_ns;
  int wall_dflt; /* wall_ns is async-profiler's default for an interval of 0 */
  int64_t per_one, nat_one;
  char per_note[320];
  uint32_t k_thread, k_tid, k_thread_id, k_state, k_cls[EK_N], u_count, u_ns;
  pcol_buf name; /* scratch for a function's name */
  pcol_buf sys;
  pcol_line_row *lines;
  size_t nlines, caplines;
  uint32_t *locs;
  size_t nlocs, caplocs;
  pcol_stack_memo memo; /* the last stack's nodes: pcol_b_stack_memo */
} jimp;

/* What the current chunk's classes are to the import. */
typedef struct jroles {
  uint32_t kind_ci[EK_N];
  int f_time[EK_N], f_thread[EK_N], f_stack[EK_N], f_state[EK_N], f_class[EK_N], f_val[EK_N][2],
      f_count[EK_N];
  uint32_t info_ci[NINFO], setting_ci, lost_ci, arec_ci, sflag_ci;
} jroles;

static int oom(jimp *x) { return pcol_oom(x->r.err); }
/* the sorter's failure: memory, or its temporary file */
static int rows_failed(jimp *x, int rc) {
  if (rc == PCOL_ENOMEM) return oom(x);
  return pcol_error_set(x->r.err, rc, "%s: JFR samples: a temporary file ($TMPDIR, else /tmp) could not be "
                        "written or read", x->r.name);
}

/* A pool entry (jfr_pool_at: its chunk, maybe an earlier one's, class and
 * index), and what it was made into per use (0: not yet); the fields of
 * its value are read in its chunk (e.k), with that chunk's classes. */
typedef jloc jref;
enum { USE_METHOD = 1, USE_FTYPE, USE_STACK, USE_THREAD, USE_NAME, USE_DOTTED };
static uint32_t memo(jref e, int use) {
  const jentry *p = &e.k->cls[e.ci].ent[e.idx];
  return p->use == use ? p->memo : 0;
}
static void memo_set(jref e, int use, uint32_t v) {
  jentry *p = &e.k->cls[e.ci].ent[e.idx];
  p->use = (uint8_t)use, p->memo = v;
}

/* The string field `fname` of the struct a constant-pool reference v names
 * (a Symbol's "string", a FrameType's "description"), or of the struct at
 * v's position, or v itself when it is a string: 1 and (s, n) in the
 * scratch buffer, 0 none (also past 8 structs in each other: a Symbol whose
 * "string" is a Symbol, maybe itself), < 0 an error. */
static int text_in(jimp *x, jchunk *k, const jv *v, const char *fname, const char **s, size_t *n,
                   int depth) {
  *s = "", *n = 0;
  if (depth > 8) return 0;
  if (v->kind == JV_STR || (v->kind == JV_CP && k->cls[v->cls].kind == JK_STRING))
    return jfr_string(&x->r, k, v, s, n);
  uint64_t pos = v->pos;
  uint32_t ci = v->cls;
  if (v->kind == JV_CP) {
    jloc at;
    if (!jfr_pool_at(&x->r, k, v->cls, (uint64_t)v->i, &at)) return 0;
    k = at.k, ci = at.ci, pos = at.pos; /* (maybe an earlier chunk's value) */
  } else if (v->kind != JV_STRUCT) {
    return 0;
  }
  int f = jfr_field(k, ci, fname);
  if (f < 0 || f >= JFR_MAX_FIELDS) return 0;
  jv fv[JFR_MAX_FIELDS];
  jcur c = jfr_cur(&x->r, k, pos);
  int rc = jfr_read_struct(&x->r, k, &c, ci, fv, JFR_MAX_FIELDS);
  if (rc) return rc;
  return text_in(x, k, &fv[f], fname, s, n, depth + 1);
}
static int text_of(jimp *x, jchunk *k, const jv *v, const char *fname, const char **s, size_t *n) {
  return text_in(x, k, v, fname, s, n, 0);
}

/* The struct a constant-pool reference names, read into fv: 1, or 0 when
 * the pool lacks it (null, as the JDK reads it), or 2 without reading it
 * when its entry (*e) already has a memo for `use` (0: none): what is
 * referenced by every event (a stack trace, a thread) is read once.  fv's
 * values are of e->k's classes (the chunk whose value the key has). */
static int pool_struct(jimp *x, jchunk *k, const jv *v, int use, jv *fv, jref *e) {
  if (v->kind != JV_CP || !jfr_pool_at(&x->r, k, v->cls, (uint64_t)v->i, e)) return 0;
  if (use && memo(*e, use)) return 2;
  jcur c = jfr_cur(&x->r, e->k, e->pos);
  int rc = jfr_read_struct(&x->r, e->k, &c, e->ci, fv, JFR_MAX_FIELDS);
  return rc ? rc : 1;
}

static const jv *fld(const jchunk *k, const jv *fv, uint32_t ci, const char *name) {
  static const jv none = {JV_NONE, 0, 0, 0, 0};
  int f = jfr_field(k, ci, name);
  return f >= 0 && f < JFR_MAX_FIELDS ? &fv[f] : &none;
}

/* ------------------------------------------------------------ frames */
/* A method as a function: "pkg.Class.method", system name with the
 * descriptor: the names `jfr print` gives frames. */
static int method_fn(jimp *x, jchunk *k, const jv *m, uint32_t *fid) {
  jv fv[JFR_MAX_FIELDS], cv[JFR_MAX_FIELDS];
  jref e, ce;
  const char *s;
  size_t n;
  int rc = pool_struct(x, k, m, USE_METHOD, fv, &e);
  if (rc < 0) return rc;
  if (rc == 0) { /* no such method */
    pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
    PCOL_RETURN_NOT_OK(pcol_b_cstr(x->b, "[unknown]", &f.name, x->r.err));
    PCOL_RETURN_NOT_OK(pcol_b_function(x->b, &f, fid, x->r.err));
    return PCOL_OK;
  }
  if (rc == 2) return *fid = memo(e, USE_METHOD) - 1, PCOL_OK;
  k = e.k; /* the method's fields are of its chunk */
  x->name.len = 0;
  const jv *type = fld(k, fv, e.ci, "type");
  if ((rc = pool_struct(x, k, type, 0, cv, &ce)) < 0) return rc;
  if (rc == 1) {
    if ((rc = text_of(x, ce.k, fld(ce.k, cv, ce.ci, "name"), "string", &s, &n)) < 0) return rc;
    if (pcol_buf_append(&x->name, s, n) || pcol_buf_append(&x->name, ".", 1)) return oom(x);
    for (size_t i = 0; i < x->name.len; i++)
      if (x->name.data[i] == '/') x->name.data[i] = '.'; /* internal form to Java's */
  }
  if ((rc = text_of(x, k, fld(k, fv, e.ci, "name"), "string", &s, &n)) < 0) return rc;
  if (pcol_buf_append(&x->name, s, n)) return oom(x);
  x->sys.len = 0;
  if (pcol_buf_append(&x->sys, x->name.data, x->name.len)) return oom(x);
  if ((rc = text_of(x, k, fld(k, fv, e.ci, "descriptor"), "string", &s, &n)) < 0) return rc;
  if (pcol_buf_append(&x->sys, s, n)) return oom(x);
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  PCOL_RETURN_NOT_OK(pcol_b_string(x->b, x->name.data ? (const char *)x->name.data : "", x->name.len,
                                   &f.name, x->r.err));
  PCOL_RETURN_NOT_OK(pcol_b_string(x->b, x->sys.data ? (const char *)x->sys.data : "", x->sys.len,
                                   &f.system_name, x->r.err));
  PCOL_RETURN_NOT_OK(pcol_b_function(x->b, &f, fid, x->r.err));
  memo_set(e, USE_METHOD, *fid + 1);
  return PCOL_OK;
}

/* A frame type by its description: its mapping (named so) and whether it
 * is "Inlined". */
static int frame_type(jimp *x, jchunk *k, const jv *t, ftype *out) {
  jref e;
  out->map = 0, out->inlined = 0;
  if (t->kind != JV_CP || !jfr_pool_at(&x->r, k, t->cls, (uint64_t)t->i, &e)) return PCOL_OK;
  if (memo(e, USE_FTYPE)) return *out = x->ft[memo(e, USE_FTYPE) - 1], PCOL_OK;
  const char *s;
  size_t n;
  int rc = text_of(x, k, t, "description", &s, &n);
  if (rc < 0) return rc;
  pcol_mapping_row mr = {0, 0, 0, 0, 0, PCOL_MAP_HAS_FUNCTIONS | PCOL_MAP_HAS_LINE_NUMBERS};
  ftype f = {0, n == 7 && !memcmp(s, "Inlined", 7)};
  PCOL_RETURN_NOT_OK(pcol_b_string(x->b, s, n, &mr.filename, x->r.err));
  PCOL_RETURN_NOT_OK(pcol_b_mapping(x->b, &mr, 1, &f.map, x->r.err));
  if (PCOL_GROW(x->ft, x->nft, x->capft) || x->nft >= UINT32_MAX - 1) return oom(x);
  x->ft[x->nft++] = f;
  memo_set(e, USE_FTYPE, (uint32_t)x->nft);
  *out = f;
  return PCOL_OK;
}

static int flush_location(jimp *x, uint32_t map) {
  uint32_t loc;
  PCOL_RETURN_NOT_OK(pcol_b_location(x->b, map, 0, 0, x->lines, x->nlines, &loc, x->r.err));
  if (PCOL_GROW(x->locs, x->nlocs, x->caplocs)) return oom(x);
  x->locs[x->nlocs++] = loc;
  x->nlines = 0;
  return PCOL_OK;
}

/* A stack trace as a stack: frames leaf first; inlined frames join the
 * next frame's location. */
static int stack_of(jimp *x, jchunk *k, const jv *st, int kind, uint32_t *stack) {
  jv fv[JFR_MAX_FIELDS], frv[JFR_MAX_FIELDS];
  jref e;
  *stack = 0;
  int rc = pool_struct(x, k, st, USE_STACK, fv, &e);
  if (rc <= 0) return rc;
  if (rc == 2) {
    x->R->truncated[kind] += e.k->cls[e.ci].ent[e.idx].flag;
    return *stack = memo(e, USE_STACK) - 1, PCOL_OK;
  }
  k = e.k; /* the stack trace's fields are of its chunk */
  const jv *tr = fld(k, fv, e.ci, "truncated");
  int truncated = tr->kind == JV_NUM && tr->i;
  x->R->truncated[kind] += (uint64_t)truncated;
  const jv *frames = fld(k, fv, e.ci, "frames");
  x->nlocs = x->nlines = 0;
  if (frames->kind == JV_ARR) {
    uint32_t fc = frames->cls;
    const jclass *sc = &k->cls[e.ci];
    if (k->cls[fc].kind != JK_STRUCT || k->fields[sc->f0 + (uint32_t)jfr_field(k, e.ci, "frames")].cp)
      return jfr_bad(&x->r, frames->pos, "stack frames are not structs in the stack trace");
    int f_m = jfr_field(k, fc, "method"), f_l = jfr_field(k, fc, "lineNumber"),
        f_b = jfr_field(k, fc, "bytecodeIndex"), f_t = jfr_field(k, fc, "type");
    jcur c = jfr_cur(&x->r, k, frames->pos);
    ftype last = {0, 0};
    for (int64_t i = 0; i < frames->i; i++) {
      if ((rc = jfr_read_struct(&x->r, k, &c, fc, frv, JFR_MAX_FIELDS))) return rc;
      static const jv none = {JV_NONE, 0, 0, 0, 0};
      const jv *m = f_m >= 0 && f_m < JFR_MAX_FIELDS ? &frv[f_m] : &none;
      const jv *l = f_l >= 0 && f_l < JFR_MAX_FIELDS ? &frv[f_l] : &none;
      const jv *bci = f_b >= 0 && f_b < JFR_MAX_FIELDS ? &frv[f_b] : &none;
      const jv *t = f_t >= 0 && f_t < JFR_MAX_FIELDS ? &frv[f_t] : &none;
      pcol_line_row lr = {0, PCOL_NA_I64, PCOL_NA_I64};
      if ((rc = method_fn(x, k, m, &lr.function_id)) || (rc = frame_type(x, k, t, &last))) return rc;
      if (l->kind == JV_NUM && l->i >= 0) lr.line = l->i;
      if (bci->kind == JV_NUM && bci->i >= 0) lr.column = bci->i;
      if (PCOL_GROW(x->lines, x->nlines, x->caplines)) return oom(x);
      x->lines[x->nlines++] = lr;
      if (!last.inlined && (rc = flush_location(x, last.map))) return rc;
    }
    /* inlined frames without a frame after them: a location of their own */
    if (x->nlines && (rc = flush_location(x, last.map))) return rc;
  }
  PCOL_RETURN_NOT_OK(pcol_b_stack_memo(x->b, &x->memo, x->locs, x->nlocs, stack, x->r.err));
  memo_set(e, USE_STACK, *stack + 1);
  k->cls[e.ci].ent[e.idx].flag = (uint8_t)truncated;
  return PCOL_OK;
}

/* ------------------------------------------------------------ labels */
/* A thread constant as `jfr print` reads it (as every constant: a key the
 * previous chunk's pool had is its value there, jfr_link_pools), made
 * into a thread once per entry. */
static int thread_of(jimp *x, jchunk *k, const jv *t, const jthread **out) {
  jv fv[JFR_MAX_FIELDS];
  jref e;
  const char *s;
  size_t n;
  *out = NULL;
  int rc = pool_struct(x, k, t, USE_THREAD, fv, &e);
  if (rc <= 0) return rc;
  if (rc == 2) return *out = &x->th[memo(e, USE_THREAD) - 1], PCOL_OK;
  k = e.k;
  jthread th = {0, 0, 0, 0, 0};
  if ((rc = text_of(x, k, fld(k, fv, e.ci, "javaName"), "", &s, &n)) < 0) return rc;
  if (rc == 0 && (rc = text_of(x, k, fld(k, fv, e.ci, "osName"), "", &s, &n)) < 0) return rc;
  if (rc == 1) PCOL_RETURN_NOT_OK(pcol_b_string(x->b, s, n, &th.name, x->r.err));
  const jv *id = fld(k, fv, e.ci, "javaThreadId"), *tid = fld(k, fv, e.ci, "osThreadId");
  th.has_id = id->kind == JV_NUM, th.id = id->i;
  th.has_tid = tid->kind == JV_NUM, th.tid = tid->i;
  if (PCOL_GROW(x->th, x->nth, x->capth) || x->nth >= UINT32_MAX - 1) return oom(x);
  x->th[x->nth++] = th;
  memo_set(e, USE_THREAD, (uint32_t)x->nth);
  *out = &x->th[x->nth - 1];
  return PCOL_OK;
}

/* A class's Java name ("java.lang.String", "[B" as the JDK names arrays)
 * or a thread state's name, as a string id (0: none). */
/* A class's name s[0..n) as `jfr print` shows it (the JDK's
 * ValueFormatter.formatClass): '.' for '/', and an array's descriptor as
 * its type, `[I` int[], `[[Ljava/lang/String;` java.lang.String[][].  A
 * descriptor that is not one (no element, an unknown letter, no ';' at the
 * end) keeps its bytes, '/' as '.'.  Appended to out. */
static int java_class_name(pcol_buf *out, const char *s, size_t n) {
  size_t d = 0;
  while (d < n && s[d] == '[') d++;
  const char *e = s + d, *word = NULL;
  size_t en = n - d, wn = 0;
  if (d && en == 1) { /* a primitive's letter */
    switch (*e) {
    case 'B': word = "byte"; break;
    case 'C': word = "char"; break;
    case 'D': word = "double"; break;
    case 'F': word = "float"; break;
    case 'I': word = "int"; break;
    case 'J': word = "long"; break;
    case 'S': word = "short"; break;
    case 'Z': word = "boolean"; break;
    }
    wn = word ? strlen(word) : 0;
  } else if (d && en > 2 && e[0] == 'L' && e[en - 1] == ';') {
    word = e + 1, wn = en - 2;
  }
  if (!word) word = s, wn = n, d = 0; /* a plain name, or not a descriptor */
  size_t at = out->len;
  if (pcol_buf_append(out, word, wn)) return PCOL_ENOMEM;
  for (size_t i = at; i < out->len; i++)
    if (out->data[i] == '/') out->data[i] = '.';
  for (size_t i = 0; i < d; i++)
    if (pcol_buf_append(out, "[]", 2)) return PCOL_ENOMEM;
  return PCOL_OK;
}

static int name_sid(jimp *x, jchunk *k, const jv *v, const char *field, int dots, uint32_t *sid) {
  jv fv[JFR_MAX_FIELDS];
  jref e;
  const char *s;
  size_t n;
  *sid = 0;
  if (v->kind == JV_STR) { /* a string in the event itself */
    int rc = jfr_string(&x->r, k, v, &s, &n);
    return rc == 1 ? pcol_b_string(x->b, s, n, sid, x->r.err) : rc < 0 ? rc : PCOL_OK;
  }
  int rc = pool_struct(x, k, v, dots ? USE_DOTTED : USE_NAME, fv, &e);
  if (rc <= 0) return rc;
  if (rc == 2) return *sid = memo(e, dots ? USE_DOTTED : USE_NAME) - 1, PCOL_OK;
  if ((rc = text_of(x, e.k, fld(e.k, fv, e.ci, field), "string", &s, &n)) < 0) return rc;
  if (rc == 1) {
    PCOL_RETURN_NOT_OK(pcol_b_string(x->b, s, n, sid, x->r.err));
    if (dots) { /* the class as jfr print names it */
      x->name.len = 0;
      if (java_class_name(&x->name, s, n)) return oom(x);
      if (x->name.len)
        PCOL_RETURN_NOT_OK(pcol_b_string(x->b, (const char *)x->name.data, x->name.len, sid, x->r.err));
    }
  }
  memo_set(e, dots ? USE_DOTTED : USE_NAME, *sid + 1);
  return PCOL_OK;
}

/* ------------------------------------------------------------ events */
static __int128 clock_ns(const jclock *c, int64_t ticks) {
  return ((__int128)ticks - c->start_ticks) * 1000000000 / c->tps + c->start_nanos;
}

/* The clock of chunk k: its own, or, as the JDK's reader does, that of the
 * chunk where the metadata last changed when k's metadata id is the same
 * (the JDK reuses that chunk's parsers), provided both chunks' clocks agree
 * within a millisecond (one JVM; chunks of other JVMs joined into one file
 * keep their own). */
static void chunk_clock(jimp *x, const jchunk *k) {
  jclock *c = &x->clock, own = {k->start_nanos, k->start_ticks, k->tps, k->md_id, 1};
  if (c->set && c->md_id == k->md_id && c->tps == k->tps) {
    __int128 d = clock_ns(c, k->start_ticks) - k->start_nanos;
    if (d > -1000000 && d < 1000000) return;
  }
  *c = own;
}

/* 1 when chunk k continues the recording of chunk p: the JDK starts a
 * chunk where the one before ended, on both clocks (a recording's chunks
 * have a gap of 0 ns between them, and their ticks agree with their nanos
 * within ~100 ns).  Only then does a key keep p's value (jfr_link_pools),
 * as the JDK's reader keeps it: a recording joined on with `cat` (another
 * JVM's, or another recording of one JVM) has keys of its own, which
 * `jfr print` of the joined file resolves in the recording before (it
 * names one program's methods by another's), and is read alone, as that
 * recording's own file is read (doc/mappings.md §16).  The clocks may
 * drift apart by up to 1 ms plus 0.1% of the time between the starts
 * (NTP slews the wall clock by at most 0.05%). */
static int same_recording(const jchunk *p, const jchunk *k) {
  if (!p || p->tps != k->tps || k->tps <= 0) return 0;
  __int128 gap = (__int128)k->start_nanos - ((__int128)p->start_nanos + p->duration_nanos);
  if (gap <= -1000000 || gap >= 1000000) return 0;
  __int128 dn = (__int128)k->start_nanos - p->start_nanos;
  __int128 d = ((__int128)k->start_ticks - p->start_ticks) * 1000000000 / k->tps - dn;
  __int128 tol = 1000000 + (dn < 0 ? -dn : dn) / 1000;
  return d > -tol && d < tol;
}

/* An event's time in epoch ns; the earliest and latest are kept to be
 * checked against the recording's start once every chunk is read. */
static void ticks_ns(jimp *x, int64_t ticks, uint64_t at, __int128 *out) {
  __int128 ns = *out = clock_ns(&x->clock, ticks);
  jat here = {ns, at, x->r.chunk_no, 1};
  if (!x->R->tmin.set || ns < x->R->tmin.t) x->R->tmin = here;
  if (!x->R->tmax.set || ns > x->R->tmax.t) x->R->tmax = here;
}

static int on_sample(jimp *x, jchunk *k, const jroles *ro, int kind, jcur *c, uint64_t at) {
  jv fv[JFR_MAX_FIELDS];
  uint32_t ci = ro->kind_ci[kind];
  int rc = jfr_read_struct(&x->r, k, c, ci, fv, JFR_MAX_FIELDS);
  if (rc) return rc;
  srow s;
  memset(&s, 0, sizeof s); /* (padding too: the rows go to a file) */
  s.t = T_NONE, s.n = 1, s.seq = x->nrows, s.kind = (uint8_t)kind, s.rec = (uint32_t)(x->nrec - 1);
  if (ro->f_count[kind] >= 0 && fv[ro->f_count[kind]].kind == JV_NUM) s.n = fv[ro->f_count[kind]].i;
  if (ro->f_time[kind] >= 0 && fv[ro->f_time[kind]].kind == JV_NUM) ticks_ns(x, fv[ro->f_time[kind]].i, at, &s.t);
  jrec *R = x->R;
  if (kind <= EK_NATIVE && s.t == T_NONE) R->ex_untimed[kind] = 1;
  if (kind <= EK_NATIVE && s.t != T_NONE) { /* (EK_EXEC 0, EK_NATIVE 1) */
    if (!R->ex_timed[kind] || s.t < R->ex_min[kind]) R->ex_min[kind] = s.t;
    if (!R->ex_timed[kind] || s.t > R->ex_max[kind]) R->ex_max[kind] = s.t;
    R->ex_timed[kind] = 1;
  }
  if (ro->f_stack[kind] >= 0 && (rc = stack_of(x, k, &fv[ro->f_stack[kind]], kind, &s.stack))) return rc;
  pcol_label_row lab[5];
  size_t nl = 0;
  memset(lab, 0, sizeof lab);
  const jthread *th = NULL;
  if (ro->f_thread[kind] >= 0 && (rc = thread_of(x, k, &fv[ro->f_thread[kind]], &th))) return rc;
  if (th && th->name) lab[nl].key = x->k_thread, lab[nl++].str = th->name;
  if (th && th->has_id) lab[nl].key = x->k_thread_id, lab[nl++].num = th->id;
  if (th && th->has_tid) lab[nl].key = x->k_tid, lab[nl++].num = th->tid;
  uint32_t sid;
  if (ro->f_state[kind] >= 0) {
    if ((rc = name_sid(x, k, &fv[ro->f_state[kind]], "name", 0, &sid))) return rc;
    if (sid) lab[nl].key = x->k_state, lab[nl++].str = sid;
  }
  if (ro->f_class[kind] >= 0) {
    if ((rc = name_sid(x, k, &fv[ro->f_class[kind]], "name", 1, &sid))) return rc;
    if (sid) lab[nl].key = x->k_cls[kind], lab[nl++].str = sid;
  }
  PCOL_RETURN_NOT_OK(pcol_b_labelset(x->b, lab, nl, &s.ls, x->r.err));
  for (int v = 0; v < 2; v++) {
    int f = ro->f_val[kind][v];
    if (KINDS[kind].field[v] && !*KINDS[kind].field[v]) s.v[v] = s.n; /* the count (contentions) */
    if (f < 0 || fv[f].kind != JV_NUM) continue;
    s.v[v] = fv[f].i;
    if (KINDS[kind].ticks >> v & 1) { /* a duration in ticks: ns, as jfr print shows it */
      __int128 ns = x->clock.tps > 0 ? (__int128)fv[f].i * 1000000000 / x->clock.tps : 0;
      s.v[v] = ns < 0 ? 0 : ns > INT64_MAX ? INT64_MAX : (int64_t)ns;
    }
  }
  if ((rc = pcol_rowsort_add(x->rows, &s))) return rows_failed(x, rc);
  x->nrows++;
  x->R->count[kind]++;
  return PCOL_OK;
}

/* at most this many settings and information fields are kept per
 * recording (each new one is looked for among the recording's before it),
 * and this many in the file (16 bytes each) */
#define JFR_MAX_META 1024
#define JFR_MAX_META_FILE 262144

static int add_meta(jimp *x, int kind, const char *key, size_t nkey, const char *val, size_t nval) {
  uint32_t ks, vs;
  jrec *R = x->R;
  if (R->nmeta == JFR_MAX_META || x->nmeta == JFR_MAX_META_FILE) return R->meta_dropped++, PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_b_string(x->b, key, nkey, &ks, x->r.err));
  PCOL_RETURN_NOT_OK(pcol_b_string(x->b, val, nval, &vs, x->r.err));
  uint32_t rec = (uint32_t)(x->nrec - 1);
  for (size_t i = R->meta_lo; i < x->nmeta; i++)
    if (x->meta[i].kind == kind && x->meta[i].key == ks) return PCOL_OK; /* the first one kept */
  if (PCOL_GROW(x->meta, x->nmeta, x->capmeta)) return oom(x);
  x->meta[x->nmeta].kind = kind, x->meta[x->nmeta].rec = rec, x->meta[x->nmeta].key = ks, x->meta[x->nmeta++].val = vs;
  R->nmeta++;
  return PCOL_OK;
}

/* A value's text for meta: strings, numbers, the string of a pool struct
 * with one (a Symbol, a ThreadState); 0 when it has none. */
static int meta_text(jimp *x, jchunk *k, const jv *v, char *num, size_t cap, const char **s, size_t *n) {
  if (v->kind == JV_NUM) return *n = (size_t)snprintf(num, cap, "%lld", (long long)v->i), *s = num, 1;
  if (v->kind == JV_DBL) return *n = (size_t)snprintf(num, cap, "%.17g", v->d), *s = num, 1;
  return text_of(x, k, v, "string", s, n);
}

/* jdk.JVMInformation & co: "jfr.JVMInformation.jvmVersion" = ... on every
 * source, from the first such event. */
static int on_info(jimp *x, jchunk *k, uint32_t ci, size_t which, jcur *c) {
  jv fv[JFR_MAX_FIELDS];
  int rc = jfr_read_struct(&x->r, k, c, ci, fv, JFR_MAX_FIELDS);
  if (rc || x->R->info_done[which]) return rc;
  x->R->info_done[which] = 1;
  const jclass *t = &k->cls[ci];
  for (uint32_t f = 0; f < t->nf && f < JFR_MAX_FIELDS; f++) {
    const char *fname = jfr_str(k, k->fields[t->f0 + f].name), *s;
    if (!strcmp(fname, "startTime") || !strcmp(fname, "duration") || !strcmp(fname, "eventThread") ||
        !strcmp(fname, "stackTrace"))
      continue;
    char num[32];
    size_t n;
    if ((rc = meta_text(x, k, &fv[f], num, sizeof num, &s, &n)) < 0) return rc;
    if (rc == 0) continue;
    /* the value is in the scratch buffer or num: copy it before the key */
    pcol_buf val = {0};
    if (pcol_buf_append(&val, s, n)) return oom(x);
    x->sys.len = 0;
    const char *ev = INFO[which] + 4; /* without "jdk." */
    int bad = pcol_buf_append(&x->sys, JFR_META_PREFIX, strlen(JFR_META_PREFIX)) ||
              pcol_buf_append(&x->sys, ev, strlen(ev)) || pcol_buf_append(&x->sys, ".", 1) ||
              pcol_buf_append(&x->sys, fname, strlen(fname));
    rc = bad ? oom(x) : add_meta(x, EK_N, (const char *)x->sys.data, x->sys.len, val.data ? (const char *)val.data : "", val.len);
    pcol_buf_free(&val);
    if (rc) return rc;
  }
  return PCOL_OK;
}

/* async-profiler's default intervals (ap_intervals): its DEFAULT_INTERVAL,
 * and the wall clock's, 5 times it */
enum { AP_DEFAULT_NS = 10000000, AP_WALL_DEFAULT_NS = 5 * AP_DEFAULT_NS };
/* Why a period setting gives no period (period_ns), and what a note says. */
enum { PER_OFF = 0, PER_CHUNK = -1, PER_NEVER = -2, PER_BAD = -3, PER_NEG = -4, PER_RANGE = -5, PER_SUBMS = -6,
       PER_APCOUNT = -8, PER_APNOEVENT = -9 };
static const char *per_why(int64_t ns) {
  switch (ns) {
  case PER_APCOUNT: return "a count of its event's occurrences, not a time";
  case PER_APNOEVENT: return "no \"event\" setting says what it counts";
  case PER_OFF: return "0, the sampler off";
  case PER_CHUNK: return "a chunk period, not a sampler's";
  case PER_NEVER: return "infinity, the sampler off";
  case PER_NEG: return "negative";
  case PER_RANGE: return "past 2^63 ns";
  case PER_SUBMS: return "not a whole number of milliseconds, the unit of the JVM's sampler (JDKs round it differently)";
  default: return "not a timespan";
  }
}

/* The sampling period of a jdk.ExecutionSample "period" setting, as the JDK
 * reads it (jdk.jfr.internal.Utils.parseTimespanWithInfinity: a Java long,
 * blanks around it, then a unit ns, us, ms, s, m, h or d; PeriodSetting's
 * everyChunk, beginChunk, endChunk; "infinity") and its sampler takes it
 * (whole milliseconds, jfrThreadSampler): ns > 0, or why none (PER_*).
 * What the JDK takes but would make a wrong time (a period of a fraction
 * of a millisecond, which JDKs round down to 0 or up to 1 ms, an overflow
 * it saturates) is none; digits other than ASCII are refused too. */
static int64_t period_ns(const char *s, size_t n) {
  static const struct { const char *u; int64_t mult; } U[] = {
      {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {"m", 60000000000},
      {"h", 3600000000000}, {"d", 86400000000000}};
  static const char *const CHUNK[] = {"everyChunk", "beginChunk", "endChunk"};
  for (size_t i = 0; i < 3; i++)
    if (n == strlen(CHUNK[i]) && !memcmp(s, CHUNK[i], n)) return PER_CHUNK;
  if (n == 8 && !memcmp(s, "infinity", 8)) return PER_NEVER;
  size_t u = 0, ul = 0;
  for (; u < sizeof U / sizeof U[0]; u++) /* the JDK's order: "ns" before "s" */
    if (n >= (ul = strlen(U[u].u)) && !memcmp(s + n - ul, U[u].u, ul)) break;
  if (u == sizeof U / sizeof U[0]) return PER_BAD;
  size_t a = 0, b = n - ul; /* String.trim: chars <= ' ' */
  while (a < b && (unsigned char)s[a] <= ' ') a++;
  while (b > a && (unsigned char)s[b - 1] <= ' ') b--;
  int neg = a < b && s[a] == '-';
  if (a < b && (s[a] == '-' || s[a] == '+')) a++;
  if (a == b) return PER_BAD;
  int64_t v = 0;
  int big = 0;
  for (size_t i = a; i < b; i++) {
    if (s[i] < '0' || s[i] > '9') return PER_BAD;
    if (v > (INT64_MAX - (s[i] - '0')) / 10) big = 1;
    else v = v * 10 + (s[i] - '0');
  }
  if (neg && (v || big)) return PER_NEG;
  if (big || v > INT64_MAX / U[u].mult) return PER_RANGE;
  v *= U[u].mult;
  if (v == 0) return PER_OFF;
  return v % 1000000 ? PER_SUBMS : v;
}

/* async-profiler's "interval" (and "wall") setting: a decimal integer
 * (ns for its timer events, a count for the others), >= 0, or PER_BAD. */
static int64_t ap_interval(const char *s, size_t n) {
  int64_t v = 0;
  if (!n) return PER_BAD;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return PER_BAD;
    if (v > (INT64_MAX - (s[i] - '0')) / 10) return PER_RANGE;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/* jdk.ActiveSetting (id: an event type id, name, value) of an imported
 * event type: "jfr.setting.period" = "10 ms" on that type's source; a
 * "period" of jdk.ExecutionSample or jdk.NativeMethodSample is kept with
 * its time too (kind_periods). */
static int on_setting(jimp *x, jchunk *k, const jroles *ro, uint32_t ci, jcur *c) {
  jv fv[JFR_MAX_FIELDS];
  int rc = jfr_read_struct(&x->r, k, c, ci, fv, JFR_MAX_FIELDS);
  if (rc) return rc;
  const jv *id = fld(k, fv, ci, "id");
  int kind = -1;
  for (int i = 0; i < EK_N && id->kind == JV_NUM; i++)
    if (ro->kind_ci[i] != UINT32_MAX && k->cls[ro->kind_ci[i]].id == (uint64_t)id->i) kind = i;
  int arec = ro->arec_ci != UINT32_MAX && id->kind == JV_NUM && k->cls[ro->arec_ci].id == (uint64_t)id->i;
  if (kind < 0 && !arec) return PCOL_OK;
  const char *s;
  size_t n;
  char num[32];
  if ((rc = meta_text(x, k, fld(k, fv, ci, "value"), num, sizeof num, &s, &n)) <= 0) return rc;
  pcol_buf val = {0};
  if (pcol_buf_append(&val, s, n)) return oom(x);
  if ((rc = meta_text(x, k, fld(k, fv, ci, "name"), num, sizeof num, &s, &n)) <= 0) {
    pcol_buf_free(&val);
    return rc;
  }
  if (arec) { /* async-profiler's own settings: its "event" says what its interval counts */
    if (n == 5 && !memcmp(s, "event", 5) && !x->R->ap_has_event) {
      size_t m = val.len < sizeof x->R->ap_event - 1 ? val.len : sizeof x->R->ap_event - 1;
      for (size_t i = 0; i < m; i++)
        x->R->ap_event[i] = val.data[i] > ' ' && val.data[i] < 127 ? (char)val.data[i] : '?';
      x->R->ap_event[m] = 0;
      x->R->ap_has_event = 1;
    }
    pcol_buf_free(&val);
    return PCOL_OK;
  }
  if (kind == EK_EXEC && n == 4 && !memcmp(s, "wall", 4) && x->R->ap_wall < 0) {
    int64_t w = ap_interval(val.data ? (const char *)val.data : "", val.len);
    x->R->ap_wall = w < 0 ? -1 : w;
  }
  int ap = kind == EK_EXEC && n == 8 && !memcmp(s, "interval", 8);
  if ((kind <= EK_NATIVE && n == 6 && !memcmp(s, "period", 6)) || ap) {
    if (x->R->nper == JFR_MAX_PERIODS || x->nper == JFR_MAX_PERIODS_FILE) {
      x->R->per_over++;
    } else if (PCOL_GROW(x->per, x->nper, x->capper)) {
      pcol_buf_free(&val);
      return oom(x);
    } else {
      jper *p = &x->per[x->nper];
      const jv *t = fld(k, fv, ci, "startTime");
      p->t = t->kind == JV_NUM ? clock_ns(&x->clock, t->i) : T_NONE;
      p->seq = x->nper++;
      x->R->nper++;
      p->rec = (uint32_t)(x->nrec - 1), p->kind = kind;
      p->ap = ap;
      p->ns = ap ? ap_interval(val.data ? (const char *)val.data : "", val.len)
                 : period_ns(val.data ? (const char *)val.data : "", val.len);
      size_t m = val.len < sizeof p->text - 1 ? val.len : sizeof p->text - 1;
      for (size_t i = 0; i < m; i++) /* for a note: printable ASCII */
        p->text[i] = val.data[i] >= ' ' && val.data[i] < 127 ? (char)val.data[i] : '?';
      p->text[m] = 0;
    }
  }
  x->sys.len = 0;
  int bad = pcol_buf_append(&x->sys, JFR_META_SETTING, strlen(JFR_META_SETTING)) ||
            pcol_buf_append(&x->sys, s, n);
  rc = bad ? oom(x) : add_meta(x, kind, (const char *)x->sys.data, x->sys.len, val.data ? (const char *)val.data : "", val.len);
  pcol_buf_free(&val);
  return rc;
}

/* The stackdepth=N of a FlightRecorderOptions value ("stackdepth=20",
 * "stackdepth=20,globalbuffersize=10M": options separated by ','): N when
 * a whole number from 1 to 2^31 - 1, else 0 (none, or not a depth). */
static int64_t stackdepth_of(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t e = i;
    while (e < n && s[e] != ',') e++;
    static const char key[] = "stackdepth=";
    size_t kl = sizeof key - 1;
    if (e - i > kl && !memcmp(s + i, key, kl)) {
      int64_t v = 0;
      for (size_t j = i + kl; j < e; j++) {
        if (s[j] < '0' || s[j] > '9' || v > (INT32_MAX - (s[j] - '0')) / 10) return 0;
        v = v * 10 + (s[j] - '0');
      }
      return v;
    }
    i = e + 1;
  }
  return 0;
}

/* jdk.StringFlag: the first FlightRecorderOptions of the recording gives
 * its stackdepth (R->stackdepth), which the JVM also cuts stack traces at
 * (the recording's `truncated` ones: pcol.stack_depth beside
 * pcol.truncated_stacks). */
static int on_flag(jimp *x, jchunk *k, uint32_t ci, jcur *c) {
  jv fv[JFR_MAX_FIELDS];
  int rc = jfr_read_struct(&x->r, k, c, ci, fv, JFR_MAX_FIELDS);
  if (rc || x->R->depth_done) return rc;
  const char *s;
  size_t n;
  char num[32];
  if ((rc = meta_text(x, k, fld(k, fv, ci, "name"), num, sizeof num, &s, &n)) <= 0) return rc;
  if (n != 21 || memcmp(s, "FlightRecorderOptions", 21)) return PCOL_OK;
  x->R->depth_done = 1;
  if ((rc = meta_text(x, k, fld(k, fv, ci, "value"), num, sizeof num, &s, &n)) <= 0) return rc;
  x->R->stackdepth = stackdepth_of(s, n);
  return PCOL_OK;
}

static int roles_of(jimp *x, jchunk *k, jroles *ro) {
  for (int i = 0; i < EK_N; i++) {
    uint32_t ci = ro->kind_ci[i] = jfr_class_by_name(k, KINDS[i].event);
    int *f[] = {&ro->f_time[i], &ro->f_thread[i], &ro->f_stack[i], &ro->f_state[i], &ro->f_class[i],
                &ro->f_val[i][0], &ro->f_val[i][1], &ro->f_count[i]};
    const char *names[] = {"startTime", "sampledThread", "stackTrace", "state", KINDS[i].cls,
                           KINDS[i].field[0], KINDS[i].field[1], KINDS[i].count};
    for (size_t j = 0; j < sizeof f / sizeof f[0]; j++) {
      *f[j] = names[j] && *names[j] && ci != UINT32_MAX ? jfr_field(k, ci, names[j]) : -1;
      if (*f[j] >= JFR_MAX_FIELDS) *f[j] = -1;
    }
    if (ro->f_thread[i] < 0 && ci != UINT32_MAX) ro->f_thread[i] = jfr_field(k, ci, "eventThread");
    if (ro->f_thread[i] >= JFR_MAX_FIELDS) ro->f_thread[i] = -1;
    /* the thread and the stack trace are references (a state or a class
     * may be a string too: async-profiler's states are) */
    if (ci != UINT32_MAX) {
      const jclass *t = &k->cls[ci];
      int refs[] = {ro->f_thread[i], ro->f_stack[i]};
      for (size_t j = 0; j < 2; j++)
        if (refs[j] >= 0 && (!k->fields[t->f0 + refs[j]].cp || k->fields[t->f0 + refs[j]].array))
          return jfr_bad(&x->r, k->start + k->md_off, "%s.%s is not a constant-pool reference",
                         KINDS[i].event, jfr_str(k, k->fields[t->f0 + refs[j]].name));
    }
  }
  for (size_t i = 0; i < NINFO; i++) ro->info_ci[i] = jfr_class_by_name(k, INFO[i]);
  ro->setting_ci = jfr_class_by_name(k, "jdk.ActiveSetting");
  ro->lost_ci = jfr_class_by_name(k, "jdk.CPUTimeSamplesLost");
  ro->arec_ci = jfr_class_by_name(k, "jdk.ActiveRecording");
  ro->sflag_ci = jfr_class_by_name(k, "jdk.StringFlag");
  return PCOL_OK;
}

/* An event of class ci at c that no role reads: counted when it has a
 * stack trace (its type has the field, and this event's is not null: the
 * JDK's types all have one, most events none).  Per class of the chunk:
 * sf[ci] its stackTrace field + 2 (0: not asked yet, 1: none), seen[ci]
 * 0 not listed yet, 1 + its place in the recording's list (1 +
 * JFR_UNREAD_TYPES: past it). */
static int count_unread(jimp *x, jchunk *k, uint32_t ci, jcur c, int32_t *sf, uint8_t *seen) {
  jrec *R = x->R;
  if (!sf[ci]) {
    int f = jfr_field(k, ci, "stackTrace");
    sf[ci] = f < 0 ? 1 : f + 2;
  }
  if (sf[ci] == 1) return PCOL_OK;
  int f = sf[ci] - 2;
  /* its fields before the stack trace, then that: a field that cannot be
   * read leaves the event uncounted, as the JDK skips event types it does
   * not know (the event is skipped by its size) */
  const jclass *t = &k->cls[ci];
  int rc = t->kind == JK_STRUCT ? PCOL_OK : PCOL_EFORMAT;
  for (int i = 0; !rc && i < f; i++) {
    const jfield *fd = &k->fields[t->f0 + (uint32_t)i];
    rc = jfr_skip(&x->r, k, &c, fd->cls, fd->cp, fd->array, 1);
  }
  int64_t key = 0;
  if (!rc) {
    const jfield *fd = &k->fields[t->f0 + (uint32_t)f];
    if (fd->cp && !fd->array) key = (int64_t)jfr_long(&c);
    if (c.bad) rc = PCOL_EFORMAT;
  }
  if (rc) { /* (the import's error is unset until here: cleared) */
    if (x->r.err) x->r.err->code = PCOL_OK, x->r.err->message[0] = 0;
    return PCOL_OK;
  }
  if (key == 0) return PCOL_OK; /* null: no stack trace */
  if (!seen[ci]) { /* its type's place in the recording's list */
    char name[sizeof R->unread[0].name];
    const char *cn = jfr_str(k, t->name);
    size_t m = 0;
    for (; cn && cn[m] && m + 1 < sizeof name; m++)
      name[m] = cn[m] > ' ' && cn[m] < 127 ? cn[m] : '?';
    name[m] = 0;
    size_t i = 0;
    while (i < R->nunread && strcmp(R->unread[i].name, name)) i++;
    if (i == R->nunread && i < JFR_UNREAD_TYPES) memcpy(R->unread[R->nunread++].name, name, m + 1);
    seen[ci] = (uint8_t)(1 + i);
  }
  R->unread_total++;
  if (seen[ci] - 1 < JFR_UNREAD_TYPES) R->unread[seen[ci] - 1].n++;
  else R->unread_more++;
  return PCOL_OK;
}

static int read_events_with(jimp *x, jchunk *k, const jroles *rop, int32_t *sf, uint8_t *seen) {
  const jroles ro = *rop;
  int rc;
  uint64_t pos = k->start + JFR_HEADER_SIZE, end = k->start + k->size;
  while (pos < end) {
    jcur c = jfr_cur(&x->r, k, pos);
    int64_t size = jfr_int(&c);
    if (c.bad || size <= 0 || (uint64_t)size > end - pos) return jfr_bad(&x->r, pos, "event size out of range");
    c.end = pos + (uint64_t)size;
    uint64_t type = jfr_long(&c);
    uint32_t ci;
    int added;
    if (c.bad) return jfr_bad(&x->r, pos, "event runs past its size");
    if (type > 1 && type != UINT64_MAX && !pcol_u64map_get(&k->ids, type, &ci, &added) && ci < k->ncls) {
      for (int i = 0; i < EK_N; i++)
        if (ci == ro.kind_ci[i] && (rc = on_sample(x, k, &ro, i, &c, pos))) return rc;
      for (size_t i = 0; i < NINFO; i++)
        if (ci == ro.info_ci[i] && (rc = on_info(x, k, ci, i, &c))) return rc;
      int known = ci == ro.setting_ci || ci == ro.lost_ci;
      for (int i = 0; i < EK_N; i++) known |= ci == ro.kind_ci[i];
      for (size_t i = 0; i < NINFO; i++) known |= ci == ro.info_ci[i];
      if (!known && (rc = count_unread(x, k, ci, c, sf, seen))) return rc;
      if (ci == ro.setting_ci && (rc = on_setting(x, k, &ro, ci, &c))) return rc;
      if (ci == ro.sflag_ci && !x->R->depth_done && (rc = on_flag(x, k, ci, &c))) return rc;
      if (ci == ro.lost_ci) { /* JDK 25: CPU time samples the JVM could not take */
        jv fv[JFR_MAX_FIELDS];
        if ((rc = jfr_read_struct(&x->r, k, &c, ci, fv, JFR_MAX_FIELDS))) return rc;
        const jv *n = fld(k, fv, ci, "lostSamples");
        if (n->kind == JV_NUM && n->i > 0 && x->R->cpu_lost <= UINT64_MAX - (uint64_t)n->i)
          x->R->cpu_lost += (uint64_t)n->i;
      }
    }
    pos += (uint64_t)size;
  }
  return PCOL_OK;
}

static int read_events(jimp *x, jchunk *k) {
  jroles ro;
  int rc = roles_of(x, k, &ro);
  if (rc) return rc;
  uint8_t *seen = calloc(k->ncls + 1, 1); /* count_unread */
  int32_t *sf = calloc(k->ncls + 1, sizeof *sf);
  rc = seen && sf ? read_events_with(x, k, &ro, sf, seen) : oom(x);
  free(seen);
  free(sf);
  return rc;
}

/* ------------------------------------------------------------ sources */
static int row_cmp(const void *a, const void *b) {
  const srow *p = a, *q = b;
  if (p->rec != q->rec) return p->rec < q->rec ? -1 : 1;
  if (p->kind != q->kind) return p->kind < q->kind ? -1 : 1;
  if (p->t != q->t) return p->t < q->t ? -1 : 1;
  return p->seq < q->seq ? -1 : p->seq > q->seq;
}

static int meta_i64(jimp *x, uint32_t src, const char *key, int64_t v) {
  char num[32];
  snprintf(num, sizeof num, "%lld", (long long)v);
  return pcol_b_meta_str(x->b, src, key, num, x->r.err);
}

/* The events of recording R with a stack trace that no source holds:
 * "jdk.JavaMonitorWait 12, jdk.ThreadStart 3, and 2 of other types" into
 * out (cut to cap). */
static void unread_text(const jrec *R, char *out, size_t cap) {
  size_t m = 0;
  out[0] = 0;
  for (size_t i = 0; i < R->nunread && m < cap; i++)
    m += (size_t)snprintf(out + m, cap - m, "%s%s %llu", i ? ", " : "", R->unread[i].name,
                          (unsigned long long)R->unread[i].n);
  if (R->unread_more && m < cap)
    snprintf(out + m, cap - m, ", and %llu of other types", (unsigned long long)R->unread_more);
}

/* The source of one event type (or, kind 0 when no type has samples, the
 * file's), its meta and value types: x->cur_*. */
static int open_source(jimp *x, int kind) {
  uint32_t src, *vt = x->cur_vt, sid, uid;
  size_t nvt = 0;
  int any = x->any;
  const jrec *R = x->R;
  pcol_error *err = x->r.err; /* the builder's own reason when it refuses */
  x->sys.len = 0;
  if (pcol_buf_append(&x->sys, x->src_name.data, x->src_name.len) ||
      (any && (pcol_buf_append(&x->sys, ": ", 2) || pcol_buf_append(&x->sys, KINDS[kind].event, strlen(KINDS[kind].event)))))
    return oom(x);
  int rc;
  if ((rc = pcol_b_cstr(x->b, PCOL_SRC_JFR, &sid, err)) ||
      (rc = pcol_b_string(x->b, x->sys.data, x->sys.len, &uid, err)) ||
      (rc = pcol_b_source_sid(x->b, sid, uid, x->base / 1000000000, &src, err)) ||
      (rc = pcol_source_file_mark(x->b, src, (const char *)x->src_name.data, x->src_name.len, (const char *)x->sys.data,
                                  x->sys.len, err)))
    return rc;
  x->nsrc++;
  if ((rc = meta_i64(x, src, PPROF_META_TIME_NANOS, x->base)) ||
      (rc = meta_i64(x, src, PPROF_META_DURATION_NANOS, x->span)) ||
      (rc = meta_i64(x, src, JFR_META_CHUNKS, R->chunks)) ||
      /* one recording of several sources: its sources' time counts once
       * (THE recording rule, spec.md §7; a lone source is no part, as
       * Chrome's, Perfetto's and OTLP's) */
      (x->parts && (rc = meta_i64(x, src, PCOL_META_RECORDING_PART, x->nsrc))))
    return rc;
  char ver[16];
  snprintf(ver, sizeof ver, "%u.%u", R->major, R->minor);
  if ((rc = pcol_b_meta_str(x->b, src, JFR_META_VERSION, ver, err)) ||
      (any && (rc = pcol_b_meta_str(x->b, src, JFR_META_EVENT, KINDS[kind].event, err))))
    return rc;
  if (!any && (rc = pcol_b_meta_str(x->b, src, PCOL_META_NOTE, "no execution, native, CPU time, wall-clock, allocation, lock or park samples in the recording", err)))
    return rc;
  if (x->nsrc == 1 && R->unread_total) { /* what was left out, once a recording */
    char list[640], note[768];
    unread_text(R, list, sizeof list);
    snprintf(note, sizeof note, "events with a stack trace of types pcol does not read (doc/mappings.md §16), not in any source: %s", list);
    if ((rc = pcol_b_meta_str(x->b, src, PCOL_META_NOTE, note, err))) return rc;
  }
  for (size_t i = R->meta_lo; i < R->meta_lo + R->nmeta; i++)
    if ((x->meta[i].kind == EK_N || x->meta[i].kind == kind) &&
        (rc = pcol_b_meta_sid(x->b, src, x->meta[i].key, x->meta[i].val, err)))
      return rc;
  if (R->meta_dropped) {
    char note[160];
    snprintf(note, sizeof note, "settings and JVM information of the recording past the first %d (%d in the file) not kept: %llu",
             JFR_MAX_META, JFR_MAX_META_FILE, (unsigned long long)R->meta_dropped);
    if ((rc = pcol_b_meta_str(x->b, src, PCOL_META_NOTE, note, err))) return rc;
  }
  if (kind == EK_CPUTIME && R->cpu_lost) {
    char note[128];
    snprintf(note, sizeof note, "CPU time samples the JVM lost (jdk.CPUTimeSamplesLost): %llu",
             (unsigned long long)R->cpu_lost);
    if ((rc = pcol_b_meta_str(x->b, src, PCOL_META_NOTE, note, err))) return rc;
  }
  if (kind == EK_EXEC && x->per_note[0] && (rc = pcol_b_meta_str(x->b, src, PCOL_META_NOTE, x->per_note, err)))
    return rc;
  if ((rc = pcol_b_truncated_stacks(x->b, src, R->truncated[kind], err)) ||
      (R->stackdepth > 0 && (rc = meta_i64(x, src, PCOL_META_STACK_DEPTH, R->stackdepth))))
    return rc;
  /* value types: samples, then the fields */
  if ((rc = pcol_b_cstr(x->b, PCOL_VT_SAMPLES, &sid, err)) ||
      (rc = pcol_b_value_type(x->b, sid, x->u_count, &vt[nvt], err)) ||
      (rc = pcol_b_source_value_type(x->b, src, vt[nvt], err)))
    return rc;
  nvt++;
  int cpu = kind == EK_EXEC && x->per_on;
  if (cpu) { /* the execution samples' CPU time (exec_periods) */
    if ((rc = pcol_b_cstr(x->b, x->per_vt, &sid, err)) ||
        (rc = pcol_b_value_type(x->b, sid, x->u_ns, &vt[nvt], err)) ||
        (rc = pcol_b_source_value_type(x->b, src, vt[nvt], err)))
      return rc;
    nvt++;
    if (x->per_one && ((rc = pcol_b_meta_str(x->b, src, PPROF_META_PERIOD_TYPE_TYPE, x->per_vt, err)) ||
                       (rc = pcol_b_meta_str(x->b, src, PPROF_META_PERIOD_TYPE_UNIT, PCOL_UNIT_NANOSECONDS, err)) ||
                       (rc = meta_i64(x, src, PPROF_META_PERIOD, x->per_one))))
      return rc;
  }
  /* the native samples stay counted (a thread in native code may be
   * blocked), each standing for the period they were taken at: the
   * source's period when one is in force for all of them (kind_periods),
   * wall time, as `pcol info`, the pprof export and the Rprof export's
   * sample.interval give it (review 10 F3: 10 ms ticks for 20 ms samples) */
  if (kind == EK_NATIVE && x->nat_one &&
      ((rc = pcol_b_meta_str(x->b, src, PPROF_META_PERIOD_TYPE_TYPE, PCOL_VT_WALL, err)) ||
       (rc = pcol_b_meta_str(x->b, src, PPROF_META_PERIOD_TYPE_UNIT, PCOL_UNIT_NANOSECONDS, err)) ||
       (rc = meta_i64(x, src, PPROF_META_PERIOD, x->nat_one))))
    return rc;
  /* async-profiler's wall-clock samples (with event=cpu,wall=...): each
   * the "wall" interval of jdk.ExecutionSample's settings */
  int wall = kind == EK_WALL && x->wall_ns > 0;
  if (wall) {
    if ((rc = pcol_b_cstr(x->b, PCOL_VT_WALL, &sid, err)) ||
        (rc = pcol_b_value_type(x->b, sid, x->u_ns, &vt[nvt], err)) ||
        (rc = pcol_b_source_value_type(x->b, src, vt[nvt], err)) ||
        (rc = pcol_b_meta_str(x->b, src, PPROF_META_PERIOD_TYPE_TYPE, PCOL_VT_WALL, err)) ||
        (rc = pcol_b_meta_str(x->b, src, PPROF_META_PERIOD_TYPE_UNIT, PCOL_UNIT_NANOSECONDS, err)) ||
        (rc = meta_i64(x, src, PPROF_META_PERIOD, x->wall_ns)))
      return rc;
    nvt++;
    if (x->wall_dflt &&
        (rc = pcol_b_meta_str(x->b, src, PCOL_META_NOTE,
                              R->ap_wall == 0 ? "async-profiler's wall interval setting is 0, its default: 50 ms"
                                              : "async-profiler's interval setting is 0 (event wall), its default: 50 ms",
                              err)))
      return rc;
  }
  for (int v = 0; v < 2 && KINDS[kind].vt[v]; v++) {
    if ((rc = pcol_b_cstr(x->b, KINDS[kind].vt[v], &sid, err)) ||
        (rc = pcol_b_cstr(x->b, KINDS[kind].unit[v], &uid, err)) ||
        (rc = pcol_b_value_type(x->b, sid, uid, &vt[nvt], err)) ||
        (rc = pcol_b_source_value_type(x->b, src, vt[nvt], err)))
      return rc;
    nvt++;
  }
  if ((rc = pcol_b_meta_str(x->b, src, PPROF_META_DEFAULT_SAMPLE_TYPE,
                            cpu ? x->per_vt : wall ? PCOL_VT_WALL : KINDS[kind].dflt ? KINDS[kind].vt[KINDS[kind].dflt - 1] : PCOL_VT_SAMPLES, err)))
    return rc;
  /* the recording's default, on each of its sources: the execution
   * samples' CPU time, as JMC's Method Profiling, async-profiler's
   * converter and `jfr view hot-methods` show CPU from them unless asked
   * for another event (also beside jdk.CPUTimeSample: JDK 25's CPU-time
   * sampler is off in default.jfc and profile.jfc, its own view is
   * `jfr view cpu-time-hot-methods`, and its cpu-time, a second measure of
   * the same time, counts 0 there); without them, the CPU-time samples' */
  const char *dv = R->count[EK_EXEC] && x->per_on ? x->per_vt : R->count[EK_CPUTIME] ? JFR_VT_CPU_TIME : NULL;
  if (any && dv && (rc = pcol_b_meta_str(x->b, src, PCOL_META_DEFAULT_VALUE, dv, err))) return rc;
  x->cur_kind = kind, x->cur_src = src, x->cur_nvt = nvt;
  return PCOL_OK;
}

static int open_rec(jimp *x, uint32_t ri);

/* A sample, in the sorted order: the recordings (open_rec) and their
 * sources open as their first sample comes (every type with samples has
 * one, in the order of KINDS). */
static int put_row(void *ctx, const void *row) {
  jimp *x = ctx;
  const srow *s = row;
  int rc;
  while (x->cur_rec != s->rec) /* (and the recordings before it without samples) */
    if ((rc = open_rec(x, x->cur_rec == UINT32_MAX ? 0 : x->cur_rec + 1))) return rc;
  if (s->kind != x->cur_kind && (rc = open_source(x, s->kind))) return rc;
  pcol_sample_row r = {x->cur_src, s->t == T_NONE ? PCOL_NA_I64 : (int64_t)(s->t - x->base), 0, 1, PCOL_NA_I64,
                       s->stack, s->ls};
  pcol_value_row val[3] = {{x->cur_vt[0], s->n}, {x->cur_vt[1], s->v[0]}, {x->cur_vt[2], s->v[1]}};
  if (s->kind == EK_EXEC && x->per_on) { /* the period in force (kind_periods), times n */
    while (x->per_at + 1 < x->per_end && x->per[x->per_at + 1].t <= s->t) x->per_at++;
    int64_t p = x->per[x->per_at].ns;
    val[1].value = s->n > 0 && p > INT64_MAX / s->n ? INT64_MAX : s->n * p;
  } else if (s->kind == EK_WALL && x->wall_ns > 0) { /* async-profiler's wall interval, times n */
    int64_t p = x->wall_ns;
    val[1].value = s->n > 0 && p > INT64_MAX / s->n ? INT64_MAX : s->n * p;
  }
  return pcol_b_sample(x->b, &r, val, x->cur_nvt, NULL, x->r.err);
}

/* An event time out of int64 ns from the recording's start (the earliest
 * chunk's): refused, naming the first such event in the file of the
 * earliest and the latest. */
static int times_in_range(jimp *x) {
  const jat *bad[2] = {NULL, NULL};
  const jrec *R = x->R;
  int nb = 0;
  if (R->tmin.set && R->tmin.t - x->base <= INT64_MIN) bad[nb++] = &R->tmin;
  if (R->tmax.set && R->tmax.t - x->base > INT64_MAX) bad[nb++] = &R->tmax;
  if (!nb) return PCOL_OK;
  const jat *e = bad[0];
  if (nb == 2 && (bad[1]->chunk < e->chunk || (bad[1]->chunk == e->chunk && bad[1]->pos < e->pos))) e = bad[1];
  x->r.chunk_no = e->chunk;
  return jfr_bad(&x->r, e->pos, "event time out of range");
}

static int per_cmp(const void *a, const void *b) {
  const jper *p = a, *q = b;
  if (p->rec != q->rec) return p->rec < q->rec ? -1 : 1;
  if (p->kind != q->kind) return p->kind < q->kind ? -1 : 1;
  if (p->t != q->t) return p->t < q->t ? -1 : 1;
  return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* The samples' periods of event type `kind` (jdk.ExecutionSample,
 * jdk.NativeMethodSample) in recording x->cur_rec: each sample's is the
 * period of its type's "period" setting in force at its time (the latest
 * jdk.ActiveSetting at or before it; before the first, the first: the JDK
 * writes the settings as a recording starts, at every chunk and when they
 * change, the values in force, which several recordings of one JVM share).
 * *on = 1 when every setting in force over the samples' times gives a
 * period (period_ns), else 0 and note says why; *one is the one period of
 * them all (0 when the period changed, also noted); [*lo, *hi) the
 * recording's settings of the type in x->per (sorted).  The notes are the
 * execution samples' (their cpu). */
static void kind_periods(jimp *x, int kind, int *on, int64_t *one, size_t *lo, size_t *hi, char *note, size_t cap) {
  const jrec *R = x->R;
  const char *ev = KINDS[kind].event;
  *on = 0, *one = 0, note[0] = 0;
  size_t a = 0, z = x->nper; /* the first of (cur_rec, kind) or after (x->per sorted) */
  while (a < z) {
    size_t m = a + (z - a) / 2;
    if (x->per[m].rec < x->cur_rec || (x->per[m].rec == x->cur_rec && x->per[m].kind < kind)) a = m + 1;
    else z = m;
  }
  size_t b = a;
  while (b < x->nper && x->per[b].rec == x->cur_rec && x->per[b].kind == kind) b++;
  *lo = a, *hi = b;
  if (!R->count[kind]) return;
  if (R->per_over) {
    snprintf(note, cap, "more than %d period settings of jdk.ExecutionSample and jdk.NativeMethodSample in the recording (or %d in the file): no CPU time, samples counted",
             JFR_MAX_PERIODS, JFR_MAX_PERIODS_FILE);
    return;
  }
  if (a == b) {
    snprintf(note, cap, "no period setting of %s (jdk.ActiveSetting): no CPU time, samples counted", ev);
    return;
  }
  size_t i0 = a, i1 = a; /* the settings in force over the samples: [i0, i1] */
  if (!R->ex_untimed[kind] && R->ex_timed[kind])
    while (i0 + 1 < b && x->per[i0 + 1].t <= R->ex_min[kind]) i0++;
  if (R->ex_timed[kind])
    while (i1 + 1 < b && x->per[i1 + 1].t <= R->ex_max[kind]) i1++;
  int64_t o = x->per[i0].ns;
  for (size_t i = i0; i <= i1; i++) {
    const jper *p = &x->per[i];
    if (p->ns <= 0 && p->ap) {
      snprintf(note, cap, "async-profiler's interval of %s \"%s\" (its event \"%s\"): %s; no time, samples counted",
               ev, p->text, R->ap_has_event ? R->ap_event : "", per_why(p->ns));
      return;
    }
    if (p->ns <= 0) {
      snprintf(note, cap, "%s period \"%s\": %s; no CPU time, samples counted", ev, p->text, per_why(p->ns));
      return;
    }
    if (p->ns != o) o = 0;
  }
  *on = 1, *one = o;
  if (!o) {
    size_t m = (size_t)snprintf(note, cap, "the %s period changed during the recording (", ev);
    int64_t last = 0;
    for (size_t i = i0, shown = 0; i <= i1 && m < cap; i++) {
      if (x->per[i].ns == last) continue;
      last = x->per[i].ns;
      if (++shown > 8) {
        m += (size_t)snprintf(note + m, cap - m, ", ...");
        break;
      }
      m += (size_t)snprintf(note + m, cap - m, "%s%lld ms", shown > 1 ? ", " : "", (long long)(last / 1000000));
    }
    if (m < cap) snprintf(note + m, cap - m, "): a sample's cpu is the period in force at its time");
  }
}

/* async-profiler's "interval" settings of recording R (x->cur_rec), made
 * periods by its "event" (its engines' start(): an interval of 0 is the
 * engine's default): cpu, itimer, ctimer: ns of CPU time (0: 10 ms, its
 * DEFAULT_INTERVAL, for all its versions; 1 returned); wall: ns of wall
 * time, each sample a period of a thread, running or not (0: 50 ms, its
 * wallClock.cpp's DEFAULT_INTERVAL * 5, in every version that writes its
 * settings, 2.0 on: 10 ms was 1.6's, before the settings; 1 returned);
 * another event (a perf counter, a traced method) counts occurrences:
 * none.  x->per_vt the value.  Its "wall" setting 0 (event=cpu,wall with
 * no interval) is that default too: x->wall_ns. */
static int ap_intervals(jimp *x, const jrec *R) {
  int def = 0, wall = R->ap_has_event && !strcmp(R->ap_event, "wall");
  int timer = R->ap_has_event && (!strcmp(R->ap_event, "cpu") || !strcmp(R->ap_event, "itimer") ||
                                  !strcmp(R->ap_event, "ctimer"));
  x->per_vt = wall ? PCOL_VT_WALL : PCOL_VT_CPU;
  x->wall_ns = R->ap_wall > 0 ? R->ap_wall : 0;
  for (size_t i = 0; i < x->nper; i++) {
    jper *p = &x->per[i];
    if (p->rec != x->cur_rec || !p->ap || p->ns < 0) continue;
    if (wall && p->ns > 0 && !x->wall_ns) x->wall_ns = p->ns; /* (async-profiler 3 on: the wall samples' events) */
    if (!R->ap_has_event) p->ns = PER_APNOEVENT;
    else if (!timer && !wall) p->ns = PER_APCOUNT;
    else if (p->ns == 0) p->ns = timer ? AP_DEFAULT_NS : AP_WALL_DEFAULT_NS, def = 1;
  }
  x->wall_dflt = !x->wall_ns && ((wall && def) || R->ap_wall == 0);
  if (x->wall_dflt) x->wall_ns = AP_WALL_DEFAULT_NS; /* (its wall samples' events) */
  return def;
}

/* Recording ri (x->recs[ri]) begins: its start, length, name and
 * periods; without samples, its one source (as its own file's). */
static int open_rec(jimp *x, uint32_t ri) {
  jrec *R = x->R = &x->recs[ri];
  x->cur_rec = ri, x->cur_kind = -1, x->nsrc = 0, x->base = R->base;
  int rc = times_in_range(x);
  if (rc) return rc;
  x->any = 0;
  int kinds = 0; /* its sources: one an event type with samples (put_row) */
  for (int kind = 0; kind < EK_N; kind++) x->any |= R->count[kind] != 0, kinds += R->count[kind] != 0;
  x->parts = kinds > 1;
  /* the recording's length, in int64 whatever the chunks' starts say */
  __int128 d = (__int128)R->end - R->base;
  x->span = d > INT64_MAX ? INT64_MAX : d < 0 ? 0 : (int64_t)d;
  x->src_name.len = 0;
  char nb[40];
  snprintf(nb, sizeof nb, " (recording %u)", ri + 1);
  if (pcol_buf_append(&x->src_name, x->input, strlen(x->input)) ||
      (ri && pcol_buf_append(&x->src_name, nb, strlen(nb))))
    return oom(x);
  size_t lo, hi;
  int on;
  int apdef = ap_intervals(x, R);
  kind_periods(x, EK_EXEC, &x->per_on, &x->per_one, &x->per_at, &x->per_end, x->per_note, sizeof x->per_note);
  if (apdef && x->per_on && !x->per_note[0])
    snprintf(x->per_note, sizeof x->per_note, "async-profiler's interval of jdk.ExecutionSample is 0, its default for its event \"%s\": %d ms", R->ap_event,
             (strcmp(R->ap_event, "wall") ? AP_DEFAULT_NS : AP_WALL_DEFAULT_NS) / 1000000);
  char nn[320];
  kind_periods(x, EK_NATIVE, &on, &x->nat_one, &lo, &hi, nn, sizeof nn);
  if (!on) x->nat_one = 0;
  return x->any ? PCOL_OK : open_source(x, 0);
}

/* One source per event type with samples (or one for the file when none
 * has any), in the order of KINDS, samples in time order; so for each
 * recording the file holds (a file joined with `cat`), in file order. */
static int emit(jimp *x) {
  if (x->nper) qsort(x->per, x->nper, sizeof *x->per, per_cmp); /* (NULL when none: UB to pass) */
  x->cur_rec = UINT32_MAX;
  int rc = pcol_rowsort_each(x->rows, put_row, x);
  if (rc) return rc == PCOL_EIO ? rows_failed(x, rc) : rc;
  while (!rc && (x->cur_rec == UINT32_MAX ? 0 : x->cur_rec + 1) < x->nrec)
    rc = open_rec(x, x->cur_rec == UINT32_MAX ? 0 : x->cur_rec + 1);
  return rc;
}

/* The input, a chunk at a time. */
typedef struct jsrc {
  FILE *s;
  uint8_t *buf;
  size_t cap;
  uint8_t *buf2; /* the chunk before's bytes (they trade places) */
  size_t cap2;
  uint64_t at; /* the input's bytes read before buf */
} jsrc;

/* Up to n more bytes into buf[have ..), growing it as they come (a chunk
 * that claims more than the input holds costs what the input holds):
 * the bytes read; PCOL_ENOMEM as -1. */
static int64_t src_more(jsrc *j, size_t have, uint64_t n) {
  uint64_t got = 0;
  while (got < n) {
    if (have + got == j->cap) {
      size_t nc = j->cap < ((size_t)1 << 20) ? (size_t)1 << 20 : j->cap * 2;
      if (nc <= j->cap) return -1;
      uint8_t *b = realloc(j->buf, nc);
      if (!b) return -1;
      j->buf = b, j->cap = nc;
    }
    size_t room = j->cap - (size_t)(have + got);
    if (room > n - got) room = (size_t)(n - got);
    size_t k = fread(j->buf + have + got, 1, room, j->s);
    got += k;
    if (k < room) break;
  }
  return (int64_t)got;
}

/* The input's bytes left (read and dropped): for the message about a
 * chunk whose header is refused. */
static uint64_t src_rest(jsrc *j) {
  uint8_t tmp[65536];
  uint64_t n = 0;
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, j->s)) > 0) n += k;
  return n;
}

static uint64_t be64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | p[i];
  return v;
}

/* The next chunk into j->buf and x->r (data, org, len), its header in *k
 * read and checked (*more = 1), or the input's end (*more = 0): PCOL_OK or
 * an error. */
static int next_chunk(jimp *x, jsrc *j, jchunk *k, int *more) {
  int64_t h = src_more(j, 0, JFR_HEADER_SIZE);
  *more = h > 0;
  if (h < 0) return oom(x);
  if (h == 0) return PCOL_OK;
  x->r.org = j->at, x->r.len = j->at + (uint64_t)h;
  if (h == JFR_HEADER_SIZE) {
    uint64_t size = be64(j->buf + 8);
    unsigned major = (unsigned)j->buf[4] << 8 | j->buf[5];
    if (!memcmp(j->buf, "FLR\0", 4) && (major == 1 || major == 2) && size >= JFR_HEADER_SIZE) {
      int64_t got = src_more(j, JFR_HEADER_SIZE, size - JFR_HEADER_SIZE);
      if (got < 0) return oom(x);
      x->r.len += (uint64_t)got;
    } else if (size < JFR_HEADER_SIZE) { /* refused: the message says how many bytes are left */
      x->r.len += src_rest(j);
    }
  }
  x->r.data = j->buf; /* (src_more may have moved it) */
  /* every value read or skipped counts, against 16 x the input's bytes so
   * far (nested empty structs cost no bytes) */
  x->r.work_max = 16 * x->r.len + ((uint64_t)1 << 20);
  return jfr_chunk_header(&x->r, j->at, k);
}

int pcol_import_jfr(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                    pcol_error *err) {
  if (!b || !in) return pcol_error_set(err, PCOL_EINVAL, "pcol_import_jfr: NULL argument");
  if (!name) name = "<jfr>";
  pcol_instream *o = NULL;
  jsrc j = {NULL, NULL, 0, NULL, 0, 0};
  int rc = pcol_instream_open(&o, in, name, opt, &j.s, err);
  if (rc) return rc;
  jimp x;
  memset(&x, 0, sizeof x);
  x.b = b;
  x.input = name;
  x.r.name = name, x.r.err = err;
  if ((rc = pcol_rowsort_new(&x.rows, sizeof(srow), row_cmp))) rc = oom(&x);
  const struct { const char *s; uint32_t *id; } keys[] = {
      {"thread_name", &x.k_thread}, {"thread_id", &x.k_thread_id}, {"tid", &x.k_tid},
      {JFR_LABEL_STATE, &x.k_state},
      {PCOL_UNIT_COUNT, &x.u_count}, {PCOL_UNIT_NANOSECONDS, &x.u_ns}};
  for (size_t i = 0; !rc && i < sizeof keys / sizeof *keys; i++) rc = pcol_b_cstr(b, keys[i].s, keys[i].id, err);
  for (int i = 0; !rc && i < EK_N; i++)
    if (KINDS[i].cls_label) rc = pcol_b_cstr(b, KINDS[i].cls_label, &x.k_cls[i], err);
  /* chunk by chunk: each is whole in memory while it is read (its pools
   * and metadata are at its end); the recording starts at the earliest */
  /* each chunk on the heap: the one before is kept while the next is read
   * (jfr_link_pools compares their pools), and any whose values a later
   * chunk's keys take (linked entries) until nothing links to it */
  jchunk *k = NULL, *prev = NULL;
  unsigned chunks = 0;
  while (!rc) {
    x.r.chunk_no = chunks + 1;
    int more;
    if (!(k = calloc(1, sizeof *k))) {
      rc = oom(&x);
      break;
    }
    rc = next_chunk(&x, &j, k, &more); /* (sets every field of k) */
    k->refs = 1;
    if (rc || !more) {
      if (!rc && !chunks) rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: empty input, no JFR chunk in it", name);
      break;
    }
    chunks++;
    /* a chunk that does not continue the one before begins a recording
     * (joined on with `cat`), which starts at its earliest chunk */
    int same = same_recording(prev, k);
    if (!same && x.nrec == JFR_MAX_RECORDINGS) {
      rc = jfr_bad(&x.r, k->start, "more than %d recordings (chunks that do not follow the one before)", JFR_MAX_RECORDINGS);
      jfr_chunk_release(k), k = NULL;
      break;
    }
    if (!same) {
      if (PCOL_GROW(x.recs, x.nrec, x.caprec)) {
        rc = oom(&x);
        jfr_chunk_release(k), k = NULL;
        break;
      }
      memset(&x.recs[x.nrec], 0, sizeof x.recs[x.nrec]);
      x.recs[x.nrec].major = k->major, x.recs[x.nrec].minor = k->minor;
      x.recs[x.nrec].base = k->start_nanos, x.recs[x.nrec].end = INT64_MIN;
      x.recs[x.nrec].meta_lo = x.nmeta;
      x.recs[x.nrec].ap_wall = -1;
      x.nrec++;
    }
    jrec *R = x.R = &x.recs[x.nrec - 1];
    R->chunks++;
    if (k->start_nanos < R->base) R->base = k->start_nanos;
    int64_t e = k->duration_nanos > 0 && k->start_nanos <= INT64_MAX - k->duration_nanos ? k->start_nanos + k->duration_nanos : k->start_nanos;
    if (e > R->end) R->end = e;
    k->bytes = x.r.data; /* (the reader's buffer; k->start is x.r.org) */
    rc = jfr_chunk_read(&x.r, k);
    if (!rc) rc = jfr_link_pools(&x.r, k, same ? prev : NULL);
    if (!rc) chunk_clock(&x, k);
    if (!rc) rc = read_events(&x, k);
    j.at += k->size;
    /* the chunk before leaves its buffer, which the next chunk is read
     * into: a copy of it if k's entries link to it */
    if (!rc && prev && prev->refs > 1 && jfr_chunk_keep(prev)) rc = oom(&x);
    jfr_chunk_release(prev);
    prev = k, k = NULL;
    uint8_t *tb = j.buf;
    size_t tc = j.cap;
    j.buf = j.buf2, j.cap = j.cap2, j.buf2 = tb, j.cap2 = tc;
  }
  jfr_chunk_release(k);
  jfr_chunk_release(prev);
  int orc = pcol_instream_finish(o, rc, err); /* the stream's own error wins */
  if (orc) rc = orc;
  if (!rc) rc = emit(&x);
  /* nothing read: an empty profile, said as a warning (the warning rule),
   * naming what the recording held instead (review 21 F2) */
  uint64_t unread = 0;
  int none = !rc && x.nrows == 0;
  for (size_t i = 0; none && i < x.nrec; i++) unread += x.recs[i].unread_total;
  if (none) {
    char list[640] = "";
    for (size_t i = 0; i < x.nrec && !list[0]; i++)
      if (x.recs[i].unread_total) unread_text(&x.recs[i], list, sizeof list);
    if (unread)
      pcol_error_set(err, PCOL_OK, "%s: no samples: its %llu events with a stack trace are of types pcol does not "
                     "read (%s%s)", name, (unsigned long long)unread, list, x.nrec > 1 ? ", in the first recording with such events" : "");
    else
      pcol_error_set(err, PCOL_OK, "%s: no samples: no execution, native, CPU time, wall-clock, allocation, lock or "
                     "park events in the recording", name);
  }
  pcol_instream_free(o);
  free(j.buf);
  free(j.buf2);
  pcol_rowsort_free(x.rows);
  free(x.ft);
  free(x.th);
  free(x.meta);
  free(x.per);
  free(x.recs);
  pcol_buf_free(&x.src_name);
  free(x.lines);
  free(x.locs);
  pcol_stack_memo_free(&x.memo);
  pcol_buf_free(&x.name);
  pcol_buf_free(&x.sys);
  pcol_buf_free(&x.r.sbuf);
  return rc;
}
