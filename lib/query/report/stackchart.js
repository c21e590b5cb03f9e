/* stackchart.js — the stack chart: for each timeline track, the stack of
 * the sample at each pixel of the brushed range (the whole profile with no
 * range), root at the top, a long sample as wide as its duration, a point
 * sample until the next sample of its track, but at most its sampling
 * interval (pointEnd); runs of one frame merge into one box.  One sample
 * per pixel column (the first that covers it), so a page of a million
 * samples draws as fast as a small one.  A click picks the frame's
 * function for the other views; brushing the timeline zooms. */
import { pcolRangeText } from './units.js';
import { pcolRangeRows } from './range.js';
import { $, D, DUR, FTP, FTS, pick, S, STK, THR, TIME } from './head.js';
import { colour, fname } from './flame.js';
import { TL } from './timeline.js';
var SC = { boxes: [], FH: 13, MAXD: 40, gaps: {}, LOOK: 1024 };
/* The end of a sample at time a (doc/report.md "Stack chart"; the speedscope
 * export's timeline follows THE span rule of lib/core/lasts.h, which reads
 * each sample's own time value first): a long sample's duration d; a point sample lasts until
 * `next`, the time of the next sample of its track (undefined: none, or not
 * known), but at most `cap`, its sampling interval (trackCap); a V8 or
 * Chrome-trace sample (untilNext, pcol_source_lasts_until_next) until the
 * next uncapped, as Chrome DevTools draws it. */
export function pointEnd(a, d, next, cap, untilNext) {
  if (d > 0) return a + d;
  if (next === undefined || next < a) return a + cap;
  return untilNext ? next : Math.min(next, a + cap);
}
/* The gaps between a track's samples, kept as an evenly spaced subsample
 * of at most GAP_KEEP (every stride-th gap; the stride doubles, and every
 * other kept gap goes, when it is full): a median of a million-sample page
 * without holding or sorting a million numbers. */
var GAP_KEEP = 4096;
function Gaps() { this.a = new Float64Array(16); this.n = 0; this.stride = 1; this.seen = 0; }
Gaps.prototype.add = function (d) {
  if (this.seen++ % this.stride) return;
  if (this.n === this.a.length) {
    if (this.n < GAP_KEEP) {
      var b = new Float64Array(this.n * 2); b.set(this.a); this.a = b;
    } else {
      for (var j = 0; j < this.n / 2; j++) this.a[j] = this.a[2 * j];
      this.n /= 2; this.stride *= 2;
      if ((this.seen - 1) % this.stride) return;
    }
  }
  this.a[this.n++] = d;
};
Gaps.prototype.median = function () {
  var a = this.a.slice(0, this.n).sort();
  return a.length ? a[a.length >> 1] : 0;
};
/* A track's sampling interval: its source's (an Rprof interval), else the
 * median positive gap between its samples (robust to the odd pair of
 * samples a microsecond apart, which a smallest gap is not; of a subsample,
 * Gaps, on a large page); 0 with fewer than two.  One pass over the source
 * for all its tracks, kept. */
function trackCap(tr) {
  var src = tr.src;
  if (src.interval_ns > 0) return src.interval_ns;
  var g = SC.gaps[src.id];
  if (!g) {
    var all = new Gaps(), per = [], last = [], lastAll = NaN, i, t, k, d;
    for (i = src.row0 + src.na; i < src.row1; i++) {
      t = TIME[i];
      if (t !== t) continue;
      d = t - lastAll;
      if (d > 0) all.add(d);
      lastAll = t;
      if (THR) {
        k = THR[i];
        if (!per[k]) { per[k] = new Gaps(); last[k] = NaN; }
        d = t - last[k];
        if (d > 0) per[k].add(d);
        last[k] = t;
      }
    }
    g = SC.gaps[src.id] = { all: all.median(), thr: [] };
    for (k = 0; k < per.length; k++) if (per[k]) g.thr[k] = per[k].median();
  }
  return (tr.thr < 0 ? g.all : g.thr[tr.thr]) || 0;
}
export function drawStackChart() {
  var cv = $('stackchart');
  if (!TIME && TL.timed.length) return; /* drawn when the samples are in (head.js) */
  if (!TL.tracks.length) { $('stack-section').style.display = 'none'; return; }
  var W = cv.clientWidth || 1000, L = TL.L, R = TL.R, PW = Math.max(1, Math.floor(W - L - R));
  var t0 = S.range ? S.range[0] : TL.t0, t1 = S.range ? S.range[1] : TL.t1, span = t1 - t0 || 1;
  var cover = 0;
  var tracks = TL.tracks.map(function (tr) {
    var si = D.SI && D.SI[tr.src.id - 1], sorted = !!(si && si.sorted);
    var src = tr.src, col = new Int32Array(PW).fill(-1), un = !!src.until_next;
    /* unsorted: no gaps to learn from, the interval or a pixel as before */
    var cap = sorted || src.interval_ns > 0 ? trackCap(tr) : 0;
    function paint(i, next) {
      if (S.drop && S.drop[STK[i]]) return;
      if (S.lskeep && !S.lskeep[D.LB.ls[i]]) return;
      var a = TIME[i], e = pointEnd(a, DUR[i], next, cap, un);
      if (e <= t0 || a >= t1) return;
      var x0 = Math.floor((a - t0) / span * PW), x1 = Math.max(x0 + 1, Math.ceil((e - t0) / span * PW));
      for (var x = Math.max(0, x0); x < Math.min(PW, x1); x++) if (col[x] < 0) col[x] = i;
    }
    var rows = pcolRangeRows(D, src, t0, t1, cap), first = src.row0 + src.na, i;
    if (!sorted) { /* no next sample in file order: each lasts its interval */
      for (i = Math.max(rows[0], first); i < rows[1]; i++)
        if (tr.thr < 0 || THR[i] === tr.thr) paint(i, undefined);
    } else {
      /* the track's sample before the range may last into it; each sample
       * is drawn when the next of its track is seen, up to the first at or
       * after the range's end.  The look before and after the range is
       * bounded (SC.LOOK rows, and a capped sample's reach), so a zoom costs
       * the rows in it, however many threads a source has: a track whose
       * neighbour lies further is drawn as if it had none (its cap) */
      var start = Math.max(rows[0], first), prev = -1, reach = un ? Infinity : cap;
      for (i = start - 1; i >= first && start - i <= SC.LOOK && TIME[i] >= t0 - reach; i--)
        if (tr.thr < 0 || THR[i] === tr.thr) { start = i; break; }
      for (i = start; i < src.row1 && i < rows[1] + SC.LOOK; i++) {
        if (tr.thr >= 0 && THR[i] !== tr.thr) continue;
        if (prev >= 0) paint(prev, TIME[i]);
        prev = i;
        if (TIME[i] >= t1) { prev = -1; break; }
      }
      if (prev >= 0) paint(prev, undefined);
    }
    if (tr === TL.tracks[0]) for (i = 0; i < PW; i++) if (col[i] >= 0) cover++;
    var paths = new Array(PW), depth = 0, x;
    for (x = 0; x < PW; x++) {
      if (col[x] < 0) continue;
      var p = [];
      for (var n = FTS[STK[col[x]]]; n; n = FTP[n]) p.push(n);
      p.reverse();
      paths[x] = p;
      if (p.length > depth) depth = p.length;
    }
    return { label: tr.label, paths: paths, depth: Math.min(depth, SC.MAXD) };
  });
  var FH = SC.FH, H = 4, dpr = window.devicePixelRatio || 1;
  tracks.forEach(function (t) { t.y = H; H += Math.max(1, t.depth) * FH + 8; });
  cv.style.height = H + 'px'; cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr);
  var g = cv.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, W, H);
  g.font = '11px ui-monospace, Menlo, Consolas, monospace';
  g.textBaseline = 'middle';
  SC.boxes = [];
  tracks.forEach(function (t) {
    g.fillStyle = '#333';
    g.fillText(t.label.length > 20 ? t.label.slice(0, 19) + '\u2026' : t.label, 4, t.y + FH / 2);
    for (var d = 0; d < t.depth; d++) {
      var x = 0;
      while (x < PW) {
        var n = t.paths[x] && t.paths[x][d];
        if (!n) { x++; continue; }
        var e = x + 1;
        while (e < PW && t.paths[e] && t.paths[e][d] === n && t.paths[e][d - 1 < 0 ? 0 : d - 1] === t.paths[x][d - 1 < 0 ? 0 : d - 1]) e++;
        var bx = L + x, bw = e - x, by = t.y + d * FH;
        g.fillStyle = colour(n, false);
        g.fillRect(bx, by, Math.max(bw - 0.5, 0.5), FH - 1);
        if (bw > 30) {
          var name = fname(n), fit = Math.floor((bw - 4) / 6.6);
          if (fit >= 3) { g.fillStyle = '#000'; g.fillText(name.length <= fit ? name : name.slice(0, fit - 2) + '..', bx + 2, by + FH / 2); }
        }
        SC.boxes.push({ n: n, x: bx, y: by, w: bw });
        x = e;
      }
    }
  });
  cv.setAttribute('data-boxes', SC.boxes.length);
  cv.setAttribute('data-cover', cover); /* pixel columns with a sample, of the first track */
  cv.setAttribute('data-pw', PW);
  $('stack-note').textContent = (S.range ? pcolRangeText(S.range) : 'whole profile') + ': one sample per pixel, root at the top; brush the timeline to zoom, click a box to pick its function';
}
export function stackBoxAt(ev) {
  var b = $('stackchart').getBoundingClientRect(), x = ev.clientX - b.left, y = ev.clientY - b.top;
  for (var i = SC.boxes.length - 1; i >= 0; i--) {
    var r = SC.boxes[i];
    if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + SC.FH) return r;
  }
  return null;
}
export function wireStackChart() {
  var cv = $('stackchart');
  cv.addEventListener('click', function (ev) { var r = stackBoxAt(ev); if (r) pick(fname(r.n)); });
  cv.addEventListener('mousemove', function (ev) { var r = stackBoxAt(ev); cv.title = r ? fname(r.n) : ''; });
}
