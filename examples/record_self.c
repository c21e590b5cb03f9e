/* record_self.c — a sampling profiler of itself, through the streaming
 * writer of include/pcol.h.
 *
 * A SIGPROF timer (setitimer, CPU time) interrupts the program; the
 * handler captures backtrace() of the interrupted code and the time into
 * a ring (only async-signal-safe work: no allocation, no stdio).  The main
 * loop does some work in three phases and, between chunks, drains the ring
 * into the writer: each new return address becomes a location named by
 * dladdr (the example links with -rdynamic so that its external functions
 * have dynamic symbols), else by the symbol table of the object it lies in
 * (its static functions and the library's hidden ones), else as the
 * object's code, "[libm.so.6]"; each sample gets the values samples/count and
 * cpu/nanoseconds and a label "phase".  Files roll every --roll-ms or
 * --roll-samples; each published path is printed on standard output.
 *
 *   record_self -o DIR/prof.pcol [--seconds S] [--hz N] [--roll-ms MS]
 *               [--roll-samples N]
 *
 * Then: pcol top DIR/prof-*.pcol (each file), pcol merge, pcol validate. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr's Dl_info, clock_gettime under -std=c11 */
#endif
#include <pcol.h>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define RING 1024 /* samples the handler can hold between two drains */
#define DEPTH 64

typedef struct captured {
  int64_t time_ns;
  int depth, phase;
  void *pcs[DEPTH];
} captured;

static captured ring[RING];
static atomic_uint ring_head, ring_tail; /* handler writes head, main reads tail */
static atomic_ulong dropped;
static volatile sig_atomic_t phase, stop;
static const char *const phase_names[] = {"hash", "sort", "math"};

static void on_prof(int sig) {
  (void)sig;
  unsigned h = atomic_load_explicit(&ring_head, memory_order_relaxed);
  if (h - atomic_load_explicit(&ring_tail, memory_order_acquire) >= RING) {
    atomic_fetch_add(&dropped, 1);
    return;
  }
  captured *c = &ring[h % RING];
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  c->time_ns = (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
  c->phase = phase;
  c->depth = backtrace(c->pcs, DEPTH);
  atomic_store_explicit(&ring_head, h + 1, memory_order_release);
}

static void on_stop(int sig) {
  (void)sig;
  stop = 1;
}

/* --------------------------------------------------- the work (named) */
volatile uint64_t sink;
__attribute__((noinline)) uint64_t work_hash(uint64_t n) {
  uint64_t h = 1469598103934665603ull;
  for (uint64_t i = 0; i < n; i++) h = (h ^ i) * 1099511628211ull;
  return h;
}
int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}
__attribute__((noinline)) uint64_t work_sort(uint32_t *v, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++) v[i] = (uint32_t)(seed = seed * 6364136223846793005ull + 1) >> 3;
  qsort(v, n, sizeof *v, cmp_u32);
  return v[n / 2];
}
__attribute__((noinline)) double work_math(int n) {
  double s = 0;
  for (int i = 1; i < n; i++) s += sqrt((double)i) * sin((double)i);
  return s;
}
__attribute__((noinline)) void do_chunk(int k, uint32_t *buf) {
  phase = k % 3;
  if (phase == 0) sink += work_hash(2000000);
  else if (phase == 1) sink += work_sort(buf, 20000, (uint64_t)k);
  else sink += (uint64_t)work_math(200000);
}

/* ------------------------------------ names that dladdr cannot give */
/* dladdr reads the dynamic symbol table only: with -rdynamic this
 * program's external functions, but neither its static functions nor
 * libpcol's hidden ones linked into it (the writer's own work), nor the
 * internal functions of system libraries (libm's sin kernels, qsort's merge
 * sort, __libc_start_call_main).  So the object's full symbol table
 * (.symtab) is read once per object: this program has one; a stripped
 * library has none, and its code is then named after the object,
 * "[libm.so.6]", as perf and pprof name code of a mapping without symbols.
 * The linker's call stubs (.plt sections) have no symbol: "[plt]".
 * The file is read as untrusted input: every offset and size is checked. */
typedef struct fsym {
  uintptr_t lo, hi; /* [lo, hi) in the file's addresses */
  const char *name; /* in the mapped string table */
} fsym;
typedef struct objsyms {
  const void *base; /* dli_fbase: the object's load address */
  int relative;     /* ET_DYN (PIE, shared library): addresses from base */
  fsym *fn;
  size_t n;
} objsyms;

static int fsym_cmp(const void *a, const void *b) {
  const fsym *x = a, *y = b;
  return (x->lo > y->lo) - (x->lo < y->lo);
}

/* the functions of path's .symtab into o (none when unreadable or stripped) */
static void load_symtab(objsyms *o, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0) return;
  const unsigned char *m = MAP_FAILED;
  if (!fstat(fd, &st) && (size_t)st.st_size >= sizeof(ElfW(Ehdr)))
    m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0); /* kept: names point into it */
  close(fd);
  if (m == MAP_FAILED) return;
  size_t size = (size_t)st.st_size;
  const ElfW(Ehdr) *eh = (const void *)m;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
      eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(ElfW(Shdr)))
    return;
  o->relative = eh->e_type == ET_DYN;
  const ElfW(Shdr) *sh = (const void *)(m + eh->e_shoff);
  const ElfW(Shdr) *names = eh->e_shstrndx < eh->e_shnum ? &sh[eh->e_shstrndx] : NULL;
  if (names && (names->sh_offset > size || names->sh_size > size - names->sh_offset)) names = NULL;
  for (size_t i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
    const ElfW(Shdr) *ss = &sh[i], *st_sh = &sh[ss->sh_link];
    if (ss->sh_offset > size || ss->sh_size > size - ss->sh_offset || st_sh->sh_offset > size ||
        st_sh->sh_size > size - st_sh->sh_offset)
      return;
    const ElfW(Sym) *sym = (const void *)(m + ss->sh_offset);
    const char *strs = (const char *)m + st_sh->sh_offset;
    size_t nsym = ss->sh_size / sizeof *sym, strn = st_sh->sh_size;
    o->fn = malloc((nsym + eh->e_shnum) * sizeof *o->fn);
    if (!o->fn) return;
    for (size_t k = 0; names && k < eh->e_shnum; k++) { /* the call stubs: .plt, .plt.sec, ... */
      size_t left = sh[k].sh_name < names->sh_size ? names->sh_size - sh[k].sh_name : 0;
      if (left > 4 && !strncmp((const char *)m + names->sh_offset + sh[k].sh_name, ".plt", 4) &&
          sh[k].sh_size && sh[k].sh_addr <= UINTPTR_MAX - sh[k].sh_size)
        o->fn[o->n++] = (fsym){sh[k].sh_addr, sh[k].sh_addr + sh[k].sh_size, "[plt]"};
    }
    for (size_t k = 0; k < nsym; k++)
      if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC && sym[k].st_value && sym[k].st_size &&
          sym[k].st_name < strn && memchr(strs + sym[k].st_name, 0, strn - sym[k].st_name) &&
          sym[k].st_value <= UINTPTR_MAX - sym[k].st_size)
        o->fn[o->n++] = (fsym){sym[k].st_value, sym[k].st_value + sym[k].st_size, strs + sym[k].st_name};
    qsort(o->fn, o->n, sizeof *o->fn, fsym_cmp);
    return;
  }
}

/* the name of the function at pc in the object di names, from its .symtab */
static const char *symtab_name(const Dl_info *di, uintptr_t pc) {
  static objsyms objs[64];
  static size_t nobjs;
  objsyms *o = NULL;
  for (size_t i = 0; i < nobjs && !o; i++)
    if (objs[i].base == di->dli_fbase) o = &objs[i];
  if (!o) {
    if (nobjs == sizeof objs / sizeof *objs) return NULL;
    o = &objs[nobjs++];
    o->base = di->dli_fbase;
    load_symtab(o, di->dli_fname);
  }
  uintptr_t a = o->relative ? pc - (uintptr_t)o->base : pc;
  size_t lo = 0, hi = o->n; /* the last function starting at or before a */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (o->fn[mid].lo <= a) lo = mid + 1;
    else hi = mid;
  }
  return lo && a < o->fn[lo - 1].hi ? o->fn[lo - 1].name : NULL;
}

/* ----------------------------------------- addresses -> location ids */
typedef struct loc_cache {
  uintptr_t pc[8192];
  uint32_t id[8192];
} loc_cache;

/* leaf: pc is the interrupted instruction itself; else a return address,
 * whose call is at pc - 1 (a call can be a function's last instruction,
 * and an interrupt can land on a function's first) */
static int location_of(pcol_writer *w, loc_cache *lc, uintptr_t pc, int leaf, uint32_t *id,
                       pcol_error *err) {
  size_t i = (size_t)(pc * 0x9e3779b97f4a7c15ull >> 51);
  for (size_t probe = 0; probe < 8192; probe++, i = (i + 1) % 8192) {
    if (lc->pc[i] == pc) return *id = lc->id[i], 0;
    if (lc->pc[i] == 0) break;
  }
  Dl_info di;
  uint32_t fn;
  int rc;
  int64_t line = 0; /* unknown: dladdr gives no lines */
  char obj[256];
  uintptr_t at = leaf ? pc : pc - 1;
  if (dladdr((void *)at, &di) && di.dli_fname) {
    const char *name = di.dli_sname ? di.dli_sname : symtab_name(&di, at);
    if (!name) { /* a stripped object's code: "[libm.so.6]" */
      pcol_str base = pcol_display_name((pcol_str){di.dli_fname, strlen(di.dli_fname)});
      snprintf(obj, sizeof obj, "[%.*s]", (int)(base.len < 200 ? base.len : 200), base.ptr);
      name = obj;
    }
    if ((rc = pcol_writer_function(w, name, name, di.dli_fname, PCOL_NA_I64, &fn, err)))
      return rc;
    rc = pcol_writer_location(w, pc, &fn, &line, 1, id, err);
  } else {
    rc = pcol_writer_location(w, pc, NULL, NULL, 0, id, err); /* unsymbolised */
  }
  if (rc) return rc;
  if (lc->pc[i] == 0) lc->pc[i] = pc, lc->id[i] = *id; /* a full cache just stops caching */
  return 0;
}

/* Skipped frames: the handler and the kernel's signal trampoline. */
#define SKIP 2

static int drain(pcol_writer *w, loc_cache *lc, int64_t period_ns, pcol_error *err) {
  unsigned t = atomic_load_explicit(&ring_tail, memory_order_relaxed);
  unsigned h = atomic_load_explicit(&ring_head, memory_order_acquire);
  for (; t != h; t++) {
    captured *c = &ring[t % RING];
    uint32_t locs[DEPTH];
    size_t n = 0;
    for (int k = SKIP; k < c->depth; k++)
      if (location_of(w, lc, (uintptr_t)c->pcs[k], k == SKIP, &locs[n++], err)) return -1;
    int64_t values[2] = {1, period_ns};
    pcol_writer_label lab = {"phase", phase_names[c->phase], 0, NULL};
    pcol_writer_sample s = {.locations = locs, .nlocations = n, .values = values, .nvalues = 2,
                            .has_time = 1, .time_unix_ns = c->time_ns, .labels = &lab,
                            .nlabels = 1};
    int rc = pcol_writer_add(w, &s, err);
    atomic_store_explicit(&ring_tail, t + 1, memory_order_release);
    if (rc == PCOL_EINVAL) { /* e.g. the clock stepped back: skip the sample */
      fprintf(stderr, "record_self: %s\n", err->message);
      continue;
    }
    if (rc) return -1;
  }
  return pcol_writer_poll(w, err) ? -1 : 0;
}

static void published(void *ctx, const char *path) {
  (void)ctx;
  printf("%s\n", path);
  fflush(stdout);
}

int main(int argc, char **argv) {
  const char *out = NULL;
  double seconds = 3;
  long hz = 1000, roll_ms = 1000, roll_samples = 0;
  for (int i = 1; i < argc; i += 2) { /* every option takes a value */
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) goto usage;
    if (!strcmp(a, "-o")) out = v;
    else if (!strcmp(a, "--seconds")) seconds = atof(v);
    else if (!strcmp(a, "--hz")) hz = atol(v);
    else if (!strcmp(a, "--roll-ms")) roll_ms = atol(v);
    else if (!strcmp(a, "--roll-samples")) roll_samples = atol(v);
    else goto usage;
  }
  if (!out || hz < 1 || hz > 100000 || roll_ms < 0 || roll_samples < 0 || seconds <= 0) goto usage;

  int64_t period_ns = 1000000000 / hz;
  static const pcol_writer_value_type vts[2] = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  const char *meta[2] = {"record_self.program", argv[0]};
  pcol_writer_options o = {.source_uri = "record_self", .meta = meta, .nmeta = 1,
                           .value_types = vts, .nvalue_types = 2, .period = period_ns,
                           .period_type = "cpu", .period_unit = "nanoseconds",
                           .roll_ns = (uint64_t)roll_ms * 1000000, .roll_samples = (uint64_t)roll_samples,
                           .on_file = published};
  pcol_writer *w;
  pcol_error err;
  if (pcol_writer_open(&w, out, &o, &err)) {
    fprintf(stderr, "record_self: %s\n", err.message);
    return 1;
  }
  static loc_cache lc;
  uint32_t *buf = malloc(20000 * sizeof *buf);
  void *warm[4];
  backtrace(warm, 4); /* loads libgcc's unwinder now, not inside the handler */
  signal(SIGINT, on_stop);
  signal(SIGTERM, on_stop);
  struct sigaction sa = {0};
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval it = {{0, (suseconds_t)(1000000 / hz)}, {0, (suseconds_t)(1000000 / hz)}};
  setitimer(ITIMER_PROF, &it, NULL);

  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = 0;
  for (int k = 0; !stop && buf; k++) {
    do_chunk(k, buf);
    if (drain(w, &lc, period_ns, &err)) {
      fprintf(stderr, "record_self: %s\n", err.message);
      rc = 1;
      break;
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 >= seconds) break;
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  if (!rc && drain(w, &lc, period_ns, &err)) {
    fprintf(stderr, "record_self: %s\n", err.message);
    rc = 1;
  }
  if (atomic_load(&dropped))
    fprintf(stderr, "record_self: %lu samples dropped (ring full)\n", atomic_load(&dropped));
  if (pcol_writer_close(w, &err)) {
    fprintf(stderr, "record_self: %s\n", err.message);
    rc = 1;
  }
  free(buf);
  return rc;
usage:
  fprintf(stderr, "usage: record_self -o OUT.pcol [--seconds S] [--hz N] [--roll-ms MS] "
                  "[--roll-samples N]\n");
  return 2;
}
