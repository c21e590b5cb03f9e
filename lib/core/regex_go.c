/* regex_go.c — the regular expressions of pprof's options (-focus, -ignore,
 * -hide, -show, -tagfocus, -peek, -list ...) are Go's (RE2 syntax,
 * regexp/syntax, on UTF-8 code points); pcol matches them with POSIX
 * regex.h, compiled in the C locale (bytes).  pcol_rx_from_go rewrites an
 * expression into POSIX extended forms that answer as Go's does, so that
 * `--focus 'func\d+'` finds what `go tool pprof -focus 'func\d+'` finds
 * (glibc reads "\d" as "d" and matched nothing, silently):
 *
 *   \d \D \s \S \w \W   (also inside [...])  as sets of code points
 *   \A \z               ^ $
 *   \Q...\E             its text, literally
 *   \t \n \r \f \v \a \x41 \x{263a} \123   the code point
 *   \. \[ \{ \  ...     the ASCII punctuation or space itself (also inside
 *                       [...], where POSIX reads a backslash as itself)
 *   {                   a literal brace where it begins no repeat {n},
 *                       {n,}, {n,m} (Go: "{{closure}}" is text)
 *   (?:...) (?P<n>...)  a group
 *   (?i) (?s) (?U) (?-i) (?is:...)   Go's flags, to the end of the group
 *                       (or in the group): (?i) case folded as Go folds
 *                       it (k also matches U+212A, s U+017F), (?s) "."
 *                       also "\n", (?U) nothing (lazy: the same matches);
 *                       (?m) is read, but ^ or $ under it refused
 *   x*? x+? x?? x{n}?   Go's lazy repeats: the greedy ones (the same
 *                       matches; POSIX reads "x+?" as "(x+)?")
 *   \pL \p{Greek} \PL \p{^L}   Go's Unicode classes (its tables:
 *                       regex_unicode.h), also inside [...]
 *   .  [...]            Go's class (']' first is a member, escapes, ranges,
 *                       [:alpha:]) as a set of code points; "." is every
 *                       code point but "\n"
 *
 * Go matches code points: "." is one code point of a name, however many
 * bytes it takes, and each byte of a name that is not valid UTF-8 is one
 * code point, U+FFFD.  So each expression becomes two POSIX ones: `a` for a
 * name of ASCII bytes only, where a code point is a byte, and `u` for any
 * other name, which pcol_rx_match first makes valid UTF-8 (each bad byte
 * U+FFFD's three) and in which a class or "." is an alternation of UTF-8
 * byte sequences that match whole code points only.  An expression that can
 * match no byte >= 0x80 (no ".", negated class or non-ASCII character) and
 * has no \B has no `u`: its `a` reads every name as Go does.  `u` begins
 * "^(any code point)*(" when the expression has \B, so that no match starts
 * inside a code point (where \B would hold between two bytes of one).
 *
 * Refused with a message, not guessed (doc/cli.md "Regular expressions"):
 * ^ and $ under (?m) (line anchors),
 * and what Go refuses itself: escapes Go does not have (\C, \1), a repeat
 * of a repeat (a**), counts past 1000 (also nested: (a{100}){20}), a ')'
 * that closes nothing, a bad flag group or group name, invalid UTF-8 in
 * the expression.  A repeat of a repeat with a flag group between
 * ("a*(?i)*") Go reads as a repeat of the group of both: so here.  And,
 * pcol's bounds, what glibc's regcomp would build too much of for either
 * form (counted first: regex_cost.c), or a form longer than 256 KiB, its
 * counted repeats expanded.  An alternation (the user's, a class's UTF-8
 * sequences) is written as a balanced tree of groups (put_alts). */
#include "filter.h"
#include "buf.h"
#include "error.h"
#include "regex_cost.h"
#include <ctype.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CP = 0x10ffff, REPEAT_MAX = 1000, DEPTH_MAX = 1000 };
/* In u, and in a name made for it, NUL and "\n" are bytes that valid UTF-8
 * never holds: glibc reads a "\n" next to "$" or "^" as the end or start of a
 * line even without REG_NEWLINE, and a NUL ends regexec's string. */
enum { U_NUL = 0xfd, U_NL = 0xfe };

/* A set of code points: ranges, sorted and disjoint after cs_norm. */
typedef struct cprange {
  uint32_t lo, hi;
} cprange;
typedef struct cpset {
  cprange *r;
  size_t n, cap;
} cpset;

static int cs_add(cpset *s, uint32_t lo, uint32_t hi) {
  if (s->n == s->cap) {
    size_t c = s->cap ? s->cap * 2 : 8;
    cprange *r = realloc(s->r, c * sizeof *r);
    if (!r) return PCOL_ENOMEM;
    s->r = r, s->cap = c;
  }
  s->r[s->n++] = (cprange){lo, hi};
  return 0;
}
static int cr_cmp(const void *a, const void *b) {
  const cprange *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}
static void cs_norm(cpset *s) {
  if (s->n < 2) return;
  qsort(s->r, s->n, sizeof *s->r, cr_cmp);
  size_t k = 0;
  for (size_t i = 1; i < s->n; i++) {
    if (s->r[i].lo <= s->r[k].hi + 1) {
      if (s->r[i].hi > s->r[k].hi) s->r[k].hi = s->r[i].hi;
    } else {
      s->r[++k] = s->r[i];
    }
  }
  s->n = k + 1;
}
/* The complement in [0, MAX_CP] (s normalized). */
static int cs_negate(cpset *s) {
  cpset t = {0};
  uint32_t next = 0;
  int rc = 0;
  for (size_t i = 0; i < s->n && !rc; i++) {
    if (s->r[i].lo > next) rc = cs_add(&t, next, s->r[i].lo - 1);
    next = s->r[i].hi + 1;
  }
  if (!rc && next <= MAX_CP) rc = cs_add(&t, next, MAX_CP);
  free(s->r);
  *s = t;
  return rc;
}
#include "regex_fold.h" /* fold_runs */

/* Go's unicode.SimpleFold: the next code point of c's case orbit (c itself
 * when it has none). */
static uint32_t fold_next(uint32_t c) {
  size_t lo = 0, hi = sizeof fold_runs / sizeof *fold_runs;
  while (lo < hi) {
    size_t m = (lo + hi) / 2;
    if (c > fold_runs[m].hi) lo = m + 1;
    else if (c < fold_runs[m].lo) hi = m;
    else {
      const struct fold_run *r = &fold_runs[m];
      return (uint32_t)((int32_t)c + (r->alt && (c - r->lo) % 2 ? -r->d : r->d));
    }
  }
  return c;
}
/* Go's (?i) on a set: each member's whole case orbit (appendFoldedRange;
 * "k" is also U+212A KELVIN SIGN, "s" U+017F LONG S). */
static int cs_fold(cpset *s) {
  int rc = 0;
  size_t n = s->n, nr = sizeof fold_runs / sizeof *fold_runs;
  for (size_t i = 0; i < n && !rc; i++)
    for (size_t k = 0; k < nr && !rc; k++) {
      uint32_t lo = s->r[i].lo > fold_runs[k].lo ? s->r[i].lo : fold_runs[k].lo;
      uint32_t hi = s->r[i].hi < fold_runs[k].hi ? s->r[i].hi : fold_runs[k].hi;
      for (uint32_t c = lo; c <= hi && !rc; c++)
        for (uint32_t f = fold_next(c); f != c && !rc; f = fold_next(f)) rc = cs_add(s, f, f);
    }
  cs_norm(s);
  return rc;
}

/* A 256-bit set of bytes. */
typedef struct bset {
  uint64_t w[4];
} bset;
static void bs_add(bset *b, unsigned c) { b->w[c >> 6] |= (uint64_t)1 << (c & 63); }
static int bs_has(const bset *b, unsigned c) { return (int)(b->w[c >> 6] >> (c & 63) & 1); }

typedef struct gorx {
  const char *s; /* the expression */
  size_t i, n;
  pcol_buf *a, *u; /* the two forms (see the top) */
  int route;       /* PCOL_RX_*: the names u reads (pcol_rx_match) */
  int word_b;      /* \B */
  const char *why; /* the refusal */
  int icase;       /* (?i) */
  int dotnl;       /* (?s): "." also matches "\n" */
  int multi;       /* (?m): ^ $ at lines (refused where used) */
  int own;         /* the refusal is pcol's (Go reads the expression) */
} gorx;

static int put(pcol_buf *o, const void *p, size_t n) { return pcol_buf_append(o, p, n); }
static int put2(gorx *g, const char *p, size_t n) { return put(g->a, p, n) || put(g->u, p, n); }

/* Byte c as a POSIX ERE literal (bytes >= 0x80 are themselves in the C
 * locale). */
static int put_lit(pcol_buf *o, unsigned char c) {
  if (c && strchr(".[]()*+?{}|^$\\", c)) {
    char e[2] = {'\\', (char)c};
    return put(o, e, 2);
  }
  return put(o, &c, 1);
}

/* Byte set b (not empty, never NUL) as one POSIX atom: the byte, or a
 * bracket: ']' first, then the ranges of the other bytes, '[' (which
 * starts nothing before ']' or '^' or '-'), '^' never first, '-' last (or
 * first, when '^' would be). */
static int put_set(pcol_buf *o, const bset *b) {
  int n = 0, only = -1;
  for (unsigned c = 1; c < 256; c++)
    if (bs_has(b, c)) n++, only = (int)c;
  if (n == 1) return put_lit(o, (unsigned char)only);
  size_t at = o->len;
  int rc = put(o, "[", 1);
  if (!rc && bs_has(b, ']')) rc = put(o, "]", 1);
  for (unsigned c = 1; c < 256 && !rc;) {
    if (!bs_has(b, c) || strchr("]-[^", (int)c)) {
      c++;
      continue;
    }
    unsigned e = c;
    while (e + 1 < 256 && bs_has(b, e + 1) && !strchr("]-[^", (int)(e + 1))) e++;
    char r[3] = {(char)c, '-', (char)e};
    rc = e - c >= 2 ? put(o, r, 3) : e > c ? put(o, r, 1) || put(o, r + 2, 1) : put(o, r, 1);
    c = e + 1;
  }
  if (!rc && bs_has(b, '[')) rc = put(o, "[", 1);
  int dash = bs_has(b, '-');
  if (!rc && bs_has(b, '^')) {
    if (o->len == at + 1) { /* nothing before it: '-' goes first (n >= 2) */
      rc = put(o, "-", 1);
      dash = 0;
    }
    if (!rc) rc = put(o, "^", 1);
  }
  if (!rc && dash) rc = put(o, "-", 1);
  return rc ? rc : put(o, "]", 1);
}
static int put_byte_range(pcol_buf *o, unsigned lo, unsigned hi) {
  bset b = {{0}};
  for (unsigned c = lo; c <= hi; c++) bs_add(&b, c);
  return put_set(o, &b);
}

static size_t utf8_enc(uint32_t c, unsigned char *p) {
  if (c < 0x80) return p[0] = (unsigned char)c, 1;
  if (c < 0x800) return p[0] = (unsigned char)(0xc0 | c >> 6), p[1] = (unsigned char)(0x80 | (c & 63)), 2;
  if (c < 0x10000) {
    p[0] = (unsigned char)(0xe0 | c >> 12), p[1] = (unsigned char)(0x80 | (c >> 6 & 63));
    p[2] = (unsigned char)(0x80 | (c & 63));
    return 3;
  }
  p[0] = (unsigned char)(0xf0 | c >> 18), p[1] = (unsigned char)(0x80 | (c >> 12 & 63));
  p[2] = (unsigned char)(0x80 | (c >> 6 & 63)), p[3] = (unsigned char)(0x80 | (c & 63));
  return 4;
}

/* Code point c at s (n bytes left) as Go's utf8.DecodeRune reads it: its
 * length, 0 when s does not begin a valid sequence (a bad byte). */
static size_t utf8_dec(const unsigned char *s, size_t n, uint32_t *c) {
  unsigned b = s[0];
  if (b < 0x80) return *c = b, 1;
  size_t len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (!len || n < len) return 0;
  unsigned lo = b == 0xe0 ? 0xa0 : b == 0xf0 ? 0x90 : 0x80, hi = b == 0xed ? 0x9f : b == 0xf4 ? 0x8f : 0xbf;
  if (s[1] < lo || s[1] > hi) return 0;
  uint32_t v = b & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);
  for (size_t k = 1; k < len; k++) {
    if (k > 1 && (s[k] & 0xc0) != 0x80) return 0;
    v = v << 6 | (s[k] & 63);
  }
  *c = v;
  return len;
}

/* Code points [lo, hi] (>= 0x80, one encoding length apart from the
 * splits) as alternatives of byte-range sequences, each after a '|'
 * (the UTF-8 range split of RE2 and Rust's regex-syntax). */
static int put_utf8_range(pcol_buf *o, uint32_t lo, uint32_t hi) {
  static const uint32_t lim[] = {0x7ff, 0xffff};
  for (int k = 0; k < 2; k++)
    if (lo <= lim[k] && hi > lim[k]) return put_utf8_range(o, lo, lim[k]) || put_utf8_range(o, lim[k] + 1, hi);
  for (int i = 1; i < 4; i++) {
    uint32_t m = (1u << (6 * i)) - 1;
    if ((lo & ~m) != (hi & ~m)) {
      if (lo & m) return put_utf8_range(o, lo, lo | m) || put_utf8_range(o, (lo | m) + 1, hi);
      if ((hi & m) != m) return put_utf8_range(o, lo, (hi & ~m) - 1) || put_utf8_range(o, hi & ~m, hi);
    }
  }
  unsigned char a[4], b[4];
  size_t n = utf8_enc(lo, a);
  utf8_enc(hi, b);
  int rc = put(o, "|", 1);
  for (size_t k = 0; k < n && !rc; k++) rc = a[k] == b[k] ? put_lit(o, a[k]) : put_byte_range(o, a[k], b[k]);
  return rc;
}

/* Alternatives lo..hi-1 of t (each "|..." from off[k] to off[k + 1]) as
 * one atom, a balanced tree of groups: glibc nests "a|b|c|d" to the left,
 * ((a|b)|c)|d, and the epsilon closures of its alternation nodes then
 * hold n^2 / 2 entries for n alternatives (Go's \pL, 750 of them: 570,000,
 * 5 MB), balanced 2 n log2 n (15,000: regex_cost.c). */
static int put_alts(pcol_buf *o, const uint8_t *t, const size_t *off, size_t lo, size_t hi) {
  if (hi - lo == 1) return put(o, t + off[lo] + 1, off[lo + 1] - off[lo] - 1);
  size_t mid = lo + (hi - lo) / 2;
  return put(o, "(", 1) || put_alts(o, t, off, lo, mid) || put(o, "|", 1) || put_alts(o, t, off, mid, hi) ||
         put(o, ")", 1);
}

/* Set s (normalized; NUL and the surrogates, which no name holds, left
 * out) as one atom of each form.  Nothing: a byte 0xff, in no name `a`
 * reads (ASCII) or `u` reads (valid UTF-8). */
static int emit_set(gorx *g, const cpset *s) {
  bset asc = {{0}}, ascu = {{0}}; /* the ASCII members in a, in u */
  int nasc = 0, nascu = 0, high = 0;
  for (size_t i = 0; i < s->n; i++) {
    for (uint32_t c = s->r[i].lo; c <= s->r[i].hi && c < 0x80; c++) {
      if (c) bs_add(&asc, c), nasc++;
      bs_add(&ascu, c == 0 ? U_NUL : c == '\n' ? U_NL : c), nascu++;
    }
    if (s->r[i].hi >= 0x80 && !(s->r[i].lo >= 0xd800 && s->r[i].hi <= 0xdfff)) high = 1;
  }
  if (high || !nasc) g->route |= PCOL_RX_HIGH;
  if (bs_has(&ascu, U_NUL)) g->route |= PCOL_RX_NUL;
  if (bs_has(&ascu, U_NL)) g->route |= PCOL_RX_NL;
  int rc = nasc ? put_set(g->a, &asc) : put(g->a, "\xff", 1);
  if (rc || !high) return rc ? rc : nascu ? put_set(g->u, &ascu) : put(g->u, "\xff", 1);
  /* the alternatives, each "|..." in t: the ASCII members' bracket, then
   * the UTF-8 sequences (bytes >= 0x80 and brackets of them: no other '|') */
  pcol_buf t = {0};
  size_t *off = NULL, n = 0, asc_end = 0;
  if (nascu) rc = put(&t, "|", 1) || put_set(&t, &ascu), asc_end = t.len;
  for (size_t i = 0; i < s->n && !rc; i++) {
    uint32_t lo = s->r[i].lo < 0x80 ? 0x80 : s->r[i].lo, hi = s->r[i].hi;
    if (hi < 0x80) continue;
    if (lo < 0xd800 && hi >= 0xd800) rc = put_utf8_range(&t, lo, hi < 0xd7ff ? hi : 0xd7ff);
    if (!rc && hi > 0xdfff) rc = put_utf8_range(&t, lo > 0xe000 ? lo : 0xe000, hi);
    else if (!rc && hi < 0xd800) rc = put_utf8_range(&t, lo, hi);
  }
  if (!rc && !(off = malloc((t.len + 1) * sizeof *off))) rc = PCOL_ENOMEM;
  if (!rc) {
    if (nascu) off[n++] = 0;
    for (size_t k = asc_end; k < t.len; k++)
      if (t.data[k] == '|') off[n++] = k;
    off[n] = t.len;
    rc = n == 1 ? put(g->u, "(", 1) || put(g->u, t.data + 1, t.len - 1) || put(g->u, ")", 1)
                : put_alts(g->u, t.data, off, 0, n);
  }
  free(off);
  pcol_buf_free(&t);
  return rc;
}

/* Literal code point c. */
static int emit_lit(gorx *g, uint32_t c) {
  if (g->icase && fold_next(c) != c) {
    cpset s = {0};
    int rc = cs_add(&s, c, c) || cs_fold(&s) || emit_set(g, &s);
    free(s.r);
    return rc;
  }
  if (c == 0) return g->route |= PCOL_RX_HIGH | PCOL_RX_NUL, put(g->a, "\xff", 1) || put_lit(g->u, U_NUL);
  if (c == '\n') g->route |= PCOL_RX_NL;
  if (c < 0x80) return put_lit(g->a, (unsigned char)c) || put_lit(g->u, c == '\n' ? U_NL : (unsigned char)c);
  unsigned char b[4];
  size_t n = utf8_enc(c, b);
  g->route |= PCOL_RX_HIGH;
  int rc = put(g->a, "\xff", 1) || put(g->u, "(", 1);
  for (size_t k = 0; k < n && !rc; k++) rc = put_lit(g->u, b[k]);
  return rc ? rc : put(g->u, ")", 1);
}

static int hexval(int c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* An escape's code point after the backslash at g->i (g->i on the letter),
 * for \t \n ... \x.. \ooo and punctuation: *c, -1 when it is none of
 * these (a class letter, an anchor, \Q, or an error: the caller says). */
static int esc_char(gorx *g, int32_t *c) {
  static const char named[] = "t\tn\nr\rf\fv\va\a"; /* letter, byte */
  int k = (unsigned char)g->s[g->i];
  for (size_t q = 0; k && q + 1 < sizeof named; q += 2)
    if (named[q] == k) {
      *c = named[q + 1];
      g->i++;
      return 0;
    }
  if (k == 'x') {
    uint32_t v = 0;
    g->i++;
    if (g->s[g->i] == '{') {
      size_t j = g->i + 1, d = 0;
      while (hexval(g->s[j]) >= 0) {
        v = v * 16 + (uint32_t)hexval(g->s[j++]), d++;
        if (v > MAX_CP) return g->why = "a code point past U+10FFFF", PCOL_EINVAL;
      }
      if (!d || g->s[j] != '}') return g->why = "a bad \\x{...} escape", PCOL_EINVAL;
      g->i = j + 1;
    } else {
      if (hexval(g->s[g->i]) < 0 || hexval(g->s[g->i + 1]) < 0) return g->why = "a bad \\x escape", PCOL_EINVAL;
      v = (uint32_t)(hexval(g->s[g->i]) * 16 + hexval(g->s[g->i + 1]));
      g->i += 2;
    }
    *c = (int32_t)v;
    return 0;
  }
  if (k >= '0' && k <= '7') { /* Go: octal, up to three digits; \1-\7 alone a backreference */
    if (k != '0' && (g->s[g->i + 1] < '0' || g->s[g->i + 1] > '7'))
      return g->why = "a backreference (Go has none)", PCOL_EINVAL;
    uint32_t v = 0;
    for (int d = 0; d < 3 && g->s[g->i] >= '0' && g->s[g->i] <= '7'; d++) v = v * 8 + (uint32_t)(g->s[g->i++] - '0');
    *c = (int32_t)v;
    return 0;
  }
  if (k && k < 0x80 && !isalnum(k)) { /* Go: any ASCII but a letter or digit */
    *c = k;
    g->i++;
    return 0;
  }
  *c = -1;
  return 0;
}

/* Code point of the expression at g->i (valid UTF-8, as Go requires). */
static int next_char(gorx *g, uint32_t *c) {
  size_t len = utf8_dec((const unsigned char *)g->s + g->i, g->n - g->i, c);
  if (!len) return g->why = "invalid UTF-8", PCOL_EINVAL;
  g->i += len;
  return 0;
}

/* The members of Perl class letter k (d s w; upper case: the complement)
 * or of ASCII class `which` of names[] below, added to *s (folded, then
 * negated, as Go's appendGroup does). */
static const char *const class_names[] = {"alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
                                          "lower", "print", "punct", "space", "upper", "word", "xdigit"};
static int in_class(int which, unsigned c) {
  switch (which) {
  case 0: return isalnum((int)c);
  case 1: return isalpha((int)c);
  case 2: return 1;
  case 3: return c == ' ' || c == '\t';
  case 4: return iscntrl((int)c);
  case 5: return isdigit((int)c);
  case 6: return isgraph((int)c);
  case 7: return islower((int)c);
  case 8: return isprint((int)c);
  case 9: return ispunct((int)c);
  case 10: return isspace((int)c);
  case 11: return isupper((int)c);
  case 12: return isalnum((int)c) || c == '_';
  default: return isxdigit((int)c);
  }
}
/* Class t (rc: how making it went) folded under (?i), then negated when
 * neg, added to *s (Go's appendGroup and parseUnicodeClass); t freed. */
static int add_folded(gorx *g, cpset *s, cpset *t, int neg, int rc) {
  if (!rc && g->icase) rc = cs_fold(t);
  cs_norm(t);
  if (!rc && neg) rc = cs_negate(t);
  for (size_t i = 0; i < t->n && !rc; i++) rc = cs_add(s, t->r[i].lo, t->r[i].hi);
  free(t->r);
  return rc;
}
static int add_group(gorx *g, cpset *s, int which, int neg) {
  cpset t = {0};
  int rc = 0;
  for (unsigned c = 0; c < 128 && !rc; c++)
    if (in_class(which, c)) rc = cs_add(&t, c, c);
  return add_folded(g, s, &t, neg, rc);
}
static int add_perl(gorx *g, cpset *s, int k) {
  int which = tolower(k) == 'd' ? 5 : tolower(k) == 'w' ? 12 : -1;
  if (which < 0) { /* RE2's \s: [\t\n\f\r ], not [:space:] (no \v) */
    cpset t = {0};
    int rc = cs_add(&t, '\t', '\n') || cs_add(&t, '\f', '\r') || cs_add(&t, ' ', ' ');
    cs_norm(&t);
    if (!rc && isupper(k)) rc = cs_negate(&t);
    for (size_t i = 0; i < t.n && !rc; i++) rc = cs_add(s, t.r[i].lo, t.r[i].hi);
    free(t.r);
    return rc;
  }
  return add_group(g, s, which, isupper(k));
}

#include "regex_unicode.h" /* uni_ranges, uni_classes */

/* Go's \pL \p{Greek} \PL \p{^L} \p{Any} at g->i (on the 'p' or 'P'), as
 * parseUnicodeClass reads it: the class of Go's unicode tables, under (?i)
 * closed under case folding (Go adds unicode.FoldCategory or FoldScript:
 * the same, tests/go/unitable checks), then negated, added to *s. */
static int add_unicode(gorx *g, cpset *s) {
  int neg = g->s[g->i] == 'P', rc = 0;
  const char *name = g->s + g->i + 1;
  size_t len;
  if (*name == '{') {
    const char *e = strchr(name, '}');
    if (!e) return g->why = "a \\p{ without its '}' (Go: invalid character class range)", PCOL_EINVAL;
    name++, len = (size_t)(e - name), g->i = (size_t)(e + 1 - g->s);
  } else {
    uint32_t c;
    g->i++;
    if (!*name) return g->why = "a \\p without its class (Go: invalid character class range)", PCOL_EINVAL;
    if (next_char(g, &c)) return PCOL_EINVAL;
    len = (size_t)(g->s + g->i - name);
  }
  if (len && *name == '^') neg = !neg, name++, len--;
  cpset t = {0};
  if (len == 3 && !memcmp(name, "Any", 3)) {
    rc = cs_add(&t, 0, MAX_CP);
  } else {
    size_t lo = 0, hi = sizeof uni_classes / sizeof *uni_classes;
    while (lo < hi) { /* (sorted by name, as strcmp) */
      size_t m = (lo + hi) / 2;
      int c = strncmp(uni_classes[m].name, name, len);
      if (!c) c = uni_classes[m].name[len] ? 1 : 0;
      if (c < 0) lo = m + 1;
      else if (c > 0) hi = m;
      else {
        lo = m;
        break;
      }
    }
    if (lo >= sizeof uni_classes / sizeof *uni_classes || strlen(uni_classes[lo].name) != len ||
        memcmp(uni_classes[lo].name, name, len))
      return g->why = "a Unicode class Go does not know (Go: invalid character class range)", PCOL_EINVAL;
    for (size_t k = 0; k < uni_classes[lo].n && !rc; k++) {
      uint32_t w = uni_ranges[uni_classes[lo].first + k];
      rc = cs_add(&t, w >> 11, (w >> 11) + (w & 2047));
    }
  }
  return add_folded(g, s, &t, neg, rc);
}

/* A class [...] at g->i (on the '['), as Go's parseClass reads it. */
static int go_class(gorx *g, cpset *b) {
  int neg = 0, first = 1, rc = 0;
  g->i++;
  if (g->s[g->i] == '^') neg = 1, g->i++;
  for (; !rc;) {
    if (g->i >= g->n) return g->why = "a class without its ']'", PCOL_EINVAL;
    char ch = g->s[g->i];
    if (ch == ']' && !first) break;
    first = 0;
    if (ch == '[' && g->s[g->i + 1] == ':') { /* [:alpha:] (else '[' is a member) */
      const char *e = strstr(g->s + g->i + 2, ":]");
      if (e) {
        size_t len = (size_t)(e - (g->s + g->i + 2));
        const char *p = g->s + g->i + 2;
        int neg2 = len && *p == '^';
        p += neg2, len -= (size_t)neg2;
        int which = -1;
        for (int q = 0; q < 14; q++)
          if (strlen(class_names[q]) == len && !strncmp(p, class_names[q], len)) which = q;
        if (which < 0) return g->why = "an unknown [:class:]", PCOL_EINVAL;
        rc = add_group(g, b, which, neg2);
        g->i = (size_t)(e - g->s) + 2;
        continue;
      }
    }
    uint32_t lo, hi;
    if (ch == '\\') {
      g->i++;
      int k = (unsigned char)g->s[g->i];
      if (k && strchr("dDsSwW", k)) {
        rc = add_perl(g, b, k);
        g->i++;
        continue;
      }
      if (k == 'p' || k == 'P') {
        rc = add_unicode(g, b);
        continue;
      }
      int32_t v;
      if (esc_char(g, &v)) return PCOL_EINVAL;
      if (v < 0) return g->why = "an escape Go's syntax does not have", PCOL_EINVAL;
      lo = (uint32_t)v;
    } else if (next_char(g, &lo)) {
      return PCOL_EINVAL;
    }
    hi = lo;
    if (g->s[g->i] == '-' && g->s[g->i + 1] && g->s[g->i + 1] != ']') { /* a range */
      g->i++;
      if (g->s[g->i] == '\\') {
        int32_t v;
        g->i++;
        if (esc_char(g, &v)) return PCOL_EINVAL;
        if (v < 0) return g->why = "a bad range", PCOL_EINVAL;
        hi = (uint32_t)v;
      } else if (next_char(g, &hi)) {
        return PCOL_EINVAL;
      }
      if (hi < lo) return g->why = "a range whose end comes before its start", PCOL_EINVAL;
    }
    cpset t = {0};
    rc = cs_add(&t, lo, hi);
    if (!rc && g->icase) rc = cs_fold(&t);
    for (size_t q = 0; q < t.n && !rc; q++) rc = cs_add(b, t.r[q].lo, t.r[q].hi);
    free(t.r);
  }
  if (rc) return rc;
  g->i++; /* ']' */
  cs_norm(b);
  return neg ? cs_negate(b) : 0;
}

/* At g->i: a repeat * + ? {n} {n,} {n,m} (Go: a '{' that begins none is
 * text): its length (0: none), its largest count in *max (the smallest
 * when it has no largest; 1 for * + ?) and whether a count reaches 2. */
static size_t repeat_at(const gorx *g, long *min, long *max, int *two) {
  const char *s = g->s + g->i;
  if (*s == '*' || *s == '+' || *s == '?') return *min = *s == '+', *max = 1, *two = 0, 1;
  if (*s != '{' || !isdigit((unsigned char)s[1])) return 0;
  if (s[1] == '0' && isdigit((unsigned char)s[2])) return 0; /* Go: no leading zero ("a{01}" is text) */
  size_t j = 1;
  long lo = 0, hi;
  while (isdigit((unsigned char)s[j])) lo = lo < 100000 ? lo * 10 + (s[j] - '0') : lo, j++;
  hi = lo;
  if (s[j] == ',') {
    j++;
    if (s[j] == '0' && isdigit((unsigned char)s[j + 1])) return 0;
    hi = isdigit((unsigned char)s[j]) ? 0 : -1;
    while (isdigit((unsigned char)s[j])) hi = hi < 100000 ? hi * 10 + (s[j] - '0') : hi, j++;
  }
  if (s[j] != '}') return 0;
  *max = hi == 0 ? 0 : hi < 0 ? (lo ? lo : 1) : hi; /* Go's repeatIsValid's factor */
  *two = lo >= 2 || hi >= 2;
  *min = lo;
  if (lo > REPEAT_MAX || hi > REPEAT_MAX || (hi >= 0 && hi < lo)) *max = -1; /* Go: invalid */
  return j + 1;
}

/* Each open group: the largest product of nested repeat counts before it
 * (Go's repeatIsValid: at most 1000 copies of the innermost thing), where
 * it begins in a and u, whether the group it is in has an assertion. */
typedef struct grp {
  long prod;
  size_t at_a, at_u;
  int asrt;
  int icase, dotnl, multi; /* the flags outside it, back at its ')' */
  uint64_t size; /* the sum of the atoms before it (see RX_MAX_SIZE) */
  size_t alts;   /* where its '|'s begin in the list of them */
} grp;

/* The translation's own bound: an expression whose u, its counted repeats
 * expanded (as glibc's regcomp expands them), is longer is refused before
 * it is written or counted (what regcomp would build from a shorter one
 * is regex_cost.c's, pcol_rx_cost). */
#define RX_MAX_SIZE (256u * 1024)

/* Atom o[at..] (a group with an assertion) repeated {min,max} (max -1:
 * none) as copies of itself: glibc copies it for x+ and x{n,m} but loses
 * the copies' anchors ("(^a){2}" matched "aa"); x? and x* it does not
 * copy.  min copies, then x* or (max - min) times x?. */
static int put_copies(pcol_buf *o, size_t at, long min, long max) {
  size_t n = o->len - at;
  char *x = malloc(n ? n : 1);
  if (!x) return PCOL_ENOMEM;
  memcpy(x, o->data + at, n);
  o->len = at;
  int rc = 0;
  for (long k = 0; k < min && !rc; k++) rc = put(o, x, n);
  for (long k = min; k < (max < 0 ? min + 1 : max) && !rc; k++) rc = put(o, x, n) || put(o, max < 0 ? "*" : "?", 1);
  if (!rc && !min && !max) rc = put(o, "()", 2);
  free(x);
  return rc;
}

static int rx_too_big(gorx *g, uint64_t size) {
  if (size <= RX_MAX_SIZE) return 0;
  g->own = 1;
  g->why = "too large for regcomp: longer than 256 KiB as POSIX, its counted repeats expanded (pcol's bound)";
  return 1;
}

/* The size (RX_MAX_SIZE) of an atom of `size` repeated by op {min, max}
 * (max: the count's factor, repeat_at), into *as; refused when the
 * level's sum would pass the bound. */
static int rx_repeat_size(gorx *g, const char *op, long min, long max, uint64_t size, uint64_t lsize, uint64_t *as) {
  uint64_t copies;
  if (*op == '*' || *op == '?') copies = 1;
  else if (*op == '+') copies = 2; /* glibc: x x* */
  else copies = op[strcspn(op, "}") - 1] == ',' ? (uint64_t)min + 1 : (uint64_t)max; /* {n,}: n + 1 */
  *as = size * copies + 12; /* (12: the longest op, "{1000,1000}?") */
  return rx_too_big(g, lsize + *as);
}

/* The alternatives of o[at..] (n '|'s, at offsets bar[0], bar[2], ... of
 * o: a and u alternate in bars, from pair `first`) as a balanced tree of
 * groups (put_alts), not glibc's chain nested to the left, whose closures
 * hold n^2 entries (1,500 alternatives: 2.3 million, 18 MB; regex_cost.c). */
static int balance_alts(pcol_buf *o, size_t at, const pcol_buf *bars, size_t first, int is_u, size_t n) {
  if (n < 3) return 0; /* (a|b|c: as cheap either way) */
  const size_t *bar = (const size_t *)bars->data + 2 * first + is_u;
  pcol_buf t = {0};
  size_t *off = malloc((n + 2) * sizeof *off);
  int rc = off ? put(&t, "|", 1) || put(&t, o->data + at, o->len - at) : PCOL_ENOMEM;
  if (!rc) {
    off[0] = 0;
    for (size_t k = 0; k < n; k++) off[k + 1] = bar[2 * k] - at + 1;
    off[n + 1] = t.len;
    o->len = at;
    rc = put_alts(o, t.data, off, 0, n + 1);
  }
  free(off);
  pcol_buf_free(&t);
  return rc;
}

/* o[at..] in a group "(...)". */
static int wrap(pcol_buf *o, size_t at) {
  if (put(o, "()", 2)) return PCOL_ENOMEM;
  memmove(o->data + at + 1, o->data + at, o->len - 2 - at);
  o->data[at] = '(', o->data[o->len - 1] = ')';
  return 0;
}

/* At g->i, "(?" not followed by ':' or 'P': a flag group "(?flags)" or
 * "(?flags:" as Go's parsePerlFlags reads it (i m s U, one '-' followed by
 * at least one flag): its length, the new flags in *f (icase, dotnl,
 * multi) and in *colon whether it opens a group; 0 when it is no flag
 * group (Go refuses it). */
static size_t go_flags(const gorx *g, int f[3], int *colon) {
  int sign = 1, saw = 0;
  f[0] = g->icase, f[1] = g->dotnl, f[2] = g->multi;
  for (size_t j = g->i + 2; j < g->n; j++) {
    char c = g->s[j];
    const char *k = c ? strchr("ismU", c) : NULL;
    if (k) {
      if (*k != 'U') f[k - "ismU"] = sign > 0; /* U: lazy repeats, the same matches */
      saw = 1;
    } else if (c == '-' && sign > 0) {
      sign = -1, saw = 0;
    } else if ((c == ':' || c == ')') && (sign > 0 || saw)) {
      *colon = c == ':';
      return j + 1 - g->i;
    } else {
      break;
    }
  }
  return 0;
}

/* At g->i, "(?P<": the length of "(?P<name>" (Go: a name of ASCII letters,
 * digits and '_'), 0 when it is none. */
static size_t go_named(const gorx *g) {
  size_t j = g->i + 4;
  while (j < g->n && (isalnum((unsigned char)g->s[j]) || g->s[j] == '_')) j++;
  return j > g->i + 4 && g->s[j] == '>' ? j + 1 - g->i : 0;
}

static int from_go(const char *re, pcol_buf *a, pcol_buf *u, int *route, const char **why, int *own) {
  pcol_buf body = {0};
  gorx g = {re, 0, strlen(re), a, &body, 0, 0, NULL, 0, 0, 0, 0};
  grp *st = NULL;
  size_t depth = 0;
  int have = 0;  /* an atom a repeat may follow */
  long cur = 1;  /* its product of repeat counts */
  long prod = 1; /* the largest of the atoms before it at this depth */
  int after_repeat = 0, assertion = 0; /* the last atom is ^ $ \A \z \b \B (1) */
  int group_asrt = 0;                     /* the open group has one */
  size_t at_a = 0, at_u = 0;             /* where it begins in a and body */
  uint64_t lsize = 0; /* this depth's atoms before the last */
  pcol_buf bars = {0}; /* where each open group's '|'s are in a and body (size_t pairs) */
  size_t nbar = 0, bar0 = 0; /* their count; the open group's first */
  uint64_t asize = 0; /* the last atom's, once repeated (measured) */
  uint64_t gsize = 0; /* the last atom's when it is a group */
  int measured = 0, is_group = 0;
  a->len = u->len = 0;
  *route = 0;
  int rc = PCOL_OK;
  while (!rc && g.i < g.n) {
    char ch = re[g.i];
    long min, max;
    int two;
    size_t rl = repeat_at(&g, &min, &max, &two);
    if (rl) {
      if (after_repeat == 2) { /* "a*(?i)*": Go repeats the repeat */
        if ((rc = wrap(g.a, at_a)) || (rc = wrap(&body, at_u))) break;
        after_repeat = 0, is_group = 0;
      }
      if (after_repeat) {
        g.why = "a repeat of a repeat (Go: invalid nested repetition operator)";
        rc = PCOL_EINVAL;
      } else if (!have) {
        g.why = "a repeat of nothing";
        rc = PCOL_EINVAL;
      } else if (max < 0 || (two && max && max * cur > REPEAT_MAX)) {
        g.why = "a repeat count past 1000 (Go: invalid repeat count)";
        rc = PCOL_EINVAL;
      } else if (rx_repeat_size(&g, re + g.i, min, max, is_group ? gsize : body.len - at_u, lsize, &asize)) {
        rc = PCOL_EINVAL;
      } else {
        measured = 1;
        /* the largest count (max is the factor), -1: none */
        long hi = re[g.i] == '*' || re[g.i] == '+' || (re[g.i] == '{' && re[g.i + rl - 2] == ',') ? -1 : max;
        if (assertion == 2 && (re[g.i] == '+' || re[g.i] == '{')) {
          rc = put_copies(g.a, at_a, min, hi) || put_copies(&body, at_u, min, hi);
          cur *= max;
        } else if (assertion != 1) {
          rc = put2(&g, re + g.i, rl);
          cur *= max;
        } else if (!min) { /* an anchor or \b repeated (glibc refuses "^*"): */
          g.a->len = at_a, body.len = at_u; /* itself, or nothing when it */
          rc = put2(&g, "()", 2);           /* may be there 0 times */
        }
        g.i += rl;
        /* Go's lazy repeats (x*? x+? x?? x{n,m}?) match what the greedy ones
         * match (only which match is found first differs, and pcol asks
         * whether there is one); POSIX reads "x+?" as "(x+)?" */
        if (re[g.i] == '?') g.i++;
        after_repeat = 1;
      }
      continue;
    }
    int fl[3], colon = 0;
    size_t glen = 0; /* "(?flags:", "(?P<name>", "(?:" or "(": its length */
    if (ch == '(' && re[g.i + 1] == '?' && re[g.i + 2] != ':' && re[g.i + 2] != 'P') {
      glen = go_flags(&g, fl, &colon);
      if (!glen) {
        g.why = "a '(?' that begins no flag group or named group Go reads (Go: invalid or unsupported Perl syntax)";
        rc = PCOL_EINVAL;
        break;
      }
      if (!colon) { /* "(?i)": the flags to the end of the group, no atom */
        g.icase = fl[0], g.dotnl = fl[1], g.multi = fl[2];
        if (after_repeat) after_repeat = 2;
        g.i += glen;
        continue;
      }
    } else if (ch == '(' && re[g.i + 1] == '?' && re[g.i + 2] == 'P') {
      if (re[g.i + 3] != '<' || !(glen = go_named(&g))) {
        g.why = "a bad named group (Go: a name of ASCII letters, digits and '_' in (?P<name>...))";
        rc = PCOL_EINVAL;
        break;
      }
    } else if (ch == '(') {
      glen = re[g.i + 1] == '?' ? 3 : 1;
    }
    after_repeat = 0, assertion = 0;
    if (have) { /* the atom before is complete */
      if (!measured) asize = is_group ? gsize : body.len - at_u;
      lsize += asize;
      if (rx_too_big(&g, lsize)) {
        rc = PCOL_EINVAL;
        break;
      }
    }
    measured = is_group = 0;
    if (have && cur > prod) prod = cur;
    have = 1, cur = 1;
    at_a = g.a->len, at_u = body.len;
    if (ch == '[') {
      cpset s = {0};
      rc = go_class(&g, &s);
      if (!rc) rc = emit_set(&g, &s);
      free(s.r);
    } else if (ch == '(') {
      if (depth >= DEPTH_MAX) {
        g.why = "groups nested too deeply", g.own = 1; /* (Go's bound is near: its tree's height) */
        rc = PCOL_EINVAL;
      } else {
        grp *ns = realloc(st, (depth + 1) * sizeof *st);
        if (!ns) {
          rc = PCOL_ENOMEM;
          break;
        }
        st = ns;
        st[depth++] = (grp){prod, at_a, at_u, group_asrt, g.icase, g.dotnl, g.multi, lsize, bar0};
        prod = 1, have = 0, group_asrt = 0, lsize = 0, bar0 = nbar;
        if (colon) g.icase = fl[0], g.dotnl = fl[1], g.multi = fl[2];
        rc = put2(&g, "(", 1);
        g.i += glen;
      }
    } else if (ch == ')') {
      if (!depth) {
        g.why = "a ')' that closes no group";
        rc = PCOL_EINVAL;
      } else {
        if ((rc = balance_alts(g.a, st[depth - 1].at_a + 1, &bars, bar0, 0, nbar - bar0)) ||
            (rc = balance_alts(&body, st[depth - 1].at_u + 1, &bars, bar0, 1, nbar - bar0)))
          break;
        nbar = bar0, bar0 = st[depth - 1].alts, bars.len = nbar * 2 * sizeof(size_t);
        cur = prod;
        depth--;
        prod = st[depth].prod, at_a = st[depth].at_a, at_u = st[depth].at_u;
        gsize = lsize + 2, is_group = 1;
        lsize = st[depth].size;
        g.icase = st[depth].icase, g.dotnl = st[depth].dotnl, g.multi = st[depth].multi;
        assertion = group_asrt ? 2 : 0; /* 2: a group that has one */
        group_asrt |= st[depth].asrt;
        rc = put2(&g, ")", 1);
        g.i++;
      }
    } else if (ch == '|') {
      size_t at2[2] = {g.a->len, body.len};
      rc = pcol_buf_append(&bars, at2, sizeof at2) || put2(&g, "|", 1);
      g.i++, have = 0, nbar++;
      if (!rc && rx_too_big(&g, lsize += 3)) rc = PCOL_EINVAL; /* ('|' and the parentheses of balance_alts) */
    } else if ((ch == '^' || ch == '$') && g.multi) {
      g.why = "^ or $ under (?m) (Go's line anchors: pcol has no exact form of them)", g.own = 1;
      rc = PCOL_EINVAL;
    } else if (ch == '^' || ch == '$') {
      rc = put2(&g, &ch, 1), g.i++, assertion = group_asrt = 1;
      if (ch == '$') g.route |= PCOL_RX_NL; /* (glibc: "a$" matched "a\n") */
    } else if (ch == '.') {
      cpset s = {0};
      rc = g.dotnl ? cs_add(&s, 0, MAX_CP) || emit_set(&g, &s)
                   : cs_add(&s, 0, '\n' - 1) || cs_add(&s, '\n' + 1, MAX_CP) || emit_set(&g, &s);
      free(s.r);
      /* a reads no NUL, "\n" or byte >= 0x80 (the route): there POSIX's '.'
       * is the same set, and glibc's fastest */
      g.a->len = at_a, g.route |= PCOL_RX_NL;
      if (!rc) rc = put(g.a, ".", 1);
      g.i++;
    } else if (ch == '\\') {
      g.i++;
      int k = (unsigned char)re[g.i];
      if (k && strchr("dDsSwW", k)) {
        cpset s = {0};
        rc = add_perl(&g, &s, k);
        cs_norm(&s);
        if (!rc) rc = emit_set(&g, &s);
        free(s.r);
        g.i++;
      } else if (k == 'A' || k == 'z') {
        rc = put2(&g, k == 'A' ? "^" : "$", 1), g.i++, assertion = group_asrt = 1;
        if (k == 'z') g.route |= PCOL_RX_NL;
      } else if (k == 'b' || k == 'B') {
        char e[2] = {'\\', (char)k};
        if (k == 'B') g.route |= PCOL_RX_HIGH, g.word_b = 1;
        rc = put2(&g, e, 2), g.i++, assertion = group_asrt = 1, g.route |= PCOL_RX_NL; /* ("\B": "a\n") */
      } else if (k == 'Q') {
        g.i++;
        const char *e = strstr(re + g.i, "\\E");
        size_t end = e ? (size_t)(e - re) : g.n;
        have = 0;
        while (!rc && g.i < end) {
          uint32_t c;
          if (g.s[g.i] == 0 || next_char(&g, &c)) rc = PCOL_EINVAL;
          else rc = emit_lit(&g, c), have = 1;
        }
        if (e) g.i = end + 2;
      } else if (k == 'p' || k == 'P') {
        cpset s = {0};
        rc = add_unicode(&g, &s);
        cs_norm(&s);
        if (!rc) rc = emit_set(&g, &s);
        free(s.r);
      } else if (!k) {
        g.why = "a trailing backslash";
        rc = PCOL_EINVAL;
      } else {
        int32_t c;
        rc = esc_char(&g, &c);
        if (!rc && c < 0) g.why = "an escape Go's syntax does not have", rc = PCOL_EINVAL;
        if (!rc) rc = emit_lit(&g, (uint32_t)c);
      }
    } else {
      uint32_t c;
      rc = next_char(&g, &c);
      if (!rc) rc = emit_lit(&g, c);
    }
  }
  if (!rc && depth) g.why = "a '(' without its ')'", rc = PCOL_EINVAL;
  if (!rc && have) {
    if (!measured) asize = is_group ? gsize : body.len - at_u;
    if (rx_too_big(&g, lsize + asize)) rc = PCOL_EINVAL;
  }
  if (!rc && ((rc = balance_alts(a, 0, &bars, 0, 0, nbar)) || (rc = balance_alts(&body, 0, &bars, 0, 1, nbar))))
    g.why = NULL;
  free(st);
  pcol_buf_free(&bars);
  if (!rc) {
    static const char pre[] = "^([\x01-\t\v-\x7f\xfd\xfe]|[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf][\x80-\xbf]|"
                              "[\xf0-\xf4][\x80-\xbf][\x80-\xbf][\x80-\xbf])*(";
    *route = g.route;
    if (g.word_b) rc = put(u, pre, sizeof pre - 1);
    if (!rc) rc = put(u, body.data, body.len);
    if (!rc && g.word_b) rc = put(u, ")", 1);
    if (!rc) rc = put(u, "", 1);
  }
  pcol_buf_free(&body);
  if (!rc) rc = put(a, "", 1); /* the NUL */
  if (!rc) { /* what regcomp would build of each (regex_cost.c): within pcol's bounds */
    rx_cost c;
    const char *w = NULL;
    rc = pcol_rx_cost((const char *)a->data, &c, &w);
    if (!rc) rc = pcol_rx_cost((const char *)u->data, &c, &w);
    if (rc == PCOL_EINVAL) g.why = w, g.own = 1;
  }
  if (rc && !g.why) g.why = "out of memory";
  *why = g.why;
  *own = g.own;
  return rc;
}

int pcol_rx_from_go(const char *re, pcol_buf *a, pcol_buf *u, int *route, const char **why) {
  int own;
  return from_go(re, a, u, route, why, &own);
}

/* regcomp in the C locale, whatever the program's (a binding's host may
 * have set a UTF-8 one): bytes are characters, and \b's word bytes are
 * ASCII's (glibc fixes both at regcomp; pcol_rx_from_go asks regexec for
 * nothing that depends on the locale: no REG_ICASE, no [:class:]). */
static int regcomp_c(regex_t *rx, const char *p) {
  locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  if (!c) return REG_ESPACE;
  locale_t old = uselocale(c);
  int e = regcomp(rx, p, REG_EXTENDED | REG_NOSUB);
  uselocale(old);
  freelocale(c);
  return e;
}

int pcol_rx_compile_own(pcol_rx *rx, const char *what, const char *re, int *own, pcol_error *err) {
  pcol_buf a = {0}, u = {0};
  const char *why;
  int e = from_go(re, &a, &u, &rx->route, &why, own);
  if (e == PCOL_ENOMEM) {
    pcol_buf_free(&a), pcol_buf_free(&u);
    return pcol_oom(err);
  }
  if (e) {
    pcol_buf_free(&a), pcol_buf_free(&u);
    return pcol_error_set(err, PCOL_EINVAL, "%s: bad regular expression '%.*s': %s", what,
                          (int)pcol_utf8_cut(re, strlen(re), 200), re, why);
  }
  e = regcomp_c(&rx->a, (const char *)a.data);
  int eu = e ? 0 : regcomp_c(&rx->u, (const char *)u.data);
  pcol_buf_free(&a), pcol_buf_free(&u);
  if (e || eu) {
    char m[160];
    regerror(e ? e : eu, e ? &rx->a : &rx->u, m, sizeof m);
    if (!e) regfree(&rx->a);
    if (e == REG_ESPACE || eu == REG_ESPACE) return pcol_oom(err);
    *own = 1; /* (Go's syntax passed: regcomp's refusal is pcol's) */
    return pcol_error_set(err, PCOL_EINVAL, "%s: bad regular expression '%.*s': %s", what,
                          (int)pcol_utf8_cut(re, strlen(re), 200), re, m);
  }
  return PCOL_OK;
}

int pcol_rx_compile(pcol_rx *rx, const char *what, const char *re, pcol_error *err) {
  int own;
  return pcol_rx_compile_own(rx, what, re, &own, err);
}

void pcol_rx_free(pcol_rx *rx) {
  regfree(&rx->a);
  regfree(&rx->u);
}

/* Whether name p (n bytes) is one `a` reads: none of the bytes `route`
 * sends to u (eight bytes at a time: the scan is much of the cost of a
 * match that fails at once). */
static int a_reads(const unsigned char *p, size_t n, int route) {
  const uint64_t ones = 0x0101010101010101u, nl = ones * '\n', top = ones * 0x80;
  uint64_t acc = 0, w, z = route & PCOL_RX_NUL ? ~(uint64_t)0 : 0, l = route & PCOL_RX_NL ? ~(uint64_t)0 : 0,
           h = route & PCOL_RX_HIGH ? ~(uint64_t)0 : 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, p + i, 8);
    uint64_t x = w ^ nl;
    acc |= (((w - ones) & ~w) & z) | (((x - ones) & ~x) & l) | (w & h);
  }
  if (acc & top) return 0;
  for (; i < n; i++)
    if ((!p[i] && z) || (p[i] == '\n' && l) || (p[i] >= 0x80 && h)) return 0;
  return 1;
}

/* regexec with REG_STARTEND (glibc, the BSDs) reads the name in place, but
 * the sanitizers' interceptor of regexec (ASan's, TSan's, MSan's) reads it
 * up to a NUL, past the name into memory another thread may be writing (a
 * result's names are made on demand under a lock, top.c ctx_name): a copy
 * there. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define RX_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RX_SANITIZED 1
#endif
/* Not at all for now: a libpcol built without a sanitizer runs under one
 * preloaded into its host (the R package's ASan test preloads libasan into
 * R and links the plain libpcol), where no macro tells: the copy always. */
#if 0 && defined(REG_STARTEND) && !defined(RX_SANITIZED)
#define RX_STARTEND 1
#endif

int pcol_rx_match(const pcol_rx *rx, char **buf, size_t *cap, pcol_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t n = p ? s.len : 0;
#ifdef RX_STARTEND /* the name itself, no copy; a NUL is a byte no atom of
                    * `a` matches */
  int plain = !rx->route || a_reads(p, n, rx->route);
  if (plain) {
    regmatch_t m[1] = {{0, (regoff_t)n}};
    return regexec(&rx->a, n ? (const char *)p : "", 1, m, REG_STARTEND) == 0;
  }
#else
  int plain = a_reads(p, n, rx->route | PCOL_RX_NUL); /* (a NUL ends the copy) */
#endif
  size_t need = plain ? n + 1 : 3 * n + 1; /* a bad byte becomes U+FFFD's three */
  if (need > *cap) {
    size_t c = need * 2;
    char *b = realloc(*buf, c);
    if (!b) return -1;
    *buf = b;
    *cap = c;
  }
  if (plain) {
    if (n) memcpy(*buf, p, n);
    (*buf)[n] = 0;
    return regexec(&rx->a, *buf, 0, NULL, 0) == 0;
  }
  /* Go reads each byte that begins no valid UTF-8 sequence as U+FFFD */
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    uint32_t c;
    size_t len = utf8_dec(p + i, n - i, &c);
    if (!len) {
      memcpy(*buf + o, "\xef\xbf\xbd", 3), o += 3, i++;
    } else if (c == 0 || c == '\n') {
      (*buf)[o++] = (char)(c ? U_NL : U_NUL), i++;
    } else {
      memcpy(*buf + o, p + i, len), o += len, i += len;
    }
  }
  (*buf)[o] = 0;
  return regexec(&rx->u, *buf, 0, NULL, 0) == 0;
}
