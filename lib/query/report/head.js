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
/* The data decoded, then done() (the first drawing), then rest(): the
 * columns are inflated by the browser's own DecompressionStream (native,
 * off the script) or, without it, by data.js's pcolInflate.  The second
 * part (the values the first drawing does not read: Rprof's memory, the
 * other value types) is inflated after the first drawing; a view that
 * reads one of them before makes it then (data.js pcolData). */
function pcolMark(name) { if (window.performance && performance.mark) performance.mark(name); }
function pcolUnpack(raw, n, then) { /* raw deflate of n bytes -> then(bytes) */
  if (n === undefined) return then(raw);
  var ds;
  try { ds = new DecompressionStream('deflate-raw'); } catch (e) { return then(pcolInflate(raw, n)); }
  new Response(new Blob([raw]).stream().pipeThrough(ds)).arrayBuffer().then(function (b) {
    if (b.byteLength !== n) throw new Error('the page\'s data is damaged (length ' + b.byteLength + ' of ' + n + ')');
    then(new Uint8Array(b));
  }).catch(function (e) { setTimeout(function () { throw e; }); });
}
function pcolStart(done, rest) {
  pcolMark('pcol-script'); /* the page's text parsed up to the script (bench/report_page.js reads the marks) */
  var el = document.getElementById('pcol-bin'), raw = pcolBase64(el.textContent);
  el.textContent = ''; /* the text is not needed again: its memory can go */
  /* the second part comes after this script in the page: the browser
   * reads it while the first drawing is made */
  var has2 = M.bin2_len !== undefined, made = false;
  function text2() {
    var e = document.getElementById('pcol-bin2');
    if (!e) throw new Error('the page\'s data is not all read yet');
    var t = e.textContent;
    e.textContent = '';
    return t;
  }
  function part2() { /* read before the background inflate ended: here, at once */
    made = true;
    return pcolBinary(M, pcolBase64(text2()), true);
  }
  pcolMark('pcol-base64');
  pcolUnpack(raw, M.bin_raw, function (bin) {
    raw = null;
    pcolMark('pcol-inflated');
    setData(pcolData(M, bin, has2 ? part2 : null));
    N = D.N; NS = D.NS; TIME = D.TIME; DUR = D.DUR; STK = D.STK; WGT = D.WGT; values = D.values;
    THR = D.THR; col = D.col;
    pcolMark('pcol-decoded');
    done();
    pcolMark('pcol-ready');
    if (!has2) return rest();
    function second() {
      if (made) return rest();
      pcolUnpack(pcolBase64(text2()), M.bin2_raw, function (b) { D0.setPart2(b); rest(); });
    }
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', function () { setTimeout(second, 0); });
    else setTimeout(second, 0); /* after the first drawing is on the screen */
  });
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
