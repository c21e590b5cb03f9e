/* intern.h — byte runs interned to ids 1..n: equal bytes, one id
 * (intern.c).  Inside libpcol only (not installed).  The table that turns
 * keys of bytes (pprof's merge keys, a Sample's attribute list, a stack's
 * location ids, an export's strings) into dense ids, each run kept once:
 *
 *   pcol_intern t = {0}; uint32_t id;
 *   if (pcol_intern_get(&t, p, n, &id)) ...;   // PCOL_ENOMEM, PCOL_ETOOBIG
 *   const void *q = pcol_intern_at(&t, id, &n);
 *   pcol_intern_free(&t);
 *
 * The hash is keyed (hash.h: a file cannot flood it). */
#ifndef PCOL_CORE_INTERN_H
#define PCOL_CORE_INTERN_H

#include "buf.h"  /* pcol_buf */
#include "hash.h" /* pcol_hset */
#include <stddef.h>
#include <stdint.h>

typedef struct pcol_intern {
  pcol_hset h;
  pcol_buf bytes; /* the runs, one after another (the table's start 8-byte aligned; a run's start
                   * only when every run before it is a multiple of 8 bytes long) */
  pcol_buf off;   /* uint64: run id is bytes [off[id - 1], off[id]) (off[0] = 0 once a run is in) */
  uint32_t n;     /* ids 1..n */
} pcol_intern;

/* The id of p[0..len) (0: not in), *hash its hash (for pcol_intern_add). */
uint32_t pcol_intern_find(const pcol_intern *t, const void *p, size_t len, uint64_t *hash);
/* p[0..len), not in (pcol_intern_find said 0 with hash), as id n + 1:
 * PCOL_OK, PCOL_ENOMEM, or PCOL_ETOOBIG past 2^32 - 2 ids (t unchanged). */
int pcol_intern_add(pcol_intern *t, const void *p, size_t len, uint64_t hash, uint32_t *id);
/* *id of p[0..len), added when it is not in (as pcol_intern_add). */
int pcol_intern_get(pcol_intern *t, const void *p, size_t len, uint32_t *id);
/* Run id's bytes (1 <= id <= n; valid until the next add), *len bytes. */
static inline const void *pcol_intern_at(const pcol_intern *t, uint32_t id, size_t *len) {
  const uint64_t *off = (const uint64_t *)(const void *)t->off.data;
  *len = (size_t)(off[id] - off[id - 1]);
  return t->bytes.data + off[id - 1];
}
void pcol_intern_free(pcol_intern *t);

#endif
