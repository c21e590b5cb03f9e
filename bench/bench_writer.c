/* bench_writer.c — the streaming writer's time and memory (README
 * "Streaming writer", include/pcol.h): N samples of 10 frames, 2 values and
 * a label, from DISTINCT distinct stacks (0: every stack distinct, the
 * worst case for the per-file tables), rolled every ROLL samples (0: one
 * file).  Run it under `/usr/bin/time -f %M` (or bench/timecmd) for the
 * peak RSS.
 *
 *   bench_writer OUT.pcol N ROLL DISTINCT */
#include <pcol.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: bench_writer OUT.pcol N ROLL DISTINCT\n");
    return 2;
  }
  uint64_t n = strtoull(argv[2], NULL, 10), roll = strtoull(argv[3], NULL, 10);
  uint64_t distinct = strtoull(argv[4], NULL, 10);
  static const pcol_writer_value_type vts[2] = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  pcol_writer_options o = {.value_types = vts, .nvalue_types = 2, .roll_samples = roll};
  pcol_writer *w;
  pcol_error err;
  if (pcol_writer_open(&w, argv[1], &o, &err)) {
    fprintf(stderr, "bench_writer: %s\n", err.message);
    return 1;
  }
  char names[200][16];
  for (int i = 0; i < 200; i++) snprintf(names[i], sizeof names[i], "fn_%d", i);
  uint64_t x = 88172645463325252ull;
  for (uint64_t i = 0; i < n; i++) {
    if (distinct) x = 88172645463325252ull + (i * 7919) % distinct; /* one of DISTINCT stacks */
    pcol_writer_frame fr[10];
    for (int k = 0; k < 10; k++) { /* xorshift64: 5 random outer frames of 200 x 50 lines */
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      fr[k] = (pcol_writer_frame){names[k < 5 ? x % 200 : (uint64_t)k], "f.c",
                                  (int64_t)(x % 50) + 1, 0};
    }
    int64_t v[2] = {1, 10000000};
    pcol_writer_label lab = {"thread", (x & 1) ? "a" : "b", 0, NULL};
    pcol_writer_sample s = {.frames = fr, .nframes = 10, .values = v, .nvalues = 2,
                            .has_time = 1,
                            .time_unix_ns = 1763890000000000000LL + (int64_t)i * 1000000,
                            .labels = &lab, .nlabels = 1};
    if (pcol_writer_add(w, &s, &err)) {
      fprintf(stderr, "bench_writer: %s\n", err.message);
      return 1;
    }
  }
  if (pcol_writer_close(w, &err)) {
    fprintf(stderr, "bench_writer: %s\n", err.message);
    return 1;
  }
  return 0;
}
