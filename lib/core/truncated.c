/* truncated.c — THE rule of stacks the recorder truncated (truncated.h):
 * a JFR recording's stack traces deeper than its stackdepth are cut, so
 * the callers above the cut count less than they ran.  The count lives in
 * meta pcol.truncated_stacks; the formats that have a place for it carry
 * it (pprof: a comment, speedscope: pcolTruncatedStacks of a profile,
 * Firefox: meta.pcolTruncatedStacks; OTLP keeps every meta key as an
 * attribute), and an export to one that has none says the mark is lost
 * (pcol_export). */
#include "truncated.h"
#include "error.h"  /* PCOL_RETURN_NOT_OK */
#include "keys.h"   /* PCOL_META_TRUNCATED_STACKS, PCOL_META_STACK_DEPTH, PCOL_META_NOTE */
#include "bytes.h"  /* pcol_str_i64 */
#include "reader.h" /* pcol_meta_probe */
#include "wall.h"   /* pcol_selection_sources */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcol_b_truncated_stacks(pcol_builder *b, uint32_t src, uint64_t n, pcol_error *err) {
  if (!n) return PCOL_OK;
  char note[96];
  snprintf(note, sizeof note, "stack traces truncated by the recorder: %llu samples", (unsigned long long)n);
  int rc = pcol_b_meta_str(b, src, PCOL_META_NOTE, note, err);
  snprintf(note, sizeof note, "%llu", (unsigned long long)n);
  return rc ? rc : pcol_b_meta_str(b, src, PCOL_META_TRUNCATED_STACKS, note, err);
}

/* *n = source s's meta `key` when a whole number > 0, else 0 */
static int meta_count(pcol_file *f, uint32_t s, const char *key, uint64_t *n, pcol_error *err) {
  *n = 0;
  pcol_str v;
  int64_t x;
  int rc = pcol_meta_probe(f, s, key, &v, err);
  if (rc > 0 && !pcol_str_i64(v, &x) && x > 0) *n = (uint64_t)x;
  return rc < 0 ? rc : PCOL_OK;
}

int pcol_truncated_of(pcol_file *f, uint32_t s, uint64_t *n, pcol_error *err) {
  return meta_count(f, s, PCOL_META_TRUNCATED_STACKS, n, err);
}

int pcol_stack_depth_of(pcol_file *f, uint32_t s, uint64_t *d, pcol_error *err) {
  return meta_count(f, s, PCOL_META_STACK_DEPTH, d, err);
}

int pcol_truncated_total(pcol_file *f, const pcol_select *sel, uint64_t *total, uint64_t *nsrc,
                         pcol_error *err) {
  *total = 0;
  if (nsrc) *nsrc = 0;
  uint8_t *keep = NULL;
  PCOL_RETURN_NOT_OK(pcol_selection_sources(f, sel, &keep, err));
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), x;
  int rc = PCOL_OK;
  for (uint64_t s = 1; s <= ns && !rc; s++) {
    if (!keep[s] || (rc = pcol_truncated_of(f, (uint32_t)s, &x, err)) || !x || x > UINT64_MAX - *total) continue;
    *total += x;
    if (nsrc) ++*nsrc;
  }
  free(keep);
  return rc;
}

#define TRUNC_HEAD "pcol.truncated_stacks: "
#define TRUNC_TAIL " samples have stacks the recorder truncated at its stack depth"

void pcol_truncated_comment(char *out, size_t cap, uint64_t n) {
  snprintf(out, cap, TRUNC_HEAD "%llu" TRUNC_TAIL, (unsigned long long)n);
}

int pcol_truncated_comment_parse(pcol_str s, uint64_t *n) {
  size_t h = sizeof TRUNC_HEAD - 1, t = sizeof TRUNC_TAIL - 1, i = h;
  if (s.len < h + 1 + t || memcmp(s.ptr, TRUNC_HEAD, h) || memcmp(s.ptr + s.len - t, TRUNC_TAIL, t))
    return 0;
  uint64_t v = 0;
  for (; i < s.len - t; i++) {
    unsigned d = (unsigned char)s.ptr[i] - '0';
    if (d > 9 || v > (UINT64_MAX - d) / 10) return 0;
    v = v * 10 + d;
  }
  if (!v || s.ptr[h] == '0') return 0;
  *n = v;
  return 1;
}

void pcol_truncated_lost(char *out, size_t cap, const char *format, uint64_t n) {
  snprintf(out, cap, "%llu samples have stacks the recorder truncated at its stack depth, which the %s "
           "format has no place to mark: a view of the copy does not warn that the callers above the cut "
           "count less than they ran", (unsigned long long)n, format);
}
