/* cmd_merge.c — `pcol merge`: combine profiles into one pcol file.  Each
 * input's sources keep their rows (with new ids), so provenance survives any
 * number of merges; functions, locations, mappings and strings are shared.
 * The work is pack's (cli_pack_inputs), with every input's format detected. */
#include "cli.h"

const cli_opt opts_merge[] = {
    {"output", 'o', 1, "output pcol file ('-' for standard output)"},
    {"compress", 0, 1, "section compression: none (default), lz4[:LEVEL] or zstd[:LEVEL] (see pack)"},
    CLI_OPT_FORMAT_VERSION,
    CLI_OPT_NO_MMAP,
    CLI_OPT_COALESCE,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_merge);

int cmd_merge(const cli_command *cmd, cli_args *a) {
  return cli_pack_inputs(cmd, a, PCOL_FMT_UNKNOWN);
}
