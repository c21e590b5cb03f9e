/* pack.c — cli_pack_inputs: what `pcol pack` and `pcol merge` do: import
 * every input into one builder, coalesce once if asked, write -o atomically. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* After each input: its warning printed, its error named. */
typedef struct pack_inputs {
  const cli_command *cmd;
  char **in;
} pack_inputs;
static int after_input(void *ctx, size_t i, int rc, pcol_error *err) {
  const pack_inputs *p = ctx;
  if (!rc) cli_import_warning(p->cmd->name, err);
  const char *shown = cli_input_name(p->in[i]); /* name the input */
  if (rc && !strstr(err->message, shown)) pcol_error_prefix(err, shown);
  return rc;
}

/* "CODEC[:LEVEL]" of --compress is codec (its name's length n), its level
 * 1..max in *level (0: none given); -1 when comp is not that codec. */
static int codec_level(const cli_command *cmd, const char *comp, const char *codec, long max, long *level) {
  size_t n = strlen(codec);
  if (strncmp(comp, codec, n) || (comp[n] && comp[n] != ':')) return -1;
  *level = 0;
  if (!comp[n]) return 0;
  char *end;
  long lv = strtol(comp + n + 1, &end, 10);
  if (end == comp + n + 1 || *end || lv < 1 || lv > max)
    return cli_usage_error(cmd->name, "%s level '%s' is not a number from 1 to %ld", codec, comp + n + 1, max);
  *level = lv;
  return 0;
}

/* --compress none, lz4[:LEVEL] (1..12, as the lz4 command's) or
 * zstd[:LEVEL] (1..22) into the write options; non-zero: a usage error. */
static int compress_option(const cli_command *cmd, const char *comp, pcol_write_options *w) {
  long lv;
  int rc;
  if (!comp || !strcmp(comp, "none")) return 0;
  if ((rc = codec_level(cmd, comp, "lz4", 12, &lv)) >= 0)
    return rc ? rc : (w->compress_lz4 = 1, w->lz4_level = (uint8_t)lv, 0);
  if ((rc = codec_level(cmd, comp, "zstd", 22, &lv)) >= 0)
    return rc ? rc : (w->compress_zstd = 1, w->zstd_level = (int)lv, 0);
  return cli_usage_error(cmd->name, "unknown compression '%s' (none, lz4, lz4:LEVEL, zstd or zstd:LEVEL)", comp);
}

int cli_pack_inputs(const cli_command *cmd, cli_args *a, pcol_format fmt) {
  const char *out = cli_get(cmd, a, "output");
  if (!out) return cli_usage_error(cmd->name, "missing -o OUTPUT");
  if (a->npos < 1) return cli_usage_error(cmd->name, "missing INPUT");
  if (cli_stdin_once(cmd, a->pos, a->npos)) return EXIT_USAGE;
  pcol_write_options wopt = {0};
  if (compress_option(cmd, cli_get(cmd, a, "compress"), &wopt)) return EXIT_USAGE;
  const char *ver = cli_get(cmd, a, "format-version");
  if (ver) {
    if (!strcmp(ver, "1.2")) wopt.format_version = 2;
    else if (!strcmp(ver, "1.3")) wopt.format_version = 3;
    else if (!strcmp(ver, "1.4")) wopt.format_version = 4;
    else if (!strcmp(ver, "1.5")) wopt.format_version = 5;
    else return cli_usage_error(cmd->name, "format version '%s' cannot be written (1.2, 1.3, 1.4 or 1.5)", ver);
  }
  int coalesce = cli_flag(cmd, a, "coalesce");
  /* merge reads the output back and validates it before the rename: its
   * inputs are any valid files, whose extremes (durations of INT64_MAX)
   * once made a file its own validator refused (issue 28 #9) */
  wopt.validate = !strcmp(cmd->name, "merge");
  pcol_import_options iopt = {0};
  iopt.no_mmap = cli_flag(cmd, a, "no-mmap");
  iopt.symbolize = cli_symbolize_options(cmd, a);
  /* --max-input (pack only: merge has no such option, cli_get gives NULL) */
  if (cli_get_u64(cmd, a, "max-input", 0, &iopt.max_input_bytes)) return EXIT_USAGE;
  if (cli_get(cmd, a, "max-input") && !iopt.max_input_bytes)
    return cli_usage_error(cmd->name, "--max-input must be at least 1 byte");
  pcol_error err = {0};
  pcol_builder *b = NULL;
#ifdef __GLIBC__
  /* The builder's columns grow by doubling.  Below glibc's (dynamic, up to
   * 32 MB) mmap threshold each growth copies inside the heap and leaves the
   * old copy resident as a hole: ~100 MB of peak memory at 10M samples.
   * Mapped from 1 MB on, growth is an mremap (no copy, no hole). */
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
  /* inputs are added one at a time: memory holds the merged tables plus one
   * input's id maps, never all inputs at once */
  char **in = NULL; /* the inputs: files, directories, globs (inputs.c) */
  size_t nin = 0;
  int rc = cli_expand_args(a->pos, a->npos, &in, &nin, &err);
  iopt.names = cli_fetched_names((const char *const *)in, nin); /* URLs: fetch.c */
  int replaces = !rc && cli_output_is_input(out, in, nin, 1);
  if (!rc) rc = pcol_builder_new(&b, &err);
  /* the compressed inputs after the one imported are inflated on a thread
   * (pcol_import_paths) */
  pack_inputs pi = {cmd, in};
  if (!rc) rc = pcol_import_paths(b, (const char *const *)in, nin, fmt, &iopt, after_input, &pi, &err);
  if (rc && nin) cli_expand_explain(in, nin, &err); /* a README in a directory, as the views say it */
  cli_expand_free(in, nin);
  /* after the last input: runs are merged across every input's samples the
   * same way, whatever their format (no importer coalesces) */
  if (!rc && coalesce) rc = pcol_builder_coalesce(b, &err);
  if (!rc) rc = pcol_builder_write(b, out, &wopt, &err);
  if (!rc && replaces) cli_warn_replaced(cmd, out, "a pcol file");
  pcol_builder_free(b);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
