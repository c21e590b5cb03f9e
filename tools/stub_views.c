/* Placeholder until top/fold/flame/diff/merge land (issues 3 and 5):
 * delete this file as each command gets its own cmd_*.c. */
#include "cli.h"

#define STUB(N)                                                             \
  const cli_opt opts_##N[] = {{NULL, 0, 0, NULL}};                          \
  int cmd_##N(const cli_command *cmd, cli_args *a) {                        \
    (void)a;                                                                   \
    fprintf(stderr, "pcol %s: not built yet\n", cmd->name);                    \
    return EXIT_DATA;                                                          \
  }
STUB(flame)
