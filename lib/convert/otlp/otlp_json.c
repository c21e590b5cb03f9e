/* otlp_json.c — OTLP/JSON lines into binary OTLP messages.
 *
 * Each non-blank line is one ProfilesData (or ExportProfilesServiceRequest,
 * the same fields) in OTLP/JSON, the protobuf JSON mapping with OTLP's
 * rules: keys in lowerCamelCase (the proto names are accepted too), 64-bit
 * integers as numbers or strings, trace, span and profile ids in hex, other
 * bytes in base64.  The line is decoded through the messages' protobuf-c
 * descriptors into an arena, packed, and imported as a binary message, so
 * both forms go through the same checks.  An unknown key is an error that
 * names the line and the JSON path: an older revision's JSON (e.g.
 * "locationsStartIndex") must not import as empty stacks.
 */
#include "otlp.h"
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>

typedef struct jctx {
  pcol_arena *ar;
  const char *name;
  size_t line;
  pcol_error *err;
  char path[256];
} jctx;

static int jbad(jctx *j, const char *what) {
  return pcol_error_set(j->err, PCOL_ECORRUPT, "%s:%zu: OTLP/JSON %s: %s", j->name, j->line,
                        j->path[0] ? j->path : "$", what);
}

static void *aalloc(jctx *j, size_t n) {
  void *p = pcol_arena_alloc(j->ar, n ? n : 1);
  if (p) memset(p, 0, n ? n : 1);
  return p;
}

/* lowerCamelCase of a proto field name equals key */
static int name_is(const char *proto, const char *key) {
  if (strcmp(proto, key) == 0) return 1;
  const char *p = proto, *k = key;
  while (*p && *k) {
    if (*p == '_' && p[1]) {
      p++;
      if (*k != (*p >= 'a' && *p <= 'z' ? *p - 32 : *p)) return 0;
    } else if (*p != *k) {
      return 0;
    }
    p++;
    k++;
  }
  return !*p && !*k;
}

static int hexval(int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}
static int b64val(int ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
  if (ch >= '0' && ch <= '9') return ch - '0' + 52;
  if (ch == '+' || ch == '-') return 62;
  if (ch == '/' || ch == '_') return 63;
  return -1;
}

static int get_bytes(jctx *j, json_t *v, int is_hex, ProtobufCBinaryData *out) {
  if (!json_is_string(v)) return jbad(j, "expected a string (bytes)");
  const char *s = json_string_value(v);
  size_t n = json_string_length(v);
  uint8_t *d = aalloc(j, n);
  if (!d) return pcol_oom(j->err);
  size_t o = 0;
  if (is_hex) {
    if (n % 2) return jbad(j, "odd number of hex digits");
    for (size_t i = 0; i < n; i += 2) {
      int a = hexval(s[i]), b = hexval(s[i + 1]);
      if (a < 0 || b < 0) return jbad(j, "not hex");
      d[o++] = (uint8_t)(a << 4 | b);
    }
  } else {
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
      if (s[i] == '=') break;
      int x = b64val((unsigned char)s[i]);
      if (x < 0) return jbad(j, "not base64");
      acc = acc << 6 | (uint32_t)x;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        d[o++] = (uint8_t)(acc >> bits);
      }
    }
  }
  out->data = d;
  out->len = o;
  return PCOL_OK;
}

/* an integer from a JSON number or a decimal string */
static int get_int(jctx *j, json_t *v, int is_unsigned, uint64_t *u, int64_t *s) {
  if (json_is_integer(v)) {
    json_int_t x = json_integer_value(v);
    if (is_unsigned && x < 0) return jbad(j, "negative value for an unsigned field");
    *s = (int64_t)x;
    *u = (uint64_t)x;
    return PCOL_OK;
  }
  if (json_is_real(v)) {
    double d = json_real_value(v);
    if (d != floor(d) || d < -9.3e18 || d > 1.8e19) return jbad(j, "not an integer");
    *s = (int64_t)d;
    *u = (uint64_t)d;
    return PCOL_OK;
  }
  if (!json_is_string(v)) return jbad(j, "expected an integer");
  const char *t = json_string_value(v);
  char *end;
  errno = 0;
  if (is_unsigned) {
    if (t[0] == '-') return jbad(j, "negative value for an unsigned field");
    *u = strtoull(t, &end, 10);
    *s = (int64_t)*u;
  } else {
    *s = strtoll(t, &end, 10);
    *u = (uint64_t)*s;
  }
  if (errno || end == t || *end) return jbad(j, "not an integer");
  return PCOL_OK;
}

static int decode_msg(jctx *j, json_t *obj, const ProtobufCMessageDescriptor *d, void **out);

/* one value of field f into dst (an element slot) */
static int decode_value(jctx *j, json_t *v, const ProtobufCFieldDescriptor *f, void *dst) {
  uint64_t u = 0;
  int64_t s = 0;
  switch (f->type) {
  case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
  case PROTOBUF_C_TYPE_ENUM:
    PCOL_RETURN_NOT_OK(get_int(j, v, 0, &u, &s));
    if (s < INT32_MIN || s > INT32_MAX) return jbad(j, "out of the int32 range");
    *(int32_t *)dst = (int32_t)s;
    return PCOL_OK;
  case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
    PCOL_RETURN_NOT_OK(get_int(j, v, 1, &u, &s));
    if (u > UINT32_MAX) return jbad(j, "out of the uint32 range");
    *(uint32_t *)dst = (uint32_t)u;
    return PCOL_OK;
  case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    PCOL_RETURN_NOT_OK(get_int(j, v, 0, &u, &s));
    *(int64_t *)dst = s;
    return PCOL_OK;
  case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
    PCOL_RETURN_NOT_OK(get_int(j, v, 1, &u, &s));
    *(uint64_t *)dst = u;
    return PCOL_OK;
  case PROTOBUF_C_TYPE_BOOL:
    if (!json_is_boolean(v)) return jbad(j, "expected true or false");
    *(protobuf_c_boolean *)dst = json_is_true(v);
    return PCOL_OK;
  case PROTOBUF_C_TYPE_DOUBLE: case PROTOBUF_C_TYPE_FLOAT: {
    double x;
    if (json_is_number(v)) x = json_number_value(v);
    else if (json_is_string(v) && !strcmp(json_string_value(v), "NaN")) x = NAN;
    else if (json_is_string(v) && !strcmp(json_string_value(v), "Infinity")) x = INFINITY;
    else if (json_is_string(v) && !strcmp(json_string_value(v), "-Infinity")) x = -INFINITY;
    else return jbad(j, "expected a number");
    if (f->type == PROTOBUF_C_TYPE_FLOAT) *(float *)dst = (float)x;
    else *(double *)dst = x;
    return PCOL_OK;
  }
  case PROTOBUF_C_TYPE_STRING: {
    if (!json_is_string(v)) return jbad(j, "expected a string");
    size_t n = json_string_length(v);
    char *t = aalloc(j, n + 1);
    if (!t) return pcol_oom(j->err);
    memcpy(t, json_string_value(v), n);
    *(char **)dst = t;
    return PCOL_OK;
  }
  case PROTOBUF_C_TYPE_BYTES: {
    /* OTLP/JSON: ids in hex, other bytes in base64 */
    int is_hex = !strcmp(f->name, "trace_id") || !strcmp(f->name, "span_id") ||
                 !strcmp(f->name, "profile_id");
    return get_bytes(j, v, is_hex, dst);
  }
  case PROTOBUF_C_TYPE_MESSAGE:
    if (!json_is_object(v)) return jbad(j, "expected an object");
    return decode_msg(j, v, f->descriptor, dst);
  default: return jbad(j, "unsupported field type");
  }
}

static size_t elem_size(const ProtobufCFieldDescriptor *f) {
  switch (f->type) {
  case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
  case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32: case PROTOBUF_C_TYPE_ENUM:
  case PROTOBUF_C_TYPE_FLOAT: return 4;
  case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
  case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE: return 8;
  case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
  case PROTOBUF_C_TYPE_STRING: return sizeof(char *);
  case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
  case PROTOBUF_C_TYPE_MESSAGE: return sizeof(void *);
  }
  return 8;
}

static int decode_msg(jctx *j, json_t *obj, const ProtobufCMessageDescriptor *d, void **out) {
  ProtobufCMessage *m = aalloc(j, d->sizeof_message);
  if (!m) return pcol_oom(j->err);
  d->message_init(m);
  size_t plen = strlen(j->path);
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    snprintf(j->path + plen, sizeof j->path - plen, ".%s", key);
    const ProtobufCFieldDescriptor *f = NULL;
    for (unsigned i = 0; i < d->n_fields; i++)
      if (name_is(d->fields[i].name, key)) f = &d->fields[i];
    if (!f) return jbad(j, "unknown key (not OTLP profiles v1development, proto v1.10.0 or later?)");
    if (json_is_null(v)) continue;
    char *base = (char *)m;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      if (!json_is_array(v)) return jbad(j, "expected an array");
      size_t n = json_array_size(v), es = elem_size(f);
      if (n > SIZE_MAX / es) return pcol_oom(j->err);
      char *arr = aalloc(j, n * es);
      if (!arr) return pcol_oom(j->err);
      size_t elen = strlen(j->path);
      for (size_t i = 0; i < n; i++) {
        snprintf(j->path + elen, sizeof j->path - elen, "[%zu]", i);
        PCOL_RETURN_NOT_OK(decode_value(j, json_array_get(v, i), f, arr + i * es));
      }
      j->path[elen] = 0;
      *(size_t *)(base + f->quantifier_offset) = n;
      *(void **)(base + f->offset) = arr;
    } else {
      PCOL_RETURN_NOT_OK(decode_value(j, v, f, base + f->offset));
      if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
        *(uint32_t *)(base + f->quantifier_offset) = f->id;
      else if (f->label == PROTOBUF_C_LABEL_OPTIONAL && f->quantifier_offset)
        *(protobuf_c_boolean *)(base + f->quantifier_offset) = 1;
    }
  }
  j->path[plen] = 0;
  *out = m;
  return PCOL_OK;
}

int pcol_otlp_import_json(pcol_builder *b, const char *text, size_t len, const char *name,
                          pcol_otlp_message_fn fn, pcol_error *err) {
  size_t i = 0, line = 0, msgs = 0;
  int rc = PCOL_OK;
  while (i < len && !rc) {
    size_t e = i;
    while (e < len && text[e] != '\n') e++;
    line++;
    size_t k = i;
    while (k < e && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r')) k++;
    if (k < e) {
      json_error_t je;
      json_t *root = json_loadb(text + i, e - i, JSON_REJECT_DUPLICATES, &je);
      if (!root) {
        rc = pcol_error_set(err, PCOL_ECORRUPT, "%s:%zu:%d: invalid JSON: %s", name, line,
                            je.column, je.text);
        break;
      }
      pcol_arena ar = {0};
      jctx j = {&ar, name, line, err, {0}};
      void *m = NULL;
      if (!json_is_object(root))
        rc = jbad(&j, "expected an object");
      else
        rc = decode_msg(&j, root, &opentelemetry__proto__profiles__v1development__profiles_data__descriptor, &m);
      json_decref(root);
      if (!rc) {
        size_t n = protobuf_c_message_get_packed_size(m);
        uint8_t *buf = malloc(n ? n : 1);
        if (!buf) {
          rc = pcol_oom(err);
        } else {
          protobuf_c_message_pack(m, buf);
          rc = fn(b, buf, n, name, ++msgs, err);
          free(buf);
        }
      }
      pcol_arena_release(&ar);
    }
    i = e + 1;
  }
  if (!rc && msgs == 0) rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: no OTLP/JSON line", name);
  return rc;
}
