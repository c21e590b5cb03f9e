#!/usr/bin/env bash
# `pcol diff --absolute` against `go tool pprof -diff_base -top`, row for
# row: the names, their order and their "(inline)" marks, with pprof's
# default node fraction and none, with and without a row limit, on pairs of
# the shared test data's Go profiles whose inlined functions differ.  The
# marks are those of the graph of both sides merged (the base negated, its
# small edges cut, the rows shown alone), as `pcol top NEW --diff-base
# BASE` makes them: each side's marks joined marked what pprof does not
# (rd21 F5: math.Abs, inlined in the base alone, said "(inline)" where
# pprof's merged graph had cut its edge).
# Env: PCOL, PCOL_TESTDATA.  Exit 0 pass, 1 fail, 77 skip (no Go).
set -u
PPROF_WHAT="pcol diff's rows and marks with go tool pprof -diff_base"
. tests/interop/pprof_env.sh
fail() { echo "FAIL: t_diff_marks: $*"; exit 1; }
P=$TD/pprof
[ -f "$P/go-cpu-large.pb.gz" ] || { echo "SKIP: t_diff_marks: no shared test data"; exit 77; }
n=0 marks=0
for pair in "go-cpu-inline-small go-cpu-large" "go-cpu-large go-cpu-inline-small" \
  "go-cpu-inline-small go-cpu-string-labels" "go-heap-allocs-inline go-heap-delta-negative-values"; do
  set -- $pair
  A=$P/$1.pb.gz B=$P/$2.pb.gz
  for nf in "" 0; do
    for lim in "" 20; do
      ga=() pa=()
      [ -n "$nf" ] && ga+=(-nodefraction="$nf") pa+=(--node-fraction "$nf")
      [ -n "$lim" ] && ga+=(-nodecount="$lim") pa+=(-n "$lim")
      # the name column: after pprof's five numbers, after pcol's six
      "$PPROF" -symbolize=none -top "${ga[@]}" -diff_base "$A" "$B" 2>/dev/null |
        sed -n '/^ *flat  *flat%/,$p' | tail -n +2 | sed -E 's/^ *([^ ]+ +){5}//' >"$tmp/go.txt"
      "$PCOL" diff "$A" "$B" --absolute "${pa[@]}" 2>/dev/null |
        sed -n '/^ *base_flat/,$p' | tail -n +2 | sed -E 's/^ *([^ ]+ +){6} //' >"$tmp/pcol.txt"
      [ -s "$tmp/go.txt" ] || fail "go tool pprof -diff_base $1 $2 ${ga[*]}: no rows"
      cmp -s "$tmp/go.txt" "$tmp/pcol.txt" || {
        diff "$tmp/go.txt" "$tmp/pcol.txt" | head
        fail "pcol diff --absolute ${pa[*]} $1 $2 differs from go tool pprof -top -diff_base ${ga[*]} (< pprof, > pcol)"
      }
      n=$((n + 1))
      marks=$((marks + $(grep -c 'inline)$' "$tmp/go.txt")))
    done
  done
done
[ "$marks" -gt 0 ] || fail "no \"(inline)\" mark was compared"
echo "t_diff_marks: ok ($n views, $marks marks equal to go tool pprof -diff_base's)"
