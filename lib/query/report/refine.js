/* refine.js — the refine menu (pprof -http's Refine: focus, ignore, hide,
 * show on a node; the Firefox Profiler's call-node menu): a click on a
 * call-graph node, or the context menu (right click) of a call-tree row, a
 * flame-graph frame or a stack-chart box, offers the four filters on that
 * function (in the call tree also the context-menu key or Shift+F10 on
 * the current row).  Each writes its expression (range.js pcolRefineText: the name
 * anchored and escaped, read alike by the CLI and the page) into the
 * filter's box in the controls, where it is shown, can be edited or
 * cleared as a typed one, and computes as that box does (the CLI's
 * --focus/--ignore/--hide/--show).  "undo refine" puts the four boxes back
 * as they were before the last refine, one step at a time. */
import { pcolRefineText } from './range.js';
import { pcolIso, pcolShown } from './units.js';
import { pcolTagFocusRange, pcolTagFocusText } from './graphtags.js';
import { $, D, pick } from './head.js';
import { fname, frameAt } from './flame.js';
import { stackBoxAt } from './stackchart.js';
import { TV } from './treeview.js';
export var RF = { hist: [], name: null };
var RF_KINDS = [['focus', 'focus on', 'keep only the samples with this function (pcol --focus), replacing the focus'],
  ['ignore', 'ignore', 'drop the samples with this function (pcol --ignore), besides what is ignored'],
  ['hide', 'hide', 'remove this function\'s frames from the stacks (pcol --hide), besides what is hidden'],
  ['show', 'show', 'keep only this function\'s frames, and frames without a function (pcol --show), besides what is shown']];
export function refineMenu(name, ev) {
  var m = $('refine');
  m.textContent = '';
  RF.name = name;
  var h = document.createElement('div');
  h.className = 'rf-name';
  h.textContent = pcolShown(name);
  m.appendChild(h);
  RF_KINDS.forEach(function (k) {
    var b = document.createElement('button');
    b.textContent = k[1];
    b.title = k[2] + ': ' + pcolIso(pcolRefineText(k[0], $(k[0]).value, name));
    b.setAttribute('data-k', k[0]);
    b.addEventListener('click', function () { refineClose(); refine(k[0], name); });
    m.appendChild(b);
  });
  m.style.display = 'block';
  var x = ev && ev.clientX !== undefined ? ev.clientX : 20, y = ev && ev.clientY !== undefined ? ev.clientY : 20;
  m.style.left = Math.max(0, Math.min(x + 2, window.innerWidth - m.offsetWidth - 4)) + 'px';
  m.style.top = Math.max(0, Math.min(y + 2, window.innerHeight - m.offsetHeight - 4)) + 'px';
}
/* a label box of the call graph (graphtags.js): tag focus, pprof -http's
 * "tag focus": the tag box (pcol --tag) set to the box's labels
 * (pcolTagFocusText), or a "bytes" box's value or bucket as a numeric range
 * ("bytes=64B", "bytes=1280B:2048B"), replacing what it held, undone as a
 * refine */
export function tagRefineMenu(t, ev) {
  var m = $('refine');
  m.textContent = '';
  var h = document.createElement('div');
  h.className = 'rf-name';
  h.textContent = t.lines.map(pcolShown).join(' ');
  m.appendChild(h);
  var b = document.createElement('button');
  if (t.numeric) { /* "bytes" boxes: the box's value or bucket as a range */
    var range = pcolTagFocusRange(D, t);
    b.textContent = 'tag focus';
    if (range) {
      b.title = 'keep only the samples with these labels (pcol --tag): ' + pcolIso(range);
      b.setAttribute('data-k', 'tag');
      b.addEventListener('click', function () { refineClose(); refineSet('tag', range); });
    } else {
      b.textContent = 'tag focus: the label\'s unit is not a word the filter reads';
      b.disabled = true;
    }
  } else {
    var text = pcolTagFocusText(t.lines, t.keys);
    b.textContent = 'tag focus';
    b.title = 'keep only the samples with these labels (pcol --tag): ' + pcolIso(text);
    b.setAttribute('data-k', 'tag');
    b.addEventListener('click', function () { refineClose(); refineSet('tag', text); });
  }
  m.appendChild(b);
  m.style.display = 'block';
  var x = ev && ev.clientX !== undefined ? ev.clientX : 20, y = ev && ev.clientY !== undefined ? ev.clientY : 20;
  m.style.left = Math.max(0, Math.min(x + 2, window.innerWidth - m.offsetWidth - 4)) + 'px';
  m.style.top = Math.max(0, Math.min(y + 2, window.innerHeight - m.offsetHeight - 4)) + 'px';
}
function refineClose() { $('refine').style.display = 'none'; }
/* kind: focus, ignore, hide or show, on the function called name */
var RF_BOXES = ['focus', 'ignore', 'hide', 'show', 'tag'];
function refine(kind, name) { refineSet(kind, pcolRefineText(kind, $(kind).value, name)); }
/* the box of a filter set to text, the boxes as they were kept for undo */
function refineSet(kind, text) {
  var was = {};
  RF_BOXES.forEach(function (k) { was[k] = $(k).value; });
  RF.hist.push(was);
  var box = $(kind);
  box.value = text;
  box.dispatchEvent(new Event('change'));
  $('undo').disabled = false;
}
function refineUndo() {
  var was = RF.hist.pop();
  if (!was) return;
  RF_BOXES.forEach(function (k) {
    var box = $(k);
    if (box.value !== was[k]) { box.value = was[k]; box.dispatchEvent(new Event('change')); }
  });
  $('undo').disabled = !RF.hist.length;
}
export function wireRefine() {
  $('undo').addEventListener('click', refineUndo);
  document.addEventListener('mousedown', function (ev) { if (!$('refine').contains(ev.target)) refineClose(); });
  document.addEventListener('keydown', function (ev) { if (ev.key === 'Escape') refineClose(); });
  function menuOn(id, nameAt) {
    $(id).addEventListener('contextmenu', function (ev) {
      var name = nameAt(ev);
      if (name === null) return;
      ev.preventDefault();
      pick(name);
      refineMenu(name, ev);
    });
  }
  menuOn('tree', function (ev) {
    var el = ev.target.closest('.trow'), r = el && TV.rows[+el.getAttribute('data-i')];
    if (!r) return null;
    TV.cur = +el.getAttribute('data-i');
    return r.name;
  });
  /* the keyboard: the context-menu key (or Shift+F10) on the call tree's current row */
  $('tree').addEventListener('keydown', function (ev) {
    if (ev.key !== 'ContextMenu' && !(ev.key === 'F10' && ev.shiftKey)) return;
    var r = TV.rows[TV.cur], el = $('tree').querySelector('.trow[data-i="' + TV.cur + '"]');
    if (!r || !el) return;
    ev.preventDefault();
    var b = el.getBoundingClientRect();
    pick(r.name);
    refineMenu(r.name, { clientX: b.left + 60, clientY: b.bottom });
    var first = $('refine').querySelector('button');
    if (first) first.focus();
  });
  menuOn('flame', function (ev) { var r = frameAt(ev); return r && r.n > 0 ? fname(r.n) : null; }); /* (not a grey box of depths cut) */
  menuOn('stackchart', function (ev) { var r = stackBoxAt(ev); return r && r.n > 0 ? fname(r.n) : null; }); /* (not a deep stack's box of cut frames) */
}
