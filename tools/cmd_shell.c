/* cmd_shell.c — `pcol shell INPUT...`: go tool pprof's interactive mode
 * (driver/interactive.go).  The inputs are read once (not a single pcol
 * file: packed into a temporary pcol file, which every command then maps),
 * then each line read from standard input is a command, run as the pcol
 * command would run on the inputs, with the session's settings added:
 *
 *   top10 -cum main -runtime      pprof's grammar: a number is the node
 *                                 count, -cum sorts by cum, -RE ignores and
 *                                 RE focuses (joined with |), >FILE writes
 *                                 a file (a command's -o, a view's text)
 *   top -n 5 --by line            pcol's options, as on the command line
 *   focus=RE, sample_index=alloc_space, unit=ms, nodecount=20, cum, lines
 *                                 pprof's settings, kept for what follows
 *   o, help [COMMAND], quit
 *
 * Each command runs in this process as main() runs it (cli_parse, the
 * output budget, the command, the budget's end), so its output and exit
 * are those of `pcol COMMAND INPUT... OPTIONS`; a failure prints its
 * message and the session goes on.  The prompt "(pcol) " goes to standard
 * output, as pprof's does, so a script's answers can be told apart; on a
 * terminal the line is edited (line_edit.c) and the prompt and echo go to
 * standard error, as pprof's readline UI writes them. */
#include "cli.h"
#include "line_edit.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const cli_opt opts_shell[] = {CLI_OPT_NO_MMAP, CLI_OPT_MAX_ROWS, {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_shell);

#define SHELL_WORDS 256
#define SHELL_LINE 65536

/* pprof's settings (interactive.go, config.go) and the pcol option each
 * becomes; a flag is a setting with no value (true/false). */
typedef struct setting {
  const char *pprof, *option; /* option NULL: the node count (per command) */
  int flag;
  char *value;                /* NULL: not set */
} setting;
static setting settings[] = {
    {"focus", "focus", 0, NULL},         {"ignore", "ignore", 0, NULL},
    {"hide", "hide", 0, NULL},           {"show", "show", 0, NULL},
    {"show_from", "show-from", 0, NULL}, {"tagfocus", "tag", 0, NULL},
    {"tagignore", "tag-ignore", 0, NULL}, {"tagshow", "tagshow", 0, NULL},
    {"taghide", "taghide", 0, NULL},     {"tagroot", "tagroot", 0, NULL},
    {"tagleaf", "tagleaf", 0, NULL},     {"sample_index", "value", 0, NULL},
    {"unit", "unit", 0, NULL},           {"nodecount", NULL, 0, NULL},
    {"nodefraction", "node-fraction", 0, NULL}, {"edgefraction", "edge-fraction", 0, NULL},
    {"sort", "sort", 0, NULL},           {"granularity", "by", 0, NULL},
    {"noinlines", "no-inlines", 1, NULL}, {"relative_percentages", "relative-percentages", 1, NULL},
    {"mean", "mean", 1, NULL},           {"drop_negative", "drop-negative", 1, NULL},
    {"divide_by", "divide-by", 0, NULL},
};
#define NSETTINGS (sizeof settings / sizeof settings[0])

/* pprof's words that set a setting alone (its bool groups) */
static const struct {
  const char *word, *setting, *value;
} shorthands[] = {{"cum", "sort", "cum"},         {"flat", "sort", "flat"},
                  {"functions", "granularity", "function"}, {"lines", "granularity", "line"},
                  {"files", "granularity", "file"}, {"addresses", "granularity", "address"},
                  {"filefunctions", "granularity", "filefunction"}};

/* pprof's report commands and what runs for them */
static const struct {
  const char *pprof, *command, *extra; /* extra: one option added ("--format=dot") */
} aliases[] = {{"text", "top", NULL},
               {"dot", "graph", "--format=dot"},
               {"svg", "graph", "--format=svg"},
               {"png", "graph", "--format=png"},
               {"callgrind", "graph", "--format=callgrind"},
               {"proto", "unpack", "--to=pprof"},
               {"flamegraph", "flame", NULL}};

/* A line the shell cannot run: its message, and the session's own help
 * (not "Try 'pcol shell --help'", which is for the command line). */
static int shell_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int shell_usage(const char *fmt, ...) {
  char b[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  fputs("pcol shell: ", stderr);
  if (n > 0) cli_put_text(stderr, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1, 0);
  fputs(" (type \"help\" for commands, \"help COMMAND\" for one)\n", stderr);
  return EXIT_USAGE;
}

static setting *find_setting(const char *name, size_t n) {
  for (size_t i = 0; i < NSETTINGS; i++)
    if (strlen(settings[i].pprof) == n && !strncmp(settings[i].pprof, name, n)) return &settings[i];
  return NULL;
}

int cli_pprof_flag_hint(const cli_command *cmd, const char *name, size_t n, char *buf, size_t cap) {
  setting *st = find_setting(name, n);
  if (st && st->option && cli_has_opt(cmd, st->option))
    return snprintf(buf, cap, "--%s", st->option) > 0;
  if (st && !st->option) /* the node count: tree's, else the row limit */
    return cli_has_opt(cmd, "node-count") ? snprintf(buf, cap, "--node-count") > 0
           : cli_has_opt(cmd, "limit")    ? snprintf(buf, cap, "-n/--limit") > 0
                                          : 0;
  for (size_t i = 0; i < sizeof shorthands / sizeof shorthands[0]; i++) {
    setting *sh = find_setting(shorthands[i].setting, strlen(shorthands[i].setting));
    if (strlen(shorthands[i].word) == n && !strncmp(shorthands[i].word, name, n) && sh && sh->option &&
        cli_has_opt(cmd, sh->option))
      return snprintf(buf, cap, "--%s %s", sh->option, shorthands[i].value) > 0;
  }
  return 0;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

/* Words of a line: blanks separate, '...' and "..." quote, \ escapes
 * (outside '...').  Returns the count, or -1 for an unclosed quote or too
 * many words.  The words point into line, which is rewritten. */
static int split_words(char *line, char **w) {
  int n = 0;
  char *r = line, *o = line;
  for (;;) {
    while (isspace((unsigned char)*r)) r++;
    if (!*r) return n;
    if (n == SHELL_WORDS) return -1;
    w[n++] = o;
    char q = 0;
    for (; *r && (q || !isspace((unsigned char)*r)); r++) {
      if (q == '\'' && *r == '\'') q = 0;
      else if (q == '"' && *r == '"') q = 0;
      else if (!q && (*r == '\'' || *r == '"')) q = *r;
      else if (q != '\'' && *r == '\\' && r[1]) *o++ = *++r;
      else *o++ = *r;
    }
    if (q) return -1;
    if (*r) r++;
    *o++ = 0;
  }
}

static const cli_opt *opt_of(const cli_command *c, const char *name, char short_name) {
  for (const cli_opt *o = c->opts; o && o->name; o++)
    if ((name && !strcmp(o->name, name)) || (short_name && o->short_name == short_name)) return o;
  return NULL;
}

static void print_settings(void) {
  for (size_t i = 0; i < NSETTINGS; i++) {
    printf("  %-22s = ", settings[i].pprof);
    cli_print_cstr(stdout, settings[i].value ? settings[i].value : "");
    putchar('\n');
  }
}

static void shell_help(void) {
  printf("Commands (each as `pcol COMMAND INPUT...` with the settings below; `help COMMAND`\n"
         "for its options):\n"
         "  top[N] [-cum] [RE] [-RE]   flat and cum per function (also text)\n"
         "  peek RE, list RE, tree, traces, tags, graph (dot, svg, png, callgrind), flame, fold\n"
         "  proto >FILE                 the profile as pprof (unpack --to pprof)\n"
         "  any pcol command's options: top -n 5 --by line --format json\n"
         "pprof's arguments: N the node count, -cum, RE focus, -RE ignore, >FILE the output.\n"
         "Settings (NAME=VALUE; NAME= clears; o lists them): focus, ignore, hide, show,\n"
         "show_from, tagfocus, tagignore, tagshow, taghide, tagroot, tagleaf, sample_index,\n"
         "unit, nodecount, nodefraction, edgefraction, sort, granularity, noinlines,\n"
         "relative_percentages, mean (top, peek, tree, traces, list, dot, svg, png,\n"
         "callgrind), drop_negative (top, peek, tree and the graphs) and divide_by (top,\n"
         "peek, tree, traces, list, the graphs, flame, diff and proto); and the words cum,\n"
         "flat, functions, filefunctions, lines, files, addresses.\n"
         "quit (or end of input) ends the session.\n");
}

/* name=value, or a shorthand word: 1 when the line was a setting.  f: the
 * session's file, against which sample_index is checked when set (pprof's
 * "invalid sample_index": the setting stays as it was). */
typedef struct shell_total {
  pcol_file *f;
  const pcol_select *sel;
  const pcol_value_sel *v;
} shell_total;
static int shell_total_of(void *ctx, pcol_sum *total) {
  shell_total *c = ctx;
  pcol_error err = {0};
  pcol_top t;
  int rc = pcol_top_compute(c->f, c->sel, c->v, PCOL_BY_FUNCTION, &t, &err);
  if (!rc) *total = t.total;
  if (!rc) pcol_top_free(&t);
  return rc;
}

static int set_line(char *line, pcol_file *f) {
  char *eq = strchr(line, '=');
  char *name = line;
  size_t n = eq ? (size_t)(eq - line) : strlen(line);
  while (n && isspace((unsigned char)name[n - 1])) n--;
  setting *s = find_setting(name, n);
  const char *value = eq ? trim(eq + 1) : NULL;
  if (!s) { /* cum, lines, ...: alone or =true/false, as pprof's bool groups */
    for (size_t i = 0; i < sizeof shorthands / sizeof shorthands[0]; i++)
      if (strlen(shorthands[i].word) == n && !strncmp(line, shorthands[i].word, n)) {
        s = find_setting(shorthands[i].setting, strlen(shorthands[i].setting));
        if (!value || !strcmp(value, "true")) value = shorthands[i].value;
        else if (!strcmp(value, "false")) value = s->value && !strcmp(s->value, shorthands[i].value) ? "" : s->value ? s->value : "";
        else {
          fprintf(stderr, "pcol shell: %s is true or false\n", shorthands[i].word);
          return 1;
        }
      }
    if (!s) return 0;
  }
  if (s->flag && (!value || !strcmp(value, "true") || !strcmp(value, "1"))) value = "1";
  else if (s->flag && (!*value || !strcmp(value, "false") || !strcmp(value, "0"))) value = "";
  else if (!value) {
    fprintf(stderr, "pcol shell: please give a value, e.g. %s=<val>\n", s->pprof);
    return 1;
  } else if (s->flag) {
    fprintf(stderr, "pcol shell: %s is true or false\n", s->pprof);
    return 1;
  }
  /* checked when set, as pprof checks its settings: a bad one keeps the old */
  const char *bad = NULL;
  char *e;
  pcol_value_sel vs;
  pcol_error err = {0};
  if (!*value && (!strcmp(s->pprof, "nodecount") || strstr(s->pprof, "fraction"))) {
    bad = "give a number (pprof's Atoi and ParseFloat refuse an empty one; nodecount=-1 resets)";
  } else if (!*value) {
    /* NAME= clears */
  } else if (!strcmp(s->pprof, "sample_index") && f && pcol_value_resolve(f, NULL, value, &vs, &err)) {
    bad = err.message;
  } else if (!strcmp(s->pprof, "unit") && f && strcmp(value, "auto") && strcmp(value, "raw")) {
    /* against the value the session shows now (sample_index or the
     * default); a later sample_index of another unit is checked by the
     * command, as before */
    setting *si = find_setting("sample_index", 12);
    if (!pcol_value_resolve(f, NULL, si->value && *si->value ? si->value : NULL, &vs, &err) &&
        !pcol_unit_valid_target(vs.unit, value)) {
      cli_unit_wants(vs.unit, err.message, sizeof err.message);
      bad = err.message;
    }
  } else if (!strcmp(s->pprof, "nodecount")) {
    long long v = strtoll(value, &e, 10);
    if (e == value || *e) bad = "give a whole number";
    else if (v < 0) value = ""; /* pprof's -1: the command's own default */
  } else if (!strcmp(s->pprof, "divide_by")) {
    double r;
    bad = cli_divide_by_parse(value, &r);
  } else if (strstr(s->pprof, "fraction")) {
    double v = strtod(value, &e);
    if (e == value || *e || !(v >= 0)) bad = "give a number, 0 or more";
  } else if (!strcmp(s->pprof, "sort") && strcmp(value, "cum") && strcmp(value, "flat") && strcmp(value, "name")) {
    bad = "cum, flat or name";
  } else if (!strcmp(s->pprof, "granularity")) { /* pprof's plural words */
    static const char *const g[][2] = {{"functions", "function"}, {"lines", "line"},
                                       {"files", "file"}, {"addresses", "address"},
                                       {"filefunctions", "filefunction"}};
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
      if (!strcmp(value, g[i][0])) value = g[i][1];
    pcol_by by;
    if (pcol_by_parse(value, &by)) bad = "functions, filefunctions, lines, files or addresses";
  }
  if (bad) {
    fprintf(stderr, "pcol shell: %s=", s->pprof);
    cli_print_cstr(stderr, value);
    fputs(": ", stderr);
    cli_print_cstr(stderr, bad);
    fputc('\n', stderr);
    return 1;
  }
  free(s->value);
  s->value = *value ? strdup(value) : NULL;
  return 1;
}

/* Appends regex re to *acc as pprof's catRegex does ("a|b"). */
static int cat_regex(char **acc, const char *re) {
  size_t n = *acc ? strlen(*acc) + 1 : 0;
  char *p = realloc(*acc, n + strlen(re) + 1);
  if (!p) return -1;
  if (n) p[n - 1] = '|';
  strcpy(p + n, re);
  *acc = p;
  return 0;
}

/* The shell's own --max-rows and --no-mmap (cmd_shell), passed on. */
static const char *shell_max_rows;
static int shell_no_mmap;

/* Whether an option of argv[0..n) starts with `opt`. */
static int strstr_any(const char **argv, int n, const char *opt) {
  for (int i = 0; i < n; i++)
    if (!strncmp(argv[i], opt, strlen(opt))) return 1;
  return 0;
}

/* Runs one command line (words w[0..nw)) on the session's file. */
static int run_line(const char *file, char **w, int nw) {
  const char *name = w[0], *extra = NULL;
  char *count = NULL;
  char cname[64];
  size_t nl = strlen(name), d = nl;
  while (d && isdigit((unsigned char)name[d - 1])) d--;
  if (d && d < nl && d < sizeof cname) { /* top10: pprof's abbreviation (tailDigitsRE) */
    memcpy(cname, name, d);
    cname[d] = 0;
    name = cname;
    count = (char *)w[0] + d;
  }
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (!strcmp(name, aliases[i].pprof)) name = aliases[i].command, extra = aliases[i].extra;
  const cli_command *c = cli_command_find(name);
  static const char *const not_offered[] = {"normalize", "prune_from",
                                            "call_tree", "trim", "compact_labels", "source_path",
                                            "trim_path", "intel_syntax", "show_from_address",
                                            "weblist", "web", "gif", "pdf", "ps", "eog",
                                            "evince", "gv", "kcachegrind", "raw", "topproto", NULL};
  for (const char *const *no = not_offered; !c && *no; no++) {
    size_t k = strlen(*no);
    if (!strncmp(w[0], *no, k) && (w[0][k] == 0 || w[0][k] == '=')) {
      /* what does the same here, for pprof's words a user types most */
      static const char *const instead[][2] = {
          {"web", "svg >FILE or png >FILE writes the graph; pcol report writes every view as one page"},
          {"gif", "svg >FILE or png >FILE writes the graph"}, {"pdf", "svg >FILE or png >FILE writes the graph"},
          {"ps", "svg >FILE or png >FILE writes the graph"}, {"eog", "svg >FILE or png >FILE writes the graph"},
          {"evince", "svg >FILE or png >FILE writes the graph"}, {"gv", "svg >FILE or png >FILE writes the graph"},
          {"weblist", "list RE prints the source lines, disasm RE the instructions"},
          {"kcachegrind", "callgrind >FILE writes KCachegrind's file"},
          {"source_path", "list RE --source-path DIR"}};
      const char *alt = NULL;
      for (size_t i = 0; i < sizeof instead / sizeof instead[0]; i++)
        if (!strcmp(*no, instead[i][0])) alt = instead[i][1];
      fprintf(stderr, "pcol shell: pprof's %s is not offered by pcol (%s%shelp lists what is)\n", *no,
              alt ? alt : "", alt ? "; " : "");
      return EXIT_USAGE;
    }
  }
  if (!c || !strcmp(c->name, "shell")) { /* the words are the user's: the text rule */
    if (find_setting(name, strlen(name))) {
      fprintf(stderr, "pcol shell: did you mean: %s=", name);
      cli_print_cstr(stderr, nw > 1 ? w[1] : "<val>");
    } else {
      fputs("pcol shell: unrecognized command: \"", stderr);
      cli_print_cstr(stderr, name);
      fputs("\" (help lists them)", stderr);
    }
    fputc('\n', stderr);
    return EXIT_USAGE;
  }
  if (!strcmp(name, "help")) return 0;
  int param = !strcmp(c->name, "peek") || !strcmp(c->name, "list") ||
              !strcmp(c->name, "disasm"); /* pprof's hasParam */
  const char *argv[SHELL_WORDS * 2 + 64];
  int n = 0, given[NSETTINGS + 2] = {0}, rc = 0, sort_cum = 0, limit_given = 0;
  char *focus = NULL, *ignore = NULL;
  const char *out = NULL, *pr = NULL;
  char numbuf[24];
  argv[n++] = file;
  int all = 0; /* a negative count: every row (pprof's nodecount < 0) */
  for (int i = 1; i < nw && !rc; i++) {
    const char *t = w[i];
    const cli_opt *o = NULL;
    char *e;
    long long num = strtoll(t, &e, 10);
    int is_num = t[0] && !*e && e != t && strlen(t) < 12;
    if (!strcmp(t, "-cum") || !strcmp(t, "--cum")) {
      sort_cum = 1;
    } else if (!strcmp(t, "--")) {
      rc = shell_usage("'--' is not taken in a line: the inputs are the session's");
    } else if (!strcmp(t, "-")) {
      /* pprof: an empty ignore expression, nothing */
    } else if (is_num) { /* pprof: the node count (ParseInt: a sign is allowed) */
      count = NULL, all = num < 0;
      if (num >= 0) snprintf(numbuf, sizeof numbuf, "%lld", num), count = numbuf;
    } else if (t[0] == '-' && t[1] == '-') { /* pcol's own option */
      const char *eq = strchr(t + 2, '=');
      char on[64];
      size_t ln = eq ? (size_t)(eq - t - 2) : strlen(t + 2);
      snprintf(on, sizeof on, "%.*s", (int)ln, t + 2);
      o = opt_of(c, on, 0);
      argv[n++] = t;
      if (o && o->takes_arg && !eq) {
        if (i + 1 < nw) argv[n++] = w[++i];
        else rc = shell_usage("option '--%s' needs a value", o->name);
      }
      limit_given |= o && (!strcmp(o->name, "limit") || !strcmp(o->name, "node-count"));
      for (size_t k = 0; o && k < NSETTINGS; k++)
        given[k] |= settings[k].option && !strcmp(settings[k].option, o->name);
    } else if (t[0] == '-' && t[1] && !t[2] && (o = opt_of(c, NULL, t[1]))) { /* -n 5, -o F */
      argv[n++] = t;
      if (o->takes_arg) {
        if (i + 1 < nw) argv[n++] = w[++i];
        else rc = shell_usage("option '-%c' needs a value", t[1]);
      }
      for (size_t k = 0; k < NSETTINGS; k++)
        given[k] |= settings[k].option && !strcmp(settings[k].option, o->name);
      if (!strcmp(o->name, "limit") || !strcmp(o->name, "node-count")) count = NULL, limit_given = 1;
    } else if (t[0] == '>') {
      out = t[1] ? t + 1 : i + 1 < nw ? w[++i] : NULL;
      if (!out) rc = shell_usage("unexpected end of line after >");
    } else if (param && !pr) {
      pr = t;
    } else if (t[0] == '-') {
      rc = cat_regex(&ignore, t + 1);
    } else {
      rc = cat_regex(&focus, t);
    }
  }
  if (!rc && param && !pr) rc = shell_usage("command %s requires an argument", c->name);
  if (!rc && pr) argv[n++] = pr;
  if (!rc && extra) argv[n++] = extra;
  /* >FILE: the file of a command that writes one (its -o); a text view's
   * standard output, as pprof's interactive mode writes its report there
   * (interactive.go): a temporary file renamed into place when the command
   * succeeds, so a failed or cut view leaves FILE as it was */
  pcol_out redir = {0};
  int redirect = 0;
  if (!rc && out && !opt_of(c, "output", 0) && strcmp(out, "-")) {
    pcol_error oe = {0};
    int orc = pcol_out_open(&redir, out, &oe);
    if (orc) rc = cli_fail(c->name, &oe, orc);
    else redirect = 1;
  }
  if (!rc && out && opt_of(c, "output", 0)) argv[n++] = "-o", argv[n++] = out;
  char fbuf[32];
  if (!rc && sort_cum && opt_of(c, "sort", 0)) argv[n++] = "--sort=cum";
  /* the node count: top's and diff's -n, the graph's and tree's
   * --node-count; pprof's traces, tags, peek and list take none */
  setting *nc = find_setting("nodecount", 9);
  const char *cnt = all ? NULL : count ? count : nc->value;
  if (!cnt && !all && !limit_given && !strcmp(c->name, "top")) cnt = "10"; /* interactive.go: top, text */
  const cli_opt *co = NULL;
  if (!strcmp(c->name, "top") || !strcmp(c->name, "diff")) co = opt_of(c, "limit", 0);
  else if (!strcmp(c->name, "tree") || !strcmp(c->name, "graph")) co = opt_of(c, "node-count", 0);
  if (all && co && !strcmp(co->name, "node-count")) cnt = "0"; /* 0: every node */
  /* callgrind is the whole graph by address (driver.go): pprof ignores the
   * settings that would prune or regroup it, which pcol's graph refuses */
  int whole = extra && strstr(extra, "callgrind");
  if (!rc && cnt && co && !limit_given && !whole) { /* -n or --node-count on the line wins */
    snprintf(fbuf, sizeof fbuf, "--%s=%s", co->name, cnt);
    argv[n++] = fbuf;
  }
  /* the line's focus and ignore replace the settings' (pprof's vcopy) */
  char *fopt = NULL, *iopt = NULL;
  if (!rc && focus && opt_of(c, "focus", 0) && asprintf(&fopt, "--focus=%s", focus) > 0) argv[n++] = fopt;
  if (!rc && ignore && opt_of(c, "ignore", 0) && asprintf(&iopt, "--ignore=%s", ignore) > 0) argv[n++] = iopt;
  char *sopt[NSETTINGS] = {0};
  for (size_t k = 0; !rc && k < NSETTINGS; k++) {
    setting *s = &settings[k];
    /* a setting that changes the numbers, which this command cannot
     * apply: refused, never silently left out (but pprof's tags ignore
     * them all, they print the sums; its proto writes the profile without
     * -mean or -drop_negative, but divided by -divide_by; its traces list
     * every sample, negative or not) */
    const char *so = s->option ? s->option : "";
    int numbers = !strcmp(so, "mean") || !strcmp(so, "drop-negative");
    int divide = !strcmp(so, "divide-by");
    if (s->value && *s->value && (numbers || divide) && !given[k] && !opt_of(c, s->option, 0) &&
        strcmp(c->name, "tags") && !(numbers && extra && !strcmp(extra, "--to=pprof")) &&
        !(!strcmp(so, "drop-negative") && !strcmp(c->name, "traces"))) {
      if (divide)
        rc = shell_usage("%s=%s: %s does not offer --%s; clear it first (%s=)",
                             s->pprof, s->value, c->name, s->option, s->pprof);
      else
        rc = shell_usage("%s=true: %s does not offer --%s; set %s=false first",
                             s->pprof, c->name, s->option, s->pprof);
      break;
    }
    if (!s->value || !s->option || given[k] || !opt_of(c, s->option, 0)) continue;
    if ((focus && !strcmp(s->option, "focus")) || (ignore && !strcmp(s->option, "ignore"))) continue;
    if (sort_cum && !strcmp(s->option, "sort")) continue;
    /* pprof's list and disasm set their own granularity (driver.go
     * generateReport: "lines", "addresses"): the session's is not theirs */
    if (!strcmp(s->option, "by") && (!strcmp(c->name, "list") || !strcmp(c->name, "disasm")))
      continue;
    if (extra && !strcmp(extra, "--to=pprof") && !strcmp(s->option, "value"))
      continue; /* proto keeps every sample type, as pprof's does */
    if (whole && (!strcmp(s->option, "by") || !strcmp(s->option, "no-inlines") ||
                  strstr(s->option, "-fraction")))
      continue;
    if (s->flag ? asprintf(&sopt[k], "--%s", s->option) > 0
                : asprintf(&sopt[k], "--%s=%s", s->option, s->value) > 0)
      argv[n++] = sopt[k];
  }
  /* the shell's own --max-rows and --no-mmap, for every command that takes them */
  char rows[48];
  if (!rc && shell_max_rows && opt_of(c, "max-rows", 0) && !strstr_any(argv, n, "--max-rows")) {
    snprintf(rows, sizeof rows, "--max-rows=%s", shell_max_rows);
    argv[n++] = rows;
  }
  if (!rc && shell_no_mmap && opt_of(c, "no-mmap", 0)) argv[n++] = "--no-mmap";
  FILE *term = stdout;
  if (!rc && redirect) fflush(stdout), stdout = redir.fp; /* glibc: assignable, as outbudget.c's */
  if (!rc) { /* as main() runs a command */
    cli_args a;
    memset(&cli_loaded, 0, sizeof cli_loaded);
    rc = cli_parse(c, n, (char **)argv, &a);
    if (rc < 0) rc = 0; /* --help */
    else if (!rc && !(rc = cli_fetch_args(c, &a)) && !(rc = cli_budget_begin(c, &a)))
      rc = cli_budget_end(c->name, c->run(c, &a));
    fflush(stdout);
  }
  if (redirect) {
    stdout = term;
    pcol_error ce = {0};
    int crc = rc ? PCOL_OK : pcol_out_commit(&redir, &ce);
    if (rc) pcol_out_abort(&redir);
    else if (crc) rc = cli_fail(c->name, &ce, crc);
  }
  free(focus);
  free(ignore);
  free(fopt);
  free(iopt);
  for (size_t k = 0; k < NSETTINGS; k++) free(sopt[k]);
  return rc;
}

int cmd_shell(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  for (int i = 0; i < a->npos; i++)
    if (!strcmp(a->pos[i], "-"))
      return cli_usage_error(cmd->name, "the shell reads its commands from standard input: "
                                        "give the profile as a file");
  /* the session's file: the input itself when it is one pcol file, else
   * the inputs packed once into a temporary one that stands for them */
  char label[1024];
  size_t used = 0;
  label[0] = 0;
  for (int i = 0; i < a->npos && used < sizeof label - 1; i++) {
    int k = snprintf(label + used, sizeof label - used, "%s%s", i ? " " : "", cli_input_name(a->pos[i]));
    used += k > 0 ? (size_t)k : 0;
  }
  const char *file = a->pos[0];
  if (a->npos > 1 || cli_input_format(a->pos[0]) != PCOL_FMT_PCOL) {
    pcol_error err = {0};
    char *tmp;
    int fd, rc = cli_temp_file("shell", label, &tmp, &fd, &err);
    if (rc) return cli_fail(cmd->name, &err, rc);
    close(fd);
    const cli_command *pack = cli_command_find("pack");
    const char **argv = calloc((size_t)a->npos + 12, sizeof *argv);
    if (!argv) return EXIT_IO;
    int n = 0;
    for (int i = 0; i < a->npos; i++) argv[n++] = a->pos[i];
    argv[n++] = "-o";
    argv[n++] = tmp;
    if (cli_flag(cmd, a, "no-mmap")) argv[n++] = "--no-mmap";
    /* --symbolize and --binary-path: the packed copy holds the names */
    const char *sym = cli_get(cmd, a, "symbolize"), *bp = cli_get(cmd, a, "binary-path");
    if (sym) argv[n++] = "--symbolize", argv[n++] = sym;
    if (bp) argv[n++] = "--binary-path", argv[n++] = bp;
    cli_args pa;
    rc = cli_parse(pack, n, (char **)argv, &pa);
    if (!rc) rc = pack->run(pack, &pa);
    free(argv);
    if (rc) return rc;
    file = tmp;
  }
  cli_compact_labels = true; /* pprof's interactive mode sets compact_labels */
  shell_max_rows = cli_get(cmd, a, "max-rows");
  shell_no_mmap = cli_flag(cmd, a, "no-mmap");
  pcol_file *f = NULL; /* for checking settings; every command opens its own */
  pcol_error oerr = {0};
  int orc = pcol_open(file, NULL, &f, &oerr);
  if (orc) return cli_fail_in(cmd->name, file, &oerr, orc);
  /* pprof's greeting (interactive.go): the profile's labels, on stderr */
  pcol_select all;
  memset(&all, 0, sizeof all);
  pcol_value_sel dv;
  if (!pcol_value_resolve(f, NULL, NULL, &dv, &oerr)) {
    shell_total st = {f, &all, &dv};
    cli_print_profile_labels(stderr, f, label, &all, &dv, "auto", shell_total_of, &st);
  } else {
    fputs("pcol shell: ", stderr);
    cli_print_cstr(stderr, label);
    fputc('\n', stderr);
  }
  memset(&oerr, 0, sizeof oerr);
  fputs("Entering interactive mode (type \"help\" for commands, \"o\" for options)\n", stderr);
  char *line = NULL, *w[SHELL_WORDS];
  size_t cap = 0;
  line_edit le; /* on a terminal, lines are edited as in pprof's (line_edit.c) */
  line_edit_init(&le);
  for (;;) {
    ssize_t len;
    fflush(stdout);
    if (le.on) {
      len = line_edit_read(&le, "(pcol) ", SHELL_LINE, &line, &cap);
    } else {
      fputs("(pcol) ", stdout);
      fflush(stdout);
      len = getline(&line, &cap, stdin);
    }
    if (len < 0) break;
    if (len > SHELL_LINE) {
      fprintf(stderr, "pcol shell: a line of more than %d bytes\n", SHELL_LINE);
      continue;
    }
    char *l = trim(line);
    if (!*l || *l == '#') continue;
    if (!strcmp(l, "quit") || !strcmp(l, "exit") || !strcmp(l, "q")) break;
    if (!strcmp(l, "o") || !strcmp(l, "options")) {
      print_settings();
      continue;
    }
    if (set_line(l, f)) continue;
    int nw = split_words(l, w);
    if (nw < 0) {
      fprintf(stderr, "pcol shell: an unclosed quote or more than %d words\n", SHELL_WORDS);
      continue;
    }
    if (!strcmp(w[0], "help") || !strcmp(w[0], "?")) {
      const cli_command *c = nw > 1 ? cli_command_find(w[1]) : NULL;
      if (c) cli_print_help(c, stdout);
      else shell_help();
      continue;
    }
    (void)run_line(file, w, nw); /* its message is printed; the session goes on */
  }
  free(line);
  line_edit_free(&le);
  for (size_t k = 0; k < NSETTINGS; k++) free(settings[k].value);
  pcol_close(f);
  return EXIT_OK;
}
