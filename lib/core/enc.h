/* enc.h — format 1.3's encoded columns read (enc_read.c) and chosen and
 * written (enc_write.c).  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_ENC_H
#define PCOL_CORE_ENC_H

#include "pcol.h"

/* enc_read.c.  Checks the lanes of an encoded section (format 1.3, spec.md
 * §4.1) whose decoded bytes are d, and makes their descriptors (*out,
 * free() it; codes point into d).  O(lanes + exceptions). */
int pcol_enc_parse(const pcol_section_info *si, const uint8_t *d, pcol_lane **out,
                   uint32_t *nlanes, pcol_error *err);
/* The same for a section whose lanes' codes are byte-split (format 1.5,
 * flags bit 3 with bit 1): each lane of width 2 or more is joined in place
 * in d (the section's decoded buffer) once its bounds are checked, before
 * its exceptions are. */
int pcol_enc_parse_split(const pcol_section_info *si, uint8_t *d, pcol_lane **out,
                         uint32_t *nlanes, pcol_error *err);
/* The writer's side: d (si->decoded_size bytes of a valid encoded section
 * of si->count elements) copied to out with each lane of width 2 or more
 * byte-split; 1 when some lane was, 0 when none (or d is not valid: out
 * then holds nothing of use). */
int pcol_enc_split(const pcol_section_info *si, const uint8_t *d, uint8_t *out);
/* enc_write.c.  The encoded form chosen for a column (format 1.3, §4.1). */
typedef struct pcol_enc_lane {
  uint64_t base, step; /* as written: bit patterns */
  uint8_t width;
  uint32_t nexc;
  __int128 lo, step_exact; /* the window's low end and the step, exactly */
} pcol_enc_lane;
typedef struct pcol_enc_plan {
  uint32_t k;
  pcol_enc_lane *lanes;
  uint64_t size; /* encoded bytes */
} pcol_enc_plan;
/* A column's plain bytes, fed to f in pieces of whole elements. */
typedef int (*pcol_enc_source)(void *src, int (*f)(void *ctx, const void *d, size_t n), void *ctx);
/* 1 and *out when the column of count elements of `type`, read from `each`
 * (a few passes), is smaller encoded (in 1 lane or k_hint lanes) than
 * plain, or min_width > 0 (every lane then has codes of at least that many
 * bytes: a row the file pays for); 0 when it stays plain or cannot be read. */
int pcol_enc_choose(pcol_enc_source each, void *src, pcol_type type, uint64_t count,
                    uint32_t k_hint, unsigned min_width, pcol_enc_plan *out);
/* Writes the plan's plan->size bytes to put, reading the column again. */
int pcol_enc_emit(const pcol_enc_plan *plan, pcol_enc_source each, void *src, pcol_type type,
                  uint64_t count, int (*put)(void *ctx, const void *d, size_t n), void *put_ctx);
void pcol_enc_plan_free(pcol_enc_plan *p);

#endif
