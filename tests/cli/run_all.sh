#!/usr/bin/env bash
# CLI tests: each tests/cli/*.sh runs with $PCOL set.
set -u
pass=0; fail=0
for t in "$(dirname "$0")"/t_*.sh; do
  [ -e "$t" ] || continue
  if bash "$t"; then pass=$((pass+1)); echo "ok   $(basename "$t")"; else fail=$((fail+1)); echo "FAIL $(basename "$t")"; fi
done
echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
