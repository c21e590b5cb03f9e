/* range.js — the selection's rule: which samples, and how much of each, a
 * choice of value, source and time range counts.  The one rule written
 * here is the range rule of spec.md §7 and lib/core/select.c: a point
 * sample counts when from <= time < to; a long sample of weight w stands
 * for n = max(w, 1) ticks spread evenly from its time (w <= 1 in a source
 * of intervals, report.c's s.intervals from select.c: n = its duration,
 * one tick a nanosecond) and counts value x (its ticks in the range) / n,
 * rounded as pcol_scale does (nearest, halves away from zero, exact).  tests/report/compute.test.mjs checks it
 * against `pcol top --from --to`. */
import { pcolGoRegExp } from './regex.js';
import { pcolUnitScale } from './units.js';

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
/* The value of sample i of source s that a range [from, to) selects (null:
 * none of it) */
export function pcolInRange(D, s, i, v, from, to) {
  var t = D.TIME[i], d = D.DUR[i];
  if (t !== t) return null;
  if (d <= 0) return t < from || t >= to ? null : v;
  var n = s.intervals && D.WGT[i] <= 1 ? d : D.WGT[i] >= 1 ? D.WGT[i] : 1;
  var k = pcolTicksBefore(t, d, n, to) - pcolTicksBefore(t, d, n, from);
  if (k <= 0) return null;
  return pcolScale(v, k, n);
}
/* The rows of source s (an entry of M.sources) a range [from, to) can
 * reach, [a, e): all of them, unless its times are in order (data.js
 * D.SI): then those from the first time >= from - its longest duration
 * (pad: a longer reach, the stack chart's sampling interval) to the first
 * time >= to, found by bisection.  A sample before a covers none of the
 * range (it ends by from), one from e on starts at to or later.  closed:
 * the range is [from, to] (the stack chart's whole profile, whose end is
 * its last instant), e the first time > to. */
export function pcolRangeRows(D, s, from, to, pad, closed) {
  var TIME = D.TIME, si = D.SI && D.SI[s.id - 1], a = s.row0 + s.na, e = s.row1;
  if (!si || !si.sorted) return [s.row0, s.row1];
  function first(x, past) { /* the first row of [a, e) with TIME >= x (past: > x) */
    var lo = a, hi = e;
    while (lo < hi) { var m = (lo + hi) >>> 1; if (TIME[m] < x || (past && TIME[m] === x)) lo = m + 1; else hi = m; }
    return lo;
  }
  var lo = first(from - Math.max(si.maxd, pad || 0), false);
  return [lo, Math.max(lo, first(to, closed))];
}
/* The stack chart's pixel columns [x0, x1) of a sample drawn from time a
 * to e (e = a: a point) in a chart of PW columns showing [t0, t1) (a
 * range, the selection's rule above: a point counts when t0 <= a < t1),
 * or [t0, t1] (closed: the whole profile, t1 its last instant, so a
 * sample there is drawn, in the last column; the rule was a < t1, and the
 * last sample of a profile ending in a point was drawn nowhere); null
 * when it shows none of it.  One column at least. */
export function pcolSpanColumns(a, e, t0, t1, PW, closed) {
  if (!(closed ? a <= t1 : a < t1) || !(e > t0 || (e === a && a >= t0))) return null;
  var span = t1 - t0 || 1, x0 = Math.min(PW - 1, Math.max(0, Math.floor((a - t0) / span * PW)));
  return [x0, Math.max(x0 + 1, Math.min(PW, Math.ceil((e - t0) / span * PW)))];
}
/* The sources a selection covers */
export function pcolSelSources(D, sel) {
  return D.M.sources.filter(function (s) { return !sel.source || s.id === sel.source; });
}
/* The chosen value summed per stack node over the selection (weights.c):
 * {w: per stack node, total: sum of |value| (dropped samples included:
 * the CLI's shares under --focus/--ignore are of the unfiltered total),
 * skipped: untimed sources a range leaves out}.  sel: {value, source, range: [from, to) or null,
 * drop: per stack node 1 = a filter drops its samples, or null,
 * lskeep: per label set 1 = the tag filters keep its samples, or null} */
export function pcolStackWeights(D, sel) {
  var W0 = D.SW0;
  if (W0 && !sel.range && !sel.source && sel.value === D.M.value && !sel.lskeep) {
    /* the whole profile: its sums per stack node from report.c (the same
     * rule, added up by the library), less the nodes a filter drops */
    var w0 = Float64Array.from(W0.w), dr = sel.drop;
    if (dr) for (var n = 0; n < w0.length; n++) if (dr[n]) w0[n] = 0;
    return { w: w0, total: W0.total, skipped: [] };
  }
  var w = new Float64Array(D.NS + 1), total = 0, V = D.values(sel.value), skipped = [], STK = D.STK, drop = sel.drop;
  var lsk = sel.lskeep, LSC = lsk ? D.LB.ls : null;
  pcolSelSources(D, sel).forEach(function (s) {
    if (sel.range && !s.timed) { skipped.push(s.id); return; }
    var rows = sel.range ? pcolRangeRows(D, s, sel.range[0], sel.range[1]) : [s.row0, s.row1];
    for (var i = rows[0]; i < rows[1]; i++) {
      var v = V[i];
      if (v === 0) continue;
      if (sel.range) { v = pcolInRange(D, s, i, v, sel.range[0], sel.range[1]); if (v === null || v === 0) continue; }
      total += v < 0 ? -v : v; /* a filter keeps the total: shares of the whole, as pprof */
      if (drop && drop[STK[i]]) continue;
      if (lsk && !lsk[LSC[i]]) continue;
      w[STK[i]] += v;
    }
  });
  return { w: w, total: total, skipped: skipped };
}
/* Subtree sums and "a non-zero sample passes here" per stack node */
export function pcolSubtree(D, w) {
  var NS = D.NS, sub = new Float64Array(NS + 1), touched = new Uint8Array(NS + 1);
  for (var n = 1; n <= NS; n++) { sub[n] = w[n]; touched[n] = w[n] !== 0 ? 1 : 0; }
  for (n = NS; n >= 1; n--) {
    var p = D.SPAR[n - 1];
    if (p) { sub[p] += sub[n]; touched[p] |= touched[n]; }
  }
  return { sub: sub, touched: touched };
}
/* The focus and ignore filters (lib/core/filter.c, pprof -focus/-ignore):
 * a location is ignored when one of its strings (each line's function name
 * and file, the mapping's file: report.c's locstr) matches `ignore`, else
 * focused when there is no `focus` or one matches it; a sample is kept when
 * some location of its stack is focused and none is ignored.  Returns the
 * per stack node "drop" of pcolStackWeights, or null with no filter.
 * focus, ignore: RegExp or null (regex.js pcolGoRegExp: Go's syntax, as
 * filter.c reads it).  With D of pcolHidden (hide.js), a sample whose
 * every location is hidden is dropped too, as filter.c drops it. */
export function pcolFilterDrop(D, focus, ignore) {
  var hs = D.HS || null; /* hide/show (hide.js pcolHidden): a sample whose every location is hidden goes */
  if (!focus && !ignore && !hs) return null;
  var L = D.LS, nloc = L.off.length - 2, memo = {}, lst = new Uint8Array(nloc + 1);
  function hit(re, id) {
    var k = (re === focus ? 'f' : 'i') + id;
    if (!(k in memo)) memo[k] = re.test(L.names[id - 1]);
    return memo[k];
  }
  for (var loc = 1; loc <= nloc; loc++) {
    var a = L.off[loc], e = L.off[loc + 1], ig = false, fo = !focus;
    for (var j = a; j < e; j++) {
      if (ignore && hit(ignore, L.ids[j])) ig = true;
      if (focus && !fo && hit(focus, L.ids[j])) fo = true;
    }
    lst[loc] = ig ? 2 : fo ? 1 : 0;
  }
  /* st: bits 1 focused, 2 ignored, 4 some location on the path visible */
  var NS = D.NS, st = new Uint8Array(NS + 1), drop = new Uint8Array(NS + 1);
  for (var n = 1; n <= NS; n++) {
    var p = D.SPAR[n - 1], l = D.SLOC[n - 1];
    st[n] = ((p ? st[p] : 0) | (l <= nloc ? lst[l] : 0)) & 3;
    if (!hs || (p && st[p] & 4) || !hs.loch[l]) st[n] |= 4;
    drop[n] = (st[n] & 3) === 1 && st[n] & 4 ? 0 : 1;
  }
  drop[0] = 1; /* a sample without locations: filter.c keeps no such sample */
  return drop;
}
/* pprof's numeric range (filter.c range_parse, driver_focus.go
 * parseTagFilterRange): "32kb" (equal), ":64kb" (at most), "4mb:" (at
 * least), "12kb:64mb" (both included), a number [+-]digits and an optional
 * unit of letters; the bounds in the first number's unit (units.js
 * pcolUnitScale).  null when v is not one (then it is regular expressions);
 * throws the CLI's message for a number past 64 bits. */
export function pcolNumRange(what, v) {
  var re = /[+-]?[0-9]+[A-Za-z]*/g, t0 = re.exec(v), t1 = t0 ? re.exec(v) : null, op = 0;
  if (!t0) return null;
  var l0 = t0[0].length;
  if (!t1) {
    if (t0.index === 0 && v.length === l0) op = 1;
    else if (t0.index === 0 && v.length === l0 + 1 && v[l0] === ':') op = 2;
    else if (t0.index === 1 && v[0] === ':' && v.length === l0 + 1) op = 3;
  } else if (t0.index === 0 && v[l0] === ':' && t1.index === l0 + 1 && t1.index + t1[0].length === v.length) {
    op = 4;
  }
  if (!op) return null;
  function num(t) {
    var d = /^[+-]?[0-9]+/.exec(t[0])[0], u = t[0].slice(d.length), x = d.length < 32 ? BigInt(d) : null;
    if (x === null || x > 9223372036854775807n || x < -9223372036854775808n)
      throw new Error(what + ': the number \'' + d.slice(0, 40) + '\' is out of range');
    return [Number(x), u];
  }
  var a = num(t0);
  if (a[1].length >= 32) return null; /* no unit is that long: not one */
  var lo = pcolUnitScale(a[0], a[1], a[1]), r = { op: op, lo: lo[0], hi: lo[0], unit: lo[1] };
  if (op === 4) {
    var b = num(t1);
    if (b[1].length >= 32) return null;
    var hi = pcolUnitScale(b[0], b[1], r.unit);
    if (hi[1] !== r.unit) return null; /* pprof: then not a range */
    r.hi = hi[0];
  }
  return r;
}
/* Does a label value x (its key's unit ku) fall in range r (range_has)? */
function pcolRangeHas(r, x, ku) {
  var s = pcolUnitScale(x, ku, r.unit);
  if (s[1] !== r.unit) return false;
  x = s[0];
  return r.op === 1 ? x === r.lo : r.op === 2 ? x >= r.lo : r.op === 3 ? x <= r.lo : x >= r.lo && x <= r.hi;
}
/* The tag filters (lib/core/filter.c tag_compile/tag_match, pprof
 * -tagfocus/-tagignore) on the label sets report.c embeds: "KEY=RE[,RE]"
 * keeps a set with a string label KEY whose value matches one RE (KEY must
 * be a label key of the file, as the CLI requires); "RE[,RE]" keeps a set
 * where every RE matches some label's "key:value"; a numeric range
 * ("bytes=1kb:", "32kb": pcolNumRange) keeps a set with a numeric label
 * (of KEY, or any) in it, in the key's unit (pprof's NumLabelUnits: the
 * first unit given with the key, else "bytes" for "alignment" and
 * "request", else the key's name).  Returns per label set (0 = none) 1 =
 * kept by `tag` and not dropped by `tagIgnore`, or null with no tag filter;
 * throws Error with the CLI's message on a bad filter. */
/* What the label filters know of the keys (filter.c key_info), kept on
 * D.LB: k[key id] bit 1 string labels, bit 2 numbers (k[0]: any number);
 * unit(key id), the unit a key's numbers are read in (pprof's
 * NumLabelUnits: the first unit given with the key, else "bytes" for
 * "alignment" and "request", else the key's name). */
export function pcolLabelKeys(D) {
  var L = D.LB;
  if (L && L.keyinfo) return L.keyinfo;
  var k = new Uint8Array(L ? L.keys.length + 1 : 1), first = [];
  for (var i = 0; L && i < L.key.length; i++) {
    var kid = L.key[i];
    if (L.val[i]) { k[kid] |= 1; continue; }
    k[kid] |= 2; k[0] |= 2;
    if (first[kid] === undefined && L.unit && L.unit[i]) first[kid] = L.units[L.unit[i] - 1];
  }
  var info = { k: k, unit: function (kid) {
    if (first[kid]) return first[kid];
    var u = L.keys[kid - 1];
    return u === 'alignment' || u === 'request' ? 'bytes' : u;
  } };
  if (L) L.keyinfo = info;
  return info;
}
export function pcolTagKeep(D, tag, tagIgnore) {
  if (!tag && !tagIgnore) return null;
  var L = D.LB, nls = L ? L.off.length - 2 : 0, keep = new Uint8Array(nls + 1);
  function keyKinds() { return pcolLabelKeys(D); }
  function keyUnit(kid) { return pcolLabelKeys(D).unit(kid); }
  function compile(what, spec) {
    var eq = spec.indexOf('='), key = null, kid = 0, vals = spec, i;
    if (eq >= 0) {
      key = spec.slice(0, eq); vals = spec.slice(eq + 1);
      for (i = 0; L && i < L.keys.length; i++) if (L.keys[i] === key) kid = i + 1;
    }
    /* a key no label has matches nothing, as pprof's (filter.c tag_compile:
     * its expressions still read, a bad one refused) */
    var none = key !== null && !kid;
    var num = pcolNumRange(what, vals);
    if (num && none) return { none: true };
    if (num) {
      if (kid && !(keyKinds().k[kid] & 2))
        throw new Error(what + ': \'' + vals + '\' is a numeric range (as in pprof -tagfocus), but label \'' + key +
                        '\' has only strings; to match the string write \'' + key + '=^' + vals + '$\'');
      if (!kid && !(keyKinds().k[0] & 2))
        throw new Error(what + ': \'' + vals + '\' is a numeric range (as in pprof -tagfocus), but this file has no numeric labels');
      return { kid: kid, num: num };
    }
    var rx = vals.split(',').map(function (r) {
      try { return pcolGoRegExp(r); } catch (e) { throw new Error(what + ': bad regular expression \'' + r + '\' (' + e.message + ')'); }
    });
    return { kid: kid, rx: rx, none: none };
  }
  function match(t, ls) {
    if (t.none) return false;
    var a = ls ? L.off[ls] : 0, e = ls ? L.off[ls + 1] : 0, i, r;
    if (t.num) {
      for (i = a; i < e; i++)
        if (!L.val[i] && L.num && (!t.kid || L.key[i] === t.kid) && pcolRangeHas(t.num, L.num[i], keyUnit(L.key[i]))) return true;
      return false;
    }
    var n = Math.min(t.rx.length, 64), seen = new Uint8Array(n), left = n;
    for (i = a; i < e; i++) {
      if (!L.val[i]) continue; /* a numeric label */
      var v = L.vals[L.val[i] - 1];
      if (t.kid) {
        if (L.key[i] !== t.kid) continue;
        for (r = 0; r < t.rx.length; r++) if (t.rx[r].test(v)) return true;
      } else { /* every expression (the first 64, as filter.c) matches some "key:value" */
        var kv = L.keys[L.key[i] - 1] + ':' + v;
        for (r = 0; r < n; r++) if (!seen[r] && t.rx[r].test(kv)) { seen[r] = 1; left--; }
      }
    }
    return !t.kid && left === 0;
  }
  var tf = tag ? compile('tag', tag) : null, ti = tagIgnore ? compile('tag-ignore', tagIgnore) : null;
  for (var ls = 0; ls <= nls; ls++) keep[ls] = (!tf || match(tf, ls)) && !(ti && match(ti, ls)) ? 1 : 0;
  return keep;
}
/* The refine menu's filters (a node of the call graph, call tree or flame
 * graph: pprof -http's Refine, issue 44): a function name as an expression
 * matching exactly that name, read the same by the CLI (Go's syntax,
 * regex_go.c) and by the page (pcolGoRegExp): anchored, and every
 * character special in either escaped with a backslash, which both read as
 * the character itself; control characters (C0, DEL, C1), the line and
 * paragraph separators and the bidi controls as Go escapes (\n \r \t,
 * else \x{..}): a text box drops \n and \r and would show the others as
 * nothing (review 22 F13).  Like the CLI's, the expression also matches a file or
 * mapping of that name.  It then goes into the box of its filter: focus
 * replaces the box's expression (pprof's Focus on the selection); ignore,
 * hide and show add it as another alternative ("A|B": what A or B
 * matches), so a second ignore ignores both. */
export function pcolRefineRegex(name) {
  return '^' + String(name).replace(/[\\^$.|?*+()[\]{}]/g, '\\$&').replace(/[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g, function (c) {
    return c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : '\\x{' + c.charCodeAt(0).toString(16) + '}';
  }) + '$';
}
export function pcolRefineText(kind, old, name) {
  var re = pcolRefineRegex(name);
  return kind === 'focus' || !old ? re : old + '|' + re;
}
