/* stackchart.js — the stack chart: for each timeline track, the stack of
 * the sample at each pixel of the brushed range (the whole profile with no
 * range), root at the top, each sample as long as its span (SPAN, written
 * by report.c spans: THE span and placement rules of lib/core/lasts.h as
 * the speedscope export's timeline draws them, a sample laid after the one
 * before it from where that one ends, to at most where the next sample of
 * its thread begins: a span reaches from the sample's time to there, and
 * a pixel column shows its first sample; a sample of no span, a point, one
 * pixel column (range.js pcolSpanColumns: a range is [from, to), the
 * whole profile [start, end], so a point at its last instant is drawn); a sample that measured no time, span -1, V8's last sample
 * of a thread, nothing);
 * runs of one frame merge into one box.  One sample per pixel column (the
 * first that covers it), so a page of a million samples draws as fast as a
 * small one.  A click picks the frame's function for the other views;
 * brushing the timeline zooms.
 * Every frame is drawn, up to the chart's bound: at most SC.ROWS rows in
 * all (a track gets SC.ROWS / its number of tracks, the timeline's tracks
 * drawn: at most TL.MAX, timeline.js), so a hostile stack thousands of
 * frames deep draws a canvas Chromium can hold (a side of at most 32,767
 * pixels) at a cost of rows x pixel columns.  A stack deeper than its track's rows keeps its root frames
 * (a quarter of the rows), then one box "… N frames" for the frames cut,
 * then its leaf frames, so the leaf is always drawn; the note says so.
 * A hover finds its box by a binary search of the rows, by y, then of the
 * row's boxes, by x (hit.js). */
import { pcolCut, pcolIso, pcolRangeText, pcolShown } from './units.js';
import { pcolRangeRows, pcolSpanColumns } from './range.js';
import { pcolHit, pcolHitIndex } from './hit.js';
import { $, canvasDpr, D, FTP, FTS, pick, S, SPAN, STK, THR, TIME } from './head.js';
import { colour, fname } from './flame.js';
import { drawTrackLabel, TL } from './timeline.js';
var SC = { boxes: [], hit: pcolHitIndex([]), tracks: [], FH: 13, ROWS: 2400, LOOK: 1024 };
/* a stack's rows in a track of at most `cap`: its frames, root first, or
 * its root frames, -(the number cut), its leaf frames */
function stackRows(leaf, cap) {
  var p = [];
  for (var n = leaf; n; n = FTP[n]) p.push(n);
  p.reverse();
  if (p.length <= cap) return p;
  var a = Math.max(1, Math.floor((cap - 1) / 4)), b = cap - 1 - a;
  var r = p.slice(0, a).concat([-(p.length - a - b)], p.slice(p.length - b));
  r.cut = true;
  return r;
}
export function drawStackChart() {
  var cv = $('stackchart');
  if (!TIME && TL.timed.length) return; /* drawn when the samples are in (head.js) */
  if (!TL.all.length) { $('stack-section').style.display = 'none'; return; }
  var W = cv.clientWidth || 1000, L = TL.L, R = TL.R, PW = Math.max(1, Math.floor(W - L - R));
  /* a range [t0, t1); the whole profile [t0, t1], t1 its last instant */
  var t0 = S.range ? S.range[0] : TL.t0, t1 = S.range ? S.range[1] : TL.t1, closed = !S.range;
  var cover = 0, cut = 0, cap = Math.floor(SC.ROWS / Math.max(1, TL.tracks.length));
  var tracks = TL.tracks.map(function (tr) {
    var si = D.SI && D.SI[tr.src.id - 1], src = tr.src, col = new Int32Array(PW).fill(-1);
    /* the rows that reach the range: those in it, and before it those of a
     * span into it (a sorted source: its longest span back, at most SC.LOOK
     * rows, so a zoom costs the rows in it) */
    var rows = pcolRangeRows(D, src, t0, t1, si ? si.maxspan : 0, closed), first = src.row0 + src.na, i;
    var start = Math.max(first, si && si.sorted ? Math.max(rows[0], pcolRangeRows(D, src, t0, t1, 0, closed)[0] - SC.LOOK) : rows[0]);
    for (i = start; i < rows[1]; i++) {
      if (tr.thr >= 0 && THR[i] !== tr.thr) continue;
      if (S.drop && S.drop[STK[i]]) continue;
      if (S.lskeep && !S.lskeep[D.LB.ls[i]]) continue;
      if (SPAN[i] < 0) continue; /* it measured no time (V8's last sample): none, as the table's wall and the speedscope export */
      var c = pcolSpanColumns(TIME[i], TIME[i] + SPAN[i], t0, t1, PW, closed);
      if (c) for (var x = c[0]; x < c[1]; x++) if (col[x] < 0) col[x] = i;
    }
    if (tr === TL.tracks[0]) for (i = 0; i < PW; i++) if (col[i] >= 0) cover++;
    var paths = new Array(PW), depth = 0, x, seen = new Map(); /* a walk per stack in view */
    for (x = 0; x < PW; x++) {
      if (col[x] < 0) continue;
      var leaf = FTS[STK[col[x]]], p = seen.get(leaf);
      if (!p) { p = stackRows(leaf, cap); seen.set(leaf, p); if (p.cut) cut++; }
      paths[x] = p;
      if (p.length > depth) depth = p.length;
    }
    return { tr: tr, paths: paths, depth: depth };
  });
  var FH = SC.FH, H = 4;
  tracks.forEach(function (t) { t.y = H; t.h = Math.max(1, t.depth) * FH; H += t.h + 8; });
  var dpr = canvasDpr(W, H); /* Chromium's canvas bounds (head.js) */
  cv.style.height = H + 'px'; cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr);
  var g = cv.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  g.font = '11px ui-monospace, Menlo, Consolas, monospace';
  g.textBaseline = 'middle';
  SC.boxes = [];
  SC.tracks = tracks;
  tracks.forEach(function (t) {
    t.shown = drawTrackLabel(g, t.tr, L - 8, t.y, t.depth > 1 && t.tr.thread ? 2 * FH : FH, FH);
    for (var d = 0; d < t.depth; d++) {
      var x = 0;
      while (x < PW) {
        var n = t.paths[x] && t.paths[x][d];
        if (!n) { x++; continue; }
        var e = x + 1;
        while (e < PW && t.paths[e] && t.paths[e][d] === n && t.paths[e][d - 1 < 0 ? 0 : d - 1] === t.paths[x][d - 1 < 0 ? 0 : d - 1]) e++;
        var bx = L + x, bw = e - x, by = t.y + d * FH;
        g.fillStyle = n > 0 ? colour(n, false) : '#e2e2e2';
        g.fillRect(bx, by, Math.max(bw - 0.5, 0.5), FH - 1);
        if (bw > 30) {
          var name = pcolShown(boxName(n)), fit = Math.floor((bw - 4) / 6.6);
          if (fit >= 3) { g.fillStyle = '#000'; g.fillText(pcolCut(name, fit, '..'), bx + 2, by + FH / 2); }
        }
        SC.boxes.push({ n: n, x: bx, y: by, w: bw });
        x = e;
      }
    }
  });
  SC.hit = pcolHitIndex(SC.boxes);
  cv.setAttribute('data-boxes', SC.boxes.length);
  cv.setAttribute('data-cover', cover); /* pixel columns with a sample, of the first track */
  cv.setAttribute('data-pw', PW);
  cv.setAttribute('data-tracks', tracks.length);
  cv.setAttribute('data-cut', cut); /* stacks drawn cut (their middle frames in one box) */
  $('stack-note').textContent = (S.range ? pcolRangeText(S.range) : 'whole profile') + ': one sample per pixel, root at the top; brush the timeline to zoom, click a box to pick its function' +
    (cut ? '; ' + cut + (cut > 1 ? ' stacks are' : ' stack is') + ' deeper than the ' + cap + ' rows a track has here (' + SC.ROWS + ' in all): each drawn as its root frames, a grey box for the frames cut, and its leaf frames' : '');
}
/* a box's name: its frame's, or the frames a deep stack's box stands for */
function boxName(n) { return n > 0 ? fname(n) : '\u2026 ' + -n + ' frames'; }
export function stackBoxes() { return SC.boxes.map(function (r) { return { name: boxName(r.n), frame: r.n > 0, x: r.x, y: r.y, w: r.w, h: SC.FH }; }); }
/* the tracks as drawn: the label and the text drawn for it, and where */
export function stackTracks() { return SC.tracks.map(function (t) { return { label: t.tr.label, shown: t.shown, y: t.y, h: t.h }; }); }
/* the box at (x, y), the canvas's pixels: {i: its index in SC.boxes or -1,
 * probes: the rows and boxes looked at} (hit.js) */
export function stackHit(x, y) { return pcolHit(SC.hit, SC.FH, x, y); }
export function stackBoxAt(ev) {
  var b = $('stackchart').getBoundingClientRect(), h = stackHit(ev.clientX - b.left, ev.clientY - b.top);
  return h.i >= 0 ? SC.boxes[h.i] : null;
}
export function wireStackChart() {
  var cv = $('stackchart');
  cv.addEventListener('click', function (ev) { var r = stackBoxAt(ev); if (r && r.n > 0) pick(fname(r.n)); });
  cv.addEventListener('mousemove', function (ev) {
    var r = stackBoxAt(ev), b = cv.getBoundingClientRect(), x = ev.clientX - b.left, y = ev.clientY - b.top;
    if (r) { cv.title = r.n > 0 ? pcolIso(fname(r.n)) : boxName(r.n) + ' not drawn (the stack chart\'s bound: the note)'; return; }
    var t = x < TL.L && SC.tracks.filter(function (k) { return y >= k.y && y < k.y + k.h; })[0];
    cv.title = t ? t.tr.tip : ''; /* a track's whole name (the drawn one may be cut) */
  });
}
