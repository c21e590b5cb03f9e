/* otlp_wire.c — OTLP profiles on the wire: one protobuf field, and
 * detection by content (pcol_otlp_detect): an OTLP message is told from a
 * pprof Profile by its field structure, not by its first byte alone. */
#include "convert.h"
#include "otlp.h"
#include "pb_wire.h"
#include "instream.h" /* pcol_compression, pcol_unwrap_head */
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

/* the shared wire reader (lib/convert/pb_wire.h), and OTLP's rule that
 * field number 0 is malformed */
int pcol_otlp_field(const uint8_t *p, size_t n, size_t *i, uint64_t *field, unsigned *wt,
                    uint64_t *v, size_t *b, size_t *e) {
  pcol_pb_field f;
  memset(&f, 0, sizeof f);
  int r = pcol_pb_next(p, n, i, &f);
  *field = f.field;
  *wt = f.wt;
  *v = f.v;
  *b = f.wt == 2 ? f.b : f.rb;
  *e = f.wt == 2 ? f.e : f.rb;
  return r || f.field == 0 ? -1 : 0;
}

/* protobuf-c's strings whole (otlp.h): each block is [size, check] then
 * the bytes protobuf-c asked for */
#define STR_HEAD alignof(max_align_t)
_Static_assert(STR_HEAD >= 2 * sizeof(size_t), "room for a block's size and check");
static size_t str_check(const char *p, size_t size) {
  return size ^ (size_t)(uintptr_t)p ^ (size_t)0x9e3779b97f4a7c15u;
}
void *pcol_otlp_str_alloc(void *ar, size_t size) {
  if (size > SIZE_MAX - STR_HEAD) return NULL;
  char *p = pcol_arena_alloc(ar, size + STR_HEAD);
  if (!p) return NULL;
  size_t h[2] = {size, str_check(p + STR_HEAD, size)};
  memcpy(p, h, sizeof h);
  return p + STR_HEAD;
}
pcol_str pcol_otlp_str(const pcol_arena *ar, const char *s) {
  if (!s || s == protobuf_c_empty_string) return (pcol_str){"", 0};
  if (pcol_arena_holds(ar, s, STR_HEAD, 1)) {
    size_t h[2];
    memcpy(h, s - STR_HEAD, sizeof h);
    if (h[0] && h[1] == str_check(s, h[0]) && pcol_arena_holds(ar, s, 0, h[0]) && !s[h[0] - 1])
      return (pcol_str){s, h[0] - 1};
  }
  return (pcol_str){s, strlen(s)}; /* (not such a block: as a C string) */
}

/* 1 when p[0..n) (a head: the last field may be cut off) starts like a
 * ProfilesData / ExportProfilesServiceRequest: only fields 1 and 2, both
 * messages, and the first one's content looks like ResourceProfiles
 * (messages and strings only: a pprof ValueType holds varints) or like a
 * dictionary (its first entry the empty zero value). */
static int head_is_message(const uint8_t *p, size_t n) {
  size_t i = 0;
  int first = 1;
  while (i < n) {
    size_t at = i;
    uint64_t tag, len;
    if (pcol_pb_varint(p, n, &i, &tag)) return !first; /* cut by the head's end */
    uint64_t field = tag >> 3;
    if ((tag & 7) != 2 || (field != 1 && field != 2)) return 0;
    if (pcol_pb_varint(p, n, &i, &len)) return !first;
    size_t b = i;
    size_t avail = n - b;
    if (first) {
      if (len == 0) return 0; /* too little to tell */
      if (avail == 0) return 0;
      uint8_t t = p[b];
      /* ResourceProfiles' fields are 1-3, all messages or strings (a pprof
       * sample_type holds varints; a Perfetto trace's first packet starts
       * with a TracePacket field, 6 or past it, Chrome's clock_snapshot) */
      if (field == 1 && ((t & 7) != 2 || (t >> 3) < 1 || (t >> 3) > 3)) return 0;
      if (field == 2 && !((t & 7) == 2 && avail >= 2 && p[b + 1] == 0)) return 0;
      first = 0;
    }
    (void)at;
    if (len > avail) return 1; /* runs past the head */
    i = b + (size_t)len;
  }
  return !first;
}

/* OTLP/JSON: an object whose first key is one of ProfilesData's
 * (Perun's and speedscope's documents start with other keys). */
static int head_is_json(const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
  if (i >= n || p[i] != '{') return 0;
  i++;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
  static const char *const keys[] = {"\"resourceProfiles\"", "\"resource_profiles\"",
                                     "\"dictionary\""};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    size_t l = strlen(keys[k]);
    if (n - i >= l && memcmp(p + i, keys[k], l) == 0) return 1;
  }
  return 0;
}

/* 1 when p[0..n) holds a byte that text never does (a control byte other
 * than tab, line feed and carriage return). */
int pcol_otlp_binary_byte(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r') || p[i] == 0x7f) return 1;
  return 0;
}

static int head_is_otlp(const uint8_t *p, size_t n) {
  if (head_is_json(p, n)) return 1;
  /* the Collector's file exporter: 4-byte big-endian length, message.  The
   * length is any uint32 (a message of 16 MiB or more has a first byte
   * other than 0); a text line whose fifth byte is a line feed is told
   * apart by the bytes text never holds (a binary message has them: its
   * tags and small lengths, the 0 of a length under 16 MiB) */
  if (n >= 6 && (p[4] == 0x0a || p[4] == 0x12) && pcol_otlp_binary_byte(p, n)) {
    uint32_t len = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    size_t m = n - 4 < len ? n - 4 : len;
    if (len >= 2 && head_is_message(p + 4, m)) return 1;
  }
  /* ... with `compression: zstd`: the length, then the message (proto or
   * JSON) as a zstd frame of its own (one that does not decode is read as
   * OTLP too, and refused with zstd's reason) */
  if (pcol_otlp_zstd_frame(p, n)) {
    uint32_t len = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    uint8_t out[4096];
    size_t m = pcol_unwrap_head(p + 4, n - 4 < len ? n - 4 : len, out, sizeof out);
    if (m == 0 || head_is_json(out, m) || head_is_message(out, m)) return 1;
  }
  return head_is_message(p, n);
}

/* (the length is any uint32: a frame of 16 MiB or more compressed has a
 * first byte other than 0; the frame's magic tells) */
int pcol_otlp_zstd_frame(const uint8_t *p, size_t n) {
  return n >= 8 && pcol_compression(p + 4, 4) == PCOL_COMP_ZSTD;
}

int pcol_otlp_detect(const uint8_t *p, size_t n) {
  return head_is_otlp(p, n);
}
