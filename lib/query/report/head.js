/* head.js — the page's start (the build wraps every module of
 * lib/query/report/ in one function, in the order of the Makefile's
 * REPORT_JS): the embedded data decoded (data.js) and the names the views
 * share. */
var M = JSON.parse(document.getElementById('pcol-meta').textContent);
var $ = function (id) { return document.getElementById(id); };
var D, D0, N, NS, TIME, DUR, STK, WGT, values, FT, FTP, FTN, FTS, THR, col;
/* D: the data the views read; D0 the whole profile's, D its hide/show view
 * (hide.js pcolHidden), with its own frame tree */
function setData(d) {
  D = d;
  FT = D.FT; FTP = D.FTP; FTN = D.FTN; FTS = D.FTS;
  if (D0) { /* node ids of another tree: views opened on the old one start over */
    FKIDS = flameKids();
    LEAF = null; S.zoom = 0; TV.open = {}; TV.cur = 0; TV.inv = null;
  }
}
/* The data decoded, then done(): the columns are inflated by the browser's
 * own DecompressionStream (native: a 10M-sample page's 500 MB in about a
 * second) or, without it, by data.js's pcolInflate. */
function pcolStart(done) {
  var s = atob(document.getElementById('pcol-bin').textContent.replace(/\s+/g, ''));
  var raw = new Uint8Array(s.length);
  for (var i = 0; i < s.length; i++) raw[i] = s.charCodeAt(i);
  s = null;
  function go(bin) {
    setData(pcolData(M, bin));
    N = D.N; NS = D.NS; TIME = D.TIME; DUR = D.DUR; STK = D.STK; WGT = D.WGT; values = D.values;
    THR = D.THR; col = D.col;
    done();
  }
  if (M.bin_raw === undefined || typeof DecompressionStream !== 'function' || typeof Response !== 'function') return go(pcolBinary(M, raw));
  var ds;
  try { ds = new DecompressionStream('deflate-raw'); } catch (e) { return go(pcolBinary(M, raw)); }
  new Response(new Blob([raw]).stream().pipeThrough(ds)).arrayBuffer().then(function (b) {
    if (b.byteLength !== M.bin_raw) throw new Error('the page\'s data is damaged (length ' + b.byteLength + ' of ' + M.bin_raw + ')');
    go(new Uint8Array(b));
  }).catch(function (e) { setTimeout(function () { throw e; }); });
}
var DIFF = M.diff || null;
/* the selection every view follows */
var S = { value: M.value, valueTouched: false, source: 0, by: 'function', range: null,
          zoom: 0, search: null, filter: null, sortKey: 'order', raw: false, fn: null,
          focus: null, ignore: null, drop: null, hide: null, show: null,
          tag: null, tagIgnore: null, lskeep: null };
var SW = null, TOPDIFF = null;
function unitOf() { return M.values[S.value].unit || ''; }
function human(v) { return S.raw ? String(v) : pcolUnitLabel(v, unitOf()); }
function secs(ns) { return pcolTimeText(ns); }
function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; }); }
function regex(text, input) {
  input.classList.remove('bad');
  if (!text) return null;
  try { return new RegExp(text); } catch (e) { input.classList.add('bad'); return null; }
}
/* a function picked in a table, the tree or the flame graph */
function pick(name) {
  S.fn = name ? { name: name } : null;
  drawPeek();
  drawTopRows();
  drawSource();
}
