/* test_format.c — builder -> file -> reader round trips of every table and
 * column type, empty tables, large ids, LZ4, versioning and header checks. */
#include "testutil.h"
#include "layout.h"
#include "enc.h"    /* pcol_enc_choose: encoder_counts_what_each_window_misses */
#include "writer.h" /* pcol_builder_write_image */
#include "reader.h" /* pcol_idmemo */
#include <math.h>
#include <stddef.h> /* offsetof */
#include <stdio.h>

static pcol_builder *new_builder(void) {
  pcol_builder *b;
  pcol_error err;
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  return b;
}

#define S tu_cstr

static void expect_str(pcol_file *f, uint32_t id, const char *want) {
  pcol_str s;
  pcol_error err;
  cr_assert_eq(pcol_string(f, id, &s, &err), 0, "%s", err.message);
  if (!want) {
    cr_assert_null(s.ptr);
    return;
  }
  cr_assert_not_null(s.ptr);
  cr_assert_eq(s.len, strlen(want));
  cr_assert(memcmp(s.ptr, want, s.len) == 0, "got %.*s want %s", (int)s.len, s.ptr, want);
}

static pcol_view col(pcol_file *f, int t, int c) {
  pcol_view v;
  pcol_error err;
  cr_assert_eq(pcol_column(f, t, c, &v, &err), 0, "%s", err.message);
  return v;
}

/* A small profile that uses every table. */
static pcol_builder *rich_profile(void) {
  pcol_builder *b = new_builder();
  uint32_t src, src2, vt1, vt2, fn1, fn2, map, loc1, loc2, stk, ls, sid;
  cr_assert_eq(pcol_b_source(b, "test", "mem://a", 1700000000, &src, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "test", "mem://b", PCOL_NA_I64, &src2, NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "k1", "v1", NULL), 0);
  cr_assert_eq(pcol_b_meta(b, 0, "bin", "a\0b", 3, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "nanoseconds"), &vt1, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "alloc"), S(b, "bytes"), &vt2, NULL), 0);
  uint32_t again;
  cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "nanoseconds"), &again, NULL), 0);
  cr_assert_eq(again, vt1, "value types are deduplicated");
  cr_assert_eq(pcol_b_source_value_type(b, src, vt1, NULL), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt2, NULL), 0);
  pcol_function_row f1 = {S(b, "main"), S(b, "_main"), S(b, "main.c"), 10};
  pcol_function_row f2 = {S(b, "leaf"), 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_function(b, &f1, &fn1, NULL), 0);
  cr_assert_eq(pcol_b_function(b, &f2, &fn2, NULL), 0);
  pcol_mapping_row m = {0x400000, 0x500000, 0x1000, S(b, "/bin/x"), S(b, "abc123"),
                        PCOL_MAP_HAS_FUNCTIONS | PCOL_MAP_HAS_INLINE_FRAMES};
  cr_assert_eq(pcol_b_mapping(b, &m, 1, &map, NULL), 0);
  pcol_line_row l1[] = {{fn1, 12, 3}};
  pcol_line_row l2[] = {{fn2, 5, PCOL_NA_I64}, {fn1, 13, 1}}; /* inlined */
  cr_assert_eq(pcol_b_location(b, map, 0x401000, 0, l1, 1, &loc1, NULL), 0);
  cr_assert_eq(pcol_b_location(b, map, 0x401100, PCOL_LOC_IS_FOLDED, l2, 2, &loc2, NULL), 0);
  uint32_t locs[] = {loc2, loc1};
  cr_assert_eq(pcol_b_stack(b, locs, 2, &stk, NULL), 0);
  pcol_label_row lab[] = {{S(b, "thread"), S(b, "t1"), 0, 0}, {S(b, "bytes"), 0, -7, S(b, "bytes")}};
  cr_assert_eq(pcol_b_labelset(b, lab, 2, &ls, NULL), 0);
  pcol_sample_row s = {src, 0, 0, 1, PCOL_NA_I64, stk, ls};
  pcol_value_row v[] = {{vt1, INT64_MAX}, {vt2, INT64_MIN + 1}};
  cr_assert_eq(pcol_b_sample(b, &s, v, 2, &sid, NULL), 0);
  pcol_sample_row s2 = {src, 10, 30, 3, 5, 0, 0};
  cr_assert_eq(pcol_b_sample(b, &s2, v, 1, NULL, NULL), 0);
  pcol_sample_row s3 = {src2, PCOL_NA_I64, 0, 1, PCOL_NA_I64, stk, 0};
  cr_assert_eq(pcol_b_sample(b, &s3, NULL, 0, NULL, NULL), 0);
  cr_assert_eq(pcol_b_text_line(b, src, 1, "header", 6, NULL), 0);
  cr_assert_eq(pcol_b_sample_text(b, sid, "raw", 3, NULL), 0);
  pcol_model_row mod = {src, S(b, "f"), S(b, "linear"), S(b, "full"), S(b, "[1,2]"), 0.5, 1, 9};
  cr_assert_eq(pcol_b_model(b, &mod, NULL), 0);
  return b;
}

static void check_rich(pcol_file *f) {
  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCES), 2);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 3);
  cr_assert_eq(pcol_rows(f, PCOL_T_FUNCTIONS), 2);
  cr_assert_eq(pcol_rows(f, PCOL_T_LOCATIONS), 2);
  cr_assert_eq(pcol_rows(f, PCOL_T_LINES), 3);
  cr_assert_eq(pcol_rows(f, PCOL_T_STACKS), 2);
  cr_assert_eq(pcol_rows(f, PCOL_T_VALUES), 3);
  pcol_view ts = col(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP);
  cr_assert_eq(pcol_view_i64(&ts, 0), 1700000000);
  cr_assert_eq(pcol_view_i64(&ts, 1), PCOL_NA_I64);
  pcol_str m;
  cr_assert_eq(pcol_meta_get(f, 1, "k1", &m, NULL), 0);
  cr_assert(m.len == 2 && !memcmp(m.ptr, "v1", 2));
  cr_assert_eq(pcol_meta_get(f, 0, "bin", &m, NULL), 0);
  cr_assert(m.len == 3 && !memcmp(m.ptr, "a\0b", 3), "embedded NUL survives");
  cr_assert_eq(pcol_meta_get(f, 2, "k1", &m, NULL), PCOL_ENOTFOUND);

  pcol_view name = col(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME);
  pcol_view sys = col(f, PCOL_T_FUNCTIONS, PCOL_C_FN_SYSTEM_NAME);
  pcol_view start = col(f, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE);
  expect_str(f, pcol_view_u32(&name, 0), "main");
  expect_str(f, pcol_view_u32(&sys, 0), "_main");
  expect_str(f, pcol_view_u32(&sys, 1), NULL);
  cr_assert_eq(pcol_view_i64(&start, 0), 10);
  cr_assert_eq(pcol_view_i64(&start, 1), PCOL_NA_I64);

  pcol_view ms = col(f, PCOL_T_MAPPINGS, PCOL_C_MAP_START), mf = col(f, PCOL_T_MAPPINGS, PCOL_C_MAP_FLAGS);
  cr_assert_eq(pcol_view_u64(&ms, 0), 0x400000);
  cr_assert_eq(pcol_view_u8(&mf, 0), PCOL_MAP_HAS_FUNCTIONS | PCOL_MAP_HAS_INLINE_FRAMES);

  pcol_view lo = col(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS);
  pcol_view lf = col(f, PCOL_T_LOCATIONS, PCOL_C_LOC_FLAGS);
  pcol_view lfn = col(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION), lline = col(f, PCOL_T_LINES, PCOL_C_LINE_LINE);
  pcol_view lcol = col(f, PCOL_T_LINES, PCOL_C_LINE_COLUMN);
  cr_assert_eq(pcol_view_u64(&lo, 1), 1);
  cr_assert_eq(pcol_view_u64(&lo, 2), 3);
  cr_assert_eq(pcol_view_u8(&lf, 1), PCOL_LOC_IS_FOLDED);
  cr_assert_eq(pcol_view_u32(&lfn, 1), 2, "innermost inline line first");
  cr_assert_eq(pcol_view_i64(&lline, 2), 13);
  cr_assert_eq(pcol_view_i64(&lcol, 1), PCOL_NA_I64);
  cr_assert_eq(pcol_view_i64(&lcol, 0), 3);

  pcol_view w = col(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT), d = col(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION);
  pcol_view cpu = col(f, PCOL_T_SAMPLES, PCOL_C_S_CPU_DELTA), st = col(f, PCOL_T_SAMPLES, PCOL_C_S_STACK);
  pcol_view src = col(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE);
  cr_assert_eq(pcol_view_i64(&w, 1), 3);
  cr_assert_eq(pcol_view_i64(&d, 1), 30);
  cr_assert_eq(pcol_view_i64(&cpu, 0), PCOL_NA_I64);
  cr_assert_eq(pcol_view_i64(&cpu, 1), 5);
  cr_assert_eq(pcol_view_u32(&st, 1), 0, "empty stack");
  cr_assert_eq(pcol_view_u32(&src, 2), 2);

  pcol_view vo = col(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS);
  pcol_view vv = col(f, PCOL_T_VALUES, PCOL_C_V_VALUE);
  cr_assert_eq(pcol_view_u64(&vo, 1), 2);
  cr_assert_eq(pcol_view_u64(&vo, 3), 3);
  cr_assert_eq(pcol_view_i64(&vv, 0), INT64_MAX);
  cr_assert_eq(pcol_view_i64(&vv, 1), INT64_MIN + 1);

  pcol_view lbn = col(f, PCOL_T_LABELS, PCOL_C_LB_NUM), lbu = col(f, PCOL_T_LABELS, PCOL_C_LB_UNIT);
  /* the set {thread=t1, bytes=-7} is stored sorted by key: bytes first */
  cr_assert_eq(pcol_view_i64(&lbn, 0), -7);
  expect_str(f, pcol_view_u32(&lbu, 0), "bytes");

  pcol_view r2 = col(f, PCOL_T_MODELS, PCOL_C_MOD_R_SQUARE);
  cr_assert_float_eq(pcol_view_f64(&r2, 0), 0.5, 1e-12);
  pcol_view tt = col(f, PCOL_T_TEXT_LINES, PCOL_C_TL_TEXT);
  expect_str(f, pcol_view_u32(&tt, 0), "header");
}

typedef struct {
  uint32_t locs[8];
  int n;
} walk_acc;
static int walk_cb(void *ctx, uint32_t depth, uint32_t loc) {
  walk_acc *a = ctx;
  cr_assert_eq(depth, (uint32_t)a->n + 1);
  a->locs[a->n++] = loc;
  return 0;
}

Test(format, round_trip_every_table) {
  pcol_builder *b = rich_profile();
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  check_rich(f);
  walk_acc a = {{0}, 0};
  pcol_view st = col(f, PCOL_T_SAMPLES, PCOL_C_S_STACK);
  cr_assert_eq(pcol_stack_walk(f, pcol_view_u32(&st, 0), walk_cb, &a, NULL), 0);
  cr_assert_eq(a.n, 2);
  cr_assert_eq(a.locs[0], 2, "depth 1 is the innermost location");
  cr_assert_eq(a.locs[1], 1);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* The rich profile with enough repetitive samples that sections compress,
 * written raw and with o: every column reads the same; returns how many
 * sections use `codec` and whether the header says format 1.1 (bit 0). */
static int round_trip(const pcol_write_options *o, int codec, int *v12, int *transforms) {
  pcol_builder *b = rich_profile();
  uint32_t vt;
  cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "nanoseconds"), &vt, NULL), 0);
  for (int i = 0; i < 5000; i++) {
    pcol_sample_row s = {2, 1000 * (int64_t)i, 0, 1 + i % 3, PCOL_NA_I64, 1, 0};
    pcol_value_row v = {vt, i};
    cr_assert_eq(pcol_b_sample(b, &s, &v, 1, NULL, NULL), 0);
  }
  void *m1, *m2;
  pcol_file *raw = tu_reopen(b, NULL, &m1), *lz = tu_reopen(b, o, &m2);
  pcol_error err = {0};
  cr_assert_eq(pcol_validate_full(lz, &err), 0, "%s", err.message);
  int compressed = 0;
  *transforms = 0;
  for (uint32_t i = 0; i < pcol_section_count(lz); i++) {
    pcol_section_info si;
    cr_assert_eq(pcol_section_get(lz, i, &si, NULL), PCOL_OK);
    compressed += si.codec == codec;
    *transforms += (si.transform & 7) != 0; /* delta, split, row-relative */
  }
  pcol_header_info h, hr;
  pcol_file_header(lz, &h);
  pcol_file_header(raw, &hr);
  /* the default raw file: encoded columns (1.3) in a compact directory */
  cr_assert_eq(hr.minor, 3, "a raw file is format 1.3");
  cr_assert_eq(hr.incompat_flags, PCOL_INCOMPAT_COMPACT_1_2 | PCOL_INCOMPAT_ENCODED_1_3);
  /* *v12: a compact 1.2 file (bit 1, and bit 0 when zstd, delta or split is used) */
  /* ... or 1.3 (bit 2 as well) when a column is stored encoded, or 1.5 (bit
   * 4 too) when a column's lanes are byte-split under the codec */
  uint64_t enc = h.incompat_flags & PCOL_INCOMPAT_ENCODED_1_3;
  uint64_t lanes = h.incompat_flags & PCOL_INCOMPAT_SPLIT_LANES_1_5;
  *v12 = h.minor == (lanes ? 5 : enc ? 3 : 2) &&
         (h.incompat_flags & ~(uint64_t)1 & ~enc & ~lanes) == PCOL_INCOMPAT_COMPACT_1_2;
  if (!*v12) cr_assert(h.minor == 0 && h.incompat_flags == 0, "1.0, or 1.2/1.3/1.5 with bit 1, nothing else");
  int bit0 = 0, split_lanes = 0; /* what the sections use: zstd, delta or split; split lanes */
  for (uint32_t i = 0; i < pcol_section_count(lz); i++) {
    pcol_section_info si;
    cr_assert_eq(pcol_section_get(lz, i, &si, NULL), PCOL_OK);
    bit0 |= si.codec == PCOL_CODEC_ZSTD || (si.transform & 3) != 0;
    split_lanes |= si.transform == (PCOL_TRANSFORM_ENCODED | 2);
  }
  if (*v12) {
    cr_assert_eq(h.incompat_flags & 1, (uint64_t)bit0, "bit 0 iff zstd, delta or split is used");
    cr_assert_eq(lanes != 0, split_lanes, "bit 4 iff a column's lanes are byte-split");
    cr_assert(!lanes || bit0, "bit 4 with bit 0");
  }
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    const pcol_table_info *ti = pcol_table_info_get(t);
    /* 1.2 has no per-source summary (table 18, source_value_types 3-4) */
    int summary = t == PCOL_T_SOURCE_SUMMARY;
    if (summary && o->format_version == 2) continue;
    cr_assert_eq(pcol_rows(raw, t), pcol_rows(lz, t));
    for (size_t c = 1; c <= ti->ncolumns; c++) {
      if (o->format_version == 2 && t == PCOL_T_SOURCE_VALUE_TYPES && c >= PCOL_C_SVT_TOTAL) continue;
      pcol_view a = col(raw, t, c), z = col(lz, t, c);
      cr_assert_eq(a.count, z.count);
      cr_assert_eq(pcol_view_stored(&a), pcol_view_stored(&z));
      pcol_type ty = ti->columns[c - 1].type;
      if (ty == PCOL_TYPE_BYTES) {
        if (a.data) cr_assert(memcmp(a.data, z.data, a.count) == 0, "table %d col %d", t, c);
        continue;
      }
      for (uint64_t i = 0; i < a.count; i++) /* element by element: raw may be encoded (1.3) */
        cr_assert(ty == PCOL_TYPE_U8 ? pcol_view_u8(&a, i) == pcol_view_u8(&z, i)
                  : ty == PCOL_TYPE_U32 ? pcol_view_u32(&a, i) == pcol_view_u32(&z, i)
                  : ty == PCOL_TYPE_F64 ? !memcmp(&(double){pcol_view_f64(&a, i)}, &(double){pcol_view_f64(&z, i)}, 8)
                  : pcol_view_u64(&a, i) == pcol_view_u64(&z, i), "table %d col %d row %llu", t, c,
                  (unsigned long long)i);
    }
  }
  pcol_close(raw);
  pcol_close(lz);
  free(m1);
  free(m2);
  pcol_builder_free(b);
  return compressed;
}

/* --format-version 1.2: the file earlier writers made (1.0, 64-byte
 * entries, plain columns), with the same views as the default 1.3 one. */
Test(format, format_version_1_2_is_plain_1_0_with_identical_views) {
  pcol_write_options o = {.format_version = 2};
  int v12, tf;
  cr_assert_eq(round_trip(&o, PCOL_CODEC_LZ4, &v12, &tf), 0, "nothing compressed");
  cr_assert(!v12 && !tf, "a 1.0 file without transforms");
  pcol_write_options bad = {.format_version = 6};
  pcol_builder *b = rich_profile();
  void *mem = NULL;
  size_t len;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_write_mem(b, &bad, &mem, &len, &err), PCOL_EINVAL);
  pcol_builder_free(b);
}

/* LZ4 (spec.md §4.1): a compact 1.3 file, LZ4 over encoded columns where
 * smaller, without transforms and without incompat bit 0; with
 * --format-version 1.2 the plain 1.0 file of earlier versions. */
Test(format, round_trip_lz4_identical_views) {
  pcol_write_options o = {.compress_lz4 = 1};
  int v12, tf;
  cr_assert_gt(round_trip(&o, PCOL_CODEC_LZ4, &v12, &tf), 0, "some sections are LZ4");
  cr_assert(v12, "an LZ4 file is compact (1.2, 1.3 or 1.5)");
  pcol_write_options o14 = {.compress_lz4 = 1, .format_version = 4};
  cr_assert_gt(round_trip(&o14, PCOL_CODEC_LZ4, &v12, &tf), 0, "some sections are LZ4");
  cr_assert(v12 && !tf, "an LZ4 file of --format-version 1.4 is compact, with no transform (no bit 0)");
  pcol_write_options o12 = {.compress_lz4 = 1, .format_version = 2};
  cr_assert_gt(round_trip(&o12, PCOL_CODEC_LZ4, &v12, &tf), 0, "some sections are LZ4");
  cr_assert(!v12 && !tf, "LZ4 files of --format-version 1.2 stay format 1.0, without transforms");
}

/* zstd (format 1.2): same columns, header 1.2 with incompat bits 0 and 1
 * (compact directory), and the transforms chosen where they help (times
 * and offsets are ramps); level 0 is the size-dependent default. */
Test(format, zstd_round_trip_identical_views_and_version_1_2) {
  for (int level = 0; level <= 19; level += level ? 18 : 1) {
    pcol_write_options o = {.compress_zstd = 1, .zstd_level = level};
    int v12, tf;
    cr_assert_gt(round_trip(&o, PCOL_CODEC_ZSTD, &v12, &tf), 0, "some sections are zstd");
    cr_assert(v12, "a zstd file is format 1.2 with the compact directory");
    cr_assert_gt(tf, 0, "some columns are transformed");
  }
}

Test(format, zstd_level_out_of_range_is_refused) {
  pcol_builder *b = rich_profile();
  pcol_write_options o = {.compress_zstd = 1, .zstd_level = 23};
  void *mem = NULL;
  size_t len;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_write_mem(b, &o, &mem, &len, &err), PCOL_EINVAL);
  cr_assert(strstr(err.message, "zstd level 23"), "%s", err.message);
  pcol_builder_free(b);
}

/* lz4_level (1.1) lies in the byte that was 1.0's padding of
 * pcol_write_options (between validate and format_version): the struct keeps
 * 1.0's size and offsets (first added at its end, it made it 16 bytes: a
 * 1.0 program's 12-byte struct read past its end).  A 1.0 program may have
 * left that byte uninitialized: it is read only when LZ4 is the codec, so a
 * raw or zstd write with any byte there writes as 1.0 did (the same file),
 * and an LZ4 write with a level past 12 is refused. */
Test(format, lz4_level_read_only_for_lz4) {
  pcol_builder *b = rich_profile();
  pcol_error err = {0};
  cr_assert_eq(sizeof(pcol_write_options), 12, "pcol_write_options is 1.0's size");
  cr_assert(offsetof(pcol_write_options, compress_lz4) == 0 && offsetof(pcol_write_options, compress_zstd) == 1 &&
                offsetof(pcol_write_options, zstd_level) == 4 && offsetof(pcol_write_options, validate) == 8 &&
                offsetof(pcol_write_options, format_version) == 10,
            "pcol_write_options' 1.0 fields at 1.0's offsets");
  cr_assert_eq(offsetof(pcol_write_options, lz4_level), 9, "lz4_level in 1.0's padding byte");
  for (int codec = 0; codec < 3; codec++) {
    pcol_write_options clean = {.compress_lz4 = codec == 1, .compress_zstd = codec == 2, .zstd_level = 1};
    pcol_write_options junk = clean;
    junk.lz4_level = 0xa5; /* the padding byte of a 1.0 caller's struct */
    void *m1 = NULL, *m2 = NULL;
    size_t l1 = 0, l2 = 0;
    cr_assert_eq(pcol_builder_write_mem(b, &clean, &m1, &l1, &err), PCOL_OK, "%s", err.message);
    int rc = pcol_builder_write_mem(b, &junk, &m2, &l2, &err);
    if (codec == 1) {
      cr_assert_eq(rc, PCOL_EINVAL, "an LZ4 level of 165 is refused");
      cr_assert(strstr(err.message, "lz4 level 165"), "%s", err.message);
    } else {
      cr_assert_eq(rc, PCOL_OK, "codec %d: lz4_level is not read: %s", codec, err.message);
      cr_assert(l1 == l2 && memcmp(m1, m2, l1) == 0, "codec %d: the same file", codec);
    }
    free(m1);
    free(m2);
  }
  pcol_builder_free(b);
}

Test(format, empty_builder_is_a_valid_file) {
  pcol_builder *b = new_builder();
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 0);
  cr_assert_eq(pcol_string_count(f), 1);
  pcol_view v = col(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT);
  cr_assert_null(v.data);
  cr_assert_eq(v.count, 0);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

Test(format, defaults_are_not_stored) {
  pcol_builder *b = new_builder();
  uint32_t src, fn, loc, stk;
  cr_assert_eq(pcol_b_source(b, "t", "u", PCOL_NA_I64, &src, NULL), 0);
  pcol_function_row fr = {S(b, "f"), 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_function(b, &fr, &fn, NULL), 0);
  pcol_line_row l = {fn, PCOL_NA_I64, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &loc, NULL), 0);
  cr_assert_eq(pcol_b_stack(b, &loc, 1, &stk, NULL), 0);
  for (int i = 0; i < 100; i++) {
    pcol_sample_row s = {src, i * 1000, 0, 1, PCOL_NA_I64, stk, 0};
    cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  }
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  /* weight (all 1), duration (all 0), cpu_delta (all NA), source (all 1): absent */
  pcol_view c;
  c = col(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT);
  cr_assert(!pcol_view_stored(&c));
  c = col(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION);
  cr_assert(!pcol_view_stored(&c));
  c = col(f, PCOL_T_SAMPLES, PCOL_C_S_CPU_DELTA);
  cr_assert(!pcol_view_stored(&c));
  c = col(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE);
  cr_assert(!pcol_view_stored(&c));
  c = col(f, PCOL_T_SAMPLES, PCOL_C_S_TIME);
  cr_assert(pcol_view_stored(&c));
  pcol_view w = col(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT);
  cr_assert_eq(pcol_view_i64(&w, 99), 1);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* While every sample has the same value types, the builder keeps the value
 * offsets and types implicit and the writer makes them: the file must hold
 * them as if stored, raw and compressed, when the pattern holds to the end
 * (switch = 0), breaks after some samples (a sample with other types or
 * another count), or every sample has no value. */
static void check_values(pcol_file *f, uint64_t n, const uint32_t *k, const uint32_t (*ty)[3]) {
  pcol_view off = col(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS), vt = col(f, PCOL_T_VALUES, PCOL_C_V_TYPE),
            vv = col(f, PCOL_T_VALUES, PCOL_C_V_VALUE);
  uint64_t at = 0;
  for (uint64_t i = 0; i < n; i++) {
    cr_assert_eq(pcol_view_u64(&off, i), at, "sample %llu", (unsigned long long)i);
    for (uint32_t j = 0; j < k[i]; j++, at++) {
      cr_assert_eq(pcol_view_u32(&vt, at), ty[i][j], "value %llu", (unsigned long long)at);
      cr_assert_eq(pcol_view_i64(&vv, at), (int64_t)(i * 10 + j));
    }
  }
  cr_assert_eq(pcol_view_u64(&off, n), at);
  cr_assert_eq(pcol_rows(f, PCOL_T_VALUES), at);
}

Test(format, implicit_value_offsets_and_types_read_as_stored) {
  enum { N = 20000 }; /* past one 64 KiB piece of the writer */
  static uint32_t k[N], ty[N][3];
  for (int sw = 0; sw < 4; sw++)
    for (int codec = 0; codec < 3; codec++) {
      pcol_builder *b = new_builder();
      uint32_t src, fn, loc, stk, vt[3];
      cr_assert_eq(pcol_b_source(b, "t", "u", PCOL_NA_I64, &src, NULL), 0);
      for (int j = 0; j < 3; j++)
        cr_assert_eq(pcol_b_value_type(b, S(b, j == 0 ? "a" : j == 1 ? "b" : "c"), S(b, "count"), &vt[j], NULL), 0);
      pcol_function_row fr = {S(b, "f"), 0, 0, PCOL_NA_I64};
      cr_assert_eq(pcol_b_function(b, &fr, &fn, NULL), 0);
      pcol_line_row l = {fn, 1, PCOL_NA_I64};
      cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &loc, NULL), 0);
      cr_assert_eq(pcol_b_stack(b, &loc, 1, &stk, NULL), 0);
      for (uint64_t i = 0; i < N; i++) {
        /* sw 0: (a, b) always; 1: (b, a) from sample 15000; 2: a third
         * value from sample 7; 3: no values at all */
        k[i] = sw == 3 ? 0 : sw == 2 && i >= 7 ? 3 : 2;
        int swap = sw == 1 && i >= 15000;
        pcol_value_row v[3];
        for (uint32_t j = 0; j < k[i]; j++) {
          ty[i][j] = vt[j < 2 && swap ? 1 - j : j];
          v[j] = (pcol_value_row){ty[i][j], (int64_t)(i * 10 + j)};
        }
        pcol_sample_row s = {src, (int64_t)i, 0, 1, PCOL_NA_I64, stk, 0};
        cr_assert_eq(pcol_b_sample(b, &s, v, k[i], NULL, NULL), 0);
      }
      pcol_write_options o = {0};
      o.compress_lz4 = codec == 1;
      o.compress_zstd = codec == 2;
      void *mem;
      pcol_file *f = tu_reopen(b, &o, &mem);
      pcol_error err = {0};
      cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
      check_values(f, N, k, (const uint32_t(*)[3])ty);
      pcol_close(f);
      free(mem);
      pcol_builder_free(b);
    }
}

Test(format, large_ids_and_many_strings) {
  pcol_builder *b = new_builder();
  uint32_t src, last = 0;
  cr_assert_eq(pcol_b_source(b, "t", "u", PCOL_NA_I64, &src, NULL), 0);
  char buf[32];
  for (int i = 0; i < 200000; i++) {
    snprintf(buf, sizeof buf, "fn_%d", i);
    pcol_function_row fr = {S(b, buf), 0, 0, i};
    cr_assert_eq(pcol_b_function(b, &fr, &last, NULL), 0);
  }
  cr_assert_eq(last, 200000);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_view n = col(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME);
  expect_str(f, pcol_view_u32(&n, 199999), "fn_199999");
  pcol_view sl = col(f, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE);
  cr_assert_eq(pcol_view_i64(&sl, 123456), 123456);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* Each pcol_b_sample refusal says which rule failed, not one message for all
 * (helper-88 F6). */
static void sample_refused(pcol_builder *b, const pcol_sample_row *s, const pcol_value_row *v,
                           size_t nv, const char *want) {
  pcol_error err = {0};
  cr_assert_eq(pcol_b_sample(b, s, v, nv, NULL, &err), PCOL_EINVAL, "%s: accepted", want);
  cr_assert(err.code == PCOL_EINVAL && strstr(err.message, want), "'%s' not in '%s'", want,
            err.message);
}

Test(format, builder_sample_refusals_name_the_rule) {
  pcol_builder *b = new_builder();
  uint32_t s1, s2;
  cr_assert_eq(pcol_b_source(b, "t", "u1", PCOL_NA_I64, &s1, NULL), 0);
  cr_assert_eq(pcol_b_source(b, "t", "u2", PCOL_NA_I64, &s2, NULL), 0);
  pcol_sample_row s = {9, 100, 0, 1, PCOL_NA_I64, 0, 0};
  sample_refused(b, &s, NULL, 0, "source 9 out of range (2 sources)");
  s.source_id = s2, s.stack_id = 7;
  sample_refused(b, &s, NULL, 0, "stack 7 out of range (0 stacks)");
  s.stack_id = 0, s.labelset_id = 4;
  sample_refused(b, &s, NULL, 0, "label set 4 out of range");
  s.labelset_id = 0;
  pcol_value_row v = {3, 1};
  sample_refused(b, &s, &v, 1, "value 1: value type 3 out of range");
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  s.time_ns = 50;
  sample_refused(b, &s, NULL, 0, "time 50 is earlier than the previous sample's 100 in source 2");
  s.time_ns = PCOL_NA_I64;
  sample_refused(b, &s, NULL, 0, "NA time after one at time 100 in source 2");
  s.source_id = s1, s.time_ns = 500;
  sample_refused(b, &s, NULL, 0, "a sample of source 1 after one of source 2");
  pcol_builder_free(b);
}

Test(format, builder_rejects_bad_references_and_order) {
  pcol_builder *b = new_builder();
  uint32_t src, id;
  cr_assert_eq(pcol_b_source(b, "t", "u", PCOL_NA_I64, &src, NULL), 0);
  pcol_sample_row s = {src, 100, 0, 1, PCOL_NA_I64, 7, 0};
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), PCOL_EINVAL, "stack 7 does not exist");
  s.stack_id = 0;
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  s.time_ns = 50;
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), PCOL_EINVAL, "time goes backwards");
  cr_assert_eq(pcol_b_stack_node(b, 0, 1, &id, NULL), PCOL_EINVAL, "no location 1");
  pcol_value_row v = {3, 1};
  s.time_ns = 200;
  cr_assert_eq(pcol_b_sample(b, &s, &v, 1, NULL, NULL), PCOL_EINVAL, "no value type 3");
  /* a rejected sample leaves nothing behind, not even its good values */
  uint32_t vt;
  cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "ns"), &vt, NULL), 0);
  pcol_value_row two[] = {{vt, 111}, {99, 222}};
  cr_assert_eq(pcol_b_sample(b, &s, two, 2, NULL, NULL), PCOL_EINVAL);
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  {
    void *m0;
    pcol_file *f = tu_reopen(b, NULL, &m0);
    cr_assert_eq(pcol_rows(f, PCOL_T_VALUES), 0, "the rejected sample's value 111 was kept");
    pcol_close(f);
    free(m0);
  }
  /* references to rows that do not exist are refused when added */
  cr_assert_eq(pcol_b_meta_str(b, 5, "k", "v", NULL), PCOL_EINVAL, "no source 5");
  cr_assert_eq(pcol_b_source_value_type(b, src, 9, NULL), PCOL_EINVAL, "no value type 9");
  cr_assert_eq(pcol_b_sample_text(b, 0, "x", 1, NULL), PCOL_EINVAL);
  cr_assert_eq(pcol_b_sample_text(b, 3, "x", 1, NULL), PCOL_EINVAL, "only 2 samples");
  cr_assert_eq(pcol_b_text_line(b, src, 0, "x", 1, NULL), PCOL_EINVAL);
  pcol_mapping_row m = {0, 0, 0, 0, 0, 0x10};
  cr_assert_eq(pcol_b_mapping(b, &m, 0, &id, NULL), PCOL_EINVAL, "unknown mapping flag");
  cr_assert_eq(pcol_b_text_line(b, src, 9, "late", 4, NULL), 0, "may name a later sample...");
  void *mem;
  size_t len;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &mem, &len, &err), PCOL_EINVAL,
               "...but the writer refuses it if that sample never comes");
  pcol_builder_free(b);
}

/* ---------------------------------------------------------- header rules */
static void *good_file(size_t *len) {
  pcol_builder *b = rich_profile();
  void *mem;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &mem, len, NULL), 0);
  pcol_builder_free(b);
  return mem;
}

#include <zlib.h>
static void fix_header_crc(uint8_t *p) {
  uint32_t c = (uint32_t)crc32(0L, p, 60);
  for (int i = 0; i < 4; i++) p[60 + i] = (uint8_t)(c >> (8 * i));
}

Test(format, newer_major_is_refused_naming_both_versions) {
  size_t len;
  uint8_t *p = good_file(&len);
  p[8] = 2; /* major 2 */
  p[10] = 0; /* minor 0: "2.0" */
  fix_header_crc(p);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(p, len, NULL, &f, &err), PCOL_EUNSUPPORTED);
  cr_assert(strstr(err.message, "2.0") && strstr(err.message, "1."), "%s", err.message);
  free(p);
}

Test(format, newer_minor_is_read) {
  size_t len;
  uint8_t *p = good_file(&len);
  p[10] = 7; /* minor 7 */
  fix_header_crc(p);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(p, len, NULL, &f, &err), 0, "%s", err.message);
  check_rich(f);
  pcol_close(f);
  free(p);
}

Test(format, unknown_incompat_flag_is_refused_compat_flag_ignored) {
  size_t len;
  uint8_t *p = good_file(&len);
  pcol_file *f;
  pcol_error err = {0};
  p[24] = 0x80; /* compat flag */
  fix_header_crc(p);
  cr_assert_eq(pcol_open_buffer(p, len, NULL, &f, &err), 0, "%s", err.message);
  pcol_close(f);
  p[16] = 0x20; /* incompat bit 5 (bits 0-4 are format 1.1-1.5's, known) */
  fix_header_crc(p);
  cr_assert_eq(pcol_open_buffer(p, len, NULL, &f, &err), PCOL_EUNSUPPORTED);
  free(p);
}

/* The rich profile in a compact file (zstd: 1.2, or 1.3 with a column encoded). */
static void *good_compact_file(size_t *len) {
  pcol_builder *b = rich_profile();
  pcol_write_options o = {.compress_zstd = 1};
  void *mem;
  cr_assert_eq(pcol_builder_write_mem(b, &o, &mem, len, NULL), 0);
  pcol_builder_free(b);
  return mem;
}

static void every_byte_change_detected(uint8_t *p, size_t len) {
  for (size_t i = 0; i < len; i++) {
    uint8_t old = p[i];
    p[i] ^= 0x5a;
    pcol_file *f = NULL;
    pcol_error err = {0};
    int rc = pcol_open_buffer(p, len, NULL, &f, &err);
    if (rc == 0) {
      rc = pcol_validate_full(f, &err);
      pcol_close(f);
    }
    cr_assert_neq(rc, 0, "byte %zu changed but the file still validates", i);
    p[i] = old;
  }
}

Test(format, every_single_byte_change_is_detected_by_full_validation) {
  size_t len;
  uint8_t *p = good_file(&len);
  every_byte_change_detected(p, len);
  free(p);
  /* the compact directory (1.2) has no per-section crc: the body crc and
   * the varints' own rules catch every change */
  p = good_compact_file(&len);
  every_byte_change_detected(p, len);
  free(p);
}

/* A compact file cut or extended anywhere is refused at open, and every
 * prefix of its directory is refused without reading past it. */
Test(format, compact_file_cut_or_grown_is_refused) {
  size_t len;
  uint8_t *p = good_compact_file(&len);
  pcol_header_info h;
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(p, len, NULL, &f, &err), 0, "%s", err.message);
  pcol_file_header(f, &h);
  pcol_close(f);
  cr_assert_geq(h.minor, 2); /* 1.3 when a small column is kept encoded, raw */
  cr_assert(h.incompat_flags & PCOL_INCOMPAT_COMPACT_1_2, "compact entries");
  cr_assert_lt(len - h.dir_offset, 16u * h.dir_count, "a compact entry takes < 16 bytes here");
  for (size_t n = 64; n < len; n++) {
    /* the header says len: any other size is refused (H7) */
    cr_assert_neq(pcol_open_buffer(p, n, NULL, &f, &err), 0, "cut at %zu", n);
  }
  /* a directory one byte short: header and sizes agree, the last entry is cut */
  uint8_t *q = malloc(len);
  for (uint64_t cut = 1; cut <= len - h.dir_offset; cut++) {
    size_t n = len - (size_t)cut;
    memcpy(q, p, n);
    for (int i = 0; i < 8; i++) q[32 + i] = (uint8_t)((uint64_t)n >> (8 * i));
    fix_header_crc(q);
    int rc = pcol_open_buffer(q, n, NULL, &f, &err);
    cr_assert_eq(rc, PCOL_ECORRUPT, "directory cut by %llu bytes: rc %d", (unsigned long long)cut, rc);
  }
  free(q);
  free(p);
}

Test(format, truncation_is_detected_at_open) {
  size_t len;
  uint8_t *p = good_file(&len);
  for (size_t cut = 0; cut < len; cut += 7) {
    pcol_file *f = NULL;
    cr_assert_neq(pcol_open_buffer(p, cut, NULL, &f, NULL), 0, "cut at %zu", cut);
  }
  free(p);
}

Test(format, open_from_path_and_atomic_write) {
  char dir[] = "/tmp/pcol-test-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/out.pcol", dir);
  pcol_builder *b = rich_profile();
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_write(b, path, NULL, &err), 0, "%s", err.message);
  pcol_file *f;
  pcol_open_options o = {0};
  cr_assert_eq(pcol_open(path, &o, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
  check_rich(f);
  pcol_close(f);
  o.no_mmap = 1;
  cr_assert_eq(pcol_open(path, &o, &f, &err), 0, "%s", err.message);
  check_rich(f);
  pcol_close(f);
  /* writing into a missing directory fails and leaves nothing behind */
  char bad[300];
  snprintf(bad, sizeof bad, "%s/nodir/out.pcol", dir);
  cr_assert_eq(pcol_builder_write(b, bad, NULL, &err), PCOL_EIO);
  cr_assert(strstr(err.message, "nodir"), "%s", err.message);
  pcol_builder_free(b);
  unlink(path);
  rmdir(dir);
}

static int count_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)row, (void)num, (void)den;
  ++*(uint64_t *)ctx;
  return 0;
}

static int no_call(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)ctx, (void)row, (void)num, (void)den;
  return 0;
}

/* pcol_select_iter with no fn: what sel refuses, decided per source without
 * a pass over its rows (cat and traces ask it before their first line), the
 * same refusal as a walk gives: a source of timed samples and one whose
 * samples have no time and that states no duration (its span has no known
 * end, so a --to cuts it). */
Test(format, select_iter_without_fn_refuses_as_a_walk) {
  pcol_builder *b = new_builder();
  uint32_t timed, untimed;
  pcol_error err = {0};
  cr_assert_eq(pcol_b_source(b, "t", "timed", PCOL_NA_I64, &timed, &err), 0);
  cr_assert_eq(pcol_b_source(b, "t", "untimed", PCOL_NA_I64, &untimed, &err), 0);
  for (int i = 0; i < 5; i++) {
    pcol_sample_row s = {timed, (int64_t)i * 1000000000, 0, 1, PCOL_NA_I64, 0, 0};
    cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, &err), 0, "%s", err.message);
  }
  for (int i = 0; i < 5; i++) {
    pcol_sample_row u = {untimed, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
    cr_assert_eq(pcol_b_sample(b, &u, NULL, 0, NULL, &err), 0, "%s", err.message);
  }
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem);
  pcol_select sel = {0};
  sel.has_to = 1;
  sel.to_ns = 2000000000;
  pcol_error walk = {0}, check = {0};
  int rw = pcol_select_iter(f, &sel, no_call, NULL, &walk);
  int rc = pcol_select_iter(f, &sel, NULL, NULL, &check);
  cr_assert_neq(rw, 0, "the walk refuses a --to on the untimed source");
  cr_assert_eq(rc, rw, "%d: %s", rc, check.message);
  cr_assert_str_eq(check.message, walk.message);
  cr_assert(strstr(check.message, "untimed"), "%s", check.message);
  sel.source_id = timed; /* the timed source alone: nothing refused */
  cr_assert_eq(pcol_select_iter(f, &sel, NULL, NULL, &check), 0, "%s", check.message);
  sel.source_id = 3; /* no such source: refused as a walk refuses it */
  rw = pcol_select_iter(f, &sel, no_call, NULL, &walk);
  rc = pcol_select_iter(f, &sel, NULL, NULL, &check);
  cr_assert(rw != 0 && rc == rw && !strcmp(check.message, walk.message), "%d %d %s", rw, rc, check.message);
  memset(&sel, 0, sizeof sel); /* no range: nothing to refuse */
  cr_assert_eq(pcol_select_iter(f, &sel, NULL, NULL, &check), 0, "%s", check.message);
  sel.has_from = 1; /* --from 0 without --to holds the untimed source whole */
  cr_assert_eq(pcol_select_iter(f, &sel, NULL, NULL, &check), 0, "%s", check.message);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
}

/* issue 28 #9: a duration of INT64_MAX has 19 digits, which §7.2 does not
 * allow as a declared longest duration: coalescing declared it anyway and
 * wrote a file pcol_validate_full refuses.  Now it declares nothing (range
 * queries scan), and pcol_write_options.validate refuses to publish a file
 * that would not validate. */
Test(format, coalescing_declares_only_what_validates) {
  pcol_builder *b = new_builder();
  uint32_t src;
  cr_assert_eq(pcol_b_source(b, "t", "u", PCOL_NA_I64, &src, NULL), 0);
  for (int i = 0; i < 3; i++) { /* a run of 3 that cannot join: point, long, long */
    /* weight 1000: ticks spread over the duration (spec.md §7.1), so the
     * long ones have ticks after t = 1000 */
    pcol_sample_row s = {src, i, i ? INT64_MAX : 0, i ? 1000 : 1, PCOL_NA_I64, 0, 0};
    cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  }
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_coalesce(b, &err), 0, "%s", err.message);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem); /* validates fully */
  pcol_str v;
  cr_assert_neq(pcol_meta_get(f, src, "pcol.max_duration_ns", &v, NULL), 0,
                "declared %.*s", (int)v.len, v.ptr);
  /* a range query still finds the long sample that started before it */
  pcol_select sel = {0};
  sel.has_from = 1;
  sel.from_ns = 1000;
  uint64_t n = 0;
  cr_assert_eq(pcol_select_iter(f, &sel, count_row, &n, &err), 0, "%s", err.message);
  cr_assert_eq(n, 2, "the two long samples cover t = 1000");
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);

  /* validate: a declared value below a duration (a caller's meta row) is
   * caught before the rename; the destination keeps what it had */
  pcol_builder *b2 = new_builder();
  cr_assert_eq(pcol_b_source(b2, "t", "u", PCOL_NA_I64, &src, &err), 0);
  pcol_sample_row s = {src, 0, 30, 3, PCOL_NA_I64, 0, 0};
  cr_assert_eq(pcol_b_sample(b2, &s, NULL, 0, NULL, &err), 0);
  cr_assert_eq(pcol_b_meta_str(b2, src, "pcol.max_duration_ns", "5", &err), 0);
  char dir[] = "/tmp/pcol-validate-XXXXXX";
  cr_assert(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/out.pcol", dir);
  FILE *keep = fopen(path, "w");
  fputs("keep", keep);
  fclose(keep);
  pcol_write_options wo = {0};
  wo.validate = 1;
  cr_assert_eq(pcol_builder_write(b2, path, &wo, &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "would not validate") && strstr(err.message, "longest duration"),
            "%s", err.message);
  size_t len = 0;
  char *kept = tu_slurp(path, &len);
  cr_assert(kept && len == 4 && !memcmp(kept, "keep", 4), "the destination was changed");
  free(kept);
  wo.validate = 0; /* without it the file is written (as before) */
  cr_assert_eq(pcol_builder_write(b2, path, &wo, &err), 0, "%s", err.message);
  unlink(path);
  rmdir(dir);
  pcol_builder_free(b2);
}

Test(format, declared_max_duration_is_checked_and_written_by_coalescing) {
  pcol_builder *b = new_builder();
  uint32_t src, fn, loc, stk;
  cr_assert_eq(pcol_b_source(b, "t", "u", PCOL_NA_I64, &src, NULL), 0);
  pcol_function_row fr = {S(b, "f"), 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_function(b, &fr, &fn, NULL), 0);
  pcol_line_row l = {fn, 1, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &l, 1, &loc, NULL), 0);
  cr_assert_eq(pcol_b_stack(b, &loc, 1, &stk, NULL), 0);
  for (int i = 0; i < 6; i++) { /* one run of 6 ticks 10 ns apart */
    pcol_sample_row s = {src, i * 10, 0, 1, PCOL_NA_I64, stk, 0};
    cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  }
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_coalesce(b, &err), 0, "%s", err.message);
  void *mem;
  pcol_file *f = tu_reopen(b, NULL, &mem); /* validates fully */
  pcol_str v;
  cr_assert_eq(pcol_meta_get(f, src, "pcol.max_duration_ns", &v, NULL), 0);
  cr_assert(v.len == 2 && !memcmp(v.ptr, "60", 2), "got %.*s", (int)v.len, v.ptr);
  pcol_close(f);
  free(mem);
  /* a declared value below a real duration is invalid */
  cr_assert_eq(pcol_b_meta_str(b, 0, "unrelated", "x", &err), 0);
  pcol_builder *b2 = new_builder();
  cr_assert_eq(pcol_b_source(b2, "t", "u", PCOL_NA_I64, &src, &err), 0);
  pcol_sample_row s = {src, 0, 30, 3, PCOL_NA_I64, 0, 0};
  cr_assert_eq(pcol_b_sample(b2, &s, NULL, 0, NULL, &err), 0);
  cr_assert_eq(pcol_b_meta_str(b2, src, "pcol.max_duration_ns", "5", &err), 0);
  size_t len;
  cr_assert_eq(pcol_builder_write_mem(b2, NULL, &mem, &len, &err), 0);
  cr_assert_eq(pcol_open_buffer(mem, len, NULL, &f, &err), 0);
  cr_assert_eq(pcol_validate_full(f, &err), PCOL_ECORRUPT);
  cr_assert(strstr(err.message, "longest duration"), "%s", err.message);
  pcol_close(f);
  free(mem);
  pcol_builder_free(b);
  pcol_builder_free(b2);
}

/* A label set is a set of keys: the same labels with their keys in another
 * order (Go writes them in map order) get the same id, small sets and large
 * ones alike; the values of one key keep their order, as pprof's
 * Sample.Label[k] does (its merge key sorts the keys, not the values), so
 * k=w,v is another set than k=v,w. */
Test(format, label_set_order_is_canonical) {
  pcol_builder *b = NULL;
  cr_assert_eq(pcol_builder_new(&b, NULL), 0);
  pcol_label_row ab[] = {{S(b, "worker"), S(b, "1"), 0, 0}, {S(b, "phase"), S(b, "x"), 0, 0},
                         {S(b, "bytes"), 0, 512, S(b, "bytes")}};
  pcol_label_row ba[] = {ab[2], ab[0], ab[1]};
  uint32_t id1, id2, id3, id4;
  cr_assert_eq(pcol_b_labelset(b, ab, 3, &id1, NULL), 0);
  cr_assert_eq(pcol_b_labelset(b, ba, 3, &id2, NULL), 0);
  cr_assert_eq(id1, id2, "one set in two orders");
  cr_assert_eq(pcol_b_labelset(b, ab, 2, &id3, NULL), 0);
  cr_assert_neq(id1, id3, "a subset is another set");
  pcol_label_row big[40], rev[40];
  char k[16];
  for (int i = 0; i < 40; i++) {
    snprintf(k, sizeof k, "k%02d", i);
    big[i] = (pcol_label_row){S(b, k), S(b, "v"), 0, 0};
    rev[39 - i] = big[i];
  }
  big[5].str = S(b, "w"); /* two values of one key, w before v */
  big[6].key = big[5].key;
  rev[33] = big[5];
  rev[34] = big[6];
  cr_assert_eq(pcol_b_labelset(b, big, 40, &id3, NULL), 0);
  cr_assert_eq(pcol_b_labelset(b, rev, 40, &id4, NULL), 0);
  cr_assert_eq(id3, id4, "a large set in reverse order, a key's values in theirs");
  rev[33] = big[6]; /* v before w */
  rev[34] = big[5];
  uint32_t id5;
  cr_assert_eq(pcol_b_labelset(b, rev, 40, &id5, NULL), 0);
  cr_assert_neq(id3, id5, "a key's values in another order are another set");
  pcol_builder_free(b);
}

/* Format 1.3 with values spanning all of int64 in few rows (a damaged
 * pprof a fuzz test made: 1 exception allowed in 64 rows means none in
 * three): a lane no window can hold stays plain instead of being written
 * as zeros; every value reads back, and full validation (the per-source
 * summary's totals, F7) agrees. */
Test(format, encoded_lanes_keep_values_spanning_int64) {
  static const int64_t vals[][3] = {{1, 4096, 10000000},
                                    {2, INT64_MAX - 8191, -20000000},
                                    {0, INT64_MIN, INT64_MAX}};
  for (int rows = 3; rows <= 300; rows += 297) {
    pcol_builder *b = rich_profile();
    uint32_t vt[3];
    static const char *names[3] = {"samples", "alloc", "cpu"};
    for (int k = 0; k < 3; k++)
      cr_assert_eq(pcol_b_value_type(b, S(b, names[k]), S(b, "count"), &vt[k], NULL), 0);
    for (int i = 0; i < rows; i++) {
      pcol_sample_row s = {2, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 1, 0};
      pcol_value_row v[3];
      for (int k = 0; k < 3; k++) v[k] = (pcol_value_row){vt[k], vals[i % 3][k]};
      cr_assert_eq(pcol_b_sample(b, &s, v, 3, NULL, NULL), 0);
    }
    void *mem;
    pcol_file *f = tu_reopen(b, NULL, &mem); /* validates in full */
    pcol_view vv = col(f, PCOL_T_VALUES, PCOL_C_V_VALUE);
    uint64_t n0 = pcol_rows(f, PCOL_T_VALUES) - 3 * (uint64_t)rows; /* rich_profile's own values first */
    for (int i = 0; i < rows; i++)
      for (int k = 0; k < 3; k++)
        cr_assert_eq(pcol_view_i64(&vv, n0 + 3 * (uint64_t)i + k), vals[i % 3][k], "row %d value %d", i, k);
    pcol_close(f);
    free(mem);
    pcol_builder_free(b);
  }
}

/* The encoder's choice (enc_write.c) against a count made directly: on
 * columns with slopes, lanes and outliers, each chosen lane's exceptions
 * are the values its window misses, and its cost is the least of every
 * (step, width, anchor) the encoder weighs (its passes count the misses
 * only where a width cannot hold the lane's range). */
typedef struct enc_col {
  const uint8_t *d;
  size_t n;
  unsigned ew; /* element width */
} enc_col;
static int enc_col_each(void *src, int (*f)(void *ctx, const void *d, size_t n), void *ctx) {
  const enc_col *c = src;
  /* pieces of whole elements, as a spilled column comes: 1, 2 and 5
   * elements (fewer than a piece's lanes, or than twice them), then the
   * rest in two halves, so that lanes and rows run on across pieces */
  static const size_t first[3] = {1, 2, 5};
  size_t at = 0;
  for (int i = 0; i < 3 && at + first[i] * c->ew <= c->n; i++) {
    if (f(ctx, c->d + at, first[i] * c->ew)) return 1;
    at += first[i] * c->ew;
  }
  size_t half = (c->n - at) / 2 / c->ew * c->ew;
  return f(ctx, c->d + at, half) || f(ctx, c->d + at + half, c->n - at - half);
}
static __int128 enc_value(const uint8_t *p, pcol_type t) {
  uint64_t x = 0;
  memcpy(&x, p, t == PCOL_TYPE_U32 ? 4 : 8);
  return t == PCOL_TYPE_U32 ? (__int128)(uint32_t)x : t == PCOL_TYPE_I64 ? (__int128)(int64_t)x : (__int128)x;
}
static uint64_t enc_next(uint64_t *seed) {
  *seed = *seed * 6364136223846793005u + 1442695040888963407u;
  return *seed >> 17;
}
Test(format, encoder_counts_what_each_window_misses) {
  static const pcol_type types[3] = {PCOL_TYPE_U32, PCOL_TYPE_I64, PCOL_TYPE_U64};
  static const unsigned widths[4] = {1, 2, 4, 8};
  uint64_t seed = 0x9e3779b97f4a7c15u;
  int chosen = 0, with_exc = 0;
  for (int trial = 0; trial < 400; trial++) {
    pcol_type t = types[trial % 3];
    unsigned ew = t == PCOL_TYPE_U32 ? 4 : 8;
    uint32_t k = 1 + (uint32_t)(enc_next(&seed) % 4);
    uint64_t count = k * (1 + enc_next(&seed) % 700);
    unsigned min_width = trial % 5 == 0 ? 1 + (unsigned)(enc_next(&seed) % 2) : 0;
    int64_t slope = trial % 4 == 0 ? 0 : (int64_t)(enc_next(&seed) % 1000) - 300;
    uint64_t noise = (uint64_t)1 << (enc_next(&seed) % 20), every = 20 + enc_next(&seed) % 200;
    uint8_t *d = malloc(count * ew);
    for (uint64_t i = 0; i < count; i++) {
      int64_t v = 1000000 + (int64_t)(i / k) * slope + (int64_t)(enc_next(&seed) % noise) + (int64_t)(i % k) * 77777;
      if (enc_next(&seed) % every == 0) {
        int64_t sign = enc_next(&seed) % 2 ? 1 : -1;
        v += sign * (int64_t)(enc_next(&seed) % ((uint64_t)1 << 40));
      }
      if (t == PCOL_TYPE_U32) {
        uint32_t u = (uint32_t)v;
        memcpy(d + i * 4, &u, 4);
      } else {
        memcpy(d + i * 8, &v, 8);
      }
    }
    enc_col c = {d, count * ew, ew};
    pcol_enc_plan p;
    if (pcol_enc_choose(enc_col_each, &c, t, count, k, min_width, &p)) {
      chosen++;
      for (uint32_t j = 0; j < p.k; j++) {
        const pcol_enc_lane *l = &p.lanes[j];
        uint64_t rows = count > j ? (count - j - 1) / p.k + 1 : 0;
        /* the lane's values as the encoder sees them, by step */
        __int128 first = enc_value(d + (uint64_t)j * ew, t);
        __int128 last = enc_value(d + ((uint64_t)j + (rows - 1) * p.k) * ew, t);
        __int128 steps[2] = {0, rows > 1 ? (last - first) / (__int128)(rows - 1) : 0};
        int nst = steps[1] != 0 && steps[1] >= INT64_MIN && steps[1] <= INT64_MAX ? 2 : 1;
        uint64_t best = UINT64_MAX, got = UINT64_MAX, miss_chosen = UINT64_MAX;
        for (int st = 0; st < nst; st++) {
          __int128 lo = 0, hi = 0;
          for (uint64_t r = 0; r < rows; r++) {
            __int128 x = enc_value(d + (j + r * p.k) * ew, t) - (__int128)r * steps[st];
            if (r == 0 || x < lo) lo = x;
            if (r == 0 || x > hi) hi = x;
          }
          if (hi == lo && !min_width) best = 0;
          for (int wi = 0; wi < 4; wi++)
            for (int a = 0; a < 2; a++) {
              __int128 span = ((__int128)1 << (8 * widths[wi])) - 2, wl = a ? hi - span : lo;
              uint64_t miss = 0;
              for (uint64_t r = 0; r < rows; r++) {
                __int128 x = enc_value(d + (j + r * p.k) * ew, t) - (__int128)r * steps[st];
                miss += x < wl || x > wl + span;
              }
              if (steps[st] == l->step_exact && wl == l->lo && widths[wi] == l->width) miss_chosen = miss;
              /* (a u32 column's exceptions are outliers: 1 row in 64 at most) */
              if (widths[wi] < min_width || (t == PCOL_TYPE_U32 && miss > rows / 64)) continue;
              uint64_t cost = rows * widths[wi] + miss * 16;
              if (cost < best) best = cost;
            }
        }
        got = l->width ? rows * l->width + (uint64_t)l->nexc * 16 : 0;
        if (l->width) cr_assert_eq(l->nexc, miss_chosen, "trial %d lane %u: %u exceptions, %llu missed",
                                   trial, j, l->nexc, (unsigned long long)miss_chosen);
        cr_assert_eq(got, best, "trial %d lane %u: cost %llu, least %llu", trial, j,
                     (unsigned long long)got, (unsigned long long)best);
        with_exc += l->nexc > 0;
      }
      pcol_enc_plan_free(&p);
    }
    free(d);
  }
  cr_assert_gt(chosen, 200, "the columns were mostly encoded (%d of 400)", chosen);
  cr_assert_gt(with_exc, 20, "lanes with exceptions were chosen (%d)", with_exc);
}

/* pcol_builder_write_image (writer.h): the image a view reads has its
 * columns plain while the file has at most PCOL_IMAGE_PLAIN_BYTES, and is
 * then read like the encoded file; past the bound (600k samples of two
 * values: 21.6 MB plain, ~12 MB held: its plain plan is made, then dropped)
 * it is the file pcol_builder_write_mem writes, byte for byte. */
static pcol_builder *image_profile(int n) {
  /* as an importer builds one: samples of a stack and two values, their
   * other columns default (lazy: not held), the values' offsets and types
   * implicit (held as nothing, written 12 bytes a sample when plain) */
  pcol_builder *b = new_builder();
  uint32_t src, vt[2], fn, loc[2], stk[2];
  cr_assert_eq(pcol_b_source(b, "test", "mem://image", 1700000000, &src, NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "samples"), S(b, "count"), &vt[0], NULL), 0);
  cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "nanoseconds"), &vt[1], NULL), 0);
  pcol_function_row f = {S(b, "main"), 0, S(b, "main.c"), 1};
  cr_assert_eq(pcol_b_function(b, &f, &fn, NULL), 0);
  for (int k = 0; k < 2; k++) {
    pcol_line_row l = {fn, 10 + k, PCOL_NA_I64};
    cr_assert_eq(pcol_b_location(b, 0, 0x1000 + (uint64_t)k, 0, &l, 1, &loc[k], NULL), 0);
    cr_assert_eq(pcol_b_stack(b, &loc[k], 1, &stk[k], NULL), 0);
  }
  for (int i = 0; i < n; i++) {
    pcol_sample_row s = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, stk[i % 3 == 0], 0};
    pcol_value_row v[2] = {{vt[0], 1}, {vt[1], 10000000 + (int64_t)(i % 7) * 1000}};
    cr_assert_eq(pcol_b_sample(b, &s, v, 2, NULL, NULL), 0);
  }
  return b;
}
Test(format, image_is_plain_under_its_bound_and_the_written_file_past_it) {
  pcol_error err = {0};
  /* under: plain (no column encoded: the header says 1.2), the same top */
  void *mi, *mw;
  size_t li, lw;
  pcol_builder *b = image_profile(5000);
  cr_assert_eq(pcol_builder_write_image(b, &mi, &li, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &mw, &lw, &err), 0, "%s", err.message);
  pcol_builder_free(b);
  pcol_file *fi, *fw;
  cr_assert_eq(pcol_open_buffer(mi, li, NULL, &fi, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_open_buffer(mw, lw, NULL, &fw, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(fi, &err), 0, "%s", err.message);
  pcol_header_info hi, hw;
  pcol_file_header(fi, &hi);
  pcol_file_header(fw, &hw);
  cr_assert_eq(hi.minor, 2, "the image has an encoded column (format 1.%u)", hi.minor);
  cr_assert_eq(hw.minor, 3, "the written file has no encoded column (format 1.%u)", hw.minor);
  cr_assert_gt(li, lw, "plain (%zu bytes) is not larger than encoded (%zu)", li, lw);
  pcol_top t[2];
  pcol_file *fs[2] = {fi, fw};
  for (int k = 0; k < 2; k++) {
    pcol_value_sel v;
    cr_assert_eq(pcol_value_resolve(fs[k], NULL, NULL, &v, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_top_compute(fs[k], NULL, &v, PCOL_BY_FUNCTION, &t[k], &err), 0, "%s", err.message);
  }
  cr_assert_eq(t[0].nrows, t[1].nrows);
  cr_assert(t[0].total == t[1].total && t[0].total > 0);
  for (size_t i = 0; i < t[0].nrows; i++)
    cr_assert(t[0].rows[i].flat == t[1].rows[i].flat && t[0].rows[i].cum == t[1].rows[i].cum &&
                  t[0].rows[i].name.len == t[1].rows[i].name.len &&
                  !memcmp(t[0].rows[i].name.ptr, t[1].rows[i].name.ptr, t[0].rows[i].name.len),
              "row %zu", i);
  pcol_top_free(&t[0]);
  pcol_top_free(&t[1]);
  pcol_close(fi);
  pcol_close(fw);
  free(mi);
  free(mw);
  /* past: the written file's bytes */
  pcol_builder *b1 = image_profile(600000), *b2 = image_profile(600000);
  cr_assert_eq(pcol_builder_write_image(b1, &mi, &li, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_builder_write_mem(b2, NULL, &mw, &lw, &err), 0, "%s", err.message);
  cr_assert_eq(li, lw, "past the bound, the image has %zu bytes, the written file %zu", li, lw);
  cr_assert(!memcmp(mi, mw, li), "past the bound, the image is not the written file");
  pcol_builder_free(b1);
  pcol_builder_free(b2);
  free(mi);
  free(mw);
}

/* The memo of the passes over meta (reader.h): ids that share a slot (the
 * same low 6 bits) never answer for each other, and 2^32 - 1 is never kept. */
Test(format, idmemo_keeps_ids_that_share_a_slot_apart) {
  pcol_idmemo m = {{0}, {0}};
  uint8_t v = 9;
  cr_assert(!pcol_idmemo_get(&m, 0, &v), "an empty memo knows nothing, not even id 0");
  pcol_idmemo_put(&m, 5, 1);
  cr_assert(pcol_idmemo_get(&m, 5, &v) && v == 1);
  cr_assert(!pcol_idmemo_get(&m, 5 + 64, &v), "id 69 shares 5's slot but is not 5");
  pcol_idmemo_put(&m, 5 + 64, 2);
  cr_assert(pcol_idmemo_get(&m, 69, &v) && v == 2);
  cr_assert(!pcol_idmemo_get(&m, 5, &v), "5 was pushed out of the slot, not answered as 69");
  pcol_idmemo_put(&m, UINT32_MAX, 3);
  cr_assert(!pcol_idmemo_get(&m, UINT32_MAX, &v), "id 2^32 - 1 (its + 1 wraps to empty)");
  cr_assert(!pcol_idmemo_get(&m, 63, &v));
}

/* Review 20b F4: a merge of a timed source without values (Rprof, a
 * weight-only profile) and an untimed one with k values (pprof) was ~3x
 * its inputs: the NA times of the second source made the first's time
 * column plain (its slope taken from an NA, and exceptions capped at one
 * row in 64), the value offsets 0 ... 0, k, 2k, ... 4 bytes a row, and the
 * values one lane.  The file's size is deterministic: it is at most the
 * inputs' plus what a row of the merge must pay in this format (a source
 * id byte; a code byte of time and of value offset; an exception, 16
 * bytes, for each untimed row's time and each valued row's offset). */
static void f4_source(pcol_builder *b, int which, int n) {
  uint32_t src, vt[2], fn, loc[4], stk[4];
  cr_assert_eq(pcol_b_source(b, which ? "pprof" : "rprof", which ? "mem://b" : "mem://a", 1700000000,
                             &src, NULL), 0);
  if (which) {
    cr_assert_eq(pcol_b_value_type(b, S(b, "samples"), S(b, "count"), &vt[0], NULL), 0);
    cr_assert_eq(pcol_b_value_type(b, S(b, "cpu"), S(b, "nanoseconds"), &vt[1], NULL), 0);
  }
  pcol_function_row f = {S(b, which ? "g" : "f"), 0, S(b, "main.c"), 1};
  cr_assert_eq(pcol_b_function(b, &f, &fn, NULL), 0);
  for (int k = 0; k < 4; k++) {
    pcol_line_row l = {fn, 10 + k, PCOL_NA_I64};
    cr_assert_eq(pcol_b_location(b, 0, 0x1000 + (uint64_t)k, 0, &l, 1, &loc[k], NULL), 0);
    cr_assert_eq(pcol_b_stack(b, &loc[k], 1, &stk[k], NULL), 0);
  }
  for (int i = 0; i < n; i++) {
    /* times 20 ms apart, a little late (gen_profile's Rprof ticks: a byte a
     * row encoded); none in pprof */
    int64_t t = which ? PCOL_NA_I64 : 20000000 * (int64_t)i + (int64_t)((uint64_t)i * 7919 % 97) * 2;
    pcol_sample_row s = {src, t, 0, 1, PCOL_NA_I64, stk[i % 4], 0};
    pcol_value_row v[2] = {{vt[0], 1 + i % 3}, {vt[1], 10000000 * (int64_t)(1 + i % 3)}};
    cr_assert_eq(pcol_b_sample(b, &s, which ? v : NULL, which ? 2 : 0, NULL, NULL), 0);
  }
}
static size_t f4_size(int a, int b, int n, int m, pcol_file **out, void **mem) {
  pcol_builder *bl = new_builder();
  if (a) f4_source(bl, 0, n);
  if (b) f4_source(bl, 1, m);
  size_t len = 0;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_write_mem(bl, NULL, mem, &len, &err), 0, "%s", err.message);
  pcol_builder_free(bl);
  if (out) {
    cr_assert_eq(pcol_open_buffer(*mem, len, NULL, out, &err), 0, "%s", err.message);
    cr_assert_eq(pcol_validate_full(*out, &err), 0, "%s", err.message);
  }
  return len;
}
Test(format, merge_of_timed_and_untimed_sources_is_not_larger_than_its_inputs_much) {
  const int n = 20000, m = 2500; /* m / (n + m) = 11%: over one row in 64 */
  void *ma, *mb, *mab;
  pcol_file *f = NULL;
  size_t a = f4_size(1, 0, n, m, NULL, &ma), b = f4_size(0, 1, n, m, NULL, &mb);
  size_t ab = f4_size(1, 1, n, m, &f, &mab);
  size_t bound = a + b + 3 * (size_t)(n + m) + 2 * 16 * (size_t)m + 1024;
  cr_assert_leq(ab, bound, "merged %zu bytes, inputs %zu + %zu: over %zu", ab, a, b, bound);
  /* the columns: time and value offsets encoded, the values in 2 lanes */
  for (uint32_t i = 0; i < pcol_section_count(f); i++) {
    pcol_section_info si;
    cr_assert_eq(pcol_section_get(f, i, &si, NULL), PCOL_OK);
    if (si.table == PCOL_T_SAMPLES && (si.column == PCOL_C_S_TIME || si.column == PCOL_C_S_VALUE_OFFSETS))
      cr_assert_leq(si.stored_size, (uint64_t)(n + m) + 16 * (uint64_t)m + 64, "samples column %u: %llu bytes",
                    si.column, (unsigned long long)si.stored_size);
    if (si.table == PCOL_T_VALUES && si.column == 1)
      cr_assert_leq(si.stored_size, 64, "value types in lanes: %llu bytes", (unsigned long long)si.stored_size);
  }
  pcol_close(f);
  free(ma), free(mb), free(mab);
}
