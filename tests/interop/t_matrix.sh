#!/usr/bin/env bash
# The conversion matrix (issue 13): every profile of the shared test data,
# through every export that applies, read by each format's reference tool
# (summaryRprof, go tool pprof, flamegraph-style sums, speedscope's importer,
# Perun's own sums) and compared, total and per function, with the source's
# reference tool on the original; pcol top/fold/flame/diff totals agree.
# The rules, the exceptions (where a judge misreads, each with its reason)
# and KNOWN_BUGS are in tests/interop/t_matrix.py.
#
# Env: PCOL, BUILD, PCOL_TESTDATA, PCOL_NPM_DIR (speedscope's npm install,
# shared with t_speedscope.sh; default $BUILD/npm-speedscope),
# PCOL_MATRIX_JOBS (parallel workers, default 2).
# Exit 0 pass, 1 fail, 77 skip (no R, Go, node/npm, or no test data).
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
TD=${PCOL_TESTDATA:-../shared/testdata}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
for t in Rscript go python3; do
  command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed (the matrix needs R, Go, python3 and node/npm)"; exit 77; }
done
[ -d "$TD" ] || { echo "SKIP: no shared test data at $TD"; exit 77; }
. "$REPO/tests/interop/speedscope_env.sh"
# the interpreter itself, started three times below: python3 may be a shim
# (pyenv's costs about 0.6 s of CPU per start)
PY=$(python3 -c 'import sys; print(sys.executable)')
W=$BUILD/interop-matrix
rm -rf "$W" && mkdir -p "$W"
W=$(cd "$W" && pwd)
PCOL_ABS=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
# inputs of the formats the shared data has none of (t_matrix.py generated()):
# perf script from a generator that knows the answer, .cpuprofile from node,
# a speedscope file exported from a collapsed fixture, a JFR recording
mkdir -p "$W/gen"
"$PY" "$REPO/tests/support/gen_perf_script.py" "$W/gen/perf-pidtid.txt" "$W/gen/perf-pidtid.truth" \
  --style pidtid --events 1 --count-truth "$W/gen/perf-pidtid.count" --samples 300 --seed 11
"$PY" "$REPO/tests/support/gen_perf_script.py" "$W/gen/perf-default.txt" "$W/gen/perf-default.truth" \
  --style default --events 1 --count-truth "$W/gen/perf-default.count" --samples 300 --seed 12
printf '%s\n' 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }' \
  'async function f(i) { await new Promise((r) => setImmediate(r)); return fib(18 + i % 3); }' \
  '(async () => { for (let i = 0; i < 40; i++) await f(i); setTimeout(() => fib(22), 200); })();' > "$W/gen/w.js"
(cd "$W/gen" && node --cpu-prof --cpu-prof-name=node-async.cpuprofile w.js) || echo "t_matrix: node --cpu-prof failed"
rm -f "$W/gen/w.js"
# the same profile as a Chrome trace: a Profile event and chunks of 50
# samples, each adding the nodes its samples need (parent form), as Chrome
# writes them; t_matrix.py judges it by the .cpuprofile it was cut from
[ -f "$W/gen/node-async.cpuprofile" ] &&
  "$PY" "$REPO/tests/support/v8gen.py" trace "$W/gen/node-async.cpuprofile" "$W/gen/node-async.trace"
# CPython's Tachyon binary (no CPython 3.15 here: its writer's encoding, by
# tests/support/tachyongen.py, which writes its answers beside it)
"$PY" "$REPO/tests/support/tachyongen.py" rich "$W/gen/tachyon-zstd.bin" --zstd --samples 600 --seed 3 \
  --collapsed "$W/gen/tachyon-zstd" > /dev/null || echo "t_matrix: tachyongen.py failed"
cp "$REPO/tests/fixtures/collapsed/annotated.folded" "$W/gen/ss-annotated.folded"
"$PCOL" unpack "$W/gen/ss-annotated.folded" --to speedscope -o "$W/gen/ss-annotated.json"
# a JFR recording of execution samples (tests/support/gen_jfr.py, 3 chunks),
# read by the JDK's jfr tool when it is installed (its reference reading)
if command -v jfr >/dev/null 2>&1; then
  "$PY" "$REPO/tests/support/gen_jfr.py" "$W/gen/gen.jfr" --chunks 3 --samples 120 --exec-only &&
    jfr print --json --stack-depth 4096 --events jdk.ExecutionSample "$W/gen/gen.jfr" >"$W/gen/gen.jfr.json" ||
    { echo "t_matrix: jfr print failed"; rm -f "$W/gen/gen.jfr"; }
fi
"$PY" "$REPO/tests/interop/t_matrix.py" "$PCOL_ABS" "$TD" "$W" "$NPM_DIR" "$BUNDLE" "$SCHEMA" "$REPO"
