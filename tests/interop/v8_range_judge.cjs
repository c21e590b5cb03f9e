// v8_range_judge.cjs — what Chrome DevTools' Performance panel says a time
// window of a V8 CPU profile holds, from the profile's JSON alone (no pcol):
// each sample lasts from its timestamp to the next sample's
// (CPUProfileDataModel: timestamps = startTime + the running sum of
// timeDeltas), and a selection sums, per function, the part of each
// sample's self time inside the window (the timeline's ProfileCall events
// clipped to it).  A Chrome trace's profiles (Profile and ProfileChunk
// events, chunks in ts order) share one clock: window times are since the
// earliest startTime, as pcol's are.  The last sample of a profile lasts 0
// (pcol's and speedscope's whole-profile weight; DevTools draws it an
// average gap, which no window of these tests reaches).  Samples of the
// root node (no function) are left out.
//
//   node v8_range_judge.cjs FILE FROM_NS TO_NS   ('-': open)
//     prints "NAME<TAB>SELF_NS" per function with a part in the window,
//     sorted by name; a function without a name (and pcol's "(anonymous
//     FILE:LINE)") is "(anonymous)", names summed.
//   node v8_range_judge.cjs FILE longest
//     prints "FROM_NS TO_NS": the middle third of the longest sample.
'use strict';
const fs = require('fs');
const [file, a, b] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(file, 'utf8'));

// profiles: {start (us), nodes: Map id -> node, samples: [id], deltas: [us]}
const profiles = [];
if (doc.nodes) {
  profiles.push({start: doc.startTime, nodes: new Map(doc.nodes.map((n) => [n.id, n])),
                 samples: doc.samples, deltas: doc.timeDeltas});
} else {
  const ev = Array.isArray(doc) ? doc : doc.traceEvents;
  const byId = new Map();
  ev.forEach((e, i) => { e._i = i; });
  for (const e of ev) if (e.name === 'Profile') {
    byId.set(e.pid + ':' + e.id, {start: e.args.data.startTime, nodes: new Map(), samples: [], deltas: [], chunks: []});
  }
  for (const e of ev) if (e.name === 'ProfileChunk') byId.get(e.pid + ':' + e.id).chunks.push(e);
  for (const p of byId.values()) {
    p.chunks.sort((x, y) => x.ts - y.ts || x._i - y._i);
    for (const c of p.chunks) {
      const cp = c.args.data.cpuProfile || {};
      for (const n of cp.nodes || []) p.nodes.set(n.id, n);
      p.samples.push(...(cp.samples || []));
      p.deltas.push(...(c.args.data.timeDeltas || []));
    }
    profiles.push(p);
  }
}
const origin = Math.min(...profiles.map((p) => p.start));
const ns = (us) => Math.round(us * 1000);

function name(n) {
  const f = n.callFrame.functionName;
  return f === '' ? '(anonymous)' : f;
}

// every sample: [t, e) in ns since the origin, its function (null: root)
const spans = [];
for (const p of profiles) {
  let t = p.start;
  const ts = p.deltas.map((d) => (t += d));
  for (let i = 0; i < p.samples.length; i++) {
    if (i && ts[i] < ts[i - 1]) throw new Error(file + ': timeDeltas go back: not a profile these tests use');
    const n = p.nodes.get(p.samples[i]);
    const root = !n || (n.callFrame.functionName === '(root)' && !n.callFrame.url);
    const s = ns(ts[i] - origin), e = i + 1 < ts.length ? ns(ts[i + 1] - origin) : s;
    spans.push([s, e, root ? null : name(n)]);
  }
}

if (a === 'longest') {
  let best = spans[0];
  for (const s of spans) if (s[1] - s[0] > best[1] - best[0]) best = s;
  const d = best[1] - best[0];
  console.log(best[0] + Math.floor(d / 3), best[0] + Math.floor((2 * d) / 3));
  process.exit(0);
}
const from = a === '-' ? -Infinity : Number(a), to = b === '-' ? Infinity : Number(b);
const self = new Map();
for (const [s, e, n] of spans) {
  const k = Math.min(e, to) - Math.max(s, from);
  if (n === null || k <= 0) continue;
  self.set(n, (self.get(n) || 0) + k);
}
for (const n of [...self.keys()].sort()) console.log(n + '\t' + self.get(n));
