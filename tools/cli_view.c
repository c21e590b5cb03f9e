/* cli_view.c — the text views' shared parts: the options --format, --unit,
 * --sort, --by, --limit and the fractions, and pprof's header lines
 * (File, Type, Time, Duration, Active filters, Showing nodes). */
#include "cli.h"
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_view_format(const cli_command *cmd, const cli_args *a, out_format *fmt) {
  *fmt = OUT_TEXT;
  const char *fs = cli_get(cmd, a, "format");
  if (fs && cli_out_format(fs, fmt))
    return cli_usage_error(cmd->name, "--format wants text, tsv, csv, json or jsonl, not '%s'", fs);
  return cli_divide_by(cmd, a, *fmt == OUT_TEXT);
}

int cli_view_open(const cli_command *cmd, const cli_args *a, int nfiles, cli_view_in *in) {
  in->f = NULL;
  if (cli_view_format(cmd, a, &in->fmt) || cli_select(cmd, a, &in->sel)) return EXIT_USAGE;
  pcol_error err = {0};
  int rc = cli_load(cmd, a, a->pos, nfiles, &in->sel, &in->f, &in->v, &in->path, &err);
  return rc ? cli_fail(cmd->name, &err, rc) : 0;
}

/* 1/F of the command being run (set by cli_divide_by before it prints;
 * the shell runs one command after another) */
static double view_ratio = 1;

const char *cli_divide_by_parse(const char *s, double *ratio) {
  char *end;
  double d = strtod(s, &end);
  if (end == s || *end || isspace((unsigned char)*s) || !isfinite(d))
    return "wants a decimal number";
  if (d == 0) /* pprof: "zero divisor specified" */
    return "wants a divisor other than 0 (pprof: zero divisor specified)";
  if (d < 0)
    return "wants a divisor above 0 (pprof ignores a negative one silently; pcol says so)";
  *ratio = 1 / d;
  return NULL;
}

int cli_divide_by(const cli_command *cmd, const cli_args *a, bool text) {
  view_ratio = 1;
  const char *s = cli_get(cmd, a, "divide-by"), *bad;
  double r;
  if (!s) return 0;
  if ((bad = cli_divide_by_parse(s, &r))) return cli_usage_error(cmd->name, "--divide-by %s, not '%s'", bad, s);
  if (!text)
    return cli_usage_error(cmd->name, "--divide-by is for the text output: tsv, csv and json "
                           "keep the raw numbers");
  view_ratio = r;
  return 0;
}

double cli_divide_ratio(void) { return view_ratio; }

void cli_value_label(pcol_sum v, pcol_str vunit, const char *unit, char *buf, size_t n) {
  pcol_sum x = pcol_unit_ratio(v, view_ratio);
  pcol_str base;
  int dec = 0;
  (void)pcol_unit_base(vunit, &base, &dec);
  /* raw: the exact number in the value's own unit, with that unit's name
   * when pprof knows it ("2180208886994B", pprof's -unit=B; a time in ns
   * "240290000000ns"), as pprof's numbers carry it; pprof has no "raw"
   * (it reads the word as an unknown unit: its family's default, B or s) */
  if (unit && !strcmp(unit, "raw") && !dec && pcol_unit_known(vunit)) {
    char to[32];
    const char *u = "";
    size_t k = vunit.len < sizeof to - 1 ? vunit.len : sizeof to - 1;
    memcpy(to, vunit.ptr, k);
    to[k] = 0;
    (void)pcol_unit_scale(0, vunit, to, &u);
    size_t l = pcol_sum_text(x, buf, n);
    if (l < n && x != 0) snprintf(buf + l, n - l, "%s", u); /* ScaledLabel: "0" bare */
    return;
  }
  pcol_unit_label(x, vunit, unit, buf, n);
}

int cli_view_unit(const cli_command *cmd, const cli_args *a, pcol_str unit, const pcol_sum *vals,
                  size_t nvals, pcol_sum total, char *to) {
  return cli_view_unit_as(cmd, a, unit, vals, nvals, total, 0, to);
}

int cli_view_unit_as(const cli_command *cmd, const cli_args *a, pcol_str unit, const pcol_sum *vals,
                     size_t nvals, pcol_sum total, int whole, char *to) {
  const char *u = cli_get(cmd, a, "unit");
  /* "minimum" is pprof's name of its default, this pick (review 14 m3:
   * it printed each number in its own unit, as list's "minimum" does,
   * where pprof -top -unit=minimum prints its default table); "auto" is
   * pprof's -unit=auto, each number in its own unit (measurement.go
   * convertUnit: report.go selectOutputUnit picks only for "minimum";
   * review 17 F4: a total of 1.98TB, not 2030.48GB) */
  if (u && !strcmp(u, "auto")) {
    snprintf(to, 32, "auto");
    return 0;
  }
  if (!u || !strcmp(u, "minimum")) {
    char picked[32]; /* a unit of no family is the file's own text: escaped */
    pcol_unit_pick_ratio(vals, nvals, total, unit, whole, view_ratio, picked, sizeof picked);
    cli_text_buf(picked, strlen(picked), to, 32);
    return 0;
  }
  int rc = cli_unit_check(cmd, unit, u);
  if (!rc) snprintf(to, 32, "%s", u);
  return rc;
}

int cli_unit_check(const cli_command *cmd, pcol_str unit, const char *u) {
  if (pcol_unit_valid_target(unit, u)) return 0;
  char wants[256];
  cli_unit_wants(unit, wants, sizeof wants);
  return cli_usage_error(cmd->name, "--unit wants %s, not '%s'", wants, u);
}

void cli_unit_wants(pcol_str unit, char *buf, size_t n) {
  /* the units of the value's family (lib/core/unit_scale.c), or why none */
  static const struct { const char *probe, *what, *units; } fam[] = {
      {"ns", "time", "fs, ps, ns, us, ms, s, hrs"},
      {"B", "bytes", "B, kB, MB, GB, TB, PB"},
      {"GCU", "compute units", "n*GCU, u*GCU, m*GCU, GCU, k*GCU, M*GCU, G*GCU, T*GCU, P*GCU"}};
  int ul = (int)(unit.len > 64 ? 64 : unit.len);
  const char *up = unit.ptr ? unit.ptr : "NA";
  for (size_t i = 0; i < sizeof fam / sizeof *fam; i++)
    if (pcol_unit_valid_target(unit, fam[i].probe)) {
      snprintf(buf, n, "auto, raw or a unit of %s (%s), as the value's unit %.*s is one", fam[i].what,
               fam[i].units, ul, up);
      return;
    }
  snprintf(buf, n, "auto or raw: the value's unit %.*s is no unit pcol converts (B, kB, MB... for bytes; "
           "ns, us, ms, s... for time)", ul, up);
}

void cli_print_filters(FILE *fp, const pcol_select *sel) {
  if (!sel) return;
  /* pprof's list (driver.go reportOptions): its regular expressions only,
   * so --no-inlines alone prints no "Active filters:" line */
  int any = 0;
  for (int i = 0; i < CLI_NFILTERS; i++) {
    const char *k = cli_filters[i].pprof, *v = cli_filter_value(sel, i);
    if (!v) continue;
    if (!any++) fputs("Active filters:\n", fp);
    /* pprof's legendActiveFilters: "key=value" cut at 80 bytes, then "…";
     * the value is the user's: the text rule (a regex holding ESC or
     * U+202E wrote them raw, to the terminal and through the graph's
     * legend into its SVG, which no XML reader then read) */
    size_t kl = strlen(k) + 1, vl = strlen(v);
    fprintf(fp, "   %s=", k);
    cli_put_text(fp, v, kl + vl > 80 ? 80 - kl : vl, 0);
    fputs(kl + vl > 80 ? "\xe2\x80\xa6\n" : "\n", fp);
  }
}

/* one comment line, but those that begin with '#' (pprof's text views
 * leave them out; its export keeps them) */
static int print_comment(void *fp, pcol_str c) {
  if (c.len && c.ptr[0] == '#') return 0;
  cli_print_str(fp, c);
  fputc('\n', fp);
  return 0;
}

/* pprof's comment lines (report.go ProfileLabels, after File:): those of
 * go's merge of the sources the header speaks of (pcol_sources_comments:
 * each once, of the sources that Time: counts), or ht's, already so; on
 * an error none, as no Time: line when its source fails. */
void cli_print_comments(FILE *fp, pcol_file *f, const pcol_select *sel,
                        const cli_header_time *ht) {
  for (size_t i = 0; ht && i < ht->ncomments; i++) print_comment(fp, ht->comments[i]);
  if (!ht && f && pcol_sources_comments(f, sel, print_comment, fp, NULL)) {
    /* (printed up to the failure: the header goes on) */
  }
}

/* pprof's "Time:" and "Duration:" lines (report.go ProfileLabels) for the
 * selected source, or all of them as go's merge combines them
 * (pcol_sources_time; ht: already combined): the time in the local zone as
 * Go's "Jan 2, 2006 at 3:04pm (MST)"; the duration in auto units, the
 * total in the table's unit and, for a time value, its share of the
 * duration. */
void cli_print_time_lines(FILE *fp, pcol_file *f, const pcol_select *sel, pcol_str vunit,
                          const char *unit, int (*total_of)(void *ctx, pcol_sum *total),
                          void *ctx, const cli_header_time *ht) {
  int64_t tn, dn;
  if (ht) tn = ht->time_ns, dn = ht->duration_ns;
  else if (!f || pcol_sources_time(f, sel, &tn, &dn, NULL)) return;
  if (tn != 0) {
    /* seconds, rounded down as Go's time.Unix(0, ns) */
    time_t tt = (time_t)(tn / 1000000000 - (tn % 1000000000 < 0));
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
  if (dn != 0) {
    char d[64], tot[64], pct[PCOL_PERCENT_MAX + 2] = "";
    pcol_sum total = 0;
    if (total_of(ctx, &total)) return;
    pcol_unit_label(dn, (pcol_str){"nanoseconds", 11}, "auto", d, sizeof d);
    cli_value_label(total, vunit, unit, tot, sizeof tot);
    const char *u;
    double ns_total = pcol_unit_scale(total, vunit, "nanoseconds", &u);
    if (!strcmp(u, "ns") && ns_total != 0) {
      /* pprof's int64(totalNanos): out of int64's range (4,000,000 hrs)
       * Go on amd64 gives MinInt64; in C the cast was UB (clang's UBSan),
       * and the percentage of 2^63 ns (21 digits) was cut by a 16-byte
       * buffer */
      int64_t tot_ns = ns_total >= -0x1p63 && ns_total < 0x1p63 ? (int64_t)ns_total : INT64_MIN;
      char p[PCOL_PERCENT_MAX];
      pcol_percentage(tot_ns, dn, p, sizeof p);
      snprintf(pct, sizeof pct, "(%s)", p);
    }
    fprintf(fp, "Duration: %s, Total samples = %s %s\n", d, tot, pct);
  }
}

/* pprof's "Type: T" (report.go ProfileLabels: the sample type's name
 * alone, review 17 F4b); the unit is in the numbers ("1.23s", "45MB", a
 * unit of no family printed after each, "12objects"), and in the machine
 * formats' unit column */
void cli_print_type(FILE *fp, const pcol_value_sel *v) {
  fputs("Type: ", fp);
  cli_print_str(fp, v->type);
  fputc('\n', fp);
}

void cli_print_profile_labels(FILE *fp, pcol_file *f, const char *path, const pcol_select *sel,
                              const pcol_value_sel *v, const char *unit,
                              int (*total_of)(void *ctx, pcol_sum *total), void *ctx) {
  fputs("File: ", fp); /* a path is bytes from outside: the text rule */
  cli_print_cstr(fp, path);
  fputc('\n', fp);
  cli_print_comments(fp, f, sel, NULL);
  cli_print_type(fp, v);
  cli_print_time_lines(fp, f, sel, v->unit, unit, total_of, ctx, NULL);
}

static int top_total(void *ctx, pcol_sum *total) {
  *total = ((const pcol_top *)ctx)->total;
  return 0;
}

bool cli_compact_labels;

void cli_print_view_header(FILE *fp, pcol_file *f, const char *path, const pcol_top *t, size_t n,
                           const pcol_select *sel, const char *unit, const cli_header_time *ht) {
  const pcol_value_sel *v = &t->value;
  char b1[64], b2[64], p1[PCOL_PERCENT_MAX];
  if (cli_compact_labels) goto filters; /* pprof's compact_labels (report.go reportLabels) */
  fputs("File: ", fp); /* a path is bytes from outside: the text rule */
  cli_print_cstr(fp, path);
  fputc('\n', fp);
  cli_print_comments(fp, f, sel, ht);
  cli_print_type(fp, v);
  cli_print_time_lines(fp, f, sel, t->value.unit, unit, top_total, (void *)t, ht);
filters:
  cli_print_filters(fp, sel);
  pcol_sum shown = 0;
  for (size_t i = 0; i < n; i++) shown += t->rows[i].flat;
  cli_value_label(shown, v->unit, unit, b1, sizeof b1);
  cli_value_label(t->total, v->unit, unit, b2, sizeof b2);
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
    if (pcol_by_parse(bys, by) == PCOL_OK) {
      /* function, line, file, address, filefunction */
    } else if (!strncmp(bys, "label:", 6) && bys[6] && !strcmp(cmd->name, "top")) {
      *by = PCOL_BY_FUNCTION; /* cmd_top */
    } else {
      return cli_usage_error(cmd->name, "--by wants function, line, file, address or filefunction%s, not '%s'",
                             !strcmp(cmd->name, "top") ? " or label:KEY" : "", bys);
    }
  }
  if (cli_view_format(cmd, a, fmt)) return EXIT_USAGE;
  return cli_get_limit(cmd, a, limit);
}
