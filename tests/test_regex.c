/* test_regex.c — the bounds on what a user's regular expression may make
 * glibc's regcomp build (lib/core/regex_cost.c, doc/safety.md "Regular
 * expressions"): shapes Go's regexp reads cheaply but regcomp takes
 * gigabytes or minutes for are refused, before regcomp, naming the option
 * and the expression; what users write (and larger: \pL{30}, 1,500 or
 * 30,000 alternatives) still compiles and matches as Go's regexp does (the
 * expected answers are go 1.19's regexp.MatchString on the same names). */
#include "testutil.h"
#include "filter.h"     /* pcol_rx_compile, pcol_rx_match, pcol_rx_from_go */
#include "regex_cost.h" /* pcol_rx_cost */
#include <string.h>

static char *repeat(const char *s, size_t n, const char *sep) {
  size_t ls = strlen(s), lp = strlen(sep);
  char *r = malloc(n * (ls + lp) + 1);
  cr_assert_not_null(r);
  char *p = r;
  for (size_t i = 0; i < n; i++) {
    if (i && lp) memcpy(p, sep, lp), p += lp;
    memcpy(p, s, ls), p += ls;
  }
  *p = 0;
  return r;
}

/* re refused by pcol_rx_compile: EINVAL, the option, the expression (its
 * first 200 bytes), the bound and `why` named */
static void refused(const char *re, const char *why) {
  pcol_rx rx;
  pcol_error err = {0};
  int own = 0;
  int rc = pcol_rx_compile_own(&rx, "--focus", re, &own, &err);
  if (rc == PCOL_OK) pcol_rx_free(&rx);
  cr_assert_eq(rc, PCOL_EINVAL, "'%.60s' (%zu bytes) was not refused (rc %d)", re, strlen(re), rc);
  char head[256];
  snprintf(head, sizeof head, "--focus: bad regular expression '%.*s", strlen(re) > 200 ? 200 : (int)strlen(re), re);
  cr_assert(strstr(err.message, head), "the message does not name the option and expression: %s", err.message);
  if (strlen(re) > 200) cr_assert_lt(strlen(err.message), strlen(re), "the expression is not cut: %zu bytes", strlen(err.message));
  cr_assert(strstr(err.message, "pcol's bound"), "not said to be pcol's bound: %s", err.message);
  cr_assert(strstr(err.message, why), "the message does not say '%s': %s", why, err.message);
  cr_assert_eq(own, 1, "a refusal of what Go reads must be pcol's own: %s", err.message);
}

/* re compiles and matches names[i] as want[i] says (Go's answers) */
static void reads(const char *re, size_t n, const char *const *names, const int *want) {
  pcol_rx rx;
  pcol_error err = {0};
  cr_assert_eq(pcol_rx_compile(&rx, "--focus", re, &err), PCOL_OK, "'%.60s' refused: %s", re, err.message);
  char *buf = NULL;
  size_t cap = 0;
  for (size_t i = 0; i < n; i++)
    cr_expect_eq(pcol_rx_match(&rx, &buf, &cap, (pcol_str){names[i], strlen(names[i])}), want[i],
                 "'%.60s' on '%.40s': Go says %d", re, names[i], want[i]);
  free(buf);
  pcol_rx_free(&rx);
}

/* \b is two anchors in an alternation to glibc, and regcomp copies what
 * an anchor reaches for each constraint it carries: 30 of them took 44 MB,
 * 50 590 MB and 1.7 s (120,000 in a repeated group: minutes, then SIGSEGV) */
Test(regex_bounds, anchors_in_a_row) {
  char *b30 = repeat("\\b", 30, ""), *b50 = repeat("\\b", 50, ""), *B40 = repeat("\\B", 40, "");
  refused(b30, "too large for regcomp");
  refused(b50, "anchors");
  refused(B40, "anchors");
  refused("(?:\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b){1000}", "anchors");
  refused("(?:\\ba?){30}", "anchors");
  free(b30), free(b50), free(B40);
}

/* a loop through an anchor: regcomp makes an unfinished closure again each
 * time it meets it (10 of these: 4 s, 12: 34 s) */
Test(regex_bounds, loops_through_anchors) {
  char *l10 = repeat("(a|\\b)*", 10, ""), *l100 = repeat("(a|\\b)*", 100, "");
  refused(l10, "too slow for regcomp");
  refused(l100, "for regcomp"); /* (700 bytes: the message cuts it) */
  free(l10), free(l100);
}

/* optional pieces in a row: closures quadratic in them ((.?){1000}: 88 MB
 * and then 0.5 s a name of 500 bytes in regexec) */
Test(regex_bounds, optional_pieces_in_a_row) {
  refused("(.?){1000}", "epsilon closures");
  refused("(a?a?a?a?a?a?a?a?){1000}", "epsilon closures");
  refused("a{0,1000}b{0,1000}c{0,1000}d{0,1000}e{0,1000}", "epsilon closures");
}

/* what Go refuses stays refused with Go's words (not pcol's bound) */
Test(regex_bounds, what_go_refuses) {
  const char *go[] = {"((a{100}){100}){100}", "a{1001}", "a{1000}{1000}{1000}"};
  for (size_t i = 0; i < sizeof go / sizeof *go; i++) {
    pcol_rx rx;
    pcol_error err = {0};
    int own = -1;
    cr_assert_eq(pcol_rx_compile_own(&rx, "--hide", go[i], &own, &err), PCOL_EINVAL, "%s", go[i]);
    cr_assert(strstr(err.message, "--hide: bad regular expression"), "%s", err.message);
    cr_assert(strstr(err.message, "Go: invalid"), "%s", err.message);
    cr_assert_eq(own, 0, "%s", err.message);
  }
}

/* large but cheap: a Unicode class repeated (its UTF-8 alternatives are
 * balanced: \pL{10} took 53 MB, now about 10), and a user's alternatives
 * (balanced too: 1,500 took 41 MB; 30,000 and (a|b) 2,100 times were
 * refused by the old count of operators, Go reads them) */
Test(regex_bounds, large_but_cheap) {
  const char *n1[] = {"\xc3\xbcmlaut", "a1", "\xe6\x97\xa5\xe6\x9c\xac"};
  reads("^\\pL+$", 3, n1, (const int[]){1, 0, 1});
  char *u30 = repeat("\xc3\xbc", 30, ""), *u29 = repeat("\xc3\xbc", 29, "");
  char *u29d = malloc(strlen(u29) + 2);
  strcpy(u29d, u29), strcat(u29d, "1");
  reads("^\\pL{30}$", 2, (const char *const[]){u30, u29d}, (const int[]){1, 0});
  char *alts = malloc(1500 * 10 + 8), *p = alts;
  p += sprintf(p, "^(");
  for (int i = 0; i < 1500; i++) p += sprintf(p, i ? "|func%d" : "func%d", i);
  strcpy(p, ")$");
  reads(alts, 4, (const char *const[]){"func1499", "func1500", "func15", "xfunc1"}, (const int[]){1, 0, 1, 0});
  char *u250 = repeat("\xc3\xbc", 250, ""), *a199 = repeat("a", 199, "");
  reads("^.{200,}$", 2, (const char *const[]){u250, a199}, (const int[]){1, 0});
  char *a30k = repeat("a", 30000, "|");
  reads(a30k, 2, (const char *const[]){"xa", "b"}, (const int[]){1, 0});
  char *ab = repeat("(a|b)", 2100, ""), *abab = repeat("ab", 1050, ""), *short1 = repeat("ab", 1049, "");
  char *short2 = malloc(strlen(short1) + 2);
  strcpy(short2, short1), strcat(short2, "a");
  reads(ab, 2, (const char *const[]){abab, short2}, (const int[]){1, 0});
  reads("(?i)^(\xce\xa3\xce\x91|k|foo|bar|baz)$", 5,
        (const char *const[]){"\xcf\x83\xce\xb1", "K", "\xe2\x84\xaa", "BAZ", "ba"}, (const int[]){1, 1, 1, 1, 0});
  free(u30), free(u29), free(u29d), free(alts), free(u250), free(a199), free(a30k), free(ab), free(abab), free(short1),
      free(short2);
}

/* the counting itself, on POSIX forms: glibc's left-nested alternation
 * (n^2 closure entries) against the balanced one; a run of anchors;
 * counted repeats expanded */
Test(regex_bounds, cost_of_posix_forms) {
  rx_cost c;
  const char *why = NULL;
  char *chain = repeat("ab", 1000, "|");
  cr_assert_eq(pcol_rx_cost(chain, &c, &why), PCOL_OK);
  cr_expect_geq(c.closure, 1000u * 1000u, "1000 alternatives, nested to the left: %llu entries",
                (unsigned long long)c.closure);
  pcol_buf a = {0}, u = {0};
  int route;
  cr_assert_eq(pcol_rx_from_go(chain, &a, &u, &route, &why), PCOL_OK);
  cr_assert_eq(pcol_rx_cost((const char *)a.data, &c, &why), PCOL_OK);
  cr_expect_lt(c.closure, 40000u, "balanced: %llu entries", (unsigned long long)c.closure);
  cr_assert_eq(pcol_rx_cost("x{1000}", &c, &why), PCOL_OK);
  cr_expect_eq(c.nodes, 1001u, "x{1000} is 1000 nodes and the end: %llu", (unsigned long long)c.nodes);
  cr_assert_eq(pcol_rx_cost("\\b\\b\\b", &c, &why), PCOL_OK);
  cr_expect_gt(c.clones, 0u, "anchors in a row are copied");
  char *b40 = repeat("\\b", 40, "");
  cr_assert_eq(pcol_rx_cost(b40, &c, &why), PCOL_EINVAL);
  cr_expect(strstr(why, "anchors"), "%s", why);
  free(chain), free(b40);
  pcol_buf_free(&a), pcol_buf_free(&u);
}
