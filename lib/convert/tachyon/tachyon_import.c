/* tachyon_import.c — CPython's sampling profiler ("Tachyon", `python -m
 * profiling.sampling --binary`) binary files in (doc/mappings.md §15).
 *
 * The layout is CPython's InternalDocs/profiling_binary_format.md: a 64-byte
 * header ("TACH" as a native uint32: either byte order), the sample records
 * (optionally one zstd frame), the string table, the frame table, an
 * optional TACHSTAT statistics block (32 or 56 bytes) and a 32-byte footer.
 * It is streamed (issue 43): a regular file is read in place (pread; any
 * other input whole, pcol_read_input: in memory, past 64 MiB a mapped
 * temporary copy whose pages are given back; gzip inflated); the header
 * first, then the string and frame tables by their offsets, then the
 * sample records through a 64 KiB window, the zstd kind inflated as they
 * are read (after a first pass that inflates and drops it under
 * pcol_inflate_cap of its compressed size, so that a damaged or too large
 * frame is refused before any record, as when it was inflated whole).
 * Every count, index, offset and depth is checked before use; a message
 * names the file and the byte offset (in the inflated sample data for a
 * compressed file) or the table entry.
 *
 * Samples arrive interleaved across threads with per-thread time deltas, so
 * they go to a sorter (lib/core/rowsort.c: runs in a temporary file past
 * 8 MiB), come back by time (the file's order among equal times) and are
 * appended to one source: memory follows the tables, not the samples.  A thread's stack is
 * kept root first with the builder's stack node of every prefix, so that a
 * SUFFIX or POP_PUSH record costs its new frames only (the frames it keeps
 * are a prefix): the work is in proportion to the input, however deep. */
#include "convert.h"
#include "keys.h"
#include "pb_wire.h"
#include "error.h"    /* pcol_oom */
#include "buf.h"      /* PCOL_GROW */
#include "hash.h"     /* pcol_hash2, pcol_hset, pcol_hset_find, ... */
#include "read_all.h" /* pcol_input, pcol_input_done, pcol_input_free, pcol_read_input */
#include "instream.h" /* pcol_inflate_cap, pcol_input_cap, pcol_compression, ... */
#include "rowsort.h"  /* pcol_rowsort, pcol_rowsort_add, pcol_rowsort_each, ... */
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <stdio.h>

#define TACH_MAGIC 0x54414348u
#define TACH_HEADER 64
#define TACH_FOOTER 32
#define TACH_STATUS_BITS 6   /* named status bits (status_key) */
#define TACH_MAX_DEPTH 65536 /* frames a stack may have (CPython's writer buffers 256) */
#define TACH_SKIP UINT32_MAX /* t->loc of a frame CPython's views drop (frame_table below) */
#define TACH_INTERNAL "_sync_coordinator.py" /* constants.py's _INTERNAL_FRAME_SUFFIXES */

typedef struct tsample {
  int64_t t_us;       /* since the profile's start */
  uint32_t stack, ls; /* builder ids */
  uint64_t order;     /* file order, for a stable sort */
} tsample;

typedef struct tthread {
  uint64_t tid;
  uint32_t interp;
  uint64_t t_us;     /* time of its last sample, µs since the start */
  uint32_t *node;    /* node[i]: the builder's stack node of frames 0..i, root first */
  size_t depth, cap;
} tthread;

/* The input: a regular file read in place (fd >= 0, its byte 0 at off0),
 * or in memory / a mapped temporary copy (pcol_read_input: a pipe, a
 * stream, gzip inflated). */
typedef struct tin {
  int fd;
  uint64_t off0, len;
  pcol_input raw;
  int have_raw;
} tin;

#define TACH_WIN 65536 /* the sample data in memory at a time */
#define TACH_LOOK 16   /* bytes always in the window past the cursor (a varint is at most 10) */

typedef struct timp {
  pcol_builder *b;
  pcol_error *err;
  const char *name;
  int swap, compressed;
  tin *in;
  /* the sample data (inflated, for zstd), read through a window: win[0]
   * is byte w0 of it; at is the cursor, n its size */
  uint8_t *win;
  size_t w0, wn, at, n;
  uint64_t src_at, src_end; /* the file's bytes of the sample region not yet read */
  ZSTD_DStream *zd;         /* zstd: the decoder, zin[zpos..zlen) its input not yet used */
  uint8_t *zin;
  size_t zpos, zlen;
  uint32_t nframes, *loc; /* frame index -> location id */
  tthread *th;
  size_t nth, capth;
  pcol_hset thset; /* (thread id, interpreter id) -> th index + 1 */
  uint32_t max_threads; /* the header's thread count */
  pcol_rowsort *s; /* the samples, sorted by time */
  uint64_t ns;
  uint32_t k_tid, k_interp, k_status[TACH_STATUS_BITS], k_other, v_true, v_false;
} timp;

static const char *const status_key[TACH_STATUS_BITS] = {"gil",           "on_cpu",    "status_unknown",
                                                         "gil_requested", "exception", "main_thread"};

static uint32_t rd32(const timp *t, const uint8_t *q) {
  uint32_t v = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
  return t->swap ? __builtin_bswap32(v) : v;
}
static uint64_t rd64(const timp *t, const uint8_t *q) {
  uint64_t lo = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
  uint64_t hi = (uint32_t)q[4] | (uint32_t)q[5] << 8 | (uint32_t)q[6] << 16 | (uint32_t)q[7] << 24;
  uint64_t v = lo | hi << 32;
  return t->swap ? __builtin_bswap64(v) : v;
}

/* LEB128 from p[*at..n) (pb_wire.h's reader): 0 and *at advanced, or -1
 * (cut off, or more than 64 bits: a tenth byte above 1) */
static int varint(const uint8_t *p, size_t n, size_t *at, uint64_t *out) {
  size_t a0 = *at;
  if (pcol_pb_varint(p, n, at, out)) return -1;
  return *at - a0 == 10 && p[*at - 1] > 1 ? -1 : 0;
}

/* at: an offset in the sample data; named in the file when it is not
 * compressed, else in the inflated data */
static int bad_at(timp *t, size_t at, const char *what) {
  if (t->compressed)
    return pcol_error_set(t->err, PCOL_ECORRUPT, "%s: Tachyon sample data (zstd), byte %zu of the inflated data: %s",
                          t->name, at, what);
  return pcol_error_set(t->err, PCOL_ECORRUPT, "%s: Tachyon sample data, byte %zu of the file: %s", t->name,
                        at + TACH_HEADER, what);
}

/* n bytes at offset off of the input into out (off + n inside it) */
static int in_read(timp *t, uint64_t off, void *out, size_t n) {
  tin *in = t->in;
  if (in->fd < 0) {
    memcpy(out, in->raw.data + off, n);
    pcol_input_done(&in->raw, (size_t)off, (size_t)(off + n)); /* a mapped copy's pages leave */
    return PCOL_OK;
  }
  uint8_t *o = out;
  off += in->off0;
  while (n) {
    ssize_t r = pread(in->fd, o, n, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0)
      return pcol_error_set(t->err, PCOL_EIO, "%s: read error at byte %llu: %s", t->name,
                            (unsigned long long)(off - in->off0), r < 0 ? strerror(errno) : "the file shrank");
    o += r, n -= (size_t)r, off += (uint64_t)r;
  }
  return PCOL_OK;
}

/* The window holds [at, at + TACH_LOOK) of the sample data, or up to its
 * end: what one record element needs (13 bytes, or a varint). */
static int fill(timp *t) {
  size_t end = t->w0 + t->wn;
  if (end >= t->n || end - t->at >= TACH_LOOK) return PCOL_OK;
  size_t keep = end - t->at;
  memmove(t->win, t->win + (t->at - t->w0), keep);
  t->w0 = t->at, t->wn = keep;
  while (t->wn < TACH_WIN && t->w0 + t->wn < t->n) {
    size_t want = TACH_WIN - t->wn, left = t->n - (t->w0 + t->wn);
    if (want > left) want = left;
    int rc;
    if (!t->zd) {
      if ((rc = in_read(t, t->src_at, t->win + t->wn, want))) return rc;
      t->src_at += want, t->wn += want;
      continue;
    }
    if (t->zpos == t->zlen) {
      /* (the sizes were measured by a first pass: the file changed since) */
      if (t->src_at == t->src_end) return bad_at(t, t->w0 + t->wn, "the zstd data ends early on a second read");
      size_t k = t->src_end - t->src_at < TACH_WIN ? (size_t)(t->src_end - t->src_at) : TACH_WIN;
      if ((rc = in_read(t, t->src_at, t->zin, k))) return rc;
      t->src_at += k, t->zpos = 0, t->zlen = k;
    }
    ZSTD_inBuffer ib = {t->zin, t->zlen, t->zpos};
    ZSTD_outBuffer ob = {t->win, t->wn + want, t->wn};
    size_t r = ZSTD_decompressStream(t->zd, &ob, &ib);
    if (ZSTD_isError(r)) return bad_at(t, t->w0 + t->wn, ZSTD_getErrorName(r));
    t->zpos = ib.pos, t->wn = ob.pos;
  }
  return PCOL_OK;
}

/* the next byte of the sample data (the caller checked that there is one) */
static int next_byte(timp *t, uint8_t *v) {
  int rc = fill(t);
  if (rc) return rc;
  *v = t->win[t->at++ - t->w0];
  return PCOL_OK;
}

static int sample_u(timp *t, uint64_t *v, const char *what) {
  size_t at = t->at;
  int rc = fill(t);
  if (rc) return rc;
  size_t i = t->at - t->w0;
  if (varint(t->win, t->wn, &i, v)) {
    char m[96];
    snprintf(m, sizeof m, "%s: a varint cut off or over 64 bits", what);
    return bad_at(t, at, m);
  }
  t->at = t->w0 + i;
  return PCOL_OK;
}

static int thread_eq(const void *ctx, uint32_t id, const void *key) {
  const timp *t = ctx;
  const uint64_t *k = key;
  return t->th[id - 1].tid == k[0] && t->th[id - 1].interp == k[1];
}

/* The state of a thread: CPython keys it by (thread id, interpreter id).
 * More threads than the header declares is refused, as CPython's reader
 * does (and bounds the table). */
static int thread_of(timp *t, uint64_t tid, uint32_t interp, size_t rec, tthread **out) {
  uint64_t key[2] = {tid, interp}, hash = pcol_hash2(0x7461636879, tid, interp);
  uint32_t id = pcol_hset_find(&t->thset, hash, thread_eq, t, key);
  if (id) return *out = &t->th[id - 1], PCOL_OK;
  if (t->nth >= t->max_threads) {
    char m[128];
    snprintf(m, sizeof m, "more threads than the header declares (%u)", t->max_threads);
    return bad_at(t, rec, m);
  }
  if (PCOL_GROW(t->th, t->nth, t->capth) || pcol_hset_insert(&t->thset, hash, (uint32_t)t->nth + 1))
    return pcol_oom(t->err);
  tthread *h = &t->th[t->nth++];
  memset(h, 0, sizeof *h);
  h->tid = tid, h->interp = interp;
  return *out = h, PCOL_OK;
}

static int stack_room(timp *t, tthread *h, size_t depth, size_t at) {
  if (depth > TACH_MAX_DEPTH) {
    char m[96];
    snprintf(m, sizeof m, "a stack of %zu frames (more than %d)", depth, TACH_MAX_DEPTH);
    return bad_at(t, at, m);
  }
  while (h->cap < depth) {
    size_t nc = h->cap ? h->cap * 2 : 64;
    uint32_t *ns = realloc(h->node, nc * sizeof *ns);
    if (!ns) return pcol_oom(t->err);
    h->node = ns, h->cap = nc;
  }
  return PCOL_OK;
}

/* count frame indices, innermost first, put on top of the first `keep`
 * frames of h's stack (room made by stack_room): the new stack's nodes */
static int read_frames(timp *t, tthread *h, size_t keep, size_t count) {
  h->depth = keep;
  if (!count) return PCOL_OK; /* (node may still be NULL: no NULL + 0) */
  uint32_t *top = h->node + keep; /* top[0] the outermost new frame */
  for (size_t i = 0; i < count; i++) {
    uint64_t f = 0;
    size_t at = t->at;
    int rc = sample_u(t, &f, "frame index");
    if (rc) return rc;
    if (f >= t->nframes) {
      char m[96];
      snprintf(m, sizeof m, "frame index %llu (the frame table has %u)", (unsigned long long)f, t->nframes);
      return bad_at(t, at, m);
    }
    top[count - 1 - i] = t->loc[f]; /* locations first, nodes below */
  }
  for (size_t i = 0; i < count; i++) {
    uint32_t parent = keep + i ? h->node[keep + i - 1] : 0;
    if (top[i] == TACH_SKIP) /* a profiler frame: the prefix's node is its parent's */
      top[i] = parent;
    else
      PCOL_RETURN_NOT_OK(pcol_b_stack_node(t->b, parent, top[i], &top[i], t->err));
  }
  h->depth = keep + count;
  return PCOL_OK;
}

/* The sorter's failure: memory, or its temporary file. */
static int rowsort_failed(timp *t, int rc) {
  if (rc == PCOL_ENOMEM) return pcol_oom(t->err);
  return pcol_error_set(t->err, rc, "%s: Tachyon samples: a temporary file ($TMPDIR, else /tmp) could not be "
                        "written or read", t->name);
}

/* One sample of thread h at its current stack. */
static int emit(timp *t, tthread *h, uint64_t delta, uint8_t status, size_t at) {
  if (delta > (uint64_t)(INT64_MAX / 1000) - h->t_us) return bad_at(t, at, "time past 2^63 ns");
  h->t_us += delta;
  pcol_label_row lab[3 + TACH_STATUS_BITS];
  size_t nl = 0;
  memset(lab, 0, sizeof lab);
  lab[nl].key = t->k_tid;
  if (h->tid <= (uint64_t)INT64_MAX) {
    lab[nl++].num = (int64_t)h->tid;
  } else { /* beyond a label's number: its decimal text */
    char d[24];
    snprintf(d, sizeof d, "%llu", (unsigned long long)h->tid);
    PCOL_RETURN_NOT_OK(pcol_b_cstr(t->b, d, &lab[nl++].str, t->err));
  }
  lab[nl].key = t->k_interp, lab[nl++].num = h->interp;
  for (int k = 0; k < TACH_STATUS_BITS; k++)
    lab[nl].key = t->k_status[k], lab[nl++].str = (status >> k & 1) ? t->v_true : t->v_false;
  if (status >> TACH_STATUS_BITS) lab[nl].key = t->k_other, lab[nl++].num = status;
  tsample s = {(int64_t)h->t_us, h->depth ? h->node[h->depth - 1] : 0, 0, t->ns};
  PCOL_RETURN_NOT_OK(pcol_b_labelset(t->b, lab, nl, &s.ls, t->err));
  int rc = pcol_rowsort_add(t->s, &s);
  if (rc) return rowsort_failed(t, rc);
  t->ns++;
  return PCOL_OK;
}

static int records(timp *t) {
  while (t->at < t->n) {
    size_t rec = t->at;
    if (t->n - t->at < 13) return bad_at(t, rec, "a record cut off in its thread id, interpreter id or kind");
    int rc = fill(t);
    if (rc) return rc;
    const uint8_t *q = t->win + (t->at - t->w0);
    uint64_t tid = rd64(t, q);
    uint32_t interp = rd32(t, q + 8);
    uint8_t kind = q[12];
    t->at += 13;
    tthread *h = NULL;
    rc = thread_of(t, tid, interp, rec, &h);
    if (rc) return rc;
    uint64_t delta = 0, a = 0, c = 0;
    if (kind == 0) { /* REPEAT: count x (delta, status) on the last stack */
      if ((rc = sample_u(t, &c, "REPEAT count"))) return rc;
      /* a thread's stack starts empty: CPython's writer records empty
       * stacks of a new thread as REPEAT records */
      if (c > t->n - t->at) return bad_at(t, rec, "REPEAT count larger than the data left");
      for (uint64_t i = 0; i < c; i++) {
        size_t at = t->at;
        if ((rc = sample_u(t, &delta, "REPEAT delta"))) return rc;
        uint8_t status;
        if (t->at >= t->n) return bad_at(t, t->at, "REPEAT status byte cut off");
        if ((rc = next_byte(t, &status)) || (rc = emit(t, h, delta, status, at))) return rc;
      }
      continue;
    }
    if (kind > 3) {
      char m[64];
      snprintf(m, sizeof m, "unknown record kind %u (0-3: REPEAT, FULL, SUFFIX, POP_PUSH)", kind);
      return bad_at(t, rec + 12, m);
    }
    if ((rc = sample_u(t, &delta, "timestamp delta"))) return rc;
    if (t->at >= t->n) return bad_at(t, t->at, "status byte cut off");
    uint8_t status;
    if ((rc = next_byte(t, &status))) return rc;
    size_t at = t->at;
    if ((rc = sample_u(t, &a, kind == 1 ? "stack depth" : kind == 2 ? "shared count" : "pop count")))
      return rc;
    if (kind == 1) {
      if (a > t->n - t->at) return bad_at(t, at, "stack depth larger than the data left");
      if ((rc = stack_room(t, h, (size_t)a, at)) || (rc = read_frames(t, h, 0, (size_t)a))) return rc;
    } else {
      size_t at2 = t->at;
      if ((rc = sample_u(t, &c, kind == 2 ? "new count" : "push count"))) return rc;
      if (a > h->depth) {
        char m[96];
        snprintf(m, sizeof m, "%s %llu of a stack of %zu frames", kind == 2 ? "shares" : "pops",
                 (unsigned long long)a, h->depth);
        return bad_at(t, at, m);
      }
      if (c > t->n - t->at) return bad_at(t, at2, "new frame count larger than the data left");
      /* kept: SUFFIX the bottom a frames, POP_PUSH all but the top a */
      size_t keep = kind == 2 ? (size_t)a : h->depth - (size_t)a;
      if ((rc = stack_room(t, h, keep + (size_t)c, at2)) || (rc = read_frames(t, h, keep, (size_t)c))) return rc;
    }
    if ((rc = emit(t, h, delta, status, rec))) return rc;
  }
  return PCOL_OK;
}

static int by_time(const void *x, const void *y) {
  const tsample *a = x, *b = y;
  if (a->t_us != b->t_us) return a->t_us < b->t_us ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* The zstd data of the sample region (file bytes [TACH_HEADER, sto)),
 * inflated once and thrown away under the cap: its size (*outn), or the
 * refusal of a damaged, cut off or too large frame before any record is
 * read (as when it was inflated whole). */
static int zmeasure(timp *t, uint64_t sto, const pcol_import_options *opt, size_t *outn) {
  uint64_t n = sto - TACH_HEADER, cap = pcol_inflate_cap(opt, n), src = TACH_HEADER, total = 0;
  ZSTD_DCtx *dc = ZSTD_createDCtx();
  if (!dc) return pcol_oom(t->err);
  ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 27); /* 128 MiB, as zstd's own default limit */
  ZSTD_inBuffer in = {t->zin, 0, 0};
  int rc = PCOL_OK;
  for (;;) {
    if (in.pos == in.size && src < sto) {
      size_t k = sto - src < TACH_WIN ? (size_t)(sto - src) : TACH_WIN;
      if ((rc = in_read(t, src, t->zin, k))) break;
      src += k, in.size = k, in.pos = 0;
    }
    ZSTD_outBuffer o = {t->win, TACH_WIN, 0};
    size_t last = ZSTD_decompressStream(dc, &o, &in);
    if (ZSTD_isError(last)) {
      rc = pcol_error_set(t->err, PCOL_ECORRUPT, "%s: Tachyon sample data (zstd, bytes %d..%zu): %s", t->name,
                          TACH_HEADER, (size_t)sto, ZSTD_getErrorName(last));
      break;
    }
    total += o.pos;
    if (total > cap) {
      rc = pcol_error_set(t->err, PCOL_ETOOBIG,
                          "%s: Tachyon sample data inflates past the limit of %llu bytes (--max-input)", t->name,
                          (unsigned long long)cap);
      break;
    }
    int all = in.pos == in.size && src == sto;
    if (last == 0 && all) break; /* (another frame may follow one: CPython writes one; read it too) */
    if (all && o.pos < o.size) {
      rc = pcol_error_set(t->err, PCOL_ECORRUPT, "%s: Tachyon sample data (zstd): the frame is cut off before "
                          "the string table", t->name);
      break;
    }
  }
  ZSTD_freeDCtx(dc);
  if (!rc && total > SIZE_MAX) rc = pcol_oom(t->err);
  *outn = (size_t)total;
  return rc;
}

__attribute__((format(printf, 2, 3))) static int corrupt(timp *t, const char *fmt, ...) {
  char m[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  return pcol_error_set(t->err, PCOL_ECORRUPT, "%s: Tachyon: %s", t->name, m);
}

/* The frame table from p[off..end) holding nf entries of 7 fields (CPython
 * 3.15) or, when wide == 0, 3 (filename, funcname, lineno: the first
 * layout).  1: it ends exactly at end; 0: not; strings checked by caller. */
static int frames_fit(const uint8_t *p, size_t off, size_t end, uint32_t nf, int wide) {
  size_t at = off;
  uint64_t v = 0;
  for (uint32_t i = 0; i < nf; i++) {
    for (int k = 0; k < (wide ? 6 : 3); k++)
      if (varint(p, end, &at, &v) || (k >= 2 && v > UINT32_MAX)) return 0;
    if (wide) {
      if (at >= end) return 0;
      at++;
    }
  }
  return at == end;
}

static int32_t unzig(uint64_t z) { return (int32_t)((uint32_t)(z >> 1) ^ (uint32_t)-(int32_t)(z & 1)); }

static int meta_num(timp *t, uint32_t src, const char *key, unsigned long long v) {
  char d[32];
  snprintf(d, sizeof d, "%llu", v);
  return pcol_b_meta_str(t->b, src, key, d, t->err);
}
static int meta_dbl(timp *t, uint32_t src, const char *key, const uint8_t *q) {
  uint64_t bits = rd64(t, q);
  double d;
  memcpy(&d, &bits, sizeof d);
  char s[40];
  snprintf(s, sizeof s, "%.17g", d);
  return pcol_b_meta_str(t->b, src, key, s, t->err);
}

/* The samples in time order to the builder (pcol_rowsort_each). */
typedef struct tput {
  timp *t;
  uint32_t src;
  pcol_value_row v[2];
} tput;
static int put_sample(void *ctx, const void *row) {
  const tput *u = ctx;
  tsample s;
  memcpy(&s, row, sizeof s);
  pcol_sample_row r = {u->src, s.t_us * 1000, 0, 1, PCOL_NA_I64, s.stack, s.ls};
  return pcol_b_sample(u->t->b, &r, u->v, 2, NULL, u->t->err);
}

/* The header and the tables (string, frame, statistics, footer: the file's
 * bytes from the string table on, *tail) are read first; then the sample
 * records, a window at a time (zstd: inflated as they are read, after a
 * first pass that measures and checks the frame). */
static int import(timp *t, size_t n, const pcol_import_options *opt, uint8_t **tailp) {
  if (n < TACH_HEADER + TACH_FOOTER)
    return corrupt(t, "%zu bytes, shorter than a header and a footer (%d)", n, TACH_HEADER + TACH_FOOTER);
  uint8_t p[TACH_HEADER];
  int rc = in_read(t, 0, p, TACH_HEADER);
  if (rc) return rc;
  uint32_t m = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  if (m != TACH_MAGIC && m != __builtin_bswap32(TACH_MAGIC))
    return corrupt(t, "no TACH magic (0x%08x)", m);
  t->swap = m != TACH_MAGIC;
  uint32_t version = rd32(t, p + 4);
  if (version < 1 || version > 3) {
    char v[16];
    snprintf(v, sizeof v, "%u.%u.%u", p[8], p[9], p[10]);
    return pcol_error_set(t->err, PCOL_EFORMAT,
                          "%s: Tachyon format version %u (written by Python %s) is not supported "
                          "(pcol reads versions 1 to 3)",
                          t->name, version, v);
  }
  /* the header: CPython 3.15's (8-byte sample count, profiling mode at 60),
   * or the first one (4-byte sample count, the offsets 4 bytes earlier),
   * told apart by which one names tables inside the file */
  uint64_t foot = n - TACH_FOOTER;
  uint64_t samples = rd64(t, p + 28), sto = rd64(t, p + 40), fto = rd64(t, p + 48);
  uint32_t threads = rd32(t, p + 36), comp = rd32(t, p + 56), mode = rd32(t, p + 60);
  int narrow = 0;
  if (!(sto >= TACH_HEADER && sto <= fto && fto <= foot && comp <= 1)) {
    uint64_t s2 = rd64(t, p + 36), f2 = rd64(t, p + 44);
    uint32_t c2 = rd32(t, p + 52);
    if (s2 >= TACH_HEADER && s2 <= f2 && f2 <= foot && c2 <= 1) {
      narrow = 1;
      samples = rd32(t, p + 28), threads = rd32(t, p + 32), sto = s2, fto = f2, comp = c2, mode = 0;
    }
  }
  if (sto < TACH_HEADER || sto > fto || fto > foot)
    return corrupt(t, "header: string table at %llu, frame table at %llu: not inside the file of %zu bytes in "
                      "that order (%s)",
                   (unsigned long long)sto, (unsigned long long)fto, n, fto > foot ? "truncated?" : "damaged");
  if (comp > 1) return corrupt(t, "header: compression type %u (0: none, 1: zstd)", comp);
  /* the tables and the footer, in memory: tail[i] is the file's byte sto + i */
  uint8_t *tail = *tailp = malloc((size_t)(n - sto));
  if (!tail) return pcol_oom(t->err);
  if ((rc = in_read(t, sto, tail, (size_t)(n - sto)))) return rc;
#define TP(off) (tail + ((off) - sto))
  uint32_t nstr = rd32(t, TP(foot)), nfr = rd32(t, TP(foot) + 4);
  uint64_t fsize = rd64(t, TP(foot) + 8);
  /* The last 32 bytes are no footer when they do not state the file's
   * size: a cut file's are table bytes, whatever they state (review 10 m9:
   * noise named a file size; review 21 F7: a cut file's 0 was read as
   * bytes added after a file of 0).  Bytes added after a whole file leave
   * its footer where it was: the first place after the frame table's
   * start whose 32 bytes state the file ending there. */
  if (fsize != n) {
    for (uint64_t q = fto; q < foot; q++)
      if (rd64(t, TP(q) + 8) == q + TACH_FOOTER)
        return corrupt(t, "the footer at byte %llu states a file of %llu bytes, the file has %llu: %llu bytes "
                          "added after it?", (unsigned long long)q, (unsigned long long)(q + TACH_FOOTER),
                       (unsigned long long)n, (unsigned long long)(n - q - TACH_FOOTER));
    return corrupt(t, "no footer at the end of the file's %llu bytes (its last 32, from byte %llu, state a file "
                      "of %llu bytes): truncated?", (unsigned long long)n, (unsigned long long)foot,
                   (unsigned long long)fsize);
  }
  /* the statistics block before the footer: its trailer is "TACHSTAT",
   * version, size */
  uint64_t tabend = foot, stats = 0, stsize = 0;
  if (foot - fto >= 32 && !memcmp(TP(foot) - 16, "TACHSTAT", 8)) {
    stsize = rd32(t, TP(foot) - 4);
    if ((stsize != 32 && stsize != 56) || stsize > foot - fto)
      return corrupt(t, "TACHSTAT block of %llu bytes (32 or 56) before byte %llu", (unsigned long long)stsize, (unsigned long long)foot);
    stats = foot - stsize, tabend = stats;
  }
  /* tables: strings, then frames up to the statistics or the footer */
  if (nstr > fto - sto)
    return corrupt(t, "the footer at byte %llu: %u strings in a table of %llu bytes", (unsigned long long)foot, nstr,
                   (unsigned long long)(fto - sto));
  if ((uint64_t)nfr * 3 > tabend - fto) /* a frame takes 3 bytes at least */
    return corrupt(t, "the footer at byte %llu: %u frames in a table of %llu bytes", (unsigned long long)foot, nfr,
                   (unsigned long long)(tabend - fto));
  uint32_t *sid = malloc(((size_t)nstr + 1) * sizeof *sid);
  uint8_t *internal = calloc((size_t)nstr + 1, 1); /* a filename of the profiler's launcher */
  t->loc = malloc(((size_t)nfr + 1) * sizeof *t->loc);
  if (!sid || !t->loc || !internal) return free(sid), free(internal), pcol_oom(t->err);
  size_t at = 0; /* in tail: the file's byte sto + at */
  uint64_t fr0 = fto - sto, tend = tabend - sto;
  for (uint32_t i = 0; i < nstr && !rc; i++) {
    uint64_t len = 0;
    size_t s0 = (size_t)sto + at;
    if (varint(tail, (size_t)fr0, &at, &len) || len > fr0 - at)
      rc = corrupt(t, "string %u (byte %zu): its length runs past the frame table", i, s0);
    else if ((rc = pcol_b_string(t->b, tail + at, (size_t)len, &sid[i], t->err)))
      break;
    else {
      size_t sl = sizeof TACH_INTERNAL - 1;
      internal[i] = len >= sl && !memcmp(tail + at + len - sl, TACH_INTERNAL, sl);
      at += (size_t)len;
    }
  }
  if (!rc && at != fr0) rc = corrupt(t, "the string table ends at byte %zu, the frame table starts at %llu", (size_t)sto + at, (unsigned long long)fto);
  int wide = 1;
  if (!rc && !frames_fit(tail, (size_t)fr0, (size_t)tend, nfr, 1)) {
    wide = 0;
    if (!narrow || !frames_fit(tail, (size_t)fr0, (size_t)tend, nfr, 0))
      rc = corrupt(t, "the frame table (%u frames from byte %llu) does not end where the footer or the "
                      "statistics begin",
                   nfr, (unsigned long long)fto);
  }
  t->nframes = nfr;
  at = (size_t)fr0;
  uint32_t nskip = 0;
  for (uint32_t i = 0; i < nfr && !rc; i++) {
    uint64_t fn = 0, fu = 0, z[4] = {0, 0, 0, 0};
    size_t f0 = (size_t)sto + at;
    varint(tail, tend, &at, &fn), varint(tail, tend, &at, &fu); /* checked by frames_fit */
    for (int k = 0; k < (wide ? 4 : 1); k++) varint(tail, tend, &at, &z[k]);
    if (wide) at++; /* opcode: not kept */
    if (fn >= nstr || fu >= nstr) {
      rc = corrupt(t, "frame %u (byte %zu): a string index past the string table", i, f0);
      break;
    }
    /* the profiler's own launcher (a file ending in _sync_coordinator.py):
     * CPython's collectors drop these frames from every stack
     * (collector.py's filter_internal_frames), so pcol does */
    if (internal[fn]) {
      t->loc[i] = TACH_SKIP, nskip++;
      continue;
    }
    int32_t line = unzig(z[0]), col = unzig(z[2]);
    pcol_function_row f = {sid[fu], 0, sid[fn], PCOL_NA_I64};
    uint32_t fid;
    pcol_line_row l = {0, line > 0 ? line : PCOL_NA_I64, wide && col >= 0 ? (int64_t)col + 1 : PCOL_NA_I64};
    if ((rc = pcol_b_function(t->b, &f, &fid, t->err))) break;
    l.function_id = fid;
    rc = pcol_b_location(t->b, 0, 0, 0, &l, 1, &t->loc[i], t->err);
  }
  free(sid), free(internal);
  if (rc) return rc;

  /* the source, its values and meta */
  /* the time a sample stands for (the interval) is CPU time in `--mode
   * cpu`, whose sampler keeps only the threads on a CPU (py-spy, pprof and
   * perf name that cpu); in the other modes (wall; gil, exception: the
   * threads holding the GIL or handling an exception) it is wall time */
  uint32_t src, vs, vw, s_samples, s_count, s_wall, s_ns, k_def;
  pcol_error *err = t->err; /* the builder's own reason when it refuses */
  if ((rc = pcol_b_source(t->b, PCOL_SRC_TACHYON, t->name, PCOL_NA_I64, &src, err))) return rc;
  const struct { const char *s; uint32_t *id; } keys[] = {
      {PCOL_VT_SAMPLES, &s_samples}, {PCOL_UNIT_COUNT, &s_count}, {(mode & 7) == 2 ? PCOL_VT_CPU : PCOL_VT_WALL, &s_wall},
      {PCOL_UNIT_NANOSECONDS, &s_ns}, {PPROF_META_DEFAULT_SAMPLE_TYPE, &k_def}, {"tid", &t->k_tid},
      {"interpreter_id", &t->k_interp}, {"thread_status_bits", &t->k_other}, {"true", &t->v_true},
      {"false", &t->v_false}};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) PCOL_RETURN_NOT_OK(pcol_b_cstr(t->b, keys[i].s, keys[i].id, err));
  for (int k = 0; k < TACH_STATUS_BITS; k++) PCOL_RETURN_NOT_OK(pcol_b_cstr(t->b, status_key[k], &t->k_status[k], err));
  if ((rc = pcol_b_value_type(t->b, s_samples, s_count, &vs, err)) ||
      (rc = pcol_b_value_type(t->b, s_wall, s_ns, &vw, err)) ||
      (rc = pcol_b_source_value_type(t->b, src, vs, err)) || (rc = pcol_b_source_value_type(t->b, src, vw, err)) ||
      (rc = pcol_b_meta_sid(t->b, src, k_def, s_samples, err)))
    return rc;
  char pyv[16];
  snprintf(pyv, sizeof pyv, "%u.%u.%u", p[8], p[9], p[10]);
  uint64_t start = rd64(t, p + 12), interval = rd64(t, p + 20);
  if ((rc = meta_num(t, src, "tachyon.version", version)) || (rc = meta_num(t, src, "tachyon.start_time_us", start)) ||
      (rc = meta_num(t, src, "tachyon.interval_us", interval)) ||
      (rc = meta_num(t, src, "tachyon.sample_count", samples)) ||
      (rc = meta_num(t, src, "tachyon.thread_count", threads)) ||
      (rc = meta_num(t, src, "tachyon.strings", nstr)) || (rc = meta_num(t, src, "tachyon.frames", nfr)) ||
      (nskip && (rc = meta_num(t, src, "tachyon.profiler_frames_dropped", nskip))))
    return rc;
  /* the interval is the source's period (pprof's period, of the sample's
   * time: wall, or cpu in --mode cpu), as CPython's pstats replay counts
   * a sample as one interval: `pcol info`'s period, the pprof export's, and
   * the Rprof export's sample.interval, whose lines are a sample each (it
   * wrote 10 ms ticks without it: 10x to 100x the time, review 10 F3) */
  if (interval > 0 && interval <= (uint64_t)INT64_MAX / 1000 &&
      ((rc = pcol_b_meta_str(t->b, src, PPROF_META_PERIOD_TYPE_TYPE, (mode & 7) == 2 ? PCOL_VT_CPU : PCOL_VT_WALL, err)) ||
       (rc = pcol_b_meta_str(t->b, src, PPROF_META_PERIOD_TYPE_UNIT, PCOL_UNIT_NANOSECONDS, err)) ||
       (rc = meta_num(t, src, PPROF_META_PERIOD, interval * 1000))))
    return rc;
  if ((rc = pcol_b_meta_str(t->b, src, "tachyon.python_version", pyv, err)) ||
      (rc = pcol_b_meta_str(t->b, src, "tachyon.compression", comp ? "zstd" : "none", err)) ||
      (rc = pcol_b_meta_str(t->b, src, "tachyon.layout", narrow ? (wide ? "4-byte sample count, 7-field frames"
                                                                        : "4-byte sample count, 3-field frames")
                                                                : "8-byte sample count, 7-field frames", err)))
    return rc;
  /* the word at 60, as CPython 3.15.2's BinaryReader.get_info() reads it
   * (checked on its recordings): bits 0-2 Lib/profiling/sampling/
   * constants.py's PROFILING_MODE_* plus one (0: not recorded), bit 3 set
   * when bits 4 and up hold binary_collector.py's CAPTURE_FEATURES */
  static const char *const modes[] = {"wall", "cpu", "gil", "all", "exception"};
  static const char *const feats[] = {"all_threads", "native", "gc", "opcodes", "blocking"};
  uint32_t mode1 = mode & 7;
  if (mode1 && mode1 <= 5 && (rc = pcol_b_meta_str(t->b, src, "tachyon.profiling_mode", modes[mode1 - 1], err)))
    return rc;
  if (mode1 > 5 && (rc = meta_num(t, src, "tachyon.profiling_mode", mode1 - 1))) return rc;
  if (mode & 8) { /* the features' names, comma-separated; unknown bits as the number */
    char fs[96] = "";
    size_t fl = 0;
    uint32_t cf = mode >> 4;
    for (int k = 0; k < 5; k++)
      if (cf >> k & 1) fl += (size_t)snprintf(fs + fl, sizeof fs - fl, "%s%s", fl ? "," : "", feats[k]);
    if (cf >> 5) snprintf(fs + fl, sizeof fs - fl, "%s%u", fl ? "," : "", cf >> 5 << 5);
    if ((rc = pcol_b_meta_str(t->b, src, "tachyon.capture_features", fs, err))) return rc;
  }
  if (stats) {
    if ((rc = meta_dbl(t, src, "tachyon.stats.duration_sec", TP(stats))) ||
        (rc = meta_dbl(t, src, "tachyon.stats.sample_rate", TP(stats) + 8)))
      return rc;
    if (stsize == 56 && ((rc = meta_dbl(t, src, "tachyon.stats.error_rate", TP(stats) + 16)) ||
                         (rc = meta_dbl(t, src, "tachyon.stats.missed_samples", TP(stats) + 24)) ||
                         (rc = meta_num(t, src, "tachyon.stats.flags", rd32(t, TP(stats) + 32)))))
      return rc;
    if ((rc = meta_num(t, src, "tachyon.stats.version", rd32(t, TP(foot) - 8)))) return rc;
    /* the writer's own duration ("Captured N samples in S seconds"): the
     * source's stated duration (spec.md §7), as pprof's duration_nanos,
     * to the ns; none when not a finite positive time that fits */
    uint64_t bits = rd64(t, TP(stats));
    double sec;
    memcpy(&sec, &bits, sizeof sec);
    if (sec > 0 && sec < 9.2e9 && (rc = meta_num(t, src, PPROF_META_DURATION_NANOS, (unsigned long long)(sec * 1e9 + 0.5))))
      return rc;
  }

#undef TP
  free(tail);
  *tailp = NULL;

  /* the samples */
  t->compressed = comp == 1;
  t->max_threads = threads;
  if ((rc = pcol_rowsort_new(&t->s, sizeof(tsample), by_time))) return pcol_oom(t->err);
  if (comp == 1) {
    if ((rc = zmeasure(t, sto, opt, &t->n))) return rc;
    if (!(t->zd = ZSTD_createDStream())) return pcol_oom(t->err);
    ZSTD_DCtx_setParameter(t->zd, ZSTD_d_windowLogMax, 27);
  } else {
    t->n = (size_t)sto - TACH_HEADER;
  }
  t->src_at = TACH_HEADER, t->src_end = sto;
  if ((rc = records(t))) return rc;
  if (t->ns != samples)
    return corrupt(t, "the header says %llu samples, the sample data holds %llu", (unsigned long long)samples,
                   (unsigned long long)t->ns);
  tput u = {t, src, {{vs, 1}, {vw, interval > (uint64_t)INT64_MAX / 1000 ? INT64_MAX : (int64_t)interval * 1000}}};
  rc = pcol_rowsort_each(t->s, put_sample, &u);
  return rc == PCOL_EIO ? rowsort_failed(t, rc) : rc;
}

/* The input in place when it is a regular file that is not compressed
 * (read where it is, pread), else read whole: in memory, or past 64 MiB a
 * mapped temporary copy whose pages are given back as they are read
 * (pcol_read_input; a gzip wrapper inflated). */
static int open_input(tin *x, FILE *in, const char *name, const pcol_import_options *opt, pcol_error *err) {
  struct stat st;
  int fd = fileno(in);
  off_t pos;
  x->fd = -1;
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (pos = ftello(in)) >= 0 && pos <= st.st_size) {
    uint8_t head[4];
    uint64_t len = (uint64_t)(st.st_size - pos), cap = pcol_input_cap(opt);
    ssize_t h = len >= 4 ? pread(fd, head, 4, pos) : 0;
    if (h == 4 && pcol_compression(head, 4) == PCOL_COMP_NONE) {
      if (len > cap) return pcol_decompressed_too_big(name, opt, cap, len, PCOL_COMP_NONE, err);
      if (len > SIZE_MAX) return pcol_oom(err);
      x->fd = fd, x->off0 = (uint64_t)pos, x->len = len;
      return PCOL_OK;
    }
  }
  int gz = 0;
  int rc = pcol_read_input(in, opt, name, &x->raw, &gz, err);
  if (rc) return rc;
  x->have_raw = 1, x->len = x->raw.len;
  return PCOL_OK;
}

int pcol_import_tachyon(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                        pcol_error *err) {
  if (!b || !in) return pcol_error_set(err, PCOL_EINVAL, "pcol_import_tachyon: NULL argument");
  if (!name) name = "<tachyon>";
  tin x;
  memset(&x, 0, sizeof x);
  int rc = open_input(&x, in, name, opt, err);
  if (rc) return rc;
  timp t;
  memset(&t, 0, sizeof t);
  t.b = b, t.err = err, t.name = name, t.in = &x;
  uint8_t *tail = NULL;
  t.win = malloc(TACH_WIN), t.zin = malloc(TACH_WIN);
  rc = t.win && t.zin ? import(&t, (size_t)x.len, opt, &tail) : pcol_oom(err);
  free(tail);
  free(t.win);
  free(t.zin);
  if (t.zd) ZSTD_freeDStream(t.zd);
  pcol_rowsort_free(t.s);
  for (size_t i = 0; i < t.nth; i++) free(t.th[i].node);
  free(t.th);
  pcol_hset_free(&t.thset);
  free(t.loc);
  if (x.have_raw) pcol_input_free(&x.raw);
  return rc;
}
