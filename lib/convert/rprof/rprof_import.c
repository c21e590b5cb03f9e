/* rprof_import.c — R's Rprof() text output into a builder.  The parts of
 * the format the exporter shares (header/#File parsing, #File table,
 * canonical line rendering) are in rprof_common.c.
 *
 * One source per input; one sample per sample line (weight 1, time = sum of
 * the intervals of the earlier sample lines).  Headers and #File lines are
 * kept as text_lines at their positions; a sample whose canonical rendering
 * differs from its original bytes keeps those bytes in sample_text.  The
 * input is streamed one line at a time.  doc/mappings.md §1. */
#include "rprof.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

/* ------------------------------------------------------------ importer */

enum { EOL_NONE = 0, EOL_LF = 1, EOL_CRLF = 2 };

typedef struct rp_fc_entry {
  uint64_t hash;
  uint32_t loc; /* 0 = empty slot */
  uint32_t file_sid;
  int64_t line;
  uint32_t name_off, name_len; /* name_len UINT32_MAX: no name (a trailing ref) */
} rp_fc_entry;

typedef struct rp_in {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  uint64_t lineno;
  int eol_default;  /* EOL_LF or EOL_CRLF: the header's line end */
  int last_eol;     /* of the line just read */
  unsigned flags;   /* current segment */
  int64_t interval_ns;
  int64_t t_ns;     /* time of the next sample */
  uint32_t vt[RPROF_NMEM];
  int mem_declared;
  uint64_t segments, truncated;
  pcol_rprof_ftab ft;
  pcol_buf frames, locs, render, text;
  /* The previous sample line's stack part (after any memory prefix), when
   * it parsed completely and rendered canonically: a repeated stack (runs
   * of identical lines are the norm in Rprof) reuses its stack id without
   * parsing or rendering again.  Any text line (header, #File) clears it. */
  pcol_buf prev_tail;
  pcol_buf prev_locs, prev_nodes; /* see build_stack */
  rp_fc_entry *fc; /* see add_frame_locs */
  size_t fc_cap, fc_count;
  pcol_buf fc_names;
  uint32_t prev_stack;
  int prev_ok;
} rp_in;

#define FAIL(code, ...) pcol_error_set(r->err, code, __VA_ARGS__)

static int bfail(rp_in *r, int rc) {
  return pcol_error_set(r->err, rc, "%s:%" PRIu64 ": %s", r->name, r->lineno,
                        pcol_strerror(rc));
}

static int declare_memory(rp_in *r) {
  if (r->mem_declared) return PCOL_OK;
  for (int k = 0; k < RPROF_NMEM; k++) {
    uint32_t t, u;
    int rc = pcol_b_cstr(r->b, pcol_rprof_mem_type[k], &t);
    if (!rc) rc = pcol_b_cstr(r->b, pcol_rprof_mem_unit[k], &u);
    if (!rc) rc = pcol_b_value_type(r->b, t, u, &r->vt[k]);
    if (!rc) rc = pcol_b_source_value_type(r->b, r->src, r->vt[k]);
    if (rc) return bfail(r, rc);
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
  r->prev_ok = 0;
  int rc = stored_text(r, p, n, cr_dangling);
  if (!rc)
    rc = pcol_b_text_line(r->b, r->src, pcol_b_sample_count(r->b) + 1, r->text.data,
                          r->text.len);
  return rc ? bfail(r, rc) : PCOL_OK;
}

static int on_header(rp_in *r, const char *p, size_t n, unsigned flags, uint64_t iv,
                     int cr_dangling) {
  if (iv > (uint64_t)INT64_MAX / 1000)
    return FAIL(PCOL_ETOOBIG, "%s:%" PRIu64 ": sample.interval=%" PRIu64 " is too large",
                r->name, r->lineno, iv);
  if (r->segments == 0) {
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, iv);
    char fl[32] = "";
    if (flags & RPROF_F_MEMORY) strcat(fl, "memory");
    if (flags & RPROF_F_GC) strcat(fl, fl[0] ? ",gc" : "gc");
    if (flags & RPROF_F_LINE) strcat(fl, fl[0] ? ",line" : "line");
    int rc = pcol_b_meta_str(r->b, r->src, RPROF_META_INTERVAL_US, num);
    if (!rc) rc = pcol_b_meta(r->b, r->src, RPROF_META_HEADER, p, n);
    if (!rc) rc = pcol_b_meta_str(r->b, r->src, RPROF_META_FLAGS, fl);
    if (rc) return bfail(r, rc);
  }
  r->segments++;
  r->flags = flags;
  r->interval_ns = (int64_t)iv * 1000;
  pcol_rprof_ftab_reset(&r->ft);
  int rc = (flags & RPROF_F_MEMORY) ? declare_memory(r) : PCOL_OK;
  if (rc) return rc;
  return add_text_line(r, p, n, cr_dangling);
}

static int on_fileline(rp_in *r, const char *p, size_t n, uint64_t num, const char *path,
                       size_t plen, int cr_dangling) {
  uint32_t sid;
  int rc = pcol_b_string(r->b, path, plen, &sid);
  if (!rc) rc = pcol_rprof_ftab_add(&r->ft, num, path, plen, sid);
  if (rc) return bfail(r, rc);
  return add_text_line(r, p, n, cr_dangling);
}

/* A ref "digits#digits" at p[i..n) followed by a space or the end: 1 = yes
 * (with *end after the space), 0 = no, -1 = cut off by the end of the line,
 * -2 = a ref whose number does not fit in 64 bits. */
static int scan_ref(const char *p, size_t n, size_t i, uint64_t *file, uint64_t *line,
                    size_t *end) {
  size_t k = i;
  int a = pcol_rprof_parse_u64(p, n, &k, file);
  if (a <= 0) return a < 0 ? -2 : 0;
  if (k == n) return -1;
  if (p[k] != '#') return 0;
  k++;
  if (k == n) return -1;
  int c = pcol_rprof_parse_u64(p, n, &k, line);
  if (c <= 0) return c < 0 ? -2 : 0;
  if (k == n) return -1; /* no space after it: cut off (maybe mid-number) */
  if (p[k] != ' ') return 0;
  *end = k + 1;
  return 1;
}

static int push_frame(rp_in *r, const char *name, size_t nlen, int has_ref, uint64_t file,
                      uint64_t line) {
  pcol_rprof_frame f = {name, nlen, 0, PCOL_NA_I64, 0};
  if (has_ref) {
    if (line > (uint64_t)INT64_MAX)
      return FAIL(PCOL_ECORRUPT, "%s:%" PRIu64 ": line number %" PRIu64 " is too large",
                  r->name, r->lineno, line);
    f.line = (int64_t)line;
    const pcol_rprof_fent *e = pcol_rprof_ftab_num(&r->ft, file);
    if (e) {
      /* canonical number: the first #File line of this segment naming the path */
      f.file_sid = e->sid;
      f.fileno = pcol_rprof_ftab_path(&r->ft, pcol_rprof_fent_path(&r->ft, e), e->len)->num;
    }
    /* a file number without a #File line: the line is kept, the file is
     * unknown, and the original text preserves the ref */
  }
  if (pcol_buf_append(&r->frames, &f, sizeof f)) return bfail(r, PCOL_ENOMEM);
  return PCOL_OK;
}

/* Parses the memory prefix ":a:b:c:d:" at the start of p.  1 = ok (*i after
 * it), 0 = malformed, -1 = cut off by the end of the line. */
static int scan_mem(rp_in *r, const char *p, size_t n, size_t *i, uint64_t mem[4],
                    int *erc) {
  size_t k = 1;
  for (int f = 0; f < RPROF_NMEM; f++) {
    int a = pcol_rprof_parse_u64(p, n, &k, &mem[f]);
    if (a < 0)
      return *erc = FAIL(PCOL_ECORRUPT,
                         "%s:%" PRIu64 ": memory field %d does not fit in 64 bits", r->name,
                         r->lineno, f + 1), -2;
    if (a == 0) return k == n ? -1 : 0;
    if (k == n) return -1;
    if (p[k] != ':') return 0;
    k++;
    if (mem[f] > (uint64_t)(INT64_MAX / pcol_rprof_mem_factor[f]))
      return *erc = FAIL(PCOL_ECORRUPT,
                         "%s:%" PRIu64 ": memory field %d (%s) = %" PRIu64
                         " is too large to store in bytes as int64",
                         r->name, r->lineno, f + 1, pcol_rprof_mem_type[f], mem[f]), -2;
  }
  *i = k;
  return 1;
}

/* ---- frame cache: (name bytes, file, line) -> location id.  One probe
 * into a compact table instead of a string, a function and a location
 * lookup in the builder (each touching several big columns). */
static uint64_t frame_hash(const pcol_rprof_frame *f) {
  uint64_t h = f->name ? pcol_hash_bytes(f->name, f->name_len, 7) : 0x9e37;
  pcol_hstate s;
  pcol_hs_init(&s, h);
  pcol_hs_add(&s, f->file_sid);
  pcol_hs_add(&s, (uint64_t)f->line);
  return pcol_hs_end(&s);
}

static const rp_fc_entry *fc_find(const rp_in *r, const pcol_rprof_frame *f, uint64_t h) {
  if (!r->fc_cap) return NULL;
  size_t mask = r->fc_cap - 1;
  uint32_t nlen = f->name ? (uint32_t)f->name_len : UINT32_MAX;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const rp_fc_entry *e = &r->fc[i];
    if (!e->loc) return NULL;
    if (e->hash == h && e->file_sid == f->file_sid && e->line == f->line &&
        e->name_len == nlen &&
        (nlen == UINT32_MAX || nlen == 0 ||
         memcmp(r->fc_names.data + e->name_off, f->name, nlen) == 0))
      return e;
  }
}

static int fc_insert(rp_in *r, const pcol_rprof_frame *f, uint64_t h, uint32_t loc) {
  if (f->name && (f->name_len >= UINT32_MAX || r->fc_names.len > UINT32_MAX - f->name_len))
    return PCOL_OK; /* not cached; still correct */
  if ((r->fc_count + 1) * 2 > r->fc_cap) {
    size_t nc = r->fc_cap ? r->fc_cap * 2 : 4096;
    rp_fc_entry *nt = calloc(nc, sizeof *nt);
    if (!nt) return PCOL_ENOMEM;
    for (size_t i = 0; i < r->fc_cap; i++) {
      if (!r->fc[i].loc) continue;
      size_t j = r->fc[i].hash & (nc - 1);
      while (nt[j].loc) j = (j + 1) & (nc - 1);
      nt[j] = r->fc[i];
    }
    free(r->fc);
    r->fc = nt;
    r->fc_cap = nc;
  }
  rp_fc_entry e = {h, loc, f->file_sid, f->line, (uint32_t)r->fc_names.len,
                   f->name ? (uint32_t)f->name_len : UINT32_MAX};
  if (f->name && pcol_buf_append(&r->fc_names, f->name, f->name_len)) return PCOL_ENOMEM;
  size_t j = h & (r->fc_cap - 1);
  while (r->fc[j].loc) j = (j + 1) & (r->fc_cap - 1);
  r->fc[j] = e;
  r->fc_count++;
  return PCOL_OK;
}

static int add_frame_locs(rp_in *r, size_t nfr) {
  const pcol_rprof_frame *fr = (const pcol_rprof_frame *)(const void *)r->frames.data;
  r->locs.len = 0;
  for (size_t k = 0; k < nfr; k++) {
    uint64_t h = frame_hash(&fr[k]);
    const rp_fc_entry *hit = fc_find(r, &fr[k], h);
    uint32_t loc = hit ? hit->loc : 0;
    int rc = PCOL_OK;
    if (!hit) {
      pcol_function_row fn = {0, 0, fr[k].file_sid, PCOL_NA_I64};
      rc = fr[k].name ? pcol_b_string(r->b, fr[k].name, fr[k].name_len, &fn.name) : 0;
      uint32_t fid = 0;
      if (!rc) rc = pcol_b_function(r->b, &fn, &fid);
      pcol_line_row lr = {fid, fr[k].line, PCOL_NA_I64};
      if (!rc) rc = pcol_b_location(r->b, 0, 0, 0, &lr, 1, &loc);
      if (!rc) rc = fc_insert(r, &fr[k], h, loc);
    }
    if (!rc) rc = PCOL_BUF_PUSH(&r->locs, uint32_t, loc);
    if (rc) return bfail(r, rc);
  }
  return PCOL_OK;
}

/* The stack of the frames in r->locs (innermost first).  Consecutive
 * samples usually share their outer frames, so the nodes of the previous
 * stack are reused for the common outer part and only the rest is looked
 * up (prev_locs/prev_nodes: the previous stack, outermost first). */
static int build_stack(rp_in *r, size_t n, uint32_t *stack) {
  const uint32_t *locs = (const uint32_t *)(const void *)r->locs.data;
  const uint32_t *pl = (const uint32_t *)(const void *)r->prev_locs.data;
  const uint32_t *pn = (const uint32_t *)(const void *)r->prev_nodes.data;
  size_t pm = r->prev_locs.len / sizeof(uint32_t), k = 0;
  while (k < n && k < pm && pl[k] == locs[n - 1 - k]) k++;
  uint32_t node = k ? pn[k - 1] : 0;
  r->prev_locs.len = r->prev_nodes.len = k * sizeof(uint32_t);
  for (size_t j = k; j < n; j++) {
    int rc = pcol_b_stack_node(r->b, node, locs[n - 1 - j], &node);
    if (!rc) rc = PCOL_BUF_PUSH(&r->prev_locs, uint32_t, locs[n - 1 - j]);
    if (!rc) rc = PCOL_BUF_PUSH(&r->prev_nodes, uint32_t, node);
    if (rc) {
      r->prev_locs.len = r->prev_nodes.len = 0;
      return rc;
    }
  }
  *stack = node;
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
  if ((rc = pcol_b_sample(r->b, &s, vals, mem ? RPROF_NMEM : 0, sid))) return bfail(r, rc);
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
  int rc;
  if (canonical && !suffix_needed(r, cr_dangling)) return PCOL_OK;
  if ((rc = stored_text(r, p, n, cr_dangling)) ||
      (rc = pcol_b_sample_text(r->b, sid, r->text.data, r->text.len)))
    return bfail(r, rc);
  return PCOL_OK;
}

/* Adds a sample whose stack part equals the previous line's (see prev_tail). */
static int repeat_sample(rp_in *r, const char *p, size_t n, size_t tail_at,
                         const uint64_t *mem, int cr_dangling) {
  uint32_t sid;
  int rc = add_sample(r, r->prev_stack, mem, &sid);
  if (rc) return rc;
  /* the tail is canonical; so is the line if its memory prefix is */
  int canonical = 1;
  if (mem) {
    char tmp[96];
    size_t k = pcol_rprof_mem_prefix(tmp, mem);
    canonical = k == tail_at && memcmp(tmp, p, tail_at) == 0;
  } else {
    canonical = tail_at == 0;
  }
  return keep_text(r, sid, p, n, canonical, cr_dangling);
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
      if (k == n || p[k] == '"' || scan_ref(p, n, k, &a, &b2, &e2) != 0) {
        *close = j, *next = k;
        return 1;
      }
    }
    j++;
  }
}

/* The tokenizer: the frames of the stack part p[i..n) of a sample line into
 * r->frames, innermost first.  Sets *cut when the line ends inside a name or
 * a ref (R cut it off); anything else malformed is an error. */
static int scan_frames(rp_in *r, const char *p, size_t n, size_t i, int *cut) {
  int pending = 0, rc; /* a ref waiting for the name after it */
  uint64_t pf = 0, pl = 0;
  r->frames.len = 0;
  while (i < n && !*cut) {
    if (p[i] == '"') {
      size_t close, next;
      if (!name_end(p, n, i, &close, &next)) {
        /* a name cut off by the end of the line; one holding '" ' would
         * have ended there, so that is garbage rather than a cut */
        for (size_t k = i + 1; k + 1 < n; k++)
          if (p[k] == '"' && p[k + 1] == ' ')
            return FAIL(PCOL_ECORRUPT,
                        "%s:%" PRIu64 ":%zu: unexpected text after the name that starts at "
                        "column %zu",
                        r->name, r->lineno, k + 3, i + 1);
        *cut = 1;
        break;
      }
      if ((rc = push_frame(r, p + i + 1, close - i - 1, pending, pf, pl))) return rc;
      pending = 0;
      i = next;
    } else if (isdigit((unsigned char)p[i])) {
      uint64_t f, l;
      size_t e;
      int s = scan_ref(p, n, i, &f, &l, &e);
      if (s == -2)
        return FAIL(PCOL_ECORRUPT,
                    "%s:%" PRIu64 ":%zu: number in source reference does not fit in 64 bits",
                    r->name, r->lineno, i + 1);
      if (s == -1) {
        *cut = 1; /* a ref cut off by the end of the line */
        break;
      }
      if (s == 0)
        return FAIL(PCOL_ECORRUPT,
                    "%s:%" PRIu64 ":%zu: malformed source reference (expected FILE#LINE "
                    "followed by a space)",
                    r->name, r->lineno, i + 1);
      /* two refs in a row: the first has no function after it */
      if (pending && (rc = push_frame(r, NULL, 0, 1, pf, pl))) return rc;
      pending = 1, pf = f, pl = l;
      i = e;
    } else {
      return FAIL(PCOL_ECORRUPT,
                  "%s:%" PRIu64 ":%zu: not an Rprof header, #File line or sample line "
                  "(unexpected byte 0x%02x)",
                  r->name, r->lineno, i + 1, (unsigned char)p[i]);
    }
  }
  /* a trailing ref: a line of top-level code, in no named function */
  if (pending && (rc = push_frame(r, NULL, 0, 1, pf, pl))) return rc;
  return PCOL_OK;
}

/* Emission: the sample of a scanned line (frames in r->frames, stack part
 * from tail_at), and its original bytes when the canonical rendering
 * differs.  A canonical line becomes the previous line for repeat_sample. */
static int emit_sample(rp_in *r, const char *p, size_t n, size_t tail_at, const uint64_t *mem,
                       int cut, int cr_dangling) {
  const pcol_rprof_frame *fr = (const pcol_rprof_frame *)(const void *)r->frames.data;
  size_t nfr = r->frames.len / sizeof(pcol_rprof_frame);
  uint32_t stack = 0, sid;
  int rc;
  if ((rc = add_frame_locs(r, nfr))) return rc;
  if ((rc = build_stack(r, nfr, &stack))) return bfail(r, rc);
  if ((rc = add_sample(r, stack, mem, &sid))) return rc;
  if ((rc = pcol_rprof_render(&r->render, mem, fr, nfr))) return bfail(r, rc);
  if (cut) r->truncated++;
  int canonical = !cut && r->render.len == n && (n == 0 || memcmp(r->render.data, p, n) == 0);
  r->prev_ok = canonical;
  if (canonical) {
    r->prev_tail.len = 0;
    if (pcol_buf_append(&r->prev_tail, p + tail_at, n - tail_at)) r->prev_ok = 0;
    r->prev_stack = stack;
  }
  return keep_text(r, sid, p, n, canonical, cr_dangling);
}

static int on_sample(rp_in *r, const char *p, size_t n, int cr_dangling) {
  uint64_t mem[RPROF_NMEM];
  int has_mem = 0, cut = 0, rc;
  size_t i = 0;
  if (p[0] == ':') {
    int m = scan_mem(r, p, n, &i, mem, &rc);
    if (m == -2) return rc;
    if (m == 0)
      return FAIL(PCOL_ECORRUPT,
                  "%s:%" PRIu64 ": malformed memory prefix (expected :small:big:nodes:dups:)",
                  r->name, r->lineno);
    if (m < 0) cut = 1, i = n;
    else has_mem = 1;
  }
  if (r->prev_ok && !cut && n - i == r->prev_tail.len &&
      (n == i || memcmp(p + i, r->prev_tail.data, n - i) == 0))
    return repeat_sample(r, p, n, i, has_mem ? mem : NULL, cr_dangling);
  if ((rc = scan_frames(r, p, n, i, &cut))) return rc;
  return emit_sample(r, p, n, i, has_mem ? mem : NULL, cut, cr_dangling);
}

static int finish_meta(rp_in *r) {
  char num[32];
  int rc;
  snprintf(num, sizeof num, "%" PRIu64, r->segments);
  if ((rc = pcol_b_meta_str(r->b, r->src, RPROF_META_SEGMENTS, num))) return bfail(r, rc);
  if (r->segments > 1) { /* the time of the source's last sample (lib/core/count.c) */
    snprintf(num, sizeof num, "%" PRId64, r->interval_ns / 1000);
    if ((rc = pcol_b_meta_str(r->b, r->src, RPROF_META_INTERVAL_LAST_US, num))) return bfail(r, rc);
  }
  if (r->eol_default == EOL_CRLF &&
      (rc = pcol_b_meta_str(r->b, r->src, RPROF_META_EOL, "crlf")))
    return bfail(r, rc);
  if (r->last_eol == EOL_NONE &&
      (rc = pcol_b_meta_str(r->b, r->src, RPROF_META_FINAL_NEWLINE, "0")))
    return bfail(r, rc);
  if (r->truncated) {
    snprintf(num, sizeof num, "%" PRIu64, r->truncated);
    if ((rc = pcol_b_meta_str(r->b, r->src, RPROF_META_TRUNCATED, num))) return bfail(r, rc);
  }
  return PCOL_OK;
}

static int import_lines(rp_in *r, FILE *in, uint64_t max_bytes) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t got;
  int rc = PCOL_OK;
  /* the cap applies inside a line too: getline on `in` would buffer a
   * newline-free input whole before any check */
  pcol_capped k;
  FILE *in_capped = pcol_capped_stream(&k, in, max_bytes);
  if (!in_capped) return FAIL(PCOL_ENOMEM, "%s: out of memory", r->name);
  in = in_capped;
  while ((got = getline(&line, &cap, in)) > 0) {
    r->lineno++;
    if (k.over) break;
    size_t n = (size_t)got;
    int cr_dangling = 0;
    r->last_eol = EOL_NONE;
    if (line[n - 1] == '\n') {
      n--, r->last_eol = EOL_LF;
      if (n && line[n - 1] == '\r') n--, r->last_eol = EOL_CRLF;
    } else if (line[n - 1] == '\r') {
      n--, cr_dangling = 1; /* cut between CR and LF */
    }
    if (r->lineno == 1) r->eol_default = r->last_eol == EOL_CRLF ? EOL_CRLF : EOL_LF;
    unsigned flags;
    uint64_t iv, num;
    const char *path;
    size_t plen;
    int ok;
    if (pcol_rprof_is_header(line, n, &flags, &iv, &ok)) {
      if (!ok) {
        rc = FAIL(PCOL_ECORRUPT,
                  "%s:%" PRIu64 ": malformed Rprof header (expected [memory profiling: ][GC "
                  "profiling: ][line profiling: ]sample.interval=N)",
                  r->name, r->lineno);
        break;
      }
      rc = on_header(r, line, n, flags, iv, cr_dangling);
    } else if (r->segments == 0) {
      rc = FAIL(PCOL_ECORRUPT,
                "%s:%" PRIu64 ": not an Rprof file: the first line must be a header such as "
                "'sample.interval=20000'",
                r->name, r->lineno);
    } else if (n == 0) {
      rc = FAIL(PCOL_ECORRUPT, "%s:%" PRIu64 ": empty line (Rprof never writes one)", r->name,
                r->lineno);
    } else if (pcol_rprof_is_fileline(line, n, &num, &path, &plen, &ok)) {
      if (!ok)
        rc = FAIL(PCOL_ECORRUPT, "%s:%" PRIu64 ": malformed #File line (expected '#File N: PATH')",
                  r->name, r->lineno);
      else
        rc = on_fileline(r, line, n, num, path, plen, cr_dangling);
    } else {
      rc = on_sample(r, line, n, cr_dangling);
    }
    if (rc) break;
  }
  if (!rc && k.over)
    rc = FAIL(PCOL_ETOOBIG, "%s:%" PRIu64 ": input larger than %" PRIu64 " bytes", r->name, r->lineno, max_bytes);
  if (!rc && ferror(in))
    rc = FAIL(PCOL_EIO, "%s: read error after line %" PRIu64 ": %s", r->name, r->lineno,
              strerror(errno));
  if (!rc && r->lineno == 0)
    rc = FAIL(PCOL_ECORRUPT, "%s: empty input: no Rprof header", r->name);
  free(line);
  fclose(in_capped);
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
  int rc = pcol_b_source(b, PCOL_SRC_RPROF, r.name, PCOL_NA_I64, &r.src);
  if (rc) return pcol_error_set(err, rc, "%s: %s", r.name, pcol_strerror(rc));
  rc = import_lines(&r, in, max);
  if (!rc) rc = finish_meta(&r);
  pcol_rprof_ftab_free(&r.ft);
  pcol_buf_free(&r.frames);
  pcol_buf_free(&r.locs);
  pcol_buf_free(&r.render);
  pcol_buf_free(&r.text);
  pcol_buf_free(&r.prev_tail);
  pcol_buf_free(&r.prev_locs);
  pcol_buf_free(&r.prev_nodes);
  pcol_buf_free(&r.fc_names);
  free(r.fc);
  return rc;
}
