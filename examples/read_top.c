/* read_top.c — open a pcol file through the public header and print the
 * sample count and the five functions with the largest self weight. */
#include <pcol.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: read_top FILE.pcol\n");
    return 2;
  }
  pcol_file *f;
  pcol_error err;
  if (pcol_open(argv[1], NULL, &f, &err)) {
    fprintf(stderr, "read_top: %s\n", err.message);
    return 1;
  }
  pcol_view weight, stack, stack_loc, loc_lines, line_fn, fn_name;
  if (pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &weight, &err) ||
      pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &stack, &err) ||
      pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &stack_loc, &err) ||
      pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &loc_lines, &err) ||
      pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &line_fn, &err) ||
      pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &fn_name, &err)) {
    fprintf(stderr, "read_top: %s\n", err.message);
    pcol_close(f);
    return 1;
  }
  uint64_t nsamples = pcol_rows(f, PCOL_T_SAMPLES), nfn = pcol_rows(f, PCOL_T_FUNCTIONS);
  int64_t *self = calloc(nfn + 1, sizeof *self), total = 0;
  for (uint64_t i = 0; i < nsamples; i++) {
    uint32_t s = pcol_view_u32(&stack, i);
    int64_t w = pcol_view_i64(&weight, i);
    total += w;
    if (!s) continue; /* empty stack */
    uint32_t loc = pcol_view_u32(&stack_loc, s - 1); /* innermost frame */
    uint64_t first = pcol_view_u64(&loc_lines, loc - 1);
    if (first < pcol_view_u64(&loc_lines, loc)) self[pcol_view_u32(&line_fn, first)] += w;
  }
  printf("samples: %llu (total weight %lld)\n", (unsigned long long)nsamples, (long long)total);
  for (int k = 0; k < 5; k++) {
    uint64_t best = 0;
    for (uint64_t id = 1; id <= nfn; id++)
      if (self[id] > self[best]) best = id;
    if (!best) break;
    pcol_str name;
    pcol_string(f, pcol_view_u32(&fn_name, best - 1), &name, NULL);
    printf("%10lld  %.*s\n", (long long)self[best], (int)name.len, name.ptr ? name.ptr : "NA");
    self[best] = 0;
  }
  free(self);
  pcol_close(f);
  return 0;
}
