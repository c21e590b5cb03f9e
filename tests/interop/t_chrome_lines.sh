#!/usr/bin/env bash
# V8's per-sample source lines in a Chrome trace (ProfileChunk
# args.data.lines, 1-based, one a sample; what DevTools' Sources panel
# shows as line-level time after a Performance recording): a sample's own
# frame is at its line, so `pcol top --by line` and `pcol list` say per
# line what the JSON says (chrome_lines_judge.py counts it from the JSON
# alone), and nothing else changes: the same trace without its lines gives
# the same top by function, fold, flame and V8 export.
# The trace: recorded here with headless Chromium as the Performance panel
# records one (chrome_record.cjs: the DevTools protocol over a pipe, a
# local page running a CPU-bound loop); without Chromium, made from a
# `node --cpu-prof` profile (each node's positionTicks handed out to its
# samples in order, as lines).  Also: the trace with its events in reverse
# order and every third chunk's lines taken out (chunks sorted by ts, a
# chunk without lines padded with 0s), and speedscope's Chrome 116 and 141
# recordings when PCOL_SPEEDSCOPE_SRC has them.
# Env: PCOL, PCOL_SPEEDSCOPE_SRC, PCOL_CHROMIUM (the browser, default
# chromium; empty: the node --cpu-prof trace).  Exit 0 pass, 1 fail, 77 skip (no node or python3).
set -u
PCOL=${PCOL:-build/bin/pcol}
HERE=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null 2>&1 || { echo "SKIP: node not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
# the page's script: a line each that the loop spends its time on
cat >"$tmp/work.js" <<'J'
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
function busyLoop() {
  let s = 0;
  for (let i = 0; i < 3e6; i++)
    s += Math.sqrt(i);
  return s;
}
function churn() {
  const a = [];
  for (let i = 0; i < 1e5; i++)
    a.push({ i, s: String(i) });
  return a.length;
}
function run(ms) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) { fib(20); busyLoop(); churn(); }
}
J
CHROMIUM=${PCOL_CHROMIUM-chromium}
if [ -n "$CHROMIUM" ] && command -v "$CHROMIUM" >/dev/null 2>&1; then
  { echo '<html><body><script src="work.js"></script><script>'
    echo "setTimeout(() => { run(1500); document.title = 'done'; }, 200);"
    echo '</script></body></html>'; } >"$tmp/page.html"
  timeout 120 node "$HERE/chrome_record.cjs" "$CHROMIUM" "$tmp/page.html" "$tmp/trace.json" ||
    { echo "FAIL chromium recorded no trace"; exit 1; }
  how="recorded by Chromium ($("$CHROMIUM" --version 2>/dev/null | head -1))"
else
  cp "$tmp/work.js" "$tmp/w.js" && echo 'run(1000);' >>"$tmp/w.js"
  node --cpu-prof --cpu-prof-dir="$tmp" --cpu-prof-name=w.cpuprofile "$tmp/w.js" || { echo "FAIL node --cpu-prof"; exit 1; }
  node - "$tmp/w.cpuprofile" "$tmp/trace.json" <<'J' || { echo "FAIL no trace made"; exit 1; }
const fs = require('fs');
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const left = new Map(); // node id -> its positionTicks' lines still to hand out, in order
for (const n of p.nodes) left.set(n.id, (n.positionTicks || []).flatMap((t) => Array(t.ticks).fill(t.line)));
const lines = p.samples.map((id) => left.get(id).shift() || 0);
const parent = new Map();
for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
const ev = [{ph: 'P', name: 'Profile', pid: 7, tid: 7, ts: p.startTime, id: '0x1', args: {data: {startTime: p.startTime}}}];
const n = p.samples.length, cut = [0, n / 3 | 0, (2 * n) / 3 | 0, n];
for (let k = 0; k < 3; k++) {
  const cp = {samples: p.samples.slice(cut[k], cut[k + 1])};
  if (!k) cp.nodes = p.nodes.map((x) => Object.assign({id: x.id, callFrame: x.callFrame}, parent.has(x.id) ? {parent: parent.get(x.id)} : {}));
  const data = {cpuProfile: cp, timeDeltas: p.timeDeltas.slice(cut[k], cut[k + 1])};
  const l = lines.slice(cut[k], cut[k + 1]);
  if (l.some((x) => x)) data.lines = l; // as V8: none when all are 0
  ev.push({ph: 'P', name: 'ProfileChunk', pid: 7, tid: 99, ts: p.startTime + 1000 * (k + 1), id: '0x1', args: {data}});
}
fs.writeFileSync(process.argv[3], JSON.stringify({traceEvents: ev}));
J
  how="made from node --cpu-prof's positionTicks (no Chromium)"
fi
# variants: the events in reverse order, every third chunk without lines;
# the trace without any lines (what pcol read before: the functions' lines)
python3 - "$tmp/trace.json" "$tmp/rev.json" "$tmp/nolines.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
k = 0
rev = json.loads(json.dumps(ev))[::-1]
for e in rev:
    if e.get("name") == "ProfileChunk" and "lines" in e["args"]["data"]:
        k += 1
        if k % 3 == 0:
            del e["args"]["data"]["lines"]
json.dump({"traceEvents": rev}, open(sys.argv[2], "w"))
for e in ev:
    if e.get("name") == "ProfileChunk":
        e["args"]["data"].pop("lines", None)
json.dump({"traceEvents": ev}, open(sys.argv[3], "w"))
PY
judge() { # NAME TRACE MIN_MOVED [PCOL_INPUT: the trace, packed]
  if ! "$PCOL" top "${4:-$2}" --by line --value samples --format tsv -n 0 >"$tmp/top.tsv" 2>"$tmp/err"; then
    bad "$1: pcol top: $(head -3 "$tmp/err")"
    return
  fi
  if python3 "$HERE/chrome_lines_judge.py" "$2" "$tmp/top.tsv" "$3" >"$tmp/judge" 2>&1; then
    echo "ok   $1: $(tail -1 "$tmp/judge")"
  else
    bad "$1: pcol top --by line is not what the trace's lines say"
    cat "$tmp/judge"
  fi
}
echo "t_chrome_lines: the trace $how"
judge trace.json "$tmp/trace.json" 50
judge "trace.json, reversed, a third of the chunks without lines" "$tmp/rev.json" 20
"$PCOL" pack "$tmp/trace.json" -o "$tmp/trace.pcol" 2>"$tmp/err" || bad "pack: $(head -3 "$tmp/err")"
[ -s "$tmp/trace.pcol" ] && judge "trace.json packed" "$tmp/trace.json" 50 "$tmp/trace.pcol"
# pcol list: the lines of busyLoop and churn as top --by line has them
"$PCOL" top "$tmp/trace.json" --by line --value samples --format tsv -n 0 2>/dev/null >"$tmp/top.tsv"
"$PCOL" list "$tmp/trace.json" '^(busyLoop|churn)$' --value samples --format tsv >"$tmp/list.tsv" 2>"$tmp/err" ||
  bad "pcol list: $(head -3 "$tmp/err")"
if python3 - "$tmp/top.tsv" "$tmp/list.tsv" <<'PY'; then echo "ok   pcol list: busyLoop and churn per line as top --by line"; else bad "pcol list disagrees with top --by line"; fi
import re, sys
top = {}
for r in open(sys.argv[1]).read().splitlines()[1:]:
    c = r.split("\t")
    m = re.match(r"^(busyLoop|churn) \S+:(\d+)$", c[5])
    if m: top[(m.group(1), int(m.group(2)))] = int(c[0])
lst = {}
for r in open(sys.argv[2]).read().splitlines()[1:]:
    c = r.split("\t")
    if int(c[3]): lst[(c[0], int(c[2]))] = int(c[3])
print("  list", sorted(lst.items()))
sys.exit(0 if top == lst and len(lst) >= 3 else 1)
PY
# nothing else changes: without its lines, the same views by function
same=$fail
for v in "top --value samples" "top" "top --by file" "fold" "tree" "peek busyLoop"; do
  "$PCOL" $v "$tmp/trace.json" 2>&1 | sed 1d >"$tmp/a"
  "$PCOL" $v "$tmp/nolines.json" 2>&1 | sed 1d >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b" || { bad "pcol $v differs with the lines kept"; diff "$tmp/b" "$tmp/a" | head -6; }
done
for s in $("$PCOL" cat "$tmp/trace.json" --table sources --format tsv 2>/dev/null | awk -F'\t' 'NR > 1 { print $1 }'); do
  "$PCOL" unpack "$tmp/trace.json" --source "$s" --to v8 -o "$tmp/a.cpuprofile" 2>/dev/null
  "$PCOL" unpack "$tmp/nolines.json" --source "$s" --to v8 -o "$tmp/b.cpuprofile" 2>/dev/null
  cmp -s "$tmp/a.cpuprofile" "$tmp/b.cpuprofile" || bad "the V8 export of source $s differs with the lines kept"
done
[ "$same" = "$fail" ] && echo "ok   top, fold, tree, peek and the V8 export are the same without the lines"
if [ -n "${PCOL_SPEEDSCOPE_SRC:-}" ] && [ -d "$PCOL_SPEEDSCOPE_SRC/sample/profiles/Chrome" ]; then
  for f in 116/Trace-20230603T221323.json 141/no-arg-data.json; do
    [ -f "$PCOL_SPEEDSCOPE_SRC/sample/profiles/Chrome/$f" ] && judge "speedscope's Chrome/$f" "$PCOL_SPEEDSCOPE_SRC/sample/profiles/Chrome/$f" 0
  done
fi
[ "$fail" = 0 ] && echo "t_chrome_lines: pass"
exit "$fail"
