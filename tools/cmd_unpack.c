/* cmd_unpack.c — `pcol unpack`: write a profile (pcol or any format pcol
 * reads) in another format. */
#include "cli.h"
#include <string.h>

const cli_opt opts_unpack[] = {
    {"to", 't', 1, "output format: rprof, pprof, perun, collapsed, speedscope"},
    {"output", 'o', 1, "output file ('-' for standard output)"},
    {"no-gzip", 0, 0, "pprof: write raw protobuf instead of gzip"},
    {"value", 0, 1, "collapsed: value type to weigh stacks by"},
    {"no-mmap", 0, 0, "read the input into memory instead of mapping it"},
    /* not CLI_OPT_SELECT: its --to (seconds) would clash with --to FORMAT */
    {"source", 0, 1, "only samples of this source_id (see `pcol cat --table sources`)"},
    {"from-time", 0, 1, "only the part of the profile from this many seconds after its start"},
    {"to-time", 0, 1, "only the part of the profile before this many seconds after its start"},
    {NULL, 0, 0, NULL}};

int cmd_unpack(const cli_command *cmd, cli_args *a) {
  if (a->npos != 1) return cli_usage_error(cmd->name, "expected one FILE");
  const char *to = cli_get(cmd, a, "to"), *out = cli_get(cmd, a, "output");
  if (!to) return cli_usage_error(cmd->name, "missing --to FORMAT");
  if (!out) return cli_usage_error(cmd->name, "missing -o OUTPUT");
  pcol_format fmt = pcol_format_by_name(to);
  if (fmt == PCOL_FMT_UNKNOWN || fmt == PCOL_FMT_PCOL)
    return cli_usage_error(cmd->name, "cannot write format '%s'", to);
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  if (cli_get(cmd, a, "value") && fmt != PCOL_FMT_COLLAPSED) /* was silently ignored */
    return cli_usage_error(cmd->name, "--value applies to --to collapsed only; %s output keeps "
                           "the profile's value types as they are", pcol_format_name(fmt));
  /* any input format: `pcol unpack cpu.pb.gz --to rprof` converts in one step */
  pcol_error err = {0};
  pcol_open_options oo = {0};
  oo.no_mmap = cli_flag(cmd, a, "no-mmap");
  pcol_file *f;
  int rc = pcol_open_any(a->pos[0], &oo, &f, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  pcol_value_sel value, *vp = NULL;
  const char *vname = cli_get(cmd, a, "value");
  if (vname && fmt == PCOL_FMT_COLLAPSED) {
    if ((rc = pcol_value_resolve(f, &sel, vname, &value, &err))) {
      pcol_close(f);
      return cli_fail(cmd->name, &err, rc);
    }
    vp = &value;
  }
  pcol_out o;
  rc = pcol_out_open(&o, out, &err);
  if (!rc) {
    switch (fmt) {
    case PCOL_FMT_RPROF: rc = pcol_export_rprof(f, &sel, o.fp, &err); break;
    case PCOL_FMT_PPROF: rc = pcol_export_pprof(f, &sel, o.fp, !cli_flag(cmd, a, "no-gzip"), &err); break;
    case PCOL_FMT_PERUN: rc = pcol_export_perun(f, &sel, o.fp, &err); break;
    case PCOL_FMT_COLLAPSED:
      rc = pcol_export_collapsed(f, &sel, vp, o.fp, &err);
      break;
    case PCOL_FMT_SPEEDSCOPE: rc = pcol_export_speedscope(f, &sel, o.fp, &err); break;
    default: rc = pcol_error_set(&err, PCOL_EINVAL, "cannot write format '%s'", to);
    }
    if (rc) pcol_out_abort(&o);
    else rc = pcol_out_commit(&o, &err);
  }
  pcol_close(f);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
