/* instream.h — an importer's input caps, compression and streamed input
 * (instream.c).  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_INSTREAM_H
#define PCOL_CORE_INSTREAM_H

#include "pcol.h"
#include <stdio.h>

/* The cap on an importer's (decompressed) input: the option, else 8 GiB. */
static inline uint64_t pcol_input_cap(const pcol_import_options *opt) {
  return opt && opt->max_input_bytes ? opt->max_input_bytes : (uint64_t)8 << 30;
}

/* The cap on the inflated bytes of a compressed (gzip) input of which
 * `compressed` bytes have been read so far: max_input_bytes when set, else
 * max(PCOL_INPUT_CAP_MIN, PCOL_INPUT_CAP_PER_BYTE x compressed), at most
 * PCOL_INPUT_CAP_MAX (doc/safety.md, "Resource bounds").  Checked while
 * inflating, so a bomb stops after reading a little more than cap / 64. */
static inline uint64_t pcol_inflate_cap(const pcol_import_options *opt, uint64_t compressed) {
  if (opt && opt->max_input_bytes) return opt->max_input_bytes;
  uint64_t c = compressed > PCOL_INPUT_CAP_MAX / PCOL_INPUT_CAP_PER_BYTE
                   ? PCOL_INPUT_CAP_MAX
                   : compressed * PCOL_INPUT_CAP_PER_BYTE;
  return c < PCOL_INPUT_CAP_MIN ? PCOL_INPUT_CAP_MIN : c;
}

/* What wraps an input, by its first bytes (instream.c): PCOL_COMP_GZIP
 * (1f 8b), PCOL_COMP_ZSTD (a zstd frame, 28 b5 2f fd), PCOL_COMP_LZ4 (an
 * LZ4 frame, 04 22 4d 18) or PCOL_COMP_NONE; its name ("gzip", "zstd",
 * "lz4"). */
enum { PCOL_COMP_NONE = 0, PCOL_COMP_GZIP = 1, PCOL_COMP_ZSTD = 2, PCOL_COMP_LZ4 = 3 };
int pcol_compression(const uint8_t *p, size_t n);
const char *pcol_compression_name(int kind);
/* The first bytes (at most cap, into out) that a compressed head p[0..n)
 * decompresses to, as far as it goes: what detection looks at.  0 when p
 * is not compressed or its first bytes do not decode. */
size_t pcol_unwrap_head(const uint8_t *p, size_t n, uint8_t *out, size_t cap);
/* The refusal of an input past its cap (PCOL_ETOOBIG; kind: what it was
 * compressed with, PCOL_COMP_NONE when raw), `read` compressed bytes read:
 * one message for every reader. */
int pcol_decompressed_too_big(const char *name, const pcol_import_options *opt, uint64_t cap,
                              uint64_t read, int kind, pcol_error *err);
/* 1 when p[0..k) (k <= 4: the bytes there are) can start a frame of kind
 * (a gzip member, a zstd or lz4 frame, or a skippable frame, which zstd and
 * LZ4 share); whole: k must hold the whole magic. */
int pcol_frame_start(int kind, const uint8_t *p, size_t k, int whole);
/* The refusal of bytes after the last complete member or frame of a
 * compressed input that do not start another (PCOL_ECORRUPT): nbytes at
 * compressed offset `at` after `frames` of them, the first nfirst (<= 4)
 * bytes shown, why: the decoder's reason or NULL.  One message for every
 * reader (instream.c, read_all.c). */
int pcol_trailing_data(const char *name, int kind, uint64_t at, uint64_t frames, uint64_t nbytes,
                       const uint8_t *first, size_t nfirst, const char *why, pcol_error *err);
/* An input read front to back as a stream (instream.c): *s yields the
 * bytes of `in`, decompressed when they start as gzip, zstd or LZ4 does, up to
 * the input cap.  When the reader is done (rc: its result), pcol_instream_finish
 * reads the rest if the reader stopped on an error of its own and returns
 * the stream's own error (bad or truncated data, the cap, a read error:
 * err filled; it wins over the reader's) or 0; pcol_instream_free closes
 * *s.  pcol_instream_total: the bytes *s gave. */
typedef struct pcol_instream pcol_instream;
int pcol_instream_open(pcol_instream **o, FILE *in, const char *name,
                       const pcol_import_options *opt, FILE **s, pcol_error *err);
int pcol_instream_gzip(const pcol_instream *o); /* its PCOL_COMP_ kind */
uint64_t pcol_instream_total(const pcol_instream *o);
int pcol_instream_finish(pcol_instream *o, int rc, pcol_error *err);
void pcol_instream_free(pcol_instream *o);

#endif
