/* test_json_pull.c — the streaming JSON tokenizer (lib/convert/json_pull.c)
 * against jansson, whose json_loadb with JSON_REJECT_DUPLICATES it replaces
 * in the V8 and speedscope importers: on documents written here and on
 * thousands of mutations of them, both accept or both refuse, and what they
 * accept reads the same (every token: kind, decoded bytes, number). */
#include "testutil.h"
#include "json_pull.h"
#include <jansson.h>
#include <stdio.h>

typedef struct sb { char *p; size_t n, cap; } sb;
static void put(sb *s, const void *d, size_t n) {
  if (s->n + n + 1 > s->cap) {
    s->cap = (s->n + n + 1) * 2;
    s->p = realloc(s->p, s->cap);
  }
  memcpy(s->p + s->n, d, n);
  s->n += n;
  s->p[s->n] = 0;
}
static void puts_(sb *s, const char *t) { put(s, t, strlen(t)); }
static void put_str(sb *s, const char *p, size_t n) { /* bytes as hex: NULs and all */
  char h[4];
  puts_(s, "\"");
  for (size_t i = 0; i < n; i++) snprintf(h, sizeof h, "%02x", (unsigned char)p[i]), put(s, h, 2);
  puts_(s, "\"");
}
static void put_num(sb *s, int is_int, long long i, double d) {
  char t[64];
  if (is_int) snprintf(t, sizeof t, "i%lld", i);
  else snprintf(t, sizeof t, "r%.17g", d);
  puts_(s, t);
}

/* jansson's tree in the token form below */
static void tree(sb *s, json_t *j) {
  switch (json_typeof(j)) {
  case JSON_OBJECT: {
    puts_(s, "{");
    const char *k;
    size_t kl;
    json_t *v;
    json_object_keylen_foreach(j, k, kl, v) {
      puts_(s, "K");
      put_str(s, k, kl);
      tree(s, v);
    }
    puts_(s, "}");
    break;
  }
  case JSON_ARRAY:
    puts_(s, "[");
    for (size_t i = 0; i < json_array_size(j); i++) tree(s, json_array_get(j, i));
    puts_(s, "]");
    break;
  case JSON_STRING: put_str(s, json_string_value(j), json_string_length(j)); break;
  case JSON_INTEGER: put_num(s, 1, (long long)json_integer_value(j), 0); break;
  case JSON_REAL: put_num(s, 0, 0, json_real_value(j)); break;
  case JSON_TRUE: puts_(s, "t"); break;
  case JSON_FALSE: puts_(s, "f"); break;
  case JSON_NULL: puts_(s, "n"); break;
  }
}

/* 1 accepted (*out the tokens), 0 refused */
static int pull(const char *doc, size_t n, unsigned flags, sb *out) {
  FILE *in = fmemopen((void *)doc, n ? n : 1, "r");
  if (!n) { /* fmemopen needs a size: an empty stream */
    fclose(in);
    in = fopen("/dev/null", "r");
  }
  pcol_jpull j;
  pcol_error err = {0};
  int rc = pcol_jp_open(&j, in, "t.json", NULL, flags, &err);
  while (!rc && !(rc = pcol_jp_next(&j)) && j.tok != PCOL_JT_EOF) {
    switch (j.tok) {
    case PCOL_JT_OBJ: puts_(out, "{"); break;
    case PCOL_JT_OBJ_END: puts_(out, "}"); break;
    case PCOL_JT_ARR: puts_(out, "["); break;
    case PCOL_JT_ARR_END: puts_(out, "]"); break;
    case PCOL_JT_KEY: puts_(out, "K"); put_str(out, j.str, j.len); break;
    case PCOL_JT_STR: put_str(out, j.str, j.len); break;
    case PCOL_JT_INT: put_num(out, 1, (long long)j.i, 0); break;
    case PCOL_JT_REAL: put_num(out, 0, 0, j.d); break;
    case PCOL_JT_TRUE: puts_(out, "t"); break;
    case PCOL_JT_FALSE: puts_(out, "f"); break;
    case PCOL_JT_NULL: puts_(out, "n"); break;
    default: break;
    }
  }
  if (rc) cr_assert(strstr(err.message, "t.json:") == err.message, "message without the file: %s", err.message);
  pcol_jp_close(&j);
  fclose(in);
  return rc == 0;
}

static int checked;
static void same(const char *doc, size_t n, unsigned flags) {
  json_error_t je;
  json_t *t = json_loadb(doc, n, JSON_REJECT_DUPLICATES | (flags ? JSON_ALLOW_NUL : 0), &je);
  sb a = {0}, b = {0};
  int ok = pull(doc, n, flags, &b);
  /* jansson 2.14 also takes a NUL byte right after a number or literal
   * ("[1\0]", perun/json_scan.h): the tokenizer refuses it, rightly */
  if (t && !ok && memchr(doc, 0, n)) {
    json_decref(t);
    free(b.p);
    return;
  }
  cr_assert_eq(!!t, ok, "jansson %s, json_pull %s: %.*s", t ? "accepts" : je.text, ok ? "accepts" : "refuses",
               (int)(n > 300 ? 300 : n), doc);
  if (t) {
    tree(&a, t);
    cr_assert_str_eq(a.p ? a.p : "", b.p ? b.p : "", "tokens differ on %.*s", (int)(n > 300 ? 300 : n), doc);
    json_decref(t);
  }
  checked++;
  free(a.p), free(b.p);
}

static const char *seeds[] = {
    "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1},"
    "\"children\":[2]},{\"id\":2,\"callFrame\":{\"functionName\":\"f\\u00e9\\ud83d\\ude00\\n\",\"url\":\"x\"}}],"
    "\"startTime\":1.5e3,\"samples\":[2,2,1],\"timeDeltas\":[1,-2,3e-2]}",
    "[true,false,null,0,-0,1.25,-1E+2,1e-400,9223372036854775807,-9223372036854775808,\"\\\"\\\\\\/\\b\\f\\n\\r\\t\","
    "{\"a\":{\"a\":[]},\"b\":{}}, \"caf\xc3\xa9 \xf0\x9f\x98\x80\"]",
    " \n\t{\"$schema\":\"s\",\"profiles\":[{\"type\":\"evented\",\"events\":[{\"type\":\"O\",\"frame\":0,\"at\":0.5}]}],"
    "\"shared\":{\"frames\":[{\"name\":\"a\",\"line\":3}]}}\r\n",
};

static const char *pieces[] = {"", "0", "-", "01", "1.", ".5", "1e", "1e5", "1E400", "-1e400", "99999999999999999999",
                               "-9223372036854775809", "\"", "\\", "\\u", "\\u0000", "\\ud800", "\\udc00", "\\ud800\\udc00",
                               "\\x", "\x01", "\x7f", "\xc3", "\xc3\xa9", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                               "\xff", "tru", "true", "nulll", "[", "]", "{", "}", ":", ",", ",,", "\"a\":1", "\"a\"",
                               " ", "\n", "\0", "[]", "{}", "Infinity", "NaN"};

Test(json_pull, agrees_with_jansson_on_mutations) {
  unsigned seed = 29;
  for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
    const char *base = seeds[s];
    size_t bl = strlen(base);
    same(base, bl, 0);
    same(base, bl, 1);
    for (int k = 0; k < 3000; k++) {
      char buf[1024];
      size_t at = (size_t)rand_r(&seed) % (bl + 1), cut = (size_t)rand_r(&seed) % 4;
      if (at + cut > bl) cut = bl - at;
      const char *pc = pieces[(size_t)rand_r(&seed) % (sizeof pieces / sizeof pieces[0])];
      size_t pl = strcmp(pc, "\0") ? strlen(pc) : 1;
      if (!*pc && (k & 1)) pl = 1; /* the empty piece doubles as a NUL byte */
      memcpy(buf, base, at);
      memcpy(buf + at, pl == 1 && !*pc ? "\0" : pc, pl);
      memcpy(buf + at + pl, base + at + cut, bl - at - cut);
      size_t n = bl - cut + pl;
      if (k % 7 == 0) n = (size_t)rand_r(&seed) % (n + 1); /* truncated */
      same(buf, n, k & 2 ? 1 : 0);
    }
  }
  cr_assert(checked > 8000, "%d documents compared", checked);
}

Test(json_pull, nesting_and_duplicates_as_jansson) {
  static char d[8192];
  for (int depth = 2046; depth <= 2049; depth++) {
    for (int scalar = 0; scalar < 2; scalar++) {
      size_t n = 0;
      for (int i = 0; i < depth; i++) d[n++] = '[';
      if (scalar) d[n++] = '1';
      for (int i = 0; i < depth; i++) d[n++] = ']';
      same(d, n, 0);
    }
  }
  /* a wide object: the hash index of its keys */
  sb w = {0};
  puts_(&w, "{");
  for (int i = 0; i < 300; i++) {
    char k[32];
    snprintf(k, sizeof k, "%s\"k%d\":%d", i ? "," : "", i, i);
    puts_(&w, k);
  }
  size_t open_len = w.n;
  puts_(&w, "}");
  same(w.p, w.n, 0);
  w.n = open_len;
  puts_(&w, ",\"k123\":0}");
  same(w.p, w.n, 0);
  free(w.p);
  same("{\"a\":{\"b\":1},\"c\":{\"b\":1}}", 25, 0);
  same("{\"a\":{\"b\":1,\"b\":2}}", 19, 0);
}

Test(json_pull, strings_across_the_buffer_end) {
  /* escapes, UTF-8 and runs split by every 64 KiB refill */
  size_t n = (size_t)200 << 10;
  char *d = malloc(n + 16);
  size_t k = 0;
  d[k++] = '[';
  d[k++] = '"';
  const char *unit[] = {"ab", "\\n", "\\u00e9", "\xc3\xa9", "\xf0\x9f\x98\x80", "\\ud83d\\ude00", "\\\""};
  for (size_t i = 0; k < n; i++) {
    const char *u = unit[i % 7];
    memcpy(d + k, u, strlen(u));
    k += strlen(u);
  }
  d[k++] = '"';
  d[k++] = ']';
  same(d, k, 0);
  for (size_t off = (64 << 10) - 3; off < (64 << 10) + 3; off++) { /* a token on the boundary */
    sb s = {0};
    puts_(&s, "[\"");
    while (s.n < off) puts_(&s, "x");
    puts_(&s, "\",-12.5e1,\"\\u00e9\xc3\xa9\",true]");
    same(s.p, s.n, 0);
    free(s.p);
  }
  free(d);
}

/* PCOL_JP_BIG_INTS (the Chrome trace reader): an integer past int64_t is a
 * real, as JSON.parse reads it; without the flag it is jansson's error. */
Test(json_pull, big_integers_as_reals_when_asked) {
  const char *doc = "[18446744064077150000,-9223372036854775809,9223372036854775807,1e999]";
  for (int flag = 0; flag <= 1; flag++) {
    FILE *f = fmemopen((void *)(uintptr_t)doc, strlen(doc), "rb");
    pcol_jpull j;
    pcol_error err = {0};
    cr_assert_eq(pcol_jp_open(&j, f, "doc", NULL, flag ? PCOL_JP_BIG_INTS : 0, &err), 0);
    cr_assert_eq(pcol_jp_next(&j), 0);
    cr_assert_eq(j.tok, PCOL_JT_ARR);
    int rc = pcol_jp_next(&j);
    if (!flag) {
      cr_assert_neq(rc, 0);
      cr_assert(strstr(err.message, "too big integer"), "%s", err.message);
    } else {
      cr_assert_eq(rc, 0);
      cr_assert_eq(j.tok, PCOL_JT_REAL);
      cr_assert_float_eq(j.d, 18446744064077150000.0, 1e4);
      cr_assert_eq(pcol_jp_next(&j), 0);
      cr_assert_eq(j.tok, PCOL_JT_REAL);
      cr_assert(j.d < -9.2e18);
      cr_assert_eq(pcol_jp_next(&j), 0);
      cr_assert_eq(j.tok, PCOL_JT_INT); /* INT64_MAX still fits */
      cr_assert_eq(j.i, INT64_MAX);
      cr_assert_neq(pcol_jp_next(&j), 0); /* 1e999: a real's overflow, refused either way */
      cr_assert(strstr(err.message, "real number overflow"), "%s", err.message);
    }
    pcol_jp_close(&j);
    fclose(f);
  }
}

/* ------------------------------------------------ a time read from its text */
#include "v8_profile.h" /* pcol_v8_time_us */
#include <math.h>

/* THE rule of a time read from JSON (pcol_v8_time_us): the number's exact
 * decimal value in ns, rounded half away from zero, from its text (a
 * double holds an epoch's µs, 1.7e15, 0.25 µs apart), and what it has
 * more.  Each number is written here from an integer m and a scale k
 * (m * 10^-k µs), in three forms ("123.456", "123456e-3",
 * "1.23456E+2"); the ns wanted are m * 10^(3-k) rounded with __int128
 * division, not by any parsing. */
static uint64_t trnd(uint64_t *s) { /* xorshift */
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return *s;
}

static void v8_time_case(long long m, int k, int form) {
  char t[96], dg[40];
  int n = snprintf(dg, sizeof dg, "%lld", m < 0 ? -m : m), o = 0;
  if (m < 0) t[o++] = '-';
  if (form == 0) { /* plain: the point k digits from the end (zeros before it) */
    if (k >= n) {
      o += snprintf(t + o, sizeof t - o, "0.");
      for (int i = n; i < k; i++) t[o++] = '0';
      snprintf(t + o, sizeof t - o, "%s", dg);
    } else if (k > 0) {
      snprintf(t + o, sizeof t - o, "%.*s.%s", n - k, dg, dg + n - k);
    } else {
      snprintf(t + o, sizeof t - o, "%s.0", dg);
    }
  } else if (form == 1) {
    snprintf(t + o, sizeof t - o, "%se-%d", dg, k);
  } else {
    snprintf(t + o, sizeof t - o, "%c.%sE%+d", dg[0], n > 1 ? dg + 1 : "0", n - 1 - k);
  }
  __int128 num = (__int128)m, den = 1; /* the ns: num / den */
  for (int i = 3; i < k; i++) den *= 10;
  for (int i = k; i < 3; i++) num *= 10;
  __int128 q = num / den, r = num % den; /* toward zero */
  __int128 a = r < 0 ? -r : r;
  if (2 * a >= den) q += m < 0 ? -1 : 1, r += m < 0 ? den : -den;
  char doc[128];
  snprintf(doc, sizeof doc, "[%s]", t);
  FILE *f = fmemopen(doc, strlen(doc), "rb");
  pcol_jpull j;
  pcol_error err = {0};
  cr_assert_eq(pcol_jp_open(&j, f, "doc", NULL, 0, &err), 0);
  cr_assert_eq(pcol_jp_next(&j), 0);
  cr_assert_eq(pcol_jp_next(&j), 0, "%s: %s", t, err.message);
  int64_t whole = 0;
  int frac = 0;
  double sub = 0;
  int64_t sub18 = 0;
  cr_assert_eq(pcol_v8_time_us(&j, 9e18, &whole, &frac, &sub, &sub18), 0, "%s: refused", t);
  /* (den divides 10^18: k <= 21 decimals) */
  cr_assert(sub18 == (int64_t)(r * (1000000000000000000LL / den)), "%s: %lld e-18 ns more, want %lld", t,
            (long long)sub18, (long long)(r * (1000000000000000000LL / den)));
  __int128 got = (__int128)whole * 1000 + frac;
  cr_assert(got == q, "%s: %lld µs %d ns, want %lld ns", t, (long long)whole, frac, (long long)q);
  cr_assert(frac > -1000 && frac < 1000 && (!whole || !frac || (whole < 0) == (frac < 0)), "%s: frac %d", t, frac);
  double want_sub = (double)r / (double)den;
  cr_assert(fabs(sub - want_sub) <= 1e-12 && fabs(sub) <= 0.5, "%s: %.17g ns more, want %.17g", t, sub, want_sub);
  pcol_jp_close(&j);
  fclose(f);
}

Test(json_pull, v8_times_exact_from_the_text) {
  /* an epoch's µs with a fraction: the double is 124 ns off */
  v8_time_case(1733000000123456124LL, 3, 0);
  v8_time_case(1733000000123451245LL, 4, 0);           /* ...45.1245: 125 ns (half away from zero) */
  v8_time_case(-1733000000123451245LL, 4, 2);
  v8_time_case(5, 4, 0);                                /* 0.0005: 1 ns */
  v8_time_case(20005, 4, 0);                            /* 2.0005: 2001 ns (the double is below the half) */
  v8_time_case(4, 4, 1);                                /* 0.0004: 0 ns, 0.4 more */
  uint64_t s = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 20000; i++) { /* 1 to 18 digits, 0 to 21 of them decimals */
    int digits = 1 + (int)(trnd(&s) % 18);
    long long m = 1 + (long long)(trnd(&s) % 9); /* a leading digit that is no zero */
    for (int d = 1; d < digits; d++) m = m * 10 + (long long)(trnd(&s) % 10);
    int k = (int)(trnd(&s) % 22);
    if (trnd(&s) & 1) m = -m;
    v8_time_case(m, k, (int)(trnd(&s) % 3));
  }
}

/* A number's text of any length (review h7 M1: an exponent held to 1e5
 * while the digits before the point were counted on: a delta of
 * 0.<999,999 zeros>1e1000005 µs, 1e5 µs, read as 0, exit 0): read to the
 * ns, or as the double reads it; never the time of another number. */
static void v8_long_case(const char *head, char fill, size_t nfill, const char *tail, long long want_ns,
                         double want_sub) {
  size_t hl = strlen(head), tl = strlen(tail), len = 1 + hl + nfill + tl + 1;
  char *doc = malloc(len + 1);
  cr_assert(doc);
  doc[0] = '[';
  memcpy(doc + 1, head, hl);
  memset(doc + 1 + hl, fill, nfill);
  memcpy(doc + 1 + hl + nfill, tail, tl);
  doc[len - 1] = ']', doc[len] = 0;
  FILE *f = fmemopen(doc, len, "rb");
  pcol_jpull j;
  pcol_error err = {0};
  cr_assert_eq(pcol_jp_open(&j, f, "doc", NULL, 0, &err), 0);
  cr_assert_eq(pcol_jp_next(&j), 0);
  cr_assert_eq(pcol_jp_next(&j), 0, "%s...%s: %s", head, tail, err.message);
  int64_t whole = 0;
  int frac = 0;
  double sub = 0;
  cr_assert_eq(pcol_v8_time_us(&j, 9e18, &whole, &frac, &sub, NULL), 0, "%s...%s: refused", head, tail);
  long long got = (long long)whole * 1000 + frac;
  cr_assert_eq(got, want_ns, "%s<%zu x %c>%s: %lld ns, want %lld", head, nfill, fill, tail, got, want_ns);
  cr_assert(fabs(sub - want_sub) <= 1e-12, "%s...%s: %.17g ns more, want %.17g", head, tail, sub, want_sub);
  pcol_jp_close(&j);
  fclose(f);
  free(doc);
}

Test(json_pull, v8_times_of_long_texts) {
  v8_long_case("0.", '0', 999999, "1e1000005", 100000000LL, 0);  /* 1e5 µs */
  v8_long_case("1", '0', 1000000, "e-1000005", 0, 0.01);        /* 1e-5 µs: 0.01 ns */
  v8_long_case("25", '0', 1000000, "e-1000001", 2500, 0);        /* 2.5 µs */
  v8_long_case("-3.", '0', 70, "1", -3000, 0);                   /* 71 decimals */
  v8_long_case("0e", '9', 30, "", 0, 0);                         /* 0e999...: 0 */
  v8_long_case("0.", '0', 30, "e99999999999999999999", 0, 0);   /* 0.000e<huge>: 0 */
}

/* ------------------------------------------------ json_tree.c's arrays */
#include "json_tree.h"

static uint64_t rnd(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return *s;
}

static void same_value(const pcol_jtree *t, pcol_jv v, json_t *j, const char *where) {
  if (json_is_integer(j)) {
    cr_assert(pcol_jt_is_int(v), "%s: not an integer", where);
    cr_assert_eq(pcol_jt_int(t, v), json_integer_value(j), "%s: %lld, want %lld", where,
                 (long long)pcol_jt_int(t, v), (long long)json_integer_value(j));
  } else if (json_is_real(j)) {
    cr_assert_eq(pcol_jt_kind(v), PCOL_JK_REAL, "%s: not a real", where);
    double a = pcol_jt_num(t, v), b = json_real_value(j);
    cr_assert(memcmp(&a, &b, sizeof a) == 0, "%s: %.17g, want %.17g", where, a, b);
  } else if (json_is_string(j)) {
    cr_assert(pcol_jt_is_str(v) && !strcmp(pcol_jt_str(t, v), json_string_value(j)), "%s: string", where);
  } else if (json_is_array(j)) {
    cr_assert(pcol_jt_is_arr(v), "%s: not an array", where);
    cr_assert_eq(pcol_jt_size(t, v), json_array_size(j), "%s: size", where);
    cr_assert_eq(pcol_jt_at(t, v, json_array_size(j)), 0, "%s: an element past the end", where);
    for (size_t i = 0; i < json_array_size(j); i++) {
      char w[256];
      snprintf(w, sizeof w, "%s[%zu]", where, i);
      same_value(t, pcol_jt_at(t, v, i), json_array_get(j, i), w);
    }
  } else if (json_is_object(j)) {
    cr_assert(pcol_jt_is_obj(v), "%s: not an object", where);
    const char *k;
    json_t *e;
    json_object_foreach(j, k, e) {
      char w[256];
      snprintf(w, sizeof w, "%s.%s", where, k);
      same_value(t, pcol_jt_get(t, v, k), e, w);
    }
  } else {
    cr_assert(pcol_jt_is_null(v) == json_is_null(j) && pcol_jt_is_bool(v) == json_is_boolean(j), "%s: literal",
              where);
  }
}

/* Arrays of numbers are stored apart (small integers as int32, the rest as
 * doubles with integers boxed in NaNs) and read back element by element as
 * the words they were: integers at every boundary (int32, 2^50, 2^60,
 * int64), reals, -0.0, arrays mixing them with strings or containers, in
 * objects and arrays, empty ones — each the same as jansson reads it. */
Test(json_tree, numeric_arrays_read_as_written) {
  static const char *const fixed[] = {
      "[[1,2,-3],[0.5,1,2.5],[2147483647,-2147483648],[2147483648,1],[-2147483649,0.25]]",
      "[[1125899906842623,-1125899906842624],[1125899906842624,1],[-1125899906842625,2.5],[1152921504606846976]]",
      "[[9223372036854775807,-9223372036854775808,0.5],[-0.0,0,-0.0],[1e3,2],[1,\"a\",2],[[1],2],[],[[]],[3,{}]]",
      "{\"a\":[0,0,0.1,0],\"b\":{\"c\":[1.5,2.5],\"d\":[7]},\"e\":[1,[2.5,3],4.5],\"f\":[0.5,[1,2],0.25]}",
  };
  uint64_t s = 12345;
  for (int round = 0; round < 300; round++) {
    char *doc = NULL;
    size_t len = 0;
    if (round < (int)(sizeof fixed / sizeof *fixed)) {
      doc = strdup(fixed[round]);
      len = strlen(doc);
    } else { /* arrays of numbers of every magnitude, some mixed, some nested */
      FILE *o = open_memstream(&doc, &len);
      fputc('[', o);
      for (int a = 0; a < 6; a++) {
        fputs(a ? ",[" : "[", o);
        int n = (int)(rnd(&s) % 40);
        for (int k = 0; k < n; k++) {
          if (k) fputc(',', o);
          uint64_t r = rnd(&s);
          switch (r % 9) {
          case 0: fprintf(o, "%d", (int)(r >> 40) % 1000 - 500); break;
          case 1: fprintf(o, "%lld", (long long)(r >> 8) * ((r & 16) ? -1 : 1)); break;
          case 2: fprintf(o, "%lld", ((long long)1 << 50) - 2 + (long long)(r >> 62) - ((r & 32) ? ((long long)1 << 51) - 1 : 0)); break;
          case 3: fprintf(o, "%.17g", (double)(int64_t)r / 1e6); break;
          case 4: fprintf(o, "%lld", (long long)(int32_t)(r >> 32)); break;
          case 5: fprintf(o, "%lld", (long long)2147483647 + (long long)(r % 3)); break;
          case 6: fputs(r & 64 ? "\"s\"" : "[1,2.5]", o); break;
          default: fprintf(o, "%u", (unsigned)(r >> 50)); break;
          }
        }
        fputc(']', o);
      }
      fputc(']', o);
      fclose(o);
    }
    json_error_t je;
    json_t *want = json_loadb(doc, len, 0, &je);
    cr_assert_not_null(want, "round %d: jansson: %s\n%s", round, je.text, doc);
    FILE *in = fmemopen(doc, len, "rb");
    pcol_jpull jp;
    pcol_error err = {0};
    cr_assert_eq(pcol_jp_open(&jp, in, "t", NULL, 0, &err), 0);
    pcol_jtree t;
    cr_assert_eq(pcol_jtree_build(&t, &jp, NULL, NULL), 0, "round %d: %s", round, err.message);
    pcol_jp_close(&jp);
    fclose(in);
    char where[16];
    snprintf(where, sizeof where, "#%d", round);
    same_value(&t, t.root, want, where);
    pcol_jtree_free(&t);
    json_decref(want);
    free(doc);
  }
}

/* ------------------------------------------ THE rule of joining warnings */
#include "error.h" /* pcol_warn_add */

/* Another file's warning is not taken for one said (review h7 M2:
 * "a.cpuprofile: X" inside "data.cpuprofile: X"), one said is not said
 * again, and those that do not fit are counted, every one said whole
 * (review h7 L4: the last one said was cut to make room for the count). */
Test(json_pull, warnings_joined_whole) {
  pcol_error e = {0};
  pcol_warn_add(&e, "%s", "data.cpuprofile: X");
  pcol_warn_add(&e, "%s", "a.cpuprofile: X");
  cr_assert_str_eq(e.message, "data.cpuprofile: X; a.cpuprofile: X");
  pcol_warn_add(&e, "%s", "a.cpuprofile: X");
  pcol_warn_add(&e, "%s", "data.cpuprofile: X");
  cr_assert_str_eq(e.message, "data.cpuprofile: X; a.cpuprofile: X");
  for (int len = 60; len <= 200; len += 7) {
    pcol_error w = {0};
    char add[12][256];
    for (int i = 0; i < 12; i++) {
      int n = snprintf(add[i], sizeof add[i], "w%d: ", i);
      memset(add[i] + n, 'x', (size_t)(len - n));
      add[i][len] = 0;
      pcol_warn_add(&w, "%s", add[i]);
    }
    /* its parts: warnings said whole, in order, then the count */
    char m[sizeof w.message];
    memcpy(m, w.message, sizeof m);
    int said = 0;
    unsigned long long more = 0;
    for (char *p = m, *q; p; p = q) {
      q = strstr(p, "; ");
      if (q) *q = 0, q += 2;
      if (sscanf(p, "and %llu more warning", &more) == 1) {
        cr_assert_null(q, "len %d: the count not last: %s", len, w.message);
        break;
      }
      cr_assert(said < 12 && !strcmp(p, add[said]), "len %d: part %d not warning %d whole: %s", len, said, said,
                w.message);
      said++;
    }
    cr_assert_eq(said + (int)more, 12, "len %d: %d said, %llu counted: %s", len, said, more, w.message);
    cr_assert(said >= 1 && strlen(w.message) < sizeof w.message, "len %d: %s", len, w.message);
  }
}
