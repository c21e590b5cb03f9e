/* gen_flood.c — hash-flooding inputs for the benchmarks (issue 20).
 *
 *   gen_flood KIND N crafted|random OUT    write one input, then verify it
 *   gen_flood verify KIND FILE             print how FILE's keys fall under
 *                                          the old hash (exit 1 if unreadable)
 *
 * KIND (what the keys are, and which table of pcol they aimed at):
 *   pprof   N locations and N functions whose ids share one slot of the pprof
 *           importer's id map (old idmap_slot, a fixed fmix64-style mixer);
 *           N samples reference them, so lookups probe the cluster too.
 *           Written as gzipped protobuf.
 *   rprof   line-profiling Rprof text with N "#File K: path" lines whose
 *           numbers K share one slot of the #File number table (old
 *           num_hash = pcol_hash_mix(0x5eed, K)); each #File line is followed
 *           by a sample line with a "K#L" ref into it, as R writes them.
 *   names7  collapsed stacks ("main;a;b 1") over N function names of 16
 *           bytes that share one slot of the views' key table (old
 *           pcol_hash_bytes, seed 7: what `pcol top`/fold/flame/diff probe).
 *   names0  the same with seed 0: the builder's string table (`pcol pack`).
 *
 * "crafted" keys were chosen against the hashes pcol used up to commit
 * 583b48b (fixed and invertible: every step is an xorshift or a multiply by
 * an odd constant, so a wanted hash can be run backwards into a key).  Each
 * crafted key's old 64-bit hash has the same low 32 bits, so all keys land in
 * one slot at every table capacity below 2^32, and the table degrades to a
 * linear scan.  "random" keys are of the same form and size (64-bit ids and
 * #File numbers, 16-byte names over the same alphabet), drawn at random.
 * Today's tables hash with SipHash-1-3 under a per-process random key
 * (lib/core/hash.c), so both variants should cost the same.
 *
 * After writing, the file is read back and its keys re-hashed with the old
 * functions: a crafted file whose keys do not all share one slot (or whose
 * keys are not N distinct keys) is an error.  The stats line on stdout reads
 *   kind=K variant=V keys=N cap=C slots=S maxgroup=M
 * (cap: the old table's capacity after N inserts; slots: distinct slots the
 * keys hash to; maxgroup: the most keys sharing one slot).
 * Deterministic: the same arguments give the same bytes.
 */
#include "profile.pb-c.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define TARGET_LOW 0x5ca1ab1eu /* the low 32 bits every crafted hash shares */
#define NAME_LEN 16

_Noreturn static void die(const char *msg) {
  fprintf(stderr, "gen_flood: %s\n", msg);
  exit(1);
}
static void *xcalloc(size_t n, size_t s) {
  void *p = calloc(n ? n : 1, s);
  if (!p) die("out of memory");
  return p;
}
static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) die("out of memory");
  return p;
}

/* ------------------------------------------------------------- PRNG */
typedef struct { uint64_t s; } rng;
static uint64_t next(rng *r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* ------------------------------------------- the old hashes (583b48b) */
#define FNV_OFF 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
#define MIX_M 0xff51afd7ed558ccdULL
#define MIX_C2 0xc4ceb9fe1a85ec53ULL
#define GOLDEN 0x9e3779b97f4a7c15ULL
#define RPROF_H0 0x5eedULL

/* lib/util.c: pcol_hash_bytes */
static uint64_t old_hash_bytes(const void *p, size_t n, uint64_t seed) {
  const uint8_t *s = p;
  uint64_t h = FNV_OFF ^ seed;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = (h ^ w) * FNV_PRIME;
    h ^= h >> 29;
    s += 8;
    n -= 8;
  }
  while (n--) h = (h ^ *s++) * FNV_PRIME;
  h ^= h >> 33;
  h *= MIX_M;
  h ^= h >> 33;
  return h;
}
/* lib/internal.h: pcol_hash_mix */
static uint64_t old_hash_mix(uint64_t h, uint64_t v) {
  h ^= v + GOLDEN + (h << 6) + (h >> 2);
  h *= MIX_M;
  return h ^ (h >> 33);
}
/* lib/rprof_import.c: num_hash */
static uint64_t old_num_hash(uint64_t num) { return old_hash_mix(RPROF_H0, num); }
/* lib/pprof_import.c: idmap_slot's mixer */
static uint64_t old_id_mix(uint64_t key) {
  uint64_t h = key ^ (key >> 33);
  h *= MIX_M;
  h ^= h >> 33;
  h *= MIX_C2;
  h ^= h >> 33;
  return h;
}

/* ------------------------------------------------------- the inverses */
static uint64_t inv_mul(uint64_t a) { /* a odd: a * inv_mul(a) == 1 mod 2^64 */
  uint64_t x = a; /* correct to 3 bits; each Newton step doubles them */
  for (int i = 0; i < 5; i++) x *= 2 - a * x;
  return x;
}
static uint64_t inv_xorshr(uint64_t y, int s) { /* inverse of x ^= x >> s */
  uint64_t x = y;
  for (int i = 0; i * s < 64; i++) x = y ^ (x >> s);
  return x;
}
static uint64_t INV_M, INV_C2, INV_P;

static uint64_t id_for_hash(uint64_t h) { /* old_id_mix(id_for_hash(h)) == h */
  h = inv_xorshr(h, 33);
  h *= INV_C2;
  h = inv_xorshr(h, 33);
  h *= INV_M;
  return inv_xorshr(h, 33);
}
static uint64_t num_for_hash(uint64_t h) { /* old_num_hash(num_for_hash(h)) == h */
  uint64_t x = inv_xorshr(h, 33) * INV_M; /* = h0 ^ (num + GOLDEN + (h0<<6) + (h0>>2)) */
  return (x ^ RPROF_H0) - GOLDEN - (RPROF_H0 << 6) - (RPROF_H0 >> 2);
}

/* Name bytes: printable ASCII except ';' (the frame separator): no space
 * or control byte, so the names are fine in collapsed stacks. */
static int name_byte_ok(unsigned c) { return c > 0x20 && c < 0x7f && c != ';'; }
static int word_ok(uint64_t w) {
  for (int k = 0; k < 8; k++)
    if (!name_byte_ok((unsigned)(w >> (8 * k)) & 0xff)) return 0;
  return 1;
}
static uint8_t alphabet[93];
static void alphabet_init(void) {
  int k = 0;
  for (unsigned c = 0; c < 256; c++)
    if (name_byte_ok(c)) alphabet[k++] = (uint8_t)c;
}
static uint64_t random_word(rng *r) { /* 8 name bytes from one draw (a slight bias is fine) */
  uint64_t x = next(r), w = 0;
  for (int k = 0; k < 8; k++) w |= (uint64_t)alphabet[((x >> (8 * k)) & 0xff) * 93 >> 8] << (8 * k);
  return w;
}
/* A 16-byte name whose old_hash_bytes(name, 16, seed) has low 32 bits
 * TARGET_LOW.  Pick the wanted hash H (random high half), run the finalizer
 * and the second word's step backwards to the state before the second word
 * (b = h1 ^ w2), then draw first words w1 until w2 = b ^ h1(w1) is made of
 * allowed bytes (about 1 in 3300 draws). */
static void crafted_name(rng *r, uint64_t seed, uint8_t out[NAME_LEN]) {
  for (;;) {
    uint64_t H = (next(r) << 32) | TARGET_LOW;
    uint64_t h2 = inv_xorshr(inv_xorshr(H, 33) * INV_M, 33);
    uint64_t b = inv_xorshr(h2, 29) * INV_P;
    for (int tries = 0; tries < 1000000; tries++) {
      uint64_t w1 = random_word(r);
      uint64_t h1 = ((FNV_OFF ^ seed) ^ w1) * FNV_PRIME;
      h1 ^= h1 >> 29;
      uint64_t w2 = b ^ h1;
      if (!word_ok(w2)) continue;
      memcpy(out, &w1, 8);
      memcpy(out + 8, &w2, 8);
      return;
    }
  }
}

/* --------------------------------------------- old table capacities */
static size_t idmap_cap(size_t n) { /* old idmap_init */
  size_t cap = 16;
  while (cap < 2 * n + 1) cap *= 2;
  return cap;
}
static size_t hset_cap(size_t n) { /* old pcol_hset_insert + hset_grow */
  size_t cap = 0;
  for (size_t count = 0; count < n; count++)
    if ((count + 1) * 4 > cap * 3) cap = cap ? cap * 2 : 1024;
  return cap;
}

/* ---------------------------------------------------------- the check */
static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}
typedef struct {
  size_t keys, cap, slots, maxgroup;
} stats;
/* hashes[] of n distinct keys -> how they spread over cap slots (sorts hashes). */
static stats spread(uint64_t *h, size_t n, size_t cap) {
  stats st = {n, cap, 0, 0};
  for (size_t i = 0; i < n; i++) h[i] &= cap - 1;
  qsort(h, n, sizeof *h, cmp_u64);
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && h[j] == h[i]; j++) {}
    st.slots++;
    if (j - i > st.maxgroup) st.maxgroup = j - i;
  }
  return st;
}
/* 1 if the n keys (sorted in place) are distinct */
static int distinct_u64(uint64_t *k, size_t n) {
  qsort(k, n, sizeof *k, cmp_u64);
  for (size_t i = 1; i < n; i++)
    if (k[i] == k[i - 1]) return 0;
  return 1;
}

static uint8_t *read_all(const char *path, size_t *len) { /* gzip or plain */
  gzFile z = gzopen(path, "rb");
  if (!z) die("cannot open input to verify");
  size_t cap = 1 << 20, n = 0;
  uint8_t *b = xcalloc(cap, 1);
  for (;;) {
    if (n == cap) b = xrealloc(b, cap *= 2);
    int got = gzread(z, b + n, (unsigned)(cap - n > (1u << 30) ? (1u << 30) : cap - n));
    if (got < 0) die("read error while verifying");
    if (got == 0) break;
    n += (size_t)got;
  }
  gzclose(z);
  *len = n;
  return b;
}

static int cmp_name(const void *a, const void *b) {
  const uint8_t *const *x = a, *const *y = b;
  return memcmp(*x, *y, NAME_LEN);
}

/* Keys of FILE, hashed the old way; prints the stats of each table. */
/* variant: "crafted" = every table's keys must share one slot; want: the
 * number of keys expected (0 = any). */
static int verify(const char *kind, const char *path, const char *variant, size_t want) {
  size_t len;
  uint8_t *data = read_all(path, &len);
  stats st[2];
  const char *label[2] = {NULL, NULL};
  int ntab = 0, ok = 1;
  if (strcmp(kind, "pprof") == 0) {
    Perftools__Profiles__Profile *p = perftools__profiles__profile__unpack(NULL, len, data);
    if (!p) die("verify: not a pprof profile");
    size_t n[2] = {p->n_location, p->n_function};
    for (int t = 0; t < 2; t++) {
      uint64_t *k = xcalloc(n[t], sizeof *k), *h = xcalloc(n[t], sizeof *h);
      for (size_t i = 0; i < n[t]; i++) {
        k[i] = t ? p->function[i]->id : p->location[i]->id;
        h[i] = old_id_mix(k[i]);
        /* the old importer looks ids 1..n up by position, not in the map */
        if (k[i] - 1 < n[t]) ok = 0;
      }
      if (!distinct_u64(k, n[t])) ok = 0;
      st[t] = spread(h, n[t], idmap_cap(n[t]));
      label[t] = t ? "functions" : "locations";
      free(k);
      free(h);
    }
    ntab = 2;
    perftools__profiles__profile__free_unpacked(p, NULL);
  } else if (strcmp(kind, "rprof") == 0) {
    size_t n = 0, cap = 1024;
    uint64_t *k = xcalloc(cap, sizeof *k);
    for (size_t i = 0; i < len;) {
      size_t e = i;
      while (e < len && data[e] != '\n') e++;
      if (e - i > 6 && memcmp(data + i, "#File ", 6) == 0) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull((const char *)data + i + 6, &end, 10);
        if (errno || *end != ':') die("verify: malformed #File line");
        if (n == cap) k = xrealloc(k, (cap *= 2) * sizeof *k);
        k[n++] = v;
      }
      i = e + 1;
    }
    uint64_t *h = xcalloc(n, sizeof *h);
    for (size_t i = 0; i < n; i++) h[i] = old_num_hash(k[i]);
    if (!distinct_u64(k, n)) ok = 0;
    st[0] = spread(h, n, hset_cap(n));
    label[0] = "#File numbers";
    ntab = 1;
    free(k);
    free(h);
  } else if (strcmp(kind, "names0") == 0 || strcmp(kind, "names7") == 0) {
    uint64_t seed = kind[5] == '7' ? 7 : 0;
    size_t n = 0, cap = 1024;
    const uint8_t **nm = xcalloc(cap, sizeof *nm);
    for (size_t i = 0; i < len;) { /* frames: ';'-separated, up to the last space */
      size_t e = i, sp;
      while (e < len && data[e] != '\n') e++;
      for (sp = e; sp > i && data[sp - 1] != ' '; sp--) {}
      if (sp == i) die("verify: a line without a count");
      for (size_t a = i, b; a < sp - 1; a = b + 1) {
        for (b = a; b < sp - 1 && data[b] != ';'; b++) {}
        if (b - a == NAME_LEN) { /* the generated names; "main" is the only other frame */
          if (n == cap) nm = xrealloc(nm, (cap *= 2) * sizeof *nm);
          nm[n++] = data + a;
        } else if (b - a != 4 || memcmp(data + a, "main", 4) != 0) {
          die("verify: unexpected frame");
        }
      }
      i = e + 1;
    }
    qsort(nm, n, sizeof *nm, cmp_name);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
      if (!u || memcmp(nm[u - 1], nm[i], NAME_LEN) != 0) nm[u++] = nm[i];
    uint64_t *h = xcalloc(u, sizeof *h);
    for (size_t i = 0; i < u; i++) h[i] = old_hash_bytes(nm[i], NAME_LEN, seed);
    st[0] = spread(h, u, hset_cap(u + 1)); /* + "main" */
    label[0] = seed ? "names (key table, seed 7)" : "names (builder strings, seed 0)";
    ntab = 1;
    free(nm);
    free(h);
  } else {
    die("unknown KIND (pprof, rprof, names0, names7)");
  }
  for (int t = 0; t < ntab; t++) {
    printf("kind=%s variant=%s table=\"%s\" keys=%zu cap=%zu slots=%zu maxgroup=%zu\n", kind,
           variant ? variant : "?", label[t], st[t].keys, st[t].cap, st[t].slots,
           st[t].maxgroup);
    if (variant && strcmp(variant, "crafted") == 0 && st[t].maxgroup != st[t].keys) ok = 0;
    if (want && st[t].keys != want) ok = 0;
  }
  free(data);
  return ok;
}

/* ------------------------------------------------------------ pprof */
static void write_pprof(const char *path, size_t n, int crafted, rng *r) {
  /* strings: "", the value type, one name per function */
  size_t nstr = 3 + n;
  ProtobufCBinaryData *str = xcalloc(nstr, sizeof *str);
  char *names = xcalloc(n, 16);
  str[0].data = (uint8_t *)"";
  str[1].data = (uint8_t *)"samples";
  str[1].len = 7;
  str[2].data = (uint8_t *)"count";
  str[2].len = 5;
  for (size_t i = 0; i < n; i++) {
    int k = snprintf(names + 16 * i, 16, "fn_%07zu", i);
    str[3 + i].data = (uint8_t *)names + 16 * i;
    str[3 + i].len = (size_t)k;
  }
  Perftools__Profiles__ValueType vt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT, *vtp = &vt;
  vt.type = 1;
  vt.unit = 2;

  Perftools__Profiles__Function *fn = xcalloc(n, sizeof *fn);
  Perftools__Profiles__Function **fnp = xcalloc(n, sizeof *fnp);
  Perftools__Profiles__Location *loc = xcalloc(n, sizeof *loc);
  Perftools__Profiles__Location **locp = xcalloc(n, sizeof *locp);
  Perftools__Profiles__Line *ln = xcalloc(n, sizeof *ln);
  Perftools__Profiles__Line **lnp = xcalloc(n, sizeof *lnp);
  uint64_t *fid = xcalloc(n, sizeof *fid), *lid = xcalloc(n, sizeof *lid);
  for (int t = 0; t < 2; t++) {
    uint64_t *ids = t ? fid : lid;
    uint64_t hi = next(r); /* crafted: distinct high halves hi, hi + 1, ... */
    for (size_t i = 0; i < n; i++) {
      uint64_t id; /* ids 1..n would be looked up by position, not in the map */
      do id = crafted ? id_for_hash((hi++ << 32) | TARGET_LOW) : next(r);
      while (id == 0 || id - 1 < n);
      ids[i] = id;
    }
  }
  for (size_t i = 0; i < n; i++) {
    perftools__profiles__function__init(&fn[i]);
    fn[i].id = fid[i];
    fn[i].name = fn[i].system_name = (int64_t)(3 + i);
    fnp[i] = &fn[i];
    perftools__profiles__line__init(&ln[i]);
    ln[i].function_id = fid[i];
    ln[i].line = (int64_t)(1 + i % 100);
    lnp[i] = &ln[i];
    perftools__profiles__location__init(&loc[i]);
    loc[i].id = lid[i];
    loc[i].n_line = 1;
    loc[i].line = &lnp[i];
    locp[i] = &loc[i];
  }
  /* samples: location i with a caller elsewhere in the table */
  Perftools__Profiles__Sample *sm = xcalloc(n, sizeof *sm);
  Perftools__Profiles__Sample **smp = xcalloc(n, sizeof *smp);
  uint64_t *sloc = xcalloc(2 * n, sizeof *sloc);
  int64_t one = 1;
  for (size_t i = 0; i < n; i++) {
    perftools__profiles__sample__init(&sm[i]);
    sloc[2 * i] = lid[i];
    sloc[2 * i + 1] = lid[(i * 7 + 1) % n];
    sm[i].n_location_id = n > 1 ? 2 : 1;
    sm[i].location_id = sloc + 2 * i;
    sm[i].n_value = 1;
    sm[i].value = &one;
    smp[i] = &sm[i];
  }
  Perftools__Profiles__Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
  p.n_sample_type = 1;
  p.sample_type = &vtp;
  p.n_sample = n;
  p.sample = smp;
  p.n_location = n;
  p.location = locp;
  p.n_function = n;
  p.function = fnp;
  p.n_string_table = nstr;
  p.string_table = str;
  size_t len = perftools__profiles__profile__get_packed_size(&p);
  uint8_t *buf = xcalloc(len, 1);
  perftools__profiles__profile__pack(&p, buf);
  gzFile z = gzopen(path, "wb6");
  if (!z) die("cannot open output");
  if (gzwrite(z, buf, (unsigned)len) != (int)len || gzclose(z) != Z_OK) die("write error");
  free(buf);
  free(str);
  free(names);
  free(fn);
  free(fnp);
  free(loc);
  free(locp);
  free(ln);
  free(lnp);
  free(fid);
  free(lid);
  free(sm);
  free(smp);
  free(sloc);
}

/* ------------------------------------------------------------ Rprof */
static void write_rprof(const char *path, size_t n, int crafted, rng *r) {
  FILE *o = fopen(path, "wb");
  if (!o) die(strerror(errno));
  static char obuf[1 << 20];
  setvbuf(o, obuf, _IOFBF, sizeof obuf);
  fputs("line profiling: sample.interval=20000\n", o);
  uint64_t hi = next(r), *num = xcalloc(n, sizeof *num);
  for (size_t i = 0; i < n; i++) {
    uint64_t k;
    do k = crafted ? num_for_hash((hi++ << 32) | TARGET_LOW) : next(r);
    while (k == 0);
    num[i] = k;
    /* as R writes it: the #File line just before the first sample using it;
     * the sample also calls into an earlier file, so lookups probe the table */
    fprintf(o, "#File %llu: R/flood_%zu.R\n", (unsigned long long)k, i);
    fprintf(o, "%llu#%zu \"f%zu\" %llu#%zu \"main\" \n", (unsigned long long)k, 1 + i % 50,
            i % 97, (unsigned long long)num[(i * 7) % (i + 1)], 1 + i % 13);
  }
  free(num);
  if (fclose(o) != 0) die("write error");
}

/* ------------------------------------------------------ names (collapsed) */
static void write_names(const char *path, size_t n, int crafted, uint64_t seed, rng *r) {
  uint8_t *nm = xcalloc(n, NAME_LEN);
  for (size_t i = 0; i < n; i++) {
    if (crafted) {
      crafted_name(r, seed, nm + NAME_LEN * i);
    } else {
      uint64_t w[2] = {random_word(r), random_word(r)};
      memcpy(nm + NAME_LEN * i, w, NAME_LEN);
    }
  }
  FILE *o = fopen(path, "wb");
  if (!o) die(strerror(errno));
  static char obuf[1 << 20];
  setvbuf(o, obuf, _IOFBF, sizeof obuf);
  /* one line per name: main;name_i;name_j 1 (j: an earlier name, so the
   * line also looks an existing key up) */
  for (size_t i = 0; i < n; i++) {
    fputs("main;", o);
    fwrite(nm + NAME_LEN * i, 1, NAME_LEN, o);
    fputc(';', o);
    fwrite(nm + NAME_LEN * ((i * 7) % (i + 1)), 1, NAME_LEN, o);
    fprintf(o, " %zu\n", 1 + i % 5);
  }
  if (fclose(o) != 0) die("write error");
  free(nm);
}

int main(int argc, char **argv) {
  INV_M = inv_mul(MIX_M);
  INV_C2 = inv_mul(MIX_C2);
  INV_P = inv_mul(FNV_PRIME);
  alphabet_init();
  /* the inverses must undo the old functions exactly */
  for (uint64_t x = 1; x < 1000; x++) {
    uint64_t v = x * 0x9e3779b97f4a7c15ull;
    if (old_id_mix(id_for_hash(v)) != v || old_num_hash(num_for_hash(v)) != v)
      die("self-check: an inverse is wrong");
  }
  if (argc == 4 && strcmp(argv[1], "verify") == 0)
    return verify(argv[2], argv[3], NULL, 0) ? 0 : 1;
  if (argc != 5) {
    fprintf(stderr, "usage: gen_flood pprof|rprof|names0|names7 N crafted|random OUT\n"
                    "       gen_flood verify pprof|rprof|names0|names7 FILE\n");
    return 2;
  }
  const char *kind = argv[1], *out = argv[4];
  char *end;
  unsigned long long n = strtoull(argv[2], &end, 10);
  if (*end || n < 1 || n > 100000000) die("N: 1..100000000");
  int crafted;
  if (strcmp(argv[3], "crafted") == 0) crafted = 1;
  else if (strcmp(argv[3], "random") == 0) crafted = 0;
  else die("variant: crafted or random");
  rng r = {n * 2 + (uint64_t)crafted};
  for (const char *k = kind; *k; k++) r.s = (r.s ^ (unsigned char)*k) * 0x100000001b3ull;
  if (strcmp(kind, "pprof") == 0) write_pprof(out, n, crafted, &r);
  else if (strcmp(kind, "rprof") == 0) write_rprof(out, n, crafted, &r);
  else if (strcmp(kind, "names0") == 0) write_names(out, n, crafted, 0, &r);
  else if (strcmp(kind, "names7") == 0) write_names(out, n, crafted, 7, &r);
  else die("KIND: pprof, rprof, names0 or names7");
  if (!verify(kind, out, argv[3], (size_t)n)) {
    remove(out);
    die(crafted ? "verify: the crafted keys do not all share one slot under the old hash"
                : "verify: the keys are not N distinct keys");
  }
  return 0;
}
