#!/usr/bin/env bash
# `pcol graph --format callgrind` against `go tool pprof -callgrind`, byte
# for byte, on every pprof profile of the shared test data and on the pcol
# file `pcol pack` makes of each, then with options (-sample_index, -unit,
# -focus/-hide, -tagroot, -diff_base) and the -o names that choose the
# format; and a read-back by valgrind's callgrind_annotate (skipped when
# absent): the total it computes is pcol's total of the value.
#
# Known differences, left out here (and pprof's own varying order of
# opposite edges, see go_again):
# - edge-invalid-utf8-nul-strings.pb.gz: pprof writes its control bytes
#   raw, a "\n" in a name starting a line of its own; pcol writes them by
#   the text rule (\xNN, "\n"), tests/cli/t_text_escape.sh checks that.
# - profiles pcol refuses (legacy text formats) or reads as OTLP: judged in
#   t_pprof_views.sh.
# - pprof -callgrind ignores -lines, -noinlines, -nodefraction and
#   -nodecount; pcol refuses them with --format callgrind (not compared).
#
# Env: PCOL (pcol binary), PCOL_TESTDATA (default ../shared/testdata).
# Exit 0 pass, 1 fail, 77 skip (no Go).
set -u
PPROF_WHAT="pcol graph --format callgrind with go tool pprof -callgrind"
. "$(cd "$(dirname "$0")" && pwd)/pprof_env.sh"
i=0 fail=0

# pprof's order of two edges out of a node whose weights are opposite
# (-w, w) is its map's: graph.go edgeList.Less compares |weight| first and
# then says neither is less, and sort.Sort is not stable, so go's text
# varies from run to run (go-heap-delta-negative-values.pb.gz).  go_again
# FILE PCOL-TEXT PPROF-ARGS: pcol's text is one of go's, in up to 12 runs.
go_again() {
  local f=$1 want=$2 k
  shift 2
  for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
    "$PPROF" -symbolize=none -callgrind "$@" "$f" 2>/dev/null | cmp -s - "$want" && return 0
  done
  return 1
}

# go's text of FILE PPROF-ARGS, once a test (make test's time: a profile's
# view is compared with pcol's on the profile and on its pcol file, so
# each was asked twice): go_text FILE OUT PPROF-ARGS
declare -A GO_TEXT=()
go_text() {
  local f=$1 out=$2 key
  shift 2
  key=$f$'\n'$(printf '%s\n' "$@")
  if [ -n "${GO_TEXT[$key]-}" ]; then cp "${GO_TEXT[$key]}" "$out"; return; fi
  "$PPROF" -symbolize=none -callgrind "$@" "$f" >"$out" 2>/dev/null
  GO_TEXT[$key]=$out
}

# case FILE PCOL-INPUT PPROF-ARGS -- PCOL-ARGS: the two texts, equal
case_() {
  local f=$1 in=$2
  shift 2
  local pp=() pc=()
  while [ "$1" != -- ]; do pp+=("$1"); shift; done
  shift
  pc=("$@")
  i=$((i + 1))
  go_text "$f" "$tmp/$i.go" "${pp[@]}"
  if ! "$PCOL" graph "$in" --format callgrind "${pc[@]}" >"$tmp/$i.pc" 2>"$tmp/$i.err"; then
    echo "FAIL: pcol graph $(basename "$in") --format callgrind ${pc[*]}: $(head -c 300 "$tmp/$i.err")"
    fail=$((fail + 1))
  elif ! cmp -s "$tmp/$i.go" "$tmp/$i.pc" && ! go_again "$f" "$tmp/$i.pc" "${pp[@]}"; then
    echo "FAIL: $(basename "$in"): go tool pprof -callgrind ${pp[*]} vs pcol graph --format callgrind ${pc[*]} (< go, > pcol):"
    diff "$tmp/$i.go" "$tmp/$i.pc" | head -12
    fail=$((fail + 1))
  fi
}

n=0
mapfile -t inputs < <(pprof_inputs) # (not edge-invalid-utf8: see above)
for f in "${inputs[@]}"; do
  n=$((n + 1))
  case_ "$f" "$f" --
  if "$PCOL" pack "$f" -o "$tmp/p.pcol" >/dev/null 2>&1; then
    case_ "$f" "$tmp/p.pcol" --
  else
    echo "FAIL: pcol pack $(basename "$f")"
    fail=$((fail + 1))
  fi
done
[ $n -gt 0 ] || { echo "SKIP: no pprof profiles under $TD"; exit 77; }

g=$TD/pprof/go-cpu-inline-small.pb.gz
if [ -f "$g" ]; then
  case_ "$g" "$g" -focus=mapassign -- --focus mapassign
  case_ "$g" "$g" -hide='runtime\.main' -ignore=evacuate -- --hide 'runtime\.main' --ignore evacuate
  for u in ms us s; do case_ "$g" "$g" -unit=$u -- --unit $u; done
fi
h=$TD/pprof/go-heap-allocs-inline.pb.gz
if [ -f "$h" ]; then
  "$PCOL" pack "$h" -o "$tmp/h.pcol" >/dev/null 2>&1
  for si in alloc_objects alloc_space inuse_objects inuse_space; do
    case_ "$h" "$h" -sample_index=$si -- --value $si
    case_ "$h" "$tmp/h.pcol" -sample_index=$si -- --value $si
  done
  case_ "$h" "$h" -sample_index=alloc_space -unit=kB -- --value alloc_space --unit kB
  case_ "$h" "$h" -sample_index=alloc_space -unit=MB -focus=main -- --value alloc_space --unit MB --focus main
fi
t=$TD/pprof/go-cpu-string-labels.pb.gz
s=$TD/ext/pprof/go-cpu-span-id-labels.pb.gz
if [ -f "$t" ]; then
  case_ "$t" "$t" -tagroot=function -- --tagroot function
  case_ "$t" "$t" -tagleaf=foo -- --tagleaf foo
  case_ "$t" "$t" -tagroot=nokey -- --tagroot nokey # a key no sample has: frames "" (pprof warns)
  [ -f "$s" ] && case_ "$s" "$s" -diff_base="$t" -- --diff-base "$t"
  [ -f "$s" ] && case_ "$s" "$s" -base="$t" -- --base "$t"
fi
e=$TD/pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz
[ -f "$e" ] && case_ "$e" "$e" -tagfocus=thread_name=. -- --tag thread_name=.

# -o: a *.callgrind or callgrind.out.* name chooses the format; DOT
# otherwise, and --format wins over the name
if [ -f "$g" ]; then
  go_text "$g" "$tmp/o.go"
  for o in prof.callgrind callgrind.out.123; do
    if ! "$PCOL" graph "$g" -o "$tmp/$o" 2>"$tmp/o.err" || ! cmp -s "$tmp/o.go" "$tmp/$o"; then
      echo "FAIL: pcol graph -o $o is not go tool pprof -callgrind's text: $(head -c 200 "$tmp/o.err")"
      fail=$((fail + 1))
    fi
  done
  "$PCOL" graph "$g" --format dot -o "$tmp/d.callgrind" 2>/dev/null
  head -1 "$tmp/d.callgrind" | grep -q '^digraph' ||
    { echo "FAIL: --format dot -o d.callgrind is not DOT"; fail=$((fail + 1)); }
fi

# what pprof ignores for callgrind, pcol refuses (usage, exit 2)
for o in "--by line" "--no-inlines" "--node-count 5" "--node-fraction 0.1"; do
  # shellcheck disable=SC2086
  "$PCOL" graph "$g" --format callgrind $o >/dev/null 2>&1
  rc=$?
  [ $rc = 2 ] || { echo "FAIL: graph --format callgrind $o: exit $rc, want 2"; fail=$((fail + 1)); }
done

# callgrind_annotate reads pcol's file back: its total is pcol's total.
# pprof writes "calls=0" (it has no call counts), and callgrind_annotate
# (3.19) reads a call's cost line after calls=0 as the caller's own cost,
# so the calls are given a count of 1 for it; --unit raw keeps the values
# as the file has them.
if [ -x /usr/bin/callgrind_annotate ] || command -v callgrind_annotate >/dev/null 2>&1; then
  CA=$(command -v callgrind_annotate || echo /usr/bin/callgrind_annotate)
  for spec in "$g|" "$h|--value alloc_space" "$h|--value inuse_objects" \
    "$TD/ext/pprof/go-heap-truncated-stacks-3.pb.gz|" "$TD/pprof/cpp-cpu-unsymbolized-mappings.pb.gz|"; do
    f=${spec%%|*} opt=${spec#*|}
    [ -f "$f" ] || continue
    # shellcheck disable=SC2086
    "$PCOL" graph "$f" --format callgrind --unit raw $opt -o "$tmp/a.callgrind" &&
      sed 's/^calls=0 /calls=1 /' "$tmp/a.callgrind" >"$tmp/b.callgrind"
    got=$("$CA" "$tmp/b.callgrind" 2>&1 | sed -n 's/^ *\([0-9,-]*\) (100.0%) *PROGRAM TOTALS.*/\1/p' | tr -d ,)
    # shellcheck disable=SC2086
    want=$("$PCOL" top "$f" $opt --format json | sed -n 's/.*"total":\([-0-9]*\).*/\1/p' | head -1)
    if [ -z "$got" ] || [ "$got" != "$want" ]; then
      echo "FAIL: callgrind_annotate total of $(basename "$f") $opt: $got, pcol's total $want"
      fail=$((fail + 1))
    fi
    i=$((i + 1))
  done
else
  echo "note: callgrind_annotate not installed: read-back not checked"
fi
echo "t_callgrind: $i cases, $fail failed"
[ $fail -eq 0 ]
