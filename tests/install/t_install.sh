#!/usr/bin/env bash
# Packaging: `make install` into a scratch prefix, then a program built with
# `pkg-config --cflags --libs pcol` against the installed shared library must
# work, and one built with `pkg-config --cflags --libs pcol-static` must run
# with no libpcol.so at all; libpcol.so must export exactly the functions of include/pcol.h and
# carry its SONAME.  Run by `make test-install` (part of `make test`).
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
[ -L "$so" ] && [ -f "$prefix/lib/libpcol.so.$major" ] || fail "libpcol.so -> libpcol.so.$major not installed"
readelf -d "$so" | grep -q "Library soname: \[libpcol.so.$major\]" || fail "no SONAME libpcol.so.$major"

# exported functions == functions declared in the header (static inline
# accessors excluded: they are not symbols)
nm -D --defined-only "$so" | awk '$2 == "T" {print $3}' | sort -u > "$tmp/exported"
grep -o '^PCOL_API [^(]*\bpcol_[a-z0-9_]*(' include/pcol.h | grep -o 'pcol_[a-z0-9_]*($' | tr -d '(' | sort -u > "$tmp/declared"
diff "$tmp/declared" "$tmp/exported" > "$tmp/d" || { cat "$tmp/d"; fail "exports differ from include/pcol.h (< declared only, > exported only)"; }
nm -D --defined-only "$so" | awk '$2 != "T" && $2 != "A" {print}' | grep . && fail "data symbols exported"
grep -q perftools "$tmp/exported" && fail "protobuf-c symbols exported"

# a program built against the installed library with pkg-config
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
v=$(sed -n 's/^#define PCOL_VERSION_STRING "\(.*\)"/\1/p' include/pcol.h)
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
# the C glue of the R and Python packages, where they look for it
g=$(pkg-config --variable=bindingsdir pcol)
[ "$g" = "$prefix/share/pcol/bindings" ] && cmp -s "$g/pcolb.c" bindings/common/pcolb.c &&
  cmp -s "$g/pcolb.h" bindings/common/pcolb.h || fail "bindings glue not installed in \$bindingsdir ($g)"
echo "install: ok (SONAME libpcol.so.$major, $(wc -l < "$tmp/exported") exported functions = include/pcol.h, pkg-config builds run: shared, and static without libpcol.so)"
