// report_check.js — drives headless Chromium through the DevTools protocol
// (chrome-remote-interface, from npm) over `pcol report` pages, as a person
// would: no console errors; the top table equals `pcol top` (same rounding)
// for the whole profile, for a brushed range that cuts a long sample, for a
// value and a source chosen in the selectors; a click on the flame graph
// zooms keeping every ancestor and descendant; a search shows the matched
// share that `pcol fold` gives.  Screenshots go to ARTIFACTS.
//
//   node report_check.js CONFIG.json
// CONFIG: {pcol, browser, artifacts, tmp, cases: [{name, input, html, ...}]}
// Chromium listens on 127.0.0.1 only and is killed at the end; the whole
// run is bounded by a timer.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn, execFileSync } = require('child_process');
const CDP = require('chrome-remote-interface');

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let failures = 0, checks = 0;
function ok(cond, what) {
  checks++;
  if (!cond) { failures++; console.error('FAIL: ' + what); }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function pcol(args) {
  return execFileSync(cfg.pcol, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
}
// seconds for --from/--to, exact to the nanosecond
function secs(ns) {
  const neg = ns < 0, a = Math.abs(ns);
  return (neg ? '-' : '') + Math.floor(a / 1e9) + '.' + String(a % 1e9).padStart(9, '0');
}
function cliTop(input, opt) {
  const args = ['top', input, '--format', 'tsv'];
  if (opt.value) args.push('--value', opt.value);
  if (opt.source) args.push('--source', String(opt.source));
  if (opt.from !== undefined) args.push('--from', secs(opt.from), '--to', secs(opt.to));
  if (opt.by) args.push('--by', opt.by);
  if (opt.focus) args.push('--focus', opt.focus);
  if (opt.ignore) args.push('--ignore', opt.ignore);
  if (opt.tag) args.push('--tag', opt.tag);
  if (opt.sort) args.push('--sort', opt.sort);
  if (opt.hide) args.push('--hide', opt.hide);
  if (opt.show) args.push('--show', opt.show);
  const lines = pcol(args).split('\n').filter((l) => l.length);
  lines.shift();
  return lines.map((l) => {
    const c = l.split('\t'); // flat flat_pct sum_pct cum cum_pct name inline unit
    const inl = c[c.length - 2] === 'NA' ? '' : c[c.length - 2];
    return [c[0], c[3], c.slice(5, c.length - 2).join('\t') + (inl ? ' (' + inl + ')' : '')];
  });
}

async function main() {
  const prof = path.join(cfg.tmp, 'chromium-profile');
  const chrome = CHROME = spawn(cfg.browser, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
    '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', '--user-data-dir=' + prof,
    '--window-size=1300,1000', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  chrome.stderr.on('data', (d) => { stderr += d; });
  const guard = setTimeout(() => { console.error('FAIL: timed out'); chrome.kill('SIGKILL'); process.exit(1); }, 240000);
  let port = 0;
  for (let i = 0; i < 200 && !port; i++) {
    await sleep(100);
    try { port = +fs.readFileSync(path.join(prof, 'DevToolsActivePort'), 'utf8').split('\n')[0]; } catch (e) { /* not yet */ }
  }
  if (!port) { console.error(stderr); throw new Error('Chromium did not open its DevTools port'); }
  const client = await CDP({ host: '127.0.0.1', port });
  const { Page, Runtime, Input, Log, Emulation } = client;
  let errors = [];
  Runtime.consoleAPICalled((e) => { if (e.type === 'error' || e.type === 'assert') errors.push('console.' + e.type + ': ' + e.args.map((a) => a.value || a.description).join(' ')); });
  Runtime.exceptionThrown((e) => errors.push('exception: ' + (e.exceptionDetails.exception ? e.exceptionDetails.exception.description : e.exceptionDetails.text)));
  Log.entryAdded((e) => { if (e.entry.level === 'error') errors.push('log: ' + e.entry.text + ' ' + (e.entry.url || '')); });
  /* a dialog (alert) is script that no page of pcol's runs: data that became markup */
  Page.javascriptDialogOpening((e) => { errors.push('dialog: ' + e.message); Page.handleJavaScriptDialog({ accept: true }); });
  /* the page is offline: any request but the page's own file:// load is a failure */
  client.Network.requestWillBeSent((e) => { if (!/^file:/.test(e.request.url) && !/^data:/.test(e.request.url)) errors.push('network request: ' + e.request.url); });
  await Promise.all([Page.enable(), Runtime.enable(), Log.enable(), client.Network.enable()]);
  await Emulation.setDeviceMetricsOverride({ width: 1300, height: 1000, deviceScaleFactor: 1, mobile: false });
  const ev = async (expr) => {
    const r = await Runtime.evaluate({ expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error('evaluate ' + expr + ': ' + JSON.stringify(r.exceptionDetails));
    return r.result.value;
  };
  const click = async (x, y) => {
    await Input.dispatchMouseEvent({ type: 'mouseMoved', x, y });
    await Input.dispatchMouseEvent({ type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
    await Input.dispatchMouseEvent({ type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
  };
  // a real hover on canvas `cv` at its pixel (x, y), scrolled to the middle of the window (below the sticky controls): its title
  const hover = async (cv, x, y) => {
    const b = await ev(`(() => { const c = document.getElementById('${cv}'); window.scrollBy(0, c.getBoundingClientRect().top + ${y} - 500); const r = c.getBoundingClientRect(); return [r.left, r.top]; })()`);
    await Input.dispatchMouseEvent({ type: 'mouseMoved', x: b[0] + x, y: b[1] + y });
    return ev(`document.getElementById('${cv}').title`);
  };
  // every row of the table (it draws only those in view: pcolReport.topRows()
  // gives the cells it would draw), as pcol top's tsv columns
  // (the percentages as text: compareUnits, against pcol top's text)
  const tableRows = () => ev(`pcolReport.topRows().map(r => [String(r.flat), String(r.cum), r.cells[5]])`);
  const compareTop = async (c, opt, what) => {
    const page = await tableRows(), cli = cliTop(c.input, opt);
    const n = cli.length;
    ok(page.length === n, `${c.name} ${what}: page has ${page.length} rows, pcol top ${cli.length}`);
    let bad = 0;
    for (let i = 0; i < n && i < page.length; i++) {
      if (JSON.stringify(page[i]) !== JSON.stringify(cli[i])) {
        if (bad++ < 3) console.error(`  row ${i}: page ${JSON.stringify(page[i])} vs pcol top ${JSON.stringify(cli[i])}`);
      }
    }
    ok(bad === 0, `${c.name} ${what}: ${bad} rows differ from pcol top ${JSON.stringify(opt)}`);
    // the last row is reachable: scroll the table to its end, read the DOM
    const last = await ev(`(() => { const s = document.getElementById('top-scroll'); s.scrollTop = s.scrollHeight; s.dispatchEvent(new Event('scroll'));
        const r = document.querySelectorAll('#top tbody tr'); const t = r[r.length - 1]; s.scrollTop = 0; s.dispatchEvent(new Event('scroll'));
        return t ? t.lastChild.textContent : null; })()`);
    ok(!n || last === cli[n - 1][2], `${c.name} ${what}: the table's last row reads ${last}, pcol top's is ${n && cli[n - 1][2]}`);
    console.error(`report_check: ${c.name}: ${what}: ${n} rows equal to pcol top`);
    return cli;
  };
  // the flame graph's search under a filter that removes samples (focus,
  // ignore, tag; review 15 F1): "matched N%" is of the hover's base,
  // pprof's total, so it is pcol top's cum% (same filter) of the one
  // function the regex names; of the root's value (the filtered total) it
  // read 100% under a focus on that function
  const searchUnderFilter = async (c, re, opt, what) => {
    await ev(`(() => { window.scrollTo(0, 0); const s = document.getElementById('search'); s.scrollIntoView({block: 'center'}); s.value = ''; s.focus(); })()`);
    await Input.insertText({ text: re });
    const shown = await ev(`document.getElementById('matched').textContent`);
    const rx = new RegExp(re), args = ['top', c.input, '--format', 'tsv', '--node-fraction', '0'];
    for (const k of ['value', 'focus', 'ignore', 'tag']) if (opt[k]) args.push('--' + k, opt[k]);
    const rows = pcol(args).split('\n').slice(1).filter((l) => l.length).map((l) => l.split('\t')) // flat flat_pct sum_pct cum cum_pct name ...
      .filter((r) => rx.test(r[5]));
    ok(rows.length === 1, `${c.name} ${what}: search /${re}/ names ${rows.length} functions of pcol top, not one`);
    const want = rows.length === 1 ? 'matched ' + rows[0][4] + '%' : '?';
    ok(shown === want, `${c.name} ${what}: search /${re}/ shows "${shown}", pcol top's cum% of ${rows.length && rows[0][5]} is "${want}"`);
    ok(rows.length === 1 && +rows[0][4] > 0 && +rows[0][4] < 100, `${c.name} ${what}: search /${re}/: pick a function that tells (cum% ${rows.length && rows[0][4]})`);
    console.error(`report_check: ${c.name}: ${what}: search /${re}/: ${shown}; pcol top's cum%: ${want}`);
    await ev(`(() => { const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input')); })()`);
  };
  // the table's numbers as text (issue 44 item 4): one unit for the table,
  // pcol top's with every row (the page shows every row), and the total
  const compareUnits = async (c, opt, what) => {
    const args = ['top', c.input, '--node-fraction', '0'];
    if (opt.value) args.push('--value', opt.value);
    if (opt.source) args.push('--source', String(opt.source));
    if (opt.from !== undefined) args.push('--from', secs(opt.from), '--to', secs(opt.to));
    if (opt.divideBy) args.push('--divide-by', opt.divideBy);
    if (opt.sort) args.push('--sort', opt.sort);
    const txt = pcol(args).split('\n'), h = txt.findIndex((l) => /^ +flat +flat% +sum% +cum +cum%/.test(l));
    // every number of a row, the percentages as pprof prints them ("0.094%", "100%")
    const want = txt.slice(h + 1).filter((l) => l).map((l) => l.trim().split(/ +/).slice(0, 5).join(' '));
    const tot = (/of (\S+) total$/.exec(txt.find((l) => /^Showing nodes/.test(l)) || '') || [])[1];
    const page = await ev(`pcolReport.topRows().map(r => r.cells.slice(0, 5).join(' '))`);
    const ptot = await ev(`document.getElementById('total').textContent`);
    const bad = want.findIndex((x, i) => x !== page[i]);
    ok(page.length === want.length && bad < 0, `${c.name} ${what}: the table's units differ from pcol top's text at row ${bad}: ${page[bad]} vs ${want[bad]}`);
    ok(ptot.startsWith('total ' + tot + ' ('), `${c.name} ${what}: the total reads "${ptot}", pcol top's ${tot}`);
    console.error(`report_check: ${c.name}: ${what}: ${want.length} rows in pcol top's units (${want[0]})`);
  };
  const setSelect = (id, value) => ev(`(() => { const s = document.getElementById('${id}'); s.value = ${JSON.stringify(String(value))};
      s.dispatchEvent(new Event('change')); return s.value; })()`);

  // the call tree (opened with the keyboard) against pcol fold, and the
  // callers/callees of a function clicked in the top table against pcol peek
  const views = async (c, value, o) => {
    o = o || {};
    const sel = [];
    if (o.source) sel.push('--source', String(o.source));
    if (o.from !== undefined) sel.push('--from', secs(o.from), '--to', secs(o.to));
    const fold = pcol(['fold', c.input, '--value', value].concat(sel)).split('\n').filter((l) => l);
    const sum = (pre) => fold.reduce((a, l) => { const sp = l.lastIndexOf(' '), p = l.slice(0, sp).split(';'); return p.slice(0, pre.length).join(';') === pre.join(';') && p.length >= pre.length ? a + +l.slice(sp + 1) : a; }, 0);
    await ev(`(() => { const m = document.getElementById('tree-mode'); m.value = 'top'; m.dispatchEvent(new Event('change')); document.getElementById('tree').focus(); })()`);
    await Input.dispatchKeyEvent({ type: 'keyDown', key: 'ArrowRight', code: 'ArrowRight', windowsVirtualKeyCode: 39 });
    await Input.dispatchKeyEvent({ type: 'keyUp', key: 'ArrowRight', code: 'ArrowRight', windowsVirtualKeyCode: 39 });
    const rows = await ev('pcolReport.treeRows()');
    ok(rows.length > 0 && (!rows[0].kids || rows[0].open), `${c.name}: the arrow key did not open the first tree row`);
    let bad = 0, seen = 0;
    const path = [];
    for (const r of rows) { path.length = r.d; path.push(r.name); seen++; if (r.w !== sum(path)) { if (bad++ < 3) console.error(`  tree ${path.join(';')}: ${r.w} vs fold ${sum(path)}`); } }
    ok(bad === 0 && seen > 1, `${c.name}: ${bad} of ${seen} call tree rows differ from pcol fold`);
    if (c.search) { // the tree's search box: every frame that matches is shown and marked, as pcol fold has them
      await ev(`(() => { const s = document.getElementById('tree-search'); s.scrollIntoView({block: 'center'}); s.focus(); })()`);
      await Input.insertText({ text: c.search });
      const re = new RegExp(c.search), want = new Set();
      for (const l of fold) { const p = l.slice(0, l.lastIndexOf(' ')).split(';'); p.forEach((f, j) => { if (re.test(f)) want.add(p.slice(0, j + 1).join(';')); }); }
      const hits = new Set(), tr = await ev('pcolReport.treeRows()'), pp = [];
      for (const r of tr) { pp.length = r.d; pp.push(r.name); if (r.hit) hits.add(pp.join(';')); }
      const same = want.size === hits.size && [...want].every((k) => hits.has(k));
      ok(same && (want.size > 0 || o.from !== undefined), `${c.name}: tree search /${c.search}/ marks ${hits.size} rows, pcol fold has ${want.size} matching frames`);
      const cur0 = want.size ? await ev('pcolReport.treeCur()') : 0;
      if (want.size) {
        ok(tr[cur0] && tr[cur0].hit, `${c.name}: the first match is not the current row`);
        await Input.dispatchKeyEvent({ type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
        await Input.dispatchKeyEvent({ type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
        const cur1 = await ev('pcolReport.treeCur()');
        ok(tr[cur1] && tr[cur1].hit && (want.size === 1 || cur1 !== cur0), `${c.name}: Enter in the search box did not go to the next match (${cur0} -> ${cur1})`);
      }
      await ev(`(() => { const s = document.getElementById('tree-search'); s.value = ''; s.dispatchEvent(new Event('input')); })()`);
      console.error(`report_check: ${c.name}: tree search /${c.search}/: ${hits.size} frames shown and marked as in pcol fold`);
    }
    await ev(`(() => { const m = document.getElementById('tree-mode'); m.value = 'inv'; m.dispatchEvent(new Event('change')); })()`);
    const inv = await ev('pcolReport.treeRows()');
    const leaf = (name) => fold.reduce((a, l) => { const sp = l.lastIndexOf(' '), p = l.slice(0, sp).split(';'); return p[p.length - 1] === name ? a + +l.slice(sp + 1) : a; }, 0);
    ok(inv.length > 0 && inv.every((r) => r.w === leaf(r.name)), `${c.name}: inverted tree roots differ from pcol fold's leaves`);
    await ev(`(() => { const m = document.getElementById('tree-mode'); m.value = 'top'; m.dispatchEvent(new Event('change')); })()`);
    console.error(`report_check: ${c.name}: call tree: ${seen} rows, inverted: ${inv.length} roots equal to pcol fold`);
    if (c.base || c.noclick) return;
    // click the heaviest-cum function of the table with callers (a real click on its row)
    const name = await ev(`(() => { const r = pcolReport.topRows(); let b = null; r.forEach(x => { if (!b || Math.abs(x.cum) > Math.abs(b.cum)) b = x; }); return b && b.cells[5].replace(/ \\((partial-)?inline\\)$/, ''); })()`);
    if (name === null) return;
    const i = await ev(`pcolReport.topRows().findIndex(r => r.cells[5].replace(/ \\((partial-)?inline\\)$/, '') === ${JSON.stringify(name)})`);
    const xy = await ev(`(() => { const s = document.getElementById('top-scroll'); s.scrollTop = ${i} * 19; s.dispatchEvent(new Event('scroll'));
        const tr = document.querySelector('#top tbody tr[data-i="${i}"]'); tr.scrollIntoView({block: 'center'}); const b = tr.getBoundingClientRect(); return [b.left + 10, b.top + b.height / 2]; })()`);
    await click(xy[0], xy[1]);
    const p = await ev('pcolReport.peek()');
    ok(p !== null, `${c.name}: a click on ${name} shows no callers/callees`);
    if (!p) return;
    const ere = '^' + name.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') + '$';
    const cli = JSON.parse(pcol(['peek', c.input, ere, '--format', 'json', '--value', value].concat(sel))).rows.filter((x) => x.node === name);
    const side = (rel) => cli.filter((x) => x.relation === rel).map((x) => x.name + '=' + x.value).sort().join(',');
    const pside = (l) => l.map((x) => x.name + '=' + x.w).sort().join(',');
    ok(pside(p.callers) === side('caller') && pside(p.callees) === side('callee'),
      `${c.name}: callers/callees of ${name}: ${pside(p.callers)} / ${pside(p.callees)} vs pcol peek ${side('caller')} / ${side('callee')}`);
    const shown = await ev(`document.querySelectorAll('#peek tr.caller, #peek tr.callee').length`);
    ok(shown === p.callers.length + p.callees.length, `${c.name}: the panel shows ${shown} rows`);
    console.error(`report_check: ${c.name}: clicked ${name}: ${p.callers.length} callers, ${p.callees.length} callees equal to pcol peek`);
    if (c.srcpath) { // the source pane: pcol list's lines, text as text; in a range, its numbers on the whole profile's lines
      const src = await ev('pcolReport.source()');
      let lj = [];
      try { lj = JSON.parse(pcol(['list', c.input, ere, '--format', 'json', '--source-path', c.srcpath, '--value', value].concat(sel))).rows; }
      catch (e) { if (!/no matches found/.test(String(e.stderr))) throw e; } // a function without lines in a file: no block
      const want = lj.map((x) => [x.line, x.flat, x.cum, x.text]);
      // whole profile or a range: the same lines (list's window for the selection), numbers and text
      ok((src.length > 0 || o.from !== undefined) && JSON.stringify(src) === JSON.stringify(want),
        `${c.name}: source pane of ${name}${o.from !== undefined ? ' in the range' : ''}: lines ${src.length ? src[0][0] + '-' + src[src.length - 1][0] : 'none'} ${JSON.stringify(src.slice(0, 2))} vs pcol list ${want.length ? want[0][0] + '-' + want[want.length - 1][0] : 'none'} ${JSON.stringify(want.slice(0, 2))}`);
      if (o.from !== undefined) { // in the range, every function with source: the window pcol list --from --to shows
        const fns = await ev(`Array.from(new Set(pcolReport.meta.list.blocks.filter(b => b[2] < 0 && b[3].length).map(b => b[0])))`);
        let differ = 0;
        for (const fn of fns) {
          const e2 = '^' + fn.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') + '$';
          await ev(`pcolReport.pick(${JSON.stringify(fn)})`);
          const s2 = await ev('pcolReport.source()');
          let l2 = [];
          try { l2 = JSON.parse(pcol(['list', c.input, e2, '--format', 'json', '--source-path', c.srcpath, '--value', value].concat(sel))).rows; }
          catch (e) { if (!/no matches found/.test(String(e.stderr))) throw e; }
          const w2 = l2.map((x) => [x.line, x.flat, x.cum, x.text]);
          ok(JSON.stringify(s2) === JSON.stringify(w2), `${c.name}: source pane of ${fn} in the range: lines ${s2.map((x) => x[0])} vs pcol list ${w2.map((x) => x[0])}`);
          const whole = await ev(`pcolReport.meta.list.blocks.filter(b => b[0] === ${JSON.stringify(fn)}).map(b => b[3].map(l => l[0]).join()).join(';')`);
          if (w2.length && whole !== w2.map((x) => x[0]).join()) differ++;
        }
        console.error(`report_check: ${c.name}: source pane in the range: ${fns.length} functions equal to pcol list --from --to (${differ} windows other than the whole profile's)`);
        await ev(`pcolReport.pick(${JSON.stringify(name)})`);
      }
      ok(await ev(`document.querySelectorAll('img').length`) === 0, `${c.name}: the source text became markup`);
      console.error(`report_check: ${c.name}: source pane of ${name}: ${src.length} lines equal to pcol list`);
    }
    if (c.shot && o.from === undefined) { // the tree, callers/callees and source views (doc/report-*.png)
      // the tree with the search's matches opened
      if (c.search) await ev(`(() => { const s = document.getElementById('tree-search'); s.value = ${JSON.stringify(c.search)}; s.dispatchEvent(new Event('input')); })()`);
      for (const [id, file] of [['tree-pane', 'tree'], ['source-title', 'source']]) {
        const b = await ev(`(() => { const r = document.getElementById('${id}').closest('section').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, Math.min(r.height, 700)]; })()`);
        const pic = await Page.captureScreenshot({ format: 'png', clip: { x: b[0], y: b[1], width: b[2], height: b[3], scale: 1 }, captureBeyondViewport: true });
        fs.writeFileSync(require('path').join(cfg.artifacts, `report-${c.name}-${file}.png`) /* `path` is the tree's path here */, Buffer.from(pic.data, 'base64'));
      }
      await ev(`(() => { const s = document.getElementById('tree-search'); s.value = ''; s.dispatchEvent(new Event('input')); })()`);
    }
  };

  // the call graph view against `pcol graph --format json` for the same
  // selection (nodes in order with flat, cum, marks; edges with weight,
  // inline, residual), every node drawn, and a real click on a node that
  // focuses on it (the graph and the table then equal the CLI's --focus)
  const graphRows = () => ev(`(() => { const G = pcolReport.graph(); return G.nodes.map(n => ['N', n.name, n.flat, n.cum])
      .concat(G.edges.map(e => ['E', G.nodes[e.from].name, G.nodes[e.to].name, e.w, !!e.inl, !!e.res])); })()`);
  const cliGraph = (c, value, o) => {
    const args = ['graph', c.input, '--format', 'json', '--value', value];
    if (o.source) args.push('--source', String(o.source));
    if (o.from !== undefined) args.push('--from', secs(o.from), '--to', secs(o.to));
    if (o.focus) args.push('--focus', o.focus);
    if (o.hide) args.push('--hide', o.hide);
    if (o.show) args.push('--show', o.show);
    return JSON.parse(pcol(args)).rows.map((x) => x.kind === 'node' ? ['N', x.name, x.flat, x.cum] : ['E', x.from, x.to, x.weight, x.inline, x.residual]);
  };
  // one view each (doc/report-*.png): the element's box, clipped
  const viewShots = async (name, views) => {
    for (const [id, file] of views) {
      const b = await ev(`(() => { const r = document.getElementById('${id}').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, Math.min(r.height, 700)]; })()`);
      const pic = await Page.captureScreenshot({ format: 'png', clip: { x: b[0], y: b[1], width: b[2], height: b[3], scale: 1 }, captureBeyondViewport: true });
      fs.writeFileSync(path.join(cfg.artifacts, `report-${name}-${file}.png`), Buffer.from(pic.data, 'base64'));
    }
  };
  // the refine menu (issue 44 item 8): a real click on one of its buttons
  const menuClick = async (kind) => {
    const xy = await ev(`(() => { const b = document.querySelector('#refine button[data-k="${kind}"]'); if (!b || document.getElementById('refine').style.display !== 'block') return null;
        const r = b.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`);
    ok(xy !== null, `the refine menu has no ${kind} button in view`);
    if (xy) await click(xy[0], xy[1]);
  };
  const rightClick = async (x, y) => {
    await Input.dispatchMouseEvent({ type: 'mouseMoved', x, y });
    await Input.dispatchMouseEvent({ type: 'mousePressed', x, y, button: 'right', clickCount: 1 });
    await Input.dispatchMouseEvent({ type: 'mouseReleased', x, y, button: 'right', clickCount: 1 });
  };
  const boxes = () => ev(`['focus', 'ignore', 'hide', 'show'].map(k => document.getElementById(k).value)`);
  const undo = async () => {
    const xy = await ev(`(() => { const b = document.getElementById('undo'); window.scrollTo(0, 0); if (b.disabled) return null; const r = b.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`);
    ok(xy !== null, 'undo refine is disabled');
    if (xy) await click(xy[0], xy[1]);
  };
  const quote = (n) => '^' + n.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') + '$';
  // right click in the call tree (hide), in the flame graph (ignore, twice:
  // both ignored), a click in the call graph (show): the boxes say the
  // filter and the table equals pcol top with it; undo goes back a step at
  // a time, to the whole profile
  const refineCheck = async (c, value) => {
    await ev(`(() => { const m = document.getElementById('tree-mode'); m.value = 'top'; m.dispatchEvent(new Event('change')); })()`);
    await ev(`(() => { const t = document.getElementById('tree'); t.scrollIntoView({block: 'center'}); t.focus(); })()`);
    for (let k = 0; k < 3; k++) { // open the first rows
      await Input.dispatchKeyEvent({ type: 'keyDown', key: 'ArrowRight', code: 'ArrowRight', windowsVirtualKeyCode: 39 });
      await Input.dispatchKeyEvent({ type: 'keyUp', key: 'ArrowRight', code: 'ArrowRight', windowsVirtualKeyCode: 39 });
    }
    const tr = await ev(`(() => { const rows = pcolReport.treeRows(); const i = rows.length > 1 ? 1 : 0; const el = document.querySelector('#tree .trow[data-i="' + i + '"]');
        el.scrollIntoView({block: 'center'}); const r = el.getBoundingClientRect(); return [rows[i].name, r.left + 60, r.top + r.height / 2]; })()`);
    await rightClick(tr[1], tr[2]);
    let menu = await ev(`pcolReport.refineMenu()`);
    ok(menu && menu[0] === tr[0], `${c.name}: a right click on tree row ${tr[0]} opened ${JSON.stringify(menu)}`);
    { // the menu as open (doc/report-refine.png): the viewport around the click
      const [sx, sy] = await ev(`[scrollX, scrollY]`);
      const pic = await Page.captureScreenshot({ format: 'png', clip: { x: sx + Math.max(0, tr[1] - 160), y: sy + Math.max(0, tr[2] - 60), width: 560, height: 220, scale: 1 } });
      fs.writeFileSync(path.join(cfg.artifacts, `report-${c.name}-refine-menu.png`), Buffer.from(pic.data, 'base64'));
    }
    await menuClick('hide');
    let b = await boxes();
    ok(b[2] === quote(tr[0]), `${c.name}: refine hide ${tr[0]} wrote ${b[2]}`);
    await compareTop(c, { value, hide: b[2] }, `refine: hide from the call tree ${b[2]}`);
    await undo();
    ok((await boxes()).join('') === '', `${c.name}: undo left ${await boxes()}`);
    { // the keyboard: Shift+F10 on the tree's current row opens its menu, Escape closes it
      await ev(`document.getElementById('tree').focus()`);
      await Input.dispatchKeyEvent({ type: 'keyDown', key: 'F10', code: 'F10', windowsVirtualKeyCode: 121, modifiers: 8 });
      await Input.dispatchKeyEvent({ type: 'keyUp', key: 'F10', code: 'F10', windowsVirtualKeyCode: 121, modifiers: 8 });
      const cur = await ev(`pcolReport.treeRows()[pcolReport.treeCur()].name`), m = await ev(`pcolReport.refineMenu()`);
      ok(m && m[0] === cur, `${c.name}: Shift+F10 on tree row ${cur} opened ${JSON.stringify(m)}`);
      await Input.dispatchKeyEvent({ type: 'keyDown', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 });
      await Input.dispatchKeyEvent({ type: 'keyUp', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 });
      ok(await ev(`pcolReport.refineMenu()`) === null, `${c.name}: Escape did not close the refine menu`);
    }
    // the flame graph: a deep frame (a leaf's: ignoring it leaves the
    // rest), then another one in the flame graph redrawn without it
    const fr = [];
    for (let k = 0; k < 2; k++) {
      const f = await ev(`(() => { const no = new Set(${JSON.stringify(fr.map((x) => x[0]))}); const F = pcolReport.frames().filter(f => f.n && !f.dim && f.w > 20 && !no.has(f.name))
          .sort((a, b) => b.d - a.d || b.w - a.w); const cv = document.getElementById('flame'); cv.scrollIntoView({block: 'center'}); const r = cv.getBoundingClientRect();
          return F.length ? [F[0].name, r.left + F[0].x + Math.min(F[0].w / 2, 40), r.top + F[0].y + 8] : null; })()`);
      if (!f) break;
      fr.push(f);
      await rightClick(f[1], f[2]);
      menu = await ev(`pcolReport.refineMenu()`);
      ok(menu && menu[0] === f[0], `${c.name}: a right click on flame frame ${f[0]} opened ${JSON.stringify(menu)}`);
      await menuClick('ignore');
    }
    b = await boxes();
    ok(fr.length === 2 && b[1] === fr.map((f) => quote(f[0])).join('|'), `${c.name}: refine ignore ${fr.map((f) => f[0])} wrote ${b[1]}`);
    await compareTop(c, { value, ignore: b[1] }, `refine: ignore from the flame graph ${b[1]}`);
    await undo();
    ok((await boxes())[1] === quote(fr[0][0]), `${c.name}: one undo should leave the first ignore`);
    await undo();
    // the call graph: a node's show
    const gi = await ev(`(() => { const G = pcolReport.graph(); return G && G.nodes.length > 1 ? 1 : -1; })()`);
    if (gi >= 0) {
      const gname = await ev(`pcolReport.graph().nodes[${gi}].name`), xy = await ev(`pcolReport.graphNodeAt(${gi})`);
      await click(xy.x, xy.y);
      await menuClick('show');
      b = await boxes();
      ok(b[3] === quote(gname), `${c.name}: refine show ${gname} wrote ${b[3]}`);
      await compareTop(c, { value, show: b[3] }, `refine: show from the call graph ${b[3]}`);
      await undo();
    }
    ok((await boxes()).join('') === '' && await ev(`document.getElementById('undo').disabled`), `${c.name}: undo did not go back to no filter`);
    await compareTop(c, { value }, 'refine: all undone');
    await viewShots(c.name, [['tree-pane', 'refine']]);
  };
  const graphCheck = async (c, value, o) => {
    o = o || {};
    const page = await graphRows(), want = cliGraph(c, value, o);
    const bad = want.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(page[i]));
    ok(page.length === want.length && bad < 0, `${c.name}: call graph ${JSON.stringify(o)}: ${page.length} vs ${want.length} rows, first difference ${JSON.stringify(page[bad])} vs pcol graph ${JSON.stringify(want[bad])}`);
    const nn = want.filter((x) => x[0] === 'N').length;
    const drawn = await ev(`document.querySelectorAll('#graph g.gv-node').length`);
    ok(drawn === Math.min(nn, 2000), `${c.name}: ${drawn} graph nodes drawn of ${nn}`);
    const texts = await ev(`Array.from(document.querySelectorAll('#graph g.gv-node title')).map(t => t.textContent).join('|')`);
    ok(want.filter((x) => x[0] === 'N').every((x) => texts.includes(x[1])), `${c.name}: a graph node's name is not shown as text`);
    console.error(`report_check: ${c.name}: call graph ${JSON.stringify(o)}: ${nn} nodes, ${want.length - nn} edges equal to pcol graph`);
    if (c.base && nn) { // a --diff page: each node coloured by its change of cum against the base (pprof -diff_base)
      const bt = JSON.parse(pcol(['top', c.base, '--format', 'json', '--value', value]));
      const bcum = new Map(bt.rows.map((x) => [x.name, x.cum]));
      const drawnNodes = await ev(`(() => { const G = pcolReport.graph(); return Array.from(document.querySelectorAll('#graph g.gv-node')).map(g => {
          const i = +g.getAttribute('data-i'); return [G.nodes[i].name, G.nodes[i].cum, +g.getAttribute('data-delta'), g.querySelector('rect').getAttribute('fill')]; }); })()`);
      const rg = (f) => { const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(f); return m ? [parseInt(m[1], 16), parseInt(m[2], 16)] : [NaN, NaN]; };
      let bad = 0, signs = new Set();
      const pts = [];
      for (const [name, cum, delta, fill] of drawnNodes) {
        const want = cum - (bcum.get(name) || 0), [r, g] = rg(fill), score = want / Math.abs(bt.total);
        signs.add(Math.sign(want));
        const good = delta === want && (want === 0 ? r === g : want > 0 ? r >= g && (score < 0.05 || r > g) : g >= r && (score > -0.05 || g > r));
        if (!good && bad++ < 3) console.error(`  ${name}: change ${delta} (pcol: ${want}), fill ${fill}`);
        pts.push([Math.abs(want), Math.sign(want), Math.abs(r - g)]);
      }
      // deeper with the change: |red - green| never falls as |change| grows (same sign)
      for (const sg of [-1, 1]) {
        const p2 = pts.filter((x) => x[1] === sg).sort((a, b) => a[0] - b[0]);
        for (let i = 1; i < p2.length; i++) if (p2[i][2] < p2[i - 1][2]) bad++;
      }
      ok(bad === 0, `${c.name}: call graph ${JSON.stringify(o)}: ${bad} nodes not coloured by their change against the base`);
      // each drawn edge coloured as the nodes are: by its weight less the
      // base's weight of the same call (pcol graph on the base, nothing pruned)
      const bg = JSON.parse(pcol(['graph', c.base, '--format', 'json', '--value', value, '--node-fraction', '0', '--edge-fraction', '0', '--node-count', '0']));
      const bw = new Map();
      for (const x of bg.rows) if (x.kind === 'edge') bw.set(x.from + '\0' + x.to, (bw.get(x.from + '\0' + x.to) || 0) + x.weight);
      const drawnEdges = await ev(`(() => { const G = pcolReport.graph(), E = G.edges.filter(e => e.from < G.drawn && e.to < G.drawn);
          return Array.from(document.querySelectorAll('#graph g.gv-edges path')).map(p => { const e = E[+p.getAttribute('data-e')];
            return [G.nodes[e.from].name, G.nodes[e.to].name, e.w, p.getAttribute('data-delta'), p.getAttribute('stroke')]; }); })()`);
      let ebad = 0;
      const esigns = new Set();
      for (const [from, to, w, delta, stroke] of drawnEdges) {
        const want = w - (bw.get(from + '\0' + to) || 0), [r, g] = rg(stroke), score = want / Math.abs(bt.total);
        esigns.add(Math.sign(want));
        const good = delta !== null && +delta === want && (want === 0 ? r === g : want > 0 ? r >= g && (score < 0.05 || r > g) : g >= r && (score > -0.05 || g > r));
        if (!good && ebad++ < 3) console.error(`  edge ${from} -> ${to}: change ${delta} (pcol: ${want}), stroke ${stroke}`);
      }
      ok(drawnEdges.length > 0 && ebad === 0, `${c.name}: call graph ${JSON.stringify(o)}: ${ebad} of ${drawnEdges.length} edges not coloured by their change against the base`);
      if (o.from === undefined) ok(esigns.has(1) && esigns.has(-1), `${c.name}: the diff fixture's edges should grow and shrink (signs ${[...esigns]})`);
      console.error(`report_check: ${c.name}: call graph ${JSON.stringify(o)}: ${drawnEdges.length} edges coloured by their change (signs ${[...esigns].sort()})`);
      console.error(`report_check: ${c.name}: call graph ${JSON.stringify(o)}: ${drawnNodes.length} nodes coloured by their change (signs ${[...signs].sort()})`);
      if (o.from === undefined) {
        ok(signs.has(1) && signs.has(-1), `${c.name}: the diff fixture should grow and shrink (signs ${[...signs]})`);
        const b = await ev(`(() => { const r = document.getElementById('graph-section').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, Math.min(r.height, 900)]; })()`);
        const pic = await Page.captureScreenshot({ format: 'png', clip: { x: b[0], y: b[1], width: b[2], height: b[3], scale: 1 }, captureBeyondViewport: true });
        fs.writeFileSync(path.join(cfg.artifacts, `report-${c.name}-graph.png`), Buffer.from(pic.data, 'base64'));
      }
    }
    if (o.from !== undefined || c.base || !nn) return;
    { // the view as drawn (page coordinates for the clip)
      const b = await ev(`(() => { const r = document.getElementById('graph-section').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, Math.min(r.height, 900)]; })()`);
      const pic = await Page.captureScreenshot({ format: 'png', clip: { x: b[0], y: b[1], width: b[2], height: b[3], scale: 1 }, captureBeyondViewport: true });
      fs.writeFileSync(path.join(cfg.artifacts, `report-${c.name}-graph.png`), Buffer.from(pic.data, 'base64'));
    }
    // a real click on the heaviest node with callers: focus on it
    const i = await ev(`(() => { const G = pcolReport.graph(); let b = -1; G.edges.forEach(e => { if (b < 0 || Math.abs(G.nodes[e.to].cum) > Math.abs(G.nodes[b].cum)) b = e.to; }); return b; })()`);
    if (i < 0) return;
    const name = await ev(`pcolReport.graph().nodes[${i}].name`);
    const xy = await ev(`pcolReport.graphNodeAt(${i})`);
    await click(xy.x, xy.y);
    const menu = await ev(`pcolReport.refineMenu()`);
    ok(menu && menu[0] === name && menu[1].join() === 'focus,ignore,hide,show', `${c.name}: a click on graph node ${name} opened ${JSON.stringify(menu)}, not its refine menu`);
    await menuClick('focus');
    const focus = await ev(`document.getElementById('focus').value`);
    ok(focus === '^' + name.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') + '$', `${c.name}: a click on graph node ${name} set focus ${focus}`);
    const fpage = await graphRows(), fwant = cliGraph(c, value, { source: o.source, focus });
    ok(JSON.stringify(fpage) === JSON.stringify(fwant), `${c.name}: the graph focused on ${name} differs from pcol graph --focus: ${JSON.stringify(fpage.slice(0, 3))} vs ${JSON.stringify(fwant.slice(0, 3))}`);
    await compareTop(c, { value, source: o.source, focus }, `graph click focus ${focus}`);
    await undo(); // the refine undone: no focus
    ok((await boxes()).join('') === '' && await ev(`document.getElementById('undo').disabled`), `${c.name}: undo after the graph's focus left ${await boxes()}`);
    // the label boxes (issue 44 item 2): as many drawn as pcol graph's DOT
    // has box3d nodes, each one's text its labels; a real click on a string
    // box: tag focus, the tag box as pcol top --tag, undone by undo refine
    const dotBoxes = pcol(['graph', c.input, '--format', 'dot', '--value', value, ...(o.source ? ['--source', String(o.source)] : [])]).split('\n').filter((l) => / shape=box3d /.test(l)).length;
    const drawnBoxes = await ev(`document.querySelectorAll('#graph g.gv-tag').length`);
    ok(drawnBoxes === dotBoxes, `${c.name}: ${drawnBoxes} label boxes drawn, pcol graph --format dot has ${dotBoxes}`);
    const sb = await ev(`(() => { const G = pcolReport.graph(), j = G.tags.findIndex(t => !t.numeric); if (j < 0) return null;
        const g = document.querySelector('#graph g.gv-tag[data-t="' + j + '"]'); g.scrollIntoView({block: 'center', inline: 'center'}); const r = g.getBoundingClientRect();
        return { lines: G.tags[j].lines, keys: G.tags[j].keys, text: Array.from(g.querySelectorAll('text')).map(t => t.textContent), x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`);
    if (!sb) return;
    ok(sb.text.join('\n') === sb.lines.map((l) => l.length > 60 ? l.slice(0, 59) + '\u2026' : l).join('\n'), `${c.name}: a label box shows ${sb.text.join('|')}, not its labels ${sb.lines.join('|')}`);
    await click(sb.x, sb.y);
    await menuClick('tag');
    const tg = await ev(`document.getElementById('tag').value`);
    const exp = sb.lines.length === 1 && !/[=,]/.test(sb.keys[0]) ? sb.keys[0] + '=' + quote(sb.lines[0].slice(sb.keys[0].length + 1)).replace(/,/g, '.') : sb.lines.map((l) => quote(l).replace(/[,=]/g, '.')).join(',');
    ok(tg === exp, `${c.name}: tag focus from box ${sb.lines.join('|')} set tag ${tg}, not ${exp}`);
    await compareTop(c, { value, source: o.source, tag: tg }, `tag focus ${tg} from a label box`);
    await undo();
    ok(await ev(`document.getElementById('tag').value`) === '' && await ev(`document.getElementById('undo').disabled`), `${c.name}: undo after tag focus left the tag box ${await ev(`document.getElementById('tag').value`)}`);
  };

  // --divide-by F (a page made with the first F, the others typed into the
  // "divide by" box): the table and its total as pcol top --divide-by F, the
  // call graph's note as pcol graph's legend, a hovered flame frame's value
  // as pcol flame's tooltip, a picked function's callers/callees as pcol
  // peek's text; a refused F is said with the CLI's message and changes
  // nothing
  const dividedCheck = async (c, value) => {
    for (const [i, F] of c.divide.entries()) {
      if (i) {
        await ev(`(() => { window.scrollTo(0, 0); const s = document.getElementById('divide-by'); s.value = ''; s.focus(); })()`);
        await Input.insertText({ text: F });
        await ev(`document.getElementById('divide-by').dispatchEvent(new Event('change'))`);
      }
      ok(await ev(`document.getElementById('divide-by').value`) === F && await ev(`document.getElementById('filter-error').textContent`) === '', `${c.name}: the divide-by box does not read ${F}`);
      await compareUnits(c, { value, divideBy: F }, `--divide-by ${F}`);
      const D = ['--divide-by', F, '--value', value];
      const legend = /Showing nodes accounting for (\S+), \S+ of (\S+) total/.exec(pcol(['graph', c.input, '--format', 'dot', ...D]));
      const note = await ev(`document.getElementById('graph-note').textContent`);
      ok(legend && note.includes(`accounting for ${legend[1]}, `) && note.includes(` of ${legend[2]}`), `${c.name} --divide-by ${F}: the call graph's note "${note}" vs pcol graph's ${legend && legend[0]}`);
      // a real hover on the widest frame below the root
      const svg = path.join(cfg.tmp, `${c.name}-divided.svg`);
      pcol(['flame', c.input, '-o', svg, ...D]);
      const titles = [...fs.readFileSync(svg, 'utf8').matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
      const f = (await ev('pcolReport.frames()')).filter((x) => x.d === 1).sort((a, b) => b.w - a.w)[0];
      await ev(`(() => { document.getElementById('flame').scrollIntoView(); window.scrollBy(0, -80); })()`);
      const fb = await ev(`(() => { const b = document.getElementById('flame').getBoundingClientRect(); return [b.left, b.top]; })()`);
      await Input.dispatchMouseEvent({ type: 'mouseMoved', x: fb[0] + f.x + f.w / 2, y: fb[1] + f.y + 8 });
      const hover = await ev(`document.getElementById('details').textContent`);
      const hv = /^(.*) \((\S+) *, ([0-9.]+%)\)$/.exec(hover);
      ok(hv && titles.includes(`${hv[1]} (${hv[2]}, ${hv[3]})`), `${c.name} --divide-by ${F}: hovering ${f.name} reads "${hover}", not one of pcol flame's tooltips (${titles.slice(0, 3)})`);
      // callers/callees of the heaviest function: pcol peek's text, line for line
      const name = await ev(`(() => { let b = null; pcolReport.topRows().forEach(x => { if (!b || Math.abs(x.cum) > Math.abs(b.cum)) b = x; }); return b.cells[5].replace(/ \\((partial-)?inline\\)$/, ''); })()`);
      await ev(`pcolReport.pick(${JSON.stringify(name)})`);
      const rows = await ev(`Array.from(document.querySelectorAll('#peek tr.caller, #peek tr.node, #peek tr.callee')).map(t => Array.from(t.children).map(d => d.textContent))`);
      const txt = pcol(['peek', c.input, '^' + name.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') + '$', ...D]).split(/\n-+\+-+\n/)
        .map((b) => b.split('\n').filter((l) => l)).find((b) => b.some((l) => !/^ {20}/.test(l) && l.endsWith('| ' + name)));
      const want = (txt || []).map((l) => { const w = l.replace(/ \(inline\)$/, '').trim().split(/ +/); return w.length === 7 ? [w[0], w[3], w[6]] : [w[0], w[1], w[3]]; });
      const got = rows.map((r) => r[2] === 'flat | cum' ? [r[0], r[1], r[3]] : [r[0], r[1].replace(/^100\.00%$/, '100%'), r[3]]);
      const k = (a) => a.map((x) => JSON.stringify(x)).sort().join('|');
      ok(want.length > 1 && k(got) === k(want), `${c.name} --divide-by ${F}: callers/callees of ${name}: ${JSON.stringify(got.slice(0, 3))} vs pcol peek's ${JSON.stringify(want.slice(0, 3))}`);
      await ev('pcolReport.pick(null)');
      console.error(`report_check: ${c.name}: --divide-by ${F}: table, total, graph note, flame hover, callers/callees of ${name} as the CLI's`);
    }
    const last = c.divide[c.divide.length - 1], before = await ev(`pcolReport.topRows().map(r => r.cells[0]).join()`);
    for (const bad of ['0', '-2', 'x']) {
      let msg = '';
      try { pcol(['top', c.input, '--divide-by', bad]); } catch (e) { msg = String(e.stderr).split('\n')[0].replace(/^pcol top: /, ''); }
      await ev(`(() => { const s = document.getElementById('divide-by'); s.value = ''; s.focus(); })()`);
      await Input.insertText({ text: bad });
      await ev(`document.getElementById('divide-by').dispatchEvent(new Event('change'))`);
      const said = await ev(`document.getElementById('filter-error').textContent`);
      ok(msg && said === msg && await ev(`document.getElementById('divide-by').classList.contains('bad')`) &&
        await ev(`pcolReport.topRows().map(r => r.cells[0]).join()`) === before, `${c.name}: divide by '${bad}': the page says "${said}", pcol top "${msg}" (the table should stay that of ${last})`);
    }
  };

  for (const c of cfg.cases) {
    errors = [];
    await Emulation.setDeviceMetricsOverride({ width: c.readme ? 1100 : 1300, height: 1000, deviceScaleFactor: 1, mobile: false });
    const loaded = Page.loadEventFired();
    const t0 = Date.now();
    await Page.navigate({ url: 'file://' + c.html });
    await loaded;
    // (at most 30 s: a loaded machine decodes a large page slowly; the loop ends when it is ready)
    for (let i = 0; i < 600 && !(await ev(`document.body.getAttribute('data-ready')`)); i++) await sleep(50);
    ok(await ev(`document.body.getAttribute('data-ready')`) === '1', `${c.name}: page never got ready`);
    console.error(`report_check: ${c.name}: ready in ${Date.now() - t0} ms`);
    { // a page whose other values are its second part (Rprof memory): every view drawn before that part is inflated, the memory line after
      const mk = await ev(`(() => { const m = {}; performance.getEntriesByType('mark').forEach(e => { m[e.name] = e.startTime; }); return m; })()`);
      const two = await ev(`pcolReport.meta.bin2_len !== undefined`);
      ok(mk['pcol-ready'] >= mk['pcol-decoded'] && mk['pcol-complete'] >= mk['pcol-ready'], `${c.name}: the page's marks are out of order: ${JSON.stringify(mk)}`);
      if (c.name === 'rprof-memory') ok(two && await ev(`!document.getElementById('pcol-bin2').textContent && !document.getElementById('value').disabled`),
        `${c.name}: the memory values should be the page's second part, read and offered once ready`);
    }
    if (c.hostile) { /* every string of the file is markup: none of it may become an element */
      // the page's: its JSON, its first part, its script, its samples part and second part when it has them
      const want = await ev(`3 + (pcolReport.meta.bin3_len !== undefined) + (pcolReport.meta.bin2_len !== undefined)`);
      ok(await ev(`document.querySelectorAll('script').length`) === want, `${c.name}: script elements other than the page's ${want}`);
      ok(await ev(`document.querySelectorAll('[a], [onerror], img').length`) === 0, `${c.name}: an element injected by the data`);
      const tagText = await ev(`Array.from(document.querySelectorAll('#graph g.gv-tag')).map(t => t.textContent).join('|')`);
      ok(tagText.includes(c.hostile), `${c.name}: the hostile label is not drawn as text in a label box (${tagText.slice(0, 200)})`);
      const shown = await ev(`Array.from(document.querySelectorAll('#top td.name')).map(t => t.textContent).join('|')`);
      ok(shown.includes(c.hostile), `${c.name}: the hostile name is not shown as text (${shown.slice(0, 200)})`);
      const facts = await ev(`document.getElementById('facts').textContent + document.getElementById('info').textContent`);
      ok(facts.includes(c.hostile), `${c.name}: the hostile type, unit and source are not shown as text`);
    }
    if (c.dur !== undefined) { // the header's duration is go tool pprof's Duration line ("10.12s")
      const f = await ev(`document.getElementById('facts').textContent`);
      const m = /duration ([0-9.]+) (s|ms)/.exec(f), g = /^([0-9.]+)(s|ms)$/.exec(c.dur);
      const sec = (x) => x ? +x[1] / (x[2] === 'ms' ? 1000 : 1) : NaN;
      ok(g && Math.abs(sec(m) - sec(g)) <= 0.005 * sec(g), `${c.name}: the header says ${m && m[0]}, go tool pprof's Duration is ${c.dur}`);
    }
    if (c.rlen !== undefined) { // "N s long" is summaryRprof's sampling.time
      const f = await ev(`document.getElementById('facts').textContent`);
      const m = /([0-9.]+) (s|ms) long/.exec(f);
      const secsShown = m ? +m[1] / (m[2] === 'ms' ? 1000 : 1) : NaN;
      ok(Math.abs(secsShown - c.rlen) < 1e-9, `${c.name}: the header says ${m && m[0]}, summaryRprof's sampling.time is ${c.rlen} s`);
    }
    if (await ev(`pcolReport.meta.sources.some(s => s.timed)`)) // the stack chart drew boxes
      ok(+(await ev(`document.getElementById('stackchart').dataset.boxes`)) > 0, `${c.name}: the stack chart is empty`);
    { // the flame graph's hover (a binary search of the depths' rows, then of a row's boxes: hit.js) finds the box a linear search from the last drawn finds
      const fb = await ev('pcolReport.flameBoxes()'), W = await ev(`document.getElementById('flame').clientWidth`);
      const pts = [];
      let seed = 11;
      const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
      const step = Math.max(1, Math.floor(fb.length / 2000));
      fb.forEach((b, i) => { if (i % step === 0) pts.push([b.x + b.w / 2, b.y + b.h / 2], [b.x, b.y], [b.x + b.w, b.y + b.h - 0.01], [b.x - 0.01, b.y + 1]); });
      const H = fb.reduce((a, b) => Math.max(a, b.y + b.h), 0);
      for (let k = 0; k < 1000; k++) pts.push([rnd() * W, rnd() * H]);
      const got = await ev(`${JSON.stringify(pts)}.map(p => pcolReport.flameHit(p[0], p[1]).i)`);
      let bad = 0;
      pts.forEach((p, k) => {
        let want = -1;
        for (let i = fb.length - 1; i >= 0; i--) { const b = fb[i]; if (p[0] >= b.x && p[0] < b.x + b.w && p[1] >= b.y && p[1] < b.y + b.h) { want = i; break; } }
        if (got[k] !== want && bad++ < 3) console.error(`  flame graph hit at ${p}: ${got[k]}, a linear search ${want}`);
      });
      ok(bad === 0, `${c.name}: the flame graph's hover finds another box than a linear search at ${bad} of ${pts.length} points (${fb.length} boxes)`);
    }
    if (c.lastpoint) { // a point sample at the profile's last instant: drawn on the whole profile's stack chart, in its last column; not in a range that ends there ([from, to))
      const pw = +(await ev(`document.getElementById('stackchart').dataset.pw`));
      const at = (bx) => bx.filter((b) => b.name === c.lastpoint).map((b) => [b.x, b.w]);
      const whole = at(await ev('pcolReport.stackBoxes()')), end = Math.max(...(await ev('pcolReport.stackBoxes()')).map((b) => b.x + b.w));
      ok(whole.length === 1 && whole[0][0] + whole[0][1] === end && end - 150 === pw,
         `${c.name}: the last sample's leaf ${c.lastpoint} is drawn at ${JSON.stringify(whole)} (x, width) on the whole profile's stack chart, not in its last column (${pw} columns from 150)`);
      const [t0, t1] = await ev(`[pcolReport.meta.sources[0].t0, pcolReport.meta.sources[0].t1]`);
      await ev(`pcolReport.select(${t0}, ${t1})`);
      const ranged = at(await ev('pcolReport.stackBoxes()'));
      await ev(`pcolReport.select(null)`);
      ok(ranged.length === 0, `${c.name}: in the range [${t0}, ${t1}) the sample at ${t1} is drawn: ${JSON.stringify(ranged)}`);
    }
    if (c.threads) { // a track per thread, of its samples, named apart (lib/core/lasts.c)
      const tr = await ev(`pcolReport.tracks()`), sc = +(await ev(`document.getElementById('stackchart').dataset.tracks`));
      ok(tr.length === c.threads.length && sc === tr.length,
         `${c.name}: ${tr.length} timeline and ${sc} stack chart tracks (${tr.map(t => t.label).join(' | ')}), the profile has ${c.threads.length} threads`);
      ok(new Set(tr.map(t => t.label)).size === tr.length, `${c.name}: two tracks of one name: ${tr.map(t => t.label).join(' | ')}`);
      for (const w of c.threads) {
        const t = tr.find(t => JSON.stringify(t.times) === JSON.stringify(w.times));
        ok(t && t.label.includes(w.name) && t.label.includes('tid ' + w.tid),
           `${c.name}: no track of thread ${w.name} (tid ${w.tid}) with its samples at ${w.times}: ${JSON.stringify(tr)}`);
      }
    }
    if (c.deep) { // every frame of a deep stack on the stack chart, its leaf always (review15 F2: it stopped 40 frames down, unsaid)
      // c.deep: [{leaf, depth, cut}]: a stack `depth` frames deep ending in `leaf` (pcol fold's); cut: past the chart's bound
      const boxes = await ev('pcolReport.stackBoxes()'), sts = await ev('pcolReport.stackTracks()');
      const note = await ev(`document.getElementById('stack-note').textContent`);
      const dev = await ev(`[document.getElementById('stackchart').width, document.getElementById('stackchart').height]`);
      ok(dev[0] <= 32767 && dev[1] <= 32767 && dev[0] * dev[1] <= 268435456, `${c.name}: the stack chart's canvas is ${dev} pixels, more than Chromium draws`);
      for (const w of c.deep) {
        // its deepest box of that name
        const inTrack = (b) => sts.find(t => b.y >= t.y && b.y < t.y + t.h), rowOf = (b) => (b.y - inTrack(b).y) / b.h;
        const leafBoxes = boxes.filter(b => b.frame && b.name === w.leaf).sort((a, b) => rowOf(b) - rowOf(a));
        ok(leafBoxes.length > 0, `${c.name}: the leaf ${w.leaf} of a ${w.depth}-frame stack is drawn nowhere on the stack chart (rows drawn: ${Math.max(...sts.map(t => t.h / 13))})`);
        if (!leafBoxes.length) continue;
        const lb = leafBoxes[0], t = inTrack(lb), row = rowOf(lb);
        if (!w.cut) {
          ok(row === w.depth - 1, `${c.name}: ${w.leaf} drawn at row ${row}, it is frame ${w.depth} from the root`);
          ok(!/deeper than/.test(note), `${c.name}: the note says a cut where no stack is cut: ${note}`);
        } else { // root rows, a grey box of the frames cut, the leaf on the track's last row; the note says so
          const rows = t.h / lb.h, mark = boxes.find(b => !b.frame && b.y >= t.y && b.y < t.y + t.h && b.x <= lb.x && b.x + b.w > lb.x);
          ok(row === rows - 1 && rows < w.depth, `${c.name}: ${w.leaf} of a ${w.depth}-frame stack drawn at row ${row} of ${rows}`);
          ok(mark && mark.name === '\u2026 ' + (w.depth - rows + 1) + ' frames', `${c.name}: no box for the ${w.depth - rows + 1} frames cut above ${w.leaf}: ${JSON.stringify(mark)}`);
          ok(/deeper than the \d+ rows a track has here/.test(note), `${c.name}: a stack cut and the note does not say it: ${note}`);
          if (mark) ok(/^\u2026 \d+ frames not drawn/.test(await hover('stackchart', mark.x + mark.w / 2, mark.y + 6)), `${c.name}: hovering the box of cut frames does not say what it is`);
        }
        const title = await hover('stackchart', lb.x + lb.w / 2, lb.y + 6);
        ok(title === '\u2068' + w.leaf + '\u2069', `${c.name}: hovering the leaf's box reads "${title}", not ${w.leaf} between FSI and PDI`);
      }
      console.error(`report_check: ${c.name}: stack chart leaves ${c.deep.map(w => w.leaf + '@' + w.depth).join(', ')} drawn; ${(note.match(/\d+ stacks? (is|are) deeper[^:]*/) || ['no stack cut'])[0]}`);
    }
    if (c.flamedeep) { // a flame graph deeper than Chromium's canvas holds at 17 px a frame: drawn (at most FL.ROWS rows), its leaf by hover and search
      // c.flamedeep: {leaf, depth}: the deepest stack (pcol fold's), `depth` frames from the root frame
      const w = c.flamedeep;
      const dev = await ev(`[document.getElementById('flame').width, document.getElementById('flame').height]`);
      ok(dev[0] <= 32767 && dev[1] <= 32767 && dev[0] * dev[1] <= 268435456, `${c.name}: the flame graph's canvas is ${dev} pixels, more than Chromium draws`);
      const fr = await ev('pcolReport.frames()'), cuts = await ev('pcolReport.flameCuts()');
      const note = await ev(`document.getElementById('flame-note').textContent`);
      const leaf = fr.filter(f => f.name === w.leaf).sort((a, b) => b.d - a.d)[0];
      // the root frame is depth 0, the stack's frames 1..depth
      ok(leaf && leaf.d === w.depth, `${c.name}: the leaf ${w.leaf} of the ${w.depth}-frame stack is not drawn on the flame graph: ${JSON.stringify(leaf)}`);
      ok(leaf && leaf.y >= 0 && leaf.y < 17 * 2 + 4, `${c.name}: the leaf ${w.leaf} is drawn at y ${leaf && leaf.y}, not on the graph's top row`);
      ok(cuts.length >= 1 && cuts.every(b => /^\u2026 \d+ frames$/.test(b.name)), `${c.name}: no grey box for the depths cut: ${JSON.stringify(cuts)}`);
      ok(/frames deep, more than the \d+ rows drawn/.test(note), `${c.name}: the flame graph is cut and its note does not say it: "${note}"`);
      if (leaf) { // a real hover on it
        await ev(`(() => { document.getElementById('flame').scrollIntoView(); window.scrollBy(0, ${leaf.y} - 500); })()`);
        const fb = await ev(`(() => { const b = document.getElementById('flame').getBoundingClientRect(); return [b.left, b.top]; })()`);
        await Input.dispatchMouseEvent({ type: 'mouseMoved', x: fb[0] + leaf.x + leaf.w / 2, y: fb[1] + leaf.y + 8 });
        const d = await ev(`document.getElementById('details').textContent`);
        ok(d.startsWith('\u2068' + w.leaf + '\u2069'), // the name isolated (FSI, PDI: review 22 F2)
          `${c.name}: hovering the leaf's frame reads "${d}", not ${w.leaf}`);
      }
      if (cuts.length) {
        const b = cuts[0];
        await ev(`(() => { document.getElementById('flame').scrollIntoView(); window.scrollBy(0, ${b.y} - 500); })()`);
        const fb = await ev(`(() => { const r = document.getElementById('flame').getBoundingClientRect(); return [r.left, r.top]; })()`);
        await Input.dispatchMouseEvent({ type: 'mouseMoved', x: fb[0] + b.x + b.w / 2, y: fb[1] + b.y + 8 });
        const d = await ev(`document.getElementById('details').textContent`);
        ok(/^\u2026 \d+ frames not drawn/.test(d), `${c.name}: hovering the grey box of cut depths reads "${d}"`);
      }
      // search: the leaf matched and drawn in the search colour
      await ev(`(() => { const s = document.getElementById('search'); s.value = ${JSON.stringify('^' + w.leaf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$')}; s.dispatchEvent(new Event('input')); })()`);
      await new Promise(r => setTimeout(r, 300));
      const m = await ev(`document.getElementById('matched').textContent`);
      ok(/^matched [1-9]/.test(m), `${c.name}: searching for ${w.leaf} reads "${m}"`);
      await ev(`(() => { const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input')); })()`);
      console.error(`report_check: ${c.name}: flame graph canvas ${dev}, leaf ${w.leaf}@${w.depth} drawn; ${note}`);
    }
    if (c.manythreads) { // thousands of threads (a track each made the page 114,000 px tall): the busiest drawn, the rest said, listed and drawn on demand
      // c.manythreads: {all, drawn, busy: the busiest threads' names (pcol tags), idle: a thread left out}
      const w = c.manythreads;
      ok(await ev(`typeof pcolReport.trackList`) === 'function', `${c.name}: no pcolReport.trackList(): the page draws every track`);
      const tr = await ev('pcolReport.tracks()'), thr = (l) => l.replace(/^#\d+ /, '').replace(/ tid \d+$/, '');
      const names = tr.map((t) => thr(t.label));
      ok(tr.length === w.drawn && JSON.stringify([...names].sort()) === JSON.stringify([...w.busy].sort()),
         `${c.name}: the timeline draws ${tr.length} tracks (${names.slice(0, 4)}, ...), not the ${w.drawn} busiest as pcol tags adds them (${w.busy.slice(0, 4)}, ...)`);
      ok(+(await ev(`document.getElementById('stackchart').dataset.tracks`)) === tr.length, `${c.name}: the stack chart's tracks are not the timeline's`);
      const h = await ev(`[document.getElementById('timeline').clientHeight, document.getElementById('stackchart').clientHeight, document.documentElement.scrollHeight]`);
      ok(h[0] <= 20 + w.drawn * 38 + 4 && h[1] <= 2400 * 13 + w.drawn * 8 + 4 && h[2] <= 45000,
         `${c.name}: the timeline is ${h[0]} px, the stack chart ${h[1]} px, the page ${h[2]} px tall`);
      const note = await ev(`document.getElementById('tl-tracks-note').textContent`);
      ok(note.includes(w.all.toLocaleString('en') + ' tracks') && note.includes(w.drawn + ' busiest') && note.includes((w.all - w.drawn).toLocaleString('en') + ' left out'),
         `${c.name}: the note does not say which tracks are drawn and how many are left out: "${note}"`);
      const list = (await ev(`document.getElementById('tl-left-list').textContent`)).split('\n').filter((x) => x);
      ok(list.length === w.all - w.drawn && list.some((l) => thr(l) === w.idle) && !list.some((l) => w.busy.includes(thr(l))),
         `${c.name}: the list of tracks left out has ${list.length} names (${list.slice(0, 3)}, ...)`);
      // the stack chart's hover (a binary search per row) finds the box a linear search of its boxes finds, in a few steps
      const boxes = await ev('pcolReport.stackBoxes()');
      ok(await ev(`typeof pcolReport.stackHit`) === 'function', `${c.name}: no pcolReport.stackHit(x, y)`);
      if (await ev(`typeof pcolReport.stackHit`) === 'function') {
        const pts = [];
        let seed = 7;
        const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
        const W = await ev(`document.getElementById('stackchart').clientWidth`);
        boxes.forEach((b, i) => { if (i % 3 === 0) pts.push([b.x + b.w / 2, b.y + b.h / 2], [b.x, b.y], [b.x + b.w - 0.01, b.y + b.h - 0.01], [b.x + b.w, b.y + 1], [b.x + 1, b.y + b.h]); });
        for (let k = 0; k < 3000; k++) pts.push([rnd() * W, rnd() * h[1]]);
        const got = await ev(`${JSON.stringify(pts)}.map(p => pcolReport.stackHit(p[0], p[1]))`);
        const rows = new Map();
        boxes.forEach((b) => rows.set(b.y, (rows.get(b.y) || 0) + 1));
        const most = Math.max(...rows.values()), bound = Math.ceil(Math.log2(rows.size + 1)) + Math.ceil(Math.log2(most + 1)) + 2;
        let bad = 0, slow = 0;
        pts.forEach((p, k) => {
          let want = -1;
          for (let i = boxes.length - 1; i >= 0; i--) { const b = boxes[i]; if (p[0] >= b.x && p[0] < b.x + b.w && p[1] >= b.y && p[1] < b.y + b.h) { want = i; break; } }
          if (got[k].i !== want && bad++ < 3) console.error(`  stack chart hit at ${p}: ${got[k].i}, a linear search ${want}`);
          if (got[k].probes > bound) slow++;
        });
        ok(bad === 0, `${c.name}: the stack chart's hover finds another box than a linear search at ${bad} of ${pts.length} points`);
        ok(slow === 0, `${c.name}: the stack chart's hover looked at more than ${bound} boxes and rows at ${slow} points (${boxes.length} boxes in ${rows.size} rows)`);
        const b = boxes.find((x) => x.frame && x.w > 4);
        ok(b && await hover('stackchart', b.x + b.w / 2, b.y + b.h / 2) === '\u2068' + b.name + '\u2069', `${c.name}: hovering a stack chart box does not give its name (between FSI and PDI)`);
        console.error(`report_check: ${c.name}: stack chart hover = a linear search at ${pts.length} points, at most ${bound} steps (${boxes.length} boxes, ${rows.size} rows)`);
      }
      // the tracks box: a regex typed in draws the tracks it matches (a thread left out)
      await ev(`(() => { window.scrollTo(0, 0); const s = document.getElementById('track-filter'); s.scrollIntoView({block: 'center'}); s.focus(); })()`);
      await Input.insertText({ text: w.idle + ' tid' });
      await ev(`document.getElementById('track-filter').dispatchEvent(new Event('change'))`);
      const one = await ev('pcolReport.tracks()');
      ok(one.length === 1 && thr(one[0].label) === w.idle && one[0].times.length > 0, `${c.name}: the tracks box "${w.idle} tid" draws ${one.map((t) => t.label)}`);
      ok(+(await ev(`document.getElementById('stackchart').dataset.tracks`)) === 1 && +(await ev(`document.getElementById('stackchart').dataset.boxes`)) > 0,
         `${c.name}: the stack chart does not draw the track picked by the tracks box`);
      await ev(`(() => { const s = document.getElementById('track-filter'); s.value = ''; s.dispatchEvent(new Event('change')); })()`);
      ok((await ev('pcolReport.tracks()')).length === w.drawn, `${c.name}: the tracks box emptied does not draw the busiest tracks again`);
      console.error(`report_check: ${c.name}: ${tr.length} of ${w.all} tracks drawn (page ${h[2]} px tall); "${note}"`);
    }
    if (c.flamecut) { // a search match in a flame graph's depths cut: its grey box in the search colour, the frames ending there listed by its hover
      // c.flamecut: [{leaf, depth, under}]: a stack ending in `leaf` at depth `depth`, inside the depths cut, under the frame `under` (depth 2)
      for (const w of c.flamecut) {
        await ev(`(() => { const s = document.getElementById('search'); s.value = ${JSON.stringify('^' + w.leaf + '$')}; s.dispatchEvent(new Event('input')); })()`);
        const m = await ev(`document.getElementById('matched').textContent`);
        ok(/^matched [1-9]/.test(m), `${c.name}: searching for ${w.leaf} reads "${m}"`);
        const fr = await ev('pcolReport.frames()'), cuts = await ev('pcolReport.flameCuts()');
        const u = fr.find((f) => f.name === w.under && f.d === 2), note = await ev(`document.getElementById('flame-note').textContent`);
        ok(!fr.some((f) => f.name === w.leaf) && cuts.length >= 2, `${c.name}: ${w.leaf} is not in the depths cut (${cuts.length} grey boxes)`);
        const hit = cuts.filter((b) => b.hit), hb = hit[0];
        ok(u && hit.length === 1 && hb.x <= u.x + u.w / 2 && u.x + u.w / 2 < hb.x + hb.w,
           `${c.name}: search ${w.leaf}: the grey boxes marked ${JSON.stringify(hit)}, not the one under ${w.under} ${JSON.stringify(u)}`);
        ok(/search matches frames in the depths cut/.test(note), `${c.name}: search ${w.leaf}: the note does not say a match is cut: "${note}"`);
        // as drawn: the marked box in the search colour, the others grey
        const px = (b) => ev(`(() => { const cv = document.getElementById('flame'), r = cv.width / cv.clientWidth; const d = cv.getContext('2d').getImageData(Math.floor((${b.x} + 1) * r), Math.floor((${b.y} + 2) * r), 1, 1).data; return [d[0], d[1], d[2]].join(','); })()`);
        for (const b of cuts) {
          const p = await px(b);
          ok(p === (b.hit ? '230,0,230' : '226,226,226'), `${c.name}: search ${w.leaf}: the grey box at x ${b.x} is drawn ${p}`);
        }
        if (hb) { // a real hover: the details say what it is, its title lists the stacks ending under it
          await ev(`(() => { document.getElementById('flame').scrollIntoView(); window.scrollBy(0, ${hb.y} - 500); })()`);
          const fb = await ev(`(() => { const r = document.getElementById('flame').getBoundingClientRect(); return [r.left, r.top]; })()`);
          await Input.dispatchMouseEvent({ type: 'mouseMoved', x: fb[0] + hb.x + Math.min(hb.w / 2, 40), y: fb[1] + hb.y + 8 });
          const d = await ev(`document.getElementById('details').textContent`), t = await ev(`document.getElementById('flame').title`);
          ok(/^\u2026 \d+ frames not drawn/.test(d), `${c.name}: hovering the grey box reads "${d}"`);
          ok(t.split('\n').some((l) => l.includes(w.leaf) && l.includes('depth ' + w.depth)), `${c.name}: hovering the grey box over ${w.leaf} does not list it at depth ${w.depth}: "${t.slice(0, 300)}"`);
          console.error(`report_check: ${c.name}: search ${w.leaf}: its grey box marked; hover: ${t.split('\n').slice(0, 3).join(' | ')}`);
        }
      }
      await ev(`(() => { const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input')); })()`);
      ok((await ev('pcolReport.flameCuts()')).every((b) => !b.hit), `${c.name}: a grey box still marked with no search`);
    }
    if (c.labels) { // tracks named apart on the page (review15 F5: every JFR track read "jdk.ObjectAllocationSam…"): each drawn label
      // holds its thread's part, the drawn labels differ, and hovering one gives its whole name
      const tr = await ev('pcolReport.tracks()'), sts = await ev('pcolReport.stackTracks()');
      ok(tr.length >= 2 && sts.length === tr.length, `${c.name}: ${tr.length} timeline and ${sts.length} stack chart tracks`);
      for (const [what, list] of [['timeline', tr], ['stack chart', sts]]) {
        const shown = list.map(t => t.shown.join(' '));
        ok(new Set(shown).size === shown.length, `${c.name} ${what}: two tracks drawn with one label: ${shown.join(' | ')}`);
        for (const t of list) {
          // its thread's part: from the thread's name on ("main thread_id 1")
          const thr = c.labels.find(x => t.label.includes(' ' + x)), part = thr && t.label.slice(t.label.indexOf(' ' + thr) + 1);
          ok(thr && t.shown.join(' ').includes(part), `${c.name} ${what}: the track "${t.label}" is drawn as "${t.shown.join(' / ')}", without its thread's part "${part}"`);
        }
      }
      for (let k = 0; k < tr.length; k++) { // (timeline.js: tracks 34 px high, 4 apart, under a 20 px axis)
        const title = await hover('timeline', 40, 20 + k * 38 + 17);
        ok(/^\u2068/.test(title) && title.replace(/[\u2068\u2069]/g, '') === tr[k].label, `${c.name}: hovering the timeline's label of track ${k} reads "${title}", not "${tr[k].label}", its names between FSI and PDI`);
      }
      for (const t of sts) {
        const title = await hover('stackchart', 40, t.y + 6);
        ok(/^\u2068/.test(title) && title.replace(/[\u2068\u2069]/g, '') === t.label, `${c.name}: hovering the stack chart's label "${t.shown.join(' / ')}" reads "${title}", not "${t.label}", its names between FSI and PDI`);
      }
      console.error(`report_check: ${c.name}: track labels ${tr.map(t => t.shown.join(' / ')).join(' | ')}`);
    }
    if (c.spans) { // each track's stack chart time = the speedscope export's timeline of its thread
      const tr = await ev(`pcolReport.tracks()`);
      const got = Object.fromEntries(tr.map(t => [t.label.replace(/^#\d+ /, ''), t.span]));
      ok(JSON.stringify(got, Object.keys(got).sort()) === JSON.stringify(c.spans, Object.keys(c.spans).sort()),
         `${c.name}: the stack chart's time per thread ${JSON.stringify(got)}, the speedscope export's ${JSON.stringify(c.spans)}`);
    }
    if (c.spantotal !== undefined) { // the stack chart's time, all tracks = the speedscope export's timelines' (a V8 source's last sample, which measured no time, drawn for none)
      const tr = await ev(`pcolReport.tracks()`);
      const got = tr.reduce((a, t) => a + t.span, 0);
      ok(got === c.spantotal, `${c.name}: the stack chart's time ${got} ns, the speedscope export's timeline ${c.spantotal} ns`);
    }
    if (c.cover) { // zoomed to a few point samples, the first track's chart is covered (doc/report.md)
      const [t0, t1] = await ev(`[pcolReport.meta.sources[0].t0, pcolReport.meta.sources[0].t1]`);
      const mid = (t0 + t1) / 2, half = (t1 - t0) * 0.015;
      await ev(`pcolReport.select(${Math.round(mid - half)}, ${Math.round(mid + half)})`);
      const cover = +(await ev(`document.getElementById('stackchart').dataset.cover`));
      const pw = +(await ev(`document.getElementById('stackchart').dataset.pw`));
      ok(pw > 0 && cover >= c.cover * pw, `${c.name}: zoomed to 3% of the profile, the stack chart covers ${cover} of ${pw} pixel columns (want ${100 * c.cover}%)`);
      console.error(`report_check: ${c.name}: zoomed stack chart covers ${cover} of ${pw} columns`);
      await ev(`pcolReport.select(null)`);
    }
    const meta = await ev('pcolReport.meta.values.map(v => v.cli)');
    const defValue = await ev('pcolReport.meta.values[pcolReport.state.value].cli');
    if (c.divide) { // a page of --divide-by: its checks only
      await dividedCheck(c, defValue);
      ok(errors.length === 0, `${c.name}: console errors: ${errors.join(' | ')}`);
      continue;
    }
    if (c.base) { // the --diff page: base, new and change columns as pcol diff --absolute
      const cli = JSON.parse(pcol(['diff', c.base, c.input, '--absolute', '--format', 'json', '--value', defValue]));
      const page = await ev(`pcolReport.topRows().map(r => [r.cells[6].replace(/ \\((partial-)?inline\\)$/, ''), r.bflat, r.flat, r.bcum, r.cum])`);
      const want = cli.rows.map((x) => [x.name, x.base_flat, x.new_flat, x.base_cum, x.new_cum]);
      const key = (a) => a.map((x) => JSON.stringify(x)).sort().join('|');
      ok(page.length === want.length && key(page) === key(want), `${c.name}: diff columns differ from pcol diff --absolute: ${JSON.stringify(page.slice(0, 2))} vs ${JSON.stringify(want.slice(0, 2))}`);
      const heads = await ev(`Array.from(document.querySelectorAll('#top thead th')).map(t => t.textContent).join(',')`);
      ok(heads === 'base flat,new flat,\u0394flat,base cum,new cum,\u0394cum,name', `${c.name}: diff table heads ${heads}`);
      console.error(`report_check: ${c.name}: diff table: ${want.length} rows equal to pcol diff --absolute`);
      await viewShots(c.name, [['top-pane', 'table'], ['flame-pane', 'flame']]);
      if (c.diffHide) { // frames hidden: the base's share and the colour of each frame as pcol flame --diff --hide
        await ev(`(() => { const s = document.getElementById('hide'); s.value = ${JSON.stringify(c.diffHide)}; s.dispatchEvent(new Event('change')); })()`);
        const svg = path.join(cfg.tmp, 'diff-hide.svg');
        pcol(['flame', c.input, '--diff', c.base, '--hide', c.diffHide, '--minwidth', '0', '--value', defValue, '-o', svg]);
        const want = new Map(), stack = [];
        // the name: data-name where the title shows it otherwise, else the title's, between FSI and PDI
        for (const m of fs.readFileSync(svg, 'utf8').matchAll(/<g data-x="[^"]*" data-w="[^"]*" data-d="(\d+)"[^>]*?(?: data-name="([^"]*)")?><title>\u2068([^\u2069<]*)\u2069 \([^<]*; base ([-0-9.]+)%[^<]*<\/title><rect [^>]*fill="(rgb\(\d+,\d+,\d+\))"/g)) {
          stack.length = +m[1];
          stack.push((m[2] !== undefined ? m[2] : m[3]).replace(/&(lt|gt|quot|apos|amp);/g, (x, e) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]));
          want.set(stack.join(';'), [m[4], m[5]]);
        }
        const page = await ev(`(() => { const F = pcolReport.frames(), by = {}; F.forEach(f => { by[f.n] = f; });
            const p = (n) => n ? p(by[n].parent) + ';' + by[n].name : 'all';
            return F.filter(f => !f.dim).map(f => [p(f.n), f.base, f.fill]); })()`);
        const bad = page.filter(([p, b, fill]) => !want.has(p) || b === null || want.get(p)[0] !== b.toFixed(2) || want.get(p)[1] !== fill);
        bad.slice(0, 3).forEach((x) => console.error(`  ${JSON.stringify(x)} vs pcol flame ${JSON.stringify(want.get(x[0]))}`));
        ok(page.length > 3 && bad.length === 0 && page.some((x) => x[2] !== 'rgb(255,255,255)'),
          `${c.name}: hide ${c.diffHide}: ${bad.length} of ${page.length} flame frames not coloured as pcol flame --diff --hide`);
        console.error(`report_check: ${c.name}: hide ${c.diffHide}: ${page.length} differential flame frames coloured as pcol flame --diff --hide`);
        await viewShots(c.name, [['flame-pane', 'flame-hide']]); // doc/report-diff-flame-hide.png
        await ev(`(() => { const s = document.getElementById('hide'); s.value = ''; s.dispatchEvent(new Event('change')); })()`);
      }
    } else {
      await compareTop(c, { value: defValue }, 'whole profile');
      if (!c.hostile) await compareUnits(c, { value: defValue }, 'whole profile'); // (its unit has spaces: no columns to split)
    }
    { // each value named once (issue 44): the menu and the header
      const names = await ev(`Array.from(document.querySelectorAll('#value option')).map(o => o.textContent)`);
      const facts = await ev(`document.getElementById('facts').textContent`);
      const listed = (/values: (.*?); /.exec(facts) || [])[1] || '';
      ok(new Set(names).size === names.length && names.every((n) => !/^samples \(count\)/.test(n) || names.filter((m) => m.startsWith('samples (count)')).length === 1 || /\[/.test(n)),
        `${c.name}: the value menu names a value twice: ${names}`);
      ok(!(c.hostile) ? new Set(listed.split(', ')).size === listed.split(', ').length : true, `${c.name}: the header lists a value twice: ${listed}`);
    }
    if (c.sorts) { // a real click on each header: the order (and sum%) of pcol top --sort
      for (const [k, srt] of [['cum', 'cum'], ['name', 'name'], ['fp', 'flat']]) {
        const xy = await ev(`(() => { window.scrollTo(0, 0); const th = document.querySelector('#top thead th[data-k="${k}"]'); th.scrollIntoView({block: 'center'}); const b = th.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; })()`);
        await click(xy[0], xy[1]);
        await compareTop(c, { value: defValue, sort: srt }, `sorted by a click on ${k}`);
        if (!c.hostile) await compareUnits(c, { value: defValue, sort: srt }, `sum% sorted by a click on ${k}`);
      }
    }
    await views(c, defValue);
    await graphCheck(c, defValue, {});
    if (c.refine) await refineCheck(c, defValue);
    if (c.value) {
      const k = meta.indexOf(c.value);
      ok(k >= 0, `${c.name}: no value ${c.value} in the selector (${meta})`);
      await setSelect('value', k);
      await compareTop(c, { value: c.value }, 'value ' + c.value);
      await compareUnits(c, { value: c.value }, 'value ' + c.value);
      await setSelect('value', meta.indexOf(defValue));
    }
    if (c.focus || c.ignore) { // the filters, typed into their boxes
      for (const k of ['focus', 'ignore']) if (c[k]) {
        await ev(`(() => { window.scrollTo(0, 0); const s = document.getElementById('${k}'); s.focus(); })()`);
        await Input.insertText({ text: c[k] });
        await ev(`document.getElementById('${k}').dispatchEvent(new Event('change'))`);
      }
      await compareTop(c, { value: defValue, focus: c.focus, ignore: c.ignore }, `focus ${c.focus} ignore ${c.ignore}`);
      if (c.focusSearch) await searchUnderFilter(c, c.focusSearch, { value: defValue, focus: c.focus, ignore: c.ignore }, `focus ${c.focus} ignore ${c.ignore}`);
      await ev(`['focus', 'ignore'].forEach(k => { const s = document.getElementById(k); s.value = ''; s.dispatchEvent(new Event('change')); })`);
    }
    if (c.tag) { // the tag filter typed into its box: the table and the call tree as the CLI's --tag
      await ev(`(() => { window.scrollTo(0, 0); const s = document.getElementById('tag'); s.focus(); })()`);
      await Input.insertText({ text: c.tag });
      await ev(`document.getElementById('tag').dispatchEvent(new Event('change'))`);
      ok(await ev(`document.getElementById('filter-error').textContent`) === '', `${c.name}: tag ${c.tag} refused`);
      await compareTop(c, { value: defValue, tag: c.tag }, `tag ${c.tag}`);
      if (c.tagSearch) await searchUnderFilter(c, c.tagSearch, { value: defValue, tag: c.tag }, `tag ${c.tag}`);
      const fold = pcol(['fold', c.input, '--value', defValue, '--tag', c.tag]).split('\n').filter((l) => l);
      const roots = {};
      for (const l of fold) { const sp = l.lastIndexOf(' '), r = l.slice(0, sp).split(';')[0]; roots[r] = (roots[r] || 0) + +l.slice(sp + 1); }
      const trows = await ev(`(() => { const m = document.getElementById('tree-mode'); m.value = 'top'; m.dispatchEvent(new Event('change')); })(), pcolReport.treeRows().filter(r => r.d === 0).map(r => [r.name, r.w])`);
      ok(trows.length > 0 && trows.every(([n, w]) => roots[n] === w) && trows.length === Object.keys(roots).length,
        `${c.name}: call tree roots under tag ${c.tag}: ${JSON.stringify(trows)} vs ${JSON.stringify(roots)}`);
      await ev(`(() => { const s = document.getElementById('tag'); s.value = ''; s.dispatchEvent(new Event('change')); })()`);
    }
    for (const k of ['hide', 'show']) if (c[k]) { // typed into its box: table, call tree, flame and graph as the CLI's --hide/--show
      await ev(`(() => { window.scrollTo(0, 0); const s = document.getElementById('${k}'); s.focus(); })()`);
      await Input.insertText({ text: c[k] });
      await ev(`document.getElementById('${k}').dispatchEvent(new Event('change'))`);
      await compareTop(c, { value: defValue, [k]: c[k] }, `${k} ${c[k]}`);
      const fold = pcol(['fold', c.input, '--value', defValue, '--' + k, c[k]]).split('\n').filter((l) => l);
      const paths = {};
      for (const l of fold) {
        const sp = l.lastIndexOf(' '), p = l.slice(0, sp).split(';');
        for (let i = 1; i <= p.length; i++) { const x = p.slice(0, i).join(';'); paths[x] = (paths[x] || 0) + +l.slice(sp + 1); }
      }
      // the flame graph's frame tree: every node's path and total
      const nodes = await ev(`(() => { const t = pcolReport.fold(), by = {}; t.forEach(n => { by[n.n] = n; });
        const path = (n) => { const p = []; for (let k = n.n; k; k = by[k] ? by[k].parent : 0) p.unshift(by[k].name); return p.join(';'); };
        return t.filter(n => n.total !== 0).map(n => [path(n), n.total]); })()`);
      const badF = nodes.filter(([p, w]) => paths[p] !== w);
      ok(nodes.length === Object.keys(paths).filter((p) => paths[p] !== 0).length && badF.length === 0,
        `${c.name}: ${k} ${c[k]}: frame tree differs from pcol fold: ${nodes.length} nodes vs ${Object.keys(paths).length}, ${JSON.stringify(badF.slice(0, 3))}`);
      const trows = await ev(`(() => { const m = document.getElementById('tree-mode'); m.value = 'top'; m.dispatchEvent(new Event('change')); })(), pcolReport.treeRows().filter(r => r.d === 0).map(r => [r.name, r.w])`);
      ok(trows.length > 0 && trows.every(([n, w]) => paths[n] === w), `${c.name}: call tree roots under ${k} ${c[k]}: ${JSON.stringify(trows)}`);
      const gpage = await graphRows(), gwant = cliGraph(c, defValue, { [k]: c[k] });
      ok(JSON.stringify(gpage) === JSON.stringify(gwant), `${c.name}: the graph under ${k} ${c[k]} differs from pcol graph: ${JSON.stringify(gpage.slice(0, 3))} vs ${JSON.stringify(gwant.slice(0, 3))}`);
      console.error(`report_check: ${c.name}: ${k} ${c[k]}: ${nodes.length} frame-tree nodes and ${gwant.length} graph rows equal to pcol fold/graph`);
      if (c.shot) await Page.captureScreenshot({ format: 'png' }).then((x) => fs.writeFileSync(path.join(cfg.artifacts, `report-${c.name}-${k}.png`), Buffer.from(x.data, 'base64')));
      await ev(`(() => { const s = document.getElementById('${k}'); s.value = ''; s.dispatchEvent(new Event('change')); })()`);
    }
    if (c.source) {
      await setSelect('source', c.source);
      const v = await ev('pcolReport.meta.values[pcolReport.state.value].cli');
      await compareTop(c, { source: c.source, value: v }, 'source ' + c.source);
    }
    // search: type a regex, compare "matched %" with the share pcol fold gives
    if (c.search) {
      await ev(`(() => { window.scrollTo(0, 0); const s = document.getElementById('search'); s.scrollIntoView({block: 'center'}); s.focus(); })()`);
      await Input.insertText({ text: c.search });
      const shown = await ev(`document.getElementById('matched').textContent`);
      const re = new RegExp(c.search);
      const st = await ev('pcolReport.state');
      const v = await ev('pcolReport.meta.values[pcolReport.state.value].cli');
      const args = ['fold', c.input, '--value', v];
      if (st.source) args.push('--source', String(st.source));
      if (st.range) args.push('--from', secs(st.range[0]), '--to', secs(st.range[1]));
      let total = 0, matched = 0;
      for (const line of pcol(args).split('\n')) {
        const sp = line.lastIndexOf(' ');
        if (sp < 0) continue;
        const val = +line.slice(sp + 1);
        total += val;
        if (line.slice(0, sp).split(';').some((f) => re.test(f))) matched += val;
      }
      const want = 'matched ' + (total ? (100 * matched / total).toFixed(2) : '0.00') + '%';
      ok(shown === want, `${c.name}: search /${c.search}/ shows "${shown}", pcol fold gives "${want}"`);
      ok(matched > 0 && matched < total, `${c.name}: search /${c.search}/ matches ${matched} of ${total}: pick a regex that tells`);
      console.error(`report_check: ${c.name}: search /${c.search}/: ${shown}`);
    }
    if (c.brush) {
      // the longest sample of the chosen source, cut in half by a real drag
      const longs = await ev('pcolReport.samples()');
      const srcRows = await ev(`pcolReport.meta.sources.map(s => [s.row0, s.row1])`);
      const mine = longs.filter((s) => !c.source || (s[0] >= srcRows[c.source - 1][0] && s[0] < srcRows[c.source - 1][1]));
      ok(mine.length > 0, `${c.name}: no long sample to cut`);
      if (mine.length) {
        mine.sort((a, b) => b[2] - a[2]);
        const [row, t, d] = mine[0];
        const box = await ev(`(() => { const b = document.getElementById('timeline').getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; })()`);
        const xa = await ev(`pcolReport.timeToX(${t} - ${d})`), xb = await ev(`pcolReport.timeToX(${t + d / 2})`);
        const y = box[1] + 20 + 17;
        await ev(`window.scrollTo(0, 0)`);
        const box2 = await ev(`(() => { const b = document.getElementById('timeline').getBoundingClientRect(); return [b.left, b.top]; })()`);
        const yy = y - box[1] + box2[1];
        await Input.dispatchMouseEvent({ type: 'mouseMoved', x: Math.max(xa, box[0] + 151), y: yy });
        await Input.dispatchMouseEvent({ type: 'mousePressed', x: Math.max(xa, box[0] + 151), y: yy, button: 'left', clickCount: 1 });
        for (let k = 1; k <= 5; k++) await Input.dispatchMouseEvent({ type: 'mouseMoved', x: xa + (xb - xa) * k / 5, y: yy, button: 'left' });
        await Input.dispatchMouseEvent({ type: 'mouseReleased', x: xb, y: yy, button: 'left', clickCount: 1 });
        const from = +(await ev(`document.getElementById('range').dataset.fromNs`));
        const to = +(await ev(`document.getElementById('range').dataset.toNs`));
        ok(to > from, `${c.name}: the drag selected no range`);
        ok(from < t + d && to > t && to < t + d, `${c.name}: range [${from}, ${to}) does not cut sample ${row + 1} [${t}, ${t + d})`);
        console.error(`report_check: ${c.name}: brushed [${secs(from)}, ${secs(to)}) s, cutting sample ${row + 1} at ${(100 * (to - t) / d).toFixed(1)}% of its ${d} ns`);
        const v = await ev('pcolReport.meta.values[pcolReport.state.value].cli');
        if (!c.base) await compareTop(c, { source: c.source, value: v, from, to }, 'brushed range');
        if (!c.base) await compareUnits(c, { source: c.source, value: v, from, to }, 'brushed range');
        await views(c, v, { source: c.source, from, to });
        await graphCheck(c, v, { source: c.source, from, to });
        c.shotAfterBrush = true;
      }
    }
    // flame graph: zoom by a click on a frame with children, check what stays
    const frames = await ev('pcolReport.frames()');
    const tree = await ev('pcolReport.fold()');
    const parent = {}; tree.forEach((n) => { parent[n.n] = n.parent; });
    const hasKids = {}; tree.forEach((n) => { if (n.total > 0) hasKids[n.parent] = 1; });
    const cand = frames.filter((f) => f.d >= 2 && hasKids[f.n] && f.w > 20).sort((a, b) => b.d - a.d || b.w - a.w);
    if (cand.length) {
      const z = cand[Math.floor(cand.length / 2)];
      // the frame in the middle of the window, below the sticky controls (a deep stack's frame is far down)
      await ev(`(() => { document.getElementById('flame').scrollIntoView(); window.scrollBy(0, ${z.y} - 500); })()`);
      const fb = await ev(`(() => { const b = document.getElementById('flame').getBoundingClientRect(); return [b.left, b.top]; })()`);
      await click(fb[0] + z.x + z.w / 2, fb[1] + z.y + 8);
      ok(await ev('pcolReport.zoomed()') === z.n, `${c.name}: a click on ${z.name} did not zoom into it`);
      const after = await ev('pcolReport.frames()');
      const W = await ev(`document.getElementById('flame').clientWidth`);
      const under = (a, b) => { for (let k = a; ; k = parent[k]) { if (k === b) return true; if (!k) return false; } };
      const byN = {}; tree.forEach((n) => { byN[n.n] = n; });
      let bad = 0, anc = 0, desc = 0;
      for (const f of after) {
        if (f.n !== z.n && under(z.n, f.n)) { anc++; if (!f.dim || Math.abs(f.w - W) > 1e-6) bad++; }
        else if (under(f.n, z.n)) { desc++; if (f.dim || Math.abs(f.w - byN[f.n].total / byN[z.n].total * W) > 1e-6 * W) bad++; }
        else bad++;
      }
      const wantDesc = tree.filter((n) => under(n.n, z.n) && n.total / byN[z.n].total * W >= 0.3).length;
      // (past the flame graph's rows, the depths cut are one grey box: no ancestor drawn there)
      const cut = (await ev('pcolReport.flameCuts()'))[0], c0 = cut ? cut.d : 0, c1 = cut ? c0 + Number(cut.name.match(/\d+/)[0]) : 0;
      const wantAnc = (() => { let k = 0; for (let a = z.n; a; a = parent[a]) k++; return k; })() - Math.max(0, Math.min(c1, z.d) - c0);
      ok(bad === 0, `${c.name}: ${bad} frames wrong after zooming into ${z.name}`);
      ok(anc === wantAnc, `${c.name}: ${anc} ancestors shown, want ${wantAnc}`);
      ok(desc <= wantDesc && desc >= 1, `${c.name}: ${desc} descendants shown of ${wantDesc}`);
      console.error(`report_check: ${c.name}: zoom into ${z.name} (depth ${z.d}): ${anc} ancestors, ${desc} frames kept`);
      if (c.shot) {
        await Page.captureScreenshot({ format: 'png' }).then((s) => fs.writeFileSync(path.join(cfg.artifacts, `report-${c.name}-zoom.png`), Buffer.from(s.data, 'base64')));
      }
      await click(...(await ev(`(() => { const u = document.getElementById('unzoom'); u.scrollIntoView({block: 'center'}); const b = u.getBoundingClientRect(); return [b.left + 5, b.top + 5]; })()`)));
      ok(await ev('pcolReport.zoomed()') === 0, `${c.name}: reset zoom did not reset`);
    }
    if (c.readme) { // the README's picture: a range that cuts a long sample, no search
      await ev(`(() => { const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input'));
        pcolReport.select(${c.readme[0]}, ${c.readme[1]}); window.scrollTo(0, 0); })()`);
      // to the end of the table and flame graph's section (the views below have pictures of their own)
      const h = await ev(`Math.ceil(document.getElementById('top-pane').closest('section').getBoundingClientRect().bottom)`);
      const pic = await Page.captureScreenshot({ format: 'png', clip: { x: 0, y: 0, width: 1100, height: h, scale: 1 }, captureBeyondViewport: true });
      fs.writeFileSync(path.join(cfg.artifacts, 'report-readme.png'), Buffer.from(pic.data, 'base64'));
      await viewShots(c.name, [['tl-section', 'timeline'], ['stack-section', 'stackchart'], ['flame-pane', 'flame']]);
      await Emulation.setDeviceMetricsOverride({ width: 1300, height: 1000, deviceScaleFactor: 1, mobile: false });
    }
    const shot = await Page.captureScreenshot({ format: 'png', captureBeyondViewport: false });
    fs.writeFileSync(path.join(cfg.artifacts, `report-${c.name}.png`), Buffer.from(shot.data, 'base64'));
    await sleep(50);
    ok(errors.length === 0, `${c.name}: console errors: ${errors.join(' | ')}`);
  }
  await client.close();
  chrome.kill('SIGTERM');
  clearTimeout(guard);
  console.log(`report_check: ${checks - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}
let CHROME = null; // killed on a failure too: no Chromium outlives the test
main().catch((e) => { console.error('FAIL: ' + (e && e.stack || e)); if (CHROME) CHROME.kill('SIGKILL'); process.exit(1); });
