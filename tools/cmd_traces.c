/* cmd_traces.c — `pcol traces`: every trace (samples merged as pprof reads
 * them) with its labels, value and stack, its frames named at --by's
 * granularity, as go tool pprof -traces (-lines, -addresses, ...) prints
 * them (pcol_traces_iter_by). */
#include "cli.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const cli_opt opts_traces[] = {
    {"by", 0, 1, "how each frame is named: " CLI_BY_HELP " (pprof -traces -lines, ...).  A frame without a line "
     "(Rprof's <GC>, a builtin) is kept under its function's name (\"<unknown>\" by file), as pprof "
     "-traces -lines prints it: only top's flat gives it to the innermost calling line" CLI_NAMELESS_BY_FN_HELP},
    CLI_OPT_VALUE("to print"),
    CLI_OPT_MEAN,
    CLI_OPT_RELATIVE_IGNORED("-traces", "a trace has no share"),
    CLI_OPT_DIVIDE_BY,
    CLI_OPT_UNIT,
    {"limit", 'n', 1, "print only the first N traces (0: all)"},
    CLI_OPT_VIEW_FORMAT(": a row a trace (value, unit, labels, stack root;...;leaf, a ';' in a "
                        "name made '_' as fold makes it); the text is pprof -traces'"),
    CLI_OPT_NO_MMAP,
    CLI_OPT_SELECT_BASE,
    CLI_OPT_FILTER,
    CLI_OPT_BASE,
    CLI_OPT_TAGKEYS("labels"),
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_traces);

typedef struct tr_out {
  out_format fmt;
  cli_table tb;
  pcol_str unit;
  char vunit[32]; /* --unit: each value's (report.go formatValue: pprof's -unit) */
  uint64_t left;
  char **lines; /* label lines of one trace, to sort */
  size_t cap;
  const pcol_label_kv **ord; /* one trace's labels of a kind, by key */
  size_t capord;
  char *text;   /* joined text of a machine row */
  size_t text_cap;
  size_t held;  /* bytes of the label lines held (lines) */
  pcol_error *err; /* where on_trace says why it failed */
  /* a machine format's header waits for the first row (or the end), so a
   * selection the iterator refuses prints no half-made table */
  int begun;
  cli_view_meta meta;
} tr_out;

static const char *const tr_names[] = {"value", "unit", "labels", "stack"};

static void tr_begin(tr_out *o) {
  if (o->begun) return;
  o->begun = 1;
  tbl_begin_view(&o->tb, stdout, o->fmt, 4, tr_names, &o->meta);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Label keys' bytes (an empty key may have no pointer) */
static int key_cmp(pcol_str a, pcol_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* labels by key, then by their place in the trace (a key's values in order) */
static int cmp_key(const void *a, const void *b) {
  const pcol_label_kv *x = *(const pcol_label_kv *const *)a, *y = *(const pcol_label_kv *const *)b;
  int c = key_cmp(x->key, y->key);
  return c ? c : (x > y) - (x < y);
}

/* Appends to the row's text: 0, -1 (out of memory), or 1 when the text
 * would already pass what the output budget has left (cli_budget_need: the
 * budget refuses, with its message and exit 3): what a trace holds is
 * bounded by the budget, not by its labels' count x their length. */
static int append(tr_out *o, size_t *len, const char *p, size_t n) {
  if (cli_budget_need(o->held + *len + n)) return 1;
  if (*len + n + 1 > o->text_cap) {
    size_t c = (*len + n + 1) * 2;
    char *t = realloc(o->text, c);
    if (!t) return -1;
    o->text = t;
    o->text_cap = c;
  }
  memcpy(o->text + *len, p, n);
  *len += n;
  o->text[*len] = 0;
  return 0;
}

/* A label's value: text (by the text rule when esc, for the text view) or a
 * number in its unit. */
static int label_text(const pcol_label_kv *l, pcol_str unit_dflt, char *b, size_t n, int esc) {
  /* a long value's first 1000 (text) or 4000 bytes, whole characters (pcol_utf8_cut) */
  if (l->str.ptr && esc) return (int)cli_text_buf(l->str.ptr, pcol_utf8_cut(l->str.ptr, l->str.len, 1000), b, n);
  if (l->str.ptr) return snprintf(b, n, "%.*s", (int)pcol_utf8_cut(l->str.ptr, l->str.len, 4000), l->str.ptr);
  pcol_str u = l->unit.ptr && l->unit.len ? l->unit : unit_dflt;
  pcol_unit_label(l->num, u, "auto", b, n);
  if (esc) { /* a unit of no family prints as the file has it */
    char raw[64];
    snprintf(raw, sizeof raw, "%s", b);
    cli_text_buf(raw, strlen(raw), b, n);
  }
  return (int)strlen(b);
}

static int trace_row(tr_out *o, const pcol_trace *t) {
  /* stop at --limit, and at once when the output budget refused a write:
   * the budget's stream drops what follows, but the traces would still be
   * made, a stack deep each (a chain of 20,000 nested stacks: 14 s of CPU
   * after the first 100 KB; issue 42 F3) */
  if (o->left == 0 || cli_budget_over()) return 1;
  o->left--;
  char b[4200];
  if (o->fmt == OUT_TEXT) {
    puts("-----------+-------------------------------------------------------");
    /* labels: one line per key, its values joined by spaces, sorted (text
     * labels first, then numbers, as pprof) */
    if (t->nlabels > o->capord) {
      const pcol_label_kv **ord = realloc(o->ord, t->nlabels * sizeof *ord);
      if (!ord) return PCOL_ENOMEM;
      o->ord = ord;
      o->capord = t->nlabels;
    }
    for (int numeric = 0; numeric < 2; numeric++) {
      size_t nl = 0, no = 0;
      int rc = 0;
      o->held = 0;
      /* the labels of this kind by key, each key's in the trace's order:
       * a key's run is its line (a key's values were gathered by a scan of
       * every label: quadratic in a trace's labels) */
      for (size_t i = 0; i < t->nlabels; i++)
        if ((t->labels[i].str.ptr == NULL) == numeric) o->ord[no++] = &t->labels[i];
      if (no > 1) qsort(o->ord, no, sizeof *o->ord, cmp_key);
      for (size_t i = 0, e; i < no && !rc; i = e) {
        const pcol_label_kv *l = o->ord[i];
        for (e = i + 1; e < no && key_cmp(o->ord[e]->key, l->key) == 0;) e++;
        size_t len = 0;
        char key[256];
        cli_text_buf(l->key.ptr ? l->key.ptr : "", pcol_utf8_cut(l->key.ptr, l->key.len, 200), key, sizeof key);
        int w = snprintf(b, sizeof b, "%10s:  ", key);
        if ((rc = append(o, &len, b, (size_t)w))) break;
        for (size_t k = i; k < e && !rc; k++) {
          const pcol_label_kv *m = o->ord[k];
          w = label_text(m, m->key, b, sizeof b, 1);
          if (k > i) rc = append(o, &len, " ", 1);
          if (!rc) rc = append(o, &len, b, (size_t)w);
        }
        if (rc) break;
        if (nl == o->cap) {
          size_t c = o->cap ? 2 * o->cap : 8;
          char **ls = realloc(o->lines, c * sizeof *ls);
          if (!ls) {
            rc = -1;
            break;
          }
          o->lines = ls;
          o->cap = c;
        }
        if (!(o->lines[nl] = strdup(o->text))) {
          rc = -1;
          break;
        }
        nl++;
        o->held += len + 1; /* (what the next key's line may hold is the budget's rest) */
      }
      o->held = 0;
      if (rc) { /* out of memory (-1), or the budget has no room (1) */
        while (nl) free(o->lines[--nl]);
        return rc < 0 ? PCOL_ENOMEM : 1;
      }
      if (nl > 1) qsort(o->lines, nl, sizeof *o->lines, cmp_str);
      for (size_t i = 0; i < nl; i++) {
        puts(o->lines[i]);
        free(o->lines[i]);
      }
    }
    for (size_t i = 0; i < t->nframes && !cli_budget_over(); i++) { /* a deep one too */
      char v[64] = "";
      if (i == 0) {
        char raw[64];
        cli_value_label(t->value, o->unit, o->vunit, raw, sizeof raw);
        cli_text_buf(raw, strlen(raw), v, sizeof v);
      }
      printf("%10s   ", v); /* the name by the text rule, as top's */
      cli_print_name(stdout, t->frames[i]);
      fputs(t->inlined[i] ? " (inline)\n" : "\n", stdout);
    }
    return 0;
  }
  /* the labels' text, then the stack's size: a row the budget has no room
   * left for is refused before any of it is written, and its stack before it
   * is made (a 64-deep stack of a 31 MiB name is 2 GB of text from a 32 KB
   * input, held whole: review 24 F3) */
  size_t len = 0;
  int rc;
  if ((rc = append(o, &len, "", 0))) return rc < 0 ? PCOL_ENOMEM : 1;
  for (size_t i = 0; i < t->nlabels; i++) {
    const pcol_label_kv *l = &t->labels[i];
    int w = label_text(l, l->key, b, sizeof b, 0);
    if ((i && (rc = append(o, &len, ",", 1))) || (rc = append(o, &len, l->key.ptr ? l->key.ptr : "", l->key.len)) ||
        (rc = append(o, &len, "=", 1)) || (rc = append(o, &len, b, (size_t)w)))
      return rc < 0 ? PCOL_ENOMEM : 1;
  }
  size_t slen = pcol_trace_stack_text(t, NULL, 0);
  if (slen > SIZE_MAX - len || cli_budget_need(len + slen)) return 1;
  tr_begin(o);
  tbl_i64(&o->tb, t->value);
  tbl_str(&o->tb, o->unit.ptr, o->unit.len);
  tbl_str(&o->tb, o->text, len);
  len = slen;
  if (len + 1 > o->text_cap) {
    char *x = realloc(o->text, len + 1);
    if (!x) return PCOL_ENOMEM;
    o->text = x;
    o->text_cap = len + 1;
  }
  pcol_trace_stack_text(t, o->text, len);
  tbl_str(&o->tb, o->text, len);
  tbl_end_row(&o->tb);
  return 0;
}

/* the view's total, for the Duration line (pprof's rpt.total) */
typedef struct tr_total {
  pcol_file *f;
  const pcol_select *sel;
  const pcol_value_sel *v, *div; /* div: --mean's divisor, else NULL */
  pcol_error *err;
} tr_total;
static int total_of(void *ctx, pcol_sum *total) {
  tr_total *c = ctx;
  pcol_top t;
  int rc = pcol_top_compute(c->f, c->sel, c->v, PCOL_BY_FUNCTION, &t, c->err);
  if (!rc) *total = t.total;
  if (!rc) pcol_top_free(&t);
  /* --mean: that total over the divisor's (pcol_mean_total divides *total) */
  if (!rc && c->div) rc = pcol_mean_total(c->f, c->sel, c->v, c->div, total, c->err);
  return rc;
}

/* The iterator's callback: a row, or the reason it failed (every failure of
 * trace_row is a failed allocation). */
static int on_trace(void *ctx, const pcol_trace *t) {
  tr_out *o = ctx;
  int rc = trace_row(o, t);
  return rc < 0 ? pcol_error_set(o->err, PCOL_ENOMEM, "out of memory") : rc;
}

int cmd_traces(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  tr_out o;
  memset(&o, 0, sizeof o);
  pcol_by by;
  if (cli_report_options(cmd, a, &by, &o.fmt, &o.left)) return EXIT_USAGE;
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  sel.relative = 0; /* (--relative-percentages: ignored, as pprof -traces) */
  int mean = cli_flag(cmd, a, "mean");
  pcol_error err = {0};
  pcol_file *f = NULL;
  pcol_value_sel v;
  const char *path;
  int rc = cli_load(cmd, a, a->pos, a->npos, &sel, &f, &v, &path, &err);
  /* a range's refusal before the header (rd21 F4: it came after it) */
  if (!rc && (rc = cli_range_check(f, &sel, &err))) {
    pcol_close(f);
    return cli_fail_in(cmd->name, path, &err, rc);
  }
  if (rc) return cli_fail(cmd->name, &err, rc);
  o.unit = v.unit;
  o.err = &err;
  /* --unit: pprof's -traces scales each value to -unit (its formatValue),
   * the default "minimum" each in its own unit: no table to pick one for */
  const char *u = cli_get(cmd, a, "unit");
  snprintf(o.vunit, sizeof o.vunit, "minimum");
  if (u && strcmp(u, "auto") && strcmp(u, "minimum") && cli_unit_check(cmd, v.unit, u)) {
    pcol_close(f);
    return EXIT_USAGE;
  }
  if (u && strcmp(u, "auto") && strcmp(u, "minimum")) snprintf(o.vunit, sizeof o.vunit, "%s", u);
  char mean_type[PCOL_MEAN_TYPE_MAX];
  pcol_value_sel div; /* --mean: report.go printTraces, each trace's value over its divisor */
  if (mean && (rc = pcol_mean_divisor(f, &sel, &div, &err))) {
    pcol_close(f);
    return cli_fail(cmd->name, &err, rc);
  }
  if (mean) cli_mean_type(&v.type, mean_type);
  if (o.fmt == OUT_TEXT) {
    tr_total tt = {f, &sel, &v, mean ? &div : NULL, &err};
    cli_print_profile_labels(stdout, f, path, &sel, &v, o.vunit, total_of, &tt);
    if (err.code) { /* (no Duration line: the traces say what failed, if anything does) */
      memset(&err, 0, sizeof err);
    }
    /* no "Active filters:" block: pprof's -traces header is ProfileLabels
     * alone (report.go printTraces), its filters are top's, tree's, peek's
     * and the graph's legend's (reportLabels) */
  } else {
    /* "total": null: the traces stream out before any sum of them is known */
    o.meta = (cli_view_meta){"traces", path, v.type, v.unit, 0, &sel, NULL, 0, NULL, 1};
  }
  rc = pcol_traces_iter_by(f, &sel, &v, mean ? &div : NULL, by, on_trace, &o, &err);
  if (!rc && o.fmt == OUT_TEXT) puts("-----------+-------------------------------------------------------");
  else if (!rc) {
    tr_begin(&o);
    tbl_finish(&o.tb);
  }
  free(o.lines);
  free(o.ord);
  free(o.text);
  pcol_close(f);
  return rc ? cli_fail_in(cmd->name, path, &err, rc) : EXIT_OK;
}
