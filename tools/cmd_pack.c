/* cmd_pack.c — `pcol pack`: import one or more profiles, write a pcol file.
 * The work is cli_pack_inputs (pack.c), which `pcol merge` shares. */
#include "cli.h"

const cli_opt opts_pack[] = {
    {"output", 'o', 1, "output pcol file ('-' for standard output)"},
    {"from", 'f', 1, "input format: rprof, pprof, perun, collapsed, v8, perf, speedscope, firefox, otlp, chrome, tachyon, jfr, perfetto, pcol (default: detect)"},
    {"compress", 0, 1, "section compression: none (default: format 1.3's encoded columns, read in place), "
                       "lz4 (format 1.3: each column LZ4-compressed over its encoded or plain form where "
                       "that is smaller, else encoded, read in place; 1.5 when a column's codes are byte-split "
                       "or transformed where LZ4 then shrinks them more; 1.0 with --format-version 1.2), lz4:LEVEL "
                       "(1-12 as the lz4 command's: 1-2 the fast coder, 3-12 LZ4HC, smaller and slower to write, "
                       "as fast to read; default 4, 1 with --format-version 1.2), or zstd[:LEVEL] (level 1-22; "
                       "default: 19 for sections up to 1 MiB, 9 above; per-column transforms and a "
                       "compact directory: needs a format 1.2 reader, 1.4 when large samples "
                       "columns are in zstd blocks, 1.5 when a column's codes are byte-split). A pcol "
                       "input is rewritten with the new codec, losslessly"},
    CLI_OPT_FORMAT_VERSION,
    CLI_OPT_NO_MMAP,
    CLI_OPT_COALESCE,
    {"max-input", 0, 1, "limit in bytes (K, M, G, T: x1024) on an input after decompression (default: a gzip input "
                        "may inflate to 64 x its size, at least 32 MiB; other inputs 8 GiB)"},
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_pack);

int cmd_pack(const cli_command *cmd, cli_args *a) {
  pcol_format fmt = PCOL_FMT_UNKNOWN;
  const char *from = cli_get(cmd, a, "from");
  /* --from is a time in every other command: said so (it was "unknown
   * input format '1.5'") */
  if (from && (fmt = pcol_format_by_name(from)) == PCOL_FMT_UNKNOWN && cli_is_time(from))
    return cli_usage_error(cmd->name, "--from names the input format here (rprof, pprof, ...), not a time: pcol "
                           "pack takes no time range (the views' --from/--to select one; pcol unpack FILE "
                           "--from A --to B -t FORMAT -o OUT writes one)");
  if (from && fmt == PCOL_FMT_UNKNOWN)
    return cli_usage_error(cmd->name, "unknown input format '%s'", from);
  return cli_pack_inputs(cmd, a, fmt);
}
