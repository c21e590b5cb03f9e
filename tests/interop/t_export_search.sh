#!/usr/bin/env bash
# A seeded random search for exports that the real tool reads differently
# from pcol: random profiles (tests/support/pprofgen.py `random` and
# `random-odd`: 1-3 value types, values 0, below 0 and past 2^48, labels,
# inline frames, functions without names or files, samples without
# locations, names with unicode, quotes, blanks, ';' and bytes that are not
# UTF-8; perf script from gen_perf_script.py, CPython Tachyon files from
# tachyongen.py, both with their answers, and random V8 profiles from
# v8gen.py with the Chrome traces that carry them, judged by the
# .cpuprofile), each through every export pcol
# writes (rprof, pprof, collapsed, speedscope, firefox, otlp, v8 and perun),
# judged as tests/interop/t_matrix.py judges the shared test data (go tool
# pprof, summaryRprof, speedscope's importer, protoc, the sums of the
# Perun and V8 files), and every Firefox export by the Firefox Profiler's own
# code (firefox_cli_judge.cjs, as t_firefox.sh) against `pcol top`.
#
# make test runs a few seeds, each of which found a bug once (a minute or
# so of CPU):
#   random 12 15 19 27   the Perun export named a function without a name
#                        "[unknown]" where fold, collapsed and speedscope
#                        name it by the frame rule (FILE:LINE, <unknown>)
#   random 88 154 173    the speedscope export opened on another type's
#                        profile when the default type had a value below 0
#                        and the count was pprof's samples/count
#   random 13 27 28      samples without locations beside values below 0
#                        (the judges' net totals)
#   random 150 250       drop_frames: the pprof export wrote it with the
#                        stacks pruned by it, and go pruned them again
#                        (alpha's cum: 2869us in the source, -206us in the
#                        export)
#   random-odd 12        bytes that are not UTF-8 in a name (R, OTLP, Perun)
#   perf/tachyon 1 2     several threads, [unknown] frames
#   v8/chrome 1 2        random V8 profiles and their Chrome traces
# The search itself, by hand (some minutes; of a profile that sets
# drop_frames, t_matrix.py counts the Sample messages as go tool pprof
# prunes them, go_pruned_rows):
#   PCOL_SEARCH_RANDOM="$(seq -s' ' 1 400)" PCOL_SEARCH_ODD="$(seq -s' ' 1 120)" \
#   PCOL_SEARCH_GEN="$(seq -s' ' 1 12)" bash tests/interop/t_export_search.sh
# (PCOL_SEARCH_FIREFOX=0 leaves the Firefox Profiler out: about 1.5 s a file.)
#
# Env: PCOL, BUILD, PCOL_NPM_DIR (speedscope's install, as t_matrix.sh),
# PCOL_FIREFOX_NPM_DIR (the profiler's, as t_firefox.sh's PCOL_NPM_DIR).
# Exit 0 pass, 1 fail, 77 skip (no R, Go, python3 or node/npm).
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
for t in Rscript go python3 protoc; do
  command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done
. "$REPO/tests/interop/speedscope_env.sh"
PY=$(python3 -c 'import sys; print(sys.executable)')
W=$BUILD/interop-export-search
rm -rf "$W" && mkdir -p "$W/td/pprof" "$W/m/gen"
W=$(cd "$W" && pwd)
PCOL_ABS=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
RANDOM_SEEDS=${PCOL_SEARCH_RANDOM:-12 13 15 18 19 27 28 88 150 154 173 250}
ODD_SEEDS=${PCOL_SEARCH_ODD:-12}
GEN_SEEDS=${PCOL_SEARCH_GEN:-1 2}
"$PY" - "$W/td/pprof" "$REPO/tests/support" "$RANDOM_SEEDS" "$ODD_SEEDS" <<'PY' || exit 1
import os, subprocess, sys
out, sup, rnd, odd = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
for mode, seeds, pre in (("random", rnd, "rand"), ("random-odd", odd, "odd")):
    for s in seeds:
        f = os.path.join(out, "%s-%s.pb" % (pre, s))
        subprocess.run([sys.executable, os.path.join(sup, "pprofgen.py"), mode, f, s], check=True)
PY
for s in $GEN_SEEDS; do
  st=default; [ $((s % 2)) = 0 ] && st=pidtid
  "$PY" "$REPO/tests/support/gen_perf_script.py" "$W/m/gen/perf-$s.txt" "$W/m/gen/perf-$s.truth" --style $st \
    --events 1 --count-truth "$W/m/gen/perf-$s.count" --samples 200 --seed "$s" || exit 1
  z=; [ $((s % 3)) = 0 ] && z=--zstd
  "$PY" "$REPO/tests/support/tachyongen.py" rich "$W/m/gen/tachyon-$s.bin" $z --samples 300 --seed "$s" \
    --collapsed "$W/m/gen/tachyon-$s" >/dev/null || exit 1
  # a random V8 profile, and the Chrome trace that carries it in chunks
  # (judged by the .cpuprofile, t_matrix.py)
  "$PY" "$REPO/tests/support/v8gen.py" random "$W/m/gen/v8-$s.cpuprofile" "$s" &&
    "$PY" "$REPO/tests/support/v8gen.py" trace "$W/m/gen/v8-$s.cpuprofile" "$W/m/gen/v8-$s.trace" $((20 + s)) || exit 1
done
fail=0
PCOL_MATRIX_PERUN_ALL=1 "$PY" "$REPO/tests/interop/t_matrix.py" "$PCOL_ABS" "$W/td" "$W/m" "$NPM_DIR" \
  "$BUNDLE" "$SCHEMA" "$REPO" >"$W/matrix.txt" 2>&1 || fail=1
grep -v '^refused on purpose: $' "$W/matrix.txt"
# the Firefox exports, by the Firefox Profiler's own code (t_firefox.sh's judge)
# (installed here as t_firefox.sh installs it, under one lock: the two may
# run side by side)
. "$REPO/tests/interop/firefox_cli_env.sh"
FF_DIR=${PCOL_FIREFOX_NPM_DIR:-$BUILD/npm-firefox}
if [ "${PCOL_SEARCH_FIREFOX:-1}" = 0 ]; then
  echo "t_export_search: the Firefox Profiler left out (PCOL_SEARCH_FIREFOX=0)"
elif ! firefox_cli_install "$FF_DIR"; then
  echo "t_export_search: could not npm install @firefox-devtools/profiler-cli@$FIREFOX_CLI_VERSION into $FF_DIR: the Firefox exports judged by t_matrix.py only"
else
  CLI=$FF_CLI
  list=() tops=()
  for f in "$W"/td/pprof/*.pb "$W"/m/gen/*.txt "$W"/m/gen/*.bin; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    "$PCOL" unpack "$f" --to firefox -o "$W/ff-$b.json.gz" 2>"$W/err" &&
      "$PCOL" top "$f" --format json --node-fraction 0 >"$W/ff-$b.top.json" 2>>"$W/err" ||
      { echo "FAIL $b: firefox export or top: $(head -c 500 "$W/err")"; fail=1; continue; }
    list+=("$W/ff-$b.json.gz") tops+=("$W/ff-$b.top.json")
  done
  if [ ${#list[@]} -gt 0 ]; then
    FIREFOX_WRITTEN_VERSION=$("$PY" -c 'import gzip, json, sys; print(json.load(gzip.open(sys.argv[1]))["meta"]["preprocessedProfileVersion"])' "${list[0]}")
    export FIREFOX_WRITTEN_VERSION
    node "$REPO/tests/interop/firefox_cli_judge.cjs" "$CLI" "${list[@]}" >"$W/ff.jsonl" ||
      { echo "FAIL: the Firefox Profiler's judge crashed"; fail=1; }
    "$PY" "$REPO/tests/interop/firefox_compare.py" "$W/ff.jsonl" "${tops[@]}" >"$W/ff.txt" 2>&1 || fail=1
    grep -v '^ok ' "$W/ff.txt"
  fi
fi
n=$(ls "$W"/td/pprof | wc -l)
echo "t_export_search: $n pprof profiles (seeds: random $RANDOM_SEEDS; random-odd $ODD_SEEDS) and perf/tachyon/v8/chrome seeds $GEN_SEEDS through every export"
[ $fail = 0 ] && echo "t_export_search: PASS" || echo "t_export_search: FAIL"
exit $fail
