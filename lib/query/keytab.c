/* keytab.c — the key table and the file column cache of query.h.  Cost
 * model: interning hashes the name once and probes an open-addressing set
 * (O(1) expected, O(name) bytes); names composed by a view (a "file#line",
 * a frame named by place) are copied once into 64 KiB arena blocks, names
 * read from the file are borrowed, never copied.  fctx_init only takes
 * zero-copy views; the first use of a column checks it in one O(rows) pass
 * (pcol_column). */
#include "query.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK */
#include "buf.h"      /* PCOL_GROW, pcol_prefault_write */
#include "hash.h"     /* pcol_hash_bytes, pcol_hset_find, pcol_hset_free, ... */
#include "reader.h"   /* pcol_column_plain, pcol_strings_at, pcol_strings_get */
#include "frames.h"   /* pcol_frames_init */
#include "bytes.h"    /* pcol_rd64 */
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ arena */
/* Blocks that never move, so pcol_str pointers into them stay valid. */
typedef struct pcol_q_ablock {
  struct pcol_q_ablock *next;
  size_t used, cap;
  char data[];
} ablock;

static char *arena_put(ablock **a, const char *p, size_t n) {
  if (!*a || (*a)->cap - (*a)->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    ablock *b = malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->next = *a;
    b->used = 0;
    b->cap = cap;
    *a = b;
  }
  char *r = (*a)->data + (*a)->used;
  if (n) memcpy(r, p, n);
  (*a)->used += n;
  return r;
}

static void arena_free(ablock *a) {
  while (a) {
    ablock *n = a->next;
    free(a);
    a = n;
  }
}

/* ------------------------------------------------------ key table */
typedef struct {
  const char *p;
  size_t n;
} kkey;

static int key_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_q_keytab *t = ctx;
  const kkey *k = key;
  return t->s[id].len == k->n && (k->n == 0 || memcmp(t->s[id].ptr, k->p, k->n) == 0);
}

const char *pcol_q_key_store(pcol_q_keytab *t, const char *p, size_t n) {
  return arena_put(&t->arena, p, n);
}

uint32_t pcol_q_key_find(const pcol_q_keytab *t, const char *p, size_t n) {
  kkey k = {p, n};
  return pcol_hset_find(&t->h, pcol_hash_bytes(p, n, 7), key_eq, t, &k);
}

int pcol_q_key_front(pcol_q_keytab *t, size_t slots) {
  free(t->front);
  t->front = calloc(slots, sizeof *t->front);
  t->front_mask = t->front ? slots - 1 : 0;
  return t->front ? PCOL_OK : PCOL_ENOMEM;
}

/* The front cache's slot of p[0..n) (see pcol_q_key_front). */
static size_t front_slot(const pcol_q_keytab *t, const char *p, size_t n) {
  uint64_t a = 0, b = 0, c = 0;
  const uint8_t *u = (const uint8_t *)p;
  if (n >= 8) {
    a = pcol_rd64(u);
    b = pcol_rd64(u + n - 8);
    c = pcol_rd64(u + (n - 8) / 2);
  } else {
    for (size_t i = 0; i < n; i++) a = a << 8 | u[i];
  }
  uint64_t h = (a * 0x9e3779b97f4a7c15u) ^ (b * 0xc2b2ae3d27d4eb4fu) ^ (c * 0x165667b19e3779f9u) ^ n;
  return (size_t)(h ^ h >> 29 ^ h >> 47) & t->front_mask;
}

int pcol_q_key_intern(pcol_q_keytab *t, const char *p, size_t n, int copy, uint32_t *id,
                      pcol_error *err) {
  size_t slot = 0;
  if (t->front) { /* two ways: the slot and its neighbour (a pair) */
    slot = front_slot(t, p, n);
    for (size_t w = 0; w < 2; w++) {
      uint32_t k = t->front[slot ^ w];
      if (k && t->s[k].len == n && (n == 0 || memcmp(t->s[k].ptr, p, n) == 0)) {
        *id = k;
        return PCOL_OK;
      }
    }
  }
  int rc = pcol_q_key_intern_h(t, p, n, pcol_q_key_hash(p, n), copy, id, err);
  if (!rc && t->front) { /* into a free way, else the pair's older moves over */
    if (t->front[slot]) t->front[slot ^ 1] = t->front[slot];
    t->front[slot] = *id;
  }
  return rc;
}

uint64_t pcol_q_key_hash(const char *p, size_t n) { return pcol_hash_bytes(p, n, 7); }

static int key_add(pcol_q_keytab *t, const char *p, size_t n, uint64_t h, int copy, uint32_t *id) {
  /* s[0] is unused: the new id n + 1 needs n + 2 entries, at most 2^31 */
  if (t->n + 2 > UINT32_C(1) << 31) return PCOL_ETOOBIG;
  PCOL_RETURN_NOT_OK(PCOL_GROW(t->s, (size_t)t->n + 1, t->cap));
  if (copy) {
    p = arena_put(&t->arena, p, n);
    if (!p) return PCOL_ENOMEM;
  }
  uint32_t nid = ++t->n;
  t->s[nid].ptr = p ? p : "";
  t->s[nid].len = n;
  PCOL_RETURN_NOT_OK(pcol_hset_insert(&t->h, h, nid));
  *id = nid;
  return PCOL_OK;
}

int pcol_q_key_intern_h(pcol_q_keytab *t, const char *p, size_t n, uint64_t h, int copy,
                        uint32_t *id, pcol_error *err) {
  kkey k = {p, n};
  uint32_t found = pcol_hset_find(&t->h, h, key_eq, t, &k);
  if (found) {
    *id = found;
    return PCOL_OK;
  }
  int rc = key_add(t, p, n, h, copy, id);
  if (rc == PCOL_ETOOBIG) return pcol_error_set(err, rc, "more than 2^31 - 1 distinct names");
  return rc ? pcol_error_set(err, rc, "%s", pcol_strerror(rc)) : PCOL_OK;
}

int pcol_q_key_intern_shown(pcol_q_keytab *t, const char *p, size_t n, size_t shown, int copy,
                            uint32_t *id, pcol_error *err) {
  PCOL_RETURN_NOT_OK(pcol_q_key_intern(t, p, n, copy, id, err));
  if (shown >= n) return PCOL_OK;
  if (shown > UINT32_MAX - 1) return pcol_error_set(err, PCOL_ETOOBIG, "a name of 4 GiB");
  if (*id >= t->shown_cap) {
    size_t had = t->shown_cap;
    while (*id >= t->shown_cap)
      if (pcol_grow(&t->shown, &t->shown_cap, sizeof *t->shown)) return pcol_oom(err);
    memset(t->shown + had, 0, (t->shown_cap - had) * sizeof *t->shown);
  }
  t->shown[*id] = (uint32_t)shown + 1;
  return PCOL_OK;
}

int pcol_q_key_reserve(pcol_q_keytab *t, size_t n) {
  if (n > (size_t)1 << 31) return PCOL_OK; /* only a hint */
  if (n + 2 > t->cap) { /* one realloc (PCOL_GROW doubles once: a copy each) */
    pcol_str *g = realloc(t->s, (n + 2) * sizeof *t->s);
    if (!g) return PCOL_ENOMEM;
    t->s = g;
    t->cap = n + 2;
  }
  if (n > t->n) /* the entries to come, ids t->n + 1 .. n, written one by one */
    pcol_prefault_write(t->s + t->n + 1, (n - t->n) * sizeof *t->s);
  return pcol_hset_reserve(&t->h, n);
}

void pcol_q_keytab_free(pcol_q_keytab *t) {
  free(t->front);
  free(t->shown);
  free(t->lk);
  free(t->s);
  pcol_hset_free(&t->h);
  arena_free(t->arena);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------- file column cache */
int pcol_q_trie_plain(pcol_file *f, pcol_view *parent, pcol_view *loc, pcol_error *err) {
  if (!parent->nlanes && !loc->nlanes) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_column_plain(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, parent, err));
  return pcol_column_plain(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, loc, err);
}

int pcol_q_fctx_init(pcol_q_fctx *c, pcol_file *f, pcol_error *err) {
  PCOL_RETURN_NOT_OK(pcol_q_fctx_init_inplace(c, f, err));
  return pcol_q_trie_plain(f, &c->st_parent, &c->st_loc, err);
}

int pcol_q_fctx_init_inplace(pcol_q_fctx *c, pcol_file *f, pcol_error *err) {
  memset(c, 0, sizeof *c);
  c->f = f;
  c->nloc = pcol_rows(f, PCOL_T_LOCATIONS);
  c->nlines = pcol_rows(f, PCOL_T_LINES);
  c->nfn = pcol_rows(f, PCOL_T_FUNCTIONS);
  c->nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  c->nstacks = pcol_rows(f, PCOL_T_STACKS);
  /* pcol_column checks ids, offsets and parent < child on first use */
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &c->loc_off, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, &c->loc_map, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS, &c->loc_addr, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &c->ln_fn, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &c->ln_line, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &c->fn_name, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME, &c->fn_file, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME, &c->map_file, err));
  /* the trie's two columns as stored (pcol_q_trie_plain decodes them) */
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &c->st_parent, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &c->st_loc, err));
  PCOL_RETURN_NOT_OK(pcol_frames_init(&c->fr, f, err));
  c->fr.views = 1; /* a function named "" is go's frame of no name (frames.h) */
  PCOL_RETURN_NOT_OK(pcol_strings_get(f, &c->str, err));
  if (c->loc_off.count != c->nloc + 1 && c->nloc)
    return pcol_error_set(err, PCOL_ECORRUPT, "location offsets have %llu entries for %llu locations",
                          (unsigned long long)c->loc_off.count, (unsigned long long)c->nloc);
  return PCOL_OK;
}

int pcol_q_fn_string(const pcol_q_fctx *c, uint32_t fn, const pcol_view *col, pcol_str *out,
                     pcol_error *err) {
  out->ptr = NULL;
  out->len = 0;
  if (fn == 0 || fn > c->nfn) return PCOL_OK;
  return pcol_strings_at(&c->str, pcol_view_u32(col, fn - 1), out, err);
}
