/* test_otlp_json.c — OTLP/JSON lines written straight into protobuf's wire
 * format (lib/convert/otlp/otlp_json.c): the bytes are those
 * protobuf_c_message_pack writes for the message the JSON stands for,
 * whatever the JSON's key order, key spelling (lowerCamelCase or the proto
 * name), integers as numbers or strings, explicit nulls and zeros, a
 * oneof's earlier members and base64's alphabets; and an error is the one
 * the line's first fault gives, a JSON error anywhere in the line before
 * an OTLP one. */
#include <criterion/criterion.h>
#include "testutil.h"
#include "otlp/otlp.h"
#include "opentelemetry/proto/profiles/v1development/profiles.pb-c.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PD_DESC opentelemetry__proto__profiles__v1development__profiles_data__descriptor

static uint64_t rnd(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return *s;
}

/* ------------------------------------------------- a message as JSON */

static void json_str(FILE *o, const char *s, size_t n) {
  fputc('"', o);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') fprintf(o, "\\%c", c);
    else if (c < 0x20) fprintf(o, "\\u%04x", c);
    else fputc(c, o);
  }
  fputc('"', o);
}

static int utf8_ok(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned c = p[i], k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!k || i + k > n || (k == 2 && c < 0xc2)) return 0;
    for (unsigned j = 1; j < k; j++)
      if ((p[i + j] & 0xc0) != 0x80) return 0;
    if (k == 3 && ((c == 0xe0 && p[i + 1] < 0xa0) || (c == 0xed && p[i + 1] >= 0xa0))) return 0;
    if (k == 4 && ((c == 0xf0 && p[i + 1] < 0x90) || c > 0xf4 || (c == 0xf4 && p[i + 1] >= 0x90))) return 0;
    i += k;
  }
  return 1;
}

/* the key of field f: its lowerCamelCase or (at random) its proto name */
static void json_key(FILE *o, const ProtobufCFieldDescriptor *f, uint64_t *s) {
  if (rnd(s) % 3 == 0) {
    fprintf(o, "\"%s\":", f->name);
    return;
  }
  fputc('"', o);
  for (const char *p = f->name; *p; p++) {
    if (*p == '_' && p[1]) fputc(p[1] >= 'a' && p[1] <= 'z' ? p[1] - 32 : p[1], o), p++;
    else fputc(*p, o);
  }
  fputs("\":", o);
}

static int json_msg(FILE *o, const ProtobufCMessage *m, uint64_t *s);

/* one value of field f at p; 0 when it cannot be written as JSON (a
 * string that is not UTF-8) */
static int json_value(FILE *o, const ProtobufCFieldDescriptor *f, const void *p, uint64_t *s) {
  static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  int asnum = rnd(s) % 2;
  switch (f->type) {
  case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32: case PROTOBUF_C_TYPE_ENUM:
    fprintf(o, asnum ? "%" PRId32 : "\"%" PRId32 "\"", *(const int32_t *)p);
    return 1;
  case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
    fprintf(o, asnum ? "%" PRIu32 : "\"%" PRIu32 "\"", *(const uint32_t *)p);
    return 1;
  case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    fprintf(o, asnum ? "%" PRId64 : "\"%" PRId64 "\"", *(const int64_t *)p);
    return 1;
  case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: {
    uint64_t v = *(const uint64_t *)p; /* a number past int64 is a real: only as a string */
    fprintf(o, asnum && v <= INT64_MAX ? "%" PRIu64 : "\"%" PRIu64 "\"", v);
    return 1;
  }
  case PROTOBUF_C_TYPE_BOOL: fputs(*(const protobuf_c_boolean *)p ? "true" : "false", o); return 1;
  case PROTOBUF_C_TYPE_FLOAT: case PROTOBUF_C_TYPE_DOUBLE: {
    double d = f->type == PROTOBUF_C_TYPE_FLOAT ? *(const float *)p : *(const double *)p;
    if (isnan(d)) fputs("\"NaN\"", o);
    else if (isinf(d)) fputs(d > 0 ? "\"Infinity\"" : "\"-Infinity\"", o);
    else fprintf(o, "%.17g", d);
    return 1;
  }
  case PROTOBUF_C_TYPE_STRING: {
    const char *t = *(char *const *)p;
    if (!t) t = "";
    if (!utf8_ok((const unsigned char *)t, strlen(t))) return 0;
    json_str(o, t, strlen(t));
    return 1;
  }
  case PROTOBUF_C_TYPE_BYTES: {
    const ProtobufCBinaryData *b = p;
    fputc('"', o);
    if (!strcmp(f->name, "trace_id") || !strcmp(f->name, "span_id") || !strcmp(f->name, "profile_id")) {
      for (size_t i = 0; i < b->len; i++) fprintf(o, rnd(s) % 2 ? "%02x" : "%02X", b->data[i]);
    } else { /* base64, the URL alphabet and padding at random */
      int url = rnd(s) % 2, pad = rnd(s) % 2;
      for (size_t i = 0; i < b->len; i += 3) {
        uint32_t v = (uint32_t)b->data[i] << 16 | (i + 1 < b->len ? (uint32_t)b->data[i + 1] << 8 : 0) |
                     (i + 2 < b->len ? b->data[i + 2] : 0);
        size_t k = b->len - i >= 3 ? 4 : b->len - i + 1;
        for (size_t j = 0; j < 4; j++) {
          char c = b64[(v >> (18 - 6 * j)) & 63];
          if (url && c == '+') c = '-';
          if (url && c == '/') c = '_';
          if (j < k) fputc(c, o);
          else if (pad) fputc('=', o);
        }
      }
    }
    fputc('"', o);
    return 1;
  }
  case PROTOBUF_C_TYPE_MESSAGE: return json_msg(o, *(ProtobufCMessage *const *)p, s);
  }
  return 0;
}

static size_t elem_size(ProtobufCType t) {
  switch (t) {
  case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
  case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE: return 8;
  case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
  case PROTOBUF_C_TYPE_STRING: case PROTOBUF_C_TYPE_MESSAGE: return sizeof(void *);
  case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
  default: return 4;
  }
}

/* a zero value of f's type, as JSON */
static const char *zero_json(const ProtobufCFieldDescriptor *f, uint64_t *s) {
  switch (f->type) {
  case PROTOBUF_C_TYPE_BOOL: return "false";
  case PROTOBUF_C_TYPE_STRING: case PROTOBUF_C_TYPE_BYTES: return "\"\"";
  case PROTOBUF_C_TYPE_MESSAGE: return "{}";
  case PROTOBUF_C_TYPE_FLOAT: case PROTOBUF_C_TYPE_DOUBLE: return rnd(s) % 2 ? "0.0" : "-0";
  default: return rnd(s) % 2 ? "0" : "\"0\"";
  }
}

/* m as a JSON object: its members in a random order; a field protobuf-c
 * would not pack sometimes written as null, [] or its zero; a oneof's
 * member sometimes after another member of the oneof (the last wins) */
static int json_msg(FILE *o, const ProtobufCMessage *m, uint64_t *s) {
  const ProtobufCMessageDescriptor *d = m->descriptor;
  unsigned order[64], n = d->n_fields < 64 ? d->n_fields : 64;
  for (unsigned i = 0; i < n; i++) order[i] = i;
  for (unsigned i = n; i > 1; i--) {
    unsigned k = (unsigned)(rnd(s) % i), t = order[i - 1];
    order[i - 1] = order[k], order[k] = t;
  }
  fputc('{', o);
  int first = 1, ok = 1;
  uint8_t written[64] = {0}; /* a oneof's earlier member: its key is not written again */
#define SEP() (first ? (void)(first = 0) : (void)fputc(',', o))
  for (unsigned oi = 0; oi < n && ok; oi++) {
    const ProtobufCFieldDescriptor *f = &d->fields[order[oi]];
    if (written[order[oi]]) continue;
    written[order[oi]] = 1;
    const char *base = (const char *)m;
    const void *member = base + f->offset;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t cnt = *(const size_t *)(base + f->quantifier_offset);
      if (!cnt) {
        if (rnd(s) % 4 == 0) SEP(), json_key(o, f, s), fputs(rnd(s) % 2 ? "[]" : "null", o);
        continue;
      }
      SEP(), json_key(o, f, s), fputc('[', o);
      const char *arr = *(char *const *)member;
      for (size_t i = 0; i < cnt && ok; i++) {
        if (i) fputc(',', o);
        ok = json_value(o, f, arr + i * elem_size(f->type), s);
      }
      fputc(']', o);
      continue;
    }
    int present;
    if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      present = *(const uint32_t *)(base + f->quantifier_offset) == f->id;
      if (present && rnd(s) % 3 == 0) /* another member of the oneof first */
        for (unsigned k = 0; k < d->n_fields; k++) {
          const ProtobufCFieldDescriptor *g = &d->fields[k];
          if (g != f && k < 64 && !written[k] && (g->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
              g->quantifier_offset == f->quantifier_offset) {
            SEP(), json_key(o, g, s), fputs(zero_json(g, s), o);
            written[k] = 1;
            break;
          }
        }
    } else if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
      present = *(void *const *)member != NULL;
    } else if (f->label == PROTOBUF_C_LABEL_OPTIONAL && f->type != PROTOBUF_C_TYPE_STRING) {
      present = *(const protobuf_c_boolean *)(base + f->quantifier_offset);
    } else {
      present = 1; /* no presence: its zero is written or not, as it comes */
    }
    if (!present) {
      if (rnd(s) % 4 == 0) SEP(), json_key(o, f, s), fputs("null", o);
      continue;
    }
    if (f->type == PROTOBUF_C_TYPE_STRING && !*(char *const *)member) continue;
    SEP(), json_key(o, f, s);
    ok = json_value(o, f, member, s);
  }
#undef SEP
  fputc('}', o);
  return ok;
}

/* ------------------------------------------------------ the transcoder */

typedef struct got {
  uint8_t *p;
  size_t n;
  int calls;
} got;
static got g_got;

static int capture(pcol_builder *b, const uint8_t *p, size_t n, const char *name, size_t msg,
                   const pcol_import_options *opt, void *ud, pcol_error *err) {
  (void)b, (void)name, (void)msg, (void)opt, (void)ud, (void)err;
  free(g_got.p);
  g_got.p = malloc(n ? n : 1);
  cr_assert_not_null(g_got.p);
  memcpy(g_got.p, p, n);
  g_got.n = n;
  g_got.calls++;
  return PCOL_OK;
}

/* the line(s) through pcol_otlp_import_json: its status; the wire of the
 * last message in g_got */
static int transcode(const char *text, size_t n, pcol_error *err) {
  FILE *in = fmemopen((void *)text, n, "rb");
  cr_assert_not_null(in);
  g_got.calls = 0;
  memset(err, 0, sizeof *err);
  int rc = pcol_otlp_import_json(NULL, in, "t.json", NULL, capture, NULL, err);
  fclose(in);
  return rc;
}

/* a message's wire: its JSON, written in many ways, transcodes to the
 * bytes protobuf-c packs */
static int check_message(const ProtobufCMessage *m, uint64_t seed, int rounds) {
  size_t want_n = protobuf_c_message_get_packed_size(m);
  uint8_t *want = malloc(want_n ? want_n : 1);
  cr_assert_not_null(want);
  protobuf_c_message_pack(m, want);
  int checked = 0;
  for (int r = 0; r < rounds; r++) {
    uint64_t s = seed * 7919 + (uint64_t)r + 1;
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    cr_assert_not_null(o);
    int ok = json_msg(o, m, &s);
    fputc('\n', o);
    fclose(o);
    if (ok) {
      pcol_error err;
      int rc = transcode(text, len, &err);
      cr_assert_eq(rc, 0, "seed %llu round %d: %s\n%.400s", (unsigned long long)seed, r, err.message, text);
      cr_assert_eq(g_got.calls, 1);
      cr_assert(g_got.n == want_n && !memcmp(g_got.p, want, want_n),
                "seed %llu round %d: %zu bytes, protobuf-c packs %zu\n%.600s", (unsigned long long)seed, r,
                g_got.n, want_n, text);
      checked++;
    }
    free(text);
  }
  free(want);
  return checked;
}

/* every scalar of m (and of its messages) set at random now and then:
 * negative int32s (ten bytes), large 64-bit values, a oneof's other
 * member, a bool, a zero */
static void mutate(ProtobufCMessage *m, uint64_t *s) {
  const ProtobufCMessageDescriptor *d = m->descriptor;
  char *base = (char *)m;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *f = &d->fields[i];
    size_t cnt = 1;
    char *arr = base + f->offset;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      cnt = *(size_t *)(base + f->quantifier_offset);
      arr = *(char **)(base + f->offset);
    } else if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
               *(uint32_t *)(base + f->quantifier_offset) != f->id) {
      continue;
    }
    for (size_t k = 0; k < cnt; k++) {
      char *p = arr + k * elem_size(f->type);
      if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
        if (*(ProtobufCMessage **)p) mutate(*(ProtobufCMessage **)p, s);
        continue;
      }
      if (rnd(s) % 5) continue;
      uint64_t v = rnd(s);
      int small = rnd(s) % 3;
      switch (f->type) {
      case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32: case PROTOBUF_C_TYPE_ENUM:
        *(int32_t *)p = small == 0 ? 0 : small == 1 ? -(int32_t)(v % 1000) : (int32_t)v;
        break;
      case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32: *(uint32_t *)p = small ? (uint32_t)v : 0; break;
      case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
        *(int64_t *)p = small == 0 ? 0 : small == 1 ? -(int64_t)(v % 100000) : (int64_t)v;
        break;
      case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: *(uint64_t *)p = small ? v : 0; break;
      case PROTOBUF_C_TYPE_BOOL: *(protobuf_c_boolean *)p = (protobuf_c_boolean)(v & 1); break;
      case PROTOBUF_C_TYPE_DOUBLE: *(double *)p = small ? (double)(int64_t)v / 3.0 : -0.0; break;
      case PROTOBUF_C_TYPE_FLOAT: *(float *)p = small ? (float)(int32_t)v / 7.0f : 0.0f; break;
      default: break;
      }
    }
  }
}

/* binary messages of the tests' own making, and of the shared test data
 * when it is there */
static const char *const sources[] = {"tests/fuzz-regress/otlp/generated.bin",
                                      "../shared/testdata/ext/pprof/ODD-otlp-ebpf-profile.pb.bin"};

Test(otlp_json, wire_is_what_protobuf_c_packs, .timeout = 600) {
  int checked = 0;
  for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
    size_t n;
    if (i > 0 && access(sources[i], R_OK)) continue; /* (no shared test data here) */
    uint8_t *p = (uint8_t *)tu_slurp(sources[i], &n);
    ProtobufCMessage *m = protobuf_c_message_unpack(&PD_DESC, NULL, n, p);
    cr_assert_not_null(m, "%s does not unpack", sources[i]);
    checked += check_message(m, 1000 * i, 12);
    for (uint64_t k = 0; k < 40; k++) { /* values of every kind, in a message unpacked afresh */
      ProtobufCMessage *mm = protobuf_c_message_unpack(&PD_DESC, NULL, n, p);
      uint64_t s = 0x9e3779b97f4a7c15ull + k * 1000003 + i;
      mutate(mm, &s);
      checked += check_message(mm, 100 + k, 2);
      protobuf_c_message_free_unpacked(mm, NULL);
    }
    protobuf_c_message_free_unpacked(m, NULL);
    free(p);
  }
  cr_assert_gt(checked, 50, "only %d JSON lines checked", checked);
  free(g_got.p);
  g_got.p = NULL;
}

/* what the old decoder (the line's tree, then protobuf-c's structs) said,
 * message for message: the line's first fault, a JSON one anywhere in the
 * line before an OTLP one */
Test(otlp_json, errors_name_the_first_fault) {
  static const struct {
    const char *line, *want;
  } cases[] = {
      {"{\"resourceProfiles\":[{\"bogus\":1}]}\n",
       "t.json:1: OTLP/JSON .resourceProfiles[0].bogus: unknown key (not OTLP profiles"},
      {"{\"resourceProfiles\":[{\"bogus\":1}],\"x\":}\n", "t.json:1:39: invalid JSON: "},
      {"[1,2]\n", "t.json:1: OTLP/JSON $: expected an object"},
      {"[1,2\n", "t.json:1:5: invalid JSON: "},
      {"{\"dictionary\":{\"stringTable\":[\"a\",7]}}\n",
       "t.json:1: OTLP/JSON .dictionary.stringTable[1]: expected a string"},
      {"{\"dictionary\":{\"stackTable\":[{\"locationIndices\":[\"x\"]}]}}\n",
       "t.json:1: OTLP/JSON .dictionary.stackTable[0].locationIndices[0]: not an integer"},
      {"{\"dictionary\":{\"stackTable\":[{\"locationIndices\":[3000000000]}]}}\n",
       "t.json:1: OTLP/JSON .dictionary.stackTable[0].locationIndices[0]: out of the int32 range"},
      {"{\"dictionary\":{\"mappingTable\":[{\"memoryStart\":\"-1\"}]}}\n",
       "t.json:1: OTLP/JSON .dictionary.mappingTable[0].memoryStart: negative value for an unsigned field"},
      {"{\"dictionary\":{\"linkTable\":[{\"traceId\":\"abc\"}]}}\n",
       "t.json:1: OTLP/JSON .dictionary.linkTable[0].traceId: odd number of hex digits"},
      {"{\"dictionary\":{\"attributeTable\":[{\"value\":{\"bytesValue\":\"a*b\"}}]}}\n",
       "t.json:1: OTLP/JSON .dictionary.attributeTable[0].value.bytesValue: not base64"},
      {"{\"dictionary\":{\"attributeTable\":[{\"value\":{\"doubleValue\":true}}]}}\n",
       "t.json:1: OTLP/JSON .dictionary.attributeTable[0].value.doubleValue: expected a number"},
      {"{\"dictionary\":{\"attributeTable\":[{\"value\":{\"boolValue\":1}}]}}\n",
       "t.json:1: OTLP/JSON .dictionary.attributeTable[0].value.boolValue: expected true or false"},
      {"{\"dictionary\":{\"attributeTable\":[{\"value\":[]}]}}\n",
       "t.json:1: OTLP/JSON .dictionary.attributeTable[0].value: expected an object"},
      {"{\"dictionary\":{\"stringTable\":\"a\"}}\n", "t.json:1: OTLP/JSON .dictionary.stringTable: expected an array"},
      {"{\"dictionary\":{\"stringTable\":[\"a\"]}} x\n", "t.json:1:38: invalid JSON: "},
      {"{\"dictionary\":{\"stringTable\":[\"a\"],\"stringTable\":[]}}\n", "t.json:1:"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    pcol_error err;
    int rc = transcode(cases[i].line, strlen(cases[i].line), &err);
    cr_assert_eq(rc, PCOL_ECORRUPT, "case %zu: %d", i, rc);
    cr_assert(!strncmp(err.message, cases[i].want, strlen(cases[i].want)), "case %zu: \"%s\", want \"%s...\"", i,
              err.message, cases[i].want);
  }
  /* no error struct (pcol.h: err may be NULL): the status alone */
  const char *bad = "{\"bogus\":1}\n";
  FILE *in = fmemopen((void *)bad, strlen(bad), "rb");
  cr_assert_eq(pcol_otlp_import_json(NULL, in, "t.json", NULL, capture, NULL, NULL), PCOL_ECORRUPT);
  fclose(in);
  /* a field under its proto name after its lowerCamelCase one: the last wins */
  const char *twice = "{\"dictionary\":{\"stringTable\":[\"a\",\"b\"],\"string_table\":[\"c\"]}}\n";
  pcol_error err;
  cr_assert_eq(transcode(twice, strlen(twice), &err), 0, "%s", err.message);
  static const uint8_t want[] = {0x12, 0x03, 0x2a, 0x01, 'c'}; /* dictionary { string_table: "c" } */
  cr_assert(g_got.n == sizeof want && !memcmp(g_got.p, want, sizeof want), "%zu bytes", g_got.n);
  free(g_got.p);
  g_got.p = NULL;
}
