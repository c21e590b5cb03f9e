/* rprof_common.c — what the Rprof importer and exporter share (rprof.h):
 * the memory value types, header and #File line parsing, the #File table
 * and the canonical rendering of a sample line.  Both sides must use exactly
 * these functions for byte-exact round trips.  doc/mappings.md §1. */
#include "rprof.h"
#include "keys.h"     /* RPROF_VT_DUPS, RPROF_VT_LARGE, RPROF_VT_NODES, ... */
#include "buf.h"      /* pcol_buf_append, pcol_buf_free, pcol_buf */
#include "hash.h"     /* pcol_hash_bytes, pcol_hset_find, pcol_hset_free, ... */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *const pcol_rprof_mem_type[RPROF_NMEM] = {RPROF_VT_SMALL, RPROF_VT_LARGE, RPROF_VT_NODES,
                                                     RPROF_VT_DUPS};
const char *const pcol_rprof_mem_unit[RPROF_NMEM] = {"bytes", "bytes", "bytes", "count"};
const int64_t pcol_rprof_mem_factor[RPROF_NMEM] = {8, 8, 1, 1};

/* ------------------------------------------------------------ parsing */

static int has_prefix(const char *p, size_t n, const char *s) {
  size_t l = strlen(s);
  return n >= l && memcmp(p, s, l) == 0;
}

int pcol_rprof_parse_u64(const char *p, size_t n, size_t *i, uint64_t *out) {
  size_t k = *i;
  uint64_t v = 0;
  if (k >= n || !isdigit((unsigned char)p[k])) return 0;
  for (; k < n && isdigit((unsigned char)p[k]); k++) {
    unsigned d = (unsigned)(p[k] - '0');
    if (v > (UINT64_MAX - d) / 10) return -1; /* overflow */
    v = v * 10 + d;
  }
  *i = k;
  *out = v;
  return 1;
}

int pcol_rprof_is_header(const char *p, size_t n, unsigned *flags, uint64_t *interval_us,
                         int *ok) {
  static const char *const pre[3] = {"memory profiling: ", "GC profiling: ",
                                     "line profiling: "};
  *ok = 0;
  *flags = 0;
  if (!has_prefix(p, n, "sample.interval=") && !has_prefix(p, n, pre[0]) &&
      !has_prefix(p, n, pre[1]) && !has_prefix(p, n, pre[2]))
    return 0;
  size_t i = 0;
  for (int k = 0; k < 3; k++)
    if (has_prefix(p + i, n - i, pre[k])) {
      *flags |= 1u << k;
      i += strlen(pre[k]);
    }
  if (!has_prefix(p + i, n - i, "sample.interval=")) return 1;
  i += strlen("sample.interval=");
  if (pcol_rprof_parse_u64(p, n, &i, interval_us) != 1 || i != n) return 1;
  *ok = 1;
  return 1;
}

int pcol_rprof_is_fileline(const char *p, size_t n, uint64_t *num, const char **path,
                           size_t *path_len, int *ok) {
  *ok = 0;
  if (!has_prefix(p, n, "#File ")) return 0;
  size_t i = 6;
  if (pcol_rprof_parse_u64(p, n, &i, num) != 1 || *num == 0) return 1;
  if (!has_prefix(p + i, n - i, ": ")) return 1;
  i += 2;
  *path = p + i;
  *path_len = n - i;
  *ok = 1;
  return 1;
}

/* ------------------------------------------------------- #File table */

typedef struct path_key {
  const void *p;
  size_t n;
} path_key;

static const pcol_rprof_fent *fent(const pcol_rprof_ftab *t, uint32_t id) {
  return (const pcol_rprof_fent *)(const void *)t->ents.data + (id - 1);
}
static int num_eq(const void *ctx, uint32_t id, const void *key) {
  return fent(ctx, id)->num == *(const uint64_t *)key;
}
static int path_eq(const void *ctx, uint32_t id, const void *key) {
  const pcol_rprof_ftab *t = ctx;
  const pcol_rprof_fent *e = fent(t, id);
  const path_key *k = key;
  return e->len == k->n && (k->n == 0 || memcmp(t->pool.data + e->off, k->p, k->n) == 0);
}
/* keyed: #File numbers come from the file (a fixed hash let 50k crafted
 * numbers share one slot: 23 s) */
static uint64_t num_hash(uint64_t num) { return pcol_hash2(0x5eed, num, 0); }

void pcol_rprof_ftab_free(pcol_rprof_ftab *t) {
  pcol_buf_free(&t->ents);
  pcol_buf_free(&t->pool);
  pcol_hset_free(&t->by_num);
  pcol_hset_free(&t->by_path);
}

void pcol_rprof_ftab_reset(pcol_rprof_ftab *t) {
  /* segments are few: freeing keeps the code simple */
  pcol_rprof_ftab_free(t);
}

const pcol_rprof_fent *pcol_rprof_ftab_num(const pcol_rprof_ftab *t, uint64_t num) {
  uint32_t id = pcol_hset_find(&t->by_num, num_hash(num), num_eq, t, &num);
  return id ? fent(t, id) : NULL;
}

const pcol_rprof_fent *pcol_rprof_ftab_path(const pcol_rprof_ftab *t, const void *path,
                                            size_t len) {
  path_key k = {path, len};
  uint32_t id = pcol_hset_find(&t->by_path, pcol_hash_bytes(path, len, 7), path_eq, t, &k);
  return id ? fent(t, id) : NULL;
}

int pcol_rprof_ftab_add(pcol_rprof_ftab *t, uint64_t num, const void *path, size_t len,
                        uint32_t sid) {
  int new_num = pcol_rprof_ftab_num(t, num) == NULL;
  const pcol_rprof_fent *first = pcol_rprof_ftab_path(t, path, len);
  int new_path = first == NULL;
  if (!new_num && !new_path) return PCOL_OK;
  if (t->ents.len / sizeof(pcol_rprof_fent) >= UINT32_MAX - 1) return PCOL_ETOOBIG;
  pcol_rprof_fent e = {num, first ? first->num : num, sid, t->pool.len, len};
  if (pcol_buf_append(&t->pool, path, len) || pcol_buf_append(&t->ents, &e, sizeof e))
    return PCOL_ENOMEM;
  uint32_t id = (uint32_t)(t->ents.len / sizeof e);
  if (new_num && pcol_hset_insert(&t->by_num, num_hash(num), id)) return PCOL_ENOMEM;
  if (new_path && pcol_hset_insert(&t->by_path, pcol_hash_bytes(path, len, 7), id))
    return PCOL_ENOMEM;
  return PCOL_OK;
}

/* ---------------------------------------------------------- rendering */

/* decimal digits of v at p; returns the end (the render runs once a line,
 * so snprintf's parsing was a tenth of the import time) */
static char *put_dec(char *p, uint64_t v) {
  char t[20];
  int n = 0;
  do t[n++] = (char)('0' + v % 10); while ((v /= 10) != 0);
  while (n) *p++ = t[--n];
  return p;
}

size_t pcol_rprof_mem_prefix(char *p, const uint64_t *mem) {
  char *e = p;
  for (int k = 0; k < 4; k++) {
    *e++ = ':';
    e = put_dec(e, mem[k]);
  }
  *e++ = ':';
  return (size_t)(e - p);
}

int pcol_rprof_render(pcol_buf *out, const uint64_t *mem, const pcol_rprof_frame *fr,
                      size_t n) {
  char tmp[96];
  out->len = 0;
  if (mem && pcol_buf_append(out, tmp, pcol_rprof_mem_prefix(tmp, mem))) return PCOL_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    if (fr[i].fileno) {
      char *e = put_dec(tmp, fr[i].fileno);
      *e++ = '#';
      if (fr[i].line < 0) { /* only from a damaged or foreign file */
        *e++ = '-';
        e = put_dec(e, 0 - (uint64_t)fr[i].line);
      } else {
        e = put_dec(e, (uint64_t)fr[i].line);
      }
      *e++ = ' ';
      if (pcol_buf_append(out, tmp, (size_t)(e - tmp))) return PCOL_ENOMEM;
    }
    if (fr[i].name) {
      if (pcol_buf_append(out, "\"", 1) || pcol_buf_append(out, fr[i].name, fr[i].name_len) ||
          pcol_buf_append(out, "\" ", 2))
        return PCOL_ENOMEM;
    }
  }
  return PCOL_OK;
}
