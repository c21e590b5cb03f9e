#!/usr/bin/env bash
# The stack trie in the writer's order (lib/core/writer.c stack_order): in
# preorder when that makes the stacks' and the samples' stack columns
# smaller, else as the builder numbered it.  Checked on real profiles:
# go-heap-truncated-stacks-3 (40k of its 147k nodes hang off the previous
# node's path) is written in preorder and smaller, raw and under zstd,
# than in the builder's order (PCOL_DEBUG=stacks-as-built); go-cpu-large,
# nearly in preorder as built, keeps its order, byte for byte; every view
# of the two files of one profile is the same (the samples' frames, top,
# peek, tree, traces, tags, fold, the pprof export read back), so the
# order is only a matter of bytes.  The renumbering itself (spilled
# columns, a builder written twice) is in tests/test_stack_order.c.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "t_stack_order: FAIL: $*" >&2; exit 1; }
H=$TD/ext/pprof/go-heap-truncated-stacks-3.pb.gz C=$TD/pprof/go-cpu-large.pb.gz
for f in $H $C; do
  [ -f "$f" ] || { echo "t_stack_order: SKIP (no $f: the shared test data)"; exit 0; }
done
size() { stat -c %s "$1"; }
# 1 when every stack's parent is on the path of the stack before it
preorder() {
  $PCOL cat "$1" --table stacks | awk -F'\t' 'NR > 1 { n = $1; p = ($2 == "NA") ? 0 : $2
    x = n - 1; while (x > 0 && x != p) x = par[x]; if (x != p) bad++; par[n] = p }
    END { print bad ? 0 : 1 }'
}

for z in "" zstd; do
  opt=() && [ -n "$z" ] && opt=(--compress zstd)
  $PCOL pack "$H" "${opt[@]}" -o "$tmp/h$z.pcol" || fail "pack $H $z"
  PCOL_DEBUG=stacks-as-built $PCOL pack "$H" "${opt[@]}" -o "$tmp/hb$z.pcol" || fail "pack as built $z"
  a=$(size "$tmp/h$z.pcol") b=$(size "$tmp/hb$z.pcol")
  [ "$a" -lt "$b" ] || fail "go-heap-truncated-stacks-3 ${z:-raw}: $a bytes in preorder, $b as built"
  echo "go-heap-truncated-stacks-3 ${z:-raw}: $b bytes as built, $a in preorder"
done
[ "$(preorder "$tmp/h.pcol")" = 1 ] || fail "go-heap-truncated-stacks-3: its stacks are not in preorder"
[ "$(preorder "$tmp/hb.pcol")" = 0 ] || fail "the builder's order of go-heap-truncated-stacks-3 was a preorder already"

$PCOL pack "$C" -o "$tmp/c.pcol" && PCOL_DEBUG=stacks-as-built $PCOL pack "$C" -o "$tmp/cb.pcol" ||
  fail "pack $C"
cmp -s "$tmp/c.pcol" "$tmp/cb.pcol" || fail "go-cpu-large: renumbered, though not smaller"

# every view the same: the two files differ in their stack ids only (each
# read as p.pcol in a directory of its own: the same names in the headers)
case $PCOL in */*) PCOL=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL") ;; esac
for f in h hb; do
  mkdir "$tmp/$f" && mv "$tmp/$f.pcol" "$tmp/$f/p.pcol" || fail "mkdir"
  (
    cd "$tmp/$f" || exit 1
    $PCOL cat p.pcol --table sample_locations
    $PCOL top p.pcol -n 100000 --node-fraction 0
    $PCOL top p.pcol --by line -n 100000 --node-fraction 0
    $PCOL peek p.pcol 'index\.' --node-fraction 0
    $PCOL tree p.pcol --node-fraction 0
    $PCOL traces p.pcol
    $PCOL tags p.pcol
    $PCOL fold p.pcol | LC_ALL=C sort
    $PCOL unpack p.pcol --to pprof -o p.pb.gz && $PCOL top p.pb.gz -n 100000 --node-fraction 0
  ) >"$tmp/$f.out" 2>&1
done
cmp -s "$tmp/h.out" "$tmp/hb.out" || { diff "$tmp/h.out" "$tmp/hb.out" | head -20 >&2; fail "a view differs between the two orders"; }
[ "$(wc -l <"$tmp/h.out")" -gt 100000 ] || fail "the views printed too little to compare ($(wc -l <"$tmp/h.out") lines)"
echo "t_stack_order: ok ($(wc -l <"$tmp/h.out") lines of views the same in both orders)"
