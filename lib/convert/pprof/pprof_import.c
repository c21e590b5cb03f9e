/* pprof_import.c — a pprof profile (profile.proto, gzip, zstd or raw) into a builder.
 *
 * The string table and the other tables may sit anywhere in the message,
 * after the samples too (Go writes them last), so the message is read
 * twice, as a stream of top-level fields through a window of whole fields
 * (up to 1 MiB; a larger field widens it), never held whole (issue 47: at
 * 100M samples the inflated copy it kept was 3.07 GB of temporary disk for
 * a 410 MB output); a message of at most pcol_pprof_whole (16 MiB) is held
 * whole, read once, and pass 2 reads the window.  It is inflated as it is read when it starts as gzip or
 * zstd does (lib/core/instream.c, under the inflate cap), and decoded by a
 * hand-written wire reader (lib/convert/pb_wire.h), never copied into
 * per-field allocations (issue 32: protobuf-c's unpack of the whole message
 * took 28x the .pb.gz):
 *  - pass 1 walks the top-level fields once: the framing, and the small
 *    tables (sample types, mappings, locations and their lines, functions)
 *    decoded into arrays, the string table copied (its bytes, once), and
 *    each sample only checked, the way protobuf-c would have read it, so a
 *    malformed message is refused before anything is built;
 *  - pass 2 reads the message again (the stream seeked back to where it
 *    started; from a stream that cannot seek, a pipe, pass 1 kept its
 *    Samples: pprof_spill.c) and decodes
 *    each sample into reused buffers, checks it and adds it to the builder,
 *    one at a time.
 * The checks are google/pprof's CheckValid ones, in the same order as when
 * the whole message was decoded first (tables, then samples in file order),
 * with the same messages; the builder sees the same calls in the same
 * order, so the pcol file is byte-identical to the one the protobuf-c
 * decoder gave (test_pprof: every import also through a 3-byte window).  Mapped into the builder as
 * doc/mappings.md §2.1 describes: one source, one pcol sample per pprof
 * sample, every field kept.
 */
#include "pcol.h"
#include "keys.h"     /* PCOL_SRC_PPROF, PPROF_META_COMMENT, PPROF_META_DEFAULT_SAMPLE_TYPE, ... */
#include "truncated.h" /* pcol_b_truncated_stacks, pcol_truncated_comment_parse */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_error_in */
#include "buf.h"      /* pcol_buf_free, pcol_buf, pcol_buf_reserve, ... */
#include "hash.h"     /* pcol_hash2 */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include "read_all.h" /* pcol_input_done, pcol_input, pcol_input_stream, ... */
#include "instream.h" /* pcol_instream, pcol_compression, pcol_input_cap, ... */
#include "stream.h"   /* pcol_replay_stream */
#include "pb_wire.h"
#include "pprof.h"
#include "pprof_spill.h" /* pprof_spill: a pipe's samples for pass 2 */
#include "symbolize.h"   /* pcol_sym: --symbolize local */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ detection */
/* A Profile field with its wire type (profile.proto: 1-6 and 11 are
 * messages or strings, 13 comment is repeated int64, packed or not, the
 * rest int64); numbers past 15 are unknown fields of any wire type. */
static int profile_field_ok(uint64_t field, unsigned wt) {
  if (field == 0) return 0;
  if (field > 15) return wt == 0 || wt == 1 || wt == 2 || wt == 5;
  if (field <= 6 || field == 11) return wt == 2;
  return wt == 0 || (field == 13 && wt == 2);
}

int pcol_pprof_detect(const uint8_t *p, size_t n) {
  size_t i = 0;
  int fields = 0;
  while (i < n) {
    size_t at = i;
    uint64_t tag;
    if (pcol_pb_varint(p, n, &i, &tag)) return fields > 0;
    /* the first field is one of Profile's own */
    if (!profile_field_ok(tag >> 3, (unsigned)(tag & 7)) || (!fields && tag >> 3 > 15)) return 0;
    pcol_pb_field f;
    i = at;
    int r = pcol_pb_next(p, n, &i, &f);
    if (r == -1) return 1; /* a field cut by the head's end */
    if (r) return 0;
    fields++;
  }
  return fields > 0;
}

/* ------------------------------------------------ legacy format names */

const char *pcol_pprof_legacy_kind(const uint8_t *p, size_t n) {
  if (pcol_pprof_legacy_cpu_header(p, n, NULL, NULL, NULL, NULL)) /* read: pprof_legacy.c */
    return "legacy gperftools/Java CPU profile (binary)";
  static const struct {
    const char *prefix, *kind;
  } text[] = {{"heap profile:", "legacy heap profile (text)"},
              {"heap_v2/", "legacy heap profile (text)"},
              {"--- contention", "legacy contention profile (text)"},
              {"--- mutex", "legacy contention profile (text)"},
              {"--- threadz", "legacy thread profile (text)"},
              {"--- Thread ", "legacy thread profile (text)"},
              {"--- heapz", "legacy Java heap profile (text)"},
              {"--- contentionz", "legacy Java contention profile (text)"},
              {"--- cpuz", "legacy Java CPU profile (text)"},
              {"goroutine profile:", "legacy Go count profile (text)"},
              {"threadcreate profile:", "legacy Go count profile (text)"}};
  for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
    size_t l = strlen(text[i].prefix);
    if (n >= l && memcmp(p, text[i].prefix, l) == 0) return text[i].kind;
  }
  /* Go's count profiles and threadz after blank and comment lines, which
   * go's parseGoCount and parseThread skip (in the head's whole lines) */
  size_t at = 0;
  for (;;) {
    const uint8_t *nl = at < n ? memchr(p + at, '\n', n - at) : NULL;
    if (!nl) break;
    size_t i = at;
    while (i < (size_t)(nl - p) && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\v' || p[i] == '\f')) i++;
    if (i < (size_t)(nl - p) && p[i] != '#') break;
    at = (size_t)(nl - p) + 1;
  }
  static const char *later[] = {"goroutine profile:", "threadcreate profile:", "--- threadz ", "--- Thread "};
  for (size_t i = 0; at && i < sizeof later / sizeof later[0]; i++) {
    size_t l = strlen(later[i]);
    if (n - at >= l && memcmp(p + at, later[i], l) == 0)
      return i < 2 ? "legacy Go count profile (text)" : "legacy thread profile (text)";
  }
  return NULL;
}

/* ------------------------------------------------ the input, read twice */

/* The message is read as a stream, a window of whole top-level fields at a
 * time, twice: pass 1 (framing, tables, each Sample checked) and pass 2
 * (the Samples into the builder).  It is the caller's `in` from where it
 * stands, inflated when it starts as gzip or zstd does (lib/core/instream.c,
 * under the inflate cap), else read raw under the input cap.  Pass 2 seeks
 * `in` back (a file) and reads it again; from a stream that cannot seek (a
 * pipe, standard input) pass 1 keeps each Sample as it decodes it, a stack
 * met before as its number, through zstd (pprof_spill.c; read_all.c: past
 * 64 MiB an unlinked temporary file, mapped), and pass 2 reads those: the
 * temporary disk is a small part of the .pb.gz's size (issue 47). */
size_t pcol_pprof_window = (size_t)1 << 20;
/* A message up to this size is held whole and read once (pass 2 reads the
 * memory): go-cpu-large's 2.4 MB inflated twice was a tenth of `pcol top`
 * of its .pb.gz.  Past it the window goes back to pcol_pprof_window, and
 * the second reading's window slides from the start: a large message
 * costs no more memory than before at the peak, when the builder is full. */
size_t pcol_pprof_whole = (size_t)16 << 20;
_Atomic size_t pcol_pprof_window_peak[2];

typedef struct psrc {
  FILE *in;
  const pcol_import_options *opt;
  const char *name;
  off_t start;      /* in's position at the start; -1: it cannot seek back */
  FILE *rs;         /* the first bytes (read to tell gzip), then the rest of in */
  pcol_instream *o; /* inflating rs (kind != 0) */
  FILE *s;          /* what is read: o's stream, or rs (or peek) */
  FILE *peek;       /* the first bytes read to tell a legacy CPU profile, then the rest */
  int kind;         /* PCOL_COMP_* */
} psrc;

static int src_open(psrc *s, pcol_error *err) {
  uint8_t h[16];
  size_t n = fread(h, 1, sizeof h, s->in);
  if (n == 0 && ferror(s->in)) return pcol_error_set(err, PCOL_EIO, "%s: read error", s->name);
  if (n == 0) return pcol_error_set(err, PCOL_ECORRUPT, "%s: empty input file", s->name);
  s->kind = pcol_compression(h, n);
  if (!(s->s = s->rs = pcol_replay_stream(h, n, s->in)))
    return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", s->name);
  if (!s->kind) return PCOL_OK;
  return pcol_instream_open(&s->o, s->rs, s->name, s->opt, &s->s, err);
}

/* Ends a read whose result is rc: the inflating stream's own error (bad or
 * truncated data, the cap) wins, as when the input was inflated whole first. */
static int src_close(psrc *s, int rc, pcol_error *err) {
  if (s->peek) fclose(s->peek);
  s->peek = NULL;
  if (s->o) {
    int orc = pcol_instream_finish(s->o, rc, err);
    if (orc) rc = orc;
    pcol_instream_free(s->o);
  }
  if (s->rs) fclose(s->rs);
  s->o = NULL;
  s->rs = s->s = NULL;
  return rc;
}

/* A window over the message: buf[lo..hi) is at byte offset base + lo. */
typedef struct feed {
  psrc *src;        /* NULL: the whole message is in `mem` */
  pcol_input *mem;  /* the message, whole in the window pass 1 left */
  uint8_t *buf;
  size_t cap, lo, hi, last;
  uint64_t base;
  int eof, rc;      /* rc: the stream's failure (FEED_ERR) */
  int slide;        /* the window slides from the start: not held whole (pass 2
                     * of a message that was too large for it, a drain) */
  uint8_t head[24]; /* the first bytes: a legacy format is told by them */
  size_t nhead;
} feed;

enum { FEED_END = 1, FEED_ERR = -10 };

static void feed_init(feed *fd, psrc *src, pcol_input *mem) {
  memset(fd, 0, sizeof *fd);
  fd->src = src;
  fd->mem = mem;
  if (mem) {
    fd->buf = (uint8_t *)(uintptr_t)mem->data;
    fd->hi = mem->len;
    fd->eof = 1;
  }
}
static void feed_free(feed *fd) {
  if (!fd->mem) free(fd->buf);
  fd->buf = NULL;
}
static uint64_t feed_total(const feed *fd) { return fd->base + fd->hi; }

/* More of the message after buf[lo..hi): the window doubles while nothing
 * has left it, up to pcol_pprof_whole + 1 bytes (so a message of at most
 * pcol_pprof_whole bytes ends whole in it: read once; not when fd->slide),
 * and when a field does not fit; else buf[lo..hi) moves to the front, in a
 * window of pcol_pprof_window bytes again once what is left fits in half
 * of it.  PCOL_OK, or the failure (err set). */
static int feed_fill(feed *fd, pcol_error *err) {
  psrc *s = fd->src;
  size_t most = pcol_pprof_window ? pcol_pprof_window : 1;
  size_t whole = pcol_pprof_whole > most && !fd->slide ? pcol_pprof_whole : most;
  if (fd->eof) return 0;
  if (fd->lo && !(fd->base == 0 && fd->cap <= whole)) {
    memmove(fd->buf, fd->buf + fd->lo, fd->hi - fd->lo);
    fd->base += fd->lo;
    fd->hi -= fd->lo;
    fd->lo = 0;
    if (fd->cap > most && fd->hi <= most / 2) { /* (a shrink: realloc keeps the bytes) */
      uint8_t *nb = realloc(fd->buf, most);
      if (nb) fd->buf = nb, fd->cap = most;
    }
  }
  if (fd->hi == fd->cap) {
    size_t cap = fd->cap ? fd->cap * 2 : most < 65536 ? most : 65536;
    /* held whole: whole + 1 bytes at most, so that a message of exactly
     * `whole` bytes sees its end before the window would slide */
    if (fd->base == 0 && fd->cap <= whole && cap > whole) cap = whole + 1;
    uint8_t *nb = cap > fd->cap ? realloc(fd->buf, cap) : NULL;
    if (!nb) return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", s->name);
    fd->buf = nb;
    fd->cap = cap;
    _Atomic size_t *peak = &pcol_pprof_window_peak[fd->slide];
    if (cap > atomic_load_explicit(peak, memory_order_relaxed))
      atomic_store_explicit(peak, cap, memory_order_relaxed);
  }
  size_t want = fd->cap - fd->hi, k = fread(fd->buf + fd->hi, 1, want, s->s);
  if (k < want) {
    if (ferror(s->s)) return pcol_error_set(err, PCOL_EIO, "%s: read error", s->name);
    fd->eof = 1;
  }
  if (fd->nhead < sizeof fd->head) { /* all read so far is in head[] */
    size_t m = sizeof fd->head - fd->nhead < k ? sizeof fd->head - fd->nhead : k;
    memcpy(fd->head + fd->nhead, fd->buf + fd->hi, m);
    fd->nhead += m;
  }
  fd->hi += k;
  uint64_t cap = pcol_input_cap(s->opt);
  if (!s->kind && feed_total(fd) > cap)
    return pcol_decompressed_too_big(s->name, s->opt, cap, feed_total(fd), PCOL_COMP_NONE, err);
  return 0;
}

/* The next top-level field, whole in the window (its offsets into fd->buf;
 * fd->base + f->at is its byte offset): 0; FEED_END; FEED_ERR (err set);
 * or pcol_pb_next's -1 (truncated at the end), -2, -3. */
static int feed_next(feed *fd, pcol_pb_field *f, pcol_error *err) {
  if (fd->mem && fd->lo - fd->last >= ((size_t)8 << 20)) { /* pages behind given back */
    pcol_input_done(fd->mem, fd->last, fd->lo);
    fd->last = fd->lo;
  }
  for (;;) {
    size_t i = fd->lo;
    int r = fd->lo < fd->hi ? pcol_pb_next(fd->buf, fd->hi, &i, f) : fd->eof ? FEED_END : -1;
    if (r == -1 && !fd->eof) {
      if ((fd->rc = feed_fill(fd, err))) return FEED_ERR;
      continue;
    }
    if (!r) fd->lo = i;
    return r;
  }
}

/* The rest of the stream, read for its own errors (the caps, bad data):
 * PCOL_OK or FEED_ERR. */
static int feed_drain(feed *fd, pcol_error *err) {
  fd->slide = 1; /* (its bytes are not kept) */
  while (!fd->eof) {
    fd->lo = fd->hi;
    if ((fd->rc = feed_fill(fd, err))) return FEED_ERR;
  }
  return PCOL_OK;
}

/* ------------------------------------------- decoding the Profile message */

/* The tables of a Profile, decoded; the samples stay in the input. */
typedef struct pvtype {
  int64_t type, unit;
} pvtype;
typedef struct pmapping {
  uint64_t id, memory_start, memory_limit, file_offset;
  int64_t filename, build_id;
  uint64_t has_functions, has_filenames, has_line_numbers, has_inline_frames;
} pmapping;
typedef struct pline {
  uint64_t function_id;
  int64_t line, column;
} pline;
typedef struct plocation {
  uint64_t id, mapping_id, address;
  uint64_t is_folded;
  size_t line0, n_line; /* its lines: prof.line[line0 .. line0 + n_line) */
} plocation;
typedef struct pfunction {
  uint64_t id;
  int64_t name, system_name, filename, start_line;
} pfunction;
typedef struct pstring {
  const uint8_t *data; /* set after pass 1: strs + off */
  size_t len, off;
} pstring;
typedef struct plabel {
  int64_t key, str, num, num_unit;
} plabel;
/* the spill takes and gives a label as its 4 int64 */
_Static_assert(sizeof(plabel) == 4 * sizeof(int64_t), "plabel is 4 int64");

typedef struct prof {
  pvtype *sample_type;
  pmapping *mapping;
  plocation *location;
  pline *line;
  pfunction *function;
  pstring *string_table;
  int64_t *comment;
  size_t n_sample_type, n_mapping, n_location, n_line, n_function, n_string_table, n_comment;
  size_t cap_sample_type, cap_mapping, cap_location, cap_line, cap_function, cap_string_table,
      cap_comment;
  size_t n_sample;
  int64_t drop_frames, keep_frames, time_nanos, duration_nanos, period, default_sample_type,
      doc_url;
  int has_period_type;
  pvtype period_type;
} prof;

static void prof_free(prof *p) {
  free(p->sample_type);
  free(p->mapping);
  free(p->location);
  free(p->line);
  free(p->function);
  free(p->string_table);
  free(p->comment);
}

/* One sample, decoded into buffers reused from sample to sample. */
typedef struct psample {
  pcol_buf loc, val, lab; /* uint64 location ids, int64 values, plabel */
} psample;
static void psample_free(psample *s) {
  pcol_buf_free(&s->loc);
  pcol_buf_free(&s->val);
  pcol_buf_free(&s->lab);
}

#define PB_ERR (-1)
#define PB_NOMEM (-2)

/* Packed varints in d[b, e) as pcol_pb_varint reads them: each ends at a
 * byte below 0x80 after at most 9 above, the last at e.  Checked 8 bytes
 * at a time, not decoded: pass 1 checks every Sample's location ids and
 * values, and decoding them was 7% of `pcol pack` of 1M pprof samples.
 * run: the bytes above 0x80 just before the word (little-endian: its
 * first byte is the lowest). */
static int packed_ok(const uint8_t *d, size_t b, size_t e) {
  unsigned run = 0;
  size_t k = b;
  for (; k + 8 <= e; k += 8) {
    uint64_t w;
    memcpy(&w, d + k, 8);
    uint64_t ends = ~w & 0x8080808080808080u; /* the high bit of each byte below 0x80 */
    if (!ends) {
      if ((run += 8) >= 10) return 0;
      continue;
    }
    if (run + (unsigned)__builtin_ctzll(ends) / 8 >= 10) return 0;
    run = 7 - (unsigned)(63 - __builtin_clzll(ends)) / 8; /* (runs inside the word are < 8) */
  }
  for (; k < e; k++)
    if ((run = d[k] & 0x80 ? run + 1 : 0) >= 10) return 0;
  return !run;
}

/* A repeated int64/uint64 field: one varint (wire type 0) or packed ones
 * (wire type 2), appended to out (NULL: only checked). */
static int dec_repeated(const uint8_t *d, const pcol_pb_field *f, pcol_buf *out) {
  if (f->wt == 0) return out && PCOL_BUF_PUSH(out, uint64_t, f->v) ? PB_NOMEM : 0;
  if (f->wt != 2) return PB_ERR;
  if (!out) return packed_ok(d, f->b, f->e) ? 0 : PB_ERR;
  /* room for the most there can be, a byte each: no test a value */
  if (f->e - f->b > SIZE_MAX / 8 || pcol_buf_reserve(out, (f->e - f->b) * 8)) return PB_NOMEM;
  for (size_t k = f->b; k < f->e;) {
    uint64_t v;
    if (pcol_pb_varint(d, f->e, &k, &v)) return PB_ERR;
    memcpy(out->data + out->len, &v, 8);
    out->len += 8;
  }
  return 0;
}

/* The messages whose fields are all int64, uint64 or bool (every one but
 * Sample): off[k] is where field k goes in the struct (an 8-byte member),
 * bools has bit k set for a bool field k.  An int field takes a varint, the
 * last one wins; a bool any wire type (protobuf-c's reading); a field
 * number past the table is unknown and skipped.  Location's repeated Line
 * (field 4) goes to p->line. */
typedef struct pmsg {
  unsigned nf;
  const uint16_t *off;
  uint32_t bools;
} pmsg;

#define OFF(T, m) ((uint16_t)offsetof(T, m))
static const uint16_t VTYPE_OFF[] = {0, OFF(pvtype, type), OFF(pvtype, unit)};
static const uint16_t LABEL_OFF[] = {0, OFF(plabel, key), OFF(plabel, str), OFF(plabel, num),
                                     OFF(plabel, num_unit)};
static const uint16_t MAPPING_OFF[] = {0,
                                       OFF(pmapping, id),
                                       OFF(pmapping, memory_start),
                                       OFF(pmapping, memory_limit),
                                       OFF(pmapping, file_offset),
                                       OFF(pmapping, filename),
                                       OFF(pmapping, build_id),
                                       OFF(pmapping, has_functions),
                                       OFF(pmapping, has_filenames),
                                       OFF(pmapping, has_line_numbers),
                                       OFF(pmapping, has_inline_frames)};
static const uint16_t LINE_OFF[] = {0, OFF(pline, function_id), OFF(pline, line), OFF(pline, column)};
static const uint16_t LOCATION_OFF[] = {0, OFF(plocation, id), OFF(plocation, mapping_id),
                                        OFF(plocation, address), 0, OFF(plocation, is_folded)};
static const uint16_t FUNCTION_OFF[] = {0, OFF(pfunction, id), OFF(pfunction, name),
                                        OFF(pfunction, system_name), OFF(pfunction, filename),
                                        OFF(pfunction, start_line)};
#undef OFF
#define N_(a) (unsigned)(sizeof a / sizeof a[0])
static const pmsg M_VTYPE = {N_(VTYPE_OFF), VTYPE_OFF, 0};
static const pmsg M_LABEL = {N_(LABEL_OFF), LABEL_OFF, 0};
static const pmsg M_MAPPING = {N_(MAPPING_OFF), MAPPING_OFF, 0xfu << 7};
static const pmsg M_LINE = {N_(LINE_OFF), LINE_OFF, 0};
static const pmsg M_LOCATION = {N_(LOCATION_OFF), LOCATION_OFF, 1u << 5};
static const pmsg M_FUNCTION = {N_(FUNCTION_OFF), FUNCTION_OFF, 0};
#undef N_

static int dec_flat(const uint8_t *d, size_t b, size_t e, const pmsg *m, void *o, size_t size,
                    prof *p) {
  memset(o, 0, size);
  pcol_pb_field f;
  for (size_t i = b; i < e;) {
    if (pcol_pb_next_c(d, e, &i, &f)) return PB_ERR;
    if (m == &M_LOCATION && f.field == 4) { /* repeated Line */
      if (f.wt != 2) return PB_ERR;
      if (PCOL_GROW(p->line, p->n_line, p->cap_line)) return PB_NOMEM;
      if (dec_flat(d, f.b, f.e, &M_LINE, &p->line[p->n_line], sizeof(pline), NULL)) return PB_ERR;
      p->n_line++;
      continue;
    }
    if (f.field >= m->nf) continue; /* unknown: skipped */
    uint64_t v;
    if (m->bools >> f.field & 1) {
      v = (uint64_t)pcol_pb_bool_c(d, &f);
    } else {
      if (f.wt != 0) return PB_ERR;
      v = f.v;
    }
    memcpy((uint8_t *)o + m->off[f.field], &v, sizeof v);
  }
  return 0;
}

/* A Sample into s (reset first), or only checked (s NULL). */
static int dec_sample(const uint8_t *d, size_t b, size_t e, psample *s) {
  if (s) s->loc.len = s->val.len = s->lab.len = 0;
  pcol_pb_field f;
  int r;
  for (size_t i = b; i < e;) {
    if (pcol_pb_next_c(d, e, &i, &f)) return PB_ERR;
    switch (f.field) {
    case 1:
      if ((r = dec_repeated(d, &f, s ? &s->loc : NULL))) return r;
      break;
    case 2:
      if ((r = dec_repeated(d, &f, s ? &s->val : NULL))) return r;
      break;
    case 3: {
      if (f.wt != 2) return PB_ERR;
      plabel l;
      if ((r = dec_flat(d, f.b, f.e, &M_LABEL, &l, sizeof l, NULL))) return r;
      if (s && pcol_buf_append(&s->lab, &l, sizeof l)) return PB_NOMEM;
      break;
    }
    default: break;
    }
  }
  return 0;
}


/* A Location; its lines are appended to p->line. */
static int dec_location(const uint8_t *d, size_t b, size_t e, prof *p, plocation *o) {
  size_t line0 = p->n_line;
  int r = dec_flat(d, b, e, &M_LOCATION, o, sizeof *o, p);
  o->line0 = line0;
  o->n_line = p->n_line - line0;
  return r;
}

/* ---------------------------------------------------- pass 1 */

/* A pass-1 error, kept until the message's length (in its text) is known:
 * framing errors (the top-level scan) come before a malformed packed
 * comment, which comes before any other field's error, whatever their
 * places in the message (each pass of the decoder before issue 47 walked
 * the whole message first). */
enum { E_NONE, E_VARINT, E_TRUNC, E_FIELD0, E_WIRE, E_CONCAT, E_TYPE, E_FIELD, E_NOMEM, E_PERIOD };
typedef struct perr {
  int kind;
  unsigned wt;
  uint64_t field, at;
} perr;

static int perr_set(const perr *e, const char *name, int gz, uint64_t n, pcol_error *err) {
  size_t at = (size_t)e->at, len = (size_t)n;
  const char *inf = gz ? "inflated, " : "";
  switch (e->kind) {
  case E_VARINT:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: malformed protobuf: varint longer than 10 bytes at byte offset %zu",
                          name, at);
  case E_TRUNC:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: truncated protobuf: the field at byte offset %zu runs past the end "
                          "(%zu bytes)",
                          name, at, len);
  case E_FIELD0:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: not a pprof protobuf: field number 0 at byte offset %zu", name, at);
  case E_WIRE:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: not a pprof protobuf: wire type %u (field %" PRIu64
                          ") at byte offset %zu",
                          name, e->wt, e->field, at);
  case E_CONCAT:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: concatenated profiles detected (second time_nanos at byte offset %zu)",
                          name, at);
  case E_TYPE:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: malformed pprof protobuf (%s%zu bytes): field %" PRIu64
                          " at byte offset %zu has wire type %u, not %u",
                          name, inf, len, e->field, at, e->wt,
                          (e->field >= 1 && e->field <= 6) || e->field == 11 ? 2u : 0u);
  case E_FIELD:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: malformed pprof protobuf (%s%zu bytes): the message of field %" PRIu64
                          " at byte offset %zu is truncated or has a field of the wrong wire type",
                          name, inf, len, e->field, at);
  case E_PERIOD:
    return pcol_error_set(err, PCOL_ECORRUPT,
                          "%s: malformed pprof protobuf (%s%zu bytes): period_type is truncated or "
                          "has a field of the wrong wire type",
                          name, inf, len);
  case E_NOMEM: return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  default: return PCOL_OK;
  }
}

/* One top-level field (framing checked) into the tables; the samples only
 * checked and counted; strings copied to strs (string_table[i].off).  0, or
 * the error kind. */
static int decode_field(const uint8_t *d, const pcol_pb_field *f, prof *p, pcol_buf *strs,
                        pcol_buf *period, psample *keep) {
  if (f->field >= 16) return 0; /* unknown: skipped, as protobuf-c skips them */
  int is_msg = (f->field >= 1 && f->field <= 6) || f->field == 11;
  if (is_msg ? f->wt != 2 : (f->wt != 0 && !(f->field == 13 && f->wt == 2))) return E_TYPE;
  int r = 0;
#define ADD(arr)                                                                     \
  do {                                                                               \
    if (PCOL_GROW(p->arr, p->n_##arr, p->cap_##arr)) return E_NOMEM;                 \
  } while (0)
  switch (f->field) {
  case 1:
    ADD(sample_type);
    r = dec_flat(d, f->b, f->e, &M_VTYPE, &p->sample_type[p->n_sample_type++], sizeof(pvtype), p);
    break;
  case 2:
    r = dec_sample(d, f->b, f->e, keep);
    p->n_sample++;
    break;
  case 3:
    ADD(mapping);
    r = dec_flat(d, f->b, f->e, &M_MAPPING, &p->mapping[p->n_mapping++], sizeof(pmapping), p);
    break;
  case 4:
    ADD(location);
    r = dec_location(d, f->b, f->e, p, &p->location[p->n_location++]);
    break;
  case 5:
    ADD(function);
    r = dec_flat(d, f->b, f->e, &M_FUNCTION, &p->function[p->n_function++], sizeof(pfunction), p);
    break;
  case 6:
    ADD(string_table);
    p->string_table[p->n_string_table].off = strs->len;
    p->string_table[p->n_string_table++].len = f->e - f->b;
    if (pcol_buf_append(strs, d + f->b, f->e - f->b)) return E_NOMEM;
    break;
  case 11: /* period_type: the last occurrence wins (protobuf-c, Go) */
    period->len = 0;
    if (pcol_buf_append(period, d + f->b, f->e - f->b)) return E_NOMEM;
    p->has_period_type = 1;
    break;
  case 7: p->drop_frames = (int64_t)f->v; break;
  case 8: p->keep_frames = (int64_t)f->v; break;
  case 9: p->time_nanos = (int64_t)f->v; break;
  case 10: p->duration_nanos = (int64_t)f->v; break;
  case 12: p->period = (int64_t)f->v; break;
  case 14: p->default_sample_type = (int64_t)f->v; break;
  case 15: p->doc_url = (int64_t)f->v; break;
  case 13:
    if (f->wt == 0) {
      ADD(comment);
      p->comment[p->n_comment++] = (int64_t)f->v;
    } else {
      for (size_t k = f->b; k < f->e;) {
        uint64_t v;
        if (pcol_pb_varint(d, f->e, &k, &v)) return E_FIELD;
        ADD(comment);
        p->comment[p->n_comment++] = (int64_t)v;
      }
    }
    break;
  default: break; /* field 0: a framing error */
  }
#undef ADD
  return r == PB_NOMEM ? E_NOMEM : r ? E_FIELD : 0;
}

/* Pass 1: the framing of every top-level field (offsets for its errors;
 * concatenated profiles: a second time_nanos after a nonzero one,
 * google/pprof's rule), every field but the samples decoded, the samples
 * counted and checked, so that a malformed message is refused before
 * anything is built.  *srcerr: the stream itself failed (its error). */
static int pass1(feed *fd, const char *name, int gz, prof *p, pcol_buf *strs, int *srcerr,
                 pprof_spill *sp, pcol_error *err) {
  perr fe = {0}, pce = {0}, de = {0};
  psample s = {{0}, {0}, {0}}; /* a pipe's Sample, decoded for the spill */
  pcol_buf period = {0};
  int64_t time_nanos = 0;
  pcol_pb_field f;
  int rc = PCOL_OK;
  *srcerr = 0;
  memset(p, 0, sizeof *p);
  for (;;) {
    int r = feed_next(fd, &f, err);
    if (r == FEED_END) break;
    if (r == FEED_ERR) goto src_failed;
    uint64_t at = fd->base + f.at;
    if (r == -2) fe = (perr){E_VARINT, 0, 0, at};
    else if (r == -1) fe = (perr){E_TRUNC, 0, 0, at};
    else if (f.field == 0) fe = (perr){E_FIELD0, 0, 0, at};
    else if (r == -3) fe = (perr){E_WIRE, f.wt, f.field, at};
    else if (f.wt == 0 && f.field == 9 && time_nanos != 0) fe = (perr){E_CONCAT, 0, 0, at};
    if (fe.kind) break;
    if (f.wt == 0 && f.field == 9) time_nanos = (int64_t)f.v;
    if (f.field == 13 && f.wt == 2 && !pce.kind)
      for (size_t k = f.b; k < f.e;) {
        uint64_t v;
        if (pcol_pb_varint(fd->buf, f.e, &k, &v)) {
          pce = (perr){E_FIELD, 2, 13, at};
          break;
        }
      }
    if (!de.kind && (de.kind = decode_field(fd->buf, &f, p, strs, &period, sp ? &s : NULL)))
      de = (perr){de.kind, f.wt, f.field, at};
    else if (sp && !de.kind && f.field == 2 &&
             (rc = pprof_spill_add(sp, (const uint64_t *)(const void *)s.loc.data,
                                   s.loc.len / sizeof(uint64_t),
                                   (const int64_t *)(const void *)s.val.data,
                                   s.val.len / sizeof(int64_t),
                                   (const int64_t *)(const void *)s.lab.data,
                                   s.lab.len / sizeof(int64_t) / 4, err)))
      goto spill_failed;
  }
  if (fe.kind && feed_drain(fd, err)) goto src_failed;
  if (!fe.kind && !pce.kind && !de.kind && p->has_period_type &&
      dec_flat(period.data, 0, period.len, &M_VTYPE, &p->period_type, sizeof p->period_type, p))
    de.kind = E_PERIOD;
  rc = perr_set(fe.kind ? &fe : pce.kind ? &pce : &de, name, gz, feed_total(fd), err);
  pcol_buf_free(&period);
  psample_free(&s);
  return rc;
src_failed:
  rc = fd->rc;
spill_failed:
  *srcerr = 1;
  pcol_buf_free(&period);
  psample_free(&s);
  return rc;
}

/* ------------------------------------------------------- id -> index map */

typedef struct idmap {
  uint64_t *keys; /* 0 = empty (ids are nonzero) */
  uint32_t *vals; /* index + 1 */
  size_t mask;
  size_t dense;   /* the records are numbered 1..dense in order (0: not so) */
} idmap;

static int idmap_init(idmap *m, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n + 1) cap *= 2;
  m->keys = calloc(cap, sizeof *m->keys);
  m->vals = calloc(cap, sizeof *m->vals);
  m->mask = cap - 1;
  m->dense = 0;
  return m->keys && m->vals ? PCOL_OK : PCOL_ENOMEM;
}
static void idmap_free(idmap *m) {
  free(m->keys);
  free(m->vals);
}
static size_t idmap_slot(const idmap *m, uint64_t key) {
  /* keyed: ids come from the file, and a fixed mixer (even a full one) is
   * invertible, so a file could aim every id at one slot (50k ids: 13 s) */
  uint64_t h = pcol_hash2(0x1d, key, 0);
  size_t i = (size_t)h & m->mask;
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & m->mask;
  return i;
}
static uint32_t idmap_get(const idmap *m, uint64_t key) {
  /* no table: an empty one (check_ids makes none for 0 records, found by
   * fuzz_pprof: a line naming a function in a profile without any) */
  if (!key || !m->keys) return 0;
  size_t i = idmap_slot(m, key);
  return m->keys[i] ? m->vals[i] : 0;
}
/* 1 if the key was already present */
static int idmap_put(idmap *m, uint64_t key, uint32_t val) {
  size_t i = idmap_slot(m, key);
  if (m->keys[i]) return 1;
  m->keys[i] = key;
  m->vals[i] = val;
  return 0;
}

/* Table index + 1 of an id, 0 if none.  Most producers number records
 * 1..n in order (check_ids notes it): then the id is the index, with no
 * look at the record (a cache miss a frame of every sample, measured a
 * third of `pcol pack`'s time on 1M samples); else the record at that
 * index is tried before hashing. */
#define ID_LOOKUP(NAME, FIELD, MAP)                                             \
  static uint32_t NAME(const struct ctx *c, uint64_t id) {                      \
    if (c->MAP.dense) return id - 1 < c->MAP.dense ? (uint32_t)id : 0;          \
    if (id - 1 < c->p->n_##FIELD && c->p->FIELD[id - 1].id == id)             \
      return (uint32_t)id;                                                      \
    return idmap_get(&c->MAP, id);                                              \
  }

/* --------------------------------------------------------- validation */

typedef struct ctx {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  const prof *p;
  feed *fd;    /* pass 2 reads the samples there */
  pprof_spill *sp; /* or there: a pipe's, kept by pass 1 */
  uint64_t n1; /* the message's length in pass 1 */
  int gz;
  uint32_t *sids; /* pprof string index -> pcol string id; UINT32_MAX = not yet */
  idmap maps, locs, fns;
  uint32_t *map_ids, *loc_ids, *fn_ids; /* pprof table index -> pcol id */
  uint8_t *base_strs; /* per string index: BASE_KEY "pprof::base", BASE_TRUE "true" (NULL: no
                       * "pprof::base"); by value, as go reads strings: a table may hold one twice */
  int base_labelled;   /* a sample has a label of that key */
  uint64_t *map_shift; /* what a mapping's addresses gain (pcol_b_mappings_shared) */
  const pcol_symbolize_options *sym; /* NULL: -symbolize=none */
  pcol_sym *ss; /* with sym local: the session, for the locations and the names */
  pcol_pprof_prune pr; /* drop_frames/keep_frames (pprof_prune.c) */
  pcol_buf ix;         /* a sample's locations (indexes), for pr */
} ctx;

/* 1 when string index i is one of the strings bit names (ctx.base_strs) */
#define BASE_KEY 1
#define BASE_TRUE 2
static int base_str(const ctx *c, int64_t i, uint8_t bit) {
  return c->base_strs && i > 0 && (uint64_t)i < c->p->n_string_table && (c->base_strs[i] & bit);
}

ID_LOOKUP(fn_ix, function, fns)
ID_LOOKUP(loc_ix, location, locs)
ID_LOOKUP(map_ix, mapping, maps)

static int bad(ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int bad(ctx *c, const char *fmt, ...) {
  char m[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: malformed pprof profile: %s", c->name, m);
}

#define CHK_STR(idx, what, ...)                                                          \
  do {                                                                                   \
    int64_t i_ = (idx);                                                                  \
    if (i_ < 0 || (uint64_t)i_ >= p->n_string_table)                                     \
      return bad(c, what " is string index %" PRId64 ", outside the string table (%zu "  \
                         "entries)",                                                     \
                 __VA_ARGS__, i_, p->n_string_table);                                    \
  } while (0)

static int check_ids(ctx *c, idmap *m, const char *table, size_t n,
                     uint64_t (*id_at)(const prof *, size_t)) {
  size_t i = 0;
  while (i < n && id_at(c->p, i) == i + 1) i++;
  if (i == n) { /* numbered 1..n in order: no duplicate, no table needed */
    memset(m, 0, sizeof *m);
    m->dense = n;
    return PCOL_OK;
  }
  if (idmap_init(m, n)) return pcol_error_set(c->err, PCOL_ENOMEM, "%s: out of memory", c->name);
  for (i = 0; i < n; i++) {
    uint64_t id = id_at(c->p, i);
    if (id == 0) return bad(c, "%s #%zu has the reserved id 0", table, i + 1);
    if (idmap_put(m, id, (uint32_t)i + 1))
      return bad(c, "%s #%zu has id %" PRIu64 ", already used by an earlier %s", table,
                 i + 1, id, table);
  }
  return PCOL_OK;
}
static uint64_t map_id_at(const prof *p, size_t i) { return p->mapping[i].id; }
static uint64_t loc_id_at(const prof *p, size_t i) { return p->location[i].id; }
static uint64_t fn_id_at(const prof *p, size_t i) { return p->function[i].id; }

/* The rules of google/pprof's parser + CheckValid, with messages that say
 * which record is wrong: everything but the samples, which check_sample
 * checks one at a time as pass 2 reads them (after these, as before). */
static int validate(ctx *c) {
  const prof *p = c->p;
  int rc;
  if (p->n_string_table == 0) return bad(c, "the string table is missing (entry 0 must be \"\")");
  if (p->string_table[0].len != 0)
    return bad(c, "string_table[0] is %zu bytes long; it must be the empty string",
               p->string_table[0].len);
  if (p->n_sample > UINT32_MAX || p->n_location >= UINT32_MAX ||
      p->n_function >= UINT32_MAX || p->n_mapping >= UINT32_MAX)
    return pcol_error_set(c->err, PCOL_ETOOBIG, "%s: too many records for pcol", c->name);
  for (size_t i = 0; i < p->n_sample_type; i++) {
    CHK_STR(p->sample_type[i].type, "sample_type #%zu type", i + 1);
    CHK_STR(p->sample_type[i].unit, "sample_type #%zu unit", i + 1);
  }
  if (p->has_period_type) {
    CHK_STR(p->period_type.type, "period_type type%s", "");
    CHK_STR(p->period_type.unit, "period_type unit%s", "");
  }
  CHK_STR(p->drop_frames, "drop_frames%s", "");
  CHK_STR(p->keep_frames, "keep_frames%s", "");
  CHK_STR(p->default_sample_type, "default_sample_type%s", "");
  CHK_STR(p->doc_url, "doc_url%s", "");
  for (size_t i = 0; i < p->n_comment; i++) CHK_STR(p->comment[i], "comment #%zu", i + 1);
  if ((rc = check_ids(c, &c->maps, "mapping", p->n_mapping, map_id_at))) return rc;
  if ((rc = check_ids(c, &c->locs, "location", p->n_location, loc_id_at))) return rc;
  if ((rc = check_ids(c, &c->fns, "function", p->n_function, fn_id_at))) return rc;
  for (size_t i = 0; i < p->n_mapping; i++) {
    CHK_STR(p->mapping[i].filename, "mapping #%zu filename", i + 1);
    CHK_STR(p->mapping[i].build_id, "mapping #%zu build_id", i + 1);
  }
  for (size_t i = 0; i < p->n_function; i++) {
    const pfunction *fn = &p->function[i];
    CHK_STR(fn->name, "function #%zu name", i + 1);
    CHK_STR(fn->system_name, "function #%zu system_name", i + 1);
    CHK_STR(fn->filename, "function #%zu filename", i + 1);
  }
  for (size_t i = 0; i < p->n_location; i++) {
    const plocation *l = &p->location[i];
    for (size_t j = 0; j < l->n_line; j++)
      if (!fn_ix(c, p->line[l->line0 + j].function_id))
        return bad(c, "location #%zu (id %" PRIu64 ") line %zu names function id %" PRIu64
                      ", which does not exist",
                   i + 1, l->id, j + 1, p->line[l->line0 + j].function_id);
  }
  if (p->n_sample && !p->n_sample_type) return bad(c, "samples present but no sample_type");
  return PCOL_OK;
}

/* sample #i (1-based), decoded into s */
static int check_sample(ctx *c, size_t i, const psample *s) {
  const prof *p = c->p;
  size_t nloc = s->loc.len / sizeof(uint64_t), nval = s->val.len / sizeof(int64_t),
         nlab = s->lab.len / sizeof(plabel);
  if (nval != p->n_sample_type)
    return bad(c, "sample #%zu has %zu values, but there are %zu sample types", i, nval,
               p->n_sample_type);
  const uint64_t *loc = (const uint64_t *)(const void *)s->loc.data;
  for (size_t j = 0; j < nloc; j++)
    if (!loc_ix(c, loc[j]))
      return bad(c, "sample #%zu refers to location id %" PRIu64 ", which does not exist", i,
                 loc[j]);
  const plabel *lab = (const plabel *)(const void *)s->lab.data;
  for (size_t j = 0; j < nlab; j++) {
    CHK_STR(lab[j].key, "sample #%zu label %zu key", i, j + 1);
    CHK_STR(lab[j].str, "sample #%zu label %zu str", i, j + 1);
    CHK_STR(lab[j].num_unit, "sample #%zu label %zu num_unit", i, j + 1);
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------ mapping */

/* A failed builder call: its own message (the pcol_b_* call and its
 * reason) after the file's name. */
#define TRY(x) PCOL_RETURN_NOT_OK(pcol_error_in(c->err, (x), c->name, 0))
/* A status without a message (the importer's own allocation): its name. */
static int bare(ctx *c, int rc) {
  return pcol_error_set(c->err, rc, "%s: building pcol tables: %s", c->name, pcol_strerror(rc));
}

/* pcol string id of a (validated) pprof string index; index 0 -> 0 (NA). */
static int sid(ctx *c, int64_t idx, uint32_t *out) {
  if (idx == 0) {
    *out = 0;
    return PCOL_OK;
  }
  uint32_t *s = &c->sids[idx];
  if (*s == UINT32_MAX) {
    const pstring *d = &c->p->string_table[idx];
    int rc = pcol_b_string(c->b, d->len ? (const void *)d->data : "", d->len, s, c->err);
    if (rc) return rc;
  }
  *out = *s;
  return PCOL_OK;
}

static int meta_i64(ctx *c, uint32_t src, const char *key, int64_t v) {
  char t[32];
  int n = snprintf(t, sizeof t, "%" PRId64, v);
  return pcol_b_meta(c->b, src, key, t, (size_t)n, c->err);
}
static int meta_strx(ctx *c, uint32_t src, const char *key, int64_t idx) {
  const pstring *d = &c->p->string_table[idx];
  return pcol_b_meta(c->b, src, key, d->len ? (const void *)d->data : "", d->len, c->err);
}

static int floor_div(int64_t a, int64_t b) { return (int)(a % b < 0); }

/* Pass 2's next Sample into s, and with a pipe's records its stack's
 * numbering (pprof_spill_next's seen, keep): PCOL_OK, 1 after the last
 * (*r: the feed's last answer, FEED_END at the end), or the failure (err
 * set). */
static int next_sample(ctx *c, psample *s, uint32_t *seen, int *keep, size_t ns, int *r) {
  pcol_pb_field f;
  *seen = PPROF_STACK_NEW;
  *keep = 0;
  if (c->sp) { /* the spill's records: the Samples pass 1 decoded */
    int x = pprof_spill_next(c->sp, &s->loc, &s->val, &s->lab, seen, keep, c->err);
    if (x == 1) *r = FEED_END;
    return x; /* (its message names the input) */
  }
  do
    if ((*r = feed_next(c->fd, &f, c->err))) return 1;
  while (f.field != 2);
  int d = dec_sample(c->fd->buf, f.b, f.e, s);
  if (!d) return PCOL_OK;
  /* pass 1 decoded these bytes: memory, or a file changed in between */
  return d == PB_NOMEM ? bare(c, PCOL_ENOMEM)
                       : pcol_error_set(c->err, PCOL_EIO,
                                        "%s: the input changed while it was read (sample %zu "
                                        "no longer decodes)", c->name, ns + 1);
}

/* Pass 2 starts over (after samples_reach): the window or a pipe's
 * records again, or the input seeked back and read again. */
static int samples_again(ctx *c) {
  if (c->sp) {
    pprof_spill_rewind(c->sp);
    return PCOL_OK;
  }
  feed *fd = c->fd;
  pcol_input *mem = fd->mem;
  psrc *src = fd->src;
  feed_free(fd);
  if (mem) {
    feed_init(fd, NULL, mem);
    return PCOL_OK;
  }
  int rc = src_close(src, PCOL_OK, c->err);
  if (!rc && fseeko(src->in, src->start, SEEK_SET) != 0)
    rc = pcol_error_set(c->err, PCOL_EIO, "%s: cannot read the input a third time: %s", c->name,
                        strerror(errno));
  if (!rc) rc = src_open(src, c->err);
  feed_init(fd, src, NULL);
  fd->slide = 1;
  return rc;
}

/* reach[i]: the order in which the samples meet mapping i, as go's
 * profile.Merge meets them (merge.go mapSample: in file order, a sample of
 * values all 0 skipped, each one's locations leaf first; a location once),
 * for pcol_b_mappings_shared to keep the row go keeps of a key; UINT64_MAX
 * for one none meets.  The samples are read ahead of pass 2, which then
 * starts over (c->again). */
static int samples_reach(ctx *c, uint64_t *reach) {
  const prof *p = c->p;
  psample s = {{0}, {0}, {0}};
  pcol_buf zero = {0}; /* a pipe's: a stack numbered by a sample of 0, its locations */
  pcol_buf zat = {0};  /* per stack numbered: 1 + where its locations start in zero (0: met) */
  uint8_t *met = calloc(p->n_location + 1, 1);
  uint64_t n = 0;
  int rc = met ? PCOL_OK : bare(c, PCOL_ENOMEM), r = 0;
  for (size_t i = 0; i < p->n_mapping; i++) reach[i] = UINT64_MAX;
  if (c->sp) c->sp->hold = 1; /* (read again by pass 2) */
  for (size_t ns = 0; !rc; ns++) {
    uint32_t seen;
    int keep, x = next_sample(c, &s, &seen, &keep, ns, &r);
    if (x == 1) break;
    if ((rc = x)) break;
    const int64_t *v = (const int64_t *)(const void *)s.val.data;
    size_t nv = s.val.len / sizeof *v, nl = s.loc.len / sizeof(uint64_t), j = 0;
    while (j < nv && !v[j]) j++;
    int zeroed = j == nv; /* merge.go isZeroSample */
    const uint64_t *loc = (const uint64_t *)(const void *)s.loc.data;
    if (seen != PPROF_STACK_NEW) { /* met before: walked then, unless by a sample of 0 */
      uint64_t *za = (uint64_t *)(void *)zat.data;
      if (zeroed || seen >= zat.len / sizeof *za || !za[seen]) continue;
      loc = (const uint64_t *)(const void *)zero.data + (za[seen] - 1);
      nl = (size_t)loc[-1];
      za[seen] = 0;
    } else if (keep) {
      uint64_t at = zeroed ? zero.len / sizeof(uint64_t) + 2 : 0, k = nl;
      if (PCOL_BUF_PUSH(&zat, uint64_t, at) ||
          (zeroed && (PCOL_BUF_PUSH(&zero, uint64_t, k) || pcol_buf_append(&zero, loc, nl * sizeof *loc)))) {
        rc = bare(c, PCOL_ENOMEM);
        break;
      }
    }
    for (j = 0; j < nl && !zeroed; j++) {
      uint32_t li = loc_ix(c, loc[j]); /* (0: pass 2 refuses the sample) */
      if (!li || met[li]) continue;
      met[li] = 1;
      uint32_t mi = map_ix(c, p->location[li - 1].mapping_id);
      if (mi && reach[mi - 1] == UINT64_MAX) reach[mi - 1] = n++;
    }
  }
  if (!rc && r == FEED_ERR) rc = c->fd->rc;
  if (c->sp) c->sp->hold = 0;
  free(met);
  pcol_buf_free(&zero);
  pcol_buf_free(&zat);
  pcol_buf_free(&s.loc);
  pcol_buf_free(&s.val);
  pcol_buf_free(&s.lab);
  return rc ? rc : samples_again(c);
}

/* Pass 2: each Sample of the message, decoded, checked and added in file
 * order; nothing of it outlives the next one. */
static int add_samples(ctx *c, uint32_t src, pcol_value_row *vals, size_t nvt) {
  pcol_builder *b = c->b;
  psample s = {{0}, {0}, {0}};
  pcol_buf stack = {0}, labels = {0};
  pcol_stack_memo memo = {0};
  pcol_buf numbered = {0}; /* a pipe's: the pcol stack id of each stack numbered */
  int rc = PCOL_OK;
  size_t ns = 0;
  feed *fd = c->fd;
  int r = 0;
  for (;;) {
    uint32_t seen;
    int keep, got = next_sample(c, &s, &seen, &keep, ns, &r);
    if (got == 1) break;
    if ((rc = got)) goto out;
    ns++;
    /* (a stack met before has no location ids here: they passed then) */
    if ((rc = check_sample(c, ns, &s))) goto out;
    size_t nloc = s.loc.len / sizeof(uint64_t), nlab = s.lab.len / sizeof(plabel);
    if (pcol_buf_reserve(&stack, nloc * sizeof(uint32_t) + 1) ||
        pcol_buf_reserve(&labels, nlab * sizeof(pcol_label_row) + 1)) {
      rc = bare(c, PCOL_ENOMEM);
      goto out;
    }
    const uint64_t *loc = (const uint64_t *)(const void *)s.loc.data;
    uint32_t *st = (uint32_t *)(void *)stack.data;
    for (size_t j = 0; j < nloc; j++) st[j] = c->loc_ids[loc_ix(c, loc[j]) - 1];
    if (c->pr.on) { /* drop_frames: the leaf's end of the stack cut (pprof_prune.c) */
      c->ix.len = 0;
      if (pcol_buf_reserve(&c->ix, nloc * sizeof(uint32_t) + 1)) {
        rc = bare(c, PCOL_ENOMEM);
        goto out;
      }
      uint32_t *ix = (uint32_t *)(void *)c->ix.data;
      for (size_t j = 0; j < nloc; j++) ix[j] = (uint32_t)(loc_ix(c, loc[j]) - 1);
      size_t from = pcol_pprof_prune_stack(&c->pr, ix, nloc);
      st += from, nloc -= from;
    }
    const plabel *L = (const plabel *)(const void *)s.lab.data;
    pcol_label_row *lb = (pcol_label_row *)(void *)labels.data;
    size_t kept = 0;
    int based = 0; /* labelled pprof::base = true: a -diff_base's base sample */
    for (size_t j = 0; j < nlab && !rc; j++) {
      /* what go tool pprof reads (profile/encode.go postDecode, on the
       * indices, not the strings): a string when str != 0 (its num and
       * num_unit unread), else a number with its unit (the string at
       * num_unit, "" too) when num != 0 || num_unit != 0, else no label */
      int is_str = L[j].str != 0;
      if (!is_str && !L[j].num && !L[j].num_unit) continue;
      if (base_str(c, L[j].key, BASE_KEY)) {
        c->base_labelled = 1;
        based |= is_str && base_str(c, L[j].str, BASE_TRUE);
      }
      pcol_label_row *x = &lb[kept++];
      x->num = is_str ? 0 : L[j].num;
      if (!(rc = sid(c, L[j].key, &x->key)) && !(rc = sid(c, L[j].str, &x->str)))
        rc = sid(c, is_str ? 0 : L[j].num_unit, &x->num_unit);
    }
    nlab = kept;
    /* a -diff_base's base sample is one raw sample subtracted: its weight
     * -1, as its values were negated (the source's meta says "signed":
     * THE count rule counts each sample by its own sign, not every row of
     * the source negated) */
    pcol_sample_row row = {src, PCOL_NA_I64, 0, based ? -1 : 1, PCOL_NA_I64, 0, 0};
    /* a stack met before is the stack it was (the builder would find the
     * same one: nothing of it changes the builder) */
    if (seen != PPROF_STACK_NEW) row.stack_id = ((const uint32_t *)(const void *)numbered.data)[seen];
    else if (!rc) rc = pcol_b_stack_memo(b, &memo, st, nloc, &row.stack_id, c->err);
    if (!rc && keep && PCOL_BUF_PUSH(&numbered, uint32_t, row.stack_id)) rc = bare(c, PCOL_ENOMEM);
    if (!rc) rc = pcol_b_labelset(b, lb, nlab, &row.labelset_id, c->err);
    const int64_t *v = (const int64_t *)(const void *)s.val.data;
    for (size_t j = 0; j < nvt; j++) vals[j].value = v[j];
    if (!rc) rc = pcol_b_sample(b, &row, vals, nvt, NULL, c->err);
    if (rc) break;
  }
  if (r == FEED_ERR) {
    rc = fd->rc;
    goto out;
  }
  /* read again, the message must be the one pass 1 read */
  if (!rc && (r != FEED_END || ns != c->p->n_sample || (!c->sp && feed_total(fd) != c->n1))) {
    rc = pcol_error_set(c->err, PCOL_EIO,
                        "%s: the input changed while it was read (%" PRIu64 " bytes and %zu "
                        "samples, then %" PRIu64 " bytes and %zu samples)",
                        c->name, c->n1, c->p->n_sample, feed_total(fd), ns);
    goto out;
  }
  rc = pcol_error_in(c->err, rc, c->name, 0);
out:
  pcol_buf_free(&s.loc);
  pcol_buf_free(&s.val);
  pcol_buf_free(&s.lab);
  pcol_buf_free(&stack);
  pcol_buf_free(&labels);
  pcol_buf_free(&numbered);
  pcol_stack_memo_free(&memo);
  return rc;
}

static char *pstr_dup(const prof *p, int64_t i) {
  const pstring *t = &p->string_table[i];
  char *r = malloc(t->len + 1);
  if (r) {
    memcpy(r, t->data, t->len);
    r[t->len] = 0;
  }
  return r;
}

/* -symbolize=local: the profile's mappings and locations handed to
 * pcol_sym_locations (symbolize.c) before anything is built from them */
static int symbolize(ctx *c, pcol_sym_table *t) {
  const prof *p = c->p;
  pcol_sym_input *in = pcol_sym_input_new(p->n_mapping, p->n_location);
  if (!in) return bare(c, PCOL_ENOMEM);
  for (size_t i = 0; i < p->n_mapping; i++) {
    const pmapping *m = &p->mapping[i];
    pcol_sym_mapping sm = {m->memory_start, m->memory_limit, m->file_offset,
                           pstr_dup(p, m->filename), pstr_dup(p, m->build_id),
                           p->string_table[m->filename].len,
                           m->has_functions || m->has_filenames || m->has_line_numbers, i == 0};
    in->maps[i] = sm;
  }
  for (size_t i = 0; i < p->n_location; i++) {
    in->loc_map[i] = map_ix(c, p->location[i].mapping_id);
    in->loc_addr[i] = p->location[i].address;
  }
  return pcol_sym_locations(c->ss, c->b, in, t, c->err);
}

static int build(ctx *c) {
  const prof *p = c->p;
  pcol_builder *b = c->b;
  int64_t ts = PCOL_NA_I64;
  if (p->time_nanos) ts = p->time_nanos / 1000000000 - floor_div(p->time_nanos, 1000000000);
  uint32_t src;
  TRY(pcol_b_source(b, PCOL_SRC_PPROF, c->name, ts, &src, c->err));

  /* profile-level fields, present (nonzero) ones only: proto3 has no other
   * notion of presence, so this reproduces the same encoded fields */
  if (p->drop_frames) TRY(meta_strx(c, src, PPROF_META_DROP_FRAMES, p->drop_frames));
  if (p->keep_frames) TRY(meta_strx(c, src, PPROF_META_KEEP_FRAMES, p->keep_frames));
  if (p->time_nanos) TRY(meta_i64(c, src, PPROF_META_TIME_NANOS, p->time_nanos));
  if (p->duration_nanos) TRY(meta_i64(c, src, PPROF_META_DURATION_NANOS, p->duration_nanos));
  if (p->has_period_type) {
    TRY(meta_strx(c, src, PPROF_META_PERIOD_TYPE_TYPE, p->period_type.type));
    TRY(meta_strx(c, src, PPROF_META_PERIOD_TYPE_UNIT, p->period_type.unit));
  }
  if (p->period) TRY(meta_i64(c, src, PPROF_META_PERIOD, p->period));
  /* a comment of pcol's export that marks stacks the recorder truncated
   * (THE rule: truncated.c) gives back pcol.truncated_stacks, so the views
   * of the copy warn as those of the original; kept as a comment too, as
   * go tool pprof shows it */
  uint64_t trunc = 0;
  for (size_t i = 0; i < p->n_comment; i++) {
    const pstring *d = &p->string_table[p->comment[i]];
    uint64_t n;
    if (pcol_truncated_comment_parse((pcol_str){(const char *)d->data, d->len}, &n) && n <= UINT64_MAX - trunc)
      trunc += n;
    TRY(meta_strx(c, src, PPROF_META_COMMENT, p->comment[i]));
  }
  TRY(pcol_b_truncated_stacks(b, src, trunc, c->err));
  if (p->default_sample_type)
    TRY(meta_strx(c, src, PPROF_META_DEFAULT_SAMPLE_TYPE, p->default_sample_type));
  if (p->doc_url) TRY(meta_strx(c, src, PPROF_META_DOC_URL, p->doc_url));
  /* a profile written with a -diff_base base in it (pprof -proto, pcol
   * unpack --diff-base) has samples labelled pprof::base=true, which
   * pprof's total counts alone: the indices of its strings, for add_samples
   * to see whether a label's key and value are they (rd16a F3: only the
   * first "true" was, and a base sample labelled with another counted +1) */
  int any_key = 0;
  for (size_t i = 1; i < p->n_string_table; i++) {
    const pstring *d = &p->string_table[i];
    uint8_t m = d->len == sizeof PCOL_DIFF_BASE_KEY - 1 && !memcmp(d->data, PCOL_DIFF_BASE_KEY, d->len) ? BASE_KEY
                : d->len == 4 && !memcmp(d->data, "true", 4)                                          ? BASE_TRUE
                                                                                                      : 0;
    if (m && !c->base_strs && !(c->base_strs = calloc(p->n_string_table, 1)))
      return pcol_error_set(c->err, PCOL_ENOMEM, "%s: out of memory", c->name);
    if (m) c->base_strs[i] = m;
    any_key |= m == BASE_KEY;
  }
  if (!any_key) { /* (no base sample: no map) */
    free(c->base_strs);
    c->base_strs = NULL;
  }

  size_t nvt = p->n_sample_type;
  pcol_value_row *vals = calloc(nvt ? nvt : 1, sizeof *vals);
  if (!vals) return pcol_error_set(c->err, PCOL_ENOMEM, "%s: out of memory", c->name);
  int rc = PCOL_OK;
  for (size_t i = 0; i < nvt && !rc; i++) {
    uint32_t t, u;
    if (!(rc = sid(c, p->sample_type[i].type, &t)) && !(rc = sid(c, p->sample_type[i].unit, &u)) &&
        !(rc = pcol_b_value_type(b, t, u, &vals[i].value_type_id, c->err)))
      rc = pcol_b_source_value_type(b, src, vals[i].value_type_id, c->err);
  }
  pcol_sym_table sd;
  memset(&sd, 0, sizeof sd);
  if (!rc && c->sym && c->sym->mode == PCOL_SYMBOLIZE_LOCAL) rc = symbolize(c, &sd);
  pcol_mapping_row *mr = malloc((p->n_mapping + 1) * sizeof *mr);
  if (!mr && !rc) rc = bare(c, PCOL_ENOMEM);
  for (size_t i = 0; i < p->n_mapping && !rc; i++) {
    const pmapping *m = &p->mapping[i];
    pcol_mapping_row r = {m->memory_start, m->memory_limit, m->file_offset, 0, 0, 0};
    r.flags = (uint8_t)((m->has_functions ? PCOL_MAP_HAS_FUNCTIONS : 0) |
                        (m->has_filenames ? PCOL_MAP_HAS_FILENAMES : 0) |
                        (m->has_line_numbers ? PCOL_MAP_HAS_LINE_NUMBERS : 0) |
                        (m->has_inline_frames ? PCOL_MAP_HAS_INLINE_FRAMES : 0) |
                        (sd.map_flags ? sd.map_flags[i] : 0));
    if (!(rc = sid(c, m->filename, &r.filename)) && !(rc = sid(c, m->build_id, &r.build_id)) &&
        sd.map_file && sd.map_file[i])
      r.filename = sd.map_file[i];
    mr[i] = r;
  }
  /* rows of one key (two processes of one program): the one the samples
   * meet first is kept, as go's merge keeps it (read ahead: samples_reach) */
  int repeat = 0;
  uint64_t *reach = NULL;
  if (!rc) rc = pcol_b_mappings_repeat(b, mr, p->n_mapping, &repeat, c->err);
  if (!rc && repeat && !(reach = malloc((p->n_mapping + 1) * sizeof *reach))) rc = bare(c, PCOL_ENOMEM);
  if (!rc && repeat) rc = samples_reach(c, reach);
  if (!rc) rc = pcol_b_mappings_shared(b, mr, p->n_mapping, reach, c->map_ids, c->map_shift, c->err);
  free(reach);
  free(mr);
  for (size_t i = 0; i < p->n_function && !rc; i++) {
    const pfunction *fn = &p->function[i];
    pcol_function_row r = {0, 0, 0, fn->start_line};
    if (!(rc = sid(c, fn->name, &r.name)) && !(rc = sid(c, fn->system_name, &r.system_name)) &&
        !(rc = sid(c, fn->filename, &r.filename)) && c->sym &&
        c->sym->mode == PCOL_SYMBOLIZE_LOCAL) { /* pprof's Demangle */
      const pstring *n = &p->string_table[fn->name], *s = &p->string_table[fn->system_name];
      rc = pcol_sym_demangle(c->ss, b, n->len ? (const char *)n->data : "", n->len,
                             s->len ? (const char *)s->data : "", s->len, r.system_name, &r.name,
                             c->err);
    }
    if (!rc) rc = pcol_b_function(b, &r, &c->fn_ids[i], c->err);
  }
  if (!rc) { /* go tool pprof's prune, after its demangling (pprof_prune.c) */
    const pstring *d = &p->string_table[p->drop_frames], *k = &p->string_table[p->keep_frames];
    rc = pcol_pprof_prune_init(&c->pr, (pcol_str){(const char *)d->data, d->len},
                               (pcol_str){(const char *)k->data, k->len}, p->n_location, c->name, c->err);
  }
  pcol_buf lines = {0};
  for (size_t i = 0; i < p->n_location && !rc; i++) {
    const plocation *l = &p->location[i];
    uint32_t mi = map_ix(c, l->mapping_id);
    if (sd.loc_n && sd.loc_n[i]) { /* symbolized: the binary's chain */
      const pcol_line_row *sl = (const pcol_line_row *)(void *)sd.lines.data + sd.loc_first[i];
      size_t sn = sd.loc_n[i];
      if (c->pr.on && pcol_pprof_prune_location(&c->pr, b, i, sl, &sn)) {
        rc = bare(c, PCOL_ENOMEM);
        break;
      }
      rc = pcol_b_location(b, mi ? c->map_ids[mi - 1] : 0, mi ? l->address + c->map_shift[mi - 1] : l->address,
                           0, sl + (sd.loc_n[i] - sn), sn,
                           &c->loc_ids[i], c->err);
      continue;
    }
    lines.len = 0;
    if (pcol_buf_reserve(&lines, l->n_line * sizeof(pcol_line_row) + 1)) {
      pcol_sym_table_free(&sd);
      pcol_buf_free(&lines);
      free(vals);
      return bare(c, PCOL_ENOMEM);
    }
    pcol_line_row *lr = (pcol_line_row *)(void *)lines.data;
    for (size_t j = 0; j < l->n_line; j++) {
      const pline *pl = &p->line[l->line0 + j];
      lr[j].function_id = c->fn_ids[fn_ix(c, pl->function_id) - 1];
      lr[j].line = pl->line;
      lr[j].column = pl->column;
    }
    size_t nl = l->n_line;
    if (c->pr.on && pcol_pprof_prune_location(&c->pr, b, i, lr, &nl)) {
      rc = bare(c, PCOL_ENOMEM);
      break;
    }
    /* a missing mapping silently becomes "no mapping", as in google/pprof */
    rc = pcol_b_location(b, mi ? c->map_ids[mi - 1] : 0, mi ? l->address + c->map_shift[mi - 1] : l->address,
                         l->is_folded ? PCOL_LOC_IS_FOLDED : 0, lr + (l->n_line - nl), nl, &c->loc_ids[i],
                         c->err);
  }
  pcol_buf_free(&lines);
  pcol_sym_table_free(&sd);
  if (rc) {
    free(vals);
    TRY(rc);
  }
  rc = add_samples(c, src, vals, nvt);
  /* samples labelled pprof::base: a -diff_base's base, whose total pprof
   * counts alone (weights.c reads the source's meta); their weights are
   * signed as written (-1 each, add_samples): PCOL_BASE_SIGNED */
  if (!rc && c->base_labelled)
    rc = pcol_b_meta(b, src, PCOL_META_DIFF_BASE, PCOL_BASE_SIGNED, sizeof PCOL_BASE_SIGNED - 1, c->err);
  free(vals);
  return rc;
}

/* ---------------------------------------------------------- entry point */

enum { LEGACY_READ = 1 };

/* The first n bytes look like text (no control byte but whitespace, no
 * NUL): a legacy text profile may follow, which a profile.proto message
 * does not start as (its first field's tag and length bytes) */
static int text_head(const uint8_t *h, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((h[i] < 0x20 && !(h[i] >= '\t' && h[i] <= '\r')) || h[i] == 0x7f) return 0;
  return n > 0;
}

/* A legacy profile, told by its first bytes (inflated): the binary CPU
 * profile (gperftools, Java) as pprof's parseCPU tells it, read whole
 * under the input cap into b (pprof_legacy.c), or a text one (heap,
 * contention, thread, Go's count profiles, Java's: pprof_legacy_text.c)
 * when the head is text and go's rules recognize it: LEGACY_READ.  Else
 * the bytes read are given back (s->s reads them again): PCOL_OK. */
static int legacy(pcol_builder *b, psrc *s, pcol_error *err) {
  uint8_t h[40];
  size_t n = fread(h, 1, sizeof h, s->s);
  if (n < sizeof h && ferror(s->s)) return pcol_error_set(err, PCOL_EIO, "%s: read error", s->name);
  int cpu = pcol_pprof_legacy_cpu_header(h, n, NULL, NULL, NULL, NULL);
  if (!cpu && !text_head(h, n)) {
    if (!(s->peek = pcol_replay_stream(h, n, s->s)))
      return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", s->name);
    s->s = s->peek;
    return PCOL_OK;
  }
  pcol_buf d = {0};
  uint64_t cap = pcol_input_cap(s->opt);
  int rc = pcol_buf_append(&d, h, n) ? PCOL_ENOMEM : PCOL_OK;
  while (!rc) {
    if (pcol_buf_reserve(&d, (size_t)1 << 16)) {
      rc = PCOL_ENOMEM;
      break;
    }
    size_t k = fread(d.data + d.len, 1, d.cap - d.len, s->s);
    d.len += k;
    if (!s->kind && d.len > cap) {
      rc = pcol_decompressed_too_big(s->name, s->opt, cap, d.len, PCOL_COMP_NONE, err);
      break;
    }
    if (k == 0) {
      if (ferror(s->s)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", s->name);
      break;
    }
  }
  if (rc == PCOL_ENOMEM) pcol_error_set(err, rc, "%s: out of memory", s->name);
  if (!rc && !cpu) {
    rc = pcol_pprof_legacy_text(b, d.data, d.len, s->name, s->opt, err);
    if (rc == PCOL_PPROF_NOT_LEGACY_TEXT) { /* the protobuf reader's, from the start */
      rc = (s->peek = pcol_replay_stream(d.data, d.len, s->s)) ? PCOL_OK : PCOL_ENOMEM;
      pcol_buf_free(&d);
      if (rc) return pcol_error_set(err, rc, "%s: out of memory", s->name);
      s->s = s->peek;
      return PCOL_OK;
    }
  }
  /* the inflating stream's own failure (bad data, its cap) first */
  if (s->o) {
    int orc = pcol_instream_finish(s->o, rc, err);
    if (orc) rc = orc;
    pcol_instream_free(s->o);
    s->o = NULL;
  }
  if (!rc && cpu) rc = pcol_pprof_legacy_cpu(b, d.data, d.len, s->name, s->opt, err);
  pcol_buf_free(&d);
  return rc ? rc : LEGACY_READ;
}

int pcol_import_pprof(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  if (!b || !in) return pcol_error_set(err, PCOL_EINVAL, "pcol_import_pprof: NULL argument");
  if (!name) name = "<pprof>";
  psrc src = {in, opt, name, ftello(in), NULL, NULL, NULL, NULL, 0};
  pprof_spill spill; /* pass 1's Samples, when in cannot seek back */
  pprof_spill_init(&spill, name);
  if (src.start < 0) src.start = -1;
  int rc = src_open(&src, err);
  if (!rc) rc = legacy(b, &src, err);
  if (rc) return src_close(&src, rc == LEGACY_READ ? PCOL_OK : rc, err);
  int gz = src.kind != 0, srcerr = 0;
  feed fd;
  feed_init(&fd, &src, NULL);
  prof p;
  pcol_buf strs = {0};
  rc = pass1(&fd, name, gz, &p, &strs, &srcerr, src.start < 0 ? &spill : NULL, err);
  uint64_t n1 = feed_total(&fd);
  if (rc && !srcerr) {
    const char *kind = pcol_pprof_legacy_kind(fd.head, fd.nhead);
    if (kind) /* (a text one that go's rules recognize was read: legacy()) */
      rc = pcol_error_set(err, PCOL_EFORMAT,
                          "%s: %s in a form go tool pprof does not read either (\"unrecognized profile "
                          "format\": profile/legacy_profile.go's rules), not profile.proto",
                          name, kind);
  }
  /* a message that fit in the window whole (most files: under 1 MiB
   * inflated) is read once: pass 2 reads the window pass 1 left */
  pcol_input whole;
  memset(&whole, 0, sizeof whole);
  uint8_t *kept = NULL;
  if (!rc && fd.eof && fd.base == 0) {
    whole.data = kept = fd.buf;
    whole.len = fd.hi;
    fd.buf = NULL;
  }
  feed_free(&fd);
  rc = src_close(&src, rc, err);
  if (!rc && n1 == 0)
    rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: empty profile (%s stream inflates to 0 bytes)", name,
                        pcol_compression_name(src.kind));
  /* pass 2's samples: in the window, the input again, or the records pass
   * 1 kept of a pipe's (pprof_spill.c) */
  int spilled = 0;
  if (!rc && kept) {
    pprof_spill_free(&spill);
    feed_init(&fd, NULL, &whole);
  } else if (!rc && src.start < 0) {
    rc = pprof_spill_seal(&spill, err);
    feed_init(&fd, NULL, NULL);
    spilled = 1;
  } else if (!rc) {
    if (fseeko(in, src.start, SEEK_SET) != 0)
      rc = pcol_error_set(err, PCOL_EIO, "%s: cannot read the input a second time: %s", name,
                          strerror(errno));
    if (!rc) rc = src_open(&src, err);
    feed_init(&fd, &src, NULL);
    fd.slide = 1; /* pass 1 found it too large to hold whole */
  }
  if (rc) {
    prof_free(&p);
    pcol_buf_free(&strs);
    free(kept);
    rc = src_close(&src, rc, err);
    pprof_spill_free(&spill);
    return rc;
  }
  /* (no bytes at all when every string is empty: strs.data is NULL, found by fuzz_pprof) */
  for (size_t i = 0; i < p.n_string_table; i++)
    p.string_table[i].data = strs.data ? strs.data + p.string_table[i].off : (const uint8_t *)"";

  ctx c;
  memset(&c, 0, sizeof c);
  c.b = b;
  c.name = name;
  c.err = err;
  c.p = &p;
  c.fd = &fd;
  c.sp = spilled ? &spill : NULL;
  c.n1 = n1;
  c.gz = gz;
  c.sym = opt ? &opt->symbolize : NULL;
  c.sids = malloc((p.n_string_table ? p.n_string_table : 1) * sizeof *c.sids);
  c.map_ids = calloc(p.n_mapping + 1, sizeof *c.map_ids);
  c.loc_ids = calloc(p.n_location + 1, sizeof *c.loc_ids);
  c.fn_ids = calloc(p.n_function + 1, sizeof *c.fn_ids);
  c.map_shift = calloc(p.n_mapping + 1, sizeof *c.map_shift);
  if (!c.sids || !c.map_ids || !c.loc_ids || !c.fn_ids || !c.map_shift) {
    rc = pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
  } else {
    memset(c.sids, 0xff, (p.n_string_table ? p.n_string_table : 1) * sizeof *c.sids);
    rc = validate(&c);
    pcol_sym ss; /* --symbolize local: its warnings once the profile is built */
    if (!rc && c.sym && c.sym->mode == PCOL_SYMBOLIZE_LOCAL) {
      c.ss = &ss;
      if (pcol_sym_init(&ss, c.sym)) rc = pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
    }
    if (!rc) rc = build(&c);
    if (c.ss) {
      if (!rc) pcol_sym_warnings(&ss, name, err);
      pcol_sym_free(&ss);
    }
    if (!rc) pcol_pprof_prune_warn(&c.pr, name, err); /* (after the symbolizer's warning) */
  }
  pcol_pprof_prune_free(&c.pr);
  pcol_buf_free(&c.ix);
  idmap_free(&c.maps);
  idmap_free(&c.locs);
  idmap_free(&c.fns);
  free(c.sids);
  free(c.base_strs);
  free(c.map_ids);
  free(c.map_shift);
  free(c.loc_ids);
  free(c.fn_ids);
  prof_free(&p);
  pcol_buf_free(&strs);
  feed_free(&fd);
  free(kept);
  rc = src_close(&src, rc, err);
  pprof_spill_free(&spill);
  return rc;
}
