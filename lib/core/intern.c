/* intern.c — byte runs interned to ids 1..n (intern.h). */
#include "intern.h"
#include "pcol.h" /* PCOL_OK, PCOL_ENOMEM, PCOL_ETOOBIG */
#include <string.h>

typedef struct run {
  const void *p;
  size_t n;
} run;

static int run_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_intern *t = ctx;
  const run *k = key;
  const uint64_t *off = (const uint64_t *)(const void *)t->off.data;
  return off[id] - off[id - 1] == k->n && (!k->n || !memcmp(t->bytes.data + off[id - 1], k->p, k->n));
}

uint32_t pcol_intern_find(const pcol_intern *t, const void *p, size_t len, uint64_t *hash) {
  run k = {p, len};
  *hash = pcol_hash_keyed(p ? p : "", len);
  return pcol_hset_find(&t->h, *hash, run_eq, t, &k);
}

int pcol_intern_add(pcol_intern *t, const void *p, size_t len, uint64_t hash, uint32_t *id) {
  if (t->n >= UINT32_MAX - 1) return PCOL_ETOOBIG;
  size_t at = t->bytes.len;
  /* (bytes.data then not NULL: the run of an empty key is a pointer) */
  if (!t->off.len && (PCOL_BUF_PUSH(&t->off, uint64_t, 0) || pcol_buf_reserve(&t->bytes, 1))) return PCOL_ENOMEM;
  if (len && pcol_buf_append(&t->bytes, p, len)) return PCOL_ENOMEM;
  if (PCOL_BUF_PUSH(&t->off, uint64_t, t->bytes.len) || pcol_hset_insert(&t->h, hash, t->n + 1)) {
    t->bytes.len = at; /* as it was (off's last entry, if pushed, not counted) */
    if (t->off.len > sizeof(uint64_t) * (t->n + 1)) t->off.len -= sizeof(uint64_t);
    return PCOL_ENOMEM;
  }
  *id = ++t->n;
  return PCOL_OK;
}

int pcol_intern_get(pcol_intern *t, const void *p, size_t len, uint32_t *id) {
  uint64_t h;
  if ((*id = pcol_intern_find(t, p, len, &h))) return PCOL_OK;
  return pcol_intern_add(t, p, len, h, id);
}

void pcol_intern_free(pcol_intern *t) {
  pcol_hset_free(&t->h);
  pcol_buf_free(&t->bytes);
  pcol_buf_free(&t->off);
  t->n = 0;
}
