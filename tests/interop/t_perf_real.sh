#!/usr/bin/env bash
# pcol's `perf script` importer against perf report on real recordings: a
# small C program with known hot functions (costs 8:4:1, recursion, a
# shared library, an inlined function) recorded by perf record in several
# ways (cpu-clock with and without -g, --call-graph dwarf and fp, -F, -c,
# threads, two events, registers, physical addresses and page sizes,
# CLOCK_REALTIME, copies named like an address, a comment, a time, a [cpu];
# a stripped copy and a JIT-like program whose frames have no symbol; one
# whose perf map names a Java inline chain a->b->c (under -F +srcline perf
# prints no FILE:LINE there, and pcol keeps no line on any part);
# a tracepoint of dd where allowed), printed by perf script in several field sets and
# compared per symbol, thread and dso with perf report --stdio of the same
# perf.data (the rules: tests/interop/perf_real.py); every -F set of header
# fields with ip of two recordings must be detected as perf's.
# PERF_REAL_ONLY=fp,stripped: those recordings only; PERF_REAL_KEEP=1 keeps the work.
# Exit 0 pass, 1 fail, 77 skip (no perf, no C compiler, or perf record not
# allowed here: perf_event_paranoid, seccomp, no perf events in the VM).
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
command -v perf >/dev/null 2>&1 || { echo "SKIP: perf not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($CC)"; exit 77; }
tmp=$(mktemp -d)
[ -n "${PERF_REAL_KEEP:-}" ] && echo "work: $tmp" || trap 'rm -rf "$tmp"' EXIT
if ! perf record -q -e cpu-clock -o "$tmp/probe.data" -- true >"$tmp/probe.log" 2>&1; then
  echo "SKIP: perf record is refused here (kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?'), uid $(id -u)): $(head -3 "$tmp/probe.log" | tr '\n' ' ')"
  exit 77
fi
PCOL_ABS=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
cat > "$tmp/hot.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
double lib_work(long n); /* libhot.so */
volatile double sink;
static inline __attribute__((always_inline)) double inl_mix(double x, long n) {
  for (long i = 0; i < n; i++) x = x * 1.0000001 + 0.5;
  return x;
}
__attribute__((noinline)) double heavy(long n) { double x = 1; for (long i = 0; i < n; i++) x = x * 0.999999 + 1.0; return x; }
__attribute__((noinline)) double medium(long n) { double x = 2; for (long i = 0; i < n; i++) x = x * 0.999998 + 2.0; return x; }
__attribute__((noinline)) double light(long n) { double x = 3; for (long i = 0; i < n; i++) x = x * 0.999997 + 3.0; return x; }
__attribute__((noinline)) double with_inline(long n) { return inl_mix(sink, n); }
__attribute__((noinline)) double rec(int d, long n) {
  double x = d;
  for (long i = 0; i < n; i++) x = x * 0.999996 + 4.0;
  return d ? x + rec(d - 1, n) : x;
}
static void run(long s) {
  sink += heavy(8 * s);
  sink += medium(4 * s);
  sink += light(1 * s);
  sink += rec(5, s / 2);
  sink += lib_work(2 * s);
  sink += with_inline(2 * s);
}
static void *worker(void *a) { run((long)a); return NULL; }
int main(int argc, char **argv) {
  long s = argc > 1 ? atol(argv[1]) : 1000000;
  int threads = argc > 2 ? atoi(argv[2]) : 0;
  pthread_t t[8];
  for (int i = 0; i < threads && i < 8; i++) pthread_create(&t[i], NULL, worker, (void *)s);
  run(s);
  for (int i = 0; i < threads && i < 8; i++) pthread_join(t[i], NULL);
  return 0;
}
C
echo '__attribute__((noinline)) double lib_work(long n) { double x = 5; for (long i = 0; i < n; i++) x = x * 0.999995 + 5.0; return x; }' > "$tmp/lib.c"
F="-O1 -g -fno-omit-frame-pointer"
$CC $F -fPIC -shared -o "$tmp/libhot.so" "$tmp/lib.c" &&
  $CC $F -o "$tmp/hot" "$tmp/hot.c" -L"$tmp" -lhot -Wl,-rpath,"$tmp" -pthread ||
  { echo "FAIL: cannot build the test program"; exit 1; }
# symbol-less addresses: hot stripped (libhot.so keeps its symbols), and a
# JIT-like program running two loops it copies into an anonymous executable
# mapping (x86-64 code; elsewhere the program runs no such code and the
# recording's check says so)
# (built without -g: a copy of hot, whose build id perf's ~/.debug cache
# holds with hot's symbols, would be resolved)
$CC -O1 -fno-omit-frame-pointer -o "$tmp/hot-stripped" "$tmp/hot.c" -L"$tmp" -lhot -Wl,-rpath,"$tmp" -pthread &&
  strip "$tmp/hot-stripped" || { echo "FAIL: cannot build the stripped test program"; exit 1; }
# (with a second argument, "map", it also writes a perf map,
# /tmp/perf-PID.map as perf-map-agent writes it, naming the first loop by a
# Java inline chain `outer->mid->inner` and the second `plain`, and runs a
# C loop, cwork, built with -g: perf_real.py jit_chain)
cat > "$tmp/jit.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
volatile long sink;
__attribute__((noinline)) long cwork(long n) {
  long x = 0;
  for (long i = 0; i < n; i++) x += i ^ (x >> 3);
  return x;
}
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000000;
  int map = argc > 2 && !strcmp(argv[2], "map");
#if defined(__x86_64__)
  /* mov %rdi,%rcx; 1: dec %rcx; jnz 1b; ret: at offsets 0 and 64 */
  static const unsigned char code[] = {0x48, 0x89, 0xf9, 0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3};
  unsigned char *m = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return 1;
  memcpy(m, code, sizeof code);
  memcpy(m + 64, code, sizeof code);
  if (map) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) return 1;
    fprintf(f, "%lx 40 Lcom/Foo;::outer->Lcom/Foo;::mid->Lcom/Foo;::inner\n", (unsigned long)m);
    fprintf(f, "%lx 40 Lcom/Foo;::plain\n", (unsigned long)(m + 64));
    fclose(f);
  }
  ((void (*)(long))m)(n);
  ((void (*)(long))(m + 64))(n / 2);
#endif
  if (map) sink = cwork(n / 2);
  return 0;
}
C
$CC -O1 -g -fno-omit-frame-pointer -o "$tmp/jit" "$tmp/jit.c" || { echo "FAIL: cannot build the JIT-like program"; exit 1; }
python3 "$REPO/tests/interop/perf_real.py" "$PCOL_ABS" "$tmp" "$tmp/hot"
