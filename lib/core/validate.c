/* validate.c — pcol_validate_full: checksums and the checks that read every byte.
 *
 * Open (reader.c) checks the header and the directory, and each column is
 * checked on its first use.  Full validation (spec.md §8.3, O(file size))
 * adds the body and section checksums (of every section, known or not),
 * zero padding, every known column decoded and checked, sample order,
 * text-line and sample-text references, and the declared longest durations
 * (§7.2).  pcol_validate_content is all of it but the checksums and padding:
 * what an input that is only read (many inputs of a reading command) gets.
 */
#include "pcol.h"
#include "keys.h"     /* PCOL_META_MAX_DURATION_NS */
#include "layout.h"   /* PCOL_HEADER_SIZE, PCOL_INCOMPAT_COMPACT_1_2 */
#include "error.h"    /* pcol_oom, pcol_corrupt */
#include "bytes.h"    /* pcol_str_is */
#include "summary.h"  /* pcol_summary_validate */
#include "reader.h"   /* struct pcol_file, pcol_view_release, pcol_idmemo, ... */
#include "select.h"   /* pcol_parse_max_duration */
#include "validate.h" /* pcol_validate_content */
#include <zlib.h>
#include <stdlib.h>

/* First sample row of source s or later (sources are non-decreasing: the
 * sample order was checked before). */
static uint64_t first_of_source(const pcol_view *src, uint64_t n, uint32_t s) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (pcol_view_u32(src, mid) < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* A source's declared longest duration (meta "pcol.max_duration_ns",
 * spec.md §7.2, rule F6): the first meta row with that key for a source
 * (source_id != 0) must be 1 to 18 decimal digits and not smaller than the
 * longest duration_ns of the source's samples, or range queries would miss
 * long samples.  Checked for every source that declares one, with or
 * without samples or a duration column; later rows are ignored. */
static int check_max_durations(pcol_file *f, const pcol_view *src, pcol_error *err) {
  pcol_view dur, mk, mv, ms;
  int rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &dur, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &mk, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &mv, err);
  if (!rc) rc = pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &ms, err);
  if (rc) return rc;
  uint64_t n = f->rows[PCOL_T_SAMPLES], nsrc = f->rows[PCOL_T_SOURCES];
  uint8_t *seen = NULL; /* one bit a source: its first row was checked */
  pcol_idmemo memo = {{0}, {0}};
  for (uint64_t i = 0; i < f->rows[PCOL_T_META]; i++) {
    uint32_t s = pcol_view_u32(&ms, i);
    if (s == 0 || (seen && (seen[s / 8] >> (s % 8) & 1))) continue;
    pcol_str v;
    uint8_t is;
    if ((rc = pcol_string_is_memo(f, &memo, pcol_view_u32(&mk, i), PCOL_META_MAX_DURATION_NS, &is, err)))
      break;
    if (!is) continue;
    if (!seen && !(seen = calloc(nsrc / 8 + 1, 1))) {
      rc = pcol_oom(err);
      break;
    }
    seen[s / 8] |= (uint8_t)(1u << (s % 8));
    if ((rc = pcol_string(f, pcol_view_u32(&mv, i), &v, err))) break;
    int64_t d, mx = 0;
    if (pcol_parse_max_duration(v, &d)) {
      rc = pcol_error_set(err, PCOL_ECORRUPT,
                          "source %u: meta " PCOL_META_MAX_DURATION_NS " is not 1 to 18 decimal digits", s);
      break;
    }
    for (uint64_t r = first_of_source(src, n, s); r < n && pcol_view_u32(src, r) == s; r++)
      if (pcol_view_i64(&dur, r) > mx) mx = pcol_view_i64(&dur, r);
    if (d < mx) {
      rc = pcol_corrupt(err, "source %llu declares a longest duration below its samples' (%llu ns)", s,
                        (uint64_t)mx);
      break;
    }
  }
  free(seen);
  return rc;
}

/* crc of more bytes, n of them at p, after crc; a big mapped file's pages
 * leave the process behind the pass (pcol_file_release) */
static uLong crc_more(pcol_file *f, uLong crc, const uint8_t *p, uint64_t n) {
  while (n) {
    uInt chunk = n > (16u << 20) ? (16u << 20) : (uInt)n;
    crc = crc32(crc, p, chunk);
    pcol_file_release(f, p, chunk);
    p += chunk;
    n -= chunk;
  }
  return crc;
}

int pcol_check_sums(pcol_file *f, pcol_error *err) {
  /* One pass over the body: each section's crc is computed once and folded
   * into the body crc with crc32_combine (sections are in file order,
   * checked at open), the gaps and the directory are added as they come.
   * The first failure is reported as before: the body crc, then the first
   * non-zero padding byte or section crc, in file order.  Padding must be
   * zero (it is covered by the body crc, but a writer bug that leaks bytes
   * would still be caught here). */
  int sec_crc = !(f->hdr.incompat_flags & PCOL_INCOMPAT_COMPACT_1_2); /* F2: compact has none */
  uLong body = crc32(0L, Z_NULL, 0);
  uint64_t pos = PCOL_HEADER_SIZE, bad_pad = 0, bad_sec = 0; /* 0: none (offsets are > 0) */
  const pcol_section_info *bad_si = NULL;
  for (uint32_t i = 1; i <= f->nsections + 1; i++) {
    const pcol_section_info *si = i <= f->nsections ? &f->sections[i].info : NULL;
    if (si && si->column == 0) continue;
    uint64_t end = si ? si->offset : f->hdr.dir_offset;
    for (uint64_t p = pos; p < end && !bad_pad && !bad_sec; p++)
      if (f->base[p]) bad_pad = p;
    if (end > pos) body = crc_more(f, body, f->base + pos, end - pos);
    if (!si) {
      pos = end;
      break;
    }
    if (sec_crc) {
      uLong c = crc_more(f, crc32(0L, Z_NULL, 0), f->base + si->offset, si->stored_size);
      if ((uint32_t)c != si->crc && !bad_pad && !bad_sec) bad_sec = si->offset, bad_si = si;
      body = crc32_combine(body, c, (z_off_t)si->stored_size);
    } else {
      body = crc_more(f, body, f->base + si->offset, si->stored_size);
    }
    pos = si->offset + si->stored_size;
  }
  body = crc_more(f, body, f->base + pos, f->size - pos); /* the directory */
  if ((uint32_t)body != f->hdr.body_crc)
    return pcol_error_set(err, PCOL_ECORRUPT, "body checksum mismatch (bytes 64..%llu)",
                          (unsigned long long)f->size);
  if (bad_pad)
    return pcol_corrupt(err, "padding byte at offset %llu is not zero (%llu)", bad_pad, f->base[bad_pad]);
  if (bad_si)
    return pcol_corrupt(err, "section at offset %llu (%llu bytes): checksum mismatch", bad_si->offset,
                        bad_si->stored_size);
  return PCOL_OK;
}

int pcol_validate_content(pcol_file *f, pcol_error *err) {
  /* Decode and check every known column. */
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    const pcol_table_info *ti = pcol_table_info_get(t);
    for (size_t c = 1; c <= ti->ncolumns; c++) {
      pcol_view v;
      int rc = pcol_column(f, t, c, &v, err);
      if (rc) return rc;
      pcol_view_release(f, &v, 0, v.count);
    }
  }
  /* Samples: grouped by source, time non-decreasing inside a source. */
  pcol_view src, tim;
  int rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim, err);
  if (rc) return rc;
  uint64_t win = pcol_release_rows ? pcol_release_rows : 1, next = win, from = 0;
  for (uint64_t i = 1; i < f->rows[PCOL_T_SAMPLES]; i++) {
    if (i == next) { /* a big mapped file: hold a window of it */
      next += win;
      pcol_view_release(f, &src, from, i - 1);
      pcol_view_release(f, &tim, from, i - 1);
      from = i - 1;
    }
    uint32_t s0 = pcol_view_u32(&src, i - 1), s1 = pcol_view_u32(&src, i);
    if (s1 < s0 || (s1 == s0 && pcol_view_i64(&tim, i) < pcol_view_i64(&tim, i - 1)))
      return pcol_corrupt(err, "samples out of (source, time) order at sample %llu (source %llu)", i + 1, s1);
  }
  pcol_view tl;
  if ((rc = pcol_column(f, PCOL_T_TEXT_LINES, PCOL_C_TL_BEFORE, &tl, err))) return rc;
  for (uint64_t i = 0; i < f->rows[PCOL_T_TEXT_LINES]; i++) {
    uint64_t b = pcol_view_u64(&tl, i);
    if (b == 0 || b > f->rows[PCOL_T_SAMPLES] + 1)
      return pcol_corrupt(err, "text line %llu is placed before sample %llu, out of range", i + 1, b);
  }
  pcol_view sts;
  if ((rc = pcol_column(f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE, &sts, err))) return rc;
  for (uint64_t i = 0; i < f->rows[PCOL_T_SAMPLE_TEXT]; i++)
    if (pcol_view_u32(&sts, i) == 0)
      return pcol_corrupt(err, "sample text %llu names sample %llu", i + 1, 0);
  rc = check_max_durations(f, &src, err);
  if (!rc) rc = pcol_summary_validate(f, err); /* F7 */
  pcol_file_release(f, f->base, f->size); /* (what the checks above touched) */
  return rc;
}

int pcol_validate_full(pcol_file *f, pcol_error *err) {
  int rc = pcol_check_sums(f, err);
  return rc ? rc : pcol_validate_content(f, err);
}
