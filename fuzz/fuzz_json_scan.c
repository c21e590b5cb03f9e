/* fuzz_json_scan.c — libFuzzer target: lib/json_scan.c against jansson.
 *
 * "jansson" below is jansson through perun_json_loadb (perun_json.h): the
 * scanner reads Python's dialect (NaN, Infinity, -Infinity), and so does
 * that loader, by handing jansson a copy with those tokens as strings.
 * For any bytes:
 *  - the scanner (pcol_js_value + pcol_js_end) accepts iff jansson's
 *    json_loadb(JSON_DECODE_ANY) does.  The one documented exception is a
 *    number out of jansson's range (the scanner accepts it on purpose): when
 *    jansson fails with json_error_numeric_overflow, that number is blanked
 *    to "0" plus spaces (same length, same grammar for the scanner) and
 *    jansson is asked again, so a disagreement behind it is still seen.
 *    The other way round, jansson 2.14 loses a NUL byte that directly
 *    follows a number or a literal ("[1\0]" loads; the scanner refuses it,
 *    see json_scan.h; not after Infinity, which jansson reads as a string):
 *    such a NUL, where the scanner stops, becomes a space first (jansson's verdict cannot change: it either drops the byte or
 *    fails on both texts), and jansson must then agree on both texts;
 *  - a walk with pcol_js_begin/pcol_js_next, recursing into copies of the
 *    cursor, agrees with pcol_js_value: same verdict, same end positions;
 *    when jansson accepted the document, the tree the walk builds (keys
 *    from pcol_js_key_decode, scalars loaded one by one) is json_equal to
 *    jansson's;
 *  - every member's [start, end) slice re-scans alone to the same extent
 *    and jansson loads it to what the walk built (while a budget lasts:
 *    this is size x depth work, done deepest first);
 *  - decoded keys are NUL-free, equal the raw text when not escaped, and
 *    pcol_js_key_is agrees with them;
 *  - a failure has a message and a position inside the text.
 * The input is copied into a buffer of exactly its size, so AddressSanitizer
 * sees any read past the end.
 *
 * tests/test_fuzz_replay.c and tests/test_json_scan.c include this file with
 * FZ_JS_NO_ENTRY defined, to run the same checks under gcc. */
#include "json_scan.h"
#include "perun_json.h"
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZJS_MAX_LEVEL 2100 /* the walk must stop at the nesting limit (2048) */

static void fzjs_fail(const char *what, size_t size) {
  fprintf(stderr, "fuzz_json_scan invariant broken: %s (input of %zu bytes)\n", what, size);
  abort();
}

typedef struct fzjs {
  const char *p;
  size_t n;
  size_t budget;  /* bytes the scanner may still re-read for member checks */
  size_t jbudget; /* bytes jansson may still load for member checks */
} fzjs;

static int fzjs_is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* A failed scan explains itself, at a position inside the text. */
static void fzjs_check_error(const pcol_jscan *s) {
  if (!s->err || !s->err[0]) fzjs_fail("a failure without a message", s->n);
  if (s->err_pos > s->n) fzjs_fail("error position past the end", s->n);
  size_t line, col;
  pcol_js_line_col(s->p, s->n, s->err_pos, &line, &col);
  if (line < 1 || col < 1 || col > s->err_pos + 1 || line > s->err_pos + 1)
    fzjs_fail("line/column of the error position", s->n);
}

/* jansson's value of p[0..n) (NULL if refused); its own frame keeps the
 * json_error_t off the recursion's stack. */
static __attribute__((noinline)) json_t *fzjs_load(const char *p, size_t n) {
  json_error_t je;
  return perun_json_loadb(p, n, JSON_DECODE_ANY, &je);
}

/* One member, after the walk went through it from `at` to `sub` (rw: the
 * walk's verdict, v: what it built, or NULL): skipping it with pcol_js_value
 * gives the same verdict and end, its [start, end) re-scans alone, and
 * jansson loads the slice to what the walk built.  Re-reading members at
 * every level costs size x depth, so this runs while the budgets last; the
 * walk calls it deepest first. */
static void fzjs_check_member(fzjs *w, const pcol_jscan *at, const pcol_jscan *sub, int rw, json_t *v) {
  size_t to = rw ? sub->err_pos : sub->pos, cost = 2 * ((to > at->pos ? to - at->pos : 0) + 1);
  if (w->budget < cost) return;
  w->budget -= cost;
  pcol_jscan skip = *at;
  size_t vb = 0, ve = 0;
  int rs = pcol_js_value(&skip, &vb, &ve);
  if ((rs == 0) != (rw == 0)) fzjs_fail("begin/next and pcol_js_value disagree on a member", w->n);
  if (rs) {
    fzjs_check_error(&skip);
    return;
  }
  if (skip.pos != sub->pos) fzjs_fail("begin/next and pcol_js_value end apart", w->n);
  if (vb < at->pos || vb >= ve || ve != skip.pos || fzjs_is_ws(w->p[vb])) fzjs_fail("a value's [start, end)", w->n);
  for (size_t i = at->pos; i < vb; i++)
    if (!fzjs_is_ws(w->p[i])) fzjs_fail("only whitespace before a value's start", w->n);
  pcol_jscan one;
  size_t b1, e1;
  pcol_js_init(&one, w->p + vb, ve - vb);
  if (pcol_js_value(&one, &b1, &e1) || b1 != 0 || e1 != ve - vb || pcol_js_end(&one))
    fzjs_fail("a value's slice re-scans alone", w->n);
  if (v && (json_is_object(v) || json_is_array(v)) && w->jbudget >= ve - vb) {
    w->jbudget -= ve - vb;
    json_t *j = fzjs_load(w->p + vb, ve - vb);
    if (!j) fzjs_fail("jansson refuses a slice of a document it accepted", w->n);
    if (!json_equal(j, v)) fzjs_fail("jansson loads a slice to something else than the walk built", w->n);
    json_decref(j);
  }
}

/* Walks the value at `s` (whitespace first) with pcol_js_begin/pcol_js_next,
 * recursing into a copy of the cursor for each member.  With `out`, builds
 * the value as a jansson tree from what the scanner reports: keys from
 * pcol_js_key_decode (a repeated key: the last wins, as in jansson), scalars
 * loaded one at a time.  Returns 0 (s after the value) or -1. */
static int fzjs_walk(fzjs *w, pcol_jscan *s, json_t **out, int level) {
  if (level > FZJS_MAX_LEVEL) fzjs_fail("a walk deeper than the nesting limit", w->n);
  int c = pcol_js_peek(s);
  if (c != '{' && c != '[') {
    size_t b, e;
    if (pcol_js_value(s, &b, &e)) return -1;
    if (out && !(*out = fzjs_load(w->p + b, e - b))) fzjs_fail("jansson refuses a scalar of a document it accepted", w->n);
    return 0;
  }
  int obj = c == '{';
  pcol_jiter it;
  if (pcol_js_begin(s, (char)c, &it)) return -1; /* only the nesting limit */
  json_t *tree = out ? (obj ? json_object() : json_array()) : NULL;
  for (;;) {
    pcol_jkey k;
    memset(&k, 0, sizeof k);
    int more = pcol_js_next(s, &it, obj ? &k : NULL);
    if (more < 0) {
      json_decref(tree);
      return -1;
    }
    if (more == 0) break;
    if (more != 1) fzjs_fail("pcol_js_next returns -1, 0 or 1", w->n);
    char *key = NULL;
    size_t kl = 0;
    if (obj) {
      if (k.start == 0 || k.start > w->n || k.len >= w->n - k.start || w->p[k.start - 1] != '"' ||
          w->p[k.start + k.len] != '"')
        fzjs_fail("a key lies between its quotes", w->n);
      if (!!memchr(w->p + k.start, '\\', k.len) != k.escaped) fzjs_fail("key->escaped", w->n);
      key = pcol_js_key_decode(s, &k, &kl);
      if (!key) fzjs_fail("out of memory", w->n);
      if (strlen(key) != kl || kl > k.len) fzjs_fail("decoded key length", w->n);
      if (!k.escaped && memcmp(key, w->p + k.start, kl)) fzjs_fail("an unescaped key decodes to itself", w->n);
      if (!pcol_js_key_is(s, &k, key)) fzjs_fail("pcol_js_key_is(its own decoding)", w->n);
      if (kl && pcol_js_key_is(s, &k, key + 1)) fzjs_fail("pcol_js_key_is(a shorter key)", w->n);
    }
    pcol_jscan sub = *s;
    json_t *v = NULL;
    int rw = fzjs_walk(w, &sub, tree ? &v : NULL, level + 1);
    fzjs_check_member(w, s, &sub, rw, v);
    if (rw == 0 && tree &&
        (obj ? json_object_setn_new(tree, key, kl, v) : json_array_append_new(tree, v)))
      fzjs_fail("jansson cannot hold a decoded key (invalid UTF-8?)", w->n);
    free(key);
    *s = sub;
    if (rw) {
      json_decref(tree);
      return -1;
    }
  }
  if (out) *out = tree;
  return 0;
}

/* Blanks the out-of-range number that ends at `pos` (jansson's error
 * position) to "0" and spaces.  Walks back over -?int(.frac)?([eE][+-]?exp)?;
 * an 'e' with no digit before it belongs to something else ("true1e999"). */
static void fzjs_blank_number(char *t, size_t size, size_t pos) {
  if (pos > size) fzjs_fail("numeric overflow position past the end", size);
  size_t i = pos;
#define FZJS_DIGITS() while (i > 0 && t[i - 1] >= '0' && t[i - 1] <= '9') i--
  FZJS_DIGITS();
  size_t m = i; /* where the mantissa would end if an exponent precedes */
  if (m >= 1 && (t[m - 1] == 'e' || t[m - 1] == 'E')) m -= 1;
  else if (m >= 2 && (t[m - 1] == '+' || t[m - 1] == '-') && (t[m - 2] == 'e' || t[m - 2] == 'E')) m -= 2;
  if (m < i && m >= 1 && t[m - 1] >= '0' && t[m - 1] <= '9') {
    i = m;
    FZJS_DIGITS();
  }
  if (i >= 2 && t[i - 1] == '.' && t[i - 2] >= '0' && t[i - 2] <= '9') {
    i--;
    FZJS_DIGITS();
  }
  if (i >= 1 && t[i - 1] == '-') i--;
#undef FZJS_DIGITS
  if (i == pos || !(t[i] == '-' || (t[i] >= '0' && t[i] <= '9')))
    fzjs_fail("numeric overflow reported after something not a number", size);
  t[i] = '0';
  memset(t + i + 1, ' ', pos - i - 1);
}

/* The scanner's verdict on the whole text; on failure *at is where. */
static int fzjs_scan_all(const char *t, size_t size, pcol_jscan *at) {
  pcol_jscan s;
  size_t b = 0, e = 0;
  pcol_js_init(&s, t, size);
  if (pcol_js_value(&s, &b, &e) || pcol_js_end(&s)) {
    fzjs_check_error(&s);
    if (at) *at = s;
    return 0;
  }
  if (b > e || e > size || (size && b == e)) fzjs_fail("the document's [start, end)", size);
  for (size_t i = 0; i < size; i++)
    if ((i < b || i >= e) && !fzjs_is_ws(t[i])) fzjs_fail("only whitespace around the document", size);
  return 1;
}

static int fz_json_scan_one(const uint8_t *data, size_t size) {
  char *t = malloc(size ? size : 1);
  if (!t) return 0;
  if (size) memcpy(t, data, size);
  pcol_jscan at;
  int ok = fzjs_scan_all(t, size, &at), nuls = 0;
  while (!ok && at.err_pos < size && at.err_pos > 0 && t[at.err_pos] == 0 &&
         ((t[at.err_pos - 1] >= '0' && t[at.err_pos - 1] <= '9') ||
          (t[at.err_pos - 1] >= 'a' && t[at.err_pos - 1] <= 'z') || t[at.err_pos - 1] == 'E') &&
         !(at.err_pos >= 8 && !memcmp(t + at.err_pos - 8, "Infinity", 8)) &&
         strcmp(at.err, "control character in a string")) {
    t[at.err_pos] = ' ';
    nuls++;
    ok = fzjs_scan_all(t, size, &at);
  }
  json_error_t je;
  json_t *doc;
  if (nuls) { /* jansson: the same verdict with the NULs and with the spaces */
    doc = perun_json_loadb((const char *)data, size, JSON_DECODE_ANY, &je);
    int before = doc || json_error_code(&je) == json_error_numeric_overflow;
    json_decref(doc);
    doc = perun_json_loadb(t, size, JSON_DECODE_ANY, &je);
    if (before != (doc || json_error_code(&je) == json_error_numeric_overflow))
      fzjs_fail("a NUL after a token turned into a space changes jansson's verdict", size);
    json_decref(doc);
  }
  int blanked = 0;
  while (!(doc = perun_json_loadb(t, size, JSON_DECODE_ANY, &je)) &&
         json_error_code(&je) == json_error_numeric_overflow) {
    if (++blanked > 64) { /* too many to chase one by one: skip the input */
      free(t);
      return 0;
    }
    fzjs_blank_number(t, size, (size_t)je.position);
  }
  if (blanked && fzjs_scan_all(t, size, NULL) != ok) fzjs_fail("blanking a number changed the scanner's verdict", size);
  if ((doc != NULL) != ok) {
    fprintf(stderr, "scanner %s, jansson %s%s\n", ok ? "accepts" : "refuses", doc ? "accepts" : "refuses: ",
            doc ? "" : je.text);
    fzjs_fail("the scanner and jansson disagree", size);
  }

  fzjs w = {t, size, 8 * (size_t)size + (256u << 10), 2 * (size_t)size + (64u << 10)};
  pcol_jscan s;
  json_t *built = NULL;
  pcol_js_init(&s, t, size);
  int wok = fzjs_walk(&w, &s, doc ? &built : NULL, 0) == 0 && pcol_js_end(&s) == 0;
  if (!wok) fzjs_check_error(&s);
  if (wok != ok) fzjs_fail("the begin/next walk and pcol_js_value disagree", size);
  if (doc && !json_equal(built, doc)) fzjs_fail("the walk builds another value than jansson's", size);
  json_decref(built);
  json_decref(doc);
  free(t);
  return 0;
}

#ifndef FZ_JS_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fz_json_scan_one(data, size); }
#endif
