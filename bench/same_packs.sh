#!/usr/bin/env bash
# bench/same_packs.sh OLD_PCOL NEW_PCOL FILE_OR_DIR... — packs every file
# given (a directory: its regular files, recursively) with both binaries,
# three ways: from the file, from standard input, and gzip-wrapped from a
# file, and compares what comes out: the pcol files byte for byte when both
# pack, else the exit status and the message (with the temporary paths
# made alike).  Made for issue 43 (the JFR and Tachyon importers made to
# stream must give the same files); works for any importer.  Prints one
# line per difference and a summary; exit 1 when anything differs.
set -u
[ $# -ge 3 ] || { sed -n 2,9p "$0"; exit 2; }
old=$1 new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 same=0 diff=0 refused=0
one() { # one input, one way: $1 label, then the pack arguments' input ("-" reads $f on stdin)
  local how=$1 f=$2 in=$3
  local ro rn
  if [ "$in" = - ]; then
    "$old" pack - -o "$tmp/o.pcol" <"$f" 2>"$tmp/o.err"; ro=$?
    "$new" pack - -o "$tmp/n.pcol" <"$f" 2>"$tmp/n.err"; rn=$?
  else
    "$old" pack "$in" -o "$tmp/o.pcol" 2>"$tmp/o.err"; ro=$?
    "$new" pack "$in" -o "$tmp/n.pcol" 2>"$tmp/n.err"; rn=$?
  fi
  n=$((n + 1))
  if [ $ro = 0 ] && [ $rn = 0 ]; then
    if cmp -s "$tmp/o.pcol" "$tmp/n.pcol"; then same=$((same + 1)); else diff=$((diff + 1)); echo "DIFFERENT PACK ($how): $f"; fi
  elif [ $ro = $rn ] && cmp -s "$tmp/o.err" "$tmp/n.err"; then
    refused=$((refused + 1))
  else
    diff=$((diff + 1))
    echo "DIFFERENT RESULT ($how): $f: exit $ro -> $rn"
    echo "  old: $(head -c 300 "$tmp/o.err")"
    echo "  new: $(head -c 300 "$tmp/n.err")"
  fi
  rm -f "$tmp/o.pcol" "$tmp/n.pcol"
}
while IFS= read -r -d '' f; do
  one file "$f" "$f"
  one stdin "$f" -
  case "$f" in
  *.gz) ;;
  *) gzip -c "$f" >"$tmp/w.gz" && one gzip "$f" "$tmp/w.gz" ;;
  esac
done < <(find "$@" -type f -print0 | sort -z)
echo "same_packs: $n packs compared: $same identical, $refused refused alike, $diff different"
[ $diff = 0 ]
