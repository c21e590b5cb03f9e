/* cli_time.c — --source, --from and --to into a pcol_select (cli_select),
 * with the filters: seconds since the profile's start, or a wall-clock time
 * (RFC 3339 with a zone, or @EPOCH_SECONDS), read by pcol_time_parse. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
  static const char want[] = "wants seconds since the profile's start (1.5), or a wall-clock time "
                             "(2026-11-23T10:00:00Z, or @EPOCH_SECONDS)";
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

/* ns since the Unix epoch as RFC 3339 in UTC to the millisecond (as
 * --from/--to take it), or as seconds since the start when !wall */
static void range_time(int64_t ns, bool wall, char *buf, size_t n) {
  static const pcol_str unit = {"nanoseconds", 11};
  if (!wall) {
    pcol_unit_label(ns, unit, "minimum", buf, n);
    return;
  }
  int64_t sec = ns / 1000000000, ms = (ns % 1000000000) / 1000000;
  if (ms < 0) sec--, ms += 1000;
  time_t t = (time_t)sec;
  struct tm tm;
  if (!gmtime_r(&t, &tm)) {
    snprintf(buf, n, "@%lld", (long long)sec);
    return;
  }
  snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
           tm.tm_hour, tm.tm_min, tm.tm_sec, (int)ms);
}

/* A range that no selected source's samples reach (--from past the end,
 * --to before the start, a wall-clock hour of another day) selects
 * nothing: the view prints a total of 0, exit 0.  Say so, with the span
 * the samples have (seconds since each source's start as `pcol info`
 * prints them, or wall-clock times for a wall-clock range).  Only when
 * every selected source with sample times lies wholly outside [from, to)
 * (a point sample at t counts when from <= t < to; end_ns is at least the
 * last sample's time; a wall-clock range as pcol_wall_overlaps decides);
 * sources without times are the range's own error. */
void cli_range_note_print(const cli_command *cmd, const char *path, char *note) {
  if (!note) return;
  fprintf(stderr, "pcol %s: note: ", cmd->name);
  cli_print_cstr(stderr, path);
  fputs(": ", stderr);
  cli_print_cstr(stderr, note);
  fputc('\n', stderr);
  free(note);
}

void cli_warn_range(const cli_command *cmd, pcol_file *f, const pcol_select *sel, const char *path) {
  if (!sel || !(sel->has_from || sel->has_to)) return;
  pcol_error e = {0};
  char *note = NULL;
  /* a relative range over several recordings: a window of each (the
   * library's words); a damaged table says nothing here: the view will */
  if (!pcol_range_note(f, sel, &note, &e)) cli_range_note_print(cmd, path, note);
  memset(&e, 0, sizeof e);
  bool overlaps = true;
  if (sel->wall && (pcol_wall_overlaps(f, sel, &overlaps, &e) || overlaps)) return;
  pcol_source_summary *s = NULL;
  size_t n = 0;
  if (pcol_source_summaries(f, &s, &n, &e)) return; /* damage: the view says so */
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  size_t timed = 0;
  bool reached = false, untimed = false;
  for (size_t i = 0; i < n; i++) {
    if ((sel->source_id && s[i].id != sel->source_id) || !s[i].samples) continue;
    int64_t start = 0;
    if (s[i].first_ns == PCOL_NA_I64 ||
        (sel->wall && (pcol_source_wall_start(f, s[i].id, &start, &e) || start == PCOL_NA_I64))) {
      untimed = true; /* the range is an error there (pcol_select_iter), or wholly in or out */
      continue;
    }
    int64_t first = s[i].first_ns + start, end = (s[i].end_ns == PCOL_NA_I64 ? s[i].first_ns : s[i].end_ns) + start;
    timed++;
    if (first < lo) lo = first;
    if (end > hi) hi = end;
    if ((!sel->has_from || end >= sel->from_ns) && (!sel->has_to || first < sel->to_ns)) reached = true;
  }
  pcol_source_summaries_free(s, n);
  if (!timed || reached || (untimed && !sel->wall)) return;
  char a[48], b[48], x[48];
  range_time(lo, sel->wall, a, sizeof a);
  range_time(hi, sel->wall, b, sizeof b);
  fprintf(stderr, "pcol %s: warning: ", cmd->name);
  cli_print_cstr(stderr, path);
  fputs(": the range", stderr);
  if (sel->has_from) range_time(sel->from_ns, sel->wall, x, sizeof x), fprintf(stderr, " --from %s", x);
  if (sel->has_to) range_time(sel->to_ns, sel->wall, x, sizeof x), fprintf(stderr, " --to %s", x);
  fprintf(stderr, " selects no sample: the %s are at %s .. %s", timed == 1 ? "samples" : "sources' samples", a, b);
  if (!sel->wall) fprintf(stderr, " (seconds since %s start)", timed == 1 ? "the source's" : "each source's");
  fputc('\n', stderr);
}
