#!/usr/bin/env bash
# CLI: `pcol cat FILE --table all` prints what `--table NAME` prints for
# each view, in spec order: TSV/CSV each table after a line "# table NAME",
# JSON one object {"NAME": [rows], ...}, JSON lines every row tagged with a
# first member "table".  (tests/conformance/run.py reads pcol's views this
# way: one process a file instead of 17.)  Files: the conformance suite's
# richest (labels, text lines, models, inline frames, a range selection)
# and an Rprof file with memory and text.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_cat_all: FAIL: $*" >&2; exit 1; }
views=$("$PCOL" cat --help | awk '/^Tables/ { on = 1; sub(/^[^:]*:/, "") } on { print; if (/\.$/) exit }' | tr ',.' '  ')
[ "$(echo $views | wc -w)" = 17 ] || fail "cat --help lists $(echo $views | wc -w) tables: $views"
"$PCOL" pack tests/fixtures/rprof/memgc-snapshots.out -o "$tmp/r.pcol" || fail "pack"
n=0
for f in tests/conformance/files/valid-rich.pcol tests/conformance/files/valid-zstd-blocks.pcol "$tmp/r.pcol"; do
  for fmt in tsv csv jsonl json; do
    # the per-view outputs, each in the form --table all gives it
    : >"$tmp/want"
    first=1
    [ $fmt = json ] && printf '{' >>"$tmp/want"
    for v in $views; do
      "$PCOL" cat "$f" --table "$v" --format $fmt >"$tmp/one" || fail "$f: cat --table $v --format $fmt"
      case $fmt in
        tsv|csv) echo "# table $v" >>"$tmp/want"; cat "$tmp/one" >>"$tmp/want" ;;
        jsonl) sed "s/^{/{\"table\":\"$v\",/" "$tmp/one" >>"$tmp/want" ;;
        json) [ $first = 1 ] || printf ',' >>"$tmp/want"; printf '"%s":' "$v" >>"$tmp/want"; cat "$tmp/one" >>"$tmp/want" ;;
      esac
      first=0
    done
    [ $fmt = json ] && echo '}' >>"$tmp/want"
    "$PCOL" cat "$f" --table all --format $fmt >"$tmp/got" || fail "$f: cat --table all --format $fmt"
    cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got" | head -5; fail "$f: --table all --format $fmt differs from the views one by one"; }
    n=$((n + 1))
  done
  [ $fmt = json ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == 17, list(d)' "$tmp/got" ||
    fail "$f: --table all --format json is not one object of 17 tables"
done
# --limit counts per table; a time range applies to the sample views only
f=tests/conformance/files/valid-rich.pcol
"$PCOL" cat "$f" --table all --limit 1 | awk '/^# table/ { t = $3; next } { n[t]++ } END { for (t in n) if (n[t] > 2) { print t; exit 1 } }' >"$tmp/over" ||
  fail "--limit 1 printed more than a header and a row for $(cat "$tmp/over")"
"$PCOL" cat "$f" --table all --from 0 --to 0.000000001 --format jsonl >"$tmp/r1" || fail "--table all --from --to"
for v in samples functions; do
  range="--from 0 --to 0.000000001"
  [ $v = functions ] && range= # (refused on a view that is not the samples')
  # shellcheck disable=SC2086
  "$PCOL" cat "$f" --table $v $range --format jsonl >"$tmp/r0" || fail "cat --table $v $range"
  sed "s/^{/{\"table\":\"$v\",/" "$tmp/r0" >"$tmp/r2"
  grep "^{\"table\":\"$v\"," "$tmp/r1" | cmp -s - "$tmp/r2" || fail "--table all with a range: $v differs"
done
echo "t_cat_all: $n outputs of --table all equal the 17 views one by one"
