#!/usr/bin/env bash
# The library's exported symbols, of the static archive or of the shared
# library.  Usage:
#   tests/check_symbols.sh LIBRARY [HEADER [MAP]]
# (make check-symbols on build/lib/libpcol.a and build/lib/libpcol.so;
# tests/install/t_install.sh on the installed ones.)  HEADER defaults to
# include/pcol.h, MAP to lib/libpcol.map.
#
# libpcol.a (review 11 C1) must define as globals exactly the functions
# HEADER declares (PCOL_API), no other symbol (protobuf-c's
# perftools__profiles__*, jfr_*, perun_*: an embedder linking its own would
# crash or fail to link).
#
# libpcol.so must export exactly those functions too, no data; each at the
# version node MAP puts it in, as the default version (NAME@@NODE), which is
# the one its "Since MAJOR.MINOR" in HEADER names (none: PCOL_MAJOR); each
# function of a released version at its node of MAP's .abilist (lib/
# libpcol.abilist), and no other at the nodes listed there; MAP's
# nodes a chain (each inherits the one before, the first is PCOL_MAJOR, a
# later one PCOL_MAJOR.MINOR up to HEADER's version), as the library's
# version definitions say; its SONAME libpcol.so.MAJOR.  Then, when the
# library is not built with sanitizers (they need their runtime first), what
# the nodes are for: a program built against it that calls a function of its
# newest node does not start on a library of the release before (a stub
# libpcol.so.MAJOR with the older nodes only: "version `PCOL_1.1' not
# found"), and one that calls only the first node's functions does.
set -u
lib=${1:?usage: check_symbols.sh LIBRARY [HEADER [MAP]]}
h=${2:-include/pcol.h}
map=${3:-lib/libpcol.map}
fail() { echo "check_symbols: FAIL: $*" >&2; exit 1; }
[ -f "$lib" ] || fail "$lib: no such library"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -o '^PCOL_API [^(]*\bpcol_[a-z0-9_]*(' "$h" | grep -o 'pcol_[a-z0-9_]*($' | tr -d '(' | sort -u > "$tmp/declared"
[ -s "$tmp/declared" ] || fail "$h declares no PCOL_API function"

case "$lib" in
*.a)
  nm -g --defined-only "$lib" > "$tmp/nm" || fail "nm $lib"
  # lines "ADDRESS TYPE NAME" (member headers and blank lines skipped)
  awk 'NF == 3 && $3 !~ /^pcol_/' "$tmp/nm" > "$tmp/other"
  if [ -s "$tmp/other" ]; then
    head -20 "$tmp/other" >&2
    fail "$lib defines $(wc -l < "$tmp/other") global symbols outside pcol_ (above, the first 20)"
  fi
  awk 'NF == 3 {print $3}' "$tmp/nm" | sort -u > "$tmp/defined"
  diff "$tmp/declared" "$tmp/defined" > "$tmp/d" || { cat "$tmp/d" >&2; fail "$lib's globals differ from $h's functions (< declared only, > defined only)"; }
  echo "check_symbols: $lib defines $(wc -l < "$tmp/defined") globals, the functions of $h"
  exit 0;;
*.so|*.so.*) ;;
*) fail "$lib: neither an archive (.a) nor a shared library (.so)";;
esac

[ -f "$map" ] || fail "$map: no such version script"
major=$(sed -n 's/^#define PCOL_VERSION_MAJOR  *\([0-9][0-9]*\).*/\1/p' "$h")
minor=$(sed -n 's/^#define PCOL_VERSION_MINOR  *\([0-9][0-9]*\).*/\1/p' "$h")
[ -n "$major" ] && [ -n "$minor" ] || fail "$h: no PCOL_VERSION_MAJOR/MINOR"

# MAP's nodes in order ("NODE PARENT", PARENT - for none) and its global
# names ("NAME NODE"); comments dropped
sed 's,/\*.*\*/,,; /\/\*/,/\*\//d' "$map" | awk -v nodes="$tmp/nodes" -v names="$tmp/mapped" '
  /^[A-Za-z_][A-Za-z0-9_.]* *\{/ { node = $1; sect = ""; next }
  /^ *global *:/ { sect = "g"; next }
  /^ *local *:/ { sect = "l"; next }
  /^ *\}/ { p = $0; gsub(/[} ;]/, "", p); print node, (p == "" ? "-" : p) > nodes; node = ""; next }
  node != "" && sect == "g" { n = $0; gsub(/[ ;]/, "", n); if (n != "") print n, node > names }'
[ -s "$tmp/nodes" ] || fail "$map: no version node"
# the chain: PCOL_MAJOR, then PCOL_MAJOR.1, ... (a minor that added no
# function has no node), each inheriting the one before, none past HEADER's
prev=- last=-1
while read -r node parent; do
  if [ "$prev" = - ]; then
    [ "$node" = "PCOL_$major" ] || fail "$map: the first node is $node, not PCOL_$major (PCOL_VERSION_MAJOR)"
    m=0
  else
    case "$node" in "PCOL_$major".[0-9]*) m=${node#PCOL_"$major".} ;; *) fail "$map: node $node is not PCOL_$major.MINOR" ;; esac
    case "$m" in *[!0-9]*) fail "$map: node $node is not PCOL_$major.MINOR" ;; esac
  fi
  [ "$parent" = "$prev" ] || fail "$map: node $node inherits ${parent/#-/nothing}, not the node before it (${prev/#-/none})"
  [ "$m" -gt "$last" ] || fail "$map: node $node comes after a later or equal one"
  [ "$m" -le "$minor" ] || fail "$map: node $node is for a version past $h's $major.$minor (move PCOL_VERSION_MINOR to the release that adds it)"
  prev=$node last=$m
done < "$tmp/nodes"
newest=$prev
awk '{print $1}' "$tmp/mapped" | sort | uniq -d > "$tmp/twice"
[ -s "$tmp/twice" ] && fail "$map names these in more than one node: $(tr '\n' ' ' < "$tmp/twice")"
sort -u "$tmp/mapped" > "$tmp/mapped.s"

# the shared library: its SONAME, its version definitions, its symbols
readelf -d "$lib" | grep -q "Library soname: \[libpcol.so.$major\]" || fail "$lib: SONAME is not libpcol.so.$major"
# .gnu.version_d: "Name: NODE" lines, each with its "Parent 1: NODE"
readelf -V -W "$lib" | awk '
  /^Version definition section/ { d = 1; next }
  /^Version (needs|symbols) section/ { d = 0 }
  d && /Flags: BASE/ { skip = 1; next }
  d && /Name:/ { if (cur != "") print cur, par; sub(/.*Name: */, ""); cur = $1; par = "-"; skip = 0; next }
  d && /Parent 1:/ { sub(/.*Parent 1: */, ""); par = $1 }
  END { if (cur != "") print cur, par }' > "$tmp/verdef"
diff "$tmp/nodes" "$tmp/verdef" > "$tmp/d" || { cat "$tmp/d" >&2; fail "$lib's version definitions (>) are not $map's nodes (<), NODE PARENT"; }
# dynamic symbols defined here: "TYPE BIND NAME@@VERSION"; the nodes' own
# ABS symbols left out
readelf -W --dyn-syms "$lib" | awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && NF >= 8 {print $4, $5, $7, $8}' > "$tmp/dyn"
awk '$3 == "ABS" && $4 ~ /^PCOL_/ {next} $1 != "FUNC" || $2 != "GLOBAL"' "$tmp/dyn" > "$tmp/data"
[ -s "$tmp/data" ] && { head -20 "$tmp/data" >&2; fail "$lib exports symbols other than global functions (above: TYPE BIND NDX NAME)"; }
awk '$1 == "FUNC" && $2 == "GLOBAL" {print $4}' "$tmp/dyn" > "$tmp/funcs"
grep -v '@@' "$tmp/funcs" > "$tmp/nodefault" && { head "$tmp/nodefault" >&2; fail "$lib exports functions without a default version (NAME@@NODE)"; }
sed 's/@@/ /' "$tmp/funcs" | sort -u > "$tmp/exported"
awk '{print $1}' "$tmp/exported" > "$tmp/exported.names"
awk '{print $1}' "$tmp/mapped.s" > "$tmp/mapped.names"
diff "$tmp/declared" "$tmp/mapped.names" > "$tmp/d" ||
  { cat "$tmp/d" >&2; fail "$map's names differ from $h's functions (< declared only: add it to the node of the release that brings it, $newest or a new one; > mapped only)"; }
diff "$tmp/declared" "$tmp/exported.names" > "$tmp/d" ||
  { cat "$tmp/d" >&2; fail "$lib's exports differ from $h's functions (< declared only, > exported only)"; }
diff "$tmp/mapped.s" "$tmp/exported" > "$tmp/d" ||
  { cat "$tmp/d" >&2; fail "$lib's symbol versions (>) are not $map's nodes (<)"; }
# the node pcol.h gives each function: "Since MAJOR.MINOR" in the comment
# above its declaration (PCOL_MAJOR.MINOR), none: the first (PCOL_MAJOR)
awk -v major="$major" '
  /^\/\*/ { c = "" }
  /^\/\*/ || /^ \*/ { c = c " " $0; next }
  /^PCOL_API / && match($0, /pcol_[a-z0-9_]*\(/) {
    n = substr($0, RSTART, RLENGTH - 1); v = "PCOL_" major
    if (match(c, /Since [0-9]+\.[0-9]+/)) { v = "PCOL_" substr(c, RSTART + 6, RLENGTH - 6); sub(/\.0$/, "", v) }
    print n, v; c = ""; next }
  { c = "" }' "$h" | sort -u > "$tmp/since"
diff "$tmp/since" "$tmp/mapped.s" > "$tmp/d" ||
  { cat "$tmp/d" >&2; fail "$h's 'Since MAJOR.MINOR' (<, none: PCOL_$major) and $map's nodes (>) disagree"; }
# the released ABI: every function of the abilist at its node, and no other
# function at a node it lists (a released node never gains one)
abi=${map%.map}.abilist
[ -f "$abi" ] || fail "$abi: no such file (the released functions, NODE NAME)"
grep -v '^#' "$abi" | awk 'NF == 2 {print $2, $1}' | sort -u > "$tmp/abi"
comm -23 "$tmp/abi" "$tmp/exported" > "$tmp/lost"
[ -s "$tmp/lost" ] && { cat "$tmp/lost" >&2; fail "$lib lacks released functions of $abi at their nodes (above: NAME NODE)"; }
awk '{print $2}' "$tmp/abi" | sort -u > "$tmp/released"
awk 'NR == FNR {r[$1]; next} ($2 in r)' "$tmp/released" "$tmp/exported" | comm -23 - "$tmp/abi" > "$tmp/gained"
[ -s "$tmp/gained" ] && { cat "$tmp/gained" >&2; fail "released nodes gained functions (above: NAME NODE): a new function goes in the node of the coming release"; }
counts=$(awk '{n[$2]++} END {for (k in n) printf "%s %d, ", k, n[k]}' "$tmp/exported" | sed 's/, $//')

# what the nodes are for: a program that calls a function of the newest node
# does not load on the release before it; one of the first node's does
loadmsg="load test skipped: one node only"
if readelf -d "$lib" | grep -q 'NEEDED.*lib\(a\|ub\|t\)san' ||
   readelf -W --dyn-syms "$lib" | grep -q ' UND __\(asan\|ubsan\|tsan\)_'; then
  loadmsg="load test skipped: a sanitized library"
elif [ "$newest" != "PCOL_$major" ]; then
  cc=${CC:-cc}
  old_nodes=$(awk -v n="$newest" '$1 != n' "$tmp/nodes" | awk '{print $1}')
  first_node=$(awk '$1 == "pcol_version_string" {print $2}' "$tmp/mapped.s")
  [ "$first_node" = "PCOL_$major" ] || fail "pcol_version_string is not at PCOL_$major"
  new_fn=$(awk -v n="$newest" '$2 == n {print $1; exit}' "$tmp/mapped.s")
  # the stub of the release before: every function of its nodes, at them
  mkdir "$tmp/old" "$tmp/new"
  { for n in $old_nodes; do
      awk -v n="$n" '$2 == n && $1 != "pcol_version_string" {print "void " $1 "(void);\nvoid " $1 "(void) {}"}' "$tmp/mapped.s"
    done
    echo 'const char *pcol_version_string(void);'
    echo 'const char *pcol_version_string(void) { return "stub"; }'
  } > "$tmp/stub.c"
  { prevn=-; for n in $old_nodes; do
      echo "$n { global:"; awk -v n="$n" '$2 == n {print "  " $1 ";"}' "$tmp/mapped.s"
      [ "$prevn" = - ] && echo "local: *; };" || echo "} $prevn;"
      prevn=$n
    done; } > "$tmp/stub.map"
  $cc -shared -fPIC -o "$tmp/old/libpcol.so.$major" -Wl,-soname,"libpcol.so.$major" \
    -Wl,--version-script,"$tmp/stub.map" "$tmp/stub.c" 2> "$tmp/log" || { cat "$tmp/log" >&2; fail "building the stub of the release before $newest"; }
  ln -s "$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")" "$tmp/new/libpcol.so"
  printf '#include <pcol.h>\n#include <stdio.h>\nint main(void) {\n  puts(pcol_version_string());\n  return 0;\n}\n' > "$tmp/p_old.c"
  printf '#include <pcol.h>\n#include <stdio.h>\nvoid (*volatile use)(void);\nint main(void) {\n  use = (void (*)(void))%s;\n  puts(pcol_version_string());\n  return 0;\n}\n' "$new_fn" > "$tmp/p_new.c"
  for p in p_old p_new; do
    $cc -std=c11 -I"$(dirname "$h")" -o "$tmp/$p" "$tmp/$p.c" -L"$tmp/new" -lpcol 2> "$tmp/log" ||
      { cat "$tmp/log" >&2; fail "building a program against $lib"; }
    # what it needs: the first node only, or the newest one
    readelf -V -W "$tmp/$p" | grep -o 'Name: PCOL_[0-9.]*' | sed 's/Name: //' | sort -u > "$tmp/$p.needs"
  done
  v=$(sed -n 's/^#define PCOL_VERSION_STRING "\(.*\)"/\1/p' "$h")
  grep -qx "PCOL_$major" "$tmp/p_old.needs" && [ "$(wc -l < "$tmp/p_old.needs")" = 1 ] ||
    fail "a program calling pcol_version_string only needs $(tr '\n' ' ' < "$tmp/p_old.needs"), not PCOL_$major alone"
  grep -qx "$newest" "$tmp/p_new.needs" || fail "a program calling $new_fn does not need $newest"
  for p in p_old p_new; do
    [ "$(LD_LIBRARY_PATH="$(dirname "$lib")" "$tmp/$p")" = "$v" ] || fail "$p does not run on $lib (its version $v)"
  done
  [ "$(LD_LIBRARY_PATH="$tmp/old" "$tmp/p_old")" = stub ] ||
    fail "a program built against $lib that calls only PCOL_$major functions does not run on a library without $newest"
  LD_LIBRARY_PATH="$tmp/old" "$tmp/p_new" > "$tmp/out" 2> "$tmp/err" &&
    fail "a program calling $new_fn ($newest) started on a library without that node: $(cat "$tmp/out")"
  grep -q "version .$newest' not found" "$tmp/err" ||
    fail "a program calling $new_fn on a library without $newest failed, but not for its version: $(cat "$tmp/err")"
  loadmsg="a program calling $new_fn does not load without $newest ($(head -1 "$tmp/err" | sed 's/ (required by.*//; s/.*: //')), one calling pcol_version_string ($first_node) does"
fi
echo "check_symbols: $lib (SONAME libpcol.so.$major) exports $(wc -l < "$tmp/exported") functions, those of $h, at $map's nodes ($counts); $loadmsg"
