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
SPEEDSCOPE_VERSION=1.25.0
REPO=$(cd "$(dirname "$0")/../.." && pwd)
for t in Rscript go node npm python3; do
  command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed (the matrix needs R, Go, node/npm and python3)"; exit 77; }
done
[ -d "$TD" ] || { echo "SKIP: no shared test data at $TD"; exit 77; }
NPM_DIR=${PCOL_NPM_DIR:-$BUILD/npm-speedscope}
mkdir -p "$NPM_DIR"
NPM_DIR=$(cd "$NPM_DIR" && pwd)
if [ ! -f "$NPM_DIR/node_modules/speedscope/package.json" ] || [ ! -d "$NPM_DIR/node_modules/ajv" ]; then
  if ! (cd "$NPM_DIR" && timeout 300 npm install --no-audit --no-fund --loglevel=error \
        "speedscope@$SPEEDSCOPE_VERSION" ajv@8 >/dev/null 2>&1); then
    echo "SKIP: could not npm install speedscope@$SPEEDSCOPE_VERSION and ajv@8 (no registry access?)"
    exit 77
  fi
fi
REL=$NPM_DIR/node_modules/speedscope/dist/release
BUNDLE=$(ls "$REL"/speedscope-*.js 2>/dev/null | head -1)
SCHEMA=$REL/file-format-schema.json
[ -f "$BUNDLE" ] && [ -f "$SCHEMA" ] || { echo "t_matrix: speedscope package lacks its bundle or schema" >&2; exit 1; }
W=$BUILD/interop-matrix
rm -rf "$W" && mkdir -p "$W"
W=$(cd "$W" && pwd)
PCOL_ABS=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
python3 "$REPO/tests/interop/t_matrix.py" "$PCOL_ABS" "$TD" "$W" "$NPM_DIR" "$BUNDLE" "$SCHEMA" "$REPO"
