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
 * cut rule, pcol_utf8_cut), not inside a name's. */
int pcol_error_set(pcol_error *err, int code, const char *fmt, ...) {
  if (err) {
    char m[sizeof err->message];
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

/* the counted warnings' words at the end of a message */
#define WARN_MORE "; and %llu more warning%s"

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
  /* the warnings counted so far: m[0..base) is what is said */
  size_t base = strlen(m);
  unsigned long long more = 0;
  char *tail = strstr(m, "; and ");
  for (char *t = tail; t; t = strstr(t + 1, "; and ")) tail = t;
  if (tail) {
    char again[64];
    int used = 0;
    if (sscanf(tail, "; and %llu more warning%n", &more, &used) == 1 && used > 0) {
      snprintf(again, sizeof again, WARN_MORE, more, more == 1 ? "" : "s");
      if (strcmp(again, tail) == 0) base = (size_t)(tail - m);
      else more = 0;
    } else more = 0;
  }
  char out[sizeof err->message], cnt[64];
  cnt[0] = 0;
  if (more) snprintf(cnt, sizeof cnt, WARN_MORE, more, more == 1 ? "" : "s");
  size_t wl = strlen(w), cl = strlen(cnt);
  if (base + 2 + wl + cl < sizeof out) { /* it fits: said */
    memcpy(out, m, base);
    snprintf(out + base, sizeof out - base, "; %s%s", w, cnt);
  } else { /* counted; when the count needs room, the last warnings said are
             * taken back whole and counted too (review h7 L4: one was cut) */
    more++;
    cl = (size_t)snprintf(cnt, sizeof cnt, WARN_MORE, more, more == 1 ? "" : "s");
    while (base + cl >= sizeof out) {
      size_t k = base;
      while (k >= 2 && !(m[k - 2] == ';' && m[k - 1] == ' ')) k--;
      if (k < 2) break; /* (the first warning: cut below, at a whole character) */
      base = k - 2, more++;
      cl = (size_t)snprintf(cnt, sizeof cnt, WARN_MORE, more, more == 1 ? "" : "s");
    }
    if (base + cl >= sizeof out) base = pcol_utf8_cut(m, base, sizeof out - 1 - cl);
    memcpy(out, m, base);
    memcpy(out + base, cnt, cl + 1);
  }
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
