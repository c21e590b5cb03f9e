/* bench_scan.c — sum the samples.weight column through the zero-copy view.
 *
 *   bench_scan FILE [REPS]
 *
 * Opens the file (mmap), takes the weight view once (the first pcol_column
 * call does the first-use checks; timed separately as view_us), then sums
 * the column REPS times.  The first pass faults the mapping in (first_gbs);
 * the median of the remaining passes is the warm figure (median_gbs).
 * Prints: ok rows=N bytes=B view_us=.. first_gbs=.. median_gbs=.. min_gbs=.. max_gbs=.. sum=S
 * Fails (exit 1) when the weight column is absent (all weights 1): there is
 * nothing to scan then; the generator's --weights makes it present.
 */
#include "pcol.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Kept out of line so the compiler cannot hoist the sum out of the loop. */
__attribute__((noinline)) static int64_t sum_i64(const int64_t *w, uint64_t n) {
  int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  uint64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += w[i];
    s1 += w[i + 1];
    s2 += w[i + 2];
    s3 += w[i + 3];
  }
  for (; i < n; i++) s0 += w[i];
  return s0 + s1 + s2 + s3;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_scan FILE [REPS]\n");
    return 2;
  }
  int reps = argc > 2 ? atoi(argv[2]) : 21;
  if (reps < 2) reps = 2;
  pcol_error err;
  pcol_file *f;
  if (pcol_open(argv[1], NULL, &f, &err)) {
    fprintf(stderr, "bench_scan: %s\n", err.message);
    return 1;
  }
  pcol_view w;
  double t0 = now_s();
  if (pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &w, &err)) {
    fprintf(stderr, "bench_scan: %s\n", err.message);
    return 1;
  }
  double view_us = (now_s() - t0) * 1e6;
  if (!w.data) {
    fprintf(stderr, "bench_scan: weight column absent (every weight is 1)\n");
    return 1;
  }
  uint64_t n = w.count, bytes = n * sizeof(int64_t);
  double *g = malloc((size_t)reps * sizeof *g), first = 0;
  int64_t sum = 0;
  for (int r = 0; r < reps; r++) {
    double a = now_s();
    int64_t s = sum_i64((const int64_t *)w.data, n);
    double dt = now_s() - a;
    if (r == 0) first = (double)bytes / dt / 1e9;
    else g[r - 1] = (double)bytes / dt / 1e9;
    if (r && s != sum) {
      fprintf(stderr, "bench_scan: sums differ between passes\n");
      return 1;
    }
    sum = s;
  }
  int m = reps - 1;
  qsort(g, (size_t)m, sizeof *g, cmpd);
  printf("ok rows=%llu bytes=%llu view_us=%.1f first_gbs=%.2f median_gbs=%.2f min_gbs=%.2f max_gbs=%.2f sum=%lld\n",
         (unsigned long long)n, (unsigned long long)bytes, view_us, first, g[m / 2], g[0], g[m - 1],
         (long long)sum);
  free(g);
  pcol_close(f);
  return 0;
}
