/* fuzz_common.h — what the fuzz targets, the gcc replay test and the
 * corruption tests share (header-only, all `static inline`):
 *
 *  - fz_walk(): touch everything a command can touch in an open pcol file
 *    (every column of every table, every string, every stack, the derived
 *    tables `pcol cat` prints, meta lookups, sample selection, exporters);
 *  - fz_pcol_one(): the pcol target (open with a small decode cap, walk
 *    without validation, then validate_full and walk again);
 *  - fz_import_one(): an importer target (import from memory into a builder,
 *    then pcol_builder_coalesce when asked; when that succeeds, the written
 *    file must open and validate);
 *  - fz_fill_builder(): a synthetic profile using every table, used to
 *    generate seed files and as the victim of corruption tests.
 *
 * A broken invariant calls fz_fail(), which aborts: libFuzzer reports it as
 * a crash and the replay test fails.
 */
#ifndef PCOL_FUZZ_COMMON_H
#define PCOL_FUZZ_COMMON_H

#include "pcol.h"
#include "writer.h" /* pcol_builder_write_image: a view's image of an import */
#include "spill.h"  /* pcol_sample_spill_bytes: fz_stack_orders */
#include "convert.h" /* pcol_import_collapsed_as: fz_collapsed_one */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FZ_MAX_DECODED (1u << 20)      /* decode cap for fuzzed pcol files */
#define FZ_MAX_INPUT (16u << 20)       /* decompressed-input cap for importers */

static inline void fz_fail(const char *what, const pcol_error *err) {
  fprintf(stderr, "fuzz invariant broken: %s: %s\n", what, err ? err->message : "");
  abort();
}

/* A sink for exporter output: /dev/null, opened once per process. */
static inline FILE *fz_null(void) {
  static FILE *nul;
  if (!nul) nul = fopen("/dev/null", "w");
  return nul;
}

/* ------------------------------------------------------------ walking */
typedef struct fz_acc {
  uint64_t sum; /* keeps the compiler from dropping loads */
  uint64_t steps;
} fz_acc;

static inline int fz_stack_cb(void *ctx, uint32_t depth, uint32_t loc) {
  fz_acc *a = ctx;
  a->sum += depth ^ loc;
  return ++a->steps > 4000000; /* a bound on work, not a correctness check */
}

/* The exports' notes and pprof's lacking types, as the CLI asks for them
 * (its cli_export_note escapes the text, which may hold a hostile file's
 * strings). */
static inline void fz_note_cb(void *ctx, const char *text) {
  fz_acc *a = ctx;
  if (!text) fz_fail("an export note is text", NULL);
  a->sum += strlen(text);
}
static inline void fz_lacking_cb(void *ctx, uint32_t source_id, pcol_str type, pcol_str unit) {
  fz_acc *a = ctx;
  a->sum += source_id + type.len + unit.len;
}

/* One export as `pcol unpack` runs it (tools/cmd_unpack.c): notes and
 * pprof's lacking types asked for; pprof and V8 raw, the others as the
 * library writes them by default (Firefox and Chrome gzip-compressed). */
static inline int fz_export(pcol_file *f, pcol_format fmt, const pcol_select *sel, const pcol_value_sel *value,
                            FILE *out, fz_acc *acc, pcol_error *err) {
  pcol_export_options o = {.no_gzip = fmt == PCOL_FMT_PPROF || fmt == PCOL_FMT_V8,
                           .value = value,
                           .lacking = fz_lacking_cb,
                           .lacking_ctx = acc,
                           .note = fz_note_cb,
                           .note_ctx = acc};
  return pcol_export(f, fmt, sel, out, &o, err);
}

static inline int fz_select_cb(void *ctx, uint64_t row, int64_t num, int64_t den) {
  fz_acc *a = ctx;
  a->sum += row + (uint64_t)pcol_scale(1000, num, den);
  return 0;
}

static inline uint64_t fz_view_sum(const pcol_view *v) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < v->count; i++) {
    switch (v->type) {
    case PCOL_TYPE_U8: s += pcol_view_u8(v, i); break;
    case PCOL_TYPE_U32: s += pcol_view_u32(v, i); break;
    case PCOL_TYPE_I64: s += (uint64_t)pcol_view_i64(v, i); break;
    case PCOL_TYPE_U64: s += pcol_view_u64(v, i); break;
    case PCOL_TYPE_F64: s += isnan(pcol_view_f64(v, i)) ? 1u : 0u; break;
    case PCOL_TYPE_BYTES: s += v->data ? ((const uint8_t *)v->data)[i] : 0; break;
    }
  }
  return s;
}

/* Whether the exporters' output is small enough to be worth writing: 0
 * when text exports would write too much (every sample's whole stack:
 * samples x depth x inline frames), 1 when only the Rprof export would (a
 * sample of weight w written w times, or its count or ticks of time: a
 * profile of ns values asks for millions of lines), 2 when none would.
 * (The Rprof bound on its own, not on every export: before 2026-11-29 it
 * stopped every export of a profile whose values are times in ns, the V8,
 * Chrome, JFR and Tachyon imports' among them.) */
static inline int fz_exports_small(pcol_file *f) {
  pcol_error err = {0};
  uint64_t nst = pcol_rows(f, PCOL_T_STACKS);
  uint64_t maxdepth = 0;
  pcol_view par;
  if (nst && nst < (1u << 24) && !pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &par, &err)) {
    uint32_t *depth = calloc(nst + 1, sizeof *depth);
    for (uint64_t i = 0; depth && i < nst; i++) { /* parents precede children */
      depth[i + 1] = depth[pcol_view_u32(&par, i)] + 1;
      if (depth[i + 1] > maxdepth) maxdepth = depth[i + 1];
    }
    free(depth);
  }
  uint64_t maxlines = 1; /* inline frames per location multiply the depth */
  pcol_view lof;
  if (!pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &lof, &err))
    for (uint64_t r = 0; r + 1 < lof.count; r++) {
      uint64_t k = pcol_view_u64(&lof, r + 1) - pcol_view_u64(&lof, r);
      if (k > maxlines) maxlines = k;
    }
  if ((double)(pcol_rows(f, PCOL_T_SAMPLES) + nst + 1) * (double)(maxdepth + 1) * (double)maxlines > 30000)
    return 0;
  /* Rprof text has no weights: a sample of weight w is written w times, so
   * a 50-byte collapsed line "a;b 20380083500" asks for 20 G lines. */
  pcol_view wv;
  double wsum = 0;
  /* a row stands for |weight| samples, or for its samples/count value
   * (lib/core/count.c): take the largest number a row holds, which bounds
   * either rule */
  pcol_view vof, vvl;
  int have_v = !pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &vof, &err) &&
               !pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &vvl, &err);
  if (!pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &wv, &err))
    for (uint64_t r = 0; r < wv.count && wsum <= 1e9; r++) {
      int64_t w = pcol_view_i64(&wv, r);
      double c = w < 0 ? -(double)w : (double)w;
      for (uint64_t i = have_v ? pcol_view_u64(&vof, r) : 0;
           have_v && i < pcol_view_u64(&vof, r + 1) && i < vvl.count; i++) {
        int64_t v = pcol_view_i64(&vvl, i);
        double a = v < 0 ? -(double)v : (double)v;
        if (a > c) c = a;
      }
      wsum += c;
    }
  if ((double)(maxdepth + 1) * (double)maxlines * wsum > 300000) return 1;
  return 2;
}

/* Reads everything; returns the first error code met (0 if none).  Must
 * never crash, whatever the file holds. */
static inline int fz_walk(pcol_file *f, int run_exporters) {
  pcol_error err = {0};
  fz_acc acc = {0, 0};
  int first = 0;
#define FZ_NOTE(rc_)                        \
  do {                                      \
    int r_ = (rc_);                         \
    if (r_ && !first) first = r_;           \
  } while (0)
  pcol_header_info h;
  pcol_file_header(f, &h);
  for (uint32_t i = 0; i < pcol_section_count(f); i++) {
    pcol_section_info si;
    if (pcol_section_get(f, i, &si, NULL)) fz_fail("section_get in range", NULL);
    acc.sum += si.count;
  }
  /* every column as stored, before any check: in bounds up to its count */
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    const pcol_table_info *ti = pcol_table_info_get(t);
    for (size_t c = 1; c <= ti->ncolumns; c++) {
      pcol_view v;
      if (pcol_column_unchecked(f, t, c, &v, &err)) continue;
      const pcol_column_info *ci = pcol_column_info_get(t, c);
      uint64_t want = ci->type == PCOL_TYPE_BYTES ? v.count : pcol_rows(f, t) + (ci->is_offsets ? 1 : 0);
      if (v.count != want) fz_fail("unchecked view count matches the row count", NULL);
      acc.sum += fz_view_sum(&v);
    }
  }
  /* every column of every table */
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    const pcol_table_info *ti = pcol_table_info_get(t);
    for (size_t c = 1; c <= ti->ncolumns; c++) {
      pcol_view v;
      int rc = pcol_column(f, t, c, &v, &err);
      FZ_NOTE(rc);
      if (rc) continue;
      const pcol_column_info *ci = pcol_column_info_get(t, c);
      uint64_t want = ci->type == PCOL_TYPE_BYTES ? v.count : pcol_rows(f, t) + (ci->is_offsets ? 1 : 0);
      if (v.count != want) fz_fail("view count matches the row count", NULL);
      acc.sum += fz_view_sum(&v);
    }
  }
  /* every string */
  uint64_t ns = pcol_string_count(f);
  for (uint64_t id = 0; id < ns && id < UINT32_MAX; id++) {
    pcol_str s;
    int rc = pcol_string(f, (uint32_t)id, &s, &err);
    FZ_NOTE(rc);
    if (rc) break;
    for (size_t k = 0; k < s.len; k++) acc.sum += (uint8_t)s.ptr[k];
  }
  pcol_str s;
  if (pcol_string(f, (uint32_t)(ns < UINT32_MAX ? ns : UINT32_MAX), &s, &err) == 0 && ns < UINT32_MAX)
    fz_fail("string id past the end is refused", NULL);
  /* every stack */
  uint64_t nst = pcol_rows(f, PCOL_T_STACKS);
  for (uint64_t id = 0; id <= nst && acc.steps <= 4000000; id++) {
    int rc = pcol_stack_walk(f, (uint32_t)id, fz_stack_cb, &acc, &err);
    FZ_NOTE(rc);
    if (rc) break;
  }
  if (nst < UINT32_MAX && pcol_stack_walk(f, (uint32_t)nst + 1, fz_stack_cb, &acc, &err) == 0)
    fz_fail("stack id past the end is refused", NULL);
  /* derived rows, indexed as `pcol cat` does */
  pcol_view vo, vt, vty, lso, lk, lo, lf;
  if (!pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &vo, &err) &&
      !pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &vt, &err) &&
      !pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vty, &err)) {
    for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SAMPLES); r++)
      for (uint64_t i = pcol_view_u64(&vo, r); i < pcol_view_u64(&vo, r + 1); i++) {
        uint32_t id = pcol_view_u32(&vt, i);
        if (id == 0 || id > vty.count) fz_fail("value type id checked", NULL);
        acc.sum += pcol_view_u32(&vty, id - 1);
      }
  }
  pcol_view sl;
  if (!pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &sl, &err) &&
      !pcol_column(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &lso, &err) &&
      !pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_KEY, &lk, &err)) {
    for (uint64_t r = 0; r < sl.count; r++) {
      uint32_t ls = pcol_view_u32(&sl, r);
      if (!ls) continue;
      for (uint64_t i = pcol_view_u64(&lso, ls - 1); i < pcol_view_u64(&lso, ls); i++)
        acc.sum += pcol_view_u32(&lk, i);
    }
  }
  if (!pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &lo, &err) &&
      !pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &lf, &err)) {
    pcol_view fn;
    int ok = !pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &fn, &err);
    for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_LOCATIONS); r++)
      for (uint64_t i = pcol_view_u64(&lo, r); i < pcol_view_u64(&lo, r + 1); i++) {
        uint32_t fid = pcol_view_u32(&lf, i);
        if (ok && fid) acc.sum += pcol_view_u32(&fn, fid - 1);
      }
  }
  /* meta lookups, file-level and per source */
  for (uint32_t src = 0; src <= 2; src++) {
    pcol_str m;
    int rc = pcol_meta_get(f, src, "rprof.header", &m, &err);
    if (rc && rc != PCOL_ENOTFOUND) FZ_NOTE(rc);
  }
  /* selections: all, one source, a time window */
  pcol_select sel = {0};
  FZ_NOTE(pcol_select_iter(f, &sel, fz_select_cb, &acc, &err));
  /* a source that does not exist (ENOTFOUND) and a time range over samples
   * without times (EINVAL) are refused, on valid files too */
#define FZ_NOTE_SELECT(rc_)                                                   \
  do {                                                                        \
    int q_ = (rc_);                                                           \
    if (q_ != PCOL_ENOTFOUND && q_ != PCOL_EINVAL) FZ_NOTE(q_);               \
  } while (0)
  sel.source_id = 1;
  sel.has_from = sel.has_to = 1;
  sel.from_ns = 1000;
  sel.to_ns = 50000000;
  FZ_NOTE_SELECT(pcol_select_iter(f, &sel, fz_select_cb, &acc, &err));
  sel.source_id = 0;
  sel.from_ns = INT64_MIN + 1;
  sel.to_ns = INT64_MAX;
  FZ_NOTE_SELECT(pcol_select_iter(f, &sel, fz_select_cb, &acc, &err));
#undef FZ_NOTE_SELECT
  /* the exporters, as `pcol unpack` and `pcol export` run them (every
   * writer: rprof, pprof, Perun, collapsed, speedscope, Firefox, OTLP, V8,
   * Chrome trace events and ClickHouse's tables).  Text exports write every
   * sample's whole stack, so their output is samples x depth: a 30 KB file
   * can legitimately ask for 100 MB.  That is amplification, not a hang;
   * skip such files so the fuzzer spends its time elsewhere. */
  int small = run_exporters ? fz_exports_small(f) : 0;
  FILE *nul = small ? fz_null() : NULL;
  if (nul) {
    pcol_select all = {0};
    /* a damaged file may fail to export: only a crash or a sanitizer report
     * counts here, so the statuses are collected and dropped.  Every writer
     * (rprof, pprof, Perun, collapsed, speedscope, Firefox, OTLP, V8,
     * Chrome trace events, Perfetto) runs as `pcol unpack` runs it: with
     * the note callback, which THE loss note (lib/convert/loss.c) and each
     * export's own notes and warnings need to run at all */
    static const pcol_format fmts[] = {PCOL_FMT_RPROF,     PCOL_FMT_PPROF,      PCOL_FMT_PERUN,
                                       PCOL_FMT_COLLAPSED, PCOL_FMT_SPEEDSCOPE, PCOL_FMT_FIREFOX,
                                       PCOL_FMT_OTLP,      PCOL_FMT_V8,         PCOL_FMT_CHROME,
                                       PCOL_FMT_PERFETTO};
    enum { NFMTS = sizeof fmts / sizeof fmts[0] };
    int erc = 0;
    for (int i = 0; i < NFMTS; i++)
      if (fmts[i] != PCOL_FMT_RPROF || small == 2) erc |= fz_export(f, fmts[i], &all, NULL, nul, &acc, &err);
    /* and with --value 0 (the first type a source declared) where a format
     * writes the value asked for */
    pcol_value_sel v0;
    if (!pcol_value_resolve(f, &all, "0", &v0, &err))
      for (int i = 0; i < NFMTS; i++)
        if ((fmts[i] != PCOL_FMT_RPROF || small == 2) && fmts[i] != PCOL_FMT_PPROF && fmts[i] != PCOL_FMT_OTLP &&
            fmts[i] != PCOL_FMT_SPEEDSCOPE)
          erc |= fz_export(f, fmts[i], &all, &v0, nul, &acc, &err);
    FILE *ch[PCOL_CH_NTABLES];
    for (int t = 0; t < PCOL_CH_NTABLES; t++) ch[t] = nul;
    pcol_export_options eo = {0};
    erc |= pcol_export_clickhouse(f, ch, &eo, NULL, &err);
    /* a selection's exports: the recording parts of what they write
     * (pcol_wall_select_parts, wall.c) over one source and over a range
     * that cuts the sources, as unpack --source 2 / --from --to write them.
     * The Firefox and pprof exports write the selection's span and default
     * (pcol_sources_time cut by the range, pcol_selection_default_type of
     * the source: d7a547da, 3a63590d), so they take both selections too;
     * and a wall-clock range over every time, which wall.c makes each
     * source's by its start (saturating: a hostile start is near INT64_MIN
     * or INT64_MAX), as --from/--to with a date do.  The loss note and the
     * Rprof, collapsed and Perun exports' per-source notes are of the
     * selection too, so every writer takes them. */
    pcol_select part[3] = {{.source_id = 2},
                           {.has_from = 1, .has_to = 1, .from_ns = 1000, .to_ns = 50000000},
                           {.wall = 1, .has_from = 1, .has_to = 1, .from_ns = INT64_MIN + 1, .to_ns = INT64_MAX}};
    for (int k = 0; k < 3; k++)
      for (int i = 0; i < NFMTS; i++)
        if (fmts[i] != PCOL_FMT_RPROF || small == 2) erc |= fz_export(f, fmts[i], &part[k], NULL, nul, &acc, &err);
    (void)erc;
    fflush(nul);
  }
#undef FZ_NOTE
  if (acc.sum == 0x5eed5eed5eed5eedULL) fputc(' ', stderr); /* use the sum */
  return first;
}

/* ------------------------------------------------------- pcol target */
/* Rewrites file_size, body crc and header crc so that damage reaches the
 * deeper checks (checksums stop bit rot, not an attacker). */
static inline void fz_fix_checksums(uint8_t *p, size_t len) {
  if (len < 64) return;
  for (int i = 0; i < 8; i++) p[32 + i] = (uint8_t)((uint64_t)len >> (8 * i));
  uint32_t body = (uint32_t)crc32(0L, p + 64, (uInt)(len - 64));
  for (int i = 0; i < 4; i++) p[56 + i] = (uint8_t)(body >> (8 * i));
  uint32_t hc = (uint32_t)crc32(0L, p, 60);
  for (int i = 0; i < 4; i++) p[60 + i] = (uint8_t)(hc >> (8 * i));
}

static inline int fz_pcol_check(const uint8_t *data, size_t size);
static inline void fz_check_builder(pcol_builder *b, int codec);

/* --------------------------------------------- the writer's stack order */
/* A growing list of u32 (fz_frames_cb: a sample's frames). */
typedef struct fz_u32s {
  uint32_t *v;
  size_t n, cap;
  int full; /* the bound on work (or memory) stopped it: compare nothing */
} fz_u32s;
static inline int fz_u32s_push(fz_u32s *a, uint32_t x) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 256;
    uint32_t *v = cap > ((size_t)1 << 22) ? NULL : realloc(a->v, cap * sizeof *v);
    if (!v) return a->full = 1;
    a->v = v, a->cap = cap;
  }
  a->v[a->n++] = x;
  return 0;
}
static inline int fz_frames_cb(void *ctx, uint32_t depth, uint32_t loc) {
  (void)depth;
  return fz_u32s_push(ctx, loc);
}

/* Every sample's frames, innermost first, each sample's ended by 0 (what
 * every view reads of the stacks).  1 when f refuses or the list would be
 * too long. */
static inline int fz_sample_frames(pcol_file *f, fz_u32s *out) {
  pcol_error err = {0};
  pcol_view st;
  if (pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &st, &err)) return 1;
  for (uint64_t r = 0; r < st.count; r++)
    if (pcol_stack_walk(f, pcol_view_u32(&st, r), fz_frames_cb, out, &err) || fz_u32s_push(out, 0) || out->full)
      return 1;
  return 0;
}

/* 1 when column c of table t holds the same values in a and b */
static inline int fz_same_column(pcol_file *a, pcol_file *b, int t, size_t c) {
  pcol_error err = {0};
  pcol_view x, y;
  int ra = pcol_column(a, t, c, &x, &err), rb = pcol_column(b, t, c, &y, &err);
  if (ra || rb) return ra && rb;
  if (x.count != y.count || x.type != y.type) return 0;
  for (uint64_t i = 0; i < x.count; i++) {
    int same = 1;
    switch (x.type) {
    case PCOL_TYPE_U8: same = pcol_view_u8(&x, i) == pcol_view_u8(&y, i); break;
    case PCOL_TYPE_U32: same = pcol_view_u32(&x, i) == pcol_view_u32(&y, i); break;
    case PCOL_TYPE_I64: same = pcol_view_i64(&x, i) == pcol_view_i64(&y, i); break;
    case PCOL_TYPE_U64: same = pcol_view_u64(&x, i) == pcol_view_u64(&y, i); break;
    case PCOL_TYPE_F64: {
      double p = pcol_view_f64(&x, i), q = pcol_view_f64(&y, i);
      same = !memcmp(&p, &q, sizeof p);
      break;
    }
    case PCOL_TYPE_BYTES: same = ((const uint8_t *)x.data)[i] == ((const uint8_t *)y.data)[i]; break;
    }
    if (!same) return 0;
  }
  return 1;
}

/* pcol_fold_write's text of f's default value into *out (NULL: refused) */
static inline char *fz_fold_text(pcol_file *f, size_t *len) {
  pcol_error err = {0};
  pcol_select all = {0};
  pcol_value_sel v;
  char *out = NULL;
  *len = 0;
  if (pcol_value_resolve(f, &all, NULL, &v, &err)) return NULL;
  FILE *m = open_memstream(&out, len);
  if (!m) return NULL;
  int rc = pcol_fold_write(f, &all, &v, NULL, m, &err);
  fclose(m);
  if (rc) {
    free(out);
    return NULL;
  }
  return out;
}

/* a and b, one file written with its stack trie as the builder made it and
 * in preorder (writer.c stack_order), are the same profile: the same rows
 * in every table and column but the stacks' ids, every sample the same
 * frames, the same top and fold (whose work is bounded as fz_walk's
 * exporters' is: `small`). */
static inline void fz_same_profile(pcol_file *a, pcol_file *b, int small) {
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    if (pcol_rows(a, t) != pcol_rows(b, t)) fz_fail("stack orders: the same rows in every table", NULL);
    const pcol_table_info *ti = pcol_table_info_get(t);
    for (size_t c = 1; c <= ti->ncolumns; c++) {
      if ((t == PCOL_T_STACKS && (c == PCOL_C_STACK_PARENT || c == PCOL_C_STACK_LOCATION)) ||
          (t == PCOL_T_SAMPLES && c == PCOL_C_S_STACK))
        continue;
      if (!fz_same_column(a, b, t, c)) fz_fail("stack orders: the same columns but the stacks' ids", NULL);
    }
  }
  fz_u32s x = {0}, y = {0};
  int sa = fz_sample_frames(a, &x), sb = fz_sample_frames(b, &y);
  if (!sa && !sb && (x.n != y.n || (x.n && memcmp(x.v, y.v, x.n * sizeof *x.v))))
    fz_fail("stack orders: every sample has the same frames", NULL);
  if (sa != sb && !x.full && !y.full)
    fz_fail("stack orders: both walk or both refuse", NULL);
  free(x.v);
  free(y.v);
  pcol_error err = {0};
  pcol_select all = {0};
  pcol_value_sel va, vb;
  pcol_top ta, tb;
  if (pcol_value_resolve(a, &all, NULL, &va, &err) == 0 && pcol_value_resolve(b, &all, NULL, &vb, &err) == 0 &&
      pcol_top_compute(a, &all, &va, PCOL_BY_FUNCTION, &ta, &err) == 0) {
    if (pcol_top_compute(b, &all, &vb, PCOL_BY_FUNCTION, &tb, &err)) fz_fail("stack orders: top answers for both", &err);
    if (ta.nrows != tb.nrows || ta.total != tb.total) fz_fail("stack orders: the same top", NULL);
    for (size_t i = 0; i < ta.nrows; i++) {
      const pcol_top_row *p = &ta.rows[i], *q = &tb.rows[i];
      if (p->flat != q->flat || p->cum != q->cum || p->name.len != q->name.len ||
          (p->name.len && memcmp(p->name.ptr, q->name.ptr, p->name.len)))
        fz_fail("stack orders: the same top", NULL);
    }
    pcol_top_free(&ta);
    pcol_top_free(&tb);
  }
  if (small) {
    size_t la, lb;
    char *fa = fz_fold_text(a, &la), *fb = fz_fold_text(b, &lb);
    if ((fa == NULL) != (fb == NULL) || (fa && (la != lb || memcmp(fa, fb, la))))
      fz_fail("stack orders: the same fold", NULL);
    free(fa);
    free(fb);
  }
}

/* The valid file f written by a builder with its stacks as built and in
 * preorder (PCOL_DEBUG, writer.c stack_order: a trie of a fuzzed file is
 * seldom 1/32 off the path, and seldom smaller in preorder), both valid and
 * the same profile; one file in four also from a builder whose samples
 * spilled (renumbered as they are read back): the same bytes. */
static inline void fz_stack_orders(pcol_file *f, const pcol_write_options *wo, int spill, int small) {
  pcol_error err = {0};
  const char *mode[2] = {"stacks-as-built", "stacks-preorder"};
  void *mem[2] = {NULL, NULL};
  size_t len[2] = {0, 0};
  pcol_file *g[2] = {NULL, NULL};
  pcol_builder *b = NULL;
  if (pcol_builder_new(&b, &err)) fz_fail("builder_new", &err);
  if (pcol_b_add_file(b, f, &err)) fz_fail("a valid file copies again", &err);
  for (int k = 0; k < 2; k++) {
    setenv("PCOL_DEBUG", mode[k], 1);
    int rc = pcol_builder_write_mem(b, wo, &mem[k], &len[k], &err);
    unsetenv("PCOL_DEBUG");
    if (rc) fz_fail("rewrite of a valid file in either stack order", &err);
    if (pcol_open_buffer(mem[k], len[k], NULL, &g[k], &err)) fz_fail("reopen in either stack order", &err);
    if (pcol_validate_full(g[k], &err)) fz_fail("validate in either stack order", &err);
  }
  fz_same_profile(g[0], g[1], small);
  if (spill) {
    size_t keep = pcol_sample_spill_bytes;
    pcol_builder *s = NULL;
    if (pcol_builder_new(&s, &err)) fz_fail("builder_new", &err);
    pcol_sample_spill_bytes = 1024;
    int rc = pcol_b_add_file(s, f, &err);
    pcol_sample_spill_bytes = keep;
    if (rc) fz_fail("a valid file copies into a spilling builder", &err);
    void *sm = NULL;
    size_t sl = 0;
    setenv("PCOL_DEBUG", mode[1], 1);
    rc = pcol_builder_write_mem(s, wo, &sm, &sl, &err);
    unsetenv("PCOL_DEBUG");
    if (rc) fz_fail("rewrite of a valid file from a spilling builder", &err);
    if (sl != len[1] || memcmp(sm, mem[1], sl)) fz_fail("a spilled builder writes an in-memory one's bytes", NULL);
    free(sm);
    pcol_builder_free(s);
  }
  for (int k = 0; k < 2; k++) {
    pcol_close(g[k]);
    free(mem[k]);
  }
  pcol_builder_free(b);
}

/* The pcol target: the input as is, then with its checksums made right. */
static inline int fz_pcol_one(const uint8_t *data, size_t size) {
  fz_pcol_check(data, size);
  if (size >= 64 && size <= (64u << 20)) {
    uint8_t *copy = malloc(size);
    if (!copy) return 0;
    memcpy(copy, data, size);
    fz_fix_checksums(copy, size);
    if (memcmp(copy, data, size) != 0) fz_pcol_check(copy, size);
    free(copy);
  }
  return 0;
}

static inline int fz_pcol_check(const uint8_t *data, size_t size) {
  pcol_open_options opt = {.max_decoded_bytes = FZ_MAX_DECODED};
  pcol_error err = {0};
  pcol_file *f = NULL;
  /* 1. lazy, first-use checks only (what commands without --full do) */
  if (pcol_open_buffer(data, size, &opt, &f, &err) != 0) return 0;
  (void)fz_walk(f, 1);
  pcol_close(f);
  /* 2. full validation; a file it passes must walk without any error */
  if (pcol_open_buffer(data, size, &opt, &f, &err) != 0) fz_fail("second open agrees", &err);
  int valid = pcol_validate_full(f, &err) == 0;
  int rc = fz_walk(f, 0);
  if (valid && rc) fz_fail("a fully validated file walks without errors", NULL);
  /* 3. a valid file copies into a builder and writes a valid file */
  if (valid) {
    pcol_builder *b = NULL;
    if (pcol_builder_new(&b, &err)) fz_fail("builder_new", &err);
    /* rewritten raw, and (odd sizes) as a compact zstd file (format 1.2) */
    pcol_write_options zo = {.compress_zstd = 1, .zstd_level = 1};
    if (pcol_b_add_file(b, f, &err) == 0) {
      void *mem = NULL;
      size_t len = 0;
      pcol_file *g = NULL;
      if (pcol_builder_write_mem(b, (size & 1) ? &zo : NULL, &mem, &len, &err))
        fz_fail("rewrite of a valid file", &err);
      if (pcol_open_buffer(mem, len, NULL, &g, &err)) fz_fail("reopen of a rewritten file", &err);
      if (pcol_validate_full(g, &err)) fz_fail("validate of a rewritten file", &err);
      pcol_close(g);
      free(mem);
      fz_stack_orders(f, (size & 1) ? &zo : NULL, (size & 12) == 4, fz_exports_small(f));
    }
    pcol_builder_free(b);
    /* one file in four copied twice into one builder, as `pcol merge F F`:
     * the second copy's mappings meet the first's merge keys (add_file.c,
     * pcol_b_mappings_shared: mappings of one key at other starts move to
     * the first's, ASLR) */
    if ((size & 48) == 16) {
      if (pcol_builder_new(&b, &err)) fz_fail("builder_new", &err);
      if (pcol_b_add_file(b, f, &err) == 0 && pcol_b_add_file(b, f, &err) == 0) fz_check_builder(b, (int)(size % 4));
      pcol_builder_free(b);
    }
  }
  pcol_close(f);
  return 0;
}

/* --------------------------------------------------- importer targets */
typedef int (*fz_importer)(pcol_builder *, FILE *, const char *, const pcol_import_options *,
                           pcol_error *);

/* Write, reopen, validate: what an import that succeeded must give. */
/* codec: 0 raw (format 1.0 layout), 1 LZ4, 2 zstd with transforms, compact
 * (format 1.2; level 1, fast), 3 raw with encoded columns (format 1.3, the
 * default writer's), 4 zstd as `pack --compress zstd` writes it (format 1.4:
 * samples columns of >= 65536 rows in zstd blocks; level 1) */
#define FZ_WRITE_OPTIONS(codec)                                                            \
  {.compress_lz4 = (codec) == 1, .compress_zstd = (codec) == 2 || (codec) == 4,            \
   .zstd_level = 1, .format_version = (codec) == 3 ? 3 : (codec) == 4 ? 4 : 2}
static inline void fz_check_builder(pcol_builder *b, int codec) {
  pcol_error err = {0};
  pcol_write_options wo = FZ_WRITE_OPTIONS(codec);
  void *mem = NULL;
  size_t len = 0;
  pcol_file *f = NULL;
  if (pcol_builder_write_mem(b, &wo, &mem, &len, &err)) fz_fail("write after a successful import", &err);
  if (pcol_open_buffer(mem, len, NULL, &f, &err)) fz_fail("open after a successful import", &err);
  if (pcol_validate_full(f, &err)) fz_fail("validate_full after a successful import", &err);
  if (fz_walk(f, 1)) fz_fail("walk after a successful import", NULL);
  pcol_close(f);
  free(mem);
  /* the image a view of the input reads (pcol_open_any: columns plain) */
  if (pcol_builder_write_image(b, &mem, &len, &err)) fz_fail("image after a successful import", &err);
  if (pcol_open_buffer(mem, len, NULL, &f, &err)) fz_fail("open of an import's image", &err);
  if (pcol_validate_full(f, &err)) fz_fail("validate_full of an import's image", &err);
  if (fz_walk(f, 1)) fz_fail("walk of an import's image", NULL);
  pcol_close(f);
  free(mem);
}

/* The same from a stream of the input (closed here): `size` is the input's. */
static inline int fz_import_stream(fz_importer imp, FILE *in, size_t size, int coalesce) {
  pcol_builder *b = NULL;
  pcol_error err = {0};
  if (pcol_builder_new(&b, &err)) fz_fail("builder_new", &err);
  pcol_import_options io = {.max_input_bytes = FZ_MAX_INPUT};
  int rc = imp(b, in, "fuzz-input", &io, &err);
  fclose(in);
  if (rc == 0 && coalesce) rc = pcol_builder_coalesce(b, &err); /* as pack --coalesce */
  if (rc == 0) fz_check_builder(b, (int)(size % 4));
  else if (err.message[0] == 0 && rc != PCOL_EUNSUPPORTED)
    fz_fail("a failed import explains itself", &err);
  pcol_builder_free(b);
  return 0;
}

static inline FILE *fz_memstream(const uint8_t *data, size_t size) {
  static const char empty[1];
  FILE *in = fmemopen(size ? (void *)data : (void *)empty, size ? size : 1, "rb");
  if (in && !size) fgetc(in); /* fmemopen cannot be empty: consume the one byte */
  return in;
}

/* Two profiles in one input: the bytes before FZ_NEXT and those after it
 * (libFuzzer learns the string from the search, -use_memmem) are imported
 * one after the other into one builder, as `pcol merge A B` reads two
 * files: the second profile's rows shared with the first's by their keys
 * (a mapping by go's merge key, at another start: pcol_b_mappings_shared's
 * shift, ASLR), its sources after the first's.  NULL: no such string. */
#define FZ_NEXT "\xffpcol-next\xff"
#define FZ_NEXT_LEN (sizeof FZ_NEXT - 1)
static inline const uint8_t *fz_next_at(const uint8_t *data, size_t size) {
  for (size_t i = 0; size >= FZ_NEXT_LEN && i <= size - FZ_NEXT_LEN; i++) {
    const uint8_t *p = memchr(data + i, 0xff, size - FZ_NEXT_LEN + 1 - i);
    if (!p) break;
    if (!memcmp(p, FZ_NEXT, FZ_NEXT_LEN)) return p;
    i = (size_t)(p - data);
  }
  return NULL;
}

/* One input in eight is imported twice into one builder: the second
 * profile shares the first's rows (strings, functions, mappings:
 * pcol_b_mappings_shared, locations, stacks), as in a merge of both.  An
 * input holding FZ_NEXT: its two parts, then coalesced when asked. */
static inline int fz_import_one(fz_importer imp, const uint8_t *data, size_t size, int coalesce) {
  /* the input's first 4 KiB as pcol_import_path detects its format (perf
   * script or collapsed stacks, lib/convert/detect.c): bounds only */
  (void)pcol_detect_format(data, size < 4096 ? size : 4096);
  const uint8_t *next = fz_next_at(data, size);
  if (!next && (size & 28) != 16) {
    FILE *in = fz_memstream(data, size);
    return in ? fz_import_stream(imp, in, size, coalesce) : 0;
  }
  const uint8_t *part[2] = {data, data};
  size_t n[2] = {size, size};
  if (next) {
    n[0] = (size_t)(next - data);
    part[1] = next + FZ_NEXT_LEN;
    n[1] = size - n[0] - FZ_NEXT_LEN;
  }
  pcol_builder *b = NULL;
  pcol_error err = {0};
  if (pcol_builder_new(&b, &err)) fz_fail("builder_new", &err);
  pcol_import_options io = {.max_input_bytes = FZ_MAX_INPUT};
  int rc = 0;
  for (int k = 0; k < 2 && rc == 0; k++) {
    FILE *in = fz_memstream(part[k], n[k]);
    if (!in) break;
    rc = imp(b, in, "fuzz-input", &io, &err);
    fclose(in);
  }
  if (rc == 0 && next && coalesce) rc = pcol_builder_coalesce(b, &err); /* as pack A B --coalesce */
  if (rc == 0) fz_check_builder(b, (int)(size % 4));
  else if (err.message[0] == 0 && rc != PCOL_EUNSUPPORTED)
    fz_fail("a failed import explains itself", &err);
  pcol_builder_free(b);
  return 0;
}

/* The collapsed target: one input in two read as pcol_import_path reads a
 * text it detected as collapsed stacks (a text mostly of other lines is
 * refused, collapsed_import.c), the others as --from collapsed reads it. */
static inline int fz_import_collapsed_detected(pcol_builder *b, FILE *in, const char *name,
                                               const pcol_import_options *opt, pcol_error *err) {
  return pcol_import_collapsed_as(b, in, name, opt, 1, err);
}
static inline int fz_collapsed_one(const uint8_t *data, size_t size) {
  return fz_import_one((size & 8) ? fz_import_collapsed_detected : pcol_import_collapsed, data, size, (size & 2) != 0);
}

/* --------------------------------------------------- synthetic profile */
/* Fills b with `n` samples over two sources and at least one row in every
 * table (strings with NULs and empty strings, inline frames, labels,
 * values, verbatim text, models).  Returns 0 or a PCOL_E* code. */
static inline int fz_fill_builder(pcol_builder *b, uint32_t n) {
  int rc = 0;
#define FZ_TRY(x)                \
  do {                           \
    if ((rc = (x)) != 0) return rc; \
  } while (0)
  uint32_t s1, s2, e, vt1, vt2, ty, un, fname[8], loc[8], mp;
  FZ_TRY(pcol_b_source(b, "rprof", "a.out", 1700000000, &s1, NULL));
  FZ_TRY(pcol_b_source(b, "pprof", "b.pb.gz", PCOL_NA_I64, &s2, NULL));
  FZ_TRY(pcol_b_meta_str(b, 0, "pcol.created_by", "fuzz_common.h", NULL));
  FZ_TRY(pcol_b_meta_str(b, s1, "rprof.header", "sample.interval=20000", NULL));
  FZ_TRY(pcol_b_meta(b, s2, "pprof.nul", "a\0b", 3, NULL));
  FZ_TRY(pcol_b_cstr(b, "", &e, NULL));
  FZ_TRY(pcol_b_cstr(b, "samples", &ty, NULL));
  FZ_TRY(pcol_b_cstr(b, "count", &un, NULL));
  FZ_TRY(pcol_b_value_type(b, ty, un, &vt1, NULL));
  FZ_TRY(pcol_b_cstr(b, "cpu", &ty, NULL));
  FZ_TRY(pcol_b_cstr(b, "nanoseconds", &un, NULL));
  FZ_TRY(pcol_b_value_type(b, ty, un, &vt2, NULL));
  FZ_TRY(pcol_b_source_value_type(b, s2, vt1, NULL));
  FZ_TRY(pcol_b_source_value_type(b, s2, vt2, NULL));
  pcol_mapping_row m = {0x400000, 0x500000, 0x1000, 0, 0, PCOL_MAP_HAS_FUNCTIONS};
  FZ_TRY(pcol_b_cstr(b, "/usr/bin/prog", &m.filename, NULL));
  FZ_TRY(pcol_b_cstr(b, "b1d", &m.build_id, NULL));
  FZ_TRY(pcol_b_mapping(b, &m, 0, &mp, NULL));
  for (int i = 0; i < 8; i++) {
    char nm[32];
    snprintf(nm, sizeof nm, "fn_%d", i);
    pcol_function_row fr = {0, 0, 0, i % 2 ? 10 * i : PCOL_NA_I64};
    FZ_TRY(pcol_b_cstr(b, nm, &fr.name, NULL));
    fr.system_name = i % 3 ? fr.name : e;
    FZ_TRY(pcol_b_cstr(b, i % 2 ? "file.R" : "lib.c", &fr.filename, NULL));
    FZ_TRY(pcol_b_function(b, &fr, &fname[i], NULL));
  }
  for (int i = 0; i < 8; i++) {
    pcol_line_row ln[2] = {{fname[i], 100 + i, i % 2 ? 3 : PCOL_NA_I64},
                           {fname[(i + 1) % 8], 200 + i, PCOL_NA_I64}};
    FZ_TRY(pcol_b_location(b, i % 2 ? mp : 0, 0x400100 + 16u * (unsigned)i, (uint8_t)(i == 3),
                           ln, i % 3 == 0 ? 2 : 1, &loc[i], NULL));
  }
  pcol_label_row lab[2] = {{0, 0, 0, 0}, {0, 0, 4096, 0}};
  FZ_TRY(pcol_b_cstr(b, "thread", &lab[0].key, NULL));
  FZ_TRY(pcol_b_cstr(b, "main", &lab[0].str, NULL));
  FZ_TRY(pcol_b_cstr(b, "bytes", &lab[1].key, NULL));
  FZ_TRY(pcol_b_cstr(b, "byte", &lab[1].num_unit, NULL));
  uint32_t ls1, ls2;
  FZ_TRY(pcol_b_labelset(b, lab, 1, &ls1, NULL));
  FZ_TRY(pcol_b_labelset(b, lab, 2, &ls2, NULL));
  for (uint32_t i = 0; i < n; i++) {
    uint32_t chain[8], depth = 1 + i % 6, st;
    for (uint32_t d = 0; d < depth; d++) chain[d] = loc[(i + d * 3) % 8];
    FZ_TRY(pcol_b_stack(b, chain, depth, &st, NULL));
    int second = i >= n / 2;
    pcol_sample_row sr = {second ? s2 : s1,
                          second ? PCOL_NA_I64 : (int64_t)i * 20000000,
                          i % 5 == 0 ? 40000000 : 0,
                          1 + (i % 7 == 0),
                          i % 4 ? (int64_t)i * 1000 : PCOL_NA_I64,
                          i % 9 == 8 ? 0 : st,
                          i % 3 == 0 ? 0 : (i % 3 == 1 ? ls1 : ls2)};
    pcol_value_row vr[2] = {{vt1, 1}, {vt2, (int64_t)i * 10000000 - 5}};
    uint32_t sid;
    FZ_TRY(pcol_b_sample(b, &sr, vr, second ? 2 : 0, &sid, NULL));
    if (i % 11 == 5) FZ_TRY(pcol_b_sample_text(b, sid, "\"fn_1\" \"fn_2\" ", 14, NULL));
    if (i % 13 == 0) FZ_TRY(pcol_b_text_line(b, sr.source_id, sid, "sample.interval=20000", 21, NULL));
  }
  FZ_TRY(pcol_b_text_line(b, s1, pcol_b_sample_count(b) + 1, "trailer", 7, NULL));
  pcol_model_row mr = {s1, 0, 0, 0, 0, 0.97, 1.0, 1000.0};
  FZ_TRY(pcol_b_cstr(b, "uid:1", &mr.uid, NULL));
  FZ_TRY(pcol_b_cstr(b, "linear", &mr.model, NULL));
  FZ_TRY(pcol_b_cstr(b, "full", &mr.method, NULL));
  FZ_TRY(pcol_b_cstr(b, "{\"b0\": 1.5, \"b1\": 0.25}", &mr.coeffs, NULL));
  FZ_TRY(pcol_b_model(b, &mr, NULL));
#undef FZ_TRY
  return 0;
}

/* Collapsed-stack seeds (Brendan Gregg's folded format and variants). */
static const char *const fz_collapsed_seeds[] = {
    "main;foo;bar 10\nmain;foo 3\nmain;baz;bar 7\n",
    "main;a 1\r\nmain;b 2\r\n",
    "# comment\nx 1\n\ny;z 0\nx 2.5\n",
    "java;[unknown];libc.so`memcpy 5\nfunc with spaces;f2 12\n",
    "a;b;c;d;e;f;g;h;i;j;k;l;m;n;o;p 1000000000000\n",
    "noweight\n;leading 1\ntrailing; 1\n",
};
#define FZ_NCOLLAPSED (sizeof fz_collapsed_seeds / sizeof fz_collapsed_seeds[0])

/* pcol_select_iter's callback that counts the selected rows in *(uint64_t *)ctx */
static inline int fz_count_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)row, (void)num, (void)den;
  ++*(uint64_t *)ctx;
  return 0;
}

/* A synthetic file in malloc'd memory (free() it). */
static inline int fz_make_file(uint32_t nsamples, int codec, void **mem, size_t *len) {
  pcol_builder *b = NULL;
  pcol_error err = {0};
  int rc = pcol_builder_new(&b, &err);
  if (!rc) rc = fz_fill_builder(b, nsamples);
  pcol_write_options wo = FZ_WRITE_OPTIONS(codec);
  if (!rc) rc = pcol_builder_write_mem(b, &wo, mem, len, &err);
  pcol_builder_free(b);
  return rc;
}

#endif
