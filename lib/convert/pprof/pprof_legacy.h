/* pprof_legacy.h — what the legacy profile readers share (pprof_legacy.c:
 * the binary CPU profile, the memory map, the locations and mappings, Java's
 * symbols, the profile into the builder; pprof_legacy_text.c: the text
 * formats).  Internal to lib/convert/pprof. */
#ifndef PCOL_PPROF_LEGACY_H
#define PCOL_PPROF_LEGACY_H

#include "pcol.h"
#include "buf.h"  /* pcol_buf */
#include "hash.h" /* pcol_u64map */
#include <stddef.h>
#include <stdint.h>

typedef struct lsample {
  int64_t v;       /* its first value; the others, if any, in lp.more */
  size_t first, n; /* in lp.addr / lp.loc */
} lsample;
typedef struct lmapping {
  uint64_t start, limit, offset;
  size_t file, nfile, bid, nbid; /* in lp.str */
  uint32_t id;                   /* the builder's, once used */
  uint64_t shift;                /* what its addresses gain there (pcol_b_mappings_shared) */
  int used;
} lmapping;
typedef struct llocation {
  uint64_t addr;
  uint32_t map; /* 1-based in lp.maps; 0 none */
  uint32_t fn;  /* Java: 1-based in lp.fns; 0 none */
  int64_t line;
} llocation;
typedef struct lfunction {
  uint32_t name, file; /* the builder's string ids */
  uint32_t id;         /* the builder's, once used */
} lfunction;

typedef struct lp {
  const char *name;
  pcol_error *err;
  pcol_buf samples; /* lsample */
  pcol_buf more;    /* int64_t: each sample's values after the first, then its
                     * "bytes" label (lkind.bytes_label): lkind_more() a sample */
  pcol_buf addr;    /* uint64_t, the samples' addresses, leaf first */
  pcol_buf loc;     /* uint32_t, the same as 0-based indices into locs */
  pcol_buf locs;    /* llocation, in first use */
  pcol_buf maps;    /* lmapping */
  pcol_buf fns;     /* lfunction */
  pcol_buf str;     /* bytes of the mappings' file names and build ids */
  pcol_u64map bymap; /* address -> its index in byix */
  pcol_buf byix;     /* uint32_t: 1 + the location's index in locs, 0 none */
  uint32_t maxloc;   /* the same for address UINT64_MAX, which bymap refuses */
} lp;


/* go's rule for a stack's addresses, the ith (0: the leaf) of a stack:
 * return addresses, taken back to the call (- 1). */
enum {
  LG_ADJ_NONE,    /* Java: as they are */
  LG_ADJ_CALLERS, /* CPU and thread profiles: all but the leaf (not a call) */
  LG_ADJ_ALL      /* heap, contention, Go's count profiles: every one */
};
static inline uint64_t pcol_lg_adjust(uint64_t a, size_t i, int mode) {
  return mode == LG_ADJ_ALL || (mode == LG_ADJ_CALLERS && i > 0) ? a - 1 : a;
}

/* What the profile is, for emit: its sample types, period, frames to
 * drop and keep (addLegacyFrameInfo), duration, the "bytes" label. */
typedef struct lkind {
  int nv;
  const char *type[4], *unit[4];
  const char *ptype, *punit; /* NULL: no period type (Java heapz) */
  int64_t period;
  const char *drop, *keep; /* NULL: none */
  int64_t duration;        /* PCOL_NA_I64: none */
  int bytes_label;
  int per_count; /* CPU: 2 values, the second the first x period (not in lp.more) */
} lkind;
static inline size_t lkind_more(const lkind *k) {
  return (k->per_count || k->nv < 1 ? 0 : (size_t)k->nv - 1) + (k->bytes_label ? 1 : 0);
}

#define LG_NS(b, T) ((b).len / sizeof(T))
#define LG_AT(b, T) ((T *)(void *)(b).data)

/* go's regexps of the frames addLegacyFrameInfo drops (keeps) */
extern const char pcol_lg_cpu_rx[], pcol_lg_alloc_rx[], pcol_lg_alloc_skip_rx[], pcol_lg_lock_rx[];

int pcol_lg_nomem(lp *p);
/* ParseProcMaps over t[0..n) (base: its offset, for messages), then
 * massageMappings */
int pcol_lg_read_maps(lp *p, const char *t, size_t n, size_t base);
void pcol_lg_massage_maps(lp *p);
int pcol_lg_number_locations(lp *p);
int pcol_lg_place_locations(lp *p);
void pcol_lg_drop_duplicate_leaf(lp *p);
int pcol_lg_java_symbols(lp *p, pcol_builder *b, const char *t, size_t n, size_t base);
void pcol_lg_java_unaddress(lp *p);
/* the profile into b (opt: --symbolize local) and p freed */
int pcol_lg_finish(lp *p, pcol_builder *b, const lkind *k, const pcol_import_options *opt, int rc);
/* go's int64(x) of a float64 (amd64: INT64_MIN past int64's range) */
int64_t pcol_lg_go_int64(double x);
/* scaleHeapSample */
void pcol_lg_scale_heap(int64_t *count, int64_t *size, int64_t rate);

#endif
