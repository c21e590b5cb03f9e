/* fuzz_views.h — the views target (header-only, shared by fuzz_views.c and
 * the gcc replay test): a pcol file, opened with its checksums made right,
 * through every analysis of lib/query — value resolution, stack weights, top
 * with every `by`, the frame tree, fold, diff — for several values and
 * selections, with and without full validation.  Besides memory safety it
 * checks the views agree with each other:
 *   - top's total and the frame tree's total_abs are the same sum;
 *   - no flat or cum exceeds the total in magnitude;
 *   - fold's lines add up to the frame tree's non-root self values;
 *   - a profile diffed against itself changes nothing.
 * Output is bounded: fold writes into memory and is skipped for files whose
 * samples x depth x inline frames could make it large (amplification is
 * budgeted elsewhere; here it would only slow the fuzzer). */
#ifndef PCOL_FUZZ_VIEWS_H
#define PCOL_FUZZ_VIEWS_H

#include "fuzz_common.h"
#include "count.h" /* pcol_base_kinds: fzv_base_total */

static inline int64_t fzv_abs(int64_t v) { return v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v; }

/* sum of the numbers ending fold's lines ("a;b 12\n") */
static inline __int128 fzv_fold_sum(const char *p, size_t n) {
  __int128 s = 0;
  size_t i = 0;
  while (i < n) {
    size_t e = i;
    while (e < n && p[e] != '\n') e++;
    size_t b = e;
    while (b > i && p[b - 1] != ' ') b--;
    int neg = b < e && p[b] == '-';
    __int128 v = 0;
    for (size_t k = b + (size_t)neg; k < e; k++) v = v * 10 + (p[k] - '0');
    s += neg ? -v : v;
    i = e + 1;
  }
  return s;
}

/* a trace's labels and frames are readable: touched, counted, at most 64 */
static inline int fzv_count_trace(void *ctx, const pcol_trace *t) {
  size_t *n = ctx, bytes = 0;
  for (size_t i = 0; i < t->nlabels; i++) bytes += t->labels[i].key.len;
  size_t want = t->nframes ? t->nframes - 1 : 0; /* the stack's line: names and ';'s */
  for (size_t i = 0; i < t->nframes; i++) {
    bytes += t->frames[i].len;
    want += t->frames[i].ptr ? t->frames[i].len : 0;
  }
  char line[64];
  size_t got = pcol_trace_stack_text(t, line, sizeof line);
  if (got != want || pcol_trace_stack_text(t, NULL, 0) != want) fz_fail("trace stack text length", NULL);
  for (size_t i = 0, k = t->nframes; k-- > 0 && i < sizeof line;) { /* ';' only between names */
    size_t len = t->frames[k].ptr ? t->frames[k].len : 0;
    for (size_t j = 0; j < len && i < sizeof line; j++, i++)
      if (line[i] == ';' || line[i] == '\n') fz_fail("trace stack text: a ';' inside a name", NULL);
    if (k && i < sizeof line && line[i++] != ';') fz_fail("trace stack text: ';' between names", NULL);
  }
  *n += 1 + (bytes & 1);
  return *n > 64;
}
/* fzv_count_trace's checks, and *ctx the number of traces (stops past 64) */
static inline int fzv_n_trace(void *ctx, const pcol_trace *t) {
  size_t *n = ctx, checked = 0;
  fzv_count_trace(&checked, t);
  return ++*n > 64;
}

/* 1 when f's total is that of a -diff_base's base (a source of pprof.diff_base
 * true or signed, spec.md §6.11: go's computeTotal takes the base's samples'
 * total), which a difference's |flat| and |cum| may pass */
static inline int fzv_base_total(pcol_file *f) {
  const uint8_t *kinds = NULL;
  pcol_error err = {0};
  return pcol_base_kinds(f, &kinds, &err) == 0 && kinds && (kinds[0] & 5);
}

static inline void fzv_one_value(pcol_file *f, const pcol_select *sel, const char *vname,
                                 int fold_ok) {
  pcol_error err = {0};
  int bt = fzv_base_total(f);
  pcol_value_sel v;
  if (pcol_value_resolve(f, sel, vname, &v, &err)) return;
  pcol_sum *w = NULL, tabs = 0;
  if (pcol_stack_weights(f, sel, &v, &w, &tabs, &err) == 0) free(w);
  pcol_top t[3];
  int ok[3];
  for (int by = 0; by < 3; by++) {
    memset(&t[by], 0, sizeof t[by]);
    ok[by] = pcol_top_compute(f, sel, &v, (pcol_by)by, &t[by], &err) == 0;
    if (!ok[by]) continue;
    for (size_t i = 0; i < t[by].nrows; i++)
      if (!bt && (fzv_abs(t[by].rows[i].flat) > t[by].total || fzv_abs(t[by].rows[i].cum) > t[by].total))
        fz_fail("|flat| and |cum| stay within the total", NULL);
    if (by && ok[0] && t[by].total != t[0].total) fz_fail("every `by` has the same total", NULL);
    pcol_diff d;
    if (pcol_diff_compute(&t[by], &t[by], 1, &d, &err) == 0) {
      for (size_t i = 0; i < d.nrows; i++)
        if (d.rows[i].abs_flat || d.rows[i].abs_cum) fz_fail("a profile against itself changes nothing", NULL);
      pcol_diff_free(&d);
    }
  }
  /* walk mode and sums mode give the same answer (PCOL_DEBUG chooses: a
   * file this small would get sums mode; the walk sees hostile orders and
   * ids only here) */
  for (int by = 0; by < 2; by++) { /* by function, by line */
    if (!ok[by]) continue;
    pcol_top tw, ts;
    memset(&tw, 0, sizeof tw);
    memset(&ts, 0, sizeof ts);
    setenv("PCOL_DEBUG", "top-walk", 1);
    int okw = pcol_top_compute(f, sel, &v, (pcol_by)by, &tw, &err) == 0;
    setenv("PCOL_DEBUG", "top-sums", 1);
    int oks = pcol_top_compute(f, sel, &v, (pcol_by)by, &ts, &err) == 0;
    unsetenv("PCOL_DEBUG");
    /* both read the same columns (each is checked on first use): both
     * answer or both refuse */
    if (okw != oks) fz_fail("walk and sums mode both answer or both refuse", NULL);
    if (okw && oks) {
      if (tw.nrows != ts.nrows || tw.total != ts.total) fz_fail("walk and sums mode: the same rows", NULL);
      for (size_t i = 0; i < tw.nrows && i < ts.nrows; i++) {
        const pcol_top_row *a = &tw.rows[i], *b = &ts.rows[i];
        if (a->flat != b->flat || a->cum != b->cum || a->inl != b->inl || a->name.len != b->name.len ||
            (a->name.len && memcmp(a->name.ptr, b->name.ptr, a->name.len)))
          fz_fail("walk and sums mode: the same rows", NULL);
      }
    }
    pcol_top_free(&tw);
    pcol_top_free(&ts);
  }
  /* the call graph, as -dot draws it and as -tree prints it (text: the
   * first 5 by cum), and the label views (with sel's tagshow/taghide) */
  if (ok[0]) {
    pcol_graph_opts go[2] = {pcol_graph_opts_default(), pcol_graph_opts_default()};
    go[1].text = go[1].cum_sort = true;
    go[1].node_count = 5;
    for (int m = 0; m < 2; m++) {
      pcol_graph g;
      if (pcol_graph_compute(f, sel, &v, PCOL_BY_FUNCTION, &go[m], &g, &err)) continue;
      if (g.total != t[0].total) fz_fail("the graph's total is top's", NULL);
      if (m && g.nnodes > 5) fz_fail("the text graph keeps at most node_count nodes", NULL);
      for (size_t i = 0; !bt && i < g.nnodes; i++)
        if (fzv_abs(g.nodes[i].flat) > g.total || fzv_abs(g.nodes[i].cum) > g.total)
          fz_fail("graph nodes: |flat| and |cum| stay within the total", NULL);
      for (size_t i = 0; i < g.nedges; i++)
        if (g.edges[i].from >= g.nnodes + g.nphantom || g.edges[i].to >= g.nnodes + g.nphantom) fz_fail("graph edges join nodes", NULL);
      for (size_t i = 0; i < g.ntags; i++)
        if (m || g.tags[i].node >= g.nnodes) fz_fail("label boxes hang from -dot's nodes only", NULL);
      pcol_graph_free(&g);
      /* -mean of the graph by its own value: the divisor's build is the
       * value's, so every node is 0 or 1, and in the drawn graph every
       * call and label box too */
      go[m].mean_div = &v;
      if (pcol_graph_compute(f, sel, &v, PCOL_BY_FUNCTION, &go[m], &g, &err) == 0) {
        for (size_t i = 0; i < g.nnodes; i++)
          if (g.nodes[i].flat < 0 || g.nodes[i].flat > 1 || g.nodes[i].cum < 0 || g.nodes[i].cum > 1)
            fz_fail("-mean of a value by itself: 0 or 1 a node", NULL);
        for (size_t i = 0; !m && i < g.nedges; i++)
          if (g.edges[i].weight < 0 || g.edges[i].weight > 1) fz_fail("-mean of a value by itself: 0 or 1 a call", NULL);
        for (size_t i = 0; i < g.ntags; i++)
          if (g.tags[i].weight < 0 || g.tags[i].weight > 1 || g.tags[i].node >= g.nnodes)
            fz_fail("-mean of a value by itself: 0 or 1 a label box", NULL);
        pcol_graph_free(&g);
      }
      go[m].mean_div = NULL;
    }
    pcol_tags tg;
    if (pcol_tags_compute(f, sel, &v, &tg, &err) == 0) {
      /* top --by label on the first key: -tagroot's frame under the filters */
      char key[160];
      if (tg.nkeys && tg.keys[0].key.ptr && tg.keys[0].key.len < sizeof key &&
          !memchr(tg.keys[0].key.ptr, 0, tg.keys[0].key.len)) {
        memcpy(key, tg.keys[0].key.ptr, tg.keys[0].key.len);
        key[tg.keys[0].key.len] = 0;
        pcol_top bl;
        if (pcol_top_by_label(f, sel, &v, key, &bl, &err) == 0) pcol_top_free(&bl);
        /* --tagroot KEY --tagleaf KEY: the copy with label frames, its top
         * adds up to the same total (the frames move no value) */
        pcol_file *tf = NULL;
        if (!sel->source_id && pcol_open_tag_frames(f, key, key, NULL, &tf, &err) == 0) {
          pcol_value_sel tv;
          pcol_top a, b;
          if (pcol_value_resolve(tf, NULL, vname, &tv, &err) == 0 &&
              pcol_top_compute(tf, sel, &tv, PCOL_BY_FUNCTION, &a, &err) == 0) {
            if (pcol_top_compute(f, sel, &v, PCOL_BY_FUNCTION, &b, &err) == 0) {
              if (!pcol_select_filtered(sel) && a.total != b.total) fz_fail("label frames keep the total", NULL);
              pcol_top_free(&b);
            }
            pcol_top_free(&a);
          }
          pcol_close(tf);
        }
      }
      pcol_tags_free(&tg);
    }
    size_t ntr = 0;
    if (pcol_traces_iter(f, sel, &v, fzv_count_trace, &ntr, &err) == 0 && ntr > 66)
      fz_fail("traces stop when the callback asks", NULL);
    /* -mean's traces: the same traces, over their divisors */
    pcol_value_sel dv;
    size_t nmt = 0;
    if (pcol_mean_divisor(f, sel, &dv, &err) == 0 &&
        pcol_traces_iter_mean(f, sel, &v, &dv, fzv_count_trace, &nmt, &err) == 0 && nmt != ntr)
      fz_fail("-mean's traces are the traces", NULL);
    /* at a granularity, each frame named by top's key: no trace the
     * function names would not print (a line it names nothing is no frame) */
    size_t nfn = 0;
    if (pcol_traces_iter_by(f, sel, &v, NULL, PCOL_BY_FUNCTION, fzv_n_trace, &nfn, &err) == 0)
      for (int by = PCOL_BY_LINE; by <= PCOL_BY_FILE_FUNCTION; by++) {
        size_t nby = 0;
        if (pcol_traces_iter_by(f, sel, &v, NULL, (pcol_by)by, fzv_n_trace, &nby, &err) == 0 && nby > nfn)
          fz_fail("traces --by print no more traces than by function", NULL);
      }
  }
  pcol_ftree ft = {0};
  if (pcol_ftree_build(f, sel, &v, &ft, &err) == 0) {
    if (ok[0] && ft.total_abs != t[0].total) fz_fail("top and the frame tree sum the same total", NULL);
    for (uint32_t i = 1; i < ft.n; i++)
      if (ft.parent[i] >= i || ft.depth[i] != ft.depth[ft.parent[i]] + 1) fz_fail("frame tree shape", NULL);
    double *bs = NULL, *dl = NULL;
    if (pcol_ftree_diff(&ft, &ft, &bs, &dl, &err) == 0) {
      for (uint32_t i = 0; i < ft.n; i++)
        if (dl[i] != 0) fz_fail("a frame tree against itself changes nothing", NULL);
      free(bs);
      free(dl);
    }
    if (fold_ok) {
      char *out = NULL;
      size_t len = 0;
      FILE *m = open_memstream(&out, &len);
      if (m) {
        int rc = pcol_fold_write(f, sel, &v, NULL, m, &err);
        fclose(m);
        if (rc == 0) {
          __int128 self = 0; /* node 0's self: the empty stacks' line " N" */
          for (uint32_t i = 0; i < ft.n; i++) self += ft.self[i];
          if (fzv_fold_sum(out, len) != self) fz_fail("fold adds up to the frame tree", NULL);
        }
        free(out);
      }
    }
    pcol_ftree_free(&ft);
  }
  for (int by = 0; by < 3; by++) pcol_top_free(&t[by]);
}

/* pcol_sources_comments' values, at most 64 kept (fzv_comments) */
typedef struct fzv_strs {
  pcol_str s[64];
  size_t n;
} fzv_strs;
static inline int fzv_comment_cb(void *ctx, pcol_str v) {
  fzv_strs *c = ctx;
  if (v.len && !v.ptr) fz_fail("a comment's bytes are readable", NULL);
  c->s[c->n++] = v;
  return c->n == 64; /* stop */
}
/* the comments go's merge gives: each bytes once */
static inline void fzv_comments(pcol_file *f, const pcol_select *sel) {
  pcol_error err = {0};
  fzv_strs c = {.n = 0};
  if (pcol_sources_comments(f, sel, fzv_comment_cb, &c, &err)) return;
  for (size_t i = 0; i < c.n; i++)
    for (size_t j = 0; j < i; j++)
      if (c.s[i].len == c.s[j].len && (!c.s[i].len || !memcmp(c.s[i].ptr, c.s[j].ptr, c.s[i].len)))
        fz_fail("sources' comments: a repeat is left out", NULL);
}

/* whether fold's text could be large: samples x depth x inline frames */
static inline int fzv_fold_small(pcol_file *f) {
  pcol_error err = {0};
  uint64_t nst = pcol_rows(f, PCOL_T_STACKS), maxdepth = 0, maxlines = 1;
  pcol_view par, lof;
  if (nst >= (1u << 20)) return 0;
  if (nst && !pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &par, &err)) {
    uint32_t *depth = calloc(nst + 1, sizeof *depth);
    if (!depth) return 0;
    for (uint64_t i = 0; i < nst; i++) {
      uint32_t p = pcol_view_u32(&par, i);
      depth[i + 1] = (p <= i ? depth[p] : 0) + 1;
      if (depth[i + 1] > maxdepth) maxdepth = depth[i + 1];
    }
    free(depth);
  }
  if (!pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &lof, &err))
    for (uint64_t r = 0; r + 1 < lof.count; r++) {
      uint64_t k = pcol_view_u64(&lof, r + 1) - pcol_view_u64(&lof, r);
      if (k > maxlines) maxlines = k;
    }
  return (double)(nst + 1) * (double)(maxdepth + 1) * (double)maxlines < 200000;
}

/* validated: the second pass, after pcol_validate_full (none for a big
 * file: see big below) */
static inline void fzv_views(pcol_file *f, int validated) {
  pcol_error err = {0};
  int fold_ok = fzv_fold_small(f);
  /* values: the default, the weight, samples, rprof.alloc, and the file's
   * first and last value types by TYPE/UNIT */
  const char *names[6] = {NULL, "weight", "samples", "rprof.alloc", NULL, NULL};
  char typed[2][300];
  int nn = 4;
  pcol_view ty, un;
  uint64_t nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  if (nvt && !pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, &err) &&
      !pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, &err))
    for (int k = 0; k < 2; k++) {
      uint64_t i = k ? nvt - 1 : 0;
      pcol_str t, u;
      if (pcol_string(f, pcol_view_u32(&ty, i), &t, &err) || pcol_string(f, pcol_view_u32(&un, i), &u, &err) ||
          !t.ptr || !u.ptr || t.len > 140 || u.len > 140 || memchr(t.ptr, 0, t.len) || memchr(u.ptr, 0, u.len))
        continue;
      snprintf(typed[k], sizeof typed[k], "%.*s/%.*s", (int)t.len, t.ptr, (int)u.len, u.ptr);
      names[nn++] = typed[k];
    }
  pcol_select sels[5] = {{0}, {.source_id = 1}, {.has_from = 1, .has_to = 1, .from_ns = 1000, .to_ns = 50000000},
                         /* pprof's filters (lib/core/filter.c) on hostile tables */
                         {.focus = "[a-m]", .ignore = "z", .hide = "^[n-q]", .show = "[^x]", .tag = "k=v,w",
                          .tag_ignore = "a:b", .tag_show = "[a-k]", .tag_hide = "^z"},
                         {.show_from = "[d-k]", .hide = "^q", .no_inlines = true, .relative = true}};
  /* a real profile of thousands of samples (the packed test data) costs
   * seconds an analysis under ASan and coverage: 5 selections x 6 values x
   * ~20 views ran past -timeout=20 on a loaded machine, and so did one of
   * 480 samples, 49 stacks and 6 values at a load of 16 (the graph, ~240
   * times an input: fuzz/RESULTS.md, 2026-11-28).  Past 2048 samples and
   * stack nodes times values, the default value and the filters'
   * selection only.  Even so, the packed test-data seed
   * go-heap-delta-negative-values (4,942 samples, 6,539 stack nodes) cost
   * 13-22 s a unit at a load of 11 against -timeout=20: ~45% of it in
   * -base's 4 modes x 2 selections (each a copy of the file, its top and
   * -mean), and all of it twice, the pass after validation repeating the
   * first on the same bytes.  So a big file's -base runs 2 modes (no flag,
   * both flags: each flag on and off) on the unfiltered selection, and a
   * big file has no validated pass: what it adds (the reads that skip
   * their first-use checks) small files reach, and they take both passes
   * whole.  A third of the CPU time; `fuzz_views -runs=0` over the seed
   * corpus: cov 7251 before, 7256 after (fuzz/RESULTS.md, 2026-11-29). */
  int big = (pcol_rows(f, PCOL_T_SAMPLES) + pcol_rows(f, PCOL_T_STACKS)) * (uint64_t)(nn ? nn : 1) > 2048;
  if (big && validated) return;
  /* the header's comments (a wall-clock range reaches some sources) */
  pcol_select wall = {.wall = true, .has_from = 1, .has_to = 1, .from_ns = 1700000000000000000, .to_ns = 1700000000050000000};
  for (int s = 0; s < 3; s++) fzv_comments(f, &sels[s]);
  fzv_comments(f, &wall);
  for (int s = 0; s < 5; s++)
    for (int k = 0; k < nn; k++)
      if (!big || ((s == 0 || s == 3) && k == 0)) fzv_one_value(f, &sels[s], names[k], fold_ok && s != 1);
  /* --base/--diff-base of itself: every stack cancels, so -base's total
   * (|sum| per stack and label set) is 0 unless a value is INT64_MIN (its
   * negation saturates) */
  for (unsigned diff = 0; diff < 4; diff += big ? 3 : 1) { /* PCOL_BASE_DIFF, PCOL_BASE_NORMALIZE */
    pcol_file *u = NULL;
    pcol_error e2 = {0};
    if (pcol_open_diff_base(f, f, diff, &u, &e2)) continue;
    pcol_value_sel v, d;
    pcol_top t;
    for (int s = 0; s < (big ? 1 : 5); s += 3)
      if (pcol_value_resolve(u, NULL, NULL, &v, &e2) == 0 &&
          pcol_top_compute(u, &sels[s], &v, PCOL_BY_FUNCTION, &t, &e2) == 0) {
        for (size_t i = 0; i < t.nrows; i++)
          if (!diff && !s && t.total == 0 && t.rows[i].flat != 0) fz_fail("-base of itself: a flat", NULL);
        /* pprof -mean: the rows stay, divided; peek's calls of the
         * divisor's samples too */
        size_t nr = t.nrows;
        if (pcol_value_resolve(u, &sels[s], "0", &d, &e2) == 0 &&
            pcol_top_mean(u, &sels[s], &d, &t, 0.005, NULL, &e2) == 0) {
          if (t.nrows != nr) fz_fail("-mean changed the rows", NULL);
          pcol_top dt;
          pcol_peek pk;
          if (pcol_top_compute(u, &sels[s], &d, PCOL_BY_FUNCTION, &dt, &e2) == 0) {
            if (pcol_peek_compute_mean(&t, &dt, ".", &pk, &e2) == 0) {
              for (size_t i = 0; i < pk.nnodes; i++)
                for (size_t j = 0; j < pk.nodes[i].nout; j++)
                  if (!pk.nodes[i].out[j].callee.ptr && pk.nodes[i].out[j].callee.len)
                    fz_fail("peek -mean: a call names its callee", NULL);
              pcol_peek_free(&pk);
            }
            pcol_top_free(&dt);
          }
        }
        pcol_top_free(&t);
      }
    pcol_close(u);
  }
}

/* ------------------------------------------------------ two profiles */
/* pcol_open_readdressed(f, like): f's copy at like's addresses (pcol diff
 * --by address).  It moves no value: the copy has f's samples, and f's
 * value (resolved on f, as cmd_diff.c's readdress uses it) adds up to f's
 * total there; the copy of files that validate validates; its rows by
 * address diffed against like's (what pcol diff --by address does). */
static inline void fzv_readdressed(pcol_file *f, pcol_file *like, int validated) {
  pcol_error err = {0};
  pcol_file *u = NULL;
  int rc = pcol_open_readdressed(f, like, &u, &err);
  if (rc) {
    if (!err.message[0]) fz_fail("readdressed: a refusal explains itself", &err);
    if (u) fz_fail("readdressed: no copy on failure", NULL);
    return;
  }
  if (pcol_rows(u, PCOL_T_SAMPLES) != pcol_rows(f, PCOL_T_SAMPLES)) fz_fail("readdressed: f's samples", NULL);
  if (validated && pcol_validate_full(u, &err)) fz_fail("readdressed: the copy of a valid file validates", &err);
  pcol_value_sel v;
  pcol_top a, b, l;
  memset(&a, 0, sizeof a), memset(&b, 0, sizeof b), memset(&l, 0, sizeof l);
  if (pcol_value_resolve(f, NULL, NULL, &v, &err) == 0) {
    int oka = pcol_top_compute(f, NULL, &v, PCOL_BY_FUNCTION, &a, &err) == 0;
    int okb = pcol_top_compute(u, NULL, &v, PCOL_BY_FUNCTION, &b, &err) == 0;
    if (oka && okb && a.total != b.total) fz_fail("readdressed: the total stays", NULL);
    pcol_top_free(&a);
    pcol_top_free(&b);
    pcol_value_sel lv;
    if (pcol_top_compute(u, NULL, &v, PCOL_BY_ADDRESS, &b, &err) == 0) {
      pcol_diff d;
      if (pcol_value_resolve(like, NULL, NULL, &lv, &err) == 0 &&
          pcol_top_compute(like, NULL, &lv, PCOL_BY_ADDRESS, &l, &err) == 0) {
        for (int abs = 0; abs < 2; abs++)
          if (pcol_diff_compute(&b, &l, abs, &d, &err) == 0) pcol_diff_free(&d);
        pcol_top_free(&l);
      }
      pcol_top_free(&b);
    }
  }
  /* the views of the copy, once (the first pass), for a small one */
  if (!validated && pcol_rows(u, PCOL_T_SAMPLES) + pcol_rows(u, PCOL_T_STACKS) <= 512)
    fzv_one_value(u, &(pcol_select){0}, NULL, fzv_fold_small(u));
  pcol_close(u);
}

/* pcol_open_diff_base_select(f, base, sel, flags): a source N (0, in range,
 * past either side's count, huge) and a range (none, from or to alone,
 * reversed, empty, huge, wall-clock) of each side.  The rule of include/
 * pcol.h: a source N past either side's count is ENOTFOUND, side 0 when
 * past f's; every refusal explains itself; the union of files that
 * validate validates, and its views over the range answer. */
static inline void fzv_diff_base_sel(pcol_file *f, pcol_file *base, const pcol_select *sel, unsigned flags,
                                     int validated, int views) {
  pcol_error err = {0};
  pcol_file *u = NULL;
  int side = -1;
  int rc = pcol_open_diff_base_select(f, base, sel, flags & 7, &u, (flags & 8) ? NULL : &side, &err);
  flags &= 7;
  uint64_t nf = pcol_rows(f, PCOL_T_SOURCES), nb = pcol_rows(base, PCOL_T_SOURCES);
  uint32_t n = sel->source_id;
  if (n && (n > nf || n > nb)) {
    if (rc != PCOL_ENOTFOUND || u) fz_fail("diff base: a source N past a side's count is ENOTFOUND", &err);
    if (side != -1 && side != (n > nf ? 0 : 1)) fz_fail("diff base: the side of a source N past its count", &err);
  }
  if (rc) {
    if (!err.message[0]) fz_fail("diff base: a refusal explains itself", &err);
    if (u) fz_fail("diff base: no union on failure", NULL);
    if (side != -1 && side != 0 && side != 1) fz_fail("diff base: side is 0 or 1", NULL);
    return;
  }
  if (flags & 4) fz_fail("diff base: an unknown flag is refused", NULL);
  if (validated && pcol_validate_full(u, &err)) fz_fail("diff base: the union of valid files validates", &err);
  /* the views' selection: sel's range, no source (include/pcol.h) */
  pcol_select vs = *sel;
  vs.source_id = 0;
  pcol_value_sel v, d;
  pcol_top t;
  if (pcol_value_resolve(u, &vs, NULL, &v, &err) == 0 &&
      pcol_top_compute(u, &vs, &v, PCOL_BY_FUNCTION, &t, &err) == 0) {
    for (size_t i = 0; !fzv_base_total(u) && i < t.nrows; i++)
      if (fzv_abs(t.rows[i].flat) > t.total) fz_fail("diff base: |flat| stays within the total", NULL);
    size_t nr = t.nrows;
    if (pcol_value_resolve(u, &vs, "0", &d, &err) == 0 &&
        pcol_top_mean(u, &vs, &d, &t, 0.005, NULL, &err) == 0 && t.nrows != nr)
      fz_fail("diff base: -mean changed the rows", NULL);
    pcol_top_free(&t);
  }
  if (views && pcol_rows(u, PCOL_T_SAMPLES) + pcol_rows(u, PCOL_T_STACKS) <= 512)
    fzv_one_value(u, &vs, NULL, fzv_fold_small(u));
  pcol_close(u);
}

/* 8 bytes at p (little-endian), 0 past the end */
static inline uint64_t fzv_u64(const uint8_t *p, size_t n, size_t at) {
  uint64_t x = 0;
  for (size_t i = 0; i < 8; i++) x |= (uint64_t)(at + i < n ? p[at + i] : 0) << (8 * i);
  return x;
}

/* The selection and flags the fuzzer chose: the parameter block P (18
 * bytes read, 0 past its end) is
 *   P[0]       source N: 0..0xef as is, 0xf0..0xff UINT32_MAX - (0xff - P[0]);
 *   P[1]       bit 0 has_from, bit 1 has_to, bit 2 wall; bits 3-4 the
 *              range: 0 as P gives it, 1 reversed (to < from), 2 empty
 *              (to = from), 3 huge (INT64_MIN to INT64_MAX); bits 5-7 the
 *              flags (PCOL_BASE_DIFF, PCOL_BASE_NORMALIZE, 4: unknown);
 *   P[2..9]    from_ns, P[10..17] to_ns (little-endian); to_ns odd: the
 *              side argument NULL (flag 8 here, not passed). */
static inline void fzv_chosen(const uint8_t *p, size_t np, pcol_select *s, unsigned *flags) {
  memset(s, 0, sizeof *s);
  uint8_t n = np > 0 ? p[0] : 0, k = np > 1 ? p[1] : 0;
  s->source_id = n < 0xf0 ? n : UINT32_MAX - (uint32_t)(0xff - n);
  s->has_from = k & 1, s->has_to = (k >> 1) & 1, s->wall = (k >> 2) & 1;
  int64_t a = (int64_t)fzv_u64(p, np, 2), b = (int64_t)fzv_u64(p, np, 10);
  switch ((k >> 3) & 3) {
  case 0: s->from_ns = a, s->to_ns = b; break;
  case 1: s->from_ns = a > b ? a : b, s->to_ns = a > b ? b : a; if (s->from_ns == s->to_ns && s->to_ns > INT64_MIN) s->to_ns--; break;
  case 2: s->from_ns = s->to_ns = a; break;
  default: s->from_ns = INT64_MIN, s->to_ns = INT64_MAX; break;
  }
  *flags = (unsigned)(k >> 5); /* 0..7: PCOL_BASE_DIFF, PCOL_BASE_NORMALIZE, 4 unknown */
  if ((b & 1) && !(*flags & 4)) *flags |= 8; /* (side NULL) */
}

/* Both directions of readdressing, then -base/-diff_base of each
 * selection: the fuzzer's (P), and a fixed few: source N in range and past
 * both counts, each with a range reversed, empty and huge. */
static inline void fzv_pair(pcol_file *f, pcol_file *g, const uint8_t *p, size_t np, int validated) {
  fzv_readdressed(f, g, validated);
  fzv_readdressed(g, f, validated);
  pcol_select s;
  unsigned flags;
  fzv_chosen(p, np, &s, &flags);
  fzv_diff_base_sel(f, g, &s, flags, validated, !validated);
  int big = pcol_rows(f, PCOL_T_SAMPLES) + pcol_rows(g, PCOL_T_SAMPLES) > 2048;
  if (big) return;
  uint32_t past = (uint32_t)(pcol_rows(f, PCOL_T_SOURCES) > pcol_rows(g, PCOL_T_SOURCES)
                                 ? pcol_rows(f, PCOL_T_SOURCES) : pcol_rows(g, PCOL_T_SOURCES)) + 1;
  const pcol_select fixed[] = {
      {.source_id = 1},
      {.source_id = past},
      {.source_id = UINT32_MAX},
      {.source_id = 2, .has_from = 1, .has_to = 1, .from_ns = 50000000, .to_ns = 1000}, /* reversed */
      {.has_from = 1, .has_to = 1, .from_ns = 20000000, .to_ns = 20000000},             /* empty */
      {.source_id = 1, .has_from = 1, .has_to = 1, .from_ns = INT64_MIN, .to_ns = INT64_MAX},
      {.has_from = 1, .from_ns = INT64_MAX},
      {.has_to = 1, .wall = 1, .to_ns = 1700000000050000000},
  };
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    fzv_diff_base_sel(i & 1 ? g : f, i & 1 ? f : g, &fixed[i], (unsigned)i % 4, validated, 0);
  /* a side against itself, over the chosen range: -base cancels */
  s.source_id = s.source_id > 2 ? 1 : s.source_id;
  fzv_diff_base_sel(f, f, &s, flags & 3, validated, 0);
}

/* A pcol file of the input (its checksums made right in a copy, *mem) */
static inline pcol_file *fzv_open_part(const uint8_t *d, size_t n, uint8_t **mem) {
  *mem = NULL;
  if (n < 64 || n > (16u << 20)) return NULL;
  uint8_t *copy = malloc(n);
  if (!copy) return NULL;
  memcpy(copy, d, n);
  fz_fix_checksums(copy, n);
  pcol_open_options opt = {.max_decoded_bytes = FZ_MAX_DECODED};
  pcol_error err = {0};
  pcol_file *f = NULL;
  if (pcol_open_buffer(copy, n, &opt, &f, &err)) {
    free(copy);
    return NULL;
  }
  *mem = copy;
  return f;
}

/* An input that holds FZ_NEXT: A FZ_NEXT B [FZ_NEXT P], two pcol files and
 * the parameter block of fzv_chosen; viewed before and after both
 * validate. */
static inline int fz_views_pair(const uint8_t *data, size_t size, const uint8_t *next) {
  const uint8_t *bp = next + FZ_NEXT_LEN, *pp = NULL;
  size_t na = (size_t)(next - data), nb = size - na - FZ_NEXT_LEN, npp = 0;
  const uint8_t *n2 = fz_next_at(bp, nb);
  if (n2) {
    pp = n2 + FZ_NEXT_LEN;
    npp = nb - (size_t)(pp - bp);
    nb = (size_t)(n2 - bp);
  }
  uint8_t *ma = NULL, *mb = NULL;
  pcol_file *f = fzv_open_part(data, na, &ma), *g = f ? fzv_open_part(bp, nb, &mb) : NULL;
  if (f && g) {
    fzv_pair(f, g, pp, npp, 0);
    pcol_error err = {0};
    int va = pcol_validate_full(f, &err) == 0, vb = pcol_validate_full(g, &err) == 0;
    pcol_close(f), pcol_close(g);
    f = g = NULL;
    pcol_open_options opt = {.max_decoded_bytes = FZ_MAX_DECODED};
    if (va && vb && pcol_open_buffer(ma, na, &opt, &f, &err) == 0 && pcol_open_buffer(mb, nb, &opt, &g, &err) == 0 &&
        pcol_validate_full(f, &err) == 0 && pcol_validate_full(g, &err) == 0)
      fzv_pair(f, g, pp, npp, 1);
  }
  pcol_close(f);
  pcol_close(g);
  free(ma);
  free(mb);
  return 0;
}

/* The target: the input as a pcol file with its checksums made right,
 * viewed before and after full validation; an input of two (FZ_NEXT):
 * fz_views_pair. */
static inline int fz_views_one(const uint8_t *data, size_t size) {
  if (size > (48u << 20)) return 0;
  const uint8_t *next = fz_next_at(data, size);
  if (next) return fz_views_pair(data, size, next);
  if (size < 64 || size > (16u << 20)) return 0;
  uint8_t *copy = malloc(size);
  if (!copy) return 0;
  memcpy(copy, data, size);
  fz_fix_checksums(copy, size);
  pcol_open_options opt = {.max_decoded_bytes = FZ_MAX_DECODED};
  pcol_error err = {0};
  pcol_file *f = NULL;
  if (pcol_open_buffer(copy, size, &opt, &f, &err) == 0) {
    fzv_views(f, 0); /* first-use checks only, as commands without --full */
    pcol_close(f);
    if (pcol_open_buffer(copy, size, &opt, &f, &err) == 0) {
      if (pcol_validate_full(f, &err) == 0) fzv_views(f, 1);
      pcol_close(f);
    }
  }
  free(copy);
  return 0;
}

#endif
