/* firefox_cli_judge.cjs CLI_JS FILE... — the Firefox Profiler's own code, as
 * published on npm in @firefox-devtools/profiler-cli (one bundle of the
 * profiler's profile-logic: format sniffing, gzip, the processed and Gecko
 * upgraders, Gecko processing, the function list's timings), as the judge
 * of pcol's Firefox files where no checkout of the profiler is at hand
 * (tests/interop/t_firefox.sh; firefox_judge.ts is the same judge built
 * from a checkout).  Nothing of the profiler is in this repository.
 *
 * For each file: the bundle's daemon (`CLI_JS --daemon FILE --session ID`,
 * a child of this script, its Unix socket in a directory of our own) loads
 * it; this script asks it over the socket, one JSON line a message as its
 * own client does: profile meta, profile info (the root range, what the
 * timeline shows: getTimeRangeIncludingAllThreads), thread list, and each
 * thread's function list with idle samples included (a function's
 * self, and its total counting a sample once however often it recurses);
 * then shuts it down.  Prints one JSON line a file, as firefox_judge.ts:
 * {file, version, upgradeInfo, warnings, range, threads: [{name, pid, tid,
 * weightType, funcs: [[name, null, self, total, nameWithLibrary], ...]}]}, or {file,
 * error, warnings}.  The daemon gives a function's name as its list shows it,
 * `LIB!NAME` where the function has a library or host, and NAME as the
 * part after the first `!` (so a name that holds a `!` itself is cut):
 * both are given, firefox_compare.py takes the one pcol has.  upgradeInfo is {from, to} when the profiler upgraded a
 * processed profile (the file's meta.preprocessedProfileVersion against the
 * loaded one's); warnings are what the daemon logged as [WARN] or [ERROR].
 * Every daemon is bounded in time (LOAD_MS, ASK_MS) and killed at the end. */
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const zlib = require('zlib');

const LOAD_MS = 120000, ASK_MS = 60000;

function fileVersion(file) {
  try {
    let b = fs.readFileSync(file);
    if (b[0] === 0x1f && b[1] === 0x8b) b = zlib.gunzipSync(b);
    const j = JSON.parse(b.toString('utf8'));
    const m = j && j.meta;
    if (!m) return null;
    return { processed: m.preprocessedProfileVersion ?? null, gecko: m.version ?? null };
  } catch (e) {
    return null; /* not JSON: the profiler's other importers */
  }
}

/* one client connection: ask(msg) sends a line and resolves with the reply */
function connect(sock) {
  return new Promise((resolve, reject) => {
    const c = net.connect(sock);
    let buf = '';
    const waiting = [];
    c.on('data', (d) => {
      buf += d.toString('utf8');
      let i;
      while ((i = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const w = waiting.shift();
        if (w) w(JSON.parse(line));
      }
    });
    c.on('error', reject);
    c.on('connect', () => {
      const ask = (msg) => new Promise((res, rej) => {
        const t = setTimeout(() => rej(new Error('no answer in ' + ASK_MS + ' ms to ' + JSON.stringify(msg))), ASK_MS);
        waiting.push((r) => { clearTimeout(t); res(r); });
        c.write(JSON.stringify(msg) + '\n');
      });
      resolve({ ask, close: () => c.destroy() });
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function judge(cli, dir, n, file) {
  const id = 'j' + n;
  const sock = path.join(dir, id + '.sock'), log = path.join(dir, id + '.log');
  const child = spawn(process.execPath, [cli, '--daemon', path.resolve(file), '--session', id],
    { stdio: 'ignore', env: { ...process.env, PROFILER_CLI_SESSION_DIR: dir } });
  let exited = false;
  child.on('exit', () => { exited = true; });
  const warnings = () => {
    try {
      return fs.readFileSync(log, 'utf8').split('\n').filter((l) => /^\[(WARN|ERROR)\]/.test(l))
        .map((l) => l.replace(/^\[(\w+)\] \S+ /, (_, k) => k.toLowerCase() + ': '));
    } catch (e) {
      return [];
    }
  };
  let c = null;
  try {
    const end = Date.now() + LOAD_MS;
    while (!c) {
      if (exited) throw new Error('the daemon exited while loading: ' + warnings().join('; '));
      if (Date.now() > end) throw new Error('the daemon did not listen in ' + LOAD_MS + ' ms');
      if (fs.existsSync(sock)) c = await connect(sock).catch(() => null);
      if (!c) await sleep(20);
    }
    for (;;) {
      const s = await c.ask({ type: 'status' });
      if (s.type === 'ready') break;
      if (s.type === 'error') throw new Error(s.error);
      if (Date.now() > end) throw new Error('not loaded in ' + LOAD_MS + ' ms');
      await sleep(20);
    }
    const cmd = async (command) => {
      const r = await c.ask({ type: 'command', command });
      if (r.type !== 'success') throw new Error(r.error || JSON.stringify(r));
      return r.result;
    };
    /* the daemon's results are JSON objects (the CLI's --json prints them) */
    const obj = (r) => (typeof r === 'string' ? JSON.parse(r) : r);
    const meta = obj(await cmd({ command: 'profile', subcommand: 'meta' }));
    const info = obj(await cmd({ command: 'profile', subcommand: 'info', all: true }));
    const list = obj(await cmd({ command: 'thread', subcommand: 'list', threadListOptions: { limit: 1e9 } }));
    const threads = [];
    for (const t of list.threads) {
      const fl = obj(await cmd({ command: 'thread', subcommand: 'functions', thread: t.threadHandle,
                                 includeIdle: true, functionFilters: { limit: 1e9 } }));
      const funcs = fl.functions.filter((f) => f.selfSamples || f.totalSamples)
        .map((f) => [f.name, null, f.selfSamples, f.totalSamples, f.nameWithLibrary]);
      threads.push({ name: t.name, pid: t.pid, tid: t.tid, weightType: fl.weightType === 'tracing-ms'
        ? 'tracing-ms' : fl.weightType || 'samples', funcs });
    }
    const v = fileVersion(file);
    const loaded = meta.preprocessedProfileVersion;
    const upgradeInfo = v && v.processed !== null && v.processed !== loaded ? { from: v.processed, to: loaded } : {};
    const r = info.context.rootRange;
    return { file, version: v && v.processed !== null ? v.processed : loaded, loadedVersion: loaded,
             upgradeInfo, warnings: warnings(), range: [r.start, r.end], threads };
  } catch (e) {
    return { file, error: String(e && e.message ? e.message : e), warnings: warnings() };
  } finally {
    if (c) {
      await c.ask({ type: 'shutdown' }).catch(() => null);
      c.close();
    }
    for (let i = 0; i < 100 && !exited; i++) await sleep(20);
    if (!exited) child.kill('SIGKILL');
  }
}

(async () => {
  const [cli, ...files] = process.argv.slice(2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ffj')); /* short: a socket path is at most 108 bytes */
  try {
    let n = 0;
    for (const f of files) process.stdout.write(JSON.stringify(await judge(cli, dir, n++, f)) + '\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
})();
