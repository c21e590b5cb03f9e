/* test_hash.c — lib/core/hash.c's set: ids taken out (pcol_hset_remove,
 * which the Perfetto importer uses to drop a sequence's superseded
 * interned entries) leave every other id found, and their slots reused;
 * with hashes made to collide, so that runs wrap the table's end and the
 * backward shift moves slots across it.  And lib/core/intern.c, the
 * table of byte runs built on it. */
#include "testutil.h"
#include "hash.h"   /* pcol_hset_* */
#include "intern.h" /* pcol_intern_* */

static uint64_t keys[4096];
static int eq(const void *ctx, uint32_t id, const void *key) {
  (void)ctx;
  return keys[id - 1] == *(const uint64_t *)key;
}
/* the hash of key k: its high 32 bits few distinct values (long runs),
 * some of them at the table's last slots */
static uint64_t hash_of(uint64_t k) { return ((k * 0x9E3779B97F4A7C15u) % 37 + 1000) << 32 | (k & 0xffff); }

Test(hset, remove_keeps_the_others_found) {
  pcol_hset h = {0};
  const uint32_t n = 2000;
  uint8_t in[4096] = {0};
  uint64_t x = 12345;
  for (uint32_t i = 0; i < n; i++) keys[i] = i * 7919u + 3;
  for (int round = 0; round < 40; round++) {
    for (uint32_t i = 0; i < n; i++) { /* put about half, take out about half */
      x = x * 6364136223846793005u + 1442695040888963407u;
      int want = (x >> 33) % 2;
      if (want && !in[i]) {
        cr_assert_eq(pcol_hset_insert(&h, hash_of(keys[i]), i + 1), 0);
        in[i] = 1;
      } else if (!want && in[i]) {
        cr_assert_eq(pcol_hset_remove(&h, hash_of(keys[i]), i + 1), 1);
        in[i] = 0;
      }
    }
    size_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t got = pcol_hset_find(&h, hash_of(keys[i]), eq, NULL, &keys[i]);
      cr_assert_eq(got, in[i] ? i + 1 : 0, "round %d: key %u found as %u", round, i, got);
      count += in[i];
    }
    cr_assert_eq(h.count, count);
  }
  for (uint32_t i = 0; i < n; i++)
    if (in[i]) cr_assert_eq(pcol_hset_remove(&h, hash_of(keys[i]), i + 1), 1);
  cr_assert_eq(h.count, 0);
  for (size_t i = 0; i < h.cap; i++) cr_assert_eq(h.e[i], 0, "slot %zu left set", i);
  cr_assert_eq(pcol_hset_remove(&h, hash_of(keys[0]), 1), 0, "an id not in the set is not taken out");
  pcol_hset_free(&h);
}

/* a table whose one run wraps its end: the home slots are the last ones */
Test(hset, remove_across_the_end) {
  pcol_hset h = {0};
  cr_assert_eq(pcol_hset_reserve(&h, 8), 0);
  size_t cap = h.cap;
  for (uint32_t i = 0; i < 8; i++) {
    keys[i] = 100 + i;
    uint64_t home = cap - 2 + (i % 3); /* cap-2, cap-1, cap (= 0) */
    cr_assert_eq(pcol_hset_insert(&h, (home % cap) << 32 | i, i + 1), 0);
  }
  for (uint32_t drop = 0; drop < 8; drop += 3) {
    uint64_t home = cap - 2 + (drop % 3);
    cr_assert_eq(pcol_hset_remove(&h, (home % cap) << 32 | drop, drop + 1), 1);
    keys[drop] = UINT64_MAX; /* no longer there */
  }
  for (uint32_t i = 0; i < 8; i++) {
    uint64_t home = cap - 2 + (i % 3);
    uint32_t got = pcol_hset_find(&h, (home % cap) << 32 | i, eq, NULL, &(uint64_t){100 + i});
    cr_assert_eq(got, i % 3 == 0 ? 0 : i + 1, "id %u found as %u", i + 1, got);
  }
  pcol_hset_free(&h);
}

/* lib/core/intern.c: equal bytes one id, ids 1..n in order of first
 * coming, each run read back as it came (an empty one, one a prefix of
 * another; in a table of 8-byte words, aligned), past many rehashes. */
Test(intern, equal_bytes_one_id) {
  pcol_intern t = {0};
  uint32_t id, e, ab, abc;
  cr_assert_eq(pcol_intern_get(&t, "ab", 2, &ab), 0);
  cr_assert_eq(pcol_intern_get(&t, NULL, 0, &e), 0);
  cr_assert_eq(pcol_intern_get(&t, "abc", 3, &abc), 0);
  cr_assert(ab == 1 && e == 2 && abc == 3 && t.n == 3, "ids %u %u %u", ab, e, abc);
  char again[] = "abc";
  cr_assert_eq(pcol_intern_get(&t, again, 3, &id), 0);
  cr_assert_eq(id, abc, "the same bytes elsewhere: the same id");
  cr_assert_eq(pcol_intern_get(&t, "", 0, &id), 0);
  cr_assert_eq(id, e);
  uint64_t h;
  cr_assert_eq(pcol_intern_find(&t, "a", 1, &h), 0, "a prefix is not in");
  cr_assert_eq(t.n, 3, "find adds nothing");
  size_t n;
  const void *p = pcol_intern_at(&t, e, &n);
  cr_assert(p && n == 0);
  p = pcol_intern_at(&t, abc, &n);
  cr_assert(n == 3 && !memcmp(p, "abc", 3));
  pcol_intern_free(&t);
  enum { N = 20000 };
  for (uint64_t i = 0; i < N; i++) {
    uint64_t w[3] = {i, i * 7, ~i};
    cr_assert_eq(pcol_intern_get(&t, w, 8 * (1 + i % 3), &id), 0);
    cr_assert_eq(id, 1 + i);
  }
  for (uint64_t i = 0; i < N; i++) {
    uint64_t w[3] = {i, i * 7, ~i};
    cr_assert_eq(pcol_intern_find(&t, w, 8 * (1 + i % 3), &h), 1 + i);
    const uint64_t *q = pcol_intern_at(&t, (uint32_t)(1 + i), &n);
    cr_assert(n == 8 * (1 + i % 3) && (uintptr_t)q % 8 == 0 && !memcmp(q, w, n));
  }
  pcol_intern_free(&t);
  cr_assert(t.n == 0 && !pcol_intern_find(&t, "ab", 2, &h));
}
