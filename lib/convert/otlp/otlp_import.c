/* otlp_import.c — OpenTelemetry profiles (OTLP v1development, proto v1.10.0
 * and later) into a builder, as doc/mappings.md §12.1 describes.
 *
 * OTLP/JSON lines not compressed are read as a stream, line by line
 * (otlp_json.c), gzip ones inflated as they are read (lib/core/instream.c);
 * any other input is read whole (gzip or not: pcol_read_input, past 64 MiB
 * into a mapped temporary file)
 * and is one binary ProfilesData or ExportProfilesServiceRequest (the same wire layout), a
 * sequence of them each behind a 4-byte big-endian length (the Collector's
 * file exporter; with its `compression: zstd`, each message a zstd frame of
 * its own) or a varint length (writeDelimitedTo), or OTLP/JSON lines
 * (otlp_json.c turns each line into the same message).  Of each message
 * protobuf-c decodes all but the Samples into an arena; the Samples are
 * read from the wire one at a time (otlp_samples.c), in a few passes that
 * hand the pages they read back.  Every index from the file is checked
 * against its table, and the message mapped: Profiles of one scope with the same time
 * and the same samples (OTLP splits a pprof profile's value types into one
 * Profile each) become one pcol source with a value type per Profile; every
 * other Profile a source of its own.
 */
#include "convert.h"
#include "otlp.h"
#include "pb_wire.h"
#include "symbolize.h" /* pcol_sym_locations: --symbolize local */
#include "srcname.h"  /* pcol_source_name: THE process name of a source */
#include "keys.h"     /* OTLP_ATTR_SOURCE_TYPE, OTLP_ATTR_SOURCE_URI, OTLP_ATTR_BUILD_ID, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_error_in, pcol_oom */
#include "buf.h"      /* pcol_buf, pcol_buf_free, pcol_buf_reserve, ... */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include "read_all.h" /* pcol_input_done, pcol_input_free, pcol_input, ... */
#include "instream.h" /* pcol_instream, pcol_instream_finish, pcol_instream_free, ... */
#include "stream.h"   /* pcol_replay_stream */
#include "rowsort.h"  /* pcol_rowsort, pcol_rowsort_add, pcol_rowsort_each, ... */
#include "intern.h"   /* pcol_intern, pcol_intern_get, pcol_intern_at, pcol_intern_free */
#include "bytes.h"    /* pcol_str_is */
#include <stdalign.h>
#include <inttypes.h>
#include <stdarg.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctx {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  const otlp_data *d;
  const otlp_dict *dict;
  size_t msg; /* 1-based message number (frames, lines) */
  uint32_t *sids;       /* string index -> pcol string id (UINT32_MAX: not yet) */
  const uint8_t *raw;   /* the message; strs: each string's [b, e) in it */
  size_t rawlen;
  size_t (*strs)[2];
  uint32_t *map_ids, *fn_ids, *loc_ids; /* table index -> pcol id (index 0 -> 0) */
  uint64_t *map_shift; /* what a mapping's addresses gain (pcol_b_mappings_shared) */
  pcol_label_row *attr; /* attribute index -> label */
  uint8_t *attr_base;   /* attribute index -> 1: pprof::base = "true" (a -diff_base's base sample) */
  pcol_stack_memo memo;
  int layout;           /* LAYOUT_V10, or LAYOUT_V9 (its Sample fields renumbered as read) */
  otlp_prange *prof;    /* each Profile's bytes in raw, in decoding order (its samples) */
  size_t nprof;
  const pcol_otlp_pages *pages;
  otlp_wsample ws[2];   /* Samples as read (two: same_samples compares a pair) */
  pcol_sym *sym; /* --symbolize: the input's session (sym->on: local) */
  pcol_buf rec;  /* u32: the message's sources in order, 0 for one pcol wrote (parts: number_parts) */
  const pcol_arena *ar; /* protobuf-c's blocks (pb_str) */
} ctx;

static int bad(ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int bad(ctx *c, const char *fmt, ...) {
  char m[480];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  if (c->msg > 1)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: malformed OTLP profiles (message %zu): %s",
                          c->name, c->msg, m);
  return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: malformed OTLP profiles: %s", c->name, m);
}

/* A failed builder call or allocation while building the tables: its own
 * message (the pcol_b_* call and its reason) after the file's name. */
#define TRY(x) PCOL_RETURN_NOT_OK(pcol_error_in(c->err, (x), c->name, 0))

/* ------------------------------------------------------ checking indices */

#define NSTR (c->dict ? c->dict->n_string_table : 0)
#define CHK(idx, n, table, what, ...)                                                     \
  do {                                                                                   \
    int64_t i_ = (idx);                                                                  \
    if (i_ < 0 || (i_ > 0 && (uint64_t)i_ >= (n)))                                       \
      return bad(c, what " is %s index %" PRId64 ", outside the table (%zu entries)",   \
                 __VA_ARGS__, table, i_, (size_t)(n));                                   \
  } while (0)

/* ------------------------------------------------ Sample's two layouts */
/* The Nov-2025 renumbering (opentelemetry-proto #724, v1.10.0) moved
 * Sample's fields: values 2 -> 4, attribute_indices 3 -> 2, link_index
 * 4 -> 3 (stack_index 1 and timestamps_unix_nano 5 stay; nothing else in
 * profiles.proto changed between v1.9.0 and v1.10.0).  A message of either
 * layout decodes without an error, so the layout is told from the wire, per
 * message, by what only one layout can be (repeated scalars are packed, as
 * proto3 writes them):
 *  - v1.9: field 3 length-delimited (packed attribute_indices) or field 4
 *    a varint (link_index); a sample with field 2 but neither field 4 nor 5
 *    (v1.10 requires values or timestamps); a field-2 number that is no
 *    index of the dictionary's attribute_table;
 *  - v1.10: field 4 length-delimited (packed values) or field 3 a varint
 *    (link_index); a sample with timestamps and more than one field-2
 *    number but not as many as timestamps (as v1.9 values they would have
 *    to match the timestamps, or be one);
 *  - no sample has field 2: both layouts read the same.
 * Anything else (both layouts' marks, or field-2 numbers that read as well
 * as values as as attribute indices) is ambiguous and refused. */
enum { LAYOUT_V10 = 0, LAYOUT_V9 = 1 };
typedef struct layout_scan {
  uint64_t nattr;               /* the dictionary's attribute_table entries */
  int v9, v10;                  /* a mark of each layout seen */
  int any2, out, differ;        /* the field-2 marks above */
  size_t pi, si;                /* where the first mark was (1-based) */
  const pcol_otlp_pages *pages; /* the message's pages, handed back as they are read */
  size_t kept;
} layout_scan;

/* Calls visit on every Sample of the message: [b, e) in p, its profile's
 * and its own 1-based numbers.  0, or visit's result. */
typedef int (*sample_fn)(layout_scan *x, const uint8_t *p, size_t b, size_t e, size_t pi, size_t si);
static int each_sample(const uint8_t *p, size_t n, sample_fn visit, layout_scan *x) {
  size_t i = 0, pi = 0;
  uint64_t f, v;
  unsigned wt;
  size_t b, e;
  while (i < n) {
    if (pcol_otlp_field(p, n, &i, &f, &wt, &v, &b, &e)) return 0; /* protobuf-c decides */
    if (f != 1 || wt != 2) continue;
    for (size_t i2 = b; i2 < e;) { /* ResourceProfiles */
      size_t b2, e2;
      if (pcol_otlp_field(p, e, &i2, &f, &wt, &v, &b2, &e2)) return 0;
      if (f != 2 || wt != 2) continue;
      for (size_t i3 = b2; i3 < e2;) { /* ScopeProfiles */
        size_t b3, e3;
        if (pcol_otlp_field(p, e2, &i3, &f, &wt, &v, &b3, &e3)) return 0;
        if (f != 2 || wt != 2) continue;
        pi++;
        size_t si = 0;
        for (size_t i4 = b3; i4 < e3;) { /* Profile */
          size_t b4, e4;
          if (pcol_otlp_field(p, e3, &i4, &f, &wt, &v, &b4, &e4)) return 0;
          if (f != 2 || wt != 2) continue;
          int rc = visit(x, p, b4, e4, pi, ++si);
          if (rc) return rc;
          if (x->pages && e4 - x->kept >= PCOL_OTLP_WINDOW) {
            pcol_otlp_pages_done(x->pages, x->kept, e4);
            x->kept = e4;
          }
        }
      }
    }
  }
  return 0;
}

/* The dictionary's attribute_table entries (ProfilesData field 2, its
 * field 6). */
static uint64_t attribute_entries(const uint8_t *p, size_t n) {
  size_t i = 0, b, e;
  uint64_t f, v, k = 0;
  unsigned wt;
  while (i < n) {
    if (pcol_otlp_field(p, n, &i, &f, &wt, &v, &b, &e)) return k;
    if (f != 2 || wt != 2) continue;
    for (size_t j = b; j < e;) {
      size_t b2, e2;
      if (pcol_otlp_field(p, e, &j, &f, &wt, &v, &b2, &e2)) return k;
      k += f == 6 && wt == 2;
    }
  }
  return k;
}

/* A Sample's marks (see above). */
static int scan_sample(layout_scan *x, const uint8_t *p, size_t b, size_t e, size_t pi, size_t si) {
  uint64_t f, v, n2 = 0, n5 = 0;
  unsigned wt;
  size_t b5, e5;
  int has2 = 0, has4 = 0, v9 = 0, v10 = 0;
  for (size_t i = b; i < e;) {
    if (pcol_otlp_field(p, e, &i, &f, &wt, &v, &b5, &e5)) return 0; /* protobuf-c decides */
    if ((f == 3 && wt == 2) || (f == 4 && wt == 0)) v9 = 1;
    if ((f == 4 && wt == 2) || (f == 3 && wt == 0)) v10 = 1;
    has4 |= f == 4;
    if (f == 5) n5 += wt == 2 ? (e5 - b5) / 8 : 1;
    if (f != 2 || (wt != 0 && wt != 2)) continue;
    has2 = 1;
    size_t k = b5;
    for (;;) { /* each number: packed, or the one varint */
      uint64_t a = v;
      if (wt == 2 && (k >= e5 || pcol_pb_varint(p, e5, &k, &a))) break;
      n2++;
      if (a >= x->nattr || a > INT32_MAX) x->out = 1;
      if (wt == 0) break;
    }
  }
  x->any2 |= has2;
  if (has2 && !has4 && !n5) v9 = 1;
  if (has2 && n5 && n2 != n5 && n2 != 1) x->differ = 1; /* one value: any timestamps (12.1) */
  if ((v9 && !x->v9 && !x->v10) || (v10 && !x->v9 && !x->v10)) x->pi = pi, x->si = si;
  x->v9 |= v9, x->v10 |= v10;
  return 0;
}

/* The layout of the message p[0..n) (LAYOUT_V9 or LAYOUT_V10), or the
 * refusal of an ambiguous one. */
static int sample_layout(ctx *c, const uint8_t *p, size_t n, int *layout) {
  layout_scan x;
  memset(&x, 0, sizeof x);
  x.nattr = attribute_entries(p, n);
  x.pages = c->pages;
  each_sample(p, n, scan_sample, &x);
  pcol_otlp_pages_done(c->pages, x.kept, n);
  *layout = LAYOUT_V10;
  if (x.v9 && x.v10)
    return bad(c, "its samples have the field layouts of OTLP profiles both before and after "
                  "v1.10.0 (Sample's fields were renumbered in Nov 2025, opentelemetry-proto #724; "
                  "profile %zu sample %zu is the first of one): it cannot be read either way",
               x.pi, x.si);
  if (x.v9 || (!x.v10 && x.any2 && x.out)) *layout = LAYOUT_V9;
  else if (!x.v10 && x.any2 && !x.differ)
    return bad(c, "its samples read as the field layout of OTLP profiles before v1.10.0 as well "
                  "as after (Sample's fields were renumbered in Nov 2025, opentelemetry-proto #724: "
                  "field 2 is values before, attribute_indices after, and every number in it is an "
                  "attribute index): ambiguous; re-export it with a producer on proto v1.10.0 or later");
  return PCOL_OK;
}
/* AnyValue nests (arrays, key-value lists) without a bound, and protobuf-c
 * decodes by recursion: a file of a few MB could exhaust the stack.  The
 * AnyValues of the dictionary's attributes and of the resource's and
 * scope's attributes are walked here first, at most MAX_NEST deep. */
#define MAX_NEST 64
static int any_deep(const uint8_t *p, size_t n, int depth);
static int kv_deep(const uint8_t *p, size_t n, int depth) { /* KeyValue: value = 2 */
  size_t i = 0, b, e;
  uint64_t f, v;
  unsigned wt;
  while (i < n) {
    if (pcol_otlp_field(p, n, &i, &f, &wt, &v, &b, &e)) return 0;
    if (f == 2 && wt == 2 && any_deep(p + b, e - b, depth)) return 1;
  }
  return 0;
}
static int any_deep(const uint8_t *p, size_t n, int depth) {
  if (depth > MAX_NEST) return 1;
  size_t i = 0, b, e;
  uint64_t f, v;
  unsigned wt;
  while (i < n) {
    if (pcol_otlp_field(p, n, &i, &f, &wt, &v, &b, &e)) return 0; /* protobuf-c refuses it */
    if ((f != 5 && f != 6) || wt != 2) continue;
    int kvlist = f == 6; /* ArrayValue.values: AnyValue; KeyValueList.values: KeyValue */
    for (size_t j = b; j < e;) {
      size_t b2, e2;
      uint64_t f2;
      if (pcol_otlp_field(p, e, &j, &f2, &wt, &v, &b2, &e2)) return 0;
      if (f2 != 1 || wt != 2) continue;
      if (kvlist ? kv_deep(p + b2, e2 - b2, depth + 1) : any_deep(p + b2, e2 - b2, depth + 1))
        return 1;
    }
  }
  return 0;
}

/* 1 when an attribute value of the message nests deeper than MAX_NEST. */
static int too_deep(const uint8_t *p, size_t n) {
  size_t i = 0, b, e;
  uint64_t f, v;
  unsigned wt;
  while (i < n) {
    if (pcol_otlp_field(p, n, &i, &f, &wt, &v, &b, &e)) return 0;
    if (wt != 2) continue;
    if (f == 2) { /* dictionary: attribute_table = 6, KeyValueAndUnit.value = 2 */
      for (size_t j = b; j < e;) {
        size_t b2, e2;
        if (pcol_otlp_field(p, e, &j, &f, &wt, &v, &b2, &e2)) return 0;
        if (f == 6 && wt == 2 && kv_deep(p + b2, e2 - b2, 0)) return 1;
      }
    } else if (f == 1) { /* ResourceProfiles: resource = 1, scope_profiles = 2 */
      for (size_t j = b; j < e;) {
        size_t b2, e2;
        if (pcol_otlp_field(p, e, &j, &f, &wt, &v, &b2, &e2)) return 0;
        if (wt != 2 || (f != 1 && f != 2)) continue;
        int res = f == 1; /* Resource.attributes = 1; ScopeProfiles.scope = 1, its attributes = 3 */
        for (size_t k = b2; k < e2;) {
          size_t b3, e3;
          if (pcol_otlp_field(p, e2, &k, &f, &wt, &v, &b3, &e3)) return 0;
          if (f != 1 || wt != 2) continue;
          if (res && kv_deep(p + b3, e3 - b3, 0)) return 1;
          if (!res)
            for (size_t m = b3; m < e3;) {
              size_t b4, e4;
              if (pcol_otlp_field(p, e3, &m, &f, &wt, &v, &b4, &e4)) return 0;
              if (f == 3 && wt == 2 && kv_deep(p + b4, e4 - b4, 0)) return 1;
            }
        }
      }
    }
  }
  return 0;
}

static int check_attrs(ctx *c, const int32_t *a, size_t n, const char *what, size_t at) {
  for (size_t k = 0; k < n; k++)
    CHK(a[k], c->dict->n_attribute_table, "attribute", "%s %zu attribute %zu", what, at, k + 1);
  return PCOL_OK;
}

static int check_any_str(ctx *c, const otlp_any *v, const char *what, size_t at) {
  if (v && v->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE_STRINDEX)
    CHK(v->string_value_strindex, NSTR, "string", "%s %zu value", what, at);
  return PCOL_OK;
}

static int check_kvs(ctx *c, otlp_kv *const *kv, size_t n, const char *what) {
  for (size_t k = 0; k < n; k++) {
    CHK(kv[k]->key_strindex, NSTR, "string", "%s attribute %zu key%s", what, k + 1, "");
    PCOL_RETURN_NOT_OK(check_any_str(c, kv[k]->value, what, k + 1));
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------- samples */

/* The message protobuf-c (or the reading of its Samples) refuses. */
static int undecodable(ctx *c, size_t n) {
  return bad(c, "the message (%zu bytes) is truncated or has a field of the wrong wire type "
                "(is it OTLP profiles v1development, proto v1.10.0 or later?)", n);
}

/* The Samples of Profile pi (0-based, in decoding order). */
static otlp_scur scur(const ctx *c, size_t pi) {
  otlp_scur s = {c->raw, c->prof[pi].b, c->prof[pi].e, c->prof[pi].b, c->pages};
  return s;
}

/* The Sample raw[b, e) into *ws. */
static int read_sample_into(ctx *c, otlp_wsample *ws, size_t b, size_t e) {
  int r = pcol_otlp_sample(c->raw, b, e, c->layout == LAYOUT_V9, ws);
  if (r == -2) return pcol_oom(c->err);
  return r ? undecodable(c, c->rawlen) : PCOL_OK;
}
static int read_sample(ctx *c, int w, size_t b, size_t e) {
  return read_sample_into(c, &c->ws[w], b, e);
}

static int validate(ctx *c) {
  const otlp_dict *D = c->dict;
  size_t ns = D->n_string_table;
  if (D->n_mapping_table >= UINT32_MAX || D->n_location_table >= UINT32_MAX ||
      D->n_function_table >= UINT32_MAX || D->n_attribute_table >= UINT32_MAX ||
      D->n_stack_table >= UINT32_MAX || ns >= UINT32_MAX)
    return pcol_error_set(c->err, PCOL_ETOOBIG, "%s: too many records for pcol", c->name);
  for (size_t i = 0; i < D->n_mapping_table; i++) {
    CHK(D->mapping_table[i]->filename_strindex, ns, "string", "mapping %zu filename%s", i, "");
    PCOL_RETURN_NOT_OK(check_attrs(c, D->mapping_table[i]->attribute_indices,
                                   D->mapping_table[i]->n_attribute_indices, "mapping", i));
  }
  for (size_t i = 0; i < D->n_function_table; i++) {
    const otlp_function *f = D->function_table[i];
    CHK(f->name_strindex, ns, "string", "function %zu name%s", i, "");
    CHK(f->system_name_strindex, ns, "string", "function %zu system_name%s", i, "");
    CHK(f->filename_strindex, ns, "string", "function %zu filename%s", i, "");
  }
  for (size_t i = 0; i < D->n_location_table; i++) {
    const otlp_location *l = D->location_table[i];
    CHK(l->mapping_index, D->n_mapping_table, "mapping", "location %zu mapping%s", i, "");
    for (size_t j = 0; j < l->n_lines; j++)
      CHK(l->lines[j]->function_index, D->n_function_table, "function",
          "location %zu line %zu function", i, j + 1);
    PCOL_RETURN_NOT_OK(check_attrs(c, l->attribute_indices, l->n_attribute_indices, "location", i));
  }
  for (size_t i = 0; i < D->n_stack_table; i++)
    for (size_t j = 0; j < D->stack_table[i]->n_location_indices; j++)
      CHK(D->stack_table[i]->location_indices[j], D->n_location_table, "location",
          "stack %zu entry %zu", i, j + 1);
  for (size_t i = 0; i < D->n_attribute_table; i++) {
    CHK(D->attribute_table[i]->key_strindex, ns, "string", "attribute %zu key%s", i, "");
    CHK(D->attribute_table[i]->unit_strindex, ns, "string", "attribute %zu unit%s", i, "");
    PCOL_RETURN_NOT_OK(check_any_str(c, D->attribute_table[i]->value, "attribute", i));
  }
  size_t pi = 0;
  for (size_t r = 0; r < c->d->n_resource_profiles; r++) {
    const otlp_rprof *rp = c->d->resource_profiles[r];
    if (rp->resource) PCOL_RETURN_NOT_OK(check_kvs(c, rp->resource->attributes, rp->resource->n_attributes, "resource"));
    for (size_t s = 0; s < rp->n_scope_profiles; s++) {
      const otlp_sprof *sp = rp->scope_profiles[s];
      if (sp->scope) PCOL_RETURN_NOT_OK(check_kvs(c, sp->scope->attributes, sp->scope->n_attributes, "scope"));
      for (size_t p = 0; p < sp->n_profiles; p++) {
        const otlp_profile *pr = sp->profiles[p];
        pi++;
        if (pr->sample_type) {
          CHK(pr->sample_type->type_strindex, ns, "string", "profile %zu sample_type type%s", pi, "");
          CHK(pr->sample_type->unit_strindex, ns, "string", "profile %zu sample_type unit%s", pi, "");
        }
        if (pr->period_type) {
          CHK(pr->period_type->type_strindex, ns, "string", "profile %zu period_type type%s", pi, "");
          CHK(pr->period_type->unit_strindex, ns, "string", "profile %zu period_type unit%s", pi, "");
        }
        PCOL_RETURN_NOT_OK(check_attrs(c, pr->attribute_indices, pr->n_attribute_indices, "profile", pi));
        otlp_scur cur = scur(c, pi - 1);
        size_t b, e;
        for (size_t k = 0; pcol_otlp_next_sample(&cur, &b, &e) > 0; k++) {
          const otlp_wsample *sm = &c->ws[0];
          PCOL_RETURN_NOT_OK(read_sample(c, 0, b, e));
          CHK(sm->stack_index, D->n_stack_table, "stack", "profile %zu sample %zu stack", pi, k + 1);
          CHK(sm->link_index, D->n_link_table, "link", "profile %zu sample %zu link", pi, k + 1);
          for (size_t j = 0; j < sm->n_attrs; j++)
            CHK(sm->attrs[j], D->n_attribute_table, "attribute",
                "profile %zu sample %zu attribute %zu", pi, k + 1, j + 1);
          size_t T = sm->n_times, V = sm->n_values;
          c->prof[pi - 1].timed |= T != 0;
          if (T && V && T != V && V != 1)
            return bad(c, "profile %zu sample %zu has %zu values and %zu timestamps (OTLP: "
                          "equal lengths when both are set)", pi, k + 1, V, T);
        }
      }
    }
  }
  return PCOL_OK;
}

/* ------------------------------------------------------------ strings */

static int sid(ctx *c, int32_t idx, uint32_t *out) {
  if (idx <= 0) {
    *out = 0;
    return PCOL_OK;
  }
  uint32_t *s = &c->sids[idx];
  if (*s == UINT32_MAX) {
    /* the bytes on the wire: protobuf-c's copy ends at a NUL */
    const size_t *r = c->strs[idx];
    int rc = pcol_b_string(c->b, c->raw + r[0], r[1] - r[0], s, c->err);
    if (rc) return rc;
  }
  *out = *s;
  return PCOL_OK;
}
/* String idx's bytes on the wire (its length: it may hold NUL) */
static pcol_str str_at(const ctx *c, int32_t idx) {
  if (idx <= 0) return (pcol_str){"", 0};
  const size_t *r = c->strs[idx];
  return (pcol_str){(const char *)c->raw + r[0], r[1] - r[0]};
}

/* a string field protobuf-c decoded, whole (NUL and all: otlp.h) */
static pcol_str pb_str(const ctx *c, const char *s) { return pcol_otlp_str(c->ar, s); }
/* a KeyValue's key: key, else key_strindex's string */
static pcol_str kv_key(const ctx *c, const otlp_kv *kv) {
  pcol_str k = pb_str(c, kv->key);
  return k.len ? k : str_at(c, kv->key_strindex);
}
static int has_nul(pcol_str s) { return s.len && memchr(s.ptr, 0, s.len) != NULL; }

static void hex(char *out, const uint8_t *p, size_t n) {
  static const char h[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = h[p[i] >> 4];
    out[2 * i + 1] = h[p[i] & 15];
  }
  out[2 * n] = 0;
}

/* AnyValue v's fields packed onto b as protobuf-c packs them (fields in
 * order, then the unknown ones it kept), but its strings and nested keys
 * whole, by length (pb_str): protobuf-c's pack ends a string at its NUL. */
static int put_unknown(pcol_buf *b, const ProtobufCMessage *m) {
  for (unsigned i = 0; i < m->n_unknown_fields; i++) {
    const ProtobufCMessageUnknownField *u = &m->unknown_fields[i];
    if (pcol_pb_w_varint(b, (uint64_t)u->tag << 3 | u->wire_type) ||
        (u->len && pcol_buf_append(b, u->data, u->len)))
      return -1;
  }
  return 0;
}
static int pack_any(const ctx *c, pcol_buf *b, const otlp_any *v);
/* a nested message (field f of b): packed into its own buffer first, its length before it */
static int put_sub(const ctx *c, pcol_buf *b, unsigned f, const void *m,
                   int (*pack)(const ctx *, pcol_buf *, const void *)) {
  pcol_buf s = {0};
  int rc = pack(c, &s, m) || pcol_pb_w_bytes(b, f, s.data, s.len);
  pcol_buf_free(&s);
  return rc;
}
static int pack_any_v(const ctx *c, pcol_buf *b, const void *v) { return pack_any(c, b, v); }
static int pack_kv(const ctx *c, pcol_buf *b, const void *p) {
  const otlp_kv *kv = p;
  pcol_str k = pb_str(c, kv->key);
  return (k.len && pcol_pb_w_bytes(b, 1, k.ptr, k.len)) || (kv->value && put_sub(c, b, 2, kv->value, pack_any_v)) ||
         (kv->key_strindex && pcol_pb_w_uint(b, 3, (uint64_t)(int64_t)kv->key_strindex)) ||
         put_unknown(b, &kv->base);
}
static int pack_array(const ctx *c, pcol_buf *b, const void *p) {
  const Opentelemetry__Proto__Common__V1__ArrayValue *a = p;
  for (size_t i = 0; i < a->n_values; i++)
    if (put_sub(c, b, 1, a->values[i], pack_any_v)) return -1;
  return put_unknown(b, &a->base);
}
static int pack_kvlist(const ctx *c, pcol_buf *b, const void *p) {
  const Opentelemetry__Proto__Common__V1__KeyValueList *l = p;
  for (size_t i = 0; i < l->n_values; i++)
    if (put_sub(c, b, 1, l->values[i], pack_kv)) return -1;
  return put_unknown(b, &l->base);
}
static int pack_any(const ctx *c, pcol_buf *b, const otlp_any *v) {
  int rc = 0;
  switch (v->value_case) {
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE:
    if (v->string_value && v->string_value != protobuf_c_empty_string) {
      pcol_str s = pb_str(c, v->string_value);
      rc = pcol_pb_w_bytes(b, 1, s.ptr, s.len);
    }
    break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BOOL_VALUE:
    rc = pcol_pb_w_uint(b, 2, v->bool_value ? 1 : 0);
    break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE:
    rc = pcol_pb_w_uint(b, 3, (uint64_t)v->int_value);
    break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_DOUBLE_VALUE: {
    uint64_t u;
    memcpy(&u, &v->double_value, 8);
    rc = pcol_pb_w_fixed64(b, 4, u);
    break;
  }
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_ARRAY_VALUE:
    rc = v->array_value && put_sub(c, b, 5, v->array_value, pack_array);
    break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_KVLIST_VALUE:
    rc = v->kvlist_value && put_sub(c, b, 6, v->kvlist_value, pack_kvlist);
    break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BYTES_VALUE:
    rc = pcol_pb_w_bytes(b, 7, v->bytes_value.data, v->bytes_value.len);
    break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE_STRINDEX:
    rc = pcol_pb_w_uint(b, 8, (uint64_t)(int64_t)v->string_value_strindex);
    break;
  default: break;
  }
  return rc || put_unknown(b, &v->base);
}

/* An AnyValue as text (the string of a label or a meta value); *is_int
 * (may be NULL) says an int_value, *num gets it. */
static int any_text(ctx *c, const otlp_any *v, pcol_buf *t, int *is_int, int64_t *num) {
  t->len = 0;
  if (is_int) *is_int = 0;
  if (!v) return PCOL_OK;
  char tmp[64];
  const char *s = NULL;
  pcol_str w;
  switch (v->value_case) {
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE: /* whole, NUL and all */
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE_STRINDEX:
    w = v->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE
            ? pb_str(c, v->string_value)
            : str_at(c, v->string_value_strindex);
    return pcol_buf_append(t, w.ptr, w.len) ? pcol_oom(c->err) : PCOL_OK;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BOOL_VALUE: s = v->bool_value ? "true" : "false"; break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE:
    if (is_int) {
      *is_int = 1;
      *num = v->int_value;
      return PCOL_OK;
    }
    snprintf(tmp, sizeof tmp, "%" PRId64, v->int_value);
    s = tmp;
    break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_DOUBLE_VALUE:
    snprintf(tmp, sizeof tmp, "%.17g", v->double_value);
    s = tmp;
    break;
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BYTES_VALUE: {
    if (v->bytes_value.len > (SIZE_MAX - 1) / 2 || pcol_buf_reserve(t, 2 * v->bytes_value.len + 1))
      return pcol_oom(c->err);
    hex((char *)t->data, v->bytes_value.data, v->bytes_value.len);
    t->len = 2 * v->bytes_value.len;
    return PCOL_OK;
  }
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_ARRAY_VALUE:
  case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_KVLIST_VALUE: {
    /* nested values: their packed protobuf bytes as hex (kept, not shown),
     * their strings whole (pack_any) */
    pcol_buf raw = {0};
    int rc = pack_any(c, &raw, v) ? pcol_oom(c->err) : PCOL_OK;
    size_t n = raw.len;
    if (!rc && (n > (SIZE_MAX - 1) / 2 || pcol_buf_reserve(t, 2 * n + 1))) rc = pcol_oom(c->err);
    if (!rc) {
      if (n) hex((char *)t->data, raw.data, n);
      t->len = 2 * n;
    }
    pcol_buf_free(&raw);
    return rc;
  }
  default: return PCOL_OK;
  }
  if (!s) s = "";
  return pcol_buf_append(t, s, strlen(s)) ? pcol_oom(c->err) : PCOL_OK;
}

/* ------------------------------------------------------ dictionary tables */

/* pcol_sym_locations on a message's mappings (rows[0..nm), their string
 * ids as the rows will hold them) and locations: a mapping counts as
 * symbolized (pprof's has_functions ...) by its flags or when one of its
 * locations has lines. */
static char *str_of(const pcol_builder *b, uint32_t id) {
  pcol_str v = pcol_b_string_get(b, id);
  char *r = malloc(v.len + 1);
  if (r) {
    if (v.len) memcpy(r, v.ptr, v.len);
    r[v.len] = 0;
  }
  return r;
}

static int symbolize(ctx *c, const pcol_mapping_row *rows, size_t nm, pcol_sym_table *t) {
  const otlp_dict *D = c->dict;
  size_t nl = D->n_location_table ? D->n_location_table - 1 : 0;
  pcol_sym_input *in = pcol_sym_input_new(nm, nl);
  if (!in) return pcol_oom(c->err);
  const uint8_t has = PCOL_MAP_HAS_FUNCTIONS | PCOL_MAP_HAS_FILENAMES | PCOL_MAP_HAS_LINE_NUMBERS;
  for (size_t i = 0; i < nm; i++) {
    pcol_sym_mapping sm = {rows[i].memory_start, rows[i].memory_limit, rows[i].file_offset,
                           str_of(c->b, rows[i].filename), str_of(c->b, rows[i].build_id),
                           pcol_b_string_get(c->b, rows[i].filename).len,
                           (rows[i].flags & has) != 0, i == 0};
    in->maps[i] = sm;
  }
  for (size_t i = 0; i < nl; i++) {
    const otlp_location *l = D->location_table[i + 1];
    uint32_t mi = (uint32_t)l->mapping_index; /* the table's entry 0 is no mapping */
    in->loc_map[i] = mi;
    in->loc_addr[i] = l->address;
    if (l->n_lines && mi && mi <= nm) in->maps[mi - 1].symbolized = true;
  }
  return pcol_sym_locations(c->sym, c->b, in, t, c->err);
}

static int build_tables(ctx *c) {
  const otlp_dict *D = c->dict;
  pcol_builder *b = c->b;
  int rc = PCOL_OK;
  pcol_buf t = {0};
  /* attributes -> labels (typed: an int keeps its number, the rest text) */
  for (size_t i = 1; i < D->n_attribute_table && !rc; i++) {
    const otlp_kvu *a = D->attribute_table[i];
    pcol_label_row *L = &c->attr[i];
    int is_int = 0;
    int64_t num = 0;
    if ((rc = sid(c, a->key_strindex, &L->key)) || (rc = sid(c, a->unit_strindex, &L->num_unit)) ||
        (rc = any_text(c, a->value, &t, &is_int, &num)))
      break;
    L->num = is_int ? num : 0;
    L->str = 0;
    c->attr_base[i] = !is_int && t.len == 4 && !memcmp(t.data, "true", 4) &&
                      pcol_str_is(str_at(c, a->key_strindex), PCOL_DIFF_BASE_KEY);
    if (!is_int) rc = pcol_b_string(b, t.len ? (const char *)t.data : "", t.len, &L->str, c->err);
  }
  size_t nm = D->n_mapping_table ? D->n_mapping_table - 1 : 0;
  pcol_mapping_row *rows = calloc(nm + 1, sizeof *rows);
  if (!rows) rc = pcol_oom(c->err);
  for (size_t i = 1; i < D->n_mapping_table && !rc; i++) {
    const otlp_mapping *m = D->mapping_table[i];
    pcol_mapping_row r = {m->memory_start, m->memory_limit, m->file_offset, 0, 0, 0};
    if ((rc = sid(c, m->filename_strindex, &r.filename))) break;
    /* build ids: pcol's own key first, else the semantic conventions' */
    int have_bid = 0;
    for (size_t k = 0; k < m->n_attribute_indices && !rc; k++) {
      int32_t ai = m->attribute_indices[k];
      if (ai <= 0) continue;
      pcol_str key = str_at(c, D->attribute_table[ai]->key_strindex);
      int own = pcol_str_is(key, OTLP_ATTR_BUILD_ID);
      if (pcol_str_is(key, OTLP_ATTR_MAP_FLAGS)) {
        r.flags = (uint8_t)(c->attr[ai].num & 0xff);
        continue;
      }
      if (!own && (have_bid || key.len < 28 || memcmp(key.ptr, "process.executable.build_id.", 28) != 0)) continue;
      if (own || !have_bid) r.build_id = c->attr[ai].str;
      have_bid = 1 + own;
    }
    rows[i - 1] = r;
  }
  /* --symbolize local: an eBPF profiler's native frames (symbolize.c) */
  pcol_sym_table sd;
  memset(&sd, 0, sizeof sd);
  if (!rc && c->sym->on) rc = symbolize(c, rows, nm, &sd);
  for (size_t i = 1; i < D->n_mapping_table && !rc; i++) {
    pcol_mapping_row *r = &rows[i - 1];
    if (sd.map_flags) r->flags |= sd.map_flags[i - 1];
    if (sd.map_file && sd.map_file[i - 1]) r->filename = sd.map_file[i - 1];
  }
  if (!rc && D->n_mapping_table > 1)
    rc = pcol_b_mappings_shared(b, rows, D->n_mapping_table - 1, NULL, &c->map_ids[1], &c->map_shift[1], c->err);
  free(rows);
  for (size_t i = 1; i < D->n_function_table && !rc; i++) {
    const otlp_function *f = D->function_table[i];
    pcol_function_row r = {0, 0, 0, f->start_line};
    if (!(rc = sid(c, f->name_strindex, &r.name)) &&
        !(rc = sid(c, f->system_name_strindex, &r.system_name)) &&
        !(rc = sid(c, f->filename_strindex, &r.filename)) && c->sym->on) { /* pprof's Demangle */
      /* (the bytes on the wire, as sid reads them) */
      static const size_t none[2] = {0, 0};
      const size_t *fnm = f->name_strindex > 0 ? c->strs[f->name_strindex] : none;
      const size_t *sy = f->system_name_strindex > 0 ? c->strs[f->system_name_strindex] : none;
      rc = pcol_sym_demangle(c->sym, b, fnm[1] > fnm[0] ? (const char *)c->raw + fnm[0] : "",
                             fnm[1] - fnm[0], sy[1] > sy[0] ? (const char *)c->raw + sy[0] : "",
                             sy[1] - sy[0], r.system_name, &r.name, c->err);
    }
    if (!rc) rc = pcol_b_function(b, &r, &c->fn_ids[i], c->err);
  }
  pcol_buf lines = {0};
  for (size_t i = 1; i < D->n_location_table && !rc; i++) {
    const otlp_location *l = D->location_table[i];
    if (sd.loc_n && sd.loc_n[i - 1]) { /* symbolized: the binary's chain */
      rc = pcol_b_location(b, c->map_ids[l->mapping_index], l->address + c->map_shift[l->mapping_index], 0,
                           (const pcol_line_row *)(void *)sd.lines.data + sd.loc_first[i - 1],
                           sd.loc_n[i - 1], &c->loc_ids[i], c->err);
      continue;
    }
    lines.len = 0;
    if (pcol_buf_reserve(&lines, l->n_lines * sizeof(pcol_line_row) + 1)) {
      rc = pcol_oom(c->err);
      break;
    }
    pcol_line_row *lr = (pcol_line_row *)(void *)lines.data;
    for (size_t j = 0; j < l->n_lines && !rc; j++) {
      int32_t fi = l->lines[j]->function_index;
      if (fi == 0 && !c->fn_ids[0]) { /* the zero function: a row with no names */
        pcol_function_row z = {0, 0, 0, 0};
        rc = pcol_b_function(b, &z, &c->fn_ids[0], c->err);
      }
      lr[j].function_id = c->fn_ids[fi];
      lr[j].line = l->lines[j]->line;
      lr[j].column = l->lines[j]->column;
    }
    if (!rc)
      rc = pcol_b_location(b, c->map_ids[l->mapping_index], l->address + c->map_shift[l->mapping_index], 0,
                           lr, l->n_lines,
                           &c->loc_ids[i], c->err);
  }
  pcol_buf_free(&lines);
  pcol_buf_free(&t);
  pcol_sym_table_free(&sd);
  TRY(rc);
  return PCOL_OK;
}

/* ---------------------------------------------------------- samples */

static int same_ints(const int32_t *a, size_t na, const int32_t *b, size_t nb) {
  return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* *same: Profiles p and q (pi and qi in decoding order) of one scope
 * share samples: the same time and attributes and, sample by sample, the
 * same stack, attributes, link and timestamps. */
static int same_samples(ctx *c, const otlp_profile *p, const otlp_profile *q, size_t pi, size_t qi,
                        int *same) {
  *same = 0;
  if (p->time_unix_nano != q->time_unix_nano || p->duration_nano != q->duration_nano ||
      c->prof[pi].n != c->prof[qi].n ||
      !same_ints(p->attribute_indices, p->n_attribute_indices, q->attribute_indices,
                 q->n_attribute_indices))
    return PCOL_OK;
  otlp_scur sp = scur(c, pi), sq = scur(c, qi);
  size_t pb, pe, qb, qe;
  while (pcol_otlp_next_sample(&sp, &pb, &pe) > 0 && pcol_otlp_next_sample(&sq, &qb, &qe) > 0) {
    int rc;
    if ((rc = read_sample(c, 0, pb, pe)) || (rc = read_sample(c, 1, qb, qe))) return rc;
    const otlp_wsample *a = &c->ws[0], *b = &c->ws[1];
    if (a->stack_index != b->stack_index || a->link_index != b->link_index ||
        a->n_values != b->n_values || !same_ints(a->attrs, a->n_attrs, b->attrs, b->n_attrs) ||
        a->n_times != b->n_times ||
        (a->n_times && memcmp(a->times, b->times, a->n_times * sizeof(uint64_t)) != 0))
      return PCOL_OK;
  }
  *same = 1;
  return PCOL_OK;
}

/* An observation to be a pcol sample, when a Profile's are out of time
 * order: sorted through pcol_rowsort (temporary files past its budget), a
 * row being this and the observation's value in each Profile of the group
 * (int64 each): all the sample needs, so the message is not read again in
 * time order (anywhere: each read would fault in the pages around). */
typedef struct obs {
  int64_t time;
  uint64_t sample;     /* the Sample's number in its Profile */
  uint32_t k;          /* observation within the sample */
  int32_t stack, link; /* the Sample's stack_index and link_index */
  uint32_t attrs;      /* its attribute_indices: an id of group.sets */
} obs;

static int obs_cmp(const void *x, const void *y) {
  obs a, b;
  memcpy(&a, x, sizeof a);
  memcpy(&b, y, sizeof b);
  if (a.time != b.time) return a.time < b.time ? -1 : 1;
  if (a.sample != b.sample) return a.sample < b.sample ? -1 : 1;
  return a.k < b.k ? -1 : a.k > b.k;
}

static int meta_u64(ctx *c, uint32_t src, const char *key, uint64_t v) {
  char t[32];
  int n = snprintf(t, sizeof t, "%" PRIu64, v);
  return pcol_b_meta(c->b, src, key, t, (size_t)n, c->err);
}
static int meta_i64(ctx *c, uint32_t src, const char *key, int64_t v) {
  char t[32];
  int n = snprintf(t, sizeof t, "%" PRId64, v);
  return pcol_b_meta(c->b, src, key, t, (size_t)n, c->err);
}

/* key = prefix + name (name[0..nlen)), the value v's text.  A pcol meta
 * key is a C string: a name holding NUL is not kept, and the source's
 * note says so (what: "resource", "scope", "profile"), its NUL as \0. */
static int meta_kv(ctx *c, uint32_t src, const char *prefix, pcol_str name, const otlp_any *v,
                   pcol_buf *t, const char *what) {
  pcol_buf k = {0};
  int rc = PCOL_OK;
  if (has_nul(name)) {
    if (pcol_buf_append(&k, "the ", 4) || pcol_buf_append(&k, what, strlen(what)) ||
        pcol_buf_append(&k, " attribute \"", 12))
      rc = pcol_oom(c->err);
    for (size_t i = 0; !rc && i < name.len; i++)
      if (name.ptr[i] ? pcol_buf_append(&k, name.ptr + i, 1) : pcol_buf_append(&k, "\\0", 2)) rc = pcol_oom(c->err);
    static const char why[] = "\" holds a NUL in its key, which a pcol meta key cannot: not kept";
    if (!rc && pcol_buf_append(&k, why, sizeof why)) rc = pcol_oom(c->err);
    if (!rc) rc = pcol_b_meta_str(c->b, src, PCOL_META_NOTE, (const char *)k.data, c->err);
    pcol_buf_free(&k);
    return rc;
  }
  if (pcol_buf_append(&k, prefix, strlen(prefix)) || pcol_buf_append(&k, name.ptr, name.len) ||
      pcol_buf_append(&k, "", 1))
    rc = pcol_oom(c->err);
  if (!rc) rc = any_text(c, v, t, NULL, NULL);
  if (!rc) rc = pcol_b_meta(c->b, src, (const char *)k.data, t->len ? (const char *)t->data : "", t->len, c->err);
  pcol_buf_free(&k);
  return rc;
}

static int kvs_meta(ctx *c, uint32_t src, const char *prefix, otlp_kv *const *kv, size_t n,
                    pcol_buf *t, const char *what) {
  for (size_t i = 0; i < n; i++)
    PCOL_RETURN_NOT_OK(meta_kv(c, src, prefix, kv_key(c, kv[i]), kv[i]->value, t, what));
  return PCOL_OK;
}

/* The string value of Profile p's last attribute named key (pcol's own
 * attributes), its bytes whole; .ptr NULL when it has none. */
static pcol_str attr_str(ctx *c, const otlp_profile *p, const char *key) {
  const otlp_dict *D = c->dict;
  pcol_str r = {NULL, 0};
  for (size_t k = 0; k < p->n_attribute_indices; k++) {
    int32_t ai = p->attribute_indices[k];
    if (ai <= 0) continue;
    const otlp_any *v = D->attribute_table[ai]->value;
    if (!v || !pcol_str_is(str_at(c, D->attribute_table[ai]->key_strindex), key)) continue;
    if (v->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE)
      r = pb_str(c, v->string_value);
    else if (v->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE_STRINDEX)
      r = str_at(c, v->string_value_strindex);
  }
  return r;
}

/* The text of resource rp's last attribute named key into t (t->len 0:
 * none). */
static int resource_attr(ctx *c, const otlp_rprof *rp, const char *key, pcol_buf *t) {
  t->len = 0;
  for (size_t i = 0; rp->resource && i < rp->resource->n_attributes; i++) {
    otlp_kv *kv = rp->resource->attributes[i];
    if (pcol_str_is(kv_key(c, kv), key)) PCOL_RETURN_NOT_OK(any_text(c, kv->value, t, NULL, NULL));
  }
  return PCOL_OK;
}

/* The name of a source of Profiles g[0..ng) of resource rp, uri[0..*ulen)
 * (uri NULL: out of memory; it may hold NUL): the pcol.source_uri
 * attribute pcol's export wrote, else the
 * process its resource names, by THE rule of srcname.h as a Chrome trace's
 * threads are named: "FILE: EXECUTABLE (pid P), TYPE" (EXECUTABLE the
 * resource's process.executable.name, else its service.name; TYPE the
 * Profiles' sample types, "+" between them: one process has a Profile per
 * kind of sample, the OTel eBPF profiler's off_cpu beside its samples),
 * else FILE. */
static int source_uri(ctx *c, const otlp_rprof *rp, otlp_profile *const *g, size_t ng, char **uri,
                      size_t *ulen) {
  pcol_str u = attr_str(c, g[0], OTLP_ATTR_SOURCE_URI);
  *uri = NULL;
  if (u.ptr) {
    if (!(*uri = malloc(u.len + 1))) return pcol_oom(c->err);
    memcpy(*uri, u.ptr, u.len);
    (*uri)[u.len] = 0;
    *ulen = u.len;
    return PCOL_OK;
  }
  pcol_buf exe = {0}, pid = {0}, what = {0};
  int rc = resource_attr(c, rp, "process.executable.name", &exe);
  if (!rc && !exe.len) rc = resource_attr(c, rp, "service.name", &exe);
  if (!rc) rc = resource_attr(c, rp, "process.pid", &pid);
  for (size_t i = 0; !rc && (exe.len || pid.len) && i < ng; i++) {
    pcol_str ty = g[i]->sample_type ? str_at(c, g[i]->sample_type->type_strindex) : (pcol_str){"", 0};
    if ((i && pcol_buf_append(&what, "+", 1)) || pcol_buf_append(&what, ty.ptr, ty.len))
      rc = pcol_oom(c->err);
  }
  if (!rc) { /* (each part by its length: a NUL in the pid or a type kept) */
    pcol_str pd = {pid.len ? (const char *)pid.data : NULL, pid.len}, w = {(const char *)what.data, what.len};
    *uri = pcol_source_name(c->name, exe.len ? (const char *)exe.data : NULL, exe.len, pd, pcol_source_part(NULL),
                            w, ulen);
    if (!*uri) rc = pcol_oom(c->err);
  }
  pcol_buf_free(&exe);
  pcol_buf_free(&pid);
  pcol_buf_free(&what);
  return rc;
}

/* meta key = a string field of the message (s), unless empty */
static int meta_pb(ctx *c, uint32_t src, const char *key, const char *s) {
  pcol_str v = pb_str(c, s);
  return v.len ? pcol_b_meta(c->b, src, key, v.ptr, v.len, c->err) : PCOL_OK;
}

/* The source of Profiles g[0..ng) of scope sp of resource rp; base: its
 * start, ns since the epoch (the Profile's time_unix_nano, or the earliest
 * timestamp where that is 0: import_group), 0 = none. */
static int make_source(ctx *c, const otlp_rprof *rp, const otlp_sprof *sp,
                       otlp_profile *const *g, size_t ng, uint64_t base, uint32_t *src,
                       pcol_value_row *vals) {
  const otlp_profile *p = g[0];
  const otlp_dict *D = c->dict;
  /* (pcol's own attribute: a type holding NUL is none pcol wrote) */
  pcol_str sty = attr_str(c, p, OTLP_ATTR_SOURCE_TYPE);
  if (!sty.ptr || has_nul(sty)) sty = (pcol_str){PCOL_SRC_OTLP, strlen(PCOL_SRC_OTLP)};
  char *type = strndup(sty.ptr, sty.len), *uri = NULL;
  size_t ulen = 0;
  int rc = type ? source_uri(c, rp, g, ng, &uri, &ulen) : pcol_oom(c->err);
  int64_t ts = PCOL_NA_I64;
  if (base) ts = (int64_t)(base / 1000000000u);
  if (!rc) rc = pcol_b_source_n(c->b, type, uri, ulen, ts, src, c->err);
  if (!rc) rc = pcol_source_file_mark(c->b, *src, c->name, strlen(c->name), uri, ulen, c->err);
  free(type);
  free(uri);
  TRY(rc);
  pcol_buf t = {0};
  if (base) rc = meta_u64(c, *src, OTLP_META_TIME_UNIX_NANO, base);
  if (!rc && base != p->time_unix_nano) /* (the export writes it as the Profile's time) */
    rc = pcol_b_meta_str(c->b, *src, PCOL_META_NOTE,
                         "the Profile's time_unix_nano is 0: its start is its earliest sample timestamp",
                         c->err);
  if (!rc && p->duration_nano) rc = meta_u64(c, *src, OTLP_META_DURATION_NANO, p->duration_nano);
  if (!rc && p->period_type) {
    pcol_str a = str_at(c, p->period_type->type_strindex), u = str_at(c, p->period_type->unit_strindex);
    if (!(rc = pcol_b_meta(c->b, *src, OTLP_META_PERIOD_TYPE_TYPE, a.ptr, a.len, c->err)))
      rc = pcol_b_meta(c->b, *src, OTLP_META_PERIOD_TYPE_UNIT, u.ptr, u.len, c->err);
  }
  if (!rc && p->period) rc = meta_i64(c, *src, OTLP_META_PERIOD, p->period);
  if (!rc && p->profile_id.len && p->profile_id.len <= 64) {
    char h[129];
    hex(h, p->profile_id.data, p->profile_id.len);
    rc = pcol_b_meta(c->b, *src, OTLP_META_PROFILE_ID, h, strlen(h), c->err);
  }
  if (!rc && p->dropped_attributes_count)
    rc = meta_u64(c, *src, OTLP_META_DROPPED_ATTRIBUTES, p->dropped_attributes_count);
  if (!rc) rc = meta_pb(c, *src, OTLP_META_PAYLOAD_FORMAT, p->original_payload_format);
  if (!rc && p->original_payload.len)
    rc = pcol_b_meta(c->b, *src, OTLP_META_PAYLOAD, p->original_payload.data, p->original_payload.len, c->err);
  if (!rc && c->layout == LAYOUT_V9)
    rc = pcol_b_meta(c->b, *src, OTLP_META_SAMPLE_LAYOUT, "v1.9", 4, c->err);
  /* the Profile's attributes under their own keys (pcol's own two aside,
   * and pcol.max_duration_ns: a fact about the pcol file's own duration
   * column, which coalescing writes from the samples; from the input it
   * could break spec.md F6 (a value of "[]" made a file that fails
   * validation, found by fuzz_otlp; issue 42) or lie about the samples) */
  for (size_t k = 0; k < p->n_attribute_indices && !rc; k++) {
    int32_t ai = p->attribute_indices[k];
    if (ai <= 0) continue;
    pcol_str key = str_at(c, D->attribute_table[ai]->key_strindex);
    if (pcol_str_is(key, OTLP_ATTR_SOURCE_TYPE) || pcol_str_is(key, OTLP_ATTR_SOURCE_URI) ||
        pcol_str_is(key, OTLP_ATTR_TIME_BASE) || pcol_str_is(key, PCOL_META_MAX_DURATION_NS))
      continue;
    rc = meta_kv(c, *src, "", key, D->attribute_table[ai]->value, &t, "profile");
  }
  /* the Profiles of one message (an ExportProfilesServiceRequest: one
   * capture, the OTel eBPF profiler's 82 Profiles of one 4.79 s window
   * in ODD-otlp-ebpf-profile) are one recording, counted once by the
   * Duration (THE recording rule, spec.md §7 "Recordings"), as JFR's event
   * types and a Chrome trace's profiles are; a Profile pcol wrote (its
   * pcol.source_type attribute) keeps the part its attributes give, none
   * when it had none (a separate input of a merge) */
  if (!rc && PCOL_BUF_PUSH(&c->rec, uint32_t, attr_str(c, p, OTLP_ATTR_SOURCE_TYPE).ptr ? 0 : *src))
    rc = pcol_oom(c->err);
  if (!rc && rp->resource)
    rc = kvs_meta(c, *src, OTLP_META_RESOURCE, rp->resource->attributes, rp->resource->n_attributes, &t,
                  "resource");
  if (!rc) rc = meta_pb(c, *src, OTLP_META_RESOURCE_SCHEMA, rp->schema_url);
  if (!rc && sp->scope) {
    rc = meta_pb(c, *src, OTLP_META_SCOPE_NAME, sp->scope->name);
    if (!rc) rc = meta_pb(c, *src, OTLP_META_SCOPE_VERSION, sp->scope->version);
    if (!rc) rc = kvs_meta(c, *src, OTLP_META_SCOPE, sp->scope->attributes, sp->scope->n_attributes, &t, "scope");
  }
  if (!rc) rc = meta_pb(c, *src, OTLP_META_SCOPE_SCHEMA, sp->schema_url);
  pcol_buf_free(&t);
  /* one value type per Profile */
  for (size_t i = 0; i < ng && !rc; i++) {
    uint32_t ty = 0, un = 0;
    const otlp_vtype *st = g[i]->sample_type;
    if (st && ((rc = sid(c, st->type_strindex, &ty)) || (rc = sid(c, st->unit_strindex, &un)))) break;
    if (!(rc = pcol_b_value_type(c->b, ty, un, &vals[i].value_type_id, c->err)))
      rc = pcol_b_source_value_type(c->b, *src, vals[i].value_type_id, c->err);
  }
  TRY(rc);
  return PCOL_OK;
}

/* The distinct attribute_indices lists of a group's Samples (rows of the
 * sorter name them by id), each as its int32 indices. */
static int set_id(pcol_intern *s, const int32_t *a, size_t n, uint32_t *id) {
  if (n >= INT32_MAX) return PCOL_ETOOBIG;
  return pcol_intern_get(s, a, n * sizeof *a, id);
}

/* A group of Profiles being one pcol source: its Samples, read in step. */
typedef struct group {
  ctx *c;
  const otlp_profile *p; /* the first Profile */
  uint64_t base;         /* the source's start (make_source): sample times count from it */
  size_t first, ng;      /* the Profiles' numbers in decoding order */
  uint32_t src;
  pcol_value_row *vals;
  otlp_wsample *ws;      /* the Sample being read, in each Profile */
  pcol_buf stack, labels;
  pcol_intern sets;      /* out of time order: the attribute lists */
  pcol_buf row;          /* out of time order: a row of the sorter */
  int failed;            /* rc has its message */
  int signed_base;       /* the source's pprof.diff_base is PCOL_BASE_SIGNED (pcol's copy of a pprof
                          * -diff_base file): a base sample (attr_base) weighs -1, as the pprof importer's */
} group;

static int group_oom(group *g) {
  g->failed = 1;
  return pcol_oom(g->c->err);
}

/* The observations of the Sample in g->ws[0]: how many, and the time of
 * observation j (since the Profile's time; NA without timestamps). */
static size_t observations(const otlp_wsample *s) {
  return s->n_times && s->n_values != 1 ? s->n_times : 1;
}
static int obs_time(group *g, size_t k, size_t j, int64_t *t) {
  const otlp_wsample *s = &g->ws[0];
  *t = PCOL_NA_I64;
  if (!s->n_times) return PCOL_OK;
  uint64_t a = s->times[j], base = g->base;
  uint64_t dlt = a >= base ? a - base : base - a;
  if (dlt > (uint64_t)INT64_MAX) {
    g->failed = 1;
    return bad(g->c, "sample %zu timestamp %" PRIu64 " is too far from the profile's time %" PRIu64,
               k + 1, a, base);
  }
  *t = a >= base ? (int64_t)dlt : -(int64_t)dlt;
  return PCOL_OK;
}
/* Observation j's value in each Profile of the group -> g->vals. */
static void obs_values(group *g, size_t j) {
  for (size_t q = 0; q < g->ng; q++) {
    const otlp_wsample *sq = &g->ws[q];
    size_t T = sq->n_times, V = sq->n_values;
    uint64_t v = 0; /* (a sum wraps as two's complement, as the file's int64) */
    if (T && V == 0) v = 1;             /* timestamps only: each counts 1 */
    else if (T && V == T) v = (uint64_t)sq->values[j];
    else for (size_t i = 0; i < V; i++) v += (uint64_t)sq->values[i]; /* aggregated */
    g->vals[q].value = (int64_t)v;
  }
}

/* One pcol sample at time t: the stack, attributes and link given, the
 * values in g->vals. */
static int emit(group *g, int64_t t, int32_t stack_index, int32_t link_index, const int32_t *attrs,
                size_t n_attrs) {
  ctx *c = g->c;
  const otlp_dict *D = c->dict;
  int rc = PCOL_OK;
  /* stack */
  const otlp_stack *st = stack_index > 0 ? D->stack_table[stack_index] : NULL;
  size_t depth = st ? st->n_location_indices : 0;
  if (pcol_buf_reserve(&g->stack, depth * sizeof(uint32_t) + 1) ||
      pcol_buf_reserve(&g->labels, (n_attrs + 2) * sizeof(pcol_label_row)))
    return group_oom(g);
  uint32_t *sl = (uint32_t *)(void *)g->stack.data;
  for (size_t j = 0; j < depth && !rc; j++) {
    int32_t li = st->location_indices[j];
    if (li == 0 && !c->loc_ids[0]) /* the zero location */
      rc = pcol_b_location(c->b, 0, 0, 0, NULL, 0, &c->loc_ids[0], c->err);
    sl[j] = c->loc_ids[li];
  }
  /* labels: the attributes, then the link */
  pcol_label_row *lb = (pcol_label_row *)(void *)g->labels.data;
  size_t nl = 0;
  char tid[33], spid[17];
  for (size_t j = 0; j < n_attrs; j++)
    if (attrs[j] > 0) lb[nl++] = c->attr[attrs[j]];
  if (link_index > 0 && !rc) {
    const otlp_link *L = D->link_table[link_index];
    if (L->trace_id.len && L->trace_id.len <= 16) {
      hex(tid, L->trace_id.data, L->trace_id.len);
      pcol_label_row r = {0, 0, 0, 0};
      if (!(rc = pcol_b_cstr(c->b, OTLP_LABEL_TRACE_ID, &r.key, c->err)) && !(rc = pcol_b_cstr(c->b, tid, &r.str, c->err)))
        lb[nl++] = r;
    }
    if (!rc && L->span_id.len && L->span_id.len <= 8) {
      hex(spid, L->span_id.data, L->span_id.len);
      pcol_label_row r = {0, 0, 0, 0};
      if (!(rc = pcol_b_cstr(c->b, OTLP_LABEL_SPAN_ID, &r.key, c->err)) && !(rc = pcol_b_cstr(c->b, spid, &r.str, c->err)))
        lb[nl++] = r;
    }
  }
  pcol_sample_row row = {g->src, t, 0, 1, PCOL_NA_I64, 0, 0};
  for (size_t j = 0; j < n_attrs && g->signed_base; j++)
    if (attrs[j] > 0 && c->attr_base[attrs[j]]) row.weight = -1;
  if (!rc) rc = pcol_b_stack_memo(c->b, &c->memo, sl, depth, &row.stack_id, c->err);
  if (!rc) rc = pcol_b_labelset(c->b, lb, nl, &row.labelset_id, c->err);
  if (!rc) rc = pcol_b_sample(c->b, &row, g->vals, g->ng, NULL, c->err);
  if (rc) {
    if (!g->failed) rc = pcol_error_in(c->err, rc, c->name, 0);
    g->failed = 1;
  }
  return rc;
}

/* Calls visit on each Sample index k of the group, its Sample in every
 * Profile read into g->ws (the Profiles' samples read in step). */
static int each_group_sample(group *g, int (*visit)(group *g, size_t k, void *arg), void *arg) {
  otlp_scur *cur = calloc(g->ng, sizeof *cur);
  if (!cur) return group_oom(g);
  int rc = PCOL_OK;
  for (size_t q = 0; q < g->ng; q++) cur[q] = scur(g->c, g->first + q);
  for (size_t k = 0; !rc; k++) {
    int more = 1;
    for (size_t q = 0; q < g->ng && more && !rc; q++) {
      size_t b, e;
      if ((more = pcol_otlp_next_sample(&cur[q], &b, &e) > 0) && (rc = read_sample_into(g->c, &g->ws[q], b, e)))
        g->failed = 1;
    }
    if (!more || rc) break;
    rc = visit(g, k, arg);
  }
  free(cur);
  return rc;
}

/* pass 0, of a timed Profile whose time_unix_nano is 0 (unset: a producer
 * that stamps only its samples) and that is not pcol's own with times since
 * its start (pcol.time_base, import_group): the earliest timestamp, the
 * source's start, so that its samples' times count from it (the epoch would
 * put them ~55 years in: every range since the start empty) */
static int min_time(group *g, size_t k, void *arg) {
  (void)k;
  uint64_t *m = arg;
  const otlp_wsample *s = &g->ws[0];
  for (size_t j = 0; j < s->n_times; j++)
    if (s->times[j] && (!*m || s->times[j] < *m)) *m = s->times[j];
  return PCOL_OK;
}

/* pass 1: are the observations in time order already? (and the times' check) */
typedef struct order {
  int64_t last;
  int sorted;
} order;
static int check_order(group *g, size_t k, void *arg) {
  order *o = arg;
  int64_t t;
  for (size_t j = 0, n = observations(&g->ws[0]); j < n; j++) {
    PCOL_RETURN_NOT_OK(obs_time(g, k, j, &t));
    if ((k || j) && t < o->last) o->sorted = 0;
    o->last = t;
  }
  return PCOL_OK;
}

/* pass 2, in order: each observation to the builder */
static int put_in_order(group *g, size_t k, void *arg) {
  (void)arg;
  const otlp_wsample *s = &g->ws[0];
  int64_t t;
  for (size_t j = 0, n = observations(s); j < n; j++) {
    PCOL_RETURN_NOT_OK(obs_time(g, k, j, &t));
    obs_values(g, j);
    PCOL_RETURN_NOT_OK(emit(g, t, s->stack_index, s->link_index, s->attrs, s->n_attrs));
  }
  return PCOL_OK;
}

static int sorter_failed(group *g, int rc, const char *what) {
  if (g->failed) return rc;
  g->failed = 1;
  if (rc == PCOL_ENOMEM) return pcol_oom(g->c->err);
  if (rc == PCOL_ETOOBIG)
    return pcol_error_set(g->c->err, rc, "%s: too many distinct sample attribute lists for pcol",
                          g->c->name);
  return pcol_error_set(g->c->err, rc, "%s: OTLP samples out of time order: a temporary file "
                        "($TMPDIR, else /tmp) could not be %s", g->c->name, what);
}

/* pass 2, out of order: each observation to the sorter */
static int to_sorter(group *g, size_t k, void *arg) {
  pcol_rowsort *rs = arg;
  const otlp_wsample *s = &g->ws[0];
  obs o = {0, k, 0, s->stack_index, s->link_index, 0};
  int rc = set_id(&g->sets, s->attrs, s->n_attrs, &o.attrs);
  if (rc) return sorter_failed(g, rc, "written");
  for (size_t j = 0, n = observations(s); j < n; j++) {
    o.k = (uint32_t)j;
    PCOL_RETURN_NOT_OK(obs_time(g, k, j, &o.time));
    obs_values(g, j);
    memcpy(g->row.data, &o, sizeof o);
    for (size_t q = 0; q < g->ng; q++)
      memcpy(g->row.data + sizeof o + 8 * q, &g->vals[q].value, 8);
    if ((rc = pcol_rowsort_add(rs, g->row.data))) return sorter_failed(g, rc, "written");
  }
  return PCOL_OK;
}

/* pass 3, out of order: each row of the sorter to the builder */
static int from_sorter(void *arg, const void *row) {
  group *g = arg;
  obs o;
  memcpy(&o, row, sizeof o);
  for (size_t q = 0; q < g->ng; q++)
    memcpy(&g->vals[q].value, (const uint8_t *)row + sizeof o + 8 * q, 8);
  size_t n;
  const int32_t *a = pcol_intern_at(&g->sets, o.attrs, &n);
  return emit(g, o.time, o.stack, o.link, a, n / sizeof *a);
}

static int import_group(ctx *c, const otlp_rprof *rp, const otlp_sprof *sp,
                        otlp_profile *const *gp, size_t ng, size_t first) {
  group g;
  memset(&g, 0, sizeof g);
  g.c = c;
  g.p = gp[0];
  g.first = first;
  g.ng = ng;
  g.vals = calloc(ng, sizeof *g.vals);
  g.ws = calloc(ng, sizeof *g.ws);
  if (!g.vals || !g.ws) {
    free(g.vals);
    free(g.ws);
    return pcol_oom(c->err);
  }
  g.base = g.p->time_unix_nano;
  g.signed_base = pcol_str_is(attr_str(c, g.p, PCOL_META_DIFF_BASE), PCOL_BASE_SIGNED);
  int rc = PCOL_OK;
  /* time_unix_nano 0: the timestamps are since the source's start when
   * pcol wrote them so (a source without a wall-clock start: no start, the
   * times as they are), else since the epoch (the earliest is the start) */
  int since_start = !g.base && pcol_str_is(attr_str(c, g.p, OTLP_ATTR_TIME_BASE), OTLP_TIME_BASE_START);
  if (!g.base && !since_start && c->prof[first].timed && (rc = each_group_sample(&g, min_time, &g.base)))
    g.failed = 1;
  if (!rc) rc = make_source(c, rp, sp, gp, ng, g.base, &g.src, g.vals);
  g.failed = rc != 0;
  /* the observations, in time order (pcol's samples of a source are): as
   * they come when they are (the usual case: no copy), else sorted */
  order ord = {0, 1};
  /* (no timestamps: every observation's time is NA, in order as it comes) */
  if (!rc && c->prof[first].timed) rc = each_group_sample(&g, check_order, &ord);
  if (!rc && ord.sorted) {
    rc = each_group_sample(&g, put_in_order, NULL);
  } else if (!rc) {
    pcol_rowsort *rs = NULL;
    size_t w = sizeof(obs) + 8 * ng;
    if (ng > (SIZE_MAX - sizeof(obs)) / 8 || pcol_buf_reserve(&g.row, w) ||
        pcol_rowsort_new(&rs, w, obs_cmp))
      rc = group_oom(&g);
    if (!rc) rc = each_group_sample(&g, to_sorter, rs);
    if (!rc && (rc = pcol_rowsort_each(rs, from_sorter, &g))) rc = sorter_failed(&g, rc, "read");
    pcol_rowsort_free(rs);
  }
  for (size_t q = 0; q < ng; q++) pcol_otlp_wsample_free(&g.ws[q]);
  free(g.ws);
  pcol_buf_free(&g.stack);
  pcol_buf_free(&g.labels);
  pcol_buf_free(&g.row);
  pcol_intern_free(&g.sets);
  free(g.vals);
  return rc;
}

/* The message's sources numbered 1, 2, ... as one recording once all are
 * made (make_source's rule above), when it made two or more: Profiles of
 * the same samples are one source, so a message of two Profiles may make
 * one, which is a recording of its own (spec.md §7: no part). */
static int number_parts(ctx *c) {
  const uint32_t *r = (const uint32_t *)(const void *)c->rec.data;
  size_t n = c->rec.len / sizeof *r, mine = 0;
  for (size_t i = 0; i < n; i++) mine += r[i] != 0;
  int64_t part = 0;
  for (size_t i = 0; i < n && mine >= 2; i++) {
    if (!r[i]) { /* a Profile pcol wrote: its own part, and a new run after it */
      part = 0;
      continue;
    }
    PCOL_RETURN_NOT_OK(meta_i64(c, r[i], PCOL_META_RECORDING_PART, ++part));
  }
  return PCOL_OK;
}

static int build(ctx *c) {
  PCOL_RETURN_NOT_OK(build_tables(c));
  size_t pi = 0; /* the Profile's number in decoding order */
  for (size_t r = 0; r < c->d->n_resource_profiles; r++) {
    const otlp_rprof *rp = c->d->resource_profiles[r];
    for (size_t s = 0; s < rp->n_scope_profiles; s++) {
      const otlp_sprof *sp = rp->scope_profiles[s];
      for (size_t i = 0; i < sp->n_profiles;) {
        size_t j = i + 1;
        for (int same = 1; same && j < sp->n_profiles; j += same)
          PCOL_RETURN_NOT_OK(same_samples(c, sp->profiles[i], sp->profiles[j], pi, pi + j - i, &same));
        PCOL_RETURN_NOT_OK(import_group(c, rp, sp, sp->profiles + i, j - i, pi));
        pi += j - i;
        i = j;
      }
    }
  }
  return PCOL_OK;
}

/* Each string of the dictionary's table as [b, e) in p (the dictionary
 * may come in several parts, which protobuf merges); n strings. */
static int raw_strings(const uint8_t *p, size_t n, size_t (*out)[2], size_t want) {
  size_t i = 0, k = 0, b, e;
  uint64_t f, v;
  unsigned wt;
  while (i < n) {
    if (pcol_otlp_field(p, n, &i, &f, &wt, &v, &b, &e)) return -1;
    if (f != 2 || wt != 2) continue;
    for (size_t j = b; j < e;) {
      size_t b2, e2;
      if (pcol_otlp_field(p, e, &j, &f, &wt, &v, &b2, &e2)) return -1;
      if (f != 5 || wt != 2) continue;
      if (k == want) return -1;
      out[k][0] = b2;
      out[k++][1] = e2;
    }
  }
  return k == want ? 0 : -1;
}

/* One ProfilesData / ExportProfilesServiceRequest message, of either
 * Sample layout; pages: where it lies in the input (NULL: in memory). */
static int import_message_at(pcol_builder *b, const uint8_t *p, size_t n, const char *name,
                             size_t msg, const pcol_otlp_pages *pages,
                             const pcol_import_options *opt, pcol_sym *sym, pcol_error *err) {
  ctx c;
  memset(&c, 0, sizeof c);
  c.sym = sym;
  c.b = b;
  c.name = name;
  c.err = err;
  c.msg = msg;
  c.raw = p;
  c.rawlen = n;
  c.pages = pages;
  int layout;
  int rc = sample_layout(&c, p, n, &layout);
  if (rc) return rc;
  c.layout = layout;
  if (too_deep(p, n))
    return bad(&c, "an attribute value nests arrays or key-value lists more than %d deep", MAX_NEST);
  /* protobuf-c decodes the message without its Samples (otlp_samples.c) */
  pcol_buf skel = {0};
  rc = pcol_otlp_strip_samples(p, n, layout == LAYOUT_V9, pages, &skel, &c.prof, &c.nprof);
  pcol_arena ar = {0};
  ProtobufCAllocator alloc = {pcol_otlp_str_alloc, pcol_arena_free_one, &ar}; /* (pb_str) */
  c.ar = &ar;
  otlp_data *d = rc ? NULL
                    : opentelemetry__proto__profiles__v1development__profiles_data__unpack(
                          &alloc, skel.len, skel.data);
  pcol_buf_free(&skel);
  if (!d) {
    pcol_arena_release(&ar);
    free(c.prof);
    return rc == -2 ? pcol_oom(err) : undecodable(&c, n);
  }
  /* the Profiles decoded are the ones whose Samples were found, in order */
  size_t np = 0;
  for (size_t r = 0; r < d->n_resource_profiles; r++)
    for (size_t k = 0; k < d->resource_profiles[r]->n_scope_profiles; k++)
      np += d->resource_profiles[r]->scope_profiles[k]->n_profiles;
  if (np != c.nprof) {
    pcol_arena_release(&ar);
    free(c.prof);
    return undecodable(&c, n);
  }
  static const otlp_dict empty = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__PROFILES_DICTIONARY__INIT;
  c.d = d;
  c.dict = d->dictionary ? d->dictionary : &empty;
  const otlp_dict *D = c.dict;
  rc = validate(&c);
  if (!rc) {
    c.sids = malloc((D->n_string_table + 1) * sizeof *c.sids);
    c.map_ids = calloc(D->n_mapping_table + 1, sizeof *c.map_ids);
    c.fn_ids = calloc(D->n_function_table + 1, sizeof *c.fn_ids);
    c.map_shift = calloc(D->n_mapping_table + 1, sizeof *c.map_shift);
    c.loc_ids = calloc(D->n_location_table + 1, sizeof *c.loc_ids);
    c.attr = calloc(D->n_attribute_table + 1, sizeof *c.attr);
    c.attr_base = calloc(D->n_attribute_table + 1, 1);
    c.strs = malloc((D->n_string_table + 1) * sizeof *c.strs);
    if (!c.sids || !c.map_ids || !c.map_shift || !c.fn_ids || !c.loc_ids || !c.attr || !c.attr_base || !c.strs) {
      rc = pcol_oom(err);
    } else if (raw_strings(p, n, c.strs, D->n_string_table)) {
      rc = bad(&c, "the string table differs between two reads of the message");
    } else {
      memset(c.sids, 0xff, (D->n_string_table + 1) * sizeof *c.sids);
      rc = build(&c);
      if (!rc) rc = number_parts(&c);
    }
  }
  free(c.sids);
  free(c.map_ids);
  free(c.map_shift);
  free(c.fn_ids);
  free(c.loc_ids);
  free(c.attr);
  free(c.attr_base);
  free(c.strs);
  free(c.prof);
  pcol_buf_free(&c.rec);
  pcol_otlp_wsample_free(&c.ws[0]);
  pcol_otlp_wsample_free(&c.ws[1]);
  pcol_stack_memo_free(&c.memo);
  pcol_arena_release(&ar);
  return rc;
}

/* A message in memory (an OTLP/JSON line's). */
static int import_message(pcol_builder *b, const uint8_t *p, size_t n, const char *name,
                          size_t msg, const pcol_import_options *opt, void *sym, pcol_error *err) {
  return import_message_at(b, p, n, name, msg, NULL, opt, sym, err);
}

/* ---------------------------------------------------------- framing */

/* 1 when p[0..n) parses as top-level fields 1 and 2 (messages) only. */
static int whole_message(const uint8_t *p, size_t n) {
  size_t i = 0, b, e;
  uint64_t f, v;
  unsigned wt;
  while (i < n)
    if (pcol_otlp_field(p, n, &i, &f, &wt, &v, &b, &e) || wt != 2 || f > 2) return 0;
  return 1;
}

/* Where whole_message stops on p[0..n): the offset of the first field it
 * refuses (*field, *wt: what it was, when its tag could be read; *past: 1
 * when it runs past the end).  Returns the count of fields read before. */
static size_t message_stop(const uint8_t *p, size_t n, size_t *at, uint64_t *field, unsigned *wt,
                           int *past) {
  size_t i = 0, b, e, good = 0;
  uint64_t v;
  *field = 0, *wt = 0, *past = 0;
  while (i < n) {
    *at = i;
    int r = pcol_otlp_field(p, n, &i, field, wt, &v, &b, &e);
    if (r || *wt != 2 || *field > 2) {
      *past = r != 0 && *field != 0 && (*wt == 0 || *wt == 1 || *wt == 2 || *wt == 5);
      return good;
    }
    good++;
  }
  *at = n;
  return good;
}

/* 1 when p[0..n) is a sequence of frames: a 4-byte big-endian length
 * (be = 1) or a varint length (be = 0), then that many bytes. */
/* The count of whole frames at the start of p[0..n) (frames' rule), and
 * in *stop the offset of the first that is not one (n: all were). */
static size_t frames_read(const uint8_t *p, size_t n, int be, size_t *stop) {
  size_t i = 0, count = 0;
  while (i < n) {
    size_t at = i;
    uint64_t len = 0;
    *stop = at;
    if (be) {
      if (n - i < 4) return count;
      len = (uint64_t)p[i] << 24 | (uint64_t)p[i + 1] << 16 | (uint64_t)p[i + 2] << 8 | p[i + 3];
      i += 4;
    } else {
      int s = 0;
      for (;; s += 7) {
        if (i >= n || s > 63) return count;
        uint8_t ch = p[i++];
        len |= (uint64_t)(ch & 0x7f) << s;
        if (!(ch & 0x80)) break;
      }
    }
    if (len > n - i || !whole_message(p + i, (size_t)len)) return count;
    i += (size_t)len;
    count++;
  }
  *stop = n;
  return count;
}

static int frames(const uint8_t *p, size_t n, int be) {
  size_t stop;
  return frames_read(p, n, be, &stop) && stop == n;
}

/* json_head: -1 when p[0..n) is all JSON white space (nothing told yet);
 * json_text: 1 when p[0..n) is OTLP/JSON, not protobuf: its first byte that is not
 * JSON white space is a '{', and its first 4 KiB hold no byte JSON text
 * never does (pcol_otlp_binary_byte).  A '{' alone does not tell: a binary
 * message whose first field is 123 bytes long starts "\n{" (tag 1, length
 * 123), and was read as JSON ("invalid JSON") before. */
static int json_head(const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
  if (i == n) return -1;
  return p[i] == '{' && !pcol_otlp_binary_byte(p, n < 4096 ? n : 4096);
}
static int json_text(const uint8_t *p, size_t n) { return json_head(p, n) > 0; }

/* 1 when gzip data p[0..n) starts, inflated, with blanks and a '{' (OTLP/JSON). */
static int gzip_json(const uint8_t *p, size_t n) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return 0;
  zs.next_in = (Bytef *)(uintptr_t)p;
  zs.avail_in = (uInt)n;
  int json = 0, seen = 0;
  while (!seen) {
    uint8_t out[4096];
    zs.next_out = out;
    zs.avail_out = sizeof out;
    int zr = inflate(&zs, Z_SYNC_FLUSH);
    size_t got = sizeof out - zs.avail_out;
    int r = json_head(out, got);
    if (r >= 0) seen = 1, json = r;
    if ((zr != Z_OK && zr != Z_BUF_ERROR) || !got) break;
  }
  inflateEnd(&zs);
  return json;
}

static int import_binary(pcol_builder *b, pcol_input *raw, int gz, const char *name,
                         const pcol_import_options *opt, pcol_sym *sym, pcol_error *err);
static int import_otlp(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                       pcol_sym *sym, pcol_error *err);

/* One --symbolize session for the whole input: its messages share the
 * bounds (symbolize.h) and the warnings are said once, at the end. */
int pcol_import_otlp(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                     pcol_error *err) {
  if (!b || !in) return pcol_error_set(err, PCOL_EINVAL, "pcol_import_otlp: NULL argument");
  if (!name) name = "<otlp>";
  pcol_sym sym;
  int rc = pcol_sym_init(&sym, opt ? &opt->symbolize : NULL) ? pcol_oom(err)
                                                               : import_otlp(b, in, name, opt, &sym, err);
  if (!rc) pcol_sym_warnings(&sym, name, err);
  pcol_sym_free(&sym);
  return rc;
}

static int import_otlp(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                       pcol_sym *sym, pcol_error *err) {
  /* a binary message in a regular file is read in place, mapped, not
   * copied (its pages given back as the passes move on, as a copy's were) */
  pcol_input raw = {0};
  if (pcol_input_map_file(in, opt, &raw)) {
    if (!json_text(raw.data, raw.len)) return import_binary(b, &raw, 0, name, opt, sym, err);
    pcol_input_free(&raw); /* OTLP/JSON: read as lines, below */
  }
  /* OTLP/JSON lines, not compressed, are read as a stream (otlp_json.c):
   * the head tells (its first byte other than a blank is '{') */
  uint8_t head[4096];
  size_t hn = fread(head, 1, sizeof head, in);
  FILE *hs = pcol_replay_stream(head, hn, in);
  if (!hs) return pcol_oom(err);
  if (json_text(head, hn)) {
    int rc = pcol_otlp_import_json(b, hs, name, opt, import_message, sym, err);
    fclose(hs);
    return rc;
  }
  if (hn >= 2 && head[0] == 0x1f && head[1] == 0x8b && gzip_json(head, hn)) {
    /* gzip OTLP/JSON lines: inflated as they are read (lib/core/instream.c,
     * under the inflate cap: the lines' own cap is off) */
    pcol_instream *o;
    FILE *s;
    int rc = pcol_instream_open(&o, hs, name, opt, &s, err);
    if (!rc) {
      pcol_import_options lo = opt ? *opt : (pcol_import_options){0};
      lo.max_input_bytes = UINT64_MAX;
      rc = pcol_otlp_import_json(b, s, name, &lo, import_message, sym, err);
      int orc = pcol_instream_finish(o, rc, err);
      if (orc) rc = orc;
      pcol_instream_free(o);
    }
    fclose(hs);
    return rc;
  }
  /* binary: read whole (inflated), past 64 MiB into a mapped temporary
   * file whose pages leave the process as the messages are done */
  int gz = 0;
  int rc = pcol_read_input(hs, opt, name, &raw, &gz, err);
  fclose(hs);
  if (!rc && raw.len == 0) rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: empty input", name);
  if (rc) {
    pcol_input_free(&raw);
    return rc;
  }
  return import_binary(b, &raw, gz, name, opt, sym, err);
}

/* Why p[0..n) is neither one message nor a sequence of frames: where a
 * sequence that starts as one (a frame read whole first) or a message
 * that does (a field of ProfilesData read whole, or cut off) stops, else
 * "not OTLP". */
static int not_whole(const uint8_t *p, size_t n, const char *name, int gz, pcol_error *err) {
  const char *inf = gz ? " inflated" : "";
  size_t at, stop[2];
  uint64_t field;
  unsigned wt;
  int past;
  for (int be = 1; be >= 0; be--)
    if (frames_read(p, n, be, &stop[be]))
      return pcol_error_set(err, PCOL_ECORRUPT, "%s: truncated or damaged OTLP profiles: a "
                            "sequence of %s length-prefixed messages whose message at byte "
                            "offset %zu is not whole (%zu bytes%s)", name,
                            be ? "4-byte" : "varint", stop[be], n, inf);
  size_t good = message_stop(p, n, &at, &field, &wt, &past);
  if (good || (past && wt == 2 && (field == 1 || field == 2))) {
    if (past)
      return pcol_error_set(err, PCOL_ECORRUPT, "%s: truncated OTLP profiles: the field at byte "
                            "offset %zu (field %" PRIu64 ", wire type %u) runs past the end (%zu "
                            "bytes%s)", name, at, field, wt, n, inf);
    return pcol_error_set(err, PCOL_ECORRUPT, "%s: damaged OTLP profiles: at byte offset %zu, "
                          "field %" PRIu64 " of wire type %u is not a field of ProfilesData "
                          "(1 or 2, a message) (%zu bytes%s)", name, at, field, wt, n, inf);
  }
  return pcol_error_set(err, PCOL_ECORRUPT, "%s: not OTLP profiles: neither one ProfilesData "
                        "message nor a sequence of length-prefixed ones (%zu bytes%s)", name, n, inf);
}

/* The Collector's file exporter with `compression: zstd` (without its
 * native-compression feature gate, the default): each message, proto or
 * OTLP/JSON, is a zstd frame of its own behind a 4-byte big-endian length
 * (exporter/fileexporter: marshaller.go compresses each message,
 * file_writer.go's exportMessageAsBuffer frames it).  Each frame is
 * inflated on its own (lib/core/instream.c: its cap, its errors) and read
 * as that message would be read uncompressed. */
static int import_zstd_frames(pcol_builder *b, const uint8_t *p, size_t n, const char *name,
                              const pcol_import_options *opt, pcol_sym *sym, pcol_error *err) {
  size_t k = 0, msg = 0;
  uint64_t inflated = 0; /* the frames' bytes so far */
  int rc = PCOL_OK;
  pcol_buf m = {0};
  while (k < n && !rc) {
    uint64_t len = n - k >= 4 ? ((uint64_t)p[k] << 24 | (uint64_t)p[k + 1] << 16 |
                                 (uint64_t)p[k + 2] << 8 | p[k + 3])
                              : 0;
    /* the length is any uint32 (frames of 16 MiB and more compressed too):
     * what is refused is a frame that runs past the end or is no zstd frame */
    if (n - k < 8 || len < 4 || len > n - k - 4) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: truncated or damaged OTLP profiles: a sequence of "
                          "4-byte length-prefixed zstd frames (the Collector's file exporter, "
                          "compression: zstd) whose frame at byte offset %zu is not whole (%zu bytes; "
                          "its length says %" PRIu64 ", %zu follow)",
                          name, k, n, len, n - k >= 4 ? n - k - 4 : 0);
      break;
    }
    if (!pcol_otlp_zstd_frame(p + k, n - k)) {
      rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: damaged OTLP profiles: a sequence of 4-byte "
                          "length-prefixed zstd frames (the Collector's file exporter, compression: "
                          "zstd) whose frame at byte offset %zu is not a zstd frame (bytes %02x %02x "
                          "%02x %02x at byte offset %zu, not zstd's magic 28 b5 2f fd)",
                          name, k, p[k + 4], p[k + 5], p[k + 6], p[k + 7], k + 4);
      break;
    }
    msg++;
    m.len = 0;
    /* the frame inflated, whole */
    FILE *f = fmemopen((void *)(uintptr_t)(p + k + 4), (size_t)len, "rb"), *s = NULL;
    pcol_instream *o = NULL;
    char fname[64 + 4096];
    snprintf(fname, sizeof fname, "%s (message %zu, at byte offset %zu)", name, msg, k);
    if (!f) rc = pcol_oom(err);
    if (!rc) rc = pcol_instream_open(&o, f, fname, opt, &s, err);
    while (!rc) {
      if (pcol_buf_reserve(&m, m.len + 65536)) {
        rc = pcol_oom(err);
        break;
      }
      size_t got = fread(m.data + m.len, 1, 65536, s);
      m.len += got;
      if (got < 65536) break;
    }
    if (o) {
      int orc = pcol_instream_finish(o, rc, err);
      if (orc) rc = orc;
      pcol_instream_free(o);
    }
    if (f) fclose(f);
    if (rc) break;
    /* the frames together under the cap of the whole input (its compressed
     * bytes so far), as one compressed stream is: each frame's own cap
     * alone would let N frames inflate to N x PCOL_INPUT_CAP_MIN (or N x
     * --max-input) */
    inflated += m.len;
    uint64_t cap = pcol_inflate_cap(opt, (uint64_t)k + 4 + len);
    if (inflated > cap) {
      rc = pcol_decompressed_too_big(name, opt, cap, (uint64_t)k + 4 + len, PCOL_COMP_ZSTD, err);
      break;
    }
    if (json_text(m.data, m.len)) {
      FILE *t = fmemopen(m.data, m.len, "r");
      rc = t ? pcol_otlp_import_json(b, t, fname, opt, import_message, sym, err) : pcol_oom(err);
      if (t) fclose(t);
    } else if (m.len && whole_message(m.data, m.len)) {
      rc = import_message_at(b, m.data, m.len, name, msg, NULL, opt, sym, err);
    } else {
      rc = not_whole(m.data, m.len, fname, 1, err);
    }
    k += 4 + (size_t)len;
  }
  pcol_buf_free(&m);
  return rc;
}

/* The whole input (inflated when gz), read in memory, mapped in place or
 * mapped from a temporary copy: one message, length-prefixed ones, or
 * OTLP/JSON found past a gzip head.  Frees raw. */
static int import_binary(pcol_builder *b, pcol_input *rawp, int gz, const char *name,
                         const pcol_import_options *opt, pcol_sym *sym, pcol_error *err) {
  pcol_input raw = *rawp;
  int rc = PCOL_OK;
  const uint8_t *p = raw.data;
  size_t n = raw.len;
  if (json_text(p, n)) {
    /* gzip whose JSON starts past the head's inflated bytes: inflated
     * whole, then read as lines */
    FILE *t = fmemopen((void *)p, n, "r");
    rc = t ? pcol_otlp_import_json(b, t, name, opt, import_message, sym, err) : pcol_oom(err);
    if (t) fclose(t);
  } else if (whole_message(p, n)) {
    pcol_otlp_pages pg = {&raw, 0};
    rc = import_message_at(b, p, n, name, 1, &pg, opt, sym, err);
  } else if (pcol_otlp_zstd_frame(p, n)) {
    rc = import_zstd_frames(b, p, n, name, opt, sym, err);
  } else {
    int be = frames(p, n, 1);
    if (!be && !frames(p, n, 0)) {
      rc = not_whole(p, n, name, gz, err);
    } else {
      size_t k = 0, msg = 0;
      while (k < n && !rc) {
        uint64_t len = 0;
        if (be) {
          len = (uint64_t)p[k] << 24 | (uint64_t)p[k + 1] << 16 | (uint64_t)p[k + 2] << 8 | p[k + 3];
          k += 4;
        } else {
          for (int s = 0;; s += 7) {
            uint8_t ch = p[k++];
            len |= (uint64_t)(ch & 0x7f) << s;
            if (!(ch & 0x80)) break;
          }
        }
        if (!msg) pcol_input_done(&raw, 0, n); /* the scan of the frames touched it all */
        pcol_otlp_pages pg = {&raw, k};
        rc = import_message_at(b, p + k, (size_t)len, name, ++msg, &pg, opt, sym, err);
        k += (size_t)len;
        pcol_input_done(&raw, 0, k);
      }
    }
  }
  pcol_input_free(&raw);
  return rc;
}
