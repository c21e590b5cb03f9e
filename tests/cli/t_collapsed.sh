#!/usr/bin/env bash
# Collapsed stacks through the CLI: pack/unpack round trips byte for byte for
# aggregated files, unaggregated files come back summed, `pcol fold` agrees.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_collapsed: $*" >&2; exit 1; }

for f in simple decimal diff annotated; do
  $PCOL pack tests/fixtures/collapsed/$f.folded -o "$tmp/$f.pcol" || fail "pack $f"
  $PCOL unpack "$tmp/$f.pcol" --to collapsed -o "$tmp/$f.out" || fail "unpack $f"
  cmp -s tests/fixtures/collapsed/$f.folded "$tmp/$f.out" || fail "$f.folded did not round-trip"
done

$PCOL pack tests/fixtures/collapsed/unaggregated.folded -o "$tmp/u.pcol" || fail "pack unaggregated"
$PCOL unpack "$tmp/u.pcol" --to collapsed -o "$tmp/u.out" || fail "unpack unaggregated"
printf 'main;a 6\nmain;b 1\nmain;b;c 1\n' | cmp -s - "$tmp/u.out" || fail "unaggregated lines not summed"
# pcol fold (sorted) gives the same multiset of lines
$PCOL fold "$tmp/u.pcol" | sort > "$tmp/fold"
sort "$tmp/u.out" | cmp -s - "$tmp/fold" || fail "pcol fold and unpack --to collapsed disagree"

# --value picks a value type (differential file: the before column)
$PCOL unpack "$tmp/diff.pcol" --to collapsed --value count_before -o "$tmp/before" || fail "--value"
head -1 "$tmp/before" | grep -qx 'main;a 10' || fail "--value count_before: $(head -1 "$tmp/before")"

# from stdin, format detected
$PCOL pack - -o "$tmp/stdin.pcol" < tests/fixtures/collapsed/simple.folded || fail "pack from stdin"
$PCOL unpack "$tmp/stdin.pcol" --to folded -o - | cmp -s tests/fixtures/collapsed/simple.folded - || fail "stdin round trip"

printf 'a;b 1\na;b zz\n' > "$tmp/bad.folded"
$PCOL pack --from collapsed "$tmp/bad.folded" -o "$tmp/bad.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "bad count must exit 1 (got $rc)"
grep -q 'bad.folded:2:' "$tmp/err" || fail "error lacks file:line: $(cat "$tmp/err")"
exit 0
