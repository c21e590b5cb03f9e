/* collapsed_import.c — collapsed ("folded") stacks into a builder:
 * `root;...;leaf COUNT`, one sample per line.
 *
 * Time NA, stack = the ';'-separated frames (frame-kind suffixes such as
 * `_[k]` stay part of the function name).
 * Counts: an integer is the sample's weight; a decimal count is kept exactly
 * (to 9 decimals) as value ("count", "1e-9") = count x 10^9, with the weight
 * its rounded value.  A differential file (two counts per line, decided by
 * the first line) stores ("count_before", u) and ("count_after", u), u =
 * "count" when both are integers, else "1e-9" (scaled as above); the weight
 * is the "after" count.  A line whose canonical rendering differs (tabs,
 * "+5", "1.50") keeps its text in sample_text.  doc/mappings.md §4.1 (collapsed
 * section). */
#include "collapsed.h"
#include "convert.h"  /* pcol_import_collapsed_as */
#include "keys.h"     /* COLLAPSED_UNIT_NANO, COLLAPSED_UNIT_COUNT, COLLAPSED_VT_AFTER, ... */
#include "error.h"    /* pcol_error_in, pcol_oom */
#include "buf.h"      /* pcol_buf_append, PCOL_GROW, pcol_buf, ... */
#include "instream.h" /* pcol_input_cap */
#include "stream.h"   /* pcol_capped, pcol_capped_stream, pcol_replay_stream */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include "count.h"    /* pcol_rounded_text */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  uint32_t vt[6]; /* count/1e-9, before/count, after/count, before/1e-9, after/1e-9 */
  uint32_t *locs;
  size_t nlocs, caplocs;
  /* the last line's stack text, where each of its frames ends and the
   * location each named: a line repeats most of the one before (a sorted
   * file: flamegraph's stackcollapse writes them so), and a frame it
   * repeats takes that location without three lookups of its name */
  pcol_buf prev;
  size_t *pend;
  size_t cappend;
  pcol_stack_memo memo; /* the same for the stack's nodes */
  /* first line with a decimal count, first with an integer count too large
   * for nano-units (> 9223372036): never both in one file (views add every
   * count of a file with decimals in nano-units) */
  uint64_t dec_line, big_line;
  /* counts with more than 9 decimals, rounded to the 9th (the first's
   * line), those of them that rounded to 0 (a sample no view or export
   * shows), and what the rounding took off their sum */
  uint64_t fine, fine_zero, fine_line;
  long double fine_lost;
} cimp;

static int beyond_nano(int is_int, int64_t v) {
  return is_int && (v > INT64_MAX / NANO_I || v < -(INT64_MAX / NANO_I));
}

/* A count token: digits with at most one '.', optional leading '-'/'+'.
 * *nano = value x 1e9 rounded half away from zero at the 9th decimal;
 * *lost (may be NULL) = value - *nano / 1e9, what that rounding took off
 * (0 for 9 decimals or fewer). */
static int parse_count(const char *s, size_t n, int *is_int, int64_t *ival, int64_t *nano, long double *lost) {
  size_t i = 0;
  int neg = 0;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  unsigned __int128 ip = 0, fp = 0;
  int digits = 0, fd = 0, dot = 0, round_up = 0;
  long double tail = 0, scale = 1e-9L; /* the digits past the 9th decimal, as a fraction of 1 */
  for (; i < n; i++) {
    if (s[i] >= '0' && s[i] <= '9') {
      digits++;
      if (!dot) {
        ip = ip * 10 + (unsigned)(s[i] - '0');
        if (ip > (unsigned __int128)INT64_MAX) return -1;
      } else if (fd < 9) {
        fp = fp * 10 + (unsigned)(s[i] - '0');
        fd++;
      } else {
        if (fd == 9) round_up = s[i] >= '5';
        scale /= 10;
        tail += (s[i] - '0') * scale;
        fd++;
      }
    } else if (s[i] == '.' && !dot) {
      dot = 1;
    } else {
      return -1;
    }
  }
  if (!digits) return -1;
  *is_int = !dot;
  *ival = neg ? -(int64_t)ip : (int64_t)ip;
  for (int k = fd; k < 9; k++) fp *= 10;
  unsigned __int128 v = ip * NANO_I + fp + (unsigned)round_up;
  if (v > (unsigned __int128)INT64_MAX) {
    if (dot) return -1;
    v = INT64_MAX; /* integer counts beyond 9.2e9 only lose their nano form */
  }
  *nano = neg ? -(int64_t)v : (int64_t)v;
  if (lost) *lost = (neg ? -1 : 1) * (tail - (round_up ? 1e-9L : 0));
  return 0;
}


static int vt_get(cimp *c, int which, uint32_t *out) {
  static const char *const names[][2] = {
      {COLLAPSED_VT_COUNT, COLLAPSED_UNIT_NANO},  {COLLAPSED_VT_BEFORE, COLLAPSED_UNIT_COUNT},
      {COLLAPSED_VT_AFTER, COLLAPSED_UNIT_COUNT}, {COLLAPSED_VT_BEFORE, COLLAPSED_UNIT_NANO},
      {COLLAPSED_VT_AFTER, COLLAPSED_UNIT_NANO}};
  if (!c->vt[which]) {
    uint32_t t, u;
    PCOL_RETURN_NOT_OK(pcol_b_cstr(c->b, names[which][0], &t, c->err));
    PCOL_RETURN_NOT_OK(pcol_b_cstr(c->b, names[which][1], &u, c->err));
    PCOL_RETURN_NOT_OK(pcol_b_value_type(c->b, t, u, &c->vt[which], c->err));
    PCOL_RETURN_NOT_OK(pcol_b_source_value_type(c->b, c->src, c->vt[which], c->err));
  }
  *out = c->vt[which];
  return PCOL_OK;
}

static int64_t round_nano(int64_t nano) {
  int64_t q = nano / NANO_I, r = nano % NANO_I;
  if (r >= NANO_I / 2) q++;
  else if (r <= -NANO_I / 2) q--;
  return q;
}

static int frame_stack(cimp *c, const char *s, size_t n, uint32_t *stack) {
  *stack = 0;
  if (n == 0) return PCOL_OK;
  /* the bytes this line shares with the last one's stack: a frame of it
   * that ends there, where the last line's frame of that place ended, is
   * that frame (c->locs still holds its location, root first) */
  const char *ps = (const char *)c->prev.data;
  size_t pn = c->prev.len, same = 0, nprev = c->nlocs;
  while (same < n && same < pn && s[same] == ps[same]) same++;
  c->nlocs = 0;
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && s[i] != ';') continue;
    size_t k = c->nlocs;
    if (k < nprev && i <= same && c->pend[k] == i) { /* (k < nprev: pend has it) */
      c->nlocs++;
      start = i + 1;
      continue;
    }
    nprev = 0; /* the frames after a changed one are looked up */
    pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
    pcol_line_row l = {0, PCOL_NA_I64, PCOL_NA_I64};
    uint32_t loc;
    PCOL_RETURN_NOT_OK(pcol_b_string(c->b, s + start, i - start, &fn.name, c->err));
    PCOL_RETURN_NOT_OK(pcol_b_function(c->b, &fn, &l.function_id, c->err));
    PCOL_RETURN_NOT_OK(pcol_b_location(c->b, 0, 0, 0, &l, 1, &loc, c->err));
    if (PCOL_GROW(c->locs, k, c->caplocs) || PCOL_GROW(c->pend, k, c->cappend)) return pcol_oom(c->err);
    c->locs[k] = loc;
    c->pend[k] = i;
    c->nlocs++;
    start = i + 1;
  }
  c->prev.len = 0;
  if (pcol_buf_append(&c->prev, s, n)) return pcol_oom(c->err);
  /* root first in the text and in the memo, leaf first for the builder */
  if (PCOL_GROW(c->locs, 2 * c->nlocs - 1, c->caplocs)) return pcol_oom(c->err);
  uint32_t *leaf = c->locs + c->nlocs;
  for (size_t i = 0; i < c->nlocs; i++) leaf[i] = c->locs[c->nlocs - 1 - i];
  return pcol_b_stack_memo(c->b, &c->memo, leaf, c->nlocs, stack, c->err);
}

/* the last blank-separated token of s[0..n): its start, or n if none */
static size_t last_token(const char *s, size_t n) {
  size_t k = n;
  while (k > 0 && s[k - 1] != ' ' && s[k - 1] != '\t') k--;
  return k;
}

/* s[0..n) has a count's syntax ([-+]digits[.digits]), whatever its size:
 * a line whose last token has it is a line of counts (one out of range is
 * an error), one whose last token has not is an invalid line (skipped). */
static int count_syntax(const char *s, size_t n) {
  size_t i = n && (s[0] == '-' || s[0] == '+'), d = 0, dots = 0;
  for (; i < n; i++) {
    if (s[i] >= '0' && s[i] <= '9') d++;
    else if (s[i] == '.' && !dots) dots++;
    else return 0;
  }
  return d > 0;
}

static int is_number(const char *s, size_t n) {
  int a, ok;
  int64_t b, d;
  ok = n > 0 && parse_count(s, n, &a, &b, &d, NULL) == 0;
  return ok;
}

/* import_line's result for a line that is not "stack count" (a comment,
 * junk): skipped and counted, as speedscope and flamegraph.pl do */
#define LINE_SKIPPED 1

size_t pcol_collapsed_count_at(const char *s, size_t n) {
  size_t k = last_token(s, n);
  return k == 0 || k == n || !count_syntax(s + k, n - k) ? 0 : k;
}

static int import_line(cimp *c, char *line, size_t len, uint64_t lineno, int *mode) {
  size_t k = pcol_collapsed_count_at(line, len);
  if (!k) return LINE_SKIPPED;
  const char *t2 = line + k;
  size_t l2 = len - k, rest = k - 1;
  const char *t1 = NULL;
  size_t l1 = 0;
  if (*mode == 0) {
    size_t j = last_token(line, rest);
    *mode = j > 0 && j < rest && is_number(line + j, rest - j) ? 2 : 1;
  }
  if (*mode == 2) {
    size_t j = last_token(line, rest);
    if (j == 0 || j == rest || !is_number(line + j, rest - j))
      return pcol_error_set(c->err, PCOL_ECORRUPT,
                            "%s:%llu: expected 'stack count_before count_after' (the file is differential)",
                            c->name, (unsigned long long)lineno);
    t1 = line + j;
    l1 = rest - j;
    rest = j - 1;
  }
  int int1 = 1, int2;
  int64_t i1 = 0, n1 = 0, i2, n2;
  long double lost1 = 0, lost2 = 0;
  if (parse_count(t2, l2, &int2, &i2, &n2, &lost2) || (t1 && parse_count(t1, l1, &int1, &i1, &n1, &lost1)))
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s:%llu: count '%.*s' is out of range (at most "
                          "9223372036854775807, or 9223372036.854775807 with decimals)", c->name,
                          (unsigned long long)lineno, (int)(l2 > 40 ? 40 : l2), t2);
  /* more decimals than pcol keeps: said once the file is read (a count
   * below 0.0000000005 was 0 in every view and export, silently) */
  for (int j = 0; j < 2; j++) {
    long double lost = j ? lost1 : lost2;
    if (lost == 0) continue;
    if (!c->fine++) c->fine_line = lineno;
    c->fine_zero += (j ? n1 : n2) == 0;
    c->fine_lost += lost;
  }
  int dec_line = *mode == 1 ? !int2 : (!int1 || !int2);
  if (dec_line && !c->dec_line) c->dec_line = lineno;
  if ((beyond_nano(int1, i1) || beyond_nano(int2, i2)) && !c->big_line) c->big_line = lineno;
  if (c->dec_line && c->big_line)
    return pcol_error_set(c->err, PCOL_ECORRUPT,
                          "%s:%llu: counts beyond 9223372036 (line %llu) and counts with decimals (line %llu) "
                          "cannot be added up in one file (64 bits of 1e-9)", c->name,
                          (unsigned long long)lineno, (unsigned long long)c->big_line,
                          (unsigned long long)c->dec_line);
  pcol_sample_row s = {c->src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
  pcol_value_row v[2];
  size_t nv = 0;
  /* the builder's refusals (and a failed allocation) after the file's name
   * and the line's number, as the line's other errors */
#define AT_LINE(expr) PCOL_RETURN_NOT_OK(pcol_error_in(c->err, (expr), c->name, lineno))
  AT_LINE(frame_stack(c, line, rest, &s.stack_id));
  char canon[128];
  int cl;
  if (*mode == 1) {
    if (int2) {
      s.weight = i2;
      cl = snprintf(canon, sizeof canon, "%lld", (long long)i2);
    } else {
      s.weight = round_nano(n2);
      AT_LINE(vt_get(c, 0, &v[0].value_type_id));
      v[nv++].value = n2;
      cl = render_nano(canon, sizeof canon, n2);
    }
  } else {
    int dec = !int1 || !int2;
    s.weight = int2 ? i2 : round_nano(n2);
    AT_LINE(vt_get(c, dec ? 3 : 1, &v[0].value_type_id));
    AT_LINE(vt_get(c, dec ? 4 : 2, &v[1].value_type_id));
    v[0].value = dec ? n1 : i1;
    v[1].value = dec ? n2 : i2;
    nv = 2;
    char a[48], b[48];
    if (dec) render_nano(a, sizeof a, n1), render_nano(b, sizeof b, n2);
    else snprintf(a, sizeof a, "%lld", (long long)i1), snprintf(b, sizeof b, "%lld", (long long)i2);
    cl = snprintf(canon, sizeof canon, "%s %s", a, b);
  }
  uint32_t id;
  AT_LINE(pcol_b_sample(c->b, &s, v, nv, &id, c->err));
  /* the exporter writes rest + ' ' + canon; keep the line if that differs */
  size_t tail = len - rest - 1;
  if (line[rest] != ' ' || (size_t)cl != tail || memcmp(canon, line + rest + 1, tail))
    AT_LINE(pcol_b_sample_text(c->b, id, line, len, c->err));
#undef AT_LINE
  return PCOL_OK;
}

/* The byte order mark of the first n bytes h: 8 (UTF-8, 3 bytes), 16
 * (UTF-16LE), 17 (UTF-16BE), 0 none. */
static int utf_bom(const unsigned char *h, size_t n) {
  if (n >= 2 && ((h[0] == 0xff && h[1] == 0xfe) || (h[0] == 0xfe && h[1] == 0xff))) return h[0] == 0xff ? 16 : 17;
  if (n >= 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf) return 8;
  return 0;
}

/* Reads pre[0..npre) and the rest of `in` as UTF-16 (big-endian if be) into *out as UTF-8
 * (an unpaired surrogate becomes U+FFFD); at most cap bytes of output. */
static int utf16_to_utf8(FILE *in, int be, const unsigned char *pre, size_t npre, uint64_t cap, char **out,
                         size_t *outn, const char *name, pcol_error *err) {
  pcol_buf o = {0};
  int rc = PCOL_OK;
  unsigned hi = 0; /* a pending high surrogate */
  for (;;) {
    int a = npre ? (npre--, *pre++) : fgetc(in), b = a == EOF ? EOF : npre ? (npre--, *pre++) : fgetc(in);
    if (a == EOF || b == EOF) {
      if (ferror(in)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
      else if (a != EOF) rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: UTF-16 text with an odd number of bytes", name);
      break;
    }
    unsigned u = be ? (unsigned)a << 8 | (unsigned)b : (unsigned)b << 8 | (unsigned)a, cp;
    if (u >= 0xd800 && u < 0xdc00) {
      if (hi) cp = 0xfffd; /* two high surrogates: the first is unpaired */
      else { hi = u; continue; }
    } else if (u >= 0xdc00 && u < 0xe000) {
      cp = hi ? 0x10000 + ((hi - 0xd800) << 10) + (u - 0xdc00) : 0xfffd;
      hi = 0;
    } else {
      if (hi) { /* an unpaired high surrogate before this unit */
        static const char rep[] = "\xef\xbf\xbd";
        if (pcol_buf_append(&o, rep, 3)) { rc = pcol_oom(err); break; }
        hi = 0;
      }
      cp = u;
    }
    char e[4];
    size_t n;
    if (cp < 0x80) e[0] = (char)cp, n = 1;
    else if (cp < 0x800) e[0] = (char)(0xc0 | cp >> 6), e[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
    else if (cp < 0x10000)
      e[0] = (char)(0xe0 | cp >> 12), e[1] = (char)(0x80 | (cp >> 6 & 0x3f)), e[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
    else
      e[0] = (char)(0xf0 | cp >> 18), e[1] = (char)(0x80 | (cp >> 12 & 0x3f)),
      e[2] = (char)(0x80 | (cp >> 6 & 0x3f)), e[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
    if (o.len + n > cap) {
      rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                          (unsigned long long)cap);
      break;
    }
    if (pcol_buf_append(&o, e, n)) { rc = pcol_oom(err); break; }
  }
  if (rc) {
    pcol_buf_free(&o);
    return rc;
  }
  *out = (char *)o.data;
  *outn = o.len;
  return PCOL_OK;
}

int pcol_import_collapsed(pcol_builder *b, FILE *in, const char *name,
                          const pcol_import_options *opt, pcol_error *err) {
  return pcol_import_collapsed_as(b, in, name, opt, 0, err);
}

int pcol_import_collapsed_as(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                             int detected, pcol_error *err) {
  cimp c = {0};
  c.b = b;
  c.name = name;
  c.err = err;
  PCOL_RETURN_NOT_OK(pcol_error_in(err, pcol_b_source(b, PCOL_SRC_COLLAPSED, name, PCOL_NA_I64, &c.src, err), name, 0));
  uint64_t cap = pcol_input_cap(opt);
  /* UTF-16 with a BOM (what Windows tools write; speedscope reads it) is
   * read as its UTF-8; a UTF-8 BOM is dropped */
  FILE *utf8 = NULL;
  char *conv = NULL;
  unsigned char h[3];
  size_t hn = fread(h, 1, sizeof h, in);
  if (ferror(in)) return pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  int bom = utf_bom(h, hn);
  if (bom == 16 || bom == 17) {
    size_t cn = 0;
    int crc = utf16_to_utf8(in, bom == 17, h + 2, hn - 2, cap, &conv, &cn, name, err);
    if (crc) return crc;
    static char empty[1];
    utf8 = fmemopen(conv ? conv : empty, cn, "rb"); /* glibc >= 2.22: size 0 is an empty stream */
  } else { /* the bytes read, replayed (a UTF-8 BOM: dropped) */
    size_t skip = bom == 8 ? 3 : 0;
    utf8 = pcol_replay_stream(h + skip, hn - skip, in);
  }
  if (!utf8) {
    free(conv);
    return pcol_oom(err);
  }
  in = utf8;
  char *line = NULL;
  size_t lcap = 0;
  ssize_t n;
  uint64_t lineno = 0;
  int mode = 0, rc = PCOL_OK;
  uint64_t skipped = 0, first_skipped = 0, lineno_data = 0;
  uint64_t unended = 0; /* the line number of a last stack line with no line end */
  /* the cap applies inside a line too (getline would buffer it whole) */
  pcol_capped capped;
  FILE *in_capped = pcol_capped_stream(&capped, in, cap);
  if (!in_capped) return pcol_oom(err);
  in = in_capped;
  errno = 0;
  while ((n = getline(&line, &lcap, in)) >= 0) {
    lineno++;
    if (capped.over) break;
    size_t len = (size_t)n;
    if (len && line[len - 1] == '\n') len--;
    if (len && line[len - 1] == '\r') len--;
    size_t k = 0;
    while (k < len && (line[k] == ' ' || line[k] == '\t')) k++;
    if (k == len) continue; /* blank line */
    lineno_data++;
    if (memchr(line, 0, len)) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "%s:%llu: NUL byte in a line", name, (unsigned long long)lineno);
      break;
    }
    if ((rc = import_line(&c, line, len, lineno, &mode)) == LINE_SKIPPED) {
      if (!skipped++) first_skipped = lineno;
      rc = PCOL_OK;
    } else if (!rc) {
      unended = line[n - 1] == '\n' ? 0 : lineno; /* (only the last line can lack one) */
    }
    if (rc) break;
  }
  if (!rc && !capped.over && !ferror(in) && skipped && skipped == lineno_data)
    rc = pcol_error_set(err, PCOL_ECORRUPT, "%s:%llu: expected 'stack count' (no line of the file is one)",
                        name, (unsigned long long)first_skipped);
  /* detected, not named: a text whose lines are mostly something else (a
   * log whose one line ends in a number) is not taken for a few stacks of
   * junk; speedscope's own test file skips 3 lines of 8 */
  if (!rc && !capped.over && !ferror(in) && detected && skipped > lineno_data - skipped)
    rc = pcol_error_set(err, PCOL_EFORMAT, "%s: not collapsed stacks, it seems: %llu of its %llu lines are "
                        "not 'stack count' (the first: line %llu); `pcol pack --from collapsed FILE -o "
                        "OUT.pcol` reads the others, as flamegraph.pl would", name,
                        (unsigned long long)skipped, (unsigned long long)lineno_data,
                        (unsigned long long)first_skipped);
  if (!rc && capped.over)
    rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                        (unsigned long long)cap);
  if (!rc && ferror(in)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  /* success with a warning (pcol.h, pcol_import_collapsed) */
  /* a last line with no line end: a file cut while it was written may
   * have lost digits of its count (20000000 read as 20), which nothing else
   * can tell; flamegraph.pl reads it as it is, and so does pcol, but says so
   * (review 10 m2) */
  char cut[160] = "";
  if (!rc && unended)
    snprintf(cut, sizeof cut, "%sline %llu, the last, has no line end (a file cut while it was written?): "
             "its count is read as it stands", skipped ? "; " : "", (unsigned long long)unended);
  /* and counts of more decimals than pcol keeps (review 12 m2) */
  char fine[320] = "";
  if (!rc && c.fine) {
    char at[32];
    snprintf(at, sizeof at, "line %llu", (unsigned long long)c.fine_line);
    size_t o = skipped || unended ? 2 : 0;
    memcpy(fine, "; ", o);
    pcol_rounded_text(fine + o, sizeof fine - o, c.fine, "count with more than 9 decimals",
                      "counts with more than 9 decimals", at, "the 9th", c.fine_zero,
                      "a sample the views and the exports leave out, but the collapsed export's copy of its line",
                      c.fine_lost);
    rc = pcol_b_meta_str(b, c.src, PCOL_META_NOTE, fine + (skipped || unended ? 2 : 0), err);
  }
  if (!rc && skipped)
    pcol_error_set(err, PCOL_OK, "%s: skipped %llu line%s that %s not 'stack count' (the first: line %llu), "
                   "as speedscope and flamegraph.pl do%s%s", name, (unsigned long long)skipped,
                   skipped == 1 ? "" : "s", skipped == 1 ? "is" : "are", (unsigned long long)first_skipped, cut,
                   fine);
  else if (!rc && (unended || c.fine))
    pcol_error_set(err, PCOL_OK, "%s: %s%s", name, cut, fine);
  free(line);
  free(c.locs);
  free(c.pend);
  pcol_buf_free(&c.prev);
  pcol_stack_memo_free(&c.memo);
  fclose(in_capped);
  if (utf8) fclose(utf8);
  free(conv);
  return rc;
}
