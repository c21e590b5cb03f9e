// hit.test.mjs — the report page's pure drawing rules, in node on
// generated input (make check-report-modules): hit.js's search of the box
// under the pointer (the stack chart's and the flame graph's hover) equals
// a linear search from the last box drawn, on flame graphs laid out as
// flame.js lays them (children side by side from their parent's x, pushed
// on a stack and drawn as popped), with weights that make children pass
// their parent's end (negative values) so that boxes of a row overlap,
// and takes few steps where they do not; range.js pcolSpanColumns, the
// stack chart's pixel columns of a sample, draws a point at the whole
// profile's last instant (it was drawn nowhere) and keeps a range's end
// open (the selection's rule).   node tests/report/hit.test.mjs
import vm from 'node:vm';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const compute = execFileSync('sh', [path.join(here, '../../tools/build/embed.sh'), 'join',
  path.join(here, '../../lib/query/report/modules.txt'), 'compute'], { encoding: 'utf8' });
const ctx = vm.createContext({});
vm.runInContext(compute, ctx, { filename: 'the computing modules' });
const { pcolHit, pcolHitIndex, pcolSpanColumns } = vm.runInContext('({ pcolHit, pcolHitIndex, pcolSpanColumns })', ctx);
let failures = 0, checks = 0;
const ok = (c, what) => { checks++; if (!c) { failures++; if (failures < 20) console.error('FAIL: ' + what); } };

let seed = 12345;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const FH = 17;
// a random tree laid out as flame.js drawFlame lays it out: boxes in the
// order drawn, each {x, y, w}; neg: some weights negative (a child may be
// heavier than its parent, and its box pass the parent's end)
function flame(nodes, W, neg) {
  const kids = [[]], tot = [0];
  for (let i = 1; i < nodes; i++) {
    const p = Math.floor(rnd() ** 0.6 * i); // (deep and bushy)
    kids.push([]); tot.push(0); kids[p].push(i);
  }
  const self = tot.map(() => (neg && rnd() < 0.2 ? -1 : 1) * Math.floor(rnd() * 1000));
  for (let i = nodes - 1; i >= 0; i--) { tot[i] += self[i]; for (const c of kids[i]) tot[i] += tot[c]; }
  const rects = [], zt = tot[0] > 0 ? tot[0] : 1, stack = [[0, 0, W, 0]];
  let maxd = 0;
  while (stack.length) {
    const [n, x, w, d] = stack.pop();
    rects.push({ n, x, w, d });
    if (d > maxd) maxd = d;
    let cx = x;
    for (const c of kids[n]) {
      const cw = tot[c] > 0 ? tot[c] / zt * W : 0;
      if (cw >= 0.3) stack.push([c, cx, cw, d + 1]);
      if (cw > 0) cx += cw;
    }
  }
  const H = (maxd + 2) * FH + 4;
  rects.forEach((r) => { r.y = H - (r.d + 1) * FH - 2; });
  return { rects, H };
}
const linear = (B, x, y) => {
  for (let i = B.length - 1; i >= 0; i--) { const r = B[i]; if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + FH) return i; }
  return -1;
};
let points = 0, overlapped = 0;
for (const [nodes, W, neg] of [[1, 800, false], [40, 800, false], [3000, 1200, false], [20000, 1900, false], [3000, 800, true], [20000, 1500, true]]) {
  const { rects, H } = flame(nodes, W, neg);
  const ix = pcolHitIndex(rects);
  const pts = [];
  rects.forEach((r, i) => {
    if (i % 2) return;
    pts.push([r.x + r.w / 2, r.y + FH / 2], [r.x, r.y], [r.x + r.w, r.y + FH - 0.01], [r.x + r.w - 1e-9, r.y + 1], [r.x - 1e-9, r.y], [r.x, r.y + FH]);
  });
  for (let k = 0; k < 4000; k++) pts.push([rnd() * (W + 20) - 10, rnd() * (H + 20) - 10]);
  pts.push([NaN, 5], [5, NaN], [-Infinity, 20], [Infinity, 20]);
  // rows of boxes side by side (no negative weight): a few steps
  const rows = new Map();
  rects.forEach((r) => rows.set(r.y, (rows.get(r.y) || 0) + 1));
  const bound = Math.ceil(Math.log2(rows.size + 1)) + Math.ceil(Math.log2(Math.max(...rows.values()) + 1)) + 2;
  let bad = 0, slow = 0;
  for (const [x, y] of pts) {
    const got = pcolHit(ix, FH, x, y), want = linear(rects, x, y);
    if (got.i !== want && bad++ < 3) console.error(`  ${nodes} nodes${neg ? ', negative weights' : ''}: at (${x}, ${y}) ${got.i}, a linear search ${want}`);
    if (got.probes > bound) slow++;
  }
  // (overlapping boxes: the rows where a box starts before the one before it ends)
  let over = 0;
  for (const r of ix.rows) for (let k = r[1] + 1; k < r[2]; k++) if (rects[ix.ord[k]].x < ix.reach[k - 1]) over++;
  overlapped += over;
  points += pts.length;
  ok(bad === 0, `a flame graph of ${nodes} nodes (${rects.length} boxes${neg ? ', negative weights' : ''}): the hit differs from a linear search at ${bad} of ${pts.length} points`);
  if (!neg) ok(slow === 0, `a flame graph of ${nodes} nodes: more than ${bound} steps at ${slow} points`);
}
ok(overlapped > 0, 'the negative weights made no overlapping boxes: the search over them is untested');
// the stack chart's rows: boxes side by side, drawn left to right, rows of tracks apart
{
  const B = [];
  for (let t = 0, y = 4; t < 5; t++, y += 8)
    for (let d = 0; d < 30; d++, y += 13) for (let x = 150; x < 1000;) { const w = 1 + Math.floor(rnd() * 40); if (rnd() < 0.7) B.push({ x, y, w }); x += w; }
  const ix = pcolHitIndex(B);
  let bad = 0;
  for (let k = 0; k < 20000; k++) {
    const x = rnd() * 1010, y = rnd() * 2200, want = (() => { for (let i = B.length - 1; i >= 0; i--) { const r = B[i]; if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + 13) return i; } return -1; })();
    if (pcolHit(ix, 13, x, y).i !== want) bad++;
  }
  ok(bad === 0, `a stack chart's boxes: the hit differs from a linear search at ${bad} of 20000 points`);
  ok(pcolHit(pcolHitIndex([]), 13, 5, 5).i === -1, 'no box: a hit');
}

// the stack chart's columns of a sample (t0 0, t1 1000, 100 columns)
const cols = (a, e, closed) => { const c = pcolSpanColumns(a, e, 0, 1000, 100, closed); return c ? c.join('-') : 'none'; };
ok(cols(1000, 1000, true) === '99-100', `a point at the whole profile's last instant: columns ${cols(1000, 1000, true)}, not the last`);
ok(cols(1000, 1400, true) === '99-100', `a span from the whole profile's last instant: columns ${cols(1000, 1400, true)}, not the last`);
ok(cols(1000, 1000, false) === 'none', `a point at a range's end (not in [from, to)): columns ${cols(1000, 1000, false)}`);
ok(cols(0, 0, false) === '0-1' && cols(0, 0, true) === '0-1', `a point at the start: columns ${cols(0, 0, false)}`);
ok(cols(-5, 0, false) === 'none' && cols(-5, -5, true) === 'none' && cols(1001, 1001, true) === 'none', 'a sample outside the chart drawn');
ok(cols(-50, 25, false) === '0-3' && cols(995, 1200, false) === '99-100' && cols(500, 500, false) === '50-51' && cols(123, 456, true) === '12-46',
  `spans: ${cols(-50, 25, false)} ${cols(995, 1200, false)} ${cols(500, 500, false)} ${cols(123, 456, true)}`);
ok(cols(999.99, 999.99, false) === '99-100', 'a point just before the end');

console.log(`hit.test: ${checks - failures} passed, ${failures} failed (${points} points on generated flame graphs, ${overlapped} overlapping boxes)`);
process.exit(failures ? 1 : 0);
