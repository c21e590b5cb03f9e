/* hash.c — keyed hashing (SipHash-1-3) and the hash set used for deduplication. */
#include "pcol.h"
#include "buf.h"      /* pcol_alloc_hot */
#include "bytes.h"    /* pcol_rd64 */
#include "hash.h"     /* pcol_hset, pcol_hstate, pcol_hash2, ... */
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* Every hash table of libpcol is keyed by data a file chose (strings,
 * addresses, ids), so every hash is SipHash-1-3 under a key drawn once per
 * process: a crafted file cannot aim many keys at one slot, as it could
 * with a fixed, invertible hash (quadratic probing time: hash flooding).
 * SipHash-1-3 is the variant Rust's HashMap used for the same reason;
 * bench/ measures its cost on packing. */
static uint64_t sip_key[2];
static pthread_once_t sip_once = PTHREAD_ONCE_INIT;

static void sip_init(void) {
  uint64_t k[2] = {0, 0};
  if (getrandom(k, sizeof k, GRND_NONBLOCK) != (ssize_t)sizeof k) {
    /* no entropy source: still not guessable from the file alone */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    k[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
    k[1] = (uint64_t)(uintptr_t)&ts ^ ((uint64_t)ts.tv_sec << 20);
  }
  sip_key[0] = k[0];
  sip_key[1] = k[1];
}

void pcol_hs_init(pcol_hstate *s, uint64_t tag) {
  pthread_once(&sip_once, sip_init);
  s->v0 = 0x736f6d6570736575ULL ^ sip_key[0] ^ tag;
  s->v1 = 0x646f72616e646f6dULL ^ sip_key[1];
  s->v2 = 0x6c7967656e657261ULL ^ sip_key[0] ^ tag;
  s->v3 = 0x7465646279746573ULL ^ sip_key[1];
  s->n = 0;
}

/* Under a fixed key that the caller names: for hashes that must agree
 * between processes and machines (content keys, e.g. the ClickHouse
 * exporter's source keys), never for hash tables. */
void pcol_hs_init_fixed(pcol_hstate *s, uint64_t k0, uint64_t k1) {
  s->v0 = 0x736f6d6570736575ULL ^ k0;
  s->v1 = 0x646f72616e646f6dULL ^ k1;
  s->v2 = 0x6c7967656e657261ULL ^ k0;
  s->v3 = 0x7465646279746573ULL ^ k1;
  s->n = 0;
}

uint64_t pcol_hash_bytes(const void *p, size_t n, uint64_t seed) {
  pcol_hstate st;
  pcol_hs_init(&st, seed);
  const uint8_t *s = p;
  size_t len = n;
  for (; n >= 8; n -= 8, s += 8) pcol_hs_add(&st, pcol_rd64(s));
  uint64_t b = (uint64_t)len << 56;
  for (size_t i = 0; i < n; i++) b |= (uint64_t)s[i] << (8 * i);
  st.n = 0; /* the byte length is in the last block, as SipHash does */
  return pcol_hs_end_with(&st, b);
}

/* A slot's place and word (hash.h): the hash's high 32 bits. */
static inline size_t hset_home(uint64_t word, size_t mask) { return (size_t)(word >> 32) & mask; }

uint32_t pcol_hset_find(const pcol_hset *h, uint64_t hash, pcol_eq_fn eq,
                        const void *ctx, const void *key) {
  if (!h->cap) return 0;
  size_t mask = h->cap - 1;
  uint64_t hi = hash & ~(uint64_t)UINT32_MAX;
  for (size_t i = hset_home(hash, mask);; i = (i + 1) & mask) {
    uint64_t x = h->e[i];
    if (!x) return 0;
    if ((x & ~(uint64_t)UINT32_MAX) == hi && eq(ctx, (uint32_t)x, key)) return (uint32_t)x;
  }
}

static int hset_grow_to(pcol_hset *h, size_t ncap) {
  /* written all over at random (the old entries, then the new): faulted
   * in at once (pcol_alloc_hot) */
  uint64_t *ne = pcol_alloc_hot(ncap * sizeof *ne, 1);
  if (!ne) return PCOL_ENOMEM;
  for (size_t i = 0; i < h->cap; i++) {
    uint64_t x = h->e[i];
    if (!x) continue;
    size_t j = hset_home(x, ncap - 1);
    while (ne[j]) j = (j + 1) & (ncap - 1);
    ne[j] = x;
  }
  free(h->e);
  h->e = ne;
  h->cap = ncap;
  return PCOL_OK;
}

static int hset_grow(pcol_hset *h) { return hset_grow_to(h, h->cap ? h->cap * 2 : 1024); }

int pcol_hset_reserve(pcol_hset *h, size_t n) {
  size_t ncap = h->cap ? h->cap : 1024;
  while (n * 4 > ncap * 3) /* at most 3/4 full, as insert keeps it */
    if ((ncap *= 2) > SIZE_MAX / 16) return PCOL_ENOMEM;
  return ncap > h->cap ? hset_grow_to(h, ncap) : PCOL_OK; /* one rehash, not one a doubling */
}

int pcol_hset_insert(pcol_hset *h, uint64_t hash, uint32_t id) {
  if (!id) return PCOL_EINVAL; /* (ids are 1-based: 0 is an empty slot) */
  if ((h->count + 1) * 4 > h->cap * 3 && hset_grow(h)) return PCOL_ENOMEM;
  size_t mask = h->cap - 1, i = hset_home(hash, mask);
  while (h->e[i]) i = (i + 1) & mask;
  h->e[i] = (hash & ~(uint64_t)UINT32_MAX) | id;
  h->count++;
  return PCOL_OK;
}

int pcol_hset_remove(pcol_hset *h, uint64_t hash, uint32_t id) {
  if (!h->cap || !id) return 0;
  size_t mask = h->cap - 1, i = hset_home(hash, mask);
  uint64_t w = (hash & ~(uint64_t)UINT32_MAX) | id;
  for (; h->e[i] != w; i = (i + 1) & mask)
    if (!h->e[i]) return 0;
  /* backward shift: a later slot of the run moves into the hole unless its
   * home lies cyclically in (hole, slot] (it would then be found no more) */
  for (size_t j = (i + 1) & mask; h->e[j]; j = (j + 1) & mask) {
    size_t k = hset_home(h->e[j], mask);
    int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
    if (!stays) h->e[i] = h->e[j], i = j;
  }
  h->e[i] = 0;
  h->count--;
  return 1;
}

void pcol_hset_free(pcol_hset *h) {
  free(h->e);
  memset(h, 0, sizeof *h);
}

int pcol_u64map_get(pcol_u64map *m, uint64_t key, uint32_t *index, int *added) {
  *added = 0;
  if (key == UINT64_MAX) return PCOL_EINVAL;
  if (2 * (m->n + 1) > m->cap) {
    size_t nc = m->cap ? 2 * m->cap : 256;
    /* written all over at random, as hset_grow_to's (pcol_alloc_hot) */
    uint64_t *nk = nc <= SIZE_MAX / sizeof *nk ? pcol_alloc_hot(nc * sizeof *nk, 1) : NULL;
    uint32_t *nv = nc <= SIZE_MAX / sizeof *nv ? pcol_alloc_hot(nc * sizeof *nv, 0) : NULL;
    if (!nk || !nv) {
      free(nk);
      free(nv);
      return PCOL_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->k[i]) {
        size_t h = (size_t)(pcol_hash2(17, m->k[i], 0) & (nc - 1));
        while (nk[h]) h = (h + 1) & (nc - 1);
        nk[h] = m->k[i];
        nv[h] = m->v[i];
      }
    free(m->k);
    free(m->v);
    m->k = nk;
    m->v = nv;
    m->cap = nc;
  }
  uint64_t k = key + 1;
  size_t h = (size_t)(pcol_hash2(17, k, 0) & (m->cap - 1));
  while (m->k[h] && m->k[h] != k) h = (h + 1) & (m->cap - 1);
  if (!m->k[h]) {
    if (m->n >= UINT32_MAX) return PCOL_ETOOBIG;
    m->k[h] = k;
    m->v[h] = (uint32_t)m->n++;
    *added = 1;
  }
  *index = m->v[h];
  return PCOL_OK;
}

void pcol_u64map_free(pcol_u64map *m) {
  free(m->k);
  free(m->v);
  memset(m, 0, sizeof *m);
}
