/* cmd_top.c — `pcol top`: flat and cumulative weight per function, line or
 * file, printed like `pprof -top` (the numbers come from pcol_top_compute). */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_top[] = {
    {"by", 0, 1, "function (default), line (\"FUNCTION /full/path:LINE\", as go tool pprof -lines) or file"},
    {"value", 0, 1, "value to add up: weight (the weight column), samples, TYPE or TYPE/UNIT; cpu works on Rprof too (interval x ticks), rprof.alloc on Rprof memory profiles (default: the source's)"},
    {"limit", 'n', 1, "print only the first N rows"},
    {"format", 0, 1, "text (default), tsv, csv or json"},
    {"no-mmap", 0, 0, "read the input into memory instead of mapping it"},
    CLI_OPT_SELECT,
    {NULL, 0, 0, NULL}};

static double pct(int64_t v, int64_t total) {
  return total ? 100.0 * (double)v / (double)total : 0.0;
}

static void print_text(FILE *fp, const char *path, const pcol_top *t, size_t n) {
  const pcol_value_sel *v = &t->value;
  fprintf(fp, "File: %s\n", path);
  fprintf(fp, "Type: %.*s (%.*s)\n", (int)v->type.len, v->type.ptr ? v->type.ptr : "NA",
          (int)v->unit.len, v->unit.ptr ? v->unit.ptr : "NA");
  int64_t shown = 0;
  for (size_t i = 0; i < n; i++) shown += t->rows[i].flat;
  fprintf(fp, "Showing nodes accounting for %lld, %.2f%% of %lld total\n", (long long)shown,
          pct(shown, t->total), (long long)t->total);
  if (n < t->nrows) fprintf(fp, "Showing top %zu nodes out of %zu\n", n, t->nrows);
  fprintf(fp, "%10s %7s %7s %10s %7s  %s\n", "flat", "flat%", "sum%", "cum", "cum%", "name");
  double sum = 0;
  for (size_t i = 0; i < n; i++) {
    const pcol_top_row *r = &t->rows[i];
    sum += pct(r->flat, t->total);
    fprintf(fp, "%10lld %6.2f%% %6.2f%% %10lld %6.2f%%  ", (long long)r->flat,
            pct(r->flat, t->total), sum, (long long)r->cum, pct(r->cum, t->total));
    /* names are printed as they are, except bytes that would break the line */
    for (size_t k = 0; k < r->name.len; k++) {
      unsigned char c = (unsigned char)r->name.ptr[k];
      if (c == '\n' || c == '\r' || c == 0) fputs("\\n", fp);
      else fputc(c, fp);
    }
    fputc('\n', fp);
  }
}

static void print_table(FILE *fp, out_format fmt, const pcol_top *t, size_t n) {
  static const char *const names[] = {"flat", "flat_pct", "sum_pct", "cum", "cum_pct", "name"};
  cli_table tb;
  tbl_begin(&tb, fp, fmt, 6, names);
  double sum = 0;
  char b[64];
  for (size_t i = 0; i < n; i++) {
    const pcol_top_row *r = &t->rows[i];
    double fp_ = pct(r->flat, t->total);
    sum += fp_;
    tbl_i64(&tb, r->flat);
    snprintf(b, sizeof b, "%.2f", fp_);
    tbl_num(&tb, b);
    snprintf(b, sizeof b, "%.2f", sum);
    tbl_num(&tb, b);
    tbl_i64(&tb, r->cum);
    snprintf(b, sizeof b, "%.2f", pct(r->cum, t->total));
    tbl_num(&tb, b);
    tbl_str(&tb, r->name.ptr ? r->name.ptr : "", r->name.len);
    tbl_end_row(&tb);
  }
  tbl_finish(&tb);
}

int cmd_top(const cli_command *cmd, cli_args *a) {
  if (a->npos != 1) return cli_usage_error(cmd->name, "expected one FILE");
  pcol_by by;
  out_format fmt;
  uint64_t limit;
  if (cli_report_options(cmd, a, &by, &fmt, &limit)) return EXIT_USAGE;
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;

  pcol_error err = {0};
  pcol_file *f = NULL;
  pcol_value_sel v;
  pcol_top t = {0};
  int rc = cli_load(cmd, a, a->pos[0], &sel, &f, &v, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  rc = pcol_top_compute(f, &sel, &v, by, &t, &err);
  if (!rc) {
    size_t n = limit < t.nrows ? (size_t)limit : t.nrows;
    if (fmt == OUT_TEXT) print_text(stdout, a->pos[0], &t, n);
    else print_table(stdout, fmt, &t, n);
  }
  pcol_top_free(&t);
  pcol_close(f);
  return rc ? cli_fail_in(cmd->name, a->pos[0], &err, rc) : EXIT_OK;
}
