/* cmd_unpack.c — `pcol unpack`: write a profile (pcol or any format pcol
 * reads) in another format. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_unpack[] = {
    {"to", 0, 1, "output format: rprof, pprof, perun, collapsed, speedscope, firefox, otlp, v8, chrome, perfetto; or seconds: the end of the range, as in every command"},
    {"format", 't', 1, "output format (the same as --to FORMAT, for when --to is the end of the range)"},
    {"output", 'o', 1, "output file ('-' for standard output)"},
    {"no-gzip", 0, 0, "pprof: write raw protobuf instead of gzip; firefox, v8, chrome: JSON text (also when -o "
                      "does not end in .gz)"},
    {"value", 0, 1, "--to collapsed: " CLI_VALUE_HELP("to weigh stacks by") " (without --value, a source that "
                    "counts its samples, a declared samples/count (pprof's, V8's, ...) or Rprof ticks, is "
                    "written by its count, which collapsed readers take the numbers for; a default or --value "
                    "of another unit, nanoseconds or bytes, is written with a note saying so); --to firefox: the "
                    "samples' weight (default: each source's default value); --to v8 and --to chrome: the time each "
                    "sample lasts (default: the source's default value, which must be a time); --to perfetto: the "
                    "StackSamples' primary weight, the source's other values following it (default: each "
                    "source's default value); --to "
                    "rprof: a time the lines are ticks of (perf's cpu-clock beside page-faults; a source "
                    "without it writes no line), or samples (or N naming samples/count): a line per counted "
                    "sample at its source's interval, 10 ms without one; another value is refused, "
                    "Rprof's lines being ticks of time (default: each source's default value); --to perun: the "
                    "one value written (Perun holds one resource type): bytes in the memory collector's style, "
                    "any other value in kperf's (default: the selection's, pcol top's and pcol fold's: a Go CPU "
                    "profile's cpu, not --to collapsed's counts; a source without "
                    "it is warned of, its samples not written)"},
    {"timeline", 0, 0, "speedscope: always write the evented timeline (default: when it has at most 100000 "
                       "events)"},
    {"no-timeline", 0, 0, "speedscope: never write the evented timeline"},
    CLI_OPT_DIVIDE_BY_AS("F: --to pprof: every value of every sample divided by F (a decimal, "
                         "e.g. the number of CPUs or jobs), truncated toward 0 to an integer, "
                         "as pprof -proto -divide_by writes them; 0 and a negative F are "
                         "refused, and so are the other formats, which keep the raw numbers"),
    CLI_OPT_MEAN_IGNORED("-proto"),
    CLI_OPT_RELATIVE_IGNORED("-proto", "an export writes values, not shares"),
    CLI_OPT_NO_MMAP,
    {"max-output", 0, 1, CLI_MAX_OUTPUT_HELP(" for the output and what it holds in memory")},
    /* not CLI_OPT_TO: --to is also the format here (cli_select) */
    CLI_OPT_SOURCE_BASE,
    CLI_OPT_FROM,
    {"from-time", 0, 1, "the same as --from (the older spelling)"},
    {"to-time", 0, 1, "the same as --to SECONDS (the older spelling)"},
    /* refused (cmd_unpack): an export writes each sample's whole stack */
    CLI_OPT_FILTER_WITH("refused: an export keeps each stack whole (pprof -proto -hide writes the cut stacks); "
                        "--focus/--ignore/--tag select samples, and pcol fold --hide writes cut stacks",
                        "refused, as --hide", "refused, as --hide", "refused, as --hide"),
    CLI_OPT_BASE,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_unpack);

int cmd_unpack(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  /* --to twice: a format and a range's end, in either order (`--from 0.1
   * --to 0.2 --to pprof`); the last one alone was kept, so the range lost
   * its end without a word.  Two formats or two ends are refused. */
  int kto = -1;
  for (int i = 0; cmd->opts[i].name; i++)
    if (!strcmp(cmd->opts[i].name, "to")) kto = i;
  if (kto >= 0 && a->prev[kto]) {
    const char *p = a->prev[kto], *l = a->val[kto];
    if (a->times[kto] > 2)
      return cli_usage_error(cmd->name, "--to is given %d times: give the output format once and the "
                             "range's end once", a->times[kto]);
    if (cli_is_time(p) == cli_is_time(l))
      return cli_usage_error(cmd->name, "--to is given twice (%s, %s): give the output format once and "
                             "the range's end once", p, l);
    const char *fmt = cli_is_time(p) ? l : p, *end = cli_is_time(p) ? p : l;
    const char *fname0 = cli_get(cmd, a, "format");
    if (fname0 && strcmp(fname0, fmt))
      return cli_usage_error(cmd->name, "--to %s and --format %s name two output formats", fmt, fname0);
    for (int i = 0; cmd->opts[i].name; i++)
      if (!strcmp(cmd->opts[i].name, "format")) a->val[i] = fmt;
    a->val[kto] = end;
    a->prev[kto] = NULL;
  }
  const char *to = cli_get(cmd, a, "to"), *out = cli_get(cmd, a, "output");
  const char *fname = cli_get(cmd, a, "format");
  /* --to is the format unless it reads as seconds (then the range's end, cli_select) */
  if (to && cli_is_time(to)) to = NULL;
  if (to && fname && strcmp(to, fname))
    return cli_usage_error(cmd->name, "--to %s and --format %s name two output formats", to, fname);
  if (!to) to = fname;
  if (!to) return cli_usage_error(cmd->name, "missing the output format: --to FORMAT (or -t/--format FORMAT)");
  if (!out) return cli_usage_error(cmd->name, "missing -o OUTPUT");
  pcol_format fmt = pcol_format_by_name(to);
  if (fmt == PCOL_FMT_CLICKHOUSE)
    return cli_usage_error(cmd->name, "clickhouse is one file per table: use pcol export "
                           "--to clickhouse -o DIR");
  /* formats pcol reads but does not write (v8, perf, jfr, ...) are the
   * user's choice of output, not a fault of the input */
  if (fmt != PCOL_FMT_RPROF && fmt != PCOL_FMT_PPROF && fmt != PCOL_FMT_PERUN &&
      fmt != PCOL_FMT_COLLAPSED && fmt != PCOL_FMT_SPEEDSCOPE && fmt != PCOL_FMT_FIREFOX &&
      fmt != PCOL_FMT_OTLP && fmt != PCOL_FMT_V8 && fmt != PCOL_FMT_CHROME && fmt != PCOL_FMT_PERFETTO)
    return cli_usage_error(cmd->name, "cannot write format '%s'%s (rprof, pprof, perun, collapsed, "
                           "speedscope, firefox, otlp, v8, chrome, perfetto)", to,
                           fmt == PCOL_FMT_PCOL      ? ": pcol pack or pcol merge writes pcol files"
                           : fmt == PCOL_FMT_UNKNOWN ? ""
                                                     : ": pcol reads it only");
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  sel.relative = 0; /* (--relative-percentages: ignored, as pprof -proto) */
  /* --hide, --show, --show-from, --no-inlines: refused by the export itself
   * (an export keeps each stack whole: pcol_export, exit 2) */
  if (cli_get(cmd, a, "value") && fmt != PCOL_FMT_COLLAPSED && fmt != PCOL_FMT_V8 && fmt != PCOL_FMT_CHROME &&
      fmt != PCOL_FMT_FIREFOX && fmt != PCOL_FMT_RPROF && fmt != PCOL_FMT_PERUN &&
      fmt != PCOL_FMT_PERFETTO) /* was silently ignored */
    return cli_usage_error(cmd->name, "--value applies to --to collapsed, firefox, rprof, perun, v8, chrome "
                           "and perfetto only; %s",
                           fmt == PCOL_FMT_SPEEDSCOPE ? "speedscope output writes a profile of each "
                                                        "value type"
                           : fmt == PCOL_FMT_PPROF    ? "pprof output keeps every value type of the "
                                                        "profile"
                                                      : "otlp output keeps every value type of the "
                                                        "profile");
  pcol_export_options eo = {0};
  /* pprof -proto -divide_by (printProto): the samples' values divided;
   * the other formats are pcol's, their numbers raw as a view's tsv */
  if (cli_divide_by(cmd, a, true)) return EXIT_USAGE;
  if (cli_get(cmd, a, "divide-by") && fmt != PCOL_FMT_PPROF)
    return cli_usage_error(cmd->name, "--divide-by applies to --to pprof only (pprof -proto "
                           "-divide_by); %s output keeps the raw numbers", pcol_format_name(fmt));
  eo.ratio = cli_divide_ratio();
  if (cli_max_output(cmd, a, &eo.max_output_bytes)) return EXIT_USAGE;
  eo.no_gzip = cli_flag(cmd, a, "no-gzip");
  if (cli_flag(cmd, a, "timeline") && cli_flag(cmd, a, "no-timeline"))
    return cli_usage_error(cmd->name, "--timeline and --no-timeline contradict each other");
  if ((cli_flag(cmd, a, "timeline") || cli_flag(cmd, a, "no-timeline")) && fmt != PCOL_FMT_SPEEDSCOPE)
    return cli_usage_error(cmd->name, "--timeline and --no-timeline apply to --to speedscope only");
  eo.timeline = cli_flag(cmd, a, "timeline") ? 1 : cli_flag(cmd, a, "no-timeline") ? -1 : 0;
  /* a Firefox profile is gzip JSON as the profiler writes it (.json.gz);
   * another name gets the JSON text; so does a V8 profile, and a Chrome trace */
  size_t ol = strlen(out);
  if ((fmt == PCOL_FMT_FIREFOX || fmt == PCOL_FMT_V8 || fmt == PCOL_FMT_CHROME) && (ol < 3 || strcmp(out + ol - 3, ".gz") != 0))
    eo.no_gzip = 1;
  /* any input format: `pcol unpack cpu.pb.gz --to rprof` converts in one step */
  pcol_error err = {0};
  pcol_file *f;
  const char *path;
  int rc = cli_open_args(cmd, a, a->pos, a->npos, &sel, &f, &path, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  /* an export holds one range for all its sources: a wall-clock range
   * becomes the sources' own seconds, when they start together */
  pcol_select wall = sel;
  if ((rc = pcol_select_relative(f, &wall, &sel, &err))) {
    pcol_close(f);
    return cli_fail(cmd->name, &err, rc);
  }
  pcol_value_sel value, *vp = NULL;
  const char *vname = cli_get(cmd, a, "value");
  cli_note nt = {cmd, path, "note"};
  pcol_export_notes says = {cli_export_note, &nt}; /* each note with its kind */
  { /* a relative range over several recordings: a window of each, their
     * durations added in what is written (the views' note, rd8 L2) */
    char *rnote = NULL;
    pcol_error re = {0};
    if (!pcol_range_note(f, &sel, &rnote, &re)) cli_range_note_print(cmd, path, rnote);
  }
  /* collapsed, rprof and perun write one value: --value's, else the
   * selection's default (THE default rule); v8 and chrome the time each
   * sample lasts, firefox the weight (else each source's own default) */
  int one_value = fmt == PCOL_FMT_COLLAPSED || fmt == PCOL_FMT_RPROF || fmt == PCOL_FMT_PERUN;
  if (one_value ||
      ((fmt == PCOL_FMT_V8 || fmt == PCOL_FMT_CHROME || fmt == PCOL_FMT_FIREFOX || fmt == PCOL_FMT_PERFETTO) && vname)) {
    if ((rc = pcol_value_resolve(f, &sel, vname, &value, &err))) {
      pcol_close(f);
      return cli_fail(cmd->name, &err, rc);
    }
    if (vname) vp = &value;
  }
  /* the sources whose samples it does not hold, named or not (review 16 F6) */
  if (one_value) cli_warn_written(cmd, f, &sel, &value, vname != NULL, fmt == PCOL_FMT_RPROF, path);
  /* rprof: rounding; collapsed: numbers that are no sample counts (mappings §4.2) */
  if (fmt == PCOL_FMT_RPROF || fmt == PCOL_FMT_COLLAPSED) eo.note_kinds = true, eo.note_ctx = &says;
  if (fmt == PCOL_FMT_FIREFOX) { /* a weight 0 everywhere; sources without the value asked for */
    eo.note_kinds = true, eo.note_ctx = &says;
    if (vname) cli_warn_value(cmd, f, &sel, &value, true, path);
  }
  if (fmt == PCOL_FMT_V8 || fmt == PCOL_FMT_CHROME) /* a time 0 in every sample; samples laid past the span */
    nt.word = "warning", eo.note_kinds = true, eo.note_ctx = &says;
  if (fmt == PCOL_FMT_SPEEDSCOPE || fmt == PCOL_FMT_PERUN || fmt == PCOL_FMT_PERFETTO) /* negative amounts, not written */
    nt.word = "warning", eo.note_kinds = true, eo.note_ctx = &says;
  eo.value = vp;
  /* pprof writes one Profile whose sample types are the union of the
   * sources': a type a source lacks counts 0 for its samples, as in the
   * views, and is warned of as they do */
  cli_lacking lk = {cmd, f, path, 0};
  if (fmt == PCOL_FMT_PPROF) eo.lacking = cli_lacking_note, eo.lacking_ctx = &lk;
  if (fmt == PCOL_FMT_PPROF) /* labels go tool pprof reads as none */
    nt.word = "warning", eo.note_kinds = true, eo.note_ctx = &says;
  /* and every export: the labels and value types it does not write, a
   * line "not written: ..." (lib/convert/loss.c) */
  if (!eo.note_kinds) eo.note_kinds = true, eo.note_ctx = &says;
  int replaces = cli_output_is_input(out, (char *const *)a->pos, (size_t)a->npos, 0);
  pcol_out o;
  /* a text format on standard output ends at a whole line when the budget
   * refuses it, as a view's does (outbudget.c); pprof, otlp and perfetto
   * are binary: what fitted stays, a prefix of at most B
   * bytes (doc/safety.md) */
  if (!strcmp(out, "-") && fmt != PCOL_FMT_PPROF && fmt != PCOL_FMT_OTLP && fmt != PCOL_FMT_PERFETTO &&
      cli_budget_lines()) {
    pcol_close(f);
    return EXIT_IO;
  }
  rc = pcol_out_open(&o, out, &err);
  if (!rc) {
    rc = pcol_export(f, fmt, &sel, o.fp, &eo, &err);
    if (rc == PCOL_EBUDGET) cli_budget_cut(); /* standard output: cut at a line (outbudget.c) */
    /* an export's message names what is wrong; name the input too */
    if (rc && rc != PCOL_EIO && !strstr(err.message, path)) pcol_error_prefix(&err, path);
    /* and a write that failed, the output */
    else if (rc == PCOL_EIO) pcol_error_prefix(&err, strcmp(out, "-") ? out : "standard output");
    if (rc) pcol_out_abort(&o);
    else rc = pcol_out_commit(&o, &err);
  }
  if (!rc) cli_lacking_done(&lk);
  if (!rc && replaces) {
    char what[64];
    snprintf(what, sizeof what, "the %s export", to);
    cli_warn_replaced(cmd, out, what);
  }
  pcol_close(f);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
