/* graphtags.js — the call graph's label tags and their boxes, the rules of
 * lib/query/graph_tags.c (go tool pprof -dot's nodelets: graph.go
 * addSample, joinLabels, TrimLowFrequencyTags; dotgraph.go addNodelets,
 * numericNodelets, collapsedTags), written once more here because the page
 * recomputes on every drag; tests/cli/t_report_compute.sh checks them
 * against `pcol graph --format dot`.  No DOM.  The tags of a label set
 * (pcolGraphTagSets): one for its string labels ("key:value" sorted, one a
 * line; pprof::base left out), one per "bytes" value (its text in its
 * unit); the keys tagshow does not match or taghide matches left out. */
import { pcolUnitLabel } from './units.js';
import { pcolLabelKeys, pcolRefineRegex } from './range.js';

/* strings compared by their UTF-8 bytes (code points), as memcmp does */
function pcolByteCmp(a, b) {
  var n = Math.min(a.length, b.length);
  for (var i = 0; i < n; i++) {
    var x = a.codePointAt(i), y = b.codePointAt(i);
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/* graph_tags.c label_set_tags: {off, tag, val, tags} with the tags of set
 * ls tag[off[ls] .. off[ls + 1]) (ids into tags, from 1) and their values;
 * tags[id - 1] = {numeric, parent (a tag id, 0: none), name, lines, unit}.
 * show, hide: RegExps on label keys or null.  Kept per (show, hide). */
export function pcolGraphTagSets(D, show, hide) {
  var L = D.LB, id = (show ? show.source : '\u0000') + '\u0001' + (hide ? hide.source : '\u0000');
  if (!L) return null;
  if (L.tagsets && L.tagsets.id === id) return L.tagsets;
  var nls = L.off.length - 2, off = new Uint32Array(nls + 2), tag = [], val = [], tags = [], ids = new Map(), kmemo = new Map();
  function keep(kid) {
    if (!show && !hide) return true;
    var k = kmemo.get(kid);
    if (k === undefined) { var s = L.keys[kid - 1]; kmemo.set(kid, k = (!show || show.test(s)) && !(hide && hide.test(s))); }
    return k;
  }
  function intern(key, t) {
    var x = ids.get(key);
    if (x === undefined) { tags.push(t); ids.set(key, x = tags.length); }
    return x;
  }
  for (var ls = 1; ls <= nls; ls++) {
    off[ls] = tag.length;
    var a = L.off[ls], e = L.off[ls + 1], sl = [], i;
    for (i = a; i < e; i++) {
      if (!L.val[i]) continue;
      var k = L.keys[L.key[i] - 1];
      if (k === 'pprof::base' || !keep(L.key[i])) continue;
      sl.push([k + ':' + L.vals[L.val[i] - 1], k]);
    }
    sl.sort(function (x, y) { return pcolByteCmp(x[0], y[0]); });
    var lines = sl.map(function (x) { return x[0]; }), joined = lines.join('\\n'), lid = 0;
    if (sl.length) {
      lid = intern('L' + joined, { numeric: 0, parent: 0, name: joined, lines: lines, keys: sl.map(function (x) { return x[1]; }), unit: '' });
      tag.push(lid); val.push(0);
    }
    for (i = a; i < e; i++) {
      if (L.val[i] || L.keys[L.key[i] - 1] !== 'bytes' || !keep(L.key[i]) || !L.num) continue;
      var u = L.unit[i] ? L.units[L.unit[i] - 1] : 'bytes', v = L.num[i], txt = pcolUnitLabel(v, u, 'minimum');
      tag.push(intern('N' + joined + '\u0000' + txt, { numeric: 1, parent: lid, name: txt, lines: [txt], unit: u }));
      val.push(v);
    }
  }
  off[nls + 1] = tag.length;
  return (L.tagsets = { id: id, off: off, tag: tag, val: val, tags: tags });
}
/* a set of the page's label tags at all (string labels or "bytes") */
function pcolGraphHasTags(D) { var T = pcolGraphTagSets(D, null, null); return !!(T && T.tag.length); }

/* graph_tags.c cells_make: per (kept key, tag) its flat, cum and value
 * (the first pair's) over the pairs [[stack node, set, w]...] of
 * pcolGraphTagPairs, given a build's innermost kept key and residual mark */
function pcolGraphTagCells(D, T, k, pairs, kept, b) {
  var cells = new Map(), nk = k.names.length + 1;
  if (!pairs.length || !T) return cells;
  var A = k.gA, K = k.gK, nloc = A.length - 2, stamp = new Uint32Array(nk), ntag = T.tags.length + 1;
  pairs.forEach(function (p, i) {
    var n = p[0], ls = p[1], w = p[2], leaf = b.kk[n] && !b.res[n] ? b.kk[n] : 0;
    if (w === 0) return; /* a merged sample that cancels: no tag (graph_tags.c) */
    for (var x = n; x; x = D.SPAR[x - 1]) {
      var loc = D.SLOC[x - 1];
      if (loc > nloc) break;
      for (var j = A[loc]; j < A[loc + 1]; j++) {
        var key = K[j];
        if (!kept[key] || stamp[key] === i + 1) continue;
        stamp[key] = i + 1;
        for (var t = T.off[ls]; t < T.off[ls + 1]; t++) {
          var id = key * ntag + T.tag[t], c = cells.get(id);
          if (!c) cells.set(id, c = { key: key, tag: T.tag[t], fl: 0, cu: 0, val: T.val[t] });
          c.cu += w;
          if (key === leaf) c.fl += w;
        }
      }
      if (D.SPAR[x - 1] >= x) break;
    }
  });
  return cells;
}
/* pcol_q_gtags_count: how many tags of each kept key survive the trim at cut */
export function pcolGraphTagCount(D, T, k, pairs, kept, b, cut) {
  var count = new Uint32Array(k.names.length + 1);
  pcolGraphTagCells(D, T, k, pairs, kept, b).forEach(function (c) {
    if (c.fl !== 0 && (Math.abs(c.fl) >= cut || Math.abs(c.cu) >= cut)) count[c.key]++;
  });
  return count;
}

/* graph.go tags.Less: a leaf's (flat false) by |cum| desc, then |flat| desc, then name */
function pcolTagSort(ts, flat) {
  return ts.sort(function (a, b) {
    if (!flat && Math.abs(a.cu) !== Math.abs(b.cu)) return Math.abs(a.cu) > Math.abs(b.cu) ? -1 : 1;
    if (Math.abs(a.fl) !== Math.abs(b.fl)) return Math.abs(a.fl) > Math.abs(b.fl) ? -1 : 1;
    return pcolByteCmp(a.name, b.name);
  });
}
/* dotgraph.go numericNodelets: sorted; more than 4 put into 4 buckets
 * (the 4 heaviest, each other value joining the nearest), "min..max" */
function pcolNumericBoxes(out, nts, flat, node, parent) {
  pcolTagSort(nts, flat);
  var show = nts, i, j;
  if (nts.length > 4) {
    var grp = [], mn = [], mx = [], cnt = [1, 1, 1, 1];
    for (i = 0; i < 4; i++) { grp.push(Object.assign({}, nts[i])); mn.push(nts[i]); mx.push(nts[i]); }
    for (j = 4; j < nts.length; j++) {
      var gi = 0, d = Math.abs(nts[j].val - nts[0].val);
      for (i = 1; i < 4; i++) { var nd = Math.abs(nts[j].val - nts[i].val); if (nd < d) { gi = i; d = nd; } }
      cnt[gi]++; grp[gi].fl += nts[j].fl; grp[gi].cu += nts[j].cu;
      if (nts[j].val < mn[gi].val) mn[gi] = nts[j];
      if (nts[j].val > mx[gi].val) mx[gi] = nts[j];
    }
    for (i = 0; i < 4; i++) {
      var a = pcolUnitLabel(mn[i].val, mn[i].unit, 'minimum');
      grp[i].name = cnt[i] === 1 ? a : a + '..' + pcolUnitLabel(mx[i].val, mx[i].unit, 'minimum');
      grp[i].lo = mn[i].val; grp[i].hi = mx[i].val;
    }
    show = pcolTagSort(grp, flat);
  }
  show.forEach(function (t, j2) {
    var w = t.cu, dotted = 1;
    if (flat || t.fl === t.cu) { w = t.fl; dotted = 0; }
    if (w !== 0) out.push({ node: node, parent: parent, index: j2, numeric: 1, lines: [t.name], w: w, dotted: dotted,
                            lo: t.lo === undefined ? t.val : t.lo, hi: t.hi === undefined ? t.val : t.hi, unit: t.unit });
  });
}
/* pcol_q_gtags_draw: the boxes of the graph's nodes g.nodes (edges g.edges,
 * node of key: nodeOf), as [{node, parent (box index + 1, 0: the node),
 * index, numeric, lines, w, dotted, labels ([key, value] pairs of a string
 * box: lines and keys), lo, hi, unit (a number's)}] in pcol graph's order */
export function pcolGraphTagDraw(D, T, k, pairs, kept, b, cut, g, nodeOf) {
  var dt = [], out = [], hasOut = new Uint8Array(g.nodes.length);
  pcolGraphTagCells(D, T, k, pairs, kept, b).forEach(function (c) {
    var node = nodeOf.get(c.key);
    if (node === undefined || !(Math.abs(c.fl) >= cut || Math.abs(c.cu) >= cut)) return;
    var t = T.tags[c.tag - 1];
    dt.push({ node: node, tag: c.tag, fl: c.fl, cu: c.cu, val: c.val, name: t.name, unit: t.unit });
  });
  g.edges.forEach(function (e) { hasOut[e.from] = 1; });
  dt.sort(function (a, c) { return a.node - c.node || a.tag - c.tag; });
  for (var a = 0, e; a < dt.length; a = e) {
    var node = dt[a].node, flat = hasOut[node], nl = [];
    for (e = a; e < dt.length && dt[e].node === node; e++) if (!T.tags[dt[e].tag - 1].numeric) nl.push(dt[e]);
    pcolTagSort(nl, flat).slice(0, 4).forEach(function (lt, i2) {
      var w = flat ? lt.fl : lt.cu;
      if (w === 0) return;
      var t = T.tags[lt.tag - 1];
      out.push({ node: node, parent: 0, index: i2, numeric: 0, lines: t.lines, keys: t.keys, w: w, dotted: 0 });
      var at = out.length;
      pcolNumericBoxes(out, dt.slice(a, e).filter(function (x) { var y = T.tags[x.tag - 1]; return y.numeric && y.parent === lt.tag; }), flat, node, at);
    });
    pcolNumericBoxes(out, dt.slice(a, e).filter(function (x) { var y = T.tags[x.tag - 1]; return y.numeric && !y.parent; }), flat, node, 0);
  }
  return out;
}

/* The tag filter (the page's `tag` box, pcol --tag) that keeps the samples
 * of a string-label box: one label, KEY=^VALUE$; several, ^key:value$ for
 * each (every one matching some label's "key:value", --tag's RE[,RE] form).
 * Each anchored and escaped as the refine menu's (pcolRefineRegex); a
 * comma, where --tag splits, and in the RE form an '=', where it reads a
 * KEY, become '.' (any character).  box.lines are "key:value"; keyOf: the
 * key of line i (keys may hold ':'). */
/* A "bytes" box's tag focus: its value, or its bucket's min..max, as a
 * numeric range ("bytes=64bytes", "bytes=1280B:2048B"; filter.c reads it as
 * pprof -tagfocus) in the unit the filter reads the key's numbers in
 * (pcolLabelKeys: its first unit, whatever unit a label gives), so it keeps
 * exactly the labels of the box; null when that unit is not a word a range
 * can carry. */
export function pcolTagFocusRange(D, t) {
  var L = D.LB, kid = L ? L.keys.indexOf('bytes') + 1 : 0;
  var u = kid ? pcolLabelKeys(D).unit(kid) : '';
  if (!kid || !/^[A-Za-z]*$/.test(u)) return null;
  return 'bytes=' + t.lo + u + (t.lo === t.hi ? '' : ':' + t.hi + u);
}
export function pcolTagFocusText(lines, keys) {
  function rx(s) { return pcolRefineRegex(s).replace(/,/g, '.'); }
  if (lines.length === 1 && keys[0].indexOf('=') < 0 && keys[0].indexOf(',') < 0 && keys[0] !== '')
    return keys[0] + '=' + rx(lines[0].slice(keys[0].length + 1));
  return lines.map(function (l) { return rx(l).replace(/=/g, '.'); }).join(',');
}
