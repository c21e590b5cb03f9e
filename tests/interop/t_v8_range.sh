#!/usr/bin/env bash
# A time range of a V8 CPU profile (`node --cpu-prof`, recorded here) and
# of a Chrome trace of it (Profile and ProfileChunk events, two renderers
# profiled 250 ms apart) counts the part of each sample inside it, as
# Chrome DevTools' Performance panel sums a selection: each sample lasts
# until the next one, cut at the window's ends (v8_range_judge.cjs computes
# that from the JSON alone).  Judged: `pcol top --from --to` per function,
# on the profile and on its pcol file; windows that cut samples at both
# ends, one inside the longest sample, the whole; and the pprof, speedscope,
# Firefox and collapsed exports of each window say what top says (the
# collapsed stacks summed here, the others read back).
# Env: PCOL.  Exit 0 pass, 1 fail, 77 skip (no node).
set -u
PCOL=${PCOL:-build/bin/pcol}
HERE=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_v8_range: FAIL: $*" >&2; exit 1; }
command -v node >/dev/null || { echo "SKIP: node not installed"; exit 77; }
judge=$HERE/v8_range_judge.cjs
cat >"$tmp/w.js" <<'J'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function spin(ms) { const e = Date.now() + ms; let s = 0; while (Date.now() < e) s += fib(15); return s; }
function work() { let s = 0; for (let i = 0; i < 6; i++) { s += spin(20); s += JSON.stringify(new Array(20000).fill(i)).length; } return s; }
setTimeout(() => work(), 30);
J
node --cpu-prof --cpu-prof-dir="$tmp" --cpu-prof-name=w.cpuprofile "$tmp/w.js" || fail "node --cpu-prof"
# the same profile as Chrome records it in a trace, twice (pids 7 and 8,
# the second 250 ms later), each cut into three chunks
node - "$tmp/w.cpuprofile" "$tmp/w.json" <<'J'
const fs = require('fs');
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const ev = [];
for (const [pid, shift] of [[7, 0], [8, 250000]]) {
  const start = p.startTime + shift, n = p.samples.length, cut = [0, n / 3 | 0, (2 * n) / 3 | 0, n];
  ev.push({ph: 'P', name: 'Profile', pid, tid: pid, ts: start, id: '0x1', args: {data: {startTime: start}}});
  let ts = start;
  for (let k = 0; k < 3; k++) {
    const cp = {samples: p.samples.slice(cut[k], cut[k + 1])};
    if (!k) cp.nodes = p.nodes.map((x) => { const o = {id: x.id, callFrame: x.callFrame}; const par = p.nodes.find((y) => (y.children || []).includes(x.id)); if (par) o.parent = par.id; return o; });
    ev.push({ph: 'P', name: 'ProfileChunk', pid, tid: 99, ts: ts += 1000, id: '0x1',
             args: {data: {cpuProfile: cp, timeDeltas: p.timeDeltas.slice(cut[k], cut[k + 1])}}});
  }
}
fs.writeFileSync(process.argv[3], JSON.stringify({traceEvents: ev}));
J
[ -s "$tmp/w.json" ] || fail "no trace made"
norm() { # pcol top --format tsv (stdin) -> NAME<TAB>SELF, as the judge names them
  awk -F'\t' 'NR > 1 && $1 != 0 { n = $6; if (n ~ /^\(anonymous/) n = "(anonymous)"; s[n] += $1 }
              END { for (n in s) printf "%s\t%d\n", n, s[n] }' | LC_ALL=C sort
}
fold_norm() { # collapsed stacks (stdin) -> NAME<TAB>SELF of each stack's leaf
  awk '{ w = $NF; $NF = ""; sub(/ $/, ""); k = split($0, f, ";"); n = f[k]; if (n ~ /^\(anonymous/) n = "(anonymous)"; s[n] += w }
       END { for (n in s) if (s[n]) printf "%s\t%d\n", n, s[n] }' | LC_ALL=C sort
}
secs() { [ "$1" = - ] && return; printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000)); }
n=0
for f in w.cpuprofile w.json; do
  in=$tmp/$f
  "$PCOL" pack "$in" -o "$tmp/$f.pcol" 2>"$tmp/err" || fail "pack $f: $(head -3 "$tmp/err")"
  "$PCOL" validate --full -q "$tmp/$f.pcol" || fail "validate --full of $f's pcol file"
  end=$(node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1])); let s = 0;
    for (const d of p.timeDeltas) s += d; console.log(Math.round(s * 1000))' "$tmp/w.cpuprofile")
  set -- $(LC_ALL=C LANG=C node "$judge" "$in" longest)
  for r in "- -" "$((end / 7 + 333)) $((end / 2 + 4321))" "$((end / 3)) $((end / 3 + 1000))" "$1 $2" \
           "$((end / 2 + 17)) -" "- $((end / 5 + 999))" "$((end + 100000000)) $((end + 300000000))"; do
    set -- $r
    args=()
    [ "$1" = - ] || args+=(--from "$(secs "$1")")
    [ "$2" = - ] || args+=(--to "$(secs "$2")")
    node "$judge" "$in" "$1" "$2" >"$tmp/want" || fail "judge $f $r"
    [ -s "$tmp/want" ] || [ "$1" != - -a "$1" -gt "$end" ] || fail "$f [$r): the judge finds nothing in the window"
    for x in "$in" "$tmp/$f.pcol"; do
      "$PCOL" top "$x" "${args[@]}" -n 0 --value wall --format tsv 2>"$tmp/err" | norm >"$tmp/got" ||
        fail "top $x ${args[*]}: $(head -3 "$tmp/err")"
      cmp -s "$tmp/want" "$tmp/got" ||
        fail "top $(basename "$x") ${args[*]}: self time per function differs from DevTools' clipped sums: $(diff "$tmp/want" "$tmp/got" | head -6 | tr '\n' ' ')"
    done
    "$PCOL" unpack "$in" "${args[@]}" -t collapsed --value wall -o "$tmp/x.collapsed" 2>"$tmp/err" || fail "unpack collapsed: $(head -3 "$tmp/err")"
    fold_norm <"$tmp/x.collapsed" >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || fail "collapsed export of $f ${args[*]}: $(diff "$tmp/want" "$tmp/got" | head -6 | tr '\n' ' ')"
    for fmt in pprof speedscope firefox; do
      "$PCOL" unpack "$in" "${args[@]}" -t $fmt -o "$tmp/x.$fmt" 2>"$tmp/err" || fail "unpack $fmt: $(head -3 "$tmp/err")"
      v=(--value wall)
      [ $fmt = firefox ] && v=() # (its one value: the Firefox Profiler's "tracing" weight, ns)
      "$PCOL" top "$tmp/x.$fmt" -n 0 "${v[@]}" --format tsv 2>"$tmp/err" | norm >"$tmp/got" || fail "top of the $fmt export: $(head -3 "$tmp/err")"
      cmp -s "$tmp/want" "$tmp/got" ||
        fail "$fmt export of $f ${args[*]}: its top differs from the window's: $(diff "$tmp/want" "$tmp/got" | head -6 | tr '\n' ' ')"
    done
    n=$((n + 1))
  done
done
echo "t_v8_range: $n windows of a V8 profile and a Chrome trace of it count each sample's part inside them, as DevTools does; the exports agree"
