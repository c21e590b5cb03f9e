#!/bin/sh
# embed.sh list LIST [KIND]  — the report page's script modules named in
#                              LIST (lib/query/report/modules.txt: "NAME.js
#                              compute|view" a line, # comments), of KIND
#                              if given, as paths, in LIST's order
# embed.sh join LIST [KIND]  — those modules joined in that order, without
#                              their import lines and `export ` words: one
#                              scope, where each import names the very
#                              declaration it imports (tests/report/
#                              modules_check.mjs checks the imports, the order
#                              and that no two modules declare one name);
#                              and without blank lines and lines that are
#                              whole comments (a fifth of the text; the
#                              modules keep them).
#                              modules_check.mjs checks that the joined text
#                              is the modules' code token for token.
# embed.sh js OUT LIST       — the page's script: every module joined inside
#                              one function
# embed.sh one OUT FILE      — one module alone, stripped as by join (the
#                              flame SVG's search, tools/svg.c, takes
#                              regex.js this way: the page's Go-regex rule)
# embed.sh c OUT FILE...     — a C header with each FILE as a byte array
#                              pcol_<name>[] (NUL-terminated) and its length
#                              pcol_<name>_len (od from coreutils: no other tool)
# lib/query/report.c includes the header the Makefile makes this way.  OUT is
# written whole or not at all (a temporary file renamed).
mode=$1
list() { # LIST [KIND]
  d=$(dirname "$1")
  sed -e 's/#.*//' "$1" | while read -r name kind; do
    [ -n "$name" ] && { [ -z "$2" ] || [ "$kind" = "$2" ]; } && echo "$d/$name"
  done
}
strip() { # FILE
  sed -e "/^import { [A-Za-z0-9_\$, ]* } from '\.\/[a-z0-9_]*\.js';\$/d" -e 's/^export //' "$1" | awk "$uncomment"
}
join() { # LIST [KIND]
  for f in $(list "$@"); do
    strip "$f" || return 1
  done
}
# A blank line goes, a line that is "/* ... */" alone too; so does a block from a line that
# starts with "/*" to the first line with "*/", when that line ends with it
# (else the block is kept as it is).
uncomment='
{ t = $0; sub(/^[ \t]+/, "", t); sub(/[ \t]+$/, "", t) }
blk == "" && t == "" { next }
blk != "" {
  blk = blk $0 "\n"; e = index(t, "*/")
  if (e) { if (e != length(t) - 1) printf "%s", blk; blk = "" }
  next
}
substr(t, 1, 2) == "/*" {
  e = index(substr(t, 3), "*/")
  if (!e) { blk = $0 "\n"; next }
  if (e + 3 == length(t)) next
}
{ print }
END { printf "%s", blk }'
case $mode in
list) list "$2" "${3:-}" ;;
join) join "$2" "${3:-}" ;;
js)
  out=$2
  { echo "/* pcol report's script: the modules of $3 joined by tools/build/embed.sh */"
    echo "(function () {"; echo "'use strict';"; join "$3" && echo "})();"; } >"$out.tmp" && mv "$out.tmp" "$out" ;;
one)
  strip "$3" >"$2.tmp" && mv "$2.tmp" "$2" ;;
c)
  out=$2
  shift 2
  { echo "/* generated from $* by the Makefile */"
    for f in "$@"; do
      n=$(basename "$f" | tr . _)
      echo "static const unsigned char pcol_$n[] = {"
      od -An -v -tu1 "$f" | sed -e 's/  */,/g' -e 's/^,//' -e 's/$/,/'
      echo "0};"; echo "static const size_t pcol_${n}_len = sizeof pcol_$n - 1;"
    done; } >"$out.tmp" && mv "$out.tmp" "$out" ;;
*) echo "usage: embed.sh list|join LIST [KIND] | js OUT LIST | one OUT FILE | c OUT FILE..." >&2; exit 2 ;;
esac
