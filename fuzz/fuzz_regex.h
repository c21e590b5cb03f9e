/* fuzz_regex.h — the translation of a user's regular expression (Go's RE2
 * syntax, what --focus/--ignore/--hide/--show/--tag and the shell's
 * commands take) into POSIX ERE, lib/core/regex_go.c, and its compilation
 * and matching by regex.h (pcol_rx_compile, pcol_rx_match): the work of
 * fuzz_regex.c, shared with the gcc replay test (tests/test_fuzz_replay.c)
 * and gen_seeds.c (fz_regex_seeds).
 *
 * The input up to its first NUL is the expression (a C string, as the CLI
 * gets it).  For any bytes:
 *  - pcol_rx_from_go answers PCOL_OK, PCOL_EINVAL or PCOL_ENOMEM; a refusal
 *    gives a non-empty reason; each of its two forms is NUL-terminated,
 *    holds no other NUL and is at most FZ_RX_BOUND bytes long; its route
 *    has no bit but PCOL_RX_HIGH, PCOL_RX_NL and PCOL_RX_NUL;
 *  - the same expression translated again, into a buffer that already holds
 *    text, gives the same bytes;
 *  - pcol_rx_compile refuses (EINVAL, with a message naming the option and
 *    "bad regular expression") whatever the translation refuses; when it
 *    compiles, pcol_rx_match runs on fixed names (ASCII, UTF-8, bytes that
 *    are no UTF-8, empty, long) and on the input itself (its first 512
 *    bytes), and answers 0 or 1; NA (a NULL name) as "".
 * Time and memory: regcomp's cost is bounded by pcol_rx_cost's count of
 * what it would build (lib/core/regex_cost.c: nodes, the anchors' copies,
 * closure entries and steps; about 50 MB and 0.5 s for both forms at the
 * bounds); libFuzzer's -timeout and -rss_limit_mb catch an expression that
 * escapes them. */
#ifndef PCOL_FUZZ_REGEX_H
#define PCOL_FUZZ_REGEX_H
#include "pcol.h"
#include "buf.h"
#include "filter.h"
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The translation's bound, pcol_rx_from_go's contract (filter.h): each
 * form at most 256 KiB (regex_go.c's RX_MAX_SIZE, which counts counted
 * repeats expanded), the \B prefix and the NUL. */
#define FZ_RX_BOUND (256u * 1024 + 512)

static inline void fzrx_fail(const char *what, const char *re) {
  fprintf(stderr, "fuzz_regex invariant broken: %s (expression of %zu bytes: '%.300s')\n", what, strlen(re), re);
  abort();
}

static const char *const fz_regex_names[] = {
    "main.main", "runtime.mallocgc", "std::vector<int>::push_back", "a{{closure}}", "func12",
    "pkg/path.(*T).Method", "x.y", "", "A1_z", "[bracket]", "back\\slash", "tab\t.x", "new\nline",
    "\xc3\xbcmlaut",                    /* ümlaut */
    "\xe6\x97\xa5\xe6\x9c\xac.\xe9\x96\xa2\xe6\x95\xb0", /* 日本.関数 */
    "\xff\xfe not UTF-8 \x80", "\xf0\x9f\x94\xa5 emoji",
    "a very long name: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"};
#define FZ_RX_NNAMES (sizeof fz_regex_names / sizeof fz_regex_names[0])

/* Seeds: pprof-style expressions and the forms regex_go.c rewrites (the
 * expressions of tests/interop/t_regex.sh among them). */
static const char *const fz_regex_seeds[] = {
    "func\\d+", "\\Afunc", "y\\z", "{{closure}}", "^{{closure}}$", "\\(\\*T\\)", "(?i)^foo$", "[\\d]lives",
    "\\Qa{,2}\\E", "a{,2}", "x{2", "a{2}", "[]q]", "[\\^]", "[a\\-]b", "[^a-z]", "b\\b", "\\x41",
    "\\x{41}1", "(?:ab|a)a", "[-^]", "[[:upper:]]", "[[:^alpha:]]", "\\D\\d", "x\\.y", "\\\\",
    "std::vector<int>", "[\\]\\[]", "\\141a", "a\\tb", "\\W", "\\S+ \\S+", "[^\\W]", "m[^\\x00-\\x7f]*l",
    "x\\.+?y", "(?:a|b)+?", "a{1,2}?b", "(?i)[^a-z]_", "\\pL", "a(?i)b", "(?P<n>a)", "\\C", "a\\",
    "runtime\\.|main\\.", "(a{10}){10}", "((a|b)*c){2,5}", "\\b\\b\\b\\B", "(a|\\b)*(b|\\B)*", "(.?){20}",
    "a|b|c|d|e", "a{01}", "a{1000}", "(?i)\\x{e9}",
    "\xc3\xbc", "[\xc3\xbc]", ".*\xe6\x97\xa5.*", "a**", "*a", "(a", "a)", "a{2}{3}"};
#define FZ_RX_NSEEDS (sizeof fz_regex_seeds / sizeof fz_regex_seeds[0])

static inline int fz_regex_one(const uint8_t *data, size_t size) {
  char *re = malloc(size + 1); /* exactly its size: ASan sees a read past the NUL */
  if (!re) return 0;
  if (size) memcpy(re, data, size);
  re[size] = 0;

  pcol_buf out = {0}, outu = {0};
  int route = -1;
  const char *why = NULL;
  int rc = pcol_rx_from_go(re, &out, &outu, &route, &why);
  if (rc != PCOL_OK && rc != PCOL_EINVAL && rc != PCOL_ENOMEM) fzrx_fail("an unexpected return code", re);
  if (rc == PCOL_OK) {
    const pcol_buf *f[2] = {&out, &outu};
    for (int k = 0; k < 2; k++) {
      if (!f[k]->data || !f[k]->len || f[k]->data[f[k]->len - 1] != 0) fzrx_fail("a translation without its NUL", re);
      if (strlen((const char *)f[k]->data) != f[k]->len - 1) fzrx_fail("a NUL inside the translation", re);
      if (f[k]->len > FZ_RX_BOUND) fzrx_fail("a translation past its bound", re);
    }
    if (route & ~(PCOL_RX_HIGH | PCOL_RX_NL | PCOL_RX_NUL)) fzrx_fail("a route with an unknown bit", re);
    /* again, into buffers that hold text: the same bytes */
    pcol_buf again = {0}, againu = {0};
    if (pcol_buf_append(&again, "junk", 4) == 0 && pcol_buf_append(&againu, "junk", 4) == 0) {
      int route2;
      const char *why2 = NULL;
      int rc2 = pcol_rx_from_go(re, &again, &againu, &route2, &why2);
      if (rc2 == PCOL_OK && (again.len != out.len || memcmp(again.data, out.data, out.len) || route2 != route ||
                             againu.len != outu.len || memcmp(againu.data, outu.data, outu.len)))
        fzrx_fail("a second translation differs", re);
      if (rc2 == PCOL_EINVAL) fzrx_fail("a second translation refused", re);
    }
    pcol_buf_free(&again), pcol_buf_free(&againu);
  } else if (!why || !why[0]) {
    fzrx_fail("a refusal without a reason", re);
  }

  pcol_rx rx;
  pcol_error err = {0};
  int crc = pcol_rx_compile(&rx, "--focus", re, &err);
  if (rc == PCOL_EINVAL && crc != PCOL_EINVAL) fzrx_fail("a refused translation compiled", re);
  if (crc == PCOL_EINVAL && !strstr(err.message, "--focus: bad regular expression"))
    fzrx_fail("a refusal that does not name the option", re);
  if (crc == PCOL_OK) {
    char *buf = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < FZ_RX_NNAMES; i++) {
      const char *nm = fz_regex_names[i];
      int m = pcol_rx_match(&rx, &buf, &cap, (pcol_str){nm, strlen(nm)});
      if (m != 0 && m != 1 && m != -1) fzrx_fail("a match that is neither 0 nor 1", re);
    }
    /* the input as a name: its first 512 bytes, NULs included (regexec's
     * time is the name's length times the expression's states) */
    int m = pcol_rx_match(&rx, &buf, &cap, (pcol_str){(const char *)data, size < 512 ? size : 512});
    if (m != 0 && m != 1 && m != -1) fzrx_fail("a match that is neither 0 nor 1", re);
    /* NA (a NULL name) is "" */
    int m0 = pcol_rx_match(&rx, &buf, &cap, (pcol_str){NULL, 0});
    int me = pcol_rx_match(&rx, &buf, &cap, (pcol_str){"", 0});
    if (m0 != me) fzrx_fail("NA and \"\" match differently", re);
    free(buf);
    pcol_rx_free(&rx);
  }
  pcol_buf_free(&out), pcol_buf_free(&outu);
  free(re);
  return 0;
}
#endif
