/* table.js — the top table: every row reachable (virtual scrolling: only
 * the rows in view are in the DOM), full names with the CLI's "(inline)"
 * marks, sortable; on a --diff page, base, new and change columns (diff.js).
 * A click on a row selects its function for the other views. */
import { pcolPercentage, pcolShown } from './units.js';
import { pcolInlineText, pcolTopSort } from './top.js';
import { $, DIFF, DIFFU, human, S, SW, TOP, TOPDIFF, TOPU } from './head.js';
export var TROWS = [], RH = 19;
function topColumns() {
  return DIFF && DIFF.top ? [['bflat', 'base flat'], ['flat', 'new flat'], ['dflat', '\u0394flat'], ['bcum', 'base cum'], ['cum', 'new cum'], ['dcum', '\u0394cum'], ['name', 'name']]
    : [['flat', 'flat'], ['fp', 'flat%'], ['order', 'sum%'], ['cum', 'cum'], ['cp', 'cum%'], ['name', 'name']];
}
export function topHead() {
  var tr = $('top').tHead.rows[0];
  tr.textContent = '';
  topColumns().forEach(function (c) {
    var th = document.createElement('th');
    th.textContent = c[1]; th.setAttribute('data-k', c[0]);
    if (c[0] === 'name') th.className = 'name';
    th.addEventListener('click', function () { S.sortKey = c[0]; drawTop(); });
    tr.appendChild(th);
  });
}
/* one row's cells as text, as the CLI prints them (the browser test reads it) */
export function topCells(r) {
  var nm = r.name + (r.inl ? ' (' + pcolInlineText(r.inl) + ')' : '');
  var u = DIFFU;
  if (DIFF && DIFF.top) return [human(r.bflat, u), human(r.flat, u), sign(r.dflat) + human(r.dflat, u), human(r.bcum, u), human(r.cum, u), sign(r.dcum) + human(r.dcum, u), nm];
  return [human(r.flat, TOPU), pcolPercentage(r.flat, SW.total), pcolPercentage(r.sv, SW.total), human(r.cum, TOPU), pcolPercentage(r.cum, SW.total), nm];
}
function sign(v) { return v > 0 ? '+' : ''; } /* pcol diff's: "+" before a change > 0 ("0" for none, as pprof) */
export function drawTop() {
  var key = S.sortKey, diff = DIFF && DIFF.top && TOPDIFF;
  /* the top table: `pcol top --sort`'s orders (pcolTopSort: sum% of the
   * whole table in that order, the name filter then only hides rows); the
   * diff table: |value| desc, in pcol diff's order on ties */
  var rows = diff ? TOPDIFF.slice() : pcolTopSort(TOP, key, SW.total);
  if (S.filter) rows = rows.filter(function (r) { return S.filter.test(r.name); });
  if (diff && key === 'name') rows.sort(function (x, y) { return x.name < y.name ? -1 : x.name > y.name ? 1 : 0; });
  else if (diff && key !== 'order' && key !== 'dflat') rows.sort(function (x, y) { return Math.abs(y[key]) - Math.abs(x[key]); });
  TROWS = rows;
  $('top-spacer').style.height = (rows.length * RH) + 'px';
  $('top-count').textContent = '(' + rows.length + (S.filter ? ' matching' : '') + ' ' + S.by + (rows.length === 1 ? '' : 's') + ')';
  Array.prototype.forEach.call($('top').tHead.rows[0].cells, function (th) { th.classList.toggle('sorted', th.getAttribute('data-k') === key); });
  drawTopRows();
}
/* the rows in view (and a few around) */
export function drawTopRows() {
  var sc = $('top-scroll'), h = sc.clientHeight || 560, first = Math.max(0, Math.floor(sc.scrollTop / RH) - 5);
  var last = Math.min(TROWS.length, first + Math.ceil(h / RH) + 10), body = $('top').tBodies[0];
  $('top').style.top = (first * RH) + 'px';
  body.textContent = '';
  for (var i = first; i < last; i++) {
    var r = TROWS[i], tr = document.createElement('tr'), cells = topCells(r);
    tr.setAttribute('data-i', i); tr.setAttribute('data-flat', r.flat); tr.setAttribute('data-cum', r.cum);
    if (S.fn && S.fn.name === r.name) tr.className = 'picked';
    cells.forEach(function (c, k) {
      var td = document.createElement('td');
      td.textContent = k === cells.length - 1 ? pcolShown(c) : c;
      if (k === cells.length - 1) td.className = 'name';
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
}
