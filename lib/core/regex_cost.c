/* regex_cost.c — what glibc's regcomp builds for one of pcol's POSIX forms
 * of a user's expression (regex_go.c), counted before regcomp is called,
 * so that an expression Go's regexp reads cheaply cannot make pcol take a
 * gigabyte or minutes (doc/safety.md, "Regular expressions").
 *
 * glibc (posix/regcomp.c, 2.36 here) parses the expression into a tree,
 * copies a counted repeat's operand for each count (x{3} is xxx, x{0,3}
 * is ((x?x)?x)?, x+ is xx*), drops the groups (REG_NOSUB) but empty ones,
 * makes a node of each tree node but concatenations (in post-order: \b is
 * two anchors in an alternation, \B too) and links them; then, for each
 * node, calc_eclosure_iter makes its epsilon closure, the sorted array of
 * the nodes it reaches through | ? * and anchors, after copying, at an
 * anchor, every node that anchor's closure reaches so that the copies
 * carry its constraint (duplicate_node_closure; a copy is found again by a
 * linear search over the copies).  A closure that met a node still in the
 * making (a loop) is kept only by the outer call: it is made again each
 * time it is met.  What it costs (measured: regcomp alone, RSS):
 *  - about 200 bytes a node and 8 an entry of the closures;
 *  - closures quadratic where nodes that match nothing follow one another:
 *    n alternatives (glibc nests them to the left: n^2 entries; 4,000: 127
 *    MB), x{0,n} (n^2), n optional pieces in a row ((.?){1000}: 88 MB);
 *  - anchors one after another copy each other's closures: the copies
 *    grow as the fifth power of the run (\b 30 times: 44 MB; 50: 590 MB,
 *    1.7 s; 100: past 4 GB), and loops through anchors are walked again
 *    and again ((a|\b)* 10 times: 4 s; 12: 34 s);
 *  - calc_eclosure_iter and duplicate_node_closure recurse along such
 *    chains ((?:\b\b\b\b\b\b\b\b\b\b){1000}: minutes, then SIGSEGV).
 * All counted here on the same automaton, built in the same order (so that
 * the anchors' copies are glibc's), and bounded (pcol's bounds; Go's
 * regexp allows 3.3 million instructions): RX_MAX_NODES nodes,
 * RX_MAX_CLONES copies, RX_MAX_CLOSURE entries, RX_MAX_WORK steps of the
 * closures (calls and entries merged), a recursion RX_MAX_DEPTH deep, and
 * RX_MAX_BYTES estimated (at these bounds regcomp takes at most about 30
 * MB and 0.3 s on this machine).  The counting stops at the first bound
 * passed: its own time is in proportion to the bounds, its memory about
 * 30 bytes a node.  Another libc's regcomp (musl's) builds something else:
 * there the bounds limit the expression's size, not exactly its cost. */
#include "regex_cost.h"
#include "pcol.h"
#include <stdlib.h>
#include <string.h>

#define RX_MAX_NODES (1u << 17)     /* the automaton's nodes, copies included */
#define RX_MAX_CLONES (1u << 14)    /* the anchors' copies */
#define RX_MAX_CLOSURE (1u << 22)   /* the closures' entries */
#define RX_MAX_WORK (1u << 23)      /* calc_eclosure_iter's calls and the entries they merge */
#define RX_MAX_DEPTH 10000u         /* its recursion (and duplicate_node_closure's) */
#define RX_MAX_BYTES (24u << 20)    /* the estimate: */
#define RX_NODE_BYTES 64u           /* an automaton node */
#define RX_TREE_BYTES 64u           /* a node of the parse tree */
#define RX_CLONE_BYTES 256u         /* an anchor's copy of a node (and its links) */
#define RX_MAX_PARSE (1u << 24)     /* bytes parsed, each copy of a repeat's operand again */

enum { NONE = 0xffffffffu };
/* node types: CH (a byte, a bracket, '.', the end: no epsilon link), then
 * the epsilon ones */
enum { CH, ALT, STAR, ANCH, SUB };
/* glibc's constraints (regex_internal.h): \b's anchors, \B's, ^, $ */
enum { WORD_FIRST = 0x2 | 0x4, WORD_LAST = 0x1 | 0x8, INSIDE_WORD = 0x1 | 0x4, INSIDE_NOTWORD = 0x2 | 0x8,
       LINE_FIRST = 0x10, LINE_LAST = 0x20 };

typedef struct rnode {
  uint32_t e[2]; /* epsilon links (ne of them), sorted */
  uint32_t org;  /* a copy's original */
  uint16_t cons; /* constraint */
  uint8_t type, ne, dup, state;
} rnode;

/* A piece of the automaton: its first node (NONE: glibc's NULL tree) and
 * the list of link slots (node * 2 + k) still to point at what follows. */
typedef struct frag {
  uint32_t first, head, tail;
} frag;
static const frag NULLF = {NONE, NONE, NONE};

typedef struct ccx {
  const unsigned char *s;
  size_t n;
  rnode *v;
  uint32_t *pend; /* the slot after each slot in a list */
  uint32_t len, cap;
  uint64_t work, tree; /* bytes parsed; glibc's parse tree's nodes (concatenations and groups too) */
  const char *why; /* a bound passed */
  int oom;
} ccx;

#define RX_DEEP "too deep for regcomp: chains of more than 10000 nodes that match nothing (pcol's bound)"

static int stop(const ccx *c) { return c->why || c->oom; }

static uint32_t add(ccx *c, int type, unsigned cons) {
  if (stop(c)) return NONE;
  if (c->len >= RX_MAX_NODES) {
    c->why = "too large for regcomp: more than 131072 automaton nodes, its counted repeats expanded (pcol's bound)";
    return NONE;
  }
  if (c->len == c->cap) {
    uint32_t cap = c->cap ? c->cap * 2 : 256;
    rnode *v = realloc(c->v, cap * sizeof *v);
    if (v) c->v = v;
    uint32_t *p = v ? realloc(c->pend, (size_t)cap * 2 * sizeof *p) : NULL;
    if (!p) {
      c->oom = 1;
      return NONE;
    }
    c->pend = p, c->cap = cap;
  }
  uint32_t k = c->len++;
  c->tree++;
  c->v[k] = (rnode){{NONE, NONE}, k, (uint16_t)cons, (uint8_t)type, 0, 0, 0};
  c->pend[2 * k] = c->pend[2 * k + 1] = NONE;
  return k;
}

/* frags: the list of a's slots then b's */
static void join(ccx *c, frag *a, const frag *b) {
  if (b->head == NONE) return;
  if (a->head == NONE) a->head = b->head;
  else c->pend[a->tail] = b->head;
  a->tail = b->tail;
}
static void pending(ccx *c, frag *f, uint32_t slot) {
  frag one = {NONE, slot, slot};
  c->pend[slot] = NONE;
  join(c, f, &one);
}
static void patch(ccx *c, const frag *f, uint32_t to) {
  for (uint32_t s = f->head; s != NONE; s = c->pend[s]) c->v[s / 2].e[s % 2] = to;
}
static frag concat(ccx *c, frag a, frag b) {
  if (a.first == NONE) return b;
  if (b.first == NONE) return a;
  c->tree++;
  patch(c, &a, b.first);
  return (frag){a.first, b.head, b.tail};
}
/* ALT(l, r): a NULL side links to what follows */
static frag alt(ccx *c, frag l, frag r) {
  uint32_t k = add(c, ALT, 0);
  if (k == NONE) return NULLF;
  frag f = {k, NONE, NONE};
  c->v[k].e[0] = l.first, c->v[k].e[1] = r.first;
  if (l.first == NONE) pending(c, &f, 2 * k);
  if (r.first == NONE) pending(c, &f, 2 * k + 1);
  join(c, &f, &l);
  join(c, &f, &r);
  return f;
}
static frag star(ccx *c, frag x) {
  uint32_t k = add(c, STAR, 0);
  if (k == NONE) return NULLF;
  patch(c, &x, k);
  c->v[k].e[0] = x.first;
  frag f = {k, NONE, NONE};
  pending(c, &f, 2 * k + 1);
  return f;
}
static frag one_eps(ccx *c, int type, unsigned cons) {
  uint32_t k = add(c, type, cons);
  if (k == NONE) return NULLF;
  frag f = {k, NONE, NONE};
  pending(c, &f, 2 * k);
  return f;
}
static frag one_ch(ccx *c) {
  uint32_t k = add(c, CH, 0);
  return k == NONE ? NULLF : (frag){k, NONE, NONE};
}

static frag parse_alt(ccx *c, size_t *i, int nest);

/* An interval {n}, {n,}, {n,m} at *i (on the '{'): its counts (hi -1: none)
 * and its length, 0 when it is none (glibc would refuse it; pcol never
 * writes one). */
static size_t interval(const ccx *c, size_t i, long *lo, long *hi) {
  size_t j = i + 1;
  long a = 0, b;
  if (j >= c->n || c->s[j] < '0' || c->s[j] > '9') return 0;
  while (j < c->n && c->s[j] >= '0' && c->s[j] <= '9') a = a < 100000 ? a * 10 + (c->s[j++] - '0') : (j++, a);
  b = a;
  if (j < c->n && c->s[j] == ',') {
    j++;
    b = -1;
    if (j < c->n && c->s[j] >= '0' && c->s[j] <= '9') b = 0;
    while (j < c->n && c->s[j] >= '0' && c->s[j] <= '9') b = b < 100000 ? b * 10 + (c->s[j++] - '0') : (j++, b);
  }
  if (j >= c->n || c->s[j] != '}' || (b >= 0 && b < a)) return 0;
  *lo = a, *hi = b;
  return j + 1 - i;
}

/* The repeat operator at *i, if any: its counts, its length. */
static size_t dup_op(const ccx *c, size_t i, long *lo, long *hi) {
  if (i >= c->n) return 0;
  switch (c->s[i]) {
  case '*': return *lo = 0, *hi = -1, 1;
  case '+': return *lo = 1, *hi = -1, 1;
  case '?': return *lo = 0, *hi = 1, 1;
  case '{': return interval(c, i, lo, hi);
  default: return 0;
  }
}

/* One expression of glibc's parse_expression at *i: an atom and the
 * repeat operators after it (at most up to `end`: a copy of it made
 * again stops where the operator being expanded begins). */
static frag parse_expr(ccx *c, size_t *i, int nest, size_t end) {
  size_t a0 = *i;
  uint32_t mark = c->len;
  frag f = NULLF;
  if (stop(c) || *i >= c->n) return NULLF;
  unsigned char ch = c->s[*i];
  c->work++;
  if (ch == '(') {
    (*i)++;
    if (*i < c->n && c->s[*i] == ')') {
      f = NULLF;
    } else {
      f = parse_alt(c, i, nest + 1);
    }
    if (*i < c->n && c->s[*i] == ')') (*i)++;
    c->tree++;
    if (f.first == NONE && !stop(c)) { /* an empty group: OPEN and CLOSE */
      frag o = one_eps(c, SUB, 0), cl = one_eps(c, SUB, 0);
      f = concat(c, o, cl);
    }
  } else if (ch == '[') {
    size_t j = *i + 1;
    if (j < c->n && c->s[j] == '^') j++;
    if (j < c->n && c->s[j] == ']') j++;
    while (j < c->n && c->s[j] != ']') j++;
    c->work += j - *i;
    *i = j < c->n ? j + 1 : j;
    f = one_ch(c);
  } else if (ch == '^' || ch == '$') { /* an anchor: no repeat after it */
    (*i)++;
    return one_eps(c, ANCH, ch == '^' ? LINE_FIRST : LINE_LAST);
  } else if (ch == '\\' && *i + 1 < c->n && (c->s[*i + 1] == 'b' || c->s[*i + 1] == 'B')) {
    int b = c->s[*i + 1] == 'b';
    *i += 2;
    frag x = one_eps(c, ANCH, b ? WORD_FIRST : INSIDE_WORD);
    frag y = one_eps(c, ANCH, b ? WORD_LAST : INSIDE_NOTWORD);
    return alt(c, x, y);
  } else {
    *i += ch == '\\' && *i + 1 < c->n ? 2 : 1;
    f = one_ch(c);
  }
  long lo, hi;
  size_t ol;
  while (!stop(c) && *i < end && (ol = dup_op(c, *i, &lo, &hi))) {
    size_t at = *i; /* the operator: a copy is the text before it */
    *i += ol;
    if (f.first == NONE) continue;
    if (lo == 0 && hi == 0) { /* x{0}: nothing (its nodes are the last made) */
      c->len = mark;
      f = NULLF;
      continue;
    }
    frag tree = NULLF, old = NULLF, x = f;
    if (lo > 0) {
      tree = f;
      for (long k = 2; k <= lo && !stop(c); k++) {
        size_t j = a0;
        tree = concat(c, tree, parse_expr(c, &j, nest, at));
      }
      if (lo == hi) {
        f = tree;
        continue;
      }
      size_t j = a0;
      x = parse_expr(c, &j, nest, at);
      old = tree;
    }
    tree = hi < 0 ? star(c, x) : alt(c, x, NULLF);
    for (long k = lo + 2; k <= hi && !stop(c); k++) {
      size_t j = a0;
      tree = concat(c, tree, parse_expr(c, &j, nest, at));
      tree = alt(c, tree, NULLF);
    }
    f = old.first != NONE ? concat(c, old, tree) : tree;
  }
  if (c->work > RX_MAX_PARSE && !c->why)
    c->why = "too large for regcomp: longer than 16 MiB, its counted repeats expanded (pcol's bound)";
  return f;
}

static frag parse_branch(ccx *c, size_t *i, int nest) {
  frag t = NULLF;
  while (!stop(c) && *i < c->n && c->s[*i] != '|' && !(nest && c->s[*i] == ')'))
    t = concat(c, t, parse_expr(c, i, nest, (size_t)-1));
  return t;
}

static frag parse_alt(ccx *c, size_t *i, int nest) {
  frag t = parse_branch(c, i, nest);
  while (!stop(c) && *i < c->n && c->s[*i] == '|') {
    (*i)++;
    frag b = NULLF;
    if (*i < c->n && c->s[*i] != '|' && !(nest && c->s[*i] == ')')) b = parse_branch(c, i, nest);
    t = alt(c, t, b);
  }
  return t;
}

/* glibc's duplicate_node: a copy of org carrying constraint cons. */
typedef struct cmap { /* (original, constraint) -> its last copy (search_duplicated_node) */
  uint64_t *k;
  uint32_t *v;
  size_t cap;
} cmap;
static uint64_t ckey(uint32_t org, unsigned cons) { return (uint64_t)org << 16 | cons; }
static size_t chash(uint64_t k, size_t cap) { return (size_t)((k * 0x9e3779b97f4a7c15u) >> 20) & (cap - 1); }
static uint32_t cmap_get(const cmap *m, uint32_t org, unsigned cons) {
  uint64_t k = ckey(org, cons) + 1;
  for (size_t h = chash(k, m->cap);; h = (h + 1) & (m->cap - 1)) {
    if (!m->k[h]) return NONE;
    if (m->k[h] == k) return m->v[h];
  }
}
static void cmap_put(cmap *m, uint32_t org, unsigned cons, uint32_t idx) {
  uint64_t k = ckey(org, cons) + 1;
  size_t h = chash(k, m->cap);
  while (m->k[h] && m->k[h] != k) h = (h + 1) & (m->cap - 1);
  m->k[h] = k, m->v[h] = idx;
}

typedef struct dcx {
  ccx *c;
  cmap m;
  uint32_t clones, orig; /* copies made; the nodes before the first */
  uint64_t scan;         /* search_duplicated_node's steps */
} dcx;

static uint32_t dup_node(dcx *d, uint32_t org, unsigned cons) {
  ccx *c = d->c;
  if (d->clones >= RX_MAX_CLONES) {
    if (!c->why)
      c->why = "too large for regcomp: its anchors (^ $ \\b \\B) one after another would make more than 16384 "
               "copies of the nodes after them (pcol's bound)";
    return NONE;
  }
  if (!d->m.k) { /* (the first copy: most expressions make none) */
    d->m.cap = (size_t)RX_MAX_CLONES * 2;
    d->m.k = calloc(d->m.cap, sizeof *d->m.k);
    d->m.v = malloc(d->m.cap * sizeof *d->m.v);
    if (!d->m.k || !d->m.v) {
      c->oom = 1;
      return NONE;
    }
  }
  uint32_t k = add(c, c->v[org].type, 0);
  if (k == NONE) return NONE;
  c->tree--; /* (a node of the automaton only) */
  rnode *n = &c->v[k];
  n->cons = (uint16_t)(cons | c->v[org].cons);
  n->dup = 1, n->org = org, n->ne = 0;
  cmap_put(&d->m, org, n->cons, k);
  d->clones++;
  return k;
}
static void set_insert(rnode *n, uint32_t x) { /* re_node_set_insert on a set of at most 2 */
  if (n->ne == 1 && n->e[0] == x) return;
  if (n->ne == 1 && x < n->e[0]) n->e[1] = n->e[0], n->e[0] = x;
  else n->e[n->ne] = x;
  n->ne++;
}

/* glibc's duplicate_node_closure from root, its recursion on the first
 * branch of a fork kept on a stack (its depth: glibc's). */
typedef struct dfr {
  uint32_t org, clone;
  unsigned cons;
} dfr;
static void dup_closure(dcx *d, uint32_t root, dfr **stk, size_t *scap) {
  ccx *c = d->c;
  size_t sp = 0;
  uint32_t org = root, clone = root;
  unsigned cons = c->v[root].cons;
  for (;;) {
    if (stop(c)) return;
    rnode *o = &c->v[org];
    uint32_t od, cd;
    int fork_done = 0;
    if (o->ne == 0 || o->type == CH) {
      fork_done = 1; /* end of this walk: back to a fork's second branch */
    } else if (o->ne == 1) {
      od = o->e[0];
      c->v[clone].ne = 0;
      if (org == root && clone != org) {
        set_insert(&c->v[clone], od);
        fork_done = 1;
      } else {
        cons |= o->cons;
        if ((cd = dup_node(d, od, cons)) == NONE) return;
        set_insert(&c->v[clone], cd);
        org = od, clone = cd;
      }
    } else {
      od = o->e[0];
      c->v[clone].ne = 0;
      cd = d->m.k ? cmap_get(&d->m, od, cons) : NONE;
      d->scan += cd == NONE ? d->clones : c->len - cd; /* (it scans from the last copy back) */
      if (cd == NONE) {
        if ((cd = dup_node(d, od, cons)) == NONE) return;
        set_insert(&c->v[clone], cd);
        if (sp == *scap) {
          size_t cap = *scap ? *scap * 2 : 64;
          dfr *s = realloc(*stk, cap * sizeof *s);
          if (!s) {
            c->oom = 1;
            return;
          }
          *stk = s, *scap = cap;
        }
        (*stk)[sp++] = (dfr){org, clone, cons};
        if (sp > RX_MAX_DEPTH) {
          c->why = RX_DEEP;
          return;
        }
        org = od, clone = cd;
        continue;
      }
      set_insert(&c->v[clone], cd);
      /* the second branch */
      od = c->v[org].e[1];
      if ((cd = dup_node(d, od, cons)) == NONE) return;
      set_insert(&c->v[clone], cd);
      org = od, clone = cd;
      continue;
    }
    if (!fork_done) continue;
    if (!sp) return;
    dfr f = (*stk)[--sp];
    org = f.org, clone = f.clone, cons = f.cons;
    od = c->v[org].e[1];
    if ((cd = dup_node(d, od, cons)) == NONE) return;
    set_insert(&c->v[clone], cd);
    org = od, clone = cd;
  }
}

int pcol_rx_cost(const char *ere, rx_cost *out, const char **why) {
  ccx c = {(const unsigned char *)ere, strlen(ere), NULL, NULL, 0, 0, 0, 0, NULL, 0};
  dcx d = {&c, {NULL, NULL, 0}, 0, 0, 0};
  uint32_t *stamp = NULL, *st = NULL;
  dfr *dstk = NULL;
  size_t dcap = 0;
  uint64_t closure = 0, depth = 0;
  memset(out, 0, sizeof *out);
  size_t i = 0;
  frag f = parse_alt(&c, &i, 0);
  frag end = one_ch(&c);
  f = concat(&c, f, end);
  if (!stop(&c)) {
    /* the links as glibc's re_node_set_init_2 keeps them: sorted, once */
    for (uint32_t k = 0; k < c.len; k++) {
      rnode *n = &c.v[k];
      n->ne = n->type == CH ? 0 : n->type == ALT || n->type == STAR ? 2 : 1;
      if (n->ne == 2 && n->e[0] > n->e[1]) {
        uint32_t t = n->e[0];
        n->e[0] = n->e[1], n->e[1] = t;
      }
      if (n->ne == 2 && n->e[0] == n->e[1]) n->ne = 1;
    }
    st = malloc((size_t)(RX_MAX_DEPTH + 1) * 2 * sizeof *st);
    if (!st) c.oom = 1;
  }
  /* calc_eclosure: each node's closure in order, depth first (state 1:
   * in progress, 2: done), an anchor's copies made as it is reached */
  for (uint32_t k = 0; k < c.len && !stop(&c); k++) {
    if (c.v[k].state) continue;
    size_t sp = 0;
    st[sp++] = k, st[sp++] = 0;
    c.v[k].state = 1;
    if (c.v[k].cons && c.v[k].ne && !c.v[c.v[k].e[0]].dup) dup_closure(&d, k, &dstk, &dcap);
    while (sp && !stop(&c)) {
      uint32_t x = st[sp - 2], j = st[sp - 1];
      if (j >= c.v[x].ne) {
        c.v[x].state = 2;
        sp -= 2;
        continue;
      }
      st[sp - 1]++;
      uint32_t y = c.v[x].e[j];
      if (c.v[y].state) continue;
      if (sp / 2 >= RX_MAX_DEPTH) {
        c.why = RX_DEEP;
        break;
      }
      st[sp++] = y, st[sp++] = 0;
      if (sp / 2 > depth) depth = sp / 2;
      c.v[y].state = 1;
      if (c.v[y].cons && c.v[y].ne && !c.v[c.v[y].e[0]].dup) dup_closure(&d, y, &dstk, &dcap);
    }
  }
  /* the closures' sizes: what each node reaches through epsilon links
   * (rsz: each node's) */
  uint32_t *rsz = NULL;
  if (!stop(&c) && (!(stamp = calloc(c.len, sizeof *stamp)) || !(rsz = malloc(c.len * sizeof *rsz)))) c.oom = 1;
  uint32_t *q = st; /* (a stack of nodes: at most 2 entries a node) */
  if (!stop(&c) && !(q = realloc(st, (size_t)c.len * 2 * sizeof *q))) c.oom = 1;
  if (q) st = q;
  for (uint32_t k = 0; k < c.len && !stop(&c); k++) {
    uint64_t before = closure;
    if (!c.v[k].ne) {
      rsz[k] = 1, closure++;
      continue;
    }
    size_t sp = 0;
    st[sp++] = k, stamp[k] = k + 1;
    while (sp) {
      uint32_t x = st[--sp];
      closure++;
      for (int j = 0; j < c.v[x].ne; j++) {
        uint32_t y = c.v[x].e[j];
        if (stamp[y] != k + 1) stamp[y] = k + 1, st[sp++] = y;
      }
    }
    rsz[k] = (uint32_t)(closure - before);
    if (closure > RX_MAX_CLOSURE)
      c.why = "too large for regcomp: more than 4194304 entries in its epsilon closures (what | ? * {0,n} and "
              "anchors reach one after another; pcol's bound)";
  }
  /* glibc's calc_eclosure_iter calls: a closure that met a node in
   * progress (a loop) is not kept unless it is the outer call's, but made
   * again each time it is needed; each merges its links' closures
   * (state: 0 to make, 1 in progress, 2 kept; st: node, link) */
  uint64_t calls = 0, merged = 0;
  for (uint32_t k = 0; k < c.len && !stop(&c); k++) c.v[k].state = 0;
  for (uint32_t k = 0; k < c.len && !stop(&c); k++) {
    if (c.v[k].state) continue;
    size_t sp = 0;
    st[sp++] = k, st[sp++] = 0;
    c.v[k].state = 1, calls++;
    stamp[k] = 0; /* (here: whether its closure is incomplete) */
    while (sp) {
      uint32_t x = st[sp - 2], j = st[sp - 1];
      if (j < c.v[x].ne) {
        uint32_t y = c.v[x].e[j];
        if (c.v[y].state == 0) { /* (x's link moves on when y is done) */
          if (sp / 2 >= RX_MAX_DEPTH) {
            c.why = RX_DEEP;
            break;
          }
          st[sp++] = y, st[sp++] = 0;
          c.v[y].state = 1, calls++, stamp[y] = 0;
          if (sp / 2 > depth) depth = sp / 2;
          continue;
        }
        if (c.v[y].state == 1) stamp[x] = 1;
        else merged += rsz[y];
        st[sp - 1]++;
        continue;
      }
      /* x is done: kept unless incomplete and not the outer call */
      c.v[x].state = stamp[x] && sp > 2 ? 0 : 2;
      int inc = stamp[x];
      sp -= 2;
      if (sp) { /* the caller merges it and goes on past that link */
        uint32_t p = st[sp - 2];
        merged += rsz[x];
        if (inc) stamp[p] = 1;
        st[sp - 1]++;
      }
      if (calls + merged > RX_MAX_WORK) {
        c.why = "too slow for regcomp: more than 8388608 steps of its epsilon closures (loops through | ? * and "
                "anchors; pcol's bound)";
        break;
      }
    }
  }
  out->nodes = c.len, out->clones = d.clones, out->closure = closure, out->depth = depth;
  out->calls = calls, out->merged = merged, out->scan = d.scan;
  /* (a closure made by merging others has room for what they held: for
   * anchors' copies more than it keeps) */
  out->bytes = (out->nodes - d.clones) * RX_NODE_BYTES + (uint64_t)d.clones * RX_CLONE_BYTES + c.tree * RX_TREE_BYTES +
               (merged > closure ? merged : closure) * 8;
  if (!c.why && !c.oom && out->bytes > RX_MAX_BYTES)
    c.why = "too large for regcomp: more than 24 MiB of automaton, estimated (pcol's bound)";
  free(c.v), free(c.pend), free(d.m.k), free(d.m.v), free(stamp), free(st), free(dstk), free(rsz);
  *why = c.why;
  return c.oom ? PCOL_ENOMEM : c.why ? PCOL_EINVAL : PCOL_OK;
}
