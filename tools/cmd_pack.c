/* cmd_pack.c — `pcol pack`: import one or more profiles, write a pcol file.
 * `pcol merge` is the same work without --from (cmd_merge.c). */
#include "cli.h"
#include <stdio.h>
#include <string.h>

const cli_opt opts_pack[] = {
    {"output", 'o', 1, "output pcol file ('-' for standard output)"},
    {"from", 'f', 1, "input format: rprof, pprof, perun, collapsed, pcol (default: detect)"},
    {"compress", 0, 1, "section compression: lz4 or none (default none)"},
    {"no-mmap", 0, 0, "read pcol and Perun inputs into memory instead of mapping them"},
    {"coalesce", 0, 0, "merge runs of identical consecutive samples into long samples"},
    {NULL, 0, 0, NULL}};

int cli_pack_inputs(const cli_command *cmd, cli_args *a, pcol_format fmt) {
  const char *out = cli_get(cmd, a, "output");
  if (!out) return cli_usage_error(cmd->name, "missing -o OUTPUT");
  if (a->npos < 1) return cli_usage_error(cmd->name, "missing INPUT");
  pcol_write_options wopt = {0};
  const char *comp = cli_get(cmd, a, "compress");
  if (comp) {
    if (!strcmp(comp, "lz4")) wopt.compress_lz4 = 1;
    else if (strcmp(comp, "none")) return cli_usage_error(cmd->name, "unknown compression '%s'", comp);
  }
  int coalesce = cli_flag(cmd, a, "coalesce");
  pcol_import_options iopt = {0};
  iopt.no_mmap = cli_flag(cmd, a, "no-mmap");
  pcol_error err = {0};
  pcol_builder *b = NULL;
  /* inputs are added one at a time: memory holds the merged tables plus one
   * input's id maps, never all inputs at once */
  int rc = pcol_builder_new(&b, &err);
  for (int i = 0; !rc && i < a->npos; i++) {
    rc = pcol_import_path(b, a->pos[i], fmt, &iopt, &err);
    if (rc && !strstr(err.message, a->pos[i])) { /* name the input that failed */
      char m[sizeof err.message];
      snprintf(m, sizeof m, "%s: %.480s", a->pos[i], err.message);
      memcpy(err.message, m, sizeof m);
    }
  }
  /* after the last input: runs are merged across every input's samples the
   * same way, whatever their format (no importer coalesces) */
  if (!rc && coalesce) rc = pcol_builder_coalesce(b, &err);
  if (!rc) rc = pcol_builder_write(b, out, &wopt, &err);
  pcol_builder_free(b);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}

int cmd_pack(const cli_command *cmd, cli_args *a) {
  pcol_format fmt = PCOL_FMT_UNKNOWN;
  const char *from = cli_get(cmd, a, "from");
  if (from && (fmt = pcol_format_by_name(from)) == PCOL_FMT_UNKNOWN)
    return cli_usage_error(cmd->name, "unknown input format '%s'", from);
  return cli_pack_inputs(cmd, a, fmt);
}
