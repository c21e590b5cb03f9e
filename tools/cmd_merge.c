/* cmd_merge.c — `pcol merge`: combine profiles into one pcol file.  Each
 * input's sources keep their rows (with new ids), so provenance survives any
 * number of merges; functions, locations, mappings and strings are shared. */
#include "cli.h"
#include <string.h>

const cli_opt opts_merge[] = {
    {"output", 'o', 1, "output pcol file ('-' for standard output)"},
    {"compress", 0, 1, "section compression: lz4 or none (default none)"},
    {"no-mmap", 0, 0, "read pcol inputs into memory instead of mapping them"},
    {"coalesce", 0, 0, "merge runs of identical consecutive samples into long samples"},
    {NULL, 0, 0, NULL}};

int cmd_merge(const cli_command *cmd, cli_args *a) {
  const char *out = cli_get(cmd, a, "output");
  if (!out) return cli_usage_error(cmd->name, "missing -o OUTPUT");
  if (a->npos < 1) return cli_usage_error(cmd->name, "missing INPUT");
  pcol_write_options wopt = {0};
  const char *comp = cli_get(cmd, a, "compress");
  if (comp) {
    if (!strcmp(comp, "lz4")) wopt.compress_lz4 = 1;
    else if (strcmp(comp, "none")) return cli_usage_error(cmd->name, "unknown compression '%s'", comp);
  }
  pcol_import_options iopt = {0};
  iopt.coalesce = cli_flag(cmd, a, "coalesce");
  iopt.no_mmap = cli_flag(cmd, a, "no-mmap");
  pcol_error err = {0};
  pcol_builder *b = NULL;
  /* inputs are added one at a time: memory holds the merged tables plus one
   * input's id maps, never all inputs at once */
  int rc = pcol_builder_new(&b, &err);
  for (int i = 0; !rc && i < a->npos; i++) {
    rc = pcol_import_path(b, a->pos[i], PCOL_FMT_UNKNOWN, &iopt, &err);
    if (rc && !strstr(err.message, a->pos[i])) {
      char m[sizeof err.message];
      snprintf(m, sizeof m, "%s: %.480s", a->pos[i], err.message);
      memcpy(err.message, m, sizeof m);
    }
  }
  if (!rc && iopt.coalesce) rc = pcol_builder_coalesce(b, &err);
  if (!rc) rc = pcol_builder_write(b, out, &wopt, &err);
  pcol_builder_free(b);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
