/* pprof_export.c — a pcol file (or a selection of it) as a pprof Profile.
 *
 * Everything is read through the public reader API.  Ids are row numbers
 * (row index + 1), the string table is rebuilt (entry 0 = ""), and every
 * selected pcol sample becomes one pprof sample: nothing is aggregated.
 * Value columns are THE union of the selected sources' value types
 * (pcol_vunion_make, lib/core/xvalues.c: the list -diff_base pairs too);
 * sources without value types and Rprof sources get the values it
 * derives: samples/count (the weight), cpu/nanoseconds (the time rule) and
 * an Rprof memory profile's rprof.alloc/bytes.  doc/mappings.md §2.2
 * lists the meta keys read back here.
 *
 * The message is written as a stream (issue 32): the tables (functions,
 * mappings, locations, labels; their size is the file's tables', not its
 * samples') and the profile fields are built first, then the sample types
 * are packed, then each selected sample is built in reused buffers and
 * packed on its own, then the rest of the message.  protobuf-c packs a
 * message field by field in field-number order (sample_type 1, sample 2,
 * mapping 3, ...), each repeated message as tag, length, bytes, so the
 * bytes are the same as packing the whole Profile at once, which is how
 * this exporter worked before; they go straight into zlib's deflate (or
 * the FILE).  Memory no longer grows with the number of samples.
 */
#include "pcol.h"
#include "keys.h"     /* OTLP_META_TIME_UNIX_NANO, PPROF_META_COMMENT, ... */
#include "bytes.h"    /* pcol_str_i64 */
#include "buf.h"      /* PCOL_GROW, pcol_buf, pcol_buf_free, ... */
#include "hash.h"     /* pcol_hash_bytes, pcol_hset, pcol_hset_find, ... */
#include "filter.h"   /* pcol_label_keys, pcol_label_key_unit */
#include "period.h"   /* pcol_period */
#include "lasts.h"    /* pcol_source_period_or_interval */
#include "reader.h"   /* pcol_source_rows, pcol_stack_depths */
#include "select.h"   /* pcol_sample_cols */
#include "stream.h"   /* pcol_budget_close, pcol_budget, pcol_budget_open */
#include "count.h"    /* pcol_rtime, pcol_rtime_fills, pcol_rtime_free, ... */
#include "xvalues.h"  /* PCOL_XV_MAX, pcol_xtype, pcol_xvalue, ... */
#include "frames.h"   /* pcol_places_lines_note, pcol_frame_export_system_name */
#include "loss.h"     /* pcol_export_say */
#include "truncated.h" /* pcol_truncated_total, pcol_truncated_comment */
#include "wall.h"     /* pcol_wall_init, pcol_wall_part_covered */
#include "pb_wire.h"
#include "pprof.h"
#include "profile.pb-c.h"
#include <inttypes.h>
#include <math.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

typedef struct bytes_key {
  const void *p;
  size_t n;
} bytes_key;

/* per source: how its values map onto the union of value columns */
typedef struct src_info {
  int involved;
  int synth;           /* 1: values come from the weight (no value types) */
  int64_t interval_ns; /* synth: ns per sample, 0 = unknown (no cpu column) */
  /* THE union's (pcol_vunion, borrowed from ex.vu): */
  size_t npos;             /* stored: number of declared value types */
  const uint32_t *pos_vt;  /* declared value type ids, in order */
  const uint32_t *pos_col; /* column of each declared position */
  const int64_t *pos_div;  /* what its values are divided by, 1: as stored */
  const double *pos_fill, *xfill; /* then scaled into a kin column's unit (0: not; pcol_vunion) */
  size_t nx;               /* synth: its values (lib/core/xvalues.c) and columns */
  const uint32_t *xvt, *xcol;
  int count_fill;     /* stored, without samples/count: its count (the weight) goes to */
  uint32_t count_col; /* this samples/count column */
} src_info;

typedef struct ex {
  pcol_file *f;
  pcol_error *err;
  int rc;
  /* rebuilt string table */
  ProtobufCBinaryData *strs;
  size_t nstr, capstr;
  uint32_t *cache; /* pcol string id -> pprof index; UINT32_MAX = not yet */
  pcol_hset by_content;
  /* value columns: (type, unit) pprof string indices */
  struct vcol {
    int64_t type, unit;
  } *cols;
  size_t ncols;
  pcol_vunion vu; /* THE union of the value columns (lib/core/xvalues.c) */
  src_info *src;
  uint64_t nsrc;
  const pcol_select *sel; /* the selection (NULL: every source, whole): the header's sources */
  pcol_rtime rt; /* the time rule: an Rprof sample's cpu/nanoseconds */
  pcol_xvalues xv; /* which values a synth source writes (count, time, rprof.alloc) */
  uint32_t *cvt;   /* THE count rule (pcol_count_types): a subtracted base's count negated */
  double ratio;    /* pcol_export_options.ratio: -proto -divide_by */
  uint64_t lost, lost_samples; /* labels go tool pprof reads as none (parts.lost) in the
                                * written samples, and how many samples have one */
  char trunc_comment[128]; /* the comment of stacks the recorder truncated (str_bytes keeps a pointer) */
} ex;

static int oom(ex *x) { return x->rc = pcol_error_set(x->err, PCOL_ENOMEM, "pprof export: out of memory"); }

/* --------------------------------------------------------- string table */

static int str_eq(const void *ctx, uint32_t id, const void *key) {
  const ex *x = ctx;
  const bytes_key *k = key;
  const ProtobufCBinaryData *d = &x->strs[id];
  return d->len == k->n && (k->n == 0 || memcmp(d->data, k->p, k->n) == 0);
}

/* Index of a byte string in the rebuilt table ("" is index 0).  The bytes
 * must outlive the export (they live in the pcol file or are literals). */
static int64_t str_bytes(ex *x, const void *p, size_t n) {
  if (n == 0 || x->rc) return 0;
  bytes_key k = {p, n};
  uint64_t h = pcol_hash_bytes(p, n, 7);
  uint32_t found = pcol_hset_find(&x->by_content, h, str_eq, x, &k);
  if (found) return found;
  if (x->nstr >= UINT32_MAX - 1) {
    x->rc = pcol_error_set(x->err, PCOL_ETOOBIG, "pprof export: too many strings");
    return 0;
  }
  if (PCOL_GROW(x->strs, x->nstr, x->capstr)) return oom(x), 0;
  uint32_t id = (uint32_t)x->nstr++;
  x->strs[id].data = (uint8_t *)(uintptr_t)p;
  x->strs[id].len = n;
  if (pcol_hset_insert(&x->by_content, h, id)) return oom(x), 0;
  return id;
}
static int64_t str_c(ex *x, const char *s) { return str_bytes(x, s, strlen(s)); }
/* The index of a byte string already in the table, else 0 ("" too) */
static int64_t str_find(ex *x, const void *p, size_t n) {
  if (n == 0) return 0;
  bytes_key k = {p, n};
  return pcol_hset_find(&x->by_content, pcol_hash_bytes(p, n, 7), str_eq, x, &k);
}

/* Index of a pcol string id (0 = NA -> 0). */
static int64_t str_id(ex *x, uint32_t sid) {
  if (sid == 0 || x->rc) return 0;
  if (sid >= pcol_string_count(x->f)) {
    x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "string id %u is out of range", sid);
    return 0;
  }
  if (x->cache[sid] != UINT32_MAX) return x->cache[sid];
  pcol_str s;
  if ((x->rc = pcol_string(x->f, sid, &s, x->err))) return 0;
  int64_t idx = str_bytes(x, s.ptr, s.len);
  x->cache[sid] = (uint32_t)idx;
  return idx;
}

/* ------------------------------------------------------- value columns */

/* The value columns: THE union of the involved sources' values
 * (pcol_vunion_make, lib/core/xvalues.c), with each column's strings in
 * the rebuilt table, added source by source as the union meets them (the
 * table's order is the file's bytes) */
static int plan_columns(ex *x) {
  pcol_file *f = x->f;
  pcol_view vtt, vtu;
  if ((x->rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vtt, x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &vtu, x->err)) ||
      (x->rc = pcol_vunion_make(&x->xv, x->sel, 1, &x->vu, x->err)) ||
      (x->rc = pcol_vunion_drop(&x->vu, &x->rt.drop, x->err)))
    return x->rc;
  for (uint64_t s = 1; s <= x->nsrc; s++) {
    src_info *si = &x->src[s - 1];
    const pcol_vsrc *vs = &x->vu.src[s - 1];
    if (!si->involved) continue;
    si->synth = vs->derived;
    si->count_fill = vs->count_fill;
    si->count_col = vs->count_col;
    if (si->synth) {
      int64_t us;
      pcol_error me = {0}; /* an interval that is not a number is no interval */
      int mr = pcol_meta_get_i64(f, (uint32_t)s, RPROF_META_INTERVAL_US, &us, &me);
      if (mr && mr != PCOL_ENOTFOUND && mr != PCOL_EFORMAT) {
        if (x->err) *x->err = me;
        return x->rc = mr;
      }
      si->interval_ns = 0;
      /* the period; the cpu values are the time rule's (count.c), which
       * needs the interval too */
      if (!mr && us > 0 && us <= INT64_MAX / 1000 && pcol_rtime_has(&x->rt, (uint32_t)s))
        si->interval_ns = us * 1000;
      si->nx = vs->n, si->xvt = vs->vt, si->xcol = vs->col, si->xfill = vs->fill;
      /* one string per statement: the table order must not depend on the
       * compiler's order of evaluating arguments */
      for (size_t k = 0; k < vs->n; k++) {
        const pcol_vcol *c = &x->vu.cols[vs->col[k]];
        str_bytes(x, c->type.ptr, c->type.len);
        str_bytes(x, c->unit.ptr, c->unit.len);
      }
      continue;
    }
    si->npos = vs->n, si->pos_vt = vs->vt, si->pos_col = vs->col, si->pos_div = vs->div, si->pos_fill = vs->fill;
    for (size_t k = 0; k < vs->n; k++) {
      str_id(x, pcol_view_u32(&vtt, vs->vt[k] - 1));
      str_id(x, pcol_view_u32(&vtu, vs->vt[k] - 1));
      if (vs->div[k] > 1) str_c(x, PCOL_UNIT_NANOSECONDS);
    }
  }
  if (x->vu.count_added) {
    str_c(x, "samples");
    str_c(x, "count");
  }
  if (x->rc) return x->rc;
  x->ncols = x->vu.ncols;
  x->cols = calloc(x->ncols + 1, sizeof *x->cols);
  if (!x->cols) return oom(x);
  for (size_t c = 0; c < x->ncols; c++) {
    x->cols[c].type = str_find(x, x->vu.cols[c].type.ptr, x->vu.cols[c].type.len);
    x->cols[c].unit = str_find(x, x->vu.cols[c].unit.ptr, x->vu.cols[c].unit.len);
  }
  return PCOL_OK;
}

/* A value in a kin unit scaled into its column's (THE unit rule: go tool
 * pprof scales each profile into the finest unit before it merges them);
 * one past int64 there (a hostile file's) sets *over */
static int64_t kin_fill(int64_t v, double ratio, int *over) {
  if (ratio == 0) return v;
  double p = (double)v * ratio;
  if (!(p > -9.2e18 && p < 9.2e18)) *over = 1;
  return pcol_unit_fill(v, ratio);
}

/* ------------------------------------------------------- output stream */

typedef struct out_buf {
  ProtobufCBuffer base;
  FILE *fp;
  int gzip;
  int failed; /* 0, the failed write's errno, or -1 (deflate failed) */
  z_stream zs;
  uint8_t zout[65536];
} out_buf;

static void out_append(ProtobufCBuffer *pb, size_t len, const uint8_t *data) {
  out_buf *o = (out_buf *)pb;
  if (o->failed) return;
  if (!o->gzip) {
    if (len && fwrite(data, 1, len, o->fp) != len) o->failed = errno ? errno : EIO;
    return;
  }
  while (len) {
    uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;
    o->zs.next_in = (Bytef *)(uintptr_t)data;
    o->zs.avail_in = chunk;
    while (o->zs.avail_in) {
      o->zs.next_out = o->zout;
      o->zs.avail_out = sizeof o->zout;
      if (deflate(&o->zs, Z_NO_FLUSH) == Z_STREAM_ERROR) {
        o->failed = -1;
        return;
      }
      size_t k = sizeof o->zout - o->zs.avail_out;
      if (k && fwrite(o->zout, 1, k, o->fp) != k) {
        o->failed = errno ? errno : EIO;
        return;
      }
    }
    data += chunk;
    len -= chunk;
  }
}

static int out_finish(out_buf *o) {
  if (o->gzip && !o->failed) {
    int zr;
    do {
      o->zs.next_out = o->zout;
      o->zs.avail_out = sizeof o->zout;
      zr = deflate(&o->zs, Z_FINISH);
      size_t k = sizeof o->zout - o->zs.avail_out;
      if (zr == Z_STREAM_ERROR) o->failed = -1;
      else if (k && fwrite(o->zout, 1, k, o->fp) != k) o->failed = errno ? errno : EIO;
    } while (zr == Z_OK && !o->failed);
  }
  if (!o->failed && fflush(o->fp)) o->failed = errno ? errno : EIO;
  return o->failed ? -1 : 0;
}

/* Why the output failed: the write's errno, as every writer says it. */
static const char *out_why(const out_buf *o) {
  return o->failed > 0 ? strerror(o->failed) : "gzip compression failed";
}

/* ----------------------------------------------------------- the export */

static int64_t na0(int64_t v) { return v == PCOL_NA_I64 ? 0 : v; }

/* the first meta value for key among the involved sources (file order) */
typedef struct meta_cols {
  pcol_view k, v, s;
  uint64_t n;
} meta_cols;

static int meta_first(ex *x, const meta_cols *m, const char *key, pcol_str *out) {
  size_t kl = strlen(key);
  for (uint64_t i = 0; i < m->n; i++) {
    uint32_t s = pcol_view_u32(&m->s, i);
    if (s == 0 || s > x->nsrc || !x->src[s - 1].involved) continue;
    pcol_str ks;
    if ((x->rc = pcol_string(x->f, pcol_view_u32(&m->k, i), &ks, x->err))) return x->rc;
    if (ks.ptr && ks.len == kl && memcmp(ks.ptr, key, kl) == 0) {
      if ((x->rc = pcol_string(x->f, pcol_view_u32(&m->v, i), out, x->err))) return x->rc;
      if (!out->ptr) out->ptr = "";
      return PCOL_OK;
    }
  }
  return PCOL_ENOTFOUND;
}

/* all the arrays the Profile message points into but the samples' */
typedef struct parts {
  Perftools__Profiles__ValueType *vts, **vtp, period_type;
  Perftools__Profiles__Function *fns, **fnp;
  Perftools__Profiles__Mapping *maps, **mapp;
  Perftools__Profiles__Location *locs, **locp;
  Perftools__Profiles__Line *lines, **linep;
  Perftools__Profiles__Label *labels, **labelp;
  uint8_t *lost; /* per label row: 1 when go tool pprof reads no such label (NULL: none is) */
  int64_t *comments;
  uint64_t main_id; /* main_first: the mapping that became id 1 (1: none moved) */
} parts;

static void parts_free(parts *p) {
  free(p->vts);
  free(p->vtp);
  free(p->fns);
  free(p->fnp);
  free(p->maps);
  free(p->mapp);
  free(p->locs);
  free(p->locp);
  free(p->lines);
  free(p->linep);
  free(p->labels);
  free(p->labelp);
  free(p->lost);
  free(p->comments);
}

/* pprof's first mapping is the main binary (`go tool pprof` prints it as
 * `File:`, and looks for the program there).  A pprof or OTLP producer chose
 * its order, kept as it is; the other importers (perf script's dsos, a
 * Firefox profile's libs, ...) keep theirs in first-seen order, where the
 * loader or libc often comes first.  For a file with no pprof source the
 * export moves the main binary first by go's own guess for profiles that
 * lack one (profile.massageMappings, legacy profiles): the first mapping whose
 * name, "(deleted)" taken out and trimmed, is not empty, not a shared
 * library (`.so` at the end or followed by '.' or '_' and a digit) and does
 * not start with '['.  It swaps ids with mapping 1, as go does. */
static int lib_name(const char *s, size_t n) {
  for (size_t i = 0; i + 3 <= n; i++)
    if (s[i] == '.' && s[i + 1] == 's' && s[i + 2] == 'o' &&
        (i + 3 == n || ((s[i + 3] == '.' || s[i + 3] == '_') && i + 4 < n && s[i + 4] >= '0' && s[i + 4] <= '9')))
      return 1;
  return 0;
}

static int main_first(ex *x, parts *P, uint64_t n) {
  pcol_view st;
  P->main_id = 1;
  uint64_t ns = pcol_rows(x->f, PCOL_T_SOURCES);
  if (n < 2 || (x->rc = pcol_column(x->f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &st, x->err))) return x->rc;
  for (uint64_t s = 0; s < ns; s++) {
    pcol_str t;
    if ((x->rc = pcol_string(x->f, pcol_view_u32(&st, s), &t, x->err))) return x->rc;
    if (pcol_str_is(t, PCOL_SRC_PPROF) || pcol_str_is(t, PCOL_SRC_OTLP)) return PCOL_OK;
  }
  for (uint64_t r = 0; r < n; r++) {
    const ProtobufCBinaryData *b = &x->strs[P->maps[r].filename];
    char *name = malloc(b->len + 1);
    if (!name) return oom(x);
    size_t k = 0, a = 0;
    for (size_t i = 0; i < b->len; i++) { /* "(deleted)" left out */
      if (b->len - i >= 9 && memcmp(b->data + i, "(deleted)", 9) == 0) { i += 8; continue; }
      name[k++] = (char)b->data[i];
    }
    while (a < k && (name[a] == ' ' || (name[a] >= '\t' && name[a] <= '\r'))) a++;
    while (k > a && (name[k - 1] == ' ' || (name[k - 1] >= '\t' && name[k - 1] <= '\r'))) k--;
    int skip = k == a || name[a] == '[' || lib_name(name + a, k - a);
    free(name);
    if (skip) continue;
    if (r) {
      Perftools__Profiles__Mapping *m = P->mapp[0];
      P->mapp[0] = P->mapp[r], P->mapp[r] = m;
      P->mapp[0]->id = 1, P->mapp[r]->id = r + 1;
      P->main_id = r + 1;
    }
    break;
  }
  return PCOL_OK;
}

#define COLS(T, ...)                                                            \
  do {                                                                          \
    int c_[] = {__VA_ARGS__};                                                   \
    for (size_t i_ = 0; i_ < sizeof c_ / sizeof c_[0]; i_++)                    \
      if ((x->rc = pcol_column(f, T, c_[i_], &v[c_[i_]], x->err))) return x->rc; \
  } while (0)

static int add_tables(ex *x, parts *P, Perftools__Profiles__Profile *pr) {
  pcol_file *f = x->f;
  pcol_view v[16];
  /* functions: id = row + 1 */
  uint64_t n = pcol_rows(f, PCOL_T_FUNCTIONS);
  COLS(PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, PCOL_C_FN_SYSTEM_NAME, PCOL_C_FN_FILENAME,
       PCOL_C_FN_START_LINE);
  P->fns = calloc(n + 1, sizeof *P->fns);
  P->fnp = calloc(n + 1, sizeof *P->fnp);
  if (!P->fns || !P->fnp) return oom(x);
  for (uint64_t r = 0; r < n; r++) {
    Perftools__Profiles__Function *fn = &P->fns[r];
    perftools__profiles__function__init(fn);
    fn->id = r + 1;
    fn->name = str_id(x, pcol_view_u32(&v[PCOL_C_FN_NAME], r));
    fn->system_name = str_id(x, pcol_frame_export_system_name(f, pcol_view_u32(&v[PCOL_C_FN_NAME], r),
                                                              pcol_view_u32(&v[PCOL_C_FN_SYSTEM_NAME], r)));
    fn->filename = str_id(x, pcol_view_u32(&v[PCOL_C_FN_FILENAME], r));
    fn->start_line = na0(pcol_view_i64(&v[PCOL_C_FN_START_LINE], r));
    P->fnp[r] = fn;
  }
  pr->n_function = n;
  pr->function = P->fnp;

  n = pcol_rows(f, PCOL_T_MAPPINGS);
  COLS(PCOL_T_MAPPINGS, PCOL_C_MAP_START, PCOL_C_MAP_LIMIT, PCOL_C_MAP_OFFSET,
       PCOL_C_MAP_FILENAME, PCOL_C_MAP_BUILD_ID, PCOL_C_MAP_FLAGS);
  P->maps = calloc(n + 1, sizeof *P->maps);
  P->mapp = calloc(n + 1, sizeof *P->mapp);
  if (!P->maps || !P->mapp) return oom(x);
  for (uint64_t r = 0; r < n; r++) {
    Perftools__Profiles__Mapping *m = &P->maps[r];
    perftools__profiles__mapping__init(m);
    m->id = r + 1;
    m->memory_start = pcol_view_u64(&v[PCOL_C_MAP_START], r);
    m->memory_limit = pcol_view_u64(&v[PCOL_C_MAP_LIMIT], r);
    m->file_offset = pcol_view_u64(&v[PCOL_C_MAP_OFFSET], r);
    m->filename = str_id(x, pcol_view_u32(&v[PCOL_C_MAP_FILENAME], r));
    m->build_id = str_id(x, pcol_view_u32(&v[PCOL_C_MAP_BUILD_ID], r));
    uint8_t fl = pcol_view_u8(&v[PCOL_C_MAP_FLAGS], r);
    m->has_functions = !!(fl & PCOL_MAP_HAS_FUNCTIONS);
    m->has_filenames = !!(fl & PCOL_MAP_HAS_FILENAMES);
    m->has_line_numbers = !!(fl & PCOL_MAP_HAS_LINE_NUMBERS);
    m->has_inline_frames = !!(fl & PCOL_MAP_HAS_INLINE_FRAMES);
    P->mapp[r] = m;
  }
  pr->n_mapping = n;
  pr->mapping = P->mapp;
  if ((x->rc = main_first(x, P, n))) return x->rc;

  /* lines, then locations pointing at slices of the line pointer array */
  uint64_t nl = pcol_rows(f, PCOL_T_LINES);
  pcol_view lv[4];
  if ((x->rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &lv[1], x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &lv[2], x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_COLUMN, &lv[3], x->err)))
    return x->rc;
  P->lines = calloc(nl + 1, sizeof *P->lines);
  P->linep = calloc(nl + 1, sizeof *P->linep);
  if (!P->lines || !P->linep) return oom(x);
  for (uint64_t r = 0; r < nl; r++) {
    Perftools__Profiles__Line *l = &P->lines[r];
    perftools__profiles__line__init(l);
    l->function_id = pcol_view_u32(&lv[1], r);
    l->line = na0(pcol_view_i64(&lv[2], r));
    l->column = na0(pcol_view_i64(&lv[3], r));
    P->linep[r] = l;
  }
  n = pcol_rows(f, PCOL_T_LOCATIONS);
  COLS(PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, PCOL_C_LOC_ADDRESS, PCOL_C_LOC_FLAGS,
       PCOL_C_LOC_LINE_OFFSETS);
  P->locs = calloc(n + 1, sizeof *P->locs);
  P->locp = calloc(n + 1, sizeof *P->locp);
  if (!P->locs || !P->locp) return oom(x);
  for (uint64_t r = 0; r < n; r++) {
    Perftools__Profiles__Location *l = &P->locs[r];
    perftools__profiles__location__init(l);
    l->id = r + 1;
    l->mapping_id = pcol_view_u32(&v[PCOL_C_LOC_MAPPING], r);
    if (l->mapping_id == 1 || l->mapping_id == P->main_id) l->mapping_id ^= 1 ^ P->main_id;
    l->address = pcol_view_u64(&v[PCOL_C_LOC_ADDRESS], r);
    l->is_folded = !!(pcol_view_u8(&v[PCOL_C_LOC_FLAGS], r) & PCOL_LOC_IS_FOLDED);
    uint64_t a = pcol_view_u64(&v[PCOL_C_LOC_LINE_OFFSETS], r);
    uint64_t e = pcol_view_u64(&v[PCOL_C_LOC_LINE_OFFSETS], r + 1);
    if (a > e || e > nl)
      return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "location %" PRIu64
                                    " has a bad line range", r + 1);
    l->n_line = e - a;
    l->line = P->linep + a;
    P->locp[r] = l;
  }
  pr->n_location = n;
  pr->location = P->locp;

  /* labels: one message per label row; a label set is a slice of them */
  n = pcol_rows(f, PCOL_T_LABELS);
  COLS(PCOL_T_LABELS, PCOL_C_LB_KEY, PCOL_C_LB_STR, PCOL_C_LB_NUM, PCOL_C_LB_UNIT);
  P->labels = calloc(n + 1, sizeof *P->labels);
  P->labelp = calloc(n + 1, sizeof *P->labelp);
  if (!P->labels || !P->labelp) return oom(x);
  pcol_label_keys keys;
  if ((x->rc = pcol_label_keys_load(f, &keys, x->err))) {
    pcol_label_keys_free(&keys);
    return x->rc;
  }
  for (uint64_t r = 0; r < n; r++) {
    Perftools__Profiles__Label *l = &P->labels[r];
    perftools__profiles__label__init(l);
    uint32_t key = pcol_view_u32(&v[PCOL_C_LB_KEY], r), str = pcol_view_u32(&v[PCOL_C_LB_STR], r);
    l->key = str_id(x, key);
    l->str = str_id(x, str);
    l->num = pcol_view_i64(&v[PCOL_C_LB_NUM], r);
    l->num_unit = str_id(x, pcol_view_u32(&v[PCOL_C_LB_UNIT], r));
    /* go tool pprof reads a label by its indices (profile/encode.go
     * postDecode): a string when str != 0, else a number when num != 0 ||
     * num_unit != 0, else none; and it writes a unit "" as index 0 when it
     * copies the profile (driver.go's generateReport: Profile.Copy
     * serializes and decodes it), so a unit must be a string that is not
     * "".  A number 0 without a unit (or with "")
     * is written with its key's unit as pprof's views name it
     * (pcol_label_key_unit: NumLabelUnits, which takes the first unit of
     * the key and else the key itself), which changes none of them: -tags,
     * -tagfocus and -traces read that unit for the key, and print 0 as "0"
     * in every unit (measurement.ScaledLabel); -raw shows "[0 UNIT]".  A
     * string "" (index 0) has no such way: P->lost marks it, and the
     * export's note says how many such labels it wrote. */
    if (!x->rc && !str && !l->num && !l->num_unit) {
      pcol_str u;
      if ((x->rc = pcol_label_key_unit(f, &keys, key, &u, x->err))) break;
      l->num_unit = str_bytes(x, u.ptr, u.len);
    }
    if (!x->rc && (str ? !l->str : !l->num && !l->num_unit)) {
      if (!P->lost && !(P->lost = calloc(n + 1, 1))) {
        oom(x);
        break;
      }
      P->lost[r] = 1;
    }
    P->labelp[r] = l;
  }
  pcol_label_keys_free(&keys);
  return x->rc;
}

/* ------------------------------------------------------- sample pass */

/* Each selected row becomes one Sample, packed at once. */
typedef struct sample_pass {
  ex *x;
  parts *P;
  out_buf *o;
  pcol_view v[16], lso, vty, vva;
  uint64_t nlab, nvals;
  uint8_t *used;      /* a flag per declared type of the row's source */
  pcol_buf ids;       /* the row's location ids (uint64) */
  int64_t *values;    /* its dense values, one per column */
  pcol_buf packed;    /* its packed Sample */
  /* -divide_by (x->ratio): pprof divides the samples of its merged
   * profile, so rows of one stack and label set are summed first (their
   * key in groups, the first row and the sums, ncols a group, in order) */
  pcol_u64map groups;
  uint64_t *first;
  uint64_t *sums; /* int64 sums, added as Go adds (wrapping) */
  size_t capg;
} sample_pass;

static int walk_fn(void *ctx, uint32_t depth, uint32_t loc) {
  (void)depth;
  uint64_t id = loc;
  return pcol_buf_append(ctx, &id, sizeof id) ? PCOL_ENOMEM : 0;
}

static int put_value(sample_pass *sp, uint32_t col, int64_t v) {
  if (col >= sp->x->ncols) return PCOL_OK; /* plan_columns made every column */
  sp->values[col] = v;
  return PCOL_OK;
}

/* the row's values, one per column, into sp->values (undivided) */
static int sample_values(sample_pass *sp, uint64_t row, int64_t num, int64_t den) {
  ex *x = sp->x;
  const pcol_view *v = sp->v;
  uint32_t src = pcol_view_u32(&v[PCOL_C_S_SOURCE], row);
  if (src == 0 || src > x->nsrc)
    return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "sample %" PRIu64 " has source %u",
                                  row + 1, src);
  const src_info *si = &x->src[src - 1];
  /* values: a column not given stays 0; a later value of a column wins */
  size_t nc = x->ncols;
  int over = 0; /* a value scaled into a kin column past int64 */
  memset(sp->values, 0, (nc ? nc : 1) * sizeof *sp->values);
  if (si->synth) {
    for (size_t k = 0; k < si->nx; k++) {
      int64_t xv;
      if ((x->rc = pcol_xvalue(&x->xv, x->cvt, row, si->xvt[k], &xv, x->err))) return x->rc;
      put_value(sp, si->xcol[k], kin_fill(pcol_scale(xv, num, den), si->xfill[k], &over));
    }
  } else {
    uint64_t a = pcol_view_u64(&v[PCOL_C_S_VALUE_OFFSETS], row);
    uint64_t e = pcol_view_u64(&v[PCOL_C_S_VALUE_OFFSETS], row + 1);
    if (a > e || e > sp->nvals)
      return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "sample %" PRIu64 " has a bad value range",
                                    row + 1);
    memset(sp->used, 0, si->npos + 1);
    for (uint64_t j = a; j < e; j++) {
      uint32_t vt = pcol_view_u32(&sp->vty, j);
      size_t k = 0;
      while (k < si->npos && (si->pos_vt[k] != vt || sp->used[k])) k++;
      if (k == si->npos) continue; /* a value type the source does not declare */
      sp->used[k] = 1;
      put_value(sp, si->pos_col[k],
                kin_fill(pcol_scale(pcol_scale(pcol_view_i64(&sp->vva, j), num, den), 1, si->pos_div[k]), si->pos_fill[k], &over));
    }
    /* a collapsed line with an integer count has its decimal type too
     * (the decimal-count rule, lib/core/count.c) */
    pcol_sample_cols sc = {v[PCOL_C_S_WEIGHT], v[PCOL_C_S_VALUE_OFFSETS], sp->vty, sp->vva,
                           sp->nvals, 0};
    for (size_t k = 0; k < si->npos; k++) {
      int64_t fv;
      if (sp->used[k] || !pcol_rtime_fills(&x->rt, src, si->pos_vt[k]) ||
          !pcol_sample_value_rt(&sc, &x->rt, row, si->pos_vt[k], &fv))
        continue;
      put_value(sp, si->pos_col[k], kin_fill(pcol_scale(pcol_scale(fv, num, den), 1, si->pos_div[k]), si->pos_fill[k], &over));
    }
    if (si->count_fill) /* its count (count_column) */
      put_value(sp, si->count_col, pcol_scale(pcol_sample_count(&sc, row, x->cvt[src]), num, den));
  }
  if (over)
    return x->rc = pcol_error_set(x->err, PCOL_ETOOBIG, "sample %" PRIu64 " (source %u) has a value that, in "
                                  "the finest unit of its kin (go's one sample type of them), passes 2^63",
                                  row + 1, src);
  return 0;
}

/* the row's stack and labels with sp->values, packed into the output */
static int pack_sample(sample_pass *sp, uint64_t row) {
  ex *x = sp->x;
  pcol_file *f = x->f;
  const pcol_view *v = sp->v;
  Perftools__Profiles__Sample s;
  perftools__profiles__sample__init(&s);
  /* stack: leaf first, pcol location id == pprof location id */
  sp->ids.len = 0;
  int rc = pcol_stack_walk(f, pcol_view_u32(&v[PCOL_C_S_STACK], row), walk_fn, &sp->ids, x->err);
  if (rc == PCOL_ENOMEM) return oom(x);
  if (rc) return x->rc = rc;
  s.n_location_id = sp->ids.len / sizeof(uint64_t);
  s.location_id = s.n_location_id ? (uint64_t *)(void *)sp->ids.data : NULL;
  /* labels: a slice of the label pointer array */
  uint32_t ls = pcol_view_u32(&v[PCOL_C_S_LABELSET], row);
  if (ls) {
    uint64_t a = pcol_view_u64(&sp->lso, ls - 1), e = pcol_view_u64(&sp->lso, ls);
    if (a > e || e > sp->nlab)
      return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "label set %u has a bad range", ls);
    s.n_label = e - a;
    s.label = sp->P->labelp + a;
    uint64_t lost = 0;
    for (uint64_t i = a; sp->P->lost && i < e; i++) lost += sp->P->lost[i];
    x->lost += lost;
    x->lost_samples += lost != 0;
  }
  s.n_value = x->ncols;
  s.value = sp->values;
  /* field 2 of the Profile: tag, length, the Sample */
  size_t len = perftools__profiles__sample__get_packed_size(&s);
  uint8_t hdr[20];
  size_t hl = pcol_pb_put_head(hdr, 2, PCOL_PB_LEN, len);
  sp->packed.len = 0;
  if (pcol_buf_reserve(&sp->packed, len + 1)) return oom(x);
  perftools__profiles__sample__pack(&s, sp->packed.data);
  out_append(&sp->o->base, hl, hdr);
  out_append(&sp->o->base, len, sp->packed.data);
  if (sp->o->failed) return x->rc = PCOL_EIO; /* reported by the caller */
  return 0;
}

static int emit_sample(void *ctx, uint64_t row, int64_t num, int64_t den) {
  sample_pass *sp = ctx;
  /* the unit rule's drop (go's ScaleN of the inputs: a sample whose values
   * scaled into a finer kin are all 0 is gone, its other values too) */
  pcol_sample_cols sc = {sp->v[PCOL_C_S_WEIGHT], sp->v[PCOL_C_S_VALUE_OFFSETS], sp->vty, sp->vva, sp->nvals, 0};
  if (sp->x->rt.drop.src && pcol_unit_dropped(&sp->x->rt.drop, &sc, row, pcol_view_u32(&sp->v[PCOL_C_S_SOURCE], row)))
    return 0;
  int rc = sample_values(sp, row, num, den);
  return rc ? rc : pack_sample(sp, row);
}

/* -divide_by: the row's values added to those of its stack and label set */
static int merge_sample(void *ctx, uint64_t row, int64_t num, int64_t den) {
  sample_pass *sp = ctx;
  ex *x = sp->x;
  int rc = sample_values(sp, row, num, den);
  if (rc) return rc;
  uint64_t key = (uint64_t)pcol_view_u32(&sp->v[PCOL_C_S_STACK], row) << 32 |
                 pcol_view_u32(&sp->v[PCOL_C_S_LABELSET], row);
  uint32_t g;
  int added;
  if ((rc = pcol_u64map_get(&sp->groups, key, &g, &added)))
    return x->rc = rc == PCOL_ENOMEM ? oom(x) : pcol_error_set(x->err, rc, "pprof export: too many samples");
  size_t nc = x->ncols ? x->ncols : 1;
  if (added) {
    if (g >= sp->capg) {
      size_t cap = sp->capg ? 2 * sp->capg : 1024;
      if (cap > SIZE_MAX / sizeof(uint64_t) / nc) return oom(x);
      uint64_t *fi = realloc(sp->first, cap * sizeof *fi);
      if (!fi) return oom(x);
      sp->first = fi;
      uint64_t *su = realloc(sp->sums, cap * nc * sizeof *su);
      if (!su) return oom(x);
      sp->sums = su;
      sp->capg = cap;
    }
    sp->first[g] = row;
    memset(sp->sums + (size_t)g * nc, 0, nc * sizeof *sp->sums);
  }
  for (size_t c = 0; c < x->ncols; c++) sp->sums[(size_t)g * nc + c] += (uint64_t)sp->values[c];
  return 0;
}

/* -divide_by: each merged sample, its sums divided (printProto), in the
 * order of their first rows; one of only zeros is left out, as pprof's
 * merge leaves it out before it divides */
static int emit_merged(sample_pass *sp) {
  ex *x = sp->x;
  size_t nc = x->ncols ? x->ncols : 1;
  for (size_t g = 0; g < sp->groups.n; g++) {
    int any = 0;
    for (size_t c = 0; c < x->ncols; c++) {
      int64_t sum = (int64_t)sp->sums[g * nc + c];
      any |= sum != 0;
      sp->values[c] = pcol_unit_ratio(sum, x->ratio);
    }
    if (any && pack_sample(sp, sp->first[g])) return x->rc;
  }
  return 0;
}

/* The selected samples and the location ids their stacks write (each at
 * least one byte of the packed field, before gzip). */
typedef struct sel_count {
  uint64_t n, ids;
  const uint32_t *depth;
  pcol_view stk;
  uint64_t nstacks;
  pcol_view src;       /* (with `rows`) */
  uint8_t *rows;       /* per source 1..: it has selected samples; NULL: not asked */
  uint64_t nsrc;
} sel_count;

static int count_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)num, (void)den;
  sel_count *c = ctx;
  uint32_t s = pcol_view_u32(&c->stk, row);
  c->n++;
  if (c->rows) {
    uint32_t so = pcol_view_u32(&c->src, row);
    if (so && so <= c->nsrc) c->rows[so] = 1;
  }
  if (s && s <= c->nstacks && c->ids <= UINT64_MAX - c->depth[s]) c->ids += c->depth[s];
  return 0;
}

/* opt->lacking for each involved source with selected samples (rows) and
 * each value column it does not fill: its samples carry 0 there; not for
 * a part of a recording of which another such part fills it (THE rule,
 * pcol_wall_part_covered: review 21 F6, every JFR export warned about its
 * own parts).  hm[c * ns + s] is 1 where s fills c, else 0 (a part that
 * lacks c too covers nothing: rd16a F1, a JFR recording none of whose
 * parts has cpu merged with a Go profile was not warned of). */
static void say_lacking(const ex *x, uint64_t s, size_t c, const pcol_export_options *opt) {
  const ProtobufCBinaryData *t = &x->strs[x->cols[c].type], *u = &x->strs[x->cols[c].unit];
  opt->lacking(opt->lacking_ctx, (uint32_t)s, (pcol_str){(const char *)t->data, t->len},
               (pcol_str){(const char *)u->data, u->len});
}

static void tell_lacking(const ex *x, const uint8_t *rows, const pcol_export_options *opt) {
  size_t ns = (size_t)x->nsrc + 1, nc = x->ncols;
  uint8_t *has = calloc(nc + 1, 1), *hm = nc && ns <= ((size_t)1 << 26) / nc ? calloc(ns * nc, 1) : NULL;
  uint8_t *sel = calloc(ns, 1);
  pcol_wall w;
  int wok = hm && sel && pcol_wall_init(x->f, &w, NULL) == PCOL_OK && w.n == x->nsrc;
  if (!has || !sel) goto done;
  for (uint64_t s = 1; s <= x->nsrc; s++) { /* which columns each fills: hm[c * ns + s] */
    const src_info *si = &x->src[s - 1];
    if (!si->involved || !rows[s]) continue;
    sel[s] = 1;
    memset(has, 0, nc);
    if (si->synth)
      for (size_t k = 0; k < si->nx; k++) has[si->xcol[k]] = 1;
    else
      for (size_t k = 0; k < si->npos; k++) has[si->pos_col[k]] = 1;
    if (si->count_fill) has[si->count_col] = 1; /* its count (count_column) */
    for (size_t c = 0; c < nc; c++) {
      /* a type another source declares twice, this one once: it has it */
      size_t o = 0;
      while (!has[c] && o < nc && !(has[o] && x->cols[o].type == x->cols[c].type && x->cols[o].unit == x->cols[c].unit)) o++;
      int fills = has[c] || o < nc;
      if (hm) hm[c * ns + s] = (uint8_t)fills;
      else if (!fills) say_lacking(x, s, c, opt);
    }
  }
  for (uint64_t s = 1; hm && s <= x->nsrc; s++)
    for (size_t c = 0; sel[s] && c < nc; c++)
      if (!hm[c * ns + s] && !(wok && pcol_wall_part_covered(&w, s, hm + c * ns, sel))) say_lacking(x, s, c, opt);
done:
  if (wok) pcol_wall_free(&w);
  free(hm);
  free(sel);
  free(has);
}

/* Every selected sample, packed into o one at a time. */
static int write_samples(ex *x, parts *P, out_buf *o, const pcol_select *sel) {
  pcol_file *f = x->f;
  sample_pass sp;
  memset(&sp, 0, sizeof sp);
  sp.x = x;
  sp.P = P;
  sp.o = o;
  pcol_view *v = sp.v;
  COLS(PCOL_T_SAMPLES, PCOL_C_S_SOURCE, PCOL_C_S_WEIGHT, PCOL_C_S_STACK, PCOL_C_S_LABELSET,
       PCOL_C_S_VALUE_OFFSETS);
  if ((x->rc = pcol_column(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &sp.lso, x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &sp.vty, x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &sp.vva, x->err)))
    return x->rc;
  sp.nlab = pcol_rows(f, PCOL_T_LABELS);
  sp.nvals = pcol_rows(f, PCOL_T_VALUES);
  /* one flag per declared type of a source; a source may declare more types
   * than there are columns (a repeated type), so size by the largest */
  size_t maxpos = x->ncols;
  for (uint64_t k = 0; k < x->nsrc; k++)
    if (x->src[k].npos > maxpos) maxpos = x->src[k].npos;
  sp.used = calloc(maxpos + 1, 1);
  sp.values = calloc(x->ncols + 1, sizeof *sp.values);
  if (!sp.used || !sp.values) {
    oom(x);
  } else {
    int merge = x->ratio > 0 && x->ratio != 1;
    int rc = pcol_select_iter(f, sel, merge ? merge_sample : emit_sample, &sp, x->err);
    if (rc && !x->rc) x->rc = rc;
    if (!x->rc && merge) emit_merged(&sp);
  }
  pcol_u64map_free(&sp.groups);
  free(sp.first);
  free(sp.sums);
  free(sp.used);
  free(sp.values);
  pcol_buf_free(&sp.ids);
  pcol_buf_free(&sp.packed);
  return x->rc;
}

/* pcol_sources_comments' callback: a comment into the export's strings */
typedef struct {
  ex *x;
  parts *P;
  size_t n, cap;
} comments_to;
static int comment_add(comments_to *c, pcol_str v) {
  int64_t id = str_bytes(c->x, v.ptr, v.len);
  if (c->x->rc) return c->x->rc;
  if (PCOL_GROW(c->P->comments, c->n, c->cap)) return oom(c->x);
  c->P->comments[c->n++] = id;
  return PCOL_OK;
}
static int comment_to(void *ctx, pcol_str v) {
  uint64_t n;
  /* a copy's mark of truncated stacks: written anew, of the selection */
  return pcol_truncated_comment_parse(v, &n) ? PCOL_OK : comment_add(ctx, v);
}

/* the same bytes (NA and "" alike) */
static int same(pcol_str a, pcol_str b) {
  return a.len == b.len && (!a.len || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* The column go tool pprof opens the profile on (profile.SampleIndexByName):
 * the first sample type named dflt, else the last. */
static size_t go_default_column(const ex *x, int64_t dflt) {
  for (size_t c = 0; dflt && c < x->ncols; c++)
    if (x->cols[c].type == dflt) return c;
  return x->ncols ? x->ncols - 1 : 0;
}

/* *idx (default_sample_type, as the first involved source states it) made
 * the name of the value the views show of the involved sources (THE
 * default rule, pcol_selection_default_type: the sources' own default when
 * they agree, else the one they state together, a JFR recording's cpu,
 * else the count, "samples") when go would open the profile on another
 * column (go_default_column; a merge of a Go CPU and a heap profile on the
 * heap's alloc_space) and its pick of that name is the value's column: a
 * type of the name with another unit before it, or no column of the name
 * (the count of profiles without samples/count), leaves *idx as it is. */
static int rule_default(ex *x, int64_t *idx) {
  uint32_t vt = 0;
  if ((x->rc = pcol_selection_default_type(x->f, x->sel, &vt, NULL, x->err))) return x->rc;
  /* the strings as the written columns hold them (looked up, not added:
   * a name no column has is not written) */
  pcol_str tn = {"samples", 7}, un = {NULL, 0}; /* un NULL: any unit (the count, Rprof's time) */
  if (vt == PCOL_VT_TIME) tn = (pcol_str){"cpu", 3};
  else if (vt == PCOL_VT_WEIGHT || vt > pcol_rows(x->f, PCOL_T_VALUE_TYPES)) return PCOL_OK;
  else if (vt) {
    pcol_view vtt, vtu;
    if ((x->rc = pcol_column(x->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vtt, x->err)) ||
        (x->rc = pcol_column(x->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &vtu, x->err)) ||
        (x->rc = pcol_string(x->f, pcol_view_u32(&vtt, vt - 1), &tn, x->err)) ||
        (x->rc = pcol_string(x->f, pcol_view_u32(&vtu, vt - 1), &un, x->err)))
      return x->rc;
    if (!un.ptr) un = (pcol_str){"", 0};
  }
  int64_t type = tn.ptr ? str_find(x, tn.ptr, tn.len) : 0, unit = un.ptr ? str_find(x, un.ptr, un.len) : -1;
  if (!type) return PCOL_OK;
  size_t c = go_default_column(x, type), g = go_default_column(x, *idx);
#define HOLDS(k) ((k) < x->ncols && x->cols[k].type == type && (unit < 0 || x->cols[k].unit == unit))
  /* go opening another column of the value's type and unit is left as it
   * is: a source that names its last TYPE/UNIT twice and no
   * default_sample_type (review h11 F1) is opened by go on its last
   * column, and so is its copy, where a default_sample_type written would
   * move go to the first (pcol's, which warns when it reads that file) */
  if (HOLDS(c) && !HOLDS(g)) *idx = type;
#undef HOLDS
  return PCOL_OK;
}

static int profile_fields(ex *x, parts *P, Perftools__Profiles__Profile *pr) {
  pcol_file *f = x->f;
  meta_cols m;
  if ((x->rc = pcol_column(f, PCOL_T_META, PCOL_C_META_KEY, &m.k, x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_META, PCOL_C_META_VALUE, &m.v, x->err)) ||
      (x->rc = pcol_column(f, PCOL_T_META, PCOL_C_META_SOURCE, &m.s, x->err)))
    return x->rc;
  m.n = pcol_rows(f, PCOL_T_META);
  pcol_str s;
  int rc;
#define META(key)                                                       \
  ((rc = meta_first(x, &m, key, &s)) == PCOL_OK ? 1                    \
   : rc == PCOL_ENOTFOUND                       ? (x->rc = 0)          \
                                                : -1)
  /* drop_frames and keep_frames are not written (the source's stay in
   * pcol's meta): every reader of pprof data pruned the stacks by them as
   * go tool pprof does (pprof_prune.c), and go prunes what it reads, so
   * written with them the pruned stacks would be pruned a second time,
   * which is not the first: a location cut on an inner line before a
   * stack's first other frame is such a frame once cut, and the next cut
   * point then ends the stack (go's own -proto output does that; the
   * export's stacks read as go reads the source, t_pprof_semantics.sh) */
  /* time_nanos and duration_nanos as go's profile.Merge combines the
   * sources' (THE rule: pcol_sources_time), of the selection's sources and
   * range as the views' Time: and Duration: lines */
  if ((x->rc = pcol_sources_time(f, x->sel, &pr->time_nanos, &pr->duration_nanos, x->err)))
    return x->rc;
  /* period type and period: the first involved source's that has them
   * (THE period rule: an OTLP source's, else pprof's; a synthetic one's
   * interval as cpu nanoseconds; else a Firefox source's meta.interval as
   * its time's, THE written period of lasts.h); the period of the sources of that period
   * type as go's profile.Merge combines them (merge.go combineHeaders: a
   * larger one, or any after 0, replaces it), so that the merge of a 10 ms
   * and a 20 ms CPU profile says 20 ms as go's does */
  pcol_period first = {0};
  int have = 0;
  for (uint64_t i = 0; i < x->nsrc && !x->rc; i++) {
    const src_info *si = &x->src[i];
    if (!si->involved) continue;
    pcol_period pd = {0};
    if (si->synth && si->interval_ns) {
      pd.type = (pcol_str){"cpu", 3}, pd.unit = (pcol_str){"nanoseconds", 11};
      pd.has_type = pd.has_unit = pd.has_period = 1, pd.period = si->interval_ns;
    } else if ((x->rc = pcol_source_period_or_interval(f, (uint32_t)(i + 1), &pd, x->err))) {
      return x->rc; /* (a Firefox source's meta.interval: THE written period, lasts.h) */
    }
    if (!pd.has_type && !pd.has_unit && !pd.has_period) continue;
    if (!have) {
      have = 1, first = pd;
      if (pd.has_type || pd.has_unit) {
        P->period_type.type = pd.has_type ? str_bytes(x, pd.type.ptr, pd.type.len) : 0;
        P->period_type.unit = pd.has_unit ? str_bytes(x, pd.unit.ptr, pd.unit.len) : 0;
        pr->period_type = &P->period_type;
      }
      pr->period = pd.period;
      continue;
    }
    double r = 1;
    if (pd.has_type != first.has_type || pd.has_unit != first.has_unit || !same(pd.type, first.type) ||
        (!same(pd.unit, first.unit) && !pcol_unit_common(first.unit, pd.unit, &r)))
      continue; /* another period type: go refuses to merge such profiles */
    /* a unit of one family (THE unit rule): both in the finer, as go's
     * ScaleProfiles scales the period type before the merge (rd12a F6) */
    if (r < 1) { /* pd's unit is finer: the period so far into it */
      pr->period = pcol_unit_fill(pr->period, 1 / r);
      first.unit = pd.unit;
      P->period_type.unit = str_bytes(x, pd.unit.ptr, pd.unit.len);
    } else if (r > 1) {
      pd.period = pcol_unit_fill(pd.period, r);
    }
    if (pr->period == 0 || pr->period < pd.period) pr->period = pd.period;
  }
  if (x->rc) return x->rc;
  /* the comments of the involved sources as go's merge keeps them (THE
   * rule: pcol_sources_comments), '#' ones too */
  comments_to cx = {x, P, 0, 0};
  if ((x->rc = pcol_sources_comments(f, x->sel, comment_to, &cx, x->err))) return x->rc;
  /* stacks the recorder truncated (meta pcol.truncated_stacks, THE rule:
   * truncated.c), which pprof has no field for: a comment, which go tool
   * pprof -comments shows and pcol's import reads back, so a view of the
   * copy warns as one of the original */
  uint64_t trunc;
  if ((x->rc = pcol_truncated_total(f, x->sel, &trunc, NULL, x->err))) return x->rc;
  if (trunc) {
    pcol_truncated_comment(x->trunc_comment, sizeof x->trunc_comment, trunc);
    if ((x->rc = comment_add(&cx, (pcol_str){x->trunc_comment, strlen(x->trunc_comment)}))) return x->rc;
  }
  pr->comment = P->comments;
  pr->n_comment = cx.n;
  if (x->rc) return x->rc;
  if (META(PPROF_META_DEFAULT_SAMPLE_TYPE) > 0) {
    pr->default_sample_type = str_bytes(x, s.ptr, s.len);
  } else if (!x->rc) {
    /* the first involved source is synthetic (Rprof, or no value types):
     * its default (doc/mappings.md §0) is its time when it has an interval,
     * which go tool pprof's fallback (the last type) picks only when cpu is
     * the last column (an Rprof memory profile's rprof.alloc comes after
     * it), else the count */
    for (uint64_t i = 0; i < x->nsrc; i++) {
      if (!x->src[i].involved) continue;
      if (x->src[i].synth && !x->src[i].interval_ns) pr->default_sample_type = str_c(x, "samples");
      else if (x->src[i].synth && x->ncols &&
               x->cols[x->ncols - 1].type != str_c(x, "cpu"))
        pr->default_sample_type = str_c(x, "cpu");
      break;
    }
  }
  if (!x->rc && (x->rc = rule_default(x, &pr->default_sample_type))) return x->rc;
  if (META(PPROF_META_DOC_URL) > 0) pr->doc_url = str_bytes(x, s.ptr, s.len);
#undef META
  return x->rc;
}

int pcol_export_pprof_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                          const pcol_export_options *opt, pcol_error *err) {
  if (!f || !out) return pcol_error_set(err, PCOL_EINVAL, "pcol_export_pprof: NULL argument");
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  int gzip = !(opt && opt->no_gzip);
  ex x;
  pcol_budget bud;
  memset(&x, 0, sizeof x);
  uint8_t *lacking_rows = NULL; /* opt->lacking: which sources have selected samples */
  if ((x.rc = pcol_budget_open(&bud, f, opt, "pprof export", out, err))) return x.rc;
  out = bud.fp; /* the output budget; nothing is held per sample */
  x.f = f;
  x.err = err;
  x.ratio = opt ? opt->ratio : 0;
  parts P;
  memset(&P, 0, sizeof P);
  Perftools__Profiles__Profile pr;
  perftools__profiles__profile__init(&pr);
  perftools__profiles__value_type__init(&P.period_type);
  x.nsrc = pcol_rows(f, PCOL_T_SOURCES);
  if (sel && sel->source_id > x.nsrc) {
    x.rc = pcol_error_set(err, PCOL_ENOTFOUND, "no source %u (the file has %" PRIu64 ")",
                          sel->source_id, x.nsrc);
    return pcol_budget_close(&bud, x.rc, err);
  }
  uint64_t nstrings = pcol_string_count(f);
  x.src = calloc(x.nsrc + 1, sizeof *x.src);
  x.cache = malloc((nstrings + 1) * sizeof *x.cache);
  x.capstr = 1024;
  x.strs = malloc(x.capstr * sizeof *x.strs);
  if (!x.src || !x.cache || !x.strs) {
    oom(&x);
    goto done;
  }
  memset(x.cache, 0xff, (nstrings + 1) * sizeof *x.cache);
  x.strs[0].data = NULL;
  x.strs[0].len = 0;
  x.nstr = 1;
  for (uint64_t s = 0; s < x.nsrc; s++) x.src[s].involved = !sel || !sel->source_id || sel->source_id == s + 1;
  x.sel = sel;

  if ((x.rc = pcol_rtime_init(&x.rt, f, err))) goto done;
  if ((x.rc = pcol_xvalues_init(&x.xv, f, &x.rt, err))) goto done;
  if ((x.rc = pcol_count_types(f, &x.cvt, err))) goto done;
  if (plan_columns(&x)) goto done;
  /* the selection's errors first, before a byte is written (a count, no
   * memory per sample: the samples are packed one at a time below) */
  sel_count cnt = {0, 0, NULL, {0}, pcol_rows(f, PCOL_T_STACKS), {0}, NULL, x.nsrc};
  if (opt && opt->lacking && x.ncols && !(cnt.rows = calloc(x.nsrc + 1, 1))) {
    oom(&x);
    goto done;
  }
  if ((x.rc = pcol_stack_depths(f, (uint32_t **)&cnt.depth, err)) ||
      (x.rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &cnt.stk, err)) ||
      (cnt.rows && (x.rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &cnt.src, err))) ||
      (x.rc = pcol_select_iter(f, sel, count_row, &cnt, err))) {
    free((void *)cnt.depth);
    free(cnt.rows);
    goto done;
  }
  free((void *)cnt.depth);
  lacking_rows = cnt.rows;
  /* The budget counts the gzip bytes written, and repeated location ids
   * compress without end: a chain of 100,000 nested stacks (Σ depth 5e9)
   * wrote under B for minutes.  A profile that inflates past what pcol
   * (and the pprof tools) read back from a file of at most B bytes, 64 x
   * it, at least 32 MiB (PCOL_INPUT_CAP_*), is refused before the work. */
  uint64_t bmax = bud.limit > UINT64_MAX / PCOL_INPUT_CAP_PER_BYTE ? UINT64_MAX
                                                                   : bud.limit * PCOL_INPUT_CAP_PER_BYTE;
  if (gzip && cnt.ids > (bmax > PCOL_INPUT_CAP_MIN ? bmax : PCOL_INPUT_CAP_MIN)) {
    x.rc = pcol_error_set(err, PCOL_EBUDGET, "pprof export: the samples' stacks hold %" PRIu64
                          " location ids, more than the %" PRIu64 " bytes a gzip of at most the "
                          "output budget (%" PRIu64 " bytes) may inflate to when read back; raise "
                          "it with --max-output BYTES (pcol_export_options.max_output_bytes)",
                          cnt.ids, bmax > PCOL_INPUT_CAP_MIN ? bmax : PCOL_INPUT_CAP_MIN, bud.limit);
    goto done;
  }
  /* sample types */
  P.vts = calloc(x.ncols + 1, sizeof *P.vts);
  P.vtp = calloc(x.ncols + 1, sizeof *P.vtp);
  if (!P.vts || !P.vtp) {
    oom(&x);
    goto done;
  }
  for (size_t i = 0; i < x.ncols; i++) {
    perftools__profiles__value_type__init(&P.vts[i]);
    P.vts[i].type = x.cols[i].type;
    P.vts[i].unit = x.cols[i].unit;
    P.vtp[i] = &P.vts[i];
  }
  /* the tables and the profile fields: every string of the table (the
   * samples add none) */
  if (add_tables(&x, &P, &pr) || profile_fields(&x, &P, &pr)) goto done;
  pr.n_string_table = x.nstr;
  pr.string_table = x.strs;

  out_buf o;
  memset(&o, 0, sizeof o);
  o.base.append = out_append;
  o.fp = out;
  o.gzip = gzip;
  if (gzip && deflateInit2(&o.zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    oom(&x);
    goto done;
  }
  /* field 1, then field 2 sample by sample, then fields 3..15 */
  Perftools__Profiles__Profile head;
  perftools__profiles__profile__init(&head);
  head.n_sample_type = x.ncols;
  head.sample_type = P.vtp;
  perftools__profiles__profile__pack_to_buffer(&head, &o.base);
  if (!write_samples(&x, &P, &o, sel)) {
    perftools__profiles__profile__pack_to_buffer(&pr, &o.base);
    if (out_finish(&o)) x.rc = pcol_error_set(err, PCOL_EIO, "pprof export: write failed: %s", out_why(&o));
  } else if (x.rc == PCOL_EIO && o.failed) {
    x.rc = pcol_error_set(err, PCOL_EIO, "pprof export: write failed: %s", out_why(&o));
  }
  if (gzip) deflateEnd(&o.zs);
done:
  parts_free(&P);
  int rc = pcol_budget_close(&bud, x.rc, err);
  if (!rc && lacking_rows) tell_lacking(&x, lacking_rows, opt);
  if (!rc && x.lost && pcol_export_heard(opt)) {
    char t[300];
    snprintf(t, sizeof t, "%" PRIu64 " labels (in %" PRIu64 " samples) are lost to go tool "
             "pprof: a string label \"\" (or a number 0 of the key \"\") can only be written "
             "as string index 0, which pprof reads as no label", x.lost, x.lost_samples);
    pcol_export_say(opt, PCOL_EXPORT_DATA, t);
  }
  /* by line, go tool pprof -lines (the copy's reader) gives a frame
   * without a line to itself: the copy follows go, and says so once
   * rather than carrying Rprof's rule in a field go ignores (review 19 F6) */
  if (!rc && pcol_export_heard(opt)) {
    char t[400];
    int said;
    rc = pcol_places_lines_note(f, sel, "go tool pprof -lines, and `pcol top --by line` of this pprof copy, "
                                "give it to the frame itself", t, sizeof t, &said, err);
    if (!rc && said) pcol_export_say(opt, PCOL_EXPORT_LOSS, t);
  }
  free(lacking_rows);
  pcol_vunion_free(&x.vu);
  free(x.src);
  free(x.cache);
  free(x.strs);
  free(x.cols);
  pcol_rtime_free(&x.rt);
  free(x.cvt);
  pcol_hset_free(&x.by_content);
  return rc;
}

int pcol_export_pprof(pcol_file *f, const pcol_select *sel, FILE *out, int gzip,
                      pcol_error *err) {
  pcol_export_options o = {.no_gzip = !gzip};
  return pcol_export_pprof_opt(f, sel, out, &o, err);
}
