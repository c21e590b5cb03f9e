/* speedscope_import.c — a speedscope file
 * (https://www.speedscope.app/file-format-schema.json) into a builder: its
 * profiles become sources (source_uri "<file>: <profile name>", or the URI
 * of the source pcol exported).
 *
 * Frames (shared.frames: name, file, line, col) become functions and
 * locations.  A "sampled" profile's samples (frame indices, root first)
 * become samples in file order, the ones pcol writes for one source
 * ("URI: TYPE", the same samples) one sample with a value per profile; an
 * "evented" profile's open/close events become one sample per stretch of
 * time with a non-empty stack: time = the stretch's start, duration = its
 * length (a long sample), in an interval source (meta pcol.intervals, as a
 * Chrome trace's stretches: mark_intervals).  The "URI: timeline" pcol writes right after a
 * source's sampled profiles is no source of its own (its samples would be
 * counted twice): its pcolTimes/pcolDurations (pcol's own keys) are their
 * samples' times and durations, else its stretches when they line up one
 * to one, else it is left out; its pcolThreads each sample's thread, one
 * of the source's timelines ("URI: timeline (THREAD)", one a thread),
 * whose pcolThread is that thread's labels (tid, comm, ...: the samples'
 * label set; a single timeline's, every sample's).  pcolStart/pcolDuration on a source's first
 * sampled profile are its start and duration (spec.md §7),
 * pcolRecordingPart its pcol.recording_part, pcolInterval its sampling
 * interval (pcol.interval_ns: THE interval rule), pcolDefaultSampleType its
 * pprof.default_sample_type and pcolDefaultValue its pcol.default_value
 * (format/keys.h).
 * Values: the unit "none" is a count, ("samples", "count") and the weight;
 * time units are scaled to nanoseconds, bytes stay bytes, with weight 1.
 * The value type's name is the profile name's last ": " part when pcol
 * wrote it that way ("x.out: cpu"), else "samples", "wall" or "space";
 * the weight is the value of a "none" profile, else 1.  The profile of
 * activeProfileIndex (the one speedscope opens on) names the default type
 * of its source (meta pprof.default_sample_type, lib/core/count.c).
 * Weights are rounded to integers (half away from zero), but a profile
 * whose values (weights, or an evented profile's times) the stored unit
 * cannot hold exactly keeps them in the decimal unit of its own: "1e-D"
 * (type "count") for "none" with a fraction, "1e-D bytes", and "1e-D
 * milliseconds" for a time past 2^63 ns or with a fraction of a ns
 * (values_decimals); a value that grid does not hold to six significant
 * digits is rounded to it with one warning, or refused when that changes
 * its value type's total by more than a millionth (THE kept rule over the
 * file, pcol_kept_verdict: kept).  An
 * evented profile's times count from startValue, any number (speedscope
 * subtracts it); one that is no number refuses the profile.  A profile in
 * a unit of time whose endValue - startValue is past what it holds (an
 * idle gap in speedscope's flame chart) lasts that long (idle_gap).
 * The document is read as a stream (lib/convert/json_pull.c), its keys in
 * any order (py-spy writes "profiles" before "shared"): frames straight into
 * the builder, each profile into compact arrays (a sample's stack as a node
 * of a private tree of frame indices, its weights, an evented profile's
 * stretches), turned into samples at the end in the order and with the
 * checks of an importer that reads the document whole.  doc/mappings.md §11. */
#include "speedscope.h"
#include <math.h>

#include "speedscope.h"
#include "keys.h"     /* PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL, PCOL_UNIT_COUNT, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_error_in, pcol_oom */
#include "srcname.h"  /* pcol_source_file_mark */
#include "builder.h"  /* pcol_b_source_n */
#include "buf.h"      /* PCOL_GROW */
#include "hash.h"     /* pcol_u64map, pcol_u64map_free, pcol_u64map_get */
#include "count.h"    /* pcol_decimals_for */
#include "truncated.h" /* pcol_b_truncated_stacks */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NOTARR = UINT32_MAX, BADFRAME = UINT32_MAX - 1 }; /* a sample that is no stack */

typedef struct tnode { uint32_t parent, frame; } tnode; /* a stack of frame indices */

typedef struct stretch { /* an evented profile's stretch [t0, t1) with a non-empty stack */
  uint32_t stack;         /* tree node */
  size_t ev;              /* the event that ends it */
  double t0, t1;
} stretch;

typedef struct brk { size_t ev; uint32_t frame; } brk; /* an event whose frame index beats the ones before */

/* a label of pcolThread: key and string value (str NULL: the number num) */
enum { THR_MAX = 8 }; /* labels of a thread read (pcol writes at most 5) */
typedef struct tlab {
  char *key, *str;
  size_t keyl, strl;
  int64_t num;
} tlab;

typedef struct sprof {
  int is_obj, type_str, name_str, unit_str;
  char *type, *name, *unit;
  size_t namel; /* name's length: a name holds NUL (\u0000) as speedscope keeps it */
  double start; /* startValue (0 when absent), any number, as speedscope: an evented profile's times count from it */
  int start_bad; /* a startValue that is no number: an evented profile's times are refused (speedscope's NaN) */
  double end;   /* endValue, when has_end (a finite number): speedscope's total is at least endValue - startValue */
  int has_end;
  int samples_kind, weights_kind, events_kind; /* 0 absent, 1 an array, 2 something else */
  uint32_t *samples; size_t ns, capns;         /* tree nodes, or NOTARR/BADFRAME */
  double *weights; size_t nw, capw;            /* NaN: not a number */
  stretch *st; size_t nst, capst;
  brk *brk; size_t nbrk, capbrk;
  /* pcolTimes, pcolDurations, pcolThreads (pcol's timeline: each sample's
   * time and duration in ns, and its thread: the index of its timeline
   * among the source's); rt_bad bit q: rt[q] is there but not an array of
   * integers */
  int64_t *rt[3]; size_t nrt[3], caprt[3];
  int rt_kind[3], rt_bad;
  /* pcolThread (a timeline's thread: its labels); thr_bad: there, but not
   * an object of at most THR_MAX strings and integers (other than NA) */
  tlab *thr; /* THR_MAX of them, made at the first pcolThread */
  int nthr, thr_bad;
  /* pcolStart, pcolDuration, pcolRecordingPart (the first sampled profile
   * pcol writes for a source: its start, ns since the epoch, its duration,
   * spec.md §7, and its pcol.recording_part); PCOL_NA_I64 when absent or
   * not an integer (a duration >= 0, a part >= 1) */
  int64_t src_start, src_dur, src_part;
  int64_t src_iv; /* pcolInterval: its sampling interval, ns (> 0; PCOL_NA_I64 absent or not one) */
  int64_t src_off; /* pcolSpanStart: where its span starts after its time 0, ns (> 0; else PCOL_NA_I64) */
  int src_places; /* pcolNamelessPlaces: 1 true, 0 false, -1 not said (the frames' marks say) */
  int64_t src_trunc; /* pcolTruncatedStacks: its samples whose stacks the recorder truncated (> 0; else PCOL_NA_I64) */
  /* pcolDefaultSampleType, pcolDefaultValue (the same profile: the
   * source's own default, pprof.default_sample_type, and the one its
   * recording states, pcol.default_value); NULL when absent or not a string */
  char *src_own, *src_default;
  /* events: the first error found while reading them (at event err_ev;
   * err_post: after the event's stretch), and whether frames stay open */
  const char *err_what;
  size_t err_ev;
  int err_post, err_type, left_open;
} sprof;

typedef struct simp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  pcol_jpull *j;
  int sem;
  size_t nframes;
  int have_shared, have_frames, have_profiles;
  int places; /* a frame was a place pcol's export marked (pcolNameless) */
  int64_t active;   /* activeProfileIndex, -1 if none */
  uint32_t *floc;   /* frame index -> location */
  size_t capfloc;
  sprof *ps;        /* the profiles */
  size_t nps, capps;
  tnode *tree;      /* node t (1-based; 0 = the empty stack) is tree[t - 1] */
  size_t ntree, captree;
  pcol_u64map tmap; /* (parent, frame) -> node - 1 */
  uint8_t *tbad;    /* node -> holds a frame index past the frames */
  uint32_t *tstack; /* node -> builder stack id + 1 */
  uint32_t *open;   /* evented: the open stack's nodes, root first */
  size_t nopen, capopen;
  uint32_t *pathf, *pathn; /* sampled: the last sample's frames and nodes, root first */
  size_t npath, cappath, cappathn;
  uint32_t *work;
  size_t capwork;
  uint32_t *thr_ls; /* a source's threads: each timeline's label set (sampled) */
  size_t capthr;
  char *fname;      /* the frame being read */
  size_t fnamel, capfname;
  char *ffile;
  size_t ffilel, capffile;
  pcol_kept_tally *kept; /* [value type id]: THE kept rule's tally (kept; 0: a timeline's stretches) */
  size_t nkept;
} simp;

static int at(simp *s, const char *fmt, size_t a, size_t b, const char *what) {
  char path[96];
  snprintf(path, sizeof path, fmt, a, b);
  return pcol_error_set(s->err, PCOL_ECORRUPT, "%s: %s: %s", s->name, path, what);
}

/* A builder call's status: on failure its reason after the file's name. */
static int b_in(simp *s, int rc) { return pcol_error_in(s->err, rc, s->name, 0); }

/* An error of meaning found while reading: the rest of the JSON is still
 * checked (a syntax error anywhere wins). */
static int sem(simp *s, int rc) {
  s->sem = rc;
  int r = pcol_jp_finish(s->j);
  return r ? r : rc;
}

/* The current string into *dst (its length into *dl).  Without dl it is
 * held as a C string (a profile's type or unit, pcol's default value
 * type names): one holding NUL is refused, not cut there (speedscope knows
 * no such type or unit either); frame names and files and a profile's name,
 * which keep theirs, have a length. */
static int copy_str(simp *s, char **dst, size_t *dl, size_t *cap) {
  if (!dl && memchr(s->j->str, 0, s->j->len))
    return pcol_error_set(s->err, PCOL_EUNSUPPORTED,
                          "%s: byte %llu: a profile's type or unit holds \\u0000 (the NUL character), "
                          "which pcol does not read there", s->name, (unsigned long long)pcol_jp_offset(s->j));
  if (s->j->len + 1 > *cap) {
    char *p = realloc(*dst, s->j->len + 1);
    if (!p) return pcol_oom(s->err);
    *dst = p, *cap = s->j->len + 1;
  }
  memcpy(*dst, s->j->str, s->j->len + 1);
  if (dl) *dl = s->j->len;
  return PCOL_OK;
}

static int is_num(const pcol_jpull *j) { return j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL; }

/* The node for `frame` under `parent` in the tree of stacks. */
static int child(simp *s, uint32_t parent, uint32_t frame, uint32_t *out) {
  uint32_t idx;
  int added;
  int rc = pcol_u64map_get(&s->tmap, ((uint64_t)parent << 32) | frame, &idx, &added);
  if (rc) return rc == PCOL_ENOMEM ? pcol_oom(s->err) : pcol_error_set(s->err, rc, "%s: too many stacks", s->name);
  if (added) {
    if (idx >= BADFRAME - 1) return pcol_error_set(s->err, PCOL_ETOOBIG, "%s: too many stacks", s->name);
    if (PCOL_GROW(s->tree, s->ntree, s->captree)) return pcol_oom(s->err);
    s->tree[s->ntree++] = (tnode){parent, frame};
  }
  *out = idx + 1;
  return PCOL_OK;
}

/* frame_ix's rule on the current token, short of the range (checked at the
 * end): an integer >= 0 */
static int tok_frame(const pcol_jpull *j, uint32_t *f) {
  if (j->tok != PCOL_JT_INT || j->i < 0) return -1;
  *f = j->i >= BADFRAME ? BADFRAME : (uint32_t)j->i; /* past any frame count */
  return 0;
}

/* ------------------------------------------------------------ reading */
/* shared.frames[i] (its first token read). */
static int frame(simp *s, size_t i) {
  pcol_jpull *j = s->j;
  int rc, has_name = 0, has_file = 0, bad = 0, place = 0, at_line = 0;
  double ln = -1, cl = -1;
  int has_ln = 0, has_cl = 0;
  if (j->tok != PCOL_JT_OBJ) return sem(s, at(s, "shared.frames[%zu]", i, 0, "no string name"));
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int nm = pcol_jp_key_is(j, "name"), fi = pcol_jp_key_is(j, "file");
    int l = pcol_jp_key_is(j, "line"), c = pcol_jp_key_is(j, "col"), pn = pcol_jp_key_is(j, "pcolNameless");
    int pl = pcol_jp_key_is(j, "pcolLine");
    if ((rc = pcol_jp_next(j))) return rc;
    if (pn) {
      place = j->tok == PCOL_JT_TRUE;
    } else if (pl) {
      at_line = j->tok == PCOL_JT_TRUE;
    } else if (nm) {
      if (j->tok == PCOL_JT_STR && !(rc = copy_str(s, &s->fname, &s->fnamel, &s->capfname))) has_name = 1;
    } else if (fi) {
      if (j->tok != PCOL_JT_STR) bad = 1;
      else if (!(rc = copy_str(s, &s->ffile, &s->ffilel, &s->capffile))) has_file = 1;
    } else if (l || c) {
      if (!is_num(j)) bad = 1;
      else if (l) ln = j->d, has_ln = 1;
      else cl = j->d, has_cl = 1;
    }
    if (rc || (rc = pcol_jp_skip(j))) return rc;
  }
  if (rc) return rc;
  if (!has_name) return sem(s, at(s, "shared.frames[%zu]", i, 0, "no string name"));
  if (bad) return sem(s, at(s, "shared.frames[%zu]", i, 0, "file must be a string, line and col numbers"));
  pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
  pcol_line_row l = {0, PCOL_NA_I64, PCOL_NA_I64};
  if (has_ln && ln >= 0 && ln < 9e15) l.line = (int64_t)ln;
  if (has_cl && cl >= 0 && cl < 9e15) l.column = (int64_t)cl;
  fn.start_line = l.line;
  if (PCOL_GROW(s->floc, s->nframes, s->capfloc)) return pcol_oom(s->err);
  /* a place pcol's export marked (pcolNameless: an Rprof top-level srcref,
   * named FILE:LINE for the viewers): a line of a function without a name
   * and start line again, its source's nameless lines places (THE nameless
   * rule, meta pcol.nameless_places), as the Rprof source it came from */
  place = place && has_file;
  if (place) fn.start_line = PCOL_NA_I64, s->places = 1;
  /* a line of a named function pcol's export made a frame of its own
   * (pcolLine: Rprof's line profiling, `1#7 "g"`): that line of the
   * function, whose start it is not; its source's lines places, as the
   * Rprof source's (THE nameless rule) */
  if (at_line && l.line != PCOL_NA_I64) fn.start_line = PCOL_NA_I64, s->places = 1;
  rc = place ? PCOL_OK : pcol_b_string(s->b, s->fname, s->fnamel, &fn.name, s->err);
  if (!rc && has_file) rc = pcol_b_string(s->b, s->ffile, s->ffilel, &fn.filename, s->err);
  if (!rc) rc = pcol_b_function(s->b, &fn, &l.function_id, s->err);
  if (!rc) rc = pcol_b_location(s->b, 0, 0, 0, &l, 1, &s->floc[s->nframes], s->err);
  PCOL_RETURN_NOT_OK(b_in(s, rc));
  s->nframes++;
  return PCOL_OK;
}

static int shared(simp *s) {
  pcol_jpull *j = s->j;
  int rc;
  if (j->tok != PCOL_JT_OBJ) return pcol_jp_skip(j);
  s->have_shared = 1;
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int fr = pcol_jp_key_is(j, "frames");
    if ((rc = pcol_jp_next(j))) return rc;
    if (fr && j->tok == PCOL_JT_ARR) {
      s->have_frames = 1;
      while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END)
        if ((rc = frame(s, s->nframes)) || s->sem) return rc ? rc : s->sem;
      if (rc) return rc;
    } else if ((rc = pcol_jp_skip(j))) {
      return rc;
    }
  }
  return rc;
}

/* A sampled profile's samples[i] (its first token read): a tree node.
 * The part of its stack it shares with the sample before (most of it, in
 * a profile's order) takes that sample's nodes, not a lookup a frame:
 * the lookups were a third of a speedscope import of a deep Go profile. */
static int sample(simp *s, sprof *p) {
  pcol_jpull *j = s->j;
  uint32_t t = NOTARR;
  int rc;
  if (j->tok == PCOL_JT_ARR) {
    size_t d = 0;
    int same = 1; /* the frames so far are the last sample's */
    t = 0;
    while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
      uint32_t f;
      if (t == BADFRAME || tok_frame(j, &f) || f == BADFRAME) {
        t = BADFRAME;
      } else if (same && d < s->npath && s->pathf[d] == f) {
        t = s->pathn[d++];
      } else {
        same = 0;
        if ((rc = child(s, t, f, &t))) return rc;
        if (PCOL_GROW(s->pathf, d, s->cappath) || PCOL_GROW(s->pathn, d, s->cappathn))
          return pcol_oom(s->err);
        s->pathf[d] = f, s->pathn[d++] = t;
      }
      if ((rc = pcol_jp_skip(j))) return rc;
    }
    if (rc) return rc;
    s->npath = t == BADFRAME ? 0 : d;
  } else if ((rc = pcol_jp_skip(j))) {
    return rc;
  }
  if (PCOL_GROW(p->samples, p->ns, p->capns)) return pcol_oom(s->err);
  p->samples[p->ns++] = t;
  return PCOL_OK;
}

static void event_error(sprof *p, size_t i, int post, int type, const char *what) {
  p->err_what = what, p->err_ev = i, p->err_post = post, p->err_type = type;
}

/* An evented profile's events[i] (its first token read), through the
 * open/close rules as they come. */
static int event(simp *s, sprof *p, size_t i, double *prev) {
  pcol_jpull *j = s->j;
  int rc, ty = 0; /* 1 "O", 2 "C", 3 another string */
  int has_frame = 0, has_at = 0;
  uint32_t f = 0;
  double t = 0;
  if (j->tok != PCOL_JT_OBJ) {
    if (!p->err_what) event_error(p, i, 0, 0, "expected {type, at, frame}");
    return pcol_jp_skip(j);
  }
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int k_ty = pcol_jp_key_is(j, "type"), k_fr = pcol_jp_key_is(j, "frame"), k_at = pcol_jp_key_is(j, "at");
    if ((rc = pcol_jp_next(j))) return rc;
    if (k_ty && j->tok == PCOL_JT_STR)
      ty = j->len == 1 && j->str[0] == 'O' ? 1 : j->len == 1 && j->str[0] == 'C' ? 2 : 3;
    else if (k_fr) has_frame = !tok_frame(j, &f);
    else if (k_at && is_num(j)) has_at = 1, t = j->d;
    if ((rc = pcol_jp_skip(j))) return rc;
  }
  if (rc || p->err_what) return rc;
  if (!ty || !has_at || !has_frame) return event_error(p, i, 0, 0, "expected {type, at, frame}"), PCOL_OK;
  if (!p->nbrk || f > p->brk[p->nbrk - 1].frame) {
    if (PCOL_GROW(p->brk, p->nbrk, p->capbrk)) return pcol_oom(s->err);
    p->brk[p->nbrk++] = (brk){i, f};
  }
  if (i && t < *prev) return event_error(p, i, 0, 0, "goes back in time"), PCOL_OK;
  if (s->nopen && t > *prev) { /* the stretch [prev, t) */
    if (PCOL_GROW(p->st, p->nst, p->capst)) return pcol_oom(s->err);
    p->st[p->nst++] = (stretch){s->open[s->nopen - 1], i, *prev, t};
  }
  *prev = t;
  if (ty == 1) {
    uint32_t node;
    if (f == BADFRAME) return event_error(p, i, 0, 0, "expected {type, at, frame}"), PCOL_OK;
    if ((rc = child(s, s->nopen ? s->open[s->nopen - 1] : 0, f, &node))) return rc;
    if (PCOL_GROW(s->open, s->nopen, s->capopen)) return pcol_oom(s->err);
    s->open[s->nopen++] = node;
  } else if (ty == 2) {
    if (!s->nopen || s->tree[s->open[s->nopen - 1] - 1].frame != f)
      return event_error(p, i, 1, 0, "closes a frame that is not the innermost open one"), PCOL_OK;
    s->nopen--;
  } else {
    event_error(p, i, 1, 1, "neither \"O\" nor \"C\"");
  }
  return PCOL_OK;
}

static void thread_free(sprof *p) {
  for (int k = 0; p->thr && k < THR_MAX; k++) free(p->thr[k].key), free(p->thr[k].str);
  free(p->thr);
  p->thr = NULL;
  p->nthr = 0;
}

/* A timeline's pcolThread (its value's first token read): its thread's
 * labels, {"tid": 101, "comm": "app"}, each a non-empty key with a string
 * or an integer; the last pcolThread of a profile counts. */
static int thread_labels(simp *s, sprof *p) {
  pcol_jpull *j = s->j;
  int rc;
  thread_free(p);
  p->thr_bad = j->tok != PCOL_JT_OBJ;
  if (p->thr_bad) return PCOL_OK;
  if (!(p->thr = calloc(THR_MAX, sizeof *p->thr))) return pcol_oom(s->err);
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    tlab *l = &p->thr[p->nthr < THR_MAX ? p->nthr : 0];
    int ok = p->nthr < THR_MAX;
    if (ok && (rc = copy_str(s, &l->key, &l->keyl, &(size_t){0}))) return rc;
    if ((rc = pcol_jp_next(j))) return rc;
    ok = ok && l->keyl; /* (a label has a key) */
    if (ok && j->tok == PCOL_JT_STR) {
      if ((rc = copy_str(s, &l->str, &l->strl, &(size_t){0}))) return rc;
    } else if (ok && j->tok == PCOL_JT_INT && j->i != PCOL_NA_I64) {
      l->num = j->i;
    } else {
      ok = 0;
    }
    if (ok) p->nthr++;
    else p->thr_bad = 1;
    if ((rc = pcol_jp_skip(j))) return rc;
  }
  return rc;
}

/* profiles[i] (its first token read) into compact arrays. */
static int profile(simp *s) {
  pcol_jpull *j = s->j;
  int rc;
  if (PCOL_GROW(s->ps, s->nps, s->capps)) return pcol_oom(s->err);
  sprof *p = &s->ps[s->nps++];
  memset(p, 0, sizeof *p);
  if (j->tok != PCOL_JT_OBJ) return pcol_jp_skip(j);
  p->is_obj = 1;
  p->src_start = p->src_dur = p->src_part = p->src_iv = p->src_off = p->src_trunc = PCOL_NA_I64;
  p->src_places = -1;
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int k_type = pcol_jp_key_is(j, "type"), k_name = pcol_jp_key_is(j, "name"), k_unit = pcol_jp_key_is(j, "unit");
    int k_s = pcol_jp_key_is(j, "samples"), k_w = pcol_jp_key_is(j, "weights"), k_e = pcol_jp_key_is(j, "events");
    int k_sv = pcol_jp_key_is(j, "startValue"), k_ev = pcol_jp_key_is(j, "endValue");
    int k_rt = pcol_jp_key_is(j, "pcolTimes") ? 1 : pcol_jp_key_is(j, "pcolDurations") ? 2
             : pcol_jp_key_is(j, "pcolThreads") ? 3 : 0;
    int k_th = pcol_jp_key_is(j, "pcolThread");
    int k_ss = pcol_jp_key_is(j, "pcolStart") ? 1 : pcol_jp_key_is(j, "pcolDuration") ? 2
             : pcol_jp_key_is(j, "pcolRecordingPart") ? 3 : 0;
    int k_dv = pcol_jp_key_is(j, "pcolDefaultSampleType") ? 1 : pcol_jp_key_is(j, "pcolDefaultValue") ? 2 : 0;
    int k_iv = pcol_jp_key_is(j, "pcolInterval") ? 1 : pcol_jp_key_is(j, "pcolSpanStart") ? 2
             : pcol_jp_key_is(j, "pcolTruncatedStacks") ? 3 : 0;
    int k_pl = pcol_jp_key_is(j, "pcolNamelessPlaces");
    if ((rc = pcol_jp_next(j))) return rc;
    if (k_pl && (j->tok == PCOL_JT_TRUE || j->tok == PCOL_JT_FALSE)) {
      p->src_places = j->tok == PCOL_JT_TRUE;
    } else if (k_sv) {
      if (is_num(j) && isfinite(j->d)) p->start = j->d, p->start_bad = 0;
      else p->start = 0, p->start_bad = 1;
    } else if (k_ev) {
      p->has_end = is_num(j) && isfinite(j->d);
      p->end = p->has_end ? j->d : 0;
    } else if (k_ss && j->tok == PCOL_JT_INT && (k_ss == 1 || j->i >= k_ss - 2)) {
      *(k_ss == 1 ? &p->src_start : k_ss == 2 ? &p->src_dur : &p->src_part) = j->i;
    } else if (k_iv && j->tok == PCOL_JT_INT && j->i > 0) {
      *(k_iv == 1 ? &p->src_iv : k_iv == 2 ? &p->src_off : &p->src_trunc) = j->i;
    } else if (k_rt) {
      int q = k_rt - 1;
      p->rt_kind[q] = 1;
      p->nrt[q] = 0;
      if (j->tok != PCOL_JT_ARR) p->rt_bad |= 1 << q;
      else
        while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
          if (j->tok != PCOL_JT_INT) p->rt_bad |= 1 << q;
          else if (PCOL_GROW(p->rt[q], p->nrt[q], p->caprt[q])) return pcol_oom(s->err);
          else p->rt[q][p->nrt[q]++] = j->i;
          if ((rc = pcol_jp_skip(j))) return rc;
        }
      if (rc) return rc;
      if (j->tok == PCOL_JT_ARR_END) continue;
    } else if (k_th) {
      if ((rc = thread_labels(s, p))) return rc;
      if (j->tok == PCOL_JT_OBJ_END) continue;
    } else if (k_dv && j->tok == PCOL_JT_STR) {
      if ((rc = copy_str(s, k_dv == 1 ? &p->src_own : &p->src_default, NULL, &(size_t){0}))) return rc;
    } else if ((k_type || k_name || k_unit) && j->tok == PCOL_JT_STR) {
      if (k_type) rc = copy_str(s, &p->type, NULL, &(size_t){0}), p->type_str = 1;
      else if (k_name) rc = copy_str(s, &p->name, &p->namel, &(size_t){0}), p->name_str = 1;
      else rc = copy_str(s, &p->unit, NULL, &(size_t){0}), p->unit_str = 1;
      if (rc) return rc;
    } else if (k_s || k_w || k_e) {
      int *kind = k_s ? &p->samples_kind : k_w ? &p->weights_kind : &p->events_kind;
      *kind = j->tok == PCOL_JT_ARR ? 1 : 2;
      if (j->tok == PCOL_JT_ARR) {
        double prev = 0;
        size_t i = 0;
        s->nopen = 0;
        while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
          if (k_s) {
            rc = sample(s, p);
          } else if (k_w) {
            if (PCOL_GROW(p->weights, p->nw, p->capw)) return pcol_oom(s->err);
            p->weights[p->nw++] = is_num(j) ? j->d : NAN;
            rc = pcol_jp_skip(j);
          } else {
            rc = event(s, p, i++, &prev);
          }
          if (rc) return rc;
        }
        if (rc) return rc;
        if (k_e) p->left_open = s->nopen != 0;
        continue;
      }
    }
    if ((rc = pcol_jp_skip(j))) return rc;
  }
  return rc;
}

static int read_doc(simp *s) {
  pcol_jpull *j = s->j;
  int rc = pcol_jp_next(j);
  if (rc) return rc;
  if (j->tok != PCOL_JT_OBJ) return sem(s, at(s, "$", 0, 0, "not a JSON object"));
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int k_sh = pcol_jp_key_is(j, "shared"), k_p = pcol_jp_key_is(j, "profiles");
    int k_a = pcol_jp_key_is(j, "activeProfileIndex");
    if ((rc = pcol_jp_next(j))) return rc;
    if (k_sh) {
      if ((rc = shared(s)) || s->sem) return rc ? rc : s->sem;
      continue;
    }
    if (k_p && j->tok == PCOL_JT_ARR) {
      s->have_profiles = 1;
      while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END)
        if ((rc = profile(s))) return rc;
      if (rc) return rc;
      continue;
    }
    if (k_a && j->tok == PCOL_JT_INT) s->active = j->i;
    if ((rc = pcol_jp_skip(j))) return rc;
  }
  if (rc) return rc;
  return pcol_jp_finish(j);
}

/* ------------------------------------------------------------ resolving */
/* unit -> (scale to the stored unit, stored unit, default type name) */
static int unit_of(const char *u, double *scale, const char **unit, const char **type) {
  static const struct { const char *n; double sc; const char *unit, *type; } t[] = {
      {"none", 1, PCOL_UNIT_COUNT, PCOL_VT_SAMPLES}, {"nanoseconds", 1, PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL},
      {"microseconds", 1e3, PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL},
      {"milliseconds", 1e6, PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL},
      {"seconds", 1e9, PCOL_UNIT_NANOSECONDS, PCOL_VT_WALL}, {"bytes", 1, "bytes", "space"}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(u, t[i].n) == 0) return *scale = t[i].sc, *unit = t[i].unit, *type = t[i].type, 0;
  return -1;
}

/* d x scale (an integer: 1, a time unit's ns, 10^D) rounded half away
 * from zero, -1 out of range (below 2^63 in magnitude: THE whole-number
 * rule's bound, jstr.h, so that every weight pcol's export
 * writes reads back, 9223372036854774784 bytes included; rd17a F4); the
 * fraction is scaled apart, as the double product would lose it for a
 * large d (1.2e13 ms x 10^5 is off by 1e-4) */
static int to_scaled(double d, double scale, int64_t *out) {
  if (!(fabs(d) * scale < 0x1p63)) return -1;
  double ip = trunc(d);
  int64_t a;
  if (__builtin_mul_overflow((int64_t)ip, (int64_t)scale, &a) ||
      __builtin_add_overflow(a, (int64_t)round((d - ip) * scale), out))
    return -1; /* (the double product rounded below 2^63, the exact one not) */
  return 0;
}

static int to_i64(double d, int64_t *out) { return to_scaled(d, 1, out); }

/* The builder's stack of tree node t (its ancestors' first, memoized,
 * without recursion): the pcol_b_stack_node calls, in the same order, that
 * pcol_b_stack makes for the frame list t stands for. */
static int stack_of(simp *s, uint32_t t, uint32_t *sid) {
  size_t nw = 0;
  uint32_t k = t;
  while (k && !s->tstack[k]) {
    if (PCOL_GROW(s->work, nw, s->capwork)) return pcol_oom(s->err);
    s->work[nw++] = k;
    k = s->tree[k - 1].parent;
  }
  uint32_t node = k ? s->tstack[k] - 1 : 0;
  while (nw) {
    uint32_t m = s->work[--nw];
    PCOL_RETURN_NOT_OK(b_in(s, pcol_b_stack_node(s->b, node, s->floc[s->tree[m - 1].frame], &node, s->err)));
    s->tstack[m] = node + 1;
  }
  *sid = node;
  return PCOL_OK;
}

/* A profile's name "<prefix>: <type>" as pcol writes it (name[0..n)): the
 * prefix's length, or 0 when the name has no such type part (one without a
 * blank or a NUL: a value type's name, held as a C string; the prefix, a
 * source's URI, may hold NUL). */
static size_t name_prefix(const char *name, size_t n) {
  const char *last = NULL, *end = name + n;
  for (const char *q = memmem(name, n, ": ", 2); q; q = memmem(q + 2, (size_t)(end - q - 2), ": ", 2)) last = q;
  if (!last || last == name || last + 2 == end || memchr(last + 2, ' ', (size_t)(end - last - 2)) ||
      memchr(last + 2, 0, (size_t)(end - last - 2)))
    return 0;
  return (size_t)(last - name);
}

static const char *pname_of(const sprof *p) { return p->name_str ? p->name : ""; }
static size_t pnamel_of(const sprof *p) { return p->name_str ? p->namel : 0; }

/* Profile pi's unit and value type (in the source src); k: the length of
 * the source's part of its name (name_prefix; 0: none); dec: >= 0 when its
 * values are stored in its own unit x 10^dec, "1e-D U" (values_decimals). */
static int profile_vt(simp *s, const sprof *p, size_t pi, uint32_t src, size_t k, int dec, double *scale,
                      int *is_count, uint32_t *vt) {
  const char *unit, *tname;
  if (!p->unit_str || unit_of(p->unit, scale, &unit, &tname))
    return at(s, "profiles[%zu].unit", pi, 0, "not a speedscope unit");
  *is_count = strcmp(unit, PCOL_UNIT_COUNT) == 0;
  const char *pname = pname_of(p), *own = *is_count ? "" : p->unit; /* "none": collapsed's "1e-9" */
  char ubuf[32];
  if (dec > 0)
    snprintf(ubuf, sizeof ubuf, "1e-%d%s%s", dec, *own ? " " : "", own), unit = ubuf;
  else if (dec == 0)
    unit = *own ? own : unit;
  if (dec > 0 && *is_count) tname = "count"; /* a decimal count is collapsed's, apart from the samples */
  if (dec >= 0) *scale = pow(10, dec);
  uint32_t ts, us;
  int rc = pcol_b_cstr(s->b, k ? pname + k + 2 : tname, &ts, s->err);
  if (!rc) rc = pcol_b_cstr(s->b, unit, &us, s->err);
  if (!rc) rc = pcol_b_value_type(s->b, ts, us, vt, s->err);
  if (!rc) rc = pcol_b_source_value_type(s->b, src, *vt, s->err);
  pcol_kept_tally *t = rc ? NULL : pcol_kept_at(&s->kept, &s->nkept, *vt);
  if (t) snprintf(t->type, sizeof t->type, "%s", k ? pname + k + 2 : tname); /* (the kept rule's warning names it) */
  else if (!rc) return pcol_oom(s->err);
  return b_in(s, rc);
}

static int is_sampled(const sprof *p) { return p->type_str && strcmp(p->type, "sampled") == 0; }

/* Profile p's value w (a weight, or the stretch of an evented profile
 * that ends at events[i]) held as v of the stored grid of 1 / scale, added
 * to its value type vt's tally of THE kept rule (pcol_kept_add; ref as
 * pcol_decimal_kept's): the first not kept to six significant digits is
 * named, saying the grid, for the verdict after the file
 * (pcol_kept_verdict: refused when the rounding changes the value type's
 * total by more than a millionth, else read with a warning). */
static int kept(simp *s, uint32_t vt, const sprof *p, size_t pi, size_t i, double w, int64_t v, double scale,
                double ref) {
  pcol_kept_tally *t = pcol_kept_at(&s->kept, &s->nkept, vt);
  if (!t) return pcol_oom(s->err);
  if (!pcol_kept_add(t, w, v, scale, ref)) return PCOL_OK;
  int smp = is_sampled(p);
  double amax = 0;
  for (size_t k = 0; k < (smp ? p->nw : p->nst); k++)
    amax = fmax(amax, smp ? p->weights[k] : fmax(fabs(p->st[k].t0 - p->start), fabs(p->st[k].t1 - p->start)));
  char what[400], a[32], b[32];
  pcol_g_text(a, sizeof a, w), pcol_g_text(b, sizeof b, amax);
  const char *u = strcmp(p->unit, "none") ? p->unit : "";
  snprintf(what, sizeof what, "%s %s%s%s is not held to six significant digits: pcol holds this profile's %s as "
           "whole multiples of %g%s%s (at most 9 decimals, and few enough that its largest, %s, fits in 64 bits)",
           smp ? "the weight" : "the stretch of", a, *u ? " " : "", u, smp ? "weights" : "times since startValue",
           1 / scale, *u ? " " : "", u, b);
  snprintf(t->first_at, sizeof t->first_at, smp ? "profiles[%zu].weights[%zu]" : "profiles[%zu].events[%zu]", pi, i);
  pcol_error *e = s->err;
  s->err = &t->refusal;
  at(s, smp ? "profiles[%zu].weights[%zu]" : "profiles[%zu].events[%zu]", pi, i, what);
  s->err = e;
  return PCOL_OK;
}

/* Profile p's values (a sampled profile's weights, an evented one's times
 * since startValue) as speedscope keeps them, doubles (2.5 bytes, 0.125,
 * 1.2e13 ms): when pcol's stored unit (a count, bytes, ns) cannot hold one
 * of them exactly, a fraction or past 64 bits, they are kept in the file's
 * own unit x 10^D, the decimal unit "1e-D U" (pcol_unit_decimals: the rule
 * of collapsed decimal counts and Perun real amounts), D from the largest
 * (pcol_decimals_for); D = 0 (a time in its own unit, "milliseconds") when
 * they only fit so.  Returns that D, or -1: stored as before (a fraction
 * no finer than the stored unit's is rounded).  doc/mappings.md §11. */
static int values_decimals(const sprof *p) {
  double sc;
  const char *unit, *tname;
  if (!p->unit_str || unit_of(p->unit, &sc, &unit, &tname)) return -1;
  int smp = is_sampled(p), frac = 0, big = 0;
  size_t n = smp ? p->nw : 2 * p->nst;
  double amax = 0;
  for (size_t i = 0; i < n; i++) {
    const stretch *x = smp ? NULL : &p->st[i / 2];
    double w = fabs(smp ? p->weights[i] : (i & 1 ? x->t1 : x->t0) - p->start);
    if (!(w < 0x1p63)) continue; /* (not a number, or too large: an error) */
    if (w * sc >= 0x1p63) big = 1;
    else if (round(w * sc) / sc != w) frac = 1; /* (1.1 ms is 1100000 ns, not w x 1e6) */
    if (w > amax) amax = w;
  }
  int d = pcol_decimals_for(amax);
  return big || (frac && pow(10, d) > sc) ? d : -1;
}

/* The source of profiles [pi, ...): named by the profile name's prefix
 * (the source_uri pcol exported it from), else "<file>: <name>"; its start
 * and duration (pcolStart, pcolDuration) as pprof.time_nanos and
 * pprof.duration_nanos (spec.md §7's rules), the timestamp its seconds;
 * its pcolRecordingPart as pcol.recording_part, its pcolInterval as
 * pcol.interval_ns, its pcolSpanStart as pcol.span_start_ns, its pcolTruncatedStacks as
 * pcol.truncated_stacks (and its note) and its pcolDefaultValue as pcol.default_value (its
 * pcolDefaultSampleType: sampled). */
static int profile_source(simp *s, const sprof *p, uint32_t *src) {
  const char *pname = pname_of(p);
  size_t pl = pnamel_of(p), k = name_prefix(pname, pl), fl = strlen(s->name), ul = 0;
  char *uri = malloc(fl + pl + 3);
  if (!uri) return pcol_oom(s->err);
  if (k) memcpy(uri, pname, ul = k); /* (by length: a NUL of the name's kept) */
  else memcpy(uri, s->name, fl), memcpy(uri + fl, ": ", 2), memcpy(uri + fl + 2, pname, pl), ul = fl + 2 + pl;
  int64_t ts = p->src_start == PCOL_NA_I64 ? PCOL_NA_I64 : p->src_start / 1000000000;
  int rc = pcol_b_source_n(s->b, PCOL_SRC_SPEEDSCOPE, uri, ul, ts, src, s->err);
  if (!rc && !k) rc = pcol_source_file_mark(s->b, *src, s->name, fl, uri, ul, s->err);
  free(uri);
  char v[24];
  if (!rc && p->src_start != PCOL_NA_I64 && p->src_start) {
    snprintf(v, sizeof v, "%lld", (long long)p->src_start);
    rc = pcol_b_meta_str(s->b, *src, PPROF_META_TIME_NANOS, v, s->err);
  }
  if (!rc && p->src_dur != PCOL_NA_I64 && p->src_dur) {
    snprintf(v, sizeof v, "%lld", (long long)p->src_dur);
    rc = pcol_b_meta_str(s->b, *src, PPROF_META_DURATION_NANOS, v, s->err);
  }
  if (!rc && p->src_part != PCOL_NA_I64) { /* (the source's recording, THE recording rule) */
    snprintf(v, sizeof v, "%lld", (long long)p->src_part);
    rc = pcol_b_meta_str(s->b, *src, PCOL_META_RECORDING_PART, v, s->err);
  }
  if (!rc && p->src_iv != PCOL_NA_I64) { /* (THE interval rule reads it: the copy's timeline is the original's) */
    snprintf(v, sizeof v, "%lld", (long long)p->src_iv);
    rc = pcol_b_meta_str(s->b, *src, PCOL_META_INTERVAL_NS, v, s->err);
  }
  if (!rc && p->src_off != PCOL_NA_I64) { /* (THE span start, spec.md §7: a trace's later profile) */
    snprintf(v, sizeof v, "%lld", (long long)p->src_off);
    rc = pcol_b_meta_str(s->b, *src, PCOL_META_SPAN_START_NS, v, s->err);
  }
  if (!rc && p->src_trunc != PCOL_NA_I64) /* (the views warn of it: truncated.c) */
    rc = pcol_b_truncated_stacks(s->b, *src, (uint64_t)p->src_trunc, s->err);
  if (!rc && p->src_default) rc = pcol_b_meta_str(s->b, *src, PCOL_META_DEFAULT_VALUE, p->src_default, s->err);
  /* its nameless rule: the profile's own where pcol's export said it (a
   * merge of sources that differ), else the frames' marks' */
  if (!rc && (p->src_places >= 0 ? p->src_places : s->places))
    rc = pcol_b_meta_str(s->b, *src, PCOL_META_NAMELESS_PLACES, "1", s->err);
  return b_in(s, rc);
}

/* speedscope's total of profile p (Profile.getTotalWeight: its builder
 * starts at endValue - startValue, then takes the larger of that and what
 * the profile holds, `held`: a sampled profile's weights summed, an
 * evented one's last time since startValue) is the flame chart's width,
 * whose part past the samples it draws as an idle gap (the sandwich's
 * shares are of the weights alone, getTotalNonIdleWeight).  Of a profile
 * in a unit of time with such a gap (past a millionth of endValue -
 * startValue), endValue - startValue in ns is the
 * source's duration (meta pprof.duration_nanos, spec.md §7), as a V8
 * profile's endTime - startTime is: `pcol top` says `Duration: 10ms, Total
 * samples = 4ms (40.00%)`, `pcol info` the duration, the exports write it
 * (before, endValue was not read: the profile lasted as long as its
 * samples).  Not where pcol's export states the duration (pcolDuration),
 * nor of a count or bytes (no duration; doc/mappings.md §11). */
static int idle_gap(simp *s, const sprof *p, uint32_t src, double held) {
  double ns;
  const char *unit, *tname;
  int64_t d;
  if (!p->has_end || p->start_bad || p->src_dur != PCOL_NA_I64 || !p->unit_str ||
      unit_of(p->unit, &ns, &unit, &tname) || strcmp(unit, PCOL_UNIT_NANOSECONDS) != 0)
    return PCOL_OK;
  double ext = p->end - p->start;
  /* (a gap of less than a millionth is the doubles' noise: a sum of
   * weights one ulp short of the total pcol's export wrote as endValue) */
  if (!(ext - held > 1e-6 * ext) || to_scaled(ext, ns, &d) || d <= 0) return PCOL_OK;
  char v[24];
  snprintf(v, sizeof v, "%lld", (long long)d);
  return b_in(s, pcol_b_meta_str(s->b, src, PPROF_META_DURATION_NANOS, v, s->err));
}

/* Source src holds stretches of time (a sample with a duration, of weight
 * <= 1: an evented profile's, or the times pcol's timeline gives back):
 * an interval source (spec.md §7.1, meta pcol.intervals), whose samples a
 * time range counts by their overlap with it, as a Chrome trace's. */
static int mark_intervals(simp *s, uint32_t src) {
  return b_in(s, pcol_b_meta_str(s->b, src, PCOL_META_INTERVALS, "1", s->err));
}

/* The first event of profile p that names a frame past the frames (it
 * stops the walk), SIZE_MAX if none. */
static size_t events_stop(const simp *s, const sprof *p) {
  for (size_t k = 0; k < p->nbrk; k++)
    if (p->brk[k].frame >= s->nframes) return p->brk[k].ev;
  return SIZE_MAX;
}

/* Stretch k of profile p comes before the walk stops (events_stop) and
 * before the first error of its events. */
static int stretch_read(const sprof *p, size_t k, size_t stop) {
  const stretch *x = &p->st[k];
  return x->ev < stop && !(p->err_what && (x->ev > p->err_ev || (x->ev == p->err_ev && !p->err_post)));
}

/* Stretch x's [t0, t1) in the stored unit, since startValue, the
 * profile's start (speedscope subtracts it too); -1 out of range. */
static int stretch_ns(const sprof *p, const stretch *x, double scale, int64_t *t0, int64_t *t1) {
  return to_scaled(x->t0 - p->start, scale, t0) || to_scaled(x->t1 - p->start, scale, t1) ? -1 : 0;
}

/* The evented profile pi: with `add`, a source of one sample per stretch;
 * without, only its checks (a timeline that is part of a source of
 * sampled profiles, timeline_fits, but whose stretches do not fit them). */
static int evented(simp *s, size_t pi, int add) {
  const sprof *p = &s->ps[pi];
  uint32_t src = 0, vt = 0;
  double scale, ns; /* to the stored unit; a time's to ns */
  int is_count = 0, rc, dec = add ? values_decimals(p) : -1;
  const char *unit, *tname;
  if (!p->unit_str || unit_of(p->unit, &ns, &unit, &tname))
    return at(s, "profiles[%zu].unit", pi, 0, "not a speedscope unit");
  int timed = strcmp(unit, PCOL_UNIT_NANOSECONDS) == 0;
  scale = ns;
  if (add && ((rc = profile_source(s, p, &src)) ||
              (rc = profile_vt(s, p, pi, src, name_prefix(pname_of(p), pnamel_of(p)), dec, &scale, &is_count, &vt))))
    return rc;
  int64_t unit1 = dec > 0 ? (int64_t)scale : 1; /* a count's 1 in its decimal unit */
  if (p->events_kind != 1) return at(s, "profiles[%zu].events", pi, 0, "not an array");
  if (p->start_bad) /* (speedscope subtracts it from each time: NaN) */
    return at(s, "profiles[%zu].startValue", pi, 0, "not a number (the events' times count from it)");
  size_t stop = events_stop(s, p);
  int stretches = 0; /* a sample with a duration */
  double span = 0; /* the profile's extent: the largest time since startValue */
  for (size_t k = 0; k < p->nst; k++) span = fmax(span, fmax(fabs(p->st[k].t0 - p->start), fabs(p->st[k].t1 - p->start)));
  for (size_t k = 0; k < p->nst && stretch_read(p, k, stop); k++) {
    const stretch *x = &p->st[k];
    int64_t t0, t1, n0 = PCOL_NA_I64, n1 = PCOL_NA_I64;
    if (stretch_ns(p, x, scale, &t0, &t1)) return at(s, "profiles[%zu].events[%zu]", pi, x->ev, "time out of range");
    double w = (x->t1 - p->start) - (x->t0 - p->start); /* (speedscope's: each at less startValue) */
    if ((rc = kept(s, add ? vt : 0, p, pi, x->ev, w, t1 - t0, scale, span))) return rc;
    if (!add) continue;
    /* a time's start and length in ns, unless they are past 64 bits (kept in a decimal unit) */
    if (timed && (dec >= 0 ? stretch_ns(p, x, ns, &n0, &n1) : (n0 = t0, n1 = t1, 0))) n0 = n1 = PCOL_NA_I64;
    pcol_sample_row r = {src, n0, n0 == PCOL_NA_I64 ? 0 : n1 - n0, is_count ? (t1 - t0 + unit1 / 2) / unit1 : 1,
                         PCOL_NA_I64, 0, 0};
    pcol_value_row v = {vt, t1 - t0};
    if ((rc = stack_of(s, x->stack, &r.stack_id))) return rc;
    PCOL_RETURN_NOT_OK(b_in(s, pcol_b_sample(s->b, &r, &v, 1, NULL, s->err)));
    stretches |= r.duration_ns > 0;
  }
  if (stretches && (rc = mark_intervals(s, src))) return rc;
  double last = 0; /* (speedscope's lastValue: the last stretch's end since startValue) */
  for (size_t k = 0; add && k < p->nst && stretch_read(p, k, stop); k++) last = fmax(last, p->st[k].t1 - p->start);
  if (add && (rc = idle_gap(s, p, src, last))) return rc;
  if (stop != SIZE_MAX && (!p->err_what || stop <= p->err_ev))
    return at(s, "profiles[%zu].events[%zu]", pi, stop, "expected {type, at, frame}");
  if (p->err_what)
    return at(s, p->err_type ? "profiles[%zu].events[%zu].type" : "profiles[%zu].events[%zu]", pi, p->err_ev,
              p->err_what);
  if (p->left_open) return at(s, "profiles[%zu].events", pi, 0, "frames left open at the end");
  return PCOL_OK;
}

/* Profile t is the timeline pcol writes after the sampled profiles of a
 * source (doc/mappings.md §5, item 3): evented, right after them, named
 * "URI: timeline" for their "URI: TYPE" (1), or, a source of several
 * threads, "URI: timeline (THREAD)", one a thread, the first carrying the
 * samples' times (2). */
static int is_timeline_of(const sprof *g, const sprof *t) {
  if (!t->is_obj || !t->type_str || strcmp(t->type, "evented") != 0 || !t->name_str || !g->name_str) return 0;
  size_t k = name_prefix(g->name, g->namel), n = t->namel, m = sizeof ": timeline" - 1;
  if (!k || n < k + m || memcmp(t->name, g->name, k) != 0 || memcmp(t->name + k, ": timeline", m) != 0) return 0;
  if (n == k + m) return 1;
  return n >= k + m + 3 && !memcmp(t->name + k + m, " (", 2) && t->name[n - 1] == ')' ? 2 : 0;
}

/* The timeline t (is_timeline_of) gives the times of the sampled
 * profiles [pi, ...) when its stretches and their samples line up one to
 * one: as many, each with the sample's stack (the export writes a run of
 * samples that follow each other without a gap as one sample and one
 * stretch), and events without an error, in a unit of time. */
static int timeline_fits(const simp *s, size_t pi, size_t ti, double *scale) {
  const sprof *g = &s->ps[pi], *p = &s->ps[ti];
  const char *unit, *tname;
  if (p->events_kind != 1 || p->err_what || p->left_open || !p->unit_str ||
      unit_of(p->unit, scale, &unit, &tname) || strcmp(unit, PCOL_UNIT_NANOSECONDS) != 0 || p->nst != g->ns ||
      events_stop(s, p) != SIZE_MAX)
    return 0;
  for (size_t k = 0; k < p->nst; k++) {
    int64_t t0, t1;
    if (p->st[k].stack != g->samples[k] || stretch_ns(p, &p->st[k], *scale, &t0, &t1)) return 0;
  }
  return 1;
}

/* The timeline t (is_timeline_of) carries the times of the sampled
 * profiles [pi, ...) itself, as pcol's export writes them: pcolTimes and
 * pcolDurations, integers (ns since the source's start), one each per
 * sample, every duration >= 0 and every end in range, in a timeline of
 * nanoseconds.  Whatever its stretches: a run with a gap, a sample that
 * lasted no time or one with an empty stack have no stretch of their own. */
static int timeline_carries(const simp *s, size_t pi, size_t ti) {
  const sprof *g = &s->ps[pi], *p = &s->ps[ti];
  if ((p->rt_bad & 3) || p->rt_kind[0] != 1 || p->rt_kind[1] != 1 || p->nrt[0] != g->ns || p->nrt[1] != g->ns ||
      !p->unit_str || strcmp(p->unit, "nanoseconds") != 0)
    return 0;
  for (size_t k = 0; k < g->ns; k++) {
    int64_t e;
    if (p->rt[1][k] < 0 || p->rt[0][k] == PCOL_NA_I64 || __builtin_add_overflow(p->rt[0][k], p->rt[1][k], &e))
      return 0;
  }
  return 1;
}

/* The label set of each of the source's nt timelines [ti, ti + nt) (a
 * thread each, is_timeline_of): its pcolThread's labels (0: none, or not
 * such an object), into ls[0 .. nt). */
static int thread_sets(simp *s, size_t ti, size_t nt, uint32_t *ls) {
  for (size_t k = 0; k < nt; k++) {
    const sprof *t = &s->ps[ti + k];
    pcol_label_row l[THR_MAX];
    int rc = PCOL_OK;
    memset(l, 0, sizeof l);
    ls[k] = 0;
    if (t->thr_bad || !t->nthr) continue;
    for (int i = 0; i < t->nthr && !rc; i++) {
      l[i].num = t->thr[i].str ? PCOL_NA_I64 : t->thr[i].num;
      rc = pcol_b_string(s->b, t->thr[i].key, t->thr[i].keyl, &l[i].key, s->err);
      if (!rc && t->thr[i].str) rc = pcol_b_string(s->b, t->thr[i].str, t->thr[i].strl, &l[i].str, s->err);
    }
    if (!rc) rc = pcol_b_labelset(s->b, l, (size_t)t->nthr, &ls[k], s->err);
    PCOL_RETURN_NOT_OK(b_in(s, rc));
  }
  return PCOL_OK;
}

/* The timeline ti (is_timeline_of) says the thread of each of the sampled
 * profiles [pi, ...)'s samples, one of the source's nt timelines: its
 * pcolThreads, integers in [0, nt), one per sample. */
static int timeline_threads(const simp *s, size_t pi, size_t ti, size_t nt) {
  const sprof *g = &s->ps[pi], *p = &s->ps[ti];
  if ((p->rt_bad & 4) || p->rt_kind[2] != 1 || p->nrt[2] != g->ns) return 0;
  for (size_t k = 0; k < g->ns; k++)
    if (p->rt[2][k] < 0 || (uint64_t)p->rt[2][k] >= nt) return 0;
  return 1;
}

/* Sampled profiles [pi, pj) of one source (pcol writes one per value type
 * of a source, with the same samples): their samples, with a value each.
 * ti: the source's timeline (is_timeline_of), SIZE_MAX if none: the
 * samples' times and durations when its stretches fit them
 * (timeline_fits), else only checked; either way no source of its own,
 * whose samples would count the source's twice (doc/mappings.md §11).
 * nt: the source's timelines from ti on (a thread each): each sample's
 * thread's labels (pcolThread) when ti's pcolThreads names it, or, of one
 * timeline, every sample's. */
/* 1 when profile g is the last of the source's profiles [pi, pj) and an
 * earlier one has its name (a type the source lists twice, pcol's export
 * of dupnd): the default without a name, the last type, as go's without
 * default_sample_type; its name would be the first of them. */
static int last_of_twice(const simp *s, size_t pi, size_t pj, size_t g) {
  if (g + 1 != pj || !s->ps[g].name_str) return 0;
  for (size_t h = pi; h < g; h++)
    if (s->ps[h].name_str && !strcmp(s->ps[h].name, s->ps[g].name)) return 1;
  return 0;
}

static int sampled(simp *s, size_t pi, size_t pj, size_t ti, size_t nt) {
  enum { MAXG = 64 };
  uint32_t src, vt[MAXG];
  double scale[MAXG];
  int is_count[MAXG], rc;
  const sprof *p0 = &s->ps[pi];
  if ((rc = profile_source(s, p0, &src))) return rc;
  if (p0->samples_kind != 1) return at(s, "profiles[%zu].samples", pi, 0, "not an array");
  int count_at = -1;
  const char *dflt = NULL; /* the source's default type's name */
  size_t k = name_prefix(pname_of(p0), pnamel_of(p0)); /* the source's part of every name (same_source) */
  for (size_t g = pi; g < pj; g++) {
    const sprof *p = &s->ps[g];
    if ((rc = profile_vt(s, p, g, src, k, values_decimals(p), &scale[g - pi], &is_count[g - pi], &vt[g - pi])))
      return rc;
    if (p->weights_kind != 1 || p->nw != p0->ns)
      return at(s, "profiles[%zu].weights", g, 0, "not an array as long as samples");
    if (count_at < 0 && is_count[g - pi]) count_at = (int)(g - pi);
    /* the profile speedscope opens on is the source's default type, unless
     * pcol's export names the source's own (pcolDefaultSampleType) among
     * its profiles: activeProfileIndex names one source's only */
    if (s->active == (int64_t)g && pj - pi > 1 && !dflt && !last_of_twice(s, pi, pj, g)) dflt = p->name + k + 2;
    if (k && p->name_str && p0->src_own && !strcmp(p->name + k + 2, p0->src_own)) dflt = p0->src_own;
  }
  if (dflt) PCOL_RETURN_NOT_OK(b_in(s, pcol_b_meta_str(s->b, src, PPROF_META_DEFAULT_SAMPLE_TYPE, dflt, s->err)));
  double tscale = 1;
  int carries = ti != SIZE_MAX && timeline_carries(s, pi, ti);
  int timed = ti != SIZE_MAX && !carries && timeline_fits(s, pi, ti, &tscale);
  const sprof *tl = timed ? &s->ps[ti] : NULL, *tc = carries ? &s->ps[ti] : NULL;
  /* the threads: a timeline's label set (s->thr_ls[k]), each sample's
   * timeline (thr[i]; none: the one timeline's) */
  const int64_t *thr = nt > 1 && timeline_threads(s, pi, ti, nt) ? s->ps[ti].rt[2] : NULL;
  int threads = nt == 1 || thr;
  if (threads && nt > s->capthr) {
    uint32_t *q = realloc(s->thr_ls, nt * sizeof *q);
    if (!q) return pcol_oom(s->err);
    s->thr_ls = q, s->capthr = nt;
  }
  if (threads && (rc = thread_sets(s, ti, nt, s->thr_ls))) return rc;
  pcol_value_row v[MAXG];
  int stretches = 0; /* a sample with a duration (its timeline's) */
  for (size_t i = 0; i < p0->ns; i++) {
    uint32_t t = p0->samples[i];
    int64_t weight = 1;
    for (size_t g = 0; g < pj - pi; g++) {
      double w = s->ps[pi + g].weights[i];
      v[g].value_type_id = vt[g];
      if (w != w || w < 0) return at(s, "profiles[%zu].weights[%zu]", pi + g, i, "not a weight >= 0");
      /* a number >= 0, but past 64 bits as stored (review 10 m5) */
      if (to_scaled(w, scale[g], &v[g].value) || ((int)g == count_at && to_i64(w, &weight)))
        return at(s, "profiles[%zu].weights[%zu]", pi + g, i, "a weight out of range (stored in 64 bits: "
                  "below 2^63 of the profile's smallest unit)");
      if ((rc = kept(s, vt[g], &s->ps[pi + g], pi + g, i, w, v[g].value, scale[g], 0))) return rc;
    }
    if (t == NOTARR) return at(s, "profiles[%zu].samples[%zu]", pi, i, "not an array");
    if (t == BADFRAME || s->tbad[t]) return at(s, "profiles[%zu].samples[%zu]", pi, i, "not a frame index");
    pcol_sample_row r = {src, PCOL_NA_I64, 0, weight, PCOL_NA_I64, 0, threads ? s->thr_ls[thr ? thr[i] : 0] : 0};
    int64_t t0, t1;
    if (tl && !stretch_ns(tl, &tl->st[i], tscale, &t0, &t1)) /* (checked by timeline_fits) */
      r.time_ns = t0, r.duration_ns = t1 - t0;
    if (tc) r.time_ns = tc->rt[0][i], r.duration_ns = tc->rt[1][i]; /* (checked by timeline_carries) */
    if ((rc = stack_of(s, t, &r.stack_id))) return rc;
    PCOL_RETURN_NOT_OK(b_in(s, pcol_b_sample(s->b, &r, v, pj - pi, NULL, s->err)));
    stretches |= r.duration_ns > 0 && r.weight <= 1;
  }
  if (stretches && (rc = mark_intervals(s, src))) return rc;
  if (pj - pi == 1 && ti == SIZE_MAX) { /* (a profile of its own: pcol's several are its export's) */
    double sum = 0;
    for (size_t i = 0; i < p0->nw; i++) sum += p0->weights[i];
    if ((rc = idle_gap(s, p0, src, sum))) return rc;
  }
  return ti != SIZE_MAX && !timed ? evented(s, ti, 0) : PCOL_OK; /* (a timeline that carries: checked) */
}

/* Profiles a (a source's first) and b belong to one source: both sampled,
 * b named "<a's prefix>: <type>", the same samples, b without the keys
 * pcol writes on a source's first profile only (pcolStart, pcolDuration,
 * pcolRecordingPart, pcolDefaultSampleType, pcolDefaultValue: the next
 * source's, of the same name and as empty, as a range's copy writes the
 * parts of a recording it has no samples of).  b's type may have blanks
 * (a Perun "mixed(time delta)"): a's prefix says where it starts. */
static int same_source(const sprof *a, const sprof *b) {
  if (!is_sampled(a) || !is_sampled(b) || !a->name_str || !b->name_str) return 0;
  if (b->src_start != PCOL_NA_I64 || b->src_dur != PCOL_NA_I64 || b->src_part != PCOL_NA_I64 || b->src_own ||
      b->src_default)
    return 0;
  size_t ka = name_prefix(a->name, a->namel);
  /* (by length: a prefix may hold NUL; b's type part, a value type's
   * name, none: name_prefix's rule) */
  return ka && b->namel > ka + 2 && memcmp(a->name, b->name, ka + 2) == 0 &&
         !memchr(b->name + ka + 2, 0, b->namel - ka - 2) && a->samples_kind == 1 &&
         b->samples_kind == 1 && a->ns == b->ns &&
         (!a->ns || memcmp(a->samples, b->samples, a->ns * sizeof *a->samples) == 0);
}

static int resolve(simp *s) {
  if (!s->have_shared || !s->have_frames) return at(s, "shared.frames", 0, 0, "missing or not an array");
  if (!s->have_profiles) return at(s, "profiles", 0, 0, "missing or not an array");
  s->tbad = calloc(s->ntree + 1, 1);
  s->tstack = calloc(s->ntree + 1, sizeof *s->tstack);
  if (!s->tbad || !s->tstack) return pcol_oom(s->err);
  for (size_t t = 1; t <= s->ntree; t++) /* parents come first */
    s->tbad[t] = s->tbad[s->tree[t - 1].parent] || s->tree[t - 1].frame >= s->nframes;
  size_t n = s->nps;
  for (size_t i = 0; i < n;) {
    const sprof *p = &s->ps[i];
    if (!p->is_obj || !p->type_str) return at(s, "profiles[%zu]", i, 0, "no string type");
    int rc;
    if (is_sampled(p)) {
      size_t j = i + 1;
      while (j < n && j - i < 64 && same_source(p, &s->ps[j])) j++;
      size_t ti = j < n && is_timeline_of(p, &s->ps[j]) ? j : SIZE_MAX, nt = ti != SIZE_MAX;
      /* the other threads' timelines of the source: their labels, else
       * checked, no source */
      while (nt && ti + nt < n && is_timeline_of(p, &s->ps[ti]) == 2 && is_timeline_of(p, &s->ps[ti + nt]) == 2) nt++;
      if ((rc = sampled(s, i, j, ti, nt))) return rc;
      for (i = ti == SIZE_MAX ? j : j + 1; i < j + nt; i++)
        if ((rc = evented(s, i, 0))) return rc;
    } else if (strcmp(p->type, "evented") == 0) {
      if ((rc = evented(s, i, 1))) return rc;
      i++;
    } else {
      return at(s, "profiles[%zu].type", i, 0, "neither \"sampled\" nor \"evented\"");
    }
  }
  return PCOL_OK;
}

int pcol_import_speedscope(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                           pcol_error *err) {
  simp s = {0};
  pcol_jpull j;
  s.b = b, s.name = name, s.err = err, s.j = &j, s.active = -1;
  /* names may hold NUL (pprof's do): speedscope keeps it, and so does pcol's export */
  int rc = pcol_jp_open(&j, in, name, opt, PCOL_JP_ALLOW_NUL, err);
  if (!rc) rc = read_doc(&s);
  if (!rc) rc = resolve(&s);
  if (!rc) rc = pcol_kept_verdict(s.kept, s.nkept, name, err);
  pcol_jp_close(&j);
  free(s.kept);
  for (size_t i = 0; i < s.nps; i++) {
    sprof *p = &s.ps[i];
    free(p->type), free(p->name), free(p->unit), free(p->samples), free(p->weights), free(p->st), free(p->brk);
    free(p->rt[0]), free(p->rt[1]), free(p->rt[2]), free(p->src_own), free(p->src_default);
    thread_free(p);
  }
  free(s.ps), free(s.floc), free(s.tree), free(s.tbad), free(s.tstack), free(s.open), free(s.work), free(s.thr_ls);
  free(s.pathf), free(s.pathn);
  free(s.fname), free(s.ffile);
  pcol_u64map_free(&s.tmap);
  return rc;
}
