// regex_accepts.mjs — whether the report page accepts each expression
// (regex.js pcolGoRegExp), for tests/interop/t_regex.sh's check that the
// page and pcol's options accept the same expressions.
//   node regex_accepts.mjs --cases   the page test's expressions, hex, a line each
//   node regex_accepts.mjs <HEX      for each expression (hex, a line each): "A", or "R " and the page's refusal
import { readFileSync } from 'node:fs';
import { exprs, pageRegExp } from './regex_cases.mjs';

if (process.argv[2] === '--cases') {
  process.stdout.write(exprs.map((e) => Buffer.from(e, 'utf8').toString('hex')).join('\n') + '\n');
} else {
  const out = [];
  for (const h of readFileSync(0, 'utf8').split('\n')) {
    if (!h) continue;
    const r = pageRegExp(Buffer.from(h, 'hex').toString('utf8'), '');
    out.push(r.err !== undefined ? 'R ' + r.err.replace(/\n/g, ' ') : 'A');
  }
  process.stdout.write(out.join('\n') + '\n');
}
