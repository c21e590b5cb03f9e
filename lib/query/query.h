/* query.h — what the files of the query level share (lib/query, not
 * installed): the key table, which interns the names a view adds up under
 * (function names, "file#line", frame names) as dense ids, and the file
 * column cache (fctx), the columns of the location, line, function, mapping
 * and stack tables that top and the frame tree walk.  Both live in
 * keytab.c.  Frame names come from core's frames.h, format vocabulary from
 * format/keys.h.  value.c also names the value types
 * that rprof.alloc is derived from, for weights.c. */
#ifndef PCOL_QUERY_H
#define PCOL_QUERY_H

#include "pcol.h"
#include "buf.h"      /* pcol_buf */
#include "hash.h"     /* pcol_u64map, pcol_hset */
#include "reader.h"   /* pcol_strings */
#include "filter.h"   /* pcol_filter */
#include "xvalues.h"  /* PCOL_RALLOC_NTYPES, pcol_ralloc_types */
#include "frames.h"
#include <stdlib.h>

/* ------------------------------------------------------ key table */
/* Interned byte strings -> dense ids 1..n (0 = none).  Names copied into
 * the table live in an arena of blocks that never move, so the pcol_str
 * values in s[] stay valid until pcol_q_keytab_free. */
struct pcol_q_ablock;
typedef struct pcol_q_keytab {
  pcol_str *s; /* s[id] */
  uint32_t n;  /* ids 1..n are in use */
  size_t cap;  /* entries allocated in s */
  pcol_hset h;
  struct pcol_q_ablock *arena; /* copies of composed names */
  uint32_t *front;             /* pcol_q_key_front's cache (NULL: none) */
  size_t front_mask;
  /* A table shared by many files' tops (top.c ext_key): lk[id] = gen << 32
   * | that file's key, for the file whose top has generation gen; an
   * entry of another generation is none.  Made as ids are met, never
   * cleared between files. */
  uint64_t *lk;
  size_t lk_cap;
  uint32_t lk_gen;
  /* Keys whose name is a prefix of their bytes (pcol_q_key_intern_shown):
   * shown[id] = the name's length + 1, 0 = all of it (NULL: none such). */
  uint32_t *shown;
  size_t shown_cap;
} pcol_q_keytab;

/* A cache in front of t's keyed table for pcol_q_key_intern, for a table
 * that meets the same names again and again (top_many.c: each file's):
 * `slots` ids (a power of two) in slots found by an unkeyed hash of a
 * name's length and first, middle and last 8 bytes, each checked by
 * comparing the name.  Bounded and two-way (a name's slot and the other of
 * its pair: a day's ~400 names in 4,096 slots direct-mapped sent one lookup
 * in 14 to the keyed hash), a collision only evicts, so crafted names cost
 * at most two compares more than the keyed lookup they would have cost
 * anyway (no flood).  slots >= 2.  PCOL_ENOMEM (then no cache). */
int pcol_q_key_front(pcol_q_keytab *t, size_t slots);

/* The id of p[0..n), 0 if it was never interned. */
uint32_t pcol_q_key_find(const pcol_q_keytab *t, const char *p, size_t n);
/* *id = the id of p[0..n), added if new.  copy = 1: p is temporary and is
 * copied into the arena; copy = 0: p outlives the table (a file string).
 * PCOL_ENOMEM, or PCOL_ETOOBIG past 2^31 - 1 keys, err filled (may be NULL). */
int pcol_q_key_intern(pcol_q_keytab *t, const char *p, size_t n, int copy, uint32_t *id,
                      pcol_error *err);
/* The same with p's hash h = pcol_q_key_hash(p, n), as another table
 * holds it (t->h.hashes): a name moved between tables is hashed once. */
uint64_t pcol_q_key_hash(const char *p, size_t n);
int pcol_q_key_intern_h(pcol_q_keytab *t, const char *p, size_t n, uint64_t h, int copy,
                        uint32_t *id, pcol_error *err);
/* pcol_q_key_intern of p[0..n) whose name is its first `shown` bytes:
 * the rest tells apart keys pprof keeps apart under one printed name (a
 * frame without a function name: its mapping's path and start line, top.c
 * mapping_key).  shown >= n: the whole. */
int pcol_q_key_intern_shown(pcol_q_keytab *t, const char *p, size_t n, size_t shown, int copy,
                            uint32_t *id, pcol_error *err);
/* The name of key id: its bytes, or their shown part. */
static inline pcol_str pcol_q_key_name(const pcol_q_keytab *t, uint32_t id) {
  pcol_str s = t->s[id];
  if (t->shown && id < t->shown_cap && t->shown[id]) s.len = t->shown[id] - 1;
  return s;
}
/* A copy of p[0..n) in t's arena (not interned), valid as long as t; NULL
 * when out of memory. */
const char *pcol_q_key_store(pcol_q_keytab *t, const char *p, size_t n);
/* Room for n keys without growing (a hint: PCOL_ENOMEM only). */
int pcol_q_key_reserve(pcol_q_keytab *t, size_t n);
void pcol_q_keytab_free(pcol_q_keytab *t);

/* ------------------------------------------------- file column cache */
typedef struct pcol_q_fctx {
  pcol_file *f;
  uint64_t nloc, nlines, nfn, nmap, nstacks;
  pcol_view loc_off, loc_map, loc_addr, ln_fn, ln_line, fn_name, fn_file, map_file, st_parent,
      st_loc;
  pcol_frames fr;  /* the frame-naming rule's columns */
  pcol_strings str; /* the strings table (pcol_q_fn_string) */
  pcol_buf scratch; /* names composed by pcol_frame_line_name; the owner frees it */
} pcol_q_fctx;

/* Loads the columns (each checked by pcol_column on first use), the stack
 * trie's two plain (pcol_q_trie_plain). */
int pcol_q_fctx_init(pcol_q_fctx *c, pcol_file *f, pcol_error *err);
/* The same with the trie's columns as stored, encoded or not: for a pass
 * that reads them in order, a block at a time (top's walk mode). */
int pcol_q_fctx_init_inplace(pcol_q_fctx *c, pcol_file *f, pcol_error *err);
/* The trie's columns (stacks.parent_id and location_id) plain: an encoded
 * one decoded once per file (pcol_column_plain), for the passes that read
 * them many times or at random (a lane read per access cost top 10% on
 * go-heap-truncated-stacks-3).  Does nothing when both are plain. */
int pcol_q_trie_plain(pcol_file *f, pcol_view *parent, pcol_view *loc, pcol_error *err);

/* The string in column `col` of the functions table for function `fn`
 * (1-based); NA ({NULL, 0}) for function 0 or one out of range. */
int pcol_q_fn_string(const pcol_q_fctx *c, uint32_t fn, const pcol_view *col, pcol_str *out,
                     pcol_error *err);

/* list.c: block b's entries as {line, start line} pairs (*pairs, their
 * count returned), valid until pcol_list_free. */
size_t pcol_q_list_block_starts(const pcol_list *l, size_t b, const int64_t **pairs);
/* srcfile.c: the source files of `list` (doc/safety.md "What list opens").
 * pprof's trimPath with no -trim_path. */
const char *pcol_q_trim_path(const char *path, const char *search);
/* The most of a source file list reads (256 MiB). */
#define PCOL_Q_SOURCE_MAX ((size_t)256 << 20)
/* Finds `path` as pprof does on the ':'-separated `search` directories and
 * reads it up to the end of line `last`: *text (malloc'd, NUL-terminated)
 * and *len, or *msg (malloc'd) saying why it was not read.  Unless
 * allow_any, only a file under a search directory (as written and after
 * realpath) is opened; a file that is not regular is never read.
 * *refused: 1 when *msg says the file was refused, not missing.
 * PCOL_OK or PCOL_ENOMEM. */
int pcol_q_source_read(const char *path, const char *search, int allow_any, int64_t last,
                       char **text, size_t *len, char **msg, bool *refused);

/* top.c: pprof's cutoffs (report.go newTrimmedGraph): |int64(float64(sum)
 * x fraction)|, for the node and edge fractions of top and graph.  go
 * computes them in its merged profile's unit (ScaleProfiles: the finest
 * unit of the types its merge pairs), which may be coarser than the
 * value's: grain (pcol_q_value_grain; <= 1: one) is one of go's units in
 * the value's, and the cut is go's, scaled: int64(sum/grain x fraction)
 * x grain (a3 k3 of t_values: 5kB, not 0.005 x 1027kB = 5.13kB). */
typedef unsigned __int128 pcol_q_umag;
pcol_q_umag pcol_q_frac_cut(pcol_sum sum, double fraction, pcol_sum grain);
/* value.c: the grain of v's values (above): 1, unless v reads a column
 * (pcol_value_sel.column) whose types in the selected sources are all
 * coarser than v's unit: then the finest of them, in v's unit. */
int pcol_q_value_grain(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_sum *grain,
                       pcol_error *err);
/* top.c: the grain of t's values (its pcol_q_top_priv's; 1 when none) */
pcol_sum pcol_q_top_grain(const pcol_top *t);

/* top.c: pprof's file name in a node (/proc/self/cwd/ trimmed, then Go's
 * filepath.Clean), appended to out; PCOL_ENOMEM. */
int pcol_q_clean_path(pcol_str p, pcol_buf *out);

/* ---------------------------------------------------- value choice */
/* The stored value types PCOL_VALUE_RPROF_ALLOC is derived from (lib/core/xvalues.c):
 * RPROF_VT_SMALL, RPROF_VT_LARGE, RPROF_VT_NODES. */
#define PCOL_Q_RPROF_ALLOC_NTYPES PCOL_RALLOC_NTYPES
#define pcol_q_rprof_alloc_types pcol_ralloc_types /* lib/core/xvalues.c */
/* The stored value type TYPE or TYPE/UNIT, levels included (the report's
 * memory line draws Rprof's snapshots; views refuse to add them up:
 * pcol_value_resolve).  value.c */
int pcol_q_value_named(pcol_file *f, const char *name, pcol_value_sel *out, pcol_error *err);
/* The value selection of value type vt (0: samples; a source's default
 * from pcol_source_default_types), as pcol_value_resolve names it.  value.c */
int pcol_q_value_of_vt(pcol_file *f, uint32_t vt, pcol_value_sel *out, pcol_error *err);
/* 1 when value type vt is a level snapshot: one of Rprof's memory fields
 * (vsize.small, vsize.large, nodes) that an Rprof source lists.  value.c */
int pcol_q_value_is_level(pcol_file *f, uint32_t vt, pcol_error *err);
/* THE check of a caller's pcol_value_sel: its vt_id is 0, one of the
 * PCOL_VT_* pseudo types or a value type of f, else EINVAL (a selection
 * made by hand, or resolved on another file). */
int pcol_q_value_check(pcol_file *f, const pcol_value_sel *v, pcol_error *err);

/* ------------------------------------------------ for the report page */
/* top.c: the keys pcol_top_compute adds up under, per location (a CSR:
 * the distinct keys of location l are loc_keys[loc_koff[l] ..
 * loc_koff[l + 1]), innermost first; location 0 has none), the name of
 * each key (name[1..n]; names may repeat where pprof's nodes do) and the
 * key of "<no location>". */
struct pcol_q_topctx;
typedef struct pcol_q_topkeys {
  uint64_t nloc;
  uint32_t *loc_koff, *loc_keys, nokey, n;
  uint32_t *loc_aoff, *loc_all; /* every key of each location, bit 31 = an inlined line (graph.c) */
  /* for the page's hide/show (report.c): each line row's key as
   * build_loc_keys gives it (0: none), and the key a location with lines
   * takes when none of its lines left has one but one has no function
   * (the unsymbolized rule; 0 where it cannot apply) */
  uint32_t *line_key, *loc_ukey;
  pcol_str *name;
  struct pcol_q_topctx *ctx_; /* owns the names */
} pcol_q_topkeys;
/* frames (traces): every frame a key, as PCOL_Q_TOP_FRAMES */
int pcol_q_top_keys(pcol_file *f, const pcol_select *sel, pcol_by by, int frames,
                    pcol_q_topkeys *out, pcol_error *err);
void pcol_q_topkeys_free(pcol_q_topkeys *k);
/* Sums per stack node (weights.c): 64-bit cells when the selection's sum
 * of |values| is at most INT64_MAX, so that no sum of any of them can
 * overflow (half the memory the walks fault in and read: go-cpu-large's
 * 425k nodes, 6.8 -> 3.4 MB, pcol top 15% faster), else 128-bit.  Exactly
 * one of w64 and w128 is set once made.  grouped: the total the run
 * returned is pprof's over merged samples (a base, or a value below 0:
 * weights.c grouped_total), not a sum a sample, so the totals of disjoint
 * selections do not add up to their union's. */
typedef struct pcol_q_nsum {
  int64_t *w64;
  pcol_sum *w128;
  int grouped;
  /* pcol_q_weights_nsum, when a value was below 0: 1 for each stack node
   * that holds a kept sample whose value is not 0 (NULL: the sums tell, as
   * no samples of a node cancel).  pprof's graph takes every such sample
   * (graph.go newGraph), so calls of samples that cancel are listed at 0. */
  uint8_t *nonzero;
} pcol_q_nsum;
static inline pcol_sum pcol_q_nsum_at(const pcol_q_nsum *s, uint64_t n) {
  return s->w64 ? (pcol_sum)s->w64[n] : s->w128[n];
}
static inline int pcol_q_nsum_made(const pcol_q_nsum *s) { return s->w64 || s->w128; }
/* s[to] += s[from] (no wrap in 64-bit cells: see above) */
static inline void pcol_q_nsum_addto(pcol_q_nsum *s, uint64_t to, uint64_t from) {
  if (s->w64)
    s->w64[to] += s->w64[from];
  else
    s->w128[to] += s->w128[from];
}
void pcol_q_nsum_free(pcol_q_nsum *s);
/* The same sums as a list: the nodes whose sum is not 0, in id order, and
 * their sums (weights.c; for a profile of far fewer samples than stack
 * nodes, where a sum a node is most of the memory a view touches).  Only
 * when the sum of every selected sample's |value| is <= INT64_MAX (then no
 * sum overflows 64 bits): past it `wide` is 1, the list is empty and the
 * caller sums per node (pcol_q_weights_nsum).  That bound is not
 * *total_abs, pprof's total, which can be less (samples of one stack that
 * cancel, weights.c grouped_total). */
typedef struct pcol_q_own {
  uint32_t *node;
  int64_t *w;
  size_t n;
  int wide;
  int grouped; /* as pcol_q_nsum's */
} pcol_q_own;
int pcol_q_weights_sparse(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                          const pcol_value_sel *v, pcol_q_own *out, pcol_sum *total_abs,
                          pcol_error *err);
void pcol_q_own_free(pcol_q_own *o);
/* top.c: what a pcol_top result keeps (its priv_) for the views built on
 * it (the "(inline)" marks, peek.c): the key table and, per location, every
 * key innermost first (a CSR, bit 31 set on a key at an inlined line), with
 * each stack node's subtree weight. */
typedef struct pcol_q_inl_state {
  pcol_file *f;
  pcol_view st_parent, st_loc; /* as stored until made plain (inl_make_sub) */
  uint64_t nstacks, nlocs;
  uint32_t *loc_aoff, *loc_all; /* from build_loc_keys (nlocs + 2 offsets) */
  pcol_q_nsum sub;              /* subtree weight per stack node */
  uint8_t *touched;             /* a non-zero sample passes through the node */
  pcol_sum cutoff;              /* pprof's edge cutoff */
  size_t nkeys;
  /* top's walk mode: until sub is made (top.c inl_make_sub), the own
   * weights the walk read instead, and the total that sizes sub's cells */
  int own_list;
  int touched_later; /* touched is all 0 until sub is made (walk mode, unfiltered) */
  pcol_q_own own;
  pcol_sum total;
  int grouped; /* total is pprof's over merged samples (pcol_q_nsum) */
  uint32_t *fk; /* sums mode's flat key a node, kept for marks made later (top.c) */
  uint32_t *pre_end, *pre_ord; /* and its preorder of the nodes (top.c trie_preorder) */
} pcol_q_inl_state;
void pcol_q_inl_free(pcol_q_inl_state *s);
/* -mean's walks (peek, the text graph): pprof's graph takes every sample
 * whose value or divisor is not 0, so the stack nodes touched by a's
 * samples or d's (two results of one file, selection and granularity:
 * EINVAL else), malloc'd in *out; a call of d's samples only adds 0. */
int pcol_q_touched_union(const pcol_q_inl_state *a, const pcol_q_inl_state *d, uint8_t **out,
                         pcol_error *err);
/* pprof's name of a location without lines, or of a line whose function
 * has no name, at function granularity (graph.go NameComponents; addresses
 * are dropped there): "[base of the mapping's file]", else "<unknown>".
 * Appended to out.  The rows of top and the frames of traces. */
int pcol_q_unsymbolized_name(const pcol_q_fctx *fc, uint32_t loc, pcol_buf *out, pcol_error *err);
/* The path walk of top's cum and peek's edges: the touched stack nodes in
 * id order with the path from the root kept on a stack.  visit(ctx, n,
 * PCOL_Q_ENTER) once per touched node, when the path holds exactly its
 * ancestors; PCOL_Q_LEAVE when a node leaves the path; PCOL_Q_BACK when a
 * node entered before comes back on it (the next node descends from it).
 * A node whose parent left the path climbs from the parent to the path and
 * pushes that chain back.  Parents precede children, so every node meets
 * its ancestors on the path, and in the order writers give (a sample's new
 * nodes in a run) memory is read in order: measured 2x a depth-first walk
 * over child lists on 1.2M stack nodes.  stk holds 2 ns + 2 node ids.
 * Returns 0; 1 as soon as the climbs and pops pass 8 steps a node so far, an order
 * (interleaved deep branches) where a tree walk is cheaper (the caller
 * resets what visit built and walks the tree): checked as it goes, so that
 * such an order costs little before the walk gives up; -1 out of memory or
 * when visit returns non-zero. */
enum { PCOL_Q_LEAVE = -1, PCOL_Q_ENTER = 1, PCOL_Q_BACK = 2 };
static inline int pcol_q_path_walk(const pcol_view *parent, const uint8_t *touched, uint64_t ns,
                                   uint32_t *stk, int (*visit)(void *, uint32_t, int),
                                   void *ctx) {
  uint64_t steps = 0;
  uint32_t *path = stk, *chain = stk + ns + 1;
  uint8_t *onp = (uint8_t *)calloc(ns + 1, 1); /* onp[n]: node n is on the path */
  if (!onp) return -1;
  size_t d = 0;
  int r = 0;
  for (uint64_t n = 1; n <= ns && !r; n++) {
    if (!touched[n]) continue; /* no weight below */
    uint32_t q = pcol_view_u32(parent, n - 1);
    size_t m = 0;
    while (q && !onp[q]) { /* the part of the parent's path that left the stack */
      if (++steps > 8 * n + 1024) goto give_up;
      chain[m++] = q;
      q = pcol_view_u32(parent, q - 1);
    }
    while (d && path[d - 1] != q && !r) { /* back to q (0: the root) */
      uint32_t x = path[--d];
      onp[x] = 0;
      r = visit(ctx, x, PCOL_Q_LEAVE);
      if (++steps > 8 * n + 1024) goto give_up;
    }
    while (m && !r) {
      uint32_t x = chain[--m];
      onp[x] = 1;
      path[d++] = x;
      r = visit(ctx, x, PCOL_Q_BACK);
    }
    if (!r) r = visit(ctx, (uint32_t)n, PCOL_Q_ENTER);
    onp[n] = 1;
    path[d++] = (uint32_t)n;
  }
  free(onp);
  return r ? -1 : 0;
give_up:
  free(onp);
  return 1;
}

/* The same visits depth first over child lists of the touched nodes (CSR,
 * parent 0 = roots): PCOL_Q_ENTER when a node is pushed, PCOL_Q_LEAVE when
 * it is popped the second time (no PCOL_Q_BACK).  Any order costs O(ns),
 * but memory is read in the tree's order, not the ids'.  stk holds 2 ns +
 * 2 node ids.  0, or -1 out of memory or when visit returns non-zero. */
static inline int pcol_q_tree_walk(const pcol_view *parent, const uint8_t *touched, uint64_t ns,
                                   uint32_t *stk, int (*visit)(void *, uint32_t, int),
                                   void *ctx) {
  uint32_t *koff = (uint32_t *)calloc(ns + 2, sizeof *koff),
           *kids = (uint32_t *)malloc((ns + 1) * sizeof *kids);
  int r = koff && kids ? 0 : -1;
  if (!r) {
    for (uint64_t n = 1; n <= ns; n++)
      if (touched[n]) koff[pcol_view_u32(parent, n - 1) + 1]++;
    for (uint64_t i = 1; i <= ns + 1; i++) koff[i] += koff[i - 1];
    /* koff[p] is p's fill cursor (no copy of it): after the fill it is the
     * next one's start, so the starts come back one place down */
    for (uint64_t n = 1; n <= ns; n++)
      if (touched[n]) kids[koff[pcol_view_u32(parent, n - 1)]++] = (uint32_t)n;
    for (uint64_t i = ns; i >= 1; i--) koff[i] = koff[i - 1];
    koff[0] = 0;
  }
  size_t sp = 0;
  for (uint32_t i = r ? 0 : koff[0]; !r && i < koff[1]; i++) stk[sp++] = kids[i];
  while (sp && !r) {
    uint32_t x = stk[--sp], n = x & 0x7fffffffu;
    if (x & 0x80000000u) {
      r = visit(ctx, n, PCOL_Q_LEAVE);
      continue;
    }
    r = visit(ctx, n, PCOL_Q_ENTER);
    stk[sp++] = n | 0x80000000u;
    for (uint32_t i = koff[n]; i < koff[n + 1]; i++) stk[sp++] = kids[i];
  }
  free(koff);
  free(kids);
  return r ? -1 : 0;
}

/* The walk top's cum and peek's edges use: the path walk, and when it gives
 * up, reset(ctx) (undo what visit built; non-zero: failed) and the tree
 * walk.  0, or -1 out of memory or when visit or reset fails. */
static inline int pcol_q_stack_walk(const pcol_view *parent, const uint8_t *touched, uint64_t ns,
                                    int (*visit)(void *, uint32_t, int), int (*reset)(void *),
                                    void *ctx) {
  uint32_t *stk = (uint32_t *)malloc((2 * ns + 2) * sizeof *stk);
  if (!stk) return -1;
  int r = pcol_q_path_walk(parent, touched, ns, stk, visit, ctx);
  if (r == 1) r = reset(ctx) ? -1 : pcol_q_tree_walk(parent, touched, ns, stk, visit, ctx);
  free(stk);
  return r;
}

typedef struct pcol_q_top_priv {
  pcol_q_keytab keys;          /* pcol_top_by_label: the values' names */
  pcol_q_inl_state is;
  struct pcol_q_topctx *ctx;   /* pcol_top_compute: its keys, and what names them */
  pcol_str *comments;          /* pcol_top_many: the inputs' pprof comments (bytes in keys) */
  size_t ncomments;
  uint64_t runs;               /* pcol_top_many: the recordings a relative range took a window of */
  pcol_sum grain;              /* go's unit of the values (pcol_q_value_grain; 0 = 1) */
} pcol_q_top_priv;
/* The name of key k of t (0 = none: {NULL, 0}); a line-level name is
 * composed on first use and kept until pcol_top_free. */
int pcol_q_top_name(const pcol_top *t, uint32_t k, pcol_str *out, pcol_error *err);
/* What keeps key k of t apart from the keys of its name, in every result
 * of one granularity (pcol_diff_compute joins two files' rows by name and
 * this): a frame named after its mapping, pprof's node of no function name,
 * is its start line and mapping file (mapping_key), a key by address or by
 * line with objnames its (start line, mapping file) too.  *out borrowed from
 * t; {NULL, 0} (returns 0) for a key its name identifies, else returns 1,
 * or 2 for the objnames part (the two kinds are apart). */
int pcol_q_top_hidden(const pcol_top *t, uint32_t k, pcol_str *out);
/* BY_LINE / BY_SOURCE_LINE: the location_lines row key k was first made
 * from, UINT64_MAX for a key of no line (list.c). */
uint64_t pcol_q_top_key_line(const pcol_top *t, uint32_t k);
/* pcol_top_compute; objnames (by address): keys also apart by their
 * location's mapping file and their function's start line (graph.go
 * nodeInfo with ObjNames: pcol_graph_opts.obj_names). */
/* objnames: 1 keys apart by mapping file and start line (pprof's ObjNames,
 * by line or address), | PCOL_Q_TOP_FRAMES: the keys of a view of frames
 * (tree, the graph, traces), where a frame without a line of an Rprof
 * source (<GC>, a builtin) is one of its own, as go tool pprof -lines names
 * it on pcol's pprof copy, not skipped to give its flat to the innermost
 * calling line as top's table does by summaryRprof's rule (review 20 F2) */
#define PCOL_Q_TOP_FRAMES 2
int pcol_q_top_compute_obj(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                           pcol_by by, int objnames, pcol_top *out, pcol_error *err);
/* 1 and t's granularity and objnames when t is a result of one file's
 * pcol_top_compute* (its keys its own: another such result of the same
 * file, selection and granularity has the same keys, whatever its value,
 * since keys are made from the locations alone, in their order); else 0. */
int pcol_q_top_made_by(const pcol_top *t, pcol_by *by, int *objnames);
/* Such a result with its rows' keys, flat and cum only (no names, no
 * order, no "(inline)" marks): pcol_top_mean's divisors. */
int pcol_q_top_keys_only(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                         pcol_by by, int objnames, pcol_top *out, pcol_error *err);
/* -mean's divisor of the total (mean.c): the signed sum of value div over
 * the samples a view's total of value v adds up (the kept ones under
 * -relative_percentages; under -diff_base the base's alone when v's total
 * is the base's, as pprof's computeTotal); and pprof's v / d (d 0: v). */
int pcol_q_mean_div_sum(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                        const pcol_value_sel *div, pcol_sum *sum, pcol_error *err);
pcol_sum pcol_q_mean_quot(pcol_sum v, pcol_sum d);
/* pprof's -drop_negative test of a node (graph.go isNegative): flat below
 * 0, or 0 with cum below 0.  top, peek, tree, the graphs and list use it. */
static inline int pcol_q_negative(pcol_sum flat, pcol_sum cum) { return flat < 0 || (flat == 0 && cum < 0); }
/* pcol_top_compute without names and in no order (rows[i].key only): for a
 * view that reads the keys' lines (list.c). */
int pcol_q_top_unnamed(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                       pcol_top *out, pcol_error *err);
/* pcol_top_compute by `by` of the file and selection base was made of (by
 * pcol_q_top_unnamed), from base's node sums instead of the samples: the
 * same rows, flat, cum and order, without "(inline)" marks (list --by
 * file: the files' cums beside their lines'). */
int pcol_q_top_regroup(const pcol_top *base, pcol_file *f, const pcol_select *sel, pcol_by by,
                       pcol_top *out, pcol_error *err);
/* The same with obj_names (by line: keys also apart by their mapping file
 * and start line, pprof's -list nodes, report.go newGraph's ObjNames). */
int pcol_q_top_unnamed_obj(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                           pcol_by by, pcol_top *out, pcol_error *err);
/* The same without the rows' "(inline)" marks (all PCOL_INLINE_NONE): for
 * results whose marks come from their call edges (top_many.c).  By function
 * or file, `names` (NULL: a table of its own) is the table the names are
 * interned in, copied (it must outlive the result): the keys are then the
 * file's own, 1..nkeys, and pcol_q_top_key_ids gives each its name's id
 * there, so that the work and memory of a file stay in proportion to its
 * own names however many the table holds. */
int pcol_q_top_unmarked(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                        pcol_by by, pcol_q_keytab *names, pcol_top *out, pcol_error *err);
/* pcol_q_top_unmarked's result has no rows (out->nrows 0): its sums a key
 * instead, flat[k] and cum[k] for k = 1..nkeys (0 for a key without
 * weight), as the caller adds them up by name (top_many.c: a file's ~350
 * rows of 64 bytes, zeroed, written and read again, were a tenth of a small
 * file's top).  0 and NULLs for any other result. */
int pcol_q_top_sums(const pcol_top *t, const pcol_sum **flat, const pcol_sum **cum);
/* By function or file, the table of t's key names (key k is name k); NULL
 * when keys are composed (by line, address) or t has none. */
const pcol_q_keytab *pcol_q_top_keytab(const pcol_top *t);
/* With a shared table (pcol_q_top_unmarked's names): ids[k] is key k's
 * name's id in it, for k = 1..the result's nkeys; else NULL. */
const uint32_t *pcol_q_top_key_ids(const pcol_top *t);
/* pprof's call edges (caller key, callee key), for its "(inline)" marks
 * (top.c) and -peek's lists (peek.c): the weight through an edge and
 * whether every call along it went into an inlined line.  pprof counts an
 * edge once a sample, at its first occurrence from the root (graph.go
 * newGraph's seenEdge): a pass calls pcol_q_edge_count only there, and
 * keeps in path[edge] what it needs to know that (a count of the edge on
 * the current path, or where the subtree of its first occurrence ends).
 * get: the edge (new: no call counted yet, path 0); mark: inl[callee] |= 1
 * (all inline) or 2 (not) for each counted edge of |weight| >= cutoff. */
enum { PCOL_Q_EDGE_UNCOUNTED = 2 }; /* all_inl of an edge with no call counted yet */
typedef struct pcol_q_edges {
  pcol_u64map map;  /* caller << 32 | callee -> edge */
  uint8_t *all_inl; /* per edge: 1 every call counted was inlined, 0 not, or UNCOUNTED */
  pcol_sum *w;      /* weight through the edge */
  uint32_t *path;   /* per edge: the counting pass's own */
  size_t cap;       /* (the edges: map.n) */
} pcol_q_edges;
int pcol_q_edge_get(pcol_q_edges *e, uint32_t from, uint32_t to, uint32_t *id);
void pcol_q_edge_count(pcol_q_edges *e, uint32_t id, int inl, pcol_sum w);
void pcol_q_edges_mark(const pcol_q_edges *e, pcol_sum cutoff, uint8_t *inl);
void pcol_q_edges_free(pcol_q_edges *e);
/* PCOL_INLINE_* of a key's marks */
int pcol_q_inline_of(uint8_t m);
/* The edges of a result of pcol_q_top_unnamed, for results of many files
 * added up by name (top_many.c): each edge into a key with may[callee],
 * between keys with kept[key] (NULL: every key, the full result's marks;
 * else a call comes from the nearest kept frame, as in
 * pcol_top_mark_inline), added to *into with its keys mapped by id[key]. */
int pcol_q_top_edges(const pcol_top *t, const uint8_t *kept, const uint8_t *may,
                     const uint32_t *id, pcol_q_edges *into, pcol_error *err);
/* graph_tags.c: the label tags of pprof's graph nodes (its nodelets, the
 * box3d boxes under a node), which pprof also counts as nodes when it keeps
 * the first -nodecount (graph.go selectTopNodes).
 * load: the selected samples' values summed per (stack node, label set)
 * with a tag (np = 0: none), the labels whose key `show` does not match or
 * `hide` matches left out (pprof -tagshow/-taghide; NULL: none), the text
 * of every set's tags held against the output budget (pcol_output_budget
 * of the input's bytes and max_output); count:
 * count[key] = how many tags of kept key survive pprof's trim at cut, given
 * a build's innermost kept key (kk) and residual mark (res) per stack node;
 * draw: the boxes of the graph's nodes (out->tags), as dotgraph.go
 * addNodelets picks, orders, buckets and weighs them. */
typedef struct pcol_q_gtag {
  uint8_t numeric; /* 0: a set of string labels; 1: a value of "bytes" */
  uint32_t parent; /* numeric: the tag of its label set's string labels (0: none) */
  uint32_t p0, np; /* its lines: parts[p0 .. p0 + np) ("key:value" sorted, or the number) */
  pcol_str name;   /* pprof's Tag.Name: the lines joined by "\\n", or the number */
  pcol_str unit;   /* numeric: the unit of its value */
} pcol_q_gtag;
/* pprof -tagshow / -taghide on label keys (tagkeys.c): sel's tag_show and
 * tag_hide compiled once, each key's verdict memoized by its string id. */
/* Writes what b holds to memory, frees b (also when rc, an earlier
 * failure, is passed on) and opens the copy as *out, which pcol_close
 * frees; input_bytes: the budgets' base (the input's).  tagframes.c,
 * diffbase.c. */
int pcol_q_open_built(pcol_builder *b, int rc, uint64_t input_bytes, pcol_file **out,
                      pcol_error *err);
/* A copy of source s of f alone (*out; NULL when f has one source: f is
 * it), as pcol_open_diff_base_select takes --source N of each side
 * (diffbase.c; diff.c pcol_diff_mark_inline, whose sides' sources may
 * differ). */
int pcol_q_source_alone(pcol_file *f, uint32_t s, pcol_file **out, pcol_error *err);

/* The label tables' columns (labels.c): each label set's offsets into the
 * labels (off: rows + 1), each label's key and string ids, number and unit. */
typedef struct pcol_q_labelcols {
  pcol_view off, key, str, num, unit;
  uint64_t nlabels;
} pcol_q_labelcols;
int pcol_q_labelcols_open(pcol_file *f, pcol_q_labelcols *c, pcol_error *err);
/* PCOL_ENOTFOUND, naming it, when a source of f has a count --normalize
 * could not scale (count.h pcol_normalize_unscaled): the value "samples"
 * is refused (value.c) and never added up (weights.c diff_base_total) */
int pcol_q_normalize_unscaled(pcol_file *f, pcol_error *err);
/* PCOL_ENOTFOUND, naming it, when a source of f has no count a view may
 * show: pcol_q_normalize_unscaled's, or a pprof difference that marks no
 * base (count.h pcol_count_unmarked_diff).  The value "samples" asks it
 * (value.c); the report offers no samples then (report.c) */
int pcol_q_count_shown(pcol_file *f, pcol_error *err);

/* pprof's total where a base was subtracted (pcol_open_diff_base; weights.c
 * diff_base_total): *found 0 when f holds none.  For a view that sums its
 * own total (top --by label's relative one); pcol_q_weights does it itself. */
int pcol_q_base_total(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                      const pcol_value_sel *v, int *found, pcol_sum *total, pcol_error *err);
/* -diff_base's samples (pprof's Sample.DiffBaseSample): src_ok[s] for the
 * sources that hold a -diff_base, ls_ok[ls] for the label sets that carry
 * PCOL_DIFF_BASE_KEY = "true" (*labelled 1 when one does); a sample is
 * the base's when both are set.  free() both. */
int pcol_q_diff_base_marks(pcol_file *f, uint8_t **src_ok, uint8_t **ls_ok, int *labelled,
                           pcol_error *err);
/* A numeric label's name as pprof's measurement.ScaledLabel(v, from, to)
 * makes it (tags, tag frames, top --by label): pcol_unit_label, but "raw"
 * is a unit pprof does not know (units.c).  to NULL: "minimum". */
void pcol_q_label_scaled(pcol_sum v, pcol_str from, const char *to, char *buf, size_t n);
/* THE name of label set ls's -tagroot/-tagleaf frame for key k[0..kn)
 * (driver/tagroot.go formatLabelValues): the set's values of the key
 * joined by ',', strings then numbers, a number in its unit scaled to
 * `unit` as ScaledLabel prints it ("1kB"; pcol_unit_label's `to`, NULL:
 * "minimum", pprof's -unit default; the bare number when no number of the
 * key in the set has a unit); empty when the set has none.  Into out
 * (cleared first); *any (may be NULL): the set has a value of the key (one
 * that is "" too: pprof's match).  tagframes.c, labels.c. */
int pcol_q_tagframe_name(pcol_file *f, const pcol_q_labelcols *lc, uint64_t ls, const char *k,
                         size_t kn, const char *unit, pcol_buf *out, int *any, pcol_error *err);
/* 1 when f is a copy pcol_open_tag_frames made with frames of label key
 * (as -tagroot or -tagleaf, it or the file it copied): its name filters
 * see them already.  tagframes.c, notes.c. */
int pcol_q_has_frames(const pcol_file *f, const char *key);

typedef struct pcol_q_tagkeys {
  pcol_rx show, hide;
  int has_show, has_hide;
  pcol_u64map memo; /* key string id -> slot in keep */
  uint8_t *keep;
  size_t cap;
  char *buf;
  size_t bcap;
} pcol_q_tagkeys;
/* EINVAL naming --tagshow/--taghide for a bad expression (ks left empty). */
int pcol_q_tagkeys_init(pcol_q_tagkeys *ks, const pcol_select *sel, pcol_error *err);
/* *keep = 1 when label key k (string id sid) is shown (always without
 * tag_show and tag_hide, or for ks NULL); ENOMEM. */
int pcol_q_tagkeys_kept(pcol_q_tagkeys *ks, uint32_t sid, pcol_str k, int *keep, pcol_error *err);
void pcol_q_tagkeys_free(pcol_q_tagkeys *ks);

typedef struct pcol_q_gtags {
  pcol_u64map pairs; /* stack << 32 | label set -> pair */
  uint32_t *p_stack, *p_ls, np, pcap;
  pcol_sum *p_w;
  pcol_sum *p_d;             /* -mean: each pair's divisor (mean: 1) */
  int mean;
  uint32_t *ls_off, *ls_tag; /* the tags of each label set (CSR) */
  int64_t *ls_val;           /* a numeric tag's value, per ls_tag entry */
  pcol_q_keytab names;       /* tag identities */
  pcol_q_gtag *tag;          /* tag[id], per identity */
  size_t tcap;
  pcol_str *parts; /* in names' arena */
  size_t nparts, partcap;
} pcol_q_gtags;
/* The pairs of v (and of -mean's divisor div, NULL: none) */
int pcol_q_gtags_load(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      const pcol_value_sel *div, uint64_t max_output, pcol_q_gtags *g,
                      pcol_error *err);
int pcol_q_gtags_count(const pcol_q_gtags *g, const pcol_q_inl_state *s, const uint8_t *kept,
                       const uint32_t *kk, const uint8_t *res, pcol_q_umag cut, uint32_t *count);
/* node_of[key]: the key's node in out->nodes (UINT32_MAX: none); out's
 * nodes and edges are made. */
int pcol_q_gtags_draw(const pcol_q_gtags *g, const pcol_q_inl_state *s, const uint8_t *kept,
                      const uint32_t *kk, const uint8_t *res, pcol_q_umag cut,
                      const uint32_t *node_of, pcol_graph *out, pcol_error *err);
void pcol_q_gtags_free(pcol_q_gtags *g);
/* *any = 1 when some label set has a tag (a label that makes one): the
 * report page makes and adds them up itself (graphtags.js). */
int pcol_q_gtags_any(pcol_file *f, int *any, pcol_error *err);
/* ftree.c: the frame-tree node of each stack node (nstacks + 1 entries,
 * index 0 = the root), valid until pcol_ftree_free. */
const uint32_t *pcol_q_ftree_stack_nodes(const pcol_ftree *t);
/* ftree.c: the frame name of each line row and of each location without
 * lines (the report page rebuilds the tree under hide/show); see ftree.c. */
int pcol_q_ftree_frame_names(pcol_file *f, pcol_ftree *t, pcol_str **line_name,
                             pcol_str **loc_name, pcol_error *err);
/* weights.c: the value v of every sample (pcol_rows(samples) entries, in
 * row order, unscaled), by the rule pcol_stack_weights adds up. */
int pcol_q_sample_values(pcol_file *f, const pcol_value_sel *v, int64_t *out, pcol_error *err);
/* ------------------------------------------------------- weights */
/* pcol_stack_weights with the selection's filter built by the caller
 * (flt may be NULL or inactive): kept samples add to the nodes, every
 * selected sample to the total. */
int pcol_q_weights(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                   const pcol_value_sel *v, pcol_sum **w_out, pcol_sum *total_abs,
                   pcol_error *err);
/* The same sums in 64-bit cells when they fit (pcol_q_nsum), else 128. */
int pcol_q_weights_nsum(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                        const pcol_value_sel *v, pcol_q_nsum *out, pcol_sum *total_abs,
                        pcol_error *err);
/* The chosen value of every kept sample (zeros included), in row order:
 * fn(ctx, row, value) returns 0 to go on, > 0 to stop, < 0 to fail. */
int pcol_q_values_iter(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                       const pcol_value_sel *v, int (*fn)(void *ctx, uint64_t row, int64_t value),
                       void *ctx, pcol_error *err);
/* The same, the rows handed to fn readable in the samples columns
 * need[0..nneed) (select.h: pcol_select_iter_need; views of them from
 * pcol_select_need_view): a time range of a file in zstd blocks decodes
 * only the blocks of its rows. */
int pcol_q_values_iter_need(pcol_file *f, const pcol_select *sel, const pcol_filter *flt,
                            const pcol_value_sel *v, const int *need, size_t nneed,
                            int (*fn)(void *ctx, uint64_t row, int64_t value), void *ctx,
                            pcol_error *err);

#endif
