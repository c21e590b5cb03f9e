// regex.test.mjs — the report page's regular expressions (regex.js
// pcolGoRegExp, run as the page joins its computing modules) against Go's
// regexp package (tests/go/gorx): a fixed list and seeded random
// expressions over ASCII, non-ASCII and control-character names must match
// the same names, and what Go refuses must throw.  The page refuses (throws)
// a few forms Go takes (regex.js says which); those are counted, not failed.
//   node regex.test.mjs GORX-BINARY
import vm from 'node:vm';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const compute = execFileSync('sh', [path.join(here, '../../tools/build/embed.sh'), 'join',
  path.join(here, '../../lib/query/report/modules.txt'), 'compute'], { encoding: 'utf8' });
const ctx = vm.createContext({});
vm.runInContext(compute, ctx, { filename: 'the computing modules' });
// (in the page's realm: its RegExp and Error are not node's)
vm.runInContext('var RX = new Map(); function rxAnswer(e, nm) { if (!RX.has(e)) { try { RX.set(e, pcolGoRegExp(e)); }' +
  ' catch (err) { RX.set(e, String(err && err.message)); } } var r = RX.get(e);' +
  ' return typeof r === "string" ? { err: r } : { got: r.test(nm) ? "1" : "0", src: String(r) }; }', ctx);
const answer = (e, nm) => { ctx.E = e; ctx.N = nm; return vm.runInContext('rxAnswer(E, N)', ctx); };

const names = ['main', 'main.main', 'runtime.mallocgc', 'main.(*T).Run', 'main.f.func1', '{{closure}}',
  'a.b', 'a-b', 'a b', 'fü', 'ü', 'Ü', 'xÜy', '日本', '日', '𝔘x', 'K', 'k', '\u212a', 'ſ', 's', 'A1', '12', '',
  'line\nnext', '\t', 'x/y', '[libc.so.6]', 'a{2}', '.*', 'AbC', 'é', 'e\u0301', 'Γειά', 'x$y', 'aa', 'ab', 'ba', 'a\rb', 'a\u2028b', 'a{01}', '\u00018'];
const fixed = ['main', '^main$', 'main\\.main', '^.$', '^..$', '^f.$', '[^a]', '^[^x]$', '[ü]', '[à-ÿ]', '^[à-ÿ]$',
  '(?i)ü', '(?i)main', '(?i)K', '(?s)line.next', 'line.next', '(?m)^next$', '^next$', '\\Aa', 'b\\z', '\\bb\\b',
  '\\Bb', '\\d+', '\\D', '\\w+$', '\\W', '\\s', '\\S', '[\\s]', '[[:alpha:]]+', '[[:digit:]]', '[[:^alpha:]]',
  '\\pL', '\\p{Han}', '\\p{Greek}+', '\\PL', '\\p{^Greek}', '\\p{Lu}', '\\QT).R\\E', '\\Q{{\\E', '{{closure}}',
  'a{2}', 'a{01}', 'a{1,01}', '\\18', 'a.b', '^a.b$', 'a{,2}', 'a{2,1}', 'a{1001}', 'a{1,}', '{2}', 'x{', '}', ']', '[]a]', '[^]a]', '\\.', '\\-', '\\/',
  '\\x{fc}', '\\xfc', '\\101', '\\0', '\\1', '\\8', '\\C', '\\Z', 'a**', 'a*?', 'a+?b', 'a??', '*a', '(a', 'a)',
  '(?:a|b)+$', '(?P<n>a)', '(?<n>a)', '(?i)', 'a(?i)b', '(?U)a+', '(?=a)', '(?!a)', '^*', '$*', '\\b*', '[a-]',
  '[-a]', '[a\\-z]', '\\e', '\\a', '\\t', 'é', 'e\u0301', '.\u0301', '𝔘', '^.x$', '[𝔘]', '[^𝔘]x', '(?is)A.C',
  '(?im)^ab', '(?ms).', 'x$y', 'x\\$y', '[\\d\\w]+', '[\\D]', '\\pN', '\\p{Nd}', '\\p{Latin}', '\\p{Foo}', '\\pZ'];

// seeded random expressions (mulberry32)
let seed = 47;
const rnd = () => { seed |= 0; seed = seed + 0x6D2B79F5 | 0; let t = Math.imul(seed ^ seed >>> 15, 1 | seed);
  t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; };
const pickOf = (a) => a[Math.floor(rnd() * a.length)];
const tokens = ['a', 'b', 'k', 'ü', '日', 'x', '.', '.', '^', '$', '\\A', '\\z', '\\b', '\\B', '\\d', '\\w', '\\s',
  '\\S', '\\W', '[a-c]', '[^a]', '[ü-ÿ]', '[[:alpha:]]', '[[:upper:]]', '\\pL', '\\p{Han}', '\\PL', '(', '(?:', ')', '|',
  '*', '+', '?', '*?', '{2}', '{1,2}', '{,2}', '{', '}', ']', '\\.', '\\-', '\\Q.*\\E', '\\x{fc}', '\\101', '-', ' ',
  '\\n', '\\t', 'main', '\\.m'];
const random = [];
for (let i = 0; i < 3000; i++) {
  let e = pickOf(['', '', '', '(?i)', '(?s)', '(?m)']);
  const n = 1 + Math.floor(rnd() * 6);
  for (let j = 0; j < n; j++) e += pickOf(tokens);
  random.push(e);
}
const exprs = [...new Set([...fixed, ...random])];
const pairs = [];
for (const e of exprs) for (const nm of names) pairs.push([e, nm]);
const go = execFileSync(process.argv[2], [], { input: pairs.map((p) => JSON.stringify(p)).join('\n') + '\n',
  encoding: 'utf8', maxBuffer: 1 << 26 }).split('\n');

let failures = 0, refused = 0, same = 0;
const refusedExprs = new Set(), failed = new Set();
const report = (m, e) => { if (failed.has(e)) return; failed.add(e); if (++failures <= 20) console.error('FAIL: ' + m); };
const why = new Map();
pairs.forEach(([e, nm], i) => {
  const r = answer(e, nm), want = go[i];
  if (r.err !== undefined) {
    if (want === 'E') same++;
    else { refused++; refusedExprs.add(e); why.set(e, r.err); }
    return;
  }
  if (want === 'E') { report(`${JSON.stringify(e)}: Go refuses it, the page takes it (as ${r.src})`, e); return; }
  if (r.got === want) same++;
  else report(`${JSON.stringify(e)} on ${JSON.stringify(nm)}: Go ${want}, the page ${r.got} (as ${r.src})`, e);
});
// the forms regex.js refuses though Go takes them, and only those
const allowed = /\(\?[imsU]*U|^.+\(\?[imsU]+[):]|\\C|\[\[:\^|\[[^\]]*\\S|^\(\?[ms]*i[ms]*\).*\\[bBP]/;
for (const e of refusedExprs) if (!allowed.test(e)) report(`${JSON.stringify(e)}: the page refuses what Go takes (${why.get(e)})`, e);
console.error(`regex: ${exprs.length} expressions x ${names.length} names: ${same} answers as Go's, ` +
  `${refused} refused (${refusedExprs.size} expressions of the forms the page refuses), ${failures} expressions failed`);
process.exit(failures ? 1 : 0);
