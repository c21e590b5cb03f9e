/* fuzz_unwrap.h — the import of a path (pcol_import_path: unwrapping gzip,
 * zstd, lz4 frames and skippable frames, lib/core/instream.c, then
 * detection and the importer lib/convert/detect.c picks): the work of
 * fuzz_unwrap.c, shared with the gcc replay test (tests/test_fuzz_replay.c).
 *
 * The input is imported as a file (a memfd, a regular file) or, one input
 * in two, as standard input fed by a pipe (the path of a compressed pipe:
 * the head kept for pprof's second reading).  What must hold:
 *  - a refusal explains itself and names the input ("fuzz-input");
 *  - an import that succeeds writes a file that opens and validates;
 *  - an input that is not compressed imports as it does wrapped in gzip,
 *    zstd or an lz4 frame (split into two members or frames, behind a
 *    skippable frame, by the input's size): both succeed with the same
 *    samples, or both fail. */
#ifndef PCOL_FUZZ_UNWRAP_H
#define PCOL_FUZZ_UNWRAP_H
#include "fuzz_common.h"
#include "instream.h" /* pcol_compression */
#include <fcntl.h>
#include <stdio_ext.h> /* __fpurge */
#include <sys/mman.h>  /* memfd_create */
#include <unistd.h>
#include <zstd.h>
#include <lz4frame.h>

#define FZ_UNWRAP_NAME "fuzz-input"

/* data[0..size) as standard input, from a pipe (1), or as a memfd's path
 * (0); -1 when it cannot be set up. */
static inline int fz_unwrap_feed(const uint8_t *data, size_t size, int pipe_in, char *path,
                                 size_t pathlen, int *fd, int *saved_stdin) {
  *fd = -1, *saved_stdin = -1;
  if (pipe_in) {
    int p[2];
    if (pipe2(p, O_CLOEXEC)) return -1;
    (void)fcntl(p[1], F_SETPIPE_SZ, 1 << 20); /* the whole input fits: no writer thread */
    size_t off = 0;
    while (off < size) {
      ssize_t w = write(p[1], data + off, size - off);
      if (w <= 0) break;
      off += (size_t)w;
    }
    close(p[1]);
    if (off < size) {
      close(p[0]);
      return -1;
    }
    __fpurge(stdin); /* nothing of the last input left in stdio's buffer */
    *saved_stdin = dup(0);
    dup2(p[0], 0);
    close(p[0]);
    clearerr(stdin);
    snprintf(path, pathlen, "-");
    return 0;
  }
  *fd = memfd_create("fuzz-unwrap", MFD_CLOEXEC);
  if (*fd < 0) return -1;
  size_t off = 0;
  while (off < size) {
    ssize_t w = write(*fd, data + off, size - off);
    if (w <= 0) break;
    off += (size_t)w;
  }
  if (off < size) {
    close(*fd);
    return -1;
  }
  snprintf(path, pathlen, "/proc/self/fd/%d", *fd);
  return 0;
}

static inline void fz_unwrap_unfeed(int fd, int saved_stdin) {
  if (fd >= 0) close(fd);
  if (saved_stdin >= 0) {
    __fpurge(stdin);
    clearerr(stdin);
    dup2(saved_stdin, 0);
    close(saved_stdin);
  }
}

/* Imports data as a path; the builder (or NULL when the import failed). */
static inline pcol_builder *fz_unwrap_import(const uint8_t *data, size_t size, int pipe_in) {
  char path[64];
  int fd, saved;
  if (fz_unwrap_feed(data, size, pipe_in, path, sizeof path, &fd, &saved)) return NULL;
  static const char *const names[] = {FZ_UNWRAP_NAME};
  pcol_import_options io = {.max_input_bytes = FZ_MAX_INPUT, .names = names};
  pcol_builder *b = NULL;
  pcol_error err = {0};
  if (pcol_builder_new(&b, &err)) fz_fail("builder_new", &err);
  int rc = pcol_import_path(b, path, PCOL_FMT_UNKNOWN, &io, &err);
  fz_unwrap_unfeed(fd, saved);
  if (rc) {
    if (rc != PCOL_EUNSUPPORTED && rc != PCOL_ENOMEM && err.message[0] == 0)
      fz_fail("a failed import explains itself", &err);
    if (rc != PCOL_ENOMEM && !strstr(err.message, FZ_UNWRAP_NAME))
      fz_fail("a refusal names its input", &err);
    pcol_builder_free(b);
    return NULL;
  }
  return b;
}

/* data wrapped in kind (0 gzip, 1 zstd, 2 lz4 frame), in two members or
 * frames when split, behind an empty skippable frame when skip (zstd,
 * lz4); malloc'd, or NULL. */
static inline uint8_t *fz_wrap(const uint8_t *data, size_t size, int kind, int split, int skip,
                               size_t *outlen) {
  size_t cut = split ? size / 2 : size, cap = 64 + 2 * (size + 1024);
  uint8_t *out = malloc(cap);
  if (!out) return NULL;
  size_t n = 0;
  if (skip && kind) {
    static const uint8_t sk[12] = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'p', 'c', 'o', 'l'};
    memcpy(out, sk, sizeof sk);
    n = sizeof sk;
  }
  for (int part = 0; part < 2; part++) {
    const uint8_t *src = part ? data + cut : data;
    size_t len = part ? size - cut : cut;
    if (part && !split) break;
    if (kind == 0) {
      z_stream zs;
      memset(&zs, 0, sizeof zs);
      if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) break;
      zs.next_in = (Bytef *)(uintptr_t)src;
      zs.avail_in = (uInt)len;
      zs.next_out = out + n;
      zs.avail_out = (uInt)(cap - n);
      int zr = deflate(&zs, Z_FINISH);
      n += cap - n - zs.avail_out;
      deflateEnd(&zs);
      if (zr != Z_STREAM_END) goto fail;
    } else if (kind == 1) {
      size_t r = ZSTD_compress(out + n, cap - n, src, len, 1);
      if (ZSTD_isError(r)) goto fail;
      n += r;
    } else {
      size_t r = LZ4F_compressFrame(out + n, cap - n, src, len, NULL);
      if (LZ4F_isError(r)) goto fail;
      n += r;
    }
  }
  *outlen = n;
  return out;
fail:
  free(out);
  return NULL;
}

static inline void fz_unwrap_one(const uint8_t *data, size_t size) {
  int pipe_in = (size & 4) != 0;
  pcol_builder *b = fz_unwrap_import(data, size, pipe_in);
  if (b) fz_check_builder(b, (int)(size % 4));
  /* the same bytes wrapped: the same import */
  int kind = (int)((size >> 3) % 3);
  size_t wlen = 0;
  uint8_t *w = NULL;
  /* (a compressed input inside another is not unwrapped twice) */
  if (size && size <= (256u << 10) && !pcol_compression(data, size))
    w = fz_wrap(data, size, kind, (size & 16) != 0, (size & 32) != 0, &wlen);
  if (w) {
    pcol_builder *c = fz_unwrap_import(w, wlen, !pipe_in);
    if (!b != !c) {
      char m[160];
      snprintf(m, sizeof m, "an input imports as it does in %s (plain: %s, wrapped: %s)",
               kind == 0 ? "gzip" : kind == 1 ? "zstd" : "lz4", b ? "ok" : "refused", c ? "ok" : "refused");
      fz_fail(m, NULL);
    }
    if (b && c && pcol_b_sample_count(b) != pcol_b_sample_count(c))
      fz_fail("an input has the samples it has wrapped", NULL);
    pcol_builder_free(c);
    free(w);
  }
  pcol_builder_free(b);
}

#endif
