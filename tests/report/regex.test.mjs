// regex.test.mjs — the report page's regular expressions (regex.js
// pcolGoRegExp, run as the page joins its computing modules) against Go's
// regexp package (tests/go/gorx): a fixed list and seeded random
// expressions over ASCII, non-ASCII and control-character names must match
// the same names, and what Go refuses must throw.  The page refuses (throws)
// a few forms Go takes (regex.js says which); those are counted, not failed.
//   node regex.test.mjs GORX-BINARY
import { execFileSync } from 'node:child_process';
import { names, exprs, pageRegExp as answer } from './regex_cases.mjs';

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
// the forms regex.js refuses though Go takes them (doc/cli.md), and only those
const allowed = /^\(\?i\) past the start|^\\C is not|^\\[bB] with \(\?i\)|^\\P inside brackets with \(\?i\)|^\\P\{C\} inside brackets/;
for (const e of refusedExprs) if (!allowed.test(why.get(e))) report(`${JSON.stringify(e)}: the page refuses what Go takes (${why.get(e)})`, e);
console.error(`regex: ${exprs.length} expressions x ${names.length} names: ${same} answers as Go's, ` +
  `${refused} refused (${refusedExprs.size} expressions of the forms the page refuses), ${failures} expressions failed`);
process.exit(failures ? 1 : 0);
