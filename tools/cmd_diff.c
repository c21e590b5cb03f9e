/* cmd_diff.c — `pcol diff`: per-function change in flat and cum weight
 * between two profiles.  By default each side is normalised by its own total
 * (so a profile twice as long does not look twice as slow) and changes are
 * in percentage points; --absolute compares raw sums.  Rows are sorted as
 * go tool pprof -diff_base sorts them (by |change in flat|, then name;
 * --sort cum|name), and the text is pprof's: human units (--unit), aligned
 * columns, "(inline)" marks.  --node-fraction drops the rows whose change in
 * cum is small (pcol_diff_cutoff: pprof's -nodefraction on -diff_base). */
#include "cli.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const cli_opt opts_diff[] = {
    {"absolute", 0, 0, "compare raw sums instead of shares of each profile's total"},
    CLI_OPT_VALUE("to compare"),
    {"by", 0, 1, CLI_BY_HELP ".  Rprof sources by line: as top --by line, a frame without a line (<GC>, "
                 "a builtin) gives its flat to the innermost calling line, as summaryRprof does (a note says so)"},
    {"sort", 0, 1, "flat (default: |change in flat|, as pprof -diff_base), cum or name"},
    CLI_OPT_UNIT,
    {"limit", 'n', 1, "print only the first N rows (after --node-fraction; 0: all, as pprof -nodecount=0)"},
    {"node-fraction", 0, 1, "hide rows whose change in cum is small, as pprof -diff_base -nodefraction "
                            "(default 0.005 in text, 0 in other formats; doc in pcol help diff)"},
    CLI_OPT_VIEW_FORMAT(""),
    CLI_OPT_DIVIDE_BY,
    CLI_OPT_NO_MMAP,
    CLI_OPT_SELECT, /* the same source and time range of both sides (each from its own start) */
    CLI_OPT_FILTER,
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_diff);

/* a sum of the value as given (pcol_value_text: 1.5, not 1500000000);
 * signed: "+" before a change that is positive ("0" for none, as pprof) */
typedef struct vtext {
  char s[48];
} vtext;
static vtext vt_of(const pcol_value_sel *v, pcol_sum x, int sign) {
  vtext b;
  b.s[0] = '+';
  int plus = sign && x > 0;
  pcol_value_text(v, x, b.s + plus, sizeof b.s - 1);
  return b;
}

/* a sum in the text's unit (cli_value_label: divided by --divide-by, the
 * shares left as they are), "+" before a change > 0 */
static vtext ut_of(const pcol_value_sel *v, const char *unit, pcol_sum x, int sign) {
  vtext b;
  b.s[0] = '+';
  int plus = sign && x > 0;
  /* raw: the bare number, its unit in the Type: line (pcol's own view:
   * the views of pprof's name it after each number, cli_value_label) */
  if (!strcmp(unit, "raw"))
    pcol_unit_label(pcol_unit_ratio(x, cli_divide_ratio()), v->unit, unit, b.s + plus, sizeof b.s - 1);
  else
    cli_value_label(x, v->unit, unit, b.s + plus, sizeof b.s - 1);
  return b;
}

/* The text: every cell made first, so that each column is as wide as its
 * widest cell (pprof's %10s at least). */
static int print_text(const cli_command *cmd, const cli_args *a, const pcol_top *tb,
                      const pcol_top *tn, const pcol_diff_row *rows, size_t n, int absolute,
                      size_t dropped, pcol_sum label_cutoff, double fraction) {
  const pcol_value_sel *v = &tn->value;
  char unit[32];
  /* vals: both totals and up to six cells a row (--absolute: every cell
   * not 0), so 6n + 2; it was 6n + 1, and -n 6 of two profiles whose rows
   * were all non-zero wrote past it (issue 42 F11).  cell: six a row (+1:
   * never a malloc of 0). */
  pcol_sum *vals = malloc((6 * n + 2) * sizeof *vals);
  vtext *cell = malloc((6 * n + 1) * sizeof *cell);
  if (!vals || !cell) {
    free(vals);
    free(cell);
    fprintf(stderr, "pcol %s: out of memory\n", cmd->name);
    return EXIT_IO;
  }
  size_t nv = 0;
  vals[nv++] = tb->total; /* shares: the unit is the totals' */
  char nu[64]; /* a base in another unit of one family (the unit rule): its total in the new one's */
  if ((tb->value.unit.len != v->unit.len ||
       (v->unit.len && memcmp(tb->value.unit.ptr, v->unit.ptr, v->unit.len))) && v->unit.len < sizeof nu) {
    const char *u;
    memcpy(nu, v->unit.ptr ? v->unit.ptr : "", v->unit.len);
    nu[v->unit.len] = 0;
    if (pcol_unit_valid_target(tb->value.unit, nu)) vals[0] = (pcol_sum)pcol_unit_scale(tb->total, tb->value.unit, nu, &u);
  }
  if (n) vals[nv++] = tn->total;
  for (size_t k = 0; absolute && k < n; k++) {
    const pcol_diff_row *r = &rows[k];
    pcol_sum x[6] = {r->base_flat, r->new_flat, r->abs_flat, r->base_cum, r->new_cum, r->abs_cum};
    for (int q = 0; q < 6; q++) if (x[q]) vals[nv++] = x[q];
  }
  pcol_sum big = vals[0] > tn->total ? vals[0] : tn->total;
  if (cli_view_unit(cmd, a, v->unit, vals, nv, big, unit)) {
    free(vals);
    free(cell);
    return EXIT_USAGE;
  }
  static const char *const head[6] = {"base_flat", "new_flat", "d_flat", "base_cum", "new_cum", "d_cum"};
  size_t w[6];
  for (int q = 0; q < 6; q++) w[q] = 10;
  for (size_t k = 0; k < n; k++) {
    const pcol_diff_row *r = &rows[k];
    vtext *c = &cell[6 * k];
    if (absolute) {
      pcol_sum x[6] = {r->base_flat, r->new_flat, r->abs_flat, r->base_cum, r->new_cum, r->abs_cum};
      for (int q = 0; q < 6; q++) c[q] = ut_of(v, unit, x[q], q == 2 || q == 5);
    } else {
      double x[6] = {pcol_share(r->base_flat, tb->total), pcol_share(r->new_flat, tn->total), r->d_flat,
                     pcol_share(r->base_cum, tb->total), pcol_share(r->new_cum, tn->total), r->d_cum};
      for (int q = 0; q < 6; q++)
        snprintf(c[q].s, sizeof c[q].s, q == 2 || q == 5 ? "%+.2f" : "%.2f%%", x[q]);
    }
    for (int q = 0; q < 6; q++)
      if (strlen(c[q].s) > w[q]) w[q] = strlen(c[q].s);
  }
  fputs("Base: ", stdout); /* paths are bytes from outside: the text rule */
  cli_print_cstr(stdout, a->pos[0]);
  printf(" (total %s)\nNew:  ", ut_of(&tb->value, unit, tb->total, 0).s);
  cli_print_cstr(stdout, a->pos[1]);
  printf(" (total %s)\n", ut_of(v, unit, tn->total, 0).s);
  fputs("Type: ", stdout); /* strings from the file: the text rule */
  cli_print_str(stdout, v->type);
  fputs(" (", stdout);
  cli_print_str(stdout, v->unit);
  printf(")%s\n", absolute ? ", raw sums; d_ = new - base"
                           : ", shares of each total in percent; deltas in points");
  if (dropped && absolute) /* pprof's line */
    printf("Dropped %zu node%s (cum <= %s)\n", dropped, dropped > 1 ? "s" : "",
           ut_of(v, unit, label_cutoff, 0).s);
  else if (dropped)
    printf("Dropped %zu node%s (|d_cum| < %.2f points)\n", dropped, dropped > 1 ? "s" : "",
           100.0 * fraction);
  for (int q = 0; q < 6; q++) printf("%*s ", (int)w[q], head[q]);
  printf(" name\n");
  for (size_t k = 0; k < n; k++) {
    for (int q = 0; q < 6; q++) printf("%*s ", (int)w[q], cell[6 * k + q].s);
    putchar(' ');
    cli_print_name(stdout, rows[k].name);
    if (rows[k].inl)
      printf(" (%s)", rows[k].inl == PCOL_INLINE_ONLY ? "inline" : "partial-inline");
    putchar('\n');
  }
  free(vals);
  free(cell);
  return EXIT_OK;
}

/* opens one side and computes its flat/cum rows: many pcol files each on
 * its own (cli_top_many: no cut, every row marked, by flat, as
 * pcol_top_compute), else (or when whole) their union */
static int load(const cli_command *cmd, const cli_args *a, const char *arg, pcol_by by,
                const pcol_select *sel, int whole, pcol_file **f, pcol_top *t, pcol_error *err) {
  pcol_value_sel v;
  const char *label;
  size_t dropped;
  int many = 0, rc;
  if (!whole) {
    rc = cli_top_many(cmd, a, &arg, 1, sel, by, 0, PCOL_SORT_FLAT, UINT64_MAX, t, &dropped, NULL, f,
                      &label, &many, NULL, err);
    if (rc || many) return rc;
  }
  rc = cli_load(cmd, a, &arg, 1, sel, f, &v, &label, err);
  if (!rc && (rc = pcol_top_compute(*f, sel, &v, by, t, err))) pcol_error_prefix(err, label);
  return rc;
}

/* By address: the base at the new profile's addresses (pcol_open_readdressed:
 * a mapping of both, a program loaded elsewhere in each run, is the new
 * one's, as go's -diff_base merges them), its rows computed again there;
 * *orig keeps the base as read (tb->value's names are its). */
static int readdress(pcol_file **fb, pcol_file **orig, pcol_file *fn, const pcol_select *sel, pcol_by by,
                     pcol_top *tb, pcol_error *err) {
  pcol_file *g = NULL;
  int rc = pcol_open_readdressed(*fb, fn, &g, err);
  pcol_top nt = {0};
  if (!rc) rc = pcol_top_compute(g, sel, &tb->value, by, &nt, err);
  if (rc) {
    pcol_top_free(&nt);
    pcol_close(g);
    return rc;
  }
  pcol_top_free(tb);
  *tb = nt;
  *orig = *fb;
  *fb = g;
  return PCOL_OK;
}

/* Without --value: each side's value as pcol_value_diff_default takes it
 * when the two defaults differ (go's -diff_base: the default NEW names,
 * else BASE's); a side whose value it changed is computed again in it. */
static int diff_default(pcol_file *fb, pcol_file *fn, const pcol_select *sel, pcol_by by, pcol_top *tb,
                        pcol_top *tn, pcol_error *err) {
  pcol_value_sel v[2] = {tb->value, tn->value};
  pcol_file *f[2] = {fb, fn};
  pcol_top *t[2] = {tb, tn};
  int rc = pcol_value_diff_default(fb, fn, sel, NULL, &v[0], &v[1], err);
  for (int k = 0; !rc && k < 2; k++) {
    if (v[k].vt_id == t[k]->value.vt_id) continue;
    pcol_top nt = {0};
    if ((rc = pcol_top_compute(f[k], sel, &v[k], by, &nt, err))) {
      pcol_top_free(&nt);
      break;
    }
    pcol_top_free(t[k]);
    *t[k] = nt;
  }
  return rc;
}

int cmd_diff(const cli_command *cmd, cli_args *a) {
  if (a->npos != 2) return cli_usage_error(cmd->name, "expected BASE and NEW");
  if (cli_stdin_once(cmd, a->pos, 2)) return EXIT_USAGE;
  int absolute = cli_flag(cmd, a, "absolute");
  pcol_by by;
  out_format fmt;
  uint64_t limit;
  if (cli_report_options(cmd, a, &by, &fmt, &limit)) return EXIT_USAGE;
  pcol_sort sort;
  if (cli_sort_option(cmd, a, &sort)) return EXIT_USAGE;
  double fraction = fmt == OUT_TEXT ? 0.005 : 0; /* as top's */
  if (cli_fraction_option(cmd, a, "node-fraction", &fraction)) return EXIT_USAGE;

  pcol_error err = {0};
  pcol_file *fb = NULL, *fn = NULL;
  pcol_top tb = {0}, tn = {0};
  pcol_diff d = {0};
  pcol_select sel; /* the filters, the same on both sides */
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  /* each side one argument: a file, or a directory or glob whose union it is */
  int rc;
  if (cli_get(cmd, a, "tagroot") || cli_get(cmd, a, "tagleaf")) {
    /* the frames of both sides at once: a key on one side will do */
    pcol_file *fs[2];
    pcol_value_sel vs[2];
    const char *labels[2];
    rc = cli_load_pair(cmd, a, &a->pos[0], 1, a->pos[1], &sel, fs, vs, labels, &err);
    fb = fs[0];
    fn = fs[1];
    if (!rc && (rc = pcol_top_compute(fb, &sel, &vs[0], by, &tb, &err))) pcol_error_prefix(&err, labels[0]);
    if (!rc && (rc = pcol_top_compute(fn, &sel, &vs[1], by, &tn, &err))) pcol_error_prefix(&err, labels[1]);
  } else {
    cli_pair_begin(); /* the two sides' warnings once both are open: a filter's once */
    /* (by address: each side one file, which readdress reads) */
    int whole = by == PCOL_BY_ADDRESS;
    rc = load(cmd, a, a->pos[0], by, &sel, whole, &fb, &tb, &err);
    if (!rc) rc = load(cmd, a, a->pos[1], by, &sel, whole, &fn, &tn, &err);
    /* (value notes of each side's own value, before diff_default may
     * change one: the same, as pcol_value_diff_default says) */
    cli_pair_end(cmd, a, &sel, !rc);
    /* the defaults differ and a side is many files answered one by one,
     * without a file whose defaults the rule below reads: that side is
     * their union then, as the R and Python packages read a directory */
    for (int k = 0; !rc && !cli_get(cmd, a, "value") && k < 2; k++) {
      pcol_file **f = k ? &fn : &fb;
      pcol_top *t = k ? &tn : &tb;
      if (*f || pcol_value_compatible(&tb.value, &tn.value, NULL) == PCOL_OK) continue;
      pcol_top_free(t);
      memset(t, 0, sizeof *t);
      cli_load_again = 1;
      rc = load(cmd, a, a->pos[k], by, &sel, 1, f, t, &err);
      cli_load_again = 0;
    }
  }
  pcol_file *fb0 = NULL; /* by address: the base as it was read (tb's names borrow from it) */
  if (!rc && by == PCOL_BY_ADDRESS) rc = readdress(&fb, &fb0, fn, &sel, by, &tb, &err);
  if (!rc && !cli_get(cmd, a, "value")) rc = diff_default(fb, fn, &sel, by, &tb, &tn, &err);
  if (!rc) rc = pcol_value_compatible(&tb.value, &tn.value, &err);
  if (!rc) rc = pcol_diff_compute(&tb, &tn, absolute, &d, &err);
  size_t dropped = 0;
  pcol_sum label_cutoff = 0;
  if (!rc) dropped = pcol_diff_cutoff(&d, fraction, &label_cutoff);
  if (!rc) { /* top's rule by line (summaryRprof's on Rprof sources): said as top says it, of
              * each input (once of a file diffed with itself: rd16a N2) */
    cli_note_lines_rule(cmd, fb, &sel, by, a->pos[0]);
    if (strcmp(a->pos[0], a->pos[1])) cli_note_lines_rule(cmd, fn, &sel, by, a->pos[1]);
  }
  if (!rc) pcol_diff_sort(&d, sort);
  int text_rc = EXIT_OK;
  if (!rc) {
    size_t nr = d.nrows;
    pcol_diff_row *rows = d.rows;
    size_t n = limit < nr ? (size_t)limit : nr;
    if (fmt == OUT_TEXT && n) { /* (no row shown: no marks to make) */
      /* a side of many pcol files answered one by one: its union, for the marks */
      for (int k = 0; !rc && k < 2; k++) {
        pcol_file **f = k ? &fn : &fb;
        pcol_value_sel ignored;
        const char *label;
        if (*f) continue;
        cli_load_again = 1;
        rc = cli_load(cmd, a, &a->pos[k], 1, &sel, f, &ignored, &label, &err);
        cli_load_again = 0;
      }
      /* the marks of the graph of both sides merged (pprof -diff_base's,
       * top --diff-base's), or each side's joined where go refuses to merge */
      if (!rc) rc = pcol_diff_mark_inline(fb, fn, &sel, NULL, &tn.value, by, &d, n, NULL, &err);
    }
    /* (a side's union or its marks failed: nothing printed, the error
     * said below; review h7 M3: the table was printed, then the failure) */
    if (rc) {
    } else if (fmt == OUT_TEXT) {
      text_rc = print_text(cmd, a, &tb, &tn, rows, n, absolute, dropped, label_cutoff, fraction);
    } else {
      /* the text's and doc/cli.md's names: one name for each column */
      static const char *const names[] = {"base_flat", "new_flat", "d_flat", "base_cum",
                                          "new_cum", "d_cum", "name"};
      cli_table t;
      cli_view_meta m = {"diff", a->pos[1], tn.value.type, tn.value.unit, tn.total, &sel,
                         a->pos[0], tb.total,
                         absolute ? NULL : "percent of each total; deltas in percentage points", 0};
      tbl_begin_view(&t, stdout, fmt, 7, names, &m);
      char b[64];
      for (size_t k = 0; k < n; k++) {
        pcol_diff_row *r = &rows[k];
        if (absolute) {
          pcol_sum x[6] = {r->base_flat, r->new_flat, r->abs_flat, r->base_cum, r->new_cum, r->abs_cum};
          for (int q = 0; q < 6; q++) tbl_num(&t, vt_of(&tn.value, x[q], 0).s);
        } else {
          double v[6] = {pcol_share(r->base_flat, tb.total), pcol_share(r->new_flat, tn.total), r->d_flat,
                         pcol_share(r->base_cum, tb.total), pcol_share(r->new_cum, tn.total), r->d_cum};
          for (int q = 0; q < 6; q++) {
            snprintf(b, sizeof b, "%.4f", v[q]);
            tbl_num(&t, b);
          }
        }
        tbl_str(&t, r->name.ptr, r->name.len);
        tbl_end_row(&t);
      }
      tbl_finish(&t);
    }
  }
  pcol_diff_free(&d);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  if (fb) pcol_close(fb);
  if (fb0) pcol_close(fb0);
  if (fn) pcol_close(fn);
  return rc ? cli_fail(cmd->name, &err, rc) : text_rc;
}
