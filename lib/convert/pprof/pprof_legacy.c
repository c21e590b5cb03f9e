/* pprof_legacy.c — the legacy binary CPU profile (gperftools' libprofiler,
 * CPUPROFILE=...; Java's "profilez") into a builder, as google/pprof reads it
 * (profile/legacy_profile.go parseCPU, cpuProfile, parseCPUSamples,
 * cleanupDuplicateLocations, ParseMemoryMap; legacy_java_profile.go
 * javaCPUProfile, parseJavaLocations; profile.go massageMappings):
 *
 *  - words of 32 or 64 bits, little- or big-endian, told by the header
 *    (0, 3, 0 for C++ or 1 for Java, period in microseconds > 0, 0), tried
 *    in go's order (32 LE, 32 BE, 64 LE, 64 BE);
 *  - records (count, depth, depth addresses, leaf first) up to the end
 *    marker (0, 1, 0); C++ callers' addresses - 1 (return addresses), the
 *    leaf's as it is; a sample's values (count, count x period x 1000 ns)
 *    as samples/count and cpu/nanoseconds, period cpu/nanoseconds;
 *  - C++: the signal handler's frame (the second frame of nearly every
 *    stack: all but len/32 of them) dropped, at most twice, then the text
 *    after the end marker read as /proc/self/maps (or pprof's brief form)
 *    into mappings: non-executable rows skipped, "name=value" lines giving
 *    $name for the rows after them, adjacent rows of one file merged, the
 *    main binary first, each location in the first that holds it (else a
 *    mapping 0..2^64-1), and the leaf duplicated by the unwinder (address
 *    = next frame's + 1) dropped;
 *  - Java: the text after the end marker gives "0x<addr> name (file:line)"
 *    symbols, and every address is then 0 (pprof's Aggregate);
 *  - drop_frames set to pprof's regexp of the CPU profiler's own frames
 *    (addLegacyFrameInfo), in the meta the protobuf importer sets, and the
 *    stacks pruned by it as go tool pprof prunes them once it has named the
 *    frames (pprof_prune.c: Java's names, or the binary's with --symbolize
 *    local; an unnamed address matches nothing).
 * The memory map, the locations and mappings, Java's symbols and the step
 * into the builder (pcol_lg_finish, the pruning too) are shared with the
 * text formats' reader, pprof_legacy_text.c (pprof_legacy.h).
 * The input is held whole (it was capped by the caller); every count,
 * depth and word is checked against the bytes left, and a record that does
 * not fit is refused with its byte offset, where go's reader would give
 * "unrecognized profile format" or read zeros past the end. */
#include "pcol.h"
#include "keys.h"    /* PCOL_SRC_PPROF, PPROF_META_* */
#include "buf.h"     /* pcol_buf */
#include "hash.h"    /* pcol_u64map */
#include "builder.h" /* pcol_stack_memo, pcol_b_mappings_shared, pcol_b_mapping_first_kept */
#include "pprof.h"
#include "pprof_legacy.h"
#include <math.h>
#include "symbolize.h" /* pcol_sym: --symbolize local */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS LG_NS
#define AT LG_AT

/* go's cpuProfilerRxStr, allocRxStr, allocSkipRxStr, lockRxStr */
const char pcol_lg_cpu_rx[] =
    "ProfileData::Add|ProfileData::prof_handler|CpuProfiler::prof_handler|__pthread_sighandler|"
    "__restore";
const char pcol_lg_alloc_rx[] =
    "calloc|cfree|malloc|free|memalign|do_memalign|(__)?posix_memalign|pvalloc|valloc|realloc|"
    "tcmalloc::.*|tc_calloc|tc_cfree|tc_malloc|tc_free|tc_memalign|tc_posix_memalign|tc_pvalloc|"
    "tc_valloc|tc_realloc|tc_new|tc_delete|tc_newarray|tc_deletearray|tc_new_nothrow|"
    "tc_newarray_nothrow|malloc_zone_malloc|malloc_zone_calloc|malloc_zone_valloc|"
    "malloc_zone_realloc|malloc_zone_memalign|malloc_zone_free|runtime\\..*|BaseArena::.*|"
    "(::)?do_malloc_no_errno|(::)?do_malloc_pages|(::)?do_malloc|DoSampledAllocation|"
    "MallocedMemBlock::MallocedMemBlock|_M_allocate|__builtin_(vec_)?delete|__builtin_(vec_)?new|"
    "__gnu_cxx::new_allocator::allocate|__libc_malloc|__malloc_alloc_template::allocate|allocate|"
    "cpp_alloc|operator new(\\[\\])?|simple_alloc::allocate";
const char pcol_lg_alloc_skip_rx[] = "runtime\\.panic|runtime\\.reflectcall|runtime\\.call[0-9]*";
const char pcol_lg_lock_rx[] =
    "RecordLockProfileData|(base::)?RecordLockProfileData.*|(base::)?SubmitMutexProfileData.*|"
    "(base::)?SubmitSpinLockProfileData.*|(base::Mutex::)?AwaitCommon.*|(base::Mutex::)?Unlock.*|"
    "(base::Mutex::)?UnlockSlow.*|(base::Mutex::)?ReaderUnlock.*|(base::MutexLock::)?~MutexLock.*|"
    "(Mutex::)?AwaitCommon.*|(Mutex::)?Unlock.*|(Mutex::)?UnlockSlow.*|(Mutex::)?ReaderUnlock.*|"
    "(MutexLock::)?~MutexLock.*|(SpinLock::)?Unlock.*|(SpinLock::)?SlowUnlock.*|"
    "(SpinLockHolder::)?~SpinLockHolder.*";

/* scaleHeapSample: each sample over its chance to be in a profile sampled
 * every `rate` bytes on average (1 - e^(-size/rate)); go's int64(float64)
 * of a value past int64 gives INT64_MIN (amd64) */
int64_t pcol_lg_go_int64(double x) {
  return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}
void pcol_lg_scale_heap(int64_t *count, int64_t *size, int64_t rate) {
  if (*count == 0 || *size == 0) {
    *count = *size = 0;
    return;
  }
  if (rate <= 1) return;
  double avg = (double)*size / (double)*count, scale = 1 / (1 - exp(-avg / (double)rate));
  *count = pcol_lg_go_int64((double)*count * scale);
  *size = pcol_lg_go_int64((double)*size * scale);
}

/* ------------------------------------------------ words and the header */

static uint64_t word(const uint8_t *p, int w, int big) {
  uint64_t v = 0;
  for (int i = 0; i < w; i++) v |= (uint64_t)p[big ? w - 1 - i : i] << (8 * i);
  return v;
}

int pcol_pprof_legacy_cpu_header(const uint8_t *p, size_t n, int *w, int *big, int *java,
                                 uint64_t *period) {
  static const int ws[4] = {4, 4, 8, 8}, bigs[4] = {0, 1, 0, 1};
  for (int k = 0; k < 4; k++) {
    int ww = ws[k], bb = bigs[k];
    if (n < (size_t)5 * ww) continue;
    uint64_t h[5];
    for (int i = 0; i < 5; i++) h[i] = word(p + i * ww, ww, bb);
    if (h[0] == 0 && h[1] == 3 && h[2] <= 1 && h[3] > 0 && h[4] == 0) {
      if (w) *w = ww, *big = bb, *java = (int)h[2], *period = h[3];
      return 1;
    }
  }
  return 0;
}

/* ------------------------------------------------ the profile read */

int pcol_lg_nomem(lp *p) { return pcol_error_set(p->err, PCOL_ENOMEM, "%s: out of memory", p->name); }

static int corrupt(lp *p, size_t at, const char *what) {
  return pcol_error_set(p->err, PCOL_ECORRUPT, "%s: legacy CPU profile: %s at byte offset %zu",
                        p->name, what, at);
}

/* The records from d[*at..n) to the end marker (or the end): *at is left
 * after the marker. */
static int read_records(lp *p, const uint8_t *d, size_t n, size_t *at, int w, int big, int adjust) {
  size_t i = *at;
  while (i < n) {
    if (n - i < (size_t)2 * w) return corrupt(p, i, "a record cut short");
    uint64_t count = word(d + i, w, big), depth = word(d + i + w, w, big);
    size_t body = i + 2 * (size_t)w;
    if (depth > (n - body) / (size_t)w) {
      char m[96];
      snprintf(m, sizeof m, "a stack of %" PRIu64 " addresses past the end of the file", depth);
      return corrupt(p, i, m);
    }
    if (count == 0 && depth == 1 && word(d + body, w, big) == 0) { /* the end marker */
      *at = body + (size_t)w;
      return PCOL_OK;
    }
    lsample s = {(int64_t)count, NS(p->addr, uint64_t), (size_t)depth};
    if (pcol_buf_reserve(&p->addr, ((size_t)depth + 1) * sizeof(uint64_t))) return pcol_lg_nomem(p); /* (+1: never NULL) */
    uint64_t *a = AT(p->addr, uint64_t) + s.first;
    for (size_t j = 0; j < depth; j++) {
      a[j] = pcol_lg_adjust(word(d + body + j * (size_t)w, w, big), j, adjust);
    }
    p->addr.len += (size_t)depth * sizeof(uint64_t);
    if (pcol_buf_append(&p->samples, &s, sizeof s)) return pcol_lg_nomem(p);
    i = body + (size_t)depth * w;
  }
  *at = n;
  return PCOL_OK;
}

/* cpuProfile: the second frame that (nearly) every stack has is the
 * signal handler's; removed, twice at most.  Two second frames cannot both
 * be in all but len/32 stacks, so the only candidate is the majority's. */
static void drop_handler_frames(lp *p) {
  lsample *s = AT(p->samples, lsample);
  size_t ns = NS(p->samples, lsample), margin = ns / 32;
  uint64_t *a = AT(p->addr, uint64_t);
  for (int iter = 0; iter < 2; iter++) {
    uint64_t cand = 0;
    size_t votes = 0, count = 0;
    for (size_t i = 0; i < ns; i++) {
      if (s[i].n < 2) continue;
      uint64_t x = a[s[i].first + 1];
      if (!votes) cand = x, votes = 1;
      else votes += x == cand ? 1 : (size_t)-1;
    }
    for (size_t i = 0; i < ns; i++) count += s[i].n > 1 && a[s[i].first + 1] == cand;
    if (!count || count < ns - margin) continue;
    for (size_t i = 0; i < ns; i++)
      if (s[i].n > 1 && a[s[i].first + 1] == cand) {
        memmove(a + s[i].first + 1, a + s[i].first + 2, (s[i].n - 2) * sizeof *a);
        s[i].n--;
      }
  }
}

/* ------------------------------------------------ the memory map text */

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }
static int is_hex(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int is_perm(int c) { return c == '-' || c == 'r' || c == 'w' || c == 'x' || c == 'p'; }

typedef struct span {
  const char *p;
  size_t n;
} span;

/* strconv.ParseUint(s, 16, 64): 0 when it overflows */
static int parse_hex(span s, uint64_t *v) {
  uint64_t x = 0;
  for (size_t i = 0; i < s.n; i++) {
    int c = s.p[i], d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    if (x >> 60) return 0;
    x = x << 4 | (uint64_t)d;
  }
  *v = x;
  return 1;
}

/* A whitespace-separated token at l[*i..n) after at least one space:
 * its span (empty when there is none), *i after it. */
static span token(const char *l, size_t n, size_t *i) {
  size_t j = *i;
  if (j >= n || !is_space(l[j])) return (span){l + j, 0};
  while (j < n && is_space(l[j])) j++;
  size_t k = j;
  while (k < n && !is_space(l[k])) k++;
  if (k == j) return (span){l + j, 0};
  *i = k;
  return (span){l + j, k - j};
}

static int all(span s, int (*cls)(int)) {
  if (!s.n) return 0;
  for (size_t i = 0; i < s.n; i++)
    if (!cls((unsigned char)s.p[i])) return 0;
  return 1;
}
static int hex_pair(span s) {
  const char *c = memchr(s.p, ':', s.n);
  if (!c) return 0;
  span a = {s.p, (size_t)(c - s.p)}, b = {c + 1, s.n - (size_t)(c - s.p) - 1};
  return all(a, is_hex) && all(b, is_hex);
}

typedef struct mentry {
  span start, end, perm, file, offset, bid;
} mentry;

/* go's cHexRange, `\s*(?:0x)?(hex+)[\s-]?\s*(?:0x)?(hex+):?`, as its
 * backtracking matcher takes it; *i after it.  0: no match. */
static int hex_range(const char *l, size_t n, size_t *i, mentry *e) {
  size_t j = 0;
  while (j < n && is_space(l[j])) j++;
  if (j + 1 < n && l[j] == '0' && l[j + 1] == 'x' && j + 2 < n && is_hex(l[j + 2])) j += 2;
  size_t a = j;
  while (j < n && is_hex(l[j])) j++;
  if (j == a) return 0;
  size_t k = j;
  if (k < n && (is_space(l[k]) || l[k] == '-')) k++;
  while (k < n && is_space(l[k])) k++;
  size_t b = k;
  if (k + 1 < n && l[k] == '0' && l[k + 1] == 'x') b = k + 2;
  size_t z = b;
  while (z < n && is_hex(l[z])) z++;
  if (z == b && b != k) z = (b = k) + 1; /* "0x" then no digit: the "0" alone */
  if (z == b) {                          /* no second number: the first gives its last digit */
    if (j - a < 2) return 0;
    e->start = (span){l + a, j - a - 1};
    e->end = (span){l + j - 1, 1};
    z = j;
  } else {
    e->start = (span){l + a, j - a};
    e->end = (span){l + b, z - b};
  }
  if (z < n && l[z] == ':') z++;
  *i = z;
  return 1;
}

/* parseMappingEntry's two expressions: procMapsRE, then briefMapsRE.
 * 0: neither matches (errUnrecognized). */
static int map_entry(const char *l, size_t n, mentry *e) {
  memset(e, 0, sizeof *e);
  size_t at;
  if (!hex_range(l, n, &at, e)) return 0;
  /* procMapsRE: [perm] [offset] hex:hex digits[...] [file] */
  for (int with = 0; with < 4; with++) {
    size_t i = at;
    span perm = {0, 0}, off = {0, 0};
    if (!(with & 2)) {
      perm = token(l, n, &i);
      if (!all(perm, is_perm)) continue;
    }
    if (!(with & 1)) {
      off = token(l, n, &i);
      if (!all(off, is_hex)) continue;
    }
    if (!hex_pair(token(l, n, &i))) continue;
    span num = token(l, n, &i);
    if (!num.n || num.p[0] < '0' || num.p[0] > '9') continue;
    size_t d = 0;
    while (d < num.n && num.p[d] >= '0' && num.p[d] <= '9') d++;
    e->perm = perm;
    e->offset = off;
    if (d == num.n) e->file = token(l, n, &i);
    return 1;
  }
  /* briefMapsRE: [perm] [file] [(@offset)] [buildid], each optional, unanchored */
  size_t i = at;
  if (i < n && is_space(l[i])) {
    size_t j = i;
    while (j < n && is_space(l[j])) j++;
    size_t k = j;
    while (k < n && is_perm((unsigned char)l[k])) k++;
    if (k > j) {
      e->perm = (span){l + j, k - j};
      i = k;
    }
  }
  e->file = token(l, n, &i);
  if (i < n && is_space(l[i])) {
    size_t j = i;
    while (j < n && is_space(l[j])) j++;
    if (j + 1 < n && l[j] == '(' && l[j + 1] == '@') {
      size_t k = j + 2;
      while (k < n && is_hex(l[k])) k++;
      if (k > j + 2 && k < n && l[k] == ')') {
        e->offset = (span){l + j + 2, k - j - 2};
        i = k + 1;
      }
    }
  }
  if (i < n && is_space(l[i])) {
    size_t j = i;
    while (j < n && is_space(l[j])) j++;
    size_t k = j;
    while (k < n && is_hex(l[k])) k++;
    if (k > j) e->bid = (span){l + j, k - j};
  }
  return 1;
}

/* removeLoggingInfo: a glog prefix "file:line] " */
static span unlog(span s) {
  const char *rb = memchr(s.p, ']', s.n);
  if (!rb || rb == s.p || memchr(s.p, '[', (size_t)(rb - s.p))) return s;
  size_t k = (size_t)(rb - s.p), d = k;
  while (d > 0 && s.p[d - 1] >= '0' && s.p[d - 1] <= '9') d--;
  if (d == k || d < 2 || s.p[d - 1] != ':' || k + 1 >= s.n || !is_space(s.p[k + 1])) return s;
  return (span){s.p + k + 2, s.n - k - 2};
}

static int str_add(lp *p, span s, size_t *off) {
  *off = p->str.len;
  return s.n && pcol_buf_append(&p->str, s.p, s.n) ? pcol_lg_nomem(p) : PCOL_OK;
}
static span str_at(const lp *p, size_t off, size_t n) {
  return (span){n ? (const char *)p->str.data + off : "", n};
}
static int span_eq(span a, span b) { return a.n == b.n && (!a.n || !memcmp(a.p, b.p, a.n)); }

/* ParseProcMaps over t[0..n): each line (a glog prefix removed, $name
 * replaced by the values of earlier "name=value" lines, first given first)
 * into p->maps. */
typedef struct attr {
  size_t key, nkey, val, nval; /* "$name" and its value, in keep */
} attr;

int pcol_lg_read_maps(lp *p, const char *t, size_t n, size_t base) {
  pcol_buf attrs = {0}, keep = {0}, rep = {0}; /* attr; their bytes; a replaced line */
  int rc = PCOL_OK;
  size_t i = 0;
  while (i < n && !rc) {
    const char *nl = memchr(t + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - t) : n;
    if (e - i > 65535) { /* bufio.Scanner's longest line: go fails there too */
      rc = corrupt(p, base + i, "a memory map line longer than 64 KiB");
      break;
    }
    span line = {t + i, e - i};
    if (line.n && line.p[line.n - 1] == '\r') line.n--;
    i = nl ? e + 1 : n;
    line = unlog(line);
    size_t na = NS(attrs, attr);
    if (na) { /* strings.NewReplacer(attrs...).Replace: the first given wins */
      const attr *A = AT(attrs, attr);
      const char *K = (const char *)keep.data;
      rep.len = 0;
      for (size_t k = 0; k < line.n && !rc;) {
        size_t a = 0;
        while (a < na && !(A[a].nkey <= line.n - k && !memcmp(line.p + k, K + A[a].key, A[a].nkey))) a++;
        if (a < na) {
          if (A[a].nval && pcol_buf_append(&rep, K + A[a].val, A[a].nval)) rc = pcol_lg_nomem(p);
          k += A[a].nkey;
        } else if (pcol_buf_append(&rep, line.p + k, 1)) {
          rc = pcol_lg_nomem(p);
        } else {
          k++;
        }
      }
      if (rc) break;
      line = (span){rep.len ? (const char *)rep.data : "", rep.len};
    }
    mentry me;
    lmapping m;
    memset(&m, 0, sizeof m);
    int ok = map_entry(line.p, line.n, &me) && parse_hex(me.start, &m.start) &&
             parse_hex(me.end, &m.limit) && (!me.offset.n || parse_hex(me.offset, &m.offset));
    if (!ok) { /* "name = value": $name replaced from the next line on */
      const char *eq = line.n ? memchr(line.p, '=', line.n) : NULL;
      if (!eq) continue;
      span k = {line.p, (size_t)(eq - line.p)}, v = {eq + 1, line.n - (size_t)(eq - line.p) - 1};
      while (k.n && is_space(k.p[0])) k.p++, k.n--;
      while (k.n && is_space(k.p[k.n - 1])) k.n--;
      while (v.n && is_space(v.p[0])) v.p++, v.n--;
      while (v.n && is_space(v.p[v.n - 1])) v.n--;
      attr x = {keep.len, k.n + 1, keep.len + 1 + k.n, v.n};
      if (pcol_buf_append(&keep, "$", 1) || (k.n && pcol_buf_append(&keep, k.p, k.n)) ||
          (v.n && pcol_buf_append(&keep, v.p, v.n)) || pcol_buf_append(&attrs, &x, sizeof x))
        rc = pcol_lg_nomem(p);
      continue;
    }
    if (me.perm.n && !memchr(me.perm.p, 'x', me.perm.n)) continue; /* not executable */
    if ((rc = str_add(p, me.file, &m.file)) || (rc = str_add(p, me.bid, &m.bid))) break;
    m.nfile = me.file.n;
    m.nbid = me.bid.n;
    if (pcol_buf_append(&p->maps, &m, sizeof m)) rc = pcol_lg_nomem(p);
  }
  pcol_buf_free(&attrs);
  pcol_buf_free(&keep);
  pcol_buf_free(&rep);
  return rc;
}

/* massageMappings: adjacent rows of one mapping merged; the first row that
 * names neither a shared library nor [something] moved to the front */
void pcol_lg_massage_maps(lp *p) {
  lmapping *M = AT(p->maps, lmapping);
  size_t n = NS(p->maps, lmapping), k = 0;
  for (size_t i = 0; i < n; i++) {
    if (k) {
      lmapping *l = &M[k - 1], *m = &M[i];
      span lf = str_at(p, l->file, l->nfile), mf = str_at(p, m->file, m->nfile);
      span lb = str_at(p, l->bid, l->nbid), mb = str_at(p, m->bid, m->nbid);
      int adj = (!lf.n || !mf.n || span_eq(lf, mf)) && (!lb.n || !mb.n || span_eq(lb, mb)) &&
                l->limit == m->start &&
                (!l->offset || !m->offset || l->offset + (l->limit - l->start) == m->offset);
      if (adj) {
        l->limit = m->limit;
        if (mf.n) l->file = m->file, l->nfile = m->nfile;
        if (mb.n) l->bid = m->bid, l->nbid = m->nbid;
        continue;
      }
    }
    M[k++] = M[i];
  }
  p->maps.len = k * sizeof *M;
  for (size_t i = 0; i < k; i++) {
    /* strings.TrimSpace(strings.Replace(file, "(deleted)", "", -1)) */
    span f = str_at(p, M[i].file, M[i].nfile);
    char *c = malloc(f.n + 1);
    size_t cn = 0;
    if (!c) continue;
    for (size_t j = 0; j < f.n;) {
      if (f.n - j >= 9 && !memcmp(f.p + j, "(deleted)", 9)) j += 9;
      else c[cn++] = f.p[j++];
    }
    size_t s = 0;
    while (s < cn && is_space(c[s])) s++;
    while (cn > s && is_space(c[cn - 1])) cn--;
    int main = 0;
    if (cn > s && c[s] != '[') { /* libRx: `[.]so$|[.]so[._][0-9]` */
      main = 1;
      for (size_t j = s; j + 3 <= cn && main; j++)
        if (!memcmp(c + j, ".so", 3) &&
            (j + 3 == cn || (j + 4 < cn && (c[j + 3] == '.' || c[j + 3] == '_') && c[j + 4] >= '0' &&
                             c[j + 4] <= '9')))
          main = 0;
    }
    free(c);
    if (main) {
      lmapping t = M[0];
      M[0] = M[i];
      M[i] = t;
      break;
    }
  }
}

/* The location of address x: *ix (0-based in locs), made when `make`;
 * UINT32_MAX when there is none. */
static int loc_of(lp *p, uint64_t x, int make, uint32_t *ix) {
  uint32_t *slot = &p->maxloc, mi; /* UINT64_MAX, which the map refuses as a key */
  if (x != UINT64_MAX) {
    int added, r = pcol_u64map_get(&p->bymap, x, &mi, &added);
    if (r) return r == PCOL_ENOMEM ? pcol_lg_nomem(p) : pcol_error_set(p->err, r, "%s: too many locations", p->name);
    if (added && PCOL_BUF_PUSH(&p->byix, uint32_t, 0)) return pcol_lg_nomem(p);
    slot = AT(p->byix, uint32_t) + mi;
  }
  if (!*slot && make) {
    llocation l = {x, 0, 0, 0};
    if (pcol_buf_append(&p->locs, &l, sizeof l)) return pcol_lg_nomem(p);
    *slot = (uint32_t)NS(p->locs, llocation);
  }
  *ix = *slot - 1;
  return PCOL_OK;
}

/* remapLocationIDs: the locations in their first use by the samples */
int pcol_lg_number_locations(lp *p) {
  size_t na = NS(p->addr, uint64_t);
  if (pcol_buf_reserve(&p->loc, na * sizeof(uint32_t) + 1)) return pcol_lg_nomem(p);
  const lsample *s = AT(p->samples, lsample);
  const uint64_t *a = AT(p->addr, uint64_t);
  uint32_t *L = AT(p->loc, uint32_t);
  for (size_t i = 0; i < NS(p->samples, lsample); i++)
    for (size_t j = s[i].first; j < s[i].first + s[i].n; j++) {
      int rc = loc_of(p, a[j], 1, &L[j]);
      if (rc) return rc;
    }
  p->loc.len = na * sizeof(uint32_t);
  return PCOL_OK;
}

/* remapMappingIDs: the main binary's quirks, then each location's mapping
 * (address 0: none) */
int pcol_lg_place_locations(lp *p) {
  lmapping *M = AT(p->maps, lmapping);
  size_t nm = NS(p->maps, lmapping);
  if (nm > 1 && M[0].nfile >= 14 && !memcmp(p->str.data + M[0].file, "/anon_hugepage", 14) &&
      M[0].limit == M[1].start) {
    memmove(M, M + 1, (nm - 1) * sizeof *M);
    p->maps.len -= sizeof *M;
    nm--;
  }
  if (nm && M[0].start - M[0].offset == 0x400000) M[0].start = 0x400000, M[0].offset = 0;
  uint32_t fake = 0;
  llocation *L = AT(p->locs, llocation);
  for (size_t i = 0; i < NS(p->locs, llocation); i++) {
    uint64_t a = L[i].addr;
    if (!a) continue;
    M = AT(p->maps, lmapping);
    size_t k = 0;
    while (k < nm && !(M[k].start <= a && a < M[k].limit)) k++;
    if (k == nm) /* the first part of a mapping split in two, not written */
      for (k = 0; k < nm; k++)
        if (M[k].offset && M[k].start - M[k].offset <= a && a < M[k].start) {
          M[k].start -= M[k].offset;
          M[k].offset = 0;
          break;
        }
    if (k == nm) {
      if (!fake) {
        lmapping f;
        memset(&f, 0, sizeof f);
        f.limit = UINT64_MAX;
        if (pcol_buf_append(&p->maps, &f, sizeof f)) return pcol_lg_nomem(p);
        fake = (uint32_t)NS(p->maps, lmapping);
      }
      L[i].map = fake;
    } else {
      L[i].map = (uint32_t)k + 1;
    }
  }
  return PCOL_OK;
}

/* cleanupDuplicateLocations: the leaf, met again as the caller's address
 * (read from the stack, - 1), once */
void pcol_lg_drop_duplicate_leaf(lp *p) {
  lsample *s = AT(p->samples, lsample);
  uint32_t *L = AT(p->loc, uint32_t);
  const llocation *loc = AT(p->locs, llocation);
  for (size_t i = 0; i < NS(p->samples, lsample); i++) {
    uint32_t *x = L + s[i].first;
    if (s[i].n > 1 && loc[x[0]].addr == loc[x[1]].addr + 1) {
      memmove(x + 1, x + 2, (s[i].n - 2) * sizeof *x);
      s[i].n--;
    }
  }
}

/* ------------------------------------------------ Java's symbols */

static span trim(span s) { /* strings.TrimSpace, for ASCII */
  while (s.n && (is_space(s.p[0]) || s.p[0] == '\v')) s.p++, s.n--;
  while (s.n && (is_space(s.p[s.n - 1]) || s.p[s.n - 1] == '\v')) s.n--;
  return s;
}

/* The rightmost "(" after a space, before `before`: its index, or 0 */
static size_t open_paren(span s, size_t before) {
  for (size_t o = before; o-- > 1;)
    if (s.p[o] == '(' && is_space(s.p[o - 1])) return o;
  return 0;
}

static int intern(lp *p, pcol_builder *b, span s, uint32_t *id) {
  return pcol_b_string(b, s.n ? s.p : "", s.n, id, p->err);
}

/* parseJavaLocations: "0x<addr> <what>" lines give the locations of those
 * addresses a function (by name: the first line of a name gives its file) */
int pcol_lg_java_symbols(lp *p, pcol_builder *b, const char *t, size_t n, size_t base) {
  pcol_u64map byname = {0}; /* name's string id -> 1-based lfunction */
  int rc = PCOL_OK;
  for (size_t i = 0; i < n && !rc;) {
    const char *nl = memchr(t + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - t) : n, at = i;
    span l = trim((span){t + i, e - i});
    i = nl ? e + 1 : n;
    if (l.n < 3 || l.p[0] != '0' || l.p[1] != 'x') continue;
    size_t h = 2;
    while (h < l.n && is_hex(l.p[h])) h++;
    if (h == 2 || h == l.n || !is_space(l.p[h])) continue;
    uint64_t addr;
    if (!parse_hex((span){l.p + 2, h - 2}, &addr)) {
      rc = corrupt(p, base + at, "a symbol's address past 64 bits");
      break;
    }
    while (h < l.n && is_space(l.p[h])) h++;
    span w = {l.p + h, l.n - h}; /* what the address is */
    uint32_t ix;
    if ((rc = loc_of(p, addr, 0, &ix)) || ix == UINT32_MAX) continue;
    span fn = w, file = {"", 0};
    int64_t line = 0;
    size_t o, c = 0, d = w.n;
    if (w.n && w.p[w.n - 1] == ')') {
      d = w.n - 1;
      while (d > 0 && w.p[d - 1] >= '0' && w.p[d - 1] <= '9') d--;
      if (d < w.n - 1 && d > 0) c = w.p[d - 1] == '-' && d > 1 ? d - 2 : d - 1;
    }
    if (c && w.p[c] == ':' && (o = open_paren(w, c - 1))) { /* name (file:line) */
      fn = (span){w.p, o - 1};
      file = (span){w.p + o + 1, c - o - 1};
      int64_t v = 0;
      int neg = w.p[c + 1] == '-', over = 0;
      for (size_t k = c + 1 + (size_t)neg; k < w.n - 1; k++) {
        if (v > (INT64_MAX - 9) / 10) over = 1;
        else v = v * 10 + (w.p[k] - '0');
      }
      if (!over && !neg && v > 0) line = v;
    } else if (w.n && w.p[w.n - 1] == ')' && (o = open_paren(w, w.n - 1))) {
      fn = (span){w.p, o - 1}; /* name (path): the path's last part */
      file = (span){w.p + o + 1, w.n - o - 2};
      while (file.n > 1 && file.p[file.n - 1] == '/') file.n--;
      if (!file.n) file = (span){".", 1};
      else if (file.n > 1 || file.p[0] != '/') {
        const char *sl = file.n ? memrchr(file.p, '/', file.n) : NULL;
        if (sl) file = (span){sl + 1, file.n - (size_t)(sl + 1 - file.p)};
      }
    } else {
      for (size_t k = 0; k + 18 <= w.n; k++)
        if (!memcmp(w.p + k, "generated stub/JIT", 18)) {
          fn = (span){"STUB", 4};
          break;
        }
    }
    uint32_t name_sid, fx;
    int added;
    if ((rc = intern(p, b, fn, &name_sid))) break;
    if ((rc = pcol_u64map_get(&byname, name_sid, &fx, &added))) {
      rc = pcol_lg_nomem(p);
      break;
    }
    if (added) {
      lfunction f = {name_sid, 0, 0};
      if ((rc = intern(p, b, file, &f.file)) || (pcol_buf_append(&p->fns, &f, sizeof f) && (rc = pcol_lg_nomem(p))))
        break;
    }
    llocation *L = AT(p->locs, llocation) + ix;
    L->fn = fx + 1;
    L->line = line;
    L->addr = 0;
  }
  pcol_u64map_free(&byname);
  return rc;
}

/* ------------------------------------------------ into the builder */

static int meta_u64(lp *p, pcol_builder *b, uint32_t src, const char *key, int64_t v) {
  char t[32];
  int k = snprintf(t, sizeof t, "%" PRId64, v);
  return pcol_b_meta(b, src, key, t, (size_t)k, p->err);
}

/* --symbolize local: the used mappings (the first of them as pprof's main
 * binary) and the locations handed to pcol_sym_locations, as the protobuf
 * importer does; *t gets the chains */
static int symbolize(lp *p, pcol_builder *b, pcol_sym *ss, pcol_sym_table *t) {
  lmapping *M = AT(p->maps, lmapping);
  const llocation *L = AT(p->locs, llocation);
  size_t nm = NS(p->maps, lmapping), nl = NS(p->locs, llocation), used = 0;
  for (size_t i = 0; i < nm; i++) used += M[i].used;
  uint32_t *ix = calloc(nm + 1, sizeof *ix); /* mapping -> 1-based among the used */
  pcol_sym_input *in = ix ? pcol_sym_input_new(used, nl) : NULL;
  if (!in) {
    free(ix);
    return pcol_lg_nomem(p);
  }
  for (size_t i = 0, k = 0; i < nm; i++) {
    if (!M[i].used) continue;
    span f = str_at(p, M[i].file, M[i].nfile), d = str_at(p, M[i].bid, M[i].nbid);
    char *fc = malloc(f.n + 1), *dc = malloc(d.n + 1);
    if (fc) memcpy(fc, f.p, f.n), fc[f.n] = 0;
    if (dc) memcpy(dc, d.p, d.n), dc[d.n] = 0;
    pcol_sym_mapping sm = {M[i].start, M[i].limit, M[i].offset, fc, dc, f.n, 0, k == 0};
    in->maps[k++] = sm;
    ix[i + 1] = (uint32_t)k;
  }
  for (size_t i = 0; i < nl; i++) {
    in->loc_map[i] = ix[L[i].map];
    in->loc_addr[i] = L[i].addr;
  }
  int rc = pcol_sym_locations(ss, b, in, t, p->err);
  /* (the table's mappings are the used ones: spread back) */
  if (!rc && (t->map_flags || t->map_file)) {
    uint8_t *fl = calloc(nm ? nm : 1, 1);
    uint32_t *fi = calloc(nm ? nm : 1, sizeof *fi);
    if (!fl || !fi) rc = pcol_lg_nomem(p);
    for (size_t i = 0; !rc && i < nm; i++)
      if (ix[i + 1]) {
        if (t->map_flags) fl[i] = t->map_flags[ix[i + 1] - 1];
        if (t->map_file) fi[i] = t->map_file[ix[i + 1] - 1];
      }
    if (!rc) {
      free(t->map_flags);
      free(t->map_file);
      t->map_flags = fl;
      t->map_file = fi;
      fl = NULL;
      fi = NULL;
    }
    free(fl);
    free(fi);
  }
  free(ix);
  return rc;
}

/* The order in which go's merge meets the used mappings (merge.go
 * mapSample: the samples in order, one of values all 0 skipped, each
 * one's locations leaf first), one per used mapping in their order
 * (pcol_b_mappings_shared's reach; UINT64_MAX: none), or NULL (memory). */
static uint64_t *legacy_reach(const lp *p, const lkind *k) {
  const lmapping *M = AT(p->maps, lmapping);
  const llocation *L = AT(p->locs, llocation);
  const lsample *s = AT(p->samples, lsample);
  const uint32_t *X = AT(p->loc, uint32_t);
  size_t nm = NS(p->maps, lmapping), ns = NS(p->samples, lsample), nmore = lkind_more(k), n = 0;
  uint64_t *at = malloc((nm + 1) * sizeof *at), met = 0;
  if (!at) return NULL;
  for (size_t i = 0; i < nm; i++) at[i] = UINT64_MAX;
  for (size_t i = 0; i < ns; i++) {
    int zero = s[i].v == 0;
    const int64_t *m = nmore ? AT(p->more, int64_t) + i * nmore : NULL;
    for (int j = 1; j < k->nv && !k->per_count && zero; j++) zero = m[j - 1] == 0;
    for (size_t j = 0; j < s[i].n && !zero; j++) {
      uint32_t mp = L[X[s[i].first + j]].map;
      if (mp && at[mp - 1] == UINT64_MAX) at[mp - 1] = met++;
    }
  }
  for (size_t i = 0; i < nm; i++) /* (the used ones, as emit lists them) */
    if (M[i].used) at[n++] = at[i];
  return at;
}

static int emit(lp *p, pcol_builder *b, const lkind *k, pcol_sym *ss) {
  uint32_t src, t, u, vt[4], bytes_key = 0;
  int rc = pcol_b_source(b, PCOL_SRC_PPROF, p->name, PCOL_NA_I64, &src, p->err);
  if (!rc && k->drop) rc = pcol_b_meta_str(b, src, PPROF_META_DROP_FRAMES, k->drop, p->err);
  if (!rc && k->keep) rc = pcol_b_meta_str(b, src, PPROF_META_KEEP_FRAMES, k->keep, p->err);
  if (!rc && k->ptype) rc = pcol_b_meta_str(b, src, PPROF_META_PERIOD_TYPE_TYPE, k->ptype, p->err);
  if (!rc && k->punit) rc = pcol_b_meta_str(b, src, PPROF_META_PERIOD_TYPE_UNIT, k->punit, p->err);
  if (!rc && k->period) rc = meta_u64(p, b, src, PPROF_META_PERIOD, k->period);
  if (!rc && k->duration != PCOL_NA_I64 && k->duration)
    rc = meta_u64(p, b, src, PPROF_META_DURATION_NANOS, k->duration);
  for (int i = 0; i < k->nv && !rc; i++)
    if (!(rc = pcol_b_cstr(b, k->type[i], &t, p->err)) && !(rc = pcol_b_cstr(b, k->unit[i], &u, p->err)) &&
        !(rc = pcol_b_value_type(b, t, u, &vt[i], p->err)))
      rc = pcol_b_source_value_type(b, src, vt[i], p->err);
  if (!rc && k->bytes_label) rc = pcol_b_cstr(b, "bytes", &bytes_key, p->err);
  if (rc) return rc;
  /* the mappings a location is in, in their order (pprof's merge keeps no
   * other: `-raw` lists these) */
  lmapping *M = AT(p->maps, lmapping);
  llocation *L = AT(p->locs, llocation);
  size_t nl = NS(p->locs, llocation);
  for (size_t i = 0; i < nl; i++)
    if (L[i].map) M[L[i].map - 1].used = 1;
  pcol_sym_table sd;
  memset(&sd, 0, sizeof sd);
  if (ss && (rc = symbolize(p, b, ss, &sd))) {
    pcol_sym_table_free(&sd);
    return rc;
  }
  /* the used ones, one key's one row (pcol_b_mappings_shared), and the
   * first when go's merge keeps it whether used or not: its start is then
   * its key's (a second process's binary at the first's addresses) */
  size_t nm = NS(p->maps, lmapping), nu = 0;
  if (nm && pcol_b_mapping_first_kept(b)) M[0].used = 1;
  pcol_mapping_row *mr = malloc((nm + 1) * sizeof *mr);
  uint32_t *mid = malloc((nm + 1) * sizeof *mid);
  uint64_t *msh = malloc((nm + 1) * sizeof *msh);
  if (!mr || !mid || !msh) rc = pcol_lg_nomem(p);
  for (size_t i = 0; i < nm && !rc; i++) {
    if (!M[i].used) continue;
    pcol_mapping_row r = {M[i].start, M[i].limit, M[i].offset, 0, 0, sd.map_flags ? sd.map_flags[i] : 0};
    span f = str_at(p, M[i].file, M[i].nfile), d = str_at(p, M[i].bid, M[i].nbid);
    if (f.n && (rc = intern(p, b, f, &r.filename))) break;
    if (d.n && (rc = intern(p, b, d, &r.build_id))) break;
    if (sd.map_file && sd.map_file[i]) r.filename = sd.map_file[i];
    mr[nu++] = r;
  }
  /* rows of one key: the one go's merge meets first is kept (reach) */
  int repeat = 0;
  uint64_t *reach = NULL;
  if (!rc) rc = pcol_b_mappings_repeat(b, mr, nu, &repeat, p->err);
  if (!rc && repeat && !(reach = legacy_reach(p, k))) rc = pcol_lg_nomem(p);
  if (!rc) rc = pcol_b_mappings_shared(b, mr, nu, reach, mid, msh, p->err);
  free(reach);
  for (size_t i = 0, j = 0; i < nm && !rc; i++)
    if (M[i].used) M[i].id = mid[j], M[i].shift = msh[j++];
  free(mr);
  free(mid);
  free(msh);
  uint32_t *ids = malloc((nl ? nl : 1) * sizeof *ids);
  if (!ids) {
    pcol_sym_table_free(&sd);
    return rc ? rc : pcol_lg_nomem(p);
  }
  /* go tool pprof prunes the profile by that drop_frames once it is
   * symbolized (fetch.go): the names it has then, the binary's or Java's */
  pcol_pprof_prune pr;
  memset(&pr, 0, sizeof pr);
  if (!rc)
    rc = pcol_pprof_prune_init(&pr, (pcol_str){k->drop ? k->drop : "", k->drop ? strlen(k->drop) : 0},
                               (pcol_str){k->keep ? k->keep : "", k->keep ? strlen(k->keep) : 0}, nl, p->name,
                               p->err);
  lfunction *F = AT(p->fns, lfunction);
  for (size_t i = 0; i < nl && !rc; i++) {
    pcol_line_row line = {0, L[i].line, 0};
    if (L[i].fn) {
      lfunction *fn = &F[L[i].fn - 1];
      pcol_function_row r = {fn->name, fn->name, fn->file, 0};
      if (!fn->id && (rc = pcol_b_function(b, &r, &fn->id, p->err))) break;
      line.function_id = fn->id;
    }
    const pcol_line_row *ln = &line; /* symbolized: the binary's chain */
    size_t n = L[i].fn ? 1 : 0, n0;
    if (sd.loc_n && sd.loc_n[i]) ln = (const pcol_line_row *)(void *)sd.lines.data + sd.loc_first[i], n = sd.loc_n[i];
    n0 = n;
    if (pr.on && pcol_pprof_prune_location(&pr, b, i, ln, &n)) {
      rc = pcol_lg_nomem(p);
      break;
    }
    rc = pcol_b_location(b, L[i].map ? M[L[i].map - 1].id : 0, L[i].map ? L[i].addr + M[L[i].map - 1].shift : L[i].addr,
                         0, ln + (n0 - n), n, &ids[i], p->err);
  }
  pcol_stack_memo memo;
  memset(&memo, 0, sizeof memo);
  pcol_buf st = {0};
  const lsample *s = AT(p->samples, lsample);
  const uint32_t *X = AT(p->loc, uint32_t);
  for (size_t i = 0; i < NS(p->samples, lsample) && !rc; i++) {
    st.len = 0;
    if (pcol_buf_reserve(&st, s[i].n * sizeof(uint32_t) + 1)) {
      rc = pcol_lg_nomem(p);
      break;
    }
    uint32_t *y = AT(st, uint32_t);
    for (size_t j = 0; j < s[i].n; j++) y[j] = ids[X[s[i].first + j]];
    size_t from = pr.on ? pcol_pprof_prune_stack(&pr, X + s[i].first, s[i].n) : 0;
    pcol_sample_row row = {src, PCOL_NA_I64, 0, 1, PCOL_NA_I64, 0, 0};
    pcol_value_row v[4];
    const int64_t *m = lkind_more(k) ? AT(p->more, int64_t) + i * lkind_more(k) : NULL;
    v[0] = (pcol_value_row){vt[0], s[i].v};
    if (k->per_count) /* go's int64 arithmetic, which wraps */
      v[1] = (pcol_value_row){vt[1], (int64_t)((uint64_t)s[i].v * (uint64_t)k->period)};
    else
      for (int j = 1; j < k->nv; j++) v[j] = (pcol_value_row){vt[j], m[j - 1]};
    if (k->bytes_label) {
      pcol_label_row l = {bytes_key, 0, m[k->nv - 1], 0};
      rc = pcol_b_labelset(b, &l, 1, &row.labelset_id, p->err);
    }
    if (!rc && !(rc = pcol_b_stack_memo(b, &memo, y + from, s[i].n - from, &row.stack_id, p->err)))
      rc = pcol_b_sample(b, &row, v, (size_t)k->nv, NULL, p->err);
  }
  pcol_stack_memo_free(&memo);
  pcol_buf_free(&st);
  pcol_sym_table_free(&sd);
  pcol_pprof_prune_free(&pr);
  free(ids);
  return rc;
}

int pcol_pprof_legacy_cpu(pcol_builder *b, const uint8_t *d, size_t n, const char *name,
                          const pcol_import_options *opt, pcol_error *err) {
  int w, big, java;
  uint64_t period;
  if (!pcol_pprof_legacy_cpu_header(d, n, &w, &big, &java, &period))
    return pcol_error_set(err, PCOL_EFORMAT, "%s: not a legacy CPU profile", name);
  lp p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.err = err;
  size_t at = (size_t)5 * w;
  int rc = read_records(&p, d, n, &at, w, big, !java);
  if (!rc && !java) {
    drop_handler_frames(&p);
    rc = pcol_lg_read_maps(&p, (const char *)d + at, n - at, at);
    if (!rc) pcol_lg_massage_maps(&p);
  }
  if (!rc) rc = pcol_lg_number_locations(&p);
  if (!rc && java) rc = pcol_lg_java_symbols(&p, b, (const char *)d + at, n - at, at);
  if (!rc) rc = pcol_lg_place_locations(&p);
  if (!rc && !java) pcol_lg_drop_duplicate_leaf(&p);
  if (!rc && java) pcol_lg_java_unaddress(&p);
  int64_t ns = (int64_t)(period * 1000u); /* (go's int64 arithmetic, which wraps) */
  lkind k = {2, {"samples", "cpu"}, {"count", "nanoseconds"}, "cpu", "nanoseconds", ns, pcol_lg_cpu_rx, NULL,
             PCOL_NA_I64, 0, 1};
  return pcol_lg_finish(&p, b, &k, opt, rc);
}

/* Aggregate(address: false): Java's locations lose their addresses */
void pcol_lg_java_unaddress(lp *p) {
  for (size_t i = 0; i < NS(p->locs, llocation); i++) AT(p->locs, llocation)[i].addr = 0;
}

int pcol_lg_finish(lp *p, pcol_builder *b, const lkind *k, const pcol_import_options *opt, int rc) {
  if (!rc && opt && opt->symbolize.mode == PCOL_SYMBOLIZE_LOCAL) {
    pcol_sym ss; /* its warnings once the profile is built */
    if (pcol_sym_init(&ss, &opt->symbolize)) {
      rc = pcol_lg_nomem(p);
    } else {
      rc = emit(p, b, k, &ss);
      if (!rc) pcol_sym_warnings(&ss, p->name, p->err);
      pcol_sym_free(&ss);
    }
  } else if (!rc) {
    rc = emit(p, b, k, NULL);
  }
  pcol_buf_free(&p->samples);
  pcol_buf_free(&p->more);
  pcol_buf_free(&p->addr);
  pcol_buf_free(&p->loc);
  pcol_buf_free(&p->locs);
  pcol_buf_free(&p->maps);
  pcol_buf_free(&p->fns);
  pcol_buf_free(&p->str);
  pcol_buf_free(&p->byix);
  pcol_u64map_free(&p->bymap);
  return rc;
}
