/* treeview.js — the call tree (top-down, or inverted: functions with self
 * weight at the root, their callers below), opened and closed with the
 * mouse or the keyboard (up/down move, right/left open/close, enter
 * picks), and the callers/callees panel of the picked function (pcol peek's
 * numbers, tree.js).  Both follow the selection. */
import { pcolIso, pcolPercentage, pcolShown, pcolViewUnit } from './units.js';
import { pcolKeyset, pcolTop } from './top.js';
import { pcolFname, pcolInvertedChildren, pcolInvertedRoots, pcolPeek, pcolTreeChildren } from './tree.js';
import { $, D, FT, FTP, human, pick, regex, S, SW, TOP, TOPU, unitOf } from './head.js';
import { FKIDS, FL } from './flame.js';
export var TV = { mode: 'top', open: {}, rows: [], cur: 0, inv: null, search: null };
function treeRows() {
  var out = [], sums = FL;
  function walkTop(n, d) {
    pcolTreeChildren(D, FKIDS, sums, n).forEach(function (c) {
      var id = 't' + c.n, kids = FKIDS[c.n].some(function (k) { return sums.total[k] !== 0 || sums.nz[k]; });
      out.push({ id: id, name: c.name, w: c.w, self: c.self, d: d, kids: kids });
      if (kids && TV.open[id] && out.length < 20000) walkTop(c.n, d + 1);
    });
  }
  function walkInv(list, d, pid) {
    list.forEach(function (c) {
      var id = pid + '\u0001' + c.name, kids = c.front.some(function (f) { return D.FTP[f] !== 0; });
      out.push({ id: id, name: c.name, w: c.w, self: d ? null : c.w, d: d, kids: kids });
      if (kids && TV.open[id] && out.length < 20000) walkInv(pcolInvertedChildren(D, c), d + 1, id);
    });
  }
  if (TV.mode === 'top') walkTop(0, 0);
  else walkInv(TV.inv || (TV.inv = pcolInvertedRoots(D, sums)), 0, 'i');
  return out;
}
export function drawTree() {
  TV.rows = treeRows();
  if (TV.cur >= TV.rows.length) TV.cur = Math.max(0, TV.rows.length - 1);
  var box = $('tree'), tot = FL.totalAbs;
  box.textContent = '';
  TV.rows.forEach(function (r, i) {
    var div = document.createElement('div');
    r.hit = !!(TV.search && TV.search.test(r.name));
    div.className = 'trow' + (i === TV.cur ? ' cur' : '') + (r.hit ? ' hit' : '');
    div.setAttribute('data-i', i);
    div.setAttribute('data-w', r.w);
    div.setAttribute('role', 'treeitem');
    if (r.kids) div.setAttribute('aria-expanded', TV.open[r.id] ? 'true' : 'false');
    var num = document.createElement('span');
    num.className = 'tnum';
    num.textContent = human(r.w, TOPU) + ' ' + pcolPercentage(r.w, tot) + (r.self !== null && TV.mode === 'top' ? '  self ' + human(r.self, TOPU) : '');
    var nm = document.createElement('span');
    nm.style.paddingLeft = (r.d * 14) + 'px';
    nm.className = 'tname';
    nm.textContent = (r.kids ? (TV.open[r.id] ? '\u25be ' : '\u25b8 ') : '  ') + pcolShown(r.name);
    div.appendChild(num); div.appendChild(nm);
    box.appendChild(div);
  });
  var hits = TV.rows.filter(function (r) { return r.hit; }).length;
  $('tree-note').textContent = (TV.mode === 'top' ? 'top-down: each frame with its callees below' : 'inverted: functions with self weight, their callers below') +
    (TV.search ? '; ' + hits + ' matching row' + (hits === 1 ? '' : 's') + ' shown' + (TV.capped ? ' (the first ' + TV.capped + ' matches opened)' : '') : '');
}
/* The search box: every frame whose name matches is shown (its callers
 * opened, top-down; in the inverted tree the rows shown are marked), the
 * first match made current; Enter in the box goes to the next. */
var TREE_SEARCH_MAX = 2000;
export function treeSearch(re) {
  TV.search = re;
  TV.capped = 0;
  if (re && TV.mode === 'top') {
    var n = 0;
    for (var i = 1; i < FT.n; i++) {
      if (FL.total[i] === 0 || !re.test(pcolFname(D, i))) continue;
      if (++n > TREE_SEARCH_MAX) { TV.capped = TREE_SEARCH_MAX; break; }
      for (var p = FTP[i]; p; p = FTP[p]) TV.open['t' + p] = true;
    }
  }
  drawTree();
  treeNextHit(-1);
}
function treeNextHit(from) {
  for (var k = 1; k <= TV.rows.length; k++) {
    var i = (from + k) % TV.rows.length;
    if (TV.rows[i].hit) { TV.cur = i; drawTree(); var el = $('tree').children[i]; if (el) el.scrollIntoView({ block: 'nearest' }); return; }
  }
}
function treeToggle(i, open) {
  var r = TV.rows[i];
  if (!r || !r.kids) return;
  TV.open[r.id] = open === undefined ? !TV.open[r.id] : open;
  TV.cur = i;
  drawTree();
}
function treePick(i) {
  var r = TV.rows[i];
  if (!r) return;
  TV.cur = i;
  pick(r.name);
}
export function wireTree() {
  var box = $('tree');
  box.addEventListener('click', function (ev) {
    var el = ev.target.closest('.trow');
    if (!el) return;
    var i = +el.getAttribute('data-i');
    if (ev.offsetX < 400 && ev.target.tagName === 'SPAN' && ev.target.className !== 'tnum') treeToggle(i);
    treePick(i);
    box.focus();
  });
  box.addEventListener('keydown', function (ev) {
    var i = TV.cur, r = TV.rows[i];
    if (ev.key === 'ArrowDown') TV.cur = Math.min(TV.rows.length - 1, i + 1);
    else if (ev.key === 'ArrowUp') TV.cur = Math.max(0, i - 1);
    else if (ev.key === 'ArrowRight' && r) { if (r.kids && !TV.open[r.id]) { treeToggle(i, true); return ev.preventDefault(); } TV.cur = Math.min(TV.rows.length - 1, i + 1); }
    else if (ev.key === 'ArrowLeft' && r) {
      if (TV.open[r.id]) { treeToggle(i, false); return ev.preventDefault(); }
      for (var j = i - 1; j >= 0; j--) if (TV.rows[j].d < r.d) { TV.cur = j; break; }
    } else if (ev.key === 'Enter') { treePick(i); return ev.preventDefault(); }
    else return;
    ev.preventDefault();
    drawTree();
    var el = box.children[TV.cur];
    if (el) el.scrollIntoView({ block: 'nearest' });
  });
  $('tree-mode').addEventListener('change', function () { TV.mode = this.value; TV.open = {}; TV.cur = 0; treeSearch(TV.search); });
  $('tree-search').addEventListener('input', function () { treeSearch(regex(this.value, this)); });
  $('tree-search').addEventListener('keydown', function (ev) { if (ev.key === 'Enter') { treeNextHit(TV.cur); ev.preventDefault(); } });
}
/* ------------------------------------------------- callers / callees */
export function drawPeek() {
  PEEK = null;
  var box = $('peek');
  box.textContent = '';
  if (!S.fn) { $('peek-title').textContent = 'Callers and callees (click a function in a table, tree or flame graph)'; return; }
  var k = pcolKeyset(D, S, 'function'), K = 0;
  for (var i = 0; i < k.names.length && !K; i++) if (k.names[i] === S.fn.name) K = i + 1;
  var row = null, rows = S.by === 'function' ? TOP : pcolTop(D, SW, k), u = pcolViewUnit(rows, SW.total, unitOf(), S.ratio); /* pcol peek's unit */
  rows.forEach(function (r) { if (r.key === K) row = r; });
  $('peek-title').textContent = 'Callers and callees of ' + pcolIso(S.fn.name);
  if (!K || !row) { box.textContent = 'not in this selection'; return; }
  var p = pcolPeek(D, SW, k, K), t = document.createElement('table');
  t.className = 'top';
  function line(cls, a, b, c, name) {
    var tr = document.createElement('tr');
    tr.className = cls;
    [a, b, c, name].forEach(function (x, j) { var td = document.createElement('td'); td.textContent = j === 3 ? pcolShown(x) : x; if (j === 3) td.className = 'name'; tr.appendChild(td); });
    tr.setAttribute('data-name', name);
    t.appendChild(tr);
    return tr;
  }
  var h = line('head', 'weight', 'share', '', 'caller \u2192 function \u2192 callee');
  h.removeAttribute('data-name');
  p.callers.forEach(function (c) { line('caller', human(c.w, u), pcolPercentage(c.w, row.cum), 'caller', c.name).setAttribute('data-w', c.w); });
  var me = line('node', human(row.flat, u), human(row.cum, u), 'flat | cum', S.fn.name);
  me.setAttribute('data-flat', row.flat); me.setAttribute('data-cum', row.cum);
  p.callees.forEach(function (c) { line('callee', human(c.w, u), pcolPercentage(c.w, row.cum), 'callee', c.name).setAttribute('data-w', c.w); });
  box.appendChild(t);
  PEEK = p;
}
export var PEEK = null;
