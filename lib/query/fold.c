/* fold.c — pcol_fold_write: collapsed stacks ("root;...;leaf value" per
 * line, sorted bytewise) from the frame tree, what `pcol fold` prints;
 * values in the unit they stand for (pcol_value_text: a count/1e-9 of
 * 1500000000 prints 1.5, as the collapsed input said).
 * Cost model: one frame tree (ftree.c), then one line per tree node with a
 * non-zero self value, built by walking up its parents (O(depth) each) into
 * one text buffer; lines are sorted through an index of (start, length)
 * pairs, so the text is never moved, and written with one fwrite each. */
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
  const uint64_t *x = a, *y = b; /* [start, len] pairs */
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

/* Appends frame name s, sanitized for collapsed text (frames.h). */
static int put_frame(pcol_buf *b, pcol_str s, pcol_error *err) {
  size_t at = b->len;
  PCOL_RETURN_NOT_OK(put(b, s.ptr, s.len, err));
  pcol_frame_sanitize((char *)b->data + at, s.len);
  return PCOL_OK;
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
  int rc = path ? PCOL_OK : pcol_oom(err);
  /* node 0, the root, holds the samples with an empty stack: the line " N"
   * (as the collapsed exporter writes), so the lines add up to the total */
  for (uint32_t i = 0; !rc && i < t.n; i++) {
    if (t.self[i] == 0) continue;
    uint32_t d = 0;
    for (uint32_t x = i; x; x = t.parent[x]) path[d++] = x;
    uint64_t start = text.len;
    /* the text held is the output to be (the index is 16 B a line); each
     * frame is counted before it is copied, so a line that cannot fit is
     * refused before it is built */
    for (uint32_t k = d; !rc && k-- > 0;) {
      if ((rc = pcol_budget_hold(&bud, t.name[path[k]].len + (k ? 1 : 0), err))) break;
      rc = put_frame(&text, t.name[path[k]], err);
      if (!rc && k) rc = put(&text, ";", 1, err);
    }
    uint64_t pair[2] = {start, text.len - start};
    if (!rc) rc = put(&idx, pair, sizeof pair, err);
    /* the value goes after the sort key */
    char num[48];
    num[0] = ' ';
    int n = 1 + pcol_value_text(&t.value, t.self[i], num + 1, sizeof num - 2); /* 1.5, not 1500000000 */
    num[n++] = '\n';
    if (!rc && (rc = pcol_budget_hold(&bud, (uint64_t)n, err))) break;
    if (!rc) rc = put(&text, num, (size_t)n, err);
  }
  if (!rc) {
    size_t nl = idx.len / (2 * sizeof(uint64_t));
    uint64_t *pairs = (uint64_t *)(void *)idx.data;
    if (nl) qsort_r(pairs, nl, 2 * sizeof(uint64_t), cmp_lines, &text);
    for (size_t i = 0; i < nl; i++) {
      const uint8_t *p = text.data + pairs[2 * i];
      const uint8_t *e = memchr(p, '\n', text.len - pairs[2 * i]);
      if (!e) continue;
      if (fwrite(p, 1, (size_t)(e - p + 1), out) != (size_t)(e - p + 1)) {
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
