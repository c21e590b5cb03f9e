/* spill.c — a builder's sample and value columns leave memory past
 * pcol_sample_spill_bytes (issue 29: a 1 GB `perf script` file, 2.9M
 * samples, kept 70 MB of sample columns, ~24 bytes a sample, in buffers
 * that doubled as they grew).
 *
 * Each such column then lives in an unlinked temporary file of its own
 * (its first bytes) and its pcol_buf (the bytes after them): every ~1 MiB
 * of them in memory goes to the files.  A file is a run of blocks, each at
 * most 64 KiB of the column compressed on its own (issue 47: stored as
 * they were, 100M pprof samples took ~20 bytes a sample of temporary disk,
 * several times the encoded output; a column of one repeated value, as a
 * pprof profile's values mostly are, now costs a few hundred bytes a
 * block).
 * Appends are the only writes until the builder is written (writer.c reads
 * the blocks back in pieces, or maps a decompressed copy of a column to
 * compress it) or coalesced (pcol_b_unspill reads them back: coalescing
 * rewrites rows in place).  Nothing here fails for want of a temporary
 * file or of disk: the builder then keeps its columns in memory, as it
 * always did, and writes the same bytes. */
#include "pcol.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK */
#include "bytes.h"    /* pcol_rd32, pcol_wr32 */
#include "schema.h"   /* PCOL_MAX_COLUMNS */
#include "buf.h"      /* pcol_buf, pcol_buf_free, pcol_buf_reserve, ... */
#include "builder.h"  /* struct pcol_builder, pcol_colspill */
#include "spill.h"    /* pcol_sample_spill_bytes, pcol_b_col_each, pcol_temp_fd, ... */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <lz4.h>
#include <zlib.h>     /* crc32 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pcol_sample_spill_bytes = (size_t)16 << 20;
/* in memory once spilling: 1 MiB (a 16th of the threshold, so that a
 * test's low threshold spills often) */
static size_t spill_tail(void) {
  size_t t = pcol_sample_spill_bytes / 16;
  return t > ((size_t)1 << 20) ? (size_t)1 << 20 : t ? t : 1;
}
#define PIECE 65536

static const int spill_table[2] = {PCOL_T_SAMPLES, PCOL_T_VALUES};

static pcol_colspill *sp_of(pcol_builder *b, int t, int c) {
  if (c < 0 || c >= PCOL_MAX_COLUMNS) return NULL;
  if (t == PCOL_T_SAMPLES) return &b->spill[0][c];
  if (t == PCOL_T_VALUES) return &b->spill[1][c];
  return NULL;
}
static const pcol_colspill *csp_of(const pcol_builder *b, int t, int c) {
  return sp_of((pcol_builder *)b, t, c);
}

/* THE temporary directory: $TMPDIR, else /tmp (*named: 1 when TMPDIR
 * gave it, for a message that says where) */
static const char *temp_dir(int *named) {
  const char *dir = getenv("TMPDIR");
  *named = dir && *dir;
  return *named ? dir : "/tmp";
}

int pcol_temp_fd(const char *prefix) {
  int named;
  const char *dir = temp_dir(&named);
  char path[4096];
  if (snprintf(path, sizeof path, "%s/%s-XXXXXX", dir, prefix) >= (int)sizeof path) return -1;
  int fd = mkostemp(path, O_CLOEXEC); /* (no process pcol starts inherits it) */
  if (fd < 0) return -1;
  unlink(path);
  /* never 0, 1 or 2 (a process started with them closed): 0 is "no file"
   * in a builder's zeroed state, and the others are someone's output */
  if (fd < 3) {
    int hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    fd = hi;
  }
  return fd;
}

FILE *pcol_temp_file(const char *prefix) {
  int fd = pcol_temp_fd(prefix);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w+b");
  if (!f) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return f;
}

static int write_all(int fd, const uint8_t *p, size_t n, uint64_t off) {
  while (n) {
    ssize_t w = pwrite(fd, p, n, (off_t)off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w, n -= (size_t)w, off += (uint64_t)w;
  }
  return 0;
}

static int read_all(int fd, uint8_t *p, size_t n, uint64_t off) {
  while (n) {
    ssize_t r = pread(fd, p, n, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r, n -= (size_t)r, off += (uint64_t)r;
  }
  return 0;
}

/* A block: u32 column bytes n (1..PIECE), u32 stored bytes m, u32 crc32
 * of those 8 bytes and the m after them, then m bytes: the n bytes as they
 * are when m == n, else one LZ4 block of them.  The crc (review h9 F4): a
 * byte of the file changed on disk inflated to other values, and the
 * writer encoded them into a file that did not validate, exit 0; it is
 * taken over the stored bytes, fewer than the column's, and checked before
 * they are inflated.
 * LZ4, not zstd-1: the writer reads a spilled column once a pass of the
 * encoder (5 passes over the values of 1M three-value pprof samples),
 * and compressing and inflating zstd was 14% of `pcol pack` of them, LZ4
 * 8%; its blocks take about 1.5x the disk (100M pprof samples: 231 MB,
 * zstd 150 MB, for a 410 MB file: bench/results/pack-write-path.md). */
#define BLOCK_HEAD 12
#define BLOCK_MAX LZ4_COMPRESSBOUND(PIECE)

static uint32_t block_crc(const uint8_t *head, const uint8_t *body, size_t m) {
  uLong crc = crc32(crc32(0L, Z_NULL, 0), head, 8);
  return (uint32_t)crc32(crc, body, (uInt)m); /* m <= BLOCK_MAX */
}

/* Appends p[0..n) (n <= PIECE) to s's file as one block. */
static int put_block(pcol_colspill *s, const uint8_t *p, size_t n,
                     uint8_t *scratch) {
  size_t m = n;
  const uint8_t *body = p;
  int z = LZ4_compress_default((const char *)p, (char *)scratch + BLOCK_HEAD, (int)n, BLOCK_MAX);
  if (z > 0 && (size_t)z < n) m = (size_t)z, body = scratch + BLOCK_HEAD;
  pcol_wr32(scratch, (uint32_t)n);
  pcol_wr32(scratch + 4, (uint32_t)m);
  pcol_wr32(scratch + 8, block_crc(scratch, body, m));
  if (body == p) {
    if (write_all(s->fd, scratch, BLOCK_HEAD, s->flen) ||
        write_all(s->fd, p, n, s->flen + BLOCK_HEAD))
      return -1;
  } else if (write_all(s->fd, scratch, BLOCK_HEAD + m, s->flen)) {
    return -1;
  }
  s->flen += BLOCK_HEAD + m;
  s->len += n;
  return 0;
}

/* Moves column (k, c)'s memory part to its file.  0, or -1 (the column is
 * as it was: the file's lengths count only whole successful blocks, and
 * the blocks written before a failure are dropped again). */
static int flush_col(pcol_builder *b, int k, int c) {
  pcol_buf *buf = &b->t[spill_table[k]].cols[c];
  pcol_colspill *s = &b->spill[k][c];
  if (!buf->len) return 0;
  if (!s->fd && (s->fd = pcol_temp_fd("pcol-samples")) < 0) {
    s->fd = 0;
    return -1;
  }
  uint8_t *scratch = malloc(BLOCK_HEAD + BLOCK_MAX);
  if (!scratch) return -1;
  uint64_t len0 = s->len, flen0 = s->flen;
  for (size_t off = 0; off < buf->len; off += PIECE) {
    size_t n = buf->len - off < PIECE ? buf->len - off : PIECE; /* whole elements */
    if (put_block(s, buf->data + off, n, scratch)) {
      s->len = len0, s->flen = flen0;
      free(scratch);
      return -1;
    }
  }
  free(scratch);
  buf->len = 0;
  return 0;
}

static size_t in_memory(const pcol_builder *b) {
  size_t n = 0;
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < PCOL_MAX_COLUMNS; c++) n += b->t[spill_table[k]].cols[c].len;
  return n;
}

/* The builder's implicit columns (builder.c vimplicit) stay in memory: all
 * they hold is the leading offset 0, the rest is made when written. */
static int implicit(const pcol_builder *b, int k, int c) {
  return b->vimplicit && (k == 0 ? c == PCOL_C_S_VALUE_OFFSETS - 1 : c == PCOL_C_V_TYPE - 1);
}

/* The sum of in_memory's 32 columns a sample was 3% of `pcol pack` of 1M
 * pprof samples: it is taken only once the bytes added (an upper bound)
 * could have reached the bound, so the columns spill exactly where a sum a
 * sample would spill them.  (A check a 64th of the tail apart let them run
 * past it, and a column's doubling there cost 8 MB: 4M Tachyon samples no
 * longer packed under a 48 MiB address space, tests/bounds.) */
void pcol_b_spill_added(pcol_builder *b, size_t bytes) {
  b->spill_unchecked += bytes;
  if (b->spill_unchecked < b->spill_headroom) return;
  pcol_b_spill_check(b);
}

void pcol_b_spill_check(pcol_builder *b) {
  b->spill_unchecked = 0;
  b->spill_headroom = 0;
  if (b->nospill || !pcol_sample_spill_bytes) return;
  size_t bound = b->spilling ? spill_tail() : pcol_sample_spill_bytes, now = in_memory(b);
  if (now < bound) {
    b->spill_headroom = bound - now;
    return;
  }
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < PCOL_MAX_COLUMNS; c++) {
      if (implicit(b, k, c)) continue;
      if (flush_col(b, k, c)) {
        b->nospill = 1; /* in memory from now on, as without spilling */
        return;
      }
      /* the first time, give back the buffers that grew to hold it all */
      pcol_buf *buf = &b->t[spill_table[k]].cols[c];
      if (!b->spilling && buf->cap > 2 * spill_tail()) pcol_buf_free(buf);
    }
  b->spilling = 1;
}

int pcol_b_col_spilled(const pcol_builder *b, int t, int c) {
  const pcol_colspill *s = csp_of(b, t, c);
  return s && s->len;
}

/* Why a spilled column could not be read back (b->spill_bad, for
 * pcol_b_spill_error): kept in the builder, whose callers see PCOL_EIO. */
enum { BAD_NONE, BAD_READ, BAD_SHORT, BAD_CRC, BAD_BLOCK,
       BAD_VIEW /* pcol_b_col_view's copy could not be made or mapped */ };
static int bad(const pcol_builder *b, int why, int e, uint64_t off) {
  pcol_builder *mb = (pcol_builder *)b; /* (a builder const for its columns' sake) */
  mb->spill_bad = why, mb->spill_bad_errno = e, mb->spill_bad_at = off;
  return PCOL_EIO;
}

/* read_all, saying why not: a read error, or fewer bytes (truncated) */
static int read_block(const pcol_builder *b, int fd, uint8_t *p, size_t n, uint64_t off) {
  errno = 0;
  if (!read_all(fd, p, n, off)) return PCOL_OK;
  return bad(b, errno ? BAD_READ : BAD_SHORT, errno, off);
}

int pcol_b_col_each(const pcol_builder *b, int t, int c,
                    int (*f)(void *ctx, const void *d, size_t n), void *ctx) {
  const pcol_colspill *s = csp_of(b, t, c);
  if (s && s->len) {
    /* the column's piece, then the stored block */
    uint8_t *piece = malloc(PIECE + BLOCK_HEAD + BLOCK_MAX);
    int rc = piece ? PCOL_OK : PCOL_ENOMEM;
    uint8_t *blk = piece ? piece + PIECE : NULL;
    for (uint64_t off = 0; off < s->flen && !rc;) {
      uint32_t n, m;
      if (s->flen - off < BLOCK_HEAD) {
        rc = bad(b, BAD_BLOCK, 0, off);
        break;
      }
      if ((rc = read_block(b, s->fd, blk, BLOCK_HEAD, off))) break;
      n = pcol_rd32(blk), m = pcol_rd32(blk + 4);
      uint8_t *body = m == n ? piece : blk + BLOCK_HEAD;
      if (!n || n > PIECE || m > n || s->flen - off - BLOCK_HEAD < m) {
        rc = bad(b, BAD_CRC, 0, off); /* (the head's crc would not match either) */
        break;
      }
      if ((rc = read_block(b, s->fd, body, m, off + BLOCK_HEAD))) break;
      if (block_crc(blk, body, m) != pcol_rd32(blk + 8)) {
        rc = bad(b, BAD_CRC, 0, off);
        break;
      }
      if (m < n && LZ4_decompress_safe((const char *)body, (char *)piece, (int)m, (int)n) != (int)n) {
        rc = bad(b, BAD_BLOCK, 0, off);
        break;
      }
      if (f(ctx, piece, n)) {
        rc = PCOL_EIO;
        break;
      }
      off += BLOCK_HEAD + m;
    }
    free(piece);
    if (rc) return rc;
  }
  const pcol_buf *buf = &b->t[t].cols[c];
  if (buf->len && f(ctx, buf->data, buf->len)) return PCOL_EIO;
  return PCOL_OK;
}

int pcol_b_spill_error(const pcol_builder *b, int rc, pcol_error *err) {
  int named;
  const char *dir = temp_dir(&named);
  if (b->spill_bad == BAD_VIEW) /* (review h9 F6: 'File too large', 'No space left on device') */
    return pcol_error_set(err, rc, "cannot write or map the temporary copy of a samples column in %s: %s",
                          dir, b->spill_bad_errno ? strerror(b->spill_bad_errno) : "out of memory");
  if (rc == PCOL_ENOMEM) return pcol_error_set(err, rc, "out of memory");
  char where[4200];
  snprintf(where, sizeof where, "cannot read back the temporary copy of a samples column (an unlinked "
           "pcol-samples file in %s%s)", named ? "TMPDIR=" : "", dir);
  unsigned long long at = (unsigned long long)b->spill_bad_at;
  switch (b->spill_bad) {
  case BAD_READ:
    return pcol_error_set(err, PCOL_EIO, "%s: %s", where, strerror(b->spill_bad_errno));
  case BAD_SHORT:
    return pcol_error_set(err, PCOL_EIO, "%s: it is shorter than pcol wrote it (truncated, at the block at byte "
                          "%llu)", where, at);
  case BAD_CRC:
    return pcol_error_set(err, PCOL_EIO, "%s: checksum mismatch in the block at byte %llu: it changed "
                          "after pcol wrote it", where, at);
  case BAD_BLOCK:
    return pcol_error_set(err, PCOL_EIO, "%s: the block at byte %llu is damaged", where, at);
  }
  return pcol_error_set(err, PCOL_EIO, "%s", where);
}

typedef struct to_file {
  int fd;
  uint64_t off;
} to_file;
static int file_piece(void *ctx, const void *d, size_t n) {
  to_file *t = ctx;
  if (write_all(t->fd, d, n, t->off)) return 1;
  t->off += n;
  return 0;
}

int pcol_b_col_view(const pcol_builder *b, int t, int c, const uint8_t **data, void **map,
                    size_t *maplen) {
  const pcol_colspill *s = csp_of(b, t, c);
  *map = NULL, *maplen = 0;
  if (!s || !s->len) {
    *data = b->t[t].cols[c].data;
    return PCOL_OK;
  }
  uint64_t len = s->len + b->t[t].cols[c].len;
  if (len > SIZE_MAX) return PCOL_ENOMEM;
  to_file tf = {pcol_temp_fd("pcol-column"), 0};
  if (tf.fd < 0) return bad(b, BAD_VIEW, errno, 0);
  errno = 0; /* (a reason only from this copy's system calls) */
  int rc = pcol_b_col_each(b, t, c, file_piece, &tf);
  int e = errno; /* why the copy failed (a full TMPDIR: ENOSPC) */
  if (rc && !b->spill_bad) bad(b, BAD_VIEW, e, 0); /* (else the spilled column could not be read) */
  void *m = rc ? MAP_FAILED : mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, tf.fd, 0);
  if (m == MAP_FAILED && !rc) {
    bad(b, BAD_VIEW, errno, 0);
    rc = PCOL_ENOMEM;
  }
  close(tf.fd); /* the mapping keeps the file until it is unmapped */
  if (rc) return rc;
  *data = m, *map = m, *maplen = (size_t)len;
  return PCOL_OK;
}

void pcol_b_col_unmap(void *map, size_t maplen) {
  if (map) munmap(map, maplen);
}

static int append_piece(void *ctx, const void *d, size_t n) {
  return pcol_buf_append(ctx, d, n) != PCOL_OK;
}

int pcol_b_unspill(pcol_builder *b) {
  b->nospill = 1;
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < PCOL_MAX_COLUMNS; c++) {
      pcol_colspill *s = &b->spill[k][c];
      if (!s->len) continue;
      pcol_buf *buf = &b->t[spill_table[k]].cols[c], all = {0};
      if (s->len > SIZE_MAX - buf->len || pcol_buf_reserve(&all, (size_t)s->len + buf->len))
        return PCOL_ENOMEM;
      int rc = pcol_b_col_each(b, spill_table[k], c, append_piece, &all);
      if (rc) {
        pcol_buf_free(&all);
        return rc;
      }
      pcol_buf_free(buf);
      *buf = all;
      close(s->fd);
      s->fd = 0, s->len = 0, s->flen = 0;
    }
  b->spilling = 0;
  return PCOL_OK;
}

int pcol_b_col_append(pcol_builder *b, int t, int c, const void *data, const void *one, size_t w,
                      uint64_t n) {
  pcol_buf *buf = &b->t[t].cols[c];
  const uint8_t *src = data;
  while (n) {
    /* pieces of at most 64 Ki elements, so that spilling keeps pace */
    size_t k = n < 65536 ? (size_t)n : 65536;
    if (k > (SIZE_MAX >> 1) / w) return PCOL_ENOMEM;
    PCOL_RETURN_NOT_OK(pcol_buf_reserve(buf, k * w));
    if (src) {
      memcpy(buf->data + buf->len, src, k * w);
      src += k * w;
    } else {
      for (size_t i = 0; i < k; i++) memcpy(buf->data + buf->len + i * w, one, w);
    }
    buf->len += k * w;
    n -= k;
    pcol_b_spill_check(b);
  }
  return PCOL_OK;
}

void pcol_b_spill_free(pcol_builder *b) {
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < PCOL_MAX_COLUMNS; c++)
      if (b->spill[k][c].fd > 0) close(b->spill[k][c].fd);
}
