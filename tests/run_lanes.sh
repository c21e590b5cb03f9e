#!/bin/sh
# run_lanes.sh — make test's last stage: the one-core stages in two lanes
# side by side, each lane's output printed when it ends (so the two do not
# interleave); fails if either lane does.
#   lane a: the R and Python packages (test-bindings);
#   lane b: the clang build, install, the resource bounds, the whole-corpus
#           read-back and bench-quick (which checks that the benchmark harness
#           runs: its numbers, taken beside other work, are not measurements;
#           `make bench` is), on the plain build (BENCH_BUILD=$BUILD).
# Run by `make test-tail` with MAKE and BUILD set.
make=${MAKE:-make}
d=$(mktemp -d)
( $make --no-print-directory test-bindings >"$d/a" 2>&1; echo $? >"$d/a.rc" ) &
( $make -k --no-print-directory BENCH_BUILD="${BUILD:-build}" \
    test-clang test-install test-bounds test-corpus bench-quick >"$d/b" 2>&1; echo $? >"$d/b.rc" ) &
wait
cat "$d/b" "$d/a"
rc=$(cat "$d/a.rc" "$d/b.rc" | sort -n | tail -1)
rm -rf "$d"
[ "$rc" = 0 ] || { echo "test-tail: a lane failed (exit $rc)"; exit 1; }
