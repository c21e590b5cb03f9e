/* out.c — atomic output: write a temporary file beside the destination,
 * fsync it, rename it into place, fsync the directory.  A failed run leaves
 * no partial file and never touches an existing destination. */
#include "pcol.h"
#include "error.h"  /* PCOL_RETURN_NOT_OK */
#include "writer.h" /* pcol_out_commit_new */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <libgen.h>
#include <sys/file.h> /* flock */
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The temporary files in flight (created, neither renamed nor removed), so
 * that a signal handler can remove them (pcol_out_remove_inflight): a fixed
 * table of copies, nothing allocated or locked in the handler.  A slot is
 * 0 (free), 1 (being filled) or 2 (a path); past INFLIGHT_MAX outputs at
 * once, or a path that does not fit, the file is not registered. */
#define INFLIGHT_MAX 32
#define INFLIGHT_PATH 4096
static char inflight_path[INFLIGHT_MAX][INFLIGHT_PATH];
static atomic_int inflight_state[INFLIGHT_MAX];

/* path's slot + 1 (pcol_out.inflight_), 0 when not registered */
static int inflight_add(const char *path) {
  size_t n = strlen(path);
  if (n >= INFLIGHT_PATH) return 0;
  for (int i = 0; i < INFLIGHT_MAX; i++) {
    int want = 0;
    if (!atomic_compare_exchange_strong(&inflight_state[i], &want, 1)) continue;
    memcpy(inflight_path[i], path, n + 1);
    atomic_store(&inflight_state[i], 2);
    return i + 1;
  }
  return 0;
}

/* after the file is renamed or removed (a handler that runs before this
 * unlinks a name that is gone, or, renamed, no longer the temporary's);
 * only the slot's owner frees it, so no path is read while refilled */
static void inflight_remove(pcol_out *o) {
  if (o->inflight_ > 0 && o->inflight_ <= INFLIGHT_MAX) atomic_store(&inflight_state[o->inflight_ - 1], 0);
  o->inflight_ = 0;
}

void pcol_out_remove_inflight(void) {
  for (int i = 0; i < INFLIGHT_MAX; i++)
    if (atomic_load(&inflight_state[i]) == 2) unlink(inflight_path[i]);
}

static char *dir_of(const char *path) {
  char *tmp = strdup(path);
  if (!tmp) return NULL;
  char *d = strdup(dirname(tmp));
  free(tmp);
  return d;
}

static const char temp_abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* writer.h */
int pcol_out_temp_letters(const char *s) {
  for (int i = 0; i < 6; i++)
    if (!s[i] || !memchr(temp_abc, s[i], sizeof temp_abc - 1)) return 0;
  return 1;
}

/* Fills the trailing XXXXXX of tmpl with random letters (temp_abc) and
 * creates the file exclusively (O_EXCL), retrying on a name clash. */
static int create_unique(char *tmpl) {
  char *x = tmpl + strlen(tmpl) - 6;
  for (int attempt = 0; attempt < 100; attempt++) {
    unsigned char r[6];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
      uint64_t v = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)tmpl ^
                   (uint64_t)attempt * 0xff51afd7ed558ccdULL ^ (uint64_t)time(NULL);
      for (int i = 0; i < 6; i++) r[i] = (unsigned char)(v >> (8 * i));
    }
    for (int i = 0; i < 6; i++) x[i] = temp_abc[r[i] % (sizeof temp_abc - 1)];
    int fd = open(tmpl, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

static int open_temp(pcol_out *o, const char *path, const struct stat *st, pcol_error *err);

/* ".NAME.tmp-XXXXXX" must itself be a valid name: NAME is cut to fit the
 * directory's NAME_MAX (the random suffix keeps it unique).  (writer.h) */
size_t pcol_out_temp_keep(const char *dir) {
  long name_max = pathconf(dir, _PC_NAME_MAX);
  if (name_max <= 0 || name_max > 4096) name_max = 255;
  return (size_t)name_max - (sizeof ".tmp-XXXXXX" - 1) - 1;
}

/* The file a path names after following symbolic links (malloc'd): the
 * path itself when it is not a link, the final target otherwise, also when
 * that target does not exist yet (a dangling link is written through, not
 * replaced).  NULL with err set on a loop (ELOOP after 40 links, as the
 * kernel counts) or a link that cannot be read.  (writer.h) */
char *pcol_out_target(const char *path, pcol_error *err) {
  char *cur = strdup(path);
  for (int hops = 0; cur; hops++) {
    struct stat ls;
    if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode)) return cur;
    if (hops == 40) {
      pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(ELOOP));
      free(cur);
      return NULL;
    }
    size_t cap = (size_t)ls.st_size + 2;
    if (cap < 64) cap = 64;
    char *t = malloc(cap);
    ssize_t n = t ? readlink(cur, t, cap) : -1;
    if (n < 0 || (size_t)n >= cap) { /* unreadable, or changed under us */
      int e = n < 0 ? errno : EAGAIN;
      free(t);
      free(cur);
      pcol_error_set(err, t ? PCOL_EIO : PCOL_ENOMEM, "%s: cannot resolve link: %s", path, strerror(e));
      return NULL;
    }
    t[n] = 0;
    char *next;
    if (t[0] == '/') {
      next = t;
    } else { /* relative to the link's own directory */
      char *dir = dir_of(cur);
      size_t len = dir ? strlen(dir) + (size_t)n + 2 : 0;
      next = dir ? malloc(len) : NULL;
      if (next) snprintf(next, len, "%s/%s", dir, t);
      free(dir);
      free(t);
    }
    free(cur);
    cur = next;
  }
  pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  return NULL;
}

int pcol_out_open(pcol_out *o, const char *path, pcol_error *err) {
  memset(o, 0, sizeof *o);
  if (strcmp(path, "-") == 0) {
    o->fp = stdout;
    o->path = strdup("-");
    return o->path ? PCOL_OK : pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  /* A symbolic link: write its target (renaming over the link would
   * replace the link itself). */
  char *target = pcol_out_target(path, err);
  if (!target) return err ? err->code : PCOL_EIO;
  struct stat st;
  int exists = stat(target, &st) == 0, rc;
  if (exists && S_ISDIR(st.st_mode)) {
    rc = pcol_error_set(err, PCOL_EIO, "%s: is a directory", path);
  } else if (exists && !S_ISREG(st.st_mode)) {
    /* A device, FIFO or socket (/dev/null, a pipe): renaming over it would
     * replace the node, so write to it directly; atomicity does not apply. */
    rc = PCOL_OK;
    int fd = open(target, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || !(o->fp = fdopen(fd, "wb"))) {
      int e = errno;
      if (fd >= 0) close(fd);
      rc = pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(e));
    } else if (!(o->path = strdup(path))) {
      fclose(o->fp);
      memset(o, 0, sizeof *o);
      rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    }
  } else {
    rc = open_temp(o, target, exists ? &st : NULL, err);
  }
  free(target);
  return rc;
}

/* The temporary file beside `path` (st: the existing destination, or NULL). */
static int open_temp(pcol_out *o, const char *path, const struct stat *st, pcol_error *err) {
  int exists = st != NULL;
  char *dir = dir_of(path);
  char *tmpl = NULL;
  char *p2 = strdup(path);
  if (!dir || !p2) goto nomem;
  const char *base = basename(p2);
  size_t blen = strlen(base), room = pcol_out_temp_keep(dir);
  if (blen > room) blen = room;
  size_t n = strlen(dir) + blen + 32;
  tmpl = malloc(n);
  if (!tmpl) goto nomem;
  snprintf(tmpl, n, "%s/.%.*s.tmp-XXXXXX", dir, (int)blen, base);
  free(dir);
  free(p2);
  dir = p2 = NULL;
  /* Create the temporary file with mode 0666 so the kernel applies the
   * umask as for a plain creat() (mkstemp would make it 0600, and reading
   * the umask means changing it, which races with other threads). */
  /* The termination signals wait while the file is created and registered:
   * one that came between the two would find the file unregistered and
   * leave it behind (a handler that runs when they are let through finds
   * it registered and removes it). */
  sigset_t all, old;
  sigemptyset(&all);
  sigaddset(&all, SIGINT);
  sigaddset(&all, SIGTERM);
  sigaddset(&all, SIGHUP);
  sigaddset(&all, SIGQUIT);
  sigaddset(&all, SIGPIPE);
  int masked = pthread_sigmask(SIG_BLOCK, &all, &old) == 0;
  int fd = create_unique(tmpl);
  int create_errno = errno;
  /* held while the file is open: a sweep of what killed processes left
   * (pcol_writer_open) removes only a temporary file whose lock it can
   * take, so never one a live process is still writing or planning (a new
   * file: no one else has it, the lock is ours at once) */
  if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB)) { /* (no locks on this file system: the sweep cannot take one either, and leaves every file) */
  }
  if (fd >= 0) o->inflight_ = inflight_add(tmpl);
  if (masked) pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = create_errno;
  if (fd < 0) {
    int e = errno;
    /* the user named the output, not a temporary file: say what to fix
     * (the directory, which must exist and be writable) */
    pcol_error_set(err, PCOL_EIO, "%s: cannot create a file in its directory: %s", path, strerror(e));
    free(tmpl);
    return PCOL_EIO;
  }
  /* Replacing a file keeps its permission bits: a private 0600 file must
   * not become world-readable. */
  if (exists && S_ISREG(st->st_mode) && fchmod(fd, st->st_mode & 07777) != 0) { /* not fatal */ }
  o->fp = fdopen(fd, "wb");
  if (!o->fp) {
    close(fd);
    unlink(tmpl);
    inflight_remove(o);
    free(tmpl);
    return pcol_error_set(err, PCOL_EIO, "%s: cannot open temporary file", path);
  }
  o->tmp_path = tmpl;
  o->path = strdup(path);
  if (!o->path) {
    pcol_out_abort(o);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  return PCOL_OK;
nomem:
  free(dir);
  free(p2);
  free(tmpl);
  return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
}

/* the temporary file flushed, fsynced and closed (o aborted on failure) */
static int finish(pcol_out *o, pcol_error *err) {
  int rc = PCOL_OK;
  if (fflush(o->fp) != 0 || ferror(o->fp) || fsync(fileno(o->fp)) != 0) {
    int e = errno;
    rc = pcol_error_set(err, PCOL_EIO, "%s: write failed: %s", o->path, strerror(e));
    pcol_out_abort(o);
    return rc;
  }
  if (fclose(o->fp) != 0) {
    int e = errno;
    o->fp = NULL;
    rc = pcol_error_set(err, PCOL_EIO, "%s: close failed: %s", o->path, strerror(e));
    pcol_out_abort(o);
    return rc;
  }
  o->fp = NULL;
  return PCOL_OK;
}

/* after the publication: the directory synced, o reset */
static int committed(pcol_out *o) {
  char *dir = dir_of(o->path);
  if (dir) {
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
      (void)fsync(dfd); /* durability of the rename; best effort */
      close(dfd);
    }
    free(dir);
  }
  inflight_remove(o);
  free(o->tmp_path);
  free(o->path);
  memset(o, 0, sizeof *o);
  return PCOL_OK;
}

int pcol_out_commit(pcol_out *o, pcol_error *err) {
  int rc = PCOL_OK;
  if (!o->tmp_path) { /* stdout, or a device written directly */
    errno = 0; /* a stream refused without an errno (a counting stream) says "I/O error", not a stale one */
    int bad = fflush(o->fp) != 0 || ferror(o->fp);
    int e = errno;
    if (o->fp != stdout && fclose(o->fp) != 0 && !bad) bad = 1, e = errno;
    if (bad)
      rc = pcol_error_set(err, PCOL_EIO, "%s: write failed: %s",
                          o->fp == stdout ? "standard output" : o->path, e ? strerror(e) : "I/O error");
    free(o->path);
    memset(o, 0, sizeof *o);
    return rc;
  }
  PCOL_RETURN_NOT_OK(finish(o, err));
  if (rename(o->tmp_path, o->path) != 0) {
    int e = errno;
    rc = pcol_error_set(err, PCOL_EIO, "%s: rename failed: %s", o->path, strerror(e));
    pcol_out_abort(o);
    return rc;
  }
  return committed(o);
}

/* writer.h.  Link the temporary to o->path, else to name(ctx, 1), 2, ...
 * while the name is taken, then unlink the temporary.  Where the
 * filesystem has no hard links, renameat2's RENAME_NOREPLACE does the
 * same; where it has neither, rename after checking that the name is free
 * (a race with another writer remains there only). */
int pcol_out_commit_new(pcol_out *o, char *(*name)(void *ctx, unsigned k), void *ctx,
                        unsigned *used, pcol_error *err) {
  if (!o->tmp_path) return pcol_out_commit(o, err); /* a device: written in place */
  PCOL_RETURN_NOT_OK(finish(o, err));
  for (unsigned k = 0; k < 100000; k++) {
    char *p = k ? name(ctx, k) : o->path;
    if (!p) {
      pcol_out_abort(o);
      return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    }
    if (p != o->path) {
      free(o->path);
      o->path = p;
    }
    int r = link(o->tmp_path, p), e = errno;
    if (r == 0) {
      unlink(o->tmp_path);
    } else if (e != EEXIST) {
#ifdef RENAME_NOREPLACE
      r = renameat2(AT_FDCWD, o->tmp_path, AT_FDCWD, p, RENAME_NOREPLACE);
      e = errno;
      if (r != 0 && (e == EINVAL || e == ENOSYS || e == EPERM || e == EOPNOTSUPP))
#endif
      {
        struct stat st;
        if (lstat(p, &st) == 0) r = -1, e = EEXIST;
        else if ((r = rename(o->tmp_path, p)) != 0) e = errno;
      }
    }
    if (r == 0) {
      if (used) *used = k;
      return committed(o);
    }
    if (e != EEXIST) {
      int rc = pcol_error_set(err, PCOL_EIO, "%s: publication failed: %s", p, strerror(e));
      pcol_out_abort(o);
      return rc;
    }
  }
  int rc = pcol_error_set(err, PCOL_EIO, "%s: every name tried is taken", o->path);
  pcol_out_abort(o);
  return rc;
}

void pcol_out_abort(pcol_out *o) {
  if (o->tmp_path) {
    if (o->fp) fclose(o->fp);
    unlink(o->tmp_path);
    inflight_remove(o);
    free(o->tmp_path);
  } else if (o->fp) {
    fflush(o->fp);
    if (o->fp != stdout) fclose(o->fp);
  }
  free(o->path);
  memset(o, 0, sizeof *o);
}
