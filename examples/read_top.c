/* read_top.c — open a pcol file through the public header and print the
 * five functions with the largest self value, in the profile's default
 * value and units, as `pcol top -n 5` prints them (a Go CPU profile: its
 * cpu nanoseconds, not the weight column of pprof rows). */
#include <pcol.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: read_top FILE.pcol\n");
    return 2;
  }
  pcol_file *f;
  pcol_error err;
  if (pcol_open(argv[1], NULL, &f, &err)) { /* a missing file: a message, not a crash */
    fprintf(stderr, "read_top: %s\n", err.message);
    return 1;
  }
  pcol_value_sel v; /* NULL name: the default value of the file's sources */
  pcol_top t;
  if (pcol_value_resolve(f, NULL, NULL, &v, &err) ||
      pcol_top_compute(f, NULL, &v, PCOL_BY_FUNCTION, &t, &err)) {
    fprintf(stderr, "read_top: %s\n", err.message);
    pcol_close(f);
    return 1;
  }
  size_t n = t.nrows < 5 ? t.nrows : 5;
  /* one unit for the table, chosen as pprof (and pcol top) choose it */
  pcol_sum flats[5];
  for (size_t k = 0; k < n; k++) flats[k] = t.rows[k].flat;
  char unit[32], buf[64];
  pcol_unit_pick(flats, n, t.total, v.unit, unit, sizeof unit);
  int decimals = pcol_value_decimals(&v, NULL); /* "1e-9" units: 1.5, as top prints */
  if (decimals) pcol_value_text(&v, t.total, buf, sizeof buf);
  else pcol_unit_label(t.total, v.unit, unit, buf, sizeof buf);
  printf("Type: %.*s (%.*s)\ntotal: %s\n", (int)v.type.len, v.type.ptr, (int)v.unit.len, v.unit.ptr, buf);
  for (size_t k = 0; k < n; k++) {
    if (decimals) pcol_value_text(&v, t.rows[k].flat, buf, sizeof buf);
    else pcol_unit_label(t.rows[k].flat, v.unit, unit, buf, sizeof buf);
    printf("%10s  %.*s\n", buf, (int)t.rows[k].name.len, t.rows[k].name.ptr ? t.rows[k].name.ptr : "NA");
  }
  pcol_top_free(&t);
  pcol_close(f);
  return 0;
}
