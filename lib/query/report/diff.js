/* diff.js — the --diff page's table: each row's base, new and change, as
 * `pcol diff --absolute` (diff.c joins the two profiles' top rows by name).
 * The base's rows come from the library (report.c runs pcol_top_compute
 * on the base, whole profile); the new side is the page's selection. */
import { pcolUnitPick } from './units.js';

/* newRows: pcolTop's rows; base: {names: [...], flat: [...], cum: [...]} */
export function pcolDiffRows(newRows, base) {
  var by = {}, out = [];
  function row(name) {
    var r = by['$' + name];
    if (!r) out.push(r = by['$' + name] = { name: name, bflat: 0, bcum: 0, flat: 0, cum: 0, inl: 0, key: 0 });
    return r;
  }
  for (var i = 0; i < base.names.length; i++) { var b = row(base.names[i]); b.bflat += base.flat[i]; b.bcum += base.cum[i]; }
  newRows.forEach(function (n) { var r = row(n.name); r.flat += n.flat; r.cum += n.cum; r.inl = r.inl || n.inl; r.key = n.key; r.rank = n.rank; });
  out.forEach(function (r) { r.dflat = r.flat - r.bflat; r.dcum = r.cum - r.bcum; });
  /* a name whose flat and cum both change by 0 is no row (pprof's graph has
   * no such node: diff.c pcol_diff_compute) */
  out = out.filter(function (r) { return r.dflat !== 0 || r.dcum !== 0; });
  out.sort(function (x, y) { /* as pcol diff: |change in flat|, then name bytewise */
    var a = Math.abs(x.dflat), b = Math.abs(y.dflat);
    return a !== b ? b - a : x.name < y.name ? -1 : x.name > y.name ? 1 : 0;
  });
  return out;
}
/* pcol diff --absolute's unit (cmd_diff.c): picked from both totals and
 * every non-zero cell of the rows, against the larger total; ratio:
 * --divide-by's (pcolUnitPick) */
export function pcolDiffUnit(rows, btotal, ntotal, unit, ratio) {
  var vals = [btotal, ntotal];
  rows.forEach(function (r) {
    [r.bflat, r.flat, r.dflat, r.bcum, r.cum, r.dcum].forEach(function (x) { if (x) vals.push(x); });
  });
  return pcolUnitPick(vals, btotal > ntotal ? btotal : ntotal, unit, ratio);
}
