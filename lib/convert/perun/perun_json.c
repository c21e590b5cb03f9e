/* perun_json.c — see perun_json.h.  Loading costs one memchr pass over the
 * text when it holds no 'N' and no 'I' (almost always), else one pass that
 * tracks strings and containers, and a copy only when a token is there.
 * Dumping filters jansson's output stream: a string is held back while it
 * can still be one of the three token strings (at most 17 bytes). */
#include "pcol.h"
#include "perun_json.h"
#include "buf.h"      /* pcol_buf_append, pcol_buf, pcol_buf_free */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 2056 /* beyond jansson's limit (2048): let jansson refuse */
#define GROWTH 8      /* "\u0000 and " around a token */

static const struct {
  const char *tok, *str, *dumped; /* bare, as a C string, as jansson writes it */
  size_t len, slen, dlen;
} toks[] = {
    {"NaN", PERUN_JSON_NAN, "\"\\u0000NaN\"", 3, 4, 11},
    {"Infinity", PERUN_JSON_INF, "\"\\u0000Infinity\"", 8, 9, 16},
    {"-Infinity", PERUN_JSON_NINF, "\"\\u0000-Infinity\"", 9, 10, 17},
};
#define NTOKS 3

int perun_json_is_token(const char *s, size_t n) {
  for (int k = 0; k < NTOKS; k++)
    if (n == toks[k].slen && !memcmp(s, toks[k].str, n)) return 1;
  return 0;
}

static int token_at(const char *p, size_t n, size_t i) {
  for (int k = 0; k < NTOKS; k++)
    if (n - i >= toks[k].len && !memcmp(p + i, toks[k].tok, toks[k].len)) return k;
  return -1;
}

/* Walks the text outside strings.  Returns the number of tokens in a
 * value's place (and writes the rewritten text to out, when given, and the
 * tokens' offsets to at); -1 when a string holds \u0000 or the nesting is
 * too deep (jansson then gives its own verdict on the text as it is). */
static long long scan(const char *p, size_t n, char *out, size_t *at) {
  uint8_t obj[MAX_NEST / 8];
  size_t depth = 0, o = 0;
  long long ntok = 0;
  int want_key = 0;
  for (size_t i = 0; i < n;) {
    char c = p[i];
    if (c == '"') {
      size_t b = i++;
      while (i < n && p[i] != '"') {
        if (p[i] == '\\') {
          if (i + 5 < n && !memcmp(p + i + 1, "u0000", 5)) return -1;
          i++;
        }
        i++;
      }
      if (i < n) i++;
      if (out) memcpy(out + o, p + b, i - b), o += i - b;
      continue;
    }
    int k = -1;
    if ((c == 'N' || c == 'I' || c == '-') && !want_key && (k = token_at(p, n, i)) >= 0) {
      if (out) {
        memcpy(out + o, toks[k].dumped, toks[k].dlen);
        o += toks[k].dlen;
        at[ntok] = i;
      }
      ntok++;
      i += toks[k].len;
      continue;
    }
    if (c == '{' || c == '[') {
      if (depth >= MAX_NEST) return -1;
      if (c == '{') obj[depth / 8] |= (uint8_t)(1u << (depth % 8));
      else obj[depth / 8] &= (uint8_t) ~(1u << (depth % 8));
      depth++;
      want_key = c == '{';
    } else if (c == '}' || c == ']') {
      if (depth) depth--;
      want_key = 0;
    } else if (c == ',') {
      want_key = depth && ((obj[(depth - 1) / 8] >> ((depth - 1) % 8)) & 1);
    } else if (c == ':') {
      want_key = 0;
    }
    if (out) out[o++] = c;
    i++;
  }
  return ntok;
}

/* An error position in the rewritten text, as a position in the original. */
static size_t map_back(const char *text, size_t n, size_t pos, const size_t *at, long long ntok) {
  for (long long k = 0; k < ntok; k++) {
    size_t start = at[k] + (size_t)k * GROWTH; /* where token k begins in the copy */
    if (pos < start) return pos - (size_t)k * GROWTH;
    if (pos < start + toks[token_at(text, n, at[k])].dlen) return at[k]; /* inside its string */
  }
  return pos - (size_t)ntok * GROWTH;
}

json_t *perun_json_loadb(const char *text, size_t n, size_t flags, json_error_t *err) {
  if (!memchr(text, 'N', n) && !memchr(text, 'I', n)) return json_loadb(text, n, flags, err);
  long long ntok = scan(text, n, NULL, NULL);
  if (ntok <= 0) return json_loadb(text, n, flags, err);
  json_error_t je;
  char *copy = malloc(n + (size_t)ntok * GROWTH + 1);
  size_t *at = malloc((size_t)ntok * sizeof *at);
  if (!copy || !at) {
    free(copy);
    free(at);
    if (err) {
      memset(err, 0, sizeof *err);
      snprintf(err->text, sizeof err->text, "out of memory");
      err->position = 0;
    }
    return NULL;
  }
  scan(text, n, copy, at);
  json_t *v = json_loadb(copy, n + (size_t)ntok * GROWTH, flags | JSON_ALLOW_NUL, &je);
  if (!v && err) {
    *err = je;
    if (je.position >= 0) {
      size_t pos = map_back(text, n, (size_t)je.position, at, ntok), bol = pos;
      while (bol > 0 && text[bol - 1] != '\n') bol--;
      err->position = (int)pos;
      err->column = (int)(pos - bol);
    }
  }
  free(copy);
  free(at);
  return v;
}

/* ------------------------------------------------------------ dumping */

typedef struct tokw {
  int (*sink)(const char *, size_t, void *);
  void *ctx;
  int st;        /* 0 outside strings, 1 string held back, 2 in a string, 3 after a backslash */
  char held[24]; /* st 1: the string so far, while it may be a token's */
  size_t nheld;
  char out[4096];
  size_t nout;
  int failed;
} tokw;

static void flush_out(tokw *w) {
  if (w->nout && !w->failed && w->sink(w->out, w->nout, w->ctx)) w->failed = 1;
  w->nout = 0;
}
static void emit(tokw *w, char c) {
  if (w->nout == sizeof w->out) flush_out(w);
  w->out[w->nout++] = c;
}
/* one byte inside a string that is not a token's */
static void in_string(tokw *w, char c) {
  emit(w, c);
  if (w->st == 3) w->st = 2;
  else if (c == '\\') w->st = 3;
  else if (c == '"') w->st = 0;
}

static void filter(tokw *w, char c) {
  if (w->st == 0) {
    if (c == '"') {
      w->st = 1;
      w->held[0] = c;
      w->nheld = 1;
    } else {
      emit(w, c);
    }
    return;
  }
  if (w->st != 1) {
    in_string(w, c);
    return;
  }
  w->held[w->nheld++] = c;
  int prefix = 0;
  for (int k = 0; k < NTOKS; k++) {
    if (w->nheld > toks[k].dlen || memcmp(w->held, toks[k].dumped, w->nheld)) continue;
    if (w->nheld == toks[k].dlen) { /* the whole string: the bare token */
      for (size_t i = 0; i < toks[k].len; i++) emit(w, toks[k].tok[i]);
      w->st = 0;
      return;
    }
    prefix = 1;
  }
  if (prefix) return;
  /* not a token's string: let it through */
  emit(w, '"');
  w->st = 2;
  for (size_t i = 1; i < w->nheld; i++) in_string(w, w->held[i]);
}

static int filter_cb(const char *buf, size_t n, void *data) {
  tokw *w = data;
  for (size_t i = 0; i < n; i++) filter(w, buf[i]);
  return w->failed ? -1 : 0;
}

static int dump_filtered(const json_t *v, size_t flags, int (*sink)(const char *, size_t, void *), void *ctx) {
  tokw w = {0};
  w.sink = sink;
  w.ctx = ctx;
  int rc = json_dump_callback(v, filter_cb, &w, flags);
  if (w.st == 1) /* cannot happen for a complete value; written as it is */
    for (size_t i = 0; i < w.nheld; i++) emit(&w, w.held[i]);
  flush_out(&w);
  return rc || w.failed ? -1 : 0;
}

static int sink_file(const char *b, size_t n, void *ctx) { return fwrite(b, 1, n, ctx) == n ? 0 : -1; }
static int sink_buf(const char *b, size_t n, void *ctx) { return pcol_buf_append(ctx, b, n) ? -1 : 0; }

int perun_json_dumpf(const json_t *v, FILE *out, size_t flags) { return dump_filtered(v, flags, sink_file, out); }

char *perun_json_dumps(const json_t *v, size_t flags) {
  pcol_buf b = {0};
  if (dump_filtered(v, flags, sink_buf, &b) || pcol_buf_append(&b, "", 1)) {
    pcol_buf_free(&b);
    return NULL;
  }
  return (char *)b.data;
}
