/* cmd_tags.c — `pcol tags`: label keys, their values and the value of the
 * samples carrying each (go tool pprof -tags); numbers from
 * pcol_tags_compute. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_tags[] = {
    CLI_OPT_VALUE("to add up"),
    CLI_OPT_VIEW_FORMAT(": a row per label value (key, value, amount, pct, unit, key_total)"),
    CLI_OPT_UNIT,
    CLI_OPT_MEAN_IGNORED("-tags"),
    CLI_OPT_RELATIVE_IGNORED("-tags", "the shares are of each key's total"),
    CLI_OPT_NO_MMAP,
    CLI_OPT_SELECT_BASE,
    CLI_OPT_FILTER,
    CLI_OPT_BASE,
    CLI_OPT_TAGKEYS("labels"),
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_tags);

/* width of a cell as Go's text/tabwriter counts it: UTF-8 code points (the
 * cells are the text rule's output, so valid UTF-8) */
static size_t cell_width(const char *s) {
  size_t w = 0;
  for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
  return w;
}

/* the amount cell of a value line: "X (PCT):", or "X:" when the key's total
 * is not positive (pprof prints no share of it) */
static void amount_cell(const pcol_value_sel *v, const char *unit, pcol_sum x, pcol_sum total,
                        char *b, size_t cap) {
  const char *u;
  char p[PCOL_PERCENT_MAX];
  double s = pcol_unit_scale(x, v->unit, unit, &u);
  pcol_percentage(x, total, p, sizeof p);
  if (total > 0) snprintf(b, cap, "%.1f%s (%.*s):", s, u, (int)strlen(p), p); /* cut to cap, never past */
  else snprintf(b, cap, "%.1f%s:", s, u);
}

/* pprof's text (report.go printTags): lines "KEY:\t Total X" and
 * " \tX (PCT):\t VALUE" through a tabwriter (padding 1, AlignRight), a blank
 * line after each key.  A column's width is its widest cell + 1 within a
 * block of consecutive lines that have the cell, the blank line ends the
 * blocks: so column 0 is " KEY:" wide for each key, and the amounts are
 * right-aligned one space wider than the key's widest amount. */
static void print_text(const pcol_tags *t, const pcol_value_sel *v, const char *unit) {
  char b[64];
  for (size_t k = 0; k < t->nkeys; k++) {
    const pcol_tag_key *tk = &t->keys[k];
    const char *u;
    double x = pcol_unit_scale(tk->total, v->unit, unit, &u);
    char key[1024]; /* the key by the text rule */
    cli_text_buf(tk->key.ptr ? tk->key.ptr : "", tk->key.len, key, sizeof key);
    size_t w0 = cell_width(key) + 2, w1 = 0; /* "KEY:" + 1 */
    printf(" %s: Total %.1f%s\n", key, x, u);
    for (size_t i = 0; i < tk->nvalues; i++) {
      amount_cell(v, unit, tk->values[i].value, tk->total, b, sizeof b);
      if (cell_width(b) + 1 > w1) w1 = cell_width(b) + 1;
    }
    for (size_t i = 0; i < tk->nvalues; i++) {
      amount_cell(v, unit, tk->values[i].value, tk->total, b, sizeof b);
      printf("%*s%*s%s ", (int)w0, "", (int)(w1 - cell_width(b)), "", b);
      cli_print_name(stdout, tk->values[i].name);
      putchar('\n');
    }
    putchar('\n');
  }
}

int cmd_tags(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  cli_view_in in;
  int rc = cli_view_open(cmd, a, a->npos, &in);
  if (rc) return rc;
  in.sel.relative = 0; /* (--relative-percentages: ignored, as pprof -tags) */
  pcol_error err = {0};
  pcol_tags t = {0};
  /* --unit: pprof -tags -unit scales the amounts and names numeric labels
   * in it (cli_select's label_unit); auto is pprof's "minimum" */
  const char *unit = cli_get(cmd, a, "unit");
  if (!unit || !strcmp(unit, "auto")) unit = "minimum";
  else if ((rc = cli_unit_check(cmd, in.v.unit, unit))) {
    pcol_close(in.f);
    return rc;
  }
  rc = pcol_tags_compute(in.f, &in.sel, &in.v, &t, &err);
  if (!rc && in.fmt == OUT_TEXT) {
    print_text(&t, &in.v, unit);
  } else if (!rc) {
    /* one total per key (the text's "KEY: Total X"), in every row of the
     * key: a sum over keys would count each sample once per key */
    static const char *const names[] = {"key", "value", "amount", "pct", "unit", "key_total"};
    cli_table tb;
    cli_view_meta m = {"tags", in.path, in.v.type, in.v.unit, 0, &in.sel, NULL, 0, NULL, 1};
    tbl_begin_view(&tb, stdout, in.fmt, 6, names, &m);
    char b[32];
    for (size_t k = 0; k < t.nkeys; k++)
      for (size_t i = 0; i < t.keys[k].nvalues; i++) {
        const pcol_tag_value *tv = &t.keys[k].values[i];
        tbl_str(&tb, t.keys[k].key.ptr, t.keys[k].key.len);
        tbl_str(&tb, tv->name.ptr, tv->name.len);
        tbl_i64(&tb, tv->value);
        snprintf(b, sizeof b, "%.2f", t.keys[k].total ? 100.0 * (double)tv->value / (double)t.keys[k].total : 0.0);
        tbl_num(&tb, b);
        tbl_str(&tb, in.v.unit.ptr, in.v.unit.len);
        tbl_i64(&tb, t.keys[k].total);
        tbl_end_row(&tb);
      }
    tbl_finish(&tb);
  }
  pcol_tags_free(&t);
  pcol_close(in.f);
  return rc ? cli_fail_in(cmd->name, in.path, &err, rc) : EXIT_OK;
}
