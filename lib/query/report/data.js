/* data.js — the page's data: the columns report.c embeds (a JSON object and
 * binary columns, base64), decoded into typed arrays.  No DOM: the node
 * tests (tests/report/) load it on the very bytes a page carries. */

/* D = pcolData(M, BIN, BIN2, BIN3): M the parsed JSON, BIN the decoded
 * bytes (a Uint8Array whose buffer starts at the first byte: columns are
 * 8-aligned); BIN2 the second part's (columns marked "s":2: the values the
 * first drawing does not read), BIN3 the samples part's ("s":3: every
 * per-sample column), each the bytes or a function that makes them when a
 * column of it is read first (D.setPart2, D.setPart3 give them when they
 * were made apart).  The samples' columns (D.TIME, D.STK, D.DUR, D.WGT,
 * D.SRC, D.THR, D.GT.ls, D.LB.ls) are decoded when one of them is first
 * read (D.samples()): the first drawing reads the whole profile's weights
 * (D.SW0) instead. */
export function pcolData(M, BIN, BIN2, BIN3) {
  function part(c) {
    if (c.s === 3) {
      if (typeof BIN3 === 'function') BIN3 = BIN3();
      if (!BIN3) throw new Error('the page\'s data is damaged (no samples part)');
      return BIN3;
    }
    if (c.s !== 2) return BIN;
    if (typeof BIN2 === 'function') BIN2 = BIN2();
    if (!BIN2) throw new Error('the page\'s data is damaged (no second part)');
    return BIN2;
  }
  function col(c) { /* a column descriptor of report.c's col() -> a typed array */
    var n = c.n, BIN = c.e === 'c' ? null : part(c);
    switch (c.e) {
      case 'c': { /* one value: the narrowest array that holds it (a 10M-sample page has several) */
        var v = c.v || 0, a = new (v >= 0 && v < 256 && v === Math.floor(v) ? Uint8Array : v === (v | 0) ? Int32Array : Float64Array)(n);
        if (v) a.fill(v);
        return a;
      }
      case 'u8': return new Uint8Array(BIN.buffer, c.o, n);
      case 'u16': return new Uint16Array(BIN.buffer, c.o, n);
      case 'u32': return new Uint32Array(BIN.buffer, c.o, n);
      case 'i32': return new Int32Array(BIN.buffer, c.o, n);
      case 'f64': return new Float64Array(BIN.buffer, c.o, n);
      case 'dv': { /* report.c: steps from the value before, zigzag, LEB128 */
        var T = { u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f64: Float64Array }[c.t], out = new T(n);
        var p = c.o, end = c.o + c.len, prev = 0, z, m, b;
        if (end > BIN.length) throw new Error('column ends early');
        for (var i = 0; i < n; i++) {
          if (p >= end) throw new Error('column ends early');
          b = BIN[p++];
          if (b < 128) z = b; /* most steps are one byte */
          else {
            z = b & 0x7f; m = 128;
            do {
              if (p >= end) throw new Error('column ends early');
              b = BIN[p++]; z += (b & 0x7f) * m; m *= 128;
            } while (b & 0x80);
          }
          /* zigzag back: in 32-bit integers while the step fits, else exact in doubles */
          prev += z < 2147483648 ? (z >>> 1) ^ -(z & 1) : z % 2 ? -(z + 1) / 2 : z / 2;
          out[i] = prev;
        }
        return out;
      }
    }
    throw new Error('unknown column encoding ' + c.e);
  }
  /* names: {si: ids into M.strtab} back to arrays of strings (report.c's
   * names_of), the source pane's block names too */
  var TAB = M.strtab || [];
  (function resolve(o) {
    for (var key in o) {
      var x = o[key];
      if (!x || typeof x !== 'object' || key === 'blocks') continue;
      if (x.si) {
        var ids = col(x.si), out = new Array(ids.length);
        for (var i = 0; i < ids.length; i++) out[i] = ids[i] ? TAB[ids[i] - 1] : null;
        o[key] = out;
      } else if (!(x.e && x.n !== undefined)) resolve(x);
    }
  })(M);
  if (M.list) M.list.blocks.forEach(function (b) { if (typeof b[0] === 'number') b[0] = b[0] ? TAB[b[0] - 1] : null; });
  var D = { M: M, col: col, N: M.n, NS: M.nstacks };
  /* the other parts: given when inflated apart; loaded(k): value k can be read without making it here */
  D.setPart2 = function (b) { if (typeof BIN2 === 'function') BIN2 = b; };
  D.setPart3 = function (b) { if (typeof BIN3 === 'function') BIN3 = b; };
  D.loaded = function (k) {
    var c = M.cols['v' + k];
    return !c || (c.s === 2 ? typeof BIN2 !== 'function' : c.s === 3 ? typeof BIN3 !== 'function' : true);
  };
  /* the whole profile's weights of the default value per stack node, and
   * their total (report.c whole_weights): pcolStackWeights with no range,
   * no source and no tag filter */
  D.SW0 = M.sw0 ? { w: col(M.sw0), total: M.sw0_total } : null;
  var SCOLS = ['SRC', 'DUR', 'SPAN', 'STK', 'WGT', 'TIME', 'THR'], got = null;
  function setp(o, k, v) { Object.defineProperty(o, k, { value: v, writable: true, configurable: true, enumerable: true }); }
  D.hasSamples = function () { return !!got; };
  D.samples = function () { /* the per-sample columns, decoded once */
    if (got) return;
    var TIME = new Float64Array(D.N); /* NaN = no time */
    var raw = col(M.cols.tdelta || M.cols.tabs), delta = !!M.cols.tdelta;
    M.sources.forEach(function (s) {
      var a = s.row0 + s.na, i, t;
      for (i = s.row0; i < a; i++) TIME[i] = NaN;
      if (!delta) { for (i = a; i < s.row1; i++) TIME[i] = raw[i]; return; }
      if (a < s.row1) TIME[a] = t = raw[a]; /* each source's first time, then its steps */
      for (i = a + 1; i < s.row1; i++) TIME[i] = t += raw[i];
    });
    setp(D, 'TIME', TIME);
    /* per source: its timed rows in time order (then a range reads only
     * the rows it can reach: range.js pcolRangeRows), its longest duration
     * and its longest span on the stack chart (report.c spans) */
    var DURc = col(M.cols.dur), SPANc = col(M.cols.span);
    D.SI = M.sources.map(function (s) {
      var a = s.row0 + s.na, sorted = true, maxd = 0, maxspan = 0, i;
      for (i = a; i < s.row1; i++) {
        if (i > a && !(TIME[i] >= TIME[i - 1])) sorted = false;
        if (DURc[i] > maxd) maxd = DURc[i];
        if (SPANc[i] > maxspan) maxspan = SPANc[i];
      }
      return { sorted: sorted, maxd: maxd, maxspan: maxspan };
    });
    setp(D, 'SRC', col(M.cols.src)); setp(D, 'DUR', DURc); setp(D, 'SPAN', SPANc); setp(D, 'STK', col(M.cols.stack)); setp(D, 'WGT', col(M.cols.wgt));
    setp(D, 'THR', M.threads ? col(M.threads.col) : null);
    if (D.GT) setp(D.GT, 'ls', col(M.gtags.ls));
    if (D.LB) setp(D.LB, 'ls', M.labels.ls ? col(M.labels.ls) : D.GT ? D.GT.ls : null);
    got = true;
  };
  function lazy(o, k) { Object.defineProperty(o, k, { get: function () { D.samples(); return o[k]; }, configurable: true, enumerable: true }); }
  SCOLS.forEach(function (k) { lazy(D, k); });
  var VALS = [];
  D.values = function (k) { return VALS[k] || (VALS[k] = col(M.cols['v' + k])); };
  D.SPAR = col(M.stacks.parent); D.SLOC = col(M.stacks.loc);
  D.FT = M.ftree; D.FTP = col(M.ftree.parent); D.FTN = col(M.ftree.name); D.FTS = col(M.ftree.stack);
  /* hide/show (hide.js): each line's frame name, each line-less location's */
  D.FT.lname = col(M.ftree.lname); D.FT.aname = col(M.ftree.aname);
  /* the call graph's label tags (graphtags.js): each sample's label set (lazy: D.samples) */
  D.GT = M.gtags ? {} : null;
  if (D.GT) lazy(D.GT, 'ls');
  D.KS = M.keysets.map(function (k) {
    return { by: k.by, unnamed: k.unnamed, frames: k.frames || 0, nokey: k.nokey, names: k.names, rank: col(k.rank),
             koff: col(k.koff), keys: col(k.keys), inl: k.inl ? col(k.inl) : null,
             aoff: k.aoff ? col(k.aoff) : null, all: k.all ? col(k.all) : null, lkey: col(k.lkey), ukey: col(k.ukey) };
  });
  /* the tag filter's label sets (range.js pcolTagKeep): each sample's set
   * (gtags' column when the graph has it), each set's labels: key, string
   * value, and a numeric one's number and unit (the graph's label boxes) */
  D.LB = M.labels ? { keys: M.labels.keys, vals: M.labels.vals, off: col(M.labels.off), key: col(M.labels.key),
                      val: col(M.labels.val), units: M.labels.units || [], num: M.labels.num ? col(M.labels.num) : null,
                      unit: M.labels.unit ? col(M.labels.unit) : null } : null;
  if (D.LB) lazy(D.LB, 'ls');
  D.LS = M.locstr ? { names: M.locstr.names, off: col(M.locstr.off), ids: col(M.locstr.ids) } : null;
  /* hide/show (hide.js): each location's lines (line offsets capped at
   * the lines), each line's function, each function's name and file, each
   * location's mapping file (ids into D.LS.names) */
  var LL = M.locstr && M.locstr.lines;
  D.LL = LL ? { off: col(LL.off), fn: col(LL.fn), fname: col(LL.fname), ffile: col(LL.ffile), map: col(LL.map) } : null;
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

/* pcolInflate(src, n): the n bytes of a raw deflate stream (RFC 1951; the
 * page's columns, report.c deflates them with zlib), decoded as puff.c
 * does: canonical Huffman codes read a bit at a time.  Every length and
 * distance is checked: a bad stream throws, never reads or writes out of
 * bounds. */
var PCOL_LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
var PCOL_LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
var PCOL_DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
var PCOL_DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
export function pcolInflate(src, n) {
  var out = new Uint8Array(n), op = 0, sp = 0, buf = 0, cnt = 0;
  function fail(why) { throw new Error('the page\'s data is damaged (' + why + ')'); }
  function bits(k) {
    while (cnt < k) { if (sp >= src.length) fail('ends early'); buf |= src[sp++] << cnt; cnt += 8; }
    var v = buf & ((1 << k) - 1);
    buf >>>= k; cnt -= k;
    return v;
  }
  function table(lens, a, m) { /* {count[len], sym[]} of lens[a .. a + m) */
    var count = new Uint16Array(16), offs = new Uint16Array(16), sym = new Uint16Array(m), i;
    for (i = 0; i < m; i++) count[lens[a + i]]++;
    count[0] = 0;
    for (i = 1; i < 16; i++) offs[i] = offs[i - 1] + count[i - 1];
    for (i = 0; i < m; i++) if (lens[a + i]) sym[offs[lens[a + i]]++] = i;
    return { count: count, sym: sym };
  }
  function decode(t) {
    var code = 0, first = 0, index = 0;
    for (var len = 1; len < 16; len++) {
      code |= bits(1);
      var c = t.count[len];
      if (code - c < first) return t.sym[index + (code - first)];
      index += c; first += c; first <<= 1; code <<= 1;
    }
    return fail('bad code');
  }
  var fixed = null, last;
  do {
    last = bits(1);
    var type = bits(2), lt, dt, i;
    if (type === 0) { /* stored */
      buf = 0; cnt = 0;
      if (sp + 4 > src.length) fail('ends early');
      var len = src[sp] | src[sp + 1] << 8;
      if ((len ^ 0xffff) !== (src[sp + 2] | src[sp + 3] << 8)) fail('stored length');
      sp += 4;
      if (sp + len > src.length || op + len > n) fail('stored block too long');
      out.set(src.subarray(sp, sp + len), op); sp += len; op += len;
      continue;
    }
    if (type === 1) {
      if (!fixed) {
        var l = new Uint8Array(320);
        for (i = 0; i < 144; i++) l[i] = 8;
        for (; i < 256; i++) l[i] = 9;
        for (; i < 280; i++) l[i] = 7;
        for (; i < 288; i++) l[i] = 8;
        for (; i < 320; i++) l[i] = 5;
        fixed = [table(l, 0, 288), table(l, 288, 30)];
      }
      lt = fixed[0]; dt = fixed[1];
    } else if (type === 2) {
      var nlen = bits(5) + 257, ndist = bits(5) + 1, ncode = bits(4) + 4;
      if (nlen > 286 || ndist > 30) fail('counts');
      var ord = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15], cl = new Uint8Array(19);
      for (i = 0; i < ncode; i++) cl[ord[i]] = bits(3);
      var ct = table(cl, 0, 19), lens = new Uint8Array(nlen + ndist);
      for (i = 0; i < nlen + ndist;) {
        var sym = decode(ct), rep, v = 0;
        if (sym < 16) { lens[i++] = sym; continue; }
        if (sym === 16) { if (!i) fail('repeat'); v = lens[i - 1]; rep = 3 + bits(2); }
        else if (sym === 17) rep = 3 + bits(3);
        else rep = 11 + bits(7);
        if (i + rep > nlen + ndist) fail('lengths');
        while (rep--) lens[i++] = v;
      }
      lt = table(lens, 0, nlen); dt = table(lens, nlen, ndist);
    } else fail('block type');
    for (;;) {
      var s = decode(lt);
      if (s < 256) { if (op >= n) fail('too long'); out[op++] = s; continue; }
      if (s === 256) break;
      s -= 257;
      if (s >= 29) fail('length code');
      var ln = PCOL_LBASE[s] + bits(PCOL_LEXT[s]), ds = decode(dt);
      if (ds >= 30) fail('distance code');
      var dist = PCOL_DBASE[ds] + bits(PCOL_DEXT[ds]);
      if (dist > op) fail('distance');
      if (op + ln > n) fail('too long');
      for (var e = op + ln; op < e; op++) out[op] = out[op - dist];
    }
  } while (!last);
  if (op !== n) fail('length ' + op + ' of ' + n);
  return out;
}
/* base64 text to bytes, whitespace skipped: the engine's own decoder
 * (Uint8Array.fromBase64) when it has one, else one pass over the text
 * (no atob string, no copy without the line breaks) */
var PCOL_B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
export function pcolBase64(s) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(s);
  var T = new Int8Array(128).fill(-1), i, o = 0, acc = 0, nb = 0;
  for (i = 0; i < 64; i++) T[PCOL_B64.charCodeAt(i)] = i;
  var out = new Uint8Array(Math.ceil(s.length / 4) * 3);
  for (i = 0; i < s.length; i++) {
    var c = s.charCodeAt(i), v = c < 128 ? T[c] : -1;
    if (v < 0) {
      if (c === 61) break; /* '=': the end */
      if (c === 32 || c === 10 || c === 13 || c === 9 || c === 12) continue;
      throw new Error('the page\'s data is damaged (not base64)');
    }
    acc = (acc << 6 | v) & 0xffffff; nb += 6;
    if (nb >= 8) { nb -= 8; out[o++] = acc >> nb & 255; }
  }
  return out.subarray(0, o);
}
/* the page's binary columns (part2 true: the second part's, 3: the
 * samples part's): base64 text, deflated when M.bin_raw (M.bin2_raw,
 * M.bin3_raw) is set */
export function pcolBinary(M, bytes, part2) {
  var n = part2 === 3 ? M.bin3_raw : part2 ? M.bin2_raw : M.bin_raw;
  return n !== undefined ? pcolInflate(bytes, n) : bytes;
}
