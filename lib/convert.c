/* convert.c — format detection and the import dispatcher. */
#include "internal.h"
#include <errno.h>
#include <ctype.h>
#include <sys/mman.h>
#include <sys/stat.h>

const char *pcol_format_name(pcol_format f) {
  switch (f) {
  case PCOL_FMT_PCOL: return "pcol";
  case PCOL_FMT_RPROF: return "rprof";
  case PCOL_FMT_PPROF: return "pprof";
  case PCOL_FMT_PERUN: return "perun";
  case PCOL_FMT_COLLAPSED: return "collapsed";
  case PCOL_FMT_SPEEDSCOPE: return "speedscope";
  case PCOL_FMT_UNKNOWN: break;
  }
  return "unknown";
}

pcol_format pcol_format_by_name(const char *name) {
  static const pcol_format all[] = {PCOL_FMT_PCOL, PCOL_FMT_RPROF, PCOL_FMT_PPROF,
                                    PCOL_FMT_PERUN, PCOL_FMT_COLLAPSED, PCOL_FMT_SPEEDSCOPE};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (strcmp(name, pcol_format_name(all[i])) == 0) return all[i];
  if (strcmp(name, "folded") == 0) return PCOL_FMT_COLLAPSED;
  return PCOL_FMT_UNKNOWN;
}

static int starts(const uint8_t *p, size_t n, const char *s) {
  size_t l = strlen(s);
  return n >= l && memcmp(p, s, l) == 0;
}

pcol_format pcol_detect_format(const void *head, size_t len) {
  const uint8_t *p = head;
  if (starts(p, len, PCOL_MAGIC)) return PCOL_FMT_PCOL;
  if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b) return PCOL_FMT_PPROF;
  if (starts(p, len, "memory profiling: ") || starts(p, len, "GC profiling: ") ||
      starts(p, len, "line profiling: ") || starts(p, len, "sample.interval="))
    return PCOL_FMT_RPROF;
  size_t i = 0;
  while (i < len && isspace(p[i])) i++;
  if (i < len && p[i] == '{') return PCOL_FMT_PERUN;
  /* collapsed stacks: a text line ending in " <number>" */
  size_t e = 0;
  while (e < len && p[e] != '\n') e++;
  if (e > 0 && e < len) {
    size_t j = e;
    if (j && p[j - 1] == '\r') j--;
    size_t k = j;
    while (k > 0 && (isdigit(p[k - 1]) || p[k - 1] == '.')) k--;
    if (k < j && k > 0 && p[k - 1] == ' ') return PCOL_FMT_COLLAPSED;
  }
  /* legacy (pre-protobuf) pprof: binary CPU header words 0, 3 (64- or
   * 32-bit) or a text heap/contention header; the pprof importer rejects
   * them with a message that names the format */
  if (len >= 16 && pcol_rd32(p) == 0 &&
      (pcol_rd32(p + 4) == 3 || (pcol_rd32(p + 4) == 0 && pcol_rd64(p + 8) == 3)))
    return PCOL_FMT_PPROF;
  if (starts(p, len, "heap profile:") || starts(p, len, "--- contention"))
    return PCOL_FMT_PPROF;
  /* protobuf: a Profile starts with a length-delimited or varint field 1..15 */
  if (len >= 2) {
    uint8_t tag = p[0];
    unsigned field = tag >> 3, wt = tag & 7;
    if (field >= 1 && field <= 15 && (wt == 0 || wt == 2)) return PCOL_FMT_PPROF;
  }
  return PCOL_FMT_UNKNOWN;
}

int pcol_import_path(pcol_builder *b, const char *path, pcol_format fmt,
                     const pcol_import_options *opt, pcol_error *err) {
  int is_stdin = strcmp(path, "-") == 0;
  FILE *in = is_stdin ? stdin : fopen(path, "rb");
  if (!in) return pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
  const char *name = is_stdin ? "<stdin>" : path;
  int rc;
  /* Read the head to detect the format, then hand the importer a stream
   * that replays the head followed by the rest (works for pipes too). */
  uint8_t head[4096];
  size_t n = fread(head, 1, sizeof head, in);
  if (ferror(in)) {
    rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
    goto done;
  }
  if (fmt == PCOL_FMT_UNKNOWN) fmt = pcol_detect_format(head, n);
  if (fmt == PCOL_FMT_PCOL) {
    if (is_stdin) {
      /* slurp stdin: a pcol file needs random access */
      pcol_buf buf = {0};
      rc = pcol_buf_append(&buf, head, n);
      uint8_t tmp[65536];
      size_t m;
      while (!rc && (m = fread(tmp, 1, sizeof tmp, in)) > 0) rc = pcol_buf_append(&buf, tmp, m);
      pcol_file *f = NULL;
      if (!rc) rc = pcol_open_buffer(buf.data, buf.len, NULL, &f, err);
      if (!rc) rc = pcol_validate_full(f, err);
      if (!rc) rc = pcol_b_add_file(b, f, err);
      pcol_close(f);
      pcol_buf_free(&buf);
    } else {
      pcol_file *f = NULL;
      pcol_open_options oo = {0};
      oo.no_mmap = opt && opt->no_mmap;
      rc = pcol_open(path, &oo, &f, err);
      if (!rc) rc = pcol_validate_full(f, err);
      if (!rc) rc = pcol_b_add_file(b, f, err);
      pcol_close(f);
    }
    goto done;
  }
  if (fmt == PCOL_FMT_PERUN && !is_stdin && !(opt && opt->no_mmap)) {
    /* Perun is walked in place: map a regular file instead of reading it */
    struct stat st;
    uint64_t cap = pcol_input_cap(opt);
    if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      if ((uint64_t)st.st_size > cap || (uint64_t)st.st_size > SIZE_MAX) {
        rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                            (unsigned long long)cap);
        goto done;
      }
      void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(in), 0);
      if (m != MAP_FAILED) {
        rc = pcol_import_perun_text(b, m, (size_t)st.st_size, name, err);
        munmap(m, (size_t)st.st_size);
        goto done;
      }
    }
  }
  FILE *s = pcol_replay_stream(head, n, in);
  if (!s) {
    rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
    goto done;
  }
  switch (fmt) {
  case PCOL_FMT_RPROF: rc = pcol_import_rprof(b, s, name, opt, err); break;
  case PCOL_FMT_PPROF: rc = pcol_import_pprof(b, s, name, opt, err); break;
  case PCOL_FMT_PERUN: rc = pcol_import_perun(b, s, name, opt, err); break;
  case PCOL_FMT_COLLAPSED: rc = pcol_import_collapsed(b, s, name, opt, err); break;
  default:
    rc = pcol_error_set(err, PCOL_EFORMAT,
                        "%s: unrecognised input format (expected Rprof, pprof, Perun, "
                        "collapsed stacks or pcol; use --from to name it)", name);
  }
  fclose(s);
done:
  if (!is_stdin) fclose(in);
  return rc;
}

/* ---- a FILE* that yields a saved head, then the rest of another FILE* */
typedef struct replay {
  uint8_t head[4096];
  size_t n, pos;
  FILE *rest;
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
  replay *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  if (n > sizeof r->head) n = sizeof r->head;
  memcpy(r->head, head, n);
  r->n = n;
  r->rest = rest;
  cookie_io_functions_t io = {replay_read, NULL, NULL, replay_close};
  FILE *f = fopencookie(r, "r", io);
  if (!f) free(r);
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
