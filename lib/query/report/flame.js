/* flame.js — the flame graph of the selection (frame-tree sums of
 * tree.js): click to zoom (ancestors kept, dimmed), search with a regex
 * (the share under the matched frames, each sample once, of the hover's
 * base: shareOf), and on a --diff page each
 * frame coloured by its change of share against the base. */
import { pcolFlameInfo, pcolFmt2 } from './units.js';
import { pcolPct } from './top.js';
import { pcolFname, pcolFtreeKids, pcolFtreeSums } from './tree.js';
import { $, D, DIFF, FT, FTN, FTP, S, unitOf } from './head.js';
/* ------------------------------------------------------ flame graph */
export var FH = 17, FKIDS = null; /* children of each tree node, sorted by name */
/* FKIDS made for the frame tree of D (pcolStart's done, each hide/show) */
export function flameKids() {
  var k = pcolFtreeKids(D);
  k.forEach(function (c) { c.sort(function (a, b) { var x = FT.names[FTN[a] - 1], y = FT.names[FTN[b] - 1]; return x < y ? -1 : x > y ? 1 : 0; }); });
  FKIDS = k;
}
export var FL = { self: null, total: null, totalAbs: 0, rects: [], depth: null };
export function fname(i) { return pcolFname(D, i); }
export function computeFlame(sw) { FL = pcolFtreeSums(D, sw); FL.rects = []; }
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
  var H = Math.max(3, maxd + 2) * FH + 4, dpr = window.devicePixelRatio || 1;
  cv.style.height = H + 'px'; cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr);
  var g = cv.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  g.font = '12px ui-monospace, Menlo, Consolas, monospace';
  g.textBaseline = 'middle';
  rects.forEach(function (r) {
    r.y = H - (r.d + 1) * FH - 2;
    g.globalAlpha = r.dim ? 0.5 : 1;
    g.fillStyle = colour(r.n, ms && ms.m[r.n]);
    g.fillRect(r.x, r.y, Math.max(r.w - 0.5, 0.5), FH - 1);
    if (r.w > 30) {
      var name = fname(r.n), fit = Math.floor((r.w - 6) / 7.2);
      if (fit >= 3) {
        g.fillStyle = '#000';
        g.fillText(name.length <= fit ? name : name.slice(0, fit - 2) + '..', r.x + 3, r.y + FH / 2);
      }
    }
  });
  g.globalAlpha = 1;
  FL.rects = rects;
  $('unzoom').disabled = !z;
  $('matched').textContent = ms ? 'matched ' + pcolFmt2(shareOf(ms.covered)) + '%' : '';
  cv.setAttribute('data-frames', rects.length);
}
export function frameAt(ev) {
  var cv = $('flame'), b = cv.getBoundingClientRect(), x = ev.clientX - b.left, y = ev.clientY - b.top;
  for (var i = FL.rects.length - 1; i >= 0; i--) {
    var r = FL.rects[i];
    if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + FH) return r;
  }
  return null;
}
export function frameInfo(n) {
  return pcolFlameInfo(fname(n), FL.total[n], unitOf(), S.ratio, S.raw, share(n), DIFF && DIFF.base ? DIFF.base[n] : null);
}
