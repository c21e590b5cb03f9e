/* peek.c — pcol_peek_compute: the callers and callees of the rows of a
 * pcol_top result whose name matches a regular expression, with the weight
 * through each call (go tool pprof -peek, report.go printTree over
 * graph.go newGraph).
 *
 * Rules (pprof's): the graph's nodes are top's keys; walking a stack from
 * its root, every key (inline lines expanded, outermost first) is called by
 * the key before it, a key calling itself makes no edge; an edge counts a
 * sample once however often it recurs in the stack, and it is "inline" when
 * the first occurrence in every sample goes into a line that is not the
 * outermost of its location.
 *
 * Cost: one depth-first walk over the distinct stack nodes that carry
 * weight (the prefix tree top already summed), with a per-edge "on the
 * current path" counter: an edge adds the subtree weight of the node where
 * it first appears on a path.  Only edges that touch a matched key are
 * kept. */
#include "query.h"
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "hash.h"     /* pcol_u64map (the edges' slots) */
#include "filter.h"   /* pcol_rx_compile, pcol_rx_match */
#include <stdlib.h>
#include <string.h>

typedef struct peek_walk {
  const pcol_q_inl_state *s;
  const uint8_t *matched; /* [nkeys + 1] */
  uint32_t *kk;           /* [nstacks + 1]: the innermost key on the path to the node */
  pcol_q_edges edges; /* path[edge]: how many times the edge is on the path */
} peek_walk;

/* The edges at stack node n, in pprof's order (outermost line first):
 * enter = 1 counts them in (adding the node's weight to those not on the
 * path yet), 2 puts them back on the path, 0 takes them off it. */
static int node_edges(peek_walk *pw, uint32_t n, int enter) {
  const pcol_q_inl_state *s = pw->s;
  uint32_t p = pcol_view_u32(&s->st_parent, n - 1), loc = pcol_view_u32(&s->st_loc, n - 1);
  uint32_t caller = pw->kk[p < n ? p : 0];
  for (uint32_t j = s->loc_aoff[loc + 1]; j > s->loc_aoff[loc]; j--) {
    uint32_t x = s->loc_all[j - 1], key = x & 0x7fffffffu;
    if (caller && caller != key && (pw->matched[caller] || pw->matched[key])) {
      uint32_t e;
      if (pcol_q_edge_get(&pw->edges, caller, key, &e)) return PCOL_ENOMEM;
      if (!enter)
        pw->edges.path[e]--;
      else if (pw->edges.path[e]++ == 0 && enter == 1) /* first on the path */
        pcol_q_edge_count(&pw->edges, e, (int)(x >> 31), pcol_q_nsum_at(&s->sub, n));
    }
    caller = key;
  }
  if (enter == 1) pw->kk[n] = caller;
  return PCOL_OK;
}

static int edges_visit(void *ctx, uint32_t n, int mode) {
  return node_edges(ctx, n, mode == PCOL_Q_LEAVE ? 0 : mode == PCOL_Q_ENTER ? 1 : 2);
}

/* For the tree walk after the path walk gave up: the edges anew. */
static int edges_reset(void *ctx) {
  peek_walk *pw = ctx;
  pcol_q_edges_free(&pw->edges);
  return 0;
}

/* touched NULL: the result's own (pcol_q_touched_union's under -mean) */
static int peek_walk_run(peek_walk *pw, const uint8_t *touched, pcol_error *err) {
  const pcol_q_inl_state *s = pw->s;
  if (pcol_q_stack_walk(&s->st_parent, touched ? touched : s->touched, s->nstacks, edges_visit,
                        edges_reset, pw))
    return pcol_oom(err);
  return PCOL_OK;
}

static int str_cmp(pcol_str a, pcol_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  return c ? c : a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}
static int edge_cmp(const void *pa, const void *pb) { /* graph.go edgeList.Less */
  const pcol_peek_edge *a = pa, *b = pb;
  unsigned __int128 x = a->value < 0 ? -(unsigned __int128)a->value : (unsigned __int128)a->value;
  unsigned __int128 y = b->value < 0 ? -(unsigned __int128)b->value : (unsigned __int128)b->value;
  if (a->value != b->value && x != y) return x > y ? -1 : 1;
  int c = str_cmp(a->caller, b->caller);
  return c ? c : str_cmp(a->callee, b->callee);
}

static int peek_make(const pcol_top *t, const pcol_top *dt, const char *regex, pcol_peek *out,
                     pcol_error *err);

int pcol_peek_compute(const pcol_top *t, const char *regex, pcol_peek *out, pcol_error *err) {
  return peek_make(t, NULL, regex, out, err);
}

int pcol_peek_compute_mean(const pcol_top *t, const pcol_top *div, const char *regex,
                           pcol_peek *out, pcol_error *err) {
  if (!div) return pcol_error_set(err, PCOL_EINVAL, "pcol_peek_compute_mean: no divisor");
  return peek_make(t, div, regex, out, err);
}

static int peek_make(const pcol_top *t, const pcol_top *dt, const char *regex, pcol_peek *out,
                     pcol_error *err) {
  memset(out, 0, sizeof *out);
  const pcol_q_top_priv *p = t->priv_;
  if (!p || !pcol_q_nsum_made(&p->is.sub)) return pcol_error_set(err, PCOL_EINVAL, "peek needs a pcol_top result");
  const pcol_q_inl_state *s = &p->is;
  pcol_rx rx;
  PCOL_RETURN_NOT_OK(pcol_rx_compile(&rx, "peek", regex ? regex : "", err));
  peek_walk pw;
  memset(&pw, 0, sizeof pw);
  pw.s = s;
  size_t nk = s->nkeys;
  uint8_t *matched = calloc(nk + 1, 1);
  int32_t *node_of = malloc((nk + 1) * sizeof *node_of); /* key -> index in out->nodes */
  pw.kk = malloc((s->nstacks + 1) * sizeof *pw.kk);
  char *buf = NULL;
  size_t cap = 0;
  int rc = PCOL_OK;
  if (!matched || !node_of || !pw.kk) rc = pcol_oom(err);
  if (!rc) {
    out->nodes = calloc(t->nrows ? t->nrows : 1, sizeof *out->nodes);
    if (!out->nodes) rc = pcol_oom(err);
  }
  for (size_t k = 0; !rc && k <= nk; k++) node_of[k] = -1;
  /* the rows that match, in the order of t's rows */
  for (size_t i = 0; !rc && i < t->nrows; i++) {
    uint32_t k = t->rows[i].key;
    if (!k || k > nk) continue;
    int m = pcol_rx_match(&rx, &buf, &cap, t->rows[i].name);
    if (m < 0) rc = pcol_oom(err);
    if (m <= 0) continue;
    matched[k] = 1;
    node_of[k] = (int32_t)out->nnodes;
    out->nodes[out->nnodes++].row = &t->rows[i];
  }
  if (!rc && out->nnodes) {
    pw.matched = matched;
    pw.kk[0] = 0;
    /* -mean: the stack nodes of the divisor's samples too (a call of
     * samples of value 0 but a count is "0 0%", as pprof prints it) */
    uint8_t *u = NULL;
    const pcol_q_top_priv *dp = dt ? dt->priv_ : NULL;
    if (dt && (!dp || !pcol_q_nsum_made(&dp->is.sub)))
      rc = pcol_error_set(err, PCOL_EINVAL, "peek needs a pcol_top result");
    else if (dt)
      rc = pcol_q_touched_union(s, &dp->is, &u, err);
    if (!rc) rc = peek_walk_run(&pw, u, err);
    free(u);
  }
  if (!rc && pw.edges.map.n) {
    /* each edge once in its callee's "in" list and once in its caller's
     * "out" list, when that key matched */
    pcol_q_edges *e = &pw.edges;
    out->edges_ = calloc(2 * e->map.n, sizeof *out->edges_);
    if (!out->edges_) rc = pcol_oom(err);
    for (size_t i = 0; !rc && i < e->map.cap; i++) { /* the map's slots: key + 1, or 0 */
      if (!e->map.k[i]) continue;
      uint64_t k = e->map.k[i] - 1;
      uint32_t from = (uint32_t)(k >> 32), to = (uint32_t)k;
      if (node_of[to] >= 0) out->nodes[node_of[to]].nin++;
      if (node_of[from] >= 0) out->nodes[node_of[from]].nout++;
    }
    size_t at = 0;
    for (size_t j = 0; !rc && j < out->nnodes; j++) {
      out->nodes[j].in = out->edges_ + at;
      at += out->nodes[j].nin;
      out->nodes[j].out = out->edges_ + at;
      at += out->nodes[j].nout;
      out->nodes[j].nin = out->nodes[j].nout = 0;
    }
    for (size_t i = 0; !rc && i < e->map.cap; i++) {
      if (!e->map.k[i]) continue;
      uint64_t k = e->map.k[i] - 1;
      uint32_t from = (uint32_t)(k >> 32), to = (uint32_t)k, id = e->map.v[i];
      pcol_peek_edge ed = {{NULL, 0}, {NULL, 0}, e->w[id], e->all_inl[id] == 1};
      if ((node_of[to] >= 0 || node_of[from] >= 0) &&
          ((rc = pcol_q_top_name(t, from, &ed.caller, err)) ||
           (rc = pcol_q_top_name(t, to, &ed.callee, err))))
        break;
      if (node_of[to] >= 0) {
        pcol_peek_node *nd = &out->nodes[node_of[to]];
        nd->in[nd->nin++] = ed;
      }
      if (node_of[from] >= 0) {
        pcol_peek_node *nd = &out->nodes[node_of[from]];
        nd->out[nd->nout++] = ed;
      }
    }
    for (size_t j = 0; !rc && j < out->nnodes; j++) {
      if (out->nodes[j].nin > 1) qsort(out->nodes[j].in, out->nodes[j].nin, sizeof *out->edges_, edge_cmp);
      if (out->nodes[j].nout > 1) qsort(out->nodes[j].out, out->nodes[j].nout, sizeof *out->edges_, edge_cmp);
    }
  }
  pcol_rx_free(&rx);
  free(buf);
  free(matched);
  free(node_of);
  free(pw.kk);
  pcol_q_edges_free(&pw.edges);
  if (rc) pcol_peek_free(out);
  return rc;
}

void pcol_peek_free(pcol_peek *p) {
  if (!p) return;
  free(p->nodes);
  free(p->edges_);
  memset(p, 0, sizeof *p);
}
