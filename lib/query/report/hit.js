/* hit.js — the box under the pointer, for the hover, click and refine menu
 * of the stack chart and the flame graph: boxes {x, y, w} of one height h,
 * a row's boxes sharing their y, rows h or more apart (no two overlap).
 * A binary search of the rows by y, then of the row's boxes by x, not a
 * linear search of every box (the flame graph's was, at each mouse move).
 * The answer is a linear search's from the last box drawn: of the boxes
 * holding the point, the one drawn last.  Boxes of a row are side by side,
 * but a flame graph's children can pass their parent's end (children of
 * more weight than their parent: negative values; or a sum's rounding)
 * and so overlap the next frame's children: a row's reach (the furthest
 * right a box of the row up to there ends) bounds how far left the search
 * looks, so a row of boxes side by side costs one box more. */

/* the index of boxes (an array of {x, y, w}, in the order drawn): their
 * numbers sorted by row (y), then x, then the order drawn; the rows
 * [y, first, end] of that order; each one's reach */
export function pcolHitIndex(boxes) {
  var byRow = new Map(), ys = [], i;
  for (i = 0; i < boxes.length; i++) {
    var l = byRow.get(boxes[i].y);
    if (!l) { byRow.set(boxes[i].y, l = []); ys.push(boxes[i].y); }
    l.push(i);
  }
  ys.sort(function (a, b) { return a - b; });
  var ord = new Int32Array(boxes.length), reach = new Float64Array(boxes.length), rows = [], k = 0;
  ys.forEach(function (y) {
    var l = byRow.get(y), first = k;
    /* (drawn left to right, or right to left: a run the sort takes whole) */
    l.sort(function (a, b) { return boxes[a].x - boxes[b].x || a - b; });
    for (var j = 0; j < l.length; j++, k++) {
      var b = boxes[l[j]], e = b.x + b.w;
      ord[k] = l[j];
      reach[k] = j && reach[k - 1] > e ? reach[k - 1] : e;
    }
    rows.push([y, first, k]);
  });
  return { boxes: boxes, ord: ord, reach: reach, rows: rows };
}

/* the box at (x, y) in an index of boxes of height h: {i: its number in
 * the boxes, or -1; probes: the rows and boxes looked at} */
export function pcolHit(ix, h, x, y) {
  var R = ix.rows, B = ix.boxes, O = ix.ord, lo = 0, hi = R.length, probes = 0;
  while (lo < hi) { var m = (lo + hi) >> 1; probes++; if (R[m][0] <= y) lo = m + 1; else hi = m; } /* the last row at or above y */
  if (!lo || !(y < R[lo - 1][0] + h)) return { i: -1, probes: probes };
  var r = R[lo - 1], a = r[1], e = r[2];
  while (a < e) { var k = (a + e) >> 1; probes++; if (B[O[k]].x <= x) a = k + 1; else e = k; } /* the last box starting at or left of x */
  /* that box and, while one before it reaches past x, those: the last drawn holding x */
  var best = -1;
  for (var j = a - 1; j >= r[1] && ix.reach[j] > x; j--) {
    if (j < a - 1) probes++;
    if (x < B[O[j]].x + B[O[j]].w && O[j] > best) best = O[j];
  }
  return { i: best, probes: probes };
}
