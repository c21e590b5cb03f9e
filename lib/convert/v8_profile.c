/* v8_profile.c — a V8 CPU profile (`node --cpu-prof`, Chrome DevTools'
 * "Save profile": the Profiler.Profile of the inspector protocol) into a
 * builder.
 *
 *   {"nodes": [{"id", "callFrame": {"functionName", "scriptId", "url",
 *               "lineNumber", "columnNumber"}, "hitCount", "children": [id]}],
 *    "startTime": us, "endTime": us, "samples": [id], "timeDeltas": [us]}
 *
 * or the old shape (V8's CpuProfileNode tree before the inspector protocol,
 * Node <= 10's profiler modules; speedscope and DevTools read it):
 *
 *   {"head": {"id", "functionName", "url", "lineNumber" (1-based), "hitCount",
 *             "children": [node]}, "startTime": s, "endTime": s,
 *    "samples": [id], "timestamps": [us]}
 *
 * (times since timestamps[0], as DevTools' legacy loader starts it; one
 * timestamp more than samples ends the last one).
 * A node's stack is its callFrame and its ancestors' up to, not including,
 * the tree's root "(root)" (in every stack, shown by no tool); V8's own
 * pseudo-frames (idle), (program) and (garbage collector) stay frames
 * under the root, as V8 and DevTools name them (but the samples of pcol's
 * exports' idle node, marked V8_KEY_IDLE_GAP: gaps, no samples; each ends
 * the one before).  lineNumber/columnNumber
 * are 0-based in V8 (-1: unknown) and 1-based in pcol.  A function without
 * a name is "(anonymous FILE:LINE)", "(anonymous FILE)" without a line, or
 * "(anonymous)" (node_location: the one rule).  A sample's stack is its
 * node's, but for a Chrome trace's sample with a line of its own (V8's,
 * PCOL_V8_SAMPLE_LINES): its node's frame at that line (leaf_line_stack).
 * Sample i is at timeDeltas[0..i] since startTime, the profile's start (a
 * negative delta does not move time back: speedscope's rule; a fraction of
 * a ns carried into the next delta, the deltas held judged by THE kept
 * rule: deltas_kept), weight 1,
 * with the values samples = 1 and wall = the time until the next sample (0
 * for the last one), in ns, so that the wall sums are speedscope's
 * per-frame weights, and lasting that long (duration = wall; the source
 * marked as intervals: a range counts the part of each sample inside it,
 * as DevTools sums a selection, spec.md §7.1); startTime and endTime (V8's clock, not the wall
 * clock) are meta.  A profile without samples (old format) gives each
 * node's hitCount as one untimed sample.
 * The document is read as a stream (lib/convert/json_pull.c): nodes, samples
 * and timeDeltas in any order into compact arrays, resolved at its end, so
 * memory follows the output, not the document.  doc/mappings.md §10. */
#include "v8_profile.h"
#include "keys.h"     /* PCOL_SRC_V8, PCOL_UNIT_COUNT, PCOL_UNIT_NANOSECONDS, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_error_in, pcol_oom */
#include "buf.h"      /* PCOL_GROW, pcol_release_heap */
#include "hash.h"     /* pcol_u64map_get, pcol_u64map, pcol_u64map_free */
#include "count.h"    /* pcol_kept_add, pcol_kept_verdict: THE kept rule */
#include "builder.h"  /* pcol_b_source_n */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vnode {
  int64_t hits;       /* hitCount (0 if none) */
  int64_t parent_id;  /* the parent form's "parent", -1 if none */
  uint32_t parent_ix; /* the old shape's parent: its index + 1, 0 = none */
  size_t kid0, nkids; /* its children in kids[] */
  uint32_t loc;       /* its location */
  uint32_t fn;        /* its location's function */
  int64_t col;        /* its location's column (1-based, NA when unknown) */
  uint8_t script;     /* a script's frame: a url, or a scriptId that is a non-zero number */
  uint8_t is_root_name, hits_bad;
  uint8_t idle_gap;   /* V8_KEY_IDLE_GAP: true (pcol's export's idle node: its samples are gaps) */
  /* what is wrong with it, reported in the order of the checks when the
   * ids are known: 1 no callFrame object, 2 its names, 3 its numbers */
  uint8_t cf_bad, kids_notarr, parent_bad;
} vnode;

typedef struct vimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  pcol_jpull *j;
  uint32_t src;
  uint32_t labelset;     /* every sample's labels (a Chrome trace's thread) */
  int sem;               /* the first error of meaning (reported when the JSON is valid) */
  size_t n;              /* nodes */
  int have_nodes;        /* "nodes" is an array */
  vnode *nodes;
  size_t capnodes;
  int64_t *kids;         /* every node's children ids, node after node */
  size_t nkids, capkids;
  uint32_t *parent;      /* node index -> parent index + 1, 0 = none */
  uint32_t *loc;         /* node index -> location (0: the skipped root) */
  uint32_t *stack;       /* node index -> stack id + 1, 0 = not yet */
  pcol_u64map map;       /* id -> its entry in ix (in the order ids were read) */
  uint32_t *ix;          /* entry -> node index (the old shape reads a node's id after its children's) */
  size_t nix, capix;
  uint32_t *work;
  vnum start, end;
  int samples_kind, deltas_kind; /* 0 absent, 1 an array, 2 something else */
  int abs_ts;                    /* the deltas are the old shape's "timestamps" (us) */
  int old;                       /* the old shape ("head") */
  int64_t *samples, *deltas;     /* node ids (-1: not an id), nanoseconds (the µs read to the ns);
                                 * resolve() rewrites both in place (node_code, run bounds) */
  size_t ns, capns, nd, capnd;
  int64_t *lines;                /* PCOL_V8_SAMPLE_LINES: each sample's line (1-based; 0 none) */
  size_t nl, capnl;
  int lines_kind;                /* 0 absent, 1 an array, 2 something else */
  double *resid;                 /* each delta's ns the file has more than deltas[] holds (the
                                  * double's fraction of a ns), NULL while all are whole ns (V8's
                                  * whole µs): THE kept rule's input (deltas_kept) */
  size_t capresid;
  int64_t carry;                 /* timeDeltas: the time so far not held, 1e-18 ns (|carry| <= 0.5 ns) */
  __int128 tsum;                 /* timeDeltas: the time so far, as held (ns) */
  size_t bad_delta;              /* the first delta that is not a number, or SIZE_MAX */
  int bad_delta_range;           /* ...and it is a number, out of range (review 14 m1) */
  char *fn, *url;                /* the callFrame being read */
  size_t fnl, urll, capfn, capurl;
  unsigned flags;                /* PCOL_V8_* */
  const vnum *origin;            /* the source's start (us), NULL: startTime */
  uint64_t lost[3];              /* PCOL_V8_ORPHANS_AT_ROOT: nodes whose parent is no
                                  * node, samples of no node, children ids of no node */
  int closing_mark;              /* V8_KEY_CLOSING_SAMPLE: true (pcol's export's closing sample) */
} vimp;

static int at(vimp *v, const char *path, size_t i, const char *what) {
  if (i == SIZE_MAX)
    return pcol_error_set(v->err, PCOL_ECORRUPT, "%s: %s: %s", v->name, path, what);
  return pcol_error_set(v->err, PCOL_ECORRUPT, "%s: %s[%zu]: %s", v->name, path, i, what);
}

/* A builder call's status: on failure its reason after the file's name. */
static int b_in(vimp *v, int rc) { return pcol_error_in(v->err, rc, v->name, 0); }

/* An error of meaning found while reading: the JSON after it is still
 * checked (a syntax error anywhere wins, as when the document was parsed
 * whole first), then it is the result. */
static int sem(vimp *v, int rc) {
  v->sem = rc;
  int r = pcol_jp_finish(v->j);
  return r ? r : rc;
}

/* get_int's rule on the current token: an integer, or a finite double
 * within +-9e15 (truncated). */
static int tok_int(const pcol_jpull *j, int64_t *out) {
  if (j->tok == PCOL_JT_INT) return *out = j->i, 0;
  if (j->tok == PCOL_JT_REAL) {
    double d = j->d;
    if (d != d || d < -9e15 || d > 9e15) return -1;
    return *out = (int64_t)d, 0;
  }
  return -1;
}

int pcol_v8_time_us(const pcol_jpull *j, double lim, int64_t *whole, int *frac, double *sub, int64_t *sub18) {
  if (sub) *sub = 0;
  if (sub18) *sub18 = 0;
  if (j->tok == PCOL_JT_INT) return *whole = j->i, *frac = 0, 0;
  if (j->tok != PCOL_JT_REAL || !(j->d > -lim && j->d < lim)) return -1;
  /* the number's text (JSON's grammar, json_pull.c): its digits dg[0..n),
   * the decimal point after p of them (p may be < 0 or > n) */
  const char *s = j->str;
  int neg = *s == '-', n = 0, seen = 0;
  long long ni = 0; /* (a count of the text's digits: any length) */
  char dg[48];
  long long p;
  s += neg;
  for (int frac_part = 0; (*s >= '0' && *s <= '9') || *s == '.'; s++) {
    if (*s == '.') { frac_part = 1; continue; }
    if (!seen && *s == '0') { ni -= frac_part; continue; } /* (leading zeros: none of the digits) */
    seen = 1;
    if (n < (int)sizeof dg) dg[n++] = *s; /* (more than 48 digits: below a 1e-20 ns from here) */
    ni += !frac_part;
  }
  if (!n) return *whole = 0, *frac = 0, 0; /* (0, 0.000, 0e999...: no digit but zeros) */
  long long e = 0;
  if (*s == 'e' || *s == 'E') {
    int eneg = *++s == '-';
    s += *s == '-' || *s == '+';
    /* (held to 1e15: a number within +-lim whose exponent is larger has as
     * many digits to undo it, which no input holds; the check below) */
    for (; *s >= '0' && *s <= '9'; s++) e = e < 100000000000000LL ? e * 10 + (*s - '0') : e;
    if (eneg) e = -e;
  }
  p = ni + e;
  /* dg[i] for i in any place: 0 outside [0, n) */
#define DG(i) ((i) >= 0 && (i) < n ? dg[i] - '0' : 0)
  uint64_t w = 0;
  for (long long i = 0; i < p; i++) {
    if (w > (UINT64_MAX - 9) / 10) return -1; /* (cannot be: |d| < lim) */
    w = w * 10 + (uint64_t)DG(i);
  }
  if (w > INT64_MAX - 1) return -1;
  int f = 100 * DG(p) + 10 * DG(p + 1) + DG(p + 2);
  /* what it has more than w µs f ns, in ns: its next 19 digits (past
   * them, less than 1e-19 ns) */
  uint64_t m = 0;
  int k = 0;
  for (long long i = p + 3; i < n && k < 19; i++, k++) m = m * 10 + (uint64_t)DG(i);
  long double r = (long double)m / powl(10, k);
  /* the same to 1e-18 ns, exactly (a sum of them: the deltas' carry) */
  int64_t q = 0;
  for (long long i = p + 3; i < p + 21; i++) q = q * 10 + DG(i);
  if (DG(p + 3) >= 5) r -= 1, f++, q -= PCOL_V8_NS18; /* (rounded half away from zero: the sign is put after) */
#undef DG
  if (f == 1000) f = 0, w++;
  /* the text read as the double reads it, to a ns: else (a text this
   * reading does not follow) the double's, as before the text was read,
   * never a time of another number (review h7 M1: a delta written with a
   * million digits read as 0, exit 0) */
  double mag = fabs(j->d);
  if (!(fabs((double)w + f / 1000.0 - mag) <= fmax(mag * 1e-9, 1e-3))) {
    double wd = trunc(j->d);
    int64_t ns = llround((j->d - wd) * 1000); /* -1000 .. 1000 */
    *whole = (int64_t)wd + ns / 1000, *frac = (int)(ns % 1000);
    return 0;
  }
  *whole = neg ? -(int64_t)w : (int64_t)w, *frac = neg ? -f : f;
  if (sub) *sub = (double)(neg ? -r : r);
  if (sub18) *sub18 = neg ? -q : q;
  return 0;
}

void pcol_v8_time_text(char out[40], int64_t whole, int frac) {
  if (!frac) {
    snprintf(out, 40, "%lld", (long long)whole);
    return;
  }
  unsigned long long w = whole < 0 ? 0 - (unsigned long long)whole : (unsigned long long)whole;
  int f = frac < 0 ? -frac : frac;
  int n = snprintf(out, 40, "%s%llu.%03d", whole < 0 || frac < 0 ? "-" : "", w, f);
  while (n > 0 && out[n - 1] == '0') out[--n] = 0; /* 12.500 -> 12.5 */
}

/* A time's ns (whole µs + frac ns), saturated at +-INT64_MAX (then out of
 * any range a time is checked against). */
static int64_t time_ns(int64_t whole, int frac) {
  if (whole > INT64_MAX / 1000 - 1) return INT64_MAX;
  if (whole < -(INT64_MAX / 1000 - 1)) return -INT64_MAX;
  return whole * 1000 + frac;
}

/* the value of the current key: its first token (skip_rest() after use) */
static int val(vimp *v) { return pcol_jp_next(v->j); }
static int skip_rest(vimp *v) { return pcol_jp_skip(v->j); }

static int copy_str(vimp *v, char **dst, size_t *dl, size_t *cap) {
  if (v->j->len + 1 > *cap) {
    char *p = realloc(*dst, v->j->len + 1);
    if (!p) return pcol_oom(v->err);
    *dst = p, *cap = v->j->len + 1;
  }
  memcpy(*dst, v->j->str, v->j->len + 1);
  *dl = v->j->len;
  return PCOL_OK;
}

/* V8's 0-based line or column as pcol's 1-based one.  -1 (V8's "unknown")
 * and any other negative are NA; so is INT64_MAX, whose 1-based form has
 * no int64 (line + 1 overflowed: UB, and NA by chance in a release build;
 * issue 42 F4), on purpose as the OTLP and Firefox importers do. */
static int64_t one_based(int64_t n) { return n >= 0 && n < INT64_MAX ? n + 1 : PCOL_NA_I64; }

/* A node's frame: line and col 1-based (pcol's), NA when unknown. */
static int node_location(vimp *v, const char *fs, size_t fl, const char *us, size_t ul,
                         int64_t line, int64_t col, uint32_t *loc, uint32_t *fn) {
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  pcol_line_row l = {0, line, col};
  f.start_line = l.line;
  int rc;
  if (fl) {
    rc = pcol_b_string(v->b, fs, fl, &f.name, v->err);
  } else if (ul) {
    /* a function without a name: "(anonymous <basename>:<line>)", speedscope's
     * name, where the line is known; "(anonymous <basename>)" where it is not
     * (V8's -1), as DevTools shows no line then (speedscope prints
     * ":undefined" or ":0", a line no file has).  The one rule: every view
     * and export reads this function name. */
    size_t k = ul;
    while (k > 0 && us[k - 1] != '/') k--;
    char *t = malloc(ul - k + 48);
    if (!t) return pcol_oom(v->err);
    /* by length, not %.*s: a basename may hold a NUL (\u0000 is read) */
    size_t tn = sizeof "(anonymous " - 1;
    memcpy(t, "(anonymous ", tn);
    memcpy(t + tn, us + k, ul - k);
    tn += ul - k;
    tn += (size_t)(line != PCOL_NA_I64 ? sprintf(t + tn, ":%lld)", (long long)line) : sprintf(t + tn, ")"));
    rc = pcol_b_string(v->b, t, tn, &f.name, v->err);
    free(t);
  } else {
    rc = pcol_b_cstr(v->b, "(anonymous)", &f.name, v->err);
  }
  if (!rc && ul) rc = pcol_b_string(v->b, us, ul, &f.filename, v->err);
  if (!rc) rc = pcol_b_function(v->b, &f, &l.function_id, v->err);
  if (!rc) rc = pcol_b_location(v->b, 0, 0, 0, &l, 1, loc, v->err);
  *fn = l.function_id;
  return b_in(v, rc);
}

/* A node's frame fields: in its callFrame object, or (the old shape) in
 * the node itself.  bad = 1: a field of the wrong type, 2: a number that
 * is not one. */
typedef struct vframe {
  int has_fn, has_url, bad;
  int script_id;     /* scriptId is a non-zero number (or a text of one: JavaScript's Number()) */
  int64_t line, col; /* as written; -1 when absent */
} vframe;

/* If the current key is a frame field: reads its value (the caller skips
 * the rest), *is = 1. */
static int frame_field(vimp *v, vframe *c, int *is) {
  pcol_jpull *j = v->j;
  int fn = pcol_jp_key_is(j, "functionName"), url = pcol_jp_key_is(j, "url");
  int ln = pcol_jp_key_is(j, "lineNumber"), cl = pcol_jp_key_is(j, "columnNumber");
  int sid = pcol_jp_key_is(j, "scriptId");
  int rc;
  *is = fn || url || ln || cl || sid;
  if (!*is) return PCOL_OK;
  if ((rc = val(v))) return rc;
  if (sid) {
    /* only whether it is one, for the samples' lines (DevTools' `Number(scriptId)
     * || url`): a native function's frame (scriptId 0, no url) gets none */
    double d = j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL ? j->d : j->tok == PCOL_JT_TRUE ? 1 : 0;
    if (j->tok == PCOL_JT_STR && (v->flags & PCOL_V8_SAMPLE_LINES) && pcol_js_str_num(j->str, j->len, &d))
      return pcol_oom(v->err);
    c->script_id = d == d && d != 0;
  } else if (fn || url) {
    if (j->tok != PCOL_JT_STR) c->bad |= 1;
    else if ((rc = fn ? copy_str(v, &v->fn, &v->fnl, &v->capfn) : copy_str(v, &v->url, &v->urll, &v->capurl)))
      return rc;
    else *(fn ? &c->has_fn : &c->has_url) = 1;
  } else if (tok_int(j, ln ? &c->line : &c->col)) {
    c->bad |= 2;
  }
  return PCOL_OK;
}

/* A callFrame object (its '{' read). */
static int call_frame(vimp *v, vframe *c) {
  pcol_jpull *j = v->j;
  int rc, is;
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    if ((rc = frame_field(v, c, &is)) || (!is && (rc = val(v))) || (rc = skip_rest(v))) return rc;
  }
  return rc;
}

/* A node (its '{' read) as node i = v->n.  The old shape (`"head"`, what
 * V8's CpuProfileNode gave before the inspector protocol; Node <= 10's
 * profilers): the frame fields are the node's own, lines and columns
 * 1-based (DevTools' legacy conversion subtracts 1), children are nodes
 * (read here, depth bounded by the tokenizer's 2048 levels); parent_ix is
 * its parent's index + 1 (0: the head). */
static int node(vimp *v, int old, uint32_t parent_ix) {
  pcol_jpull *j = v->j;
  const char *path = old ? "head" : "nodes";
  int rc, id_ok = 0, cf = old, kids_bad = 0, parent_bad = 0, is;
  vframe c = {0, 0, 0, 0, -1, -1};
  int64_t id = -1;
  if (v->n >= UINT32_MAX / 2 - 1) return sem(v, at(v, path, SIZE_MAX, "too many nodes"));
  if (PCOL_GROW(v->nodes, v->n, v->capnodes)) return pcol_oom(v->err);
  size_t i = v->n++; /* its children come after it (v->nodes moves: index, no pointer) */
  memset(&v->nodes[i], 0, sizeof v->nodes[i]);
  v->nodes[i].parent_id = -1;
  v->nodes[i].parent_ix = parent_ix;
  v->nodes[i].kid0 = v->nkids;
  int64_t hits = 0;
  int hits_bad = 0;
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    if (old && (rc = frame_field(v, &c, &is))) return rc;
    if (old && is) {
      /* read */
    } else if (pcol_jp_key_is(j, "id")) {
      if ((rc = val(v))) return rc;
      id_ok = !tok_int(j, &id) && id >= 0;
    } else if (!old && pcol_jp_key_is(j, "callFrame")) {
      if ((rc = val(v))) return rc;
      if (j->tok == PCOL_JT_OBJ) {
        cf = 1;
        if ((rc = call_frame(v, &c))) return rc;
      }
    } else if (pcol_jp_key_is(j, "children")) {
      if ((rc = val(v))) return rc;
      if (j->tok != PCOL_JT_ARR) {
        kids_bad |= 1;
      } else {
        /* this node's frame strings, read before its children, stay its
         * own: the children read theirs into fresh buffers */
        char *fn = v->fn, *url = v->url;
        size_t fnl = v->fnl, capfn = v->capfn, urll = v->urll, capurl = v->capurl;
        if (old) v->fn = v->url = NULL, v->capfn = v->capurl = 0;
        while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
          if (old && j->tok == PCOL_JT_OBJ) {
            if ((rc = node(v, 1, (uint32_t)i + 1)) || v->sem) break;
            continue; /* the child's '}' read */
          }
          if (old) {
            kids_bad |= 2;
          } else {
            if (PCOL_GROW(v->kids, v->nkids, v->capkids)) return pcol_oom(v->err);
            v->kids[v->nkids++] = j->tok == PCOL_JT_INT && j->i >= 0 ? j->i : -1; /* -1: a non-id */
          }
          if ((rc = skip_rest(v))) break;
        }
        if (old) {
          free(v->fn), free(v->url);
          v->fn = fn, v->url = url, v->fnl = fnl, v->capfn = capfn, v->urll = urll, v->capurl = capurl;
        }
        if (rc || v->sem) return rc ? rc : v->sem;
      }
    } else if (!old && pcol_jp_key_is(j, "parent")) {
      if ((rc = val(v))) return rc;
      if (j->tok != PCOL_JT_INT || j->i < 0) parent_bad = 1;
      else v->nodes[i].parent_id = j->i;
    } else if (pcol_jp_key_is(j, "hitCount")) {
      if ((rc = val(v))) return rc;
      hits_bad = tok_int(j, &hits) || hits < 0;
    } else if (!old && pcol_jp_key_is(j, V8_KEY_IDLE_GAP)) {
      if ((rc = val(v))) return rc;
      v->nodes[i].idle_gap = j->tok == PCOL_JT_TRUE;
    } else if ((rc = val(v))) {
      return rc;
    }
    if ((rc = skip_rest(v))) return rc;
  }
  if (rc) return rc;
  vnode *nd = &v->nodes[i];
  nd->hits = hits, nd->hits_bad = (uint8_t)hits_bad;
  if (!old) nd->nkids = v->nkids - nd->kid0;
  if (!id_ok) return sem(v, at(v, path, old ? SIZE_MAX : i, "id missing or not a number >= 0"));
  uint32_t idx;
  int added;
  if (pcol_u64map_get(&v->map, (uint64_t)id, &idx, &added)) return pcol_oom(v->err);
  if (!added) return sem(v, at(v, path, old ? SIZE_MAX : i, "id repeats an earlier node's"));
  if (PCOL_GROW(v->ix, v->nix, v->capix)) return pcol_oom(v->err);
  v->ix[v->nix++] = (uint32_t)i; /* idx == v->nix: only nodes add ids while reading */
  nd = &v->nodes[i];
  if (kids_bad & 2) return sem(v, at(v, path, SIZE_MAX, "children holds a non-node"));
  nd->cf_bad = !cf ? 1 : (c.bad & 1) ? 2 : (c.bad & 2) ? 3 : 0;
  nd->kids_notarr = kids_bad != 0;
  nd->parent_bad = (uint8_t)parent_bad;
  if (nd->cf_bad) return PCOL_OK; /* reported by resolve() */
  const char *fs = c.has_fn ? v->fn : "", *us = c.has_url ? v->url : "";
  size_t fl = c.has_fn ? v->fnl : 0, ul = c.has_url ? v->urll : 0;
  nd->is_root_name = fl == 6 && memcmp(fs, "(root)", 6) == 0;
  /* pcol's lines are 1-based: V8's 0-based ones + 1, the old shape's as
   * they are; below that, unknown */
  int64_t line = old ? (c.line > 0 ? c.line : PCOL_NA_I64) : one_based(c.line);
  int64_t col = old ? (c.col > 0 ? c.col : PCOL_NA_I64) : one_based(c.col);
  nd->col = col, nd->script = ul > 0 || c.script_id;
  return node_location(v, fs, fl, us, ul, line, col, &nd->loc, &nd->fn);
}
/* The node of an id: *node, or *missing.  (A missing id is added to the
 * map with no node: an entry past ix's, missing again when looked up
 * again, as under PCOL_V8_ORPHANS_AT_ROOT.) */
static int find_node(vimp *v, int64_t id, uint32_t *node, int *missing) {
  uint32_t k;
  if (pcol_u64map_get(&v->map, (uint64_t)id, &k, missing)) return pcol_oom(v->err);
  if (k >= v->nix) *missing = 1;
  else *node = v->ix[k];
  return PCOL_OK;
}

/* Whether time i starts a run of samples of one node in speedscope's
 * reading (resolve's times): the first, a new node, the last sample (its
 * run ends there), the old shape's end timestamp. */
/* the largest time of a sample (ns): 2^61 ns, so that a time, a shift
 * and their sum stay within int64 */
#define TIME_MAX (INT64_MAX / 4)

/* *a (n used of *cap) cut to its n: the doubling left up to half of it
 * spare, whole huge pages of it resident (buf.c grow_block), while the
 * builder's columns grow beside it (the import's peak).  Only a hint:
 * unchanged when realloc fails. */
static void fit(int64_t **a, size_t n, size_t *cap) {
  if (*a && n && n < *cap) {
    int64_t *p = realloc(*a, n * sizeof **a);
    if (p) *a = p, *cap = n;
  }
}

/* Sample i's node once resolve()'s pass 1 has made samples[i] its code:
 * the node's index, or -1 - its id when no node has it (a lost chunk's,
 * PCOL_V8_ORPHANS_AT_ROOT): UINT32_MAX. */
static uint32_t node_code(const vimp *v, size_t i) {
  return v->samples[i] >= 0 ? (uint32_t)v->samples[i] : UINT32_MAX;
}

/* resolve() gives back its arrays' pages behind it every so many samples */
#define V8_RELEASE_STRIDE ((size_t)1 << 16)

static int run_starts(const vimp *v, size_t i, size_t ns, int end_ts) {
  return i == 0 || i >= ns || v->samples[i] != v->samples[i - 1] || (!end_ts && i == ns - 1);
}

/* stack id of node i (builds its ancestors first, without recursion) */
static int node_stack(vimp *v, uint32_t i, uint32_t *out) {
  size_t nw = 0;
  uint32_t k = i;
  while (!v->stack[k]) {
    if (nw == v->n) return at(v, "nodes", SIZE_MAX, "the parent links form a cycle");
    v->work[nw++] = k;
    if (!v->parent[k]) break;
    k = v->parent[k] - 1;
  }
  uint32_t parent = v->stack[k] ? v->stack[k] - 1 : 0;
  while (nw) {
    uint32_t j = v->work[--nw];
    if (v->stack[j]) { parent = v->stack[j] - 1; continue; }
    uint32_t sid = parent;
    if (v->loc[j]) PCOL_RETURN_NOT_OK(b_in(v, pcol_b_stack_node(v->b, parent, v->loc[j], &sid, v->err)));
    v->stack[j] = sid + 1;
    parent = sid;
  }
  *out = v->stack[i] - 1;
  return PCOL_OK;
}


/* An array of numbers into *a (`samples`: ids, -1 for a non-id;
 * `timeDeltas`: a time (pcol_v8_time_us, within +-9e15 µs) in ns, *bad
 * the first that is not). */
static int numbers(vimp *v, int64_t **a, size_t *n, size_t *cap, int ids, size_t *bad) {
  pcol_jpull *j = v->j;
  int rc;
  while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
    int64_t x = 0;
    double r = 0; /* the ns of it x does not hold */
    if (ids) x = j->tok == PCOL_JT_INT && j->i >= 0 ? j->i : -1;
    else {
      int64_t w;
      int f;
      double sub = 0; /* (the text's: 0.123 µs is 123 ns, no fraction more) */
      int64_t sub18 = 0;
      if (!pcol_v8_time_us(j, 9e15, &w, &f, &sub, &sub18)) x = time_ns(w, f);
      else if (*bad == SIZE_MAX) *bad = *n, v->bad_delta_range = j->tok == PCOL_JT_REAL; /* (opt_num) */
      /* (a whole delta too while a half ns is carried: its sum may cross 0) */
      if ((sub != 0 || (!v->abs_ts && v->carry)) && x != INT64_MAX && x != -INT64_MAX && *bad != *n) {
        r = sub;
        /* a delta's time is the sum of those before it: each one's
         * fraction of a ns is carried into the next (exactly, in 1e-18 ns),
         * so that every time is the sum of the file's deltas rounded to the
         * ns as THE rule rounds a time, half away from zero (rounded one by
         * one, 0.4 ns deltas added up to nothing; a sum on a half ns, 0.2
         * and 0.3, went down with a carry of +0.5, up with one of -0.5).  A
         * carry of a half ns rounds the sum by its sign, so it is looked at
         * again after every delta, whole ones too: -1.5 ns is held as -2
         * (carry +0.5), and a whole 2 ns more makes 0.5, held as 1, not 0 */
        if (!v->abs_ts) {
          int64_t c = v->carry += sub18, s = 0;
          __int128 t = v->tsum + x; /* the time so far, as held */
          if (c > PCOL_V8_NS18 / 2 || (c == PCOL_V8_NS18 / 2 && t >= 0)) s = 1;
          else if (c < -PCOL_V8_NS18 / 2 || (c == -PCOL_V8_NS18 / 2 && t <= 0)) s = -1;
          if (s) x += s, r -= (double)s, v->carry -= s * PCOL_V8_NS18;
        }
      }
    }
    if (!ids && !v->abs_ts && x != INT64_MAX && x != -INT64_MAX) v->tsum += x;
    if (PCOL_GROW(*a, *n, *cap)) return pcol_oom(v->err);
    if (!ids && (r != 0 || v->resid) && v->capresid < *cap) { /* (made at the first delta not held) */
      double *p = realloc(v->resid, *cap * sizeof *p);
      if (!p) return pcol_oom(v->err);
      if (!v->resid) memset(p, 0, *n * sizeof *p);
      v->resid = p, v->capresid = *cap;
    }
    if (!ids && v->resid) v->resid[*n] = r;
    (*a)[(*n)++] = x;
    if ((rc = skip_rest(v))) return rc;
  }
  return rc;
}

/* A Chrome trace's `lines` (PCOL_V8_SAMPLE_LINES): each sample's line,
 * 1-based as V8 writes it; 0 (V8's "none") and anything that is not a
 * whole number >= 1 (2.0 is 2; 1.5, -3, "4", null are none) is none. */
static int sample_lines(vimp *v) {
  pcol_jpull *j = v->j;
  int rc;
  while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
    int64_t x;
    if (j->tok == PCOL_JT_REAL && j->d != trunc(j->d)) x = 0;
    else if (tok_int(j, &x) || x < 1) x = 0;
    if (PCOL_GROW(v->lines, v->nl, v->capnl)) return pcol_oom(v->err);
    v->lines[v->nl++] = x;
    if ((rc = skip_rest(v))) return rc;
  }
  return rc;
}

/* The stack of a sample of node k whose line is `line` (> 0): node k's
 * stack, its own frame at that line, when k is a script's frame (a url,
 * or a scriptId that is a non-zero number: DevTools' LineLevelProfile
 * rule; a native function's sample names its JS caller's line, which
 * DevTools shows nowhere).  Its function and column stay the node's
 * (the V8 export tells two functions of one line apart by the column);
 * its callers keep their function's line (V8 names no call site). */
static int leaf_line_stack(vimp *v, uint32_t k, int64_t line, uint32_t *sid) {
  const vnode *nd = &v->nodes[k];
  if (!nd->script || !v->loc[k]) return PCOL_OK;
  uint32_t parent = 0, loc;
  if (v->parent[k]) PCOL_RETURN_NOT_OK(node_stack(v, v->parent[k] - 1, &parent));
  pcol_line_row l = {nd->fn, line, nd->col};
  PCOL_RETURN_NOT_OK(b_in(v, pcol_b_location(v->b, 0, 0, 0, &l, 1, &loc, v->err)));
  if (loc == v->loc[k]) return PCOL_OK; /* the function's own line */
  return b_in(v, pcol_b_stack_node(v->b, parent, loc, sid, v->err));
}

/* What is wrong with the delta (or timestamp) at v->bad_delta. */
static const char *bad_delta_what(const vimp *v) {
  return v->bad_delta_range ? "time out of range" : "not a number";
}

static int opt_num(vimp *v, vnum *x) {
  int rc = val(v);
  if (rc) return rc;
  x->present = 1;
  /* 1: not a number, 2: a number out of range (review 10 m5: 1e300 was
   * "must be numbers") */
  x->bad = pcol_v8_time_us(v->j, 9e15, &x->v, &x->frac, NULL, NULL) == 0 ? 0 : v->j->tok == PCOL_JT_REAL ? 2 : 1;
  x->d = v->j->d;
  return PCOL_OK;
}

/* The document, read once: nodes into the builder's functions and
 * locations and compact arrays, samples and deltas into arrays. */
static int read_doc(vimp *v) {
  pcol_jpull *j = v->j;
  int rc = pcol_jp_next(j);
  if (rc) return rc;
  if (j->tok != PCOL_JT_OBJ) return sem(v, at(v, "$", SIZE_MAX, "not a JSON object"));
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    if (pcol_jp_key_is(j, "nodes")) {
      if ((rc = val(v))) return rc;
      if (j->tok != PCOL_JT_ARR) return sem(v, at(v, "nodes", SIZE_MAX, "missing or not an array"));
      v->have_nodes = 1;
      while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
        if (j->tok != PCOL_JT_OBJ) return sem(v, at(v, "nodes", v->n, "not an object"));
        if ((rc = node(v, 0, 0)) || v->sem) return rc ? rc : v->sem;
      }
      if (rc) return rc;
    } else if (pcol_jp_key_is(j, "head")) { /* the old shape: one tree */
      if ((rc = val(v))) return rc;
      if (j->tok != PCOL_JT_OBJ) return sem(v, at(v, "head", SIZE_MAX, "not an object"));
      v->have_nodes = v->old = 1;
      if ((rc = node(v, 1, 0)) || v->sem) return rc ? rc : v->sem;
    } else if (pcol_jp_key_is(j, "startTime")) {
      if ((rc = opt_num(v, &v->start))) return rc;
    } else if (pcol_jp_key_is(j, "endTime")) {
      if ((rc = opt_num(v, &v->end))) return rc;
    } else if (pcol_jp_key_is(j, V8_KEY_CLOSING_SAMPLE)) {
      if ((rc = val(v))) return rc;
      v->closing_mark = j->tok == PCOL_JT_TRUE;
    } else if (pcol_jp_key_is(j, "samples")) {
      if ((rc = val(v))) return rc;
      v->samples_kind = j->tok == PCOL_JT_ARR ? 1 : 2;
      if (j->tok == PCOL_JT_ARR && (rc = numbers(v, &v->samples, &v->ns, &v->capns, 1, NULL))) return rc;
    } else if (pcol_jp_key_is(j, "timeDeltas") || (pcol_jp_key_is(j, "timestamps") && v->deltas_kind != 1)) {
      /* the old shape's "timestamps" (absolute, us) only without timeDeltas */
      int abs = pcol_jp_key_is(j, "timestamps");
      if ((rc = val(v))) return rc;
      v->deltas_kind = j->tok == PCOL_JT_ARR ? 1 : 2;
      v->abs_ts = abs, v->nd = 0, v->bad_delta = SIZE_MAX, v->carry = 0, v->tsum = 0;
      free(v->resid), v->resid = NULL, v->capresid = 0;
      if (j->tok == PCOL_JT_ARR && (rc = numbers(v, &v->deltas, &v->nd, &v->capnd, 0, &v->bad_delta)))
        return rc;
    } else if ((v->flags & PCOL_V8_SAMPLE_LINES) && pcol_jp_key_is(j, "lines")) {
      if ((rc = val(v))) return rc;
      v->lines_kind = j->tok == PCOL_JT_ARR ? 1 : 2;
      v->nl = 0;
      if (j->tok == PCOL_JT_ARR && (rc = sample_lines(v))) return rc;
    } else if ((rc = val(v))) {
      return rc;
    }
    if ((rc = skip_rest(v))) return rc;
  }
  if (rc) return rc;
  return pcol_jp_finish(j);
}

/* The value type (type, unit) of the source, made and declared. */
static int value_type(vimp *v, const char *type, const char *unit, uint32_t *vt) {
  uint32_t t, u;
  int rc = pcol_b_cstr(v->b, type, &t, v->err);
  if (!rc) rc = pcol_b_cstr(v->b, unit, &u, v->err);
  if (!rc) rc = pcol_b_value_type(v->b, t, u, vt, v->err);
  if (!rc) rc = pcol_b_source_value_type(v->b, v->src, *vt, v->err);
  return b_in(v, rc);
}

/* Node i's error: "nodes[i]: ...", or in the old shape (a tree, not an
 * array) the node's place in document order. */
static int at_node(vimp *v, size_t i, const char *what) {
  if (!v->old) return at(v, "nodes", i, what);
  return pcol_error_set(v->err, PCOL_ECORRUPT, "%s: head: node %zu (in document order): %s", v->name, i + 1, what);
}

/* THE kept rule (pcol_kept_add, lib/core/count.c) of the times a profile
 * holds to the ns, of deltas that have a fraction of a ns (JSON allows
 * 0.0001; V8 writes whole µs, so a real profile has no v->resid): each
 * delta (or the old shape's difference of two timestamps), held as a whole
 * ns, is a length between two times, kept when it is the file's to a
 * millionth of the profile's extent (the largest time of a sample since
 * its start: ref).  The deltas' fractions are carried (numbers), so the
 * times lose at most half a ns each and the sum of the deltas at most
 * that: a profile refused is one of a few ns (deltas of 0.0001 µs made
 * every wall 0, "Total samples = 0", with exit 0), and one whose deltas
 * are a ns or less apart from the file's is read with one warning
 * (pcol_kept_verdict).  Called after pass 1 of resolve: deltas[0..nt)
 * are the elapsed times. */
static int deltas_kept(vimp *v, size_t nt) {
  const char *what = v->abs_ts ? "timestamps" : "timeDeltas";
  double ext = 0;
  for (size_t i = 0; i < nt; i++) ext = fmax(ext, fabs((double)v->deltas[i]));
  pcol_kept_tally t;
  memset(&t, 0, sizeof t);
  for (size_t i = 0; i < nt; i++) {
    int64_t held = v->deltas[i] - (i ? v->deltas[i - 1] : 0);
    /* µs, as the file has it: the double nearest it (its 1e-6 ns counted
     * whole, divided once: no digits of the arithmetic's in messages, as
     * the Chrome trace's stretches) */
    double w = (double)(((long double)held * 1000000 + llroundl((long double)v->resid[i] * 1000000)) / 1e9L);
    if (!pcol_kept_add(&t, w, held, 1000, ext / 1000)) continue;
    char m[300];
    snprintf(t.first_at, sizeof t.first_at, "%s[%zu] (µs)", what, i);
    snprintf(m, sizeof m, "%s %.6g µs is not held to six significant digits: pcol holds a V8 profile's times as whole "
             "ns (the profile's samples span %.6g ns)", v->abs_ts ? "the difference of a timestamp and the one before," : "the delta",
             w, ext);
    pcol_error *e = v->err;
    v->err = &t.refusal;
    at(v, what, i, m);
    v->err = e;
  }
  return pcol_kept_verdict(&t, 1, v->name, v->err);
}

/* What the document holds, in the order of checks of the importer that
 * read it whole. */
static int resolve(vimp *v) {
  int rc = PCOL_OK;
  if (!v->have_nodes) return at(v, "nodes", SIZE_MAX, "missing or not an array (nor an old-style \"head\" tree)");
  v->parent = calloc(v->n + 1, sizeof *v->parent);
  v->loc = calloc(v->n + 1, sizeof *v->loc);
  v->stack = calloc(v->n + 1, sizeof *v->stack);
  v->work = calloc(v->n + 1, sizeof *v->work);
  if (!v->parent || !v->loc || !v->stack || !v->work) return pcol_oom(v->err);
  for (size_t i = 0; i < v->n; i++) {
    vnode *nd = &v->nodes[i];
    static const char *cf_what[2][4] = {
        {"", "callFrame is not an object", "callFrame.functionName and .url must be strings",
         "callFrame.lineNumber and .columnNumber must be numbers"},
        {"", "", "functionName and url must be strings", "lineNumber and columnNumber must be numbers"}};
    if (nd->cf_bad) return at_node(v, i, cf_what[v->old][nd->cf_bad]);
    if (nd->parent_ix) v->parent[i] = nd->parent_ix; /* the old shape's tree */
    if (nd->kids_notarr) return at_node(v, i, "children is not an array");
    v->loc[i] = nd->loc;
    for (size_t c = 0; c < nd->nkids; c++) {
      uint32_t idx;
      int added;
      if (v->kids[nd->kid0 + c] < 0) return at_node(v, i, "children holds a non-id");
      if (find_node(v, v->kids[nd->kid0 + c], &idx, &added)) return pcol_oom(v->err);
      if (added && (v->flags & PCOL_V8_ORPHANS_AT_ROOT)) { /* lost with its chunk */
        v->lost[2]++;
        continue;
      }
      if (added) return at_node(v, i, "children names an id no node has");
      if (idx == i || (v->parent[idx] && v->parent[idx] != i + 1))
        return at_node(v, i, "a child with two parents");
      v->parent[idx] = (uint32_t)i + 1;
    }
    if (nd->parent_bad) return at_node(v, i, "parent is not an id");
    if (nd->parent_id >= 0) { /* the other form: parent ids */
      uint32_t idx;
      int added;
      if (find_node(v, nd->parent_id, &idx, &added)) return pcol_oom(v->err);
      if (added && (v->flags & PCOL_V8_ORPHANS_AT_ROOT)) { /* a chunk the trace lost */
        v->lost[0]++;
        continue;
      }
      if (added || idx == i) return at_node(v, i, "parent names an id no node has");
      v->parent[i] = idx + 1;
    }
  }
  /* the tree's root "(root)" is in every stack: no frame of its own */
  for (size_t i = 0; i < v->n; i++)
    if (!v->parent[i] && v->nodes[i].is_root_name) v->loc[i] = 0;
  if (v->start.bad == 2 || v->end.bad == 2)
    return at(v, v->start.bad == 2 ? "startTime" : "endTime", SIZE_MAX,
              "out of range (microseconds, at most 9e15 either side of 0)");
  if (v->start.bad || v->end.bad)
    return at(v, "startTime", SIZE_MAX, "startTime and endTime must be numbers (microseconds)");
  int has_start = v->start.present, has_end = v->end.present;
  vnum start = v->start, end = v->end;
  if (v->abs_ts) { /* the old shape: seconds, and sample times since the epoch in us */
    for (int k = 0; k < 2; k++) {
      vnum *x = k ? &end : &start;
      if (!x->present) continue;
      if (!(x->d > -9e9 && x->d < 9e9)) return at(v, k ? "endTime" : "startTime", SIZE_MAX, "out of range (seconds)");
      x->v = llround(x->d * 1e6), x->frac = 0;
    }
    /* times since the first timestamp, where DevTools' legacy loader starts
     * the profile (startTime is whole seconds in Node's files: 0.6 s early) */
    int64_t prev = v->nd ? v->deltas[0] : 0;
    double rprev = v->resid && v->nd ? v->resid[0] : 0;
    for (size_t i = 0; i < v->nd; i++) {
      int64_t ts = v->deltas[i];
      if (i == v->bad_delta) return at(v, "timestamps", i, bad_delta_what(v));
      if (__builtin_sub_overflow(ts, prev, &v->deltas[i])) return at(v, "timestamps", i, "time out of range");
      prev = ts;
      if (v->resid) { /* (what each difference does not hold) */
        double r = v->resid[i];
        v->resid[i] = r - rprev, rprev = r;
      }
    }
  }
  /* a Chrome trace's profiles are timed since one origin (the earliest
   * profile's startTime): the samples' times are shifted by startTime -
   * origin, so that the trace's threads share one timeline; time 0 of the
   * source is the origin (meta v8.time_origin_us), while its start, end
   * and duration stay the profile's own (DevTools' profileStartTime and
   * profileEndTime of the profile): one source's Duration, and its V8
   * export's startTime and endTime, are its own span.  Times are ns (the
   * µs read to the ns); the meta keys hold the whole µs (toward zero). */
  int64_t shift = 0;
  char num[40];
  if (v->origin && has_start) {
    __int128 sh = ((__int128)start.v - v->origin->v) * 1000 + (start.frac - v->origin->frac);
    if (sh < 0 || sh > INT64_MAX / 4)
      return at(v, "startTime", SIZE_MAX, "out of range (more than 2^51 us after the source's time 0: its trace's start, or first "
                "profile's)");
    shift = (int64_t)sh;
    snprintf(num, sizeof num, "%lld", (long long)v->origin->v);
    PCOL_RETURN_NOT_OK(b_in(v, pcol_b_meta_str(v->b, v->src, V8_META_TIME_ORIGIN_US, num, v->err)));
  }
  if (has_start) {
    snprintf(num, sizeof num, "%lld", (long long)start.v);
    PCOL_RETURN_NOT_OK(b_in(v, pcol_b_meta_str(v->b, v->src, V8_META_START_TIME_US, num, v->err)));
  }
  if (has_end) {
    snprintf(num, sizeof num, "%lld", (long long)end.v);
    PCOL_RETURN_NOT_OK(b_in(v, pcol_b_meta_str(v->b, v->src, "v8.end_time_us", num, v->err)));
  }
  /* the profile's length, as DevTools shows it (endTime - startTime, to
   * the ns; speedscope's profile weight): the source's duration (spec.md
   * §7), as Firefox's profiling range is; of a Chrome trace's profile
   * without an endTime, to its last sample (PCOL_V8_END_AT_LAST_SAMPLE) */
  __int128 len = -1;
  if (has_start && has_end && !((v->flags & PCOL_V8_END_AT_LAST_SAMPLE) && !end.v && !end.frac)) {
    len = ((__int128)end.v - start.v) * 1000 + (end.frac - start.frac);
  } else if (has_start && (v->flags & PCOL_V8_END_AT_LAST_SAMPLE) && v->deltas_kind == 1 && !v->abs_ts &&
             v->bad_delta == SIZE_MAX) {
    /* no endTime: the last sample's time, startTime + the deltas (DevTools'
     * TimelineModel: timeDeltas.reduce((x, y) => x + y, startTime)) */
    len = 0;
    for (size_t i = 0; i < v->nd; i++) len += v->deltas[i]; /* (128 bits: no overflow) */
  }
  if (len >= 0 && len <= INT64_MAX) {
    snprintf(num, sizeof num, "%lld", (long long)len);
    PCOL_RETURN_NOT_OK(b_in(v, pcol_b_meta_str(v->b, v->src, PPROF_META_DURATION_NANOS, num, v->err)));
    /* THE span rule of a trace's profile (JSON or Perfetto alike): its own
     * length, placed where its samples are on the trace's timeline, shift
     * after time 0 (spec.md §7: the window [start + pcol.span_start_ns,
     * ... + duration)), so that a range cuts the stretch of the trace it
     * names in every profile, and a profile's duration is its own */
    if (shift > 0) {
      snprintf(num, sizeof num, "%lld", (long long)shift);
      PCOL_RETURN_NOT_OK(b_in(v, pcol_b_meta_str(v->b, v->src, PCOL_META_SPAN_START_NS, num, v->err)));
    }
  }
  uint32_t vt_samples, vt_wall;
  PCOL_RETURN_NOT_OK(value_type(v, PCOL_VT_SAMPLES, PCOL_UNIT_COUNT, &vt_samples));
  if (!v->samples_kind) { /* the old form: hit counts only, no times */
    for (size_t i = 0; i < v->n; i++) {
      int64_t hits = v->nodes[i].hits;
      if (v->nodes[i].hits_bad) return at_node(v, i, "hitCount is not a count");
      if (!hits || v->nodes[i].idle_gap) continue; /* (pcol's idle node's: gaps) */
      pcol_sample_row s = {v->src, PCOL_NA_I64, 0, hits, PCOL_NA_I64, 0, v->labelset};
      pcol_value_row val = {vt_samples, hits};
      if ((rc = node_stack(v, (uint32_t)i, &s.stack_id))) return rc;
      PCOL_RETURN_NOT_OK(b_in(v, pcol_b_sample(v->b, &s, &val, 1, NULL, v->err)));
    }
    return PCOL_OK;
  }
  if (v->samples_kind != 1) return at(v, "samples", SIZE_MAX, "not an array");
  size_t ns = v->ns;
  /* the old shape may end with one more timestamp, the last sample's end
   * (DevTools' legacy loader adds one when it does not) */
  int end_ts = v->abs_ts && v->nd == ns + 1;
  if (v->deltas_kind != 1 || (v->nd != ns && !end_ts))
    return at(v, v->abs_ts ? "timestamps" : "timeDeltas", SIZE_MAX, "missing, or not as long as samples");
  if (!has_start) return at(v, "startTime", SIZE_MAX, "missing");
  PCOL_RETURN_NOT_OK(value_type(v, PCOL_VT_WALL, PCOL_UNIT_NANOSECONDS, &vt_wall));
  /* Times as speedscope's importer makes them, so that every wall equals
   * its: a run of samples of one node starts at its first sample's time,
   * never before the previous run's start (negative deltas: chunks out of
   * order), and lasts until the next run starts; the last sample lasts 0,
   * or until the old shape's end timestamp.  The samples inside a run keep
   * their own times, held between the run's start and the next one's, so
   * a time range still cuts the run where its samples were taken.
   * Pass 1: elapsed times (deltas[i] becomes sample i's), each sample's
   * node (ids checked); pass 2: each run's start (forward); pass 3: the
   * samples, each inside a run held before the next run's start.
   * In place, no array more (two of them were 12 bytes a sample, a
   * quarter of the import's peak: bench/results/stream-jfr-tachyon.md):
   * samples[i] becomes sample i's node (node_code: equal codes are equal
   * ids, so the runs stay the ids'), and a run start's time in deltas[]
   * its bound, which is all pass 3 reads of a run start. */
  fit(&v->samples, ns, &v->capns), fit(&v->deltas, v->nd, &v->capnd);
  int64_t elapsed = 0, lastvalid = INT64_MIN;
  size_t nt = end_ts ? ns + 1 : ns; /* times: one a sample (and the end) */
  for (size_t i = 0; i < nt && !rc; i++) {
    int64_t d = v->deltas[i];
    if (i < ns && v->samples[i] < 0) rc = at(v, "samples", i, "not a node id");
    else if (i == v->bad_delta) rc = at(v, "timeDeltas", i, bad_delta_what(v));
    else if (d > TIME_MAX || d < -TIME_MAX || (elapsed > 0 && d > TIME_MAX - elapsed) ||
             (elapsed < 0 && d < -TIME_MAX - elapsed))
      rc = at(v, "timeDeltas", i, "time out of range");
    if (rc) break;
    elapsed += d;
    v->deltas[i] = elapsed;
    if (i >= ns) break;
    int added;
    uint32_t k = 0;
    if (find_node(v, v->samples[i], &k, &added)) rc = pcol_oom(v->err);
    else if (added && (v->flags & PCOL_V8_ORPHANS_AT_ROOT)) /* its chunk was lost */
      v->samples[i] = -1 - v->samples[i], v->lost[1]++;
    else if (added) rc = at(v, "samples", i, "names an id no node has");
    else v->samples[i] = k;
  }
  if (!rc && v->resid) rc = deltas_kept(v, nt);
  /* The closing sample of pcol's V8 and Chrome exports (doc/mappings.md
   * §10.1): a last sample of the root, no frame, at endTime or before it
   * (the export's endTime is its source's span, which may end after the
   * samples), after others.  The export writes it so that the sample before lasts
   * until endTime (speedscope gives the last sample no time); it ends that
   * one here too and is no sample of its own (read as one, of wall 0 and
   * no stack, an export read back had one sample more: review 16 m1).
   * Only pcol's, marked V8_KEY_CLOSING_SAMPLE: a foreign file's own last
   * root sample at endTime is a sample, as DevTools and speedscope read it
   * (review L1).  Nothing else tells an older export's (1.0, 1.1: no mark)
   * from a foreign one: its every scriptId "0" is also node's and Chrome's
   * profile of no script frame ("(root)", "(program)", "(idle)", "(garbage
   * collector)"), and its closing sample is any root sample at endTime.  So
   * an older export's is read as DevTools and speedscope read it too: one
   * sample more, of the root, lasting 0 (review of L1's fallback). */
  int closing = 0;
  if (!rc && ns >= 2 && !end_ts && !v->abs_ts && has_start && has_end && v->samples[ns - 1] >= 0 &&
      v->closing_mark) {
    uint32_t k = node_code(v, ns - 1);
    __int128 at_end = ((__int128)end.v - start.v) * 1000 + (end.frac - start.frac);
    closing = !v->parent[k] && !v->loc[k] && v->deltas[ns - 1] <= at_end;
  }
  /* run starts (and the end): max(elapsed, the last run start's time) */
  for (size_t i = 0; i < nt && !rc; i++) {
    if (!run_starts(v, i, ns, end_ts)) continue;
    v->deltas[i] = v->deltas[i] > lastvalid ? v->deltas[i] : lastvalid;
    lastvalid = v->deltas[i];
  }
  /* inside a run, the time it must not pass: the next run start's bound
   * (the last run start's after it); nx, the next run start after i */
  size_t nx = 0;
  int64_t prev_t = 0, maxd = 0;
  uint32_t prev_node = 0;
  /* a Chrome trace's per-sample lines, one a sample (chrome_trace.c pads
   * a chunk without them with 0s) */
  const int64_t *lines = v->lines_kind == 1 && v->nl == ns ? v->lines : NULL;
  for (size_t i = 0; i <= ns && !rc; i++) {
    int64_t tns;
    /* what this pass has passed (it reads i - 1 on) is given back as the
     * builder's columns grow: the arrays' 16 bytes a sample were held
     * whole until the end, the peak */
    if (i > 1 && i % V8_RELEASE_STRIDE == 0)
      pcol_release_heap(v->samples, (i - 1) * sizeof *v->samples),
          pcol_release_heap(v->deltas, (i - 1) * sizeof *v->deltas);
    if (i < nt) {
      if (!run_starts(v, i, ns, end_ts)) { /* inside a run: its own time, held in */
        if (nx <= i)
          for (nx = i + 1; nx < nt && !run_starts(v, nx, ns, end_ts); nx++) {}
        int64_t bound = nx < nt ? v->deltas[nx] : lastvalid;
        int64_t t = v->deltas[i] > prev_t ? v->deltas[i] : prev_t;
        tns = t < bound ? t : bound;
      } else {
        tns = v->deltas[i];
      }
    } else {
      tns = prev_t; /* the last sample lasts 0 */
    }
    /* (a sample of pcol's idle node is a gap, no sample: it ends the one
     * before; THE gap rule of the export, V8_KEY_IDLE_GAP) */
    int gap = i > 0 && prev_node != UINT32_MAX && v->nodes[prev_node].idle_gap;
    if (i > 0 && !(closing && i == ns) && !gap) { /* sample i-1 lasts until sample i: [t, t + wall) */
      pcol_sample_row s = {v->src, prev_t + shift, tns - prev_t, 1, PCOL_NA_I64, 0, v->labelset};
      pcol_value_row val[2] = {{vt_samples, 1}, {vt_wall, tns - prev_t}};
      if (s.duration_ns > maxd) maxd = s.duration_ns;
      if (prev_node != UINT32_MAX && (rc = node_stack(v, prev_node, &s.stack_id))) break;
      if (prev_node != UINT32_MAX && lines && lines[i - 1] && (rc = leaf_line_stack(v, prev_node, lines[i - 1], &s.stack_id)))
        break;
      if ((rc = b_in(v, pcol_b_sample(v->b, &s, val, 2, NULL, v->err)))) break;
    }
    prev_t = tns;
    if (i < ns) prev_node = node_code(v, i);
  }
  /* each sample is the stretch [t, t + wall) until the next: a range
   * counts the part of it inside the range, as DevTools' Performance panel
   * sums a selection (spec.md §7.1, "Interval sources"; doc/mappings.md §10) */
  if (!rc) rc = b_in(v, pcol_b_meta_str(v->b, v->src, PCOL_META_INTERVALS, "1", v->err));
  if (!rc && maxd > 0) rc = b_in(v, pcol_v8_max_duration(v->b, v->src, maxd, v->err));
  return rc;
}

/* The length of the JavaScript white space or line terminator at s (n
 * bytes left; UTF-8), 0 when none. */
static size_t js_space(const unsigned char *s, size_t n) {
  if (*s == ' ' || (*s >= '\t' && *s <= '\r')) return 1;
  if (n >= 2 && s[0] == 0xC2 && s[1] == 0xA0) return 2; /* U+00A0 */
  if (n < 3) return 0;
  unsigned u = (unsigned)(s[0] & 0x0F) << 12 | (unsigned)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
  if ((s[0] & 0xF0) != 0xE0 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
  return (u == 0x1680 || (u >= 0x2000 && u <= 0x200A) || u == 0x2028 || u == 0x2029 || u == 0x202F ||
          u == 0x205F || u == 0x3000 || u == 0xFEFF) ? 3 : 0;
}

/* JavaScript's Number() of a string (StringToNumber): white space around
 * it, "" as 0, decimal forms, 0x/0o/0b integers, Infinity; NaN otherwise
 * (a scriptId here, a Chrome trace's ids and times in v8/chrome_trace.c).
 * -1: out of memory. */
int pcol_js_str_num(const char *str, size_t n, double *out) {
  const unsigned char *s = (const unsigned char *)str;
  size_t a = 0, b = n, w, i, k;
  *out = NAN;
  while (a < b && (w = js_space(s + a, b - a))) a += w;
  for (int more = 1; more && b > a;) {
    more = 0;
    for (size_t back = 1; back <= 3 && back <= b - a; back++)
      if (js_space(s + b - back, back) == back) {
        b -= back, more = 1;
        break;
      }
  }
  if (a == b) return *out = 0, 0;
  char *buf = malloc(4 * (b - a) + 8); /* (the digits of base 2 and 8 as hex need less) */
  if (!buf) return -1;
  int base = b - a > 2 && s[a] == '0' ? (s[a + 1] | 0x20) == 'x' ? 16 : (s[a + 1] | 0x20) == 'o' ? 8
                                      : (s[a + 1] | 0x20) == 'b' ? 2 : 0 : 0;
  if (base) { /* strtod reads hex, rounding as JavaScript does; 2 and 8 are written as hex */
    int bits = base == 16 ? 4 : base == 8 ? 3 : 1;
    size_t nd = b - a - 2, nb = nd * (size_t)bits, nh = (nb + 3) / 4, pad = nh * 4 - nb, o = 2;
    for (i = a + 2; i < b; i++) {
      int v = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : (s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f' ? (s[i] | 0x20) - 'a' + 10 : 99;
      if (v >= base) return free(buf), 0;
    }
    buf[0] = '0', buf[1] = 'x';
    if (base == 16) memcpy(buf + 2, s + a + 2, nd), o += nd;
    else
      for (size_t h = 0; h < nh; h++) {
        unsigned v = 0;
        for (size_t q = h * 4; q < h * 4 + 4; q++) {
          unsigned bit = 0;
          if (q >= pad) {
            size_t r = q - pad;
            bit = ((unsigned)(s[a + 2 + r / (size_t)bits] - '0') >> (bits - 1 - (int)(r % (size_t)bits))) & 1;
          }
          v = v << 1 | bit;
        }
        buf[o++] = "0123456789abcdef"[v];
      }
    buf[o] = 0;
    *out = strtod(buf, NULL);
    return free(buf), 0;
  }
  i = a + (s[a] == '+' || s[a] == '-');
  if (b - i == 8 && memcmp(s + i, "Infinity", 8) == 0) {
    *out = s[a] == '-' ? -INFINITY : INFINITY;
    return free(buf), 0;
  }
  for (k = 0; i < b && s[i] >= '0' && s[i] <= '9'; i++) k++;
  if (i < b && s[i] == '.')
    for (i++; i < b && s[i] >= '0' && s[i] <= '9'; i++) k++;
  if (k && i < b && (s[i] | 0x20) == 'e') {
    i += 1 + (i + 1 < b && (s[i + 1] == '+' || s[i + 1] == '-'));
    for (k = 0; i < b && s[i] >= '0' && s[i] <= '9'; i++) k++;
  }
  if (k && i == b) {
    memcpy(buf, s + a, b - a);
    buf[b - a] = 0;
    *out = strtod(buf, NULL); /* (past the doubles: ±Infinity, as in JavaScript) */
  }
  return free(buf), 0;
}

int pcol_v8_max_duration(pcol_builder *b, uint32_t src, int64_t maxd, pcol_error *err) {
  char num[32];
  if (maxd > 999999999999999999) return 0; /* past the key's 18 digits: readers scan (spec.md §7.2) */
  snprintf(num, sizeof num, "%lld", (long long)maxd);
  return pcol_b_meta_str(b, src, PCOL_META_MAX_DURATION_NS, num, err);
}

int pcol_v8_import_profile(pcol_builder *b, FILE *in, const char *name, const char *src_type, const char *uri,
                           size_t ulen, uint32_t labelset, unsigned flags, const vnum *origin, const pcol_import_options *opt,
                           uint32_t *source_id, uint64_t lost[3], pcol_error *err) {
  vimp v = {0};
  pcol_jpull j;
  v.b = b, v.name = name, v.err = err, v.j = &j, v.bad_delta = SIZE_MAX, v.labelset = labelset;
  v.flags = flags, v.origin = origin;
  /* names may hold NUL (pprof's do): the V8 and Chrome exports write it as \u0000 */
  int rc = pcol_jp_open(&j, in, name, opt, PCOL_JP_ALLOW_NUL, err);
  if (!rc) rc = b_in(&v, pcol_b_source_n(b, src_type, uri, ulen, PCOL_NA_I64, &v.src, err));
  if (!rc) rc = read_doc(&v);
  if (!rc) rc = resolve(&v);
  if (!rc && source_id) *source_id = v.src;
  if (!rc && lost) lost[0] = v.lost[0], lost[1] = v.lost[1], lost[2] = v.lost[2];
  pcol_jp_close(&j);
  free(v.nodes), free(v.kids), free(v.samples), free(v.deltas), free(v.resid), free(v.lines), free(v.fn), free(v.url);
  free(v.parent), free(v.loc), free(v.stack), free(v.work), free(v.ix);
  pcol_u64map_free(&v.map);
  return rc;
}
