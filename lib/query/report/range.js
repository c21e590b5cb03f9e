/* range.js — the selection's rule: which samples, and how much of each, a
 * choice of value, source and time range counts.  The one rule written
 * here is the range rule of spec.md §7 and lib/core/select.c: a point
 * sample counts when from <= time < to; a long sample of weight w stands
 * for max(w, 1) ticks spread evenly from its time and counts value x (its
 * ticks in the range) / (its ticks), rounded as pcol_scale does (nearest,
 * halves away from zero, exact).  tests/report/compute.test.mjs checks it
 * against `pcol top --from --to`. */

/* pcol_scale: v x num / den, nearest, halves away from zero, exact */
function pcolScale(v, num, den) {
  if (num === den) return v;
  if (den <= 0) return 0;
  var p = BigInt(v) * BigInt(num), d = BigInt(den);
  var q = p / d, r = p % d;
  if (r < 0n) r = -r;
  if (2n * r >= d) q += p < 0n ? -1n : 1n;
  return Number(q);
}
/* a long sample of weight w stands for n = max(w, 1) ticks at t + k d / n;
 * ticksBefore(x) of them lie before time x, ceil((x - t) n / d) capped at
 * n, exact in BigInt. */
function pcolTicksBefore(t, d, n, x) {
  if (x <= t) return 0;
  var a = (BigInt(Math.round(x)) - BigInt(t)) * BigInt(n), D = BigInt(d);
  var k = a / D + (a % D !== 0n ? 1n : 0n);
  return k > BigInt(n) ? n : Number(k);
}
/* The value of sample i that a range [from, to) selects (null: none of it) */
function pcolInRange(D, i, v, from, to) {
  var t = D.TIME[i], d = D.DUR[i];
  if (t !== t) return null;
  if (d <= 0) return t < from || t >= to ? null : v;
  var n = D.WGT[i] >= 1 ? D.WGT[i] : 1;
  var k = pcolTicksBefore(t, d, n, to) - pcolTicksBefore(t, d, n, from);
  if (k <= 0) return null;
  return pcolScale(v, k, n);
}
/* The sources a selection covers */
function pcolSelSources(D, sel) {
  return D.M.sources.filter(function (s) { return !sel.source || s.id === sel.source; });
}
/* The chosen value summed per stack node over the selection (weights.c):
 * {w: per stack node, total: sum of |value|, skipped: untimed sources a
 * range leaves out}.  sel: {value, source, range: [from, to) or null,
 * drop: per stack node 1 = a filter drops its samples, or null} */
function pcolStackWeights(D, sel) {
  var w = new Float64Array(D.NS + 1), total = 0, V = D.values(sel.value), skipped = [], STK = D.STK, drop = sel.drop;
  pcolSelSources(D, sel).forEach(function (s) {
    if (sel.range && !s.timed) { skipped.push(s.id); return; }
    for (var i = s.row0; i < s.row1; i++) {
      var v = V[i];
      if (v === 0) continue;
      if (drop && drop[STK[i]]) continue;
      if (sel.range) { v = pcolInRange(D, i, v, sel.range[0], sel.range[1]); if (v === null || v === 0) continue; }
      w[STK[i]] += v;
      total += v < 0 ? -v : v;
    }
  });
  return { w: w, total: total, skipped: skipped };
}
