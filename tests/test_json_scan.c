/* test_json_scan.c — lib/json_scan.c against jansson 2.14's default parser.
 *
 * A hand-written corpus of tricky texts, each with the verdict both parsers
 * must give: the scanner (pcol_js_value + pcol_js_end) accepts exactly what
 * json_loadb(JSON_DECODE_ANY) accepts.  The one documented difference,
 * numbers out of jansson's range, has its own test.  Every text also goes
 * through the fuzz target's checks (fuzz/fuzz_json_scan.c: begin/next walk,
 * value slices, keys), as do every prefix and many one-byte mutations of a
 * document using every construct.  Then the container API, slices and
 * pcol_js_line_col one by one. */
#include "testutil.h"
#define FZ_JS_NO_ENTRY
#include "fuzz_json_scan.c"
#include <dirent.h>
#include <stdio.h>

typedef struct {
  const char *text;
  size_t len;
  int ok; /* 1: both accept, 0: both refuse, 2: jansson only (see JONLY) */
} jcase;

/* sizeof - 1: the length of a literal, embedded NULs included */
#define OK(s) {s, sizeof(s) - 1, 1}
#define BAD(s) {s, sizeof(s) - 1, 0}
/* jansson 2.14 loses a NUL byte right after a number or a literal (its
 * lexer pushes the look-ahead back into a NUL-terminated buffer), so it
 * accepts these; the scanner refuses them (documented in json_scan.h). */
#define JONLY(s) {s, sizeof(s) - 1, 2}

static const jcase corpus[] = {
    /* ---- numbers */
    OK("0"), OK("-0"), OK("1"), OK("-1"), OK("1234567890"), OK("1.5"), OK("-1.5e10"), OK("1E5"),
    OK("1e+5"), OK("1e-5"), OK("0.0"), OK("0e0"), OK("-0.0e-0"), OK("0E+00"), OK("1e-400"),
    OK("9223372036854775807"), OK("-9223372036854775808"), OK("1.7976931348623157e308"),
    OK("[0,-0,0.5,-0.5e-3]"),
    BAD("-"), BAD("+1"), BAD("01"), BAD("-01"), BAD("00"), BAD("1."), BAD(".5"), BAD("-.5"),
    BAD("1.e5"), BAD("1e"), BAD("1e+"), BAD("1E-"), BAD("1e1.5"), BAD("--1"), BAD("0x10"),
    BAD("1 2"), BAD("1.5."), BAD("[01]"), BAD("[1.]"),
    BAD("[-]"), BAD("{\"a\":1e}"), BAD("- 1"), BAD("1_000"),
    /* ---- Python's non-finite numbers (json_scan.h, perun_json.h) */
    OK("NaN"), OK("Infinity"), OK("-Infinity"), OK("[NaN,-Infinity,{\"a\":Infinity}]"), OK(" NaN "),
    OK("{\"NaN\":\"Infinity\"}"), OK("[\"-Infinity\",NaN]"),
    BAD("nan"), BAD("NAN"), BAD("-NaN"), BAD("+Infinity"), BAD("infinity"), BAD("Inf"), BAD("-Inf"),
    BAD("NaNa"), BAD("Infinity1"), BAD("[NaN NaN]"), BAD("{NaN:1}"), BAD("{\"a\":1,Infinity:2}"),
    BAD("[-Infinit]"), BAD("- Infinity"), BAD("[\"\\u0000\",NaN]"), BAD("NaN\0"), BAD("[Infinity\0]"),
    /* ---- literals */
    OK("true"), OK("false"), OK("null"), OK("[true,false,null]"),
    BAD("truex"), BAD("true1"), BAD("tru"), BAD("t"), BAD("nul"), BAD("nulll"), BAD("True"), BAD("NULL"),
    BAD("fals"), BAD("falsee"), BAD("[truex]"), BAD("[nul]"), BAD("undefined"),
    /* ---- strings: escapes */
    OK("\"\""), OK("\"abc\""), OK("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""), OK("\"\\u0041\""), OK("\"\\u00e9\""),
    OK("\"\\u00E9\""), OK("\"\\uFFFF\""), OK("\"\\uffFe\""), OK("\"\\u0001\""), OK("\"\\u001f\""),
    OK("\"\\ud83d\\ude00\""), OK("\"\\uD83D\\uDE00\""), OK("\"\\uDBFF\\uDFFF\""), OK("\"\\uD800\\uDC00\""),
    BAD("\"\\u0000\""), BAD("\"a\\u0000b\""), BAD("{\"\\u0000\":1}"), BAD("\"\\x\""), BAD("\"\\u\""),
    BAD("\"\\u12\""), BAD("\"\\u12G4\""), BAD("\"\\U0041\""), BAD("\"\\'\""), BAD("\"\\0\""), BAD("\"\\a\""),
    BAD("\"\\ud800\""), BAD("\"\\udc00\""), BAD("\"\\uDFFF\""), BAD("\"\\ud800\\ud800\""),
    BAD("\"\\ud800x\""), BAD("\"\\ud800\\u0041\""), BAD("\"\\udc00\\ud800\""), BAD("\"\\ud800\\\""),
    BAD("\"\\ud800\\u\""), BAD("\"\\ud800\\udc0\""), BAD("\"\\ud800\\n\""), BAD("\"\\ud800\\\\udc00\""),
    BAD("\"\\"), BAD("\"\\u00"), BAD("\"\\ud800\\udc00"),
    /* ---- strings: raw bytes */
    OK("\"\x7f\""), OK("\"\xc3\xa9\""), OK("\"\xe2\x82\xac\""), OK("\"\xf0\x9f\x98\x80\""),
    OK("\"\xf4\x8f\xbf\xbf\""), OK("\"\xef\xbf\xbf\""), OK("\"\xee\x80\x80\""), OK("\"\xed\x9f\xbf\""),
    OK("\"\xc2\x80\""), OK("\"\xe0\xa0\x80\""), OK("\"\xf0\x90\x80\x80\""),
    BAD("\"a\x01\""), BAD("\"\t\""), BAD("\"\n\""), BAD("\"\r\""), BAD("\"\x1f\""), BAD("\"a\0b\""),
    BAD("\"\xc0\x80\""), BAD("\"\xc1\xbf\""), BAD("\"\xe0\x80\x80\""), BAD("\"\xe0\x9f\xbf\""),
    BAD("\"\xf0\x80\x80\x80\""), BAD("\"\xf0\x8f\xbf\xbf\""), BAD("\"\xed\xa0\x80\""), BAD("\"\xed\xbf\xbf\""),
    BAD("\"\xf4\x90\x80\x80\""), BAD("\"\xf5\x80\x80\x80\""), BAD("\"\xf8\x88\x80\x80\x80\""), BAD("\"\xff\""),
    BAD("\"\xfe\""), BAD("\"\x80\""), BAD("\"\xbf\""), BAD("\"\xc3\""), BAD("\"\xe2\x82\""),
    BAD("\"\xf0\x9f\x98\""), BAD("\"\xc3\x28\""), BAD("\"\xe2\x28\xa1\""), BAD("\"\xf0\x9f\x28\x80\""),
    BAD("\"\xc3"), BAD("\"abc"), BAD("\""), BAD("\"\\\""), BAD("\xc3\xa9"), BAD("\xef\xbb\xbf" "1"),
    /* ---- containers */
    OK("[]"), OK("{}"), OK("[ ]"), OK(" { } "), OK("[1,2,3]"), OK("{\"a\":1,\"b\":[true,false,null]}"),
    OK("{\"a\":1,\"a\":2}"), OK("[[[]]]"), OK("{\"\":\"\"}"), OK("[1,{\"x\":[{}]}]"),
    OK("{ \"a\" : [ 1 , { \"b\" : null } ] , \"c\" : \"d\" }"), OK("[\"a\",\"b\"]"), OK("[[],{},[{}]]"),
    OK("{\"\\u00e9\\n\":1,\"\xc3\xa9\\n\":2}"),
    BAD("["), BAD("]"), BAD("{"), BAD("}"), BAD("[1"), BAD("[1,"), BAD("[1,]"), BAD("[,1]"), BAD("[,]"),
    BAD("[1,,2]"), BAD("{\"a\"}"), BAD("{\"a\":}"), BAD("{\"a\" 1}"), BAD("{\"a\":1,}"), BAD("{,}"),
    BAD("{,\"a\":1}"), BAD("{\"a\":1 \"b\":2}"), BAD("[1 2]"), BAD("{1:2}"), BAD("{a:1}"), BAD("{'a':1}"),
    BAD("['a']"), BAD("[1]]"), BAD("{\"a\":1}}"), BAD("[}"), BAD("{]"), BAD("[1:2]"), BAD("{\"a\",1}"),
    BAD("{\"a\"::1}"), BAD("{\"a\":1:2}"), BAD("{null:1}"), BAD("{[]:1}"), BAD("[\"a\" \"b\"]"),
    BAD("[[]"), BAD("[{]}"), BAD("{\"a\":[}"), BAD("{\"a"), BAD("{\"a\":"), BAD("{\"a\":1"),
    /* ---- whitespace, emptiness, trailing bytes */
    OK(" \t\r\n1 \t\r\n"), OK("\n[\n1\n,\n2\n]\n"), OK("\"a\"  "),
    BAD(""), BAD(" "), BAD("\t\n\r "), BAD("\f1"), BAD("\v1"), BAD("\xa0" "1"), BAD("1\f"), BAD("[1]x"),
    BAD("1 x"), BAD("{}{}"), BAD("[][]"), BAD("\"a\"\"b\""), BAD("\0"), BAD("\0 1"),
    BAD("/* c */ 1"), BAD("1 // c"), BAD("[1,\n]"), BAD("1,"), BAD(",1"), BAD("[1]\xc3\xa9"),
    /* ---- NUL bytes outside strings */
    JONLY("1\0"), JONLY("[1\0]"), JONLY("true\0"), JONLY("{\"a\":null\0}"), JONLY("[1\0,2]"),
    JONLY("-0.5e3\0"), JONLY("1\0 "), JONLY("[false\0 ,2]"),
    BAD("1 \0"), BAD("1\0\0"), BAD("\"1\0\""), BAD("[\"a\"\0]"), BAD("[]\0"), BAD("1e\0"), BAD("1\0" "2"),
    BAD("[\0]"), BAD("{\"a\"\0:1}"), BAD("tru\0e"),
};

static int scan_ok(const char *t, size_t n) {
  pcol_jscan s;
  size_t b, e;
  pcol_js_init(&s, t, n);
  return pcol_js_value(&s, &b, &e) == 0 && pcol_js_end(&s) == 0;
}

/* jansson, reading Python's dialect (perun_json.h) */
static int jansson_ok(const char *t, size_t n, json_error_t *je) {
  json_t *j = perun_json_loadb(t, n, JSON_DECODE_ANY, je);
  json_decref(j);
  return j != NULL;
}

/* A printable form of a corpus text for messages. */
static const char *show(const char *t, size_t n) {
  static char buf[256];
  size_t o = 0;
  for (size_t i = 0; i < n && o + 5 < sizeof buf; i++) {
    unsigned char c = (unsigned char)t[i];
    o += (size_t)snprintf(buf + o, sizeof buf - o, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
  }
  buf[o] = 0;
  return buf;
}

Test(json_scan, corpus_matches_jansson) {
  size_t n = sizeof corpus / sizeof corpus[0], good = 0;
  cr_assert_gt(n, 80);
  for (size_t i = 0; i < n; i++) {
    const jcase *c = &corpus[i];
    /* an exact-size copy, so ASan would see a read past the end */
    char *t = malloc(c->len ? c->len : 1);
    memcpy(t, c->text, c->len);
    json_error_t je;
    int j = jansson_ok(t, c->len, &je);
    cr_expect_eq(j, c->ok != 0, "jansson %s '%s' (%s)", j ? "accepts" : "refuses", show(t, c->len),
                 j ? "" : je.text);
    int s = scan_ok(t, c->len);
    cr_expect_eq(s, c->ok == 1, "the scanner %s '%s'", s ? "accepts" : "refuses", show(t, c->len));
    fz_json_scan_one((const uint8_t *)t, c->len);
    good += c->ok == 1;
    free(t);
  }
  cr_assert_gt(good, 30);
}

/* A document with every construct: each prefix (truncation), and each byte
 * replaced by one of a few structural or awkward bytes, through the full
 * differential check. */
static const char every[] =
    " {\"a\" : [1, -0.5e+3, 2E-2, true, false, null, \"s\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"],\n"
    "  \"\\u0062\\n\": {\"\": [], \"x\": {}}, \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\": \"\xf4\x8f\xbf\xbf\",\n"
    "  \"n\": [[[0]]], \"a\": 12345678901234567, \"f\": [NaN, -Infinity, {\"i\": Infinity}]}\n";

Test(json_scan, prefixes_and_mutations) {
  size_t n = sizeof every - 1;
  cr_assert(scan_ok(every, n));
  for (size_t cut = 0; cut <= n; cut++) fz_json_scan_one((const uint8_t *)every, cut);
  static const char subst[] = {'"', '\\', ',', ':', ']', '}', '[', '{', '\0', 'e', '-', '0', ' ', 'u', 'x', 'N', 'I'};
  static const unsigned char high[] = {0x80, 0xc3, 0xed, 0xf4, 0xff};
  uint8_t *t = malloc(n);
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < sizeof subst + sizeof high; k++) {
      memcpy(t, every, n);
      t[i] = k < sizeof subst ? (uint8_t)subst[k] : high[k - sizeof subst];
      fz_json_scan_one(t, n);
    }
    /* and with the byte deleted */
    memcpy(t, every, i);
    memcpy(t + i, every + i + 1, n - i - 1);
    fz_json_scan_one(t, n - 1);
  }
  free(t);
}

/* ---------------------------------------------------------- nesting depth */
static char *nest(const char *open, const char *inner, const char *close, int times, size_t *len) {
  size_t lo = strlen(open), li = strlen(inner), lc = strlen(close);
  char *b = malloc((size_t)times * (lo + lc) + li + 1), *p = b;
  for (int i = 0; i < times; i++) p = memcpy(p, open, lo), p += lo;
  p = memcpy(p, inner, li), p += li;
  for (int i = 0; i < times; i++) p = memcpy(p, close, lc), p += lc;
  *len = (size_t)(p - b);
  return b;
}

/* jansson counts every value, scalars included, against its limit of 2048:
 * 2048 arrays are fine, but not a number inside the 2048th. */
Test(json_scan, depth_limit_matches_jansson) {
  static const struct {
    const char *open, *inner, *close;
    int times, ok;
  } cases[] = {
      {"[", "", "]", 2048, 1},          {"[", "", "]", 2049, 0},
      {"[", "1", "]", 2047, 1},         {"[", "1", "]", 2048, 0},
      {"[", "\"s\"", "]", 2048, 0},     {"[", "[]", "]", 2047, 1},
      {"[", "{}", "]", 2047, 1},        {"[", "{}", "]", 2048, 0},
      {"{\"a\":", "1", "}", 2047, 1},   {"{\"a\":", "1", "}", 2048, 0},
      {"{\"a\":", "{}", "}", 2047, 1},  {"{\"a\":", "{}", "}", 2048, 0},
      {"[{\"k\":", "null", "}]", 1023, 1}, {"[{\"k\":", "null", "}]", 1024, 0},
      {"[1,", "[2,[]]", "]", 2046, 1},  {"[1,", "[2,[]]", "]", 2047, 0},
      {"[", "[1,[]]", "]", 2047, 0},    {"[", "", "]", 4000, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t len;
    char *t = nest(cases[i].open, cases[i].inner, cases[i].close, cases[i].times, &len);
    json_error_t je;
    cr_expect_eq(jansson_ok(t, len, &je), cases[i].ok, "jansson, case %zu", i);
    cr_expect_eq(scan_ok(t, len), cases[i].ok, "scanner: %s x%d around %s", cases[i].open, cases[i].times,
                 cases[i].inner);
    fz_json_scan_one((const uint8_t *)t, len);
    free(t);
  }
}

/* Containers entered with pcol_js_begin count against the limit too, so a
 * walk that enters a few levels and skips the rest with pcol_js_value
 * accepts the same documents as one pcol_js_value over the whole text. */
Test(json_scan, depth_limit_through_begin) {
  for (int inner_ok = 0; inner_ok <= 1; inner_ok++) {
    size_t len;
    char *t = nest("[", "1", "]", inner_ok ? 2047 : 2048, &len);
    for (int entered = 1; entered <= 3; entered++) {
      pcol_jscan s;
      pcol_jiter it[3];
      size_t b, e;
      pcol_js_init(&s, t, len);
      for (int d = 0; d < entered; d++) {
        cr_assert_eq(pcol_js_begin(&s, '[', &it[d]), 0);
        if (d + 1 < entered) cr_assert_eq(pcol_js_next(&s, &it[d], NULL), 1);
      }
      int rc = pcol_js_next(&s, &it[entered - 1], NULL) == 1 && pcol_js_value(&s, &b, &e) == 0;
      cr_expect_eq(rc, inner_ok, "entered %d levels, %s", entered, inner_ok ? "2047 deep" : "2048 deep");
      if (!rc) cr_expect_str_eq(s.err, "maximum nesting depth reached");
      for (int d = entered - 1; rc && d >= 0; d--) cr_expect_eq(pcol_js_next(&s, &it[d], NULL), 0);
      if (rc) cr_expect_eq(pcol_js_end(&s), 0);
    }
    /* entering every level with begin: the 2049th value is refused */
    pcol_jscan s;
    pcol_js_init(&s, t, len);
    int d = 0, bad = 0;
    for (;;) {
      pcol_jiter it;
      if (pcol_js_peek(&s) != '[') break;
      if (pcol_js_begin(&s, '[', &it) || pcol_js_next(&s, &it, NULL) != 1) {
        bad = 1;
        break;
      }
      d++;
    }
    size_t b, e;
    if (!bad) bad = pcol_js_value(&s, &b, &e) != 0;
    cr_expect_eq(bad, !inner_ok, "begin all the way down, %d levels entered", d);
    free(t);
  }
  /* the 2049th begin itself fails */
  size_t len;
  char *t = nest("[", "", "]", 2049, &len);
  pcol_jscan s;
  pcol_jiter it;
  pcol_js_init(&s, t, len);
  for (int d = 0; d < 2048; d++) {
    cr_assert_eq(pcol_js_begin(&s, '[', &it), 0, "level %d", d + 1);
    if (d < 2047) cr_assert_eq(pcol_js_next(&s, &it, NULL), 1);
  }
  cr_expect_eq(pcol_js_next(&s, &it, NULL), 1);
  cr_expect_eq(pcol_js_begin(&s, '[', &it), -1);
  free(t);
}

/* ------------------------------------------------- numbers out of range */
/* jansson refuses integers outside int64 and reals that overflow a double;
 * the scanner accepts them on purpose (the element holding one fails when
 * it is loaded).  Only this direction is allowed. */
Test(json_scan, out_of_range_numbers_accepted_by_scanner_only) {
  static const char *big[] = {
      "1e400", "-1e400", "1E309", "[1e309]", "9223372036854775808", "-9223372036854775809",
      "{\"a\":123456789012345678901234567890}", "[0,-99999999999999999999999,1]", "1.5e+99999",
  };
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    json_error_t je;
    cr_expect_not(jansson_ok(big[i], strlen(big[i]), &je), "%s", big[i]);
    cr_expect_eq(json_error_code(&je), json_error_numeric_overflow, "%s: %s", big[i], je.text);
    cr_expect(scan_ok(big[i], strlen(big[i])), "%s", big[i]);
    fz_json_scan_one((const uint8_t *)big[i], strlen(big[i]));
  }
  /* a long real: 400 digits */
  char lng[420];
  memset(lng, '9', 400);
  memcpy(lng + 400, ".0", 3);
  json_error_t je;
  cr_expect_not(jansson_ok(lng, strlen(lng), &je));
  cr_expect(scan_ok(lng, strlen(lng)));
  /* a big number does not hide a real error behind it, in either parser */
  static const char *bad[] = {"[1e400,]", "[1e400 1]", "{\"a\":1e400,\"b\":\"\\u0000\"}", "[true1e400]"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_expect_not(scan_ok(bad[i], strlen(bad[i])), "%s", bad[i]);
    fz_json_scan_one((const uint8_t *)bad[i], strlen(bad[i]));
  }
}

/* ------------------------------------------------------- container API */
static char *slice(const char *t, size_t b, size_t e) {
  char *s = malloc(e - b + 1);
  memcpy(s, t + b, e - b);
  s[e - b] = 0;
  return s;
}

Test(json_scan, object_members_keys_and_slices) {
  static const char text[] =
      " {\"a\" : 1 ,\"b\\n\\u00e9\\uD83D\\uDE00\":[1, 2],\"\":null,\n"
      "  \"c\\\"d\\\\\\/\":{\"x\":\"y\"} , \"\\u0061\" : \"dup\", \"\xc3\xa9t\xc3\xa9\" :-0.5 } ";
  static const struct {
    const char *raw, *decoded, *value;
    int escaped;
  } want[] = {
      {"a", "a", "1", 0},
      {"b\\n\\u00e9\\uD83D\\uDE00", "b\n\xc3\xa9\xf0\x9f\x98\x80", "[1, 2]", 1},
      {"", "", "null", 0},
      {"c\\\"d\\\\\\/", "c\"d\\/", "{\"x\":\"y\"}", 1},
      {"\\u0061", "a", "\"dup\"", 1},
      {"\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9", "-0.5", 0},
  };
  size_t n = sizeof text - 1;
  json_error_t je;
  json_t *doc = json_loadb(text, n, 0, &je);
  cr_assert(doc, "%s", je.text);
  cr_assert_eq(json_object_size(doc), 5); /* "a" twice: the last wins */

  pcol_jscan s;
  pcol_jiter it;
  pcol_jkey k;
  pcol_js_init(&s, text, n);
  cr_assert_eq(pcol_js_peek(&s), '{');
  cr_assert_eq(pcol_js_begin(&s, '{', &it), 0);
  size_t i = 0;
  int more;
  while ((more = pcol_js_next(&s, &it, &k)) == 1) {
    cr_assert_lt(i, sizeof want / sizeof want[0]);
    char *raw = slice(text, k.start, k.start + k.len);
    cr_expect_str_eq(raw, want[i].raw);
    cr_expect_eq(k.escaped, want[i].escaped, "key %zu", i);
    size_t dl;
    char *dec = pcol_js_key_decode(&s, &k, &dl);
    cr_assert(dec);
    cr_expect_eq(dl, strlen(want[i].decoded));
    cr_expect_str_eq(dec, want[i].decoded);
    cr_expect(pcol_js_key_is(&s, &k, want[i].decoded), "key_is %zu", i);
    cr_expect_not(pcol_js_key_is(&s, &k, "zz"), "key_is %zu", i);
    /* jansson decoded the same key */
    json_t *jv = json_object_getn(doc, dec, dl);
    cr_expect(jv, "jansson has no key '%s'", show(dec, dl));
    size_t vb, ve;
    cr_assert_eq(pcol_js_value(&s, &vb, &ve), 0, "%s", s.err);
    char *val = slice(text, vb, ve);
    cr_expect_str_eq(val, want[i].value);
    json_t *one = json_loadb(text + vb, ve - vb, JSON_DECODE_ANY, &je);
    cr_assert(one);
    if (i != 0) cr_expect(json_equal(one, jv), "member %zu: the slice loads to jansson's value", i);
    json_decref(one);
    free(raw);
    free(dec);
    free(val);
    i++;
  }
  cr_expect_eq(more, 0);
  cr_expect_eq(i, sizeof want / sizeof want[0]);
  cr_expect_eq(pcol_js_end(&s), 0);
  /* every jansson key is one the walk decoded */
  const char *jk;
  json_t *jv;
  json_object_foreach(doc, jk, jv) {
    int found = 0;
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) found |= !strcmp(jk, want[w].decoded);
    cr_expect(found, "jansson key '%s'", jk);
  }
  json_decref(doc);
  /* key_is on prefixes and extensions */
  pcol_js_init(&s, "{\"ab\":1,\"a\\u0062\":2}", 20);
  cr_assert_eq(pcol_js_begin(&s, '{', &it), 0);
  for (int m = 0; m < 2; m++) {
    size_t vb, ve;
    cr_assert_eq(pcol_js_next(&s, &it, &k), 1);
    cr_expect_eq(k.escaped, m);
    cr_expect(pcol_js_key_is(&s, &k, "ab"));
    cr_expect_not(pcol_js_key_is(&s, &k, "a"));
    cr_expect_not(pcol_js_key_is(&s, &k, "abc"));
    cr_expect_not(pcol_js_key_is(&s, &k, ""));
    cr_expect_not(pcol_js_key_is(&s, &k, "aB"));
    cr_assert_eq(pcol_js_value(&s, &vb, &ve), 0);
  }
  cr_expect_eq(pcol_js_next(&s, &it, &k), 0);
}

Test(json_scan, array_members_and_nested_walks_by_copy) {
  static const char text[] = "[1, \"two\" ,[3,[4]], {}, -0.5e1 ,[]]";
  static const char *want[] = {"1", "\"two\"", "[3,[4]]", "{}", "-0.5e1", "[]"};
  size_t n = sizeof text - 1;
  pcol_jscan s;
  pcol_jiter it;
  pcol_js_init(&s, text, n);
  cr_assert_eq(pcol_js_begin(&s, '[', &it), 0);
  size_t i = 0;
  int more;
  while ((more = pcol_js_next(&s, &it, NULL)) == 1) {
    cr_assert_lt(i, 6);
    pcol_jscan copy = s; /* a second cursor on the same member */
    size_t vb, ve;
    cr_assert_eq(pcol_js_value(&s, &vb, &ve), 0);
    char *v = slice(text, vb, ve);
    cr_expect_str_eq(v, want[i]);
    free(v);
    if (i == 2) { /* walk [3,[4]] on the copy */
      pcol_jiter in, in2;
      size_t b, e;
      cr_assert_eq(pcol_js_begin(&copy, '[', &in), 0);
      cr_assert_eq(pcol_js_next(&copy, &in, NULL), 1);
      cr_assert_eq(pcol_js_value(&copy, &b, &e), 0);
      cr_expect_eq(text[b], '3');
      cr_assert_eq(pcol_js_next(&copy, &in, NULL), 1);
      cr_assert_eq(pcol_js_begin(&copy, '[', &in2), 0);
      cr_assert_eq(pcol_js_next(&copy, &in2, NULL), 1);
      cr_assert_eq(pcol_js_value(&copy, &b, &e), 0);
      cr_expect_eq(text[b], '4');
      cr_expect_eq(pcol_js_next(&copy, &in2, NULL), 0);
      cr_expect_eq(pcol_js_next(&copy, &in, NULL), 0);
      cr_expect_eq(copy.pos, s.pos, "the walk by copy ends where the skip did");
    }
    if (i == 3 || i == 5) { /* empty containers end at once */
      pcol_jiter in;
      cr_assert_eq(pcol_js_begin(&copy, text[vb], &in), 0);
      cr_expect_eq(pcol_js_next(&copy, &in, NULL), 0);
      cr_expect_eq(copy.pos, s.pos);
    }
    i++;
  }
  cr_expect_eq(more, 0);
  cr_expect_eq(i, 6);
  cr_expect_eq(pcol_js_end(&s), 0);
  cr_expect_eq(pcol_js_peek(&s), -1);
}

Test(json_scan, container_errors) {
  pcol_jscan s;
  pcol_jiter it;
  pcol_jkey k;
  size_t b, e;
  /* the wrong bracket */
  pcol_js_init(&s, " [1]", 4);
  cr_expect_eq(pcol_js_begin(&s, '{', &it), -1);
  cr_expect_str_eq(s.err, "expected '{'");
  cr_expect_eq(s.err_pos, 1);
  pcol_js_init(&s, "", 0);
  cr_expect_eq(pcol_js_begin(&s, '[', &it), -1);
  /* a missing comma */
  pcol_js_init(&s, "[1 2]", 5);
  cr_assert_eq(pcol_js_begin(&s, '[', &it), 0);
  cr_assert_eq(pcol_js_next(&s, &it, NULL), 1);
  cr_assert_eq(pcol_js_value(&s, &b, &e), 0);
  cr_expect_eq(pcol_js_next(&s, &it, NULL), -1);
  cr_expect_eq(s.err_pos, 3);
  /* a trailing comma: next says there is a member, the value is missing */
  pcol_js_init(&s, "[1,]", 4);
  cr_assert_eq(pcol_js_begin(&s, '[', &it), 0);
  cr_assert_eq(pcol_js_next(&s, &it, NULL), 1);
  cr_assert_eq(pcol_js_value(&s, &b, &e), 0);
  cr_assert_eq(pcol_js_next(&s, &it, NULL), 1);
  cr_expect_eq(pcol_js_value(&s, &b, &e), -1);
  pcol_js_init(&s, "{\"a\":1,}", 8);
  cr_assert_eq(pcol_js_begin(&s, '{', &it), 0);
  cr_assert_eq(pcol_js_next(&s, &it, &k), 1);
  cr_assert_eq(pcol_js_value(&s, &b, &e), 0);
  cr_expect_eq(pcol_js_next(&s, &it, &k), -1);
  cr_expect_str_eq(s.err, "expected a string key");
  /* a missing colon, a missing value */
  pcol_js_init(&s, "{\"a\" 1}", 7);
  cr_assert_eq(pcol_js_begin(&s, '{', &it), 0);
  cr_expect_eq(pcol_js_next(&s, &it, &k), -1);
  cr_expect_str_eq(s.err, "expected ':'");
  pcol_js_init(&s, "{\"a\":}", 6);
  cr_assert_eq(pcol_js_begin(&s, '{', &it), 0);
  cr_assert_eq(pcol_js_next(&s, &it, &k), 1);
  cr_expect_eq(pcol_js_value(&s, &b, &e), -1);
  /* unclosed */
  pcol_js_init(&s, "[1", 2);
  cr_assert_eq(pcol_js_begin(&s, '[', &it), 0);
  cr_assert_eq(pcol_js_next(&s, &it, NULL), 1);
  cr_assert_eq(pcol_js_value(&s, &b, &e), 0);
  cr_expect_eq(pcol_js_next(&s, &it, NULL), -1);
  cr_expect_eq(s.err_pos, 2);
  /* a bad key */
  pcol_js_init(&s, "{\"\\u0000\":1}", 12);
  cr_assert_eq(pcol_js_begin(&s, '{', &it), 0);
  cr_expect_eq(pcol_js_next(&s, &it, &k), -1);
  cr_expect_str_eq(s.err, "\\u0000 is not allowed");
}

Test(json_scan, value_slices) {
  static const struct {
    const char *text;
    size_t start, end;
  } cases[] = {
      {"  [1, 2]  ", 2, 8},  {"\"x\"", 0, 3}, {"\n\t-0.5e+7 ", 2, 9}, {"true", 0, 4},
      {" {\"a\":{}}", 1, 9}, {"null\r\n", 0, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pcol_jscan s;
    size_t b = 99, e = 99;
    pcol_js_init(&s, cases[i].text, strlen(cases[i].text));
    cr_assert_eq(pcol_js_value(&s, &b, &e), 0, "%s", cases[i].text);
    cr_expect_eq(b, cases[i].start, "%s", cases[i].text);
    cr_expect_eq(e, cases[i].end, "%s", cases[i].text);
    cr_expect_eq(s.pos, e);
    cr_expect_eq(pcol_js_end(&s), 0);
  }
  /* a value in a list of several: the cursor stops right after it */
  pcol_jscan s;
  size_t b, e;
  pcol_js_init(&s, "1 2", 3);
  cr_assert_eq(pcol_js_value(&s, &b, &e), 0);
  cr_expect_eq(e, 1);
  cr_expect_eq(pcol_js_end(&s), -1);
  cr_expect_str_eq(s.err, "end of input expected");
  cr_expect_eq(s.err_pos, 2);
}

Test(json_scan, line_col) {
  static const char t[] = "ab\ncd\n\nef";
  size_t n = sizeof t - 1, line, col;
  static const size_t want[][3] = {{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3},
                                   {6, 3, 1}, {7, 4, 1}, {9, 4, 3}, {100, 4, 3}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    pcol_js_line_col(t, n, want[i][0], &line, &col);
    cr_expect_eq(line, want[i][1], "pos %zu", want[i][0]);
    cr_expect_eq(col, want[i][2], "pos %zu", want[i][0]);
  }
  pcol_js_line_col("", 0, 0, &line, &col);
  cr_expect(line == 1 && col == 1);
  /* error positions, as an importer reports them */
  static const struct {
    const char *text, *err;
    size_t line, col;
  } errs[] = {
      {"{\"a\":1,\n  \"b\" 2}", "expected ':'", 2, 7},
      {"[1,\n2,\n\"\\x\"]", "invalid escape in a string", 3, 2},
      {"[\n\"a\tb\"]", "control character in a string", 2, 3},
      {"{\"k\":\n\n  [1,2,\n   tru]}", "invalid literal", 4, 4},
      {"[1,\n", "unexpected end of input", 2, 1},
      {"\"\xc3\xa9\xff\"", "invalid UTF-8 in a string", 1, 4},
  };
  for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
    pcol_jscan s;
    size_t b, e;
    size_t len = strlen(errs[i].text);
    pcol_js_init(&s, errs[i].text, len);
    cr_assert_eq(pcol_js_value(&s, &b, &e), -1, "%s", errs[i].text);
    cr_expect_str_eq(s.err, errs[i].err);
    pcol_js_line_col(errs[i].text, len, s.err_pos, &line, &col);
    cr_expect_eq(line, errs[i].line, "case %zu line", i);
    cr_expect_eq(col, errs[i].col, "case %zu col", i);
  }
}

/* Real documents: the Perun fixtures and the shared Perun test data. */
static int check_dir(const char *dir, const char *suffix) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t l = strlen(de->d_name), sl = strlen(suffix);
    if (l < sl || strcmp(de->d_name + l - sl, suffix)) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    size_t cap;
    char *buf = tu_slurp(path, &cap);
    cr_expect(scan_ok(buf, cap), "%s", path);
    fz_json_scan_one((const uint8_t *)buf, cap);
    free(buf);
    n++;
  }
  closedir(d);
  return n;
}

Test(json_scan, perun_documents) {
  cr_expect_gt(check_dir("tests/fixtures/perun", ".perf"), 0, "run from the repository root");
  if (testdata_present()) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/perun", testdata_dir());
    cr_expect_gt(check_dir(dir, ".perf"), 0);
  }
}
