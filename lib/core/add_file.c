/* add_file.c — pcol_b_add_file: copy an open pcol file into a builder.
 *
 * Every table is copied with new ids.  Sources (and with them meta rows,
 * source value types, text lines and models) are appended, so a merged file
 * keeps each input's identity; strings, value types, functions, mappings,
 * locations, stack nodes and label sets go through the builder's
 * deduplicating pcol_b_* calls, so inputs share them.  Samples keep their
 * order; sample ids in sample_text and text_lines are shifted by the number
 * of samples already in the builder.  Memory: one id map per table of the
 * input, i.e. proportional to the tables, not to anything larger; a big
 * mapped input's sample and value columns are read in windows of
 * pcol_release_rows rows, released behind the copy (pcol_view_release).
 */
#include "pcol.h"
#include "builder.h"  /* struct pcol_builder, pcol_bt_push_u32, pcol_btable, ... */
#include "reader.h"   /* struct pcol_file, pcol_view_release, pcol_release_rows, ... */
#include "error.h"    /* pcol_error_set */
#include "hash.h"     /* pcol_u64map */
#include "count.h"    /* pcol_unit_keeps: THE unit rule's drop */
#include "xvalues.h"  /* pcol_vpos: THE union of value columns, by position */
#include "keys.h"     /* PCOL_VT_SAMPLES, PCOL_VT_CPU: opt->fill's types */
#include "select.h"   /* pcol_select_iter_at: opt->norm_sel */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TRY_OR_FAIL(x)                                                              \
  do {                                                                        \
    int rc_ = (x);                                                            \
    if (rc_) goto fail;                                                       \
  } while (0)

typedef struct mctx {
  int as_union; /* pcol_b_add_union: mapping rows as they are */
  pcol_builder *b;
  pcol_file *f;
  pcol_error *err;
  uint32_t *smap; /* strings */
  uint64_t nstr;
  uint32_t *srcmap, *vtmap, *fnmap, *mapmap, *locmap, *stmap, *lsmap;
  uint64_t *mapshift; /* what a mapping's addresses gain (pcol_b_mappings_shared) */
  /* pcol_b_add_file_framed: the frames each label set adds, and the stacks
   * made so far per (input label set, input stack) */
  const pcol_b_frames *fr;
  const pcol_b_copy *opt; /* pcol_b_add_file_copy: negated values, a label more */
  uint32_t ls_none;       /* with opt's label: the set of a sample without labels */
  pcol_u64map framed;
  uint32_t *framed_id;
  size_t framed_cap;
  pcol_view sp, sl; /* the input's stack nodes */
  pcol_buf path;    /* a framed stack's builder locations, innermost first */
  pcol_stack_memo memo;
  uint64_t framed_steps, framed_budget; /* stack nodes walked for frames, and the bound */
  uint32_t only;        /* opt->only_source: the one input source copied (0: all) */
  uint64_t only_from, only_end; /* its sample rows [from, end) (samples sort by source) */
  uint32_t fill_vt[3]; /* opt->fill: the builder's samples/count, cpu/nanoseconds and rprof.alloc/bytes */
} mctx;

static int col(mctx *m, int table, int column, pcol_view *v) {
  return pcol_column(m->f, table, column, v, m->err);
}

/* map a string id of the input (checked in range by the reader) */
static uint32_t S(const mctx *m, uint32_t id) { return id < m->nstr ? m->smap[id] : 0; }
static uint32_t MAPID(const uint32_t *map, uint64_t n, uint32_t id) {
  return id && id <= n ? map[id] : 0;
}

/* Every failed allocation of the copy, filled into err where it happens. */
static int add_oom(const mctx *m) {
  return pcol_error_set(m->err, PCOL_ENOMEM, "adding a pcol file: out of memory");
}

static int alloc_map(const mctx *m, uint32_t **out, uint64_t n) {
  *out = calloc(n + 1, sizeof **out);
  return *out ? PCOL_OK : add_oom(m);
}

/* A cell pushed to a builder table (pcol_bt_push_*, which fail only for
 * memory), or err filled. */
static int push_row_u32(const mctx *m, pcol_btable *t, int c, uint32_t v) {
  return pcol_bt_push_u32(t, c, v) ? add_oom(m) : PCOL_OK;
}
static int push_row_u64(const mctx *m, pcol_btable *t, int c, uint64_t v) {
  return pcol_bt_push_u64(t, c, v) ? add_oom(m) : PCOL_OK;
}
static int push_row_i64(const mctx *m, pcol_btable *t, int c, int64_t v) {
  return pcol_bt_push_i64(t, c, v) ? add_oom(m) : PCOL_OK;
}

static int copy_strings(mctx *m) {
  m->nstr = pcol_string_count(m->f);
  m->smap = calloc(m->nstr + 1, sizeof *m->smap);
  if (!m->smap) return add_oom(m);
  for (uint64_t i = 1; i < m->nstr; i++) {
    pcol_str s;
    int rc = pcol_string(m->f, (uint32_t)i, &s, m->err);
    if (rc) return rc;
    if ((rc = pcol_b_string(m->b, s.ptr ? s.ptr : "", s.len, &m->smap[i], m->err))) return rc;
  }
  return PCOL_OK;
}

static int copy_sources(mctx *m) {
  pcol_view ty, uri, ts;
  int rc;
  if ((rc = col(m, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty)) ||
      (rc = col(m, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri)) ||
      (rc = col(m, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts)))
    return rc;
  uint64_t n = pcol_rows(m->f, PCOL_T_SOURCES);
  pcol_btable *t = &m->b->t[PCOL_T_SOURCES];
  if (t->rows + n >= UINT32_MAX - 1)
    return pcol_error_set(m->err, PCOL_ETOOBIG, "adding a pcol file: more than 2^32 - 2 sources");
  if ((rc = alloc_map(m, &m->srcmap, n))) return rc;
  for (uint64_t i = 0; i < n; i++) {
    if (m->only && i + 1 != m->only) continue; /* (srcmap 0) */
    if ((rc = push_row_u32(m, t, PCOL_C_SOURCES_TYPE, S(m, pcol_view_u32(&ty, i)))) ||
        (rc = push_row_u32(m, t, PCOL_C_SOURCES_URI, S(m, pcol_view_u32(&uri, i)))) ||
        (rc = push_row_i64(m, t, PCOL_C_SOURCES_TIMESTAMP, pcol_view_i64(&ts, i))))
      return rc;
    m->srcmap[i + 1] = (uint32_t)++t->rows;
  }
  /* meta rows follow their source; file-level rows (source 0) stay file-level */
  pcol_view k, v, s;
  if ((rc = col(m, PCOL_T_META, PCOL_C_META_KEY, &k)) ||
      (rc = col(m, PCOL_T_META, PCOL_C_META_VALUE, &v)) ||
      (rc = col(m, PCOL_T_META, PCOL_C_META_SOURCE, &s)))
    return rc;
  pcol_btable *mt = &m->b->t[PCOL_T_META];
  for (uint64_t i = 0; i < pcol_rows(m->f, PCOL_T_META); i++) {
    uint32_t ms = pcol_view_u32(&s, i);
    if (m->only && ms && ms != m->only) continue;
    if ((rc = push_row_u32(m, mt, PCOL_C_META_KEY, S(m, pcol_view_u32(&k, i)))) ||
        (rc = push_row_u32(m, mt, PCOL_C_META_VALUE, S(m, pcol_view_u32(&v, i)))) ||
        (rc = push_row_u32(m, mt, PCOL_C_META_SOURCE, MAPID(m->srcmap, n, pcol_view_u32(&s, i)))))
      return rc;
    mt->rows++;
  }
  return PCOL_OK;
}

static int copy_value_types(mctx *m) {
  pcol_view ty, un, ss, sv;
  int rc;
  if ((rc = col(m, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty)) ||
      (rc = col(m, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un)) ||
      (rc = col(m, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss)) ||
      (rc = col(m, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv)))
    return rc;
  uint64_t n = pcol_rows(m->f, PCOL_T_VALUE_TYPES);
  if ((rc = alloc_map(m, &m->vtmap, n))) return rc;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t usid = S(m, pcol_view_u32(&un, i));
    const pcol_str *ua = m->opt && m->opt->unit_as && i + 1 < m->opt->nunit_as ? &m->opt->unit_as[i + 1] : NULL;
    if (ua && ua->ptr && (rc = pcol_b_string(m->b, ua->ptr, ua->len, &usid, m->err))) return rc;
    if ((rc = pcol_b_value_type(m->b, S(m, pcol_view_u32(&ty, i)), usid, &m->vtmap[i + 1], m->err)))
      return rc;
  }
  /* rows copied as they are: a valid file may hold a (none, none) row,
   * which pcol_b_source_value_type refuses from an importer */
  uint64_t nsrc = pcol_rows(m->f, PCOL_T_SOURCES);
  pcol_btable *t = &m->b->t[PCOL_T_SOURCE_VALUE_TYPES];
  for (uint64_t i = 0; i < pcol_rows(m->f, PCOL_T_SOURCE_VALUE_TYPES); i++) {
    if (m->only && pcol_view_u32(&ss, i) != m->only) continue;
    if ((rc = push_row_u32(m, t, PCOL_C_SVT_SOURCE, MAPID(m->srcmap, nsrc, pcol_view_u32(&ss, i)))) ||
        (rc = push_row_u32(m, t, PCOL_C_SVT_VALUE_TYPE, MAPID(m->vtmap, n, pcol_view_u32(&sv, i)))))
      return rc;
    t->rows++;
  }
  /* opt->fill: the types a source's values made from its samples are
   * written as (count.h: THE count rule's samples/count, the time rule's
   * cpu/nanoseconds), declared by it */
  static const char *const fill_names[3][2] = {{PCOL_VT_SAMPLES, PCOL_UNIT_COUNT},
                                               {PCOL_VT_CPU, PCOL_UNIT_NANOSECONDS},
                                               {PCOL_VALUE_RPROF_ALLOC, "bytes"}};
  for (uint64_t s = 1; m->opt && m->opt->fill && s <= nsrc && s < m->opt->nfill; s++)
    for (int k = 0; k < 3; k++) {
      if (!(m->opt->fill[s] & (1u << k)) || (m->only && s != m->only)) continue;
      if (!m->fill_vt[k]) {
        uint32_t ts, us;
        if ((rc = pcol_b_cstr(m->b, fill_names[k][0], &ts, m->err)) ||
            (rc = pcol_b_cstr(m->b, fill_names[k][1], &us, m->err)) ||
            (rc = pcol_b_value_type(m->b, ts, us, &m->fill_vt[k], m->err)))
          return rc;
      }
      if ((rc = push_row_u32(m, t, PCOL_C_SVT_SOURCE, MAPID(m->srcmap, nsrc, (uint32_t)s))) ||
          (rc = push_row_u32(m, t, PCOL_C_SVT_VALUE_TYPE, m->fill_vt[k])))
        return rc;
      t->rows++;
    }
  return PCOL_OK;
}

static int copy_functions(mctx *m) {
  pcol_view fname, fsys, ffile, fstart;
  int rc;
  if ((rc = col(m, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &fname)) ||
      (rc = col(m, PCOL_T_FUNCTIONS, PCOL_C_FN_SYSTEM_NAME, &fsys)) ||
      (rc = col(m, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME, &ffile)) ||
      (rc = col(m, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE, &fstart)))
    return rc;
  uint64_t nfn = pcol_rows(m->f, PCOL_T_FUNCTIONS);
  if ((rc = alloc_map(m, &m->fnmap, nfn))) return rc;
  for (uint64_t i = 0; i < nfn; i++) {
    pcol_function_row r = {S(m, pcol_view_u32(&fname, i)), S(m, pcol_view_u32(&fsys, i)),
                           S(m, pcol_view_u32(&ffile, i)), pcol_view_i64(&fstart, i)};
    if ((rc = pcol_b_function(m->b, &r, &m->fnmap[i + 1], m->err))) return rc;
  }
  return PCOL_OK;
}

/* mappings (shared with the builder's by go's merge key, a union's as
 * they are) */
static int copy_mappings(mctx *m) {
  pcol_view ms, ml, mo, mf, mb, mfl;
  int rc;
  if ((rc = col(m, PCOL_T_MAPPINGS, PCOL_C_MAP_START, &ms)) ||
      (rc = col(m, PCOL_T_MAPPINGS, PCOL_C_MAP_LIMIT, &ml)) ||
      (rc = col(m, PCOL_T_MAPPINGS, PCOL_C_MAP_OFFSET, &mo)) ||
      (rc = col(m, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME, &mf)) ||
      (rc = col(m, PCOL_T_MAPPINGS, PCOL_C_MAP_BUILD_ID, &mb)) ||
      (rc = col(m, PCOL_T_MAPPINGS, PCOL_C_MAP_FLAGS, &mfl)))
    return rc;
  uint64_t nmap = pcol_rows(m->f, PCOL_T_MAPPINGS);
  if ((rc = alloc_map(m, &m->mapmap, nmap))) return rc;
  m->mapshift = calloc(nmap + 1, sizeof *m->mapshift);
  if (!m->mapshift) return add_oom(m);
  pcol_mapping_row *rows = malloc((nmap + 1) * sizeof *rows);
  if (!rows) return add_oom(m);
  for (uint64_t i = 0; i < nmap; i++) {
    pcol_mapping_row r = {pcol_view_u64(&ms, i), pcol_view_u64(&ml, i), pcol_view_u64(&mo, i),
                          S(m, pcol_view_u32(&mf, i)), S(m, pcol_view_u32(&mb, i)),
                          pcol_view_u8(&mfl, i)};
    rows[i] = r;
    if (m->as_union && (rc = pcol_b_mapping(m->b, &r, 0, &m->mapmap[i + 1], m->err))) break;
  }
  /* one key's rows (a file packed before 1.2.0 kept a profile's apart):
   * the one the samples copied meet first is kept, as go's */
  int repeat = 0;
  uint64_t *reach = NULL;
  if (!rc && !m->as_union) rc = pcol_b_mappings_repeat(m->b, rows, nmap, &repeat, m->err);
  if (!rc && repeat && !(reach = malloc((nmap + 1) * sizeof *reach))) rc = add_oom(m);
  if (!rc && repeat)
    rc = pcol_mappings_reach(m->f, m->only ? m->only_from : 0,
                             m->only ? m->only_end : pcol_rows(m->f, PCOL_T_SAMPLES), reach, m->err);
  if (!rc && !m->as_union)
    rc = pcol_b_mappings_shared(m->b, rows, nmap, reach, &m->mapmap[1], &m->mapshift[1], m->err);
  free(reach);
  free(rows);
  return rc;
}

int pcol_mappings_reach(pcol_file *f, uint64_t from, uint64_t end, uint64_t *reach, pcol_error *err) {
  pcol_view sp, sl, lm, stk, wt, off, vv;
  int rc;
  if ((rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &sp, err)) ||
      (rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &sl, err)) ||
      (rc = pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, &lm, err)) ||
      (rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &stk, err)) ||
      (rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &wt, err)) ||
      (rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &off, err)) ||
      (rc = pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &vv, err)))
    return rc;
  uint64_t nmap = pcol_rows(f, PCOL_T_MAPPINGS), nloc = pcol_rows(f, PCOL_T_LOCATIONS);
  uint64_t ns = pcol_rows(f, PCOL_T_STACKS), nv = pcol_rows(f, PCOL_T_VALUES), met = 0;
  if (end > pcol_rows(f, PCOL_T_SAMPLES)) end = pcol_rows(f, PCOL_T_SAMPLES);
  for (uint64_t i = 0; i < nmap; i++) reach[i] = UINT64_MAX;
  /* a stack node met is met with all its callers (they were walked then) */
  uint8_t *seen = calloc(ns + 1, 1);
  if (!seen) return pcol_error_set(err, PCOL_ENOMEM, "adding a pcol file: out of memory");
  for (uint64_t i = from; i < end && met < nmap; i++) {
    uint64_t a = pcol_view_u64(&off, i), e = pcol_view_u64(&off, i + 1);
    int zero = a == e ? pcol_view_i64(&wt, i) == 0 : 1; /* merge.go isZeroSample */
    for (uint64_t j = a; j < e && j < nv && zero; j++) zero = pcol_view_i64(&vv, j) == 0;
    if (zero) continue;
    for (uint64_t s = pcol_view_u32(&stk, i); s && s <= ns && !seen[s]; s = pcol_view_u32(&sp, s - 1)) {
      seen[s] = 1;
      uint64_t l = pcol_view_u32(&sl, s - 1), mp = l && l <= nloc ? pcol_view_u32(&lm, l - 1) : 0;
      if (mp && mp <= nmap && reach[mp - 1] == UINT64_MAX) reach[mp - 1] = met++;
    }
  }
  free(seen);
  return PCOL_OK;
}

/* locations and their lines (after functions and mappings) */
static int copy_locations(mctx *m) {
  pcol_view lm, la, lf, lo, nf, nl, nc;
  int rc;
  if ((rc = col(m, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, &lm)) ||
      (rc = col(m, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS, &la)) ||
      (rc = col(m, PCOL_T_LOCATIONS, PCOL_C_LOC_FLAGS, &lf)) ||
      (rc = col(m, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &lo)) ||
      (rc = col(m, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &nf)) ||
      (rc = col(m, PCOL_T_LINES, PCOL_C_LINE_LINE, &nl)) ||
      (rc = col(m, PCOL_T_LINES, PCOL_C_LINE_COLUMN, &nc)))
    return rc;
  uint64_t nfn = pcol_rows(m->f, PCOL_T_FUNCTIONS), nmap = pcol_rows(m->f, PCOL_T_MAPPINGS);
  uint64_t nloc = pcol_rows(m->f, PCOL_T_LOCATIONS), nlines = pcol_rows(m->f, PCOL_T_LINES);
  if ((rc = alloc_map(m, &m->locmap, nloc))) return rc;
  pcol_line_row *lines = NULL;
  size_t cap = 0;
  for (uint64_t i = 0; i < nloc && !rc; i++) {
    uint64_t a = pcol_view_u64(&lo, i), e = pcol_view_u64(&lo, i + 1);
    if (a > e || e > nlines) {
      rc = pcol_error_set(m->err, PCOL_ECORRUPT, "location %llu has lines out of range",
                          (unsigned long long)i + 1);
      break;
    }
    if (e - a > cap) {
      size_t ncap = (size_t)(e - a) * 2;
      pcol_line_row *r = realloc(lines, ncap * sizeof *r);
      if (!r) {
        rc = add_oom(m);
        break;
      }
      lines = r;
      cap = ncap;
    }
    for (uint64_t k = a; k < e; k++) {
      lines[k - a].function_id = MAPID(m->fnmap, nfn, pcol_view_u32(&nf, k));
      lines[k - a].line = pcol_view_i64(&nl, k);
      lines[k - a].column = pcol_view_i64(&nc, k);
    }
    uint32_t mi = pcol_view_u32(&lm, i);
    rc = pcol_b_location(m->b, MAPID(m->mapmap, nmap, mi),
                         pcol_view_u64(&la, i) + (mi <= nmap ? m->mapshift[mi] : 0), pcol_view_u8(&lf, i),
                         lines, (size_t)(e - a),
                         &m->locmap[i + 1], m->err);
  }
  free(lines);
  return rc;
}

/* stack nodes: parents precede children (checked by the reader); their
 * rows are read first, so that the builder knows every node's path before
 * it looks any up (pcol_b_stack_nodes: its probes' misses overlap) */
static int copy_stacks(mctx *m) {
  pcol_view sp, sl;
  int rc;
  if ((rc = col(m, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &sp)) ||
      (rc = col(m, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &sl)))
    return rc;
  uint64_t ns = pcol_rows(m->f, PCOL_T_STACKS), nloc = pcol_rows(m->f, PCOL_T_LOCATIONS);
  if ((rc = alloc_map(m, &m->stmap, ns))) return rc;
  uint32_t *par = malloc((ns ? ns : 1) * sizeof *par), *loc = malloc((ns ? ns : 1) * sizeof *loc);
  uint32_t *ph = malloc((ns + 1) * sizeof *ph);
  if (!par || !loc || !ph) rc = add_oom(m);
  for (uint64_t i = 0; !rc && i < ns; i++) {
    par[i] = pcol_view_u32(&sp, i);
    loc[i] = MAPID(m->locmap, nloc, pcol_view_u32(&sl, i));
  }
  size_t bad = 0;
  if (!rc) rc = pcol_b_stack_nodes(m->b, par, loc, (size_t)ns, m->stmap, ph, &bad, m->err);
  if (rc == PCOL_EINVAL && bad && par[bad - 1] >= bad) /* (bad: 0 when the builder's own EINVAL) */
    rc = pcol_error_set(m->err, PCOL_ECORRUPT, "stack node %zu has parent %u after it", bad,
                        par[bad - 1]);
  else if (rc == PCOL_EINVAL && bad)
    rc = pcol_error_set(m->err, PCOL_ECORRUPT, "stack node %zu has no valid location", bad);
  free(par);
  free(loc);
  free(ph);
  return rc;
}

static int copy_labels(mctx *m) {
  pcol_view off, k, s, nu, u;
  int rc;
  if ((rc = col(m, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &off)) ||
      (rc = col(m, PCOL_T_LABELS, PCOL_C_LB_KEY, &k)) ||
      (rc = col(m, PCOL_T_LABELS, PCOL_C_LB_STR, &s)) ||
      (rc = col(m, PCOL_T_LABELS, PCOL_C_LB_NUM, &nu)) ||
      (rc = col(m, PCOL_T_LABELS, PCOL_C_LB_UNIT, &u)))
    return rc;
  uint64_t n = pcol_rows(m->f, PCOL_T_LABELSETS), nl = pcol_rows(m->f, PCOL_T_LABELS);
  if ((rc = alloc_map(m, &m->lsmap, n))) return rc;
  pcol_label_row *rows = NULL;
  size_t cap = 0;
  for (uint64_t i = 0; i < n && !rc; i++) {
    uint64_t a = pcol_view_u64(&off, i), e = pcol_view_u64(&off, i + 1);
    if (a > e || e > nl) {
      rc = pcol_error_set(m->err, PCOL_ECORRUPT, "label set %llu is out of range",
                          (unsigned long long)i + 1);
      break;
    }
    if (e - a + 1 > cap) {
      size_t nc = (size_t)(e - a + 1) * 2;
      pcol_label_row *r = realloc(rows, nc * sizeof *r);
      if (!r) {
        rc = add_oom(m);
        break;
      }
      rows = r;
      cap = nc;
    }
    for (uint64_t j = a; j < e; j++) {
      rows[j - a].key = S(m, pcol_view_u32(&k, j));
      rows[j - a].str = S(m, pcol_view_u32(&s, j));
      rows[j - a].num = pcol_view_i64(&nu, j);
      rows[j - a].num_unit = S(m, pcol_view_u32(&u, j));
    }
    size_t nr = (size_t)(e - a);
    if (m->opt && m->opt->label_key) { /* set, not added: a label of that key goes (pprof's SetLabel) */
      size_t w = 0;
      for (size_t j = 0; j < nr; j++)
        if (rows[j].key != m->opt->label_key) rows[w++] = rows[j];
      nr = w;
      rows[nr++] = (pcol_label_row){m->opt->label_key, m->opt->label_str, 0, 0};
    }
    rc = pcol_b_labelset(m->b, rows, nr, &m->lsmap[i + 1], m->err);
  }
  free(rows);
  if (!rc && m->opt && m->opt->label_key) {
    pcol_label_row one = {m->opt->label_key, m->opt->label_str, 0, 0};
    rc = pcol_b_labelset(m->b, &one, 1, &m->ls_none, m->err);
  }
  return rc;
}

/* The builder stack of input stack `st` under input label set `ls` with
 * the label set's frames: its root frames (outermost first), the input
 * stack's frames, its leaf frames.  Made once per (ls, st) pair the
 * samples use. */
static int framed_stack(mctx *m, uint32_t st, uint32_t ls, uint32_t *out) {
  uint64_t ns = pcol_rows(m->f, PCOL_T_STACKS), nloc = pcol_rows(m->f, PCOL_T_LOCATIONS);
  if (st > ns || ls > pcol_rows(m->f, PCOL_T_LABELSETS))
    return pcol_error_set(m->err, PCOL_ECORRUPT, "a sample names stack %u or label set %u, out of range", st, ls);
  uint32_t idx;
  int added, rc = pcol_u64map_get(&m->framed, (uint64_t)ls << 32 | st, &idx, &added);
  if (rc) return rc == PCOL_ENOMEM ? add_oom(m) : pcol_error_set(m->err, rc, "too many framed stacks");
  if (!added) {
    *out = m->framed_id[idx];
    return PCOL_OK;
  }
  if (idx >= m->framed_cap) {
    size_t c = m->framed_cap ? 2 * m->framed_cap : 1024;
    uint32_t *x = realloc(m->framed_id, c * sizeof *x);
    if (!x) return add_oom(m);
    m->framed_id = x;
    m->framed_cap = c;
  }
  const uint32_t *root, *leaf;
  size_t nroot, nleaf;
  if ((rc = m->fr->of_labelset(m->fr->ctx, m->b, ls, &root, &nroot, &leaf, &nleaf, m->err))) return rc;
  /* innermost first: the leaf frames (given outermost first), the input
   * stack's locations (parents precede children: each step goes to a
   * smaller id, so the walk ends), the root frames */
  m->path.len = 0;
  for (size_t i = nleaf; i-- > 0;)
    if (PCOL_BUF_PUSH(&m->path, uint32_t, leaf[i])) return add_oom(m);
  for (uint32_t n = st; n; n = pcol_view_u32(&m->sp, n - 1)) {
    if (PCOL_BUF_PUSH(&m->path, uint32_t, MAPID(m->locmap, nloc, pcol_view_u32(&m->sl, n - 1))))
      return add_oom(m);
    if (pcol_view_u32(&m->sp, n - 1) >= n) break; /* checked by copy_stacks */
  }
  for (size_t i = nroot; i-- > 0;)
    if (PCOL_BUF_PUSH(&m->path, uint32_t, root[i])) return add_oom(m);
  size_t depth = m->path.len / sizeof(uint32_t);
  /* each (label set, stack) pair re-makes its stack: on a hostile file
   * (many label sets over one very deep stack) that is pairs x depth, so
   * it is bounded as the file's rows are (pcol_open_options.max_rows) */
  m->framed_steps += depth;
  if (m->framed_steps > m->framed_budget)
    return pcol_error_set(m->err, PCOL_ETOOBIG,
                          "label frames: %llu stack nodes to make, past the budget of %llu for this "
                          "input (label sets x stack depth)",
                          (unsigned long long)m->framed_steps, (unsigned long long)m->framed_budget);
  uint32_t node = 0;
  if ((rc = pcol_b_stack_memo(m->b, &m->memo, (const uint32_t *)(const void *)m->path.data, depth, &node,
                              m->err)))
    return rc;
  m->framed_id[idx] = node;
  *out = node;
  return PCOL_OK;
}

/* Go's int64(math.Round(x * r)) on amd64: half away from zero, and the
 * "integer indefinite" INT64_MIN for what int64 cannot hold (pprof ScaleN) */
static int64_t scale_round(int64_t x, double r) {
  double y = round((double)x * r);
  if (!(y >= -9223372036854775808.0 && y < 9223372036854775808.0)) return INT64_MIN;
  return (int64_t)y;
}

/* pprof's -normalize scales the profile after its merge (driver/fetch.go:
 * combineProfiles, then Normalize): samples of one stack and label set are
 * one, all-zero ones are gone, and each sum is rounded once.  grp[i] is
 * sample i's group (UINT32_MAX: all zero); a group's sums are cells, one
 * per (group, input value type) that occurs, as Go adds int64s, listed
 * from head[group] (cell + 1; 0: none) through next: memory in proportion
 * to the values, however many types the file declares. */
typedef struct norm_groups {
  uint32_t *grp, *head;
  int64_t *at; /* opt->norm_sel: a group's sample's time (pcol_select_iter_at; NA: its own) */
  uint8_t *done;
  uint32_t *type, *col, *next; /* cells: input type, column key (value_cols) */
  uint64_t *sum;
  size_t ncell, cap;
  uint32_t *key; /* a sample's column keys (value_cols) */
  uint64_t capkey, ntc;
  pcol_u64map tc; /* (type, column key) -> its cell id in a group's key */
} norm_groups;

static void norm_groups_free(norm_groups *g) {
  free(g->grp);
  free(g->head);
  free(g->at);
  free(g->done);
  free(g->type);
  free(g->col);
  free(g->next);
  free(g->sum);
  free(g->key);
  pcol_u64map_free(&g->tc);
  memset(g, 0, sizeof *g);
}

static int norm_cell_room(norm_groups *g) {
  if (g->ncell < g->cap) return PCOL_OK;
  size_t nc = g->cap ? g->cap * 2 : 1024;
  uint32_t *t = realloc(g->type, nc * sizeof *t);
  if (t) g->type = t;
  uint32_t *c = t ? realloc(g->col, nc * sizeof *c) : NULL;
  if (c) g->col = c;
  uint32_t *x = c ? realloc(g->next, nc * sizeof *x) : NULL;
  if (x) g->next = x;
  uint64_t *u = x ? realloc(g->sum, nc * sizeof *u) : NULL;
  if (u) g->sum = u;
  if (!u) return PCOL_ENOMEM;
  g->cap = nc;
  return PCOL_OK;
}

/* The column key of the values of sample i (of source src) at [a, e):
 * key[j - a], their columns in THE union of value columns (m->opt->pos:
 * the profile's sample types, which go's merge adds up by position), each
 * value matched to the next of its source's types that is its, else
 * (no union, or a value its source does not list) past every column: by
 * its input type */
static void value_cols(const mctx *m, uint32_t src, const pcol_view *vt, uint64_t a, uint64_t e, uint32_t *key) {
  const pcol_vpos *p = m->opt ? m->opt->pos : NULL;
  uint64_t k = 0, ke = 0;
  if (p && src >= 1 && src <= p->nsrc) k = p->off[src - 1], ke = p->off[src];
  for (uint64_t j = a; j < e; j++) {
    uint32_t t = pcol_view_u32(vt, j);
    while (k < ke && p->vt[k] != t) k++;
    key[j - a] = k < ke ? p->col[k++] : (uint32_t)(p ? p->ncols : 0) + t;
  }
}

/* 1 when sample i is dropped by the unit rule of the file's own sources
 * (m->opt->drop: go's ScaleN of each input before a side's merge) */
static int unit_dropped(const mctx *m, const pcol_view *src, const pcol_view *off, const pcol_view *vt,
                        const pcol_view *vv, uint64_t i) {
  if (!m->opt || !m->opt->drop) return 0;
  pcol_sample_cols sc = {{0}, *off, *vt, *vv, pcol_rows(m->f, PCOL_T_VALUES), 0};
  return pcol_unit_dropped(m->opt->drop, &sc, i, pcol_view_u32(src, i));
}

/* 1 when input value type t is scaled (scale[t] != 1); *whole 1 when as
 * a whole profile's, after its merge (opt->whole) */
static int type_scaled(const mctx *m, uint64_t t, int *whole) {
  int s = m->opt && m->opt->scale && t < m->opt->nscale && m->opt->scale[t] != 1;
  *whole = s && (!m->opt->whole || m->opt->whole[t]);
  return s;
}

/* The ratio a value of input type t in column key (value_cols) is scaled
 * by (1: none): its column's (opt->col_scale: -normalize's ratio per
 * position), else its type's; *whole as type_scaled */
static double value_ratio(const mctx *m, uint64_t t, uint32_t key, int *whole) {
  const pcol_b_copy *o = m->opt;
  if (o && o->col_scale && o->pos && key < o->ncol_scale && key < o->pos->ncols) {
    *whole = o->col_scale[key] != 1;
    return o->col_scale[key];
  }
  return type_scaled(m, t, whole) ? o->scale[t] : 1;
}

/* norm_groups_make's pass: the views it reads, and its key maps */
typedef struct group_pass {
  mctx *m;
  norm_groups *g;
  const pcol_view *src, *stk, *lab, *off, *vt, *vv;
  uint64_t nv, nvt, ns, nls;
  pcol_u64map key, cell;
} group_pass;

/* Sample i (the fraction num/den of it selected, its first selected tick
 * at `at`) into its group's sums */
static int group_row(void *ctx, uint64_t i, int64_t num, int64_t den, int64_t at) {
  group_pass *p = ctx;
  mctx *m = p->m;
  norm_groups *g = p->g;
  int rc = PCOL_OK;
  uint64_t a = pcol_view_u64(p->off, i), e = pcol_view_u64(p->off, i + 1);
  if (a > e || e > p->nv) return 1; /* copy_samples says so */
  if (m->only && pcol_view_u32(p->src, i) != m->only) return PCOL_OK;
  if (unit_dropped(m, p->src, p->off, p->vt, p->vv, i)) return PCOL_OK;
  uint64_t j = a;
  while (j < e && pcol_view_i64(p->vv, j) == 0) j++;
  if (j == e) return PCOL_OK; /* merge.go isZeroSample */
  uint64_t k = (uint64_t)MAPID(m->stmap, p->ns, pcol_view_u32(p->stk, i)) << 32 |
               MAPID(m->lsmap, p->nls, pcol_view_u32(p->lab, i));
  uint32_t gi, ci;
  int added;
  if ((rc = pcol_u64map_get(&p->key, k, &gi, &added))) return rc;
  g->grp[i] = gi;
  if (added && g->at) g->at[gi] = at;
  if (e - a > g->capkey) {
    uint32_t *nk = realloc(g->key, (e - a) * sizeof *nk);
    if (!nk) return PCOL_ENOMEM;
    g->key = nk, g->capkey = e - a;
  }
  value_cols(m, pcol_view_u32(p->src, i), p->vt, a, e, g->key);
  for (j = a; j < e && !rc; j++) {
    uint32_t t = pcol_view_u32(p->vt, j), tci;
    int64_t x = pcol_view_i64(p->vv, j);
    if (!t || t > p->nvt || x == 0) continue; /* (norm_values: the zeros) */
    /* a cell of each (input type, column): one type in two columns
     * (x/kilobytes twice) and two types of one column (kilobytes and
     * megabytes of two sources) as go's merge adds them, by column */
    if ((rc = pcol_u64map_get(&g->tc, (uint64_t)t << 32 | g->key[j - a], &tci, &added))) break;
    g->ntc += added;
    if ((rc = pcol_u64map_get(&p->cell, (uint64_t)gi << 32 | tci, &ci, &added))) break;
    if (added) {
      if ((rc = norm_cell_room(g))) break;
      ci = (uint32_t)g->ncell++;
      g->type[ci] = t;
      g->col[ci] = g->key[j - a];
      g->sum[ci] = 0;
      g->next[ci] = g->head[gi];
      g->head[gi] = ci + 1;
    }
    g->sum[ci] += (uint64_t)pcol_scale(x, num, den); /* (a range's part of it: THE range rule) */
  }
  return rc;
}
static int group_row_all(void *ctx, uint64_t i, int64_t num, int64_t den) {
  return group_row(ctx, i, num, den, PCOL_NA_I64);
}

static int norm_groups_make(mctx *m, const pcol_view *src, const pcol_view *stk, const pcol_view *lab,
                            const pcol_view *off, const pcol_view *vt, const pcol_view *vv,
                            norm_groups *g) {
  uint64_t n = pcol_rows(m->f, PCOL_T_SAMPLES);
  group_pass p = {m, g, src, stk, lab, off, vt, vv, pcol_rows(m->f, PCOL_T_VALUES),
                  pcol_rows(m->f, PCOL_T_VALUE_TYPES), pcol_rows(m->f, PCOL_T_STACKS),
                  pcol_rows(m->f, PCOL_T_LABELSETS), {0}, {0}};
  int rc = PCOL_OK;
  size_t rows = n ? (size_t)n : 1; /* at most a group a sample */
  g->grp = malloc(rows * sizeof *g->grp);
  g->head = calloc(rows, sizeof *g->head);
  g->done = calloc(rows, 1);
  if (m->opt->norm_sel && !(g->at = malloc(rows * sizeof *g->at))) return add_oom(m);
  if (!g->grp || !g->head || !g->done) return add_oom(m);
  memset(g->grp, 0xff, rows * sizeof *g->grp); /* UINT32_MAX: no group */
  if (m->opt->norm_sel) {
    pcol_error e2 = {0}; /* (the selection's own error: the file's, said as it is) */
    rc = pcol_select_iter_at(m->f, m->opt->norm_sel, group_row, &p, &e2);
    if (rc && rc != PCOL_ENOMEM) {
      pcol_u64map_free(&p.key);
      pcol_u64map_free(&p.cell);
      *m->err = e2;
      return rc;
    }
  } else {
    for (uint64_t i = 0; i < n && !rc; i++) rc = group_row_all(&p, i, 1, 1);
    if (rc > 0) rc = PCOL_OK; /* (a bad row: copy_samples says so) */
  }
  pcol_u64map_free(&p.key);
  pcol_u64map_free(&p.cell);
  if (rc == PCOL_ENOMEM) return add_oom(m);
  return rc ? pcol_error_set(m->err, rc, "too many samples to normalize") : PCOL_OK;
}

/* The values of sample i under -normalize: its group's sums scaled, in the
 * order of their types, on the group's first sample, with a 0 for each
 * type of its own rows [a, e) that no sample of the group gave a value
 * (a count of 0 is not a missing count: count.h); nothing (*keep 0) on the
 * others and where every scaled value is 0.  Returns how many are in vals
 * (room for every value type). */
static size_t norm_values(mctx *m, norm_groups *g, uint64_t i, uint32_t src, const pcol_view *vt, uint64_t a,
                          uint64_t e, pcol_value_row *vals, int *keep) {
  uint32_t gi = g->grp[i];
  uint64_t nvt = pcol_rows(m->f, PCOL_T_VALUE_TYPES);
  size_t k = 0;
  *keep = 0;
  if (gi == UINT32_MAX || g->done[gi]) return 0;
  g->done[gi] = 1;
  uint32_t *ck = g->key; /* (room: a type each, copy_samples; vals' column keys kept beside them) */
  for (uint32_t c = g->head[gi]; c; c = g->next[c - 1]) {
    uint32_t t = g->type[c - 1], key = g->col[c - 1];
    int64_t x = (int64_t)g->sum[c - 1];
    int whole;
    double r = value_ratio(m, t, key, &whole);
    if (r != 1) x = scale_round(x, r);
    *keep |= pcol_unit_keeps(whole, x); /* THE unit rule's drop (count.h), of the merged profile */
    size_t at = k++; /* by column, then input type */
    while (at > 0 && (ck[at - 1] > key || (ck[at - 1] == key && vals[at - 1].value_type_id > t)))
      vals[at] = vals[at - 1], ck[at] = ck[at - 1], at--;
    vals[at].value_type_id = t;
    vals[at].value = x;
    ck[at] = key;
  }
  /* the sample's own columns without a value: 0 (its keys after the cells') */
  uint32_t *own = ck + k;
  value_cols(m, src, vt, a, e, own);
  for (uint64_t j = a; j < e; j++) {
    uint32_t t = pcol_view_u32(vt, j), key = own[j - a];
    if (!t || t > nvt) continue;
    size_t lo = 0;
    while (lo < k && (ck[lo] < key || (ck[lo] == key && vals[lo].value_type_id < t))) lo++;
    if (lo < k && ck[lo] == key && (m->opt->pos || vals[lo].value_type_id == t)) continue;
    if (lo > 0 && m->opt->pos && ck[lo - 1] == key) continue; /* (its column has a value) */
    memmove(vals + lo + 1, vals + lo, (k - lo) * sizeof *vals);
    memmove(ck + lo + 1, ck + lo, (k - lo + (size_t)(e - a)) * sizeof *ck); /* (own moves along) */
    own++;
    vals[lo].value_type_id = t;
    vals[lo].value = 0;
    ck[lo] = key;
    k++;
  }
  for (size_t j = 0; j < k; j++) vals[j].value_type_id = MAPID(m->vtmap, nvt, vals[j].value_type_id);
  /* two input types of one column (m->opt->pos: kilobytes and megabytes of
   * a merged side, both now bytes) are one value of the merged sample,
   * their sums added as Go adds int64s; without the union, two written as
   * one type (unit_as) */
  size_t w = 0;
  int merge = m->opt->pos || m->opt->unit_as;
  for (size_t j = 0; merge && j < k; j++) {
    size_t o = 0;
    while (o < w && (m->opt->pos ? ck[o] != ck[j] : vals[o].value_type_id != vals[j].value_type_id)) o++;
    if (o < w) vals[o].value = (int64_t)((uint64_t)vals[o].value + (uint64_t)vals[j].value);
    else vals[w] = vals[j], ck[w++] = ck[j];
  }
  return merge ? w : k;
}

static int copy_samples(mctx *m, uint64_t base) {
  pcol_view src, tim, dur, wt, cpu, stk, lab, off, vt, vv;
  int rc;
  if ((rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src)) ||
      (rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim)) ||
      (rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &dur)) ||
      (rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &wt)) ||
      (rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_CPU_DELTA, &cpu)) ||
      (rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_STACK, &stk)) ||
      (rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &lab)) ||
      (rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &off)) ||
      (rc = col(m, PCOL_T_VALUES, PCOL_C_V_TYPE, &vt)) ||
      (rc = col(m, PCOL_T_VALUES, PCOL_C_V_VALUE, &vv)))
    return rc;
  uint64_t n = pcol_rows(m->f, PCOL_T_SAMPLES), nv = pcol_rows(m->f, PCOL_T_VALUES);
  uint64_t nsrc = pcol_rows(m->f, PCOL_T_SOURCES), nvt = pcol_rows(m->f, PCOL_T_VALUE_TYPES);
  uint64_t ns = pcol_rows(m->f, PCOL_T_STACKS), nls = pcol_rows(m->f, PCOL_T_LABELSETS);
  pcol_value_row *vals = NULL;
  size_t cap = 0;
  pcol_view *scol[] = {&src, &tim, &dur, &wt, &cpu, &stk, &lab, &off};
  /* rows that name samples by position (Rprof's text lines, Perun's
   * per-sample text) keep every sample */
  int scaling = 0, each = 0, whole,
      texts = pcol_rows(m->f, PCOL_T_SAMPLE_TEXT) > 0 || pcol_rows(m->f, PCOL_T_TEXT_LINES) > 0;
  for (uint64_t t = 0; m->opt && m->opt->scale && t < m->opt->nscale; t++) {
    each |= type_scaled(m, t, &whole);
    scaling |= whole;
  }
  for (uint64_t c = 0; m->opt && m->opt->col_scale && m->opt->pos && c < m->opt->ncol_scale; c++)
    scaling |= m->opt->col_scale[c] != 1;
  norm_groups ng;
  memset(&ng, 0, sizeof ng);
  if (scaling && (rc = norm_groups_make(m, &src, &stk, &lab, &off, &vt, &vv, &ng))) {
    norm_groups_free(&ng);
    return rc;
  }
  uint64_t lo = m->only ? m->only_from : 0, hi = m->only ? m->only_end : n; /* (opt->only_source's run) */
  uint64_t vfrom = 0, sfrom = lo; /* first value and sample rows not yet released */
  uint64_t win = pcol_release_rows ? pcol_release_rows : 1, next = lo + win;
  int64_t last_t = INT64_MIN; /* opt->norm_sel: the time of the sample before (of its source) */
  uint32_t last_s = 0;
  for (uint64_t i = lo; i < hi && !rc; i++) {
    uint64_t a = pcol_view_u64(&off, i), e = pcol_view_u64(&off, i + 1);
    if (i == next) { /* a big mapped input: hold a window of it */
      next += win;
      for (size_t c = 0; c < sizeof scol / sizeof *scol; c++) pcol_view_release(m->f, scol[c], sfrom, i);
      sfrom = i;
      if (vfrom < a && a <= nv) {
        pcol_view_release(m->f, &vt, vfrom, a);
        pcol_view_release(m->f, &vv, vfrom, a);
        vfrom = a;
      }
    }
    if (a > e || e > nv) {
      rc = pcol_error_set(m->err, PCOL_ECORRUPT, "sample %llu has values out of range",
                          (unsigned long long)i + 1);
      break;
    }
    /* norm_values: a cell each (input type, column), and a 0 each of its own */
    uint64_t room = (scaling ? ng.ntc + (e - a) : e - a) + 3; /* (+ opt->fill's) */
    if (scaling && room + (e - a) > ng.capkey) {
      uint32_t *nk = realloc(ng.key, (size_t)(room + (e - a)) * sizeof *nk);
      if (!nk) {
        rc = add_oom(m);
        break;
      }
      ng.key = nk, ng.capkey = room + (e - a);
    }
    if (room > cap) {
      size_t nc = (size_t)room * 2;
      pcol_value_row *r = realloc(vals, nc * sizeof *r);
      if (!r) {
        rc = add_oom(m);
        break;
      }
      vals = r;
      cap = nc;
    }
    int neg = m->opt && m->opt->negate, keep = 1;
    size_t nvals = (size_t)(e - a);
    if (!scaling && unit_dropped(m, &src, &off, &vt, &vv, i)) { /* (scaling: not in a group) */
      if (!texts) continue;
      nvals = 0; /* kept, without values, for the rows that name it */
    }
    if (scaling) { /* pprof -normalize: ScaleN drops what it scaled to 0 */
      nvals = norm_values(m, &ng, i, pcol_view_u32(&src, i), &vt, a, e, vals, &keep);
      if (!keep && !texts) continue;
      if (!keep) { /* kept, at 0, for the rows that name it: a 0 of each of its types (a count of
                    * 0 is not a missing count, which its weight would stand for: count.h) */
        nvals = 0;
        for (uint64_t j = a; j < e; j++) {
          uint32_t t = pcol_view_u32(&vt, j);
          if (t && t <= nvt) vals[nvals++] = (pcol_value_row){MAPID(m->vtmap, nvt, t), 0};
        }
      }
    } else {
      for (uint64_t j = a; j < a + nvals; j++) {
        uint32_t t = pcol_view_u32(&vt, j);
        int64_t x = pcol_view_i64(&vv, j);
        if (each && type_scaled(m, t, &whole)) x = scale_round(x, m->opt->scale[t]); /* a sample's own (ScaleN) */
        vals[j - a].value_type_id = MAPID(m->vtmap, nvt, t);
        vals[j - a].value = x;
      }
      uint32_t fs = pcol_view_u32(&src, i);
      uint8_t fill = m->opt && m->opt->fill && fs < m->opt->nfill ? m->opt->fill[fs] : 0;
      if (fill & PCOL_B_FILL_COUNT)
        vals[nvals++] = (pcol_value_row){m->fill_vt[0], pcol_count_of_weight(pcol_view_i64(&wt, i), m->opt->fill_cvt[fs])};
      if (fill & PCOL_B_FILL_TIME) vals[nvals++] = (pcol_value_row){m->fill_vt[1], pcol_rtime_time(m->opt->fill_rt, i)};
      if (fill & PCOL_B_FILL_ALLOC) {
        pcol_sample_cols sc = {wt, off, vt, vv, nv, 0};
        int64_t x;
        if (pcol_ralloc_value(&sc, m->opt->fill_rt, m->opt->fill_alloc_vt, i, &x)) {
          rc = pcol_error_set(m->err, PCOL_ETOOBIG, "memory increase overflows at sample %llu",
                              (unsigned long long)i + 1);
          break;
        }
        vals[nvals++] = (pcol_value_row){m->fill_vt[2], x};
      }
    }
    /* pprof -base scales the base by -1 (the one value with no negation
     * stays the largest one of the other sign) */
    for (size_t j = 0; neg && j < nvals; j++)
      vals[j].value = vals[j].value == INT64_MIN ? INT64_MAX : -vals[j].value;
    pcol_sample_row s = {MAPID(m->srcmap, nsrc, pcol_view_u32(&src, i)),
                         pcol_view_i64(&tim, i),
                         pcol_view_i64(&dur, i),
                         pcol_view_i64(&wt, i),
                         pcol_view_i64(&cpu, i),
                         MAPID(m->stmap, ns, pcol_view_u32(&stk, i)),
                         MAPID(m->lsmap, nls, pcol_view_u32(&lab, i))};
    if (m->fr && (rc = framed_stack(m, pcol_view_u32(&stk, i), pcol_view_u32(&lab, i), &s.stack_id)))
      break;
    if (scaling && ng.at) { /* opt->norm_sel: a group's sample at its first selected tick, whole */
      uint32_t gi = ng.grp[i];
      if (keep && gi != UINT32_MAX && ng.at[gi] != PCOL_NA_I64) s.time_ns = ng.at[gi], s.duration_ns = 0;
      if (s.source_id == last_s && s.time_ns != PCOL_NA_I64 && s.time_ns < last_t) s.time_ns = last_t;
      last_s = s.source_id, last_t = s.time_ns;
    }
    if (!s.labelset_id && m->ls_none) s.labelset_id = m->ls_none;
    uint32_t sid;
    rc = pcol_b_sample(m->b, &s, vals, nvals, &sid, m->err);
    if (rc == PCOL_EINVAL)
      rc = pcol_error_set(m->err, PCOL_ECORRUPT,
                          "sample %llu is out of (source, time) order or has a bad reference",
                          (unsigned long long)i + 1);
    (void)base;
  }
  free(vals);
  norm_groups_free(&ng);
  pcol_file_release(m->f, m->f->base, m->f->size);
  return rc;
}

/* opt->only_source's sample rows [only_from, only_end): samples sort by
 * source (spec.md: (source, time) order) */
static int only_rows(mctx *m) {
  pcol_view src;
  int rc = col(m, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src);
  if (rc) return rc;
  uint64_t n = pcol_rows(m->f, PCOL_T_SAMPLES), i = 0;
  while (i < n && pcol_view_u32(&src, i) < m->only) i++;
  m->only_from = i;
  while (i < n && pcol_view_u32(&src, i) == m->only) i++;
  m->only_end = i;
  return PCOL_OK;
}

static int copy_text_and_models(mctx *m, uint64_t base) {
  int rc;
  uint64_t nsrc = pcol_rows(m->f, PCOL_T_SOURCES);
  pcol_view ts, tb, tt;
  if ((rc = col(m, PCOL_T_TEXT_LINES, PCOL_C_TL_SOURCE, &ts)) ||
      (rc = col(m, PCOL_T_TEXT_LINES, PCOL_C_TL_BEFORE, &tb)) ||
      (rc = col(m, PCOL_T_TEXT_LINES, PCOL_C_TL_TEXT, &tt)))
    return rc;
  pcol_btable *t = &m->b->t[PCOL_T_TEXT_LINES];
  /* only_source: its samples' ids (1-based) from + 1 .. end are base + 1 .. */
  uint64_t from = m->only ? m->only_from : 0, end = m->only ? m->only_end : UINT64_MAX - 1;
  for (uint64_t i = 0; i < pcol_rows(m->f, PCOL_T_TEXT_LINES); i++) {
    uint64_t k = pcol_view_u64(&tb, i);
    if (m->only && pcol_view_u32(&ts, i) != m->only) continue;
    k = k < from + 1 ? from + 1 : k > end + 1 ? end + 1 : k;
    if ((rc = push_row_u32(m, t, PCOL_C_TL_SOURCE, MAPID(m->srcmap, nsrc, pcol_view_u32(&ts, i)))) ||
        (rc = push_row_u64(m, t, PCOL_C_TL_BEFORE, k - from + base)) ||
        (rc = push_row_u32(m, t, PCOL_C_TL_TEXT, S(m, pcol_view_u32(&tt, i)))))
      return rc;
    t->rows++;
  }
  pcol_view ss, sx;
  if ((rc = col(m, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE, &ss)) ||
      (rc = col(m, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_TEXT, &sx)))
    return rc;
  t = &m->b->t[PCOL_T_SAMPLE_TEXT];
  for (uint64_t i = 0; i < pcol_rows(m->f, PCOL_T_SAMPLE_TEXT); i++) {
    uint64_t id = pcol_view_u32(&ss, i);
    if (id < from + 1 || id > end) continue; /* (only_source: another source's) */
    id = id - from + base;
    if (id > UINT32_MAX)
      return pcol_error_set(m->err, PCOL_ETOOBIG, "adding a pcol file: sample text names sample "
                            "%llu, past 2^32 - 1", (unsigned long long)id);
    if ((rc = push_row_u32(m, t, PCOL_C_ST_SAMPLE, (uint32_t)id)) ||
        (rc = push_row_u32(m, t, PCOL_C_ST_TEXT, S(m, pcol_view_u32(&sx, i)))))
      return rc;
    t->rows++;
  }
  pcol_view c[8];
  for (int k = 0; k < 8; k++)
    if ((rc = col(m, PCOL_T_MODELS, k + 1, &c[k]))) return rc;
  for (uint64_t i = 0; i < pcol_rows(m->f, PCOL_T_MODELS); i++) {
    if (m->only && pcol_view_u32(&c[PCOL_C_MOD_SOURCE - 1], i) != m->only) continue;
    pcol_model_row r = {MAPID(m->srcmap, nsrc, pcol_view_u32(&c[PCOL_C_MOD_SOURCE - 1], i)),
                        S(m, pcol_view_u32(&c[PCOL_C_MOD_UID - 1], i)),
                        S(m, pcol_view_u32(&c[PCOL_C_MOD_MODEL - 1], i)),
                        S(m, pcol_view_u32(&c[PCOL_C_MOD_METHOD - 1], i)),
                        S(m, pcol_view_u32(&c[PCOL_C_MOD_COEFFS - 1], i)),
                        pcol_view_f64(&c[PCOL_C_MOD_R_SQUARE - 1], i),
                        pcol_view_f64(&c[PCOL_C_MOD_X_START - 1], i),
                        pcol_view_f64(&c[PCOL_C_MOD_X_END - 1], i)};
    if ((rc = pcol_b_model(m->b, &r, m->err))) return rc;
  }
  return PCOL_OK;
}

static int add_file(pcol_builder *b, pcol_file *f, int as_union, const pcol_b_copy *opt,
                    pcol_error *err) {
  mctx m;
  memset(&m, 0, sizeof m);
  m.as_union = as_union;
  m.opt = opt;
  m.fr = opt && opt->frames.of_labelset ? &opt->frames : NULL;
  m.only = opt ? opt->only_source : 0;
  m.b = b;
  m.f = f;
  m.err = err;
  uint64_t base = pcol_b_sample_count(b);
  int rc = copy_strings(&m);
  TRY_OR_FAIL(rc);
  TRY_OR_FAIL(rc = copy_sources(&m));
  TRY_OR_FAIL(rc = copy_value_types(&m));
  TRY_OR_FAIL(rc = copy_functions(&m));
  if (m.only) TRY_OR_FAIL(rc = only_rows(&m)); /* (copy_mappings reads them) */
  TRY_OR_FAIL(rc = copy_mappings(&m));
  TRY_OR_FAIL(rc = copy_locations(&m));
  TRY_OR_FAIL(rc = copy_stacks(&m));
  TRY_OR_FAIL(rc = copy_labels(&m));
  if (m.fr) {
    uint64_t by = pcol_input_bytes(f);
    m.framed_budget = by > UINT64_MAX / PCOL_ROW_BUDGET_PER_BYTE ? UINT64_MAX : by * PCOL_ROW_BUDGET_PER_BYTE;
    if (m.framed_budget < PCOL_ROW_BUDGET_MIN) m.framed_budget = PCOL_ROW_BUDGET_MIN;
    TRY_OR_FAIL(rc = col(&m, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &m.sp));
    TRY_OR_FAIL(rc = col(&m, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &m.sl));
  }
  TRY_OR_FAIL(rc = copy_samples(&m, base));
  TRY_OR_FAIL(rc = copy_text_and_models(&m, base));
fail:
  free(m.smap);
  free(m.srcmap);
  free(m.vtmap);
  free(m.fnmap);
  free(m.mapmap);
  free(m.mapshift);
  free(m.locmap);
  free(m.stmap);
  free(m.lsmap);
  pcol_u64map_free(&m.framed);
  free(m.framed_id);
  pcol_buf_free(&m.path);
  pcol_stack_memo_free(&m.memo);
  return rc;
}

int pcol_b_add_file(pcol_builder *b, pcol_file *f, pcol_error *err) {
  return add_file(b, f, 0, NULL, err);
}

int pcol_b_add_file_copy(pcol_builder *b, pcol_file *f, const pcol_b_copy *opt, pcol_error *err) {
  return add_file(b, f, 0, opt, err);
}

/* Into an empty builder, f's rows are the builder's state that wrote it:
 * its strings, functions, locations, stack nodes and label sets are
 * distinct and come back in their order, and its mapping rows are taken
 * as they are (not matched with each other: an importer keeps each
 * profile's mapping list, pcol_b_mapping dedup 0, so a union can hold equal
 * rows), so every id is the same and the inputs added after it meet the
 * rows the union of f's own inputs would have (`pcol index`). */
int pcol_b_add_union(pcol_builder *b, pcol_file *f, pcol_error *err) {
  if (pcol_b_sample_count(b) || b->t[PCOL_T_MAPPINGS].rows || b->t[PCOL_T_STRINGS].rows > 1)
    return pcol_error_set(err, PCOL_EINVAL, "pcol_b_add_union: the builder is not empty");
  return add_file(b, f, 1, NULL, err);
}
