/* head.js — the page's start and the state every view shares: the
 * embedded data decoded (data.js), the selection S and what page.js
 * computes from it.  It imports no view: page.js sets what it computes
 * (setResults) and says what a pick redraws (onPick). */
import { pcolBase64, pcolBinary, pcolData, pcolInflate } from './data.js';
import { pcolGoRegExp } from './regex.js';
import { pcolTimeText, pcolValueText } from './units.js';
export var M = JSON.parse(document.getElementById('pcol-meta').textContent);
export var $ = function (id) { return document.getElementById(id); };
/* THE rule for a canvas's resolution: the device pixel ratio, lowered so a
 * canvas of W x H CSS pixels stays in Chromium's bounds (a side of at most
 * 32,767 pixels, 2^28 in all); past them Chromium draws nothing.  The
 * stack chart and the flame graph bound their rows too (their SC.ROWS,
 * FL.ROWS), so this lowers it only past those. */
export var CANVAS = { SIDE: 32767, AREA: 268435456 };
export function canvasDpr(W, H) {
  return Math.min(window.devicePixelRatio || 1, CANVAS.SIDE / Math.max(1, W), CANVAS.SIDE / Math.max(1, H), Math.sqrt(CANVAS.AREA / Math.max(1, W * H)));
}
export var D, D0, N, NS, TIME, DUR, SPAN, STK, WGT, values, FT, FTP, FTN, FTS, THR, col;
/* D: the data the views read; D0 the whole profile's, D its hide/show view
 * (hide.js pcolHidden), with its own frame tree */
export function setData(d) {
  D = d;
  FT = D.FT; FTP = D.FTP; FTN = D.FTN; FTS = D.FTS;
}
/* The data decoded, then done() (the first drawing: header, table, flame
 * graph, trees, source, call graph, from the whole profile's weights),
 * then samples() (the samples part inflated and decoded: the timeline, the
 * stack chart, ranges), then rest().  The columns are inflated by the
 * browser's own DecompressionStream (native, off the script) or, without
 * it, by data.js's pcolInflate.  The samples part and the second part (the
 * values the first drawing does not read: Rprof's memory, the other value
 * types) come after the script in the page and are inflated after the
 * first drawing; a view that reads one of them before makes it then
 * (data.js pcolData). */
export function pcolMark(name) { if (window.performance && performance.mark) performance.mark(name); }
function pcolUnpack(raw, n, then) { /* raw deflate of n bytes -> then(bytes) */
  if (n === undefined) return then(raw);
  /* a small part at once: a DecompressionStream's steps wait behind the
   * parsing of the page's text that follows (the first part of a 1M-sample
   * page, 7 KB, took 5 s to come back that way) */
  if (n < (1 << 22)) return then(pcolInflate(raw, n));
  var ds;
  try { ds = new DecompressionStream('deflate-raw'); } catch (e) { return then(pcolInflate(raw, n)); }
  new Response(new Blob([raw]).stream().pipeThrough(ds)).arrayBuffer().then(function (b) {
    if (b.byteLength !== n) throw new Error('the page\'s data is damaged (length ' + b.byteLength + ' of ' + n + ')');
    then(new Uint8Array(b));
  }).catch(function (e) { setTimeout(function () { throw e; }); });
}
export function pcolStart(done, samples, rest) {
  pcolMark('pcol-script'); /* the page's text parsed up to the script (bench/report_page.js reads the marks) */
  var el = document.getElementById('pcol-bin'), raw = pcolBase64(el.textContent);
  el.textContent = ''; /* the text is not needed again: its memory can go */
  /* the samples part and the second part come after this script in the
   * page: the browser reads them while the first drawing is made */
  var has2 = M.bin2_len !== undefined, has3 = M.bin3_len !== undefined, made = false, made3 = false;
  function text(id) {
    var e = document.getElementById(id);
    if (!e) throw new Error('the page\'s data is not all read yet');
    var t = e.textContent;
    e.textContent = '';
    return t;
  }
  function part2() { /* read before the background inflate ended: here, at once */
    made = true;
    return pcolBinary(M, pcolBase64(text('pcol-bin2')), true);
  }
  function part3() {
    made3 = true;
    return pcolBinary(M, pcolBase64(text('pcol-bin3')), 3);
  }
  function later(f) { /* once the page is all read, after what is drawn is on the screen */
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', function () { setTimeout(f, 0); });
    else setTimeout(f, 0);
  }
  pcolMark('pcol-base64');
  pcolUnpack(raw, M.bin_raw, function (bin) {
    raw = null;
    pcolMark('pcol-inflated');
    setData(pcolData(M, bin, has2 ? part2 : null, has3 ? part3 : null));
    N = D.N; NS = D.NS; values = D.values; col = D.col;
    pcolMark('pcol-decoded');
    /* a first drawing that needs the samples (the call graph's label
     * tags; no whole-profile weights) waits for the page's text to be all read */
    if (has3 && (D.GT || !D.SW0) && document.readyState === 'loading') later(first); else first();
  });
  function first() {
    D0 = D;
    done();
    pcolMark('pcol-ready');
    later(third);
  }
  function third() {
    if (!has3 || made3 || D0.hasSamples()) return inSamples();
    pcolUnpack(pcolBase64(text('pcol-bin3')), M.bin3_raw, function (b) { D0.setPart3(b); inSamples(); });
  }
  function inSamples() {
    D0.samples();
    TIME = D.TIME; DUR = D.DUR; SPAN = D.SPAN; STK = D.STK; WGT = D.WGT; THR = D.THR;
    pcolMark('pcol-samples');
    samples();
    pcolMark('pcol-timeline');
    if (!has2) return rest();
    setTimeout(second, 0); /* after the timeline is on the screen */
  }
  function second() {
    if (made) return rest();
    pcolUnpack(pcolBase64(text('pcol-bin2')), M.bin2_raw, function (b) { D0.setPart2(b); rest(); });
  }
}
export var DIFF = M.diff || null;
/* the selection every view follows */
export var S = { value: M.value, valueTouched: false, source: 0, by: 'function', range: null,
          zoom: 0, search: null, filter: null, sortKey: 'order', raw: false, fn: null,
          focus: null, ignore: null, drop: null, hide: null, show: null,
          tag: null, tagIgnore: null, lskeep: null,
          /* --divide-by F (report.c M.divide_by), the "divide by" box: 1/F */
          ratio: M.divide_by ? 1 / M.divide_by : 1 };
/* the selection's stack weights (range.js), top rows (top.js) and diff
 * rows (diff.js) */
export var SW = null, TOP = [], TOPDIFF = null;
/* the unit each table speaks (units.js pcolViewUnit, the CLI's rule): the
 * top table, call tree and total's (pcol top), the diff table's (pcol diff) */
export var TOPU = 'auto', DIFFU = 'auto';
export function setResults(sw, top, topdiff, topu, diffu) { SW = sw; TOP = top; TOPDIFF = topdiff; TOPU = topu; DIFFU = diffu; }
export function unitOf() { return M.values[S.value].unit || ''; }
/* v divided by the "divide by" box (--divide-by) in the unit u picked for
 * its table; without u, in its own unit (as pcol list and flame print each
 * number) */
export function human(v, u) { return pcolValueText(v, unitOf(), u, S.ratio, S.raw); }
export function secs(ns) { return pcolTimeText(ns); }
export function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; }); }
export function regex(text, input) {
  input.classList.remove('bad');
  if (!text) return null;
  try { return pcolGoRegExp(text); } catch (e) { input.classList.add('bad'); return null; }
}
/* a function picked in a table, the tree or the flame graph; then the
 * views that show it are drawn (onPick: page.js names them) */
var PICKED = null;
export function onPick(redraw) { PICKED = redraw; }
export function pick(name) {
  S.fn = name ? { name: name } : null;
  PICKED();
}
