/* cmd_fold.c — `pcol fold`: collapsed stacks ("root;...;leaf value"), the
 * input of flamegraph.pl, speedscope and many other tools. */
#include "cli.h"
#include <string.h>

const cli_opt opts_fold[] = {
    CLI_OPT_VALUE("to weigh stacks by"),
    CLI_OPT_NO_MMAP,
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_SELECT_BASE,
    CLI_OPT_FILTER,
    CLI_OPT_BASE,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_fold);

int cmd_fold(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  pcol_export_options eo = {0};
  if (cli_max_output(cmd, a, &eo.max_output_bytes)) return EXIT_USAGE;
  pcol_error err = {0};
  pcol_file *f = NULL;
  pcol_value_sel v;
  const char *path;
  int rc = cli_load(cmd, a, a->pos, a->npos, &sel, &f, &v, &path, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  rc = pcol_fold_write(f, &sel, &v, &eo, stdout, &err);
  pcol_close(f);
  if (rc == PCOL_EBUDGET) cli_budget_cut();
  return rc ? cli_fail_in(cmd->name, path, &err, rc) : EXIT_OK;
}
