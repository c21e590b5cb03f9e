/* rprof.h — what the Rprof importer and exporter share (not installed);
 * defined in rprof_common.c, so neither side uses the other's file.
 *
 * Byte-exact round trips rest on one rule: the importer keeps the original
 * bytes of a sample line exactly where the exporter's rendering
 * (pcol_rprof_render, with the same #File numbering, pcol_rprof_ftab)
 * would differ from them.  The importer decides that token by token while
 * it parses (rprof_import.c: a name is '"name" ', a ref 'F#L ' with the
 * canonical file number F = pcol_rprof_fent.canon, numbers and memory
 * fields without leading zeros), so a change to pcol_rprof_render must
 * change that check too; tests/test_threads.c and the round-trip tests
 * compare the two.
 * doc/mappings.md §1 describes the mapping. */
#ifndef PCOL_RPROF_H
#define PCOL_RPROF_H

#include "pcol.h"
#include "buf.h"      /* pcol_buf */
#include "hash.h"     /* pcol_hset */
#include <stdio.h>

/* Per-source meta keys: RPROF_META_* in format/keys.h. */

/* The memory fields (":small:big:nodes:dups:") as (type, unit) value types,
 * in the order a sample stores them. */
#define RPROF_NMEM 4
extern const char *const pcol_rprof_mem_type[RPROF_NMEM];
extern const char *const pcol_rprof_mem_unit[RPROF_NMEM];
/* Stored value = field x factor (cells of 8 bytes for the vector heaps). */
extern const int64_t pcol_rprof_mem_factor[RPROF_NMEM];

/* Header flags, in the order R writes them. */
enum { RPROF_F_MEMORY = 1, RPROF_F_GC = 2, RPROF_F_LINE = 4 };

/* Unsigned decimal at p[*i..n): 1 with *out and *i after the digits, 0 when
 * p[*i] is not a digit, -1 when the number does not fit in 64 bits. */
int pcol_rprof_parse_u64(const char *p, size_t n, size_t *i, uint64_t *out);

/* Parses a header line (without its line end): flags and interval.
 * Returns 1 when the line looks like a header (starts with a flag prefix or
 * "sample.interval="), and sets *ok to 1 when it also parses completely. */
int pcol_rprof_is_header(const char *p, size_t n, unsigned *flags, uint64_t *interval_us,
                         int *ok);
/* Parses "#File N: PATH".  Returns 1 if the line starts with "#File ";
 * *ok = 1 when it parses (N >= 1). */
int pcol_rprof_is_fileline(const char *p, size_t n, uint64_t *num, const char **path,
                           size_t *path_len, int *ok);

/* The #File table of one segment.  Numbers and paths both map to the FIRST
 * entry that defined them, so the importer and the exporter agree on which
 * number a path is rendered with. */
typedef struct pcol_rprof_ftab {
  pcol_buf ents; /* rprof_fent[] */
  pcol_buf pool; /* path bytes */
  pcol_hset by_num, by_path;
} pcol_rprof_ftab;

typedef struct pcol_rprof_fent {
  uint64_t num;
  uint64_t canon; /* the number a ref to `num` is rendered with: that of the
                   * first entry naming this entry's path */
  uint32_t sid;   /* importer: its own index of the path; exporter: 0 */
  size_t off, len;
} pcol_rprof_fent;

void pcol_rprof_ftab_reset(pcol_rprof_ftab *t);
void pcol_rprof_ftab_free(pcol_rprof_ftab *t);
int pcol_rprof_ftab_add(pcol_rprof_ftab *t, uint64_t num, const void *path, size_t len,
                        uint32_t sid);
/* Entry by number / by path bytes; NULL if none. */
const pcol_rprof_fent *pcol_rprof_ftab_num(const pcol_rprof_ftab *t, uint64_t num);
const pcol_rprof_fent *pcol_rprof_ftab_path(const pcol_rprof_ftab *t, const void *path,
                                            size_t len);
static inline const uint8_t *pcol_rprof_fent_path(const pcol_rprof_ftab *t,
                                                  const pcol_rprof_fent *e) {
  return t->pool.data + e->off;
}
static inline uint32_t pcol_rprof_ftab_count(const pcol_rprof_ftab *t) {
  return (uint32_t)(t->ents.len / sizeof(pcol_rprof_fent));
}

/* One frame as rendered: an optional ref "fileno#line " then an optional
 * name '"name" '.  name == NULL: a ref with no function after it. */
typedef struct pcol_rprof_frame {
  const char *name;
  size_t name_len;
  uint64_t fileno; /* 0 = no ref */
  int64_t line;
  uint32_t file_sid; /* importer only: the ref's file, as its path index (0 = unknown) */
} pcol_rprof_frame;

/* The canonical line (without line end): memory prefix when mem != NULL
 * (fields as R writes them, i.e. cells for the heaps), then the frames. */
/* Writes ":small:big:nodes:dups:" at p (at most 85 bytes); returns its length. */
size_t pcol_rprof_mem_prefix(char *p, const uint64_t *mem);
int pcol_rprof_render(pcol_buf *out, const uint64_t *mem, const pcol_rprof_frame *fr,
                      size_t n);

#endif
