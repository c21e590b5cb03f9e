#!/bin/sh
# embed.sh js OUT MODULE...  — the report page's script: the modules joined
#                              in the order given inside one function
# embed.sh c OUT FILE...     — a C header with each FILE as a byte array
#                              pcol_<name>[] (NUL-terminated) and its length
#                              pcol_<name>_len (od from coreutils: no other tool)
# lib/query/report.c includes the header the Makefile makes this way.  OUT is
# written whole or not at all (a temporary file renamed).
mode=$1 out=$2
shift 2
case $mode in
js)
  names=$(for f in "$@"; do printf '%s ' "$(basename "$f")"; done)
  { echo "/* pcol report's script: ${names% } of lib/query/report/, joined by the Makefile */"
    echo "(function () {"; echo "'use strict';"; cat "$@"; echo "})();"; } >"$out.tmp" ;;
c)
  { echo "/* generated from $* by the Makefile */"
    for f in "$@"; do
      n=$(basename "$f" | tr . _)
      echo "static const unsigned char pcol_$n[] = {"
      od -An -v -tu1 "$f" | sed -e 's/  */,/g' -e 's/^,//' -e 's/$/,/'
      echo "0};"; echo "static const size_t pcol_${n}_len = sizeof pcol_$n - 1;"
    done; } >"$out.tmp" ;;
*) echo "usage: embed.sh js|c OUT FILE..." >&2; exit 2 ;;
esac && mv "$out.tmp" "$out"
