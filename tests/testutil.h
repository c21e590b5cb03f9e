/* testutil.h — helpers for the Criterion tests. */
#ifndef PCOL_TESTUTIL_H
#define PCOL_TESTUTIL_H
#include "pcol.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Path of the shared test data (../shared/testdata from the repo root). */
static inline const char *testdata_dir(void) {
  const char *d = getenv("PCOL_TESTDATA");
  return d ? d : "../shared/testdata";
}
static inline int testdata_present(void) { return access(testdata_dir(), R_OK) == 0; }
#define SKIP_WITHOUT_TESTDATA()                                                           \
  do {                                                                                    \
    if (!testdata_present()) cr_skip_test("shared test data not found at %s", testdata_dir()); \
  } while (0)

/* The whole file, NUL-terminated (malloc'd); *len gets its size. */
static inline char *tu_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert(f, "cannot open %s", path);
  char *buf = NULL;
  size_t cap = 0, n = 0, k;
  char tmp[65536];
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) {
    if (n + k + 1 > cap) {
      cap = (n + k + 1) * 2;
      buf = realloc(buf, cap);
      cr_assert(buf);
    }
    memcpy(buf + n, tmp, k);
    n += k;
  }
  fclose(f);
  if (!buf) buf = calloc(1, 1);
  cr_assert(buf);
  buf[n] = 0;
  *len = n;
  return buf;
}

/* A stream that yields `prefix`, then `fill` forever (no newline, no end):
 * an importer must stop on its input cap, not buffer it. */
typedef struct tu_endless_state {
  const char *prefix;
  size_t pos, len;
  char fill;
} tu_endless_state;
static inline ssize_t tu_endless_read(void *c, char *buf, size_t size) {
  tu_endless_state *e = c;
  size_t i = 0;
  for (; i < size && e->pos < e->len; i++) buf[i] = e->prefix[e->pos++];
  memset(buf + i, e->fill, size - i);
  return (ssize_t)size;
}
static inline int tu_endless_close(void *c) {
  free(c);
  return 0;
}
static inline FILE *tu_endless(const char *prefix, char fill) {
  tu_endless_state *e = calloc(1, sizeof *e);
  cr_assert(e);
  e->prefix = prefix;
  e->len = strlen(prefix);
  e->fill = fill;
  cookie_io_functions_t io = {tu_endless_read, NULL, NULL, tu_endless_close};
  FILE *f = fopencookie(e, "r", io);
  cr_assert(f);
  return f;
}

/* The builder's id of string s. */
static inline uint32_t tu_cstr(pcol_builder *b, const char *s) {
  uint32_t id;
  cr_assert_eq(pcol_b_cstr(b, s, &id, NULL), 0);
  return id;
}

/* Builder -> memory -> open: the round trip used by most tests. */
static inline pcol_file *tu_reopen(pcol_builder *b, const pcol_write_options *o, void **mem) {
  size_t len;
  pcol_error err = {0};
  cr_assert_eq(pcol_builder_write_mem(b, o, mem, &len, &err), 0, "%s", err.message);
  pcol_file *f = NULL;
  cr_assert_eq(pcol_open_buffer(*mem, len, NULL, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
  return f;
}
#endif
