/* bytes.h — bytes and strings from a file: pcol_str comparisons and decimals,
 * little-endian reads and writes.  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_BYTES_H
#define PCOL_CORE_BYTES_H

#include "pcol.h"
#include <stdint.h>
#include <string.h>

/* s equals the C string c (an NA string equals nothing). */
static inline int pcol_str_is(pcol_str s, const char *c) {
  size_t n = strlen(c);
  return s.ptr && s.len == n && memcmp(s.ptr, c, n) == 0;
}

/* a and b hold the same bytes (NA and "" alike: both empty). */
static inline int pcol_str_same(pcol_str a, pcol_str b) {
  return a.len == b.len && (a.len == 0 || (a.ptr && b.ptr && !memcmp(a.ptr, b.ptr, a.len)));
}

/* A decimal integer as meta values and text formats write them: an optional
 * '-' and 1..19 digits, nothing else, within int64.  0 and *out set, or -1.
 * The one rule every reader of a numeric meta value uses
 * (pcol_meta_get_i64 is its public face). */
static inline int pcol_str_i64(pcol_str s, int64_t *out) {
  size_t i = s.ptr && s.len && s.ptr[0] == '-';
  if (!s.ptr || s.len <= i || s.len - i > 19) return -1;
  uint64_t x = 0;
  for (; i < s.len; i++) {
    if (s.ptr[i] < '0' || s.ptr[i] > '9') return -1;
    x = x * 10 + (uint64_t)(s.ptr[i] - '0'); /* 19 digits: no wrap */
  }
  int neg = s.ptr[0] == '-';
  if (x > (uint64_t)INT64_MAX + (uint64_t)neg) return -1; /* -2^63 is in int64 */
  *out = !neg ? (int64_t)x : x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x;
  return 0;
}

/* p[0..n) as valid UTF-8 in out (room for 3 n bytes): each byte that is
 * not part of a valid sequence (pcol_utf8_len) becomes U+FFFD, as protobuf
 * readers refuse strings of other bytes: THE repair rule of the exports
 * that write protobuf strings (OTLP, Perfetto; utf8.c).  Returns the
 * length. */
size_t pcol_utf8_repair(const uint8_t *p, size_t n, char *out);

static inline uint16_t pcol_rd16(const uint8_t *p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t pcol_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}
static inline uint64_t pcol_rd64(const uint8_t *p) {
  return (uint64_t)pcol_rd32(p) | ((uint64_t)pcol_rd32(p + 4) << 32);
}
static inline void pcol_wr16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void pcol_wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void pcol_wr64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

#endif
