#!/bin/sh
# run_unit.sh BINARY... — the Criterion test binaries, JOBS at a time (a
# binary of a few long tests, such as the fuzz replay, keeps one core busy),
# each printed whole when it ends; fails unless every one passed.
# `make test-unit` runs it with BUILD (the binaries' PCOL_BUILD) and JOBS.
jobs=${JOBS:-1}
d=$(mktemp -d)
printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh -c \
  't={}; n=$(basename $t); if PCOL_BUILD=$1 $t --jobs 2 >"$0/$n.log" 2>&1; then echo ok >"$0/$n.rc";
   else echo FAILED >"$0/$n.rc"; fi; echo "== $t"; cat "$0/$n.log";
   [ "$(cat "$0/$n.rc")" = ok ] || echo "FAILED: $t"' "$d" "${BUILD:-build}"
pass=$(grep -l '^ok' "$d"/*.rc | wc -l); fail=$(grep -L '^ok' "$d"/*.rc | wc -l); rm -rf "$d"
echo "unit test binaries: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" = $# ]
