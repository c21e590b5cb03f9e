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
const { load, judgeFiles } = require('./speedscope_load.cjs');
const { importer, log } = load(bundlePath, /"Importing as speedscope json file"\),([\w$]+)\(/);
judgeFiles('speedscope_judge', listPath, outPath, log, async (file) => {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!validate(data)) throw new Error('schema: ' + ajv.errorsText(validate.errors).slice(0, 500));
  const g = await importer(data);
  if (!g || !g.profiles || g.profiles.length !== data.profiles.length) throw new Error('profiles missing after import');
  return { file, active: data.activeProfileIndex, profiles: g.profiles.map((p, i) => {
    const frames = Object.create(null); // (no prototype: a frame may be named "toString")
    p.forEachFrame((fr) => {
      const e = frames[fr.name] || (frames[fr.name] = [0, 0, 0]);
      e[0] += fr.getSelfWeight(); e[1] += fr.getTotalWeight(); e[2] += 1;
    });
    return { name: p.getName(), type: data.profiles[i].type, total: p.getTotalWeight(), frames };
  }) };
});
