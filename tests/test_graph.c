/* test_graph.c — pcol_graph_compute (lib/query/graph.c) on profiles built
 * here, with the numbers worked out by hand from pprof's rules (report.go
 * newTrimmedGraph, graph.go): dropped nodes turn calls into residual edges
 * and take a dropped leaf's flat with them, a residual edge another path
 * explains goes, inlined lines give inline edges, recursion counts once a
 * sample, node_count bounds a graph of thousands of nodes, and an empty
 * profile gives an empty graph. */
#include "testutil.h"
#include <stdarg.h>

#define S tu_cstr
static uint32_t FN(pcol_builder *b, const char *name) {
  pcol_function_row r = {S(b, name), 0, S(b, "a.go"), PCOL_NA_I64};
  uint32_t id;
  cr_assert_eq(pcol_b_function(b, &r, &id, NULL), 0);
  return id;
}
static uint32_t LOC(pcol_builder *b, const char *name) {
  pcol_line_row l = {FN(b, name), 1, PCOL_NA_I64};
  uint32_t id;
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &id, NULL), 0);
  return id;
}
/* a stack of locations given leaf first, ended by 0 */
static uint32_t STK(pcol_builder *b, ...) {
  uint32_t locs[64];
  size_t n = 0;
  va_list ap;
  va_start(ap, b);
  for (uint32_t l; (l = va_arg(ap, uint32_t)) != 0;) locs[n++] = l;
  va_end(ap);
  uint32_t id;
  cr_assert_eq(pcol_b_stack(b, locs, n, &id, NULL), 0);
  return id;
}
static void SAMPLES(pcol_builder *b, uint32_t src, uint32_t stack, int n) {
  for (int i = 0; i < n; i++) {
    pcol_sample_row s = {src, (int64_t)pcol_b_sample_count(b), 0, 1, PCOL_NA_I64, stack, 0}; /* times ascend */
    cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  }
}
static pcol_builder *NEWB(uint32_t *src) {
  pcol_builder *b;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "test", "test", PCOL_NA_I64, src, NULL), 0);
  return b;
}
static void GRAPH_SEL(pcol_file *f, const pcol_select *sel, const pcol_graph_opts *o, pcol_graph *g) {
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_graph_compute(f, sel, &v, PCOL_BY_FUNCTION, o, g, &err), 0, "%s", err.message);
}
static void GRAPH(pcol_file *f, const pcol_graph_opts *o, pcol_graph *g) { GRAPH_SEL(f, NULL, o, g); }
static int is(pcol_str s, const char *c) { return s.len == strlen(c) && !memcmp(s.ptr, c, s.len); }
static long NODE(const pcol_graph *g, const char *name) {
  for (size_t i = 0; i < g->nnodes; i++)
    if (is(g->nodes[i].name, name)) return (long)i;
  return -1;
}
static void EXPECT_NODE(const pcol_graph *g, const char *name, int64_t flat, int64_t cum) {
  long i = NODE(g, name);
  cr_assert(i >= 0, "no node %s", name);
  cr_expect_eq(g->nodes[i].flat, flat, "%s flat %lld, want %lld", name, (long long)g->nodes[i].flat, (long long)flat);
  cr_expect_eq(g->nodes[i].cum, cum, "%s cum %lld, want %lld", name, (long long)g->nodes[i].cum, (long long)cum);
}
static const pcol_graph_edge *EDGE(const pcol_graph *g, const char *from, const char *to) {
  for (size_t i = 0; i < g->nedges; i++)
    if (is(g->nodes[g->edges[i].from].name, from) && is(g->nodes[g->edges[i].to].name, to)) return &g->edges[i];
  return NULL;
}
static void EXPECT_EDGE(const pcol_graph *g, const char *from, const char *to, int64_t w, int inl, int res) {
  const pcol_graph_edge *e = EDGE(g, from, to);
  cr_assert(e != NULL, "no edge %s -> %s", from, to);
  cr_expect_eq(e->weight, w, "%s -> %s weight %lld, want %lld", from, to, (long long)e->weight, (long long)w);
  cr_expect_eq(e->inl, inl, "%s -> %s inline %d", from, to, e->inl);
  cr_expect_eq(e->residual, res, "%s -> %s residual %d", from, to, e->residual);
}

/* a value type of the source (its default) */
static uint32_t VTYPE(pcol_builder *b, uint32_t src, const char *type) {
  uint32_t vt;
  cr_assert_eq(pcol_b_value_type(b, S(b, type), S(b, "bytes"), &vt, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, NULL), 0);
  return vt;
}
/* sample number `time` on stack with the value v of type vt */
static void SAMPLE_V(pcol_builder *b, uint32_t src, int64_t time, uint32_t stack, uint32_t vt, int64_t v) {
  pcol_value_row r = {vt, v};
  pcol_sample_row s = {src, time, 0, 1, PCOL_NA_I64, stack, 0};
  cr_assert_eq(pcol_b_sample(b, &s, &r, 1, NULL, NULL), 0);
}
/* the graph of every node and edge, and its first three nodes' names */
static pcol_file *GRAPH_ALL(pcol_builder *b, void **mem, pcol_graph *g, const char *n0, const char *n1,
                            const char *n2) {
  pcol_file *f = tu_reopen(b, NULL, mem);
  pcol_graph_opts all = {0, 0, 0, 0, 0, 0, 0, 0, NULL, 0};
  GRAPH(f, &all, g);
  cr_assert_eq(g->nnodes, 3);
  cr_expect(is(g->nodes[0].name, n0) && is(g->nodes[1].name, n1) && is(g->nodes[2].name, n2),
            "order %.*s %.*s %.*s", (int)g->nodes[0].name.len, g->nodes[0].name.ptr,
            (int)g->nodes[1].name.len, g->nodes[1].name.ptr, (int)g->nodes[2].name.len, g->nodes[2].name.ptr);
  return f;
}

/* 600 x main>a>leaf, 398 x main>b, 2 x main>mid>leaf, 2 x main>b>tiny:
 * the node cutoff is int(1002 x 0.005) = 5, so mid and tiny (cum 2) go;
 * main -> leaf through mid becomes a residual edge, which main -> a -> leaf
 * explains, so it goes too; tiny's flat goes to nobody (b stays 398). */
Test(graph, prunes_nodes_residual_and_redundant_edges) {
  uint32_t src;
  pcol_builder *b = NEWB(&src);
  uint32_t m = LOC(b, "main"), a = LOC(b, "a"), lf = LOC(b, "leaf"), bb = LOC(b, "b"), mid = LOC(b, "mid"),
           tiny = LOC(b, "tiny");
  SAMPLES(b, src, STK(b, lf, a, m, 0), 600);
  SAMPLES(b, src, STK(b, bb, m, 0), 398);
  SAMPLES(b, src, STK(b, lf, mid, m, 0), 2);
  SAMPLES(b, src, STK(b, tiny, bb, m, 0), 2);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_graph g;
  GRAPH(f, NULL, &g);
  cr_expect_eq(g.total, 1002);
  cr_expect_eq(g.nnodes, 4);
  cr_expect_eq(g.dropped_nodes, 2);
  EXPECT_NODE(&g, "main", 0, 1002);
  EXPECT_NODE(&g, "a", 0, 600);
  EXPECT_NODE(&g, "leaf", 602, 602);
  EXPECT_NODE(&g, "b", 398, 400);
  cr_expect(NODE(&g, "mid") < 0 && NODE(&g, "tiny") < 0);
  cr_expect_eq(g.nedges, 3);
  EXPECT_EDGE(&g, "main", "a", 600, 0, 0);
  EXPECT_EDGE(&g, "a", "leaf", 600, 0, 0);
  EXPECT_EDGE(&g, "main", "b", 400, 0, 0);
  cr_expect(EDGE(&g, "main", "leaf") == NULL, "the redundant residual edge stayed");
  /* pprof's edge order: |weight| desc, then caller and callee names */
  cr_expect(is(g.nodes[g.edges[0].from].name, "a") && is(g.nodes[g.edges[1].from].name, "main"));
  pcol_graph_free(&g);
  /* nothing pruned: mid and tiny are nodes, no edge residual */
  pcol_graph_opts all = {0, 0, 0, 0, 0, 0, 0, 0, NULL, 0};
  GRAPH(f, &all, &g);
  cr_expect_eq(g.nnodes, 6);
  cr_expect_eq(g.dropped_nodes, 0);
  EXPECT_NODE(&g, "b", 398, 400);
  EXPECT_NODE(&g, "tiny", 2, 2);
  EXPECT_EDGE(&g, "main", "mid", 2, 0, 0);
  EXPECT_EDGE(&g, "mid", "leaf", 2, 0, 0);
  cr_expect(EDGE(&g, "main", "leaf") == NULL);
  pcol_graph_free(&g);
  /* an edge fraction of 1%: edges under 10 go (mid's), counted */
  pcol_graph_opts ef = {0, 0.01, 0, 0, 0, 0, 0, 0, NULL, 0};
  GRAPH(f, &ef, &g);
  cr_expect_eq(g.dropped_edges, 3);
  cr_expect(EDGE(&g, "main", "mid") == NULL && EDGE(&g, "b", "tiny") == NULL);
  EXPECT_EDGE(&g, "main", "b", 400, 0, 0);
  pcol_graph_free(&g);
  /* pprof -tree's graph (text): the same pruning, but the redundant
   * residual edge stays, and the nodes go by |flat| (then name) or |cum| */
  pcol_graph_opts tree = pcol_graph_opts_default();
  tree.text = true;
  GRAPH(f, &tree, &g);
  cr_expect_eq(g.nnodes, 4);
  cr_expect_eq(g.nedges, 4);
  EXPECT_EDGE(&g, "main", "leaf", 2, 0, 1);
  const char *by_flat[] = {"leaf", "b", "a", "main"}, *by_cum[] = {"main", "leaf", "a", "b"};
  for (int i = 0; i < 4; i++) cr_expect(is(g.nodes[i].name, by_flat[i]), "flat order %d", i);
  cr_expect_eq(g.ntags, 0);
  pcol_graph_free(&g);
  tree.cum_sort = true;
  tree.node_count = 2; /* the first two by cum: main calls leaf through dropped a, mid */
  GRAPH(f, &tree, &g);
  cr_expect_eq(g.nnodes, 2);
  cr_expect_eq(g.orig_count, 4);
  for (int i = 0; i < 2; i++) cr_expect(is(g.nodes[i].name, by_cum[i]), "cum order %d", i);
  EXPECT_EDGE(&g, "main", "leaf", 602, 0, 1);
  pcol_graph_free(&g);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* A location of two lines (outer inlines inner): the call into the inner
 * line is an inline edge; residual when it skipped a dropped function. */
Test(graph, inline_edges) {
  uint32_t src;
  pcol_builder *b = NEWB(&src);
  uint32_t m = LOC(b, "main");
  pcol_line_row two[2] = {{FN(b, "inner"), 2, PCOL_NA_I64}, {FN(b, "outer"), 3, PCOL_NA_I64}};
  uint32_t l2;
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, two, 2, &l2, NULL), 0);
  SAMPLES(b, src, STK(b, l2, m, 0), 10);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_graph g;
  GRAPH(f, NULL, &g);
  cr_expect_eq(g.nnodes, 3);
  EXPECT_NODE(&g, "inner", 10, 10);
  EXPECT_NODE(&g, "outer", 0, 10);
  EXPECT_EDGE(&g, "main", "outer", 10, 0, 0);
  EXPECT_EDGE(&g, "outer", "inner", 10, 1, 0);
  cr_expect_eq(g.nodes[NODE(&g, "inner")].inl, PCOL_INLINE_ONLY);
  cr_expect_eq(g.nodes[NODE(&g, "outer")].inl, PCOL_INLINE_NONE);
  pcol_graph_free(&g);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* Recursion and a cycle: main>f>g>f>g (3 samples) and main>f>f (1): cum
 * once a sample, a call to itself is no edge, f -> g and g -> f once a
 * sample each. */
Test(graph, recursion_and_cycles_count_once) {
  uint32_t src;
  pcol_builder *b = NEWB(&src);
  uint32_t m = LOC(b, "main"), fl = LOC(b, "f"), gl = LOC(b, "g");
  SAMPLES(b, src, STK(b, gl, fl, gl, fl, m, 0), 3);
  SAMPLES(b, src, STK(b, fl, fl, m, 0), 1);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_graph g;
  GRAPH(f, NULL, &g);
  cr_expect_eq(g.total, 4);
  EXPECT_NODE(&g, "main", 0, 4);
  EXPECT_NODE(&g, "f", 1, 4);
  EXPECT_NODE(&g, "g", 3, 3);
  cr_expect_eq(g.nedges, 3);
  EXPECT_EDGE(&g, "main", "f", 4, 0, 0);
  EXPECT_EDGE(&g, "f", "g", 3, 0, 0);
  EXPECT_EDGE(&g, "g", "f", 3, 0, 0);
  cr_expect(EDGE(&g, "f", "f") == NULL);
  pcol_graph_free(&g);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* 3000 leaves under main, one sample each: node_count keeps the first in
 * entropy order (main, then the leaves by name: equal scores), and with
 * no bound every node comes back; the node fraction's cutoff (15) drops
 * every leaf. */
Test(graph, node_count_bounds_a_huge_graph) {
  uint32_t src;
  pcol_builder *b = NEWB(&src);
  uint32_t m = LOC(b, "main");
  char name[16];
  for (int i = 2999; i >= 0; i--) { /* made in reverse: the order is the rule's, not the file's */
    snprintf(name, sizeof name, "f%04d", i);
    SAMPLES(b, src, STK(b, LOC(b, name), m, 0), 1);
  }
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_graph g;
  pcol_graph_opts ten = {0, 0, 10, 0, 0, 0, 0, 0, NULL, 0};
  GRAPH(f, &ten, &g);
  cr_expect_eq(g.nnodes, 10);
  cr_expect_eq(g.orig_count, 3001);
  cr_expect(is(g.nodes[0].name, "main"));
  cr_expect(is(g.nodes[1].name, "f0000") && is(g.nodes[9].name, "f0008"));
  EXPECT_NODE(&g, "main", 0, 3000); /* cum of the whole profile, not of the kept */
  cr_expect_eq(g.nedges, 9);
  pcol_graph_free(&g);
  pcol_graph_opts all = {0, 0, 0, 0, 0, 0, 0, 0, NULL, 0};
  GRAPH(f, &all, &g);
  cr_expect_eq(g.nnodes, 3001);
  cr_expect_eq(g.nedges, 3000);
  pcol_graph_free(&g);
  GRAPH(f, NULL, &g);
  cr_expect_eq(g.nnodes, 1);
  cr_expect_eq(g.dropped_nodes, 3000);
  EXPECT_NODE(&g, "main", 0, 3000); /* every leaf's flat gone with it */
  cr_expect_eq(g.shown, 0);
  pcol_graph_free(&g);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* No samples, and samples with an empty stack: an empty graph, no error. */
Test(graph, empty_profiles) {
  for (int k = 0; k < 2; k++) {
    uint32_t src;
    pcol_builder *b = NEWB(&src);
    if (k) SAMPLES(b, src, 0, 3);
    void *mem;
    pcol_file *f = tu_reopen(b, NULL, &mem);
    pcol_graph g;
    GRAPH(f, NULL, &g);
    cr_expect_eq(g.nnodes, 0, "case %d: %zu nodes", k, g.nnodes);
    cr_expect_eq(g.nedges, 0);
    cr_expect_eq(g.shown, 0);
    pcol_graph_free(&g);
    pcol_close(f);
    free(mem);
    pcol_builder_free(b);
  }
}

/* Negative values (a heap delta): x's flat is -3 and its one call -2, so
 * its entropy is NaN (a fraction of a negative total); Go turns NaN into
 * MinInt64 and adds the flat with wrap-around, which puts x first (pprof's
 * order).  Under UBSan this was a signed overflow in graph.c. */
Test(graph, negative_values_order_as_go) {
  uint32_t src;
  pcol_builder *b = NEWB(&src);
  uint32_t vt = VTYPE(b, src, "inuse");
  uint32_t m = LOC(b, "main"), x = LOC(b, "x"), y = LOC(b, "y");
  SAMPLE_V(b, src, 0, STK(b, x, m, 0), vt, -3);
  SAMPLE_V(b, src, 1, STK(b, y, x, m, 0), vt, -2);
  void *mem;
  pcol_graph g;
  pcol_file *f = GRAPH_ALL(b, &mem, &g, "x", "main", "y");
  EXPECT_NODE(&g, "x", -3, -5);
  EXPECT_EDGE(&g, "x", "y", -2, 0, 0);
  pcol_graph_free(&g);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* Values near INT64_MAX (issue 42 F5): main calls a and b, X = 2^62 + 1
 * each, so main's out-edges add up to 2^63 + 2, past int64: edge_entropy's
 * total was an int64 (signed overflow, UBSan stopped here).  Added in 128
 * bits, main's edges are halves of its total (entropy 1, score 2 x cum,
 * out of int64's range: MinInt64 as Go's int64() gives, as it gives for the
 * NaN of Go's wrapped total); a and b (entropy 0 + 1, score X + flat X,
 * wrapped as Go adds) have |score| MaxInt64, so the order is a, b, main.
 * Flat, cum and weights are exact. */
Test(graph, values_near_int64_max) {
  uint32_t src;
  pcol_builder *b = NEWB(&src);
  uint32_t vt = VTYPE(b, src, "alloc");
  uint32_t m = LOC(b, "main"), a = LOC(b, "a"), bb = LOC(b, "b");
  const int64_t X = ((int64_t)1 << 62) + 1;
  SAMPLE_V(b, src, 0, STK(b, a, m, 0), vt, X);
  SAMPLE_V(b, src, 1, STK(b, bb, m, 0), vt, X);
  void *mem;
  pcol_graph g;
  pcol_file *f = GRAPH_ALL(b, &mem, &g, "a", "b", "main");
  long mi = NODE(&g, "main");
  cr_assert(mi >= 0);
  cr_expect(g.nodes[mi].flat == 0 && g.nodes[mi].cum == (pcol_sum)2 * X, "main's cum is not 2^63 + 2");
  cr_expect(g.total == (pcol_sum)2 * X, "total");
  EXPECT_NODE(&g, "a", X, X);
  EXPECT_NODE(&g, "b", X, X);
  EXPECT_EDGE(&g, "main", "a", X, 0, 0);
  EXPECT_EDGE(&g, "main", "b", X, 0, 0);
  pcol_graph_free(&g);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* n samples on stack with the label set {key:str} (str NULL: none) plus
 * "bytes" = bytes when bytes >= 0 */
static void SAMPLES_L(pcol_builder *b, uint32_t src, uint32_t stack, int n, const char *key,
                      const char *str, int64_t bytes) {
  pcol_label_row l[2];
  size_t nl = 0;
  if (str) {
    pcol_label_row r = {S(b, key), S(b, str), 0, 0};
    l[nl++] = r;
  }
  if (bytes >= 0) {
    pcol_label_row r = {S(b, "bytes"), 0, bytes, S(b, "bytes")};
    l[nl++] = r;
  }
  uint32_t ls;
  cr_assert_eq(pcol_b_labelset(b, l, nl, &ls, NULL), 0);
  for (int i = 0; i < n; i++) {
    pcol_sample_row s = {src, (int64_t)pcol_b_sample_count(b), 0, 1, PCOL_NA_I64, stack, ls};
    cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  }
}
static void EXPECT_TAG(const pcol_graph *g, size_t i, long node, uint32_t parent, uint32_t index,
                       const char *text, int64_t w) {
  cr_assert(i < g->ntags, "tag %zu of %zu", i, g->ntags);
  const pcol_graph_tag *t = &g->tags[i];
  cr_expect(t->nlines == 1 && is(t->lines[0], text), "tag %zu: %.*s, want %s", i,
            t->nlines ? (int)t->lines[0].len : 0, t->nlines ? t->lines[0].ptr : "", text);
  cr_expect(t->node == (uint32_t)node && t->parent == parent && t->index == index && t->weight == w,
            "tag %zu (%s): node %u parent %u index %u weight %lld", i, text, t->node, t->parent, t->index,
            (long long)t->weight);
}

/* pprof's label boxes (dotgraph.go addNodelets), worked out by hand: leaf
 * (no callees: cum) has w:1 x3 (each with bytes 64) and w:2 x2, then bytes
 * alone 16 x5, 32 x4, 48 x3, 1024 x2, 2048, 4096: six values in four
 * buckets (the four heaviest; 2048 and 4096 join 1024, the nearest), sorted
 * by cum then name ("1kB..4kB" < "32B").  main has callees, so it shows
 * flat: 0, no box.  --taghide bytes leaves the two string boxes. */
Test(graph, label_boxes_as_pprof) {
  uint32_t src;
  pcol_builder *b = NEWB(&src);
  uint32_t m = LOC(b, "main"), lf = LOC(b, "leaf");
  uint32_t st = STK(b, lf, m, 0);
  SAMPLES_L(b, src, st, 3, "w", "1", 64);
  SAMPLES_L(b, src, st, 2, "w", "2", -1);
  const int64_t v[] = {16, 32, 48, 1024, 2048, 4096};
  const int n[] = {5, 4, 3, 2, 1, 1};
  for (int i = 0; i < 6; i++) SAMPLES_L(b, src, st, n[i], NULL, NULL, v[i]);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_graph g;
  pcol_graph_opts all = {0, 0, 0, 0, 0, 0, 0, 0, NULL, 0};
  GRAPH(f, &all, &g);
  long L = NODE(&g, "leaf");
  cr_assert(L >= 0);
  cr_assert_eq(g.ntags, 7);
  EXPECT_TAG(&g, 0, L, 0, 0, "w:1", 3);
  EXPECT_TAG(&g, 1, L, 1, 0, "64B", 3);
  EXPECT_TAG(&g, 2, L, 0, 1, "w:2", 2);
  EXPECT_TAG(&g, 3, L, 0, 0, "16B", 5);
  EXPECT_TAG(&g, 4, L, 0, 1, "1kB..4kB", 4);
  EXPECT_TAG(&g, 5, L, 0, 2, "32B", 4);
  EXPECT_TAG(&g, 6, L, 0, 3, "48B", 3);
  cr_expect(g.tags[1].numeric && !g.tags[0].numeric && !g.tags[1].dotted);
  pcol_graph_free(&g);
  pcol_select hide = {.tag_hide = "^byt"};
  GRAPH_SEL(f, &hide, &all, &g);
  cr_assert_eq(g.ntags, 2);
  EXPECT_TAG(&g, 0, NODE(&g, "leaf"), 0, 0, "w:1", 3);
  EXPECT_TAG(&g, 1, NODE(&g, "leaf"), 0, 1, "w:2", 2);
  pcol_graph_free(&g);
  pcol_select show = {.tag_show = "^w$"};
  pcol_graph_opts no_tags = {0, 0, 0, 1, 0, 0, 0, 0, NULL, 0}; /* no_tags: none made */
  GRAPH_SEL(f, &show, &no_tags, &g);
  cr_expect_eq(g.ntags, 0);
  pcol_graph_free(&g);
  /* -mean: a value divided by itself is 1 in every node (0 where a node
   * has no flat), the total 1; in the drawn graph every call and label
   * box too (the text graph's calls stay sums) */
  pcol_error err = {0};
  pcol_value_sel vs;
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &vs, &err), 0, "%s", err.message);
  pcol_graph_opts mean = pcol_graph_opts_default();
  mean.node_fraction = mean.edge_fraction = 0;
  mean.mean_div = &vs;
  cr_assert_eq(pcol_graph_compute(f, NULL, &vs, PCOL_BY_FUNCTION, &mean, &g, &err), 0, "%s", err.message);
  cr_assert(g.nnodes > 0 && g.nedges > 0 && g.ntags > 0);
  for (size_t i = 0; i < g.nnodes; i++) {
    cr_expect(g.nodes[i].flat == 0 || g.nodes[i].flat == 1);
    cr_expect_eq(g.nodes[i].cum, 1);
  }
  for (size_t i = 0; i < g.nedges; i++) cr_expect_eq(g.edges[i].weight, 1, "edge %zu", i);
  for (size_t i = 0; i < g.ntags; i++) cr_expect_eq(g.tags[i].weight, 1, "tag %zu", i);
  cr_expect_eq(g.total, 1);
  pcol_graph_free(&g);
  mean.text = true;
  cr_assert_eq(pcol_graph_compute(f, NULL, &vs, PCOL_BY_FUNCTION, &mean, &g, &err), 0, "%s", err.message);
  cr_assert(g.nnodes > 0);
  for (size_t i = 0; i < g.nnodes; i++) {
    cr_expect(g.nodes[i].flat == 0 || g.nodes[i].flat == 1);
    cr_expect_eq(g.nodes[i].cum, 1);
  }
  cr_expect_eq(g.total, 1);
  pcol_graph_free(&g);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* pcol_top_key_parts by address, and obj_names (pprof's nodes with
 * ObjNames, -callgrind): a function "f" of one file and line at one
 * address from two builds (start lines 10 and 20) is one node, or two with
 * obj_names; an unsymbolized location has its address and mapping only. */
static void PARTS(const pcol_graph *g, size_t i, uint64_t addr, const char *fn, const char *file,
                  int64_t line, const char *obj, int64_t start) {
  pcol_top_parts p;
  pcol_error err = {0};
  cr_assert_eq(pcol_top_key_parts(&g->top, g->nodes[i].key, &p, &err), 0, "%s", err.message);
  cr_expect_eq(p.address, addr, "node %zu: address %llx", i, (unsigned long long)p.address);
  cr_expect(is(p.function, fn) && is(p.file, file) && is(p.objfile, obj), "node %zu: %.*s %.*s %.*s", i,
            (int)p.function.len, p.function.ptr, (int)p.file.len, p.file.ptr, (int)p.objfile.len, p.objfile.ptr);
  cr_expect(p.line == line && p.start_line == start, "node %zu: line %lld start %lld", i,
            (long long)p.line, (long long)p.start_line);
}
Test(graph, key_parts_and_obj_names) {
  uint32_t src, f1, f2, fm, mx, my, l1, l2, lm, lu, id;
  pcol_builder *b = NEWB(&src);
  pcol_function_row r1 = {S(b, "f"), 0, S(b, "/src/./a.go"), 10}, r2 = {S(b, "f"), 0, S(b, "/src/./a.go"), 20},
                    rm = {S(b, "main"), 0, S(b, "m.go"), PCOL_NA_I64};
  cr_assert_eq(pcol_b_function(b, &r1, &f1, NULL), 0);
  cr_assert_eq(pcol_b_function(b, &r2, &f2, NULL), 0);
  cr_assert_eq(pcol_b_function(b, &rm, &fm, NULL), 0);
  pcol_mapping_row x = {0x1000, 0x9000, 0, S(b, "/bin/x"), 0, 0}, y = {0x10000, 0x20000, 0, S(b, "/lib/y.so"), 0, 0};
  cr_assert_eq(pcol_b_mapping(b, &x, 0, &mx, NULL), 0);
  cr_assert_eq(pcol_b_mapping(b, &y, 0, &my, NULL), 0);
  pcol_line_row a1 = {f1, 5, PCOL_NA_I64}, a2 = {f2, 5, PCOL_NA_I64}, am = {fm, 3, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, mx, 0x1500, 0, &a1, 1, &l1, NULL), 0);
  cr_assert_eq(pcol_b_location(b, mx, 0x1500, 0, &a2, 1, &l2, NULL), 0);
  cr_assert_eq(pcol_b_location(b, mx, 0x2000, 0, &am, 1, &lm, NULL), 0);
  cr_assert_eq(pcol_b_location(b, my, 0x13000, 0, NULL, 0, &lu, NULL), 0);
  SAMPLES(b, src, STK(b, l1, lm, 0), 4);
  SAMPLES(b, src, STK(b, l2, lm, 0), 3);
  SAMPLES(b, src, STK(b, lu, lm, 0), 2);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_error err = {0};
  pcol_value_sel v;
  cr_assert_eq(pcol_value_resolve(f, NULL, NULL, &v, &err), 0, "%s", err.message);
  pcol_graph g;
  pcol_graph_opts all = {0, 0, 0, 1, 1, 0, 0, 0, NULL, 0};
  cr_assert_eq(pcol_graph_compute(f, NULL, &v, PCOL_BY_ADDRESS, &all, &g, &err), 0, "%s", err.message);
  cr_assert_eq(g.nnodes, 3); /* f (7), the unsymbolized address (2), main (0) */
  PARTS(&g, 0, 0x1500, "f", "/src/a.go", 5, "/bin/x", 10);
  PARTS(&g, 1, 0x13000, "", "", 0, "/lib/y.so", 0);
  PARTS(&g, 2, 0x2000, "main", "m.go", 3, "/bin/x", 0);
  id = g.nodes[0].key;
  pcol_graph_free(&g);
  all.obj_names = true;
  cr_assert_eq(pcol_graph_compute(f, NULL, &v, PCOL_BY_ADDRESS, &all, &g, &err), 0, "%s", err.message);
  cr_assert_eq(g.nnodes, 4);
  PARTS(&g, 0, 0x1500, "f", "/src/a.go", 5, "/bin/x", 10);
  PARTS(&g, 1, 0x1500, "f", "/src/a.go", 5, "/bin/x", 20);
  cr_expect(g.nodes[0].flat == 4 && g.nodes[1].flat == 3);
  pcol_graph_free(&g);
  /* by function: no parts */
  cr_assert_eq(pcol_graph_compute(f, NULL, &v, PCOL_BY_FUNCTION, &all, &g, &err), 0, "%s", err.message);
  pcol_top_parts p;
  cr_expect_eq(pcol_top_key_parts(&g.top, id, &p, &err), PCOL_EINVAL);
  pcol_graph_free(&g);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}
