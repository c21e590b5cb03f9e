/* builder.h — the builder's insides: its tables, stack nodes and lazy columns
 * (builder.c).  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_BUILDER_H
#define PCOL_CORE_BUILDER_H

#include "pcol.h"
#include "buf.h"
#include "hash.h"
#include "schema.h"

/* Column storage of one table inside the builder. */
typedef struct pcol_btable {
  uint64_t rows;
  pcol_buf cols[PCOL_MAX_COLUMNS]; /* cols[k] = column id k+1 */
} pcol_btable;

/* Stack nodes: (parent, location) -> id.  2 words a slot (PCOL_NODE_W):
 * id (0 = empty) and the node's 32-bit path hash, so a probe
 * that passes a slot costs its one cache miss; only a slot whose bits match
 * (nearly always the node itself) reads the parent and location from the
 * stacks table's columns to compare.  The key inline (3 words) cost 12
 * bytes a slot, at load 3/8 to 3/4 and the old table beside the new while
 * it doubled: 1.21 of 1.58 GB packing 25.2M nodes (review rd18b;
 * doc/safety.md "Known limit").  The table now grows by half (load 1/2 to
 * 3/4; a slot's home is the hash scaled to cap, builder.c node_home) and
 * is rebuilt from ph, the old one freed before the new one is touched:
 * 0.31 GB for those nodes, was 0.81.  A node's slot comes from its path hash (ph[id], the
 * hash of its parent's path hash and its location; ph[0] is the root's),
 * not from the parent's id: the slots of a whole stack are known before
 * any of its nodes is found, so pcol_b_stack_memo prefetches them all and
 * their cache misses overlap instead of following one another.  The hash
 * is 32 bits, 4 bytes a node in ph (8 before: 101 MB at 25.2M nodes); two
 * paths of one hash cost a probe, the parent and location tell them apart. */
#define PCOL_NODE_W 2
typedef struct pcol_nodeset {
  uint32_t *e;
  size_t cap, count;
  pcol_buf ph; /* u32 path hash per node id, from 0 */
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
  int spill_bad, spill_bad_errno; /* why a spilled column could not be read back, and where: */
  uint64_t spill_bad_at;          /* (spill.c, for pcol_b_spill_error) */
  size_t spill_unchecked; /* at most this many bytes added since the last check (pcol_b_spill_added) */
  size_t spill_headroom;  /* the bytes the columns could take before their bound, at the last check */
  pcol_hset strings, value_types, functions, mappings, locations, labelsets;
  pcol_hset mapkeys; /* the mappings by go's merge key (pcol_b_mappings_shared) */
  /* go's profile.Merge identity (set by lib/query/diffbase.c: -base and
   * -diff_base merge two profiles as go merges their pprof copies): an
   * unknown (NA) start line, line or column is pprof's 0, so a function or
   * location of a source that knows none (collapsed stacks) is the one of
   * equal name of a pprof source (line 0), and their stacks are one stack;
   * a mapping's flags are not part of its identity (go's mappingKey), and a
   * location's mapping of nothing is none (builder.c id_mapping).
   * The row kept is the first one added. */
  int merge_ids;
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

/* The stack of locs[0, n) (innermost first), as pcol_b_stack, reusing the
 * nodes of the outer frames it shares with the previous stack built
 * through the same memo (consecutive samples usually share most of them,
 * and a repeated stack costs no lookup at all).  The memo holds that
 * previous stack, outermost first; free it with pcol_stack_memo_free.
 * err as the pcol_b_* calls fill it (may be NULL). */
typedef struct pcol_stack_memo {
  pcol_buf locs, nodes;
  pcol_buf hashes; /* the path hashes of a stack's new frames (scratch) */
} pcol_stack_memo;
int pcol_b_stack_memo(pcol_builder *b, pcol_stack_memo *m, const uint32_t *locs, size_t n,
                      uint32_t *stack_id, pcol_error *err);
static inline void pcol_stack_memo_free(pcol_stack_memo *m) {
  pcol_buf_free(&m->locs);
  pcol_buf_free(&m->nodes);
  pcol_buf_free(&m->hashes);
}

/* Empties *b for another profile, as pcol_builder_new makes one (a new
 * *b, the old freed), but keeps the memory its last profile used a quarter
 * of at least: its columns' buffers and its hash tables (cleared), so that
 * a next profile of a like size neither grows them nor faults their pages
 * in again (a wall-clock range's inputs, each built on its own to learn
 * its span: detect.c).  PCOL_OK or PCOL_ENOMEM (then *b is empty or
 * half-made, still to be freed). */
int pcol_builder_reset(pcol_builder **b, pcol_error *err);

/* A table of stack nodes added at once, parents before children (a pcol
 * file's, add_file.c): node i (1 to n) has parent par[i - 1] (0, a root,
 * or a node of the table before it) and builder location loc[i - 1];
 * map[i] gets its builder id, map[0] 0, the same ids n pcol_b_stack_node
 * calls in order give.  ph: room for n + 1 hashes (scratch): every node's
 * path hash is known before any node is found, so each slot is prefetched
 * some nodes ahead and the probes' cache misses overlap instead of
 * following one another (the cost of merging pcol files).  PCOL_EINVAL
 * with *bad = i for node i's parent after it or location not in b, else
 * PCOL_OK, PCOL_ENOMEM or PCOL_ETOOBIG; err as the pcol_b_* calls fill it. */
int pcol_b_stack_nodes(pcol_builder *b, const uint32_t *par, const uint32_t *loc, size_t n,
                       uint32_t *map, uint32_t *ph, size_t *bad, pcol_error *err);

/* A profile's mapping rows m[0..n), as an importer adds them (pprof, OTLP,
 * legacy) and as a merge copies a file's (add_file.c): rows of one merge
 * key are one row, as go's profile.Merge makes them (merge.go Mapping.key;
 * go 1.19's driver merges every profile it reads, one alone too; newer
 * google/pprof skips one alone: doc/mappings.md §2.1): the size
 * rounded up to 4 KiB, the file offset, and the build id, else the file
 * name, else nothing (a fake mapping) -- not the start, so two runs of one
 * program (ASLR, a PIE binary or a library mapped elsewhere), and two
 * processes of it in one profile, are one mapping, and their equal
 * locations and stacks one.  That row is an earlier profile's first row of
 * the key (the rows b held before this call), else the profile's row of it
 * that go keeps (which is added): the one its samples meet first (merge.go
 * mapSample: the samples in order, those of values all 0 skipped, each
 * one's locations leaf first), the profile's first row ahead of all when b
 * holds no mapping yet (merge.go maps src.Mapping[0] first).  reach[i] is
 * the order in which the samples meet row i (0 first; UINT64_MAX: none
 * does, after those that are, by index) as pcol_mappings_reach or the
 * importer counts it; reach NULL: by index (right when
 * pcol_b_mappings_repeat says 0).  id[i] is row i's mapping id, shift[i]
 * what to add to its addresses in it (the kept row's start - m[i]'s: go's
 * mapInfo.offset, 0 for a row kept), modulo 2^64. */
int pcol_b_mappings_shared(pcol_builder *b, const pcol_mapping_row *m, size_t n, const uint64_t *reach,
                           uint32_t *id, uint64_t *shift, pcol_error *err);
/* *repeat = 1 when the row pcol_b_mappings_shared keeps of a merge key
 * depends on reach: rows of m[0..n) of the key that differ (start, limit,
 * names, flags), none of them m[0] when b holds no mapping (ahead of all)
 * and the key none of b's (an earlier profile's row is kept); else 0 (a
 * Go CPU profile lists its binary twice, the first row kept). */
int pcol_b_mappings_repeat(const pcol_builder *b, const pcol_mapping_row *m, size_t n, int *repeat,
                           pcol_error *err);
/* 1 when the next profile's first mapping row is kept (ahead of its key's
 * other rows) whether or not a sample meets it: b holds no mapping yet
 * (merge.go maps src.Mapping[0] first while the merged profile has none).
 * pcol_b_mappings_shared's rule; an importer that lists only the rows its
 * samples use (pprof_legacy.c) lists its first row too then. */
int pcol_b_mapping_first_kept(const pcol_builder *b);
/* reach[0..rows of f's mappings) for pcol_b_mappings_shared of f's
 * mapping rows: the order in which f's samples [from, end) meet them, each
 * sample's stack leaf first, a sample skipped whose values are all 0 (one
 * without values when its weight is 0), as merge.go meets a profile's;
 * UINT64_MAX for a row none meets.  PCOL_OK, or the failure (err set). */
int pcol_mappings_reach(pcol_file *f, uint64_t from, uint64_t end, uint64_t *reach, pcol_error *err);

/* Frames added to every sample's stack by its label set (go tool pprof
 * -tagroot/-tagleaf: lib/query/tagframes.c), for pcol_b_add_file_copy.
 * of_labelset gives input label set ls's (0: none) frames as builder
 * location ids, outermost first: *root above the sample's stack, *leaf
 * below it (arrays valid until the next call). */
typedef struct pcol_b_frames {
  void *ctx;
  int (*of_labelset)(void *ctx, pcol_builder *b, uint32_t ls, const uint32_t **root, size_t *nroot,
                     const uint32_t **leaf, size_t *nleaf, pcol_error *err);
} pcol_b_frames;
/* pcol_b_add_file with changes: frames as above (of_labelset NULL: none);
 * negate: every value times -1 (INT64_MIN becomes INT64_MAX), as go tool
 * pprof's -base/-diff_base scale the base; label_key (a builder string id,
 * 0: none) = label_str: a label set on every sample, replacing one of that
 * key (pprof's
 * "pprof::base" = "true" of -diff_base, lib/query/diffbase.c); scale
 * (NULL: none), pprof's ScaleN of -normalize: the value of input value type
 * t (t < nscale) times scale[t], rounded half away from zero (as Go's
 * int64(math.Round(x)), INT64_MIN past int64), and a sample whose values of
 * the types whose scale is not 1 all become 0 is dropped, unless the file
 * has text rows (they name samples by position: Rprof, Perun) (also
 * pprof's ScaleProfiles of -base, a value type into a finer unit); unit_as
 * (NULL: none): input value type t (t < nunit_as) written with the unit
 * unit_as[t] instead of its own when unit_as[t].ptr is set (the unit the
 * scale took it to).  whole (NULL: every type scale scales): the types
 * scaled as a whole profile after its merge, whose samples of one stack and
 * label set are added up before the drop (pprof's ScaleProfiles of -base,
 * of the merged profile); the others are scaled sample by sample.  drop
 * (NULL: none): THE unit rule's drop of the file's own sources (count.h;
 * go's ScaleN of each input before it merges a side's profiles): a sample
 * it drops is not copied (nor added up).  col_scale (NULL: none; needs
 * pos): the ratio of each column of pos (c < ncol_scale), which scales a
 * value in that column as a whole profile, instead of its type's scale[t]
 * (pprof's -normalize: Normalize's ScaleN has a ratio per position, and a
 * source may list one type in two columns, x/bytes twice: rd16a F2). */
typedef struct pcol_b_copy {
  pcol_b_frames frames;
  int negate;
  const double *scale;
  uint64_t nscale;
  const uint8_t *whole;
  const struct pcol_unit_drop *drop;
  const struct pcol_vpos *pos; /* NULL, or the file's THE union of value columns (xvalues.h): the
                                * whole types' merged samples add up their values by column */
  const double *col_scale;
  uint64_t ncol_scale;
  const pcol_str *unit_as;
  uint64_t nunit_as;
  uint32_t label_key, label_str;
  /* values made from the samples written as stored values (--normalize's
   * copy of a profile whose count or time is no stored value, diffbase.c):
   * fill[s] (input sources s = 1..nfill) PCOL_B_FILL_COUNT adds samples/count
   * = the count by THE count rule (fill_cvt, pcol_count_types), and
   * PCOL_B_FILL_TIME cpu/nanoseconds = THE time rule's (fill_rt, from
   * pcol_rtime_init) and PCOL_B_FILL_ALLOC rprof.alloc/bytes (an Rprof
   * source's, pcol_ralloc_value), to each sample of s, declared by s */
  const uint8_t *fill;
  uint64_t nfill;
  const uint32_t *fill_cvt;
  const struct pcol_rtime *fill_rt;
  const uint32_t *fill_alloc_vt; /* PCOL_B_FILL_ALLOC: rprof.alloc/bytes from these levels (xvalues.h) */
  /* only_source s (0: all): only input source s is copied, with its meta,
   * value types, samples, text rows and models (a file's source alone, as
   * its export with --source s: pcol_open_diff_base_select's selection) */
  uint32_t only_source;
  /* -normalize of a selection (NULL: every sample): the scaled copy's
   * groups add up only the samples norm_sel selects (pcol_select_iter:
   * its source and time range), each value scaled by the fraction of it
   * selected, and a group's sample is a point sample (duration 0) at the
   * time of the first selected tick of its first selected sample, which
   * the same range selects whole (pcol_select_iter_at); the other samples
   * are dropped as all-zero ones are */
  const struct pcol_select *norm_sel;
} pcol_b_copy;
#define PCOL_B_FILL_COUNT 1
#define PCOL_B_FILL_TIME 2
#define PCOL_B_FILL_ALLOC 4
int pcol_b_add_file_copy(pcol_builder *b, pcol_file *f, const pcol_b_copy *opt, pcol_error *err);

/* pcol_b_add_file of a union written before (a directory's index, `pcol
 * index`) into an empty builder: every row as it is, its mapping rows too
 * (add_file.c), so that the files added after it meet the rows the union of
 * the index's own files would have.  PCOL_EINVAL when b is not empty. */
int pcol_b_add_union(pcol_builder *b, pcol_file *f, pcol_error *err);

/* pcol_b_source of a URI with a length, uri[0..ulen) (it may hold NUL: a
 * thread's or a profile's name read whole from JSON's \u0000); its errors
 * named as pcol_b_source's. */
int pcol_b_source_n(pcol_builder *b, const char *type, const char *uri, size_t ulen, int64_t timestamp,
                    uint32_t *source_id, pcol_error *err);

/* Sets source source_id's timestamp (s since the epoch), given at
 * pcol_b_source: the streaming writer's file begun by untimed samples,
 * whose start moves back to an earlier first timed sample.  PCOL_EINVAL
 * for no such source. */
int pcol_b_source_timestamp_set(pcol_builder *b, uint32_t source_id, int64_t timestamp);

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

/* Appends one row of raw column values (cells[k] for column k+1; for the
 * offsets column the caller passes the *end* offset of the row). */
int pcol_bt_push_u32(pcol_btable *t, int col, uint32_t v);
int pcol_bt_push_u64(pcol_btable *t, int col, uint64_t v);

int pcol_bt_push_i64(pcol_btable *t, int col, int64_t v);
int pcol_bt_push_u8(pcol_btable *t, int col, uint8_t v);
int pcol_bt_push_f64(pcol_btable *t, int col, double v);

#endif
