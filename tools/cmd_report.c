/* cmd_report.c — `pcol report`: one self-contained HTML page (timeline,
 * top table, flame graph, call tree, callers/callees, source lines;
 * recomputed in the page for a brushed time range).
 * The page and its data come from the library (pcol_report_write); this
 * file parses the options and publishes the file atomically. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_report[] = {
    {"output", 'o', 1, "output HTML file ('-' for standard output)"},
    {"diff", 0, 1, "BASE profile: add a differential flame graph against it"},
    {"title", 0, 1, "page title (default: the file's name, without its directory)"},
    CLI_OPTS_SOURCE_FILES, /* the source pane */
    CLI_OPT_TAGFRAMES,     /* a page split by label, as pprof -http's -tagroot */
    CLI_OPT_DIVIDE_BY_AS("F: every number the page shows divided by F (a decimal, e.g. the number "
                         "of CPUs or jobs), truncated to an integer of the value's unit, the units "
                         "chosen from the divided numbers, the shares those of the undivided ones: "
                         "each view's as the CLI's with --divide-by F (pprof -http's divide_by); "
                         "the page's \"divide by\" box starts at F.  0 and a negative F are refused"),
    CLI_OPT_NO_MMAP,
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_report);

int cmd_report(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  const char *out = cli_get(cmd, a, "output");
  if (!out) return cli_usage_error(cmd->name, "missing -o OUTPUT");
  /* --divide-by: refused as the views refuse it (cli_divide_by); the page
   * gets F itself, its box's starting text, and divides by 1/F */
  if (cli_divide_by(cmd, a, true)) return EXIT_USAGE;
  const char *divide_by = cli_get(cmd, a, "divide-by");
  const char *base_path = cli_get(cmd, a, "diff");
  for (int i = 0; base_path && !strcmp(base_path, "-") && i < a->npos; i++)
    if (!strcmp(a->pos[i], "-"))
      return cli_usage_error(cmd->name, "standard input ('-') can be read only once");

  pcol_error err = {0};
  pcol_file *f = NULL, *fb = NULL;
  pcol_value_sel v;
  pcol_select sel = {0};
  int quiet = 0; /* the error was the budget's: cli_budget_end prints it */
  const char *path, *blabel = NULL;
  int rc = cli_load(cmd, a, a->pos, a->npos, &sel, &f, &v, &path, &err);
  if (!rc && base_path) rc = cli_load(cmd, a, &base_path, 1, &sel, &fb, &v, &blabel, &err);
  if (!rc) {
    pcol_report_options ro = {cli_get(cmd, a, "title"), path, fb, blabel,
                              cli_get(cmd, a, "source-path"), cli_flag(cmd, a, "allow-any-source"),
                              divide_by ? strtod(divide_by, NULL) : 0};
    pcol_out o;
    int replaces = cli_output_is_input(out, (char *const *)a->pos, (size_t)a->npos, 0);
    rc = pcol_out_open(&o, out, &err);
    if (!rc) {
      FILE *fp = cli_budget_wrap(o.fp); /* the output budget (outbudget.c) */
      rc = fp ? pcol_report_write(f, &ro, fp, &err) : pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
      if (fp && fp != o.fp && fclose(fp) && !rc) rc = pcol_error_set(&err, PCOL_EIO, "%s: write error", out);
      if (cli_budget_over()) { /* cli_budget_end says so: exit 3 */
        pcol_out_abort(&o);
        quiet = rc = PCOL_EBUDGET;
      } else if (rc) {
        /* a write that failed names the output, anything else the input */
        pcol_error_prefix(&err, rc == PCOL_EIO && !strncmp(err.message, "cannot write", 12)
                                     ? (strcmp(out, "-") ? out : "standard output") : path);
        pcol_out_abort(&o);
      } else {
        rc = pcol_out_commit(&o, &err);
        if (!rc && replaces) cli_warn_replaced(cmd, out, "the report page");
      }
    }
  }
  if (f) pcol_close(f);
  if (fb) pcol_close(fb);
  return quiet ? EXIT_DATA : rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
