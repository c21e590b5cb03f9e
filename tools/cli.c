/* cli.c — option parsing, errors and table output shared by the commands. */
#include "cli.h"
#include <time.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_exit_code(int rc) {
  switch (rc) {
  case PCOL_OK: return EXIT_OK;
  case PCOL_EINVAL: return EXIT_USAGE;
  case PCOL_EIO:
  case PCOL_ENOMEM: return EXIT_IO;
  default: return EXIT_DATA;
  }
}

int cli_fail(const char *cmd, const pcol_error *err, int rc) {
  const char *m = err && err->message[0] ? err->message : pcol_strerror(rc);
  fprintf(stderr, "pcol %s: ", cmd);
  cli_print_cstr(stderr, m); /* messages quote file data: the text rule */
  fputc('\n', stderr);
  return cli_exit_code(rc);
}

int cli_fail_in(const char *cmd, const char *path, pcol_error *err, int rc) {
  /* damage found in a column names the table (core); name the file too */
  if (rc != PCOL_EIO && err && err->message[0] && !strstr(err->message, path))
    pcol_error_prefix(err, path);
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
               "3 I/O error.\n");
}

static int find_opt(const cli_command *cmd, const char *name, size_t len, char short_name) {
  int i = 0;
  for (const cli_opt *o = cmd->opts; o && o->name; o++, i++) {
    if (short_name && o->short_name == short_name) return i;
    if (!short_name && strlen(o->name) == len && strncmp(o->name, name, len) == 0) return i;
  }
  return -1;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *a) {
  memset(a, 0, sizeof *a);
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
      if (k < 0) return cli_usage_error(cmd->name, "unknown option '%s'", s);
      if (eq) val = eq + 1;
    } else {
      if (s[2] != 0) { /* -n5 style */
        k = find_opt(cmd, NULL, 0, s[1]);
        if (k >= 0 && cmd->opts[k].takes_arg) val = s + 2;
        else return cli_usage_error(cmd->name, "unknown option '%s'", s);
      } else {
        k = find_opt(cmd, NULL, 0, s[1]);
        if (k < 0) return cli_usage_error(cmd->name, "unknown option '%s'", s);
      }
    }
    if (cmd->opts[k].takes_arg) {
      if (!val) {
        if (i + 1 >= argc)
          return cli_usage_error(cmd->name, "option '--%s' needs a value", cmd->opts[k].name);
        val = argv[++i];
      }
      a->val[k] = val;
    } else {
      if (val) return cli_usage_error(cmd->name, "option '--%s' takes no value", cmd->opts[k].name);
      a->val[k] = "1";
    }
  }
  return 0;
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
  int alt = find_opt(cmd, "to-time", 7, 0) >= 0;
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
  sel->focus = cli_get(cmd, a, "focus");
  sel->ignore = cli_get(cmd, a, "ignore");
  sel->hide = cli_get(cmd, a, "hide");
  sel->show = cli_get(cmd, a, "show");
  sel->tag = cli_get(cmd, a, "tag");
  sel->tag_ignore = cli_get(cmd, a, "tag-ignore");
  sel->no_inlines = cli_flag(cmd, a, "no-inlines");
  if (from && to && sel->from_ns > sel->to_ns)
    return cli_usage_error(cmd->name, "--%s %s is after --%s %s", from_opt, from, to_opt, to);
  return 0;
}

int cli_stdin_once(const cli_command *cmd, const char *const *paths, int n) {
  int seen = 0;
  for (int i = 0; i < n; i++)
    if (paths[i] && strcmp(paths[i], "-") == 0 && seen++)
      return cli_usage_error(cmd->name, "standard input ('-') can be read only once");
  return 0;
}

void cli_import_warning(const char *cmd, pcol_error *err) {
  if (err->code == PCOL_OK && err->message[0]) fprintf(stderr, "pcol %s: warning: %s\n", cmd, err->message);
  err->message[0] = 0;
}

pcol_format cli_input_format(const char *path) {
  if (!strcmp(path, "-")) return PCOL_FMT_UNKNOWN; /* cannot look without reading it */
  FILE *fp = fopen(path, "rb");
  if (!fp) return PCOL_FMT_UNKNOWN;
  unsigned char head[4096];
  size_t n = fread(head, 1, sizeof head, fp);
  fclose(fp);
  return pcol_detect_format(head, n);
}

/* Sources alike for the mixed-sources warning: their type, what their
 * count is, and their own default value. */
typedef struct src_kind {
  pcol_str type, dtype, dunit;
  const char *counted;
  uint64_t n;
} src_kind;
enum { WARN_KINDS = 8, WARN_MISSING = 3 };

static int str_same(pcol_str a, pcol_str b) {
  return a.len == b.len && (a.len == 0 || (a.ptr && b.ptr && !memcmp(a.ptr, b.ptr, a.len)));
}

/* One line however many sources: how many of each kind (WARN_KINDS at
 * most, then how many more). */
static void warn_defaults_differ(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                                 const pcol_view *ty, const char *path) {
  src_kind k[WARN_KINDS];
  size_t nk = 0;
  uint64_t more = 0, n = pcol_rows(f, PCOL_T_SOURCES);
  /* which sources measure samples/count: asked once (asked per source, the
   * warning made many sources quadratic: issue 42 F9) */
  pcol_value_sel c = {0};
  pcol_error q = {0};
  uint8_t *hc = NULL;
  if (pcol_value_resolve(f, NULL, "samples/count", &c, &q) || pcol_value_sources(f, &c, &hc, &q)) {
    free(hc);
    hc = NULL;
  }
  for (uint64_t s = 1; s <= n; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    pcol_select one = {0};
    pcol_value_sel d;
    one.source_id = (uint32_t)s;
    int counted = hc && hc[s];
    src_kind x = {{0}, {0}, {0}, NULL, 1};
    (void)pcol_string(f, pcol_view_u32(ty, s - 1), &x.type, &q);
    if (pcol_value_resolve(f, &one, NULL, &d, &q)) d = c;
    x.dtype = d.type, x.dunit = d.unit;
    x.counted = counted ? "samples/count" : str_same(x.type, (pcol_str){"rprof", 5}) ? "ticks" : "rows (weight)";
    size_t i = 0;
    while (i < nk && !(str_same(k[i].type, x.type) && k[i].counted == x.counted &&
                       str_same(k[i].dtype, x.dtype) && str_same(k[i].dunit, x.dunit)))
      i++;
    if (i < nk) k[i].n++;
    else if (nk < WARN_KINDS) k[nk++] = x;
    else more++;
  }
  free(hc);
  fprintf(stderr, "pcol %s: warning: %s: the sources measure different values, so the "
                  "default is samples: each source's own count (", cmd->name, path);
  for (size_t i = 0; i < nk; i++) {
    fprintf(stderr, "%s%llu ", i ? "; " : "", (unsigned long long)k[i].n);
    cli_print_str(stderr, k[i].type.ptr ? k[i].type : (pcol_str){"NA", 2});
    fprintf(stderr, " source%s: %s, default ", k[i].n == 1 ? "" : "s", k[i].counted);
    cli_print_name(stderr, k[i].dtype);
    fputc('/', stderr);
    cli_print_name(stderr, k[i].dunit);
  }
  if (more) fprintf(stderr, "; %llu more of other kinds", (unsigned long long)more);
  fprintf(stderr, "); name one with --value TYPE\n");
}

void cli_warn_value(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                    const pcol_value_sel *v, const char *path) {
  uint8_t *has = NULL;
  pcol_error e = {0};
  pcol_view ty, uri;
  if (pcol_value_sources(f, v, &has, &e) ||
      pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, &e) ||
      pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, &e)) {
    free(has);
    return; /* a damaged table: the view itself will say so */
  }
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES), missing = 0;
  int differ = 0;
  if (v->vt_id == 0 && !pcol_value_defaults_differ(f, sel, &differ, &e) && differ)
    warn_defaults_differ(cmd, f, sel, &ty, path); /* a merge of unrelated profiles */
  for (uint64_t s = 1; s <= n; s++)
    missing += !has[s] && !(sel && sel->source_id && sel->source_id != s);
  /* each source without the value, or (past WARN_MISSING) one line: how
   * many, and the first ones */
  uint64_t shown = 0;
  if (missing > WARN_MISSING) {
    fprintf(stderr, "pcol %s: warning: %s: %llu of %llu sources have no value ", cmd->name, path,
            (unsigned long long)missing, (unsigned long long)n);
    cli_print_name(stderr, v->type);
    fputc('/', stderr);
    cli_print_name(stderr, v->unit);
    fputs(", their samples count 0 (", stderr);
  }
  for (uint64_t s = 1; s <= n && shown < WARN_MISSING; s++) {
    if (has[s] || (sel && sel->source_id && sel->source_id != s)) continue;
    pcol_str t = {0}, u = {0};
    (void)pcol_string(f, pcol_view_u32(&ty, s - 1), &t, &e);
    (void)pcol_string(f, pcol_view_u32(&uri, s - 1), &u, &e);
    if (missing > WARN_MISSING) fprintf(stderr, "%s", shown ? ", " : "");
    else fprintf(stderr, "pcol %s: warning: %s: ", cmd->name, path);
    fprintf(stderr, "source %llu (", (unsigned long long)s);
    cli_print_str(stderr, t);
    fputc(' ', stderr);
    cli_print_str(stderr, u);
    fputc(')', stderr);
    shown++;
    if (missing > WARN_MISSING) continue;
    fputs(" has no value ", stderr);
    cli_print_name(stderr, v->type);
    fputc('/', stderr);
    cli_print_name(stderr, v->unit);
    fputs("; its samples count 0\n", stderr);
  }
  if (missing > WARN_MISSING) fprintf(stderr, ", ...)\n");
  free(has);
}

/* ------------------------------------------------------------ output */

int cli_out_format(const char *s, out_format *f) {
  if (!s || !strcmp(s, "tsv")) *f = OUT_TSV;
  else if (!strcmp(s, "csv")) *f = OUT_CSV;
  else if (!strcmp(s, "json")) *f = OUT_JSON;
  else if (!strcmp(s, "jsonl")) *f = OUT_JSONL;
  else if (!strcmp(s, "text")) *f = OUT_TEXT;
  else return -1;
  return 0;
}

/* Table output runs on one thread, so it uses the unlocked stdio calls:
 * `pcol cat --table sample_locations` spent ~45% of its time in locked
 * fputc/fwrite (bench/results/latest.md). */
static void sep(cli_table *t) {
  if (t->fmt == OUT_JSON || t->fmt == OUT_JSONL) {
    if (t->col == 0) {
      if (t->fmt == OUT_JSON) fputs_unlocked(t->rows ? ",\n{" : "\n{", t->fp);
      else putc_unlocked('{', t->fp);
      if (t->fmt == OUT_JSONL && t->tag) {
        fputs_unlocked("\"table\":\"", t->fp);
        fputs_unlocked(t->tag, t->fp); /* a view's name: [a-z_] */
        fputs_unlocked("\",", t->fp);
      }
    } else {
      putc_unlocked(',', t->fp);
    }
    putc_unlocked('"', t->fp);
    fputs_unlocked(t->names[t->col], t->fp);
    fputs_unlocked("\":", t->fp);
  } else if (t->col > 0) {
    putc_unlocked(t->fmt == OUT_CSV ? ',' : '\t', t->fp);
  }
  t->col++;
}

void tbl_begin(cli_table *t, FILE *fp, out_format fmt, int ncols, const char *const *names) {
  t->fp = fp;
  t->fmt = fmt == OUT_TEXT ? OUT_TSV : fmt;
  t->ncols = ncols;
  t->names = names;
  t->object = 0;
  t->col = 0;
  t->rows = 0;
  if (t->fmt == OUT_JSON) {
    putc_unlocked('[', fp);
  } else if (t->fmt == OUT_TSV || t->fmt == OUT_CSV) {
    for (int i = 0; i < ncols; i++) {
      if (i) putc_unlocked(t->fmt == OUT_CSV ? ',' : '\t', fp);
      fputs_unlocked(names[i], fp);
    }
    putc_unlocked('\n', fp);
  }
}

/* Length of the well-formed UTF-8 sequence at p[0, n) (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), 0 if none. */
static size_t utf8_len(const unsigned char *p, size_t n) {
  unsigned c = p[0], lo = 0x80, hi = 0xbf;
  size_t len;
  if (c >= 0xc2 && c <= 0xdf) len = 2;
  else if (c >= 0xe0 && c <= 0xef) len = 3;
  else if (c >= 0xf0 && c <= 0xf4) len = 4;
  else return 0;
  if (c == 0xe0) lo = 0xa0;      /* overlong */
  else if (c == 0xed) hi = 0x9f; /* surrogates */
  else if (c == 0xf0) lo = 0x90; /* overlong */
  else if (c == 0xf4) hi = 0x8f; /* above U+10FFFF */
  if (n < len || p[1] < lo || p[1] > hi) return 0;
  for (size_t k = 2; k < len; k++)
    if ((p[k] & 0xc0) != 0x80) return 0;
  return len;
}

/* A byte string as a JSON string (spec.md §11.3): `"` and `\` escaped
 * with a backslash, bytes 00-1f and 7f as \u00xx, well-formed UTF-8
 * copied, and every other byte as \u00xx (its Latin-1 code point). */
static void json_str(FILE *fp, const unsigned char *p, size_t n) {
  putc_unlocked('"', fp);
  for (size_t i = 0; i < n; i++) {
    unsigned c = p[i];
    if (c == '"' || c == '\\') {
      putc_unlocked('\\', fp);
      putc_unlocked((int)c, fp);
    } else if (c < 0x20 || c == 0x7f) {
      fprintf(fp, "\\u%04x", c);
    } else if (c < 0x80) {
      putc_unlocked((int)c, fp);
    } else {
      size_t len = utf8_len(p + i, n - i);
      if (len) {
        fwrite_unlocked(p + i, 1, len, fp);
        i += len - 1;
      } else {
        fprintf(fp, "\\u%04x", c);
      }
    }
  }
  putc_unlocked('"', fp);
}

void tbl_str(cli_table *t, const char *p, size_t n) {
  sep(t);
  if (!p) {
    fputs_unlocked(t->fmt == OUT_JSON || t->fmt == OUT_JSONL ? "null" : "NA", t->fp);
    return;
  }
  const unsigned char *s = (const unsigned char *)p;
  switch (t->fmt) {
  case OUT_JSON:
  case OUT_JSONL: json_str(t->fp, s, n); break;
  case OUT_CSV: {
    int quote = n == 0 || (n == 2 && !memcmp(p, "NA", 2));
    for (size_t i = 0; i < n && !quote; i++)
      quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
      fwrite_unlocked(p, 1, n, t->fp);
      break;
    }
    putc_unlocked('"', t->fp);
    for (size_t i = 0; i < n; i++) {
      if (s[i] == '"') putc_unlocked('"', t->fp);
      putc_unlocked(s[i], t->fp);
    }
    putc_unlocked('"', t->fp);
    break;
  }
  default: /* TSV: the text rule, with the row's own escapes (\\t \\\\ \\0) */
    cli_put_text(t->fp, p, n, 1);
  }
}

void tbl_cstr(cli_table *t, const char *s) { tbl_str(t, s, s ? strlen(s) : 0); }

void tbl_na(cli_table *t) { tbl_str(t, NULL, 0); }

void tbl_sum(cli_table *t, pcol_sum v) {
  char b[48];
  pcol_sum_text(v, b, sizeof b);
  tbl_num(t, b);
}

void tbl_i64(cli_table *t, int64_t v) {
  if (v == PCOL_NA_I64) {
    tbl_na(t);
    return;
  }
  sep(t);
  char b[24];
  int n = snprintf(b, sizeof b, "%lld", (long long)v);
  fwrite_unlocked(b, 1, (size_t)n, t->fp);
}

void tbl_u64(cli_table *t, uint64_t v) {
  sep(t);
  char b[24], *e = b + sizeof b, *p = e;
  do {
    *--p = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  /* ids are short: putc_unlocked writes straight into the stdio buffer,
   * cheaper than an fwrite call per number (bench: cat sample_locations) */
  while (p < e) putc_unlocked(*p++, t->fp);
}

void tbl_id(cli_table *t, uint64_t id) {
  if (id == 0) tbl_na(t);
  else tbl_u64(t, id);
}

void tbl_f64(cli_table *t, double v) {
  if (isnan(v)) {
    tbl_na(t);
    return;
  }
  sep(t);
  if (isinf(v) && (t->fmt == OUT_JSON || t->fmt == OUT_JSONL)) {
    /* JSON has no infinity: a string that JavaScript's Number() and
     * Python's float() read back (never the bare `inf` of printf) */
    fputs(v > 0 ? "\"Infinity\"" : "\"-Infinity\"", t->fp);
    return;
  }
  fprintf(t->fp, "%.17g", v);
}

void tbl_num(cli_table *t, const char *text) {
  sep(t);
  fputs_unlocked(text, t->fp);
}

void tbl_bool(cli_table *t, int v) {
  sep(t);
  if (t->fmt == OUT_JSON || t->fmt == OUT_JSONL) fputs_unlocked(v ? "true" : "false", t->fp);
  else fputs_unlocked(v ? "1" : "0", t->fp);
}

void tbl_end_row(cli_table *t) {
  if (t->fmt == OUT_JSON || t->fmt == OUT_JSONL) putc_unlocked('}', t->fp);
  if (t->fmt != OUT_JSON) putc_unlocked('\n', t->fp);
  t->col = 0;
  t->rows++;
}

void tbl_finish(cli_table *t) {
  if (t->fmt == OUT_JSON) fputs_unlocked(t->rows ? "\n]" : "]", t->fp);
  if (t->fmt == OUT_JSON) fputs_unlocked(t->object ? "}\n" : "\n", t->fp);
}

static void json_kv(FILE *fp, int *first, const char *k, const char *v) {
  fprintf(fp, "%s\"%s\":", *first ? "" : ",", k);
  json_str(fp, (const unsigned char *)v, strlen(v));
  *first = 0;
}

/* a range bound in JSON: seconds since the start (%.9g, as always), or a
 * wall-clock time as exact seconds since the epoch */
static void wall_or_seconds(char *b, size_t n, int wall, int64_t ns) {
  if (!wall) {
    snprintf(b, n, "%.9g", (double)ns / 1e9);
    return;
  }
  int64_t sec = ns / 1000000000, frac = ns % 1000000000;
  if (frac < 0) {
    frac += 1000000000;
    sec--;
  }
  if (frac) snprintf(b, n, "%lld.%09lld", (long long)sec, (long long)frac);
  else snprintf(b, n, "%lld", (long long)sec);
}

void tbl_begin_view(cli_table *t, FILE *fp, out_format fmt, int ncols, const char *const *names,
                    const cli_view_meta *m) {
  if (fmt != OUT_JSON) {
    tbl_begin(t, fp, fmt, ncols, names);
    return;
  }
  fputs("{\"command\":", fp);
  json_str(fp, (const unsigned char *)m->command, strlen(m->command));
  fputs(",\"file\":", fp);
  json_str(fp, (const unsigned char *)m->path, strlen(m->path));
  fputs(",\"type\":", fp);
  if (m->type.ptr) json_str(fp, (const unsigned char *)m->type.ptr, m->type.len);
  else fputs("null", fp);
  fputs(",\"unit\":", fp);
  if (m->unit.ptr) json_str(fp, (const unsigned char *)m->unit.ptr, m->unit.len);
  else fputs("null", fp);
  char tot[48];
  pcol_sum_text(m->total, tot, sizeof tot);
  fprintf(fp, ",\"total\":%s,", m->no_total ? "null" : tot);
  if (m->base_path) {
    fputs("\"base\":", fp);
    json_str(fp, (const unsigned char *)m->base_path, strlen(m->base_path));
    pcol_sum_text(m->base_total, tot, sizeof tot);
    fprintf(fp, ",\"base_total\":%s,", tot);
  }
  if (m->numbers) {
    fputs("\"numbers\":", fp);
    json_str(fp, (const unsigned char *)m->numbers, strlen(m->numbers));
    fputc(',', fp);
  }
  fputs("\"filters\":{", fp);
  const pcol_select *s = m->sel;
  int first = 1;
  if (s) {
    char b[64];
    if (s->source_id) {
      fprintf(fp, "\"source\":%u", s->source_id);
      first = 0;
    }
    if (s->has_from) {
      wall_or_seconds(b, sizeof b, s->wall, s->from_ns);
      fprintf(fp, "%s\"from\":%s", first ? "" : ",", b);
      first = 0;
    }
    if (s->has_to) {
      wall_or_seconds(b, sizeof b, s->wall, s->to_ns);
      fprintf(fp, "%s\"to\":%s", first ? "" : ",", b);
      first = 0;
    }
    if (s->wall && (s->has_from || s->has_to)) { /* from/to: seconds since the epoch */
      fprintf(fp, "%s\"wall_clock\":true", first ? "" : ",");
      first = 0;
    }
    const char *k[] = {"focus", "ignore", "hide", "show", "tag", "tag_ignore"};
    const char *v[] = {s->focus, s->ignore, s->hide, s->show, s->tag, s->tag_ignore};
    for (int i = 0; i < 6; i++)
      if (v[i]) json_kv(fp, &first, k[i], v[i]);
  }
  fputs("},\"rows\":", fp);
  tbl_begin(t, fp, fmt, ncols, names); /* the '[' */
  t->object = 1;
}

int cli_view_format(const cli_command *cmd, const cli_args *a, out_format *fmt) {
  *fmt = OUT_TEXT;
  const char *fs = cli_get(cmd, a, "format");
  if (fs && cli_out_format(fs, fmt))
    return cli_usage_error(cmd->name, "--format wants text, tsv, csv, json or jsonl, not '%s'", fs);
  return 0;
}

int cli_view_unit(const cli_command *cmd, const cli_args *a, pcol_str unit, const pcol_sum *vals,
                  size_t nvals, pcol_sum total, char *to) {
  const char *u = cli_get(cmd, a, "unit");
  if (!u || !strcmp(u, "auto")) {
    char picked[32]; /* a unit of no family is the file's own text: escaped */
    pcol_unit_pick(vals, nvals, total, unit, picked, sizeof picked);
    cli_text_buf(picked, strlen(picked), to, 32);
    return 0;
  }
  if (!pcol_unit_valid_target(unit, u))
    return cli_usage_error(cmd->name, "--unit wants auto, raw or a unit of %.*s (B, kB, MB, GB, "
                           "TB for bytes; ns, us, ms, s, hrs for time), not '%s'",
                           (int)unit.len, unit.ptr ? unit.ptr : "NA", u);
  snprintf(to, 32, "%s", u);
  return 0;
}

void cli_print_filters(FILE *fp, const pcol_select *sel) {
  if (!pcol_select_filtered(sel)) return;
  fputs("Active filters:\n", fp);
  const char *k[] = {"focus", "ignore", "hide", "show", "tagfocus", "tagignore"};
  const char *v[] = {sel->focus, sel->ignore, sel->hide, sel->show, sel->tag, sel->tag_ignore};
  for (int i = 0; i < 6; i++)
    if (v[i]) fprintf(fp, "   %s=%.80s\n", k[i], v[i]);
}

/* The one escaping rule (cli.h, cli_put_text): the text of s[0..n) from
 * s[*i], one character or byte at a time, into out (at most 9 bytes);
 * returns its length and moves *i past what it used. */
static size_t esc_next(const unsigned char *s, size_t n, size_t *i, int tsv, char *out) {
  unsigned c = s[*i];
  static const char hex[] = "0123456789abcdef";
  if (c < 0x80) {
    (*i)++;
    const char *e = c == '\n' ? "\\n" : c == '\r' ? "\\r" : NULL;
    if (tsv && c == '\t') e = "\\t";
    else if (tsv && c == '\\') e = "\\\\";
    else if (tsv && c == 0) e = "\\0";
    if (e) {
      memcpy(out, e, 2);
      return 2;
    }
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      out[0] = '\\', out[1] = 'x', out[2] = hex[c >> 4], out[3] = hex[c & 15];
      return 4;
    }
    out[0] = (char)c;
    return 1;
  }
  size_t len = utf8_len(s + *i, n - *i);
  if (len == 2 && c == 0xc2 && s[*i + 1] < 0xa0) len = 0; /* C1 controls (U+0080..U+009F) */
  if (len) {
    memcpy(out, s + *i, len);
    *i += len;
    return len;
  }
  size_t k = 0; /* one byte; a C1 control's two */
  size_t m = c == 0xc2 && *i + 1 < n && s[*i + 1] >= 0x80 && s[*i + 1] < 0xa0 ? 2 : 1;
  for (size_t j = 0; j < m; j++) {
    unsigned b = s[*i + j];
    out[k++] = '\\', out[k++] = 'x', out[k++] = hex[b >> 4], out[k++] = hex[b & 15];
  }
  *i += m;
  return k;
}

void cli_put_text(FILE *fp, const char *p, size_t n, int tsv) {
  const unsigned char *s = (const unsigned char *)p;
  char e[9];
  for (size_t i = 0; i < n;) {
    size_t from = i; /* a run that needs no escape goes out at once */
    while (i < n && s[i] >= 0x20 && s[i] < 0x7f && (!tsv || s[i] != '\\')) i++;
    if (i > from) fwrite_unlocked(s + from, 1, i - from, fp);
    if (i < n) fwrite_unlocked(e, 1, esc_next(s, n, &i, tsv, e), fp);
  }
}

size_t cli_text_buf(const char *p, size_t n, char *out, size_t cap) {
  const unsigned char *s = (const unsigned char *)p;
  size_t o = 0;
  char e[9];
  for (size_t i = 0; i < n && cap;) {
    size_t at = i, k = esc_next(s, n, &i, 0, e);
    if (o + k + 1 > cap) {
      i = at;
      break;
    }
    memcpy(out + o, e, k);
    o += k;
  }
  if (cap) out[o] = 0;
  return o;
}

void cli_print_name(FILE *fp, pcol_str name) {
  if (name.ptr) cli_put_text(fp, name.ptr, name.len, 0);
}

void cli_print_str(FILE *fp, pcol_str s) {
  if (s.ptr) cli_put_text(fp, s.ptr, s.len, 0);
  else fputs("NA", fp);
}

void cli_print_cstr(FILE *fp, const char *s) { cli_put_text(fp, s, strlen(s), 0); }

/* pprof's "Time:" and "Duration:" lines (report.go ProfileLabels) for the
 * selected source, or the file's only one: the time in the local zone as
 * Go's "Jan 2, 2006 at 3:04pm (MST)"; the duration in auto units, the total
 * in the table's unit and, for a time value, its share of the duration. */
static void print_time_lines(FILE *fp, pcol_file *f, const pcol_top *t, const pcol_select *sel,
                             const char *unit) {
  pcol_source_summary *ss = NULL;
  size_t ns = 0;
  if (!f || pcol_source_summaries(f, &ss, &ns, NULL)) return;
  const pcol_source_summary *s = NULL;
  for (size_t i = 0; i < ns; i++)
    if (sel && sel->source_id ? ss[i].id == sel->source_id : ns == 1) s = &ss[i];
  if (s && s->timestamp_s != PCOL_NA_I64 && s->timestamp_s != 0) {
    time_t tt = (time_t)s->timestamp_s;
    struct tm tm;
    char b[96], ampm[3];
    if (localtime_r(&tt, &tm) && strftime(b, sizeof b, "%b %-d, %Y at %-I:%M", &tm)) {
      ampm[0] = tm.tm_hour < 12 ? 'a' : 'p';
      ampm[1] = 'm';
      ampm[2] = 0;
      char z[48] = "";
      strftime(z, sizeof z, "%Z", &tm);
      fprintf(fp, "Time: %s%s (%s)\n", b, ampm, z);
    }
  }
  if (s && s->duration_ns != PCOL_NA_I64 && s->duration_ns != 0) {
    char d[64], tot[64], pct[40] = "";
    pcol_unit_label(s->duration_ns, (pcol_str){"nanoseconds", 11}, "auto", d, sizeof d);
    pcol_unit_label(t->total, t->value.unit, unit, tot, sizeof tot);
    const char *u;
    double ns_total = pcol_unit_scale(t->total, t->value.unit, "nanoseconds", &u);
    if (!strcmp(u, "ns") && ns_total != 0) {
      /* pprof's int64(totalNanos): out of int64's range (4,000,000 hrs)
       * Go on amd64 gives MinInt64; in C the cast was UB (clang's UBSan),
       * and the percentage of 2^63 ns (21 digits) was cut by a 16-byte
       * buffer */
      int64_t tot_ns = ns_total >= -0x1p63 && ns_total < 0x1p63 ? (int64_t)ns_total : INT64_MIN;
      char p[32];
      pcol_percentage(tot_ns, s->duration_ns, p, sizeof p);
      snprintf(pct, sizeof pct, "(%s)", p);
    }
    fprintf(fp, "Duration: %s, Total samples = %s %s\n", d, tot, pct);
  }
  pcol_source_summaries_free(ss, ns);
}

void cli_print_view_header(FILE *fp, pcol_file *f, const char *path, const pcol_top *t, size_t n,
                           const pcol_select *sel, const char *unit) {
  const pcol_value_sel *v = &t->value;
  char b1[64], b2[64], p1[16];
  fprintf(fp, "File: %s\n", path);
  pcol_str vunit; /* of the numbers as printed: "1e-9 B" values print in B */
  pcol_value_decimals(v, &vunit);
  fputs("Type: ", fp);
  cli_print_str(fp, v->type);
  if (vunit.len || !vunit.ptr) {
    fputs(" (", fp);
    cli_print_str(fp, vunit);
    fputc(')', fp);
  }
  fputc('\n', fp);
  print_time_lines(fp, f, t, sel, unit);
  cli_print_filters(fp, sel);
  pcol_sum shown = 0;
  for (size_t i = 0; i < n; i++) shown += t->rows[i].flat;
  pcol_unit_label(shown, v->unit, unit, b1, sizeof b1);
  pcol_unit_label(t->total, v->unit, unit, b2, sizeof b2);
  pcol_percentage(shown, t->total, p1, sizeof p1);
  const char *pp = p1;
  while (*pp == ' ') pp++;
  fprintf(fp, "Showing nodes accounting for %s, %s of %s total\n", b1, pp, b2);
}

int cli_sort_option(const cli_command *cmd, const cli_args *a, pcol_sort *sort) {
  *sort = PCOL_SORT_FLAT;
  const char *ss = cli_get(cmd, a, "sort");
  if (ss) {
    if (!strcmp(ss, "flat")) *sort = PCOL_SORT_FLAT;
    else if (!strcmp(ss, "cum")) *sort = PCOL_SORT_CUM;
    else if (!strcmp(ss, "name")) *sort = PCOL_SORT_NAME;
    else return cli_usage_error(cmd->name, "--sort wants flat, cum or name, not '%s'", ss);
  }
  return 0;
}

int cli_fraction_option(const cli_command *cmd, const cli_args *a, const char *name, double *out) {
  const char *s = cli_get(cmd, a, name);
  if (!s) return 0;
  char *end;
  double d = strtod(s, &end);
  if (end == s || *end || !(d >= 0 && d <= 1))
    return cli_usage_error(cmd->name, "--%s wants a number from 0 to 1, not '%s'", name, s);
  *out = d;
  return 0;
}

int cli_report_options(const cli_command *cmd, const cli_args *a, pcol_by *by, out_format *fmt,
                       uint64_t *limit) {
  *by = PCOL_BY_FUNCTION;
  const char *bys = cli_get(cmd, a, "by");
  if (bys) {
    if (!strcmp(bys, "function")) *by = PCOL_BY_FUNCTION;
    else if (!strcmp(bys, "line")) *by = PCOL_BY_LINE;
    else if (!strcmp(bys, "file")) *by = PCOL_BY_FILE;
    else if (!strcmp(bys, "address")) *by = PCOL_BY_ADDRESS;
    else if (!strncmp(bys, "label:", 6) && bys[6] && !strcmp(cmd->name, "top")) *by = PCOL_BY_FUNCTION; /* cmd_top */
    else return cli_usage_error(cmd->name, "--by wants function, line, file or address%s, not '%s'",
                                !strcmp(cmd->name, "top") ? " or label:KEY" : "", bys);
  }
  *fmt = OUT_TEXT;
  const char *fs = cli_get(cmd, a, "format");
  if (fs && cli_out_format(fs, fmt))
    return cli_usage_error(cmd->name, "--format wants text, tsv, csv, json or jsonl, not '%s'", fs);
  return cli_get_u64(cmd, a, "limit", UINT64_MAX, limit);
}
