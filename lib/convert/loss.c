/* loss.c — THE loss note of an export (loss.h): what the selected samples
 * have that the format cannot hold, said in one line.  Before it the
 * collapsed, Rprof, Perun, V8 and Chrome exports dropped labels and value
 * types without a word while smaller losses were warned of (review 19 F5),
 * so "no note" did not mean "nothing lost".  One table says what each
 * format holds (doc/mappings.md's table and "What each export says it
 * loses"); the exporters call this after writing. */
#include "loss.h"
#include "buf.h"     /* pcol_buf */
#include "bytes.h"   /* pcol_str_is, pcol_str_same */
#include "columns.h" /* pcol_columns */
#include "count.h"   /* pcol_count_types, pcol_selection_default_type */
#include "error.h"   /* pcol_oom */
#include "keys.h"    /* PCOL_THREAD_LABEL_KEYS, PCOL_THREAD_COMM_KEY, PCOL_THREAD_PID_KEY */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { L_NONE, L_THREADS, L_PROCS, L_ALL };        /* labels held */
enum { V_ONE, V_ONE_COUNT, V_RPROF, V_ALL };       /* value types held */

/* what each format holds; why: the reason the note gives; base: 1 when it
 * holds which samples are a -diff_base's base (pprof::base: the Firefox
 * export's pcolBase), besides the formats of every label */
static const struct holds {
  pcol_format fmt;
  int labels, values;
  const char *why;
  int base;
} holds[] = {
    {PCOL_FMT_PPROF, L_ALL, V_ALL, NULL, 1},
    {PCOL_FMT_OTLP, L_ALL, V_ALL, NULL, 1},
    {PCOL_FMT_COLLAPSED, L_NONE, V_ONE, "collapsed holds one value and no labels", 0},
    /* a line is a tick of the time written: the count, and R's memory
     * fields (rprof.alloc is made of them) where the samples have them */
    {PCOL_FMT_RPROF, L_NONE, V_RPROF, "Rprof holds one time as ticks, R's memory fields and no labels", 0},
    {PCOL_FMT_PERUN, L_NONE, V_ONE, "Perun holds one value and, but for a Perun profile's own, no labels", 0},
    {PCOL_FMT_V8, L_NONE, V_ONE_COUNT, "a V8 profile holds one time per sample and no labels", 0},
    {PCOL_FMT_CHROME, L_PROCS, V_ONE_COUNT,
     "a Chrome trace holds one time per sample and labels only as processes and threads", 0},
    {PCOL_FMT_SPEEDSCOPE, L_THREADS, V_ALL, "speedscope holds labels only as its timeline's threads", 0},
    {PCOL_FMT_FIREFOX, L_THREADS, V_ALL, "the Firefox Profiler holds labels only as threads", 1},
    {PCOL_FMT_PERFETTO, L_PROCS, V_ALL, "Perfetto holds labels only as processes and threads", 0},
};

/* the labels a thread is written with (THE thread rule's keys, the comm
 * THE thread-name rule names it by, its pid) and, L_PROCS, its process's name */
static const char *const thread_keys[] = {PCOL_THREAD_LABEL_KEYS, PCOL_THREAD_COMM_KEY, PCOL_THREAD_PID_KEY,
                                          "process_name"};
enum { NTHREAD_KEYS = sizeof thread_keys / sizeof thread_keys[0] };

/* R's memory fields, as the Rprof importer names them (mappings §1.1) */
static const char *const rprof_mem[] = {"vsize.small", "vsize.large", "nodes", "duplications"};

typedef struct scan {
  pcol_view s_src, s_ls, s_voff, v_type;
  uint64_t nls, nvals, nvt, nsrc;
  uint8_t *ls, *vt, *src; /* used label sets, present value types, sources */
  uint8_t *neq;           /* value types of a sample whose value is not its count */
  const uint8_t *cw;      /* sources whose count is written (0: a type equal to it is lost) */
  pcol_sample_cols sc;    /* (the count, THE count rule: cvt) */
  const uint32_t *cvt;
} scan;

static int scan_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  scan *c = ctx;
  (void)num, (void)den;
  uint32_t ls = pcol_view_u32(&c->s_ls, row), s = pcol_view_u32(&c->s_src, row);
  if (ls <= c->nls) c->ls[ls] = 1;
  if (s <= c->nsrc) c->src[s] = 1;
  uint64_t a = pcol_view_u64(&c->s_voff, row), b = pcol_view_u64(&c->s_voff, row + 1);
  int64_t n = pcol_sample_count(&c->sc, row, s <= c->nsrc ? c->cvt[s] : 0);
  for (uint64_t i = a; i < b && i < c->nvals; i++) {
    uint32_t t = pcol_view_u32(&c->v_type, i);
    if (t > c->nvt) continue;
    c->vt[t] = 1;
    int64_t v;
    if (!c->neq[t] && (s > c->nsrc || !c->cw[s] || !pcol_sample_value(&c->sc, row, t, &v) || v != n))
      c->neq[t] = 1;
  }
  return 0;
}

/* keep[u] = 2 for each present type u not held whose (type, unit) string
 * ids are those of a type held (keep 1): O(types log types) */
typedef struct names_key { uint32_t type, unit, vt; } names_key;
static int names_cmp(const void *pa, const void *pb) {
  const names_key *a = pa, *b = pb;
  if (a->type != b->type) return a->type < b->type ? -1 : 1;
  if (a->unit != b->unit) return a->unit < b->unit ? -1 : 1;
  return (a->vt > b->vt) - (a->vt < b->vt);
}
static int same_names(const scan *c, uint8_t *keep, const pcol_view *vt_type, const pcol_view *vt_unit,
                      pcol_error *err) {
  names_key *k = malloc((c->nvt + 1) * sizeof *k);
  if (!k) return pcol_oom(err);
  size_t nk = 0;
  for (uint64_t t = 1; t <= c->nvt; t++)
    if (keep[t] == 1 || (c->vt[t] && !keep[t]))
      k[nk++] = (names_key){pcol_view_u32(vt_type, t - 1), pcol_view_u32(vt_unit, t - 1), (uint32_t)t};
  if (nk > 1) qsort(k, nk, sizeof *k, names_cmp);
  for (size_t a = 0, b; a < nk; a = b) {
    int held = 0;
    for (b = a; b < nk && k[b].type == k[a].type && k[b].unit == k[a].unit; b++) held |= keep[k[b].vt] == 1;
    for (size_t i = a; held && i < b; i++)
      if (!keep[k[i].vt]) keep[k[i].vt] = 2;
  }
  free(k);
  return PCOL_OK;
}

/* 1 when out of memory */
static int put(pcol_buf *b, const char *s, size_t n) { return pcol_buf_append(b, s, n) != 0; }
static int puts0(pcol_buf *b, const char *s) { return put(b, s, strlen(s)); }

static int loss_note(pcol_file *f, const pcol_select *sel, pcol_format fmt, unsigned how,
                     const pcol_export_options *opt, const uint32_t *wrote, pcol_error *err) {
  const struct holds *h = NULL;
  for (size_t i = 0; i < sizeof holds / sizeof holds[0]; i++)
    if (holds[i].fmt == fmt) h = &holds[i];
  if (!h || (h->labels == L_ALL && h->values == V_ALL)) return PCOL_OK;
  int labels = h->labels;
  if ((how & PCOL_LOSS_NO_THREADS) && labels != L_ALL) labels = L_NONE;

  scan c;
  memset(&c, 0, sizeof c);
  pcol_view vt_type, vt_unit, lb_key, lb_str, ls_off;
  const pcol_column_req cols[] = {
      {&c.s_src, PCOL_T_SAMPLES, PCOL_C_S_SOURCE},         {&c.s_ls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET},
      {&c.s_voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS}, {&c.v_type, PCOL_T_VALUES, PCOL_C_V_TYPE},
      {&vt_type, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE},      {&vt_unit, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT},
      {&lb_key, PCOL_T_LABELS, PCOL_C_LB_KEY},             {&ls_off, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
      {&lb_str, PCOL_T_LABELS, PCOL_C_LB_STR},
  };
  PCOL_RETURN_NOT_OK(pcol_columns(f, cols, PCOL_NCOLS(cols), err));
  c.nls = pcol_rows(f, PCOL_T_LABELSETS);
  c.nvals = pcol_rows(f, PCOL_T_VALUES);
  c.nvt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  c.nsrc = pcol_rows(f, PCOL_T_SOURCES);
  uint64_t nstr = pcol_string_count(f), nlab = pcol_rows(f, PCOL_T_LABELS);
  uint8_t *key = calloc(nstr + 1, 1), *keep = calloc(c.nvt + 1, 1), *cw = calloc(c.nsrc + 1, 1);
  uint32_t *cvt = NULL, *next = NULL; /* next: the kin ring (pcol_value_kin) */
  double *factor = NULL;
  pcol_buf b = {0};
  c.ls = calloc(c.nls + 1, 1);
  c.vt = calloc(c.nvt + 1, 1);
  c.src = calloc(c.nsrc + 1, 1);
  c.neq = calloc(c.nvt + 1, 1);
  int rc = !key || !keep || !cw || !c.ls || !c.vt || !c.src || !c.neq ? pcol_oom(err) : PCOL_OK;
  if (!rc) rc = pcol_count_types(f, &cvt, err);
  if (!rc) rc = pcol_sample_cols_init(&c.sc, f, err);
  c.cvt = cvt;
  /* the value written (THE default rule without --value; "samples" is
   * each source's count, chosen 0) */
  uint32_t chosen = 0;
  if (!rc && h->values != V_ALL) {
    if (opt->value) chosen = opt->value->vt_id;
    else if (!wrote) rc = pcol_selection_default_type(f, sel, &chosen, NULL, err);
  }
  /* the sources whose count is written: all where the format holds it
   * beside the value (Rprof's lines, a V8 sample), else those whose
   * written value is their count (wrote[s] 0).  Only there is a type
   * equal to each sample's count held with it: collapsed writes a heap
   * profile's bytes, so its objects/count is lost (review rd14a F3) */
  for (uint64_t s = 1; !rc && s <= c.nsrc; s++)
    cw[s] = h->values != V_ONE || (chosen == 0 && (!wrote || opt->value || !wrote[s]));
  c.cw = cw;
  if (!rc) rc = pcol_select_iter(f, sel, scan_row, &c, err);

  /* the label keys of the selected samples that the format does not write */
  uint64_t nkeys = 0;
  for (uint64_t ls = 1; !rc && labels != L_ALL && ls <= c.nls; ls++) {
    if (!c.ls[ls]) continue;
    uint64_t lo = pcol_view_u64(&ls_off, ls - 1), hi = pcol_view_u64(&ls_off, ls);
    for (uint64_t i = lo; i < hi && i < nlab; i++) {
      uint32_t k = pcol_view_u32(&lb_key, i);
      if (k >= nstr || key[k]) continue;
      pcol_str ks;
      if ((rc = pcol_string(f, k, &ks, err))) break;
      /* the Perun importer's layout keys (perun.type_key, ...): how a
       * Perun file is written back, no data of the samples' */
      int kept = ks.len >= 6 && !memcmp(ks.ptr, "perun.", 6);
      for (int j = 0; labels != L_NONE && j < NTHREAD_KEYS - (labels == L_THREADS); j++)
        kept |= pcol_str_is(ks, thread_keys[j]);
      /* pprof::base as the base rule reads it (pcol_base_labelsets: the
       * string "true", go's HasLabel), which pcolBase holds; of another
       * value, a label of no thread, not written (rd16a N3: said) */
      if (h->base && pcol_str_is(ks, PCOL_DIFF_BASE_KEY)) {
        uint32_t sid = pcol_view_u32(&lb_str, i);
        pcol_str vs = {0};
        if (sid && sid < nstr && (rc = pcol_string(f, sid, &vs, err))) break;
        kept |= sid && pcol_str_is(vs, "true");
      }
      if (!kept) key[k] = 1, nkeys++;
    }
  }

  /* the value types held: the one written (THE default rule without
   * --value; "samples" is each source's count), the count beside a time,
   * Rprof's memory fields */
  if (!rc && h->values != V_ALL) {
    if (chosen >= 1 && chosen <= c.nvt) keep[chosen] = 1;
    /* (the weight, the rows' own number, is the count only of a source
     * without a count type: a pprof row of 2 samples weighs 1, so its
     * samples/count is lost beside it; review rd13b F5) */
    int count = chosen == 0 || h->values != V_ONE;
    for (uint64_t s = 1; !rc && count && s <= c.nsrc; s++) {
      uint32_t w = wrote && !opt->value ? wrote[s] : 0; /* each source's own (its count: 0) */
      if (c.src[s] && w >= 1 && w <= c.nvt) keep[w] = 1;
      /* (the count beside it where the format holds one: Rprof's lines) */
      if (c.src[s] && (!w || h->values != V_ONE) && cvt[s] && cvt[s] <= c.nvt) keep[cvt[s]] = 1;
    }
    /* a type whose value is each sample's count is held with the count (a
     * Perun profile's time/sample, its samples' weight) where the count is
     * written (cw, neq): the note named the kept, or, written as ticks of
     * the count (the Rprof export of a heap profile), left alloc_space
     * unnamed (review h7) */
    for (uint64_t t = 1; !rc && count && t <= c.nvt; t++)
      if (c.vt[t] && !c.neq[t] && !keep[t]) keep[t] = 1;
    for (uint64_t t = 1; !rc && t <= c.nvt; t++) {
      pcol_str ty, un;
      if (!c.vt[t] || (rc = pcol_string(f, pcol_view_u32(&vt_type, t - 1), &ty, err)) ||
          (rc = pcol_string(f, pcol_view_u32(&vt_unit, t - 1), &un, err)))
        continue;
      /* Rprof's derived time and allocation stand for these where stored */
      if ((chosen == PCOL_VT_TIME && pcol_str_is(ty, "cpu") && pcol_str_is(un, "nanoseconds")) ||
          (chosen == PCOL_VT_RPROF_ALLOC && pcol_str_is(ty, "rprof.alloc")))
        keep[t] = 1;
      for (size_t j = 0; h->values == V_RPROF && j < sizeof rprof_mem / sizeof rprof_mem[0]; j++)
        if (pcol_str_is(ty, rprof_mem[j])) keep[t] = 1;
    }
    /* rprof.alloc is written where the memory fields are (R adds them up).
     * (One pass each, not one over the types per vsize.small type: a file
     * of 16,000 vsize.small types of distinct units took 7 s here.) */
    int small = 0;
    for (uint64_t t = 1; !rc && h->values == V_RPROF && !small && t <= c.nvt; t++) {
      pcol_str ty;
      small = c.vt[t] && !pcol_string(f, pcol_view_u32(&vt_type, t - 1), &ty, err) && pcol_str_is(ty, "vsize.small");
    }
    for (uint64_t u = 1; !rc && small && u <= c.nvt; u++) {
      pcol_str tu;
      if (!pcol_string(f, pcol_view_u32(&vt_type, u - 1), &tu, err) && pcol_str_is(tu, "rprof.alloc")) keep[u] = 1;
    }
    /* a type of the same names as one held is held (merged sources): the
     * types held and present, sorted by their names' string ids, so that a
     * run of one pair is one group */
    if (!rc) rc = same_names(&c, keep, &vt_type, &vt_unit, err);
    /* and so is its kin (THE unit rule: inuse_space in kilobytes beside
     * bytes is written scaled into the finer) */
    if (!rc) rc = pcol_value_kin(f, &next, &factor, err);
    for (uint64_t t = 1; !rc && next && t <= c.nvt; t++)
      for (uint32_t u = keep[t] == 1 ? next[t] : 0; u && u != t; u = next[u])
        if (!keep[u]) keep[u] = 2;
  }
  /* a lost type whose kin was named before it is not named again
   * (alloc_space in bytes and in kilobytes: one alloc_space) */
  for (uint64_t t = 1; !rc && next && t <= c.nvt; t++)
    for (uint32_t u = next[t]; c.vt[t] && !keep[t] && u && u != t; u = next[u])
      if (u < t && c.vt[u] && !keep[u]) keep[t] = 3;
  uint64_t nvals = 0;
  for (uint64_t t = 1; !rc && h->values != V_ALL && t <= c.nvt; t++) nvals += c.vt[t] && !keep[t];

  /* "not written: labels (N keys: a, b, ...) and values T/U, ... (why)" */
  enum { SHOWN = 5 };
  if (!rc && (nkeys || nvals)) {
    char n[64];
    int bad = puts0(&b, "not written: ");
    if (nkeys) {
      snprintf(n, sizeof n, "labels (%llu key%s: ", (unsigned long long)nkeys, nkeys == 1 ? "" : "s");
      bad |= puts0(&b, n);
      uint64_t shown = 0;
      for (uint64_t k = 0; !rc && k < nstr && shown < SHOWN; k++) { /* (an empty key is string 0) */
        pcol_str ks;
        if (!key[k] || (rc = pcol_string(f, (uint32_t)k, &ks, err))) continue;
        bad |= (shown++ && puts0(&b, ", ")) || put(&b, ks.ptr ? ks.ptr : "", ks.len);
      }
      bad |= puts0(&b, nkeys > SHOWN ? ", ...)" : ")");
    }
    if (nvals) {
      bad |= puts0(&b, nkeys ? " and values " : "values ");
      uint64_t shown = 0;
      for (uint64_t t = 1; !rc && t <= c.nvt && shown < SHOWN; t++) {
        pcol_str ty, un;
        if (!c.vt[t] || keep[t] || (rc = pcol_string(f, pcol_view_u32(&vt_type, t - 1), &ty, err)) ||
            (rc = pcol_string(f, pcol_view_u32(&vt_unit, t - 1), &un, err)))
          continue;
        bad |= (shown++ && puts0(&b, ", ")) || put(&b, ty.ptr ? ty.ptr : "", ty.len) || puts0(&b, "/") ||
               put(&b, un.ptr ? un.ptr : "", un.len);
      }
      if (nvals > SHOWN) {
        snprintf(n, sizeof n, " and %llu more", (unsigned long long)(nvals - SHOWN));
        bad |= puts0(&b, n);
      }
    }
    bad |= puts0(&b, " (") || puts0(&b, h->why) || put(&b, ")", 2); /* with its NUL */
    if (!rc && bad) rc = pcol_oom(err);
    if (!rc) pcol_export_say(opt, PCOL_EXPORT_LOSS, (const char *)b.data);
  }
  pcol_buf_free(&b);
  free(key);
  free(keep);
  free(cw);
  free(cvt);
  free(next);
  free(factor);
  free(c.ls);
  free(c.vt);
  free(c.src);
  free(c.neq);
  return rc;
}

/* A subtracted base whose total a copy in format fmt does not read back
 * with (go tool pprof's computeTotal, lib/query weights.c): the lines of
 * collapsed stacks do not say which samples are a -diff_base's base (its
 * total is theirs), and the Firefox Profiler's threads keep a -base's
 * samples apart from the profile's (its total is that of the sum per
 * stack and label set).  Said, never a silent wrong total; pprof and OTLP
 * copies keep both, and the other formats leave the negative amounts out
 * and say so. */
static void base_note(pcol_file *f, const pcol_select *sel, pcol_format fmt, const pcol_export_options *opt) {
  const uint8_t *kind = NULL;
  pcol_error e = {0};
  if (pcol_base_kinds(f, &kind, &e)) return;
  uint8_t k = kind[0];
  if (sel && sel->source_id && sel->source_id <= pcol_rows(f, PCOL_T_SOURCES)) k = kind[sel->source_id];
  if (fmt == PCOL_FMT_COLLAPSED && (k & 5))
    pcol_export_say(opt, PCOL_EXPORT_DATA,
                    "collapsed stacks do not say which lines are the --diff-base's base (pprof::base): read back, "
                    "the total (the shares' 100%) is every line's |count|, not the base's as go tool pprof "
                    "-diff_base's and this selection's (a pprof or OTLP copy keeps it)");
  if (fmt == PCOL_FMT_FIREFOX && (k & 2))
    pcol_export_say(opt, PCOL_EXPORT_DATA,
                    "the Firefox Profiler holds the --base's samples as threads apart from the profile's: "
                    "read back, the total (the shares' 100%) is of each thread's stacks, not of the difference "
                    "per stack as go tool pprof -base's and this selection's (a pprof or OTLP copy keeps it)");
}

const char *pcol_export_base_advice(pcol_file *f, const pcol_select *sel) {
  const uint8_t *kind = NULL;
  pcol_error e = {0};
  if (!f || pcol_base_kinds(f, &kind, &e)) return "";
  uint8_t k = kind[0];
  if (sel && sel->source_id && sel->source_id <= pcol_rows(f, PCOL_T_SOURCES)) k = kind[sel->source_id];
  if (!k) return "";
  return "; a difference of profiles (--base/--diff-base: the base's samples negated, beside the "
         "profile's; --source N takes source N of each side) cannot be written so: write the difference "
         "with --to pprof or --to otlp, which keep both sides (go tool pprof reads it), or each profile "
         "alone, without the base";
}

void pcol_export_loss_note(pcol_file *f, const pcol_select *sel, pcol_format fmt, unsigned how,
                           const pcol_export_options *opt, const uint32_t *wrote) {
  pcol_error e = {0};
  if (pcol_export_heard(opt) && !(how & PCOL_LOSS_EXACT)) (void)loss_note(f, sel, fmt, how, opt, wrote, &e);
  if (pcol_export_heard(opt)) base_note(f, sel, fmt, opt);
}

int pcol_export_heard(const pcol_export_options *opt) {
  if (!opt) return 0;
  if (opt->note_kinds) {
    const pcol_export_notes *n = opt->note_ctx;
    return n && n->note;
  }
  return opt->note != NULL;
}

void pcol_export_say(const pcol_export_options *opt, pcol_export_note_kind kind, const char *text) {
  if (!pcol_export_heard(opt)) return;
  if (opt->note_kinds) {
    const pcol_export_notes *n = opt->note_ctx;
    n->note(n->ctx, kind, text);
  } else
    opt->note(opt->note_ctx, text);
}
