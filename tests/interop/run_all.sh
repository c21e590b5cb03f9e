#!/usr/bin/env bash
# Interop tests against R and Go: each tests/interop/t_*.sh runs with $PCOL set.
set -u
pass=0; fail=0; skip=0
for t in "$(dirname "$0")"/t_*.sh; do
  [ -e "$t" ] || continue
  bash "$t"; rc=$?
  if [ $rc = 0 ]; then pass=$((pass+1)); echo "ok   $(basename "$t")";
  elif [ $rc = 77 ]; then skip=$((skip+1)); echo "SKIP $(basename "$t")";
  else fail=$((fail+1)); echo "FAIL $(basename "$t")"; fi
done
echo "interop: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
