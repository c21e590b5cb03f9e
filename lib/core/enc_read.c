/* enc_read.c — reading encoded columns of format 1.3 (spec.md §4.1) in
 * place: the layout check a section gets on first use, the exception
 * lookup, and reading a run of elements of any view.
 *
 * An encoded column is lanes of frame-of-reference codes: element i is in
 * lane i mod k, row r = i / k, and holds base + r x step + code[r]
 * (modulo 2^64).  Nothing is decoded: the view points at the codes in the
 * file, so a constant column costs 24 bytes and random access stays O(1)
 * (O(log exceptions) for a patched code).
 */
#include "pcol.h"
#include "layout.h"   /* PCOL_ENC_HEADER, PCOL_ENC_LANE, PCOL_ENC_LANE_BASE, ... */
#include "bytes.h"    /* pcol_rd32, pcol_rd64 */
#include "error.h"    /* pcol_corrupt */
#include "enc.h"      /* pcol_enc_parse */
#include "codec.h"    /* pcol_byte_split, pcol_byte_join */
#include <stdlib.h>
#include <string.h>

static uint64_t rd64(const uint8_t *p) { return pcol_rd64(p); }

/* Rows of lane j of k lanes over n elements: ceil((n - j) / k). */
static uint64_t lane_rows(uint64_t n, uint64_t k, uint64_t j) {
  return n > j ? (n - j - 1) / k + 1 : 0;
}

static uint64_t align_up(uint64_t x, uint64_t a) { return a > 1 ? (x + a - 1) / a * a : x; }

static int zero_bytes(const uint8_t *d, uint64_t from, uint64_t to) {
  for (uint64_t i = from; i < to; i++)
    if (d[i]) return 0;
  return 1;
}

/* The all-ones code of a width: a row that holds it may be patched. */
static uint64_t all_ones(uint32_t w) { return w >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * w)) - 1; }

static uint64_t code_at(const pcol_lane *l, uint64_t r) {
  switch (l->width) {
  case 1: return ((const uint8_t *)l->codes)[r];
  case 2: return ((const uint16_t *)l->codes)[r];
  case 4: return ((const uint32_t *)l->codes)[r];
  case 8: return ((const uint64_t *)l->codes)[r];
  default: return 0;
  }
}

/* Each lane's exc_first (pcol.h): one u32 a block of 2^PCOL_EXC_BLOCK_BITS
 * rows, so that a patched code costs a search of its block's exceptions.
 * The arrays follow the lanes in their allocation (one free()). */
static int exc_index(pcol_lane **lanes_io, uint32_t k, uint64_t n) {
  uint64_t total = 0;
  for (uint32_t j = 0; j < k; j++)
    if ((*lanes_io)[j].nexc) total += (lane_rows(n, k, j) >> PCOL_EXC_BLOCK_BITS) + 2;
  if (!total) return PCOL_OK;
  if (total > (SIZE_MAX - (size_t)k * sizeof(pcol_lane)) / sizeof(uint32_t)) return PCOL_ENOMEM;
  pcol_lane *lanes = realloc(*lanes_io, (size_t)k * sizeof *lanes + (size_t)total * sizeof(uint32_t));
  if (!lanes) return PCOL_ENOMEM;
  *lanes_io = lanes;
  uint32_t *at = (uint32_t *)(void *)(lanes + k);
  for (uint32_t j = 0; j < k; j++) {
    pcol_lane *l = &lanes[j];
    if (!l->nexc) continue;
    uint64_t nb = (lane_rows(n, k, j) >> PCOL_EXC_BLOCK_BITS) + 2;
    uint32_t x = 0;
    for (uint64_t b = 0; b < nb; b++) {
      while (x < l->nexc && (l->exc[2 * x] >> PCOL_EXC_BLOCK_BITS) < b) x++;
      at[b] = x;
    }
    l->exc_first = at;
    at += nb;
  }
  return PCOL_OK;
}

/* The byte-split codes of each lane of width 2 or more (format 1.5) joined
 * in place, so that the lanes read as 1.3's.  0, or PCOL_ENOMEM. */
static int join_lanes(const pcol_lane *lanes, uint32_t k, uint64_t n) {
  uint64_t most = 0;
  for (uint32_t j = 0; j < k; j++)
    if (lanes[j].width > 1 && lane_rows(n, k, j) * lanes[j].width > most)
      most = lane_rows(n, k, j) * lanes[j].width; /* within the section: checked */
  if (!most) return PCOL_OK;
  uint8_t *tmp = malloc((size_t)most);
  if (!tmp) return PCOL_ENOMEM;
  for (uint32_t j = 0; j < k; j++) {
    const pcol_lane *l = &lanes[j];
    if (l->width < 2) continue;
    uint64_t rows = lane_rows(n, k, j);
    uint8_t *c = (uint8_t *)(uintptr_t)l->codes; /* the caller's decoded buffer */
    memcpy(tmp, c, (size_t)(rows * l->width));
    pcol_byte_join(tmp, c, rows, l->width);
  }
  free(tmp);
  return PCOL_OK;
}

static int parse(const pcol_section_info *si, const uint8_t *d, int split, pcol_lane **out,
                 uint32_t *nlanes, pcol_error *err);

int pcol_enc_parse(const pcol_section_info *si, const uint8_t *d, pcol_lane **out,
                   uint32_t *nlanes, pcol_error *err) {
  return parse(si, d, 0, out, nlanes, err);
}

int pcol_enc_parse_split(const pcol_section_info *si, uint8_t *d, pcol_lane **out,
                         uint32_t *nlanes, pcol_error *err) {
  return parse(si, d, 1, out, nlanes, err);
}

int pcol_enc_split(const pcol_section_info *si, const uint8_t *d, uint8_t *out) {
  pcol_lane *lanes = NULL;
  uint32_t k = 0;
  pcol_error err;
  if (parse(si, d, 0, &lanes, &k, &err)) return 0;
  int any = 0;
  memcpy(out, d, (size_t)si->decoded_size);
  for (uint32_t j = 0; j < k; j++) {
    const pcol_lane *l = &lanes[j];
    if (l->width < 2) continue;
    size_t at = (size_t)((const uint8_t *)l->codes - d);
    pcol_byte_split(l->codes, out + at, lane_rows(si->count, k, j), l->width);
    any = 1;
  }
  free(lanes);
  return any;
}

static int parse(const pcol_section_info *si, const uint8_t *d, int split, pcol_lane **out,
                 uint32_t *nlanes, pcol_error *err) {
  uint64_t size = si->decoded_size, n = si->count;
  *out = NULL;
  *nlanes = 0;
#define BAD(what, a) pcol_corrupt(err, "encoded section at offset %llu: " what, si->offset, a)
  if (size < PCOL_ENC_HEADER) return BAD("%llu bytes, shorter than its header", size);
  uint32_t k = pcol_rd32(d), reserved = pcol_rd32(d + 4);
  if (reserved) return BAD("reserved header bytes are not zero (%llu)", (uint64_t)reserved);
  if (k == 0 || k > PCOL_ENC_MAX_LANES || (n && k > n) || (!n && k != 1))
    return BAD("%llu lanes: not 1..4096, or more than its elements", (uint64_t)k);
  if ((size - PCOL_ENC_HEADER) / PCOL_ENC_LANE < k)
    return BAD("lane descriptors run past its end (%llu lanes)", (uint64_t)k);
  pcol_lane *lanes = calloc(k, sizeof *lanes);
  if (!lanes) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  uint64_t pos = PCOL_ENC_HEADER + (uint64_t)k * PCOL_ENC_LANE;
  int rc = PCOL_OK;
  /* descriptors, then each lane's codes, each aligned to its width */
  for (uint32_t j = 0; j < k && !rc; j++) {
    const uint8_t *e = d + PCOL_ENC_HEADER + (uint64_t)j * PCOL_ENC_LANE;
    pcol_lane *l = &lanes[j];
    l->base = rd64(e + PCOL_ENC_LANE_BASE);
    l->step = rd64(e + PCOL_ENC_LANE_STEP);
    l->width = e[PCOL_ENC_LANE_WIDTH];
    l->nexc = pcol_rd32(e + PCOL_ENC_LANE_NEXC);
    uint64_t rows = lane_rows(n, k, j), bytes, start = align_up(pos, l->width);
    if (e[17] | e[18] | e[19]) rc = BAD("lane %llu's reserved bytes are not zero", (uint64_t)j);
    else if (l->width != 0 && l->width != 1 && l->width != 2 && l->width != 4 && l->width != 8)
      rc = BAD("lane's width %llu is not 0, 1, 2, 4 or 8", (uint64_t)l->width);
    else if (l->width == 0 && l->nexc)
      rc = BAD("lane %llu of width 0 has exceptions", (uint64_t)j);
    else if (l->nexc > rows)
      rc = BAD("lane %llu has more exceptions than rows", (uint64_t)j);
    else if (start > size || __builtin_mul_overflow(rows, (uint64_t)l->width, &bytes) ||
             bytes > size - start)
      rc = BAD("lane %llu's codes run past its end", (uint64_t)j);
    else if (!zero_bytes(d, pos, start))
      rc = BAD("padding before lane %llu is not zero", (uint64_t)j);
    else {
      l->codes = l->width ? d + start : NULL;
      pos = start + bytes;
    }
  }
  /* 1.5: codes byte-split, joined before an exception's code is read */
  if (!rc && split && join_lanes(lanes, k, n))
    rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  /* then every lane's exceptions, (row, value) pairs from a multiple of 8 */
  uint64_t start = align_up(pos, 8);
  if (!rc && (start > size || !zero_bytes(d, pos, start)))
    rc = BAD("padding before the exceptions is missing or not zero (at byte %llu)", pos);
  pos = start;
  for (uint32_t j = 0; j < k && !rc; j++) {
    pcol_lane *l = &lanes[j];
    if ((size - pos) / 16 < l->nexc) {
      rc = BAD("lane %llu's exceptions run past its end", (uint64_t)j);
      break;
    }
    l->exc = l->nexc ? (const uint64_t *)(const void *)(d + pos) : NULL;
    pos += (uint64_t)l->nexc * 16;
    uint64_t rows = lane_rows(n, k, j), all = all_ones(l->width);
    for (uint32_t x = 0; x < l->nexc && !rc; x++) {
      uint64_t r = l->exc[2 * x];
      if (r >= rows || (x && r <= l->exc[2 * x - 2]))
        rc = BAD("an exception's row %llu is out of order or range", r);
      else if (code_at(l, r) != all)
        rc = BAD("exception for row %llu, whose code is not all ones", r);
    }
  }
  if (!rc && pos != size)
    rc = BAD("its lanes end at byte %llu, not at its end", pos);
  if (!rc && (rc = exc_index(&lanes, k, n)) != PCOL_OK)
    pcol_error_set(err, rc, "out of memory");
#undef BAD
  if (rc) {
    free(lanes);
    return rc;
  }
  *out = lanes;
  *nlanes = k;
  return PCOL_OK;
}

uint64_t pcol_lane_patch(const pcol_lane *l, uint64_t row, uint64_t value) {
  uint64_t lo = 0, hi = l->nexc;
  if (l->exc_first) lo = l->exc_first[row >> PCOL_EXC_BLOCK_BITS],
                    hi = l->exc_first[(row >> PCOL_EXC_BLOCK_BITS) + 1];
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    uint64_t r = l->exc[2 * mid];
    if (r == row) return l->exc[2 * mid + 1];
    if (r < row) lo = mid + 1;
    else hi = mid;
  }
  return value;
}

/* The index of the lane's first exception at or after row r (nexc: none). */
static uint64_t first_exception(const pcol_lane *l, uint64_t r) {
  uint64_t lo = 0, hi = l->nexc;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (l->exc[2 * mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Lane rows [r, r + m) of one lane, written to out[0], out[stride], ...:
 * one loop a width, so that the codes are read as the array they are. */
#define LANE_LOOP(T)                                                                 \
  do {                                                                               \
    const T *c = (const T *)l->codes + r;                                            \
    if (stride == 1 && !l->step)                                                     \
      for (size_t i = 0; i < m; i++) out[i] = x + c[i];                              \
    else                                                                             \
      for (size_t i = 0; i < m; i++, x += l->step) out[i * stride] = x + c[i];       \
  } while (0)
static void lane_read(const pcol_lane *l, uint64_t r, size_t m, uint64_t *out, size_t stride) {
  uint64_t x = l->base + r * l->step, x0 = x;
  switch (l->width) {
  case 0:
    for (size_t i = 0; i < m; i++, x += l->step) out[i * stride] = x;
    return;
  case 1: LANE_LOOP(uint8_t); break;
  case 2: LANE_LOOP(uint16_t); break;
  case 4: LANE_LOOP(uint32_t); break;
  default: LANE_LOOP(uint64_t); break;
  }
  /* then the patched codes: the lane's exceptions among rows [r, r + m) */
  (void)x0;
  for (uint64_t e = first_exception(l, r); e < l->nexc && l->exc[2 * e] < r + m; e++)
    out[(l->exc[2 * e] - r) * stride] = l->exc[2 * e + 1];
}
#undef LANE_LOOP

static void read_bits(const pcol_view *v, uint64_t from, size_t n, uint64_t *out) {
  uint64_t k = v->nlanes;
  if (k == 1) {
    lane_read(v->lanes, from, n, out, 1);
    return;
  }
  /* k lanes: the elements up to the next multiple of k one by one, then
   * each lane's rows in stride */
  size_t head = 0;
  for (; head < n && (from + head) % k; head++) out[head] = pcol_view_encoded_(v, from + head);
  uint64_t r = (from + head) / k;
  size_t rest = n - head, full = rest / k;
  for (uint64_t j = 0; j < k && full; j++) lane_read(&v->lanes[j], r, full, out + head + j, k);
  for (size_t i = head + full * k; i < n; i++) out[i] = pcol_view_encoded_(v, from + i);
}

void pcol_view_read_u64(const pcol_view *v, uint64_t from, size_t n, uint64_t *out) {
  if (v->data) memcpy(out, (const uint64_t *)v->data + from, n * sizeof *out);
  else if (v->nlanes) read_bits(v, from, n, out);
  else
    for (size_t i = 0; i < n; i++) out[i] = (uint64_t)v->dflt;
}

/* lane_read for one lane into u32s (a u32 column's values are below 2^32:
 * the low half of each sum is the value) */
#define LANE_LOOP32(T)                                                               \
  do {                                                                               \
    const T *c = (const T *)l->codes + r;                                            \
    uint32_t x32 = (uint32_t)x;                                                      \
    if (!l->step) { /* ids: base + code, 8 at a time (vectors at -O2) */             \
      size_t i = 0;                                                                  \
      for (; i + 8 <= n; i += 8)                                                     \
        for (size_t j = 0; j < 8; j++) out[i + j] = x32 + (uint32_t)c[i + j];        \
      for (; i < n; i++) out[i] = x32 + (uint32_t)c[i];                              \
    } else                                                                           \
      for (size_t i = 0; i < n; i++, x += l->step) out[i] = (uint32_t)(x + c[i]);   \
  } while (0)
static void lane_read_u32(const pcol_lane *l, uint64_t r, size_t n, uint32_t *restrict out) {
  uint64_t x = l->base + r * l->step;
  switch (l->width) {
  case 0:
    for (size_t i = 0; i < n; i++, x += l->step) out[i] = (uint32_t)x;
    return;
  case 1: LANE_LOOP32(uint8_t); break;
  case 2: LANE_LOOP32(uint16_t); break;
  case 4: LANE_LOOP32(uint32_t); break;
  default: LANE_LOOP32(uint64_t); break;
  }
  for (uint64_t e = first_exception(l, r); e < l->nexc && l->exc[2 * e] < r + n; e++)
    out[l->exc[2 * e] - r] = (uint32_t)l->exc[2 * e + 1]; /* the patched codes */
}
#undef LANE_LOOP32

void pcol_view_read_u32(const pcol_view *v, uint64_t from, size_t n, uint32_t *out) {
  if (v->data) {
    memcpy(out, (const uint32_t *)v->data + from, n * sizeof *out);
    return;
  }
  if (v->nlanes == 1) {
    lane_read_u32(v->lanes, from, n, out);
    return;
  }
  uint64_t tmp[512];
  for (size_t done = 0; done < n;) {
    size_t m = n - done < 512 ? n - done : 512;
    pcol_view_read_u64(v, from + done, m, tmp);
    for (size_t i = 0; i < m; i++) out[done + i] = (uint32_t)tmp[i];
    done += m;
  }
}
