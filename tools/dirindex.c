/* dirindex.c — a directory's index: the union of its first files, written
 * once beside them, so that a reading command of the directory reads that
 * one file and the files that came after it instead of every file
 * (`pcol index DIR`; inputs.c substitutes it).
 *
 * Two files in DIR, both dot files (so never read as inputs themselves):
 *   .pcol-index.pcol  what `pcol merge` writes of the first k files of DIR
 *                     (regular files, sorted by name: the order every
 *                     reading command takes them in);
 *   .pcol-index.list  which files those are, and the index's own identity:
 *                       pcol-index 1
 *                       index SIZE MTIME_NS CTIME_NS INODE
 *                       dir SPELLED DIR      (DIR as given, no trailing '/'; SPELLED 1:
 *                                             some file is in another format, and the
 *                                             source made of it is named by its path)
 *                       SIZE MTIME_NS CTIME_NS INODE NAME      (k lines)
 *                       end K                                  (K = k)
 *                     NAME with '\' and newline escaped as \\ and \n.
 *
 * Exact by construction: the union of the index and the files after it is
 * the union of all the files, table for table, since the union of unions
 * is the union of their inputs in order (`pcol merge` of a merge and more
 * files writes the bytes `pcol merge` of all of them writes; t_index.sh
 * checks it, and every view of a directory with and without its index).
 * It is used only when it still stands for the files: its k entries are
 * the first k files of DIR, each with the size, modification and change
 * times (ns) and inode it had when it was read, and the index itself is
 * the file the list names; else the files are read and a note says why.
 * The change time moves on every write and cannot be set back by a user,
 * and `pcol index` covers no file changed within the last 2 s, so a file
 * still being written (or written again within the clock's tick) is read
 * on its own instead.
 *
 * Not used: for a wall-clock --from/--to (the files outside the range are
 * left out unread, which an index cannot do), by validate (which checks the
 * files themselves), pack, merge and export (which read their inputs
 * whole).  Bounds: the list is read only up to 1 KiB a file of DIR. */
#include "cli.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INDEX_FILE CLI_INDEX_FILE
#define LIST_FILE ".pcol-index.list"
#define LIST_MAGIC "pcol-index 1\n"
#define RACY_NS 2000000000ull /* files changed this recently are left out */
#define MAX_NAME 4096
#define LIST_BYTES_PER_FILE 1024

typedef struct ident {
  uint64_t size, mtime, ctime, ino;
} ident;

static uint64_t ns_of(struct timespec t) {
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* 0 and *id, or -1 (not a regular file, or no stat) */
static int ident_st(const struct stat *st, ident *id) {
  if (!S_ISREG(st->st_mode) || st->st_size < 0) return -1;
  id->size = (uint64_t)st->st_size;
  id->mtime = ns_of(st->st_mtim);
  id->ctime = ns_of(st->st_ctim);
  id->ino = (uint64_t)st->st_ino;
  return 0;
}
static int fident_of(int fd, ident *id) {
  struct stat st;
  return fstat(fd, &st) ? -1 : ident_st(&st, id);
}
static int ident_of(const char *path, ident *id) {
  struct stat st;
  return stat(path, &st) ? -1 : ident_st(&st, id);
}
/* name in the directory open as dfd (no walk of the directory's path a file) */
static int ident_at(int dfd, const char *name, ident *id) {
  struct stat st;
  return fstatat(dfd, name, &st, 0) ? -1 : ident_st(&st, id);
}
static int ident_eq(const ident *a, const ident *b) {
  return a->size == b->size && a->mtime == b->mtime && a->ctime == b->ctime && a->ino == b->ino;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* --------------------------------------------------------- the list */
typedef struct list_reader {
  const char *p, *end;
} list_reader;

/* a decimal u64 then one space or the end of the line (not taken) */
static int read_u64(list_reader *r, uint64_t *v) {
  uint64_t x = 0;
  const char *s = r->p;
  if (s >= r->end || *s < '0' || *s > '9') return -1;
  for (; s < r->end && *s >= '0' && *s <= '9'; s++) {
    if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) return -1;
    x = x * 10 + (uint64_t)(*s - '0');
  }
  if (s < r->end && *s == ' ') s++;
  else if (s >= r->end || *s != '\n') return -1;
  r->p = s;
  *v = x;
  return 0;
}

static int read_ident(list_reader *r, ident *id) {
  return read_u64(r, &id->size) || read_u64(r, &id->mtime) || read_u64(r, &id->ctime) ||
         read_u64(r, &id->ino);
}

/* the rest of the line, unescaped into name (NUL-terminated), the newline
 * taken; '/' only when path (a directory's spelling) */
static int read_text(list_reader *r, char *name, int path) {
  size_t n = 0;
  while (r->p < r->end && *r->p != '\n') {
    char c = *r->p++;
    if (c == '\\') {
      if (r->p >= r->end) return -1;
      c = *r->p++;
      if (c == 'n') c = '\n';
      else if (c != '\\') return -1;
    }
    if (c == 0 || (c == '/' && !path) || n + 1 >= MAX_NAME) return -1;
    name[n++] = c;
  }
  if (r->p >= r->end || n == 0) return -1;
  r->p++;
  name[n] = 0;
  return 0;
}

/* a file's name: read_text without '/' */
static int read_name(list_reader *r, char *name) { return read_text(r, name, 0); }

static int expect(list_reader *r, const char *lit) {
  size_t l = strlen(lit);
  if ((size_t)(r->end - r->p) < l || memcmp(r->p, lit, l)) return -1;
  r->p += l;
  return 0;
}

/* the whole of PATH in *buf when it has at most cap bytes (0), else -1 */
static int read_small(const char *path, size_t cap, char **buf, size_t *len) {
  *buf = NULL;
  /* O_NONBLOCK: a FIFO put in its place is not waited on (then refused) */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat st;
  char *b = NULL;
  size_t n = 0;
  if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= 0 && (uint64_t)st.st_size <= cap &&
      (b = malloc((size_t)st.st_size + 1))) {
    ssize_t r;
    while (n <= (size_t)st.st_size && (r = read(fd, b + n, (size_t)st.st_size + 1 - n)) > 0)
      n += (size_t)r;
    if (n != (size_t)st.st_size) { /* (it changed as it was read) */
      free(b);
      b = NULL;
    }
  }
  close(fd);
  if (!b) return -1;
  *buf = b;
  *len = n;
  return 0;
}

/* dir as the list keeps it: without trailing '/' (the files' paths are
 * the same with them: cli_path_join); NULL when too long */
static const char *spelling(const char *dir, char *out) {
  size_t l = strlen(dir);
  while (l > 1 && dir[l - 1] == '/') l--;
  if (l + 1 > MAX_NAME) return NULL;
  memcpy(out, dir, l);
  out[l] = 0;
  return out;
}

/* How many of paths[0..n) (DIR's files, as add_dir lists them) the index
 * of dir stands for: 0 when it has none, or none that can be used, with
 * *why saying why (NULL: no index at all).  *fd: the index, open (when
 * it stands for some); *spelled: whether its sources name their files by
 * the directory's spelling (a profile in another format takes its path
 * as its source's name), so that the index is used only when dir is
 * spelled as it was then. */
static size_t index_covers(const char *dir, char *const *paths, size_t n, uint64_t *bytes,
                           const char **why, char *name, int *fd, int *spelled) {
  char as_now[MAX_NAME];
  uint64_t sp = 0;
  *spelled = 0;
  *bytes = 0;
  *why = NULL;
  int ifd = -1, dfd = -1;
  char *ip = cli_path_join(dir, INDEX_FILE), *lp = cli_path_join(dir, LIST_FILE);
  char *buf = NULL;
  size_t len = 0, k = 0;
  ident have, want;
  int has_index = ip && !access(ip, F_OK), has_list = lp && !access(lp, F_OK);
  if (!has_index && !has_list) goto done;
  *why = "its list is missing, too large or unreadable";
  if (!has_list || n > (SIZE_MAX - 4096) / LIST_BYTES_PER_FILE ||
      read_small(lp, 4096 + n * LIST_BYTES_PER_FILE, &buf, &len))
    goto done;
  list_reader r = {buf, buf + len};
  *why = "its list is damaged";
  if (expect(&r, LIST_MAGIC) || expect(&r, "index ") || read_ident(&r, &want) || expect(&r, "\n") ||
      expect(&r, "dir ") || read_u64(&r, &sp) || sp > 1 || read_text(&r, name, 1))
    goto done;
  *spelled = (int)sp;
  *why = "it was made for the directory spelled otherwise, and its sources name their files so";
  if (sp && (!spelling(dir, as_now) || strcmp(as_now, name))) goto done;
  *why = "it was made again or changed after its list";
  if (!has_index || (ifd = open(ip, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0 ||
      fident_of(ifd, &have) || !ident_eq(&have, &want))
    goto fail;
  uint64_t sum = 0;
  *why = "its directory cannot be read";
  if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) goto fail;
  for (; r.p < r.end && *r.p != 'e'; k++) {
    ident fi;
    *why = "its list is damaged";
    if (read_ident(&r, &want) || read_name(&r, name)) goto fail;
    *why = "a file it covers is gone or renamed (or one was added before it)";
    if (k >= n || strcmp(base_name(paths[k]), name)) goto fail;
    *why = "a file it covers changed since";
    if (ident_at(dfd, name, &fi) || !ident_eq(&fi, &want)) goto fail;
    sum += fi.size;
  }
  uint64_t count; /* the last line: a list cut short, or missing lines, is seen */
  *why = "its list is damaged";
  if (expect(&r, "end ") || read_u64(&r, &count) || expect(&r, "\n") || r.p != r.end ||
      count != k)
    goto fail;
  *bytes = sum;
  *why = k < 2 ? "it covers fewer than two files" : NULL;
  if (k < 2) goto fail;
  *fd = ifd, ifd = -1; /* the caller's */
  goto done;
fail:
  k = 0;
done:
  if (ifd >= 0) close(ifd);
  if (dfd >= 0) close(dfd);
  free(buf);
  free(ip);
  free(lp);
  return k;
}

int cli_dir_index(const char *dir, char *const *paths, size_t n, size_t *k, char **index,
                  uint64_t *bytes) {
  *k = 0;
  *index = NULL;
  *bytes = 0;
  char name[MAX_NAME];
  const char *why;
  int fd = -1, spelled;
  size_t c = index_covers(dir, paths, n, bytes, &why, name, &fd, &spelled);
  char buf[32];
  snprintf(buf, sizeof buf, "/dev/fd/%d", fd);
  if (c && access(buf, R_OK)) { /* (no /dev/fd: /proc not mounted) */
    why = "/dev/fd, which it is read through, is missing";
    close(fd);
    c = 0;
  }
  /* once: `top` may expand its inputs twice (pcol_top_many, then the
   * union's open) */
  static char noted[MAX_NAME];
  char as_now[MAX_NAME];
  const char *sp = spelling(dir, as_now);
  if (why && !(sp && !strcmp(noted, sp))) {
    if (sp) snprintf(noted, sizeof noted, "%s", sp);
    fputs("pcol: note: the index of '", stderr);
    cli_print_cstr(stderr, dir);
    fprintf(stderr, "' is not used: %s (`pcol index` renews it)\n", why);
  }
  if (!c) return 0;
  /* read through the descriptor checked against the list, open until the
   * process ends: an index renewed meanwhile (renamed over this one, and
   * standing for more files) is not the one read */
  if (!(*index = strdup(buf))) {
    close(fd);
    return -1;
  }
  *k = c;
  return 0;
}

/* ---------------------------------------------------------- pcol index */
const cli_opt opts_index[] = {CLI_OPT_NO_MMAP, {NULL, 0, 0, NULL}};

static void put_ident(FILE *fp, const ident *id) {
  fprintf(fp, "%llu %llu %llu %llu", (unsigned long long)id->size, (unsigned long long)id->mtime,
          (unsigned long long)id->ctime, (unsigned long long)id->ino);
}

static void put_name(FILE *fp, const char *s) {
  for (; *s; s++) {
    if (*s == '\\') fputs("\\\\", fp);
    else if (*s == '\n') fputs("\\n", fp);
    else fputc(*s, fp);
  }
}

/* The list of the index just written (ident ix) and its k files, written
 * to a temporary file and renamed into place.  0 or an errno. */
static int write_list(const char *dir, const ident *ix, int spelled, char *const *paths,
                      const ident *ids, size_t k) {
  char sp[MAX_NAME];
  if (!spelling(dir, sp)) return ENAMETOOLONG;
  char *lp = cli_path_join(dir, LIST_FILE), *tp = cli_path_join(dir, LIST_FILE ".XXXXXX");
  int rc = ENOMEM, fd = -1;
  FILE *fp = NULL;
  if (!lp || !tp) goto done;
  mode_t um = umask(0); /* readable as the index is (mkstemp makes 0600) */
  umask(um);
  if ((fd = mkostemp(tp, O_CLOEXEC)) < 0 || fchmod(fd, 0666 & ~um) || !(fp = fdopen(fd, "w"))) {
    rc = errno;
    if (fd >= 0) close(fd), unlink(tp);
    goto done;
  }
  fputs(LIST_MAGIC "index ", fp);
  put_ident(fp, ix);
  fprintf(fp, "\ndir %d ", spelled);
  put_name(fp, sp);
  fputc('\n', fp);
  for (size_t i = 0; i < k; i++) {
    put_ident(fp, &ids[i]);
    fputc(' ', fp);
    put_name(fp, base_name(paths[i]));
    fputc('\n', fp);
  }
  fprintf(fp, "end %zu\n", k);
  rc = fflush(fp) || ferror(fp) || fsync(fileno(fp)) ? errno : 0;
  if (fclose(fp) && !rc) rc = errno;
  if (!rc && rename(tp, lp)) rc = errno;
  if (rc) unlink(tp);
done:
  free(lp);
  free(tp);
  return rc;
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
  ident *ids = NULL, ix;
  uint64_t bytes;
  int rc = cli_expand_args(&dir, 1, &paths, &n, &err);
  if (rc) {
    close(lock);
    return cli_fail(cmd->name, &err, rc);
  }
  /* the files it covers: the first ones, up to one changed in the last
   * 2 s (it may still be being written) */
  if (!(ids = calloc(n, sizeof *ids)) || !(in = calloc(n + 1, sizeof *in)) ||
      !(ip = cli_path_join(dir, INDEX_FILE))) {
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
    if (ident_of(paths[k], &ids[k]) || ids[k].ctime + RACY_NS > start) break;
  const char *why;
  char name[MAX_NAME];
  /* the old index, read through the descriptor checked against its list
   * (another `pcol index` may rename a new one over it meanwhile) */
  char old[32];
  int spelled = 0;
  have = index_covers(dir, paths, n, &bytes, &why, name, &ofd, &spelled);
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
  int e = ident_of(ip, &ix) ? errno : write_list(dir, &ix, spelled, paths, ids, k);
  if (e) {
    fprintf(stderr, "pcol index: cannot write the list of '%s': %s\n", dir, strerror(e));
    rc = EXIT_IO;
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
