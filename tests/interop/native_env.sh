# native_env.sh — sourced by t_symbolize.sh and t_disasm.sh, which run pcol
# on unsymbolized native pprof profiles of a small C program built here and
# judge it with google/pprof's pprof ($PPROF_STANDALONE, or `pprof` on PATH
# when `pprof -h` lists $PPROF_FLAG) or else `go tool pprof`.  Exits 77
# (skip), naming $T, without gcc, nm, python3, llvm-symbolizer or
# addr2line, or either judge; sets PCOL (absolute), REPO, STANDALONE (empty:
# none), HAVE_GO, tmp (removed at exit unless KEEP is set), an environment
# in which the judges read nothing of the machine's, fail, n and bad();
# the working directory is $tmp.
#
# native_build: writes prog.c (sq inlined into work; work's first
# instruction a call whose text passes 40 characters: pprof -disasm prints
# it below its location; main calls other, which calls work twice) and
# builds it with gcc -g -O2 as a PIE (pie) and a -no-pie executable
# (nopie), both with a build id, sets bid
# (the PIE's) and PIEB (its load base), and defines gen OUT JSON
# (symbolize_gen.py: the profile of the binaries JSON lists); exits 77 when
# gcc cannot build them or the PIE has no build id.
#
# slow_dir DIR: DIR/$bid holds 1000 ELF files each slow to read (tens of
# ms: symbolize_gen.py --slow-elf) and none the PIE, then the PIE (zz-pie,
# last in name order): a search for it that reads them all takes a minute
# or more.
PCOL=${PCOL:-build/bin/pcol}
PCOL=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for t in gcc nm python3; do
  command -v $t >/dev/null || { echo "$T: $t not installed: skipped"; exit 77; }
done
if ! command -v llvm-symbolizer >/dev/null && ! command -v addr2line >/dev/null; then
  echo "$T: neither llvm-symbolizer nor addr2line installed: skipped"; exit 77
fi
STANDALONE=${PPROF_STANDALONE:-}
if [ -z "$STANDALONE" ] && command -v pprof >/dev/null && pprof -h 2>&1 | grep -q -- "$PPROF_FLAG"; then
  STANDALONE=$(command -v pprof)
fi
HAVE_GO=0
command -v go >/dev/null && HAVE_GO=1
if [ -z "$STANDALONE" ] && [ $HAVE_GO = 0 ]; then
  echo "$T: neither google/pprof nor go installed: skipped"; exit 77
fi
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
# (rustup finds its toolchains under the real home)
[ -z "${RUSTUP_HOME:-}" ] && [ -d "${HOME:-/nonexistent}/.rustup" ] && export RUSTUP_HOME=$HOME/.rustup
export HOME=$tmp/home GOCACHE=$tmp/gocache GOPROXY=off GOTOOLCHAIN=local TZ=UTC
unset PPROF_BINARY_PATH
mkdir -p "$HOME"
cd "$tmp" || exit 1
fail=0 n=0
bad() { echo "$T: FAIL: $*"; fail=$((fail + 1)); }

native_build() {
cat >prog.c <<'EOF'
#include <stdio.h>
static int sq(int x) { return x * x + (x >> 2); }
__attribute__((noinline)) int a_rather_long_function_name_for_the_test(int n) { return n * 3 + 1; }
__attribute__((noinline)) int work(int n) {
  int s = a_rather_long_function_name_for_the_test(n);
  for (int i = 0; i < n; i++) s += sq(i) ^ (s >> 3);
  return s;
}
__attribute__((noinline)) int other(int n) { return work(n) + work(n / 2); }
int main(int c, char **v) {
  (void)v;
  printf("%d\n", other(c * 1000));
  return 0;
}
EOF
  gcc -g -O2 -fPIE -pie -Wl,--build-id -o pie prog.c && gcc -g -O2 -no-pie -Wl,--build-id -o nopie prog.c ||
    { echo "$T: gcc cannot build the programs: skipped"; exit 77; }
  bid=$(python3 "$REPO/tests/interop/symbolize_gen.py" --build-id pie)
  [ -n "$bid" ] || { echo "$T: the PIE has no build id: skipped"; exit 77; }
  PIEB=$((0x555555554000))
}
gen() { # gen OUT JSON-LIST
  python3 "$REPO/tests/interop/symbolize_gen.py" "$1" "$2" || { echo "$T: generator failed"; exit 1; }
}
slow_dir() {
  python3 "$REPO/tests/interop/symbolize_gen.py" --slow-elf "$1/$bid" 1000 && cp pie "$1/$bid/zz-pie" ||
    { echo "$T: generator failed"; exit 1; }
}
