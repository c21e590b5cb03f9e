/* clickhouse_export.c — the tables of a pcol file as ClickHouse Native
 * column blocks, one stream per table, and the schema that receives them
 * (doc/clickhouse.md).
 *
 * Every row carries `source_key`, 16 bytes derived from the content of its
 * source alone (two SipHash-1-3 hashes under fixed keys, so every machine
 * computes the same key), which makes keys unique across files and machines
 * and a profile loaded twice the same rows (the tables are
 * ReplacingMergeTree, ordered by their row keys).  Ids inside a source
 * (stacks, locations, functions, mappings, label sets, samples) are
 * renumbered per source in order of first use, so a source gets the same
 * rows whether it is exported alone or inside a merged file.
 *
 * Each source is generated twice: once into the hash (every column but the
 * key and the source's uri: a profile under another name is the same
 * profile), then into the outputs.  Blocks hold at most CH_BLOCK_ROWS rows
 * and about CH_BLOCK_BYTES bytes; what is written (and, for the hash pass,
 * what would be) counts against the export budget (stream.h).
 *
 * sample_values holds the stored values, and one derived value: an Rprof
 * memory profile's rprof.alloc/bytes (THE export rule, lib/core/xvalues.c,
 * what `pcol top --value rprof.alloc` adds up), a row of idx 0 per sample.
 * It is a function of the stored values, so it stays out of the hash: a
 * source keeps the key an export without these rows gave it. */
#include "frames.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "bytes.h"    /* pcol_rd64, pcol_wr64 */
#include "buf.h"      /* pcol_buf, pcol_buf_free, pcol_buf_append, ... */
#include "hash.h"     /* pcol_hs_add, pcol_hs_init_fixed, pcol_hs_end_with, ... */
#include "reader.h"   /* pcol_source_rows */
#include "stream.h"   /* pcol_budget_exceeded, pcol_budget_refuse, pcol_budget, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "keys.h"     /* PCOL_VALUE_RPROF_ALLOC */
#include "xvalues.h"  /* PCOL_XV_MAX, pcol_xtype, pcol_xvalue, ... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CH_BLOCK_ROWS 65536
#define CH_BLOCK_BYTES ((size_t)1 << 20)

/* ------------------------------------------------------------ schema */

typedef enum { C_KEY, C_DAY, C_U8, C_U32, C_U64, C_I64, C_NI64, C_NSTR, C_AU32, C_ASTR } ckind;

static const char *const kind_type[] = {"FixedString(16)", "Date", "UInt8", "UInt32", "UInt64",
                                        "Int64", "Nullable(Int64)", "Nullable(String)",
                                        "Array(UInt32)", "Array(String)"};

#define CH_MAXCOLS 10
typedef struct chcoldef {
  const char *name;
  ckind kind;
  int nohash; /* not part of the content key (the key itself, the uri) */
} chcoldef;

typedef struct chtabdef {
  const char *name;
  const char *order; /* ORDER BY: the row key (ReplacingMergeTree keeps one row per key) */
  int partitioned;   /* PARTITION BY toYYYYMM(day) */
  chcoldef cols[CH_MAXCOLS];
} chtabdef;

#define KEY {"source_key", C_KEY, 1}
/* In load order: what a sample refers to first, the source last. */
static const chtabdef tabs[PCOL_CH_NTABLES] = {
    {"meta", "(source_key, row)", 0,
     {KEY, {"row", C_U32, 0}, {"key", C_NSTR, 0}, {"value", C_NSTR, 0}}},
    {"value_types", "(source_key, idx)", 0,
     {KEY, {"idx", C_U32, 0}, {"type", C_NSTR, 0}, {"unit", C_NSTR, 0}}},
    {"functions", "(source_key, function_id)", 0,
     {KEY, {"function_id", C_U32, 0}, {"name", C_NSTR, 0}, {"system_name", C_NSTR, 0},
      {"filename", C_NSTR, 0}, {"start_line", C_NI64, 0}}},
    {"mappings", "(source_key, mapping_id)", 0,
     {KEY, {"mapping_id", C_U32, 0}, {"memory_start", C_U64, 0}, {"memory_limit", C_U64, 0},
      {"file_offset", C_U64, 0}, {"filename", C_NSTR, 0}, {"build_id", C_NSTR, 0},
      {"flags", C_U8, 0}}},
    {"locations", "(source_key, location_id)", 0,
     {KEY, {"location_id", C_U32, 0}, {"mapping_id", C_U32, 0}, {"address", C_U64, 0},
      {"is_folded", C_U8, 0}, {"frames", C_ASTR, 0}}},
    {"location_lines", "(source_key, location_id, depth)", 0,
     {KEY, {"location_id", C_U32, 0}, {"depth", C_U32, 0}, {"function_id", C_U32, 0},
      {"line", C_NI64, 0}, {"column", C_NI64, 0}}},
    {"stacks", "(source_key, stack_id)", 0,
     {KEY, {"stack_id", C_U32, 0}, {"parent_id", C_U32, 0}, {"location_id", C_U32, 0},
      {"locations", C_AU32, 0}}},
    {"labels", "(source_key, labelset_id, idx)", 0,
     {KEY, {"labelset_id", C_U32, 0}, {"idx", C_U32, 0}, {"key", C_NSTR, 0}, {"str", C_NSTR, 0},
      {"num", C_I64, 0}, {"num_unit", C_NSTR, 0}}},
    {"sample_values", "(day, source_key, sample_id, idx)", 1,
     {{"day", C_DAY, 0}, KEY, {"sample_id", C_U32, 0}, {"idx", C_U32, 0}, {"type", C_NSTR, 0},
      {"unit", C_NSTR, 0}, {"value", C_I64, 0}}},
    {"samples", "(day, source_key, sample_id)", 1,
     {{"day", C_DAY, 0}, KEY, {"sample_id", C_U32, 0}, {"time_ns", C_NI64, 0},
      {"duration_ns", C_I64, 0}, {"weight", C_I64, 0}, {"cpu_delta_ns", C_NI64, 0},
      {"stack_id", C_U32, 0}, {"labelset_id", C_U32, 0}}},
    {"sources", "source_key", 0,
     {KEY, {"day", C_DAY, 0}, {"source_type", C_NSTR, 0}, {"source_uri", C_NSTR, 1},
      {"source_timestamp", C_NI64, 0}, {"sample_count", C_U64, 0}}},
};

static size_t ncols(const chtabdef *t) {
  size_t n = 0;
  while (n < CH_MAXCOLS && t->cols[n].name) n++;
  return n;
}

const char *pcol_clickhouse_table(unsigned t) { return t < PCOL_CH_NTABLES ? tabs[t].name : NULL; }

/* Views on each server over its local tables (a source's rows are on one
 * shard, so they see whole sources): per stack, what `pcol top --by
 * function` and `pcol fold` need, since SQL cannot walk a stack's parents.
 * A function without a name is skipped (variant 0: every selected source is
 * Rprof) or a frame named after its location's mapping (variant 1), as in
 * lib/query/top.c; the query picks the variant (doc/clickhouse.md).  A key
 * is a pair (name, identity): the identity keeps apart the frames of one
 * printed name that top.c's frame_identity keeps apart (a frame without a
 * function name in variant 1, a function named '' in both: its function's
 * start line and its mapping's file, "LINE:FILE"; '' for every named
 * frame, so a function named "<unknown>" is not a nameless frame).
 *
 * A key is one String, the identity with '\' and NUL escaped ("\\", "\0"),
 * a NUL, then the name as it is: the first NUL ends the identity, so the
 * name is what follows it, and two keys are equal when their pairs are.
 * Not a Tuple: ClickHouse 18.16 re-attaches a view at start-up with an
 * Array(Tuple) column flattened as Nested (stack_keys1.1, .2), and every
 * query naming the column failed after a restart (user review 9, F5;
 * tests/interop/t_clickhouse.sh restarts its servers).  Whether a stack has
 * a key at all is whether path_keys is empty (flat_key0/1 is then '',
 * which no key is). */
static const char views_sql[] =
    "CREATE VIEW IF NOT EXISTS pcol_location_keys_local AS\n"
    "SELECT source_key, location_id,\n"
    /* the mapping's name as frames.c names it, byte for byte (no regex
     * over the path: ClickHouse reads it as UTF-8, which a path need not
     * be): the last element after '/' or '\\', trailing ones dropped */
    "  if(ifNull(map_file, '') = '', '<unknown>', concat('[', if(mf_r = '', '/',\n"
    "     reverse(if(mf_k = 0, mf_r, substring(mf_r, 1, mf_k - 1)))), ']')) AS map_key,\n"
    "  n_lines = 0 OR n_fn0 > 0 AS unsymbolized,\n"
    /* variant 0: a function named '' is a frame of its own, keyed as
     * variant 1 keys a nameless one (top.c mapping_key: its identity, not
     * the name it prints, so it is not a function named "<unknown>") */
    "  arrayConcat(arrayMap(n -> concat('\\0', n), if(empty(named) AND empty(empty_starts0) AND unsymbolized,\n"
    "     [map_key], named)), arrayMap(s -> concat(toString(s), ':', mf_e, '\\0', map_key), empty_starts0)) AS frame_keys0,\n"
    "  if(n_empty0 > 0 AND (n_named = 0 OR empty_depth0 < named_depth),\n"
    "     concat(toString(first_empty_start0), ':', mf_e, '\\0', map_key),\n"
    "     concat('\\0', if(n_named = 0 AND unsymbolized, map_key, first_named))) AS first_key0,\n"
    "  arrayConcat(arrayMap(n -> concat('\\0', n), named),\n"
    "     arrayMap(s -> concat(toString(s), ':', mf_e, '\\0', map_key),\n"
    "              if(n_lines = 0, [toInt64(0)], unnamed_starts))) AS frame_keys1,\n"
    "  if(n_unnamed > 0 AND (n_named = 0 OR unnamed_depth < named_depth) OR n_lines = 0,\n"
    "     concat(toString(first_start), ':', mf_e, '\\0', map_key),\n"
    "     concat('\\0', first_named)) AS first_key1,\n"
    "  frames\n"
    "FROM (SELECT source_key, location_id, map_file, frames,\n"
    "        replaceRegexpOne(reverse(ifNull(map_file, '')), '^[/\\\\\\\\]+', '') AS mf_r,\n"
    "        position(mf_r, '/') AS mf_p, position(mf_r, '\\\\') AS mf_q,\n"
    "        if(mf_p = 0, mf_q, if(mf_q = 0, mf_p, least(mf_p, mf_q))) AS mf_k,\n"
    /* the file in an identity, '\' and NUL escaped */
    "        replaceAll(replaceAll(ifNull(map_file, ''), '\\\\', '\\\\\\\\'), '\\0', '\\\\0') AS mf_e\n"
    "      FROM (SELECT source_key, location_id, filename AS map_file, frames FROM pcol_locations_local\n"
    "      ANY LEFT JOIN (SELECT source_key, mapping_id, filename FROM pcol_mappings_local)\n"
    "      USING (source_key, mapping_id)))\n"
    "ANY LEFT JOIN\n"
    "  (SELECT source_key, location_id, count() AS n_lines, countIf(function_id = 0) AS n_fn0,\n"
    "     countIf(isNotNull(name)) AS n_named, countIf(isNull(name)) AS n_unnamed,\n"
    "     minIf(depth, isNotNull(name)) AS named_depth, minIf(depth, isNull(name)) AS unnamed_depth,\n"
    "     argMinIf(assumeNotNull(name), depth, isNotNull(name)) AS first_named,\n"
    "     groupUniqArrayIf(assumeNotNull(name), isNotNull(name)) AS named,\n"
    /* variant 0 (Rprof): the lines of a function named '' (a function
     * with NA name, a place, is skipped) */
    "     countIf(empty0) AS n_empty0, minIf(depth, empty0) AS empty_depth0,\n"
    "     groupUniqArrayIf(ifNull(start_line, toInt64(0)), empty0) AS empty_starts0,\n"
    "     argMinIf(ifNull(start_line, toInt64(0)), depth, empty0) AS first_empty_start0,\n"
    /* a nameless line's start line (0: none or NA, as top.c's fn_start_line) */
    "     groupUniqArrayIf(ifNull(start_line, toInt64(0)), isNull(name)) AS unnamed_starts,\n"
    "     argMinIf(ifNull(start_line, toInt64(0)), depth, isNull(name)) AS first_start\n"
    "   FROM pcol_location_lines_local\n"
    /* a function named '' is named as one of none (frames.h pcol_frame_fn_empty):
     * after its mapping, a frame of its own (both variants) */
    "   ANY LEFT JOIN (SELECT source_key, function_id, nullIf(fn_name, '') AS name,\n"
    "        ifNull(fn_name = '', 0) AS empty0, start_line\n"
    "      FROM (SELECT source_key, function_id, name AS fn_name, start_line FROM pcol_functions_local))\n"
    "   USING (source_key, function_id)\n"
    "   GROUP BY source_key, location_id)\n"
    "USING (source_key, location_id);\n"
    "CREATE VIEW IF NOT EXISTS pcol_stack_keys_local AS\n"
    "SELECT source_key, stack_id,\n"
    "  argMinIf(first_key0, pos, notEmpty(frame_keys0)) AS flat_key0,\n"
    "  groupUniqArrayArray(frame_keys0) AS path_keys0,\n"
    "  argMinIf(first_key1, pos, notEmpty(frame_keys1)) AS flat_key1,\n"
    "  groupUniqArrayArray(frame_keys1) AS path_keys1,\n"
    "  arrayStringConcat(arrayMap(x -> arrayStringConcat(arrayReverse(arrayMap(n ->\n"
    "      replaceAll(replaceAll(replaceAll(replaceAll(n, ';', '_'), '\\n', '_'), '\\r', '_'), '\\0', '_'),\n"
    "      x.2)), ';'), arrayReverse(arraySort(x -> x.1, groupArray((pos, frames))))), ';') AS folded\n"
    "FROM (SELECT source_key, stack_id, location_id, pos FROM pcol_stacks_local FINAL\n"
    "      ARRAY JOIN locations AS location_id, arrayEnumerate(locations) AS pos)\n"
    "ANY LEFT JOIN pcol_location_keys_local USING (source_key, location_id)\n"
    "GROUP BY source_key, stack_id;\n";

int pcol_clickhouse_schema(FILE *out, const char *cluster, pcol_error *err) {
  if (!cluster || !*cluster) cluster = "pcol";
  for (const char *c = cluster; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          *c == '_'))
      return pcol_error_set(err, PCOL_EINVAL,
                            "clickhouse: cluster name '%s': only letters, digits and '_'", cluster);
  fprintf(out, "-- pcol tables for ClickHouse (doc/clickhouse.md), written by pcol %s.\n"
               "-- Run on every server of cluster '%s': the *_local tables hold a shard's rows,\n"
               "-- the Distributed tables spread sources over the shards by source_key.\n",
          PCOL_VERSION_STRING, cluster);
  for (unsigned t = 0; t < PCOL_CH_NTABLES; t++) {
    const chtabdef *d = &tabs[t];
    fprintf(out, "CREATE TABLE IF NOT EXISTS pcol_%s_local (", d->name);
    for (size_t c = 0; c < ncols(d); c++)
      fprintf(out, "%s`%s` %s", c ? ", " : "", d->cols[c].name, kind_type[d->cols[c].kind]);
    fprintf(out, ")\n  ENGINE = ReplacingMergeTree()%s ORDER BY %s;\n",
            d->partitioned ? " PARTITION BY toYYYYMM(day)" : "", d->order);
    fprintf(out,
            "CREATE TABLE IF NOT EXISTS pcol_%s AS pcol_%s_local\n"
            "  ENGINE = Distributed(%s, currentDatabase(), pcol_%s_local, sipHash64(source_key));\n",
            d->name, d->name, cluster, d->name);
  }
  fputs(views_sql, out);
  return ferror(out) ? pcol_error_set(err, PCOL_EIO, "clickhouse: write error") : PCOL_OK;
}

/* ----------------------------------------------------- content hash */

/* Two SipHash-1-3 states under fixed keys: the 128-bit source key. */
typedef struct chash {
  pcol_hstate h[2];
  uint8_t tail[8];
  size_t ntail;
  uint64_t len;
} chash;

static void chash_init(chash *c) {
  pcol_hs_init_fixed(&c->h[0], 0x70636f6c2e636831ULL, 0x736f757263652d31ULL); /* "pcol.ch1" "source-1" */
  pcol_hs_init_fixed(&c->h[1], 0x70636f6c2e636832ULL, 0x736f757263652d32ULL);
  c->ntail = 0;
  c->len = 0;
}

static inline void chash_word(chash *c, uint64_t w) {
  pcol_hs_add(&c->h[0], w);
  pcol_hs_add(&c->h[1], w);
}

static void chash_add(chash *c, const void *p, size_t n) {
  const uint8_t *s = p;
  c->len += n;
  while (c->ntail && n) {
    c->tail[c->ntail++] = *s++, n--;
    if (c->ntail == 8) chash_word(c, pcol_rd64(c->tail)), c->ntail = 0;
  }
  for (; n >= 8; n -= 8, s += 8) chash_word(c, pcol_rd64(s));
  while (n--) c->tail[c->ntail++] = *s++;
}

static void chash_end(chash *c, uint8_t key[16]) {
  uint64_t b = c->len << 56;
  for (size_t i = 0; i < c->ntail; i++) b |= (uint64_t)c->tail[i] << (8 * i);
  for (int k = 0; k < 2; k++) pcol_wr64(key + 8 * k, pcol_hs_end_with(&c->h[k], b));
}

/* ------------------------------------------------------ block builder */

typedef struct chblk {
  const chtabdef *def;
  size_t nc, rows;
  pcol_buf data[CH_MAXCOLS], aux[CH_MAXCOLS]; /* aux: null map, or array end offsets */
  uint64_t elems[CH_MAXCOLS];                 /* array elements so far in the block */
} chblk;

typedef struct chx {
  pcol_file *f;
  pcol_error *err;
  pcol_budget bud;
  int hashing;          /* 1: generate into the hash, 0: into outs */
  uint64_t hashed;      /* bytes the hash pass would write for this source */
  chash h;
  FILE *const *outs;
  chblk blk;
  pcol_frames fr;
  pcol_nameless_rule srule; /* the source's nameless rule (fr.rule) */
  pcol_buf scratch;
  uint8_t key[16];
  uint16_t day;
  uint32_t src;
  pcol_view s_src, s_time, s_dur, s_w, s_cpu, s_stack, s_ls, s_voff, v_type, v_val, vt_type,
      vt_unit, svt_src, svt_vt, m_key, m_val, m_src, so_type, so_uri, so_ts, fn_sys, fn_line,
      map_start, map_limit, map_off, map_file, map_bid, map_flags, loc_map, loc_flags, ln_col,
      st_parent, st_loc, ls_off, lb_key, lb_str, lb_num, lb_unit;
  uint64_t nsamples, nstacks, nmap, nls, nlabels, nvalues, nvt;
  /* the current source's samples are among rows [r0, r1): its run when the
   * samples are in source order (spec F5, what `pcol export` validates),
   * else every row (a scan of every sample per source was quadratic in the
   * number of sources: 80,000 sources took 39 s) */
  uint64_t r0, r1;
  int sorted;
  /* per source: old id -> new id (0 = not used by the source) and back */
  uint32_t *st_new, *loc_new, *fn_new, *map_new, *ls_new;
  uint32_t *st_old, *loc_old, *fn_old, *map_old, *ls_old;
  uint8_t *st_named; /* per old stack id: a sample of the source names it */
  size_t n_st, n_loc, n_fn, n_map, n_ls;
  uint32_t *path; /* a stack's path while it is numbered */
  size_t npath, cappath;
  uint64_t source_samples;
  pcol_rtime rt;    /* the time rule's segments, which rprof.alloc needs */
  pcol_xvalues xv;  /* THE export rule: which sources derive rprof.alloc */
  int ralloc;       /* the current source exports rprof.alloc */
  pcol_xtype *xt;   /* a source's export values (room: every source value type + PCOL_XV_MAX) */
  size_t capxt;
  /* the source's value types as value_types numbers them (idx 1..n_svt:
   * svt_vt[idx]), and per type its first idx and then the next of the same
   * type (a pprof profile may name one type twice); svt_cur: a sample's
   * next idx of each type while its values are numbered */
  uint32_t *svt_list, *svt_next, *svt_first, *svt_cur;
  size_t n_svt;
} chx;

static int oom(chx *x) { return pcol_oom(x->err); }

/* Bytes out: to the hash or to the table's stream, within the budget. */
static inline int emit(chx *x, unsigned t, const void *p, size_t n) {
  if (!n) return PCOL_OK;
  if (x->hashing) {
    x->hashed += n;
    if (pcol_budget_exceeded(&x->bud, x->hashed)) return pcol_budget_refuse(&x->bud, x->err);
    chash_add(&x->h, p, n);
    return PCOL_OK;
  }
  if (pcol_budget_exceeded(&x->bud, n)) return pcol_budget_refuse(&x->bud, x->err);
  if (fwrite(p, 1, n, x->outs[t]) != n)
    return pcol_error_set(x->err, PCOL_EIO, "clickhouse: write error (table %s)", tabs[t].name);
  x->bud.written += n;
  return PCOL_OK;
}

static size_t varint(uint8_t *b, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) b[n++] = (uint8_t)(v | 0x80), v >>= 7;
  b[n++] = (uint8_t)v;
  return n;
}

static int emit_varint(chx *x, unsigned t, uint64_t v) {
  uint8_t b[10];
  return emit(x, t, b, varint(b, v));
}

static int emit_name(chx *x, unsigned t, const char *s) {
  size_t n = strlen(s);
  int rc = emit_varint(x, t, n);
  return rc ? rc : emit(x, t, s, n);
}

static int hashed_col(const chx *x, const chcoldef *c) { return !(x->hashing && c->nohash); }

/* Writes the block (if it has rows) and empties it. */
static int flush(chx *x, unsigned t) {
  chblk *b = &x->blk;
  int rc = PCOL_OK;
  if (b->rows) {
    size_t nc = 0;
    for (size_t c = 0; c < b->nc; c++) nc += hashed_col(x, &b->def->cols[c]);
    if ((rc = emit_varint(x, t, nc)) || (rc = emit_varint(x, t, b->rows))) return rc;
    for (size_t c = 0; c < b->nc && !rc; c++) {
      const chcoldef *d = &b->def->cols[c];
      if (!hashed_col(x, d)) continue;
      if ((rc = emit_name(x, t, d->name)) || (rc = emit_name(x, t, kind_type[d->kind]))) return rc;
      if (d->kind == C_KEY) {
        for (size_t r = 0; r < b->rows && !rc; r++) rc = emit(x, t, x->key, 16);
        continue;
      }
      rc = emit(x, t, b->aux[c].data, b->aux[c].len);
      if (!rc) rc = emit(x, t, b->data[c].data, b->data[c].len);
    }
  }
  for (size_t c = 0; c < b->nc; c++) b->data[c].len = b->aux[c].len = 0, b->elems[c] = 0;
  b->rows = 0;
  return rc;
}

static void blk_begin(chx *x, unsigned t) {
  x->blk.def = &tabs[t];
  x->blk.nc = ncols(&tabs[t]);
  x->blk.rows = 0;
}

/* The row just filled is complete: flush when the block is full. */
static inline int end_row(chx *x, unsigned t) {
  chblk *b = &x->blk;
  b->rows++;
  size_t bytes = 0;
  for (size_t c = 0; c < b->nc; c++) bytes += b->data[c].len + b->aux[c].len;
  return b->rows >= CH_BLOCK_ROWS || bytes >= CH_BLOCK_BYTES ? flush(x, t) : PCOL_OK;
}

#define PUSH(x, buf, T, v) (PCOL_BUF_PUSH((buf), T, (v)) ? oom(x) : PCOL_OK)

static inline int put_u8(chx *x, size_t c, uint8_t v) { return PUSH(x, &x->blk.data[c], uint8_t, v); }
static inline int put_u16(chx *x, size_t c, uint16_t v) { return PUSH(x, &x->blk.data[c], uint16_t, v); }
static inline int put_u32(chx *x, size_t c, uint32_t v) { return PUSH(x, &x->blk.data[c], uint32_t, v); }
static inline int put_u64(chx *x, size_t c, uint64_t v) { return PUSH(x, &x->blk.data[c], uint64_t, v); }
static inline int put_i64(chx *x, size_t c, int64_t v) { return PUSH(x, &x->blk.data[c], int64_t, v); }

/* Nullable(Int64): NA (INT64_MIN) is NULL. */
static inline int put_ni64(chx *x, size_t c, int64_t v) {
  int na = v == PCOL_NA_I64;
  int rc = PUSH(x, &x->blk.aux[c], uint8_t, (uint8_t)na);
  return rc ? rc : put_i64(x, c, na ? 0 : v);
}

/* The bytes the block holds (it is written whole at flush). */
static uint64_t blk_bytes(const chblk *b) {
  uint64_t n = 0;
  for (size_t c = 0; c < b->nc; c++) n += b->data[c].len + b->aux[c].len;
  return n;
}

/* A string into the block: counted against the budget with what the block
 * and (hashing) the source hold already, so that a row is refused before it
 * is held past B: a location's frames, 1024 of a 256 KiB name, are 256 MiB
 * of one row from a 359-byte input (review 24 F3).  The budget is checked
 * again when the block is written (emit). */
static int put_bytes(chx *x, pcol_buf *b, const char *p, size_t n) {
  uint8_t v[10];
  size_t k = varint(v, n);
  uint64_t due = blk_bytes(&x->blk) + k + n;
  if (x->hashing) due += x->hashed;
  if (pcol_budget_exceeded(&x->bud, due)) return pcol_budget_refuse(&x->bud, x->err);
  if (pcol_buf_append(b, v, k) || (n && pcol_buf_append(b, p, n))) return oom(x);
  return PCOL_OK;
}

/* Nullable(String) from a string id (0 = NULL). */
static int put_nstr(chx *x, size_t c, uint32_t id) {
  pcol_str s;
  PCOL_RETURN_NOT_OK(pcol_string(x->f, id, &s, x->err));
  PCOL_RETURN_NOT_OK(PUSH(x, &x->blk.aux[c], uint8_t, (uint8_t)!s.ptr));
  return put_bytes(x, &x->blk.data[c], s.ptr, s.ptr ? s.len : 0);
}

/* Nullable(String), not NULL, from a C string. */
static int put_lit(chx *x, size_t c, const char *s) {
  PCOL_RETURN_NOT_OK(PUSH(x, &x->blk.aux[c], uint8_t, 0));
  return put_bytes(x, &x->blk.data[c], s, strlen(s));
}

/* An array element (Array(UInt32) or Array(String)); end_array closes the row's array. */
static int arr_u32(chx *x, size_t c, uint32_t v) {
  x->blk.elems[c]++;
  return put_u32(x, c, v);
}
static int arr_str(chx *x, size_t c, pcol_str s) {
  x->blk.elems[c]++;
  return put_bytes(x, &x->blk.data[c], s.ptr, s.len);
}
static int end_array(chx *x, size_t c) { return PUSH(x, &x->blk.aux[c], uint64_t, x->blk.elems[c]); }

/* -------------------------------------------------------- renumbering */

/* Gives old id `o` (>= 1) of a table its new id, in order of first use. */
static inline void use(uint32_t *nw, uint32_t *old, size_t *n, uint32_t o) {
  if (!nw[o]) {
    old[*n] = o;
    nw[o] = (uint32_t)++*n;
  }
}

static void forget(uint32_t *nw, const uint32_t *old, size_t *n) {
  for (size_t i = 0; i < *n; i++) nw[old[i]] = 0;
  *n = 0;
}

/* The ids source x->src uses: stack nodes root first along each sample's
 * stack in sample order (a parent before its children), their locations in
 * that order, then the mappings and functions of those locations, and the
 * label sets in sample order. */
static int number_source(chx *x) {
  for (size_t i = 0; i < x->n_st; i++) x->st_named[x->st_old[i]] = 0;
  forget(x->st_new, x->st_old, &x->n_st);
  forget(x->loc_new, x->loc_old, &x->n_loc);
  forget(x->fn_new, x->fn_old, &x->n_fn);
  forget(x->map_new, x->map_old, &x->n_map);
  forget(x->ls_new, x->ls_old, &x->n_ls);
  x->source_samples = 0;
  for (uint64_t r = x->r0; r < x->r1; r++) {
    if (pcol_view_u32(&x->s_src, r) != x->src) continue;
    x->source_samples++;
    uint32_t ls = pcol_view_u32(&x->s_ls, r);
    if (ls && ls <= x->nls) use(x->ls_new, x->ls_old, &x->n_ls, ls);
    x->npath = 0;
    uint32_t leaf = pcol_view_u32(&x->s_stack, r);
    if (leaf && leaf <= x->nstacks) x->st_named[leaf] = 1;
    for (uint32_t n = leaf; n && n <= x->nstacks && !x->st_new[n];
         n = pcol_view_u32(&x->st_parent, n - 1)) {
      if (x->npath > x->nstacks) /* parents precede children (checked on use): never */
        return pcol_error_set(x->err, PCOL_ECORRUPT, "stack %u: cycle", n);
      if (PCOL_GROW(x->path, x->npath, x->cappath)) return oom(x);
      x->path[x->npath++] = n;
    }
    for (size_t i = x->npath; i-- > 0;) {
      uint32_t n = x->path[i], loc = pcol_view_u32(&x->st_loc, n - 1);
      use(x->st_new, x->st_old, &x->n_st, n);
      if (loc && loc <= x->fr.nloc) use(x->loc_new, x->loc_old, &x->n_loc, loc);
    }
  }
  for (size_t i = 0; i < x->n_loc; i++) {
    uint32_t loc = x->loc_old[i], m = pcol_view_u32(&x->loc_map, loc - 1);
    if (m && m <= x->nmap) use(x->map_new, x->map_old, &x->n_map, m);
    uint64_t a, e;
    pcol_frames_lines(&x->fr, loc, &a, &e);
    for (uint64_t li = a; li < e; li++) {
      uint32_t fn = pcol_frames_fn(&x->fr, li);
      if (fn) use(x->fn_new, x->fn_old, &x->n_fn, fn);
    }
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------ tables */

static int gen_meta(chx *x, unsigned t) {
  uint32_t k = 0;
  const uint32_t *rows; /* the source's rows, from the file's index */
  size_t n;
  PCOL_RETURN_NOT_OK(pcol_source_rows(x->f, PCOL_T_META, x->src, &rows, &n, x->err));
  for (size_t j = 0; j < n; j++) {
    uint32_t i = rows[j];
    PCOL_RETURN_NOT_OK(put_u32(x, 1, ++k));
    PCOL_RETURN_NOT_OK(put_nstr(x, 2, pcol_view_u32(&x->m_key, i)));
    PCOL_RETURN_NOT_OK(put_nstr(x, 3, pcol_view_u32(&x->m_val, i)));
    PCOL_RETURN_NOT_OK(end_row(x, t));
  }
  return PCOL_OK;
}

/* The source's value types numbered 1, 2, ... in its order (value_types'
 * idx, which sample_values' idx refers to): THE numbering of both tables. */
static int number_value_types(chx *x) {
  const uint32_t *rows; /* the source's rows, from the file's index */
  size_t n;
  for (size_t k = 1; k <= x->n_svt; k++) x->svt_first[x->svt_list[k]] = 0;
  x->n_svt = 0;
  PCOL_RETURN_NOT_OK(pcol_source_rows(x->f, PCOL_T_SOURCE_VALUE_TYPES, x->src, &rows, &n, x->err));
  for (size_t j = 0; j < n; j++) {
    uint32_t vt = pcol_view_u32(&x->svt_vt, rows[j]);
    if (!vt || vt > x->nvt) continue;
    x->svt_list[++x->n_svt] = vt;
    x->svt_next[x->n_svt] = 0;
  }
  for (size_t k = x->n_svt; k >= 1; k--) { /* backwards: first[] ends at the first */
    uint32_t vt = x->svt_list[k];
    x->svt_next[k] = x->svt_first[vt];
    x->svt_first[vt] = (uint32_t)k;
  }
  return PCOL_OK;
}

static int gen_value_types(chx *x, unsigned t) {
  for (size_t k = 1; k <= x->n_svt; k++) {
    uint32_t vt = x->svt_list[k];
    PCOL_RETURN_NOT_OK(put_u32(x, 1, (uint32_t)k));
    PCOL_RETURN_NOT_OK(put_nstr(x, 2, pcol_view_u32(&x->vt_type, vt - 1)));
    PCOL_RETURN_NOT_OK(put_nstr(x, 3, pcol_view_u32(&x->vt_unit, vt - 1)));
    PCOL_RETURN_NOT_OK(end_row(x, t));
  }
  return PCOL_OK;
}

static int gen_functions(chx *x, unsigned t) {
  for (size_t i = 0; i < x->n_fn; i++) {
    uint32_t o = x->fn_old[i] - 1;
    PCOL_RETURN_NOT_OK(put_u32(x, 1, (uint32_t)i + 1));
    PCOL_RETURN_NOT_OK(put_nstr(x, 2, pcol_view_u32(&x->fr.fn_name, o)));
    PCOL_RETURN_NOT_OK(put_nstr(x, 3, pcol_view_u32(&x->fn_sys, o)));
    PCOL_RETURN_NOT_OK(put_nstr(x, 4, pcol_view_u32(&x->fr.fn_file, o)));
    PCOL_RETURN_NOT_OK(put_ni64(x, 5, pcol_view_i64(&x->fn_line, o)));
    PCOL_RETURN_NOT_OK(end_row(x, t));
  }
  return PCOL_OK;
}

static int gen_mappings(chx *x, unsigned t) {
  for (size_t i = 0; i < x->n_map; i++) {
    uint32_t o = x->map_old[i] - 1;
    PCOL_RETURN_NOT_OK(put_u32(x, 1, (uint32_t)i + 1));
    PCOL_RETURN_NOT_OK(put_u64(x, 2, pcol_view_u64(&x->map_start, o)));
    PCOL_RETURN_NOT_OK(put_u64(x, 3, pcol_view_u64(&x->map_limit, o)));
    PCOL_RETURN_NOT_OK(put_u64(x, 4, pcol_view_u64(&x->map_off, o)));
    PCOL_RETURN_NOT_OK(put_nstr(x, 5, pcol_view_u32(&x->map_file, o)));
    PCOL_RETURN_NOT_OK(put_nstr(x, 6, pcol_view_u32(&x->map_bid, o)));
    PCOL_RETURN_NOT_OK(put_u8(x, 7, pcol_view_u8(&x->map_flags, o)));
    PCOL_RETURN_NOT_OK(end_row(x, t));
  }
  return PCOL_OK;
}

static int gen_locations(chx *x, unsigned t) {
  for (size_t i = 0; i < x->n_loc; i++) {
    uint32_t loc = x->loc_old[i], m = pcol_view_u32(&x->loc_map, loc - 1);
    PCOL_RETURN_NOT_OK(put_u32(x, 1, (uint32_t)i + 1));
    PCOL_RETURN_NOT_OK(put_u32(x, 2, m && m <= x->nmap ? x->map_new[m] : 0));
    PCOL_RETURN_NOT_OK(put_u64(x, 3, pcol_view_u64(&x->fr.loc_addr, loc - 1)));
    PCOL_RETURN_NOT_OK(put_u8(x, 4, pcol_view_u8(&x->loc_flags, loc - 1) & 1));
    /* the frames.h names of the location, innermost first (fold's frames) */
    uint64_t a, e;
    pcol_frames_lines(&x->fr, loc, &a, &e);
    pcol_str name;
    if (a == e) {
      x->scratch.len = 0;
      PCOL_RETURN_NOT_OK(pcol_frame_unsymbolized_name(&x->fr, pcol_frames_mapping(&x->fr, loc),
                                                      &x->scratch, x->err));
      PCOL_RETURN_NOT_OK(arr_str(x, 5, (pcol_str){(const char *)x->scratch.data, x->scratch.len}));
    }
    for (uint64_t li = a; li < e; li++) {
      int by_fn;
      PCOL_RETURN_NOT_OK(pcol_frame_line_name(&x->fr, li, &x->scratch, &name, &by_fn, x->err));
      PCOL_RETURN_NOT_OK(arr_str(x, 5, name));
    }
    PCOL_RETURN_NOT_OK(end_array(x, 5));
    PCOL_RETURN_NOT_OK(end_row(x, t));
  }
  return PCOL_OK;
}

static int gen_location_lines(chx *x, unsigned t) {
  for (size_t i = 0; i < x->n_loc; i++) {
    uint64_t a, e;
    pcol_frames_lines(&x->fr, x->loc_old[i], &a, &e);
    for (uint64_t li = a; li < e; li++) {
      uint32_t fn = pcol_frames_fn(&x->fr, li);
      PCOL_RETURN_NOT_OK(put_u32(x, 1, (uint32_t)i + 1));
      PCOL_RETURN_NOT_OK(put_u32(x, 2, (uint32_t)(li - a + 1)));
      PCOL_RETURN_NOT_OK(put_u32(x, 3, fn ? x->fn_new[fn] : 0));
      PCOL_RETURN_NOT_OK(put_ni64(x, 4, pcol_view_i64(&x->fr.ln_line, li)));
      PCOL_RETURN_NOT_OK(put_ni64(x, 5, pcol_view_i64(&x->ln_col, li)));
      PCOL_RETURN_NOT_OK(end_row(x, t));
    }
  }
  return PCOL_OK;
}

static int gen_stacks(chx *x, unsigned t) {
  for (size_t i = 0; i < x->n_st; i++) {
    uint32_t o = x->st_old[i], p = pcol_view_u32(&x->st_parent, o - 1);
    PCOL_RETURN_NOT_OK(put_u32(x, 1, (uint32_t)i + 1));
    PCOL_RETURN_NOT_OK(put_u32(x, 2, p ? x->st_new[p] : 0));
    PCOL_RETURN_NOT_OK(put_u32(x, 3, x->loc_new[pcol_view_u32(&x->st_loc, o - 1)]));
    /* the whole path, innermost first (SQL has no recursive walk), for the
     * stacks that samples name: a node that is only a prefix gets none, or
     * deep stacks would cost their depth squared */
    size_t depth = 0;
    for (uint32_t n = x->st_named[o] ? o : 0; n; n = pcol_view_u32(&x->st_parent, n - 1)) {
      if (++depth > x->nstacks) return pcol_error_set(x->err, PCOL_ECORRUPT, "stack %u: cycle", o);
      PCOL_RETURN_NOT_OK(arr_u32(x, 4, x->loc_new[pcol_view_u32(&x->st_loc, n - 1)]));
    }
    PCOL_RETURN_NOT_OK(end_array(x, 4));
    PCOL_RETURN_NOT_OK(end_row(x, t));
  }
  return PCOL_OK;
}

static int gen_labels(chx *x, unsigned t) {
  for (size_t i = 0; i < x->n_ls; i++) {
    uint32_t o = x->ls_old[i];
    uint64_t a = pcol_view_u64(&x->ls_off, o - 1), e = pcol_view_u64(&x->ls_off, o);
    for (uint64_t l = a; l < e && l < x->nlabels; l++) {
      PCOL_RETURN_NOT_OK(put_u32(x, 1, (uint32_t)i + 1));
      PCOL_RETURN_NOT_OK(put_u32(x, 2, (uint32_t)(l - a + 1)));
      PCOL_RETURN_NOT_OK(put_nstr(x, 3, pcol_view_u32(&x->lb_key, l)));
      PCOL_RETURN_NOT_OK(put_nstr(x, 4, pcol_view_u32(&x->lb_str, l)));
      PCOL_RETURN_NOT_OK(put_i64(x, 5, pcol_view_i64(&x->lb_num, l)));
      PCOL_RETURN_NOT_OK(put_nstr(x, 6, pcol_view_u32(&x->lb_unit, l)));
      PCOL_RETURN_NOT_OK(end_row(x, t));
    }
  }
  return PCOL_OK;
}

static int gen_sample_values(chx *x, unsigned t) {
  uint32_t id = 0;
  for (uint64_t r = x->r0; r < x->r1; r++) {
    if (pcol_view_u32(&x->s_src, r) != x->src) continue;
    id++;
    uint64_t a = pcol_view_u64(&x->s_voff, r), e = pcol_view_u64(&x->s_voff, r + 1);
    /* idx: the value's type's idx in value_types (the k-th value of a type in
     * the sample, the k-th idx of that type); a value of a type the source
     * does not list (in no total, spec §6.10) after them, n_svt + 1, ... */
    uint32_t extra = (uint32_t)x->n_svt;
    for (uint64_t v = a; v < e && v < x->nvalues; v++) {
      uint32_t vt = pcol_view_u32(&x->v_type, v);
      if (vt && vt <= x->nvt) x->svt_cur[vt] = x->svt_first[vt];
    }
    for (uint64_t v = a; v < e && v < x->nvalues; v++) {
      uint32_t vt = pcol_view_u32(&x->v_type, v), idx;
      if (!vt || vt > x->nvt) continue;
      if ((idx = x->svt_cur[vt])) x->svt_cur[vt] = x->svt_next[idx];
      else idx = ++extra;
      PCOL_RETURN_NOT_OK(put_u16(x, 0, x->day));
      PCOL_RETURN_NOT_OK(put_u32(x, 2, id));
      PCOL_RETURN_NOT_OK(put_u32(x, 3, idx));
      PCOL_RETURN_NOT_OK(put_nstr(x, 4, pcol_view_u32(&x->vt_type, vt - 1)));
      PCOL_RETURN_NOT_OK(put_nstr(x, 5, pcol_view_u32(&x->vt_unit, vt - 1)));
      PCOL_RETURN_NOT_OK(put_i64(x, 6, pcol_view_i64(&x->v_val, v)));
      PCOL_RETURN_NOT_OK(end_row(x, t));
    }
    if (x->ralloc && !x->hashing) { /* derived: not in the key (see the top) */
      int64_t m;
      PCOL_RETURN_NOT_OK(pcol_xvalue(&x->xv, NULL, r, PCOL_VT_RPROF_ALLOC, &m, x->err));
      PCOL_RETURN_NOT_OK(put_u16(x, 0, x->day));
      PCOL_RETURN_NOT_OK(put_u32(x, 2, id));
      PCOL_RETURN_NOT_OK(put_u32(x, 3, 0));
      PCOL_RETURN_NOT_OK(put_lit(x, 4, PCOL_VALUE_RPROF_ALLOC));
      PCOL_RETURN_NOT_OK(put_lit(x, 5, "bytes"));
      PCOL_RETURN_NOT_OK(put_i64(x, 6, m));
      PCOL_RETURN_NOT_OK(end_row(x, t));
    }
  }
  return PCOL_OK;
}

/* Whether source x->src exports rprof.alloc (THE export rule). */
static int source_ralloc(chx *x) {
  size_t n;
  int derived;
  x->ralloc = 0;
  PCOL_RETURN_NOT_OK(pcol_xvalues_source(&x->xv, x->src, x->xt, x->capxt, &n, &derived, x->err));
  for (size_t i = 0; i < n; i++) x->ralloc |= x->xt[i].vt == PCOL_VT_RPROF_ALLOC;
  return PCOL_OK;
}

static int gen_samples(chx *x, unsigned t) {
  uint32_t id = 0;
  for (uint64_t r = x->r0; r < x->r1; r++) {
    if (pcol_view_u32(&x->s_src, r) != x->src) continue;
    uint32_t st = pcol_view_u32(&x->s_stack, r), ls = pcol_view_u32(&x->s_ls, r);
    PCOL_RETURN_NOT_OK(put_u16(x, 0, x->day));
    PCOL_RETURN_NOT_OK(put_u32(x, 2, ++id));
    PCOL_RETURN_NOT_OK(put_ni64(x, 3, pcol_view_i64(&x->s_time, r)));
    PCOL_RETURN_NOT_OK(put_i64(x, 4, pcol_view_i64(&x->s_dur, r)));
    PCOL_RETURN_NOT_OK(put_i64(x, 5, pcol_view_i64(&x->s_w, r)));
    PCOL_RETURN_NOT_OK(put_ni64(x, 6, pcol_view_i64(&x->s_cpu, r)));
    PCOL_RETURN_NOT_OK(put_u32(x, 7, st && st <= x->nstacks ? x->st_new[st] : 0));
    PCOL_RETURN_NOT_OK(put_u32(x, 8, ls && ls <= x->nls ? x->ls_new[ls] : 0));
    PCOL_RETURN_NOT_OK(end_row(x, t));
  }
  return PCOL_OK;
}

static int gen_sources(chx *x, unsigned t) {
  uint32_t o = x->src - 1;
  PCOL_RETURN_NOT_OK(put_u16(x, 1, x->day));
  PCOL_RETURN_NOT_OK(put_nstr(x, 2, pcol_view_u32(&x->so_type, o)));
  if (!x->hashing) PCOL_RETURN_NOT_OK(put_nstr(x, 3, pcol_view_u32(&x->so_uri, o)));
  PCOL_RETURN_NOT_OK(put_ni64(x, 4, pcol_view_i64(&x->so_ts, o)));
  PCOL_RETURN_NOT_OK(put_u64(x, 5, x->source_samples));
  return end_row(x, t);
}

typedef int (*gen_fn)(chx *, unsigned);
static const gen_fn gens[PCOL_CH_NTABLES] = {gen_meta,      gen_value_types,    gen_functions,
                                             gen_mappings,  gen_locations,      gen_location_lines,
                                             gen_stacks,    gen_labels,         gen_sample_values,
                                             gen_samples,   gen_sources};

/* Every table of the current source: into the hash, or into the outputs. */
static int gen_all(chx *x) {
  for (unsigned t = 0; t < PCOL_CH_NTABLES; t++) {
    blk_begin(x, t);
    PCOL_RETURN_NOT_OK(gens[t](x, t));
    PCOL_RETURN_NOT_OK(flush(x, t));
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------ export */

static int load_columns(chx *x) {
  const pcol_column_req cols[] = {
      {&x->s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},
      {&x->s_time, PCOL_T_SAMPLES, PCOL_C_S_TIME},
      {&x->s_dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION},
      {&x->s_w, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},
      {&x->s_cpu, PCOL_T_SAMPLES, PCOL_C_S_CPU_DELTA},
      {&x->s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},
      {&x->s_ls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET},
      {&x->s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
      {&x->v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},
      {&x->v_val, PCOL_T_VALUES, PCOL_C_V_VALUE},
      {&x->vt_type, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE},
      {&x->vt_unit, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT},
      {&x->svt_src, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE},
      {&x->svt_vt, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE},
      {&x->m_key, PCOL_T_META, PCOL_C_META_KEY},
      {&x->m_val, PCOL_T_META, PCOL_C_META_VALUE},
      {&x->m_src, PCOL_T_META, PCOL_C_META_SOURCE},
      {&x->so_type, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE},
      {&x->so_uri, PCOL_T_SOURCES, PCOL_C_SOURCES_URI},
      {&x->so_ts, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP},
      {&x->fn_sys, PCOL_T_FUNCTIONS, PCOL_C_FN_SYSTEM_NAME},
      {&x->fn_line, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE},
      {&x->map_start, PCOL_T_MAPPINGS, PCOL_C_MAP_START},
      {&x->map_limit, PCOL_T_MAPPINGS, PCOL_C_MAP_LIMIT},
      {&x->map_off, PCOL_T_MAPPINGS, PCOL_C_MAP_OFFSET},
      {&x->map_file, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME},
      {&x->map_bid, PCOL_T_MAPPINGS, PCOL_C_MAP_BUILD_ID},
      {&x->map_flags, PCOL_T_MAPPINGS, PCOL_C_MAP_FLAGS},
      {&x->loc_map, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING},
      {&x->loc_flags, PCOL_T_LOCATIONS, PCOL_C_LOC_FLAGS},
      {&x->ln_col, PCOL_T_LINES, PCOL_C_LINE_COLUMN},
      {&x->st_parent, PCOL_T_STACKS, PCOL_C_STACK_PARENT},
      {&x->st_loc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION},
      {&x->ls_off, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
      {&x->lb_key, PCOL_T_LABELS, PCOL_C_LB_KEY},
      {&x->lb_str, PCOL_T_LABELS, PCOL_C_LB_STR},
      {&x->lb_num, PCOL_T_LABELS, PCOL_C_LB_NUM},
      {&x->lb_unit, PCOL_T_LABELS, PCOL_C_LB_UNIT}};
  PCOL_RETURN_NOT_OK(pcol_columns(x->f, cols, PCOL_NCOLS(cols), x->err));
  PCOL_RETURN_NOT_OK(pcol_frames_init(&x->fr, x->f, x->err));
  /* the locations' frames column is what `pcol fold` prints (the views'
   * names: a function named "" as go's of none); the functions table keeps
   * the bytes, which the views SQL names by the same rule */
  x->fr.views = 1;
  x->nsamples = pcol_rows(x->f, PCOL_T_SAMPLES);
  x->nstacks = pcol_rows(x->f, PCOL_T_STACKS);
  x->nmap = pcol_rows(x->f, PCOL_T_MAPPINGS);
  x->nls = pcol_rows(x->f, PCOL_T_LABELSETS);
  x->nlabels = pcol_rows(x->f, PCOL_T_LABELS);
  x->nvalues = pcol_rows(x->f, PCOL_T_VALUES);
  x->nvt = pcol_rows(x->f, PCOL_T_VALUE_TYPES);
  return PCOL_OK;
}

static int alloc_maps(chx *x) {
  uint64_t n[5] = {x->nstacks, x->fr.nloc, x->fr.nfn, x->nmap, x->nls};
  uint32_t **nw[5] = {&x->st_new, &x->loc_new, &x->fn_new, &x->map_new, &x->ls_new};
  uint32_t **old[5] = {&x->st_old, &x->loc_old, &x->fn_old, &x->map_old, &x->ls_old};
  if (!(x->st_named = calloc((size_t)x->nstacks + 1, 1))) return oom(x);
  uint64_t nsvt = pcol_rows(x->f, PCOL_T_SOURCE_VALUE_TYPES);
  if (nsvt >= SIZE_MAX / sizeof *x->xt - PCOL_XV_MAX) return oom(x);
  x->capxt = (size_t)nsvt + PCOL_XV_MAX;
  if (!(x->xt = malloc(x->capxt * sizeof *x->xt))) return oom(x);
  if (nsvt >= SIZE_MAX / sizeof(uint32_t) - 1 || x->nvt >= SIZE_MAX / sizeof(uint32_t) - 1) return oom(x);
  x->svt_list = malloc(((size_t)nsvt + 1) * sizeof(uint32_t));
  x->svt_next = malloc(((size_t)nsvt + 1) * sizeof(uint32_t));
  x->svt_first = calloc((size_t)x->nvt + 1, sizeof(uint32_t));
  x->svt_cur = calloc((size_t)x->nvt + 1, sizeof(uint32_t));
  if (!x->svt_list || !x->svt_next || !x->svt_first || !x->svt_cur) return oom(x);
  for (int i = 0; i < 5; i++) {
    if (n[i] >= SIZE_MAX / sizeof(uint32_t) - 1) return oom(x);
    *nw[i] = calloc((size_t)n[i] + 1, sizeof(uint32_t));
    *old[i] = malloc(((size_t)n[i] + 1) * sizeof(uint32_t));
    if (!*nw[i] || !*old[i]) return oom(x);
  }
  return PCOL_OK;
}

int pcol_export_clickhouse(pcol_file *f, FILE *const outs[PCOL_CH_NTABLES],
                           const pcol_export_options *opt, uint64_t *nsources, pcol_error *err) {
  if (!f || !outs) return pcol_error_set(err, PCOL_EINVAL, "pcol_export_clickhouse: NULL argument");
  for (unsigned t = 0; t < PCOL_CH_NTABLES; t++)
    if (!outs[t]) return pcol_error_set(err, PCOL_EINVAL, "pcol_export_clickhouse: NULL stream");
  chx *x = calloc(1, sizeof *x);
  if (!x) return pcol_oom(err);
  x->f = f;
  x->err = err;
  x->outs = outs;
  /* the budget counts the bytes of every table (written through emit) */
  int rc = pcol_budget_open(&x->bud, f, opt, "clickhouse export", outs[0], err);
  if (!rc) rc = load_columns(x);
  if (!rc) rc = alloc_maps(x);
  if (!rc) rc = pcol_rtime_init(&x->rt, f, err);
  if (!rc) rc = pcol_xvalues_init(&x->xv, f, &x->rt, err);
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), done = 0;
  x->sorted = 1;
  for (uint64_t r = 1; !rc && r < x->nsamples && x->sorted; r++)
    x->sorted = pcol_view_u32(&x->s_src, r - 1) <= pcol_view_u32(&x->s_src, r);
  x->r1 = 0;
  for (uint64_t s = 1; s <= ns && !rc; s++) {
    x->src = (uint32_t)s;
    if (x->sorted) { /* the run of source s starts where the last one ended */
      for (x->r0 = x->r1; x->r0 < x->nsamples && pcol_view_u32(&x->s_src, x->r0) < s; x->r0++) {}
      for (x->r1 = x->r0; x->r1 < x->nsamples && pcol_view_u32(&x->s_src, x->r1) == s; x->r1++) {}
    } else {
      x->r0 = 0, x->r1 = x->nsamples;
    }
    int64_t ts = pcol_view_i64(&x->so_ts, s - 1);
    int64_t d = ts == PCOL_NA_I64 || ts < 0 ? 0 : ts / 86400;
    x->day = (uint16_t)(d > 65535 ? 65535 : d); /* Date: days since 1970, to 2149 */
    if ((rc = number_source(x)) || (rc = number_value_types(x)) || (rc = source_ralloc(x))) break;
    /* its nameless lines' names (frames.h): a pprof source's "<unknown>", an Rprof one's places */
    int places = 0;
    if ((rc = pcol_source_nameless_places(f, (uint32_t)s, &places, err))) break;
    x->srule = (pcol_nameless_rule){!places, places, NULL, 0};
    x->fr.rule = &x->srule;
    chash_init(&x->h);
    x->hashing = 1;
    x->hashed = 0;
    if ((rc = gen_all(x))) break;
    chash_end(&x->h, x->key);
    x->hashing = 0;
    if ((rc = gen_all(x))) break;
    done++;
  }
  if (x->bud.fp) rc = pcol_budget_close(&x->bud, rc, err);
  for (unsigned t = 0; t < PCOL_CH_NTABLES && !rc; t++)
    if (fflush(outs[t]) || ferror(outs[t]))
      rc = pcol_error_set(err, PCOL_EIO, "clickhouse: write error (table %s)", tabs[t].name);
  if (nsources) *nsources = done;
  for (size_t c = 0; c < CH_MAXCOLS; c++) pcol_buf_free(&x->blk.data[c]), pcol_buf_free(&x->blk.aux[c]);
  pcol_buf_free(&x->scratch);
  free(x->st_new), free(x->loc_new), free(x->fn_new), free(x->map_new), free(x->ls_new);
  free(x->st_old), free(x->loc_old), free(x->fn_old), free(x->map_old), free(x->ls_old);
  free(x->path);
  free(x->st_named);
  free(x->xt);
  free(x->svt_list), free(x->svt_next), free(x->svt_first), free(x->svt_cur);
  pcol_rtime_free(&x->rt); /* (zeroed, or freed by a failed init: idempotent) */
  free(x);
  return rc;
}
