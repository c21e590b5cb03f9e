// report_page.js — how long a `pcol report` page takes to become
// interactive in headless Chromium (navigation start to the page's
// pcol-ready mark: the first part decoded, the tables, flame graph, trees
// and call graph drawn; to pcol-timeline: the samples part in, the
// timeline and stack chart drawn; and to data-ready: the second part of
// the data, the values the first drawing does not read, in)
// and to recompute for a range (every view, the call graph included); and
// its first contentful paint.  Driven through the DevTools protocol
// (chrome-remote-interface from npm) on 127.0.0.1.  Bounded in time.
//   node report_page.js BROWSER PROFILE_DIR PAGE.html RUNS
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const CDP = require('chrome-remote-interface');
const [browser, prof, page, runsArg] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  // its own process group: Debian's chromium is a shell script that does
  // not exec the browser, so killing the script alone leaves it running
  const chrome = spawn(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', '--user-data-dir=' + prof,
    '--window-size=1300,1000', 'about:blank'], { stdio: 'ignore', detached: true });
  const kill = (sig) => { try { process.kill(-chrome.pid, sig); } catch (e) { /* gone */ } };
  const guard = setTimeout(() => { kill('SIGKILL'); console.error('timed out'); process.exit(1); }, 300000);
  let port = 0;
  for (let i = 0; i < 200 && !port; i++) {
    await sleep(100);
    try { port = +fs.readFileSync(path.join(prof, 'DevToolsActivePort'), 'utf8').split('\n')[0]; } catch (e) { /* not yet */ }
  }
  let client = null; // a loaded machine's Chromium may drop the first connection: tried again
  for (let i = 0; !client; i++) {
    try { client = await CDP({ host: '127.0.0.1', port }); } catch (e) { if (i >= 20) throw e; await sleep(250); }
  }
  const { Page, Runtime } = client;
  await Page.enable();
  const ev = async (e) => (await Runtime.evaluate({ expression: e, returnByValue: true })).result.value;
  const ready = [], range = [], paint = [], inter = [], marks = [], tline = [];
  for (let r = 0; r < +runsArg; r++) {
    const t0 = Date.now();
    await Page.navigate({ url: 'file://' + path.resolve(page) });
    while (!(await ev(`document.body && document.body.getAttribute('data-ready')`))) await sleep(20);
    ready.push(Date.now() - t0);
    paint.push(await ev(`Math.round((performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint') || { startTime: -1 }).startTime)`));
    // the page's marks (head.js): text parsed, base64, inflated, decoded, every view drawn (interactive), second part in
    const mk = await ev(`performance.getEntriesByType('mark').map(m => [m.name.replace(/^pcol-/, ''), Math.round(m.startTime)])`);
    marks.push(mk);
    inter.push((mk.find((m) => m[0] === 'ready') || [0, -1])[1]);
    tline.push((mk.find((m) => m[0] === 'timeline') || [0, -1])[1]);
    range.push(await ev(`(() => { const m = pcolReport.meta, s = m.sources.find(s => s.timed);
      if (!s) return 0; const t = performance.now(); pcolReport.select(s.t0 + (s.t1 - s.t0) / 3, s.t0 + (s.t1 - s.t0) / 2);
      return Math.round(performance.now() - t); })()`));
  }
  const med = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const mi = inter.indexOf(med(inter));
  console.error('report_page: marks (ms after navigation) of the median load: ' + marks[mi].map((m) => m.join(' ')).join(', '));
  console.log(`${med(ready)}\t${Math.min(...ready)}\t${Math.max(...ready)}\t${med(range)}\t${med(paint)}\t${med(inter)}\t${marks[mi].map((m) => m.join('=')).join(',')}\t${med(tline)}`);
  await client.close();
  kill('SIGTERM');
  clearTimeout(guard);
})().catch((e) => { console.error(e); process.exit(1); });
