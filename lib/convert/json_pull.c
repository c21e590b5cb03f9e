/* json_pull.c — see json_pull.h.  Iterative: nesting costs a frame of a
 * heap array (at most 2048), never the C stack. */
#include "json_pull.h"
#include "error.h"    /* pcol_oom */
#include "buf.h"      /* PCOL_GROW */
#include "hash.h"     /* pcol_hash_keyed */
#include "instream.h" /* pcol_input_cap */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#define MAX_DEPTH 2048 /* jansson's JSON_PARSER_MAX_DEPTH, counted per value */
#define BUFSZ ((size_t)64 << 10)
#define LINEAR_KEYS 16 /* an object with more keys gets a hash index */

struct pcol_jframe {
  char close;       /* '}' or ']' */
  size_t kfirst;    /* its first key in keys[] */
  size_t kbfirst;   /* its first byte in kbytes */
  uint32_t *tab;    /* key index + 1 by hash, for a wide object */
  size_t tabcap;
};
struct pcol_jkeyent {
  uint64_t h;
  size_t off, len;
};

enum { S_START, S_VALUE, S_OBJ_FIRST, S_ARR_FIRST, S_AFTER, S_DONE };

int pcol_json_hex4(const char *p, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return -1;
  }
  *out = v;
  return 0;
}

size_t pcol_json_utf8_put(char *o, uint32_t cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xC0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (cp >> 18));
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* ---------------------------------------------------------------- input */
static int fail(pcol_jpull *j, uint64_t at, const char *what) {
  if (j->rc) return j->rc;
  if (j->over)
    j->rc = pcol_error_set(j->err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", j->name,
                           (unsigned long long)j->cap);
  else if (ferror(j->in))
    j->rc = pcol_error_set(j->err, PCOL_EIO, "%s: read error", j->name);
  else
    j->rc = pcol_error_set(j->err, PCOL_ECORRUPT, "%s:%llu:%llu (byte %llu): invalid JSON: %s", j->name,
                           (unsigned long long)j->line, (unsigned long long)(at - j->line_start + 1),
                           (unsigned long long)at, what);
  return j->rc;
}

static uint64_t here(const pcol_jpull *j) { return j->base + j->bp; }

/* 1 when a byte is ready in buf[bp], 0 at the end of the input */
static int fill(pcol_jpull *j) {
  if (j->bp < j->bn) return 1;
  if (j->eof) return 0;
  j->base += j->bn;
  j->bn = j->bp = 0;
  size_t want = BUFSZ;
  if (j->cap - j->total < want) want = (size_t)(j->cap - j->total) + 1; /* one more: is there more? */
  size_t got = fread(j->buf, 1, want, j->in);
  if (got < want) j->eof = 1;
  j->total += got;
  if (j->total > j->cap) { /* the input goes on past the cap */
    j->over = 1;
    j->eof = 1;
    got -= (size_t)(j->total - j->cap);
  }
  j->bn = got;
  return got > 0;
}

static inline int peekc(pcol_jpull *j) {
  if (j->bp < j->bn || fill(j)) return j->buf[j->bp];
  return -1;
}

static void ws(pcol_jpull *j) {
  for (;;) {
    while (j->bp < j->bn) {
      unsigned char c = j->buf[j->bp];
      if (c == ' ' || c == '\t' || c == '\r') j->bp++;
      else if (c == '\n') j->line++, j->bp++, j->line_start = here(j);
      else return;
    }
    if (!fill(j)) return;
  }
}

/* ---------------------------------------------------------------- text */
static int str_room(pcol_jpull *j, size_t more) {
  if (j->len + more + 1 <= j->scap) return 0;
  size_t c = j->scap ? j->scap : 256;
  while (c < j->len + more + 1) {
    if (c > SIZE_MAX / 2) return -1;
    c *= 2;
  }
  char *s = realloc(j->str, c);
  if (!s) return -1;
  j->str = s, j->scap = c;
  return 0;
}

static int oom(pcol_jpull *j) {
  if (!j->rc) j->rc = pcol_oom(j->err);
  return j->rc;
}

/* The string after its opening quote, decoded into str/len. */
static int string(pcol_jpull *j) {
  j->len = 0;
  for (;;) {
    /* a run of plain characters inside the buffer */
    size_t b = j->bp;
    while (j->bp < j->bn) {
      unsigned char c = j->buf[j->bp];
      if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') break;
      j->bp++;
    }
    if (j->bp > b) {
      if (str_room(j, j->bp - b)) return oom(j);
      memcpy(j->str + j->len, j->buf + b, j->bp - b);
      j->len += j->bp - b;
    }
    int c = peekc(j);
    if (c < 0) return fail(j, here(j), "premature end of input in a string");
    if (c == '"') {
      j->bp++;
      j->str[j->len] = 0;
      return PCOL_OK;
    }
    if (c < 0x20) return fail(j, here(j), "control character in a string");
    if (c != '\\' && c < 0x80) continue; /* the run stopped at the buffer's end */
    if (c >= 0x80) { /* one UTF-8 sequence, perhaps across a refill */
      unsigned char u[4];
      size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2, k = 0;
      uint64_t at = here(j);
      while (k < need) {
        int d = peekc(j);
        if (d < 0) break;
        if (k && (d & 0xC0) != 0x80) break;
        u[k++] = (unsigned char)d;
        j->bp++;
      }
      if (pcol_utf8_len((const char *)u, k) != k || k != need) return fail(j, at, "invalid UTF-8 in a string");
      if (str_room(j, k)) return oom(j);
      memcpy(j->str + j->len, u, k);
      j->len += k;
      continue;
    }
    /* a backslash */
    uint64_t at = here(j);
    j->bp++;
    int e = peekc(j);
    if (e < 0) return fail(j, here(j), "premature end of input in a string");
    j->bp++;
    char out;
    switch (e) {
    case '"': out = '"'; break;
    case '\\': out = '\\'; break;
    case '/': out = '/'; break;
    case 'b': out = '\b'; break;
    case 'f': out = '\f'; break;
    case 'n': out = '\n'; break;
    case 'r': out = '\r'; break;
    case 't': out = '\t'; break;
    case 'u': out = 0; break;
    default: return fail(j, at, "invalid escape in a string");
    }
    if (e != 'u') {
      if (str_room(j, 1)) return oom(j);
      j->str[j->len++] = out;
      continue;
    }
    char h[10];
    unsigned hi, lo;
    for (int k = 0; k < 4; k++) {
      int d = peekc(j);
      if (d < 0) return fail(j, here(j), "premature end of input in a string");
      h[k] = (char)d;
      j->bp++;
    }
    if (pcol_json_hex4(h, &hi)) return fail(j, at, "invalid \\u escape");
    uint32_t cp = hi;
    if (hi == 0 && !(j->flags & PCOL_JP_ALLOW_NUL)) return fail(j, at, "a string holds \\u0000 (the NUL character), which pcol does not read");
    if (hi >= 0xDC00 && hi <= 0xDFFF) return fail(j, at, "invalid Unicode: lone low surrogate");
    if (hi >= 0xD800 && hi <= 0xDBFF) {
      for (int k = 4; k < 10; k++) {
        int d = peekc(j);
        if (d < 0) return fail(j, here(j), "premature end of input in a string");
        h[k] = (char)d;
        j->bp++;
      }
      if (h[4] != '\\' || h[5] != 'u' || pcol_json_hex4(h + 6, &lo) || lo < 0xDC00 || lo > 0xDFFF)
        return fail(j, at, "invalid Unicode: unpaired high surrogate");
      cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
    }
    if (str_room(j, 4)) return oom(j);
    j->len += pcol_json_utf8_put(j->str + j->len, cp);
  }
}

static int digits(pcol_jpull *j) {
  size_t n0 = j->len;
  for (int c; (c = peekc(j)) >= '0' && c <= '9'; j->bp++) {
    if (str_room(j, 1)) return -2;
    j->str[j->len++] = (char)c;
  }
  return j->len > n0 ? 0 : -1;
}

static int put1(pcol_jpull *j, int c) {
  if (str_room(j, 1)) return -1;
  j->str[j->len++] = (char)c;
  j->bp++;
  return 0;
}

/* A number at the cursor: jansson's lexer (lex_scan_number), so the same
 * texts are integers, doubles or errors. */
static int number(pcol_jpull *j) {
  uint64_t at = here(j);
  int c = peekc(j), r, is_int = 1;
  j->len = 0;
  if (c == '-' && put1(j, c)) return oom(j);
  c = peekc(j);
  if (c == '0') {
    if (put1(j, c)) return oom(j);
    c = peekc(j);
    if (c >= '0' && c <= '9') return fail(j, here(j), "invalid token: a number with a leading zero");
  } else if ((r = digits(j))) {
    return r == -2 ? oom(j) : fail(j, here(j), "invalid token");
  }
  if (peekc(j) == '.') {
    is_int = 0;
    if (put1(j, '.')) return oom(j);
    if ((r = digits(j))) return r == -2 ? oom(j) : fail(j, here(j), "invalid token: no digit after '.'");
  }
  c = peekc(j);
  if (c == 'e' || c == 'E') {
    is_int = 0;
    if (put1(j, c)) return oom(j);
    c = peekc(j);
    if ((c == '+' || c == '-') && put1(j, c)) return oom(j);
    if ((r = digits(j))) return r == -2 ? oom(j) : fail(j, here(j), "invalid token: no digit in the exponent");
  }
  j->str[j->len] = 0;
  errno = 0;
  if (is_int) {
    long long v = strtoll(j->str, NULL, 10);
    if (errno == ERANGE && (j->flags & PCOL_JP_BIG_INTS)) {
      j->tok = PCOL_JT_REAL, j->d = strtod(j->str, NULL); /* (310 digits or more: inf) */
      if (j->d == HUGE_VAL || j->d == -HUGE_VAL) return fail(j, at, "real number overflow");
      return PCOL_OK;
    }
    if (errno == ERANGE) return fail(j, at, v < 0 ? "too big negative integer" : "too big integer");
    j->tok = PCOL_JT_INT, j->i = v, j->d = (double)v;
    return PCOL_OK;
  }
  double d = strtod(j->str, NULL);
  if ((d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE) return fail(j, at, "real number overflow");
  j->tok = PCOL_JT_REAL, j->d = d;
  return PCOL_OK;
}

static int literal(pcol_jpull *j) {
  uint64_t at = here(j);
  char w[8];
  size_t n = 0;
  for (int c; (c = peekc(j)) >= 0 && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')); j->bp++)
    if (n < sizeof w - 1) w[n++] = (char)c;
    else return fail(j, at, "invalid token");
  w[n] = 0;
  if (!strcmp(w, "true")) j->tok = PCOL_JT_TRUE;
  else if (!strcmp(w, "false")) j->tok = PCOL_JT_FALSE;
  else if (!strcmp(w, "null")) j->tok = PCOL_JT_NULL;
  else return fail(j, at, "invalid token");
  return PCOL_OK;
}

/* ---------------------------------------------------------------- nesting */
static int push(pcol_jpull *j, char close) {
  if (j->depth == j->fcap) {
    size_t c = j->fcap ? j->fcap * 2 : 16;
    pcol_jframe *f = realloc(j->frames, c * sizeof *f);
    if (!f) return oom(j);
    j->frames = f, j->fcap = c;
  }
  pcol_jframe *f = &j->frames[j->depth++];
  f->close = close;
  f->kfirst = j->nkeys;
  f->kbfirst = j->kblen;
  f->tab = NULL;
  f->tabcap = 0;
  return PCOL_OK;
}

static void pop(pcol_jpull *j) {
  pcol_jframe *f = &j->frames[--j->depth];
  j->nkeys = f->kfirst;
  j->kblen = f->kbfirst;
  free(f->tab);
}

static int key_eq(const pcol_jpull *j, size_t k, uint64_t h) {
  const pcol_jkeyent *e = &j->keys[k];
  return e->h == h && e->len == j->len && !memcmp(j->kbytes + e->off, j->str, j->len);
}

static void tab_put(pcol_jframe *f, uint64_t h, size_t k) {
  size_t m = f->tabcap - 1, s = (size_t)h & m;
  while (f->tab[s]) s = (s + 1) & m;
  f->tab[s] = (uint32_t)(k + 1);
}

/* The key in str/len joins the innermost object: refused when it has it. */
static int add_key(pcol_jpull *j, uint64_t at) {
  pcol_jframe *f = &j->frames[j->depth - 1];
  uint64_t h = pcol_hash_keyed(j->str, j->len);
  size_t nk = j->nkeys - f->kfirst;
  if (nk >= UINT32_MAX - 1) return fail(j, at, "too many keys in an object");
  if (nk < LINEAR_KEYS) {
    for (size_t k = f->kfirst; k < j->nkeys; k++)
      if (key_eq(j, k, h)) return fail(j, at, "duplicate object key");
  } else {
    if ((nk + 1) * 2 > f->tabcap) { /* (re)build the index, at most half full */
      size_t c = f->tabcap ? f->tabcap * 2 : 64;
      while (c < (nk + 1) * 2) c *= 2;
      uint32_t *t = calloc(c, sizeof *t);
      if (!t) return oom(j);
      free(f->tab);
      f->tab = t, f->tabcap = c;
      for (size_t k = f->kfirst; k < j->nkeys; k++) tab_put(f, j->keys[k].h, k);
    }
    size_t m = f->tabcap - 1;
    for (size_t s = (size_t)h & m; f->tab[s]; s = (s + 1) & m)
      if (key_eq(j, f->tab[s] - 1, h)) return fail(j, at, "duplicate object key");
  }
  if (PCOL_GROW(j->keys, j->nkeys, j->kcap)) return oom(j);
  while (!j->kbytes || j->kblen + j->len > j->kbcap) { /* allocated for the empty key too */
    size_t c = j->kbcap ? j->kbcap * 2 : 1024;
    char *p = realloc(j->kbytes, c);
    if (!p) return oom(j);
    j->kbytes = p, j->kbcap = c;
  }
  memcpy(j->kbytes + j->kblen, j->str, j->len);
  j->keys[j->nkeys] = (pcol_jkeyent){h, j->kblen, j->len};
  j->kblen += j->len;
  if (f->tab) tab_put(f, h, j->nkeys);
  j->nkeys++;
  return PCOL_OK;
}

/* ---------------------------------------------------------------- tokens */
/* A value at the cursor (whitespace skipped). */
static int value(pcol_jpull *j) {
  int c = peekc(j);
  if (c < 0) return fail(j, here(j), "premature end of input");
  if (j->depth >= MAX_DEPTH) return fail(j, here(j), "maximum parsing depth reached");
  int rc;
  switch (c) {
  case '{':
    j->bp++;
    if ((rc = push(j, '}'))) return rc;
    j->tok = PCOL_JT_OBJ, j->state = S_OBJ_FIRST;
    return PCOL_OK;
  case '[':
    j->bp++;
    if ((rc = push(j, ']'))) return rc;
    j->tok = PCOL_JT_ARR, j->state = S_ARR_FIRST;
    return PCOL_OK;
  case '"':
    j->bp++;
    if ((rc = string(j))) return rc;
    j->tok = PCOL_JT_STR;
    break;
  default:
    if (c == '-' || (c >= '0' && c <= '9')) rc = number(j);
    else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) rc = literal(j);
    else rc = fail(j, here(j), "unexpected character");
    if (rc) return rc;
  }
  j->state = S_AFTER;
  return PCOL_OK;
}

/* A key and its ':' at the cursor (after whitespace). */
static int key(pcol_jpull *j) {
  uint64_t at = here(j);
  if (peekc(j) != '"') return fail(j, at, "string or '}' expected");
  j->bp++;
  int rc = string(j);
  if (rc) return rc;
  if (memchr(j->str, 0, j->len)) return fail(j, at, "NUL byte in object key not supported"); /* as jansson, even with ALLOW_NUL */
  if ((rc = add_key(j, at))) return rc;
  ws(j);
  if (peekc(j) != ':') return fail(j, here(j), "':' expected");
  j->bp++;
  j->tok = PCOL_JT_KEY, j->state = S_VALUE;
  return PCOL_OK;
}

static int next_token(pcol_jpull *j);

/* n bytes folded into *h: SipHash keyed per process, chained (hash.h:
 * an identity made of a file's bytes must not be collided at will) */
static void fnv(uint64_t *h, const void *p, size_t n) { *h = pcol_hash_bytes(p, n, *h); }

void pcol_jp_hash_tok(const pcol_jpull *j, uint64_t *h) {
  unsigned char t = (unsigned char)(j->tok == PCOL_JT_INT ? PCOL_JT_REAL : j->tok);
  fnv(h, &t, 1);
  if (j->tok == PCOL_JT_KEY || j->tok == PCOL_JT_STR) fnv(h, &j->len, sizeof j->len), fnv(h, j->str, j->len);
  if (j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL) {
    double d = j->d == 0 ? 0 : j->d; /* -0 as 0, as JSON.stringify writes it */
    fnv(h, &d, sizeof d);
  }
}

int pcol_jp_next(pcol_jpull *j) {
  int rc = next_token(j);
  if (!rc && j->hash) pcol_jp_hash_tok(j, j->hash);
  return rc;
}

/* PCOL_JP_OPEN_ARRAY: the input ends inside the top-level array, after a
 * value or a comma: the array closes there. */
static int open_end(pcol_jpull *j) {
  if (!(j->flags & PCOL_JP_OPEN_ARRAY) || j->depth != 1 || j->frames[0].close != ']' || peekc(j) >= 0 ||
      j->over || ferror(j->in))
    return 0;
  j->tok = PCOL_JT_ARR_END;
  pop(j);
  j->state = S_AFTER;
  return 1;
}

static int next_token(pcol_jpull *j) {
  if (j->rc) return j->rc;
  ws(j);
  int c;
  switch (j->state) {
  case S_START:
    c = peekc(j);
    if (c != '{' && c != '[') return fail(j, here(j), c < 0 ? "premature end of input" : "'[' or '{' expected");
    return value(j);
  case S_VALUE: return value(j);
  case S_OBJ_FIRST:
    if (peekc(j) == '}') break;
    return key(j);
  case S_ARR_FIRST:
    if (peekc(j) == ']') break;
    return value(j);
  case S_AFTER:
    c = peekc(j);
    if (j->depth == 0) {
      if (c >= 0) return fail(j, here(j), "end of file expected");
      if (j->over || ferror(j->in)) return fail(j, here(j), "");
      j->tok = PCOL_JT_EOF, j->state = S_DONE;
      return PCOL_OK;
    }
    if (c == ',') {
      j->bp++;
      ws(j);
      if (open_end(j)) return PCOL_OK;
      return j->frames[j->depth - 1].close == '}' ? key(j) : value(j);
    }
    if (c == j->frames[j->depth - 1].close) break;
    if (c < 0 && open_end(j)) return PCOL_OK;
    if (c < 0) return fail(j, here(j), "premature end of input");
    return fail(j, here(j), j->frames[j->depth - 1].close == '}' ? "'}' expected" : "']' expected");
  default: j->tok = PCOL_JT_EOF; return PCOL_OK;
  }
  /* the innermost container closes */
  j->bp++;
  j->tok = j->frames[j->depth - 1].close == '}' ? PCOL_JT_OBJ_END : PCOL_JT_ARR_END;
  pop(j);
  j->state = S_AFTER;
  return PCOL_OK;
}

int pcol_jp_skip(pcol_jpull *j) {
  int rc;
  if (j->tok == PCOL_JT_KEY && (rc = pcol_jp_next(j))) return rc;
  if (j->tok != PCOL_JT_OBJ && j->tok != PCOL_JT_ARR) return j->rc;
  size_t d = j->depth - 1;
  while (j->depth > d)
    if ((rc = pcol_jp_next(j))) return rc;
  return PCOL_OK;
}

int pcol_jp_finish(pcol_jpull *j) {
  int rc;
  while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_EOF) {}
  return rc;
}

int pcol_jp_key_is(const pcol_jpull *j, const char *lit) {
  size_t l = strlen(lit);
  return j->tok == PCOL_JT_KEY && j->len == l && !memcmp(j->str, lit, l);
}

uint64_t pcol_jp_offset(const pcol_jpull *j) { return here(j); }

int pcol_jp_open(pcol_jpull *j, FILE *in, const char *name, const pcol_import_options *opt, unsigned flags,
                 pcol_error *err) {
  memset(j, 0, sizeof *j);
  j->in = in, j->name = name, j->err = err, j->flags = flags;
  j->cap = pcol_input_cap(opt);
  j->line = 1;
  j->buf = malloc(BUFSZ);
  if (!j->buf || str_room(j, 0)) return oom(j);
  j->str[0] = 0;
  return PCOL_OK;
}

void pcol_jp_close(pcol_jpull *j) {
  while (j->depth) pop(j);
  free(j->buf), free(j->str), free(j->frames), free(j->keys), free(j->kbytes);
  j->buf = NULL, j->str = NULL, j->frames = NULL, j->keys = NULL, j->kbytes = NULL;
}
