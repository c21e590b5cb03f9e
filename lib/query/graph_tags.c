/* graph_tags.c — the label "tags" of go tool pprof's graph nodes, as far as
 * they decide which nodes the graph keeps: when pprof selects its first
 * -nodecount nodes for a drawing it counts each node's tags as nodes too
 * (graph.go selectTopNodes, countTags: up to 4 a node).  A node's tags
 * (graph.go addSample, report.go newGraph): one per distinct set of string
 * labels of its samples ("key:value" sorted and joined), and one per such
 * set and value of the numeric label "bytes"; a tag counts when samples
 * ending in the node add to it (flat != 0) and it survives
 * TrimLowFrequencyTags (|flat| or |cum| at least the node cutoff).
 *
 * Cost: one pass over the selected samples summing values per (stack node,
 * label set), then a walk up the stack of each such pair (only for a
 * profile whose samples carry string labels or "bytes"). */
#include "query.h"

typedef pcol_q_umag umag;
static umag mag(pcol_sum v) { return v < 0 ? -(umag)v : (umag)v; }

void pcol_q_gtags_free(pcol_q_gtags *g) {
  pcol_u64map_free(&g->pairs);
  free(g->p_stack);
  free(g->p_ls);
  free(g->p_w);
  free(g->ls_off);
  free(g->ls_tag);
  pcol_q_keytab_free(&g->names);
  memset(g, 0, sizeof *g);
}

typedef struct acc {
  pcol_q_gtags *g;
  pcol_view st, ls;
  uint64_t nstacks, nls;
  pcol_error *err;
} acc;

static int acc_row(void *p, uint64_t row, int64_t v) {
  acc *a = p;
  pcol_q_gtags *g = a->g;
  if (v == 0) return 0; /* pprof skips a sample whose value is 0 */
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
      size_t nc = g->pcap ? 2 * (size_t)g->pcap : 1024;
      uint32_t *s = realloc(g->p_stack, nc * sizeof *s);
      if (s) g->p_stack = s;
      uint32_t *l = realloc(g->p_ls, nc * sizeof *l);
      if (l) g->p_ls = l;
      pcol_sum *w = realloc(g->p_w, nc * sizeof *w);
      if (w) g->p_w = w;
      if (!s || !l || !w) return pcol_oom(a->err);
      g->pcap = (uint32_t)nc;
    }
    g->p_stack[i] = n;
    g->p_ls[i] = ls;
    g->p_w[i] = 0;
    g->np++;
  }
  g->p_w[i] += v;
  return 0;
}

static int str_cmp(const void *pa, const void *pb) {
  const pcol_str *a = pa, *b = pb;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = n ? memcmp(a->ptr, b->ptr, n) : 0;
  return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* The tags of each label set: ls_tag[ls_off[ls] .. ls_off[ls + 1]) */
static int label_set_tags(pcol_file *f, pcol_q_gtags *g, uint64_t nls, pcol_error *err) {
  uint64_t nlabels = pcol_rows(f, PCOL_T_LABELS);
  pcol_view lsoff, lkey, lstr, lnum, lunit;
  pcol_column_req req[] = {{&lsoff, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
                           {&lkey, PCOL_T_LABELS, PCOL_C_LB_KEY},
                           {&lstr, PCOL_T_LABELS, PCOL_C_LB_STR},
                           {&lnum, PCOL_T_LABELS, PCOL_C_LB_NUM},
                           {&lunit, PCOL_T_LABELS, PCOL_C_LB_UNIT}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  g->ls_off = calloc(nls + 2, sizeof *g->ls_off);
  if (!g->ls_off) return pcol_oom(err);
  pcol_buf joined = {0}, tmp = {0};
  pcol_str *sl = NULL; /* the "key:value" strings of a label set */
  size_t slcap = 0, tcap = 0, nt = 0;
  int rc = PCOL_OK;
  for (uint64_t ls = 1; !rc && ls <= nls; ls++) {
    g->ls_off[ls] = (uint32_t)nt;
    uint64_t lo = pcol_view_u64(&lsoff, ls - 1), hi = pcol_view_u64(&lsoff, ls);
    if (hi > nlabels) hi = nlabels;
    if (lo > hi) lo = hi;
    size_t ns = 0;
    tmp.len = 0;
    for (uint64_t i = lo; !rc && i < hi; i++) { /* string labels: "key:value" */
      pcol_str k, s;
      uint32_t sid = pcol_view_u32(&lstr, i);
      if (!sid) continue;
      if ((rc = pcol_string(f, pcol_view_u32(&lkey, i), &k, err))) break;
      if (k.len == 11 && !memcmp(k.ptr, "pprof::base", 11)) continue; /* report.go drops it */
      if ((rc = pcol_string(f, sid, &s, err))) break;
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
    /* the tag of the string labels ('L'), then one per "bytes" value ('N') */
    for (uint64_t i = lo; !rc && i <= hi; i++) {
      pcol_buf id = {0};
      if (i == hi) {
        if (!ns) break;
        if (pcol_buf_append(&id, "L", 1) || pcol_buf_append(&id, joined.data, joined.len)) rc = pcol_oom(err);
      } else {
        pcol_str k, u;
        if (pcol_view_u32(&lstr, i)) continue;
        if ((rc = pcol_string(f, pcol_view_u32(&lkey, i), &k, err))) break;
        if (!(k.len == 5 && !memcmp(k.ptr, "bytes", 5))) continue; /* report.go keeps only bytes */
        if ((rc = pcol_string(f, pcol_view_u32(&lunit, i), &u, err))) break;
        if (!u.ptr || !u.len) u = k;
        char num[96];
        pcol_unit_label(pcol_view_i64(&lnum, i), u, "minimum", num, sizeof num);
        if (pcol_buf_append(&id, "N", 1) || pcol_buf_append(&id, joined.data, joined.len) ||
            pcol_buf_append(&id, "", 1) || pcol_buf_append(&id, num, strlen(num)))
          rc = pcol_oom(err);
      }
      uint32_t tid = 0;
      if (!rc && pcol_q_key_intern(&g->names, (const char *)id.data, id.len, 1, &tid)) rc = pcol_oom(err);
      pcol_buf_free(&id);
      if (rc) break;
      if (nt == tcap && pcol_grow(&g->ls_tag, &tcap, sizeof *g->ls_tag)) {
        rc = pcol_oom(err);
        break;
      }
      g->ls_tag[nt++] = tid;
    }
    if (nt > UINT32_MAX / 2) rc = pcol_error_set(err, PCOL_ETOOBIG, "too many label tags");
  }
  g->ls_off[nls + 1] = (uint32_t)nt;
  free(sl);
  pcol_buf_free(&joined);
  pcol_buf_free(&tmp);
  return rc;
}

int pcol_q_gtags_sets(pcol_file *f, pcol_q_gtags *g, pcol_error *err) {
  memset(g, 0, sizeof *g);
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS);
  return nls ? label_set_tags(f, g, nls, err) : PCOL_OK;
}

int pcol_q_gtags_load(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                      pcol_q_gtags *g, pcol_error *err) {
  memset(g, 0, sizeof *g);
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS);
  if (!nls) return PCOL_OK;
  acc a = {g, {0}, {0}, pcol_rows(f, PCOL_T_STACKS), nls, err};
  pcol_column_req req[] = {{&a.st, PCOL_T_SAMPLES, PCOL_C_S_STACK},
                           {&a.ls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET}};
  int rc = pcol_columns(f, req, PCOL_NCOLS(req), err);
  if (!rc) rc = label_set_tags(f, g, nls, err);
  if (!rc && g->ls_off[nls + 1] == 0) return PCOL_OK; /* no string labels, no bytes */
  pcol_filter flt;
  if (!rc) rc = pcol_filter_build(f, sel, &flt, err);
  else memset(&flt, 0, sizeof flt);
  if (!rc) rc = pcol_q_values_iter(f, sel, &flt, v, acc_row, &a, err);
  pcol_filter_free(&flt);
  return rc;
}

int pcol_q_gtags_count(const pcol_q_gtags *g, const pcol_q_inl_state *s, const uint8_t *kept,
                       const uint32_t *kk, const uint8_t *res, pcol_q_umag cut, uint32_t *count) {
  memset(count, 0, (s->nkeys + 1) * sizeof *count);
  if (!g->np) return PCOL_OK;
  pcol_u64map m = {0}; /* key << 32 | tag -> cell */
  pcol_sum *fl = NULL, *cu = NULL;
  size_t cap = 0;
  uint32_t *stamp = calloc(s->nkeys + 1, sizeof *stamp);
  int rc = stamp ? PCOL_OK : PCOL_ENOMEM;
  for (uint32_t i = 0; !rc && i < g->np; i++) {
    uint32_t n = g->p_stack[i], ls = g->p_ls[i];
    pcol_sum w = g->p_w[i];
    uint32_t leaf = kk[n] && !res[n] ? kk[n] : 0;
    /* the kept keys of the path, each once: cum; the innermost: flat */
    for (uint32_t x = n; x && !rc; x = pcol_view_u32(&s->st_parent, x - 1)) {
      uint32_t loc = pcol_view_u32(&s->st_loc, x - 1);
      if (loc > s->nlocs) break;
      for (uint32_t j = s->loc_aoff[loc]; j < s->loc_aoff[loc + 1] && !rc; j++) {
        uint32_t key = s->loc_all[j] & 0x7fffffffu;
        if (!kept[key] || stamp[key] == i + 1) continue;
        stamp[key] = i + 1;
        for (uint32_t t = g->ls_off[ls]; t < g->ls_off[ls + 1]; t++) {
          uint32_t c;
          int added;
          if (pcol_u64map_get(&m, (uint64_t)key << 32 | g->ls_tag[t], &c, &added)) {
            rc = PCOL_ENOMEM;
            break;
          }
          if (c >= cap) {
            size_t nc = cap ? 2 * cap : 1024;
            pcol_sum *a = realloc(fl, nc * sizeof *a);
            if (a) fl = a;
            pcol_sum *b = realloc(cu, nc * sizeof *b);
            if (b) cu = b;
            if (!a || !b) {
              rc = PCOL_ENOMEM;
              break;
            }
            cap = nc;
          }
          if (added) fl[c] = cu[c] = 0;
          cu[c] += w;
          if (key == leaf) fl[c] += w;
        }
      }
      if (pcol_view_u32(&s->st_parent, x - 1) >= x) break;
    }
  }
  for (size_t i = 0; !rc && i < m.cap; i++) {
    if (!m.k[i]) continue; /* slots: key + 1, or 0 */
    uint32_t key = (uint32_t)((m.k[i] - 1) >> 32), c = m.v[i];
    if (fl[c] != 0 && (mag(fl[c]) >= cut || mag(cu[c]) >= cut)) count[key]++;
  }
  pcol_u64map_free(&m);
  free(fl);
  free(cu);
  free(stamp);
  return rc;
}
