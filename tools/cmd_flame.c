/* cmd_flame.c — `pcol flame`: a self-contained interactive SVG flame graph
 * (after Brendan Gregg's flamegraph.pl): the root at the bottom, callees
 * above their callers, widths proportional to the value, children sorted by
 * name.  Hovering shows name, value and share; a click zooms into a frame
 * and "Reset Zoom" goes back.  The frames are laid out here, so the picture
 * is complete without JavaScript; the script only adds hover and zoom.
 *
 * --diff BASE colours each frame of the (new) profile by the change of its
 * share of the total against the same call path in BASE: red = grew,
 * blue = shrank, white = unchanged (a path missing in BASE counts as 0). */
#include "cli.h"
#include "svg.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const cli_opt opts_flame[] = {
    {"output", 'o', 1, "output SVG file ('-' for standard output)"},
    {"value", 0, 1, "value type for widths: weight, samples, TYPE or TYPE/UNIT (default: the source's)"},
    {"title", 0, 1, "title printed on the graph (default \"Flame Graph\")"},
    {"diff", 0, 1, "BASE profile: colour frames by growth (red) or shrinkage (blue) against it"},
    {"width", 0, 1, "image width in pixels (default 1200)"},
    {"no-mmap", 0, 0, "read the input into memory instead of mapping it"},
    CLI_OPT_SELECT,
    CLI_OPT_FILTER,
    {NULL, 0, 0, NULL}};

int cmd_flame(const cli_command *cmd, cli_args *a) {
  if (a->npos != 1) return cli_usage_error(cmd->name, "expected one FILE");
  const char *out = cli_get(cmd, a, "output");
  if (!out) return cli_usage_error(cmd->name, "missing -o OUTPUT");
  uint64_t width;
  if (cli_get_u64(cmd, a, "width", 1200, &width)) return EXIT_USAGE;
  if (width < 100 || width > 100000) return cli_usage_error(cmd->name, "--width wants 100..100000");
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  const char *base_path = cli_get(cmd, a, "diff");
  const char *inputs[2] = {a->pos[0], base_path};
  if (cli_stdin_once(cmd, inputs, 2)) return EXIT_USAGE;
  const char *title = cli_get(cmd, a, "title");
  if (!title) title = base_path ? "Differential Flame Graph" : "Flame Graph";

  pcol_error err = {0};
  pcol_file *f = NULL, *fb = NULL;
  pcol_ftree t = {0}, tb = {0};
  double *delta = NULL, *bshare = NULL;
  pcol_value_sel v;
  int rc = cli_load(cmd, a, a->pos[0], &sel, &f, &v, &err);
  if (!rc && (rc = pcol_ftree_build(f, &sel, &v, &t, &err))) pcol_error_prefix(&err, a->pos[0]);
  if (!rc && base_path) {
    rc = cli_load(cmd, a, base_path, &sel, &fb, &v, &err);
    if (!rc && (rc = pcol_ftree_build(fb, &sel, &v, &tb, &err))) pcol_error_prefix(&err, base_path);
    if (!rc) rc = pcol_value_compatible(&tb.value, &t.value, &err);
    if (!rc) rc = pcol_ftree_diff(&t, &tb, &bshare, &delta, &err);
  }
  if (!rc) {
    char sub[600], total[48];
    pcol_str unit; /* of the numbers as printed (1.5 of count/1e-9) */
    pcol_value_decimals(&t.value, &unit);
    pcol_value_text(&t.value, t.total[0], total, sizeof total);
    snprintf(sub, sizeof sub, "%s%.*s (%.*s), total %s%s%.400s", base_path ? "widths: new; " : "",
             (int)t.value.type.len, t.value.type.ptr ? t.value.type.ptr : "NA",
             (int)unit.len, unit.ptr ? unit.ptr : "NA",
             total, base_path ? "; red grew, blue shrank against " : "",
             base_path ? base_path : "");
    pcol_out o;
    rc = pcol_out_open(&o, out, &err);
    if (!rc) {
      rc = svg_flame_write(o.fp, &t, title, (double)width, delta, bshare, sub);
      if (rc) {
        pcol_error_set(&err, rc, "%s: cannot write the SVG", out);
        pcol_out_abort(&o);
      } else {
        rc = pcol_out_commit(&o, &err);
      }
    }
  }
  free(delta);
  free(bshare);
  pcol_ftree_free(&t);
  pcol_ftree_free(&tb);
  if (f) pcol_close(f);
  if (fb) pcol_close(fb);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
