/* pprof_legacy_text.c — the legacy text profiles, as google/pprof reads
 * them (profile/legacy_profile.go parseHeap, parseGoCount, parseThread,
 * parseContention; legacy_java_profile.go parseJavaProfile), tried in go's
 * order (parseLegacy) after the binary CPU profile:
 *
 *  - heap (gperftools/tcmalloc, Go's old text form): the first line holds
 *    "heap profile: N: S [ AN: AS ] @ heap...[/RATE]" (or "@ growthz",
 *    "@ fragmentationz": period 1, not unsampled); objects/count and
 *    space/bytes, or alloc_objects, alloc_space, inuse_objects, inuse_space
 *    when the alloc pair differs from the inuse one; period type
 *    space/bytes, period RATE ("heap": RATE / 2, "heapprofile": 1);
 *    "heap_v2"/"heapz_v2" and "heap" samples unsampled (scaleHeapSample),
 *    each with the label bytes = size / count (before unsampling);
 *  - Go's count profiles ("threadcreate profile: total N", goroutine):
 *    TYPE/count, period 1;
 *  - threadz ("--- threadz N ---", "--- Thread X (name: N/T) stack: ---"):
 *    thread/count, a "same as previous thread" adding one to the last;
 *  - contention ("--- contentionz ", "--- mutex:", "--- contention:"):
 *    contentions/count and delay/nanoseconds, both times "sampling period",
 *    the delay's cycles over "cycles/second" / 1e9; duration from
 *    "ms since reset";
 *  - Java heapz and contentionz ("--- heapz 1 ---", "--- contentionz 1 ---"
 *    with "format = java"): the units of "resolution", heapz unsampled at
 *    512 KiB, symbols after the samples as in the binary Java profile;
 *  - every address - 1 (pcol_lg_adjust: threadz all but the leaf, Java
 *    none), then the memory map after "--- Memory map: ---" or
 *    "MAPPED_LIBRARIES:" and the locations as pprof_legacy.c reads them for
 *    the binary profile; drop_frames (keep_frames) as addLegacyFrameInfo.
 * The input is held whole (capped by the caller).  A line go would refuse
 * is refused with its number; one longer than bufio.Scanner's 64 KiB too. */
#include "pcol.h"
#include "keys.h"
#include "pprof.h"
#include "pprof_legacy.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS LG_NS
#define AT LG_AT

enum { UNRECOGNIZED = 3 };

typedef struct span {
  const char *p;
  size_t n;
} span;

/* ------------------------------------------------ bufio.Scanner's lines */

typedef struct scan {
  const char *d;
  size_t n, at; /* the next line's start */
  size_t no;    /* the current line's number (1-based) */
  span cur;     /* the current line; empty after the end, as Text() */
  lp *p;
  const char *kind;
  int rc; /* a line too long */
} scan;

static int scan_next(scan *s) {
  if (s->at >= s->n || s->rc) {
    s->cur = (span){"", 0};
    return 0;
  }
  const char *nl = memchr(s->d + s->at, '\n', s->n - s->at);
  size_t e = nl ? (size_t)(nl - s->d) : s->n;
  s->no++;
  if (e - s->at > 65535) {
    s->rc = pcol_error_set(s->p->err, PCOL_ECORRUPT, "%s: legacy %s profile: line %zu longer than 64 KiB",
                           s->p->name, s->kind, s->no);
    s->cur = (span){"", 0};
    return 0;
  }
  s->cur = (span){s->d + s->at, e - s->at};
  if (s->cur.n && s->cur.p[s->cur.n - 1] == '\r') s->cur.n--;
  s->at = nl ? e + 1 : s->n;
  return 1;
}

static int bad(scan *s, const char *fmt, const char *what) {
  return pcol_error_set(s->p->err, PCOL_ECORRUPT, "%s: legacy %s profile: line %zu: %s%s", s->p->name, s->kind,
                        s->no, fmt, what ? what : "");
}

/* ------------------------------------------------ strings */

static int is_sp(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '\v'; }
static int is_dig(int c) { return c >= '0' && c <= '9'; }
static int is_lhex(int c) { return is_dig(c) || (c >= 'a' && c <= 'f'); }
static int is_xdig(int c) { return is_lhex(c) || (c >= 'A' && c <= 'F'); }
static int is_word(int c) { return is_dig(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_'; }

static span trim(span s) {
  while (s.n && is_sp((unsigned char)s.p[0])) s.p++, s.n--;
  while (s.n && is_sp((unsigned char)s.p[s.n - 1])) s.n--;
  return s;
}
static int prefix(span s, const char *x) {
  size_t l = strlen(x);
  return s.n >= l && !memcmp(s.p, x, l);
}
static const char *find(span s, size_t from, const char *x) {
  size_t l = strlen(x);
  return from <= s.n ? memmem(s.p + from, s.n - from, x, l) : NULL;
}
static int space_or_comment(span s) {
  s = trim(s);
  return !s.n || s.p[0] == '#';
}
static int sentinel(span s) { return find(s, 0, "--- Memory map: ---") || find(s, 0, "MAPPED_LIBRARIES:"); }
static int eq(span s, const char *x) { return s.n == strlen(x) && !memcmp(s.p, x, s.n); }
/* the run of addresses after a sample's "@" from l.p[i] on (spaces, 'x'
 * and lower-case hex digits: the stack group of go's sample expressions) */
static span addr_run(span l, size_t i) {
  size_t a = i;
  while (i < l.n && (l.p[i] == ' ' || l.p[i] == 'x' || is_lhex(l.p[i]))) i++;
  return (span){l.p + a, i - a};
}

/* strconv.ParseInt(s, 10, 64) of [-]digits */
static int int10(span s, int64_t *v) {
  int neg = s.n && (s.p[0] == '-' || s.p[0] == '+');
  neg = neg && s.p[0] == '-';
  size_t i = s.n && (s.p[0] == '-' || s.p[0] == '+');
  if (i == s.n) return 0;
  uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < s.n; i++) {
    if (!is_dig(s.p[i])) return 0;
    uint64_t d = (uint64_t)(s.p[i] - '0');
    if (x > (lim - d) / 10) return 0;
    x = x * 10 + d;
  }
  *v = neg ? (int64_t)(0 - x) : (int64_t)x;
  return 1;
}

/* strconv.ParseInt(s, 0, 64): a sign, then 0x, 0o, 0b, 0 (octal) or
 * decimal digits, '_' between digits after a prefix */
static int int0(span s, int64_t *v) {
  size_t i = 0;
  int neg = 0;
  if (s.n && (s.p[0] == '-' || s.p[0] == '+')) neg = s.p[0] == '-', i = 1;
  unsigned base = 10;
  int pre = 0;
  if (s.n - i >= 2 && s.p[i] == '0') {
    int c = s.p[i + 1] | 0x20;
    if (c == 'x') base = 16, i += 2, pre = 1;
    else if (c == 'o') base = 8, i += 2, pre = 1;
    else if (c == 'b') base = 2, i += 2, pre = 1;
    else base = 8, i += 1, pre = 1;
  }
  if (i == s.n) return 0;
  uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  int last_us = 1, digits = 0;
  for (; i < s.n; i++) {
    int c = s.p[i];
    if (c == '_') {
      if (!pre || last_us) return 0;
      last_us = 1;
      continue;
    }
    unsigned d = is_dig(c) ? (unsigned)(c - '0') : is_xdig(c) ? (unsigned)((c | 0x20) - 'a' + 10) : 99;
    if (d >= base) return 0;
    if (x > (lim - d) / base) return 0;
    x = x * base + d;
    last_us = 0;
    digits++;
  }
  if (last_us && digits) return 0;
  *v = neg ? (int64_t)(0 - x) : (int64_t)x;
  return 1;
}

/* go's x / y in int64 (MinInt64 / -1 is MinInt64; y != 0) */
static int64_t div64(int64_t x, int64_t y) { return y == -1 ? (int64_t)(0 - (uint64_t)x) : x / y; }
static int64_t mul64(int64_t x, int64_t y) { return (int64_t)((uint64_t)x * (uint64_t)y); }

/* hexNumberRE's `0x[0-9a-f]+` over s, each ParseUint(.., 0, 64), into
 * p->addr (adjusted); *n gets how many.  0: one past 64 bits */
static int hex_addrs(lp *p, span s, int adj, size_t *n, size_t *k0, int *oom) {
  size_t k = *k0;
  for (size_t i = 0; i + 2 < s.n;) {
    if (s.p[i] == '0' && s.p[i + 1] == 'x' && i + 2 < s.n && is_lhex(s.p[i + 2])) {
      size_t j = i + 2;
      uint64_t x = 0;
      int over = 0;
      while (j < s.n && is_lhex(s.p[j])) {
        if (x >> 60) over = 1;
        x = x << 4 | (uint64_t)(is_dig(s.p[j]) ? s.p[j] - '0' : s.p[j] - 'a' + 10);
        j++;
      }
      if (over) return 0;
      uint64_t a = pcol_lg_adjust(x, k++, adj);
      if (PCOL_BUF_PUSH(&p->addr, uint64_t, a)) {
        *oom = 1;
        return 1;
      }
      (*n)++;
      i = j;
    } else {
      i++;
    }
  }
  *k0 = k;
  return 1;
}

/* a sample of k's values v (and its label bytes) */
static int add_sample(lp *p, const lkind *k, const int64_t *v, int64_t bytes, size_t first, size_t n) {
  lsample s = {v[0], first, n};
  for (int i = 1; i < k->nv; i++)
    if (PCOL_BUF_PUSH(&p->more, int64_t, v[i])) return pcol_lg_nomem(p);
  if (k->bytes_label && PCOL_BUF_PUSH(&p->more, int64_t, bytes)) return pcol_lg_nomem(p);
  return pcol_buf_append(&p->samples, &s, sizeof s) ? pcol_lg_nomem(p) : PCOL_OK;
}

/* One sample's addresses from s (the captured text): error or OK */
static int stack(scan *sc, span s, int adj, size_t *first, size_t *n) {
  int oom = 0;
  size_t k = 0;
  *first = NS(sc->p->addr, uint64_t);
  *n = 0;
  if (!hex_addrs(sc->p, s, adj, n, &k, &oom)) return bad(sc, "an address past 64 bits", NULL);
  return oom ? pcol_lg_nomem(sc->p) : PCOL_OK;
}

/* parseAdditionalSections: from the current line to a memory map sentinel,
 * the lines after it as the map; then the locations placed */
static int maps_and_locations(scan *s, int dup_leaf) {
  while (!sentinel(s->cur) && scan_next(s)) {
  }
  int rc = s->rc;
  if (!rc && s->at < s->n) rc = pcol_lg_read_maps(s->p, s->d + s->at, s->n - s->at, s->at);
  if (!rc) pcol_lg_massage_maps(s->p);
  if (!rc) rc = pcol_lg_number_locations(s->p);
  if (!rc) rc = pcol_lg_place_locations(s->p);
  if (!rc && dup_leaf) pcol_lg_drop_duplicate_leaf(s->p);
  return rc;
}

/* ------------------------------------------------ heap */

/* digits at *i: their span (empty: none) */
static span digits(span l, size_t *i) {
  size_t a = *i;
  while (*i < l.n && is_dig(l.p[*i])) (*i)++;
  return (span){l.p + a, *i - a};
}
static void spaces(span l, size_t *i) {
  while (*i < l.n && l.p[*i] == ' ') (*i)++;
}
static int lit(span l, size_t *i, const char *x) {
  size_t k = strlen(x);
  if (l.n - *i < k || memcmp(l.p + *i, x, k)) return 0;
  *i += k;
  return 1;
}

/* ` *(\d+): *(\d+) *\[ *(\d+): *(\d+) *\]` at *i (after "heap profile:") */
static int heap_counts(span l, size_t *i, span g[4]) {
  spaces(l, i);
  if (!(g[0] = digits(l, i)).n || !lit(l, i, ":")) return 0;
  spaces(l, i);
  if (!(g[1] = digits(l, i)).n) return 0;
  spaces(l, i);
  if (!lit(l, i, "[")) return 0;
  spaces(l, i);
  if (!(g[2] = digits(l, i)).n || !lit(l, i, ":")) return 0;
  spaces(l, i);
  if (!(g[3] = digits(l, i)).n) return 0;
  spaces(l, i);
  return lit(l, i, "]");
}

/* heapHeaderRE (form 0), growthHeaderRE (1), fragmentationHeaderRE (2):
 * the form that matches first, else -1; g[4], g[5] of form 0 */
static int heap_header(span l, span g[6]) {
  for (int form = 0; form < 3; form++)
    for (const char *h = find(l, 0, "heap profile:"); h; h = find(l, (size_t)(h - l.p) + 1, "heap profile:")) {
      size_t i = (size_t)(h - l.p) + 13;
      if (!heap_counts(l, &i, g)) continue;
      if (form == 0) {
        spaces(l, &i);
        if (!lit(l, &i, "@")) continue;
        spaces(l, &i);
        size_t a = i;
        if (!lit(l, &i, "heap")) continue;
        while (i < l.n && (l.p[i] == '_' || is_dig(l.p[i]) || (l.p[i] >= 'a' && l.p[i] <= 'z'))) i++;
        g[4] = (span){l.p + a, i - a};
        lit(l, &i, "/");
        g[5] = digits(l, &i);
        return 0;
      }
      if (lit(l, &i, form == 1 ? " @ growth" : " @ fragmentation")) return form;
    }
  return -1;
}

/* heapSampleRE `(-?\d+): *(-?\d+) *\[ *(\d+): *(\d+) *] @([ x0-9a-f]*)`,
 * leftmost: g[4] the addresses' text */
static int heap_sample_rx(span l, span g[5]) {
  for (size_t s0 = 0; s0 < l.n; s0++) {
    size_t i = s0, a = i;
    lit(l, &i, "-");
    if (!digits(l, &i).n) continue;
    g[0] = (span){l.p + a, i - a};
    if (!lit(l, &i, ":")) continue;
    spaces(l, &i);
    a = i;
    lit(l, &i, "-");
    if (!digits(l, &i).n) continue;
    g[1] = (span){l.p + a, i - a};
    spaces(l, &i);
    if (!lit(l, &i, "[")) continue;
    spaces(l, &i);
    if (!(g[2] = digits(l, &i)).n || !lit(l, &i, ":")) continue;
    spaces(l, &i);
    if (!(g[3] = digits(l, &i)).n) continue;
    spaces(l, &i);
    if (!lit(l, &i, "] @")) continue;
    g[4] = addr_run(l, i);
    return 1;
  }
  return 0;
}

static int heap_values(scan *s, span cs, span ss, const char *label, int v2, int64_t rate, int64_t *v,
                       int64_t *block) {
  int64_t count, size;
  if (!int10(cs, &count) || !int10(ss, &size)) return bad(s, "a malformed sample: a value past 64 bits", NULL);
  if (count == 0 && size != 0) {
    char m[96];
    snprintf(m, sizeof m, "%s count was 0 but %s bytes was %" PRId64, label, label, size);
    return bad(s, m, NULL);
  }
  if (count != 0) {
    *block = div64(size, count);
    if (v2) pcol_lg_scale_heap(&count, &size, rate);
  }
  v[0] = count;
  v[1] = size;
  return PCOL_OK;
}

static int heap(scan *s, lkind *k) {
  if (!scan_next(s)) return s->rc ? s->rc : UNRECOGNIZED;
  span g[6];
  int form = heap_header(s->cur, g), v2 = 0, alloc = 0;
  if (form < 0) return UNRECOGNIZED;
  int64_t period = 1;
  if (form == 0) {
    period = 0;
    if (g[5].n && !int10(g[5], &period)) return UNRECOGNIZED;
    alloc = ((g[2].n != g[0].n || memcmp(g[2].p, g[0].p, g[0].n)) && !eq(g[2], "0")) ||
            ((g[3].n != g[1].n || memcmp(g[3].p, g[1].p, g[1].n)) && !eq(g[3], "0"));
    if (eq(g[4], "heapz_v2") || eq(g[4], "heap_v2")) v2 = 1;
    else if (eq(g[4], "heapprofile")) period = 1;
    else if (eq(g[4], "heap")) v2 = 1, period /= 2;
    else return UNRECOGNIZED;
  }
  static const lkind two = {2, {"objects", "space"}, {"count", "bytes"}, "space", "bytes", 0,
                            pcol_lg_alloc_rx, pcol_lg_alloc_skip_rx, PCOL_NA_I64, 1, 0};
  static const lkind four = {4,
                             {"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"},
                             {"count", "bytes", "count", "bytes"},
                             "space", "bytes", 0, pcol_lg_alloc_rx, pcol_lg_alloc_skip_rx, PCOL_NA_I64, 1, 0};
  *k = alloc ? four : two;
  k->period = period;
  while (scan_next(s)) {
    span l = trim(s->cur);
    if (space_or_comment(l)) continue;
    if (sentinel(l)) break;
    span m[5];
    if (!heap_sample_rx(l, m)) return bad(s, "unexpected number of sample values: got 0, want 6", NULL);
    int64_t v[4], block = 0;
    int rc = PCOL_OK;
    if (alloc) rc = heap_values(s, m[2], m[3], "allocation", v2, period, v, &block);
    if (!rc) rc = heap_values(s, m[0], m[1], "inuse", v2, period, v + (alloc ? 2 : 0), &block);
    size_t first, n;
    if (!rc) rc = stack(s, m[4], LG_ADJ_ALL, &first, &n);
    if (!rc) rc = add_sample(s->p, k, v, block, first, n);
    if (rc) return rc;
  }
  return s->rc ? s->rc : maps_and_locations(s, 0);
}

/* ------------------------------------------------ Go's count profiles */

static int gocount(scan *s, lkind *k, char *type, size_t ntype) {
  while (scan_next(s) && space_or_comment(s->cur)) {
  }
  if (s->rc) return s->rc;
  /* countStartRE `\A(\S+) profile: total \d+\z` */
  span l = s->cur;
  size_t i = 0;
  while (i < l.n && !(l.p[i] == ' ' || l.p[i] == '\t' || l.p[i] == '\n' || l.p[i] == '\f' || l.p[i] == '\r')) i++;
  if (!i || i >= ntype || !lit(l, &i, " profile: total ") || !digits(l, &i).n || i != l.n) return UNRECOGNIZED;
  memcpy(type, l.p, (size_t)(find(l, 0, " profile: total ") - l.p));
  type[find(l, 0, " profile: total ") - l.p] = 0;
  *k = (lkind){1, {type}, {"count"}, type, "count", 1, pcol_lg_cpu_rx, NULL, PCOL_NA_I64, 0, 0};
  while (scan_next(s)) {
    l = s->cur;
    if (space_or_comment(l)) continue;
    if (prefix(l, "---")) break;
    /* countRE `\A(\d+) @(( 0x[0-9a-f]+)+)\z` */
    i = 0;
    span c = digits(l, &i);
    int ok = c.n && lit(l, &i, " @") && i < l.n;
    for (size_t j = i; ok && j < l.n;) {
      if (!lit(l, &j, " 0x") || j >= l.n || !is_lhex(l.p[j])) ok = 0;
      while (ok && j < l.n && is_lhex(l.p[j])) j++;
    }
    int64_t v;
    if (!ok || !int0(c, &v)) return bad(s, "malformed profile format", NULL);
    size_t first, n;
    int rc = stack(s, (span){l.p + i, l.n - i}, LG_ADJ_ALL, &first, &n);
    if (rc == PCOL_ECORRUPT) return bad(s, "malformed profile format", NULL);
    if (!rc) rc = add_sample(s->p, k, &v, 0, first, n);
    if (rc) return rc;
  }
  return s->rc ? s->rc : maps_and_locations(s, 0);
}

/* ------------------------------------------------ threadz */

/* threadStartRE `--- Thread ([[:xdigit:]]+) \(name: (.*)/(\d+)\) stack: ---` */
static int thread_start(span l) {
  for (const char *h = find(l, 0, "--- Thread "); h; h = find(l, (size_t)(h - l.p) + 1, "--- Thread ")) {
    size_t i = (size_t)(h - l.p) + 11, a = i;
    while (i < l.n && is_xdig(l.p[i])) i++;
    if (i == a || !lit(l, &i, " (name: ")) continue;
    for (size_t q = i; q < l.n; q++) {
      if (l.p[q] != '/') continue;
      size_t j = q + 1;
      if (digits(l, &j).n && lit(l, &j, ") stack: ---")) return 1;
    }
  }
  return 0;
}

static int thread(scan *s, lkind *k) {
  while (scan_next(s) && space_or_comment(s->cur)) {
  }
  if (s->rc) return s->rc;
  span line = s->cur;
  /* threadzStartRE `--- threadz \d+ ---` */
  int threadz = 0;
  for (const char *h = find(line, 0, "--- threadz "); h && !threadz;
       h = find(line, (size_t)(h - line.p) + 1, "--- threadz ")) {
    size_t i = (size_t)(h - line.p) + 12;
    threadz = digits(line, &i).n && lit(line, &i, " ---");
  }
  if (threadz) {
    while (scan_next(s)) {
      line = s->cur;
      if (sentinel(line) || prefix(line, "-")) break;
    }
    if (s->rc) return s->rc;
  } else if (!thread_start(line)) {
    return UNRECOGNIZED;
  }
  *k = (lkind){1, {"thread"}, {"count"}, "thread", "count", 1, pcol_lg_cpu_rx, NULL, PCOL_NA_I64, 0, 0};
  while (!sentinel(line)) {
    if (prefix(line, "---- no stack trace for")) break;
    if (!thread_start(line)) return UNRECOGNIZED;
    /* parseThreadSample */
    int same = 0, oom = 0;
    size_t first = NS(s->p->addr, uint64_t), n = 0, kk = 0;
    line = (span){"", 0};
    while (scan_next(s)) {
      line = trim(s->cur);
      if (!line.n) continue;
      if (prefix(line, "---")) break;
      if (find(line, 0, "same as previous thread")) {
        same = 1;
        continue;
      }
      if (!hex_addrs(s->p, line, LG_ADJ_CALLERS, &n, &kk, &oom)) return bad(s, "an address past 64 bits", NULL);
      if (oom) return pcol_lg_nomem(s->p);
    }
    if (s->rc) return s->rc;
    if (same || !n) { /* "same as previous threads": one more of the last */
      s->p->addr.len = first * sizeof(uint64_t);
      if (NS(s->p->samples, lsample)) AT(s->p->samples, lsample)[NS(s->p->samples, lsample) - 1].v++;
      continue;
    }
    int64_t one = 1;
    int rc = add_sample(s->p, k, &one, 0, first, n);
    if (rc) return rc;
  }
  return maps_and_locations(s, 1);
}

/* ------------------------------------------------ contention */

/* contentionSampleRE `(\d+) *(\d+) @([ x0-9a-f]*)`, leftmost, as go's
 * backtracking takes it */
static int contention_rx(span l, span g[3]) {
  for (size_t i = 0; i < l.n; i++) {
    if (!is_dig(l.p[i])) continue;
    size_t j = i;
    digits(l, &j);
    size_t q = j, r;
    spaces(l, &q);
    r = q;
    span d2 = digits(l, &r);
    size_t e;
    if (d2.n && (e = r, lit(l, &e, " @"))) {
      g[0] = (span){l.p + i, j - i};
      g[1] = d2;
    } else if (j - i >= 2 && (e = j, lit(l, &e, " @"))) {
      g[0] = (span){l.p + i, j - i - 1};
      g[1] = (span){l.p + j - 1, 1};
    } else {
      continue;
    }
    g[2] = addr_run(l, e);
    return 1;
  }
  return 0;
}

static int contention(scan *s, lkind *k) {
  if (!scan_next(s)) return s->rc ? s->rc : UNRECOGNIZED;
  if (!prefix(s->cur, "--- contentionz ") && !prefix(s->cur, "--- mutex:") && !prefix(s->cur, "--- contention:"))
    return UNRECOGNIZED;
  *k = (lkind){2, {"contentions", "delay"}, {"count", "nanoseconds"}, "contentions", "count", 1,
               pcol_lg_lock_rx, NULL, PCOL_NA_I64, 0, 0};
  int64_t hz = 0;
  while (scan_next(s)) {
    span l = trim(s->cur);
    if (space_or_comment(l)) continue;
    if (prefix(l, "---")) break;
    const char *e = memchr(l.p, '=', l.n);
    if (!e) break;
    span key = trim((span){l.p, (size_t)(e - l.p)}), val = trim((span){e + 1, l.n - (size_t)(e - l.p) - 1});
    int64_t x;
    if (eq(key, "cycles/second")) {
      if (!int0(val, &hz)) return UNRECOGNIZED;
    } else if (eq(key, "sampling period")) {
      if (!int0(val, &k->period)) return UNRECOGNIZED;
    } else if (eq(key, "ms since reset")) {
      if (!int0(val, &x)) return UNRECOGNIZED;
      k->duration = mul64(x, 1000000);
    } else if (!eq(key, "discarded samples")) {
      return UNRECOGNIZED; /* "format", "resolution": Java's */
    }
  }
  if (s->rc) return s->rc;
  for (;;) {
    span l = trim(s->cur);
    if (prefix(l, "---")) break;
    if (!space_or_comment(l)) {
      span g[3];
      int64_t v1, v2;
      if (!contention_rx(l, g)) return UNRECOGNIZED;
      if (!int10(g[0], &v1) || !int10(g[1], &v2)) return bad(s, "a malformed sample: a value past 64 bits", NULL);
      if (k->period > 0) {
        if (hz > 0) {
          double ghz = (double)hz / 1e9;
          v1 = pcol_lg_go_int64((double)v1 * (double)k->period / ghz);
        }
        v2 = mul64(v2, k->period);
      }
      int64_t v[2] = {v2, v1};
      size_t first, n;
      int rc = stack(s, g[2], LG_ADJ_ALL, &first, &n);
      if (!rc) rc = add_sample(s->p, k, v, 0, first, n);
      if (rc) return rc;
    }
    if (!scan_next(s)) break;
  }
  return s->rc ? s->rc : maps_and_locations(s, 0);
}

/* ------------------------------------------------ Java heapz, contentionz */

/* attributeRx `([\w ]+)=([\w ]+)` */
static int java_attr(span l, span *key, span *val) {
  for (size_t a = 0; a < l.n;) {
    if (!(is_word(l.p[a]) || l.p[a] == ' ')) {
      a++;
      continue;
    }
    size_t j = a;
    while (j < l.n && (is_word(l.p[j]) || l.p[j] == ' ')) j++;
    if (j + 1 < l.n && l.p[j] == '=' && (is_word(l.p[j + 1]) || l.p[j + 1] == ' ')) {
      size_t e = j + 1;
      while (e < l.n && (is_word(l.p[e]) || l.p[e] == ' ')) e++;
      *key = trim((span){l.p + a, j - a});
      *val = trim((span){l.p + j + 1, e - j - 1});
      return 1;
    }
    a = j;
  }
  return 0;
}

/* javaSampleRx ` *(\d+) +(\d+) +@ +([ x0-9a-f]*)` */
static int java_sample_rx(span l, span g[3]) {
  for (size_t s0 = 0; s0 < l.n; s0++) {
    size_t i = s0;
    spaces(l, &i);
    if (!(g[0] = digits(l, &i)).n) continue;
    size_t b = i;
    spaces(l, &i);
    if (i == b || !(g[1] = digits(l, &i)).n) continue;
    b = i;
    spaces(l, &i);
    if (i == b || !lit(l, &i, "@")) continue;
    b = i;
    spaces(l, &i);
    if (i == b) continue;
    g[2] = addr_run(l, i);
    return 1;
  }
  return 0;
}

/* the next '\n'-ended line from *at: 0 when there is none (the rest is
 * not a line to these loops, as bytes.IndexByte gives) */
static int nl_line(scan *s, span *l) {
  const char *nl = s->at < s->n ? memchr(s->d + s->at, '\n', s->n - s->at) : NULL;
  if (!nl) return 0;
  *l = (span){s->d + s->at, (size_t)(nl - (s->d + s->at))};
  s->no++;
  return 1;
}

static int java(scan *s, lkind *k, pcol_builder *b, char *unit) {
  const char *nl = memchr(s->d, '\n', s->n);
  if (!nl) return UNRECOGNIZED;
  span h = trim((span){s->d, (size_t)(nl - s->d)});
  int heapz = eq(h, "--- heapz 1 ---");
  if (!heapz && !eq(h, "--- contentionz 1 ---")) return UNRECOGNIZED;
  s->at = (size_t)(nl - s->d) + 1;
  s->no = 1;
  *k = (lkind){0, {0}, {0}, "", "", 0, heapz ? pcol_lg_alloc_rx : pcol_lg_lock_rx,
               heapz ? pcol_lg_alloc_skip_rx : NULL, PCOL_NA_I64, heapz, 0}; /* (go: an empty period type) */
  span l, key, val;
  while (nl_line(s, &l)) {
    span t = trim(l);
    if (t.n) {
      if (!java_attr(t, &key, &val)) {
        s->no--;
        break;
      }
      if (eq(key, "format")) {
        if (!eq(val, "java")) return UNRECOGNIZED;
      } else if (eq(key, "resolution")) {
        size_t m = val.n < 255 ? val.n : 255;
        char *u = unit;
        memcpy(u, val.p, m);
        u[m] = 0;
        k->nv = 2;
        k->type[0] = heapz ? "inuse_objects" : "contentions";
        k->type[1] = heapz ? "inuse_space" : "delay";
        k->unit[0] = "count";
        k->unit[1] = u;
      } else if (!heapz && eq(key, "sampling period")) {
        k->ptype = "contentions";
        k->punit = "count";
        if (!int0(val, &k->period)) return bad(s, "failed to parse attribute sampling period", NULL);
      } else if (!heapz && eq(key, "ms since reset")) {
        int64_t x;
        if (!int0(val, &x)) return bad(s, "failed to parse attribute ms since reset", NULL);
        k->duration = mul64(x, 1000000);
      } else {
        return UNRECOGNIZED;
      }
    }
    s->at += l.n + 1;
  }
  while (nl_line(s, &l)) {
    span t = trim(l), g[3];
    if (t.n) {
      if (!java_sample_rx(t, g)) {
        s->no--;
        break;
      }
      int64_t v[2];
      if (!int0(g[1], &v[0]) || !int0(g[0], &v[1])) return bad(s, "a sample's value not a number", NULL);
      size_t first, n;
      int64_t bytes = 0;
      int rc = stack(s, g[2], LG_ADJ_NONE, &first, &n);
      if (rc) return rc;
      if (heapz) {
        if (!v[0]) return bad(s, "second value must be non-zero", NULL);
        bytes = div64(v[1], v[0]);
        pcol_lg_scale_heap(&v[0], &v[1], 524288);
      } else if (k->period) {
        v[0] = mul64(v[0], k->period);
        v[1] = mul64(v[1], k->period);
      }
      if ((rc = add_sample(s->p, k, v, bytes, first, n))) return rc;
    }
    s->at += l.n + 1;
  }
  if (!k->nv && NS(s->p->samples, lsample))
    return pcol_error_set(s->p->err, PCOL_ECORRUPT,
                          "%s: legacy Java %s profile: samples of 2 values but no \"resolution\" for their types "
                          "(go: malformed profile)",
                          s->p->name, heapz ? "heap" : "contention");
  int rc = pcol_lg_number_locations(s->p);
  if (!rc) rc = pcol_lg_java_symbols(s->p, b, s->d + s->at, s->n - s->at, s->at);
  if (!rc) rc = pcol_lg_place_locations(s->p);
  if (!rc) pcol_lg_java_unaddress(s->p);
  return rc;
}

/* ------------------------------------------------ entry */

int pcol_pprof_legacy_text(pcol_builder *b, const uint8_t *d, size_t n, const char *name,
                           const pcol_import_options *opt, pcol_error *err) {
  static const char *kinds[5] = {"heap", "count", "thread", "contention", "Java"};
  char type[256], unit[256];
  for (int kind = 0; kind < 5; kind++) {
    lp p;
    memset(&p, 0, sizeof p);
    p.name = name;
    p.err = err;
    scan s = {(const char *)d, n, 0, 0, {"", 0}, &p, kinds[kind], 0};
    lkind k;
    memset(&k, 0, sizeof k);
    int rc = kind == 0   ? heap(&s, &k)
             : kind == 1 ? gocount(&s, &k, type, sizeof type)
             : kind == 2 ? thread(&s, &k)
             : kind == 3 ? contention(&s, &k)
                         : java(&s, &k, b, unit);
    if (rc == UNRECOGNIZED) {
      lkind none;
      memset(&none, 0, sizeof none);
      pcol_lg_finish(&p, b, &none, NULL, PCOL_EFORMAT); /* (frees) */
      continue;
    }
    return pcol_lg_finish(&p, b, &k, opt, rc);
  }
  return PCOL_PPROF_NOT_LEGACY_TEXT;
}
