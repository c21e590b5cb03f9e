/* otlp_json.c — OTLP/JSON lines into binary OTLP messages.
 *
 * Each non-blank line is one ProfilesData (or ExportProfilesServiceRequest,
 * the same fields) in OTLP/JSON, the protobuf JSON mapping with OTLP's
 * rules: keys in lowerCamelCase (the proto names are accepted too), 64-bit
 * integers as numbers or strings, trace, span and profile ids in hex, other
 * bytes in base64.  The line is decoded through the messages' protobuf-c
 * descriptors straight into protobuf's wire format (below) and imported
 * as a binary message, so both forms go through the same checks.  An unknown key is an error that
 * names the line and the JSON path: an older revision's JSON (e.g.
 * "locationsStartIndex") must not import as empty stacks.
 */
#include "otlp.h"
#include <errno.h>
#include <inttypes.h>
#include "json_pull.h"
#include "error.h"    /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "buf.h"      /* pcol_buf, pcol_buf_append, pcol_buf_free */
#include "instream.h" /* pcol_input_cap */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line is read as a stream of tokens (json_pull) and written straight
 * into protobuf's wire format, as protobuf_c_message_pack (1.4.1) would
 * write the message the protobuf JSON mapping decodes it to: fields in the
 * descriptor's order (a message's fields are collected apart while its
 * members come in any order, then joined), a field of no presence left out
 * when zero, the last member of a oneof, repeated scalars packed where the
 * descriptor says.  Neither the line's tree nor a decoded message exists,
 * so memory is about twice the wire bytes (a message and its parent's copy
 * of it), not five times the line. */
typedef struct wfield {
  pcol_buf b;     /* the field's encoding: tag(s) and value(s); a packed field: the payload */
  size_t n;       /* a repeated field: its elements */
  uint8_t set;    /* a member named it (and it was not null) */
  uint8_t zero;   /* its value is protobuf-c's "zeroish" (a field without presence is left out) */
  uint32_t oneof; /* a oneof's member: the id of the member set last in its oneof */
} wfield;

typedef struct wlevel { /* an open message at one depth; its buffers reused by the next */
  wfield *f;
  unsigned cap;
  pcol_buf out; /* the message's encoding once it is complete */
} wlevel;

typedef struct jctx {
  pcol_jpull *jp;
  const char *name;
  size_t line;
  pcol_error *err;
  wlevel *lv;
  size_t nlv;
  char path[256];
} jctx;

/* past this a level's buffer is freed once copied out, not kept for the
 * next message at its depth: a message's bytes are in it and in each message
 * around it, so keeping big ones cost depth x size (a 1 MB AnyValue nested
 * 680 deep: 2.8 GB) */
#define WIRE_KEEP ((size_t)4096)

static int jbad(jctx *j, const char *what) {
  return pcol_error_set(j->err, PCOL_ECORRUPT, "%s:%zu: OTLP/JSON %s: %s", j->name, j->line,
                        j->path[0] ? j->path : "$", what);
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

/* ------------------------------------------------ protobuf-c's encodings */
/* a varint: uint64_pack, and uint32_pack for a value below 2^32 */
static int put_u64(pcol_buf *b, uint64_t v) {
  uint8_t t[10];
  size_t n = 0;
  while (v >= 0x80) t[n++] = (uint8_t)(v | 0x80), v >>= 7;
  t[n++] = (uint8_t)v;
  return pcol_buf_append(b, t, n);
}
static int put_fixed(pcol_buf *b, uint64_t v, size_t n) { /* little-endian, 4 or 8 bytes */
  uint8_t t[8];
  for (size_t i = 0; i < n; i++) t[i] = (uint8_t)(v >> (8 * i));
  return pcol_buf_append(b, t, n);
}
static int put_tag(pcol_buf *b, uint32_t id, int wire) { /* tag_pack */
  return put_u64(b, (uint64_t)id << 3 | (uint64_t)wire);
}

static int wire_type(const ProtobufCFieldDescriptor *f) {
  switch (f->type) {
  case PROTOBUF_C_TYPE_SFIXED32: case PROTOBUF_C_TYPE_FIXED32: case PROTOBUF_C_TYPE_FLOAT: return 5;
  case PROTOBUF_C_TYPE_SFIXED64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE: return 1;
  case PROTOBUF_C_TYPE_STRING: case PROTOBUF_C_TYPE_BYTES: case PROTOBUF_C_TYPE_MESSAGE: return 2;
  default: return 0;
  }
}

/* ------------------------------------------------------------ values */
/* the string token is lit (whole: it may hold NUL) */
static int str_is(const pcol_jpull *jp, const char *lit) {
  return jp->len == strlen(lit) && !memcmp(jp->str, lit, jp->len);
}
/* an integer from a JSON number or a decimal string (the current token) */
static int get_int(jctx *j, int is_unsigned, uint64_t *u, int64_t *s) {
  pcol_jpull *jp = j->jp;
  if (jp->tok == PCOL_JT_INT) {
    int64_t x = jp->i;
    if (is_unsigned && x < 0) return jbad(j, "negative value for an unsigned field");
    *s = x;
    *u = (uint64_t)x;
    return PCOL_OK;
  }
  if (jp->tok == PCOL_JT_REAL) {
    double d = jp->d;
    if (d != floor(d) || d < -9.3e18 || d > 1.8e19) return jbad(j, "not an integer");
    *s = (int64_t)d;
    *u = (uint64_t)d;
    return PCOL_OK;
  }
  if (jp->tok != PCOL_JT_STR) return jbad(j, "expected an integer");
  const char *t = jp->str;
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
  if (errno || end == t || end != t + jp->len) return jbad(j, "not an integer"); /* (a NUL in it too) */
  return PCOL_OK;
}

/* bytes from the current token (OTLP/JSON: ids in hex, other bytes in
 * base64), length-prefixed onto b; *len their count */
static int put_bytes(jctx *j, int is_hex, pcol_buf *b, size_t *len) {
  pcol_jpull *jp = j->jp;
  if (jp->tok != PCOL_JT_STR) return jbad(j, "expected a string (bytes)");
  const char *s = jp->str;
  size_t n = jp->len, o = 0;
  *len = 0;
  uint8_t *d = malloc(n ? n : 1);
  if (!d) return pcol_oom(j->err);
  int rc = PCOL_OK;
  if (is_hex) {
    if (n % 2) rc = jbad(j, "odd number of hex digits");
    for (size_t i = 0; !rc && i < n; i += 2) {
      int a = hexval(s[i]), c = hexval(s[i + 1]);
      if (a < 0 || c < 0) rc = jbad(j, "not hex");
      else d[o++] = (uint8_t)(a << 4 | c);
    }
  } else {
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; !rc && i < n; i++) {
      if (s[i] == '=') break;
      int x = b64val((unsigned char)s[i]);
      if (x < 0) {
        rc = jbad(j, "not base64");
        break;
      }
      acc = acc << 6 | (uint32_t)x;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        d[o++] = (uint8_t)(acc >> bits);
      }
    }
  }
  if (!rc && (put_u64(b, (uint32_t)o) || pcol_buf_append(b, d, o))) rc = pcol_oom(j->err);
  free(d);
  *len = o;
  return rc;
}

static int enc_msg(jctx *j, const ProtobufCMessageDescriptor *d, size_t depth);

/* The value the current token starts, of field f (the fi-th of the
 * message at depth), onto that field's buffer: its tag first unless `bare`
 * (an element of a packed field); *zero as protobuf-c's field_is_zeroish
 * would find the decoded value. */
static int enc_value(jctx *j, const ProtobufCFieldDescriptor *f, size_t depth, int fi, int bare, int *zero) {
  pcol_jpull *jp = j->jp;
  pcol_buf *b = &j->lv[depth].f[fi].b; /* (found again after a nested message: j->lv may move) */
  uint64_t u = 0;
  int64_t s = 0;
  int rc = PCOL_OK;
  if (!bare && put_tag(b, f->id, wire_type(f))) return pcol_oom(j->err);
  switch (f->type) {
  case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
  case PROTOBUF_C_TYPE_ENUM:
    PCOL_RETURN_NOT_OK(get_int(j, 0, &u, &s));
    if (s < INT32_MIN || s > INT32_MAX) return jbad(j, "out of the int32 range");
    *zero = s == 0;
    if (f->type == PROTOBUF_C_TYPE_SFIXED32) rc = put_fixed(b, (uint32_t)(int32_t)s, 4);
    else if (f->type == PROTOBUF_C_TYPE_SINT32) rc = put_u64(b, ((uint32_t)s << 1) ^ (uint32_t)(-(s < 0)));
    else rc = put_u64(b, (uint64_t)s); /* int32_pack: sign-extended, 10 bytes when negative */
    break;
  case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
    PCOL_RETURN_NOT_OK(get_int(j, 1, &u, &s));
    if (u > UINT32_MAX) return jbad(j, "out of the uint32 range");
    *zero = u == 0;
    rc = f->type == PROTOBUF_C_TYPE_FIXED32 ? put_fixed(b, u, 4) : put_u64(b, (uint32_t)u);
    break;
  case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    PCOL_RETURN_NOT_OK(get_int(j, 0, &u, &s));
    *zero = s == 0;
    if (f->type == PROTOBUF_C_TYPE_SFIXED64) rc = put_fixed(b, (uint64_t)s, 8);
    else if (f->type == PROTOBUF_C_TYPE_SINT64) rc = put_u64(b, ((uint64_t)s << 1) ^ (uint64_t)(-(int64_t)(s < 0)));
    else rc = put_u64(b, (uint64_t)s);
    break;
  case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
    PCOL_RETURN_NOT_OK(get_int(j, 1, &u, &s));
    *zero = u == 0;
    rc = f->type == PROTOBUF_C_TYPE_FIXED64 ? put_fixed(b, u, 8) : put_u64(b, u);
    break;
  case PROTOBUF_C_TYPE_BOOL:
    if (jp->tok != PCOL_JT_TRUE && jp->tok != PCOL_JT_FALSE) return jbad(j, "expected true or false");
    *zero = jp->tok == PCOL_JT_FALSE;
    rc = put_u64(b, jp->tok == PCOL_JT_TRUE);
    break;
  case PROTOBUF_C_TYPE_DOUBLE: case PROTOBUF_C_TYPE_FLOAT: {
    double x;
    if (jp->tok == PCOL_JT_INT || jp->tok == PCOL_JT_REAL) x = jp->tok == PCOL_JT_INT ? (double)jp->i : jp->d;
    else if (jp->tok == PCOL_JT_STR && str_is(jp, "NaN")) x = NAN;
    else if (jp->tok == PCOL_JT_STR && str_is(jp, "Infinity")) x = INFINITY;
    else if (jp->tok == PCOL_JT_STR && str_is(jp, "-Infinity")) x = -INFINITY;
    else return jbad(j, "expected a number");
    if (f->type == PROTOBUF_C_TYPE_FLOAT) {
      float v = (float)x;
      uint32_t bits;
      memcpy(&bits, &v, 4);
      *zero = v == 0;
      rc = put_fixed(b, bits, 4);
    } else {
      uint64_t bits;
      memcpy(&bits, &x, 8);
      *zero = x == 0;
      rc = put_fixed(b, bits, 8);
    }
    break;
  }
  case PROTOBUF_C_TYPE_STRING:
    if (jp->tok != PCOL_JT_STR) return jbad(j, "expected a string");
    *zero = jp->len == 0;
    rc = put_u64(b, (uint32_t)jp->len) || pcol_buf_append(b, jp->str, jp->len);
    break;
  case PROTOBUF_C_TYPE_BYTES: {
    int is_hex = !strcmp(f->name, "trace_id") || !strcmp(f->name, "span_id") || !strcmp(f->name, "profile_id");
    size_t n = 0;
    PCOL_RETURN_NOT_OK(put_bytes(j, is_hex, b, &n));
    *zero = n == 0; /* (protobuf-c tests the first word of ProtobufCBinaryData: its length) */
    return PCOL_OK;
  }
  case PROTOBUF_C_TYPE_MESSAGE: {
    if (jp->tok != PCOL_JT_OBJ) return jbad(j, "expected an object");
    PCOL_RETURN_NOT_OK(enc_msg(j, f->descriptor, depth + 1));
    b = &j->lv[depth].f[fi].b;
    pcol_buf *m = &j->lv[depth + 1].out;
    *zero = 0; /* a message given is packed, even empty */
    rc = put_u64(b, (uint32_t)m->len) || pcol_buf_append(b, m->data, m->len);
    if (m->cap > WIRE_KEEP) pcol_buf_free(m);
    break;
  }
  default: return jbad(j, "unsupported field type");
  }
  return rc ? pcol_oom(j->err) : PCOL_OK;
}

/* The message whose '{' is the current token, of descriptor d, into
 * j->lv[depth].out. */
static int enc_msg(jctx *j, const ProtobufCMessageDescriptor *d, size_t depth) {
  pcol_jpull *jp = j->jp;
  if (depth >= j->nlv) { /* (json_pull bounds the depth) */
    wlevel *lv = realloc(j->lv, (depth + 8) * sizeof *lv);
    if (!lv) return pcol_oom(j->err);
    memset(lv + j->nlv, 0, (depth + 8 - j->nlv) * sizeof *lv);
    j->lv = lv, j->nlv = depth + 8;
  }
  wlevel *L = &j->lv[depth];
  if (L->cap < d->n_fields) {
    wfield *f = realloc(L->f, d->n_fields * sizeof *f);
    if (!f) return pcol_oom(j->err);
    memset(f + L->cap, 0, (d->n_fields - L->cap) * sizeof *f);
    L->f = f, L->cap = d->n_fields;
  }
  wfield *F = L->f; /* (j->lv may move in a nested message: L is found again after it) */
  for (unsigned i = 0; i < d->n_fields; i++) F[i].b.len = 0, F[i].n = 0, F[i].set = 0, F[i].oneof = 0;
  size_t plen = strlen(j->path);
  int rc;
  while (!(rc = pcol_jp_next(jp)) && jp->tok == PCOL_JT_KEY) {
    snprintf(j->path + plen, sizeof j->path - plen, ".%s", jp->str);
    int fi = -1;
    for (unsigned i = 0; i < d->n_fields; i++)
      if (name_is(d->fields[i].name, jp->str)) fi = (int)i;
    if (fi < 0) return jbad(j, "unknown key (not OTLP profiles v1development, proto v1.10.0 or later?)");
    const ProtobufCFieldDescriptor *f = &d->fields[fi];
    if ((rc = pcol_jp_next(jp))) return rc;
    if (jp->tok == PCOL_JT_NULL) continue;
    F = j->lv[depth].f;
    F[fi].b.len = 0, F[fi].n = 0; /* a second key for the field (its proto name): the last wins */
    F[fi].set = 1;
    int zero = 0;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      if (jp->tok != PCOL_JT_ARR) return jbad(j, "expected an array");
      int packed = (f->flags & PROTOBUF_C_FIELD_FLAG_PACKED) != 0;
      size_t elen = strlen(j->path), n = 0;
      while (!(rc = pcol_jp_next(jp)) && jp->tok != PCOL_JT_ARR_END) {
        snprintf(j->path + elen, sizeof j->path - elen, "[%zu]", n);
        if ((rc = enc_value(j, f, depth, fi, packed, &zero))) return rc;
        n++;
      }
      if (rc) return rc;
      j->path[elen] = 0;
      j->lv[depth].f[fi].n = n;
    } else {
      if ((rc = enc_value(j, f, depth, fi, 0, &zero))) return rc;
      F = j->lv[depth].f;
      F[fi].zero = (uint8_t)zero;
      if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) /* the oneof's case: this member */
        for (unsigned i = 0; i < d->n_fields; i++)
          if ((d->fields[i].flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
              d->fields[i].quantifier_offset == f->quantifier_offset)
            F[i].oneof = f->id;
    }
  }
  if (rc) return rc;
  j->path[plen] = 0;
  /* the fields in the descriptor's order, as protobuf_c_message_pack */
  L = &j->lv[depth];
  F = L->f;
  L->out.len = 0;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *f = &d->fields[i];
    wfield *w = &F[i];
    int keep;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) keep = w->n > 0;
    else if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) keep = w->set && w->oneof == f->id;
    else if (f->label == PROTOBUF_C_LABEL_NONE) keep = w->set && !w->zero;
    else keep = w->set; /* optional: set (a message or string: given) */
    if (!keep) goto next;
    if (f->label == PROTOBUF_C_LABEL_REPEATED && (f->flags & PROTOBUF_C_FIELD_FLAG_PACKED)) {
      if (put_tag(&L->out, f->id, 2) || put_u64(&L->out, (uint32_t)w->b.len)) return pcol_oom(j->err);
    }
    if (pcol_buf_append(&L->out, w->b.data, w->b.len)) return pcol_oom(j->err);
  next:
    if (w->b.cap > WIRE_KEEP) pcol_buf_free(&w->b);
  }
  return PCOL_OK;
}

static void wire_free(jctx *j) {
  for (size_t i = 0; i < j->nlv; i++) {
    for (unsigned k = 0; k < j->lv[i].cap; k++) pcol_buf_free(&j->lv[i].f[k].b);
    free(j->lv[i].f);
    pcol_buf_free(&j->lv[i].out);
  }
  free(j->lv);
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
                    pcol_otlp_message_fn fn, void *ud, const pcol_import_options *opt,
                    size_t *msgs, pcol_error *err) {
  cookie_io_functions_t io = {line_read, NULL, NULL, NULL};
  FILE *s = fopencookie(l, "r", io);
  if (!s) return pcol_oom(err);
  pcol_import_options jo = {0};
  jo.max_input_bytes = UINT64_MAX; /* the cap is the whole input's (lines) */
  pcol_jpull jp;
  jctx j = {&jp, name, line, err, NULL, 0, {0}};
  /* strings are written by length: \u0000 is kept (protojson reads it) */
  int rc = pcol_jp_open(&jp, s, name, &jo, PCOL_JP_ALLOW_NUL, err);
  if (!rc && !(rc = pcol_jp_next(&jp))) {
    rc = jp.tok != PCOL_JT_OBJ
             ? jbad(&j, "expected an object")
             : enc_msg(&j, &opentelemetry__proto__profiles__v1development__profiles_data__descriptor, 0);
    if (rc && !jp.rc) { /* not the JSON's own error: one later in the line comes first, as it did when
                         * the line was read whole before it was decoded */
      pcol_error keep = {0};
      if (err) keep = *err;
      if (!pcol_jp_finish(&jp)) {
        if (err) *err = keep;
      } else {
        rc = jp.rc;
      }
    } else if (!rc) {
      rc = pcol_jp_finish(&jp); /* only whitespace after the object */
    }
  }
  pcol_jp_close(&jp);
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
    pcol_buf *m = &j.lv[0].out;
    rc = fn(b, m->data ? m->data : (const uint8_t *)"", m->len, name, ++*msgs, opt, ud, err);
  }
  wire_free(&j);
  return rc;
}

int pcol_otlp_import_json(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                          pcol_otlp_message_fn fn, void *ud, pcol_error *err) {
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
    rc = one_line(b, l, name, line, lead, fn, ud, opt, &msgs, err);
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
