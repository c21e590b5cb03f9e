/* otlp_samples.c — a message's Samples read from the wire, one at a time.
 *
 * protobuf-c decodes a message whole: every Sample becomes a struct and
 * three arrays, about 16 times the Sample's bytes (a 719 MB message took
 * 11.8 GB).  So protobuf-c decodes the message without its Samples (the
 * dictionary and the Profiles' own fields: small beside them), and the
 * Samples are read from the wire bytes when needed, as protobuf-c 1.4
 * would read them (pcol_pb_next_c): what it refuses is refused, what it
 * accepts reads the same.  tests/test_otlp.c holds the two readings
 * side by side on mutated messages. */
#include "convert.h"
#include "otlp.h"
#include "pb_wire.h"
#include "buf.h" /* pcol_buf, pcol_buf_free, pcol_buf_reserve, PCOL_BUF_PUSH */
#include "read_all.h" /* pcol_input_done */
#include <string.h>

/* v1.9's Sample numbers to v1.10's (doc/mappings.md 12.1): values 2 -> 4,
 * attribute_indices 3 -> 2, link_index 4 -> 3 */
static uint64_t field_v10(uint64_t f, int v9) {
  static const uint8_t to[5] = {0, 1, 4, 2, 3};
  return v9 && f >= 2 && f <= 4 ? to[f] : f;
}

/* x to buf (NULL: the Sample is only checked) */
#define PUSH(buf, T, x)                                                                 \
  do {                                                                                 \
    if ((buf) && PCOL_BUF_PUSH(buf, T, x)) return -2;                                 \
  } while (0)

/* repeated int32 / int64: one varint (wire type 0) or packed ones */
static int dec_varints(const uint8_t *p, const pcol_pb_field *f, pcol_buf *b, int i32) {
  if (f->wt == 0) {
    if (i32) PUSH(b, int32_t, (int32_t)(uint32_t)f->v);
    else PUSH(b, int64_t, (int64_t)f->v);
    return 0;
  }
  if (f->wt != 2) return -1;
  for (size_t k = f->b; k < f->e;) {
    uint64_t v;
    if (pcol_pb_varint(p, f->e, &k, &v)) return -1;
    if (i32) PUSH(b, int32_t, (int32_t)(uint32_t)v);
    else PUSH(b, int64_t, (int64_t)v);
  }
  return 0;
}

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int k = 7; k >= 0; k--) v = v << 8 | p[k];
  return v;
}

int pcol_otlp_sample(const uint8_t *p, size_t b, size_t e, int v9, otlp_wsample *out) {
  if (out) {
    out->stack_index = out->link_index = 0;
    out->ab.len = out->vb.len = out->tb.len = 0;
  }
  pcol_buf *tb = out ? &out->tb : NULL;
  pcol_pb_field f;
  int r;
  for (size_t i = b; i < e;) {
    if (pcol_pb_next_c(p, e, &i, &f)) return -1;
    uint64_t k = field_v10(f.field, v9);
    switch (k) {
    case 1: /* stack_index, int32 */
    case 3: /* link_index, int32 */
      if (f.wt != 0) return -1;
      if (out) *(k == 1 ? &out->stack_index : &out->link_index) = (int32_t)(uint32_t)f.v;
      break;
    case 2: /* attribute_indices, repeated int32 */
      if ((r = dec_varints(p, &f, out ? &out->ab : NULL, 1))) return r;
      break;
    case 4: /* values, repeated int64 */
      if ((r = dec_varints(p, &f, out ? &out->vb : NULL, 0))) return r;
      break;
    case 5: /* timestamps_unix_nano, repeated fixed64 */
      if (f.wt == 1) {
        PUSH(tb, uint64_t, le64(p + f.b));
      } else if (f.wt == 2) {
        if ((f.e - f.b) % 8) return -1;
        for (size_t t = f.b; t < f.e; t += 8) PUSH(tb, uint64_t, le64(p + t));
      } else {
        return -1;
      }
      break;
    default: break; /* unknown: skipped */
    }
  }
  if (out) {
    out->attrs = (const int32_t *)(const void *)out->ab.data;
    out->n_attrs = out->ab.len / sizeof(int32_t);
    out->values = (const int64_t *)(const void *)out->vb.data;
    out->n_values = out->vb.len / sizeof(int64_t);
    out->times = (const uint64_t *)(const void *)out->tb.data;
    out->n_times = out->tb.len / sizeof(uint64_t);
  }
  return 0;
}

void pcol_otlp_wsample_free(otlp_wsample *s) {
  pcol_buf_free(&s->ab);
  pcol_buf_free(&s->vb);
  pcol_buf_free(&s->tb);
}

int pcol_otlp_next_sample(otlp_scur *s, size_t *b, size_t *e) {
  pcol_pb_field f;
  while (s->i < s->e) {
    if (pcol_pb_next_c(s->p, s->e, &s->i, &f)) return -1; /* (read once already) */
    if (s->pages && s->i - s->kept >= PCOL_OTLP_WINDOW) {
      pcol_otlp_pages_done(s->pages, s->kept, s->i);
      s->kept = s->i;
    }
    if (f.field == 2 && f.wt == 2) {
      *b = f.b;
      *e = f.e;
      return 1;
    }
  }
  if (s->pages) pcol_otlp_pages_done(s->pages, s->kept, s->e);
  s->kept = s->e;
  return 0;
}

void pcol_otlp_pages_done(const pcol_otlp_pages *pg, size_t from, size_t to) {
  if (pg && pg->in) pcol_input_done(pg->in, pg->off + from, pg->off + to);
}

/* ------------------------------------------------ the message without them */

/* The levels of the messages that lead to a Sample: ProfilesData ->
 * resource_profiles (1) -> scope_profiles (2) -> profiles (2) -> samples (2). */
enum { L_DATA, L_RESOURCE, L_SCOPE, L_PROFILE };

typedef struct strip {
  const uint8_t *p;
  int v9;
  pcol_buf sizes;   /* each nested message's size once stripped, in the order met */
  size_t next;      /* writing: the next of them */
  uint8_t *out;     /* writing: where (NULL: measuring) */
  size_t o;
  otlp_prange *prof;
  size_t nprof, cap;
  const pcol_otlp_pages *pages;
  size_t kept;
} strip;

/* The stripped size of the message p[b, e) at level lv (measuring), or
 * writes it at s->out + s->o (writing).  0, -1 protobuf-c would refuse the
 * message, -2 out of memory. */
static int strip_msg(strip *s, size_t b, size_t e, int lv, size_t *size) {
  const uint8_t *p = s->p;
  size_t sz = 0;
  pcol_pb_field f;
  if (lv == L_PROFILE && !s->out) {
    if (PCOL_GROW(s->prof, s->nprof, s->cap)) return -2;
    s->prof[s->nprof++] = (otlp_prange){b, e, 0, 0};
  }
  for (size_t i = b; i < e;) {
    if (pcol_pb_next_c(p, e, &i, &f)) return -1;
    int nest = f.wt == 2 && (lv == L_DATA ? f.field == 1 : f.field == 2);
    if (lv == L_PROFILE && nest) { /* a Sample: checked, not kept */
      if (!s->out) {
        if (pcol_otlp_sample(p, f.b, f.e, s->v9, NULL)) return -1;
        s->prof[s->nprof - 1].n++;
      }
      if (s->pages && f.e - s->kept >= PCOL_OTLP_WINDOW) {
        pcol_otlp_pages_done(s->pages, s->kept, f.e);
        s->kept = f.e;
      }
      continue;
    }
    if (!nest) { /* kept as it is */
      if (s->out) memcpy(s->out + s->o, p + f.at, f.e - f.at);
      s->o += s->out ? f.e - f.at : 0;
      sz += f.e - f.at;
      continue;
    }
    size_t inner, slot = 0;
    if (!s->out) { /* its size goes in the next slot, in the order met */
      slot = s->sizes.len / sizeof(size_t);
      if (PCOL_BUF_PUSH(&s->sizes, size_t, 0)) return -2;
    } else {
      inner = ((const size_t *)(const void *)s->sizes.data)[s->next++];
      s->o += pcol_pb_put_varint(s->out + s->o, f.field << 3 | 2);
      s->o += pcol_pb_put_varint(s->out + s->o, inner);
    }
    int r = strip_msg(s, f.b, f.e, lv + 1, &inner);
    if (r) return r;
    if (!s->out) ((size_t *)(void *)s->sizes.data)[slot] = inner;
    sz += pcol_pb_varint_len(f.field << 3 | 2) + pcol_pb_varint_len(inner) + inner;
  }
  *size = sz;
  return 0;
}

int pcol_otlp_strip_samples(const uint8_t *p, size_t n, int v9, const pcol_otlp_pages *pages,
                            pcol_buf *out, otlp_prange **prof, size_t *nprof) {
  strip s;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.v9 = v9;
  s.pages = pages;
  size_t size;
  int r = strip_msg(&s, 0, n, L_DATA, &size);
  pcol_otlp_pages_done(pages, s.kept, n);
  out->len = 0;
  if (!r && pcol_buf_reserve(out, size + 1)) r = -2;
  if (!r) {
    s.out = out->data;
    s.kept = 0;
    r = strip_msg(&s, 0, n, L_DATA, &size);
    pcol_otlp_pages_done(pages, s.kept, n);
    out->len = s.o;
  }
  pcol_buf_free(&s.sizes);
  if (r) {
    free(s.prof);
    s.prof = NULL, s.nprof = 0;
  }
  *prof = s.prof;
  *nprof = s.nprof;
  return r;
}
