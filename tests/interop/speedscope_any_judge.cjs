// speedscope_any_judge.cjs — speedscope's own importer reads profiles of
// any format it knows (V8 .cpuprofile, `perf script` text, speedscope
// JSON, pprof protobuf), as the app does when a file is dropped on it
// (tests/interop/t_import_judged.sh).
//
//   node speedscope_any_judge.cjs BUNDLE LIST OUT.jsonl
//
// LIST: one input file a line.  For each, OUT.jsonl gets one line:
// {"file", "profiles": [{"name", "total", "frames": {NAME: [self, total]},
// "names": {NAME: total}, "keys": {KEY: [NAME, self, total]},
// "files": {NAME: [FILE...]}}]}: the weights
// speedscope's Profile gives each frame (Frame.getSelfWeight/getTotalWeight),
// added up per frame name, and per frame (by its key: one a profile), and
// per name the time a frame of that name is on the stack in speedscope's call
// timeline (Profile.forEachCall; once per stack when two distinct frames
// share a name), and per name the files its frames show (Frame.file, which
// the app shows beside the name; sorted), or {"file", "error"}.  The importer is taken from the release bundle:
// importProfileGroup (the function that calls the format dispatcher and
// names the profiles), given a data source like the bundle's own text
// source (name, the file's bytes as an array buffer, which the pprof and
// JFR importers are tried on first, as in the app, and text with splitLines,
// firstChunk and parseAsJSON), the bundle stopped before it renders.  (The
// app gunzips a file before this: give it a .pb, not a .pb.gz.)
const fs = require('fs');
const [bundlePath, listPath, outPath] = process.argv.slice(2);
const { load, judgeFiles } = require('./speedscope_load.cjs');
const { importer, log } = load(bundlePath, /async function ([\w$]+)\(t\)\{let e=await t\.name\(\),n=await [\w$]+\(t\);if\(n\)/);
judgeFiles('speedscope_any_judge', listPath, outPath, log, async (file) => {
  const name = file.split('/').pop();
  const text = fs.readFileSync(file, 'utf8');
  const content = { splitLines: () => text.split('\n'), firstChunk: () => text,
                    parseAsJSON: () => JSON.parse(text) };
  const g = await importer({ name: async () => name,
    readAsArrayBuffer: async () => { const b = fs.readFileSync(file); return b.buffer.slice(b.byteOffset, b.byteOffset + b.length); }, readAsText: async () => content });
  if (!g || !g.profiles) throw new Error('speedscope could not import the file');
  return { file, profiles: g.profiles.map((p) => {
    const frames = Object.create(null); // (no prototype: a frame may be named "toString")
    const keys = Object.create(null), files = Object.create(null);
    p.forEachFrame((fr) => {
      if (fr.file) {
        const l = files[fr.name] || (files[fr.name] = []);
        if (!l.includes(fr.file)) { l.push(fr.file); l.sort(); }
      }
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
    return { name: p.getName(), total: p.getTotalWeight(), frames, names, keys, files };
  }) };
});
