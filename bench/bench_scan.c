/* bench_scan.c — sum the samples.weight column through the zero-copy view.
 *
 *   bench_scan FILE [REPS]
 *
 * Opens the file (mmap), takes the weight view once (the first pcol_column
 * call does the first-use checks; timed separately as view_us), then sums
 * the column REPS times.  The first pass faults the mapping in (first_gbs);
 * the median of the remaining passes is the warm figure (median_gbs).
 *
 * The column is read in whatever form the file stores it: a plain int64
 * column in place, a format 1.3 encoded one (weights 1..4 are one byte a
 * row) a block at a time through pcol_view_span_i64, as a view loop reads
 * it.  GB/s are of the logical column (8 bytes a row) so the figure means
 * the same for both forms; stored= says how many bytes the file has.
 * Prints: ok rows=N bytes=B stored=S form=plain|encoded view_us=.. first_gbs=..
 *         median_gbs=.. min_gbs=.. max_gbs=.. sum=S
 * Fails (exit 1) when the column is absent or constant (every weight the
 * same): there is nothing to scan then; the generator's --weights varies it.
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

enum { BLOCK = 4096 };

/* The sum of a view of any form, a block at a time. */
__attribute__((noinline)) static int64_t sum_view(const pcol_view *v, int64_t *buf) {
  int64_t s = 0;
  for (uint64_t i = 0; i < v->count; i += BLOCK) {
    size_t n = v->count - i < BLOCK ? (size_t)(v->count - i) : BLOCK;
    s += sum_i64(pcol_view_span_i64(v, i, n, buf), n);
  }
  return s;
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
  uint64_t one;
  if (pcol_view_const(&w, &one)) {
    fprintf(stderr, "bench_scan: weight column absent or constant (every weight is %lld)\n",
            (long long)one);
    return 1;
  }
  uint64_t n = w.count, bytes = n * sizeof(int64_t), stored = 0;
  for (uint32_t i = 0, k = pcol_section_count(f); i < k; i++) {
    pcol_section_info si;
    if (!pcol_section_get(f, i, &si, &err) && si.table == PCOL_T_SAMPLES &&
        si.column == PCOL_C_S_WEIGHT)
      stored += si.stored_size;
  }
  double *g = malloc((size_t)reps * sizeof *g), first = 0;
  int64_t *buf = malloc(BLOCK * sizeof *buf);
  if (!g || !buf) {
    fprintf(stderr, "bench_scan: out of memory\n");
    return 1;
  }
  int64_t sum = 0;
  for (int r = 0; r < reps; r++) {
    double a = now_s();
    int64_t s = sum_view(&w, buf);
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
  printf("ok rows=%llu bytes=%llu stored=%llu form=%s view_us=%.1f first_gbs=%.2f median_gbs=%.2f min_gbs=%.2f max_gbs=%.2f sum=%lld\n",
         (unsigned long long)n, (unsigned long long)bytes, (unsigned long long)stored,
         w.data ? "plain" : "encoded", view_us, first, g[m / 2], g[0], g[m - 1],
         (long long)sum);
  free(g);
  free(buf);
  pcol_close(f);
  return 0;
}
