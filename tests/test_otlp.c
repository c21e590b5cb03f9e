/* test_otlp.c — the OTLP importer's Samples, read from the wire
 * (lib/convert/otlp/otlp_samples.c) instead of by protobuf-c's decode of the
 * whole message: what protobuf-c refuses is refused, what it accepts reads
 * the same; observations out of time order come out the same whether
 * sorted in memory or through runs on disk, and the same as the samples
 * written in order; a message read from a mapped copy of the input (pages
 * handed back as the passes go) the same as from memory. */
#include <criterion/criterion.h>
#include "testutil.h"
#include "read_all.h" /* pcol_spill_bytes */
#include "rowsort.h"  /* pcol_rowsort_bytes */
#include "opentelemetry/proto/profiles/v1development/profiles.pb-c.h"
#include "otlp/otlp.h" /* pcol_otlp_str, pcol_otlp_str_alloc */
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------- writing by hand */

typedef struct wbuf {
  uint8_t *p;
  size_t n, cap;
} wbuf;

static void wb_bytes(wbuf *w, const void *d, size_t n) {
  if (w->n + n > w->cap) {
    w->cap = (w->n + n) * 2 + 64;
    w->p = realloc(w->p, w->cap);
    cr_assert_not_null(w->p);
  }
  if (n) memcpy(w->p + w->n, d, n);
  w->n += n;
}
static void wb_varint(wbuf *w, uint64_t v) {
  uint8_t b[10];
  size_t k = 0;
  while (v >= 0x80) {
    b[k++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  b[k++] = (uint8_t)v;
  wb_bytes(w, b, k);
}
static void wb_uint(wbuf *w, unsigned f, uint64_t v) {
  wb_varint(w, f << 3);
  wb_varint(w, v);
}
static void wb_msg(wbuf *w, unsigned f, const wbuf *in) {
  wb_varint(w, f << 3 | 2);
  wb_varint(w, in->n);
  wb_bytes(w, in->p, in->n);
}
static void wb_str(wbuf *w, unsigned f, const char *s) {
  wb_varint(w, f << 3 | 2);
  wb_varint(w, strlen(s));
  wb_bytes(w, s, strlen(s));
}
static void wb_fixed64(wbuf *w, uint64_t v) {
  uint8_t b[8];
  for (int k = 0; k < 8; k++) b[k] = (uint8_t)(v >> (8 * k));
  wb_bytes(w, b, 8);
}
static void wb_free(wbuf *w) {
  free(w->p);
  memset(w, 0, sizeof *w);
}

/* A Sample, in v1.10's numbers; unpacked: its attribute indices and
 * timestamps one varint or fixed64 each, as proto2 writers did (values
 * stay packed: an unpacked value reads as v1.9's link_index, and the
 * message as both layouts); extra: unknown fields too. */
typedef struct spec {
  int32_t stack, link;
  int nattr, nval, nts;
  int32_t attrs[3];
  int64_t vals[4];
  uint64_t ts[4];
  int unpacked, extra;
  uint64_t stack_wire; /* nonzero: the stack_index varint as written (past 32 bits) */
  int odd;             /* ODD_LEN: values' length in 5 bytes, 2^32 over; ODD_TAG0: a field 0 in 80 00 */
} spec;
enum { ODD_LEN = 1, ODD_TAG0 = 2 };

static void put_sample(wbuf *w, const spec *s) {
  wbuf m = {0}, t = {0};
  if (s->stack_wire) wb_uint(&m, 1, s->stack_wire);
  else if (s->stack) wb_uint(&m, 1, (uint64_t)(int64_t)s->stack);
  if (s->extra) wb_uint(&m, 9, 12345);
  if (s->unpacked) {
    for (int i = 0; i < s->nattr; i++) wb_uint(&m, 2, (uint64_t)(int64_t)s->attrs[i]);
  } else if (s->nattr) {
    for (int i = 0; i < s->nattr; i++) wb_varint(&t, (uint64_t)(int64_t)s->attrs[i]);
    wb_msg(&m, 2, &t);
    t.n = 0;
  }
  if (s->link) wb_uint(&m, 3, (uint64_t)s->link);
  if (s->nval) { /* (packed always: a varint in field 4 is v1.9's link_index) */
    for (int i = 0; i < s->nval; i++) wb_varint(&t, (uint64_t)s->vals[i]);
    if (s->odd == ODD_LEN) { /* its length + 2^32, in 5 bytes: protobuf-c refuses it */
      uint8_t len[5] = {(uint8_t)(t.n | 0x80), 0x80, 0x80, 0x80, 0x10};
      cr_assert(t.n < 0x80);
      wb_varint(&m, 4 << 3 | 2);
      wb_bytes(&m, len, 5);
      wb_bytes(&m, t.p, t.n);
    } else {
      wb_msg(&m, 4, &t);
    }
    t.n = 0;
  }
  if (s->odd == ODD_TAG0) /* field 0 as 80 00, a varint: protobuf-c skips it as unknown */
    wb_bytes(&m, (uint8_t[]){0x80, 0x00, 0x05}, 3);
  if (s->extra) wb_str(&m, 10, "unknown");
  if (s->unpacked) {
    for (int i = 0; i < s->nts; i++) {
      wb_varint(&m, 5 << 3 | 1);
      wb_fixed64(&m, s->ts[i]);
    }
  } else if (s->nts) {
    for (int i = 0; i < s->nts; i++) wb_fixed64(&t, s->ts[i]);
    wb_msg(&m, 5, &t);
  }
  wb_msg(w, 2, &m);
  wb_free(&m);
  wb_free(&t);
}

#define T0 1700000000000000000ull

/* A Profile of sample type (type, unit) (string indices) at T0. */
static void put_profile(wbuf *w, int type, int unit, const spec *s, size_t n, const size_t *order) {
  wbuf p = {0}, v = {0};
  wb_uint(&v, 1, (uint64_t)type);
  wb_uint(&v, 2, (uint64_t)unit);
  wb_msg(&p, 1, &v);
  for (size_t i = 0; i < n; i++) put_sample(&p, &s[order ? order[i] : i]);
  wb_varint(&p, 3 << 3 | 1);
  wb_fixed64(&p, T0);
  wb_uint(&p, 6, 10000000);
  wb_msg(w, 2, &p);
  wb_free(&p);
  wb_free(&v);
}

static const char *const STRINGS[] = {"",  "samples", "count", "cpu",     "nanoseconds", "f",
                                      "g", "h",       "k",     "main.go", "n"};

static void put_dictionary(wbuf *w) {
  wbuf d = {0}, m = {0}, l = {0};
  wb_msg(&d, 1, &m); /* mapping 0 */
  wb_msg(&d, 2, &m); /* location 0 */
  for (int i = 1; i <= 3; i++) {
    m.n = l.n = 0;
    wb_uint(&m, 2, 0x1000 + 16 * (uint64_t)i);
    wb_uint(&l, 1, (uint64_t)i);
    wb_uint(&l, 2, 10 + (uint64_t)i);
    wb_msg(&m, 3, &l);
    wb_msg(&d, 2, &m);
  }
  m.n = 0;
  wb_msg(&d, 3, &m); /* function 0 */
  for (int i = 1; i <= 3; i++) {
    m.n = 0;
    wb_uint(&m, 1, 4 + (uint64_t)i);
    wb_uint(&m, 3, 9);
    wb_msg(&d, 3, &m);
  }
  m.n = 0;
  wb_msg(&d, 4, &m); /* link 0 */
  m.n = 0;
  wb_varint(&m, 1 << 3 | 2);
  wb_varint(&m, 16);
  for (int i = 0; i < 16; i++) wb_bytes(&m, (uint8_t[]){(uint8_t)(0xa0 + i)}, 1);
  wb_varint(&m, 2 << 3 | 2);
  wb_varint(&m, 8);
  for (int i = 0; i < 8; i++) wb_bytes(&m, (uint8_t[]){(uint8_t)(0x10 + i)}, 1);
  wb_msg(&d, 4, &m);
  for (size_t i = 0; i < sizeof STRINGS / sizeof *STRINGS; i++) wb_str(&d, 5, STRINGS[i]);
  m.n = 0;
  wb_msg(&d, 6, &m); /* attribute 0 */
  m.n = l.n = 0;     /* attribute 1: k = "f" */
  wb_uint(&m, 1, 8);
  wb_uint(&l, 8, 5); /* AnyValue.string_value_strindex */
  wb_msg(&m, 2, &l);
  wb_msg(&d, 6, &m);
  m.n = l.n = 0; /* attribute 2: n = 42 */
  wb_uint(&m, 1, 10);
  wb_uint(&l, 3, 42);
  wb_msg(&m, 2, &l);
  wb_msg(&d, 6, &m);
  static const int32_t stacks[][4] = {{0}, {1, 2, 0}, {2, 3, 1, 0}, {3, 0}};
  for (int i = 0; i < 4; i++) {
    m.n = l.n = 0;
    for (int j = 0; stacks[i][j]; j++) wb_varint(&l, (uint64_t)stacks[i][j]);
    if (l.n) wb_msg(&m, 1, &l);
    wb_msg(&d, 7, &m);
  }
  wb_msg(w, 2, &d);
  wb_free(&d);
  wb_free(&m);
  wb_free(&l);
}

/* The samples of the tests: a group of two Profiles (samples/count and
 * cpu/nanoseconds, the same samples) whose timestamps are out of order,
 * and a Profile of its own with every shape of 12.1 (n timestamps and n
 * values, timestamps only, values only, one value and several timestamps). */
#define NG 9
static spec GROUP[NG];
static spec OWN[5];
static void make_specs(void) {
  for (int i = 0; i < NG; i++) {
    spec s = {0};
    s.stack = 1 + i % 4 == 4 ? 0 : 1 + i % 4;
    s.nattr = i % 3;
    s.attrs[0] = 1;
    s.attrs[1] = 2;
    s.link = i % 4 == 1;
    s.nval = 1;
    s.vals[0] = 1;
    s.nts = 1;
    s.ts[0] = T0 + (uint64_t)((i * 5) % NG) * 1000; /* a permutation */
    s.unpacked = i == 4;
    s.extra = i == 6;
    GROUP[i] = s;
  }
  OWN[0] = (spec){2, 0, 1, 3, 3, {2}, {5, 6, 7}, {T0 + 900, T0 + 100, T0 + 500}, 0, 0, 0, 0};
  OWN[1] = (spec){1, 1, 0, 0, 2, {0}, {0}, {T0 + 300, T0 + 200}, 0, 1, 0, 0};
  OWN[2] = (spec){3, 0, 2, 2, 0, {1, 2}, {4, -9}, {0}, 0, 0, 0, 0};
  OWN[3] = (spec){0, 0, 0, 1, 3, {0}, {11}, {T0 + 50, T0 + 60, T0 + 70}, 1, 0, 0, 0};
  OWN[4] = (spec){2, 0, 1, 1, 1, {1}, {8}, {T0 - 400}, 0, 0, 0, 0};
  /* protobuf-c reads an int32 as the varint's low 32 bits: stack 3 */
  OWN[4].stack_wire = (uint64_t)1 << 40 | 3;
}

static int ODD; /* the next message's OWN[2] is odd so */

/* The message: one resource, one scope, the group (its samples in order
 * `order`, NULL: as made) and the Profile of its own. */
static wbuf message(const size_t *order) {
  make_specs();
  OWN[2].odd = ODD;
  wbuf w = {0}, r = {0}, sc = {0}, name = {0};
  wb_str(&name, 1, "test_otlp");
  wb_msg(&sc, 1, &name);
  spec cpu[NG];
  for (int i = 0; i < NG; i++) {
    cpu[i] = GROUP[i];
    cpu[i].vals[0] = 1000 * (i + 1);
  }
  put_profile(&sc, 1, 2, GROUP, NG, order);
  put_profile(&sc, 3, 4, cpu, NG, order);
  put_profile(&sc, 3, 4, OWN, 5, NULL);
  wb_msg(&r, 2, &sc);
  wb_msg(&w, 1, &r);
  put_dictionary(&w);
  wb_free(&r);
  wb_free(&sc);
  wb_free(&name);
  return w;
}

/* ------------------------------------------------------------- importing */

typedef struct result {
  int rc;
  char msg[512];
  void *file;
  size_t len;
} result;

/* f imported (and closed) */
static result import_from(FILE *f) {
  result r = {0};
  pcol_builder *b;
  pcol_error err = {0};
  cr_assert_not_null(f);
  cr_assert_eq(pcol_builder_new(&b, &err), 0);
  r.rc = pcol_import_otlp(b, f, "t.otlp", NULL, &err);
  fclose(f);
  if (r.rc) snprintf(r.msg, sizeof r.msg, "%s", err.message);
  else cr_assert_eq(pcol_builder_write_mem(b, NULL, &r.file, &r.len, &err), 0, "%s", err.message);
  pcol_builder_free(b);
  return r;
}

static result import(const void *p, size_t n) { return import_from(fmemopen((void *)(uintptr_t)p, n, "rb")); }

static int same_file(const result *a, const result *b) {
  return a->len == b->len && memcmp(a->file, b->file, a->len) == 0;
}

static int has(const result *r, const char *s) {
  return r->file && memmem(r->file, r->len, s, strlen(s)) != NULL;
}

/* ------------------------------------------------------------------ tests */

/* The message imports, and its numbers are the ones written: the group is
 * one source of two value types, the other Profile one of its own. */
Test(otlp_wire, message_imports_with_the_values_written) {
  wbuf w = message(NULL);
  result r = import(w.p, w.n);
  cr_assert_eq(r.rc, 0, "%s", r.msg);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(r.file, r.len, NULL, &f, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_validate_full(f, &err), 0, "%s", err.message);
  /* group: 9 samples; own: 3 + 2 + 1 + 1 + 1 observations */
  cr_assert_eq(pcol_rows(f, PCOL_T_SOURCES), 2);
  cr_assert_eq(pcol_rows(f, PCOL_T_SAMPLES), NG + 8);
  pcol_close(f);
  free(r.file);
  wb_free(&w);
}

/* The group's samples written in time order give the same file: the
 * sorted observations reach the builder in the same order as those that
 * came in order. */
Test(otlp_wire, out_of_order_samples_read_as_if_in_order) {
  wbuf shuffled = message(NULL);
  size_t order[NG];
  for (size_t i = 0; i < NG; i++) /* GROUP[i] is at time (5 i mod 9): invert it */
    for (size_t j = 0; j < NG; j++)
      if ((j * 5) % NG == i) order[i] = j;
  wbuf sorted = message(order);
  result a = import(shuffled.p, shuffled.n), b = import(sorted.p, sorted.n);
  cr_assert_eq(a.rc, 0, "%s", a.msg);
  cr_assert_eq(b.rc, 0, "%s", b.msg);
  cr_assert(same_file(&a, &b), "the shuffled samples read differently from the sorted ones");
  /* through runs on disk: a budget of 3 rows a run */
  size_t keep = pcol_rowsort_bytes;
  pcol_rowsort_bytes = 3 * (32 + 16);
  result c = import(shuffled.p, shuffled.n);
  pcol_rowsort_bytes = keep;
  cr_assert_eq(c.rc, 0, "%s", c.msg);
  cr_assert(same_file(&a, &c), "sorted through runs, the file differs");
  free(a.file), free(b.file), free(c.file);
  wb_free(&shuffled);
  wb_free(&sorted);
}

/* Past pcol_spill_bytes the input is a mapped temporary copy whose pages
 * are handed back as the passes go (offsets into the input, not the
 * message): the same file, one message or several behind 4-byte lengths. */
Test(otlp_wire, mapped_input_reads_the_same) {
  wbuf w = message(NULL);
  wbuf frames = {0};
  for (int k = 0; k < 3; k++) {
    uint8_t be[4] = {(uint8_t)(w.n >> 24), (uint8_t)(w.n >> 16), (uint8_t)(w.n >> 8), (uint8_t)w.n};
    wb_bytes(&frames, be, 4);
    wb_bytes(&frames, w.p, w.n);
  }
  result a = import(w.p, w.n), fa = import(frames.p, frames.n);
  size_t keep = pcol_spill_bytes;
  pcol_spill_bytes = 256;
  result b = import(w.p, w.n), fb = import(frames.p, frames.n);
  pcol_spill_bytes = keep;
  cr_assert_eq(a.rc, 0, "%s", a.msg);
  cr_assert_eq(fa.rc, 0, "%s", fa.msg);
  cr_assert(same_file(&a, &b), "one message: mapped, the file differs");
  cr_assert(same_file(&fa, &fb), "frames: mapped, the file differs");
  cr_assert(fa.len > a.len);
  free(a.file), free(b.file), free(fa.file), free(fb.file);
  wb_free(&w);
  wb_free(&frames);
}

/* A regular file read from its first byte is mapped in place, not copied
 * (pcol_input_map_file); anything else (a gzip file, a file read from
 * further in, an empty one, a pipe) is copied as before.  The file imports
 * the same either way, one message or frames. */
static result import_file(const char *path, long skip) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f);
  if (skip) cr_assert_eq(fseek(f, skip, SEEK_SET), 0);
  return import_from(f);
}

static int maps(const char *path, long skip) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f);
  if (skip) cr_assert_eq(fseek(f, skip, SEEK_SET), 0);
  pcol_input in;
  int m = pcol_input_map_file(f, NULL, &in);
  if (m) cr_assert(in.map && in.data == in.map && in.len > 0);
  pcol_input_free(&in);
  fclose(f);
  return m;
}

Test(otlp_wire, regular_file_read_in_place) {
  wbuf w = message(NULL);
  char dir[] = "/tmp/pcol-otlp-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char one[64], pad[64], empty[64];
  snprintf(one, sizeof one, "%s/one.otlp", dir);
  snprintf(pad, sizeof pad, "%s/pad.otlp", dir);
  snprintf(empty, sizeof empty, "%s/empty.otlp", dir);
  FILE *f = fopen(one, "wb");
  fwrite(w.p, 1, w.n, f);
  fclose(f);
  f = fopen(pad, "wb"); /* 7 bytes, then the message */
  fwrite("1234567", 1, 7, f);
  fwrite(w.p, 1, w.n, f);
  fclose(f);
  fclose(fopen(empty, "wb"));
  cr_assert(maps(one, 0), "a regular file is not mapped");
  cr_assert(!maps(pad, 7), "a file read from byte 7 was mapped");
  cr_assert(!maps(empty, 0), "an empty file was mapped");
  result mem = import(w.p, w.n), a = import_file(one, 0), b = import_file(pad, 7);
  cr_assert_eq(mem.rc, 0, "%s", mem.msg);
  cr_assert_eq(a.rc, 0, "%s", a.msg);
  cr_assert_eq(b.rc, 0, "%s", b.msg);
  cr_assert(same_file(&mem, &a), "mapped in place, the file differs");
  cr_assert(same_file(&mem, &b), "copied from byte 7, the file differs");
  result e = import_file(empty, 0);
  cr_assert(e.rc && strstr(e.msg, "empty"), "an empty file: %d %s", e.rc, e.msg);
  free(mem.file), free(a.file), free(b.file);
  remove(one), remove(pad), remove(empty), rmdir(dir);
  wb_free(&w);
}

/* Mutations inside the Profiles (where the Samples are) against
 * protobuf-c's decode of the whole message (what the importer did before):
 * protobuf-c refuses it -> the import is refused (as undecodable, or for
 * the Sample layout, which is judged first); protobuf-c accepts it -> the
 * import does not call it undecodable, and reads the same as the message
 * protobuf-c decoded, packed again (when both are read in one layout: a
 * mutation can make the bytes read as the layout before v1.10.0, the
 * repacked ones not). */
static const char UNDECODABLE[] = "is truncated or has a field of the wrong wire type";
static const char LAYOUT_KEY[] = "otlp.sample_layout";

static void agree(const uint8_t *buf, size_t n, const char *what, size_t *compared) {
  Opentelemetry__Proto__Profiles__V1development__ProfilesData *pc =
      opentelemetry__proto__profiles__v1development__profiles_data__unpack(NULL, n, buf);
  result r = import(buf, n);
  if (!pc) {
    cr_assert(r.rc && (strstr(r.msg, UNDECODABLE) || strstr(r.msg, "layout")),
              "%s: protobuf-c refuses it, pcol says rc %d: %s", what, r.rc, r.msg);
  } else {
    cr_assert(!r.rc || !strstr(r.msg, UNDECODABLE), "%s: protobuf-c accepts it, pcol refuses: %s",
              what, r.msg);
    size_t cn = opentelemetry__proto__profiles__v1development__profiles_data__get_packed_size(pc);
    uint8_t *canon = malloc(cn + 1);
    opentelemetry__proto__profiles__v1development__profiles_data__pack(pc, canon);
    result c = import(canon, cn);
    if (!r.rc && !c.rc && !has(&r, LAYOUT_KEY) && !has(&c, LAYOUT_KEY)) {
      cr_assert(same_file(&r, &c), "%s: reads differently from protobuf-c's decode", what);
      ++*compared;
    } else if ((r.rc != 0) != (c.rc != 0) && !strstr(r.msg, "layout") && !strstr(c.msg, "layout") &&
               !has(&r, LAYOUT_KEY) && !has(&c, LAYOUT_KEY)) {
      cr_assert_fail("%s: %s; protobuf-c's decode, packed again: %s", what, r.rc ? r.msg : "read",
                     c.rc ? c.msg : "read");
    } else if (r.rc && c.rc && !strstr(r.msg, "layout") && !strstr(c.msg, "layout")) {
      /* refused both ways, for the same reason (the message's length aside) */
      char *a = strstr(r.msg, ": malformed"), *b = strstr(c.msg, ": malformed");
      if (a && b && !strstr(a, "bytes)") && !strstr(b, "bytes)")) {
        cr_assert_str_eq(a, b, "%s: refused for another reason than protobuf-c's decode", what);
        ++*compared;
      }
    }
    free(c.file);
    free(canon);
    opentelemetry__proto__profiles__v1development__profiles_data__free_unpacked(pc, NULL);
  }
  free(r.file);
}

/* [b, e) of each Profile payload in the message (one resource, one scope) */
static void profile_bytes(const wbuf *w, uint8_t *inside) {
  /* walk: field 1 (resource) -> field 2 (scope) -> field 2 (profiles) */
  size_t lo[4] = {0}, hi[4] = {w->n};
  int depth = 0;
  size_t i = 0;
  while (depth >= 0) {
    if (i >= hi[depth]) {
      depth--;
      if (depth >= 0) i = hi[depth + 1];
      continue;
    }
    uint64_t tag = 0, len = 0;
    for (int s = 0;; s += 7) {
      uint8_t c = w->p[i++];
      tag |= (uint64_t)(c & 0x7f) << s;
      if (!(c & 0x80)) break;
    }
    if ((tag & 7) != 2) { /* a varint or fixed64 of a level walked: skip it */
      if ((tag & 7) == 0) while (w->p[i++] & 0x80) {}
      else if ((tag & 7) == 1) i += 8;
      else if ((tag & 7) == 5) i += 4;
      continue;
    }
    for (int s = 0;; s += 7) {
      uint8_t c = w->p[i++];
      len |= (uint64_t)(c & 0x7f) << s;
      if (!(c & 0x80)) break;
    }
    unsigned f = (unsigned)(tag >> 3);
    int descend = depth == 0 ? f == 1 : depth < 3 && f == 2;
    if (descend && depth == 2) { /* a Profile */
      memset(inside + i, 1, len);
      i += len;
    } else if (descend) {
      depth++;
      lo[depth] = i;
      hi[depth] = i + len;
    } else {
      i += len;
    }
  }
  (void)lo;
}

Test(otlp_wire, samples_read_as_protobuf_c_reads_them, .timeout = 600) {
  wbuf w = message(NULL);
  uint8_t *inside = calloc(w.n, 1), *buf = malloc(w.n);
  profile_bytes(&w, inside);
  size_t tried = 0, compared = 0;
  char what[64];
  static const uint8_t flips[] = {0x01, 0x02, 0x04, 0x08, 0x80, 0xff, 0x7f, 0x78};
  for (size_t i = 0; i < w.n; i++) {
    if (!inside[i]) continue;
    for (size_t k = 0; k < sizeof flips; k++) {
      memcpy(buf, w.p, w.n);
      buf[i] ^= flips[k];
      snprintf(what, sizeof what, "byte %zu ^ 0x%02x", i, flips[k]);
      agree(buf, w.n, what, &compared);
      tried++;
    }
  }
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (int t = 0; t < 2000; t++) {
    memcpy(buf, w.p, w.n);
    for (int m = 0; m < 3; m++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      size_t i = (size_t)(x % w.n);
      if (inside[i]) buf[i] = (uint8_t)(x >> 32);
    }
    snprintf(what, sizeof what, "random mutation %d", t);
    agree(buf, w.n, what, &compared);
    tried++;
  }
  cr_assert(compared > tried / 10, "compared %zu of %zu", compared, tried);
  free(inside);
  free(buf);
  wb_free(&w);
}

/* Encodings only the tag and length rules tell apart: a length prefix of 5
 * bytes whose value is past 2^32 (protobuf-c 1.4.1 refuses it; read as 32
 * bits it was the right length, and imported), and field number 0 written
 * in two bytes, 80 00 (protobuf-c reads an unknown field 0 and skips it;
 * refusing every field 0 refused the message). */
Test(otlp_wire, tag_and_length_edges_read_as_protobuf_c_reads_them) {
  size_t compared = 0;
  ODD = ODD_LEN;
  wbuf a = message(NULL);
  ODD = ODD_TAG0;
  wbuf b = message(NULL);
  ODD = 0;
  wbuf plain = message(NULL);
  result ra = import(a.p, a.n), rb = import(b.p, b.n), rp = import(plain.p, plain.n);
  cr_assert(ra.rc && strstr(ra.msg, UNDECODABLE), "a length past 2^32: rc %d %s", ra.rc, ra.msg);
  agree(a.p, a.n, "a length past 2^32", &compared); /* protobuf-c refuses it too */
  /* protobuf-c keeps the unknown field 0, and would pack it again as 00,
   * which it refuses: the reading is checked against the message without it */
  Opentelemetry__Proto__Profiles__V1development__ProfilesData *pc =
      opentelemetry__proto__profiles__v1development__profiles_data__unpack(NULL, b.n, b.p);
  cr_assert_not_null(pc, "protobuf-c refuses field 0 as 80 00");
  opentelemetry__proto__profiles__v1development__profiles_data__free_unpacked(pc, NULL);
  cr_assert_eq(rb.rc, 0, "field 0 as 80 00: %s", rb.msg);
  cr_assert_eq(rp.rc, 0, "%s", rp.msg);
  cr_assert(same_file(&rb, &rp), "field 0 as 80 00 is not skipped");
  free(ra.file), free(rb.file), free(rp.file);
  wb_free(&a);
  wb_free(&b);
  wb_free(&plain);
  (void)compared;
}

/* ------------------------------------------------- strings holding NUL */

/* a length-delimited field of n bytes (a string holding NUL) */
static void wb_strn(wbuf *w, unsigned f, const char *s, size_t n) {
  wb_varint(w, f << 3 | 2);
  wb_varint(w, n);
  wb_bytes(w, s, n);
}
#define WB_LIT(w, f, lit) wb_strn(w, f, lit, sizeof lit - 1)
/* a KeyValue { key, value { string_value } } as field f of w */
static void wb_kv(wbuf *w, unsigned f, const char *k, size_t kn, const char *v, size_t vn) {
  wbuf kv = {0}, av = {0};
  wb_strn(&av, 1, v, vn);
  wb_strn(&kv, 1, k, kn);
  wb_msg(&kv, 2, &av);
  wb_msg(w, f, &kv);
  wb_free(&kv);
  wb_free(&av);
}
static int holds(const void *p, size_t n, const char *s, size_t sn) { return p && memmem(p, n, s, sn) != NULL; }
#define HOLDS(p, n, lit) holds(p, n, lit, sizeof lit - 1)

/* A ProfilesDictionary's mapping 0, locations 0 and 1 (of function 1),
 * functions 0 and 1 (named by string `name`) and link 0, onto d. */
static void wb_dict_tables(wbuf *d, unsigned name) {
  wbuf m = {0}, l = {0};
  wb_msg(d, 1, &m); /* mapping 0 */
  wb_msg(d, 2, &m); /* location 0 */
  wb_uint(&l, 1, 1); /* location 1: function 1 */
  wb_msg(&m, 3, &l);
  wb_msg(d, 2, &m);
  m.n = 0;
  wb_msg(d, 3, &m); /* function 0 */
  wb_uint(&m, 1, name);
  wb_msg(d, 3, &m);
  m.n = 0;
  wb_msg(d, 4, &m); /* link 0 */
  wb_free(&m), wb_free(&l);
}

/* One sample of the function "fu\0nc" with the attribute thread.name =
 * "th\0read" (AnyValue.string_value), its resource's service.name
 * "sv\0c", an attribute whose key is "k\0ey", its scope "sc\0pe". */
static wbuf nul_message(void) {
  wbuf w = {0}, r = {0}, res = {0}, sc = {0}, scope = {0}, p = {0}, m = {0}, l = {0}, d = {0};
  wb_kv(&res, 1, "service.name", 12, "sv\0c", 4);
  wb_kv(&res, 1, "k\0ey", 4, "x", 1);
  { /* values nested in an array and in a kvlist: "a\0b", a key "q\0r" */
    wbuf kv = {0}, av = {0}, in = {0}, arr = {0};
    WB_LIT(&in, 1, "a\0b"); /* AnyValue { string_value } */
    wb_msg(&arr, 1, &in);    /* ArrayValue { values } */
    wb_msg(&av, 5, &arr);    /* AnyValue { array_value } */
    WB_LIT(&kv, 1, "arr");
    wb_msg(&kv, 2, &av);
    wb_msg(&res, 1, &kv);
    kv.n = av.n = in.n = arr.n = 0;
    wb_kv(&arr, 1, "q\0r", 3, "s", 1); /* KeyValueList { values { key, value } } */
    wb_msg(&av, 6, &arr);               /* AnyValue { kvlist_value } */
    WB_LIT(&kv, 1, "kvl");
    wb_msg(&kv, 2, &av);
    wb_msg(&res, 1, &kv);
    wb_free(&kv), wb_free(&av), wb_free(&in), wb_free(&arr);
  }
  wb_msg(&r, 1, &res);
  WB_LIT(&scope, 1, "sc\0pe");
  wb_msg(&sc, 1, &scope);
  wb_uint(&m, 1, 1); /* sample_type samples/count */
  wb_uint(&m, 2, 2);
  wb_msg(&p, 1, &m);
  m.n = 0; /* Sample { stack_index 1, attribute_indices [1], values [7] } (packed: v1.10) */
  wb_uint(&m, 1, 1);
  wb_varint(&l, 1);
  wb_msg(&m, 2, &l);
  l.n = 0;
  wb_varint(&l, 7);
  wb_msg(&m, 4, &l);
  l.n = 0;
  wb_msg(&p, 2, &m);
  wb_msg(&sc, 2, &p);
  wb_msg(&r, 2, &sc);
  wb_msg(&w, 1, &r);
  m.n = 0;
  wb_dict_tables(&d, 3); /* function 1: "fu\0nc" */
  WB_LIT(&d, 5, "");
  WB_LIT(&d, 5, "samples");
  WB_LIT(&d, 5, "count");
  WB_LIT(&d, 5, "fu\0nc");
  WB_LIT(&d, 5, "thread.name");
  wb_msg(&d, 6, &m); /* attribute 0 */
  l.n = 0;
  wb_uint(&m, 1, 4);
  WB_LIT(&l, 1, "th\0read");
  wb_msg(&m, 2, &l);
  wb_msg(&d, 6, &m);
  m.n = l.n = 0;
  wb_msg(&d, 7, &m); /* stack 0 */
  wb_varint(&l, 1); /* stack 1: location 1 (packed, one) */
  wb_msg(&m, 1, &l);
  wb_msg(&d, 7, &m);
  wb_msg(&w, 2, &d);
  wb_free(&r), wb_free(&res), wb_free(&sc), wb_free(&scope), wb_free(&p), wb_free(&m), wb_free(&l), wb_free(&d);
  return w;
}

/* the pcol file r (an import) holds every string whole; its OTLP export
 * (into *out) too */
static void nul_whole(const result *r, const char *what, char **out, size_t *outn) {
  cr_assert_eq(r->rc, 0, "%s: %s", what, r->msg);
  cr_assert(HOLDS(r->file, r->len, "fu\0nc"), "%s: the function name is not whole", what);
  cr_assert(HOLDS(r->file, r->len, "th\0read"), "%s: the label value is not whole", what);
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(r->file, r->len, NULL, &f, &err), 0, "%s", err.message);
  pcol_str v;
  cr_assert_eq(pcol_meta_get(f, 1, "otel.resource.service.name", &v, &err), 0, "%s: %s", what, err.message);
  cr_assert(v.len == 4 && !memcmp(v.ptr, "sv\0c", 4), "%s: service.name %.*s (%zu bytes)", what, (int)v.len,
            v.ptr, v.len);
  cr_assert_eq(pcol_meta_get(f, 1, "otel.scope_name", &v, &err), 0, "%s: %s", what, err.message);
  cr_assert(v.len == 5 && !memcmp(v.ptr, "sc\0pe", 5), "%s: the scope's name %zu bytes", what, v.len);
  /* nested values: their protobuf bytes (as hex), each string whole */
  cr_assert_eq(pcol_meta_get(f, 1, "otel.resource.arr", &v, &err), 0, "%s: %s", what, err.message);
  cr_assert(v.len == 18 && !memcmp(v.ptr, "2a070a050a03610062", 18), "%s: the array %.*s", what, (int)v.len, v.ptr);
  cr_assert_eq(pcol_meta_get(f, 1, "otel.resource.kvl", &v, &err), 0, "%s: %s", what, err.message);
  cr_assert(v.len == 28 && !memcmp(v.ptr, "320c0a0a0a0371007212030a0173", 28), "%s: the kvlist %.*s", what,
            (int)v.len, v.ptr);
  /* the key holding NUL: not a meta key, and said so */
  cr_assert_eq(pcol_meta_get(f, 1, "otel.resource.k", &v, &err), PCOL_ENOTFOUND, "%s: a key cut at its NUL", what);
  cr_assert_eq(pcol_meta_get(f, 1, "pcol.note", &v, &err), 0, "%s: no note of the key", what);
  cr_assert(HOLDS(v.ptr, v.len, "k\\0ey"), "%s: the note: %.*s", what, (int)v.len, v.ptr);
  FILE *m = open_memstream(out, outn);
  cr_assert_not_null(m);
  cr_assert_eq(pcol_export_otlp(f, NULL, m, &err), 0, "%s", err.message);
  fclose(m);
  pcol_close(f);
  cr_assert(HOLDS(*out, *outn, "fu\0nc") && HOLDS(*out, *outn, "th\0read") && HOLDS(*out, *outn, "sv\0c") &&
                HOLDS(*out, *outn, "sc\0pe"),
            "%s: the OTLP export cuts a string at its NUL", what);
}

/* A string holding NUL (a string table entry, an attribute's value, a
 * resource's, a scope's name) is read whole, written whole by the export
 * and read back whole: protobuf-c's strings end at the NUL. */
Test(otlp_wire, nul_in_a_string_value) {
  wbuf w = nul_message();
  result r = import(w.p, w.n);
  char *o1 = NULL, *o2 = NULL;
  size_t n1 = 0, n2 = 0;
  nul_whole(&r, "import", &o1, &n1);
  result back = import(o1, n1);
  nul_whole(&back, "its OTLP export read back", &o2, &n2);
  free(o1), free(o2), free(r.file), free(back.file);
  wb_free(&w);
}

/* One sample of "main" in a Profile whose sample type is "cp\0u", of a
 * resource whose process.executable.name is "ex\0e" and process.pid the
 * string "12\0003". */
static wbuf nul_name_message(void) {
  wbuf w = {0}, r = {0}, res = {0}, sc = {0}, p = {0}, m = {0}, l = {0}, d = {0};
  wb_kv(&res, 1, "process.executable.name", 23, "ex\0e", 4);
  wb_kv(&res, 1, "process.pid", 11, "12\0003", 4);
  wb_msg(&r, 1, &res);
  wb_uint(&m, 1, 1); /* sample_type "cp\0u"/count */
  wb_uint(&m, 2, 2);
  wb_msg(&p, 1, &m);
  m.n = 0; /* Sample { stack_index 1, values [7] } */
  wb_uint(&m, 1, 1);
  wb_varint(&l, 7);
  wb_msg(&m, 4, &l);
  wb_msg(&p, 2, &m);
  wb_msg(&sc, 2, &p);
  wb_msg(&r, 2, &sc);
  wb_msg(&w, 1, &r);
  m.n = l.n = 0;
  wb_dict_tables(&d, 3); /* function 1: "main" */
  WB_LIT(&d, 5, "");
  WB_LIT(&d, 5, "cp\0u");
  WB_LIT(&d, 5, "count");
  WB_LIT(&d, 5, "main");
  wb_msg(&d, 6, &m); /* attribute 0 */
  m.n = l.n = 0;
  wb_msg(&d, 7, &m); /* stack 0 */
  wb_varint(&l, 1);  /* stack 1: location 1 */
  wb_msg(&m, 1, &l);
  wb_msg(&d, 7, &m);
  wb_msg(&w, 2, &d);
  wb_free(&r), wb_free(&res), wb_free(&sc), wb_free(&p), wb_free(&m), wb_free(&l), wb_free(&d);
  return w;
}

/* The source's name (THE rule of srcname.h: "FILE: EXECUTABLE (pid P),
 * TYPE") holds the executable, the pid and the sample type whole, NUL and
 * all: each part is given by its length, none as a C string. */
Test(otlp_wire, nul_in_the_source_name) {
  wbuf w = nul_name_message();
  result r = import(w.p, w.n);
  cr_assert_eq(r.rc, 0, "%s", r.msg);
  static const char want[] = "t.otlp: ex\0e (pid 12\0003), cp\0u";
  cr_assert(HOLDS(r.file, r.len, want), "the source's name is not whole");
  pcol_file *f;
  pcol_error err = {0};
  cr_assert_eq(pcol_open_buffer(r.file, r.len, NULL, &f, &err), 0, "%s", err.message);
  pcol_view v;
  pcol_str u;
  cr_assert_eq(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &v, &err), 0, "%s", err.message);
  cr_assert_eq(pcol_string(f, pcol_view_u32(&v, 0), &u, &err), 0, "%s", err.message);
  cr_assert(u.len == sizeof want - 1 && !memcmp(u.ptr, want, u.len), "the source's URI: %zu bytes", u.len);
  pcol_close(f);
  free(r.file);
  wb_free(&w);
}

/* ------------------------------- protobuf-c's strings whole (otlp.h) */

/* every message type reachable from d, once */
static size_t reach(const ProtobufCMessageDescriptor *d, const ProtobufCMessageDescriptor **seen, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (seen[i] == d) return n;
  cr_assert_lt(n, 64, "more message types than the test holds");
  seen[n++] = d;
  for (unsigned i = 0; i < d->n_fields; i++)
    if (d->fields[i].type == PROTOBUF_C_TYPE_MESSAGE) n = reach(d->fields[i].descriptor, seen, n);
  return n;
}
/* string field f of unpacked message m: its (last) value; NULL when unset */
static const char *str_field(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f) {
  const char *base = (const char *)m;
  if (f->label == PROTOBUF_C_LABEL_REPEATED) {
    size_t k = *(const size_t *)(const void *)(base + f->quantifier_offset);
    char *const *a = *(char *const *const *)(const void *)(base + f->offset);
    return k ? a[k - 1] : NULL;
  }
  if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && *(const uint32_t *)(const void *)(base + f->quantifier_offset) != f->id)
    return NULL;
  return *(char *const *)(const void *)(base + f->offset);
}
/* n bytes, NUL at every 7th from the first */
static void nul_bytes(char *v, size_t n) {
  for (size_t i = 0; i < n; i++) v[i] = i % 7 ? (char)('a' + i % 26) : 0;
}
/* the message p[0..n) of type d unpacked as the importer unpacks it (its
 * allocator), then at (field f of d: a message; 0: d itself) string field x
 * read whole by pcol_otlp_str: v[0..vn) */
static void whole(const ProtobufCMessageDescriptor *d, const wbuf *w, const ProtobufCFieldDescriptor *f,
                  const ProtobufCMessageDescriptor *xd, const ProtobufCFieldDescriptor *x, const char *v,
                  size_t vn) {
  pcol_arena ar = {0};
  ProtobufCAllocator alloc = {pcol_otlp_str_alloc, pcol_arena_free_one, &ar};
  ProtobufCMessage *m = protobuf_c_message_unpack(d, &alloc, w->n, w->p);
  cr_assert_not_null(m, "%s: protobuf-c refuses the message", d->name);
  const ProtobufCMessage *in = f ? *(ProtobufCMessage *const *)(const void *)((const char *)m + f->offset) : m;
  cr_assert_not_null(in, "%s.%s: not decoded", d->name, f ? f->name : "");
  const char *s = str_field(in, x);
  cr_assert_not_null(s, "%s.%s (%zu bytes): not decoded", xd->name, x->name, vn);
  pcol_str got = pcol_otlp_str(&ar, s);
  cr_assert(got.len == vn && !memcmp(got.ptr, v, vn), "%s%s%s.%s of %zu bytes read as %zu: protobuf-c no longer "
            "gives a string field a block of its length and a NUL (otlp.h)", f ? f->name : "", f ? " " : "",
            xd->name, x->name, vn, got.len);
  /* a pointer that is not a block's start is read as a C string */
  if (vn > 1) cr_assert_eq(pcol_otlp_str(&ar, s + 1).len, strlen(s + 1), "%s.%s: inside a block", xd->name, x->name);
  pcol_arena_release(&ar);
}

/* Every string field of every OTLP message type the importer decodes
 * (from ProfilesData, walked by protobuf-c's own descriptors), holding NUL
 * and of lengths across the varint sizes, given twice (the last kept) and,
 * in a singular sub-message given twice, merged by protobuf-c: pcol_otlp_str
 * gives each whole.  This is the invariant of otlp.h: a protobuf-c that
 * allocated, copied or ended a string otherwise fails here. */
Test(otlp_wire, string_fields_whole) {
  const ProtobufCMessageDescriptor *seen[64];
  size_t nt = reach(&opentelemetry__proto__profiles__v1development__profiles_data__descriptor, seen, 0);
  static const size_t lens[] = {0, 1, 2, 3, 8, 127, 128, 129, 300, 16383, 16384, 70000};
  char *v = malloc(70000), *o = malloc(70000);
  cr_assert(v && o);
  size_t nstr = 0, nmerged = 0;
  for (size_t t = 0; t < nt; t++) {
    const ProtobufCMessageDescriptor *d = seen[t];
    for (unsigned i = 0; i < d->n_fields; i++) {
      const ProtobufCFieldDescriptor *x = &d->fields[i];
      if (x->type != PROTOBUF_C_TYPE_STRING) continue;
      cr_assert(x->default_value == NULL || x->default_value == protobuf_c_empty_string,
                "%s.%s has a default string (otlp.h: none has)", d->name, x->name);
      nstr++;
      for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t vn = lens[li], on = vn / 2 + 1;
        nul_bytes(v, vn);
        memset(o, 'o', on);
        wbuf w = {0};
        wb_strn(&w, x->id, o, on); /* given twice: the last one kept */
        wb_strn(&w, x->id, v, vn);
        whole(d, &w, NULL, d, x, v, vn);
        wb_free(&w);
      }
    }
  }
  /* merged: a singular message field given twice, the string in the first */
  for (size_t t = 0; t < nt; t++) {
    const ProtobufCMessageDescriptor *d = seen[t];
    for (unsigned i = 0; i < d->n_fields; i++) {
      const ProtobufCFieldDescriptor *f = &d->fields[i];
      if (f->type != PROTOBUF_C_TYPE_MESSAGE || f->label == PROTOBUF_C_LABEL_REPEATED ||
          (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
        continue;
      const ProtobufCMessageDescriptor *sd = f->descriptor;
      for (unsigned j = 0; j < sd->n_fields; j++) {
        const ProtobufCFieldDescriptor *x = &sd->fields[j];
        /* (a oneof's string is not merged by protobuf-c 1.4: an empty
         * latest AnyValue drops it, string or not) */
        if (x->type != PROTOBUF_C_TYPE_STRING || x->label == PROTOBUF_C_LABEL_REPEATED ||
            (x->flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
          continue;
        nmerged++;
        nul_bytes(v, 300);
        wbuf sub = {0}, empty = {0}, w = {0};
        wb_strn(&sub, x->id, v, 300);
        wb_msg(&w, f->id, &sub);
        wb_msg(&w, f->id, &empty);
        whole(d, &w, f, sd, x, v, 300);
        wb_free(&sub), wb_free(&w);
      }
    }
  }
  /* (the fields the importer reads so: AnyValue.string_value, KeyValue.key,
   * the scope's name and version, the schema URLs, original_payload_format) */
  cr_assert_geq(nstr, 6, "%zu string fields found", nstr);
  cr_assert_geq(nmerged, 2, "%zu merged string fields tried", nmerged);
  /* a string not from the allocator: as a C string */
  pcol_arena ar = {0};
  cr_assert_eq(pcol_otlp_str(&ar, "ab").len, 2);
  cr_assert_eq(pcol_otlp_str(&ar, NULL).len, 0);
  free(v), free(o);
}
