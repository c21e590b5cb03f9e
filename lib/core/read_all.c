/* read_all.c — an importer's whole input in memory: read, or inflated when
 * it starts with the gzip magic (all gzip members concatenated), under the
 * input cap (pcol_input_cap, pcol_inflate_cap: doc/safety.md "Resource
 * bounds").  For formats whose message must be decoded whole (pprof, OTLP). */
#include "internal.h"
#include <inttypes.h>
#include <zlib.h>

#define CHUNK 65536

/* Grows `out` by up to CHUNK bytes of room, never past cap+1 bytes in all
 * (one byte over the cap is how we notice the cap was exceeded). */
static int room(pcol_buf *out, uint64_t cap, size_t *avail) {
  uint64_t limit = cap + 1;
  if (out->len >= limit) {
    *avail = 0;
    return PCOL_OK;
  }
  uint64_t want = limit - out->len < CHUNK ? limit - out->len : CHUNK;
  if (pcol_buf_reserve(out, (size_t)want)) return PCOL_ENOMEM;
  *avail = out->cap - out->len;
  if (*avail > limit - out->len) *avail = (size_t)(limit - out->len);
  return PCOL_OK;
}

static int too_big(const char *name, const pcol_import_options *opt, uint64_t cap, uint64_t read,
                   int gz, pcol_error *err) {
  if (gz && !(opt && opt->max_input_bytes))
    return pcol_error_set(err, PCOL_ETOOBIG,
                          "%s: gzip data inflates to more than %" PRIu64 " bytes, the limit for "
                          "%" PRIu64 " compressed bytes (%d x, at least %" PRIu64 " MiB); raise it "
                          "with `pcol pack --max-input BYTES` (max_input_bytes)",
                          name, cap, read, PCOL_INPUT_CAP_PER_BYTE, PCOL_INPUT_CAP_MIN >> 20);
  return pcol_error_set(err, PCOL_ETOOBIG,
                        "%s: %s profile exceeds the input limit of %" PRIu64
                        " bytes; raise it with `pcol pack --max-input BYTES` (max_input_bytes)",
                        name, gz ? "inflated" : "raw", cap);
}

/* Inflates all of `in` (its first nfirst bytes already read) into `out`,
 * never past the cap for the compressed bytes read so far. */
static int inflate_all(FILE *in, const uint8_t *first, size_t nfirst, const pcol_import_options *opt,
                       const char *name, pcol_buf *out, pcol_error *err) {
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
       * reader is multi-stream too); garbage fails in inflate below */
      if (inflateReset(&zs) != Z_OK) {
        rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: inflateReset failed", name);
        break;
      }
      member_done = 0;
    }
    size_t avail;
    if ((rc = room(out, cap, &avail))) {
      rc = pcol_error_set(err, rc, "%s: out of memory inflating", name);
      break;
    }
    if (avail == 0) {
      rc = too_big(name, opt, cap, read, 1, err);
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
  if (!rc && out->len > cap) rc = too_big(name, opt, cap, read, 1, err);
  if (!rc && !member_done)
    rc = pcol_error_set(err, PCOL_ECORRUPT,
                        "%s: truncated gzip stream: input ends after %" PRIu64
                        " compressed bytes inside member %" PRIu64,
                        name, consumed, members + 1);
  inflateEnd(&zs);
  free(inb);
  return rc;
}

/* Reads all of `in` into `out`, inflating if it starts with 1f 8b. */
int pcol_read_all(FILE *in, const pcol_import_options *opt, const char *name, pcol_buf *out,
                  int *gzipped, pcol_error *err) {
  uint8_t first[CHUNK];
  size_t n = fread(first, 1, sizeof first, in);
  if (n == 0 && ferror(in)) return pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  if (n == 0) return pcol_error_set(err, PCOL_ECORRUPT, "%s: empty input file", name);
  *gzipped = n >= 2 && first[0] == 0x1f && first[1] == 0x8b;
  if (*gzipped) return inflate_all(in, first, n, opt, name, out, err);
  uint64_t cap = pcol_input_cap(opt);
  if (n > cap) return too_big(name, opt, cap, n, 0, err);
  if (pcol_buf_append(out, first, n)) return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  for (;;) {
    size_t avail;
    if (room(out, cap, &avail)) return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
    if (avail == 0) return too_big(name, opt, cap, out->len, 0, err);
    size_t k = fread(out->data + out->len, 1, avail, in);
    out->len += k;
    if (k == 0) break;
  }
  if (ferror(in)) return pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  if (out->len > cap) return too_big(name, opt, cap, out->len, 0, err);
  return PCOL_OK;
}

