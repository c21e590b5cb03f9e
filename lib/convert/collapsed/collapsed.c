/* collapsed.c — collapsed ("folded") stacks in and out: `root;...;leaf COUNT`.
 *
 * Import: one sample per line, time NA, stack = the ';'-separated frames
 * (frame-kind suffixes such as `_[k]` stay part of the function name).
 * Counts: an integer is the sample's weight; a decimal count is kept exactly
 * (to 9 decimals) as value ("count", "1e-9") = count x 10^9, with the weight
 * its rounded value.  A differential file (two counts per line, decided by
 * the first line) stores ("count_before", u) and ("count_after", u), u =
 * "count" when both are integers, else "1e-9" (scaled as above); the weight
 * is the "after" count.  A line whose canonical rendering differs (tabs,
 * "+5", "1.50") keeps its text in sample_text.
 *
 * Export: one line per distinct stack in order of first appearance, values
 * summed; see spec.md §10.3 (collapsed section) for the rules. */
#include "frames.h"
#include <errno.h>

#define NANO_I 1000000000LL

typedef struct cimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  uint32_t vt[6]; /* count/1e-9, before/count, after/count, before/1e-9, after/1e-9 */
  uint32_t *locs;
  size_t nlocs, caplocs;
} cimp;

/* A count token: digits with at most one '.', optional leading '-'/'+'.
 * *nano = value x 1e9 rounded half away from zero at the 9th decimal. */
static int parse_count(const char *s, size_t n, int *is_int, int64_t *ival, int64_t *nano) {
  size_t i = 0;
  int neg = 0;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  unsigned __int128 ip = 0, fp = 0;
  int digits = 0, fd = 0, dot = 0, round_up = 0;
  for (; i < n; i++) {
    if (s[i] >= '0' && s[i] <= '9') {
      digits++;
      if (!dot) {
        ip = ip * 10 + (unsigned)(s[i] - '0');
        if (ip > (unsigned __int128)INT64_MAX) return -1;
      } else if (fd < 9) {
        fp = fp * 10 + (unsigned)(s[i] - '0');
        fd++;
      } else if (fd == 9) {
        round_up = s[i] >= '5';
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
  return 0;
}

/* nano-units as text: "12" or "1.5" (no trailing zeros). */
static int render_nano(char *buf, size_t cap, __int128 v) {
  int neg = v < 0;
  unsigned __int128 a = neg ? -(unsigned __int128)v : (unsigned __int128)v;
  unsigned __int128 ip = a / NANO_I;
  uint64_t fp = (uint64_t)(a % NANO_I);
  char ib[48];
  int n = 0;
  do {
    ib[n++] = (char)('0' + (int)(ip % 10));
    ip /= 10;
  } while (ip && n < 47);
  size_t o = 0;
  if (neg && o < cap) buf[o++] = '-';
  while (n && o < cap) buf[o++] = ib[--n];
  if (fp) {
    char fb[10];
    snprintf(fb, sizeof fb, "%09llu", (unsigned long long)fp);
    int e = 9;
    while (e > 0 && fb[e - 1] == '0') e--;
    if (o < cap) buf[o++] = '.';
    for (int k = 0; k < e && o < cap; k++) buf[o++] = fb[k];
  }
  if (o >= cap) o = cap - 1;
  buf[o] = 0;
  return (int)o;
}

static int vt_get(cimp *c, int which, uint32_t *out) {
  static const char *const names[][2] = {
      {COLLAPSED_VT_COUNT, COLLAPSED_UNIT_NANO},  {COLLAPSED_VT_BEFORE, COLLAPSED_UNIT_COUNT},
      {COLLAPSED_VT_AFTER, COLLAPSED_UNIT_COUNT}, {COLLAPSED_VT_BEFORE, COLLAPSED_UNIT_NANO},
      {COLLAPSED_VT_AFTER, COLLAPSED_UNIT_NANO}};
  if (!c->vt[which]) {
    uint32_t t, u;
    if (pcol_b_cstr(c->b, names[which][0], &t) || pcol_b_cstr(c->b, names[which][1], &u) ||
        pcol_b_value_type(c->b, t, u, &c->vt[which]) || pcol_b_source_value_type(c->b, c->src, c->vt[which]))
      return pcol_oom(c->err);
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
  c->nlocs = 0;
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && s[i] != ';') continue;
    pcol_function_row fn = {0, 0, 0, PCOL_NA_I64};
    pcol_line_row l = {0, PCOL_NA_I64, PCOL_NA_I64};
    uint32_t loc;
    if (pcol_b_string(c->b, s + start, i - start, &fn.name) || pcol_b_function(c->b, &fn, &l.function_id) ||
        pcol_b_location(c->b, 0, 0, 0, &l, 1, &loc))
      return pcol_oom(c->err);
    if (c->nlocs == c->caplocs) {
      size_t cap = c->caplocs ? 2 * c->caplocs : 64;
      uint32_t *nl = realloc(c->locs, cap * sizeof *nl);
      if (!nl) return pcol_oom(c->err);
      c->locs = nl;
      c->caplocs = cap;
    }
    c->locs[c->nlocs++] = loc;
    start = i + 1;
  }
  /* root first in the text, leaf first for the builder */
  for (size_t i = 0; i < c->nlocs / 2; i++) {
    uint32_t t = c->locs[i];
    c->locs[i] = c->locs[c->nlocs - 1 - i];
    c->locs[c->nlocs - 1 - i] = t;
  }
  return pcol_b_stack(c->b, c->locs, c->nlocs, stack) ? pcol_oom(c->err) : PCOL_OK;
}

/* the last blank-separated token of s[0..n): its start, or n if none */
static size_t last_token(const char *s, size_t n) {
  size_t k = n;
  while (k > 0 && s[k - 1] != ' ' && s[k - 1] != '\t') k--;
  return k;
}

static int is_number(const char *s, size_t n) {
  int a, ok;
  int64_t b, d;
  ok = n > 0 && parse_count(s, n, &a, &b, &d) == 0;
  return ok;
}

static int import_line(cimp *c, char *line, size_t len, uint64_t lineno, int *mode) {
  size_t k = last_token(line, len);
  if (k == 0 || k == len)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s:%llu: expected 'stack count'", c->name,
                          (unsigned long long)lineno);
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
  if (parse_count(t2, l2, &int2, &i2, &n2) || (t1 && parse_count(t1, l1, &int1, &i1, &n1)))
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s:%llu: count '%.*s' is not a number", c->name,
                          (unsigned long long)lineno, (int)(l2 > 40 ? 40 : l2), t2);
  pcol_sample_row s = {c->src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
  pcol_value_row v[2];
  size_t nv = 0;
  int rc;
  if ((rc = frame_stack(c, line, rest, &s.stack_id))) return rc;
  char canon[128];
  int cl;
  if (*mode == 1) {
    if (int2) {
      s.weight = i2;
      cl = snprintf(canon, sizeof canon, "%lld", (long long)i2);
    } else {
      s.weight = round_nano(n2);
      if ((rc = vt_get(c, 0, &v[0].value_type_id))) return rc;
      v[nv++].value = n2;
      cl = render_nano(canon, sizeof canon, n2);
    }
  } else {
    int dec = !int1 || !int2;
    s.weight = int2 ? i2 : round_nano(n2);
    if ((rc = vt_get(c, dec ? 3 : 1, &v[0].value_type_id)) || (rc = vt_get(c, dec ? 4 : 2, &v[1].value_type_id)))
      return rc;
    v[0].value = dec ? n1 : i1;
    v[1].value = dec ? n2 : i2;
    nv = 2;
    char a[48], b[48];
    if (dec) render_nano(a, sizeof a, n1), render_nano(b, sizeof b, n2);
    else snprintf(a, sizeof a, "%lld", (long long)i1), snprintf(b, sizeof b, "%lld", (long long)i2);
    cl = snprintf(canon, sizeof canon, "%s %s", a, b);
  }
  uint32_t id;
  if (pcol_b_sample(c->b, &s, v, nv, &id)) return pcol_oom(c->err);
  /* the exporter writes rest + ' ' + canon; keep the line if that differs */
  size_t tail = len - rest - 1;
  if (line[rest] != ' ' || (size_t)cl != tail || memcmp(canon, line + rest + 1, tail))
    if (pcol_b_sample_text(c->b, id, line, len)) return pcol_oom(c->err);
  return PCOL_OK;
}

int pcol_import_collapsed(pcol_builder *b, FILE *in, const char *name,
                          const pcol_import_options *opt, pcol_error *err) {
  cimp c = {0};
  c.b = b;
  c.name = name;
  c.err = err;
  if (pcol_b_source(b, PCOL_SRC_COLLAPSED, name, PCOL_NA_I64, &c.src)) return pcol_oom(err);
  uint64_t cap = pcol_input_cap(opt);
  char *line = NULL;
  size_t lcap = 0;
  ssize_t n;
  uint64_t lineno = 0;
  int mode = 0, rc = PCOL_OK;
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
    if (memchr(line, 0, len)) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "%s:%llu: NUL byte in a line", name, (unsigned long long)lineno);
      break;
    }
    if ((rc = import_line(&c, line, len, lineno, &mode))) break;
  }
  if (!rc && capped.over)
    rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                        (unsigned long long)cap);
  if (!rc && ferror(in)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  free(line);
  free(c.locs);
  fclose(in_capped);
  return rc;
}

/* --------------------------------------------------------------- export */

typedef struct centry {
  size_t off, len;     /* stack text in the arena */
  __int128 a1, a2;     /* before (diff) / amount, in nano-units */
  uint64_t first_row;  /* sample_text of a one-sample line */
  uint32_t nsamples;
  uint8_t decimal, diff, partial;
} centry;

typedef struct cexp {
  pcol_file *f;
  pcol_error *err;
  pcol_view s_src, s_stack, s_w, s_voff, v_type, v_val;
  pcol_frames fr;      /* the frame-naming rule */
  pcol_buf scratch;
  uint8_t *vtcls;      /* per value type: 1 count/1e-9, 2 before/count, 3 after/count, 4 before/1e-9, 5 after/1e-9 */
  uint32_t want_vt;    /* named value: its id (0 = weight) */
  int named;
  uint32_t *memo;      /* stack id -> entry + 1 */
  centry *e;
  size_t ne, cape;
  pcol_buf arena;
  pcol_hset set;
  uint32_t *locs;
  size_t nlocs, caplocs;
  uint32_t *text_of;   /* sample row -> sample_text string id */
  int any_diff;
} cexp;

/* appends a frame name, sanitized for collapsed text */
static int put_name(cexp *x, pcol_str s) {
  size_t start = x->arena.len;
  if (pcol_buf_append(&x->arena, s.ptr, s.len)) return PCOL_ENOMEM;
  pcol_frame_sanitize((char *)x->arena.data + start, s.len);
  return PCOL_OK;
}

static int entry_eq(const void *ctx, uint32_t id, const void *key) {
  const cexp *x = ctx;
  const centry *k = key, *e = &x->e[id - 1];
  return e->len == k->len && !memcmp(x->arena.data + e->off, x->arena.data + k->off, k->len);
}

/* the line entry of a stack (rendering it on first sight) */
static int entry_of(cexp *x, uint32_t stack, uint32_t *out) {
  if (stack > pcol_rows(x->f, PCOL_T_STACKS))
    return pcol_error_set(x->err, PCOL_ECORRUPT, "stack id %u is out of range", stack);
  if (x->memo[stack]) {
    *out = x->memo[stack] - 1;
    return PCOL_OK;
  }
  int rc = pcol_stack_locations(x->f, stack, &x->locs, &x->nlocs, &x->caplocs, x->err);
  if (rc) return rc;
  size_t off = x->arena.len;
  int first = 1;
  for (size_t i = x->nlocs; i-- > 0;) {
    uint32_t loc = x->locs[i];
    uint64_t lo, hi;
    pcol_frames_lines(&x->fr, loc, &lo, &hi);
    if (lo == hi) {
      if (!first && pcol_buf_append(&x->arena, ";", 1)) return pcol_oom(x->err);
      first = 0;
      char b[PCOL_ADDR_NAME_MAX];
      pcol_str name;
      pcol_frame_addr_name(&x->fr, loc, b, &name);
      if (put_name(x, name)) return pcol_oom(x->err);
      continue;
    }
    for (uint64_t l = hi; l-- > lo;) { /* outermost inline line first */
      if (!first && pcol_buf_append(&x->arena, ";", 1)) return pcol_oom(x->err);
      first = 0;
      pcol_str name;
      int by_function;
      if ((rc = pcol_frame_line_name(&x->fr, l, &x->scratch, &name, &by_function, x->err))) return rc;
      if (put_name(x, name)) return pcol_oom(x->err);
    }
  }
  /* an empty stack leaves the arena unallocated: NULL + 0 is UB */
  if (!x->arena.data && pcol_buf_reserve(&x->arena, 1)) return pcol_oom(x->err);
  centry k = {off, x->arena.len - off, 0, 0, 0, 0, 0, 0, 0};
  uint64_t h = pcol_hash_bytes(x->arena.data + off, k.len, 11);
  uint32_t id = pcol_hset_find(&x->set, h, entry_eq, x, &k);
  if (id) {
    x->arena.len = off; /* already known under another stack id */
  } else {
    if (x->ne == x->cape) {
      size_t cap = x->cape ? 2 * x->cape : 256;
      centry *n = realloc(x->e, cap * sizeof *n);
      if (!n) return pcol_oom(x->err);
      x->e = n;
      x->cape = cap;
    }
    x->e[x->ne++] = k;
    id = (uint32_t)x->ne;
    if (pcol_hset_insert(&x->set, h, id)) return pcol_oom(x->err);
  }
  x->memo[stack] = id;
  *out = id - 1;
  return PCOL_OK;
}

static int add_sample(void *ctx, uint64_t row, int64_t num, int64_t den) {
  cexp *x = ctx;
  uint32_t ei = 0;
  int rc = entry_of(x, pcol_view_u32(&x->s_stack, row), &ei);
  if (rc) return rc;
  uint64_t lo = pcol_view_u64(&x->s_voff, row), hi = pcol_view_u64(&x->s_voff, row + 1);
  if (hi > pcol_rows(x->f, PCOL_T_VALUES)) hi = pcol_rows(x->f, PCOL_T_VALUES);
  __int128 a1 = 0, a2 = 0;
  int dec = 0, diff = 0, has = 0, single = 0;
  if (x->named) {
    if (!x->want_vt) {
      a2 = (__int128)pcol_scale(pcol_view_i64(&x->s_w, row), num, den) * NANO_I;
      has = 1;
    }
    for (uint64_t i = lo; i < hi && x->want_vt; i++)
      if (pcol_view_u32(&x->v_type, i) == x->want_vt) {
        a2 = (__int128)pcol_scale(pcol_view_i64(&x->v_val, i), num, den) * NANO_I;
        has = 1;
      }
    if (!has) return 0;
  } else {
    for (uint64_t i = lo; i < hi; i++) {
      uint32_t vt = pcol_view_u32(&x->v_type, i);
      int c = vt < pcol_rows(x->f, PCOL_T_VALUE_TYPES) + 1 ? x->vtcls[vt] : 0;
      __int128 v = pcol_scale(pcol_view_i64(&x->v_val, i), num, den);
      switch (c) {
      case 1: a2 = v, dec = single = 1; break;
      case 2: a1 = v * NANO_I, diff = 1; break;
      case 3: a2 = v * NANO_I, diff = 1; break;
      case 4: a1 = v, diff = dec = 1; break;
      case 5: a2 = v, diff = dec = 1; break;
      default: break;
      }
    }
    if (!diff && !single) a2 = (__int128)pcol_scale(pcol_view_i64(&x->s_w, row), num, den) * NANO_I;
  }
  centry *e = &x->e[ei];
  if (e->nsamples == 0) e->first_row = row;
  e->nsamples++;
  e->a1 += a1;
  e->a2 += a2;
  e->decimal |= (uint8_t)dec;
  e->diff |= (uint8_t)diff;
  e->partial |= (uint8_t)(num != den);
  x->any_diff |= diff;
  return 0;
}

static int classify_value_types(cexp *x) {
  pcol_view t, u;
  int rc = pcol_column(x->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &t, x->err);
  if (!rc) rc = pcol_column(x->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &u, x->err);
  if (rc) return rc;
  uint64_t n = pcol_rows(x->f, PCOL_T_VALUE_TYPES);
  x->vtcls = calloc(n + 1, 1);
  if (!x->vtcls) return pcol_oom(x->err);
  for (uint64_t i = 0; i < n; i++) {
    pcol_str ts, us;
    if ((rc = pcol_string(x->f, pcol_view_u32(&t, i), &ts, x->err)) ||
        (rc = pcol_string(x->f, pcol_view_u32(&u, i), &us, x->err)))
      return rc;
    int nano = pcol_str_is(us, COLLAPSED_UNIT_NANO), cnt = pcol_str_is(us, COLLAPSED_UNIT_COUNT);
    uint8_t c = 0;
    if (pcol_str_is(ts, COLLAPSED_VT_COUNT) && nano) c = 1;
    else if (pcol_str_is(ts, COLLAPSED_VT_BEFORE)) c = cnt ? 2 : nano ? 4 : 0;
    else if (pcol_str_is(ts, COLLAPSED_VT_AFTER)) c = cnt ? 3 : nano ? 5 : 0;
    x->vtcls[i + 1] = c;
  }
  return PCOL_OK;
}

/* sample_text of samples of collapsed sources only (other formats use it
 * for their own lines) */
static int load_texts(cexp *x) {
  uint64_t n = pcol_rows(x->f, PCOL_T_SAMPLE_TEXT), ns = pcol_rows(x->f, PCOL_T_SAMPLES);
  if (!n) return PCOL_OK;
  pcol_view sid, txt, stype;
  int rc = pcol_column(x->f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE, &sid, x->err);
  if (!rc) rc = pcol_column(x->f, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_TEXT, &txt, x->err);
  if (!rc) rc = pcol_column(x->f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &stype, x->err);
  if (rc) return rc;
  x->text_of = calloc(ns + 1, sizeof *x->text_of);
  if (!x->text_of) return pcol_oom(x->err);
  for (uint64_t i = 0; i < n; i++) {
    uint32_t s = pcol_view_u32(&sid, i);
    if (!s || s > ns) continue;
    uint32_t src = pcol_view_u32(&x->s_src, s - 1);
    pcol_str st;
    if (!src || src > pcol_rows(x->f, PCOL_T_SOURCES) ||
        pcol_string(x->f, pcol_view_u32(&stype, src - 1), &st, x->err) || !pcol_str_is(st, PCOL_SRC_COLLAPSED))
      continue;
    x->text_of[s - 1] = pcol_view_u32(&txt, i);
  }
  return PCOL_OK;
}

static int write_lines(cexp *x, FILE *out) {
  char a[64], b[64];
  for (size_t i = 0; i < x->ne; i++) {
    centry *e = &x->e[i];
    if (!e->nsamples) continue;
    if (e->nsamples == 1 && !e->partial && !x->named && x->text_of && x->text_of[e->first_row]) {
      pcol_str t;
      int rc = pcol_string(x->f, x->text_of[e->first_row], &t, x->err);
      if (rc) return rc;
      if (t.ptr && (fwrite(t.ptr, 1, t.len, out) != t.len || fputc('\n', out) == EOF)) goto io;
      continue;
    }
    if (e->decimal) render_nano(a, sizeof a, e->a1), render_nano(b, sizeof b, e->a2);
    else render_nano(a, sizeof a, e->a1 / NANO_I * NANO_I), render_nano(b, sizeof b, e->a2 / NANO_I * NANO_I);
    if (fwrite(x->arena.data + e->off, 1, e->len, out) != e->len) goto io;
    if (x->any_diff ? fprintf(out, " %s %s\n", a, b) < 0 : fprintf(out, " %s\n", b) < 0) goto io;
  }
  return PCOL_OK;
io:
  return pcol_error_set(x->err, PCOL_EIO, "write error");
}

int pcol_export_collapsed(pcol_file *f, const pcol_select *sel, const pcol_value_sel *value,
                          FILE *out, pcol_error *err) {
  cexp x = {0};
  x.f = f;
  x.err = err;
  struct {
    pcol_view *v;
    int t, c;
  } cols[] = {{&x.s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},          {&x.s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},
              {&x.s_w, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},            {&x.s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
              {&x.v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},            {&x.v_val, PCOL_T_VALUES, PCOL_C_V_VALUE}};
  int rc = PCOL_OK;
  for (size_t i = 0; i < sizeof cols / sizeof cols[0] && !rc; i++)
    rc = pcol_column(f, cols[i].t, cols[i].c, cols[i].v, err);
  if (!rc) rc = pcol_frames_init(&x.fr, f, err);
  if (!rc && value) {
    if (value->vt_id == PCOL_VT_RPROF_ALLOC)
      rc = pcol_error_set(err, PCOL_EINVAL, "value '%s' is not available for collapsed export; "
                          "use `pcol fold --value %s`", PCOL_VALUE_RPROF_ALLOC, PCOL_VALUE_RPROF_ALLOC);
    else if (value->vt_id > pcol_rows(f, PCOL_T_VALUE_TYPES))
      rc = pcol_error_set(err, PCOL_EINVAL, "value type %u does not exist", value->vt_id);
    x.named = 1;
    x.want_vt = value->vt_id;
  }
  if (!rc) rc = classify_value_types(&x);
  if (!rc) rc = load_texts(&x);
  if (!rc && !(x.memo = calloc(pcol_rows(f, PCOL_T_STACKS) + 1, sizeof *x.memo))) rc = pcol_oom(err);
  if (!rc) rc = pcol_select_iter(f, sel, add_sample, &x, err);
  if (!rc) rc = write_lines(&x, out);
  if (!rc && fflush(out)) rc = pcol_error_set(err, PCOL_EIO, "write error");
  free(x.vtcls);
  free(x.memo);
  free(x.e);
  free(x.locs);
  free(x.text_of);
  pcol_buf_free(&x.arena);
  pcol_buf_free(&x.scratch);
  pcol_hset_free(&x.set);
  return rc;
}
