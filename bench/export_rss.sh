#!/usr/bin/env bash
# bench/export_rss.sh OLD_PCOL NEW_PCOL FORMAT FILE... — peak RSS and CPU of
# `pcol unpack FILE --to FORMAT` with two binaries (GNU time), and whether
# the two outputs are byte-identical: a markdown table on standard output
# (bench/results/stream-export.md; bench/stream_rss.sh does the same for
# pack).  The output budget is lifted (--max-output 64G): only memory is
# measured.  Samples: `pcol info`'s samples_stored of FILE.
set -u
[ $# -ge 4 ] || { sed -n 2,8p "$0"; exit 2; }
old=$1 new=$2 fmt=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| input | samples | to | before: peak RSS, CPU | after: peak RSS, CPU | output bytes | same output |"
echo "|---|---:|---|---:|---:|---:|---|"
for f in "$@"; do
  for b in old new; do
    bin=$old
    [ $b = new ] && bin=$new
    /usr/bin/time -f "%M %U %S" -o "$tmp/$b.t" "$bin" unpack "$f" --to "$fmt" --max-output 64G -o "$tmp/$b.out" 2>/dev/null
    read -r kb u s < <(tail -1 "$tmp/$b.t")
    eval "${b}_m=\"\$((kb / 1024)) MB,\" ${b}_c=\"\$(echo \"$u + $s\" | bc) s\""
  done
  n=$("$new" info "$f" | awk '$1 == "samples_stored" {print $2; exit}')
  cmp -s "$tmp/old.out" "$tmp/new.out" && same=yes || same=NO
  echo "| $(basename "$f") | $n | $fmt | ${old_m} ${old_c} | ${new_m} ${new_c} | $(stat -c %s "$tmp/new.out") | $same |"
  rm -f "$tmp"/*.out
done
