/* tree.js — the trees of the page over the frame tree (ftree.c: the
 * stacks merged by frame name from the root, as `pcol fold` prints them):
 * each node's self and total for a selection, the call tree top-down, the
 * inverted tree (a function that has self weight at the root, its callers
 * below), and the callers and callees of one key as `pcol peek` adds them
 * up.  No DOM. */
import { pcolSubtree } from './range.js';
import { pcolGraphLocKeys } from './graph.js';

export function pcolFname(D, i) { return i ? D.FT.names[D.FTN[i] - 1] : 'all'; }
/* per frame-tree node: self (samples ending there) and total (its subtree) */
export function pcolFtreeSums(D, sw) {
  var n = D.FT.n, self = new Float64Array(n), total = new Float64Array(n), FTS = D.FTS, FTP = D.FTP;
  /* nz: a node of non-zero self in the subtree (with negative values a
   * node's total can be 0 with such nodes below: pcol fold prints their
   * paths, so the call tree shows the node) */
  var nz = new Uint8Array(n), i;
  for (var s = 1; s <= D.NS; s++) if (sw.w[s] !== 0) self[FTS[s]] += sw.w[s];
  self[0] += sw.w[0];
  for (i = 0; i < n; i++) nz[i] = self[i] !== 0 ? 1 : 0;
  for (i = n - 1; i >= 0; i--) { total[i] += self[i]; if (i) { total[FTP[i]] += total[i]; nz[FTP[i]] |= nz[i]; } }
  return { self: self, total: total, nz: nz, totalAbs: sw.total };
}
/* children of each frame-tree node (arrays), in node order */
export function pcolFtreeKids(D) {
  var k = [];
  for (var i = 0; i < D.FT.n; i++) k.push([]);
  for (i = 1; i < D.FT.n; i++) k[D.FTP[i]].push(i);
  return k;
}
function pcolByWeight(a, b) { /* |w| descending, then name bytewise */
  var x = Math.abs(a.w), y = Math.abs(b.w);
  return x !== y ? y - x : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
/* The call tree top-down: children of frame-tree node i with a non-zero
 * sample below (pcolFtreeSums nz), as {n, name, w (total), self},
 * heaviest first */
export function pcolTreeChildren(D, kids, sums, i) {
  var out = [];
  kids[i].forEach(function (c) {
    if (sums.total[c] !== 0 || sums.nz[c]) out.push({ n: c, name: pcolFname(D, c), w: sums.total[c], self: sums.self[c] });
  });
  return out.sort(pcolByWeight);
}
/* The inverted tree: roots are the functions with self weight (each its
 * self summed over the tree), a node's children the callers of the path
 * from the root to it, each with the weight that reached the root through
 * it.  A node keeps its frontier (frame-tree nodes and their weights), so
 * children are made when a node is opened. */
export function pcolInvertedRoots(D, sums) {
  var by = {}, out = [];
  for (var i = 1; i < D.FT.n; i++) {
    if (sums.self[i] === 0) continue;
    var name = pcolFname(D, i), r = by[name];
    if (!r) out.push(r = by[name] = { name: name, w: 0, front: [], fw: [] });
    r.w += sums.self[i]; r.front.push(i); r.fw.push(sums.self[i]);
  }
  return out.sort(pcolByWeight);
}
export function pcolInvertedChildren(D, node) {
  var by = {}, out = [];
  for (var j = 0; j < node.front.length; j++) {
    var p = D.FTP[node.front[j]];
    if (!p) continue; /* a root frame: no caller */
    var name = pcolFname(D, p), r = by[name];
    if (!r) out.push(r = by[name] = { name: name, w: 0, front: [], fw: [] });
    r.w += node.fw[j]; r.front.push(p); r.fw.push(node.fw[j]);
  }
  return out.sort(pcolByWeight);
}
/* Callers and callees of key K of key set k, as pprof -peek (peek.c): an
 * edge goes from the innermost key of the nearest framed ancestor (or of
 * the outer lines of the same location) to each key, never to itself, and
 * a sample counts once per edge however often it recurs.  Every line of a
 * location counts, in its order (pcolGraphLocKeys: an inline chain that
 * repeats a function calls it again), not only its distinct keys.  Returns
 * {callers: [{key, name, w}], callees: [...], flat, cum}. */
export function pcolPeek(D, sw, k, K) {
  var NS = D.NS, SLOC = D.SLOC, off = D.KIDS.off, kids = D.KIDS.kids, st = pcolSubtree(D, sw.w);
  var sub = st.sub, touched = st.touched, nk = k.names.length + 1;
  var inC = new Uint32Array(nk), outC = new Uint32Array(nk), cin = new Float64Array(nk), cout = new Float64Array(nk);
  var kk = new Uint32Array(NS + 1), stk = [], j, log = [];
  pcolGraphLocKeys(k);
  var A = k.gA, KS = k.gK, nloc = A.length - 2;
  for (j = off[0]; j < off[1]; j++) if (touched[kids[j]]) stk.push(kids[j]);
  while (stk.length) {
    var x = stk.pop();
    if (x < 0) { /* leave: undo the edges the node added */
      var L = log.pop();
      for (j = 0; j < L.length; j++) { if (L[j] > 0) inC[L[j] - 1]--; else outC[-L[j] - 1]--; }
      continue;
    }
    var n = x, l = SLOC[n - 1], caller = kk[D.SPAR[n - 1]], mine = [];
    if (l <= nloc) for (j = A[l + 1]; j > A[l]; j--) { /* outermost line first */
      var key = KS[j - 1];
      if (caller && caller !== key) {
        if (key === K) { if (inC[caller]++ === 0) cin[caller] += sub[n]; mine.push(caller + 1); }
        else if (caller === K) { if (outC[key]++ === 0) cout[key] += sub[n]; mine.push(-(key + 1)); }
      }
      caller = key;
    }
    kk[n] = caller;
    log.push(mine);
    stk.push(-n);
    for (j = off[n]; j < off[n + 1]; j++) if (touched[kids[j]]) stk.push(kids[j]);
  }
  function list(a) {
    var out = [];
    for (var i = 1; i < nk; i++) if (a[i] !== 0) out.push({ key: i, name: k.names[i - 1], w: a[i] });
    return out.sort(pcolByWeight);
  }
  return { callers: list(cin), callees: list(cout) };
}
