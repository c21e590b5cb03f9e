/* error.c — error codes, messages, the library version. */
#include "pcol.h"
#include "error.h"    /* pcol_write_error */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int pcol_write_error(pcol_error *err, int errnum, const char *what) {
  if (!errnum) errnum = errno;
  return pcol_error_set(err, PCOL_EIO, "%s%swrite error%s%s", what ? what : "", what ? ": " : "",
                        errnum ? ": " : "", errnum ? strerror(errnum) : "");
}

/* Formats into a local buffer first: an argument may be err->message itself
 * (a message extended with context), and vsnprintf must not write where it
 * reads.  A message longer than the buffer ends at a whole character (the
 * cut rule, pcol_utf8_cut), not inside a name's.  The bytes after the text
 * are cleared: a message set here holds no warnings' count (below). */
int pcol_error_set(pcol_error *err, int code, const char *fmt, ...) {
  if (err) {
    char m[sizeof err->message] = {0};
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof m) m[pcol_utf8_cut(m, sizeof m - 1, sizeof m - 2)] = 0;
    err->code = code;
    memcpy(err->message, m, sizeof m);
  }
  return code;
}

/* the counted warnings' words at the end of a message; past WARN_KEEP
 * counted (more than the count can tell apart), "more than" that many */
#define WARN_MORE "; and %llu more warning%s"
#define WARN_OVER "; and more than %u more warnings"

/* The count of the warnings that did not fit is a field, not the text's
 * number read back (review h7: a counted warning that came again was
 * counted again, "N more" past the warnings there were).  It lives in the
 * message's last WARN_TAIL bytes, after its text's end, which a message
 * with a count leaves free (pcol_error's layout stays as it is): a mark, the
 * count, a hash of the text it goes with (a message set or changed since,
 * pcol_error_set, pcol_error_prefix, a caller's, is not taken for one with
 * this count), and a hash of each warning counted (one counted is not
 * counted again when it comes again), WARN_KEEP of them. */
#define WARN_TAIL 96
#define WARN_AT (sizeof((pcol_error *)0)->message - WARN_TAIL) /* the text below this, when counting */
#define WARN_KEEP ((WARN_TAIL - 20) / 4)
typedef struct {
  uint32_t more;           /* the warnings counted */
  uint8_t nh, over;        /* hashes held; 1: more counted than held */
  uint32_t h[WARN_KEEP];   /* the counted warnings' hashes */
} warn_count;
static const char warn_mark[4] = {'P', 'W', 'C', 1};

static uint64_t text_hash(const char *p, size_t n) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
  return h;
}
static uint32_t warn_hash(const char *w, size_t n) {
  uint64_t h = text_hash(w, n);
  return (uint32_t)(h ^ (h >> 32));
}

/* err's count, when its message holds one for its text: 1 */
static int count_get(const char *m, warn_count *c) {
  size_t len = strnlen(m, WARN_AT);
  const char *t = m + WARN_AT;
  uint64_t th;
  if (len >= WARN_AT || memcmp(t, warn_mark, 4)) return 0;
  memcpy(&th, t + 8, 8);
  if (th != text_hash(m, len)) return 0;
  memset(c, 0, sizeof *c);
  memcpy(&c->more, t + 4, 4);
  c->nh = (uint8_t)t[16], c->over = (uint8_t)t[17];
  if (c->nh > WARN_KEEP || c->over > 1) return 0;
  memcpy(c->h, t + 20, (size_t)c->nh * 4);
  return 1;
}

static void count_put(char *m, const warn_count *c) {
  char *t = m + WARN_AT;
  uint64_t th = text_hash(m, strlen(m));
  memset(t, 0, WARN_TAIL);
  memcpy(t, warn_mark, 4);
  memcpy(t + 4, &c->more, 4);
  memcpy(t + 8, &th, 8);
  t[16] = (char)c->nh, t[17] = (char)c->over;
  memcpy(t + 20, c->h, (size_t)c->nh * 4);
}

/* one more warning counted: w[0..n) */
static void count_one(warn_count *c, const char *w, size_t n) {
  c->more++;
  if (c->nh < WARN_KEEP) c->h[c->nh++] = warn_hash(w, n);
  else c->over = 1;
}

static int count_has(const warn_count *c, const char *w) {
  uint32_t h = warn_hash(w, strlen(w));
  for (unsigned i = 0; i < c->nh; i++)
    if (c->h[i] == h) return 1;
  return 0;
}

static size_t count_text(char *cnt, size_t cap, const warn_count *c) {
  if (c->over) return (size_t)snprintf(cnt, cap, WARN_OVER, (unsigned)WARN_KEEP);
  if (!c->more) return cnt[0] = 0, 0;
  return (size_t)snprintf(cnt, cap, WARN_MORE, (unsigned long long)c->more, c->more == 1 ? "" : "s");
}

/* whether m says w already: as one of its warnings, whole (between "; "
 * or the ends), not inside another (review h7 M2: "a.cpuprofile: X" is not
 * said by "data.cpuprofile: X") */
static int said(const char *m, const char *w) {
  size_t wl = strlen(w);
  if (!wl) return 1;
  for (const char *p = strstr(m, w); p; p = strstr(p + 1, w))
    if ((p == m || (p - m >= 2 && p[-2] == ';' && p[-1] == ' ')) && (!p[wl] || (p[wl] == ';' && p[wl + 1] == ' ')))
      return 1;
  return 0;
}

int pcol_warn_add(pcol_error *err, const char *fmt, ...) {
  if (!err) return PCOL_OK;
  char w[sizeof err->message], *m = err->message;
  va_list ap;
  va_start(ap, fmt);
  int wn = vsnprintf(w, sizeof w, fmt, ap);
  va_end(ap);
  if (wn >= (int)sizeof w) w[pcol_utf8_cut(w, sizeof w - 1, sizeof w - 2)] = 0; /* (as pcol_error_set cuts) */
  if (err->code != PCOL_OK || !m[0]) return pcol_error_set(err, PCOL_OK, "%s", w);
  if (said(m, w)) return PCOL_OK;
  /* the warnings counted so far (the field; a message without it, one
   * set whole with its count's words, is read as its words say); m[0..base)
   * is what is said */
  warn_count c;
  char cnt[64];
  size_t base = strlen(m);
  if (count_get(m, &c)) {
    if (count_has(&c, w)) return PCOL_OK; /* counted already */
    size_t cl = count_text(cnt, sizeof cnt, &c);
    if (cl && cl <= base && !strcmp(m + base - cl, cnt)) base -= cl;
  } else {
    memset(&c, 0, sizeof c);
    unsigned long long more = 0;
    char *tail = strstr(m, "; and ");
    for (char *t = tail; t; t = strstr(t + 1, "; and ")) tail = t;
    int used = 0;
    if (tail && sscanf(tail, "; and %llu more warning%n", &more, &used) == 1 && used > 0 && more <= UINT32_MAX) {
      c.more = (uint32_t)more;
      if (strcmp(tail, (count_text(cnt, sizeof cnt, &c), cnt)) == 0) base = (size_t)(tail - m);
      else c.more = 0;
    }
  }
  char out[sizeof err->message] = {0};
  size_t wl = strlen(w), cl = count_text(cnt, sizeof cnt, &c);
  /* the room of the text: all of it without a count, else below the count */
  if (base + 2 + wl + cl < (c.more ? WARN_AT : sizeof out)) { /* it fits: said */
    memcpy(out, m, base);
    snprintf(out + base, sizeof out - base, "; %s%s", w, cnt);
  } else { /* counted; when the count needs room, the last warnings said are
             * taken back whole and counted too (review h7 L4: one was cut) */
    count_one(&c, w, wl);
    cl = count_text(cnt, sizeof cnt, &c);
    while (base + cl >= WARN_AT) {
      size_t k = base;
      while (k >= 2 && !(m[k - 2] == ';' && m[k - 1] == ' ')) k--;
      if (k < 2) break; /* (the first warning: cut below, at a whole character) */
      count_one(&c, m + k, base - k);
      base = k - 2;
      cl = count_text(cnt, sizeof cnt, &c);
    }
    if (base + cl >= WARN_AT) base = pcol_utf8_cut(m, base, WARN_AT - 1 - cl);
    memcpy(out, m, base);
    memcpy(out + base, cnt, cl + 1);
  }
  if (c.more) count_put(out, &c);
  memcpy(m, out, sizeof out);
  return PCOL_OK;
}

int pcol_error_prefix(pcol_error *err, const char *prefix) {
  if (!err) return 0;
  return pcol_error_set(err, err->code, "%s: %s", prefix, err->message);
}

int pcol_error_in(pcol_error *err, int rc, const char *name, uint64_t line) {
  if (!rc || !err) return rc;
  if (line) return pcol_error_set(err, rc, "%s:%llu: %s", name, (unsigned long long)line, err->message);
  return pcol_error_set(err, rc, "%s: %s", name, err->message);
}

unsigned pcol_version(void) { return PCOL_VERSION_NUMBER; }
const char *pcol_version_string(void) { return PCOL_VERSION_STRING; }

const char *pcol_strerror(int code) {
  switch (code) {
  case PCOL_OK: return "ok";
  case PCOL_EINVAL: return "invalid argument";
  case PCOL_ENOMEM: return "out of memory";
  case PCOL_EIO: return "I/O error";
  case PCOL_ECORRUPT: return "corrupt or malformed input";
  case PCOL_EUNSUPPORTED: return "unsupported version or feature";
  case PCOL_ETOOBIG: return "size limit exceeded";
  case PCOL_ENOTFOUND: return "not found";
  case PCOL_EFORMAT: return "unrecognised input format";
  case PCOL_EBUDGET: return "output budget exceeded";
  }
  return "unknown error";
}

int pcol_corrupt(pcol_error *err, const char *fmt, uint64_t a, uint64_t b) {
  char m[400];
  snprintf(m, sizeof m, fmt, (unsigned long long)a, (unsigned long long)b);
  return pcol_error_set(err, PCOL_ECORRUPT, "%s", m);
}
