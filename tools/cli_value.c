/* cli_value.c — the warnings about --value that the view commands print
 * after opening their inputs (cli_load): sources without the value, and
 * merged sources whose own defaults differ; and --mean (pprof -mean) of the
 * views that offer it. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

/* Sources alike for the mixed-sources warning: their type, what their
 * count is, and their own default value. */
typedef struct src_kind {
  pcol_str type, dtype, dunit;
  const char *counted;
  uint64_t n;
} src_kind;

enum { WARN_KINDS = 8, WARN_MISSING = 3 };

static int str_same(pcol_str a, pcol_str b) {
  return a.len == b.len && (a.len == 0 || (a.ptr && b.ptr && !memcmp(a.ptr, b.ptr, a.len)));
}

/* One line however many sources: how many of each kind (WARN_KINDS at
 * most, then how many more); what: what the output does with them, advice:
 * how to choose. */
static void warn_defaults_differ(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                                 const pcol_view *ty, const char *path, const char *what,
                                 const char *advice) {
  src_kind k[WARN_KINDS];
  size_t nk = 0;
  uint64_t more = 0, n = pcol_rows(f, PCOL_T_SOURCES);
  /* which sources measure samples/count: asked once (asked per source, the
   * warning made many sources quadratic: issue 42 F9) */
  pcol_value_sel c = {0};
  pcol_error q = {0};
  uint8_t *hc = NULL;
  if (pcol_value_resolve(f, NULL, "samples/count", &c, &q) || pcol_value_sources(f, &c, &hc, &q)) {
    free(hc);
    hc = NULL;
  }
  for (uint64_t s = 1; s <= n; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    pcol_select one = {0};
    pcol_value_sel d;
    one.source_id = (uint32_t)s;
    int counted = hc && hc[s];
    src_kind x = {{0}, {0}, {0}, NULL, 1};
    if (pcol_string(f, pcol_view_u32(ty, s - 1), &x.type, &q)) {
      /* damaged: the name stays empty (pcol_string clears it); it only names a source */
    }
    if (pcol_value_resolve(f, &one, NULL, &d, &q)) d = c;
    x.dtype = d.type, x.dunit = d.unit;
    x.counted = counted ? "samples/count" : str_same(x.type, (pcol_str){"rprof", 5}) ? "ticks" : "rows (weight)";
    size_t i = 0;
    while (i < nk && !(str_same(k[i].type, x.type) && k[i].counted == x.counted &&
                       str_same(k[i].dtype, x.dtype) && str_same(k[i].dunit, x.dunit)))
      i++;
    if (i < nk) k[i].n++;
    else if (nk < WARN_KINDS) k[nk++] = x;
    else more++;
  }
  free(hc);
  fprintf(stderr, "pcol %s: warning: %s: the sources measure different values, so %s (", cmd->name,
          path, what);
  for (size_t i = 0; i < nk; i++) {
    fprintf(stderr, "%s%llu ", i ? "; " : "", (unsigned long long)k[i].n);
    cli_print_str(stderr, k[i].type.ptr ? k[i].type : (pcol_str){"NA", 2});
    fprintf(stderr, " source%s: %s, default ", k[i].n == 1 ? "" : "s", k[i].counted);
    cli_print_name(stderr, k[i].dtype);
    fputc('/', stderr);
    cli_print_name(stderr, k[i].dunit);
  }
  if (more) fprintf(stderr, "; %llu more of other kinds", (unsigned long long)more);
  fprintf(stderr, "); %s\n", advice);
}

void cli_warn_rprof_mixed(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                          const char *path) {
  bool differ = false;
  pcol_error e = {0};
  pcol_view ty;
  if (pcol_value_defaults_differ(f, sel, &differ, &e) || !differ ||
      pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, &e))
    return;
  warn_defaults_differ(cmd, f, sel, &ty, path,
                       "Rprof's lines count each sample as one tick of one interval",
                       "write one with --source N");
}

void cli_warn_value(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                    const pcol_value_sel *v, bool asked, const char *path) {
  uint8_t *has = NULL;
  pcol_error e = {0};
  pcol_view ty, uri;
  if (pcol_value_sources(f, v, &has, &e) ||
      pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, &e) ||
      pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, &e)) {
    free(has);
    return; /* a damaged table: the view itself will say so */
  }
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES), missing = 0;
  bool differ = false;
  if (!asked && v->vt_id == 0 && !pcol_value_defaults_differ(f, sel, &differ, &e) && differ)
    warn_defaults_differ(cmd, f, sel, &ty, path, "the default is samples: each source's own count",
                         "name one with --value TYPE"); /* a merge of unrelated profiles */
  for (uint64_t s = 1; s <= n; s++)
    missing += !has[s] && !(sel && sel->source_id && sel->source_id != s);
  /* each source without the value, or (past WARN_MISSING) one line: how
   * many, and the first ones */
  uint64_t shown = 0;
  if (missing > WARN_MISSING) {
    fprintf(stderr, "pcol %s: warning: %s: %llu of %llu sources have no value ", cmd->name, path,
            (unsigned long long)missing, (unsigned long long)n);
    cli_print_name(stderr, v->type);
    fputc('/', stderr);
    cli_print_name(stderr, v->unit);
    fputs(", their samples count 0 (", stderr);
  }
  for (uint64_t s = 1; s <= n && shown < WARN_MISSING; s++) {
    if (has[s] || (sel && sel->source_id && sel->source_id != s)) continue;
    pcol_str t = {0}, u = {0};
    if (pcol_string(f, pcol_view_u32(&ty, s - 1), &t, &e)) {
      /* damaged: the name stays empty (pcol_string clears it); it only names a source */
    }
    if (pcol_string(f, pcol_view_u32(&uri, s - 1), &u, &e)) {
      /* damaged: the name stays empty (pcol_string clears it); it only names a source */
    }
    if (missing > WARN_MISSING) fprintf(stderr, "%s", shown ? ", " : "");
    else fprintf(stderr, "pcol %s: warning: %s: ", cmd->name, path);
    fprintf(stderr, "source %llu (", (unsigned long long)s);
    cli_print_str(stderr, t);
    fputc(' ', stderr);
    cli_print_str(stderr, u);
    fputc(')', stderr);
    shown++;
    if (missing > WARN_MISSING) continue;
    fputs(" has no value ", stderr);
    cli_print_name(stderr, v->type);
    fputc('/', stderr);
    cli_print_name(stderr, v->unit);
    fputs("; its samples count 0\n", stderr);
  }
  if (missing > WARN_MISSING) fprintf(stderr, ", ...)\n");
  free(has);
}

void cli_lacking_note(void *ctx, uint32_t source_id, pcol_str type, pcol_str unit) {
  cli_lacking *l = ctx;
  if (l->n++ >= WARN_MISSING) return;
  pcol_view ty, uri;
  pcol_str t = {0}, u = {0};
  pcol_error e = {0};
  if (!pcol_column(l->f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, &e) &&
      !pcol_column(l->f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, &e)) {
    if (pcol_string(l->f, pcol_view_u32(&ty, source_id - 1), &t, &e)) {
      /* damaged: the name stays empty; it only names a source */
    }
    if (pcol_string(l->f, pcol_view_u32(&uri, source_id - 1), &u, &e)) {
      /* damaged: the name stays empty; it only names a source */
    }
  }
  fprintf(stderr, "pcol %s: warning: %s: source %u (", l->cmd->name, l->path, source_id);
  cli_print_str(stderr, t);
  fputc(' ', stderr);
  cli_print_str(stderr, u);
  fputs(") has no value ", stderr);
  cli_print_name(stderr, type);
  fputc('/', stderr);
  cli_print_name(stderr, unit);
  fputs("; its samples count 0 there in the output\n", stderr);
}

void cli_lacking_done(const cli_lacking *l) {
  if (l->n > WARN_MISSING)
    fprintf(stderr, "pcol %s: warning: %s: and %llu more sample types that a source has no value of, "
                    "counted 0 for its samples\n", l->cmd->name, l->path,
            (unsigned long long)(l->n - WARN_MISSING));
}

void cli_mean_type(pcol_str *type, char *type_buf) { *type = pcol_mean_type(*type, type_buf); }

int cli_mean(pcol_file *f, const pcol_select *sel, const pcol_top *dtop, pcol_top *t,
             double fraction, pcol_sum *cutoff, char *type_buf, pcol_error *err) {
  pcol_value_sel div;
  int rc = pcol_mean_divisor(f, sel, &div, err);
  if (!rc) rc = pcol_top_mean_with(f, sel, &div, dtop, t, fraction, cutoff, err);
  if (rc) return rc;
  cli_mean_type(&t->value.type, type_buf);
  return PCOL_OK;
}

const char *cli_value_or_dot(pcol_sum v, pcol_str vunit, const char *unit, char *buf, size_t n) {
  if (v == 0) return ".";
  cli_value_label(v, vunit, unit, buf, n);
  return buf;
}

int cli_listing_open(const cli_command *cmd, const cli_args *a, cli_view_in *in, char *unit) {
  int rc = cli_view_open(cmd, a, a->npos - 1, in);
  if (rc) return rc;
  strcpy(unit, "minimum");
  const char *u = cli_get(cmd, a, "unit");
  if (u && strcmp(u, "minimum") && strcmp(u, "auto") &&
      cli_view_unit(cmd, a, in->v.unit, NULL, 0, 0, unit)) {
    pcol_close(in->f);
    in->f = NULL;
    return EXIT_USAGE;
  }
  return 0;
}
