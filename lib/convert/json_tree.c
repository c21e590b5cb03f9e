/* json_tree.c — a compact JSON tree from the pull tokenizer (json_tree.h).
 *
 * A value word: low 3 bits a tag, the rest its payload.
 *   1 null/true/false (payload 0, 1, 2)   2 an integer in 61 bits, inline
 *   3 an integer, index into ints         4 a double, index into reals
 *   5 a string, index into strs           6 an array, 7 an object: index into conts
 * Building is iterative (the tokenizer bounds the depth at 2048): the values
 * of the open containers wait on one stack and move into slots, contiguous,
 * when their container closes.  An array of numbers (a profile's sample
 * columns: most of what a big document keeps) takes no slots: one of small
 * integers goes to i32, 4 bytes each; any other (integers and doubles
 * mixed, as "time":[0,0.5,...]) to reals, 8 bytes each, its integers boxed
 * in NaN payloads (a JSON number is never NaN).  Its element words are
 * made when read (pcol_jt_at), as they were.  Such an array's numbers go
 * to i32 (while all are int32s) or reals as they are read, not through the
 * pending stack (8 bytes an element more while the largest array was
 * read), until an element that is not a number turns it into an ordinary
 * array (its integers leave i32 or reals, its doubles stay).  4.4M samples' stack, time
 * and weight columns: 70 MB, was 158 MB, and no pending stack. */
#include "json_tree.h"
#include "error.h"    /* pcol_oom */
#include "buf.h"      /* PCOL_GROW, pcol_buf_append, pcol_buf_free, ... */
#include <stdlib.h>
#include <string.h>

enum { T_LIT = 1, T_INT = 2, T_BIGINT = 3, T_REAL = 4, T_STR = 5, T_ARR = 6, T_OBJ = 7 };
/* the filter is asked about keys this deep at most; deeper ones are kept */
enum { MAXPATH = 48 };

static pcol_jv mk(uint64_t tag, uint64_t payload) { return payload << 3 | tag; }

/* where a container's elements are: the top two bits of pcol_jcont.first */
#define IN_SLOTS ((size_t)0)
#define IN_I32 ((size_t)1 << (sizeof(size_t) * 8 - 2))
#define IN_REALS ((size_t)2 << (sizeof(size_t) * 8 - 2))
#define WHERE(first) ((first) & ((size_t)3 << (sizeof(size_t) * 8 - 2)))
#define INDEX(first) ((first) & ~((size_t)3 << (sizeof(size_t) * 8 - 2)))

static int add_str(pcol_jtree *t, const char *s, size_t n, pcol_jv *out) {
  if (PCOL_GROW(t->strs, t->nstrs, t->capstrs) || PCOL_GROW(t->strs, t->nstrs + 1, t->capstrs)) return PCOL_ENOMEM;
  size_t off = t->bytes.len;
  if (pcol_buf_append(&t->bytes, s, n) || pcol_buf_append(&t->bytes, "", 1)) return PCOL_ENOMEM;
  t->strs[t->nstrs] = off;
  t->strs[t->nstrs + 1] = n;
  *out = mk(T_STR, t->nstrs / 2);
  t->nstrs += 2;
  return PCOL_OK;
}

static int add_int(pcol_jtree *t, int64_t i, pcol_jv *out) {
  if (i >= -((int64_t)1 << 60) && i < ((int64_t)1 << 60)) {
    *out = ((uint64_t)i << 3) | T_INT;
    return PCOL_OK;
  }
  if (PCOL_GROW(t->ints, t->nints, t->capints)) return PCOL_ENOMEM;
  t->ints[t->nints] = i;
  *out = mk(T_BIGINT, t->nints++);
  return PCOL_OK;
}

static int add_real(pcol_jtree *t, double d, pcol_jv *out) {
  if (PCOL_GROW(t->reals, t->nreals, t->capreals)) return PCOL_ENOMEM;
  t->reals[t->nreals] = d;
  *out = mk(T_REAL, t->nreals++);
  return PCOL_OK;
}

/* an integer boxed in a NaN's payload: |v| < 2^50 */
#define BOX_BIAS ((int64_t)1 << 50)
static double box_int(int64_t v) {
  uint64_t bits = 0x7ff8000000000000ull | (uint64_t)(v + BOX_BIAS);
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
static int64_t unbox_int(double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return (int64_t)(bits & 0x0007ffffffffffffull) - BOX_BIAS;
}

/* an array's words w[0..nw) as one of numbers (IN_I32, IN_REALS), when
 * they all are: its `first` in *first; 0 when they are not, -1 out of
 * memory */
static int packed(pcol_jtree *t, const pcol_jv *w, size_t nw, size_t *first) {
  size_t k, nreal = 0, r0 = t->nreals;
  int small = 1;
  for (k = 0; k < nw; k++) {
    int64_t v = (int64_t)w[k] >> 3;
    if ((w[k] & 7) == T_REAL) {
      /* its doubles came in a row, the last of reals (a flat array's) */
      if (!nreal) r0 = (size_t)(w[k] >> 3);
      if ((size_t)(w[k] >> 3) != r0 + nreal++) return 0;
      small = 0;
    } else if ((w[k] & 7) != T_INT || v < -BOX_BIAS || v >= BOX_BIAS) {
      return 0;
    } else if (v < INT32_MIN || v > INT32_MAX) {
      small = 0;
    }
  }
  if (nreal && r0 + nreal != t->nreals) return 0;
  if (small) {
    while (t->ni32 + nw > t->capi32)
      if (pcol_grow(&t->i32, &t->capi32, sizeof *t->i32)) return -1;
    if (t->ni32 > INDEX(SIZE_MAX)) return 0;
    for (k = 0; k < nw; k++) t->i32[t->ni32 + k] = (int32_t)((int64_t)w[k] >> 3);
    *first = IN_I32 | t->ni32;
    t->ni32 += nw;
    return 1;
  }
  if (r0 > INDEX(SIZE_MAX)) return 0;
  while (r0 + nw > t->capreals)
    if (pcol_grow(&t->reals, &t->capreals, sizeof *t->reals)) return -1;
  /* element k's double is at r0 + (the reals before it) <= r0 + k: placed
   * from the last down, none is overwritten before it is read */
  size_t j = nreal;
  for (k = nw; k-- > 0;)
    t->reals[r0 + k] = (w[k] & 7) == T_REAL ? t->reals[r0 + --j] : box_int((int64_t)w[k] >> 3);
  t->nreals = r0 + nw;
  *first = IN_REALS | r0;
  return 1;
}

/* a container of n elements (words w[0..nw)), or only counted (w NULL) */
static int add_cont(pcol_jtree *t, int obj, const pcol_jv *w, size_t nw, size_t n, pcol_jv *out) {
  if (PCOL_GROW(t->conts, t->nconts, t->capconts)) return PCOL_ENOMEM;
  size_t first;
  int p = !obj && w && nw ? packed(t, w, nw, &first) : 0;
  if (p < 0) return PCOL_ENOMEM;
  if (p) {
    t->conts[t->nconts].first = first;
    t->conts[t->nconts].n = n;
    *out = mk(T_ARR, t->nconts++);
    return PCOL_OK;
  }
  while (t->nslots + nw > t->capslots) {
    if (pcol_grow(&t->slots, &t->capslots, sizeof *t->slots)) return PCOL_ENOMEM;
  }
  if (nw) memcpy(t->slots + t->nslots, w, nw * sizeof *w);
  t->conts[t->nconts].first = w ? t->nslots : SIZE_MAX;
  t->conts[t->nconts].n = n;
  t->nslots += nw;
  *out = mk(obj ? T_OBJ : T_ARR, t->nconts++);
  return PCOL_OK;
}

typedef struct frame {
  int obj;
  size_t pend0; /* its first word on the pending stack */
  /* an array whose elements so far are numbers goes straight to where it
   * will be kept, not to the pending stack: NUM_I32 while all are int32s,
   * its n elements at i32[at..); NUM_REALS, at reals[at..) (integers
   * boxed) */
  int num;
  size_t at, n;
} frame;
enum { NUM_UNDECIDED, NUM_I32, NUM_REALS, NUM_OFF };

typedef struct bld {
  pcol_jtree *t;
  pcol_jpull *j;
  frame *fr;
  size_t nfr, capfr;
  pcol_jv *pend;
  size_t npend, cappend;
  pcol_buf keys[MAXPATH]; /* the path's keys, one buffer a level */
  const char *path[MAXPATH];
} bld;

static int push(bld *b, pcol_jv v) {
  if (PCOL_GROW(b->pend, b->npend, b->cappend)) return PCOL_ENOMEM;
  b->pend[b->npend++] = v;
  return PCOL_OK;
}

static int oom(bld *b) { return pcol_oom(b->j->err); }

/* the scalar of the current token */
static int scalar(bld *b, pcol_jv *v) {
  pcol_jpull *j = b->j;
  switch (j->tok) {
  case PCOL_JT_STR: return add_str(b->t, j->str, j->len, v);
  case PCOL_JT_INT: return add_int(b->t, j->i, v);
  case PCOL_JT_REAL: return add_real(b->t, j->d, v);
  case PCOL_JT_TRUE: *v = mk(T_LIT, 1); return PCOL_OK;
  case PCOL_JT_FALSE: *v = mk(T_LIT, 2); return PCOL_OK;
  default: *v = mk(T_LIT, 0); return PCOL_OK;
  }
}

/* COUNT: the value of the current key, counted */
static int counted(bld *b) {
  pcol_jpull *j = b->j;
  int rc;
  pcol_jv v;
  if ((rc = pcol_jp_next(j))) return rc;
  if (j->tok == PCOL_JT_OBJ) {
    if ((rc = pcol_jp_skip(j))) return rc;
    return add_cont(b->t, 1, NULL, 0, 0, &v) || push(b, v) ? oom(b) : PCOL_OK;
  }
  if (j->tok != PCOL_JT_ARR) return scalar(b, &v) || push(b, v) ? oom(b) : PCOL_OK;
  size_t n = 0;
  for (;;) {
    if ((rc = pcol_jp_next(j))) return rc;
    if (j->tok == PCOL_JT_ARR_END) break;
    if ((rc = pcol_jp_skip(j))) return rc;
    n++;
  }
  return add_cont(b->t, 0, NULL, 0, n, &v) || push(b, v) ? oom(b) : PCOL_OK;
}

/* A number of the array f staged in reals (1), or 0 when the token is
 * not one that can be (the array then goes on as any other). */
static int stage(pcol_jtree *t, frame *f, const pcol_jpull *j) {
  int real = j->tok == PCOL_JT_REAL;
  if (f->num == NUM_OFF || (!real && (j->tok != PCOL_JT_INT || j->i < -BOX_BIAS || j->i >= BOX_BIAS))) return 0;
  int small = !real && j->i >= INT32_MIN && j->i <= INT32_MAX;
  if (f->num == NUM_UNDECIDED) f->num = small ? NUM_I32 : NUM_REALS, f->at = small ? t->ni32 : t->nreals, f->n = 0;
  /* (nothing else adds to i32 or reals while an array is staged) */
  if (f->num == NUM_I32 && t->ni32 != f->at + f->n) return 0;
  if (f->num == NUM_REALS && t->nreals != f->at + f->n) return 0;
  if (f->num == NUM_I32 && !small) { /* not all int32s: its integers move to reals, boxed */
    while (t->nreals + f->n + 1 > t->capreals)
      if (pcol_grow(&t->reals, &t->capreals, sizeof *t->reals)) return -1;
    for (size_t k = 0; k < f->n; k++) t->reals[t->nreals + k] = box_int(t->i32[f->at + k]);
    t->ni32 = f->at;
    f->num = NUM_REALS, f->at = t->nreals;
    t->nreals += f->n;
  }
  if (f->num == NUM_I32) {
    if (PCOL_GROW(t->i32, t->ni32, t->capi32)) return -1;
    t->i32[t->ni32++] = (int32_t)j->i;
  } else {
    if (PCOL_GROW(t->reals, t->nreals, t->capreals)) return -1;
    t->reals[t->nreals++] = real ? j->d : box_int(j->i);
  }
  f->n++;
  return 1;
}

/* The array f's staged numbers as pending words, as they would have been:
 * it holds something else.  Its integers leave i32 or reals; its doubles
 * stay in reals, moved down over the integers that were among them. */
static int unstage(bld *b, frame *f) {
  pcol_jtree *t = b->t;
  if (f->num == NUM_I32) {
    for (size_t k = 0; k < f->n; k++)
      if (push(b, ((uint64_t)(int64_t)t->i32[f->at + k] << 3) | T_INT)) return PCOL_ENOMEM;
    t->ni32 = f->at;
  } else if (f->num == NUM_REALS) {
    size_t to = f->at;
    for (size_t k = 0; k < f->n; k++) {
      double d = t->reals[f->at + k];
      if (d != d) {
        if (push(b, ((uint64_t)unbox_int(d) << 3) | T_INT)) return PCOL_ENOMEM;
      } else {
        t->reals[to] = d;
        if (push(b, mk(T_REAL, to++))) return PCOL_ENOMEM;
      }
    }
    t->nreals = to;
  }
  f->num = NUM_OFF;
  return PCOL_OK;
}

/* The staged array f as a container: its numbers where they are. */
static int staged_cont(pcol_jtree *t, const frame *f, pcol_jv *out) {
  if (f->at > INDEX(SIZE_MAX)) return PCOL_ENOMEM;
  size_t first = (f->num == NUM_I32 ? IN_I32 : IN_REALS) | f->at;
  if (PCOL_GROW(t->conts, t->nconts, t->capconts)) return PCOL_ENOMEM;
  t->conts[t->nconts].first = first;
  t->conts[t->nconts].n = f->n;
  *out = mk(T_ARR, t->nconts++);
  return PCOL_OK;
}

static int run(bld *b, pcol_jfilter filter, void *ctx) {
  pcol_jpull *j = b->j;
  pcol_jtree *t = b->t;
  int rc;
  for (;;) {
    if ((rc = pcol_jp_next(j))) return rc;
    pcol_jv v;
    frame *top = b->nfr && !b->fr[b->nfr - 1].obj ? &b->fr[b->nfr - 1] : NULL;
    if (top && j->tok != PCOL_JT_ARR_END && top->num != NUM_OFF) {
      int s = stage(t, top, j);
      if (s < 0) return oom(b);
      if (s) continue;
      if (unstage(b, top)) return oom(b);
    }
    switch (j->tok) {
    case PCOL_JT_EOF: return pcol_error_set(j->err, PCOL_ECORRUPT, "%s: premature end of input", j->name);
    case PCOL_JT_KEY: {
      size_t lvl = b->nfr; /* the key's path: path[0..lvl) */
      if (add_str(t, j->str, j->len, &v) || push(b, v)) return oom(b);
      if (!filter || lvl > MAXPATH) continue;
      b->keys[lvl - 1].len = 0;
      if (pcol_buf_append(&b->keys[lvl - 1], j->str, j->len + 1)) return oom(b);
      b->path[lvl - 1] = (const char *)b->keys[lvl - 1].data;
      int act = filter(ctx, b->path, lvl);
      if (act == PCOL_JF_SKIP) {
        b->npend--; /* the key goes too */
        if ((rc = pcol_jp_skip(j))) return rc;
      } else if (act == PCOL_JF_COUNT) {
        if ((rc = counted(b))) return rc;
      }
      continue;
    }
    case PCOL_JT_OBJ:
    case PCOL_JT_ARR:
      if (PCOL_GROW(b->fr, b->nfr, b->capfr)) return oom(b);
      b->fr[b->nfr].obj = j->tok == PCOL_JT_OBJ;
      b->fr[b->nfr].pend0 = b->npend;
      b->fr[b->nfr].num = NUM_UNDECIDED;
      if (j->tok == PCOL_JT_ARR && b->nfr < MAXPATH) b->path[b->nfr] = NULL;
      b->nfr++;
      continue;
    case PCOL_JT_OBJ_END:
    case PCOL_JT_ARR_END: {
      frame f = b->fr[--b->nfr];
      if (f.num == NUM_I32 || f.num == NUM_REALS) { /* numbers only: nothing is pending */
        if (staged_cont(t, &f, &v)) return oom(b);
        break;
      }
      size_t nw = b->npend - f.pend0;
      /* an empty container ([] or {} before anything was pushed): pend may
       * still be NULL, and NULL + 0 is undefined (clang's UBSan stopped
       * fuzz_firefox; issue 42 F8); `none` is a real, empty container's
       * words, as add_cont's non-NULL w says */
      static const pcol_jv none[1];
      const pcol_jv *w = nw ? b->pend + f.pend0 : none;
      if (add_cont(t, f.obj, w, nw, f.obj ? nw / 2 : nw, &v)) return oom(b);
      b->npend = f.pend0;
      if (b->cappend > ((size_t)1 << 20) && b->npend < b->cappend / 8) { /* a big array's room, given back */
        size_t c = b->npend > 4096 ? 2 * b->npend : 8192;
        pcol_jv *np = realloc(b->pend, c * sizeof *np);
        if (np) b->pend = np, b->cappend = c;
      }
      break;
    }
    default:
      if (scalar(b, &v)) return oom(b);
      break;
    }
    if (b->nfr == 0) {
      t->root = v;
      if ((rc = pcol_jp_next(j))) return rc; /* only whitespace after it */
      return PCOL_OK;
    }
    if (push(b, v)) return oom(b);
  }
}

int pcol_jtree_build(pcol_jtree *t, pcol_jpull *j, pcol_jfilter filter, void *ctx) {
  memset(t, 0, sizeof *t);
  bld b;
  memset(&b, 0, sizeof b);
  b.t = t;
  b.j = j;
  int rc = run(&b, filter, ctx);
  free(b.fr);
  free(b.pend);
  for (size_t i = 0; i < MAXPATH; i++) pcol_buf_free(&b.keys[i]);
  return rc;
}

void pcol_jtree_free(pcol_jtree *t) {
  free(t->ints);
  free(t->reals);
  free(t->strs);
  pcol_buf_free(&t->bytes);
  free(t->conts);
  free(t->slots);
  free(t->i32);
  memset(t, 0, sizeof *t);
}

int64_t pcol_jt_int(const pcol_jtree *t, pcol_jv v) {
  if ((v & 7) == T_INT && v) return (int64_t)v >> 3;
  if ((v & 7) == T_BIGINT) return t->ints[v >> 3];
  return 0;
}

double pcol_jt_num(const pcol_jtree *t, pcol_jv v) {
  if ((v & 7) == T_REAL) return t->reals[v >> 3];
  return (double)pcol_jt_int(t, v);
}

const char *pcol_jt_str(const pcol_jtree *t, pcol_jv v) {
  if ((v & 7) != T_STR) return NULL;
  return (const char *)t->bytes.data + t->strs[2 * (v >> 3)];
}

size_t pcol_jt_strlen(const pcol_jtree *t, pcol_jv v) {
  return (v & 7) == T_STR ? t->strs[2 * (v >> 3) + 1] : 0;
}

size_t pcol_jt_size(const pcol_jtree *t, pcol_jv v) {
  return (v & 7) == T_ARR || (v & 7) == T_OBJ ? t->conts[v >> 3].n : 0;
}

pcol_jv pcol_jt_at(const pcol_jtree *t, pcol_jv arr, size_t i) {
  if ((arr & 7) != T_ARR) return 0;
  const pcol_jcont *c = &t->conts[arr >> 3];
  if (i >= c->n || c->first == SIZE_MAX) return 0;
  size_t at = INDEX(c->first) + i;
  switch (WHERE(c->first)) {
  case IN_I32: return ((uint64_t)(int64_t)t->i32[at] << 3) | T_INT;
  case IN_REALS: {
    double d = t->reals[at];
    return d != d ? ((uint64_t)unbox_int(d) << 3) | T_INT : mk(T_REAL, at);
  }
  default: return t->slots[at];
  }
}

const char *pcol_jt_member(const pcol_jtree *t, pcol_jv obj, size_t i, pcol_jv *val) {
  *val = 0;
  if ((obj & 7) != T_OBJ) return NULL;
  const pcol_jcont *c = &t->conts[obj >> 3];
  if (i >= c->n || c->first == SIZE_MAX) return NULL;
  *val = t->slots[c->first + 2 * i + 1];
  return pcol_jt_str(t, t->slots[c->first + 2 * i]);
}

pcol_jv pcol_jt_get(const pcol_jtree *t, pcol_jv obj, const char *key) {
  if ((obj & 7) != T_OBJ) return 0;
  const pcol_jcont *c = &t->conts[obj >> 3];
  if (c->first == SIZE_MAX) return 0;
  size_t kl = strlen(key);
  for (size_t i = 0; i < c->n; i++) {
    pcol_jv k = t->slots[c->first + 2 * i];
    if (pcol_jt_strlen(t, k) == kl && !memcmp(pcol_jt_str(t, k), key, kl)) return t->slots[c->first + 2 * i + 1];
  }
  return 0;
}
