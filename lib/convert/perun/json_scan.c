/* json_scan.c — see json_scan.h.  Iterative (no recursion), so hostile
 * nesting costs a bounded bit stack, not the C stack. */
#include "json_scan.h"
#include "json_pull.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 2048 /* jansson's JSON_PARSER_MAX_DEPTH, counted per value */

static int fail(pcol_jscan *s, size_t at, const char *why) {
  s->err = why;
  s->err_pos = at;
  return -1;
}

void pcol_js_init(pcol_jscan *s, const char *p, size_t n) {
  memset(s, 0, sizeof *s);
  s->p = p;
  s->n = n;
}

static void ws(pcol_jscan *s) {
  while (s->pos < s->n) {
    char c = s->p[s->pos];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
    s->pos++;
  }
}

int pcol_js_peek(pcol_jscan *s) {
  ws(s);
  return s->pos < s->n ? (unsigned char)s->p[s->pos] : -1;
}

/* hex4 and the UTF-8 writer are json_pull.c's, what a valid UTF-8 sequence
 * is pcol_utf8_len's: one rule for both JSON readers. */
#define hex4 pcol_json_hex4

/* s->pos stands on the opening quote.  On success it stands after the
 * closing one; *escaped tells whether a backslash was seen. */
static int string(pcol_jscan *s, int *escaped) {
  const unsigned char *p = (const unsigned char *)s->p;
  size_t i = s->pos + 1, n = s->n;
  int esc = 0;
  for (;;) {
    while (i < n && p[i] >= 0x20 && p[i] < 0x80 && p[i] != '"' && p[i] != '\\') i++;
    if (i >= n) return fail(s, n, "unexpected end of input in a string");
    unsigned c = p[i];
    if (c == '"') break;
    if (c < 0x20) return fail(s, i, "control character in a string");
    if (c >= 0x80) {
      size_t l = pcol_utf8_len((const char *)p + i, n - i);
      if (!l) return fail(s, i, "invalid UTF-8 in a string");
      i += l;
      continue;
    }
    /* backslash */
    esc = 1;
    if (i + 1 >= n) return fail(s, n, "unexpected end of input in a string");
    char e = (char)p[i + 1];
    if (e != 'u') {
      if (e == 0 || !strchr("\"\\/bfnrt", e)) return fail(s, i, "invalid escape in a string");
      i += 2;
      continue;
    }
    unsigned u, lo;
    if (i + 6 > n || hex4((const char *)p + i + 2, &u)) return fail(s, i, "invalid \\u escape");
    if (u == 0) return fail(s, i, "\\u0000 is not allowed");
    if (u >= 0xDC00 && u <= 0xDFFF) return fail(s, i, "invalid Unicode: lone low surrogate");
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 12 > n || p[i + 6] != '\\' || p[i + 7] != 'u' ||
          hex4((const char *)p + i + 8, &lo) || lo < 0xDC00 || lo > 0xDFFF)
        return fail(s, i, "invalid Unicode: unpaired high surrogate");
      i += 6;
    }
    i += 6;
  }
  s->pos = i + 1;
  if (escaped) *escaped = esc;
  return 0;
}

static int digits(pcol_jscan *s) {
  size_t b = s->pos;
  while (s->pos < s->n && s->p[s->pos] >= '0' && s->p[s->pos] <= '9') s->pos++;
  return s->pos > b ? 0 : fail(s, s->pos, "invalid number");
}

static int number(pcol_jscan *s) {
  if (s->p[s->pos] == '-') s->pos++;
  if (s->pos < s->n && s->p[s->pos] == '0') s->pos++;
  else if (digits(s)) return -1;
  if (s->pos < s->n && s->p[s->pos] == '.') {
    s->pos++;
    if (digits(s)) return -1;
  }
  if (s->pos < s->n && (s->p[s->pos] == 'e' || s->p[s->pos] == 'E')) {
    s->pos++;
    if (s->pos < s->n && (s->p[s->pos] == '+' || s->p[s->pos] == '-')) s->pos++;
    if (digits(s)) return -1;
  }
  return 0;
}

static int literal(pcol_jscan *s, const char *w) {
  size_t l = strlen(w);
  if (s->n - s->pos < l || memcmp(s->p + s->pos, w, l)) return fail(s, s->pos, "invalid literal");
  s->pos += l;
  return 0;
}

/* A key and its colon; the cursor stands on the key's quote (after ws). */
static int key_colon(pcol_jscan *s, pcol_jkey *k) {
  if (s->pos >= s->n || s->p[s->pos] != '"') return fail(s, s->pos, "expected a string key");
  size_t b = s->pos;
  int esc;
  if (string(s, &esc)) return -1;
  if (k) {
    k->start = b + 1;
    k->len = s->pos - b - 2;
    k->escaped = esc;
  }
  ws(s);
  if (s->pos >= s->n || s->p[s->pos] != ':') return fail(s, s->pos, "expected ':'");
  s->pos++;
  return 0;
}

int pcol_js_value(pcol_jscan *s, size_t *start, size_t *end) {
  uint8_t stack[MAX_DEPTH / 8]; /* bit set = object */
  size_t depth = 0;              /* containers open inside this value */
  ws(s);
  *start = s->pos;
  for (;;) {
    /* a value, at nesting depth s->depth + depth + 1 */
    ws(s);
    if (s->pos >= s->n) return fail(s, s->n, "unexpected end of input");
    if (s->depth + depth >= MAX_DEPTH) return fail(s, s->pos, "maximum nesting depth reached");
    char c = s->p[s->pos];
    if (c == '{' || c == '[') {
      if (c == '{') stack[depth / 8] |= (uint8_t)(1u << (depth % 8));
      else stack[depth / 8] &= (uint8_t) ~(1u << (depth % 8));
      depth++;
      s->pos++;
      ws(s);
      if (s->pos < s->n && s->p[s->pos] == (c == '{' ? '}' : ']')) {
        s->pos++;
        depth--;
      } else if (c == '{') {
        if (key_colon(s, NULL)) return -1;
        continue;
      } else {
        continue;
      }
    } else if (c == '"') {
      if (string(s, NULL)) return -1;
    } else if (c == '-' && s->pos + 1 < s->n && s->p[s->pos + 1] == 'I') {
      if (literal(s, "-Infinity")) return -1; /* Python's dialect (json_scan.h) */
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      if (number(s)) return -1;
    } else if (c == 'N') {
      if (literal(s, "NaN")) return -1;
    } else if (c == 'I') {
      if (literal(s, "Infinity")) return -1;
    } else if (c == 't') {
      if (literal(s, "true")) return -1;
    } else if (c == 'f') {
      if (literal(s, "false")) return -1;
    } else if (c == 'n') {
      if (literal(s, "null")) return -1;
    } else {
      return fail(s, s->pos, "unexpected character");
    }
    /* after a value: close containers or go on to the next member */
    for (;;) {
      if (depth == 0) {
        *end = s->pos;
        return 0;
      }
      int obj = (stack[(depth - 1) / 8] >> ((depth - 1) % 8)) & 1;
      ws(s);
      if (s->pos >= s->n) return fail(s, s->n, "unexpected end of input");
      char d = s->p[s->pos];
      if (d == ',') {
        s->pos++;
        ws(s);
        if (obj && key_colon(s, NULL)) return -1;
        break;
      }
      if (d != (obj ? '}' : ']')) return fail(s, s->pos, obj ? "expected ',' or '}'" : "expected ',' or ']'");
      s->pos++;
      depth--;
    }
  }
}

int pcol_js_end(pcol_jscan *s) {
  ws(s);
  return s->pos == s->n ? 0 : fail(s, s->pos, "end of input expected");
}

int pcol_js_begin(pcol_jscan *s, char open, pcol_jiter *it) {
  ws(s);
  if (s->pos >= s->n || s->p[s->pos] != open)
    return fail(s, s->pos, open == '{' ? "expected '{'" : "expected '['");
  if (s->depth >= MAX_DEPTH) return fail(s, s->pos, "maximum nesting depth reached");
  s->pos++;
  s->depth++;
  it->first = 1;
  it->close = open == '{' ? '}' : ']';
  return 0;
}

int pcol_js_next(pcol_jscan *s, pcol_jiter *it, pcol_jkey *key) {
  ws(s);
  if (s->pos >= s->n) return fail(s, s->n, "unexpected end of input");
  if (s->p[s->pos] == it->close && it->first) {
    s->pos++;
    s->depth--;
    return 0;
  }
  if (!it->first) {
    char d = s->p[s->pos];
    if (d == it->close) {
      s->pos++;
      s->depth--;
      return 0;
    }
    if (d != ',') return fail(s, s->pos, it->close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    s->pos++;
    ws(s);
  }
  it->first = 0;
  if (it->close == '}') {
    pcol_jkey k;
    if (key_colon(s, key ? key : &k)) return -1;
  }
  return 1;
}

char *pcol_js_key_decode(const pcol_jscan *s, const pcol_jkey *k, size_t *len) {
  const char *p = s->p + k->start;
  char *out = malloc(k->len + 1), *o = out;
  if (!out) return NULL;
  for (size_t i = 0; i < k->len;) {
    if (p[i] != '\\') {
      *o++ = p[i++];
      continue;
    }
    char e = p[i + 1];
    i += 2;
    switch (e) {
    case 'b': *o++ = '\b'; break;
    case 'f': *o++ = '\f'; break;
    case 'n': *o++ = '\n'; break;
    case 'r': *o++ = '\r'; break;
    case 't': *o++ = '\t'; break;
    case 'u': {
      /* the key was checked when it was read: 4 hex digits, pairs paired */
      unsigned u = 0, lo = 0;
      hex4(p + i, &u);
      i += 4;
      uint32_t cp = u;
      if (u >= 0xD800 && u <= 0xDBFF) {
        hex4(p + i + 2, &lo);
        i += 6;
        cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
      }
      o += pcol_json_utf8_put(o, cp);
      break;
    }
    default: *o++ = e; break; /* " \ / */
    }
  }
  *o = 0;
  if (len) *len = (size_t)(o - out);
  return out;
}

int pcol_js_key_is(const pcol_jscan *s, const pcol_jkey *k, const char *lit) {
  size_t l = strlen(lit);
  if (!k->escaped) return k->len == l && !memcmp(s->p + k->start, lit, l);
  size_t dl;
  char *d = pcol_js_key_decode(s, k, &dl);
  int eq = d && dl == l && !memcmp(d, lit, l);
  free(d);
  return eq;
}

void pcol_js_line_col(const char *p, size_t n, size_t pos, size_t *line, size_t *col) {
  size_t ln = 1, bol = 0;
  if (pos > n) pos = n;
  for (size_t i = 0; i < pos; i++)
    if (p[i] == '\n') ln++, bol = i + 1;
  *line = ln;
  *col = pos - bol + 1;
}
