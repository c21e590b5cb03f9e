/* internal.h — helpers shared inside libpcol (not installed). */
#ifndef PCOL_INTERNAL_H
#define PCOL_INTERNAL_H

#include "pcol.h"
#include "keys.h"
#include "layout.h"
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------- error helpers */
/* Returns from the enclosing function with the code of a failed call. */
#define PCOL_RETURN_NOT_OK(expr)                                              \
  do {                                                                        \
    int rc_ = (expr);                                                         \
    if (rc_) return rc_;                                                      \
  } while (0)
/* Same for a callee that takes no pcol_error (the pcol_b_* calls, pcol_buf):
 * fills err with the code's name so that every failure has a message. */
#define PCOL_RETURN_NOT_OK_WITH_ERROR(expr, err)                              \
  do {                                                                        \
    int rc_ = (expr);                                                         \
    if (rc_) return pcol_error_set((err), rc_, "%s", pcol_strerror(rc_));     \
  } while (0)
static inline int pcol_oom(pcol_error *err) {
  return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
}
/* s equals the C string c (an NA string equals nothing). */
static inline int pcol_str_is(pcol_str s, const char *c) {
  size_t n = strlen(c);
  return s.ptr && s.len == n && memcmp(s.ptr, c, n) == 0;
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

/* ------------------------------------------------------- growable buffer */
typedef struct pcol_buf {
  uint8_t *data;
  size_t len, cap;
} pcol_buf;

int pcol_buf_reserve(pcol_buf *b, size_t extra);
int pcol_buf_append(pcol_buf *b, const void *p, size_t n);
static inline void pcol_buf_free(pcol_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}
#define PCOL_BUF_PUSH(buf, T, val)                                   \
  ((buf)->len + sizeof(T) <= (buf)->cap || pcol_buf_reserve((buf), sizeof(T)) == 0 \
       ? (memcpy((buf)->data + (buf)->len, &(T){val}, sizeof(T)),    \
          (buf)->len += sizeof(T), 0)                                \
       : PCOL_ENOMEM)

/* Room for one more element in a growable array `arr` of `n` used and `cap`
 * allocated elements (capacity doubles, from 16).  PCOL_OK or PCOL_ENOMEM;
 * on failure the array is unchanged. */
int pcol_grow(void *arr_ptr, size_t *cap, size_t elem);
/* malloc(n) (calloc when zero), its pages faulted in by one madvise when it
 * is large (256 KiB on): for an array that will be written all over (a
 * decoder's output, a view's per-stack-node sums), where one fault a page
 * of a fresh mapping was a fifth of `pcol top`'s CPU under the project's
 * VM (each fault a hypervisor exit).  Freed with free().  Where
 * MADV_POPULATE_WRITE is unknown (Linux < 5.14), the faults happen as
 * before.  buf.c */
void *pcol_alloc_hot(size_t n, int zero);
/* The pages of [p, p + n) (a mapped column about to be read whole) mapped
 * in by one madvise when it is large (1 MiB on), not one fault each 16
 * pages.  Only a hint: nothing happens on failure or before Linux 5.14. */
void pcol_prefault_read(const void *p, size_t n);
#define PCOL_GROW(arr, n, cap) ((n) < (cap) ? PCOL_OK : pcol_grow(&(arr), &(cap), sizeof *(arr)))

/* ------------------------------------------------------------ hash set */
/* Open-addressing set of 1-based ids; equality is decided by the caller. */
typedef struct pcol_hset {
  uint32_t *slots; /* id, 0 = empty */
  uint64_t *hashes;
  size_t cap, count;
} pcol_hset;

typedef int (*pcol_eq_fn)(const void *ctx, uint32_t id, const void *key);
/* Finds an id whose hash matches and eq() says equal; 0 if none. */
uint32_t pcol_hset_find(const pcol_hset *h, uint64_t hash, pcol_eq_fn eq,
                        const void *ctx, const void *key);
int pcol_hset_insert(pcol_hset *h, uint64_t hash, uint32_t id);
/* Room for n ids without growing (one table of the final size, instead of
 * a rehash of every id at each doubling). */
int pcol_hset_reserve(pcol_hset *h, size_t n);

/* A 64-bit key -> dense index map (open addressing, at most half full):
 * the n-th new key gets index n.  For pairs of ids (an edge, a stack and
 * its labels) that views group by. */
typedef struct pcol_u64map {
  uint64_t *k; /* key + 1; 0 = empty */
  uint32_t *v;
  size_t cap, n;
} pcol_u64map;
/* *index of key, *added = 1 when it is new; PCOL_ENOMEM, or PCOL_ETOOBIG
 * past 2^32 - 1 keys (key UINT64_MAX is refused as PCOL_EINVAL). */
int pcol_u64map_get(pcol_u64map *m, uint64_t key, uint32_t *index, int *added);
void pcol_u64map_free(pcol_u64map *m);
void pcol_hset_free(pcol_hset *h);

/* Keyed hashing (SipHash-1-3, a random key per process): every table keyed
 * by data from a file uses it (hash.c says why).  Bytes: */
uint64_t pcol_hash_bytes(const void *p, size_t n, uint64_t seed);
static inline uint64_t pcol_hash_keyed(const void *p, size_t n) { return pcol_hash_bytes(p, n, 0); }

/* A sequence of 64-bit words (a tuple of ids, addresses, numbers):
 *   pcol_hstate s; pcol_hs_init(&s, TAG); pcol_hs_add(&s, a); ...; h = pcol_hs_end(&s); */
typedef struct pcol_hstate {
  uint64_t v0, v1, v2, v3, n;
} pcol_hstate;
void pcol_hs_init(pcol_hstate *s, uint64_t tag);
/* SipHash-1-3 under the fixed key (k0, k1): the same on every machine, for
 * content keys only (hash.c). */
void pcol_hs_init_fixed(pcol_hstate *s, uint64_t k0, uint64_t k1);
#define PCOL_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
static inline void pcol_sipround(pcol_hstate *s) {
  s->v0 += s->v1, s->v1 = PCOL_ROTL(s->v1, 13), s->v1 ^= s->v0, s->v0 = PCOL_ROTL(s->v0, 32);
  s->v2 += s->v3, s->v3 = PCOL_ROTL(s->v3, 16), s->v3 ^= s->v2;
  s->v0 += s->v3, s->v3 = PCOL_ROTL(s->v3, 21), s->v3 ^= s->v0;
  s->v2 += s->v1, s->v1 = PCOL_ROTL(s->v1, 17), s->v1 ^= s->v2, s->v2 = PCOL_ROTL(s->v2, 32);
}
static inline void pcol_hs_add(pcol_hstate *s, uint64_t w) {
  s->v3 ^= w;
  pcol_sipround(s); /* one compression round: SipHash-1-3 */
  s->v0 ^= w;
  s->n++;
}
/* Finishes with a last block b (the word count, or SipHash's length byte). */
static inline uint64_t pcol_hs_end_with(pcol_hstate *s, uint64_t b) {
  s->v3 ^= b;
  pcol_sipround(s);
  s->v0 ^= b;
  s->v2 ^= 0xff;
  pcol_sipround(s); /* three finalisation rounds */
  pcol_sipround(s);
  pcol_sipround(s);
  return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}
static inline uint64_t pcol_hs_end(pcol_hstate *s) { return pcol_hs_end_with(s, s->n << 56); }
/* Two words, the common case (a stack node, a value type). */
static inline uint64_t pcol_hash2(uint64_t tag, uint64_t a, uint64_t b) {
  pcol_hstate s;
  pcol_hs_init(&s, tag);
  pcol_hs_add(&s, a);
  pcol_hs_add(&s, b);
  return pcol_hs_end(&s);
}

/* ---------------------------------------------------- little endian io */
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

/* Bound on schema column ids (every table has fewer): sizes per-table arrays. */
#define PCOL_MAX_COLUMNS 16

size_t pcol_type_width(pcol_type t); /* 1 for BYTES (a byte each), 0 for an unknown type */

/* ---------------------------------------------------------- builder */
/* Column storage of one table inside the builder. */
typedef struct pcol_btable {
  uint64_t rows;
  pcol_buf cols[PCOL_MAX_COLUMNS]; /* cols[k] = column id k+1 */
} pcol_btable;

/* Stack nodes: (parent, location) -> id with the key inline in the slot,
 * so a probe costs one cache miss (the generic pcol_hset reads the id, the
 * hash and then two builder columns): 3 words a slot, id (0 = empty),
 * parent, location.  A node's slot comes from its path hash (ph[id], the
 * hash of its parent's path hash and its location; ph[0] is the root's),
 * not from the parent's id: the slots of a whole stack are known before
 * any of its nodes is found, so pcol_b_stack_memo prefetches them all and
 * their cache misses overlap instead of following one another. */
typedef struct pcol_nodeset {
  uint32_t *e;
  size_t cap, count;
  pcol_buf ph; /* u64 path hash per node id, from 0 */
} pcol_nodeset;

/* A builder column's bytes that left memory (spill.c): the first len bytes
 * of the column are in fd (an unlinked temporary file, flen bytes of
 * compressed blocks), the column's pcol_buf holds the ones after them.  fd
 * 0 (never opened) or > 0. */
typedef struct pcol_colspill {
  int fd;
  uint64_t len, flen;
} pcol_colspill;

struct pcol_builder {
  pcol_btable t[PCOL_T_COUNT_];
  /* the samples' [0] and the values' [1] columns spilled past
   * pcol_sample_spill_bytes (spill.c); spilling: it has begun (then the
   * columns go to their files each time 1 MiB of them is in memory);
   * nospill: never (no temporary file to be had, a write failed, or the
   * builder was coalesced) */
  pcol_colspill spill[2][PCOL_MAX_COLUMNS];
  int spilling, nospill;
  void *spill_cctx; /* the compressor of spilled blocks (spill.c), made at the first */
  pcol_hset strings, value_types, functions, mappings, locations, labelsets;
  /* the last pcol_b_labelset call's rows as given, and its set: importers
   * give one sample's labels after another, mostly the same ones (a Perun
   * type's keys are copied into each of its events), which then are not
   * sorted and hashed again */
  pcol_label_row *ls_last;
  size_t ls_nlast, ls_caplast;
  uint32_t ls_last_id;
  int ls_has_last;
  pcol_nodeset stacks;
  /* Samples columns that have held only their default so far are not
   * stored: lazy[k] counts the rows of column k+1 while its buffer is empty
   * (the first other value stores them).  A 10M-sample Rprof profile would
   * otherwise keep 320 MB of defaults the writer then skips. */
  uint64_t lazy[PCOL_MAX_COLUMNS];
  uint64_t sdflt[PCOL_MAX_COLUMNS]; /* their defaults, as stored bytes */
  /* While every sample has the same vk values of the same types (vpat),
   * the samples' value offsets (i x vk) and the values' type column (vpat
   * over and over) are implicit: their buffers stay empty but for the
   * leading offset 0.  The first sample that differs stores them
   * (pcol_b_materialize does too); the writer generates them as it writes
   * (writer.c).  A 10M-sample Rprof profile (4 values a sample) would
   * otherwise keep 228 MB of offsets and type ids, as would any pprof
   * profile (every sample has the profile's value types). */
  int vimplicit;
  uint32_t vk;
  uint32_t *vpat;
  uint64_t string_count; /* including NA id 0 */
  int samples_unsorted;  /* set when (source, time) order is broken */
  uint32_t last_source;
  int64_t last_time;
  /* the per-source summary (summary.c, spec.md §6.10), added up as the
   * samples come (pcol_b_sample) and again after coalescing; sum_bad: it
   * could not be kept (out of memory), the file is written without it */
  struct pcol_bsum *sum;
  size_t nsum;
  uint64_t *vt_stamp; /* [vt]: the last sample (stamp) that counted type vt */
  size_t nstamp;
  uint64_t stamp;
  int sum_bad;
};

/* The per-source summary of format 1.3 (summary.c, spec.md §6.10): THE
 * rule for what each source's samples add up to, shared by the writer and
 * full validation (F7).  pcol_bsum_add counts one sample (pcol_b_sample);
 * pcol_bsum_rebuild counts the builder's samples again (after coalescing:
 * every column in memory); pcol_bsum_fill puts the summary into the tables
 * to write (format minor 3) or leaves it out (2); pcol_bsum_free. */
void pcol_bsum_add(pcol_builder *b, const pcol_sample_row *s, const pcol_value_row *v, size_t nv);
void pcol_bsum_rebuild(pcol_builder *b);
int pcol_bsum_fill(pcol_builder *b, unsigned minor);
void pcol_bsum_free(pcol_builder *b);
/* The summary of a file: 1 (the views filled) when it has one, 0 when not
 * (a file of format 1.0-1.2, or without sources), or an error (§8.2 U11).
 * pcol_summary_plausible: 1 when it agrees with the samples wherever
 * O(sources) reads of the stored columns can tell (row counts, each
 * source's first and last row and times); full validation (F7,
 * pcol_summary_validate) recomputes all of it. */
typedef struct pcol_summary {
  pcol_view rows, weight, first, last, end, untimed; /* source_summary: [s - 1] */
  pcol_view total, vrows;                            /* source_value_types' */
} pcol_summary;
int pcol_summary_get(pcol_file *f, pcol_summary *s, pcol_error *err);
int pcol_summary_plausible(pcol_file *f, const pcol_summary *s);
int pcol_summary_validate(pcol_file *f, pcol_error *err);

/* The stack of locs[0, n) (innermost first), as pcol_b_stack, reusing the
 * nodes of the outer frames it shares with the previous stack built
 * through the same memo (consecutive samples usually share most of them,
 * and a repeated stack costs no lookup at all).  The memo holds that
 * previous stack, outermost first; free it with pcol_stack_memo_free. */
typedef struct pcol_stack_memo {
  pcol_buf locs, nodes;
  pcol_buf hashes; /* the path hashes of a stack's new frames (scratch) */
} pcol_stack_memo;
int pcol_b_stack_memo(pcol_builder *b, pcol_stack_memo *m, const uint32_t *locs, size_t n,
                      uint32_t *stack_id);
static inline void pcol_stack_memo_free(pcol_stack_memo *m) {
  pcol_buf_free(&m->locs);
  pcol_buf_free(&m->nodes);
  pcol_buf_free(&m->hashes);
}

/* Stores the samples columns kept lazy (every reader of the builder's
 * sample columns calls it first).  PCOL_OK or PCOL_ENOMEM. */
int pcol_b_materialize(pcol_builder *b);
/* Stores samples column c + 1 if it is still lazy (the writer's kept
 * column of all-default samples). */
int pcol_b_materialize_sample_column(pcol_builder *b, int c);
/* While b->vimplicit: element i of the samples' value offsets (kind 0,
 * u64) or of the values' type column (kind 1, u32), n of them from first,
 * into out. */
void pcol_b_implicit_fill(const pcol_builder *b, int kind, uint64_t first, size_t n, void *out);

/* ------------------------------------------------ sample spilling (spill.c)
 * Past pcol_sample_spill_bytes (16 MiB) of sample and value columns in
 * memory, a builder moves them to unlinked temporary files in $TMPDIR
 * (else /tmp) and from then on keeps at most ~1 MiB of them in memory, so
 * an importer's memory follows its distinct strings, frames and stacks,
 * not its samples.  The files hold the columns in compressed blocks (a
 * constant column costs next to nothing on disk).  The writer reads a
 * spilled column back in pieces (raw, encoded) or maps a decompressed copy
 * (compressed); coalescing reads them back into memory. */
extern size_t pcol_sample_spill_bytes; /* 0: never spill (tests change it) */
/* Spills when the columns in memory reach the threshold.  Never fails: a
 * builder that cannot spill keeps its columns in memory. */
void pcol_b_spill_check(pcol_builder *b);
/* 1 when column c (0-based) of table t has bytes in its file. */
int pcol_b_col_spilled(const pcol_builder *b, int t, int c);
/* The bytes of column c of table t, in order, fed to f in pieces (file
 * part, then memory part); PCOL_EIO on a read failure or f's non-zero. */
int pcol_b_col_each(const pcol_builder *b, int t, int c,
                    int (*f)(void *ctx, const void *d, size_t n), void *ctx);
/* Column c of table t whole and contiguous: decompressed into another
 * unlinked temporary file, mapped read-only (*map, *maplen:
 * pcol_b_col_unmap them); a column not spilled is its buffer (*map NULL). */
int pcol_b_col_view(const pcol_builder *b, int t, int c, const uint8_t **data, void **map,
                    size_t *maplen);
void pcol_b_col_unmap(void *map, size_t maplen);
/* Reads every spilled column back into memory, closes the files and spills
 * no more (coalescing rewrites the columns in place).  PCOL_ENOMEM/EIO. */
int pcol_b_unspill(pcol_builder *b);
/* Appends n elements of w bytes to column c (0-based) of table t, from
 * data or, data NULL, n copies of the w bytes at one, spilling as it goes. */
int pcol_b_col_append(pcol_builder *b, int t, int c, const void *data, const void *one, size_t w,
                      uint64_t n);
void pcol_b_spill_free(pcol_builder *b);
/* An unlinked temporary file in $TMPDIR (else /tmp) opened read-write, or -1. */
int pcol_temp_fd(const char *prefix);

/* Appends one row of raw column values (cells[k] for column k+1; for the
 * offsets column the caller passes the *end* offset of the row). */
int pcol_bt_push_u32(pcol_btable *t, int col, uint32_t v);
int pcol_bt_push_u64(pcol_btable *t, int col, uint64_t v);
/* Element i of a builder column held in memory (u32, or i64/u64). */
static inline uint32_t pcol_buf_get32(const pcol_buf *b, uint64_t i) {
  uint32_t v;
  memcpy(&v, b->data + i * 4, 4);
  return v;
}
static inline int64_t pcol_buf_get64(const pcol_buf *b, uint64_t i) {
  int64_t v;
  memcpy(&v, b->data + i * 8, 8);
  return v;
}
int pcol_bt_push_i64(pcol_btable *t, int col, int64_t v);
int pcol_bt_push_u8(pcol_btable *t, int col, uint8_t v);
int pcol_bt_push_f64(pcol_btable *t, int col, double v);

/* A failed write: "WHAT: write error: No space left on device" (errnum, or
 * errno when 0; what may be NULL).  PCOL_EIO.  The one wording of every
 * exporter's and view's write failure. */
int pcol_write_error(pcol_error *err, int errnum, const char *what);

/* --------------------------------------------------------- importers */
/* The cap on an importer's (decompressed) input: the option, else 8 GiB. */
static inline uint64_t pcol_input_cap(const pcol_import_options *opt) {
  return opt && opt->max_input_bytes ? opt->max_input_bytes : (uint64_t)8 << 30;
}


/* ------------------------------------------------------------ reader */
typedef struct pcol_section {
  pcol_section_info info;
  const uint8_t *stored; /* inside the mapping */
  void *_Atomic decoded; /* LZ4 output, decoded once */
} pcol_section;

struct pcol_file {
  const uint8_t *base;
  size_t size;
  int mapped;     /* 1: munmap on close */
  int owned;      /* 1: free(base) on close */
  uint8_t *meta;  /* header + directory read with pread (NULL: parse the mapping) */
  pcol_header_info hdr;
  uint64_t max_decoded;
  uint32_t nsections;
  pcol_section *sections;
  /* index [table][column] -> section index + 1 (0 = absent) */
  uint32_t idx[PCOL_T_COUNT_][PCOL_MAX_COLUMNS];
  uint64_t rows[PCOL_T_COUNT_];
  /* the bytes the user gave, when f was converted from them (pcol_input_bytes);
   * 0: size */
  uint64_t input_bytes;
  /* format 1.3: the bytes its encoded columns would take plain, beyond
   * their encoded size (pcol_input_bytes counts them, at most 64x the file) */
  uint64_t plain_extra;
  void *decode_lock; /* pthread_mutex_t* */
  /* meta and source_value_types rows grouped by source (pcol_meta_get,
   * pcol_source_rows), built on first use under decode_lock; NULL until then */
  struct pcol_src_index *_Atomic meta_index;
  struct pcol_src_index *_Atomic svt_index;
  /* every source's default value type (pcol_source_default_types), [s - 1],
   * computed on first use; NULL until then */
  uint32_t *_Atomic default_types;
};

/* 1 when the file stores column (table, column), 0 when it is absent (every
 * row its default): what a view's data pointer said before columns could
 * be held otherwise (read views only through pcol_view_*). */
static inline int pcol_column_stored(const pcol_file *f, int table, int column) {
  return table > 0 && table < PCOL_T_COUNT_ && column > 0 && column < PCOL_MAX_COLUMNS &&
         f->idx[table][column] != 0;
}


/* The depth of every stack: (*out)[s] for s in 1..rows(stacks) (the frames
 * pcol_stack_walk visits), (*out)[0] = 0; free() it.  One pass: parents
 * precede children (checked when the column is read).  reader.c */
int pcol_stack_depths(pcol_file *f, uint32_t **out, pcol_error *err);

/* THE check of write options (a zstd level in 0..22 when zstd is asked),
 * made by every write and by pcol_writer_open before any.  writer.c */
int pcol_write_options_check(const pcol_write_options *opt, pcol_error *err);

/* The rows of TABLE (PCOL_T_META or PCOL_T_SOURCE_VALUE_TYPES) whose source
 * is SOURCE_ID, in file order: (*rows)[0 .. *n).  An index built once per
 * file (O(rows)), so asking each of N sources costs O(N + rows), not
 * O(N x rows).  The array lives as long as the file. */
int pcol_source_rows(pcol_file *f, int table, uint32_t source_id, const uint32_t **rows,
                     size_t *n, pcol_error *err);

/* The selection's source exists (ENOTFOUND naming both numbers otherwise);
 * pcol_select_iter checks it, and so must code that walks sources itself. */
int pcol_select_check(pcol_file *f, const pcol_select *sel, pcol_error *err);

/* The name and label filters of a selection (filter.c), built once per
 * view: which stack nodes and label sets keep a sample, and which lines and
 * locations hide/show removed from the stacks (NULL when neither is given).
 * `matched` has bit 0 when focus matched a location, 1 ignore, 2 hide, 3
 * show (pprof warns "... expression matched no samples" otherwise). */
typedef struct pcol_filter {
  int active;
  unsigned matched;
  uint8_t *node_keep;   /* [stacks + 1], NULL without name filters */
  uint8_t *line_hidden; /* [lines], NULL without hide/show */
  uint8_t *loc_hidden;  /* [locations + 1], NULL without hide/show */
  uint8_t *ls_keep;     /* [labelsets + 1], NULL without label filters */
  pcol_view s_stack, s_labelset;
  uint64_t nstacks, nlabelsets;
} pcol_filter;
/* Builds the filter of sel (inactive when sel has none).  EINVAL for a bad
 * regular expression. */
int pcol_filter_build(pcol_file *f, const pcol_select *sel, pcol_filter *out, pcol_error *err);
/* 1 when sample `row` passes the filter (always for an inactive one). */
int pcol_filter_keep(const pcol_filter *x, uint64_t row);
/* PCOL_OK when some label of f has key `key`, else ENOTFOUND naming `what`
 * and listing the file's label keys (an unknown key is an error, never an
 * empty answer). */
int pcol_label_key_check(pcol_file *f, const char *what, const char *key, pcol_error *err);
void pcol_filter_free(pcol_filter *x);
/* The one way pcol compiles a user's regular expression (POSIX ERE,
 * REG_NOSUB): EINVAL naming `what` and the expression when it is bad. */
#include <regex.h>
int pcol_rx_compile(regex_t *rx, const char *what, const char *re, pcol_error *err);
/* regexec on a byte string (NA = "") through a NUL-terminated copy kept in
 * *buf (*cap bytes, grown as needed): 1 match, 0 not, -1 out of memory. */
int pcol_rx_match(const regex_t *rx, char **buf, size_t *cap, pcol_str s);
/* pcol_select_iter with a filter built by the caller (NULL: none; sel's
 * own filter strings are then ignored), for views that also need the
 * hidden lines or the unfiltered rows' total. */
int pcol_select_iter_filter(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                            int (*fn)(void *ctx, uint64_t row, int64_t num, int64_t den),
                            void *ctx, pcol_error *err);

/* Meta "pcol.max_duration_ns": 1 to 18 decimal digits, nothing else
 * (spec.md §7).  0 and *out, or -1 when v does not follow that grammar. */
int pcol_parse_max_duration(pcol_str v, int64_t *out);

/* ------------------------------------------------------------ codecs */
/* codec.c.  Decodes the stored bytes of a section (codec, then transform
 * bits) into a new buffer of decoded_size bytes (*out, free() it), checking
 * every rule of spec.md §4; PCOL_ECORRUPT or PCOL_ENOMEM with err filled. */
int pcol_section_decode(const pcol_section_info *si, unsigned transform, const uint8_t *stored,
                        void **out, pcol_error *err);
/* transform bits that spec.md §4 allows on a column of element type `type` */
int pcol_transform_allowed(unsigned transform, unsigned type);
/* enc_read.c.  Checks the lanes of an encoded section (format 1.3, spec.md
 * §4.1) whose decoded bytes are d, and makes their descriptors (*out,
 * free() it; codes point into d).  O(lanes + exceptions). */
int pcol_enc_parse(const pcol_section_info *si, const uint8_t *d, pcol_lane **out,
                   uint32_t *nlanes, pcol_error *err);
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
/* A section's stored form: data == NULL when it stays raw. */
typedef struct pcol_encoded {
  uint8_t *data; /* malloc'd */
  uint64_t size;
  uint8_t codec;
  uint16_t transform;
} pcol_encoded;
/* Compresses in[0, n) (count elements of type) with codec (LZ4, or zstd at
 * level with the transforms, of those in `allowed`, that shrink it most)
 * when that makes it smaller; zstd level 0 is PCOL_ZSTD_SMALL_LEVEL for a
 * section of at most PCOL_ZSTD_SMALL_BYTES, else PCOL_ZSTD_DEFAULT_LEVEL.
 * PCOL_OK (out->data NULL: keep raw) or PCOL_ENOMEM. */
int pcol_section_encode(int codec, int level, unsigned allowed, const uint8_t *in, uint64_t n,
                        uint64_t count, pcol_type type, pcol_encoded *out);

/* pcol_validate_full without the checksums and the zero padding: every
 * column decoded and checked, sample order, text and duration rules.  For
 * a pcol input that a reading command only reads (pcol_open_many), which
 * then costs what one file costs at open (header crc, directory) plus these
 * checks; merge and `validate --full` still check the sums (validate.c). */
int pcol_validate_content(pcol_file *f, pcol_error *err);

/* pcol_open of a file already open as fd (a regular file; fd stays open
 * and is read with pread only, whatever its position): how
 * pcol_open_many opens a pcol input once, having read its magic. */
int pcol_open_fd(int fd, const char *path, const pcol_open_options *opt, pcol_file **out,
                 pcol_error *err);
/* The strings table's two columns fetched once (get), for many lookups
 * (at: what pcol_string does, without fetching them at each call: a view
 * naming every function of many small files spent a tenth of its time
 * there). */
typedef struct pcol_strings {
  pcol_view off, bytes;
  uint64_t n; /* ids, including 0 */
} pcol_strings;
static inline int pcol_strings_get(pcol_file *f, pcol_strings *s, pcol_error *err) {
  s->n = pcol_string_count(f);
  int rc = pcol_column(f, PCOL_T_STRINGS, PCOL_C_STRINGS_OFFSETS, &s->off, err);
  return rc ? rc : pcol_column(f, PCOL_T_STRINGS, PCOL_C_STRINGS_BYTES, &s->bytes, err);
}
static inline int pcol_strings_at(const pcol_strings *s, uint32_t id, pcol_str *out,
                                  pcol_error *err) {
  out->ptr = NULL;
  out->len = 0;
  if (id == 0) return PCOL_OK;
  if (id >= s->n) return pcol_error_set(err, PCOL_ECORRUPT, "string id %u is out of range", id);
  uint64_t a = pcol_view_u64(&s->off, id), e = pcol_view_u64(&s->off, id + 1);
  out->ptr = s->bytes.data ? (const char *)s->bytes.data + a : "";
  out->len = (size_t)(e - a);
  return PCOL_OK;
}
/* An input of many that may be a pcol file (pcol_open_many, pcol_top_many):
 * opened once, its magic read with pread, then the same descriptor opened
 * as pcol and read whole (a day of 1,440 small files: mapping them cost page
 * faults and munmap, 3-5x the CPU of reading them).  *is_pcol = 0, PCOL_OK
 * and nothing open when it is not a regular file that starts with pcol's
 * magic (or "-", or cannot be opened: its importer says why). */
int pcol_open_if_pcol(const char *path, int *is_pcol, pcol_file **out, pcol_error *err);

/* pcol_column, with an encoded column (format 1.3) decoded whole into a
 * plain array the file keeps until close (4 or 8 bytes a row): for the few
 * small columns a view reads at random many times over (the stack trie's
 * parents and locations in top's walk), where a lane lookup per read would
 * cost more than one pass.  reader.c */
int pcol_column_plain(pcol_file *f, int table, int column, pcol_view *out, pcol_error *err);
/* Raw data of a section (decoding if needed); NULL + error on failure. */
const void *pcol_section_data(pcol_file *f, uint32_t sec, pcol_error *err);
/* Tells that bytes [p, p+n) of f will not be needed for a while: when f is
 * mapped and they lie in the mapping, their whole pages leave the process
 * (MADV_DONTNEED on a read-only private mapping: touched again, they are
 * read back from the page cache).  One pass over a file larger than the
 * memory it should take (merge's inputs and its written output, validated)
 * then holds a window of it, not all of it.  Nothing for a file in memory
 * or decoded (heap) data, nor for a file under pcol_release_min bytes
 * (it fits the budget, and reading it back would cost page faults: a
 * many-file `top` validates and then reads each of its small inputs).
 * reader.c */
extern size_t pcol_release_min; /* 64 MiB (tests lower it) */
extern uint64_t pcol_release_rows; /* rows a pass over samples holds: 1M (tests lower it) */
void pcol_file_release(pcol_file *f, const void *p, uint64_t n);
/* The same for elements [from, to) of a column view of f. */
void pcol_view_release(pcol_file *f, const pcol_view *v, uint64_t from, uint64_t to);

/* Fills err with PCOL_ECORRUPT and fmt, whose two %llu take a and b
 * (reader.c and validate.c).  Returns PCOL_ECORRUPT. */
int pcol_corrupt(pcol_error *err, const char *fmt, uint64_t a, uint64_t b);

/* ------------------------------------------------------------ arena */
/* A bump allocator freed in one go (arena.c); pcol_arena_alloc and
 * pcol_arena_free_one have the signatures of a ProtobufCAllocator's. */
typedef struct pcol_arena_chunk {
  struct pcol_arena_chunk *next;
  size_t cap, used;
  alignas(max_align_t) unsigned char data[];
} pcol_arena_chunk;
typedef struct pcol_arena {
  pcol_arena_chunk *head;
  size_t next_cap;
} pcol_arena;
void *pcol_arena_alloc(void *arena, size_t size);
void pcol_arena_free_one(void *arena, void *p); /* nothing: freed with the arena */
void pcol_arena_release(pcol_arena *a);

/* Reads all of `in` into `out` (the caller frees it), inflating it when it
 * starts with the gzip magic (*gzipped = 1), under the input cap; messages
 * name `name`.  read_all.c */
int pcol_read_all(FILE *in, const pcol_import_options *opt, const char *name, pcol_buf *out,
                  int *gzipped, pcol_error *err);
/* An importer's whole input, in memory or (past pcol_spill_bytes, 64 MiB)
 * in an unlinked temporary file in $TMPDIR (else /tmp) mapped read-only; data[0..len)
 * either way.  pcol_input_done tells that [from, to) will not be needed
 * for a while: a mapped input's pages there leave the process (they are
 * read back from the page cache if touched again).  read_all.c */
typedef struct pcol_input {
  const uint8_t *data;
  size_t len;
  pcol_buf buf;
  void *map;
  size_t maplen;
} pcol_input;
extern size_t pcol_spill_bytes; /* 0: never spill (tests change it) */
int pcol_read_input(FILE *in, const pcol_import_options *opt, const char *name, pcol_input *out,
                    int *gzipped, pcol_error *err);
void pcol_input_done(pcol_input *in, size_t from, size_t to);
void pcol_input_free(pcol_input *in);
/* What wraps an input, by its first bytes (instream.c): PCOL_COMP_GZIP
 * (1f 8b), PCOL_COMP_ZSTD (a zstd frame, 28 b5 2f fd) or PCOL_COMP_NONE;
 * its name ("gzip", "zstd"). */
enum { PCOL_COMP_NONE = 0, PCOL_COMP_GZIP = 1, PCOL_COMP_ZSTD = 2 };
int pcol_compression(const uint8_t *p, size_t n);
const char *pcol_compression_name(int kind);
/* The first bytes (at most cap, into out) that a compressed head p[0..n)
 * decompresses to, as far as it goes: what detection looks at.  0 when p
 * is not compressed or its first bytes do not decode. */
size_t pcol_unwrap_head(const uint8_t *p, size_t n, uint8_t *out, size_t cap);
/* The refusal of an input past its cap (PCOL_ETOOBIG; kind: what it was
 * compressed with, PCOL_COMP_NONE when raw), `read` compressed bytes read:
 * one message for every reader. */
int pcol_decompressed_too_big(const char *name, const pcol_import_options *opt, uint64_t cap,
                              uint64_t read, int kind, pcol_error *err);
/* An input read front to back as a stream (instream.c): *s yields the
 * bytes of `in`, decompressed when they start as gzip or zstd does, up to
 * the input cap.  When the reader is done (rc: its result), pcol_instream_finish
 * reads the rest if the reader stopped on an error of its own and returns
 * the stream's own error (bad or truncated data, the cap, a read error:
 * err filled; it wins over the reader's) or 0; pcol_instream_free closes
 * *s.  pcol_instream_total: the bytes *s gave. */
typedef struct pcol_instream pcol_instream;
int pcol_instream_open(pcol_instream **o, FILE *in, const char *name,
                       const pcol_import_options *opt, FILE **s, pcol_error *err);
int pcol_instream_gzip(const pcol_instream *o); /* its PCOL_COMP_ kind */
uint64_t pcol_instream_total(const pcol_instream *o);
int pcol_instream_finish(pcol_instream *o, int rc, pcol_error *err);
void pcol_instream_free(pcol_instream *o);
/* A stream that yields head[0..n) and then the rest of `rest`. */
#include <stdio.h>
FILE *pcol_replay_stream(const void *head, size_t n, FILE *rest);
/* A stream that ends after `cap` bytes of `in` (the caller owns *k, which
 * must outlive the stream); k->over is set when `in` had more.  Line readers
 * use it so that one endless line cannot be buffered past the input cap. */
typedef struct pcol_capped {
  FILE *in;
  uint64_t left;
  int over;
} pcol_capped;
FILE *pcol_capped_stream(pcol_capped *k, FILE *in, uint64_t cap);


/* ------------------------------------------------------ column lists */
/* One column to load: *v = column `column` of table `table`. */
typedef struct pcol_column_req {
  pcol_view *v;
  int table, column;
} pcol_column_req;
/* Loads n columns in order (pcol_column each); stops at the first failure
 * and returns its code, with err filled.  columns.c */
int pcol_columns(pcol_file *f, const pcol_column_req *req, size_t n, pcol_error *err);
#define PCOL_NCOLS(req) (sizeof(req) / sizeof((req)[0]))

/* ------------------------------------------------- wall-clock time */
/* Each source's wall-clock start and duration in ns (index 1..n; NA when
 * unknown), from one pass over sources and meta (wall.c, THE start rule). */
typedef struct pcol_wall {
  int64_t *start, *dur;
  uint64_t n;
} pcol_wall;
int pcol_wall_init(pcol_file *f, pcol_wall *w, pcol_error *err);
void pcol_wall_free(pcol_wall *w);
/* What a wall-clock selection (sel->wall) takes of source s, whose samples
 * have times (timed) or not: PCOL_WALL_RANGE with *from and *to the range
 * relative to the source's start, PCOL_WALL_ALL (every sample, whole),
 * PCOL_WALL_NONE, or an error code (no start; a time-less source cut). */
enum { PCOL_WALL_RANGE = 1, PCOL_WALL_ALL = 2, PCOL_WALL_NONE = 3 };
int pcol_wall_bounds(pcol_file *f, const pcol_wall *w, const pcol_select *sel, uint32_t s,
                     int timed, int64_t *from, int64_t *to, pcol_error *err);

/* ---------------------------------------------------- selected rows */
/* A selected sample row and the fraction num/den of it that is selected
 * (pcol_select_iter, spec.md §7). */
/* THE range rule (select.c, spec.md §7): a long sample of weight w stands
 * for pcol_range_ticks(w) = max(w, 1) ticks at t + k d / n; of them,
 * pcol_range_ticks_before(t, d, n, x) lie before time x (0 for x <= t, n
 * from the last tick on).  A range [a, b) selects before(b) - before(a). */
int64_t pcol_range_ticks(int64_t w);
int64_t pcol_range_ticks_before(int64_t t, int64_t d, int64_t n, int64_t x);
typedef struct pcol_selected_row {
  uint64_t row;
  int64_t num, den;
} pcol_selected_row;
/* Every row pcol_select_iter selects, in its order, into a new array
 * (*rows, free() it; NULL when *n = 0).  PCOL_ENOMEM or a column's error,
 * with err filled.  select.c */
int pcol_select_rows(pcol_file *f, const pcol_select *sel, pcol_selected_row **rows, size_t *n,
                     pcol_error *err);

/* ------------------------------------------------------ sample values */
/* THE rule for "the number of value type vt of a sample", used by every
 * view and exporter: vt 0 (and PCOL_VT_WEIGHT) is the weight column (the
 * query level counts vt 0 by pcol_sample_count below); otherwise the sample's first
 * sample_values entry of that type (a type declared twice by a source, as a
 * pprof profile may, counts once, as go tool pprof -sample_index takes the
 * first).  Returns 1 when present, 0 when the sample has none (*v = 0). */
typedef struct pcol_sample_cols {
  pcol_view weight, voff, vtype, vval;
  uint64_t nvalues;
  /* k > 0: dense values (1.3): every sample's values are the k types of
   * vtype's constant lanes, value j in vval's lane j (pcol_sample_cols_init) */
  uint32_t dense_k;
} pcol_sample_cols;
int pcol_sample_cols_init(pcol_sample_cols *c, pcol_file *f, pcol_error *err);
/* Sets c->dense_k for c's columns (select.c; pcol_sample_cols_init does). */
void pcol_sample_cols_dense(pcol_sample_cols *c);
static inline int pcol_sample_value(const pcol_sample_cols *c, uint64_t row, uint32_t vt,
                                    int64_t *v) {
  if (!vt || vt == PCOL_VT_WEIGHT) {
    *v = pcol_view_i64(&c->weight, row);
    return 1;
  }
  if (c->dense_k) {
    for (uint32_t j = 0; j < c->dense_k; j++)
      if ((uint32_t)c->vtype.lanes[j].base == vt) {
        *v = (int64_t)pcol_lane_get(&c->vval.lanes[j], row);
        return 1;
      }
    *v = 0;
    return 0;
  }
  uint64_t a = pcol_view_u64(&c->voff, row), e = pcol_view_u64(&c->voff, row + 1);
  if (e > c->nvalues) e = c->nvalues; /* the reader checked; belt and braces */
  for (uint64_t i = a; i < e; i++)
    if (pcol_view_u32(&c->vtype, i) == vt) {
      *v = pcol_view_i64(&c->vval, i);
      return 1;
    }
  *v = 0;
  return 0;
}

/* THE count rule (count.c): how many raw samples a row stands for.  c[s]
 * (s = 1..sources; *out has sources + 1 entries, free() it) is the stored
 * "samples/count" type when source s measured one, else 0; a row of source
 * s then counts pcol_sample_count(cols, row, c[s]): that value, or the
 * weight column when the source has none (or the row lacks it). */
int pcol_count_types(pcol_file *f, uint32_t **out, pcol_error *err);
static inline int64_t pcol_sample_count(const pcol_sample_cols *c, uint64_t row, uint32_t cvt) {
  int64_t v;
  if (cvt && pcol_sample_value(c, row, cvt, &v)) return v;
  return pcol_view_i64(&c->weight, row);
}
/* THE time rule (count.c): the CPU time in ns a sample of an Rprof source
 * stands for, which Rprof does not store (interval x ticks, per segment).
 * last_ns[s] > 0: source s derives its time this way (s = 1..nsources);
 * cpu_vt: the stored value type cpu/nanoseconds (0 if none), which the
 * derived time stands in for in sources that lack it.
 * With it, THE decimal-count rule (count.c): a collapsed source stores a
 * decimal count as (T, "1e-9") = count x 10^9 on the lines that have one,
 * and an integer count as (T, "count"), or as the weight for T = "count";
 * a sample of a collapsed source that lacks the decimal type stands for its
 * integer count x 10^9 there.  dec_from[vt] (vt = 1..nvt) = 1 + the type it
 * fills in from (1 + 0: the weight), 0 for other types; collapsed[s] = 1
 * for a collapsed source. */
typedef struct pcol_rtime {
  pcol_view time, dur, weight, source;
  uint64_t nsamples, nsources, nvt;
  int64_t *last_ns;
  uint32_t cpu_vt;
  uint32_t *dec_from;
  uint8_t *collapsed;
} pcol_rtime;
int pcol_rtime_init(pcol_rtime *t, pcol_file *f, pcol_error *err);
/* Its rules of each source and type (last_ns, cpu_vt, dec_from, collapsed:
 * passes over meta, sources and value types), without the samples' views:
 * what pcol_rtime_has and pcol_rtime_fills need, not pcol_rtime_value. */
int pcol_rtime_init_meta(pcol_rtime *t, pcol_file *f, pcol_error *err);
void pcol_rtime_free(pcol_rtime *t);
static inline int pcol_rtime_has(const pcol_rtime *t, uint32_t src) {
  return t->last_ns && src >= 1 && src <= t->nsources && t->last_ns[src] > 0;
}
/* The time of sample `row`, whose source has pcol_rtime_has (inline: the
 * views add it up for every sample, bench/analysis.md). */
static inline int64_t pcol_rtime_value(const pcol_rtime *t, uint64_t row) {
  uint32_t s = pcol_view_u32(&t->source, row);
  int64_t d = pcol_view_i64(&t->dur, row);
  if (d != PCOL_NA_I64 && d > 0) return d; /* a coalesced run: N x interval */
  int64_t t0 = pcol_view_i64(&t->time, row);
  if (row + 1 < t->nsamples && pcol_view_u32(&t->source, row + 1) == s && t0 != PCOL_NA_I64) {
    int64_t t1 = pcol_view_i64(&t->time, row + 1), gap;
    if (t1 != PCOL_NA_I64 && t1 >= t0 && !__builtin_sub_overflow(t1, t0, &gap)) return gap;
  }
  __int128 v = (__int128)pcol_view_i64(&t->weight, row) * (s <= t->nsources ? t->last_ns[s] : 0);
  return v > INT64_MAX ? INT64_MAX : v < -INT64_MAX ? -INT64_MAX : (int64_t)v;
}

/* The time of sample `row` under the time rule: its derived time when its
 * source derives one, else 0 (what pcol_sample_value_rt gives for
 * PCOL_VT_TIME; inline for the loops that add it up a sample). */
static inline __attribute__((always_inline)) int64_t pcol_rtime_time(const pcol_rtime *t,
                                                                     uint64_t row) {
  return pcol_rtime_has(t, pcol_view_u32(&t->source, row)) ? pcol_rtime_value(t, row) : 0;
}

/* 1 when the samples of source src that lack value type vt get it from the
 * decimal-count rule. */
static inline int pcol_rtime_fills(const pcol_rtime *t, uint32_t src, uint32_t vt) {
  return t->dec_from && vt >= 1 && vt <= t->nvt && t->dec_from[vt] && src >= 1 && src <= t->nsources &&
         t->collapsed[src];
}
/* The decimal form (T, "1e-9") of type `from` (0 = the weight) in this
 * file, 0 if none: what a collapsed source's counts are shown as. */
uint32_t pcol_rtime_decimal_of(const pcol_rtime *t, uint32_t from);

/* THE value of type vt of a sample with the time rule applied: the stored
 * value when the sample has one; else the derived time when vt asks for
 * time (PCOL_VT_TIME, or the stored cpu/nanoseconds type a source lacks)
 * and the sample's source derives it.  t may be NULL (no time rule). */
static inline int pcol_sample_value_rt(const pcol_sample_cols *c, const pcol_rtime *t,
                                       uint64_t row, uint32_t vt, int64_t *v) {
  if (vt != PCOL_VT_TIME && pcol_sample_value(c, row, vt, v)) return 1;
  if (t && vt == PCOL_VT_TIME) {
    *v = pcol_rtime_time(t, row);
    return *v != 0 || pcol_rtime_has(t, pcol_view_u32(&t->source, row));
  }
  if (t && vt && vt == t->cpu_vt && pcol_rtime_has(t, pcol_view_u32(&t->source, row))) {
    *v = pcol_rtime_value(t, row);
    return 1;
  }
  int64_t n;
  if (t && pcol_rtime_fills(t, pcol_view_u32(&t->source, row), vt) &&
      pcol_sample_value(c, row, t->dec_from[vt] - 1, &n)) { /* the decimal-count rule */
    *v = n > INT64_MAX / 1000000000 ? INT64_MAX : n < -(INT64_MAX / 1000000000) ? -INT64_MAX : n * 1000000000;
    return 1;
  }
  *v = 0;
  return 0;
}

/* THE rule for which values an export writes for a source (xvalues.c,
 * doc/mappings.md §0 "Export values"), and the derived rprof.alloc. */
#define PCOL_RALLOC_NTYPES 3 /* vsize.small, vsize.large, nodes */
#define PCOL_XV_MAX 8        /* room for a derived source's types */
extern const char *const pcol_ralloc_types[PCOL_RALLOC_NTYPES]; /* their names */
typedef struct pcol_xtype {
  uint32_t vt;          /* 0 the count, PCOL_VT_TIME, PCOL_VT_RPROF_ALLOC or a stored type */
  int level;            /* 1: a level snapshot (Rprof vsize.small, vsize.large, nodes):
                         * a counter where the target has one, never a summed value */
  pcol_str type, unit;  /* its name (borrowed) */
} pcol_xtype;
typedef struct pcol_xvalues {
  pcol_file *f;
  const pcol_rtime *rt; /* borrowed, required */
  pcol_sample_cols sc;
  uint32_t alloc_vt[PCOL_RALLOC_NTYPES]; /* the stored types rprof.alloc derives from (0: none) */
  pcol_view stype, svs, svv, vtt, vtu;
} pcol_xvalues;
int pcol_xvalues_init(pcol_xvalues *x, pcol_file *f, const pcol_rtime *rt, pcol_error *err);
/* The values of source src, in order, into out[0..*n) (cap entries; a
 * derived source needs PCOL_XV_MAX).  *derived = 1 when they are derived
 * (an Rprof source, or one without value types): the count, the time, and
 * an Rprof source's rprof.alloc and levels; else the declared types. */
int pcol_xvalues_source(const pcol_xvalues *x, uint32_t src, pcol_xtype *out, size_t cap, size_t *n,
                        int *derived, pcol_error *err);
/* The value of xtype vt of sample `row` (unscaled): the count by THE count
 * rule (cvt from pcol_count_types, may be NULL), rprof.alloc, or
 * pcol_sample_value_rt. */
int pcol_xvalue(const pcol_xvalues *x, const uint32_t *cvt, uint64_t row, uint32_t vt, int64_t *v,
                pcol_error *err);
/* rprof.alloc of sample `row` (see PCOL_VT_RPROF_ALLOC): PCOL_ETOOBIG on
 * overflow (no message). */
int pcol_ralloc_value(const pcol_sample_cols *sc, const pcol_view *source,
                      const uint32_t vt[PCOL_RALLOC_NTYPES], uint64_t row, int64_t *out);

/* THE rule of decimal units (count.c): a unit "1e-9" or "1e-9 U" holds the
 * value x 10^9 (collapsed decimal counts, Perun real amounts without a time
 * unit).  Returns 9 for such a unit, else 0; *shown (may be NULL) = the
 * unit the value is in once divided: U, "" for "1e-9", else the unit. */
int pcol_unit_decimals(pcol_str unit, pcol_str *shown);
/* v / 10^decimals exactly, without trailing zeros ("12", "1.5", "-0.25");
 * NUL-terminated, truncated to cap.  Returns the length. */
int pcol_decimal_text(char *buf, size_t cap, __int128 v, int decimals);

/* THE default value type of each source in [lo, hi] (0 = the count):
 * d[s - lo].  count.c */
int pcol_source_default_types(pcol_file *f, uint32_t lo, uint32_t hi, uint32_t *d,
                              pcol_error *err);
/* THE default value of a selection (every source, or source_id when not
 * 0): the sources' default when they agree, else 0, "samples", each
 * source's own count, which every source has (*differ = 1; may be NULL).
 * The views (lib/query/value.c, `pcol fold`) and the collapsed exporter
 * both follow it.  count.c */
int pcol_selection_default_type(pcol_file *f, uint32_t source_id, uint32_t *chosen, int *differ,
                                pcol_error *err);

/* ---------------------------------------------------- export budget */
/* THE budget rule of every exporter (doc/safety.md, "Resource bounds"):
 * bytes written, and bytes of output held in memory at once (rendered text,
 * JSON trees, id lists), are each at most B =
 * pcol_export_options.max_output_bytes, or by default
 * max(PCOL_EXPORT_BUDGET_MIN, PCOL_EXPORT_BUDGET_PER_BYTE x pcol_input_bytes: the bytes the user gave).
 * An exporter opens a budget on its output stream and writes to b->fp, a
 * stream that counts bytes and refuses the write that would pass B; memory
 * it holds for output goes through pcol_budget_hold/release.  stream.c */
/* The least an exporter that keeps every sample (Perun, otlp, Firefox; pprof
 * streams its samples and holds none) may hold by default: a zstd file holds
 * a million real samples in under 1 MB (B = 32 MiB) and its Perun export
 * keeps ~40 bytes a sample; a row bomb
 * (16 Mi samples in 2 KB) still stops before its allocation.  fold and the
 * other holders keep B. */
#define PCOL_EXPORT_HOLD_MIN ((uint64_t)512 << 20)

typedef struct pcol_budget {
  uint64_t limit;        /* B, bytes (written; held) */
  uint64_t written, held;
  uint64_t file_size, lines; /* for messages: the file's size, lines allowed */
  uint64_t hold_floor;   /* held bytes allowed by default even past B (exporters of samples) */
  int custom;            /* B came from max_output_bytes */
  int over;              /* a write was refused: it would have passed B */
  int werrno;            /* errno of the first failed write to out (ENOSPC...) */
  const char *what;      /* "collapsed export" */
  FILE *out;             /* the caller's stream */
  FILE *fp;              /* the counting stream in front of it: write here */
} pcol_budget;

/* B for an export of f under opt (NULL: the default). */
uint64_t pcol_export_budget(const pcol_file *f, const pcol_export_options *opt);
/* Starts an export to out: b->fp is the stream to write to. */
int pcol_budget_open(pcol_budget *b, const pcol_file *f, const pcol_export_options *opt,
                     const char *what, FILE *out, pcol_error *err);
/* Rprof writes a sample once per unit of weight: with the default budget,
 * each such line may add PCOL_EXPORT_BUDGET_PER_LINE bytes to B. */
void pcol_budget_allow_lines(pcol_budget *b, uint64_t lines);
/* Holds n more bytes of output in memory: PCOL_OK, or PCOL_ETOOBIG with a
 * message that names the budget and how to raise it. */
int pcol_budget_hold(pcol_budget *b, uint64_t n, pcol_error *err);
/* pcol_budget_hold of n x each bytes (saturating): what an exporter holds
 * per row, held from the row count before the rows are allocated. */
int pcol_budget_hold_each(pcol_budget *b, uint64_t n, uint64_t each, pcol_error *err);
/* pcol_select_rows for an exporter that keeps `each` bytes of output in
 * memory per selected row besides the row itself: counts the selected rows
 * first (allocating nothing), holds count x (sizeof(pcol_selected_row) +
 * each) against b, and only then selects them, so a file of many tiny
 * samples is refused with the budget message before the per-sample memory
 * is taken (issue 28 #6).  select.c */
/* The number of rows sel selects, allocating nothing (an exporter whose
 * output has a known least size per row refuses before taking them). */
int pcol_select_count(pcol_file *f, const pcol_select *sel, uint64_t *count, pcol_error *err);
int pcol_select_rows_held(pcol_file *f, const pcol_select *sel, pcol_budget *b, uint64_t each,
                          pcol_selected_row **rows, size_t *n, pcol_error *err);
static inline void pcol_budget_release(pcol_budget *b, uint64_t n) {
  b->held = n < b->held ? b->held - n : 0;
}
/* The bytes written so far would pass B with n more (a cheap check before
 * writing something of known size)... */
static inline int pcol_budget_exceeded(const pcol_budget *b, uint64_t n) {
  return b->over || n > b->limit - b->written; /* written <= limit always */
}
/* ...and then: refuses the output (PCOL_ETOOBIG, with the message). */
int pcol_budget_refuse(pcol_budget *b, pcol_error *err);
/* Ends the export whose result so far is rc: flushes and closes b->fp,
 * flushes out.  A write refused by the budget turns rc into PCOL_ETOOBIG
 * (with the message); a failed flush into PCOL_EIO.  Returns the result. */
int pcol_budget_close(pcol_budget *b, int rc, pcol_error *err);

/* ------------------------------------------------ decompression cap */
/* The cap on the inflated bytes of a compressed (gzip) input of which
 * `compressed` bytes have been read so far: max_input_bytes when set, else
 * max(PCOL_INPUT_CAP_MIN, PCOL_INPUT_CAP_PER_BYTE x compressed), at most
 * PCOL_INPUT_CAP_MAX (doc/safety.md, "Resource bounds").  Checked while
 * inflating, so a bomb stops after reading a little more than cap / 64. */
static inline uint64_t pcol_inflate_cap(const pcol_import_options *opt, uint64_t compressed) {
  if (opt && opt->max_input_bytes) return opt->max_input_bytes;
  uint64_t c = compressed > PCOL_INPUT_CAP_MAX / PCOL_INPUT_CAP_PER_BYTE
                   ? PCOL_INPUT_CAP_MAX
                   : compressed * PCOL_INPUT_CAP_PER_BYTE;
  return c < PCOL_INPUT_CAP_MIN ? PCOL_INPUT_CAP_MIN : c;
}

#endif
