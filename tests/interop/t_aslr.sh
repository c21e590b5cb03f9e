#!/usr/bin/env bash
# Two runs of one PIE program (ASLR: its binary and library mapped at other
# addresses each run) are one program when several profiles become one, as
# go's profile.Merge makes them (merge.go: a mapping's key is its size
# rounded up to 4 KiB, file offset and build id, not its start; a location's
# its address less its mapping's start): `pcol top A B`, a directory, `pcol
# merge` of the profiles and of their pcol files, --base and --diff-base,
# judged by go tool pprof -top -addresses (and -top, -traces) of the same
# files; the merged location shows the first profile's address, as go's.
# Sizes that differ below 4 KiB are one mapping, past it two
# (lib/core/builder.c pcol_b_mapping_shared; doc/mappings.md §2.1).
# Exit 77 without Go.
set -u
PPROF_WHAT="ASLR merges with go tool pprof"
. "$(dirname "$0")/pprof_env.sh"
GEN="$(cd "$(dirname "$0")/../support" && pwd)/pprofgen.py"
case $PCOL in /*) ;; */*) PCOL=$PWD/$PCOL ;; esac # (the test runs in $tmp)
fail=0 n=0
cd "$tmp" || exit 1
gen() { python3 "$GEN" aslr "$@" || { echo "FAIL: pprofgen.py aslr $*"; exit 1; }; }
gen a.pb 0x555555554000                  # run 1
gen b.pb 0x5600aa000000 0x5000 extra     # run 2, elsewhere, a location run 1 has not
gen c.pb 0x7f1234560000 0x4a00           # its size 0x4a00: 0x5000 rounded up
gen d.pb 0x5600aa000000 0x5001           # 0x6000 rounded up: another mapping
gen as.pb 0x555555554000 0x5000 sym      # symbolized runs
gen bs.pb 0x5600aa000000 0x5000 sym
"$PPROF" -proto -symbolize=none b.pb b.pb >bb.pb 2>/dev/null || { echo "FAIL: pprof -proto"; exit 1; }
mkdir dir pk
cp a.pb b.pb dir/
"$PCOL" pack a.pb -o pk/a.pcol && "$PCOL" pack b.pb -o pk/b.pcol &&
  "$PCOL" merge a.pb b.pb -o m.pcol && "$PCOL" merge pk/a.pcol pk/b.pcol -o mp.pcol ||
  { echo "FAIL: pcol pack/merge"; exit 1; }

rows() { awk '/^ *flat  *flat%/ {on=1; next} on' "$1"; }
# check NAME "PPROF ARGS" "PCOL ARGS": the rows of both tables, the same
check() {
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$PPROF" -symbolize=none -nodecount=0 -nodefraction=0 -edgefraction=0 $2 >ref.txt 2>/dev/null
  # shellcheck disable=SC2086
  "$PCOL" top -n 0 $3 >got.txt 2>got.err || { echo "FAIL $1: pcol top $3 failed: $(cat got.err)"; fail=1; return; }
  rows ref.txt >ref.rows
  rows got.txt >got.rows
  if [ ! -s ref.rows ]; then
    echo "FAIL $1: no rows from go tool pprof $2"; fail=1
  elif ! cmp -s ref.rows got.rows; then
    echo "FAIL $1: pcol top $3 differs from go tool pprof $2:"; diff ref.rows got.rows | head -20; fail=1
  fi
}
check "two runs, by address" "-top -addresses a.pb b.pb" "--by address a.pb b.pb"
check "two runs" "-top a.pb b.pb" "a.pb b.pb"
check "two runs, second first" "-top -addresses b.pb a.pb" "--by address b.pb a.pb"
check "a directory" "-top -addresses a.pb b.pb" "--by address dir"
check "pcol merge" "-top -addresses a.pb b.pb" "--by address m.pcol"
check "pcol merge of pcol files" "-top -addresses a.pb b.pb" "--by address mp.pcol"
check "a directory of pcol files" "-top -addresses a.pb b.pb" "--by address pk"
check "size below 4 KiB apart" "-top -addresses a.pb c.pb" "--by address a.pb c.pb"
check "size past 4 KiB apart" "-top -addresses a.pb d.pb" "--by address a.pb d.pb"
check "symbolized, by address" "-top -addresses as.pb bs.pb" "--by address as.pb bs.pb"
check "symbolized" "-top as.pb bs.pb" "as.pb bs.pb"
check "--base" "-top -addresses -base a.pb bb.pb" "--by address --base a.pb bb.pb"
check "--diff-base" "-top -addresses -diff_base a.pb bb.pb" "--by address --diff-base a.pb bb.pb"
check "--base, pcol files" "-top -addresses -base a.pb b.pb" "--by address --base pk/a.pcol pk/b.pcol"
# -traces: a stack of both runs is one trace
n=$((n + 1))
"$PPROF" -symbolize=none -traces a.pb b.pb 2>/dev/null | sed -n '/^---/,$p' >ref.txt
"$PCOL" traces a.pb b.pb 2>/dev/null | sed -n '/^---/,$p' >got.txt
if [ ! -s ref.txt ] || ! cmp -s ref.txt got.txt; then
  echo "FAIL traces: pcol traces a.pb b.pb differs from go tool pprof -traces:"; diff ref.txt got.txt | head; fail=1
fi
# the merged file's mappings: one per key, with the first run's start
n=$((n + 1))
maps=$("$PCOL" cat m.pcol --table mappings 2>&1)
starts=$(printf '%s\n' "$maps" | awk -F'\t' 'NR > 1 {print $2}' | tr '\n' ' ')
if [ "$starts" != "$(printf '%d %d ' 0x555555554000 0x555555654000)" ]; then
  echo "FAIL merged mappings: not one per binary at run 1's start:"; printf '%s\n' "$maps"; fail=1
fi
[ "$fail" = 0 ] && echo "ok t_aslr: $n checks"
exit "$fail"
