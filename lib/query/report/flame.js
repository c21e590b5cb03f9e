/* flame.js — the flame graph of the selection (frame-tree sums of
 * tree.js): click to zoom (ancestors kept, dimmed), search with a regex
 * (the share under the matched frames, each sample once, of the hover's
 * base: shareOf), and on a --diff page each
 * frame coloured by its change of share against the base.  At most FL.ROWS
 * rows (1,800: 30,621 pixels, under Chromium's 32,767-pixel canvas side),
 * the zoom's ancestors counted: a deeper graph (a runaway recursion,
 * thousands of frames) is drawn as its root rows (a quarter), one grey row
 * of boxes "… N frames" for the depths cut (each box where a frame of the
 * first depth cut is; hover says so, click ignores it), and its deepest
 * rows, so its leaves are drawn; the note under the search says so.  A
 * grey box holding a frame the search matches is drawn in the search
 * colour (the note says so), and its hover lists the frames it hides that
 * end a stack there (a branch ending in the depths cut), so no frame is
 * out of reach: flameCutInfo. */
import { pcolCut, pcolFlameInfo, pcolFmt2, pcolShown } from './units.js';
import { pcolHit, pcolHitIndex } from './hit.js';
import { pcolPct } from './top.js';
import { pcolFname, pcolFtreeKids, pcolFtreeSums } from './tree.js';
import { $, canvasDpr, D, DIFF, FT, FTN, FTP, S, unitOf } from './head.js';
/* ------------------------------------------------------ flame graph */
export var FH = 17, FKIDS = null; /* children of each tree node, sorted by name */
/* FKIDS made for the frame tree of D (pcolStart's done, each hide/show) */
export function flameKids() {
  var k = pcolFtreeKids(D);
  k.forEach(function (c) { c.sort(function (a, b) { var x = FT.names[FTN[a] - 1], y = FT.names[FTN[b] - 1]; return x < y ? -1 : x > y ? 1 : 0; }); });
  FKIDS = k;
}
export var FL = { self: null, total: null, totalAbs: 0, rects: [], hit: pcolHitIndex([]), depth: null, cut: 0 };
var ROWS = 1800; /* the rows drawn at most (FL.ROWS) */
export function fname(i) { return pcolFname(D, i); }
export function computeFlame(sw) { FL = pcolFtreeSums(D, sw); FL.rects = []; FL.hit = pcolHitIndex([]); FL.cut = 0; FL.ROWS = ROWS; }
FL.ROWS = ROWS;
/* a share of the sum of |value| of the selection before its filters
 * (pprof's total, pcol_share, as pcol flame and pcol top): the base of the
 * hover's and the search's shares; not the root's value, the filtered total */
export function shareOf(v) { return pcolPct(v, FL.totalAbs); }
/* a frame's share */
export function share(i) { return shareOf(FL.total[i]); }
function hash(s) { var h = 2166136261; for (var i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0; return h; }
export function colour(i, matched) {
  if (matched) return 'rgb(230,0,230)';
  if (DIFF && DIFF.base) {
    var d = share(i) - DIFF.base[i], m = DIFF.maxDelta || 1, v = Math.round(255 * (1 - Math.min(1, Math.abs(d) / m)));
    return d > 0 ? 'rgb(255,' + v + ',' + v + ')' : 'rgb(' + v + ',' + v + ',255)';
  }
  return nameColour(fname(i));
}
export function nameColour(name) {
  var h = hash(name);
  return 'rgb(' + (205 + Math.floor(50 * ((h >>> 16) & 255) / 255)) + ',' + Math.floor(230 * (h & 255) / 255) + ',' + Math.floor(55 * ((h >>> 8) & 255) / 255) + ')';
}
function matchedSet() { /* nodes whose name matches the search; and the share they cover */
  if (!S.search) return null;
  var m = new Uint8Array(FT.n), under = new Uint8Array(FT.n), covered = 0;
  for (var i = 1; i < FT.n; i++) {
    m[i] = S.search.test(fname(i)) ? 1 : 0;
    under[i] = under[FTP[i]] || m[i];
    if (m[i] && !under[FTP[i]]) covered += FL.total[i];
  }
  return { m: m, covered: covered };
}
export function drawFlame() {
  var cv = $('flame'), W = cv.clientWidth || 800, z = S.zoom, ms = matchedSet();
  var zt = FL.total[z] > 0 ? FL.total[z] : 0, rects = [], maxd = 0;
  var anc = []; for (var a = z; a; a = FTP[a]) anc.unshift(FTP[a]);
  /* ancestors of the zoomed frame: whole width, dimmed; it and every descendant scaled */
  anc.forEach(function (n, d) { rects.push({ n: n, x: 0, w: W, d: d, dim: true }); });
  var base = anc.length, stack = zt > 0 ? [[z, 0, W, base]] : [];
  while (stack.length) {
    var it = stack.pop(), n = it[0], x = it[1], w = it[2], d = it[3];
    rects.push({ n: n, x: x, w: w, d: d, dim: false });
    if (d > maxd) maxd = d;
    var cx = x, kids = FKIDS[n];
    for (var k = 0; k < kids.length; k++) {
      var c = kids[k], cw = FL.total[c] > 0 ? FL.total[c] / zt * W : 0;
      if (cw >= 0.3) stack.push([c, cx, cw, d + 1]);
      if (cw > 0) cx += cw;
    }
  }
  /* past FL.ROWS rows: depths [0, A) drawn, [A, A + cut) as one grey row, the rest below it */
  var A = maxd + 1, cut = 0;
  if (maxd + 1 > ROWS) { A = Math.floor((ROWS - 1) / 4); cut = maxd + 1 - (ROWS - 1); }
  var rows = maxd + 1 - (cut ? cut - 1 : 0);
  /* each frame in the depths cut counted to its grey box (the frame at the
   * first depth cut it is under; rects hold parents before children): the
   * frames it hides, those that end a stack there (no child drawn), and
   * whether the search matches one; then the box replaces that frame */
  var hits = 0;
  if (cut) {
    var box = new Int32Array(FT.n).fill(-1), boxes = [];
    /* a stack ends at a frame with no child of weight, in the frame tree:
     * not one whose children are only too narrow to draw (rd8 L1: they
     * were said to end a stack there) */
    var kid = function (n) { var k = FKIDS[n]; for (var i = 0; i < k.length; i++) if (FL.total[k[i]] > 0) return true; return false; };
    rects.forEach(function (r) {
      if (r.d < A || r.d >= A + cut) return;
      var g = r.d === A ? boxes.push({ node: r.n, frames: 0, ends: [], hit: false, A: A, cut: cut }) - 1 : box[FTP[r.n]];
      if (g < 0) return;
      box[r.n] = g;
      var b = boxes[g];
      b.frames++;
      var more = kid(r.n);
      if (!more || r.d === A + cut - 1) b.ends.push({ n: r.n, d: r.d, end: !more });
      if (ms && ms.m[r.n] && !b.hit) { b.hit = true; hits++; }
      if (r.d === A) r.box = b;
    });
  }
  rects = rects.filter(function (r) { /* a cut frame's row: the grey box at the first depth cut, none below it */
    if (!cut || r.d < A) return true;
    if (r.d === A) { r.n = -cut; return true; }
    return r.d >= A + cut;
  });
  var H = Math.max(3, rows + 1) * FH + 4, dpr = canvasDpr(W, H); /* Chromium's canvas bounds (head.js) */
  cv.style.height = H + 'px'; cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr);
  var g = cv.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  g.font = '12px ui-monospace, Menlo, Consolas, monospace';
  g.textBaseline = 'middle';
  rects.forEach(function (r) {
    var row = !cut || r.d <= A ? r.d : r.d - cut + 1;
    r.y = H - (row + 1) * FH - 2;
    g.globalAlpha = r.dim ? 0.5 : 1;
    g.fillStyle = r.n < 0 ? (r.box.hit ? colour(0, true) : '#e2e2e2') : colour(r.n, ms && ms.m[r.n]);
    g.fillRect(r.x, r.y, Math.max(r.w - 0.5, 0.5), FH - 1);
    if (r.w > 30) {
      var name = pcolShown(flameBoxName(r.n)), fit = Math.floor((r.w - 6) / 7.2);
      if (fit >= 3) {
        g.fillStyle = '#000';
        g.fillText(pcolCut(name, fit, '..'), r.x + 3, r.y + FH / 2);
      }
    }
  });
  g.globalAlpha = 1;
  FL.rects = rects;
  FL.hit = pcolHitIndex(rects); /* the hover's search: a depth's row by y, then its boxes by x */
  $('unzoom').disabled = !z;
  $('matched').textContent = ms ? 'matched ' + pcolFmt2(shareOf(ms.covered)) + '%' : '';
  cv.setAttribute('data-frames', rects.length);
  FL.cut = cut;
  cv.setAttribute('data-cut', cut); /* depths drawn as one grey row */
  $('flame-note').textContent = cut ? 'this graph is ' + (maxd + 1) + ' frames deep, more than the ' + ROWS + ' rows drawn: its ' + A +
    ' root rows, a grey row for the ' + cut + ' frames cut, and its ' + (ROWS - 1 - A) + ' deepest rows (search counts every frame; hover a grey box for the stacks ending in it)' +
    (hits ? '; the search matches frames in the depths cut: ' + hits + (hits > 1 ? ' grey boxes are' : ' grey box is') + ' drawn in the search colour' : '') : '';
}
/* a box's name: its frame's, or the depths a grey box stands for */
export function flameBoxName(n) { return n >= 0 ? fname(n) : '\u2026 ' + -n + ' frames'; }
/* the box at (x, y), the canvas's pixels: {i: its index in FL.rects or
 * -1, probes} (hit.js: the one a linear search from the last drawn finds,
 * by a binary search of the depths' rows, then of the row's boxes) */
export function flameHit(x, y) { return pcolHit(FL.hit, FH, x, y); }
export function frameAt(ev) {
  var b = $('flame').getBoundingClientRect(), h = flameHit(ev.clientX - b.left, ev.clientY - b.top);
  return h.i >= 0 ? FL.rects[h.i] : null;
}
/* what a grey box of depths cut hides: one line (`long` false), or the
 * lines of its tooltip: the frames under it in the depths cut and, the
 * heaviest first, the stacks ending there and the frames at its last depth
 * cut (each its name, depth, value and share) */
export function flameCutInfo(r, long) {
  var b = r.box, e = b.ends.filter(function (x) { return x.end; }).length;
  var head = flameBoxName(r.n) + ' not drawn (the flame graph\'s bound: the note): depths ' + b.A + '\u2013' + (b.A + b.cut - 1) + ', ' +
    b.frames + ' frames drawn under this box, ' + e + (e === 1 ? ' stack ends' : ' stacks end') + ' in them' + (b.hit ? ', the search matches one' : '');
  if (!long) return head;
  var L = 30, list = b.ends.slice().sort(function (x, y) { return Math.abs(FL.total[y.n]) - Math.abs(FL.total[x.n]) || x.d - y.d; });
  return [head].concat(list.slice(0, L).map(function (x) {
    return (x.end ? 'ends: ' : 'goes on below: ') + frameInfo(x.n) + ' at depth ' + x.d;
  }), list.length > L ? ['and ' + (list.length - L) + ' more (the call tree shows every frame)'] : []).join('\n');
}
export function frameInfo(n) {
  if (n < 0) return flameBoxName(n) + ' not drawn (the flame graph\'s bound: the note)';
  return pcolFlameInfo(fname(n), FL.total[n], unitOf(), S.ratio, S.raw, share(n), DIFF && DIFF.base ? DIFF.base[n] : null);
}
