/* read_floor.c — the least any `pcol top DIR` can cost: every regular file
 * of DIR read the way pcol_top_many reads it (open, fstat, one pread of the
 * whole file into fresh memory, close), split into contiguous shares over
 * THREADS threads as pcol splits them, and nothing else: no header, no
 * column, no name.  bench/many.sh sets this beside `pcol top` of the merged
 * file: whatever top DIR does with a file's bytes comes on top of it.
 *
 *   read_floor DIR [THREADS]   (default 2) -> "files=N bytes=B"
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct share {
  char **paths;
  size_t lo, hi;
  uint64_t bytes, sum;
  int fail;
} share;

static void *read_share(void *arg) {
  share *s = arg;
  for (size_t i = s->lo; i < s->hi; i++) {
    int fd = open(s->paths[i], O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
      if (fd >= 0) close(fd);
      s->fail = 1;
      return NULL;
    }
    size_t n = (size_t)st.st_size;
    unsigned char *buf = malloc(n ? n : 1);
    ssize_t got = buf ? pread(fd, buf, n, 0) : -1;
    close(fd);
    if (got != (ssize_t)n) {
      free(buf);
      s->fail = 1;
      return NULL;
    }
    /* one byte a page read, so the copy cannot be skipped */
    for (size_t j = 0; j < n; j += 4096) s->sum += buf[j];
    s->bytes += n;
    free(buf);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: read_floor DIR [THREADS]\n");
    return 2;
  }
  size_t nt = argc == 3 ? (size_t)strtoul(argv[2], NULL, 10) : 2;
  if (nt < 1 || nt > 64) nt = 2;
  DIR *d = opendir(argv[1]);
  if (!d) {
    perror(argv[1]);
    return 1;
  }
  size_t n = 0, cap = 1024;
  char **paths = malloc(cap * sizeof *paths);
  struct dirent *e;
  int oom = !paths;
  while (!oom && (e = readdir(d))) {
    if (e->d_name[0] == '.' || (e->d_type != DT_REG && e->d_type != DT_UNKNOWN)) continue;
    if (n == cap) {
      char **grown = realloc(paths, cap * 2 * sizeof *paths);
      if (!(oom = !grown)) paths = grown, cap *= 2;
      else break;
    }
    size_t len = strlen(argv[1]) + strlen(e->d_name) + 2;
    if ((oom = !(paths[n] = malloc(len)))) break;
    snprintf(paths[n++], len, "%s/%s", argv[1], e->d_name);
  }
  closedir(d);
  if (oom) {
    fprintf(stderr, "read_floor: out of memory\n");
    return 1;
  }
  if (nt > n) nt = n ? n : 1;
  share s[64];
  pthread_t th[64];
  for (size_t t = 0; t < nt; t++) s[t] = (share){paths, n * t / nt, n * (t + 1) / nt, 0, 0, 0};
  for (size_t t = 1; t < nt; t++)
    if (pthread_create(&th[t], NULL, read_share, &s[t])) return 1;
  read_share(&s[0]); /* the main thread reads the first share, as pcol's does */
  uint64_t bytes = s[0].bytes, sum = s[0].sum;
  int fail = s[0].fail;
  for (size_t t = 1; t < nt; t++) {
    pthread_join(th[t], NULL);
    bytes += s[t].bytes, sum += s[t].sum, fail |= s[t].fail;
  }
  for (size_t i = 0; i < n; i++) free(paths[i]);
  free(paths);
  if (fail) {
    fprintf(stderr, "read_floor: a file could not be read\n");
    return 1;
  }
  printf("files=%zu bytes=%llu (%llu)\n", n, (unsigned long long)bytes, (unsigned long long)(sum & 1));
  return 0;
}
