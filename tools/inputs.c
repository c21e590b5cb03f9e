/* inputs.c — the inputs of a reading command: each argument a file, a
 * directory (its files, by name) or a glob pattern (expanded here when the
 * shell left it quoted), and their union opened as `pcol merge` of them
 * would write it (pcol_open_many: one rule, in the library).  Also cli_open
 * (one profile: pack's and merge's inputs) and cli_load (the inputs, then
 * --value), cli_stdin_once, an importer's warning and a file's format by
 * its first bytes: opening inputs lives here, and uses cli.c (options,
 * messages), cli_text.c, cli_value.c (--value's warnings) and outbudget.c
 * (--max-rows, the budget), none of which calls back. */
#include "cli.h"
#include <dirent.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { NO_MEMORY = 1, NO_DIR = 2 }; /* positive: never a PCOL_E* code */

typedef struct cli_inputs {
  char **paths;
  size_t n, cap;
  /* the first directory's index (dirindex.c) when it stands for its
   * first files: the paths entry, how many files and their bytes */
  const char *index;
  size_t covered;
  uint64_t covered_bytes;
} cli_inputs;

static void inputs_free(cli_inputs *in) {
  for (size_t i = 0; i < in->n; i++) free(in->paths[i]);
  free(in->paths);
  memset(in, 0, sizeof *in);
}

/* the last index read in place of a directory's files (cli_index_hint) */
static char index_used[1024];

void cli_index_hint(const char *cmd, int rc) {
  if (rc != EXIT_DATA || !index_used[0]) return;
  fprintf(stderr, "pcol %s: note: '", cmd);
  cli_print_cstr(stderr, index_used);
  fputs("' was read in place of the files it stands for (if it is at fault: PCOL_NO_INDEX=1 "
        "reads the files, and `pcol index` makes a damaged one again)\n", stderr);
}

/* The first k of DIR's files (at paths[first..]) replaced by DIR's index
 * when it stands for them (dirindex.c). */
static int use_index(cli_inputs *in, const char *dir, size_t first) {
  size_t k;
  char *ip;
  uint64_t bytes;
  if (cli_dir_index(dir, in->paths + first, in->n - first, &k, &ip, &bytes)) return NO_MEMORY;
  if (!k) return 0;
  for (size_t i = first; i < first + k; i++) free(in->paths[i]);
  in->paths[first] = ip;
  memmove(in->paths + first + 1, in->paths + first + k, (in->n - first - k) * sizeof *in->paths);
  in->n -= k - 1;
  in->index = ip;
  char *shown = cli_path_join(dir, CLI_INDEX_FILE); /* (ip names the descriptor read) */
  snprintf(index_used, sizeof index_used, "%s", shown ? shown : dir);
  free(shown);
  in->covered += k;
  in->covered_bytes += bytes;
  return 0;
}

/* The bytes the inputs stand for when an index is among them (the union's
 * budgets, pcol_open_options.given_bytes): its files' and the others' on
 * disk; 0 (the library's own rule) when there is no index, or one input's
 * size is unknown (standard input, a pipe). */
static uint64_t given_bytes(const cli_inputs *in) {
  if (!in->index) return 0;
  uint64_t sum = in->covered_bytes;
  for (size_t i = 0; i < in->n; i++) {
    if (in->paths[i] == in->index) continue;
    struct stat st;
    if (!strcmp(in->paths[i], "-") || stat(in->paths[i], &st) || !S_ISREG(st.st_mode)) return 0;
    sum += st.st_size > 0 ? (uint64_t)st.st_size : 1;
  }
  return sum;
}

static int add(cli_inputs *in, char *p) {
  if (!p) return NO_MEMORY;
  if (in->n == in->cap) {
    size_t c = in->cap ? 2 * in->cap : 16;
    char **q = realloc(in->paths, c * sizeof *q);
    if (!q) {
      free(p);
      return NO_MEMORY;
    }
    in->paths = q;
    in->cap = c;
  }
  in->paths[in->n++] = p;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

char *cli_path_join(const char *dir, const char *name) {
  size_t dl = strlen(dir), l = dl + 1 + strlen(name) + 1;
  while (dl > 1 && dir[dl - 1] == '/') dl--; /* "d//" as "d" (the index's spelling) */
  char *p = malloc(l);
  if (p) snprintf(p, l, "%.*s%s%s", (int)dl, dir, dl && dir[dl - 1] == '/' ? "" : "/", name);
  return p;
}

/* THE rule for the files a directory or a glob pattern names: regular files
 * only, found by stat or a directory entry's type (neither opens anything:
 * a FIFO would block the open, a directory fail it; a link counts as what it
 * names).  1 when P is one. */
static int regular(const char *p) {
  struct stat st;
  return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* a directory's regular files (not those whose name starts with '.'),
 * sorted by name: the order the union's sources get */
static int add_dir(cli_inputs *in, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return NO_DIR;
  size_t first = in->n;
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char *p = cli_path_join(dir, e->d_name);
    if (!p) {
      rc = NO_MEMORY;
      break;
    }
    /* the entry's type when the file system gives it (no stat: 1,440 of
     * them were a tenth of `top DIR`'s wall time on two threads, read
     * before any file); a link or an unknown type, by stat */
    unsigned char ty = e->d_type;
    if (ty != DT_REG && (ty == DT_LNK || ty == DT_UNKNOWN ? !regular(p) : 1)) {
      free(p);
      continue;
    }
    rc = add(in, p);
  }
  closedir(d);
  if (!rc && in->n > first) /* an empty directory: no array to sort (paths may be NULL) */
    qsort(in->paths + first, in->n - first, sizeof *in->paths, by_name);
  return rc;
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

/* skipped (may be NULL): count the matches of a glob that are not regular
 * files instead of naming each on standard error.  indexed: a directory's
 * index stands for the files it covers (dirindex.c). */
static int expand_now(const char *const *args, int nargs, cli_inputs *in, int *skipped,
                      int indexed, pcol_error *err) {
  memset(in, 0, sizeof *in);
  if (nargs < 1) return pcol_error_set(err, PCOL_EINVAL, "expected a FILE");
  int seen_stdin = 0;
  for (int i = 0; i < nargs; i++) {
    const char *s = args[i];
    struct stat st;
    int rc = 0;
    if (!strcmp(s, "-") && seen_stdin++)
      rc = pcol_error_set(err, PCOL_EINVAL, "standard input ('-') can be read only once");
    else if (strcmp(s, "-") && !stat(s, &st) && S_ISDIR(st.st_mode)) {
      size_t before = in->n;
      rc = add_dir(in, s);
      if (rc == NO_DIR) rc = pcol_error_set(err, PCOL_EIO, "cannot read directory '%s'", s);
      else if (!rc && in->n == before)
        rc = pcol_error_set(err, PCOL_EINVAL, "directory '%s' holds no file", s);
      else if (!rc && indexed && before == 0) /* (first: pcol_open_options.first_is_union) */
        rc = use_index(in, s, before);
    } else if (strcmp(s, "-") && stat(s, &st) && strpbrk(s, "*?[")) {
      glob_t g;
      int gr = glob(s, 0, NULL, &g);
      if (gr == GLOB_NOMATCH) {
        rc = pcol_error_set(err, PCOL_EINVAL, "no file matches '%s'", s);
      } else {
        /* the directory rule: regular files only; each other match named
         * on standard error, none at all refused */
        size_t before = in->n;
        for (size_t k = 0; !gr && !rc && k < g.gl_pathc; k++) {
          if (regular(g.gl_pathv[k])) rc = add(in, strdup(g.gl_pathv[k]));
          else if (skipped) (*skipped)++;
          else {
            fputs("pcol: warning: skipped '", stderr);
            cli_print_cstr(stderr, g.gl_pathv[k]);
            fputs("' (matched by '", stderr);
            cli_print_cstr(stderr, s);
            fputs("'): not a regular file\n", stderr);
          }
        }
        if (!gr) globfree(&g);
        if (gr) rc = gr == GLOB_NOSPACE ? NO_MEMORY
                                        : pcol_error_set(err, PCOL_EIO, "cannot expand '%s'", s);
        else if (!rc && in->n == before)
          rc = pcol_error_set(err, PCOL_ENOTFOUND, "no regular file matches '%s'", s);
      }
    } else {
      rc = add(in, strdup(s)); /* a file, or a name the open will say is missing */
    }
    if (rc == NO_MEMORY) rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    if (rc) {
      inputs_free(in);
      return rc;
    }
  }
  return PCOL_OK;
}

static int inputs_copy(const cli_inputs *from, cli_inputs *to) {
  *to = *from;
  to->paths = calloc(from->n ? from->n : 1, sizeof *to->paths);
  to->cap = from->n;
  for (size_t i = 0; to->paths && i < from->n; i++) {
    if (!(to->paths[i] = strdup(from->paths[i]))) {
      to->n = i;
      inputs_free(to);
      return NO_MEMORY;
    }
    if (from->paths[i] == from->index) to->index = to->paths[i];
  }
  if (!to->paths) return NO_MEMORY;
  return 0;
}

/* The last expansion that read a directory's index, kept: `top` asks
 * twice when pcol_top_many leaves the answer to the union (one input: the
 * index), and the second would stat every file it covers again.  Kept by
 * the arguments' text (diff asks for its two sides from one array), and
 * only when no glob match was skipped (the second asking names them). */
static struct {
  char **args;
  int nargs;
  cli_inputs in;
} kept;

static int kept_for(const char *const *args, int nargs) {
  if (!kept.args || kept.nargs != nargs) return 0;
  for (int i = 0; i < nargs; i++)
    if (strcmp(kept.args[i], args[i])) return 0;
  return 1;
}

static void keep(const char *const *args, int nargs, const cli_inputs *in) {
  char **a = calloc((size_t)nargs, sizeof *a);
  int i = 0;
  for (; a && i < nargs && (a[i] = strdup(args[i])); i++) {}
  if (a && i == nargs && !inputs_copy(in, &kept.in)) {
    kept.args = a;
    kept.nargs = nargs;
    return;
  }
  for (int j = 0; a && j < i; j++) free(a[j]);
  free(a);
}

static int expand(const char *const *args, int nargs, cli_inputs *in, int *skipped, int indexed,
                  pcol_error *err) {
  if (indexed && kept_for(args, nargs))
    return inputs_copy(&kept.in, in) ? pcol_error_set(err, PCOL_ENOMEM, "out of memory") : PCOL_OK;
  int rc = expand_now(args, nargs, in, skipped, indexed, err);
  if (!rc && in->index && !kept.args && (!skipped || !*skipped)) keep(args, nargs, in);
  return rc;
}

int cli_expand_args(const char *const *args, int nargs, char ***paths, size_t *n,
                    pcol_error *err) {
  cli_inputs in;
  int rc = expand(args, nargs, &in, NULL, 0, err);
  *paths = rc ? NULL : in.paths;
  *n = rc ? 0 : in.n;
  return rc;
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
  return opt;
}

/* Whether a directory's index may stand for its files: not when a
 * wall-clock range leaves out the inputs it cannot reach unread (as
 * pcol_open_many and pcol_top_many do), which an index cannot;
 * PCOL_NO_INDEX=1 reads the files (the tests compare the two). */
static int index_may(const pcol_select *sel) {
  const char *no = getenv("PCOL_NO_INDEX");
  if (no && *no && strcmp(no, "0")) return 0;
  return !(sel && sel->wall && (sel->has_from || sel->has_to) && !sel->source_id);
}

/* PCOL_DEBUG=inputs: how many inputs a view read (bench/many.sh counts
 * them), and whether each on its own (cli_top_many: threads >= 1) and on
 * how many threads */
static void debug_inputs(const cli_command *cmd, size_t used, const cli_inputs *in,
                         size_t threads) {
  const char *dbg = getenv("PCOL_DEBUG");
  if (!dbg || !strstr(dbg, "inputs")) return;
  fprintf(stderr, "pcol %s: debug: read %zu of %zu inputs", cmd->name, used, in->n);
  if (in->index) fprintf(stderr, " (1 an index of %zu files)", in->covered);
  if (threads > 1) fprintf(stderr, ", each on its own, on %zu threads\n", threads);
  else fprintf(stderr, "%s\n", threads ? ", each on its own" : "");
}

/* Set while a comparison opens its two sides: cli_open_args leaves
 * --tagroot/--tagleaf to tag_frames_pair. */
static int cli_tag_frames_later;

/* --tagroot's numbers named in the view's --unit, as pprof's frames in
 * -unit's (driver.go: addLabelNodes(..., cfg.Unit)); auto is pprof's
 * minimum (NULL) */
static const char *tag_unit(const cli_command *cmd, const cli_args *a) {
  const char *unit = cli_get(cmd, a, "unit");
  return unit && strcmp(unit, "auto") ? unit : NULL;
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
  cli_inputs in;
  int skipped = 0;
  int bad = expand(args, nargs, &in, &skipped, index_may(sel), err);
  if (bad || skipped) { /* the union's open says it */
    if (!bad) inputs_free(&in);
    memset(err, 0, sizeof *err);
    return PCOL_OK;
  }
  pcol_open_options opt = cli_open_options(cmd, a);
  opt.given_bytes = given_bytes(&in);
  opt.first_is_union = in.index != NULL;
  pcol_many_top info;
  size_t shown = limit < SIZE_MAX ? (size_t)limit : SIZE_MAX;
  int rc = pcol_top_many((const char *const *)in.paths, in.n, &opt, sel, cli_get(cmd, a, "value"),
                         by, fraction, order, shown, t, dropped, cutoff, &info, err);
  if (!rc && info.answered) {
    *answered = 1;
    *f = info.file;
    if (ht) *ht = (cli_header_time){info.time_ns, info.duration_ns, info.comments, info.ncomments};
    *label = make_label(args, nargs);
    cli_budget_bytes(*label, info.input_bytes);
    debug_inputs(cmd, info.used, &in, info.threads ? info.threads : 1);
  }
  inputs_free(&in);
  return rc;
}

cli_loaded_opts cli_loaded;

/* THE open of a command's inputs (files, directories, globs: their union)
 * named label; the base of --base/--diff-base is opened so too */
static int open_inputs(const cli_command *cmd, const cli_args *a, const char *const *args,
                       int nargs, const pcol_select *sel, const char *label, pcol_file **f,
                       pcol_error *err) {
  cli_inputs in;
  int rc = expand(args, nargs, &in, NULL, index_may(sel), err);
  if (rc) return rc;
  pcol_open_options opt = cli_open_options(cmd, a);
  opt.given_bytes = given_bytes(&in);
  opt.first_is_union = in.index != NULL;
  opt.names = cli_fetched_names((const char *const *)in.paths, in.n);
  size_t used = 0;
  /* any input format: a pcol file is mapped, another is converted in memory
   * ("-": standard input, read whole); many: their union in memory */
  rc = pcol_open_many((const char *const *)in.paths, in.n, &opt, sel, f, &used, err);
  if (rc) {
    const char *shown = in.n == 1 ? cli_input_name(in.paths[0]) : NULL;
    if (shown && !strstr(err->message, shown)) pcol_error_prefix(err, shown);
  } else {
    cli_import_warning(cmd->name, err);
    cli_budget_input(label, *f);
    debug_inputs(cmd, used, &in, 0);
  }
  inputs_free(&in);
  return rc;
}

int cli_open_args(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
                  const pcol_select *sel, pcol_file **f, const char **label, pcol_error *err) {
  *f = NULL;
  *label = make_label(args, nargs);
  int rc = open_inputs(cmd, a, args, nargs, sel, *label, f, err);
  if (rc) return rc;
  const char *dbase = cli_get(cmd, a, "diff-base"), *base = dbase ? dbase : cli_get(cmd, a, "base");
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
      rc = pcol_open_diff_base(*f, bf, flags, &u, err);
      if (rc) pcol_error_prefix(err, cli_input_name(base));
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

/* go tool pprof's warnings after its filters (pcol_filter_warnings: of the
 * n files, a profile and its base merged), after the label units' */
static void warn_filters(const cli_command *cmd, pcol_file *const *f, size_t n, const pcol_select *sel) {
  pcol_error e = {0};
  char small[512], *b = small; /* (the lines quote the ranges given: asked again when longer) */
  size_t len = pcol_filter_warnings(f, n, sel, b, sizeof small, &e);
  if (len > sizeof small && (b = malloc(len)) != NULL) len = pcol_filter_warnings(f, n, sel, b, len, &e);
  if (!b) return;
  for (size_t i = 0, j; i < len && i < (b == small ? sizeof small : len); i = j + 1) {
    for (j = i; j < len && b[j] != '\n'; j++) {}
    fprintf(stderr, "pcol %s: warning: ", cmd->name);
    cli_print_str(stderr, (pcol_str){b + i, j - i});
    fputc('\n', stderr);
  }
  if (b != small) free(b);
}

/* go tool pprof's warning before each report (driver.go
 * identifyNumLabelUnits): a numeric label key given in several units,
 * one line a key, as pprof words it, after the inputs' name */
static void warn_label_units(const cli_command *cmd, pcol_file *f, const char *label) {
  pcol_error e = {0};
  size_t n = pcol_label_unit_warnings(f, NULL, 0, &e);
  char *b = n ? malloc(n + 1) : NULL;
  if (!b) return;
  n = pcol_label_unit_warnings(f, b, n, &e);
  b[n] = 0;
  for (char *line = b, *nl; *line; line = nl + 1) {
    if (!(nl = strchr(line, '\n'))) break;
    *nl = 0;
    fprintf(stderr, "pcol %s: warning: ", cmd->name);
    cli_print_cstr(stderr, label);
    fputs(": ", stderr);
    cli_print_cstr(stderr, line);
    fputc('\n', stderr);
  }
  free(b);
}

int cli_load(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
             const pcol_select *sel, pcol_file **f, pcol_value_sel *v, const char **label,
             pcol_error *err) {
  int rc = cli_open_args(cmd, a, args, nargs, sel, f, label, err);
  if (rc) return rc;
  warn_label_units(cmd, *f, *label);
  /* top --by label:KEY's filters see pprof -tagroot=KEY's frames (its
   * rows: pcol_top_by_label), and so do their warnings: "^KEY$" matches
   * every frame's file, a value its name (the frames made only for a name
   * filter: the copy reads the whole file) */
  const char *bys = cli_get(cmd, a, "by");
  pcol_file *framed = NULL;
  pcol_error fe = {0};
  int names = sel && (sel->focus || sel->ignore || sel->hide || sel->show || sel->show_from);
  if (names && bys && !strncmp(bys, "label:", 6) &&
      pcol_open_tag_frames(*f, bys + 6, NULL, tag_unit(cmd, a), &framed, &fe))
    framed = NULL; /* (the view says what fails) */
  warn_filters(cmd, framed ? &framed : f, 1, sel);
  pcol_close(framed);
  if ((rc = pcol_value_resolve(*f, sel, cli_get(cmd, a, "value"), v, err))) {
    pcol_error_prefix(err, *label);
    pcol_close(*f);
    *f = NULL;
    return rc;
  }
  cli_warn_value(cmd, *f, sel, v, cli_get(cmd, a, "value") != NULL, *label);
  cli_warn_range(cmd, *f, sel, *label);
  return PCOL_OK;
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
  for (int i = 0; i < 2 && !rc; i++) warn_label_units(cmd, f[i], label[i]);
  if (!rc) warn_filters(cmd, f, 2, sel);
  for (int i = 0; i < 2 && !rc; i++) {
    if ((rc = pcol_value_resolve(f[i], sel, cli_get(cmd, a, "value"), &v[i], err)))
      pcol_error_prefix(err, label[i]);
    else
    {
      cli_warn_value(cmd, f[i], sel, &v[i], cli_get(cmd, a, "value") != NULL, label[i]);
      cli_warn_range(cmd, f[i], sel, label[i]);
    }
  }
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

void cli_import_warning(const char *cmd, pcol_error *err) {
  if (err->code == PCOL_OK) /* a line each (pcol_open_tag_frames' two) */
    for (const char *m = err->message, *nl; *m; m = nl ? nl + 1 : m + strlen(m)) {
      nl = strchr(m, '\n');
      fprintf(stderr, "pcol %s: warning: %.*s\n", cmd, (int)(nl ? (size_t)(nl - m) : strlen(m)), m);
    }
  err->message[0] = 0;
}

pcol_format cli_input_format(const char *path) {
  struct stat st; /* standard input, a FIFO, `<(cmd)`: cannot look without reading it */
  if (!strcmp(path, "-") || (!stat(path, &st) && !S_ISREG(st.st_mode))) return PCOL_FMT_UNKNOWN;
  return pcol_detect_path(path);
}
