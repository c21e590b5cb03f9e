/* samplekey.c — THE rule of which stacks go tool pprof takes as one
 * (samplekey.h): pprof's Merge's keys of functions, mappings and locations
 * (profile/merge.go key()), interned exactly (bytes compared), then a
 * stack node's id from its parent's and its location's. */
#include "samplekey.h"
#include "frames.h"   /* pcol_frames, pcol_frames_lines */
#include "hash.h"     /* pcol_u64map */
#include "intern.h"   /* pcol_intern, pcol_intern_get, pcol_intern_free */
#include "buf.h"      /* pcol_buf, pcol_buf_append, PCOL_BUF_PUSH */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK, pcol_error_set */
#include <stdlib.h>
#include <string.h>

/* A key's id among its kind's (1..n: equal bytes, one id). */
static int skey_id(pcol_intern *t, const pcol_buf *b, uint32_t *id, pcol_error *err) {
  int rc = pcol_intern_get(t, b->data, b->len, id);
  if (rc == PCOL_ETOOBIG) return pcol_error_set(err, rc, "more than 2^32 pprof keys");
  return rc ? pcol_oom(err) : PCOL_OK;
}

static int put64(pcol_buf *b, uint64_t v) { return pcol_buf_append(b, &v, sizeof v); }
static int put32(pcol_buf *b, uint32_t v) { return pcol_buf_append(b, &v, sizeof v); }
/* a string of the file, length first ("" for NA) */
static int put_str(pcol_buf *b, pcol_file *f, uint32_t sid, pcol_error *err) {
  pcol_str s;
  PCOL_RETURN_NOT_OK(pcol_string(f, sid, &s, err));
  size_t n = s.ptr ? s.len : 0;
  if (put64(b, n) || (n && pcol_buf_append(b, s.ptr, n))) return pcol_oom(err);
  return PCOL_OK;
}
static int64_t num(int64_t v) { return v == PCOL_NA_I64 ? 0 : v; }

int pcol_pprof_stack_ids(pcol_file *f, uint32_t **ids, uint32_t *n, pcol_error *err) {
  *ids = NULL;
  *n = 0;
  pcol_frames fr;
  pcol_view fn_sys, fn_start, m_start, m_limit, m_off, m_build, loc_flags, st_parent, st_loc;
  int rc = pcol_frames_init(&fr, f, err);
  const pcol_column_req cols[] = {
      {&fn_sys, PCOL_T_FUNCTIONS, PCOL_C_FN_SYSTEM_NAME}, {&fn_start, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE},
      {&m_start, PCOL_T_MAPPINGS, PCOL_C_MAP_START},      {&m_limit, PCOL_T_MAPPINGS, PCOL_C_MAP_LIMIT},
      {&m_off, PCOL_T_MAPPINGS, PCOL_C_MAP_OFFSET},       {&m_build, PCOL_T_MAPPINGS, PCOL_C_MAP_BUILD_ID},
      {&loc_flags, PCOL_T_LOCATIONS, PCOL_C_LOC_FLAGS},   {&st_parent, PCOL_T_STACKS, PCOL_C_STACK_PARENT},
      {&st_loc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION}};
  if (!rc) rc = pcol_columns(f, cols, PCOL_NCOLS(cols), err);
  if (rc) return rc;
  uint64_t nst = pcol_rows(f, PCOL_T_STACKS);
  pcol_intern fk = {0}, mk = {0}, lk = {0};
  pcol_buf b = {0};
  pcol_u64map nodes = {0};
  uint32_t *fid = calloc(fr.nfn + 1, sizeof *fid), *mid = calloc(fr.nmap + 1, sizeof *mid),
           *lid = calloc(fr.nloc + 1, sizeof *lid), *out = calloc(nst + 1, sizeof *out);
  if (!fid || !mid || !lid || !out) rc = pcol_oom(err);
  /* functionKey: start line, name, system name, file */
  for (uint64_t i = 0; !rc && i < fr.nfn; i++) {
    b.len = 0;
    if (put64(&b, (uint64_t)num(pcol_view_i64(&fn_start, i)))) rc = pcol_oom(err);
    if (!rc) rc = put_str(&b, f, pcol_view_u32(&fr.fn_name, i), err);
    if (!rc) rc = put_str(&b, f, pcol_view_u32(&fn_sys, i), err);
    if (!rc) rc = put_str(&b, f, pcol_view_u32(&fr.fn_file, i), err);
    if (!rc) rc = skey_id(&fk, &b, &fid[i + 1], err);
  }
  /* mappingKey: the size rounded up to 0x1000, the offset, the build id
   * else the file */
  for (uint64_t i = 0; !rc && i < fr.nmap; i++) {
    uint64_t size = pcol_view_u64(&m_limit, i) - pcol_view_u64(&m_start, i);
    size = size + 0x1000 - 1;
    size -= size % 0x1000;
    pcol_str bid;
    b.len = 0;
    rc = pcol_string(f, pcol_view_u32(&m_build, i), &bid, err);
    if (!rc && (put64(&b, size) || put64(&b, pcol_view_u64(&m_off, i)))) rc = pcol_oom(err);
    if (!rc) rc = put_str(&b, f, bid.ptr && bid.len ? pcol_view_u32(&m_build, i) : pcol_view_u32(&fr.map_file, i), err);
    if (!rc) rc = skey_id(&mk, &b, &mid[i + 1], err);
  }
  /* locationKey: the address less the mapping's start, the mapping, the
   * folded flag, and per line its function and line number */
  for (uint32_t loc = 1; !rc && loc <= fr.nloc; loc++) {
    uint32_t m = pcol_view_u32(&fr.loc_map, loc - 1);
    uint64_t addr = pcol_view_u64(&fr.loc_addr, loc - 1), a, e;
    if (m > fr.nmap) m = 0;
    if (m) addr -= pcol_view_u64(&m_start, m - 1);
    b.len = 0;
    if (put32(&b, m ? mid[m] : 0) || put64(&b, addr) ||
        put32(&b, pcol_view_u8(&loc_flags, loc - 1) & PCOL_LOC_IS_FOLDED))
      rc = pcol_oom(err);
    pcol_frames_lines(&fr, loc, &a, &e);
    for (uint64_t li = a; !rc && li < e; li++) {
      uint32_t fn = pcol_frames_fn(&fr, li);
      if (put32(&b, fn ? fid[fn] : 0) || put64(&b, (uint64_t)num(pcol_view_i64(&fr.ln_line, li)))) rc = pcol_oom(err);
    }
    if (!rc) rc = skey_id(&lk, &b, &lid[loc], err);
  }
  /* a node: its parent's id and its location's key (parents come first) */
  for (uint64_t st = 1; !rc && st <= nst; st++) {
    uint32_t p = pcol_view_u32(&st_parent, st - 1), loc = pcol_view_u32(&st_loc, st - 1), id;
    int added;
    if (p >= st) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "stack %llu: its parent %u is not before it", (unsigned long long)st, p);
      break;
    }
    uint64_t key = (uint64_t)out[p] << 32 | (loc && loc <= fr.nloc ? lid[loc] : 0);
    if ((rc = pcol_u64map_get(&nodes, key, &id, &added)))
      rc = rc == PCOL_ENOMEM ? pcol_oom(err) : pcol_error_set(err, rc, "more than 2^32 stacks");
    else
      out[st] = id + 1;
  }
  free(fid);
  free(mid);
  free(lid);
  pcol_intern_free(&fk);
  pcol_intern_free(&mk);
  pcol_intern_free(&lk);
  pcol_buf_free(&b);
  pcol_u64map_free(&nodes);
  if (rc) free(out);
  else *ids = out, *n = (uint32_t)nodes.n;
  return rc;
}

/* one label, as pcol_pprof_labelset_ids sorts a set's: its key's bytes,
 * a string before a number, then its place */
typedef struct lskey_label {
  pcol_str key;
  uint32_t number; /* 0: a string label */
  uint64_t at;
} lskey_label;

static int lskey_cmp(const void *pa, const void *pb) {
  const lskey_label *a = pa, *b = pb;
  size_t n = a->key.len < b->key.len ? a->key.len : b->key.len;
  int c = n ? memcmp(a->key.ptr, b->key.ptr, n) : 0;
  if (c) return c;
  if (a->key.len != b->key.len) return a->key.len < b->key.len ? -1 : 1;
  if (a->number != b->number) return a->number < b->number ? -1 : 1;
  return a->at < b->at ? -1 : a->at > b->at;
}

int pcol_pprof_labelset_ids(pcol_file *f, uint32_t **ids, uint32_t *n, pcol_error *err) {
  *ids = NULL;
  *n = 0;
  pcol_view off, key, str, nm, unit;
  const pcol_column_req cols[] = {{&off, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS}, {&key, PCOL_T_LABELS, PCOL_C_LB_KEY},
                                  {&str, PCOL_T_LABELS, PCOL_C_LB_STR},       {&nm, PCOL_T_LABELS, PCOL_C_LB_NUM},
                                  {&unit, PCOL_T_LABELS, PCOL_C_LB_UNIT}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, cols, PCOL_NCOLS(cols), err));
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS), nlab = pcol_rows(f, PCOL_T_LABELS);
  uint32_t *out = nls < SIZE_MAX / sizeof *out ? calloc(nls + 1, sizeof *out) : NULL;
  if (!out) return pcol_oom(err);
  pcol_intern lk = {0};
  pcol_buf b = {0};
  lskey_label *l = NULL;
  size_t cap = 0;
  int rc = PCOL_OK;
  for (uint64_t s = 1; !rc && s <= nls; s++) {
    uint64_t lo = pcol_view_u64(&off, s - 1), hi = pcol_view_u64(&off, s);
    if (hi > nlab) hi = nlab;
    if (lo > hi) lo = hi;
    if (lo == hi) continue; /* no labels: the empty set's 0 */
    if (hi - lo > cap) {
      lskey_label *m = hi - lo < SIZE_MAX / sizeof *m ? realloc(l, (size_t)(hi - lo) * sizeof *m) : NULL;
      if (!m) {
        rc = pcol_oom(err);
        break;
      }
      l = m;
      cap = (size_t)(hi - lo);
    }
    for (uint64_t i = lo; !rc && i < hi; i++) {
      lskey_label *x = &l[i - lo];
      rc = pcol_string(f, pcol_view_u32(&key, i), &x->key, err);
      if (!x->key.ptr) x->key.len = 0;
      x->number = pcol_view_u32(&str, i) == 0;
      x->at = i;
    }
    if (rc) break;
    qsort(l, (size_t)(hi - lo), sizeof *l, lskey_cmp);
    b.len = 0;
    for (size_t j = 0; !rc && j < hi - lo; j++) {
      uint64_t i = l[j].at;
      if (put64(&b, l[j].key.len) || (l[j].key.len && pcol_buf_append(&b, l[j].key.ptr, l[j].key.len)) ||
          put32(&b, l[j].number))
        rc = pcol_oom(err);
      else if (!l[j].number)
        rc = put_str(&b, f, pcol_view_u32(&str, i), err);
      else if (put64(&b, (uint64_t)pcol_view_i64(&nm, i)))
        rc = pcol_oom(err);
      else
        rc = put_str(&b, f, pcol_view_u32(&unit, i), err);
    }
    if (!rc) rc = skey_id(&lk, &b, &out[s], err);
  }
  free(l);
  pcol_buf_free(&b);
  uint32_t nk = lk.n;
  pcol_intern_free(&lk);
  if (rc) {
    free(out);
    return rc;
  }
  *ids = out;
  *n = nk;
  return PCOL_OK;
}
