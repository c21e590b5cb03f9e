#!/usr/bin/env bash
# Packaging: `make install` into a scratch prefix, then a program built with
# `pkg-config --cflags --libs pcol` against the installed shared library must
# work, and one built with `pkg-config --cflags --libs pcol-static` must run
# with no libpcol.so at all; libpcol.so must export exactly the functions of include/pcol.h,
# each at its version node of lib/libpcol.map, and carry its SONAME.  Run by `make test-install` (part of `make test`).
set -u
BUILD=${BUILD:-build}
fail() { echo "t_install: FAIL: $*" >&2; exit 1; }
command -v pkg-config >/dev/null || { echo "t_install: pkg-config not installed: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
make -s --no-print-directory BUILD="$BUILD" PREFIX="$prefix" install >/dev/null || fail "make install"
so="$prefix/lib/libpcol.so"
major=$(sed -n 's/^#define PCOL_VERSION_MAJOR  *\([0-9]*\).*/\1/p' include/pcol.h)
v=$(sed -n 's/^#define PCOL_VERSION_STRING "\(.*\)"/\1/p' include/pcol.h)
[ -L "$so" ] && [ "$(readlink "$so")" = "libpcol.so.$major" ] && [ -L "$prefix/lib/libpcol.so.$major" ] &&
  [ "$(readlink "$prefix/lib/libpcol.so.$major")" = "libpcol.so.$v" ] && [ -f "$prefix/lib/libpcol.so.$v" ] &&
  [ ! -L "$prefix/lib/libpcol.so.$v" ] || fail "not libpcol.so -> libpcol.so.$major -> libpcol.so.$v"
# libpcol.so: its SONAME, exactly the header's functions, each at its node
# of lib/libpcol.map, no data; a program using the newest node refused by a
# library without it.  libpcol.a defines no other global (review 11 C1), and
# the installed header compiles under -pedantic -Werror (review 11 H1)
bash tests/check_symbols.sh "$so" "$prefix/include/pcol.h" lib/libpcol.map > "$tmp/symbols" || fail "the installed libpcol.so's symbols"
bash tests/check_symbols.sh "$prefix/lib/libpcol.a" "$prefix/include/pcol.h" >/dev/null || fail "the installed libpcol.a's globals"
bash tests/check_header.sh "$prefix/include" >/dev/null || fail "the installed pcol.h under -pedantic -Werror"
nexported=$(sed -n 's/.* exports \([0-9]*\) functions.*/\1/p' "$tmp/symbols")
nodes=$(sed -n "s/.*'s nodes (\([^)]*\)).*/\1/p" "$tmp/symbols")

# a program built against the installed library with pkg-config
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion pcol)" = "$v" ] || fail "pcol.pc version $(pkg-config --modversion pcol), header $v"
${CC:-cc} -o "$tmp/read_top" examples/read_top.c $(pkg-config --cflags --libs pcol) || fail "build with pkg-config"
ldd "$tmp/read_top" 2>/dev/null | grep -q "libpcol.so.$major => $prefix/lib" ||
  LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/read_top" | grep -q "libpcol.so.$major => $prefix/lib" || fail "not linked to the installed libpcol.so.$major"
"$prefix/bin/pcol" pack examples/demo.out -o "$tmp/demo.pcol" || fail "installed pcol pack"
LD_LIBRARY_PATH="$prefix/lib" "$tmp/read_top" "$tmp/demo.pcol" > "$tmp/out" || fail "read_top against the shared library"
"$BUILD/bin/read_top" "$tmp/demo.pcol" | cmp -s - "$tmp/out" || fail "shared and static builds of read_top disagree"
grep -q . "$tmp/out" || fail "read_top printed nothing"
"$prefix/bin/pcol" --version | grep -q "library $v" || fail "installed pcol --version"
# one version, set in include/pcol.h: the Python package reads it when it is
# built (setup.py; bindings/test.sh checks the wheel's name), and the R
# package's DESCRIPTION (which cannot read it) must say the same
grep -q '^dynamic = .*"version"' bindings/python/pyproject.toml && ! grep -q '^version *=' bindings/python/pyproject.toml ||
  fail "bindings/python/pyproject.toml sets its own version (it is libpcol's, read by setup.py)"
[ "$(sed -n 's/^Version: *//p' bindings/r/DESCRIPTION)" = "$v" ] || fail "bindings/r/DESCRIPTION's version is not $v"
# the same program against libpcol.a with pkg-config --libs pcol-static
# (pcol.pc's --static cannot: it appends Libs.private after -lpcol, and the
# linker takes libpcol.so): it must need no libpcol.so and run without one
${CC:-cc} -o "$tmp/read_top_static" examples/read_top.c $(pkg-config --cflags --libs pcol-static) || fail "build with pkg-config pcol-static"
readelf -d "$tmp/read_top_static" | grep -q 'NEEDED.*libpcol' && fail "pcol-static build needs libpcol.so: $(readelf -d "$tmp/read_top_static" | grep NEEDED | tr -s ' ')"
mkdir "$tmp/hidden" && mv "$prefix"/lib/libpcol.so* "$tmp/hidden/" || fail "hiding libpcol.so"
ldd "$tmp/read_top_static" | grep -q libpcol && fail "ldd lists libpcol for the pcol-static build"
env -u LD_LIBRARY_PATH "$tmp/read_top_static" "$tmp/demo.pcol" | cmp -s - "$tmp/out" || fail "pcol-static read_top without libpcol.so differs from the shared build"
mv "$tmp"/hidden/* "$prefix/lib/"
# an embedder with functions named like libpcol's internals (a perun_ helper,
# protobuf-c's generated pprof code) links with pcol-static and keeps its own
# (review 11 C1: the archive's copies met them: duplicate symbols, or a crash)
cat > "$tmp/clash.c" <<'CLASH'
#include <pcol.h>
#include <stdio.h>
int perun_load(const char *path);
int perun_load(const char *path) { return path != NULL; }
size_t perftools__profiles__profile__get_packed_size(const void *m);
size_t perftools__profiles__profile__get_packed_size(const void *m) { return m ? 7 : 0; }
int main(int argc, char **argv) {
  pcol_file *f;
  pcol_error err;
  if (argc < 2 || pcol_open_any(argv[1], NULL, &f, &err)) return 1;
  int rc = pcol_export_pprof(f, NULL, stdout, 1, &err);
  pcol_close(f);
  return rc || perun_load("x") != 1 || perftools__profiles__profile__get_packed_size(&rc) != 7;
}
CLASH
${CC:-cc} -std=c11 -o "$tmp/clash" "$tmp/clash.c" $(pkg-config --cflags --libs pcol-static) 2>"$tmp/clash.log" ||
  { cat "$tmp/clash.log"; fail "a program with its own perun_load and perftools__profiles__* does not link with pcol-static"; }
"$tmp/clash" "$tmp/demo.pcol" > "$tmp/clash.pb.gz" || fail "the clash program's export (its own functions kept) failed"
"$prefix/bin/pcol" top "$tmp/clash.pb.gz" -n 1 >/dev/null || fail "the clash program's pprof export does not read back"
# the C glue of the R and Python packages, where they look for it
g=$(pkg-config --variable=bindingsdir pcol)
[ "$g" = "$prefix/share/pcol/bindings" ] && cmp -s "$g/pcolb.c" bindings/common/pcolb.c &&
  cmp -s "$g/pcolb.h" bindings/common/pcolb.h || fail "bindings glue not installed in \$bindingsdir ($g)"
echo "install: ok (SONAME libpcol.so.$major, file libpcol.so.$v, $nexported exported functions = include/pcol.h at lib/libpcol.map's nodes ($nodes), libpcol.a's globals the same, pcol.h -pedantic clean, pkg-config builds run: shared, and static without libpcol.so)"
