/* graphview.js — the call graph view: `pcol graph`'s nodes and edges for
 * the selection (graph.js), pruned by the node fraction, edge fraction and
 * node count of the controls (pprof's defaults), laid out top-down in
 * layers as dot draws pprof's graph, in SVG made here (no library).  A
 * node's text grows with its flat (pprof's font size), an edge's width
 * with its weight, dotted when residual; colours are pprof's (dotColor).
 * Clicking a node focuses on it (by function) and picks it.  Every name is
 * set as text (textContent), never as markup. */
import { pcolCut, pcolFmt2, pcolIso, pcolShown, pcolViewUnit } from './units.js';
import { pcolGraph } from './graph.js';
import { pcolGoRegExp } from './regex.js';
import { pcolInlineText, pcolKeyset, pcolPct } from './top.js';
import { $, D, DIFF, human, pick, S, SW, unitOf } from './head.js';
import { refineMenu, tagRefineMenu } from './refine.js';
export var GV = { graph: null, shown: 0 };
var SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs, parent) {
  var e = document.createElementNS(SVGNS, tag);
  for (var a in attrs) e.setAttribute(a, attrs[a]);
  if (parent) parent.appendChild(e);
  return e;
}
/* pprof's dotColor (driver's dotgraph.go): red for heavy, grey for light;
 * score in [-1, 1] */
/* pprof -diff_base's score of a node: its change of cum over the base's
 * total (the values are new - base, the total the base's), so red grows,
 * green shrinks, grey stays, deeper with the change */
function pcolDiffScore(cum, bcum, btotal) { return btotal ? (cum - bcum) / Math.abs(btotal) : 0; }
function pcolDotColor(score, bg) {
  var sat = bg ? 0.1 : 1, val = bg ? 0.93 : 0.7;
  score = Math.max(-1, Math.min(1, score));
  if (Math.abs(score) < 0.2) sat *= Math.abs(score) / 0.2;
  if (score > 0) score = Math.pow(score, 0.3);
  if (score < 0) score = -Math.pow(-score, 0.3);
  var r, g, b;
  if (score < 0) { g = val; r = val * (1 + sat * score); } else { r = val; g = val * (1 - sat * score); }
  b = val * (1 - sat);
  function h(x) { var s = Math.floor(x * 255) & 255; return (s < 16 ? '0' : '') + s.toString(16); }
  return '#' + h(r) + h(g) + h(b);
}
/* a node's label lines as pprof splits a name: the package path's last
 * element and the rest at its dots (runtime.mapiternext -> runtime /
 * mapiternext), each shown (pcolShown) and cut to 60 (rd17b F4: cut, then
 * shown, a line grew past its bound) */
function graphNameLines(name) {
  var base = name, sp = name.indexOf(' ');
  var head = sp > 0 ? name.slice(0, sp) : name, tail = sp > 0 ? name.slice(sp + 1) : '';
  var slash = head.lastIndexOf('/', head.indexOf('(') >= 0 ? head.indexOf('(') : head.length);
  base = slash >= 0 ? head.slice(slash + 1) : head;
  var dot = base.indexOf('.'), lines = dot > 0 ? [base.slice(0, dot), base.slice(dot + 1)] : [base];
  if (tail) lines.push(pcolCut(pcolShown(tail), 60, '\u2026', true));
  return lines.map(function (l) { return pcolCut(pcolShown(l), 60, '\u2026'); });
}
/* Layers: cycles broken depth first from the nodes in pprof's order (an
 * edge back to a node on the path is drawn upward), each node one layer
 * below its deepest caller, then the order in each layer by the mean
 * position of its neighbours (a few sweeps down and up). */
function graphLayout(G) {
  var n = G.nodes.length, outs = [], ins = [], i, j;
  for (i = 0; i < n; i++) { outs.push([]); ins.push([]); }
  var state = new Uint8Array(n), back = new Uint8Array(G.edges.length);
  G.edges.forEach(function (e, k) { outs[e.from].push(k); ins[e.to].push(k); });
  var roots = [];
  for (i = 0; i < n; i++) if (!ins[i].length) roots.push(i);
  for (i = 0; i < n; i++) roots.push(i);
  roots.forEach(function (r) { /* iterative DFS: state 1 on the path, 2 done */
    if (state[r]) return;
    var stk = [[r, 0]];
    state[r] = 1;
    while (stk.length) {
      var top = stk[stk.length - 1], x = top[0];
      if (top[1] < outs[x].length) {
        var k = outs[x][top[1]++], y = G.edges[k].to;
        if (state[y] === 1) back[k] = 1;
        else if (!state[y]) { state[y] = 1; stk.push([y, 0]); }
      } else { state[x] = 2; stk.pop(); }
    }
  });
  /* longest path layering over the forward edges (Kahn's order) */
  var layer = new Int32Array(n), indeg = new Int32Array(n), q = [];
  G.edges.forEach(function (e, k) { if (!back[k] && e.from !== e.to) indeg[e.to]++; });
  for (i = 0; i < n; i++) if (!indeg[i]) q.push(i);
  for (var h = 0; h < q.length; h++) {
    var x = q[h];
    outs[x].forEach(function (k) {
      var e = G.edges[k];
      if (back[k] || e.from === e.to) return;
      if (layer[e.to] < layer[x] + 1) layer[e.to] = layer[x] + 1;
      if (--indeg[e.to] === 0) q.push(e.to);
    });
  }
  var L = [], pos = new Float64Array(n);
  for (i = 0; i < n; i++) { while (L.length <= layer[i]) L.push([]); L[layer[i]].push(i); }
  L.forEach(function (l) { l.forEach(function (v, k) { pos[v] = k; }); });
  function sweep(down) {
    var order = down ? L : L.slice().reverse();
    order.forEach(function (l) {
      var bc = {};
      l.forEach(function (v) {
        var s = 0, c = 0, list = down ? ins[v] : outs[v];
        list.forEach(function (k) { var e = G.edges[k], o = down ? e.from : e.to; if (layer[o] !== layer[v]) { s += pos[o]; c++; } });
        bc[v] = c ? s / c : pos[v];
      });
      l.sort(function (a, b) { return bc[a] - bc[b] || a - b; });
      l.forEach(function (v, k) { pos[v] = k; });
    });
  }
  for (j = 0; j < 4; j++) { sweep(true); sweep(false); }
  return { layers: L, layer: layer, back: back };
}
export function drawGraph() {
  var svg = $('graph'), note = $('graph-note');
  if (!svg) return;
  var o = { nodeFraction: graphOpt('graph-nf', 0.005), edgeFraction: graphOpt('graph-ef', 0.001), nodeCount: Math.round(graphOpt('graph-nc', 80)),
            tagShow: graphRx('graph-tagshow'), tagHide: graphRx('graph-taghide') };
  var G = GV.graph = pcolGraph(D, S, SW, pcolKeyset(D, S, S.by, true), o);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  var tot = G.total, n = G.nodes.length, u = pcolViewUnit(G.nodes, tot, unitOf(), S.ratio); /* pcol graph's unit */
  note.textContent = 'by ' + S.by + '; showing ' + n + ' nodes accounting for ' + human(G.shown, u) + ', ' + pcolFmt2(pcolPct(G.shown, tot)) + '% of ' + human(tot, u) +
    (G.droppedNodes ? '; dropped ' + G.droppedNodes + ' nodes (cum <= ' + human(G.nodeCutoff, u) + ')' : '') +
    (G.droppedEdges ? '; dropped ' + G.droppedEdges + ' edges (freq <= ' + human(G.edgeCutoff, u) + ')' : '') +
    (o.nodeCount > 0 && n < G.origCount ? '; top ' + n + ' nodes out of ' + G.origCount : '');
  if (graphDiffCum()) note.textContent += '; coloured by the change against ' + pcolIso(DIFF.path) + ' (whole base; nodes: cum, edges: weight): red grew, green shrank, grey the same (pprof -diff_base)';
  GV.shown = Math.min(n, 2000); /* a drawing of more is no help; the numbers stay whole */
  if (n > GV.shown) note.textContent += '; the first ' + GV.shown + ' are drawn';
  if (!n) { svg.setAttribute('width', 10); svg.setAttribute('height', 10); return; }
  var Gd = { nodes: G.nodes.slice(0, GV.shown), edges: G.edges.filter(function (e) { return e.from < GV.shown && e.to < GV.shown; }) };
  var lay = graphLayout(Gd), maxFlat = 0;
  Gd.nodes.forEach(function (x) { maxFlat = Math.max(maxFlat, Math.abs(x.flat)); });
  /* sizes: pprof's font size 8 + ceil(16 sqrt(|flat| / max flat)) */
  var box = Gd.nodes.map(function (x) {
    var fs = 8 + (maxFlat ? Math.ceil(16 * Math.sqrt(Math.abs(x.flat) / maxFlat)) : 0);
    var lines = graphNameLines(x.name);
    /* pprof's lines: "flat (flat%)" and "of cum (cum%)", or "0 of cum (cum%)" */
    var cum = 'of ' + human(x.cum, u) + ' (' + pcolFmt2(pcolPct(x.cum, tot)) + '%)';
    if (x.flat === 0) lines.push('0 ' + cum);
    else {
      lines.push(human(x.flat, u) + ' (' + pcolFmt2(pcolPct(x.flat, tot)) + '%)');
      if (x.cum !== x.flat) lines.push(cum);
    }
    var wmax = 0;
    lines.forEach(function (l) { wmax = Math.max(wmax, l.length); });
    return { fs: fs, lines: lines, w: Math.max(40, wmax * fs * 0.58 + 12), h: lines.length * fs * 1.2 + 8 };
  });
  /* the label boxes (graphtags.js) under each node: its string boxes and
   * own numbers in a row, each string box's numbers below it */
  var tb = G.tags.map(function (t) {
    var wmax = 0;
    t.lines.forEach(function (l) { wmax = Math.max(wmax, Array.from(pcolCut(pcolShown(l), 60, '\u2026')).length); });
    return { w: wmax * 8 * 0.62 + 12, h: t.lines.length * 10 + 8 };
  });
  var tcol = Gd.nodes.map(function () { return []; });
  G.tags.forEach(function (t, j) { if (t.node < GV.shown && !t.parent) tcol[t.node].push([j]); });
  G.tags.forEach(function (t, j) {
    if (t.node >= GV.shown || !t.parent) return;
    tcol[t.node].forEach(function (c) { if (c[0] === t.parent - 1) c.push(j); });
  });
  box.forEach(function (b, i) {
    var tw = 0, th = 0;
    tcol[i].forEach(function (c) {
      var cw = 0, ch = 0;
      c.forEach(function (j) { cw = Math.max(cw, tb[j].w); ch += tb[j].h + 12; });
      c.w = cw; tw += cw + 6; th = Math.max(th, ch);
    });
    b.tw = tw; b.th = th ? th + 10 : 0; b.nh = b.h;
    b.w = Math.max(b.w, tw); b.h += b.th;
  });
  var GAPX = 24, GAPY = 56, y = 10, width = 0, X = new Float64Array(Gd.nodes.length), Y = new Float64Array(Gd.nodes.length);
  var rowsW = lay.layers.map(function (l) { return l.reduce(function (s, v) { return s + box[v].w + GAPX; }, 0); });
  rowsW.forEach(function (w) { width = Math.max(width, w); });
  lay.layers.forEach(function (l, li) {
    var x = (width - rowsW[li]) / 2 + 10, hmax = 0;
    l.forEach(function (v) { X[v] = x + box[v].w / 2; Y[v] = y; x += box[v].w + GAPX; hmax = Math.max(hmax, box[v].h); });
    y += hmax + GAPY;
  });
  svg.setAttribute('width', width + 20);
  svg.setAttribute('height', y);
  var ge = svgEl('g', { 'class': 'gv-edges' }, svg), gn = svgEl('g', { 'class': 'gv-nodes' }, svg), dc = graphDiffCum();
  Gd.edges.forEach(function (e, k) {
    var a = e.from, b = e.to, frac = tot ? Math.abs(e.w) / Math.abs(tot) : 0;
    var x1 = X[a], y1 = Y[a] + box[a].nh, x2 = X[b], y2 = Y[b], d, cx, cy; /* cx, cy: the last control point */
    if (a === b) { x2 = x1 + box[a].w / 2; y2 = Y[a] + 2 * box[a].h / 3; cx = x2 + 40; cy = y2; d = 'M' + x2 + ',' + (Y[a] + box[a].h / 3) + ' C' + (x2 + 40) + ',' + (Y[a] + box[a].h / 3 - 10) + ' ' + cx + ',' + cy + ' ' + x2 + ',' + y2; }
    else if (y2 > y1) { var m = (y1 + y2) / 2; cx = x2; cy = m; d = 'M' + x1 + ',' + y1 + ' C' + x1 + ',' + m + ' ' + x2 + ',' + m + ' ' + x2 + ',' + y2; }
    else { /* upward (a cycle): around the right */
      var xs = Math.max(X[a] + box[a].w / 2, X[b] + box[b].w / 2) + 30;
      cx = xs; cy = y2 - 40;
      d = 'M' + x1 + ',' + y1 + ' C' + xs + ',' + (y1 + 40) + ' ' + xs + ',' + (y2 - 40) + ' ' + x2 + ',' + y2;
    }
    /* on a --diff page, by its change against the base's weight of the
     * same call (pprof -diff_base: the edge's new - base over the base's total) */
    var bw = dc ? dc.edges.get(Gd.nodes[a].name + '\0' + Gd.nodes[b].name) || 0 : 0;
    var col = pcolDotColor(dc ? pcolDiffScore(e.w, bw, dc.total) : tot ? e.w / Math.abs(tot) : 0, false);
    var sw = Math.floor(1 + 5 * Math.min(1, frac));
    var p = svgEl('path', { d: d, fill: 'none', stroke: col, 'stroke-width': sw, 'data-e': k }, ge);
    /* the arrowhead: a triangle along the curve's last direction */
    var ang = Math.atan2(y2 - cy, x2 - cx), L = 7 + sw, W = 3.5 + sw / 2;
    var bx = x2 - L * Math.cos(ang), by = y2 - L * Math.sin(ang);
    svgEl('polygon', { points: x2 + ',' + y2 + ' ' + (bx + W * Math.sin(ang)) + ',' + (by - W * Math.cos(ang)) + ' ' + (bx - W * Math.sin(ang)) + ',' + (by + W * Math.cos(ang)), fill: col }, ge);
    if (e.res) p.setAttribute('stroke-dasharray', '2,3');
    if (dc) p.setAttribute('data-delta', e.w - bw);
    svgEl('title', {}, p).textContent = pcolIso(Gd.nodes[a].name) + ' -> ' + pcolIso(Gd.nodes[b].name) + ' (' + human(e.w, u) + ')' + (e.inl ? ' (inline)' : '') +
      (dc ? '; change against the base ' + (e.w - bw > 0 ? '+' : '') + human(e.w - bw, u) : '');
    var t = svgEl('text', { x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2, 'font-size': 10, fill: '#555', 'class': 'gv-elabel' }, ge);
    t.textContent = human(e.w, u) + (e.inl ? ' (inline)' : '');
  });
  Gd.nodes.forEach(function (x, i) {
    var b = box[i], g = svgEl('g', { 'class': 'gv-node' + (S.fn && S.fn.name === x.name ? ' picked' : ''), 'data-i': i, transform: 'translate(' + (X[i] - b.w / 2) + ',' + Y[i] + ')' }, gn);
    graphTagBoxes(gn, tcol[i], tb, G.tags, X[i] - b.tw / 2, Y[i] + b.nh, X[i], u);
    var score = dc ? pcolDiffScore(x.cum, dc.cum.get(x.name) || 0, dc.total) : tot ? x.cum / Math.abs(tot) : 0;
    if (dc) g.setAttribute('data-delta', x.cum - (dc.cum.get(x.name) || 0));
    svgEl('rect', { width: b.w, height: b.nh, rx: 2, fill: pcolDotColor(score, true), stroke: pcolDotColor(score, false) }, g);
    var dtext = '';
    if (dc) { var dd = x.cum - (dc.cum.get(x.name) || 0); dtext = '; change of cum against the base ' + (dd > 0 ? '+' : '') + human(dd, u); }
    svgEl('title', {}, g).textContent = pcolIso(x.name) + ' (' + human(x.cum, u) + ')' + (x.inl ? ' (' + pcolInlineText(x.inl) + ')' : '') + dtext;
    b.lines.forEach(function (l, j) {
      svgEl('text', { x: b.w / 2, y: 4 + (j + 1) * b.fs * 1.2 - b.fs * 0.25, 'font-size': b.fs, 'text-anchor': 'middle' }, g).textContent = l;
    });
  });
}
/* A node's label boxes (box3d as pprof's: a rectangle with a depth edge),
 * columns cols of indexes into tags, from x0 under a node ending at y0 (its
 * centre cx); each box's text shown (pcolShown) and cut, its weight on its
 * edge, dotted as pcol graph's; a string box is clicked for tag focus
 * (graphTagClick) */
function graphTagBoxes(gn, cols, tb, tags, x0, y0, cx, u) {
  var x = x0;
  cols.forEach(function (c) {
    var y = y0 + 10, px = cx, py = y0;
    c.forEach(function (j) {
      var t = tags[j], s = tb[j], bx = x + (c.w - s.w) / 2;
      var p = svgEl('line', { x1: px, y1: py, x2: bx + s.w / 2, y2: y + 12, stroke: '#999' }, gn);
      if (t.dotted) p.setAttribute('stroke-dasharray', '2,3');
      var g = svgEl('g', { 'class': 'gv-tag', 'data-t': j, transform: 'translate(' + bx + ',' + (y + 12) + ')' }, gn);
      svgEl('path', { d: 'M0,3 L3,0 L' + s.w + ',0 L' + s.w + ',' + (s.h - 3) + ' L' + (s.w - 3) + ',' + s.h + ' L0,' + s.h + ' Z M0,3 L' + (s.w - 3) + ',3 L' + s.w + ',0 M' + (s.w - 3) + ',3 L' + (s.w - 3) + ',' + s.h,
        fill: '#f8f8f8', stroke: '#888' }, g);
      svgEl('title', {}, g).textContent = t.lines.map(pcolIso).join('\n') + ' (' + human(t.w, u) + ')' + (t.numeric ? '' : '; click: tag focus');
      t.lines.forEach(function (l, k) {
        svgEl('text', { x: s.w / 2, y: 12 + k * 10, 'font-size': 8, 'text-anchor': 'middle' }, g).textContent = pcolCut(pcolShown(l), 60, '\u2026');
      });
      svgEl('text', { x: bx + s.w / 2 + 4, y: y + 8, 'font-size': 8, fill: '#555', 'class': 'gv-tlabel' }, gn).textContent = human(t.w, u);
      px = bx + s.w / 2; py = y + 12 + s.h; y += s.h + 12;
    });
    x += c.w + 6;
  });
}
/* a label box clicked: a string box offers tag focus (the tag box, pcol
 * --tag), a number says the page leaves numeric ranges to the CLI */
function graphTagClick(j, ev) {
  var t = GV.graph && GV.graph.tags[j];
  if (t) tagRefineMenu(t, ev);
}
function graphRx(id) {
  var el = $(id), re = null;
  if (!el || !el.value) { if (el) el.classList.remove('bad'); return null; }
  try { re = pcolGoRegExp(el.value); } catch (e) { re = null; }
  el.classList.toggle('bad', !re);
  return re;
}
/* On a --diff page: the base's cum by name and each call's weight by
 * "caller\0callee" (whole base, the table's key kind, no pruning) and its
 * total, or null */
function graphDiffCum() {
  var bt = DIFF && DIFF.top && DIFF.top[S.value] && DIFF.top[S.value][S.by];
  if (!bt) return null;
  if (!bt.cumBy) {
    var m = new Map(), em = new Map(), E = bt.edges, i;
    for (i = 0; i < bt.names.length; i++) m.set(bt.names[i], (m.get(bt.names[i]) || 0) + bt.cum[i]);
    for (i = 0; E && i < E.w.length; i++) {
      var k = E.names[E.from[i]] + '\0' + E.names[E.to[i]];
      em.set(k, (em.get(k) || 0) + E.w[i]);
    }
    bt.cumBy = m; bt.edgesBy = em;
  }
  return { cum: bt.cumBy, edges: bt.edgesBy, total: bt.total };
}
function graphOpt(id, def) {
  var el = $(id), v = el ? parseFloat(el.value) : NaN;
  if (el) el.classList.toggle('bad', el.value !== '' && !(v >= 0));
  return v >= 0 ? v : def;
}
/* a node clicked (or its context menu): by function, pick it and offer
 * the refine menu (refine.js: focus, ignore, hide, show); by line or file
 * a node is no function name: pick it */
function graphClick(i, ev) {
  var x = GV.graph && GV.graph.nodes[i];
  if (!x) return;
  if (S.by === 'function') {
    pick(x.name);
    Array.prototype.forEach.call($('graph').querySelectorAll('g.gv-node'), function (g) { g.classList.toggle('picked', +g.getAttribute('data-i') === i); });
    refineMenu(x.name, ev);
  } else pick(x.name);
}
export function wireGraph() {
  function onNode(ev) {
    var tg = ev.target.closest && ev.target.closest('g.gv-tag');
    if (tg) { ev.preventDefault(); ev.stopPropagation(); graphTagClick(+tg.getAttribute('data-t'), ev); return; }
    var g = ev.target.closest && ev.target.closest('g.gv-node');
    if (!g) return;
    ev.preventDefault();
    ev.stopPropagation();
    graphClick(+g.getAttribute('data-i'), ev);
  }
  $('graph').addEventListener('click', onNode);
  $('graph').addEventListener('contextmenu', onNode);
  ['graph-nf', 'graph-ef', 'graph-nc', 'graph-tagshow', 'graph-taghide'].forEach(function (id) { $(id).addEventListener('change', drawGraph); });
}
