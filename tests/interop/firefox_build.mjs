// firefox_build.mjs SRC OUT [ENTRY] — bundles ENTRY (default
// firefox_judge.ts) with the profiler's sources at SRC (its node_modules:
// esbuild and the runtime dependencies) into OUT, a node script.  The JsonSlabs decoder is stubbed: pcol's files
// are JSON.
import { createRequire } from 'module';
import path from 'path';
import fs from 'fs';
const [src, out, entry = 'firefox_judge.ts'] = process.argv.slice(2);
const require = createRequire(path.join(src, 'package.json'));
const esbuild = require('esbuild');
const here = path.dirname(new URL(import.meta.url).pathname);
const stub = path.join(path.dirname(out), 'json-slabs-stub.js');
fs.writeFileSync(stub, 'exports.isJsonSlabsFile = () => false;\n' +
  'exports.decodeJsonSlabs = () => { throw new Error("JsonSlabs not supported by the judge"); };\n' +
  'exports.encodeJsonSlabs = exports.decodeJsonSlabs;\n');
let alias = { 'firefox-profiler': path.join(src, 'src'), 'firefox-profiler-res': path.join(src, 'res') };
if (!fs.existsSync(path.join(src, 'node_modules', 'json-slabs'))) alias['json-slabs'] = stub;
await esbuild.build({
  entryPoints: [path.join(here, entry)],
  outfile: out, bundle: true, platform: 'node', format: 'cjs', target: 'node18',
  absWorkingDir: src, nodePaths: [path.join(src, 'node_modules')], alias,
  loader: { '.png': 'file', '.jpg': 'file', '.svg': 'dataurl', '.wasm': 'binary' },
  external: ['fs', 'path', 'crypto', 'zlib'], logLevel: 'error',
});
