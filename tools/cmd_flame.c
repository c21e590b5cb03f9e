/* cmd_flame.c — `pcol flame`: a self-contained interactive SVG flame graph
 * (after Brendan Gregg's flamegraph.pl): the root at the bottom, callees
 * above their callers, widths proportional to the value, children sorted by
 * name.  Hovering shows name, value and share as go tool pprof -http's flame
 * graph gives them (svg.c frame: the value alone in its unit,
 * pcol_unit_label_alone; the share of the sum of |value|, pcol_share,
 * where the widths are of the signed total); a click zooms into a frame and "Reset Zoom" goes back; "Search" (or Ctrl-F) asks
 * for a regular expression (Go's syntax: the report page's converter,
 * regex.js, is in the SVG's script), highlights the frames it matches and shows
 * "Matched: N%", the share under them of the hover's total (svg.h
 * svg_share_base: pprof's, not the root's filtered value); "Reset Search" (or Escape) clears
 * it.  --inverted draws an icicle graph, --minwidth and --palette are
 * flamegraph.pl's.  The frames are laid out here, so the picture
 * is complete without JavaScript; the script only adds hover and zoom.
 *
 * --diff BASE colours each frame of the (new) profile by the change of its
 * share of the total against the same call path in BASE: red = grew,
 * blue = shrank, white = unchanged (a path missing in BASE counts as 0). */
#include "cli.h"
#include <errno.h>
#include "svg.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const cli_opt opts_flame[] = {
    {"output", 'o', 1, "output SVG file ('-' for standard output)"},
    CLI_OPT_VALUE("for the widths"),
    {"title", 0, 1, "title printed on the graph (default \"Flame Graph\")"},
    {"diff", 0, 1, "BASE profile: colour frames by growth (red) or shrinkage (blue) against it (without --value, the value pcol diff compares)"},
    {"width", 0, 1, "image width in pixels (default 1200)"},
    {"inverted", 0, 0, "an icicle graph: the root on top, callees below their callers"},
    {"minwidth", 0, 1, "leave out frames narrower than this many pixels, or N% of the total "
                       "(default 0.1 pixels; as flamegraph.pl --minwidth)"},
    {"palette", 0, 1, "colours: hot (default), mem, io, red, green, blue, aqua, yellow, purple, "
                      "orange (flamegraph.pl's)"},
    CLI_OPT_DIVIDE_BY_AS("F: each value shown (a frame's, the total) divided by F (a decimal, e.g. "
                         "the number of CPUs or jobs), truncated to an integer of the value's unit, "
                         "as pcol top --divide-by (pprof -divide_by); the widths and shares stay "
                         "those of the undivided values.  0 and a negative F are refused"),
    CLI_OPT_NO_MMAP,
    CLI_OPT_SELECT_BASE,
    CLI_OPT_FILTER,
    CLI_OPT_BASE,
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_flame);

/* a total as the subtitle prints it: divided (--divide-by), in pprof's
 * human units when the unit has a family (1.23s, 45.60MB) */
static void total_text(const pcol_ftree *t, pcol_sum v, double ratio, char *b, size_t n) {
  pcol_sum shown = pcol_unit_ratio(v, ratio);
  if (pcol_unit_known(t->value.unit))
    pcol_unit_label(shown, t->value.unit, "minimum", b, n);
  else
    pcol_value_text(&t->value, shown, b, n);
}

int cmd_flame(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  const char *out = cli_get(cmd, a, "output");
  if (!out) return cli_usage_error(cmd->name, "missing -o OUTPUT");
  uint64_t width;
  if (cli_get_u64(cmd, a, "width", 1200, &width)) return EXIT_USAGE;
  if (width < 100 || width > 100000) return cli_usage_error(cmd->name, "--width wants 100..100000");
  if (cli_divide_by(cmd, a, true)) return EXIT_USAGE;
  double ratio = cli_divide_ratio();
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  const char *base_path = cli_get(cmd, a, "diff");
  if (base_path && (cli_get(cmd, a, "base") || cli_get(cmd, a, "diff-base")))
    return cli_usage_error(cmd->name, "--diff colours against a base; --base/--diff-base subtract one: give one of them");
  for (int i = 0; base_path && !strcmp(base_path, "-") && i < a->npos; i++)
    if (!strcmp(a->pos[i], "-"))
      return cli_usage_error(cmd->name, "standard input ('-') can be read only once");
  double minwidth = 0.1;
  const char *mw = cli_get(cmd, a, "minwidth");
  if (mw) {
    char *end;
    double d = strtod(mw, &end);
    int pct = *end == '%';
    if (end == mw || (pct ? end[1] != 0 : *end != 0) || !(d >= 0 && d <= (pct ? 100 : 1e6)))
      return cli_usage_error(cmd->name, "--minwidth wants pixels or N%%, not '%s'", mw);
    minwidth = pct ? d / 100 * ((double)width - 20) : d;
  }
  const char *palette = cli_get(cmd, a, "palette");
  if (palette) {
    int ok = 0;
    for (int i = 0; svg_palettes[i]; i++) ok |= !strcmp(palette, svg_palettes[i]);
    if (!ok)
      return cli_usage_error(cmd->name, "--palette wants hot, mem, io, red, green, blue, aqua, "
                             "yellow, purple or orange, not '%s'", palette);
  }
  const char *title = cli_get(cmd, a, "title");
  if (!title) title = base_path ? "Differential Flame Graph" : "Flame Graph";

  pcol_error err = {0};
  pcol_file *f = NULL, *fb = NULL;
  pcol_ftree t = {0}, tb = {0};
  double *delta = NULL, *bshare = NULL;
  int quiet = 0; /* the error was the budget's: cli_budget_end prints it */
  pcol_value_sel v;
  const char *path, *blabel;
  int rc, pair = base_path && (cli_get(cmd, a, "tagroot") || cli_get(cmd, a, "tagleaf"));
  pcol_value_sel vb;
  if (pair) { /* the label frames of both at once: a key on one side will do */
    const char *labels[2];
    pcol_file *fs[2];
    pcol_value_sel vs[2];
    rc = cli_load_pair(cmd, a, a->pos, a->npos, base_path, &sel, fs, vs, labels, &err);
    f = fs[0], fb = fs[1], v = vs[0], vb = vs[1], path = labels[0], blabel = labels[1];
  } else {
    if (base_path) cli_pair_begin(); /* the two sides' warnings once both are open: a filter's once */
    rc = cli_load(cmd, a, a->pos, a->npos, &sel, &f, &v, &path, &err);
    if (!rc && base_path) rc = cli_load(cmd, a, &base_path, 1, &sel, &fb, &vb, &blabel, &err);
    if (base_path) cli_pair_end(cmd, a, &sel, !rc);
  }
  if (!rc && (rc = pcol_ftree_build(f, &sel, &v, &t, &err))) pcol_error_prefix(&err, path);
  if (!rc && base_path) {
    /* without --value, the two defaults as pcol diff takes them (go's
     * -diff_base: the one NEW names, else BASE's); NEW's tree is built
     * again when its value changes */
    pcol_value_sel v0 = v;
    if (!rc && !cli_get(cmd, a, "value")) rc = pcol_value_diff_default(fb, f, &sel, NULL, &vb, &v, &err);
    if (!rc && v.vt_id != v0.vt_id) {
      pcol_ftree_free(&t);
      memset(&t, 0, sizeof t);
      if ((rc = pcol_ftree_build(f, &sel, &v, &t, &err))) pcol_error_prefix(&err, path);
    }
    if (!rc && (rc = pcol_ftree_build(fb, &sel, &vb, &tb, &err))) pcol_error_prefix(&err, blabel);
    if (!rc) rc = pcol_value_compatible(&tb.value, &t.value, &err);
    if (!rc) rc = pcol_ftree_diff(&t, &tb, &bshare, &delta, &err);
  }
  if (!rc) {
    char sub[600], total[48], sbase[64] = "";
    pcol_str unit; /* of the numbers as printed (1.5 of count/1e-9) */
    pcol_value_decimals(&t.value, &unit);
    total_text(&t, t.total[0], ratio, total, sizeof total);
    /* the shares' base (pprof's total) when it is not the root's value: a
     * filter removed samples, or values are negative */
    if (svg_share_base(&t) != t.total[0]) {
      char b[48];
      total_text(&t, svg_share_base(&t), ratio, b, sizeof b);
      snprintf(sbase, sizeof sbase, "; shares of %s", b);
    }
    /* a long type, unit or path: cut at a whole character (pcol_utf8_cut) */
    int ns = snprintf(sub, sizeof sub, "%s%.*s (%.*s), total %s%s%s%.*s", base_path ? "widths: new; " : "",
                      (int)t.value.type.len, t.value.type.ptr ? t.value.type.ptr : "NA",
                      (int)unit.len, unit.ptr ? unit.ptr : "NA",
                      total, sbase, base_path ? "; red grew, blue shrank against " : "",
                      base_path ? (int)pcol_utf8_cut(base_path, strlen(base_path), 400) : 0,
                      base_path ? base_path : "");
    if (ns >= (int)sizeof sub) sub[pcol_utf8_cut(sub, sizeof sub - 1, sizeof sub - 2)] = 0;
    svg_flame_opts so = {title, sub, (double)width, minwidth, cli_flag(cmd, a, "inverted"), palette,
                         ratio};
    pcol_out o;
    int replaces = cli_output_is_input(out, (char *const *)a->pos, (size_t)a->npos, 0);
    rc = pcol_out_open(&o, out, &err);
    if (!rc) {
      errno = 0;
      FILE *fp = cli_budget_wrap(o.fp); /* the output budget (outbudget.c) */
      rc = fp ? svg_flame_write(fp, &t, &so, delta, bshare) : PCOL_ENOMEM;
      if (fp && fp != o.fp && fclose(fp) && !rc) rc = PCOL_EIO;
      if (cli_budget_over()) { /* cli_budget_end says so: exit 3 */
        pcol_out_abort(&o);
        quiet = rc = PCOL_EBUDGET;
      } else if (rc) {
        pcol_error_set(&err, rc, "%s: cannot write the SVG%s%s", out, errno ? ": " : "", errno ? strerror(errno) : "");
        pcol_out_abort(&o);
      } else {
        rc = pcol_out_commit(&o, &err);
        if (!rc && replaces) cli_warn_replaced(cmd, out, "the flame graph");
      }
    }
  }
  free(delta);
  free(bshare);
  pcol_ftree_free(&t);
  pcol_ftree_free(&tb);
  if (f) pcol_close(f);
  if (fb) pcol_close(fb);
  return quiet ? EXIT_DATA : rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
