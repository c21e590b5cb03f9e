/* cmd_top.c — `pcol top`: flat and cumulative weight per function, line or
 * file, printed like `pprof -top` (the numbers come from pcol_top_compute). */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_top[] = {
    {"by", 0, 1, CLI_BY_HELP ", or label:KEY (a row per value of label KEY, as pprof -tags "
                 "adds them up; the filters as on pprof -tagroot=KEY's frames).  Rprof sources by line: a "
                 "frame without a line (<GC>, a builtin) gives its flat to the innermost calling line, as "
                 "summaryRprof(lines = \"show\") does, not to itself as go tool pprof -lines does (a note "
                 "says so); by file it is \"<unknown>\", as pprof -files"},
    CLI_OPT_VALUE("to add up"),
    {"sort", 0, 1, "row order: flat (default; pprof -top), cum (pprof -top -cum's order: by cum, ties by name; the cum column is summaryRprof by.total's total.time, but R orders its ties by self time) or name"},
    {"limit", 'n', 1, "print only the first N rows (after --node-fraction; 0: all, as pprof -nodecount=0)"},
    {"node-fraction", 0, 1, "hide rows whose |cum| is below this fraction of the total, as pprof "
                            "-nodefraction (default 0.005 in text, 0 in other formats)"},
    CLI_OPT_UNIT,
    CLI_OPT_VIEW_FORMAT(" (json: an object with type, unit, total, filters and rows); numbers "
                        "stay raw, the unit is a column"),
    CLI_OPT_MEAN,
    CLI_OPT_DROP_NEGATIVE,
    CLI_OPT_DIVIDE_BY,
    CLI_OPTS_VIEW_INPUT,
    CLI_OPT_TAGKEYS_LISTED,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_top);

static double pct(pcol_sum v, pcol_sum total) {
  return total ? 100.0 * (double)v / (double)total : 0.0;
}

static const char *inline_name(int inl) {
  return inl == PCOL_INLINE_ONLY ? "inline" : inl == PCOL_INLINE_PARTIAL ? "partial-inline" : "";
}

/* pprof -top's layout (report.go printText), after pcol's File/Type lines */
static void print_text(FILE *fp, pcol_file *f, const char *path, const pcol_top *t, size_t n,
                       const pcol_select *sel, size_t dropped, pcol_sum cutoff, size_t shown_of,
                       const char *unit, const cli_header_time *ht) {
  const pcol_value_sel *v = &t->value;
  char b1[64], b3[64], p1[PCOL_PERCENT_MAX], p2[PCOL_PERCENT_MAX], p3[PCOL_PERCENT_MAX];
  cli_print_view_header(fp, f, path, t, n, sel, unit, ht);
  if (t->total && dropped) {
    cli_value_label(cutoff, v->unit, unit, b1, sizeof b1);
    fprintf(fp, "Dropped %zu node%s (cum <= %s)\n", dropped, dropped > 1 ? "s" : "", b1);
  }
  if (t->total && n > 0 && n < shown_of)
    fprintf(fp, "Showing top %zu nodes out of %zu\n", n, shown_of);
  fprintf(fp, "%10s %5s%% %5s%% %10s %5s%%\n", "flat", "flat", "sum", "cum", "cum");
  pcol_sum sum = 0;
  for (size_t i = 0; i < n; i++) {
    const pcol_top_row *r = &t->rows[i];
    sum += r->flat;
    cli_value_label(r->flat, v->unit, unit, b1, sizeof b1);
    cli_value_label(r->cum, v->unit, unit, b3, sizeof b3);
    pcol_percentage(r->flat, t->total, p1, sizeof p1);
    pcol_percentage(sum, t->total, p2, sizeof p2);
    pcol_percentage(r->cum, t->total, p3, sizeof p3);
    fprintf(fp, "%10s %s %s %10s %s  ", b1, p1, p2, b3, p3);
    cli_print_name(fp, r->name);
    if (r->inl) fprintf(fp, " (%s)", inline_name(r->inl));
    fputc('\n', fp);
  }
}

static void print_table(FILE *fp, out_format fmt, const pcol_top *t, size_t n,
                        const cli_view_meta *m) {
  static const char *const names[] = {"flat", "flat_pct", "sum_pct", "cum", "cum_pct", "name",
                                      "inline", "unit"};
  cli_table tb;
  tbl_begin_view(&tb, fp, fmt, 8, names, m);
  double sum = 0;
  char b[64];
  for (size_t i = 0; i < n; i++) {
    const pcol_top_row *r = &t->rows[i];
    double fp_ = pct(r->flat, t->total);
    sum += fp_;
    tbl_sum(&tb, r->flat);
    snprintf(b, sizeof b, "%.2f", fp_);
    tbl_num(&tb, b);
    snprintf(b, sizeof b, "%.2f", sum);
    tbl_num(&tb, b);
    tbl_sum(&tb, r->cum);
    snprintf(b, sizeof b, "%.2f", pct(r->cum, t->total));
    tbl_num(&tb, b);
    tbl_str(&tb, r->name.ptr ? r->name.ptr : "", r->name.len);
    if (r->inl) tbl_cstr(&tb, inline_name(r->inl));
    else tbl_na(&tb);
    tbl_str(&tb, t->value.unit.ptr, t->value.unit.len);
    tbl_end_row(&tb);
  }
  tbl_finish(&tb);
}

static int top_options(const cli_command *cmd, const cli_args *a, out_format fmt, pcol_sort *sort,
                    double *fraction) {
  if (cli_sort_option(cmd, a, sort)) return EXIT_USAGE;
  *fraction = fmt == OUT_TEXT ? 0.005 : 0;
  return cli_fraction_option(cmd, a, "node-fraction", fraction);
}

int cmd_top(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  pcol_by by;
  out_format fmt;
  uint64_t limit;
  pcol_sort sort;
  double fraction = 0;
  if (cli_report_options(cmd, a, &by, &fmt, &limit)) return EXIT_USAGE;
  if (top_options(cmd, a, fmt, &sort, &fraction)) return EXIT_USAGE;
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;

  pcol_error err = {0};
  pcol_file *f = NULL;
  pcol_value_sel v;
  pcol_top t = {0};
  int bad_unit = 0;
  const char *path;
  const char *bys = cli_get(cmd, a, "by");
  pcol_sum cutoff = 0;
  size_t dropped = 0;
  int many = 0; /* many pcol files: each file's rows, added up by name */
  cli_header_time ht = {0, 0, NULL, 0}; /* their time (no file of their union) */
  int mean = cli_flag(cmd, a, "mean"), by_label = bys && !strncmp(bys, "label:", 6);
  int drop_neg = cli_flag(cmd, a, "drop-negative");
  if (mean && by_label)
    return cli_usage_error(cmd->name, "--mean divides a function's value by its count: not with --by label:KEY");
  int rc = by_label || mean || drop_neg
               ? PCOL_OK
               : cli_top_many(cmd, a, a->pos, a->npos, &sel, by, fraction, sort, limit, &t,
                              &dropped, &cutoff, &f, &path, &many, &ht, &err);
  if (!rc && !many) rc = cli_load(cmd, a, a->pos, a->npos, &sel, &f, &v, &path, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  if (many) {
    /* computed, cut, sorted and marked (pcol_top_many) */
  } else if (by_label) {
    rc = pcol_top_by_label(f, &sel, &v, bys + 6, &t, &err);
    if (!rc && drop_neg) rc = pcol_top_drop_negative(&t, fraction, SIZE_MAX, &dropped, &cutoff, &err);
    else if (!rc) dropped = pcol_top_cutoff(&t, fraction, &cutoff);
    if (!rc) pcol_top_sort(&t, sort);
  } else if (drop_neg) {
    /* pprof drops the negative nodes first, then cuts by the sum of the
     * others' flat, then marks the shown ones (report.go newTrimmedGraph) */
    rc = pcol_top_compute_shown(f, &sel, &v, by, 0, sort, SIZE_MAX, &t, NULL, NULL, &err);
    if (!rc)
      rc = pcol_top_drop_negative(&t, fraction, limit < SIZE_MAX ? (size_t)limit : SIZE_MAX,
                                  &dropped, &cutoff, &err);
  } else { /* names and sorts only the rows the cut keeps, marks those shown */
    rc = pcol_top_compute_shown(f, &sel, &v, by, fraction, sort,
                                limit < SIZE_MAX ? (size_t)limit : SIZE_MAX, &t, &dropped,
                                &cutoff, &err);
  }
  char mean_type[PCOL_MEAN_TYPE_MAX];
  if (!rc && mean) rc = cli_mean(f, &sel, NULL, &t, fraction, &cutoff, mean_type, &err);
  if (!rc && by_label) {
    size_t n = limit < t.nrows ? (size_t)limit : t.nrows, all = t.nrows;
    if (dropped || n < all) { /* pprof's marks come from the graph of the rows it shows */
      t.nrows = n;
      rc = pcol_top_mark_inline(&t, &err);
      t.nrows = all;
    }
  }
  if (!rc && (by == PCOL_BY_LINE || by == PCOL_BY_SOURCE_LINE) && !many) cli_note_v8_lines(cmd, f, &sel, path);
  if (!rc && !many && !by_label) cli_note_lines_rule(cmd, f, &sel, by, path);
  if (!rc) {
    size_t n = limit < t.nrows ? (size_t)limit : t.nrows;
    if (fmt == OUT_TEXT) {
      pcol_sum *vals = malloc((2 * n + 1) * sizeof *vals);
      char unit[32];
      if (!vals) {
        rc = pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
      } else {
        for (size_t i = 0; i < n; i++) { /* pprof: a node's flat, else its cum */
          vals[i] = t.rows[i].flat ? t.rows[i].flat : t.rows[i].cum;
        }
        if (cli_view_unit(cmd, a, t.value.unit, vals, n, t.total, unit)) bad_unit = 1;
        else print_text(stdout, f, path, &t, n, &sel, dropped, cutoff, t.nrows, unit,
                        many ? &ht : NULL);
        free(vals);
      }
    } else {
      cli_view_meta m = {"top", path, t.value.type, t.value.unit, t.total, &sel, NULL, 0, NULL, 0};
      print_table(stdout, fmt, &t, n, &m);
    }
  }
  pcol_top_free(&t);
  pcol_close(f);
  if (bad_unit) return EXIT_USAGE;
  return rc ? cli_fail_in(cmd->name, path, &err, rc) : EXIT_OK;
}
