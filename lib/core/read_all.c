/* read_all.c — an importer's whole input: read, or inflated when it starts
 * with the gzip magic (all gzip members concatenated), under the input cap
 * (pcol_input_cap, pcol_inflate_cap: doc/safety.md "Resource bounds").  For
 * formats whose message must be decoded whole (pprof, OTLP).
 *
 * pcol_read_all holds it in memory.  pcol_read_input (the pprof importer,
 * issue 32) holds it in memory up to pcol_spill_bytes and past that spills
 * it to an unlinked temporary file that it maps read-only: the pages are
 * then the kernel's page cache, which pcol_input_done drops from the
 * process as a pass moves on (they fault back in if read again), so the
 * peak memory of a large import no longer grows with the inflated size.
 * pcol_input_append/pcol_input_seal build the same copy from bytes an
 * importer reads itself (pprof from a stream it cannot read twice). */
#include "pcol.h"
#include "buf.h"      /* pcol_buf, pcol_buf_free, pcol_buf_append, ... */
#include "spill.h"    /* pcol_temp_fd */
#include "read_all.h" /* pcol_input, pcol_input_free, pcol_spill_bytes, ... */
#include "instream.h" /* pcol_decompressed_too_big, PCOL_COMP_GZIP, PCOL_COMP_NONE, ... */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>    /* fallocate */
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 65536

size_t pcol_spill_bytes = (size_t)64 << 20;

/* Where the bytes go: `out`, and once it holds `threshold` bytes (0:
 * never) the temporary file, `out` then staging up to `threshold` bytes
 * at a time. */
typedef struct sink {
  pcol_buf *out;
  FILE *spill;
  uint64_t spilled; /* bytes written to the file */
  size_t threshold;
  int spill_err;    /* why the file could not be made, written or mapped (errno; 0: it was not): said
                     * with "out of memory" after it, all then in memory (review LOW-8) */
} sink;

static uint64_t sink_total(const sink *s) { return s->spilled + s->out->len; }

/* An unlinked temporary file in $TMPDIR (else /tmp), or NULL (errno set). */
static FILE *spill_file(void) {
  int fd = pcol_temp_fd("pcol-input");
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w+b");
  if (!f) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return f;
}

/* "NAME: out of memory" (what: more words), and why the copy is in memory
 * when its temporary file failed: "(its temporary file failed: No space
 * left on device)" */
static int no_memory(const sink *s, const char *name, const char *what, pcol_error *err) {
  if (!s->spill_err) return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory%s", name, what);
  return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory%s (the input's copy is in memory: its temporary "
                        "file in $TMPDIR failed: %s)", name, what, strerror(s->spill_err));
}

/* The temporary file could not take the copy (a full or unwritable
 * $TMPDIR: a write, or its map, failed): its bytes are read back in front
 * of those staged and all stays in memory, as with no file to be had (a
 * pipe's Perun file read as it was before it spilled), with no word of it.
 * Fails only out of memory (saying why: e, the file's errno) or when the
 * bytes written cannot be read. */
static int sink_unspill(sink *s, int e, const char *name, pcol_error *err) {
  pcol_buf *out = s->out;
  size_t staged = out->len;
  uint64_t n = s->spilled;
  s->spill_err = e ? e : EIO;
  if (n > SIZE_MAX - staged || pcol_buf_reserve(out, (size_t)n)) return no_memory(s, name, "", err);
  memmove(out->data + n, out->data, staged);
  for (uint64_t at = 0; at < n;) {
    ssize_t k = pread(fileno(s->spill), out->data + at, (size_t)(n - at), (off_t)at);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      memmove(out->data, out->data + n, staged);
      return pcol_error_set(err, PCOL_EIO, "%s: cannot read back the temporary copy of the input: %s", name,
                            k < 0 ? strerror(errno) : "it is shorter than written");
    }
    at += (uint64_t)k;
  }
  out->len = staged + (size_t)n;
  fclose(s->spill);
  s->spill = NULL;
  s->spilled = 0;
  s->threshold = 0;
  return PCOL_OK;
}

/* Moves the staged bytes to the file when there are `threshold` of them
 * (force: any); with no temporary file to be had, or one that cannot take
 * them, everything stays in memory as in pcol_read_all. */
static int sink_flush(sink *s, int force, const char *name, pcol_error *err) {
  if (!s->threshold || !s->out->len || (!force && s->out->len < s->threshold)) return PCOL_OK;
  if (!s->spill && force) return PCOL_OK; /* it all fit */
  errno = 0;
  if (!s->spill && !(s->spill = spill_file())) {
    s->threshold = 0;
    s->spill_err = errno ? errno : EIO;
    return PCOL_OK;
  }
  /* (flushed: what the file holds is known, s->spilled, when one fails) */
  if (fwrite(s->out->data, 1, s->out->len, s->spill) != s->out->len || fflush(s->spill))
    return sink_unspill(s, errno, name, err);
  s->spilled += s->out->len;
  s->out->len = 0;
  return PCOL_OK;
}

/* Grows the staging buffer by up to CHUNK bytes of room, never past cap+1
 * bytes in all (one byte over the cap is how we notice the cap was
 * exceeded). */
static int room(sink *s, uint64_t cap, size_t *avail) {
  pcol_buf *out = s->out;
  uint64_t limit = cap + 1, total = sink_total(s);
  if (total >= limit) {
    *avail = 0;
    return PCOL_OK;
  }
  uint64_t want = limit - total < CHUNK ? limit - total : CHUNK;
  if (pcol_buf_reserve(out, (size_t)want)) return PCOL_ENOMEM;
  *avail = out->cap - out->len;
  if (*avail > limit - total) *avail = (size_t)(limit - total);
  return PCOL_OK;
}

/* Inflates all of `in` (its first nfirst bytes already read) into the sink,
 * never past the cap for the compressed bytes read so far. */
static int inflate_all(FILE *in, const uint8_t *first, size_t nfirst, const pcol_import_options *opt,
                       const char *name, sink *sk, pcol_error *err) {
  pcol_buf *out = sk->out;
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  /* 32 + MAX_WBITS: gzip (or zlib) header auto-detection */
  if (inflateInit2(&zs, 32 + MAX_WBITS) != Z_OK)
    return pcol_error_set(err, PCOL_ENOMEM, "%s: cannot start inflate", name);
  uint8_t *inb = malloc(CHUNK);
  if (!inb) {
    inflateEnd(&zs);
    return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  }
  int rc = PCOL_OK, member_done = 0;
  uint64_t consumed = 0, members = 0; /* compressed bytes fed so far */
  uint64_t read = nfirst;             /* compressed bytes read */
  uint64_t cap = pcol_inflate_cap(opt, read);
  memcpy(inb, first, nfirst);
  zs.next_in = inb;
  zs.avail_in = (uInt)nfirst;
  for (;;) {
    if (zs.avail_in == 0) {
      size_t n = fread(inb, 1, CHUNK, in);
      if (n == 0) {
        if (ferror(in)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
        break;
      }
      zs.next_in = inb;
      zs.avail_in = (uInt)n;
      read += n;
      cap = pcol_inflate_cap(opt, read);
    }
    if (member_done) {
      /* more bytes after a complete member: the next gzip member (Go's
       * reader is multi-stream too); bytes that do not start one are
       * trailing data, refused as instream.c refuses them */
      if (!pcol_frame_start(PCOL_COMP_GZIP, zs.next_in, zs.avail_in < 4 ? zs.avail_in : 4, 0)) {
        uint64_t k = zs.avail_in;
        uint8_t head[4];
        size_t nf = zs.avail_in < 4 ? zs.avail_in : 4;
        memcpy(head, zs.next_in, nf);
        for (size_t n; (n = fread(inb, 1, CHUNK, in)) > 0;) k += n;
        rc = pcol_trailing_data(name, PCOL_COMP_GZIP, consumed, members, k, head, nf, NULL, err);
        break;
      }
      if (inflateReset(&zs) != Z_OK) {
        rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: inflateReset failed", name);
        break;
      }
      member_done = 0;
    }
    size_t avail;
    if ((rc = sink_flush(sk, 0, name, err))) break;
    if ((rc = room(sk, cap, &avail))) {
      rc = no_memory(sk, name, " inflating", err);
      break;
    }
    if (avail == 0) {
      rc = pcol_decompressed_too_big(name, opt, cap, read, PCOL_COMP_GZIP, err);
      break;
    }
    if (avail > UINT32_MAX) avail = UINT32_MAX;
    zs.next_out = out->data + out->len;
    zs.avail_out = (uInt)avail;
    uInt in_before = zs.avail_in;
    int zr = inflate(&zs, Z_NO_FLUSH);
    out->len += avail - zs.avail_out;
    consumed += in_before - zs.avail_in;
    if (zr == Z_STREAM_END) {
      member_done = 1;
      members++;
    } else if (zr == Z_BUF_ERROR || zr == Z_OK) {
      continue;
    } else {
      rc = pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: corrupt gzip data near compressed byte offset %" PRIu64
                          " (member %" PRIu64 "): %s",
                          name, consumed, members + 1, zs.msg ? zs.msg : "inflate error");
      break;
    }
  }
  if (!rc && sink_total(sk) > cap) rc = pcol_decompressed_too_big(name, opt, cap, read, PCOL_COMP_GZIP, err);
  if (!rc && !member_done)
    rc = pcol_error_set(err, PCOL_ECORRUPT,
                        "%s: truncated gzip stream: input ends after %" PRIu64
                        " compressed bytes inside member %" PRIu64,
                        name, consumed, members + 1);
  inflateEnd(&zs);
  free(inb);
  return rc;
}

/* Reads all of `in` into the sink, inflating if it starts with 1f 8b. */
static int read_into(FILE *in, const pcol_import_options *opt, const char *name, sink *sk,
                     int *gzipped, pcol_error *err) {
  uint8_t first[CHUNK];
  size_t n = fread(first, 1, sizeof first, in);
  if (n == 0 && ferror(in)) return pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  if (n == 0) return pcol_error_set(err, PCOL_ECORRUPT, "%s: empty input file", name);
  *gzipped = pcol_compression(first, n) == PCOL_COMP_GZIP;
  if (*gzipped) return inflate_all(in, first, n, opt, name, sk, err);
  pcol_buf *out = sk->out;
  uint64_t cap = pcol_input_cap(opt);
  if (n > cap) return pcol_decompressed_too_big(name, opt, cap, n, PCOL_COMP_NONE, err);
  if (pcol_buf_append(out, first, n)) return no_memory(sk, name, "", err);
  for (;;) {
    size_t avail;
    int rc = sink_flush(sk, 0, name, err);
    if (rc) return rc;
    if (room(sk, cap, &avail)) return no_memory(sk, name, "", err);
    if (avail == 0) return pcol_decompressed_too_big(name, opt, cap, sink_total(sk), PCOL_COMP_NONE, err);
    size_t k = fread(out->data + out->len, 1, avail, in);
    out->len += k;
    if (k == 0) break;
  }
  if (ferror(in)) return pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  if (sink_total(sk) > cap) return pcol_decompressed_too_big(name, opt, cap, sink_total(sk), PCOL_COMP_NONE, err);
  return PCOL_OK;
}

int pcol_read_all(FILE *in, const pcol_import_options *opt, const char *name, pcol_buf *out,
                  int *gzipped, pcol_error *err) {
  sink sk = {out, NULL, 0, 0, 0};
  return read_into(in, opt, name, &sk, gzipped, err);
}

/* The sink's file, once all is written: mapped as in->data (the staging
 * buffer freed), or the bytes stay in memory when nothing was spilled. */
static int input_seal(pcol_input *out, sink *sk, const char *name, pcol_error *err) {
  int rc = sink_flush(sk, 1, name, err);
  if (!rc && sk->spill) {
    errno = EFBIG;
    void *m = sk->spilled > SIZE_MAX ? MAP_FAILED
                                     : mmap(NULL, (size_t)sk->spilled, PROT_READ, MAP_PRIVATE, fileno(sk->spill), 0);
    if (m == MAP_FAILED) { /* (in memory, then, as the file's writes failing) */
      rc = sink_unspill(sk, errno, name, err);
    } else {
      out->map = m;
      out->maplen = (size_t)sk->spilled;
      (void)madvise(m, out->maplen, MADV_SEQUENTIAL);
      pcol_buf_free(&out->buf); /* the staging buffer */
    }
  }
  /* unlinked: the mapping keeps the pages (a copy to discard keeps its
   * descriptor, to free its blocks) */
  if (sk->spill && !(out->discard && !rc)) fclose(sk->spill);
  out->spill = out->discard && !rc ? sk->spill : NULL;
  sk->spill = NULL;
  if (rc) {
    pcol_input_free(out);
    return rc;
  }
  out->data = out->map ? out->map : out->buf.data;
  out->len = out->map ? out->maplen : out->buf.len;
  return PCOL_OK;
}

int pcol_read_input(FILE *in, const pcol_import_options *opt, const char *name, pcol_input *out,
                    int *gzipped, pcol_error *err) {
  memset(out, 0, sizeof *out);
  sink sk = {&out->buf, NULL, 0, pcol_spill_bytes, 0};
  int rc = read_into(in, opt, name, &sk, gzipped, err);
  if (rc) {
    if (sk.spill) fclose(sk.spill);
    pcol_input_free(out);
    return rc;
  }
  return input_seal(out, &sk, name, err);
}

/* Where an appended input spills (0: never). */
static size_t spill_threshold(const pcol_input *in) {
  if (in->nospill || !pcol_spill_bytes) return 0;
  return in->spill_at && in->spill_at < pcol_spill_bytes ? in->spill_at : pcol_spill_bytes;
}

int pcol_input_append(pcol_input *in, const void *p, size_t n, const char *name, pcol_error *err) {
  sink sk = {&in->buf, in->spill, in->spilled, spill_threshold(in), in->spill_err};
  if (n && pcol_buf_append(&in->buf, p, n)) return no_memory(&sk, name, "", err);
  int rc = sink_flush(&sk, 0, name, err);
  in->spill = sk.spill;
  in->spilled = sk.spilled;
  in->nospill = !sk.threshold;
  in->spill_err = sk.spill_err;
  return rc;
}

int pcol_input_seal(pcol_input *in, const char *name, pcol_error *err) {
  sink sk = {&in->buf, in->spill, in->spilled, spill_threshold(in), in->spill_err};
  return input_seal(in, &sk, name, err);
}

int pcol_input_map_file(FILE *in, const pcol_import_options *opt, pcol_input *out) {
  struct stat st;
  int fd = fileno(in);
  memset(out, 0, sizeof *out);
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || ftello(in) != 0 || st.st_size <= 0 ||
      (uint64_t)st.st_size >= pcol_input_cap(opt) || (uint64_t)st.st_size > SIZE_MAX)
    return 0;
  void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (m == MAP_FAILED) return 0;
  if (pcol_compression(m, (size_t)st.st_size) != PCOL_COMP_NONE) {
    munmap(m, (size_t)st.st_size);
    return 0;
  }
  out->map = m;
  out->maplen = (size_t)st.st_size;
  out->data = m;
  out->len = (size_t)st.st_size;
  return 1;
}

void pcol_input_done(pcol_input *in, size_t from, size_t to) {
  if (!in->map || to > in->maplen) return;
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t a = (from + pg - 1) / pg * pg, e = to / pg * pg;
  if (a < e) (void)madvise((uint8_t *)in->map + a, e - a, MADV_DONTNEED);
}

void pcol_input_discard(pcol_input *in, size_t from, size_t to) {
  pcol_input_done(in, from, to);
  if (!in->map || !in->spill || to > in->maplen) return;
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t a = (from + pg - 1) / pg * pg, e = to / pg * pg;
  /* (a file system without holes keeps the blocks: only the disk is lost) */
  if (a < e)
    (void)fallocate(fileno(in->spill), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)a,
                    (off_t)(e - a));
}

typedef struct input_reader {
  pcol_input *in;
  size_t pos, given; /* read up to pos; pages before `given` handed back */
} input_reader;

static ssize_t input_read(void *c, char *buf, size_t size) {
  input_reader *r = c;
  size_t k = r->in->len - r->pos < size ? r->in->len - r->pos : size;
  if (k) memcpy(buf, r->in->data + r->pos, k);
  r->pos += k;
  if (r->pos - r->given >= ((size_t)8 << 20)) {
    pcol_input_done(r->in, r->given, r->pos);
    r->given = r->pos;
  }
  return (ssize_t)k;
}
static int input_reader_close(void *c) {
  free(c);
  return 0;
}

FILE *pcol_input_stream(pcol_input *in) {
  input_reader *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->in = in;
  cookie_io_functions_t io = {input_read, NULL, NULL, input_reader_close};
  FILE *f = fopencookie(r, "r", io);
  if (!f) free(r);
  return f;
}

void pcol_input_free(pcol_input *in) {
  if (in->spill) fclose(in->spill);
  if (in->map) munmap(in->map, in->maplen);
  pcol_buf_free(&in->buf);
  memset(in, 0, sizeof *in);
}
