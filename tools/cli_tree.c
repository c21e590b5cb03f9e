/* cli_tree.c — go tool pprof's printTree layout (report.go), which both
 * `pcol peek` (pprof -peek) and `pcol tree` (pprof -tree) print: a node's
 * callers, the node, its callees, each edge with its share of the node's
 * cum; and the rows of their --format tsv/csv/json. */
#include "cli.h"
#include <stdlib.h>

static const char tree_sep[] = "----------------------------------------------------------+-------------";

void cli_tree_legend(FILE *fp) {
  fprintf(fp, "%s\n      flat  flat%%   sum%%        cum   cum%%   calls calls%% + context \t \t \n",
          tree_sep);
}

void cli_tree_sep(FILE *fp) { fprintf(fp, "%s\n", tree_sep); }

void cli_tree_edge(FILE *fp, pcol_sum weight, pcol_sum cum, pcol_str name, bool inl, pcol_str vunit,
                   const char *unit) {
  char b[64], p[PCOL_PERCENT_MAX];
  cli_value_label(weight, vunit, unit, b, sizeof b);
  pcol_percentage(weight, cum, p, sizeof p);
  fprintf(fp, "%50s %s |   ", b, p);
  cli_print_name(fp, name);
  fputs(inl ? " (inline)\n" : "\n", fp);
}

void cli_tree_node(FILE *fp, const pcol_top_row *r, pcol_sum *flat_sum, pcol_sum total, pcol_str vunit,
                   const char *unit) {
  char b1[64], b2[64], p1[PCOL_PERCENT_MAX], p2[PCOL_PERCENT_MAX], p3[PCOL_PERCENT_MAX];
  *flat_sum += r->flat;
  cli_value_label(r->flat, vunit, unit, b1, sizeof b1);
  cli_value_label(r->cum, vunit, unit, b2, sizeof b2);
  pcol_percentage(r->flat, total, p1, sizeof p1);
  pcol_percentage(*flat_sum, total, p2, sizeof p2);
  pcol_percentage(r->cum, total, p3, sizeof p3);
  fprintf(fp, "%10s %s %s %10s %s                | ", b1, p1, p2, b2, p3);
  cli_print_name(fp, r->name);
  fputc('\n', fp);
}

const char *const cli_tree_cols[CLI_TREE_NCOLS] = {"node",  "relation", "name", "flat", "cum",
                                                   "value", "pct",      "inline", "unit"};

void cli_tree_row_edge(cli_table *tb, pcol_str node, const char *rel, pcol_str name, pcol_sum weight,
                       pcol_sum cum, bool inl, pcol_str unit) {
  char b[32];
  tbl_str(tb, node.ptr, node.len);
  tbl_cstr(tb, rel);
  tbl_str(tb, name.ptr, name.len);
  tbl_na(tb);
  tbl_na(tb);
  tbl_sum(tb, weight);
  snprintf(b, sizeof b, "%.2f", cum ? 100.0 * (double)weight / (double)cum : 0.0);
  tbl_num(tb, b);
  tbl_bool(tb, inl);
  tbl_str(tb, unit.ptr, unit.len);
  tbl_end_row(tb);
}

void cli_tree_row_node(cli_table *tb, const pcol_top_row *r, pcol_str unit) {
  tbl_str(tb, r->name.ptr, r->name.len);
  tbl_cstr(tb, "node");
  tbl_str(tb, r->name.ptr, r->name.len);
  tbl_sum(tb, r->flat);
  tbl_sum(tb, r->cum);
  tbl_na(tb);
  tbl_na(tb);
  tbl_na(tb);
  tbl_str(tb, unit.ptr, unit.len);
  tbl_end_row(tb);
}

void cli_graph_labels(FILE *fp, const pcol_graph *g, const pcol_graph_opts *o, const char *unit,
                      bool edges) {
  char b[64];
  if (g->total == 0) return;
  if (g->dropped_nodes) {
    cli_value_label(g->node_cutoff, g->top.value.unit, unit, b, sizeof b);
    fprintf(fp, "Dropped %zu node%s (cum <= %s)\n", g->dropped_nodes, g->dropped_nodes > 1 ? "s" : "", b);
  }
  if (edges && g->dropped_edges) {
    cli_value_label(g->edge_cutoff, g->top.value.unit, unit, b, sizeof b);
    fprintf(fp, "Dropped %zu edge%s (freq <= %s)\n", g->dropped_edges, g->dropped_edges > 1 ? "s" : "", b);
  }
  if (o->node_count > 0 && g->nnodes < g->orig_count)
    fprintf(fp, "Showing top %zu nodes out of %zu\n", g->nnodes, g->orig_count);
}

int cli_graph_unit(const cli_command *cmd, const cli_args *a, const pcol_graph *g, int whole,
                   char *unit, pcol_error *err) {
  pcol_sum *vals = malloc((g->nnodes + 1) * sizeof *vals);
  if (!vals) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (size_t i = 0; i < g->nnodes; i++) vals[i] = g->nodes[i].flat ? g->nodes[i].flat : g->nodes[i].cum;
  int rc = cli_view_unit_as(cmd, a, g->top.value.unit, vals, g->nnodes, g->total, whole, unit)
               ? -1
               : 0;
  free(vals);
  return rc;
}
