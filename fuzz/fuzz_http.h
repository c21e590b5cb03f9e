/* fuzz_http.h — the HTTP response reader of the CLI's URL inputs
 * (tools/fetch.c: read_head, read_body, with their bounds), fed a server's
 * whole answer through a socket pair, as a server would send it: the work
 * of fuzz_http.c, shared with the gcc replay test (tests/test_fuzz_replay.c).
 * The CLI's printing helpers that fetch.c calls are stubbed here. */
#ifndef PCOL_FUZZ_HTTP_H
#define PCOL_FUZZ_HTTP_H
#include <fcntl.h>
#include <sys/socket.h>

#include "../tools/fetch.c"

void cli_print_cstr(FILE *fp, const char *s) { (void)fp, (void)s; }
int cli_fail(const char *cmd, const pcol_error *err, int rc) { return (void)cmd, (void)err, rc; }
int cli_usage_error(const char *cmd, const char *fmt, ...) { return (void)cmd, (void)fmt, 2; }
const char *cli_get(const cli_command *cmd, const cli_args *a, const char *name) {
  return (void)cmd, (void)a, (void)name, NULL;
}

static void fz_http_one(const uint8_t *data, size_t size) {
  int sv[2];
  if (size > 200000 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return;
  int big = 1 << 20;
  setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  size_t off = 0;
  while (off < size) { /* the whole answer, then the close: no wait below */
    ssize_t w = write(sv[0], data + off, size - off);
    if (w <= 0) break;
    off += (size_t)w;
  }
  close(sv[0]);
  static conn c;
  static response r;
  c.fd = sv[1];
  c.pos = c.len = 0;
  c.deadline = now() + 5;
  c.url = "http://fuzz/";
  pcol_error err = {0};
  int devnull = open("/dev/null", O_WRONLY);
  if (!read_head(&c, &r, &err)) {
    sink s = {.fd = r.status == 200 ? devnull : -1};
    (void)read_body(&c, &r, &s, &err);
  }
  close(devnull);
  close(sv[1]);
}
#endif
