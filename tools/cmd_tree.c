/* cmd_tree.c — `pcol tree FILE`: go tool pprof -tree, the text call graph:
 * every node of the graph pprof keeps for a text report (nodes below the
 * node fraction dropped, the first --node-count by flat or cum, light edges
 * dropped) with its callers and callees, printed as pprof's printTree
 * prints them (the layout of `pcol peek`).  The graph is
 * pcol_graph_compute's with opts.text. */
#include "cli.h"
#include <stdlib.h>

const cli_opt opts_tree[] = {
    {"by", 0, 1, CLI_BY_HELP ".  A frame without a line (Rprof's <GC>, a builtin) is a node of its "
                 "own (\"<unknown>\" by file) with its own flat, as pprof -tree -lines has it, where "
                 "`top --by line` gives that flat to the innermost calling line (a note says so)" CLI_NAMELESS_BY_FN_HELP},
    CLI_OPT_VALUE("to add up"),
    {"sort", 0, 1, "which nodes are kept and their order: flat (default) or cum (pprof -cum)"},
    CLI_OPTS_PRUNE,
    CLI_OPT_UNIT,
    CLI_OPT_MEAN,
    CLI_OPT_DIVIDE_BY,
    CLI_OPT_DROP_NEGATIVE,
    CLI_OPT_VIEW_FORMAT(": one row per node (relation \"node\") and per caller/callee, as "
                        "`pcol peek`'s; numbers stay raw"),
    CLI_OPTS_VIEW_INPUT,
    CLI_OPT_TAGKEYS_LISTED,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_tree);

/* pprof's layout (report.go printTree; reportLabels without the dropped
 * edges' line).  The edges come in pprof's order (|weight| desc, caller,
 * callee): a node's are those whose callee (caller) it is, in that order. */
static void print_text(FILE *fp, pcol_file *f, const char *path, const pcol_graph *g,
                       const pcol_graph_opts *o, const pcol_select *sel, const char *unit) {
  const pcol_top *t = &g->top;
  const pcol_str vu = t->value.unit;
  pcol_top shown = *t;
  shown.rows = g->nodes;
  shown.nrows = g->nnodes;
  shown.total = g->total; /* (--mean: the divided total) */
  cli_print_view_header(fp, f, path, &shown, g->nnodes, sel, unit, NULL);
  cli_graph_labels(fp, g, o, unit, false);
  cli_tree_legend(fp);
  pcol_sum flat_sum = 0;
  for (size_t i = 0; i < g->nnodes && !cli_budget_over(); i++) {
    const pcol_top_row *r = &g->nodes[i];
    cli_tree_sep(fp);
    for (size_t k = g->in_off[i]; k < g->in_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g->edges[g->in_edge[k]];
      cli_tree_edge(fp, e->weight, r->cum, g->nodes[e->from].name, e->inl, vu, unit);
    }
    cli_tree_node(fp, r, &flat_sum, g->total, vu, unit);
    for (size_t k = g->out_off[i]; k < g->out_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g->edges[g->out_edge[k]];
      cli_tree_edge(fp, e->weight, r->cum, g->nodes[e->to].name, e->inl, vu, unit);
    }
  }
  if (g->nnodes) cli_tree_sep(fp);
}

/* the rows of `pcol peek --format ...`, for every node of the tree */
static void print_table(FILE *fp, out_format fmt, const pcol_graph *g,
                        const cli_view_meta *m) {
  cli_table tb;
  tbl_begin_view(&tb, fp, fmt, CLI_TREE_NCOLS, cli_tree_cols, m);
  const pcol_str u = g->top.value.unit;
  for (size_t i = 0; i < g->nnodes && !cli_budget_over(); i++) {
    const pcol_top_row *r = &g->nodes[i];
    for (size_t k = g->in_off[i]; k < g->in_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g->edges[g->in_edge[k]];
      cli_tree_row_edge(&tb, r->name, "caller", g->nodes[e->from].name, e->weight, r->cum, e->inl, u);
    }
    cli_tree_row_node(&tb, r, u);
    for (size_t k = g->out_off[i]; k < g->out_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g->edges[g->out_edge[k]];
      cli_tree_row_edge(&tb, r->name, "callee", g->nodes[e->to].name, e->weight, r->cum, e->inl, u);
    }
  }
  tbl_finish(&tb);
}

int cmd_tree(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  pcol_by by;
  out_format fmt;
  uint64_t limit, nc;
  pcol_sort sort;
  if (cli_report_options(cmd, a, &by, &fmt, &limit) || cli_sort_option(cmd, a, &sort)) return EXIT_USAGE;
  if (sort == PCOL_SORT_NAME) return cli_usage_error(cmd->name, "--sort wants flat or cum, not 'name'");
  pcol_graph_opts o = pcol_graph_opts_default();
  o.text = true;
  o.cum_sort = sort == PCOL_SORT_CUM;
  o.drop_negative = cli_flag(cmd, a, "drop-negative");
  o.no_tags = true;
  if (cli_fraction_option(cmd, a, "node-fraction", &o.node_fraction) ||
      cli_fraction_option(cmd, a, "edge-fraction", &o.edge_fraction) ||
      cli_get_u64(cmd, a, "node-count", 80, &nc))
    return EXIT_USAGE;
  o.node_count = nc > SIZE_MAX ? SIZE_MAX : (size_t)nc;
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  int mean = cli_flag(cmd, a, "mean");
  pcol_error err = {0};
  pcol_file *f = NULL;
  pcol_value_sel v;
  pcol_graph g = {0};
  int bad_unit = 0;
  const char *path;
  int rc = cli_load(cmd, a, a->pos, a->npos, &sel, &f, &v, &path, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  pcol_value_sel div;
  char mean_type[PCOL_MEAN_TYPE_MAX];
  if (mean && !(rc = pcol_mean_divisor(f, &sel, &div, &err))) o.mean_div = &div;
  if (!rc) rc = pcol_graph_compute(f, &sel, &v, by, &o, &g, &err);
  if (!rc && mean) cli_mean_type(&g.top.value.type, mean_type);
  if (!rc) cli_note_lines_rule(cmd, f, &sel, by, path);
  if (!rc && fmt == OUT_TEXT) {
    char unit[32];
    rc = cli_graph_unit(cmd, a, &g, 0, unit, &err);
    if (rc < 0) rc = 0, bad_unit = 1;
    else if (!rc) print_text(stdout, f, path, &g, &o, &sel, unit);
  } else if (!rc) {
    cli_view_meta m = {"tree", path, g.top.value.type, g.top.value.unit, g.total, &sel, NULL, 0, NULL, 0};
    print_table(stdout, fmt, &g, &m);
  }
  pcol_graph_free(&g);
  pcol_close(f);
  if (bad_unit) return EXIT_USAGE;
  return rc ? cli_fail_in(cmd->name, path, &err, rc) : EXIT_OK;
}
