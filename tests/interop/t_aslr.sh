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
# (lib/core/builder.c pcol_b_mappings_shared; doc/mappings.md §2.1).
# Two processes of it in one profile are one too (go merges a profile read
# alone as well); a mapping of no file name and one of a stored "" are of
# one key; `pcol diff --by address` pairs two runs' rows at the new
# profile's addresses (pcol_open_readdressed), as -diff_base merges them.
# Of one profile's rows of a key go keeps the one its samples meet first
# (a second process's library sampled first: its addresses), pcol too.
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
gen pp.pb 0x555555554000 0x5000 procs    # two processes of it in one profile
gen p2.pb 0x555555554000 0x5000 procs2   # ... the second's samples (its library) first
gen nf.pb 0x555555554000 0x5000 nofile   # the binary's mapping of no file name
gen ef.pb 0x5600aa000000 0x5000 emptyfile # ... and of "" (a second "" in the table)
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
  "$PCOL" top -n 0 $3 <"${CHECK_IN:-/dev/null}" >got.txt 2>got.err || { echo "FAIL $1: pcol top $3 failed: $(cat got.err)"; fail=1; return; }
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
# one key's mappings within one profile are one too (go's driver merges a
# profile read alone as well): the second process at the first's addresses
"$PCOL" pack pp.pb -o pk/pp.pcol || { echo "FAIL: pcol pack pp.pb"; exit 1; }
check "two processes in one profile" "-top -addresses pp.pb" "--by address pp.pb"
check "two processes, packed" "-top -addresses pp.pb" "--by address pk/pp.pcol"
check "two processes, then a run" "-top -addresses pp.pb b.pb" "--by address pp.pb b.pb"
check "a run, then two processes" "-top -addresses b.pb pp.pb" "--by address b.pb pp.pb"
check "two processes, --base" "-top -addresses -base b.pb pp.pb" "--by address pp.pb --base b.pb"
# of a key's rows go keeps the one its samples meet first (merge.go
# mapSample; the first mapping ahead): the second process's library, met
# first, is printed at its addresses, the binary at the first's
"$PCOL" pack p2.pb -o pk/p2.pcol && "$PCOL" merge b.pb p2.pb -o pk/bp2.pcol ||
  { echo "FAIL: pcol pack p2.pb"; exit 1; }
check "second process met first" "-top -addresses p2.pb" "--by address p2.pb"
check "second process met first, packed" "-top -addresses p2.pb" "--by address pk/p2.pcol"
CHECK_IN=p2.pb check "second process met first, from a pipe" "-top -addresses p2.pb" "--by address -"
check "a run, then second process met first" "-top -addresses b.pb p2.pb" "--by address b.pb p2.pb"
check "second process met first, then a run" "-top -addresses p2.pb b.pb" "--by address p2.pb b.pb"
check "second process met first, merged" "-top -addresses b.pb p2.pb" "--by address pk/bp2.pcol"
check "second process met first, --base" "-top -addresses -base b.pb p2.pb" "--by address p2.pb --base b.pb"
# a legacy (gperftools text) heap profile of two processes' library, the
# second's met first (a sample of 0 before it is skipped, as go skips it)
printf '%s\n' 'heap profile: 2: 20 [2: 20] @ heapprofile' '0: 0 [0: 0] @ 0x7f0000010010 0x400100' \
  '1: 10 [1: 10] @ 0x7f0000090020 0x400100' '1: 10 [1: 10] @ 0x7f0000010010 0x400100' '' 'MAPPED_LIBRARIES:' \
  '00400000-00403000 r-xp 00000000 00:00 0 /app' '7f0000010000-7f0000013000 r-xp 00000000 00:00 0 /lib.so' \
  '7f0000090000-7f0000093000 r-xp 00000000 00:00 0 /lib.so' >lh.heap
check "legacy heap, second process met first" "-top -addresses lh.heap" "--by address lh.heap"
# ... and of two processes' binary, the first's row used by no sample: go's
# merge keeps a profile's first mapping whatever its samples meet
# (merge.go maps src.Mapping[0] first), so the second's addresses are
# shown at the first's (pcol showed 0x1040010f, go 0x40010f)
printf '%s\n' 'heap profile: 2: 20 [2: 20] @ heapprofile' '1: 10 [1: 10] @ 0x10400110 0x10400220' \
  '1: 10 [1: 10] @ 0x10400330 0x10400220' '' 'MAPPED_LIBRARIES:' '00400000-00403000 r-xp 00000000 00:00 0 /app' \
  '10400000-10403000 r-xp 00000000 00:00 0 /app' >lu.heap
check "legacy heap, first mapping unused" "-top -addresses lu.heap" "--by address lu.heap"
# its pprof export: go reads the mappings, locations and samples go reads
# of p2.pb (-raw), and the same -top -addresses
for x in p2.pb pk/p2.pcol; do
  n=$((n + 1))
  "$PCOL" unpack "$x" --to pprof -o u.pb 2>/dev/null || { echo "FAIL: pcol unpack $x --to pprof"; fail=1; continue; }
  "$PPROF" -raw -symbolize=none p2.pb >ref.txt 2>/dev/null
  "$PPROF" -raw -symbolize=none u.pb >got.txt 2>/dev/null
  if ! grep -q '^Mappings' ref.txt || ! cmp -s ref.txt got.txt; then
    echo "FAIL unpack $x --to pprof: go -raw of it differs from go's of p2.pb:"; diff ref.txt got.txt | head; fail=1
  fi
  check "unpack $x --to pprof, read by go" "-top -addresses u.pb" "--by address p2.pb"
done
# no file name (string 0) and a stored "": one key to go (Mapping.key's File != "")
check "no file, \"\" file" "-top -addresses nf.pb ef.pb" "--by address nf.pb ef.pb"
check "\"\" file, no file" "-top -addresses ef.pb nf.pb" "--by address ef.pb nf.pb"
"$PCOL" pack nf.pb -o pk/nf.pcol && "$PCOL" pack ef.pb -o pk/ef.pcol || { echo "FAIL: pcol pack nf/ef"; exit 1; }
check "no file, \"\" file, pcol files" "-top -addresses nf.pb ef.pb" "--by address pk/nf.pcol pk/ef.pcol"
# -traces: a stack of both runs is one trace
n=$((n + 1))
"$PPROF" -symbolize=none -traces a.pb b.pb 2>/dev/null | sed -n '/^---/,$p' >ref.txt
"$PCOL" traces a.pb b.pb 2>/dev/null | sed -n '/^---/,$p' >got.txt
if [ ! -s ref.txt ] || ! cmp -s ref.txt got.txt; then
  echo "FAIL traces: pcol traces a.pb b.pb differs from go tool pprof -traces:"; diff ref.txt got.txt | head; fail=1
fi
n=$((n + 1))
"$PPROF" -symbolize=none -traces pp.pb 2>/dev/null | sed -n '/^---/,$p' >ref.txt
"$PCOL" traces pp.pb 2>/dev/null | sed -n '/^---/,$p' >got.txt
if [ ! -s ref.txt ] || ! cmp -s ref.txt got.txt; then
  echo "FAIL traces of two processes: pcol traces pp.pb differs from go tool pprof -traces:"; diff ref.txt got.txt | head; fail=1
fi
# pcol diff BASE NEW --by address pairs the rows of two runs at NEW's
# addresses, as go's -diff_base=BASE NEW merges them: its changes (rows of
# a nonzero one) are go's -top -addresses rows
# diffcheck BASE NEW [PCOL-BASE PCOL-NEW]
diffcheck() {
  n=$((n + 1))
  local pb=${3:-$1} pn=${4:-$2}
  "$PPROF" -symbolize=none -nodecount=0 -nodefraction=0 -edgefraction=0 -top -addresses -diff_base "$1" "$2" \
    2>/dev/null | rows /dev/stdin | awk '{print $1, $4, $6, $7}' | sort >ref.rows
  "$PCOL" diff "$pb" "$pn" --by address --absolute --node-fraction 0 >got.txt 2>got.err ||
    { echo "FAIL diff $pb $pn: $(cat got.err)"; fail=1; return; }
  awk '/^ *base_flat/ {on=1; next} on && ($3 != "0" || $6 != "0") {print $3, $6, $7, $8}' got.txt |
    sed 's/+//g' | sort >got.rows
  if [ ! -s ref.rows ] || ! cmp -s ref.rows got.rows; then
    echo "FAIL diff --by address $pb $pn differs from go tool pprof -diff_base $1 $2 -addresses:"
    diff ref.rows got.rows | head -20; fail=1
  fi
}
diffcheck a.pb b.pb
diffcheck b.pb a.pb
diffcheck b.pb c.pb
diffcheck a.pb pp.pb
diffcheck a.pb p2.pb
diffcheck p2.pb b.pb
diffcheck p2.pb b.pb pk/p2.pcol b.pb
diffcheck a.pb b.pb pk/a.pcol pk/b.pcol
diffcheck a.pb b.pb dir/a.pb pk/b.pcol
# the merged file's mappings: one per key, with the first run's start
n=$((n + 1))
maps=$("$PCOL" cat m.pcol --table mappings 2>&1)
starts=$(printf '%s\n' "$maps" | awk -F'\t' 'NR > 1 {print $2}' | tr '\n' ' ')
if [ "$starts" != "$(printf '%d %d ' 0x555555554000 0x555555654000)" ]; then
  echo "FAIL merged mappings: not one per binary at run 1's start:"; printf '%s\n' "$maps"; fail=1
fi
[ "$fail" = 0 ] && echo "ok t_aslr: $n checks"
exit "$fail"
