// speedscope_judge.cjs — speedscope's own importer reads many files in one
// node process (tests/interop/t_matrix.sh).
//
//   node speedscope_judge.cjs NPM_DIR BUNDLE SCHEMA LIST OUT.jsonl
//
// LIST: one speedscope JSON file a line.  For each, OUT.jsonl gets one line:
// {"file", "active", "profiles": [{"name", "type", "total", "frames":
// {NAME: [self, total, n]}}]} where self/total are the weights speedscope's
// Profile gives each frame (Frame.getSelfWeight/getTotalWeight: a frame's
// total counts once per sample, as go tool pprof's cum), added up per frame
// name (n = how many speedscope frames bear the name), or {"file", "error"}.
// The file is first validated against the schema the package ships (ajv).
// The importer is found in the release bundle as t_speedscope.sh finds it:
// the function that handles "$schema": ".../file-format-schema.json", with
// the bundle stopped before it renders.
const fs = require('fs');
const path = require('path');
const [npmDir, bundlePath, schemaPath, listPath, outPath] = process.argv.slice(2);
const Ajv = require(path.join(npmDir, 'node_modules', 'ajv'));
const ajv = new Ajv({ strict: false, allErrors: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
let src = fs.readFileSync(bundlePath, 'utf8');
const m = src.match(/"Importing as speedscope json file"\),([\w$]+)\(/);
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
const log = console.log; console.log = () => {};
new Function(src)();
const files = fs.readFileSync(listPath, 'utf8').split('\n').filter((l) => l.length);
const out = fs.openSync(outPath, 'w');
(async () => {
  for (const file of files) {
    let rec;
    try {
      const data = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!validate(data)) throw new Error('schema: ' + ajv.errorsText(validate.errors).slice(0, 500));
      const g = await globalThis.__pcolImport(data);
      if (!g || !g.profiles || g.profiles.length !== data.profiles.length) throw new Error('profiles missing after import');
      rec = { file, active: data.activeProfileIndex, profiles: g.profiles.map((p, i) => {
        const frames = Object.create(null); // (no prototype: a frame may be named "toString")
        p.forEachFrame((fr) => {
          const e = frames[fr.name] || (frames[fr.name] = [0, 0, 0]);
          e[0] += fr.getSelfWeight(); e[1] += fr.getTotalWeight(); e[2] += 1;
        });
        return { name: p.getName(), type: data.profiles[i].type, total: p.getTotalWeight(), frames };
      }) };
    } catch (e) {
      rec = { file, error: String(e && e.message || e).slice(0, 500) };
    }
    fs.writeSync(out, JSON.stringify(rec) + '\n');
  }
  fs.closeSync(out);
  log(`speedscope_judge: ${files.length} files`);
})().catch((e) => { console.error(String(e)); process.exit(1); });
