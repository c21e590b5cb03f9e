#!/usr/bin/env bash
# speedscope reads what `pcol unpack --to speedscope` writes.
#
# Installs the speedscope npm package (and ajv) into a cache directory, then
# for collapsed, Perun, Rprof and pprof inputs: validates the output against
# the file-format schema speedscope ships (ajv, draft-07) and loads it with
# speedscope's own importer, taken from its release bundle and run in node
# (the bundle is a browser app: the script finds the importer that handles
# "$schema": ".../file-format-schema.json" and stops the bundle before it
# renders).  The "samples" profile's total (THE count rule: a pprof
# sample's samples/count, else the weight) must equal the sum of `pcol unpack
# --to collapsed`, and for pprof inputs `go tool pprof -sample_index=samples`'s
# total; speedscope must open (activeProfileIndex) on the profile of the type
# `go tool pprof -top` shows by default, and profile names must be distinct.
#
# Env: PCOL, BUILD, PCOL_TESTDATA, PCOL_NPM_DIR (npm install dir; default
# $BUILD/npm-speedscope).  Exit 0 pass, 1 fail, 77 skip (no node/npm or no
# registry).
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
TD=${PCOL_TESTDATA:-../shared/testdata}
SPEEDSCOPE_VERSION=1.25.0
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIP: node/npm not installed (apt-get install nodejs npm to run the speedscope interop test)"
  exit 77
fi
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
[ -f "$BUNDLE" ] && [ -f "$SCHEMA" ] || { echo "t_speedscope: speedscope package lacks its bundle or schema" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/load.cjs" <<'JS'
// usage: node load.cjs NPM_DIR BUNDLE SCHEMA FILE -> prints {"profiles":[{name,type,total}]}
const fs = require('fs');
const path = require('path');
const [npmDir, bundlePath, schemaPath, file] = process.argv.slice(2);
const Ajv = require(path.join(npmDir, 'node_modules', 'ajv'));
const data = JSON.parse(fs.readFileSync(file, 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
if (!validate(data)) {
  console.error('schema: ' + ajv.errorsText(validate.errors).slice(0, 2000));
  process.exit(1);
}
let src = fs.readFileSync(bundlePath, 'utf8');
const m = src.match(/"Importing as speedscope json file"\),([\w$]+)\(/);
const at = src.lastIndexOf('console.log(`speedscope v${');
if (!m || at < 0) { console.error('speedscope importer not found in ' + bundlePath); process.exit(1); }
src = src.slice(0, at) + `globalThis.__pcolImport=${m[1]};return;` + src.slice(at);
// stand-ins for the browser objects the bundle touches while it defines things
const any = new Proxy(function () {}, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => '' : any), apply: () => any, construct: () => any });
Object.assign(globalThis, {
  window: globalThis, document: any, navigator: { userAgent: 'node', platform: 'node' },
  location: { hash: '', search: '', href: 'file:///', protocol: 'file:' },
  localStorage: { getItem: () => null, setItem() {} }, addEventListener() {},
  matchMedia: () => ({ matches: false, addEventListener() {}, addListener() {} }),
  requestAnimationFrame: () => 0 });
const log = console.log; console.log = () => {};
new Function(src)();
new Promise((ok) => ok(globalThis.__pcolImport(data))).then((g) => {
  if (!g || !g.profiles || g.profiles.length !== data.profiles.length) throw new Error('profiles missing after import');
  log(JSON.stringify({ active: data.activeProfileIndex, profiles: g.profiles.map((p, i) => ({
    name: p.getName(), type: data.profiles[i].type, total: p.getTotalWeight() })) }));
}).catch((e) => { console.error('speedscope rejected the file: ' + String(e && e.message || e).slice(0, 500)); process.exit(1); });
JS

inputs=(tests/fixtures/collapsed/simple.folded tests/fixtures/collapsed/annotated.folded
        tests/fixtures/collapsed/decimal.folded tests/fixtures/perun/kperf.perf
        tests/fixtures/perun/trace-complexity.perf tests/fixtures/perun/layout2-snapshots.perf)
for f in "$TD"/rprof/*.out "$TD"/perun/*.perf "$TD"/pprof/go-cpu-inline-small.pb.gz \
         "$TD"/pprof/go-cpu-string-labels.pb.gz "$TD"/ext/pprof/go-benchmark-cpu.pb.gz \
         "$TD"/pprof/go-heap-allocs-inline.pb.gz "$TD"/pprof/nodejs-wall.pb.gz \
         "$TD"/pprof/edge-invalid-utf8-nul-strings.pb.gz; do
  [ -f "$f" ] && inputs+=("$f")
done

fail=0 n=0
check() { # name pcol-file original-input extra-args...
  local name=$1 p=$2 orig=$3; shift 3
  if ! $PCOL unpack "$p" --to speedscope -o "$tmp/out.json" "$@" 2>"$tmp/err"; then
    echo "FAIL $name: unpack: $(cat "$tmp/err")"; fail=1; return
  fi
  if ! node "$tmp/load.cjs" "$NPM_DIR" "$BUNDLE" "$SCHEMA" "$tmp/out.json" >"$tmp/sum" 2>"$tmp/err"; then
    echo "FAIL $name: $(head -c 2000 "$tmp/err")"; fail=1; return
  fi
  local got want
  got=$(python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); names=[p['name'] for p in d['profiles']]
assert len(set(names))==len(names), 'duplicate profile names: %r' % names
print([p['total'] for p in d['profiles'] if p['name'].endswith(': samples')][0])" "$tmp/sum") || {
    echo "FAIL $name: no distinct names or no samples profile: $(cat "$tmp/sum" | head -c 500)"; fail=1; return; }
  want=$($PCOL unpack "$p" --to collapsed --value samples -o - "$@" | awk '{s+=$NF} END{printf "%d\n", s}')
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: speedscope samples total $got != pcol unpack --to collapsed --value samples total $want"; fail=1; return
  fi
  case $name in *.out*) # Rprof: a cpu profile by the time rule, no summed memory snapshots
    local cpu wcpu
    cpu=$(python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert not [p for p in d['profiles'] if p['name'].split(': ')[-1] in ('vsize.small','vsize.large','nodes','duplications')], 'memory snapshots summed'
print([p['total'] for p in d['profiles'] if p['name'].endswith(': cpu')][0])" "$tmp/sum") || {
      echo "FAIL $name: no cpu profile, or memory snapshots as weights"; fail=1; return; }
    wcpu=$($PCOL unpack "$p" --to collapsed --value cpu -o - "$@" | awk '{s+=$NF} END{printf "%.0f\n", s}')
    if [ "$cpu" != "$wcpu" ]; then
      echo "FAIL $name: speedscope cpu total $cpu != pcol collapsed --value cpu total $wcpu"; fail=1; return
    fi;;
  esac
  case $name in *.pb.gz|*.pb) # the reference tool: go tool pprof
    if command -v go >/dev/null 2>&1; then
      local gt dt active
      gt=$(go tool pprof -symbolize=none -top -nodecount=1 -sample_index=samples "$orig" 2>/dev/null |
           sed -n 's/.* of \([0-9]*\) total.*/\1/p')
      if [ -n "$gt" ] && [ "$gt" != "$got" ]; then
        echo "FAIL $name: speedscope samples total $got != go tool pprof -sample_index=samples $gt"; fail=1; return
      fi
      dt=$(go tool pprof -symbolize=none -top -nodecount=1 "$orig" 2>/dev/null | sed -n 's/^Type: //p')
      active=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['profiles'][d['active']]['name'])" "$tmp/sum")
      case $active in *": $dt") ;; *)
        echo "FAIL $name: speedscope opens on '$active', go tool pprof shows type '$dt'"; fail=1; return;; esac
    fi;;
  esac
  n=$((n + 1))
}
for f in "${inputs[@]}"; do
  b=$(basename "$f")
  if ! $PCOL pack "$f" -o "$tmp/in.pcol" 2>"$tmp/err"; then
    echo "FAIL $b: pack: $(cat "$tmp/err")"; fail=1; continue
  fi
  check "$b" "$tmp/in.pcol" "$f"
done
# timed samples give an evented timeline too (one source selected)
for f in "$TD"/rprof/*.out; do
  [ -f "$f" ] || continue
  $PCOL pack "$f" -o "$tmp/r.pcol" && check "$(basename "$f") --source 1" "$tmp/r.pcol" "$f" --source 1
  grep -q '"evented"' "$tmp/out.json" || { echo "FAIL $(basename "$f"): no evented profile for timed samples"; fail=1; }
  break
done
echo "t_speedscope: $n files loaded by speedscope $SPEEDSCOPE_VERSION"
exit $fail
