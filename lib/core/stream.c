/* stream.c — FILE* adapters for importers: replay a saved head, keep a copy of a stream, cap a stream. */
#include "pcol.h"
#include "error.h"    /* pcol_oom, pcol_write_error */
#include "stream.h"   /* pcol_budget, pcol_budget_hold, pcol_capped, ... */
#include "read_all.h" /* pcol_input_append */
#include <errno.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a FILE* that writes gzip to another (the .gz of the JSON exports) */
typedef struct gzs {
  FILE *out;
  int *failed;
  z_stream zs;
} gzs;

static ssize_t gz_write(void *c, const char *p, size_t n) {
  gzs *g = c;
  uint8_t buf[16384];
  g->zs.next_in = (Bytef *)p;
  g->zs.avail_in = (uInt)n;
  while (g->zs.avail_in) {
    g->zs.next_out = buf;
    g->zs.avail_out = sizeof buf;
    if (deflate(&g->zs, Z_NO_FLUSH) == Z_STREAM_ERROR) return *g->failed = 1, -1;
    size_t k = sizeof buf - g->zs.avail_out;
    if (k && fwrite(buf, 1, k, g->out) != k) return *g->failed = 1, -1;
  }
  return (ssize_t)n;
}

static int gz_close(void *c) {
  gzs *g = c;
  uint8_t buf[16384];
  int zr;
  do {
    g->zs.next_out = buf;
    g->zs.avail_out = sizeof buf;
    zr = deflate(&g->zs, Z_FINISH);
    size_t k = sizeof buf - g->zs.avail_out;
    if (k && fwrite(buf, 1, k, g->out) != k) *g->failed = 1;
  } while (zr == Z_OK);
  if (zr != Z_STREAM_END) *g->failed = 1;
  deflateEnd(&g->zs);
  int bad = *g->failed;
  free(g);
  return bad ? -1 : 0;
}

FILE *pcol_gzip_writer(FILE *out, int *failed) {
  *failed = 0;
  gzs *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->out = out;
  g->failed = failed;
  if (deflateInit2(&g->zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    free(g);
    return NULL;
  }
  cookie_io_functions_t iof = {NULL, gz_write, NULL, gz_close};
  FILE *s = fopencookie(g, "w", iof);
  if (!s) {
    deflateEnd(&g->zs);
    free(g);
  }
  return s;
}

/* ---- a FILE* that yields a saved head, then the rest of another FILE* */
typedef struct replay {
  size_t n, pos;
  FILE *rest;
  uint8_t head[]; /* n bytes */
} replay;

static ssize_t replay_read(void *c, char *buf, size_t size) {
  replay *r = c;
  if (r->pos < r->n) {
    size_t k = r->n - r->pos < size ? r->n - r->pos : size;
    memcpy(buf, r->head + r->pos, k);
    r->pos += k;
    return (ssize_t)k;
  }
  size_t k = fread(buf, 1, size, r->rest);
  if (k == 0 && ferror(r->rest)) return -1;
  return (ssize_t)k;
}
static int replay_close(void *c) {
  free(c);
  return 0;
}

FILE *pcol_replay_stream(const void *head, size_t n, FILE *rest) {
  replay *r = n <= SIZE_MAX - sizeof *r ? calloc(1, sizeof *r + n) : NULL;
  if (!r) return NULL;
  if (n) memcpy(r->head, head, n);
  r->n = n;
  r->rest = rest;
  cookie_io_functions_t io = {replay_read, NULL, NULL, replay_close};
  FILE *f = fopencookie(r, "r", io);
  if (!f) free(r);
  return f;
}

/* ---- a FILE* that reads another and keeps a copy of what it gave */
typedef struct tee {
  FILE *src;
  pcol_tee *t;
} tee;

static ssize_t tee_read(void *c, char *buf, size_t size) {
  tee *e = c;
  if (e->t->rc) return -1;
  size_t k = fread(buf, 1, size, e->src);
  if (k == 0 && ferror(e->src)) return -1;
  if (k && !e->t->off && (e->t->rc = pcol_input_append(e->t->copy, buf, k, e->t->name, &e->t->err))) return -1;
  return (ssize_t)k;
}
static int tee_close(void *c) {
  free(c);
  return 0;
}

FILE *pcol_tee_stream(FILE *src, pcol_tee *t) {
  tee *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->src = src;
  e->t = t;
  cookie_io_functions_t io = {tee_read, NULL, NULL, tee_close};
  FILE *f = fopencookie(e, "r", io);
  if (!f) free(e);
  return f;
}

/* ---- a FILE* that ends after `cap` bytes of another, noting if there was more */
static ssize_t capped_read(void *c, char *buf, size_t size) {
  pcol_capped *k = c;
  if (size == 0) return 0;
  if (k->left == 0) {
    /* one more byte tells an input of exactly the cap from a longer one */
    if (!k->over && fgetc(k->in) != EOF) k->over = 1;
    return 0;
  }
  if (size > k->left) size = (size_t)k->left;
  size_t n = fread(buf, 1, size, k->in);
  k->left -= n;
  if (n == 0 && ferror(k->in)) return -1;
  return (ssize_t)n;
}

FILE *pcol_capped_stream(pcol_capped *k, FILE *in, uint64_t cap) {
  k->in = in;
  k->left = cap;
  k->over = 0;
  cookie_io_functions_t io = {capped_read, NULL, NULL, NULL};
  return fopencookie(k, "r", io);
}

/* ---- the export budget (stream.h): a FILE* that counts what it passes on */
uint64_t pcol_output_budget(uint64_t size, uint64_t max_output_bytes) {
  if (max_output_bytes) return max_output_bytes;
  uint64_t b = size > UINT64_MAX / PCOL_EXPORT_BUDGET_PER_BYTE ? UINT64_MAX
                                                              : size * PCOL_EXPORT_BUDGET_PER_BYTE;
  b = b > PCOL_EXPORT_BUDGET_MIN ? b : PCOL_EXPORT_BUDGET_MIN;
  return b < PCOL_INPUT_CAP_MAX ? b : PCOL_INPUT_CAP_MAX; /* a default export reads back */
}

uint64_t pcol_export_budget(const pcol_file *f, const pcol_export_options *opt) {
  return pcol_output_budget(f ? pcol_input_bytes(f) : 0, opt ? opt->max_output_bytes : 0);
}

/* The one message past a budget; how: how B was set. */
static int budget_message(pcol_error *err, const char *what, const char *doing, uint64_t budget,
                          const char *how) {
  return pcol_error_set(err, PCOL_EBUDGET,
                        "%s: %s the output budget of %llu bytes (%s); raise it with "
                        "--max-output BYTES (pcol_export_options.max_output_bytes)",
                        what, doing, (unsigned long long)budget, how);
}

int pcol_output_budget_error(pcol_error *err, const char *what, const char *doing, uint64_t budget,
                             uint64_t size, int custom) {
  char how[96];
  if (custom)
    snprintf(how, sizeof how, "set by --max-output / max_output_bytes");
  else
    snprintf(how, sizeof how, "%d x the input's %llu bytes, at least %llu MiB",
             PCOL_EXPORT_BUDGET_PER_BYTE, (unsigned long long)size,
             (unsigned long long)(PCOL_EXPORT_BUDGET_MIN >> 20));
  return budget_message(err, what, doing, budget, how);
}

static ssize_t budget_write(void *c, const char *buf, size_t size) {
  pcol_budget *b = c;
  if (size > b->limit - b->written) { /* written <= limit always */
    /* the whole lines that fit pass on: a text export to standard output
     * (fold) then ends at its last whole line within B (review 14 F3;
     * the CLI's stream behind it holds back an unfinished one) */
    const char *nl = b->over || b->written == b->limit ? NULL : memrchr(buf, '\n', (size_t)(b->limit - b->written));
    size_t k = nl ? (size_t)(nl + 1 - buf) : 0;
    if (k && fwrite(buf, 1, k, b->out) == k) b->written += k;
    b->over = 1;
    return 0; /* the stream's error flag is set: every later write fails too */
  }
  if (size && fwrite(buf, 1, size, b->out) != size) {
    if (!b->werrno) b->werrno = errno;
    return 0;
  }
  b->written += size;
  return (ssize_t)size;
}

int pcol_budget_open(pcol_budget *b, const pcol_file *f, const pcol_export_options *opt,
                     const char *what, FILE *out, pcol_error *err) {
  memset(b, 0, sizeof *b);
  b->limit = pcol_export_budget(f, opt);
  b->custom = opt && opt->max_output_bytes;
  b->file_size = f ? pcol_input_bytes(f) : 0;
  b->what = what;
  b->out = out;
  if (!out) return pcol_error_set(err, PCOL_EINVAL, "%s: no output stream", what);
  cookie_io_functions_t io = {NULL, budget_write, NULL, NULL};
  b->fp = fopencookie(b, "w", io);
  return b->fp ? PCOL_OK : pcol_oom(err);
}

void pcol_budget_allow_lines(pcol_budget *b, uint64_t lines) {
  if (b->custom) return; /* an explicit budget is the whole budget */
  b->lines += lines;
  uint64_t extra = lines > UINT64_MAX / PCOL_EXPORT_BUDGET_PER_LINE ? UINT64_MAX
                                                                   : lines * PCOL_EXPORT_BUDGET_PER_LINE;
  b->limit = extra > UINT64_MAX - b->limit ? UINT64_MAX : b->limit + extra;
  if (b->limit > PCOL_INPUT_CAP_MAX) b->limit = PCOL_INPUT_CAP_MAX; /* a default export reads back */
}

/* "the export budget of N bytes (how it was set); raise it with ..." */
static int budget_fail(const pcol_budget *b, const char *doing, pcol_error *err) {
  if (b->custom || !b->lines)
    return pcol_output_budget_error(err, b->what, doing, b->limit, b->file_size, b->custom);
  char how[160];
  if (b->custom)
    snprintf(how, sizeof how, "set by --max-output / max_output_bytes");
  else if (b->lines)
    snprintf(how, sizeof how, "%d x the input's %llu bytes, at least %llu MiB, plus %d per line for "
             "%llu lines of weight, at most %llu GiB, what pcol pack reads by default",
             PCOL_EXPORT_BUDGET_PER_BYTE, (unsigned long long)b->file_size,
             (unsigned long long)(PCOL_EXPORT_BUDGET_MIN >> 20), PCOL_EXPORT_BUDGET_PER_LINE,
             (unsigned long long)b->lines, (unsigned long long)(PCOL_INPUT_CAP_MAX >> 30));
  else
    snprintf(how, sizeof how, "%d x the input's %llu bytes, at least %llu MiB, at most %llu GiB",
             PCOL_EXPORT_BUDGET_PER_BYTE, (unsigned long long)b->file_size,
             (unsigned long long)(PCOL_EXPORT_BUDGET_MIN >> 20), (unsigned long long)(PCOL_INPUT_CAP_MAX >> 30));
  return budget_message(err, b->what, doing, b->limit, how);
}

/* What an export may hold in memory by default: the output budget B, but
 * for the exporters of samples (b->hold_floor, set by them to
 * PCOL_EXPORT_HOLD_MIN, stream.h) at least that.  A --max-output above the
 * floor raises it. */

int pcol_budget_hold(pcol_budget *b, uint64_t n, pcol_error *err) {
  uint64_t cap = b->limit >= b->hold_floor ? b->limit : b->hold_floor; /* also under --max-output: it bounds the output */
  if (b->held > cap || n > cap - b->held) {
    if (cap == b->limit) return budget_fail(b, "would hold more output in memory than", err);
    return pcol_error_set(err, PCOL_EBUDGET,
                          "%s: would hold more than %llu MiB in memory (the least an export may hold; "
                          "the output budget is %llu bytes); raise it with --max-output BYTES "
                          "(pcol_export_options.max_output_bytes)",
                          b->what, (unsigned long long)(cap >> 20), (unsigned long long)b->limit);
  }
  b->held += n;
  return PCOL_OK;
}

int pcol_budget_refuse(pcol_budget *b, pcol_error *err) {
  /* what was written before passes on as far as it fits (budget_write:
   * whole lines), not dropped with the buffer: a text export to standard
   * output ends at its last whole line within B */
  if (b->fp && !b->over) fflush(b->fp); /* (a refusal or failure there: over or werrno says) */
  b->over = 1;
  return budget_fail(b, "the output would be larger than", err);
}

int pcol_budget_close(pcol_budget *b, int rc, pcol_error *err) {
  if (b->fp) {
    int bad = fflush(b->fp) != 0;
    bad |= fclose(b->fp) != 0;
    b->fp = NULL;
    bad |= fflush(b->out) != 0;
    if (b->over) return budget_fail(b, "the output would be larger than", err);
    if (!rc && bad) rc = pcol_write_error(err, b->werrno, b->what);
  }
  return rc;
}

int pcol_gz_export_open(pcol_gz_export *g, const pcol_file *f, const pcol_export_options *opt,
                        const char *what, FILE *out, pcol_error *err) {
  FILE *dst = out;
  g->gz = NULL;
  g->gz_failed = 0;
  if (!(opt && opt->no_gzip) && !(dst = g->gz = pcol_gzip_writer(out, &g->gz_failed))) return pcol_oom(err);
  int rc = pcol_budget_open(&g->bud, f, opt, what, dst, err);
  if (rc && g->gz) {
    fclose(g->gz);
    g->gz = NULL;
  }
  return rc;
}

int pcol_gz_export_close(pcol_gz_export *g, int rc, pcol_error *err) {
  rc = pcol_budget_close(&g->bud, rc, err);
  if (g->gz) {
    int c = fclose(g->gz);
    g->gz = NULL;
    if (!rc && (c || g->gz_failed)) rc = pcol_error_set(err, PCOL_EIO, "write error");
  }
  return rc;
}
