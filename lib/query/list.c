/* list.c — pcol_list_compute: source lines annotated with flat and cum
 * weight (go tool pprof -list, report/source.go printSource; Rprof srcrefs
 * per file, summaryRprof(lines = "show")'s by.line).
 *
 * The numbers are pcol_top_compute's by line: per function (BY_LINE, the
 * key "FUNCTION FILE:LINE") or per file (BY_SOURCE_LINE, "FILE:LINE"), so a
 * line's cum counts a sample once however often the line recurs in it.  Each
 * key remembers the location_lines row it came from, which gives back the
 * function, file, line and start line.  Blocks are per function and file
 * (pprof: functions by name, their files by name), and span pprof's window
 * of the source: from the function's start line (else 5 lines before the
 * first line with samples) to 5 lines after the last (saturating: a line
 * is any int64).  Source files are found and read by srcfile.c: as pprof
 * finds them, but by default only under the search path, only regular
 * files, and only up to the window's last line. */
#include "query.h"
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "buf.h"      /* PCOL_GROW, pcol_buf_free, pcol_buf, ... */
#include "filter.h"   /* pcol_rx_compile, pcol_rx_match */

#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* What list needs of a function, found once per function (a profile has
 * 10-100x more lines than functions): its cleaned file in the arena and
 * whether the regex matches it. */
typedef struct fninfo {
  size_t off, len;
  pcol_str name, raw; /* raw: the file as the profile names it (borrowed) */
  pcol_str file;      /* cleaned, in the arena (once the arena is made) */
  int64_t start;      /* its start line (0: none) */
  int seen, match;
  uint32_t rank;      /* the order of (name, file) among the entries' functions */
} fninfo;

/* A line of the result: its row of the lines' result (flat and cum) and
 * its function (fi[fn], fn = function id + 1): 16 bytes, not the ~110 of
 * the strings and sums, for 10^5 lines made, sorted and copied. */
typedef struct entry {
  int64_t line;
  uint32_t fn, row;
} entry;

/* The entries' functions and rows. */
typedef struct ents_ctx {
  const fninfo *fi;
  const pcol_top_row *rows;
} ents_ctx;

typedef struct list_priv {
  pcol_top top;    /* owns the names */
  pcol_buf arena;  /* cleaned file names, NUL-separated; offsets until done */
  char **bufs;     /* source texts and error messages */
  size_t nbufs, bufs_cap;
  /* per block (pcol_q_list_block_starts): each entry's line and start
   * line, {line, start} pairs, for the report page's window in a range */
  int64_t **starts;
  size_t *nstarts;
} list_priv;

static int keep_buf(list_priv *p, char *b) {
  if (PCOL_GROW(p->bufs, p->nbufs, p->bufs_cap)) {
    free(b);
    return PCOL_ENOMEM;
  }
  p->bufs[p->nbufs++] = b;
  return PCOL_OK;
}

static int str_cmp(pcol_str a, pcol_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  return c ? c : a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}
/* Entries by name, file, line: the (name, file) order is the rank of the
 * function (fn_cmp, once per function), so the sort compares integers; it
 * sorts these 16-byte keys, not the entries (~100 bytes, read at random by
 * each comparison: most of the sort's time), and equal ones stay in the
 * order made, as the stable sort of the entries left them. */
typedef struct entry_key {
  uint32_t rank, i; /* i: the entry */
  int64_t line;
} entry_key;
static int entry_cmp(const void *pa, const void *pb) {
  const entry_key *a = pa, *b = pb;
  if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}
/* One bucket's keys (i rising) by line, stably: by insertion when few, by
 * counting when the lines span little more than the keys (a file's or a
 * function's lines: a source is short), else qsort. */
static int sort_bucket(entry_key *k, size_t m) {
  if (m <= 32) {
    for (size_t j = 1; j < m; j++) {
      entry_key x = k[j];
      size_t y = j;
      for (; y > 0 && k[y - 1].line > x.line; y--) k[y] = k[y - 1];
      k[y] = x;
    }
    return PCOL_OK;
  }
  int64_t lo = k[0].line, hi = k[0].line;
  for (size_t j = 1; j < m; j++) {
    if (k[j].line < lo) lo = k[j].line;
    if (k[j].line > hi) hi = k[j].line;
  }
  uint64_t span = (uint64_t)hi - (uint64_t)lo; /* (two's complement: no overflow) */
  size_t *c = NULL;
  entry_key *tmp = NULL;
  if (span <= 4 * (uint64_t)m + 1024 && (c = calloc((size_t)span + 2, sizeof *c)) &&
      (tmp = malloc(m * sizeof *tmp))) {
    for (size_t j = 0; j < m; j++) c[(uint64_t)k[j].line - (uint64_t)lo + 1]++;
    for (uint64_t v = 0; v <= span; v++) c[v + 1] += c[v];
    for (size_t j = 0; j < m; j++) tmp[c[(uint64_t)k[j].line - (uint64_t)lo]++] = k[j];
    memcpy(k, tmp, m * sizeof *k);
  } else if (span > 4 * (uint64_t)m + 1024) {
    qsort(k, m, sizeof *k, entry_cmp);
  } else {
    free(c);
    return PCOL_ENOMEM;
  }
  free(c);
  free(tmp);
  return PCOL_OK;
}

/* ek = the entries' keys in entry_cmp's order: counted into their ranks'
 * buckets in entry order (stable), then each bucket by line: linear where
 * qsort of every key was ~8% of list --by file (156k lines in 24 files).
 * at: nord + 1 zeroed counters. */
static int sort_entries(const entry *ents, const fninfo *fi, size_t n, entry_key *ek, size_t *at,
                        size_t nord) {
  for (size_t i = 0; i < n; i++) at[fi[ents[i].fn].rank + 1]++;
  for (size_t r = 0; r < nord; r++) at[r + 1] += at[r];
  for (size_t i = 0; i < n; i++) {
    uint32_t r = fi[ents[i].fn].rank;
    ek[at[r]++] = (entry_key){r, (uint32_t)i, ents[i].line};
  }
  for (size_t a = 0; a < n;) { /* at[r] is now the end of bucket r */
    size_t e = at[ek[a].rank];
    PCOL_RETURN_NOT_OK(sort_bucket(ek + a, e - a));
    a = e;
  }
  return PCOL_OK;
}

typedef struct rank_ctx {
  const fninfo *fi;  /* by function id + 1 */
  const char *arena; /* the cleaned files */
} rank_ctx;
static int fn_cmp(const void *pa, const void *pb, void *ctx) {
  const rank_ctx *rc = ctx;
  const char *arena = rc->arena;
  const fninfo *a = &rc->fi[*(const uint32_t *)pa], *b = &rc->fi[*(const uint32_t *)pb];
  int c = str_cmp(a->name, b->name);
  return c ? c : str_cmp((pcol_str){arena + a->off, a->len}, (pcol_str){arena + b->off, b->len});
}

/* lo + d, held inside int64 (line numbers are any int64 of the file) */
static int64_t sat_add(int64_t lo, int64_t d) {
  int64_t r;
  return __builtin_add_overflow(lo, d, &r) ? (d > 0 ? INT64_MAX : INT64_MIN) : r;
}

/* One block: the window of the source, or the lines with samples when the
 * source cannot be read (error set). */
static int make_block(list_priv *p, const entry *e, size_t n, const ents_ctx *ec,
                      const pcol_list_options *o, pcol_list_block *b, size_t bi, pcol_error *err) {
  const fninfo *fi = ec->fi;
  const pcol_top_row *rows = ec->rows;
  if (!(p->starts[bi] = malloc(2 * n * sizeof **p->starts))) return pcol_oom(err);
  for (size_t i = 0; i < n; i++) {
    p->starts[bi][2 * i] = e[i].line;
    p->starts[bi][2 * i + 1] = fi[e[i].fn].start;
  }
  p->nstarts[bi] = n;
  b->name = fi[e[0].fn].name;
  b->file = fi[e[0].fn].file;
  b->profile_file = fi[e[0].fn].raw;
  int64_t start = INT64_MAX, end = INT64_MIN;
  for (size_t i = 0; i < n; i++) {
    b->flat += rows[e[i].row].flat;
    b->cum += rows[e[i].row].cum;
    int64_t s = fi[e[i].fn].start > 0 ? fi[e[i].fn].start : sat_add(e[i].line, -5);
    if (s < start) start = s;
    if (sat_add(e[i].line, 5) > end) end = sat_add(e[i].line, 5);
  }
  if (start < 1) start = 1;
  if (start > end) return PCOL_OK; /* a start line after the lines: pprof reads nothing */
  char *path = malloc(b->file.len + 1), *msg = NULL, *text = NULL;
  if (!path) return pcol_oom(err);
  memcpy(path, b->file.ptr, b->file.len);
  path[b->file.len] = 0;
  size_t tlen = 0;
  int rc = pcol_q_source_read(path, o->source_path, o->allow_any_source, end, &text, &tlen, &msg, &b->refused);
  free(path);
  if (rc) return pcol_oom(err);
  if (msg) {
    if (keep_buf(p, msg)) return pcol_oom(err);
    b->error = msg;
  } else if (keep_buf(p, text)) {
    return pcol_oom(err);
  }
  if (!text) { /* only the lines with samples */
    b->lines = calloc(n ? n : 1, sizeof *b->lines);
    if (!b->lines) return pcol_oom(err);
    for (size_t i = 0; i < n; i++) {
      pcol_list_line *l = &b->lines[b->nlines];
      if (b->nlines && l[-1].line == e[i].line) {
        l[-1].flat += rows[e[i].row].flat;
        l[-1].cum += rows[e[i].row].cum;
        continue;
      }
      l->line = e[i].line;
      l->flat = rows[e[i].row].flat;
      l->cum = rows[e[i].row].cum;
      b->nlines++;
    }
    return PCOL_OK;
  }
  /* the window, line by line (bufio.Scanner: a trailing \r is dropped);
   * entries for the lines the text has, not the window's declared size */
  const char *q = text, *qe = text + tlen;
  size_t cap = 0;
  for (int64_t ln = 1; q < qe && ln <= end; ln++) {
    const char *nl = memchr(q, '\n', (size_t)(qe - q));
    cap += ln >= start;
    q = nl ? nl + 1 : qe;
  }
  if (!cap) return PCOL_OK;
  b->lines = calloc(cap, sizeof *b->lines);
  if (!b->lines) return pcol_oom(err);
  q = text;
  int64_t ln = 1;
  size_t k = 0; /* next entry */
  while (q < qe && ln <= end && b->nlines < cap) {
    const char *nl = memchr(q, '\n', (size_t)(qe - q));
    const char *le = nl ? nl : qe;
    size_t len = (size_t)(le - q);
    if (len && q[len - 1] == '\r') len--;
    if (ln >= start) {
      pcol_list_line *l = &b->lines[b->nlines++];
      l->line = ln;
      l->text.ptr = q;
      l->text.len = len;
      while (k < n && e[k].line < ln) k++;
      for (; k < n && e[k].line == ln; k++) {
        l->flat += rows[e[k].row].flat;
        l->cum += rows[e[k].row].cum;
      }
    }
    q = nl ? nl + 1 : qe;
    ln++;
  }
  return PCOL_OK;
}

int pcol_list_compute(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_by by,
                      const char *regex, const pcol_list_options *opt, pcol_list *out,
                      pcol_error *err) {
  memset(out, 0, sizeof *out);
  pcol_list_options o = {0};
  if (opt) o = *opt;
  const char *source_path = o.source_path;
  if (by != PCOL_BY_LINE && by != PCOL_BY_SOURCE_LINE)
    return pcol_error_set(err, PCOL_EINVAL, "list is by function (line) or by file (source line)");
  pcol_rx rx;
  PCOL_RETURN_NOT_OK(pcol_rx_compile(&rx, "list", regex ? regex : "", err));
  list_priv *p = calloc(1, sizeof *p);
  entry *ents = NULL;
  size_t nents = 0;
  char *buf = NULL, cwd[4096];
  size_t cap = 0;
  pcol_view start_col;
  pcol_q_fctx fc;
  memset(&fc, 0, sizeof fc);
  int rc = p ? PCOL_OK : pcol_oom(err);
  /* rows by key, no names; pprof's -list nodes keep a line of one binary
   * apart from the same line of another (ObjNames), which only
   * -drop_negative can tell: it drops each node below 0 on its own */
  if (!rc) rc = o.drop_negative ? pcol_q_top_unnamed_obj(f, sel, v, by, &p->top, err)
                                : pcol_q_top_unnamed(f, sel, v, by, &p->top, err);
  if (!rc) rc = pcol_q_fctx_init(&fc, f, err);
  pcol_nameless_rule rule = {0}; /* (frames.h) */
  if (!rc) rc = pcol_nameless_rule_make(f, sel, &rule, err);
  if (!rc) rc = pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE, &start_col, err);
  if (!rc && !source_path) source_path = getcwd(cwd, sizeof cwd) ? cwd : ".";
  o.source_path = source_path;
  if (!rc && !(ents = calloc(p->top.nrows ? p->top.nrows : 1, sizeof *ents))) rc = pcol_oom(err);
  fninfo *fi = NULL;
  uint32_t *ord = NULL; /* the entries' functions, to rank */
  size_t nord = 0, ord_cap = 0;
  if (!rc && !(fi = calloc(fc.nfn + 2, sizeof *fi))) rc = pcol_oom(err);
  for (size_t i = 0; !rc && i < p->top.nrows; i++) {
    const pcol_top_row *r = &p->top.rows[i];
    if (o.drop_negative && pcol_q_negative(r->flat, r->cum)) continue;
    uint64_t li = pcol_q_top_key_line(&p->top, r->key);
    if (li == UINT64_MAX) continue; /* not a line */
    uint32_t fn = pcol_view_u32(&fc.ln_fn, li);
    if (fn > fc.nfn) fn = 0; /* no function, as pcol_q_fn_string reads it */
    fninfo *x = &fi[fn + 1];
    if (!x->seen) {
      pcol_str file;
      x->seen = 1;
      if ((rc = pcol_q_fn_string(&fc, fn, &fc.fn_name, &x->name, err))) break;
      if ((rc = pcol_q_fn_string(&fc, fn, &fc.fn_file, &file, err))) break;
      x->raw = file;
      /* a function of no name whose lines are frames (pprof's; THE nameless
       * rule, frames.h) is go's node of Name "": listed under "", as go
       * -list prints it; an Rprof top-level ref (a place) per file only */
      if (!x->name.ptr && fn && by == PCOL_BY_LINE &&
          pcol_nameless_frames_at(&rule, pcol_frames_line_location(&fc.fr, li)))
        x->name = (pcol_str){"", 0};
      if (by == PCOL_BY_SOURCE_LINE) x->name = (pcol_str){NULL, 0}; /* every function's lines */
      x->off = p->arena.len;
      if (file.ptr && file.len) {
        /* pprof shows the path trimmed by -source_path's heuristic too */
        char *tmp = malloc(file.len + 1);
        if (!tmp) {
          rc = pcol_oom(err);
          break;
        }
        memcpy(tmp, file.ptr, file.len);
        tmp[file.len] = 0;
        const char *t = source_path == cwd ? tmp : pcol_q_trim_path(tmp, source_path);
        pcol_str ts = {t, strlen(t)};
        int bad = pcol_q_clean_path(ts, &p->arena);
        free(tmp);
        if (bad) {
          rc = pcol_oom(err);
          break;
        }
      }
      x->len = p->arena.len - x->off;
      if (pcol_buf_append(&p->arena, "", 1)) {
        rc = pcol_oom(err);
        break;
      }
      pcol_str fs = {(const char *)p->arena.data + x->off, x->len};
      /* top-level code (no name) is listed per file only */
      x->match = by == PCOL_BY_LINE && !x->name.ptr
                     ? 0
                     : pcol_rx_match(&rx, &buf, &cap, by == PCOL_BY_LINE ? x->name : fs);
      if (x->match < 0) rc = pcol_oom(err);
      if (x->match > 0 && PCOL_GROW(ord, nord, ord_cap)) rc = pcol_oom(err);
      if (!rc && x->match > 0) ord[nord++] = fn + 1;
      x->start = fn && fn <= fc.nfn ? pcol_view_i64(&start_col, fn - 1) : 0;
      if (x->start == PCOL_NA_I64) x->start = 0;
    }
    if (x->match <= 0) continue;
    entry e = {pcol_view_i64(&fc.ln_line, li), fn + 1, (uint32_t)i}; /* (rows < 2^31: keys) */
    if (e.line == PCOL_NA_I64) e.line = 0;
    ents[nents++] = e;
  }
  if (!rc && nord) { /* rank the functions by (name, file); equal pairs share a rank */
    rank_ctx rk = {fi, (const char *)p->arena.data};
    qsort_r(ord, nord, sizeof *ord, fn_cmp, &rk);
    for (size_t i = 0; i < nord; i++)
      fi[ord[i]].rank = i && !fn_cmp(&ord[i - 1], &ord[i], &rk) ? fi[ord[i - 1]].rank : (uint32_t)i;
  }
  for (size_t i = 0; !rc && fi && i < nord; i++) {
    fninfo *x = &fi[ord[i]];
    x->file = (pcol_str){(const char *)p->arena.data + x->off, x->len};
  }
  free(ord);
  if (!rc && nents) {
    entry_key *ek = malloc(nents * sizeof *ek); /* (nents < 2^31: top's keys) */
    entry *sorted = malloc(nents * sizeof *sorted);
    size_t *at = calloc((size_t)nord + 1, sizeof *at); /* (ranks < nord) */
    if (ek && sorted && at && !sort_entries(ents, fi, nents, ek, at, nord)) {
      for (size_t i = 0; i < nents; i++) sorted[i] = ents[ek[i].i];
      free(ents);
      ents = sorted;
      sorted = NULL;
    } else {
      rc = pcol_oom(err);
    }
    free(ek);
    free(sorted);
    free(at);
  }
  if (!rc && nents) {
    out->blocks = calloc(nents, sizeof *out->blocks);
    p->starts = calloc(nents, sizeof *p->starts);
    p->nstarts = calloc(nents, sizeof *p->nstarts);
    if (!out->blocks || !p->starts || !p->nstarts) rc = pcol_oom(err);
  }
  ents_ctx ec = {fi, p ? p->top.rows : NULL};
#define ENAME(i) (fi[ents[i].fn].name)
#define EFILE(i) (fi[ents[i].fn].file)
#define ERANK(i) (fi[ents[i].fn].rank) /* (one rank: one name and file) */
  for (size_t i = 0; !rc && i < nents;) {
    size_t j = i; /* one function (by file: one file) */
    while (j < nents && (ERANK(j) == ERANK(i) || (!str_cmp(ENAME(j), ENAME(i)) &&
                                                 (by == PCOL_BY_LINE || !str_cmp(EFILE(j), EFILE(i))))))
      j++;
    int any_file = 0;
    for (size_t x = i; x < j; x++) any_file |= EFILE(x).len > 0;
    if (!any_file) { /* pprof: "No source information for NAME" */
      out->blocks[out->nblocks].name = ENAME(i);
      out->blocks[out->nblocks++].file = (pcol_str){NULL, 0};
    }
    for (size_t x = i; any_file && x < j && !rc;) {
      size_t y = x;
      while (y < j && (ERANK(y) == ERANK(x) || !str_cmp(EFILE(y), EFILE(x)))) y++;
      if (EFILE(x).len) {
        size_t bi = out->nblocks++;
        rc = make_block(p, ents + x, y - x, &ec, &o, &out->blocks[bi], bi, err);
      }
      x = y;
    }
    i = j;
  }
#undef ENAME
#undef EFILE
#undef ERANK
  free(fi);
  if (!rc && by == PCOL_BY_SOURCE_LINE && out->nblocks && !o.drop_negative) {
    /* a file's cum counts a sample once, as top --by file does: the sum of
     * its lines' cums counts a sample once per line of the file on its
     * stack (a line calling a function of the same file: 240 % of the
     * total on a Go profile) */
    pcol_top ft;
    pcol_buf clean = {0}; /* top names a file by its cleaned path (pcol_q_clean_path) */
    rc = pcol_q_top_regroup(&p->top, f, sel, PCOL_BY_FILE, &ft, err); /* (the samples read once) */
    int made = !rc;
    for (size_t i = 0; !rc && i < out->nblocks; i++) {
      pcol_list_block *b = &out->blocks[i];
      clean.len = 0;
      if (b->file.ptr && pcol_q_clean_path(b->profile_file, &clean)) rc = pcol_oom(err);
      pcol_str cf = {(const char *)clean.data, clean.len};
      for (size_t j = 0; !rc && b->file.ptr && j < ft.nrows; j++)
        if (!str_cmp(ft.rows[j].name, cf)) {
          b->cum = ft.rows[j].cum;
          break;
        }
    }
    pcol_buf_free(&clean);
    if (made) pcol_top_free(&ft);
  }
  out->total = p ? p->top.total : 0;
  out->value = *v;
  pcol_rx_free(&rx);
  free(buf);
  free(ents);
  pcol_buf_free(&fc.scratch);
  pcol_nameless_rule_free(&rule);
  out->priv_ = p;
  if (rc) pcol_list_free(out);
  return rc;
}

void pcol_list_free(pcol_list *l) {
  if (!l) return;
  for (size_t i = 0; i < l->nblocks; i++) free(l->blocks[i].lines);
  free(l->blocks);
  list_priv *p = l->priv_;
  if (p) {
    pcol_top_free(&p->top);
    pcol_buf_free(&p->arena);
    for (size_t i = 0; i < p->nbufs; i++) free(p->bufs[i]);
    free(p->bufs);
    for (size_t i = 0; p->starts && i < l->nblocks; i++) free(p->starts[i]);
    free(p->starts);
    free(p->nstarts);
    free(p);
  }
  memset(l, 0, sizeof *l);
}

/* The entries of block b as {line, start} pairs (start: the function's
 * start line, 0 when unknown), in line order: what make_block's window is
 * made of, for the report page, which makes it again for a range. */
size_t pcol_q_list_block_starts(const pcol_list *l, size_t b, const int64_t **pairs) {
  const list_priv *p = l->priv_;
  *pairs = NULL;
  if (!p || !p->starts || b >= l->nblocks) return 0;
  *pairs = p->starts[b];
  return p->nstarts[b];
}
