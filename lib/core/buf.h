/* buf.h — growable buffers and arrays (buf.c) and the bump allocator
 * (arena.c).  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_BUF_H
#define PCOL_CORE_BUF_H

#include "pcol.h"
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct pcol_buf {
  uint8_t *data;
  size_t len, cap;
} pcol_buf;

int pcol_buf_reserve(pcol_buf *b, size_t extra);
int pcol_buf_append(pcol_buf *b, const void *p, size_t n);
static inline void pcol_buf_free(pcol_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}
#define PCOL_BUF_PUSH(buf, T, val)                                   \
  ((buf)->len + sizeof(T) <= (buf)->cap || pcol_buf_reserve((buf), sizeof(T)) == 0 \
       ? (memcpy((buf)->data + (buf)->len, &(T){val}, sizeof(T)),    \
          (buf)->len += sizeof(T), 0)                                \
       : PCOL_ENOMEM)

/* Room for one more element in a growable array `arr` of `n` used and `cap`
 * allocated elements (capacity doubles, from 16).  PCOL_OK or PCOL_ENOMEM;
 * on failure the array is unchanged.  From 2 MiB, the array (as a
 * pcol_buf's data) asks for huge pages for the pages it will touch (buf.c
 * hint_huge: `pcol fold` of go-cpu-large took a third of its CPU in fresh
 * pages, one fault each, on the project's VMs). */
int pcol_grow(void *arr_ptr, size_t *cap, size_t elem);
/* malloc(n) (zeroed when zero), its pages faulted in by one madvise when it
 * spans a few pages (PCOL_HOT_MIN on): for an array that will be written
 * all over (a decoder's output, a view's per-stack-node sums, a hash
 * table), where one fault a page of fresh memory was a fifth to a third of
 * `pcol top`'s CPU under the project's VMs (each fault a hypervisor exit:
 * 3-10 us a page, against 0.5 us a page populated by one madvise; an
 * already resident page costs the madvise a page-table walk).  From 128 KiB
 * on, where the kernel has transparent huge pages, the array is aligned to
 * and asks for 2 MiB pages (buf.c alloc_huge: 4 KiB pages cost 7-10 us each
 * there even populated by one madvise, a 2 MiB page ~0.3 ms).  Freed with
 * free().  Where MADV_POPULATE_WRITE is unknown (Linux < 5.14), the faults
 * happen as before.  buf.c */
enum { PCOL_HOT_MIN = 16 << 10 };
void *pcol_alloc_hot(size_t n, int zero);
/* pcol_alloc_hot(n, 1) that frees old (may be NULL) once the new array is
 * had and before its pages are touched, so the two are never resident at
 * once (a table rebuilt from its keys, not copied: builder.c nodeset_grow).
 * NULL, old kept, when n bytes cannot be had. */
void *pcol_alloc_hot_replacing(size_t n, void *old);
/* The same for [p, p + n) of an allocation made before (the room a reserve
 * added to a growable array, about to be written through). */
void pcol_prefault_write(void *p, size_t n);
/* The pages of [p, p + n) (a mapped column about to be read whole) mapped
 * in by one madvise when it is large (64 KiB on), not one fault each 16
 * pages (0.1 us a page against 1.4 on the project's VM).  Only a hint:
 * nothing happens on failure or before Linux 5.14. */
void pcol_prefault_read(const void *p, size_t n);
/* The whole pages inside [p, p + n) of a heap array that is never read
 * again before it is freed (a pass over it has moved on) given back to
 * the kernel (MADV_DONTNEED: read again, they are zeros).  Only a hint. */
void pcol_release_heap(void *p, size_t n);
#define PCOL_GROW(arr, n, cap) ((n) < (cap) ? PCOL_OK : pcol_grow(&(arr), &(cap), sizeof *(arr)))

/* Element i of a builder column held in memory (u32, or i64/u64). */
static inline uint32_t pcol_buf_get32(const pcol_buf *b, uint64_t i) {
  uint32_t v;
  memcpy(&v, b->data + i * 4, 4);
  return v;
}
static inline int64_t pcol_buf_get64(const pcol_buf *b, uint64_t i) {
  int64_t v;
  memcpy(&v, b->data + i * 8, 8);
  return v;
}

/* A bump allocator freed in one go (arena.c); pcol_arena_alloc and
 * pcol_arena_free_one have the signatures of a ProtobufCAllocator's. */
typedef struct pcol_arena_chunk {
  struct pcol_arena_chunk *next;
  size_t cap, used;
  alignas(max_align_t) unsigned char data[];
} pcol_arena_chunk;
typedef struct pcol_arena {
  pcol_arena_chunk *head;
  size_t next_cap;
} pcol_arena;
void *pcol_arena_alloc(void *arena, size_t size);
void pcol_arena_free_one(void *arena, void *p); /* nothing: freed with the arena */
void pcol_arena_release(pcol_arena *a);
/* 1 when the before bytes before p and the after bytes from p lie in the
 * memory arena a handed out (one chunk's used bytes), else 0: whether a
 * pointer is the arena's, with no read outside it */
int pcol_arena_holds(const pcol_arena *a, const void *p, size_t before, size_t after);

#endif
