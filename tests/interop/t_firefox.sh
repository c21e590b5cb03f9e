#!/usr/bin/env bash
# The Firefox Profiler's own code reads what `pcol unpack --to firefox`
# writes, and what it computes from the profiles pcol imports equals pcol's.
#
# The judge is the profiler's code from a checkout of firefox-devtools/profiler
# with its dependencies installed (FIREFOX_PROFILER_SRC; `npm install
# --ignore-scripts` there): the test bundles tests/interop/firefox_judge.ts
# with esbuild against it and runs it in node (unserializeProfileOfArbitraryFormat:
# gzip, the processed-profile upgraders, Gecko processing; and the function
# list's timings per thread).  Without one (CI reaches no GitHub), the same
# code as Mozilla publishes it on npm: @firefox-devtools/profiler-cli
# (FIREFOX_CLI_VERSION, installed into $PCOL_NPM_DIR or $BUILD/npm-firefox;
# firefox_cli_judge.cjs asks its daemon).  firefox_compare.py says what is
# compared.  Skipped with a message without node/npm or either judge.
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
#     and other formats through its own importers (2b: a .cpuprofile);
#  3. round trip: Firefox -> pcol -> Firefox keeps the profiler's numbers;
#  4. duration: pcol's duration of a Firefox profile is the length of the
#     profiler's range of it (getTimeRangeIncludingAllThreads), and the
#     range survives Firefox -> pcol -> Firefox;
#  5. span: the profiler's range of pcol's export of a JFR recording and a
#     Go CPU profile is the duration pcol top says of the input;
#  6. thread ids: the profiler's threads of pcol's export of an eBPF
#     profile (threads all "parca", apart by a string thread_id of digits:
#     pprofgen.py threads ebpf, and the real one of the test data) have the
#     ids as tid, the names pcol writes, and each the input's total of its id.
#
# Env: PCOL, BUILD, PCOL_TESTDATA, FIREFOX_PROFILER_SRC.  Exit 0 pass, 1
# fail, 77 skip.
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
TD=${PCOL_TESTDATA:-../shared/testdata}
SRC=${FIREFOX_PROFILER_SRC:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/firefox_cli_env.sh" # FIREFOX_CLI_VERSION, firefox_cli_install
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed (the Firefox Profiler's code runs in it)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$SRC" ] && [ -d "$SRC/src/profile-logic" ]; then
  if [ ! -d "$SRC/node_modules/esbuild" ]; then
    echo "SKIP: esbuild in $SRC/node_modules is missing (npm install --ignore-scripts there)"
    exit 77
  fi
  if ! node "$here/firefox_build.mjs" "$SRC" "$tmp/judge.cjs" 2>"$tmp/err"; then
    echo "FAIL: bundling the profiler's code: $(head -c 2000 "$tmp/err")"
    exit 1
  fi
  judge() { node "$tmp/judge.cjs" "$@"; }
  echo "judge: the profiler's code at $SRC"
else
  command -v npm >/dev/null 2>&1 || { echo "SKIP: npm is not installed and FIREFOX_PROFILER_SRC is not set"; exit 77; }
  if ! firefox_cli_install "${PCOL_NPM_DIR:-$BUILD/npm-firefox}"; then
    echo "SKIP: could not npm install @firefox-devtools/profiler-cli@$FIREFOX_CLI_VERSION (no registry access?), and FIREFOX_PROFILER_SRC is not set"
    exit 77
  fi
  CLI=$FF_CLI
  judge() { node "$here/firefox_cli_judge.cjs" "$CLI" "$@"; }
  echo "judge: @firefox-devtools/profiler-cli@$FIREFOX_CLI_VERSION from npm"
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
imports=()
if [ -f "$tmp/judge.cjs" ]; then # the checkout's fixture and test profile
  imports+=("$SRC/src/test/fixtures/upgrades/argument-values.json")
  # a Gecko profile: the one the profiler's own tests build (createGeckoProfile)
  if node "$here/firefox_build.mjs" "$SRC" "$tmp/gecko_gen.cjs" firefox_gecko_gen.ts 2>"$tmp/err" &&
     node "$tmp/gecko_gen.cjs" "$tmp/gecko.json" 2>>"$tmp/err"; then
    imports+=("$tmp/gecko.json")
  else
    echo "FAIL: making the profiler's Gecko test profile: $(head -c 1000 "$tmp/err")"; fail=1
  fi
fi
# and the project's own Gecko fixture (every kind of location string), and
# its processed profile as versions 71 and 75 write it (the nulls in flags)
for k in gecko v71 v75; do
  python3 "$here/../support/firefox_gen.py" $k "$tmp/$k-gen.json" >/dev/null && imports+=("$tmp/$k-gen.json")
done
if [ -n "${FIREFOX_IMPORT_DIR:-}" ]; then
  for f in "$FIREFOX_IMPORT_DIR"/*.json "$FIREFOX_IMPORT_DIR"/*.json.gz; do [ -f "$f" ] && imports+=("$f"); done
fi
for f in ${imports[@]+"${imports[@]}"}; do
  [ -f "$f" ] || continue
  k=${#list[@]}
  if ! $PCOL top "$f" --format json --node-fraction 0 >"$tmp/t$k.json" 2>"$tmp/err"; then
    echo "FAIL import $f: $(cat "$tmp/err")"; fail=1; continue
  fi
  list+=("$f") tops+=("$tmp/t$k.json@import")
  add "round trip $f" "$f"
done
# 2b. other formats through the profiler's own importers, in samples (its
# weights; pcol top --value samples): a table of FILE and pcol top's arguments.
# A .cpuprofile of speedscope_edge_gen.py with every gap made 0.5 ms or more
# (the profiler's Chrome importer drops a sample closer than 0.5 ms to the last
# one it kept, doc/mappings.md §10).  perf script and duration events differ
# by design (§9, §14) and are not judged here.
mkdir -p "$tmp/edge"
if python3 "$here/speedscope_edge_gen.py" "$tmp/edge" && python3 - "$tmp/edge/frac.cpuprofile" "$tmp/slow.cpuprofile" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
d["timeDeltas"] = [abs(x) + 600 for x in d["timeDeltas"]]
d["endTime"] = d["startTime"] + sum(d["timeDeltas"]) + 1
json.dump(d, open(sys.argv[2], "w"))
PY
  while read -r f targs; do
    k=${#list[@]}
    # shellcheck disable=SC2086 # targs: words
    if $PCOL top "$f" --format json --node-fraction 0 $targs >"$tmp/t$k.json" 2>"$tmp/err"; then
      list+=("$f") tops+=("$tmp/t$k.json@import")
    else
      echo "FAIL import $f: $(cat "$tmp/err")"; fail=1
    fi
  done <<EOF
$tmp/slow.cpuprofile --value samples
EOF
else
  echo "FAIL: making the .cpuprofile of speedscope_edge_gen.py"; fail=1
fi
# the version pcol writes: a newer profiler upgrades it, as the deployed one
# does (firefox_compare.py accepts that upgrade and no other)
FIREFOX_WRITTEN_VERSION=$(python3 -c 'import gzip, json, sys; print(json.load(gzip.open(sys.argv[1]))["meta"]["preprocessedProfileVersion"])' "${list[0]}")
export FIREFOX_WRITTEN_VERSION
judge "${list[@]}" >"$tmp/judged.jsonl" || { echo "FAIL: the judge crashed"; exit 1; }
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
judge "${rfiles[@]}" >"$tmp/ranges.jsonl" || { echo "FAIL: the judge crashed"; exit 1; }
judge "${rt[@]}" >"$tmp/ranges-rt.jsonl" || { echo "FAIL: the judge crashed"; exit 1; }
k=0
while IFS= read -r line; do
  f=${rfiles[$k]} w=${rwant[$k]} back=$(sed -n "$((k + 1))p" "$tmp/ranges-rt.jsonl")
  k=$((k + 1))
  if [ "$w" != none ] && ! python3 - "$line" "$back" <<'PY'; then
import json, os, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert "error" not in b, "the profiler failed on the export: " + b["error"]
assert not [w for w in b["warnings"] if not w.startswith("log: ")], "the profiler warned: %s" % b["warnings"]
u, w = b.get("upgradeInfo"), os.environ["FIREFOX_WRITTEN_VERSION"]
assert not u or (set(u) == {"from", "to"} and str(u["from"]) == w), "the profiler upgraded the export: %s" % u
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
# 5. the recording's span: the profiler's range of pcol's export of a JFR
# recording (its stated span, not its samples' range) and of a Go CPU
# profile (duration_nanos) is the duration pcol top says of the input
# (THE rule, pcol_sources_time; the export's meta.profilingStartTime/EndTime)
sp=()
if python3 "$here/../support/gen_jfr.py" "$tmp/span.jfr" --chunks 2 --samples 30 --period '*:10 ms' >/dev/null; then
  sp+=("$tmp/span.jfr")
else
  echo "FAIL: gen_jfr.py"; fail=1
fi
[ -f "$TD/pprof/go-cpu-inline-small.pb.gz" ] && sp+=("$TD/pprof/go-cpu-inline-small.pb.gz")
# judged P OUT FILE...: each FILE exported to $tmp/P-NAME.json, the exports judged into OUT
judged() {
  local p=$1 out=$2 f xs=()
  shift 2
  for f in "$@"; do
    $PCOL unpack "$f" --to firefox -o "$tmp/$p-$(basename "$f").json" 2>/dev/null || { echo "FAIL unpack $f"; fail=1; }
    xs+=("$tmp/$p-$(basename "$f").json")
  done
  judge "${xs[@]}" >"$out" || { echo "FAIL: the judge crashed"; exit 1; }
}
# spans WHAT JSONL FILE=WANT...: each judged line's range is WANT ns long
spans() {
  local what=$1 jsonl=$2 k=1 line fw f want
  shift 2
  while IFS= read -r line; do
    fw=${!k}
    f=${fw%=*} want=${fw##*=}
    k=$((k + 1))
    if ! python3 - "$line" "$want" <<'PY'; then
import json, sys
j, want = json.loads(sys.argv[1]), sys.argv[2]
assert "error" not in j, j["error"]
got = str(round((j["range"][1] - j["range"][0]) * 10**6))
assert got == want, "the profiler's range %s ns, pcol's duration %s ns" % (got, want)
PY
      echo "FAIL $what of $(basename "$f")"; fail=1
    else
      echo "ok   $what of $(basename "$f"): $want ns"
    fi
  done <"$jsonl"
}
judged span "$tmp/spans.jsonl" "${sp[@]}"
sw=()
for f in "${sp[@]}"; do
  sw+=("$f=$($PCOL info "$f" --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["rows"][0]["duration_ns"])')")
done
spans span "$tmp/spans.jsonl" "${sw[@]}"
# 5b. of a time range: the profiler's range of pcol's export of a range
# is the duration pcol top says of the range, also where the range starts
# before the range's part (a trace's later profile: the copy's zero is the
# range's start, THE span start of a cut copy; it was 700 ms for 200 ms)
python3 "$here/../support/v8_trace_gen.py" "$tmp/trace.json" || { echo "FAIL: v8_trace_gen.py"; fail=1; }
python3 "$here/../support/v8_trace_gen.py" "$tmp/apart.json" apart || { echo "FAIL: v8_trace_gen.py apart"; fail=1; }
rr=() rw=()
while IFS='|' read -r name args want; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  $PCOL unpack $args --to firefox -o "$tmp/rr-$name.json" 2>/dev/null || { echo "FAIL unpack $args"; fail=1; continue; }
  rr+=("$tmp/rr-$name.json") rw+=("$tmp/rr-$name.json=$want")
done <<EOF
s3|$tmp/trace.json --source 3 --from 0.5 --to 1.2|200000000
s3whole|$tmp/trace.json --source 3|400000000
apart|$tmp/apart.json --from 0.3 --to 5.1|4600000000
both|$tmp/trace.json --from 0.2 --to 0.4|200000000
EOF
judge "${rr[@]}" >"$tmp/rr.jsonl" || { echo "FAIL: the judge crashed"; exit 1; }
spans "range's span" "$tmp/rr.jsonl" "${rw[@]}"
# 6. thread ids (THE thread-id rule, doc/mappings.md §8.2; review 17 F1):
# per thread of the profiler, NAME|TID|PID and its functions' self summed,
# against the names pcol writes and `pcol tags`' total of each id
ids=()
python3 "$here/../support/pprofgen.py" threads "$tmp/ebpf.pb" ebpf && ids+=("$tmp/ebpf.pb")
[ -f "$TD/pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz" ] && ids+=("$TD/pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz")
# THE made-up-id rule (lasts.h; rd11 F1): an Rprof source (no labels)
# merged before a perf thread of pid 1: the profiler must see two processes
# (before, the Rprof source's made-up pid was its number, 1, the perf
# thread's: the profiler grouped both threads under process 1)
printf 'app 1/1 [000] 1.000000: 1000000 cpu-clock:u:\n\tffff1 foo (/bin/app)\n\tffff2 main (/bin/app)\n\n' >"$tmp/pc.txt"
$PCOL merge examples/demo.out "$tmp/pc.txt" -o "$tmp/madeup.pcol" && ids+=("$tmp/madeup.pcol")
judged ids "$tmp/ids.jsonl" "${ids[@]}"
idx=()
for f in "${ids[@]}"; do
  idx+=("$tmp/ids-$(basename "$f").json")
  $PCOL tags "$f" --format json >"$tmp/ids-$(basename "$f").json.tags" || echo "FAIL tags $f"
done
python3 - "$tmp/ids.jsonl" "${idx[@]}" <<'PY' || fail=1
import json, os, sys
bad = 0
for line, x in zip(open(sys.argv[1]), sys.argv[2:]):
    j, xj, tags = json.loads(line), json.load(open(x)), json.load(open(x + ".tags"))
    errs = []
    if "error" in j:
        errs.append(j["error"])
    else:
        # pcol tags: the input's total per thread_id (ns of cpu, or samples)
        tot = {str(r["value"]): r["amount"] for r in tags["rows"] if r["key"] == "thread_id"}
        got = [(t["name"], t["tid"], t["pid"]) for t in j["threads"]]
        want = [(t["name"], t["tid"], t["pid"]) for t in xj["threads"]]
        if got != want:
            errs.append("the profiler's threads %s, pcol's %s" % (got, want))
        if os.path.basename(x).startswith("ids-madeup") and len({t["pid"] for t in j["threads"]}) != 2:
            errs.append("the profiler's processes of two sources: %s" % sorted({t["pid"] for t in j["threads"]}))
        for t in (t for t in j["threads"] if t["name"] == "parca"):
            s = sum(f[2] for f in t["funcs"]) * (10**6 if t["weightType"] == "tracing-ms" else 1)
            if str(t["tid"]) not in tot:
                errs.append("tid %s is no thread_id of the input (%s)" % (t["tid"], sorted(tot)))
            elif abs(s - tot[str(t["tid"])]) > 1e-6 * max(1, s):
                errs.append("tid %s: self %s, pcol tags %s" % (t["tid"], s, tot[str(t["tid"])]))
    name = os.path.basename(x)
    print(("FAIL thread ids of %s: %s" % (name, "; ".join(errs))) if errs else "ok   thread ids of %s" % name)
    bad |= bool(errs)
sys.exit(bad)
PY
exit $fail
