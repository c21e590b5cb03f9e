/* cmd_tags.c — `pcol tags`: label keys, their values and the value of the
 * samples carrying each (go tool pprof -tags); numbers from
 * pcol_tags_compute. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_tags[] = {
    {"value", 0, 1, "value to add up: weight, samples, TYPE or TYPE/UNIT (default: the source's)"},
    {"format", 0, 1, "text (default), tsv, csv, json or jsonl"},
    {"no-mmap", 0, 0, "read the input into memory instead of mapping it"},
    CLI_OPT_SELECT,
    CLI_OPT_FILTER,
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};

int cmd_tags(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  out_format fmt;
  if (cli_view_format(cmd, a, &fmt)) return EXIT_USAGE;
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  pcol_error err = {0};
  pcol_file *f = NULL;
  pcol_value_sel v;
  pcol_tags t = {0};
  const char *path;
  int rc = cli_load(cmd, a, a->pos, a->npos, &sel, &f, &v, &path, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  rc = pcol_tags_compute(f, &sel, &v, &t, &err);
  if (!rc && fmt == OUT_TEXT) {
    /* pprof's layout: " KEY: Total X" then "  X (PCT): VALUE" */
    char b[64], p[16];
    const char *u;
    for (size_t k = 0; k < t.nkeys; k++) {
      const pcol_tag_key *tk = &t.keys[k];
      double x = pcol_unit_scale(tk->total, v.unit, "minimum", &u);
      snprintf(b, sizeof b, "%.1f%s", x, u);
      char key[1024]; /* the key by the text rule; the values line up under it */
      size_t kl = cli_text_buf(tk->key.ptr ? tk->key.ptr : "", tk->key.len, key, sizeof key);
      printf(" %s: Total %s\n", key, b);
      for (size_t i = 0; i < tk->nvalues; i++) {
        const pcol_tag_value *tv = &tk->values[i];
        x = pcol_unit_scale(tv->value, v.unit, "minimum", &u);
        snprintf(b, sizeof b, "%.1f%s", x, u);
        pcol_percentage(tv->value, tk->total, p, sizeof p);
        if (tk->total > 0) /* pprof prints no share of a total that is not positive */
          printf(" %*s%10s (%s): ", (int)kl, "", b, p);
        else
          printf(" %*s%10s: ", (int)kl, "", b);
        cli_print_name(stdout, tv->name);
        putchar('\n');
      }
      printf("\n");
    }
  } else if (!rc) {
    static const char *const names[] = {"key", "value", "amount", "pct", "unit"};
    cli_table tb;
    int64_t total = 0;
    cli_view_meta m = {"tags", path, v.type, v.unit, 0, &sel, NULL, 0, NULL};
    for (size_t k = 0; k < t.nkeys; k++) total += t.keys[k].total;
    m.total = total;
    tbl_begin_view(&tb, stdout, fmt, 5, names, &m);
    char b[32];
    for (size_t k = 0; k < t.nkeys; k++)
      for (size_t i = 0; i < t.keys[k].nvalues; i++) {
        const pcol_tag_value *tv = &t.keys[k].values[i];
        tbl_str(&tb, t.keys[k].key.ptr, t.keys[k].key.len);
        tbl_str(&tb, tv->name.ptr, tv->name.len);
        tbl_i64(&tb, tv->value);
        snprintf(b, sizeof b, "%.2f", t.keys[k].total ? 100.0 * (double)tv->value / (double)t.keys[k].total : 0.0);
        tbl_num(&tb, b);
        tbl_str(&tb, v.unit.ptr, v.unit.len);
        tbl_end_row(&tb);
      }
    tbl_finish(&tb);
  }
  pcol_tags_free(&t);
  pcol_close(f);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
