// regex_cases.mjs — the report page's regular expressions (regex.js
// pcolGoRegExp) as the page runs them, and the expressions and names
// regex.test.mjs tries on it against Go's regexp (a fixed list and seeded
// random ones); also read by regex_accepts.mjs (tests/interop/t_regex.sh:
// the page and pcol's options accept the same expressions).
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
// {err: message} or {got: "1"/"0", src}
export const pageRegExp = (e, nm) => { ctx.E = e; ctx.N = nm; return vm.runInContext('rxAnswer(E, N)', ctx); };

export const names = ['main', 'main.main', 'runtime.mallocgc', 'main.(*T).Run', 'main.f.func1', '{{closure}}',
  'a.b', 'a-b', 'a b', 'fü', 'ü', 'Ü', 'xÜy', '日本', '日', '𝔘x', 'K', 'k', '\u212a', 'ſ', 's', 'A1', '12', '',
  'line\nnext', '\t', 'x/y', '[libc.so.6]', 'a{2}', '.*', 'AbC', 'é', 'e\u0301', 'Γειά', 'x$y', 'aa', 'ab', 'ba', 'a\rb', 'a\u2028b', 'a{01}', '\u00018',
  '\r', '\u2029', 'a\u2029b', '\u0000', 'a\u0000b', '\ufffd', 'a\ufffdb', 'a8', '\u00019', 'a-z', 'ka', 'KA'];
const fixed = ['main', '^main$', 'main\\.main', '^.$', '^..$', '^f.$', '[^a]', '^[^x]$', '[ü]', '[à-ÿ]', '^[à-ÿ]$',
  '(?i)ü', '(?i)main', '(?i)K', '(?s)line.next', 'line.next', '(?m)^next$', '^next$', '\\Aa', 'b\\z', '\\bb\\b',
  '\\Bb', '\\d+', '\\D', '\\w+$', '\\W', '\\s', '\\S', '[\\s]', '[[:alpha:]]+', '[[:digit:]]', '[[:^alpha:]]',
  '\\pL', '\\p{Han}', '\\p{Greek}+', '\\PL', '\\p{^Greek}', '\\p{Lu}', '\\QT).R\\E', '\\Q{{\\E', '{{closure}}',
  'a{2}', 'a{01}', 'a{1,01}', '\\18', 'a.b', '^a.b$', 'a{,2}', 'a{2,1}', 'a{1001}', 'a{1,}', '{2}', 'x{', '}', ']', '[]a]', '[^]a]', '\\.', '\\-', '\\/',
  '\\x{fc}', '\\xfc', '\\101', '\\0', '\\1', '\\8', '\\C', '\\Z', 'a**', 'a*?', 'a+?b', 'a??', '*a', '(a', 'a)',
  '(?:a|b)+$', '(?P<n>a)', '(?<n>a)', '(?i)', 'a(?i)b', '(?U)a+', '(?=a)', '(?!a)', '^*', '$*', '\\b*', '[a-]',
  '[-a]', '[a\\-z]', '\\e', '\\a', '\\t', 'é', 'e\u0301', '.\u0301', '𝔘', '^.x$', '[𝔘]', '[^𝔘]x', '(?is)A.C',
  '(?im)^ab', '(?ms).', 'x$y', 'x\\$y', '[\\d\\w]+', '[\\D]', '\\pN', '\\p{Nd}', '\\p{Latin}', '\\p{Foo}', '\\pZ',
  '[\\d-z]', '(?)a', 'a(?)b', 'a*(?)*', 'a*(?s)+', '(a{100}){20}', '(a{40}){25}', '((a{10}){10}){11}', '(a{2}|b{3}){334}',
  '(?s:a.)b.', '(?m:^a)', '(?-s)a.b', '(?i)(?s)a.', '(?i:a)', 'a(?i)b', '(?i)a(?-i)b', '(?U)a+?', '(?P<a_1>x)', '(?P<>x)',
  '(?P<é>x)', '(?P=n)', '(?x)a', '(?-)a', '(?i-)a', '(?-i)a', '[\\S]', '(?i)[[:^alpha:]]', '[[:^lower:]x]', '[a-c-e]',
  '[\\w-]', '[\\pL-z]', '[a-\\d]', 'a{0,01}', '\\19', '\\018', '\\x{2028}', '.\\x{2029}', '^\\r$', '\\x00', '[\\x00-\\x08]',
  '\\p{Grek}', '\\pC', '\\PC', '[\\pCa]', '[\\PC]', '\\p{Toto}', '\\p{Vithkuqi}', '\\p{Any}', '(?i)\\p{Lu}', '\\p{^Greek}+'];

// seeded random expressions (mulberry32)
let seed = 47;
const rnd = () => { seed |= 0; seed = seed + 0x6D2B79F5 | 0; let t = Math.imul(seed ^ seed >>> 15, 1 | seed);
  t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; };
const pickOf = (a) => a[Math.floor(rnd() * a.length)];
const tokens = ['a', 'b', 'k', 'ü', '日', 'x', '.', '.', '^', '$', '\\A', '\\z', '\\b', '\\B', '\\d', '\\w', '\\s',
  '\\S', '\\W', '[a-c]', '[^a]', '[ü-ÿ]', '[[:alpha:]]', '[[:upper:]]', '\\pL', '\\p{Han}', '\\PL', '(', '(?:', ')', '|',
  '*', '+', '?', '*?', '{2}', '{1,2}', '{,2}', '{', '}', ']', '\\.', '\\-', '\\Q.*\\E', '\\x{fc}', '\\101', '-', ' ',
  '\\n', '\\t', 'main', '\\.m', '(?)', '(?s)', '(?m)', '(?U)', '(?P<n>', '(?s:', '(?m:', '[\\d-z]', '[\\w-]',
  '(?i)', '(?i:', '{01}', '{40}', '{30}', '{0,40}', '\\18', '\\19', '\\r', '\\x{2028}', '\\x00', '[^\\S]', '[[:^alpha:]]'];
const random = [];
for (let i = 0; i < 3000; i++) {
  let e = pickOf(['', '', '', '(?i)', '(?s)', '(?m)']);
  const n = 1 + Math.floor(rnd() * 6);
  for (let j = 0; j < n; j++) e += pickOf(tokens);
  random.push(e);
}
export const exprs = [...new Set([...fixed, ...random])];