/* inputs.c — THE rule for the files that command-line-style arguments name
 * (pcol.h, "inputs"): a file, a directory (its regular files by name), a
 * glob pattern left unexpanded by a shell, "-"; and a directory's index
 * (`pcol index`: tools/dirindex.c writes it through
 * pcol_dir_index_write_list), read in place of the files it stands for.
 * The CLI (tools/inputs.c) and the bindings (bindings/common/pcolb.c: R,
 * Python, DuckDB) expand their arguments here.  Prints nothing: what it
 * has to say (an index not used and why, glob matches skipped) it leaves
 * in pcol_inputs as text, paths escaped (pcol_text_char).
 *
 * The index is two dot files in DIR (so never read as inputs themselves):
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
 * is the union of their inputs in order (tests/cli/t_index.sh checks it).
 * It is used only when it still stands for the files: its k entries are
 * the first k files of DIR, each with the size, modification and change
 * times (ns) and inode it had when it was read, and the index itself is
 * the file the list names; else the files are read and a note says why.
 * The change time moves on every write and cannot be set back by a user,
 * and `pcol index` covers no file changed within the last 2 s, so a file
 * still being written is read on its own instead.  Bounds: the list is
 * read only up to 1 KiB a file of DIR, names up to 4 KiB. */
#include "pcol.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIST_MAGIC "pcol-index 1\n"
#define MAX_NAME 4096
#define LIST_BYTES_PER_FILE 1024

enum { NO_MEMORY = 1, NO_DIR = 2 }; /* positive: never a PCOL_E* code */

static int oom(pcol_error *err) { return pcol_error_set(err, PCOL_ENOMEM, "out of memory"); }

char *pcol_path_join(const char *dir, const char *name) {
  size_t dl = strlen(dir), l = dl + 1 + strlen(name) + 1;
  while (dl > 1 && dir[dl - 1] == '/') dl--; /* "d//" as "d" (the index's spelling) */
  char *p = malloc(l);
  if (p) snprintf(p, l, "%.*s%s%s", (int)dl, dir, dl && dir[dl - 1] == '/' ? "" : "/", name);
  return p;
}

/* ------------------------------------------------------------ idents */

static uint64_t ns_of(struct timespec t) {
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* 0 and *id, or -1 (not a regular file) */
static int ident_st(const struct stat *st, pcol_file_ident *id) {
  if (!S_ISREG(st->st_mode) || st->st_size < 0) return -1;
  id->size = (uint64_t)st->st_size;
  id->mtime_ns = ns_of(st->st_mtim);
  id->ctime_ns = ns_of(st->st_ctim);
  id->ino = (uint64_t)st->st_ino;
  return 0;
}
static int fident_of(int fd, pcol_file_ident *id) {
  struct stat st;
  return fstat(fd, &st) ? -1 : ident_st(&st, id);
}
bool pcol_file_ident_of(const char *path, pcol_file_ident *id) {
  struct stat st;
  return !stat(path, &st) && !ident_st(&st, id);
}
/* name in the directory open as dfd (no walk of the directory's path a file) */
static int ident_at(int dfd, const char *name, pcol_file_ident *id) {
  struct stat st;
  return fstatat(dfd, name, &st, 0) ? -1 : ident_st(&st, id);
}
static int ident_eq(const pcol_file_ident *a, const pcol_file_ident *b) {
  return a->size == b->size && a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns &&
         a->ino == b->ino;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* dir as the list keeps it: without trailing '/' (the files' paths are
 * the same with them: pcol_path_join); NULL when too long */
static const char *spelling(const char *dir, char *out) {
  size_t l = strlen(dir);
  while (l > 1 && dir[l - 1] == '/') l--;
  if (l + 1 > MAX_NAME) return NULL;
  memcpy(out, dir, l);
  out[l] = 0;
  return out;
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

static int read_ident(list_reader *r, pcol_file_ident *id) {
  return read_u64(r, &id->size) || read_u64(r, &id->mtime_ns) || read_u64(r, &id->ctime_ns) ||
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

/* covers' why when DIR is spelled otherwise than when indexed (use_index
 * names the spelling it was made for) */
static const char SPELLED_OTHERWISE[] =
    "it was made for the directory spelled otherwise, and its sources name their files so";

/* The spelling DIR's index list was made for (its "dir 1 NAME" line) in
 * out (MAX_NAME bytes); NULL when it has none or cannot be read. */
static const char *index_spelled_as(const char *dir, char *out) {
  enum { HEAD = 512 + 2 * MAX_NAME }; /* the magic, the index's line, "dir 1 NAME" escaped */
  char *lp = pcol_path_join(dir, PCOL_INDEX_LIST), *buf = malloc(HEAD);
  int fd = lp && buf ? open(lp, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
  ssize_t len = fd >= 0 ? pread(fd, buf, HEAD, 0) : -1;
  pcol_file_ident want;
  uint64_t sp = 0;
  const char *got = NULL;
  if (len > 0) {
    list_reader r = {buf, buf + len};
    if (!expect(&r, LIST_MAGIC) && !expect(&r, "index ") && !read_ident(&r, &want) && !expect(&r, "\n") &&
        !expect(&r, "dir ") && !read_u64(&r, &sp) && sp == 1 && !read_text(&r, out, 1))
      got = out;
  }
  if (fd >= 0) close(fd);
  free(buf);
  free(lp);
  return got;
}

size_t pcol_dir_index_covers(const char *dir, char *const *paths, size_t n, uint64_t *bytes,
                             const char **why, int *fd, bool *spelled) {
  char as_now[MAX_NAME], name[MAX_NAME];
  uint64_t sp = 0;
  *spelled = 0;
  *bytes = 0;
  *why = NULL;
  *fd = -1;
  int ifd = -1, dfd = -1;
  char *ip = pcol_path_join(dir, PCOL_INDEX_FILE), *lp = pcol_path_join(dir, PCOL_INDEX_LIST);
  char *buf = NULL;
  size_t len = 0, k = 0;
  pcol_file_ident have, want;
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
  *spelled = sp != 0;
  *why = SPELLED_OTHERWISE;
  if (sp && (!spelling(dir, as_now) || strcmp(as_now, name))) goto done;
  *why = "it was made again or changed after its list";
  if (!has_index || (ifd = open(ip, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0 ||
      fident_of(ifd, &have) || !ident_eq(&have, &want))
    goto fail;
  uint64_t sum = 0;
  *why = "its directory cannot be read";
  if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) goto fail;
  for (; r.p < r.end && *r.p != 'e'; k++) {
    pcol_file_ident fi;
    *why = "its list is damaged";
    if (read_ident(&r, &want) || read_text(&r, name, 0)) goto fail;
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
  if (!k) *bytes = 0;
  if (ifd >= 0) close(ifd);
  if (dfd >= 0) close(dfd);
  free(buf);
  free(ip);
  free(lp);
  return k;
}

static void put_ident(FILE *fp, const pcol_file_ident *id) {
  fprintf(fp, "%llu %llu %llu %llu", (unsigned long long)id->size, (unsigned long long)id->mtime_ns,
          (unsigned long long)id->ctime_ns, (unsigned long long)id->ino);
}

static void put_name(FILE *fp, const char *s) {
  for (; *s; s++) {
    if (*s == '\\') fputs("\\\\", fp);
    else if (*s == '\n') fputs("\\n", fp);
    else fputc(*s, fp);
  }
}

int pcol_dir_index_write_list(const char *dir, const pcol_file_ident *ix, bool spelled,
                              char *const *paths, const pcol_file_ident *ids, size_t k,
                              pcol_error *err) {
  char sp[MAX_NAME];
  if (!spelling(dir, sp))
    return pcol_error_set(err, PCOL_EIO, "cannot write the list of '%s': %s", dir, strerror(ENAMETOOLONG));
  char *lp = pcol_path_join(dir, PCOL_INDEX_LIST), *tp = pcol_path_join(dir, PCOL_INDEX_LIST ".XXXXXX");
  int e = ENOMEM, fd = -1;
  FILE *fp = NULL;
  if (!lp || !tp) goto done;
  mode_t um = umask(0); /* readable as the index is (mkstemp makes 0600) */
  umask(um);
  if ((fd = mkostemp(tp, O_CLOEXEC)) < 0 || fchmod(fd, 0666 & ~um) || !(fp = fdopen(fd, "w"))) {
    e = errno;
    if (fd >= 0) close(fd), unlink(tp);
    goto done;
  }
  fputs(LIST_MAGIC "index ", fp);
  put_ident(fp, ix);
  fprintf(fp, "\ndir %d ", spelled ? 1 : 0);
  put_name(fp, sp);
  fputc('\n', fp);
  for (size_t i = 0; i < k; i++) {
    put_ident(fp, &ids[i]);
    fputc(' ', fp);
    put_name(fp, base_name(paths[i]));
    fputc('\n', fp);
  }
  fprintf(fp, "end %zu\n", k);
  e = fflush(fp) || ferror(fp) || fsync(fileno(fp)) ? errno : 0;
  if (fclose(fp) && !e) e = errno;
  if (!e && rename(tp, lp)) e = errno;
  if (e) unlink(tp);
done:
  free(lp);
  free(tp);
  if (e == ENOMEM && (!lp || !tp)) return oom(err);
  return e ? pcol_error_set(err, PCOL_EIO, "cannot write the list of '%s': %s", dir, strerror(e)) : PCOL_OK;
}

/* ---------------------------------------------------------- expansion */

/* s[0..n) escaped (pcol_text_char) at the end of *buf (len, cap); 0 or -1 */
static int put_text(char **buf, size_t *len, size_t *cap, const char *s, int escape) {
  size_t n = strlen(s);
  if (n > (SIZE_MAX - 64) / 4 - *len) return -1;
  size_t need = *len + 4 * n + 2; /* an escape is at most 4 bytes a byte */
  if (need > *cap) {
    size_t c = *cap ? *cap : 128;
    while (c < need) c *= 2;
    char *q = realloc(*buf, c);
    if (!q) return -1;
    *buf = q;
    *cap = c;
  }
  char e[9];
  for (size_t i = 0; i < n;) {
    if (!escape) {
      (*buf)[(*len)++] = s[i++];
      continue;
    }
    size_t k = pcol_text_char(s, n, &i, 0, e);
    memcpy(*buf + *len, e, k);
    *len += k;
  }
  (*buf)[*len] = 0;
  return 0;
}

static int add(pcol_inputs *in, char *p) {
  if (!p) return NO_MEMORY;
  if (in->n == in->cap_) {
    size_t c = in->cap_ ? 2 * in->cap_ : 16;
    char **q = realloc(in->paths, c * sizeof *q);
    if (!q) {
      free(p);
      return NO_MEMORY;
    }
    in->paths = q;
    in->cap_ = c;
  }
  in->paths[in->n++] = p;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rule for the files a directory or a glob pattern names: regular
 * files only, found by stat or a directory entry's type (neither opens
 * anything: a FIFO would block the open, a directory fail it; a link
 * counts as what it names).  1 when P is one. */
static int regular(const char *p) {
  struct stat st;
  return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* a directory's regular files (not those whose name starts with '.'),
 * sorted by name: the order the union's sources get */
static int add_dir(pcol_inputs *in, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return NO_DIR;
  size_t first = in->n;
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char *p = pcol_path_join(dir, e->d_name);
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

/* Whether a directory's index may stand for its files (pcol.h,
 * pcol_inputs_options.index). */
static int index_may(const pcol_inputs_options *opt) {
  if (!opt || !opt->index) return 0;
  const char *no = getenv("PCOL_NO_INDEX");
  if (no && *no && strcmp(no, "0")) return 0;
  const pcol_select *sel = opt->sel;
  return !(sel && sel->wall && (sel->has_from || sel->has_to) && !sel->source_id);
}

/* The first k of DIR's files (paths[0..k)) replaced by DIR's index when it
 * stands for them; else index_note says why, when it has one. */
static int use_index(pcol_inputs *in, const char *dir) {
  char as_now[MAX_NAME];
  const char *why, *sp = spelling(dir, as_now);
  uint64_t bytes;
  int fd;
  bool spelled;
  size_t k = pcol_dir_index_covers(dir, in->paths, in->n, &bytes, &why, &fd, &spelled);
  char dev[32];
  snprintf(dev, sizeof dev, "/dev/fd/%d", fd);
  if (k && access(dev, R_OK)) { /* (no /dev/fd: /proc not mounted) */
    why = "/dev/fd, which it is read through, is missing";
    close(fd);
    k = 0;
  }
  if (!k && !why) return 0;
  if (!(in->index_dir = strdup(sp ? sp : dir))) {
    if (k) close(fd);
    return NO_MEMORY;
  }
  if (!k) {
    size_t len = 0, cap = 0;
    char made[MAX_NAME];
    /* spelled otherwise: say the spelling that uses it; renewing it for
     * this one would only leave the other without (review 16 F8) */
    const char *as = why == SPELLED_OTHERWISE ? index_spelled_as(dir, made) : NULL;
    if (put_text(&in->index_note, &len, &cap, "the index of '", 0) ||
        put_text(&in->index_note, &len, &cap, dir, 1) ||
        put_text(&in->index_note, &len, &cap, "' is not used: ", 0))
      return NO_MEMORY;
    if (as) {
      if (put_text(&in->index_note, &len, &cap, "it was made for the directory spelled '", 0) ||
          put_text(&in->index_note, &len, &cap, as, 1) ||
          put_text(&in->index_note, &len, &cap,
                   "', and its sources in other formats than pcol name their files so: give it as '", 0) ||
          put_text(&in->index_note, &len, &cap, as, 1) ||
          put_text(&in->index_note, &len, &cap,
                   "' to use it (an index of pcol files alone serves any spelling)", 0))
        return NO_MEMORY;
    } else if (put_text(&in->index_note, &len, &cap, why, 0) ||
               put_text(&in->index_note, &len, &cap, " (`pcol index` renews it)", 0))
      return NO_MEMORY;
    return 0;
  }
  char *ip = strdup(dev);
  if (!ip || !(in->index_name = pcol_path_join(dir, PCOL_INDEX_FILE))) {
    free(ip);
    close(fd);
    return NO_MEMORY;
  }
  in->fd_ = fd + 1;
  for (size_t i = 0; i < k; i++) free(in->paths[i]);
  in->paths[0] = ip;
  memmove(in->paths + 1, in->paths + k, (in->n - k) * sizeof *in->paths);
  in->n -= k - 1;
  in->first_is_union = 1;
  in->covered = k;
  in->given_bytes = bytes; /* the others' are added at the end */
  return 0;
}

/* A glob's matches: regular files added, each other one named in
 * in->skipped. */
static int add_glob(pcol_inputs *in, const char *s, size_t *sk_len, size_t *sk_cap,
                    pcol_error *err) {
  glob_t g;
  int gr = glob(s, 0, NULL, &g), rc = 0;
  if (gr == GLOB_NOMATCH) return pcol_error_set(err, PCOL_EINVAL, "no file matches '%s'", s);
  size_t before = in->n;
  for (size_t k = 0; !gr && !rc && k < g.gl_pathc; k++) {
    if (regular(g.gl_pathv[k])) {
      rc = add(in, strdup(g.gl_pathv[k]));
    } else {
      in->nskipped++;
      if (put_text(&in->skipped, sk_len, sk_cap, "skipped '", 0) ||
          put_text(&in->skipped, sk_len, sk_cap, g.gl_pathv[k], 1) ||
          put_text(&in->skipped, sk_len, sk_cap, "' (matched by '", 0) ||
          put_text(&in->skipped, sk_len, sk_cap, s, 1) ||
          put_text(&in->skipped, sk_len, sk_cap, "'): not a regular file\n", 0))
        rc = NO_MEMORY;
    }
  }
  if (!gr) globfree(&g);
  if (gr) return gr == GLOB_NOSPACE ? NO_MEMORY : pcol_error_set(err, PCOL_EIO, "cannot expand '%s'", s);
  if (!rc && in->n == before)
    rc = pcol_error_set(err, PCOL_ENOTFOUND, "no regular file matches '%s'", s);
  return rc;
}

/* The bytes the inputs stand for when an index is among them (the union's
 * budgets, pcol_open_options.given_bytes): its files' and the others' on
 * disk; 0 (the library's own rule) when one input's size is unknown. */
static uint64_t given_bytes(const pcol_inputs *in) {
  uint64_t sum = in->given_bytes;
  for (size_t i = 1; i < in->n; i++) {
    struct stat st;
    if (!strcmp(in->paths[i], "-") || stat(in->paths[i], &st) || !S_ISREG(st.st_mode)) return 0;
    sum += st.st_size > 0 ? (uint64_t)st.st_size : 1;
  }
  return sum;
}

int pcol_inputs_expand(const char *const *args, size_t nargs, const pcol_inputs_options *opt,
                       pcol_inputs *in, pcol_error *err) {
  memset(in, 0, sizeof *in);
  if (nargs < 1) return pcol_error_set(err, PCOL_EINVAL, "expected a FILE");
  int seen_stdin = 0, indexed = index_may(opt);
  size_t sk_len = 0, sk_cap = 0;
  for (size_t i = 0; i < nargs; i++) {
    const char *s = args[i];
    struct stat st;
    int rc = 0;
    if (!strcmp(s, "-") && seen_stdin++) {
      rc = pcol_error_set(err, PCOL_EINVAL, "standard input ('-') can be read only once");
    } else if (strcmp(s, "-") && !stat(s, &st) && S_ISDIR(st.st_mode)) {
      size_t before = in->n;
      in->many = 1;
      rc = add_dir(in, s);
      if (rc == NO_DIR) rc = pcol_error_set(err, PCOL_EIO, "cannot read directory '%s'", s);
      else if (!rc && in->n == before)
        rc = pcol_error_set(err, PCOL_EINVAL, "directory '%s' holds no file", s);
      else if (!rc && indexed && before == 0) /* (first: pcol_open_options.first_is_union) */
        rc = use_index(in, s);
    } else if (strcmp(s, "-") && stat(s, &st) && strpbrk(s, "*?[")) {
      in->many = 1;
      rc = add_glob(in, s, &sk_len, &sk_cap, err);
    } else {
      rc = add(in, strdup(s)); /* a file, or a name the open will say is missing */
    }
    if (rc == NO_MEMORY) rc = oom(err);
    if (rc) { /* what was said before it stays (index_note, skipped) */
      for (size_t j = 0; j < in->n; j++) free(in->paths[j]);
      free(in->paths);
      in->paths = NULL;
      in->n = in->cap_ = in->covered = 0;
      in->first_is_union = 0;
      if (in->fd_ > 0) close(in->fd_ - 1);
      in->fd_ = 0;
      return rc;
    }
  }
  if (in->first_is_union) in->given_bytes = given_bytes(in);
  return PCOL_OK;
}

/* The suffix a glob of profiles would name in a directory's files: ".gz",
 * ".zst", ".lz4" with the one before it (".pb.gz"), else the last one;
 * NULL when the name has none. */
static const char *profile_ext(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *e = strrchr(b, '.');
  if (!e || e == b) return NULL;
  if (!strcmp(e, ".gz") || !strcmp(e, ".zst") || !strcmp(e, ".lz4")) {
    const char *f = e;
    while (f > b && f[-1] != '.') f--;
    if (f > b + 1) return f - 1;
  }
  return e;
}

void pcol_inputs_explain(const pcol_inputs *in, pcol_error *err) {
  if (!err || err->code != PCOL_EFORMAT || !in || !in->many) return;
  const char *m = err->message;
  /* the failing input: the path the message starts with ("PATH: ...") */
  size_t fl = 0;
  for (size_t k = 0; k < in->n && !fl; k++) {
    size_t l = strlen(in->paths[k]);
    if (!strncmp(m, in->paths[k], l) && m[l] == ':' && m[l + 1] == ' ') fl = l;
  }
  const char *slash = fl ? memrchr(m, '/', fl) : NULL;
  if (!slash) return;
  size_t pl = (size_t)(slash - m) + 1; /* "DIR/" */
  /* the suffix most of the directory's other files share */
  size_t best_n = 0;
  const char *best = NULL;
  for (size_t k = 0; k < in->n; k++) {
    const char *e = strncmp(in->paths[k], m, pl) || strchr(in->paths[k] + pl, '/') ? NULL : profile_ext(in->paths[k]);
    if (!e || (strlen(in->paths[k]) == fl && !strncmp(in->paths[k], m, fl))) continue;
    size_t c = 0;
    for (size_t j = 0; j < in->n; j++) {
      const char *f = strncmp(in->paths[j], m, pl) ? NULL : profile_ext(in->paths[j]);
      c += f && !strcmp(e, f);
    }
    if (c > best_n) best = e, best_n = c;
  }
  char glob[160]; /* (bounded: the message below fits err's 512 bytes) */
  /* a directory too long to quote whole is DIR, not a cut path that names
   * nothing (the review of the day's diff, F10) */
  if (pl > 120)
    snprintf(glob, sizeof glob, "'DIR/%s%.20s', DIR the directory", best ? "*" : "PATTERN", best ? best : "");
  else
    snprintf(glob, sizeof glob, "'%.*s%s%.20s'", (int)pl, m, best ? "*" : "PATTERN", best ? best : "");
  pcol_error e;
  if (strstr(m, "unrecognised input format")) {
    snprintf(e.message, sizeof e.message,
             "%.*s: unrecognised input format, not a profile; a directory or a glob gives every regular "
             "file it names as a profile: name the profiles with a quoted glob (%s) or list them",
             (int)(fl > 160 ? 160 : fl), m, glob);
  } else if (strstr(m, "pcol does not read this format") || strstr(m, "empty input")) {
    /* (a format pcol names, or nothing: the file is no profile either) */
    int k = snprintf(e.message, sizeof e.message, "; a directory or a glob gives every regular file it names as "
                     "a profile: name the profiles with a quoted glob (%s) or list them", glob);
    size_t ml = strlen(m);
    if (k < 0 || ml + (size_t)k >= sizeof e.message) return; /* (no room: as it was) */
    memmove(e.message + ml, e.message, (size_t)k + 1);
    memcpy(e.message, m, ml);
  } else {
    return; /* a damaged profile: its own message says what is wrong */
  }
  memcpy(err->message, e.message, sizeof e.message);
}

void pcol_inputs_free(pcol_inputs *in) {
  if (!in) return;
  for (size_t i = 0; i < in->n; i++) free(in->paths[i]);
  free(in->paths);
  free(in->index_dir);
  free(in->index_name);
  free(in->index_note);
  free(in->skipped);
  if (in->fd_ > 0) close(in->fd_ - 1);
  memset(in, 0, sizeof *in);
}
