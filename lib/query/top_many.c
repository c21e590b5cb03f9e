/* top_many.c — pcol_top_many: `pcol top` of many pcol files without their
 * union.  pcol_open_many re-interns every table of every input into one
 * builder (200 one-minute files: two thirds of `top DIR`); here each
 * file's top is computed on its own (pcol_q_top_unmarked, top.c's kernel)
 * and the rows are added up by name.  That is exact by function and by
 * file: there a key is a name, the files' samples are disjoint, so a name's
 * flat and cum in the union are the sums of its flat and cum in each file
 * (cum counts a sample once, and a sample lies in one file).  pprof's
 * "(inline)" marks come from call edges (caller name, callee name) whose
 * weights add up and whose all-inline flags AND across files the same way
 * (pcol_q_top_edges), cut at 0.001 of the union's flat as in one file.
 *
 * What cannot be combined, or would print a warning about the union's
 * sources, is left to the union (answered = 0): see pcol.h.  Any error too:
 * the union then reports it as it always did. */
#include "query.h"
#include "bytes.h"    /* pcol_str_same */
#include "error.h"    /* pcol_oom */
#include "keys.h"     /* PPROF_META_COMMENT */
#include "reader.h"   /* struct pcol_file, pcol_open_if_pcol */
#include "threads.h"  /* pcol_thread_limit */
#include "wall.h"     /* pcol_wall_header, pcol_wall_merge_step, pcol_strs_repeats */
#include "frames.h"   /* pcol_nameless_rule_kinds */

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The files kept open for the marks' call edges, at most (then the others
 * are read again when the marks are made: time for memory); shared by the
 * threads. */
#define KEEP_BYTES ((uint64_t)64 << 20)
/* Threads: at most this many, and by default one a MIN_FILES files (a
 * thread costs ~50 us to start and join; a small file ~40 us to read). */
#define MAX_THREADS 8
#define MIN_FILES 64

/* One input read: its file and top (kept only while marks may need its
 * call edges), and its keys' ids among the union's names. */
typedef struct one {
  size_t path;   /* index in paths */
  int used;      /* read: a range did not leave it out */
  pcol_file *f;  /* NULL: closed (reopened if its edges are needed) */
  pcol_top t;
  uint32_t *uid; /* uid[key] for keys 1..nkeys */
  size_t nkeys;
  int64_t *hdr;  /* its sources' start and stated duration (pcol_wall), in pairs */
  size_t nhdr;   /* sources */
  uint64_t runs; /* recordings a relative range took a window of (pcol_wall_runs_taken) */
  char *cm;      /* its pprof comments: each a size_t length and its bytes */
  size_t ncm, capcm;
} one;

typedef struct many {
  const char *const *paths;
  const pcol_select *sel;
  const char *value;
  pcol_by by;
  int skip;              /* a wall-clock range: leave out the files it cannot reach */
  pcol_q_keytab *names;  /* the union's names (the result's key table) */
  pcol_sum *flat, *cum;  /* by name id */
  uint8_t *may;          /* a name met at an inlined line in some file */
  size_t cap;            /* of flat, cum, may */
  int any_may;
  uint64_t kept;         /* bytes of the files kept open for their call edges */
  uint64_t keep_max;     /* at most (KEEP_BYTES, a thread's share of it) */
  one *first;            /* the file of the first source, while it is the only one */
  uint64_t sources, bytes;
  pcol_sum total;
  atomic_int *stop;      /* a thread failed: the others stop too */
  struct worker *workers; /* the threads (their names: freed after the marks) */
  size_t nworkers;
  /* what every file must agree on */
  int have_first, frames, vkind, mapless;
  pcol_str vtype, vunit, dtype, dunit;
  uint32_t vt_id;
} many;

static void one_free(one *o) {
  pcol_top_free(&o->t);
  pcol_close(o->f);
  free(o->uid);
  o->f = NULL;
  o->uid = NULL;
}

/* 0 = "samples", 1 = a stored type, else the derived id (weight, cpu time
 * of Rprof, rprof.alloc): values resolve alike only within one kind */
static int value_kind(uint32_t vt) { return vt == 0 ? 0 : vt >= PCOL_VT_WEIGHT ? (int)(vt - PCOL_VT_WEIGHT) + 2 : 1; }

static int grow_names(many *m, pcol_error *err) {
  size_t need = (size_t)m->names->n + 1;
  if (need <= m->cap) return PCOL_OK;
  size_t nc = m->cap ? m->cap : 1024;
  while (nc < need) nc *= 2;
  pcol_sum *fl = realloc(m->flat, nc * sizeof *fl);
  if (fl) m->flat = fl;
  pcol_sum *cu = realloc(m->cum, nc * sizeof *cu);
  if (cu) m->cum = cu;
  uint8_t *my = realloc(m->may, nc);
  if (my) m->may = my;
  if (!fl || !cu || !my) return pcol_oom(err);
  memset(m->flat + m->cap, 0, (nc - m->cap) * sizeof *fl);
  memset(m->cum + m->cap, 0, (nc - m->cap) * sizeof *cu);
  memset(m->may + m->cap, 0, nc - m->cap);
  m->cap = nc;
  return PCOL_OK;
}

/* Whether file f answers alike with the files before it: the same rules for
 * unnamed functions (THE nameless rule's, frames.c), the same value (kind, type and unit), every source
 * with it, and for "samples" the same default everywhere (else the union
 * warns that the defaults differ), and with name filters files all with
 * or all without mappings (pcol_filter_loc_mapping's fake mapping is the
 * union's only when no file has one).  *v: its value.  1 = alike. */
static int alike(many *m, pcol_file *f, pcol_value_sel *v, pcol_error *err) {
  int frames;
  bool differ = false;
  pcol_value_sel d;
  uint8_t *has = NULL;
  /* THE nameless rule's kinds alone (1 places, 2 frames, 3 both): from
   * the sources, not a pass over the samples (rd14a F7) */
  if (pcol_nameless_rule_kinds(f, m->sel, &frames, err)) return 0;
  if (pcol_value_resolve(f, m->sel, m->value, v, err)) return 0;
  d = *v;
  if (v->vt_id == 0 && (pcol_value_defaults_differ(f, m->sel, &differ, err) || differ ||
                        (m->value && pcol_value_resolve(f, m->sel, NULL, &d, err))))
    return 0;
  if (pcol_value_sources(f, v, &has, err)) return 0;
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), s = 1;
  while (s <= ns && has[s]) s++;
  free(has);
  if (s <= ns) return 0; /* a source without the value: the union names it */
  const pcol_select *q = m->sel;
  int mapless = q && (q->focus || q->ignore || q->hide || q->show || q->show_from) &&
                pcol_rows(f, PCOL_T_MAPPINGS) == 0;
  if (!m->have_first) {
    /* kept in the names' arena: they outlive the file */
    const char *t = pcol_q_key_store(m->names, v->type.ptr ? v->type.ptr : "", v->type.len);
    const char *u = pcol_q_key_store(m->names, v->unit.ptr ? v->unit.ptr : "", v->unit.len);
    const char *dt = pcol_q_key_store(m->names, d.type.ptr ? d.type.ptr : "", d.type.len);
    const char *du = pcol_q_key_store(m->names, d.unit.ptr ? d.unit.ptr : "", d.unit.len);
    if (!t || !u || !dt || !du) return 0;
    m->vtype = (pcol_str){t, v->type.len};
    m->vunit = (pcol_str){u, v->unit.len};
    m->dtype = (pcol_str){dt, d.type.len};
    m->dunit = (pcol_str){du, d.unit.len};
    m->frames = frames;
    m->vkind = value_kind(v->vt_id);
    m->vt_id = v->vt_id;
    m->mapless = mapless;
    m->have_first = 1;
    return 1;
  }
  return frames == m->frames && mapless == m->mapless && value_kind(v->vt_id) == m->vkind && pcol_str_same(v->type, m->vtype) &&
         pcol_str_same(v->unit, m->vunit) &&
         (v->vt_id != 0 || (pcol_str_same(d.type, m->dtype) && pcol_str_same(d.unit, m->dunit)));
}

/* pcol_meta_each's callback: a comment appended to o's (copied: the file
 * may be closed before the end) */
static int comment_copy(void *ctx, pcol_str v) {
  one *o = ctx;
  size_t need = sizeof(size_t) + v.len;
  if (o->ncm + need > o->capcm) {
    size_t cap = o->capcm ? 2 * o->capcm : 256;
    while (cap < o->ncm + need) cap *= 2;
    char *c = realloc(o->cm, cap);
    if (!c) return PCOL_ENOMEM;
    o->cm = c, o->capcm = cap;
  }
  memcpy(o->cm + o->ncm, &v.len, sizeof(size_t));
  if (v.len) memcpy(o->cm + o->ncm + sizeof(size_t), v.ptr, v.len);
  o->ncm += need;
  return PCOL_OK;
}

/* What the header of the union says of o (added up in input order at the
 * end): its sources' starts and stated durations that the selection
 * takes (pcol_wall_header, pcol_sources_time's rule), and the comments of
 * the same sources (pcol_sources_comments).  0 = the union must answer (an
 * error). */
static int header_of(one *o, const pcol_select *sel, pcol_error *err) {
  pcol_wall w;
  uint8_t *take;
  if (pcol_wall_header(o->f, sel, &w, &take, err)) return 0;
  o->runs = pcol_wall_runs_taken(&w, take);
  o->hdr = malloc((w.n ? w.n : 1) * 2 * sizeof *o->hdr);
  o->nhdr = 0;
  for (uint64_t s = 1; o->hdr && s <= w.n; s++)
    if (take[s]) {
      o->hdr[2 * o->nhdr] = pcol_wall_go_start(&w, s);
      o->hdr[2 * o->nhdr++ + 1] = w.stated[s];
    }
  /* the comments of the same sources (the header made once, not again) */
  int ok = o->hdr && !pcol_sources_comments_taken(o->f, w.n, take, comment_copy, o, err);
  free(take);
  pcol_wall_free(&w);
  return ok;
}

/* Opens input o->path and computes its top.  *read = 0 when the range
 * leaves it out; 1 = answered, 0 = the union must answer (a format other
 * than pcol, files unlike, any error). */
static int open_top(many *m, one *o, int *read, pcol_error *err) {
  const char *path = m->paths[o->path];
  *read = 1;
  int is_pcol; /* else the union imports it (or says why it cannot) */
  if (pcol_open_if_pcol(path, &is_pcol, &o->f, err) || !is_pcol) return 0;
  bool overlaps = true;
  if (m->skip && pcol_wall_overlaps(o->f, m->sel, &overlaps, err)) return 0;
  if (!overlaps) {
    *read = 0;
    return 1;
  }
  /* the checks of one file's top (pcol_open's, each column's on use), not
   * pcol_validate_content, which pcol_open_many makes of every input it
   * copies (measured: a fifth of this path on a day of small files) */
  pcol_value_sel v;
  if (!alike(m, o->f, &v, err) || (!o->hdr && !header_of(o, m->sel, err))) return 0;
  /* its names are interned in the union's table, its keys its own: uid[k]
   * is key k's name's id there, one hash and lookup a name a file */
  if (pcol_q_top_unmarked(o->f, m->sel, &v, m->by, m->names, &o->t, err)) return 0;
  const pcol_q_top_priv *p = o->t.priv_;
  o->nkeys = p ? p->is.nkeys : 0;
  /* a total over merged samples (a base, or values below 0): the union's
   * merges samples of all the files, which these cannot add up to */
  if (!p || p->is.grouped || pcol_q_top_keytab(&o->t) != m->names || o->nkeys > m->names->n ||
      !(o->uid = malloc((o->nkeys + 1) * sizeof *o->uid)))
    return 0;
  const uint32_t *ids = pcol_q_top_key_ids(&o->t);
  o->uid[0] = 0;
  for (uint32_t k = 1; k <= o->nkeys; k++) {
    o->uid[k] = ids ? ids[k] : k;
    if (o->uid[k] > m->names->n) return 0;
  }
  return grow_names(m, err) ? 0 : 1;
}

/* Adds o's rows to the union's, and notes the names met at inlined lines. */
static void add_rows(many *m, const one *o, pcol_sum *total) {
  const pcol_sum *fl, *cu;
  *total += o->t.total;
  if (pcol_q_top_sums(&o->t, &fl, &cu)) /* (its keys 1..nkeys: open_top) */
    for (size_t k = 1; k <= o->nkeys; k++) {
      uint32_t id = o->uid[k];
      m->flat[id] += fl[k];
      m->cum[id] += cu[k];
    }
  const pcol_q_inl_state *s = &((const pcol_q_top_priv *)o->t.priv_)->is;
  uint32_t nall = s->loc_aoff ? s->loc_aoff[s->nlocs + 1] : 0;
  for (uint32_t j = 0; j < nall; j++) {
    uint32_t x = s->loc_all[j], k = x & 0x7fffffffu;
    if ((x >> 31) && k <= o->nkeys) {
      m->may[o->uid[k]] = 1;
      m->any_may = 1;
    }
  }
}

/* ------------------------------------------------ the "(inline)" marks */
/* The marks of out's rows: the full result's (kept NULL), or those of the
 * rows shown when some are not (pcol_top_mark_inline).  The files whose
 * top was not kept are read again. */
static int mark_rows(many *m, one *files, size_t nf, pcol_top *out, const uint8_t *kept,
                     pcol_sum sum_flat, pcol_error *err) {
  size_t nn = (size_t)m->names->n + 1;
  uint8_t *may = calloc(nn, 1), *inl = calloc(nn, 1);
  pcol_q_edges e = {0};
  int rc = may && inl ? PCOL_OK : pcol_oom(err), any = 0;
  for (size_t id = 1; !rc && id < nn; id++)
    if (m->may[id] && (!kept || kept[id])) may[id] = 1, any = 1;
  for (size_t i = 0; !rc && any && i < nf; i++) {
    one *o = &files[i];
    int read;
    if (!o->used) continue;
    if (!o->f && !open_top(m, o, &read, err)) rc = err->code ? err->code : PCOL_EINVAL;
    /* read again, it must name what it named (else it changed meanwhile:
     * the union answers) */
    if (!rc && (size_t)m->names->n + 1 != nn)
      rc = pcol_error_set(err, PCOL_ECORRUPT, "%s changed while it was read", m->paths[o->path]);
    uint8_t *kf = NULL, *mf = !rc ? calloc(o->nkeys + 1, 1) : NULL;
    if (!rc && kept && !(kf = calloc(o->nkeys + 1, 1))) rc = pcol_oom(err);
    if (!rc && !mf) rc = pcol_oom(err);
    for (size_t k = 1; !rc && k <= o->nkeys; k++) {
      mf[k] = may[o->uid[k]];
      if (kf) kf[k] = kept[o->uid[k]];
    }
    if (!rc) rc = pcol_q_top_edges(&o->t, kf, mf, o->uid, &e, err);
    free(kf);
    free(mf);
    if (o != m->first) one_free(o); /* the union's one source: the header's */
  }
  /* pprof's default -edgefraction, 0.001 of the union's flat, as top.c */
  if (!rc) pcol_q_edges_mark(&e, (pcol_sum)pcol_q_frac_cut(sum_flat, 0.001, 1), inl);
  for (size_t i = 0; !rc && i < out->nrows; i++) out->rows[i].inl = pcol_q_inline_of(inl[out->rows[i].key]);
  pcol_q_edges_free(&e);
  free(may);
  free(inl);
  return rc;
}

/* The union's rows from the sums, cut and sorted as pcol_top_compute_cut
 * leaves them, and marked for the first `shown`. */
static int make_rows(many *m, one *files, size_t nf, double fraction, pcol_sort order,
                     size_t shown, pcol_top *out, size_t *dropped, pcol_sum *label_cutoff,
                     pcol_error *err) {
  size_t nn = (size_t)m->names->n + 1, nr = 0;
  pcol_sum sum_flat = 0;
  for (size_t id = 1; id < nn; id++) {
    sum_flat += m->flat[id];
    nr += m->flat[id] != 0 || m->cum[id] != 0;
  }
  if (!(out->rows = calloc(nr ? nr : 1, sizeof *out->rows))) return pcol_oom(err);
  for (size_t id = 1; id < nn; id++)
    if (m->flat[id] != 0 || m->cum[id] != 0) {
      pcol_top_row *r = &out->rows[out->nrows++];
      r->key = (uint32_t)id;
      r->name = pcol_q_key_name(m->names, id);
      r->flat = m->flat[id];
      r->cum = m->cum[id];
    }
  *dropped = pcol_top_cutoff(out, fraction, label_cutoff);
  pcol_top_sort(out, order);
  if (!m->any_may) return PCOL_OK;
  size_t n = shown < out->nrows ? shown : out->nrows;
  uint8_t *kept = NULL;
  if (*dropped || n < out->nrows) { /* pprof's marks: from the rows it shows */
    if (!(kept = calloc(nn, 1))) return pcol_oom(err);
    for (size_t i = 0; i < n; i++) kept[out->rows[i].key] = 1;
  }
  int rc = mark_rows(m, files, nf, out, kept, sum_flat, err);
  free(kept);
  return rc;
}

/* Reads files[lo, hi) into m (one thread's share, or all of them): each
 * file's top added to m's sums, the file kept or closed.  1 = all read. */
static int read_files(many *m, one *files, size_t lo, size_t hi, pcol_error *err) {
  for (size_t i = lo; i < hi; i++) {
    one *o = &files[i];
    int read = 0;
    if (m->stop && atomic_load_explicit(m->stop, memory_order_relaxed)) return 0;
    if (!open_top(m, o, &read, err)) {
      one_free(o);
      return 0;
    }
    m->bytes += pcol_input_bytes(o->f); /* what it counts as (pcol_input_bytes), as alone */
    if (!read) {
      one_free(o);
      continue;
    }
    uint64_t ns = pcol_rows(o->f, PCOL_T_SOURCES);
    o->used = 1;
    m->sources += ns;
    add_rows(m, o, &m->total);
    if (m->first && m->sources > 1 && !m->any_may) one_free(m->first);
    if (m->sources > 1) m->first = NULL;
    if (m->sources == 1 && ns == 1) m->first = o;
    /* no marks so far: its edges may never be asked; past the bytes of
     * files kept, they are read again for their edges */
    if (o != m->first && (!m->any_may || m->kept > m->keep_max)) one_free(o);
    else if (o->f) m->kept += o->f->size;
  }
  return 1;
}

/* ---------------------------------------------------------- threads */
typedef struct worker {
  many m;        /* its own names and sums; what files must agree on, copied */
  pcol_q_keytab keys;
  one *files;
  size_t lo, hi;
  int ok, started;
  pcol_error err;
  pthread_t th;
} worker;

static void *worker_run(void *arg) {
  worker *w = arg;
  w->ok = read_files(&w->m, w->files, w->lo, w->hi, &w->err);
  if (!w->ok) atomic_store(w->m.stop, 1);
  return NULL;
}

/* The threads for n files: PCOL_THREADS if set (1 = none), else one a
 * MIN_FILES files up to the CPUs this process may run on; at most
 * MAX_THREADS and n. */
static size_t thread_count(size_t n) {
  int from_env;
  size_t t = pcol_thread_limit(&from_env);
  if (!from_env && t > n / MIN_FILES) t = n / MIN_FILES;
  if (t > MAX_THREADS) t = MAX_THREADS;
  if (t > n) t = n;
  return t ? t : 1;
}

/* Adds worker w's names, sums and marks to m's, and turns the ids of its
 * files' keys (its names) into m's. */
static int join_worker(many *m, worker *w, one *files, pcol_error *err) {
  many *wm = &w->m;
  uint32_t nw = wm->names->n;
  uint32_t *to = malloc(((size_t)nw + 1) * sizeof *to);
  if (!to) return pcol_oom(err);
  to[0] = 0;
  int rc = PCOL_OK;
  for (uint32_t k = 1; !rc && k <= nw; k++) {
    pcol_str s = wm->names->s[k]; /* its bytes, and the part shown (top.c mapping_key) */
    rc = pcol_q_key_intern_shown(m->names, s.ptr ? s.ptr : "", s.len, pcol_q_key_name(wm->names, k).len,
                                 1, &to[k], err);
  }
  if (!rc) rc = grow_names(m, err);
  for (uint32_t k = 1; !rc && k <= nw && k < wm->cap; k++) {
    m->flat[to[k]] += wm->flat[k];
    m->cum[to[k]] += wm->cum[k];
    m->may[to[k]] |= wm->may[k];
  }
  for (size_t i = w->lo; !rc && i < w->hi; i++) {
    one *o = &files[i];
    for (size_t k = 1; o->uid && k <= o->nkeys; k++) o->uid[k] = o->uid[k] <= nw ? to[o->uid[k]] : 0;
  }
  free(to);
  m->any_may |= wm->any_may;
  m->kept += wm->kept;
  m->sources += wm->sources;
  m->bytes += wm->bytes;
  m->total += wm->total;
  return rc;
}

/* Reads files[lo, n) on nt threads, then adds up what each read.  The
 * first share is read here into m itself (its names interned once, in the
 * union's table: with a union of many names, re-interning every thread's
 * names made two threads slower than one); the others into tables of their
 * own, joined by name at the end.  1 = all read. */
static int read_threaded(many *m, one *files, size_t lo, size_t n, size_t nt, pcol_error *err) {
  worker *ws = calloc(nt, sizeof *ws);
  atomic_int stop = 0;
  if (!ws) return 0;
  size_t left = n - lo;
  int ok = 1;
  for (size_t t = 1; t < nt; t++) {
    worker *w = &ws[t];
    w->m = *m;
    w->m.names = &w->keys;
    w->m.flat = w->m.cum = NULL;
    w->m.may = NULL;
    w->m.cap = 0;
    w->m.any_may = 0;
    w->m.kept = 0;
    w->m.keep_max = KEEP_BYTES / nt;
    w->m.first = NULL;
    w->m.sources = w->m.bytes = 0;
    w->m.total = 0;
    w->m.stop = &stop;
    w->files = files;
    w->lo = lo + left * t / nt;
    w->hi = lo + left * (t + 1) / nt;
    if (pcol_q_key_front(&w->keys, 4096)) ok = 0;
  }
  for (size_t t = 1; ok && t < nt; t++)
    ws[t].started = pthread_create(&ws[t].th, NULL, worker_run, &ws[t]) == 0;
  m->stop = &stop;
  m->keep_max = KEEP_BYTES / nt;
  if (ok && !(ok = read_files(m, files, lo, lo + left / nt, err))) atomic_store(&stop, 1);
  for (size_t t = 1; t < nt; t++) {
    if (ws[t].started) pthread_join(ws[t].th, NULL);
    else if (ok) worker_run(&ws[t]); /* no thread: read here */
  }
  m->stop = NULL;
  m->keep_max = KEEP_BYTES;
  for (size_t t = 1; ok && t < nt; t++) ok = ws[t].ok;
  /* the union's one source, if it has one: the first of the one share
   * that read a source (the others' firsts are closed with the rest) */
  uint64_t before = m->sources;
  for (size_t t = 1; ok && t < nt; t++) {
    ok = !join_worker(m, &ws[t], files, err);
    if (ws[t].m.sources && !before) m->first = ws[t].m.first;
  }
  if (m->sources != 1) m->first = NULL;
  /* the files' tops name the threads' keys only through uid (now m's
   * ids); the tables themselves go */
  for (size_t t = 1; t < nt; t++) {
    free(ws[t].m.flat);
    free(ws[t].m.cum);
    free(ws[t].m.may);
  }
  /* kept tops still point at their thread's table (pcol_q_top_keytab):
   * freed by the caller after the marks (ws[0]'s is empty: m's share) */
  m->workers = ws;
  m->nworkers = nt;
  return ok;
}

int pcol_top_many_range_note(const pcol_top *t, const pcol_select *sel, char **note, pcol_error *err) {
  const pcol_q_top_priv *p = t ? t->priv_ : NULL;
  return pcol_range_note_of(p ? p->runs : 0, sel, note, err);
}

int pcol_top_many(const char *const *paths, size_t n, const pcol_open_options *opt,
                  const pcol_select *sel, const char *value, pcol_by by, double fraction,
                  pcol_sort order, size_t shown, pcol_top *out, size_t *dropped,
                  pcol_sum *label_cutoff, pcol_many_top *info, pcol_error *err) {
  memset(out, 0, sizeof *out);
  memset(info, 0, sizeof *info);
  *dropped = 0;
  if (label_cutoff) *label_cutoff = 0;
  if (n < 2 || (by != PCOL_BY_FUNCTION && by != PCOL_BY_FILE) || (sel && sel->source_id) ||
      (opt && opt->max_rows))
    return PCOL_OK;
  pcol_q_top_priv *p = calloc(1, sizeof *p);
  one *files = calloc(n, sizeof *files);
  many m = {0};
  m.paths = paths, m.sel = sel, m.value = value, m.by = by;
  m.skip = sel && sel->wall && (sel->has_from || sel->has_to);
  m.keep_max = KEEP_BYTES;
  /* the files name mostly the same functions: a cache before the keyed
   * hash (pcol_q_key_front, 4096 names) */
  int ok = p && files && !pcol_q_key_front(&p->keys, 4096);
  if (ok) m.names = &p->keys;
  for (size_t i = 0; ok && i < n; i++) files[i].path = i;
  /* the first file read says what the others must agree with (alike);
   * the rest are shared among the threads */
  size_t i = 0;
  while (ok && i < n && !m.have_first) ok = read_files(&m, files, i, i + 1, err), i++;
  size_t nt = ok && i < n ? thread_count(n - i) : 1;
  if (ok && i < n) ok = nt > 1 ? read_threaded(&m, files, i, n, nt, err) : read_files(&m, files, i, n, err);
  /* none read is the union's error (and no source at all, an odd case) */
  size_t nf = 0;
  uint64_t runs = 0;
  for (size_t j = 0; ok && j < n; j++) {
    nf += files[j].used;
    if (files[j].used) runs += files[j].runs;
  }
  ok = ok && nf && m.sources;

  if (ok) {
    out->total = m.total;
    out->value = (pcol_value_sel){.vt_id = m.vt_id, .type = m.vtype, .unit = m.vunit};
    out->priv_ = p;
    p->runs = runs; /* pcol_top_many_range_note */
    p = NULL;
    ok = !make_rows(&m, files, n, fraction, order, shown, out, dropped, label_cutoff, err);
  }
  if (ok && m.first) { /* the union's one source: the header prints its time */
    info->file = m.first->f;
    m.first->f = NULL;
  }
  /* the time, and the comments in input order kept with the result's
   * names (freed by pcol_top_free) */
  int64_t tn = 0;
  uint64_t dn = 0;
  pcol_q_top_priv *op = ok ? out->priv_ : NULL;
  size_t cap = 0;
  for (size_t j = 0; op && j < n; j++) {
    if (!files[j].used) continue;
    for (size_t s = 0; s < files[j].nhdr; s++)
      pcol_wall_merge_step(&tn, &dn, files[j].hdr[2 * s], files[j].hdr[2 * s + 1]);
    for (size_t at = 0, len; ok && at < files[j].ncm; at += sizeof len + len) {
      memcpy(&len, files[j].cm + at, sizeof len);
      const char *c = pcol_q_key_store(&op->keys, files[j].cm + at + sizeof len, len);
      pcol_str *cs = op->ncomments < cap ? op->comments : realloc(op->comments, (cap = cap ? 2 * cap : 16) * sizeof *cs);
      if (cs) op->comments = cs;
      if (!c || !cs) ok = 0;
      else op->comments[op->ncomments++] = (pcol_str){c, len};
    }
  }
  /* each once over the inputs too, as over one file's sources */
  uint8_t *rep = op && op->ncomments ? malloc(op->ncomments) : NULL;
  if (op && op->ncomments && (!rep || pcol_strs_repeats(op->comments, op->ncomments, rep))) ok = 0;
  size_t kept = 0;
  for (size_t c = 0; ok && rep && c < op->ncomments; c++)
    if (!rep[c]) op->comments[kept++] = op->comments[c];
  if (ok && rep) op->ncomments = kept;
  free(rep);
  for (size_t j = 0; j < n && files; j++) {
    free(files[j].hdr);
    free(files[j].cm);
    one_free(&files[j]);
  }
  free(files);
  free(m.flat);
  free(m.cum);
  free(m.may);
  worker *ws = m.workers;
  for (size_t t = 0; t < m.nworkers; t++) pcol_q_keytab_free(&ws[t].keys);
  free(ws);
  if (p) pcol_q_keytab_free(&p->keys);
  free(p);
  if (!ok) { /* the union answers, and says what is wrong */
    pcol_close(info->file);
    info->file = NULL;
    pcol_top_free(out);
    *dropped = 0;
    memset(err, 0, sizeof *err);
    return PCOL_OK;
  }
  info->answered = 1;
  info->used = nf;
  info->input_bytes = opt && opt->given_bytes ? opt->given_bytes : m.bytes; /* (pcol.h) */
  info->threads = nt;
  info->time_ns = tn;
  info->duration_ns = (int64_t)dn; /* (two's complement: Go's wrap) */
  info->comments = ((const pcol_q_top_priv *)out->priv_)->comments;
  info->ncomments = ((const pcol_q_top_priv *)out->priv_)->ncomments;
  return PCOL_OK;
}
