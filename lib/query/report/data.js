/* data.js — the page's data: the columns report.c embeds (a JSON object and
 * binary columns, base64), decoded into typed arrays.  No DOM: the node
 * tests (tests/report/) load it on the very bytes a page carries. */

/* D = pcolData(M, BIN): M the parsed JSON, BIN the decoded bytes (a
 * Uint8Array whose buffer starts at the first byte: columns are 8-aligned) */
function pcolData(M, BIN) {
  function col(c) { /* a column descriptor of report.c's col() -> a typed array */
    var n = c.n;
    switch (c.e) {
      case 'c': var a = new Float64Array(n); if (c.v) a.fill(c.v); return a;
      case 'u8': return new Uint8Array(BIN.buffer, c.o, n);
      case 'u16': return new Uint16Array(BIN.buffer, c.o, n);
      case 'u32': return new Uint32Array(BIN.buffer, c.o, n);
      case 'i32': return new Int32Array(BIN.buffer, c.o, n);
      case 'f64': return new Float64Array(BIN.buffer, c.o, n);
      case 'dv': { /* report.c: steps from the value before, zigzag, LEB128 */
        var T = { u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f64: Float64Array }[c.t], out = new T(n);
        var p = c.o, end = c.o + c.len, prev = 0;
        for (var i = 0; i < n; i++) {
          var z = 0, m = 1, b;
          do {
            if (p >= end) throw new Error('column ends early');
            b = BIN[p++]; z += (b & 0x7f) * m; m *= 128;
          } while (b & 0x80);
          prev += z % 2 ? -(z + 1) / 2 : z / 2;
          out[i] = prev;
        }
        return out;
      }
    }
    throw new Error('unknown column encoding ' + c.e);
  }
  var D = { M: M, col: col, N: M.n, NS: M.nstacks };
  D.SRC = col(M.cols.src); D.DUR = col(M.cols.dur); D.STK = col(M.cols.stack); D.WGT = col(M.cols.wgt);
  var TIME = D.TIME = new Float64Array(D.N); /* NaN = no time */
  var raw = col(M.cols.tdelta || M.cols.tabs), delta = !!M.cols.tdelta;
  M.sources.forEach(function (s) {
    for (var i = s.row0; i < s.row0 + s.na; i++) TIME[i] = NaN;
    var t = 0;
    for (i = s.row0 + s.na; i < s.row1; i++) {
      t = delta ? (i === s.row0 + s.na ? raw[i] : t + raw[i]) : raw[i];
      TIME[i] = t;
    }
  });
  var VALS = [];
  D.values = function (k) { return VALS[k] || (VALS[k] = col(M.cols['v' + k])); };
  D.SPAR = col(M.stacks.parent); D.SLOC = col(M.stacks.loc);
  D.FT = M.ftree; D.FTP = col(M.ftree.parent); D.FTN = col(M.ftree.name); D.FTS = col(M.ftree.stack);
  D.THR = M.threads ? col(M.threads.col) : null;
  /* the call graph's label tags (graph.js): each sample's label set, each set's tags */
  D.GT = M.gtags ? { ls: col(M.gtags.ls), off: col(M.gtags.off), tag: col(M.gtags.tag) } : null;
  D.KS = M.keysets.map(function (k) {
    return { by: k.by, unnamed: k.unnamed, nokey: k.nokey, names: k.names, rank: col(k.rank),
             koff: col(k.koff), keys: col(k.keys), inl: k.inl ? col(k.inl) : null };
  });
  D.LS = M.locstr ? { names: M.locstr.names, off: col(M.locstr.off), ids: col(M.locstr.ids) } : null;
  var NS = D.NS;
  D.KIDS = (function () { /* children of each stack node, CSR (parent 0 = roots) */
    var off = new Uint32Array(NS + 2), kids = new Uint32Array(NS + 1), pos;
    for (var n = 1; n <= NS; n++) off[D.SPAR[n - 1] + 1]++;
    for (n = 1; n <= NS + 1; n++) off[n] += off[n - 1];
    pos = off.slice(0, NS + 1);
    for (n = 1; n <= NS; n++) kids[pos[D.SPAR[n - 1]]++] = n;
    return { off: off, kids: kids };
  })();
  return D;
}
