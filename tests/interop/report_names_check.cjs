// report_names_check.cjs CASES.json — run by t_report_names.sh: opens each
// `pcol report` page of CASES ([{html, checks, total, ...}]) in headless
// Chromium (cdp_pipe.cjs) and checks, by what the page shows:
//   pct (review 22 F6): the call tree's and the callers/callees panel's
//     shares are the table's and pcol peek's (go tool pprof's Percentage:
//     "%.2f" from 1%, "%.2g" below), computed here from the rows' weights
//     and the total `pcol top --format json` gives: "0.0014%", not "0.00%";
//   legend (review 22 F2, F3): the timeline's legend "activity by leaf
//     function" keeps each colour swatch before its name, left to right,
//     whatever bidi controls or right-to-left letters the names hold; shows
//     no raw bidi control; a long name is cut, the page no wider than the
//     window;
//   srcnames (rd17a F8, F9): source names as function names: the sources
//     table's cells (pcol info's, in the details) and the source menu's
//     options show no raw bidi control (\x{202e} instead), the cells
//     isolated, the options between FSI and PDI; the tracks' labels the
//     same; no name cut (the menu's uri, the legend's name) splits a
//     surrogate pair (an emoji at the cut), a flag's pair of regional
//     indicators or an escape (\x{202e}), nor do the call graph's node
//     lines, escaped, then cut to 60 (rd17b F4)
//   bidi (F2): with each name of NAMES picked, no raw bidi control
//     (U+202A..U+202E, U+2066, U+2067) is in the page's text, the panel
//     titles hold the name between FSI and PDI (U+2068, U+2069), and the
//     source pane shows the controls in its lines as \x{202e}.
//   tips: every tooltip and title of the page (title attributes, the call
//     graph's SVG titles of nodes, edges and label boxes, the hovers of the
//     stack chart's boxes and track labels and of the timeline's labels, the
//     buttons of the refine menus of a graph node and a label box) shows a
//     file's string as pcolIso does: no raw bidi control, each \x{202e} and
//     each HOSTILE text (markup) inside an FSI..PDI pair (a unit's after its
//     number: shown); those menus'
//     headers shown and isolated by their style; no element made from the
//     file's markup, no handler run; the label boxes' tooltips among them
//     (their lines were raw, h3).
// Prints one line per check; exit 1 on a difference.
'use strict';
const fs = require('fs');
const path = require('path');
const cdpPipe = require(path.join(__dirname, 'cdp_pipe.cjs'));
const [chromium, casesFile] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8'));
let bad = 0;
function ok(c, msg) { if (!c) { bad++; console.error('report_names: FAIL: ' + msg); } return c; }
// go tool pprof's measurement.Percentage, written again here (not the page's code)
function goPct(v, t) {
  const r = Math.abs(v / t) * 100;
  if (r >= 99.95 && r <= 100.05) return '100%';
  if (r >= 1) return r.toFixed(2) + '%';
  if (r < 1e-4) return null; // (an exponent: not checked)
  return String(Number(r.toPrecision(2))) + '%';
}
(async () => {
  const cdp = cdpPipe(chromium, 'report_names', 300000);
  const errors = [];
  cdp.listeners.push((m) => {
    if (m.method === 'Runtime.exceptionThrown') errors.push(JSON.stringify(m.params.exceptionDetails).slice(0, 300));
  });
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const s = (m, p) => cdp.send(m, p, sessionId);
  await s('Runtime.enable');
  await s('Emulation.setDeviceMetricsOverride', { width: 1300, height: 1000, deviceScaleFactor: 1, mobile: false });
  const ev = async (expr) => {
    const r = await s('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(expr.slice(0, 80) + ': ' + JSON.stringify(r.exceptionDetails).slice(0, 300));
    return r.result.value;
  };
  for (const c of cases) {
    await s('Page.navigate', { url: 'file://' + c.html });
    let ready = false;
    for (let i = 0; i < 600 && !ready; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ready = await ev("!!document.body && document.body.getAttribute('data-ready') === '1'");
    }
    if (!ok(ready, `${c.name}: the page is not ready`)) continue;
    if (c.checks.includes('pct')) {
      // the call tree's rows (top-down, the first level): weight, share
      const rows = await ev(`Array.from(document.querySelectorAll('#tree .trow')).map(d => [+d.getAttribute('data-w'), d.querySelector('.tnum').textContent])`);
      let n = 0;
      for (const [w, text] of rows) {
        const want = goPct(w, c.total), got = (/ (\S+%)/.exec(text) || [])[1];
        if (want === null) continue;
        ok(got === want, `${c.name}: call tree row "${text}": ${got}, want ${want} (${w} of ${c.total})`);
        n++;
      }
      // callers/callees of the function with most callers: share of its cum
      const fn = await ev(`(() => { let b = null, nb = -1; pcolReport.topRows().forEach(r => { const nm = r.cells[r.cells.length - 1].replace(/ \\((partial-)?inline\\)$/, ''); pcolReport.pick(nm); const p = pcolReport.peek(); const k = p ? p.callers.length + p.callees.length : 0; if (k > nb) { nb = k; b = nm; } }); return b; })()`);
      await ev(`pcolReport.pick(${JSON.stringify(fn)})`);
      const cum = await ev(`+document.querySelector('#peek tr.node').getAttribute('data-cum')`);
      const prow = await ev(`Array.from(document.querySelectorAll('#peek tr.caller, #peek tr.callee')).map(t => [+t.getAttribute('data-w'), t.children[1].textContent])`);
      let k = 0;
      for (const [w, text] of prow) {
        const want = goPct(w, cum);
        if (want === null) continue;
        ok(text === want, `${c.name}: callers/callees of ${fn}: "${text}", want ${want} (${w} of ${cum})`);
        k++;
      }
      ok(n > 3 && k > 1, `${c.name}: only ${n} tree rows and ${k} callers/callees checked`);
      console.error(`report_names: ${c.name}: ${n} call tree rows, ${k} callers/callees of ${fn}: pprof's percentages`);
    }
    if (c.checks.includes('legend')) {
      const lg = await ev(`Array.from(document.querySelectorAll('#tl-legend span')).map(e => [e.className, e.getBoundingClientRect().left, e.textContent, getComputedStyle(e).unicodeBidi, e.getBoundingClientRect().top])`);
      ok(lg.length >= 4, `${c.name}: no legend`);
      for (let i = 1; i < lg.length; i++)
        ok(lg[i][4] > lg[i - 1][4] + 4 || (Math.abs(lg[i][4] - lg[i - 1][4]) <= 4 && lg[i][1] > lg[i - 1][1]), `${c.name}: legend: "${lg[i][2].slice(0, 40)}" (${lg[i][0]}) at x ${lg[i][1]}, left of "${lg[i - 1][2].slice(0, 40)}" at ${lg[i - 1][1]}: its order is not the legend's`);
      for (const x of lg) if (x[0] === 'tl-name') ok(x[3] === 'isolate' && x[2].length <= 62, `${c.name}: legend name "${x[2].slice(0, 70)}": ${x[2].length} characters, unicode-bidi ${x[3]}`);
      ok(!/[\u202a-\u202e\u2066\u2067]/.test(lg.map((x) => x[2]).join('')), `${c.name}: a raw bidi control in the legend`);
      const wide = await ev('[document.documentElement.scrollWidth, window.innerWidth]');
      ok(wide[0] <= wide[1] + 20, `${c.name}: the page is ${wide[0]} px wide in a ${wide[1]} px window`);
      console.error(`report_names: ${c.name}: legend of ${lg.length / 2} names in order, isolated, cut; the page ${wide[0]} px wide`);
    }
    if (c.checks.includes('srcnames')) {
      const RAW = /[\u202a-\u202e\u2066\u2067]/, LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
      const cells = await ev(`Array.from(document.querySelectorAll('#info td')).filter(e => /src\\.json/.test(e.textContent)).map(e => [e.textContent, getComputedStyle(e).unicodeBidi])`);
      const opts = await ev(`Array.from(document.querySelectorAll('#source option')).map(o => o.textContent).slice(1)`);
      const tracks = await ev('pcolReport.trackList().all.map(t => t.label)');
      const legend = await ev(`Array.from(document.querySelectorAll('#tl-legend .tl-name')).map(e => e.textContent)`);
      ok(cells.length === c.nsources, `${c.name}: ${cells.length} sources table cells name the file, want ${c.nsources}`);
      for (const [t, bidi] of cells) ok(!RAW.test(t) && bidi === 'isolate', `${c.name}: sources table cell ${JSON.stringify(t)}: unicode-bidi ${bidi}`);
      ok(cells.some((x) => x[0].includes('\\x{202e}')), `${c.name}: no sources table cell shows \\x{202e}: ${JSON.stringify(cells)}`);
      ok(opts.length === c.nsources, `${c.name}: ${opts.length} source menu options, want ${c.nsources}`);
      for (const o of opts) ok(!RAW.test(o) && !LONE.test(o) && /\u2068[^\u2069]*\u2069$/.test(o), `${c.name}: source menu option ${JSON.stringify(o)}`);
      ok(opts.some((o) => o.includes('\\x{202e}')) && opts.some((o) => o.includes('\u{1F600}')), `${c.name}: the source menu: ${JSON.stringify(opts)}`);
      ok(tracks.length >= c.nsources, `${c.name}: ${tracks.length} tracks`);
      for (const t of tracks) ok(!RAW.test(t) && !LONE.test(t), `${c.name}: track label ${JSON.stringify(t)}`);
      ok(legend.length >= 1, `${c.name}: no legend`);
      for (const t of legend) ok(!LONE.test(t), `${c.name}: legend name ${JSON.stringify(t)} splits a surrogate pair`);
      /* rd17b F4: a run of regional indicators of odd length (a flag cut in
       * two), an escape cut at the ellipsis ("\\x{20…", "…e}"); each cut */
      const ODD_RI = /(?<![\u{1F1E6}-\u{1F1FF}])(?:[\u{1F1E6}-\u{1F1FF}]{2})*[\u{1F1E6}-\u{1F1FF}](?![\u{1F1E6}-\u{1F1FF}])/u;
      const HALF_ESC = /\\(?:x(?:\{[0-9a-f]*|[0-9a-f])?)?\u2026|\u2026(?:x?\{)?[0-9a-f]*\}/;
      /* the call graph's node lines: escaped, then cut to 60 */
      const glines = await ev(`Array.from(document.querySelectorAll('#graph g.gv-node text')).map(e => e.textContent)`);
      ok(glines.filter((t) => t.includes('\u2026')).length >= 3, `${c.name}: the graph's node lines: ${JSON.stringify(glines)}`);
      for (const t of glines) ok(!RAW.test(t) && Array.from(t).length <= 60, `${c.name}: graph node line ${JSON.stringify(t)}: raw, or past 60`);
      for (const t of opts.concat(legend, glines)) ok(!ODD_RI.test(t) && !HALF_ESC.test(t), `${c.name}: ${JSON.stringify(t)}: a flag or an escape cut in two`);
      ok(opts.filter((o) => /\u2026[^\u2069]*y{38}\u2069$/.test(o)).length === 3 && legend.filter((t) => t.includes('\u2026')).length === 3,
        `${c.name}: want 3 source menu options (y x 38) and 3 legend names cut: ${JSON.stringify(opts.concat(legend))}`);
      console.error(`report_names: ${c.name}: ${cells.length} sources table cells, ${opts.length} menu options, ${tracks.length} tracks, ${legend.length} legend names: shown, isolated, cut by code points`);
    }
    if (c.checks.includes('bidi')) {
      for (const name of c.names) {
        await ev(`pcolReport.pick(${JSON.stringify(name)})`);
        const t = await ev(`[document.body.innerText, document.getElementById('peek-title').textContent, document.getElementById('source-title').textContent]`);
        const raw = /[\u202a-\u202e\u2066\u2067]/.exec(t[0]);
        ok(!raw, `${c.name}: ${JSON.stringify(name)} picked: a raw bidi control in the page's text: ${raw && JSON.stringify(t[0].slice(Math.max(0, raw.index - 40), raw.index + 40))}`);
        for (const x of [t[1], t[2]]) ok(/\u2068[^\u2069]*\u2069/.test(x), `${c.name}: ${JSON.stringify(name)} picked: title ${JSON.stringify(x)} does not isolate the name`);
      }
      if (c.srcname) {
        await ev(`pcolReport.pick(${JSON.stringify(c.srcname)})`);
        const src = await ev('pcolReport.source().map(r => r[3]).join("\\n")');
        ok(src.includes('\\x{202e}') && !/[\u202a-\u202e\u2066\u2067]/.test(src), `${c.name}: the source pane: ${JSON.stringify(src.slice(0, 200))}`);
      }
      console.error(`report_names: ${c.name}: ${c.names.length} names picked: no raw bidi control shown, titles isolate them${c.srcname ? ', the source shows \\x{202e}' : ''}`);
    }
    if (c.checks.includes('tips')) {
      const RAW = /[\u202a-\u202e\u2066\u2067]/;
      // what is not isolated: outside FSI..PDI, and not a number with the
      // file's unit glued to it ("4unit\x{202e}X": shown, the unit of a
      // number, which it cannot reorder).  A number begins a word (after a
      // blank or '('): the digits of an escape ("\x{202e}") or of a name
      // ("pwned=1>") are no number, or every name would pass (rd19b)
      const bare = (s) => s.replace(/\u2068[^\u2068\u2069]*\u2069/g, '').replace(/(?<=^|[\s(])[-+]?\d[\d.]*[^\s();,\u2068\u2069]*/g, '');
      // (the judge itself: a name outside FSI..PDI is seen, a unit after its number is not)
      ok(bare('a \\x{202e}b (5ms)').includes('\\x{202e}') && bare('x=1>\\x{202e}L').includes('\\x{202e}') &&
         !bare('(4unit\\x{202e}X, 5%)').includes('\\x{202e}') && !bare('\u2068a\\x{202e}b\u2069 (1ms)').includes('\\x{202e}'),
         `${c.name}: the tooltips' judge`);
      const tips = [];
      const grab = async (where, expr) => { for (const t of await ev(expr)) tips.push([where, t]); };
      const ALL = `Array.from(document.querySelectorAll('[title]')).map(e => e.getAttribute('title')).concat(Array.from(document.querySelectorAll('title')).map(e => e.textContent))`;
      await grab('page', ALL);
      await grab('label box', `Array.from(document.querySelectorAll('#graph g.gv-tag > title')).map(e => e.textContent)`);
      const nTag = tips.filter((x) => x[0] === 'label box').length;
      // hovers: a canvas's title as its mousemove sets it
      await grab('stack chart box', `(() => { const cv = document.getElementById('stackchart'), b = cv.getBoundingClientRect(), out = [];
        pcolReport.stackBoxes().filter(r => r.frame).slice(0, 200).forEach(r => { cv.dispatchEvent(new MouseEvent('mousemove', { clientX: b.left + r.x + r.w / 2, clientY: b.top + r.y + r.h / 2, bubbles: true })); out.push(cv.title); });
        pcolReport.stackTracks().forEach(t => { cv.dispatchEvent(new MouseEvent('mousemove', { clientX: b.left + 5, clientY: b.top + t.y + t.h / 2, bubbles: true })); out.push(cv.title); });
        return out; })()`);
      await grab('timeline label', `(() => { const cv = document.getElementById('timeline'), b = cv.getBoundingClientRect(), out = [];
        pcolReport.tracks().forEach((t, k) => { cv.dispatchEvent(new MouseEvent('mousemove', { clientX: b.left + 5, clientY: b.top + 20 + k * 38 + 17, bubbles: true })); out.push(cv.title); });
        return out; })()`);
      // the refine menus of the first graph node and the first label box
      for (const sel of ['#graph g.gv-node rect', '#graph g.gv-tag path']) {
        const opened = await ev(`(() => { const e = document.querySelector(${JSON.stringify(sel)}); if (!e) return false; e.dispatchEvent(new MouseEvent('click', { clientX: 30, clientY: 30, bubbles: true })); return document.getElementById('refine').style.display === 'block'; })()`);
        if (!opened) continue;
        await grab('refine menu of ' + sel, `Array.from(document.querySelectorAll('#refine [title]')).map(e => e.title)`);
        // its header: the name shown (pcolShown), isolated by its style, as a table's cell
        for (const [h, bidi] of await ev(`Array.from(document.querySelectorAll('#refine .rf-name')).map(e => [e.textContent, getComputedStyle(e).unicodeBidi])`))
          ok(!RAW.test(h) && bidi === 'isolate', `${c.name}: the refine menu's header ${JSON.stringify(h.slice(0, 120))}: a raw bidi control, or unicode-bidi ${bidi}`);
      }
      let n = 0;
      for (const [where, t] of tips) {
        if (!t) continue;
        n++;
        ok(!RAW.test(t), `${c.name}: ${where} tooltip ${JSON.stringify(t.slice(0, 120))}: a raw bidi control`);
        ok(!bare(t).includes('\\x{202e}'), `${c.name}: ${where} tooltip ${JSON.stringify(t.slice(0, 120))}: a name not isolated (FSI..PDI)`);
        if (c.hostile) ok(!bare(t).includes(c.hostile), `${c.name}: ${where} tooltip ${JSON.stringify(t.slice(0, 120))}: the file's text not isolated (FSI..PDI)`);
      }
      ok(n > 0, `${c.name}: no tooltip found to judge`);
      ok(await ev(`document.querySelectorAll('img, [onerror]').length === 0 && window.pwned === undefined`), `${c.name}: an element made from the file's markup, or its handler run`);
      if (c.hostile) ok(nTag > 0 && tips.some((x) => x[1].includes(c.hostile)), `${c.name}: ${nTag} label box tooltips, none shows ${c.hostile}`);
      console.error(`report_names: ${c.name}: ${n} tooltips (${nTag} of label boxes): shown, each name isolated`);
    }
  }
  ok(!errors.length, 'exceptions: ' + errors.join('; '));
  await cdp.done(bad ? 1 : 0);
})().catch(async (e) => { console.error('report_names: ' + (e && e.stack || e)); process.exit(1); });
