/* graph.c — pcol_graph_compute: go tool pprof's call graph (-dot, -svg,
 * -png), pruned as pprof prunes it (report.go newTrimmedGraph over graph.go
 * newGraph, SortNodes(EntropyOrder), SelectTopNodes, TrimLowFrequencyEdges,
 * RemoveRedundantEdges).  The rules, pprof's:
 *
 * - A graph is built from a set of kept keys (every key at first).  Walking
 *   a stack from its root, outermost line first, a kept key adds the
 *   sample to its cum once per sample; it is called by the nearest kept key
 *   before it (a key calling itself is no call), the call counting once per
 *   sample, "residual" when dropped keys lie between them, "inline" when
 *   every first call per sample went into a line that is not the outermost
 *   of its location.  The sample's flat goes to its innermost key only when
 *   that key is kept (a dropped leaf gives flat to nobody).
 * - node cutoff = |int64(sum of flat x node_fraction)| on the full graph;
 *   keys with |cum| below it are dropped and the graph rebuilt.
 * - The nodes are sorted by entropy score (entropyScore: how evenly a
 *   node's weight spreads over its edges, times cum, plus flat), the first
 *   node_count kept and the graph rebuilt and sorted again when that drops
 *   any.
 * - Edges whose |weight| is below the edge cutoff go; then, from the last
 *   node to the first, residual incoming edges (lightest first) that another
 *   path from the same caller already explains.
 *
 * Each build is one walk over the stack nodes that carry weight (the
 * prefix tree top already summed), with an "on the path" count per key and
 * per edge: a key or edge adds the subtree weight of the node where it first
 * appears on the path (peek.c's walk, with a kept set).
 *
 * A node's label tags count as nodes when the first node_count are kept,
 * and the tags of the final graph are its label boxes, pprof's nodelets
 * (graph_tags.c). */
#include "query.h"
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "buf.h"      /* pcol_alloc_hot */
#include "hash.h"     /* pcol_u64map_free, pcol_u64map_get, pcol_u64map */
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef pcol_q_umag pcol_umag;
static pcol_umag mag(pcol_sum v) { return v < 0 ? -(pcol_umag)v : (pcol_umag)v; }

pcol_graph_opts pcol_graph_opts_default(void) {
  pcol_graph_opts o = {0.005, 0.001, 80, 0, 0, 0, 0, 0, NULL, 0};
  return o;
}

/* ------------------------------------------------------------ one build */
typedef struct gedge {
  uint32_t from, to; /* keys */
  pcol_sum w;
  uint8_t inl, res;
} gedge;

typedef struct gbuild {
  const pcol_q_inl_state *s;
  const uint8_t *kept; /* [nkeys + 1] */
  const pcol_sum *own; /* [nstacks + 1]: each stack node's own weight */
  uint32_t nokey;      /* top's "<no location>" key (0: none) */
  uint32_t *kk;        /* [nstacks + 1]: the last kept key on the path */
  uint8_t *res;        /* [nstacks + 1]: dropped keys after it */
  uint32_t *cnt;       /* [nkeys + 1]: on-path count */
  pcol_sum *flat, *cum; /* [nkeys + 1] */
  pcol_u64map map;     /* caller << 32 | callee -> edge */
  gedge *e;
  uint32_t *onpath;
  uint32_t ne, ecap;
} gbuild;

static void gbuild_free(gbuild *b) {
  free(b->kk);
  free(b->res);
  free(b->cnt);
  free(b->flat);
  free(b->cum);
  pcol_u64map_free(&b->map);
  free(b->e);
  free(b->onpath);
  memset(b, 0, sizeof *b);
}

static uint32_t edge_get(gbuild *b, uint32_t from, uint32_t to) {
  uint32_t i;
  int added;
  if (pcol_u64map_get(&b->map, (uint64_t)from << 32 | to, &i, &added)) return UINT32_MAX;
  if (!added) return i;
  if (b->ne == b->ecap) {
    uint32_t nc = b->ecap ? 2 * b->ecap : 256;
    gedge *e = realloc(b->e, nc * sizeof *e);
    if (e) b->e = e;
    uint32_t *o = realloc(b->onpath, nc * sizeof *o);
    if (o) b->onpath = o;
    if (!e || !o) return UINT32_MAX;
    b->ecap = nc;
  }
  b->ne++;
  gedge z = {from, to, 0, 1, 0};
  b->e[i] = z;
  b->onpath[i] = 0;
  return i;
}

/* The kept keys and calls at stack node n: mode 1 enters it (adding its
 * weight where a key or call is new on the path), 2 puts it back on the
 * path, 0 takes it off. */
static int node_visit(gbuild *b, uint32_t n, int mode) {
  const pcol_q_inl_state *s = b->s;
  uint32_t p = pcol_view_u32(&s->st_parent, n - 1), loc = pcol_view_u32(&s->st_loc, n - 1);
  if (p >= n) p = 0;
  uint32_t caller = b->kk[p];
  uint8_t residual = b->res[p];
  pcol_sum sub = pcol_q_nsum_at(&s->sub, n);
  for (uint32_t j = s->loc_aoff[loc + 1]; j > s->loc_aoff[loc]; j--) {
    uint32_t x = s->loc_all[j - 1], key = x & 0x7fffffffu;
    if (!b->kept[key]) {
      residual = 1;
      continue;
    }
    if (!mode) {
      b->cnt[key]--;
    } else if (b->cnt[key]++ == 0 && mode == 1) {
      b->cum[key] += sub;
    }
    if (caller && caller != key) {
      uint32_t e = edge_get(b, caller, key);
      if (e == UINT32_MAX) return PCOL_ENOMEM;
      if (!mode) {
        b->onpath[e]--;
      } else if (b->onpath[e]++ == 0 && mode == 1) {
        b->e[e].w += sub;
        if (residual) b->e[e].res = 1;
        if (!(x >> 31)) b->e[e].inl = 0;
      }
    }
    caller = key;
    residual = 0;
  }
  if (mode == 1) {
    b->kk[n] = caller;
    b->res[n] = residual;
    pcol_sum own = b->own[n];
    if (own != 0) {
      if (caller && !residual) {
        b->flat[caller] += own;
      } else if (!caller && !residual && b->nokey && b->kept[b->nokey]) {
        b->flat[b->nokey] += own; /* top's "<no location>": no key on the whole path */
        b->cum[b->nokey] += own;
      }
    }
  }
  return PCOL_OK;
}

static int build_visit(void *ctx, uint32_t n, int mode) {
  return node_visit(ctx, n, mode == PCOL_Q_LEAVE ? 0 : mode == PCOL_Q_ENTER ? 1 : 2);
}

static int build_reset(void *ctx) {
  gbuild *b = ctx;
  size_t nk = b->s->nkeys + 1;
  memset(b->cnt, 0, nk * sizeof *b->cnt);
  memset(b->flat, 0, nk * sizeof *b->flat);
  memset(b->cum, 0, nk * sizeof *b->cum);
  pcol_u64map_free(&b->map);
  memset(&b->map, 0, sizeof b->map);
  b->ne = 0;
  return 0;
}

static int gbuild_run(gbuild *b, const pcol_q_inl_state *s, const uint8_t *kept,
                      const pcol_sum *own, uint32_t nokey, const uint8_t *touched) {
  memset(b, 0, sizeof *b);
  b->s = s;
  b->kept = kept;
  b->own = own;
  b->nokey = nokey;
  size_t nk = s->nkeys + 1;
  /* a stack node or key each, fresh pages one fault each (pcol_alloc_hot) */
  b->kk = pcol_alloc_hot((s->nstacks + 1) * sizeof *b->kk, 0);
  b->res = pcol_alloc_hot(s->nstacks + 1, 0);
  b->cnt = pcol_alloc_hot(nk * sizeof *b->cnt, 1);
  b->flat = pcol_alloc_hot(nk * sizeof *b->flat, 1);
  b->cum = pcol_alloc_hot(nk * sizeof *b->cum, 1);
  if (!b->kk || !b->res || !b->cnt || !b->flat || !b->cum) return PCOL_ENOMEM;
  b->kk[0] = 0;
  b->res[0] = 0;
  if (pcol_q_stack_walk(&s->st_parent, touched ? touched : s->touched, s->nstacks, build_visit, build_reset, b))
    return PCOL_ENOMEM;
  return PCOL_OK;
}

/* ------------------------------------------------- the graph of a build */
typedef struct gnode {
  uint32_t key;
  pcol_sum flat, cum;
  pcol_str name;
  int64_t score;
  uint8_t phantom; /* a kept key of flat and cum 0 at an end of a call (text graph) */
} gnode;

typedef struct graph {
  gnode *n;
  size_t nn;   /* nodes, the phantoms last */
  size_t nph;  /* of which phantoms */
  gedge *e; /* from/to: indexes into n */
  uint8_t *dead;
  size_t ne;
  uint32_t *ioff, *in, *ooff, *out; /* CSR of live and dead edges per node */
} graph;

static void graph_free(graph *g) {
  free(g->n);
  free(g->e);
  free(g->dead);
  free(g->ioff);
  free(g->in);
  free(g->ooff);
  free(g->out);
  memset(g, 0, sizeof *g);
}

/* The nodes of b (pprof's selectNodesForGraph: a key with flat or cum),
 * named from t, and the edges between them.  phantoms: a kept key of flat
 * and cum 0 at an end of a call is a node too, after the others: pprof's
 * graph leaves it out of its nodes but keeps it in its nodes' calls, so
 * they stay (-tree prints them, never it; -dot counts them in the entropy
 * order and draws a call into one to "N0"). */
/* graph.go selectNodesForGraph: a key with flat or cum, and with
 * -drop_negative (dropneg) not of flat below 0 (or 0 with cum below 0) */
static int is_node(const gbuild *b, size_t k, int dropneg) {
  if (b->flat[k] == 0 && b->cum[k] == 0) return 0;
  return !(dropneg && pcol_q_negative(b->flat[k], b->cum[k]));
}

static int graph_make(const pcol_top *t, const gbuild *b, const uint8_t *kept, int dropneg,
                      graph *g, uint32_t *node_of, pcol_error *err) {
  memset(g, 0, sizeof *g);
  size_t nk = b->s->nkeys + 1, nn = 0;
  for (size_t k = 1; k < nk; k++)
    if (kept[k] && is_node(b, k, dropneg)) nn++;
  uint8_t *ph = calloc(nk, 1); /* the phantoms' keys */
  if (!ph) return pcol_oom(err);
  for (uint32_t i = 0; i < b->ne; i++) {
    uint32_t ends[2] = {b->e[i].from, b->e[i].to};
    for (int j = 0; j < 2; j++) {
      uint32_t k = ends[j];
      if (k < nk && kept[k] && !is_node(b, k, dropneg) && !ph[k]) ph[k] = 1, nn++, g->nph++;
    }
  }
  g->n = calloc(nn ? nn : 1, sizeof *g->n);
  g->e = malloc((b->ne ? b->ne : 1) * sizeof *g->e);
  g->dead = calloc(b->ne ? b->ne : 1, 1);
  g->ioff = calloc(nn + 1, sizeof *g->ioff);
  g->ooff = calloc(nn + 1, sizeof *g->ooff);
  g->in = malloc((b->ne ? b->ne : 1) * sizeof *g->in);
  g->out = malloc((b->ne ? b->ne : 1) * sizeof *g->out);
  if (!g->n || !g->e || !g->dead || !g->ioff || !g->ooff || !g->in || !g->out) {
    free(ph);
    return pcol_oom(err);
  }
  for (size_t k = 0; k < nk; k++) node_of[k] = UINT32_MAX;
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = 1; k < nk; k++) {
      if (pass ? !ph[k] : !(kept[k] && is_node(b, k, dropneg))) continue;
      gnode *x = &g->n[g->nn];
      x->key = (uint32_t)k;
      x->flat = b->flat[k];
      x->cum = b->cum[k];
      x->phantom = (uint8_t)pass;
      int rc = pcol_q_top_name(t, (uint32_t)k, &x->name, err);
      if (rc) {
        free(ph);
        return rc;
      }
      node_of[k] = (uint32_t)g->nn++;
    }
  free(ph);
  /* edges in the order they were made (an order of the walk, not of a hash) */
  for (uint32_t i = 0; i < b->ne; i++) {
    uint32_t f = node_of[b->e[i].from], to = node_of[b->e[i].to];
    if (f == UINT32_MAX || to == UINT32_MAX) continue; /* pprof keeps them in no node */
    gedge e = b->e[i];
    e.from = f;
    e.to = to;
    g->e[g->ne++] = e;
  }
  for (size_t i = 0; i < g->ne; i++) {
    g->ooff[g->e[i].from]++;
    g->ioff[g->e[i].to]++;
  }
  /* counts -> offsets (exclusive prefix sums, shifted) */
  uint32_t a = 0, c = 0;
  for (size_t i = 0; i <= nn; i++) {
    uint32_t x = g->ooff[i], y = g->ioff[i];
    g->ooff[i] = a;
    g->ioff[i] = c;
    a += x;
    c += y;
  }
  uint32_t *po = malloc((nn + 1) * sizeof *po), *pi = malloc((nn + 1) * sizeof *pi);
  if (!po || !pi) {
    free(po);
    free(pi);
    return pcol_oom(err);
  }
  memcpy(po, g->ooff, (nn + 1) * sizeof *po);
  memcpy(pi, g->ioff, (nn + 1) * sizeof *pi);
  for (size_t i = 0; i < g->ne; i++) {
    g->out[po[g->e[i].from]++] = (uint32_t)i;
    g->in[pi[g->e[i].to]++] = (uint32_t)i;
  }
  free(po);
  free(pi);
  return PCOL_OK;
}

/* Go's math.Log (the port of FreeBSD's e_log.c that Go runs), so that the
 * entropy scores, truncated to integers, order nodes as pprof's do. */
static double go_log(double x) {
  static const double Ln2Hi = 6.93147180369123816490e-01, Ln2Lo = 1.90821492927058770002e-10,
                      L1 = 6.666666666666735130e-01, L2 = 3.999999999940941908e-01,
                      L3 = 2.857142874366239149e-01, L4 = 2.222219843214978396e-01,
                      L5 = 1.818357216161805012e-01, L6 = 1.531383769920937332e-01,
                      L7 = 1.479819860511658591e-01;
  if (isnan(x) || isinf(x)) return x > 0 || isnan(x) ? x : NAN;
  if (x < 0) return NAN;
  if (x == 0) return -INFINITY;
  int ki;
  double f1 = frexp(x, &ki);
  if (f1 < M_SQRT2 / 2) {
    f1 *= 2;
    ki--;
  }
  double f = f1 - 1, k = (double)ki;
  double s = f / (2 + f), s2 = s * s, s4 = s2 * s2;
  double t1 = s2 * (L1 + s4 * (L3 + s4 * (L5 + s4 * L7)));
  double t2 = s4 * (L2 + s4 * (L4 + s4 * L6));
  double R = t1 + t2, hfsq = 0.5 * f * f;
  return k * Ln2Hi - ((hfsq - (s * (hfsq + R) + k * Ln2Lo)) - f);
}
/* Go's math.Log2 */
static double go_log2(double x) {
  int e;
  double fr = frexp(x, &e);
  if (fr == 0.5) return (double)(e - 1);
  return go_log(fr) * 0x1.71547652b82fep+0 /* Go's 1/Ln2, rounded once */ + (double)e;
}

static int64_t i64(pcol_sum v) {
  return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}
/* Go's abs64 in graph.go: -MinInt64 wraps to itself (two's complement,
 * done in unsigned arithmetic so that C has no overflow) */
static int64_t abs64(int64_t v) { return v < 0 ? (int64_t)(0 - (uint64_t)v) : v; }
/* Go's int64(x) on amd64 (CVTTSD2SQ): NaN and values out of range give
 * MinInt64 (a node whose weights are all negative has a NaN entropy) */
static int64_t go_int64(double x) {
  return x >= -0x1p63 && x < 0x1p63 ? (int64_t)x : INT64_MIN;
}

/* graph.go edgeEntropyScore over the live edges idx[0..m).  The total is
 * added in 128 bits, as every other sum here: in int64 (Go's, which wraps)
 * two edges near INT64_MAX overflowed, UB in C (issue 42 F5).  Below 2^63
 * in all nothing changes; past it Go's wrapped total gives a meaningless
 * score (often NaN), ours the true total's. */
static double edge_entropy(const graph *g, const uint32_t *idx, uint32_t m, int64_t self) {
  double score = 0;
  pcol_sum total = self;
  for (uint32_t i = 0; i < m; i++) {
    int64_t w = i64(g->e[idx[i]].w);
    if (w > 0) total += abs64(w);
  }
  if (total != 0) {
    for (uint32_t i = 0; i < m; i++) {
      double frac = (double)abs64(i64(g->e[idx[i]].w)) / (double)total;
      score += -frac * go_log2(frac);
    }
    if (self > 0) {
      double frac = (double)abs64(self) / (double)total;
      score += -frac * go_log2(frac);
    }
  }
  return score;
}

static int64_t entropy_score(const graph *g, size_t i) {
  const gnode *n = &g->n[i];
  double score = 0;
  uint32_t ni = g->ioff[i + 1] - g->ioff[i], no = g->ooff[i + 1] - g->ooff[i];
  if (ni == 0) score++;
  else score += edge_entropy(g, g->in + g->ioff[i], ni, 0);
  if (no == 0) score++;
  else score += edge_entropy(g, g->out + g->ooff[i], no, i64(n->flat));
  /* Go adds with wrap-around */
  return (int64_t)((uint64_t)go_int64(score * (double)i64(n->cum)) + (uint64_t)i64(n->flat));
}

static int str_cmp(pcol_str a, pcol_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  return c ? c : a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}

/* graph.go Nodes.Sort(EntropyOrder): |score| desc, name, |flat| desc */
static int node_cmp(const void *pa, const void *pb) {
  const gnode *a = pa, *b = pb;
  if (a->phantom != b->phantom) return a->phantom ? 1 : -1;
  int64_t x = abs64(a->score), y = abs64(b->score);
  if (x != y) return x > y ? -1 : 1;
  int c = str_cmp(a->name, b->name);
  if (c) return c;
  if (mag(a->flat) != mag(b->flat)) return mag(a->flat) > mag(b->flat) ? -1 : 1;
  return a->key < b->key ? -1 : a->key > b->key;
}

/* graph.go Nodes.Sort(FlatNameOrder): |flat| desc, name, |cum| desc */
static int node_cmp_flat(const void *pa, const void *pb) {
  const gnode *a = pa, *b = pb;
  if (a->phantom != b->phantom) return a->phantom ? 1 : -1;
  if (mag(a->flat) != mag(b->flat)) return mag(a->flat) > mag(b->flat) ? -1 : 1;
  int c = str_cmp(a->name, b->name);
  if (c) return c;
  if (mag(a->cum) != mag(b->cum)) return mag(a->cum) > mag(b->cum) ? -1 : 1;
  return a->key < b->key ? -1 : a->key > b->key;
}

/* The node orders of pcol_graph_opts: -dot's, and the text reports' */
enum { ORDER_ENTROPY, ORDER_FLAT, ORDER_CUM };

/* Sorts g's nodes (by `order`) and renumbers the edges' ends.  CumNameOrder
 * is EntropyOrder's comparison with the score |cum| (graph.go). */
static int graph_sort(graph *g, int order, pcol_error *err) {
  for (size_t i = 0; i < g->nn; i++)
    g->n[i].score = order == ORDER_CUM ? i64(g->n[i].cum) : order == ORDER_ENTROPY ? entropy_score(g, i) : 0;
  /* the permutation: sort (node, old index) pairs */
  uint32_t *old_key = malloc((g->nn + 1) * sizeof *old_key);
  if (!old_key) return pcol_oom(err);
  for (size_t i = 0; i < g->nn; i++) old_key[i] = g->n[i].key;
  if (g->nn > 1) qsort(g->n, g->nn, sizeof *g->n, order == ORDER_FLAT ? node_cmp_flat : node_cmp);
  /* new index of each old index: through the keys */
  uint32_t *newi = malloc((g->nn + 1) * sizeof *newi);
  pcol_u64map m = {0};
  int rc = newi ? PCOL_OK : pcol_oom(err);
  for (size_t i = 0; !rc && i < g->nn; i++) {
    uint32_t ix;
    int added;
    if (pcol_u64map_get(&m, g->n[i].key, &ix, &added)) rc = pcol_oom(err);
  }
  for (size_t i = 0; !rc && i < g->nn; i++) {
    uint32_t ix;
    int added;
    if (pcol_u64map_get(&m, old_key[i], &ix, &added)) rc = pcol_oom(err);
    else newi[i] = ix; /* the n-th new key got index n: its new position */
  }
  if (!rc) {
    for (size_t i = 0; i < g->ne; i++) {
      g->e[i].from = newi[g->e[i].from];
      g->e[i].to = newi[g->e[i].to];
    }
    /* the CSR again, in the new numbering */
    memset(g->ioff, 0, (g->nn + 1) * sizeof *g->ioff);
    memset(g->ooff, 0, (g->nn + 1) * sizeof *g->ooff);
    for (size_t i = 0; i < g->ne; i++) {
      g->ooff[g->e[i].from]++;
      g->ioff[g->e[i].to]++;
    }
    uint32_t a = 0, c = 0;
    for (size_t i = 0; i <= g->nn; i++) {
      uint32_t x = g->ooff[i], y = g->ioff[i];
      g->ooff[i] = a;
      g->ioff[i] = c;
      a += x;
      c += y;
    }
    /* a cursor per node */
    uint32_t *po = malloc((g->nn + 1) * sizeof *po), *pi = malloc((g->nn + 1) * sizeof *pi);
    if (!po || !pi) {
      rc = pcol_oom(err);
    } else {
      memcpy(po, g->ooff, (g->nn + 1) * sizeof *po);
      memcpy(pi, g->ioff, (g->nn + 1) * sizeof *pi);
      for (size_t i = 0; i < g->ne; i++) {
        g->out[po[g->e[i].from]++] = (uint32_t)i;
        g->in[pi[g->e[i].to]++] = (uint32_t)i;
      }
    }
    free(po);
    free(pi);
  }
  pcol_u64map_free(&m);
  free(newi);
  free(old_key);
  return rc;
}

/* graph.go TrimLowFrequencyEdges: how many live edges it removes */
static size_t trim_edges(graph *g, pcol_umag cut) {
  size_t d = 0;
  /* (pprof trims each node's incoming calls: a phantom's stay) */
  for (size_t i = 0; i < g->ne; i++)
    if (!g->dead[i] && !g->n[g->e[i].to].phantom && mag(g->e[i].w) < cut) {
      g->dead[i] = 1;
      d++;
    }
  return d;
}

/* graph.go edgeList.Less over edge indexes */
static int edge_cmp(const void *pa, const void *pb, void *ctx) {
  const graph *g = ctx;
  const gedge *a = &g->e[*(const uint32_t *)pa], *b = &g->e[*(const uint32_t *)pb];
  if (a->w != b->w && mag(a->w) != mag(b->w)) return mag(a->w) > mag(b->w) ? -1 : 1;
  int c = str_cmp(g->n[a->from].name, g->n[b->from].name);
  if (c) return c;
  c = str_cmp(g->n[a->to].name, g->n[b->to].name);
  if (c) return c;
  return a->from != b->from ? (a->from < b->from ? -1 : 1) : a->to < b->to ? -1 : a->to > b->to;
}
/* qsort_r (glibc; the library is built with _GNU_SOURCE, as fold.c and
 * list.c are): the graph is the sort's context, not a global, so two threads
 * may compute graphs at once */
static void sort_edges(const graph *g, uint32_t *idx, size_t m) {
  if (m > 1) qsort_r(idx, m, sizeof *idx, edge_cmp, (void *)g);
}

/* graph.go isRedundantEdge: another path of live edges leads from e's
 * caller to its callee (a breadth-first search up the callers). */
static int redundant(const graph *g, uint32_t ei, uint32_t *queue, uint8_t *seen) {
  uint32_t src = g->e[ei].from, dst = g->e[ei].to;
  memset(seen, 0, g->nn);
  size_t qh = 0, qt = 0;
  seen[dst] = 1;
  queue[qt++] = dst;
  while (qh < qt) {
    uint32_t n = queue[qh++];
    for (uint32_t j = g->ioff[n]; j < g->ioff[n + 1]; j++) {
      uint32_t ie = g->in[j];
      if (g->dead[ie] || ie == ei || seen[g->e[ie].from]) continue;
      if (g->e[ie].from == src) return 1;
      seen[g->e[ie].from] = 1;
      queue[qt++] = g->e[ie].from;
    }
  }
  return 0;
}

/* graph.go RemoveRedundantEdges */
static int remove_redundant(graph *g, pcol_error *err) {
  uint32_t *queue = malloc((g->nn + 1) * sizeof *queue), *idx = malloc((g->ne + 1) * sizeof *idx);
  uint8_t *seen = malloc(g->nn + 1);
  int rc = queue && idx && seen ? PCOL_OK : pcol_oom(err);
  /* (pprof walks its nodes' incoming calls: a phantom's stay; the search
   * goes through phantoms as through any caller) */
  for (size_t i = g->nn - g->nph; !rc && i > 0; i--) {
    size_t m = 0;
    for (uint32_t j = g->ioff[i - 1]; j < g->ioff[i]; j++)
      if (!g->dead[g->in[j]]) idx[m++] = g->in[j];
    sort_edges(g, idx, m);
    for (size_t j = m; j > 0; j--) {
      uint32_t e = idx[j - 1];
      if (!g->e[e].res) break; /* pprof stops at the first edge that is not residual */
      if (redundant(g, e, queue, seen)) g->dead[e] = 1;
    }
  }
  free(queue);
  free(idx);
  free(seen);
  return rc;
}

/* ------------------------------------------------------------- compute */
/* pcol_graph's in_off/in_edge, out_off/out_edge: a count pass and a place
 * pass over the edges (so each node's keep the edges' order) */
static int node_edges(pcol_graph *g, pcol_error *err) {
  size_t n = g->nnodes + g->nphantom, m = g->nedges;
  g->in_off = calloc(n + 2, sizeof *g->in_off);
  g->out_off = calloc(n + 2, sizeof *g->out_off);
  g->in_edge = malloc((m + 1) * sizeof *g->in_edge);
  g->out_edge = malloc((m + 1) * sizeof *g->out_edge);
  if (!g->in_off || !g->out_off || !g->in_edge || !g->out_edge) return pcol_oom(err);
  for (size_t j = 0; j < m; j++) {
    g->in_off[g->edges[j].to + 2]++;
    g->out_off[g->edges[j].from + 2]++;
  }
  for (size_t i = 2; i < n + 2; i++) {
    g->in_off[i] += g->in_off[i - 1];
    g->out_off[i] += g->out_off[i - 1];
  }
  for (size_t j = 0; j < m; j++) { /* off[i + 1]: node i's cursor, then its end */
    g->in_edge[g->in_off[g->edges[j].to + 1]++] = (uint32_t)j;
    g->out_edge[g->out_off[g->edges[j].from + 1]++] = (uint32_t)j;
  }
  return PCOL_OK;
}

/* -mean (pcol_graph_opts.mean_div): the divisor's graph over the keys the
 * last build kept (its own stack sums, the same keys: pcol_q_top_made_by),
 * each node's flat and cum divided by its divisor's (graph.go FlatValue,
 * CumValue); the total and the labels' cutoffs of the divided total.  The
 * drawn graph's calls too (dotgraph.go addEdge prints Edge.WeightValue);
 * the text graph's stay sums (report.go printTree and printCallgrind print
 * Edge.Weight).  The cuts and the order were the sums' (pprof trims and
 * sorts by Flat, Cum and Weight). */
static int graph_mean(pcol_file *f, const pcol_select *sel, const pcol_graph_opts *o,
                      const pcol_top *d, const uint8_t *kept, uint32_t nokey, const uint8_t *touched,
                      pcol_graph *out, pcol_error *err) {
  const pcol_q_top_priv *dp = d->priv_;
  gbuild b = {0};
  pcol_sum *own = NULL, dsum = 0;
  int rc = PCOL_OK;
  if (dp && pcol_q_nsum_made(&dp->is.sub) && dp->is.loc_aoff) {
    const pcol_q_inl_state *ds = &dp->is;
    if (!rc && !(own = pcol_alloc_hot((ds->nstacks + 1) * sizeof *own, 0))) rc = pcol_oom(err);
    for (uint64_t n = 0; !rc && n <= ds->nstacks; n++) own[n] = n ? pcol_q_nsum_at(&ds->sub, n) : 0;
    for (uint64_t n = 1; !rc && n <= ds->nstacks; n++) {
      uint32_t par = pcol_view_u32(&ds->st_parent, n - 1);
      if (par && par < n) own[par] -= pcol_q_nsum_at(&ds->sub, n);
    }
    if (!rc && gbuild_run(&b, ds, kept, own, nokey, touched)) rc = pcol_oom(err);
  }
  if (!rc) rc = pcol_q_mean_div_sum(f, sel, &out->top.value, o->mean_div, &dsum, err);
  if (!rc) {
    out->shown = 0;
    for (size_t i = 0; i < out->nnodes; i++) {
      pcol_top_row *r = &out->nodes[i];
      r->flat = pcol_q_mean_quot(r->flat, b.flat ? b.flat[r->key] : 0);
      r->cum = pcol_q_mean_quot(r->cum, b.cum ? b.cum[r->key] : 0);
      out->shown += r->flat;
    }
    for (size_t i = 0; !o->text && i < out->nedges; i++) {
      pcol_graph_edge *e = &out->edges[i];
      uint64_t k = (uint64_t)out->nodes[e->from].key << 32 | out->nodes[e->to].key;
      uint32_t x;
      int added;
      pcol_sum dw = 0; /* (a lookup that adds is a call the divisor never made) */
      if (b.e && !pcol_u64map_get(&b.map, k, &x, &added) && !added && x < b.ne) dw = b.e[x].w;
      e->weight = pcol_q_mean_quot(e->weight, dw);
    }
    out->total = pcol_q_mean_quot(out->total, dsum);
    out->node_cutoff = (pcol_sum)pcol_q_frac_cut(out->total, o->node_fraction, 1);
    out->edge_cutoff = (pcol_sum)pcol_q_frac_cut(out->total, o->edge_fraction, 1);
  }
  gbuild_free(&b);
  free(own);
  return rc;
}

/* The keys of the graph's top: every frame a key, an Rprof frame without
 * a line too, as go tool pprof -tree/-dot -lines on pcol's pprof copy
 * (review 20 F2); the report page's graph takes the frames key set
 * (report.c keysets) */
static int graph_keys(const pcol_graph_opts *o) { return (o && o->obj_names ? 1 : 0) | PCOL_Q_TOP_FRAMES; }

int pcol_graph_compute(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                       pcol_by by, const pcol_graph_opts *o, pcol_graph *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  PCOL_RETURN_NOT_OK(pcol_q_top_compute_obj(f, sel, v, by, graph_keys(o), &out->top, err));
  const pcol_top *t = &out->top;
  const pcol_q_top_priv *p = t->priv_;
  if (!p || !pcol_q_nsum_made(&p->is.sub) || !p->is.loc_aoff) { /* no stacks at all */
    out->total = t->total;
    int rc0 = node_edges(out, err);
    if (rc0) pcol_graph_free(out);
    return rc0;
  }
  pcol_q_gtags tags = {0};
  uint32_t *ntags = NULL;
  pcol_graph_opts def = pcol_graph_opts_default();
  if (!o) o = &def;
  const pcol_q_inl_state *s = &p->is;
  size_t nk = s->nkeys + 1;
  uint8_t *kept = malloc(nk);
  pcol_sum *own = pcol_alloc_hot((s->nstacks + 1) * sizeof *own, 0); /* a node each: pcol_alloc_hot */
  uint32_t *node_of = malloc(nk * sizeof *node_of);
  gbuild b = {0};
  graph g = {0};
  int rc = PCOL_OK;
  if (!kept || !own || !node_of) rc = pcol_oom(err);
  /* -mean: pprof's graph takes every sample whose value or divisor is not
   * 0, so the walks visit the divisor's nodes too (calls of weight 0) */
  pcol_top dtop = {0};
  uint8_t *utouch = NULL;
  if (!rc && o->mean_div) {
    rc = pcol_q_top_compute_obj(f, sel, o->mean_div, by, graph_keys(o), &dtop, err);
    const pcol_q_top_priv *dp = rc ? NULL : dtop.priv_;
    if (dp && pcol_q_nsum_made(&dp->is.sub) && dp->is.loc_aoff) rc = pcol_q_touched_union(s, &dp->is, &utouch, err);
  }
  /* each stack node's own weight: its subtree sum less its children's */
  for (uint64_t n = 0; !rc && n <= s->nstacks; n++) own[n] = n ? pcol_q_nsum_at(&s->sub, n) : 0;
  for (uint64_t n = 1; !rc && n <= s->nstacks; n++) {
    uint32_t par = pcol_view_u32(&s->st_parent, n - 1);
    if (par && par < n) own[par] -= pcol_q_nsum_at(&s->sub, n);
  }
  /* top's "<no location>" key, when the profile has one */
  uint32_t nokey = 0;
  for (size_t i = 0; !rc && i < t->nrows; i++)
    if (t->rows[i].name.len == 13 && !memcmp(t->rows[i].name.ptr, "<no location>", 13)) {
      int in_loc = 0; /* a function so named is a key of some location */
      for (uint32_t j = 0; j < s->loc_aoff[s->nlocs + 1] && !in_loc; j++)
        in_loc = (s->loc_all[j] & 0x7fffffffu) == t->rows[i].key;
      if (!in_loc) nokey = t->rows[i].key;
    }
  /* 1. the whole graph: its sum of flat gives the cutoffs */
  if (!rc) memset(kept, 1, nk);
  if (!rc && (rc = gbuild_run(&b, s, kept, own, nokey, utouch))) rc = pcol_oom(err);
  pcol_sum sum_flat = 0;
  size_t nall = 0;
  int dropneg = o->drop_negative;
  for (size_t k = 1; !rc && k < nk; k++) {
    if (dropneg && !is_node(&b, k, 1)) continue; /* (a node of 0 adds 0) */
    sum_flat += b.flat[k];
    if (b.flat[k] != 0 || b.cum[k] != 0) nall++;
  }
  pcol_sum gr = pcol_q_top_grain(t); /* go's unit */
  pcol_umag ncut = pcol_q_frac_cut(sum_flat, o->node_fraction, gr), ecut = pcol_q_frac_cut(sum_flat, o->edge_fraction, gr);
  out->node_cutoff = (pcol_sum)pcol_q_frac_cut(t->total, o->node_fraction, gr);
  out->edge_cutoff = (pcol_sum)pcol_q_frac_cut(t->total, o->edge_fraction, gr);
  /* 2. nodes below the node cutoff go */
  if (!rc && ncut > 0) {
    size_t nkept = 0;
    for (size_t k = 1; k < nk; k++) {
      kept[k] = is_node(&b, k, dropneg) && mag(b.cum[k]) >= ncut;
      nkept += kept[k];
    }
    kept[0] = 0;
    if (nkept != nall) {
      out->dropped_nodes = nall - nkept;
      gbuild_free(&b);
      if ((rc = gbuild_run(&b, s, kept, own, nokey, utouch))) rc = pcol_oom(err);
    } else {
      memset(kept, 1, nk);
    }
  }
  int order = !o->text ? ORDER_ENTROPY : o->cum_sort ? ORDER_CUM : ORDER_FLAT;
  if (!rc) rc = graph_make(t, &b, kept, dropneg, &g, node_of, err);
  if (!rc) rc = graph_sort(&g, order, err);
  if (!rc) out->orig_count = g.nn - g.nph;
  /* (the text graph has no label tags: none made, none counted) */
  if (!rc && !o->text && (o->node_count > 0 || !o->no_tags))
    rc = pcol_q_gtags_load(f, sel, v, o->mean_div, o->max_output_bytes, &tags, err);
  /* 3. the first node_count nodes in that order */
  if (!rc && o->node_count > 0) {
    trim_edges(&g, ecut); /* pprof trims them before it selects */
    /* a node's label tags (up to 4) count as nodes (graph.go selectTopNodes) */
    if (!(ntags = calloc(nk, sizeof *ntags))) rc = pcol_oom(err);
    if (!rc && !o->text && pcol_q_gtags_count(&tags, s, kept, b.kk, b.res, ncut, ntags)) rc = pcol_oom(err);
    size_t keep = g.nn - g.nph, count = 0; /* (the phantoms last: never counted) */
    for (size_t i = 0; !rc && i < g.nn - g.nph; i++) {
      uint32_t tg = ntags[g.n[i].key];
      count += (tg < 4 ? tg : 4) + 1;
      if (count >= o->node_count) {
        keep = i + 1;
        break;
      }
    }
    if (!rc && keep < g.nn - g.nph) {
      memset(kept, 0, nk);
      for (size_t i = 0; i < keep; i++) kept[g.n[i].key] = 1;
      graph_free(&g);
      gbuild_free(&b);
      if ((rc = gbuild_run(&b, s, kept, own, nokey, utouch))) rc = pcol_oom(err);
      if (!rc) rc = graph_make(t, &b, kept, dropneg, &g, node_of, err);
      if (!rc) rc = graph_sort(&g, order, err);
    }
  }
  /* 4. light edges, then (to draw) redundant residual ones */
  if (!rc) out->dropped_edges = trim_edges(&g, ecut);
  if (!rc && !o->text) rc = remove_redundant(&g, err);
  /* the result */
  if (!rc) {
    out->nodes = calloc(g.nn ? g.nn : 1, sizeof *out->nodes);
    size_t live = 0;
    for (size_t i = 0; i < g.ne; i++) live += !g.dead[i];
    out->edges = calloc(live ? live : 1, sizeof *out->edges);
    uint32_t *idx = malloc((live ? live : 1) * sizeof *idx);
    if (!out->nodes || !out->edges || !idx) {
      rc = pcol_oom(err);
    } else {
      for (size_t i = 0; i < g.nn; i++) {
        pcol_top_row r = {g.n[i].name, g.n[i].flat, g.n[i].cum, PCOL_INLINE_NONE, g.n[i].key};
        out->nodes[i] = r;
        out->shown += g.n[i].flat;
      }
      out->nnodes = g.nn - g.nph;
      out->nphantom = g.nph;
      size_t m = 0;
      for (size_t i = 0; i < g.ne; i++)
        if (!g.dead[i]) idx[m++] = (uint32_t)i;
      sort_edges(&g, idx, m);
      for (size_t i = 0; i < m; i++) {
        const gedge *e = &g.e[idx[i]];
        pcol_graph_edge x = {e->from, e->to, e->w, e->inl, e->res};
        out->edges[i] = x;
        /* a node's "(inline)" mark as top makes it: from its incoming edges */
        out->nodes[e->to].inl |= e->inl ? 1 : 2;
      }
      for (size_t i = 0; i < g.nn; i++) {
        int m2 = out->nodes[i].inl;
        out->nodes[i].inl = m2 & 1 ? (m2 & 2 ? PCOL_INLINE_PARTIAL : PCOL_INLINE_ONLY) : PCOL_INLINE_NONE;
      }
      out->nedges = m;
    }
    free(idx);
  }
  /* 5. the label boxes of the nodes drawn */
  if (!rc && !o->no_tags && !o->text) {
    for (size_t k = 0; k < nk; k++) node_of[k] = UINT32_MAX;
    for (size_t i = 0; i < out->nnodes; i++) node_of[out->nodes[i].key] = (uint32_t)i;
    rc = pcol_q_gtags_draw(&tags, s, kept, b.kk, b.res, ncut, node_of, out, err);
  }
  if (!rc) rc = node_edges(out, err);
  out->total = t->total;
  if (!rc && o->mean_div) rc = graph_mean(f, sel, o, &dtop, kept, nokey, utouch, out, err);
  pcol_top_free(&dtop);
  free(utouch);
  pcol_q_gtags_free(&tags);
  free(ntags);
  gbuild_free(&b);
  graph_free(&g);
  free(kept);
  free(own);
  free(node_of);
  if (rc) pcol_graph_free(out);
  return rc;
}

void pcol_graph_free(pcol_graph *g) {
  if (!g) return;
  free(g->nodes);
  free(g->edges);
  free(g->in_off);
  free(g->out_off);
  free(g->in_edge);
  free(g->out_edge);
  free(g->tags);
  free(g->tag_mem_);
  pcol_top_free(&g->top);
  memset(g, 0, sizeof *g);
}
