/* test_stack_order.c — the writer renumbers the stack trie in preorder when
 * that makes the file smaller (writer.c stack_order): every sample keeps
 * its stack, frame for frame; the stacks are in preorder in the file; a
 * spilled builder gives the same bytes as one held in memory (raw, LZ4,
 * zstd, format 1.2); a builder keeps its own ids, so it can take more
 * samples after a write; and a trie that is better left as built (or is
 * in preorder already) is written as it was. */
#include "testutil.h"
#include "spill.h" /* pcol_sample_spill_bytes */
#include "builder.h" /* pcol_b_stack_nodes, struct pcol_builder */

enum { BRANCHES = 61, MAXD = 400 };

typedef struct built {
  pcol_builder *b;
  uint32_t src, loc_root, loc_br[BRANCHES], *loc_chain; /* loc_chain[br * MAXD + j] */
  uint32_t depth[BRANCHES];
  uint64_t n;
  uint32_t *chain; /* per sample: its locations leaf first, 0-terminated (MAXD + 3 a sample) */
} built;

static uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005u + 1442695040888963407u;
  return *s >> 33;
}

static uint32_t location(built *t, uint64_t address) {
  uint32_t id;
  pcol_error err = {0};
  cr_assert_eq(pcol_b_location(t->b, 0, address, 0, NULL, 0, &id, &err), PCOL_OK, "%s", err.message);
  return id;
}

/* n more samples: a quarter of them grow one of the branches by a frame
 * (the trie's new nodes hang under branches in turn, so the builder's order
 * is not a preorder), the rest take a stack already made, at random (so
 * that the samples' stack ids are scattered in either order).  chains:
 * (0) every sample grows a branch, the builder's order is best kept. */
static void add_samples(built *t, uint64_t n, uint64_t seed, int grow_only) {
  pcol_error err = {0};
  t->chain = realloc(t->chain, (t->n + n) * (MAXD + 3) * sizeof *t->chain);
  cr_assert(t->chain);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t r = lcg(&seed);
    uint32_t br = (uint32_t)(r / 8 % BRANCHES), d;
    if (grow_only || r % 4 == 0 || t->depth[br] == 0) {
      if (t->depth[br] < MAXD) {
        /* the same frames under every branch, as one library's calls under
         * many entry points: a branch's frames are consecutive locations */
        t->loc_chain[br * MAXD + t->depth[br]] = location(t, 0x100000u + t->depth[br]);
        t->depth[br]++;
      }
      d = t->depth[br];
    } else {
      d = 1 + (uint32_t)(lcg(&seed) % t->depth[br]);
    }
    uint32_t *c = t->chain + (t->n + i) * (MAXD + 3), k = 0;
    for (uint32_t j = d; j > 0; j--) c[k++] = t->loc_chain[br * MAXD + j - 1];
    c[k++] = t->loc_br[br];
    c[k++] = t->loc_root;
    c[k] = 0;
    uint32_t st;
    cr_assert_eq(pcol_b_stack(t->b, c, k, &st, &err), PCOL_OK, "%s", err.message);
    pcol_sample_row s = {t->src, PCOL_NA_I64, 0, 1 + (int64_t)(i % 3), PCOL_NA_I64, st, 0};
    cr_assert_eq(pcol_b_sample(t->b, &s, NULL, 0, NULL, &err), PCOL_OK, "%s", err.message);
  }
  t->n += n;
}

/* into b (NULL: a new builder) */
static void build_in(built *t, pcol_builder *b, uint64_t n, int grow_only) {
  pcol_error err = {0};
  memset(t, 0, sizeof *t);
  t->b = b;
  if (!b) cr_assert_eq(pcol_builder_new(&t->b, &err), PCOL_OK);
  cr_assert_eq(pcol_b_source(t->b, "collapsed", "order.txt", PCOL_NA_I64, &t->src, &err), PCOL_OK);
  t->loc_chain = calloc((size_t)BRANCHES * MAXD, sizeof *t->loc_chain);
  cr_assert(t->loc_chain);
  t->loc_root = location(t, 0x10);
  for (uint32_t br = 0; br < BRANCHES; br++) t->loc_br[br] = location(t, 0x1000u + br);
  add_samples(t, n, 42, grow_only);
}

static void build(built *t, uint64_t n, int grow_only) { build_in(t, NULL, n, grow_only); }

static void built_free(built *t) {
  pcol_builder_free(t->b);
  free(t->loc_chain);
  free(t->chain);
}

/* order: NULL, the writer's choice; else PCOL_DEBUG's stacks-as-built or
 * stacks-preorder (whatever the sizes: the renumbering is what is tested
 * here; tests/cli/t_stack_order.sh tests the choice on real profiles) */
static void *write_mem(pcol_builder *b, const pcol_write_options *opt, const char *order, size_t *len) {
  pcol_error err = {0};
  void *out = NULL;
  if (order) setenv("PCOL_DEBUG", order, 1);
  cr_assert_eq(pcol_builder_write_mem(b, opt, &out, len, &err), PCOL_OK, "%s", err.message);
  if (order) unsetenv("PCOL_DEBUG");
  return out;
}
#define AS_BUILT "stacks-as-built"
#define PREORDER "stacks-preorder"

typedef struct walk {
  const uint32_t *want;
  uint32_t k;
  int bad;
} walk;
static int walk_fn(void *ctx, uint32_t depth, uint32_t location_id) {
  walk *w = ctx;
  if (depth != w->k + 1 || w->want[w->k] != location_id) w->bad = 1;
  w->k++;
  return 0;
}

/* Every sample of the file has the stack it was given, and *preorder
 * tells whether the file's stacks are in preorder. */
static void check_file(const built *t, const void *mem, size_t len, int *preorder, const char *what) {
  pcol_file *f = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), PCOL_OK, "%s: %s", what, err.message);
  cr_assert_eq(pcol_validate_full(f, &err), PCOL_OK, "%s: %s", what, err.message);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), t->n, "%s", what);
  pcol_view sv, par;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &sv, &err), PCOL_OK, "%s", what);
  for (uint64_t i = 0; i < t->n; i++) {
    const uint32_t *c = t->chain + i * (MAXD + 3);
    walk w = {c, 0, 0};
    cr_assert_eq(pcol_stack_walk(f, pcol_view_u32(&sv, i), walk_fn, &w, &err), PCOL_OK, "%s", what);
    cr_assert(!w.bad && c[w.k] == 0, "%s: sample %llu has another stack", what, (unsigned long long)i + 1);
  }
  /* preorder: each node's parent is on the path of the node before it */
  uint64_t ns = pcol_rows(f, PCOL_T_STACKS);
  cr_assert_eq(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &par, &err), PCOL_OK, "%s", what);
  *preorder = 1;
  for (uint64_t n = 2; n <= ns && *preorder; n++) {
    uint32_t q = pcol_view_u32(&par, n - 1), x = (uint32_t)n - 1;
    while (x && x != q) x = pcol_view_u32(&par, x - 1);
    if (x != q) *preorder = 0;
  }
  pcol_close(f);
}

Test(stack_order, preorder_same_stacks) {
  built t;
  build(&t, 20000, 0);
  size_t la, lb;
  void *a = write_mem(t.b, NULL, PREORDER, &la), *b = write_mem(t.b, NULL, AS_BUILT, &lb);
  int pa, pb;
  check_file(&t, a, la, &pa, "preorder");
  check_file(&t, b, lb, &pb, "as built");
  cr_assert(pa, "the written stacks are not in preorder");
  cr_assert(!pb, "the builder's own order was a preorder: the test builds nothing to renumber");
  free(a);
  free(b);
  built_free(&t);
}

/* The builder keeps its ids: samples added after a write (the streaming
 * writer's rolls) reuse and extend the same trie, and the next file has
 * every sample's stack. */
Test(stack_order, builder_usable_after_write) {
  built t;
  build(&t, 8000, 0);
  size_t la, lb;
  void *a = write_mem(t.b, NULL, PREORDER, &la);
  int pa;
  check_file(&t, a, la, &pa, "first write");
  cr_assert(pa);
  add_samples(&t, 8000, 7, 0);
  void *b = write_mem(t.b, NULL, PREORDER, &lb);
  check_file(&t, b, lb, &pa, "second write");
  cr_assert(pa);
  free(a);
  free(b);
  built_free(&t);
}

/* Spilled sample columns are renumbered as they are read back: the same
 * bytes as a builder held in memory, in every form the writer makes. */
Test(stack_order, spilled_identical) {
  pcol_write_options v12 = {.format_version = 2}, lz4 = {.compress_lz4 = 1},
                     zstd = {.compress_zstd = 1};
  const pcol_write_options *opts[4] = {NULL, &v12, &lz4, &zstd};
  const char *names[4] = {"raw", "format 1.2", "lz4", "zstd"};
  for (int k = 0; k < 4; k++) {
    built t, u;
    size_t keep = pcol_sample_spill_bytes;
    build(&t, 20000, 0);
    pcol_sample_spill_bytes = 4096;
    build(&u, 20000, 0);
    pcol_sample_spill_bytes = keep;
    size_t la, lb;
    void *a = write_mem(t.b, opts[k], PREORDER, &la), *b = write_mem(u.b, opts[k], PREORDER, &lb);
    cr_assert_eq(la, lb, "%s: %zu bytes in memory, %zu spilled", names[k], la, lb);
    cr_assert(memcmp(a, b, la) == 0, "%s: the files differ", names[k]);
    int pa;
    check_file(&u, b, lb, &pa, names[k]);
    cr_assert(pa, "%s: not in preorder", names[k]);
    free(a);
    free(b);
    built_free(&t);
    built_free(&u);
  }
}

/* Every sample growing a branch: each sample's stack id is the node it
 * made, rising by one, which the builder's order stores in no bytes and
 * preorder would scatter: the file keeps the builder's order. */
Test(stack_order, kept_as_built_when_not_smaller) {
  built t;
  build(&t, 6000, 1);
  size_t la, lb;
  void *a = write_mem(t.b, NULL, NULL, &la), *b = write_mem(t.b, NULL, AS_BUILT, &lb);
  cr_assert_eq(la, lb);
  cr_assert(memcmp(a, b, la) == 0, "renumbered although it was not smaller");
  int pa;
  check_file(&t, a, la, &pa, "kept");
  cr_assert(!pa);
  free(a);
  free(b);
  built_free(&t);
}

/* pcol_b_stack_nodes (a pcol file's stack table added at once, add_file.c)
 * gives every node the id the one-by-one pcol_b_stack_node calls give, in
 * a builder that already holds nodes (some of the table's are found, the
 * others new, the table grown on the way), and names the first bad node. */
Test(stack_order, nodes_at_once_as_one_by_one) {
  enum { NLOC = 40, OLD = 3000, NEW = 20000 };
  pcol_builder *a = NULL, *b = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&a, &err), PCOL_OK);
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  uint32_t loc[NLOC], id, ida, idb;
  for (uint32_t i = 0; i < NLOC; i++) {
    cr_assert_eq(pcol_b_location(a, 0, 0x1000 + i, 0, NULL, 0, &loc[i], &err), PCOL_OK);
    cr_assert_eq(pcol_b_location(b, 0, 0x1000 + i, 0, NULL, 0, &id, &err), PCOL_OK);
  }
  uint64_t seed = 7;
  uint32_t *old = calloc(OLD + 1, sizeof *old);
  for (uint32_t i = 1; i <= OLD; i++) { /* the same nodes in both, few locations: a deep trie */
    uint32_t p = old[lcg(&seed) % i], l = loc[lcg(&seed) % 8];
    cr_assert_eq(pcol_b_stack_node(a, p, l, &ida, &err), PCOL_OK);
    cr_assert_eq(pcol_b_stack_node(b, p, l, &idb, &err), PCOL_OK);
    cr_assert_eq(ida, idb);
    old[i] = ida;
  }
  uint32_t *par = malloc(NEW * sizeof *par), *lc = malloc(NEW * sizeof *lc);
  uint32_t *map = malloc((NEW + 1) * sizeof *map), *one = malloc((NEW + 1) * sizeof *one);
  uint32_t *ph = malloc((NEW + 1) * sizeof *ph);
  cr_assert(par && lc && map && one && ph);
  for (uint32_t i = 0; i < NEW; i++) { /* a table over the same locations: it meets old nodes */
    par[i] = i < 2 ? 0 : (uint32_t)(lcg(&seed) % (i + 1));
    lc[i] = loc[lcg(&seed) % (i < NEW / 2 ? 8 : NLOC)];
  }
  size_t bad = 99;
  cr_assert_eq(pcol_b_stack_nodes(a, par, lc, NEW, map, ph, &bad, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(bad, 0);
  one[0] = 0;
  uint64_t found = 0;
  for (uint32_t i = 0; i < NEW; i++) {
    uint64_t before = b->t[PCOL_T_STACKS].rows;
    cr_assert_eq(pcol_b_stack_node(b, one[par[i]], lc[i], &one[i + 1], &err), PCOL_OK);
    found += b->t[PCOL_T_STACKS].rows == before;
    cr_assert_eq(map[i + 1], one[i + 1], "node %u: %u at once, %u one by one", i + 1, map[i + 1],
                 one[i + 1]);
  }
  cr_assert(found > 0 && found < NEW, "%llu of the nodes found", (unsigned long long)found);
  cr_assert_eq(a->t[PCOL_T_STACKS].rows, b->t[PCOL_T_STACKS].rows);
  /* a parent after its node, a location not in the builder: that node named */
  par[100] = 101;
  cr_assert_eq(pcol_b_stack_nodes(a, par, lc, NEW, map, ph, &bad, &err), PCOL_EINVAL);
  cr_assert_eq(bad, 101);
  par[100] = 0, lc[50] = NLOC + 1;
  cr_assert_eq(pcol_b_stack_nodes(a, par, lc, NEW, map, ph, &bad, &err), PCOL_EINVAL);
  cr_assert_eq(bad, 51);
  free(old), free(par), free(lc), free(map), free(one), free(ph);
  pcol_builder_free(a);
  pcol_builder_free(b);
}

static int cmp_u32(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return (a > b) - (a < b);
}

/* A node's path hash is 32 bits: among 2^19 nodes some pairs share one
 * (about 32 expected), and a node of a shared hash is still itself (its
 * parent and location compared): every node gets its own id, and each one
 * added again is found as that id, the table grown on the way. */
Test(stack_order, nodes_of_one_path_hash_kept_apart) {
  enum { NLOC = 64, N = 1 << 19 };
  pcol_builder *b = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  uint32_t loc[NLOC], id;
  for (uint32_t i = 0; i < NLOC; i++)
    cr_assert_eq(pcol_b_location(b, 0, 0x1000 + i, 0, NULL, 0, &loc[i], &err), PCOL_OK);
  for (uint32_t i = 1; i <= N; i++) { /* a 64-ary tree: node i under (i - 1) / 64 */
    cr_assert_eq(pcol_b_stack_node(b, (i - 1) / NLOC, loc[(i - 1) % NLOC], &id, &err), PCOL_OK);
    cr_assert_eq(id, i);
  }
  cr_assert_eq(b->stacks.count, N);
  cr_assert_eq(b->stacks.ph.len, (N + 1) * sizeof(uint32_t));
  uint32_t *h = malloc(N * sizeof *h);
  cr_assert(h);
  memcpy(h, b->stacks.ph.data + sizeof(uint32_t), N * sizeof *h);
  qsort(h, N, sizeof *h, cmp_u32);
  size_t shared = 0;
  for (size_t i = 1; i < N; i++) shared += h[i] == h[i - 1];
  free(h);
  cr_assert(shared > 0, "no two of %d nodes share a path hash", N);
  for (uint32_t i = 1; i <= N; i++) {
    cr_assert_eq(pcol_b_stack_node(b, (i - 1) / NLOC, loc[(i - 1) % NLOC], &id, &err), PCOL_OK);
    cr_assert_eq(id, i, "node %u found as %u", i, id);
  }
  cr_assert_eq(b->t[PCOL_T_STACKS].rows, N);
  pcol_builder_free(b);
}

/* A builder emptied by pcol_builder_reset (a wall-clock range's inputs,
 * detect.c) builds the next profile into the bytes a new builder does,
 * after a bigger profile (its tables kept) and after a smaller one (freed). */
Test(stack_order, reset_builds_as_new) {
  static const uint64_t sizes[] = {20000, 3000, 3000, 20000, 500};
  pcol_builder *kept = NULL;
  pcol_error err = {0};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    built t, u;
    build(&t, sizes[k], 0);
    build_in(&u, kept, sizes[k], 0);
    size_t la, lb;
    void *a = write_mem(t.b, NULL, NULL, &la), *b = write_mem(u.b, NULL, NULL, &lb);
    cr_assert(la == lb && memcmp(a, b, la) == 0, "profile %zu: the reset builder's file differs", k);
    free(a);
    free(b);
    kept = u.b;
    cr_assert_eq(pcol_builder_reset(&kept, &err), PCOL_OK, "%s", err.message);
    u.b = NULL;
    built_free(&t);
    built_free(&u);
  }
  pcol_builder_free(kept);
}
