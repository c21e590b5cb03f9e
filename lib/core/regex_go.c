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
 *   \. \[ \{ \  ...     an ASCII byte but a letter or digit: itself (also
 *                       inside [...], where POSIX reads a backslash as
 *                       itself); \1 to \7 alone (backreferences) refused
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
 * past 255, a NUL outside a class.  Refused as Go refuses them
 * (regexp/syntax, parse.go): a repeat count past 1000, or nested repeats
 * whose counts multiply past 1000 ("invalid repeat count"); a repetition
 * operator with nothing before it, or right after another ("a**",
 * "a{2}{3}"); a ')' that closes nothing, a '(' never closed; groups nested
 * deeper than 1000 (Go: a parse tree higher than 1000).  A '{' whose
 * number has a leading zero begins no repeat ("a{01}" is text), as in Go.
 * Refused by pcol alone (glibc's regcomp would exhaust the stack or
 * memory; Go allows an expression up to 3.3 million instructions):
 * one that, its counted repeats expanded, holds more than RX_MAX_NODES
 * pieces or more than RX_MAX_EPS operators that can match nothing
 * (| ? * + groups, a counted repeat's optional copies), whose epsilon
 * closures regcomp computes in time and memory quadratic in their number
 * (8000 "a?" take it 500 MB).  The rest (., *, +, ?, |, ^, $, (...),
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

/* pcol's bounds on what regcomp is given (see above), and Go's. */
#define RX_MAX_NODES 65536u
#define RX_MAX_EPS 4096u
#define RX_MAX_DEPTH 1000 /* Go's maxHeight */
#define RX_MAX_REPEAT 1000 /* Go's repeat count, alone or multiplied */

/* The size of the expression read so far, as regcomp will build it: every
 * piece (literal, class, anchor, operator, group's two ends) counts one
 * node, counted repeats multiply their operand; "eps" counts the pieces
 * that can match nothing.  An item is what a repetition operator applies
 * to: its nodes, its eps and its repeat product (Go's repeatIsValid). */
typedef struct rx_item {
  uint64_t nodes, eps;
  uint32_t rep;
} rx_item;
typedef struct rx_level { /* an open group */
  uint64_t nodes, eps;    /* the totals when it opened */
  uint32_t rep;           /* the largest repeat product inside */
} rx_level;

typedef struct gorx {
  const char *s; /* the expression */
  size_t i, n;
  pcol_buf *out;
  const char *why; /* the refusal */
  int icase;       /* (?i): a class holds both cases of its letters */
  uint64_t nodes, eps; /* the totals so far */
  rx_item last;        /* the item a repetition operator would repeat */
  int has_last;        /* there is one (not at the start, after '(' or '|') */
  int after_rep;       /* the last thing read was a repetition operator */
  int depth;           /* open groups */
  rx_level lv[RX_MAX_DEPTH + 1]; /* lv[0]: the whole expression */
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

/* Under REG_ICASE glibc folds a range's ends before it compares them
 * ("[_-a]" and "[Z-a]" are "Invalid range end"): then no range crosses
 * from one of A-Z, a-z and the other bytes into another. */
static int icase_cut(unsigned c) { return c == 'A' || c == 'Z' + 1 || c == 'a' || c == 'z' + 1; }

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
    while (e + 1 < 256 && bs_has(b, e + 1) && !strchr("]-[^", (int)(e + 1)) && !(g->icase && icase_cut(e + 1))) e++;
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
      size_t j = g->i + 1, d = 0; /* Go: any number of digits, at most 0x10FFFF */
      for (; hexval(g->s[j]) >= 0; j++, d++) v = v > 0x10FFFF ? v : v * 16 + (unsigned)hexval(g->s[j]);
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
  if (k >= '1' && k <= '7' && !(g->s[g->i + 1] >= '0' && g->s[g->i + 1] <= '7'))
    return g->why = "a backreference (\\1 to \\7 alone), which Go's syntax does not have", PCOL_EINVAL;
  if (k >= '0' && k <= '7') { /* Go: octal, up to three digits (\0 included) */
    unsigned v = 0;
    for (int d = 0; d < 3 && g->s[g->i] >= '0' && g->s[g->i] <= '7'; d++) v = v * 8 + (unsigned)(g->s[g->i++] - '0');
    if ((v == 0 && !nul_ok) || v > 255) return g->why = "an octal escape that is NUL or past 255", PCOL_EINVAL;
    *c = (int)v;
    return 0;
  }
  if (k && k < 0x80 && !isalnum(k)) { /* Go: an ASCII byte but a letter or digit is itself */
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

/* Go's parseInt: digits at s[*j] without a leading zero; their value, or
 * -1 past 10^8; -2 when there are none (no repeat). */
static long rx_int(const char *s, size_t *j) {
  if (!isdigit((unsigned char)s[*j])) return -2;
  if (s[*j] == '0' && isdigit((unsigned char)s[*j + 1])) return -2;
  long v = 0;
  for (; isdigit((unsigned char)s[*j]); ++*j) v = v < 0 || v >= 100000000 ? -1 : v * 10 + (s[*j] - '0');
  return v;
}

/* A '{' at g->i begins a repeat {n}, {n,} or {n,m} (Go's parseRepeat: else
 * it is text): 1 with *min, *max (-1: none) and *end past the '}'. */
static int repeat_at(const gorx *g, long *min, long *max, size_t *end) {
  size_t j = g->i + 1;
  *min = rx_int(g->s, &j);
  if (*min == -2) return 0;
  *max = *min;
  if (g->s[j] == ',') {
    j++;
    if (g->s[j] == '}') {
      *max = -1;
    } else {
      *max = rx_int(g->s, &j);
      if (*max == -2) return 0;
      if (*max == -1) *min = -1; /* too big */
    }
  }
  if (g->s[j] != '}') return 0;
  *end = j + 1;
  return 1;
}

/* The totals grew by (dn, de); refused past pcol's bounds. */
static int rx_grow(gorx *g, uint64_t dn, uint64_t de) {
  g->nodes += dn, g->eps += de;
  if (g->nodes > RX_MAX_NODES || g->eps > RX_MAX_EPS) {
    g->why = g->eps > RX_MAX_EPS ? "more than 4096 operators that can match nothing (| ? * + groups, optional "
                                   "copies), counted repeats expanded: too large for POSIX regcomp"
                                 : "more than 65536 pieces, counted repeats expanded: too large for POSIX regcomp";
    return PCOL_EINVAL;
  }
  return PCOL_OK;
}

/* The last item is complete: its repeat product counts in its group's. */
static void rx_commit(gorx *g) {
  if (g->has_last && g->last.rep > g->lv[g->depth].rep) g->lv[g->depth].rep = g->last.rep;
}

/* A new item of (nodes, eps) and repeat product 1: a literal, a class, an
 * anchor. */
static int rx_atom(gorx *g, uint64_t nodes, uint64_t eps) {
  rx_commit(g);
  g->last = (rx_item){nodes, eps, 1};
  g->has_last = 1, g->after_rep = 0;
  return rx_grow(g, nodes, eps);
}

/* An anchor (^ $ \b \B), g->i past it.  Go repeats one ("^*", "\b+"),
 * regcomp refuses to: then it goes in a group, "(^)*". */
static int rx_anchor(gorx *g, const char *a, size_t len) {
  size_t j = g->i;
  while (!strncmp(g->s + j, "\\Q\\E", 4) || !strncmp(g->s + j, "(?)", 3)) j += g->s[j] == '(' ? 3 : 4;
  int grp = g->s[j] && strchr("*+?{", g->s[j]);
  int rc = grp ? put(g, "(", 1) : 0;
  if (!rc) rc = put(g, a, len);
  if (!rc && grp) rc = put(g, ")", 1);
  return rc ? rc : rx_atom(g, grp ? 3 : 1, grp ? 2 : 0);
}

/* A repetition operator ahead: there must be an item before it, and no
 * repetition operator right before it (Go's parser, with Perl's flags). */
static int rx_can_repeat(gorx *g) {
  if (!g->has_last) return g->why = "missing argument to repetition operator", PCOL_EINVAL;
  if (g->after_rep) return g->why = "invalid nested repetition operator", PCOL_EINVAL;
  return PCOL_OK;
}

/* The last item repeated: copies of it and `opt` optional pieces; its
 * repeat product times m (Go's repeatIsValid: 0 when max is 0, which Go
 * does not look inside). */
static int rx_repeat(gorx *g, uint64_t copies, uint64_t opt, long m, int max0) {
  rx_item it = g->last;
  uint64_t n = it.nodes * copies + opt, e = it.eps * copies + opt;
  uint32_t rep = it.rep;
  if (max0) {
    rep = 1;
  } else if (m > 0) {
    if ((uint64_t)m * rep > RX_MAX_REPEAT) return g->why = "invalid repeat count (nested repeats past 1000)", PCOL_EINVAL;
    rep = (uint32_t)m * rep;
  }
  g->nodes -= it.nodes, g->eps -= it.eps;
  g->last = (rx_item){n, e, rep};
  g->after_rep = 1;
  return rx_grow(g, n, e);
}

int pcol_rx_from_go(const char *re, pcol_buf *out, int *icase, const char **why) {
  gorx *g = calloc(1, sizeof *g); /* (its levels: 24 KiB) */
  if (!g) {
    *why = "out of memory";
    return PCOL_ENOMEM;
  }
  *g = (gorx){.s = re, .n = strlen(re), .out = out};
  *icase = 0;
  out->len = 0;
  int rc = PCOL_OK;
  if (!strncmp(re, "(?i)", 4)) *icase = g->icase = 1, g->i = 4;
  g->lv[0].rep = 1;
  while (!rc && g->i < g->n) {
    char ch = re[g->i];
    long min, max;
    size_t end;
    if (ch == '[') {
      rc = go_class(g);
      if (!rc) rc = rx_atom(g, 1, 0);
    } else if (ch == '{' && repeat_at(g, &min, &max, &end)) {
      if (min < 0 || min > RX_MAX_REPEAT || max > RX_MAX_REPEAT || (max >= 0 && min > max)) {
        g->why = "invalid repeat count (Go allows 0 to 1000, the first not above the second)";
        rc = PCOL_EINVAL;
      }
      if (!rc) rc = rx_can_repeat(g);
      if (!rc) rc = put(g, re + g->i, end - g->i);
      g->i = end;
      if (re[g->i] == '?') g->i++; /* lazy: the same matches (see below) */
      /* x{n,m}: m copies, m - n of them optional; x{n,}: n + 1, one a star */
      if (!rc)
        rc = max >= 0 ? rx_repeat(g, max ? (uint64_t)max : 1, (uint64_t)(max - min), max, max == 0)
                      : rx_repeat(g, (uint64_t)min + 1, 1, min, 0);
    } else if (ch == '{') { /* a '{' that begins no repeat: text */
      rc = put(g, "\\{", 2);
      if (!rc) rc = rx_atom(g, 1, 0);
      g->i++;
    } else if (ch == '}') { /* a '}' that closes no repeat: text */
      rc = put(g, "\\}", 2);
      if (!rc) rc = rx_atom(g, 1, 0);
      g->i++;
    } else if (!strncmp(re + g->i, "(?)", 3)) { /* Go: no flags, nothing */
      g->i += 3;
      g->after_rep = 0;
    } else if (ch == '(') {
      if (re[g->i + 1] == '?' && re[g->i + 2] != ':') {
        g->why = "flags or named groups past the start (pcol reads (?i) at the start only)";
        rc = PCOL_EINVAL;
      } else if (g->depth == RX_MAX_DEPTH) {
        g->why = "expression nests too deeply (groups past 1000 deep)";
        rc = PCOL_EINVAL;
      } else {
        rc = put(g, "(", 1);
        g->i += re[g->i + 1] == '?' ? 3 : 1;
        rx_commit(g);
        g->lv[++g->depth] = (rx_level){g->nodes, g->eps, 1};
        g->has_last = 0, g->after_rep = 0;
      }
    } else if (ch == ')') {
      if (!g->depth) {
        g->why = "unexpected )";
        rc = PCOL_EINVAL;
      } else {
        rx_commit(g);
        rx_level l = g->lv[g->depth--];
        rc = put(g, ")", 1);
        g->i++;
        if (!rc) rc = rx_grow(g, 2, 2);
        g->last = (rx_item){g->nodes - l.nodes, g->eps - l.eps, l.rep};
        g->has_last = 1, g->after_rep = 0;
      }
    } else if (ch == '|') {
      rc = put(g, "|", 1);
      g->i++;
      rx_commit(g);
      if (!rc) rc = rx_grow(g, 1, 1);
      g->has_last = 0, g->after_rep = 0;
    } else if (ch == '*' || ch == '+' || ch == '?') {
      rc = rx_can_repeat(g);
      if (!rc) rc = put(g, &ch, 1);
      g->i++;
      /* Go's lazy repeats (x*? x+? x?? x{n,m}?) match what the greedy ones
       * match (only which match is found first differs, and pcol asks
       * whether there is one); POSIX reads "x+?" as "(x+)?" */
      if (re[g->i] == '?') g->i++;
      if (!rc) rc = rx_repeat(g, 1, 1, 0, 0); /* (not Go's OpRepeat) */
    } else if (ch == '\\') {
      g->i++;
      int k = (unsigned char)re[g->i];
      if (k && strchr("dDsSwW", k)) {
        bset b = {{0}};
        bs_perl(&b, k);
        b.w[0] &= ~(uint64_t)1;
        rc = put_set(g, &b);
        g->i++;
      } else if (k == 'A' || k == 'z') {
        g->i++;
        rc = rx_anchor(g, k == 'A' ? "^" : "$", 1);
        continue;
      } else if (k == 'b' || k == 'B') {
        char e[2] = {'\\', (char)k};
        g->i++;
        rc = rx_anchor(g, e, 2);
        continue;
      } else if (k == 'Q') {
        g->i++;
        const char *e = strstr(re + g->i, "\\E");
        size_t qend = e ? (size_t)(e - re) : g->n;
        for (; !rc && g->i < qend; g->i++) {
          rc = put_lit(g, (unsigned char)re[g->i]);
          if (!rc) rc = rx_atom(g, 1, 0);
        }
        if (e) g->i += 2;
        g->after_rep = 0; /* (Go: "a*\Q\E*" repeats the star) */
        continue;
      } else if (k == 'p' || k == 'P') {
        g->why = "Unicode classes (\\p)";
        rc = PCOL_EINVAL;
      } else if (!k) {
        g->why = "a trailing backslash";
        rc = PCOL_EINVAL;
      } else {
        int c;
        rc = esc_byte(g, &c, 0);
        if (!rc && c < 0) {
          g->why = "an escape Go's syntax does not have";
          rc = PCOL_EINVAL;
        }
        if (!rc) rc = put_lit(g, (unsigned char)c);
      }
      if (!rc) rc = rx_atom(g, 1, 0);
    } else if (ch == '^' || ch == '$') {
      g->i++;
      rc = rx_anchor(g, &ch, 1);
    } else {
      rc = put(g, &ch, 1);
      g->i++;
      if (!rc) rc = rx_atom(g, 1, 0);
    }
  }
  if (!rc && g->depth) {
    g->why = "missing closing )";
    rc = PCOL_EINVAL;
  }
  if (!rc) rc = put(g, "", 1); /* the NUL */
  if (rc && !g->why) g->why = "out of memory";
  *why = g->why;
  free(g);
  return rc;
}
