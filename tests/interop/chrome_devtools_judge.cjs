// chrome_devtools_judge.cjs — Chrome DevTools' own trace engine, as the
// Chromium at hand bundles it, reads Chrome traces (tests/interop/t_chrome_export.sh):
//
//   node chrome_devtools_judge.cjs CHROMIUM OUT.jsonl TRACE.json...
//
// Headless Chromium (driven over the DevTools protocol on a pipe, no port,
// no network: cdp_pipe.cjs) opens its bundled DevTools front end
// (devtools://devtools/bundled/devtools_app.html) and, in that page, for
// each trace does what the Performance panel's TimelineLoader does with a
// trace file: the file's traceEvents (or the array) parsed by the trace
// engine (models/trace: TraceModel.Model.createWithAllHandlers().parse, the
// file's `metadata`, isCPUProfile when its dataOrigin says so), then the
// threads the panel draws (Handlers.Threads.threadsInTrace: their pid, tid,
// name and type) and, per thread, its calls (the ProfileCall entries the
// engine made of the samples, with their tree): per function name the self
// time of its calls (their tree nodes' selfTime) and the total time of
// those not inside a call of the same name (dur), in µs.  The engine times
// in ms doubles on the trace's clock (a node profile's clock is ~1e8 ms: a
// step of 15 ps), so each sum is rounded to the µs (pcol's values of the
// test are whole µs).  One JSON line a trace into OUT.jsonl, shaped as
// speedscope_any_judge.cjs's records (judge_compare.py reads one thread's):
//   {file, threads: [{pid, tid, name, type, calls, frames: {NAME: [self, total]},
//                     names: {NAME: total}}]}   or {file, error}.
// Exit 1 (a message on stderr) when Chromium or its DevTools fails; 77 when
// the Chromium has no bundled DevTools trace engine.
'use strict';
const fs = require('fs');
const [chromium, outFile, ...traces] = process.argv.slice(2);
const { send, done } = require('./cdp_pipe.cjs')(chromium, 'chrome_devtools_judge', 120000);
// run in the DevTools page: the trace in globalThis.__pcolTrace
const judge = `(async () => {
  const T = await import('./models/trace/trace.js');
  const file = globalThis.__pcolTrace;
  const events = Array.isArray(file) ? file : file.traceEvents;
  const metadata = (!Array.isArray(file) && file.metadata) || {};
  const model = T.TraceModel.Model.createWithAllHandlers();
  await model.parse(events, { metadata, isFreshRecording: false,
                              isCPUProfile: metadata.dataOrigin === T.Types.File.DataOrigin.CPU_PROFILE });
  const d = model.parsedTrace(model.lastTraceIndex()).data;
  const threads = [];
  for (const t of T.Handlers.Threads.threadsInTrace(d)) {
    const frames = {}, names = {};
    let calls = 0;
    for (const e of t.entries) {
      if (!T.Types.Events.isProfileCall(e)) continue;
      calls++;
      const node = t.entryToNode.get(e);
      const name = e.callFrame.functionName;
      const f = frames[name] || (frames[name] = [0, 0]);
      f[0] += node ? node.selfTime || 0 : 0;
      let outer = true;
      for (let p = node && node.parent; p && outer; p = p.parent)
        if (T.Types.Events.isProfileCall(p.entry) && p.entry.callFrame.functionName === name) outer = false;
      if (outer) f[1] += e.dur || 0;
    }
    for (const k in frames) {
      frames[k] = frames[k].map(Math.round);
      names[k] = frames[k][1];
    }
    threads.push({ pid: t.pid, tid: t.tid, name: t.name, type: t.type, calls, frames, names });
  }
  delete globalThis.__pcolTrace;
  return JSON.stringify({ threads });
})()`;
(async () => {
  const { targetId } = await send('Target.createTarget', { url: 'devtools://devtools/bundled/devtools_app.html' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const ev = async (expression) => {
    const r = await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
    if (r.exceptionDetails)
      throw new Error((r.exceptionDetails.exception && r.exceptionDetails.exception.description) || r.exceptionDetails.text);
    return r.result.value;
  };
  // the page's modules load after the navigation: wait for the trace engine
  for (let tries = 0; ; tries++) {
    try {
      if (await ev(`import('./models/trace/trace.js').then((T) => !!(T.TraceModel && T.Handlers.Threads))`)) break;
    } catch (e) {
      if (tries > 100) {
        process.stderr.write('chrome_devtools_judge: no DevTools trace engine in ' + chromium + ': ' + e.message + '\n');
        return done(77);
      }
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  const lines = [];
  for (const f of traces) {
    let rec;
    try {
      await ev('globalThis.__pcolTrace = ' + fs.readFileSync(f, 'utf8') + ';0');
      rec = Object.assign({ file: f }, JSON.parse(await ev(judge)));
    } catch (e) {
      rec = { file: f, error: e.message.slice(0, 2000) };
    }
    lines.push(JSON.stringify(rec));
  }
  fs.writeFileSync(outFile, lines.join('\n') + '\n');
  done(0);
})().catch((e) => done(1, e.message));
