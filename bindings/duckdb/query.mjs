// query.mjs NODE_API_DIR EXT SQL... — runs the statements in one
// DuckDB (@duckdb/node-api) with the pcol extension loaded (EXT "" = none)
// and prints the last one's rows as JSON (bench/duckdb.sh times it; t_duckdb.sh
// runs it under ThreadSanitizer).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const [apiDir, ext, ...sqls] = process.argv.slice(2);
const { DuckDBInstance } = await import(
  pathToFileURL(path.join(apiDir, 'node_modules/@duckdb/node-api/lib/index.js')).href);
const inst = await DuckDBInstance.create(':memory:', { allow_unsigned_extensions: 'true' });
const con = await inst.connect();
if (ext) await con.run(`LOAD '${ext.replace(/'/g, "''")}'`);
let r;
for (const q of sqls) r = await con.runAndReadAll(q);
console.log(JSON.stringify(r ? r.getRowsJson() : []));
