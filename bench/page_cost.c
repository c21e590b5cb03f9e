/* page_cost.c — what fresh memory costs a process on this machine: an
 * array of N KiB allocated and populated as pcol_alloc_hot does it, with
 * 4 KiB pages (malloc, one MADV_POPULATE_WRITE, memset) and with 2 MiB
 * pages (aligned_alloc to 2 MiB, MADV_HUGEPAGE, the same populate), each in
 * a fresh child process (a page reused within one process costs nothing).
 * Prints, for each size, the least and median microseconds of RUNS children.
 *   page_cost [RUNS] [KIB...]      (default 7 runs; 128 256 512 1024 4096)
 * Why: lib/core/buf.c alloc_huge; bench/results/format-1.3.md, "Huge pages". */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* One array of n bytes, as pcol_alloc_hot makes it; microseconds. */
static double one(size_t n, int huge) {
  const size_t hp = (size_t)2 << 20;
  double t0 = now_us();
  size_t r = huge ? (n + hp - 1) & ~(hp - 1) : n;
  char *q = huge ? aligned_alloc(hp, r) : malloc(n);
  if (!q) return -1;
#ifdef MADV_HUGEPAGE
  if (huge) (void)madvise(q, r, MADV_HUGEPAGE);
#endif
  uintptr_t a = ((uintptr_t)q + 4095) & ~(uintptr_t)4095, e = ((uintptr_t)q + n) & ~(uintptr_t)4095;
#ifdef MADV_POPULATE_WRITE
  if (e > a) (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#endif
  memset(q, 0, n);
  double t = now_us() - t0;
  volatile char sink = q[n / 2];
  (void)sink;
  free(q);
  return t;
}

static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 7;
  static const size_t dflt[] = {128, 256, 512, 1024, 4096};
  size_t nsz = argc > 2 ? (size_t)(argc - 2) : sizeof dflt / sizeof *dflt;
  if (runs < 1 || runs > 1000) {
    fprintf(stderr, "page_cost: RUNS is 1..1000\n");
    return 2;
  }
  printf("| KiB | 4 KiB pages: least / median us | 2 MiB pages: least / median us |\n|---:|---:|---:|\n");
  for (size_t s = 0; s < nsz; s++) {
    size_t kib = argc > 2 ? strtoul(argv[2 + s], NULL, 10) : dflt[s];
    if (kib == 0 || kib > ((size_t)1 << 22)) continue;
    double res[2][1000];
    for (int huge = 0; huge < 2; huge++)
      for (int i = 0; i < runs; i++) {
        int fd[2];
        double t = -1;
        if (pipe(fd)) return 1;
        pid_t p = fork();
        if (p == 0) {
          t = one(kib << 10, huge);
          if (write(fd[1], &t, sizeof t) != (ssize_t)sizeof t) _exit(1);
          _exit(0);
        }
        close(fd[1]);
        if (p < 0 || read(fd[0], &t, sizeof t) != (ssize_t)sizeof t) t = -1;
        close(fd[0]);
        if (p > 0) waitpid(p, NULL, 0);
        res[huge][i] = t;
      }
    qsort(res[0], (size_t)runs, sizeof(double), cmp);
    qsort(res[1], (size_t)runs, sizeof(double), cmp);
    printf("| %zu | %.0f / %.0f | %.0f / %.0f |\n", kib, res[0][0], res[0][runs / 2], res[1][0],
           res[1][runs / 2]);
  }
  return 0;
}
