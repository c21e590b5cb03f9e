/* rprof_export.c — a pcol file back out as Rprof text.
 *
 * A source imported from Rprof is written back byte for byte: its header and
 * #File lines (text_lines) at their places, each sample as its original text
 * (sample_text) or, where none is stored, rendered canonically exactly as the
 * importer checked it (rprof.h).  Any other source (pprof, Perun, ...) is
 * written as the most faithful Rprof R can read: a header with the interval
 * taken from the source's period, #File lines just before first use, and a
 * sample as its default value's time in ticks of the interval when that
 * value is a stored time (choose_ticks, row_lines), else one line per raw
 * sample the row stands for (THE count rule, pcol_sample_count: a pprof
 * sample's samples/count, else the weight).  Several sources share one
 * header (choose_layout).  doc/mappings.md §1.2 lists what cannot be kept. */
#include "rprof.h"
#include "frames.h"
#include "keys.h"     /* PCOL_SRC_RPROF, RPROF_META_EOL, RPROF_META_INTERVAL_US, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom, pcol_write_error */
#include "buf.h"      /* pcol_buf_append, pcol_buf_free, pcol_buf, ... */
#include "select.h"   /* pcol_sample_cols, pcol_sample_cols_init */
#include "stream.h"   /* pcol_budget, pcol_budget_allow_lines, pcol_budget_close, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "count.h"    /* pcol_sample_count, pcol_count_types */
#include "lasts.h"    /* pcol_lasts, pcol_lasts_init, pcol_source_interval */
#include "xvalues.h"  /* pcol_export_pick_make */
#include "loss.h"     /* pcol_export_loss_note, pcol_export_say */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rp_out {
  pcol_file *f;
  FILE *out;        /* the budget's counting stream */
  pcol_budget *bud;
  pcol_error *err;
  const pcol_select *sel;
  pcol_view s_src, s_weight, s_stack, s_voff, v_type, v_val, st_par, st_loc, l_off, ln_fn,
      ln_line, fn_name, fn_file, tl_src, tl_before, tl_text, sx_sample, sx_text, so_type;
  uint64_t nsamples, nstacks, nlocs, nlines, nfns, ntl, nsx, nvals, nsources;
  uint32_t mem_vt[RPROF_NMEM];
  uint32_t *cvt;          /* per source: its count type (pcol_count_types) */
  pcol_lasts *lasts;      /* per source: its time value (tvt, tscale), for mean_us */
  uint64_t *mean_us;      /* per source: its time per counted sample, us (0: none) */
  uint64_t *tiv_ns;       /* per source: the interval its time is written in, ns (0: ticks, below) */
  unsigned char *rounded; /* per source: 1 its times were rounded to tiv_ns, 2 it has none, 3 they
                           * were rounded to the sources' shared grid (choose_ticks) */
  uint64_t grid_us;       /* the grid choose_ticks carried the sources that write a time on, us (0: none) */
  int fell;               /* the free sources fell back to 10 ms a sample (past RPROF_MAX_LINES, export_rprof) */
  int differ;             /* pcol_selection_default_type's: the sources' defaults differ (1: counted, 2: stated) */
  int count_asked;        /* --value samples, or the count's type: each source's count at its interval */
  __int128 *cum;          /* per source: its time written so far, ns (row_lines) */
  uint64_t *empty;        /* per source: the ticks of its samples of an empty stack, never written (on_row) */
  unsigned char *lack;    /* per source: 1 it lacks the stated default (lack_stated): not written */
  uint64_t count_lines;   /* the selection's lines by the count rule (count_row; 0 before it ran) */
  uint64_t neg_rows;      /* samples of a negative count or time (a base subtracted), no line (count_row) */
  pcol_sample_cols sc;    /* for pcol_sample_count */
  pcol_kin_pick pick;     /* the time's column, as the views read it: of a type a source lists twice,
                           * its default's (go's: the last without default_sample_type) or --value N's */
  int any_srcrefs; /* some frame has a file and a line: write line profiling */

  /* the source being written */
  uint32_t src;
  int verbatim, ranged, final_nl0, emitted_last_sample;
  const char *eol;
  uint64_t first_row, end_row; /* the source's sample rows [first, end) */
  uint64_t tl_cur, sx_cur, emitted_in_source;
  pcol_rprof_ftab ft;
  pcol_buf frames, render, line, xf, anames, afix;
  pcol_frames fr; /* the frame rule: names of address-only locations */

  /* generic (non-Rprof) segment */
  int gen_open;
  uint64_t gen_interval, gen_nextfile;

  /* one header for several sources (choose_layout): each source's sample
   * is written mult[source] times, its interval / the common interval */
  int unified;
  uint64_t common_iv, *mult;
  unsigned char *kind; /* per source: KIND_RPROF, KIND_TEXT */

  /* output */
  const char *pending; /* line end owed by the last line written */
  int may_drop;        /* the last line written was the input's unterminated last line */
  uint64_t emitted;
} rp_out;

static int corrupt(rp_out *r, const char *what, uint64_t a) {
  return pcol_error_set(r->err, PCOL_ECORRUPT, "rprof export: %s %" PRIu64 " out of range",
                        what, a);
}

static void emit(rp_out *r, const void *text, size_t n) {
  fputs(r->pending, r->out);
  if (n) fwrite(text, 1, n, r->out); /* text may be NULL when n == 0 */
  /* a stored text ending in LF carries its own line end (rprof-mapping.md) */
  r->pending = n && ((const char *)text)[n - 1] == '\n' ? "" : r->eol;
  r->may_drop = 0;
  r->emitted++;
  r->emitted_in_source++;
}

static int str(rp_out *r, uint32_t sid, pcol_str *s) { return pcol_string(r->f, sid, s, r->err); }

/* text without its stored line end, for recognising header/#File lines */
static size_t strip_eol(const char *p, size_t n) {
  if (n && p[n - 1] == '\n') n--;
  if (n && p[n - 1] == '\r') n--;
  return n;
}

/* ------------------------------------------------------------ setup */

static int load_views(rp_out *r) {
  const pcol_column_req cols[] = {
      {&r->s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},
      {&r->s_weight, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},
      {&r->s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},
      {&r->s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS},
      {&r->v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},
      {&r->v_val, PCOL_T_VALUES, PCOL_C_V_VALUE},
      {&r->st_par, PCOL_T_STACKS, PCOL_C_STACK_PARENT},
      {&r->st_loc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION},
      {&r->l_off, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS},
      {&r->ln_fn, PCOL_T_LINES, PCOL_C_LINE_FUNCTION},
      {&r->ln_line, PCOL_T_LINES, PCOL_C_LINE_LINE},
      {&r->fn_name, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME},
      {&r->fn_file, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME},
      {&r->tl_src, PCOL_T_TEXT_LINES, PCOL_C_TL_SOURCE},
      {&r->tl_before, PCOL_T_TEXT_LINES, PCOL_C_TL_BEFORE},
      {&r->tl_text, PCOL_T_TEXT_LINES, PCOL_C_TL_TEXT},
      {&r->sx_sample, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_SAMPLE},
      {&r->sx_text, PCOL_T_SAMPLE_TEXT, PCOL_C_ST_TEXT},
      {&r->so_type, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE},
  };
  PCOL_RETURN_NOT_OK(pcol_columns(r->f, cols, PCOL_NCOLS(cols), r->err));
  r->nsamples = pcol_rows(r->f, PCOL_T_SAMPLES);
  r->nstacks = pcol_rows(r->f, PCOL_T_STACKS);
  r->nlocs = pcol_rows(r->f, PCOL_T_LOCATIONS);
  r->nlines = pcol_rows(r->f, PCOL_T_LINES);
  r->nfns = pcol_rows(r->f, PCOL_T_FUNCTIONS);
  r->ntl = pcol_rows(r->f, PCOL_T_TEXT_LINES);
  r->nsx = pcol_rows(r->f, PCOL_T_SAMPLE_TEXT);
  r->nvals = pcol_rows(r->f, PCOL_T_VALUES);
  r->nsources = pcol_rows(r->f, PCOL_T_SOURCES);
  return PCOL_OK;
}

static int sid_is(rp_out *r, uint32_t sid, const char *s, int *yes) {
  pcol_str v;
  int rc = str(r, sid, &v);
  *yes = !rc && v.ptr && v.len == strlen(s) && memcmp(v.ptr, s, v.len) == 0;
  return rc;
}

static int find_mem_types(rp_out *r) {
  pcol_view ty, un;
  int rc = pcol_column(r->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, r->err);
  if (!rc) rc = pcol_column(r->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, r->err);
  for (uint64_t i = 0; !rc && i < pcol_rows(r->f, PCOL_T_VALUE_TYPES); i++)
    for (int k = 0; !rc && k < RPROF_NMEM; k++) {
      int a, b;
      if ((rc = sid_is(r, pcol_view_u32(&ty, i), pcol_rprof_mem_type[k], &a))) break;
      if ((rc = sid_is(r, pcol_view_u32(&un, i), pcol_rprof_mem_unit[k], &b))) break;
      if (a && b && !r->mem_vt[k]) r->mem_vt[k] = (uint32_t)(i + 1);
    }
  return rc;
}

static int scan_srcrefs(rp_out *r) {
  for (uint64_t i = 0; i < r->nlines && !r->any_srcrefs; i++) {
    uint32_t fn = pcol_view_u32(&r->ln_fn, i);
    if (fn == 0 || fn > r->nfns) continue;
    if (pcol_view_i64(&r->ln_line, i) != PCOL_NA_I64 && pcol_view_u32(&r->fn_file, fn - 1))
      r->any_srcrefs = 1;
  }
  return PCOL_OK;
}

static int meta_u64(rp_out *r, uint32_t src, const char *key, uint64_t *v) {
  int64_t x;
  if (pcol_meta_get_i64(r->f, src, key, &x, NULL) || x < 0) return 0;
  *v = (uint64_t)x;
  return 1;
}
static int meta_is(rp_out *r, uint32_t src, const char *key, const char *val) {
  pcol_str s;
  pcol_error e = {0};
  return !pcol_meta_get(r->f, src, key, &s, &e) && s.ptr && s.len == strlen(val) &&
         memcmp(s.ptr, val, s.len) == 0;
}

enum { KIND_RPROF = 1, KIND_TEXT = 2 };
/* per-source notes said one by one, past them one line (as pprof's) */
enum { NOTES_SHOWN = 3 };

/* Per source: an Rprof source, and one with text lines (written back verbatim). */
static int source_kinds(rp_out *r) {
  r->kind = calloc(r->nsources + 1, 1);
  if (!r->kind) return pcol_oom(r->err);
  for (uint64_t i = 0; i < r->ntl; i++) {
    uint32_t s = pcol_view_u32(&r->tl_src, i);
    if (s && s <= r->nsources) r->kind[s] |= KIND_TEXT;
  }
  for (uint32_t s = 1; s <= r->nsources; s++) {
    int is_rprof, rc = sid_is(r, pcol_view_u32(&r->so_type, s - 1), PCOL_SRC_RPROF, &is_rprof);
    if (rc) return rc;
    if (is_rprof) r->kind[s] |= KIND_RPROF;
  }
  return PCOL_OK;
}

/* A source's own interval, in microseconds (0: none): THE interval rule
 * (pcol_source_interval, lib/core/lasts.c: its period when its unit is a
 * time, a Firefox profile's meta.interval, an Rprof source's interval).
 * (Before, a copy of the rule here left out firefox.interval_ms: a Firefox
 * profile of counted samples at 1 ms, samply's, was written at 10 ms a
 * sample with a note that it states no period; review 12.)
 * source_interval: the interval it is written with: the one choose_ticks
 * chose for a source that writes its time, else its own, else its time per
 * counted sample (mean_us, count_row), else 10 ms. */
static uint64_t own_interval(rp_out *r, uint32_t src) {
  /* (a period longer than the profile it samples, a pyroscope pprof's 10^9
   * ms for an hour, is none by the rule: such a source is written as one
   * that states none, 10 ms, with the note) */
  int64_t ns = pcol_source_interval(r->f, src);
  uint64_t us = ns <= 0 ? 0 : ns < 1000 ? 1 : ((uint64_t)ns + 500) / 1000;
  /* nor, duration or not, one whose ticks over the lines written add up
   * past int64 ns, the times pcol's Rprof reader keeps (a period of 10^9
   * ms and no duration: sample.interval=10^12 us, and the copy's 9,224th
   * line overflowed its reader) */
  if (us && r->count_lines && us > (uint64_t)INT64_MAX / 1000 / r->count_lines) us = 0;
  return us;
}

static uint64_t source_interval(rp_out *r, uint32_t src) {
  if (r->tiv_ns && src <= r->nsources && r->tiv_ns[src]) return r->tiv_ns[src] / 1000;
  uint64_t v = own_interval(r, src);
  if (v) return v;
  if (!r->fell && r->mean_us && src <= r->nsources && r->mean_us[src]) return r->mean_us[src];
  return 10000;
}

/* ------------------------------------------------------- frames */

/* Collects the frames of a stack, innermost first, as (function, line), or
 * (0, NA, location) for a frame named after its location's mapping (an
 * unsymbolised address, or a nameless function in a mapping: frames.h). */
typedef struct xframe {
  uint32_t fn;
  int64_t line;
  uint32_t loc;
} xframe;

/* Checks that n more bytes of a line could be held (and written once). */
static int room_for(rp_out *r, uint64_t n) {
  int rc = pcol_budget_hold(r->bud, n, r->err);
  if (!rc) pcol_budget_release(r->bud, n);
  return rc;
}

static int collect(rp_out *r, uint32_t stack, pcol_buf *out) {
  out->len = 0;
  int rc;
  if (stack > r->nstacks) return corrupt(r, "stack id", stack);
  for (uint32_t nd = stack; nd;) {
    uint32_t loc = pcol_view_u32(&r->st_loc, nd - 1);
    if (loc == 0 || loc > r->nlocs) return corrupt(r, "location id", loc);
    uint64_t a = pcol_view_u64(&r->l_off, loc - 1), b = pcol_view_u64(&r->l_off, loc);
    if (a > b || b > r->nlines) return corrupt(r, "location line offset", b);
    if (a == b) { /* an address only: named by the frame rule (frames.h) */
      xframe x = {0, PCOL_NA_I64, loc};
      if (pcol_buf_append(out, &x, sizeof x))
        return pcol_error_set(r->err, PCOL_ENOMEM, "out of memory");
    }
    for (uint64_t i = a; i < b; i++) {
      xframe x = {pcol_view_u32(&r->ln_fn, i), pcol_view_i64(&r->ln_line, i), 0};
      /* a nameless function in a mapping is named as the mapping, as an
       * address is (frames.h), not R's "<Anonymous>" (review 19 F2) */
      uint32_t m;
      if (pcol_frame_line_unsym(&r->fr, i, &m)) x = (xframe){0, PCOL_NA_I64, loc};
      if (x.fn > r->nfns) return corrupt(r, "function id", x.fn);
      if (pcol_buf_append(out, &x, sizeof x))
        return pcol_error_set(r->err, PCOL_ENOMEM, "out of memory");
      /* inline lines x depth: a stack's frames are bounded by the budget */
      if (!(out->len & 0xffff) && (rc = room_for(r, out->len))) return rc;
    }
    uint32_t par = pcol_view_u32(&r->st_par, nd - 1);
    if (par >= nd) return corrupt(r, "stack parent", par);
    nd = par;
  }
  return PCOL_OK;
}

/* The memory prefix of sample row i, if it has all four fields. */
static int sample_mem(rp_out *r, uint64_t row, uint64_t mem[RPROF_NMEM], int *has) {
  uint64_t a = pcol_view_u64(&r->s_voff, row), b = pcol_view_u64(&r->s_voff, row + 1);
  int got = 0;
  *has = 0;
  if (!r->mem_vt[0]) return PCOL_OK;
  if (a > b || b > r->nvals) return corrupt(r, "value offset", b);
  for (uint64_t i = a; i < b; i++) {
    uint32_t t = pcol_view_u32(&r->v_type, i);
    for (int k = 0; k < RPROF_NMEM; k++)
      if (t == r->mem_vt[k] && !(got & (1 << k))) {
        int64_t v = pcol_view_i64(&r->v_val, i);
        mem[k] = v < 0 ? 0 : (uint64_t)v / (uint64_t)pcol_rprof_mem_factor[k];
        got |= 1 << k;
      }
  }
  *has = got == (1 << RPROF_NMEM) - 1;
  return PCOL_OK;
}

/* Line breaks cannot be written inside a line: a space stands for them. */
static void unbreak(pcol_buf *b, size_t from) {
  for (size_t i = from; i < b->len; i++)
    if (b->data[i] == '\n' || b->data[i] == '\r') b->data[i] = ' ';
}

static int write_gen_file(rp_out *r, uint64_t num, pcol_str path) {
  char head[48];
  int k = snprintf(head, sizeof head, "#File %" PRIu64 ": ", num);
  r->line.len = 0;
  if (pcol_buf_append(&r->line, head, (size_t)k) ||
      pcol_buf_append(&r->line, path.ptr, path.len))
    return pcol_error_set(r->err, PCOL_ENOMEM, "out of memory");
  unbreak(&r->line, 0);
  emit(r, r->line.data, r->line.len);
  return PCOL_OK;
}

static uint64_t dec_len(uint64_t v) {
  uint64_t n = 1;
  while (v >= 10) v /= 10, n++;
  return n;
}
/* What pcol_rprof_render writes for a frame: 'F#L ' and '"name" '. */
static uint64_t frame_len(const pcol_rprof_frame *fr) {
  uint64_t n = fr->name ? fr->name_len + 3 : 0;
  if (fr->fileno)
    n += dec_len(fr->fileno) + 2 +
         (fr->line < 0 ? 1 + dec_len(0 - (uint64_t)fr->line) : dec_len((uint64_t)fr->line));
  return n;
}

/* Renders sample `row` into r->render (canonical or generic). */
static int render_row(rp_out *r, uint64_t row, pcol_buf *xf) {
  uint64_t mem[RPROF_NMEM];
  int has_mem = 0, rc;
  if (r->verbatim && (rc = sample_mem(r, row, mem, &has_mem))) return rc;
  size_t n = xf->len / sizeof(xframe);
  const xframe *x = (const xframe *)(const void *)xf->data;
  char mp[96];
  uint64_t est = has_mem ? pcol_rprof_mem_prefix(mp, mem) : 0; /* the line's length */
  r->frames.len = 0;
  /* the names of unsymbolized frames go to anames, and afix says which
   * frame points where once all are in (anames moves while it grows) */
  r->anames.len = 0;
  r->afix.len = 0;
  for (size_t i = 0; i < n; i++) {
    pcol_rprof_frame fr = {NULL, 0, 0, x[i].line, 0};
    if (!x[i].fn && x[i].loc) { /* the frame rule's name, as in fold and collapsed */
      size_t fix[2] = {r->frames.len / sizeof fr, r->anames.len};
      if ((rc = pcol_frame_unsymbolized_name(&r->fr, pcol_frames_mapping(&r->fr, x[i].loc),
                                             &r->anames, r->err)))
        return rc;
      fr.name = "";
      fr.name_len = r->anames.len - fix[1];
      if (pcol_buf_append(&r->frames, &fr, sizeof fr) || pcol_buf_append(&r->afix, fix, sizeof fix))
        return pcol_error_set(r->err, PCOL_ENOMEM, "out of memory");
      est += frame_len(&fr);
      if (est > r->bud->limit && (rc = room_for(r, est))) return rc;
      continue;
    }
    uint32_t nsid = x[i].fn ? pcol_view_u32(&r->fn_name, x[i].fn - 1) : 0;
    uint32_t fsid = x[i].fn ? pcol_view_u32(&r->fn_file, x[i].fn - 1) : 0;
    pcol_str name = {NULL, 0}, path = {NULL, 0};
    if ((rc = str(r, nsid, &name)) || (rc = str(r, fsid, &path))) return rc;
    if (path.ptr && x[i].line != PCOL_NA_I64 && (r->verbatim || r->any_srcrefs)) {
      const pcol_rprof_fent *e = pcol_rprof_ftab_path(&r->ft, path.ptr, path.len);
      if (e) fr.fileno = e->num;
      else if (!r->verbatim) {
        /* R writes a #File line just before the first sample using the file */
        fr.fileno = ++r->gen_nextfile;
        if ((rc = pcol_rprof_ftab_add(&r->ft, fr.fileno, path.ptr, path.len, 0)) ||
            (rc = write_gen_file(r, fr.fileno, path)))
          return rc == PCOL_ENOMEM ? pcol_error_set(r->err, rc, "out of memory") : rc;
      }
    }
    if (name.ptr) {
      fr.name = name.ptr;
      fr.name_len = name.len;
    } else if (!r->verbatim && !(fr.fileno && i + 1 == n)) {
      /* a frame without a name inside a stack: R's word for it */
      fr.name = "<Anonymous>";
      fr.name_len = 11;
    }
    if (!fr.name && !fr.fileno) continue; /* nothing R could write */
    if (pcol_buf_append(&r->frames, &fr, sizeof fr))
      return pcol_error_set(r->err, PCOL_ENOMEM, "out of memory");
    /* the line is rendered whole: its size must fit in the budget */
    est += frame_len(&fr);
    if (est > r->bud->limit && (rc = room_for(r, est))) return rc;
  }
  if ((rc = room_for(r, est))) return rc;
  pcol_rprof_frame *fr = (pcol_rprof_frame *)(void *)r->frames.data;
  size_t nfr = r->frames.len / sizeof *fr;
  const size_t *fix = (const size_t *)(const void *)r->afix.data;
  for (size_t i = 0; i < r->afix.len / (2 * sizeof *fix); i++)
    fr[fix[2 * i]].name = (const char *)r->anames.data + fix[2 * i + 1];
  if ((rc = pcol_rprof_render(&r->render, has_mem ? mem : NULL, fr, nfr)))
    return pcol_error_set(r->err, rc, "out of memory");
  if (!r->verbatim) unbreak(&r->render, 0);
  return PCOL_OK;
}

/* ------------------------------------------------------- text lines */

static int apply_text_line(rp_out *r, const char *p, size_t n) {
  unsigned flags;
  uint64_t iv, num;
  const char *path;
  size_t plen;
  int ok;
  n = strip_eol(p, n);
  if (pcol_rprof_is_header(p, n, &flags, &iv, &ok)) {
    pcol_rprof_ftab_reset(&r->ft);
  } else if (pcol_rprof_is_fileline(p, n, &num, &path, &plen, &ok) && ok) {
    int rc = pcol_rprof_ftab_add(&r->ft, num, path, plen, 0);
    if (rc) return pcol_error_set(r->err, rc, "rprof export: %s", pcol_strerror(rc));
  }
  return PCOL_OK;
}

/* Writes this source's text lines placed before sample id `upto` (or all). */
static int flush_text(rp_out *r, uint64_t upto, int all) {
  for (; r->tl_cur < r->ntl; r->tl_cur++) {
    if (pcol_view_u32(&r->tl_src, r->tl_cur) != r->src) continue;
    if (!all && pcol_view_u64(&r->tl_before, r->tl_cur) > upto) break;
    pcol_str t;
    int rc = str(r, pcol_view_u32(&r->tl_text, r->tl_cur), &t);
    if (rc) return rc;
    if (!t.ptr) t.ptr = "", t.len = 0;
    if ((rc = apply_text_line(r, t.ptr, t.len))) return rc;
    emit(r, t.ptr, t.len);
  }
  return PCOL_OK;
}

/* ------------------------------------------------------- samples */

/* Sample `row`'s time by its source's default value when that is a stored
 * time (THE span rule's rule 3, lasts.c: the type and its ns a unit), of
 * the selected share (pcol_scale), in ns; 0 when none. */
static int64_t row_time_ns(rp_out *r, uint32_t s, uint64_t row, int64_t num, int64_t den) {
  const pcol_lasts *l = &r->lasts[s];
  int64_t v;
  if (!l->tvt || l->tvt == PCOL_VT_TIME) return 0;
  int has = r->pick.src && l->tvt == r->pick.vt ? pcol_kin_pick_value(&r->pick, &r->sc, row, s, &v)
                                                 : pcol_sample_value(&r->sc, row, l->tvt, &v);
  if (!has || v <= 0) return 0;
  __int128 t = (__int128)pcol_scale(v, num, den) * l->tscale;
  return t > INT64_MAX ? INT64_MAX : t < 0 ? 0 : (int64_t)t;
}

/* How many lines sample `row` of source s is: its time in ticks of
 * tiv_ns[s] when the source writes its time (choose_ticks), carried over
 * the source's samples (the running total rounded, half up, less what was
 * written: each sample within a tick, the source's total within half a
 * tick, and exact when every time is a whole number of ticks); else its
 * count (THE count rule, pcol_sample_count) of the selected share. */
static int64_t row_lines(rp_out *r, uint32_t s, uint64_t row, int64_t num, int64_t den) {
  if (!r->tiv_ns || !r->tiv_ns[s])
    return pcol_scale(pcol_sample_count(&r->sc, row, r->cvt[s]), num, den);
  __int128 iv = r->tiv_ns[s], c0 = r->cum[s], c1 = c0 + row_time_ns(r, s, row, num, den);
  r->cum[s] = c1;
  return (int64_t)((c1 + iv / 2) / iv - (c0 + iv / 2) / iv);
}

static int on_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  rp_out *r = ctx;
  int rc;
  uint64_t id = row + 1;
  if (r->verbatim && (rc = flush_text(r, id, 0))) return rc;
  int64_t times = row_lines(r, r->src, row, num, den);
  if (times <= 0) return PCOL_OK;
  /* bounded: choose_layout counted these lines (at most RPROF_MAX_LINES) */
  if (r->unified) times *= (int64_t)r->mult[r->src];
  /* the stored original line, if any */
  while (r->sx_cur < r->nsx && pcol_view_u32(&r->sx_sample, r->sx_cur) < id) r->sx_cur++;
  pcol_str text = {NULL, 0};
  if (r->verbatim && r->sx_cur < r->nsx && pcol_view_u32(&r->sx_sample, r->sx_cur) == id) {
    if ((rc = str(r, pcol_view_u32(&r->sx_text, r->sx_cur), &text))) return rc;
    if (!text.ptr) text.ptr = "";
  }
  if (!text.ptr) {
    uint32_t stack = pcol_view_u32(&r->s_stack, row);
    if (!r->verbatim && stack == 0) { /* Rprof has no empty line: counted apart for the notes */
      if (r->empty) r->empty[r->src] += (uint64_t)times / (r->unified ? r->mult[r->src] : 1);
      return PCOL_OK;
    }
    if (!r->verbatim && !r->gen_open) {
      char h[64];
      int k = snprintf(h, sizeof h, "%ssample.interval=%" PRIu64,
                       r->any_srcrefs ? "line profiling: " : "", r->gen_interval);
      emit(r, h, (size_t)k);
      r->gen_open = 1;
    }
    if ((rc = collect(r, stack, &r->xf)) || (rc = render_row(r, row, &r->xf))) return rc;
    text.ptr = (const char *)r->render.data;
    text.len = r->render.len;
  }
  /* `times` copies: refused at once when they cannot fit in the budget */
  uint64_t each = text.len + 2, all = (uint64_t)times;
  if (all > UINT64_MAX / each || pcol_budget_exceeded(r->bud, all * each))
    return pcol_budget_refuse(r->bud, r->err);
  for (int64_t k = 0; k < times; k++) emit(r, text.ptr, text.len);
  if (ferror(r->out)) return pcol_write_error(r->err, r->bud->werrno, "rprof export");
  if (row + 1 == r->end_row) r->emitted_last_sample = 1;
  return PCOL_OK;
}

/* first row in [lo, hi) whose source is >= s (sources are sorted) */
static uint64_t src_lower(rp_out *r, uint64_t lo, uint64_t hi, uint32_t s) {
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (pcol_view_u32(&r->s_src, mid) < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static int write_source(rp_out *r, uint32_t s) {
  int rc;
  r->src = s;
  r->verbatim = r->kind[s] == (KIND_RPROF | KIND_TEXT) && !r->unified;
  r->first_row = src_lower(r, 0, r->nsamples, s);
  r->end_row = src_lower(r, r->first_row, r->nsamples, s + 1);
  r->tl_cur = r->sx_cur = 0;
  r->emitted_last_sample = 0;
  r->emitted_in_source = 0;
  r->final_nl0 = 0;
  if (r->verbatim) {
    pcol_rprof_ftab_reset(&r->ft);
    r->gen_open = 0;
    r->eol = meta_is(r, s, RPROF_META_EOL, "crlf") ? "\r\n" : "\n";
    r->final_nl0 = meta_is(r, s, RPROF_META_FINAL_NEWLINE, "0");
  } else {
    uint64_t iv = r->unified ? r->common_iv : source_interval(r, s);
    r->eol = "\n";
    if (r->gen_open && iv != r->gen_interval) r->gen_open = 0;
    if (!r->gen_open) {
      pcol_rprof_ftab_reset(&r->ft);
      r->gen_nextfile = 0;
      r->gen_interval = iv;
    }
  }
  pcol_select one = {0};
  if (r->sel) one = *r->sel;
  one.source_id = s;
  if ((rc = pcol_select_iter(r->f, &one, on_row, r, r->err))) return rc;
  if (r->verbatim) {
    /* trailing header/#File lines only when the selection reached the end */
    int complete = !r->ranged || r->emitted_last_sample;
    if (complete) {
      if ((rc = flush_text(r, 0, 1))) return rc;
      if (r->emitted_in_source && r->final_nl0) r->may_drop = 1;
    }
  }
  return PCOL_OK;
}

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Rprof has one line per tick: a weight of 10^12 (a collapsed-stack count,
 * say) cannot be written.  Past this many lines (31 days at 10 ms) the export
 * is refused before anything is written. */
#define RPROF_MAX_LINES (1ULL << 28)

typedef struct line_count {
  rp_out *r;
  uint64_t lines;
  uint64_t *raw;     /* per source: its lines at its own interval */
  unsigned char *has; /* per source: it writes a line */
  __int128 *tns;     /* per source: its time value's sum, ns (r->lasts[s].tvt) */
  uint64_t *gns;     /* per source: the greatest common divisor of its times, ns */
  uint64_t *craw;    /* per source: raw by the count rule (count_row), before choose_ticks */
} line_count;

static int count_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  line_count *c = ctx;
  rp_out *r = c->r;
  uint32_t s = pcol_view_u32(&r->s_src, row);
  if (s == 0 || s > r->nsources) return PCOL_OK; /* write_source never reaches it */
  if (r->lack && r->lack[s]) return PCOL_OK;     /* no line: never written (lack_stated) */
  int64_t t = row_lines(r, s, row, num, den), ns = row_time_ns(r, s, row, num, den);
  if (ns > 0) c->gns[s] = gcd((uint64_t)ns, c->gns[s]);
  if (ns > 0) c->tns[s] += ns; /* every sample's: row_lines writes a time of a count of 0 too */
  r->neg_rows += t < 0;
  if (t <= 0) return PCOL_OK;
  c->lines += (uint64_t)t;
  c->raw[s] += (uint64_t)t;
  /* an empty stack is a line only in an Rprof source written verbatim */
  if (pcol_view_u32(&r->s_stack, row) || r->kind[s] == (KIND_RPROF | KIND_TEXT)) c->has[s] = 1;
  return c->lines > RPROF_MAX_LINES ? 1 : 0; /* 1 stops the walk early */
}

/* v rounded to 3 significant digits, half up (v <= INT64_MAX: no overflow) */
static uint64_t round_3_digits(uint64_t v) {
  uint64_t p = 1;
  while (v / p >= 1000) p *= 10;
  return (v + p / 2) / p * p;
}

/* How the selected sources are written.  One source that has lines is
 * written as before: an Rprof source byte for byte (with the segments that
 * R's Rprof(append = TRUE) wrote in it), any other under one header of its
 * interval.  Several share ONE header: R's summaryRprof reads the first line
 * as the header and every later one as a sample (a second header is a frame
 * 'sample.interval=20000' of one tick, and its interval is ignored), so a
 * header per source gave a wrong total.  The header's interval is the
 * greatest common divisor of the sources' intervals, and a sample of a
 * source of interval I is written count x I / GCD times: summaryRprof's
 * times are then each source's count x interval.  Rprof sources are
 * rendered like the others then (no verbatim text); one whose memory
 * fields or per-run intervals cannot be kept under one header is refused.
 * Sets r->unified, r->common_iv, r->mult; *lines: the lines to write. */
static int choose_layout(rp_out *r, const pcol_select *sel, line_count *lc, uint64_t *lines) {
  uint32_t n = 0;
  uint64_t g = 0, lo = UINT64_MAX, hi = 0, total = 0;
  *lines = lc->lines;
  if (lc->lines > RPROF_MAX_LINES) return PCOL_OK; /* refused by the caller */
  for (uint32_t s = 1; s <= r->nsources; s++) {
    if ((sel && sel->source_id && s != sel->source_id) || !lc->has[s]) continue;
    n++;
    uint64_t iv = source_interval(r, s);
    g = gcd(iv, g);
    if (iv < lo) lo = iv;
    if (iv > hi) hi = iv;
  }
  if (n < 2) return PCOL_OK;
  for (uint32_t s = 1; s <= r->nsources; s++) {
    if ((sel && sel->source_id && s != sel->source_id) || !lc->has[s] || !(r->kind[s] & KIND_RPROF))
      continue;
    pcol_str fl;
    pcol_error e = {0};
    uint64_t a = 0, b = 0;
    if (!pcol_meta_get(r->f, s, RPROF_META_FLAGS, &fl, &e) && fl.ptr && fl.len >= 6 &&
        memcmp(fl.ptr, "memory", 6) == 0)
      return pcol_error_set(r->err, PCOL_EUNSUPPORTED,
                            "rprof export: source %u is an Rprof memory profile: its memory "
                            "fields cannot be written under the one header of %u sources "
                            "(R's summaryRprof reads only the first header); export it "
                            "alone with --source %u",
                            s, n, s);
    if (meta_u64(r, s, RPROF_META_INTERVAL_MIN_US, &a) &&
        meta_u64(r, s, RPROF_META_INTERVAL_MAX_US, &b) && a != b)
      return pcol_error_set(r->err, PCOL_EUNSUPPORTED,
                            "rprof export: source %u is an Rprof file of runs of different "
                            "intervals (%" PRIu64 " to %" PRIu64 " us, Rprof append = TRUE): "
                            "they cannot be written under the one header of %u sources (R's "
                            "summaryRprof reads only the first header); export it alone "
                            "with --source %u",
                            s, a, b, n, s);
  }
  r->mult = calloc(r->nsources + 1, sizeof *r->mult);
  if (!r->mult) return pcol_oom(r->err);
  for (uint32_t s = 1; s <= r->nsources; s++) {
    if ((sel && sel->source_id && s != sel->source_id) || !lc->has[s]) continue;
    uint64_t m = source_interval(r, s) / g, raw = lc->raw[s];
    r->mult[s] = m;
    total += raw > (RPROF_MAX_LINES + 1 - total) / m ? RPROF_MAX_LINES + 1 - total : raw * m;
  }
  if (total > RPROF_MAX_LINES)
    return pcol_error_set(r->err, PCOL_ETOOBIG,
                          "rprof export: the %u sources' intervals (%" PRIu64 " to %" PRIu64
                          " us) share one header (R's summaryRprof reads only the first) of "
                          "their greatest common divisor, %" PRIu64
                          " us, each sample written interval / %" PRIu64
                          " times: more than %llu lines; export the sources one at a time "
                          "with --source N",
                          n, lo, hi, g, g, (unsigned long long)RPROF_MAX_LINES);
  r->unified = 1;
  r->common_iv = g;
  *lines = total;
  return PCOL_OK;
}

/* Which sources write their time (choose_ticks): when the selected sources
 * are alike (one kind of time, none an Rprof source), every one of them;
 * else a "free" source, of a measured time and no interval of its own (V8's
 * wall) or one that is not its time's tick (own_tick: a pprof of period
 * 1 us and 39.67 s of wall in 27 samples, Node's; a JFR pprof of period 1 s
 * and 4.78 s of cpu in 359), beside the others' ticks.  (Before, such a
 * source beside a Tachyon one was written as count x period: 27 us for
 * 39.67 s, 359 s for 4.78 s; review diff6 F1.)  Its own interval stays out
 * of the grid (choose_ticks): Node's 1 us would make it. */
/* A source's own interval (us) when it is its time's tick: it divides every
 * time and the time is the count x it (lc->craw: the count rule's lines,
 * before choose_ticks changed lc->raw); else 0. */
static uint64_t own_tick(rp_out *r, const line_count *lc, uint32_t s) {
  uint64_t own = own_interval(r, s), n = (lc->craw ? lc->craw : lc->raw)[s];
  if (!own || own > UINT64_MAX / 1000 || lc->gns[s] % (own * 1000)) return 0;
  return lc->tns[s] == (__int128)n * own * 1000 ? own : 0;
}

static int writes_time(rp_out *r, const line_count *lc, uint32_t s, int alike) {
  if ((r->kind[s] & KIND_RPROF) || !r->lasts[s].tvt || r->lasts[s].tvt == PCOL_VT_TIME) return 0;
  return alike || (!own_tick(r, lc, s) && lc->tns[s] > 0);
}

/* A source whose default value is a stored time (pprof's cpu or wall,
 * V8's wall, perf's cpu-clock) writes that time, not its count: Rprof says
 * only "this stack for one interval", so a sample is its time in ticks
 * (row_lines).  Its own tick, in whole us: the source's own interval (its
 * period) when it divides every time, else the times' greatest common
 * divisor, either when the lines stay within RPROF_EXACT_LINES (or the
 * count's lines): exact, so cpu = count x period is written as before, one
 * line per count; else (times of any ns, async-profiler's) its own
 * interval, else its time per counted sample (mean_us), each sample
 * rounded (rounded[s] = 1: the caller notes it).  A source whose time is 0
 * in every sample writes no sample line (rounded[s] = 2: noted too):
 * summaryRprof's 0 s is pcol top's, where its counts were ticks of a time
 * it does not have.
 * Several sources share one header (choose_layout), so the grid comes
 * first: the greatest common divisor of the ticks of the sources that have
 * an interval of their own (and of the others' intervals: counted sources,
 * Rprof's), or, when none has, of the free sources' own ticks; then every
 * source that writes its time writes it in ticks of that grid, carried as
 * above (each sample within a tick, the source's total within half a
 * tick) -- but a source exact in its own tick when that is a multiple of
 * the grid, which is written as before, its ticks repeated (choose_layout
 * refuses what cannot be so, naming the gcd).  (Before, each source kept its
 * own tick and the header was their gcd: a V8 source beside a Tachyon one
 * was written at its mean time per sample, 1.9 ms, on a grid of 10 us or
 * even 1 us, 620,650 lines for 535 samples, and a function's time was its
 * samples x the mean: work 11.46 ms for 7.29; review diff5 F1.)  Sets
 * tiv_ns, grid_us and, for those sources, lc->raw (the carried rounding's
 * total) and lc->lines. */
#define RPROF_EXACT_LINES (1ULL << 16)
static int choose_ticks(rp_out *r, const pcol_select *sel, line_count *lc, int alike) {
  if (!(r->tiv_ns = calloc(r->nsources + 1, sizeof *r->tiv_ns)) ||
      !(r->cum = calloc(r->nsources + 1, sizeof *r->cum)) ||
      !(r->rounded = calloc(r->nsources + 1, 1)))
    return pcol_oom(r->err);
  uint64_t lines = 0, grid = 0, free_g = 0; /* us */
  for (uint32_t s = 1; s <= r->nsources; s++) {
    if ((sel && sel->source_id && s != sel->source_id) || !lc->has[s]) continue;
    if (!writes_time(r, lc, s, alike)) { /* its ticks: its interval */
      grid = gcd(source_interval(r, s), grid);
      continue;
    }
    __int128 tot = lc->tns[s];
    uint64_t g = lc->gns[s], own = own_interval(r, s), most = lc->raw[s];
    if (tot <= 0) {
      r->tiv_ns[s] = (own && own <= UINT64_MAX / 1000 ? own : 10000) * 1000;
      r->rounded[s] = 2;
      continue;
    }
    uint64_t iv = 0;
    if (most < RPROF_EXACT_LINES) most = RPROF_EXACT_LINES;
    if (own && own <= UINT64_MAX / 1000 && g % (own * 1000) == 0 && tot / (own * 1000) <= most)
      iv = own * 1000;
    else if (g % 1000 == 0 && tot / g <= most)
      iv = g;
    else {
      uint64_t us = own ? own : r->mean_us[s] ? r->mean_us[s] : 10000;
      iv = us <= UINT64_MAX / 1000 ? us * 1000 : UINT64_MAX / 1000 * 1000;
      r->rounded[s] = 1;
    }
    r->tiv_ns[s] = iv;
    if (own_tick(r, lc, s)) grid = gcd(iv / 1000, grid);
    else free_g = gcd(iv / 1000, free_g); /* a free source's: none, or one not dividing its times */
  }
  r->grid_us = grid ? grid : free_g;
  uint64_t giv = r->grid_us && r->grid_us <= UINT64_MAX / 1000 ? r->grid_us * 1000 : 0;
  for (uint32_t s = 1; s <= r->nsources; s++) {
    if (r->tiv_ns[s] && r->rounded[s] == 2) {
      if (giv) r->tiv_ns[s] = giv; /* no line: the grid stays the others' */
      lc->raw[s] = 0;
    } else if (r->tiv_ns[s]) {
      __int128 tot = lc->tns[s];
      /* on the shared grid: a source rounded to its own tick, or whose
       * tick is no multiple of the grid (an exact one is written as it
       * was, its ticks mult times: choose_layout) */
      if (giv && giv != r->tiv_ns[s] && (r->rounded[s] || r->tiv_ns[s] % giv)) {
        r->tiv_ns[s] = giv;
        r->rounded[s] = lc->gns[s] % giv == 0 ? 0 : 3;
      }
      uint64_t iv = r->tiv_ns[s];
      __int128 n = (tot + iv / 2) / iv;
      lc->raw[s] = n > (__int128)RPROF_MAX_LINES ? RPROF_MAX_LINES + 1 : (uint64_t)n;
    }
    lines += lc->raw[s];
  }
  lc->lines = lines;
  return PCOL_OK;
}

/* The layout from the count rule's lines (lc->craw, r->count_lines):
 * each source's ticks (choose_ticks, when `times`), then the one header
 * (choose_layout); *lines: the lines to write.  Run again for the
 * fallback of the free sources (r->fell), so it starts afresh. */
static int lay_out(rp_out *r, const pcol_select *sel, line_count *lc, int times, int alike, uint64_t *lines) {
  free(r->mult);
  free(r->tiv_ns);
  free(r->cum);
  free(r->rounded);
  r->mult = r->tiv_ns = NULL;
  r->cum = NULL;
  r->rounded = NULL;
  r->unified = 0, r->common_iv = 0, r->grid_us = 0;
  memcpy(lc->raw, lc->craw, (r->nsources + 1) * sizeof *lc->raw);
  lc->lines = r->count_lines;
  int rc = times ? choose_ticks(r, sel, lc, alike) : PCOL_OK;
  return rc ? rc : choose_layout(r, sel, lc, lines);
}

/* Sources whose own defaults differ but which state one together (a JFR
 * recording's cpu: THE default rule, pcol_selection_default_type) are
 * written as pcol top counts them: the sources that lack that value count
 * 0, so they write no line (r->lack), and the others their time in ticks
 * (choose_ticks).  Without such a default every sample stays one tick of
 * its source (the CLI warns).  (Before, a JDK recording's allocation and
 * native-method samples were ticks of CPU time: 1.41 s for top's 1.37 s.) */
static int lack_stated(rp_out *r, const pcol_select *sel) {
  uint32_t chosen = 0;
  int d = 0;
  pcol_view ss, sv;
  PCOL_RETURN_NOT_OK(pcol_selection_default_type(r->f, sel, &chosen, &d, r->err));
  r->differ = d;
  if (d != 2 || !chosen) return PCOL_OK;
  PCOL_RETURN_NOT_OK(pcol_column(r->f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, r->err));
  PCOL_RETURN_NOT_OK(pcol_column(r->f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, r->err));
  if (!(r->lack = malloc(r->nsources + 1))) return pcol_oom(r->err);
  memset(r->lack, 1, r->nsources + 1);
  for (uint64_t i = 0; i < pcol_rows(r->f, PCOL_T_SOURCE_VALUE_TYPES); i++) {
    uint32_t src = pcol_view_u32(&ss, i);
    if (src >= 1 && src <= r->nsources && pcol_view_u32(&sv, i) == chosen) r->lack[src] = 0;
  }
  return PCOL_OK;
}

/* --value (opt->value): each source writes that value's time in ticks
 * (choose_ticks, as a source whose default it is: a perf recording of
 * cpu-clock and page-faults, whose default is the first event seen), as
 * pcol top --value counts it: a source without it counts 0, so writes no
 * line (r->lack, as lack_stated's); an Rprof source's time is its ticks,
 * written as they are.  The count (samples) writes each source's counted
 * samples as lines at its interval (below; it was refused as "not a time"
 * although an Rprof line is a sample: review diff5 m5).  Any other value
 * that is no time is refused: Rprof's lines are ticks of time.  (Before,
 * --value was refused for rprof, and every sample of both events was a
 * tick of 10 ms: 1.92 s in summaryRprof for top --value cpu-clock's 184 ms;
 * review 13 m3.) */
static int value_asked(rp_out *r, const pcol_value_sel *v) {
  pcol_lasts l;
  memset(&l, 0, sizeof l);
  uint32_t vt = v->vt_id;
  /* the count ("samples", or N naming samples/count): an Rprof line is a
   * sample, so each source writes its count (THE count rule) at its
   * interval, as a source of counted samples does (10 ms without one,
   * noted); a source without the stored count type asked for writes none */
  r->count_asked = vt == 0;
  for (uint32_t s = 1; !r->count_asked && s <= r->nsources; s++) r->count_asked = r->cvt[s] && r->cvt[s] == vt;
  if (r->count_asked) {
    free(r->lack);
    r->lack = NULL;
    if (vt) {
      if (!(r->lack = malloc(r->nsources + 1))) return pcol_oom(r->err);
      PCOL_RETURN_NOT_OK(pcol_sources_having(r->f, vt, &vt, 1, r->lack, r->err));
      r->lack[0] = 1;
      for (uint32_t s = 1; s <= r->nsources; s++) r->lack[s] = !r->lack[s];
    }
    for (uint32_t s = 1; s <= r->nsources; s++)
      if (!(r->kind[s] & KIND_RPROF)) r->lasts[s].tvt = 0, r->lasts[s].tscale = 0, r->lasts[s].points = 0;
    return PCOL_OK;
  }
  if (vt != PCOL_VT_WEIGHT && vt != PCOL_VT_RPROF_ALLOC) PCOL_RETURN_NOT_OK(pcol_lasts_type(&l, r->f, vt, r->err));
  if (!l.tvt) {
    int tl = (int)pcol_utf8_cut(v->type.ptr, v->type.len, 80), ul = (int)pcol_utf8_cut(v->unit.ptr, v->unit.len, 40);
    return pcol_error_set(r->err, PCOL_EINVAL,
                          "rprof export: --value %.*s/%.*s is not a time; Rprof's lines are ticks of time: "
                          "choose a time value (nanoseconds, microseconds, milliseconds, seconds) or samples "
                          "(a line per counted sample), or write pprof, speedscope, Firefox or collapsed "
                          "output, which weigh samples by it",
                          tl, v->type.ptr ? v->type.ptr : "", ul, v->unit.ptr ? v->unit.ptr : "");
  }
  free(r->lack);
  if (!(r->lack = malloc(r->nsources + 1))) return pcol_oom(r->err);
  PCOL_RETURN_NOT_OK(pcol_sources_having(r->f, vt, &vt, 1, r->lack, r->err)); /* (then negated) */
  r->lack[0] = 1;
  for (uint32_t s = 1; s <= r->nsources; s++) {
    r->lack[s] = !r->lack[s];
    if (!(r->kind[s] & KIND_RPROF)) r->lasts[s].tvt = l.tvt, r->lasts[s].tscale = l.tscale, r->lasts[s].points = 0;
  }
  return PCOL_OK;
}

/* THE rule of what an Rprof line of a source that writes no time stands
 * for, when it is not what the source measured, and its note (one place
 * for every importer).  A source whose default value is neither a time nor
 * the count (a heap profile's alloc_space/bytes, alloc_objects/count) when
 * the selection's sources agree on it: Rprof's lines are ticks of time, so
 * its samples were written as ticks of their count, and summaryRprof's
 * seconds are those rows x the interval, not bytes: 119.51 s of "CPU" for
 * a heap profile of 2 TB, and a top function by rows, not by bytes, with
 * nothing said (review 9 F2).  A source of counted samples that states no
 * period (perf samples taken at a frequency, whose period varies; counts
 * of collapsed stacks): each sample is one tick of pcol's 10 ms, a time the
 * profile does not state (review 10 F3: samples 250 us apart written as 10
 * ms each; a source with a period, Tachyon's interval or JFR's native
 * samples' 20 ms, writes its ticks at that period and needs no note).  The
 * export still writes them (Rprof has nothing closer), with this note;
 * sources whose defaults differ have the CLI's warning, and a default the
 * sources state together is lack_stated's. */
static void note_not_time(rp_out *r, const pcol_select *sel, const uint8_t *has,
                          const pcol_export_options *opt) {
  uint32_t chosen = 0;
  int d = 0;
  pcol_view ty, un;
  /* (the count asked for: every source's samples are counted, whatever
   * their defaults) */
  if ((!r->count_asked && (pcol_selection_default_type(r->f, sel, &chosen, &d, NULL) || d)) ||
      pcol_column(r->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, NULL) ||
      pcol_column(r->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, NULL))
    return;
  uint64_t said = 0, more = 0;
  for (uint32_t s = 1; s <= r->nsources; s++) {
    uint32_t vt = 0;
    pcol_str t, u;
    if ((sel && sel->source_id && s != sel->source_id) || !has[s] || (r->kind[s] & KIND_RPROF) ||
        r->lasts[s].tvt || (r->lack && r->lack[s]) || (!r->count_asked && pcol_source_default_types(r->f, s, s, &vt, NULL)))
      continue;
    char n[400];
    if (!vt || vt == r->cvt[s]) { /* the count */
      if (own_interval(r, s)) continue;
      if (said == NOTES_SHOWN && ++more) continue;
      const char *what = NULL; /* stated, but no interval (own_interval) */
      int64_t per = pcol_source_interval_stated(r->f, s, &what);
      char why[200] = "it states no sampling period";
      /* (a period is pprof's; a Firefox or speedscope copy states an
       * interval: review diff5 m3) */
      if (per > 0)
        snprintf(why, sizeof why, "its %s, %" PRId64 " ns, is no sampling interval (longer "
                 "than the profile, or its ticks add up past int64 ns)", what, per);
      snprintf(n, sizeof n,
               "source %u: its samples are counted and %s, so each is "
               "written as a tick of %" PRIu64 " us, pcol's default: summaryRprof's seconds are its "
               "samples x %g ms, not a time the profile measured",
               s, why, source_interval(r, s), (double)source_interval(r, s) / 1000);
      pcol_export_say(opt, PCOL_EXPORT_DATA, n);
      said++;
      continue;
    }
    if (vt > pcol_rows(r->f, PCOL_T_VALUE_TYPES) || pcol_string(r->f, pcol_view_u32(&ty, vt - 1), &t, NULL) ||
        pcol_string(r->f, pcol_view_u32(&un, vt - 1), &u, NULL))
      continue;
    if (said == NOTES_SHOWN && ++more) continue;
    int tl = (int)pcol_utf8_cut(t.ptr, t.len, 60), ul = (int)pcol_utf8_cut(u.ptr, u.len, 40);
    const char *tp = t.ptr ? t.ptr : "", *up = u.ptr ? u.ptr : "";
    snprintf(n, sizeof n,
             "source %u: its default value %.*s/%.*s is not a time, which Rprof's lines are: each "
             "sample is written as its weight in ticks of %" PRIu64 " us, so summaryRprof's seconds "
             "count the samples, not %.*s; pprof, speedscope and Firefox output keep %.*s",
             s, tl, tp, ul, up, source_interval(r, s), tl, tp, tl, tp);
    pcol_export_say(opt, PCOL_EXPORT_DATA, n);
    said++;
  }
  if (more) {
    char n[200];
    snprintf(n, sizeof n, "and %" PRIu64 " more source%s whose samples are written as ticks likewise, not a "
             "time they measured", more, more > 1 ? "s" : "");
    pcol_export_say(opt, PCOL_EXPORT_DATA, n);
  }
}

/* The lines the output budget grows with: those of sources whose lines
 * are ticks of an interval they state (pprof's period, Tachyon's, an
 * Rprof file's own lines), a measured time, or samples a profiler counted
 * (a declared samples/count: a pyroscope profile of 234084 samples in 45
 * KB, whose period is no interval, is 214 MB of Rprof).  A bare weight
 * that states neither (a collapsed stack's count) writes a line per sample
 * it claims, at pcol's 10 ms: a 12-byte collapsed file claiming 268435456
 * samples wrote 1.3 GB of Rprof, and an Rprof file's cpu nanoseconds
 * exported as collapsed counts 7.9 GB, the budget growing with the very
 * count (review 19 F1).  Such lines are held to the budget of the input's
 * size. */
static uint64_t stated_lines(rp_out *r, const pcol_select *sel, const line_count *lc, uint64_t lines) {
  uint64_t n = 0;
  int all = 1;
  for (uint32_t s = 1; s <= r->nsources; s++) {
    if ((sel && sel->source_id && s != sel->source_id) || !lc->has[s]) continue;
    if ((r->kind[s] & KIND_RPROF) || own_interval(r, s) || pcol_count_vt(r->cvt[s])) n += lc->raw[s];
    else all = 0;
  }
  return all || n > lines ? lines : n;
}

/* Refuses, before a byte is written (and before the measuring pass), an
 * output whose lines cannot fit in the budget even at their shortest
 * ("\"f\" " and a line end, RPROF_MIN_LINE bytes), naming how many lines
 * the samples make: at once, not after writing gigabytes to a sink. */
#define RPROF_MIN_LINE 4
static int fits_budget(pcol_budget *bud, uint64_t lines, pcol_error *err) {
  uint64_t least = lines > UINT64_MAX / RPROF_MIN_LINE ? UINT64_MAX : lines * RPROF_MIN_LINE;
  if (!pcol_budget_exceeded(bud, least)) return PCOL_OK;
  int rc = pcol_budget_refuse(bud, err);
  char was[sizeof err->message];
  snprintf(was, sizeof was, "%s", err->message);
  bud->over = 0; /* nothing was written: the message is this one, not the close's */
  const char *tail = strstr(was, "the output would be larger than");
  pcol_error_set(err, rc, "rprof export: the selected samples make %llu lines (Rprof writes a line per tick of "
                 "its interval), at least %llu bytes, so %s", (unsigned long long)lines,
                 (unsigned long long)least, tail ? tail : was);
  return rc;
}

/* An export writes only what its own importer reads back: pcol's Rprof
 * reader keeps a sample's time in int64 ns, the sum of the intervals of
 * the lines before it (rprof_import.c add_sample), so the lines x the
 * header's interval must stay within INT64_MAX ns (292 years), else the
 * export is refused, nothing written.  (A pprof of period INT64_MAX ns,
 * which is no interval, and three samples of 2^62 ns was written at its
 * mean, sample.interval=4611686018427388, and pcol top refused the copy:
 * "sample time overflows int64 nanoseconds"; review 13 m2.)  A source
 * written back as it was read is its reader's already. */
static int fits_reader(rp_out *r, const pcol_select *sel, const line_count *lc, uint64_t lines) {
  uint64_t iv = r->unified ? r->common_iv : 0;
  for (uint32_t s = 1; !r->unified && s <= r->nsources; s++) {
    if ((sel && sel->source_id && s != sel->source_id) || !lc->has[s]) continue;
    if (r->kind[s] == (KIND_RPROF | KIND_TEXT)) return PCOL_OK;
    uint64_t v = source_interval(r, s);
    if (v > iv) iv = v;
  }
  if (!iv || (iv <= (uint64_t)INT64_MAX / 1000 && lines <= (uint64_t)INT64_MAX / (iv * 1000))) return PCOL_OK;
  return pcol_error_set(r->err, PCOL_ETOOBIG,
                        "rprof export: the selected samples' time, %" PRIu64 " lines of sample.interval=%" PRIu64
                        " (us), %.4g s, passes the int64 nanoseconds (292 years) in which pcol's Rprof reader "
                        "keeps a sample's time: not written; select fewer samples (--from/--to, --source N)",
                        lines, iv, (double)lines * (double)iv / 1e6);
}

/* A name of the file (a source's type, a value type's), "" when none. */
static pcol_str name_of(rp_out *r, const pcol_view *v, uint64_t row, uint64_t rows) {
  pcol_str t = {"", 0};
  if (row >= rows || pcol_string(r->f, pcol_view_u32(v, row), &t, NULL) || !t.ptr) t.ptr = "", t.len = 0;
  return t;
}

/* The tick each source was written in under the one header, when the
 * sources measure different values and are written as ticks (the CLI's
 * warning gives the rule; this note, after the export, which tick each
 * got): one line, the first sources' ticks and how many more.  (Before,
 * the warning gave the rule only, and a V8 source that fell back to 10 ms
 * a sample looked like one written at its time; review diff5 m1.) */
static void note_ticks(rp_out *r, const pcol_select *sel, const line_count *lc, const pcol_export_options *opt) {
  char n[1200], item[400];
  pcol_view ty;
  if (pcol_column(r->f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, NULL)) return;
  uint64_t nvt = pcol_rows(r->f, PCOL_T_VALUE_TYPES), more = 0;
  int first = 1;
  int k = snprintf(n, sizeof n, "the sources share sample.interval=%" PRIu64 " (us): ", r->common_iv);
  for (uint32_t s = 1; s <= r->nsources; s++) {
    if ((sel && sel->source_id && s != sel->source_id) || !lc->has[s]) continue;
    if (k > 760) {
      more++;
      continue;
    }
    pcol_str st = name_of(r, &r->so_type, s - 1, r->nsources);
    int sl = (int)pcol_utf8_cut(st.ptr, st.len, 40);
    uint32_t vt = r->lasts[s].tvt;
    pcol_str vn = vt && vt <= nvt ? name_of(r, &ty, vt - 1, nvt) : (pcol_str){"", 0};
    int vl = (int)pcol_utf8_cut(vn.ptr, vn.len, 60);
    uint64_t iv = source_interval(r, s), own = own_interval(r, s);
    if (r->kind[s] & KIND_RPROF)
      snprintf(item, sizeof item, "source %u (%.*s), its ticks of %" PRIu64 " us", s, sl, st.ptr, iv);
    else if (r->tiv_ns && r->tiv_ns[s])
      snprintf(item, sizeof item, "source %u (%.*s), its %.*s time in ticks of %" PRIu64 " us%s", s, sl, st.ptr,
               vl, vn.ptr, iv, r->rounded && r->rounded[s] ? ", rounded and carried over" : "");
    else if (r->fell && writes_time(r, lc, s, 0))
      snprintf(item, sizeof item,
               "source %u (%.*s), %" PRIu64 " us a sample, pcol's default, not its %.*s time (in ticks of "
               "the others' grid it made more than %llu lines, Rprof's most)",
               s, sl, st.ptr, iv, vl, vn.ptr, (unsigned long long)RPROF_MAX_LINES);
    else
      snprintf(item, sizeof item, "source %u (%.*s), %" PRIu64 " us a sample (%s)", s, sl, st.ptr, iv,
               own ? "its interval" : "pcol's default: it states no interval");
    k += snprintf(n + k, sizeof n - (size_t)k, "%s%s", first ? "" : "; ", item);
    first = 0;
  }
  if (more) snprintf(n + k, sizeof n - (size_t)k, "; and %" PRIu64 " more", more);
  pcol_export_say(opt, PCOL_EXPORT_DATA, n);
}

/* a sink that only counts (the dry run below) */
static ssize_t sink_write(void *c, const char *buf, size_t size) {
  (void)c, (void)buf;
  return (ssize_t)size;
}

static int export_rprof(pcol_file *f, const pcol_select *sel, FILE *out, const pcol_export_options *opt,
                        int dry, uint32_t **wrote, pcol_error *err);

int pcol_export_rprof_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                          const pcol_export_options *opt, pcol_error *err) {
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  uint32_t *wrote = NULL;
  int rc = export_rprof(f, sel, out, opt, 0, &wrote, err);
  if (!rc) pcol_export_loss_note(f, sel, PCOL_FMT_RPROF, 0, opt, wrote); /* the labels and values it cannot hold */
  free(wrote);
  return rc;
}

/* What each source's lines are ticks of, for the loss note (loss.h's
 * wrote: a value type, 0 its count).  Where the sources' defaults agree, a
 * source's default time, or its count when the default is no time (a heap
 * profile's alloc_space, written as ticks of its weight: the note named
 * every value but alloc_space, which no line holds; review h7).  When the
 * sources' defaults differ:
 * there the selection's default is the count (THE default rule), but a
 * source of a measured time writes that time (choose_ticks, or its count
 * at an interval that is its time's tick), so the note named as lost the
 * off_cpu that 77 of an eBPF file's 82 sources are written in, 267.65 s
 * in summaryRprof (review rd13b F3).  A source fallen back to 10 ms a
 * sample (r->fell) writes its count; an Rprof source its own ticks.
 * NULL otherwise: the default (or --value) is what every source writes. */
static uint32_t *written_types(rp_out *r, const line_count *lc) {
  if (r->count_asked) return NULL;
  uint32_t *w = calloc(r->nsources + 1, sizeof *w);
  if (!w) return NULL; /* (the note then names the selection's default's losses) */
  uint64_t nvt = pcol_rows(r->f, PCOL_T_VALUE_TYPES);
  for (uint32_t s = 1; s <= r->nsources; s++) {
    uint32_t vt = r->lasts[s].tvt, d = 0;
    if (r->kind[s] & KIND_RPROF) w[s] = pcol_source_default_types(r->f, s, s, &d, NULL) ? 0 : d;
    else if (r->differ != 1 && vt > nvt) { /* (a derived time: the default's rule, loss.c) */
      free(w);
      return NULL;
    } else if (r->differ != 1) w[s] = vt; /* the default's time, else (0) the count */
    else if (vt && vt <= nvt && ((r->tiv_ns && r->tiv_ns[s]) || own_tick(r, lc, s))) w[s] = vt;
  }
  return w;
}

/* dry: this is the dry run (into a sink) of an export whose lines are mostly
 * copies of a sample (a weight of 500000 is 500000 lines): it runs first and
 * finds whether the output fits in the budget before a byte is written, so a
 * refused export costs no disk and no partial file of gigabytes. */
static int export_rprof(pcol_file *f, const pcol_select *sel, FILE *out, const pcol_export_options *opt,
                        int dry, uint32_t **wrote, pcol_error *err) {
  rp_out r;
  pcol_budget bud;
  memset(&r, 0, sizeof r);
  int rc = pcol_budget_open(&bud, f, opt, "rprof export", out, err);
  if (rc) return rc;
  r.f = f;
  r.out = bud.fp;
  r.bud = &bud;
  r.err = err;
  r.sel = sel;
  r.pending = "";
  r.eol = "\n";
  r.ranged = sel && (sel->has_from || sel->has_to);
  rc = load_views(&r);
  if (!rc) rc = pcol_sample_cols_init(&r.sc, f, err);
  if (!rc) rc = pcol_frames_init(&r.fr, f, err);
  if (!rc) rc = pcol_count_types(f, &r.cvt, err);
  if (!rc) rc = find_mem_types(&r);
  if (!rc) rc = scan_srcrefs(&r);
  if (!rc) rc = source_kinds(&r);
  if (!rc) rc = lack_stated(&r, sel);
  if (!rc && sel && sel->source_id > r.nsources)
    rc = pcol_error_set(err, PCOL_ENOTFOUND, "no source %u (the file has %" PRIu64 ")",
                        sel->source_id, r.nsources);
  line_count lc = {&r, 0, NULL, NULL, NULL, NULL, NULL};
  uint64_t lines = 0;
  if (!rc && (!(lc.raw = calloc(r.nsources + 1, sizeof *lc.raw)) ||
              !(lc.has = calloc(r.nsources + 1, 1)) ||
              !(lc.tns = calloc(r.nsources + 1, sizeof *lc.tns)) ||
              !(lc.gns = calloc(r.nsources + 1, sizeof *lc.gns)) ||
              !(r.lasts = calloc(r.nsources + 1, sizeof *r.lasts)) ||
              !(r.mean_us = calloc(r.nsources + 1, sizeof *r.mean_us)) ||
              !(r.empty = calloc(r.nsources + 1, sizeof *r.empty))))
    rc = pcol_oom(err);
  for (uint32_t s = 1; !rc && s <= r.nsources; s++)
    if (!(r.kind[s] & KIND_RPROF)) rc = pcol_lasts_init(&r.lasts[s], f, s, err);
  if (!rc && opt && opt->value) rc = value_asked(&r, opt->value);
  if (!rc) { /* (the kin rule's state, for the pick) */
    pcol_rtime rt;
    int asked = opt && opt->value;
    if (!(rc = pcol_rtime_init(&rt, f, err))) {
      rc = pcol_export_pick_make(&rt, f, sel, asked, asked ? opt->value->vt_id : 0, asked ? opt->value->column : 0,
                                 &r.pick, err);
      pcol_rtime_free(&rt);
    }
  }
  if (!rc) rc = pcol_select_iter(f, sel, count_row, &lc, err);
  r.count_lines = lc.lines;
  for (uint32_t s = 1; !rc && s <= r.nsources; s++)
    if (lc.raw[s] && lc.tns[s] > 0) { /* rounded to us, at least 1 */
      __int128 us = (lc.tns[s] / lc.raw[s] + 500) / 1000;
      r.mean_us[s] = us < 1 ? 1 : us > INT64_MAX ? (uint64_t)INT64_MAX : (uint64_t)us;
    }
  /* Sources of different times per sample share one header: a grid (the
   * greatest common divisor of their intervals, choose_layout) on which a
   * source that writes its time is carried (choose_ticks).  Sources of one
   * kind of time (V8's wall) without an interval of their own share the
   * gcd of their means, which are any numbers of us, so mostly 1 us:
   * rounded to 3 significant digits (at most 0.5% off; one source's mean
   * is rounded to 1 us) they share a grid of 10^(digits - 3) us.  (Written
   * at 10 ms a line, two V8 profiles of 250 us and 2 ms read as 3.13 s for
   * their 2.27 s.)  Beside a source of no time (counts: 10 ms a line) or
   * of another time, the sources are ticks alike, as unpack's warning says
   * (ODD-otlp-ebpf-profile's 77 off-CPU sources and 5 of counts: a grid of
   * 1 us, 267,802,223 lines) -- but for a "free" source, of a measured
   * time and no interval of its own (V8's wall) or one that is not its
   * time's tick (own_tick), which writes its time on the others' grid
   * (choose_ticks) when the lines stay within RPROF_MAX_LINES, else, when
   * that is fewer lines, each of its samples at 10 ms (r.fell: noted,
   * whatever the defaults): written at 10 ms a sample beside a
   * Tachyon profile, a V8 profile's 694 ms read as 3.68 s (review 13 F2). */
  uint64_t one = 0;
  uint32_t tvt = 0;
  int differ = 0, alike = 1;
  for (uint32_t s = 1; !rc && s <= r.nsources; s++) {
    if ((sel && sel->source_id && s != sel->source_id) || !lc.has[s]) continue;
    alike &= !(r.kind[s] & KIND_RPROF) && r.lasts[s].tvt && (!tvt || r.lasts[s].tvt == tvt);
    tvt = r.lasts[s].tvt;
    if (r.mean_us[s] && !own_interval(&r, s)) {
      differ |= one && r.mean_us[s] != one;
      one = r.mean_us[s];
    }
  }
  int kept = 0; /* !alike: a free source writes its time */
  for (uint32_t s = 1; !rc && (differ || !alike) && s <= r.nsources; s++) {
    int keep = alike || writes_time(&r, &lc, s, 0);
    r.mean_us[s] = keep ? round_3_digits(r.mean_us[s]) : 0;
    kept |= !alike && keep && lc.has[s] && !(sel && sel->source_id && s != sel->source_id);
  }
  int times = alike ? tvt != PCOL_VT_TIME : kept;
  if (!rc && !(lc.craw = malloc((r.nsources + 1) * sizeof *lc.craw))) rc = pcol_oom(err);
  if (!rc) {
    memcpy(lc.craw, lc.raw, (r.nsources + 1) * sizeof *lc.raw);
    rc = lay_out(&r, sel, &lc, times, alike, &lines);
  }
  /* the fallback only for what cannot be written: more than RPROF_MAX_LINES
   * (the budget grows with the lines); else the free sources' times, however
   * many lines that is.  (Before, past 64x the samples' lines: a pprof of
   * 10000 s of cpu and no period beside demo.out, 1,000,000 lines on its 10
   * ms grid, was written as 20 s, in silence; review diff6 F3.) */
  if (kept && (rc == PCOL_ETOOBIG || (!rc && lines > RPROF_MAX_LINES))) { /* the grid too fine for the free sources */
    pcol_error e2 = {0};
    uint64_t lines2 = 0;
    r.err = &e2;
    r.fell = 1;
    int rc2 = lay_out(&r, sel, &lc, 0, alike, &lines2);
    r.err = err;
    if (!rc2 && (rc || lines2 < lines)) {
      rc = PCOL_OK, lines = lines2;
      err->code = 0, err->message[0] = 0;
    } else { /* no fewer lines: their times, as before */
      r.fell = 0;
      rc = lay_out(&r, sel, &lc, times, alike, &lines);
    }
  }
  if (!rc && lc.lines > RPROF_MAX_LINES)
    rc = pcol_error_set(err, PCOL_ETOOBIG,
                        "rprof export: the selected samples make more than %llu lines, and Rprof "
                        "needs one line per tick of its interval",
                        (unsigned long long)RPROF_MAX_LINES);
  if (!rc) rc = fits_reader(&r, sel, &lc, lines);
  /* one line per unit of weight: the budget grows with the lines, but
   * only with those of a measured time (stated_lines); then it is refused
   * before anything is written when even the shortest lines cannot fit */
  if (!rc) pcol_budget_allow_lines(&bud, stated_lines(&r, sel, &lc, lines));
  if (!rc) rc = fits_budget(&bud, lines, err);
  if (!rc && !dry && lines > 2 * pcol_rows(f, PCOL_T_SAMPLES) + 1024) {
    cookie_io_functions_t io = {NULL, sink_write, NULL, NULL};
    FILE *sink = fopencookie(NULL, "w", io);
    if (!sink) rc = pcol_oom(err);
    else {
      rc = export_rprof(f, sel, sink, opt, 1, NULL, err);
      fclose(sink);
    }
  }
  int several = !(sel && sel->source_id) && r.nsources > 1;
  for (uint64_t s = 1; !rc && s <= r.nsources; s++) {
    if (sel && sel->source_id && s != sel->source_id) continue;
    if (several && !lc.has[s]) continue; /* no header of a source without lines */
    rc = write_source(&r, (uint32_t)s);
  }
  if (!rc && r.emitted == 0) {
    /* R cannot read an empty file: at least a header */
    char h[64];
    uint32_t s = sel && sel->source_id ? sel->source_id : 1;
    int k = snprintf(h, sizeof h, "sample.interval=%" PRIu64,
                     r.unified ? r.common_iv : s <= r.nsources ? source_interval(&r, s) : 10000);
    r.eol = "\n";
    emit(&r, h, (size_t)k);
  }
  if (!rc && !r.may_drop) fputs(r.pending, r.out);
  /* one note a source for the first NOTES_SHOWN, then one for the rest
   * with their sums (an eBPF file of 82 sources said 78 notes, 27 KB;
   * review 19 F8) */
  uint64_t said = 0, more = 0;
  double more_written = 0, more_time = 0, more_empty = 0;
  for (uint32_t s = 1; !rc && !dry && pcol_export_heard(opt) && r.rounded && s <= r.nsources; s++) {
    if (!r.rounded[s]) continue;
    if (said == NOTES_SHOWN) {
      uint64_t e = r.empty[s] < lc.raw[s] ? r.empty[s] : lc.raw[s];
      more++;
      more_written += (double)(lc.raw[s] - e) * ((double)r.tiv_ns[s] / 1e9);
      more_empty += (double)e * ((double)r.tiv_ns[s] / 1e9);
      more_time += (double)lc.tns[s] / 1e9;
      continue;
    }
    said++;
    char t[600], w[200];
    /* the ticks written: an empty stack's are not (on_row; review diff6 F2) */
    uint64_t em = r.empty[s] < lc.raw[s] ? r.empty[s] : lc.raw[s];
    double tick = (double)r.tiv_ns[s] / 1e9;
    int k = snprintf(w, sizeof w, "%.9g s written", (double)(lc.raw[s] - em) * tick);
    if (em)
      snprintf(w + k, sizeof w - (size_t)k, " (%.9g s of samples with an empty stack, which Rprof has no "
               "line for, left out)", (double)em * tick);
    if (r.rounded[s] == 2)
      snprintf(t, sizeof t,
               "source %u: %s is a time, 0 in every selected sample: no sample line "
               "written (summaryRprof reads 0 s, as pcol top)",
               s, opt->value ? "the value asked for" : "its default value");
    else if (r.rounded[s] == 3)
      snprintf(t, sizeof t,
               "source %u: its times are no whole number of ticks of the sources' shared "
               "sample.interval=%" PRIu64 " (us), so each sample is its time rounded to them, carried "
               "over: %s for %.9g s; a function's times are within a tick a sample of "
               "the source's",
               s, r.tiv_ns[s] / 1000, w, (double)lc.tns[s] / 1e9);
    else
      snprintf(t, sizeof t,
               "source %u: its times are no whole number of one interval within %llu lines, so "
               "each sample is its time rounded to ticks of sample.interval=%" PRIu64
               " (us), carried over: %s for %.9g s; a function's times are within a "
               "tick a sample of the source's",
               s, (unsigned long long)(lc.raw[s] > RPROF_EXACT_LINES ? lc.raw[s] : RPROF_EXACT_LINES),
               r.tiv_ns[s] / 1000, w, (double)lc.tns[s] / 1e9);
    pcol_export_say(opt, PCOL_EXPORT_DATA, t);
  }
  if (more) {
    char t[300], e[120] = "";
    if (more_empty > 0) snprintf(e, sizeof e, " (%.9g s of samples with an empty stack left out)", more_empty);
    snprintf(t, sizeof t, "and %" PRIu64 " more source%s whose times are rounded to ticks likewise: %.9g s "
             "written%s for %.9g s", more, more > 1 ? "s" : "", more_written, e, more_time);
    pcol_export_say(opt, PCOL_EXPORT_DATA, t);
  }
  /* the ticks are named whenever a source is not written at its time: the
   * sources' defaults differ, or the free ones fell back to 10 ms a sample */
  if (!rc && !dry && pcol_export_heard(opt) && (r.fell || (r.differ == 1 && !opt->value)) && r.unified)
    note_ticks(&r, sel, &lc, opt);
  if (!rc && !dry && pcol_export_heard(opt)) note_not_time(&r, sel, lc.has, opt);
  if (!rc && !dry && pcol_export_heard(opt) && r.neg_rows) { /* a base's samples (--base/--diff-base) */
    char t[300];
    snprintf(t, sizeof t, "%" PRIu64 " sample%s with a negative count (a difference of profiles), which Rprof "
             "cannot hold (a line is a tick): not written; pcol top counts them", r.neg_rows,
             r.neg_rows == 1 ? "" : "s");
    pcol_export_say(opt, PCOL_EXPORT_DATA, t);
  }
  if (!rc && wrote && pcol_export_heard(opt) && !opt->value) *wrote = written_types(&r, &lc);
  pcol_rprof_ftab_free(&r.ft);
  free(r.cvt);
  free(r.lasts);
  free(r.pick.src);
  free(r.mean_us);
  free(r.empty);
  free(r.lack);
  free(lc.tns);
  free(lc.gns);
  free(lc.craw);
  free(r.tiv_ns);
  free(r.cum);
  free(r.rounded);
  free(r.kind);
  free(r.mult);
  free(lc.raw);
  free(lc.has);
  pcol_buf_free(&r.frames);
  pcol_buf_free(&r.render);
  pcol_buf_free(&r.line);
  pcol_buf_free(&r.xf);
  pcol_buf_free(&r.anames);
  pcol_buf_free(&r.afix);
  return pcol_budget_close(&bud, rc, err);
}

int pcol_export_rprof(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  return pcol_export_rprof_opt(f, sel, out, NULL, err);
}
