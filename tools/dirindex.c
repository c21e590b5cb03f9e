/* dirindex.c — `pcol index DIR`: a directory's index, the union of its
 * first files written once beside them, so that a reading command of the
 * directory reads that one file and the files that came after it instead
 * of every file.  The index's files, their list and when a reader uses the
 * index are the library's rule (lib/core/inputs.c: pcol_inputs_expand
 * reads it in place of the files, pcol_dir_index_covers says how many it
 * stands for, pcol_dir_index_write_list writes the list); here: the lock,
 * the files it covers (none changed within the last 2 s, so a file still
 * being written, or written again within the clock's tick, is read on its
 * own instead), the union written (the old index and the new files: the
 * same union, `pcol_import_options.first_is_union`) and what is said.
 *
 * Readers that do not use it: a wall-clock --from/--to (the files outside
 * the range are left out unread, which an index cannot do), validate
 * (which checks the files themselves), pack, merge and export (which read
 * their inputs whole). */
#include "cli.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INDEX_FILE PCOL_INDEX_FILE
#define RACY_NS 2000000000ull /* files changed this recently are left out */

/* ---------------------------------------------------------- pcol index */
const cli_opt opts_index[] = {CLI_OPT_NO_MMAP, {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_index);

static uint64_t ns_of(struct timespec t) {
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* after each input: its warning printed, or which one failed, named */
typedef struct index_inputs {
  char **in;
  size_t failed;
} index_inputs;
static int after_index_input(void *ctx, size_t i, int rc, pcol_error *err) {
  index_inputs *x = ctx;
  if (!rc) {
    cli_import_warning("index", err);
    return rc;
  }
  x->failed = i;
  const char *shown = cli_input_name(x->in[i]);
  if (!strstr(err->message, shown)) pcol_error_prefix(err, shown);
  return rc;
}

/* 0 (no index kept), and a note that the old one is made again */
static size_t damaged(const char *dir, const pcol_error *why) {
  fputs("pcol index: note: the index of '", stderr);
  cli_print_cstr(stderr, dir);
  fprintf(stderr, "' is damaged (%s): made again from the files\n", why->message);
  return 0;
}

/* One directory: its index written or renewed.  An exit code. */
static int index_dir(const cli_command *cmd, const cli_args *a, const char *dir) {
  struct stat st;
  if (stat(dir, &st) || !S_ISDIR(st.st_mode))
    return cli_usage_error(cmd->name, "'%s' is not a directory", dir);
  /* one `pcol index` of a directory at a time (flock on the directory,
   * held to the end): two at once could pair one's list with the other's
   * index */
  int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock < 0 || flock(lock, LOCK_EX)) {
    fprintf(stderr, "pcol index: cannot lock '%s': %s\n", dir, strerror(errno));
    if (lock >= 0) close(lock);
    return EXIT_IO;
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  uint64_t start = ns_of(now);
  pcol_error err = {0};
  char **paths = NULL, *ip = NULL, **in = NULL;
  int ofd = -1; /* the old index (below) */
  size_t n = 0, k = 0, have = 0;
  pcol_file_ident *ids = NULL, ix;
  uint64_t bytes;
  int rc = cli_expand_args(&dir, 1, &paths, &n, &err);
  if (rc) {
    close(lock);
    return cli_fail(cmd->name, &err, rc);
  }
  /* the files it covers: the first ones, up to one changed in the last
   * 2 s (it may still be being written) */
  if (!(ids = calloc(n, sizeof *ids)) || !(in = calloc(n + 1, sizeof *in)) ||
      !(ip = pcol_path_join(dir, INDEX_FILE))) {
    fputs("pcol index: out of memory\n", stderr);
    rc = EXIT_IO;
    goto done;
  }
  struct stat ist; /* written by rename only: not through a link or into a device */
  if (!lstat(ip, &ist) && !S_ISREG(ist.st_mode)) {
    fputs("pcol index: '", stderr);
    cli_print_cstr(stderr, ip);
    fputs("' is not a regular file: remove it first\n", stderr);
    rc = EXIT_IO;
    goto done;
  }
  for (; k < n; k++)
    if (!pcol_file_ident_of(paths[k], &ids[k]) || ids[k].ctime_ns + RACY_NS > start) break;
  const char *why;
  /* the old index, read through the descriptor checked against its list
   * (another `pcol index` may rename a new one over it meanwhile) */
  char old[32];
  bool spelled = 0;
  have = pcol_dir_index_covers(dir, paths, n, &bytes, &why, &ofd, &spelled);
  snprintf(old, sizeof old, "/dev/fd/%d", ofd);
  if (have > k) have = 0; /* (a clock set back) */
  if (have && have == k) { /* up to date if it is whole (renewing validates it as it reads it) */
    pcol_file *f = NULL;
    pcol_error verr = {0};
    int bad = pcol_open(old, NULL, &f, &verr);
    if (!bad) bad = pcol_validate_full(f, &verr);
    pcol_close(f);
    if (bad) have = damaged(dir, &verr);
  }
  if (k < 2 || have == k) {
    cli_print_cstr(stdout, dir);
    printf(": %s (it covers %zu of %zu files%s)\n",
           k < 2 ? "nothing to index" : "the index is up to date", have, n,
           k < n ? "; a file changed within 2 s (its change time, ls -lc: a copy or touch is a change) and those after it are read on their own; run it again in 2 s" : "");
    rc = EXIT_OK;
    goto done;
  }
  for (;;) {
    /* the old index and the files after it: the same union (see the top) */
    size_t nin = 0;
    if (have) in[nin++] = old;
    else spelled = 0;
    for (size_t i = have; i < k; i++) {
      in[nin++] = paths[i];
      spelled |= cli_input_format(paths[i]) != PCOL_FMT_PCOL; /* its path names its source */
    }
    pcol_builder *b = NULL;
    pcol_import_options iopt = {0};
    iopt.no_mmap = cli_flag(cmd, a, "no-mmap");
    iopt.symbolize = cli_symbolize_options(cmd, a);
    iopt.first_is_union = have > 0;
    pcol_write_options wopt = {0};
    wopt.validate = 1; /* as merge: read back and checked before the rename */
    index_inputs x = {in, SIZE_MAX};
    rc = pcol_builder_new(&b, &err);
    if (!rc) rc = pcol_import_paths(b, (const char *const *)in, nin, PCOL_FMT_UNKNOWN, &iopt,
                                    after_index_input, &x, &err);
    if (!rc) rc = pcol_builder_write(b, ip, &wopt, &err);
    pcol_builder_free(b);
    if (!rc || !have || x.failed != 0) break;
    have = damaged(dir, &err); /* the old index refused: made again from the files */
    memset(&err, 0, sizeof err);
  }
  if (rc) {
    rc = cli_fail(cmd->name, &err, rc);
    goto done;
  }
  if (!pcol_file_ident_of(ip, &ix))
    rc = pcol_error_set(&err, PCOL_EIO, "cannot write the list of '%s': %s", dir, strerror(errno));
  else
    rc = pcol_dir_index_write_list(dir, &ix, spelled, paths, ids, k, &err);
  if (rc) {
    rc = cli_fail(cmd->name, &err, PCOL_EIO);
    goto done;
  }
  cli_print_cstr(stdout, dir);
  printf(": " INDEX_FILE " covers %zu of %zu files (%zu read now%s)\n", k, n, k - have,
         k < n ? "; a file changed within 2 s (its change time, ls -lc) and those after it are read on their own" : "");
  rc = EXIT_OK;
done:
  if (ofd >= 0) close(ofd);
  close(lock);
  cli_expand_free(paths, n);
  free(ids);
  free(in);
  free(ip);
  return rc;
}

int cmd_index(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a DIRECTORY");
  int rc = EXIT_OK;
  for (int i = 0; i < a->npos && rc == EXIT_OK; i++) rc = index_dir(cmd, a, a->pos[i]);
  return rc;
}
