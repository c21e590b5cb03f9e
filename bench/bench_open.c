/* bench_open.c — time pcol_open + pcol_close through the library in a tight
 * loop (warm page cache: the file is opened once before timing).
 *
 *   bench_open FILE [ITERATIONS]
 *
 * Prints: ok iters=N median_us=.. min_us=.. q1_us=.. q3_us=.. max_us=.. size=BYTES
 * Each iteration is timed on its own (clock_gettime costs ~20 ns, small
 * next to the ~10 µs being measured), so median and spread are per open.
 */
#include "pcol.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_open FILE [ITERATIONS]\n");
    return 2;
  }
  int iters = argc > 2 ? atoi(argv[2]) : 20000;
  if (iters < 1) iters = 1;
  struct stat st;
  if (stat(argv[1], &st) != 0) {
    perror(argv[1]);
    return 1;
  }
  double *t = malloc((size_t)iters * sizeof *t);
  if (!t) return 1;
  pcol_error err;
  pcol_file *f;
  /* warm-up: page cache, allocator, code paths */
  for (int i = 0; i < 100; i++) {
    if (pcol_open(argv[1], NULL, &f, &err)) {
      fprintf(stderr, "bench_open: %s\n", err.message);
      return 1;
    }
    pcol_close(f);
  }
  for (int i = 0; i < iters; i++) {
    double t0 = now_us();
    int rc = pcol_open(argv[1], NULL, &f, &err);
    pcol_close(f);
    t[i] = now_us() - t0;
    if (rc) {
      fprintf(stderr, "bench_open: %s\n", err.message);
      return 1;
    }
  }
  qsort(t, (size_t)iters, sizeof *t, cmpd);
  printf("ok iters=%d median_us=%.3f min_us=%.3f q1_us=%.3f q3_us=%.3f max_us=%.3f size=%lld\n", iters,
         t[iters / 2], t[0], t[iters / 4], t[iters * 3 / 4], t[iters - 1], (long long)st.st_size);
  free(t);
  return 0;
}
