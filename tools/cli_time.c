/* cli_time.c — --source, --from and --to into a pcol_select (cli_select),
 * with the filters: seconds since the profile's start (a unit allowed:
 * 250ms, 2s), or a wall-clock time (RFC 3339 with a zone, or
 * @EPOCH_SECONDS), read by pcol_time_parse. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

int cli_is_time(const char *s) {
  int64_t ignored;
  return pcol_time_parse(s, &ignored) >= 0;
}

const cli_filter_name cli_filters[CLI_NFILTERS] = {
    {"focus", "focus", "focus", offsetof(pcol_select, focus)},
    {"ignore", "ignore", "ignore", offsetof(pcol_select, ignore)},
    {"hide", "hide", "hide", offsetof(pcol_select, hide)},
    {"show", "show", "show", offsetof(pcol_select, show)},
    {"show-from", "show_from", "show_from", offsetof(pcol_select, show_from)},
    {"tag", "tag", "tagfocus", offsetof(pcol_select, tag)},
    {"tag-ignore", "tag_ignore", "tagignore", offsetof(pcol_select, tag_ignore)},
    {"tagshow", "tagshow", "tagshow", offsetof(pcol_select, tag_show)},
    {"taghide", "taghide", "taghide", offsetof(pcol_select, tag_hide)}};

int cli_select(const cli_command *cmd, const cli_args *a, pcol_select *sel) {
  memset(sel, 0, sizeof *sel);
  uint64_t src;
  if (cli_get_u64(cmd, a, "source", 0, &src)) return EXIT_USAGE;
  if (src > UINT32_MAX) return cli_usage_error(cmd->name, "--source is out of range");
  sel->source_id = (uint32_t)src;
  /* under --base/--diff-base --source N is of each side, as pcol diff's
   * (pcol_open_diff_base_select, in cli_open_args): the union the views
   * read has those two sources only */
  cli_base_source = 0;
  if (cli_get(cmd, a, "base") || cli_get(cmd, a, "diff-base")) cli_base_source = sel->source_id, sel->source_id = 0;
  /* The range is --from/--to in every command.  `unpack` also names its
   * output format with --to: there a --to that reads as a time is the end
   * of the range, any other is the format (cmd_unpack.c), and its older
   * spellings --from-time/--to-time stay as aliases. */
  int alt = cli_has_opt(cmd, "to-time");
  const char *from_opt = "from", *to_opt = "to";
  const char *from = cli_get(cmd, a, "from"), *to = cli_get(cmd, a, "to");
  if (alt && to && !cli_is_time(to)) to = NULL; /* the format */
  if (alt && !from && (from = cli_get(cmd, a, "from-time"))) from_opt = "from-time";
  if (alt && !to && (to = cli_get(cmd, a, "to-time"))) to_opt = "to-time";
  int wf = -1, wt = -1;
  static const char want[] = "wants seconds since the profile's start (1.5, or with a unit: 250ms, 2s, "
                             "1.5min, 1h), or a wall-clock time (2026-11-23T10:00:00Z, or @EPOCH_SECONDS)";
  if (from) {
    if ((wf = pcol_time_parse(from, &sel->from_ns)) < 0)
      return cli_usage_error(cmd->name, "--%s %s, not '%s'", from_opt, want, from);
    sel->has_from = 1;
  }
  if (to) {
    if ((wt = pcol_time_parse(to, &sel->to_ns)) < 0)
      return cli_usage_error(cmd->name, "--%s %s, not '%s'", to_opt, want, to);
    sel->has_to = 1;
  }
  if (from && to && wf != wt)
    return cli_usage_error(cmd->name, "--%s %s and --%s %s: give both in seconds since the start "
                           "or both as wall-clock times", from_opt, from, to_opt, to);
  sel->wall = wf == 1 || wt == 1;
  /* an empty expression is none, as pprof's compileRegexOption reads it */
  for (int i = 0; i < CLI_NFILTERS; i++) {
    const char *re = cli_get(cmd, a, cli_filters[i].opt);
    if (re && !*re) re = NULL;
    memcpy((char *)sel + cli_filters[i].field, &re, sizeof re);
  }
  sel->no_inlines = cli_flag(cmd, a, "no-inlines");
  sel->relative = cli_flag(cmd, a, "relative-percentages");
  /* pprof's -unit also names numeric labels in tags (and top --by label);
   * auto is pprof's default, each in its own unit; raw is a unit pprof
   * does not know (pcol_select.label_unit) */
  const char *u = cli_get(cmd, a, "unit");
  if (u && strcmp(u, "auto") && strcmp(u, "minimum")) sel->label_unit = u;
  if (from && to && sel->from_ns > sel->to_ns)
    return cli_usage_error(cmd->name, "--%s %s is after --%s %s", from_opt, from, to_opt, to);
  return 0;
}

/* pcol_range_note's note, as the views print it (the warning of a range
 * that selects no sample is pcol_view_notes', the library's) */
void cli_range_note_print(const cli_command *cmd, const char *path, char *note) {
  if (!note) return;
  fprintf(stderr, "pcol %s: note: ", cmd->name);
  cli_print_cstr(stderr, path);
  fputs(": ", stderr);
  cli_print_cstr(stderr, note);
  fputc('\n', stderr);
  free(note);
}

int cli_range_check(pcol_file *f, const pcol_select *sel, pcol_error *err) {
  if (!sel || (!sel->has_from && !sel->has_to)) return PCOL_OK;
  return pcol_select_iter(f, sel, NULL, NULL, err); /* no fn: the refusals only, no row read */
}
