/* instream.c — an importer's input as a FILE* that streams: its bytes, or
 * inflated as they are read when it starts as gzip does (several members),
 * stopping at the input cap (pcol_input_cap; gzip: pcol_inflate_cap).
 * For the importers that read their input once, front to back (the
 * Firefox profile's JSON, OTLP/JSON lines): only 2 x 64 KiB of it is in
 * memory at a time, whatever its size, compressed or not.
 *
 * Its own errors (bad or truncated gzip, the cap, a read error) are kept
 * apart and win in pcol_instream_close: they are the result whatever the
 * reader made of the bytes before them, as when the whole input was read
 * (and inflated) first. */
#include "internal.h"
#include <stdarg.h>
#include <zlib.h>

enum { CHUNK = 65536 };
struct pcol_instream {
  FILE *in, *s;
  const char *name;
  const pcol_import_options *opt;
  pcol_error own;
  int rc, gz, done, inner, zr;
  z_stream zs;
  uint8_t chunk[CHUNK], out[CHUNK];
  size_t n;             /* bytes in chunk */
  size_t olen, opos;    /* out[opos..olen) not yet given */
  uint64_t read, total; /* compressed bytes read; bytes given */
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

/* the end of the input: the checks after the last byte */
static void in_end(pcol_instream *o) {
  if (o->gz && !o->rc && o->zr != Z_STREAM_END && !(o->zr == Z_OK && o->zs.total_in == 0))
    in_fail(o, PCOL_ECORRUPT, "truncated gzip stream: input ends after %llu compressed bytes",
            (unsigned long long)o->read);
  if (!o->rc && ferror(o->in)) in_fail(o, PCOL_EIO, "read error");
  o->done = 1;
}

/* More bytes into out[0..olen); olen 0 at the end or on an error. */
static void pump(pcol_instream *o) {
  o->olen = o->opos = 0;
  while (!o->done && !o->olen) {
    if (!o->gz) {
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
    if (o->inner && o->zs.avail_in) { /* one inflate step over the chunk */
      o->zs.next_out = o->out;
      o->zs.avail_out = CHUNK;
      o->zr = inflate(&o->zs, Z_NO_FLUSH);
      if (o->zr != Z_OK && o->zr != Z_STREAM_END && o->zr != Z_BUF_ERROR) {
        in_fail(o, PCOL_ECORRUPT, "corrupt gzip data near compressed byte offset %llu: %s",
                (unsigned long long)(o->read - o->zs.avail_in), o->zs.msg ? o->zs.msg : "inflate failed");
        return;
      }
      size_t got = CHUNK - o->zs.avail_out;
      uint64_t cap = pcol_inflate_cap(o->opt, o->read);
      if (o->total + got > cap) {
        in_fail(o, PCOL_ETOOBIG, "inflates past the limit of %llu bytes (--max-input)", (unsigned long long)cap);
        return;
      }
      o->olen = got;
      o->total += got;
      if (o->zr == Z_STREAM_END) { /* another member may follow */
        if (inflateReset(&o->zs) != Z_OK) {
          o->rc = pcol_oom(&o->own), o->done = 1;
          return;
        }
        if (!o->zs.avail_in) o->inner = 0;
      }
      if (o->zr == Z_BUF_ERROR && !got) o->inner = 0;
      continue;
    }
    /* the chunk is done: the next one, unless it was the last */
    if (o->n < CHUNK) {
      in_end(o);
      return;
    }
    o->n = fread(o->chunk, 1, CHUNK, o->in);
    o->read += o->n;
    o->zs.next_in = o->chunk;
    o->zs.avail_in = (uInt)o->n;
    o->inner = 1;
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
  o->gz = o->n >= 2 && o->chunk[0] == 0x1f && o->chunk[1] == 0x8b;
  if (o->gz) {
    if (inflateInit2(&o->zs, 15 + 32) != Z_OK) {
      free(o);
      return pcol_oom(err);
    }
    o->zr = Z_OK;
    o->zs.next_in = o->chunk;
    o->zs.avail_in = (uInt)o->n;
    o->inner = 1;
  }
  cookie_io_functions_t io = {in_read, NULL, NULL, NULL};
  if (!(o->s = fopencookie(o, "r", io))) {
    if (o->gz) inflateEnd(&o->zs);
    free(o);
    return pcol_oom(err);
  }
  *out = o, *s = o->s;
  return PCOL_OK;
}

int pcol_instream_gzip(const pcol_instream *o) { return o->gz; }
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
  if (o->gz) inflateEnd(&o->zs);
  free(o);
}
