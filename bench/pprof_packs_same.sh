#!/usr/bin/env bash
# pprof_packs_same.sh OLD_PCOL NEW_PCOL [DIR...] — packs every pprof-like file
# under DIR (default: ../shared/testdata's pprof, ext and pprof-from-r) with
# both builds, from the path and from standard input, and compares the exit
# status, stderr and the pcol file byte for byte (issue 47: the importer
# reading twice instead of keeping a copy).  Prints each difference and a
# count; exit 1 when any.
set -u
old=$1 new=$2
shift 2
td=${PCOL_TESTDATA:-$(cd "$(dirname "$0")/../.." && pwd)/shared/testdata}
[ $# -gt 0 ] || set -- "$td/pprof" "$td/ext" "$td/pprof-from-r"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0 same=0 diffs=0
run() { # BUILD MODE FILE OUT
  if [ "$2" = file ]; then "$1" pack --from pprof "$3" -o "$4" 2>"$4.err" >/dev/null
  else "$1" pack --from pprof - -o "$4" <"$3" 2>"$4.err" >/dev/null; fi
  echo $?
}
while IFS= read -r f; do
  n=$((n + 1))
  for mode in file stdin; do
    ra=$(run "$old" $mode "$f" "$t/a") rb=$(run "$new" $mode "$f" "$t/b")
    if [ "$ra" != "$rb" ] || ! cmp -s "$t/a.err" "$t/b.err" || { [ "$ra" = 0 ] && ! cmp -s "$t/a" "$t/b"; }; then
      diffs=$((diffs + 1))
      echo "differ ($mode): $f: exit $ra / $rb"
      diff "$t/a.err" "$t/b.err" | sed 's/^/  /' | head -4
    else
      same=$((same + 1))
    fi
    rm -f "$t/a" "$t/b"
  done
done < <(find "$@" -type f ! -name '*.txt' ! -name '*.md' ! -name '*.out' ! -name '*.perf' | sort)
echo "$n files, $((same + diffs)) packs: $same the same, $diffs differ"
[ $diffs = 0 ]
