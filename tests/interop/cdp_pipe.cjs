// cdp_pipe.cjs — headless Chromium driven over the DevTools protocol on a
// pipe (--remote-debugging-pipe: no port, no network, none of Chromium's
// own background fetches), for chrome_record.cjs and chrome_devtools_judge.cjs:
//
//   const cdp = require('./cdp_pipe.cjs')(CHROMIUM, TAG, TIMEOUT_MS);
//   await cdp.send(METHOD, PARAMS, SESSION_ID);  // a command's result
//   cdp.listeners.push((message) => ...);         // the protocol's events
//   cdp.done(CODE, MESSAGE);                      // Chromium closed, exit CODE
//
// Chromium starts in a profile directory of its own, which done() removes
// after closing it (asked first, then killed); done(1, ...) on a failure to
// start and when TIMEOUT_MS has passed.  MESSAGE goes to stderr after "TAG: ".
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
module.exports = function cdpPipe(chromium, tag, timeoutMs) {
  const ud = fs.mkdtempSync(path.join(os.tmpdir(), 'pcol-chrome-ud'));
  const ch = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--no-default-browser-check', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-pings', '--user-data-dir=' + ud, '--remote-debugging-pipe', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const tx = ch.stdio[3], rx = ch.stdio[4];
  let seq = 0, buf = '';
  const pending = new Map(), listeners = [];
  let exited = false;
  ch.on('exit', () => { exited = true; });
  async function done(code, msg) {
    if (msg) process.stderr.write(tag + ': ' + msg + '\n');
    if (!exited) {
      try { tx.write(JSON.stringify({ id: ++seq, method: 'Browser.close' }) + '\0'); } catch (e) { /* gone */ }
      for (let i = 0; i < 50 && !exited; i++) await new Promise((res) => setTimeout(res, 100));
      if (!exited) try { ch.kill('SIGKILL'); } catch (e) { /* gone */ }
      for (let i = 0; i < 20 && !exited; i++) await new Promise((res) => setTimeout(res, 100));
    }
    try { fs.rmSync(ud, { recursive: true, force: true, maxRetries: 5 }); } catch (e) { /* left in $TMPDIR */ }
    process.exit(code);
  }
  ch.on('error', (e) => done(1, 'cannot start ' + chromium + ': ' + e.message));
  setTimeout(() => done(1, 'timed out'), timeoutMs);
  function send(method, params = {}, sessionId) {
    const m = { id: ++seq, method, params };
    if (sessionId) m.sessionId = sessionId;
    tx.write(JSON.stringify(m) + '\0');
    return new Promise((res, rej) => pending.set(m.id, { res, rej, method }));
  }
  rx.on('data', (d) => {
    buf += d.toString('utf8');
    for (let k; (k = buf.indexOf('\0')) >= 0;) {
      const m = JSON.parse(buf.slice(0, k));
      buf = buf.slice(k + 1);
      const p = m.id !== undefined && pending.get(m.id);
      if (p) {
        pending.delete(m.id);
        if (m.error) p.rej(new Error(p.method + ': ' + JSON.stringify(m.error)));
        else p.res(m.result);
      } else {
        listeners.forEach((f) => f(m));
      }
    }
  });
  return { send, listeners, done };
};
