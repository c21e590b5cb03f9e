/* rowsort.c — fixed-width rows sorted through temporary files (rowsort.h).
 *
 * Rows collect in one buffer of at most pcol_rowsort_bytes.  When it is
 * full it is sorted and appended to an unlinked temporary file as a run;
 * the first pcol_rowsort_rewind writes the last run too, frees the buffer
 * and merges the runs through a heap, each run read back through a buffer
 * of its share of the budget (at least 16 rows), so memory is about the
 * budget plus the heap whatever the row count.  A sorter that never
 * filled its buffer sorts it in place (when its rows did not come in
 * order) and writes nothing.  The runs stay
 * in the file, so a later rewind merges them again (an exporter that
 * writes the same groups twice reads its rows twice, not holds them). */
#include "pcol.h"
#include "rowsort.h"
#include "spill.h" /* pcol_temp_fd */
#include <errno.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

size_t pcol_rowsort_bytes = (size_t)8 << 20;

typedef struct rrun rrun;

struct pcol_rowsort {
  size_t width;
  int (*cmp)(const void *, const void *);
  uint8_t *buf;
  size_t n, cap, max; /* rows in buf, its room, the budget in rows */
  int fd;             /* -1: no file (yet, or none to be had) */
  uint64_t *run_end;  /* run i is rows [run_end[i-1], run_end[i]) of the file */
  unsigned nruns, capruns;
  uint64_t total, written;
  int sorted;         /* added rows are sorted (in buf, or all in runs) */
  int disorder;       /* a row of buf was added before one it sorts after */
  int lost;           /* the last run could not be written: every rewind fails so */
  int overlap;        /* a run starts before the last one ended (else a merge only reads on) */
  uint8_t *last;      /* the last run's last row */
  /* reading: rows buf[pos..n) in memory, or the merge of the runs */
  size_t pos;
  rrun *rs;           /* each run's place and buffer */
  unsigned *heap, nheap;
  uint8_t *mem;       /* the runs' buffers */
  size_t room;        /* rows in a run's buffer */
  int given;          /* the heap's top was given and is not yet passed */
  int state;          /* a read that failed: every later next says so */
};

int pcol_rowsort_new(pcol_rowsort **o, size_t width, int (*cmp)(const void *, const void *)) {
  pcol_rowsort *s = calloc(1, sizeof *s);
  if (!s) return PCOL_ENOMEM;
  s->width = width ? width : 1;
  s->cmp = cmp;
  s->fd = -1;
  s->max = pcol_rowsort_bytes / s->width;
  if (s->max < 16) s->max = 16;
  *o = s;
  return PCOL_OK;
}

uint64_t pcol_rowsort_count(const pcol_rowsort *o) { return o->total; }
unsigned pcol_rowsort_runs(const pcol_rowsort *o) { return o->nruns; }

static int pwrite_all(int fd, const uint8_t *p, size_t n, uint64_t off) {
  while (n) {
    ssize_t w = pwrite(fd, p, n, (off_t)off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return PCOL_EIO;
    p += w, n -= (size_t)w, off += (uint64_t)w;
  }
  return PCOL_OK;
}

static int pread_all(int fd, uint8_t *p, size_t n, uint64_t off) {
  while (n) {
    ssize_t r = pread(fd, p, n, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return PCOL_EIO;
    p += r, n -= (size_t)r, off += (uint64_t)r;
  }
  return PCOL_OK;
}

/* The buffer sorted and appended to the file as a run (buffer emptied). */
static int write_run(pcol_rowsort *s) {
  if (!s->n) return PCOL_OK;
  if (s->disorder) qsort(s->buf, s->n, s->width, s->cmp);
  if (!s->last && !(s->last = malloc(s->width))) return PCOL_ENOMEM;
  if (s->nruns && s->cmp(s->last, s->buf) > 0) s->overlap = 1;
  memcpy(s->last, s->buf + (s->n - 1) * s->width, s->width);
  if (s->nruns == s->capruns) {
    unsigned nc = s->capruns ? s->capruns * 2 : 16;
    uint64_t *r = realloc(s->run_end, nc * sizeof *r);
    if (!r) return PCOL_ENOMEM;
    s->run_end = r, s->capruns = nc;
  }
  int rc = pwrite_all(s->fd, s->buf, s->n * s->width, s->written * s->width);
  if (rc) return rc;
  s->written += s->n;
  s->run_end[s->nruns++] = s->written;
  s->n = 0;
  s->disorder = 0;
  return PCOL_OK;
}

int pcol_rowsort_add(pcol_rowsort *s, const void *row) {
  if (s->n == s->cap) {
    if (s->n >= s->max && s->fd < 0 && s->max != SIZE_MAX) {
      s->fd = pcol_temp_fd("pcol-rows");
      if (s->fd < 0) s->max = SIZE_MAX; /* no file: everything in memory */
    }
    if (s->n >= s->max && s->fd >= 0) {
      int rc = write_run(s);
      if (rc == PCOL_EIO && !s->nruns) { /* the first run not written (a full disk): all in memory */
        close(s->fd);
        s->fd = -1, s->max = SIZE_MAX;
      } else if (rc) {
        return rc;
      }
    }
    if (s->n == s->cap) {
      size_t nc = s->cap ? s->cap * 2 : 256;
      if (nc > s->max) nc = s->max;
      if (nc <= s->cap || nc > SIZE_MAX / s->width) return PCOL_ENOMEM;
      uint8_t *b = realloc(s->buf, nc * s->width);
      if (!b) return PCOL_ENOMEM;
      s->buf = b, s->cap = nc;
    }
  }
  /* rows that come in order (an exporter's rows in file order) need no
   * sort: one comparison a row finds out */
  if (s->n && !s->disorder && s->cmp(s->buf + (s->n - 1) * s->width, row) > 0) s->disorder = 1;
  memcpy(s->buf + s->n * s->width, row, s->width);
  s->n++;
  s->total++;
  return PCOL_OK;
}

/* one run being merged: rows [next, end) of the file not yet buffered */
struct rrun {
  uint64_t next, end;
  uint8_t *buf;
  size_t pos, len; /* buf[pos..len) rows not yet given */
};

static int refill(const pcol_rowsort *s, rrun *r) {
  uint64_t left = r->end - r->next;
  size_t n = left < s->room ? (size_t)left : s->room;
  int rc = pread_all(s->fd, r->buf, n * s->width, r->next * s->width);
  if (rc) return rc;
  r->next += n, r->pos = 0, r->len = n;
  return PCOL_OK;
}

/* heap order: the smaller current row, then the earlier run */
static int before(const pcol_rowsort *s, unsigned a, unsigned b) {
  const rrun *rs = s->rs;
  int c = s->cmp(rs[a].buf + rs[a].pos * s->width, rs[b].buf + rs[b].pos * s->width);
  return c < 0 || (c == 0 && a < b);
}

static void sift_down(pcol_rowsort *s, unsigned i) {
  unsigned *h = s->heap, n = s->nheap;
  for (;;) {
    unsigned l = 2 * i + 1, m = i;
    if (l < n && before(s, h[l], h[m])) m = l;
    if (l + 1 < n && before(s, h[l + 1], h[m])) m = l + 1;
    if (m == i) return;
    unsigned t = h[i];
    h[i] = h[m], h[m] = t;
    i = m;
  }
}

/* The merge of the runs set up from their first rows: each run read back
 * through a buffer of its share of the budget (at least 16 rows). */
static int merge_start(pcol_rowsort *s) {
  unsigned k = s->nruns;
  s->nheap = 0;
  if (!k) return PCOL_OK;
  if (!s->mem) {
    free(s->rs);
    free(s->heap);
    s->room = pcol_rowsort_bytes / s->width / k;
    if (s->room < 16) s->room = 16;
    s->rs = calloc(k, sizeof *s->rs);
    s->heap = calloc(k, sizeof *s->heap);
    s->mem = s->rs && s->heap && s->room <= SIZE_MAX / s->width / k ? malloc(s->room * s->width * k) : NULL;
    if (!s->mem) return PCOL_ENOMEM;
  }
  for (unsigned i = 0; i < k; i++) {
    rrun *r = &s->rs[i];
    r->next = i ? s->run_end[i - 1] : 0, r->end = s->run_end[i];
    r->buf = s->mem + (size_t)i * s->room * s->width;
    int rc = refill(s, r);
    if (rc) return rc;
    if (r->len) s->heap[s->nheap++] = i;
  }
  for (unsigned i = s->nheap / 2; i-- > 0;) sift_down(s, i);
  return PCOL_OK;
}

int pcol_rowsort_rewind(pcol_rowsort *s) {
  s->given = 0;
  s->pos = 0;
  s->state = 0;
  if (s->lost) return s->state = s->lost; /* the last run was never written: its rows are gone */
  if (!s->sorted) {
    s->sorted = 1;
    if (s->fd < 0) { /* everything in memory */
      if (s->disorder) qsort(s->buf, s->n, s->width, s->cmp);
    } else {
      int rc = write_run(s);
      free(s->buf);
      s->buf = NULL, s->n = s->cap = 0;
      if (rc) return s->state = s->lost = rc;
    }
  }
  if (s->fd >= 0) {
    int rc = merge_start(s);
    if (rc) return s->state = rc;
  }
  return PCOL_OK;
}

int pcol_rowsort_next(pcol_rowsort *s, const void **row) {
  *row = NULL;
  if (s->state) return s->state; /* a failed read stays failed until rewound */
  if (s->fd < 0) {
    if (s->pos < s->n) *row = s->buf + s->pos++ * s->width;
    return PCOL_OK;
  }
  if (s->given && s->nheap) { /* the row given last is passed only now: it stayed valid */
    rrun *r = &s->rs[s->heap[0]];
    int gone = 0;
    if (++r->pos == r->len) {
      if (r->next < r->end) {
        int rc = refill(s, r);
        if (rc) return s->state = rc;
      } else {
        s->heap[0] = s->heap[--s->nheap];
        gone = 1;
      }
    }
    /* runs that do not overlap: the top run's next row is still the least */
    if (s->nheap && (s->overlap || gone)) sift_down(s, 0);
  }
  s->given = 1;
  if (s->nheap) {
    const rrun *r = &s->rs[s->heap[0]];
    *row = r->buf + r->pos * s->width;
  }
  return PCOL_OK;
}

int pcol_rowsort_each(pcol_rowsort *s, int (*f)(void *ctx, const void *row), void *ctx) {
  int rc = pcol_rowsort_rewind(s);
  const void *row;
  while (!rc && !(rc = pcol_rowsort_next(s, &row)) && row) rc = f(ctx, row);
  return rc;
}

void pcol_rowsort_free(pcol_rowsort *s) {
  if (!s) return;
  if (s->fd >= 0) close(s->fd);
  free(s->buf);
  free(s->last);
  free(s->rs);
  free(s->heap);
  free(s->mem);
  free(s->run_end);
  free(s);
}
