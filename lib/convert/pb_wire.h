/* pb_wire.h — the protobuf wire format for the converters that read and
 * write it by hand (pprof, OTLP, Perfetto): varints and one field at a
 * time, read from bytes in memory with no allocation, written at a pointer
 * (pcol_pb_put_*) or appended to a pcol_buf (pcol_pb_w_*).  Every
 * hand-written protobuf field in pcol is written by these (THE writers).
 *
 * Two readings of a field, because pcol must accept exactly what it
 * accepted before the streaming decoder (issue 32):
 *  - pcol_pb_next: a field of a top-level message (varints and lengths up
 *    to 10 bytes, 64-bit), as pprof's own top-level scan always read it;
 *  - pcol_pb_next_c: a field of a sub-message the way protobuf-c 1.4.1's
 *    unpack reads it (the decoder the pprof and OTLP importers used for
 *    them): tag and length at most 5 bytes, the tag's bits past 32 lost, a
 *    length past INT_MAX refused; wire types 0, 1, 2 and 5 only; field
 *    number 0 refused when its first byte says so (0x00-0x07; 80 00 is
 *    read as an unknown field 0).
 * Everything is static inline: the sample loop of a 10M-sample import
 * runs through these (and no symbol crosses a layer).
 */
#ifndef PCOL_PB_WIRE_H
#define PCOL_PB_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h" /* pcol_buf, pcol_buf_append */

/* one varint at p[*i..n): 0; -1 truncated; -2 longer than 10 bytes */
static inline int pcol_pb_varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v) {
  size_t k = *i;
  if (k < n && p[k] < 0x80) { /* the common case: one byte */
    *v = p[k];
    *i = k + 1;
    return 0;
  }
  uint64_t r = 0;
  for (int s = 0; s < 70; s += 7) {
    if (k >= n) return -1;
    uint8_t c = p[k++];
    r |= (uint64_t)(c & 0x7f) << s;
    if (!(c & 0x80)) {
      *v = r;
      *i = k;
      return 0;
    }
  }
  return -2;
}

/* bytes of v as a varint (at most 10) written at p */
static inline size_t pcol_pb_put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}
static inline size_t pcol_pb_varint_len(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

/* ------------------------------------------------------------- writing */
/* Wire types. */
enum { PCOL_PB_VARINT = 0, PCOL_PB_I64 = 1, PCOL_PB_LEN = 2, PCOL_PB_I32 = 5 };

/* A field's head: its tag (field, wire type wt) then v as a varint (the
 * value of a varint field, the length of a length-delimited one): its bytes
 * (at most 20) written at p; pcol_pb_head_len counts them. */
static inline size_t pcol_pb_put_head(uint8_t *p, uint64_t field, unsigned wt, uint64_t v) {
  size_t n = pcol_pb_put_varint(p, field << 3 | wt);
  return n + pcol_pb_put_varint(p + n, v);
}
static inline size_t pcol_pb_head_len(uint64_t field, unsigned wt, uint64_t v) {
  return pcol_pb_varint_len(field << 3 | wt) + pcol_pb_varint_len(v);
}
/* v as 8 little-endian bytes at p (a fixed64, sfixed64 or double's bits) */
static inline size_t pcol_pb_put_fixed64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
  return 8;
}

/* The same appended to b: 0, or nonzero out of memory. */
static inline int pcol_pb_w_varint(pcol_buf *b, uint64_t v) {
  uint8_t t[10];
  return pcol_buf_append(b, t, pcol_pb_put_varint(t, v));
}
static inline int pcol_pb_w_head(pcol_buf *b, uint64_t field, unsigned wt, uint64_t v) {
  uint8_t t[20];
  return pcol_buf_append(b, t, pcol_pb_put_head(t, field, wt, v));
}
/* a varint field (written whatever v is: leaving out a zero is the caller's) */
static inline int pcol_pb_w_uint(pcol_buf *b, uint64_t field, uint64_t v) {
  return pcol_pb_w_head(b, field, PCOL_PB_VARINT, v);
}
/* a length-delimited field: p[0..n) (a string by its length, bytes, or a
 * message packed) */
static inline int pcol_pb_w_bytes(pcol_buf *b, uint64_t field, const void *p, size_t n) {
  return pcol_pb_w_head(b, field, PCOL_PB_LEN, n) || (n && pcol_buf_append(b, p, n));
}
/* a fixed64 field (wire type 1): v's 8 bytes, little-endian */
static inline int pcol_pb_w_fixed64(pcol_buf *b, uint64_t field, uint64_t v) {
  uint8_t t[18];
  size_t n = pcol_pb_put_varint(t, field << 3 | PCOL_PB_I64);
  return pcol_buf_append(b, t, n + pcol_pb_put_fixed64(t + n, v));
}

/* ------------------------------------------------------------- reading */
/* One field.  at: where it starts; wire type 0: the value in v; wire
 * type 2: the payload is [b, e); raw: [rb, e) is every byte after the tag
 * (protobuf-c reads a bool from those whatever the wire type). */
typedef struct pcol_pb_field {
  uint64_t field, v;
  unsigned wt;
  size_t at, rb, b, e;
} pcol_pb_field;

/* A top-level field at p[*i..n): 0, or -1 truncated / -2 a varint longer
 * than 10 bytes / -3 an unknown wire type (f->field and f->wt are set). */
static inline int pcol_pb_next(const uint8_t *p, size_t n, size_t *i, pcol_pb_field *f) {
  uint64_t tag, len;
  int r;
  f->at = *i;
  if ((r = pcol_pb_varint(p, n, i, &tag))) return r;
  f->field = tag >> 3;
  f->wt = (unsigned)(tag & 7);
  f->rb = f->b = f->e = *i;
  f->v = 0;
  switch (f->wt) {
  case 0:
    if ((r = pcol_pb_varint(p, n, i, &f->v))) return r;
    break;
  case 1:
    if (n - *i < 8) return -1;
    *i += 8;
    break;
  case 5:
    if (n - *i < 4) return -1;
    *i += 4;
    break;
  case 2:
    if ((r = pcol_pb_varint(p, n, i, &len))) return r;
    if (len > n - *i) return -1;
    f->b = *i;
    *i += (size_t)len;
    break;
  default: return -3;
  }
  f->e = *i;
  return 0;
}

/* A sub-message field at p[*i..n) read as protobuf-c's unpack reads it:
 * 0, or -1 when protobuf-c refuses it. */
static inline int pcol_pb_next_c(const uint8_t *p, size_t n, size_t *i, pcol_pb_field *f) {
  size_t k = *i, rem = n - k;
  f->at = k;
  if (!rem) return -1;
  /* tag: at most 5 bytes, 32 bits (protobuf-c parse_tag_and_wiretype),
   * field 0 refused by its first byte alone */
  if ((p[k] & 0xf8) == 0) return -1;
  uint32_t tag = (uint32_t)(p[k] & 0x7f) >> 3;
  unsigned shift = 4;
  f->wt = p[k] & 7;
  size_t used = 0;
  if (!(p[k] & 0x80)) {
    used = 1;
  } else {
    size_t max = rem > 5 ? 5 : rem;
    for (size_t j = 1; j < max; j++) {
      if (p[k + j] & 0x80) {
        tag |= (uint32_t)(p[k + j] & 0x7f) << shift;
        shift += 7;
      } else {
        tag |= (uint32_t)p[k + j] << shift;
        used = j + 1;
        break;
      }
    }
    if (!used) return -1;
  }
  f->field = tag;
  k += used;
  rem -= used;
  f->rb = f->b = k;
  f->v = 0;
  switch (f->wt) {
  case 0: {
    size_t max = rem < 10 ? rem : 10, j = 0;
    while (j < max && (p[k + j] & 0x80)) j++;
    if (j == max) return -1;
    uint64_t v = 0;
    for (size_t q = 0; q <= j; q++) v |= (uint64_t)(p[k + q] & 0x7f) << (7 * q);
    f->v = v;
    k += j + 1;
    break;
  }
  case 1:
    if (rem < 8) return -1;
    k += 8;
    break;
  case 5:
    if (rem < 4) return -1;
    k += 4;
    break;
  case 2: {
    /* length: at most 5 bytes, read whole (35 bits), past INT_MAX refused
     * (protobuf-c 1.4.1 scan_length_prefixed_data) */
    size_t max = rem < 5 ? rem : 5, j;
    uint64_t val = 0;
    unsigned sh = 0;
    for (j = 0; j < max; j++) {
      val |= (uint64_t)(p[k + j] & 0x7f) << sh;
      sh += 7;
      if (!(p[k + j] & 0x80)) break;
    }
    if (j == max) return -1;
    size_t hdr = j + 1;
    if (val > 0x7fffffff || val > rem - hdr) return -1;
    f->b = k + hdr;
    k += hdr + val;
    break;
  }
  default: return -1;
  }
  f->e = k;
  *i = k;
  return 0;
}

/* protobuf-c's bool: any of the field's bytes after the tag nonzero in
 * its low 7 bits, whatever the wire type */
static inline int pcol_pb_bool_c(const uint8_t *p, const pcol_pb_field *f) {
  for (size_t k = f->rb; k < f->e; k++)
    if (p[k] & 0x7f) return 1;
  return 0;
}

#endif
