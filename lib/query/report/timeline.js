/* timeline.js — the timeline: a track per source (or per thread, report.c threads),
 * long samples as rectangles of their duration, point samples as an
 * activity graph (the chosen value per pixel, stacked by the leaf frame's
 * colour), Rprof's memory in use as a line, and the brushed range.
 * At most TL.MAX tracks are drawn (a profile of thousands of threads made
 * the page a track each): the busiest by the page's value (the sum of
 * |value| of its samples, the whole profile), in their order; the note
 * says how many are left out and lists them, and the "tracks" box (a
 * regex on a track's whole name) draws the tracks it matches instead, the
 * busiest TL.MAX of them.  The stack chart draws the same tracks. */
import { pcolCut, pcolIso, pcolShown, pcolUnitLabel } from './units.js';
import { $, canvasDpr, D, DUR, FT, FTS, M, NS, S, STK, THR, TIME, values } from './head.js';
import { colour, FL, fname, nameColour } from './flame.js';
/* -------------------------------------------------------- timeline */
export var TL = { tracks: [], all: [], MAX: 64, filter: null, filterText: '', t0: 0, t1: 1, W: 0, L: 150, R: 10, TH: 34, AX: 20, timed: [] };
(function () {
  var timed = TL.timed = M.sources.filter(function (s) { return s.timed; });
  if (!timed.length) return;
  TL.t0 = Math.min.apply(null, timed.map(function (s) { return Math.min(0, s.t0); }));
  TL.t1 = Math.max.apply(null, timed.map(function (s) { return s.t1; }));
  if (TL.t1 <= TL.t0) TL.t1 = TL.t0 + 1;
})();
/* a source on a track: its name (report.c: a JFR source's event type),
 * else its number */
export function trackName(s) { return s.name !== undefined ? s.name : '#' + s.id; }
/* the tracks: a source's, or one per thread of it (made when the
 * samples part is in: head.js pcolStart).  A track's names as a function's
 * (rd17a F8): head, thread and label (both: drawn, the list of tracks
 * left out) shown (pcolShown), tip (the tooltips) each name isolated
 * (pcolIso); the tracks box matches the
 * names themselves (raw), as the refine boxes match functions' */
export function timelineTracks() {
  var all = TL.all = [];
  function track(s, t, head, th) {
    var two = function (f) { return th === '' ? f(head) : f(head) + ' ' + f(th); };
    all.push({ src: s, thr: t, label: two(pcolShown), tip: two(pcolIso), raw: two(String), head: pcolShown(head), thread: pcolShown(th), k: all.length });
  }
  TL.timed.forEach(function (s) {
    if (THR) {
      var seen = {};
      for (var i = s.row0 + s.na; i < s.row1; i++) seen[THR[i]] = 1;
      Object.keys(seen).map(Number).sort(function (a, b) { return a - b; }).forEach(function (t) {
        track(s, t, trackName(s), t ? M.threads.names[t - 1] : M.threads.none);
      });
    } else track(s, -1, s.name !== undefined ? s.name : '#' + s.id + ' ' + s.type, '');
  });
  TL.ranked = null; TL.shown = null;
  pickTracks();
}
/* each track's total of value v (the sum of |value| of its samples, the
 * whole profile) and the tracks by it, busiest first (ties: in order) */
function rankTracks(v) {
  if (TL.ranked && TL.ranked.v === v) return TL.ranked.list;
  var V = values(v), tot = new Float64Array(TL.all.length), at = {};
  TL.all.forEach(function (tr) { at[tr.src.id + ' ' + tr.thr] = tr.k; });
  TL.timed.forEach(function (s) {
    for (var i = s.row0 + s.na; i < s.row1; i++) {
      var k = at[s.id + ' ' + (THR ? THR[i] : -1)];
      if (k !== undefined) tot[k] += Math.abs(V[i]) || 0;
    }
  });
  TL.all.forEach(function (tr) { tr.total = tot[tr.k]; });
  var list = TL.all.slice().sort(function (a, b) { return b.total - a.total || a.k - b.k; });
  TL.ranked = { v: v, list: list };
  return list;
}
/* the tracks drawn (TL.tracks): at most TL.MAX, the busiest by the page's
 * value of those the tracks box matches, in their order; the note and the
 * list of those left out said when some are */
export function pickTracks() {
  var re = TL.filter, ranked = rankTracks(S.value);
  var match = re ? ranked.filter(function (tr) { return re.test(tr.raw); }) : ranked;
  var drawn = match.slice(0, TL.MAX), on = new Uint8Array(TL.all.length);
  drawn.forEach(function (tr) { on[tr.k] = 1; });
  TL.tracks = TL.all.filter(function (tr) { return on[tr.k]; });
  var key = S.value + '\u0000' + TL.filterText, left = TL.all.length - TL.tracks.length;
  if (TL.shown === key) return;
  TL.shown = key;
  $('tl-tracks').style.display = TL.all.length > TL.MAX || re ? '' : 'none';
  var vn = pcolIso(M.values[S.value].cli), n = function (x) { return x.toLocaleString('en'); };
  $('tl-tracks-note').textContent = (re ? n(match.length) + ' of ' + n(TL.all.length) + ' tracks match the tracks box; ' : n(TL.all.length) + ' tracks; ') +
    (drawn.length < match.length ? 'the ' + TL.MAX + ' busiest by ' + vn + ' drawn (the stack chart too), ' : n(drawn.length) + ' drawn, ') +
    n(left) + ' left out' + (left ? ' (listed below; type a regex of their names in the tracks box to draw them)' : '');
  /* the tracks left out, busiest first: their whole names, as text */
  var out = ranked.filter(function (tr) { return !on[tr.k]; }), LIST = 5000;
  $('tl-left-sum').textContent = n(left) + ' tracks left out' + (left > LIST ? ' (the busiest ' + n(LIST) + ' listed)' : '');
  $('tl-left-list').textContent = out.slice(0, LIST).map(function (tr) { return tr.label; }).join('\n');
  $('tl-left').style.display = left ? '' : 'none';
}
/* A track's label in `w` pixels: the part that tells tracks apart (the
 * thread) kept whole when it fits, else cut in its middle (its name's start
 * and its id stay); the source's part cut at its end, or left out.  On two
 * lines when the track is `h` high (two text lines of `lh`): the source,
 * then the thread.  Draws it at the left of (y, y + h) and returns the
 * lines drawn; the whole label is the track's tooltip. */
export function drawTrackLabel(g, tr, w, y, h, lh) {
  var lines;
  if (!tr.thread) lines = [fitText(g, tr.head, w, false)];
  else if (h >= 2 * lh) lines = [fitText(g, tr.head, w, false), fitText(g, tr.thread, w, true)];
  else if (g.measureText(tr.label).width <= w) lines = [tr.label];
  else {
    var th = fitText(g, tr.thread, w, true), rest = w - g.measureText(' ' + th).width;
    lines = [rest >= g.measureText('xxx\u2026').width ? fitText(g, tr.head, rest, false) + ' ' + th : th];
  }
  g.fillStyle = '#333'; g.textBaseline = 'middle';
  lines.forEach(function (t, k) { g.fillText(t, 4, y + h / 2 + (k - (lines.length - 1) / 2) * lh); });
  return lines;
}
/* `s` in `w` pixels: whole, or cut at its end or (`mid`) in its middle with
 * an ellipsis (by code points: no half of a surrogate pair) */
function fitText(g, s, w, mid) {
  if (g.measureText(s).width <= w) return s;
  var c = Array.from(s), lo = 0, hi = c.length;
  function cut(k) { return mid ? c.slice(0, Math.ceil(k / 2)).join('') + '\u2026' + c.slice(c.length - Math.floor(k / 2)).join('') : c.slice(0, k).join('') + '\u2026'; }
  while (lo < hi) { var m = (lo + hi + 1) >> 1; if (g.measureText(cut(m)).width <= w) lo = m; else hi = m - 1; }
  return cut(lo);
}
export function tx(t) { return TL.L + (t - TL.t0) / (TL.t1 - TL.t0) * (TL.W - TL.L - TL.R); }
export function xt(x) { return TL.t0 + (x - TL.L) / (TL.W - TL.L - TL.R) * (TL.t1 - TL.t0); }
var LEAF = null; /* colour of each stack: its leaf frame's */
export function forgetLeaf() { LEAF = null; } /* a new frame tree (hide/show) */
export function drawTimeline() {
  var cv = $('timeline');
  if (!TIME && TL.timed.length) { /* the samples part is still being read (head.js) */
    $('tl-note').textContent = 'Reading the samples\u2026 (the timeline, the stack chart and ranges come when they are in)';
    return;
  }
  if (!TL.all.length) {
    $('tl-wrap').style.display = 'none';
    $('tl-note').textContent = 'No source of this profile has sample times, so there is no timeline and no range to select.';
    return;
  }
  pickTracks();
  var TH = TL.TH, AX = TL.AX, W = TL.W = cv.clientWidth || 1000, H = AX + TL.tracks.length * (TH + 4) + 4, dpr = canvasDpr(W, H);
  cv.style.height = H + 'px'; cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr);
  var g = cv.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  g.font = '11px system-ui, sans-serif';
  g.fillStyle = '#666'; g.strokeStyle = '#ccc'; g.textBaseline = 'top';
  var span = (TL.t1 - TL.t0) / 1e9, step = Math.pow(10, Math.floor(Math.log10(span / 8 || 1)));
  if (span / step > 16) step *= 5; else if (span / step > 8) step *= 2;
  for (var s = Math.ceil(TL.t0 / 1e9 / step) * step; s <= TL.t1 / 1e9; s += step) {
    var x = tx(s * 1e9);
    g.fillRect(x, AX - 5, 1, 5);
    g.fillText(+s.toFixed(6) + ' s', x + 2, 2);
  }
  if (!LEAF) {
    LEAF = [];
    for (var n = 0; n <= NS; n++) LEAF.push(colour(FTS[n] || 0, false));
  }
  var V = values(S.value), AC = activityCats(), NC = AC.names.length + 1;
  TL.tracks.forEach(function (tr, k) {
    var y = AX + k * (TH + 4), src = tr.src, PX = Math.ceil(W) + 1, px = new Float64Array(PX), maxpx = 0;
    var pc = new Float64Array(PX * NC); /* per pixel, per category */
    g.fillStyle = '#f6f6f8'; g.fillRect(TL.L, y, W - TL.L - TL.R, TH);
    tr.shown = drawTrackLabel(g, tr, TL.L - 8, y, TH, 13);
    var shown = !S.source || S.source === src.id;
    g.globalAlpha = shown ? 1 : 0.3;
    for (var i = src.row0 + src.na; i < src.row1; i++) {
      if (tr.thr >= 0 && THR[i] !== tr.thr) continue;
      if (S.drop && S.drop[STK[i]]) continue;
      if (S.lskeep && !S.lskeep[D.LB.ls[i]]) continue;
      var x0 = tx(TIME[i]);
      if (DUR[i] > 0) {
        var x1 = tx(TIME[i] + DUR[i]);
        if (x1 - x0 >= 2) {
          g.fillStyle = LEAF[STK[i]];
          g.fillRect(x0, y + 3, x1 - x0, TH - 6);
          g.strokeStyle = '#7a5a00'; g.lineWidth = 1;
          g.strokeRect(x0 + 0.5, y + 3.5, x1 - x0 - 1, TH - 7);
          continue;
        }
      }
      var p = Math.floor(x0);
      if (p >= 0 && p < PX) {
        var v = Math.abs(V[i]) || 1e-9;
        px[p] += v; pc[p * NC + AC.cat[STK[i]]] += v;
        if (px[p] > maxpx) maxpx = px[p];
      }
    }
    /* point samples: the activity graph, a bar per pixel as high as the
     * value there, stacked by the leaf function (the heaviest ones) */
    for (p = 0; p < PX; p++) if (px[p]) {
      var h = Math.max(2, (TH - 6) * px[p] / maxpx), yb = y + TH - 3;
      for (var c = 0; c < NC; c++) {
        var part = pc[p * NC + c];
        if (!part) continue;
        var hh = h * part / px[p];
        g.fillStyle = AC.colours[c];
        g.fillRect(p, yb - hh, 1, hh);
        yb -= hh;
      }
    }
    if (M.memory && src.type === 'rprof' && D.loaded(M.memory[0])) { /* drawn again when the second part is in (head.js) */
      /* Rprof memory in use (vsize.small + vsize.large + nodes) as a line */
      var a = values(M.memory[0]), b = values(M.memory[1]), c = values(M.memory[2]), mx = 0;
      for (i = src.row0 + src.na; i < src.row1; i++) mx = Math.max(mx, a[i] + b[i] + c[i]);
      if (mx > 0) {
        g.strokeStyle = '#1f6fd1'; g.lineWidth = 1.5; g.beginPath();
        for (i = src.row0 + src.na; i < src.row1; i++) {
          var yy = y + TH - 3 - (TH - 6) * (a[i] + b[i] + c[i]) / mx;
          if (i === src.row0 + src.na) g.moveTo(tx(TIME[i]), yy); else g.lineTo(tx(TIME[i]), yy);
        }
        g.stroke();
        g.fillStyle = '#1f6fd1'; g.textBaseline = 'top';
        g.fillText('memory, max ' + pcolUnitLabel(mx, 'bytes'), W - TL.R - 150, y + 2);
        g.textBaseline = 'middle';
      }
    }
    g.globalAlpha = 1;
  });
  var note = [];
  var untimed = M.sources.filter(function (s) { return !s.timed; });
  if (untimed.length) note.push('No sample times in source ' + untimed.map(function (s) { return '#' + s.id; }).join(', ') + ' (not on the timeline; a range leaves it out).');
  $('tl-note').textContent = note.join(' ');
  drawBrush();
}
function drawBrush() {
  var b = $('brush');
  if (!S.range || !TL.tracks.length) { b.style.display = 'none'; return; }
  var x0 = tx(S.range[0]), x1 = tx(S.range[1]);
  b.style.display = 'block'; b.style.left = x0 + 'px'; b.style.width = Math.max(1, x1 - x0) + 'px';
}

/* The activity graph's categories: the leaf functions with the most self
 * weight in the selection (frame-tree self sums), each in its flame colour,
 * and "other". */
var ACTIVITY_N = 8, LEGEND_CHARS = 60;
function activityCats() {
  var sum = {}, names = [];
  for (var i = 1; i < FT.n; i++) if (FL.self[i]) { var nm = fname(i); if (!(nm in sum)) { sum[nm] = 0; names.push(nm); } sum[nm] += Math.abs(FL.self[i]); }
  names.sort(function (a, b) { return sum[b] - sum[a] || (a < b ? -1 : 1); });
  names = names.slice(0, ACTIVITY_N);
  var idx = {}, cat = new Uint8Array(NS + 1), colours = [];
  names.forEach(function (nm, k) { idx[nm] = k; colours.push(nameColour(nm)); });
  colours.push('#9a9a9a');
  for (var n = 1; n <= NS; n++) { var l = fname(FTS[n]); cat[n] = l in idx ? idx[l] : names.length; }
  var lg = $('tl-legend');
  lg.textContent = names.length ? 'activity by leaf function: ' : '';
  names.concat(names.length ? ['other'] : []).forEach(function (nm, k) {
    var sw = document.createElement('span'), t = document.createElement('span');
    sw.className = 'swatch'; sw.style.background = colours[k];
    /* shown and isolated (review 22 F2: one name's bidi reordered the
     * legend), cut at LEGEND_CHARS with the whole name in its title (F3: a
     * 3,000-character name made the page 23,000 px wide) */
    var shown = pcolShown(nm), cut = pcolCut(shown, LEGEND_CHARS, '\u2026');
    t.className = 'tl-name';
    t.textContent = cut + '  ';
    if (cut !== shown) t.title = pcolIso(nm);
    lg.appendChild(sw); lg.appendChild(t);
  });
  return { names: names, cat: cat, colours: colours };
}
