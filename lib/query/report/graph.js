/* graph.js — the call graph of `pcol graph` (lib/query/graph.c, pprof's
 * -dot): the nodes and edges a selection gives, pruned as graph.c prunes
 * them (node fraction, node count in entropy order, edge fraction, then
 * redundant residual edges).  The rules are graph.c's, written once more
 * here because the page recomputes on every range drag;
 * tests/report/compute.test.mjs checks them against `pcol graph --format
 * json` so that the two cannot drift.  No DOM.  A node's label tags
 * count as nodes when the first node_count are kept, and are drawn as
 * boxes (graphtags.js, the rules of graph_tags.c; report.c embeds each
 * sample's label set and each set's labels). */
import { pcolInRange, pcolRangeRows, pcolSelSources, pcolSubtree } from './range.js';
import { pcolGraphTagCount, pcolGraphTagDraw, pcolGraphTagSets } from './graphtags.js';

/* Every key of each location, outermost last, and whether the line is
 * inlined (not the outermost): report.c embeds them (aoff, all) only when
 * they are not the keys with the last one outermost. */
export function pcolGraphLocKeys(k) {
  if (k.gK) return k;
  var nl = k.koff.length - 2, A, K, I, j, l;
  if (k.aoff) {
    A = k.aoff; K = new Uint32Array(k.all.length); I = new Uint8Array(k.all.length);
    for (j = 0; j < K.length; j++) { K[j] = k.all[j] & 0x7fffffff; I[j] = k.all[j] >= 0x80000000 ? 1 : 0; }
  } else {
    A = k.koff; K = k.keys; I = new Uint8Array(K.length);
    for (l = 1; l <= nl; l++) for (j = A[l]; j + 1 < A[l + 1]; j++) I[j] = 1;
  }
  k.gA = A; k.gK = K; k.gI = I;
  /* top's "<no location>" key counts only when no location has it (graph.c) */
  k.gNokey = k.nokey;
  for (j = 0; j < K.length && k.gNokey; j++) if (K[j] === k.gNokey) k.gNokey = 0;
  return k;
}

/* pcol_q_stack_walk: the touched stack nodes in id order with the path
 * kept (visit(n, 1) enter, 2 back on the path, 0 leave); when the climbs
 * pass 8 steps a node, reset() and the depth-first walk over child lists.
 * Edges are made in this order, which orders the entropy sums. */
function pcolStackWalk(D, touched, visit, reset) {
  var NS = D.NS, SPAR = D.SPAR, onp = new Uint8Array(NS + 1), path = [], chain = [], steps = 0, n, q;
  for (n = 1; n <= NS; n++) {
    if (!touched[n]) continue;
    q = SPAR[n - 1];
    chain.length = 0;
    while (q && !onp[q]) {
      if (++steps > 8 * n + 1024) return treeWalk();
      chain.push(q); q = SPAR[q - 1];
    }
    while (path.length && path[path.length - 1] !== q) {
      var x = path.pop(); onp[x] = 0; visit(x, 0);
      if (++steps > 8 * n + 1024) return treeWalk();
    }
    while (chain.length) { x = chain.pop(); onp[x] = 1; path.push(x); visit(x, 2); }
    visit(n, 1); onp[n] = 1; path.push(n);
  }
  return;
  function treeWalk() {
    reset();
    var koff = new Uint32Array(NS + 2), kids = new Uint32Array(NS + 1), pos, i, stk = [];
    for (var m = 1; m <= NS; m++) if (touched[m]) koff[SPAR[m - 1] + 1]++;
    for (i = 1; i <= NS + 1; i++) koff[i] += koff[i - 1];
    pos = koff.slice(0, NS + 1);
    for (m = 1; m <= NS; m++) if (touched[m]) kids[pos[SPAR[m - 1]]++] = m;
    for (i = koff[0]; i < koff[1]; i++) stk.push(kids[i]);
    while (stk.length) {
      var y = stk.pop();
      if (y < 0) { visit(-y, 0); continue; }
      visit(y, 1); stk.push(-y);
      for (i = koff[y]; i < koff[y + 1]; i++) stk.push(kids[i]);
    }
  }
}

/* One build over the kept keys (graph.c gbuild_run): flat and cum per key,
 * the edges in the order made, the last kept key (kk) and residual mark
 * (res) per stack node. */
function pcolGraphBuild(D, sw, st, k, kept) {
  var NS = D.NS, SPAR = D.SPAR, SLOC = D.SLOC, w = sw.w, sub = st.sub, nk = k.names.length + 1;
  var A = k.gA, K = k.gK, I = k.gI, nokey = k.gNokey, nloc = A.length - 2;
  var b;
  function reset() {
    b = { cnt: new Uint32Array(nk), flat: new Float64Array(nk), cum: new Float64Array(nk), kk: new Uint32Array(NS + 1),
          res: new Uint8Array(NS + 1), map: new Map(), from: [], to: [], w: [], inl: [], rs: [], onp: [] };
  }
  reset();
  function edge(f, t) {
    var id = f * nk + t, e = b.map.get(id);
    if (e === undefined) { e = b.from.length; b.map.set(id, e); b.from.push(f); b.to.push(t); b.w.push(0); b.inl.push(1); b.rs.push(0); b.onp.push(0); }
    return e;
  }
  function visit(n, mode) {
    var p = SPAR[n - 1], loc = SLOC[n - 1];
    if (p >= n) p = 0;
    var caller = b.kk[p], residual = b.res[p], s = sub[n];
    if (loc <= nloc) for (var j = A[loc + 1]; j > A[loc]; j--) {
      var key = K[j - 1];
      if (!kept[key]) { residual = 1; continue; }
      if (!mode) b.cnt[key]--;
      else if (b.cnt[key]++ === 0 && mode === 1) b.cum[key] += s;
      if (caller && caller !== key) {
        var e = edge(caller, key);
        if (!mode) b.onp[e]--;
        else if (b.onp[e]++ === 0 && mode === 1) {
          b.w[e] += s;
          if (residual) b.rs[e] = 1;
          if (!I[j - 1]) b.inl[e] = 0;
        }
      }
      caller = key; residual = 0;
    }
    if (mode === 1) {
      b.kk[n] = caller; b.res[n] = residual;
      var own = w[n];
      if (own !== 0) {
        if (caller && !residual) b.flat[caller] += own;
        else if (!caller && !residual && nokey && kept[nokey]) { b.flat[nokey] += own; b.cum[nokey] += own; }
      }
    }
  }
  pcolStackWalk(D, st.touched, visit, reset);
  return b;
}

/* Go's math.Log (FreeBSD's e_log.c) and math.Log2, so that the entropy
 * scores, truncated to integers, order nodes as pprof's (and graph.c's) do */
var PCOL_F64 = new Float64Array(1), PCOL_U32 = new Uint32Array(PCOL_F64.buffer);
function pcolFrexp(x) { /* [fraction in [0.5, 1), exponent] for a finite x > 0 */
  var e = 0;
  if (x < 2.2250738585072014e-308) { x *= 18014398509481984; e = -54; } /* 2^54: subnormals */
  PCOL_F64[0] = x;
  var hi = PCOL_U32[1], be = (hi >>> 20) & 0x7ff;
  e += be - 1022;
  PCOL_U32[1] = (hi & 0x800fffff) | (1022 << 20);
  return [PCOL_F64[0], e];
}
function pcolGoLog(x) {
  var Ln2Hi = 6.93147180369123816490e-01, Ln2Lo = 1.90821492927058770002e-10,
    L1 = 6.666666666666735130e-01, L2 = 3.999999999940941908e-01, L3 = 2.857142874366239149e-01,
    L4 = 2.222219843214978396e-01, L5 = 1.818357216161805012e-01, L6 = 1.531383769920937332e-01,
    L7 = 1.479819860511658591e-01;
  if (x !== x || x === Infinity) return x;
  if (x < 0) return NaN;
  if (x === 0) return -Infinity;
  var fe = pcolFrexp(x), f1 = fe[0], ki = fe[1];
  if (f1 < Math.SQRT2 / 2) { f1 *= 2; ki--; }
  var f = f1 - 1, k = ki;
  var s = f / (2 + f), s2 = s * s, s4 = s2 * s2;
  var t1 = s2 * (L1 + s4 * (L3 + s4 * (L5 + s4 * L7)));
  var t2 = s4 * (L2 + s4 * (L4 + s4 * L6));
  var R = t1 + t2, hfsq = 0.5 * f * f;
  return k * Ln2Hi - ((hfsq - (s * (hfsq + R) + k * Ln2Lo)) - f);
}
function pcolGoLog2(x) {
  var fe = pcolFrexp(x);
  if (fe[0] === 0.5) return fe[1] - 1;
  return pcolGoLog(fe[0]) * 1.4426950408889634 + fe[1];
}
/* graph.go edgeEntropyScore over edges es (indexes into g.e) */
function pcolEdgeEntropy(g, es, self) {
  var score = 0, total = self, i, frac;
  for (i = 0; i < es.length; i++) { var w = g.e[es[i]].w; if (w > 0) total += Math.abs(w); }
  if (total !== 0) {
    for (i = 0; i < es.length; i++) { frac = Math.abs(g.e[es[i]].w) / total; score += -frac * pcolGoLog2(frac); }
    if (self > 0) { frac = Math.abs(self) / total; score += -frac * pcolGoLog2(frac); }
  }
  return score;
}
/* The scores are Go's int64s (BigInt here): int64(x) of a float as amd64
 * converts it (NaN and out of range: MinInt64), adds and abs64 wrapping */
var PCOL_MIN64 = -(2n ** 63n);
function pcolGoInt64(x) { return x >= -9223372036854775808 && x < 9223372036854775808 ? BigInt(Math.trunc(x)) : PCOL_MIN64; }
function pcolGoAdd(a, flat) { return BigInt.asIntN(64, a + BigInt(Math.max(-9223372036854775808, Math.min(9223372036854775807, flat)))); }
function pcolGoAbs(v) { return v < 0n ? BigInt.asIntN(64, -v) : v; }
/* names bytewise (the key set's rank is the names' byte order) */
function pcolNameCmp(a, b) { return a.name === b.name ? 0 : a.rank - b.rank; }

/* The graph of a build (graph_make), its nodes sorted by entropy
 * (graph_sort): {n: [{key, name, rank, flat, cum, score, ins, outs}],
 * e: [{from, to, w, inl, res, dead}]} with ins/outs edge indexes in the
 * order the edges were made. */
function pcolGraphMake(k, b, kept) {
  var nk = k.names.length + 1, g = { n: [], e: [] }, of = new Int32Array(nk).fill(-1), i;
  for (var key = 1; key < nk; key++) {
    if (!(kept[key] && (b.flat[key] !== 0 || b.cum[key] !== 0))) continue;
    of[key] = g.n.length;
    g.n.push({ key: key, name: k.names[key - 1], rank: k.rank[key], flat: b.flat[key], cum: b.cum[key], score: 0, ins: [], outs: [] });
  }
  for (i = 0; i < b.from.length; i++) {
    var f = of[b.from[i]], t = of[b.to[i]];
    if (f < 0 || t < 0) continue;
    g.e.push({ from: g.n[f], to: g.n[t], w: b.w[i], inl: b.inl[i], res: b.rs[i], dead: 0 });
  }
  g.e.forEach(function (e, j) { e.from.outs.push(j); e.to.ins.push(j); });
  g.n.forEach(function (n) {
    var score = 0;
    if (!n.ins.length) score++; else score += pcolEdgeEntropy(g, n.ins, 0);
    if (!n.outs.length) score++; else score += pcolEdgeEntropy(g, n.outs, n.flat);
    n.score = pcolGoAdd(pcolGoInt64(score * n.cum), n.flat);
  });
  g.n.sort(function (a, c) { /* graph.go EntropyOrder: |score| desc, name, |flat| desc */
    var x = pcolGoAbs(a.score), y = pcolGoAbs(c.score);
    if (x !== y) return x > y ? -1 : 1;
    var d = pcolNameCmp(a, c);
    if (d) return d;
    if (Math.abs(a.flat) !== Math.abs(c.flat)) return Math.abs(a.flat) > Math.abs(c.flat) ? -1 : 1;
    return a.key - c.key;
  });
  g.n.forEach(function (n, j) { n.i = j; });
  return g;
}
/* graph.go edgeList.Less */
function pcolEdgeCmp(a, b) {
  if (a.w !== b.w && Math.abs(a.w) !== Math.abs(b.w)) return Math.abs(a.w) > Math.abs(b.w) ? -1 : 1;
  var c = pcolNameCmp(a.from, b.from);
  if (c) return c;
  c = pcolNameCmp(a.to, b.to);
  if (c) return c;
  return a.from.i !== b.from.i ? a.from.i - b.from.i : a.to.i - b.to.i;
}
export function pcolFracCut(sum, fraction) { var c = sum * fraction; return c !== c ? 0 : Math.abs(Math.trunc(c)); }

/* graph_tags.c pcol_q_gtags_load: the selected, kept samples' values
 * summed per (stack node, label set) with a tag: [[node, set, w]...] */
function pcolGraphTagPairs(D, sel, T) {
  var G = D.GT, out = [], map = new Map(), drop = sel.drop, lsk = sel.lskeep;
  if (!G || !T) return out; /* (before reading a sample: the first drawing reads none) */
  var V = D.values(sel.value), STK = D.STK;
  var nset = T.off.length;
  pcolSelSources(D, sel).forEach(function (s) {
    if (sel.range && !s.timed) return;
    var rows = sel.range ? pcolRangeRows(D, s, sel.range[0], sel.range[1]) : [s.row0, s.row1];
    for (var i = rows[0]; i < rows[1]; i++) {
      var v = V[i], ls = G.ls[i], n = STK[i];
      if (v === 0 || !ls || !n || T.off[ls] === T.off[ls + 1]) continue;
      if (sel.range) { v = pcolInRange(D, s, i, v, sel.range[0], sel.range[1]); if (v === null || v === 0) continue; }
      if (drop && drop[n]) continue;
      if (lsk && !lsk[ls]) continue;
      var id = n * nset + ls, p = map.get(id);
      if (p === undefined) { map.set(id, p = out.length); out.push([n, ls, 0]); }
      out[p][2] += v;
    }
  });
  return out;
}
/* pcol_graph_compute for a selection sel: sw from pcolStackWeights, k the key
 * set, o {nodeFraction, edgeFraction, nodeCount} (pprof's defaults 0.005,
 * 0.001, 80; tagShow, tagHide: RegExps on label keys, pcol graph's
 * --tagshow/--taghide).  Returns {nodes: [{key, name, flat, cum, inl}], edges:
 * [{from, to (node indexes), w, inl, res}], tags (graphtags.js
 * pcolGraphTagDraw: the label boxes), total, droppedNodes, droppedEdges,
 * origCount, nodeCutoff, edgeCutoff}. */
export function pcolGraph(D, sel, sw, k, o) {
  o = o || {};
  var nf = o.nodeFraction === undefined ? 0.005 : o.nodeFraction, ef = o.edgeFraction === undefined ? 0.001 : o.edgeFraction;
  var ncount = o.nodeCount === undefined ? 80 : o.nodeCount;
  pcolGraphLocKeys(k);
  var nk = k.names.length + 1, st = pcolSubtree(D, sw.w), kept = new Uint8Array(nk).fill(1), key;
  var out = { nodes: [], edges: [], total: sw.total, droppedNodes: 0, droppedEdges: 0, origCount: 0,
              nodeCutoff: pcolFracCut(sw.total, nf), edgeCutoff: pcolFracCut(sw.total, ef) };
  var b = pcolGraphBuild(D, sw, st, k, kept), sumFlat = 0, nall = 0;
  for (key = 1; key < nk; key++) { sumFlat += b.flat[key]; if (b.flat[key] !== 0 || b.cum[key] !== 0) nall++; }
  var ncut = pcolFracCut(sumFlat, nf), ecut = pcolFracCut(sumFlat, ef);
  if (ncut > 0) {
    var nkept = 0;
    for (key = 1; key < nk; key++) { kept[key] = (b.flat[key] !== 0 || b.cum[key] !== 0) && Math.abs(b.cum[key]) >= ncut ? 1 : 0; nkept += kept[key]; }
    kept[0] = 0;
    if (nkept !== nall) { out.droppedNodes = nall - nkept; b = pcolGraphBuild(D, sw, st, k, kept); }
    else kept.fill(1);
  }
  var g = pcolGraphMake(k, b, kept);
  out.origCount = g.n.length;
  var T = pcolGraphTagSets(D, o.tagShow || null, o.tagHide || null), pairs = pcolGraphTagPairs(D, sel, T);
  function trim() { var d = 0; g.e.forEach(function (e) { if (!e.dead && Math.abs(e.w) < ecut) { e.dead = 1; d++; } }); return d; }
  if (ncount > 0) {
    trim();
    /* a node's label tags (up to 4) count as nodes (graph.go selectTopNodes) */
    var tags = pcolGraphTagCount(D, T, k, pairs, kept, b, ncut), keep = g.n.length, count = 0, i;
    for (i = 0; i < g.n.length; i++) {
      count += Math.min(tags[g.n[i].key], 4) + 1;
      if (count >= ncount) { keep = i + 1; break; }
    }
    if (keep < g.n.length) {
      kept = new Uint8Array(nk);
      for (i = 0; i < keep; i++) kept[g.n[i].key] = 1;
      b = pcolGraphBuild(D, sw, st, k, kept);
      g = pcolGraphMake(k, b, kept);
    }
  }
  out.droppedEdges = trim();
  /* redundant residual edges, from the last node to the first */
  var seen = new Uint8Array(g.n.length);
  function redundant(e) {
    seen.fill(0);
    var q = [e.to.i], h = 0;
    seen[e.to.i] = 1;
    while (h < q.length) {
      var n = g.n[q[h++]];
      for (var j = 0; j < n.ins.length; j++) {
        var x = g.e[n.ins[j]];
        if (x.dead || x === e || seen[x.from.i]) continue;
        if (x.from === e.from) return true;
        seen[x.from.i] = 1; q.push(x.from.i);
      }
    }
    return false;
  }
  for (var ni = g.n.length - 1; ni >= 0; ni--) {
    var ins = g.n[ni].ins.map(function (j) { return g.e[j]; }).filter(function (e) { return !e.dead; }).sort(pcolEdgeCmp);
    for (var j = ins.length - 1; j >= 0; j--) {
      if (!ins[j].res) break;
      if (redundant(ins[j])) ins[j].dead = 1;
    }
  }
  out.nodes = g.n.map(function (n) { return { key: n.key, name: n.name, flat: n.flat, cum: n.cum, inl: 0 }; });
  var marks = new Uint8Array(g.n.length);
  g.e.filter(function (e) { return !e.dead; }).sort(pcolEdgeCmp).forEach(function (e) {
    out.edges.push({ from: e.from.i, to: e.to.i, w: e.w, inl: e.inl, res: e.res });
    marks[e.to.i] |= e.inl ? 1 : 2;
  });
  out.nodes.forEach(function (n, i) { n.inl = marks[i] & 1 ? (marks[i] & 2 ? 3 : 1) : 0; });
  out.shown = out.nodes.reduce(function (s, n) { return s + n.flat; }, 0);
  var nodeOf = new Map();
  out.nodes.forEach(function (n, i) { nodeOf.set(n.key, i); });
  out.tags = pcolGraphTagDraw(D, T, k, pairs, kept, b, ncut, out, nodeOf);
  return out;
}
