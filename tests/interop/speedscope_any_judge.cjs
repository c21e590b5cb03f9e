// speedscope_any_judge.cjs — speedscope's own importer reads profiles of
// any format it knows (V8 .cpuprofile, `perf script` text, speedscope
// JSON), as the app does when a file is dropped on it
// (tests/interop/t_import_judged.sh).
//
//   node speedscope_any_judge.cjs BUNDLE LIST OUT.jsonl
//
// LIST: one input file a line.  For each, OUT.jsonl gets one line:
// {"file", "profiles": [{"name", "total", "frames": {NAME: [self, total]},
// "names": {NAME: total}, "keys": {KEY: [NAME, self, total]}}]}: the weights
// speedscope's Profile gives each frame (Frame.getSelfWeight/getTotalWeight),
// added up per frame name, and per frame (by its key: one a profile), and
// per name the time a frame of that name is on the stack in speedscope's call
// timeline (Profile.forEachCall; once per stack when two distinct frames
// share a name), or {"file", "error"}.  The importer is taken from the release bundle:
// importProfileGroup (the function that calls the format dispatcher and
// names the profiles), given a data source like the bundle's own text
// source (name, an empty array buffer, text with splitLines, firstChunk and
// parseAsJSON), the bundle stopped before it renders.
const fs = require('fs');
const [bundlePath, listPath, outPath] = process.argv.slice(2);
let src = fs.readFileSync(bundlePath, 'utf8');
const imp = src.match(/async function ([\w$]+)\(t\)\{let e=await t\.name\(\),n=await [\w$]+\(t\);if\(n\)/);
const at = src.lastIndexOf('console.log(`speedscope v${');
if (!imp || at < 0) { console.error('speedscope importer not found in ' + bundlePath); process.exit(1); }
src = src.slice(0, at) + `globalThis.__pcolImport=${imp[1]};return;` + src.slice(at);
const any = new Proxy(function () {}, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => '' : any), apply: () => any, construct: () => any });
Object.assign(globalThis, {
  window: globalThis, document: any, navigator: { userAgent: 'node', platform: 'node' },
  location: { hash: '', search: '', href: 'file:///', protocol: 'file:' },
  localStorage: { getItem: () => null, setItem() {} }, addEventListener() {},
  matchMedia: () => ({ matches: false, addEventListener() {}, addListener() {} }),
  requestAnimationFrame: () => 0 });
const log = console.log; console.log = () => {};
new Function(src)();
const files = fs.readFileSync(listPath, 'utf8').split('\n').filter((l) => l.length);
const out = fs.openSync(outPath, 'w');
(async () => {
  for (const file of files) {
    let rec;
    try {
      const name = file.split('/').pop();
      const text = fs.readFileSync(file, 'utf8');
      const content = { splitLines: () => text.split('\n'), firstChunk: () => text,
                        parseAsJSON: () => JSON.parse(text) };
      const g = await globalThis.__pcolImport({ name: async () => name,
        readAsArrayBuffer: async () => new ArrayBuffer(0), readAsText: async () => content });
      if (!g || !g.profiles) throw new Error('speedscope could not import the file');
      rec = { file, profiles: g.profiles.map((p) => {
        const frames = Object.create(null); // (no prototype: a frame may be named "toString")
        const keys = Object.create(null);
        p.forEachFrame((fr) => {
          const e = frames[fr.name] || (frames[fr.name] = [0, 0]);
          e[0] += fr.getSelfWeight(); e[1] += fr.getTotalWeight();
          keys[fr.key] = [String(fr.name), fr.getSelfWeight(), fr.getTotalWeight()];
        });
        // per name, the time some frame of that name is on the stack (a
        // name counts once per stack even when distinct frames share it,
        // as String() shows it: 1 and "1" are one name):
        // speedscope's own call timeline (Profile.forEachCall)
        const names = Object.create(null), open = [];
        p.forEachCall((node, v) => { open.push([String(node.frame.name), v]); }, (node, v) => {
          const [name, at] = open.pop();
          if (!open.some((o) => o[0] === name)) names[name] = (names[name] || 0) + (v - at);
        });
        return { name: p.getName(), total: p.getTotalWeight(), frames, names, keys };
      }) };
    } catch (e) {
      rec = { file, error: String(e && e.message || e).slice(0, 500) };
    }
    fs.writeSync(out, JSON.stringify(rec) + '\n');
  }
  fs.closeSync(out);
  log(`speedscope_any_judge: ${files.length} files`);
})().catch((e) => { console.error(String(e)); process.exit(1); });
