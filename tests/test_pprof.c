/* test_pprof.c — pprof import and export.
 *
 * Hand-built profiles (every field of profile.proto, packed and unpacked
 * encodings, the string table last, NUL bytes in strings) go through
 * import -> pcol file -> export and are compared field by field after
 * resolving ids and string indices; real profiles from the shared test data
 * are compared the same way.  Malformed inputs must give clear errors. */
#include "testutil.h"
#include "read_all.h" /* pcol_spill_bytes */
#include "pprof/pprof.h" /* pcol_pprof_window */
#include "pprof/pprof_spill.h" /* pcol_pprof_spill_memo_bytes */
#include "profile.pb-c.h"
#include <stdio.h>
#include <zlib.h>

typedef Perftools__Profiles__Profile Profile;

/* ------------------------------------------------------------ helpers */

typedef struct mem {
  uint8_t *p;
  size_t n;
} mem;

static mem pack(const Profile *p) {
  mem m;
  m.n = perftools__profiles__profile__get_packed_size(p);
  m.p = malloc(m.n + 1);
  cr_assert_not_null(m.p);
  perftools__profiles__profile__pack(p, m.p);
  return m;
}

static mem cat(mem a, mem b) {
  mem m = {malloc(a.n + b.n + 1), a.n + b.n};
  memcpy(m.p, a.p, a.n);
  memcpy(m.p + a.n, b.p, b.n);
  return m;
}

static mem gzip_mem(const void *p, size_t n) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  cr_assert_eq(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  mem m = {malloc(deflateBound(&zs, n) + 64), 0};
  zs.next_in = (Bytef *)(uintptr_t)p;
  zs.avail_in = (uInt)n;
  zs.next_out = m.p;
  zs.avail_out = (uInt)(deflateBound(&zs, n) + 64);
  cr_assert_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
  m.n = zs.total_out;
  deflateEnd(&zs);
  return m;
}

static mem gunzip_mem(const void *p, size_t n) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  cr_assert_eq(inflateInit2(&zs, 16 + MAX_WBITS), Z_OK);
  size_t cap = 1 << 16;
  mem m = {malloc(cap), 0};
  zs.next_in = (Bytef *)(uintptr_t)p;
  zs.avail_in = (uInt)n;
  int r;
  do {
    if (m.n == cap) m.p = realloc(m.p, cap *= 2);
    zs.next_out = m.p + m.n;
    zs.avail_out = (uInt)(cap - m.n);
    r = inflate(&zs, Z_NO_FLUSH);
    m.n = cap - zs.avail_out;
    cr_assert(r == Z_OK || r == Z_STREAM_END, "inflate: %d", r);
  } while (r != Z_STREAM_END);
  inflateEnd(&zs);
  return m;
}

/* The input as a stream that counts the bytes read from it and its seeks
 * back to the start, with a seek (a file: the importer reads it twice) or
 * without (a pipe: it keeps a copy). */
typedef struct memsrc {
  const uint8_t *p;
  size_t n, pos, got, seeks;
} memsrc;
static ssize_t memsrc_read(void *c, char *buf, size_t size) {
  memsrc *m = c;
  size_t k = m->n - m->pos < size ? m->n - m->pos : size;
  memcpy(buf, m->p + m->pos, k);
  m->pos += k;
  m->got += k;
  return (ssize_t)k;
}
static int memsrc_seek(void *c, off64_t *off, int whence) {
  memsrc *m = c;
  off64_t to = whence == SEEK_SET ? *off : whence == SEEK_CUR ? (off64_t)m->pos + *off : (off64_t)m->n + *off;
  if (to < 0 || (size_t)to > m->n) return -1;
  if (to == 0 && m->pos > 0) m->seeks++;
  m->pos = (size_t)to;
  *off = to;
  return 0;
}
/* whole: pcol_pprof_whole (0: the window's size, a message past the
 * window is read twice) */
static int import_memsrc_whole(pcol_builder *b, memsrc *m, int seekable, size_t window,
                               size_t whole, const char *name, const pcol_import_options *o,
                               pcol_error *err) {
  cookie_io_functions_t io = {memsrc_read, NULL, seekable ? memsrc_seek : NULL, NULL};
  FILE *f = fopencookie(m, "r", io);
  cr_assert_not_null(f);
  size_t keep = pcol_pprof_window, keep_whole = pcol_pprof_whole;
  pcol_pprof_window = window;
  pcol_pprof_whole = whole;
  int rc = pcol_import_pprof(b, f, name, o, err);
  pcol_pprof_window = keep;
  pcol_pprof_whole = keep_whole;
  fclose(f);
  return rc;
}
static int import_memsrc(pcol_builder *b, memsrc *m, int seekable, size_t window, const char *name,
                         const pcol_import_options *o, pcol_error *err) {
  return import_memsrc_whole(b, m, seekable, window, 0, name, o, err);
}

/* Every import of a test runs three ways that must agree on the result and
 * the message: from memory (fmemopen, the default window); from a stream
 * that seeks, through a window of 3 bytes (each field split across reads;
 * read twice: pass 2 reads the stream again); and from one that does not,
 * through 5 bytes (read once, a copy spilled past 256 bytes). */
static int import_mem(pcol_builder *b, const void *data, size_t len, const char *name,
                      const pcol_import_options *o, pcol_error *err) {
  FILE *f = len ? fmemopen((void *)(uintptr_t)data, len, "rb") : tmpfile();
  cr_assert_not_null(f);
  int rc = pcol_import_pprof(b, f, name, o, err);
  fclose(f);
  if (!len || !err) return rc;
  for (int seekable = 1; seekable >= 0; seekable--) {
    memsrc m = {data, len, 0, 0, 0};
    pcol_builder *b2;
    pcol_error e2 = {0};
    cr_assert_eq(pcol_builder_new(&b2, &e2), 0);
    size_t keep = pcol_spill_bytes;
    if (!seekable) pcol_spill_bytes = 256;
    /* seekable: held whole up to 18 bytes, then the window slides at 3 */
    int rc2 = import_memsrc_whole(b2, &m, seekable, seekable ? 3 : 5, seekable ? 18 : 0, name, o, &e2);
    pcol_spill_bytes = keep;
    cr_assert_eq(rc2, rc, "%s, %s: rc %d, %d from memory (%s / %s)", name,
                 seekable ? "seekable" : "a pipe", rc2, rc, e2.message, err->message);
    if (rc) cr_assert_str_eq(e2.message, err->message, "%s", name);
    /* a stream is read once more only when it can seek back (a legacy
     * CPU profile is read once, whole) */
    int twice = seekable && len > 18 && !pcol_pprof_legacy_cpu_header(data, len, NULL, NULL, NULL, NULL);
    if (!rc) cr_assert_eq(m.got, twice ? 2 * len : len, "%s: %zu bytes read of %zu", name, m.got, len);
    pcol_builder_free(b2);
  }
  return rc;
}

static pcol_builder *new_builder(void) {
  pcol_builder *b;
  pcol_error err;
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  return b;
}

/* pprof bytes -> builder -> pcol file in memory */
static pcol_file *import_file(const void *data, size_t len, void **filemem) {
  pcol_builder *b = new_builder();
  pcol_error err = {0};
  cr_assert_eq(import_mem(b, data, len, "test.pb", NULL, &err), 0, "%s", err.message);
  pcol_file *f = tu_reopen(b, NULL, filemem);
  pcol_builder_free(b);
  return f;
}

static mem export_mem(pcol_file *f, const pcol_select *sel, int gz) {
  mem m = {NULL, 0};
  char *buf = NULL;
  size_t n = 0;
  FILE *o = open_memstream(&buf, &n);
  pcol_error err = {0};
  cr_assert_eq(pcol_export_pprof(f, sel, o, gz, &err), 0, "%s", err.message);
  fclose(o);
  m.p = (uint8_t *)buf;
  m.n = n;
  return m;
}

static Profile *decode(mem m) {
  Profile *p = perftools__profiles__profile__unpack(NULL, m.n, m.p);
  cr_assert_not_null(p, "exported profile does not decode");
  return p;
}

/* ------------------------------------------ canonical, id-free rendering */

typedef struct dumper {
  const Profile *p;
  char *buf;
  size_t n;
  FILE *o;
} dumper;

static void d_open(dumper *d, const Profile *p) {
  d->p = p;
  d->buf = NULL;
  d->o = open_memstream(&d->buf, &d->n);
}
static char *d_close(dumper *d) {
  fclose(d->o);
  return d->buf;
}

static void d_str(dumper *d, int64_t idx) {
  if (idx < 0 || (size_t)idx >= d->p->n_string_table) {
    fprintf(d->o, "<bad string %lld>", (long long)idx);
    return;
  }
  const ProtobufCBinaryData *s = &d->p->string_table[idx];
  fputc('"', d->o);
  /* runs of plain bytes in one fwrite: the real-file round trips dump
   * ~10^6 names, and a call per byte was most of test_pprof's time */
  size_t run = 0;
  for (size_t i = 0; i < s->len; i++) {
    uint8_t c = s->data[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') continue;
    if (i > run) fwrite(s->data + run, 1, i - run, d->o);
    fprintf(d->o, "\\x%02x", c);
    run = i + 1;
  }
  if (s->len > run) fwrite(s->data + run, 1, s->len - run, d->o);
  fputc('"', d->o);
}

/* sorted (id, index) pairs: rendering large profiles stays fast */
typedef struct loc_ix {
  uint64_t id;
  size_t i;
} loc_ix;
static int loc_cmp(const void *a, const void *b) {
  uint64_t x = ((const loc_ix *)a)->id, y = ((const loc_ix *)b)->id;
  return x < y ? -1 : x > y;
}
static loc_ix *index_ids(size_t n, uint64_t (*id)(const Profile *, size_t), const Profile *p) {
  loc_ix *ix = malloc((n + 1) * sizeof *ix);
  for (size_t i = 0; i < n; i++) ix[i] = (loc_ix){id(p, i), i};
  qsort(ix, n, sizeof *ix, loc_cmp);
  return ix;
}
static long find_ix(const loc_ix *ix, size_t n, uint64_t id) {
  loc_ix key = {id, 0};
  const loc_ix *hit = bsearch(&key, ix, n, sizeof *ix, loc_cmp);
  return hit ? (long)hit->i : -1;
}
static uint64_t fn_id(const Profile *p, size_t i) { return p->function[i]->id; }
static uint64_t map_id(const Profile *p, size_t i) { return p->mapping[i]->id; }
static uint64_t loc_id(const Profile *p, size_t i) { return p->location[i]->id; }

typedef struct pindex {
  loc_ix *fn, *map, *loc;
} pindex;
static pindex index_profile(const Profile *p) {
  pindex x = {index_ids(p->n_function, fn_id, p), index_ids(p->n_mapping, map_id, p),
              index_ids(p->n_location, loc_id, p)};
  return x;
}
static void pindex_free(pindex *x) {
  free(x->fn);
  free(x->map);
  free(x->loc);
}
static const pindex *CUR_IX; /* the index of the profile being rendered (test-only) */

static const Perftools__Profiles__Function *find_fn(const Profile *p, uint64_t id) {
  long i = find_ix(CUR_IX->fn, p->n_function, id);
  return i < 0 ? NULL : p->function[i];
}
static const Perftools__Profiles__Mapping *find_map(const Profile *p, uint64_t id) {
  long i = find_ix(CUR_IX->map, p->n_mapping, id);
  return i < 0 ? NULL : p->mapping[i];
}

/* The mapping go's profile.Merge keeps for m (its driver merges every
 * profile it reads, and pcol's importer as go, builder.c
 * pcol_b_mappings_shared): the first of p's mappings of m's key, the size
 * rounded up to 4 KiB, the file offset, the build id else the file name
 * (by their bytes) -- a Go profile may list its binary twice. */
static ProtobufCBinaryData str_of(const Profile *p, int64_t ix) {
  ProtobufCBinaryData none = {0, NULL};
  return ix > 0 && (size_t)ix < p->n_string_table ? p->string_table[ix] : none;
}
static int map_ident(const Profile *p, const Perftools__Profiles__Mapping *m, const uint8_t **b, size_t *n) {
  ProtobufCBinaryData s = str_of(p, m->build_id);
  if (!s.len) s = str_of(p, m->filename);
  *b = s.data;
  *n = s.len;
  return 0;
}
static const Perftools__Profiles__Mapping *key_first(const Profile *p, const Perftools__Profiles__Mapping *m) {
  if (!m) return NULL;
  uint64_t sz = (m->memory_limit - m->memory_start + 0xfff) & ~(uint64_t)0xfff;
  const uint8_t *mb;
  size_t mn;
  (void)map_ident(p, m, &mb, &mn);
  for (size_t i = 0; i < p->n_mapping; i++) {
    const Perftools__Profiles__Mapping *c = p->mapping[i];
    const uint8_t *cb;
    size_t cn;
    (void)map_ident(p, c, &cb, &cn);
    if (((c->memory_limit - c->memory_start + 0xfff) & ~(uint64_t)0xfff) == sz &&
        c->file_offset == m->file_offset && cn == mn && (!mn || !memcmp(cb, mb, mn)))
      return c;
  }
  return m;
}

static void d_mapping(dumper *d, const Perftools__Profiles__Mapping *m) {
  if (!m) {
    fputs("nomap", d->o);
    return;
  }
  fprintf(d->o, "map[%llx-%llx@%llx ", (unsigned long long)m->memory_start,
          (unsigned long long)m->memory_limit, (unsigned long long)m->file_offset);
  d_str(d, m->filename);
  fputc(' ', d->o);
  d_str(d, m->build_id);
  fprintf(d->o, " %d%d%d%d]", m->has_functions, m->has_filenames, m->has_line_numbers,
          m->has_inline_frames);
}

static void d_location(dumper *d, const Perftools__Profiles__Location *l) {
  const Perftools__Profiles__Mapping *m = find_map(d->p, l->mapping_id), *km = key_first(d->p, m);
  fprintf(d->o, "  loc %llx folded=%d ", (unsigned long long)(l->address + (m ? km->memory_start - m->memory_start : 0)),
          l->is_folded);
  d_mapping(d, km);
  for (size_t k = 0; k < l->n_line; k++) {
    const Perftools__Profiles__Function *fn = find_fn(d->p, l->line[k]->function_id);
    fputs("\n    line ", d->o);
    cr_assert_not_null(fn);
    d_str(d, fn->name);
    fputc(' ', d->o);
    d_str(d, fn->system_name);
    fputc(' ', d->o);
    d_str(d, fn->filename);
    fprintf(d->o, " start=%lld line=%lld col=%lld", (long long)fn->start_line,
            (long long)l->line[k]->line, (long long)l->line[k]->column);
  }
  fputc('\n', d->o);
}

/* Everything but the samples. */
static char *dump_header(const Profile *p) {
  dumper d;
  d_open(&d, p);
  fprintf(d.o, "time=%lld dur=%lld period=%lld ", (long long)p->time_nanos,
          (long long)p->duration_nanos, (long long)p->period);
  if (p->period_type) {
    fputs("ptype=", d.o);
    d_str(&d, p->period_type->type);
    fputc('/', d.o);
    d_str(&d, p->period_type->unit);
  }
  fputs(" dflt=", d.o);
  d_str(&d, p->default_sample_type);
  fputs(" doc=", d.o);
  d_str(&d, p->doc_url);
  for (size_t i = 0; i < p->n_comment; i++) {
    fputs("\ncomment ", d.o);
    d_str(&d, p->comment[i]);
  }
  for (size_t i = 0; i < p->n_sample_type; i++) {
    fputs("\ntype ", d.o);
    d_str(&d, p->sample_type[i]->type);
    fputc('/', d.o);
    d_str(&d, p->sample_type[i]->unit);
  }
  for (size_t i = 0; i < p->n_mapping; i++) {
    if (key_first(p, p->mapping[i]) != p->mapping[i]) continue; /* one of a key (go's Merge) */
    fputs("\n", d.o);
    d_mapping(&d, p->mapping[i]);
  }
  fprintf(d.o, "\nsamples %zu\n", p->n_sample);
  return d_close(&d);
}

/* A sample's labels are a set (pcol stores each set sorted by key, a
 * key's values in their order): they are dumped in an order of their contents, so two profiles
 * that list one set in different orders dump alike. */
static const Profile *LABEL_P;
static int bytes_cmp(const Profile *p, int64_t x, int64_t y) {
  size_t n = p->n_string_table;
  if (x < 0 || (size_t)x >= n || y < 0 || (size_t)y >= n) return (x > y) - (x < y);
  const ProtobufCBinaryData *a = &p->string_table[x], *b = &p->string_table[y];
  size_t m = a->len < b->len ? a->len : b->len;
  int c = m ? memcmp(a->data, b->data, m) : 0;
  return c ? c : (a->len > b->len) - (a->len < b->len);
}
static int label_cmp(const void *pa, const void *pb) {
  const Perftools__Profiles__Label *a = *(Perftools__Profiles__Label *const *)pa;
  const Perftools__Profiles__Label *b = *(Perftools__Profiles__Label *const *)pb;
  int c = bytes_cmp(LABEL_P, a->key, b->key);
  if (!c) c = bytes_cmp(LABEL_P, a->str, b->str);
  if (!c) c = (a->num > b->num) - (a->num < b->num);
  if (!c) c = bytes_cmp(LABEL_P, a->num_unit, b->num_unit);
  return c;
}

/* Dumps sample i into d, an open dumper reused from sample to sample (a
 * stream per sample cost most of the real-file round trips' time under
 * ASan: every new buffer is fresh, quarantined memory).  The text is at
 * d->buf until the next call. */
static const char *dump_sample(dumper *d, size_t i) {
  const Profile *p = d->p;
  rewind(d->o);
  const Perftools__Profiles__Sample *s = p->sample[i];
  fputs("values", d->o);
  for (size_t k = 0; k < s->n_value; k++) fprintf(d->o, " %lld", (long long)s->value[k]);
  Perftools__Profiles__Label *lab_one[8], **lab = lab_one;
  if (s->n_label > 8) lab = malloc(s->n_label * sizeof *lab);
  if (s->n_label) memcpy(lab, s->label, s->n_label * sizeof *lab);
  LABEL_P = p;
  qsort(lab, s->n_label, sizeof *lab, label_cmp);
  for (size_t k = 0; k < s->n_label; k++) {
    /* the label as pprof's postDecode reads it, and so pcol's importer: a
     * string (num and num_unit unread) when str != 0, else a number when
     * num != 0 || num_unit != 0, else none */
    int is_str = lab[k]->str != 0;
    if (!is_str && !lab[k]->num && !lab[k]->num_unit) continue;
    fputs("\n  label ", d->o);
    d_str(d, lab[k]->key);
    fputc(' ', d->o);
    d_str(d, lab[k]->str);
    fprintf(d->o, " %lld ", is_str ? 0LL : (long long)lab[k]->num);
    d_str(d, is_str ? 0 : lab[k]->num_unit);
  }
  if (lab != lab_one) free(lab);
  fputc('\n', d->o);
  for (size_t k = 0; k < s->n_location_id; k++) {
    long li = find_ix(CUR_IX->loc, p->n_location, s->location_id[k]);
    if (li < 0) {
      fprintf(d->o, "  <missing location %llu>\n", (unsigned long long)s->location_id[k]);
      continue;
    }
    d_location(d, p->location[li]);
  }
  fputc('\0', d->o);
  fflush(d->o);
  return d->buf;
}

/* The two profiles mean the same: every field, sample by sample; b, pcol's
 * export of a, without drop_frames and keep_frames (its stacks were pruned
 * by them on import, pprof_prune.c: go would prune them again). */
static void expect_same_profile(const Profile *a, const Profile *b) {
  cr_assert(b->drop_frames == 0 && b->keep_frames == 0, "the export wrote drop_frames/keep_frames");
  pindex ia = index_profile(a), ib = index_profile(b);
  CUR_IX = &ia;
  char *ha = dump_header(a);
  CUR_IX = &ib;
  char *hb = dump_header(b);
  cr_assert_str_eq(hb, ha);
  free(ha);
  free(hb);
  dumper da, db;
  d_open(&da, a);
  d_open(&db, b);
  for (size_t i = 0; i < a->n_sample; i++) {
    CUR_IX = &ia;
    const char *sa = dump_sample(&da, i);
    CUR_IX = &ib;
    const char *sb = dump_sample(&db, i);
    cr_assert_str_eq(sb, sa, "sample %zu differs", i + 1);
  }
  free(d_close(&da));
  free(d_close(&db));
  CUR_IX = NULL;
  pindex_free(&ia);
  pindex_free(&ib);
}

/* --------------------------------------------- the hand-built profile */

/* A string table in a scrambled order, so indices differ from pcol ids. */
static ProtobufCBinaryData STRS[] = {
    {0, NULL},
    {8, (uint8_t *)"function"},        /* 1 */
    {5, (uint8_t *)"count"},           /* 2 */
    {7, (uint8_t *)"samples"},         /* 3 */
    {5, (uint8_t *)"alloc"},           /* 4 */
    {5, (uint8_t *)"bytes"},           /* 5 */
    {3, (uint8_t *)"cpu"},             /* 6 */
    {11, (uint8_t *)"nanoseconds"},    /* 7 */
    {6, (uint8_t *)"main.f"},          /* 8 */
    {9, (uint8_t *)"_ZN4main1f"},      /* 9 */
    {7, (uint8_t *)"main.go"},         /* 10 */
    {7, (uint8_t *)"inl\0ned"},        /* 11: embedded NUL */
    {8, (uint8_t *)"/bin/app"},        /* 12 */
    {8, (uint8_t *)"deadbeef"},        /* 13 */
    {9, (uint8_t *)"[vdso]\xff\xfe"},  /* 14: invalid UTF-8 */
    {6, (uint8_t *)"thread"},          /* 15 */
    {4, (uint8_t *)"main"},            /* 16 */
    {4, (uint8_t *)"size"},            /* 17 */
    {12, (uint8_t *)"runtime\\..*$"},  /* 18 drop */
    {8, (uint8_t *)"^keep.*$"},        /* 19 keep */
    {10, (uint8_t *)"a comment "},     /* 20 */
    {23, (uint8_t *)"https://example.org/doc"}, /* 21 */
    {5, (uint8_t *)"space"},           /* 22 */
    {4, (uint8_t *)"main"},            /* 23: duplicate content of 16 */
};
#define NSTRS (sizeof STRS / sizeof STRS[0])

typedef struct hand {
  Profile p;
  Perftools__Profiles__ValueType vt[3], period_type;
  Perftools__Profiles__ValueType *vtp[3];
  Perftools__Profiles__Mapping map[2], *mapp[2];
  Perftools__Profiles__Function fn[3], *fnp[3];
  Perftools__Profiles__Line line[5], *linep[5];
  Perftools__Profiles__Location loc[4], *locp[4];
  Perftools__Profiles__Label lab[4], *labp[4];
  Perftools__Profiles__Sample s[3], *sp[3];
  uint64_t locs0[3], locs1[2];
  int64_t vals[3][3];
  int64_t comments[3];
} hand;

static void hand_build(hand *h) {
  memset(h, 0, sizeof *h);
  Profile *p = &h->p;
  perftools__profiles__profile__init(p);
  int64_t types[3][2] = {{3, 2}, {4, 5}, {6, 7}};
  for (int i = 0; i < 3; i++) {
    perftools__profiles__value_type__init(&h->vt[i]);
    h->vt[i].type = types[i][0];
    h->vt[i].unit = types[i][1];
    h->vtp[i] = &h->vt[i];
  }
  p->n_sample_type = 3;
  p->sample_type = h->vtp;
  perftools__profiles__value_type__init(&h->period_type);
  h->period_type.type = 22;
  h->period_type.unit = 5;
  p->period_type = &h->period_type;
  p->period = 524288;
  p->time_nanos = 1700000000123456789LL;
  p->duration_nanos = 10000000000LL;
  p->drop_frames = 18;
  p->keep_frames = 19;
  p->default_sample_type = 4;
  p->doc_url = 21;
  h->comments[0] = 20;
  h->comments[1] = 0; /* an empty comment */
  h->comments[2] = 1;
  p->n_comment = 3;
  p->comment = h->comments;
  /* mappings: ids sparse, all flags, build id, odd file name */
  uint64_t map_ids[2] = {77, 3};
  for (int i = 0; i < 2; i++) {
    perftools__profiles__mapping__init(&h->map[i]);
    h->map[i].id = map_ids[i];
    h->mapp[i] = &h->map[i];
  }
  h->map[0].memory_start = 0x400000;
  h->map[0].memory_limit = 0x800000;
  h->map[0].file_offset = 0x1000;
  h->map[0].filename = 12;
  h->map[0].build_id = 13;
  h->map[0].has_functions = h->map[0].has_filenames = h->map[0].has_line_numbers =
      h->map[0].has_inline_frames = 1;
  h->map[1].memory_start = 0x7fff0000;
  h->map[1].memory_limit = 0x7fff2000;
  h->map[1].filename = 14;
  h->map[1].has_line_numbers = 1;
  p->n_mapping = 2;
  p->mapping = h->mapp;
  /* functions: start_line, name != system_name, embedded NUL, no name */
  uint64_t fn_ids[3] = {0xdeadbeefcafeULL, 5, 6};
  for (int i = 0; i < 3; i++) {
    perftools__profiles__function__init(&h->fn[i]);
    h->fn[i].id = fn_ids[i];
    h->fnp[i] = &h->fn[i];
  }
  h->fn[0].name = 8;
  h->fn[0].system_name = 9;
  h->fn[0].filename = 10;
  h->fn[0].start_line = 40;
  h->fn[1].name = 11;
  h->fn[1].system_name = 11;
  h->fn[1].filename = 10;
  h->fn[2].name = 23; /* "main" via the duplicate entry */
  p->n_function = 3;
  p->function = h->fnp;
  /* lines: an inline chain with columns */
  for (int i = 0; i < 5; i++) {
    perftools__profiles__line__init(&h->line[i]);
    h->linep[i] = &h->line[i];
  }
  h->line[0] = h->line[0];
  h->line[0].function_id = 5; /* inlined callee first */
  h->line[0].line = 12;
  h->line[0].column = 7;
  h->line[1].function_id = 0xdeadbeefcafeULL;
  h->line[1].line = 44;
  h->line[1].column = 3;
  h->line[2].function_id = 6;
  h->line[2].line = 9;
  h->line[3].function_id = 0xdeadbeefcafeULL;
  h->line[3].line = 41;
  /* locations: inline chain + folded; no lines; no mapping */
  uint64_t loc_ids[4] = {1000, 1, 0x7fff0010, 9};
  for (int i = 0; i < 4; i++) {
    perftools__profiles__location__init(&h->loc[i]);
    h->loc[i].id = loc_ids[i];
    h->locp[i] = &h->loc[i];
  }
  h->loc[0].mapping_id = 77;
  h->loc[0].address = 0x401234;
  h->loc[0].n_line = 2;
  h->loc[0].line = &h->linep[0];
  h->loc[0].is_folded = 1;
  h->loc[1].mapping_id = 77;
  h->loc[1].address = 0x402000;
  h->loc[1].n_line = 1;
  h->loc[1].line = &h->linep[2];
  h->loc[2].mapping_id = 3;
  h->loc[2].address = 0x7fff0010; /* no lines */
  h->loc[3].n_line = 1;           /* no mapping, no address */
  h->loc[3].line = &h->linep[3];
  p->n_location = 4;
  p->location = h->locp;
  /* labels: string, numeric with unit, numeric without unit, key with both
   * (pprof reads its string: the number is not kept) */
  for (int i = 0; i < 4; i++) {
    perftools__profiles__label__init(&h->lab[i]);
    h->labp[i] = &h->lab[i];
  }
  h->lab[0].key = 15;
  h->lab[0].str = 16;
  h->lab[1].key = 17;
  h->lab[1].num = 4096;
  h->lab[1].num_unit = 5;
  h->lab[2].key = 17;
  h->lab[2].num = -3;
  h->lab[3].key = 15;
  h->lab[3].str = 1;
  h->lab[3].num = 12;
  /* samples: negative values, labels, empty stack */
  h->locs0[0] = 1000;
  h->locs0[1] = 1;
  h->locs0[2] = 9;
  h->locs1[0] = 0x7fff0010;
  h->locs1[1] = 1;
  int64_t v[3][3] = {{1, 4096, 10000000}, {2, -8192, -20000000}, {0, INT64_MIN, INT64_MAX}};
  memcpy(h->vals, v, sizeof v);
  for (int i = 0; i < 3; i++) {
    perftools__profiles__sample__init(&h->s[i]);
    h->s[i].n_value = 3;
    h->s[i].value = h->vals[i];
    h->sp[i] = &h->s[i];
  }
  h->s[0].n_location_id = 3;
  h->s[0].location_id = h->locs0;
  h->s[0].n_label = 2;
  h->s[0].label = &h->labp[0];
  h->s[1].n_location_id = 2;
  h->s[1].location_id = h->locs1;
  h->s[1].n_label = 2;
  h->s[1].label = &h->labp[2];
  p->n_sample = 3;
  p->sample = h->sp;
  p->n_string_table = NSTRS;
  p->string_table = STRS;
}

/* The hand-built profile with its string table encoded after every other
 * field (protobuf concatenation = merge), as the Go runtime writes it. */
static mem hand_bytes_strings_last(hand *h) {
  Profile strings_only;
  perftools__profiles__profile__init(&strings_only);
  strings_only.n_string_table = NSTRS;
  strings_only.string_table = STRS;
  h->p.n_string_table = 0;
  mem a = pack(&h->p), b = pack(&strings_only);
  h->p.n_string_table = NSTRS;
  mem m = cat(a, b);
  free(a.p);
  free(b.p);
  return m;
}

static Profile *round_trip(const void *data, size_t len, int gz) {
  void *fm;
  pcol_file *f = import_file(data, len, &fm);
  mem out = export_mem(f, NULL, gz);
  pcol_close(f);
  free(fm);
  if (gz) {
    cr_assert(out.n > 2 && out.p[0] == 0x1f && out.p[1] == 0x8b, "gzip output expected");
    mem raw = gunzip_mem(out.p, out.n);
    free(out.p);
    out = raw;
  }
  Profile *p = decode(out);
  free(out.p);
  return p;
}

/* export invariants google/pprof relies on */
static void expect_valid_export(const Profile *p) {
  cr_assert(p->n_string_table >= 1 && p->string_table[0].len == 0);
  for (size_t i = 0; i < p->n_function; i++) cr_assert_eq(p->function[i]->id, i + 1);
  for (size_t i = 0; i < p->n_location; i++) cr_assert_eq(p->location[i]->id, i + 1);
  for (size_t i = 0; i < p->n_mapping; i++) cr_assert_eq(p->mapping[i]->id, i + 1);
  for (size_t i = 0; i < p->n_sample; i++) cr_assert_eq(p->sample[i]->n_value, p->n_sample_type);
}

Test(pprof, hand_built_every_field_round_trips) {
  hand h;
  hand_build(&h);
  mem in = hand_bytes_strings_last(&h);
  Profile *back = round_trip(in.p, in.n, 0);
  expect_valid_export(back);
  expect_same_profile(&h.p, back);
  /* spot checks on fields no real file has */
  cr_assert_eq(back->n_comment, 3);
  cr_assert_eq(back->n_sample, 3);
  cr_assert_eq(back->sample[2]->n_location_id, 0);
  cr_assert_eq(back->sample[2]->value[1], INT64_MIN);
  cr_assert_eq(back->sample[2]->value[2], INT64_MAX);
  perftools__profiles__profile__free_unpacked(back, NULL);
  free(in.p);
}

Test(pprof, gzip_output_and_input) {
  hand h;
  hand_build(&h);
  mem raw = pack(&h.p), gz = gzip_mem(raw.p, raw.n);
  Profile *back = round_trip(gz.p, gz.n, 1);
  expect_same_profile(&h.p, back);
  perftools__profiles__profile__free_unpacked(back, NULL);
  free(raw.p);
  free(gz.p);
}

Test(pprof, multi_member_gzip) {
  hand h;
  hand_build(&h);
  mem raw = hand_bytes_strings_last(&h);
  size_t half = raw.n / 2;
  mem g1 = gzip_mem(raw.p, half), g2 = gzip_mem(raw.p + half, raw.n - half);
  mem both = cat(g1, g2);
  Profile *back = round_trip(both.p, both.n, 0);
  expect_same_profile(&h.p, back);
  perftools__profiles__profile__free_unpacked(back, NULL);
  free(raw.p);
  free(g1.p);
  free(g2.p);
  free(both.p);
}

/* pcol tables hold what pprof said, with the documented conventions */
Test(pprof, import_maps_into_pcol_tables) {
  hand h;
  hand_build(&h);
  mem in = pack(&h.p);
  void *fm;
  pcol_file *f = import_file(in.p, in.n, &fm);
  pcol_error err;
  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCES), 1);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), 3);
  cr_assert_eq(pcol_rows(f, PCOL_T_MAPPINGS), 2);
  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES), 3);
  pcol_view ts;
  cr_assert_eq(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TIMESTAMP, &ts, &err), 0);
  cr_assert_eq(pcol_view_i64(&ts, 0), 1700000000);
  pcol_str s;
  cr_assert_eq(pcol_meta_get(f, 1, "pprof.period", &s, &err), 0);
  cr_assert_eq(s.len, 6);
  cr_assert(memcmp(s.ptr, "524288", 6) == 0);
  cr_assert_eq(pcol_meta_get(f, 1, "pprof.doc_url", &s, &err), 0);
  cr_assert(s.len == 23 && memcmp(s.ptr, "https://example.org/doc", 23) == 0);
  cr_assert_eq(pcol_meta_get(f, 1, "pprof.default_sample_type", &s, &err), 0);
  cr_assert(s.len == 5 && memcmp(s.ptr, "alloc", 5) == 0);
  cr_assert_eq(pcol_meta_get(f, 1, "pprof.keep_frames", &s, &err), 0);
  cr_assert(s.len == 8 && memcmp(s.ptr, "^keep.*$", 8) == 0);
  /* weights 1, times NA, duration 0 */
  pcol_view w, t, d;
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT, &w, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_TIME, &t, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_DURATION, &d, &err), 0);
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(pcol_view_i64(&w, i), 1);
    cr_assert_eq(pcol_view_i64(&t, i), PCOL_NA_I64);
    cr_assert_eq(pcol_view_i64(&d, i), 0);
  }
  /* the function without a name has name NA and start_line 0 */
  pcol_view fname, fstart, fsys;
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &fname, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_SYSTEM_NAME, &fsys, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_START_LINE, &fstart, &err), 0);
  int found_nul = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_FUNCTIONS); i++) {
    cr_assert_eq(pcol_string(f, pcol_view_u32(&fname, i), &s, &err), 0);
    if (s.ptr && s.len == 7 && memcmp(s.ptr, "inl\0ned", 7) == 0) found_nul = 1;
    if (pcol_view_i64(&fstart, i) == 40) cr_assert_neq(pcol_view_u32(&fsys, i), pcol_view_u32(&fname, i));
  }
  cr_assert(found_nul, "the name with an embedded NUL kept its 7 bytes");
  /* folded flag and the column of the inline chain */
  pcol_view lflags, lcol;
  cr_assert_eq(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_FLAGS, &lflags, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LINES, PCOL_C_LINE_COLUMN, &lcol, &err), 0);
  int folded = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_LOCATIONS); i++) folded += pcol_view_u8(&lflags, i);
  cr_assert_eq(folded, 1);
  cr_assert_eq(pcol_view_i64(&lcol, 0), 7);
  /* labels: num_unit kept */
  pcol_view lunit, lnum;
  cr_assert_eq(pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_UNIT, &lunit, &err), 0);
  cr_assert_eq(pcol_column(f, PCOL_T_LABELS, PCOL_C_LB_NUM, &lnum, &err), 0);
  int with_unit = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_LABELS); i++)
    if (pcol_view_i64(&lnum, i) == 4096) {
      cr_assert_eq(pcol_string(f, pcol_view_u32(&lunit, i), &s, &err), 0);
      cr_assert(s.len == 5 && memcmp(s.ptr, "bytes", 5) == 0);
      with_unit = 1;
    }
  cr_assert(with_unit);
  pcol_close(f);
  free(fm);
  free(in.p);
}

/* A tiny profile written by hand with unpacked repeated scalars. */
static const uint8_t UNPACKED[] = {
    0x0a, 0x04, 0x08, 0x01, 0x10, 0x02,             /* sample_type {1, 2} */
    0x12, 0x13,                                     /* sample, 19 bytes: */
    0x08, 0x01, 0x08, 0x02,                         /*   location_id 1, 2 unpacked */
    0x10, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, /* value -5 */
    0x1a, 0x02, 0x08, 0x03,                         /*   label {key 3} (dropped by pprof) */
    0x2a, 0x04, 0x08, 0x01, 0x10, 0x04,             /* function {1, name 4} */
    0x22, 0x06, 0x08, 0x01, 0x22, 0x02, 0x08, 0x01, /* location {1, line {fn 1}} */
    0x22, 0x08, 0x08, 0x02, 0x22, 0x04, 0x08, 0x01, 0x10, 0x14, /* location {2, line {1, 20}} */
    0x32, 0x00,                                     /* string_table "" */
    0x32, 0x07, 's', 'a', 'm', 'p', 'l', 'e', 's',
    0x32, 0x05, 'c', 'o', 'u', 'n', 't',
    0x32, 0x01, 'k',
    0x32, 0x01, 'f',
    0x68, 0x01,                                     /* comment 1 unpacked */
    0x68, 0x02,                                     /* comment 2 */
};

Test(pprof, unpacked_and_packed_encodings_read_the_same) {
  Profile *a = perftools__profiles__profile__unpack(NULL, sizeof UNPACKED, UNPACKED);
  cr_assert_not_null(a, "the hand-encoded bytes are valid protobuf");
  cr_assert_eq(a->sample[0]->n_location_id, 2);
  cr_assert_eq(a->sample[0]->value[0], -5);
  Profile *back = round_trip(UNPACKED, sizeof UNPACKED, 0);
  expect_same_profile(a, back);
  /* protobuf-c packs on output: the packed form reads the same again */
  mem packed = pack(a);
  cr_assert_neq(packed.n, sizeof UNPACKED);
  Profile *back2 = round_trip(packed.p, packed.n, 0);
  expect_same_profile(a, back2);
  perftools__profiles__profile__free_unpacked(a, NULL);
  perftools__profiles__profile__free_unpacked(back, NULL);
  perftools__profiles__profile__free_unpacked(back2, NULL);
  free(packed.p);
}

/* ------------------------------------------------------------ errors */

static void expect_error(const void *data, size_t len, const pcol_import_options *o, int code,
                         const char *needle) {
  pcol_builder *b = new_builder();
  pcol_error err = {0};
  int rc = import_mem(b, data, len, "bad.pb", o, &err);
  cr_assert_eq(rc, code, "rc %d (%s), want %d", rc, err.message, code);
  cr_assert(strstr(err.message, needle), "message '%s' lacks '%s'", err.message, needle);
  cr_assert(strstr(err.message, "bad.pb"), "message '%s' names no file", err.message);
  pcol_builder_free(b);
}

static void expect_bad_profile(hand *h, const char *needle) {
  mem m = pack(&h->p);
  expect_error(m.p, m.n, NULL, PCOL_ECORRUPT, needle);
  free(m.p);
}

Test(pprof_errors, truncated_gzip) {
  hand h;
  hand_build(&h);
  mem raw = pack(&h.p), gz = gzip_mem(raw.p, raw.n);
  expect_error(gz.p, gz.n - 12, NULL, PCOL_ECORRUPT, "truncated gzip");
  gz.p[gz.n / 2] ^= 0x55; /* damaged deflate data or checksum */
  pcol_builder *b = new_builder();
  pcol_error err = {0};
  cr_assert_neq(import_mem(b, gz.p, gz.n, "bad.pb", NULL, &err), 0);
  pcol_builder_free(b);
  free(raw.p);
  free(gz.p);
}

Test(pprof_errors, truncated_protobuf) {
  hand h;
  hand_build(&h);
  mem raw = pack(&h.p);
  expect_error(raw.p, raw.n - 3, NULL, PCOL_ECORRUPT, "byte offset");
  free(raw.p);
}

Test(pprof_errors, bad_string_index) {
  hand h;
  hand_build(&h);
  h.fn[1].name = 99;
  expect_bad_profile(&h, "function #2 name is string index 99");
  hand_build(&h);
  h.lab[1].num_unit = -1;
  expect_bad_profile(&h, "label 2 num_unit");
  hand_build(&h);
  h.p.doc_url = (int64_t)NSTRS;
  expect_bad_profile(&h, "doc_url");
}

Test(pprof_errors, reserved_id_zero) {
  hand h;
  hand_build(&h);
  h.loc[2].id = 0;
  expect_bad_profile(&h, "location #3 has the reserved id 0");
  hand_build(&h);
  h.map[0].id = 0;
  expect_bad_profile(&h, "mapping #1 has the reserved id 0");
}

Test(pprof_errors, duplicate_ids) {
  hand h;
  hand_build(&h);
  h.fn[2].id = 5;
  expect_bad_profile(&h, "function #3 has id 5, already used");
}

Test(pprof_errors, value_length_mismatch) {
  hand h;
  hand_build(&h);
  h.s[1].n_value = 2;
  expect_bad_profile(&h, "sample #2 has 2 values, but there are 3 sample types");
}

Test(pprof_errors, dangling_references) {
  hand h;
  hand_build(&h);
  h.locs1[0] = 4242;
  expect_bad_profile(&h, "location id 4242");
  hand_build(&h);
  h.line[2].function_id = 0;
  expect_bad_profile(&h, "names function id 0");
}

Test(pprof_errors, string_table_rules) {
  hand h;
  hand_build(&h);
  ProtobufCBinaryData first = STRS[0];
  STRS[0] = (ProtobufCBinaryData){1, (uint8_t *)"x"};
  expect_bad_profile(&h, "string_table[0]");
  STRS[0] = first;
  h.p.n_string_table = 0;
  expect_bad_profile(&h, "string table is missing");
}

Test(pprof_errors, concatenated_profiles) {
  hand h;
  hand_build(&h);
  mem a = pack(&h.p);
  mem two = cat(a, a);
  expect_error(two.p, two.n, NULL, PCOL_ECORRUPT, "concatenated profiles");
  free(a.p);
  free(two.p);
}

Test(pprof_errors, empty_and_garbage) {
  expect_error("", 0, NULL, PCOL_ECORRUPT, "empty input");
  static const uint8_t garbage[] = {0x0f, 0x01, 0x02};
  expect_error(garbage, sizeof garbage, NULL, PCOL_ECORRUPT, "wire type");
}

/* A legacy binary CPU profile of 32-bit big-endian words (w: the words) */
static size_t legacy_be32(uint8_t *out, const uint32_t *w, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 4; k++) out[4 * i + (size_t)k] = (uint8_t)(w[i] >> (24 - 8 * k));
  return 4 * n;
}

/* gperftools' CPU profile (pprof_legacy.c), read as pprof's parseCPU does:
 * callers' addresses - 1, the values count and count x period, the maps
 * text's executable rows as mappings (the main one at 0x400000) */
Test(pprof_legacy, cpu_be32_records_and_maps) {
  const uint32_t w[] = {0, 3, 0, 2500, 0,                    /* header: period 2500 us */
                        3, 3, 0x401010, 0x401101, 0x401201,  /* count 3, leaf first */
                        0, 2, 0x401020, 0x401201,            /* a zero count: kept */
                        2, 1, 0x30000010,                    /* in libc */
                        0, 1, 0};                            /* the end marker */
  const char maps[] = "00401000-00402000 r-xp 00001000 08:01 7 /usr/bin/app\n"
                      "00402000-00403000 rw-p 00002000 08:01 7 /usr/bin/app\n"
                      "30000000-30001000 r-xp 00000000 08:01 9 /lib/libc.so.6\n";
  uint8_t buf[512];
  size_t n = legacy_be32(buf, w, sizeof w / sizeof w[0]);
  memcpy(buf + n, maps, sizeof maps - 1);
  n += sizeof maps - 1;
  void *fm;
  pcol_file *f = import_file(buf, n, &fm);
  mem m = export_mem(f, NULL, 0);
  Profile *p = decode(m);
  cr_assert_eq(p->period, 2500 * 1000);
  cr_assert_eq(p->n_sample, 3);
  int64_t want[3][2] = {{3, 3 * 2500000}, {0, 0}, {2, 2 * 2500000}};
  uint64_t addr[3][3] = {{0x401010, 0x401100, 0x401200}, {0x401020, 0x401200, 0}, {0x30000010, 0, 0}};
  size_t depth[3] = {3, 2, 1};
  for (size_t i = 0; i < 3; i++) {
    const Perftools__Profiles__Sample *x = p->sample[i];
    cr_assert_eq(x->n_value, 2);
    cr_assert_eq(x->value[0], want[i][0], "sample %zu", i);
    cr_assert_eq(x->value[1], want[i][1], "sample %zu", i);
    cr_assert_eq(x->n_location_id, depth[i], "sample %zu", i);
    for (size_t j = 0; j < depth[i]; j++) {
      const Perftools__Profiles__Location *l = NULL;
      for (size_t k = 0; k < p->n_location; k++)
        if (p->location[k]->id == x->location_id[j]) l = p->location[k];
      cr_assert_not_null(l);
      cr_assert_eq(l->address, addr[i][j], "sample %zu frame %zu: %#lx", i, j, (unsigned long)l->address);
    }
  }
  cr_assert_eq(p->n_mapping, 2); /* the rw- row is no mapping */
  cr_assert_eq(p->mapping[0]->memory_start, 0x400000); /* 0x401000 - offset 0x1000 */
  cr_assert_eq(p->mapping[0]->memory_limit, 0x402000);
  cr_assert_eq(p->mapping[0]->file_offset, 0);
#define STR_IS(i, s) (p->string_table[i].len == strlen(s) && !memcmp(p->string_table[i].data, s, strlen(s)))
  cr_assert(STR_IS(p->mapping[0]->filename, "/usr/bin/app"));
  cr_assert(STR_IS(p->mapping[1]->filename, "/lib/libc.so.6"));
  /* pprof's drop_frames of a legacy CPU profile kept in the meta, not
   * written: the stacks are pruned by it (pprof_prune.c) */
  cr_assert_eq(p->drop_frames, 0);
  pcol_str df;
  cr_assert_eq(pcol_meta_get(f, 1, "pprof.drop_frames", &df, NULL), 0);
  cr_assert(df.len > 16 && !memcmp(df.ptr, "ProfileData::Add|", 17));
#undef STR_IS
  perftools__profiles__profile__free_unpacked(p, NULL);
  free(m.p);
  pcol_close(f);
  free(fm);
}

Test(pprof_errors, legacy_formats_named) {
  /* a legacy CPU profile whose record lies about its depth, or is cut */
  const uint32_t deep[] = {0, 3, 0, 10000, 0, 1, 0x40000000, 0x401000};
  uint8_t buf[64];
  expect_error(buf, legacy_be32(buf, deep, 8), NULL, PCOL_ECORRUPT,
               "legacy CPU profile: a stack of 1073741824 addresses past the end of the file at "
               "byte offset 20");
  const uint32_t cut[] = {0, 3, 0, 10000, 0, 1};
  expect_error(buf, legacy_be32(buf, cut, 6), NULL, PCOL_ECORRUPT, "a record cut short at byte offset 20");
  /* a legacy text profile is read as go reads it (pprof_legacy_text.c):
   * a line go refuses is refused with its number; a form go does not
   * recognize (jemalloc's "heap_v2/RATE" alone) is named */
  const char *heap = "heap profile: 1: 2 [3: 4] @ heap/1048576\n1: 2 [3 4] @ 0x401000\n";
  expect_error(heap, strlen(heap), NULL, PCOL_ECORRUPT,
               "legacy heap profile: line 2: unexpected number of sample values");
  const char *zero = "heap profile: 1: 2 [3: 4] @ heap/1048576\n0: 2 [3: 4] @ 0x401000\n";
  expect_error(zero, strlen(zero), NULL, PCOL_ECORRUPT, "line 2: inuse count was 0 but inuse bytes was 2");
  const char *big = "--- contentionz 1 ---\n1 2 @ 0x10000000000000000\n";
  expect_error(big, strlen(big), NULL, PCOL_ECORRUPT, "legacy contention profile: line 2: an address past 64 bits");
  const char *je = "heap_v2/524288\n  t*: 1: 2 [0: 0]\n";
  expect_error(je, strlen(je), NULL, PCOL_EFORMAT, "legacy heap profile (text) in a form go tool pprof does not read");
}

Test(pprof_errors, input_size_cap) {
  hand h;
  hand_build(&h);
  mem raw = pack(&h.p), gz = gzip_mem(raw.p, raw.n);
  pcol_import_options o = {0};
  o.max_input_bytes = raw.n - 1;
  expect_error(raw.p, raw.n, &o, PCOL_ETOOBIG, "limit");
  expect_error(gz.p, gz.n, &o, PCOL_ETOOBIG, "inflated");
  o.max_input_bytes = raw.n; /* exactly at the cap is fine */
  pcol_builder *b = new_builder();
  pcol_error err = {0};
  cr_assert_eq(import_mem(b, gz.p, gz.n, "ok.pb", &o, &err), 0, "%s", err.message);
  pcol_builder_free(b);
  free(raw.p);
  free(gz.p);
}

/* Every truncation and many single-byte changes of a valid profile either
 * import (and then export) or fail with an error code: never crash, never
 * leak (run under ASan by `make test`). */
Test(pprof_errors, mutations_fail_cleanly) {
  hand h;
  hand_build(&h);
  mem raw = hand_bytes_strings_last(&h);
  uint8_t *buf = malloc(raw.n);
  int ok = 0, bad = 0;
  for (size_t cut = 0; cut < raw.n; cut++) {
    pcol_builder *b = new_builder();
    pcol_error err = {0};
    int rc = import_mem(b, raw.p, cut, "cut.pb", NULL, &err);
    cr_assert(rc <= 0);
    if (rc) cr_assert(err.message[0], "an error without a message at cut %zu", cut);
    rc ? bad++ : ok++;
    pcol_builder_free(b);
  }
  static const uint8_t flips[] = {0x01, 0x80, 0xff, 0x7f};
  for (size_t i = 0; i < raw.n; i++)
    for (size_t k = 0; k < sizeof flips; k++) {
      memcpy(buf, raw.p, raw.n);
      buf[i] ^= flips[k];
      pcol_builder *b = new_builder();
      pcol_error err = {0};
      int rc = import_mem(b, buf, raw.n, "flip.pb", NULL, &err);
      cr_assert(rc <= 0);
      if (rc == 0) {
        /* whatever was accepted must also export */
        void *fm;
        pcol_file *f = tu_reopen(b, NULL, &fm);
        mem out = export_mem(f, NULL, 0);
        Profile *p = decode(out);
        perftools__profiles__profile__free_unpacked(p, NULL);
        free(out.p);
        pcol_close(f);
        free(fm);
        ok++;
      } else {
        cr_assert(err.message[0]);
        bad++;
      }
      pcol_builder_free(b);
    }
  cr_assert(bad > 0 && ok > 0);
  free(buf);
  free(raw.p);
}

/* The streaming decoder (issue 32) reads each sub-message itself, where
 * protobuf-c's unpack read them before: on every mutation inside a
 * sub-message (the top-level framing, which pcol always read itself, left
 * alone) it must refuse exactly what protobuf-c refuses, and what both
 * accept must import to the same profile as protobuf-c decodes. */
static char AGREE_WHAT[64]; /* which mutation, for the failure message */
static void agree_with_protobuf_c(const uint8_t *buf, size_t n, size_t *accepted) {
  Profile *pc = perftools__profiles__profile__unpack(NULL, n, buf);
  pcol_builder *b = new_builder();
  pcol_error err = {0};
  int rc = import_mem(b, buf, n, "mut.pb", NULL, &err);
  int framing = rc && strstr(err.message, "malformed pprof protobuf (") != NULL;
  if (!pc) {
    cr_assert(framing, "%s: protobuf-c refuses it, pcol says rc %d: %s", AGREE_WHAT, rc,
              err.message);
  } else {
    cr_assert(!framing, "%s: protobuf-c accepts it, pcol refuses: %s", AGREE_WHAT, err.message);
    if (rc == 0) {
      void *fm;
      pcol_file *f = tu_reopen(b, NULL, &fm);
      mem out = export_mem(f, NULL, 0);
      Profile *back = decode(out);
      expect_same_profile(pc, back);
      perftools__profiles__profile__free_unpacked(back, NULL);
      free(out.p);
      pcol_close(f);
      free(fm);
      ++*accepted;
    }
    perftools__profiles__profile__free_unpacked(pc, NULL);
  }
  pcol_builder_free(b);
}

Test(pprof_errors, sub_message_decoding_agrees_with_protobuf_c) {
  hand h;
  hand_build(&h);
  mem raw = hand_bytes_strings_last(&h);
  /* the payload bytes of the top-level message fields (1-5, 11) */
  uint8_t *inside = calloc(raw.n, 1);
  for (size_t i = 0; i < raw.n;) {
    uint8_t tag = raw.p[i++];
    cr_assert(tag < 0x80 && ((tag & 7) == 0 || (tag & 7) == 2), "one-byte tags expected");
    uint64_t v = 0;
    for (int s = 0;; s += 7) {
      uint8_t c = raw.p[i++];
      v |= (uint64_t)(c & 0x7f) << s;
      if (!(c & 0x80)) break;
    }
    if ((tag & 7) != 2) continue;
    unsigned field = tag >> 3;
    if ((field >= 1 && field <= 5) || field == 11) memset(inside + i, 1, v);
    i += v;
  }
  uint8_t *buf = malloc(raw.n);
  size_t accepted = 0, tried = 0;
  static const uint8_t flips[] = {0x01, 0x02, 0x04, 0x08, 0x80, 0xff, 0x7f, 0x78};
  for (size_t i = 0; i < raw.n; i++) {
    if (!inside[i]) continue;
    for (size_t k = 0; k < sizeof flips; k++) {
      memcpy(buf, raw.p, raw.n);
      buf[i] ^= flips[k];
      snprintf(AGREE_WHAT, sizeof AGREE_WHAT, "byte %zu ^ 0x%02x", i, flips[k]);
      agree_with_protobuf_c(buf, raw.n, &accepted);
      tried++;
    }
  }
  /* a few bytes at once, seeded */
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (int t = 0; t < 3000; t++) {
    memcpy(buf, raw.p, raw.n);
    for (int m = 0; m < 3; m++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      size_t i = (size_t)(x % raw.n);
      if (inside[i]) buf[i] = (uint8_t)(x >> 32);
    }
    snprintf(AGREE_WHAT, sizeof AGREE_WHAT, "random mutation %d", t);
    agree_with_protobuf_c(buf, raw.n, &accepted);
    tried++;
  }
  cr_assert(accepted > 0 && accepted < tried, "accepted %zu of %zu", accepted, tried);
  free(buf);
  free(inside);
  free(raw.p);
}

/* --------------------------------------------- export of other sources */

#define S tu_cstr

static const char *sv(const Profile *p, int64_t i) {
  static char buf[4][256];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%.*s", (int)p->string_table[i].len,
           (const char *)p->string_table[i].data);
  return buf[k];
}

Test(pprof_export, rprof_source_gets_count_and_cpu) {
  pcol_builder *b = new_builder();
  uint32_t src, fn1, fn2, l1, l2, st;
  cr_assert_eq(pcol_b_source(b, "rprof", "Rprof.out", PCOL_NA_I64, &src, NULL), 0);
  cr_assert_eq(pcol_b_meta_str(b, src, "rprof.interval_us", "20000", NULL), 0);
  pcol_function_row f1 = {S(b, "f"), S(b, "f"), S(b, "a.R"), PCOL_NA_I64};
  pcol_function_row f2 = {0, 0, S(b, "b.R"), PCOL_NA_I64}; /* trailing-ref frame */
  cr_assert_eq(pcol_b_function(b, &f1, &fn1, NULL), 0);
  cr_assert_eq(pcol_b_function(b, &f2, &fn2, NULL), 0);
  pcol_line_row r1 = {fn1, 3, PCOL_NA_I64}, r2 = {fn2, 8, PCOL_NA_I64};
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &r1, 1, &l1, NULL), 0);
  cr_assert_eq(pcol_b_location(b, 0, 0, 0, &r2, 1, &l2, NULL), 0);
  uint32_t locs[2] = {l2, l1};
  cr_assert_eq(pcol_b_stack(b, locs, 2, &st, NULL), 0);
  pcol_sample_row s = {src, 0, 0, 1, PCOL_NA_I64, st, 0};
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  s.time_ns = 20000000;
  s.weight = 3;
  s.duration_ns = 60000000;
  cr_assert_eq(pcol_b_sample(b, &s, NULL, 0, NULL, NULL), 0);
  void *fm;
  pcol_file *f = tu_reopen(b, NULL, &fm);
  mem out = export_mem(f, NULL, 0);
  Profile *p = decode(out);
  expect_valid_export(p);
  cr_assert_eq(p->n_sample_type, 2);
  cr_assert_str_eq(sv(p, p->sample_type[0]->type), "samples");
  cr_assert_str_eq(sv(p, p->sample_type[0]->unit), "count");
  cr_assert_str_eq(sv(p, p->sample_type[1]->type), "cpu");
  cr_assert_str_eq(sv(p, p->sample_type[1]->unit), "nanoseconds");
  cr_assert_not_null(p->period_type);
  cr_assert_str_eq(sv(p, p->period_type->type), "cpu");
  cr_assert_eq(p->period, 20000000);
  cr_assert_eq(p->n_sample, 2);
  cr_assert_eq(p->sample[0]->value[0], 1);
  cr_assert_eq(p->sample[0]->value[1], 20000000);
  cr_assert_eq(p->sample[1]->value[0], 3);
  cr_assert_eq(p->sample[1]->value[1], 60000000);
  cr_assert_eq(p->sample[0]->n_location_id, 2);
  /* leaf first: the trailing-ref frame has no name but keeps its file */
  const Perftools__Profiles__Location *leaf = p->location[p->sample[0]->location_id[0] - 1];
  const Perftools__Profiles__Function *lf = p->function[leaf->line[0]->function_id - 1];
  cr_assert_eq(lf->name, 0);
  cr_assert_str_eq(sv(p, lf->filename), "b.R");
  cr_assert_eq(leaf->line[0]->line, 8);
  /* a time range through the long sample keeps the ticks inside it (the
   * range rule, spec.md §7): ticks at 20, 40 and 60 ms, from 50 ms one */
  pcol_select sel = {0};
  sel.has_from = 1;
  sel.from_ns = 50000000;
  mem part = export_mem(f, &sel, 0);
  Profile *q = decode(part);
  cr_assert_eq(q->n_sample, 1);
  cr_assert_eq(q->sample[0]->value[0], 1);
  cr_assert_eq(q->sample[0]->value[1], 20000000);
  perftools__profiles__profile__free_unpacked(p, NULL);
  perftools__profiles__profile__free_unpacked(q, NULL);
  free(out.p);
  free(part.p);
  pcol_close(f);
  free(fm);
  pcol_builder_free(b);
}

Test(pprof_export, merged_sources_union_types_and_select) {
  hand h;
  hand_build(&h);
  mem a = pack(&h.p);
  /* the second source measures one type the first has and one it lacks */
  static const uint8_t second[] = {
      0x0a, 0x04, 0x08, 0x01, 0x10, 0x02, /* sample_type cpu/nanoseconds */
      0x0a, 0x04, 0x08, 0x03, 0x10, 0x02, /* sample_type wall/nanoseconds */
      0x12, 0x04, 0x12, 0x02, 0x07, 0x09, /* sample {value [7, 9]} */
      0x32, 0x00, 0x32, 0x03, 'c', 'p', 'u',
      0x32, 0x0b, 'n', 'a', 'n', 'o', 's', 'e', 'c', 'o', 'n', 'd', 's',
      0x32, 0x04, 'w', 'a', 'l', 'l'};
  pcol_builder *b = new_builder();
  pcol_error err = {0};
  cr_assert_eq(import_mem(b, a.p, a.n, "one.pb", NULL, &err), 0, "%s", err.message);
  cr_assert_eq(import_mem(b, second, sizeof second, "two.pb", NULL, &err), 0, "%s", err.message);
  void *fm;
  pcol_file *f = tu_reopen(b, NULL, &fm);
  mem out = export_mem(f, NULL, 0);
  Profile *p = decode(out);
  expect_valid_export(p);
  cr_assert_eq(p->n_sample_type, 4); /* samples, alloc, cpu, wall */
  cr_assert_str_eq(sv(p, p->sample_type[3]->type), "wall");
  cr_assert_eq(p->n_sample, 4);
  cr_assert_eq(p->sample[0]->value[3], 0);  /* source 1 has no wall */
  /* source 2 has no samples/count: its count is its weight (THE count
   * rule), written in source 1's samples/count column, as pcol top
   * --value samples counts it (review 9 F1) */
  cr_assert_eq(p->sample[3]->value[0], 1);
  cr_assert_eq(p->sample[3]->value[2], 7);  /* cpu lands in the shared column */
  cr_assert_eq(p->sample[3]->value[3], 9);
  pcol_select sel = {0};
  sel.source_id = 2;
  mem two = export_mem(f, &sel, 0);
  Profile *q = decode(two);
  cr_assert_eq(q->n_sample_type, 2);
  cr_assert_eq(q->n_sample, 1);
  cr_assert_eq(q->sample[0]->value[0], 7);
  cr_assert_eq(q->n_comment, 0);
  cr_assert_eq(q->time_nanos, 0);
  perftools__profiles__profile__free_unpacked(p, NULL);
  perftools__profiles__profile__free_unpacked(q, NULL);
  free(out.p);
  free(two.p);
  free(a.p);
  pcol_close(f);
  free(fm);
  pcol_builder_free(b);
}

/* ---------------------------------------------------------- real files */

static mem read_testfile(const char *rel) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", testdata_dir(), rel);
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  mem m = {NULL, 0};
  size_t cap = 0;
  for (;;) {
    if (m.n == cap) m.p = realloc(m.p, cap = cap ? cap * 2 : 65536);
    size_t k = fread(m.p + m.n, 1, cap - m.n, f);
    if (!k) break;
    m.n += k;
  }
  fclose(f);
  return m;
}

static void real_round_trip(const char *rel, uint64_t want_samples) {
  SKIP_WITHOUT_TESTDATA();
  mem in = read_testfile(rel);
  mem raw = in.n > 2 && in.p[0] == 0x1f ? gunzip_mem(in.p, in.n) : in;
  Profile *orig = decode(raw);
  cr_assert_eq(orig->n_sample, want_samples, "%s", rel);
  Profile *back = round_trip(in.p, in.n, 1);
  expect_valid_export(back);
  expect_same_profile(orig, back);
  perftools__profiles__profile__free_unpacked(orig, NULL);
  perftools__profiles__profile__free_unpacked(back, NULL);
  if (raw.p != in.p) free(raw.p);
  free(in.p);
}

Test(pprof_real, go_cpu_inline_small) { real_round_trip("pprof/go-cpu-inline-small.pb.gz", 76); }
Test(pprof_real, go_cpu_large) { real_round_trip("pprof/go-cpu-large.pb.gz", 20430); }
Test(pprof_real, cpp_unsymbolized) { real_round_trip("pprof/cpp-cpu-unsymbolized-mappings.pb.gz", 52); }
Test(pprof_real, go_heap_nomappings) { real_round_trip("pprof/go-heap-nomappings-nofunctions.pb.gz", 2); }
Test(pprof_real, go_heap_allocs_inline) { real_round_trip("pprof/go-heap-allocs-inline.pb.gz", 11951); }
Test(pprof_real, go_heap_delta_negative) { real_round_trip("pprof/go-heap-delta-negative-values.pb.gz", 4942); }
Test(pprof_real, go_cpu_string_labels) { real_round_trip("pprof/go-cpu-string-labels.pb.gz", 480); }
Test(pprof_real, java_async_profiler) { real_round_trip("pprof/java-cpu-async-profiler.pb.gz", 2614); }
Test(pprof_real, dotnet_uncompressed) { real_round_trip("pprof/dotnet-6types-labels-UNCOMPRESSED.pb", 2814); }
Test(pprof_real, nodejs_wall) { real_round_trip("pprof/nodejs-wall.pb.gz", 27); }
Test(pprof_real, native_ebpf_kernel) { real_round_trip("pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz", 439); }
Test(pprof_real, edge_invalid_utf8_nul) { real_round_trip("pprof/edge-invalid-utf8-nul-strings.pb.gz", 1); }
Test(pprof_real, r_gperftools) {
  real_round_trip("pprof-from-r/r-prof-profile__1.out.prof.pb.gz", 24);
  real_round_trip("pprof-from-r/r-prof-profile__1.out.prof.5bb4fa9.pb.gz", 130);
}

/* facts about the imported tables of real files */
Test(pprof_real, negative_values_and_nul_names_survive) {
  SKIP_WITHOUT_TESTDATA();
  mem in = read_testfile("pprof/go-heap-delta-negative-values.pb.gz");
  void *fm;
  pcol_file *f = import_file(in.p, in.n, &fm);
  pcol_view v;
  pcol_error err;
  cr_assert_eq(pcol_column(f, PCOL_T_VALUES, PCOL_C_V_VALUE, &v, &err), 0);
  uint64_t neg = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_VALUES); i++) neg += pcol_view_i64(&v, i) < 0;
  cr_assert_eq(neg, 288);
  cr_assert_eq(pcol_rows(f, PCOL_T_VALUES), 4942 * 4);
  pcol_close(f);
  free(fm);
  free(in.p);

  in = read_testfile("pprof/edge-invalid-utf8-nul-strings.pb.gz");
  f = import_file(in.p, in.n, &fm);
  pcol_view fname;
  cr_assert_eq(pcol_column(f, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME, &fname, &err), 0);
  int found = 0;
  for (uint64_t i = 0; i < pcol_rows(f, PCOL_T_FUNCTIONS); i++) {
    pcol_str s;
    cr_assert_eq(pcol_string(f, pcol_view_u32(&fname, i), &s, &err), 0);
    if (s.len == 256) {
      for (int k = 0; k < 256; k++) cr_assert_eq((uint8_t)s.ptr[k], k);
      found = 1;
    }
  }
  cr_assert(found, "the 256-byte name 0x00..0xff survives");
  pcol_close(f);
  free(fm);
  free(in.p);
}

/* ------------------------------------- a large input spilled to a file */

/* Past pcol_spill_bytes the importer reads the inflated message from an
 * unlinked temporary file it maps, dropping pages behind each pass (issue
 * 32).  With the threshold at 256 bytes, every test file takes that path
 * and must give the same pcol file, byte for byte, as when held in memory,
 * or the same error. */

static int pack_bytes(const void *data, size_t n, void **out, size_t *outlen, char *msg) {
  pcol_builder *b = new_builder();
  pcol_error err = {0};
  int rc = import_mem(b, data, n, "spill.pb", NULL, &err);
  if (!rc) rc = pcol_builder_write_mem(b, NULL, out, outlen, &err);
  snprintf(msg, 512, "%s", rc ? err.message : "");
  pcol_builder_free(b);
  return rc;
}

static void same_when_spilled(const void *data, size_t n, const char *what) {
  void *a = NULL, *b = NULL;
  size_t na = 0, nb = 0;
  char ma[512], mb[512];
  size_t keep = pcol_spill_bytes;
  pcol_spill_bytes = 0;
  int ra = pack_bytes(data, n, &a, &na, ma);
  pcol_spill_bytes = 256;
  int rb = pack_bytes(data, n, &b, &nb, mb);
  pcol_spill_bytes = keep;
  cr_assert_eq(rb, ra, "%s: rc %d spilled, %d in memory (%s / %s)", what, rb, ra, mb, ma);
  cr_assert_str_eq(mb, ma, "%s", what);
  if (!ra) {
    cr_assert_eq(nb, na, "%s", what);
    cr_assert(memcmp(a, b, na) == 0, "%s: the pcol files differ", what);
  }
  free(b);
  /* read twice through a small window, or once keeping its samples
   * (spilled; with every stack numbered, with a few, with none): the same file */
  size_t keep_memo = pcol_pprof_spill_memo_bytes;
  const size_t memo[4] = {keep_memo, keep_memo, 200, 0};
  for (int way = 0; !ra && way < 4; way++) {
    int seekable = way == 0;
    memsrc m = {data, n, 0, 0, 0};
    pcol_builder *bb = new_builder();
    pcol_error err = {0};
    pcol_spill_bytes = seekable ? keep : 256;
    pcol_pprof_spill_memo_bytes = memo[way];
    int rc = import_memsrc(bb, &m, seekable, seekable ? 3 : 5, "spill.pb", NULL, &err);
    pcol_spill_bytes = keep;
    pcol_pprof_spill_memo_bytes = keep_memo;
    if (!rc) rc = pcol_builder_write_mem(bb, NULL, &b, &nb, &err);
    cr_assert_eq(rc, 0, "%s: %s", what, err.message);
    cr_assert(nb == na && memcmp(a, b, na) == 0, "%s: the pcol file read %s differs", what,
              seekable ? "twice" : "from a pipe's kept samples");
    free(b);
    pcol_builder_free(bb);
  }
  free(a);
}

Test(pprof_spill, spilled_input_gives_identical_files) {
  hand h;
  hand_build(&h);
  mem raw = hand_bytes_strings_last(&h);
  mem gz = gzip_mem(raw.p, raw.n);
  same_when_spilled(raw.p, raw.n, "hand-built");
  same_when_spilled(gz.p, gz.n, "hand-built, gzip");
  raw.p[raw.n / 2] ^= 0x80; /* and an error is the same error */
  same_when_spilled(raw.p, raw.n, "hand-built, damaged");
  free(raw.p);
  free(gz.p);
  SKIP_WITHOUT_TESTDATA();
  static const char *const files[] = {
      "pprof/go-cpu-large.pb.gz", "pprof/go-heap-allocs-inline.pb.gz",
      "pprof/java-cpu-async-profiler.pb.gz", "pprof/dotnet-6types-labels-UNCOMPRESSED.pb",
      "pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    mem in = read_testfile(files[i]);
    same_when_spilled(in.p, in.n, files[i]);
    free(in.p);
  }
}

/* data[0..n) imported from a stream that seeks (*m: what was read of it)
 * with the window and bound given: the file pack_bytes makes of it.  The
 * windows' peaks (pcol_pprof_window_peak) are this import's. */
static void same_file_through(const void *data, size_t n, size_t window, size_t whole, memsrc *m,
                              const char *what) {
  void *want = NULL, *got = NULL;
  size_t nwant = 0, ngot = 0;
  char msg[512];
  cr_assert_eq(pack_bytes(data, n, &want, &nwant, msg), 0, "%s: %s", what, msg);
  *m = (memsrc){data, n, 0, 0, 0};
  atomic_store(&pcol_pprof_window_peak[0], 0);
  atomic_store(&pcol_pprof_window_peak[1], 0);
  pcol_builder *b = new_builder();
  pcol_error err = {0};
  int rc = import_memsrc_whole(b, m, 1, window, whole, "spill.pb", NULL, &err); /* (pack_bytes' name) */
  if (!rc) rc = pcol_builder_write_mem(b, NULL, &got, &ngot, &err);
  cr_assert_eq(rc, 0, "%s: %s", what, err.message);
  cr_assert(ngot == nwant && memcmp(got, want, nwant) == 0, "%s, whole %zu: the files differ", what,
            whole);
  free(got);
  free(want);
  pcol_builder_free(b);
}

/* A message up to pcol_pprof_whole is held whole and read once, larger
 * than the window too; past it, read twice through the window.  The file
 * is the same either way. */
static void read_once_up_to_whole(const void *data, size_t n, size_t window, size_t whole,
                                  const char *what) {
  cr_assert_gt(n, window, "%s: the test needs a message past the window", what);
  const size_t wholes[2] = {whole, window}; /* held whole, then not */
  for (int w = 0; w < 2; w++) {
    memsrc m;
    same_file_through(data, n, window, wholes[w], &m, what);
    /* the stream's bytes: inflated or not, what the importer read of it */
    cr_assert_eq(m.got, w == 0 ? n : 2 * n, "%s, whole %zu: %zu bytes read of %zu", what,
                 wholes[w], m.got, n);
  }
}

/* m grown to exactly `size` bytes by an unknown field (99, bytes), which
 * the importer skips as protobuf readers do. */
static mem pad_to(mem m, size_t size) {
  size_t room = size - m.n - 2, len = room - 1; /* tag (2 bytes), length, bytes */
  if (len >= 128) len = room - 2;
  cr_assert(len >= 128 && len < 16384, "pad_to: %zu bytes", len);
  m.p = realloc(m.p, size);
  uint8_t *q = m.p + m.n;
  *q++ = 0x9a, *q++ = 0x06; /* field 99, wire type 2 */
  *q++ = (uint8_t)(0x80 | (len & 0x7f)), *q++ = (uint8_t)(len >> 7);
  memset(q, 'x', len);
  m.n = size;
  return m;
}

Test(pprof, held_whole_up_to_its_bound_and_read_twice_past_it) {
  hand h;
  hand_build(&h);
  mem raw = hand_bytes_strings_last(&h);
  mem gz = gzip_mem(raw.p, raw.n);
  read_once_up_to_whole(raw.p, raw.n, 16, raw.n, "hand-built");
  /* exactly the bound, where the window (16, 32, ... 1024) fills whole
   * before the end is seen: still read once */
  mem exact = pad_to((mem){memcpy(malloc(raw.n), raw.p, raw.n), raw.n}, 1024);
  read_once_up_to_whole(exact.p, exact.n, 16, 1024, "hand-built, exactly the bound");
  free(exact.p);
  read_once_up_to_whole(gz.p, gz.n, 16, raw.n, "hand-built, gzip"); /* (the bound is of inflated bytes) */
  free(raw.p);
  free(gz.p);
  SKIP_WITHOUT_TESTDATA();
  /* 2.4 MB inflated: past the default 1 MiB window, under the 16 MiB bound */
  mem in = read_testfile("pprof/go-cpu-large.pb.gz");
  read_once_up_to_whole(in.p, in.n, (size_t)1 << 20, pcol_pprof_whole, "go-cpu-large");
  free(in.p);
}

/* Past pcol_pprof_whole: read twice, the file the same, and the second
 * reading slides its window from the start instead of growing it to the
 * bound again (pass 1 knew the message would not fit: 16 MiB more at the
 * peak, when the builder is full).  raw: an uncompressed message. */
static void slides_past_whole(const void *raw, size_t n, size_t window, size_t whole,
                              const char *what) {
  cr_assert_gt(n, whole, "%s: the test needs a message past the bound", what);
  memsrc m;
  same_file_through(raw, n, window, whole, &m, what);
  cr_assert_eq(m.got, 2 * n, "%s: %zu bytes read of %zu", what, m.got, n);
  cr_assert_eq(m.seeks, 1, "%s: %zu seeks back", what, m.seeks);
  /* the first reading stops at the bound (its fields are smaller than
   * the window), the second stays near the window */
  size_t first = atomic_load(&pcol_pprof_window_peak[0]), second = atomic_load(&pcol_pprof_window_peak[1]);
  cr_assert_eq(first, whole + 1, "%s: the first reading's window grew to %zu bytes (bound %zu)", what,
               first, whole);
  cr_assert(second > 0 && second <= 2 * window,
            "%s: the second reading's window grew to %zu bytes (window %zu, bound %zu)", what, second,
            window, whole);
}

Test(pprof, past_its_bound_the_second_reading_slides) {
  hand h;
  hand_build(&h);
  mem raw = hand_bytes_strings_last(&h);
  slides_past_whole(raw.p, raw.n, 64, 256, "hand-built");
  free(raw.p);
  SKIP_WITHOUT_TESTDATA();
  mem in = read_testfile("pprof/go-cpu-large.pb.gz");
  mem big = gunzip_mem(in.p, in.n); /* 2.4 MB: past a 1 MiB bound, in a 64 KiB window */
  slides_past_whole(big.p, big.n, (size_t)64 << 10, (size_t)1 << 20, "go-cpu-large");
  free(big.p);
  free(in.p);
}

/* Of one profile's mapping rows of one key (two processes of a program),
 * the one go's profile.Merge meets first is kept (merge.go: the first
 * mapping ahead, then the samples in order, one of values 0 skipped, each
 * one's locations leaf first), and the others' addresses move to it: here
 * the second process's library (B), met first by the third sample, whose
 * stack a sample of 0 met before (a pipe's copy numbers it then).  Read
 * from memory, twice through a small window (the samples read a third
 * time first) and from a pipe (its copy read twice), stacks numbered or
 * not: the same rows. */
Test(pprof, key_rows_kept_as_go_meets_them) {
  static ProtobufCBinaryData strs[] = {{0, (uint8_t *)""}, {7, (uint8_t *)"samples"}, {5, (uint8_t *)"count"},
                                       {4, (uint8_t *)"/app"}, {7, (uint8_t *)"/lib.so"}};
  Profile p;
  perftools__profiles__profile__init(&p);
  Perftools__Profiles__ValueType vt, *vtp = &vt;
  perftools__profiles__value_type__init(&vt);
  vt.type = 1, vt.unit = 2;
  p.n_sample_type = 1, p.sample_type = &vtp;
  /* X the program, A and B its library in two processes */
  Perftools__Profiles__Mapping m[3], *mp[3];
  uint64_t start[3] = {0x400000, 0x7f0000010000, 0x7f0000090000}, file[3] = {3, 4, 4};
  for (int i = 0; i < 3; i++) {
    perftools__profiles__mapping__init(&m[i]);
    m[i].id = (uint64_t)i + 1, m[i].memory_start = start[i], m[i].memory_limit = start[i] + 0x3000;
    m[i].filename = (int64_t)file[i];
    mp[i] = &m[i];
  }
  p.n_mapping = 3, p.mapping = mp;
  Perftools__Profiles__Location l[3], *lp[3];
  uint64_t at[3] = {0x400100, 0x7f0000010010, 0x7f0000090020};
  for (int i = 0; i < 3; i++) {
    perftools__profiles__location__init(&l[i]);
    l[i].id = (uint64_t)i + 1, l[i].mapping_id = (uint64_t)i + 1, l[i].address = at[i];
    lp[i] = &l[i];
  }
  p.n_location = 3, p.location = lp;
  uint64_t sa[2] = {2, 1}, sb[2] = {3, 1}; /* A's leaf, B's leaf */
  int64_t v[4] = {0, 0, 5, 3};
  uint64_t *stk[4] = {sa, sb, sb, sa};
  Perftools__Profiles__Sample s[4], *sp[4];
  for (int i = 0; i < 4; i++) {
    perftools__profiles__sample__init(&s[i]);
    s[i].n_location_id = 2, s[i].location_id = stk[i], s[i].n_value = 1, s[i].value = &v[i];
    sp[i] = &s[i];
  }
  p.n_sample = 4, p.sample = sp;
  p.n_string_table = 5, p.string_table = strs;
  mem raw = pack(&p);
  size_t keep_memo = pcol_pprof_spill_memo_bytes, keep_spill = pcol_spill_bytes;
  for (int way = 0; way < 4; way++) { /* memory; seekable; a pipe, stacks numbered or not */
    pcol_builder *b = new_builder();
    pcol_error err = {0};
    int rc;
    if (way == 0) {
      FILE *f = fmemopen(raw.p, raw.n, "rb");
      rc = pcol_import_pprof(b, f, "keys.pb", NULL, &err);
      fclose(f);
    } else {
      memsrc ms = {raw.p, raw.n, 0, 0, 0};
      pcol_spill_bytes = way == 1 ? keep_spill : 256;
      pcol_pprof_spill_memo_bytes = way == 3 ? 0 : keep_memo;
      rc = import_memsrc_whole(b, &ms, way == 1, 3, way == 1 ? 18 : 0, "keys.pb", NULL, &err);
      pcol_spill_bytes = keep_spill;
      pcol_pprof_spill_memo_bytes = keep_memo;
      if (way == 1) cr_assert_eq(ms.got, 3 * raw.n, "way 1: %zu bytes read of %zu", ms.got, raw.n);
    }
    cr_assert_eq(rc, 0, "way %d: %s", way, err.message);
    void *fm;
    pcol_file *f = tu_reopen(b, NULL, &fm);
    pcol_builder_free(b);
    pcol_view ms, la, lm;
    cr_assert_eq(pcol_column(f, PCOL_T_MAPPINGS, PCOL_C_MAP_START, &ms, &err), 0);
    cr_assert_eq(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_ADDRESS, &la, &err), 0);
    cr_assert_eq(pcol_column(f, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING, &lm, &err), 0);
    cr_assert_eq(pcol_rows(f, PCOL_T_MAPPINGS), 2, "way %d", way);
    cr_assert_eq(pcol_view_u64(&ms, 0), 0x400000, "way %d", way);
    cr_assert_eq(pcol_view_u64(&ms, 1), 0x7f0000090000, "way %d: the library kept at %#llx", way,
                 (unsigned long long)pcol_view_u64(&ms, 1));
    /* A's location at B's address of its offset */
    cr_assert_eq(pcol_view_u64(&la, 1), 0x7f0000090010, "way %d", way);
    cr_assert_eq(pcol_view_u32(&lm, 1), 2, "way %d", way);
    pcol_close(f);
    free(fm);
  }
  free(raw.p);
}
