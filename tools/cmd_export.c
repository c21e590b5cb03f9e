/* cmd_export.c — `pcol export INPUT... --to clickhouse -o DIR [--load CMD]`:
 * the profile model's tables of every input as ClickHouse Native files (one
 * per table) and the schema that receives them (doc/clickhouse.md).  Every
 * input is opened and validated before anything is written, so a damaged
 * input loads nothing. */
#include "cli.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const cli_opt opts_export[] = {
    {"to", 't', 1, "output format: clickhouse"},
    {"output", 'o', 1, "output directory (created if missing): schema.sql and pcol_TABLE.native"},
    {"load", 0, 1, "then run CMD --query 'INSERT INTO pcol_TABLE FORMAT Native' for each table, "
                   "sources last (CMD: e.g. 'clickhouse-client --host H'); without -o the files "
                   "go to a temporary directory that is removed afterwards"},
    {"cluster", 0, 1, "cluster name of the Distributed tables in schema.sql (default pcol)"},
    CLI_OPT_NO_MMAP,
    {"max-output", 0, 1, CLI_MAX_OUTPUT_HELP(" for each input's output")},
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_export);

/* dir/name into buf; 0, or a usage error when it does not fit */
static int join_path(char *buf, size_t n, const char *dir, const char *name) {
  size_t d = strlen(dir), k = strlen(name);
  if (d + k + 2 > n) return -1;
  memcpy(buf, dir, d);
  buf[d] = '/';
  memcpy(buf + d + 1, name, k + 1);
  return 0;
}

/* Streams the file at path into `cmd --query 'INSERT INTO pcol_T FORMAT Native'`. */
static int load_table(const char *cmdline, const char *table, const char *path, pcol_error *err) {
  struct stat st;
  if (stat(path, &st) != 0) return pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
  if (st.st_size == 0) return PCOL_OK; /* no rows: nothing to insert */
  size_t n = strlen(cmdline) + strlen(table) + 64;
  char *c = malloc(n);
  if (!c) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  snprintf(c, n, "%s --query 'INSERT INTO pcol_%s FORMAT Native'", cmdline, table);
  FILE *in = fopen(path, "rbe"); /* (not the loader's: close-on-exec) */
  FILE *p = in ? popen(c, "w") : NULL;
  int rc = PCOL_OK;
  if (!in) rc = pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
  else if (!p) rc = pcol_error_set(err, PCOL_EIO, "cannot run '%s': %s", c, strerror(errno));
  char buf[1 << 16];
  size_t k;
  while (!rc && (k = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, k, p) != k) rc = pcol_error_set(err, PCOL_EIO, "'%s' stopped reading", c);
  if (!rc && ferror(in)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", path);
  if (p) {
    int status = pclose(p);
    if (!rc && (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0))
      rc = pcol_error_set(err, PCOL_EIO, "'%s' failed (exit status %d)", c,
                          status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  if (in) fclose(in);
  free(c);
  return rc;
}

int cmd_export(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected at least one INPUT");
  const char *to = cli_get(cmd, a, "to"), *dir = cli_get(cmd, a, "output"),
             *load = cli_get(cmd, a, "load"), *cluster = cli_get(cmd, a, "cluster");
  if (!to) return cli_usage_error(cmd->name, "missing --to FORMAT");
  if (pcol_format_by_name(to) != PCOL_FMT_CLICKHOUSE)
    return cli_usage_error(cmd->name, "cannot export to '%s' (formats: clickhouse; `pcol unpack` "
                           "writes the others)", to);
  if (!dir && !load) return cli_usage_error(cmd->name, "missing -o DIR (or --load CMD)");
  if (dir && strcmp(dir, "-") == 0) return cli_usage_error(cmd->name, "-o names a directory");
  if (cli_stdin_once(cmd, a->pos, a->npos)) return EXIT_USAGE;
  pcol_export_options eo = {0};
  if (cli_max_output(cmd, a, &eo.max_output_bytes)) return EXIT_USAGE;

  pcol_error err = {0};
  /* a directory or a quoted glob is its files, as for merge and validate
   * (cli_expand_args), each exported as its own sources */
  char **in = NULL;
  size_t nin = 0;
  int rc = cli_expand_args(a->pos, a->npos, &in, &nin, &err);
  /* every input opened and fully validated before any output exists */
  pcol_file **files = rc ? NULL : calloc(nin ? nin : 1, sizeof *files);
  if (!rc && !files) rc = pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
  pcol_open_options oo = cli_open_options(cmd, a); /* --no-mmap, --max-rows */
  for (size_t i = 0; i < nin && !rc; i++) {
    oo.names = cli_fetched_names((const char *const *)&in[i], 1);
    rc = pcol_open_any(in[i], &oo, &files[i], &err);
    if (!rc) cli_import_warning(cmd->name, &err);
    if (!rc && (rc = pcol_validate_full(files[i], &err)) && !strstr(err.message, cli_input_name(in[i])))
      pcol_error_prefix(&err, cli_input_name(in[i]));
  }
  if (rc && nin) cli_expand_explain(in, nin, &err); /* a README in a directory, as the views say it */
  /* the schema first: a bad --cluster fails before any file is written */
  char tmpdir[4096] = "", path[4096];
  pcol_out outs[PCOL_CH_NTABLES + 1];
  FILE *streams[PCOL_CH_NTABLES];
  int nopen = 0;
  if (!rc && !dir) {
    const char *t = getenv("TMPDIR");
    if (snprintf(tmpdir, sizeof tmpdir, "%s/pcol-export-XXXXXX", t && *t ? t : "/tmp") >=
            (int)sizeof tmpdir || !mkdtemp(tmpdir))
      rc = pcol_error_set(&err, PCOL_EIO, "cannot create a temporary directory: %s", strerror(errno));
    dir = tmpdir;
  } else if (!rc && mkdir(dir, 0777) != 0 && errno != EEXIST) {
    rc = pcol_error_set(&err, PCOL_EIO, "%s: %s", dir, strerror(errno));
  }
  for (unsigned t = 0; t <= PCOL_CH_NTABLES && !rc; t++) {
    char name[64];
    if (t < PCOL_CH_NTABLES) snprintf(name, sizeof name, "pcol_%s.native", pcol_clickhouse_table(t));
    else snprintf(name, sizeof name, "schema.sql");
    if (join_path(path, sizeof path, dir, name)) rc = pcol_error_set(&err, PCOL_EINVAL, "%s: path too long", dir);
    if (!rc && !(rc = pcol_out_open(&outs[t], path, &err))) nopen++;
    if (!rc && t < PCOL_CH_NTABLES) streams[t] = outs[t].fp;
  }
  if (!rc) rc = pcol_clickhouse_schema(outs[PCOL_CH_NTABLES].fp, cluster, &err);
  uint64_t sources = 0;
  for (size_t i = 0; i < nin && !rc; i++) {
    uint64_t n = 0;
    rc = pcol_export_clickhouse(files[i], streams, &eo, &n, &err);
    if (rc && rc != PCOL_EIO && !strstr(err.message, cli_input_name(in[i])))
      pcol_error_prefix(&err, cli_input_name(in[i]));
    sources += n;
  }
  for (int t = 0; t < nopen; t++) {
    if (rc) pcol_out_abort(&outs[t]);
    else rc = pcol_out_commit(&outs[t], &err);
  }
  for (size_t i = 0; files && i < nin; i++) pcol_close(files[i]);
  free(files);
  cli_expand_free(in, nin);
  if (!rc && load) {
    signal(SIGPIPE, SIG_IGN); /* a client that stops reading is an error, not a kill */
    for (unsigned t = 0; t < PCOL_CH_NTABLES && !rc; t++) {
      char name[64];
      snprintf(name, sizeof name, "pcol_%s.native", pcol_clickhouse_table(t));
      join_path(path, sizeof path, dir, name);
      rc = load_table(load, pcol_clickhouse_table(t), path, &err);
    }
  }
  if (tmpdir[0]) { /* --load without -o: remove what was written */
    for (unsigned t = 0; t <= PCOL_CH_NTABLES; t++) {
      char name[64];
      if (t < PCOL_CH_NTABLES) snprintf(name, sizeof name, "pcol_%s.native", pcol_clickhouse_table(t));
      else snprintf(name, sizeof name, "schema.sql");
      if (!join_path(path, sizeof path, tmpdir, name)) unlink(path);
    }
    rmdir(tmpdir);
  }
  if (rc) return cli_fail(cmd->name, &err, rc);
  fprintf(stderr, "pcol export: %llu source%s of %zu input%s%s%s\n", (unsigned long long)sources,
          sources == 1 ? "" : "s", nin, nin == 1 ? "" : "s", load ? " loaded" : " written to ",
          load ? "" : dir);
  return EXIT_OK;
}
