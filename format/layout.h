/* layout.h — the fixed-offset parts of a pcol file (spec.md §3, §4), defined
 * once for the reader and the writer.  Every offset is in bytes from the
 * start of the header or of one directory entry; every field is little
 * endian.  Change nothing here without spec.md, a version rule and the
 * conformance files. */
#ifndef PCOL_FORMAT_LAYOUT_H
#define PCOL_FORMAT_LAYOUT_H

#define PCOL_MAGIC "\x89PCOL\r\n\x1a"
#define PCOL_MAGIC_SIZE 8

/* ------------------------------------------------ header (64 bytes) */
#define PCOL_HEADER_SIZE 64
#define PCOL_HDR_MAGIC 0           /* 8 bytes */
#define PCOL_HDR_MAJOR 8           /* u16 */
#define PCOL_HDR_MINOR 10          /* u16 */
#define PCOL_HDR_HEADER_SIZE 12    /* u32, = PCOL_HEADER_SIZE */
#define PCOL_HDR_INCOMPAT 16       /* u64, flags a reader must understand */
/* incompat bit 0, assigned by format 1.1 (spec.md §9): sections may use
 * codecs and column transforms beyond raw and LZ4.  A 1.0 reader refuses it. */
#define PCOL_INCOMPAT_CODECS_1_1 UINT64_C(0x1)
/* incompat bit 1, format 1.2 (spec.md §3.1, §9): the directory is compact
 * (varint entries, dir_entry_size 0), sections in place are aligned to
 * PCOL_COMPACT_ALIGN and decoded ones not at all, and columns may use the
 * row-relative transform.  A 1.0 or 1.1 reader refuses it. */
#define PCOL_INCOMPAT_COMPACT_1_2 UINT64_C(0x2)
/* incompat bit 2, format 1.3 (spec.md §4.1, §9): columns may be encoded
 * (flag PCOL_TRANSFORM_ENCODED): lanes of frame-of-reference codes, read
 * in place.  Set only together with bit 1.  Older readers refuse it. */
#define PCOL_INCOMPAT_ENCODED_1_3 UINT64_C(0x4)
/* incompat bit 3, format 1.4 (spec.md §4.2, §9): sections may use codec
 * PCOL_CODEC_ZSTD_BLOCKS, a column in independent zstd frames of a fixed
 * number of rows, so that a range of rows inflates only its blocks.
 * Older readers refuse it. */
#define PCOL_INCOMPAT_BLOCKS_1_4 UINT64_C(0x8)
/* incompat bit 4, format 1.5 (spec.md §4.1, §9): an encoded column under
 * codec 1 or 2 may store each lane's codes byte-split (flags bit 3 with
 * bit 1): the codec then finds the runs of high bytes a wide code leaves
 * (memory values under LZ4: 0.70x).  Undone once, when the section is
 * inflated, so nothing read in place changes.  Older readers refuse it. */
#define PCOL_INCOMPAT_SPLIT_LANES_1_5 UINT64_C(0x10)
#define PCOL_HDR_COMPAT 24         /* u64, flags a reader may ignore */
#define PCOL_HDR_FILE_SIZE 32      /* u64 */
#define PCOL_HDR_DIR_OFFSET 40     /* u64 */
#define PCOL_HDR_DIR_COUNT 48      /* u32 */
#define PCOL_HDR_DIR_ENTRY_SIZE 52 /* u32, = PCOL_DIR_ENTRY_SIZE */
#define PCOL_HDR_BODY_CRC 56       /* u32, CRC-32 of bytes [64, file_size) */
#define PCOL_HDR_HEADER_CRC 60     /* u32, CRC-32 of bytes [0, 60) */

/* ---------------------------------------- directory entry (64 bytes) */
#define PCOL_DIR_ENTRY_SIZE 64
#define PCOL_DIR_TABLE 0           /* u16 */
#define PCOL_DIR_COLUMN 2          /* u16, 0 = the table's row-count entry */
#define PCOL_DIR_TYPE 4            /* u8, pcol_type */
#define PCOL_DIR_CODEC 5           /* u8, PCOL_CODEC_* */
#define PCOL_DIR_FLAGS 6           /* u16, transforms (1.1; 0 in 1.0) */
#define PCOL_DIR_OFFSET 8          /* u64 */
#define PCOL_DIR_STORED_SIZE 16    /* u64 */
#define PCOL_DIR_DECODED_SIZE 24   /* u64 */
#define PCOL_DIR_COUNT 32          /* u64, elements (or rows, column 0) */
#define PCOL_DIR_CRC 40            /* u32, CRC-32 of the stored bytes */
#define PCOL_DIR_RESERVED 44       /* bytes 44..63, must be 0 */

/* ------------------------------------------------------------ sections */
#define PCOL_ALIGN 64              /* every section starts at a multiple */
#define PCOL_COMPACT_ALIGN 8       /* 1.2 compact file: sections read in place */
#define PCOL_VARINT_MAX 10         /* bytes of a compact directory's varint */
#define PCOL_CODEC_RAW 0
#define PCOL_CODEC_LZ4 1
#define PCOL_CODEC_ZSTD 2          /* format 1.1: one zstd frame */
/* format 1.4 (spec.md §4.2): a block table, then one zstd frame a block of
 * block_rows elements (the last one shorter), each transformed on its own */
#define PCOL_CODEC_ZSTD_BLOCKS 3
#define PCOL_BLOCKS_HEADER 8       /* u32 nblocks, u32 block_rows */
#define PCOL_BLOCKS_END 8          /* then nblocks u64 block ends, from the section's start */
/* Column transforms (format 1.1; row-relative 1.2), bits of the directory
 * entry's flags, undone after the codec: split first, then delta or
 * row-relative (spec.md §4). */
#define PCOL_TRANSFORM_DELTA 0x1   /* v[i] - v[i-1], signed, exact */
#define PCOL_TRANSFORM_SPLIT 0x2   /* byte-stream split */
#define PCOL_TRANSFORM_ROWREL 0x4  /* format 1.2: i - v[i], signed, exact */
/* Format 1.3 (spec.md §4.1): the section holds an encoded column, not the
 * values; with no other transform but, in format 1.5 under a codec,
 * PCOL_TRANSFORM_SPLIT: each lane's codes byte-split. */
#define PCOL_TRANSFORM_ENCODED 0x8

/* ------------------------------------- encoded column (format 1.3, §4.1) */
#define PCOL_ENC_HEADER 8          /* u32 lanes, u32 reserved (0) */
#define PCOL_ENC_LANE 24           /* per lane: u64 base, u64 step, u8 width,
                                    * 3 reserved (0), u32 exceptions */
#define PCOL_ENC_LANE_BASE 0
#define PCOL_ENC_LANE_STEP 8
#define PCOL_ENC_LANE_WIDTH 16
#define PCOL_ENC_LANE_NEXC 20
#define PCOL_ENC_MAX_LANES 4096    /* lanes a column may have */

#endif
