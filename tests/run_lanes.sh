#!/usr/bin/env bash
# run_lanes.sh — make test's last stage: the one-core stages in two lanes
# side by side, each lane's output printed when it ends (so the two do not
# interleave); fails if either lane does.
#   lane a: the R and Python packages (test-bindings);
#   lane b: the clang build, install, the resource bounds, the whole-corpus
#           read-back and bench-quick (which checks that the benchmark harness
#           runs: its numbers, taken beside other work, are not measurements;
#           `make bench` is), on the plain build (BENCH_BUILD=$BUILD).
# Each stage's wall and CPU time is printed at the end (tests/stage.sh's
# line): lane a's is test-bindings', lane b's the sum of its five, so the
# lanes' balance shows (bench/results/test-time.md).
# Run by `make test-tail` with MAKE and BUILD set.
make=${MAKE:-make}
d=$(mktemp -d)
# timed NAME CMD...: CMD's output to $d/NAME.out, its time's line to $d/times
timed() {
  local name=$1 rc
  shift
  sh tests/stage.sh "$name" "$@" >"$d/$name.out" 2>&1
  rc=$?
  tail -1 "$d/$name.out" >>"$d/times"
  return $rc
}
# lane b's stages one make each (as make -k did: each runs whatever the
# one before it did; the lane fails if any failed)
lane_b() {
  local t rc=0
  for t in test-clang test-install test-bounds test-corpus bench-quick; do
    timed "$t" $make --no-print-directory BENCH_BUILD="${BUILD:-build}" "$t" || rc=1
  done
  return $rc
}
( timed test-bindings $make --no-print-directory test-bindings; echo $? >"$d/a.rc" ) &
( lane_b; echo $? >"$d/b.rc" ) &
wait
cat "$d"/test-clang.out "$d"/test-install.out "$d"/test-bounds.out "$d"/test-corpus.out "$d"/bench-quick.out \
  "$d"/test-bindings.out 2>/dev/null
echo "test-tail times (lane a: test-bindings; lane b: the others, one after another):"
cat "$d/times"
rc=$(cat "$d/a.rc" "$d/b.rc" | sort -n | tail -1)
rm -rf "$d"
[ "$rc" = 0 ] || { echo "test-tail: a lane failed (exit $rc)"; exit 1; }
