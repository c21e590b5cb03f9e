/* cmd_diff.c — `pcol diff`: per-function change in flat and cum weight
 * between two profiles.  By default each side is normalised by its own total
 * (so a profile twice as long does not look twice as slow) and changes are
 * in percentage points; --absolute compares raw sums.  Rows are sorted by
 * the larger of |change in flat| and |change in cum|, then by name. */
#include "cli.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const cli_opt opts_diff[] = {
    {"absolute", 0, 0, "compare raw sums instead of shares of each profile's total"},
    {"value", 0, 1, "value type to compare: weight, samples, TYPE or TYPE/UNIT (default: each source's)"},
    {"by", 0, 1, "function (default), line, file or address"},
    {"limit", 'n', 1, "print only the first N rows"},
    {"format", 0, 1, "text (default), tsv, csv, json or jsonl"},
    {"no-mmap", 0, 0, "read the inputs into memory instead of mapping them"},
    CLI_OPT_FILTER,
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};

/* a sum of the value as given (pcol_value_text: 1.5, not 1500000000);
 * signed: "+" before a change that is not negative */
typedef struct vtext {
  char s[48];
} vtext;
static vtext vt_of(const pcol_value_sel *v, pcol_sum x, int sign) {
  vtext b;
  b.s[0] = '+';
  int plus = sign && x >= 0;
  pcol_value_text(v, x, b.s + plus, sizeof b.s - 1);
  return b;
}

/* opens one side and computes its flat/cum rows */
static int load(const cli_command *cmd, const cli_args *a, const char *path, pcol_by by,
                const pcol_select *sel, pcol_file **f, pcol_top *t, pcol_error *err) {
  pcol_value_sel v;
  int rc = cli_load(cmd, a, path, sel, f, &v, err);
  if (!rc && (rc = pcol_top_compute(*f, sel, &v, by, t, err))) pcol_error_prefix(err, path);
  return rc;
}

int cmd_diff(const cli_command *cmd, cli_args *a) {
  if (a->npos != 2) return cli_usage_error(cmd->name, "expected BASE and NEW");
  if (cli_stdin_once(cmd, a->pos, 2)) return EXIT_USAGE;
  int absolute = cli_flag(cmd, a, "absolute");
  pcol_by by;
  out_format fmt;
  uint64_t limit;
  if (cli_report_options(cmd, a, &by, &fmt, &limit)) return EXIT_USAGE;

  pcol_error err = {0};
  pcol_file *fb = NULL, *fn = NULL;
  pcol_top tb = {0}, tn = {0};
  pcol_diff d = {0};
  pcol_select sel; /* the filters, the same on both sides */
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  int rc = load(cmd, a, a->pos[0], by, &sel, &fb, &tb, &err);
  if (!rc) rc = load(cmd, a, a->pos[1], by, &sel, &fn, &tn, &err);
  if (!rc) rc = pcol_value_compatible(&tb.value, &tn.value, &err);
  if (!rc) rc = pcol_diff_compute(&tb, &tn, absolute, &d, &err);
  if (!rc) {
    size_t nr = d.nrows;
    pcol_diff_row *rows = d.rows;
    size_t n = limit < nr ? (size_t)limit : nr;
    if (fmt == OUT_TEXT) {
      printf("Base: %s (total %s)\nNew:  %s (total %s)\n", a->pos[0], vt_of(&tb.value, tb.total, 0).s,
             a->pos[1], vt_of(&tn.value, tn.total, 0).s);
      printf("Type: %.*s (%.*s)%s\n", (int)tn.value.type.len, tn.value.type.ptr,
             (int)tn.value.unit.len, tn.value.unit.ptr,
             absolute ? ", raw sums" : ", shares of each total in percent; deltas in points");
      if (absolute)
        printf("%10s %10s %10s %10s %10s %10s  %s\n", "base_flat", "new_flat", "d_flat",
               "base_cum", "new_cum", "d_cum", "name");
      else
        printf("%9s %9s %9s %9s %9s %9s  %s\n", "base_flat", "new_flat", "d_flat", "base_cum",
               "new_cum", "d_cum", "name");
      for (size_t k = 0; k < n; k++) {
        pcol_diff_row *r = &rows[k];
        if (absolute)
          printf("%10s %10s %10s %10s %10s %10s  ", vt_of(&tn.value, r->base_flat, 0).s,
                 vt_of(&tn.value, r->new_flat, 0).s, vt_of(&tn.value, r->abs_flat, 1).s,
                 vt_of(&tn.value, r->base_cum, 0).s, vt_of(&tn.value, r->new_cum, 0).s,
                 vt_of(&tn.value, r->abs_cum, 1).s);
        else
          printf("%8.2f%% %8.2f%% %+9.2f %8.2f%% %8.2f%% %+9.2f  ", pcol_share(r->base_flat, tb.total),
                 pcol_share(r->new_flat, tn.total), r->d_flat, pcol_share(r->base_cum, tb.total),
                 pcol_share(r->new_cum, tn.total), r->d_cum);
        fwrite(r->name.ptr, 1, r->name.len, stdout);
        putchar('\n');
      }
    } else {
      static const char *const names[] = {"base_flat", "new_flat", "delta_flat", "base_cum",
                                          "new_cum", "delta_cum", "name"};
      cli_table t;
      cli_view_meta m = {"diff", a->pos[1], tn.value.type, tn.value.unit, tn.total, &sel,
                         a->pos[0], tb.total,
                         absolute ? NULL : "percent of each total; deltas in percentage points"};
      tbl_begin_view(&t, stdout, fmt, 7, names, &m);
      char b[64];
      for (size_t k = 0; k < n; k++) {
        pcol_diff_row *r = &rows[k];
        if (absolute) {
          pcol_sum x[6] = {r->base_flat, r->new_flat, r->abs_flat, r->base_cum, r->new_cum, r->abs_cum};
          for (int q = 0; q < 6; q++) tbl_num(&t, vt_of(&tn.value, x[q], 0).s);
        } else {
          double v[6] = {pcol_share(r->base_flat, tb.total), pcol_share(r->new_flat, tn.total), r->d_flat,
                         pcol_share(r->base_cum, tb.total), pcol_share(r->new_cum, tn.total), r->d_cum};
          for (int q = 0; q < 6; q++) {
            snprintf(b, sizeof b, "%.4f", v[q]);
            tbl_num(&t, b);
          }
        }
        tbl_str(&t, r->name.ptr, r->name.len);
        tbl_end_row(&t);
      }
      tbl_finish(&t);
    }
  }
  pcol_diff_free(&d);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  if (fb) pcol_close(fb);
  if (fn) pcol_close(fn);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
