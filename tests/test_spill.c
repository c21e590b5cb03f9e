/* test_spill.c — a builder's sample and value columns spilled to temporary
 * files (lib/core/spill.c, issue 29) give the same pcol file, byte for
 * byte, as the same builder held in memory: raw, LZ4 and zstd, coalesced,
 * written to memory, and through every late change of a column's storage
 * (a lazy column's first non-default value, the implicit value offsets
 * stored once a sample's value types differ) that comes after spilling
 * began.  The spill threshold (pcol_sample_spill_bytes, 16 MiB) is
 * lowered so that small builders take that path; that they did is seen in
 * /proc/self/fd (the unlinked "pcol-samples" files). */
#include "testutil.h"
#include "spill.h"    /* pcol_sample_spill_bytes */
#include <dirent.h>
#include <sys/stat.h>

/* Open unlinked temporary files of spilled columns (and, bytes not NULL,
 * their summed size). */
static int spill_files_open_bytes(uint64_t *bytes) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  if (bytes) *bytes = 0;
  while ((e = readdir(d))) {
    char p[300], t[4096];
    snprintf(p, sizeof p, "/proc/self/fd/%s", e->d_name);
    ssize_t k = readlink(p, t, sizeof t - 1);
    if (k <= 0) continue;
    t[k] = 0;
    if (strstr(t, "pcol-samples-") && strstr(t, "(deleted)")) {
      n++;
      struct stat st;
      if (bytes && stat(p, &st) == 0) *bytes += (uint64_t)st.st_size;
    }
  }
  closedir(d);
  return n;
}
static int spill_files_open(void) { return spill_files_open_bytes(NULL); }

/* n samples whose columns change storage at chosen rows: weight leaves its
 * default at late_weight, a second value type appears at late_vt (both 0:
 * never), duration stays default throughout (never stored). */
static pcol_builder *build(uint64_t n, uint64_t late_weight, uint64_t late_vt, int *spilled) {
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  uint32_t src, ty, unit, ty2, vt, vt2, fn[5], loc[5], key, lsv[3];
  cr_assert_eq(pcol_b_source(b, "perf", "spill.txt", PCOL_NA_I64, &src, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, "cycles", &ty, &err) | pcol_b_cstr(b, "count", &unit, &err) |
                   pcol_b_cstr(b, "instructions", &ty2, &err) | pcol_b_cstr(b, "tid", &key, &err), 0);
  cr_assert_eq(pcol_b_value_type(b, ty, unit, &vt, &err) | pcol_b_value_type(b, ty2, unit, &vt2, &err), 0);
  cr_assert_eq(pcol_b_source_value_type(b, src, vt, &err) | pcol_b_source_value_type(b, src, vt2, &err), 0);
  for (int i = 0; i < 5; i++) {
    char name[16];
    snprintf(name, sizeof name, "f%d", i);
    pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
    pcol_line_row l = {0, 10 + i, PCOL_NA_I64};
    cr_assert_eq(pcol_b_cstr(b, name, &f.name, &err) | pcol_b_function(b, &f, &fn[i], &err), 0);
    l.function_id = fn[i];
    cr_assert_eq(pcol_b_location(b, 0, 0x1000 + (uint64_t)i, 0, &l, 1, &loc[i], &err), 0);
  }
  for (int i = 0; i < 3; i++) {
    pcol_label_row lab = {key, 0, 100 + i, 0};
    cr_assert_eq(pcol_b_labelset(b, &lab, 1, &lsv[i], &err), 0);
  }
  for (uint64_t i = 0; i < n; i++) {
    uint32_t st, locs[3] = {loc[i % 5], loc[(i / 5) % 5], loc[(i / 25) % 5]};
    cr_assert_eq(pcol_b_stack(b, locs, 1 + i % 3, &st, &err), PCOL_OK);
    /* runs of equal, evenly spaced samples, for coalescing */
    pcol_sample_row s = {src, (int64_t)(1000 + i * 10), 0, 1, PCOL_NA_I64, (i / 4) % 7 ? st : 0,
                         lsv[(i / 8) % 3]};
    if (late_weight && i >= late_weight && i % 3 == 0) s.weight = 2;
    pcol_value_row v[2] = {{vt, (int64_t)(i / 4 % 5) * 1000}, {vt2, (int64_t)i}};
    size_t nv = late_vt && i >= late_vt && i % 2 ? 2 : 1;
    cr_assert_eq(pcol_b_sample(b, &s, v, nv, NULL, &err), PCOL_OK);
    if (i % 1000 == 7) cr_assert_eq(pcol_b_text_line(b, src, i + 1, "# text", 6, &err), PCOL_OK);
  }
  *spilled = spill_files_open();
  return b;
}

/* The file of the builder (opt, coalesced or not), in memory. */
static void *file_of(uint64_t n, uint64_t lw, uint64_t lv, size_t threshold, int coalesce,
                     const pcol_write_options *opt, size_t *len, int *spilled) {
  size_t keep = pcol_sample_spill_bytes;
  pcol_sample_spill_bytes = threshold;
  pcol_builder *b = build(n, lw, lv, spilled);
  pcol_error err = {0};
  void *out = NULL;
  if (coalesce) cr_assert_eq(pcol_builder_coalesce(b, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_builder_write_mem(b, opt, &out, len, &err), PCOL_OK, "%s", err.message);
  pcol_builder_free(b);
  pcol_sample_spill_bytes = keep;
  cr_assert_eq(spill_files_open(), 0, "the builder's temporary files stay open after free");
  return out;
}

static void same(uint64_t n, uint64_t lw, uint64_t lv, int coalesce, const pcol_write_options *opt,
                 const char *what) {
  size_t la, lb;
  int sa, sb;
  void *a = file_of(n, lw, lv, 0, coalesce, opt, &la, &sa);
  void *b = file_of(n, lw, lv, 4096, coalesce, opt, &lb, &sb);
  cr_assert_eq(sa, 0, "%s: spilled with the threshold at 0", what);
  cr_assert_gt(sb, 0, "%s: no column was spilled", what);
  cr_assert_eq(lb, la, "%s: %zu bytes spilled, %zu in memory", what, lb, la);
  cr_assert(memcmp(a, b, la) == 0, "%s: the pcol files differ", what);
  /* and the file is valid */
  pcol_file *f = NULL;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(b, lb, NULL, &f, &err), PCOL_OK, "%s: %s", what, err.message);
  cr_assert_eq(pcol_validate_full(f, &err), PCOL_OK, "%s: %s", what, err.message);
  pcol_close(f);
  free(a);
  free(b);
}

Test(spill, raw_file_identical) {
  pcol_write_options v12 = {.format_version = 2};
  same(20000, 0, 0, 0, NULL, "raw");
  same(20000, 0, 0, 0, &v12, "raw, format 1.2");
}

Test(spill, late_column_changes_identical) {
  /* weight stored and value offsets made explicit long after spilling */
  pcol_write_options v12 = {.format_version = 2};
  same(20000, 15000, 17000, 0, NULL, "late changes");
  same(20000, 15000, 17000, 0, &v12, "late changes, format 1.2");
}

Test(spill, compressed_identical) {
  pcol_write_options lz4 = {.compress_lz4 = 1}, zstd = {.compress_zstd = 1};
  same(20000, 15000, 17000, 0, &lz4, "lz4");
  same(20000, 15000, 17000, 0, &zstd, "zstd");
}

Test(spill, coalesced_identical) {
  same(20000, 0, 0, 1, NULL, "coalesced");
  same(20000, 15000, 17000, 1, NULL, "coalesced, late changes");
}

/* A process started with stdin closed: the first temporary file would be
 * fd 0, which a builder's zeroed state reads as "no file yet" (each flush
 * then opened another file, and the column lost its first part). */
Test(spill, stdin_closed_identical) {
  close(0);
  same(20000, 0, 0, 0, NULL, "stdin closed");
}

/* Issue 47: spilled columns are compressed.  200k pprof-like samples (two
 * values a sample, both the same constant, stack ids in long runs) hold
 * 4.8 MB of sample and value columns; stored as they were, the temporary
 * files held all of it (20 bytes a sample), more than the encoded output.
 * The implicit value offsets and types never reach a file. */
Test(spill, constant_columns_cost_little_disk) {
  size_t keep = pcol_sample_spill_bytes;
  pcol_sample_spill_bytes = 65536;
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_new(&b, &err), PCOL_OK);
  uint32_t src, ty, unit, ty2, unit2, vt, vt2, fn, loc[64], st[64];
  cr_assert_eq(pcol_b_source(b, "pprof", "c.pb", PCOL_NA_I64, &src, &err), PCOL_OK);
  cr_assert_eq(pcol_b_cstr(b, "samples", &ty, &err) | pcol_b_cstr(b, "count", &unit, &err) |
                   pcol_b_cstr(b, "cpu", &ty2, &err) | pcol_b_cstr(b, "nanoseconds", &unit2, &err), 0);
  cr_assert_eq(pcol_b_value_type(b, ty, unit, &vt, &err) | pcol_b_value_type(b, ty2, unit2, &vt2, &err), 0);
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  cr_assert_eq(pcol_b_cstr(b, "main", &f.name, &err) | pcol_b_function(b, &f, &fn, &err), 0);
  for (int i = 0; i < 64; i++) {
    pcol_line_row l = {fn, 1 + i, PCOL_NA_I64};
    cr_assert_eq(pcol_b_location(b, 0, 0x1000 + (uint64_t)i, 0, &l, 1, &loc[i], &err), 0);
    cr_assert_eq(pcol_b_stack(b, &loc[i], 1, &st[i], &err), PCOL_OK);
  }
  const uint64_t n = 200000;
  for (uint64_t i = 0; i < n; i++) {
    pcol_sample_row s = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, st[(i / 100) % 64], 0};
    pcol_value_row v[2] = {{vt, 1}, {vt2, 20000000}};
    cr_assert_eq(pcol_b_sample(b, &s, v, 2, NULL, &err), PCOL_OK);
  }
  uint64_t disk;
  int files = spill_files_open_bytes(&disk);
  /* stack ids and values: the only columns stored (value offsets and types
   * are implicit, time and the rest default); the threshold's 4 KiB
   * tail makes ~1,200 blocks of a few dozen bytes, each with its 12-byte
   * head (8 before the blocks' crc32: 79.9 KB, 84.6 KB with it) */
  cr_assert_eq(files, 2, "%d spill files", files);
  cr_assert_lt(disk, n * 20 / 40, "%llu bytes of temporary files for %llu of columns",
               (unsigned long long)disk, (unsigned long long)n * 20);
  /* and the file written from them is valid */
  void *out = NULL;
  size_t len;
  cr_assert_eq(pcol_builder_write_mem(b, NULL, &out, &len, &err), PCOL_OK, "%s", err.message);
  pcol_builder_free(b);
  pcol_file *pf = NULL;
  cr_assert_eq(pcol_open_buffer(out, len, NULL, &pf, &err), PCOL_OK, "%s", err.message);
  cr_assert_eq(pcol_validate_full(pf, &err), PCOL_OK, "%s", err.message);
  pcol_close(pf);
  free(out);
  pcol_sample_spill_bytes = keep;
}

/* Review h9 F4: a spilled column's blocks carry a crc32 (spill.c).  A byte
 * of a temporary file changed on disk (here through the process's own fd,
 * as a failing disk or another process would) inflated to other values,
 * and the writer encoded them into a file that did not validate, with
 * PCOL_OK; now the write fails and says where and why, as a truncated file
 * already did.  `damage`: 0 flip a byte inside each file's first block, 1
 * flip one in its head (the stored length), 2 truncate each file to half. */
static int spill_fds(int *fds, int max) {
  DIR *d = opendir("/proc/self/fd");
  cr_assert(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < max) {
    char p[300], t[4096];
    snprintf(p, sizeof p, "/proc/self/fd/%s", e->d_name);
    ssize_t k = readlink(p, t, sizeof t - 1);
    if (k <= 0) continue;
    t[k] = 0;
    if (strstr(t, "pcol-samples-") && strstr(t, "(deleted)")) fds[n++] = atoi(e->d_name);
  }
  closedir(d);
  return n;
}

static void damaged(int damage, int coalesce, const char *want) {
  size_t keep = pcol_sample_spill_bytes;
  pcol_sample_spill_bytes = 4096;
  int spilled, fds[64];
  pcol_builder *b = build(20000, 0, 0, &spilled);
  int n = spill_fds(fds, 64);
  cr_assert_gt(n, 0, "no column was spilled");
  for (int i = 0; i < n; i++) {
    struct stat st;
    cr_assert_eq(fstat(fds[i], &st), 0);
    cr_assert_gt(st.st_size, 12);
    if (damage == 2) {
      cr_assert_eq(ftruncate(fds[i], st.st_size / 2), 0);
      continue;
    }
    uint8_t head[12], x;
    cr_assert_eq(pread(fds[i], head, 12, 0), 12);
    uint32_t m = (uint32_t)head[4] | (uint32_t)head[5] << 8 | (uint32_t)head[6] << 16 | (uint32_t)head[7] << 24;
    /* the body's last byte: one of an LZ4 block's last 5 literals, or a
     * stored block's own, which inflate to another value without a word */
    off_t at = damage == 1 ? 4 : 12 + (off_t)m - 1;
    cr_assert_eq(pread(fds[i], &x, 1, at), 1);
    x ^= damage == 1 ? 0x01 : 0x5a;
    cr_assert_eq(pwrite(fds[i], &x, 1, at), 1);
  }
  pcol_error err = {0};
  void *out = NULL;
  size_t len = 0;
  int rc = coalesce ? pcol_builder_coalesce(b, &err) : pcol_builder_write_mem(b, NULL, &out, &len, &err);
  cr_assert_eq(rc, PCOL_EIO, "damage %d: rc %d (%s)", damage, rc, err.message);
  cr_assert(strstr(err.message, want) && strstr(err.message, "pcol-samples file in TMPDIR="),
            "damage %d: '%s'", damage, err.message);
  cr_assert_null(out);
  pcol_builder_free(b);
  pcol_sample_spill_bytes = keep;
}

Test(spill, damaged_file_refused) {
  setenv("TMPDIR", "/tmp", 1);
  damaged(0, 0, "checksum mismatch in the block at byte 0");
  damaged(1, 0, "checksum mismatch");
  damaged(2, 0, "truncated");
  damaged(0, 1, "checksum mismatch"); /* coalescing reads them back too */
}
