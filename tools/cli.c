/* cli.c — what every command's front end shares: exit codes, error
 * messages (printed by the text rule, cli_text.c), option parsing and
 * --help.  It calls only cli_text.c. */
#include "cli.h"
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_exit_code(int rc) {
  switch (rc) {
  case PCOL_OK: return EXIT_OK;
  case PCOL_EINVAL: return EXIT_USAGE;
  case PCOL_EIO:
  case PCOL_ENOMEM:
  /* an output past its budget is a limit, not bad input: exit 3 as when
   * memory runs out (review 14 F3); the library's own status says so */
  case PCOL_EBUDGET: return EXIT_IO;
  default: return EXIT_DATA;
  }
}

/* The library's messages name their operation for API callers ("fold:
 * write error", "peek: bad regular expression"); after "pcol CMD: " the
 * CLI says it once: past a leading "CMD: ", else NULL.  THE rule (of
 * cli_fail, and of cli_fail_in before it names the file). */
static const char *past_own_name(const char *cmd, const char *m) {
  size_t n = strlen(cmd);
  return !strncmp(m, cmd, n) && m[n] == ':' && m[n + 1] == ' ' ? m + n + 2 : NULL;
}

int cli_fail(const char *cmd, const pcol_error *err, int rc) {
  const char *m = err && err->message[0] ? err->message : pcol_strerror(rc);
  const char *rest = past_own_name(cmd, m);
  if (rest) m = rest;
  fprintf(stderr, "pcol %s: ", cmd);
  cli_print_cstr(stderr, m); /* messages quote file data: the text rule */
  fputc('\n', stderr);
  return cli_exit_code(rc);
}

const char *cli_input_name(const char *path) {
  const char *url = cli_fetched_url(path);
  return url ? url : strcmp(path, "-") ? path : "<stdin>";
}

int cli_fail_in(const char *cmd, const char *path, pcol_error *err, int rc) {
  /* damage found in a column names the table (core); name the file too */
  const char *shown = cli_input_name(path);
  if (rc != PCOL_EIO && err && err->message[0] && !strstr(err->message, shown)) {
    const char *rest = past_own_name(cmd, err->message); /* "pcol peek: FILE: peek: ..." */
    if (rest) memmove(err->message, rest, strlen(rest) + 1);
    pcol_error_prefix(err, shown);
  }
  return cli_fail(cmd, err, rc);
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "pcol %s: ", cmd);
  char b[2048];
  int n = vsnprintf(b, sizeof b, fmt, ap);
  if (n > 0) cli_put_text(stderr, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1, 0);
  fprintf(stderr, "\nTry 'pcol %s --help'.\n", cmd);
  va_end(ap);
  return EXIT_USAGE;
}

void cli_print_help(const cli_command *cmd, FILE *out) {
  fprintf(out, "Usage: %s\n\n%s\n", cmd->synopsis, cmd->summary);
  if (cmd->details) fprintf(out, "\n%s\n", cmd->details);
  fprintf(out, "\nOptions:\n");
  for (const cli_opt *o = cmd->opts; o && o->name; o++) {
    char left[64];
    if (o->short_name)
      snprintf(left, sizeof left, "-%c, --%s%s", o->short_name, o->name, o->takes_arg ? " X" : "");
    else
      snprintf(left, sizeof left, "    --%s%s", o->name, o->takes_arg ? " X" : "");
    fprintf(out, "  %-24s %s\n", left, o->help);
  }
  fprintf(out, "  %-24s %s\n", "-h, --help", "show this help");
  fprintf(out, "\nExit status: 0 success, 1 invalid or damaged input, 2 usage error, "
               "3 I/O error or output past its budget.\n");
}

static int find_opt(const cli_command *cmd, const char *name, size_t len, char short_name) {
  int i = 0;
  for (const cli_opt *o = cmd->opts; o && o->name; o++, i++) {
    if (short_name && o->short_name == short_name) return i;
    if (!short_name && strlen(o->name) == len && strncmp(o->name, name, len) == 0) return i;
  }
  return -1;
}

/* The option this command has for an unknown one that means the same: the
 * row count is top's -n/--limit and tree's --node-count (pprof's
 * nodecount), and pprof's words without their dashes (--node-fraction is
 * nodefraction).  0 when there is none to name. */
static int unknown_hint(const cli_command *cmd, const char *name, size_t len, char *hint, size_t cap) {
  char w[64];
  size_t m = 0;
  for (size_t j = 0; j < len && m < sizeof w; j++)
    if (name[j] != '-') w[m++] = name[j];
  if (!m || m == sizeof w) return 0;
  if ((m == 1 && w[0] == 'n') || (m == 5 && !memcmp(w, "limit", 5))) memcpy(w, "nodecount", m = 9);
  if (!cli_pprof_flag_hint(cmd, w, m, hint, cap)) return 0;
  /* not the option itself (a command without it) */
  return strncmp(hint + 2, name, len) || hint[2 + len];
}

/* --from, --to and their older spellings, which a command without a time
 * range (pack, merge, info, ...) does not take: every other reading
 * command does, so the user meant a range */
static int range_word(const char *name, size_t len) {
  static const char *const w[] = {"from", "to", "from-time", "to-time"};
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
    if (strlen(w[i]) == len && !memcmp(w[i], name, len)) return 1;
  return 0;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *a) {
  memset(a, 0, sizeof *a);
  int nopts = 0;
  while (cmd->opts && cmd->opts[nopts].name) nopts++;
  if (nopts > CLI_MAX_OPTS) /* (a table CLI_OPTS_FIT was not put after) */
    return cli_usage_error(cmd->name, "internal error: %d options, more than CLI_MAX_OPTS (%d)", nopts,
                           CLI_MAX_OPTS);
  a->pos = (const char **)argv;
  int only_pos = 0;
  for (int i = 0; i < argc; i++) {
    const char *s = argv[i];
    if (only_pos || s[0] != '-' || s[1] == 0) {
      argv[a->npos++] = argv[i]; /* npos <= i: only slots already read are written */
      continue;
    }
    if (strcmp(s, "--") == 0) {
      only_pos = 1;
      continue;
    }
    if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
      cli_print_help(cmd, stdout);
      return -1;
    }
    int k;
    const char *val = NULL;
    if (s[1] == '-') {
      const char *eq = strchr(s + 2, '=');
      size_t len = eq ? (size_t)(eq - (s + 2)) : strlen(s + 2);
      k = find_opt(cmd, s + 2, len, 0);
      if (k < 0 && range_word(s + 2, len))
        return cli_usage_error(cmd->name, "unknown option '%s': pcol %s takes no time range (the views' --from/--to "
                               "select one; pcol unpack FILE --from A --to B -t FORMAT -o OUT writes one)",
                               s, cmd->name);
      if (k < 0) {
        char hint[64];
        if (unknown_hint(cmd, s + 2, len, hint, sizeof hint))
          return cli_usage_error(cmd->name, "unknown option '%s' (%s here)", s, hint);
        return cli_usage_error(cmd->name, "unknown option '%s'", s);
      }
      if (eq) val = eq + 1;
    } else {
      /* pprof's spelling, one dash and a word (-nodecount=5, -sample_index=1,
       * -cum): named as pcol's option, not read as -n with "odecount=5" */
      const char *eq1 = strchr(s + 1, '=');
      size_t wl = eq1 ? (size_t)(eq1 - (s + 1)) : strlen(s + 1);
      char hint[64];
      if (wl > 1 && (find_opt(cmd, s + 1, wl, 0) >= 0 || cli_pprof_flag_hint(cmd, s + 1, wl, hint, sizeof hint))) {
        if (find_opt(cmd, s + 1, wl, 0) >= 0) snprintf(hint, sizeof hint, "--%.*s", (int)wl, s + 1);
        return cli_usage_error(cmd->name, "unknown option '%s': pcol's options take two dashes (pprof's "
                               "-%.*s is %s here)", s, (int)wl, s + 1, hint);
      }
      if (s[2] != 0) { /* -n5 style */
        k = find_opt(cmd, NULL, 0, s[1]);
        if (k >= 0 && cmd->opts[k].takes_arg) val = s + 2;
        else return cli_usage_error(cmd->name, "unknown option '%s'", s);
      } else {
        k = find_opt(cmd, NULL, 0, s[1]);
        if (k < 0 && unknown_hint(cmd, s + 1, 1, hint, sizeof hint))
          return cli_usage_error(cmd->name, "unknown option '%s' (%s here)", s, hint);
        if (k < 0) return cli_usage_error(cmd->name, "unknown option '%s'", s);
      }
    }
    if (cmd->opts[k].takes_arg) {
      if (!val) {
        if (i + 1 >= argc)
          return cli_usage_error(cmd->name, "option '--%s' needs a value", cmd->opts[k].name);
        val = argv[++i];
      }
      a->prev[k] = a->val[k];
      a->val[k] = val;
      if (a->times[k] < 255) a->times[k]++;
    } else {
      if (val) return cli_usage_error(cmd->name, "option '--%s' takes no value", cmd->opts[k].name);
      a->val[k] = "1";
    }
  }
  /* -o '' (an unset variable in a script): said before any work, not as
   * the rename's "No such file or directory" after the whole conversion */
  const char *out = cli_get(cmd, a, "output");
  if (out && !*out)
    return cli_usage_error(cmd->name, "-o wants a path, not an empty one");
  const char *sym = cli_get(cmd, a, "symbolize");
  if (sym && strcmp(sym, "local") && strcmp(sym, "none"))
    return cli_usage_error(cmd->name, "--symbolize: give local or none (pprof's -symbolize=local|none)");
  return 0;
}

int cli_has_opt(const cli_command *cmd, const char *name) {
  return find_opt(cmd, name, strlen(name), 0) >= 0;
}

const char *cli_get(const cli_command *cmd, const cli_args *a, const char *name) {
  int k = find_opt(cmd, name, strlen(name), 0);
  return k < 0 ? NULL : a->val[k];
}

int cli_flag(const cli_command *cmd, const cli_args *a, const char *name) {
  return cli_get(cmd, a, name) != NULL;
}

int cli_get_u64(const cli_command *cmd, const cli_args *a, const char *name, uint64_t dflt,
                uint64_t *out) {
  const char *s = cli_get(cmd, a, name);
  if (!s) {
    *out = dflt;
    return 0;
  }
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  /* sizes (--max-input, --max-output) may end in K, M, G or T: powers of 1024 */
  int is_size = !strncmp(name, "max-", 4);
  const char *units = "KMGT", *u = is_size && *end ? strchr(units, *end & ~0x20) : NULL;
  if (u && *u && !end[1]) {
    for (int k = 0; k <= (int)(u - units); k++) {
      if (v > ULLONG_MAX / 1024) {
        errno = ERANGE;
        break;
      }
      v *= 1024;
    }
    end++;
  }
  if (errno || end == s || *end || s[0] == '-')
    return cli_usage_error(cmd->name, "--%s wants a non-negative integer%s, not '%s'", name,
                           is_size ? " (bytes; K, M, G, T: powers of 1024)" : "", s);
  *out = v;
  return 0;
}

/* -n/--limit: 0 is every row, as pprof's -nodecount=0 and tree's
 * --node-count 0 (a count of none would print only a header) */
int cli_get_limit(const cli_command *cmd, const cli_args *a, uint64_t *out) {
  if (cli_get_u64(cmd, a, "limit", UINT64_MAX, out)) return EXIT_USAGE;
  if (!*out) *out = UINT64_MAX;
  return 0;
}
