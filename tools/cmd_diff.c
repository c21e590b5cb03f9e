/* cmd_diff.c — `pcol diff`: per-function change in flat and cum weight
 * between two profiles.  By default each side is normalised by its own total
 * (so a profile twice as long does not look twice as slow) and changes are
 * in percentage points; --absolute compares raw sums.  Rows are sorted by
 * the larger of |change in flat| and |change in cum|, then by name. */
#include "cli.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const cli_opt opts_diff[] = {
    {"absolute", 0, 0, "compare raw sums instead of shares of each profile's total"},
    {"value", 0, 1, "value type to compare: weight, samples, TYPE or TYPE/UNIT (default: each source's)"},
    {"by", 0, 1, "function (default), line or file"},
    {"limit", 'n', 1, "print only the first N rows"},
    {"format", 0, 1, "text (default), tsv, csv or json"},
    {"no-mmap", 0, 0, "read the inputs into memory instead of mapping them"},
    {NULL, 0, 0, NULL}};

typedef struct drow {
  pcol_str name;
  int64_t bf, bc, nf, nc; /* base/new flat/cum */
  double df, dc;          /* change (points or raw) */
} drow;

static int name_cmp(pcol_str a, pcol_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  return c ? c : a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}
static int row_name_cmp(const void *x, const void *y) {
  return name_cmp(((const pcol_top_row *)x)->name, ((const pcol_top_row *)y)->name);
}
static int drow_cmp(const void *x, const void *y) {
  const drow *a = x, *b = y;
  double ka = fmax(fabs(a->df), fabs(a->dc)), kb = fmax(fabs(b->df), fabs(b->dc));
  if (ka != kb) return ka > kb ? -1 : 1;
  return name_cmp(a->name, b->name);
}

static int load(const cli_command *cmd, const cli_args *a, const char *path, pcol_by by,
                pcol_file **f, void **owned, pcol_top *t, pcol_error *err) {
  pcol_open_options oo = {0};
  oo.no_mmap = cli_flag(cmd, a, "no-mmap");
  int rc = pcol_open_any(path, &oo, f, owned, err);
  if (rc) return rc;
  pcol_value_sel v;
  rc = pcol_value_resolve(*f, NULL, cli_get(cmd, a, "value"), &v, err);
  if (!rc) rc = pcol_top_compute(*f, NULL, &v, by, t, err);
  if (rc) {
    char m[sizeof err->message];
    snprintf(m, sizeof m, "%s: %.480s", path, err->message);
    memcpy(err->message, m, sizeof m);
    return rc;
  }
  qsort(t->rows, t->nrows, sizeof *t->rows, row_name_cmp);
  return PCOL_OK;
}

static double share(int64_t v, int64_t total) { return total ? 100.0 * (double)v / (double)total : 0; }

int cmd_diff(const cli_command *cmd, cli_args *a) {
  if (a->npos != 2) return cli_usage_error(cmd->name, "expected BASE and NEW");
  int absolute = cli_flag(cmd, a, "absolute");
  pcol_by by;
  out_format fmt;
  uint64_t limit;
  if (cli_report_options(cmd, a, &by, &fmt, &limit)) return EXIT_USAGE;

  pcol_error err = {0};
  pcol_file *fb = NULL, *fn = NULL;
  void *ob = NULL, *on = NULL;
  pcol_top tb = {0}, tn = {0};
  drow *rows = NULL;
  int rc = load(cmd, a, a->pos[0], by, &fb, &ob, &tb, &err);
  if (!rc) rc = load(cmd, a, a->pos[1], by, &fn, &on, &tn, &err);
  if (!rc && !(rows = calloc(tb.nrows + tn.nrows + 1, sizeof *rows)))
    rc = pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
  size_t nr = 0;
  if (!rc) {
    /* merge-join the two name-sorted lists */
    size_t i = 0, j = 0;
    while (i < tb.nrows || j < tn.nrows) {
      int c = i >= tb.nrows ? 1 : j >= tn.nrows ? -1 : name_cmp(tb.rows[i].name, tn.rows[j].name);
      drow *r = &rows[nr++];
      if (c <= 0) {
        r->name = tb.rows[i].name;
        r->bf = tb.rows[i].flat;
        r->bc = tb.rows[i].cum;
        i++;
      }
      if (c >= 0) {
        r->name = tn.rows[j].name;
        r->nf = tn.rows[j].flat;
        r->nc = tn.rows[j].cum;
        j++;
      }
      if (absolute) {
        r->df = (double)r->nf - (double)r->bf;
        r->dc = (double)r->nc - (double)r->bc;
      } else {
        r->df = share(r->nf, tn.total) - share(r->bf, tb.total);
        r->dc = share(r->nc, tn.total) - share(r->bc, tb.total);
      }
    }
    qsort(rows, nr, sizeof *rows, drow_cmp);
    size_t n = limit < nr ? (size_t)limit : nr;
    if (fmt == OUT_TEXT) {
      printf("Base: %s (total %lld)\nNew:  %s (total %lld)\n", a->pos[0], (long long)tb.total,
             a->pos[1], (long long)tn.total);
      printf("Type: %.*s (%.*s)%s\n", (int)tn.value.type.len, tn.value.type.ptr,
             (int)tn.value.unit.len, tn.value.unit.ptr,
             absolute ? ", raw sums" : ", shares of each total in percent; deltas in points");
      if (absolute)
        printf("%10s %10s %10s %10s %10s %10s  %s\n", "base_flat", "new_flat", "d_flat",
               "base_cum", "new_cum", "d_cum", "name");
      else
        printf("%9s %9s %9s %9s %9s %9s  %s\n", "base_flat", "new_flat", "d_flat", "base_cum",
               "new_cum", "d_cum", "name");
      for (size_t k = 0; k < n; k++) {
        drow *r = &rows[k];
        if (absolute)
          printf("%10lld %10lld %+10lld %10lld %10lld %+10lld  ", (long long)r->bf,
                 (long long)r->nf, (long long)(r->nf - r->bf), (long long)r->bc,
                 (long long)r->nc, (long long)(r->nc - r->bc));
        else
          printf("%8.2f%% %8.2f%% %+9.2f %8.2f%% %8.2f%% %+9.2f  ", share(r->bf, tb.total),
                 share(r->nf, tn.total), r->df, share(r->bc, tb.total), share(r->nc, tn.total),
                 r->dc);
        fwrite(r->name.ptr, 1, r->name.len, stdout);
        putchar('\n');
      }
    } else {
      static const char *const names[] = {"base_flat", "new_flat", "delta_flat", "base_cum",
                                          "new_cum", "delta_cum", "name"};
      cli_table t;
      tbl_begin(&t, stdout, fmt, 7, names);
      char b[64];
      for (size_t k = 0; k < n; k++) {
        drow *r = &rows[k];
        if (absolute) {
          tbl_i64(&t, r->bf);
          tbl_i64(&t, r->nf);
          tbl_i64(&t, r->nf - r->bf);
          tbl_i64(&t, r->bc);
          tbl_i64(&t, r->nc);
          tbl_i64(&t, r->nc - r->bc);
        } else {
          double v[6] = {share(r->bf, tb.total), share(r->nf, tn.total), r->df,
                         share(r->bc, tb.total), share(r->nc, tn.total), r->dc};
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
  free(rows);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  if (fb) pcol_close(fb);
  if (fn) pcol_close(fn);
  free(ob);
  free(on);
  return rc ? cli_fail(cmd->name, &err, rc) : EXIT_OK;
}
