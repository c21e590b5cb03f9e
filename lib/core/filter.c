/* filter.c — go tool pprof's sample filters (focus, ignore, hide, show,
 * tagfocus, tagignore; profile/filter.go and driver/driver_focus.go), on
 * pcol's tables.  The regular expressions are POSIX EREs (regex.h).
 *
 * Cost model: each regex runs once per function (name and file), once per
 * mapping file and once per label row; then one pass over locations, one
 * over stack nodes (parents come first, so a node's state is its parent's
 * plus its location's) and one over label sets.  A sample is then kept or
 * dropped by two array reads (its stack node and its label set).
 *
 * pprof's rules, in order: a location is "ignored" when it matches ignore,
 * else "focused" when there is no focus or it matches focus; a sample is
 * kept when one of its locations is focused and none is ignored (so a
 * sample without locations is dropped).  hide then removes the matching
 * lines of each location (all of them when its mapping file matches), show
 * keeps the matching lines and the lines without a function (all when the
 * mapping matches); a location left without lines is hidden, and a sample
 * whose every location is hidden is dropped.  Label filters come after. */
#include "internal.h"
#include <regex.h>

enum { RX_FOCUS, RX_IGNORE, RX_HIDE, RX_SHOW, RX_N };
enum { ST_NONE = 0, ST_FOCUS = 1, ST_IGNORE = 2 };

int pcol_select_filtered(const pcol_select *sel) {
  return sel && (sel->focus || sel->ignore || sel->hide || sel->show || sel->tag ||
                 sel->tag_ignore);
}

typedef struct rx_set {
  regex_t rx[RX_N];
  int have[RX_N];
  char *buf; /* a NUL-terminated copy of the string being matched */
  size_t cap;
} rx_set;

int pcol_rx_compile(regex_t *rx, const char *what, const char *re, pcol_error *err) {
  int e = regcomp(rx, re, REG_EXTENDED | REG_NOSUB);
  if (e) {
    char m[160];
    regerror(e, rx, m, sizeof m);
    return pcol_error_set(err, PCOL_EINVAL, "%s: bad regular expression '%.200s': %s", what, re, m);
  }
  return PCOL_OK;
}

/* regexec on a byte string (NA = ""), which is not NUL-terminated in the file */
int pcol_rx_match(const regex_t *rx, char **buf, size_t *cap, pcol_str s) {
  size_t n = s.ptr ? s.len : 0;
  if (n + 1 > *cap) {
    size_t c = (n + 1) * 2;
    char *b = realloc(*buf, c);
    if (!b) return -1;
    *buf = b;
    *cap = c;
  }
  if (n) memcpy(*buf, s.ptr, n);
  (*buf)[n] = 0;
  return regexec(rx, *buf, 0, NULL, 0) == 0;
}

/* Bits (1 << RX_*) of the regexes that match string id sid of the file. */
static int rx_bits(pcol_file *f, rx_set *x, uint32_t sid, uint8_t *bits, pcol_error *err) {
  pcol_str s;
  PCOL_RETURN_NOT_OK(pcol_string(f, sid, &s, err));
  *bits = 0;
  for (int r = 0; r < RX_N; r++) {
    if (!x->have[r]) continue;
    int m = pcol_rx_match(&x->rx[r], &x->buf, &x->cap, s);
    if (m < 0) return pcol_oom(err);
    if (m) *bits |= (uint8_t)(1u << r);
  }
  return PCOL_OK;
}

/* Per function (1-based; 0 = none): the regexes its name or file matches;
 * per mapping likewise for its file. */
static int name_bits(pcol_file *f, rx_set *x, uint8_t **fnb, uint8_t **mapb, pcol_error *err) {
  uint64_t nfn = pcol_rows(f, PCOL_T_FUNCTIONS), nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  pcol_view fname, ffile, mfile;
  pcol_column_req req[] = {{&fname, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME},
                           {&ffile, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME},
                           {&mfile, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  *fnb = calloc(nfn + 1, 1);
  *mapb = calloc(nmap + 1, 1);
  if (!*fnb || !*mapb) return pcol_oom(err);
  for (uint64_t i = 0; i < nfn; i++) {
    uint8_t a, b;
    PCOL_RETURN_NOT_OK(rx_bits(f, x, pcol_view_u32(&fname, i), &a, err));
    PCOL_RETURN_NOT_OK(rx_bits(f, x, pcol_view_u32(&ffile, i), &b, err));
    (*fnb)[i + 1] = a | b;
  }
  for (uint64_t i = 0; i < nmap; i++)
    PCOL_RETURN_NOT_OK(rx_bits(f, x, pcol_view_u32(&mfile, i), &(*mapb)[i + 1], err));
  return PCOL_OK;
}

/* Location states (focus/ignore), hidden lines and hidden locations. */
static int name_filters(pcol_file *f, const pcol_select *sel, pcol_filter *out, pcol_error *err) {
  rx_set x;
  memset(&x, 0, sizeof x);
  const char *res[RX_N] = {sel->focus, sel->ignore, sel->hide, sel->show};
  static const char *const what[RX_N] = {"focus", "ignore", "hide", "show"};
  uint8_t *fnb = NULL, *mapb = NULL, *lst = NULL;
  int rc = PCOL_OK;
  for (int r = 0; r < RX_N && !rc; r++)
    if (res[r]) {
      rc = pcol_rx_compile(&x.rx[r], what[r], res[r], err);
      x.have[r] = !rc;
    }
  if (!rc) rc = name_bits(f, &x, &fnb, &mapb, err);
  uint64_t nloc = pcol_rows(f, PCOL_T_LOCATIONS), nlines = pcol_rows(f, PCOL_T_LINES);
  uint64_t ns = pcol_rows(f, PCOL_T_STACKS), nfn = pcol_rows(f, PCOL_T_FUNCTIONS);
  uint64_t nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  pcol_view loff, lmap, lfn, spar, sloc;
  pcol_column_req req[] = {{&loff, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS},
                           {&lmap, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING},
                           {&lfn, PCOL_T_LINES, PCOL_C_LINE_FUNCTION},
                           {&spar, PCOL_T_STACKS, PCOL_C_STACK_PARENT},
                           {&sloc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION}};
  if (!rc) rc = pcol_columns(f, req, PCOL_NCOLS(req), err);
  int hiding = x.have[RX_HIDE] || x.have[RX_SHOW];
  if (!rc) {
    lst = calloc(nloc + 1, 1);
    out->node_keep = calloc(ns + 1, 1);
    if (hiding) {
      out->line_hidden = calloc(nlines ? nlines : 1, 1);
      out->loc_hidden = calloc(nloc + 1, 1);
    }
    if (!lst || !out->node_keep || (hiding && (!out->line_hidden || !out->loc_hidden)))
      rc = pcol_oom(err);
  }
  for (uint64_t loc = 1; !rc && loc <= nloc; loc++) {
    uint64_t a = pcol_view_u64(&loff, loc - 1), e = pcol_view_u64(&loff, loc);
    if (e > nlines) e = nlines;
    if (a > e) a = e;
    uint32_t m = pcol_view_u32(&lmap, loc - 1);
    uint8_t mb = m && m <= nmap ? mapb[m] : 0, any = mb;
    for (uint64_t li = a; li < e; li++) {
      uint32_t fn = pcol_view_u32(&lfn, li);
      if (fn && fn <= nfn) any |= fnb[fn];
    }
    if (x.have[RX_IGNORE] && (any & (1u << RX_IGNORE))) {
      lst[loc] = ST_IGNORE;
      out->matched |= 1u << RX_IGNORE;
    } else if (!x.have[RX_FOCUS] || (any & (1u << RX_FOCUS))) {
      lst[loc] = ST_FOCUS;
      out->matched |= 1u << RX_FOCUS;
    }
    if (!hiding) continue;
    uint64_t left = e - a;
    if (x.have[RX_HIDE] && (any & (1u << RX_HIDE))) {
      out->matched |= 1u << RX_HIDE;
      for (uint64_t li = a; li < e; li++) {
        uint32_t fn = pcol_view_u32(&lfn, li);
        int hit = (mb & (1u << RX_HIDE)) || (fn && fn <= nfn && (fnb[fn] & (1u << RX_HIDE)));
        if (hit) {
          out->line_hidden[li] = 1;
          left--;
        }
      }
      if (left == 0) out->loc_hidden[loc] = 1;
    }
    if (x.have[RX_SHOW] && !out->loc_hidden[loc]) {
      if (!(mb & (1u << RX_SHOW)))
        for (uint64_t li = a; li < e; li++) {
          uint32_t fn = pcol_view_u32(&lfn, li);
          if (out->line_hidden[li] || !fn || fn > nfn || (fnb[fn] & (1u << RX_SHOW))) continue;
          out->line_hidden[li] = 1;
          left--;
        }
      if (left == 0) out->loc_hidden[loc] = 1;
      else out->matched |= 1u << RX_SHOW;
    }
  }
  /* stack nodes: parents precede children (checked by pcol_column) */
  if (!rc) {
    uint8_t *st = malloc(ns + 1);
    if (!st) rc = pcol_oom(err);
    for (uint64_t n = 1; !rc && n <= ns; n++) {
      uint32_t p = pcol_view_u32(&spar, n - 1), loc = pcol_view_u32(&sloc, n - 1);
      if (p >= n || loc > nloc) {
        rc = pcol_error_set(err, PCOL_ECORRUPT, "stack node %llu has a bad parent or location",
                            (unsigned long long)n);
        break;
      }
      /* state bits: ST_FOCUS, ST_IGNORE; 4 = some location visible */
      uint8_t ps = p ? st[p] : 0, ls = lst[loc];
      uint8_t s = (uint8_t)((ps | ls) & 3);
      if (!hiding || (p && (ps & 4)) || !out->loc_hidden[loc]) s |= 4;
      st[n] = s;
      out->node_keep[n] = (s & 3) == ST_FOCUS && (s & 4);
    }
    free(st);
  }
  for (int r = 0; r < RX_N; r++)
    if (x.have[r]) regfree(&x.rx[r]);
  free(x.buf);
  free(fnb);
  free(mapb);
  free(lst);
  return rc;
}

/* ---------------------------------------------------------------- labels */
typedef struct tag_filter {
  pcol_str key; /* {NULL,0}: match "key:value" */
  regex_t *rx;
  int n;
} tag_filter;

static void tag_free(tag_filter *t) {
  for (int i = 0; i < t->n; i++) regfree(&t->rx[i]);
  free(t->rx);
  memset(t, 0, sizeof *t);
}

static int tag_compile(const char *what, const char *spec, tag_filter *t, pcol_error *err) {
  memset(t, 0, sizeof *t);
  const char *eq = strchr(spec, '='), *vals = spec;
  if (eq) {
    t->key.ptr = spec;
    t->key.len = (size_t)(eq - spec);
    vals = eq + 1;
  }
  int cap = 1;
  for (const char *p = vals; *p; p++) cap += *p == ',';
  t->rx = calloc((size_t)cap, sizeof *t->rx);
  if (!t->rx) return pcol_oom(err);
  const char *p = vals;
  for (;;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    char *one = malloc(len + 1);
    if (!one) return pcol_oom(err);
    memcpy(one, p, len);
    one[len] = 0;
    int rc = pcol_rx_compile(&t->rx[t->n], what, one, err);
    free(one);
    if (rc) return rc;
    t->n++;
    if (!c) break;
    p = c + 1;
  }
  return PCOL_OK;
}

/* Does label set `ls` pass t (pprof's compileTagFilter)? */
static int tag_match(pcol_file *f, const tag_filter *t, const pcol_view *lsoff, const pcol_view *lkey,
                     const pcol_view *lstr, uint64_t nlabels, uint32_t ls, char **buf, size_t *cap,
                     int *out, pcol_error *err) {
  *out = 0;
  uint64_t a = 0, e = 0;
  if (ls) {
    a = pcol_view_u64(lsoff, ls - 1);
    e = pcol_view_u64(lsoff, ls);
    if (e > nlabels) e = nlabels;
    if (a > e) a = e;
  }
  uint64_t seen = 0; /* key:value mode: which regexes matched (first 64) */
  for (uint64_t i = a; i < e; i++) {
    uint32_t vs = pcol_view_u32(lstr, i);
    if (!vs) continue; /* a numeric label */
    pcol_str k, v;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(lkey, i), &k, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, vs, &v, err));
    if (t->key.ptr) {
      if (!k.ptr || k.len != t->key.len || memcmp(k.ptr, t->key.ptr, k.len)) continue;
      for (int r = 0; r < t->n; r++) {
        int m = pcol_rx_match(&t->rx[r], buf, cap, v);
        if (m < 0) return pcol_oom(err);
        if (m) {
          *out = 1;
          return PCOL_OK;
        }
      }
    } else {
      char tmp[1024];
      int n = snprintf(tmp, sizeof tmp, "%.*s:%.*s", (int)(k.len > 500 ? 500 : k.len),
                       k.ptr ? k.ptr : "", (int)(v.len > 500 ? 500 : v.len), v.ptr ? v.ptr : "");
      pcol_str kv = {tmp, (size_t)n};
      for (int r = 0; r < t->n && r < 64; r++) {
        int m = pcol_rx_match(&t->rx[r], buf, cap, kv);
        if (m < 0) return pcol_oom(err);
        if (m) seen |= UINT64_C(1) << r;
      }
    }
  }
  if (!t->key.ptr) {
    int n = t->n < 64 ? t->n : 64;
    *out = seen == (n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1);
  }
  return PCOL_OK;
}

static int tag_filters(pcol_file *f, const pcol_select *sel, pcol_filter *out, pcol_error *err) {
  tag_filter tf = {0}, ti = {0};
  char *buf = NULL;
  size_t cap = 0;
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS), nlabels = pcol_rows(f, PCOL_T_LABELS);
  pcol_view lsoff, lkey, lstr;
  pcol_column_req req[] = {{&lsoff, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
                           {&lkey, PCOL_T_LABELS, PCOL_C_LB_KEY},
                           {&lstr, PCOL_T_LABELS, PCOL_C_LB_STR}};
  int rc = pcol_columns(f, req, PCOL_NCOLS(req), err);
  if (!rc && sel->tag) rc = tag_compile("tag", sel->tag, &tf, err);
  if (!rc && sel->tag_ignore) rc = tag_compile("tag-ignore", sel->tag_ignore, &ti, err);
  if (!rc && !(out->ls_keep = calloc(nls + 1, 1))) rc = pcol_oom(err);
  for (uint64_t ls = 0; !rc && ls <= nls; ls++) {
    int keep = 1, ign = 0;
    if (sel->tag)
      rc = tag_match(f, &tf, &lsoff, &lkey, &lstr, nlabels, (uint32_t)ls, &buf, &cap, &keep, err);
    if (!rc && sel->tag_ignore)
      rc = tag_match(f, &ti, &lsoff, &lkey, &lstr, nlabels, (uint32_t)ls, &buf, &cap, &ign, err);
    out->ls_keep[ls] = keep && !ign;
  }
  tag_free(&tf);
  tag_free(&ti);
  free(buf);
  return rc;
}

int pcol_filter_build(pcol_file *f, const pcol_select *sel, pcol_filter *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  if (!pcol_select_filtered(sel)) return PCOL_OK;
  int rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &out->s_stack, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &out->s_labelset, err);
  out->nstacks = pcol_rows(f, PCOL_T_STACKS);
  out->nlabelsets = pcol_rows(f, PCOL_T_LABELSETS);
  if (!rc && (sel->focus || sel->ignore || sel->hide || sel->show))
    rc = name_filters(f, sel, out, err);
  if (!rc && (sel->tag || sel->tag_ignore)) rc = tag_filters(f, sel, out, err);
  if (rc) {
    pcol_filter_free(out);
    return rc;
  }
  out->active = 1;
  return PCOL_OK;
}

int pcol_filter_keep(const pcol_filter *x, uint64_t row) {
  if (!x || !x->active) return 1;
  if (x->node_keep) {
    uint32_t s = pcol_view_u32(&x->s_stack, row);
    if (s > x->nstacks || !x->node_keep[s]) return 0;
  }
  if (x->ls_keep) {
    uint32_t ls = pcol_view_u32(&x->s_labelset, row);
    if (ls > x->nlabelsets || !x->ls_keep[ls]) return 0;
  }
  return 1;
}

void pcol_filter_free(pcol_filter *x) {
  free(x->node_keep);
  free(x->line_hidden);
  free(x->loc_hidden);
  free(x->ls_keep);
  memset(x, 0, sizeof *x);
}
