/* report.js — the script of the `pcol report` page (lib/query/report.c puts
 * it into the page).  It decodes the embedded columns, draws the timeline,
 * and recomputes the top table and the flame graph for the chosen value,
 * source and time range.
 *
 * What it adds up comes from the library: each sample's value, the keys of
 * each location (top.c), the frame tree and each stack's node in it
 * (ftree.c).  The one rule written here is the range rule of spec.md §7 and
 * lib/core/select.c: a point sample counts when from <= time < to; a long
 * sample of weight w stands for max(w, 1) ticks spread evenly from its time
 * and counts value x (its ticks in the range) / (its ticks), rounded as
 * pcol_scale does (nearest, halves away from zero, exact).  So the page's
 * numbers equal `pcol top FILE --from A --to B` (tests/interop/t_report.sh
 * checks it in Chromium). */
(function () {
  'use strict';
  var M = JSON.parse(document.getElementById('pcol-meta').textContent);
  var BIN = (function () {
    var s = atob(document.getElementById('pcol-bin').textContent.replace(/\s+/g, ''));
    var b = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
    return b;
  })();
  function col(c) { /* a column descriptor of report.c's col() -> a typed array */
    var n = c.n;
    switch (c.e) {
      case 'c': var a = new Float64Array(n); if (c.v) a.fill(c.v); return a;
      case 'u8': return new Uint8Array(BIN.buffer, c.o, n);
      case 'u16': return new Uint16Array(BIN.buffer, c.o, n);
      case 'u32': return new Uint32Array(BIN.buffer, c.o, n);
      case 'i32': return new Int32Array(BIN.buffer, c.o, n);
      case 'f64': return new Float64Array(BIN.buffer, c.o, n);
    }
    throw new Error('unknown column encoding ' + c.e);
  }
  var $ = function (id) { return document.getElementById(id); };

  /* ------------------------------------------------------------ data */
  var N = M.n, NS = M.nstacks;
  var SRC = col(M.cols.src), DUR = col(M.cols.dur), STK = col(M.cols.stack), WGT = col(M.cols.wgt);
  var TIME = new Float64Array(N); /* NaN = no time */
  (function () {
    var raw = col(M.cols.tdelta || M.cols.tabs), delta = !!M.cols.tdelta;
    M.sources.forEach(function (s) {
      for (var i = s.row0; i < s.row0 + s.na; i++) TIME[i] = NaN;
      var t = 0;
      for (i = s.row0 + s.na; i < s.row1; i++) {
        t = delta ? (i === s.row0 + s.na ? raw[i] : t + raw[i]) : raw[i];
        TIME[i] = t;
      }
    });
  })();
  var VALS = [];
  function values(k) { return VALS[k] || (VALS[k] = col(M.cols['v' + k])); }
  var SPAR = col(M.stacks.parent), SLOC = col(M.stacks.loc);
  var FT = M.ftree, FTP = col(FT.parent), FTN = col(FT.name), FTS = col(FT.stack);
  var THR = M.threads ? col(M.threads.col) : null;
  var DIFF = M.diff || null;

  /* ----------------------------------------------- the range rule (spec.md §7) */
  /* pcol_scale: v x num / den, nearest, halves away from zero, exact */
  function scale(v, num, den) {
    if (num === den) return v;
    if (den <= 0) return 0;
    var p = BigInt(v) * BigInt(num), d = BigInt(den);
    var q = p / d, r = p % d;
    if (r < 0n) r = -r;
    if (2n * r >= d) q += p < 0n ? -1n : 1n;
    return Number(q);
  }
  /* THE range rule (lib/core/select.c): a long sample of weight w stands
   * for n = max(w, 1) ticks at t + k d / n; ticksBefore(x) of them lie
   * before time x, ceil((x - t) n / d) capped at n, exact in BigInt. */
  function ticksBefore(t, d, n, x) {
    if (x <= t) return 0;
    var a = (BigInt(Math.round(x)) - BigInt(t)) * BigInt(n), D = BigInt(d);
    var k = a / D + (a % D !== 0n ? 1n : 0n);
    return k > BigInt(n) ? n : Number(k);
  }
  /* The value of sample i that a range [from, to) selects (null: none of
   * it): pcol_select_iter and pcol_scale, in one place. */
  function inRange(i, v, from, to) {
    var t = TIME[i], d = DUR[i];
    if (t !== t) return null;
    if (d <= 0) return t < from || t >= to ? null : v;
    var n = WGT[i] >= 1 ? WGT[i] : 1;
    var k = ticksBefore(t, d, n, to) - ticksBefore(t, d, n, from);
    if (k <= 0) return null;
    return scale(v, k, n);
  }

  /* ---------------------------------------------------------- state */
  var S = { value: M.value, valueTouched: false, source: 0, by: 'function', range: null,
            zoom: 0, search: null, filter: null, sortKey: 'order', raw: false };

  function selectedSources() {
    return M.sources.filter(function (s) { return !S.source || s.id === S.source; });
  }
  /* Sums the chosen value per stack node over the selection (weights.c) */
  function stackWeights() {
    var w = new Float64Array(NS + 1), total = 0, V = values(S.value), skipped = [];
    selectedSources().forEach(function (s) {
      if (S.range && !s.timed) { skipped.push(s.id); return; }
      for (var i = s.row0; i < s.row1; i++) {
        var v = V[i];
        if (v === 0) continue;
        if (S.range) { v = inRange(i, v, S.range[0], S.range[1]); if (v === null || v === 0) continue; }
        w[STK[i]] += v;
        total += v < 0 ? -v : v;
      }
    });
    return { w: w, total: total, skipped: skipped };
  }

  /* ---------------------------------------------------------- top (top.c) */
  var KS = M.keysets.map(function (k) {
    return { by: k.by, unnamed: k.unnamed, nokey: k.nokey, names: k.names, rank: col(k.rank),
             koff: col(k.koff), keys: col(k.keys) };
  });
  var KIDS = (function () { /* children of each stack node, CSR (parent 0 = roots) */
    var off = new Uint32Array(NS + 2), kids = new Uint32Array(NS + 1), pos;
    for (var n = 1; n <= NS; n++) off[SPAR[n - 1] + 1]++;
    for (n = 1; n <= NS + 1; n++) off[n] += off[n - 1];
    pos = off.slice(0, NS + 1);
    for (n = 1; n <= NS; n++) kids[pos[SPAR[n - 1]]++] = n;
    return { off: off, kids: kids };
  })();
  function keyset() {
    var unnamed = selectedSources().some(function (s) { return s.type !== 'rprof'; }) ? 1 : 0;
    var best = null;
    KS.forEach(function (k) {
      if (k.by === S.by && (!best || (S.by === 'function' && k.unnamed === unnamed))) best = k;
    });
    return best;
  }
  function computeTop(sw) {
    var k = keyset(), w = sw.w, nk = k.names.length + 1;
    var fk = new Uint32Array(NS + 1), sub = new Float64Array(NS + 1), touched = new Uint8Array(NS + 1);
    var flat = new Float64Array(nk), cum = new Float64Array(nk), cnt = new Uint32Array(nk);
    for (var n = 1; n <= NS; n++) {
      var p = SPAR[n - 1], l = SLOC[n - 1], a = k.koff[l], e = k.koff[l + 1];
      fk[n] = a < e ? k.keys[a] : fk[p];
      sub[n] = w[n];
      touched[n] = w[n] !== 0 ? 1 : 0;
      if (w[n] !== 0) {
        flat[fk[n] || k.nokey] += w[n];
        if (!fk[n]) cum[k.nokey] += w[n];
      }
    }
    for (n = NS; n >= 1; n--) {
      p = SPAR[n - 1];
      if (p) { sub[p] += sub[n]; touched[p] |= touched[n]; }
    }
    /* depth first, a key adding its node's subtree only where no ancestor holds it */
    var stk = [], off = KIDS.off, kids = KIDS.kids, j;
    for (j = off[0]; j < off[1]; j++) if (touched[kids[j]]) stk.push(kids[j]);
    while (stk.length) {
      var x = stk.pop();
      if (x < 0) { n = -x; l = SLOC[n - 1]; for (j = k.koff[l]; j < k.koff[l + 1]; j++) cnt[k.keys[j]]--; continue; }
      n = x; l = SLOC[n - 1];
      for (j = k.koff[l]; j < k.koff[l + 1]; j++) if (cnt[k.keys[j]]++ === 0) cum[k.keys[j]] += sub[n];
      stk.push(-n);
      for (j = off[n]; j < off[n + 1]; j++) if (touched[kids[j]]) stk.push(kids[j]);
    }
    var rows = [];
    for (var key = 1; key < nk; key++)
      if (flat[key] !== 0 || cum[key] !== 0)
        rows.push({ key: key, name: k.names[key - 1], rank: k.rank[key], flat: flat[key], cum: cum[key] });
    rows.sort(function (x, y) {
      var fx = Math.abs(x.flat), fy = Math.abs(y.flat);
      if (fx !== fy) return fx > fy ? -1 : 1;
      if (x.rank !== y.rank) return x.rank - y.rank;
      return Math.abs(y.cum) - Math.abs(x.cum);
    });
    var sum = 0;
    rows.forEach(function (r, i) { r.order = i; r.fp = pct(r.flat, sw.total); sum += r.fp; r.sp = sum; r.cp = pct(r.cum, sw.total); });
    return rows;
  }
  function pct(v, total) { return total ? 100 * v / total : 0; }
  /* printf's %.2f: the exact decimal value, ties to even (toFixed rounds ties up) */
  function fmt2(x) {
    var s = x.toFixed(2), e = Math.abs(x).toFixed(40), dot = e.indexOf('.');
    if (/^50*$/.test(e.slice(dot + 3))) {
      var k = Math.round(Math.abs(x) * 100 - 0.5); /* the lower neighbour, x 100 */
      if (k % 2 === 0) s = (x < 0 ? '-' : '') + (k / 100).toFixed(2);
    }
    return s;
  }

  /* --------------------------------------------------- units for people */
  function unitOf() { return M.values[S.value].unit || ''; }
  function human(v) {
    if (S.raw) return String(v);
    var u = unitOf(), a = Math.abs(v), f = function (x, suf) { return (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2)) + suf; };
    if (u === 'nanoseconds') return a >= 1e9 ? f(v / 1e9, 's') : a >= 1e6 ? f(v / 1e6, 'ms') : a >= 1e3 ? f(v / 1e3, '\u00b5s') : v + 'ns';
    if (u === 'microseconds') return a >= 1e6 ? f(v / 1e6, 's') : a >= 1e3 ? f(v / 1e3, 'ms') : v + '\u00b5s';
    if (u === 'bytes') return a >= 1073741824 ? f(v / 1073741824, 'GiB') : a >= 1048576 ? f(v / 1048576, 'MiB') : a >= 1024 ? f(v / 1024, 'KiB') : v + 'B';
    return a >= 1e9 ? f(v / 1e9, 'G') : a >= 1e6 ? f(v / 1e6, 'M') : a >= 1e4 ? f(v / 1e3, 'k') : String(v);
  }
  function secs(ns) { return (ns / 1e9).toFixed(ns % 1e6 === 0 ? 3 : 6) + ' s'; }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; }); }
  function regex(text, input) {
    input.classList.remove('bad');
    if (!text) return null;
    try { return new RegExp(text); } catch (e) { input.classList.add('bad'); return null; }
  }

  /* ------------------------------------------------------- top table */
  var TOP = [];
  function drawTop() {
    var rows = TOP.slice(), limit = 1000;
    if (S.filter) rows = rows.filter(function (r) { return S.filter.test(r.name); });
    var key = S.sortKey;
    if (key === 'flat' || key === 'cum') rows.sort(function (x, y) { return Math.abs(y[key]) - Math.abs(x[key]) || x.order - y.order; });
    else if (key === 'name') rows.sort(function (x, y) { return x.rank - y.rank; });
    var html = [];
    for (var i = 0; i < rows.length && i < limit; i++) {
      var r = rows[i];
      html.push('<tr data-flat="' + r.flat + '" data-cum="' + r.cum + '"><td>' + human(r.flat) + '</td><td>' + fmt2(r.fp) +
                '%</td><td>' + fmt2(r.sp) + '%</td><td>' + human(r.cum) + '</td><td>' + fmt2(r.cp) +
                '%</td><td class="name" title="' + esc(r.name) + '">' + esc(r.name) + '</td></tr>');
    }
    $('top').tBodies[0].innerHTML = html.join('');
    $('top-count').textContent = '(' + (rows.length > limit ? limit + ' of ' : '') + rows.length +
      (S.filter ? ' matching' : '') + ' ' + S.by + (rows.length === 1 ? '' : 's') + ')';
    Array.prototype.forEach.call(document.querySelectorAll('table.top th'), function (th) {
      th.classList.toggle('sorted', th.getAttribute('data-k') === key && th.textContent !== 'flat%' && th.textContent !== 'cum%');
    });
  }

  /* ------------------------------------------------------ flame graph */
  var FH = 17, FKIDS = (function () { /* children of each tree node, sorted by name */
    var k = []; for (var i = 0; i < FT.n; i++) k.push([]);
    for (i = 1; i < FT.n; i++) k[FTP[i]].push(i);
    k.forEach(function (c) { c.sort(function (a, b) { var x = FT.names[FTN[a] - 1], y = FT.names[FTN[b] - 1]; return x < y ? -1 : x > y ? 1 : 0; }); });
    return k;
  })();
  var FL = { self: null, total: null, totalAbs: 0, rects: [], depth: null };
  function fname(i) { return i ? FT.names[FTN[i] - 1] : 'all'; }
  function computeFlame(sw) {
    var self = new Float64Array(FT.n), total = new Float64Array(FT.n);
    for (var n = 1; n <= NS; n++) if (sw.w[n] !== 0) self[FTS[n]] += sw.w[n];
    self[0] += sw.w[0];
    for (var i = FT.n - 1; i >= 0; i--) { total[i] += self[i]; if (i) total[FTP[i]] += total[i]; }
    FL.self = self; FL.total = total; FL.totalAbs = sw.total;
  }
  function share(i) { return FL.totalAbs ? 100 * FL.total[i] / FL.totalAbs : 0; }
  function hash(s) { var h = 2166136261; for (var i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0; return h; }
  function colour(i, matched) {
    if (matched) return 'rgb(230,0,230)';
    if (DIFF && DIFF.base) {
      var d = share(i) - DIFF.base[i], m = DIFF.maxDelta || 1, v = Math.round(255 * (1 - Math.min(1, Math.abs(d) / m)));
      return d > 0 ? 'rgb(255,' + v + ',' + v + ')' : 'rgb(' + v + ',' + v + ',255)';
    }
    var h = hash(fname(i));
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
  function drawFlame() {
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
    $('matched').textContent = ms ? 'matched ' + fmt2(FL.total[0] ? 100 * ms.covered / FL.total[0] : 0) + '%' : '';
    cv.setAttribute('data-frames', rects.length);
  }
  function frameAt(ev) {
    var cv = $('flame'), b = cv.getBoundingClientRect(), x = ev.clientX - b.left, y = ev.clientY - b.top;
    for (var i = FL.rects.length - 1; i >= 0; i--) {
      var r = FL.rects[i];
      if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + FH) return r;
    }
    return null;
  }
  function frameInfo(n) {
    var s = fname(n) + ' (' + human(FL.total[n]) + ' ' + (S.raw ? unitOf() : '') + ', ' + fmt2(share(n)) + '%';
    if (DIFF && DIFF.base) s += '; base ' + fmt2(DIFF.base[n]) + '%, change ' + (share(n) - DIFF.base[n] >= 0 ? '+' : '') + fmt2(share(n) - DIFF.base[n]) + ' points';
    return s + ')';
  }

  /* -------------------------------------------------------- timeline */
  var TL = { tracks: [], t0: 0, t1: 1, W: 0, L: 150, R: 10 };
  (function () {
    var timed = M.sources.filter(function (s) { return s.timed; });
    if (!timed.length) return;
    TL.t0 = Math.min.apply(null, timed.map(function (s) { return Math.min(0, s.t0); }));
    TL.t1 = Math.max.apply(null, timed.map(function (s) { return s.t1; }));
    if (TL.t1 <= TL.t0) TL.t1 = TL.t0 + 1;
    timed.forEach(function (s) {
      if (THR) {
        var seen = {};
        for (var i = s.row0 + s.na; i < s.row1; i++) seen[THR[i]] = 1;
        Object.keys(seen).map(Number).sort(function (a, b) { return a - b; }).forEach(function (t) {
          TL.tracks.push({ src: s, thr: t, label: '#' + s.id + ' ' + (t ? M.threads.names[t - 1] : '(no ' + M.threads.key + ')') });
        });
      } else {
        TL.tracks.push({ src: s, thr: -1, label: '#' + s.id + ' ' + s.type });
      }
    });
  })();
  function tx(t) { return TL.L + (t - TL.t0) / (TL.t1 - TL.t0) * (TL.W - TL.L - TL.R); }
  function xt(x) { return TL.t0 + (x - TL.L) / (TL.W - TL.L - TL.R) * (TL.t1 - TL.t0); }
  var LEAF = null; /* colour of each stack: its leaf frame's */
  function drawTimeline() {
    var cv = $('timeline');
    if (!TL.tracks.length) {
      $('tl-wrap').style.display = 'none';
      $('tl-note').textContent = 'No source of this profile has sample times, so there is no timeline and no range to select.';
      return;
    }
    var TH = 34, AX = 20, W = TL.W = cv.clientWidth || 1000, H = AX + TL.tracks.length * (TH + 4) + 4, dpr = window.devicePixelRatio || 1;
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
    var V = values(S.value);
    TL.tracks.forEach(function (tr, k) {
      var y = AX + k * (TH + 4), src = tr.src, px = new Float64Array(Math.ceil(W) + 1), maxpx = 0;
      g.fillStyle = '#f6f6f8'; g.fillRect(TL.L, y, W - TL.L - TL.R, TH);
      g.fillStyle = '#333'; g.textBaseline = 'middle';
      g.fillText(tr.label.length > 24 ? tr.label.slice(0, 23) + '\u2026' : tr.label, 4, y + TH / 2);
      var shown = !S.source || S.source === src.id;
      g.globalAlpha = shown ? 1 : 0.3;
      for (var i = src.row0 + src.na; i < src.row1; i++) {
        if (tr.thr >= 0 && THR[i] !== tr.thr) continue;
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
        if (p >= 0 && p < px.length) { px[p] += Math.abs(V[i]) || 1e-9; if (px[p] > maxpx) maxpx = px[p]; }
      }
      /* point samples: a bar per pixel, its height by the value there */
      g.fillStyle = '#c0392b';
      for (p = 0; p < px.length; p++) if (px[p]) {
        var h = Math.max(2, (TH - 6) * px[p] / maxpx);
        g.fillRect(p, y + TH - 3 - h, 1, h);
      }
      if (M.memory && src.type === 'rprof') {
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
          g.fillText('memory, max ' + (mx / 1048576).toFixed(1) + ' MiB', W - TL.R - 150, y + 2);
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

  /* ------------------------------------------------------- everything */
  function recompute() {
    var sw = stackWeights();
    TOP = computeTop(sw);
    computeFlame(sw);
    if (DIFF) {
      var sh = DIFF.shares[S.value];
      DIFF.base = sh ? col(sh) : null;
      if (DIFF.base) {
        var m = 0;
        for (var i = 0; i < FT.n; i++) m = Math.max(m, Math.abs(share(i) - DIFF.base[i]));
        DIFF.maxDelta = m;
      }
      $('flame-title').textContent = DIFF.base ? 'Differential flame graph (widths: this profile; red grew, blue shrank against ' + DIFF.path + ')'
                                               : 'Flame graph (the base has no value ' + M.values[S.value].cli + ')';
    }
    var v = M.values[S.value];
    $('total').textContent = 'total ' + human(sw.total) + (S.raw ? ' ' + v.unit : '') + ' (' + v.type + ')' +
      (sw.skipped.length ? '; source ' + sw.skipped.map(function (s) { return '#' + s; }).join(', ') + ' has no times and is left out of the range' : '');
    $('range').textContent = S.range ? secs(S.range[0]) + ' \u2013 ' + secs(S.range[1]) : 'whole profile';
    $('range').setAttribute('data-from-ns', S.range ? S.range[0] : '');
    $('range').setAttribute('data-to-ns', S.range ? S.range[1] : '');
    $('clear').disabled = !S.range;
    drawTop();
    drawFlame();
    drawTimeline();
  }

  /* ------------------------------------------------------------ header */
  function header() {
    document.title = M.title + ' \u2014 pcol report';
    $('title').textContent = M.title;
    var durs = M.sources.filter(function (s) { return s.timed; }).map(function (s) { return (s.t1 - Math.min(0, s.t0)) / 1e9; });
    $('facts').innerHTML = '<b>' + N.toLocaleString('en') + '</b> sample rows in <b>' + M.sources.length + '</b> source' + (M.sources.length === 1 ? '' : 's') +
      (durs.length ? ', <b>' + Math.max.apply(null, durs).toFixed(3) + ' s</b> long' : ', no sample times') +
      '; value types: ' + M.values.map(function (v) { return '<b>' + esc(v.type) + '</b>/' + esc(v.unit) + (v.level ? ' (level)' : ''); }).join(', ') +
      '; ' + esc(M.tool) + ', format ' + esc(M.format) + ', ' + M.file_size.toLocaleString('en') + ' bytes' +
      (DIFF ? '; diff against <b>' + esc(DIFF.path) + '</b>' : '');
    var h = '<table><tr><th>source</th><th>type</th><th>uri</th><th>samples</th><th>time span</th><th>default value</th></tr>';
    M.sources.forEach(function (s) {
      h += '<tr><td>' + s.id + '</td><td>' + esc(s.type) + '</td><td>' + esc(s.uri) + '</td><td>' + (s.row1 - s.row0) +
        '</td><td>' + (s.timed ? secs(s.t0) + ' \u2013 ' + secs(s.t1) : 'no times') + '</td><td>' + esc(M.values[s.value].cli) + '</td></tr>';
    });
    h += '</table><table><tr><th>table</th><th>rows</th></tr>';
    Object.keys(M.tables).forEach(function (t) { h += '<tr><td>' + esc(t) + '</td><td>' + M.tables[t] + '</td></tr>'; });
    $('info').innerHTML = h + '</table>';
    $('footer').textContent = 'Made by ' + M.tool + ' report from ' + M.path + '. Numbers as `pcol top`: a long sample cut by the range counts the ticks inside it (spec.md \u00a77).';
    var vs = $('value');
    /* levels (Rprof's memory snapshots) are drawn as the memory line, never summed */
    M.values.forEach(function (v, i) { if (v.level) return; var o = document.createElement('option'); o.value = i; o.textContent = v.type + ' (' + v.unit + ')' + (v.cli === 'samples' ? ' [each source\'s own count]' : ''); vs.appendChild(o); });
    vs.value = S.value;
    var ss = $('source');
    [{ id: 0, type: 'all', uri: '' }].concat(M.sources).forEach(function (s) {
      var o = document.createElement('option'); o.value = s.id;
      o.textContent = s.id ? '#' + s.id + ' ' + s.type + ' ' + (s.uri.length > 40 ? '\u2026' + s.uri.slice(-39) : s.uri) : 'all sources';
      ss.appendChild(o);
    });
    if (M.sources.length < 2) ss.disabled = true;
  }

  /* ------------------------------------------------------------ events */
  function wire() {
    $('value').addEventListener('change', function () { S.value = +this.value; S.valueTouched = true; recompute(); });
    $('source').addEventListener('change', function () {
      S.source = +this.value;
      if (!S.valueTouched) { S.value = S.source ? M.sources[S.source - 1].value : M.value; $('value').value = S.value; }
      recompute();
    });
    $('by').addEventListener('change', function () { S.by = this.value; TOP = computeTop(stackWeights()); drawTop(); });
    $('raw').addEventListener('change', function () { S.raw = this.checked; recompute(); });
    $('filter').addEventListener('input', function () { S.filter = regex(this.value, this); drawTop(); });
    $('search').addEventListener('input', function () { S.search = regex(this.value, this); drawFlame(); });
    $('unzoom').addEventListener('click', function () { S.zoom = 0; drawFlame(); });
    $('clear').addEventListener('click', function () { api.select(null); });
    Array.prototype.forEach.call(document.querySelectorAll('table.top th'), function (th) {
      th.addEventListener('click', function () { S.sortKey = th.getAttribute('data-k'); drawTop(); });
    });
    var fc = $('flame');
    fc.addEventListener('click', function (ev) { var r = frameAt(ev); if (r) { S.zoom = r.n; drawFlame(); } });
    fc.addEventListener('mousemove', function (ev) { var r = frameAt(ev); $('details').textContent = r ? frameInfo(r.n) : '\u00a0'; });
    fc.addEventListener('mouseleave', function () { $('details').textContent = '\u00a0'; });
    /* brush: drag on the timeline */
    var tl = $('timeline'), start = null;
    function px(ev) { var b = tl.getBoundingClientRect(); return Math.min(Math.max(ev.clientX - b.left, TL.L), TL.W - TL.R); }
    tl.addEventListener('mousedown', function (ev) { if (!TL.tracks.length) return; start = px(ev); ev.preventDefault(); });
    window.addEventListener('mousemove', function (ev) {
      if (start === null) return;
      var x = px(ev), b = $('brush');
      b.style.display = 'block'; b.style.left = Math.min(start, x) + 'px'; b.style.width = Math.abs(x - start) + 'px';
    });
    window.addEventListener('mouseup', function (ev) {
      if (start === null) return;
      var x = px(ev), a = Math.min(start, x), b = Math.max(start, x);
      start = null;
      if (b - a < 3) { api.select(null); return; }
      api.select(Math.round(xt(a)), Math.round(xt(b)));
    });
    var rt = null;
    window.addEventListener('resize', function () { clearTimeout(rt); rt = setTimeout(function () { drawFlame(); drawTimeline(); }, 100); });
  }

  /* For people scripting the page, and for tests: the state and a few calls. */
  var api = window.pcolReport = {
    meta: M,
    state: S,
    select: function (from, to) { S.range = from === null || from === undefined ? null : [from, to]; recompute(); },
    timeToX: function (t) { return tx(t) + $('timeline').getBoundingClientRect().left; },
    samples: function () { /* the long samples on the timeline: [row, time, duration] */
      var out = [];
      for (var i = 0; i < N; i++) if (DUR[i] > 0 && TIME[i] === TIME[i]) out.push([i, TIME[i], DUR[i]]);
      return out;
    },
    frames: function () { return FL.rects.map(function (r) { return { n: r.n, name: fname(r.n), x: r.x, y: r.y, w: r.w, d: r.d, dim: r.dim, parent: FTP[r.n] }; }); },
    zoomed: function () { return S.zoom; },
    fold: function () { /* name path and total of each node: for checks */
      var out = [];
      for (var i = 1; i < FT.n; i++) out.push({ n: i, parent: FTP[i], name: fname(i), total: FL.total[i], self: FL.self[i] });
      return out;
    }
  };
  header();
  wire();
  recompute();
  document.body.setAttribute('data-ready', '1');
})();
