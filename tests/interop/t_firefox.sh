#!/usr/bin/env bash
# The Firefox Profiler's own code reads what `pcol unpack --to firefox`
# writes, and what it computes from the profiles pcol imports equals pcol's.
#
# Needs a checkout of firefox-devtools/profiler with its dependencies
# installed (FIREFOX_PROFILER_SRC; `npm install --ignore-scripts` there);
# skipped with a message without one (CI has no access to GitHub).  The test
# bundles tests/interop/firefox_judge.ts with esbuild against that checkout
# and runs it in node: unserializeProfileOfArbitraryFormat (gzip, the
# processed-profile upgraders, Gecko processing) and the function list's
# timings per thread (firefox_compare.py says what is compared).
#
#  1. export: each test profile -> pcol unpack --to firefox (gzip and not,
#     coalesced long samples, merged sources, a time range): the profiler
#     loads it without an error, warning or upgrade, and its per-function
#     self/total equal `pcol top` of the same selection;
#  2. import: the profiler's example profile argument-values.json (processed,
#     version 58, from Firefox), the Gecko profile its own tests build
#     (createGeckoProfile: two processes, JS, C++, label and address frames),
#     and any profile in $FIREFOX_IMPORT_DIR -> pcol top equals the
#     profiler's numbers on the original file;
#  3. round trip: Firefox -> pcol -> Firefox keeps the profiler's numbers;
#  4. duration: pcol's duration of a Firefox profile is the length of the
#     profiler's range of it (getTimeRangeIncludingAllThreads), and the
#     range survives Firefox -> pcol -> Firefox.
#
# Env: PCOL, BUILD, PCOL_TESTDATA, FIREFOX_PROFILER_SRC.  Exit 0 pass, 1
# fail, 77 skip.
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
TD=${PCOL_TESTDATA:-../shared/testdata}
SRC=${FIREFOX_PROFILER_SRC:-}
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$SRC" ] || [ ! -d "$SRC/src/profile-logic" ]; then
  echo "SKIP: FIREFOX_PROFILER_SRC is not a checkout of firefox-devtools/profiler (set it to run the judge)"
  exit 77
fi
if ! command -v node >/dev/null 2>&1 || [ ! -d "$SRC/node_modules/esbuild" ]; then
  echo "SKIP: node, or esbuild in $SRC/node_modules, is missing (npm install --ignore-scripts there)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! node "$here/firefox_build.mjs" "$SRC" "$tmp/judge.cjs" 2>"$tmp/err"; then
  echo "FAIL: bundling the profiler's code: $(head -c 2000 "$tmp/err")"
  exit 1
fi
fail=0
list=() tops=()
# add NAME PCOL-INPUT TOP-ARGS -- UNPACK-ARGS: export and remember what to compare
add() {
  local name=$1 in=$2; shift 2
  local targs=() uargs=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do targs+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  uargs=("$@")
  local k=${#list[@]} out
  out=$tmp/e$k.json.gz
  case " ${uargs[*]-} " in *" --no-gzip "*) out=$tmp/e$k.json ;; esac
  if ! $PCOL unpack "$in" --to firefox -o "$out" ${uargs[@]+"${uargs[@]}"} 2>"$tmp/err"; then
    echo "FAIL $name: unpack: $(cat "$tmp/err")"; fail=1; return
  fi
  if ! $PCOL top "$in" --format json --node-fraction 0 ${targs[@]+"${targs[@]}"} >"$tmp/t$k.json" 2>"$tmp/err"; then
    echo "FAIL $name: top: $(cat "$tmp/err")"; fail=1; return
  fi
  list+=("$out") tops+=("$tmp/t$k.json")
}

# 1. export
for f in examples/demo.out "$TD"/rprof/*.out "$TD"/rprof/*.prof "$TD"/pprof/*.pb.gz \
         "$TD"/pprof/*.pb "$TD"/pprof-from-r/*.pb.gz "$TD"/perun/*.perf \
         tests/fixtures/collapsed/*.folded tests/fixtures/perun/*.perf; do
  [ -f "$f" ] || continue
  add "$f" "$f"
done
$PCOL pack examples/demo.out --coalesce -o "$tmp/long.pcol" && add coalesced "$tmp/long.pcol"
add "coalesced, a range" "$tmp/long.pcol" --from 0.05 --to 0.31 -- --from-time 0.05 --to-time 0.31
add "JSON text" examples/demo.out -- --no-gzip
if [ -f "$TD/pprof/go-cpu-inline-small.pb.gz" ]; then
  $PCOL merge examples/demo.out "$TD/pprof/go-cpu-inline-small.pb.gz" -o "$tmp/merged.pcol" &&
    add "merged, source 2" "$tmp/merged.pcol" --source 2 -- --source 2
fi
# 2. import, and 3. round trip: the profiler's example profiles in its
# repository that are processed profiles pcol reads (older versions are
# refused by design), and any profile in $FIREFOX_IMPORT_DIR (samply-written
# ones, say): pcol top of the import must equal the profiler's numbers on the
# file itself, and the profiler's numbers on pcol's export of it
imports=("$SRC/src/test/fixtures/upgrades/argument-values.json")
# a Gecko profile: the one the profiler's own tests build (createGeckoProfile)
if node "$here/firefox_build.mjs" "$SRC" "$tmp/gecko_gen.cjs" firefox_gecko_gen.ts 2>"$tmp/err" &&
   node "$tmp/gecko_gen.cjs" "$tmp/gecko.json" 2>>"$tmp/err"; then
  imports+=("$tmp/gecko.json")
else
  echo "FAIL: making the profiler's Gecko test profile: $(head -c 1000 "$tmp/err")"; fail=1
fi
# and the project's own Gecko fixture (every kind of location string)
python3 "$here/../support/firefox_gen.py" gecko "$tmp/gecko-gen.json" >/dev/null && imports+=("$tmp/gecko-gen.json")
if [ -n "${FIREFOX_IMPORT_DIR:-}" ]; then
  for f in "$FIREFOX_IMPORT_DIR"/*.json "$FIREFOX_IMPORT_DIR"/*.json.gz; do [ -f "$f" ] && imports+=("$f"); done
fi
for f in "${imports[@]}"; do
  [ -f "$f" ] || continue
  k=${#list[@]}
  if ! $PCOL top "$f" --format json --node-fraction 0 >"$tmp/t$k.json" 2>"$tmp/err"; then
    echo "FAIL import $f: $(cat "$tmp/err")"; fail=1; continue
  fi
  list+=("$f") tops+=("$tmp/t$k.json@import")
  add "round trip $f" "$f"
done
node "$tmp/judge.cjs" "${list[@]}" >"$tmp/judged.jsonl" || { echo "FAIL: the judge crashed"; exit 1; }
python3 "$here/firefox_compare.py" "$tmp/judged.jsonl" "${tops[@]}" || fail=1

# 4. the duration: pcol info's duration_ns of a profile is the length of the
# profiler's range of it (getTimeRangeIncludingAllThreads), and so is
# tests/support/firefox_range.py's number (the rule tests/cli/t_firefox.sh
# computes): generated profiles (processed v70, Gecko with a child
# process) as they are, with a profiling range, with a thread of markers
# only, with markers and no samples; a marker the profiler fails on gives
# no duration.
gen=$here/../support/firefox_gen.py rng=$here/../support/firefox_range.py
rfiles=() rwant=()
for k in v70 gecko; do # (the profiler's upgraders fail on firefox_gen.py's v48: fields it leaves out)
  python3 "$gen" $k "$tmp/r-$k.json" >/dev/null || { echo "FAIL: firefox_gen.py $k"; fail=1; continue; }
  for m in "" range markers only-markers markers:range; do
    f=$tmp/r-$k-${m//:/-}.json
    rwant+=("$(python3 "$rng" "$tmp/r-$k.json" "$f" ${m//:/ })") rfiles+=("$f")
  done
done
python3 - "$tmp/r-v70-markers.json" "$tmp/r-bad.json" <<'PY' && rfiles+=("$tmp/r-bad.json") rwant+=(none)
import json, sys
d = json.load(open(sys.argv[1]))
d["threads"][-1]["markers"]["phase"][0] = 7
json.dump(d, open(sys.argv[2], "w"))
PY
# and their round trip Firefox -> pcol -> Firefox: the profiler loads the
# export without an error, warning or upgrade, and its range is the
# original's (the export writes it as meta.profilingStartTime/EndTime)
rt=()
for f in "${rfiles[@]}"; do
  $PCOL unpack "$f" --to firefox -o "${f%.json}.rt.json.gz" 2>"$tmp/err" || echo "FAIL unpack $f: $(cat "$tmp/err")"
  rt+=("${f%.json}.rt.json.gz")
done
node "$tmp/judge.cjs" "${rfiles[@]}" >"$tmp/ranges.jsonl" || { echo "FAIL: the judge crashed"; exit 1; }
node "$tmp/judge.cjs" "${rt[@]}" >"$tmp/ranges-rt.jsonl" || { echo "FAIL: the judge crashed"; exit 1; }
k=0
while IFS= read -r line; do
  f=${rfiles[$k]} w=${rwant[$k]} back=$(sed -n "$((k + 1))p" "$tmp/ranges-rt.jsonl")
  k=$((k + 1))
  if [ "$w" != none ] && ! python3 - "$line" "$back" <<'PY'; then
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert "error" not in b, "the profiler failed on the export: " + b["error"]
assert not [w for w in b["warnings"] if not w.startswith("log: ")], "the profiler warned: %s" % b["warnings"]
assert not b.get("upgradeInfo"), "the profiler upgraded the export: %s" % b["upgradeInfo"]
assert a["range"] == b["range"], "the export's range %s, the original's %s" % (b["range"], a["range"])
PY
    echo "FAIL round trip of the range of $(basename "$f")"; fail=1
  fi
  got=$($PCOL info "$f" --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["rows"][0]["duration_ns"])')
  if ! python3 - "$line" "$got" "$w" <<'PY'; then
import json, sys
j, got, rule = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
want = "None" if "error" in j else str(round((j["range"][1] - j["range"][0]) * 10**6))
assert got == want, "pcol's duration %s ns, the profiler's range %s ns (%s)" % (got, want, j.get("error") or j["range"])
assert rule == (want if want != "None" else "none"), "firefox_range.py says %s, the profiler %s" % (rule, want)
PY
    echo "FAIL duration of $(basename "$f")"; fail=1
  else
    echo "ok   duration of $(basename "$f"): $got ns"
  fi
done <"$tmp/ranges.jsonl"
exit $fail
