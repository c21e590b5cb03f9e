/* hide.js — the hide and show filters (lib/core/filter.c, pprof
 * -hide/-show): frames removed from the stacks, the sample keeping the
 * rest.  The rule per line is filter.c's; the keys of the lines left are
 * made as top.c's build_loc_keys makes them, and the frame tree is rebuilt
 * as ftree.c builds it, from what report.c embeds per line (each line's
 * function and its strings, each line's key in every key set, each line's
 * frame name).  pcolHidden gives the data with those in place of the
 * whole profile's, so every view (top, graph, trees, flame, peek) counts
 * the frames left.  No DOM. */
import { pcolGraphLocKeys } from './graph.js';
import { pcolFname } from './tree.js';

/* {lh: per line row 1 = hidden, loch: per location 1 = every line hidden},
 * or null without hide and show.  hide, show: RegExp or null. */
function pcolHideShow(D, hide, show) {
  if (!hide && !show) return null;
  var L = D.LL, names = D.LS.names, nloc = L.off.length - 1, nlines = L.fn.length, nfn = L.fname.length;
  var lh = new Uint8Array(nlines), loch = new Uint8Array(nloc + 1), memo = new Map();
  function bits(id) { /* 1: hide matches string id, 2: show does */
    var b = memo.get(id);
    if (b === undefined) {
      var s = names[id - 1];
      b = (hide && hide.test(s) ? 1 : 0) | (show && show.test(s) ? 2 : 0);
      memo.set(id, b);
    }
    return b;
  }
  var fnb = new Uint8Array(nfn + 2);
  for (var f = 1; f <= nfn; f++) fnb[f] = bits(L.fname[f - 1]) | bits(L.ffile[f - 1]);
  for (var loc = 1; loc <= nloc; loc++) {
    var e = L.off[loc], a = Math.min(L.off[loc - 1], e), mb = L.map[loc] ? bits(L.map[loc]) : 0, any = mb, li, fn;
    for (li = a; li < e; li++) { fn = L.fn[li]; if (fn && fn <= nfn) any |= fnb[fn]; }
    var left = e - a;
    if (hide && any & 1) {
      for (li = a; li < e; li++) {
        fn = L.fn[li];
        if (mb & 1 || (fn && fn <= nfn && fnb[fn] & 1)) { lh[li] = 1; left--; }
      }
      if (left === 0) loch[loc] = 1;
    }
    if (show && !loch[loc]) {
      if (!(mb & 2))
        for (li = a; li < e; li++) {
          fn = L.fn[li];
          if (lh[li] || !fn || fn > nfn || fnb[fn] & 2) continue;
          lh[li] = 1; left--;
        }
      if (left === 0) loch[loc] = 1;
    }
  }
  return { lh: lh, loch: loch };
}

/* Key set k with the keys of the lines left (build_loc_keys): a hidden
 * location has none; a location with lines has the distinct keys of the
 * lines left, every key with bit 31 on a line that is not the outermost
 * left, or its unsymbolized key when none is left but a line without a
 * function; a location without lines keeps its keys. */
function pcolKeysetHidden(D, k, hs) {
  pcolGraphLocKeys(k);
  var L = D.LL, nloc = L.off.length - 1, nk = k.names.length + 1, stamp = new Uint32Array(nk + 1);
  var koff = new Uint32Array(nloc + 2), aoff = new Uint32Array(nloc + 2), keys = [], all = [];
  for (var loc = 1; loc <= nloc; loc++) {
    var e = L.off[loc], a = Math.min(L.off[loc - 1], e), j;
    if (!hs.loch[loc]) {
      if (a === e) {
        for (j = k.koff[loc]; j < k.koff[loc + 1]; j++) keys.push(k.keys[j]);
        for (j = k.gA[loc]; j < k.gA[loc + 1]; j++) all.push(k.gK[j] + (k.gI[j] ? 0x80000000 : 0));
      } else {
        var last = e, start = keys.length, unsym = false;
        while (last > a && hs.lh[last - 1]) last--;
        for (var li = a; li < e; li++) {
          if (hs.lh[li]) continue;
          if (L.fn[li] === 0) unsym = true;
          var key = k.lkey[li];
          if (!key) continue;
          all.push(key + (li + 1 === last ? 0 : 0x80000000));
          if (stamp[key] === loc) continue;
          stamp[key] = loc;
          keys.push(key);
        }
        if (keys.length === start && unsym && k.ukey[loc]) { keys.push(k.ukey[loc]); all.push(k.ukey[loc]); }
      }
    }
    koff[loc + 1] = keys.length;
    aoff[loc + 1] = all.length;
  }
  return { by: k.by, unnamed: k.unnamed, frames: k.frames, nokey: k.nokey, names: k.names, rank: k.rank, inl: null,
           koff: koff, keys: Uint32Array.from(keys), aoff: aoff, all: Uint32Array.from(all), lkey: k.lkey, ukey: k.ukey };
}

/* The frame tree of the frames left (ftree.c's ftree_run): a hidden
 * location adds no frame (its stack node sits on its caller's), a
 * location without lines its address frame, else its lines left,
 * outermost first, merged by name under the same parent.
 * {FT: {n, names}, FTP, FTN, FTS} */
function pcolFtreeHidden(D, hs) {
  var L = D.LL, T = D.FT, NS = D.NS, nn = T.names.length + 1;
  var par = [0], nm = [0], kids = new Map(), map = new Uint32Array(NS + 1);
  function child(p, id) {
    var key = p * nn + id, c = kids.get(key);
    if (c === undefined) { c = par.length; par.push(p); nm.push(id); kids.set(key, c); }
    return c;
  }
  for (var n = 1; n <= NS; n++) {
    var loc = D.SLOC[n - 1], cur = map[D.SPAR[n - 1]];
    if (!hs.loch[loc]) {
      var e = loc ? L.off[loc] : 0, a = loc ? Math.min(L.off[loc - 1], e) : 0;
      if (a === e) cur = child(cur, T.aname[loc] || 0);
      for (var li = e; li > a; li--) if (!hs.lh[li - 1]) cur = child(cur, T.lname[li - 1]);
    }
    map[n] = cur;
  }
  return { FT: { n: par.length, names: T.names }, FTP: Uint32Array.from(par), FTN: Uint32Array.from(nm), FTS: map };
}

/* The data D with hide/show applied (D itself without them): every key
 * set and the frame tree of the frames left, and D.HS (pcolFilterDrop
 * drops a sample whose every frame is hidden). */
export function pcolHidden(D, hide, show) {
  var hs = pcolHideShow(D, hide, show);
  if (!hs) return D;
  var H = Object.create(D), t = pcolFtreeHidden(D, hs);
  H.HS = hs;
  H.KS = D.KS.map(function (k) { return pcolKeysetHidden(D, k, hs); });
  H.FT = t.FT; H.FTP = t.FTP; H.FTN = t.FTN; H.FTS = t.FTS;
  return H;
}

/* A --diff page under hide/show: the base (report.c diff_base_tree: its
 * stacks, lines and frame names in the shapes of the new profile's) with
 * the same frames hidden, its frame tree of the frames left made as
 * pcolFtreeHidden makes the new one's, and each node of H's frame tree
 * given the base's share of the node at the same name path, as
 * pcol_ftree_diff (`pcol flame --diff --hide`) gives it: a base sample
 * whose every frame is hidden adds to no node, the total stays the whole
 * base's.  null when the page has no base tree for value k. */
function pcolBaseTree(D) {
  var T = D.M.diff && D.M.diff.tree, col = D.col;
  if (!T) return null;
  if (!T.dec) {
    var L = T.locstr.lines;
    T.dec = { NS: T.n, SPAR: col(T.stacks.parent), SLOC: col(T.stacks.loc), LS: { names: T.locstr.names },
              LL: { off: col(L.off), fn: col(L.fn), fname: col(L.fname), ffile: col(L.ffile), map: col(L.map) },
              FT: { names: T.ftree.names, lname: col(T.ftree.lname), aname: col(T.ftree.aname) } };
  }
  return T.dec;
}
export function pcolBaseShares(H, hide, show, k) {
  var B = pcolBaseTree(H), T = H.M.diff && H.M.diff.tree;
  if (!B || !T['w' + k]) return null;
  var w = H.col(T['w' + k]), whole = T['t' + k], hs = pcolHideShow(B, hide, show);
  var t = hs ? pcolFtreeHidden(B, hs) : null, NS = B.NS, i;
  if (!t) return null;
  var n = t.FT.n, tot = new Float64Array(n), vis = new Uint8Array(NS + 1);
  for (var s = 1; s <= NS; s++) { /* pcolFilterDrop: kept when some location on the path is left */
    var p = B.SPAR[s - 1];
    vis[s] = (p && vis[p]) || !hs.loch[B.SLOC[s - 1]] ? 1 : 0;
    if (vis[s] && w[s]) tot[t.FTS[s]] += w[s];
  }
  for (i = n - 1; i > 0; i--) tot[t.FTP[i]] += tot[i];
  var kid = new Map(), out = new Float64Array(H.FT.n), map = new Int32Array(H.FT.n);
  for (i = 1; i < n; i++) kid.set(t.FTP[i] + '\0' + pcolFname(t, i), i);
  out[0] = whole ? 100 * tot[0] / whole : 0;
  for (i = 1; i < H.FT.n; i++) {
    var m = map[H.FTP[i]] < 0 ? undefined : kid.get(map[H.FTP[i]] + '\0' + pcolFname(H, i));
    map[i] = m === undefined ? -1 : m;
    out[i] = m === undefined || !whole ? 0 : 100 * tot[m] / whole;
  }
  return out;
}
