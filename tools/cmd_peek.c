/* cmd_peek.c — `pcol peek FILE REGEX`: the callers and callees of the
 * functions (lines, files) whose name matches REGEX, with flat/cum and the
 * weight through each call, printed like `go tool pprof -peek` (report.go
 * printTree); the numbers come from pcol_top_compute_frames and pcol_peek_compute. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_peek[] = {
    {"by", 0, 1, CLI_BY_HELP ".  A frame without a line (Rprof's <GC>, a builtin) is a node of its own "
                 "with its own flat, as pprof -peek -lines has it, where `top --by line` gives that flat to "
                 "the innermost calling line (a note says so)" CLI_NAMELESS_BY_FN_HELP},
    CLI_OPT_VALUE("to add up"),
    {"sort", 0, 1, "order of the matched rows: flat (default), cum or name"},
    CLI_OPT_UNIT,
    CLI_OPT_MEAN,
    CLI_OPT_DROP_NEGATIVE,
    CLI_OPT_DIVIDE_BY,
    CLI_OPT_VIEW_FORMAT(": one row per matched node (relation \"node\") and per "
                        "caller/callee; numbers stay raw"),
    CLI_OPTS_VIEW_INPUT,
    CLI_OPT_TAGKEYS_LISTED,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_peek);

/* pprof's layout (report.go printTree, cli_tree.c) */
static void print_text(FILE *fp, pcol_file *f, const char *path, const pcol_top *t, const pcol_peek *pk,
                       const pcol_select *sel, const char *unit) {
  const pcol_str vu = t->value.unit;
  cli_print_view_header(fp, f, path, t, t->nrows, sel, unit, NULL);
  cli_tree_legend(fp);
  pcol_sum flat_sum = 0;
  for (size_t i = 0; i < pk->nnodes; i++) {
    const pcol_peek_node *nd = &pk->nodes[i];
    const pcol_top_row *r = nd->row;
    cli_tree_sep(fp);
    for (size_t j = 0; j < nd->nin; j++)
      cli_tree_edge(fp, nd->in[j].value, r->cum, nd->in[j].caller, nd->in[j].inl, vu, unit);
    cli_tree_node(fp, r, &flat_sum, t->total, vu, unit);
    for (size_t j = 0; j < nd->nout; j++)
      cli_tree_edge(fp, nd->out[j].value, r->cum, nd->out[j].callee, nd->out[j].inl, vu, unit);
  }
  if (t->nrows) cli_tree_sep(fp);
}

static void print_table(FILE *fp, out_format fmt, const pcol_top *t, const pcol_peek *pk,
                        const cli_view_meta *m) {
  cli_table tb;
  tbl_begin_view(&tb, fp, fmt, CLI_TREE_NCOLS, cli_tree_cols, m);
  const pcol_str u = t->value.unit;
  for (size_t i = 0; i < pk->nnodes; i++) {
    const pcol_peek_node *nd = &pk->nodes[i];
    const pcol_top_row *r = nd->row;
    for (size_t j = 0; j < nd->nin; j++)
      cli_tree_row_edge(&tb, r->name, "caller", nd->in[j].caller, nd->in[j].value, r->cum, nd->in[j].inl, u);
    cli_tree_row_node(&tb, r, u);
    for (size_t j = 0; j < nd->nout; j++)
      cli_tree_row_edge(&tb, r->name, "callee", nd->out[j].callee, nd->out[j].value, r->cum, nd->out[j].inl, u);
  }
  tbl_finish(&tb);
}

int cmd_peek(const cli_command *cmd, cli_args *a) {
  if (a->npos < 2) return cli_usage_error(cmd->name, "expected FILE and REGEX");
  pcol_by by;
  out_format fmt;
  uint64_t limit;
  pcol_sort sort;
  if (cli_report_options(cmd, a, &by, &fmt, &limit)) return EXIT_USAGE;
  if (cli_sort_option(cmd, a, &sort)) return EXIT_USAGE;
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  int mean = cli_flag(cmd, a, "mean");
  int drop_neg = cli_flag(cmd, a, "drop-negative");
  pcol_error err = {0};
  pcol_file *f = NULL;
  pcol_value_sel v;
  pcol_top t = {0};
  pcol_peek pk = {0};
  int bad_unit = 0, nomatch = 0;
  const char *path;
  int rc = cli_load(cmd, a, a->pos, a->npos - 1, &sel, &f, &v, &path, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  rc = pcol_top_compute_frames(f, &sel, &v, by, &t, &err); /* pprof -peek trims nothing */
  /* --mean: the nodes' flat and cum divided, in the sums' order; the
   * calls stay sums, their shares of the mean cum (report.go printTree
   * prints Edge.Weight beside Node.CumValue()) */
  char mean_type[PCOL_MEAN_TYPE_MAX];
  pcol_top dt = {0};
  pcol_value_sel div;
  if (!rc) pcol_top_sort(&t, sort);
  /* --drop-negative: pprof leaves the graph's negative nodes out of the
   * rows (their sums, before any --mean); the calls into and out of them
   * stay, as the walk names calls by key, not by row */
  if (!rc && drop_neg) rc = pcol_top_drop_negative(&t, 0, SIZE_MAX, NULL, NULL, &err);
  /* the divisor's top once: for the nodes' means and the calls (it was
   * computed twice, by pcol_top_mean and here) */
  if (!rc && mean && !(rc = pcol_mean_divisor(f, &sel, &div, &err)))
    rc = pcol_top_compute_frames(f, &sel, &div, by, &dt, &err);
  if (!rc && mean) rc = cli_mean(f, &sel, &dt, &t, 0, NULL, mean_type, &err);
  if (!rc)
    rc = mean ? pcol_peek_compute_mean(&t, &dt, a->pos[a->npos - 1], &pk, &err)
              : pcol_peek_compute(&t, a->pos[a->npos - 1], &pk, &err);
  nomatch = !rc && pk.nnodes == 0; /* pprof: an error, and no report */
  if (!rc && !nomatch) cli_note_lines_rule(cmd, f, &sel, by, path);
  if (nomatch) {
  } else if (!rc && fmt == OUT_TEXT) {
    pcol_sum *vals = malloc((t.nrows + 1) * sizeof *vals);
    char unit[32];
    if (!vals) {
      rc = pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
    } else {
      for (size_t i = 0; i < t.nrows; i++) vals[i] = t.rows[i].flat ? t.rows[i].flat : t.rows[i].cum;
      if (cli_view_unit(cmd, a, t.value.unit, vals, t.nrows, t.total, unit)) bad_unit = 1;
      else print_text(stdout, f, path, &t, &pk, &sel, unit);
      free(vals);
    }
  } else if (!rc) {
    cli_view_meta m = {"peek", path, t.value.type, t.value.unit, t.total, &sel, NULL, 0, NULL, 0};
    print_table(stdout, fmt, &t, &pk, &m);
  }
  pcol_peek_free(&pk);
  pcol_top_free(&dt);
  pcol_top_free(&t);
  pcol_close(f);
  if (bad_unit) return EXIT_USAGE;
  if (nomatch) {
    fprintf(stderr, "pcol %s: no matches found for regexp: %s\n", cmd->name, a->pos[a->npos - 1]);
    return EXIT_DATA;
  }
  return rc ? cli_fail_in(cmd->name, path, &err, rc) : EXIT_OK;
}
