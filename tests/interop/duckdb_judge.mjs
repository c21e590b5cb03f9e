// duckdb_judge.mjs NODE_API_DIR PLAN.json — DuckDB (@duckdb/node-api, which
// bundles the engine) loads pcol.duckdb_extension and answers the plan's
// questions; each answer is compared with what pcol printed.  Prints one line
// per failed check and "duckdb: N checks, M failed"; exits 1 on a failure.
//
// PLAN: {"ext": path,
//   "views": [{"input": SQL string literal or list, "cat": `pcol cat --table all
//              --format json` of the input, "args": named arguments of the
//              sample views, "all": of every view}],
//   "tops":  [{"input": ..., "args": ..., "top": `pcol top --format json`,
//              "multi": 1 if the input is many files}],
//   "pcol_top": [{"input": ..., "args": ..., "top": ...}],
//   "frames": [{"input": ..., "args": ..., "top": `pcol top --node-fraction 0`}],
//   "errors": [{"sql": query, "want": text the error must contain,
//               "mayPass": 1 if the query may also succeed}]}
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [apiDir, planPath] = process.argv.slice(2);
const { DuckDBInstance } = await import(
  pathToFileURL(path.join(apiDir, 'node_modules/@duckdb/node-api/lib/index.js')).href);
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));

let checks = 0, failed = 0;
function check(ok, what) {
  checks++;
  if (!ok) { failed++; console.log('FAIL ' + what); }
  return ok;
}

// JSON with every integer kept exact: integer tokens outside strings become
// BigInt (JSON.parse would round those above 2^53).
function parseExact(text) {
  let out = '', inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inStr) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inStr = false;
    } else if (c === '"') {
      inStr = true; out += c;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i;
      while (j < text.length && /[-+0-9.eE]/.test(text[j])) j++;
      const tok = text.slice(i, j);
      out += /^-?[0-9]+$/.test(tok) ? `{"$big":"${tok}"}` : tok;
      i = j - 1;
    } else out += c;
  }
  return JSON.parse(out, (k, v) => (v && typeof v === 'object' && '$big' in v) ? BigInt(v.$big) : v);
}

// A cell of pcol's JSON and one of DuckDB's, equal as spec.md §11.3 renders them.
function same(cat, duck) {
  if (cat === null || duck === null) return cat === duck;
  if (typeof duck === 'bigint') return typeof cat === 'bigint' && cat === duck;
  if (typeof duck === 'number') {
    const c = cat === 'Infinity' ? Infinity : cat === '-Infinity' ? -Infinity :
      typeof cat === 'bigint' ? Number(cat) : cat;
    return Object.is(c, duck);
  }
  return cat === duck;
}
const show = (v) => JSON.stringify(v, (k, x) => typeof x === 'bigint' ? x.toString() : x);

const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;
const input = (x) => Array.isArray(x) ? `[${x.map(lit).join(', ')}]` : lit(x);
// named arguments: a string as a VARCHAR literal, {"sql": EXPR} as EXPR (a
// TIMESTAMP), anything else as it is written (a number)
function args(a) {
  let s = '';
  for (const [k, v] of Object.entries(a || {}))
    s += `, "${k}" := ${typeof v === 'string' ? lit(v) : v && typeof v === 'object' ? v.sql : v}`;
  return s;
}

const inst = await DuckDBInstance.create(':memory:', { allow_unsigned_extensions: 'true' });
const con = await inst.connect();
await con.run(`LOAD ${lit(plan.ext)}`);
async function rows(sql) {
  const r = await con.runAndReadAll(sql);
  return r.getRowObjects();
}

// Every view: DuckDB's rows, in order, cell by cell equal to pcol cat's
// (whose --source, --from, --to select the sample views' rows only).
const sampleViews = ['samples', 'sample_values', 'sample_locations', 'sample_labels'];
for (const v of plan.views || []) {
  const cat = parseExact(fs.readFileSync(v.cat, 'utf8'));
  for (const [view, want] of Object.entries(cat)) {
    const what = `${v.cat}: ${view}`;
    const a = (sampleViews.includes(view) ? args(v.args) : '') + args(v.all);
    let got;
    try {
      got = await rows(`SELECT * FROM read_pcol(${input(v.input)}, "table" := ${lit(view)}${a})`);
    } catch (e) { check(false, `${what}: ${e.message}`); continue; }
    if (!check(got.length === want.length, `${what}: ${got.length} rows, pcol cat has ${want.length}`)) continue;
    let bad = null;
    for (let i = 0; i < want.length && !bad; i++)
      for (const [col, w] of Object.entries(want[i]))
        if (!same(w, got[i][col])) { bad = `row ${i + 1} ${col}: ${show(got[i][col])}, pcol cat ${show(w)}`; break; }
    check(!bad, `${what}: ${bad}`);
    // projection: one column alone reads the same values
    const col = Object.keys(want[0] || {}).at(-1);
    if (col) {
      const one = await rows(`SELECT "${col}" FROM read_pcol(${input(v.input)}, "table" := ${lit(view)}${a})`);
      check(one.length === want.length && one.every((r, i) => same(want[i][col], r[col])),
            `${what}: ${col} read alone differs`);
    }
  }
}

// flat and cum per function name in SQL over the views, as a pprof user
// writes them: flat = the value of samples whose innermost frame (depth 1 of
// the stack, depth 1 of the location's inline chain) is the function, cum =
// of samples with the function anywhere, once a sample.
function topSql(t, type, unit, useWeight) {
  const src = (view) => `read_pcol(${input(t.input)}, "table" := '${view}'${args(t.args)})`;
  const all = (view) => `read_pcol(${input(t.input)}, "table" := '${view}')`;
  const key = t.multi ? 'file, ' : '';
  const val = useWeight
    ? `SELECT ${key}sample_id, weight AS value FROM ${src('samples')}`
    : `SELECT ${key}sample_id, value FROM ${src('sample_values')} WHERE type = ${lit(type)} AND unit = ${lit(unit)}`;
  return `WITH v AS (${val}),
    fr AS (SELECT ${t.multi ? 'sl.file, ' : ''}sl.sample_id, sl.depth, ll.depth AS ld, f.name
           FROM ${src('sample_locations')} sl
           JOIN ${all('location_lines')} ll USING (${key}location_id)
           JOIN ${all('functions')} f USING (${key}function_id)
           WHERE f.name IS NOT NULL),
    flat AS (SELECT name, sum(value) AS flat FROM fr JOIN v USING (${key}sample_id)
             WHERE depth = 1 AND ld = 1 GROUP BY name),
    cum AS (SELECT name, sum(value) AS cum FROM (SELECT DISTINCT ${key}sample_id, name FROM fr)
            JOIN v USING (${key}sample_id) GROUP BY name)
    SELECT name, coalesce(flat, 0)::HUGEINT AS flat, cum::HUGEINT AS cum
    FROM cum LEFT JOIN flat USING (name) WHERE cum <> 0 OR flat <> 0`;
}

function compareTop(what, want, got) {
  const w = new Map(want.rows.map((r) => [r.name, r]));
  let bad = null;
  if (got.length !== want.rows.length) bad = `${got.length} rows, pcol top has ${want.rows.length}`;
  for (const g of got) {
    if (bad) break;
    const r = w.get(g.name);
    if (!r) bad = `${g.name}: not in pcol top`;
    else if (BigInt(r.flat) !== g.flat || BigInt(r.cum) !== g.cum)
      bad = `${g.name}: flat ${g.flat} cum ${g.cum}, pcol top ${r.flat} ${r.cum}`;
  }
  return check(!bad, `${what}: ${bad}`);
}

for (const t of plan.tops || []) {
  const want = parseExact(fs.readFileSync(t.top, 'utf8'));
  const what = `SQL top ${show(t.input)}${args(t.args)} (${want.type}/${want.unit})`;
  try {
    const useWeight = want.type === 'samples' && !t.samplesStored;
    compareTop(what, want, await rows(topSql(t, want.type, want.unit, useWeight)));
  } catch (e) { check(false, `${what}: ${e.message}`); }
}

for (const t of plan.pcol_top || []) {
  const want = parseExact(fs.readFileSync(t.top, 'utf8'));
  const what = `pcol_top(${show(t.input)}${args(t.args)})`;
  try {
    const got = await rows(`SELECT * FROM pcol_top(${input(t.input)}${args(t.args)})`);
    compareTop(what, want, got);
    // and in pcol top's order
    check(got.every((g, i) => g.name === want.rows[i].name), `${what}: rows not in pcol top's order`);
    // the value added up, on every row, as pcol top --format json names it
    const bad = got.find((g) => g.type !== want.type || g.unit !== want.unit);
    check(!bad, `${what}: type/unit ${bad && bad.type}/${bad && bad.unit}, pcol top ${want.type}/${want.unit}`);
  } catch (e) { check(false, `${what}: ${e.message}`); }
}

// pcol_frames(): a row per sample and frame; doc/duckdb.md's GROUP BY name
// (flat where self, cum where first_on_stack) is pcol top --node-fraction 0.
for (const t of plan.frames || []) {
  const want = parseExact(fs.readFileSync(t.top, 'utf8'));
  const what = `pcol_frames(${show(t.input)}${args(t.args)}) GROUP BY name`;
  try {
    const got = await rows(`SELECT name, coalesce(sum(value) FILTER (WHERE self), 0)::HUGEINT AS flat,
        coalesce(sum(value) FILTER (WHERE first_on_stack), 0)::HUGEINT AS cum
      FROM pcol_frames(${input(t.input)}${args(t.args)}) GROUP BY name HAVING flat <> 0 OR cum <> 0`);
    compareTop(what, want, got);
  } catch (e) { check(false, `${what}: ${e.message}`); }
}

// doc/duckdb.md's queries, each against the pcol command that answers it.
// Per-label totals: pcol top --by label:KEY.
for (const t of plan.labels || []) {
  const want = parseExact(fs.readFileSync(t.top, 'utf8'));
  const what = `label totals ${t.key} of ${t.input}`;
  try {
    const got = await rows(`SELECT l.str AS name, sum(v.value)::HUGEINT AS flat, sum(v.value)::HUGEINT AS cum
      FROM read_pcol(${lit(t.input)}, "table" := 'sample_labels') l
      JOIN read_pcol(${lit(t.input)}, "table" := 'sample_values') v USING (sample_id)
      WHERE l.key = ${lit(t.key)} AND v.type = ${lit(want.type)} AND v.unit = ${lit(want.unit)}
      GROUP BY l.str`);
    compareTop(what, want, got);
  } catch (e) { check(false, `${what}: ${e.message}`); }
}
// A diff of two files: pcol diff --absolute.
for (const t of plan.diffs || []) {
  const want = parseExact(fs.readFileSync(t.diff, 'utf8'));
  const what = `diff ${t.base} ${t.new}`;
  try {
    const got = await rows(`SELECT name, coalesce(n.flat, 0) - coalesce(b.flat, 0) AS d_flat,
        coalesce(n.cum, 0) - coalesce(b.cum, 0) AS d_cum
      FROM pcol_top(${lit(t.base)}) b FULL JOIN pcol_top(${lit(t.new)}) n USING (name)`);
    const w = new Map(want.rows.map((r) => [r.name, r]));
    const bad = got.length !== want.rows.length ? `${got.length} rows, pcol diff has ${want.rows.length}`
      : got.map((g) => {
          const r = w.get(g.name);
          return !r ? `${g.name} not in pcol diff`
            : BigInt(r.d_flat) !== g.d_flat || BigInt(r.d_cum) !== g.d_cum
              ? `${g.name}: ${g.d_flat} ${g.d_cum}, pcol diff ${r.d_flat} ${r.d_cum}` : null;
        }).find((x) => x);
    check(!bad, `${what}: ${bad}`);
  } catch (e) { check(false, `${what}: ${e.message}`); }
}
// Time buckets: pcol top --value samples --from --to, bucket by bucket.
for (const t of plan.buckets || []) {
  const what = `time buckets of ${t.input}`;
  try {
    const got = await rows(`SELECT time_ns // ${t.width_ns} AS bucket, sum(weight)::BIGINT AS samples
      FROM read_pcol(${lit(t.input)}) GROUP BY bucket ORDER BY bucket`);
    const want = t.totals.map((x, i) => [BigInt(i), BigInt(x)]).filter(([, x]) => x !== 0n);
    check(show(got.map((r) => [r.bucket, r.samples])) === show(want),
          `${what}: ${show(got)}, pcol top per range ${show(want)}`);
  } catch (e) { check(false, `${what}: ${e.message}`); }
}

// Damaged and hostile inputs: an error that names the file, and the process lives on.
for (const e of plan.errors || []) {
  let msg = null;
  try { await rows(e.sql); } catch (x) { msg = x.message; }
  if (e.mayPass && msg === null) continue; // a hostile file that reads: rows are fine
  check(msg !== null && msg.includes(e.want), `${e.sql}: ${msg === null ? 'no error' : msg} (want "${e.want}")`);
}
const alive = await rows('SELECT 42 AS x');
check(alive[0].x === 42, 'DuckDB answers after the errors');

console.log(`duckdb: ${checks} checks, ${failed} failed`);
process.exit(failed ? 1 : 0);
