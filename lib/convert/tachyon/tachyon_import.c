/* tachyon_import.c — CPython's sampling profiler ("Tachyon", `python -m
 * profiling.sampling --binary`) binary files in (doc/mappings.md §15).
 *
 * The layout is CPython's InternalDocs/profiling_binary_format.md: a 64-byte
 * header ("TACH" as a native uint32: either byte order), the sample records
 * (optionally one zstd frame), the string table, the frame table, an
 * optional TACHSTAT statistics block (32 or 56 bytes) and a 32-byte footer.
 * The file is read whole (pcol_read_input: the input cap; gzip inflated);
 * the sample region is inflated under pcol_inflate_cap of its compressed
 * size.  Every count, index, offset and depth is checked before use; a
 * message names the file and the byte offset (in the inflated sample data
 * for a compressed file) or the table entry.
 *
 * Samples arrive interleaved across threads with per-thread time deltas, so
 * they are decoded into an array, sorted by time (stable: the file's order
 * among equal times) and then appended to one source.  A thread's stack is
 * kept root first with the builder's stack node of every prefix, so that a
 * SUFFIX or POP_PUSH record costs its new frames only (the frames it keeps
 * are a prefix): the work is in proportion to the input, however deep. */
#include "convert.h"
#include "keys.h"
#include "pb_wire.h"
#include "error.h"    /* pcol_oom */
#include "buf.h"      /* PCOL_GROW */
#include "hash.h"     /* pcol_hash2, pcol_hset, pcol_hset_find, ... */
#include "read_all.h" /* pcol_input, pcol_input_free, pcol_read_input */
#include "instream.h" /* pcol_inflate_cap */
#include <stdarg.h>
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

typedef struct timp {
  pcol_builder *b;
  pcol_error *err;
  const char *name;
  int swap, compressed;
  const uint8_t *p; /* the sample data */
  size_t n, at;
  uint32_t nframes, *loc; /* frame index -> location id */
  tthread *th;
  size_t nth, capth;
  pcol_hset thset; /* (thread id, interpreter id) -> th index + 1 */
  uint32_t max_threads; /* the header's thread count */
  tsample *s;
  size_t ns, caps;
  uint32_t k_tid, k_interp, k_status[TACH_STATUS_BITS], k_other, v_true, v_false;
} timp;

/* status bits 0-5 as CPython's _remote_debugging names them (THREAD_STATUS_*:
 * HAS_GIL, ON_CPU, UNKNOWN, GIL_REQUESTED, HAS_EXCEPTION, MAIN_THREAD) */
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

static int sample_u(timp *t, uint64_t *v, const char *what) {
  size_t at = t->at;
  if (varint(t->p, t->n, &t->at, v)) {
    char m[96];
    snprintf(m, sizeof m, "%s: a varint cut off or over 64 bits", what);
    return bad_at(t, at, m);
  }
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
    else if (pcol_b_stack_node(t->b, parent, top[i], &top[i], t->err))
      return pcol_oom(t->err);
  }
  h->depth = keep + count;
  return PCOL_OK;
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
    if (pcol_b_cstr(t->b, d, &lab[nl++].str, t->err)) return pcol_oom(t->err);
  }
  lab[nl].key = t->k_interp, lab[nl++].num = h->interp;
  for (int k = 0; k < TACH_STATUS_BITS; k++)
    lab[nl].key = t->k_status[k], lab[nl++].str = (status >> k & 1) ? t->v_true : t->v_false;
  if (status >> TACH_STATUS_BITS) lab[nl].key = t->k_other, lab[nl++].num = status;
  tsample s = {(int64_t)h->t_us, h->depth ? h->node[h->depth - 1] : 0, 0, t->ns};
  if (pcol_b_labelset(t->b, lab, nl, &s.ls, t->err) || PCOL_GROW(t->s, t->ns, t->caps)) return pcol_oom(t->err);
  t->s[t->ns++] = s;
  return PCOL_OK;
}

static int records(timp *t) {
  while (t->at < t->n) {
    size_t rec = t->at;
    if (t->n - t->at < 13) return bad_at(t, rec, "a record cut off in its thread id, interpreter id or kind");
    uint64_t tid = rd64(t, t->p + t->at);
    uint32_t interp = rd32(t, t->p + t->at + 8);
    uint8_t kind = t->p[t->at + 12];
    t->at += 13;
    tthread *h = NULL;
    int rc = thread_of(t, tid, interp, rec, &h);
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
        if (t->at >= t->n) return bad_at(t, t->at, "REPEAT status byte cut off");
        if ((rc = emit(t, h, delta, t->p[t->at++], at))) return rc;
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
    uint8_t status = t->p[t->at++];
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

/* The zstd frame of the sample region, inflated under the cap. */
static int inflate(timp *t, const uint8_t *src, size_t n, const pcol_import_options *opt, uint8_t **out,
                   size_t *outn) {
  uint64_t cap = pcol_inflate_cap(opt, n);
  ZSTD_DCtx *dc = ZSTD_createDCtx();
  if (!dc) return pcol_oom(t->err);
  ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 27); /* 128 MiB, as zstd's own default limit */
  size_t cap_buf = n < ((size_t)1 << 20) ? (size_t)1 << 16 : n * 4, len = 0;
  uint8_t *buf = NULL;
  ZSTD_inBuffer in = {src, n, 0};
  size_t last = 1;
  int rc = PCOL_OK;
  for (;;) {
    if (len == cap_buf || !buf) {
      if (buf) cap_buf *= 2;
      if (cap_buf > cap) cap_buf = (size_t)cap + 1;
      uint8_t *nb = realloc(buf, cap_buf);
      if (!nb) {
        rc = pcol_oom(t->err);
        break;
      }
      buf = nb;
    }
    ZSTD_outBuffer o = {buf, cap_buf, len};
    last = ZSTD_decompressStream(dc, &o, &in);
    len = o.pos;
    if (ZSTD_isError(last)) {
      rc = pcol_error_set(t->err, PCOL_ECORRUPT, "%s: Tachyon sample data (zstd, bytes %d..%zu): %s", t->name,
                          TACH_HEADER, (size_t)TACH_HEADER + n, ZSTD_getErrorName(last));
      break;
    }
    if (len > cap) {
      rc = pcol_error_set(t->err, PCOL_ETOOBIG,
                          "%s: Tachyon sample data inflates past the limit of %llu bytes (--max-input)", t->name,
                          (unsigned long long)cap);
      break;
    }
    if (last == 0 && in.pos == in.size) break;
    if (in.pos == in.size && o.pos < o.size) {
      rc = pcol_error_set(t->err, PCOL_ECORRUPT, "%s: Tachyon sample data (zstd): the frame is cut off before "
                          "the string table", t->name);
      break;
    }
    if (last == 0 && in.pos < in.size) {
      /* another frame follows: CPython writes one; read it too */
      continue;
    }
  }
  ZSTD_freeDCtx(dc);
  if (rc) return free(buf), rc;
  *out = buf, *outn = len;
  return PCOL_OK;
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
  return pcol_b_meta_str(t->b, src, key, d, t->err) ? pcol_oom(t->err) : PCOL_OK;
}
static int meta_dbl(timp *t, uint32_t src, const char *key, const uint8_t *q) {
  uint64_t bits = rd64(t, q);
  double d;
  memcpy(&d, &bits, sizeof d);
  char s[40];
  snprintf(s, sizeof s, "%.17g", d);
  return pcol_b_meta_str(t->b, src, key, s, t->err) ? pcol_oom(t->err) : PCOL_OK;
}

static int import(timp *t, const uint8_t *p, size_t n, const pcol_import_options *opt) {
  if (n < TACH_HEADER + TACH_FOOTER)
    return corrupt(t, "%zu bytes, shorter than a header and a footer (%d)", n, TACH_HEADER + TACH_FOOTER);
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
  uint32_t nstr = rd32(t, p + foot), nfr = rd32(t, p + foot + 4);
  uint64_t fsize = rd64(t, p + foot + 8);
  if (fsize != n) return corrupt(t, "footer: file size %llu, the file has %llu bytes (truncated?)", (unsigned long long)fsize, (unsigned long long)n);
  /* the statistics block before the footer: its trailer is "TACHSTAT",
   * version, size */
  uint64_t tabend = foot, stats = 0, stsize = 0;
  if (foot - fto >= 32 && !memcmp(p + foot - 16, "TACHSTAT", 8)) {
    stsize = rd32(t, p + foot - 4);
    if ((stsize != 32 && stsize != 56) || stsize > foot - fto)
      return corrupt(t, "TACHSTAT block of %llu bytes (32 or 56) before byte %llu", (unsigned long long)stsize, (unsigned long long)foot);
    stats = foot - stsize, tabend = stats;
  }
  /* tables: strings, then frames up to the statistics or the footer */
  if (nstr > fto - sto) return corrupt(t, "footer: %u strings in a table of %llu bytes", nstr, (unsigned long long)(fto - sto));
  if ((uint64_t)nfr * 3 > tabend - fto) /* a frame takes 3 bytes at least */
    return corrupt(t, "footer: %u frames in a table of %llu bytes", nfr, (unsigned long long)(tabend - fto));
  uint32_t *sid = malloc(((size_t)nstr + 1) * sizeof *sid);
  uint8_t *internal = calloc((size_t)nstr + 1, 1); /* a filename of the profiler's launcher */
  t->loc = malloc(((size_t)nfr + 1) * sizeof *t->loc);
  if (!sid || !t->loc || !internal) return free(sid), free(internal), pcol_oom(t->err);
  size_t at = (size_t)sto;
  int rc = PCOL_OK;
  for (uint32_t i = 0; i < nstr && !rc; i++) {
    uint64_t len = 0;
    size_t s0 = at;
    if (varint(p, (size_t)fto, &at, &len) || len > fto - at)
      rc = corrupt(t, "string %u (byte %zu): its length runs past the frame table", i, s0);
    else if (pcol_b_string(t->b, p + at, (size_t)len, &sid[i], t->err))
      rc = pcol_oom(t->err);
    else {
      size_t sl = sizeof TACH_INTERNAL - 1;
      internal[i] = len >= sl && !memcmp(p + at + len - sl, TACH_INTERNAL, sl);
      at += (size_t)len;
    }
  }
  if (!rc && at != fto) rc = corrupt(t, "the string table ends at byte %zu, the frame table starts at %llu", at, (unsigned long long)fto);
  int wide = 1;
  if (!rc && !frames_fit(p, (size_t)fto, (size_t)tabend, nfr, 1)) {
    wide = 0;
    if (!narrow || !frames_fit(p, (size_t)fto, (size_t)tabend, nfr, 0))
      rc = corrupt(t, "the frame table (%u frames from byte %llu) does not end where the footer or the "
                      "statistics begin",
                   nfr, (unsigned long long)fto);
  }
  t->nframes = nfr;
  at = (size_t)fto;
  uint32_t nskip = 0;
  for (uint32_t i = 0; i < nfr && !rc; i++) {
    uint64_t fn = 0, fu = 0, z[4] = {0, 0, 0, 0};
    size_t f0 = at;
    varint(p, tabend, &at, &fn), varint(p, tabend, &at, &fu); /* checked by frames_fit */
    for (int k = 0; k < (wide ? 4 : 1); k++) varint(p, tabend, &at, &z[k]);
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
    if (pcol_b_function(t->b, &f, &fid, t->err)) rc = pcol_oom(t->err);
    l.function_id = fid;
    if (!rc && pcol_b_location(t->b, 0, 0, 0, &l, 1, &t->loc[i], t->err)) rc = pcol_oom(t->err);
  }
  free(sid), free(internal);
  if (rc) return rc;

  /* the source, its values and meta */
  uint32_t src, vs, vw, s_samples, s_count, s_wall, s_ns, k_def;
  if (pcol_b_source(t->b, PCOL_SRC_TACHYON, t->name, PCOL_NA_I64, &src, t->err) ||
      pcol_b_cstr(t->b, PCOL_VT_SAMPLES, &s_samples, t->err) || pcol_b_cstr(t->b, PCOL_UNIT_COUNT, &s_count, t->err) ||
      pcol_b_cstr(t->b, PCOL_VT_WALL, &s_wall, t->err) || pcol_b_cstr(t->b, PCOL_UNIT_NANOSECONDS, &s_ns, t->err) ||
      pcol_b_value_type(t->b, s_samples, s_count, &vs, t->err) || pcol_b_value_type(t->b, s_wall, s_ns, &vw, t->err) ||
      pcol_b_source_value_type(t->b, src, vs, t->err) || pcol_b_source_value_type(t->b, src, vw, t->err) ||
      pcol_b_cstr(t->b, PPROF_META_DEFAULT_SAMPLE_TYPE, &k_def, t->err) || pcol_b_meta_sid(t->b, src, k_def, s_samples, t->err) ||
      pcol_b_cstr(t->b, "tid", &t->k_tid, t->err) || pcol_b_cstr(t->b, "interpreter_id", &t->k_interp, t->err) ||
      pcol_b_cstr(t->b, "thread_status_bits", &t->k_other, t->err) || pcol_b_cstr(t->b, "true", &t->v_true, t->err) ||
      pcol_b_cstr(t->b, "false", &t->v_false, t->err))
    return pcol_oom(t->err);
  for (int k = 0; k < TACH_STATUS_BITS; k++)
    if (pcol_b_cstr(t->b, status_key[k], &t->k_status[k], t->err)) return pcol_oom(t->err);
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
  if (pcol_b_meta_str(t->b, src, "tachyon.python_version", pyv, t->err) ||
      pcol_b_meta_str(t->b, src, "tachyon.compression", comp ? "zstd" : "none", t->err) ||
      pcol_b_meta_str(t->b, src, "tachyon.layout", narrow ? (wide ? "4-byte sample count, 7-field frames"
                                                                  : "4-byte sample count, 3-field frames")
                                                          : "8-byte sample count, 7-field frames", t->err))
    return pcol_oom(t->err);
  /* the word at 60, as CPython 3.15.2's BinaryReader.get_info() reads it
   * (checked on its recordings): bits 0-2 Lib/profiling/sampling/
   * constants.py's PROFILING_MODE_* plus one (0: not recorded), bit 3 set
   * when bits 4 and up hold binary_collector.py's CAPTURE_FEATURES */
  static const char *const modes[] = {"wall", "cpu", "gil", "all", "exception"};
  static const char *const feats[] = {"all_threads", "native", "gc", "opcodes", "blocking"};
  uint32_t mode1 = mode & 7;
  if (mode1 && mode1 <= 5 && pcol_b_meta_str(t->b, src, "tachyon.profiling_mode", modes[mode1 - 1], t->err))
    return pcol_oom(t->err);
  if (mode1 > 5 && (rc = meta_num(t, src, "tachyon.profiling_mode", mode1 - 1))) return rc;
  if (mode & 8) { /* the features' names, comma-separated; unknown bits as the number */
    char fs[96] = "";
    size_t fl = 0;
    uint32_t cf = mode >> 4;
    for (int k = 0; k < 5; k++)
      if (cf >> k & 1) fl += (size_t)snprintf(fs + fl, sizeof fs - fl, "%s%s", fl ? "," : "", feats[k]);
    if (cf >> 5) snprintf(fs + fl, sizeof fs - fl, "%s%u", fl ? "," : "", cf >> 5 << 5);
    if (pcol_b_meta_str(t->b, src, "tachyon.capture_features", fs, t->err)) return pcol_oom(t->err);
  }
  if (stats) {
    if ((rc = meta_dbl(t, src, "tachyon.stats.duration_sec", p + stats)) ||
        (rc = meta_dbl(t, src, "tachyon.stats.sample_rate", p + stats + 8)))
      return rc;
    if (stsize == 56 && ((rc = meta_dbl(t, src, "tachyon.stats.error_rate", p + stats + 16)) ||
                         (rc = meta_dbl(t, src, "tachyon.stats.missed_samples", p + stats + 24)) ||
                         (rc = meta_num(t, src, "tachyon.stats.flags", rd32(t, p + stats + 32)))))
      return rc;
    if ((rc = meta_num(t, src, "tachyon.stats.version", rd32(t, p + foot - 8)))) return rc;
  }

  /* the samples */
  uint8_t *inflated = NULL;
  t->compressed = comp == 1;
  t->max_threads = threads;
  if (comp == 1) {
    if ((rc = inflate(t, p + TACH_HEADER, (size_t)sto - TACH_HEADER, opt, &inflated, &t->n))) return rc;
    t->p = inflated;
  } else {
    t->p = p + TACH_HEADER, t->n = (size_t)sto - TACH_HEADER;
  }
  rc = records(t);
  free(inflated);
  if (rc) return rc;
  if (t->ns != samples)
    return corrupt(t, "the header says %llu samples, the sample data holds %zu", (unsigned long long)samples, t->ns);
  qsort(t->s, t->ns, sizeof *t->s, by_time);
  pcol_value_row v[2] = {{vs, 1}, {vw, interval > (uint64_t)INT64_MAX / 1000 ? INT64_MAX : (int64_t)interval * 1000}};
  for (size_t i = 0; i < t->ns; i++) {
    pcol_sample_row r = {src, t->s[i].t_us * 1000, 0, 1, PCOL_NA_I64, t->s[i].stack, t->s[i].ls};
    if (pcol_b_sample(t->b, &r, v, 2, NULL, t->err)) return pcol_oom(t->err);
  }
  return PCOL_OK;
}

int pcol_import_tachyon(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                        pcol_error *err) {
  if (!b || !in) return pcol_error_set(err, PCOL_EINVAL, "pcol_import_tachyon: NULL argument");
  if (!name) name = "<tachyon>";
  pcol_input raw;
  int gz = 0;
  int rc = pcol_read_input(in, opt, name, &raw, &gz, err);
  if (rc) return rc;
  timp t;
  memset(&t, 0, sizeof t);
  t.b = b, t.err = err, t.name = name;
  rc = import(&t, raw.data, raw.len, opt);
  for (size_t i = 0; i < t.nth; i++) free(t.th[i].node);
  free(t.th);
  pcol_hset_free(&t.thset);
  free(t.s);
  free(t.loc);
  pcol_input_free(&raw);
  return rc;
}
