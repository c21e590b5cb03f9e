#!/usr/bin/env bash
# bench/views_dump.sh PCOL OUTDIR FILE... — the outputs (stdout, stderr,
# exit status) of the views that add up stack weights (top in every format,
# granularity, value and filter, peek, graph, fold, flame, report's top,
# diff, list) on each pcol FILE, one file per command in OUTDIR.  Run it
# with an old and a new build and `diff -r` the two directories: a change of
# how the views compute must leave every byte as it was.
#   bash bench/views_dump.sh /tmp/pcol.old /tmp/old F1.pcol F2.pcol ...
#   bash bench/views_dump.sh build/bin/pcol /tmp/new F1.pcol F2.pcol ...
#   diff -r /tmp/old /tmp/new
set -u
P=$1 OUT=$2
shift 2
mkdir -p "$OUT"
n=0
one() { # NAME ARGS...: run P ARGS, keep stdout, stderr and status
  local name=$1
  shift
  "$P" "$@" >"$OUT/$tag.$name.out" 2>"$OUT/$tag.$name.err"
  echo "exit $?" >>"$OUT/$tag.$name.err"
  sed -i "s|$OUT|OUT|g" "$OUT/$tag.$name.err" "$OUT/$tag.$name.out" 2>/dev/null
  n=$((n + 1))
}
for f in "$@"; do
  tag=$(basename "$f" | tr -c 'A-Za-z0-9._\n-' _)
  one top top "$f"
  one top-json top "$f" --format json
  one top-cum top "$f" --sort cum -n 40
  one top-name top "$f" --sort name --format tsv
  one top-nf0 top "$f" --node-fraction 0 --format tsv
  for by in line file address; do
    one "top-$by" top "$f" --by "$by"
    one "top-$by-tsv" top "$f" --by "$by" --format tsv
  done
  one top-noinl top "$f" --no-inlines --format tsv
  one top-noinl-line top "$f" --no-inlines --by line
  one top-focus top "$f" --focus 'a' --format tsv
  one top-ignore top "$f" --ignore 'e' --format tsv
  one top-hide top "$f" --hide 'e' --format tsv
  one top-show top "$f" --show 'a' --format tsv
  one top-hide-line top "$f" --hide 'i' --by line --format tsv
  one top-samples top "$f" --value samples --format tsv
  # every value type the file lists
  vals=$("$P" top "$f" --value '?' 2>&1 | sed -n 's/.*(the file has: \(.*\))$/\1/p' | tr ',' '\n' | sed 's/^ *//')
  for v in $vals; do
    vt=$(echo "$v" | tr '/' '_')
    one "top-v-$vt" top "$f" --value "$v" --format tsv
    one "top-v-$vt-line" top "$f" --value "$v" --by line --sort cum -n 50
  done
  one peek peek "$f" '.'
  one peek-json peek "$f" 'a' --format json
  one peek-line peek "$f" 'e' --by line --format tsv
  one graph graph "$f" --format dot
  one graph-line graph "$f" --by line --format dot
  one graph-json graph "$f" --format json
  one fold fold "$f"
  one flame flame "$f" -o "$OUT/$tag.flame.svg"
  one report report "$f" -o "$OUT/$tag.report.html"
  one diff diff "$f" "$f" --format tsv
  one list list "$f" '.' --format tsv
done
echo "views_dump: $n commands on $# files into $OUT" >&2
