/* cmd_cat.c — `pcol cat --table NAME`: print a logical view.
 *
 * spec.md §11 defines the 17 views (columns, rows, what prints as null) and
 * their rendering; tests/conformance checks this file against it.  Views
 * of one stored table print its rows in order (most with their 1-based id
 * first); derived views (sample_values, sample_locations, sample_labels,
 * locations, location_lines) are produced by streaming over the stored
 * columns. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_cat[] = {
    {"table", 't', 1, "table to print (see below)"},
    {"format", 'F', 1, "tsv (default), csv, json (one array) or jsonl (one object a line)"},
    {"limit", 'n', 1, "print at most N rows"},
    {"no-mmap", 0, 0, "read the file into memory instead of mapping it"},
    CLI_OPT_SELECT,
    {NULL, 0, 0, NULL}};

typedef struct cat_ctx {
  pcol_file *f;
  cli_table t;
  uint64_t limit, printed;
  pcol_error err;
  int table; /* which derived table */
  pcol_view v[10];
  /* sample_locations as tsv/csv: rows are formatted into `ob` directly
   * (tbl_* costs ~100 ns a row; this path ~10-20 ns; bench/README.md) */
  char *ob;
  size_t olen;
  const uint32_t *st_parent, *st_loc;
} cat_ctx;

#define TRY_OR_FAIL(x)                                                                                   \
  do {                                                                                             \
    if ((rc = (x)) != 0) goto fail;                                                                \
  } while (0)

static int more(cat_ctx *c) { return c->printed < c->limit; }

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
static char *put_u64(char *p, uint64_t v) {
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

/* One sample's rows of sample_locations: (sample_id, depth, location_id),
 * innermost frame first, exactly as the tbl_* path prints them.  Stack ids
 * and parents were range-checked when their columns were first used, and
 * parents precede children, so the walk ends. */
static int fast_locs(cat_ctx *c, uint64_t sample_id, uint32_t node) {
  char id[24], sepc = c->t.fmt == OUT_CSV ? ',' : '\t';
  char *ie = put_u64(id, sample_id);
  *ie++ = sepc;
  size_t idn = (size_t)(ie - id);
  for (uint64_t depth = 1; node; node = c->st_parent[node - 1], depth++) {
    if (!more(c)) return 1;
    if (c->olen > OB_SIZE - 64) ob_flush(c);
    char *p = c->ob + c->olen;
    memcpy(p, id, sizeof id); /* fixed size: inlined; only idn bytes count */
    p = put_u64(p + idn, depth);
    *p++ = sepc;
    p = put_u64(p, c->st_loc[node - 1]);
    *p++ = '\n';
    c->olen = (size_t)(p - c->ob);
    c->printed++;
    c->t.rows++;
  }
  return 0;
}

static void str_cell(cat_ctx *c, uint32_t id) {
  pcol_str s;
  if (pcol_string(c->f, id, &s, &c->err) == 0) tbl_str(&c->t, s.ptr, s.len);
  else tbl_na(&c->t);
}

/* one cell of a stored column */
static void cell(cat_ctx *c, const pcol_column_info *ci, const pcol_view *v, uint64_t r) {
  if (ci->is_string) {
    str_cell(c, pcol_view_u32(v, r));
    return;
  }
  switch (ci->type) {
  case PCOL_TYPE_U8: tbl_u64(&c->t, pcol_view_u8(v, r)); break;
  case PCOL_TYPE_U32:
    if (ci->ref_table) tbl_id(&c->t, pcol_view_u32(v, r));
    else tbl_u64(&c->t, pcol_view_u32(v, r));
    break;
  case PCOL_TYPE_I64: tbl_i64(&c->t, pcol_view_i64(v, r)); break;
  case PCOL_TYPE_U64: tbl_u64(&c->t, pcol_view_u64(v, r)); break;
  case PCOL_TYPE_F64: tbl_f64(&c->t, pcol_view_f64(v, r)); break;
  default: tbl_na(&c->t);
  }
}

/* A stored table printed as is: id column, then every non-offsets column. */
static int cat_stored(cat_ctx *c, int table, const char *idname, const int *cols, int ncols,
                      const char *const *names) {
  const pcol_table_info *ti = pcol_table_info_get(table);
  int rc = 0;
  for (int k = 0; k < ncols; k++) TRY_OR_FAIL(pcol_column(c->f, table, cols[k], &c->v[k], &c->err));
  const char *hdr[12];
  int nh = 0;
  if (idname) hdr[nh++] = idname;
  for (int k = 0; k < ncols; k++) hdr[nh++] = names ? names[k] : ti->columns[cols[k] - 1].name;
  tbl_begin(&c->t, stdout, c->t.fmt, nh, hdr);
  uint64_t n = pcol_rows(c->f, table);
  for (uint64_t r = 0; r < n && more(c); r++, c->printed++) {
    if (idname) tbl_u64(&c->t, r + 1);
    for (int k = 0; k < ncols; k++) cell(c, &ti->columns[cols[k] - 1], &c->v[k], r);
    tbl_end_row(&c->t);
  }
  tbl_finish(&c->t);
fail:
  return rc;
}

/* -------------------------------------------------- sample-based tables */
enum { D_SAMPLES, D_VALUES, D_LOCS, D_LABELS };

static int loc_cb(void *ctx, uint32_t depth, uint32_t loc) {
  cat_ctx *c = ctx;
  uint64_t sid = (uint64_t)(uintptr_t)c->v[9].data;
  if (!more(c)) return 1;
  tbl_u64(&c->t, sid);
  tbl_u64(&c->t, depth);
  tbl_u64(&c->t, loc);
  tbl_end_row(&c->t);
  c->printed++;
  return 0;
}

static int sample_row(void *ctx, uint64_t r, int64_t num, int64_t den) {
  cat_ctx *c = ctx;
  (void)num;
  (void)den;
  if (!more(c)) return 1;
  pcol_view *v = c->v;
  switch (c->table) {
  case D_SAMPLES:
    tbl_u64(&c->t, r + 1);
    tbl_id(&c->t, pcol_view_u32(&v[0], r));
    tbl_i64(&c->t, pcol_view_i64(&v[1], r));
    tbl_i64(&c->t, pcol_view_i64(&v[2], r));
    tbl_i64(&c->t, pcol_view_i64(&v[3], r));
    tbl_i64(&c->t, pcol_view_i64(&v[4], r));
    tbl_id(&c->t, pcol_view_u32(&v[5], r));
    tbl_id(&c->t, pcol_view_u32(&v[6], r));
    tbl_end_row(&c->t);
    c->printed++;
    break;
  case D_VALUES: {
    uint64_t a = pcol_view_u64(&v[0], r), e = pcol_view_u64(&v[0], r + 1);
    for (uint64_t i = a; i < e && more(c); i++, c->printed++) {
      uint32_t vt = pcol_view_u32(&v[1], i);
      tbl_u64(&c->t, r + 1);
      str_cell(c, pcol_view_u32(&v[3], vt - 1));
      str_cell(c, pcol_view_u32(&v[4], vt - 1));
      tbl_i64(&c->t, pcol_view_i64(&v[2], i));
      tbl_end_row(&c->t);
    }
    break;
  }
  case D_LOCS: {
    if (c->ob) return fast_locs(c, r + 1, pcol_view_u32(&v[0], r)) || !more(c);
    v[9].data = (const void *)(uintptr_t)(r + 1);
    int rc = pcol_stack_walk(c->f, pcol_view_u32(&v[0], r), loc_cb, c, &c->err);
    if (rc) return rc;
    break;
  }
  case D_LABELS: {
    uint32_t ls = pcol_view_u32(&v[0], r);
    if (!ls) break;
    uint64_t a = pcol_view_u64(&v[1], ls - 1), e = pcol_view_u64(&v[1], ls);
    for (uint64_t i = a; i < e && more(c); i++, c->printed++) {
      tbl_u64(&c->t, r + 1);
      str_cell(c, pcol_view_u32(&v[2], i));
      uint32_t s = pcol_view_u32(&v[3], i);
      if (s) str_cell(c, s);
      else tbl_na(&c->t);
      if (s && pcol_view_i64(&v[4], i) == 0) tbl_na(&c->t);
      else tbl_i64(&c->t, pcol_view_i64(&v[4], i));
      uint32_t u = pcol_view_u32(&v[5], i);
      if (u) str_cell(c, u);
      else tbl_na(&c->t);
      tbl_end_row(&c->t);
    }
    break;
  }
  }
  return more(c) ? 0 : 1;
}

static int cat_samples(cat_ctx *c, int which, const pcol_select *sel) {
  int rc = 0;
  pcol_file *f = c->f;
  c->table = which;
  static const char *const n_s[] = {"sample_id", "source_id", "time_ns", "duration_ns",
                                    "weight", "cpu_delta_ns", "stack_id", "labelset_id"};
  static const char *const n_v[] = {"sample_id", "type", "unit", "value"};
  static const char *const n_l[] = {"sample_id", "depth", "location_id"};
  static const char *const n_b[] = {"sample_id", "key", "str", "num", "unit"};
  switch (which) {
  case D_SAMPLES:
    for (int k = 0; k < 7; k++) TRY_OR_FAIL(pcol_column(f, PCOL_T_SAMPLES, k + 1, &c->v[k], &c->err));
    tbl_begin(&c->t, stdout, c->t.fmt, 8, n_s);
    break;
  case D_VALUES:
    TRY_OR_FAIL(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS, &c->v[0], &c->err));
    TRY_OR_FAIL(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_TYPE, &c->v[1], &c->err));
    TRY_OR_FAIL(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &c->v[2], &c->err));
    TRY_OR_FAIL(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &c->v[3], &c->err));
    TRY_OR_FAIL(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &c->v[4], &c->err));
    tbl_begin(&c->t, stdout, c->t.fmt, 4, n_v);
    break;
  case D_LOCS:
    TRY_OR_FAIL(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &c->v[0], &c->err));
    TRY_OR_FAIL(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_PARENT, &c->v[7], &c->err));
    TRY_OR_FAIL(pcol_column(f, PCOL_T_STACKS, PCOL_C_STACK_LOCATION, &c->v[8], &c->err));
    tbl_begin(&c->t, stdout, c->t.fmt, 3, n_l);
    /* the direct path needs both stack columns stored (an absent one is
     * all-default: rare, left to the general path) */
    if ((c->t.fmt == OUT_TSV || c->t.fmt == OUT_CSV) && c->v[7].data && c->v[8].data &&
        (c->ob = malloc(OB_SIZE)) != NULL) {
      c->st_parent = c->v[7].data;
      c->st_loc = c->v[8].data;
    }
    break;
  case D_LABELS:
    TRY_OR_FAIL(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &c->v[0], &c->err));
    TRY_OR_FAIL(pcol_column(f, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS, &c->v[1], &c->err));
    for (int k = 0; k < 4; k++) TRY_OR_FAIL(pcol_column(f, PCOL_T_LABELS, k + 1, &c->v[2 + k], &c->err));
    tbl_begin(&c->t, stdout, c->t.fmt, 5, n_b);
    break;
  }
  rc = pcol_select_iter(f, sel, sample_row, c, &c->err);
  if (c->ob) {
    ob_flush(c);
    free(c->ob);
    c->ob = NULL;
  }
  if (rc) goto fail;
  tbl_finish(&c->t);
fail:
  return rc;
}

/* ------------------------------------------------ location-based tables */
static int cat_locations(cat_ctx *c, int lines) {
  int rc = 0;
  pcol_file *f = c->f;
  pcol_view *v = c->v;
  TRY_OR_FAIL(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, &v[0], &c->err));
  TRY_OR_FAIL(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS, &v[1], &c->err));
  TRY_OR_FAIL(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_FLAGS, &v[2], &c->err));
  TRY_OR_FAIL(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS, &v[3], &c->err));
  TRY_OR_FAIL(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_FUNCTION, &v[4], &c->err));
  TRY_OR_FAIL(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_LINE, &v[5], &c->err));
  TRY_OR_FAIL(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_COLUMN, &v[6], &c->err));
  static const char *const n_loc[] = {"location_id", "function_id", "line", "address",
                                      "mapping_id", "is_folded"};
  static const char *const n_ll[] = {"location_id", "depth", "function_id", "line", "column"};
  tbl_begin(&c->t, stdout, c->t.fmt, lines ? 5 : 6, lines ? n_ll : n_loc);
  uint64_t n = pcol_rows(f, PCOL_T_LOCATIONS);
  for (uint64_t r = 0; r < n && more(c); r++) {
    uint64_t a = pcol_view_u64(&v[3], r), e = pcol_view_u64(&v[3], r + 1);
    if (lines) {
      for (uint64_t i = a; i < e && more(c); i++, c->printed++) {
        tbl_u64(&c->t, r + 1);
        tbl_u64(&c->t, i - a + 1);
        tbl_id(&c->t, pcol_view_u32(&v[4], i));
        tbl_i64(&c->t, pcol_view_i64(&v[5], i));
        tbl_i64(&c->t, pcol_view_i64(&v[6], i));
        tbl_end_row(&c->t);
      }
      continue;
    }
    /* the location's own function and line: its innermost line entry */
    tbl_u64(&c->t, r + 1);
    if (a < e) {
      tbl_id(&c->t, pcol_view_u32(&v[4], a));
      tbl_i64(&c->t, pcol_view_i64(&v[5], a));
    } else {
      tbl_na(&c->t);
      tbl_na(&c->t);
    }
    tbl_u64(&c->t, pcol_view_u64(&v[1], r));
    tbl_id(&c->t, pcol_view_u32(&v[0], r));
    tbl_bool(&c->t, pcol_view_u8(&v[2], r) & PCOL_LOC_IS_FOLDED);
    tbl_end_row(&c->t);
    c->printed++;
  }
  tbl_finish(&c->t);
fail:
  return rc;
}

static int cat_mappings(cat_ctx *c) {
  int rc = 0;
  for (int k = 0; k < 6; k++) TRY_OR_FAIL(pcol_column(c->f, PCOL_T_MAPPINGS, k + 1, &c->v[k], &c->err));
  static const char *const names[] = {"mapping_id", "memory_start", "memory_limit", "file_offset",
                                      "filename", "build_id", "has_functions", "has_filenames",
                                      "has_line_numbers", "has_inline_frames"};
  tbl_begin(&c->t, stdout, c->t.fmt, 10, names);
  uint64_t n = pcol_rows(c->f, PCOL_T_MAPPINGS);
  for (uint64_t r = 0; r < n && more(c); r++, c->printed++) {
    tbl_u64(&c->t, r + 1);
    tbl_u64(&c->t, pcol_view_u64(&c->v[0], r));
    tbl_u64(&c->t, pcol_view_u64(&c->v[1], r));
    tbl_u64(&c->t, pcol_view_u64(&c->v[2], r));
    str_cell(c, pcol_view_u32(&c->v[3], r));
    str_cell(c, pcol_view_u32(&c->v[4], r));
    uint8_t fl = pcol_view_u8(&c->v[5], r);
    tbl_bool(&c->t, fl & PCOL_MAP_HAS_FUNCTIONS);
    tbl_bool(&c->t, fl & PCOL_MAP_HAS_FILENAMES);
    tbl_bool(&c->t, fl & PCOL_MAP_HAS_LINE_NUMBERS);
    tbl_bool(&c->t, fl & PCOL_MAP_HAS_INLINE_FRAMES);
    tbl_end_row(&c->t);
  }
  tbl_finish(&c->t);
fail:
  return rc;
}

static int cat_strings(cat_ctx *c) {
  static const char *const names[] = {"string_id", "value"};
  tbl_begin(&c->t, stdout, c->t.fmt, 2, names);
  uint64_t n = pcol_string_count(c->f);
  for (uint64_t r = 1; r < n && more(c); r++, c->printed++) {
    tbl_u64(&c->t, r);
    str_cell(c, (uint32_t)r);
    tbl_end_row(&c->t);
  }
  tbl_finish(&c->t);
  return c->err.code;
}

int cmd_cat(const cli_command *cmd, cli_args *a) {
  if (a->npos != 1) return cli_usage_error(cmd->name, "expected one FILE");
  const char *table = cli_get(cmd, a, "table");
  if (!table) return cli_usage_error(cmd->name, "missing --table NAME");
  cat_ctx *c = calloc(1, sizeof *c);
  if (!c) return EXIT_IO;
  if (cli_out_format(cli_get(cmd, a, "format"), &c->t.fmt) || c->t.fmt == OUT_TEXT) {
    free(c);
    return cli_usage_error(cmd->name, "unknown --format '%s'", cli_get(cmd, a, "format"));
  }
  pcol_select sel;
  if (cli_get_u64(cmd, a, "limit", UINT64_MAX, &c->limit) || cli_select(cmd, a, &sel)) {
    free(c);
    return EXIT_USAGE;
  }
  int per_sample = !strcmp(table, "samples") || !strcmp(table, "sample_values") ||
                   !strcmp(table, "sample_locations") || !strcmp(table, "sample_labels");
  if (!per_sample && (sel.source_id || sel.has_from || sel.has_to)) {
    free(c); /* was silently ignored: every row printed */
    return cli_usage_error(cmd->name, "--source, --from and --to select samples; they apply to "
                           "samples, sample_values, sample_locations and sample_labels, not %s",
                           table);
  }
  int rc = cli_open(cmd, a, a->pos[0], &c->f);
  if (rc) {
    free(c);
    return rc;
  }
  int known = 1;
  if (!strcmp(table, "samples")) rc = cat_samples(c, D_SAMPLES, &sel);
  else if (!strcmp(table, "sample_values")) rc = cat_samples(c, D_VALUES, &sel);
  else if (!strcmp(table, "sample_locations")) rc = cat_samples(c, D_LOCS, &sel);
  else if (!strcmp(table, "sample_labels")) rc = cat_samples(c, D_LABELS, &sel);
  else if (!strcmp(table, "locations")) rc = cat_locations(c, 0);
  else if (!strcmp(table, "location_lines")) rc = cat_locations(c, 1);
  else if (!strcmp(table, "mappings")) rc = cat_mappings(c);
  else if (!strcmp(table, "strings")) rc = cat_strings(c);
  else if (!strcmp(table, "meta")) {
    static const int cols[] = {PCOL_C_META_KEY, PCOL_C_META_VALUE, PCOL_C_META_SOURCE};
    rc = cat_stored(c, PCOL_T_META, NULL, cols, 3, NULL);
  } else if (!strcmp(table, "sources")) {
    static const int cols[] = {1, 2, 3};
    rc = cat_stored(c, PCOL_T_SOURCES, "source_id", cols, 3, NULL);
  } else if (!strcmp(table, "value_types")) {
    static const int cols[] = {1, 2};
    rc = cat_stored(c, PCOL_T_VALUE_TYPES, "value_type_id", cols, 2, NULL);
  } else if (!strcmp(table, "source_value_types")) {
    static const int cols[] = {1, 2};
    rc = cat_stored(c, PCOL_T_SOURCE_VALUE_TYPES, NULL, cols, 2, NULL);
  } else if (!strcmp(table, "functions")) {
    static const int cols[] = {1, 2, 3, 4};
    rc = cat_stored(c, PCOL_T_FUNCTIONS, "function_id", cols, 4, NULL);
  } else if (!strcmp(table, "stacks")) {
    static const int cols[] = {1, 2};
    rc = cat_stored(c, PCOL_T_STACKS, "stack_id", cols, 2, NULL);
  } else if (!strcmp(table, "models")) {
    static const int cols[] = {1, 2, 3, 4, 5, 6, 7, 8};
    rc = cat_stored(c, PCOL_T_MODELS, "model_id", cols, 8, NULL);
  } else if (!strcmp(table, "text_lines")) {
    static const int cols[] = {1, 2, 3};
    rc = cat_stored(c, PCOL_T_TEXT_LINES, NULL, cols, 3, NULL);
  } else if (!strcmp(table, "sample_text")) {
    static const int cols[] = {1, 2};
    rc = cat_stored(c, PCOL_T_SAMPLE_TEXT, NULL, cols, 2, NULL);
  } else {
    known = 0;
  }
  int ret = EXIT_OK;
  if (!known)
    ret = cli_usage_error(cmd->name,
                          "unknown table '%s' (meta, sources, value_types, source_value_types, "
                          "functions, mappings, locations, location_lines, stacks, samples, "
                          "sample_values, sample_locations, sample_labels, text_lines, "
                          "sample_text, models, strings)",
                          table);
  else if (rc || c->err.code) ret = cli_fail_in(cmd->name, a->pos[0], &c->err, rc ? rc : c->err.code);
  pcol_close(c->f);
  free(c);
  return ret;
}
