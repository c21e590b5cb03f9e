/* instream.c — an importer's input as a FILE* that streams: its bytes, or
 * decompressed as they are read when it starts as gzip (several members),
 * zstd or LZ4 (several frames; LZ4's frame format, what the `lz4` tool
 * writes) does, stopping at the input cap (pcol_input_cap;
 * compressed: pcol_inflate_cap).  For the importers that read their input
 * once, front to back (the Firefox profile's JSON, OTLP/JSON lines), and
 * for the dispatcher (lib/convert/detect.c), which unwraps any compressed
 * input before it detects its format: only 2 x 64 KiB of it is in memory
 * at a time, whatever its size, compressed or not (zstd: plus the frame's
 * window, at most 2^27 bytes; LZ4: a block, at most 4 MiB, and 64 KiB of
 * history).
 *
 * Its own errors (bad or truncated data, the cap, a read error) are kept
 * apart and win in pcol_instream_finish: they are the result whatever the
 * reader made of the bytes before them, as when the whole input was read
 * (and inflated) first. */
#include "pcol.h"
#include "error.h"    /* pcol_oom */
#include "instream.h" /* pcol_instream, PCOL_COMP_GZIP, pcol_compression_name, ... */
#include <stdarg.h>
#include <inttypes.h>
#include <zlib.h>
#include <zstd.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ what wraps an input */
int pcol_compression(const uint8_t *p, size_t n) {
  if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) return PCOL_COMP_GZIP;
  /* skippable frames first (magic 50..5f 2a 4d 18, a 4-byte little-endian
   * size), which zstd and LZ4 share and their decoders skip: `pzstd` writes
   * one before its frames; the kind is the first frame's after them */
  while (n >= 8 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18) {
    uint64_t len = (uint64_t)p[4] | (uint64_t)p[5] << 8 | (uint64_t)p[6] << 16 | (uint64_t)p[7] << 24;
    if (len > n - 8) return PCOL_COMP_NONE;
    p += 8 + len, n -= 8 + (size_t)len;
  }
  if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) return PCOL_COMP_ZSTD;
  if (n >= 4 && p[0] == 0x04 && p[1] == 0x22 && p[2] == 0x4d && p[3] == 0x18) return PCOL_COMP_LZ4;
  return PCOL_COMP_NONE;
}

const char *pcol_compression_name(int kind) {
  return kind == PCOL_COMP_GZIP ? "gzip" : kind == PCOL_COMP_ZSTD ? "zstd" : kind == PCOL_COMP_LZ4 ? "lz4" : "raw";
}

int pcol_frame_start(int kind, const uint8_t *p, size_t k, int whole) {
  static const uint8_t gz[2] = {0x1f, 0x8b}, zs[4] = {0x28, 0xb5, 0x2f, 0xfd},
                       lz[4] = {0x04, 0x22, 0x4d, 0x18}, sk[4] = {0x50, 0x2a, 0x4d, 0x18};
  const uint8_t *m = kind == PCOL_COMP_GZIP ? gz : kind == PCOL_COMP_ZSTD ? zs : lz;
  size_t ml = kind == PCOL_COMP_GZIP ? 2 : 4;
  if (whole && k < ml) return 0;
  int is_m = 1, is_sk = kind != PCOL_COMP_GZIP;
  for (size_t i = 0; i < k && i < 4; i++) {
    if (i < ml && p[i] != m[i]) is_m = 0;
    if (i == 0 ? (p[0] & 0xf0) != 0x50 : p[i] != sk[i]) is_sk = 0;
  }
  return is_m || is_sk;
}

int pcol_trailing_data(const char *name, int kind, uint64_t at, uint64_t frames, uint64_t nbytes,
                       const uint8_t *first, size_t nfirst, const char *why, pcol_error *err) {
  char hex[16] = "";
  for (size_t i = 0, h = 0; i < nfirst && i < 4; i++)
    h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", first[i]);
  const char *what = kind == PCOL_COMP_GZIP ? "member" : "frame";
  return pcol_error_set(err, PCOL_ECORRUPT,
                        "%s: trailing data after %s %s %" PRIu64 ": %" PRIu64 " byte%s at compressed "
                        "byte offset %" PRIu64 " that do%s not start a%s %s %s (%s%s%s); refused, as "
                        "`zstd -d`, `lz4 -d` and `go tool pprof` refuse them (decompress the file and "
                        "cut them off)",
                        name, pcol_compression_name(kind), what, frames, nbytes, nbytes == 1 ? "" : "s",
                        at, nbytes == 1 ? "es" : "", kind == PCOL_COMP_LZ4 ? "n" : "",
                        pcol_compression_name(kind), what, hex, why ? ": " : "", why ? why : "");
}

int pcol_decompressed_too_big(const char *name, const pcol_import_options *opt, uint64_t cap,
                              uint64_t read, int kind, pcol_error *err) {
  if (kind && !(opt && opt->max_input_bytes))
    return pcol_error_set(err, PCOL_ETOOBIG,
                          "%s: %s data inflates to more than %" PRIu64 " bytes, the limit for "
                          "%" PRIu64 " compressed bytes (%d x, at least %" PRIu64 " MiB); raise it "
                          "with `pcol pack --max-input BYTES` (max_input_bytes)",
                          name, pcol_compression_name(kind), cap, read, PCOL_INPUT_CAP_PER_BYTE,
                          PCOL_INPUT_CAP_MIN >> 20);
  return pcol_error_set(err, PCOL_ETOOBIG,
                        "%s: %s profile exceeds the input limit of %" PRIu64
                        " bytes; raise it with `pcol pack --max-input BYTES` (max_input_bytes)",
                        name, kind ? "inflated" : "raw", cap);
}

/* ------------------------------------------------ one decoder, any kind */
typedef struct dec {
  int kind;
  z_stream zs;
  ZSTD_DStream *zd;
  LZ4F_dctx *ld;
  int ended;      /* the last member/frame is complete (nothing pending) */
  uint64_t frames; /* members/frames complete (skippable frames too) */
  size_t hint;     /* LZ4: the bytes its next step wants (a block), 0: any */
} dec;

static int dec_init(dec *d, int kind) {
  memset(d, 0, sizeof *d);
  d->kind = kind;
  d->ended = 1;
  if (kind == PCOL_COMP_GZIP) return inflateInit2(&d->zs, 15 + 32) == Z_OK ? 0 : -1;
  d->hint = LZ4F_HEADER_SIZE_MIN; /* (LZ4: a frame header first) */
  if (kind == PCOL_COMP_LZ4) return LZ4F_isError(LZ4F_createDecompressionContext(&d->ld, LZ4F_VERSION)) ? -1 : 0;
  if (!(d->zd = ZSTD_createDStream())) return -1;
  /* a frame's window is at most 2^27 bytes (zstd's default limit; `zstd
   * --long=31` output is refused with zstd's message) */
  ZSTD_DCtx_setParameter(d->zd, ZSTD_d_windowLogMax, 27);
  return 0;
}

static void dec_end(dec *d) {
  if (d->kind == PCOL_COMP_GZIP) inflateEnd(&d->zs);
  else if (d->kind == PCOL_COMP_ZSTD) ZSTD_freeDStream(d->zd);
  else if (d->kind == PCOL_COMP_LZ4) LZ4F_freeDecompressionContext(d->ld);
}

/* Decodes from *in (*inlen bytes) into out (cap bytes): *inlen and *got
 * updated to the bytes consumed and made.  0, or -1 with *msg (*inlen: the
 * bytes consumed before the damage, where the decoder tells). */
static int dec_step(dec *d, const uint8_t *in, size_t *inlen, uint8_t *out, size_t cap,
                    size_t *got, const char **msg) {
  *got = 0;
  if (d->kind == PCOL_COMP_GZIP) {
    uInt ni = *inlen > UINT_MAX ? UINT_MAX : (uInt)*inlen, no = cap > UINT_MAX ? UINT_MAX : (uInt)cap;
    d->zs.next_in = (Bytef *)(uintptr_t)in;
    d->zs.avail_in = ni; /* zlib counts in 32 bits: at most that much a step */
    d->zs.next_out = out;
    d->zs.avail_out = no;
    int zr = inflate(&d->zs, Z_NO_FLUSH);
    *inlen = ni - d->zs.avail_in;
    *got = no - d->zs.avail_out;
    if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
      *msg = d->zs.msg ? d->zs.msg : "inflate failed";
      return -1;
    }
    if (*inlen || *got) d->ended = 0;
    if (zr == Z_STREAM_END) { /* another member may follow */
      d->ended = 1;
      d->frames++;
      if (inflateReset(&d->zs) != Z_OK) {
        *msg = "inflateReset failed";
        return -1;
      }
    }
    return 0;
  }
  if (d->kind == PCOL_COMP_LZ4) { /* after a frame the context reads the next one */
    /* fed what it asks for (a block header, a block, a checksum), not a
     * whole chunk: a damaged block is refused at its own offset, not at the
     * chunk's (LZ4F tells nothing of where it stopped) */
    size_t ni = d->hint && d->hint < *inlen ? d->hint : *inlen, no = cap;
    size_t r = LZ4F_decompress(d->ld, out, &no, in, &ni, NULL);
    if (LZ4F_isError(r)) {
      *msg = LZ4F_getErrorName(r);
      *inlen = 0;
      return -1;
    }
    *inlen = ni;
    *got = no;
    d->hint = r ? r : LZ4F_HEADER_SIZE_MIN; /* (0: the frame is done, a next one's header) */
    if (ni || no) {
      d->frames += r == 0; /* (a step stops at a frame's end) */
      d->ended = r == 0; /* 0: a frame is complete and flushed */
    }
    return 0;
  }
  ZSTD_inBuffer ib = {in, *inlen, 0};
  ZSTD_outBuffer ob = {out, cap, 0};
  size_t r = ZSTD_decompressStream(d->zd, &ob, &ib);
  *inlen = ib.pos;
  *got = ob.pos;
  if (ZSTD_isError(r)) {
    *msg = ZSTD_getErrorName(r);
    return -1;
  }
  if (ib.pos || ob.pos) {
    d->frames += r == 0; /* (a step stops at a frame's end) */
    d->ended = r == 0; /* 0: a frame is complete and flushed */
  }
  return 0;
}

size_t pcol_unwrap_head(const uint8_t *p, size_t n, uint8_t *out, size_t cap) {
  int kind = pcol_compression(p, n);
  dec d;
  if (!kind || dec_init(&d, kind)) return 0;
  size_t total = 0;
  const char *msg;
  while (total < cap) {
    size_t used = n, got;
    if (dec_step(&d, p, &used, out + total, cap - total, &got, &msg)) break;
    p += used, n -= used, total += got;
    if (!used && !got) break;
  }
  dec_end(&d);
  return total;
}

/* ------------------------------------------------ the stream */
enum { CHUNK = 65536 };
struct pcol_instream {
  FILE *in, *s;
  const char *name;
  const pcol_import_options *opt;
  pcol_error own;
  int rc, kind, done;
  dec d;
  uint8_t chunk[CHUNK], out[CHUNK];
  size_t n, at;         /* chunk[at..n) not yet decoded */
  size_t olen, opos;    /* out[opos..olen) not yet given */
  uint64_t read, total; /* compressed bytes read; bytes given */
  /* where the last complete frame ended (compressed offset) and the first
   * bytes after it: a next frame, or trailing data */
  uint64_t boundary;
  uint8_t next[4];
  /* LZ4: where the piece the decoder asked for last (a block, a header,
   * a checksum) starts, and its bytes not yet given: a piece that spans
   * chunks is refused at its start */
  uint64_t unit_at, unit_left;
};

static int in_fail(pcol_instream *o, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int in_fail(pcol_instream *o, int code, const char *fmt, ...) {
  char m[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  o->rc = pcol_error_set(&o->own, code, "%s: %s", o->name, m);
  o->done = 1;
  return o->rc;
}

/* Bytes after the last complete frame that do not start another (its
 * magic, as far as they go): refused as trailing data (doc/mappings.md,
 * "Compressed input"), counted to the end of the input. */
static int in_trailing(pcol_instream *o, const char *why) {
  uint64_t k = o->read - o->boundary, n;
  while (!ferror(o->in) && (n = fread(o->chunk, 1, CHUNK, o->in)) > 0) k += n;
  o->rc = pcol_trailing_data(o->name, o->kind, o->boundary, o->d.frames, k, o->next,
                             k < sizeof o->next ? (size_t)k : sizeof o->next, why, &o->own);
  o->done = 1;
  return o->rc;
}

static int after_frames(const pcol_instream *o, int whole) {
  uint64_t k = o->read - o->boundary;
  return o->d.frames &&
         !pcol_frame_start(o->kind, o->next, k < sizeof o->next ? (size_t)k : sizeof o->next, whole);
}

/* the end of the input: the checks after the last byte */
static void in_end(pcol_instream *o) {
  if (o->kind && !o->rc && !o->d.ended && after_frames(o, 1)) in_trailing(o, NULL);
  if (o->kind && !o->rc && !o->d.ended)
    in_fail(o, PCOL_ECORRUPT, "truncated %s stream: input ends after %llu compressed bytes",
            pcol_compression_name(o->kind), (unsigned long long)o->read);
  if (!o->rc && ferror(o->in)) in_fail(o, PCOL_EIO, "read error");
  o->done = 1;
}

/* More bytes into out[0..olen); olen 0 at the end or on an error. */
static void pump(pcol_instream *o) {
  o->olen = o->opos = 0;
  while (!o->done && !o->olen) {
    if (!o->kind) {
      if (o->total + o->n > pcol_input_cap(o->opt)) {
        in_fail(o, PCOL_ETOOBIG, "input is larger than the limit of %llu bytes (--max-input)",
                (unsigned long long)pcol_input_cap(o->opt));
        return;
      }
      memcpy(o->out, o->chunk, o->n);
      o->olen = o->n;
      o->total += o->n;
      if (o->n < CHUNK) in_end(o);
      else o->n = fread(o->chunk, 1, CHUNK, o->in);
      continue;
    }
    if (o->at < o->n || !o->d.ended) { /* one decoding step over the chunk */
      size_t used = o->n - o->at, got;
      const char *msg = NULL;
      uint64_t off = o->read - (o->n - o->at); /* chunk[at]'s compressed offset */
      if (o->d.frames && off >= o->boundary && off < o->boundary + sizeof o->next) {
        size_t k = (size_t)(off - o->boundary), m = sizeof o->next - k;
        memcpy(o->next + k, o->chunk + o->at, m < o->n - o->at ? m : o->n - o->at);
      }
      if (o->kind == PCOL_COMP_LZ4 && !o->unit_left) o->unit_at = off, o->unit_left = o->d.hint;
      if (dec_step(&o->d, o->chunk + o->at, &used, o->out, CHUNK, &got, &msg)) {
        if (after_frames(o, 0)) {
          in_trailing(o, msg);
          return;
        }
        in_fail(o, PCOL_ECORRUPT, "corrupt %s data near compressed byte offset %llu: %s",
                pcol_compression_name(o->kind),
                (unsigned long long)(o->kind == PCOL_COMP_LZ4 ? o->unit_at : off + used), msg);
        return;
      }
      o->unit_left -= used < o->unit_left ? used : o->unit_left;
      o->at += used;
      if (o->d.ended) o->boundary = off + used;
      uint64_t cap = pcol_inflate_cap(o->opt, o->read);
      if (o->total + got > cap) {
        o->rc = pcol_decompressed_too_big(o->name, o->opt, cap, o->read, o->kind, &o->own);
        o->done = 1;
        return;
      }
      o->olen = got;
      o->total += got;
      if (used || got) continue;
      /* no progress: the decoder needs more input */
    }
    /* the chunk is done: the next one, unless it was the last */
    if (o->n < CHUNK) {
      in_end(o);
      return;
    }
    o->n = fread(o->chunk, 1, CHUNK, o->in);
    o->at = 0;
    o->read += o->n;
    if (!o->n) {
      in_end(o);
      return;
    }
  }
}

static ssize_t in_read(void *c, char *buf, size_t size) {
  pcol_instream *o = c;
  if (o->opos == o->olen) pump(o);
  if (o->rc) return -1;
  size_t k = o->olen - o->opos < size ? o->olen - o->opos : size;
  memcpy(buf, o->out + o->opos, k);
  o->opos += k;
  return (ssize_t)k;
}

int pcol_instream_open(pcol_instream **out, FILE *in, const char *name,
                       const pcol_import_options *opt, FILE **s, pcol_error *err) {
  *out = NULL, *s = NULL;
  pcol_instream *o = calloc(1, sizeof *o);
  if (!o) return pcol_oom(err);
  o->in = in, o->opt = opt, o->name = name;
  o->n = fread(o->chunk, 1, CHUNK, in);
  o->read = o->n;
  o->kind = pcol_compression(o->chunk, o->n);
  if (o->kind && dec_init(&o->d, o->kind)) {
    free(o);
    return pcol_oom(err);
  }
  cookie_io_functions_t io = {in_read, NULL, NULL, NULL};
  if (!(o->s = fopencookie(o, "r", io))) {
    if (o->kind) dec_end(&o->d);
    free(o);
    return pcol_oom(err);
  }
  *out = o, *s = o->s;
  return PCOL_OK;
}

int pcol_instream_gzip(const pcol_instream *o) { return o->kind; }
uint64_t pcol_instream_total(const pcol_instream *o) { return o->total; }

int pcol_instream_finish(pcol_instream *o, int rc, pcol_error *err) {
  /* a reader that stopped early (an error of its own): the rest of the
   * input, read for its errors, which come first */
  if (rc && rc != PCOL_ENOMEM)
    while (!o->done) pump(o);
  if (o->rc && err) *err = o->own;
  return o->rc;
}

void pcol_instream_free(pcol_instream *o) {
  if (!o) return;
  fclose(o->s);
  if (o->kind) dec_end(&o->d);
  free(o);
}
