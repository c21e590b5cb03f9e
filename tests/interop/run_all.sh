#!/usr/bin/env bash
# Interop tests against the real tools: each tests/interop/t_*.sh runs with
# $PCOL set; exit 77 means skipped (its tool is not installed).  JOBS=N runs
# N at a time (make test uses 2); each test's output is printed when it ends.
set -u
jobs=${JOBS:-1}
dir=$(dirname "$0")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The tests run `go tool pprof` hundreds of times.  `go tool` only finds the
# pprof binary in $GOROOT/pkg/tool and execs it, but costs ~40 ms of CPU a
# call (about a quarter of a typical comparison); a `go` on PATH that execs
# that same binary directly for `go tool pprof` (and the real go for all
# else) gives the same answers for less.
if command -v go >/dev/null 2>&1 && gt=$(go env GOTOOLDIR 2>/dev/null) && [ -x "$gt/pprof" ]; then
  mkdir -p "$out/.go"
  printf '%s\n' '#!/bin/sh' \
    "if [ \"\$1\" = tool ] && [ \"\$2\" = pprof ]; then shift 2; exec '$gt/pprof' \"\$@\"; fi" \
    "exec '$(command -v go)' \"\$@\"" >"$out/.go/go"
  chmod +x "$out/.go/go"
  export PATH="$out/.go:$PATH"
fi
# Go's collector at its default (GOGC=100) is a fifth of a pprof view's CPU
# (a session of 20 views of a 260 KB heap profile: 9.2-10.5 s, 7.3 s at
# 400, for 210 MB, not 100); its pacing changes no answer.
export GOGC=${GOGC:-400}
# The longest first (wall seconds of a make test on 2 cores, every test of
# 30 s or more there, by its time), so that two at a time do not end with
# one long test running alone; the rest in name order.
first=$(printf '%s ' t_value_opts.sh t_matrix.sh t_pprof_views.sh t_pprof_semantics.sh t_clickhouse.sh t_shell.sh \
  t_r_rprof.sh t_filefunctions.sh t_spec_reader.sh t_symbolize.sh t_duckdb.sh t_go_pprof.sh t_regex.sh t_perf_real.sh \
  t_flame_zoom.sh t_report.sh t_import_judged.sh t_speedscope.sh t_graph.sh t_jfr.sh t_callgrind.sh)
{ for n in $first; do [ -f "$dir/$n" ] && echo "$dir/$n"; done
  ls "$dir"/t_*.sh 2>/dev/null | while read -r t; do
    case " $first " in *" $(basename "$t") "*) ;; *) echo "$t";; esac
  done; } | xargs -r -P "$jobs" -I{} bash -c '
  t={}; n=$(basename "$t"); o="$0/$n"; s=$(date +%s)
  if [ -x /usr/bin/time ]; then run="/usr/bin/time -f %U+%S -o $o.cpu"; else run=; fi
  $run bash "$t" >"$o.log" 2>&1; rc=$?
  echo $rc >"$o.rc"
  cat "$o.log"
  case $rc in 0) w="ok  ";; 77) w="SKIP";; *) w="FAIL";; esac
  cpu=$( [ -s "$o.cpu" ] && echo ", cpu $(tail -1 "$o.cpu" | awk -F+ "{printf \"%.0f\", \$1+\$2}") s")
  echo "$w $n ($(( $(date +%s) - s )) s$cpu)"' "$out"
pass=0; fail=0; skip=0
for r in "$out"/*.rc; do
  [ -e "$r" ] || continue
  case "$(cat "$r")" in
    0) pass=$((pass+1));;
    77) skip=$((skip+1));;
    *) fail=$((fail+1)); echo "FAIL $(basename "$r" .rc)";;
  esac
done
echo "interop: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
