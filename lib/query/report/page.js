/* page.js — the page's frame: recomputation for the selection, the header
 * (what `pcol info` says), the controls, and window.pcolReport, the calls
 * the browser test (tests/interop/report_check.js) drives. */
import { pcolCut, pcolDivideBy, pcolIso, pcolRangeText, pcolShown, pcolTimeText, pcolViewUnit } from './units.js';
import { pcolFilterDrop, pcolStackWeights, pcolTagKeep } from './range.js';
import { pcolKeyset, pcolTop } from './top.js';
import { pcolBaseShares, pcolHidden } from './hide.js';
import { pcolDiffRows, pcolDiffUnit } from './diff.js';
import { $, col, D, D0, DIFF, esc, FT, FTP, human, M, N, onPick, pcolMark, pcolStart, pick, regex, S, secs, setData, setResults, TOPDIFF, TOPU, unitOf } from './head.js';
import { drawTop, drawTopRows, topCells, topHead, TROWS } from './table.js';
import { colour, computeFlame, drawFlame, FH, FL, flameBoxName, flameCutInfo, flameHit, flameKids, fname, frameAt, frameInfo, share } from './flame.js';
import { drawTimeline, forgetLeaf, timelineTracks, TL, tx, xt } from './timeline.js';
import { drawStackChart, stackBoxes, stackHit, stackTracks, wireStackChart } from './stackchart.js';
import { drawPeek, drawTree, PEEK, treeSearch, TV, wireTree } from './treeview.js';
import { drawSource, forgetSourceLines } from './source.js';
import { RF, wireRefine } from './refine.js';
import { drawGraph, GV, wireGraph } from './graphview.js';
/* ------------------------------------------------------- everything */
function recompute() {
  S.drop = pcolFilterDrop(D, S.focus, S.ignore);
  var sw = pcolStackWeights(D, S), top = pcolTop(D, sw, pcolKeyset(D, S, S.by));
  /* by line of an Rprof source, each panel's rule (report.c lines_note:
   * THE note's words, pcol_lines_rule_note) */
  $('lines-note').textContent = S.by === 'line' && M.lines_note !== undefined ?
    'note: ' + pcolShown(M.lines_note) + '. On this page the top table and the source lines follow summaryRprof\'s rule ' +
    '(as pcol top and pcol list), the call graph go tool pprof -dot -lines\' (as pcol graph --by line)' : '';
  computeFlame(sw);
  TV.inv = null;
  forgetSourceLines();
  var bt = DIFF && DIFF.top && DIFF.top[S.value];
  var topdiff = bt ? pcolDiffRows(top, bt[S.by]) : null, topu = pcolViewUnit(top, sw.total, unitOf(), S.ratio);
  setResults(sw, top, topdiff, topu, topdiff ? pcolDiffUnit(topdiff, bt[S.by].total, sw.total, unitOf(), S.ratio) : topu);
  if (DIFF) {
    var sh = DIFF.shares[S.value];
    /* the base's shares per node of the whole frame tree (report.c); with
     * frames hidden the tree is another one: the base's with the same
     * frames hidden (hide.js), made once per hide/show and value */
    if (!D.HS) DIFF.base = sh ? col(sh) : null;
    else {
      if (!DIFF.hidden || DIFF.hidden.D !== D || DIFF.hidden.value !== S.value)
        DIFF.hidden = { D: D, value: S.value, base: sh ? pcolBaseShares(D, S.hide, S.show, S.value) : null };
      DIFF.base = DIFF.hidden.base;
    }
    if (DIFF.base) {
      var m = 0;
      for (var i = 0; i < FT.n; i++) m = Math.max(m, Math.abs(share(i) - DIFF.base[i]));
      DIFF.maxDelta = m;
    }
    $('flame-title').textContent = DIFF.base ? 'Differential flame graph (widths: this profile; red grew, blue shrank against ' + pcolIso(DIFF.path) +
                                               (D.HS ? ', the same frames hidden in it' : '') + ')'
                                             : sh ? 'Flame graph (hide/show: not coloured by the change, the page has no base stacks for this value)'
                                             : 'Flame graph (the base has no value ' + pcolIso(M.values[S.value].cli) + ')';
  }
  var v = M.values[S.value];
  $('total').textContent = 'total ' + human(sw.total, TOPU) + (S.raw ? ' ' + pcolIso(v.unit) : '') + ' (' + pcolIso(v.type) + ')' +
    (sw.skipped.length ? '; source ' + sw.skipped.map(function (s) { return '#' + s; }).join(', ') + ' has no times and is left out of the range' : '');
  $('range').textContent = S.range ? pcolRangeText(S.range) : 'whole profile';
  $('range').setAttribute('data-from-ns', S.range ? S.range[0] : '');
  $('range').setAttribute('data-to-ns', S.range ? S.range[1] : '');
  $('clear').disabled = !S.range;
  if (DIFF) $('top-title').textContent = TOPDIFF ? 'Top: change against ' + pcolIso(DIFF.path) + ' (whole base; new = this selection)' : 'Top (the base has no value ' + pcolIso(v.cli) + ')';
  drawTop();
  drawFlame();
  drawTimeline();
  drawStackChart();
  if (TV.search) treeSearch(TV.search); else drawTree();
  drawPeek();
  drawSource();
  drawGraph();
}

/* ------------------------------------------------------------ header */
/* a value as `pcol top --value` names it on its Type line, "TYPE (UNIT)",
 * each once: report.c offers a stored samples/count that every source
 * counts by only as "samples"; one that only some sources have (a merged
 * file) is told apart from the count of every source */
function valueName(v) {
  var twin = M.values.some(function (w) { return w !== v && w.type === v.type && w.unit === v.unit; });
  return pcolShown(v.type) + ' (' + pcolShown(v.unit) + ')' + (!twin ? '' : v.cli === 'samples' ? ' [each source\'s own count: --value samples]' : ' [--value ' + pcolIso(v.cli) + ']');
}
function header() {
  document.title = pcolIso(M.title) + ' \u2014 pcol report';
  $('title').textContent = pcolShown(M.title);
  /* the duration the sources state, as `pcol top`'s Duration line
   * (report.c duration_ns); else the samples' extent: a source's length
   * to its last sample's end, a point sample of a sampler with an interval
   * lasting that interval (summaryRprof's sampling.time: samples x
   * interval) */
  var durs = M.sources.filter(function (s) { return s.timed; }).map(function (s) {
    var pt = s.interval_ns > 0 && !(s.dlast > 0) && s.tlast === s.t1; /* the last row's (report.c) */
    return (s.t1 + (pt ? s.interval_ns : 0) - Math.min(0, s.t0)) / 1e9;
  });
  $('facts').innerHTML = '<b>' + N.toLocaleString('en') + '</b> sample rows in <b>' + M.sources.length + '</b> source' + (M.sources.length === 1 ? '' : 's') +
    (M.duration_ns ? ', duration <b>' + pcolTimeText(M.duration_ns) + '</b>' :
     durs.length ? ', <b>' + pcolTimeText(Math.round(1e9 * Math.max.apply(null, durs))) + '</b> long' : ', no sample times') +
    '; values: ' + M.values.map(function (v) { return '<b class="name">' + esc(valueName(v)) + '</b>' + (v.level ? ' (level)' : ''); }).join(', ') +
    '; ' + esc(M.tool) + ', format ' + esc(M.format) + ', ' + M.file_size.toLocaleString('en') + ' bytes' +
    (DIFF ? '; diff against <b>' + esc(pcolIso(DIFF.path)) + '</b>' : '');
  /* the note the CLI prints on the default value (report.c value_note) */
  $('value-note').textContent = M.value_note === undefined ? '' :
    (/^the sources measure/.test(M.value_note) ? 'warning: ' : 'note: ') + pcolShown(M.value_note);
  var h = '<table><tr><th>source</th><th>type</th><th>uri</th><th>samples</th><th>time span</th><th>default value</th></tr>';
  M.sources.forEach(function (s) {
    /* a source's name as a function's (rd17a F8): shown, its cell isolated (td.name) */
    h += '<tr><td>' + s.id + '</td><td class="name">' + esc(pcolShown(s.type)) + '</td><td class="name">' + esc(pcolShown(s.uri)) + '</td><td>' + (s.row1 - s.row0) +
      '</td><td>' + (s.timed ? secs(s.t0) + ' \u2013 ' + secs(s.t1) : 'no times') + '</td><td class="name">' + esc(pcolShown(M.values[s.value].cli)) + '</td></tr>';
  });
  h += '</table><table><tr><th>table</th><th>rows</th></tr>';
  Object.keys(M.tables).forEach(function (t) { h += '<tr><td>' + esc(t) + '</td><td>' + M.tables[t] + '</td></tr>'; });
  $('info').innerHTML = h + '</table>';
  $('footer').textContent = 'Made by ' + M.tool + ' report from ' + pcolIso(M.path) + '. Numbers as `pcol top`: a long sample cut by the range counts the ticks inside it (spec.md \u00a77).';
  var vs = $('value');
  /* levels (Rprof's memory snapshots) are drawn as the memory line, never summed */
  M.values.forEach(function (v, i) { if (v.level) return; var o = document.createElement('option'); o.value = i; o.textContent = valueName(v); vs.appendChild(o); });
  vs.value = S.value;
  var ss = $('source');
  [{ id: 0, type: 'all', uri: '' }].concat(M.sources).forEach(function (s) {
    var o = document.createElement('option'); o.value = s.id;
    o.textContent = s.id ? '#' + s.id + ' ' + pcolShown(s.type) + ' ' + pcolIso(pcolCut(pcolShown(s.uri), 40, '\u2026', true)) : 'all sources';
    ss.appendChild(o);
  });
  if (M.sources.length < 2) ss.disabled = true;
  /* the other values are in the page's second part, still being read: offered once it is in */
  if (M.bin2_len !== undefined) vs.disabled = ss.disabled = true;
}

/* ------------------------------------------------------------ events */
function wire() {
  $('value').addEventListener('change', function () { S.value = +this.value; S.valueTouched = true; recompute(); });
  $('source').addEventListener('change', function () {
    S.source = +this.value;
    if (!S.valueTouched) { S.value = S.source ? M.sources[S.source - 1].value : M.value; $('value').value = S.value; }
    recompute();
  });
  $('by').addEventListener('change', function () { S.by = this.value; recompute(); });
  $('top-scroll').addEventListener('scroll', function () { drawTopRows(); });
  $('top').addEventListener('click', function (ev) {
    var tr = ev.target.closest('tr[data-i]');
    if (tr && S.by === 'function') pick(TROWS[+tr.getAttribute('data-i')].name);
  });
  wireTree();
  wireStackChart();
  wireGraph();
  wireRefine();
  $('raw').addEventListener('change', function () { S.raw = this.checked; recompute(); });
  /* divide by (--divide-by F): read as the CLI reads it (units.js
   * pcolDivideBy); a refused F is said, and the divisor before it kept */
  $('divide-by').value = M.divide_by ? String(M.divide_by) : '';
  $('divide-by').addEventListener('change', function () {
    try { S.ratio = pcolDivideBy(this.value); this.classList.remove('bad'); $('filter-error').textContent = ''; }
    catch (e) { this.classList.add('bad'); $('filter-error').textContent = e.message; return; }
    recompute();
  });
  $('focus').addEventListener('change', function () { S.focus = regex(this.value, this); recompute(); });
  $('ignore').addEventListener('change', function () { S.ignore = regex(this.value, this); recompute(); });
  /* the tag filters: a bad one (an unknown key, a numeric range) is said
   * and left off, as the CLI refuses it */
  function tagInput(id, field) {
    $(id).addEventListener('change', function () {
      var was = S[field];
      S[field] = this.value || null;
      try { S.lskeep = pcolTagKeep(D, S.tag, S.tagIgnore); this.classList.remove('bad'); $('filter-error').textContent = ''; }
      catch (e) { S[field] = null; S.lskeep = pcolTagKeep(D, S.tag, S.tagIgnore); this.classList.add('bad'); $('filter-error').textContent = e.message; if (was === null) return; }
      recompute();
    });
  }
  /* hide and show: the frames left make the keys and the frame tree
   * again (hide.js); every view reads them through D */
  function hideInput(id, field) {
    $(id).addEventListener('change', function () {
      S[field] = regex(this.value, this);
      setData(pcolHidden(D0, S.hide, S.show));
      /* node ids of another tree: views opened on the old one start over */
      flameKids();
      forgetLeaf(); S.zoom = 0; TV.open = {}; TV.cur = 0; TV.inv = null;
      recompute();
    });
  }
  hideInput('hide', 'hide');
  hideInput('show', 'show');
  tagInput('tag', 'tag');
  tagInput('tag-ignore', 'tagIgnore');
  $('filter').addEventListener('input', function () { S.filter = regex(this.value, this); drawTop(); });
  /* the tracks box: the timeline and stack chart's tracks (timeline.js pickTracks) */
  $('track-filter').addEventListener('change', function () { TL.filter = regex(this.value, this); TL.filterText = TL.filter ? this.value : ''; drawTimeline(); drawStackChart(); });
  $('search').addEventListener('input', function () { S.search = regex(this.value, this); drawFlame(); });
  $('unzoom').addEventListener('click', function () { S.zoom = 0; drawFlame(); });
  $('clear').addEventListener('click', function () { api.select(null); });
  var fc = $('flame');
  fc.addEventListener('click', function (ev) { var r = frameAt(ev); if (r && r.n >= 0) { S.zoom = r.n; drawFlame(); if (r.n) pick(fname(r.n)); } });
  fc.addEventListener('mousemove', function (ev) { /* a grey box of depths cut: what it hides, its tooltip the stacks ending there (text, never markup) */
    var r = frameAt(ev);
    $('details').textContent = r ? r.n < 0 ? flameCutInfo(r, false) : frameInfo(r.n) : '\u00a0';
    fc.title = r && r.n < 0 ? flameCutInfo(r, true) : '';
  });
  fc.addEventListener('mouseleave', function () { $('details').textContent = '\u00a0'; fc.title = ''; });
  /* brush: drag on the timeline */
  var tl = $('timeline'), start = null;
  function px(ev) { var b = tl.getBoundingClientRect(); return Math.min(Math.max(ev.clientX - b.left, TL.L), TL.W - TL.R); }
  tl.addEventListener('mousedown', function (ev) { if (!TL.tracks.length) return; start = px(ev); ev.preventDefault(); });
  tl.addEventListener('mousemove', function (ev) { /* a track's whole name on its label (the drawn one may be cut) */
    var b = tl.getBoundingClientRect(), k = Math.floor((ev.clientY - b.top - TL.AX) / (TL.TH + 4));
    tl.title = ev.clientX - b.left < TL.L && k >= 0 && k < TL.tracks.length ? TL.tracks[k].tip : '';
  });
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
  window.addEventListener('resize', function () { clearTimeout(rt); rt = setTimeout(function () { drawFlame(); drawTimeline(); drawStackChart(); }, 100); });
}

/* For people scripting the page, and for tests: the state and a few calls. */
var api = window.pcolReport = {
  meta: M,
  state: S,
  select: function (from, to) { S.range = from === null || from === undefined ? null : [from, to]; recompute(); },
  timeToX: function (t) { return tx(t) + $('timeline').getBoundingClientRect().left; },
  samples: function () { /* the long samples on the timeline: [row, time, duration] */
    var out = [], TIME = D.TIME, DUR = D.DUR;
    for (var i = 0; i < N; i++) if (DUR[i] > 0 && TIME[i] === TIME[i]) out.push([i, TIME[i], DUR[i]]);
    return out;
  },
  /* the flame graph's frames as drawn (not its grey boxes of depths cut: cuts()) */
  frames: function () {
    return FL.rects.filter(function (r) { return r.n >= 0; }).map(function (r) {
      return { n: r.n, name: fname(r.n), x: r.x, y: r.y, w: r.w, d: r.d, dim: r.dim, parent: FTP[r.n], fill: colour(r.n, false),
               base: DIFF && DIFF.base ? DIFF.base[r.n] : null };
    });
  },
  /* the flame graph's grey boxes of depths cut, [{name, x, y, w, d, hit, frames}] (flame.js FL.ROWS; hit: the search
   * matches a frame it hides, frames: how many it hides) */
  flameCuts: function () { return FL.rects.filter(function (r) { return r.n < 0; }).map(function (r) { return { name: flameBoxName(r.n), x: r.x, y: r.y, w: r.w, d: r.d, hit: r.box.hit, frames: r.box.frames }; }); },
  zoomed: function () { return S.zoom; },
  /* the timeline's tracks as drawn: [{label, shown, src, times, span}] (shown: the label's lines drawn; times: the
   * track's samples' times; span: the stack chart's time of its samples
   * with a stack, ns, report.c spans: each from its time, or where the one
   * before it is drawn to, as the chart draws a pixel column's first
   * sample) */
  tracks: function () {
    return TL.tracks.map(function (tr) {
      var t = [], s = tr.src, sp = 0, end = -Infinity;
      for (var i = s.row0 + s.na; i < s.row1; i++)
        if (tr.thr < 0 || D.THR[i] === tr.thr) {
          var a = D.TIME[i], e = a + Math.max(D.SPAN[i], 0);
          t.push(a);
          if (D.STK[i] && e > Math.max(a, end)) sp += e - Math.max(a, end);
          if (e > end) end = e;
        }
      return { label: tr.label, shown: tr.shown, src: s.id, times: t, span: sp };
    });
  },
  /* the stack chart as drawn: its tracks [{label, shown, y, h}] (shown: the
   * label's lines drawn) and boxes [{name, frame, x, y, w, h}] (frame: false
   * for a deep stack's box of cut frames), in the canvas's pixels */
  stackTracks: function () { return stackTracks(); },
  /* the box a hover at (x, y), the canvas's pixels, finds: {i: its index in stackBoxes() or -1, probes: the rows and boxes it looked at} */
  stackHit: function (x, y) { return stackHit(x, y); },
  /* every track, drawn or not: {max: TL.MAX, all: [{label, total, drawn}]} (total: of the page's value, which ranks them) */
  trackList: function () { return { max: TL.MAX, all: TL.all.map(function (tr) { return { label: tr.label, total: tr.total, drawn: TL.tracks.indexOf(tr) >= 0 }; }) }; },
  stackBoxes: function () { return stackBoxes(); },
  /* the flame graph's boxes as drawn, in the order drawn, grey boxes too: [{x, y, w, h}], the canvas's pixels */
  flameBoxes: function () { return FL.rects.map(function (r) { return { x: r.x, y: r.y, w: r.w, h: FH }; }); },
  /* the box a hover at (x, y) finds: {i: its index in flameBoxes() or -1, probes: the rows and boxes it looked at} */
  flameHit: function (x, y) { return flameHit(x, y); },
  /* every row of the top table as its cells read (the table draws only those in view) */
  topRows: function () { return TROWS.map(function (r) { return { flat: r.flat, cum: r.cum, bflat: r.bflat, bcum: r.bcum, cells: topCells(r) }; }); },
  treeRows: function () { return TV.rows.map(function (r) { return { id: r.id, name: r.name, w: r.w, d: r.d, kids: r.kids, open: !!TV.open[r.id], hit: r.hit }; }); },
  treeCur: function () { return TV.cur; },
  peek: function () { return S.fn && PEEK ? PEEK : null; },
  source: function () { /* the source pane's rows: [line, flat, cum, text] */
    return Array.prototype.map.call(document.querySelectorAll('#source-lines tr'), function (tr) {
      return [+tr.getAttribute('data-line'), +tr.getAttribute('data-flat'), +tr.getAttribute('data-cum'), tr.lastChild.textContent]; });
  },
  pick: function (name) { pick(name); },
  /* the refine menu as open: [the function, its buttons' kinds] or null */
  refineMenu: function () {
    var m = $('refine');
    return m.style.display === 'block' ? [RF.name, Array.prototype.map.call(m.querySelectorAll('button'), function (b) { return b.getAttribute('data-k'); })] : null;
  },
  /* the call graph as graph.js computed it: nodes [{name, flat, cum, inl}], edges [{from, to, w, inl, res}], tags (its label boxes, graphtags.js) */
  graph: function () { var G = GV.graph; return G ? { nodes: G.nodes, edges: G.edges, tags: G.tags, total: G.total, drawn: GV.shown } : null; },
  graphNodeAt: function (i) { /* the screen centre of drawn node i, for a real click */
    var g = document.querySelector('#graph g.gv-node[data-i="' + i + '"] rect');
    if (!g) return null;
    g.scrollIntoView({ block: 'center', inline: 'center' });
    var b = g.getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
  },
  fold: function () { /* name path and total of each node: for checks */
    var out = [];
    for (var i = 1; i < FT.n; i++) out.push({ n: i, parent: FTP[i], name: fname(i), total: FL.total[i], self: FL.self[i] });
    return out;
  }
};
onPick(function () {
  drawPeek();
  drawTopRows();
  drawSource();
});
pcolStart(function () {
  flameKids();
  header();
  topHead();
  wire();
  recompute();
}, function () { /* the samples are here: the timeline and the stack chart */
  timelineTracks();
  drawTimeline();
  drawStackChart();
}, function () { /* the second part is here: the memory line, the other values */
  if (M.memory) drawTimeline();
  $('value').disabled = false;
  $('source').disabled = M.sources.length < 2;
  document.body.setAttribute('data-ready', '1');
  pcolMark('pcol-complete');
});
