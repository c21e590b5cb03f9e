/* hash.h — keyed hashing, the hash set and the u64 map (hash.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_HASH_H
#define PCOL_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Open-addressing set of 1-based ids; equality is decided by the caller.
 * A slot is one word, the hash's high 32 bits over the id (0 = empty): a
 * probe reads one cache line, not an id's and then a hash's, and the high
 * bits both place the slot (so a rehash needs no key) and rule out most
 * unequal keys before eq is asked. */
typedef struct pcol_hset {
  uint64_t *e;
  size_t cap, count;
} pcol_hset;

typedef int (*pcol_eq_fn)(const void *ctx, uint32_t id, const void *key);
/* Finds an id whose hash matches and eq() says equal; 0 if none. */
uint32_t pcol_hset_find(const pcol_hset *h, uint64_t hash, pcol_eq_fn eq,
                        const void *ctx, const void *key);
int pcol_hset_insert(pcol_hset *h, uint64_t hash, uint32_t id);
/* Takes id, inserted with hash, out of the set (the slots after it moved
 * back, so no tombstone is left): 1, or 0 when it is not there. */
int pcol_hset_remove(pcol_hset *h, uint64_t hash, uint32_t id);
/* Room for n ids without growing (one table of the final size, instead of
 * a rehash of every id at each doubling). */
int pcol_hset_reserve(pcol_hset *h, size_t n);

/* A 64-bit key -> dense index map (open addressing, at most half full):
 * the n-th new key gets index n.  For pairs of ids (an edge, a stack and
 * its labels) that views group by. */
typedef struct pcol_u64map {
  uint64_t *k; /* key + 1; 0 = empty */
  uint32_t *v;
  size_t cap, n;
} pcol_u64map;
/* *index of key, *added = 1 when it is new; PCOL_ENOMEM, or PCOL_ETOOBIG
 * past 2^32 - 1 keys (key UINT64_MAX is refused as PCOL_EINVAL). */
int pcol_u64map_get(pcol_u64map *m, uint64_t key, uint32_t *index, int *added);
void pcol_u64map_free(pcol_u64map *m);
void pcol_hset_free(pcol_hset *h);

/* Keyed hashing (SipHash-1-3, a random key per process): every table keyed
 * by data from a file uses it (hash.c says why).  Bytes: */
uint64_t pcol_hash_bytes(const void *p, size_t n, uint64_t seed);
static inline uint64_t pcol_hash_keyed(const void *p, size_t n) { return pcol_hash_bytes(p, n, 0); }

/* A sequence of 64-bit words (a tuple of ids, addresses, numbers):
 *   pcol_hstate s; pcol_hs_init(&s, TAG); pcol_hs_add(&s, a); ...; h = pcol_hs_end(&s); */
typedef struct pcol_hstate {
  uint64_t v0, v1, v2, v3, n;
} pcol_hstate;
void pcol_hs_init(pcol_hstate *s, uint64_t tag);
/* SipHash-1-3 under the fixed key (k0, k1): the same on every machine, for
 * content keys only (hash.c). */
void pcol_hs_init_fixed(pcol_hstate *s, uint64_t k0, uint64_t k1);
#define PCOL_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
static inline void pcol_sipround(pcol_hstate *s) {
  s->v0 += s->v1, s->v1 = PCOL_ROTL(s->v1, 13), s->v1 ^= s->v0, s->v0 = PCOL_ROTL(s->v0, 32);
  s->v2 += s->v3, s->v3 = PCOL_ROTL(s->v3, 16), s->v3 ^= s->v2;
  s->v0 += s->v3, s->v3 = PCOL_ROTL(s->v3, 21), s->v3 ^= s->v0;
  s->v2 += s->v1, s->v1 = PCOL_ROTL(s->v1, 17), s->v1 ^= s->v2, s->v2 = PCOL_ROTL(s->v2, 32);
}
static inline void pcol_hs_add(pcol_hstate *s, uint64_t w) {
  s->v3 ^= w;
  pcol_sipround(s); /* one compression round: SipHash-1-3 */
  s->v0 ^= w;
  s->n++;
}
/* Finishes with a last block b (the word count, or SipHash's length byte). */
static inline uint64_t pcol_hs_end_with(pcol_hstate *s, uint64_t b) {
  s->v3 ^= b;
  pcol_sipround(s);
  s->v0 ^= b;
  s->v2 ^= 0xff;
  pcol_sipround(s); /* three finalisation rounds */
  pcol_sipround(s);
  pcol_sipround(s);
  return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}
static inline uint64_t pcol_hs_end(pcol_hstate *s) { return pcol_hs_end_with(s, s->n << 56); }
/* Two words, the common case (a stack node, a value type). */
static inline uint64_t pcol_hash2(uint64_t tag, uint64_t a, uint64_t b) {
  pcol_hstate s;
  pcol_hs_init(&s, tag);
  pcol_hs_add(&s, a);
  pcol_hs_add(&s, b);
  return pcol_hs_end(&s);
}

#endif
