/* arena.c — a bump allocator freed in one go: protobuf-c allocates every
 * sub-message separately (pprof, OTLP importers use it as their
 * ProtobufCAllocator).  Owned by one import call (no globals). */
#include "pcol.h"
#include "buf.h"      /* pcol_arena_chunk, pcol_arena, pcol_arena_alloc, ... */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

void *pcol_arena_alloc(void *ad, size_t size) {
  pcol_arena *a = ad;
  const size_t al = alignof(max_align_t);
  if (size > SIZE_MAX - al) return NULL;
  size = (size + al - 1) & ~(al - 1);
  if (!a->head || a->head->cap - a->head->used < size) {
    size_t c = a->next_cap ? a->next_cap : 65536;
    if (c < size) c = size;
    if (c > SIZE_MAX - sizeof(pcol_arena_chunk)) return NULL;
    pcol_arena_chunk *k = malloc(sizeof *k + c);
    if (!k) return NULL;
    k->cap = c;
    k->used = 0;
    k->next = a->head;
    a->head = k;
    if (a->next_cap < (64u << 20)) a->next_cap = c * 2;
  }
  void *p = a->head->data + a->head->used;
  a->head->used += size;
  return p;
}
void pcol_arena_free_one(void *ad, void *p) {
  (void)ad;
  (void)p;
}
void pcol_arena_release(pcol_arena *a) {
  while (a->head) {
    pcol_arena_chunk *k = a->head;
    a->head = k->next;
    free(k);
  }
}
int pcol_arena_holds(const pcol_arena *a, const void *p, size_t before, size_t after) {
  uintptr_t u = (uintptr_t)p;
  for (const pcol_arena_chunk *k = a->head; k; k = k->next) {
    uintptr_t b = (uintptr_t)k->data, e = b + k->used;
    if (u >= b && u <= e && u - b >= before && e - u >= after) return 1;
  }
  return 0;
}
