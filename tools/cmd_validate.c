/* cmd_validate.c — `pcol validate`: exit 0 when the file is valid.  A file
 * of another format is valid when pcol reads it whole and what it becomes
 * passes the full check. */
#include "cli.h"
#include <stdlib.h>

const cli_opt opts_validate[] = {
    {"full", 0, 0, "also verify checksums, offsets, ids, decoded sizes and order (O(size))"},
    {"no-mmap", 0, 0, "read the file into memory instead of mapping it"},
    {"quiet", 'q', 0, "print nothing when the file is valid"},
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};

int cmd_validate(const cli_command *cmd, cli_args *a) {
  if (a->npos != 1) return cli_usage_error(cmd->name, "expected one FILE");
  pcol_file *f;
  int rc = cli_open(cmd, a, a->pos[0], &f);
  if (rc) return rc;
  pcol_error err = {0};
  /* another format was parsed in full to open it: check what it became */
  pcol_format in = cli_input_format(a->pos[0]);
  int converted = in != PCOL_FMT_PCOL && in != PCOL_FMT_UNKNOWN;
  int full = cli_flag(cmd, a, "full") || converted;
  rc = full ? pcol_validate_full(f, &err) : PCOL_OK;
  pcol_close(f);
  if (rc) {
    fprintf(stderr, "pcol validate: %s: invalid: ", a->pos[0]);
    cli_print_cstr(stderr, err.message);
    fputc('\n', stderr);
    return cli_exit_code(rc);
  }
  if (!cli_flag(cmd, a, "quiet"))
    printf("%s: valid (%s)\n", a->pos[0],
           converted ? "read in full, and its pcol conversion passes the full check"
           : full    ? "full check"
                     : "header and directory");
  return EXIT_OK;
}
