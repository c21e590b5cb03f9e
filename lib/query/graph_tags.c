/* graph_tags.c — the label "tags" of go tool pprof's graph nodes: the
 * box3d boxes (nodelets) that go tool pprof -dot hangs under a node
 * (dotgraph.go addNodelets, numericNodelets, collapsedTags), and, when pprof
 * selects its first -nodecount nodes for a drawing, the count of each
 * node's tags as nodes too (graph.go selectTopNodes, countTags: up to 4 a
 * node).  A node's tags (graph.go addSample, report.go newGraph): one per
 * distinct set of string labels of its samples ("key:value" sorted and
 * joined by "\n", joinLabels), and one per such set and value of the
 * numeric label "bytes" (its text the value in its unit, its Value the
 * first sample's); the labels whose key -tagshow does not match or -taghide
 * matches are left out (profile/filter.go FilterTagsByName).  A tag counts
 * when samples ending in the node add to it (flat != 0) and it survives
 * TrimLowFrequencyTags (|flat| or |cum| at least the node cutoff).
 *
 * Cost: one pass over the selected samples summing values per (stack node,
 * label set), then a walk up the stack of each such pair (only for a
 * profile whose samples carry string labels or "bytes"). */
#include "query.h"
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "buf.h"      /* pcol_buf_append, pcol_grow, pcol_buf_free, ... */
#include "hash.h"     /* pcol_u64map_free, pcol_u64map_get, pcol_u64map */
#include "filter.h"   /* pcol_filter, pcol_filter_build, pcol_filter_free */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "select.h"   /* pcol_select_need_view */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef pcol_q_umag umag;
static umag mag(pcol_sum v) { return v < 0 ? -(umag)v : (umag)v; }

/* Parallel arrays *a[i] of elements of size[i] bytes, grown together from
 * *cap entries to twice as many (at least 1024); 0 or PCOL_ENOMEM (each
 * array keeps what it had: a smaller one is never shrunk). */
static int grow_par(size_t *cap, int n, void *a[], const size_t size[]) {
  size_t nc = *cap ? 2 * *cap : 1024;
  for (int i = 0; i < n; i++) { /* a[i] points to a T *: read and written by memcpy (no aliasing) */
    void *old, *p;
    memcpy(&old, a[i], sizeof old);
    if (!(p = realloc(old, nc * size[i]))) return PCOL_ENOMEM;
    memcpy(a[i], &p, sizeof p);
  }
  *cap = nc;
  return PCOL_OK;
}

void pcol_q_gtags_free(pcol_q_gtags *g) {
  pcol_u64map_free(&g->pairs);
  free(g->p_stack);
  free(g->p_ls);
  free(g->p_w);
  free(g->p_d);
  free(g->ls_off);
  free(g->ls_tag);
  free(g->ls_val);
  free(g->tag);
  free(g->parts);
  pcol_q_keytab_free(&g->names);
  memset(g, 0, sizeof *g);
}

typedef struct acc {
  pcol_q_gtags *g;
  pcol_view st, ls;
  uint64_t nstacks, nls;
  pcol_error *err;
  int div; /* the pass of -mean's divisor: into p_d */
} acc;

static int acc_row(void *p, uint64_t row, int64_t v) {
  acc *a = p;
  pcol_q_gtags *g = a->g;
  if (v == 0) return 0; /* pprof skips a sample whose value (and divisor) is 0 */
  uint32_t n = pcol_view_u32(&a->st, row), ls = pcol_view_u32(&a->ls, row);
  if (n > a->nstacks || ls > a->nls)
    return pcol_error_set(a->err, PCOL_ECORRUPT, "sample %llu: stack or label set out of range",
                          (unsigned long long)row + 1);
  if (!ls || g->ls_off[ls] == g->ls_off[ls + 1] || !n) return 0; /* no tags */
  uint32_t i;
  int added;
  if (pcol_u64map_get(&g->pairs, (uint64_t)n << 32 | ls, &i, &added)) return pcol_oom(a->err);
  if (added) {
    if (g->np == g->pcap) {
      void *arr[] = {&g->p_stack, &g->p_ls, &g->p_w, &g->p_d};
      const size_t sz[] = {sizeof *g->p_stack, sizeof *g->p_ls, sizeof *g->p_w, sizeof *g->p_d};
      size_t cap = g->pcap;
      if (cap >= UINT32_MAX / 2 || grow_par(&cap, g->mean ? 4 : 3, arr, sz)) return pcol_oom(a->err);
      g->pcap = (uint32_t)cap;
    }
    g->p_stack[i] = n;
    g->p_ls[i] = ls;
    g->p_w[i] = 0;
    if (g->mean) g->p_d[i] = 0;
    g->np++;
  }
  if (a->div)
    g->p_d[i] += v;
  else
    g->p_w[i] += v;
  return 0;
}

static int str_cmp(const void *pa, const void *pb) {
  const pcol_str *a = pa, *b = pb;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = n ? memcmp(a->ptr, b->ptr, n) : 0;
  return c ? c : (a->len > b->len) - (a->len < b->len);
}


/* The record of a new tag identity id: its lines copied into names' arena */
static int tag_new(pcol_q_gtags *g, uint32_t id, int numeric, uint32_t parent, const pcol_str *lines,
                   size_t nl, pcol_str unit) {
  while (id >= g->tcap)
    if (pcol_grow(&g->tag, &g->tcap, sizeof *g->tag)) return PCOL_ENOMEM;
  pcol_q_gtag *t = &g->tag[id];
  memset(t, 0, sizeof *t);
  t->numeric = (uint8_t)numeric;
  t->parent = parent;
  t->p0 = (uint32_t)g->nparts;
  t->np = (uint32_t)nl;
  t->unit = unit;
  for (size_t i = 0; i < nl; i++) {
    if (g->nparts == g->partcap && pcol_grow(&g->parts, &g->partcap, sizeof *g->parts)) return PCOL_ENOMEM;
    pcol_str c = {"", 0};
    if (lines[i].len && !(c.ptr = pcol_q_key_store(&g->names, lines[i].ptr, lines[i].len))) return PCOL_ENOMEM;
    c.len = lines[i].len;
    g->parts[g->nparts++] = c;
  }
  if (numeric) {
    t->name = g->parts[t->p0];
  } else {
    t->name = g->names.s[id]; /* "L" + the joined labels */
    t->name.ptr++;
    t->name.len--;
  }
  return PCOL_OK;
}

/* Interns tag p[0..n) (kind and text) as *id, recording it when new; err
 * filled (the table of names full, or memory). */
static int tag_intern(pcol_q_gtags *g, const pcol_buf *id, int numeric, uint32_t parent,
                      const pcol_str *lines, size_t nl, pcol_str unit, uint32_t *tid, pcol_error *err) {
  int added = !pcol_q_key_find(&g->names, (const char *)id->data, id->len);
  PCOL_RETURN_NOT_OK(pcol_q_key_intern(&g->names, (const char *)id->data, id->len, 1, tid, err));
  return added && tag_new(g, *tid, numeric, parent, lines, nl, unit) ? pcol_oom(err) : PCOL_OK;
}

static int push_tag(pcol_q_gtags *g, size_t *nt, size_t *cap, uint32_t tid, int64_t val) {
  if (*nt == *cap) {
    void *arr[] = {&g->ls_tag, &g->ls_val};
    const size_t sz[] = {sizeof *g->ls_tag, sizeof *g->ls_val};
    if (grow_par(cap, 2, arr, sz)) return PCOL_ENOMEM;
  }
  g->ls_tag[*nt] = tid;
  g->ls_val[(*nt)++] = val;
  return PCOL_OK;
}

/* The labels that make tags (report.go): a string label but pprof::base's,
 * and the numeric label "bytes" */
static int string_tag_key(pcol_str k) { return !(k.len == 11 && !memcmp(k.ptr, "pprof::base", 11)); }
static int numeric_tag_key(pcol_str k) { return k.len == 5 && !memcmp(k.ptr, "bytes", 5); }

/* n more bytes of the tags' text made (*made so far), within the output
 * budget: labels naming one long string would make labels x its length */
static int text_made(pcol_file *f, uint64_t *made, uint64_t n, uint64_t max_output, pcol_error *err) {
  uint64_t budget = pcol_output_budget(pcol_input_bytes(f), max_output);
  if (n <= budget && *made <= budget - n) {
    *made += n;
    return PCOL_OK;
  }
  return pcol_output_budget_error(err, "call graph label boxes", "their text would pass", budget,
                                  pcol_input_bytes(f), max_output != 0);
}

/* The tags of each label set: ls_tag[ls_off[ls] .. ls_off[ls + 1]): the
 * string labels' tag ("L" + joined) first, then one per "bytes" value
 * ("N" + joined + NUL + the value's text) */
static int label_set_tags(pcol_file *f, pcol_q_gtags *g, uint64_t nls, pcol_q_tagkeys *ks, uint64_t max_output,
                          pcol_error *err) {
  uint64_t made = 0; /* the tags' text (text_made) */
  pcol_q_labelcols lc;
  PCOL_RETURN_NOT_OK(pcol_q_labelcols_open(f, &lc, err));
  uint64_t nlabels = lc.nlabels;
  g->ls_off = calloc(nls + 2, sizeof *g->ls_off);
  if (!g->ls_off) return pcol_oom(err);
  pcol_buf joined = {0}, tmp = {0}, id = {0};
  pcol_str *sl = NULL; /* the "key:value" strings of a label set */
  size_t slcap = 0, tcap = 0, nt = 0;
  int rc = PCOL_OK;
  for (uint64_t ls = 1; !rc && ls <= nls; ls++) {
    g->ls_off[ls] = (uint32_t)nt;
    uint64_t lo = pcol_view_u64(&lc.off, ls - 1), hi = pcol_view_u64(&lc.off, ls);
    if (hi > nlabels) hi = nlabels;
    if (lo > hi) lo = hi;
    size_t ns = 0;
    tmp.len = 0;
    for (uint64_t i = lo; !rc && i < hi; i++) { /* string labels: "key:value" */
      pcol_str k, s;
      uint32_t sid = pcol_view_u32(&lc.str, i), kid = pcol_view_u32(&lc.key, i);
      int keep;
      if (!sid) continue;
      if ((rc = pcol_string(f, kid, &k, err))) break;
      if (!string_tag_key(k)) continue;
      if ((rc = pcol_q_tagkeys_kept(ks, kid, k, &keep, err)) || !keep) continue;
      if ((rc = pcol_string(f, sid, &s, err))) break;
      if ((rc = text_made(f, &made, (uint64_t)k.len + 1 + s.len, max_output, err))) break;
      size_t at = tmp.len;
      if (pcol_buf_append(&tmp, k.ptr ? k.ptr : "", k.ptr ? k.len : 0) || pcol_buf_append(&tmp, ":", 1) ||
          pcol_buf_append(&tmp, s.ptr ? s.ptr : "", s.ptr ? s.len : 0)) {
        rc = pcol_oom(err);
        break;
      }
      if (ns == slcap && pcol_grow(&sl, &slcap, sizeof *sl)) {
        rc = pcol_oom(err);
        break;
      }
      sl[ns].ptr = (const char *)(uintptr_t)at; /* an offset until tmp stops moving */
      sl[ns++].len = tmp.len - at;
    }
    if (rc) break;
    for (size_t i = 0; i < ns; i++) sl[i].ptr = (const char *)tmp.data + (uintptr_t)sl[i].ptr;
    if (ns > 1) qsort(sl, ns, sizeof *sl, str_cmp);
    joined.len = 0;
    for (size_t i = 0; i < ns && !rc; i++)
      if ((i && pcol_buf_append(&joined, "\\n", 2)) || pcol_buf_append(&joined, sl[i].ptr, sl[i].len))
        rc = pcol_oom(err);
    uint32_t lid = 0; /* the string labels' tag */
    pcol_str none = {NULL, 0};
    if (!rc && ns) {
      id.len = 0;
      if (pcol_buf_append(&id, "L", 1) || pcol_buf_append(&id, joined.data, joined.len))
        rc = pcol_oom(err);
      else if (!(rc = tag_intern(g, &id, 0, 0, sl, ns, none, &lid, err)) && push_tag(g, &nt, &tcap, lid, 0))
        rc = pcol_oom(err);
    }
    for (uint64_t i = lo; !rc && i < hi; i++) { /* then a tag per "bytes" value */
      pcol_str k, u;
      uint32_t kid = pcol_view_u32(&lc.key, i), tid;
      int keep;
      if (pcol_view_u32(&lc.str, i)) continue;
      if ((rc = pcol_string(f, kid, &k, err))) break;
      if (!numeric_tag_key(k)) continue;
      if ((rc = pcol_q_tagkeys_kept(ks, kid, k, &keep, err)) || !keep) continue;
      if ((rc = pcol_string(f, pcol_view_u32(&lc.unit, i), &u, err))) break;
      if (!u.ptr || !u.len) u = k;
      char num[256];
      int64_t val = pcol_view_i64(&lc.num, i);
      pcol_unit_label(val, u, "minimum", num, sizeof num);
      pcol_str line = {num, strlen(num)};
      if ((rc = text_made(f, &made, joined.len + line.len, max_output, err))) break;
      id.len = 0;
      if (pcol_buf_append(&id, "N", 1) || pcol_buf_append(&id, joined.data, joined.len) ||
          pcol_buf_append(&id, "", 1) || pcol_buf_append(&id, num, line.len))
        rc = pcol_oom(err);
      else if (!(rc = tag_intern(g, &id, 1, lid, &line, 1, u, &tid, err)) && push_tag(g, &nt, &tcap, tid, val))
        rc = pcol_oom(err);
    }
    if (nt > UINT32_MAX / 2) rc = pcol_error_set(err, PCOL_ETOOBIG, "too many label tags");
  }
  g->ls_off[nls + 1] = (uint32_t)nt;
  free(sl);
  pcol_buf_free(&joined);
  pcol_buf_free(&tmp);
  pcol_buf_free(&id);
  return rc;
}

int pcol_q_gtags_any(pcol_file *f, int *any, pcol_error *err) {
  *any = 0;
  pcol_view lkey, lstr;
  pcol_column_req req[] = {{&lkey, PCOL_T_LABELS, PCOL_C_LB_KEY}, {&lstr, PCOL_T_LABELS, PCOL_C_LB_STR}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_LABELS) && !*any; i++) { /* each label is in one set (U2) */
    pcol_str k;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&lkey, i), &k, err));
    *any = pcol_view_u32(&lstr, i) ? string_tag_key(k) : numeric_tag_key(k);
  }
  return PCOL_OK;
}

int pcol_q_gtags_load(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      const pcol_value_sel *div, uint64_t max_output, pcol_q_gtags *g,
                      pcol_error *err) {
  memset(g, 0, sizeof *g);
  g->mean = div != NULL;
  pcol_q_tagkeys ks;
  int rc = pcol_q_tagkeys_init(&ks, sel, err);
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS);
  if (rc || !nls) {
    pcol_q_tagkeys_free(&ks);
    return rc;
  }
  acc a = {g, {0}, {0}, pcol_rows(f, PCOL_T_STACKS), nls, err, 0};
  /* the selected rows only (a range of a file in zstd blocks: their blocks) */
  static const int need[] = {PCOL_C_S_STACK, PCOL_C_S_LABELSET};
  int lazy;
  rc = pcol_select_need_view(f, sel, need[0], &a.st, &lazy, err);
  if (!rc) rc = pcol_select_need_view(f, sel, need[1], &a.ls, &lazy, err);
  if (!rc) rc = label_set_tags(f, g, nls, &ks, max_output, err);
  pcol_q_tagkeys_free(&ks);
  if (!rc && g->ls_off[nls + 1] == 0) return PCOL_OK; /* no string labels, no bytes */
  pcol_filter flt;
  if (!rc) rc = pcol_filter_build(f, sel, &flt, err);
  else memset(&flt, 0, sizeof flt);
  if (!rc) rc = pcol_q_values_iter_need(f, sel, &flt, v, need, PCOL_NCOLS(need), acc_row, &a, err);
  /* -mean: the divisor of the same pairs (a sample of value 0 and a
   * divisor makes its pair, as pprof's graph takes it) */
  a.div = 1;
  if (!rc && div) rc = pcol_q_values_iter_need(f, sel, &flt, div, need, PCOL_NCOLS(need), acc_row, &a, err);
  pcol_filter_free(&flt);
  return rc;
}

/* The tags of the kept keys in a build: per (key, tag) their flat, cum and
 * value (the first sample's: pairs come in the order of their first
 * sample, and a cell takes the first pair's) */
typedef struct cells {
  pcol_u64map m; /* key << 32 | tag -> cell */
  pcol_sum *fl, *cu;
  pcol_sum *fd, *cd; /* -mean: the divisor's flat and cum */
  int64_t *val;
  size_t cap;
} cells;

static void cells_free(cells *c) {
  pcol_u64map_free(&c->m);
  free(c->fl);
  free(c->cu);
  free(c->fd);
  free(c->cd);
  free(c->val);
  memset(c, 0, sizeof *c);
}

static int cell_get(cells *c, uint64_t k, int64_t val, uint32_t *out) {
  int added;
  if (pcol_u64map_get(&c->m, k, out, &added)) return PCOL_ENOMEM;
  if (*out >= c->cap) {
    void *arr[] = {&c->fl, &c->cu, &c->val, &c->fd, &c->cd};
    const size_t sz[] = {sizeof *c->fl, sizeof *c->cu, sizeof *c->val, sizeof *c->fd, sizeof *c->cd};
    if (grow_par(&c->cap, 5, arr, sz)) return PCOL_ENOMEM;
  }
  if (added) {
    c->fl[*out] = c->cu[*out] = c->fd[*out] = c->cd[*out] = 0;
    c->val[*out] = val;
  }
  return PCOL_OK;
}

/* The cells: first each pair's weight added to every kept key of its path
 * (each once: cum; the innermost: flat) per (key, label set), in the order
 * of their first pair, then each (key, set) spread over the set's tags:
 * work in the pairs x depth plus the (key, set)s x their tags, not pairs x
 * depth x tags (a set of many "bytes" values on deep distinct stacks) */
static int cells_make(const pcol_q_gtags *g, const pcol_q_inl_state *s, const uint8_t *kept,
                      const uint32_t *kk, const uint8_t *res, cells *c) {
  memset(c, 0, sizeof *c);
  if (!g->np) return PCOL_OK;
  cells kl = {0}; /* key << 32 | label set -> its flat and cum (val unused) */
  uint32_t *stamp = calloc(s->nkeys + 1, sizeof *stamp);
  int rc = stamp ? PCOL_OK : PCOL_ENOMEM;
  for (uint32_t i = 0; !rc && i < g->np; i++) {
    uint32_t n = g->p_stack[i], ls = g->p_ls[i];
    pcol_sum w = g->p_w[i], d = g->mean ? g->p_d[i] : 0;
    /* a pair is pprof's merged sample (one stack and label set): one whose
     * values cancel is skipped as a sample of 0 is, and makes no tag (its
     * "bytes" value would widen a bucket's range) */
    if (w == 0 && d == 0) continue;
    uint32_t leaf = kk[n] && !res[n] ? kk[n] : 0;
    for (uint32_t x = n; x && !rc; x = pcol_view_u32(&s->st_parent, x - 1)) {
      uint32_t loc = pcol_view_u32(&s->st_loc, x - 1);
      if (loc > s->nlocs) break;
      for (uint32_t j = s->loc_aoff[loc]; j < s->loc_aoff[loc + 1] && !rc; j++) {
        uint32_t key = s->loc_all[j] & 0x7fffffffu, x2;
        if (!kept[key] || stamp[key] == i + 1) continue;
        stamp[key] = i + 1;
        if ((rc = cell_get(&kl, (uint64_t)key << 32 | ls, 0, &x2))) break;
        kl.cu[x2] += w;
        kl.cd[x2] += d;
        if (key == leaf) kl.fl[x2] += w, kl.fd[x2] += d;
      }
      if (pcol_view_u32(&s->st_parent, x - 1) >= x) break;
    }
  }
  free(stamp);
  for (size_t i = 0; !rc && i < kl.m.cap; i++) { /* the map's n-th key has index n */
    if (!kl.m.k[i]) continue;
    uint64_t k = kl.m.k[i] - 1;
    kl.val[kl.m.v[i]] = (int64_t)k; /* each index's (key, set), to walk them in order */
  }
  for (uint32_t e = 0; !rc && e < kl.m.n; e++) {
    uint32_t key = (uint32_t)((uint64_t)kl.val[e] >> 32), ls = (uint32_t)kl.val[e];
    for (uint32_t t = g->ls_off[ls]; t < g->ls_off[ls + 1] && !rc; t++) {
      uint32_t x2;
      if ((rc = cell_get(c, (uint64_t)key << 32 | g->ls_tag[t], g->ls_val[t], &x2))) break;
      c->cu[x2] += kl.cu[e];
      c->fl[x2] += kl.fl[e];
      c->cd[x2] += kl.cd[e];
      c->fd[x2] += kl.fd[e];
    }
  }
  cells_free(&kl);
  if (rc) cells_free(c);
  return rc;
}

int pcol_q_gtags_count(const pcol_q_gtags *g, const pcol_q_inl_state *s, const uint8_t *kept,
                       const uint32_t *kk, const uint8_t *res, pcol_q_umag cut, uint32_t *count) {
  memset(count, 0, (s->nkeys + 1) * sizeof *count);
  cells c;
  PCOL_RETURN_NOT_OK(cells_make(g, s, kept, kk, res, &c));
  for (size_t i = 0; i < c.m.cap; i++) {
    if (!c.m.k[i]) continue; /* slots: key + 1, or 0 */
    uint32_t key = (uint32_t)((c.m.k[i] - 1) >> 32), x = c.m.v[i];
    if (c.fl[x] != 0 && (mag(c.fl[x]) >= cut || mag(c.cu[x]) >= cut)) count[key]++;
  }
  cells_free(&c);
  return PCOL_OK;
}

/* ------------------------------------------------------------ drawing */
/* A tag as dotgraph.go sorts it (graph.go tags.Less) */
typedef struct dtag {
  uint32_t node, tag;
  pcol_sum fl, cu;
  int64_t val;
  pcol_str name, unit;
  pcol_sum fd, cd; /* -mean: the divisor's (0: none, or a bucket already divided) */
} dtag;

static int dtag_node_cmp(const void *pa, const void *pb) {
  const dtag *a = pa, *b = pb;
  if (a->node != b->node) return a->node < b->node ? -1 : 1;
  return (a->tag > b->tag) - (a->tag < b->tag);
}

/* graph.go tags.Less: a leaf's (flat = 0) by |cum| desc, then |flat| desc,
 * then name */
static int dtag_cmp(const void *pa, const void *pb, void *ctx) {
  const dtag *a = pa, *b = pb;
  int flat = *(const int *)ctx;
  if (!flat && mag(a->cu) != mag(b->cu)) return mag(a->cu) > mag(b->cu) ? -1 : 1;
  if (mag(a->fl) != mag(b->fl)) return mag(a->fl) > mag(b->fl) ? -1 : 1;
  return str_cmp(&a->name, &b->name);
}
static void dtag_sort(dtag *t, size_t n, int flat) {
  if (n > 1) qsort_r(t, n, sizeof *t, dtag_cmp, &flat);
}

/* The boxes as they are made: lines as offsets into text */
typedef struct tbuild {
  pcol_graph_tag *t;
  size_t n, cap;
  size_t *l0; /* the first line of each box, in ln */
  struct {
    size_t off, len;
  } *ln;
  size_t nl, lcap;
  pcol_buf text;
} tbuild;

static int tb_emit(tbuild *b, uint32_t node, uint32_t parent, uint32_t index, int numeric,
                   const pcol_str *lines, size_t nl, pcol_sum w, int dotted, uint32_t *at) {
  if (b->n == b->cap) {
    void *arr[] = {&b->t, &b->l0};
    const size_t sz[] = {sizeof *b->t, sizeof *b->l0};
    if (grow_par(&b->cap, 2, arr, sz)) return PCOL_ENOMEM;
  }
  pcol_graph_tag x = {node, parent, index, numeric, NULL, nl, w, dotted};
  b->l0[b->n] = b->nl;
  *at = (uint32_t)b->n;
  b->t[b->n++] = x;
  for (size_t i = 0; i < nl; i++) {
    if (b->nl == b->lcap && pcol_grow(&b->ln, &b->lcap, sizeof *b->ln)) return PCOL_ENOMEM;
    b->ln[b->nl].off = b->text.len;
    b->ln[b->nl++].len = lines[i].len;
    if (pcol_buf_append(&b->text, lines[i].ptr, lines[i].len)) return PCOL_ENOMEM;
  }
  return PCOL_OK;
}

/* dotgraph.go tagDistance, with one unit for every value of a key */
static double tag_dist(const dtag *t, const dtag *u) {
  double v = (double)u->val, x = (double)t->val;
  return v < x ? x - v : v - x;
}

/* dotgraph.go numericNodelets over nts[0..m): sorted, and when more than 4
 * put into 4 buckets (collapsedTags, tagGroupLabel) */
static int numeric_boxes(tbuild *b, dtag *nts, size_t m, int flat, uint32_t node, uint32_t parent) {
  enum { MAXN = 4 };
  char lab[MAXN][520];
  dtag grp[MAXN];
  dtag_sort(nts, m, flat);
  dtag *show = nts;
  size_t ns = m;
  if (m > MAXN) {
    size_t cnt[MAXN] = {1, 1, 1, 1};
    dtag mn[MAXN], mx[MAXN];
    for (size_t i = 0; i < MAXN; i++) grp[i] = mn[i] = mx[i] = nts[i];
    for (size_t j = MAXN; j < m; j++) {
      size_t gi = 0;
      double d = tag_dist(&nts[j], &nts[0]);
      for (size_t i = 1; i < MAXN; i++) {
        double nd = tag_dist(&nts[j], &nts[i]);
        if (nd < d) gi = i, d = nd;
      }
      cnt[gi]++;
      grp[gi].fl += nts[j].fl;
      grp[gi].cu += nts[j].cu;
      grp[gi].fd += nts[j].fd;
      grp[gi].cd += nts[j].cd;
      if (nts[j].val < mn[gi].val) mn[gi] = nts[j];
      if (nts[j].val > mx[gi].val) mx[gi] = nts[j];
    }
    for (size_t i = 0; i < MAXN; i++) {
      char a[256], c[256];
      pcol_unit_label(mn[i].val, mn[i].unit, "minimum", a, sizeof a);
      if (cnt[i] == 1) {
        snprintf(lab[i], sizeof lab[i], "%s", a);
      } else {
        pcol_unit_label(mx[i].val, mx[i].unit, "minimum", c, sizeof c);
        snprintf(lab[i], sizeof lab[i], "%s..%s", a, c);
      }
      grp[i].name.ptr = lab[i];
      grp[i].name.len = strlen(lab[i]);
      /* tagGroupLabel: a bucket's values are its means, sorted as such */
      grp[i].fl = pcol_q_mean_quot(grp[i].fl, grp[i].fd);
      grp[i].cu = pcol_q_mean_quot(grp[i].cu, grp[i].cd);
      grp[i].fd = grp[i].cd = 0;
    }
    dtag_sort(grp, MAXN, flat);
    show = grp;
    ns = MAXN;
  }
  for (size_t j = 0; j < ns; j++) {
    const dtag *t = &show[j];
    pcol_sum fv = pcol_q_mean_quot(t->fl, t->fd), cv = pcol_q_mean_quot(t->cu, t->cd);
    pcol_sum w = cv;
    int dotted = 1;
    if (flat || fv == cv) w = fv, dotted = 0;
    uint32_t at;
    if (w != 0 && tb_emit(b, node, parent, (uint32_t)j, 1, &t->name, 1, w, dotted, &at)) return PCOL_ENOMEM;
  }
  return PCOL_OK;
}

/* dotgraph.go addNodelets for the nodes' tags dt[0..n) (sorted by node) */
static int node_boxes(const pcol_q_gtags *g, tbuild *b, dtag *dt, size_t n, const uint8_t *has_out) {
  enum { MAXN = 4 };
  dtag *tmp = malloc((n ? n : 1) * sizeof *tmp);
  if (!tmp) return PCOL_ENOMEM;
  int rc = PCOL_OK;
  for (size_t a = 0, e; !rc && a < n; a = e) {
    uint32_t node = dt[a].node;
    for (e = a; e < n && dt[e].node == node; e++) {
    }
    int flat = has_out[node];
    size_t nl = 0, nn;
    for (size_t i = a; i < e; i++)
      if (!g->tag[dt[i].tag].numeric) tmp[nl++] = dt[i];
    dtag_sort(tmp, nl, flat);
    if (nl > MAXN) nl = MAXN;
    dtag lt[MAXN];
    memcpy(lt, tmp, nl * sizeof *lt);
    for (size_t i = 0; !rc && i < nl; i++) {
      pcol_sum w = flat ? pcol_q_mean_quot(lt[i].fl, lt[i].fd) : pcol_q_mean_quot(lt[i].cu, lt[i].cd);
      if (w == 0) continue;
      const pcol_q_gtag *t = &g->tag[lt[i].tag];
      uint32_t at;
      if ((rc = tb_emit(b, node, 0, (uint32_t)i, 0, g->parts + t->p0, t->np, w, 0, &at))) break;
      nn = 0;
      for (size_t j = a; j < e; j++)
        if (g->tag[dt[j].tag].numeric && g->tag[dt[j].tag].parent == lt[i].tag) tmp[nn++] = dt[j];
      rc = numeric_boxes(b, tmp, nn, flat, node, at + 1);
    }
    nn = 0;
    for (size_t j = a; j < e; j++)
      if (g->tag[dt[j].tag].numeric && !g->tag[dt[j].tag].parent) tmp[nn++] = dt[j];
    if (!rc) rc = numeric_boxes(b, tmp, nn, flat, node, 0);
  }
  free(tmp);
  return rc;
}

int pcol_q_gtags_draw(const pcol_q_gtags *g, const pcol_q_inl_state *s, const uint8_t *kept,
                      const uint32_t *kk, const uint8_t *res, pcol_q_umag cut,
                      const uint32_t *node_of, pcol_graph *out, pcol_error *err) {
  cells c;
  if (cells_make(g, s, kept, kk, res, &c)) return pcol_oom(err);
  dtag *dt = malloc((c.m.n ? c.m.n : 1) * sizeof *dt);
  uint8_t *has_out = calloc(out->nnodes + out->nphantom + 1, 1); /* (a call's ends: phantoms too) */
  tbuild b = {0};
  int rc = dt && has_out ? PCOL_OK : PCOL_ENOMEM;
  size_t n = 0;
  for (size_t i = 0; !rc && i < c.m.cap; i++) {
    if (!c.m.k[i]) continue;
    uint32_t key = (uint32_t)((c.m.k[i] - 1) >> 32), tag = (uint32_t)(c.m.k[i] - 1), x = c.m.v[i];
    if (node_of[key] == UINT32_MAX || !(mag(c.fl[x]) >= cut || mag(c.cu[x]) >= cut)) continue;
    dtag d = {node_of[key], tag, c.fl[x], c.cu[x], c.val[x], g->tag[tag].name, g->tag[tag].unit, c.fd[x], c.cd[x]};
    dt[n++] = d;
  }
  if (!rc) {
    for (size_t i = 0; i < out->nedges; i++) has_out[out->edges[i].from] = 1; /* graph.go: len(node.Out) > 0 */
    if (n > 1) qsort(dt, n, sizeof *dt, dtag_node_cmp);
    rc = node_boxes(g, &b, dt, n, has_out);
  }
  /* the boxes and their lines, in one block */
  if (!rc && b.n) {
    pcol_str *ln = malloc(b.nl * sizeof *ln + b.text.len + 1);
    if (!ln) {
      rc = PCOL_ENOMEM;
    } else {
      char *text = (char *)(ln + b.nl);
      if (b.text.len) memcpy(text, b.text.data, b.text.len);
      for (size_t i = 0; i < b.nl; i++) {
        ln[i].ptr = text + b.ln[i].off;
        ln[i].len = b.ln[i].len;
      }
      for (size_t i = 0; i < b.n; i++) b.t[i].lines = ln + b.l0[i];
      out->tags = b.t;
      out->ntags = b.n;
      out->tag_mem_ = ln;
      b.t = NULL;
    }
  }
  free(b.t);
  free(b.l0);
  free(b.ln);
  pcol_buf_free(&b.text);
  free(dt);
  free(has_out);
  cells_free(&c);
  return rc ? pcol_oom(err) : PCOL_OK;
}
