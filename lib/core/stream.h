/* stream.h — stream adapters for importers and the exporters' output budget
 * (stream.c).  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_STREAM_H
#define PCOL_CORE_STREAM_H

#include "pcol.h"
#include <stdio.h>

/* A stream that yields head[0..n) (copied: any n) and then the rest of
 * `rest`; closing it leaves rest open. */
FILE *pcol_replay_stream(const void *head, size_t n, FILE *rest);
/* A stream that reads `src` and appends every byte it gives to *t->copy
 * (read_all.h), until t->off is set: pass 1 of an input read twice that
 * cannot seek back keeps the bytes as they came (a .pb.gz stays
 * compressed), and pass 2 reads the copy.  Closing it leaves src open.  A
 * failed append ends the stream with a read error and leaves the append's
 * error in t->rc and t->err (the caller owns *t, which must outlive the
 * stream).  NULL: out of memory. */
struct pcol_input;
typedef struct pcol_tee {
  struct pcol_input *copy;
  const char *name;
  int off; /* pass bytes on without copying them */
  int rc;
  pcol_error err;
} pcol_tee;
FILE *pcol_tee_stream(FILE *src, pcol_tee *t);
/* A stream that ends after `cap` bytes of `in` (the caller owns *k, which
 * must outlive the stream); k->over is set when `in` had more.  Line readers
 * use it so that one endless line cannot be buffered past the input cap. */
typedef struct pcol_capped {
  FILE *in;
  uint64_t left;
  int over;
} pcol_capped;
FILE *pcol_capped_stream(pcol_capped *k, FILE *in, uint64_t cap);

/* A stream that writes what it is given to out as gzip (RFC 1952, zlib
 * level 6), how the JSON exports write a .gz (Firefox, V8): fclose ends
 * the gzip member (and leaves out open); *failed (the caller's, which must
 * outlive the stream) is set when compressing or a write to out failed.
 * NULL: out of memory. */
FILE *pcol_gzip_writer(FILE *out, int *failed);

/* THE budget rule of every exporter (doc/safety.md, "Resource bounds"):
 * bytes written, and bytes of output held in memory at once (rendered text,
 * JSON trees, id lists), are each at most B =
 * pcol_export_options.max_output_bytes, or by default
 * max(PCOL_EXPORT_BUDGET_MIN, PCOL_EXPORT_BUDGET_PER_BYTE x pcol_input_bytes: the bytes the user gave).
 * An exporter opens a budget on its output stream and writes to b->fp, a
 * stream that counts bytes and refuses the write that would pass B; memory
 * it holds for output goes through pcol_budget_hold/release.  stream.c */
/* The least the exporters of samples (Perun, otlp, Firefox) may hold by
 * default, past B: what they hold follows the data's groups, not what they
 * have written (a Perun layout 3 type's events as one JSON value, otlp's
 * stack table, a Firefox thread's tables), and a zstd file of a million
 * real samples is under 1 MB (B = 32 MiB).  None of them holds a sample.
 * fold and the other holders keep B. */
#define PCOL_EXPORT_HOLD_MIN ((uint64_t)512 << 20)

typedef struct pcol_budget {
  uint64_t limit;        /* B, bytes (written; held) */
  uint64_t written, held;
  uint64_t file_size, lines; /* for messages: the file's size, lines allowed */
  uint64_t hold_floor;   /* held bytes allowed by default even past B (exporters of samples) */
  int custom;            /* B came from max_output_bytes */
  int over;              /* a write was refused: it would have passed B */
  int werrno;            /* errno of the first failed write to out (ENOSPC...) */
  const char *what;      /* "collapsed export" */
  FILE *out;             /* the caller's stream */
  FILE *fp;              /* the counting stream in front of it: write here */
} pcol_budget;

/* B for an export of f under opt (NULL: the default). */
uint64_t pcol_export_budget(const pcol_file *f, const pcol_export_options *opt);
/* Starts an export to out: b->fp is the stream to write to. */
int pcol_budget_open(pcol_budget *b, const pcol_file *f, const pcol_export_options *opt,
                     const char *what, FILE *out, pcol_error *err);
/* Rprof writes a sample once per unit of weight: with the default budget,
 * each such line may add PCOL_EXPORT_BUDGET_PER_LINE bytes to B. */
void pcol_budget_allow_lines(pcol_budget *b, uint64_t lines);
/* Holds n more bytes of output in memory: PCOL_OK, or PCOL_EBUDGET with a
 * message that names the budget and how to raise it. */
int pcol_budget_hold(pcol_budget *b, uint64_t n, pcol_error *err);

static inline void pcol_budget_release(pcol_budget *b, uint64_t n) {
  b->held = n < b->held ? b->held - n : 0;
}
/* The bytes written so far would pass B with n more (a cheap check before
 * writing something of known size)... */
static inline int pcol_budget_exceeded(const pcol_budget *b, uint64_t n) {
  return b->over || n > b->limit - b->written; /* written <= limit always */
}
/* ...and then: refuses the output (PCOL_EBUDGET, with the message). */
int pcol_budget_refuse(pcol_budget *b, pcol_error *err);
/* Ends the export whose result so far is rc: flushes and closes b->fp,
 * flushes out.  A write refused by the budget turns rc into PCOL_EBUDGET
 * (with the message); a failed flush into PCOL_EIO.  Returns the result. */
int pcol_budget_close(pcol_budget *b, int rc, pcol_error *err);

/* The output of a JSON export that writes a .gz unless opt->no_gzip
 * (Firefox, V8): the budget's counting stream (bud.fp, write there) in
 * front of a gzip writer (pcol_gzip_writer) in front of out, so that B
 * bounds the uncompressed bytes.  The struct must stay where it is while
 * open (the streams point into it). */
typedef struct pcol_gz_export {
  pcol_budget bud;
  FILE *gz;      /* the gzip stream, NULL without gzip */
  int gz_failed; /* pcol_gzip_writer's *failed */
} pcol_gz_export;
/* Opens it (what: "v8 export", for messages): PCOL_OK, or the budget's
 * error, or out of memory; nothing is left open on failure. */
int pcol_gz_export_open(pcol_gz_export *g, const pcol_file *f, const pcol_export_options *opt,
                        const char *what, FILE *out, pcol_error *err);
/* Ends the export whose result so far is rc: pcol_budget_close, then the
 * gzip member's end; a failed compression or write to out turns an rc of
 * 0 into PCOL_EIO ("write error").  Returns the result. */
int pcol_gz_export_close(pcol_gz_export *g, int rc, pcol_error *err);

#endif
