/* cmd_cat.c — `pcol cat --table NAME`: print a logical view (or all).
 *
 * spec.md §11 defines the 17 views (columns, rows, what prints as null) and
 * their rendering; tests/conformance checks this file against it.  The
 * library produces every view (pcol_lview_scan, lib/query/views.c: the
 * one implementation, shared with the R and Python packages) into column
 * batches; this file prints them. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_cat[] = {
    {"table", 't', 1, "table to print (listed above), or all"},
    {"format", 'F', 1, "tsv (default), csv, json (one array) or jsonl (one object a line)"},
    {"limit", 'n', 1, "print at most N rows (0: all)"},
    CLI_OPT_NO_MMAP,
    CLI_OPT_SELECT,
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_cat);

typedef struct cat_ctx {
  pcol_file *f;
  cli_table t;
  uint64_t limit, printed;
  pcol_error err;
  const pcol_lview_info *vi;
  const char *hdr[PCOL_LVIEW_MAX_COLS]; /* column names, for the table's life */
  pcol_lview_batch b; /* the library fills it (pcol_lview_scan), we print it */
  /* sample_locations as tsv/csv: rows are formatted into `ob` directly
   * (tbl_* costs ~100 ns a row; this path ~10-20 ns; bench/README.md) */
  char *ob;
  size_t olen;
} cat_ctx;

static int more(cat_ctx *c) { return c->printed < c->limit; }

#define BATCH 1024
#define OB_SIZE (1u << 16)
static void ob_flush(cat_ctx *c) {
  if (c->olen) fwrite_unlocked(c->ob, 1, c->olen, c->t.fp);
  c->olen = 0;
}
/* Decimal digits of v at p; returns the end.  Written in place, back to
 * front, two digits a step (a variable-length memcpy and a division per
 * digit were most of this path's time). */
static const char digits2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
static inline __attribute__((always_inline)) char *put_u64(char *p, uint64_t v) {
  int n = 1;
  for (uint64_t t = v; t >= 10; t /= 10) n++;
  char *e = p + n;
  while (v >= 100) {
    unsigned r = (unsigned)(v % 100);
    v /= 100;
    e -= 2;
    memcpy(e, digits2 + 2 * r, 2);
  }
  if (v >= 10) memcpy(e - 2, digits2 + 2 * v, 2);
  else e[-1] = (char)('0' + v);
  return p + n;
}

/* A batch of sample_locations rows (sample_id, depth, location_id), exactly
 * as the tbl_* path prints them (ids and depths are never null).  The
 * output position lives in a local: stores through a char pointer would
 * otherwise make the compiler reload every field of `c` a row. */
static int fast_locs(cat_ctx *c, size_t n) {
  const uint32_t *sid = c->b.cols[0], *dep = c->b.cols[1], *loc = c->b.cols[2];
  if (n > c->limit - c->printed) n = (size_t)(c->limit - c->printed);
  char id[24], sepc = c->t.fmt == OUT_CSV ? ',' : '\t';
  size_t idn = 0;
  uint32_t last = 0; /* the sample whose "id<sep>" is in `id` (ids start at 1) */
  char *ob = c->ob, *p = ob + c->olen, *full = ob + OB_SIZE - 64;
  FILE *fp = c->t.fp;
  for (size_t i = 0; i < n; i++) {
    if (sid[i] != last) {
      last = sid[i];
      char *ie = put_u64(id, last);
      *ie++ = sepc;
      idn = (size_t)(ie - id);
    }
    if (p > full) {
      fwrite_unlocked(ob, 1, (size_t)(p - ob), fp);
      p = ob;
    }
    memcpy(p, id, sizeof id); /* fixed size: inlined; only idn bytes count */
    p = put_u64(p + idn, dep[i]);
    *p++ = sepc;
    p = put_u64(p, loc[i]);
    *p++ = '\n';
  }
  c->olen = (size_t)(p - ob);
  c->printed += n;
  c->t.rows += n;
  return more(c) ? 0 : 1;
}

static void str_cell(cat_ctx *c, uint32_t id) {
  pcol_str s;
  if (pcol_string(c->f, id, &s, &c->err) == 0) tbl_str(&c->t, s.ptr, s.len);
  else tbl_na(&c->t);
}

/* One batch of rows, each cell printed as its kind prints (spec.md §11.1). */
static int print_batch(void *ctx, size_t n) {
  cat_ctx *c = ctx;
  if (n == 0) { /* the columns are read: the header (none when they cannot be) */
    for (size_t k = 0; k < c->vi->ncols; k++) c->hdr[k] = c->vi->cols[k].name;
    tbl_begin(&c->t, stdout, c->t.fmt, c->vi->ncols, c->hdr); /* kept: JSON keys */
    return 0;
  }
  if (cli_budget_over()) return 1; /* past the output budget: stop (outbudget.c) */
  if (c->ob) return fast_locs(c, n);
  const pcol_lview_info *vi = c->vi;
  for (size_t i = 0; i < n && more(c); i++, c->printed++) {
    for (size_t k = 0; k < vi->ncols; k++) {
      const void *col = c->b.cols[k];
      uint32_t u = vi->cols[k].type == PCOL_TYPE_U32 ? ((const uint32_t *)col)[i] : 0;
      int64_t x = vi->cols[k].type == PCOL_TYPE_I64 || vi->cols[k].type == PCOL_TYPE_U64 ||
                          vi->cols[k].type == PCOL_TYPE_F64
                      ? ((const int64_t *)col)[i]
                      : 0;
      switch (vi->cols[k].kind) {
      case PCOL_LK_ID:
      case PCOL_LK_COUNT: tbl_u64(&c->t, u); break;
      case PCOL_LK_REF: tbl_id(&c->t, u); break;
      case PCOL_LK_STR: str_cell(c, u); break;
      case PCOL_LK_I64: tbl_i64(&c->t, x); break;
      case PCOL_LK_U64: tbl_u64(&c->t, (uint64_t)x); break;
      case PCOL_LK_F64: {
        double d;
        memcpy(&d, &x, sizeof d);
        tbl_f64(&c->t, d);
        break;
      }
      case PCOL_LK_BOOL: tbl_bool(&c->t, ((const uint8_t *)col)[i]); break;
      }
    }
    tbl_end_row(&c->t);
  }
  return more(c) ? 0 : 1;
}

/* Prints view vi through pcol_lview_scan, BATCH rows at a time. */
static int cat_view(cat_ctx *c, const pcol_select *sel) {
  const pcol_lview_info *vi = c->vi;
  size_t cap = c->limit < BATCH ? (size_t)c->limit + 1 : BATCH;
  char *mem = malloc((size_t)vi->ncols * cap * 8);
  if (!mem) return pcol_error_set(&c->err, PCOL_ENOMEM, "out of memory");
  c->b.cap = cap;
  for (size_t k = 0; k < vi->ncols; k++) c->b.cols[k] = mem + (size_t)k * cap * 8;
  if (!strcmp(vi->name, "sample_locations") && (c->t.fmt == OUT_TSV || c->t.fmt == OUT_CSV))
    c->ob = malloc(OB_SIZE); /* NULL: the tbl_* path */
  int rc = pcol_lview_scan(c->f, vi, vi->sample_view ? sel : NULL, &c->b, print_batch, c, &c->err);
  if (c->ob) {
    ob_flush(c);
    free(c->ob);
    c->ob = NULL;
  }
  free(mem);
  if (!rc) tbl_finish(&c->t);
  return rc;
}

/* --table all: every view in pcol_lview_at's order (cat --help lists it),
 * one process for what took 17.
 * TSV/CSV: each table after a line "# table NAME"; JSON: one object
 * {"NAME": [rows], ...}; JSON lines: every row's first member is "table".
 * --limit counts per table; a selection applies to the sample views. */
static int cat_all(cat_ctx *c, const pcol_select *sel) {
  const pcol_lview_info *vi;
  int rc = 0;
  for (int i = 0; !rc && (vi = pcol_lview_at(i)) != NULL; i++) {
    if (cli_budget_over()) break;
    c->vi = vi;
    c->printed = 0;
    c->t.tag = c->t.fmt == OUT_JSONL ? vi->name : NULL;
    if (c->t.fmt == OUT_TSV || c->t.fmt == OUT_CSV) printf("# table %s\n", vi->name);
    else if (c->t.fmt == OUT_JSON) printf(i ? ",\"%s\":" : "{\"%s\":", vi->name);
    rc = cat_view(c, sel);
  }
  if (!rc && c->t.fmt == OUT_JSON) fputs("}\n", stdout);
  return rc;
}

int cmd_cat(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  const char *table = cli_get(cmd, a, "table");
  if (!table) return cli_usage_error(cmd->name, "missing --table NAME");
  cat_ctx *c = calloc(1, sizeof *c);
  if (!c) return EXIT_IO;
  if (cli_out_format(cli_get(cmd, a, "format"), &c->t.fmt) || c->t.fmt == OUT_TEXT) {
    free(c);
    return cli_usage_error(cmd->name, "unknown --format '%s'", cli_get(cmd, a, "format"));
  }
  pcol_select sel;
  if (cli_get_limit(cmd, a, &c->limit) || cli_select(cmd, a, &sel)) {
    free(c);
    return EXIT_USAGE;
  }
  int all = !strcmp(table, "all");
  c->vi = all ? pcol_lview_at(0) : pcol_lview_by_name(table);
  if (!all && !(c->vi && c->vi->sample_view) && (sel.source_id || sel.has_from || sel.has_to)) {
    free(c); /* was silently ignored: every row printed */
    return cli_usage_error(cmd->name, "--source, --from and --to select samples; they apply to "
                           "samples, sample_values, sample_locations and sample_labels, not %s",
                           table);
  }
  const char *path;
  int rc = cli_open_args(cmd, a, a->pos, a->npos, &sel, &c->f, &path, &c->err);
  if (rc) {
    rc = cli_fail(cmd->name, &c->err, rc);
    free(c);
    return rc;
  }
  int known = c->vi != NULL;
  /* a range's refusal before the first table's header (rd21 F4) */
  if (known && (rc = cli_range_check(c->f, &sel, &c->err))) known = -1;
  if (known > 0) rc = all ? cat_all(c, &sel) : cat_view(c, &sel);
  int ret = EXIT_OK;
  if (known < 0)
    ret = cli_fail_in(cmd->name, path, &c->err, rc);
  else if (!known)
    ret = cli_usage_error(cmd->name,
                          "unknown table '%s' (meta, sources, value_types, source_value_types, "
                          "functions, mappings, locations, location_lines, stacks, samples, "
                          "sample_values, sample_locations, sample_labels, text_lines, "
                          "sample_text, models, strings, or all)",
                          table);
  else if (rc || c->err.code) ret = cli_fail_in(cmd->name, path, &c->err, rc ? rc : c->err.code);
  pcol_close(c->f);
  free(c);
  return ret;
}
