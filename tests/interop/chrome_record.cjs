// chrome_record.cjs — records a Chrome trace as DevTools' Performance panel
// does, with headless Chromium driven over the DevTools protocol (cdp_pipe.cjs: a pipe:
// --remote-debugging-pipe, no port, no network), of a local page:
//
//   node chrome_record.cjs CHROMIUM PAGE.html OUT.json
//   node chrome_record.cjs --proto CHROMIUM PAGE.html OUT.pftrace
//
// Tracing.start with the panel's categories (TimelineController: its
// JS-sampling recording, disabled-by-default-v8.cpu_profiler among them),
// the page opened in a new tab, the trace ended once the page sets
// document.title to "done"; OUT.json is {"traceEvents": [...]} as the
// panel saves it.  With --proto: a Perfetto (protobuf) trace of Chrome's
// sampling profiler instead (streamFormat "proto", transferMode
// "ReturnAsStream", the category disabled-by-default-cpu_profiler, whose
// TracingSamplerProfiler writes StreamingProfilePacket), read through
// IO.read into OUT.  Exit 1 (a message on stderr) when anything fails.
'use strict';
const fs = require('fs');
const path = require('path');
const proto = process.argv[2] === '--proto';
const [chromium, page, out] = process.argv.slice(proto ? 3 : 2);
const { send, listeners, done } = require('./cdp_pipe.cjs')(chromium, 'chrome_record', 90000);
const dis = (c) => 'disabled-by-default-' + c;
// DevTools' Performance panel (TimelineController), with JS samples
const categories = ['-*', 'blink.console', 'blink.user_timing', 'devtools.timeline', dis('devtools.timeline'),
  dis('devtools.timeline.frame'), dis('devtools.timeline.stack'), dis('v8.compile'), dis('v8.cpu_profiler.hires'),
  dis('lighthouse'), 'v8.execute', 'v8', 'cppgc', 'navigation', 'rail', 'latencyInfo', 'loading',
  dis('v8.cpu_profiler')];
(async () => {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const events = [];
  const complete = new Promise((res) => listeners.push((m) => {
    if (m.method === 'Tracing.dataCollected') for (const e of m.params.value) events.push(e);
    if (m.method === 'Tracing.tracingComplete') res(m.params.stream);
  }));
  if (proto)
    await send('Tracing.start', { traceConfig: { includedCategories: ['-*', dis('cpu_profiler')] },
      transferMode: 'ReturnAsStream', streamFormat: 'proto' });
  else
    await send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReportEvents' });
  await send('Page.navigate', { url: 'file://' + path.resolve(page) }, sessionId);
  for (let tries = 0; ; tries++) {
    const r = await send('Runtime.evaluate', { expression: 'document.title' }, sessionId);
    if (r.result && r.result.value === 'done') break;
    if (tries > 600) throw new Error('the page never set its title to "done"');
    await new Promise((res) => setTimeout(res, 100));
  }
  await send('Tracing.end');
  const stream = await complete;
  if (proto) {
    if (!stream) throw new Error('no stream handle in Tracing.tracingComplete');
    const parts = [];
    for (;;) {
      const r = await send('IO.read', { handle: stream, size: 1 << 20 });
      if (r.data) parts.push(Buffer.from(r.data, r.base64Encoded ? 'base64' : 'binary'));
      if (r.eof) break;
    }
    await send('IO.close', { handle: stream });
    fs.writeFileSync(out, Buffer.concat(parts));
  } else {
    fs.writeFileSync(out, JSON.stringify({ traceEvents: events }));
  }
  done(0);
})().catch((e) => done(1, e.message));
