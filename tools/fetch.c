/* Profiles fetched over HTTP, as `go tool pprof http://host:6060/debug/pprof/heap`
 * fetches them: every input argument that is an http:// URL (or a
 * HOST:PORT[/PATH] that is no file, input_is_url) is read into a
 * temporary file before the command runs, and that file stands for it (its
 * name in messages and in the source it makes is the URL); --seconds N
 * asks each for seconds=N (fetch_url), as go tool pprof -seconds N.  The files are
 * removed at exit, and on SIGINT/SIGTERM/SIGHUP.
 *
 * A plain HTTP/1.1 GET (RFC 9112) written here, not a library: the CLI is
 * one static binary (Makefile), and a profile endpoint is plain HTTP on a
 * local port (Go's net/http/pprof, pprof-rs, py-spy's and async-profiler's
 * servers).  A URL with no path asks for /debug/pprof/profile, as
 * go tool pprof's (url_default_path).  https:// is refused with the curl command that does it.  The
 * server is as hostile as any file: every line it sends is bounded
 * (FETCH_LINE), the headers too (FETCH_HEADERS), the body by
 * PCOL_INPUT_CAP_MAX, and the whole fetch by a deadline (pprof's rule,
 * fetch.go adjustURL and fetchURL: 1.5 x the URL's seconds=N, else 60 s,
 * plus 5 s; PCOL_FETCH_TIMEOUT=SECONDS sets it), the name's lookup too.
 * What the server says in an error reaches the terminal through the text
 * rule (cli_print_cstr). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define FETCH_LINE 8192          /* a status, header or chunk-size line */
#define FETCH_HEADERS 100        /* header lines of a response */
#define FETCH_REDIRECTS 5
#define FETCH_MAX 64             /* fetched inputs of one command */
#define FETCH_MESSAGE 300        /* bytes of a server's error text shown */
#define CPU_PATH "/debug/pprof/profile" /* a URL's default path (url_default_path) */

/* ------------------------------------------------ the stand-ins */
/* Temporary files that stand for an input under another name (a URL's
 * body, a shell's union): removed at exit and on the signals. */
static struct {
  char tmp[4096]; /* the signal handler reads it: written before nfetched counts it */
  char *url;      /* NULL: out of memory when it was registered */
} fetched[FETCH_MAX];
static size_t nfetched;

static void remove_fetched(void) {
  for (size_t i = 0; i < nfetched; i++) unlink(fetched[i].tmp);
}
static void on_signal(int sig) {
  remove_fetched(); /* unlink and raise are async-signal-safe */
  pcol_out_remove_inflight(); /* the outputs not yet renamed into place */
  signal(sig, SIG_DFL);
  raise(sig);
}

void cli_cleanup_on_signals(void) {
  static int once;
  if (once++) return;
  atexit(remove_fetched);
  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  /* a signal the parent ignores stays ignored (nohup's SIGHUP, a
   * background job's SIGINT, SIGPIPE for a writer that wants EPIPE) */
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP,
                             SIGPIPE}; /* SIGPIPE: `pcol fold URL | head`, the reader went away */
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction old;
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sigs[i], &sa, NULL);
  }
}

const char *cli_fetched_url(const char *path) {
  for (size_t i = 0; path && i < nfetched; i++)
    if (fetched[i].url && !strcmp(path, fetched[i].tmp)) return fetched[i].url;
  return NULL;
}

int cli_temp_file(const char *what, const char *name, char **path, int *fd, pcol_error *err) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) dir = "/tmp";
  if (nfetched == FETCH_MAX)
    return pcol_error_set(err, PCOL_EINVAL, "at most %d temporary inputs a command", FETCH_MAX);
  char *p = fetched[nfetched].tmp; /* made in place: the handler's copy and the name */
  if ((size_t)snprintf(p, sizeof fetched[0].tmp, "%s/pcol-%s-XXXXXX", dir, what) >= sizeof fetched[0].tmp)
    return pcol_error_set(err, PCOL_EINVAL, "TMPDIR too long");
  cli_cleanup_on_signals();
  /* registered before any byte is written, so that exit and the signals remove it */
  *fd = mkostemp(p, O_CLOEXEC);
  if (*fd < 0) return pcol_error_set(err, PCOL_EIO, "%s: cannot make a temporary file in %s: %s",
                                     name, dir, strerror(errno));
  nfetched++; /* exit and the signal handler remove it from here on */
  if (!(fetched[nfetched - 1].url = strdup(name))) {
    close(*fd);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  *path = p;
  return PCOL_OK;
}

const char *const *cli_fetched_names(const char *const *paths, size_t n) {
  if (!nfetched) return NULL;
  static const char **names;
  static size_t cap;
  if (n > cap) {
    const char **p = realloc(names, n * sizeof *p);
    if (!p) return NULL; /* the paths then: only the names differ */
    names = p;
    cap = n;
  }
  for (size_t i = 0; i < n; i++) names[i] = cli_fetched_url(paths[i]);
  return names;
}

int cli_is_url(const char *s) { return !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8); }

/* ------------------------------------------------------------ URLs */
typedef struct url_parts {
  char host[256], port[8];
  char target[FETCH_LINE - 64]; /* path and query, sent as they are */
  double seconds;               /* the query's seconds=N (0: none) */
} url_parts;

/* http://HOST[:PORT][/PATH][?QUERY][#FRAGMENT] (RFC 3986; no user info). */
static int url_parse(const char *url, url_parts *u, pcol_error *err) {
  memset(u, 0, sizeof *u);
  if (!strncasecmp(url, "https://", 8))
    return pcol_error_set(err, PCOL_EINVAL,
                          "%s: pcol fetches http:// only; fetch it with `curl -fsSo FILE URL` "
                          "and give the FILE", url);
  for (const char *c = url; *c; c++)
    if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f)
      return pcol_error_set(err, PCOL_EINVAL, "%s: a URL holds no space or control character "
                            "(encode it: %%20)", url);
  const char *a = url + 7, *end = a + strcspn(a, "/?#");
  if (memchr(a, '@', (size_t)(end - a)))
    return pcol_error_set(err, PCOL_EINVAL, "%s: user names and passwords in a URL are not "
                          "sent; fetch it with curl and give the file", url);
  const char *h = a, *he, *p = NULL;
  if (*h == '[') { /* an IPv6 literal */
    he = memchr(h, ']', (size_t)(end - h));
    if (!he) return pcol_error_set(err, PCOL_EINVAL, "%s: no ']' after '['", url);
    h++;
    p = he + 1 < end && he[1] == ':' ? he + 2 : NULL;
    if (he + 1 < end && he[1] != ':') return pcol_error_set(err, PCOL_EINVAL, "%s: bad host", url);
  } else {
    he = memchr(h, ':', (size_t)(end - h));
    if (he) p = he + 1;
    else he = end;
  }
  size_t hn = (size_t)(he - h), pn = p ? (size_t)(end - p) : 0;
  if (!hn || hn >= sizeof u->host) return pcol_error_set(err, PCOL_EINVAL, "%s: no host", url);
  memcpy(u->host, h, hn);
  if (p) {
    unsigned long port = 0;
    for (const char *c = p; c < end; c++)
      port = isdigit((unsigned char)*c) && port < 65536 ? port * 10 + (unsigned long)(*c - '0') : 65536;
    if (!pn || port == 0 || port > 65535)
      return pcol_error_set(err, PCOL_EINVAL, "%s: bad port", url);
    snprintf(u->port, sizeof u->port, "%lu", port);
  } else {
    strcpy(u->port, "80");
  }
  size_t tn = strcspn(end, "#");
  if (tn + sizeof CPU_PATH + 1 > sizeof u->target) return pcol_error_set(err, PCOL_EINVAL, "%s: URL too long", url);
  if (*end != '/') u->target[0] = '/';
  memcpy(u->target + strlen(u->target), end, tn);
  /* pprof's timeout comes from the query's seconds=N (fetch.go adjustURL) */
  const char *q = strchr(u->target, '?');
  for (const char *s = q; s; s = strchr(s + 1, '&'))
    if (!strncmp(s + 1, "seconds=", 8)) {
      char *e;
      double v = strtod(s + 9, &e);
      if (e != s + 9 && (*e == 0 || *e == '&') && v > 0 && v < CLI_SECONDS_MAX + 1)
        u->seconds = (long)v;
      break;
    }
  return PCOL_OK;
}

/* go tool pprof's default (cmd/pprof adjustURL): a URL with no path, or
 * the path "/" alone, asks for Go's CPU profile handler, its query kept
 * (http://host:6060?seconds=5 is /debug/pprof/profile?seconds=5).  The
 * URL given only, not where a server redirects. */
static void url_default_path(url_parts *u) {
  if (u->target[0] != '/' || (u->target[1] && u->target[1] != '?')) return;
  size_t q = strlen(u->target + 1); /* url_parse leaves room for the path */
  memmove(u->target + sizeof CPU_PATH - 1, u->target + 1, q + 1);
  memcpy(u->target, CPU_PATH, sizeof CPU_PATH - 1);
}

/* ------------------------------------------------------ connection */
typedef struct conn {
  int fd;
  double deadline; /* CLOCK_MONOTONIC seconds */
  const char *url;
  unsigned char buf[65536];
  size_t pos, len;
} conn;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits until fd is ready for ev or the deadline passes. */
static int wait_fd(conn *c, short ev, pcol_error *err) {
  for (;;) {
    double left = c->deadline - now();
    if (left <= 0)
      return pcol_error_set(err, PCOL_EIO, "%s: timed out (PCOL_FETCH_TIMEOUT=SECONDS "
                            "gives it longer)", c->url);
    struct pollfd p = {c->fd, ev, 0};
    int r = poll(&p, 1, left > 3600 ? 3600000 : (int)(left * 1000) + 1);
    if (r > 0) return PCOL_OK;
    if (r < 0 && errno != EINTR) return pcol_error_set(err, PCOL_EIO, "%s: %s", c->url, strerror(errno));
  }
}

/* A name looked up within the fetch's deadline.  getaddrinfo has no
 * timeout of its own (a resolver that does not answer holds it for
 * resolv.conf's timeout x attempts x servers), so it runs on a thread of
 * its own, and the caller waits for it at most until the deadline.  A
 * lookup given up on finishes on its own and frees what it holds (the job
 * is the thread's from then on); the process is about to exit anyway. */
typedef struct lookup {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* on CLOCK_MONOTONIC, as the deadline */
  int done, abandoned, gai;
  struct addrinfo *res;
  char *host, *port;
} lookup;

static void lookup_free(lookup *j) {
  if (j->res) freeaddrinfo(j->res);
  pthread_cond_destroy(&j->cv);
  pthread_mutex_destroy(&j->mu);
  free(j->host);
  free(j->port);
  free(j);
}

static void *lookup_run(void *p) {
  lookup *j = p;
  struct addrinfo hints = {0}, *res = NULL;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int g = getaddrinfo(j->host, j->port, &hints, &res);
  pthread_mutex_lock(&j->mu);
  j->gai = g;
  j->res = g ? NULL : res;
  j->done = 1;
  int mine = j->abandoned;
  pthread_cond_signal(&j->cv);
  pthread_mutex_unlock(&j->mu);
  if (mine) lookup_free(j);
  return NULL;
}

/* *res = host's addresses (freeaddrinfo), or an error: the resolver's, or
 * the deadline's. */
static int lookup_host(conn *c, const url_parts *u, struct addrinfo **res, pcol_error *err) {
  *res = NULL;
  lookup *j = calloc(1, sizeof *j);
  if (!j || !(j->host = strdup(u->host)) || !(j->port = strdup(u->port))) {
    if (j) free(j->host);
    free(j);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_mutex_init(&j->mu, NULL);
  pthread_cond_init(&j->cv, &ca);
  pthread_condattr_destroy(&ca);
  /* the signals stay the main thread's (cli_cleanup_on_signals' handler) */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_t th;
  pthread_attr_t ta;
  pthread_attr_init(&ta);
  pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
  int e = pthread_create(&th, &ta, lookup_run, j);
  pthread_attr_destroy(&ta);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (e) {
    lookup_free(j);
    return pcol_error_set(err, PCOL_EIO, "%s: cannot resolve '%s': %s", c->url, u->host, strerror(e));
  }
  pthread_mutex_lock(&j->mu);
  while (!j->done) {
    double at = c->deadline;
    if (at - now() <= 0) break;
    struct timespec ts = {(time_t)at, (long)((at - (double)(time_t)at) * 1e9)};
    if (ts.tv_nsec > 999999999L) ts.tv_nsec = 999999999L;
    pthread_cond_timedwait(&j->cv, &j->mu, &ts);
  }
  if (!j->done) { /* the thread frees it when it is done */
    j->abandoned = 1;
    pthread_mutex_unlock(&j->mu);
    return pcol_error_set(err, PCOL_EIO, "%s: timed out resolving '%s' (PCOL_FETCH_TIMEOUT=SECONDS "
                          "gives it longer)", c->url, u->host);
  }
  pthread_mutex_unlock(&j->mu);
  int g = j->gai;
  *res = j->res;
  j->res = NULL;
  lookup_free(j);
  if (g) return pcol_error_set(err, PCOL_EIO, "%s: cannot resolve '%s': %s", c->url, u->host, gai_strerror(g));
  return PCOL_OK;
}

static int conn_open(conn *c, const url_parts *u, pcol_error *err) {
  struct addrinfo *res = NULL;
  int e = 0, rc = lookup_host(c, u, &res, err);
  if (rc) return rc;
  c->fd = -1;
  for (struct addrinfo *ai = res; ai && c->fd < 0; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      e = errno;
      continue;
    }
    c->fd = fd;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
    socklen_t el = sizeof e;
    if (errno != EINPROGRESS) e = errno;
    else if ((rc = wait_fd(c, POLLOUT, err))) break;
    else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) == 0 && e == 0) break;
    close(fd);
    c->fd = -1;
  }
  freeaddrinfo(res);
  if (rc) {
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    return rc;
  }
  if (c->fd < 0)
    return pcol_error_set(err, PCOL_EIO, "%s: cannot connect to %s port %s: %s", c->url, u->host,
                          u->port, strerror(e ? e : ECONNREFUSED));
  return PCOL_OK;
}

static int conn_send(conn *c, const char *s, size_t n, pcol_error *err) {
  while (n) {
    int rc = wait_fd(c, POLLOUT, err);
    if (rc) return rc;
    ssize_t w = send(c->fd, s, n, MSG_NOSIGNAL);
    if (w < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (w <= 0) return pcol_error_set(err, PCOL_EIO, "%s: %s", c->url, strerror(errno));
    s += w;
    n -= (size_t)w;
  }
  return PCOL_OK;
}

/* More bytes into buf; *eof at the end of the stream. */
static int conn_fill(conn *c, int *eof, pcol_error *err) {
  *eof = 0;
  if (c->pos == c->len) c->pos = c->len = 0;
  if (c->pos > 0) {
    memmove(c->buf, c->buf + c->pos, c->len - c->pos);
    c->len -= c->pos;
    c->pos = 0;
  }
  for (;;) {
    int rc = wait_fd(c, POLLIN, err);
    if (rc) return rc;
    ssize_t r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (r < 0) return pcol_error_set(err, PCOL_EIO, "%s: %s", c->url, strerror(errno));
    *eof = r == 0;
    c->len += (size_t)r;
    return PCOL_OK;
  }
}

/* A line ending in LF (a CR before it dropped) into line[0..FETCH_LINE). */
static int conn_line(conn *c, char *line, pcol_error *err) {
  for (;;) {
    unsigned char *nl = memchr(c->buf + c->pos, '\n', c->len - c->pos);
    if (nl) {
      size_t n = (size_t)(nl - (c->buf + c->pos));
      if (n >= FETCH_LINE) break;
      memcpy(line, c->buf + c->pos, n);
      if (n && line[n - 1] == '\r') n--;
      line[n] = 0;
      c->pos += (size_t)(nl - (c->buf + c->pos)) + 1;
      return PCOL_OK;
    }
    if (c->len - c->pos >= FETCH_LINE) break;
    int eof, rc = conn_fill(c, &eof, err);
    if (rc) return rc;
    if (eof) return pcol_error_set(err, PCOL_EIO, "%s: the server closed the connection in a "
                                   "response's head", c->url);
  }
  return pcol_error_set(err, PCOL_EIO, "%s: a line of the response's head is longer than %d "
                        "bytes: not an HTTP server?", c->url, FETCH_LINE);
}

/* ------------------------------------------------------- responses */
typedef struct response {
  int status;
  char reason[128];
  int chunked, has_length;
  uint64_t length;
  char location[FETCH_LINE];
  int text; /* Content-Type text/plain: the error body is shown */
} response;

static const char *header_value(const char *line, const char *name) {
  size_t n = strlen(name);
  if (strncasecmp(line, name, n) || line[n] != ':') return NULL;
  line += n + 1;
  while (*line == ' ' || *line == '\t') line++;
  return line;
}

/* The response's head; 1xx ones before it are read past (at most
 * FETCH_HEADERS of them: a loop, not a recursion a server could deepen). */
static int read_head(conn *c, response *r, pcol_error *err) {
  char line[FETCH_LINE];
  for (int informational = 0;; informational++) {
    memset(r, 0, sizeof *r);
    int rc = conn_line(c, line, err);
    if (rc) return rc;
    int n = 0;
    if (strncmp(line, "HTTP/1.", 7) || !isdigit((unsigned char)line[7]) || line[8] != ' ' ||
        sscanf(line + 9, "%3d%n", &r->status, &n) != 1 || n != 3 || r->status < 100)
      return pcol_error_set(err, PCOL_EFORMAT, "%s: not an HTTP/1.x response", c->url);
    if (line[12] == ' ') { /* the reason phrase, cut to its field */
      size_t rn = strnlen(line + 13, sizeof r->reason - 1);
      memcpy(r->reason, line + 13, rn);
      r->reason[rn] = 0;
    }
    for (int k = 0;; k++) {
      if ((rc = conn_line(c, line, err))) return rc;
      if (!line[0]) break;
      if (k == FETCH_HEADERS)
        return pcol_error_set(err, PCOL_EFORMAT, "%s: more than %d header lines", c->url, FETCH_HEADERS);
      const char *v;
      if ((v = header_value(line, "Content-Length"))) {
        char *e;
        errno = 0;
        unsigned long long x = strtoull(v, &e, 10);
        while (*e == ' ' || *e == '\t') e++;
        if (e == v || *e || errno || !isdigit((unsigned char)*v))
          return pcol_error_set(err, PCOL_EFORMAT, "%s: bad Content-Length", c->url);
        if (r->has_length && r->length != x) /* RFC 9112 6.3: unrecoverable */
          return pcol_error_set(err, PCOL_EFORMAT, "%s: two different Content-Length", c->url);
        r->length = x;
        r->has_length = 1;
      } else if ((v = header_value(line, "Transfer-Encoding"))) {
        r->chunked = strcasestr(v, "chunked") != NULL;
      } else if ((v = header_value(line, "Location"))) {
        snprintf(r->location, sizeof r->location, "%s", v);
      } else if ((v = header_value(line, "Content-Type"))) {
        r->text = !strncasecmp(v, "text/plain", 10);
      }
    }
    if (r->status >= 200) return PCOL_OK;
    if (informational == FETCH_HEADERS) /* 1xx: the real one follows */
      return pcol_error_set(err, PCOL_EFORMAT, "%s: more than %d informational responses", c->url,
                            FETCH_HEADERS);
  }
}

/* The body, written to fd (fd < 0: up to FETCH_MESSAGE bytes into msg). */
typedef struct sink {
  int fd;
  uint64_t n;
  char msg[FETCH_MESSAGE + 1];
  size_t msgn;
} sink;

static int sink_put(conn *c, sink *s, const unsigned char *p, size_t n, pcol_error *err) {
  if (s->fd < 0) { /* an error's text: its first FETCH_MESSAGE bytes, then stop */
    size_t k = n < FETCH_MESSAGE - s->msgn ? n : FETCH_MESSAGE - s->msgn;
    memcpy(s->msg + s->msgn, p, k);
    s->msgn += k;
    s->n += n;
    return s->msgn == FETCH_MESSAGE ? PCOL_ETOOBIG : PCOL_OK;
  }
  if (n > PCOL_INPUT_CAP_MAX - s->n)
    return pcol_error_set(err, PCOL_ETOOBIG, "%s: more than %llu bytes", c->url,
                          (unsigned long long)PCOL_INPUT_CAP_MAX);
  s->n += n;
  while (n) {
    ssize_t w = write(s->fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return pcol_error_set(err, PCOL_EIO, "writing %s to a temporary file: %s", c->url,
                                      strerror(w < 0 ? errno : ENOSPC));
    p += w;
    n -= (size_t)w;
  }
  return PCOL_OK;
}

/* Exactly n bytes (until the end when n is UINT64_MAX) to the sink. */
static int body_bytes(conn *c, sink *s, uint64_t n, pcol_error *err) {
  while (n) {
    if (c->pos == c->len) {
      int eof, rc = conn_fill(c, &eof, err);
      if (rc) return rc;
      if (eof) return n == UINT64_MAX ? PCOL_OK
                      : pcol_error_set(err, PCOL_EIO, "%s: the server closed the connection "
                                       "before the end of the body", c->url);
    }
    size_t k = c->len - c->pos;
    if (k > n) k = (size_t)n;
    int rc = sink_put(c, s, c->buf + c->pos, k, err);
    if (rc) return rc;
    c->pos += k;
    if (n != UINT64_MAX) n -= k;
  }
  return PCOL_OK;
}

static int read_body(conn *c, const response *r, sink *s, pcol_error *err) {
  if (!r->chunked) return body_bytes(c, s, r->has_length ? r->length : UINT64_MAX, err);
  char line[FETCH_LINE];
  for (;;) { /* RFC 9112 7.1: size [;ext] CRLF data CRLF ... 0 CRLF trailers CRLF */
    int rc = conn_line(c, line, err);
    if (rc) return rc;
    char *e;
    errno = 0;
    unsigned long long n = strtoull(line, &e, 16);
    if (e == line || errno || (*e && *e != ';' && *e != ' ' && *e != '\t') ||
        strspn(line, "0123456789abcdefABCDEF") != (size_t)(e - line))
      return pcol_error_set(err, PCOL_EFORMAT, "%s: bad chunk size", c->url);
    if (n == 0) break;
    if ((rc = body_bytes(c, s, n, err)) || (rc = conn_line(c, line, err))) return rc;
    if (line[0]) return pcol_error_set(err, PCOL_EFORMAT, "%s: no CRLF after a chunk", c->url);
  }
  for (int k = 0; k < FETCH_HEADERS; k++) { /* trailers */
    int rc = conn_line(c, line, err);
    if (rc || !line[0]) return rc;
  }
  return pcol_error_set(err, PCOL_EFORMAT, "%s: more than %d trailer lines", c->url, FETCH_HEADERS);
}

/* ----------------------------------------------------------- a GET */
/* GET url into fd; redirects followed (http:// only), up to FETCH_REDIRECTS. */
static int get(const char *url, double deadline, int fd, pcol_error *err) {
  char *cur = strdup(url);
  if (!cur) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  conn *c = malloc(sizeof *c);
  url_parts *u = malloc(sizeof *u);
  response *r = malloc(sizeof *r);
  char *req = malloc(FETCH_LINE + 512);
  int rc = c && u && r && req ? PCOL_OK : pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (int hop = 0; !rc; hop++) {
    if ((rc = url_parse(cur, u, err))) {
      if (hop) { /* where it was sent from: the URL given */
        char where[FETCH_LINE + 32];
        snprintf(where, sizeof where, "%s: redirected", url);
        pcol_error_prefix(err, where);
        rc = PCOL_EIO; /* the server's doing, not a usage error */
      }
      break;
    }
    if (!hop) url_default_path(u);
    c->fd = -1;
    c->pos = c->len = 0;
    c->deadline = deadline;
    c->url = url;
    if ((rc = conn_open(c, u, err))) break;
    int v6 = strchr(u->host, ':') != NULL;
    int w = snprintf(req, FETCH_LINE + 512,
                     "GET %s HTTP/1.1\r\nHost: %s%s%s%s%s\r\nUser-Agent: pcol/%s\r\n"
                     "Accept: */*\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n",
                     u->target, v6 ? "[" : "", u->host, v6 ? "]" : "",
                     strcmp(u->port, "80") ? ":" : "", strcmp(u->port, "80") ? u->port : "",
                     PCOL_VERSION_STRING);
    rc = conn_send(c, req, (size_t)w, err);
    if (!rc) rc = read_head(c, r, err);
    sink s = {.fd = r->status == 200 ? fd : -1};
    int redirect = r->status == 301 || r->status == 302 || r->status == 303 || r->status == 307 ||
                   r->status == 308;
    int said_no = !rc && r->status != 200 && (!redirect || !r->location[0]);
    if (!rc && r->status == 200) rc = read_body(c, r, &s, err);
    if (said_no) { /* its text, for the message: as much as comes by the deadline */
      pcol_error ignored = {0};
      (void)read_body(c, r, &s, &ignored);
    }
    close(c->fd);
    if (said_no) { /* the server said no: its status, and its text when it is text */
      s.msg[s.msgn] = 0;
      for (char *m = s.msg; *m; m++)
        if (*m == '\n' || *m == '\r') *m = ' ';
      rc = pcol_error_set(err, PCOL_EIO, "%s: server response: %d %s%s%s%s", url, r->status,
                          r->reason, r->text && s.msgn ? " - " : "", r->text ? s.msg : "",
                          r->text && s.n > FETCH_MESSAGE ? "..." : "");
    }
    if (rc || r->status == 200) break;
    /* a redirect (301, 302, 303, 307, 308) */
    if (hop == FETCH_REDIRECTS) {
      rc = pcol_error_set(err, PCOL_EIO, "%s: more than %d redirects", url, FETCH_REDIRECTS);
      break;
    }
    char *next;
    size_t an = strcspn(cur + 7, "/?#") + 7; /* "http://HOST:PORT" */
    if (!strncasecmp(r->location, "http://", 7) || !strncasecmp(r->location, "https://", 8)) {
      next = strdup(r->location);
    } else if (r->location[0] == '/' && r->location[1] != '/') { /* a path on the same server */
      next = malloc(an + strlen(r->location) + 1);
      if (next) sprintf(next, "%.*s%s", (int)an, cur, r->location);
    } else if (r->location[0] != '/' && !strchr(r->location, ':')) {
      /* relative to the current path's directory (RFC 3986 5.2.3) */
      size_t dn = an + strcspn(cur + an, "?#");
      while (dn > an && cur[dn - 1] != '/') dn--;
      next = malloc(dn + strlen(r->location) + 2);
      if (next) sprintf(next, "%.*s%s%s", (int)dn, cur, dn == an ? "/" : "", r->location);
    } else {
      rc = pcol_error_set(err, PCOL_EIO, "%s: redirected to '%s', which pcol does not follow",
                          url, r->location);
      break;
    }
    free(cur);
    cur = next;
    if (!cur) rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  free(cur);
  free(c);
  free(u);
  free(r);
  free(req);
  return rc;
}

/* ------------------------------------------------- the arguments */
/* Fetches url into a new temporary file; *tmp its path. */
static int fetch_one(const char *url, char **tmp, pcol_error *err) {
  url_parts *u = malloc(sizeof *u);
  if (!u) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  int rc = url_parse(url, u, err);
  double secs = u->seconds;
  free(u);
  if (rc) return rc;
  double timeout = secs > 0 ? secs * 1.5 + 5 : 65; /* pprof's fetchURL */
  const char *env = getenv("PCOL_FETCH_TIMEOUT");
  if (env && *env) {
    char *e;
    double t = strtod(env, &e);
    if (*e || !(t > 0) || t > 1e7)
      return pcol_error_set(err, PCOL_EINVAL, "PCOL_FETCH_TIMEOUT='%s': give seconds, > 0", env);
    timeout = t;
  }
  int fd;
  if ((rc = cli_temp_file("fetch", url, tmp, &fd, err))) return rc;
  if (isatty(STDERR_FILENO)) {
    fputs("pcol: fetching ", stderr);
    cli_print_cstr(stderr, url);
    fprintf(stderr, " (at most %.0f s)\n", timeout);
  }
  rc = get(url, now() + timeout, fd, err);
  if (close(fd) != 0 && !rc) rc = pcol_error_set(err, PCOL_EIO, "%s: %s", *tmp, strerror(errno));
  return rc;
}

/* The length of s's HOST:PORT when s is one, with nothing after it or '/',
 * '?' or '#' and the rest, else 0.  go tool pprof takes a source that is
 * not a file as "http://" + source when that parses with a host
 * (cmd/pprof's adjustURL); pcol takes the plain form of it only, so that a
 * file's name that merely holds a ':' (mem_03:55:24 and host:, which go
 * fetches; a:b) is still said to be a missing file: HOST is letters,
 * digits, '.', '-', '_' (an IPv4 address too) or an IPv6 address in
 * brackets (holding a ':'), PORT 1 to 65535. */
static size_t host_port_len(const char *s) {
  const char *p = s;
  if (*p == '[') {
    p += 1 + strspn(p + 1, "0123456789abcdefABCDEF:.");
    if (*p != ']' || !memchr(s, ':', (size_t)(p - s))) return 0; /* not a glob's [ab] */
    p++;
  } else {
    p += strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_");
    if (p == s || *s == '-' || *s == '.') return 0;
  }
  if (*p++ != ':') return 0;
  unsigned long port = 0;
  const char *d = p;
  while (isdigit((unsigned char)*p) && p - d < 6) port = port * 10 + (unsigned long)(*p++ - '0');
  if (p == d || p - d > 5 || port == 0 || port > 65535) return 0;
  return *p && !strchr("/?#", *p) ? 0 : (size_t)(p - s);
}

/* 1 when the input argument s is a URL to fetch: http:// or https://
 * always; HOST:PORT[/PATH] (host_port_len) when it is no file nor
 * directory, nor is its HOST:PORT one (a name in a directory called
 * host:1 is a path): an existing file wins, as in go tool pprof since Go
 * 1.22 (cmd/pprof's fetcher, os.Stat first).  *stat_errno: why s is not a
 * file, for the message when the URL fails too. */
static int input_is_url(const char *s, int *stat_errno) {
  *stat_errno = 0;
  if (cli_is_url(s)) return 1;
  size_t n = host_port_len(s);
  struct stat st;
  if (!n || stat(s, &st) == 0) return 0;
  *stat_errno = errno;
  char auth[300]; /* HOST:PORT: a [IPv6] of any length is not a host */
  if (n >= sizeof auth) return 0;
  memcpy(auth, s, n);
  auth[n] = 0;
  return s[n] == 0 || stat(auth, &st) != 0;
}

/* The URL fetched for the argument s: "http://" before a HOST:PORT, and
 * with --seconds N the query's seconds=N, as go tool pprof -seconds N sets
 * it (cmd/pprof's adjustURL: values.Set, on every path, replacing each
 * seconds= the URL has; here the others keep their place, and seconds=N
 * comes last).  malloc'd; NULL: out of memory. */
static char *fetch_url(const char *s, const char *seconds) {
  const char *scheme = cli_is_url(s) ? "" : "http://";
  size_t n = strlen(s), fn = strcspn(s, "#"), qn = strcspn(s, "?#");
  char *r = malloc(strlen(scheme) + n + (seconds ? strlen(seconds) + 16 : 0) + 1);
  if (!r) return NULL;
  if (!seconds) {
    sprintf(r, "%s%s", scheme, s);
    return r;
  }
  char *w = r + sprintf(r, "%s%.*s", scheme, (int)qn, s);
  char sep = '?';
  for (const char *p = s + qn; p < s + fn;) { /* each parameter of the query */
    p++;
    size_t k = strcspn(p, "&#");
    if (k && !(k >= 7 && !strncmp(p, "seconds", 7) && (k == 7 || p[7] == '='))) {
      w += sprintf(w, "%c%.*s", sep, (int)k, p);
      sep = '&';
    }
    p += k;
  }
  sprintf(w, "%cseconds=%s%s", sep, seconds, s + fn);
  return r;
}

/* Every positional argument, and each value of the options that name an
 * input, that is a URL. */
static const char *const url_opts[] = {"base", "diff-base", "diff", NULL};

int cli_fetch_args(const cli_command *cmd, cli_args *a) {
  /* --seconds N: checked whether or not an input is a URL */
  const char *seconds = cli_get(cmd, a, "seconds");
  if (seconds) {
    unsigned long v = 0;
    const char *c = seconds;
    while (isdigit((unsigned char)*c) && v <= CLI_SECONDS_MAX) v = v * 10 + (unsigned long)(*c++ - '0');
    if (c == seconds || *c || v == 0 || v > CLI_SECONDS_MAX)
      return cli_usage_error(cmd->name, "--seconds wants a whole number of seconds from 1 to %d "
                             "(pprof's -seconds), not '%s'", CLI_SECONDS_MAX, seconds);
    while (seconds[0] == '0') seconds++; /* 007: seconds=7 */
  }
  const char **slots[CLI_MAX_OPTS + 1];
  int stat_err[CLI_MAX_OPTS + 1];
  size_t ns = 0;
  /* peek, list and disasm end with a REGEX, not an input */
  int inputs = a->npos - (!strcmp(cmd->name, "peek") || !strcmp(cmd->name, "list") ||
                          !strcmp(cmd->name, "disasm"));
  for (int i = 0; i < inputs; i++)
    if (input_is_url(a->pos[i], &stat_err[ns])) {
      if (ns == CLI_MAX_OPTS) return cli_usage_error(cmd->name, "at most %d URLs a command", CLI_MAX_OPTS);
      slots[ns++] = &a->pos[i];
    }
  int k = 0;
  for (const cli_opt *o = cmd->opts; o && o->name; o++, k++)
    for (const char *const *n = url_opts; *n; n++)
      if (!strcmp(o->name, *n) && a->val[k] && ns < CLI_MAX_OPTS && input_is_url(a->val[k], &stat_err[ns]))
        slots[ns++] = &a->val[k];
  if (!ns) return 0;
  for (size_t i = 0; i < ns; i++) {
    pcol_error err = {0};
    char *tmp = NULL, *url = fetch_url(*slots[i], seconds);
    int rc = url ? fetch_one(url, &tmp, &err) : pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
    free(url);
    if (rc && stat_err[i]) { /* HOST:PORT: neither a file nor a URL that answers, both said */
      char what[FETCH_LINE + 64];
      snprintf(what, sizeof what, "%s: %s; as a URL", *slots[i], strerror(stat_err[i]));
      pcol_error_prefix(&err, what);
    }
    if (rc) return cli_fail(cmd->name, &err, rc);
    *slots[i] = tmp;
  }
  return 0;
}
