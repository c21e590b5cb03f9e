#!/usr/bin/env bash
# The static archive's global symbols (review 11 C1): libpcol.a must define
# as globals exactly the functions include/pcol.h declares (PCOL_API), no
# other symbol (protobuf-c's perftools__profiles__*, jfr_*, perun_*: an
# embedder linking its own would crash or fail to link).  Usage:
#   tests/check_symbols.sh ARCHIVE [HEADER]
# (make check-symbols on build/lib/libpcol.a; tests/install/t_install.sh on
# the installed one).
set -u
a=${1:?usage: check_symbols.sh ARCHIVE [HEADER]}
h=${2:-include/pcol.h}
fail() { echo "check_symbols: FAIL: $*" >&2; exit 1; }
[ -f "$a" ] || fail "$a: no such archive"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -g --defined-only "$a" > "$tmp/nm" || fail "nm $a"
# lines "ADDRESS TYPE NAME" (member headers and blank lines skipped)
awk 'NF == 3 && $3 !~ /^pcol_/' "$tmp/nm" > "$tmp/other"
if [ -s "$tmp/other" ]; then
  head -20 "$tmp/other" >&2
  fail "$a defines $(wc -l < "$tmp/other") global symbols outside pcol_ (above, the first 20)"
fi
awk 'NF == 3 {print $3}' "$tmp/nm" | sort -u > "$tmp/defined"
grep -o '^PCOL_API [^(]*\bpcol_[a-z0-9_]*(' "$h" | grep -o 'pcol_[a-z0-9_]*($' | tr -d '(' | sort -u > "$tmp/declared"
diff "$tmp/declared" "$tmp/defined" > "$tmp/d" || { cat "$tmp/d" >&2; fail "$a's globals differ from $h's functions (< declared only, > defined only)"; }
echo "check_symbols: $a defines $(wc -l < "$tmp/defined") globals, the functions of $h"
