/* inputs.c — the inputs of a reading command: each argument a file, a
 * directory (its files, by name) or a glob pattern (expanded when the
 * shell left it quoted), by the library's rule (pcol_inputs_expand, with a
 * directory's index, `pcol index`), and their union opened as `pcol merge`
 * of them would write it (pcol_open_many: one rule, in the library); what
 * the expansion notes said on standard error.  Also cli_open
 * (one profile: pack's and merge's inputs) and cli_load (the inputs, then
 * --value), cli_stdin_once, an importer's warning and a file's format by
 * its first bytes: opening inputs lives here, and uses cli.c (options,
 * messages), cli_text.c, cli_value.c (--value's warnings) and outbudget.c
 * (--max-rows, the budget), none of which calls back. */
#include "cli.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the last index read in place of a directory's files (cli_index_hint) */
static char index_used[1024];

void cli_index_hint(const char *cmd, int rc) {
  if (rc != EXIT_DATA || !index_used[0]) return;
  fprintf(stderr, "pcol %s: note: '", cmd);
  cli_print_cstr(stderr, index_used);
  fputs("' was read in place of the files it stands for (if it is at fault: PCOL_NO_INDEX=1 "
        "reads the files, and `pcol index` makes a damaged one again)\n", stderr);
}

/* What an expansion has to say (pcol_inputs_expand: its text, escaped),
 * on standard error: why a directory's index is not used, once a
 * directory (`top` may expand its inputs twice: pcol_top_many, then the
 * union's open), and unless quiet (the first of those), each glob match
 * skipped. */
static void say(const pcol_inputs *in, int quiet) {
  static char noted[4096];
  if (in->index_note && in->index_dir && strcmp(noted, in->index_dir)) {
    snprintf(noted, sizeof noted, "%s", in->index_dir);
    fprintf(stderr, "pcol: note: %s\n", in->index_note);
  }
  for (const char *l = in->skipped, *nl; !quiet && l && *l; l = nl + 1) {
    if (!(nl = strchr(l, '\n'))) break;
    fprintf(stderr, "pcol: warning: %.*s\n", (int)(nl - l), l);
  }
}

/* Labels outlive the inputs (the output budget's message names the first);
 * a command has at most two sides. */
static char labels[4][160];
static int nlabel;

/* the name views print ("File:", JSON's "file", messages): the argument,
 * or the arguments, shortened */
static const char *make_label(const char *const *args, int nargs) {
  char *l = labels[nlabel++ % 4];
  size_t used = 0, cap = sizeof labels[0];
  l[0] = 0;
  for (int i = 0; i < nargs && used < cap; i++) {
    int w = snprintf(l + used, cap - used, "%s%s", i ? " " : "", cli_input_name(args[i]));
    if (w < 0) break;
    used += (size_t)w;
  }
  if (used >= cap) snprintf(l + cap - 32, 32, "... (%d arguments)", nargs);
  return l;
}

/* a copy of an expansion's files (not its descriptor: the original keeps
 * it open, nor its notes, said already) */
static int inputs_copy(const pcol_inputs *from, pcol_inputs *to) {
  memset(to, 0, sizeof *to);
  to->paths = calloc(from->n ? from->n : 1, sizeof *to->paths);
  if (!to->paths) return -1;
  for (; to->n < from->n; to->n++)
    if (!(to->paths[to->n] = strdup(from->paths[to->n]))) {
      pcol_inputs_free(to);
      return -1;
    }
  to->many = from->many;
  to->first_is_union = from->first_is_union;
  to->given_bytes = from->given_bytes;
  to->covered = from->covered;
  return 0;
}

/* The last expansion that read a directory's index, kept (with the index
 * open): `top` asks twice when pcol_top_many leaves the answer to the
 * union (one input: the index), and the second would stat every file it
 * covers again.  Kept by the arguments' text (diff asks for its two sides
 * from one array) and the selection asked with, and not from the first asking of `top` when a glob
 * match was skipped (the second asking names them). */
static struct {
  char **args;
  int nargs;
  const pcol_select *sel; /* asked with this selection (whether the index may be read) */
  pcol_inputs in;
} kept;

static int kept_for(const char *const *args, int nargs, const pcol_select *sel) {
  if (!kept.args || kept.nargs != nargs || kept.sel != sel) return 0;
  for (int i = 0; i < nargs; i++)
    if (strcmp(kept.args[i], args[i])) return 0;
  return 1;
}

/* *in kept, and a copy of it in its place */
static void keep(const char *const *args, int nargs, const pcol_select *sel, pcol_inputs *in) {
  char **a = calloc((size_t)nargs, sizeof *a);
  int i = 0;
  pcol_inputs copy;
  for (; a && i < nargs && (a[i] = strdup(args[i])); i++) {}
  if (a && i == nargs && !inputs_copy(in, &copy)) {
    kept.args = a;
    kept.nargs = nargs;
    kept.sel = sel;
    kept.in = *in;
    *in = copy;
    return;
  }
  for (int j = 0; a && j < i; j++) free(a[j]);
  free(a);
}

/* The inputs of args (pcol_inputs_expand), what it notes said (quiet: the
 * first asking of `top`, cli_top_many), a directory's index read when
 * indexed and sel allow it.  On failure *in is freed. */
static int expand(const char *const *args, int nargs, pcol_inputs *in, int quiet, int indexed,
                  const pcol_select *sel, pcol_error *err) {
  if (indexed && kept_for(args, nargs, sel)) {
    if (!inputs_copy(&kept.in, in)) return PCOL_OK;
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  pcol_inputs_options o = {0};
  o.index = indexed;
  o.sel = sel;
  int rc = pcol_inputs_expand(args, (size_t)nargs, &o, in, err);
  say(in, quiet);
  if (rc) {
    pcol_inputs_free(in);
    return rc;
  }
  if (in->first_is_union) snprintf(index_used, sizeof index_used, "%s", in->index_name);
  if (in->first_is_union && !kept.args && (!quiet || !in->nskipped)) keep(args, nargs, sel, in);
  return rc;
}

/* whether the last cli_expand_args had a directory or a glob (pcol_inputs'
 * many), for cli_expand_explain */
static int expanded_many;

int cli_expand_args(const char *const *args, int nargs, char ***paths, size_t *n,
                    pcol_error *err) {
  pcol_inputs in;
  int rc = expand(args, nargs, &in, 0, 0, NULL, err);
  *paths = rc ? NULL : in.paths;
  *n = rc ? 0 : in.n;
  if (!rc) expanded_many = in.many;
  if (!rc) {
    in.paths = NULL;
    in.n = 0;
    pcol_inputs_free(&in);
  }
  return rc;
}

void cli_expand_explain(char **paths, size_t n, pcol_error *err) {
  pcol_inputs in = {0};
  in.paths = paths;
  in.n = n;
  in.many = expanded_many;
  pcol_inputs_explain(&in, err);
}

void cli_expand_free(char **paths, size_t n) {
  for (size_t i = 0; i < n; i++) free(paths[i]);
  free(paths);
}

/* How a reading command opens its inputs: --no-mmap, and --max-rows (read
 * by cli_budget_begin, outbudget.c). */
pcol_symbolize_options cli_symbolize_options(const cli_command *cmd, const cli_args *a) {
  pcol_symbolize_options o = {0};
  const char *s = cli_get(cmd, a, "symbolize"); /* local or none: cli_parse checked it */
  o.mode = s && !strcmp(s, "local") ? PCOL_SYMBOLIZE_LOCAL : PCOL_SYMBOLIZE_NONE;
  o.binary_path = cli_get(cmd, a, "binary-path");
  return o;
}

pcol_open_options cli_open_options(const cli_command *cmd, const cli_args *a) {
  pcol_open_options opt = {0};
  opt.no_mmap = cli_flag(cmd, a, "no-mmap");
  opt.symbolize = cli_symbolize_options(cmd, a);
  opt.max_rows = cli_max_rows();
  /* info and the report page describe, and validate checks, the file pack
   * or merge writes of an input in another format (or a union): laid out
   * so, not plain for one reading */
  opt.as_written = !strcmp(cmd->name, "info") || !strcmp(cmd->name, "report") ||
                   !strcmp(cmd->name, "validate");
  /* a command that writes a profile of its pcol inputs checks their
   * checksums first, as merge, pack and export do: a flipped bit is not
   * written into a copy with good checksums of its own (review 20b F1);
   * the views read without that pass (doc/safety.md) */
  opt.verify_sums = !strcmp(cmd->name, "unpack");
  return opt;
}

/* PCOL_DEBUG=inputs: how many inputs a view read (bench/many.sh counts
 * them), and whether each on its own (cli_top_many: threads >= 1) and on
 * how many threads */
static void debug_inputs(const cli_command *cmd, size_t used, const pcol_inputs *in,
                         size_t threads) {
  const char *dbg = getenv("PCOL_DEBUG");
  if (!dbg || !strstr(dbg, "inputs")) return;
  fprintf(stderr, "pcol %s: debug: read %zu of %zu inputs", cmd->name, used, in->n);
  if (in->first_is_union) fprintf(stderr, " (1 an index of %zu files)", in->covered);
  if (threads > 1) fprintf(stderr, ", each on its own, on %zu threads\n", threads);
  else fprintf(stderr, "%s\n", threads ? ", each on its own" : "");
}

/* Set while a comparison opens its two sides: cli_open_args leaves
 * --tagroot/--tagleaf to tag_frames_pair. */
static int cli_tag_frames_later;
int cli_load_again;
uint32_t cli_base_source;

/* --tagroot's numbers named in the view's --unit, as pprof's frames in
 * -unit's (driver.go: addLabelNodes(..., cfg.Unit)); auto is pprof's
 * minimum (NULL) */
static const char *tag_unit(const cli_command *cmd, const cli_args *a) {
  const char *unit = cli_get(cmd, a, "unit");
  return unit && strcmp(unit, "auto") ? unit : NULL;
}

/* pcol_filter_warnings of the n files f, a warning line each (the
 * library's words: "Focus expression matched no samples") */
static void filter_warnings(const cli_command *cmd, pcol_file *const *f, size_t n, const pcol_select *sel) {
  pcol_error e = {0};
  size_t len = pcol_filter_warnings(f, n, sel, NULL, 0, &e);
  char *buf = len ? malloc(len) : NULL;
  if (buf && pcol_filter_warnings(f, n, sel, buf, len, &e) == len)
    for (const char *l = buf, *end = buf + len, *nl; l < end; l = nl + 1) {
      if (!(nl = memchr(l, '\n', (size_t)(end - l)))) nl = end;
      fprintf(stderr, "pcol %s: warning: %.*s\n", cmd->name, (int)(nl - l), l);
    }
  free(buf);
}

/* A comparison whose two sides are opened one by one (diff, flame --diff
 * without label frames: cli_pair_begin .. cli_pair_end): their data
 * warnings are said once both are open, as pcol_view_notes says them of
 * two inputs (a filter's once, of both: pprof's of a profile and its base
 * merged; the R and Python packages' diff say them so).  A side answered
 * file by file (cli_top_many) leaves its files (many, owned) for the
 * filters' words, and says its range note itself. */
static struct {
  int on;
  size_t n; /* the sides cli_load opened */
  pcol_file *f[2];
  pcol_value_sel v[2];
  const char *label[2];
  pcol_file **many;
  size_t nmany;
} pair;

/* The filters' warnings of many pcol files answered one by one
 * (pcol_top_many), as the union's open says them ("Focus expression
 * matched no samples": a filter that matched nothing in any file; h4: the
 * one-by-one answer said none).  The files are mapped again (O(1) each),
 * all at once, as pcol_filter_warnings asks; only when a filter is given.
 * Of a pair's side: the files kept for cli_pair_end. */
static void many_filter_warnings(const cli_command *cmd, const cli_args *a, const pcol_inputs *in,
                                 const pcol_select *sel) {
  pcol_file **f = calloc(in->n ? in->n : 1, sizeof *f);
  pcol_open_options opt = cli_open_options(cmd, a);
  pcol_error e = {0};
  size_t k = 0;
  for (; f && k < in->n; k++)
    if (pcol_open(in->paths[k], &opt, &f[k], &e)) break;
  pcol_file **m = pair.on && f && k == in->n ? realloc(pair.many, (pair.nmany + k) * sizeof *m) : NULL;
  if (m) {
    memcpy(m + pair.nmany, f, k * sizeof *f);
    pair.many = m;
    pair.nmany += k;
    k = 0;
  } else if (f && k == in->n)
    filter_warnings(cmd, f, k, sel);
  for (size_t i = 0; f && i < k; i++) pcol_close(f[i]);
  free(f);
}

int cli_top_many(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
                 const pcol_select *sel, pcol_by by, double fraction, pcol_sort order,
                 uint64_t limit, pcol_top *t, size_t *dropped, pcol_sum *cutoff,
                 pcol_file **f, const char **label, int *answered, cli_header_time *ht,
                 pcol_error *err) {
  *answered = 0;
  *f = NULL;
  if (cli_get(cmd, a, "tagroot") || cli_get(cmd, a, "tagleaf") || cli_get(cmd, a, "base") ||
      cli_get(cmd, a, "diff-base"))
    return PCOL_OK; /* frames, a base: the union's */
  pcol_inputs in;
  int bad = expand(args, nargs, &in, 1, 1, sel, err);
  if (bad || in.nskipped) { /* the union's open says it */
    if (!bad) pcol_inputs_free(&in);
    memset(err, 0, sizeof *err);
    return PCOL_OK;
  }
  pcol_open_options opt = cli_open_options(cmd, a);
  opt.given_bytes = in.given_bytes;
  opt.first_is_union = in.first_is_union;
  pcol_many_top info;
  size_t shown = limit < SIZE_MAX ? (size_t)limit : SIZE_MAX;
  int rc = pcol_top_many((const char *const *)in.paths, in.n, &opt, sel, cli_get(cmd, a, "value"),
                         by, fraction, order, shown, t, dropped, cutoff, &info, err);
  if (!rc && info.answered && sel && (sel->has_from || sel->has_to) && t->nrows == 0 && t->total == 0) {
    /* a range that selects nothing: the union answers (the same empty
     * table), with the warning that says so and where the samples are
     * (pcol_view_notes; rd11 F7: the files one by one said nothing) */
    pcol_top_free(t);
    memset(t, 0, sizeof *t);
    pcol_close(info.file);
    info.answered = 0;
  }
  if (!rc && info.answered) {
    *answered = 1;
    *f = info.file;
    if (ht) *ht = (cli_header_time){info.time_ns, info.duration_ns, info.comments, info.ncomments};
    *label = make_label(args, nargs);
    cli_budget_bytes(*label, info.input_bytes);
    debug_inputs(cmd, info.used, &in, info.threads ? info.threads : 1);
    char *note = NULL; /* the union's note of a relative range (cli_warn_range) */
    pcol_error e = {0};
    if (!pcol_top_many_range_note(t, sel, &note, &e)) cli_range_note_print(cmd, *label, note);
    if (pcol_select_filtered(sel)) many_filter_warnings(cmd, a, &in, sel);
  }
  pcol_inputs_free(&in);
  return rc;
}

cli_loaded_opts cli_loaded;

/* THE open of a command's inputs (files, directories, globs: their union)
 * named label; the base of --base/--diff-base is opened so too */
static int open_inputs(const cli_command *cmd, const cli_args *a, const char *const *args,
                       int nargs, const pcol_select *sel, const char *label, pcol_file **f,
                       pcol_error *err) {
  pcol_inputs in;
  int rc = expand(args, nargs, &in, 0, 1, sel, err);
  if (rc) return rc;
  pcol_open_options opt = cli_open_options(cmd, a);
  opt.given_bytes = in.given_bytes;
  opt.first_is_union = in.first_is_union;
  opt.names = cli_fetched_names((const char *const *)in.paths, in.n);
  size_t used = 0;
  /* any input format: a pcol file is mapped, another is converted in memory
   * ("-": standard input, read whole); many: their union in memory */
  rc = pcol_open_many((const char *const *)in.paths, in.n, &opt, sel, f, &used, err);
  if (rc) pcol_inputs_explain(&in, err); /* a README in a directory */
  if (rc) {
    const char *shown = in.n == 1 ? cli_input_name(in.paths[0]) : NULL;
    if (shown && !strstr(err->message, shown)) pcol_error_prefix(err, shown);
  } else {
    cli_import_warning(cmd->name, err);
    if (!cli_load_again) cli_budget_input(label, *f); /* counted once */
    debug_inputs(cmd, used, &in, 0);
  }
  pcol_inputs_free(&in);
  return rc;
}

int cli_open_args(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
                  const pcol_select *sel, pcol_file **f, const char **label, pcol_error *err) {
  *f = NULL;
  *label = make_label(args, nargs);
  const char *dbase = cli_get(cmd, a, "diff-base"), *base = dbase ? dbase : cli_get(cmd, a, "base");
  /* under a base --source N (cli_select moved it to cli_base_source) still
   * keeps every input: a wall-clock range leaves out inputs it cannot reach
   * only when no source is named (pcol_open_many), and leaving some out
   * would renumber the profile's sources, not the base's (rd17c F2) */
  pcol_select psel;
  if (sel && base) psel = *sel, psel.source_id = cli_base_source, sel = &psel;
  int rc = open_inputs(cmd, a, args, nargs, sel, *label, f, err);
  if (rc) return rc;
  if (sel == &psel) psel.source_id = 0;
  const char *bad = dbase && cli_get(cmd, a, "base") ? "give --base or --diff-base, not both"
                    : base && !strcmp(base, "-")       ? "--base/--diff-base: give the base as a file, not '-'"
                    : !base && cli_flag(cmd, a, "normalize") ? "--normalize scales to a base profile: give --base or --diff-base (pprof: must have base profile to normalize by)"
                                                       : NULL;
  if (!rc && bad) {
    rc = pcol_error_set(err, PCOL_EINVAL, "%s", bad);
    pcol_close(*f);
    *f = NULL;
  } else if (!rc && base) { /* pprof -base/-diff_base: the inputs minus the base */
    pcol_file *bf = NULL, *u = NULL;
    /* a directory or a glob: their union, as the inputs' */
    rc = open_inputs(cmd, a, &base, 1, NULL, make_label(&base, 1), &bf, err);
    if (!rc) {
      unsigned flags = (dbase ? PCOL_BASE_DIFF : 0) | (cli_flag(cmd, a, "normalize") ? PCOL_BASE_NORMALIZE : 0);
      pcol_select ds; /* --source N of each side (cli_select), the range of each */
      memset(&ds, 0, sizeof ds);
      if (sel) ds = *sel;
      ds.source_id = cli_base_source;
      int side = 1; /* (whose error: the profile's selection, or the base's) */
      rc = pcol_open_diff_base_select(*f, bf, &ds, flags, &u, &side, err);
      if (rc) pcol_error_prefix(err, side ? cli_input_name(base) : *label);
      pcol_close(bf);
    }
    if (dbase) cli_loaded.diff_base = dbase;
    else cli_loaded.base = base;
    cli_loaded.normalize = cli_flag(cmd, a, "normalize");
    pcol_close(*f);
    *f = u;
  }
  const char *root = cli_get(cmd, a, "tagroot"), *leaf = cli_get(cmd, a, "tagleaf");
  if (!rc && (root || leaf) && !cli_tag_frames_later) { /* pprof -tagroot/-tagleaf: the profile with those frames */
    pcol_file *tf = NULL;
    rc = pcol_open_tag_frames(*f, root, leaf, tag_unit(cmd, a), &tf, err);
    cli_loaded.tagroot = root;
    cli_loaded.tagleaf = leaf;
    pcol_close(*f);
    *f = tf;
    if (rc) pcol_error_prefix(err, *label);
    else cli_import_warning(cmd->name, err); /* pprof's: a key no sample has */
  }
  return rc;
}

/* The two sides of a comparison with --tagroot/--tagleaf's frames, each
 * replaced in place (pcol_open_tag_frames_pair: a key need be on one side
 * only, as pprof -diff_base merges them first); on failure *side is the
 * side whose error it is (0: *f).  No option: nothing done. */
static int tag_frames_pair(const cli_command *cmd, const cli_args *a, pcol_file **f, pcol_file **g,
                           int *side, pcol_error *err) {
  const char *root = cli_get(cmd, a, "tagroot"), *leaf = cli_get(cmd, a, "tagleaf");
  if (!root && !leaf) return PCOL_OK;
  pcol_file *tf = NULL, *tg = NULL;
  int rc = pcol_open_tag_frames_pair(*f, *g, root, leaf, tag_unit(cmd, a), &tf, &tg, side, err);
  cli_loaded.tagroot = root;
  cli_loaded.tagleaf = leaf;
  if (rc) return rc;
  cli_import_warning(cmd->name, err); /* pprof's: keys no sample of either side has */
  pcol_close(*f);
  pcol_close(*g);
  *f = tf;
  *g = tg;
  return PCOL_OK;
}

int cli_open(const cli_command *cmd, const cli_args *a, const char *path, pcol_file **f) {
  pcol_error err = {0};
  pcol_open_options opt = cli_open_options(cmd, a);
  opt.names = cli_fetched_names(&path, 1);
  /* any input format: a pcol file is mapped, another is converted in memory
   * ("-": standard input, read whole) */
  int rc = pcol_open_any(path, &opt, f, &err);
  if (rc) return cli_fail_in(cmd->name, path, &err, rc);
  cli_import_warning(cmd->name, &err);
  cli_budget_input(path, *f);
  return 0;
}

/* a line of pcol_view_notes: "pcol CMD: warning|note: [LABEL: ]TEXT" */
typedef struct notes_print {
  const cli_command *cmd;
  const char *const *label; /* of each input */
  size_t n;
  int filters; /* the filters' lines (input n) too */
} notes_print;
static void notes_line(void *ctx, size_t input, const char *text, bool warning) {
  const notes_print *p = ctx;
  if (input == p->n && !p->filters) return; /* (said of the pair: cli_pair_end) */
  fprintf(stderr, "pcol %s: %s: ", p->cmd->name, warning ? "warning" : "note");
  if (input < p->n) {
    cli_print_cstr(stderr, p->label[input]);
    fputs(": ", stderr);
  }
  cli_print_cstr(stderr, text);
  fputc('\n', stderr);
}

/* The data warnings of the n inputs a view opened (the library's rule and
 * words, which the R and Python packages and DuckDB's pcol_top relay); a
 * damaged table says nothing more here: the view will say so */
static void view_notes(const cli_command *cmd, const cli_args *a, pcol_file *const *f, size_t n,
                       const char *by_label, const pcol_select *sel, const pcol_value_sel *v,
                       const char *const *label) {
  notes_print p = {cmd, label, n, !pair.nmany};
  pcol_error e = {0};
  if (pcol_view_notes(f, n, by_label, sel, NULL, v, cli_get(cmd, a, "value") != NULL, NULL, notes_line, &p, &e)) {
    /* (said: the view's own error) */
  }
}

/* peek, list and disasm read FILE... REGEX, the expression last, where
 * go tool pprof's -peek=RE FILE names it first: when an input is missing
 * and the argument read as REGEX is a file, the message says that the
 * order is the likely mistake ("main: No such file or directory" alone
 * read as a missing profile). */
static void regex_last_hint(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
                            pcol_error *err) {
  struct stat st;
  if (args != a->pos || nargs < 1 || nargs + 1 != a->npos || stat(a->pos[nargs], &st)) return;
  if (!strstr(err->message, "No such file or directory") && !strstr(err->message, "no file matches")) return;
  size_t l = strlen(err->message);
  snprintf(err->message + l, sizeof err->message - l,
           " (pcol %s takes FILE... REGEX, the expression last; '%.160s' is a file)", cmd->name, a->pos[nargs]);
}

int cli_load(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
             const pcol_select *sel, pcol_file **f, pcol_value_sel *v, const char **label,
             pcol_error *err) {
  int rc = cli_open_args(cmd, a, args, nargs, sel, f, label, err);
  if (rc) regex_last_hint(cmd, a, args, nargs, err);
  if (rc) return rc;
  if ((rc = pcol_value_resolve(*f, sel, cli_get(cmd, a, "value"), v, err))) {
    pcol_error_prefix(err, *label);
    pcol_close(*f);
    *f = NULL;
    return rc;
  }
  /* top --by label:KEY's filters see pprof -tagroot=KEY's frames (its
   * rows: pcol_top_by_label), and so do their warnings (the library's
   * rule, pcol_view_notes', which the R and Python packages relay) */
  const char *bys = cli_get(cmd, a, "by");
  if (cli_load_again) return PCOL_OK; /* (said when it was first read) */
  if (pair.on) { /* said of both sides once both are open */
    if (pair.n < 2) {
      pair.f[pair.n] = *f;
      pair.v[pair.n] = *v;
      pair.label[pair.n++] = *label;
    }
    return PCOL_OK;
  }
  view_notes(cmd, a, f, 1, bys && !strncmp(bys, "label:", 6) ? bys + 6 : NULL, sel, v, label);
  return PCOL_OK;
}

void cli_pair_begin(void) {
  memset(&pair, 0, sizeof pair);
  pair.on = 1;
}

void cli_pair_end(const cli_command *cmd, const cli_args *a, const pcol_select *sel, int say) {
  pair.on = 0;
  if (say) {
    /* the sides cli_load opened, and the filters' lines of those with the
     * files of the sides answered file by file (their union's, once) */
    if (pair.n) view_notes(cmd, a, pair.f, pair.n, NULL, sel, pair.v, pair.label);
    if (pair.nmany && pcol_select_filtered(sel)) {
      pcol_file **all = calloc(pair.nmany + pair.n, sizeof *all);
      if (all) {
        memcpy(all, pair.f, pair.n * sizeof *all);
        memcpy(all + pair.n, pair.many, pair.nmany * sizeof *all);
        filter_warnings(cmd, all, pair.n + pair.nmany, sel);
      }
      free(all);
    }
  }
  for (size_t i = 0; i < pair.nmany; i++) pcol_close(pair.many[i]);
  free(pair.many);
  memset(&pair, 0, sizeof pair);
}

int cli_load_pair(const cli_command *cmd, const cli_args *a, const char *const *args0, int n0,
                  const char *base, const pcol_select *sel, pcol_file **f, pcol_value_sel *v,
                  const char **label, pcol_error *err) {
  f[0] = f[1] = NULL;
  cli_tag_frames_later = 1;
  int rc = cli_open_args(cmd, a, args0, n0, sel, &f[0], &label[0], err);
  if (!rc) rc = cli_open_args(cmd, a, &base, 1, sel, &f[1], &label[1], err);
  cli_tag_frames_later = 0;
  int side = 0; /* whose error: the message names that side */
  if (!rc && (rc = tag_frames_pair(cmd, a, &f[0], &f[1], &side, err))) pcol_error_prefix(err, label[side]);
  for (int i = 0; i < 2 && !rc; i++)
    if ((rc = pcol_value_resolve(f[i], sel, cli_get(cmd, a, "value"), &v[i], err)))
      pcol_error_prefix(err, label[i]);
  if (!rc) view_notes(cmd, a, f, 2, NULL, sel, v, label);
  if (rc) {
    for (int i = 0; i < 2; i++) {
      pcol_close(f[i]);
      f[i] = NULL;
    }
  }
  return rc;
}

int cli_stdin_once(const cli_command *cmd, const char *const *paths, int n) {
  int seen = 0;
  for (int i = 0; i < n; i++)
    if (paths[i] && strcmp(paths[i], "-") == 0 && seen++)
      return cli_usage_error(cmd->name, "standard input ('-') can be read only once");
  return 0;
}

/* Whether the line p[0..n) was said already by this process (and, if
 * not, remembers it): an input named twice (`pcol diff F F`, `top F F`,
 * `top F --base F`) is imported twice, and its warning is said once. */
static int said_before(const char *p, size_t n) {
  static uint64_t said[64];
  static size_t nsaid;
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
  for (size_t i = 0; i < nsaid; i++)
    if (said[i] == h) return 1;
  if (nsaid < sizeof said / sizeof *said) said[nsaid++] = h;
  return 0;
}

void cli_import_warning(const char *cmd, pcol_error *err) {
  if (err->code == PCOL_OK) /* a line each (pcol_open_tag_frames' two), each once */
    for (const char *m = err->message, *nl; *m; m = nl ? nl + 1 : m + strlen(m)) {
      nl = strchr(m, '\n');
      if (said_before(m, nl ? (size_t)(nl - m) : strlen(m))) continue;
      /* messages quote file data and names (a name may hold ESC): the
       * text rule, as cli_fail's errors (rd10) */
      fprintf(stderr, "pcol %s: warning: ", cmd);
      cli_put_text(stderr, m, nl ? (size_t)(nl - m) : strlen(m), 0);
      fputc('\n', stderr);
    }
  err->message[0] = 0;
}

pcol_format cli_input_format(const char *path) {
  struct stat st; /* standard input, a FIFO, `<(cmd)`: cannot look without reading it */
  if (!strcmp(path, "-") || (!stat(path, &st) && !S_ISREG(st.st_mode))) return PCOL_FMT_UNKNOWN;
  return pcol_detect_path(path);
}

/* Whether writing OUT replaces one of the inputs in[0..nin): OUT names
 * the same file as an input once links are resolved (pcol writes through a
 * link to its target; a hard link of another name is a name of its own,
 * which the rename replaces, leaving the input as it was), and, for a pcol
 * output (to_pcol), that input is no pcol file (a pcol file rewritten as
 * pcol, `pack run.pcol --compress zstd -o run.pcol`, is meant).  Asked
 * before the write; the warning (cli_warn_replaced) after it succeeds. */
int cli_output_is_input(const char *out, char *const *in, size_t nin, int to_pcol) {
  char ro[PATH_MAX], ri[PATH_MAX];
  if (!out || !strcmp(out, "-") || !realpath(out, ro)) return 0;
  for (size_t i = 0; i < nin; i++) {
    if (!in[i] || !realpath(in[i], ri) || strcmp(ro, ri)) continue;
    if (to_pcol) {
      unsigned char magic[8] = {0};
      FILE *fp = fopen(in[i], "rb");
      size_t got = fp ? fread(magic, 1, sizeof magic, fp) : 0;
      if (fp) fclose(fp);
      if (got == sizeof magic && !memcmp(magic, "\x89PCOL\r\n\x1a", 8)) continue;
    }
    return 1;
  }
  return 0;
}

/* The warning of an output that replaced an input (review 10 m6: `pack
 * g.pb.gz -o g.pb.gz` left a pcol file named as a pprof one): what, what
 * replaced it ("a pcol file", "the pprof export"). */
void cli_warn_replaced(const cli_command *cmd, const char *out, const char *what) {
  fprintf(stderr, "pcol %s: warning: ", cmd->name);
  cli_print_cstr(stderr, out);
  fprintf(stderr, ": the output replaced this input with %s, whatever its name says\n", what);
}
