#!/usr/bin/env bash
# `--by filefunction` = go tool pprof -filefunctions (a row per function and
# file, "FUNCTION /full/path"): top, top --sort cum, tree, peek and the DOT
# graph's nodes on every pprof profile of the test data go reads, from
# "Showing nodes" on (the graph: its node lines), as t_pprof_views.sh
# compares the other granularities.  Left out: the profile whose names hold
# raw control bytes (pcol prints them as \xNN, doc/safety.md).
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
command -v go >/dev/null || { echo "t_filefunctions: go not installed: skipped"; exit 77; }
data=$(cd "$REPO/../shared/testdata" 2>/dev/null && pwd) || { echo "t_filefunctions: no test data: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cut() { sed -n '/^Showing nodes/,$p'; }
n=0 fail=0 files=0
for f in "$data"/pprof/*.pb* "$data"/ext/pprof/*; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid-utf8-nul-strings*) continue;; esac
  go tool pprof -symbolize=none -top -filefunctions "$f" 2>/dev/null | cut >"$tmp/go" || true
  [ -s "$tmp/go" ] || continue # go cannot read it
  files=$((files + 1))
  check() { # check WHAT GO-ARGS -- PCOL-ARGS
    local what=$1 g=() p=()
    shift
    while [ "$1" != -- ]; do g+=("$1"); shift; done
    shift
    p=("$@")
    if [ "$what" = dot ]; then
      go tool pprof -symbolize=none "${g[@]}" "$f" 2>/dev/null | grep '^N' >"$tmp/go"
      "$PCOL" "${p[@]}" 2>"$tmp/err" | grep '^N' >"$tmp/pc"
    else
      go tool pprof -symbolize=none "${g[@]}" "$f" 2>/dev/null | cut >"$tmp/go"
      "$PCOL" "${p[@]}" 2>"$tmp/err" | cut >"$tmp/pc"
    fi
    n=$((n + 1))
    cmp -s "$tmp/go" "$tmp/pc" || { echo "t_filefunctions: FAIL: $(basename "$f") $what"; diff "$tmp/go" "$tmp/pc" | head -6; fail=$((fail + 1)); }
  }
  check top -top -filefunctions -- top "$f" --by filefunction
  check top-cum -top -cum -filefunctions -- top "$f" --by filefunction --sort cum
  check tree -tree -filefunctions -- tree "$f" --by filefunction
  check peek -peek . -filefunctions -- peek "$f" . --by filefunction
  check dot -dot -filefunctions -- graph "$f" --by filefunction
done
echo "t_filefunctions: $n comparisons on $files profiles, $fail failed"
[ "$files" -ge 30 ] && [ "$fail" = 0 ]
