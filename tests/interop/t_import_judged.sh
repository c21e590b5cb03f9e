#!/usr/bin/env bash
# V8 .cpuprofile, perf script and speedscope inputs judged by speedscope's
# own importer (npm speedscope, run in node by speedscope_any_judge.cjs): per
# function, the self and total weights `pcol fold` gives equal speedscope's
# (judge_compare.py).
#
# - V8: .cpuprofile files made here by `node --cpu-prof` (CPU-bound
#   recursion, async code with awaits and immediates, allocation-heavy code
#   that makes the garbage collector run, and a long idle stretch), weighed
#   by pcol's "wall" value (the time to the next sample, speedscope's
#   weights, in us).  speedscope hides (idle) and moves (garbage collector)
#   and (program) on top of the previous sample's stack: self weights are
#   compared on the file as node wrote it, and total weights on a copy where
#   those two are renamed (so both tools keep them where V8 put them).
# - speedscope JSON: pcol's own exports of several inputs (sampled
#   profiles) and a generated evented profile.
# - Chrome trace events: a trace Chromium records here (below).
# - perf script: speedscope weighs a perf sample by the time to the
#   midpoints of its neighbours, not by count or period, so its numbers are
#   not comparable; perf is judged by inferno: if $PCOL_INFERNO_DIR holds a
#   checkout of github.com/jonhoo/inferno, `pcol fold` of each
#   tests/data/collapse-perf input equals inferno's expected result
#   (inferno_compare.py), else that part is skipped (no network in CI).
#
# Env: PCOL, BUILD, PCOL_NPM_DIR, PCOL_INFERNO_DIR.  Exit 0 pass, 1 fail,
# 77 skip (no node/npm).
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/speedscope_env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
judge() { # file -> $tmp/rec (one JSON line)
  echo "$1" > "$tmp/list"
  node "$HERE/speedscope_any_judge.cjs" "$BUNDLE" "$tmp/list" "$tmp/rec" >/dev/null || return 1
}
compare() { # name input scale fold-args... (then -- compare-args)
  local name=$1 in=$2 scale=$3; shift 3
  local fa=() ca=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do fa+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  ca=("$@")
  if ! judge "$in"; then echo "FAIL $name: speedscope judge did not run"; fail=1; return; fi
  if ! $PCOL fold "$in" "${fa[@]}" > "$tmp/fold" 2>"$tmp/err"; then echo "FAIL $name: $(cat "$tmp/err")"; fail=1; return; fi
  if ! python3 "$HERE/judge_compare.py" "$tmp/fold" "$tmp/rec" "$scale" "${ca[@]}" > "$tmp/out"; then
    echo "FAIL $name: $(head -c 1500 "$tmp/out")"; fail=1; return
  fi
  n=$((n + 1))
}

# ---------------------------------------------------------------- V8
mkdir -p "$tmp/v8"
cat > "$tmp/v8/cpu.js" <<'JS'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const sorted = (k) => Array.from({ length: k }, (_, i) => (i * 7919) % k).sort((a, b) => a - b);
for (let i = 0; i < 4; i++) { fib(24); sorted(50000); }
JS
cat > "$tmp/v8/async.js" <<'JS'
async function step(i) { await new Promise((r) => setImmediate(r)); let s = 0; for (let k = 0; k < 3e4; k++) s += Math.sqrt(k * i); return s; }
async function main() { let t = 0; for (let i = 0; i < 60; i++) t += await step(i); await Promise.all([1, 2, 3].map(step)); return t; }
main();
JS
cat > "$tmp/v8/gc_idle.js" <<'JS'
function churn() { const a = []; for (let i = 0; i < 2e5; i++) a.push({ i, s: String(i) }); return a.length; }
churn();
setTimeout(() => { churn(); setTimeout(churn, 50); }, 400); // a long idle stretch
JS
for w in cpu async gc_idle; do
  (cd "$tmp/v8" && timeout 60 node --cpu-prof --cpu-prof-name=$w.cpuprofile $w.js) ||
    { echo "FAIL node --cpu-prof $w.js"; fail=1; continue; }
  f=$tmp/v8/$w.cpuprofile
  compare "$w.cpuprofile (self)" "$f" 1000 --value wall -- --skip '(idle)' --self-only '(garbage collector)'
  sed 's/"(garbage collector)"/"garbage collector"/g; s/"(program)"/"program"/g' "$f" > "$tmp/v8/$w-r.cpuprofile"
  compare "$w.cpuprofile (total)" "$tmp/v8/$w-r.cpuprofile" 1000 --value wall -- --skip '(idle)'
done
grep -q '"(idle)"' "$tmp/v8/gc_idle.cpuprofile" && grep -q '"(garbage collector)"' "$tmp/v8/gc_idle.cpuprofile" ||
  { echo "FAIL gc_idle.cpuprofile has no (idle) or (garbage collector) node"; fail=1; }

# ---------------------------------------------------------------- speedscope
for f in tests/fixtures/collapsed/annotated.folded tests/fixtures/perun/kperf.perf "$tmp/v8/cpu.cpuprofile"; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  $PCOL pack "$f" -o "$tmp/s.pcol" && $PCOL unpack "$tmp/s.pcol" --to speedscope -o "$tmp/$b.speedscope.json" ||
    { echo "FAIL export $b"; fail=1; continue; }
  # speedscope adds up every profile of the file: compare its first (the
  # samples profile) with pcol's samples
  python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['profiles'] = d['profiles'][:1]; d['activeProfileIndex'] = 0
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/$b.speedscope.json" "$tmp/$b.one.speedscope.json"
  compare "$b.speedscope.json" "$tmp/$b.one.speedscope.json" 1
done
python3 - "$tmp/ev.speedscope.json" <<'PY'
import json, random, sys
r = random.Random(5)
frames = [{"name": n} for n in ("main", "parse", "eval", "gc", "io")]
ev, t, open_ = [], 0, []
for _ in range(400):
    if open_ and (r.random() < 0.45 or len(open_) > 5):
        ev.append({"type": "C", "frame": open_.pop(), "at": t})
    else:
        f = r.randrange(len(frames)); open_.append(f); ev.append({"type": "O", "frame": f, "at": t})
    t += r.randint(0, 9)
while open_:
    ev.append({"type": "C", "frame": open_.pop(), "at": t}); t += 1
json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": frames},
           "profiles": [{"type": "evented", "name": "ev", "unit": "microseconds", "startValue": 0,
                         "endValue": t, "events": ev}]}, open(sys.argv[1], "w"))
PY
compare "evented speedscope" "$tmp/ev.speedscope.json" 1000

# ---------------------------------------------------------------- Chrome trace (Chromium)
# A trace Chromium records of a page running JS (--trace-startup with the V8
# CPU profiler's category, written as JSON): pcol's samples per profile equal
# the chunks' samples, and per function its wall self and total equal
# speedscope's on a copy holding that profile alone (speedscope pairs chunks
# with a Profile event by id only, and trace ids repeat across processes).
if command -v chromium >/dev/null 2>&1; then
  mkdir -p "$tmp/ct"
  cat > "$tmp/ct/page.html" <<'HTML'
<html><body><script>
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function busyLoop() { let s = 0; for (let i = 0; i < 3e6; i++) s += Math.sqrt(i); return s; }
function churn() { const a = []; for (let i = 0; i < 1e5; i++) a.push({ i, s: String(i) }); return a.length; }
const t0 = Date.now(); while (Date.now() - t0 < 1200) { fib(20); busyLoop(); churn(); }
</script></body></html>
HTML
  timeout 60 chromium --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/ct/ud" \
    --trace-startup=v8,disabled-by-default-v8.cpu_profiler --trace-startup-file="$tmp/ct/trace.json" \
    --trace-startup-format=json --trace-startup-duration=4 --timeout=5000 "file://$tmp/ct/page.html" \
    --dump-dom >/dev/null 2>&1
  if [ ! -s "$tmp/ct/trace.json" ]; then
    echo "FAIL chromium wrote no trace"; fail=1
  else
    # the profile with the most samples, alone; its chunks' sample count
    want=$(python3 - "$tmp/ct/trace.json" "$tmp/ct/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
count = {}
for e in ev:
    if e.get("name") == "ProfileChunk":
        k = (e["pid"], e["id"])
        count[k] = count.get(k, 0) + len(e["args"]["data"].get("cpuProfile", {}).get("samples", []))
best = max(count, key=count.get)
keep = [e for e in ev if e.get("ph") == "M" or
        (e.get("name") in ("Profile", "ProfileChunk") and (e["pid"], e.get("id")) == best)]
# an anonymous function without a line: DevTools shows "(anonymous FILE)",
# pcol too, speedscope "(anonymous FILE:undefined)" (doc/mappings.md §10);
# named explicitly here so that both tools name it alike (which frames
# Chromium samples varies from run to run)
for e in keep:
    for n in e.get("args", {}).get("data", {}).get("cpuProfile", {}).get("nodes", []):
        cf = n.get("callFrame", {})
        if not cf.get("functionName") and (cf.get("lineNumber") is None or cf.get("lineNumber") < 0):
            url = cf.get("url") or ""
            cf["functionName"] = "(anonymous %s)" % url.rsplit("/", 1)[-1] if url else "(anonymous)"
json.dump({"traceEvents": keep}, open(sys.argv[2], "w"))
print(count[best], sum(count.values()))
PY
)
    read -r one all <<<"$want"
    $PCOL info "$tmp/ct/trace.json" | grep -q 'input_format: *chrome' || { echo "FAIL trace.json: not detected as chrome"; fail=1; }
    got=$($PCOL top "$tmp/ct/trace.json" --value samples --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
    [ "$got" = "$all" ] || { echo "FAIL trace.json: $got samples, its chunks hold $all"; fail=1; }
    [ "${one:-0}" -gt 100 ] || { echo "FAIL trace.json: the page's profile has ${one:-0} samples"; fail=1; }
    compare "chrome trace (self)" "$tmp/ct/one.json" 1000 --value wall -- --skip '(idle)' --self-only '(garbage collector)' --self-only '(program)'
    sed 's/"(garbage collector)"/"garbage collector"/g; s/"(program)"/"program"/g' "$tmp/ct/one.json" > "$tmp/ct/one-r.json"
    compare "chrome trace (total)" "$tmp/ct/one-r.json" 1000 --value wall -- --skip '(idle)'
    n=$((n + 1))
  fi
else
  echo "t_import_judged: chromium not installed: Chrome trace part skipped"
fi

# ---------------------------------------------------------------- perf (inferno)
if [ -n "${PCOL_INFERNO_DIR:-}" ] && [ -d "$PCOL_INFERNO_DIR/tests/data/collapse-perf/results" ]; then
  D=$PCOL_INFERNO_DIR/tests/data/collapse-perf
  for r in "$D"/results/*-collapsed*.txt; do
    b=$(basename "$r"); stem=${b%%-collapsed*}
    [ -f "$D/$stem.txt" ] && [ -s "$D/$stem.txt" ] || continue
    $PCOL fold "$D/$stem.txt" > "$tmp/perf.fold" 2>"$tmp/err" || { echo "FAIL $stem: $(cat "$tmp/err")"; fail=1; continue; }
    python3 "$HERE/inferno_compare.py" "$tmp/perf.fold" "$r" > "$tmp/out" ||
      { echo "FAIL $stem vs inferno $b: $(head -c 1000 "$tmp/out")"; fail=1; continue; }
    n=$((n + 1))
  done
else
  echo "t_import_judged: inferno's collapse-perf data not given (PCOL_INFERNO_DIR): perf part skipped"
fi
echo "t_import_judged: $n comparisons with speedscope $SPEEDSCOPE_VERSION and inferno"
exit $fail
