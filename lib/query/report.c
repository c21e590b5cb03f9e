/* report.c — pcol_report_write: one self-contained HTML page (`pcol report`)
 * with a timeline, a top table and a flame graph that the page recomputes
 * for a brushed time range.
 *
 * The page is the template lib/query/report/report.html with its script
 * report.js (the ES modules lib/query/report/modules.txt lists, joined by
 * tools/build/embed.sh; compiled into the library as byte arrays, $(BUILD)/
 * gen/report_assets.h) and the profile's data between them: a small JSON
 * object (names, sources, value types, what `pcol info` says) and binary
 * columns, base64-encoded, each in the narrowest of u8/u16/u32/i32/f64 or
 * one constant.  Nothing per sample is JSON, so a 1M-sample profile makes a
 * page of a few bytes per sample.  The columns are in three parts, each
 * deflated: the first (what the first drawing reads: stacks, trees, keys,
 * and the whole profile's weights per stack node, "sw0"), after the script
 * the samples part (every per-sample column, "s":3) and the second part
 * (the value columns other than the default one, "s":2); doc/report.md.
 *
 * What the page adds up comes from the query level itself, so the page and
 * `pcol top` cannot disagree on a rule: each sample's value (weights.c, also
 * rprof.alloc), the keys each location counts under for top (top.c), the
 * frame tree and each stack node's node in it (ftree.c), the shares of a
 * diff base (diff.c).  The script applies the range rule of spec.md §7
 * (the ticks of a long sample inside the range, pcol_scale's rounding;
 * each source's "intervals" from lib/core/select.c) to them.
 *
 * Cost model: O(samples x value types) time and memory for the columns,
 * O(stacks + locations + lines) for the trees and keys. */
#include "query.h"
#include "report_assets.h"
#include "keys.h"     /* PCOL_VALUE_RPROF_ALLOC, PCOL_VT_CPU, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "bytes.h"    /* pcol_str_is, pcol_wr64, pcol_wr16, ... */
#include "buf.h"      /* pcol_buf, pcol_buf_free, pcol_buf_append, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "count.h"    /* pcol_count_types, pcol_source_default_types */
#include "lasts.h"    /* pcol_thread_classes, pcol_thread_name */
#include "select.h"   /* pcol_source_range_meta */
#include "frames.h"   /* pcol_source_nameless_places */

#include <math.h>
#include <stdarg.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

typedef struct rep {
  pcol_file *f;
  pcol_buf js;  /* the JSON object */
  pcol_buf bin; /* the binary columns, each 8-byte aligned */
  pcol_buf bin2; /* the second part: columns the first drawing does not read */
  pcol_buf bin3; /* the samples part: the per-sample columns (times, stacks...) */
  int seg;       /* 2: col() writes into bin2 (its descriptor says "s":2), 3: into bin3 ("s":3) */
  int rc;       /* first failure of an append (PCOL_ENOMEM, no message) or of
                 * names_of's interning (its message in err) */
  pcol_error *err;
  uint64_t ns, nstacks;
  int64_t *tmp; /* samples (or more) int64 of scratch */
  int gtags_ls; /* "gtags" carries each sample's label set */
  pcol_q_keytab strs; /* every name once ("strtab"); names_of writes ids into it */
} rep;

/* r->rc as a status with its message: an append's failure is "out of
 * memory", an interning's has its own. */
static int rep_status(rep *r, pcol_error *err) { return r->rc == PCOL_ENOMEM ? pcol_oom(err) : r->rc; }

static void put(rep *r, const void *p, size_t n) {
  if (!r->rc && pcol_buf_append(&r->js, p, n)) r->rc = PCOL_ENOMEM;
}

/* a string literal, its length counted by the compiler */
#define PUTS(r, lit) put((r), (lit), sizeof(lit) - 1)

static void putf(rep *r, const char *fmt, ...) {
  char b[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  if (n > 0) put(r, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
}

/* A JSON string: valid UTF-8 kept, broken sequences and NUL as U+FFFD, '<'
 * escaped so that the text can never close the <script> it sits in. */
static void jstr(rep *r, const char *p, size_t n) {
  const unsigned char *s = (const unsigned char *)p;
  put(r, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned c = s[i];
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      put(r, e, 2);
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7f) {
      putf(r, c == 0 ? "\\ufffd" : "\\u%04x", c);
    } else if (c < 0x80) {
      put(r, s + i, 1);
    } else {
      size_t len = pcol_utf8_len(p + i, n - i);
      if (len) {
        put(r, s + i, len);
        i += len - 1;
      } else {
        put(r, "\\ufffd", 6);
      }
    }
  }
  put(r, "\"", 1);
}

static void jpstr(rep *r, pcol_str s) {
  if (s.ptr) jstr(r, s.ptr, s.len);
  else put(r, "null", 4);
}

static void jkey(rep *r, const char *k) {
  jstr(r, k, strlen(k));
  put(r, ":", 1);
}

/* A column of n int64 values as "name":{...}, in the narrowest encoding:
 * "c" (all equal), "u8", "u16", "u32", "i32" or "f64" (exact below 2^53;
 * larger magnitudes are marked "lossy"). */
static void col(rep *r, const char *name, const int64_t *v, uint64_t n) {
  int64_t lo = n ? v[0] : 0, hi = lo;
  for (uint64_t i = 1; i < n; i++) {
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) hi = v[i];
  }
  pcol_buf *B = r->seg == 2 ? &r->bin2 : r->seg == 3 ? &r->bin3 : &r->bin;
  const char *part = r->seg == 2 ? ",\"s\":2" : r->seg == 3 ? ",\"s\":3" : "";
  jkey(r, name);
  if (lo == hi) {
    putf(r, "{\"e\":\"c\",\"n\":%llu,\"v\":%lld}", (unsigned long long)n, (long long)lo);
    return;
  }
  const char *e;
  size_t w;
  if (lo >= 0 && hi < 256) e = "u8", w = 1;
  else if (lo >= 0 && hi < 65536) e = "u16", w = 2;
  else if (lo >= 0 && hi <= (int64_t)UINT32_MAX) e = "u32", w = 4;
  else if (lo >= INT32_MIN && hi <= INT32_MAX) e = "i32", w = 4;
  else e = "f64", w = 8;
  /* "dv": each value less the one before, zigzag, LEB128 (data.js decodes
   * it into the type above), when that is under 3/4 of the fixed width:
   * parents of prefix trees and sorted times are mostly small steps
   * (go-cpu-large's three parent and node columns of 425k: 5.1 MB -> 1.4 MB) */
  if (w > 1 && lo > -(INT64_C(1) << 52) && hi < (INT64_C(1) << 52)) {
    size_t vlen = 0;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t z = (uint64_t)(i ? v[i] - v[i - 1] : v[i]);
      z = (z << 1) ^ (uint64_t)((int64_t)z >> 63);
      do vlen++; while (z >>= 7);
    }
    if (vlen < (size_t)n * w / 4 * 3) {
      if (pcol_buf_reserve(B, vlen)) {
        r->rc = PCOL_ENOMEM;
        return;
      }
      size_t off = B->len;
      uint8_t *d = (uint8_t *)B->data + off;
      for (uint64_t i = 0; i < n; i++) {
        uint64_t z = (uint64_t)(i ? v[i] - v[i - 1] : v[i]);
        z = (z << 1) ^ (uint64_t)((int64_t)z >> 63);
        for (; z >= 0x80; z >>= 7) *d++ = (uint8_t)(z | 0x80);
        *d++ = (uint8_t)z;
      }
      B->len += vlen;
      putf(r, "{\"e\":\"dv\",\"t\":\"%s\",\"n\":%llu,\"o\":%llu,\"len\":%zu%s}", e, (unsigned long long)n,
           (unsigned long long)off, vlen, part);
      return;
    }
  }
  while (!r->rc && B->len % 8) r->rc = pcol_buf_append(B, "", 1) ? PCOL_ENOMEM : 0;
  if (r->rc || pcol_buf_reserve(B, (size_t)n * w)) {
    r->rc = PCOL_ENOMEM;
    return;
  }
  size_t off = B->len;
  uint8_t *d = (uint8_t *)B->data + off;
  for (uint64_t i = 0; i < n; i++) {
    int64_t x = v[i];
    if (w == 1) d[i] = (uint8_t)x;
    else if (w == 2) pcol_wr16(d + 2 * i, (uint16_t)x);
    else if (w == 4) pcol_wr32(d + 4 * i, (uint32_t)x);
    else {
      double f = (double)x;
      uint64_t u;
      memcpy(&u, &f, 8);
      pcol_wr64(d + 8 * i, u);
    }
  }
  B->len += (size_t)n * w;
  int lossy = w == 8 && (lo < -(INT64_C(1) << 53) || hi > (INT64_C(1) << 53));
  putf(r, "{\"e\":\"%s\",\"n\":%llu,\"o\":%llu%s%s}", e, (unsigned long long)n,
       (unsigned long long)off, lossy ? ",\"lossy\":1" : "", part);
}

static void col_u32(rep *r, const char *name, const uint32_t *v, uint64_t n) {
  int64_t *t = malloc((n ? n : 1) * sizeof *t);
  if (!t) {
    r->rc = PCOL_ENOMEM;
    return;
  }
  for (uint64_t i = 0; i < n; i++) t[i] = v[i];
  col(r, name, t, n);
  free(t);
}

static void col_f64(rep *r, const char *name, const double *v, uint64_t n) {
  while (!r->rc && r->bin.len % 8) r->rc = pcol_buf_append(&r->bin, "", 1) ? PCOL_ENOMEM : 0;
  size_t off = r->bin.len;
  for (uint64_t i = 0; i < n && !r->rc; i++) {
    uint8_t b[8];
    uint64_t u;
    memcpy(&u, &v[i], 8);
    pcol_wr64(b, u);
    if (pcol_buf_append(&r->bin, b, 8)) r->rc = PCOL_ENOMEM;
  }
  jkey(r, name);
  putf(r, "{\"e\":\"f64\",\"n\":%llu,\"o\":%llu}", (unsigned long long)n, (unsigned long long)off);
}

/* ------------------------------------------------------------ pieces */

/* A list of names, s[1..n], as {"si": a column of ids into "strtab"} (0:
 * null): the functions' names recur in the key sets, the frame tree, the
 * locations' strings and the source pane, and are embedded once (data.js
 * puts the strings back). */
static int names_of(rep *r, const pcol_str *s, uint32_t n) {
  int64_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
  if (!ids) return r->rc = PCOL_ENOMEM;
  for (uint32_t i = 1; i <= n && !r->rc; i++) {
    uint32_t id = 0;
    if (s[i].ptr) r->rc = pcol_q_key_intern(&r->strs, s[i].ptr, s[i].len, 1, &id, r->err);
    ids[i - 1] = id;
  }
  put(r, "{", 1);
  col(r, "si", ids, n);
  put(r, "}", 1);
  free(ids);
  return r->rc;
}

static int str_cmp_bytes(pcol_str x, pcol_str y) {
  size_t n = x.len < y.len ? x.len : y.len;
  int c = n ? memcmp(x.ptr, y.ptr, n) : 0;
  return c ? c : x.len == y.len ? 0 : x.len < y.len ? -1 : 1;
}

static int key_cmp(const void *a, const void *b, void *ctx) {
  const pcol_str *s = ctx;
  return str_cmp_bytes(s[*(const uint32_t *)a], s[*(const uint32_t *)b]);
}

/* One key set of top: names, their byte order (top sorts ties by name
 * bytewise, which JavaScript's string order is not), the CSR per location. */
/* frames: the keys of go's views of frames (pcol_top_compute_frames: the
 * call graph's, an Rprof frame without a line a key of its own), where the
 * top table keeps top's (summaryRprof's rule by line) */
static int keyset(rep *r, const pcol_select *sel, pcol_by by, int unnamed, int frames, pcol_error *err) {
  static const char *const byname[] = {"function", "line", "file"};
  pcol_q_topkeys k;
  PCOL_RETURN_NOT_OK(pcol_q_top_keys(r->f, sel, by, frames, &k, err));
  uint32_t n = k.n;
  uint32_t *ord = malloc(((size_t)n + 1) * sizeof *ord);
  uint32_t *rank = malloc(((size_t)n + 1) * sizeof *rank);
  if (!ord || !rank) {
    free(ord);
    free(rank);
    pcol_q_topkeys_free(&k);
    return pcol_oom(err);
  }
  for (uint32_t i = 0; i < n; i++) ord[i] = i + 1;
  qsort_r(ord, n, sizeof *ord, key_cmp, k.name);
  rank[0] = 0;
  for (uint32_t i = 0; i < n; i++) rank[ord[i]] = i + 1;
  putf(r, "{\"by\":\"%s\",\"unnamed\":%d,\"frames\":%d,\"nokey\":%u,\"names\":", byname[by], unnamed, frames,
       k.nokey);
  names_of(r, k.name, k.n);
  put(r, ",", 1);
  col_u32(r, "rank", rank, (uint64_t)n + 1);
  /* the "(inline)" marks of the whole profile (top.c's edge rule), per
   * key; left out when top's keys are not the page's (never expected) */
  {
    pcol_value_sel dv;
    pcol_top tp = {0};
    if (pcol_value_resolve(r->f, sel, NULL, &dv, NULL) == PCOL_OK &&
        (frames ? pcol_top_compute_frames : pcol_top_compute)(r->f, sel, &dv, by, &tp, NULL) == PCOL_OK) {
      int same = 1, any = 0;
      for (size_t i = 0; i < tp.nrows && same; i++) {
        uint32_t key = tp.rows[i].key;
        same = key >= 1 && key <= n && str_cmp_bytes(tp.rows[i].name, k.name[key]) == 0;
        any |= tp.rows[i].inl;
      }
      if (same && any) { /* rank is written: its memory holds the marks */
        memset(rank, 0, ((size_t)n + 1) * sizeof *rank);
        for (size_t i = 0; i < tp.nrows; i++) rank[tp.rows[i].key] = (uint32_t)tp.rows[i].inl;
        put(r, ",", 1);
        col_u32(r, "inl", rank, (uint64_t)n + 1);
      }
    }
    pcol_top_free(&tp);
  }
  put(r, ",", 1);
  col_u32(r, "koff", k.loc_koff, k.nloc + 2);
  put(r, ",", 1);
  col_u32(r, "keys", k.loc_keys, k.loc_koff[k.nloc + 1]);
  /* the call graph's keys (graph.js, graph.c): every key of a location,
   * repeats kept, bit 31 on a line that is not the outermost.  Most
   * locations have them as keys says with the last one outermost; only
   * when some does not are they embedded. */
  int plain = 1;
  for (uint64_t l = 1; l <= k.nloc + 1 && plain; l++) plain = k.loc_aoff[l] == k.loc_koff[l];
  for (uint64_t l = 1; l <= k.nloc && plain; l++)
    for (uint32_t j = k.loc_koff[l]; j < k.loc_koff[l + 1] && plain; j++)
      plain = k.loc_all[j] == (k.loc_keys[j] | (j + 1 == k.loc_koff[l + 1] ? 0 : 0x80000000u));
  if (!plain) {
    put(r, ",", 1);
    col_u32(r, "aoff", k.loc_aoff, k.nloc + 2);
    put(r, ",", 1);
    col_u32(r, "all", k.loc_all, k.loc_aoff[k.nloc + 1]);
  }
  /* hide/show (hide.js): each line's key and the unsymbolized fallback,
   * from which the page makes the keys of the lines left */
  put(r, ",", 1);
  col_u32(r, "lkey", k.line_key, pcol_rows(r->f, PCOL_T_LINES));
  put(r, ",", 1);
  col_u32(r, "ukey", k.loc_ukey, k.nloc + 1);
  put(r, "}", 1);
  free(ord);
  free(rank);
  pcol_q_topkeys_free(&k);
  return r->rc;
}

/* Which key sets the page needs: by function, line and file, each once per
 * way of naming unnamed functions that a choice of sources can give (frames
 * of their own unless every selected source's are places: THE nameless
 * rule, frames.c; is_rprof[s] is that rule's answer, "places" in the page). */
static int keysets(rep *r, const uint8_t *is_rprof, uint64_t nsrc, pcol_error *err) {
  uint32_t first_rprof = 0, any_other = 0;
  for (uint64_t s = 1; s <= nsrc; s++) {
    if (is_rprof[s] && !first_rprof) first_rprof = (uint32_t)s;
    if (!is_rprof[s]) any_other = 1;
  }
  put(r, "\"keysets\":[", 11);
  int k = 0;
  /* by line with an Rprof source: top's keys (the table, summaryRprof's
   * rule) and go's (frames: the call graph, as `pcol graph --by line`) */
  for (int by = PCOL_BY_FUNCTION; by <= PCOL_BY_FILE; by++)
    for (int frames = 0; frames <= (by == PCOL_BY_LINE && first_rprof); frames++) {
      if (first_rprof) {
        pcol_select one = {0};
        one.source_id = first_rprof;
        if (k++) put(r, ",", 1);
        PCOL_RETURN_NOT_OK(keyset(r, &one, (pcol_by)by, 0, frames, err));
      }
      if (any_other || !nsrc) {
        if (k++) put(r, ",", 1);
        PCOL_RETURN_NOT_OK(keyset(r, NULL, (pcol_by)by, 1, frames, err));
      }
    }
  put(r, "]", 1);
  return r->rc;
}

/* The frame tree (structure only: the page adds the values up) and each
 * stack node's node in it. */
static int frame_tree(rep *r, pcol_ftree *t, pcol_error *err) {
  pcol_q_keytab names = {0};
  uint32_t *nid = malloc(((size_t)t->n + 1) * sizeof *nid);
  if (!nid) return pcol_oom(err);
  int rc = PCOL_OK;
  nid[0] = 0;
  for (uint32_t i = 1; i < t->n && !rc; i++)
    rc = pcol_q_key_intern(&names, t->name[i].ptr ? t->name[i].ptr : "", t->name[i].len, 0, &nid[i], err);
  if (rc) {
    free(nid);
    pcol_q_keytab_free(&names);
    return rc;
  }
  /* hide/show (hide.js) rebuilds the tree from each line's frame name
   * and each line-less location's */
  uint64_t nlines = pcol_rows(r->f, PCOL_T_LINES), nloc = pcol_rows(r->f, PCOL_T_LOCATIONS);
  pcol_str *ln = NULL, *lc = NULL;
  int64_t *lid = NULL, *cid = NULL;
  rc = pcol_q_ftree_frame_names(r->f, t, &ln, &lc, err);
  if (!rc && (!(lid = malloc((nlines + 1) * sizeof *lid)) || !(cid = malloc((nloc + 1) * sizeof *cid))))
    rc = pcol_oom(err);
  for (uint64_t i = 0; !rc && i < nlines; i++) {
    uint32_t id;
    rc = pcol_q_key_intern(&names, ln[i].ptr ? ln[i].ptr : "", ln[i].len, 0, &id, err);
    lid[i] = id;
  }
  for (uint64_t i = 0; !rc && i <= nloc; i++) {
    uint32_t id = 0;
    if (lc[i].ptr) rc = pcol_q_key_intern(&names, lc[i].ptr, lc[i].len, 0, &id, err);
    cid[i] = id;
  }
  free(ln);
  free(lc);
  if (rc) {
    free(lid);
    free(cid);
    free(nid);
    pcol_q_keytab_free(&names);
    return rc;
  }
  putf(r, "\"ftree\":{\"n\":%u,\"names\":", t->n);
  names_of(r, names.s, names.n);
  put(r, ",", 1);
  col(r, "lname", lid, nlines);
  put(r, ",", 1);
  col(r, "aname", cid, nloc + 1);
  free(lid);
  free(cid);
  put(r, ",", 1);
  col_u32(r, "parent", t->parent, t->n);
  put(r, ",", 1);
  col_u32(r, "name", nid, t->n);
  put(r, ",", 1);
  col_u32(r, "stack", pcol_q_ftree_stack_nodes(t), r->nstacks + 1);
  put(r, "}", 1);
  free(nid);
  pcol_q_keytab_free(&names);
  return r->rc;
}

/* The value choices: samples (each source's own count), each stored type
 * (levels only for the memory line, not offered as sums), the time of
 * Rprof sources when no stored type holds it, rprof.alloc. */
typedef struct vchoice {
  pcol_value_sel v;
  char cli[160]; /* the --value argument that names it */
  int level;     /* pcol_q_value_is_level: drawn, never summed */
} vchoice;

static int value_choices(rep *r, vchoice **out, size_t *n, pcol_error *err) {
  uint64_t nvt = pcol_rows(r->f, PCOL_T_VALUE_TYPES);
  vchoice *c = calloc(nvt + 3, sizeof *c);
  if (!c) return pcol_oom(err);
  size_t k = 0;
  /* no count to show (a pprof difference that marks no base sample: count.h
   * pcol_count_unmarked_diff): no samples offered, as go offers none */
  uint32_t unmarked = 0;
  int rc = pcol_count_unmarked_diff(r->f, &unmarked, err);
  if (!rc && !unmarked) {
    rc = pcol_value_resolve(r->f, NULL, "samples", &c[k].v, err);
    snprintf(c[k++].cli, sizeof c->cli, "samples");
  }
  /* the stored samples/count type that every source counts by (THE count
   * rule, pcol_count_types: a pprof file's) is the same numbers as
   * "samples": offered once, under the CLI's name (issue 44: the menu and
   * the header said "samples (count)" twice) */
  uint64_t nsrc = pcol_rows(r->f, PCOL_T_SOURCES);
  uint32_t *cvt = NULL, same = 0;
  if (!rc) rc = pcol_count_types(r->f, &cvt, err);
  if (!rc && nsrc) {
    same = pcol_count_vt(cvt[1]);
    for (uint64_t s = 2; s <= nsrc; s++)
      if (pcol_count_vt(cvt[s]) != same) same = 0;
  }
  free(cvt);
  for (uint64_t i = 0; !rc && i < nvt; i++) {
    if (same && i + 1 == same) continue;
    pcol_view ty, un;
    pcol_str t, u;
    if ((rc = pcol_column(r->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err)) ||
        (rc = pcol_column(r->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err)) ||
        (rc = pcol_string(r->f, pcol_view_u32(&ty, i), &t, err)) ||
        (rc = pcol_string(r->f, pcol_view_u32(&un, i), &u, err)))
      break;
    c[k].v.vt_id = (uint32_t)(i + 1);
    c[k].v.type = t;
    c[k].v.unit = u;
    c[k].level = pcol_q_value_is_level(r->f, (uint32_t)(i + 1), NULL);
    snprintf(c[k].cli, sizeof c->cli, "%.*s/%.*s", (int)pcol_utf8_cut(t.ptr, t.len, 70),
             t.ptr ? t.ptr : "NA", (int)pcol_utf8_cut(u.ptr, u.len, 70), u.ptr ? u.ptr : "NA");
    k++;
  }
  if (!rc && pcol_value_resolve(r->f, NULL, PCOL_VT_CPU, &c[k].v, NULL) == PCOL_OK &&
      c[k].v.vt_id == PCOL_VT_TIME) /* Rprof's time (the time rule), stored nowhere */
    snprintf(c[k++].cli, sizeof c->cli, "%s", PCOL_VT_CPU);
  if (!rc && pcol_value_resolve(r->f, NULL, PCOL_VALUE_RPROF_ALLOC, &c[k].v, NULL) == PCOL_OK)
    snprintf(c[k++].cli, sizeof c->cli, "%s", PCOL_VALUE_RPROF_ALLOC);
  if (rc) {
    free(c);
    return rc;
  }
  *out = c;
  *n = k;
  return PCOL_OK;
}

static size_t choice_of(const vchoice *c, size_t n, uint32_t vt) {
  for (size_t i = 0; i < n; i++)
    if (c[i].v.vt_id == vt) return i;
  return 0;
}

/* The timeline's tracks: a track per thread of a source, THE thread rule
 * and THE thread-name rule (lib/core/lasts.c), as the speedscope and
 * Firefox exports' threads: each sample's thread ("col", 0: no thread
 * label), each thread's name ("names", with its id: two `worker` threads
 * are "worker tid 12" and "worker tid 13") and the name of a sample
 * without any thread label ("none"). */
static int threads(rep *r, pcol_error *err) {
  pcol_file *f = r->f;
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS);
  uint32_t *cls = NULL, ncls = 0;
  PCOL_RETURN_NOT_OK(pcol_thread_classes(f, &cls, &ncls, err));
  if (!ncls) {
    free(cls);
    return PCOL_OK;
  }
  pcol_view sls;
  pcol_str *names = calloc((size_t)ncls + 1, sizeof *names);
  uint64_t *off = calloc((size_t)ncls + 1, sizeof *off);
  pcol_buf nb = {0};
  uint32_t *named = NULL;
  int rc = names && off ? pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &sls, err) : pcol_oom(err);
  if (!rc) rc = pcol_thread_name_sets(f, cls, ncls, &named, err);
  /* each thread's name, of its label set by THE thread-name rule (offsets
   * into nb: it grows) */
  for (uint32_t k = 1; k <= ncls && !rc; k++) {
    size_t at = nb.len;
    if (!(rc = pcol_thread_name(f, named[k], 1, &nb, err))) off[k] = at, names[k].len = nb.len - at + 1;
  }
  free(named);
  for (uint32_t k = 1; k <= ncls && !rc; k++)
    names[k] = (pcol_str){nb.data ? (const char *)nb.data + off[k] : "", names[k].len - 1};
  if (!rc) {
    for (uint64_t i = 0; i < r->ns; i++) {
      uint32_t ls = pcol_view_u32(&sls, i);
      r->tmp[i] = ls <= nls ? cls[ls] : 0;
    }
    PUTS(r, "\"threads\":{\"none\":");
    jstr(r, PCOL_THREAD_UNLABELLED, strlen(PCOL_THREAD_UNLABELLED));
    PUTS(r, ",\"names\":");
    names_of(r, names, ncls);
    put(r, ",", 1);
    r->seg = 3;
    col(r, "col", r->tmp, r->ns);
    r->seg = 0;
    put(r, "},", 2);
    rc = r->rc;
  }
  free(cls);
  free(names);
  free(off);
  pcol_buf_free(&nb);
  return rc;
}

/* The call graph's label tags (graph_tags.c): each sample's label set,
 * when some set has a tag (string labels, "bytes"); graphtags.js makes
 * each set's tags from "labels" (with the page's tagshow/taghide) and
 * counts and draws them as pcol graph does. */
static int gtags(rep *r, pcol_error *err) {
  uint64_t nls = pcol_rows(r->f, PCOL_T_LABELSETS);
  int any, rc = pcol_q_gtags_any(r->f, &any, err);
  if (!rc && any) {
    pcol_view sls;
    rc = pcol_column(r->f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &sls, err);
    if (!rc) {
      for (uint64_t i = 0; i < r->ns; i++) {
        uint32_t ls = pcol_view_u32(&sls, i);
        r->tmp[i] = ls <= nls ? ls : 0;
      }
      put(r, "\"gtags\":{", 9);
      r->seg = 3;
      col(r, "ls", r->tmp, r->ns);
      r->seg = 0;
      put(r, "},", 2);
      rc = r->rc;
      r->gtags_ls = 1;
    }
  }
  return rc;
}

/* The label sets for the page's tag filter (range.js pcolTagKeep, the rule
 * of lib/core/filter.c): the key and the string value of each label
 * ("val" 0: a numeric one, then "num" its number and "unit" its unit, an
 * id into "units", 0: none), each set's labels label[off[ls] .. off[ls+1]),
 * and each sample's set unless "gtags" already carries it. */
static int label_sets(rep *r, pcol_error *err) {
  pcol_file *f = r->f;
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS), nlabels = pcol_rows(f, PCOL_T_LABELS);
  if (!nls || !nlabels) return PCOL_OK;
  pcol_view lsoff, lkey, lstr, lnum, lunit, sls;
  pcol_column_req req[] = {{&lsoff, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
                           {&lkey, PCOL_T_LABELS, PCOL_C_LB_KEY},
                           {&lstr, PCOL_T_LABELS, PCOL_C_LB_STR},
                           {&lnum, PCOL_T_LABELS, PCOL_C_LB_NUM},
                           {&lunit, PCOL_T_LABELS, PCOL_C_LB_UNIT},
                           {&sls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  pcol_q_keytab keys = {0}, vals = {0}, units = {0};
  int64_t *off = malloc((nls + 2) * sizeof *off), *lk = malloc((nlabels + 1) * sizeof *lk),
          *lv = malloc((nlabels + 1) * sizeof *lv), *ln = malloc((nlabels + 1) * sizeof *ln),
          *lu = malloc((nlabels + 1) * sizeof *lu);
  int rc = off && lk && lv && ln && lu ? PCOL_OK : pcol_oom(err);
  uint64_t n = 0;
  if (!rc) off[0] = off[1] = 0;
  for (uint64_t ls = 1; !rc && ls <= nls; ls++) {
    uint64_t a = pcol_view_u64(&lsoff, ls - 1), e = pcol_view_u64(&lsoff, ls);
    if (e > nlabels) e = nlabels;
    if (a > e) a = e;
    for (uint64_t i = a; i < e && !rc && n < nlabels; i++) {
      pcol_str k, v = {0};
      uint32_t kid = 0, vid = 0, vs = pcol_view_u32(&lstr, i);
      rc = pcol_string(f, pcol_view_u32(&lkey, i), &k, err);
      if (!rc && vs) rc = pcol_string(f, vs, &v, err);
      if (!rc) rc = pcol_q_key_intern(&keys, k.ptr ? k.ptr : "", k.ptr ? k.len : 0, 0, &kid, err);
      if (!rc && vs) rc = pcol_q_key_intern(&vals, v.ptr ? v.ptr : "", v.ptr ? v.len : 0, 0, &vid, err);
      /* a numeric label: its number and unit (the call graph's "bytes" boxes) */
      uint32_t uid = 0;
      int64_t num = vs ? 0 : pcol_view_i64(&lnum, i);
      if (!rc && !vs) {
        pcol_str u = {0};
        rc = pcol_string(f, pcol_view_u32(&lunit, i), &u, err);
        if (!rc && u.ptr && u.len) rc = pcol_q_key_intern(&units, u.ptr, u.len, 0, &uid, err);
      }
      lk[n] = kid;
      ln[n] = num;
      lu[n] = uid;
      lv[n++] = vid;
    }
    off[ls + 1] = (int64_t)n;
  }
  if (!rc) {
    PUTS(r, "\"labels\":{\"keys\":");
    names_of(r, keys.s, keys.n);
    PUTS(r, ",\"vals\":");
    names_of(r, vals.s, vals.n);
    PUTS(r, ",");
    col(r, "off", off, nls + 2);
    PUTS(r, ",");
    col(r, "key", lk, n);
    PUTS(r, ",");
    col(r, "val", lv, n);
    PUTS(r, ",\"units\":");
    names_of(r, units.s, units.n);
    PUTS(r, ",");
    col(r, "num", ln, n);
    PUTS(r, ",");
    col(r, "unit", lu, n);
    if (!r->gtags_ls) {
      for (uint64_t i = 0; i < r->ns; i++) {
        uint32_t ls = pcol_view_u32(&sls, i);
        r->tmp[i] = ls <= nls ? ls : 0;
      }
      PUTS(r, ",");
      r->seg = 3;
      col(r, "ls", r->tmp, r->ns);
      r->seg = 0;
    }
    PUTS(r, "},");
    rc = rep_status(r, err);
  }
  free(off);
  free(lk);
  free(lv);
  free(ln);
  free(lu);
  pcol_q_keytab_free(&keys);
  pcol_q_keytab_free(&vals);
  pcol_q_keytab_free(&units);
  return rc;
}

/* Sources: what `pcol info` lists, plus each one's rows, leading rows
 * without a time, time span and default value. */
static int sources_of(rep *r, const vchoice *vc, size_t nvc, uint8_t *is_rprof, const uint8_t *iv,
                      pcol_error *err) {
  pcol_file *f = r->f;
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES), n = r->ns;
  pcol_view st, su, src, tim, dur;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &st, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &su, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &dur, err));
  put(r, "\"sources\":[", 11);
  uint64_t row = 0;
  for (uint64_t s = 1; s <= nsrc; s++) {
    pcol_str t, u;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&st, s - 1), &t, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&su, s - 1), &u, err));
    int places; /* THE nameless rule (frames.c): an Rprof source's, or its copy's */
    PCOL_RETURN_NOT_OK(pcol_source_nameless_places(f, (uint32_t)s, &places, err));
    is_rprof[s] = (uint8_t)places;
    /* rows of source s (sorted by source; anything else counts as none) */
    uint64_t a = row;
    while (row < n && pcol_view_u32(&src, row) == s) row++;
    uint64_t na = 0;
    while (a + na < row && pcol_view_i64(&tim, a + na) == PCOL_NA_I64) na++;
    int64_t t0 = 0, t1 = 0, tlast = 0, dlast = 0;
    int timed = a + na < row;
    if (timed) {
      t0 = pcol_view_i64(&tim, a + na);
      for (uint64_t i = a + na; i < row; i++) {
        int64_t e, d = pcol_view_i64(&dur, i);
        if (__builtin_add_overflow(pcol_view_i64(&tim, i), d > 0 ? d : 0, &e)) e = INT64_MAX;
        if (e > t1) t1 = e;
      }
      tlast = pcol_view_i64(&tim, row - 1);
      dlast = pcol_view_i64(&dur, row - 1);
    }
    /* the source's default (pcol_value_resolve of it alone: the core rule,
     * computed once for every source) */
    uint32_t dvt;
    PCOL_RETURN_NOT_OK(pcol_source_default_types(f, (uint32_t)s, (uint32_t)s, &dvt, err));
    int64_t interval = 0;
    if (pcol_meta_get_i64(f, (uint32_t)s, RPROF_META_INTERVAL_US, &interval, NULL) != PCOL_OK ||
        interval < 0 || interval > INT64_MAX / 1000)
      interval = 0;
    interval *= 1000;
    if (s > 1) put(r, ",", 1);
    putf(r, "{\"id\":%llu,\"type\":", (unsigned long long)s);
    jpstr(r, t);
    put(r, ",\"uri\":", 7);
    jpstr(r, u);
    if (is_rprof[s]) put(r, ",\"places\":1", 11); /* (its nameless lines are places: keysets) */
    /* its name, when the importer gives one (a JFR source's event type):
     * the timeline's tracks are named by it */
    pcol_str nm;
    if (pcol_meta_get(f, (uint32_t)s, JFR_META_EVENT, &nm, NULL) == PCOL_OK && nm.ptr) {
      put(r, ",\"name\":", 8);
      jpstr(r, nm);
    }
    putf(r, ",\"row0\":%llu,\"row1\":%llu,\"na\":%llu,\"timed\":%d,\"t0\":%lld,\"t1\":%lld,"
            "\"value\":%zu,\"interval_ns\":%lld,\"tlast\":%lld,\"dlast\":%lld,\"intervals\":%d}",
         (unsigned long long)a, (unsigned long long)row, (unsigned long long)na, timed,
         (long long)t0, (long long)t1, choice_of(vc, nvc, dvt), (long long)interval,
         (long long)tlast, (long long)dlast, iv[s]);
  }
  put(r, "],", 2);
  if (row != n)
    return pcol_error_set(err, PCOL_ECORRUPT, "samples are not sorted by source (row %llu)",
                          (unsigned long long)row + 1);
  return r->rc;
}

/* ... and whether each source's long samples are intervals (spec.md §7.1,
 * "Interval sources"; lib/core/select.c reads the mark). */
static int sources(rep *r, const vchoice *vc, size_t nvc, uint8_t *is_rprof, pcol_error *err) {
  int64_t *maxd;
  uint8_t *iv;
  PCOL_RETURN_NOT_OK(pcol_source_range_meta(r->f, &maxd, &iv, err));
  int rc = sources_of(r, vc, nvc, is_rprof, iv, err);
  free(maxd), free(iv);
  return rc;
}

/* Each sample's span on the stack chart (stackchart.js), ns, 0 untimed:
 * THE span rule (lib/core/lasts.h) as the speedscope export draws its
 * timeline, per source and thread (THE thread rule): its duration, else
 * (V8) until the next sample of its thread, the last of a V8 thread, which
 * measured no time (V8's wall 0), -1: drawn for none, as the speedscope
 * export's timeline and speedscope's reading of the .cpuprofile give it
 * none, and as the table's wall counts it (pcol_lasts_measured_none; it
 * was drawn for the thread's mean gap: the chart had the last sample's
 * function for more than the table's time),
 * else its own length, else the gap to the next sample of its thread at
 * most the source's median gap; a sample of its own length after the
 * previous one of its thread when that one is drawn past its time, by at
 * most a bound (THE placement rule: end to end), drawn to at most where the next sample of
 * its thread begins.  The span is from the sample's time to where it is
 * drawn to: the chart draws each pixel column's first sample, so a sample
 * laid after its predecessor shows from that one's end.  A source's
 * rows are visited in time order (an index sorted by time, row when they
 * are not). */
static int64_t sat_add(int64_t a, int64_t d) { return d > 0 && a > INT64_MAX - d ? INT64_MAX : a + (d > 0 ? d : 0); }
static int64_t reach(int64_t e, int64_t t) { /* (drawn to before its time: none, 0) */
  int64_t g;
  return __builtin_sub_overflow(e, t, &g) ? INT64_MAX : g < 0 ? 0 : g;
}
typedef struct trow {
  int64_t t;
  uint64_t row;
} trow;
static int trow_cmp(const void *a, const void *b) {
  const trow *x = a, *y = b;
  return x->t != y->t ? (x->t > y->t) - (x->t < y->t) : (x->row > y->row) - (x->row < y->row);
}
static int spans(rep *r, pcol_error *err) {
  pcol_file *f = r->f;
  uint64_t n = r->ns, nls = pcol_rows(f, PCOL_T_LABELSETS);
  pcol_view src, tim, dur, sls;
  pcol_column_req req[] = {{&src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},
                           {&tim, PCOL_T_SAMPLES, PCOL_C_S_TIME},
                           {&dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION},
                           {&sls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  pcol_sample_cols sc;
  pcol_rtime rt;
  memset(&rt, 0, sizeof rt);
  uint32_t *cls = NULL, ncls = 0;
  uint64_t *last = NULL; /* per thread: its pending row + 1 (0: none) */
  pcol_laid *laid = NULL; /* per thread: its row before the pending one as placed (THE placement rule) */
  trow *ord = NULL;
  pcol_gaps *gaps = malloc(sizeof *gaps);
  int rc = gaps ? PCOL_OK : pcol_oom(err);
  if (!rc) rc = pcol_sample_cols_init(&sc, f, err);
  if (!rc) rc = pcol_rtime_init(&rt, f, err);
  if (!rc) rc = pcol_thread_classes(f, &cls, &ncls, err);
  if (!rc && !(last = malloc(((size_t)ncls + 1) * sizeof *last))) rc = pcol_oom(err);
  if (!rc && !(laid = malloc(((size_t)ncls + 1) * sizeof *laid))) rc = pcol_oom(err);
  for (uint64_t i = 0; i < n; i++) r->tmp[i] = 0;
  for (uint64_t a = 0, e; a < n && !rc; a = e) {
    uint32_t s = pcol_view_u32(&src, a);
    int sorted = 1;
    for (e = a + 1; e < n && pcol_view_u32(&src, e) == s; e++) {
      int64_t t0 = pcol_view_i64(&tim, e - 1), t1 = pcol_view_i64(&tim, e);
      if (t0 != PCOL_NA_I64 && t1 != PCOL_NA_I64 && t1 < t0) sorted = 0;
    }
    pcol_lasts l;
    if ((rc = pcol_lasts_init(&l, f, s, err))) break;
    if (!sorted) { /* the timed rows in time order */
      trow *o = realloc(ord, (e - a) * sizeof *o);
      if (!o) {
        rc = pcol_oom(err);
        break;
      }
      ord = o;
    }
    uint64_t m = 0;
    for (uint64_t i = a; i < e; i++)
      if (pcol_view_i64(&tim, i) != PCOL_NA_I64) {
        if (!sorted) ord[m] = (trow){pcol_view_i64(&tim, i), i};
        m++;
      }
    if (!sorted) qsort(ord, m, sizeof *ord, trow_cmp);
    /* pass 1: the median gap between consecutive samples of a thread;
     * pass 2: each sample's span, drawn when the next of its thread comes */
    memset(gaps, 0, sizeof *gaps);
    for (int pass = 1; pass <= 2; pass++) {
      memset(last, 0, ((size_t)ncls + 1) * sizeof *last);
      for (uint32_t th = 0; th <= ncls; th++) laid[th] = pcol_laid_none();
      for (uint64_t k = 0, i = a; k < m; k++, i++) {
        if (sorted)
          while (pcol_view_i64(&tim, i) == PCOL_NA_I64) i++;
        uint64_t row = sorted ? i : ord[k].row;
        uint32_t ls = pcol_view_u32(&sls, row), th = ls <= nls ? cls[ls] : 0;
        int64_t t = pcol_view_i64(&tim, row);
        uint64_t p = last[th];
        last[th] = row + 1;
        if (!p--) continue;
        int64_t pt = pcol_view_i64(&tim, p), g;
        if (pass == 1) {
          if (!__builtin_sub_overflow(t, pt, &g)) pcol_gaps_add(gaps, g);
          continue;
        }
        int64_t pd = pcol_view_i64(&dur, p), own = pcol_lasts_own(&l, &sc, &rt, p);
        int64_t ps = pcol_lasts_start(&l, pd, own, pt, 1, laid[th]);
        int none = pcol_lasts_measured_none(&l, pd); /* laid as the speedscope export lays it */
        int64_t pe = none ? ps : sat_add(ps, pcol_lasts_span(&l, pd, own, pt, 1, t));
        laid[th] = (pcol_laid){ps, pe};
        /* where the next one begins (THE placement rule) ends it */
        int64_t nat = pcol_lasts_start(&l, pcol_view_i64(&dur, row), pcol_lasts_own(&l, &sc, &rt, row), t, 1, laid[th]);
        r->tmp[p] = none ? -1 : reach(pe < nat ? pe : nat, pt);
      }
      if (pass == 1) pcol_lasts_gaps(&l, gaps); /* the median and the mean gap */
    }
    for (uint32_t th = 0; th <= ncls; th++) /* the last of each thread: no next */
      if (last[th]) {
        uint64_t p = last[th] - 1;
        int64_t pt = pcol_view_i64(&tim, p), pd = pcol_view_i64(&dur, p), own = pcol_lasts_own(&l, &sc, &rt, p);
        r->tmp[p] = pcol_lasts_measured_none(&l, pd)
                        ? -1 /* V8's last: it measured no time (above) */
                        : reach(sat_add(pcol_lasts_start(&l, pd, own, pt, 0, laid[th]), pcol_lasts_span(&l, pd, own, pt, 0, 0)), pt);
      }
  }
  if (!rc) {
    PUTS(r, ",");
    col(r, "span", r->tmp, n);
  }
  pcol_rtime_free(&rt);
  free(gaps);
  free(cls);
  free(last);
  free(laid);
  free(ord);
  return rc;
}

/* The per-sample columns: source, time (deltas within a source), duration,
 * stack, and each value choice. */
static int sample_cols(rep *r, const vchoice *vc, size_t nvc, size_t def, pcol_error *err) {
  pcol_file *f = r->f;
  uint64_t n = r->ns;
  pcol_view src, tim, dur, stk, wgt;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &wgt, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_SOURCE, &src, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &tim, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &dur, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &stk, err));
  put(r, "\"cols\":{", 8);
  /* every per-sample column goes into the samples part, placed after the
   * script: the first drawing reads none of them (the whole profile's
   * weights are "sw0"), so the page draws its tables and graphs while the
   * browser still reads them (head.js pcolStart) */
  r->seg = 3;
  for (uint64_t i = 0; i < n; i++) r->tmp[i] = pcol_view_u32(&src, i);
  col(r, "src", r->tmp, n);
  /* times as deltas from the previous timed sample of the source (the
   * first one absolute; NA rows 0): small numbers, exact prefix sums */
  int delta = 1;
  for (uint64_t i = 0; i < n; i++) {
    int64_t t = pcol_view_i64(&tim, i);
    int first = i == 0 || pcol_view_u32(&src, i - 1) != pcol_view_u32(&src, i) ||
                pcol_view_i64(&tim, i - 1) == PCOL_NA_I64;
    if (t == PCOL_NA_I64) r->tmp[i] = 0;
    else if (first) r->tmp[i] = t;
    else if (__builtin_sub_overflow(t, pcol_view_i64(&tim, i - 1), &r->tmp[i]) || r->tmp[i] < 0)
      delta = 0;
  }
  if (!delta)
    for (uint64_t i = 0; i < n; i++) {
      int64_t t = pcol_view_i64(&tim, i);
      r->tmp[i] = t == PCOL_NA_I64 ? 0 : t;
    }
  put(r, ",", 1);
  col(r, delta ? "tdelta" : "tabs", r->tmp, n);
  for (uint64_t i = 0; i < n; i++) r->tmp[i] = pcol_view_i64(&dur, i);
  put(r, ",", 1);
  col(r, "dur", r->tmp, n);
  PCOL_RETURN_NOT_OK(spans(r, err));
  for (uint64_t i = 0; i < n; i++) r->tmp[i] = pcol_view_u32(&stk, i);
  put(r, ",", 1);
  col(r, "stack", r->tmp, n);
  for (uint64_t i = 0; i < n; i++) r->tmp[i] = pcol_view_i64(&wgt, i); /* the range rule's ticks */
  put(r, ",", 1);
  col(r, "wgt", r->tmp, n);
  for (size_t k = 0; k < nvc; k++) {
    PCOL_RETURN_NOT_OK(pcol_q_sample_values(f, &vc[k].v, r->tmp, err));
    char name[32];
    snprintf(name, sizeof name, "v%zu", k);
    put(r, ",", 1);
    /* values other than the default one (Rprof's memory, the other
     * types) go into the second part: the page draws first without them
     * and inflates them after (head.js pcolStart) */
    r->seg = k != def ? 2 : 3;
    col(r, name, r->tmp, n);
  }
  r->seg = 0;
  put(r, "},", 2);
  return r->rc;
}

/* The whole profile's weights of the default value per stack node and
 * their total of |values|, as the CLI adds them up (weights.c): the first
 * drawing of the page (range.js pcolStackWeights, no range, no source, no
 * tag filter) reads these instead of a pass over every sample, so it needs
 * none of the samples part.  Nothing when a sum passes 64 bits (the page
 * then adds the samples up itself). */
static int whole_weights(rep *r, const pcol_value_sel *v, pcol_error *err) {
  pcol_sum *w = NULL, tot = 0;
  int rc = pcol_q_weights(r->f, NULL, NULL, v, &w, &tot, err);
  if (rc) return rc;
  int fits = 1;
  for (uint64_t i = 0; i <= r->nstacks && fits; i++) {
    if (w[i] > INT64_MAX || w[i] < INT64_MIN) fits = 0;
    else r->tmp[i] = (int64_t)w[i];
  }
  free(w);
  if (!fits) return PCOL_OK;
  char num[48];
  pcol_sum_text(tot, num, sizeof num);
  col(r, "sw0", r->tmp, r->nstacks + 1);
  putf(r, ",\"sw0_total\":%s,", num);
  return r->rc;
}

static int loc_strings(rep *r, pcol_file *f, int lines_only, pcol_error *err);

/* For --diff under hide/show (hide.js pcolBaseShares): the base's stacks,
 * its lines' strings and frame names (the new profile's, loc_strings and
 * frame_tree, in the same shapes) and each stack node's value per value
 * choice, so that the page hides the same frames in the base and colours
 * the flame graph of the frames left as `pcol flame --diff --hide` does.
 * Written as "tree":{...}, (trailing comma); nothing when a stack node's
 * sum passes 64 bits (the page then says the flame graph is uncoloured). */
static int diff_base_tree(rep *r, const vchoice *vc, size_t nvc, const pcol_report_options *o,
                          pcol_error *err) {
  pcol_file *b = o->base;
  uint64_t nst = pcol_rows(b, PCOL_T_STACKS), nlines = pcol_rows(b, PCOL_T_LINES);
  uint64_t nloc = pcol_rows(b, PCOL_T_LOCATIONS);
  size_t mark_js = r->js.len, mark_bin = r->bin.len;
  int64_t *tmp = malloc((size_t)(nst + nlines + nloc + 2) * sizeof *tmp);
  if (!tmp) return pcol_oom(err);
  pcol_ftree bt = {0};
  pcol_str *ln = NULL, *lc = NULL;
  pcol_q_keytab names = {0};
  pcol_view sp, sl;
  int rc = PCOL_OK, any = 0, fits = 1;
  PUTS(r, "\"tree\":{");
  for (size_t k = 0; k < nvc && !rc; k++) {
    pcol_value_sel bv;
    if (pcol_value_resolve(b, NULL, vc[k].cli, &bv, NULL) || pcol_value_compatible(&bv, &vc[k].v, NULL))
      continue;
    pcol_sum *w = NULL, tot = 0;
    if ((rc = pcol_q_weights(b, NULL, NULL, &bv, &w, &tot, err))) break;
    for (uint64_t i = 0; i <= nst; i++) {
      if (w[i] > INT64_MAX || w[i] < INT64_MIN) fits = 0;
      tmp[i] = (int64_t)w[i];
    }
    free(w);
    if (!fits) break;
    char name[32], num[48];
    snprintf(name, sizeof name, "w%zu", k);
    pcol_sum_text(tot, num, sizeof num);
    col(r, name, tmp, nst + 1);
    putf(r, ",\"t%zu\":%s,", k, num);
    if (!any && (rc = pcol_ftree_build(b, NULL, &bv, &bt, err))) break;
    any = 1;
  }
  if (!rc && any && fits) rc = loc_strings(r, b, 1, err);
  if (!rc && any && fits) rc = pcol_q_ftree_frame_names(b, &bt, &ln, &lc, err);
  for (uint64_t i = 0; !rc && any && fits && i < nlines + nloc + 1; i++) {
    pcol_str x = i < nlines ? ln[i] : lc[i - nlines];
    uint32_t id = 0;
    if (x.ptr || i < nlines) rc = pcol_q_key_intern(&names, x.ptr ? x.ptr : "", x.len, 0, &id, err);
    tmp[i] = id;
  }
  if (!rc && any && fits && !(rc = pcol_column(b, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &sp, err)) &&
      !(rc = pcol_column(b, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &sl, err))) {
    PUTS(r, "\"ftree\":{\"names\":");
    names_of(r, names.s, names.n);
    PUTS(r, ",");
    col(r, "lname", tmp, nlines);
    PUTS(r, ",");
    col(r, "aname", tmp + nlines, nloc + 1);
    PUTS(r, "},\"stacks\":{");
    for (uint64_t i = 0; i < nst; i++) tmp[i] = pcol_view_u32(&sp, i);
    col(r, "parent", tmp, nst);
    for (uint64_t i = 0; i < nst; i++) tmp[i] = pcol_view_u32(&sl, i);
    PUTS(r, ",");
    col(r, "loc", tmp, nst);
    putf(r, "},\"n\":%llu},", (unsigned long long)nst);
  }
  if (!rc && (!any || !fits)) { /* no tree: the page says why the flame graph is uncoloured */
    r->js.len = mark_js;
    r->bin.len = mark_bin;
  }
  free(ln);
  free(lc);
  free(tmp);
  pcol_ftree_free(&bt);
  pcol_q_keytab_free(&names);
  return rc ? rc : rep_status(r, err);
}

/* For --diff: each frame-tree node's share in the base, per value choice
 * that the base has too (by the same --value name). */
static int diff_shares(rep *r, const pcol_ftree *t, const vchoice *vc, size_t nvc,
                       const pcol_report_options *o, pcol_error *err) {
  put(r, "\"diff\":{\"path\":", 15);
  const char *bp = o->base_path ? o->base_path : "base";
  jstr(r, bp, strlen(bp));
  put(r, ",", 1);
  PCOL_RETURN_NOT_OK(diff_base_tree(r, vc, nvc, o, err));
  put(r, "\"shares\":{", 10);
  int first = 1;
  for (size_t k = 0; k < nvc; k++) {
    pcol_value_sel bv;
    pcol_ftree bt;
    double *bshare = NULL, *delta = NULL;
    if (pcol_value_resolve(o->base, NULL, vc[k].cli, &bv, NULL) ||
        pcol_value_compatible(&bv, &vc[k].v, NULL))
      continue;
    PCOL_RETURN_NOT_OK(pcol_ftree_build(o->base, NULL, &bv, &bt, err));
    int rc = pcol_ftree_diff(t, &bt, &bshare, &delta, err);
    pcol_ftree_free(&bt);
    if (rc) return rc;
    char name[32];
    snprintf(name, sizeof name, "%zu", k);
    if (!first) put(r, ",", 1);
    first = 0;
    col_f64(r, name, bshare, t->n);
    free(bshare);
    free(delta);
  }
  /* the base's top rows (whole profile) per value and key kind: the
   * table's base and change columns (diff.js joins them by name as
   * pcol_diff does) */
  put(r, "},\"top\":{", 9);
  first = 1;
  for (size_t k = 0; k < nvc; k++) {
    pcol_value_sel bv;
    if (pcol_value_resolve(o->base, NULL, vc[k].cli, &bv, NULL) ||
        pcol_value_compatible(&bv, &vc[k].v, NULL))
      continue;
    putf(r, "%s\"%zu\":{", first ? "" : ",", k);
    first = 0;
    static const char *const byname[] = {"function", "line", "file"};
    for (int by = 0; by < 3; by++) {
      pcol_top tp;
      PCOL_RETURN_NOT_OK(pcol_top_compute(o->base, NULL, &bv, (pcol_by)by, &tp, err));
      char tot[48]; /* the base's sum of |value|: the call graph's colours (graphview.js) */
      pcol_sum_text(tp.total, tot, sizeof tot);
      putf(r, "%s\"%s\":{\"total\":%s,\"names\":[", by ? "," : "", byname[by], tot);
      for (size_t i = 0; i < tp.nrows; i++) {
        if (i) put(r, ",", 1);
        jpstr(r, tp.rows[i].name);
      }
      for (int c = 0; c < 2; c++) {
        put(r, c ? "],\"cum\":[" : "],\"flat\":[", c ? 9 : 10);
        for (size_t i = 0; i < tp.nrows; i++) {
          char num[48];
          pcol_sum_text(c ? tp.rows[i].cum : tp.rows[i].flat, num, sizeof num);
          if (i) put(r, ",", 1);
          put(r, num, strlen(num));
        }
      }
      put(r, "]", 1);
      pcol_top_free(&tp);
      /* the base's call graph edges (every node kept, none pruned):
       * graphview.js colours an edge by its change against the base's
       * weight of the same call, as pprof -diff_base colours it */
      pcol_graph g;
      pcol_graph_opts go = {0, 0, 0, 1, 0, 0, 0, 0, NULL, 0}; /* edges only */
      PCOL_RETURN_NOT_OK(pcol_graph_compute(o->base, NULL, &bv, (pcol_by)by, &go, &g, err));
      PUTS(r, ",\"edges\":{\"names\":[");
      for (size_t i = 0; i < g.nnodes + g.nphantom; i++) { /* (a call's ends: phantoms too) */
        if (i) put(r, ",", 1);
        jpstr(r, g.nodes[i].name);
      }
      for (int c = 0; c < 3; c++) {
        PUTS(r, "],\"");
        put(r, c == 0 ? "from" : c == 1 ? "to" : "w", c == 2 ? 1 : c ? 2 : 4);
        PUTS(r, "\":[");
        for (size_t i = 0; i < g.nedges; i++) {
          char num[48];
          if (c == 2) pcol_sum_text(g.edges[i].weight, num, sizeof num);
          else snprintf(num, sizeof num, "%u", c ? g.edges[i].to : g.edges[i].from);
          if (i) put(r, ",", 1);
          put(r, num, strlen(num));
        }
      }
      PUTS(r, "]}}");
      pcol_graph_free(&g);
    }
    put(r, "}", 1);
  }
  put(r, "}},", 3);
  return r->rc;
}

/* For the page's focus and ignore filters (filter.c's rule): per location,
 * the strings a regex is matched against — each line's function name and
 * file name, the mapping's file name; NA as "" — as a CSR over a table of
 * the distinct strings. */
static int ls_add(pcol_file *f, pcol_q_keytab *names, pcol_buf *ids, size_t start, uint32_t sid,
                  pcol_error *err) {
  pcol_str str;
  uint32_t id;
  PCOL_RETURN_NOT_OK(pcol_string(f, sid, &str, err));
  PCOL_RETURN_NOT_OK(pcol_q_key_intern(names, str.ptr ? str.ptr : "", str.ptr ? str.len : 0, 0, &id, err));
  for (size_t j = start; j < ids->len / sizeof(int64_t); j++) /* each string once per location */
    if (((int64_t *)ids->data)[j] == id) return PCOL_OK;
  int64_t v = id;
  return pcol_buf_append(ids, &v, sizeof v) ? pcol_oom(err) : PCOL_OK;
}

static int loc_strings(rep *r, pcol_file *f, int lines_only, pcol_error *err) {
  uint64_t nloc = pcol_rows(f, PCOL_T_LOCATIONS), nlines = pcol_rows(f, PCOL_T_LINES);
  uint64_t nfn = pcol_rows(f, PCOL_T_FUNCTIONS), nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  pcol_view loff, lmap, lfn, fname, ffile, mfile;
  pcol_column_req req[] = {{&loff, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS},
                           {&lmap, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING},
                           {&lfn, PCOL_T_LINES, PCOL_C_LINE_FUNCTION},
                           {&fname, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME},
                           {&ffile, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME},
                           {&mfile, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  pcol_q_keytab names = {0};
  int64_t *off = malloc((nloc + 2) * sizeof *off);
  pcol_buf ids = {0};
  int rc = off ? PCOL_OK : pcol_oom(err);
  if (!rc) off[0] = off[1] = 0;
  for (uint64_t loc = 1; !rc && loc <= nloc; loc++) {
    uint64_t a = pcol_view_u64(&loff, loc - 1), e = pcol_view_u64(&loff, loc);
    if (e > nlines) e = nlines;
    if (a > e) a = e;
    size_t start = ids.len / sizeof(int64_t);
    uint32_t m = pcol_view_u32(&lmap, loc - 1), msid;
    if (pcol_filter_loc_mapping(f, &mfile, nmap, loc, m, &msid)) rc = ls_add(f, &names, &ids, start, msid, err);
    for (uint64_t li = a; li < e && !rc; li++) {
      uint32_t fn = pcol_view_u32(&lfn, li);
      if (!fn || fn > nfn) continue;
      rc = ls_add(f, &names, &ids, start, pcol_view_u32(&fname, fn - 1), err);
      if (!rc) rc = ls_add(f, &names, &ids, start, pcol_view_u32(&ffile, fn - 1), err);
    }
    off[loc + 1] = (int64_t)(ids.len / sizeof(int64_t));
  }
  /* hide/show (hide.js, filter.c's rule per line): each location's lines,
   * each line's function (0: none; nfn + 1: out of range), each function's
   * name and file, each location's mapping file, as ids into names */
  int64_t *lo = malloc((nloc + 2) * sizeof *lo), *lf = malloc((nlines + 1) * sizeof *lf);
  int64_t *fnm = malloc((nfn + 1) * sizeof *fnm), *ffl = malloc((nfn + 1) * sizeof *ffl);
  int64_t *lm = malloc((nloc + 1) * sizeof *lm);
  if (!rc && (!lo || !lf || !fnm || !ffl || !lm)) rc = pcol_oom(err);
  /* off[i] = the line offset i capped at nlines; location loc's lines
   * are [min(off[loc - 1], off[loc]), off[loc]) (pcol_frames_lines) */
  for (uint64_t i = 0; !rc && i <= nloc; i++) {
    uint64_t x = pcol_view_u64(&loff, i);
    lo[i] = (int64_t)(x > nlines ? nlines : x);
  }
  if (!rc) lm[0] = 0;
  for (uint64_t loc = 1; !rc && loc <= nloc; loc++) {
    uint32_t m = pcol_view_u32(&lmap, loc - 1), id = 0, msid;
    pcol_str str;
    if (pcol_filter_loc_mapping(f, &mfile, nmap, loc, m, &msid)) {
      rc = pcol_string(f, msid, &str, err);
      if (!rc) rc = pcol_q_key_intern(&names, str.ptr ? str.ptr : "", str.ptr ? str.len : 0, 0, &id, err);
    }
    lm[loc] = id;
  }
  for (uint64_t li = 0; !rc && li < nlines; li++) {
    uint32_t fn = pcol_view_u32(&lfn, li);
    lf[li] = fn > nfn ? (int64_t)nfn + 1 : fn;
  }
  for (uint64_t fn = 0; !rc && fn < nfn; fn++) {
    pcol_str a, b;
    uint32_t ia, ib;
    if (!(rc = pcol_string(f, pcol_view_u32(&fname, fn), &a, err)) &&
        !(rc = pcol_string(f, pcol_view_u32(&ffile, fn), &b, err)) &&
        !(rc = pcol_q_key_intern(&names, a.ptr ? a.ptr : "", a.ptr ? a.len : 0, 0, &ia, err)))
      rc = pcol_q_key_intern(&names, b.ptr ? b.ptr : "", b.ptr ? b.len : 0, 0, &ib, err);
    if (!rc) fnm[fn] = ia, ffl[fn] = ib;
  }
  if (!rc) {
    PUTS(r, "\"locstr\":{\"lines\":{");
    col(r, "off", lo, nloc + 1);
    PUTS(r, ",");
    col(r, "fn", lf, nlines);
    PUTS(r, ",");
    col(r, "fname", fnm, nfn);
    PUTS(r, ",");
    col(r, "ffile", ffl, nfn);
    PUTS(r, ",");
    col(r, "map", lm, nloc + 1);
    PUTS(r, "},\"names\":");
    names_of(r, names.s, names.n);
    if (!lines_only) { /* the focus and ignore filters' strings */
      PUTS(r, ",");
      col(r, "off", off, nloc + 2);
      PUTS(r, ",");
      col(r, "ids", (const int64_t *)ids.data, ids.len / sizeof(int64_t));
    }
    PUTS(r, "},");
    rc = rep_status(r, err);
  }
  free(off);
  free(lo);
  free(lf);
  free(fnm);
  free(ffl);
  free(lm);
  pcol_buf_free(&ids);
  pcol_q_keytab_free(&names);
  return rc;
}

/* The source pane: `pcol list`'s blocks for every function (whole profile,
 * the default value), the files found and read by its safe rule
 * (srcfile.c); a block whose file was not read, or would take the text
 * embedded past PCOL_REPORT_SOURCE_MAX bytes, keeps only why (its lines'
 * numbers are the top table's by line), so the pane adds at most the
 * sources' bytes (escaped) and a few per line. */
static int source_list(rep *r, const pcol_report_options *o, const vchoice *vc, size_t nvc,
                       pcol_error *err) {
  pcol_value_sel dv;
  pcol_list l;
  pcol_list_options lo = {o ? o->source_path : NULL, o ? o->allow_any_source : 0, 0};
  PCOL_RETURN_NOT_OK(pcol_value_resolve(r->f, NULL, NULL, &dv, err));
  PCOL_RETURN_NOT_OK(pcol_list_compute(r->f, NULL, &dv, PCOL_BY_LINE, "", &lo, &l, err));
  size_t text = 0;
  char num[48];
  /* a block is [name (an id of strtab), file, why not, lines, start lines, the file as
   * the profile names it (the samples' lines are keyed by it; `file` is pcol list's,
   * trimmed by the source path)]: files and
   * reasons are indexes into "strs" (-1: none), each said once (go-cpu-large: 23k functions of
   * one file, 3.6 MB of repeats -> 1 MB) */
  pcol_q_keytab strs = {0};
  static const char *const full = "not embedded: the page's source text is at its limit";
  putf(r, "\"list\":{\"value\":%zu,\"blocks\":[", choice_of(vc, nvc, dv.vt_id));
  for (size_t b = 0; b < l.nblocks && !r->rc; b++) {
    const pcol_list_block *k = &l.blocks[b];
    size_t need = 0;
    for (size_t i = 0; i < k->nlines; i++) need += k->lines[i].text.ptr ? k->lines[i].text.len : 0;
    int keep = text + need <= PCOL_REPORT_SOURCE_MAX;
    if (keep) text += need;
    const char *why = !keep ? full : k->error;
    uint32_t fi = 0, wi = 0, pi = 0;
    if ((k->file.ptr && (r->rc = pcol_q_key_intern(&strs, k->file.ptr, k->file.len, 0, &fi, err))) ||
        (k->profile_file.ptr &&
         (r->rc = pcol_q_key_intern(&strs, k->profile_file.ptr, k->profile_file.len, 0, &pi, err))) ||
        (why && (r->rc = pcol_q_key_intern(&strs, why, strlen(why), 1, &wi, err))))
      break;
    uint32_t ni = 0;
    if (k->name.ptr && (r->rc = pcol_q_key_intern(&r->strs, k->name.ptr, k->name.len, 1, &ni, err))) break;
    putf(r, "%s[%u,%lld,%lld,[", b ? "," : "", ni, (long long)fi - 1, (long long)wi - 1);
    /* no text, no lines: "source not found" (the numbers are the table's) */
    for (size_t i = 0; keep && !k->error && i < k->nlines; i++) {
      const pcol_list_line *ln = &k->lines[i];
      putf(r, "%s[%lld,", i ? "," : "", (long long)ln->line);
      pcol_sum_text(ln->flat, num, sizeof num);
      put(r, num, strlen(num));
      PUTS(r, ",");
      pcol_sum_text(ln->cum, num, sizeof num);
      put(r, num, strlen(num));
      PUTS(r, ",");
      jpstr(r, ln->text);
      PUTS(r, "]");
    }
    /* the entries' start lines (source.js makes the window of a range as
     * list.c does): one number when every entry has it (0: none known),
     * else [line, start, ...] */
    const int64_t *st;
    size_t nst = pcol_q_list_block_starts(&l, b, &st);
    int64_t s0 = nst && st[1] > 0 ? st[1] : 0;
    int same = 1;
    for (size_t i = 1; i < nst && same; i++) same = (st[2 * i + 1] > 0 ? st[2 * i + 1] : 0) == s0;
    if (same) putf(r, "],%lld", (long long)s0);
    else {
      PUTS(r, "],[");
      for (size_t i = 0; i < nst; i++)
        putf(r, "%s%lld,%lld", i ? "," : "", (long long)st[2 * i], (long long)(st[2 * i + 1] > 0 ? st[2 * i + 1] : 0));
      PUTS(r, "]");
    }
    putf(r, ",%lld]", (long long)pi - 1);
  }
  PUTS(r, "],\"strs\":");
  names_of(r, strs.s, strs.n);
  PUTS(r, "},");
  pcol_q_keytab_free(&strs);
  pcol_list_free(&l);
  return r->rc;
}

static void header_info(rep *r, const pcol_report_options *o) {
  pcol_header_info h;
  pcol_file_header(r->f, &h);
  const char *path = o && o->path ? o->path : "";
  pcol_str title = o && o->title ? (pcol_str){o->title, strlen(o->title)}
                                 : pcol_display_name((pcol_str){path, strlen(path)});
  put(r, "{\"title\":", 9);
  jstr(r, title.ptr, title.len);
  put(r, ",\"path\":", 8);
  jstr(r, path, strlen(path));
  putf(r, ",\"tool\":\"pcol %s\",\"format\":\"%u.%u\",\"file_size\":%llu,\"n\":%llu,\"nstacks\":%llu,",
       pcol_version_string(), h.major, h.minor, (unsigned long long)h.file_size,
       (unsigned long long)r->ns, (unsigned long long)r->nstacks);
  /* --divide-by F: the page divides each number it shows (units.js
   * pcolUnitRatio, by 1/F as pcol_unit_ratio); %.17g reads back as F */
  if (o && o->divide_by > 0) putf(r, "\"divide_by\":%.17g,", o->divide_by);
  /* the duration `pcol top`'s Duration line and the pprof export state
   * (THE rule: pcol_sources_time over every source), so that the page's
   * header does not make up a length of its own; 0 when no source states
   * one (an Rprof file: the page then tells its samples' extent) */
  int64_t tn, dn;
  if (pcol_sources_time(r->f, NULL, &tn, &dn, NULL)) dn = 0;
  putf(r, "\"duration_ns\":%lld,", (long long)dn);
  put(r, "\"tables\":{", 10);
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    const pcol_table_info *ti = pcol_table_info_get(t);
    if (t > 1) put(r, ",", 1);
    jkey(r, ti ? ti->name : "?");
    putf(r, "%llu", (unsigned long long)pcol_rows(r->f, t));
  }
  put(r, "},", 2);
}

/* A part of the binary columns deflated (zlib, raw) at level: data.js
 * inflates it (pcolInflate), no network, no library; kept as it is when
 * that is not smaller.  Writes ,"NAME_len":N and ,"NAME_raw":N when
 * deflated. */
static void deflate_part(rep *r, pcol_buf *b, const char *name, int level) {
  size_t raw = b->len;
  z_stream z;
  memset(&z, 0, sizeof z);
  pcol_buf zb = {0};
  int ok = !r->rc && raw > 0 && deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
  if (ok) {
    size_t cap = deflateBound(&z, (uLong)raw);
    ok = raw <= UINT32_MAX && !pcol_buf_reserve(&zb, cap);
    if (ok) {
      z.next_in = (Bytef *)b->data;
      z.avail_in = (uInt)raw;
      z.next_out = (Bytef *)zb.data;
      z.avail_out = (uInt)cap;
      ok = deflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out < raw;
      zb.len = z.total_out;
    }
    deflateEnd(&z);
  }
  if (ok) {
    pcol_buf keep = *b;
    *b = zb;
    zb = keep;
    putf(r, ",\"%s_len\":%llu,\"%s_raw\":%llu", name, (unsigned long long)b->len, name, (unsigned long long)raw);
  } else {
    putf(r, ",\"%s_len\":%llu", name, (unsigned long long)b->len);
  }
  pcol_buf_free(&zb);
}

static int build_json(rep *r, const pcol_report_options *o, pcol_error *err) {
  pcol_file *f = r->f;
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  vchoice *vc = NULL;
  size_t nvc = 0, defv = 0;
  pcol_ftree t = {0};
  uint8_t *is_rprof = calloc(nsrc + 1, 1);
  pcol_view sp, sl;
  if (!is_rprof) return pcol_oom(err);
  int rc = value_choices(r, &vc, &nvc, err);
  if (rc) goto done;
  header_info(r, o);
  if ((rc = sources(r, vc, nvc, is_rprof, err))) goto done;
  {
    pcol_value_sel dv;
    if ((rc = pcol_value_resolve(f, NULL, NULL, &dv, err))) goto done;
    defv = choice_of(vc, nvc, dv.vt_id);
    /* the note the CLI prints on that default, when the sources' own
     * defaults differ (pcol_value_default_note: the same words) */
    char *note = NULL;
    if ((rc = pcol_value_default_note(f, NULL, NULL, NULL, &note, err))) goto done;
    if (note) {
      put(r, "\"value_note\":", 13);
      jstr(r, note, strlen(note));
      put(r, ",", 1);
      free(note);
    }
    /* THE by-line rule's note (pcol_lines_rule_note), which the page says
     * by line with the rule of each of its panels (page.js) */
    if ((rc = pcol_lines_rule_note(f, NULL, PCOL_BY_LINE, &note, err))) goto done;
    if (note) {
      put(r, "\"lines_note\":", 13);
      jstr(r, note, strlen(note));
      put(r, ",", 1);
      free(note);
    }
    putf(r, "\"value\":%zu,\"values\":[", defv);
  }
  for (size_t k = 0; k < nvc; k++) {
    if (k) put(r, ",", 1);
    put(r, "{\"type\":", 8);
    jpstr(r, vc[k].v.type);
    put(r, ",\"unit\":", 8);
    jpstr(r, vc[k].v.unit);
    put(r, ",\"cli\":", 7);
    jstr(r, vc[k].cli, strlen(vc[k].cli));
    putf(r, ",\"vt\":%lld%s}", vc[k].v.vt_id == PCOL_VT_RPROF_ALLOC ? -1LL : (long long)vc[k].v.vt_id,
         vc[k].level ? ",\"level\":1" : "");
  }
  put(r, "],", 2);
  /* Rprof memory: the three snapshot types, drawn as a line */
  {
    size_t m[PCOL_Q_RPROF_ALLOC_NTYPES];
    int all = 1;
    for (int k = 0; k < PCOL_Q_RPROF_ALLOC_NTYPES; k++) {
      pcol_value_sel mv;
      if (pcol_q_value_named(f, pcol_q_rprof_alloc_types[k], &mv, NULL)) all = 0;
      else m[k] = choice_of(vc, nvc, mv.vt_id);
    }
    if (all) putf(r, "\"memory\":[%zu,%zu,%zu],", m[0], m[1], m[2]);
  }
  if ((rc = sample_cols(r, vc, nvc, defv, err))) goto done;
  if ((rc = whole_weights(r, &vc[defv].v, err))) goto done;
  if ((rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &sp, err)) ||
      (rc = pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &sl, err)))
    goto done;
  put(r, "\"stacks\":{", 10);
  for (uint64_t i = 0; i < r->nstacks; i++) r->tmp[i] = pcol_view_u32(&sp, i);
  col(r, "parent", r->tmp, r->nstacks);
  for (uint64_t i = 0; i < r->nstacks; i++) r->tmp[i] = pcol_view_u32(&sl, i);
  put(r, ",", 1);
  col(r, "loc", r->tmp, r->nstacks);
  put(r, "},", 2);
  if ((rc = keysets(r, is_rprof, nsrc, err))) goto done;
  put(r, ",", 1);
  if ((rc = source_list(r, o, vc, nvc, err))) goto done;
  if ((rc = loc_strings(r, f, 0, err))) goto done;
  if ((rc = threads(r, err))) goto done;
  if ((rc = gtags(r, err))) goto done;
  if ((rc = label_sets(r, err))) goto done;
  if ((rc = pcol_ftree_build(f, NULL, &vc[0].v, &t, err))) goto done;
  if (o && o->base && (rc = diff_shares(r, &t, vc, nvc, o, err))) goto done;
  if ((rc = frame_tree(r, &t, err))) goto done;
  put(r, ",\"strtab\":[", 11);
  for (uint32_t i = 1; i <= r->strs.n; i++) {
    if (i > 1) put(r, ",", 1);
    jpstr(r, r->strs.s[i]);
  }
  put(r, "]", 1);
  /* the per-sample parts at level 1: deflate was half of the time to
   * write a 10M-sample page at level 6; at 1 they take a fifth of that
   * and are 1% larger (1M-sample page: 5.55 -> 5.59 MB deflated) */
  deflate_part(r, &r->bin, "bin", 6);
  if (r->bin3.len) deflate_part(r, &r->bin3, "bin3", 1);
  if (r->bin2.len) deflate_part(r, &r->bin2, "bin2", 1);
  put(r, "}", 1);
  rc = rep_status(r, err);
done:
  pcol_ftree_free(&t);
  free(vc);
  free(is_rprof);
  return rc;
}

/* ------------------------------------------------------------ output */

static int write_b64(FILE *out, const unsigned char *p, size_t n) {
  static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char line[4 * 1024 + 2];
  size_t k = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16;
    if (i + 1 < n) v |= (uint32_t)p[i + 1] << 8;
    if (i + 2 < n) v |= p[i + 2];
    line[k++] = A[(v >> 18) & 63];
    line[k++] = A[(v >> 12) & 63];
    line[k++] = i + 1 < n ? A[(v >> 6) & 63] : '=';
    line[k++] = i + 2 < n ? A[v & 63] : '=';
    if (k == sizeof line - 2) {
      line[k++] = '\n';
      if (fwrite(line, 1, k, out) != k) return PCOL_EIO;
      k = 0;
    }
  }
  return k && fwrite(line, 1, k, out) != k ? PCOL_EIO : PCOL_OK;
}

/* the template up to (not including) marker m, from *pos; *pos moves past it */
static int write_until(FILE *out, const char *tpl, size_t len, size_t *pos, const char *m) {
  size_t ml = strlen(m);
  const char *at = m[0] ? memmem(tpl + *pos, len - *pos, m, ml) : NULL;
  size_t end = at ? (size_t)(at - tpl) : len;
  if (fwrite(tpl + *pos, 1, end - *pos, out) != end - *pos) return PCOL_EIO;
  *pos = at ? end + ml : len;
  return PCOL_OK;
}

/* A part placed after the script, base64 in a <script id=ID
 * type="text/plain"> (nothing when the part is empty). */
static int write_part(FILE *out, const char *id, const pcol_buf *b) {
  if (!b->len) return PCOL_OK;
  if (fprintf(out, "<script id=\"%s\" type=\"text/plain\">", id) < 0) return PCOL_EIO;
  int rc = write_b64(out, (const unsigned char *)b->data, b->len);
  if (!rc && fputs("</script>\n", out) < 0) rc = PCOL_EIO;
  return rc;
}

int pcol_report_write(pcol_file *f, const pcol_report_options *opt, FILE *out, pcol_error *err) {
  rep r;
  memset(&r, 0, sizeof r);
  r.f = f;
  r.err = err;
  if (opt && !(opt->divide_by >= 0 && isfinite(opt->divide_by)))
    return pcol_error_set(err, PCOL_EINVAL, "divide_by: a divisor above 0, or 0 for none");
  r.ns = pcol_rows(f, PCOL_T_SAMPLES);
  r.nstacks = pcol_rows(f, PCOL_T_STACKS);
  /* scratch for the per-sample and per-stack columns */
  uint64_t big = r.ns > r.nstacks ? r.ns : r.nstacks;
  if (big >= SIZE_MAX / 16) return pcol_error_set(err, PCOL_ETOOBIG, "the profile is too large for a report");
  r.tmp = malloc((size_t)(big + 1) * sizeof *r.tmp);
  if (!r.tmp) return pcol_oom(err);
  int rc = build_json(&r, opt, err);
  free(r.tmp);
  r.tmp = NULL;
  if (!rc) {
    const char *tpl = (const char *)pcol_report_html;
    size_t len = pcol_report_html_len, pos = 0;
    rc = write_until(out, tpl, len, &pos, "<!--PCOL-DATA-->");
    if (!rc && fputs("<script id=\"pcol-meta\" type=\"application/json\">", out) < 0) rc = PCOL_EIO;
    if (!rc && fwrite(r.js.data, 1, r.js.len, out) != r.js.len) rc = PCOL_EIO;
    if (!rc && fputs("</script>\n<script id=\"pcol-bin\" type=\"text/plain\">", out) < 0) rc = PCOL_EIO;
    if (!rc) rc = write_b64(out, (const unsigned char *)r.bin.data, r.bin.len);
    if (!rc && fputs("</script>\n", out) < 0) rc = PCOL_EIO;
    if (!rc) rc = write_until(out, tpl, len, &pos, "<!--PCOL-SCRIPT-->");
    if (!rc && fputs("<script>\n", out) < 0) rc = PCOL_EIO;
    if (!rc && fwrite(pcol_report_js, 1, pcol_report_js_len, out) != pcol_report_js_len) rc = PCOL_EIO;
    if (!rc && fputs("</script>\n", out) < 0) rc = PCOL_EIO;
    /* the samples part and the second part after the script: the page
     * draws while the browser still reads them (head.js pcolStart) */
    if (!rc) rc = write_part(out, "pcol-bin3", &r.bin3);
    if (!rc) rc = write_part(out, "pcol-bin2", &r.bin2);
    if (!rc) rc = write_until(out, tpl, len, &pos, "");
    if (rc == PCOL_EIO) /* (errno: the failed call's; the calls after it were skipped) */
      pcol_error_set(err, rc, "cannot write the report: %s", strerror(errno ? errno : EIO));
    else if (rc) pcol_error_set(err, rc, "cannot write the report");
  }
  pcol_buf_free(&r.js);
  pcol_buf_free(&r.bin);
  pcol_buf_free(&r.bin2);
  pcol_buf_free(&r.bin3);
  pcol_q_keytab_free(&r.strs);
  return rc;
}
