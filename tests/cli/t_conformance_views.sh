#!/usr/bin/env bash
# CLI: every view of every valid conformance file (tests/conformance/files,
# verdict "valid" in manifest.tsv) runs to a clean end: top (by function,
# line, file, address), peek, tree, list (by function and by file), tags, traces,
# fold, flame, report, diff against itself, info, validate --full and
# unpack to each format (cat of every table is the conformance suite's own
# check, tests/conformance/run.py, which make test runs on the same build).  Under `make test` this runs
# on the ASan/UBSan build, where an overflow such as list's line +- 5 on
# valid-rich-compact-lz4-rowrel.pcol (lines near INT64_MIN/MAX, issue 28
# finding 2) stops the process; a view may refuse a file (exit 1: a value
# it cannot show), never crash (exit >= 128) or fail with exit 3.
set -u
PCOL=${PCOL:-build/bin/pcol}
PCOL=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
dir=$(cd "$(dirname "$0")/../conformance/files" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$dir/manifest.tsv" ] || { echo "t_conformance_views: FAIL: no manifest" >&2; exit 1; }

# one shell per file (2 at a time): every command of the file, in order
awk -F'\t' '$2 == "valid" { print $1 }' "$dir/manifest.tsv" >"$tmp/files"
[ -s "$tmp/files" ] || { echo "t_conformance_views: FAIL: no valid files" >&2; exit 1; }
# A sanitizer's report ends the process with exit 1 by default, the code of
# a refusal: make it 86, so that a finding fails this test (rc >= 2)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
export PCOL dir tmp
xargs -P 2 -I{} bash -c '
  n={}; f="$dir/$n.pcol"; o="$tmp/$n"; mkdir -p "$o"; cd "$o" || exit 1
  bad=0
  run() {
    "$PCOL" "$@" >out 2>err </dev/null
    local rc=$?
    if [ $rc -ge 2 ]; then
      echo "t_conformance_views: FAIL: $n: pcol $* exited $rc" >&2
      head -c 2000 err >&2
      bad=1
    fi
  }
  run top "$f"; run top "$f" --by line; run top "$f" --by file; run top "$f" --by address
  run peek "$f" .; run tree "$f"; run list "$f" .; run list "$f" . --by file; run list "$f" . --allow-any-source
  run tags "$f"; run traces "$f"; run fold "$f"; run flame "$f" -o f.svg; run report "$f" -o r.html
  run diff "$f" "$f"; run info "$f"; run validate "$f" --full
  for to in rprof pprof perun collapsed speedscope; do run unpack "$f" --to $to -o x.$to; done
  [ $bad = 0 ] && touch "$o.ok"
' <"$tmp/files"
want=$(wc -l <"$tmp/files")
got=$(ls "$tmp"/*.ok 2>/dev/null | wc -l)
[ "$got" = "$want" ] || { echo "t_conformance_views: FAIL: $((want - got)) of $want files" >&2; exit 1; }
echo "t_conformance_views: ok ($want files x 21 commands)"
