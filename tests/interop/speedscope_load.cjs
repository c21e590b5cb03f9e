// speedscope_load.cjs — speedscope's release bundle run in node, stopped
// before it renders, for the one function of it a judge calls
// (speedscope_judge.cjs, speedscope_any_judge.cjs).
//
//   const { load, judgeFiles } = require('./speedscope_load.cjs');
//   const { importer, log } = load(BUNDLE, RE);
//   judgeFiles(NAME, LIST, OUT, log, async (file) => RECORD);
//
// RE finds the function in the bundle's text (its name: RE's first group);
// the bundle runs up to where it would print its version and render, with
// a window, document and the rest of the browser stubbed.  console.log is
// silenced (the bundle logs as it imports): log is the judge's own.  Exits
// 1 when the bundle has no such function.  judgeFiles writes a line into
// OUT per file LIST names (one a line): the JSON of the record the function
// gives, or {"file", "error"} when it throws; then logs "NAME: N files".
const fs = require('fs');
const load = (bundlePath, re) => {
  let src = fs.readFileSync(bundlePath, 'utf8');
  const m = src.match(re);
  const at = src.lastIndexOf('console.log(`speedscope v${');
  if (!m || at < 0) { console.error('speedscope importer not found in ' + bundlePath); process.exit(1); }
  src = src.slice(0, at) + `globalThis.__pcolImport=${m[1]};return;` + src.slice(at);
  const any = new Proxy(function () {}, {
    get: (t, k) => (k === Symbol.toPrimitive ? () => '' : any), apply: () => any, construct: () => any });
  Object.assign(globalThis, {
    window: globalThis, document: any, navigator: { userAgent: 'node', platform: 'node' },
    location: { hash: '', search: '', href: 'file:///', protocol: 'file:' },
    localStorage: { getItem: () => null, setItem() {} }, addEventListener() {},
    matchMedia: () => ({ matches: false, addEventListener() {}, addListener() {} }),
    requestAnimationFrame: () => 0 });
  const log = console.log;
  console.log = () => {};
  new Function(src)();
  return { importer: globalThis.__pcolImport, log };
};
const judgeFiles = (name, listPath, outPath, log, recordOf) => {
  const files = fs.readFileSync(listPath, 'utf8').split('\n').filter((l) => l.length);
  const out = fs.openSync(outPath, 'w');
  (async () => {
    for (const file of files) {
      let rec;
      try {
        rec = await recordOf(file);
      } catch (e) {
        rec = { file, error: String(e && e.message || e).slice(0, 500) };
      }
      fs.writeSync(out, JSON.stringify(rec) + '\n');
    }
    fs.closeSync(out);
    log(`${name}: ${files.length} files`);
  })().catch((e) => { console.error(String(e)); process.exit(1); });
};
module.exports = { load, judgeFiles };
