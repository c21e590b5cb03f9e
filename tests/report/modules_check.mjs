// modules_check.mjs — the report page's script modules (lib/query/report/,
// listed in modules.txt) name what they use: every top-level name a module
// uses from another module is imported from it, every import is exported by
// the module named and used, no module assigns to an imported name (an ES
// module cannot), no two modules declare one top-level name (the page joins
// them in one scope, tools/build/embed.sh), the imports form no cycle and
// modules.txt lists each module after those it imports, the computing
// modules import no view, and modules.txt lists every .js file there.
//   node modules_check.mjs [DIR]        (DIR: lib/query/report)
// First it runs itself on small module sets made here, one fault each, and
// fails if it misses one.
// The scan is a tokenizer with function and catch scopes (var, let and
// const as function-scoped): enough for the page's ES5-style code, which
// uses no destructuring, classes, arrow functions or template expressions;
// it stops with an error on what it does not read.
import fs from 'node:fs';
import vm from 'node:vm';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// modules.txt: "NAME.js compute|view" a line, # comments
export function readList(file) {
  const mods = [];
  fs.readFileSync(file, 'utf8').split('\n').forEach((l, i) => {
    l = l.replace(/#.*/, '').trim();
    if (!l) return;
    const m = /^([a-z0-9_]+\.js)\s+(compute|view)$/.exec(l);
    if (!m) throw new Error(`${file}:${i + 1}: not "NAME.js compute|view": ${l}`);
    mods.push({ name: m[1], kind: m[2] });
  });
  return mods;
}

const KEYWORDS = new Set(('break case catch continue debugger default delete do else finally for function if in instanceof new ' +
  'return switch this throw try typeof var void while with let const of null true false undefined import export from as ' +
  'class extends super yield await static get set async').split(' '));
const REGEX_AFTER = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^',
  '&&', '||', '==', '===', '!=', '!==', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '|=', '&=', '??', 'return', 'typeof',
  'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else']);
const PUNCT = ['>>>=', '===', '!==', '>>>', '<<=', '>>=', '**=', '...', '&&=', '||=', '??=', '==', '!=', '<=', '>=', '&&', '||',
  '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '**', '=>'];

function tokenize(src, file) {
  const toks = [];
  let i = 0, line = 1;
  const fail = (m) => { throw new Error(`${file}:${line}: ${m}`); };
  const prev = () => (toks.length ? toks[toks.length - 1] : null);
  while (i < src.length) {
    const c = src[i];
    if (c === '\n') { line++; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (src.startsWith('//', i)) { while (i < src.length && src[i] !== '\n') i++; continue; }
    if (src.startsWith('/*', i)) {
      const e = src.indexOf('*/', i + 2);
      if (e < 0) fail('unclosed comment');
      line += src.slice(i, e).split('\n').length - 1; i = e + 2; continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[A-Za-z0-9_$]/.test(src[j])) j++;
      toks.push({ t: 'id', v: src.slice(i, j), line }); i = j; continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1]))) {
      let j = i + 1;
      while (j < src.length && /[0-9A-Za-z_.]/.test(src[j])) j++;
      toks.push({ t: 'num', v: src.slice(i, j), line }); i = j; continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\') j++;
        else if (c === '`' && src[j] === '$' && src[j + 1] === '{') fail('template expression');
        else if (src[j] === '\n') { if (c !== '`') fail('line break in a string'); line++; }
        j++;
      }
      toks.push({ t: 'str', v: src.slice(i, j + 1), line }); i = j + 1; continue;
    }
    if (c === '/') {
      const p = prev();
      if (!p || (p.t === 'punct' && REGEX_AFTER.has(p.v)) || (p.t === 'id' && REGEX_AFTER.has(p.v))) {
        let j = i + 1, cls = false;
        while (j < src.length && (cls || src[j] !== '/')) {
          if (src[j] === '\\') j++;
          else if (src[j] === '[') cls = true;
          else if (src[j] === ']') cls = false;
          else if (src[j] === '\n') fail('line break in a regular expression');
          j++;
        }
        j++;
        while (j < src.length && /[a-z]/.test(src[j])) j++;
        toks.push({ t: 're', v: src.slice(i, j), line }); i = j; continue;
      }
    }
    const p = PUNCT.find((x) => src.startsWith(x, i)) || c;
    toks.push({ t: 'punct', v: p, line }); i += p.length;
  }
  return toks;
}

// scopes: {from, to (token indexes), names:Set, parent}; top = the module's
export function analyse(src, file) {
  const toks = tokenize(src, file);
  const imports = [], exported = new Set();
  const fail = (k, m) => { throw new Error(`${file}:${toks[Math.min(k, toks.length - 1)].line}: ${m}`); };
  // import/export lines: only `import { a, b } from './x.js';` and `export
  // function|var|let|const` at the top level (embed.sh strips just these)
  const match = new Array(toks.length).fill(-1), stack = [];
  toks.forEach((t, k) => {
    if (t.t !== 'punct') return;
    if ('([{'.includes(t.v)) stack.push(k);
    else if (')]}'.includes(t.v)) { const o = stack.pop(); if (o === undefined) fail(k, 'unbalanced ' + t.v); match[o] = k; match[k] = o; }
  });
  if (stack.length) fail(stack[0], 'unbalanced');
  const skip = new Set(); // token indexes of import/export syntax
  let depth = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.t === 'punct' && '([{'.includes(t.v)) depth++;
    if (t.t === 'punct' && ')]}'.includes(t.v)) depth--;
    if (t.t !== 'id' || (t.v !== 'import' && t.v !== 'export')) continue;
    if (depth) fail(k, t.v + ' below the top level');
    if (t.v === 'export') {
      const n = toks[k + 1];
      if (!n || !['function', 'var', 'let', 'const'].includes(n.v)) fail(k, 'only export function|var|let|const');
      if (k && toks[k - 1].line === t.line) fail(k, 'export not at the start of a line');
      skip.add(k); toks[k + 1].exported = true; continue;
    }
    // import { a, b } from './x.js';
    const line = t.line;
    let j = k + 1;
    if (!toks[j] || toks[j].v !== '{') fail(k, 'only import { NAME, ... } from \'./FILE.js\';');
    const names = [];
    for (j++; toks[j] && toks[j].v !== '}'; j++) {
      if (toks[j].t === 'id' && !KEYWORDS.has(toks[j].v)) names.push(toks[j].v);
      else if (toks[j].v !== ',') fail(j, 'only import { NAME, ... } (no "as")');
    }
    const from = toks[j + 1], spec = toks[j + 2], semi = toks[j + 3];
    if (!from || from.v !== 'from' || !spec || spec.t !== 'str' || !/^'\.\/[a-z0-9_]+\.js'$/.test(spec.v) || !semi || semi.v !== ';')
      fail(k, 'only import { NAME, ... } from \'./FILE.js\';');
    if (toks[j + 3].line !== line || (k && toks[k - 1].line === line)) fail(k, 'an import is one line of its own');
    imports.push({ names, from: spec.v.slice(3, -1), line });
    for (let x = k; x <= j + 3; x++) skip.add(x);
    k = j + 3;
  }
  // embed.sh deletes the lines /^import { ... } from '.\/x.js';$/ and the
  // words /^export / by line: each must be one of those read here
  const lines = src.split('\n');
  const imp = lines.filter((l) => /^import\b/.test(l)), ex = lines.filter((l) => /^export\b/.test(l));
  imp.forEach((l) => { if (!/^import \{ [A-Za-z0-9_$, ]* \} from '\.\/[a-z0-9_]*\.js';$/.test(l)) throw new Error(`${file}: not an import line embed.sh takes out: ${l}`); });
  if (imp.length !== imports.length) throw new Error(`${file}: ${imp.length} lines start with "import", ${imports.length} are imports`);
  const nexp = toks.filter((t, k) => t.v === 'export' && skip.has(k)).length;
  if (ex.length !== nexp) throw new Error(`${file}: ${ex.length} lines start with "export", ${nexp} are exports`);
  // scopes
  const top = { from: 0, to: toks.length, names: new Set(), parent: null, kids: [] };
  const scopes = [top];
  const inner = (k, s = top) => { for (const c of s.kids) if (k >= c.from && k <= c.to) return inner(k, c); return s; };
  const fnScope = (s) => { while (s.kind === 'block') s = s.parent; return s; };
  const refs = []; // {k, name}
  // pass 1: make scopes (functions, catch blocks) in source order
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.t !== 'id') continue;
    if (t.v === 'function') {
      let j = k + 1, name = null;
      if (toks[j].t === 'id') name = toks[j++].v;
      if (toks[j].v !== '(') fail(j, 'function without (');
      const close = match[j], body = close + 1;
      if (toks[body].v !== '{') fail(body, 'function without {');
      const outer = inner(k);
      const s = { from: j, to: match[body], names: new Set(), parent: outer, kids: [] };
      for (let x = j + 1; x < close; x++) {
        if (toks[x].t === 'id') s.names.add(toks[x].v);
        else if (toks[x].v !== ',') fail(x, 'parameters other than plain names');
      }
      const p = toks[k - 1] && !skip.has(k - 1) ? toks[k - 1] : null;
      const decl = !p || [';', '{', '}'].includes(p.v);
      if (name) {
        if (decl) { fnScope(outer).names.add(name); if (t.exported) exported.add(name); }
        else s.names.add(name);
        if (decl && outer === top) top.decl = (top.decl || new Map()).set(name, t.line);
      }
      outer.kids.push(s); scopes.push(s);
    } else if (t.v === 'catch') {
      const j = k + 1, close = match[j], body = close + 1;
      const outer = inner(k);
      const s = { from: j, to: match[body], names: new Set([toks[j + 1].v]), parent: outer, kids: [], kind: 'block' };
      outer.kids.push(s); scopes.push(s);
    } else if (t.v === '=>' || t.v === 'class') fail(k, 'arrow functions and classes are not read');
  }
  // pass 2: declarations and references
  const declTok = new Set();
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.t === 'punct' && t.v === '=>') fail(k, 'arrow functions are not read');
    if (t.t !== 'id' || skip.has(k)) continue;
    if (['var', 'let', 'const'].includes(t.v)) {
      const s = fnScope(inner(k));
      let j = k + 1;
      for (;;) {
        if (toks[j].t !== 'id') fail(j, 'a declaration other than of plain names');
        s.names.add(toks[j].v);
        if (s === top) { top.decl = (top.decl || new Map()).set(toks[j].v, toks[j].line); if (t.exported) exported.add(toks[j].v); }
        declTok.add(j);
        j++;
        while (j < toks.length) { // to the next declarator or the end
          const v = toks[j].v;
          if (toks[j].t === 'punct' && '([{'.includes(v)) { j = match[j] + 1; continue; }
          if (toks[j].t === 'punct' && (v === ';' || ')]}'.includes(v))) break;
          if (toks[j].t === 'id' && (v === 'in' || v === 'of') && toks[j - 1].t === 'id') break;
          if (v === ',') break;
          j++;
        }
        if (j < toks.length && toks[j].v === ',') { j++; continue; }
        break;
      }
      continue; // the initializers are read as any code
    }
    if (KEYWORDS.has(t.v) || declTok.has(k)) continue;
    const p = toks[k - 1], n = toks[k + 1];
    if (p && (p.v === '.' || p.v === '?.')) continue; // a property
    if (p && (p.v === '{' || p.v === ',') && n && n.v === ':') continue; // an object key
    if (p && p.v === 'function') continue; // a function's own name
    refs.push({ k, name: t.v });
  }
  // parameter lists are declarations, not uses
  const params = new Set();
  for (const s of scopes) if (s !== top && s.kind !== 'block') for (let x = s.from; x < match[s.from]; x++) params.add(x);
  for (const s of scopes) if (s.kind === 'block') params.add(s.from + 1);
  const free = new Map(); // name -> [{line, assigned}]
  for (const r of refs) {
    if (params.has(r.k)) continue;
    let s = inner(r.k), found = false;
    for (; s && s !== top; s = s.parent) if (s.names.has(r.name)) { found = true; break; }
    if (found) continue;
    const n = toks[r.k + 1], p = toks[r.k - 1];
    const assigned = ((n && /^([-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=$/.test(n.v)) || (n && (n.v === '++' || n.v === '--')) || (p && (p.v === '++' || p.v === '--')));
    if (top.names.has(r.name) && !assigned) continue;
    if (!free.has(r.name)) free.set(r.name, []);
    free.get(r.name).push({ line: toks[r.k].line, assigned, local: top.names.has(r.name) });
  }
  return { imports, exported, decl: top.decl || new Map(), free, code: toks.filter((t, k) => !skip.has(k)) };
}

// the problems of the modules in dir, as messages
export function check(dir) {
  const problems = [], err = (m) => problems.push(m);
  let list;
  try { list = readList(path.join(dir, 'modules.txt')); } catch (e) { return [e.message]; }
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js')).sort();
  for (const f of files) if (!list.some((m) => m.name === f)) err(`${f} is not in modules.txt`);
  const byName = new Map(), owner = new Map();
  for (const m of list) {
    if (byName.has(m.name)) err(`modules.txt lists ${m.name} twice`);
    if (!fs.existsSync(path.join(dir, m.name))) { err(`modules.txt lists ${m.name}, which is not there`); continue; }
    try { Object.assign(m, analyse(fs.readFileSync(path.join(dir, m.name), 'utf8'), m.name)); } catch (e) { err(e.message); continue; }
    byName.set(m.name, m);
    for (const [n, line] of m.decl) {
      if (owner.has(n)) err(`${m.name}:${line}: ${n} is declared at the top of ${owner.get(n)} too (the page joins the modules in one scope)`);
      else owner.set(n, m.name);
    }
  }
  const pos = new Map(list.map((m, i) => [m.name, i]));
  for (const m of byName.values()) {
    const imported = new Map();
    for (const im of m.imports) {
      const src = byName.get(im.from);
      if (!src) { err(`${m.name}:${im.line}: imports from ${im.from}, not a module of modules.txt`); continue; }
      if (pos.get(im.from) >= pos.get(m.name)) err(`${m.name}:${im.line}: imports from ${im.from}, which modules.txt lists after it (a cycle, or the list out of order)`);
      if (m.kind === 'compute' && src.kind !== 'compute') err(`${m.name}:${im.line}: a computing module imports the view ${im.from}`);
      for (const n of im.names) {
        if (!src.exported.has(n)) err(`${m.name}:${im.line}: imports ${n}, which ${im.from} does not export`);
        if (imported.has(n)) err(`${m.name}:${im.line}: imports ${n} twice`);
        imported.set(n, im.from);
        if (!m.free.has(n)) err(`${m.name}:${im.line}: imports ${n} and does not use it`);
      }
    }
    for (const [n, uses] of m.free) {
      for (const u of uses) {
        if (u.assigned && (imported.has(n) || (!u.local && owner.has(n))))
          err(`${m.name}:${u.line}: assigns to ${n} of ${imported.get(n) || owner.get(n)} (an imported name is read-only; give its module a function that sets it)`);
      }
      if (uses[0].local || imported.has(n)) continue; // local: an assignment to its own top-level name
      if (owner.has(n)) err(`${m.name}:${uses[0].line}: uses ${n} of ${owner.get(n)} without importing it`);
    }
  }
  check.summary = `${list.length} modules, ${[...byName.values()].reduce((a, m) => a + m.imports.reduce((b, im) => b + im.names.length, 0), 0)} imported names, no cycle`;
  return problems;
}

// The check finds what it is for: small module sets, each with one fault
// (or none), and the words its message must have.
function selfTest() {
  const base = {
    'modules.txt': 'a.js compute\nb.js compute\nc.js view\n',
    'a.js': '/* a */\nexport var K = 1, L = [];\nexport function f(x) { var y = x + K; return y; }\n',
    'b.js': "/* b */\nimport { f, K } from './a.js';\nexport function g(D) { try { return f(D) + K; } catch (f) { return f; } }\n",
    'c.js': "/* c */\nimport { g } from './b.js';\nvar o = { K: 1 };\nfunction h(K) { return g(K) + o.K; }\nfunction i() { var f = 2; return h(f); }\ni();\n",
  };
  const cases = [
    ['none', {}, null],
    ['a use not imported', { 'c.js': "import { g } from './b.js';\nfunction h() { return g(1) + f(2); }\n" }, 'uses f of a.js without importing'],
    ['a use inside an initializer', { 'c.js': "import { g } from './b.js';\nvar z = g(1) + K;\n" }, 'uses K of a.js without importing'],
    ['an import not exported', { 'a.js': 'export var K = 1;\nfunction f() {}\n' }, 'does not export'],
    ['an unused import', { 'c.js': "import { f } from './a.js';\nimport { g } from './b.js';\ng(1);\n" }, 'imports f and does not use it'],
    ['an assignment to an import', { 'b.js': "import { f, K } from './a.js';\nexport function g() { K = 2; return f(K); }\n" }, 'assigns to K of a.js'],
    ['a cycle', { 'a.js': "import { g } from './b.js';\nexport var K = g;\nexport function f() {}\n" }, 'lists after it'],
    ['a computing module importing a view', { 'modules.txt': 'a.js view\nb.js compute\nc.js view\n' }, 'imports the view'],
    ['one name in two modules', { 'c.js': "import { g } from './b.js';\nfunction K() { return g(1); }\n" }, 'declared at the top of a.js too'],
    ['a module not listed', { 'd.js': '/* d */\n' }, 'not in modules.txt'],
    ['an export line not read', { 'c.js': "import { g } from './b.js';\nvar s = g(1) +\n\"x\";\n/*\nexport this\n*/\n" }, 'lines start with "export"'],
  ];
  let bad = 0;
  const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'modules_check-'));
  try {
    cases.forEach(([what, change, want], i) => {
      const d = path.join(tmp, String(i));
      fs.mkdirSync(d);
      for (const [f, text] of Object.entries({ ...base, ...change })) fs.writeFileSync(path.join(d, f), text);
      const got = check(d);
      const okay = want === null ? got.length === 0 : got.some((m) => m.includes(want));
      if (!okay) { bad++; console.error(`modules_check: self-test "${what}": got ${JSON.stringify(got)}`); }
    });
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
  return bad;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dir = process.argv[2] || path.join(here, '../../lib/query/report');
  if (selfTest()) process.exit(1);
  const problems = check(dir);
  // and V8 itself links them as ES modules (every import names an export,
  // strict-mode syntax), with node --experimental-vm-modules
  let linked = 'not linked by V8: node without --experimental-vm-modules';
  if (!problems.length && vm.SourceTextModule) {
    const mods = new Map(), ctx = vm.createContext({});
    const get = (n) => {
      if (!mods.has(n)) mods.set(n, new vm.SourceTextModule(fs.readFileSync(path.join(dir, n), 'utf8'), { identifier: n, context: ctx }));
      return mods.get(n);
    };
    try {
      for (const m of readList(path.join(dir, 'modules.txt'))) await get(m.name).link((spec) => get(spec.slice(2)));
      linked = `linked by V8 as ES modules`;
    } catch (e) { problems.push('V8 does not link the modules: ' + e.message); }
  }
  // the page's script (embed.sh join) is the modules' code token for token,
  // less the import and export syntax
  if (!problems.length) {
    const list = readList(path.join(dir, 'modules.txt'));
    const joined = tokenize(execFileSync('sh', [path.join(here, '../../tools/build/embed.sh'), 'join', path.join(dir, 'modules.txt')],
      { encoding: 'utf8' }), 'the joined script');
    const want = list.flatMap((m) => analyse(fs.readFileSync(path.join(dir, m.name), 'utf8'), m.name).code.map((t) => ({ ...t, file: m.name })));
    const n = Math.max(want.length, joined.length);
    for (let i = 0; i < n; i++) {
      const a = want[i], b = joined[i];
      if (!a || !b || a.t !== b.t || a.v !== b.v) {
        problems.push(`embed.sh join differs from the modules' code at token ${i}: ${a ? `${a.file}:${a.line} ${a.v}` : 'the end'} vs line ${b ? `${b.line} ${b.v}` : 'the end'}`);
        break;
      }
    }
    if (!problems.length) linked += `, joined by embed.sh token for token (${joined.length} tokens)`;
  }
  for (const m of problems) console.error('modules_check: ' + m);
  if (problems.length) { console.error(`modules_check: ${problems.length} problem(s) in ${dir}`); process.exit(1); }
  console.log(`modules_check: ok (${check.summary}, ${linked}; the check's own 11 cases)`);
}
