#!/usr/bin/env bash
# bench/stream_rss.sh OLD_PCOL NEW_PCOL FILE... — peak RSS and CPU of
# `pcol pack FILE` with two binaries (GNU time), and whether the two packs
# are byte-identical: a markdown table on standard output (issue 43,
# bench/results/stream-jfr-tachyon.md).  A FILE given as `|FILE` is packed
# from a pipe (`cat FILE | pcol pack -`).  Samples: `pcol info`'s
# samples_stored of the new pack.
set -u
[ $# -ge 3 ] || { sed -n 2,8p "$0"; exit 2; }
old=$1 new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| input | bytes | samples | before: peak RSS, CPU | after: peak RSS, CPU | same file |"
echo "|---|---:|---:|---:|---:|---|"
for arg in "$@"; do
  f=${arg#|}
  for b in old new; do
    bin=$old
    [ $b = new ] && bin=$new
    if [ "$arg" != "$f" ]; then
      cat "$f" | /usr/bin/time -f "%M %U %S" -o "$tmp/$b.t" "$bin" pack - -o "$tmp/$b.pcol" 2>/dev/null
    else
      /usr/bin/time -f "%M %U %S" -o "$tmp/$b.t" "$bin" pack "$f" -o "$tmp/$b.pcol" 2>/dev/null
    fi
    if [ -s "$tmp/$b.pcol" ]; then
      read -r kb u s < <(tail -1 "$tmp/$b.t")
      eval "${b}_m=\"\$((kb / 1024)) MB,\" ${b}_c=\"\$(echo \"$u + $s\" | bc) s\""
    else
      eval "${b}_m=refused ${b}_c="
    fi
  done
  n=$("$new" info "$tmp/new.pcol" | awk '$1 == "samples_stored" {print $2; exit}')
  cmp -s "$tmp/old.pcol" "$tmp/new.pcol" && same=yes || same=NO
  how=""
  [ "$arg" != "$f" ] && how=" (pipe)"
  echo "| $(basename "$f")$how | $(stat -c %s "$f") | $n | ${old_m} ${old_c} | ${new_m} ${new_c} | $same |"
  rm -f "$tmp"/*.pcol
done
