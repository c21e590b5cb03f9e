/* fuzz_demangle.h — pprof's demangling (lib/convert/demangle.c: Itanium
 * C++, Rust v0 and legacy Rust, the heuristic for demangled C++) on any
 * bytes as a name: the work of fuzz_demangle.c, shared with the gcc replay
 * test (tests/test_fuzz_replay.c).
 *
 * For any bytes (a NUL among them too):
 *  - pcol_demangle answers -1 or a length below its buffer, and the
 *    result is NUL-terminated there and holds no other NUL;
 *  - pcol_demangle_pprof's result is below its buffer, NUL-terminated, and
 *    is the demangled name when there is one, else no longer than the
 *    name; pcol_demangle_pprof_work gives the same bytes and counts work,
 *    at least the name's bytes and at most a name's bound (demangle.h);
 *  - a name past PCOL_DEMANGLE_MAX_IN is not demangled.
 * Time and memory: demangle.c's bounds (nodes, depth, steps); libFuzzer's
 * -timeout and -rss_limit_mb catch a name that escapes them. */
#ifndef PCOL_FUZZ_DEMANGLE_H
#define PCOL_FUZZ_DEMANGLE_H
#include "demangle.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the most work one name may count: its bytes, 64 Ki nodes and their
 * memory, 1 Mi steps (demangle.c's MAX_NODES, MAX_STEPS), with room */
#define FZ_DM_MAX_WORK ((uint64_t)PCOL_DEMANGLE_MAX_IN + ((uint64_t)16 << 20))

static inline void fzdm_fail(const char *what, const uint8_t *d, size_t n) {
  fprintf(stderr, "fuzz_demangle invariant broken: %s (name of %zu bytes: '%.*s')\n", what, n,
          (int)(n < 300 ? n : 300), (const char *)d);
  abort();
}

static inline int fz_demangle_one(const uint8_t *d, size_t n) {
  static char out[PCOL_DEMANGLE_MAX_OUT];
  const char *name = (const char *)d;
  int r = pcol_demangle(name, n, out, sizeof out);
  if (r < -1 || r >= (int)sizeof out) fzdm_fail("pcol_demangle's length", d, n);
  if (r >= 0 && strlen(out) != (size_t)r) fzdm_fail("a NUL inside the demangled name", d, n);
  if (r >= 0 && n > PCOL_DEMANGLE_MAX_IN) fzdm_fail("a name past the bound demangled", d, n);
  size_t cap = n + 1 > sizeof out ? n + 1 : sizeof out;
  char *p = malloc(cap), *q = malloc(cap);
  if (!p || !q) {
    free(p);
    free(q);
    return 0;
  }
  size_t m = pcol_demangle_pprof(name, n, p, cap);
  if (m >= cap || p[m]) fzdm_fail("pcol_demangle_pprof's length", d, n);
  if (r >= 0 && (m != (size_t)r || memcmp(p, out, m)) && ((size_t)r != n || memcmp(out, name, n)))
    fzdm_fail("pcol_demangle_pprof is not the demangled name", d, n);
  if (r < 0 && m > n) fzdm_fail("the name grew without demangling", d, n);
  uint64_t work = 0;
  size_t m2 = pcol_demangle_pprof_work(name, n, q, cap, &work);
  if (m2 != m || memcmp(p, q, m)) fzdm_fail("pcol_demangle_pprof_work differs", d, n);
  if (work < n || work > n + FZ_DM_MAX_WORK) fzdm_fail("the work counted", d, n);
  free(p);
  free(q);
  return 0;
}
#endif
