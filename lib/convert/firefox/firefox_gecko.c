/* firefox_gecko.c — a Gecko profile (Firefox's own output, before the
 * profiler processes it) into the rows firefox_import.c adds
 * (doc/mappings.md §8.1).
 *
 * A Gecko profile is a process: meta, threads, and child processes
 * (`processes`, each a Gecko profile whose times start at its own
 * meta.startTime).  A thread's tables are {schema: {column: index}, data:
 * [[row], ...]} with a per-thread stringTable; a frame is a location string
 * that the profiler turns into a function by the heuristics of its
 * process-profile.ts (extractFuncsAndResourcesFromFrameLocations), which
 * this file follows so that function names match the profiler's:
 *   "0x1234"                         an unsymbolicated address, its own name;
 *   "name (in lib) + 12" / "(in lib) (file:line)" / "(in lib)"
 *                                    a C++ function "name" ("non-virtual
 *                                    thunk to " dropped);
 *   "name (url:line[:col])[[n]]", "url:line[:col]"
 *                                    a JS function "name" in file url (the
 *                                    last part after " -> "), or
 *                                    "(root scope) url", start line `line`;
 *   anything else                    the string itself (a label frame). */
#include "firefox_gecko.h"
#include "buf.h"      /* pcol_buf_append, pcol_buf */
#include <stdlib.h>
#include <string.h>

static int all_digits(const char *p, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] < '0' || p[i] > '9') return 0;
  return 1;
}

/* "… (in LIB)" forms: the name, or 0 when s is not one. */
static int cpp_name(const char *s, size_t n, size_t *name_len) {
  /* find " (in " followed by [^)]* ")" and then end, " + digits" or " (…:…)" */
  for (size_t i = n; i-- > 0;) {
    if (i + 5 > n || memcmp(s + i, " (in ", 5) != 0) continue;
    size_t j = i + 5;
    while (j < n && s[j] != ')') j++;
    if (j >= n) continue;
    size_t rest = j + 1;
    int ok = rest == n;
    if (!ok && n - rest > 3 && !memcmp(s + rest, " + ", 3)) ok = all_digits(s + rest + 3, n - rest - 3);
    if (!ok && n - rest > 3 && s[rest] == ' ' && s[rest + 1] == '(' && s[n - 1] == ')' &&
        memchr(s + rest + 2, ':', n - rest - 3))
      ok = 1;
    if (ok) {
      *name_len = i;
      return 1;
    }
  }
  return 0;
}

/* ":line[:col]" then an optional "[digits]" at the end of s[0..n): the
 * length of the part before ':' (the url), the line; 0 when not so. */
static int url_line(const char *s, size_t n, size_t *url_len, int64_t *line) {
  if (n && s[n - 1] == ']') { /* [sourceIndex] */
    size_t k = n - 1;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
    if (k > 0 && s[k - 1] == '[' && k < n - 1) n = k - 1;
  }
  /* the last one or two ":digits" groups; the url is non-empty and minimal,
   * as the profiler's lazy (.+?) takes it */
  size_t e = n, k = n;
  while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
  if (k == e || k == 0 || s[k - 1] != ':') return 0;
  size_t c1 = k - 1; /* ':' before the last digits */
  size_t k2 = c1;
  while (k2 > 0 && s[k2 - 1] >= '0' && s[k2 - 1] <= '9') k2--;
  size_t colon, le;
  if (k2 < c1 && k2 > 1 && s[k2 - 1] == ':') { /* url:line:col, url non-empty */
    colon = k2 - 1;
    le = c1;
  } else {
    colon = c1;
    le = e;
  }
  if (colon == 0) return 0;
  char b[24];
  size_t dl = le - colon - 1;
  if (dl >= sizeof b) return 0;
  memcpy(b, s + colon + 1, dl);
  b[dl] = 0;
  *line = strtoll(b, NULL, 10);
  *url_len = colon;
  return 1;
}

int pcol_gecko_name(const char *s, size_t n, pcol_buf *name, pcol_buf *file, int64_t *line) {
  name->len = file->len = 0;
  *line = PCOL_NA_I64;
  size_t nl;
  if (n >= 2 && s[0] == '0' && s[1] == 'x') return pcol_buf_append(name, s, n);
  if (cpp_name(s, n, &nl)) {
    static const char thunk[] = "non-virtual thunk to ";
    if (nl >= sizeof thunk - 1 && !memcmp(s, thunk, sizeof thunk - 1)) s += sizeof thunk - 1, nl -= sizeof thunk - 1;
    return pcol_buf_append(name, s, nl);
  }
  /* "name (url:line[:col])[[n]]": the last " (" whose inside is url:line */
  size_t end = n;
  if (end && s[end - 1] == ']') {
    size_t k = end - 1;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
    if (k > 0 && s[k - 1] == '[' && k < end - 1) end = k - 1;
  }
  size_t ul;
  int64_t ln;
  if (end >= 2 && s[end - 1] == ')') {
    /* the name is (.*) greedy, the url (.+?) lazy: the first " (" from the
     * right that leaves a url:line inside, scanning the name greedily */
    for (size_t i = end - 1; i-- > 0;) {
      if (s[i] != ' ' || s[i + 1] != '(') continue;
      const char *in = s + i + 2;
      size_t inl = end - 1 - (i + 2);
      if (url_line(in, inl, &ul, &ln)) {
        const char *u = in;
        for (size_t k = 0; k + 4 <= ul; k++) /* the last part after " -> " */
          if (!memcmp(in + k, " -> ", 4)) u = in + k + 4;
        size_t uln = (size_t)(in + ul - u);
        *line = ln;
        if (pcol_buf_append(file, u, uln)) return PCOL_ENOMEM;
        if (i) return pcol_buf_append(name, s, i);
        return pcol_buf_append(name, "(root scope) ", 13) || pcol_buf_append(name, u, uln);
      }
    }
  }
  if (url_line(s, n, &ul, &ln)) { /* "url:line[:col]" */
    const char *u = s;
    for (size_t k = 0; k + 4 <= ul; k++)
      if (!memcmp(s + k, " -> ", 4)) u = s + k + 4;
    size_t uln = (size_t)(s + ul - u);
    *line = ln;
    if (pcol_buf_append(file, u, uln)) return PCOL_ENOMEM;
    return pcol_buf_append(name, "(root scope) ", 13) || pcol_buf_append(name, u, uln);
  }
  return pcol_buf_append(name, s, n);
}
