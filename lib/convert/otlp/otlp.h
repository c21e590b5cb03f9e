/* otlp.h — what the OTLP importer and exporter share: short names for the
 * types protoc-c generates from format/opentelemetry/ (upstream's .proto
 * files), and the wire-format helpers. */
#ifndef PCOL_OTLP_H
#define PCOL_OTLP_H

#include "pcol.h"
#include "keys.h"
#include "buf.h" /* pcol_buf */
#include "opentelemetry/proto/profiles/v1development/profiles.pb-c.h"
#include <stdio.h>

typedef Opentelemetry__Proto__Profiles__V1development__ProfilesData otlp_data;
typedef Opentelemetry__Proto__Profiles__V1development__ProfilesDictionary otlp_dict;
typedef Opentelemetry__Proto__Profiles__V1development__ResourceProfiles otlp_rprof;
typedef Opentelemetry__Proto__Profiles__V1development__ScopeProfiles otlp_sprof;
typedef Opentelemetry__Proto__Profiles__V1development__Profile otlp_profile;
typedef Opentelemetry__Proto__Profiles__V1development__Sample otlp_sample;
typedef Opentelemetry__Proto__Profiles__V1development__Stack otlp_stack;
typedef Opentelemetry__Proto__Profiles__V1development__Location otlp_location;
typedef Opentelemetry__Proto__Profiles__V1development__Line otlp_line;
typedef Opentelemetry__Proto__Profiles__V1development__Function otlp_function;
typedef Opentelemetry__Proto__Profiles__V1development__Mapping otlp_mapping;
typedef Opentelemetry__Proto__Profiles__V1development__Link otlp_link;
typedef Opentelemetry__Proto__Profiles__V1development__ValueType otlp_vtype;
typedef Opentelemetry__Proto__Profiles__V1development__KeyValueAndUnit otlp_kvu;
typedef Opentelemetry__Proto__Common__V1__AnyValue otlp_any;
typedef Opentelemetry__Proto__Common__V1__KeyValue otlp_kv;

/* One protobuf field at p[*i..n): 0, or -1 when it is malformed or runs
 * past n.  For wire type 2 the payload is [*b, *e). */
int pcol_otlp_field(const uint8_t *p, size_t n, size_t *i, uint64_t *field, unsigned *wt,
                    uint64_t *v, size_t *b, size_t *e);

/* protobuf-c's strings whole.  A string field protobuf-c decodes is a
 * char * ending at a NUL, and an OTLP string may hold one; its length is
 * known only from the block protobuf-c asks its allocator for.  The
 * invariant relied on (protobuf-c 1.3-1.5, protobuf-c.c): every string
 * field of a message unpacked with allocator A is NULL,
 * protobuf_c_empty_string (a proto3 field's default: no OTLP string field
 * has another), or a block returned by A's alloc of exactly len + 1 bytes
 * whose first len are the field's bytes on the wire and the last a NUL,
 * the pointer its start (parse_required_member's string case, also
 * through parse_oneof_member and parse_repeated_member; merge_messages and
 * a field given twice move or replace whole pointers).
 * pcol_otlp_str_alloc is that allocator's alloc (with pcol_arena_free_one,
 * the arena its allocator_data): it keeps each block's size and a check of
 * it before the block.  pcol_otlp_str gives string field s's bytes: its
 * block's size - 1 when s is such a block (in arena ar, the check matching,
 * its last byte a NUL), else strlen(s) (cut at a NUL, never read past the
 * block: a protobuf-c that broke the invariant is caught by test_otlp's
 * string_fields_whole, which decodes every string field of every OTLP
 * message type so).  otlp_wire.c */
void *pcol_otlp_str_alloc(void *arena, size_t size);
pcol_str pcol_otlp_str(const pcol_arena *ar, const char *s);

/* 1 when p[0..n) starts as the Collector's file exporter writes with
 * `compression: zstd`: a 4-byte big-endian length, then a zstd frame (one
 * message, proto or JSON, compressed on its own).  otlp_wire.c */
int pcol_otlp_zstd_frame(const uint8_t *p, size_t n);
/* pcol_otlp_binary_byte: convert.h (detect.c's too) */

/* Imports one binary message (msg: its 1-based number, for messages;
 * opt: the import's; ud: the caller's, as given to the reader). */
typedef int (*pcol_otlp_message_fn)(pcol_builder *b, const uint8_t *p, size_t n,
                                    const char *name, size_t msg,
                                    const pcol_import_options *opt, void *ud, pcol_error *err);
/* OTLP/JSON lines (the Collector's file exporter, `format: json`): each
 * line a ProfilesData or ExportProfilesServiceRequest in OTLP/JSON, turned
 * into the binary message and given to fn.  The input is read as a stream,
 * line by line, under the input cap of opt.  otlp_json.c */
int pcol_otlp_import_json(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                          pcol_otlp_message_fn fn, void *ud, pcol_error *err);

/* ------------------------------------------ Samples from the wire (otlp_samples.c) */

/* Where a message lies in an importer's input (read_all.h), so a pass over
 * its Samples can hand the pages it has read back (pcol_input_done) every
 * PCOL_OTLP_WINDOW bytes; in NULL: a message in memory. */
typedef struct pcol_input pcol_input;
typedef struct pcol_otlp_pages {
  pcol_input *in;
  size_t off; /* the message's first byte in in->data */
} pcol_otlp_pages;
#define PCOL_OTLP_WINDOW ((size_t)8 << 20)
void pcol_otlp_pages_done(const pcol_otlp_pages *pg, size_t from, size_t to);

/* One Sample, in v1.10's numbers, as protobuf-c 1.4 decodes it; the arrays
 * point into the buffers, valid until the next decode into it. */
typedef struct otlp_wsample {
  int32_t stack_index, link_index;
  const int32_t *attrs;
  const int64_t *values;
  const uint64_t *times;
  size_t n_attrs, n_values, n_times;
  pcol_buf ab, vb, tb;
} otlp_wsample;
/* The Sample p[b, e) into out (out NULL: only checked); v9: in the layout
 * before v1.10.0 (doc/mappings.md 12.1).  0, -1 protobuf-c refuses it,
 * -2 out of memory. */
int pcol_otlp_sample(const uint8_t *p, size_t b, size_t e, int v9, otlp_wsample *out);
void pcol_otlp_wsample_free(otlp_wsample *s);

/* A Profile: its bytes p[b, e) in the message, and its number of Samples. */
typedef struct otlp_prange {
  size_t b, e, n;
  int timed; /* (the importer's) a Sample has timestamps */
} otlp_prange;
/* The message p[0..n) without any Profile's samples (field 2) -> out (what
 * protobuf-c then decodes), and every Profile's range, in the order
 * protobuf-c decodes them (*prof: malloc'd, the caller frees it).  Every
 * Sample is checked on the way (pcol_otlp_sample).  0; -1 protobuf-c would
 * refuse the message; -2 out of memory. */
int pcol_otlp_strip_samples(const uint8_t *p, size_t n, int v9, const pcol_otlp_pages *pages,
                            pcol_buf *out, otlp_prange **prof, size_t *nprof);

/* The Samples of one Profile, one at a time: start it at {p, prof.b,
 * prof.e, prof.b, pages}.  1 and the Sample's p[*b, *e); 0 at the end; -1
 * malformed (not after pcol_otlp_strip_samples accepted the message). */
typedef struct otlp_scur {
  const uint8_t *p;
  size_t i, e, kept;
  const pcol_otlp_pages *pages;
} otlp_scur;
int pcol_otlp_next_sample(otlp_scur *s, size_t *b, size_t *e);

#endif
