/* test_corrupt.c — damaged and hostile pcol files.
 *
 *  - every single-byte change of a small file (several values per byte),
 *    thousands of random byte changes and bit flips of a larger one, and
 *    truncation at every section boundary and at random points are detected
 *    by open or by validate_full;
 *  - whatever the damage, reading without validation (views, strings, stack
 *    walks, derived rows, selection, exporters: fz_walk) never crashes or
 *    reads out of bounds (ASan/UBSan in `make test`);
 *  - the same with the checksums recomputed (an attacker, not bit rot);
 *  - crafted files with huge declared sizes or counts are refused before
 *    anything is allocated, and holes that were closed stay closed.
 */
#include "testutil.h"
#include "fuzz_common.h"
#include <lz4.h>
#include <zlib.h>

/* ------------------------------------------------------------ helpers */
static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void wr64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Recomputes file_size, body crc and header crc (what an attacker does). */
static void fix_checksums(uint8_t *p, size_t len) {
  if (len < 64) return;
  wr64(p + 32, len);
  wr32(p + 56, (uint32_t)crc32(0L, p + 64, (uInt)(len - 64)));
  wr32(p + 60, (uint32_t)crc32(0L, p, 60));
}

/* Is the damage detected?  Opens; on success also walks without validation
 * (must not crash), then validates fully.  Returns 1 when open or
 * validate_full refused the file. */
static int detected(const uint8_t *p, size_t len) {
  pcol_open_options o = {.max_decoded_bytes = 1u << 20};
  pcol_error err = {0};
  pcol_file *f = NULL;
  if (pcol_open_buffer(p, len, &o, &f, &err) != 0) {
    cr_assert(err.message[0], "a refused file gets a message");
    return 1;
  }
  (void)fz_walk(f, 0);
  pcol_close(f);
  cr_assert_eq(pcol_open_buffer(p, len, &o, &f, &err), 0);
  int bad = pcol_validate_full(f, &err) != 0;
  if (bad) cr_assert(err.message[0], "a failed validation gets a message");
  pcol_close(f);
  return bad;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) { /* xorshift64*: deterministic */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint8_t *make(uint32_t nsamples, int lz4, size_t *len) {
  void *mem = NULL;
  cr_assert_eq(fz_make_file(nsamples, lz4, &mem, len), 0);
  return mem;
}

/* ------------------------------------- zstd blocks (format 1.4, §4.2) */

/* Every byte of each zstd-blocks section's block table and of its first
 * frame's header changed, the checksums recomputed (an attacker): nothing
 * crashes when read without validation (fz_walk) or by a time range (which
 * decodes single blocks), and a changed table is refused by open or by
 * full validation (D17, U13). */
static int range_count(pcol_file *f, uint64_t *n) {
  pcol_select sel = {0};
  sel.source_id = 1, sel.has_from = sel.has_to = true;
  sel.from_ns = 1000000000000, sel.to_ns = 1030000000000;
  *n = 0;
  return pcol_select_iter(f, &sel, fz_count_row, n, NULL);
}
Test(corrupt, zstd_blocks_table_and_frame_headers, .timeout = 600) {
  pcol_error err = {0};
  void *mem = NULL;
  size_t len = 0;
  cr_assert_eq(fz_make_file(140000, 4, &mem, &len), 0); /* zstd blocks (format 1.4) */
  uint8_t *orig = mem, *p = malloc(len);
  pcol_file *f = NULL;
  cr_assert_eq(pcol_open_buffer(orig, len, NULL, &f, &err), 0, "%s", err.message);
  uint64_t want;
  cr_assert_eq(range_count(f, &want), 0);
  cr_assert_gt(want, 1000);
  size_t nblk = 0, missed = 0;
  for (uint32_t i = 0; i < pcol_section_count(f); i++) {
    pcol_section_info si;
    cr_assert_eq(pcol_section_get(f, i, &si, NULL), PCOL_OK);
    if (si.codec != 3) continue;
    nblk++;
    uint64_t table = 8 + 8 * (uint64_t)rd32(orig + si.offset), upto = table + 16;
    for (uint64_t at = si.offset; at < si.offset + upto && at < si.offset + si.stored_size; at++)
      for (int k = 0; k < 2; k++) {
        memcpy(p, orig, len);
        p[at] = k ? (uint8_t)(p[at] + 1) : (uint8_t)(p[at] ^ 0xff);
        fix_checksums(p, len);
        pcol_file *g = NULL;
        if (pcol_open_buffer(p, len, NULL, &g, &err) == 0) {
          uint64_t n;
          (void)range_count(g, &n);
          (void)fz_walk(g, 0);
          pcol_close(g);
        }
        if (at < si.offset + table && !detected(p, len)) missed++;
      }
  }
  pcol_close(f);
  cr_assert_geq(nblk, 3, "the file has sections in zstd blocks");
  cr_assert_eq(missed, 0, "%zu changes of a block table went undetected", missed);
  free(p);
  free(orig);
}

/* ------------------------------------------------- single-byte changes */
static void every_byte(int lz4) {
  size_t len;
  uint8_t *orig = make(3, lz4, &len);
  cr_assert(!detected(orig, len), "the undamaged file is valid");
  uint8_t *p = malloc(len);
  static const int xors[] = {0x01, 0x80, 0xff};
  size_t missed = 0, first_missed = 0;
  for (size_t i = 0; i < len; i++) {
    uint8_t vals[5] = {(uint8_t)(orig[i] ^ xors[0]), (uint8_t)(orig[i] ^ xors[1]),
                       (uint8_t)(orig[i] ^ xors[2]), 0x00, (uint8_t)(orig[i] + 1)};
    for (int k = 0; k < 5; k++) {
      if (vals[k] == orig[i]) continue;
      memcpy(p, orig, len);
      p[i] = vals[k];
      if (!detected(p, len) && missed++ == 0) first_missed = i;
    }
  }
  cr_assert_eq(missed, 0, "%zu single-byte changes went undetected (first at byte %zu of %zu)",
               missed, first_missed, len);
  free(p);
  free(orig);
}
Test(corrupt, every_byte_every_position_raw, .timeout = 600) { every_byte(0); }
Test(corrupt, every_byte_every_position_lz4, .timeout = 600) { every_byte(1); }
Test(corrupt, every_byte_every_position_zstd, .timeout = 600) { every_byte(2); }
Test(corrupt, every_byte_every_position_encoded, .timeout = 600) { every_byte(3); }

/* ---------------------------------------------- random damage, larger file */
Test(corrupt, random_bytes_and_bit_flips_of_a_large_file, .timeout = 600) {
  for (int lz4 = 0; lz4 <= 3; lz4++) { /* raw, LZ4, zstd, encoded (1.3) */
    size_t len;
    uint8_t *orig = make(3000, lz4, &len);
    cr_assert_gt(len, lz4 >= 2 ? 2000 : 50000); /* zstd and the encodings shrink it most */
    uint8_t *p = malloc(len);
    memcpy(p, orig, len);
    for (int n = 0; n < 2000; n++) {
      size_t i = rnd() % len;
      uint8_t old = p[i];
      if (n % 2) p[i] ^= (uint8_t)(1u << (rnd() % 8)); /* bit flip */
      else do p[i] = (uint8_t)rnd(); while (p[i] == old);
      cr_assert(detected(p, len), "change at byte %zu of %zu (%s) went undetected", i, len,
                lz4 == 3 ? "encoded" : lz4 == 2 ? "zstd" : lz4 ? "lz4" : "raw");
      p[i] = old;
    }
    /* several changes at once */
    for (int n = 0; n < 300; n++) {
      memcpy(p, orig, len);
      for (int k = 0; k < 1 + n % 8; k++) p[rnd() % len] ^= (uint8_t)(1 + rnd() % 255);
      if (memcmp(p, orig, len) != 0) cr_assert(detected(p, len));
    }
    free(p);
    free(orig);
  }
}

/* ------------------------------------------------------------ truncation */
Test(corrupt, truncation_at_every_section_boundary_and_random_points, .timeout = 600) {
  for (int lz4 = 0; lz4 <= 1; lz4++) {
    size_t len;
    uint8_t *orig = make(200, lz4, &len);
    pcol_file *f = NULL;
    pcol_error err = {0};
    cr_assert_eq(pcol_open_buffer(orig, len, NULL, &f, &err), 0);
    size_t cuts[4096], nc = 0;
    pcol_header_info h;
    pcol_file_header(f, &h);
    for (uint32_t i = 0; i < pcol_section_count(f) && nc + 4 < 4000; i++) {
      pcol_section_info si;
      cr_assert_eq(pcol_section_get(f, i, &si, NULL), PCOL_OK);
      if (si.column) {
        cuts[nc++] = si.offset;
        cuts[nc++] = si.offset + si.stored_size;
        if (si.stored_size > 1) cuts[nc++] = si.offset + si.stored_size - 1;
      }
      cuts[nc++] = h.dir_offset + (uint64_t)i * 64; /* each directory entry */
    }
    pcol_close(f);
    cuts[nc++] = 0;
    cuts[nc++] = 63;
    cuts[nc++] = 64;
    cuts[nc++] = len - 1;
    for (int k = 0; k < 80; k++) cuts[nc++] = rnd() % len;
    uint8_t *p = malloc(len);
    for (size_t k = 0; k < nc; k++) {
      size_t cut = cuts[k];
      if (cut >= len) continue;
      /* as is: the header's file size no longer matches */
      memcpy(p, orig, cut);
      cr_assert(detected(p, cut), "truncation at %zu of %zu not detected", cut, len);
      /* with the header patched to the new size and checksums recomputed */
      fix_checksums(p, cut);
      cr_assert(detected(p, cut), "patched truncation at %zu of %zu not detected", cut, len);
    }
    free(p);
    free(orig);
  }
}

/* ---------------------------------------- attacker: checksums recomputed */
/* Checksums catch bit rot, not malice.  Change directory fields and data,
 * recompute every checksum, and require that reading never crashes and
 * that full validation and the lazy checks agree on what is readable. */
Test(corrupt, recomputed_checksums_never_crash, .timeout = 600) {
  for (int lz4 = 0; lz4 <= 3; lz4 += lz4 == 1 ? 2 : 1) { /* raw, LZ4, encoded (1.3) */
    size_t len;
    uint8_t *orig = make(40, lz4, &len);
    uint64_t dir = rd64(orig + 40);
    uint32_t nsec = rd32(orig + 48);
    uint8_t *p = malloc(len);
    for (int n = 0; n < 4000; n++) {
      memcpy(p, orig, len);
      int changes = 1 + (int)(rnd() % 3);
      for (int k = 0; k < changes; k++) {
        int in_dir = rnd() % 2;
        if (in_dir && lz4 == 3) { /* a byte of the compact directory (§3.1) */
          p[dir + rnd() % (len - dir)] = (uint8_t)rnd();
        } else if (in_dir) { /* a directory field */
          uint8_t *e = p + dir + (rnd() % nsec) * 64;
          static const int fields[] = {0, 2, 4, 5, 8, 16, 24, 32};
          int fld = fields[rnd() % 8];
          uint64_t v;
          switch (rnd() % 6) {
          case 0: v = 0; break;
          case 1: v = rnd(); break;
          case 2: v = rd64(e + fld) + 1; break;
          case 3: v = rd64(e + fld) - 1; break;
          case 4: v = UINT64_MAX; break;
          default: v = rd64(e + fld) ^ (UINT64_C(1) << (rnd() % 64));
          }
          if (fld < 4) { e[fld] = (uint8_t)v; e[fld + 1] = (uint8_t)(v >> 8); }
          else if (fld < 8) e[fld] = (uint8_t)v;
          else wr64(e + fld, v);
        } else { /* a data byte: ids, offsets, string bytes */
          size_t i = 64 + rnd() % (dir - 64);
          p[i] = (rnd() % 3 == 0) ? 0xff : (uint8_t)(p[i] + 1 + rnd() % 3);
        }
      }
      fix_checksums(p, len);
      pcol_open_options o = {.max_decoded_bytes = 1u << 20};
      pcol_error err = {0};
      pcol_file *f = NULL;
      if (pcol_open_buffer(p, len, &o, &f, &err) != 0) continue;
      int lazy = fz_walk(f, 0);
      pcol_close(f);
      cr_assert_eq(pcol_open_buffer(p, len, &o, &f, &err), 0);
      int full = pcol_validate_full(f, &err);
      if (full == 0)
        cr_assert_eq(fz_walk(f, 0), 0, "validated file walks cleanly (lazy walk said %d)", lazy);
      pcol_close(f);
    }
    free(p);
    free(orig);
  }
}

/* -------------------------------------------------------- crafted files */
typedef struct centry {
  uint16_t table, column;
  uint8_t type, codec;
  const void *data;
  uint64_t stored, decoded, count;
} centry;

static uint8_t *craft_exact(const centry *e, size_t n, size_t *len);

/* Tables other than samples must store a column once they have rows
 * (spec.md §3).  Unless craft_no_fill is set, craft() gives every such
 * table that the caller left without columns a zero-filled first column
 * (when its row count is small enough to store), so each test crafts only
 * the damage it is about. */
static int craft_no_fill;
static uint8_t fill_zeros[1 << 22];

static uint8_t *craft(const centry *e, size_t n, size_t *len) {
  centry all[64];
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    cr_assert(m < 64);
    all[m++] = e[i];
    if (craft_no_fill || e[i].column != 0 || e[i].table == PCOL_T_SAMPLES ||
        e[i].table == PCOL_T_STRINGS || e[i].table >= PCOL_T_COUNT_)
      continue;
    int has_cols = i + 1 < n && e[i + 1].table == e[i].table;
    const pcol_column_info *ci = pcol_column_info_get(e[i].table, 1);
    uint64_t cnt = e[i].count + (ci && ci->is_offsets ? 1 : 0);
    size_t w = ci ? (ci->type == PCOL_TYPE_U8 ? 1 : ci->type == PCOL_TYPE_U32 ? 4 : 8) : 0;
    if (has_cols || !ci || e[i].count == 0 || cnt > sizeof fill_zeros / w) continue;
    cr_assert(m < 64);
    all[m++] = (centry){e[i].table, 1, (uint8_t)ci->type, 0, fill_zeros, cnt * w, cnt * w, cnt};
  }
  return craft_exact(all, m, len);
}

/* Lays out a file from directory entries (sorted by the caller), with
 * correct checksums.  Data sections are 64-byte aligned. */
static uint8_t *craft_exact(const centry *e, size_t n, size_t *len) {
  uint64_t off = 64, offs[64];
  cr_assert(n <= 64);
  for (size_t i = 0; i < n; i++) {
    offs[i] = 0;
    if (e[i].column == 0) continue;
    off = (off + 63) & ~(uint64_t)63;
    offs[i] = off;
    off += e[i].stored;
  }
  uint64_t dir = (off + 63) & ~(uint64_t)63;
  *len = dir + n * 64;
  uint8_t *p = calloc(1, *len);
  memcpy(p, "\x89PCOL\r\n\x1a", 8);
  p[8] = 1;                       /* major */
  wr32(p + 12, 64);               /* header size */
  wr64(p + 40, dir);
  wr32(p + 48, (uint32_t)n);
  wr32(p + 52, 64);               /* entry size */
  for (size_t i = 0; i < n; i++) {
    uint8_t *d = p + dir + i * 64;
    d[0] = (uint8_t)e[i].table;
    d[1] = (uint8_t)(e[i].table >> 8);
    d[2] = (uint8_t)e[i].column;
    d[3] = (uint8_t)(e[i].column >> 8);
    d[4] = e[i].type;
    d[5] = e[i].codec;
    wr64(d + 32, e[i].count);
    if (e[i].column == 0) continue;
    memcpy(p + offs[i], e[i].data, e[i].stored);
    wr64(d + 8, offs[i]);
    wr64(d + 16, e[i].stored);
    wr64(d + 24, e[i].decoded);
    wr32(d + 40, (uint32_t)crc32(0L, p + offs[i], (uInt)e[i].stored));
  }
  fix_checksums(p, *len);
  return p;
}
#define ROWS(t, n) {t, 0, 0, 0, NULL, 0, 0, n}
#define RAW(t, c, ty, ptr, bytes, cnt) {t, c, ty, 0, ptr, bytes, bytes, cnt}

static int open_rc(const uint8_t *p, size_t len, uint64_t cap, pcol_file **f, pcol_error *err) {
  pcol_open_options o = {.max_decoded_bytes = cap};
  *f = NULL;
  return pcol_open_buffer(p, len, &o, f, err);
}

/* Opens, expects the column to be refused (ECORRUPT with a message), and
 * the lazy walk and full validation to fail without crashing. */
static void expect_column_refused(const uint8_t *p, size_t len, int table, int column) {
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0, "%s", err.message);
  pcol_view v;
  cr_assert_eq(pcol_column(f, table, column, &v, &err), PCOL_ECORRUPT, "table %d column %d", table,
               column);
  cr_assert(err.message[0]);
  cr_assert_neq(fz_walk(f, 1), 0);
  pcol_close(f);
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0);
  cr_assert_eq(pcol_validate_full(f, &err), PCOL_ECORRUPT);
  pcol_close(f);
}

/* One location and two stack nodes (parents 0, 1); `loc` is the
 * stacks.location_id entry. */
static uint8_t *two_stacks(centry loc, size_t *len) {
  static const uint32_t par[2] = {0, 1};
  centry e[] = {ROWS(PCOL_T_LOCATIONS, 1), ROWS(PCOL_T_STACKS, 2),
                RAW(PCOL_T_STACKS, 1, PCOL_TYPE_U32, par, 8, 2), loc};
  return craft(e, 4, len);
}

Test(crafted, sanity_of_the_crafting_helper) {
  uint32_t loc[2] = {1, 1};
  size_t len;
  uint8_t *p = two_stacks((centry)RAW(PCOL_T_STACKS, 2, PCOL_TYPE_U32, loc, 8, 2), &len);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
  cr_assert_eq(fz_walk(f, 1), 0);
  pcol_close(f);
  free(p);
}

/* Hole closed: an absent stacks.location_id defaulted to 0, which consumers
 * index as location 0 - 1. */
Test(crafted, stacks_without_location_column) {
  uint32_t par[2] = {0, 1};
  centry e[] = {ROWS(PCOL_T_LOCATIONS, 1), ROWS(PCOL_T_STACKS, 2),
                RAW(PCOL_T_STACKS, 1, PCOL_TYPE_U32, par, 8, 2)};
  size_t len;
  uint8_t *p = craft(e, 3, &len);
  expect_column_refused(p, len, PCOL_T_STACKS, PCOL_C_STACK_LOCATION);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0);
  cr_assert_neq(pcol_stack_walk(f, 2, fz_stack_cb, &(fz_acc){0, 0}, &err), 0);
  pcol_close(f);
  free(p);
}

/* Hole closed: values.value_type_id absent (default 0) -> `vt - 1`. */
Test(crafted, values_without_type_column) {
  uint64_t vo[2] = {0, 1};
  int64_t val[1] = {5};
  centry e[] = {ROWS(PCOL_T_SOURCES, 1), ROWS(PCOL_T_VALUE_TYPES, 1), ROWS(PCOL_T_SAMPLES, 1),
                RAW(PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, PCOL_TYPE_U64, vo, 16, 2),
                ROWS(PCOL_T_VALUES, 1), RAW(PCOL_T_VALUES, 2, PCOL_TYPE_I64, val, 8, 1)};
  size_t len;
  uint8_t *p = craft(e, 6, &len);
  expect_column_refused(p, len, PCOL_T_VALUES, PCOL_C_V_TYPE);
  free(p);
}

/* Hole closed: sample_text.sample_id 0 passed the lazy checks. */
Test(crafted, sample_text_naming_sample_zero) {
  uint32_t sid[1] = {0};
  centry e[] = {ROWS(PCOL_T_SOURCES, 1), ROWS(PCOL_T_SAMPLES, 1), ROWS(PCOL_T_SAMPLE_TEXT, 1),
                RAW(PCOL_T_SAMPLE_TEXT, 1, PCOL_TYPE_U32, sid, 4, 1)};
  size_t len;
  uint8_t *p = craft(e, 4, &len);
  expect_column_refused(p, len, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE);
  free(p);
  /* and an absent column (default 0) likewise */
  centry e2[] = {ROWS(PCOL_T_SOURCES, 1), ROWS(PCOL_T_SAMPLES, 1), ROWS(PCOL_T_SAMPLE_TEXT, 1)};
  p = craft(e2, 3, &len);
  expect_column_refused(p, len, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE);
  free(p);
}

/* Hole closed: text_lines.before_sample out of range passed lazily. */
Test(crafted, text_line_before_a_missing_sample) {
  uint64_t before[1] = {3};
  centry e[] = {ROWS(PCOL_T_SOURCES, 1), ROWS(PCOL_T_SAMPLES, 1), ROWS(PCOL_T_TEXT_LINES, 1),
                RAW(PCOL_T_TEXT_LINES, 2, PCOL_TYPE_U64, before, 8, 1)};
  size_t len;
  uint8_t *p = craft(e, 4, &len);
  expect_column_refused(p, len, PCOL_T_TEXT_LINES, PCOL_C_TL_BEFORE);
  free(p);
}

Test(crafted, stack_parent_cycle_and_forward_reference) {
  uint32_t loc[2] = {1, 1};
  uint32_t self[2] = {0, 2}, fwd[2] = {2, 0};
  for (int k = 0; k < 2; k++) {
    centry e[] = {ROWS(PCOL_T_LOCATIONS, 1), ROWS(PCOL_T_STACKS, 2),
                  RAW(PCOL_T_STACKS, 1, PCOL_TYPE_U32, k ? fwd : self, 8, 2),
                  RAW(PCOL_T_STACKS, 2, PCOL_TYPE_U32, loc, 8, 2)};
    size_t len;
    uint8_t *p = craft(e, 4, &len);
    expect_column_refused(p, len, PCOL_T_STACKS, PCOL_C_STACK_PARENT);
    free(p);
  }
}

/* The first-use checks of stacks.parent_id (one pass without branches when
 * every parent comes before its node, else the loop that names the row)
 * and stacks.location_id (min/max, then that loop) refuse exactly the ids
 * spec.md §8.2 U5 refuses: a parent at or after its own node or past the
 * rows, a location 0 or past the rows; at rows 0, 1 and n-1 of n nodes, n
 * from 1 to 9 (whole groups of 4 and a tail), and nothing else: parent
 * i at row i (the largest allowed) and all 0 pass. */
static int stack_ids_refused(const uint32_t *par, const uint32_t *loc, uint32_t n, uint32_t *bad_row) {
  centry e[] = {ROWS(PCOL_T_LOCATIONS, 3), ROWS(PCOL_T_STACKS, n),
                RAW(PCOL_T_STACKS, 1, PCOL_TYPE_U32, par, 4 * n, n),
                RAW(PCOL_T_STACKS, 2, PCOL_TYPE_U32, loc, 4 * n, n)};
  size_t len;
  uint8_t *p = craft(e, 4, &len);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0, "%s", err.message);
  pcol_view v;
  int rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &v, &err);
  if (!rc) rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &v, &err);
  unsigned long long id, row;
  cr_assert(rc == 0 || rc == PCOL_ECORRUPT, "rc %d", rc);
  const char *m = rc ? strstr(err.message, "id ") : NULL;
  if (rc) cr_assert(m && sscanf(m, "id %llu at row %llu is out of range", &id, &row) == 2, "%s", err.message);
  *bad_row = rc ? (uint32_t)row : UINT32_MAX;
  pcol_close(f);
  free(p);
  return rc != 0;
}

Test(crafted, stack_ids_refused_exactly_as_u5_says) {
  uint32_t par[9], loc[9], row;
  for (uint32_t n = 1; n <= 9; n++) {
    for (uint32_t i = 0; i < n; i++) par[i] = i, loc[i] = 1 + i % 3;
    cr_assert(!stack_ids_refused(par, loc, n, &row), "n %u: parent i at row i is allowed", n);
    for (uint32_t i = 0; i < n; i++) par[i] = 0;
    cr_assert(!stack_ids_refused(par, loc, n, &row), "n %u: all roots are allowed", n);
    const uint32_t at[3] = {0, 1, n - 1};
    for (int a = 0; a < 3; a++) {
      uint32_t r = at[a];
      if (r >= n) continue;
      const uint32_t bad_parent[4] = {r + 1, r + 2, n + 1, UINT32_MAX}; /* itself, after it, past the rows */
      for (int b = 0; b < 4; b++) {
        for (uint32_t i = 0; i < n; i++) par[i] = i;
        par[r] = bad_parent[b];
        cr_assert(stack_ids_refused(par, loc, n, &row), "n %u: parent %u at row %u", n, par[r], r);
        cr_assert_eq(row, r, "n %u: parent %u at row %u named row %u", n, par[r], r, row);
      }
      for (uint32_t i = 0; i < n; i++) par[i] = i;
      const uint32_t bad_loc[3] = {0, 4, UINT32_MAX}; /* 0 (forbidden), past the 3 rows */
      for (int b = 0; b < 3; b++) {
        for (uint32_t i = 0; i < n; i++) loc[i] = 1 + i % 3;
        loc[r] = bad_loc[b];
        cr_assert(stack_ids_refused(par, loc, n, &row), "n %u: location %u at row %u", n, loc[r], r);
        cr_assert_eq(row, r, "n %u: location %u at row %u named row %u", n, loc[r], r, row);
      }
      for (uint32_t i = 0; i < n; i++) loc[i] = 1 + i % 3;
    }
  }
}

/* pcol_column_unchecked hands out the stored ids as they are, in O(1) and in
 * bounds, and checks nothing; pcol_column still refuses the column after it.
 * An LZ4 or offsets column goes through the checks. */
Test(crafted, unchecked_column_is_the_stored_values) {
  uint32_t loc[2] = {1, 9}; /* location 9 of 1 */
  size_t len;
  uint8_t *p = two_stacks((centry)RAW(PCOL_T_STACKS, 2, PCOL_TYPE_U32, loc, 8, 2), &len);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0, "%s", err.message);
  pcol_view v;
  cr_assert_eq(pcol_column_unchecked(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &v, &err), 0);
  cr_assert_eq(v.count, 2);
  cr_assert_eq(v.type, PCOL_TYPE_U32);
  cr_assert((const uint8_t *)v.data > p && (const uint8_t *)v.data < p + len, "points into the file");
  cr_assert_eq(pcol_view_u32(&v, 1), 9);
  cr_assert_eq(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &v, &err), PCOL_ECORRUPT);
  cr_assert_eq(pcol_column_unchecked(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &v, &err), 0,
               "still handed out after a failed check");
  cr_assert_eq(pcol_column_unchecked(f, PCOL_T_STACKS, 99, &v, &err), PCOL_ENOTFOUND);
  pcol_close(f);
  free(p);
  /* the same column LZ4-compressed: decoded and checked, so refused */
  uint8_t z[64];
  int zn = LZ4_compress_default((const char *)loc, (char *)z, 8, (int)sizeof z);
  cr_assert(zn > 0);
  p = two_stacks((centry){PCOL_T_STACKS, 2, PCOL_TYPE_U32, 1, z, (uint64_t)zn, 8, 2}, &len);
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_column_unchecked(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &v, &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "out of range"), "%s", err.message);
  pcol_close(f);
  free(p);
}

Test(crafted, offsets_that_decrease_or_overrun) {
  static const uint64_t bad[][3] = {{0, 5, 3}, {1, 1, 3}, {0, 1, 4}, {0, 2, 2}};
  for (int k = 0; k < 4; k++) {
    const char bytes[3] = {'a', 'b', 'c'};
    centry e[] = {ROWS(PCOL_T_STRINGS, 2),
                  RAW(PCOL_T_STRINGS, 1, PCOL_TYPE_U64, bad[k], 24, 3),
                  RAW(PCOL_T_STRINGS, 2, PCOL_TYPE_BYTES, bytes, 3, 3)};
    size_t len;
    uint8_t *p = craft(e, 3, &len);
    expect_column_refused(p, len, PCOL_T_STRINGS, PCOL_C_STRINGS_OFFSETS);
    pcol_file *f;
    pcol_error err = {0};
    pcol_str s;
    cr_assert_eq(open_rc(p, len, 0, &f, &err), 0);
    cr_assert_eq(pcol_string(f, 1, &s, &err), PCOL_ECORRUPT);
    pcol_close(f);
    free(p);
  }
}

/* Declared sizes are bounded by the file before anything is allocated. */
Test(crafted, huge_declared_sizes_are_refused_at_open) {
  uint8_t junk[64];
  memset(junk, 0x41, sizeof junk);
  pcol_file *f;
  pcol_error err = {0};
  size_t len;
  uint8_t *p;
  /* 1. LZ4 section claiming 2 GiB from 64 bytes: a decompression bomb */
  centry bomb[] = {ROWS(PCOL_T_STRINGS, 1), {PCOL_T_STRINGS, 2, PCOL_TYPE_BYTES, 1, junk, 64,
                                             (UINT64_C(1) << 31) - 1, (UINT64_C(1) << 31) - 1}};
  p = craft(bomb, 2, &len);
  cr_assert_lt(len, 1024);
  cr_assert_eq(open_rc(p, len, UINT64_C(8) << 30, &f, &err), PCOL_ECORRUPT, "%s", err.message);
  free(p);
  /* 2. within LZ4's 255:1 ratio but over the caller's cap */
  centry capped[] = {ROWS(PCOL_T_STRINGS, 1),
                     {PCOL_T_STRINGS, 2, PCOL_TYPE_BYTES, 1, junk, 64, 10000, 10000}};
  p = craft(capped, 2, &len);
  cr_assert_eq(open_rc(p, len, 4096, &f, &err), PCOL_ETOOBIG, "%s", err.message);
  /* 3. under the cap: opens, and the lying section fails exactly on decode */
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0, "%s", err.message);
  pcol_view v;
  cr_assert_eq(pcol_column(f, PCOL_T_STRINGS, 2, &v, &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "LZ4"), "%s", err.message);
  pcol_close(f);
  free(p);
  /* 4. element count x width overflows 64 bits */
  centry ovf[] = {ROWS(PCOL_T_FUNCTIONS, 1),
                  {PCOL_T_FUNCTIONS, 4, PCOL_TYPE_I64, 0, junk, 64, 64, UINT64_C(1) << 61}};
  p = craft(ovf, 2, &len);
  cr_assert_eq(open_rc(p, len, 0, &f, &err), PCOL_ECORRUPT);
  free(p);
  /* 5. a row count far beyond what the file could describe */
  centry rows[] = {ROWS(PCOL_T_FUNCTIONS, UINT64_C(1) << 40)};
  p = craft(rows, 1, &len);
  cr_assert_eq(open_rc(p, len, 0, &f, &err), PCOL_ECORRUPT);
  free(p);
  centry rows2[] = {ROWS(PCOL_T_LINES, UINT64_MAX)};
  p = craft(rows2, 1, &len);
  cr_assert_eq(open_rc(p, len, 0, &f, &err), PCOL_ECORRUPT);
  free(p);
  /* 6. header fields: file size, directory count, directory offset */
  centry ok[] = {ROWS(PCOL_T_FUNCTIONS, 1)};
  p = craft(ok, 1, &len);
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0, "%s", err.message);
  pcol_close(f);
  static const struct { int at, width; uint64_t v; } hdr[] = {
      {32, 8, UINT64_MAX}, {48, 4, UINT32_MAX}, {48, 4, 1u << 26}, {40, 8, UINT64_MAX - 63},
      {40, 8, 0}, {40, 8, 64 * 1024}, {52, 4, 0}, {52, 4, 1u << 31}};
  for (size_t k = 0; k < sizeof hdr / sizeof hdr[0]; k++) {
    uint8_t *q = malloc(len);
    memcpy(q, p, len);
    if (hdr[k].width == 8) wr64(q + hdr[k].at, hdr[k].v);
    else wr32(q + hdr[k].at, (uint32_t)hdr[k].v);
    wr32(q + 60, (uint32_t)crc32(0L, q, 60)); /* keep the header checksum right */
    cr_assert_neq(open_rc(q, len, 0, &f, &err), 0, "header field at %d = %llu accepted", hdr[k].at,
                  (unsigned long long)hdr[k].v);
    free(q);
  }
  free(p);
}

/* Only samples may declare rows without storing a column (every other table
 * must pay for its rows in bytes, spec.md §3); such rows read cheaply. */
Test(crafted, many_rows_with_absent_columns_read_cheaply) {
  centry e[] = {ROWS(PCOL_T_SOURCES, 1), ROWS(PCOL_T_SAMPLES, 12000)};
  size_t len;
  uint8_t *p = craft(e, 2, &len);
  cr_assert_lt(len, 1024);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0, "%s", err.message);
  pcol_view v;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &v, &err), 0);
  cr_assert_null(v.data);
  cr_assert_eq(v.count, 12000);
  cr_assert_eq(pcol_view_i64(&v, 11999), PCOL_NA_I64);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
  cr_assert_eq(fz_walk(f, 1), 0);
  pcol_close(f);
  free(p);
  /* functions or mappings with rows but no stored column are refused */
  craft_no_fill = 1;
  centry g[] = {ROWS(PCOL_T_FUNCTIONS, 12000), ROWS(PCOL_T_MAPPINGS, 12000)};
  p = craft(g, 2, &len);
  craft_no_fill = 0;
  cr_assert_eq(open_rc(p, len, 0, &f, &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "stores none of its columns"), "%s", err.message);
  free(p);
}

/* Unaligned caller buffers are copied, never loaded through a misaligned
 * pointer (UBSan would flag it). */
Test(crafted, unaligned_buffer) {
  size_t len;
  uint8_t *orig = make(20, 0, &len);
  uint8_t *p = malloc(len + 1);
  memcpy(p + 1, orig, len);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(open_rc(p + 1, len, 0, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
  cr_assert_eq(fz_walk(f, 1), 0);
  pcol_close(f);
  free(p);
  free(orig);
}

/* Found by fuzz_pcol: sample times out of order (a file that skipped full
 * validation) made the speedscope exporter overflow `next - t`.  Every
 * exporter must read such a file without undefined behaviour. */
Test(crafted, unsorted_extreme_times_through_exporters) {
  size_t len;
  uint8_t *p = make(60, 0, &len);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0);
  uint64_t at = 0, n = 0;
  for (uint32_t i = 0; i < pcol_section_count(f); i++) {
    pcol_section_info si;
    cr_assert_eq(pcol_section_get(f, i, &si, NULL), PCOL_OK);
    if (si.table == PCOL_T_SAMPLES && si.column == PCOL_C_S_TIME) at = si.offset, n = si.count;
  }
  pcol_close(f);
  cr_assert(at && n > 4);
  static const int64_t odd[] = {INT64_MAX, -986632960, INT64_MIN + 1, 5, INT64_MAX - 1};
  for (uint64_t k = 0; k < 5; k++) wr64(p + at + 8 * (1 + k), (uint64_t)odd[k]);
  fix_checksums(p, len);
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0);
  (void)fz_walk(f, 1); /* exporters run; they may refuse, never misbehave */
  pcol_close(f);
  cr_assert_eq(open_rc(p, len, 0, &f, &err), 0);
  cr_assert_eq(pcol_validate_full(f, &err), PCOL_ECORRUPT, "full validation sees the order");
  pcol_close(f);
  free(p);
}
