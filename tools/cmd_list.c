/* cmd_list.c — `pcol list FILE REGEX`: source lines annotated with flat and
 * cum, printed like `go tool pprof -list` (report/source.go printSource);
 * the blocks come from pcol_list_compute. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_list[] = {
    {"by", 0, 1, "function (default: a block per function matching REGEX, as pprof -list) or "
                 "file (a block per file whose path matches, every function's lines merged; "
                 "summaryRprof(lines = \"show\"))"},
    CLI_OPTS_SOURCE_FILES,
    CLI_OPT_VALUE("to add up"),
    CLI_OPT_MEAN,
    CLI_OPT_DROP_NEGATIVE,
    CLI_OPT_DIVIDE_BY,
    {"unit", 0, 1, "text: minimum (default: each number in its own unit, as pprof -list), raw, "
                   "or a unit (ns us ms s hrs, also ps fs; B kB MB GB TB)"},
    CLI_OPT_VIEW_FORMAT(": a row per source line"),
    CLI_OPTS_VIEW_INPUT,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_list);

static void print_text(FILE *fp, const pcol_list *l, pcol_by by, const char *unit) {
  char b1[64], b2[64], p[PCOL_PERCENT_MAX];
  const pcol_str vu = l->value.unit;
  cli_value_label(l->total, vu, unit, b1, sizeof b1);
  fprintf(fp, "Total: %s\n", b1);
  for (size_t i = 0; i < l->nblocks; i++) {
    const pcol_list_block *k = &l->blocks[i];
    if (!k->file.ptr) {
      fputs("No source information for ", fp);
      cli_print_name(fp, k->name);
      fputc('\n', fp);
      continue;
    }
    if (by == PCOL_BY_LINE) {
      fputs("ROUTINE ======================== ", fp);
      cli_print_name(fp, k->name);
      fputs(" in ", fp);
    } else {
      fputs("SOURCE ======================== ", fp);
    }
    cli_print_name(fp, k->file);
    fputc('\n', fp);
    cli_value_label(k->flat, vu, unit, b1, sizeof b1);
    cli_value_label(k->cum, vu, unit, b2, sizeof b2);
    pcol_percentage(k->cum, l->total, p, sizeof p);
    fprintf(fp, "%10s %10s (flat, cum) %s of Total\n", b1, b2, p);
    if (k->error) {
      fputs(" Error: ", fp);
      cli_print_cstr(fp, k->error); /* it quotes the profile's path */
      fputc('\n', fp);
      continue;
    }
    for (size_t j = 0; j < k->nlines; j++) {
      const pcol_list_line *ln = &k->lines[j];
      fprintf(fp, "%10s ", cli_value_or_dot(ln->flat, vu, unit, b1, sizeof b1));
      fprintf(fp, "%10s %6lld:", cli_value_or_dot(ln->cum, vu, unit, b2, sizeof b2), (long long)ln->line);
      cli_print_name(fp, ln->text); /* the source by the text rule (valid UTF-8 and tabs as they are) */
      fputc('\n', fp);
    }
  }
}

static void print_table(FILE *fp, out_format fmt, const pcol_list *l, const cli_view_meta *m) {
  static const char *const names[] = {"function", "file", "line", "flat", "cum", "text", "unit"};
  cli_table tb;
  tbl_begin_view(&tb, fp, fmt, 7, names, m);
  for (size_t i = 0; i < l->nblocks; i++) {
    const pcol_list_block *k = &l->blocks[i];
    for (size_t j = 0; j < k->nlines; j++) {
      const pcol_list_line *ln = &k->lines[j];
      tbl_str(&tb, k->name.ptr, k->name.len);
      tbl_str(&tb, k->file.ptr, k->file.len);
      tbl_i64(&tb, ln->line);
      tbl_sum(&tb, ln->flat);
      tbl_sum(&tb, ln->cum);
      tbl_str(&tb, ln->text.ptr, ln->text.len);
      tbl_str(&tb, l->value.unit.ptr, l->value.unit.len);
      tbl_end_row(&tb);
    }
  }
  tbl_finish(&tb);
}

int cmd_list(const cli_command *cmd, cli_args *a) {
  if (a->npos < 2) return cli_usage_error(cmd->name, "expected FILE and REGEX");
  pcol_by by = PCOL_BY_LINE;
  const char *bys = cli_get(cmd, a, "by");
  if (bys && !strcmp(bys, "file")) by = PCOL_BY_SOURCE_LINE;
  else if (bys && strcmp(bys, "function"))
    return cli_usage_error(cmd->name, "--by wants function or file, not '%s'", bys);
  int mean = cli_flag(cmd, a, "mean");
  cli_view_in in;
  char unit[32];
  int rc = cli_listing_open(cmd, a, &in, unit);
  if (rc) return rc;
  pcol_error err = {0};
  pcol_list l = {0};
  pcol_list_options lo = {cli_get(cmd, a, "source-path"), cli_flag(cmd, a, "allow-any-source"),
                          cli_flag(cmd, a, "drop-negative")};
  rc = pcol_list_compute(in.f, &in.sel, &in.v, by, a->pos[a->npos - 1], &lo, &l, &err);
  /* --mean: pprof's -list prints the lines' sums and the mean total
   * (source.go printSource: fn.Flat, fn.Cum, rpt.total) */
  pcol_value_sel div;
  if (!rc && mean && !(rc = pcol_mean_divisor(in.f, &in.sel, &div, &err)))
    rc = pcol_mean_total(in.f, &in.sel, &in.v, &div, &l.total, &err);
  int nomatch = !rc && l.nblocks == 0;
  size_t refused = 0;
  for (size_t i = 0; !rc && i < l.nblocks; i++) refused += l.blocks[i].refused && l.blocks[i].error;
  if (!rc && !nomatch) {
    if (in.fmt == OUT_TEXT) {
      print_text(stdout, &l, by, unit);
    } else {
      cli_view_meta m = {"list", in.path, in.v.type, in.v.unit, l.total, &in.sel, NULL, 0, NULL, 0};
      print_table(stdout, in.fmt, &l, &m);
    }
  }
  if (!rc && !nomatch) cli_note_v8_lines(cmd, in.f, &in.sel, in.path);
  /* its lines' flat is summaryRprof's rule on Rprof sources: said as top says it */
  if (!rc && !nomatch) cli_note_lines_rule(cmd, in.f, &in.sel, PCOL_BY_LINE, in.path);
  pcol_list_free(&l);
  pcol_close(in.f);
  /* pprof opens any file the profile names; pcol only those under the
   * source path, and says so once, with the way to read the others */
  if (refused)
    fprintf(stderr, "pcol %s: %zu source file%s not read (outside the source path): --source-path "
            "DIR says where sources are; --allow-any-source opens any file the profile names, as "
            "pprof does\n", cmd->name, refused, refused == 1 ? "" : "s");
  if (nomatch) { /* pprof: an error, and no report */
    fprintf(stderr, "pcol %s: no matches found for regexp: %s\n", cmd->name, a->pos[a->npos - 1]);
    return EXIT_DATA;
  }
  return rc ? cli_fail_in(cmd->name, in.path, &err, rc) : EXIT_OK;
}
