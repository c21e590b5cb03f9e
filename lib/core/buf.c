/* buf.c — growable byte buffers and arrays, and pre-faulted allocations. */
#include "pcol.h"
#include "buf.h"      /* pcol_buf, pcol_buf_reserve, pcol_alloc_hot, ... */
#include <sys/mman.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The whole pages inside [p, p + n): [*a, *e), empty when none. */
static inline void inner_pages(const void *p, size_t n, uintptr_t *a, uintptr_t *e) {
  size_t pg = 4096;
  *a = ((uintptr_t)p + pg - 1) & ~(uintptr_t)(pg - 1);
  *e = ((uintptr_t)p + n) & ~(uintptr_t)(pg - 1);
}

/* madvise of the pages [p, p + n) touches, whole (advice on a page shared
 * with a neighbour is only a hint). */
static inline void advise_outer(const void *p, size_t n, int advice) {
  size_t pg = 4096;
  uintptr_t a = (uintptr_t)p & ~(uintptr_t)(pg - 1);
  uintptr_t e = ((uintptr_t)p + n + pg - 1) & ~(uintptr_t)(pg - 1);
  (void)madvise((void *)a, e - a, advice);
}

void pcol_prefault_write(void *p, size_t n) {
#ifdef MADV_POPULATE_WRITE
  uintptr_t a, e;
  inner_pages(p, n, &a, &e);
  if (p && n >= PCOL_HOT_MIN && e > a) (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)n;
#endif
}

/* Whether the kernel gives huge pages to a range that asks for them
 * (transparent huge pages "always" or "madvise"): read once a process. */
static int thp_usable(void) {
  static _Atomic int known; /* 0 unknown, 1 yes, 2 no */
  int k = atomic_load_explicit(&known, memory_order_relaxed);
  if (k) return k == 1;
  char b[128] = {0};
  int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
  ssize_t r = fd >= 0 ? read(fd, b, sizeof b - 1) : -1;
  if (fd >= 0) close(fd);
  k = r > 0 && (strstr(b, "[always]") || strstr(b, "[madvise]")) ? 1 : 2;
  atomic_store_explicit(&known, k, memory_order_relaxed);
  return k == 1;
}

/* PCOL_HUGE_MIN bytes on, a hot array is 2 MiB-aligned and asks for huge
 * pages: one huge page costs the kernel about what 20-40 small ones do on
 * the project's VMs (2 MiB in 0.2-0.35 ms; 4 KiB pages 7-10 us each, even
 * populated by one madvise; bench/results/format-1.3.md, "Huge pages"),
 * and the passes over a view's node arrays, at random, miss the TLB less.
 * The range is rounded up to whole huge pages (at most 2 MiB more resident
 * an array); only the n bytes asked for are populated, so where no huge
 * page is had the small pages cost what they did. */
enum { PCOL_HUGE_MIN = 128 << 10 };
static void *alloc_huge(size_t n) {
#ifdef MADV_HUGEPAGE
  const size_t hp = (size_t)2 << 20;
  if (n < PCOL_HUGE_MIN || n > SIZE_MAX - hp || !thp_usable()) return NULL;
  size_t r = (n + hp - 1) & ~(hp - 1);
  void *q = aligned_alloc(hp, r);
  if (q) (void)madvise(q, r, MADV_HUGEPAGE);
  return q;
#else
  (void)n;
  return NULL;
#endif
}

/* A growable array of 2 MiB or more asks for huge pages over the whole
 * pages it spans (its future first touches: a realloc keeps the mapping's
 * advice when it moves it); only a hint. */
static void hint_huge(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
  if (p && n >= ((size_t)2 << 20) && thp_usable()) advise_outer(p, n, MADV_HUGEPAGE);
#else
  (void)p;
  (void)n;
#endif
}

/* pcol_alloc_hot, old (if any) freed once the array is had, before its
 * pages are touched (pcol_alloc_hot_replacing). */
static void *alloc_hot(size_t n, int zero, void *old) {
  uint8_t *p = alloc_huge(n);
  /* else, large: calloc, whose fresh mapping needs no zeros written; else
   * the pages first, then the zeros (calloc's memset of heap memory would
   * take the faults one page at a time) */
  int zeroed = zero && !p && n >= ((size_t)1 << 20);
  if (!p) p = zeroed ? calloc(n, 1) : malloc(n ? n : 1);
  if (!p) return NULL;
  free(old);
  pcol_prefault_write(p, n);
  if (zero && !zeroed) memset(p, 0, n ? n : 1);
  return p;
}
void *pcol_alloc_hot(size_t n, int zero) { return alloc_hot(n, zero, NULL); }
void *pcol_alloc_hot_replacing(size_t n, void *old) { return alloc_hot(n, 1, old); }

void pcol_prefault_read(const void *p, size_t n) {
#ifdef MADV_POPULATE_READ
  /* (a fault maps 64 KiB around it) */
  if (p && n >= ((size_t)64 << 10)) advise_outer(p, n, MADV_POPULATE_READ);
#else
  (void)p;
  (void)n;
#endif
}

void pcol_release_heap(void *p, size_t n) {
  uintptr_t a, e;
  inner_pages(p, n, &a, &e);
  if (p && e > a) (void)madvise((void *)a, e - a, MADV_DONTNEED);
}

/* old grown to n bytes, its first `keep` kept: from 2 to 16 MiB into a new
 * array of huge pages (the copy costs less than the fresh small pages a
 * realloc's copy writes: bench/results/format-1.3.md, "Huge pages"); else
 * realloc, which past 16 MiB moves the mapping without a copy (and without
 * a second array's memory at once: a writer's columns at 100M samples),
 * the mapping asking for huge pages for what is touched next. */
static void *grow_block(void *old, size_t keep, size_t n) {
  if (n >= ((size_t)2 << 20) && n <= ((size_t)16 << 20)) {
    void *q = alloc_huge(n);
    if (q) {
      if (keep) memcpy(q, old, keep);
      free(old);
      return q;
    }
  }
  void *q = realloc(old, n);
  hint_huge(q, n);
  return q;
}

int pcol_buf_reserve(pcol_buf *b, size_t extra) {
  if (extra <= b->cap - b->len) return PCOL_OK;
  if (extra > SIZE_MAX / 2 - b->len) return PCOL_ENOMEM;
  size_t need = b->len + extra, cap = b->cap ? b->cap : 64;
  while (cap < need) cap *= 2;
  uint8_t *p = grow_block(b->data, b->len, cap);
  if (!p) return PCOL_ENOMEM;
  b->data = p;
  b->cap = cap;
  return PCOL_OK;
}

int pcol_buf_append(pcol_buf *b, const void *p, size_t n) {
  if (n == 0) return PCOL_OK;
  if (pcol_buf_reserve(b, n)) return PCOL_ENOMEM;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return PCOL_OK;
}

int pcol_grow(void *arr_ptr, size_t *cap, size_t elem) {
  size_t c = *cap ? 2 * *cap : 16;
  if (c < *cap || c > SIZE_MAX / elem) return PCOL_ENOMEM;
  void *old, *grown;
  memcpy(&old, arr_ptr, sizeof old); /* arr_ptr is a T **: copy, do not alias */
  if (!(grown = grow_block(old, *cap * elem, c * elem))) return PCOL_ENOMEM;
  memcpy(arr_ptr, &grown, sizeof grown);
  *cap = c;
  return PCOL_OK;
}
