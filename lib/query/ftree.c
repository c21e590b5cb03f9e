/* ftree.c — the frame tree (pcol_ftree_*): the stacks with every frame
 * named by core's rule (frames.h), inline frames expanded outermost first,
 * merged by name path; what `pcol flame` draws and `pcol fold` prints.
 * Cost model: weights per stack node from weights.c, then one pass over the
 * distinct stack nodes (parents come first, so a node's tree node is its
 * parent's plus its location's frames), each frame found with one hash
 * probe of (parent, key); a named function's name is interned once.  The tree
 * is bounded (16 x (stacks + lines) + 2^22 nodes) so that a small hostile
 * file cannot ask for stacks x inline-chain nodes. */
#include "query.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "buf.h"      /* PCOL_GROW, pcol_buf_free, pcol_alloc_hot */
#include "hash.h"     /* pcol_hset_find, pcol_hash2, pcol_hset, ... */
#include "filter.h"   /* pcol_filter, pcol_filter_build, pcol_filter_free */
#include "frames.h"   /* pcol_frames_lines, ... */
#include <stdlib.h>
#include <string.h>

typedef struct ft_priv {
  pcol_q_keytab keys;
  pcol_hset kids;    /* (parent, key) -> node */
  uint32_t *keyid;   /* key of node i */
  uint32_t *parent;  /* same array as pcol_ftree.parent while building */
  uint32_t n;        /* nodes, the root included */
  size_t keyid_cap, parent_cap;
  uint32_t *stack_node; /* tree node of each stack node (pcol_q_ftree_stack_nodes) */
} ft_priv;

/* Bound on the nodes of a frame tree, 2^30 - 1 (ids keep 31 bits with room
 * to spare); the budget in ftree_run usually stops a tree long before. */
#define FT_MAX_NODES ((UINT32_C(1) << 30) - 1)

typedef struct {
  uint32_t parent, key;
} ft_key;

static int ft_eq(const void *ctx, uint32_t id, const void *key) {
  const ft_priv *p = ctx;
  const ft_key *k = key;
  return p->parent[id] == k->parent && p->keyid[id] == k->key;
}

static uint64_t ft_hash(uint32_t parent, uint32_t key) {
  return pcol_hash2(11, parent, key);
}

/* A failure of the tree's own tables (growing them, interning a name),
 * filled into err where it happens: ENOMEM, or ETOOBIG at a table's bound. */
static int ft_fail(pcol_error *err, int rc) {
  if (rc == PCOL_ETOOBIG)
    return pcol_error_set(err, rc, "building the frame tree: more than 2^30 nodes or 2^31 names");
  return pcol_error_set(err, rc, "building the frame tree: %s", pcol_strerror(rc));
}

/* The id of name (n bytes at p) in keys, added if new (copied if `copy`). */
static int ft_intern(pcol_q_keytab *keys, const char *p, size_t n, int copy, uint32_t *key,
                     pcol_error *err) {
  int rc = pcol_q_key_intern(keys, p, n, copy, key, err);
  if (rc) (void)pcol_error_prefix(err, "building the frame tree");
  return rc;
}

/* Appends node *id = p->n (not indexed in p->kids). */
static inline int ft_push(ft_priv *p, uint32_t parent, uint32_t key, uint32_t *id,
                          pcol_error *err) {
  if (p->n >= FT_MAX_NODES) return ft_fail(err, PCOL_ETOOBIG);
  if (PCOL_GROW(p->parent, p->n, p->parent_cap) || PCOL_GROW(p->keyid, p->n, p->keyid_cap))
    return ft_fail(err, PCOL_ENOMEM);
  *id = p->n++;
  p->parent[*id] = parent;
  p->keyid[*id] = key;
  return PCOL_OK;
}

/* *out = the child of `parent` with key `key`, added if new. */
static int ft_child(ft_priv *p, uint32_t parent, uint32_t key, uint32_t *out, pcol_error *err) {
  ft_key k = {parent, key};
  uint64_t h = ft_hash(parent, key);
  uint32_t found = pcol_hset_find(&p->kids, h, ft_eq, p, &k);
  if (found) {
    *out = found;
    return PCOL_OK;
  }
  uint32_t id = 0;
  PCOL_RETURN_NOT_OK(ft_push(p, parent, key, &id, err));
  int rc = pcol_hset_insert(&p->kids, h, id);
  if (rc) return ft_fail(err, rc);
  *out = id;
  return PCOL_OK;
}

/* The name of frame `li` (a line row) for the frame tree (frames.h). */
static int frame_key(pcol_q_fctx *c, pcol_q_keytab *keys, uint32_t *fn_key, uint64_t li,
                     uint32_t *key, pcol_error *err) {
  uint32_t fn = pcol_frames_fn(&c->fr, li);
  if (fn && fn_key[fn] != UINT32_MAX && fn_key[fn] != 0) {
    *key = fn_key[fn];
    return PCOL_OK;
  }
  pcol_str name;
  int by_function;
  PCOL_RETURN_NOT_OK(pcol_frame_line_name(&c->fr, li, &c->scratch, &name, &by_function, err));
  if (by_function) {
    PCOL_RETURN_NOT_OK(ft_intern(keys, name.ptr, name.len, 0, key, err));
    fn_key[fn] = *key;
    return PCOL_OK;
  }
  if (fn) fn_key[fn] = 0; /* named by place: per line, not per function */
  return ft_intern(keys, name.ptr, name.len, 1, key, err);
}

/* The name of an unsymbolized location (its mapping's, frames.h). */
static int addr_key(pcol_q_fctx *c, pcol_q_keytab *keys, uint32_t loc, uint32_t *key,
                    pcol_error *err) {
  c->scratch.len = 0;
  PCOL_RETURN_NOT_OK(pcol_q_unsymbolized_name(c, loc, &c->scratch, err));
  return ft_intern(keys, (const char *)c->scratch.data, c->scratch.len, 1, key, err);
}

static int ftree_run(pcol_q_fctx *c, ft_priv *p, const pcol_select *sel, const pcol_value_sel *v,
                     pcol_ftree *out, pcol_error *err) {
  pcol_sum *w = NULL;
  uint32_t *map = NULL, *fn_key = NULL;
  pcol_filter flt;
  int rc = pcol_filter_build(c->f, sel, &flt, err);
  if (rc) return rc;
  const uint8_t *hid = flt.line_hidden; /* --hide/--show */
  if ((rc = pcol_q_weights(c->f, sel, &flt, v, &w, &out->total_abs, err))) goto done;
  map = pcol_alloc_hot((c->nstacks + 1) * sizeof *map, 0); /* (written whole) */
  fn_key = malloc((c->nfn + 1) * sizeof *fn_key);
  if (!map || !fn_key) {
    rc = pcol_oom(err);
    goto done;
  }
  for (uint64_t i = 0; i <= c->nfn; i++) fn_key[i] = UINT32_MAX;
  map[0] = 0;
  /* Each stack node expands into its location's inline chain, so a small
   * file whose nodes all sit on one location with a huge chain could ask
   * for stacks x lines frames.  Real profiles stay far below this budget. */
  uint64_t budget = 16 * ((uint64_t)c->nstacks + c->nlines) + (UINT64_C(1) << 22);
  for (uint64_t n = 1; n <= c->nstacks; n++) {
    if (p->n > budget) {
      rc = pcol_error_set(err, PCOL_ETOOBIG, "the frame tree would exceed %llu nodes "
                          "(stacks x inline frames); the file is implausible",
                          (unsigned long long)budget);
      goto done;
    }
    uint32_t par = pcol_view_u32(&c->st_parent, n - 1), loc = pcol_view_u32(&c->st_loc, n - 1);
    if (par >= n) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "stack node %llu has a bad parent",
                          (unsigned long long)n);
      goto done;
    }
    uint32_t cur = map[par];
    uint64_t a, e;
    pcol_frames_lines(&c->fr, loc, &a, &e);
    uint32_t key;
    if ((hid && flt.loc_hidden[loc]) || (flt.node_cut && flt.node_cut[n])) {
      /* removed from the stacks (hide/show), or above show_from's match:
       * its frames are its caller's */
      map[n] = cur;
      continue;
    }
    if (a == e) {
      if ((rc = addr_key(c, &p->keys, loc, &key, err)) || (rc = ft_child(p, cur, key, &cur, err)))
        goto done;
    }
    for (uint64_t li = e; li > a; li--) /* outermost inline frame first */
      if (hid && hid[li - 1]) continue;
      else if ((rc = frame_key(c, &p->keys, fn_key, li - 1, &key, err)) ||
          (rc = ft_child(p, cur, key, &cur, err)))
        goto done;
    map[n] = cur;
  }
  p->stack_node = map; /* kept for the report page; freed with the tree */
  map = NULL;
  out->n = p->n;
  out->parent = p->parent;
  /* a node each, written whole: pcol_alloc_hot (fresh pages one fault
   * each were a third of `pcol fold` of go-cpu-large) */
  out->depth = pcol_alloc_hot((size_t)p->n * sizeof *out->depth, 0);
  out->name = pcol_alloc_hot((size_t)p->n * sizeof *out->name, 0);
  out->self = pcol_alloc_hot((size_t)p->n * sizeof *out->self, 1);
  out->total = pcol_alloc_hot((size_t)p->n * sizeof *out->total, 1);
  if (!out->depth || !out->name || !out->self || !out->total) {
    rc = pcol_oom(err);
    goto done;
  }
  for (uint64_t n = 1; n <= c->nstacks; n++) out->self[p->stack_node[n]] += w[n];
  out->self[0] += w[0]; /* samples with an empty stack sit on the root */
  out->name[0].ptr = "";
  out->name[0].len = 0;
  out->depth[0] = 0;
  for (uint32_t i = 1; i < p->n; i++) {
    out->name[i] = p->keys.s[p->keyid[i]];
    out->depth[i] = out->depth[p->parent[i]] + 1;
  }
  for (uint32_t i = p->n; i-- > 0;) {
    out->total[i] += out->self[i];
    if (i) out->total[p->parent[i]] += out->total[i];
  }
done:
  free(w);
  free(map);
  free(fn_key);
  pcol_filter_free(&flt);
  return rc;
}

int pcol_ftree_build(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                     pcol_ftree *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  pcol_q_fctx c;
  int rc = pcol_q_fctx_init(&c, f, err);
  if (rc) return rc;
  ft_priv *p = calloc(1, sizeof *p);
  if (!p) return pcol_oom(err);
  out->value = *v;
  out->priv_ = p;
  uint32_t root; /* node 0 */
  pcol_nameless_rule rule = {0}; /* a pprof source's nameless line is "<unknown>" (frames.h) */
  rc = ft_push(p, 0, 0, &root, err);
  if (!rc && !(rc = pcol_nameless_rule_make(f, sel, &rule, err))) c.fr.rule = &rule;
  if (!rc) rc = ftree_run(&c, p, sel, v, out, err);
  pcol_nameless_rule_free(&rule);
  pcol_buf_free(&c.scratch);
  out->parent = p->parent;
  if (rc) {
    pcol_ftree_free(out);
    return rc;
  }
  return PCOL_OK;
}

uint32_t pcol_ftree_child(const pcol_ftree *t, uint32_t parent, const char *name, size_t len) {
  const ft_priv *p = t->priv_;
  if (!p) return 0;
  uint32_t key = pcol_q_key_find(&p->keys, name, len);
  if (!key) return 0;
  ft_key k = {parent, key};
  return pcol_hset_find(&p->kids, ft_hash(parent, key), ft_eq, p, &k);
}

const uint32_t *pcol_q_ftree_stack_nodes(const pcol_ftree *t) {
  const ft_priv *p = t->priv_;
  return p ? p->stack_node : NULL;
}

/* For the report page's hide and show filters, which rebuild the tree in
 * the browser from the frames left: the name ftree_run gives each line row
 * (line_name[nlines]) and each location without lines (loc_name[nloc + 1],
 * {NULL, 0} for one with lines), interned in t's own names so that they
 * stay valid until pcol_ftree_free.  The caller frees the two arrays. */
int pcol_q_ftree_frame_names(pcol_file *f, pcol_ftree *t, pcol_str **line_name,
                             pcol_str **loc_name, pcol_error *err) {
  *line_name = *loc_name = NULL;
  ft_priv *p = t->priv_;
  if (!p) return pcol_error_set(err, PCOL_EINVAL, "no frame tree");
  pcol_q_fctx c;
  PCOL_RETURN_NOT_OK(pcol_q_fctx_init(&c, f, err));
  pcol_nameless_rule rule = {0}; /* the whole profile's, as the page's tree (pcol_ftree_build) */
  uint32_t *fn_key = malloc((c.nfn + 1) * sizeof *fn_key);
  pcol_str *ln = calloc(c.nlines ? c.nlines : 1, sizeof *ln), *lc = calloc(c.nloc + 1, sizeof *lc);
  int rc = fn_key && ln && lc ? pcol_nameless_rule_make(f, NULL, &rule, err) : pcol_oom(err);
  if (!rc) c.fr.rule = &rule;
  for (uint64_t i = 0; !rc && i <= c.nfn; i++) fn_key[i] = UINT32_MAX;
  for (uint64_t loc = 1; !rc && loc <= c.nloc; loc++) {
    uint64_t a, e;
    uint32_t key;
    pcol_frames_lines(&c.fr, (uint32_t)loc, &a, &e);
    if (a == e) {
      if (!(rc = addr_key(&c, &p->keys, (uint32_t)loc, &key, err))) lc[loc] = p->keys.s[key];
    }
    for (uint64_t li = a; !rc && li < e; li++)
      if (!(rc = frame_key(&c, &p->keys, fn_key, li, &key, err))) ln[li] = p->keys.s[key];
  }
  pcol_buf_free(&c.scratch);
  pcol_nameless_rule_free(&rule);
  free(fn_key);
  if (rc) {
    free(ln);
    free(lc);
    return rc;
  }
  *line_name = ln;
  *loc_name = lc;
  return PCOL_OK;
}

void pcol_ftree_free(pcol_ftree *t) {
  if (!t) return;
  ft_priv *p = t->priv_;
  if (p) {
    pcol_q_keytab_free(&p->keys);
    pcol_hset_free(&p->kids);
    free(p->keyid);
    free(p->parent);
    free(p->stack_node);
    free(p);
  }
  free(t->depth);
  free(t->name);
  free(t->self);
  free(t->total);
  memset(t, 0, sizeof *t);
}
