/* top.c — pcol_top_compute: flat and cumulative weight per function name,
 * per "function path:line" (pprof -lines) or per file, the table of `pcol top` and the
 * input of `pcol diff`.
 *
 * Cost model (why it is fast): one pass over the selected samples sums the
 * value per stack node (weights.c); everything after that works on the
 * distinct stack nodes (the prefix tree), never on samples again.  Cumulative
 * weight uses the tree too: a key's cum is the sum of the subtree weights of
 * the nodes where the key appears with no ancestor holding it, which counts
 * a key once per sample however often it recurses (pprof -top,
 * summaryRprof).  Two kernels give the same result (test_top_modes): sums
 * mode keeps a sum a stack node (own weights, then subtree sums in place);
 * walk mode, where samples are few against stack nodes (a deep profile:
 * go-cpu-large has 20k samples on 425k nodes), reads the own weights from a
 * sorted list and makes flat, cum and the inline edges in one walk with
 * running totals (top_walk), touching one byte a node instead of 14.
 * PCOL_DEBUG=top-sums / top-walk forces one.  The keys of each location are found once (a CSR array of
 * distinct keys per location).  Function names are interned per function;
 * a line-level key is an identity (function prefix, line, address), and
 * only the rows a view prints are named and sorted (pcol_top_compute_cut).
 */
#include "query.h"
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "bytes.h"    /* pcol_str_is */
#include "buf.h"      /* pcol_buf_append, pcol_alloc_hot, pcol_buf, ... */
#include "hash.h"     /* pcol_hs_add, pcol_hs_end_with, pcol_hs_init, ... */
#include "filter.h"   /* pcol_filter, pcol_filter_build, pcol_filter_free */
#include "frames.h"   /* pcol_frames_lines, pcol_frame_unsymbolized_name */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef pcol_q_umag pcol_umag;
static pcol_umag mag(pcol_sum v) { return v < 0 ? -(pcol_umag)v : (pcol_umag)v; }

int pcol_q_touched_union(const pcol_q_inl_state *a, const pcol_q_inl_state *d, uint8_t **out,
                         pcol_error *err) {
  *out = NULL;
  if (a->nkeys != d->nkeys || a->nstacks != d->nstacks)
    return pcol_error_set(err, PCOL_EINVAL, "-mean: the divisor's keys are not the value's");
  uint8_t *u = a->nstacks + 1 <= SIZE_MAX ? malloc(a->nstacks + 1) : NULL;
  if (!u) return pcol_oom(err);
  for (uint64_t n = 0; n <= a->nstacks; n++) /* (no touched: every node) */
    u[n] = (a->touched ? a->touched[n] : 1) | (d->touched ? d->touched[n] : 1);
  *out = u;
  return PCOL_OK;
}

void pcol_q_inl_free(pcol_q_inl_state *s) {
  free(s->loc_aoff);
  free(s->loc_all);
  pcol_q_nsum_free(&s->sub);
  pcol_q_own_free(&s->own);
  free(s->touched);
  free(s->fk);
  free(s->pre_end);
  free(s->pre_ord);
  memset(s, 0, sizeof *s);
}


typedef struct pcol_q_topctx {
  pcol_q_fctx fc;
  /* The keys.  By function or file, keys is the table of their names.  By
   * line, address or source line (composed) a key is an identity (kid[k]):
   * a line's parts, or a name of keys (a frame named after its mapping,
   * "<no location>"), and the name of a line key is made only when asked
   * (ctx_name): a line-level profile has 10-100x more keys than `pcol top`
   * prints, and composing, hashing and sorting all their names was most of
   * the view's time.  Line identities are found in lslot, an open-addressing
   * table of (hash, key) that reads kid[] only on a hash match. */
  pcol_q_keytab keys;
  pcol_q_keytab *kt;    /* the names: &keys, or a table shared by many files (top_many.c) */
  /* A shared table (ext): the keys are this file's own, 1..nl, key k the
   * name kt->s[l2g[k]], so that the arrays a key (sums, marks, stamps) are
   * as long as the file's names, not the union's (300 files of a union of
   * 600k names: a calloc of 19 MB a file).  A name's key is found by its
   * id in kt->lk, stamped with this top's generation (gen). */
  int ext;
  uint32_t *l2g, nl, gen;
  size_t l2g_cap;
  pcol_by by;
  int composed;
  struct line_id *kid;  /* composed: kid[1..nkeys] */
  size_t kid_cap;
  uint32_t nkeys;
  uint64_t *lslot;      /* composed: capacity lslot_cap, a power of two */
  size_t lslot_cap, lslot_n;
  uint32_t *name_key;   /* composed: id in keys -> key */
  size_t name_key_cap;
  uint32_t *fn_key; /* function id -> key (UINT32_MAX = not yet) */
  uint32_t *cut_loc; /* show_from: stacks.location_id with the nodes it cuts 0 */
  uint32_t *loc_koff, *loc_keys; /* CSR: distinct keys of each location, innermost first */
  uint32_t *loc_aoff, *loc_all;  /* CSR: every key of each location, innermost first, with
                                  * bit 31 set on a key at an inlined (not outermost) line */
  pcol_q_inl_state is;                   /* for the "(inline)" marks, moved into the result */
  int unnamed_is_frame; /* a function without a name is a frame (pprof), not skipped (Rprof): of some source */
  pcol_nameless_rule rule; /* and location by location (loc_frames), when the sources differ */
  /* a frame without a line or file (<GC>, a builtin of an Rprof source) is
   * a key of its own, as go tool pprof -lines/-files names it on pcol's
   * pprof copy: always for pprof sources and by file; by line only for the
   * views of frames (tree, the graph, traces: PCOL_Q_TOP_FRAMES), not for
   * top's table, where summaryRprof's rule gives its flat to the innermost
   * calling line (review 20 F2) */
  int lineless_frames; /* by file or PCOL_Q_TOP_FRAMES: every source's (else loc_frames) */
  int frames_asked; /* PCOL_Q_TOP_FRAMES (pcol_q_top_made_by) */
  uint32_t *stamp;      /* build_loc_keys: stamp[key] = the last location that had it */
  const pcol_filter *flt; /* the selection's filters (hidden lines) */
  size_t stamp_cap;
  pcol_buf scratch;     /* a name or an identity being composed */
  uint64_t cur_addr;    /* BY_ADDRESS: the address of the location being keyed */
  /* BY_ADDRESS, BY_LINE with obj_names (pcol_graph_opts, list's
   * --drop-negative): keys also apart by the location's mapping file and
   * the function's start line (xid) */
  int objnames;
  uint32_t cur_loc;     /* the location being keyed (cur_location) */
  pcol_str cur_obj;     /* the mapping file of location cur_obj_loc (cur_obj) */
  uint32_t cur_obj_loc;
  pcol_q_keytab xids;   /* (mapping file, start line) pairs */
  pcol_view fn_start;
  uint32_t *lnfn;       /* build_loc_keys: the lines' functions, read once (NULL: the view) */
  uint32_t *fnsid;      /* by function or file: the functions' name (file) string ids, read once */
  uint64_t *soff;       /* with fnsid: the strings' offsets, read once (NULL: the columns) */
  int64_t *lnline;      /* and their line numbers (NULL: the view) */
  /* BY_LINE and BY_SOURCE_LINE without obj_names: the keys of the line
   * identities (prefix, mode, line) found by place, not hashed
   * (dense_make): group g = prefix id * 2 + (mode != 0) holds its lines from
   * dg_min[g] at slots dg_base[g] + 1 + (line - dg_min[g]), its line NA at
   * dg_base[g]; a slot holds the key (0: none yet) */
  uint32_t *dense;
  uint64_t *dg_base, *dg_end; /* (dg_base UINT64_MAX: a group without slots) */
  int64_t *dg_min;
  size_t dg_n;
  uint64_t *loff;       /* and the locations' line offsets */
  pcol_q_keytab pres;   /* composed: the fixed part of a function's line names (fn_prefix) */
  uint32_t *fn_pid;     /* function -> its id in pres, bit 31 = it has a file (0 = not yet) */
  uint32_t *pres_fn;    /* pres id -> the bytes of its function's name (pcol_top_name_function) */
  size_t pres_fn_cap;
  pcol_str *names;      /* composed: names made so far (ptr NULL = not yet) */
  pthread_mutex_t name_lock; /* ctx_name's, for names, scratch and the arena */
  size_t names_n;
  uint64_t *key_li;     /* BY_LINE, BY_SOURCE_LINE, BY_ADDRESS: a key's first line row */
  size_t key_li_cap;
  uint32_t *key_loc;    /* BY_LINE, BY_ADDRESS: a key's first location (pcol_top_key_parts) */
  size_t key_loc_cap;
  int cut;              /* make only the rows the node fraction keeps */
  int no_marks;         /* leave the rows' "(inline)" marks to the caller (top_many.c) */
  int sums_out;         /* no rows: the sums a key kept (pcol_q_top_sums; top_many.c) */
  pcol_sum *kflat, *kcum;
  int keep_fk;          /* with no_marks: sums mode keeps its flat keys (is.fk) for them */
  double fraction;
  pcol_sum grain;       /* go's unit of the values (pcol_q_value_grain) */
  size_t dropped;       /* ... and count the others */
} topctx;

/* A composed key's identity: the address (BY_ADDRESS, else 0), the line
 * (NA: none), the prefix id (fn_prefix) and the mode (0/1: by line or
 * address, without or with a file; 2: by source line); or, mode
 * LINE_ID_NAME, the id of a name in keys.  Two lines have one key when
 * pprof's nodes for them are one (graph.go NodeInfo: address, name, file,
 * line), so two rows may print the same name (a function "<unknown>" and an
 * unsymbolized frame) as pprof's do; the prefix is the joined "NAME FILE",
 * so a name and file that join to the same text share a key, as before. */
enum { LINE_ID_NAME = 3 };
typedef struct line_id {
  uint64_t addr;
  int64_t line;
  uint32_t pid;
  uint8_t mode;
  uint32_t xid; /* obj_names: the id in xids of its mapping file and start line, else 0 */
} line_id;
/* A slot of lslot: the high 32 bits of the hash, the key in the low 32
 * (0: empty); 8 bytes, so that the table of 10^5 lines stays in cache. */
typedef uint64_t lslot;

static void dense_free(topctx *t) {
  free(t->dense);
  free(t->dg_base);
  free(t->dg_end);
  free(t->dg_min);
  t->dense = NULL;
  t->dg_base = t->dg_end = NULL;
  t->dg_min = NULL;
  t->dg_n = 0;
}

/* What build_loc_keys leaves behind that the result does not need. */
static void ctx_free_temps(topctx *t) {
  free(t->fn_key);
  free(t->loc_koff);
  free(t->loc_keys);
  free(t->loc_aoff);
  free(t->loc_all);
  free(t->stamp);
  free(t->lnfn);
  free(t->loff);
  free(t->lnline);
  free(t->fnsid);
  free(t->soff);
  dense_free(t);
  t->lnfn = NULL;
  t->loff = NULL;
  t->lnline = NULL;
  t->fnsid = NULL;
  t->soff = NULL;
  t->fn_key = t->loc_koff = t->loc_keys = t->loc_aoff = t->loc_all = NULL;
  t->stamp = NULL;
  t->stamp_cap = 0;
}

static void ctx_free(topctx *t) {
  if (!t) return;
  ctx_free_temps(t);
  pcol_buf_free(&t->fc.scratch);
  pcol_buf_free(&t->scratch);
  pcol_q_keytab_free(&t->keys); /* its own (kt may be another) */
  pcol_q_keytab_free(&t->pres);
  pcol_q_keytab_free(&t->xids);
  pcol_q_inl_free(&t->is);
  free(t->fn_pid);
  free(t->pres_fn);
  free(t->kid);
  free(t->lslot);
  free(t->name_key);
  free(t->names);
  free(t->key_li);
  free(t->key_loc);
  free(t->l2g);
  free(t->cut_loc);
  free(t->kflat);
  free(t->kcum);
  pthread_mutex_destroy(&t->name_lock);
  pcol_nameless_rule_free(&t->rule);
  free(t);
}

/* Rprof stores top-level code refs as functions without a name, which
 * summaryRprof does not count as functions; pprof shows a function without
 * a name as a frame of its own ("<unknown>" or its mapping).  Skipped where
 * the sources whose samples reach the location hold places (THE nameless
 * rule, frames.c: t->rule, loc_frames). */

/* BY_ADDRESS: the current location's address ("%016x" and a space to come),
 * at the start of t->scratch */
static int address_prefix(topctx *t, uint64_t addr, pcol_error *err) {
  if (t->by != PCOL_BY_ADDRESS || !addr) return PCOL_OK;
  char a[24];
  int n = snprintf(a, sizeof a, "%016llx", (unsigned long long)addr);
  return pcol_buf_append(&t->scratch, a, (size_t)n) ? pcol_oom(err) : PCOL_OK;
}

int pcol_q_unsymbolized_name(const pcol_q_fctx *fc, uint32_t loc, pcol_buf *out, pcol_error *err) {
  return pcol_frame_unsymbolized_name(&fc->fr, pcol_frames_mapping(&fc->fr, loc), out, err);
}

/* The file's key of the name whose id in the shared table is id (ext; 0
 * stays 0), made at first sight. */
static int ext_key(topctx *t, uint32_t id, uint32_t *key, pcol_error *err) {
  if (!t->ext || !id) {
    *key = id;
    return PCOL_OK;
  }
  pcol_q_keytab *kt = t->kt;
  if (id >= kt->lk_cap) {
    size_t had = kt->lk_cap;
    while (id >= kt->lk_cap)
      if (pcol_grow(&kt->lk, &kt->lk_cap, sizeof *kt->lk)) return pcol_oom(err);
    memset(kt->lk + had, 0, (kt->lk_cap - had) * sizeof *kt->lk);
  }
  uint64_t e = kt->lk[id];
  if ((uint32_t)(e >> 32) == t->gen) {
    *key = (uint32_t)e;
    return PCOL_OK;
  }
  if ((size_t)t->nl + 1 >= t->l2g_cap && pcol_grow(&t->l2g, &t->l2g_cap, sizeof *t->l2g))
    return pcol_oom(err);
  *key = ++t->nl;
  t->l2g[*key] = id;
  kt->lk[id] = (uint64_t)t->gen << 32 | *key;
  return PCOL_OK;
}

/* The key of a name whose shown part is p[0..shown) (the rest tells keys
 * of one printed name apart: mapping_key): its id in keys, or when the
 * keys are composed, the key of identity (LINE_ID_NAME, that id). */
static int new_key(topctx *t, const struct line_id *l, uint32_t *key, pcol_error *err);
static int name_key(topctx *t, const char *p, size_t n, size_t shown, uint32_t *key, pcol_error *err) {
  uint32_t id;
  PCOL_RETURN_NOT_OK(pcol_q_key_intern_shown(t->kt, p, n, shown, 1, &id, err));
  if (!t->composed) return ext_key(t, id, key, err);
  if (id >= t->name_key_cap) {
    size_t had = t->name_key_cap;
    while (id >= t->name_key_cap)
      if (pcol_grow(&t->name_key, &t->name_key_cap, sizeof *t->name_key)) return pcol_oom(err);
    memset(t->name_key + had, 0, (t->name_key_cap - had) * sizeof *t->name_key);
  }
  if (!t->name_key[id]) {
    struct line_id l = {0, 0, id, LINE_ID_NAME, 0};
    PCOL_RETURN_NOT_OK(new_key(t, &l, &t->name_key[id], err));
  }
  *key = t->name_key[id];
  return PCOL_OK;
}

/* The start line of function fn (0: none, as pprof reads it). */
static int64_t fn_start_line(const topctx *t, uint32_t fn) {
  int64_t sl = fn && fn <= t->fn_start.count ? pcol_view_i64(&t->fn_start, fn - 1) : 0;
  return sl == PCOL_NA_I64 ? 0 : sl;
}

static int cur_obj(topctx *t, pcol_str *out, pcol_error *err);
/* Appends to t->scratch the part of pprof's node (graph.go nodeInfo) that
 * keeps apart frames without a function name (and, with ObjNames, all
 * lines): function fn's start line and the mapping file (the full path)
 * of the location being keyed (t->cur_loc). */
static int obj_part(topctx *t, uint32_t fn, pcol_error *err) {
  int64_t sl = fn_start_line(t, fn);
  pcol_str obj;
  PCOL_RETURN_NOT_OK(cur_obj(t, &obj, err));
  if (pcol_buf_append(&t->scratch, &sl, sizeof sl) || (obj.len && pcol_buf_append(&t->scratch, obj.ptr, obj.len)))
    return pcol_oom(err);
  return PCOL_OK;
}

/* The nameless rule of the location being keyed (t->cur_loc): 1 its
 * nameless lines are frames (pprof), 0 places (Rprof; THE rule, frames.c) */
static inline int loc_frames(const topctx *t) {
  return pcol_nameless_frames_at(&t->rule, t->cur_loc);
}

/* a frame without a line or file is a key of its own: where the location
 * follows go's rule (loc_frames), by file, and in the views of frames */
static inline int lineless(const topctx *t) {
  return t->lineless_frames || loc_frames(t);
}

/* 1 when function fn's name is "" and the view's keys hold names (not by
 * file or source line, where a name is no part of a key) */
static inline int empty_named(const topctx *t, uint32_t fn) {
  return t->by != PCOL_BY_FILE && t->by != PCOL_BY_SOURCE_LINE && pcol_frame_fn_empty(&t->fc.fr, fn);
}

/* A line of function fn, which has no name, is a frame of its own (pprof's
 * node of no name): where the location's rule says frames (loc_frames), and
 * always when the name is the empty string, which a source of places holds
 * as a name, not a place (THE empty-name rule, frames.h). */
static inline int nameless_frame(const topctx *t, uint32_t fn) {
  return loc_frames(t) || empty_named(t, fn);
}

/* A line without a key (its function has no name, or by file no file) is
 * named after its location's mapping (mapping_key) where lineless says so,
 * and, but by line (Rprof's rule there gives a frame without a line to its
 * caller, a named one too), when its function's name is "". */
static inline int keyless_frame(const topctx *t, uint32_t fn) {
  return t->by != PCOL_BY_SOURCE_LINE && (lineless(t) || (t->by != PCOL_BY_LINE && empty_named(t, fn)));
}

/* pprof's node of a frame without a function name (`if o.ObjNames || name
 * == ""`, the whole NodeInfo the key) is its mapping's file (though
 * "[base]" is printed) and its function's start line: appended to
 * t->scratch after a NUL (two libx.so of two directories, or two nameless
 * functions of one binary, are two rows of one name, as pprof prints
 * them).  Appended when both are 0 and empty too: pprof's node of Name ""
 * is never that of a function named "<unknown>" or "[libx.so]". */
static int frame_identity(topctx *t, uint32_t fn, pcol_error *err) {
  if (pcol_buf_append(&t->scratch, "", 1)) return pcol_oom(err);
  return obj_part(t, fn, err);
}

/* The key of a frame named after its location's mapping: a location
 * without lines (pprof folds these per mapping, per address too by
 * address), or, for pprof sources, a line of function fn without a name. */
static int mapping_key(topctx *t, uint32_t loc, uint32_t fn, uint32_t *key, pcol_error *err) {
  t->scratch.len = 0;
  uint64_t addr = loc && loc <= t->fc.nloc ? pcol_view_u64(&t->fc.loc_addr, loc - 1) : 0;
  PCOL_RETURN_NOT_OK(address_prefix(t, addr, err));
  if (t->scratch.len && pcol_buf_append(&t->scratch, " ", 1)) return pcol_oom(err);
  PCOL_RETURN_NOT_OK(pcol_q_unsymbolized_name(&t->fc, loc, &t->scratch, err));
  size_t shown = t->scratch.len;
  t->cur_loc = loc; /* (the callers' location already) */
  if (nameless_frame(t, fn)) PCOL_RETURN_NOT_OK(frame_identity(t, fn, err));
  return name_key(t, (const char *)t->scratch.data, t->scratch.len, shown, key, err);
}

/* pprof's file name in a node: the prefixes /proc/self/cwd/./ and
 * /proc/self/cwd/ trimmed (report.go trimPath, without -trim_path or a
 * source path), then Go's filepath.Clean (graph.go nodeInfo), lexically:
 * repeated slashes, "." and "dir/.." are removed.  Appends to out. */
int pcol_q_clean_path(pcol_str p, pcol_buf *out) {
  static const char *const trim[] = {"/proc/self/cwd/./", "/proc/self/cwd/"};
  for (size_t i = 0; i < 2; i++) {
    size_t l = strlen(trim[i]);
    if (p.len >= l && memcmp(p.ptr, trim[i], l) == 0) {
      p.ptr += l;
      p.len -= l;
      break;
    }
  }
  if (p.len == 0) return pcol_buf_append(out, ".", 1);
  size_t base = out->len, i = 0;
  int rooted = p.ptr[0] == '/';
  if (rooted && pcol_buf_append(out, "/", 1)) return PCOL_ENOMEM;
  size_t floor = out->len; /* ".." never climbs above this (the root, or the start) */
  while (i < p.len) {
    while (i < p.len && p.ptr[i] == '/') i++;
    size_t b = i;
    while (i < p.len && p.ptr[i] != '/') i++;
    size_t n = i - b;
    if (n == 0 || (n == 1 && p.ptr[b] == '.')) continue;
    if (n == 2 && p.ptr[b] == '.' && p.ptr[b + 1] == '.') {
      char *d = (char *)out->data;
      if (out->len > floor) { /* drop the last element, unless it is ".." */
        size_t e = out->len, s0 = e;
        while (s0 > floor && d[s0 - 1] != '/') s0--;
        if (!(e - s0 == 2 && d[s0] == '.' && d[s0 + 1] == '.')) {
          out->len = s0 > floor ? s0 - 1 : floor;
          continue;
        }
      } else if (rooted) {
        continue; /* "/.." is "/" */
      }
    }
    if (out->len > floor && pcol_buf_append(out, "/", 1)) return PCOL_ENOMEM;
    if (pcol_buf_append(out, p.ptr + b, n)) return PCOL_ENOMEM;
  }
  if (out->len == base) return pcol_buf_append(out, ".", 1);
  return PCOL_OK;
}

enum { FN_PID_FILE = 0x80000000u, FN_PID_NAMELESS = 0x40000000u };
/* The fixed part of the names of function fn's lines, interned in t->pres
 * once per function (cleaning a path is the costly part of a name): by
 * source line the cleaned path, else "NAME FILE" (either may be missing).
 * *pid = its id, *hasfile = the function has a file. */
static int fn_prefix(topctx *t, uint32_t fn, uint32_t *pid, int *hasfile, pcol_error *err) {
  if (!t->fn_pid[fn]) {
    if (t->pres.n + 2 > FN_PID_NAMELESS)
      return pcol_error_set(err, PCOL_ETOOBIG, "more than 2^30 function names");
    pcol_str name = {NULL, 0}, file;
    PCOL_RETURN_NOT_OK(pcol_q_fn_string(&t->fc, fn, &t->fc.fn_file, &file, err));
    int hf = file.ptr && file.len;
    if (t->by != PCOL_BY_SOURCE_LINE)
      PCOL_RETURN_NOT_OK(pcol_q_fn_string(&t->fc, fn, &t->fc.fn_name, &name, err));
    t->scratch.len = 0;
    if (name.ptr && name.len && pcol_buf_append(&t->scratch, name.ptr, name.len))
      return pcol_oom(err);
    if (hf) {
      if (name.ptr && name.len && pcol_buf_append(&t->scratch, " ", 1)) return pcol_oom(err);
      if (pcol_q_clean_path(file, &t->scratch)) return pcol_oom(err);
    }
    uint32_t id;
    PCOL_RETURN_NOT_OK(pcol_q_key_intern(&t->pres, (const char *)t->scratch.data, t->scratch.len, 1, &id, err));
    while (id >= t->pres_fn_cap)
      if (pcol_grow(&t->pres_fn, &t->pres_fn_cap, sizeof *t->pres_fn)) return pcol_oom(err);
    t->pres_fn[id] = name.ptr ? (uint32_t)name.len : 0; /* (one function's name, < 4 GiB) */
    t->fn_pid[fn] = id | (hf ? FN_PID_FILE : 0) | (name.len ? 0 : FN_PID_NAMELESS);
  }
  *pid = t->fn_pid[fn] & (FN_PID_NAMELESS - 1);
  *hasfile = (int)(t->fn_pid[fn] >> 31);
  return PCOL_OK;
}

/* Function fn has no name (fn_prefix made its prefix before). */
static inline int fn_nameless(const topctx *t, uint32_t fn) {
  return (t->fn_pid[fn] & FN_PID_NAMELESS) != 0;
}


static uint64_t line_id_hash(const line_id *l) {
  pcol_hstate h;
  pcol_hs_init(&h, 11);
  pcol_hs_add(&h, l->addr);
  pcol_hs_add(&h, (uint64_t)l->line);
  return pcol_hs_end_with(&h, (uint64_t)l->pid | (uint64_t)l->mode << 32 | (uint64_t)l->xid << 40);
}

/* Appends key nkeys + 1 with identity *l (no lookup). */
static int new_key(topctx *t, const line_id *l, uint32_t *key, pcol_error *err) {
  if (t->nkeys + 2 > UINT32_C(1) << 31) return pcol_error_set(err, PCOL_ETOOBIG, "more than 2^31 keys");
  if (PCOL_GROW(t->kid, (size_t)t->nkeys + 1, t->kid_cap)) return pcol_oom(err);
  *key = ++t->nkeys;
  t->kid[*key] = *l;
  return PCOL_OK;
}

/* The line-key table with room for n keys at most 3/4 full (rehashed). */
static int lslot_reserve(topctx *t, size_t n, pcol_error *err) {
  if (n * 4 <= t->lslot_cap * 3) return PCOL_OK;
  size_t nc = t->lslot_cap ? t->lslot_cap : 1024;
  while (n * 4 > nc * 3) nc *= 2;
  lslot *ns = calloc(nc, sizeof *ns);
  if (!ns) return pcol_oom(err);
  for (size_t i = 0; i < t->lslot_cap; i++) {
    lslot x = t->lslot[i];
    if (!(uint32_t)x) continue;
    size_t j = line_id_hash(&t->kid[(uint32_t)x]) & (nc - 1);
    while (ns[j]) j = (j + 1) & (nc - 1);
    ns[j] = x;
  }
  free(t->lslot);
  t->lslot = ns;
  t->lslot_cap = nc;
  return PCOL_OK;
}

/* The key of line identity *l, added if new. */
static int line_id_key(topctx *t, const line_id *l, uint32_t *key, pcol_error *err) {
  uint64_t h = line_id_hash(l), tag = h & 0xffffffff00000000u;
  PCOL_RETURN_NOT_OK(lslot_reserve(t, t->lslot_n + 1, err));
  size_t mask = t->lslot_cap - 1, i = h & mask;
  for (lslot x; (x = t->lslot[i]) != 0; i = (i + 1) & mask) {
    if ((x & 0xffffffff00000000u) != tag) continue;
    const line_id *o = &t->kid[(uint32_t)x];
    if (o->addr == l->addr && o->line == l->line && o->pid == l->pid && o->mode == l->mode &&
        o->xid == l->xid) {
      *key = (uint32_t)x;
      return PCOL_OK;
    }
  }
  PCOL_RETURN_NOT_OK(new_key(t, l, key, err));
  t->lslot[i] = tag | *key;
  t->lslot_n++;
  return PCOL_OK;
}

/* The key of line identity *l (address 0, no xid, mode 0-2) by place in
 * the dense table when it has one for it, else line_id_key.  Every line
 * row's identity has its slot (dense_make saw them all), so an identity
 * is found in one of the two only. */
static int line_place_key(topctx *t, const line_id *l, uint32_t *key, pcol_error *err) {
  size_t g = (size_t)l->pid * 2 + (l->mode != 0); /* (mode 2, by source line: a file) */
  if (t->dense && g < t->dg_n && t->dg_base[g] != UINT64_MAX) {
    uint64_t at = t->dg_base[g], off = (uint64_t)l->line - (uint64_t)t->dg_min[g];
    int in = l->line == PCOL_NA_I64 || (l->line >= t->dg_min[g] && off < t->dg_end[g] - at - 1);
    if (in && l->line != PCOL_NA_I64) at += 1 + off;
    if (in) {
      if (!t->dense[at]) PCOL_RETURN_NOT_OK(new_key(t, l, &t->dense[at], err));
      *key = t->dense[at];
      return PCOL_OK;
    }
  }
  return line_id_key(t, l, key, err);
}

/* The name of a line identity, appended to t->scratch: by source line
 * "FILE:LINE"; by line pprof -lines' "FUNCTION FILE:LINE" with the full
 * path (NameComponents in pprof's graph.go): without a line "FUNCTION
 * FILE", without a file "FUNCTION :LINE"; by address the same after the
 * address ("%016x"). */
static int line_name(topctx *t, line_id l, pcol_error *err) {
  pcol_str pre = l.pid && l.pid <= t->pres.n ? t->pres.s[l.pid] : (pcol_str){NULL, 0};
  char num[32];
  int n = l.line == PCOL_NA_I64 ? 0 : snprintf(num, sizeof num, ":%lld", (long long)l.line);
  if (l.mode == 2)
    return pcol_buf_append(&t->scratch, pre.ptr, pre.len) ||
                   pcol_buf_append(&t->scratch, num, (size_t)n)
               ? pcol_oom(err)
               : PCOL_OK;
  PCOL_RETURN_NOT_OK(address_prefix(t, l.addr, err));
  if (pre.len) {
    if (t->scratch.len && pcol_buf_append(&t->scratch, " ", 1)) return pcol_oom(err);
    if (pcol_buf_append(&t->scratch, pre.ptr, pre.len)) return pcol_oom(err);
  }
  if (n) { /* pprof: "%s:%d" of file and line, even with no file */
    if (!l.mode && t->scratch.len && pcol_buf_append(&t->scratch, " ", 1)) return pcol_oom(err);
    if (pcol_buf_append(&t->scratch, num, (size_t)n)) return pcol_oom(err);
  }
  return PCOL_OK;
}

static uint32_t ctx_nkeys(const topctx *t) {
  return t->composed ? t->nkeys : t->ext ? t->nl : t->kt->n;
}

/* The name of key k ({NULL, 0} for none): see topctx. */
static int ctx_name(topctx *t, uint32_t k, pcol_str *out, pcol_error *err) {
  *out = (pcol_str){NULL, 0};
  if (!k || k > ctx_nkeys(t)) return PCOL_OK;
  if (!t->composed) {
    *out = pcol_q_key_name(t->kt, t->ext ? t->l2g[k] : k);
    return PCOL_OK;
  }
  const line_id *l = &t->kid[k];
  if (l->mode == LINE_ID_NAME) {
    *out = l->pid && l->pid <= t->kt->n ? pcol_q_key_name(t->kt, l->pid) : (pcol_str){NULL, 0};
    return PCOL_OK;
  }
  /* a result is read by many threads (pcol_peek_compute takes it const):
   * the names made on demand are made under a lock */
  int rc = PCOL_OK;
  pthread_mutex_lock(&t->name_lock);
  if (!t->names) { /* the keys are all made before the first name is asked */
    if ((t->names = calloc((size_t)t->nkeys + 1, sizeof *t->names))) t->names_n = (size_t)t->nkeys + 1;
    else rc = pcol_oom(err);
  }
  if (!rc && k >= t->names_n)
    rc = pcol_error_set(err, PCOL_EINVAL, "key %u made after its names", k);
  if (!rc && !t->names[k].ptr) {
    t->scratch.len = 0;
    rc = line_name(t, *l, err);
    const char *p =
        rc ? NULL : pcol_q_key_store(t->kt, (const char *)t->scratch.data, t->scratch.len);
    if (!rc && !p) rc = pcol_oom(err);
    if (!rc) t->names[k] = (pcol_str){p, t->scratch.len};
  }
  if (!rc) *out = t->names[k];
  pthread_mutex_unlock(&t->name_lock);
  return rc;
}

/* The function of line row li (0: none). */
static inline uint32_t line_fn(const topctx *t, uint64_t li) {
  return t->lnfn ? t->lnfn[li] : pcol_view_u32(&t->fc.ln_fn, li);
}

/* The mapping file of the location being keyed (t->cur_loc), read at
 * its first use. */
static int cur_obj(topctx *t, pcol_str *out, pcol_error *err) {
  if (t->cur_obj_loc != t->cur_loc) {
    uint32_t m = t->cur_loc && t->cur_loc <= t->fc.nloc ? pcol_frames_mapping(&t->fc.fr, t->cur_loc) : 0;
    t->cur_obj = (pcol_str){NULL, 0};
    if (m) PCOL_RETURN_NOT_OK(pcol_string(t->fc.f, pcol_view_u32(&t->fc.map_file, m - 1), &t->cur_obj, err));
    t->cur_obj_loc = t->cur_loc;
  }
  *out = t->cur_obj;
  return PCOL_OK;
}

/* The id in t->xids of obj_part's (start line, mapping file). */
static int obj_xid(topctx *t, uint32_t fn, uint32_t *xid, pcol_error *err) {
  t->scratch.len = 0;
  PCOL_RETURN_NOT_OK(obj_part(t, fn, err));
  return pcol_q_key_intern(&t->xids, (const char *)t->scratch.data, t->scratch.len, 1, xid, err);
}

static int line_key_make(topctx *t, uint64_t li, uint32_t fn, uint32_t *key, pcol_error *err);
/* The key of one line row (0 = this frame has none).  By function or file,
 * a function's key once made is read here, inline (a call a line row was a
 * tenth of `top DIR` of many small files). */
static inline int line_key(topctx *t, uint64_t li, uint32_t *key, pcol_error *err) {
  uint32_t fn = line_fn(t, li);
  if (fn > t->fc.nfn) fn = 0;
  if ((t->by == PCOL_BY_FUNCTION || t->by == PCOL_BY_FILE || t->by == PCOL_BY_FILE_FUNCTION) && fn &&
      t->fn_key[fn] != UINT32_MAX) {
    *key = t->fn_key[fn];
    return PCOL_OK;
  }
  return line_key_make(t, li, fn, key, err);
}

/* The line number of line row li. */
static inline int64_t line_ln(const topctx *t, uint64_t li) {
  return t->lnline ? t->lnline[li] : pcol_view_i64(&t->fc.ln_line, li);
}

static int line_key_make(topctx *t, uint64_t li, uint32_t fn, uint32_t *key, pcol_error *err) {
  *key = 0;
  if (t->by == PCOL_BY_FUNCTION || t->by == PCOL_BY_FILE) {
    if (fn == 0) return PCOL_OK;
    pcol_str s;
    const pcol_view *col = t->by == PCOL_BY_FUNCTION ? &t->fc.fn_name : &t->fc.fn_file;
    if (t->soff) /* (fn <= nfn: line_key) */
      PCOL_RETURN_NOT_OK(pcol_strings_at_off(&t->fc.str, t->soff, t->fnsid[fn - 1], &s, err));
    else
      PCOL_RETURN_NOT_OK(pcol_q_fn_string(&t->fc, fn, col, &s, err));
    /* the file's own bytes, or copied into a table that outlives the file;
     * an empty file is none (pprof's NodeInfo: File "" falls back to the
     * mapping, "<unknown>"), as fn_prefix reads it, and so is an empty
     * name (Name "": THE empty-name rule, frames.h; build_loc_keys names
     * its lines after their mappings, mapping_key) */
    if (s.ptr && s.len) {
      int copy = t->kt != &t->keys;
      if (t->by == PCOL_BY_FILE) { /* pprof's File, cleaned as the line names' (fn_prefix) */
        t->scratch.len = 0;
        if (pcol_q_clean_path(s, &t->scratch)) return pcol_oom(err);
        if (t->scratch.len != s.len || memcmp(t->scratch.data, s.ptr, s.len))
          s = (pcol_str){(const char *)t->scratch.data, t->scratch.len}, copy = 1;
      }
      PCOL_RETURN_NOT_OK(pcol_q_key_intern(t->kt, s.ptr, s.len, copy, key, err));
      PCOL_RETURN_NOT_OK(ext_key(t, *key, key, err));
    }
    t->fn_key[fn] = *key;
    return PCOL_OK;
  }
  line_id l = {0, line_ln(t, li), 0, 2, 0};
  int hasfile;
  if (t->by == PCOL_BY_FILE_FUNCTION) { /* the LINE key without its line: one a function */
    if (fn == 0) return PCOL_OK;
    l.line = PCOL_NA_I64;
    PCOL_RETURN_NOT_OK(fn_prefix(t, fn, &l.pid, &hasfile, err));
    l.mode = (uint8_t)hasfile;
    /* a function without a name is a key a mapping (obj_xid): not one a function */
    int apart = fn_nameless(t, fn) && nameless_frame(t, fn);
    if (apart) PCOL_RETURN_NOT_OK(obj_xid(t, fn, &l.xid, err));
    if (t->pres.s[l.pid].len) PCOL_RETURN_NOT_OK(line_id_key(t, &l, key, err));
    if (!apart) t->fn_key[fn] = *key;
    return PCOL_OK;
  }
  if (t->by == PCOL_BY_SOURCE_LINE) { /* "FILE:LINE", only frames that have both */
    if (l.line == 0 || l.line == PCOL_NA_I64) return PCOL_OK;
    PCOL_RETURN_NOT_OK(fn_prefix(t, fn, &l.pid, &hasfile, err));
    return hasfile ? line_place_key(t, &l, key, err) : PCOL_OK;
  }
  /* BY_LINE, BY_ADDRESS.  A frame with no line is skipped for Rprof
   * sources, as summaryRprof(lines = "show") keeps only locations. */
  if (l.line == 0) l.line = PCOL_NA_I64; /* pprof: line 0 is no line */
  if (l.line == PCOL_NA_I64 && !lineless(t)) return PCOL_OK;
  PCOL_RETURN_NOT_OK(fn_prefix(t, fn, &l.pid, &hasfile, err));
  if (l.line == PCOL_NA_I64 && !t->pres.s[l.pid].len)
    return PCOL_OK; /* nothing known: the location's mapping names it */
  l.addr = t->by == PCOL_BY_ADDRESS ? t->cur_addr : 0;
  l.mode = (uint8_t)hasfile;
  /* graph.go nodeInfo with ObjNames, or for a function without a name */
  if (t->objnames || (fn_nameless(t, fn) && nameless_frame(t, fn))) {
    PCOL_RETURN_NOT_OK(obj_xid(t, fn, &l.xid, err));
    return line_id_key(t, &l, key, err);
  }
  return l.addr ? line_id_key(t, &l, key, err) : line_place_key(t, &l, key, err);
}

/* The dense table of line_place_key, when the lines of each group span
 * little more than the lines (a source's lines are numbered from 1): a
 * pass over the line rows for each function's smallest and largest line,
 * one over the functions for their groups'.  Hashing and probing 156k
 * line keys, a cache miss each, was a fifth of `list --by file`.  Leaves
 * no table (the hash does it all) when the spans are too wide. */
static int dense_make(topctx *t, pcol_error *err) {
  pcol_q_fctx *c = &t->fc;
  uint64_t nl = c->nlines, nfn = c->nfn;
  int src = t->by == PCOL_BY_SOURCE_LINE;
  int64_t *fmin = malloc((nfn + 1) * sizeof *fmin), *fmax = malloc((nfn + 1) * sizeof *fmax);
  uint8_t *has = calloc(nfn + 1, 1); /* a function some line row names */
  int rc = fmin && fmax && has ? PCOL_OK : pcol_oom(err);
  for (uint64_t i = 0; !rc && i <= nfn; i++) fmin[i] = INT64_MAX, fmax[i] = INT64_MIN;
  for (uint64_t li = 0; !rc && li < nl; li++) {
    uint32_t fn = t->lnfn[li];
    int64_t ln = t->lnline[li];
    if (!fn || fn > nfn) continue;
    has[fn] = 1;
    if (ln == PCOL_NA_I64 || ln == 0) continue; /* (NA, and by line 0: the group's slot NA) */
    if (ln < fmin[fn]) fmin[fn] = ln;
    if (ln > fmax[fn]) fmax[fn] = ln;
  }
  /* the groups of those functions (fn_prefix: their prefix ids) */
  for (uint64_t fn = 1; !rc && fn <= nfn; fn++) {
    uint32_t pid;
    int hf;
    if (has[fn]) rc = fn_prefix(t, (uint32_t)fn, &pid, &hf, err);
  }
  size_t ng = (size_t)t->pres.n * 2 + 2;
  if (!rc) {
    t->dg_n = ng;
    t->dg_base = malloc(ng * sizeof *t->dg_base);
    t->dg_end = malloc(ng * sizeof *t->dg_end);
    t->dg_min = malloc(ng * sizeof *t->dg_min);
    if (!t->dg_base || !t->dg_end || !t->dg_min) rc = pcol_oom(err);
  }
  int64_t *gmax = (int64_t *)t->dg_end; /* (the largest line until the slots are laid) */
  for (size_t g = 0; !rc && g < ng; g++) t->dg_base[g] = UINT64_MAX, t->dg_min[g] = INT64_MAX, gmax[g] = INT64_MIN;
  for (uint64_t fn = 1; !rc && fn <= nfn; fn++) {
    if (!t->fn_pid[fn] || (src && !(t->fn_pid[fn] >> 31))) continue; /* no key by place */
    if (!src && fn_nameless(t, (uint32_t)fn) &&
        (t->unnamed_is_frame || empty_named(t, (uint32_t)fn)))
      continue; /* (obj_xid) */
    size_t g = (size_t)(t->fn_pid[fn] & (FN_PID_NAMELESS - 1)) * 2 + (t->fn_pid[fn] >> 31);
    t->dg_base[g] = 0; /* it has slots */
    if (fmin[fn] < t->dg_min[g]) t->dg_min[g] = fmin[fn];
    if (fmax[fn] > gmax[g]) gmax[g] = fmax[fn];
  }
  uint64_t n = 0, most = 4 * nl + 4096;
  for (size_t g = 0; !rc && g < ng && n <= most; g++) {
    if (t->dg_base[g] == UINT64_MAX) continue;
    uint64_t span = t->dg_min[g] <= gmax[g] ? (uint64_t)gmax[g] - (uint64_t)t->dg_min[g] + 1 : 0;
    if (span > most) {
      n = most + 1;
      break;
    }
    t->dg_base[g] = n;
    n += 1 + span;
    t->dg_end[g] = n;
  }
  if (!rc && n <= most && !(t->dense = pcol_alloc_hot((n ? n : 1) * sizeof *t->dense, 1)))
    rc = pcol_oom(err);
  if (rc || n > most) dense_free(t);
  free(has);
  free(fmin);
  free(fmax);
  return rc;
}

/* BY_LINE and BY_SOURCE_LINE: fetches the table slot that line row li's key
 * will be looked up in, while the locations before it are keyed (each
 * lookup was a cache miss: a quarter of `top --by line` of 156k lines).
 * Only a hint: a line whose function has no prefix yet, or whose identity
 * has more to it (an address, a mapping), fetches nothing or a slot it
 * does not need. */
static inline void line_slot_prefetch(const topctx *t, uint64_t li) {
  if (li >= t->fc.nlines) return;
  uint32_t fn = t->lnfn[li], pid;
  if (!fn || fn > t->fc.nfn || !(pid = t->fn_pid[fn])) return;
  line_id l = {0, line_ln(t, li), pid & (FN_PID_NAMELESS - 1), 2, 0};
  if (t->by == PCOL_BY_LINE) {
    if (l.line == 0) l.line = PCOL_NA_I64;
    l.mode = (uint8_t)(pid >> 31);
  }
  if (t->dense) { /* (a table of 10^5 slots, read at random: past the nearest cache) */
    size_t g = (size_t)l.pid * 2 + (pid >> 31);
    if (g < t->dg_n && t->dg_base[g] != UINT64_MAX && l.line != PCOL_NA_I64 && l.line >= t->dg_min[g]) {
      uint64_t off = (uint64_t)l.line - (uint64_t)t->dg_min[g];
      if (off < t->dg_end[g] - t->dg_base[g] - 1) /* (a slot of the table: line_place_key's bound) */
        __builtin_prefetch(&t->dense[t->dg_base[g] + 1 + off]);
    }
    return;
  }
  __builtin_prefetch(&t->lslot[line_id_hash(&l) & (t->lslot_cap - 1)]);
}

/* A location's keys are told apart by a scan of those so far below this
 * many, by the stamps (t->stamp) from it. */
enum { STAMP_FROM = 16 };
/* The stamps, zeroed, at their first use. */
static int stamps_made(topctx *t, pcol_error *err) {
  if (!t->stamp && !(t->stamp = calloc(t->stamp_cap, sizeof *t->stamp))) return pcol_oom(err);
  return PCOL_OK;
}
/* Room in the stamps for key (keys made past the size they were given). */
static int stamp_room(topctx *t, uint32_t key, pcol_error *err) {
  while (key >= t->stamp_cap) {
    size_t had = t->stamp_cap;
    if (pcol_grow(&t->stamp, &t->stamp_cap, sizeof *t->stamp)) return pcol_oom(err);
    memset(t->stamp + had, 0, (t->stamp_cap - had) * sizeof *t->stamp);
  }
  return PCOL_OK;
}

/* BY_ADDRESS: the location loc (1-based) keyed next: its address and,
 * with obj_names, its mapping's file. */
static void cur_location(topctx *t, uint32_t loc) {
  t->cur_loc = loc;
  t->cur_addr = t->by == PCOL_BY_ADDRESS ? pcol_view_u64(&t->fc.loc_addr, loc - 1) : 0;
}

/* Composed keys: the line row (UINT64_MAX: none, a mapping's key) and
 * the location key `key` was first made from: by line and source line the
 * line list reads, by line and address pcol_top_key_parts. */
static int note_key(topctx *t, uint32_t key, uint64_t li, uint32_t loc, pcol_error *err) {
  while (key >= t->key_li_cap) {
    size_t had = t->key_li_cap;
    if (pcol_grow(&t->key_li, &t->key_li_cap, sizeof *t->key_li)) return pcol_oom(err);
    for (size_t z = had; z < t->key_li_cap; z++) t->key_li[z] = UINT64_MAX;
  }
  if (t->by != PCOL_BY_SOURCE_LINE) {
    while (key >= t->key_loc_cap) {
      size_t had = t->key_loc_cap;
      if (pcol_grow(&t->key_loc, &t->key_loc_cap, sizeof *t->key_loc)) return pcol_oom(err);
      memset(t->key_loc + had, 0, (t->key_loc_cap - had) * sizeof *t->key_loc);
    }
    if (!t->key_loc[key]) t->key_loc[key] = loc;
  }
  if (t->key_li[key] == UINT64_MAX) t->key_li[key] = li;
  return PCOL_OK;
}

static int build_loc_keys(topctx *t, pcol_error *err) {
  pcol_q_fctx *c = &t->fc;
  /* arrays a location or line, written through: faulted in at once
   * (pcol_alloc_hot; a fault a page was a third of `pcol top` of a file of
   * 164k locations) */
  t->loc_koff = pcol_alloc_hot((c->nloc + 2) * sizeof *t->loc_koff, 0);
  t->loc_aoff = pcol_alloc_hot((c->nloc + 2) * sizeof *t->loc_aoff, 0);
  t->fn_key = pcol_alloc_hot((c->nfn + 1) * sizeof *t->fn_key, 0);
  /* a key a line, or one for a location without: room for the most, the
   * pages of the usual (a key a line, lines >= locations) faulted in, the
   * rest only if written (go-cpu-large: 23k lines for 23k locations) */
  size_t nka = (size_t)(c->nlines + c->nloc + 1);
  size_t hot = (size_t)(c->nlines > c->nloc ? c->nlines : c->nloc) + 1;
  t->loc_keys = malloc(nka * sizeof *t->loc_keys);
  t->loc_all = malloc(nka * sizeof *t->loc_all);
  if (!t->loc_koff || !t->loc_keys || !t->loc_aoff || !t->loc_all || !t->fn_key)
    return pcol_oom(err);
  pcol_prefault_write(t->loc_keys, hot * sizeof *t->loc_keys);
  pcol_prefault_write(t->loc_all, hot * sizeof *t->loc_all);
  t->composed = t->by != PCOL_BY_FUNCTION && t->by != PCOL_BY_FILE;
  if (t->composed && !(t->fn_pid = calloc(c->nfn + 1, sizeof *t->fn_pid))) return pcol_oom(err);
  /* at most a key a line or unsymbolized location: sized once, instead of
   * growing through a rehash of every key at each doubling (measured a
   * fifth of `top --by line` on 156k lines) */
  /* (composed: the line-key table is sized below, after dense_make) */
  /* by function or file, at most a key a function: the same, for the names
   * (23k functions: 5 rehashes and a realloc a doubling, 6% of `pcol top`) */
  if (!t->composed && pcol_q_key_reserve(t->kt, (size_t)t->kt->n + c->nfn + 2)) return pcol_oom(err);
  /* a shared table's keys of this file (ext_key), one a function at most
   * but for the unsymbolized and "<no location>": room once, not a
   * realloc a doubling from 0 (six a small file of `top DIR`) */
  if (t->ext && t->l2g_cap < (size_t)c->nfn + 2) {
    uint32_t *g = realloc(t->l2g, ((size_t)c->nfn + 2) * sizeof *g);
    if (!g) return pcol_oom(err);
    t->l2g = g;
    t->l2g_cap = (size_t)c->nfn + 2;
  }
  /* the stamps (a location's keys told apart past STAMP_FROM of them) are
   * made at the first such location, sized for every key there can be (a
   * key a function, line or unsymbolized location, and names), not a
   * realloc and copy a doubling */
  t->stamp_cap = (size_t)(ctx_nkeys(t) + c->nfn + c->nlines + c->nloc) + 8;
  uint32_t ka = 0;
  t->loc_aoff[0] = t->loc_aoff[1] = 0;
  for (uint64_t i = 0; i <= c->nfn; i++) t->fn_key[i] = UINT32_MAX;
  /* the lines' functions and the locations' line offsets read once, a
   * lane at a time (an encoded column costs a lookup an element; many small
   * files, `top DIR`, pay it for every location) */
  const pcol_view *lo = &c->fr.loc_off;
  free(t->lnfn);
  free(t->loff);
  free(t->lnline);
  dense_free(t);
  t->lnfn = NULL;
  t->loff = NULL;
  t->lnline = NULL;
  if (c->ln_fn.count >= c->nlines && lo->count > c->nloc &&
      (t->lnfn = pcol_alloc_hot((c->nlines + 1) * sizeof *t->lnfn, 0)) &&
      (t->loff = pcol_alloc_hot((c->nloc + 1) * sizeof *t->loff, 0))) {
    pcol_view_read_u32(&c->ln_fn, 0, c->nlines, t->lnfn);
    pcol_view_read_u64(lo, 0, c->nloc + 1, t->loff);
  } else {
    free(t->lnfn);
    t->lnfn = NULL;
  }
  /* by function or file, the functions' string ids and the strings'
   * offsets read once, a lane at a time, when the strings are not many
   * more than the functions (a day's file: 351 functions, 406 strings;
   * an element lookup each in encoded columns was a tenth of naming) and
   * few (go-cpu-large's 23k functions: its offsets in fresh pages cost
   * more than the lookups, 3% of its top) */
  free(t->fnsid);
  free(t->soff);
  t->fnsid = NULL;
  t->soff = NULL;
  const pcol_view *ncol = t->by == PCOL_BY_FUNCTION ? &c->fn_name : &c->fn_file;
  if ((t->by == PCOL_BY_FUNCTION || t->by == PCOL_BY_FILE) && c->nfn && ncol->count >= c->nfn &&
      c->str.n && c->str.off.count > c->str.n && c->str.n <= 4 * c->nfn + 1024 && c->str.n <= 8192 &&
      (t->fnsid = malloc(c->nfn * sizeof *t->fnsid)) &&
      (t->soff = malloc((c->str.n + 1) * sizeof *t->soff))) {
    pcol_view_read_u32(ncol, 0, c->nfn, t->fnsid);
    pcol_view_read_u64(&c->str.off, 0, c->str.n + 1, t->soff);
  } else {
    free(t->fnsid);
    t->fnsid = NULL;
  }
  /* line keys by place (dense_make), when the lines were read;
   * PCOL_DEBUG=line-hash hashes them all (test_top_modes compares the two) */
  const char *dbg = getenv("PCOL_DEBUG");
  if (t->lnfn && !t->objnames && (t->by == PCOL_BY_LINE || t->by == PCOL_BY_SOURCE_LINE) &&
      !(dbg && strstr(dbg, "line-hash")) &&
      c->ln_line.count >= c->nlines && (t->lnline = pcol_alloc_hot((c->nlines + 1) * sizeof *t->lnline, 0))) {
    pcol_view_read_u64(&c->ln_line, 0, c->nlines, (uint64_t *)t->lnline);
    PCOL_RETURN_NOT_OK(dense_make(t, err));
  }
  /* the hash takes what the dense table does not (names, addresses, ...) */
  if (t->composed && !t->dense) PCOL_RETURN_NOT_OK(lslot_reserve(t, (size_t)(c->nlines + c->nloc), err));
  uint32_t k = 0;
  t->loc_koff[0] = 0;
  t->loc_koff[1] = 0; /* location 0 (none) has no keys */
  enum { PREFETCH_AHEAD = 8 }; /* locations */
  int prefetch = t->lnfn && !t->objnames && (t->by == PCOL_BY_LINE || t->by == PCOL_BY_SOURCE_LINE);
  /* what the pass reads and writes, in locals: the calls below (a name
   * made, a stamp) would otherwise have every field of t read again at
   * each line (a day's file: ~100 instructions a location, `top DIR`).
   * None of these arrays moves during the pass (sized above). */
  uint32_t *const koff = t->loc_koff, *const aoff = t->loc_aoff, *const lkeys = t->loc_keys,
                 *const lall = t->loc_all, *const fn_key = t->fn_key;
  const uint64_t *const loff = t->loff;
  const uint32_t *const lnfn = t->lnfn;
  const uint8_t *const hid = t->flt ? t->flt->line_hidden : NULL;
  const uint8_t *const lochid = hid ? t->flt->loc_hidden : NULL;
  const uint64_t nloc = c->nloc, nlines = c->nlines, nfn = c->nfn;
  const int composed = t->composed, by = t->by;
  /* line_key's shortcut: a function's key once made */
  const int fn_keyed = by == PCOL_BY_FUNCTION || by == PCOL_BY_FILE || by == PCOL_BY_FILE_FUNCTION;
  for (uint64_t loc = 1; loc <= nloc; loc++) {
    uint64_t a, e;
    if (prefetch && loc + PREFETCH_AHEAD <= nloc) line_slot_prefetch(t, loff[loc + PREFETCH_AHEAD - 1]);
    if (lnfn) { /* pcol_frames_lines' bounds */
      a = loff[loc - 1], e = loff[loc];
      if (e > nlines) e = nlines;
      if (a > e) a = e;
    } else {
      pcol_frames_lines(&c->fr, (uint32_t)loc, &a, &e);
    }
    uint32_t start = k;
    int unsymbolized = a == e; /* no lines, or lines without a function */
    if (hid && lochid[loc]) { /* --hide/--show removed it */
      koff[loc + 1] = k;
      aoff[loc + 1] = ka;
      continue;
    }
    cur_location(t, (uint32_t)loc);
    uint64_t last = e; /* the outermost line left */
    while (hid && last > a && hid[last - 1]) last--;
    for (uint64_t li = a; li < e; li++) {
      uint32_t key;
      if (hid && hid[li]) continue;
      uint32_t fn = lnfn ? lnfn[li] : pcol_view_u32(&c->ln_fn, li); /* (line_fn) */
      if (fn == 0) unsymbolized = 1;
      uint32_t fnk = fn > nfn ? 0 : fn; /* (line_key) */
      if (fn_keyed && fnk && fn_key[fnk] != UINT32_MAX) key = fn_key[fnk];
      else PCOL_RETURN_NOT_OK(line_key_make(t, li, fnk, &key, err));
      if (key && composed) PCOL_RETURN_NOT_OK(note_key(t, key, li, (uint32_t)loc, err));
      /* a pprof line whose function has no name is its own frame, named
       * after the mapping like an unsymbolized address; by file, so is a
       * function without a file (pprof -files: "[binary]" or "<unknown>",
       * with its cum), Rprof's too.  By line, top's table of an Rprof
       * source keeps R's rule: a frame without a srcref passes its flat
       * to the innermost caller that has one (lineless). */
      if (!key && keyless_frame(t, fnk)) {
        PCOL_RETURN_NOT_OK(mapping_key(t, (uint32_t)loc, fn, &key, err));
        if (composed) PCOL_RETURN_NOT_OK(note_key(t, key, UINT64_MAX, (uint32_t)loc, err));
      }
      if (!key) continue;
      /* pprof: a call into a line that is not the outermost is inlined */
      lall[ka++] = key | (li + 1 == last ? 0 : 0x80000000u);
      /* distinct keys of this location: the few so far scanned (most
       * locations have one line), past STAMP_FROM a stamp per key (a scan
       * would be quadratic in a long inline chain) */
      if (k - start < STAMP_FROM) {
        uint32_t j = start;
        while (j < k && lkeys[j] != key) j++;
        if (j < k) continue;
        lkeys[k++] = key;
        if (k - start < STAMP_FROM) continue;
        PCOL_RETURN_NOT_OK(stamps_made(t, err)); /* the location's keys so far, stamped */
        for (j = start; j < k; j++) {
          PCOL_RETURN_NOT_OK(stamp_room(t, lkeys[j], err));
          t->stamp[lkeys[j]] = (uint32_t)loc;
        }
        continue;
      }
      PCOL_RETURN_NOT_OK(stamp_room(t, key, err));
      if (t->stamp[key] == (uint32_t)loc) continue; /* (locations < 2^31: top_run) */
      t->stamp[key] = (uint32_t)loc;
      lkeys[k++] = key;
    }
    /* pprof names an unsymbolized location after its mapping ("<unknown>"
     * without one); a function with NA name (an Rprof top-level ref) is not
     * unsymbolized and stays skipped */
    if (k == start && unsymbolized &&
        (by == PCOL_BY_FUNCTION ||
         ((by == PCOL_BY_LINE || by == PCOL_BY_ADDRESS || by == PCOL_BY_FILE ||
           by == PCOL_BY_FILE_FUNCTION) &&
          loc_frames(t)))) {
      uint32_t key;
      PCOL_RETURN_NOT_OK(mapping_key(t, (uint32_t)loc, 0, &key, err));
      if (composed) PCOL_RETURN_NOT_OK(note_key(t, key, UINT64_MAX, (uint32_t)loc, err));
      lall[ka++] = key;
      lkeys[k++] = key;
    }
    koff[loc + 1] = k;
    aoff[loc + 1] = ka;
  }
  return PCOL_OK;
}

/* pprof's orders (graph.go Nodes.Sort): |a| desc, bytewise name */
static int by_mag(pcol_sum a, pcol_sum b) {
  return mag(a) == mag(b) ? 0 : mag(a) > mag(b) ? -1 : 1;
}
static int by_name(const pcol_top_row *a, const pcol_top_row *b) {
  size_t n = a->name.len < b->name.len ? a->name.len : b->name.len;
  int c = n ? memcmp(a->name.ptr, b->name.ptr, n) : 0;
  if (c) return c;
  return a->name.len == b->name.len ? 0 : a->name.len < b->name.len ? -1 : 1;
}
/* Rows of one name (line-level nodes pprof keeps apart, see pcol.h) end
 * in key order, so that the order never depends on the sort. */
static int by_key(const pcol_top_row *a, const pcol_top_row *b) {
  return a->key == b->key ? 0 : a->key < b->key ? -1 : 1;
}
static int row_cmp(const void *pa, const void *pb) { /* FlatNameOrder */
  const pcol_top_row *a = pa, *b = pb;
  int c = by_mag(a->flat, b->flat);
  if (!c) c = by_name(a, b);
  if (!c) c = by_mag(a->cum, b->cum);
  return c ? c : by_key(a, b);
}
static int row_cmp_cum(const void *pa, const void *pb) { /* CumNameOrder */
  const pcol_top_row *a = pa, *b = pb;
  int c = by_mag(a->cum, b->cum);
  if (!c) c = by_name(a, b);
  if (!c) c = by_mag(a->flat, b->flat);
  return c ? c : by_key(a, b);
}
static int row_cmp_name(const void *pa, const void *pb) {
  int c = by_name(pa, pb);
  return c ? c : by_key(pa, pb);
}

void pcol_top_sort(pcol_top *t, pcol_sort order) {
  if (!t->nrows) return;
  int (*cmp)(const void *, const void *) =
      order == PCOL_SORT_CUM ? row_cmp_cum : order == PCOL_SORT_NAME ? row_cmp_name : row_cmp;
  /* rows already in this order (pcol top: sorted by flat, cut, sorted by
   * flat again) cost one pass, not a sort of names */
  size_t i = 1;
  while (i < t->nrows && cmp(&t->rows[i - 1], &t->rows[i]) <= 0) i++;
  if (i < t->nrows) qsort(t->rows, t->nrows, sizeof *t->rows, cmp);
}

/* pprof's cutoffs (report.go newTrimmedGraph): |int64(float64(sum) x
 * fraction)|, where sum is the sum of flat over every node (the node and
 * edge fractions) or the total (the "Dropped N nodes (cum <= X)" label).
 * The sum is exact (an int64 sum in pprof): a sum of doubles would depend
 * on the order of the rows. */
pcol_q_umag pcol_q_frac_cut(pcol_sum sum, double fraction, pcol_sum grain) {
  if (grain < 1) grain = 1;
  double c = (double)(sum / grain) * fraction; /* go's int64 total, in go's unit */
  if (!(c == c)) return 0; /* NaN */
  if (c >= 1.6e38 / (double)grain || c <= -1.6e38 / (double)grain) return (pcol_umag)1 << 127; /* beyond any sum: all */
  return mag((pcol_sum)c) * (pcol_umag)grain;
}

pcol_sum pcol_q_top_grain(const pcol_top *t) {
  const pcol_q_top_priv *p = t ? t->priv_ : NULL;
  return p && p->grain > 1 ? p->grain : 1;
}

size_t pcol_top_cutoff(pcol_top *t, double fraction, pcol_sum *label_cutoff) {
  pcol_sum sum = 0;
  for (size_t i = 0; i < t->nrows; i++) sum += t->rows[i].flat;
  pcol_sum g = pcol_q_top_grain(t);
  pcol_umag cut = pcol_q_frac_cut(sum, fraction, g);
  if (label_cutoff) *label_cutoff = (pcol_sum)pcol_q_frac_cut(t->total, fraction, g);
  if (cut == 0) return 0;
  size_t k = 0;
  for (size_t i = 0; i < t->nrows; i++)
    if (mag(t->rows[i].cum) >= cut) t->rows[k++] = t->rows[i];
  size_t dropped = t->nrows - k;
  t->nrows = k;
  return dropped;
}

/* pprof's "(inline)" marks (report.go TextItems, graph.go newGraph): a call
 * edge caller -> callee is inlined when every call along it went into a
 * line that is not the outermost of its location; a key is "inline" when
 * one of its incoming edges is, "partial-inline" when others are not.
 * Edges are (caller key, callee key) pairs in an open-addressing table
 * (pcol_q_edges, query.h: top_many.c adds up the edges of many files). */
typedef pcol_q_edges edge_tab;

int pcol_q_edge_get(edge_tab *e, uint32_t from, uint32_t to, uint32_t *id) {
  int added;
  if (pcol_u64map_get(&e->map, (uint64_t)from << 32 | to, id, &added)) return PCOL_ENOMEM;
  if (added) {
    uint32_t i = *id;
    if (i >= e->cap) {
      size_t nc = e->cap ? 2 * e->cap : 1024;
      uint8_t *nf = realloc(e->all_inl, nc);
      if (nf) e->all_inl = nf;
      pcol_sum *nw = realloc(e->w, nc * sizeof *nw);
      if (nw) e->w = nw;
      uint32_t *np = realloc(e->path, nc * sizeof *np);
      if (np) e->path = np;
      if (!nf || !nw || !np) return PCOL_ENOMEM;
      e->cap = nc;
    }
    e->all_inl[i] = PCOL_Q_EDGE_UNCOUNTED;
    e->w[i] = 0;
    e->path[i] = 0;
  }
  return PCOL_OK;
}

void pcol_q_edge_count(edge_tab *e, uint32_t i, int inl, pcol_sum w) {
  if (e->all_inl[i] == PCOL_Q_EDGE_UNCOUNTED || !inl) e->all_inl[i] = (uint8_t)!!inl;
  if (__builtin_add_overflow(e->w[i], w, &e->w[i])) e->w[i] = w < 0 ? INT64_MIN : INT64_MAX;
}

/* The keys that can be marked "(inline)" (kept: among kept[key]; NULL:
 * every key): only a key met at an inlined line somewhere, since an edge is
 * all-inline only into such a key and "partial" only qualifies a mark.
 * Edges into other keys are not kept, and a profile without inlined lines
 * (Rprof, most non-Go pprof) needs no pass over the stack nodes at all
 * (measured: that pass was half of `pcol top` on 0.5M stack nodes).
 * *may = NULL when there is none. */
static int may_keys(const pcol_q_inl_state *s, const uint8_t *kept, uint8_t **may,
                    pcol_error *err) {
  *may = NULL;
  uint32_t nall = s->loc_aoff ? s->loc_aoff[s->nlocs + 1] : 0;
  for (uint32_t j = 0; j < nall; j++) {
    uint32_t x = s->loc_all[j];
    if (!(x >> 31) || (kept && !kept[x & 0x7fffffffu])) continue;
    if (!*may && !(*may = calloc(s->nkeys + 1, 1))) return pcol_oom(err);
    (*may)[x & 0x7fffffffu] = 1;
  }
  return PCOL_OK;
}

/* The locations with a key in may (NULL out of memory). */
static uint8_t *may_locs(const pcol_q_inl_state *s, const uint8_t *may) {
  uint8_t *locmay = calloc(s->nlocs + 1, 1);
  if (locmay)
    for (uint64_t l = 1; l <= s->nlocs; l++)
      for (uint32_t j = s->loc_aoff[l]; j < s->loc_aoff[l + 1]; j++)
        if (may[s->loc_all[j] & 0x7fffffffu]) locmay[l] = 1;
  return locmay;
}

/* The edges of a node into its location's lines, outermost line first,
 * from caller (the innermost key on the path above it), each of weight w:
 * counted where it is first on the path, that is where no ancestor (nor
 * an outer line of the node) had it.  pre: the node's place in the trie's
 * preorder, end: its subtree's end (trie_preorder); e->path[edge] is the
 * end of the subtree of the edge's last counted occurrence, which holds
 * the node exactly while pre < that end. */
static inline int node_edges(edge_tab *e, const pcol_q_inl_state *s, uint32_t loc, uint32_t caller,
                             const uint8_t *kept, const uint8_t *may, const uint32_t *id, pcol_sum w,
                             uint32_t pre, uint32_t end, uint32_t *last) {
  for (uint32_t j = s->loc_aoff[loc + 1]; j > s->loc_aoff[loc]; j--) {
    uint32_t x = s->loc_all[j - 1], key = x & 0x7fffffffu, i;
    if (kept && !kept[key]) continue;
    if (may && caller && caller != key && may[key]) {
      if (pcol_q_edge_get(e, id ? id[caller] : caller, id ? id[key] : key, &i)) return PCOL_ENOMEM;
      if (pre >= e->path[i]) {
        pcol_q_edge_count(e, i, (int)(x >> 31), w);
        e->path[i] = end;
      }
    }
    caller = key;
  }
  if (last) *last = caller;
  return PCOL_OK;
}

/* pprof drops the edges below its -edgefraction before it marks */
void pcol_q_edges_mark(const edge_tab *e, pcol_sum cutoff, uint8_t *inl) {
  for (size_t i = 0; i < e->map.cap; i++) {
    if (!e->map.k[i]) continue; /* the map's slots: key + 1, or 0 */
    uint32_t id = e->map.v[i], callee = (uint32_t)(e->map.k[i] - 1);
    if (e->all_inl[id] != PCOL_Q_EDGE_UNCOUNTED && mag(e->w[id]) >= (pcol_umag)cutoff)
      inl[callee] |= e->all_inl[id] ? 1 : 2;
  }
}
void pcol_q_edges_free(edge_tab *e) {
  pcol_u64map_free(&e->map);
  free(e->all_inl);
  free(e->w);
  free(e->path);
  memset(e, 0, sizeof *e);
}

static int inl_make_sub(pcol_q_inl_state *s, pcol_error *err);

/* Element i of a trie column: par/loc are its elements when plain (after
 * pcol_q_trie_plain), held in a local so that the passes below keep them
 * in a register; NULL for an absent column */
static inline uint32_t trie_at(const uint32_t *plain, const pcol_view *v, uint64_t i) {
  return plain ? plain[i] : pcol_view_u32(v, i);
}

/* The trie's nodes in preorder (cum_preorder, collect_edges): on entry
 * nx[n] holds n's count of descendants (nx[0] unused); on return ord[1..ns]
 * are the nodes in preorder and nx[n] is the end of n's subtree, its place
 * + 1 + its descendants, so that a node of place i lies in n's subtree
 * exactly while place(n) <= i < nx[n].  Parents come first (checked by the
 * pass that counted the descendants; a later parent would be read as the
 * root here, as there).  One forward pass: n takes the next free place of
 * its parent, pre = nx[p], moves that on by n's subtree and leaves in nx[n]
 * its own next free place, which after the pass is its subtree's end. */
static inline __attribute__((always_inline)) void trie_preorder(const uint32_t *par, const pcol_view *pv,
                                                                uint64_t ns, uint32_t *nx, uint32_t *ord) {
  nx[0] = 1; /* the root's first child takes place 1 */
  for (uint64_t n = 1; n <= ns; n++) {
    uint32_t p = trie_at(par, pv, n - 1), d = nx[n];
    if (p >= n) p = 0;
    uint32_t pre = nx[p];
    nx[p] = pre + d + 1;
    nx[n] = pre + 1;
    ord[pre] = (uint32_t)n;
  }
}

/* trie_preorder's nx and ord made anew (NULL out of memory). */
static int trie_order(const pcol_q_inl_state *s, uint32_t **nx, uint32_t **ord) {
  uint64_t ns = s->nstacks;
  const uint32_t *par = s->st_parent.data;
  *nx = *ord = NULL;
  if (ns >= UINT32_MAX) return PCOL_ENOMEM; /* (places in 32 bits: top_sums refused it) */
  *nx = pcol_alloc_hot((ns + 1) * sizeof **nx, 1);
  *ord = pcol_alloc_hot((ns + 1) * sizeof **ord, 0);
  if (!*nx || !*ord) {
    free(*nx);
    free(*ord);
    *nx = *ord = NULL;
    return PCOL_ENOMEM;
  }
  for (uint64_t n = ns; n >= 1; n--) {
    uint32_t p = trie_at(par, &s->st_parent, n - 1);
    if (p && p < n) (*nx)[p] += (*nx)[n] + 1;
  }
  trie_preorder(par, &s->st_parent, ns, *nx, *ord);
  return PCOL_OK;
}

/* The call edges into the keys with may[key], added to *e with their
 * keys mapped by id (NULL: as they are).  kept[key] (NULL: every key) are
 * the graph's nodes: a call goes from the nearest kept frame outward, as
 * pprof's graph rebuilt from kept nodes.  fk (with kept NULL): the
 * innermost key on the path to each node, which top_run made as the flat
 * keys (every key kept: the innermost line of the nearest location with
 * keys), so that only the nodes of locations with a key that may be marked
 * are visited.  The subtree sums must be made (inl_make_sub).  The nodes
 * are visited in preorder (nx, ord of trie_preorder; NULL: made here), so
 * that an edge counts only at its first occurrence on a path
 * (node_edges). */
static int collect_edges(const pcol_q_inl_state *s, const uint8_t *kept, const uint32_t *fk,
                         const uint8_t *may, const uint32_t *id, const uint32_t *nx,
                         const uint32_t *ord, edge_tab *e) {
  int rc = PCOL_OK;
  uint8_t *locmay = NULL; /* with fk: the locations with a key in may */
  uint32_t *kk = NULL;    /* without: the innermost kept key on the path */
  uint32_t *lw = NULL;    /* and per location, its innermost kept key (0: none), bit
                           * 31 when it has a kept key in may: the nodes of other
                           * locations add no edge, and only pass kk on */
  uint32_t *own_nx = NULL, *own_ord = NULL;
  if (!nx && (rc = trie_order(s, &own_nx, &own_ord)) != PCOL_OK) return rc;
  if (!nx) nx = own_nx, ord = own_ord;
  if (e->map.n) memset(e->path, 0, e->map.n * sizeof *e->path); /* (another file's places) */
  if (kept || !fk) {
    if ((kk = pcol_alloc_hot((s->nstacks + 1) * sizeof *kk, 0))) kk[0] = 0;
    if ((lw = malloc((s->nlocs + 1) * sizeof *lw)))
      for (uint64_t l = 0; l <= s->nlocs; l++) {
        uint32_t w = 0;
        for (uint32_t j = s->loc_aoff[l + 1]; j > s->loc_aoff[l]; j--) { /* as node_edges */
          uint32_t key = s->loc_all[j - 1] & 0x7fffffffu;
          if (kept && !kept[key]) continue;
          w = (w & 0x80000000u) | key | (may && may[key] ? 0x80000000u : 0);
        }
        lw[l] = w;
      }
    if (!lw) {
      free(kk);
      kk = NULL;
    }
  } else {
    locmay = may_locs(s, may);
  }
  if (!kk && !locmay) rc = PCOL_ENOMEM;
  const uint32_t *par = s->st_parent.data, *locs = s->st_loc.data;
  const uint8_t *touched = s->touched;
  for (uint64_t i = 1; i <= s->nstacks && !rc; i++) {
    uint32_t n = ord[i], loc = trie_at(locs, &s->st_loc, n - 1);
    if (locmay && !(locmay[loc] && touched[n])) continue; /* adds no edge */
    uint32_t p = trie_at(par, &s->st_parent, n - 1);
    uint32_t caller = kk ? kk[p < n ? p : 0] : fk[p < n ? p : 0];
    if (kk && (!(lw[loc] & 0x80000000u) || !touched[n])) { /* no edge */
      uint32_t k = lw[loc] & 0x7fffffffu;
      kk[n] = k ? k : caller;
      continue;
    }
    rc = node_edges(e, s, loc, caller, kept, may, id, pcol_q_nsum_at(&s->sub, n), (uint32_t)i,
                    nx[n], kk ? &kk[n] : NULL);
  }
  free(kk);
  free(lw);
  free(locmay);
  free(own_nx);
  free(own_ord);
  return rc;
}

/* pprof's marks into inl: see collect_edges for kept and fk. */
static int inline_marks(pcol_q_inl_state *s, const uint8_t *kept, const uint32_t *fk,
                        const uint32_t *nx, const uint32_t *ord, uint8_t *inl, pcol_error *err) {
  edge_tab e = {0};
  uint8_t *may;
  PCOL_RETURN_NOT_OK(may_keys(s, kept, &may, err));
  if (!may) return PCOL_OK;
  int rc = inl_make_sub(s, err);
  if (!rc && (rc = collect_edges(s, kept, fk, may, NULL, nx, ord, &e)) != PCOL_OK) rc = pcol_oom(err);
  if (!rc) pcol_q_edges_mark(&e, s->cutoff, inl);
  free(may);
  pcol_q_edges_free(&e);
  return rc;
}

int pcol_q_top_edges(const pcol_top *t, const uint8_t *kept, const uint8_t *may,
                     const uint32_t *id, pcol_q_edges *into, pcol_error *err) {
  pcol_q_top_priv *p = t->priv_;
  if (!p || (!pcol_q_nsum_made(&p->is.sub) && !p->is.own_list) || !p->is.loc_aoff) return PCOL_OK;
  PCOL_RETURN_NOT_OK(inl_make_sub(&p->is, err));
  return collect_edges(&p->is, kept, NULL, may, id, NULL, NULL, into) ? pcol_oom(err) : PCOL_OK;
}

int pcol_q_inline_of(uint8_t m) {
  return m & 1 ? (m & 2 ? PCOL_INLINE_PARTIAL : PCOL_INLINE_ONLY) : PCOL_INLINE_NONE;
}


int pcol_top_mark_inline(pcol_top *t, pcol_error *err) {
  pcol_q_top_priv *p = t->priv_;
  if (!p || (!pcol_q_nsum_made(&p->is.sub) && !p->is.own_list)) return PCOL_OK;
  uint8_t *kept = calloc(p->is.nkeys + 1, 1), *inl = calloc(p->is.nkeys + 1, 1);
  int rc = PCOL_OK;
  if (!kept || !inl) rc = pcol_oom(err);
  for (size_t i = 0; !rc && i < t->nrows; i++) {
    uint32_t k = t->rows[i].key;
    if (k && k <= p->is.nkeys) kept[k] = 1;
  }
  if (!rc) rc = inline_marks(&p->is, kept, NULL, p->is.pre_end, p->is.pre_ord, inl, err);
  for (size_t i = 0; !rc && i < t->nrows; i++) {
    uint32_t k = t->rows[i].key;
    t->rows[i].inl = k && k <= p->is.nkeys ? pcol_q_inline_of(inl[k]) : PCOL_INLINE_NONE;
  }
  free(kept);
  free(inl);
  return rc;
}

/* The marks of every key, as the walks make them (top_run without
 * no_marks), for a result made without them. */
static int mark_every_key(pcol_top *t, pcol_error *err) {
  pcol_q_top_priv *p = t->priv_;
  if (!p || (!pcol_q_nsum_made(&p->is.sub) && !p->is.own_list)) return PCOL_OK;
  uint8_t *inl = calloc(p->is.nkeys + 1, 1);
  int rc = inl ? inline_marks(&p->is, NULL, p->is.fk, p->is.pre_end, p->is.pre_ord, inl, err) : pcol_oom(err);
  for (size_t i = 0; !rc && i < t->nrows; i++) {
    uint32_t k = t->rows[i].key;
    t->rows[i].inl = k && k <= p->is.nkeys ? pcol_q_inline_of(inl[k]) : PCOL_INLINE_NONE;
  }
  free(inl);
  return rc;
}

/* Cumulative weight (sums mode): a key adds a node's subtree sum where no
 * ancestor of the node already holds the key (once per sample however
 * deep it recurses), in one pass over the nodes in a preorder made in two
 * linear passes, whatever order the trie stores them in (a trie built
 * from deep stacks of interleaved branches made the path walk give up
 * and walk child lists with a visit per node).  nx[n] holds n's count of
 * descendants (from the backward pass), made into the subtrees' ends by
 * trie_preorder.  In preorder a node lies below the node that put key k
 * on the path exactly while its place is before that node's end
 * (hend[k]): no count a key and no leave events.  ord (ns + 1 entries) is
 * the preorder's nodes. */
static inline __attribute__((always_inline)) void cum_preorder(const topctx *t, const pcol_q_fctx *c, const uint32_t *lk1,
                         const pcol_q_nsum *sub, uint32_t *nx, uint32_t *ord, uint32_t *hend,
                         pcol_sum *cum) {
  uint64_t ns = c->nstacks;
  const uint32_t *par = c->st_parent.data, *loc = c->st_loc.data;
  const int64_t *w64 = sub->w64;
  const pcol_sum *w128 = sub->w128;
  trie_preorder(par, &c->st_parent, ns, nx, ord);
  for (uint64_t i = 1; i <= ns; i++) {
    uint32_t n = ord[i], k1 = lk1[trie_at(loc, &c->st_loc, n - 1)], end = nx[n];
    if (!(k1 & 0x80000000u)) { /* no key or one */
      if (k1 && i >= hend[k1]) {
        cum[k1] += w64 ? (pcol_sum)w64[n] : w128[n];
        hend[k1] = end;
      }
      continue;
    }
    uint32_t l = k1 & 0x7fffffffu;
    for (uint32_t j = t->loc_koff[l]; j < t->loc_koff[l + 1]; j++) {
      uint32_t k = t->loc_keys[j];
      if (i >= hend[k]) {
        cum[k] += w64 ? (pcol_sum)w64[n] : w128[n];
        hend[k] = end;
      }
    }
  }
}

/* Walk mode (top_walkrun): flat, cum and the "(inline)" edges in one walk
 * over the stack trie's nodes, reading the samples' own weights from a
 * list (pcol_q_weights_sparse) and no sum a node.  T is the sum of the
 * own weights of the nodes entered so far; a key holds from the node that
 * puts it on the path (cnt 0 -> 1, start = T) to the one that takes it off
 * (1 -> 0), and every node entered in between lies below a holder, so its
 * cum is the sum of T - start over those spans: a key counts once per
 * sample however often it recurses, as the subtree sums do in sums mode.  A
 * node's subtree weight (an edge's) is likewise T at its leaving less T at
 * its coming on the path, summed over its spans.  Per node it keeps one
 * byte (touched, on the path); the rest is per key or per path depth.  All
 * in 64 bits: walk mode runs only when the total of |values| fits. */
typedef struct walk_node {
  int64_t t0;     /* T when the node came on the path */
  uint32_t n, fk; /* the node, its flat key (its own first key, else its parent's) */
  uint32_t k1;      /* its location's key word (lk1) */
  uint32_t eoff, c0; /* its edges' first entry in eid, and C when it came on the path */
} walk_node;
enum { W_TOUCHED = 1 };
/* walk mode's key word of a location (lk1): a key (0: none), or W_MULTI |
 * the location when it has several; W_MAY when its edges can be marked */
enum { W_MULTI = 0x80000000u, W_MAY = 0x40000000u, W_ID = 0x3fffffffu };
typedef struct top_walk {
  const topctx *t;
  const pcol_q_inl_state *is;
  pcol_view par, loc;  /* the stack nodes' parents and locations */
  const uint32_t *lk1;  /* per location: its key word (W_MULTI, W_MAY) */
  uint8_t *fl;          /* per node: W_TOUCHED (NULL with all) */
  size_t cur;           /* the own-weight list's next entry */
  /* per key, how many nodes on the path hold it: at most the path's
   * depth, which the walk keeps below WALK_MAX_DEPTH (16 bits: the counts
   * of 23k keys in 46 KB, not 92, nearer the core) */
  uint16_t *cnt;
  int64_t *flat, *cum, T;
  uint32_t C; /* the nodes with an own weight entered so far */
  int all;    /* every node is visited (touched is not made): a span with
               * no weighted node entered (C - c0 = 0) adds no edge, as an
               * untouched node adds none in sums mode */
  walk_node *stk; /* the path, stk[0] the root (node 0) */
  size_t d;
  const uint8_t *may, *locmay; /* NULL: no key can be marked */
  edge_tab e;   /* path[edge]: how many times the edge is on the path */
  uint32_t *eid; /* the edges of the nodes on the path (bit 31: into an inlined line) */
  size_t ne, ecap;
  uint32_t nokey;
  uint64_t nloc; /* the locations (t's, read at every push) */
  int fail;     /* out of memory */
  uint32_t bad; /* a node with a location or parent out of range */
} top_walk;

/* The edges of a node coming on the path (location loc, key word k1), as
 * node_edges makes them (from the innermost key above, outermost line
 * first), each counted on the path and kept in eid for walk_edges_off;
 * stk[d].eoff (the node's slot) is where they start. */
static void walk_edges_on(top_walk *w, uint32_t loc, uint32_t k1) {
  w->stk[w->d].eoff = (uint32_t)w->ne;
  if (!(k1 & W_MAY)) return;
  const pcol_q_inl_state *s = w->is;
  uint32_t caller = w->stk[w->d - 1].fk;
  for (uint32_t j = s->loc_aoff[loc + 1]; j > s->loc_aoff[loc]; j--) {
    uint32_t x = s->loc_all[j - 1], key = x & 0x7fffffffu, i;
    if (caller && caller != key && w->may[key]) {
      if (w->ne == w->ecap) {
        size_t nc = w->ecap ? 2 * w->ecap : 256;
        uint32_t *ne = nc < UINT32_MAX ? realloc(w->eid, nc * sizeof *ne) : NULL;
        if (!ne) {
          w->fail = 1;
          return;
        }
        w->eid = ne;
        w->ecap = nc;
      }
      if (pcol_q_edge_get(&w->e, caller, key, &i) || i > 0x7fffffffu) {
        w->fail = 1;
        return;
      }
      w->e.path[i]++;
      w->eid[w->ne++] = i | (x & 0x80000000u);
    }
    caller = key;
  }
}

/* The edges of node x leaving the path, innermost line first: one whose
 * count on the path falls to 0 was first on the path here (pprof counts
 * an edge once a sample, at its first occurrence from the root), and adds
 * the node's span unless no weighted node was entered in it (all: as an
 * untouched node adds no edge in sums mode). */
static inline void walk_edges_off(top_walk *w, const walk_node *x, int64_t span) {
  int weighed = !w->all || w->C != x->c0;
  while (w->ne > x->eoff) {
    uint32_t v = w->eid[--w->ne], i = v & 0x7fffffffu;
    if (--w->e.path[i] == 0 && weighed) pcol_q_edge_count(&w->e, i, (int)(v >> 31), span);
  }
}

/* n comes on the path (stk has room: a path is at most every node); own:
 * its own weight when it is entered, 0 when it comes back.  A key's span
 * starts at T = the t0 of the node that takes its count from 0 to 1, so
 * that node's pop ends it with T - t0 (pops are in the reverse order).
 * may: whether a location can have W_MAY (a constant where inlined: the
 * node's location and C are kept only for the marks' edges). */
static inline __attribute__((always_inline)) void walk_push_k(top_walk *w, uint32_t n, uint32_t loc,
                                                              uint32_t k1, int64_t own, const int may) {
  uint32_t fk;
  if (!(k1 & W_MULTI)) { /* no key or one */
    uint32_t k = k1 & W_ID;
    if (k) w->cnt[k]++;
    fk = k ? k : w->stk[w->d - 1].fk;
  } else {
    const topctx *t = w->t;
    uint32_t a = t->loc_koff[loc], e = t->loc_koff[loc + 1];
    for (uint32_t j = a; j < e; j++) w->cnt[t->loc_keys[j]]++;
    fk = t->loc_keys[a];
  }
  if (may) walk_edges_on(w, loc, k1);
  walk_node *x = &w->stk[w->d++];
  x->t0 = w->T;
  x->n = n;
  x->fk = fk;
  x->k1 = k1;
  if (may) x->c0 = w->C;
  if (own != 0) {
    w->flat[fk ? fk : w->nokey] += own;
    if (!fk) w->cum[w->nokey] += own; /* no key on the path: no span adds it */
    w->T += own;
    w->C++;
  }
}

/* walk_push_k with the key word read here (the chains' pushes; a block's
 * nodes have theirs read ahead) */
static inline __attribute__((always_inline)) void walk_push(top_walk *w, uint32_t n, uint32_t loc,
                                                            int64_t own, const int may) {
  if (loc > w->nloc) { /* (the column's first use checked it: no cost to be sure) */
    w->bad = n;
    loc = 0;
  }
  walk_push_k(w, n, loc, w->lk1[loc], own, may);
}

static inline __attribute__((always_inline)) void walk_pop(top_walk *w, const int may) {
  const walk_node *x = &w->stk[--w->d];
  uint32_t k1 = x->k1;
  int64_t span = w->T - x->t0;
  if (!(k1 & W_MULTI)) {
    uint32_t k = k1 & W_ID;
    if (k && --w->cnt[k] == 0) w->cum[k] += span;
  } else { /* (the location is in the word) */
    const topctx *t = w->t;
    uint32_t loc = k1 & W_ID;
    for (uint32_t j = t->loc_koff[loc]; j < t->loc_koff[loc + 1]; j++)
      if (--w->cnt[t->loc_keys[j]] == 0) w->cum[t->loc_keys[j]] += span;
  }
  if (may) walk_edges_off(w, x, span);
}

/* Whether node q is on the path: its nodes' ids increase from the root
 * (a parent comes before its child), so a binary search of stk, instead
 * of a byte a node set and cleared at every push and pop. */
static inline int walk_on_path(const top_walk *w, uint32_t q) {
  size_t lo = 0, hi = w->d;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uint32_t m = w->stk[mid].n;
    if (m == q) return 1;
    if (m < q) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/* walk_path reads the trie's columns WALK_BLOCK nodes at a time (plain:
 * in place; encoded: into a buffer on the stack, no decoded copy of the
 * column). */
enum { WALK_BLOCK = 512, WALK_MIN_NODES = 1 << 16, WALK_MAX_DEPTH = 0xffff };
static inline const uint32_t *walk_block(const pcol_view *v, uint64_t from, size_t m, uint32_t *buf) {
  if (v->data) return (const uint32_t *)v->data + from;
  pcol_view_read_u32(v, from, m, buf);
  return buf;
}

/* The path walk of pcol_q_path_walk (query.h), with the visits inlined:
 * the touched nodes in id order, the path from the root on stk.  0, or 1
 * when it gives up as pcol_q_path_walk does (then sums mode takes over).
 * all and may are constants (walk_path's four copies: the common one,
 * every node and no marks to make, does the least a node). */
static inline __attribute__((always_inline)) int walk_path_as(top_walk *wp, const pcol_q_own *own,
                                                              uint32_t *chain, const int all,
                                                              const int may) {
  top_walk l = *wp, *w = &l; /* a local: its fields stay in registers */
  const pcol_view *par = &w->par;
  const uint32_t *onode = own->node;
  const int64_t *ow = own->w;
  size_t on = own->n, cur = w->cur;
  uint64_t ns = w->is->nstacks, steps = 0;
  /* in locals, not read through w at each node: the next node with an own
   * weight, and the node on top of the path */
  uint64_t next = cur < on ? onode[cur] : UINT64_MAX;
  uint32_t top = w->stk[w->d - 1].n;
  uint32_t pbuf[WALK_BLOCK], lbuf[WALK_BLOCK], kbuf[WALK_BLOCK];
  int r = 0;
  for (uint64_t b = 0; b < ns; b += WALK_BLOCK) { /* nodes b + 1 .. b + m */
    size_t m = ns - b < WALK_BLOCK ? (size_t)(ns - b) : WALK_BLOCK;
    const uint32_t *pb = walk_block(par, b, m, pbuf), *lb = walk_block(&w->loc, b, m, lbuf);
    /* the block's key words read ahead: loads that do not wait on each
     * other, where in the walk each waited on the one before (the word,
     * then the count it names); ~3% of top of go-cpu-large.  (A prefetch
     * of each word's count here gained nothing more.) */
    for (size_t i = 0; i < m; i++) {
      uint32_t loc = lb[i];
      if (loc > w->nloc) { /* (the column's first use checked it: no cost to be sure) */
        w->bad = (uint32_t)(b + i + 1);
        loc = 0;
      }
      kbuf[i] = w->lk1[loc];
    }
    for (size_t i = 0; i < m; i++) {
      uint64_t n = b + i + 1;
      if (!all && !(w->fl[n] & W_TOUCHED)) continue; /* no weight below */
      uint32_t q = pb[i];
      if (q >= n) { /* parents come first (checked at the column's first use, too) */
        w->bad = (uint32_t)n;
        q = 0;
      }
      if (top != q) { /* not the child of the last node */
        size_t k = 0;
        while (q && !walk_on_path(w, q)) { /* the part of the path that left it */
          if (++steps > 8 * n + 1024) goto give_up;
          chain[k++] = q;
          q = pcol_view_u32(par, q - 1);
        }
        /* back to q (0: the root, stk[0]); not counted in steps: a pop
         * takes off a push, and the pushes are bounded (a node each, and
         * the chains') */
        while (w->stk[w->d - 1].n != q) walk_pop(w, may);
        if (w->d + k >= WALK_MAX_DEPTH) goto give_up; /* (the counts' 16 bits) */
        while (k) {
          uint32_t x = chain[--k];
          walk_push(w, x, x > b ? lb[x - b - 1] : pcol_view_u32(&w->loc, x - 1), 0, may);
        }
      }
      int64_t o = 0;
      if (n == next) {
        o = ow[cur++];
        next = cur < on ? onode[cur] : UINT64_MAX;
      }
      /* (no prefetch of the key count a node ahead: the key word it
       * loads cost more than the misses it saved, 2% of top) */
      if (w->d + 1 >= WALK_MAX_DEPTH) goto give_up;
      walk_push_k(w, (uint32_t)n, lb[i] > w->nloc ? 0 : lb[i], kbuf[i], o, may);
      top = (uint32_t)n;
    }
  }
  l.cur = cur;
  *wp = l;
  return r;
give_up:
  l.cur = cur;
  *wp = l;
  return 1;
}
static int walk_path(top_walk *w, const pcol_q_own *own, uint32_t *chain) {
  int may = w->locmay != NULL; /* (W_MAY is set only then) */
  if (w->all) return may ? walk_path_as(w, own, chain, 1, 1) : walk_path_as(w, own, chain, 1, 0);
  return may ? walk_path_as(w, own, chain, 0, 1) : walk_path_as(w, own, chain, 0, 0);
}

/* touched (W_TOUCHED in fl): the nodes with an own weight and their
 * ancestors (node ids were checked against the stacks by weights.c) */
static void mark_touched(const pcol_q_inl_state *s, const pcol_q_own *own, uint8_t *fl) {
  for (size_t i = 0; i < own->n; i++)
    for (uint32_t x = own->node[i]; x && !fl[x]; x = pcol_view_u32(&s->st_parent, x - 1))
      fl[x] = W_TOUCHED;
}

/* The own weights of the list as a sum a node, in 64-bit cells when the
 * total of |values| fits (pcol_q_weights_nsum's rule). */
static int own_dense(pcol_q_inl_state *s, pcol_error *err) {
  pcol_q_nsum *sub = &s->sub;
  if (s->total <= INT64_MAX) sub->w64 = pcol_alloc_hot((s->nstacks + 1) * sizeof *sub->w64, 1);
  else sub->w128 = pcol_alloc_hot((s->nstacks + 1) * sizeof *sub->w128, 1);
  if (!pcol_q_nsum_made(sub)) return pcol_oom(err);
  for (size_t i = 0; i < s->own.n; i++) {
    if (sub->w64) sub->w64[s->own.node[i]] = s->own.w[i];
    else sub->w128[s->own.node[i]] = s->own.w[i];
  }
  pcol_q_own_free(&s->own);
  s->own_list = 0;
  return PCOL_OK;
}

/* The subtree sums peek, graph and the marks of a cut result read, made
 * from the own weights the walk read (walk mode), once. */
static int inl_make_sub(pcol_q_inl_state *s, pcol_error *err) {
  if (!s->own_list) return PCOL_OK;
  /* the passes after walk mode's read the trie at random: plain */
  PCOL_RETURN_NOT_OK(pcol_q_trie_plain(s->f, &s->st_parent, &s->st_loc, err));
  if (s->touched_later) { /* (the walk made none) */
    if (!s->touched && !(s->touched = pcol_alloc_hot(s->nstacks + 1, 1))) return pcol_oom(err);
    mark_touched(s, &s->own, s->touched);
    s->touched_later = 0;
  }
  PCOL_RETURN_NOT_OK(own_dense(s, err));
  for (uint64_t n = s->nstacks; n >= 1; n--) {
    uint32_t p = pcol_view_u32(&s->st_parent, n - 1);
    if (p) pcol_q_nsum_addto(&s->sub, p, n);
  }
  return PCOL_OK;
}

/* Sums mode: the own weights summed per node, then flat keys forward,
 * subtree sums backward and the cum walk (the state is in t->is). */
static int top_sums(topctx *t, const uint32_t *nkey, uint32_t nokey, pcol_sum *flat,
                    pcol_sum *cum, uint8_t *inl, pcol_error *err) {
  pcol_q_fctx *c = &t->fc;
  pcol_q_inl_state *is = &t->is;
  uint64_t ns = c->nstacks;
  size_t nk = (size_t)ctx_nkeys(t) + 1;
  pcol_q_nsum *sub = &is->sub; /* node weights, then subtree sums in place */
  int rc = PCOL_OK;
  /* the subtree sums are made in place of the node weights (read first in
   * the forward pass): one array less to fault in */
  uint32_t *fk = pcol_alloc_hot((ns + 1) * sizeof *fk, 0); /* (written whole: pcol_alloc_hot) */
  uint8_t *touched = is->touched = pcol_alloc_hot(ns + 1, 1);
  uint32_t *hend = pcol_alloc_hot(nk * sizeof *hend, 1);
  uint32_t *nx = pcol_alloc_hot((ns + 1) * sizeof *nx, 1), *ord = pcol_alloc_hot((ns + 1) * sizeof *ord, 0);
  if (!fk || !touched || !hend || !nx || !ord) {
    rc = pcol_oom(err);
    goto done;
  }
  if (ns >= UINT32_MAX) { /* cum_preorder's places, 1 .. ns + 1, in 32 bits */
    rc = pcol_error_set(err, PCOL_ETOOBIG, "more than 2^32 - 2 stack nodes");
    goto done;
  }
  /* forward: flat key of each node (its own first key, else its parent's) */
  const uint32_t *par = c->st_parent.data, *locs = c->st_loc.data;
  const uint32_t *koff = t->loc_koff, *keys = t->loc_keys;
  int64_t *w64 = sub->w64;
  pcol_sum *w128 = sub->w128;
  fk[0] = 0;
  for (uint64_t n = 1; n <= ns; n++) {
    uint32_t p = trie_at(par, &c->st_parent, n - 1), loc = trie_at(locs, &c->st_loc, n - 1);
    if (p >= n || loc > c->nloc) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "stack node %llu has a bad parent or location",
                          (unsigned long long)n);
      goto done;
    }
    /* its location's first key from its key word (loc_key_words), one
     * load where the offsets and the key were three dependent ones */
    uint32_t k1 = nkey[loc], f = k1 & 0x80000000u ? keys[koff[k1 & 0x7fffffffu]] : k1;
    if (!f) f = fk[p];
    fk[n] = f;
    pcol_sum own = w64 ? (pcol_sum)w64[n] : w128[n]; /* still the node's own weight */
    touched[n] = own != 0 || (sub->nonzero && sub->nonzero[n]); /* (samples that cancel: pcol_q_nsum) */
    if (own != 0) {
      flat[f ? f : nokey] += own;
      if (!f) cum[nokey] += own;
    }
  }
  /* backward: subtree sums and counts of descendants (parents precede children) */
  for (uint64_t n = ns; n >= 1; n--) {
    uint32_t p = trie_at(par, &c->st_parent, n - 1);
    if (p) {
      if (w64) w64[p] += w64[n];
      else w128[p] += w128[n];
      touched[p] |= touched[n];
      nx[p] += nx[n] + 1;
    }
  }
  cum_preorder(t, c, nkey, sub, nx, ord, hend, cum);
  pcol_sum sum_flat = 0; /* pprof's default -edgefraction, 0.001 of the sum of flat */
  for (size_t k = 1; k < nk; k++) sum_flat += flat[k];
  is->cutoff = (pcol_sum)pcol_q_frac_cut(sum_flat, 0.001, t->grain);
  if (!t->no_marks) rc = inline_marks(is, NULL, fk, nx, ord, inl, err);
  else if (t->keep_fk) /* (the marks of the rows shown, or mark_every_key's) */
    is->fk = fk, is->pre_end = nx, is->pre_ord = ord, fk = nx = ord = NULL;
done:
  free(fk);
  free(hend);
  free(nx);
  free(ord);
  return rc;
}

/* Walk mode: see top_walk.  Needs the total of |values| in 64 bits.
 * Returns 1, with nothing made, when the path walk gives up. */
static int top_walkrun(topctx *t, uint32_t *nkey, uint32_t nokey, int all, int64_t **flat,
                       int64_t **cum, uint8_t *inl, pcol_error *err) {
  pcol_q_fctx *c = &t->fc;
  pcol_q_inl_state *is = &t->is;
  const pcol_q_own *own = &is->own;
  uint64_t ns = c->nstacks;
  size_t nk = (size_t)ctx_nkeys(t) + 1;
  top_walk w = {.t = t, .is = is, .par = c->st_parent, .loc = c->st_loc, .lk1 = nkey,
                .nokey = nokey, .nloc = c->nloc};
  uint8_t *may = NULL;
  uint32_t *chain = NULL;
  int rc = PCOL_OK;
  if (!all) w.fl = is->touched = pcol_alloc_hot(ns + 1, 1); /* (all: made later if asked) */
  w.cnt = pcol_alloc_hot(nk * sizeof *w.cnt, 1);
  w.flat = pcol_alloc_hot(nk * sizeof *w.flat, 1);
  w.cum = pcol_alloc_hot(nk * sizeof *w.cum, 1);
  w.stk = malloc((ns + 2) * sizeof *w.stk); /* faulted in only as deep as paths go */
  chain = malloc((ns + 1) * sizeof *chain);
  if ((!all && !w.fl) || !w.cnt || !w.flat || !w.cum || !w.stk || !chain) {
    rc = pcol_oom(err);
    goto done;
  }
  w.stk[0] = (walk_node){0, 0, 0, 0, 0, 0}; /* the root, under every path: never left */
  w.d = 1;
  /* touched: made here when a filter or selection may leave much of the
   * tree without weight (then the walk skips it), else with the subtree
   * sums if a view asks (inl_make_sub): the climbs were a sixth of the walk
   * where every node has weight below */
  w.all = all;
  is->touched_later = all;
  if (!all) mark_touched(is, own, w.fl);
  w.cur = own->n && own->node[0] == 0; /* node 0 (no stack) is on no path */
  /* the edges of the marks (none to make: no key is met at an inlined
   * line, or the caller marks the rows it shows: pcol_top_compute_shown) */
  if (!t->no_marks && (rc = may_keys(is, NULL, &may, err))) goto done;
  if (may && !(w.may = may, w.locmay = may_locs(is, may))) {
    rc = pcol_oom(err);
    goto done;
  }
  for (uint64_t l = 1; w.locmay && l <= c->nloc; l++)
    if (w.locmay[l]) nkey[l] |= W_MAY;
  if (walk_path(&w, own, chain)) { /* an order of deep interleaved branches: */
    free(is->touched);                /* sums mode's tree walk takes over */
    is->touched = NULL;
    is->touched_later = 0;
    rc = 1;
    goto done;
  }
  while (w.d > 1) walk_pop(&w, w.locmay != NULL); /* what is left on the path leaves it */
  if (w.bad) {
    rc = pcol_error_set(err, PCOL_ECORRUPT, "stack node %u has a bad parent or location", w.bad);
    goto done;
  }
  if (w.fail) {
    rc = pcol_oom(err);
    goto done;
  }
  pcol_sum sum_flat = 0; /* pprof's default -edgefraction, 0.001 of the sum of flat */
  for (size_t k = 1; k < nk; k++) sum_flat += w.flat[k];
  is->cutoff = (pcol_sum)pcol_q_frac_cut(sum_flat, 0.001, t->grain);
  if (!t->no_marks) pcol_q_edges_mark(&w.e, is->cutoff, inl);
  *flat = w.flat; /* the caller's */
  *cum = w.cum;
  w.flat = w.cum = NULL;
done:
  pcol_q_edges_free(&w.e);
  free(w.eid);
  free(w.cnt);
  free(w.flat);
  free(w.cum);
  free(w.stk);
  free(chain);
  free(may);
  free((void *)w.locmay);
  return rc;
}

/* Each location's keys in one word (nkey: the key of a one-key location,
 * else the location with the high bit set): the walks read of a node this
 * word of its location. */
static void loc_key_words(const topctx *t, uint32_t *nkey) {
  for (uint64_t l = 0; l <= t->fc.nloc; l++) {
    uint32_t a = t->loc_koff[l], e = t->loc_koff[l + 1];
    nkey[l] = e - a == 1 ? t->loc_keys[a] : e == a ? 0 : (uint32_t)l | 0x80000000u;
  }
}

static int top_run(topctx *t, const pcol_select *sel, const pcol_value_sel *v, pcol_top *out,
                   pcol_error *err) {
  pcol_q_fctx *c = &t->fc;
  uint64_t ns = c->nstacks;
  pcol_sum *flat = NULL, *cum = NULL; /* sums mode's; walk mode's in 64 bits */
  int64_t *flat64 = NULL, *cum64 = NULL;
  uint32_t *nkey = NULL;
  uint8_t *inl = NULL;
  pcol_q_inl_state *is = &t->is;
  pcol_filter flt;
  int rc = pcol_filter_build(c->f, sel, &flt, err);
  if (rc) return rc;
  t->flt = &flt;
  /* walk mode where samples are few against many stack nodes (a sum a
   * node would be mostly zeros, in arrays past the caches).  Below 64k
   * nodes sums mode's linear passes win whatever the ratio (a 720-node
   * file of top DIR: 7.8 against 9.0 ms for 200 files; go-cpu-large, 425k
   * nodes for 20k samples: walk 5.4 against 9.5 ms; bench/results/
   * query-speed.md).  PCOL_DEBUG=top-sums or top-walk chooses (the tests
   * compare the two) */
  const char *dbg = getenv("PCOL_DEBUG");
  int walk = ns >= WALK_MIN_NODES && pcol_rows(c->f, PCOL_T_SAMPLES) * 4 <= ns;
  if (dbg && strstr(dbg, "top-sums")) walk = 0;
  if (dbg && strstr(dbg, "top-walk")) walk = 1;
  if (flt.node_cut) walk = 0; /* show_from: sums mode, on the cut trie below */
  if (walk) rc = pcol_q_weights_sparse(c->f, sel, &flt, v, &is->own, &out->total, err);
  else rc = pcol_q_weights_nsum(c->f, sel, &flt, v, &is->sub, &out->total, err);
  /* walk mode sums in 64 bits, and knows no node whose samples cancel */
  if (!rc && walk && (is->own.wide || is->own.grouped)) {
    pcol_q_own_free(&is->own);
    rc = pcol_q_weights_nsum(c->f, sel, &flt, v, &is->sub, &out->total, err);
    walk = 0;
  }
  is->own_list = walk;
  is->total = out->total;
  is->grouped = walk ? is->own.grouped : is->sub.grouped;
  if (rc) goto done;
  if ((rc = build_loc_keys(t, err))) goto done;
  uint32_t nokey;
  if ((rc = name_key(t, "<no location>", 13, 13, &nokey, err))) goto done;
  size_t nk = (size_t)ctx_nkeys(t) + 1;
  if (nk > 0x7fffffffu || c->nloc > 0x7fffffffu) { /* the walk's high bit (below) */
    rc = pcol_error_set(err, PCOL_ETOOBIG, "more than 2^31 names or locations");
    goto done;
  }
  /* the trie as stored for walk mode of a cut result (its one pass reads
   * it a block at a time: walk_path); plain for the rest */
  if (!(walk && t->cut) && (rc = pcol_q_trie_plain(c->f, &c->st_parent, &c->st_loc, err)))
    goto done;
  if (flt.node_cut) { /* show_from: a node it cuts away has no location, so no keys */
    free(t->cut_loc);
    if (!(t->cut_loc = malloc((ns ? ns : 1) * sizeof *t->cut_loc))) {
      rc = pcol_oom(err);
      goto done;
    }
    for (uint64_t n = 1; n <= ns; n++)
      t->cut_loc[n - 1] = flt.node_cut[n] ? 0 : pcol_view_u32(&c->st_loc, n - 1);
    c->st_loc = (pcol_view){.data = t->cut_loc, .count = ns, .type = PCOL_TYPE_U32};
  }
  is->f = c->f;
  is->st_parent = c->st_parent;
  is->st_loc = c->st_loc;
  is->nstacks = ns;
  is->nlocs = c->nloc;
  is->loc_aoff = t->loc_aoff;
  is->loc_all = t->loc_all;
  is->nkeys = nk - 1;
  t->loc_aoff = t->loc_all = NULL;
  if (walk && (nk > W_ID || c->nloc > W_ID)) { /* past walk mode's key words */
    if ((rc = own_dense(is, err))) goto done;
    walk = 0;
  }
  nkey = pcol_alloc_hot((c->nloc + 1) * sizeof *nkey, 0);
  inl = pcol_alloc_hot(nk, 1);
  if (!walk) {
    flat = pcol_alloc_hot(nk * sizeof *flat, 1);
    cum = pcol_alloc_hot(nk * sizeof *cum, 1);
  }
  if (!nkey || (!walk && (!flat || !cum)) || !inl) {
    rc = pcol_oom(err);
    goto done;
  }
  loc_key_words(t, nkey);
  int all = !flt.active && (!sel || (!sel->source_id && !sel->has_from && !sel->has_to));
  if (walk && (rc = top_walkrun(t, nkey, nokey, all, &flat64, &cum64, inl, err)) == 1) {
    /* the path walk gave up: sums mode's tree walk, from the same weights */
    for (size_t l = 0; l <= c->nloc; l++) nkey[l] &= ~(uint32_t)W_MAY;
    rc = own_dense(is, err);
    walk = 0;
    if (!rc && (!(flat = calloc(nk, sizeof *flat)) || !(cum = calloc(nk, sizeof *cum))))
      rc = pcol_oom(err);
  }
  if (!walk && !rc && !(rc = pcol_q_trie_plain(c->f, &c->st_parent, &c->st_loc, err))) {
    is->st_parent = c->st_parent;
    is->st_loc = c->st_loc;
    rc = top_sums(t, nkey, nokey, flat, cum, inl, err);
  }
  /* a result whose views read the subtree sums gets them now (peek and
   * graph read them from many threads); a cut one (pcol top) when marked,
   * an unmarked one (top_many.c: one a file) when its edges are asked */
  if (!rc && !t->cut && !t->no_marks) rc = inl_make_sub(is, err);
  if (rc) goto done;
  /* rows: with a node fraction, only those pcol_top_cutoff would keep
   * (what pcol_top_compute_cut shows: a line-level profile has 10^5 rows
   * and shows 10^1) */
#define FLAT(k) (flat64 ? (pcol_sum)flat64[k] : flat[k])
#define CUM(k) (cum64 ? (pcol_sum)cum64[k] : cum[k])
  if (t->sums_out) { /* the sums themselves, no rows (pcol_q_top_sums) */
    if (flat64) { /* walk mode's, in 64 bits */
      flat = malloc(nk * sizeof *flat);
      cum = malloc(nk * sizeof *cum);
      if (!flat || !cum) {
        rc = pcol_oom(err);
        goto done;
      }
      for (size_t k = 0; k < nk; k++) flat[k] = flat64[k], cum[k] = cum64[k];
    }
    t->kflat = flat;
    t->kcum = cum;
    flat = cum = NULL;
    goto done;
  }
  pcol_sum sum_flat = 0;
  for (size_t k = 1; k < nk; k++) sum_flat += FLAT(k);
  pcol_umag cut = t->cut ? pcol_q_frac_cut(sum_flat, t->fraction, t->grain) : 0;
  size_t nr = 0;
  for (size_t k = 1; k < nk; k++)
    if (FLAT(k) != 0 || CUM(k) != 0) {
      if (mag(CUM(k)) >= cut) nr++;
      else t->dropped++;
    }
  out->rows = calloc(nr ? nr : 1, sizeof *out->rows);
  if (!out->rows) {
    rc = pcol_oom(err);
    goto done;
  }
  nr = 0;
  for (size_t k = 1; k < nk; k++)
    if ((FLAT(k) != 0 || CUM(k) != 0) && mag(CUM(k)) >= cut) {
      out->rows[nr].key = (uint32_t)k; /* named by the caller (pcol_q_top_name) */
      out->rows[nr].flat = FLAT(k);
      out->rows[nr].cum = CUM(k);
      out->rows[nr].inl = pcol_q_inline_of(inl[k]); /* see inline_marks */
      nr++;
    }
  out->nrows = nr;
#undef FLAT
#undef CUM
done:
  free(flat);
  free(cum);
  free(flat64);
  free(cum64);
  free(nkey);
  free(inl);
  pcol_filter_free(&flt);
  t->flt = NULL;
  return rc;
}

/* A context for f, by and the selection's sources. */
static int ctx_new(pcol_file *f, const pcol_select *sel, pcol_by by, topctx **out,
                   pcol_error *err) {
  topctx *t = *out = calloc(1, sizeof *t);
  if (t) t->kt = &t->keys;
  if (!t) return pcol_oom(err);
  if (pthread_mutex_init(&t->name_lock, NULL)) {
    free(t);
    *out = NULL;
    return pcol_oom(err);
  }
  t->by = by;
  int rc = pcol_nameless_rule_make(f, sel, &t->rule, err);
  t->unnamed_is_frame = t->rule.frames;
  t->lineless_frames = by == PCOL_BY_FILE; /* (go -files: "<unknown>") */
  if (!rc) rc = pcol_q_fctx_init_inplace(&t->fc, f, err); /* (top_run makes the trie plain) */
  /* a function's start line tells apart nodes without a name (obj_xid) */
  if (!rc) rc = pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE, &t->fn_start, err);
  /* by address on sources that record none (Rprof) would be one row of
   * everything: say so instead (a pprof profile without addresses keeps
   * pprof -addresses' rows, which fall back to lines) */
  if (!rc && by == PCOL_BY_ADDRESS && !t->unnamed_is_frame) {
    uint64_t l = 0;
    while (l < t->fc.nloc && !pcol_view_u64(&t->fc.loc_addr, l)) l++;
    if (l == t->fc.nloc)
      rc = pcol_error_set(err, PCOL_ENOTFOUND,
                          "no addresses: the selected sources (Rprof) record none; "
                          "view them by line, file or function");
  }
  if (rc) {
    ctx_free(t);
    *out = NULL;
  }
  return rc;
}

/* The rows, unnamed and in no order, with the context kept in the result
 * (its keys name the rows later: pcol_q_top_name).  marks: 1 the rows'
 * "(inline)" marks made, 0 not, 2 not but the flat keys kept for them, 3
 * no rows but the sums a key (pcol_q_top_sums). */
static int top_make(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                    int cut, double fraction, int marks, pcol_q_keytab *names, int objnames,
                    pcol_top *out, size_t *dropped, pcol_error *err) {
  memset(out, 0, sizeof *out);
  if ((unsigned)by > PCOL_BY_FILE_FUNCTION) return pcol_error_set(err, PCOL_EINVAL, "no such granularity");
  if (pcol_rows(f, PCOL_T_STACKS) >= 0x7fffffffu)
    return pcol_error_set(err, PCOL_ETOOBIG, "too many stack nodes");
  pcol_q_top_priv *p = calloc(1, sizeof *p);
  topctx *t = NULL;
  int rc = p ? ctx_new(f, sel, by, &t, err) : pcol_oom(err);
  if (!rc && (objnames & 1) && (by == PCOL_BY_ADDRESS || by == PCOL_BY_LINE)) t->objnames = 1;
  if (!rc && (objnames & PCOL_Q_TOP_FRAMES)) t->lineless_frames = t->frames_asked = 1;
  if (rc) {
    free(p);
    return rc;
  }
  out->value = *v;
  if (names && (by == PCOL_BY_FUNCTION || by == PCOL_BY_FILE)) { /* not composed */
    t->kt = names;
    t->ext = 1;
    if (++names->lk_gen == 0) { /* 2^32 tops: the stamps start again */
      if (names->lk) memset(names->lk, 0, names->lk_cap * sizeof *names->lk);
      names->lk_gen = 1;
    }
    t->gen = names->lk_gen;
  }
  t->cut = cut;
  t->no_marks = marks != 1;
  t->keep_fk = marks == 2;
  t->sums_out = marks == 3;
  t->fraction = fraction;
  rc = pcol_q_value_grain(f, sel, v, &t->grain, err);
  p->grain = t->grain;
  if (!rc) rc = top_run(t, sel, v, out, err);
  if (dropped) *dropped = t->dropped;
  ctx_free_temps(t);
  p->is = t->is; /* moved: the "(inline)" marks and peek read it */
  memset(&t->is, 0, sizeof t->is);
  p->ctx = t;
  out->priv_ = p;
  if (rc) pcol_top_free(out);
  return rc;
}

int pcol_q_top_unnamed(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                       pcol_top *out, pcol_error *err) {
  return top_make(f, sel, v, by, 0, 0, 1, NULL, 0, out, NULL, err);
}

int pcol_q_top_unnamed_obj(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                           pcol_by by, pcol_top *out, pcol_error *err) {
  return top_make(f, sel, v, by, 0, 0, 1, NULL, 1, out, NULL, err);
}

int pcol_q_top_unmarked(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                        pcol_by by, pcol_q_keytab *names, pcol_top *out, pcol_error *err) {
  return top_make(f, sel, v, by, 0, 0, 3, names, 0, out, NULL, err);
}

int pcol_q_top_sums(const pcol_top *t, const pcol_sum **flat, const pcol_sum **cum) {
  const pcol_q_top_priv *p = t->priv_;
  *flat = p && p->ctx ? p->ctx->kflat : NULL;
  *cum = p && p->ctx ? p->ctx->kcum : NULL;
  return *flat && *cum;
}

int pcol_q_top_made_by(const pcol_top *t, pcol_by *by, int *objnames) {
  const pcol_q_top_priv *p = t ? t->priv_ : NULL;
  if (!p || !p->ctx || p->ctx->ext) return 0;
  *by = p->ctx->by;
  *objnames = p->ctx->objnames | (p->ctx->frames_asked ? PCOL_Q_TOP_FRAMES : 0);
  return 1;
}

int pcol_q_top_name(const pcol_top *t, uint32_t k, pcol_str *out, pcol_error *err) {
  const pcol_q_top_priv *p = t->priv_;
  *out = (pcol_str){NULL, 0};
  if (!p) return PCOL_OK;
  if (!p->ctx) { /* pcol_top_by_label: the names are the keys */
    if (k && k <= p->keys.n) *out = p->keys.s[k];
    return PCOL_OK;
  }
  return ctx_name(p->ctx, k, out, err);
}

/* The hidden part of a keytab name (pcol_q_key_intern_shown): its bytes
 * past the shown ones, the NUL that starts them included; {NULL, 0} when
 * it is shown whole. */
static pcol_str key_hidden(const pcol_q_keytab *kt, uint32_t id) {
  if (!id || id > kt->n || !kt->shown || id >= kt->shown_cap || !kt->shown[id]) return (pcol_str){NULL, 0};
  pcol_str s = kt->s[id];
  size_t n = kt->shown[id] - 1;
  return n < s.len ? (pcol_str){s.ptr + n, s.len - n} : (pcol_str){NULL, 0};
}

int pcol_q_top_hidden(const pcol_top *t, uint32_t k, pcol_str *out) {
  const pcol_q_top_priv *p = t ? t->priv_ : NULL;
  const topctx *c = p ? p->ctx : NULL;
  *out = (pcol_str){NULL, 0};
  if (!c || !k || k > ctx_nkeys(c)) return 0;
  if (!c->composed) {
    *out = key_hidden(c->kt, c->ext ? c->l2g[k] : k);
  } else {
    const line_id *l = &c->kid[k];
    if (l->mode == LINE_ID_NAME) *out = key_hidden(c->kt, l->pid);
    else if (l->xid && l->xid <= c->xids.n) { /* (the NUL of a hidden name's part never starts it) */
      *out = c->xids.s[l->xid];
      return 2;
    }
  }
  return out->len ? 1 : 0;
}

/* The context of a by-line or by-address top and key k's identity, when
 * k is one of its line keys (not a name of keys); else NULL. */
static const topctx *line_key_ctx(const pcol_top *t, uint32_t k, const line_id **l) {
  const pcol_q_top_priv *p = t ? t->priv_ : NULL;
  const topctx *c = p ? p->ctx : NULL;
  if (!c || !c->composed || c->by == PCOL_BY_SOURCE_LINE || !k || k > c->nkeys) return NULL;
  *l = &c->kid[k];
  return c;
}
/* A line key's prefix (fn_prefix: "NAME FILE") and its name's length. */
static pcol_str key_prefix(const topctx *c, const line_id *l, size_t *fn) {
  *fn = l->pid && l->pid < c->pres_fn_cap ? c->pres_fn[l->pid] : 0;
  return l->pid && l->pid <= c->pres.n ? c->pres.s[l->pid] : (pcol_str){NULL, 0};
}

bool pcol_top_name_function(const pcol_top *t, uint32_t k, size_t *off, size_t *len) {
  *off = *len = 0;
  const pcol_q_top_priv *p = t ? t->priv_ : NULL;
  const topctx *fc = p ? p->ctx : NULL;
  if (fc && !fc->composed && fc->by == PCOL_BY_FUNCTION && k && k <= ctx_nkeys(fc)) {
    /* a frame named after its mapping is a name with a hidden part
     * (mapping_key), in every source but Rprof, which has no mappings */
    uint32_t id = fc->ext ? fc->l2g[k] : k;
    const pcol_q_keytab *kt = fc->kt;
    if (kt->shown && id < kt->shown_cap && kt->shown[id]) return false;
    *len = pcol_q_key_name(kt, id).len;
    return true;
  }
  const line_id *l;
  const topctx *c = line_key_ctx(t, k, &l);
  if (!c || l->mode == LINE_ID_NAME || l->mode == 2) return false;
  size_t fn;
  pcol_str pre = key_prefix(c, l, &fn);
  /* line_name: "%016x" (by address, an address), a space when a prefix
   * follows, the prefix "NAME FILE", ":LINE" */
  *off = c->by == PCOL_BY_ADDRESS && l->addr ? 16 + (pre.len ? 1 : 0) : 0;
  *len = fn;
  return true;
}

pcol_status pcol_top_key_parts(const pcol_top *t, uint32_t k, pcol_top_parts *out,
                               pcol_error *err) {
  memset(out, 0, sizeof *out);
  const line_id *l;
  const topctx *c = line_key_ctx(t, k, &l);
  if (!c) return pcol_error_set(err, PCOL_EINVAL, "key %u has no parts: by line or address only", k);
  const pcol_q_fctx *fc = &c->fc;
  uint32_t loc = k < c->key_loc_cap ? c->key_loc[k] : 0;
  uint64_t li = k < c->key_li_cap ? c->key_li[k] : UINT64_MAX;
  if (l->mode == LINE_ID_NAME) {
    /* a location named after its mapping has no function (pprof's node
     * of Address and Objfile); a name of no location ("<no location>") is
     * its function's */
    if (!loc && l->pid && l->pid <= c->kt->n) out->function = pcol_q_key_name(c->kt, l->pid);
    if (loc && c->by == PCOL_BY_ADDRESS) out->address = pcol_view_u64(&fc->loc_addr, loc - 1);
  } else {
    size_t fn;
    pcol_str pre = key_prefix(c, l, &fn);
    out->address = l->addr;
    out->function = (pcol_str){pre.ptr, fn};
    size_t a = fn ? fn + 1 : 0; /* "NAME FILE", or "FILE" without a name */
    if (l->mode == 1 && pre.len >= a) out->file = (pcol_str){pre.ptr + a, pre.len - a};
    out->line = l->line == PCOL_NA_I64 ? 0 : l->line;
  }
  uint32_t m = pcol_frames_mapping(&fc->fr, loc);
  if (m) PCOL_RETURN_NOT_OK(pcol_string(fc->f, pcol_view_u32(&fc->map_file, m - 1), &out->objfile, err));
  uint32_t fn = li < fc->nlines ? pcol_frames_fn(&fc->fr, li) : 0;
  if (fn) {
    pcol_view sl;
    PCOL_RETURN_NOT_OK(pcol_column(fc->f, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE, &sl, err));
    int64_t v = fn <= sl.count ? pcol_view_i64(&sl, fn - 1) : 0;
    out->start_line = v == PCOL_NA_I64 ? 0 : v;
  }
  if (!out->function.ptr) out->function = (pcol_str){"", 0};
  if (!out->file.ptr) out->file = (pcol_str){"", 0};
  if (!out->objfile.ptr) out->objfile = (pcol_str){"", 0};
  return PCOL_OK;
}

const pcol_q_keytab *pcol_q_top_keytab(const pcol_top *t) {
  const pcol_q_top_priv *p = t->priv_;
  return p && p->ctx && !p->ctx->composed ? p->ctx->kt : NULL;
}

const uint32_t *pcol_q_top_key_ids(const pcol_top *t) {
  const pcol_q_top_priv *p = t->priv_;
  return p && p->ctx && p->ctx->ext ? p->ctx->l2g : NULL;
}

uint64_t pcol_q_top_key_line(const pcol_top *t, uint32_t k) {
  const pcol_q_top_priv *p = t->priv_;
  const topctx *c = p ? p->ctx : NULL;
  return c && k < c->key_li_cap ? c->key_li[k] : UINT64_MAX;
}

int pcol_by_parse(const char *name, pcol_by *out) {
  static const struct {
    const char *name;
    pcol_by by;
  } bys[] = {{"function", PCOL_BY_FUNCTION}, {"line", PCOL_BY_LINE}, {"file", PCOL_BY_FILE},
             {"address", PCOL_BY_ADDRESS}, {"filefunction", PCOL_BY_FILE_FUNCTION}};
  for (size_t i = 0; name && i < sizeof bys / sizeof bys[0]; i++)
    if (!strcmp(name, bys[i].name)) {
      *out = bys[i].by;
      return PCOL_OK;
    }
  return PCOL_EINVAL;
}

static int name_rows(pcol_top *t, pcol_error *err) {
  for (size_t i = 0; i < t->nrows; i++)
    PCOL_RETURN_NOT_OK(pcol_q_top_name(t, t->rows[i].key, &t->rows[i].name, err));
  return PCOL_OK;
}

int pcol_q_top_keys_only(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                         pcol_by by, int objnames, pcol_top *out, pcol_error *err) {
  return top_make(f, sel, v, by, 0, 0, 0, NULL, objnames, out, NULL, err);
}

int pcol_q_top_compute_obj(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                           pcol_by by, int objnames, pcol_top *out, pcol_error *err) {
  int rc = top_make(f, sel, v, by, 0, 0, 1, NULL, objnames, out, NULL, err);
  if (!rc && (rc = name_rows(out, err))) pcol_top_free(out);
  if (!rc) pcol_top_sort(out, PCOL_SORT_FLAT);
  return rc;
}

int pcol_top_compute(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                     pcol_top *out, pcol_error *err) {
  return pcol_q_top_compute_obj(f, sel, v, by, 0, out, err);
}

/* go's views (peek, the graph): every frame a key (PCOL_Q_TOP_FRAMES) */
int pcol_top_compute_frames(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                            pcol_top *out, pcol_error *err) {
  return pcol_q_top_compute_obj(f, sel, v, by, PCOL_Q_TOP_FRAMES, out, err);
}

/* pcol_top_compute's rows by `by` from the subtree sums of a result of the
 * same file and selection (sums mode makes them, walk mode's inl_make_sub
 * too), not from the samples: a node's own weight is its sum less its
 * children's, added to its flat key as top_sums' forward pass adds it;
 * cum is top_sums' cum_preorder over the same sums.  No marks. */
static int rows_from_sums(const pcol_q_inl_state *is, pcol_file *f, const pcol_select *sel,
                          pcol_by by, pcol_top *out, pcol_error *err) {
  pcol_q_top_priv *p = calloc(1, sizeof *p);
  topctx *t = NULL;
  pcol_filter flt;
  int rc = p ? ctx_new(f, sel, by, &t, err) : pcol_oom(err);
  if (rc) {
    free(p);
    return rc;
  }
  p->ctx = t;
  out->priv_ = p;
  out->total = is->total;
  if ((rc = pcol_filter_build(f, sel, &flt, err))) goto fail;
  t->flt = &flt; /* (--hide/--show: the lines build_loc_keys skips) */
  rc = build_loc_keys(t, err);
  uint32_t nokey = 0;
  if (!rc) rc = name_key(t, "<no location>", 13, 13, &nokey, err);
  t->flt = NULL;
  pcol_filter_free(&flt);
  if (rc) goto fail;
  size_t nk = (size_t)ctx_nkeys(t) + 1;
  uint64_t ns = is->nstacks;
  pcol_q_fctx c = t->fc; /* the trie as the sums' result read it (plain; --show-from's cut) */
  c.st_parent = is->st_parent, c.st_loc = is->st_loc, c.nstacks = ns;
  const uint32_t *par = c.st_parent.data, *loc = c.st_loc.data; /* (NULL: absent, all 0) */
  /* A node's flat key and the keys on its path, a location's first key
   * and all its keys, as a bit a key when there are at most 64 (by file,
   * most profiles): side by side, as the pass reads them at random (at
   * its parent, at its location).  The keys new at a node add its sum to
   * their cum in this forward pass; past 64 keys cum_preorder's pass in
   * preorder does, which reads three arrays at random a node. */
  typedef struct {
    uint64_t path;
    uint32_t fk;
  } nkeys;
  typedef struct {
    uint64_t bits;
    uint32_t first;
  } lkeys;
  int bits = nk <= 65;
  nkeys *nd = pcol_alloc_hot((ns + 1) * sizeof *nd, 0);
  lkeys *lk = pcol_alloc_hot((t->fc.nloc + 1) * sizeof *lk, 0);
  pcol_sum *flat = pcol_alloc_hot(nk * sizeof *flat, 1), *cum = pcol_alloc_hot(nk * sizeof *cum, 1);
  uint32_t *nkey = NULL, *nx = NULL, *ord = NULL, *hend = NULL;
  if (nk > 0x7fffffffu) {
    rc = pcol_error_set(err, PCOL_ETOOBIG, "more than 2^31 names or locations");
    goto done;
  }
  if (!nd || !lk || !flat || !cum) {
    rc = pcol_oom(err);
    goto done;
  }
  for (uint64_t l = 0; l <= t->fc.nloc; l++) {
    const uint32_t *k = t->loc_keys + t->loc_koff[l], *e = t->loc_keys + t->loc_koff[l + 1];
    lk[l] = (lkeys){0, k < e ? *k : 0};
    for (; bits && k < e; k++) lk[l].bits |= (uint64_t)1 << (*k - 1);
  }
  nd[0] = (nkeys){0, 0};
  enum { AHEAD = 16 }; /* nodes: the parent's and the location's keys fetched ahead (both at random) */
  for (uint64_t n = 1; n <= ns; n++) {
    uint32_t q = trie_at(par, &c.st_parent, n - 1), l = trie_at(loc, &c.st_loc, n - 1);
    if (par && loc && n + AHEAD <= ns) {
      uint32_t qa = par[n + AHEAD - 1], la = loc[n + AHEAD - 1];
      if (qa < n) __builtin_prefetch(&nd[qa]); /* (a parent at or past n: made by then, or corrupt) */
      if (la <= t->fc.nloc) __builtin_prefetch(&lk[la]);
    }
    if (q >= n || l > t->fc.nloc) { /* (as top_sums: the sums' result checked it) */
      rc = pcol_error_set(err, PCOL_ECORRUPT, "stack node %llu has a bad parent or location",
                          (unsigned long long)n);
      goto done;
    }
    lkeys x = lk[l];
    nkeys pq = nd[q];
    uint32_t fn = x.first ? x.first : pq.fk;
    nd[n] = (nkeys){pq.path | x.bits, fn};
    pcol_sum w = pcol_q_nsum_at(&is->sub, n);
    if (!q || fn != pq.fk) { /* (the same key as its parent's: + w - w, nothing; a node
                              * mostly has its parent's flat key) */
      flat[fn ? fn : nokey] += w;
      if (!fn) cum[nokey] += w;
      if (q) { /* less what the children hold */
        flat[pq.fk ? pq.fk : nokey] -= w;
        if (!pq.fk) cum[nokey] -= w;
      }
    }
    for (uint64_t fresh = x.bits & ~pq.path; fresh; fresh &= fresh - 1)
      cum[__builtin_ctzll(fresh) + 1] += w;
  }
  if (!bits) {
    nkey = pcol_alloc_hot((t->fc.nloc + 1) * sizeof *nkey, 0);
    nx = pcol_alloc_hot((ns + 1) * sizeof *nx, 1), ord = pcol_alloc_hot((ns + 1) * sizeof *ord, 0);
    hend = pcol_alloc_hot(nk * sizeof *hend, 1);
    if (!nkey || !nx || !ord || !hend) {
      rc = pcol_oom(err);
      goto done;
    }
    loc_key_words(t, nkey);
    for (uint64_t n = ns; n >= 1; n--) { /* descendants, for cum_preorder's preorder */
      uint32_t q = trie_at(par, &c.st_parent, n - 1);
      if (q) nx[q] += nx[n] + 1;
    }
    cum_preorder(t, &c, nkey, &is->sub, nx, ord, hend, cum);
  }
  size_t nr = 0;
  for (size_t k = 1; k < nk; k++) nr += flat[k] != 0 || cum[k] != 0;
  if (!(out->rows = calloc(nr ? nr : 1, sizeof *out->rows))) {
    rc = pcol_oom(err);
    goto done;
  }
  for (size_t k = 1; k < nk; k++)
    if (flat[k] != 0 || cum[k] != 0)
      out->rows[out->nrows++] = (pcol_top_row){.key = (uint32_t)k, .flat = flat[k], .cum = cum[k]};
done:
  free(nd);
  free(lk);
  free(nkey);
  free(nx);
  free(ord);
  free(hend);
  free(flat);
  free(cum);
  ctx_free_temps(t);
fail:
  if (rc) pcol_top_free(out);
  return rc;
}

int pcol_q_top_regroup(const pcol_top *base, pcol_file *f, const pcol_select *sel, pcol_by by,
                       pcol_top *out, pcol_error *err) {
  const pcol_q_top_priv *bp = base->priv_;
  int rc;
  memset(out, 0, sizeof *out);
  if (bp && bp->ctx && pcol_q_nsum_made(&bp->is.sub) && !bp->is.own_list &&
      (unsigned)by <= PCOL_BY_FILE_FUNCTION)
    rc = rows_from_sums(&bp->is, f, sel, by, out, err);
  else /* (no sums to read) */
    return pcol_top_compute(f, sel, &base->value, by, out, err);
  out->value = base->value;
  if (!rc && (rc = name_rows(out, err))) pcol_top_free(out);
  if (!rc) pcol_top_sort(out, PCOL_SORT_FLAT);
  return rc;
}

/* pcol_top_compute_cut, with the marks of every key (marks 1) or none (0;
 * 2: none, but what mark_every_key needs kept) */
static int top_cut(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                   double fraction, pcol_sort order, int marks, pcol_top *out, size_t *dropped,
                   pcol_sum *label_cutoff, pcol_error *err) {
  size_t d = 0;
  int rc = top_make(f, sel, v, by, 1, fraction, marks, NULL, 0, out, &d, err);
  if (rc) return rc;
  if (dropped) *dropped = d;
  if (label_cutoff) *label_cutoff = (pcol_sum)pcol_q_frac_cut(out->total, fraction, pcol_q_top_grain(out));
  if ((rc = name_rows(out, err))) {
    pcol_top_free(out);
    return rc;
  }
  pcol_top_sort(out, order);
  return PCOL_OK;
}
int pcol_top_compute_cut(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                         pcol_by by, double fraction, pcol_sort order, pcol_top *out,
                         size_t *dropped, pcol_sum *label_cutoff, pcol_error *err) {
  return top_cut(f, sel, v, by, fraction, order, 1, out, dropped, label_cutoff, err);
}

/* pprof's marks come from the graph of the rows it shows: those alone
 * when some were cut (d) or are not shown, else every key's (the keys of
 * no row too: pprof's graph keeps their calls) */
static int marks_of_shown(pcol_top *t, size_t d, size_t shown, pcol_error *err) {
  size_t all = t->nrows, n = shown < all ? shown : all;
  t->nrows = n;
  int rc = d || n < all ? pcol_top_mark_inline(t, err) : mark_every_key(t, err);
  t->nrows = all;
  return rc;
}

int pcol_top_drop_negative(pcol_top *t, double fraction, size_t shown, size_t *dropped,
                           pcol_sum *label_cutoff, pcol_error *err) {
  size_t k = 0;
  pcol_sum sum = 0;
  for (size_t i = 0; i < t->nrows; i++)
    if (!pcol_q_negative(t->rows[i].flat, t->rows[i].cum)) {
      sum += t->rows[i].flat;
      t->rows[k++] = t->rows[i];
    }
  t->nrows = k;
  size_t d = pcol_top_cutoff(t, fraction, label_cutoff);
  if (dropped) *dropped = d;
  pcol_q_top_priv *p = t->priv_;
  if (!p || (!pcol_q_nsum_made(&p->is.sub) && !p->is.own_list)) return PCOL_OK;
  p->is.cutoff = (pcol_sum)pcol_q_frac_cut(sum, 0.001, pcol_q_top_grain(t)); /* pprof's edge fraction */
  return marks_of_shown(t, d, shown, err);
}

int pcol_top_compute_shown(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                           pcol_by by, double fraction, pcol_sort order, size_t shown,
                           pcol_top *out, size_t *dropped, pcol_sum *label_cutoff,
                           pcol_error *err) {
  size_t d = 0;
  int rc = top_cut(f, sel, v, by, fraction, order, 2, out, &d, label_cutoff, err);
  if (rc) return rc;
  if (dropped) *dropped = d;
  rc = marks_of_shown(out, d, shown, err);
  pcol_q_top_priv *p = out->priv_;
  if (p) { /* sums mode's flat keys and preorder, kept for the marks */
    free(p->is.fk);
    free(p->is.pre_end);
    free(p->is.pre_ord);
    p->is.fk = p->is.pre_end = p->is.pre_ord = NULL;
  }
  if (rc) pcol_top_free(out);
  return rc;
}

void pcol_top_free(pcol_top *t) {
  if (!t) return;
  free(t->rows);
  if (t->priv_) {
    pcol_q_top_priv *p = t->priv_;
    pcol_q_keytab_free(&p->keys);
    pcol_q_inl_free(&p->is);
    ctx_free(p->ctx);
    free(p->comments);
    free(p);
  }
  memset(t, 0, sizeof *t);
}

/* build_loc_keys' keys per line row, before the per-location merge, and
 * its unsymbolized fallback per location (pcol_q_topkeys.line_key). */
static int line_keys(topctx *t, pcol_q_topkeys *out, pcol_error *err) {
  pcol_q_fctx *c = &t->fc;
  out->line_key = calloc(c->nlines ? c->nlines : 1, sizeof *out->line_key);
  out->loc_ukey = calloc(c->nloc + 1, sizeof *out->loc_ukey);
  if (!out->line_key || !out->loc_ukey) return pcol_oom(err);
  int by_fn = t->by == PCOL_BY_FUNCTION,
      by_rule = t->by == PCOL_BY_LINE || t->by == PCOL_BY_ADDRESS || t->by == PCOL_BY_FILE ||
                t->by == PCOL_BY_FILE_FUNCTION; /* (and the location's rule, below) */
  for (uint64_t loc = 1; loc <= c->nloc; loc++) {
    uint64_t a, e;
    int nofn = 0;
    pcol_frames_lines(&c->fr, (uint32_t)loc, &a, &e);
    cur_location(t, (uint32_t)loc);
    for (uint64_t li = a; li < e; li++) {
      uint32_t key;
      if (pcol_view_u32(&t->fc.ln_fn, li) == 0) nofn = 1;
      PCOL_RETURN_NOT_OK(line_key(t, li, &key, err));
      if (!key && keyless_frame(t, pcol_view_u32(&t->fc.ln_fn, li))) {
        PCOL_RETURN_NOT_OK(mapping_key(t, (uint32_t)loc, pcol_view_u32(&t->fc.ln_fn, li), &key, err));
        if (t->composed) PCOL_RETURN_NOT_OK(note_key(t, key, UINT64_MAX, (uint32_t)loc, err));
      }
      out->line_key[li] = key;
    }
    if (a < e && nofn && (by_fn || (by_rule && loc_frames(t)))) PCOL_RETURN_NOT_OK(mapping_key(t, (uint32_t)loc, 0, &out->loc_ukey[loc], err));
  }
  return PCOL_OK;
}

/* For the report page (report.c), which recomputes top in the browser: the
 * distinct keys of each location exactly as pcol_top_compute finds them
 * (the CSR arrays of build_loc_keys, and the key table), so that the page
 * and `pcol top` cannot disagree on what a frame counts under. */
int pcol_q_top_keys(pcol_file *f, const pcol_select *sel, pcol_by by, int frames,
                    pcol_q_topkeys *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  topctx *t;
  int rc = ctx_new(f, sel, by, &t, err);
  if (rc) return rc;
  if (frames) t->lineless_frames = t->frames_asked = 1;
  rc = build_loc_keys(t, err);
  if (!rc) rc = name_key(t, "<no location>", 13, 13, &out->nokey, err);
  if (!rc) rc = line_keys(t, out, err); /* may add keys: before the names */
  if (!rc && !(out->name = calloc((size_t)ctx_nkeys(t) + 1, sizeof *out->name))) rc = pcol_oom(err);
  for (uint32_t k = 1; !rc && k <= ctx_nkeys(t); k++) rc = ctx_name(t, k, &out->name[k], err);
  out->n = ctx_nkeys(t);
  out->nloc = t->fc.nloc;
  out->loc_koff = t->loc_koff; /* the page's: the others are top_run's */
  out->loc_keys = t->loc_keys;
  out->loc_aoff = t->loc_aoff;
  out->loc_all = t->loc_all;
  t->loc_koff = t->loc_keys = t->loc_aoff = t->loc_all = NULL;
  ctx_free_temps(t);
  out->ctx_ = t;
  if (rc) pcol_q_topkeys_free(out);
  return rc;
}

void pcol_q_topkeys_free(pcol_q_topkeys *k) {
  free(k->line_key);
  free(k->loc_ukey);
  free(k->loc_koff);
  free(k->loc_keys);
  free(k->loc_aoff);
  free(k->loc_all);
  free(k->name);
  ctx_free(k->ctx_);
  memset(k, 0, sizeof *k);
}
