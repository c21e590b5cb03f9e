#!/usr/bin/env bash
# `--by filefunction` = go tool pprof -filefunctions (a row per function and
# file, "FUNCTION /full/path"): top, top --sort cum, tree, peek and the DOT
# graph's nodes on every pprof profile of the test data go reads, from
# "Showing nodes" on (the graph: its node lines), as t_pprof_views.sh
# compares the other granularities.  Left out: the profile whose names hold
# raw control bytes (pcol prints them as \xNN, doc/safety.md).
# go's five views of a profile come from one go tool pprof session
# (tests/interop/pprof_session.sh: one start and parse, not five; one view
# in 25 also on the command line, held to the session's answer); a profile
# whose -top go does not answer (go cannot read it) is not counted.
set -u
PPROF_WHAT="pcol --by filefunction with go tool pprof -filefunctions"
. "$(cd "$(dirname "$0")" && pwd)/pprof_env.sh"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
data=$(cd "$REPO/../shared/testdata" 2>/dev/null && pwd) || { echo "t_filefunctions: no test data: skipped"; exit 77; }
. "$REPO/tests/interop/pprof_session.sh"
shown() { sed -n '/^Showing nodes/,$p'; }
VIEWS=(top top-cum tree peek dot)
go_args() { # go_args WHAT: go's arguments of the view WHAT
  case $1 in
  top) echo -top ;; top-cum) echo -top -cum ;; tree) echo -tree ;; peek) echo -peek . ;; dot) echo -dot ;;
  esac
}
pcol_args() { # pcol_args WHAT FILE: pcol's arguments of the view WHAT
  case $1 in
  top) echo "top $2" ;; top-cum) echo "top $2 --sort cum" ;; tree) echo "tree $2" ;; peek) echo "peek $2 ." ;; dot) echo "graph $2" ;;
  esac
}
mkdir -p "$tmp/gv"
F=()
for f in "$data"/pprof/*.pb* "$data"/ext/pprof/*; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid-utf8-nul-strings*) continue;; esac
  k=${#F[@]} F+=("$f")
  for what in "${VIEWS[@]}"; do
    # shellcheck disable=SC2046 # (no blanks in the arguments)
    ps_plan "$tmp/gv/$k.$what" $(go_args "$what") -filefunctions "$f"
  done
done
ps_run
n=0 fail=$PS_FAILS files=0
for k in "${!F[@]}"; do
  f=${F[k]}
  [ -s "$tmp/gv/$k.top" ] && [ -n "$(shown <"$tmp/gv/$k.top")" ] || continue # go cannot read it
  files=$((files + 1))
  for what in "${VIEWS[@]}"; do
    # shellcheck disable=SC2046 # (the test data's paths hold no blanks)
    if [ "$what" = dot ]; then
      grep '^N' "$tmp/gv/$k.$what" >"$tmp/go"
      "$PCOL" $(pcol_args "$what" "$f") --by filefunction 2>"$tmp/err" | grep '^N' >"$tmp/pc"
    else
      shown <"$tmp/gv/$k.$what" >"$tmp/go"
      "$PCOL" $(pcol_args "$what" "$f") --by filefunction 2>"$tmp/err" | shown >"$tmp/pc"
    fi
    n=$((n + 1))
    cmp -s "$tmp/go" "$tmp/pc" || { echo "t_filefunctions: FAIL: $(basename "$f") $what"; diff "$tmp/go" "$tmp/pc" | head -6; fail=$((fail + 1)); }
  done
done
echo "t_filefunctions: $n comparisons on $files profiles, $fail failed"
[ "$files" -ge 30 ] && [ "$fail" = 0 ]
