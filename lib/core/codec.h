/* codec.h — section codecs and column transforms (codec.c).  Inside libpcol
 * only (not installed). */
#ifndef PCOL_CORE_CODEC_H
#define PCOL_CORE_CODEC_H

#include "pcol.h"

/* codec.c.  Decodes the stored bytes of a section (codec, then transform
 * bits) into a new buffer of decoded_size bytes (*out, free() it), checking
 * every rule of spec.md §4; PCOL_ECORRUPT or PCOL_ENOMEM with err filled. */
int pcol_section_decode(const pcol_section_info *si, unsigned transform, const uint8_t *stored,
                        void **out, pcol_error *err);
/* transform bits that spec.md §4 allows on a column of element type `type` */
int pcol_transform_allowed(unsigned transform, unsigned type);
/* Byte-stream split (Parquet's BYTE_STREAM_SPLIT) of count elements of w
 * bytes: byte k of element i at k * count + i; join undoes it.  in and out
 * do not overlap. */
void pcol_byte_split(const uint8_t *in, uint8_t *out, uint64_t count, unsigned w);
void pcol_byte_join(const uint8_t *in, uint8_t *out, uint64_t count, unsigned w);

/* A section's stored form: data == NULL when it stays raw. */
typedef struct pcol_encoded {
  uint8_t *data; /* malloc'd */
  uint64_t size;
  uint8_t codec;
  uint16_t transform;
} pcol_encoded;
/* Compresses in[0, n) (count elements of type) with codec (LZ4, or zstd at
 * level with the transforms, of those in `allowed`, that shrink it most;
 * LZ4 at level: below LZ4HC_CLEVEL_MIN the fast coder, else LZ4HC)
 * when that makes it smaller; zstd level 0 is PCOL_ZSTD_SMALL_LEVEL for a
 * section of at most PCOL_ZSTD_SMALL_BYTES, else PCOL_ZSTD_DEFAULT_LEVEL.
 * PCOL_OK (out->data NULL: keep raw) or PCOL_ENOMEM. */
int pcol_section_encode(int codec, int level, unsigned allowed, const uint8_t *in, uint64_t n,
                        uint64_t count, pcol_type type, pcol_encoded *out);

/* Format 1.4 (spec.md §4.2).  The block table of a zstd-blocks section
 * checked (called at open: sizes, order, bounds, the 32768:1 bound of each
 * block), giving its blocks and rows a block; PCOL_ECORRUPT otherwise. */
int pcol_blocks_check(const pcol_section_info *si, const uint8_t *stored, uint32_t *nblocks,
                      uint32_t *block_rows, pcol_error *err);
/* Block b of a checked zstd-blocks section decoded (its frame, then the
 * section's transforms within the block) into dst, its rows x width bytes. */
int pcol_block_decode(const pcol_section_info *si, const uint8_t *stored, uint32_t nblocks,
                      uint32_t block_rows, uint32_t b, uint8_t *dst, pcol_error *err);
/* A column of count elements of type in zstd blocks of block_rows (at
 * level, with the transforms of `allowed` that shrink its first 256 KiB
 * most, applied to each block alone); out->data NULL when that is not
 * smaller than the plain bytes.  PCOL_OK or PCOL_ENOMEM. */
int pcol_section_encode_blocks(int level, unsigned allowed, const uint8_t *in, uint64_t count,
                               pcol_type type, uint32_t block_rows, pcol_encoded *out);
/* The bytes and frames zstd inflated in this process (PCOL_DEBUG=inflate). */
void pcol_inflated(uint64_t *bytes, uint64_t *frames);

#endif
