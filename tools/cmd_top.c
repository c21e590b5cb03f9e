/* cmd_top.c — `pcol top`: flat and cumulative weight per function, line or
 * file, printed like `pprof -top` (the numbers come from pcol_top_compute). */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_top[] = {
    {"by", 0, 1, "function (default), line (file#line, as summaryRprof lines=\"show\") or file"},
    {"value", 0, 1, "value to add up: weight (the weight column), samples, TYPE or TYPE/UNIT; cpu works on Rprof too (interval x ticks), rprof.alloc on Rprof memory profiles (default: the source's)"},
    {"limit", 'n', 1, "print only the first N rows"},
    {"format", 0, 1, "text (default), tsv, csv or json"},
    {"no-mmap", 0, 0, "read the input into memory instead of mapping it"},
    CLI_OPT_SELECT,
    {NULL, 0, 0, NULL}};

static double pct(int64_t v, int64_t total) {
  return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* a sum of the value as given (pcol_value_text: 1.5, not 1500000000) */
typedef struct vtext {
  char s[48];
} vtext;
static vtext vt_of(const pcol_value_sel *v, int64_t x) {
  vtext b;
  pcol_value_text(v, x, b.s, sizeof b.s);
  return b;
}

static void print_text(FILE *fp, const char *path, const pcol_top *t, size_t n) {
  const pcol_value_sel *v = &t->value;
  fprintf(fp, "File: %s\n", path);
  pcol_str unit; /* of the numbers as printed: "1e-9 B" values print in B */
  pcol_value_decimals(v, &unit);
  fprintf(fp, "Type: %.*s", (int)v->type.len, v->type.ptr ? v->type.ptr : "NA");
  fprintf(fp, unit.len || !unit.ptr ? " (%.*s)\n" : "\n", (int)unit.len, unit.ptr ? unit.ptr : "NA");
  int64_t shown = 0;
  for (size_t i = 0; i < n; i++) shown += t->rows[i].flat;
  fprintf(fp, "Showing nodes accounting for %s, %.2f%% of %s total\n", vt_of(v, shown).s,
          pct(shown, t->total), vt_of(v, t->total).s);
  if (n < t->nrows) fprintf(fp, "Showing top %zu nodes out of %zu\n", n, t->nrows);
  fprintf(fp, "%10s %7s %7s %10s %7s  %s\n", "flat", "flat%", "sum%", "cum", "cum%", "name");
  double sum = 0;
  for (size_t i = 0; i < n; i++) {
    const pcol_top_row *r = &t->rows[i];
    sum += pct(r->flat, t->total);
    fprintf(fp, "%10s %6.2f%% %6.2f%% %10s %6.2f%%  ", vt_of(v, r->flat).s,
            pct(r->flat, t->total), sum, vt_of(v, r->cum).s, pct(r->cum, t->total));
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
    tbl_num(&tb, vt_of(&t->value, r->flat).s);
    snprintf(b, sizeof b, "%.2f", fp_);
    tbl_num(&tb, b);
    snprintf(b, sizeof b, "%.2f", sum);
    tbl_num(&tb, b);
    tbl_num(&tb, vt_of(&t->value, r->cum).s);
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
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
