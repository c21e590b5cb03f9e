/* fold.c — pcol_fold_write: collapsed stacks ("root;...;leaf value" per
 * line, sorted bytewise) from the frame tree, what `pcol fold` prints;
 * values in the unit they stand for (pcol_value_text: a count/1e-9 of
 * 1500000000 prints 1.5, as the collapsed input said).
 * Cost model: one frame tree (ftree.c), then one line per tree node with a
 * non-zero self value, built by walking up its parents (O(depth) each) into
 * one text buffer; lines are sorted through an index of
 * triples (start, key length, node), so the text is never moved, and
 * written with one fwrite each.  One line per key: two names that read the
 * same once sanitized ("a;b" and "a_b", frames.h) make two tree nodes of
 * one key, whose lines are then written as one, their values added, as
 * flamegraph.pl and the collapsed exporter add them and a SQL GROUP BY of
 * the key does (doc/clickhouse.md); that pass runs only when a name was
 * changed (or is empty: a frame "" at the top reads as the empty stack). */
#include "query.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom, pcol_write_error */
#include "buf.h"      /* pcol_buf_append, pcol_buf, pcol_buf_free */
#include "stream.h"   /* pcol_budget_hold, pcol_budget, pcol_budget_close, ... */
#include "frames.h"   /* pcol_frame_sanitize */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_lines(const void *a, const void *b, void *ctx) {
  const uint8_t *base = ((const pcol_buf *)ctx)->data;
  const uint64_t *x = a, *y = b; /* [start, len, node] triples */
  size_t n = x[1] < y[1] ? x[1] : y[1];
  int c = memcmp(base + x[0], base + y[0], n);
  if (c) return c;
  return x[1] == y[1] ? 0 : x[1] < y[1] ? -1 : 1;
}

/* n bytes at p appended to b, or err filled (the one way a buffer fails). */
static int put(pcol_buf *b, const void *p, size_t n, pcol_error *err) {
  return pcol_buf_append(b, p, n) ? pcol_error_set(err, PCOL_ENOMEM, "folding stacks: out of memory")
                                  : PCOL_OK;
}

/* Appends frame name s, sanitized for collapsed text (frames.h); *same
 * = 1 when it may now read as another name (changed, or empty). */
static int put_frame(pcol_buf *b, pcol_str s, int *same, pcol_error *err) {
  size_t at = b->len;
  PCOL_RETURN_NOT_OK(put(b, s.ptr, s.len, err));
  if (pcol_frame_sanitize((char *)b->data + at, s.len) || !s.len) *same = 1;
  return PCOL_OK;
}

/* " VALUE\n", the end of a line, into num (48 bytes): its length */
static size_t line_end(const pcol_ftree *t, pcol_sum x, char *num) {
  num[0] = ' ';
  size_t n = 1 + pcol_value_text(&t->value, x, num + 1, 46); /* 1.5, not 1500000000 */
  num[n++] = '\n';
  return n;
}

/* Writes line i of the sorted triples (its text: key, value, newline), or,
 * of a run of lines of one key (same), the key once with their values
 * added; *next: the line after it. */
static int write_line(const pcol_ftree *t, const pcol_buf *text, const uint64_t *tr, size_t nl,
                      size_t i, int same, FILE *out, size_t *next) {
  const uint8_t *p = text->data + tr[3 * i];
  size_t j = i + 1;
  while (same && j < nl && !cmp_lines(tr + 3 * i, tr + 3 * j, (void *)text)) j++;
  *next = j;
  if (j == i + 1) {
    const uint8_t *e = memchr(p, '\n', text->len - tr[3 * i]);
    return !e || fwrite(p, 1, (size_t)(e - p + 1), out) == (size_t)(e - p + 1) ? 0 : -1;
  }
  pcol_sum sum = 0;
  for (size_t k = i; k < j; k++) sum += t->self[tr[3 * k + 2]];
  if (!sum) return 0; /* (a diff's +n and -n: no line, as a node of self 0) */
  char num[48];
  size_t n = line_end(t, sum, num);
  return fwrite(p, 1, tr[3 * i + 1], out) == tr[3 * i + 1] && fwrite(num, 1, n, out) == n ? 0 : -1;
}

int pcol_fold_write(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                    const pcol_export_options *opt, FILE *out, pcol_error *err) {
  pcol_ftree t;
  PCOL_RETURN_NOT_OK(pcol_ftree_build(f, sel, v, &t, err));
  /* The lines are sorted before the first is written, so they are held:
   * the text and its index count against the output budget (a tiny file
   * whose long names repeat in every line of a deep tree could otherwise
   * hold gigabytes), and so do the bytes written. */
  pcol_budget bud;
  int brc = pcol_budget_open(&bud, f, opt, "fold", out, err);
  if (brc) {
    pcol_ftree_free(&t);
    return brc;
  }
  out = bud.fp;
  pcol_buf text = {0}, idx = {0};
  uint32_t *path = malloc(((size_t)t.n + 1) * sizeof *path);
  int rc = path ? PCOL_OK : pcol_oom(err), same = 0;
  /* node 0, the root, holds the samples with an empty stack: the line " N"
   * (as the collapsed exporter writes), so the lines add up to the total */
  for (uint32_t i = 0; !rc && i < t.n; i++) {
    if (t.self[i] == 0) continue;
    uint32_t d = 0;
    for (uint32_t x = i; x; x = t.parent[x]) path[d++] = x;
    uint64_t start = text.len;
    /* the text held is the output to be (the index is 24 B a line); each
     * frame is counted before it is copied, so a line that cannot fit is
     * refused before it is built */
    for (uint32_t k = d; !rc && k-- > 0;) {
      if ((rc = pcol_budget_hold(&bud, t.name[path[k]].len + (k ? 1 : 0), err))) break;
      rc = put_frame(&text, t.name[path[k]], &same, err);
      if (!rc && k) rc = put(&text, ";", 1, err);
    }
    uint64_t triple[3] = {start, text.len - start, i};
    if (!rc) rc = put(&idx, triple, sizeof triple, err);
    /* the value goes after the sort key */
    char num[48];
    size_t n = line_end(&t, t.self[i], num);
    if (!rc && (rc = pcol_budget_hold(&bud, (uint64_t)n, err))) break;
    if (!rc) rc = put(&text, num, n, err);
  }
  if (!rc) {
    size_t nl = idx.len / (3 * sizeof(uint64_t));
    uint64_t *tr = (uint64_t *)(void *)idx.data;
    if (nl) qsort_r(tr, nl, 3 * sizeof(uint64_t), cmp_lines, &text);
    for (size_t i = 0; i < nl;) {
      if (write_line(&t, &text, tr, nl, i, same, out, &i)) {
        rc = bud.over ? PCOL_EBUDGET : pcol_write_error(err, bud.werrno, "fold");
        break;
      }
    }
  }
  rc = pcol_budget_close(&bud, rc, err);
  free(path);
  pcol_buf_free(&text);
  pcol_buf_free(&idx);
  pcol_ftree_free(&t);
  return rc;
}
