/* test_hash.c — lib/core/hash.c's set: ids taken out (pcol_hset_remove,
 * which the Perfetto importer uses to drop a sequence's superseded
 * interned entries) leave every other id found, and their slots reused;
 * with hashes made to collide, so that runs wrap the table's end and the
 * backward shift moves slots across it. */
#include "testutil.h"
#include "hash.h" /* pcol_hset_* */

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
