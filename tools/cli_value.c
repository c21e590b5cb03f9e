/* cli_value.c — the warnings about --value that the view commands print
 * after opening their inputs (cli_load): sources without the value, and
 * merged sources whose own defaults differ; and --mean (pprof -mean) of the
 * views that offer it. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

enum { WARN_MISSING = 3 };

/* the Rprof export's note on sources whose own defaults differ; true when said */
static bool warn_rprof_mixed(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                             const char *path) {
  char *note = NULL;
  bool warning = false;
  pcol_error e = {0};
  /* the library's words (R's pcol_to_rprof says the same) */
  if (pcol_value_rprof_note(f, sel, "--source N", &note, &warning, &e) || !note) return false;
  fprintf(stderr, "pcol %s: %s: ", cmd->name, warning ? "warning" : "note");
  cli_print_cstr(stderr, path);
  fputs(": ", stderr);
  cli_print_cstr(stderr, note);
  fputc('\n', stderr);
  free(note);
  return true;
}

/* a line of pcol_value_notes: "pcol CMD: warning|note: PATH: TEXT" */
typedef struct warn_ctx {
  const cli_command *cmd;
  const char *path;
  int said; /* lines said */
} warn_ctx;
static void warn_line(void *ctx, const char *text, bool warning) {
  warn_ctx *w = ctx;
  w->said++;
  fprintf(stderr, "pcol %s: %s: ", w->cmd->name, warning ? "warning" : "note");
  cli_print_cstr(stderr, w->path);
  fputs(": ", stderr);
  cli_print_cstr(stderr, text);
  fputc('\n', stderr);
}

void cli_warn_value(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                    const pcol_value_sel *v, bool asked, const char *path) {
  /* the library's rule and words (the R and Python packages and DuckDB's
   * pcol_top say the same); a damaged table says nothing here: the view
   * itself will say so */
  warn_ctx w = {cmd, path, 0};
  pcol_error e = {0};
  if (pcol_value_notes(f, sel, v, asked, NULL, warn_line, &w, &e)) return;
}

/* a line of pcol_value_lacking_notes: a warning */
static void lacking_line(void *ctx, const char *text) { warn_line(ctx, text, true); }

void cli_warn_written(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                      const pcol_value_sel *v, bool asked, bool rprof, const char *path) {
  pcol_error e = {0};
  bool differ = false;
  warn_ctx w = {cmd, path, 0};
  /* sources whose own defaults differ: the views' note on them
   * (pcol_value_notes), or Rprof's own words; a damaged table says nothing
   * here: the export says so */
  if (!asked && !pcol_value_defaults_differ(f, sel, &differ, &e) && differ &&
      (rprof ? warn_rprof_mixed(cmd, f, sel, path)
             : !pcol_value_notes(f, sel, v, false, NULL, warn_line, &w, &e) && w.said))
    return;
  /* else (also when that note tells nothing: the parts of a recording that
   * state its default, its allocation samples beside its cpu, which a view
   * leaves unsaid but an export leaves out) each source without v, in the
   * words said after --value */
  if (pcol_value_lacking_notes(f, sel, v, lacking_line, &w, &e)) return;
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
  /* the side's own number (a base's source: "the base's source K"), as
   * the views' notes name it; the union's numbers are no input's */
  char who[64];
  fprintf(stderr, "pcol %s: warning: ", l->cmd->name);
  cli_print_cstr(stderr, l->path);
  fprintf(stderr, ": %s (", pcol_source_who(l->f, source_id, who, sizeof who));
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
  if (l->n > WARN_MISSING) {
    fprintf(stderr, "pcol %s: warning: ", l->cmd->name);
    cli_print_cstr(stderr, l->path);
    fprintf(stderr, ": and %llu more sample types that a source has no value of, counted 0 for its samples\n",
            (unsigned long long)(l->n - WARN_MISSING));
  }
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

void cli_export_note(void *ctx, pcol_export_note_kind kind, const char *text) {
  const cli_note *n = ctx;
  /* a loss of every export is a note, whatever the format's other notes
   * are (a format's limit, not a fault of the data): one word for one
   * kind (the mark of truncated stacks and a made-up pid were notes of the
   * Rprof and Firefox exports, warnings of the V8 and Perfetto ones).  The
   * library states the kind (pcol_export_notes): the text, which embeds
   * labels and paths, is not read for it (review rd14a F5) */
  const char *word = kind == PCOL_EXPORT_LOSS ? "note" : n->word;
  fprintf(stderr, "pcol %s: %s: ", n->cmd->name, word);
  cli_print_cstr(stderr, n->path);
  fputs(": ", stderr);
  cli_print_cstr(stderr, text);
  fputc('\n', stderr);
}

/* `list` and `top --by line` of a V8 .cpuprofile: V8 names every frame at
 * its function's declaration line (callFrame.lineNumber); the lines a
 * sample ran on are only in positionTicks, per call-tree node, not per
 * sample, which pcol does not turn into samples (doc/mappings.md §10).  So
 * a per-line view of one says so once, rather than an annotation that
 * looks measured (review 8 F10).  A Chrome trace's samples carry their own
 * lines (§14). */
void cli_note_lines_rule(const cli_command *cmd, pcol_file *f, const pcol_select *sel, pcol_by by,
                         const char *path) {
  char *t = NULL;
  pcol_error e = {0};
  if (!f || pcol_lines_rule_note(f, sel, by, &t, &e) || !t) return;
  fprintf(stderr, "pcol %s: note: ", cmd->name);
  cli_print_cstr(stderr, path);
  fputs(": ", stderr);
  cli_print_cstr(stderr, t);
  fputc('\n', stderr);
  free(t);
}

void cli_note_v8_lines(const cli_command *cmd, pcol_file *f, const pcol_select *sel, const char *path) {
  pcol_view ty;
  pcol_error e = {0};
  if (!f || pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, &e)) return;
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES);
  for (uint64_t s = 1; s <= n; s++) {
    pcol_str t;
    if (sel && sel->source_id && sel->source_id != s) continue;
    if (pcol_string(f, pcol_view_u32(&ty, s - 1), &t, &e) || !t.ptr || t.len != 2 || memcmp(t.ptr, "v8", 2)) continue;
    fprintf(stderr, "pcol %s: note: ", cmd->name);
    cli_print_cstr(stderr, path);
    fputs(": a V8 .cpuprofile names each frame at its function's first line; the lines its "
          "samples ran on (positionTicks) are counted per call-tree node, not per sample, and "
          "are not kept (a Chrome trace's samples carry their lines)\n", stderr);
    return;
  }
}
