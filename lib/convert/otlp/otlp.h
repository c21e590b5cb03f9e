/* otlp.h — what the OTLP importer and exporter share: short names for the
 * types protoc-c generates from format/opentelemetry/ (upstream's .proto
 * files), and the wire-format helpers. */
#ifndef PCOL_OTLP_H
#define PCOL_OTLP_H

#include "pcol.h"
#include "keys.h"
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

/* p[0..n) as UTF-8 in out (room for 3 n bytes): each byte that is not
 * part of a valid sequence becomes U+FFFD (OTLP's strings are UTF-8;
 * protobuf readers refuse others).  Returns the length. */
size_t pcol_otlp_utf8(const uint8_t *p, size_t n, char *out);

/* Imports one binary message (msg: its 1-based number, for messages). */
typedef int (*pcol_otlp_message_fn)(pcol_builder *b, const uint8_t *p, size_t n,
                                    const char *name, size_t msg, pcol_error *err);
/* OTLP/JSON lines (the Collector's file exporter, `format: json`): each
 * line a ProfilesData or ExportProfilesServiceRequest in OTLP/JSON, turned
 * into the binary message and given to fn.  The input is read as a stream,
 * line by line, under the input cap of opt.  otlp_json.c */
int pcol_otlp_import_json(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                          pcol_otlp_message_fn fn, pcol_error *err);

#endif
