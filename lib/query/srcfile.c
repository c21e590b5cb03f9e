/* srcfile.c — how `list` finds and reads a source file that a profile
 * names (doc/safety.md, "What list opens").
 *
 * The search is pprof's (source.go openSourceFile): an absolute path as it
 * is, a relative one under each directory of the search path and their
 * parents, after trimming the part of the path up to a search directory's
 * base name.  A profile is input like any other, so its paths are not
 * trusted: unless the caller allows any file, a candidate is opened only
 * when it lies under one of the search directories (the roots) both as
 * written (".." resolved, no file system access, so a refused path reveals
 * nothing about what exists) and after realpath (symbolic links resolved),
 * each on a directory boundary; once opened, the descriptor's own path
 * (/proc/self/fd) is checked again, so a link swapped in between is caught.
 * Whatever the mode, only a regular file is read (opened O_NONBLOCK, so a
 * FIFO or a device never blocks), and only up to the last line the window
 * needs, at most PCOL_Q_SOURCE_MAX bytes. */
#include "query.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* malloc'd message, or NULL when out of memory */
static char *msgf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *msgf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *m = malloc((size_t)n + 1);
  if (!m) return NULL;
  va_start(ap, fmt);
  vsnprintf(m, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return m;
}

/* pprof's trimPath (source.go) with no -trim_path: the part of the path up
 * to "/" + base name of a search directory + "/" goes, else the prefixes
 * /proc/self/cwd/./ and /proc/self/cwd/. */
const char *pcol_q_trim_path(const char *path, const char *search) {
  const char *d = search;
  while (d && *d) {
    const char *e = strchr(d, ':');
    size_t n = e ? (size_t)(e - d) : strlen(d);
    size_t b = n;
    while (b > 0 && d[b - 1] == '/') b--; /* base name of d[0..n) */
    size_t a = b;
    while (a > 0 && d[a - 1] != '/') a--;
    if (b > a) {
      char want[4096];
      if (b - a + 2 < sizeof want) {
        snprintf(want, sizeof want, "/%.*s/", (int)(b - a), d + a);
        const char *hit = strstr(path, want);
        if (hit) return hit + strlen(want);
      }
    }
    d = e ? e + 1 : NULL;
  }
  static const char *const pre[] = {"/proc/self/cwd/./", "/proc/self/cwd/"};
  for (int i = 0; i < 2; i++)
    if (!strncmp(path, pre[i], strlen(pre[i]))) return path + strlen(pre[i]);
  return path;
}

/* p made absolute (under cwd) and cleaned as written: "." and empty parts
 * dropped, ".." takes the previous part off (never above "/").  malloc'd. */
static char *lexical_abs(const char *p, const char *cwd) {
  size_t n = strlen(p), c = p[0] == '/' ? 0 : strlen(cwd);
  char *out = malloc(c + n + 3);
  if (!out) return NULL;
  size_t o = 0;
  out[o++] = '/';
  for (int pass = p[0] == '/' ? 1 : 0; pass < 2; pass++) {
    const char *s = pass ? p : cwd;
    size_t i = 0, len = strlen(s);
    while (i < len) {
      while (i < len && s[i] == '/') i++;
      size_t b = i;
      while (i < len && s[i] != '/') i++;
      size_t k = i - b;
      if (k == 0 || (k == 1 && s[b] == '.')) continue;
      if (k == 2 && s[b] == '.' && s[b + 1] == '.') {
        while (o > 1 && out[o - 1] != '/') o--;
        if (o > 1) o--; /* the '/' before the part */
        continue;
      }
      if (o > 1) out[o++] = '/';
      memcpy(out + o, s + b, k);
      o += k;
    }
  }
  out[o] = 0;
  return out;
}

/* path is root or lies under it (a directory boundary: /a/bc is not under /a/b) */
static int under(const char *path, const char *root) {
  size_t r = strlen(root);
  while (r > 1 && root[r - 1] == '/') r--;
  if (r == 1 && root[0] == '/') return path[0] == '/';
  return !strncmp(path, root, r) && (path[r] == 0 || path[r] == '/');
}

typedef struct roots {
  char **lex, **real; /* per search directory; real[i] NULL when it does not resolve */
  size_t n;
} roots;

static void roots_free(roots *r) {
  for (size_t i = 0; i < r->n; i++) {
    free(r->lex[i]);
    free(r->real[i]);
  }
  free(r->lex);
  free(r->real);
}

static int roots_init(roots *r, const char *search, const char *cwd) {
  memset(r, 0, sizeof *r);
  size_t cap = 1;
  for (const char *s = search; *s; s++) cap += *s == ':';
  r->lex = calloc(cap, sizeof *r->lex);
  r->real = calloc(cap, sizeof *r->real);
  if (!r->lex || !r->real) return PCOL_ENOMEM;
  for (const char *d = search; d;) {
    const char *e = strchr(d, ':');
    size_t n = e ? (size_t)(e - d) : strlen(d);
    char *dir = malloc(n + 1);
    if (!dir) return PCOL_ENOMEM;
    memcpy(dir, d, n);
    dir[n] = 0;
    if (n) {
      r->lex[r->n] = lexical_abs(dir, cwd);
      r->real[r->n] = realpath(dir, NULL);
      if (!r->lex[r->n]) {
        free(dir);
        return PCOL_ENOMEM;
      }
      r->n++;
    }
    free(dir);
    d = e ? e + 1 : NULL;
  }
  return PCOL_OK;
}

static int under_lex(const roots *r, const char *p) {
  for (size_t i = 0; i < r->n; i++)
    if (under(p, r->lex[i]) || (r->real[i] && under(p, r->real[i]))) return 1;
  return 0;
}
static int under_real(const roots *r, const char *p) {
  for (size_t i = 0; i < r->n; i++)
    if (r->real[i] && under(p, r->real[i])) return 1;
  return 0;
}

/* Outcome of one candidate path. */
enum { C_OPEN, C_MISSING, C_REFUSED };

/* Opens candidate `full` when the rules allow it: *fd, or *why (static
 * text) for a refusal, or errno-like *e for a missing file. */
static int try_open(const char *full, const roots *r, const char *cwd, int *fd, const char **why,
                    int *e) {
  *fd = -1;
  char *real = NULL;
  if (r) {
    char *lex = lexical_abs(full, cwd);
    if (!lex) return *e = ENOMEM, C_MISSING;
    int ok = under_lex(r, lex);
    free(lex);
    if (!ok) return *why = "outside the source path", C_REFUSED;
    real = realpath(full, NULL);
    if (!real) return *e = errno, C_MISSING;
    if (!under_real(r, real)) {
      free(real);
      return *why = "outside the source path once links are resolved", C_REFUSED;
    }
  }
  int d = open(real ? real : full, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  free(real);
  if (d < 0) return *e = errno, C_MISSING;
  struct stat st;
  if (fstat(d, &st) || !S_ISREG(st.st_mode)) {
    close(d);
    return *why = "not a regular file", C_REFUSED;
  }
  if (r) { /* what was opened, in case a link changed since realpath */
    char link[64], *now;
    snprintf(link, sizeof link, "/proc/self/fd/%d", d);
    if ((now = realpath(link, NULL)) != NULL) {
      int ok = under_real(r, now);
      free(now);
      if (!ok) {
        close(d);
        return *why = "outside the source path once links are resolved", C_REFUSED;
      }
    }
  }
  *fd = d;
  return C_OPEN;
}

/* Reads fd up to the end of line `last` (all of it when the file ends
 * first), at most PCOL_Q_SOURCE_MAX bytes: *buf NUL-terminated.  0, or an
 * errno value; EFBIG past the cap. */
static int read_lines(int fd, int64_t last, char **buf, size_t *len) {
  size_t cap = 0, n = 0;
  char *b = NULL;
  int64_t lines = 0;
  for (;;) {
    if (cap - n < 4096) {
      size_t nc = cap ? cap * 2 : 65536;
      if (nc > PCOL_Q_SOURCE_MAX + 1) nc = PCOL_Q_SOURCE_MAX + 1;
      if (nc <= n + 1) {
        free(b);
        return EFBIG;
      }
      char *nb = realloc(b, nc);
      if (!nb) {
        free(b);
        return ENOMEM;
      }
      b = nb;
      cap = nc;
    }
    ssize_t r = read(fd, b + n, cap - n - 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int e = errno;
      free(b);
      return e;
    }
    if (r == 0) break;
    for (const char *q = b + n, *qe = b + n + r; (q = memchr(q, '\n', (size_t)(qe - q))) != NULL; q++)
      lines++;
    n += (size_t)r;
    if (lines >= last) break; /* the window's last line is complete */
  }
  b[n] = 0;
  *buf = b;
  *len = n;
  return 0;
}

/* a refusal that allow_any lifts (a file not regular is never read) */
static bool outside(const char *why) { return !strncmp(why, "outside the source path", 23); }

int pcol_q_source_read(const char *path, const char *search, int allow_any, int64_t last,
                       char **text, size_t *len, char **msg, bool *refused) {
  *refused = false;
  *text = NULL;
  *len = 0;
  *msg = NULL;
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) snprintf(cwd, sizeof cwd, "/");
  roots rt, *r = NULL;
  if (!allow_any) {
    if (roots_init(&rt, search ? search : ".", cwd)) {
      roots_free(&rt);
      return PCOL_ENOMEM;
    }
    r = &rt;
  }
  const char *p = pcol_q_trim_path(path, search);
  const char *why = NULL; /* the last refusal */
  int fd = -1, e = ENOENT, rc = PCOL_OK;
  char *full = malloc(strlen(p) + PATH_MAX + 2);
  if (!full) rc = PCOL_ENOMEM;
  if (!rc && p[0] == '/') {
    int c = try_open(p, r, cwd, &fd, &why, &e);
    if (c == C_MISSING && e == ENOMEM) rc = PCOL_ENOMEM;
    else if (c == C_MISSING)
      *msg = msgf("open %s: %s", p, e == ENOENT ? "no such file or directory" : strerror(e));
    else if (c == C_REFUSED)
      *msg = msgf("open %s: not read: %s", p, why), *refused = outside(why);
  }
  for (const char *d = p[0] == '/' ? NULL : search; !rc && fd < 0 && d && *d;) {
    const char *dend = strchr(d, ':');
    size_t n = dend ? (size_t)(dend - d) : strlen(d);
    char dir[PATH_MAX];
    if (n < sizeof dir) {
      memcpy(dir, d, n);
      dir[n] = 0;
      while (n > 1 && dir[n - 1] == '/') dir[--n] = 0;
      for (int first = 1;; first = 0) { /* dir, then each parent (Go's filepath.Dir) */
        snprintf(full, strlen(p) + PATH_MAX + 2, "%s/%s", dir, p);
        const char *w = NULL;
        int c = try_open(full, r, cwd, &fd, &w, &e);
        if (c == C_OPEN) break;
        if (c == C_MISSING && e == ENOMEM) {
          rc = PCOL_ENOMEM;
          break;
        }
        /* the parents of a root lie outside it: pprof would look there, we
         * do not, and there is nothing to report; a path that leaves the
         * root from the root itself ("../x", a link) is a refusal to say */
        if (c == C_REFUSED && (first || strcmp(w, "outside the source path"))) why = w;
        size_t l = strlen(dir), had = l;
        while (l > 0 && dir[l - 1] != '/') l--;
        if (l == 0) {
          if (!strcmp(dir, ".")) break;
          strcpy(dir, ".");
          continue;
        }
        while (l > 1 && dir[l - 1] == '/') l--;
        if (l == had) break; /* the root */
        dir[l] = 0;
      }
    }
    d = dend ? dend + 1 : NULL;
  }
  free(full);
  if (!rc && p[0] != '/' && fd < 0) {
    const char *s = search ? search : "";
    *msg = why ? msgf("could not find file %s on path %s (not read: %s)", p, s, why)
               : msgf("could not find file %s on path %s", p, s);
    *refused = why && outside(why);
  }
  if (!rc && fd >= 0) {
    int re = read_lines(fd, last, text, len);
    if (re == ENOMEM) rc = PCOL_ENOMEM;
    else if (re == EFBIG)
      *msg = msgf("read %s: not read: larger than %d MiB before line %lld", p,
                  (int)(PCOL_Q_SOURCE_MAX >> 20), (long long)last);
    else if (re)
      *msg = msgf("read %s: %s", p, strerror(re));
  }
  if (fd >= 0) close(fd);
  if (r) roots_free(r);
  if (!rc && !*text && !*msg) rc = PCOL_ENOMEM;
  return rc;
}
