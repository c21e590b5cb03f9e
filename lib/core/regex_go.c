/* regex_go.c — the regular expressions of pprof's options (-focus, -ignore,
 * -hide, -show, -tagfocus, -peek, -list ...) are Go's (RE2 syntax,
 * regexp/syntax); pcol matches them with POSIX regex.h.  Most of an
 * expression reads the same in both; what does not is rewritten here into
 * the POSIX extended form that matches the same bytes, so that
 * `--focus 'func\d+'` finds what `go tool pprof -focus 'func\d+'` finds
 * (glibc reads "\d" as "d" and matched nothing, silently):
 *
 *   \d \D \s \S \w \W   (also inside [...])  as classes of bytes
 *   \A \z               ^ $
 *   \Q...\E             its text, literally
 *   \t \n \r \f \v \a \x41 \x{41} \123   the byte (code points < 256)
 *   \. \[ \{ ...        the punctuation itself (also inside [...], where
 *                       POSIX reads a backslash as itself)
 *   {                   a literal brace where it begins no repeat {n},
 *                       {n,}, {n,m} (Go: "{{closure}}" is text)
 *   (?:...)             a group; (?i) at the very start: case folded
 *   x*? x+? x?? x{n}?   Go's lazy repeats: the greedy ones (the same
 *                       matches; POSIX reads "x+?" as "(x+)?")
 *   [...]               Go's class (']' first is a member, escapes, ranges,
 *                       [:alpha:]) as a POSIX bracket of the same bytes
 *
 * Refused with a message, not guessed: other flags or flag groups, \pN
 * and \p{Greek} (Unicode classes), escapes POSIX lacks (\C), code points
 * past 255, a NUL outside a class.  The rest (., *, +, ?, |, ^, $, (...),
 * repeats, \b, \B) is passed as is.  Bytes are matched as bytes (C locale),
 * where Go matches UTF-8 code points: a class of a non-ASCII character
 * matches each of its bytes, and "." or a negated class one byte of a
 * non-ASCII character.  A random differential against Go's regexp (16,000
 * expressions of the forms above on 29 ASCII names) agreed but for 4 with
 * an anchor inside a repeated group or \B, where POSIX and RE2 differ. */
#include "filter.h"
#include "buf.h"
#include <ctype.h>
#include <string.h>

typedef struct gorx {
  const char *s; /* the expression */
  size_t i, n;
  pcol_buf *out;
  const char *why; /* the refusal */
  int icase;       /* (?i): a class holds both cases of its letters */
} gorx;

static int put(gorx *g, const char *p, size_t n) { return pcol_buf_append(g->out, p, n); }

/* Byte c as a POSIX ERE literal. */
static int put_lit(gorx *g, unsigned char c) {
  if (strchr(".[]()*+?{}|^$\\", c) && c) {
    char e[2] = {'\\', (char)c};
    return put(g, e, 2);
  }
  return put(g, (const char *)&c, 1);
}

static int hexval(int c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A 256-bit set of bytes. */
typedef struct bset {
  uint64_t w[4];
} bset;
static void bs_add(bset *b, unsigned c) { b->w[c >> 6] |= (uint64_t)1 << (c & 63); }
static int bs_has(const bset *b, unsigned c) { return (int)(b->w[c >> 6] >> (c & 63) & 1); }
static void bs_range(bset *b, unsigned lo, unsigned hi) {
  for (unsigned c = lo; c <= hi; c++) bs_add(b, c);
}
/* The bytes of Perl class letter k (d s w, upper case: the complement). */
static void bs_perl(bset *b, int k) {
  bset t = {{0}};
  switch (tolower(k)) {
  case 'd': bs_range(&t, '0', '9'); break;
  case 's': /* RE2's \s: [\t\n\f\r ] */
    bs_add(&t, '\t'), bs_add(&t, '\n'), bs_add(&t, '\f'), bs_add(&t, '\r'), bs_add(&t, ' ');
    break;
  default: bs_range(&t, '0', '9'), bs_range(&t, 'A', 'Z'), bs_range(&t, 'a', 'z'), bs_add(&t, '_');
  }
  for (int q = 0; q < 4; q++) b->w[q] |= isupper(k) ? ~t.w[q] : t.w[q];
}

/* The bytes of bracket set b as a POSIX bracket expression (never NUL):
 * ']' first, then the ranges of the other bytes, '[' (which starts nothing
 * before ']' or '^' or '-'), '^' never first, '-' last (or first, when
 * '^' would be). */
static int put_set(gorx *g, const bset *b) {
  int n = 0, only = -1;
  for (unsigned c = 1; c < 256; c++)
    if (bs_has(b, c)) n++, only = (int)c;
  if (n == 0) {
    g->why = "a class that matches nothing";
    return PCOL_EINVAL;
  }
  if (n == 1) return put_lit(g, (unsigned char)only);
  size_t at = g->out->len;
  int rc = put(g, "[", 1);
  if (!rc && bs_has(b, ']')) rc = put(g, "]", 1);
  for (unsigned c = 1; c < 256 && !rc;) {
    if (!bs_has(b, c) || strchr("]-[^", (int)c)) {
      c++;
      continue;
    }
    unsigned e = c;
    while (e + 1 < 256 && bs_has(b, e + 1) && !strchr("]-[^", (int)(e + 1))) e++;
    char r[3] = {(char)c, '-', (char)e};
    rc = e - c >= 2 ? put(g, r, 3) : e > c ? put(g, r, 1) || put(g, r + 2, 1) : put(g, r, 1);
    c = e + 1;
  }
  if (!rc && bs_has(b, '[')) rc = put(g, "[", 1);
  int dash = bs_has(b, '-');
  if (!rc && bs_has(b, '^')) {
    if (g->out->len == at + 1) { /* nothing before it: '-' goes first (n >= 2) */
      rc = put(g, "-", 1);
      dash = 0;
    }
    if (!rc) rc = put(g, "^", 1);
  }
  if (!rc && dash) rc = put(g, "-", 1);
  return rc ? rc : put(g, "]", 1);
}

/* An escape's byte after the backslash at g->i (g->i on the letter), for
 * \t \n ... \x.. \ooo and punctuation: *c, -1 when it is none of these. */
static int esc_byte(gorx *g, int *c, int nul_ok) {
  static const char named[] = "t\tn\nr\rf\fv\va\a"; /* letter, byte */
  int k = (unsigned char)g->s[g->i];
  for (size_t q = 0; k && q + 1 < sizeof named; q += 2)
    if (named[q] == k) {
      *c = named[q + 1];
      g->i++;
      return 0;
    }
  if (k == 'x') {
    unsigned v = 0;
    g->i++;
    if (g->s[g->i] == '{') {
      size_t j = g->i + 1, d = 0;
      while (hexval(g->s[j]) >= 0 && d < 8) v = v * 16 + (unsigned)hexval(g->s[j++]), d++;
      if (!d || g->s[j] != '}') return g->why = "a bad \\x{...} escape", PCOL_EINVAL;
      g->i = j + 1;
    } else {
      if (hexval(g->s[g->i]) < 0 || hexval(g->s[g->i + 1]) < 0) return g->why = "a bad \\x escape", PCOL_EINVAL;
      v = (unsigned)(hexval(g->s[g->i]) * 16 + hexval(g->s[g->i + 1]));
      g->i += 2;
    }
    if ((v == 0 && !nul_ok) || v > 255) return g->why = "a code point that is NUL or past 255", PCOL_EINVAL;
    *c = (int)v;
    return 0;
  }
  if (k >= '0' && k <= '7') { /* Go: octal, up to three digits (\0 included) */
    unsigned v = 0;
    for (int d = 0; d < 3 && g->s[g->i] >= '0' && g->s[g->i] <= '7'; d++) v = v * 8 + (unsigned)(g->s[g->i++] - '0');
    if ((v == 0 && !nul_ok) || v > 255) return g->why = "an octal escape that is NUL or past 255", PCOL_EINVAL;
    *c = (int)v;
    return 0;
  }
  if (k && ispunct(k)) {
    *c = k;
    g->i++;
    return 0;
  }
  *c = -1;
  return 0;
}

/* A class [...] at g->i (on the '['). */
static int go_class(gorx *g) {
  bset b = {{0}};
  int neg = 0, first = 1;
  g->i++;
  if (g->s[g->i] == '^') neg = 1, g->i++;
  for (;;) {
    if (g->i >= g->n) return g->why = "a class without its ']'", PCOL_EINVAL;
    char ch = g->s[g->i];
    if (ch == ']' && !first) break;
    first = 0;
    if (ch == '[' && g->s[g->i + 1] == ':') { /* [:alpha:] */
      const char *e = strstr(g->s + g->i + 2, ":]");
      if (!e) return g->why = "a [: without its :]", PCOL_EINVAL;
      size_t len = (size_t)(e - (g->s + g->i + 2));
      char nm[16];
      int neg2 = 0;
      const char *p = g->s + g->i + 2;
      if (len && *p == '^') neg2 = 1, p++, len--;
      if (len >= sizeof nm) return g->why = "an unknown [:class:]", PCOL_EINVAL;
      memcpy(nm, p, len);
      nm[len] = 0;
      static const char *const names[] = {"alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
                                          "lower", "print", "punct", "space", "upper", "word", "xdigit"};
      int which = -1;
      for (int q = 0; q < 14; q++)
        if (!strcmp(nm, names[q])) which = q;
      if (which < 0) return g->why = "an unknown [:class:]", PCOL_EINVAL;
      bset t = {{0}};
      for (unsigned c = 1; c < 128; c++) {
        int in = which == 0 ? isalnum((int)c) : which == 1 ? isalpha((int)c) : which == 2 ? 1
               : which == 3 ? c == ' ' || c == '\t' : which == 4 ? iscntrl((int)c) : which == 5 ? isdigit((int)c)
               : which == 6 ? isgraph((int)c) : which == 7 ? islower((int)c) : which == 8 ? isprint((int)c)
               : which == 9 ? ispunct((int)c) : which == 10 ? isspace((int)c) : which == 11 ? isupper((int)c)
               : which == 12 ? isalnum((int)c) || c == '_' : isxdigit((int)c);
        if (in) bs_add(&t, c);
      }
      for (int q = 0; q < 4; q++) b.w[q] |= neg2 ? ~t.w[q] : t.w[q];
      g->i = (size_t)(e - g->s) + 2;
      continue;
    }
    int lo;
    if (ch == '\\') {
      g->i++;
      int k = (unsigned char)g->s[g->i];
      if (k && strchr("dDsSwW", k)) {
        bs_perl(&b, k);
        g->i++;
        continue;
      }
      if (k == 'p' || k == 'P') return g->why = "Unicode classes (\\p)", PCOL_EINVAL;
      if (esc_byte(g, &lo, 1)) return PCOL_EINVAL; /* (a NUL in a class: a range's start) */
      if (lo < 0) return g->why = "an escape Go's syntax does not have", PCOL_EINVAL;
    } else {
      lo = (unsigned char)ch;
      g->i++;
    }
    int hi = lo;
    if (g->s[g->i] == '-' && g->s[g->i + 1] && g->s[g->i + 1] != ']') { /* a range */
      g->i++;
      if (g->s[g->i] == '\\') {
        g->i++;
        if (esc_byte(g, &hi, 1)) return PCOL_EINVAL;
        if (hi < 0) return g->why = "a range that ends in a class", PCOL_EINVAL;
      } else {
        hi = (unsigned char)g->s[g->i++];
      }
      if (hi < lo) return g->why = "a range whose end comes before its start", PCOL_EINVAL;
    }
    bs_range(&b, (unsigned)lo, (unsigned)hi);
  }
  g->i++; /* ']' */
  /* (?i): Go folds the class before it negates it ((?i)[^a-z] is no
   * letter); glibc's REG_ICASE does not fold a negated bracket */
  for (unsigned c = 'A'; g->icase && c <= 'Z'; c++)
    if (bs_has(&b, c) || bs_has(&b, c + 32)) bs_add(&b, c), bs_add(&b, c + 32);
  if (neg)
    for (int q = 0; q < 4; q++) b.w[q] = ~b.w[q];
  b.w[0] &= ~(uint64_t)1; /* never NUL */
  return put_set(g, &b);
}

/* A '{' at g->i begins a repeat {n}, {n,} or {n,m} (Go: else it is text). */
static int repeat_at(const gorx *g) {
  size_t j = g->i + 1;
  if (!isdigit((unsigned char)g->s[j])) return 0;
  while (isdigit((unsigned char)g->s[j])) j++;
  if (g->s[j] == ',') {
    j++;
    while (isdigit((unsigned char)g->s[j])) j++;
  }
  return g->s[j] == '}';
}

int pcol_rx_from_go(const char *re, pcol_buf *out, int *icase, const char **why) {
  gorx g = {re, 0, strlen(re), out, NULL, 0};
  *icase = 0;
  out->len = 0;
  int rc = PCOL_OK;
  if (!strncmp(re, "(?i)", 4)) *icase = g.icase = 1, g.i = 4;
  while (!rc && g.i < g.n) {
    char ch = re[g.i];
    if (ch == '[') {
      rc = go_class(&g);
    } else if (ch == '{') {
      if (repeat_at(&g)) {
        size_t j = g.i;
        while (re[j] != '}') j++;
        rc = put(&g, re + g.i, j + 1 - g.i);
        g.i = j + 1;
        if (re[g.i] == '?') g.i++; /* lazy: the same matches (see below) */
      } else {
        rc = put(&g, "\\{", 2);
        g.i++;
      }
    } else if (ch == '}') { /* a '}' that closes no repeat: text */
      rc = put(&g, "\\}", 2);
      g.i++;
    } else if (ch == '(' && re[g.i + 1] == '?') {
      if (re[g.i + 2] == ':') {
        rc = put(&g, "(", 1);
        g.i += 3;
      } else {
        g.why = "flags or named groups past the start (pcol reads (?i) at the start only)";
        rc = PCOL_EINVAL;
      }
    } else if (ch == '\\') {
      g.i++;
      int k = (unsigned char)re[g.i];
      if (k && strchr("dDsSwW", k)) {
        bset b = {{0}};
        bs_perl(&b, k);
        b.w[0] &= ~(uint64_t)1;
        rc = put_set(&g, &b);
        g.i++;
      } else if (k == 'A') {
        rc = put(&g, "^", 1), g.i++;
      } else if (k == 'z') {
        rc = put(&g, "$", 1), g.i++;
      } else if (k == 'b' || k == 'B') {
        char e[2] = {'\\', (char)k};
        rc = put(&g, e, 2), g.i++;
      } else if (k == 'Q') {
        g.i++;
        const char *e = strstr(re + g.i, "\\E");
        size_t end = e ? (size_t)(e - re) : g.n;
        for (; !rc && g.i < end; g.i++) rc = put_lit(&g, (unsigned char)re[g.i]);
        if (e) g.i += 2;
      } else if (k == 'p' || k == 'P') {
        g.why = "Unicode classes (\\p)";
        rc = PCOL_EINVAL;
      } else if (!k) {
        g.why = "a trailing backslash";
        rc = PCOL_EINVAL;
      } else {
        int c;
        rc = esc_byte(&g, &c, 0);
        if (!rc && c < 0) {
          g.why = "an escape Go's syntax does not have";
          rc = PCOL_EINVAL;
        }
        if (!rc) rc = put_lit(&g, (unsigned char)c);
      }
    } else {
      rc = put(&g, &ch, 1);
      g.i++;
      /* Go's lazy repeats (x*? x+? x?? x{n,m}?) match what the greedy ones
       * match (only which match is found first differs, and pcol asks
       * whether there is one); POSIX reads "x+?" as "(x+)?" */
      if ((ch == '*' || ch == '+' || ch == '?') && re[g.i] == '?') g.i++;
    }
  }
  if (!rc) rc = put(&g, "", 1); /* the NUL */
  if (rc && !g.why) g.why = "out of memory";
  *why = g.why;
  return rc;
}
