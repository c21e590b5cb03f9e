#!/usr/bin/env bash
# include/pcol.h compiles alone, warning-free, as a user's project compiles
# it (review 11 H1): gcc and clang in C99/C11/C17, g++ and clang++ in
# C++11/C++17/C++20, each with -pedantic -Wall -Wextra -Werror, plus the
# stricter warnings a C library's users turn on.  A compiler that is not
# installed is skipped (said).  Usage: tests/check_header.sh [INCLUDE_DIR]
set -u
inc=${1:-include}
fail() { echo "check_header: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# every declaration used once, so that unused-function warnings cannot hide
printf '#include <pcol.h>\nint main(void) { pcol_sum s = 0; return (int)(pcol_version() + (unsigned)(s == 0)) == 0; }\n' > "$tmp/h.c"
cp "$tmp/h.c" "$tmp/h.cpp"
strict_c="-Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wundef -Wcast-qual -Wconversion -Wsign-conversion"
strict_cxx="-Wshadow -Wundef -Wcast-qual -Wconversion -Wsign-conversion -Wzero-as-null-pointer-constant"
n=0 skipped=""
for cc in gcc clang; do
  command -v $cc >/dev/null || { skipped="$skipped $cc"; continue; }
  for std in c99 c11 c17; do
    $cc -std=$std -pedantic -Wall -Wextra -Werror $strict_c -I"$inc" -fsyntax-only "$tmp/h.c" 2>"$tmp/log" ||
      { cat "$tmp/log" >&2; fail "$cc -std=$std -pedantic -Werror"; }
    n=$((n + 1))
  done
done
for cxx in g++ clang++; do
  command -v $cxx >/dev/null || { skipped="$skipped $cxx"; continue; }
  for std in c++11 c++17 c++20; do
    $cxx -std=$std -pedantic -Wall -Wextra -Werror $strict_cxx -I"$inc" -fsyntax-only "$tmp/h.cpp" 2>"$tmp/log" ||
      { cat "$tmp/log" >&2; fail "$cxx -std=$std -pedantic -Werror"; }
    n=$((n + 1))
  done
done
echo "check_header: $inc/pcol.h clean under -pedantic -Werror in $n compiler/standard pairs${skipped:+ (not installed:$skipped)}"
