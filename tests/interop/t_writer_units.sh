#!/bin/bash
# t_writer_units.sh — a streaming writer's point sample lasts one period in
# any time unit (review 14 F1): tests/test_writer.c's unit tests, run with
# $PPROF set, so that each file's pprof export (pcol unpack --to pprof) is
# also read by go tool pprof -top, whose header must say the samples' span
# at 100 % (10 samples of 10 ms: "Duration: 100ms, Total samples = 100ms
# (  100%)"; one sample: "Duration: 10ms"), as pcol top of the file does.
PPROF_WHAT="the streaming writer's period units"
. "$(dirname "$0")/pprof_env.sh"
BUILD=${BUILD:-build}
T=$BUILD/tests/test_writer
# (the interop stage runs on the plain build, which makes no unit test
# binary: this one is made here when missing)
if [ ! -x "$T" ]; then
  make --no-print-directory BUILD="$BUILD" "$T" >"$tmp/make.log" 2>&1 ||
    { cat "$tmp/make.log"; echo "FAIL: $T cannot be built"; exit 1; }
fi
export PPROF PCOL_BUILD=${PCOL_BUILD:-$(dirname "$(dirname "$PCOL")")}
"$T" --filter 'writer/point_sample_lasts_a_period_in_any_time_unit' >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; echo "FAIL: t_writer_units"; exit 1; }
grep -q 'Passing: 1 ' "$tmp/out" || { cat "$tmp/out"; echo "FAIL: the test did not run"; exit 1; }
echo "PASS t_writer_units"
