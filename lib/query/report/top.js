/* top.js — the top table's numbers, as top.c adds them up: flat under the
 * innermost key of a sample's stack, cum once per sample under every key
 * on it (a key adds a stack node's subtree only where no ancestor holds
 * it).  The keys of each location come from the library (report.c embeds
 * top.c's pcol_q_top_keys), so only the sums are written here. */
import { pcolSelSources, pcolSubtree } from './range.js';
import { pcolFracCut, pcolGraphLocKeys } from './graph.js';

/* The key set of `by` for a selection: the one naming unnamed functions
 * as the selected sources do (their lines places or not: THE nameless rule,
 * lib/core/frames.c, each source's "places"); frames: the keys of go's
 * views of frames (the call graph: pcol_top_compute_frames, an Rprof frame
 * without a line a key of its own by line) where the page has them, else
 * top's (the table: summaryRprof's rule by line) */
export function pcolKeyset(D, sel, by, frames) {
  var unnamed = pcolSelSources(D, sel).some(function (s) { return !s.places; }) ? 1 : 0;
  var best = null, score = -1, f = frames ? 1 : 0;
  D.KS.forEach(function (k) {
    var sc = k.by !== by ? -1 : (k.unnamed === unnamed ? 2 : 0) + (k.frames === f ? 1 : 0);
    if (sc > score) { best = k; score = sc; }
  });
  return best;
}
/* rows {key, name, rank, inl, flat, cum, order, fp, sp, sv (the sum of flat to
 * the row), cp} in top's order */
export function pcolTop(D, sw, k) {
  var NS = D.NS, SPAR = D.SPAR, SLOC = D.SLOC, w = sw.w, nk = k.names.length + 1;
  var fk = new Uint32Array(NS + 1), flat = new Float64Array(nk), cum = new Float64Array(nk), cnt = new Uint32Array(nk);
  for (var n = 1; n <= NS; n++) {
    var p = SPAR[n - 1], l = SLOC[n - 1], a = k.koff[l], e = k.koff[l + 1];
    fk[n] = a < e ? k.keys[a] : fk[p];
    if (w[n] !== 0) {
      flat[fk[n] || k.nokey] += w[n];
      if (!fk[n]) cum[k.nokey] += w[n];
    }
  }
  var st = pcolSubtree(D, w), sub = st.sub, touched = st.touched;
  var stk = [], off = D.KIDS.off, kids = D.KIDS.kids, j;
  for (j = off[0]; j < off[1]; j++) if (touched[kids[j]]) stk.push(kids[j]);
  while (stk.length) {
    var x = stk.pop();
    if (x < 0) { n = -x; l = SLOC[n - 1]; for (j = k.koff[l]; j < k.koff[l + 1]; j++) cnt[k.keys[j]]--; continue; }
    n = x; l = SLOC[n - 1];
    for (j = k.koff[l]; j < k.koff[l + 1]; j++) if (cnt[k.keys[j]]++ === 0) cum[k.keys[j]] += sub[n];
    stk.push(-n);
    for (j = off[n]; j < off[n + 1]; j++) if (touched[kids[j]]) stk.push(kids[j]);
  }
  var rows = [], sumFlat = 0;
  for (var key = 1; key < nk; key++) sumFlat += flat[key];
  var marks = pcolInlineMarks(D, w, st, k, sumFlat);
  for (key = 1; key < nk; key++)
    if (flat[key] !== 0 || cum[key] !== 0)
      rows.push({ key: key, name: k.names[key - 1], rank: k.rank[key], inl: marks ? marks[key] : 0, flat: flat[key], cum: cum[key] });
  rows.sort(function (x, y) {
    var fx = Math.abs(x.flat), fy = Math.abs(y.flat);
    if (fx !== fy) return fx > fy ? -1 : 1;
    if (x.rank !== y.rank) return x.rank - y.rank;
    return Math.abs(y.cum) - Math.abs(x.cum);
  });
  var sum = 0, sv = 0;
  rows.forEach(function (r, i) { r.order = i; r.fp = pcolPct(r.flat, sw.total); sum += r.fp; r.sp = sum; sv += r.flat; r.sv = sv; r.cp = pcolPct(r.cum, sw.total); });
  return rows;
}
/* The table's rows in the order a header click asks for, as `pcol top
 * --sort` orders them (top.c): flat (and flat%, sum%) |flat| desc, name,
 * |cum| desc (pcolTop's); cum (and cum%) |cum| desc, name, |flat| desc;
 * name bytewise.  Names compare by rank (report.c's bytewise order).  sum%
 * is made again in the new order, as the CLI prints it.  Rows are copied. */
export function pcolTopSort(rows, key, total) {
  var out = rows.map(function (r) { var c = {}; for (var k in r) c[k] = r[k]; return c; });
  var nm = function (x, y) { return x.rank !== undefined && y.rank !== undefined ? x.rank - y.rank : x.name < y.name ? -1 : x.name > y.name ? 1 : 0; };
  if (key === 'cum' || key === 'cp')
    out.sort(function (x, y) { var a = Math.abs(x.cum), b = Math.abs(y.cum); return a !== b ? b - a : nm(x, y) || Math.abs(y.flat) - Math.abs(x.flat); });
  else if (key === 'name') out.sort(nm);
  else out.sort(function (x, y) { return x.order - y.order; });
  var sum = 0, sv = 0;
  out.forEach(function (r) { sum += pcolPct(r.flat, total); r.sp = sum; sv += r.flat; r.sv = sv; });
  return out;
}
/* The "(inline)" marks of a selection, as top.c's inline_marks makes
 * them: an edge from the nearest key outward into each key met at an
 * inlined line, counted (the node's subtree weight, and whether the call
 * went into an inlined line) where it is first on a path from the root,
 * as pprof counts a call once a sample (a depth-first walk with each
 * edge's count on the path, as pcolPeek's); edges under 0.001 of the sum
 * of flat are left out; a key is "inline" when every edge into it is all
 * inlined calls, "partial-inline" when some are.  null: no inlined line
 * in the profile. */
function pcolInlineMarks(D, w, st, k, sumFlat) {
  pcolGraphLocKeys(k);
  var A = k.gA, K = k.gK, I = k.gI, nk = k.names.length + 1, may = null, j;
  for (j = 0; j < K.length; j++) if (I[j]) { if (!may) may = new Uint8Array(nk); may[K[j]] = 1; }
  if (!may) return null;
  var NS = D.NS, SPAR = D.SPAR, SLOC = D.SLOC, kk = new Uint32Array(NS + 1), map = new Map(), ew = [], eall = [], eto = [], on = [];
  var nloc = A.length - 2, off = D.KIDS.off, kids = D.KIDS.kids, touched = st.touched, stk = [], log = [];
  for (j = off[0]; j < off[1]; j++) if (touched[kids[j]]) stk.push(kids[j]);
  while (stk.length) {
    var x = stk.pop();
    if (x < 0) { /* leave: the node's edges leave the path */
      var L = log.pop();
      for (j = 0; j < L.length; j++) on[L[j]]--;
      continue;
    }
    var n = x, p = SPAR[n - 1], loc = SLOC[n - 1], caller = kk[p < n ? p : 0], mine = [];
    if (loc <= nloc) for (j = A[loc + 1]; j > A[loc]; j--) {
      var key = K[j - 1];
      if (caller && caller !== key && may[key]) {
        var id = caller * nk + key, e = map.get(id);
        if (e === undefined) { map.set(id, e = ew.length); ew.push(0); eall.push(I[j - 1]); eto.push(key); on.push(0); }
        if (on[e]++ === 0) { /* first on the path */
          if (!I[j - 1]) eall[e] = 0;
          ew[e] += st.sub[n];
        }
        mine.push(e);
      }
      caller = key;
    }
    kk[n] = caller;
    log.push(mine);
    stk.push(-n);
    for (j = off[n]; j < off[n + 1]; j++) if (touched[kids[j]]) stk.push(kids[j]);
  }
  var cut = pcolFracCut(sumFlat, 0.001), m = new Uint8Array(nk), out = new Uint8Array(nk);
  for (j = 0; j < ew.length; j++) if (Math.abs(ew[j]) >= cut) m[eto[j]] |= eall[j] ? 1 : 2;
  for (j = 0; j < nk; j++) out[j] = m[j] & 1 ? (m[j] & 2 ? 3 : 1) : 0;
  return out;
}
export function pcolPct(v, total) { return total ? 100 * v / total : 0; }
/* the CLI's "(inline)" marks (PCOL_INLINE_*: 1 inline, 3 partial-inline; cmd_top.c's words) */
export function pcolInlineText(m) { return m === 1 ? 'inline' : m === 3 ? 'partial-inline' : ''; }
/* The window of lines `pcol list` shows in a block (list.c make_block):
 * from the earliest of each line's start (its function's start line, else
 * 5 lines before it) to 5 lines after the last line, from line 1 on; null
 * when no line has samples (list prints no block).  lines: the selection's
 * lines with samples in the block; st: the block's start lines as report.c
 * embeds them, one number for every line (0: none known) or [line, start,
 * ...] per line of the whole profile. */
export function pcolListWindow(lines, st) {
  if (!lines.length) return null;
  var by = null, i, a = Infinity, e = -Infinity;
  if (typeof st !== 'number') {
    by = new Map();
    for (i = 0; i + 1 < st.length; i += 2) {
      var s = st[i + 1] > 0 ? st[i + 1] : st[i] - 5, was = by.get(st[i]);
      if (was === undefined || s < was) by.set(st[i], s);
    }
  }
  for (i = 0; i < lines.length; i++) {
    var l = lines[i], x = by ? by.get(l) : st > 0 ? st : undefined;
    if (x === undefined) x = l - 5;
    if (x < a) a = x;
    if (l + 5 > e) e = l + 5;
  }
  if (a < 1) a = 1;
  return a > e ? null : [a, e];
}
