/* ahead.c — reading ahead for the union of many inputs (pcol_open_many).
 * A union of compressed profiles (a day of .pb.gz files) spent a third of
 * its time in zlib's inflate (`pcol top DIR` of 1,440 one-minute .pb.gz:
 * 435 ms, 297 ms for the same files uncompressed).  One thread reads and
 * inflates the inputs after the one being imported, so the import (one
 * builder, in order: the same union) no longer waits for zlib.
 *
 * Only what can be read without a side effect is read here: a regular
 * file (opened O_NONBLOCK and checked with fstat: a FIFO or a pipe given by
 * its /dev/fd name is neither blocked on nor drained) of at most
 * AHEAD_RAW_MAX bytes that starts as gzip does, inflated through the
 * import's own stream (instream.c: its caps and members) and kept only if
 * all of it inflates within AHEAD_FILE_MAX.  Anything else (zstd too: its
 * decoder's window may be 128 MiB, which a second decoder would double),
 * and any error, is left to the import, which reads the file itself and
 * says what is wrong as it always did: the thread never decides an answer.
 * The file is read up to 8 inputs before its import: one that changes
 * meanwhile is imported as it was when the thread read it, as if it had
 * been imported then.
 *
 * Bounds: at most AHEAD_FILES inputs ahead of the import, AHEAD_HELD_MAX +
 * AHEAD_FILE_MAX (16 MiB) of inflated bytes held and one file's raw bytes
 * (1 MiB).  The thread stops after AHEAD_PLAIN_RUN inputs in a row that
 * are not compressed.  Stopped while it reads (the import failed before),
 * it is left to end on its own, with its own copy of the path, rather than
 * waited for: a file on a stalled mount it reads ahead must not hold up the
 * error of one before it. */
#include "ahead.h"
#include "instream.h" /* pcol_instream_open, pcol_compression */
#include "threads.h"  /* pcol_thread_limit */

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* a larger input is streamed where it is imported (pprof reads one of more
 * than 1 MiB twice, from the file: detect.c PPROF_REREAD_BYTES) */
#define AHEAD_RAW_MAX ((off_t)1 << 20)
#define AHEAD_FILE_MAX ((size_t)8 << 20)
#define AHEAD_FILES 8
#define AHEAD_HELD_MAX ((size_t)8 << 20)
/* after this many inputs in a row not compressed (pcol files, say), the
 * thread stops: its probes of the rest would only cost (10 ms of CPU in
 * 1,440 pcol files) */
#define AHEAD_PLAIN_RUN 16

typedef struct slot {
  uint8_t *buf; /* inflated bytes, until taken */
  size_t len;
  int done;     /* the thread is through with it (buf NULL: not inflated) */
} slot;

struct pcol_ahead {
  const char *const *paths;
  size_t n;
  pcol_import_options io;
  slot *s;
  size_t taken; /* inputs before this one are the caller's */
  size_t held;  /* inflated bytes not yet taken */
  int stop, ended;
  int detached; /* stopped before the thread ended: it frees this */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t th;
};

/* The whole of fd's regular file of `size` bytes, or NULL. */
static uint8_t *read_whole(int fd, size_t size) {
  uint8_t *raw = malloc(size ? size : 1);
  size_t got = 0;
  while (raw && got < size) {
    ssize_t r = pread(fd, raw + got, size - got, (off_t)got);
    if (r <= 0) break;
    got += (size_t)r;
  }
  if (raw && got == size) return raw;
  free(raw);
  return NULL;
}

/* raw[0..n) inflated by the import's stream, all of it within
 * AHEAD_FILE_MAX and without an error of the stream's, or NULL. */
static uint8_t *inflate_all(const pcol_ahead *a, const char *name, uint8_t *raw, size_t n,
                            size_t *len) {
  FILE *in = fmemopen(raw, n, "rb"), *s = NULL;
  pcol_instream *o = NULL;
  pcol_error err = {0};
  uint8_t *out = NULL;
  size_t cap = 0, got = 0;
  int ok = in && pcol_instream_open(&o, in, name, &a->io, &s, &err) == PCOL_OK;
  while (ok) {
    if (got == cap) {
      size_t nc = cap ? cap * 2 : (size_t)n * 4 + 4096;
      if (nc > AHEAD_FILE_MAX + 1) nc = AHEAD_FILE_MAX + 1;
      uint8_t *p = nc > cap ? realloc(out, nc) : NULL;
      if (!p) {
        ok = 0;
        break;
      }
      out = p, cap = nc;
    }
    size_t r = fread(out + got, 1, cap - got, s);
    got += r;
    if (r == 0) break;
  }
  ok = ok && !ferror(s) && got > 0 && got <= AHEAD_FILE_MAX &&
       pcol_instream_finish(o, 0, &err) == PCOL_OK;
  if (o) pcol_instream_free(o);
  if (in) fclose(in);
  if (!ok) {
    free(out);
    return NULL;
  }
  uint8_t *fit = realloc(out, got); /* held: its bytes, not its doublings */
  *len = got;
  return fit ? fit : out;
}

/* Input path inflated (*len bytes), or NULL: not read ahead (*plain: not
 * compressed, or not a file to read here). */
static uint8_t *inflate_one(const pcol_ahead *a, const char *path, size_t *len, int *plain) {
  struct stat st;
  *plain = 1;
  if (!strcmp(path, "-") || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 4 ||
      st.st_size > AHEAD_RAW_MAX)
    return NULL;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  uint8_t head[4], *raw = NULL, *out = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 4 &&
      st.st_size <= AHEAD_RAW_MAX && pread(fd, head, 4, 0) == 4 &&
      pcol_compression(head, 4) == PCOL_COMP_GZIP)
    raw = read_whole(fd, (size_t)st.st_size);
  close(fd);
  if (raw) *plain = 0, out = inflate_all(a, path, raw, (size_t)st.st_size, len);
  free(raw);
  return out;
}

static void drop(pcol_ahead *a, size_t from, size_t to);
static void ahead_free(pcol_ahead *a) {
  drop(a, 0, a->n);
  pthread_mutex_destroy(&a->mu);
  pthread_cond_destroy(&a->cv);
  free(a->s);
  free(a);
}

static void *run(void *arg) {
  pcol_ahead *a = arg;
  size_t plain_run = 0; /* inputs in a row that were not compressed */
  for (size_t i = 0; i < a->n && plain_run < AHEAD_PLAIN_RUN; i++) {
    pthread_mutex_lock(&a->mu);
    while (!a->stop && (i >= a->taken + AHEAD_FILES || a->held > AHEAD_HELD_MAX))
      pthread_cond_wait(&a->cv, &a->mu);
    int stop = a->stop, wanted = i >= a->taken;
    /* its own copy, made while the caller cannot have stopped it: after
     * pcol_ahead_stop the caller's paths may be freed */
    char *path = !stop && wanted ? strdup(a->paths[i]) : NULL;
    pthread_mutex_unlock(&a->mu);
    if (stop) break;
    size_t len = 0;
    int plain = 0;
    uint8_t *buf = path ? inflate_one(a, path, &len, &plain) : NULL;
    free(path);
    plain_run = plain ? plain_run + 1 : 0;
    pthread_mutex_lock(&a->mu);
    if (buf && (i < a->taken || a->stop)) { /* dropped meanwhile */
      free(buf);
      buf = NULL;
    }
    a->s[i] = (slot){buf, buf ? len : 0, 1};
    a->held += buf ? len : 0;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
  }
  pthread_mutex_lock(&a->mu);
  a->ended = 1;
  int detached = a->detached;
  pthread_cond_broadcast(&a->cv);
  pthread_mutex_unlock(&a->mu);
  if (detached) ahead_free(a); /* stopped while it read: the caller is gone */
  return NULL;
}

pcol_ahead *pcol_ahead_start(const char *const *paths, size_t n, const pcol_import_options *opt) {
  int from_env;
  if (n < 2 || pcol_thread_limit(&from_env) < 2) return NULL;
  pcol_ahead *a = calloc(1, sizeof *a);
  if (!a || !(a->s = calloc(n, sizeof *a->s))) {
    free(a);
    return NULL;
  }
  a->paths = paths;
  a->n = n;
  if (opt) a->io = *opt;
  pthread_mutex_init(&a->mu, NULL);
  pthread_cond_init(&a->cv, NULL);
  if (pthread_create(&a->th, NULL, run, a) != 0) {
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a->s);
    free(a);
    return NULL;
  }
  return a;
}

/* Frees the untaken inflated bytes of inputs [from, to) (a->mu held). */
static void drop(pcol_ahead *a, size_t from, size_t to) {
  for (size_t j = from; j < to && j < a->n; j++) {
    a->held -= a->s[j].len;
    free(a->s[j].buf);
    a->s[j].buf = NULL;
    a->s[j].len = 0;
  }
}

int pcol_ahead_take(pcol_ahead *a, size_t i, uint8_t **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  if (!a || i >= a->n || i < a->taken) return 0;
  pthread_mutex_lock(&a->mu);
  drop(a, a->taken, i); /* skipped by the caller */
  a->taken = i;
  while (!a->s[i].done && !a->ended) pthread_cond_wait(&a->cv, &a->mu);
  *buf = a->s[i].buf;
  *len = a->s[i].len;
  a->held -= a->s[i].len;
  a->s[i].buf = NULL;
  a->s[i].len = 0;
  a->taken = i + 1;
  pthread_cond_broadcast(&a->cv);
  pthread_mutex_unlock(&a->mu);
  return *buf != NULL;
}

void pcol_ahead_stop(pcol_ahead *a) {
  if (!a) return;
  pthread_mutex_lock(&a->mu);
  a->stop = 1;
  pthread_cond_broadcast(&a->cv);
  /* every input taken: the thread has read its last and is ending */
  int ended = a->ended || a->taken >= a->n;
  pthread_t th = a->th;
  a->detached = !ended; /* still reading: it frees a when it ends */
  pthread_mutex_unlock(&a->mu);
  if (ended) {
    pthread_join(th, NULL);
    ahead_free(a);
  } else {
    pthread_detach(th);
  }
}
