/* firefox_json.c — a Firefox profile's JSON read whole and checked access
 * to its tables (firefox_json.h). */
#include "firefox_json.h"
#include <stdarg.h>

int ffj_fail(ffj *j, const char *fmt, ...) {
  char m[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  return pcol_error_set(j->err, PCOL_ECORRUPT, "%s: %s", j->name, m);
}

/* Reads `in` whole into *buf: inflated when it starts as gzip does. */
static int read_all(ffj *j, FILE *in, const pcol_import_options *opt, pcol_buf *buf) {
  uint8_t chunk[65536], out[65536];
  size_t n = fread(chunk, 1, sizeof chunk, in);
  int gz = n >= 2 && chunk[0] == 0x1f && chunk[1] == 0x8b;
  uint64_t read = n;
  if (!gz) {
    uint64_t cap = pcol_input_cap(opt);
    for (;;) {
      if (buf->len + n > cap)
        return pcol_error_set(j->err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes "
                              "(--max-input)", j->name, (unsigned long long)cap);
      if (pcol_buf_append(buf, chunk, n)) return pcol_oom(j->err);
      if (n < sizeof chunk) break;
      n = fread(chunk, 1, sizeof chunk, in);
    }
  } else {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 32) != Z_OK) return pcol_oom(j->err);
    int rc = PCOL_OK, zr = Z_OK;
    for (;;) {
      zs.next_in = chunk;
      zs.avail_in = (uInt)n;
      while (zs.avail_in && !rc) {
        zs.next_out = out;
        zs.avail_out = sizeof out;
        zr = inflate(&zs, Z_NO_FLUSH);
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
          rc = ffj_fail(j, "bad gzip data (%s)", zs.msg ? zs.msg : "inflate failed");
          break;
        }
        size_t got = sizeof out - zs.avail_out;
        uint64_t cap = pcol_inflate_cap(opt, read);
        if (buf->len + got > cap)
          rc = pcol_error_set(j->err, PCOL_ETOOBIG, "%s: inflates past the limit of %llu bytes "
                              "(--max-input)", j->name, (unsigned long long)cap);
        else if (pcol_buf_append(buf, out, got)) rc = pcol_oom(j->err);
        if (zr == Z_STREAM_END) { /* another member may follow */
          if (inflateReset(&zs) != Z_OK) rc = pcol_oom(j->err);
          if (!zs.avail_in) break;
        }
        if (zr == Z_BUF_ERROR && !got) break;
      }
      if (rc || n < sizeof chunk) break;
      n = fread(chunk, 1, sizeof chunk, in);
      read += n;
    }
    inflateEnd(&zs);
    if (!rc && zr != Z_STREAM_END && !(zr == Z_OK && zs.total_in == 0))
      rc = ffj_fail(j, "truncated gzip data");
    if (rc) return rc;
  }
  if (ferror(in)) return pcol_error_set(j->err, PCOL_EIO, "%s: read error", j->name);
  return PCOL_OK;
}

int ffj_read(ffj *j, FILE *in, const char *name, const pcol_import_options *opt, pcol_error *err) {
  j->name = name;
  j->err = err;
  j->root = NULL;
  pcol_buf buf = {0};
  int rc = read_all(j, in, opt, &buf);
  if (rc) {
    pcol_buf_free(&buf);
    return rc;
  }
  if (!buf.len) {
    pcol_buf_free(&buf);
    return ffj_fail(j, "empty input");
  }
  json_error_t je;
  j->root = json_loadb((const char *)buf.data, buf.len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je); /* names may hold NUL (pprof's do) */
  pcol_buf_free(&buf);
  if (!j->root) return pcol_error_set(err, PCOL_ECORRUPT, "%s:%d:%d: invalid JSON: %s", name, je.line,
                                      je.column, je.text);
  if (!json_is_object(j->root)) {
    json_decref(j->root);
    j->root = NULL;
    return pcol_error_set(err, PCOL_EFORMAT, "%s: not a Firefox profile (not a JSON object)", name);
  }
  return PCOL_OK;
}

void ffj_free(ffj *j) {
  if (j->root) json_decref(j->root);
  j->root = NULL;
}

int ffj_array(ffj *j, json_t *obj, const char *key, const char *path, json_t **out) {
  *out = json_object_get(obj, key);
  if (!json_is_array(*out)) return ffj_fail(j, "%s%s%s: missing or not an array", path, *path ? "." : "", key);
  return PCOL_OK;
}

size_t ffj_len(json_t *table) {
  json_t *l = json_object_get(table, "length");
  return json_is_integer(l) && json_integer_value(l) > 0 ? (size_t)json_integer_value(l) : 0;
}

int ffj_table(ffj *j, json_t *obj, const char *key, const char *path, json_t **out, size_t *len) {
  *out = json_object_get(obj, key);
  json_t *l = json_object_get(*out, "length");
  if (!json_is_object(*out)) return ffj_fail(j, "%s.%s: missing or not an object", path, key);
  if (!json_is_integer(l) || json_integer_value(l) < 0)
    return ffj_fail(j, "%s.%s.length: missing or not a whole number >= 0", path, key);
  *len = (size_t)json_integer_value(l);
  return PCOL_OK;
}

int ffj_column(ffj *j, json_t *table, const char *key, size_t n, const char *path, json_t **out) {
  *out = json_object_get(table, key);
  if (!json_is_array(*out)) return ffj_fail(j, "%s: column %s missing or not an array", path, key);
  if (json_array_size(*out) < n)
    return ffj_fail(j, "%s: column %s has %zu entries for length %zu", path, key, json_array_size(*out), n);
  return PCOL_OK;
}

int ffj_index(ffj *j, json_t *v, size_t n, const char *path, const char *what, size_t *out) {
  if (!v) return ffj_fail(j, "%s: missing", path);
  if (!json_is_integer(v)) return ffj_fail(j, "%s: not an index", path);
  json_int_t i = json_integer_value(v);
  if (i < 0 || (uint64_t)i >= n)
    return ffj_fail(j, "%s: index %lld is out of range (%s has %zu rows)", path, (long long)i, what, n);
  *out = (size_t)i;
  return PCOL_OK;
}

int ffj_prefix(ffj *j, json_t *stacks, int version, size_t s, const char *path, size_t *parent,
               int *root) {
  *root = 0;
  *parent = 0;
  if (version >= 66) {
    json_t *o = ffj_col(stacks, "prefixOffset", s);
    if (!json_is_integer(o) || json_integer_value(o) < 0 || (uint64_t)json_integer_value(o) > s)
      return ffj_fail(j, "%s.stackTable.prefixOffset[%zu]: not an offset between 0 and %zu", path, s, s);
    if (!json_integer_value(o)) *root = 1;
    else *parent = s - (size_t)json_integer_value(o);
    return PCOL_OK;
  }
  json_t *p = ffj_col(stacks, "prefix", s);
  if (json_is_null(p)) {
    *root = 1;
    return PCOL_OK;
  }
  if (!json_is_integer(p) || json_integer_value(p) < 0 || (uint64_t)json_integer_value(p) >= s)
    return ffj_fail(j, "%s.stackTable.prefix[%zu]: not null or a stack before %zu", path, s, s);
  *parent = (size_t)json_integer_value(p);
  return PCOL_OK;
}
