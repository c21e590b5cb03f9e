/* cli_time.c — --source, --from and --to into a pcol_select (cli_select),
 * with the filters: seconds since the profile's start, or a wall-clock time
 * (RFC 3339 with a zone, or @EPOCH_SECONDS). */
#include "cli.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int parse_seconds(const char *s, int64_t *ns) {
  char *end;
  errno = 0;
  double d = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(d) || fabs(d) > 9.2e9) return -1;
  *ns = (int64_t)llround(d * 1e9);
  return 0;
}

/* digits of s[0..n) as a number; -1 unless all are digits */
static int digits(const char *s, int n) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/* A wall-clock time: "@SECONDS" since the Unix epoch (as GNU date writes
 * it; a fraction allowed), or RFC 3339 "YYYY-MM-DDTHH:MM:SS[.frac]" with
 * "Z" or "+HH:MM"/"-HH:MM" (a space for the T too).  A bare number is not
 * one: it stays seconds since the profile's start, as --from/--to always
 * meant.  0 and *ns (since the epoch), or -1. */
static int parse_wall(const char *s, int64_t *ns) {
  if (s[0] == '@') { /* exact: integer seconds, then up to 9 digits of fraction */
    const char *p = s + 1;
    int neg = *p == '-';
    p += neg;
    int64_t sec = 0, frac = 0, scale = 100000000;
    const char *d0 = p;
    for (; *p >= '0' && *p <= '9'; p++) {
      sec = sec * 10 + (*p - '0');
      if (sec > 9200000000LL) return -1; /* int64 ns */
    }
    if (p == d0) return -1;
    if (*p == '.') {
      for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
        if (scale) frac += scale * (*p - '0'); /* digits past the nanosecond: dropped */
    }
    if (*p) return -1;
    *ns = neg ? -(sec * 1000000000 + frac) : sec * 1000000000 + frac;
    return 0;
  }
  size_t n = strlen(s);
  if (n < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
      s[13] != ':' || s[16] != ':')
    return -1;
  int Y = digits(s, 4), M = digits(s + 5, 2), D = digits(s + 8, 2), h = digits(s + 11, 2),
      m = digits(s + 14, 2), sec = digits(s + 17, 2);
  if (Y < 0 || M < 1 || M > 12 || D < 1 || D > 31 || h < 0 || h > 23 || m < 0 || m > 59 ||
      sec < 0 || sec > 60)
    return -1;
  const char *p = s + 19;
  int64_t frac = 0, scale = 100000000;
  if (*p == '.') {
    if (p[1] < '0' || p[1] > '9') return -1;
    for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10) frac += scale * (*p - '0');
  }
  int off = 0;
  if (*p == 'Z' || *p == 'z') p++;
  else if ((*p == '+' || *p == '-') && strlen(p) == 6 && p[3] == ':') {
    int oh = digits(p + 1, 2), om = digits(p + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return -1;
    off = (oh * 60 + om) * 60 * (*p == '-' ? -1 : 1);
    p += 6;
  } else return -1; /* a zone is required: a time without one is ambiguous */
  if (*p) return -1;
  struct tm tm = {0};
  tm.tm_year = Y - 1900;
  tm.tm_mon = M - 1;
  tm.tm_mday = D;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = sec;
  time_t t = timegm(&tm);
  if (tm.tm_mday != D) return -1; /* 2026-02-31 */
  if ((int64_t)t - off > 9200000000LL || (int64_t)t - off < -9200000000LL) return -1; /* int64 ns */
  *ns = ((int64_t)t - off) * 1000000000 + frac;
  return 0;
}

/* --from/--to: seconds since the start (relative), or a wall-clock time.
 * 0 relative, 1 wall, -1 neither. */
static int parse_time(const char *s, int64_t *ns) {
  if (!parse_seconds(s, ns)) return 0;
  return parse_wall(s, ns) ? -1 : 1;
}

int cli_is_time(const char *s) {
  int64_t ignored;
  return parse_time(s, &ignored) >= 0;
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
    if ((wf = parse_time(from, &sel->from_ns)) < 0)
      return cli_usage_error(cmd->name, "--%s %s, not '%s'", from_opt, want, from);
    sel->has_from = 1;
  }
  if (to) {
    if ((wt = parse_time(to, &sel->to_ns)) < 0)
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
