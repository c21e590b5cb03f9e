/* detect.c — format detection, the import dispatcher and pcol_open_any: the
 * one file of lib/convert that names every format. */
#include "convert.h"
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
  case PCOL_FMT_CLICKHOUSE: return "clickhouse";
  case PCOL_FMT_OTLP: return "otlp";
  case PCOL_FMT_UNKNOWN: break;
  }
  return "unknown";
}

pcol_format pcol_format_by_name(const char *name) {
  static const pcol_format all[] = {PCOL_FMT_PCOL, PCOL_FMT_RPROF, PCOL_FMT_PPROF,
                                    PCOL_FMT_PERUN, PCOL_FMT_COLLAPSED, PCOL_FMT_SPEEDSCOPE,
                                    PCOL_FMT_CLICKHOUSE, PCOL_FMT_OTLP};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (strcmp(name, pcol_format_name(all[i])) == 0) return all[i];
  if (strcmp(name, "folded") == 0) return PCOL_FMT_COLLAPSED;
  return PCOL_FMT_UNKNOWN;
}

static int starts(const uint8_t *p, size_t n, const char *s) {
  size_t l = strlen(s);
  return n >= l && memcmp(p, s, l) == 0;
}

/* How many first bytes detection reads (pcol_import_path). */
#define DETECT_HEAD 4096

/* p[0..e) (a line without its '\n') ends in " <count>": digits with at most
 * dots, an optional sign (collapsed_import.c's count token). */
static int ends_in_count(const uint8_t *p, size_t e) {
  if (e && p[e - 1] == '\r') e--;
  size_t k = e, digits = 0;
  while (k > 0 && (isdigit(p[k - 1]) || p[k - 1] == '.')) digits += isdigit(p[--k]) != 0;
  if (digits && k > 0 && (p[k - 1] == '-' || p[k - 1] == '+')) k--;
  return digits && k > 0 && p[k - 1] == ' ';
}

/* Text: no NUL and no control byte but tab and CR (UTF-8 is fine).  A
 * protobuf message's first kilobytes always hold small varints. */
static int looks_text_nl(const uint8_t *p, size_t n, int newlines) {
  for (size_t i = 0; i < n; i++)
    if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\r' && !(newlines && p[i] == '\n')) ||
        p[i] == 0x7f)
      return 0;
  return 1;
}
static int looks_text(const uint8_t *p, size_t n) { return looks_text_nl(p, n, 0); }

pcol_format pcol_detect_format(const void *head, size_t len) {
  const uint8_t *p = head;
  if (starts(p, len, PCOL_MAGIC)) return PCOL_FMT_PCOL;
  /* OTLP by its field structure (gzip inflated), before pprof and Perun */
  if (pcol_otlp_detect(p, len)) return PCOL_FMT_OTLP;
  if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b) return PCOL_FMT_PPROF;
  if (starts(p, len, "memory profiling: ") || starts(p, len, "GC profiling: ") ||
      starts(p, len, "line profiling: ") || starts(p, len, "sample.interval="))
    return PCOL_FMT_RPROF;
  size_t i = 0;
  while (i < len && isspace(p[i])) i++;
  if (i < len && p[i] == '{') return PCOL_FMT_PERUN;
  /* legacy (pre-protobuf) pprof, binary or text: the pprof importer
   * rejects it with a message that names the format (before collapsed:
   * "threadcreate profile: total 7" ends in a count) */
  if (pcol_pprof_legacy_kind(p, len)) return PCOL_FMT_PPROF;
  /* collapsed stacks: a text line ending in " <count>" (the head's first
   * line, or the whole head when it is text without a line end) */
  size_t e = 0;
  while (e < len && p[e] != '\n') e++;
  int one_line = e == len && looks_text(p, len);
  if (e > 0 && (e < len || one_line) && ends_in_count(p, e)) return PCOL_FMT_COLLAPSED;
  /* text without a line end in the whole head is never protobuf: a first
   * line longer than the head is a collapsed line with long frame names */
  if (one_line && len) return len >= DETECT_HEAD ? PCOL_FMT_COLLAPSED : PCOL_FMT_UNKNOWN;
  /* text (lines of printable bytes) is never a Profile: its fields carry
   * lengths and varints, bytes below 0x20, within the first few bytes */
  if (looks_text_nl(p, len, 1)) return PCOL_FMT_UNKNOWN;
  /* protobuf: a Profile starts with a length-delimited or varint field 1..15 */
  if (len >= 2) {
    uint8_t tag = p[0];
    unsigned field = tag >> 3, wt = tag & 7;
    if (field >= 1 && field <= 15 && (wt == 0 || wt == 2)) return PCOL_FMT_PPROF;
  }
  return PCOL_FMT_UNKNOWN;
}

/* ------------------------------------------------------ import a path */

/* An opened input and its first bytes (read to detect the format). */
typedef struct input {
  FILE *in;
  const char *path, *name; /* name: for messages ("<stdin>" for "-") */
  int is_stdin;
  uint8_t head[DETECT_HEAD];
  size_t n;
} input;

/* Opens path ("-": standard input) and reads its head. */
static int open_input(input *x, const char *path, pcol_error *err) {
  x->is_stdin = strcmp(path, "-") == 0;
  x->path = path;
  x->name = x->is_stdin ? "<stdin>" : path;
  x->in = x->is_stdin ? stdin : fopen(path, "rb");
  if (!x->in) return pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
  errno = 0;
  x->n = fread(x->head, 1, sizeof x->head, x->in);
  if (ferror(x->in)) { /* a directory opens, then fails to read: say so */
    int e = errno;
    if (!x->is_stdin) fclose(x->in);
    return pcol_error_set(err, PCOL_EIO, "%s: %s", x->name, e ? strerror(e) : "read error");
  }
  return PCOL_OK;
}

static void close_input(input *x) {
  if (!x->is_stdin) fclose(x->in);
}

/* A pcol file: opened (validated in full) and copied into the builder. */
static int import_pcol(pcol_builder *b, input *x, const pcol_import_options *opt,
                       pcol_error *err) {
  pcol_file *f = NULL;
  pcol_open_options oo = {0};
  oo.no_mmap = opt && opt->no_mmap;
  int rc;
  if (x->is_stdin) {
    /* a pcol file needs random access: read it whole, head first */
    FILE *s = pcol_replay_stream(x->head, x->n, x->in);
    rc = s ? pcol_open_stream(s, x->name, &oo, &f, err) : pcol_oom(err);
    if (s) fclose(s);
  } else {
    rc = pcol_open(x->path, &oo, &f, err);
  }
  if (!rc) rc = pcol_validate_full(f, err);
  if (!rc) rc = pcol_b_add_file(b, f, err);
  pcol_close(f);
  return rc;
}

/* Perun is walked in place: a regular file is mapped instead of read.
 * NOT_MAPPED when it cannot be (not a regular file, empty, mmap failed):
 * the caller reads it as a stream then. */
enum { NOT_MAPPED = 1 };
static int import_perun_mapped(pcol_builder *b, input *x, const pcol_import_options *opt,
                               pcol_error *err) {
  struct stat st;
  uint64_t cap = pcol_input_cap(opt);
  if (fstat(fileno(x->in), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
    return NOT_MAPPED;
  if ((uint64_t)st.st_size > cap || (uint64_t)st.st_size > SIZE_MAX)
    return pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes",
                          x->name, (unsigned long long)cap);
  void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(x->in), 0);
  if (m == MAP_FAILED) return NOT_MAPPED;
  int rc = pcol_import_perun_text(b, m, (size_t)st.st_size, x->name, err);
  munmap(m, (size_t)st.st_size);
  return rc;
}

/* Any other format: the importer reads a stream that replays the head and
 * then the rest of the input (so pipes work too). */
static int import_stream(pcol_builder *b, input *x, pcol_format fmt,
                         const pcol_import_options *opt, pcol_error *err) {
  FILE *s = pcol_replay_stream(x->head, x->n, x->in);
  if (!s) return pcol_oom(err);
  int rc;
  switch (fmt) {
  case PCOL_FMT_RPROF: rc = pcol_import_rprof(b, s, x->name, opt, err); break;
  case PCOL_FMT_PPROF: rc = pcol_import_pprof(b, s, x->name, opt, err); break;
  case PCOL_FMT_PERUN: rc = pcol_import_perun(b, s, x->name, opt, err); break;
  case PCOL_FMT_COLLAPSED: rc = pcol_import_collapsed(b, s, x->name, opt, err); break;
  case PCOL_FMT_OTLP: rc = pcol_import_otlp(b, s, x->name, opt, err); break;
  default:
    rc = pcol_error_set(err, PCOL_EFORMAT,
                        "%s: unrecognised input format (expected Rprof, pprof, Perun, "
                        "collapsed stacks, OTLP or pcol; use --from to name it)", x->name);
  }
  fclose(s);
  return rc;
}

int pcol_import_path(pcol_builder *b, const char *path, pcol_format fmt,
                     const pcol_import_options *opt, pcol_error *err) {
  input x;
  int rc = open_input(&x, path, err);
  if (rc) return rc;
  if (fmt == PCOL_FMT_UNKNOWN) fmt = pcol_detect_format(x.head, x.n);
  if (fmt == PCOL_FMT_PCOL) {
    rc = import_pcol(b, &x, opt, err);
  } else {
    rc = NOT_MAPPED;
    if (fmt == PCOL_FMT_PERUN && !x.is_stdin && !(opt && opt->no_mmap))
      rc = import_perun_mapped(b, &x, opt, err);
    if (rc == NOT_MAPPED) rc = import_stream(b, &x, fmt, opt, err);
  }
  close_input(&x);
  return rc;
}

/* ------------------------------------------------------ any input */
int pcol_open_any(const char *path, const pcol_open_options *opt, pcol_file **out,
                  pcol_error *err) {
  *out = NULL;
  if (strcmp(path, "-") != 0) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
    char head[PCOL_MAGIC_SIZE];
    size_t n = fread(head, 1, sizeof head, fp);
    fclose(fp);
    if (n == PCOL_MAGIC_SIZE && memcmp(head, PCOL_MAGIC, PCOL_MAGIC_SIZE) == 0)
      return pcol_open(path, opt, out, err); /* its messages name the path */
  }
  /* another format (or standard input): import into memory */
  pcol_builder *b = NULL;
  void *mem = NULL;
  size_t len = 0;
  pcol_import_options io = {0};
  int rc = pcol_builder_new(&b, err);
  if (!rc) rc = pcol_import_path(b, path, PCOL_FMT_UNKNOWN, &io, err);
  if (!rc) rc = pcol_builder_write_mem(b, NULL, &mem, &len, err);
  pcol_builder_free(b);
  if (!rc) rc = pcol_open_buffer(mem, len, opt, out, err);
  if (rc) {
    free(mem);
    return rc;
  }
  (*out)->owned = 1; /* pcol_close frees the copy */
  return PCOL_OK;
}

/* ------------------------------------------------------------ export */
int pcol_export(pcol_file *f, pcol_format fmt, const pcol_select *sel, FILE *out,
                const pcol_export_options *opt, pcol_error *err) {
  if (!f || !out) return pcol_error_set(err, PCOL_EINVAL, "pcol_export: NULL argument");
  switch (fmt) {
  case PCOL_FMT_RPROF: return pcol_export_rprof_opt(f, sel, out, opt, err);
  case PCOL_FMT_PPROF: return pcol_export_pprof_opt(f, sel, out, opt, err);
  case PCOL_FMT_PERUN: return pcol_export_perun_opt(f, sel, out, opt, err);
  case PCOL_FMT_COLLAPSED: return pcol_export_collapsed_opt(f, sel, out, opt, err);
  case PCOL_FMT_SPEEDSCOPE: return pcol_export_speedscope_opt(f, sel, out, opt, err);
  case PCOL_FMT_OTLP: return pcol_export_otlp_opt(f, sel, out, opt, err);
  case PCOL_FMT_CLICKHOUSE:
    return pcol_error_set(err, PCOL_EINVAL, "clickhouse writes one stream per table: "
                          "use pcol_export_clickhouse");
  default: break;
  }
  return pcol_error_set(err, PCOL_EINVAL, "cannot write format '%s'", pcol_format_name(fmt));
}
