/* gen_profile.c — deterministic generator of large, realistic R profiles for
 * the benchmarks, written as Rprof text, as pprof (.pb.gz) and as pcol.
 *
 *   gen_profile --samples N [--seed S] [--depth shallow|deep]
 *               [--stacks few|many] [--memory] [--lines]
 *               [--rprof OUT] [--pprof OUT.pb.gz] [--pprof-agg OUT.pb.gz]
 *               [--pcol OUT.pcol] [--weights] [--lz4]
 *
 * All three outputs describe the same profile: the same sequence of samples
 * (one per timer tick, as R writes them) over the same stacks.
 *  - Rprof: valid R syntax (header, #File lines before first use when line
 *    profiling, "name" frames innermost first, F#L refs, memory prefix).
 *  - pprof: one Sample per tick (values samples/count, cpu/nanoseconds and,
 *    with --memory, alloc_space/bytes as summaryRprof derives it); --pprof-agg
 *    writes the usual aggregated form (one Sample per distinct stack).  The
 *    samples are streamed: each message is packed with protobuf-c and framed
 *    by hand, so 10M samples need no 10M-message tree in memory.
 *  - pcol: written through the library's builder (the "direct" file the
 *    open/scan benchmarks use; --weights gives samples weights 1..4 as if
 *    runs had been coalesced, so the weight column is stored).
 *
 * Profile shape: all stacks start with source/withVisible/eval/eval; unique
 * stacks share prefixes (each extends a cut of an earlier one); sample picks
 * are skewed (a few hot stacks) and often repeat the previous stack, as loops do.
 */
#include "pcol.h"
#include "profile.pb-c.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define INTERVAL_US 20000
#define NFILES 24
#define LINES_PER_FN 48

static void die(const char *msg) {
  fprintf(stderr, "gen_profile: %s\n", msg);
  exit(1);
}
static void *xcalloc(size_t n, size_t s) {
  void *p = calloc(n ? n : 1, s);
  if (!p) die("out of memory");
  return p;
}
static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) die("out of memory");
  return p;
}

/* ------------------------------------------------------------- PRNG */
typedef struct { uint64_t s; } rng;
static uint64_t next(rng *r) { /* splitmix64: tiny, good enough, reproducible */
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint32_t below(rng *r, uint32_t n) { return n ? (uint32_t)(next(r) % n) : 0; }
static double unit(rng *r) { return (double)(next(r) >> 11) / 9007199254740992.0; }

/* ------------------------------------------------------ the profile */
static const char *base_names[] = {
    "lapply", "FUN", "vapply", "sapply", "do.call", "Reduce", "Map", "mapply",
    "tryCatch", "tryCatchList", "tryCatchOne", "doTryCatch", "withCallingHandlers",
    "match.arg", "stopifnot", "is.na", "paste0", "paste", "sprintf", "format",
    "sum", "mean", "Recall", "unlist", "rbind", "cbind", "[.data.frame", "[[.data.frame",
    "$<-.data.frame", "%in%", "match", "order", "sort", "unique", "duplicated",
    "<Anonymous>", "base::identity", ".Call", ".External2", "deparse", "eval", "evalq",
    "nchar", "substr", "gsub", "regmatches", "strsplit", "environment", "ifelse", "seq_len",
    "source", "withVisible"};
#define FN_EVAL 40
#define FN_SOURCE 50
#define FN_WITHVISIBLE 51
#define NBASE (sizeof base_names / sizeof base_names[0])

typedef struct {
  char *name;
  int file;       /* 0 = no srcref (base function) */
  int start_line; /* first line in its file */
} fn_t;

typedef struct {
  uint64_t samples;
  uint64_t seed;
  int deep, many, memory, lines, weights, lz4;
  const char *rprof, *pprof, *pprof_agg, *pcol, *pcol_lz4;
  /* derived */
  uint32_t nfn, nstacks;
  fn_t *fns;
  /* a site = (function, line offset); line offset 0 = no srcref */
  uint32_t *stack_off, *stack_len; /* frames root-first in `frames` */
  uint32_t *frames;
  uint64_t nframes;
} gen;

static uint32_t site(uint32_t fn, uint32_t lo) { return fn * LINES_PER_FN + lo; }
static uint32_t site_fn(uint32_t s) { return s / LINES_PER_FN; }
static uint32_t site_lo(uint32_t s) { return s % LINES_PER_FN; }
static int site_line(const gen *g, uint32_t s) {
  const fn_t *f = &g->fns[site_fn(s)];
  return f->file && site_lo(s) ? f->start_line + (int)site_lo(s) - 1 : 0;
}

static void make_functions(gen *g, rng *r) {
  g->nfn = g->many ? 4000 : 300;
  g->fns = xcalloc(g->nfn, sizeof *g->fns);
  char buf[96];
  for (uint32_t i = 0; i < g->nfn; i++) {
    fn_t *f = &g->fns[i];
    if (i < NBASE) {
      snprintf(buf, sizeof buf, "%s", base_names[i]);
    } else {
      /* the name forms R writes: symbol, pkg::f, pkg:::f, obj$f, x[["f"]] */
      switch (i % 7) {
      case 0: snprintf(buf, sizeof buf, "pkg%u::fit_model_%u", i % 13, i); break;
      case 1: snprintf(buf, sizeof buf, "pkg%u:::helper_%u", i % 11, i); break;
      case 2: snprintf(buf, sizeof buf, "obj$method_%u", i); break;
      case 3: snprintf(buf, sizeof buf, "handlers[[\"h%u\"]]", i); break;
      default: snprintf(buf, sizeof buf, "compute_step_%u", i); break;
      }
      f->file = 1 + (int)below(r, NFILES);
      f->start_line = 1 + (int)below(r, 2000);
    }
    f->name = strdup(buf);
    if (!f->name) die("out of memory");
  }
}

static void make_stacks(gen *g, rng *r) {
  uint32_t dmin = g->deep ? 40 : 5, dmax = g->deep ? 160 : 18;
  if (g->many) {
    uint64_t u = g->samples / 8;
    g->nstacks = (uint32_t)(u < 64 ? 64 : u > 250000 ? 250000 : u);
  } else {
    g->nstacks = 48;
  }
  g->stack_off = xcalloc(g->nstacks, sizeof *g->stack_off);
  g->stack_len = xcalloc(g->nstacks, sizeof *g->stack_len);
  uint64_t cap = (uint64_t)g->nstacks * (dmin + dmax) / 2 + 1024;
  g->frames = xcalloc(cap, sizeof *g->frames);
  for (uint32_t k = 0; k < g->nstacks; k++) {
    uint32_t d = dmin + below(r, dmax - dmin + 1), len = 0;
    if (g->nframes + d > cap) {
      cap = cap * 2 + d;
      g->frames = xrealloc(g->frames, cap * sizeof *g->frames);
    }
    uint32_t *out = g->frames + g->nframes;
    if (k > 0) { /* extend a cut of an earlier stack: shared prefixes */
      uint32_t p = below(r, k), pl = g->stack_len[p];
      uint32_t m = pl < d ? pl : d;
      len = 4 + below(r, m > 4 ? m - 3 : 1);
      if (len > m) len = m;
      memcpy(out, g->frames + g->stack_off[p], len * sizeof *out);
    } else {
      /* root-first common prefix: source -> withVisible -> eval -> eval */
      out[len++] = site(FN_SOURCE, 0);
      out[len++] = site(FN_WITHVISIBLE, 0);
      out[len++] = site(FN_EVAL, 0);
      out[len++] = site(FN_EVAL, 0);
    }
    while (len < d) {
      uint32_t fn;
      if (g->deep && len >= 2 && unit(r) < 0.3) { /* recursion f -> g -> f */
        out[len] = out[len - 2];
        len++;
        continue;
      }
      fn = unit(r) < 0.35 ? below(r, NBASE) : NBASE + below(r, g->nfn - NBASE);
      uint32_t lo = g->fns[fn].file ? 1 + below(r, LINES_PER_FN - 1) : 0;
      out[len++] = site(fn, lo);
    }
    g->stack_off[k] = (uint32_t)g->nframes;
    g->stack_len[k] = len;
    g->nframes += len;
  }
}

/* The sample sequence, reproduced identically for every output. */
typedef struct {
  rng r;
  uint32_t prev;
  uint64_t small, big, nodes;
} seq;
typedef struct {
  int64_t stack; /* -1 = empty stack (only with memory: a bare memory line) */
  uint64_t small, big, nodes, dups;
  int64_t alloc; /* summaryRprof's derived allocation for this interval */
  int64_t weight;
} tick;

static void seq_init(seq *s, const gen *g) {
  s->r.s = g->seed ^ 0x5EEDull;
  s->prev = 0;
  s->small = 200000;
  s->big = 4000000;
  s->nodes = 56ull * 300000;
}
static void seq_next(seq *s, const gen *g, tick *t) {
  if (unit(&s->r) < 0.55) {
    t->stack = s->prev; /* loops repeat the same stack */
  } else {
    double u = unit(&s->r);
    t->stack = (int64_t)(u * u * u * g->nstacks); /* skewed: a few hot stacks */
    if (t->stack >= g->nstacks) t->stack = g->nstacks - 1;
    s->prev = (uint32_t)t->stack;
  }
  t->weight = g->weights ? 1 + (int64_t)below(&s->r, 4) : 1;
  t->alloc = 0;
  t->dups = 0;
  if (g->memory) {
    if (unit(&s->r) < 0.01) t->stack = -1;
    uint64_t os = s->small, ob = s->big, on = s->nodes;
    if (unit(&s->r) < 0.05) { /* a GC: levels drop */
      s->small = s->small / 2 + 1000;
      s->big = s->big / 2 + 1000;
      s->nodes = (s->nodes / 56 / 2 + 100) * 56;
    } else {
      s->small += below(&s->r, 4000);
      s->big += below(&s->r, 1000) < 100 ? below(&s->r, 200000) : 0;
      s->nodes += 56ull * below(&s->r, 3000);
    }
    t->small = s->small;
    t->big = s->big;
    t->nodes = s->nodes;
    t->dups = below(&s->r, 8) == 0 ? below(&s->r, 50) : 0;
    t->alloc = (int64_t)(8 * (s->small > os ? s->small - os : 0) +
                         8 * (s->big > ob ? s->big - ob : 0) + (s->nodes > on ? s->nodes - on : 0));
  }
}

/* ------------------------------------------------------------ Rprof */
static const char *file_path(int file, char *buf, size_t n) {
  snprintf(buf, n, "/home/analyst/project/R/module_%02d.R", file);
  return buf;
}

static void write_rprof(const gen *g) {
  FILE *o = fopen(g->rprof, "wb");
  if (!o) die(strerror(errno));
  static char obuf[1 << 20];
  setvbuf(o, obuf, _IOFBF, sizeof obuf);
  fprintf(o, "%s%ssample.interval=%d\n", g->memory ? "memory profiling: " : "",
          g->lines ? "line profiling: " : "", INTERVAL_US);
  int fileno_of[NFILES + 1] = {0}, nextno = 1;
  seq s;
  seq_init(&s, g);
  char path[128];
  for (uint64_t i = 0; i < g->samples; i++) {
    tick t;
    seq_next(&s, g, &t);
    const uint32_t *fr = t.stack >= 0 ? g->frames + g->stack_off[t.stack] : NULL;
    uint32_t n = t.stack >= 0 ? g->stack_len[t.stack] : 0;
    if (g->lines) /* #File i: path immediately before the first use */
      for (uint32_t k = n; k-- > 0;) {
        int f = g->fns[site_fn(fr[k])].file;
        if (f && site_lo(fr[k]) && !fileno_of[f]) {
          fileno_of[f] = nextno++;
          fprintf(o, "#File %d: %s\n", fileno_of[f], file_path(f, path, sizeof path));
        }
      }
    if (g->memory)
      fprintf(o, ":%llu:%llu:%llu:%llu:", (unsigned long long)t.small, (unsigned long long)t.big,
              (unsigned long long)t.nodes, (unsigned long long)t.dups);
    for (uint32_t k = n; k-- > 0;) { /* innermost first */
      const fn_t *f = &g->fns[site_fn(fr[k])];
      if (g->lines && f->file && site_lo(fr[k]))
        fprintf(o, "%d#%d ", fileno_of[f->file], site_line(g, fr[k]));
      fputc('"', o);
      fputs(f->name, o);
      fputs("\" ", o);
    }
    fputc('\n', o);
  }
  if (fclose(o) != 0) die("write error (Rprof)");
}

/* ------------------------------------------------------------ pprof */
typedef struct {
  gzFile z;
  uint8_t *buf;
  size_t cap;
} pbout;

static size_t put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}
static void pb_write(pbout *o, const void *p, size_t n) {
  while (n) {
    unsigned chunk = n > (1u << 30) ? (1u << 30) : (unsigned)n;
    if (gzwrite(o->z, p, chunk) != (int)chunk) die("write error (pprof)");
    p = (const uint8_t *)p + chunk;
    n -= chunk;
  }
}
static void pb_field_sample(pbout *o, const Perftools__Profiles__Sample *sm) {
  size_t n = perftools__profiles__sample__get_packed_size(sm);
  if (n + 16 > o->cap) {
    o->cap = (n + 16) * 2;
    o->buf = xrealloc(o->buf, o->cap);
  }
  size_t h = 0;
  o->buf[h++] = (2 << 3) | 2; /* Profile.sample, length-delimited */
  h += put_varint(o->buf + h, n);
  perftools__profiles__sample__pack(sm, o->buf + h);
  pb_write(o, o->buf, h + n);
}
static void pb_profile(pbout *o, const Perftools__Profiles__Profile *p) {
  size_t n = perftools__profiles__profile__get_packed_size(p);
  uint8_t *b = xcalloc(n, 1);
  perftools__profiles__profile__pack(p, b);
  pb_write(o, b, n);
  free(b);
}

typedef struct {
  ProtobufCBinaryData *s;
  size_t n, cap;
} strtab;
static int64_t st_add(strtab *t, const char *s) {
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 64;
    t->s = xrealloc(t->s, t->cap * sizeof *t->s);
  }
  t->s[t->n].data = (uint8_t *)strdup(s);
  t->s[t->n].len = strlen(s);
  return (int64_t)t->n++;
}

static void write_pprof(const gen *g, const char *path, int aggregate) {
  strtab st = {0};
  st_add(&st, "");
  int nvt = g->memory ? 3 : 2;
  Perftools__Profiles__ValueType vt[3], period_type = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
  Perftools__Profiles__ValueType *vtp[3];
  const char *vn[3][2] = {{"samples", "count"}, {"cpu", "nanoseconds"}, {"alloc_space", "bytes"}};
  for (int k = 0; k < nvt; k++) {
    perftools__profiles__value_type__init(&vt[k]);
    vt[k].type = st_add(&st, vn[k][0]);
    vt[k].unit = st_add(&st, vn[k][1]);
    vtp[k] = &vt[k];
  }
  period_type.type = vt[1].type;
  period_type.unit = vt[1].unit;

  /* functions: one per pool entry; locations: one per used site */
  uint32_t nsites = g->nfn * LINES_PER_FN;
  uint64_t *loc_of = xcalloc(nsites, sizeof *loc_of);
  uint32_t nloc = 0;
  for (uint64_t k = 0; k < g->nframes; k++)
    if (!loc_of[g->frames[k]]) loc_of[g->frames[k]] = ++nloc;
  Perftools__Profiles__Function *fn = xcalloc(g->nfn, sizeof *fn);
  Perftools__Profiles__Function **fnp = xcalloc(g->nfn, sizeof *fnp);
  int64_t file_sid[NFILES + 1] = {0};
  char path_buf[128];
  for (int f = 1; f <= NFILES; f++) file_sid[f] = st_add(&st, file_path(f, path_buf, sizeof path_buf));
  for (uint32_t i = 0; i < g->nfn; i++) {
    perftools__profiles__function__init(&fn[i]);
    fn[i].id = i + 1;
    fn[i].name = fn[i].system_name = st_add(&st, g->fns[i].name);
    fn[i].filename = file_sid[g->fns[i].file];
    fn[i].start_line = g->fns[i].start_line;
    fnp[i] = &fn[i];
  }
  Perftools__Profiles__Location *loc = xcalloc(nloc, sizeof *loc);
  Perftools__Profiles__Location **locp = xcalloc(nloc, sizeof *locp);
  Perftools__Profiles__Line *ln = xcalloc(nloc, sizeof *ln);
  Perftools__Profiles__Line **lnp = xcalloc(nloc, sizeof *lnp);
  for (uint32_t s = 0; s < nsites; s++) {
    if (!loc_of[s]) continue;
    uint64_t id = loc_of[s];
    Perftools__Profiles__Location *l = &loc[id - 1];
    perftools__profiles__location__init(l);
    perftools__profiles__line__init(&ln[id - 1]);
    ln[id - 1].function_id = site_fn(s) + 1;
    ln[id - 1].line = site_line(g, s);
    lnp[id - 1] = &ln[id - 1];
    l->id = id;
    l->n_line = 1;
    l->line = &lnp[id - 1];
    locp[id - 1] = l;
  }

  pbout o = {0};
  o.z = gzopen(path, "wb6"); /* google/pprof writes gzip at the default level */
  if (!o.z) die("cannot open pprof output");
  gzbuffer(o.z, 1 << 20);
  Perftools__Profiles__Profile head = PERFTOOLS__PROFILES__PROFILE__INIT;
  head.n_sample_type = (size_t)nvt;
  head.sample_type = vtp;
  pb_profile(&o, &head);

  uint64_t ids[512];
  int64_t vals[3];
  Perftools__Profiles__Sample sm = PERFTOOLS__PROFILES__SAMPLE__INIT;
  sm.location_id = ids;
  sm.value = vals;
  sm.n_value = (size_t)nvt;
  seq s;
  seq_init(&s, g);
  int64_t (*agg)[3] = aggregate ? xcalloc((size_t)g->nstacks + 1, sizeof *agg) : NULL;
  for (uint64_t i = 0; i < g->samples; i++) {
    tick t;
    seq_next(&s, g, &t);
    if (agg) {
      int64_t *a = agg[t.stack + 1];
      a[0] += t.weight;
      a[1] += t.weight * INTERVAL_US * 1000ll;
      a[2] += t.alloc;
      continue;
    }
    uint32_t n = t.stack >= 0 ? g->stack_len[t.stack] : 0;
    const uint32_t *fr = n ? g->frames + g->stack_off[t.stack] : NULL;
    if (n > 512) die("stack too deep");
    for (uint32_t k = 0; k < n; k++) ids[k] = loc_of[fr[n - 1 - k]]; /* leaf first */
    sm.n_location_id = n;
    vals[0] = t.weight;
    vals[1] = t.weight * INTERVAL_US * 1000ll;
    vals[2] = t.alloc;
    pb_field_sample(&o, &sm);
  }
  if (agg) {
    for (int64_t k = -1; k < (int64_t)g->nstacks; k++) {
      int64_t *a = agg[k + 1];
      if (!a[0]) continue;
      uint32_t n = k >= 0 ? g->stack_len[k] : 0;
      const uint32_t *fr = n ? g->frames + g->stack_off[k] : NULL;
      for (uint32_t j = 0; j < n; j++) ids[j] = loc_of[fr[n - 1 - j]];
      sm.n_location_id = n;
      memcpy(vals, a, sizeof vals);
      pb_field_sample(&o, &sm);
    }
    free(agg);
  }

  Perftools__Profiles__Profile tail = PERFTOOLS__PROFILES__PROFILE__INIT;
  tail.n_location = nloc;
  tail.location = locp;
  tail.n_function = g->nfn;
  tail.function = fnp;
  tail.n_string_table = st.n;
  tail.string_table = st.s;
  tail.period_type = &period_type;
  tail.period = INTERVAL_US * 1000ll;
  pb_profile(&o, &tail);
  if (gzclose(o.z) != Z_OK) die("write error (pprof)");
  free(o.buf);
  for (size_t k = 0; k < st.n; k++) free(st.s[k].data);
  free(st.s);
  free(loc_of);
  free(fn);
  free(fnp);
  free(loc);
  free(locp);
  free(ln);
  free(lnp);
}

/* ------------------------------------------------------------- pcol */
#define OK(x)                                                                \
  do {                                                                       \
    if ((x) != PCOL_OK) die("builder: " #x);                                 \
  } while (0)

static void write_pcol(const gen *g) {
  pcol_builder *b;
  pcol_error err = {0};
  if (pcol_builder_new(&b, &err)) die(err.message);
  uint32_t src;
  OK(pcol_b_source(b, "rprof", g->rprof ? g->rprof : "synthetic", PCOL_NA_I64, &src, &err));
  char hv[64];
  snprintf(hv, sizeof hv, "%d", INTERVAL_US);
  OK(pcol_b_meta_str(b, src, "rprof.interval_us", hv, &err));
  uint32_t vt[4] = {0};
  if (g->memory) {
    const char *n[4][2] = {{"small_v", "cells"}, {"big_v", "cells"}, {"nodes", "bytes"}, {"duplications", "count"}};
    for (int k = 0; k < 4; k++) {
      uint32_t ts, us;
      OK(pcol_b_cstr(b, n[k][0], &ts, &err));
      OK(pcol_b_cstr(b, n[k][1], &us, &err));
      OK(pcol_b_value_type(b, ts, us, &vt[k], &err));
      OK(pcol_b_source_value_type(b, src, vt[k], &err));
    }
  }
  /* Rows are created on first use, as an importer would: a small profile
   * gets a small file. */
  uint32_t *fid = xcalloc(g->nfn, sizeof *fid);
  uint32_t *loc = xcalloc((size_t)g->nfn * LINES_PER_FN, sizeof *loc);
  uint32_t *sid = xcalloc(g->nstacks, sizeof *sid);
  char path[128];
  uint32_t leaf_first[512];
  seq s;
  seq_init(&s, g);
  pcol_value_row vals[4];
  for (uint64_t i = 0; i < g->samples; i++) {
    tick t;
    seq_next(&s, g, &t);
    pcol_sample_row row = {src, (int64_t)i * INTERVAL_US * 1000, 0, t.weight, PCOL_NA_I64,
                           0, 0};
    if (t.stack >= 0 && !sid[t.stack]) {
      uint32_t n = g->stack_len[t.stack];
      const uint32_t *fr = g->frames + g->stack_off[t.stack];
      for (uint32_t j = 0; j < n; j++) {
        uint32_t st = fr[n - 1 - j], f = site_fn(st);
        if (!loc[st]) {
          if (!fid[f]) {
            pcol_function_row fnr = {0, 0, 0, PCOL_NA_I64};
            OK(pcol_b_cstr(b, g->fns[f].name, &fnr.name, &err));
            if (g->fns[f].file) {
              OK(pcol_b_cstr(b, file_path(g->fns[f].file, path, sizeof path), &fnr.filename, &err));
              fnr.start_line = g->fns[f].start_line;
            }
            OK(pcol_b_function(b, &fnr, &fid[f], &err));
          }
          int line = site_line(g, st);
          pcol_line_row lr = {fid[f], line ? line : PCOL_NA_I64, PCOL_NA_I64};
          OK(pcol_b_location(b, 0, 0, 0, &lr, 1, &loc[st], &err));
        }
        leaf_first[j] = loc[st];
      }
      OK(pcol_b_stack(b, leaf_first, n, &sid[t.stack], &err));
    }
    if (t.stack >= 0) row.stack_id = sid[t.stack];
    size_t nv = 0;
    if (g->memory) {
      uint64_t v[4] = {t.small, t.big, t.nodes, t.dups};
      for (int k = 0; k < 4; k++) vals[nv++] = (pcol_value_row){vt[k], (int64_t)v[k]};
    }
    OK(pcol_b_sample(b, &row, vals, nv, NULL, &err));
  }
  pcol_write_options wo = {.compress_lz4 = g->lz4};
  if (g->pcol && pcol_builder_write(b, g->pcol, &wo, &err)) die(err.message);
  wo.compress_lz4 = 1;
  if (g->pcol_lz4 && pcol_builder_write(b, g->pcol_lz4, &wo, &err)) die(err.message);
  pcol_builder_free(b);
  free(fid);
  free(loc);
  free(sid);
}

/* Facts the driver needs (sample_locations rows = frames over all samples). */
static void print_stats(const gen *g) {
  seq s;
  seq_init(&s, g);
  uint64_t frames = 0, empty = 0, weight = 0;
  for (uint64_t i = 0; i < g->samples; i++) {
    tick t;
    seq_next(&s, g, &t);
    weight += (uint64_t)t.weight;
    if (t.stack < 0) empty++;
    else frames += g->stack_len[t.stack];
  }
  printf("samples=%llu frames=%llu empty_stacks=%llu weight=%llu unique_stacks=%u functions=%u\n",
         (unsigned long long)g->samples, (unsigned long long)frames, (unsigned long long)empty,
         (unsigned long long)weight, g->nstacks, g->nfn);
}

int main(int argc, char **argv) {
  gen g = {0};
  g.seed = 42;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name) (!strcmp(a, name) && v && (i++, 1))
    if (ARG("--samples")) g.samples = strtoull(v, NULL, 10);
    else if (ARG("--seed")) g.seed = strtoull(v, NULL, 10);
    else if (ARG("--depth")) g.deep = !strcmp(v, "deep");
    else if (ARG("--stacks")) g.many = !strcmp(v, "many");
    else if (ARG("--rprof")) g.rprof = v;
    else if (ARG("--pprof")) g.pprof = v;
    else if (ARG("--pprof-agg")) g.pprof_agg = v;
    else if (ARG("--pcol")) g.pcol = v;
    else if (ARG("--pcol-lz4")) g.pcol_lz4 = v;
    else if (!strcmp(a, "--memory")) g.memory = 1;
    else if (!strcmp(a, "--lines")) g.lines = 1;
    else if (!strcmp(a, "--weights")) g.weights = 1;
    else if (!strcmp(a, "--lz4")) g.lz4 = 1;
    else {
      fprintf(stderr,
              "usage: gen_profile --samples N [--seed S] [--depth shallow|deep] [--stacks few|many]\n"
              "       [--memory] [--lines] [--weights] [--lz4] [--rprof OUT] [--pprof OUT]\n"
              "       [--pprof-agg OUT] [--pcol OUT] [--pcol-lz4 OUT]\n");
      return 2;
    }
#undef ARG
  }
  if (!g.samples) die("--samples N (N > 0) is required");
  rng r = {g.seed};
  make_functions(&g, &r);
  make_stacks(&g, &r);
  if (g.rprof) write_rprof(&g);
  if (g.pprof) write_pprof(&g, g.pprof, 0);
  if (g.pprof_agg) write_pprof(&g, g.pprof_agg, 1);
  if (g.pcol || g.pcol_lz4) write_pcol(&g);
  print_stats(&g);
  for (uint32_t i = 0; i < g.nfn; i++) free(g.fns[i].name);
  free(g.fns);
  free(g.stack_off);
  free(g.stack_len);
  free(g.frames);
  return 0;
}
