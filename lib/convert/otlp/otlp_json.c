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
#include "json_tree.h"
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "buf.h"      /* pcol_arena, pcol_arena_alloc, pcol_arena_release */
#include "instream.h" /* pcol_input_cap */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jctx {
  const pcol_jtree *t; /* the line's document */
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

static int get_bytes(jctx *j, pcol_jv v, int is_hex, ProtobufCBinaryData *out) {
  if (!pcol_jt_is_str(v)) return jbad(j, "expected a string (bytes)");
  const char *s = pcol_jt_str(j->t, v);
  size_t n = pcol_jt_strlen(j->t, v);
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
static int get_int(jctx *j, pcol_jv v, int is_unsigned, uint64_t *u, int64_t *s) {
  if (pcol_jt_is_int(v)) {
    int64_t x = pcol_jt_int(j->t, v);
    if (is_unsigned && x < 0) return jbad(j, "negative value for an unsigned field");
    *s = (int64_t)x;
    *u = (uint64_t)x;
    return PCOL_OK;
  }
  if ((pcol_jt_kind(v) == PCOL_JK_REAL)) {
    double d = pcol_jt_num(j->t, v);
    if (d != floor(d) || d < -9.3e18 || d > 1.8e19) return jbad(j, "not an integer");
    *s = (int64_t)d;
    *u = (uint64_t)d;
    return PCOL_OK;
  }
  if (!pcol_jt_is_str(v)) return jbad(j, "expected an integer");
  const char *t = pcol_jt_str(j->t, v);
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

static int decode_msg(jctx *j, pcol_jv obj, const ProtobufCMessageDescriptor *d, void **out);

/* one value of field f into dst (an element slot) */
static int decode_value(jctx *j, pcol_jv v, const ProtobufCFieldDescriptor *f, void *dst) {
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
    if (!pcol_jt_is_bool(v)) return jbad(j, "expected true or false");
    *(protobuf_c_boolean *)dst = (pcol_jt_kind(v) == PCOL_JK_TRUE);
    return PCOL_OK;
  case PROTOBUF_C_TYPE_DOUBLE: case PROTOBUF_C_TYPE_FLOAT: {
    double x;
    if (pcol_jt_is_num(v)) x = pcol_jt_num(j->t, v);
    else if (pcol_jt_is_str(v) && !strcmp(pcol_jt_str(j->t, v), "NaN")) x = NAN;
    else if (pcol_jt_is_str(v) && !strcmp(pcol_jt_str(j->t, v), "Infinity")) x = INFINITY;
    else if (pcol_jt_is_str(v) && !strcmp(pcol_jt_str(j->t, v), "-Infinity")) x = -INFINITY;
    else return jbad(j, "expected a number");
    if (f->type == PROTOBUF_C_TYPE_FLOAT) *(float *)dst = (float)x;
    else *(double *)dst = x;
    return PCOL_OK;
  }
  case PROTOBUF_C_TYPE_STRING: {
    if (!pcol_jt_is_str(v)) return jbad(j, "expected a string");
    size_t n = pcol_jt_strlen(j->t, v);
    char *t = aalloc(j, n + 1);
    if (!t) return pcol_oom(j->err);
    memcpy(t, pcol_jt_str(j->t, v), n);
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
    if (!pcol_jt_is_obj(v)) return jbad(j, "expected an object");
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

static int decode_msg(jctx *j, pcol_jv obj, const ProtobufCMessageDescriptor *d, void **out) {
  ProtobufCMessage *m = aalloc(j, d->sizeof_message);
  if (!m) return pcol_oom(j->err);
  d->message_init(m);
  size_t plen = strlen(j->path);
  pcol_jv v;
  const char *key;
  for (size_t mi = 0; (key = pcol_jt_member(j->t, obj, mi, &v)); mi++) {
    snprintf(j->path + plen, sizeof j->path - plen, ".%s", key);
    const ProtobufCFieldDescriptor *f = NULL;
    for (unsigned i = 0; i < d->n_fields; i++)
      if (name_is(d->fields[i].name, key)) f = &d->fields[i];
    if (!f) return jbad(j, "unknown key (not OTLP profiles v1development, proto v1.10.0 or later?)");
    if (pcol_jt_is_null(v)) continue;
    char *base = (char *)m;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      if (!pcol_jt_is_arr(v)) return jbad(j, "expected an array");
      size_t n = pcol_jt_size(j->t, v), es = elem_size(f);
      if (n > SIZE_MAX / es) return pcol_oom(j->err);
      char *arr = aalloc(j, n * es);
      if (!arr) return pcol_oom(j->err);
      size_t elen = strlen(j->path);
      for (size_t i = 0; i < n; i++) {
        snprintf(j->path + elen, sizeof j->path - elen, "[%zu]", i);
        PCOL_RETURN_NOT_OK(decode_value(j, pcol_jt_at(j->t, v, i), f, arr + i * es));
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

/* ------------------------------------------------------------ the lines */
/* The input read line by line: each line is given to the JSON reader as a
 * stream of its own (a FILE* that ends at the line's '\n'), so neither the
 * file nor a line is ever whole in memory, only the line's compact tree. */
enum { LBUF = 65536 };
typedef struct lines {
  FILE *in;
  uint8_t buf[LBUF];
  size_t n, p;
  int eof, eol;        /* the input ended; the current line ended */
  uint64_t total, cap; /* bytes taken; the input cap */
  int over;            /* the input went past the cap */
} lines;

/* 1 when a byte is ready in buf[p] */
static int more(lines *l) {
  if (l->p < l->n) return 1;
  if (l->eof || l->over) return 0;
  l->n = fread(l->buf, 1, LBUF, l->in);
  l->p = 0;
  if (l->n < LBUF) l->eof = 1;
  if (l->total + l->n > l->cap) { /* the bytes up to the cap only */
    l->n = (size_t)(l->cap - l->total);
    l->over = 1;
  }
  l->total += l->n;
  return l->n > 0;
}

static ssize_t line_read(void *c, char *out, size_t size) {
  lines *l = c;
  if (l->eol || !more(l)) return 0;
  size_t k = l->n - l->p < size ? l->n - l->p : size;
  uint8_t *nl = memchr(l->buf + l->p, '\n', k);
  if (nl) {
    k = (size_t)(nl - (l->buf + l->p));
    l->eol = 1;
  }
  memcpy(out, l->buf + l->p, k);
  l->p += k + (nl != NULL);
  return (ssize_t)k;
}

/* one line's document into a message for fn; its number is msgs + 1 */
static int one_line(pcol_builder *b, lines *l, const char *name, size_t line, size_t lead,
                    pcol_otlp_message_fn fn, size_t *msgs, pcol_error *err) {
  cookie_io_functions_t io = {line_read, NULL, NULL, NULL};
  FILE *s = fopencookie(l, "r", io);
  if (!s) return pcol_oom(err);
  pcol_import_options jo = {0};
  jo.max_input_bytes = UINT64_MAX; /* the cap is the whole input's (lines) */
  pcol_jpull jp;
  pcol_jtree t;
  memset(&t, 0, sizeof t);
  int rc = pcol_jp_open(&jp, s, name, &jo, 0, err);
  if (!rc) {
    rc = pcol_jtree_build(&t, &jp, NULL, NULL);
    pcol_jp_close(&jp);
  }
  if (rc == PCOL_ECORRUPT && err) { /* "NAME:1:COL (byte N): invalid JSON: WHAT" as NAME:LINE:COL */
    unsigned long long col = 0;
    size_t nl = strlen(name); /* the message may be cut short of a long name */
    const char *rest = strncmp(err->message, name, nl) == 0 ? err->message + nl : NULL;
    const char *what = rest ? strstr(rest, "invalid JSON: ") : NULL;
    if (what && sscanf(rest, ":%*u:%llu", &col) == 1) {
      char w[400];
      snprintf(w, sizeof w, "%s", what + 14);
      pcol_error_set(err, PCOL_ECORRUPT, "%s:%zu:%llu: invalid JSON: %s", name, line, col + lead, w);
    }
  }
  fclose(s);
  if (!rc) {
    pcol_arena ar = {0};
    jctx j = {&t, &ar, name, line, err, {0}};
    void *m = NULL;
    if (!pcol_jt_is_obj(t.root))
      rc = jbad(&j, "expected an object");
    else
      rc = decode_msg(&j, t.root, &opentelemetry__proto__profiles__v1development__profiles_data__descriptor, &m);
    pcol_jtree_free(&t); /* the message is in the arena */
    if (!rc) {
      size_t n = protobuf_c_message_get_packed_size(m);
      uint8_t *buf = malloc(n ? n : 1);
      if (!buf) {
        rc = pcol_oom(err);
      } else {
        protobuf_c_message_pack(m, buf);
        rc = fn(b, buf, n, name, ++*msgs, err);
        free(buf);
      }
    }
    pcol_arena_release(&ar);
  }
  pcol_jtree_free(&t);
  return rc;
}

int pcol_otlp_import_json(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                          pcol_otlp_message_fn fn, pcol_error *err) {
  lines *l = calloc(1, sizeof *l);
  if (!l) return pcol_oom(err);
  l->in = in;
  l->cap = pcol_input_cap(opt);
  size_t line = 0, msgs = 0;
  int rc = PCOL_OK;
  while (!rc && more(l)) {
    line++;
    l->eol = 0;
    size_t lead = 0; /* blanks before the line's first other byte */
    while (more(l) && (l->buf[l->p] == ' ' || l->buf[l->p] == '\t' || l->buf[l->p] == '\r')) l->p++, lead++;
    if (!more(l)) break;
    if (l->buf[l->p] == '\n') { /* a blank line */
      l->p++;
      continue;
    }
    rc = one_line(b, l, name, line, lead, fn, &msgs, err);
    /* the rest of the line (the reader stopped at an error) */
    while (!l->eol && more(l)) {
      uint8_t *nl = memchr(l->buf + l->p, '\n', l->n - l->p);
      l->p = nl ? (size_t)(nl - l->buf) + 1 : l->n;
      l->eol = nl != NULL;
    }
  }
  /* the whole input was read before any line when it was read whole: its
   * size and read errors come first */
  while (rc != PCOL_ENOMEM && !l->over && !l->eof) {
    l->p = l->n;
    more(l);
  }
  if (l->over)
    rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: raw profile exceeds the input limit of %llu bytes; raise it "
                        "with `pcol pack --max-input BYTES` (max_input_bytes)", name, (unsigned long long)l->cap);
  else if (ferror(in))
    rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  else if (!rc && msgs == 0)
    rc = pcol_error_set(err, PCOL_ECORRUPT, "%s: no OTLP/JSON line", name);
  free(l);
  return rc;
}
