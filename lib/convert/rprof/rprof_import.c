/* rprof_import.c — R's Rprof() text output into a builder.  The parts of
 * the format the exporter shares (header/#File parsing, #File table,
 * canonical line rendering rules) are in rprof_common.c.
 *
 * One source per input; one sample per sample line (weight 1, time = sum of
 * the intervals of the earlier sample lines).  Headers and #File lines are
 * kept as text_lines at their positions; a sample whose canonical rendering
 * differs from its original bytes keeps those bytes in sample_text.
 * doc/mappings.md §1.
 *
 * Two stages, which may run on two threads (issue 17: packing uses both
 * cores).  The parser reads the input in blocks, splits lines, parses them,
 * decides which lines are canonical and which repeat the previous one, and
 * numbers the distinct frames (name, file, line) in order of first use; it
 * touches no builder.  The builder stage takes the parsed blocks in input
 * order and makes every builder call, in the same order as one thread
 * would, so the file is byte-identical whatever the timing.  A parse error
 * is passed along as the end of the stream: the builder stage reports it
 * after everything before it, as the sequential reading did. */
#include "rprof.h"
#include "keys.h"     /* PCOL_SRC_RPROF, RPROF_META_EOL, RPROF_META_FINAL_NEWLINE, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_error_in */
#include "bytes.h"    /* pcol_rd64 */
#include "buf.h"      /* pcol_buf_free, pcol_buf, pcol_buf_append, ... */
#include "hash.h"     /* pcol_hs_add, pcol_hash_bytes, pcol_hs_end, ... */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include "instream.h" /* pcol_input_cap */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EOL_NONE = 0, EOL_LF = 1, EOL_CRLF = 2 };

/* ------------------------------------------------- parsed blocks */

enum { REC_HEADER = 1, REC_FILE, REC_SAMPLE, REC_REPEAT };

/* One parsed line; text at data[off, off + n) of its block. */
typedef struct rp_rec {
  uint8_t kind, last_eol, cr_dangling, canonical, cut, has_mem;
  uint64_t lineno;
  size_t off, n;
  uint64_t mem[RPROF_NMEM]; /* has_mem */
  unsigned flags;           /* REC_HEADER */
  uint64_t iv;
  size_t path_at, plen;     /* REC_FILE: the path; path_idx its index */
  uint32_t path_idx;
  uint32_t nfr;             /* REC_SAMPLE: frame numbers at frs[fr_at ..) */
  size_t fr_at;
  uint32_t tid;             /* REC_SAMPLE: its stack part's number (0: none) */
  uint8_t hit;              /* ... seen before: no frames, the stack of tid */
} rp_rec;

/* A frame numbered for the first time: what the builder stage needs to
 * make its location.  has_name 0: a ref with no function after it. */
typedef struct rp_newfr {
  size_t name_at, name_len;
  int has_name;
  uint32_t path_idx;
  int64_t line;
} rp_newfr;

typedef struct rp_block {
  char *data;
  size_t len, cap;
  pcol_buf recs;  /* rp_rec[] */
  pcol_buf frs;   /* uint32_t frame numbers, innermost first per sample */
  pcol_buf newfr; /* rp_newfr[], in frame number order */
  int eol_default;
  int last;       /* the parser's last block; err_rc: how it ended */
  int err_rc;
} rp_block;

/* ------------------------------------------------------- the parser */

typedef struct rp_fc_entry {
  uint64_t hash;
  uint32_t num; /* frame number + 1; 0 = empty slot */
  uint32_t path_idx;
  int64_t line;
  uint32_t name_off, name_len; /* name_len UINT32_MAX: no name */
} rp_fc_entry;

#define RP_SMALL_NUMS 256

/* A canonical stack part (the text after any memory prefix) seen before. */
typedef struct rp_tail {
  uint64_t hash;
  uint32_t off, len; /* in the generation's bytes */
  uint32_t tid;      /* 0 = empty slot */
} rp_tail;
/* The tail cache is two generations of at most RP_TAIL_BYTES of text each,
 * which bounds its memory whatever the number of distinct stacks: new
 * tails go to the young one; when it is full, the old one is dropped and
 * the young one becomes old.  A tail found in the old generation is copied
 * to the young one, so popular stacks stay. */
#define RP_TAIL_BYTES ((size_t)8 << 20)
typedef struct rp_tgen {
  rp_tail *t;
  size_t cap, count;
  pcol_buf bytes;
} rp_tgen;

typedef struct rp_parse {
  const char *name;
  pcol_error err;
  FILE *in;
  uint64_t cap, total; /* input cap; bytes read */
  int over, eof, read_error;
  size_t next_block; /* size of the next block's read */
  uint64_t lineno;
  int eol_default, last_eol;
  uint64_t segments;
  pcol_rprof_ftab ft;
  uint32_t small[RP_SMALL_NUMS]; /* #File number < 256 -> ftab entry id */
  pcol_buf frames;               /* pcol_rprof_frame[] of the current line */
  pcol_buf carry;                /* a line cut by the end of a block */
  /* The previous sample line's stack part (after any memory prefix), when
   * it parsed completely and was canonical: a repeated stack (runs of
   * identical lines are the norm in Rprof) is passed on as a repeat.  Any
   * text line (header, #File) clears it. */
  pcol_buf prev_tail;
  int prev_ok;
  /* every distinct path of a #File line gets an index (1-based) */
  pcol_hset paths;
  pcol_buf path_ents; /* {size_t off, len}[] */
  pcol_buf path_pool;
  /* frame cache: (name bytes, path, line) -> frame number */
  rp_fc_entry *fc;
  size_t fc_cap, fc_count;
  pcol_buf fc_names;
  pcol_buf fhash; /* uint64_t[]: the hashes of the current line's frames */
  uint32_t nframes; /* frame numbers given */
  /* tail cache: canonical stack part -> tid, within one segment (a new
   * segment's #File lines may give the same text another meaning) */
  rp_tgen tg[2]; /* tg[young], tg[!young] */
  int young;
  /* the stack part of the line being parsed and its hash, when the block
   * loop hashed it ahead (parse_block): used only if the parse finds the
   * same bytes there (tp NULL: none) */
  const char *ah_tp;
  size_t ah_tn;
  uint64_t ah_th;
  uint32_t ntails; /* tids given */
} rp_parse;

#define PFAIL(P, code, ...) pcol_error_set(&(P)->err, code, __VA_ARGS__)

static int pfail_rc(rp_parse *P, int rc) {
  return PFAIL(P, rc, "%s:%" PRIu64 ": %s", P->name, P->lineno, pcol_strerror(rc));
}

typedef struct path_ent {
  size_t off, len;
} path_ent;

static int path_eq(const void *ctx, uint32_t id, const void *key) {
  const rp_parse *P = ctx;
  const path_ent *e = (const path_ent *)(const void *)P->path_ents.data + (id - 1);
  const path_ent *k = key; /* off: a pointer, as the key's bytes */
  const char *kp;
  memcpy(&kp, &k->off, sizeof kp);
  return e->len == k->len && (k->len == 0 || memcmp(P->path_pool.data + e->off, kp, k->len) == 0);
}

/* The index of a path (made on first sight). */
static int path_index(rp_parse *P, const char *path, size_t len, uint32_t *idx) {
  path_ent k = {0, len};
  memcpy(&k.off, &path, sizeof path);
  uint64_t h = pcol_hash_bytes(path, len, 11);
  uint32_t id = pcol_hset_find(&P->paths, h, path_eq, P, &k);
  if (!id) {
    if (P->path_ents.len / sizeof(path_ent) >= UINT32_MAX - 1) return PCOL_ETOOBIG;
    path_ent e = {P->path_pool.len, len};
    if (pcol_buf_append(&P->path_pool, path, len) || pcol_buf_append(&P->path_ents, &e, sizeof e))
      return PCOL_ENOMEM;
    id = (uint32_t)(P->path_ents.len / sizeof e);
    if (pcol_hset_insert(&P->paths, h, id)) return PCOL_ENOMEM;
  }
  *idx = id;
  return PCOL_OK;
}

/* The first #File entry of this segment with number num; NULL if none. */
static const pcol_rprof_fent *file_entry(const rp_parse *P, uint64_t num) {
  if (num < RP_SMALL_NUMS) {
    uint32_t id = P->small[num];
    return id ? (const pcol_rprof_fent *)(const void *)P->ft.ents.data + (id - 1) : NULL;
  }
  return pcol_rprof_ftab_num(&P->ft, num);
}

/* Unsigned decimal at p[*i..n) as pcol_rprof_parse_u64, and whether it is
 * written as the exporter writes it (no leading zero). */
static inline int parse_num(const char *p, size_t n, size_t *i, uint64_t *out, int *canon) {
  size_t s = *i;
  int a = pcol_rprof_parse_u64(p, n, i, out);
  if (a == 1 && *i - s > 1 && p[s] == '0') *canon = 0;
  return a;
}

/* A ref "digits#digits" at p[i..n) followed by a space or the end: 1 = yes
 * (with *end after the space), 0 = no, -1 = cut off by the end of the line,
 * -2 = a ref whose number does not fit in 64 bits.  *canon is cleared when
 * a number has a leading zero. */
static int scan_ref(const char *p, size_t n, size_t i, uint64_t *file, uint64_t *line,
                    size_t *end, int *canon) {
  size_t k = i;
  int a = parse_num(p, n, &k, file, canon);
  if (a <= 0) return a < 0 ? -2 : 0;
  if (k == n) return -1;
  if (p[k] != '#') return 0;
  k++;
  if (k == n) return -1;
  int c = parse_num(p, n, &k, line, canon);
  if (c <= 0) return c < 0 ? -2 : 0;
  if (k == n) return -1; /* no space after it: cut off (maybe mid-number) */
  if (p[k] != ' ') return 0;
  *end = k + 1;
  return 1;
}

/* A frame of the current line; *canon is cleared when the exporter would
 * not write its ref as it stands (a file number without a #File line, or
 * not the first number of its path). */
static int push_frame(rp_parse *P, const char *name, size_t nlen, int has_ref, uint64_t file,
                      uint64_t line, int *canon) {
  pcol_rprof_frame f = {name, nlen, 0, PCOL_NA_I64, 0};
  if (has_ref) {
    if (line > (uint64_t)INT64_MAX)
      return PFAIL(P, PCOL_ECORRUPT, "%s:%" PRIu64 ": line number %" PRIu64 " is too large",
                   P->name, P->lineno, line);
    f.line = (int64_t)line;
    const pcol_rprof_fent *e = file_entry(P, file);
    if (e) {
      /* canonical number: the first #File line of this segment naming the path */
      f.file_sid = e->sid;
      f.fileno = e->canon;
      if (f.fileno != file) *canon = 0;
    } else {
      /* a file number without a #File line: the line is kept, the file is
       * unknown, and the original text preserves the ref */
      *canon = 0;
    }
  }
  if (pcol_buf_append(&P->frames, &f, sizeof f)) return pfail_rc(P, PCOL_ENOMEM);
  return PCOL_OK;
}

/* Parses the memory prefix ":a:b:c:d:" at the start of p.  1 = ok (*i after
 * it), 0 = malformed, -1 = cut off by the end of the line, -2 = error (set). */
static int scan_mem(rp_parse *P, const char *p, size_t n, size_t *i, uint64_t mem[4],
                    int *canon) {
  size_t k = 1;
  for (int f = 0; f < RPROF_NMEM; f++) {
    int a = parse_num(p, n, &k, &mem[f], canon);
    if (a < 0)
      return PFAIL(P, PCOL_ECORRUPT, "%s:%" PRIu64 ": memory field %d does not fit in 64 bits",
                   P->name, P->lineno, f + 1), -2;
    if (a == 0) return k == n ? -1 : 0;
    if (k == n) return -1;
    if (p[k] != ':') return 0;
    k++;
    if (mem[f] > (uint64_t)(INT64_MAX / pcol_rprof_mem_factor[f]))
      return PFAIL(P, PCOL_ECORRUPT,
                   "%s:%" PRIu64 ": memory field %d (%s) = %" PRIu64
                   " is too large to store in bytes as int64",
                   P->name, P->lineno, f + 1, pcol_rprof_mem_type[f], mem[f]), -2;
  }
  *i = k;
  return 1;
}

/* Where the name whose opening quote is at p[i] ends: 1 with *close (its
 * closing quote) and *next (where the next token starts), 0 when nothing
 * closes it before the end of the line.  A name ends at '" ' followed by
 * '"', a ref or the end of the line, or at a '"' that ends the line (cut
 * before its space).  Names may hold spaces and quotes, so nothing simpler
 * works. */
static int name_end(const char *p, size_t n, size_t i, size_t *close, size_t *next) {
  size_t j = i + 1;
  for (;;) {
    const char *q = j < n ? memchr(p + j, '"', n - j) : NULL;
    if (!q) return 0;
    j = (size_t)(q - p);
    if (j + 1 == n) {
      *close = j, *next = n;
      return 1;
    }
    if (p[j + 1] == ' ') {
      size_t k = j + 2, e2;
      uint64_t a, b2;
      int c2 = 1;
      if (k == n || p[k] == '"' || scan_ref(p, n, k, &a, &b2, &e2, &c2) != 0) {
        *close = j, *next = k;
        return 1;
      }
    }
    j++;
  }
}

/* The tokenizer: the frames of the stack part p[i..n) of a sample line into
 * P->frames, innermost first.  Sets *cut when the line ends inside a name or
 * a ref (R cut it off); anything else malformed is an error.  *canon is
 * cleared when the exporter would write the frames differently (see
 * pcol_rprof_render: every name as '"name" ', every ref as 'file#line '
 * with the canonical file number, numbers without leading zeros). */
static int scan_frames(rp_parse *P, const char *p, size_t n, size_t i, int *cut, int *canon) {
  int pending = 0, rc; /* a ref waiting for the name after it */
  uint64_t pf = 0, pl = 0;
  P->frames.len = 0;
  while (i < n && !*cut) {
    if (p[i] == '"') {
      size_t close, next;
      if (!name_end(p, n, i, &close, &next)) {
        /* a name cut off by the end of the line; one holding '" ' would
         * have ended there, so that is garbage rather than a cut */
        for (size_t k = i + 1; k + 1 < n; k++)
          if (p[k] == '"' && p[k + 1] == ' ')
            return PFAIL(P, PCOL_ECORRUPT,
                         "%s:%" PRIu64 ":%zu: unexpected text after the name that starts at "
                         "column %zu",
                         P->name, P->lineno, k + 3, i + 1);
        *cut = 1;
        break;
      }
      if (next != close + 2) *canon = 0; /* '"' ending the line: no space */
      if ((rc = push_frame(P, p + i + 1, close - i - 1, pending, pf, pl, canon))) return rc;
      pending = 0;
      i = next;
    } else if (isdigit((unsigned char)p[i])) {
      uint64_t f, l;
      size_t e;
      int s = scan_ref(p, n, i, &f, &l, &e, canon);
      if (s == -2)
        return PFAIL(P, PCOL_ECORRUPT,
                     "%s:%" PRIu64 ":%zu: number in source reference does not fit in 64 bits",
                     P->name, P->lineno, i + 1);
      if (s == -1) {
        *cut = 1; /* a ref cut off by the end of the line */
        break;
      }
      if (s == 0)
        return PFAIL(P, PCOL_ECORRUPT,
                     "%s:%" PRIu64 ":%zu: malformed source reference (expected FILE#LINE "
                     "followed by a space)",
                     P->name, P->lineno, i + 1);
      /* two refs in a row: the first has no function after it */
      if (pending && (rc = push_frame(P, NULL, 0, 1, pf, pl, canon))) return rc;
      pending = 1, pf = f, pl = l;
      i = e;
    } else {
      return PFAIL(P, PCOL_ECORRUPT,
                   "%s:%" PRIu64 ":%zu: not an Rprof header, #File line or sample line "
                   "(unexpected byte 0x%02x)",
                   P->name, P->lineno, i + 1, (unsigned char)p[i]);
    }
  }
  /* a trailing ref: a line of top-level code, in no named function */
  if (pending && (rc = push_frame(P, NULL, 0, 1, pf, pl, canon))) return rc;
  return PCOL_OK;
}

/* Doubles an open-addressing table (linear probing) of esz-byte entries
 * that start with their uint64_t hash and are empty when the uint32_t at
 * used_off is 0. */
static int oa_grow(void *arr_ptr, size_t *cap, size_t esz, size_t used_off) {
  size_t nc = *cap ? *cap * 2 : 4096;
  if (nc > SIZE_MAX / esz) return PCOL_ENOMEM;
  uint8_t *nt = calloc(nc, esz), *t;
  if (!nt) return PCOL_ENOMEM;
  memcpy(&t, arr_ptr, sizeof t); /* arr_ptr is a T **: copy, do not alias (as pcol_grow) */
  for (size_t i = 0; i < *cap; i++) {
    const uint8_t *e = t + i * esz;
    uint32_t used;
    uint64_t h;
    memcpy(&used, e + used_off, sizeof used);
    if (!used) continue;
    memcpy(&h, e, sizeof h);
    size_t j = h & (nc - 1);
    for (;; j = (j + 1) & (nc - 1)) {
      memcpy(&used, nt + j * esz + used_off, sizeof used);
      if (!used) break;
    }
    memcpy(nt + j * esz, e, esz);
  }
  free(t);
  memcpy(arr_ptr, &nt, sizeof nt);
  *cap = nc;
  return PCOL_OK;
}

/* ---- frame cache: (name bytes, path, line) -> frame number, so that the
 * builder stage makes each distinct frame's location once and then reads
 * it from an array.  Keyed hash: names come from the file. */
static uint64_t frame_hash(const pcol_rprof_frame *f) {
  pcol_hstate s;
  pcol_hs_init(&s, 7);
  if (f->name) {
    const uint8_t *q = (const uint8_t *)f->name;
    size_t m = f->name_len;
    for (; m >= 8; m -= 8, q += 8) pcol_hs_add(&s, pcol_rd64(q));
    uint64_t last = (uint64_t)(f->name_len & 0xff) << 56;
    for (size_t i = 0; i < m; i++) last |= (uint64_t)q[i] << (8 * i);
    pcol_hs_add(&s, last);
  } else {
    pcol_hs_add(&s, UINT64_MAX); /* no name: differs from every name's last word */
  }
  pcol_hs_add(&s, f->file_sid);
  pcol_hs_add(&s, (uint64_t)f->line);
  return pcol_hs_end(&s);
}

static const rp_fc_entry *fc_find(const rp_parse *P, const pcol_rprof_frame *f, uint64_t h) {
  if (!P->fc_cap) return NULL;
  size_t mask = P->fc_cap - 1;
  uint32_t nlen = f->name ? (uint32_t)f->name_len : UINT32_MAX;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const rp_fc_entry *e = &P->fc[i];
    if (!e->num) return NULL;
    if (e->hash == h && e->path_idx == f->file_sid && e->line == f->line &&
        e->name_len == nlen &&
        (nlen == UINT32_MAX || nlen == 0 ||
         memcmp(P->fc_names.data + e->name_off, f->name, nlen) == 0))
      return e;
  }
}

static int fc_insert(rp_parse *P, const pcol_rprof_frame *f, uint64_t h, uint32_t num) {
  if (f->name && (f->name_len >= UINT32_MAX || P->fc_names.len > UINT32_MAX - f->name_len))
    return PCOL_OK; /* not cached: a new number each time, still correct */
  if ((P->fc_count + 1) * 4 > P->fc_cap * 3 &&
      oa_grow(&P->fc, &P->fc_cap, sizeof *P->fc, offsetof(rp_fc_entry, num)))
    return PCOL_ENOMEM;
  rp_fc_entry e = {h, num + 1, f->file_sid, f->line, (uint32_t)P->fc_names.len,
                   f->name ? (uint32_t)f->name_len : UINT32_MAX};
  if (f->name && pcol_buf_append(&P->fc_names, f->name, f->name_len)) return PCOL_ENOMEM;
  size_t j = h & (P->fc_cap - 1);
  while (P->fc[j].num) j = (j + 1) & (P->fc_cap - 1);
  P->fc[j] = e;
  P->fc_count++;
  return PCOL_OK;
}

/* ---- tail cache */
static void tg_clear(rp_tgen *g) {
  if (g->t) memset(g->t, 0, g->cap * sizeof *g->t);
  g->count = 0;
  g->bytes.len = 0;
}
static void tc_clear(rp_parse *P) {
  tg_clear(&P->tg[0]);
  tg_clear(&P->tg[1]);
}

static uint32_t tg_find(const rp_tgen *g, uint64_t h, const char *p, size_t n) {
  if (!g->cap) return 0;
  size_t mask = g->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const rp_tail *e = &g->t[i];
    if (!e->tid) return 0;
    /* (an empty tail, a sample of no frames, may be the only one stored:
     * no bytes then, so none compared) */
    if (e->hash == h && e->len == n && (n == 0 || memcmp(g->bytes.data + e->off, p, n) == 0)) return e->tid;
  }
}

/* Stores the tail p[0, n) with tid in the young generation (turning the
 * generations over when it is full). */
static int tg_put(rp_parse *P, uint64_t h, const char *p, size_t n, uint32_t tid) {
  rp_tgen *g = &P->tg[P->young];
  if (g->bytes.len + n > RP_TAIL_BYTES) {
    P->young = !P->young;
    g = &P->tg[P->young];
    tg_clear(g);
  }
  if ((g->count + 1) * 2 > g->cap &&
      oa_grow(&g->t, &g->cap, sizeof *g->t, offsetof(rp_tail, tid)))
    return PCOL_ENOMEM;
  rp_tail e = {h, (uint32_t)g->bytes.len, (uint32_t)n, tid};
  if (pcol_buf_append(&g->bytes, p, n)) return PCOL_ENOMEM;
  size_t j = h & (g->cap - 1);
  while (g->t[j].tid) j = (j + 1) & (g->cap - 1);
  g->t[j] = e;
  g->count++;
  return PCOL_OK;
}

/* The tid of a tail seen before (0: none); -1 on ENOMEM. */
static int64_t tc_find(rp_parse *P, uint64_t h, const char *p, size_t n) {
  uint32_t tid = tg_find(&P->tg[P->young], h, p, n);
  if (tid) return tid;
  if ((tid = tg_find(&P->tg[!P->young], h, p, n)) != 0 && tg_put(P, h, p, n, tid))
    return -1;
  return tid;
}

/* Gives the tail p[0, n) a new tid (*tid; 0 when it is too long to keep). */
static int tc_add(rp_parse *P, uint64_t h, const char *p, size_t n, uint32_t *tid) {
  *tid = 0;
  if (n > RP_TAIL_BYTES / 16 || P->ntails >= UINT32_MAX - 1) return PCOL_OK;
  PCOL_RETURN_NOT_OK(tg_put(P, h, p, n, P->ntails + 1));
  *tid = ++P->ntails;
  return PCOL_OK;
}

/* The first entry of h's chain with hash h (NULL: none): where fc_find
 * will compare names, to fetch ahead. */
static const rp_fc_entry *fc_peek(const rp_parse *P, uint64_t h) {
  size_t mask = P->fc_cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const rp_fc_entry *e = &P->fc[i];
    if (!e->num || e->hash == h) return e->num ? e : NULL;
  }
}

/* The frame numbers of P->frames into the block (new frames defined). */
static int number_frames(rp_parse *P, rp_block *blk, size_t nfr) {
  const pcol_rprof_frame *fr = (const pcol_rprof_frame *)(const void *)P->frames.data;
  if (pcol_buf_reserve(&blk->frs, nfr * sizeof(uint32_t)) ||
      pcol_buf_reserve(&P->fhash, nfr * sizeof(uint64_t)))
    return pfail_rc(P, PCOL_ENOMEM);
  /* A line's lookups are cache misses (10^5-10^6 frames, their slots and
   * names at random): its hashes made first and the slots fetched, then
   * the names the chains point to, so that the misses overlap instead of
   * coming one after another (fc_find was ~30% of the parser's time). */
  uint64_t *hs = (uint64_t *)(void *)P->fhash.data;
  for (size_t k = 0; k < nfr; k++) {
    hs[k] = frame_hash(&fr[k]);
    if (P->fc_cap) __builtin_prefetch(&P->fc[hs[k] & (P->fc_cap - 1)]);
  }
  for (size_t k = 0; P->fc_cap && k < nfr; k++) {
    const rp_fc_entry *e = fc_peek(P, hs[k]);
    if (e && e->name_len != UINT32_MAX) __builtin_prefetch(P->fc_names.data + e->name_off);
  }
  for (size_t k = 0; k < nfr; k++) {
    uint64_t h = hs[k];
    const rp_fc_entry *hit = fc_find(P, &fr[k], h);
    uint32_t num;
    if (hit) {
      num = hit->num - 1;
    } else {
      if (P->nframes >= UINT32_MAX - 1) return pfail_rc(P, PCOL_ETOOBIG);
      num = P->nframes++;
      rp_newfr d = {fr[k].name ? (size_t)(fr[k].name - blk->data) : 0, fr[k].name_len,
                    fr[k].name != NULL, fr[k].file_sid, fr[k].line};
      if (pcol_buf_append(&blk->newfr, &d, sizeof d) || fc_insert(P, &fr[k], h, num))
        return pfail_rc(P, PCOL_ENOMEM);
    }
    memcpy(blk->frs.data + blk->frs.len, &num, sizeof num);
    blk->frs.len += sizeof num;
  }
  return PCOL_OK;
}

static int push_rec(rp_parse *P, rp_block *blk, const rp_rec *rec) {
  if (pcol_buf_append(&blk->recs, rec, sizeof *rec)) return pfail_rc(P, PCOL_ENOMEM);
  return PCOL_OK;
}

static int parse_sample(rp_parse *P, rp_block *blk, rp_rec *rec) {
  const char *p = blk->data + rec->off;
  size_t n = rec->n, i = 0;
  int cut = 0, canon = 1, tail_canon = 1, rc;
  if (p[0] == ':') {
    int m = scan_mem(P, p, n, &i, rec->mem, &canon);
    if (m == -2) return P->err.code;
    if (m == 0)
      return PFAIL(P, PCOL_ECORRUPT,
                   "%s:%" PRIu64 ": malformed memory prefix (expected :small:big:nodes:dups:)",
                   P->name, P->lineno);
    if (m < 0) cut = 1, i = n;
    else rec->has_mem = 1;
  }
  if (P->prev_ok && !cut && n - i == P->prev_tail.len &&
      (n == i || memcmp(p + i, P->prev_tail.data, n - i) == 0)) {
    /* the tail is canonical; so is the line if its memory prefix is */
    rec->kind = REC_REPEAT;
    rec->canonical = (uint8_t)canon;
    return push_rec(P, blk, rec);
  }
  rec->kind = REC_SAMPLE;
  uint64_t th = 0;
  if (!cut) { /* a canonical stack part seen before in this segment */
    th = p + i == P->ah_tp && n - i == P->ah_tn ? P->ah_th : pcol_hash_bytes(p + i, n - i, 13);
    int64_t t = tc_find(P, th, p + i, n - i);
    if (t < 0) return pfail_rc(P, PCOL_ENOMEM);
    if ((rec->tid = (uint32_t)t) != 0) {
      rec->hit = 1;
      rec->canonical = (uint8_t)canon;
      goto done;
    }
  }
  if ((rc = scan_frames(P, p, n, i, &cut, &tail_canon))) return rc;
  size_t nfr = P->frames.len / sizeof(pcol_rprof_frame);
  rec->cut = (uint8_t)cut;
  rec->canonical = (uint8_t)(canon && tail_canon && !cut);
  rec->fr_at = blk->frs.len / sizeof(uint32_t);
  rec->nfr = (uint32_t)nfr;
  if (nfr > UINT32_MAX) return pfail_rc(P, PCOL_ETOOBIG);
  if ((rc = number_frames(P, blk, nfr))) return rc;
  if (tail_canon && !cut && tc_add(P, th, p + i, n - i, &rec->tid)) return pfail_rc(P, PCOL_ENOMEM);
done:
  P->prev_ok = rec->canonical;
  if (rec->canonical) {
    P->prev_tail.len = 0;
    if (pcol_buf_append(&P->prev_tail, p + i, n - i)) P->prev_ok = 0;
  }
  return push_rec(P, blk, rec);
}

static int parse_fileline(rp_parse *P, rp_block *blk, rp_rec *rec, uint64_t num,
                          const char *path, size_t plen) {
  uint32_t idx;
  int rc = path_index(P, path, plen, &idx);
  int fresh = num < RP_SMALL_NUMS && !P->small[num];
  if (!rc) rc = pcol_rprof_ftab_add(&P->ft, num, path, plen, idx);
  if (rc) return pfail_rc(P, rc);
  if (fresh) P->small[num] = pcol_rprof_ftab_count(&P->ft); /* the entry just added */
  P->prev_ok = 0;
  rec->kind = REC_FILE;
  rec->path_at = (size_t)(path - blk->data);
  rec->plen = plen;
  rec->path_idx = idx;
  return push_rec(P, blk, rec);
}

/* One line (got bytes at data[off], its line end included). */
static int parse_line(rp_parse *P, rp_block *blk, size_t off, size_t got) {
  const char *line = blk->data + off;
  P->lineno++;
  size_t n = got;
  rp_rec rec;
  memset(&rec, 0, sizeof rec);
  P->last_eol = EOL_NONE;
  if (line[n - 1] == '\n') {
    n--, P->last_eol = EOL_LF;
    if (n && line[n - 1] == '\r') n--, P->last_eol = EOL_CRLF;
  } else if (line[n - 1] == '\r') {
    n--, rec.cr_dangling = 1; /* cut between CR and LF */
  }
  if (P->lineno == 1) P->eol_default = P->last_eol == EOL_CRLF ? EOL_CRLF : EOL_LF;
  rec.last_eol = (uint8_t)P->last_eol;
  rec.lineno = P->lineno;
  rec.off = off;
  rec.n = n;
  unsigned flags;
  uint64_t iv, num;
  const char *path;
  size_t plen;
  int ok;
  if (pcol_rprof_is_header(line, n, &flags, &iv, &ok)) {
    if (!ok)
      return PFAIL(P, PCOL_ECORRUPT,
                   "%s:%" PRIu64 ": malformed Rprof header (expected [memory profiling: ][GC "
                   "profiling: ][line profiling: ]sample.interval=N)",
                   P->name, P->lineno);
    if (iv > (uint64_t)INT64_MAX / 1000)
      return PFAIL(P, PCOL_ETOOBIG, "%s:%" PRIu64 ": sample.interval=%" PRIu64 " is too large",
                   P->name, P->lineno, iv);
    P->segments++;
    pcol_rprof_ftab_reset(&P->ft);
    tc_clear(P);
    memset(P->small, 0, sizeof P->small);
    P->prev_ok = 0;
    rec.kind = REC_HEADER;
    rec.flags = flags;
    rec.iv = iv;
    return push_rec(P, blk, &rec);
  }
  if (P->segments == 0)
    return PFAIL(P, PCOL_ECORRUPT,
                 "%s:%" PRIu64 ": not an Rprof file: the first line must be a header such as "
                 "'sample.interval=20000'",
                 P->name, P->lineno);
  if (n == 0)
    return PFAIL(P, PCOL_ECORRUPT, "%s:%" PRIu64 ": empty line (Rprof never writes one)",
                 P->name, P->lineno);
  if (pcol_rprof_is_fileline(line, n, &num, &path, &plen, &ok)) {
    if (!ok)
      return PFAIL(P, PCOL_ECORRUPT, "%s:%" PRIu64 ": malformed #File line (expected '#File N: PATH')",
                   P->name, P->lineno);
    return parse_fileline(P, blk, &rec, num, path, plen);
  }
  return parse_sample(P, blk, &rec);
}

/* Block sizes: the first is small, so that small inputs are parsed in one
 * block (no thread), and the size doubles up to RP_BLOCK_MAX. */
#define RP_BLOCK_FIRST ((size_t)16 << 10)
#define RP_BLOCK_MAX ((size_t)1 << 20)

/* Reads into blk->data up to its capacity (within the input cap). */
static void read_more(rp_parse *P, rp_block *blk) {
  if (P->eof) return;
  size_t want = blk->cap - blk->len;
  /* one byte past the cap tells "over" */
  uint64_t allowed = P->cap - P->total < UINT64_MAX ? P->cap - P->total + 1 : UINT64_MAX;
  if (want > allowed) want = (size_t)allowed;
  size_t got = want ? fread(blk->data + blk->len, 1, want, P->in) : 0;
  P->total += got;
  blk->len += got;
  if (P->total > P->cap) { /* the byte past the cap: not part of the input */
    P->over = 1;
    P->eof = 1;
    blk->len--;
    P->total--;
  } else if (got < want) {
    P->eof = 1;
    if (ferror(P->in)) P->read_error = errno ? errno : EIO;
  }
}

static int ensure_cap(rp_parse *P, rp_block *blk, size_t cap) {
  if (blk->cap >= cap) return PCOL_OK;
  char *d = realloc(blk->data, cap);
  if (!d) return pfail_rc(P, PCOL_ENOMEM);
  blk->data = d;
  blk->cap = cap;
  return PCOL_OK;
}

/* After the last line: the checks of the end of the input. */
static int parse_end(rp_parse *P) {
  if (P->over)
    return PFAIL(P, PCOL_ETOOBIG, "%s:%" PRIu64 ": input larger than %" PRIu64 " bytes", P->name,
                 P->lineno, P->cap);
  if (P->read_error)
    return PFAIL(P, PCOL_EIO, "%s: read error after line %" PRIu64 ": %s", P->name, P->lineno,
                 strerror(P->read_error));
  if (P->lineno == 0) return PFAIL(P, PCOL_ECORRUPT, "%s: empty input: no Rprof header", P->name);
  return PCOL_OK;
}

/* ---- the tail cache's lookups, ahead of the parse: most lines that are
 * not repeats look their stack part up in a table of ~10^5 tails, a cache
 * miss for the slot and another for the bytes.  The block loop finds line
 * ends TAIL_AHEAD lines ahead of the parse: a line found is hashed and its
 * slots fetched; the next line to parse has its bytes fetched from the
 * slot, so that both misses overlap the parse of the lines before. */
#define TAIL_AHEAD 2
typedef struct rp_ahead {
  size_t end;      /* the line's end in the block (after its '\n') */
  const char *tp;  /* its stack part, as parse_sample finds it when well formed */
  size_t tn;
  uint64_t th;
  int hashed;      /* 0: a likely repeat of the line before (no lookup) */
} rp_ahead;

/* The first slot of h's chain in g holding h (NULL: none). */
static const rp_tail *tg_peek(const rp_tgen *g, uint64_t h) {
  if (!g->cap) return NULL;
  size_t mask = g->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const rp_tail *e = &g->t[i];
    if (!e->tid || e->hash == h) return e->tid ? e : NULL;
  }
}

/* A line found ahead (p[0, n), its line end included; prev: the line
 * before it, or NULL): its stack part (after a memory prefix) hashed and
 * its slots in both generations fetched, unless it repeats prev's. */
static void tail_ahead(const rp_parse *P, const char *p, size_t n, const rp_ahead *prev,
                       rp_ahead *a) {
  if (n && p[n - 1] == '\n') n--;
  if (n && p[n - 1] == '\r') n--;
  size_t i = 0;
  if (n && p[0] == ':')
    for (int c = 0; ++i < n && c < RPROF_NMEM;) c += p[i] == ':';
  a->tp = p + i, a->tn = n - i, a->hashed = 0;
  if (prev && prev->tn == a->tn && memcmp(prev->tp, a->tp, a->tn) == 0) return;
  a->th = pcol_hash_bytes(a->tp, a->tn, 13); /* (parse_sample's hash) */
  a->hashed = 1;
  for (int g = 0; g < 2; g++)
    if (P->tg[g].cap) __builtin_prefetch(&P->tg[g].t[a->th & (P->tg[g].cap - 1)]);
}

/* The next line to parse: the bytes of the tail its slot points to. */
static void tail_bytes_ahead(const rp_parse *P, const rp_ahead *a) {
  if (!a->hashed) return;
  const rp_tail *e = tg_peek(&P->tg[P->young], a->th);
  const rp_tgen *g = &P->tg[P->young];
  if (!e) e = tg_peek(g = &P->tg[!P->young], a->th);
  for (size_t o = 0; e && o < e->len && o < 256; o += 64) __builtin_prefetch(g->bytes.data + e->off + o);
}

/* Fills blk with the next lines of the input: the carried part of a line,
 * then a block's worth of reading; every complete line is parsed, the rest
 * carried to the next block.  At the end of the input (or on a parse
 * error) blk->last is set, with blk->err_rc. */
static void parse_block(rp_parse *P, rp_block *blk) {
  blk->len = 0;
  blk->recs.len = blk->frs.len = blk->newfr.len = 0;
  blk->last = 0;
  blk->err_rc = PCOL_OK;
  int rc = ensure_cap(P, blk, P->next_block > P->carry.len * 2 ? P->next_block : P->carry.len * 2);
  if (rc) goto fail;
  if (P->next_block < RP_BLOCK_MAX) P->next_block *= 2;
  if (P->carry.len) memcpy(blk->data, P->carry.data, P->carry.len);
  blk->len = P->carry.len;
  P->carry.len = 0;
  size_t pos = 0;
  for (;;) {
    read_more(P, blk);
    /* q[0, nq): the lines found ahead, q[0] the next to parse (see tail_ahead) */
    rp_ahead q[TAIL_AHEAD + 1];
    size_t nq = 0, scan = pos;
    const char *nl;
    for (;;) {
      while (nq <= TAIL_AHEAD && scan < blk->len &&
             (nl = memchr(blk->data + scan, '\n', blk->len - scan)) != NULL) {
        size_t end = (size_t)(nl - blk->data) + 1;
        tail_ahead(P, blk->data + scan, end - scan, nq ? &q[nq - 1] : NULL, &q[nq]);
        q[nq++].end = end;
        scan = end;
      }
      if (!nq) break;
      if (nq > 1) tail_bytes_ahead(P, &q[1]);
      if (q[0].hashed) P->ah_tp = q[0].tp, P->ah_tn = q[0].tn, P->ah_th = q[0].th;
      rc = parse_line(P, blk, pos, q[0].end - pos);
      P->ah_tp = NULL; /* (the block's bytes change under it) */
      if (rc) goto fail;
      pos = q[0].end;
      memmove(q, q + 1, --nq * sizeof *q);
    }
    if (pos > 0 || P->eof) break;
    /* not one whole line in the block: make it bigger (the input cap bounds it) */
    if ((rc = blk->cap > SIZE_MAX / 2 ? pfail_rc(P, PCOL_ENOMEM) : ensure_cap(P, blk, blk->cap * 2)))
      goto fail;
  }
  if (!P->eof) {
    blk->eol_default = P->eol_default;
    if (pcol_buf_append(&P->carry, blk->data + pos, blk->len - pos)) {
      rc = pfail_rc(P, PCOL_ENOMEM);
      goto fail;
    }
    return;
  }
  if (pos < blk->len) { /* the last line has no line end */
    if (P->over) {
      P->lineno++; /* the line the cap cut */
    } else if (!P->read_error && (rc = parse_line(P, blk, pos, blk->len - pos))) {
      goto fail;
    }
  }
  rc = parse_end(P);
fail:
  blk->eol_default = P->eol_default;
  blk->last = 1;
  blk->err_rc = rc;
}

static void parse_free(rp_parse *P) {
  pcol_rprof_ftab_free(&P->ft);
  pcol_buf_free(&P->frames);
  pcol_buf_free(&P->carry);
  pcol_buf_free(&P->prev_tail);
  pcol_hset_free(&P->paths);
  pcol_buf_free(&P->path_ents);
  pcol_buf_free(&P->path_pool);
  pcol_buf_free(&P->fc_names);
  pcol_buf_free(&P->fhash);
  free(P->fc);
  for (int g = 0; g < 2; g++) {
    pcol_buf_free(&P->tg[g].bytes);
    free(P->tg[g].t);
  }
}

/* ------------------------------------------------- the builder stage */

typedef struct rp_in {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  uint64_t lineno;  /* of the record being added */
  int eol_default;  /* EOL_LF or EOL_CRLF: the header's line end */
  int last_eol;     /* of the line just added */
  unsigned flags;   /* current segment */
  int64_t interval_ns;
  uint64_t iv_min, iv_max; /* µs, over the segments */
  int64_t t_ns;     /* time of the next sample */
  uint32_t vt[RPROF_NMEM];
  int mem_declared;
  uint64_t segments, truncated;
  pcol_buf locs, text;
  pcol_stack_memo memo; /* the previous stack's nodes */
  pcol_buf locmap;  /* uint32_t location id of each frame number */
  pcol_buf sidmap;  /* uint32_t string id of each path index (index 0: none) */
  pcol_buf tailmap; /* uint32_t stack id of each tid (index 0: none) */
  uint32_t prev_stack;
} rp_in;

#define FAIL(code, ...) pcol_error_set(r->err, code, __VA_ARGS__)

/* A status without a message (an allocation of the importer's own, an
 * internal check): the code's name after the file's name and line. */
static int bfail(rp_in *r, int rc) {
  return pcol_error_set(r->err, rc, "%s:%" PRIu64 ": %s", r->name, r->lineno,
                        pcol_strerror(rc));
}
/* A builder call's status: on failure its own reason (already in err)
 * after the file's name and line (none: the file's, not a line's). */
static int bpass(rp_in *r, int rc) { return pcol_error_in(r->err, rc, r->name, r->lineno); }

static int declare_memory(rp_in *r) {
  if (r->mem_declared) return PCOL_OK;
  for (int k = 0; k < RPROF_NMEM; k++) {
    uint32_t t, u;
    int rc = pcol_b_cstr(r->b, pcol_rprof_mem_type[k], &t, r->err);
    if (!rc) rc = pcol_b_cstr(r->b, pcol_rprof_mem_unit[k], &u, r->err);
    if (!rc) rc = pcol_b_value_type(r->b, t, u, &r->vt[k], r->err);
    if (!rc) rc = pcol_b_source_value_type(r->b, r->src, r->vt[k], r->err);
    if (rc) return bpass(r, rc);
  }
  r->mem_declared = 1;
  return PCOL_OK;
}

/* The stored text of a line: its content plus whatever is needed so that
 * content + the source's default line end reproduces the original bytes
 * (doc/mappings.md §1.1, "Line ends"). */
static int stored_text(rp_in *r, const char *p, size_t n, int cr_dangling) {
  r->text.len = 0;
  if (pcol_buf_append(&r->text, p, n)) return PCOL_ENOMEM;
  const char *suffix = "";
  if (cr_dangling) suffix = "\r";
  else if (r->last_eol == EOL_CRLF && r->eol_default == EOL_LF) suffix = "\r";
  else if (r->last_eol == EOL_LF && r->eol_default == EOL_CRLF) suffix = "\n";
  return pcol_buf_append(&r->text, suffix, strlen(suffix));
}
static int suffix_needed(const rp_in *r, int cr_dangling) {
  return cr_dangling || (r->last_eol != EOL_NONE && r->last_eol != r->eol_default);
}

static int add_text_line(rp_in *r, const char *p, size_t n, int cr_dangling) {
  if (stored_text(r, p, n, cr_dangling)) return bfail(r, PCOL_ENOMEM);
  return bpass(r, pcol_b_text_line(r->b, r->src, pcol_b_sample_count(r->b) + 1, r->text.data,
                                   r->text.len, r->err));
}

static int on_header(rp_in *r, const char *p, size_t n, unsigned flags, uint64_t iv,
                     int cr_dangling) {
  if (r->segments == 0) {
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, iv);
    char fl[32] = "";
    if (flags & RPROF_F_MEMORY) strcat(fl, "memory");
    if (flags & RPROF_F_GC) strcat(fl, fl[0] ? ",gc" : "gc");
    if (flags & RPROF_F_LINE) strcat(fl, fl[0] ? ",line" : "line");
    int rc = pcol_b_meta_str(r->b, r->src, RPROF_META_INTERVAL_US, num, r->err);
    if (!rc) rc = pcol_b_meta(r->b, r->src, RPROF_META_HEADER, p, n, r->err);
    if (!rc) rc = pcol_b_meta_str(r->b, r->src, RPROF_META_FLAGS, fl, r->err);
    if (rc) return bpass(r, rc);
  }
  if (r->segments > 0) { /* an appended segment: where it starts (rprof.alloc) */
    char num[32];
    snprintf(num, sizeof num, "%" PRId64, r->t_ns);
    int rc = pcol_b_meta_str(r->b, r->src, RPROF_META_SEGMENT_START_NS, num, r->err);
    if (rc) return bpass(r, rc);
  }
  if (r->segments == 0 || iv < r->iv_min) r->iv_min = iv;
  if (r->segments == 0 || iv > r->iv_max) r->iv_max = iv;
  r->segments++;
  r->flags = flags;
  r->interval_ns = (int64_t)iv * 1000; /* the parser checked the range */
  int rc = (flags & RPROF_F_MEMORY) ? declare_memory(r) : PCOL_OK;
  if (rc) return rc;
  return add_text_line(r, p, n, cr_dangling);
}

static int on_fileline(rp_in *r, const char *p, size_t n, const char *path, size_t plen,
                       uint32_t idx, int cr_dangling) {
  uint32_t sid;
  PCOL_RETURN_NOT_OK(bpass(r, pcol_b_string(r->b, path, plen, &sid, r->err)));
  size_t have = r->sidmap.len / sizeof(uint32_t);
  if (idx >= have) {
    size_t add = ((size_t)idx + 1 - have) * sizeof(uint32_t);
    if (pcol_buf_reserve(&r->sidmap, add)) return bfail(r, PCOL_ENOMEM);
    memset(r->sidmap.data + r->sidmap.len, 0, add);
    r->sidmap.len += add;
  }
  memcpy(r->sidmap.data + (size_t)idx * sizeof sid, &sid, sizeof sid);
  return add_text_line(r, p, n, cr_dangling);
}

/* The location of a frame numbered for the first time. */
static int new_location(rp_in *r, const rp_block *blk, const rp_newfr *d, uint32_t *loc) {
  uint32_t fsid = 0;
  if (d->path_idx) memcpy(&fsid, r->sidmap.data + (size_t)d->path_idx * 4, 4);
  pcol_function_row fn = {0, 0, fsid, PCOL_NA_I64};
  int rc = d->has_name
               ? pcol_b_string(r->b, blk->data + d->name_at, d->name_len, &fn.name, r->err)
               : PCOL_OK;
  uint32_t fid = 0;
  if (!rc) rc = pcol_b_function(r->b, &fn, &fid, r->err);
  pcol_line_row lr = {fid, d->line, PCOL_NA_I64};
  if (!rc) rc = pcol_b_location(r->b, 0, 0, 0, &lr, 1, loc, r->err);
  PCOL_RETURN_NOT_OK(bpass(r, rc));
  return PCOL_BUF_PUSH(&r->locmap, uint32_t, *loc) ? bfail(r, PCOL_ENOMEM) : PCOL_OK;
}

/* The locations of a sample's frames into r->locs (innermost first). */
static int frame_locs(rp_in *r, const rp_block *blk, const rp_rec *rec, size_t *newk) {
  r->locs.len = 0;
  if (rec->nfr == 0) return PCOL_OK; /* a sample without frames: its buffers may be NULL (NULL + 0) */
  const uint32_t *fr = (const uint32_t *)(const void *)blk->frs.data + rec->fr_at;
  const rp_newfr *defs = (const rp_newfr *)(const void *)blk->newfr.data;
  if (pcol_buf_reserve(&r->locs, (size_t)rec->nfr * sizeof(uint32_t))) return bfail(r, PCOL_ENOMEM);
  uint32_t *out = (uint32_t *)(void *)r->locs.data;
  for (uint32_t k = 0; k < rec->nfr; k++) {
    uint32_t num = fr[k], loc;
    size_t known = r->locmap.len / sizeof(uint32_t);
    if (num < known) {
      memcpy(&loc, r->locmap.data + (size_t)num * 4, 4);
    } else {
      /* numbers are given in order: the next definition is this one */
      if (num != known || *newk >= blk->newfr.len / sizeof(rp_newfr)) return bfail(r, PCOL_EINVAL);
      PCOL_RETURN_NOT_OK(new_location(r, blk, &defs[(*newk)++], &loc));
    }
    out[k] = loc;
  }
  r->locs.len = (size_t)rec->nfr * sizeof(uint32_t);
  return PCOL_OK;
}

/* Appends a sample of `stack` (with the memory fields when mem != NULL) at
 * the current time, then moves the time on by one interval. */
static int add_sample(rp_in *r, uint32_t stack, const uint64_t *mem, uint32_t *sid) {
  int rc;
  pcol_value_row vals[RPROF_NMEM];
  if (mem) {
    if ((rc = declare_memory(r))) return rc;
    for (int k = 0; k < RPROF_NMEM; k++)
      vals[k] = (pcol_value_row){r->vt[k], (int64_t)mem[k] * pcol_rprof_mem_factor[k]};
  }
  pcol_sample_row s = {r->src, r->t_ns, 0, 1, PCOL_NA_I64, stack, 0};
  if ((rc = pcol_b_sample(r->b, &s, vals, mem ? RPROF_NMEM : 0, sid, r->err))) return bpass(r, rc);
  if (r->t_ns > INT64_MAX - r->interval_ns)
    return FAIL(PCOL_ETOOBIG, "%s:%" PRIu64 ": sample time overflows int64 nanoseconds",
                r->name, r->lineno);
  r->t_ns += r->interval_ns;
  return PCOL_OK;
}

/* Keeps the line's bytes as the sample's text when the exporter's canonical
 * rendering differs from them or the line end is not the source's default. */
static int keep_text(rp_in *r, uint32_t sid, const char *p, size_t n, int canonical,
                     int cr_dangling) {
  if (canonical && !suffix_needed(r, cr_dangling)) return PCOL_OK;
  if (stored_text(r, p, n, cr_dangling)) return bfail(r, PCOL_ENOMEM);
  return bpass(r, pcol_b_sample_text(r->b, sid, r->text.data, r->text.len, r->err));
}

/* tailmap[tid] = stack; tids come in order. */
static int set_tail(rp_in *r, uint32_t tid, uint32_t stack) {
  if (!r->tailmap.len && PCOL_BUF_PUSH(&r->tailmap, uint32_t, 0)) return PCOL_ENOMEM;
  if ((size_t)tid != r->tailmap.len / sizeof(uint32_t)) return PCOL_EINVAL;
  return PCOL_BUF_PUSH(&r->tailmap, uint32_t, stack);
}

/* Everything of one parsed block into the builder, in order. */
static int build_block(rp_in *r, const rp_block *blk) {
  const rp_rec *rec = (const rp_rec *)(const void *)blk->recs.data;
  size_t nrec = blk->recs.len / sizeof *rec, newk = 0;
  r->eol_default = blk->eol_default;
  for (size_t i = 0; i < nrec; i++) {
    const rp_rec *x = &rec[i];
    const char *p = blk->data + x->off;
    int rc = PCOL_OK;
    uint32_t stack, sid;
    r->lineno = x->lineno;
    r->last_eol = x->last_eol;
    switch (x->kind) {
    case REC_HEADER: rc = on_header(r, p, x->n, x->flags, x->iv, x->cr_dangling); break;
    case REC_FILE:
      rc = on_fileline(r, p, x->n, blk->data + x->path_at, x->plen, x->path_idx, x->cr_dangling);
      break;
    case REC_REPEAT:
      rc = add_sample(r, r->prev_stack, x->has_mem ? x->mem : NULL, &sid);
      if (!rc) rc = keep_text(r, sid, p, x->n, x->canonical, x->cr_dangling);
      break;
    default: /* REC_SAMPLE */
      if (x->hit) {
        if ((size_t)x->tid >= r->tailmap.len / sizeof(uint32_t)) {
          rc = bfail(r, PCOL_EINVAL);
          break;
        }
        memcpy(&stack, r->tailmap.data + (size_t)x->tid * 4, 4);
      } else {
        if ((rc = frame_locs(r, blk, x, &newk))) break;
        if ((rc = pcol_b_stack_memo(r->b, &r->memo, (const uint32_t *)(const void *)r->locs.data,
                                    x->nfr, &stack, r->err))) {
          rc = bpass(r, rc);
          break;
        }
        if (x->tid && (rc = set_tail(r, x->tid, stack))) {
          rc = bfail(r, rc);
          break;
        }
      }
      if ((rc = add_sample(r, stack, x->has_mem ? x->mem : NULL, &sid))) break;
      if (x->cut) r->truncated++;
      if (x->canonical) r->prev_stack = stack;
      rc = keep_text(r, sid, p, x->n, x->canonical, x->cr_dangling);
    }
    if (rc) return rc;
  }
  return PCOL_OK;
}

static int finish_meta(rp_in *r) {
  char num[32];
  int rc;
  r->lineno = 0; /* the file's facts, no line's */
  snprintf(num, sizeof num, "%" PRIu64, r->segments);
  if ((rc = pcol_b_meta_str(r->b, r->src, RPROF_META_SEGMENTS, num, r->err))) return bpass(r, rc);
  if (r->segments > 1) { /* the time of the source's last sample (lib/core/count.c) */
    snprintf(num, sizeof num, "%" PRId64, r->interval_ns / 1000);
    if ((rc = pcol_b_meta_str(r->b, r->src, RPROF_META_INTERVAL_LAST_US, num, r->err))) return bpass(r, rc);
  }
  if (r->iv_min != r->iv_max) { /* segments of other intervals: `pcol info` says so */
    snprintf(num, sizeof num, "%" PRIu64, r->iv_min);
    if ((rc = pcol_b_meta_str(r->b, r->src, RPROF_META_INTERVAL_MIN_US, num, r->err))) return bpass(r, rc);
    snprintf(num, sizeof num, "%" PRIu64, r->iv_max);
    if ((rc = pcol_b_meta_str(r->b, r->src, RPROF_META_INTERVAL_MAX_US, num, r->err))) return bpass(r, rc);
  }
  if (r->eol_default == EOL_CRLF &&
      (rc = pcol_b_meta_str(r->b, r->src, RPROF_META_EOL, "crlf", r->err)))
    return bpass(r, rc);
  if (r->last_eol == EOL_NONE &&
      (rc = pcol_b_meta_str(r->b, r->src, RPROF_META_FINAL_NEWLINE, "0", r->err)))
    return bpass(r, rc);
  if (r->truncated) {
    snprintf(num, sizeof num, "%" PRIu64, r->truncated);
    if ((rc = pcol_b_meta_str(r->b, r->src, RPROF_META_TRUNCATED, num, r->err))) return bpass(r, rc);
  }
  return PCOL_OK;
}

/* ----------------------------------------------- the two stages together */

/* Blocks in flight between the stages (each up to RP_BLOCK_MAX of text). */
#define RP_NBLOCKS 3

typedef struct rp_pipe {
  rp_parse P;
  rp_block blk[RP_NBLOCKS];
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned head, filled; /* next block the parser fills; blocks ready */
  int stop;              /* the builder stage stopped: parse no more */
} rp_pipe;

static void *parse_thread(void *arg) {
  rp_pipe *q = arg;
  for (;;) {
    pthread_mutex_lock(&q->mu);
    while (q->filled == RP_NBLOCKS && !q->stop) pthread_cond_wait(&q->cv, &q->mu);
    int stop = q->stop;
    rp_block *blk = &q->blk[q->head % RP_NBLOCKS];
    pthread_mutex_unlock(&q->mu);
    if (stop) break;
    parse_block(&q->P, blk);
    pthread_mutex_lock(&q->mu);
    q->head++;
    q->filled++;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    if (blk->last) break;
  }
  return NULL;
}

/* The builder stage's side of the end of a block: the parser's error. */
static int block_end(rp_in *r, const rp_pipe *q, const rp_block *blk) {
  if (!blk->last || !blk->err_rc) return PCOL_OK;
  *r->err = q->P.err;
  return blk->err_rc;
}

static int import_lines(rp_in *r, FILE *in, uint64_t max_bytes) {
  rp_pipe *q = calloc(1, sizeof *q);
  if (!q) return FAIL(PCOL_ENOMEM, "%s: out of memory", r->name);
  q->P.name = r->name;
  q->P.in = in;
  q->P.cap = max_bytes;
  q->P.next_block = RP_BLOCK_FIRST;
  int rc;
  /* the first block on this thread: a small input ends there */
  parse_block(&q->P, &q->blk[0]);
  rc = build_block(r, &q->blk[0]);
  if (!rc) rc = block_end(r, q, &q->blk[0]);
  int done = rc || q->blk[0].last;
  pthread_t th;
  int threaded = 0;
  if (!done && pthread_mutex_init(&q->mu, NULL) == 0) {
    if (pthread_cond_init(&q->cv, NULL) == 0) {
      if (pthread_create(&th, NULL, parse_thread, q) == 0) threaded = 1;
      else pthread_cond_destroy(&q->cv);
    }
    if (!threaded) pthread_mutex_destroy(&q->mu);
  }
  if (threaded) {
    for (unsigned tail = 0;; tail++) {
      pthread_mutex_lock(&q->mu);
      while (q->filled == 0) pthread_cond_wait(&q->cv, &q->mu);
      rp_block *blk = &q->blk[tail % RP_NBLOCKS];
      pthread_mutex_unlock(&q->mu);
      rc = build_block(r, blk);
      if (!rc) rc = block_end(r, q, blk);
      int last = blk->last;
      pthread_mutex_lock(&q->mu);
      q->filled--;
      if (rc) q->stop = 1;
      pthread_cond_broadcast(&q->cv);
      pthread_mutex_unlock(&q->mu);
      if (rc || last) break;
    }
    pthread_join(th, NULL);
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->mu);
  } else {
    /* no second thread (or nothing left): the stages in turn */
    while (!done) {
      parse_block(&q->P, &q->blk[0]);
      rc = build_block(r, &q->blk[0]);
      if (!rc) rc = block_end(r, q, &q->blk[0]);
      done = rc || q->blk[0].last;
    }
  }
  for (int i = 0; i < RP_NBLOCKS; i++) {
    free(q->blk[i].data);
    pcol_buf_free(&q->blk[i].recs);
    pcol_buf_free(&q->blk[i].frs);
    pcol_buf_free(&q->blk[i].newfr);
  }
  parse_free(&q->P);
  free(q);
  return rc;
}

int pcol_import_rprof(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  rp_in r;
  memset(&r, 0, sizeof r);
  r.b = b;
  r.name = name ? name : "<rprof>";
  r.err = err;
  uint64_t max = pcol_input_cap(opt);
  int rc = pcol_b_source(b, PCOL_SRC_RPROF, r.name, PCOL_NA_I64, &r.src, err);
  if (rc) return pcol_error_in(err, rc, r.name, 0);
  rc = import_lines(&r, in, max);
  if (!rc) rc = finish_meta(&r);
  pcol_buf_free(&r.locs);
  pcol_buf_free(&r.text);
  pcol_stack_memo_free(&r.memo);
  pcol_buf_free(&r.locmap);
  pcol_buf_free(&r.sidmap);
  pcol_buf_free(&r.tailmap);
  return rc;
}
