/* source.js — the source pane: the picked function's lines with flat and
 * cum, as `pcol list FUNCTION` prints them for the selection (the window
 * of lines too: pcolListWindow) from the text of the whole profile's window
 * for the file's default value (report.c embeds list.c's blocks; the files are
 * found at report time by list's safe rule, srcfile.c, and bounded), or
 * why there is no source. */
import { pcolIso, pcolShown, pcolValueText } from './units.js';
import { pcolKeyset, pcolListWindow, pcolTop } from './top.js';
import { $, D, M, S, SW, unitOf } from './head.js';
/* The selection's numbers per line: top by line (pcol list's lines are
 * its keys "FUNCTION FILE:LINE"), made once a selection and kept */
var SRCLINES = null;
export function forgetSourceLines() { SRCLINES = null; } /* a new selection */
function sourceLineRows() {
  if (!SRCLINES) {
    SRCLINES = new Map();
    pcolTop(D, SW, pcolKeyset(D, S, 'line')).forEach(function (r) { SRCLINES.set(r.name, r); });
  }
  return SRCLINES;
}
export function drawSource() {
  var box = $('source-lines'), L = M.list;
  box.textContent = '';
  if (!S.fn || !L) { $('source-title').textContent = 'Source (pick a function)'; return; }
  /* report.c's blocks: [name, file, why not (indexes into strs, -1: none), lines,
   * start lines, the file as the profile names it]: shown as `file` (pcol list's
   * path, trimmed by --source-path), matched to the samples' lines by `key` */
  var blocks = L.blocks.filter(function (b) { return b[0] === S.fn.name; }).map(function (b) {
    var file = b[1] < 0 ? null : L.strs[b[1]];
    return { file: file, key: b[5] >= 0 ? L.strs[b[5]] : file, error: b[2] < 0 ? null : L.strs[b[2]], lines: b[3], st: b[4] };
  }), u = M.values[L.value].unit || '';
  /* the text embedded is the whole profile's window; the window shown and
   * the numbers are the selection's (range, source, value, filters), as
   * pcol list --from/--to ... gives them */
  var LR = sourceLineRows();
  blocks.forEach(function (b) {
    if (b.file === null) return;
    var pre = S.fn.name + ' ' + b.key + ':', have = [];
    LR.forEach(function (r, key) { if (key.lastIndexOf(pre, 0) === 0 && /^-?[0-9]+$/.test(key.slice(pre.length))) have.push(+key.slice(pre.length)); });
    var w = pcolListWindow(have, b.st);
    b.none = !w;
    b.lines = w ? b.lines.filter(function (l) { return l[0] >= w[0] && l[0] <= w[1]; }) : [];
  });
  u = unitOf();
  $('source-title').textContent = 'Source of ' + pcolIso(S.fn.name) + ' (' + (S.range ? 'the range' : 'whole profile') + ', ' + pcolIso(M.values[S.value].cli) + ', as pcol list)';
  if (!blocks.length) { box.textContent = 'source not found: the profile names no file for this function'; return; }
  blocks.forEach(function (b) {
    var h = document.createElement('div');
    h.className = 'src-file';
    h.textContent = (b.file === null ? '(no file)' : pcolIso(b.file)) + (b.error ? ': source not found (' + b.error + ')' : b.none ? ': no samples in this selection' : '');
    box.appendChild(h);
    if (b.error || !b.lines.length) return;
    var t = document.createElement('table');
    t.className = 'top src';
    b.lines.forEach(function (l0) {
      var r = LR.get(S.fn.name + ' ' + b.key + ':' + l0[0]), l = [l0[0], r ? r.flat : 0, r ? r.cum : 0, l0[3]];
      var tr = document.createElement('tr');
      tr.setAttribute('data-line', l[0]); tr.setAttribute('data-flat', l[1]); tr.setAttribute('data-cum', l[2]);
      if (l[1] || l[2]) tr.className = 'hot';
      /* "." for 0 before --divide-by, as pcol list (pprof's valueOrDot) */
      [l[1] ? pcolValueText(l[1], u, 'auto', S.ratio, S.raw) : '.', l[2] ? pcolValueText(l[2], u, 'auto', S.ratio, S.raw) : '.', String(l[0]), l[3] === null ? '' : l[3]]
        .forEach(function (x, j) { var td = document.createElement('td'); td.textContent = j === 3 ? pcolShown(x) : x; if (j === 3) td.className = 'name'; tr.appendChild(td); });
      t.appendChild(tr);
    });
    box.appendChild(t);
  });
}
