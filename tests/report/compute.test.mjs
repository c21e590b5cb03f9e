// compute.test.mjs — the report page's computing modules (those of
// lib/query/report/modules.txt marked "compute", joined as the page joins
// them, tools/build/embed.sh) run in node on the data
// a real page carries (pcol report writes the fixture), against the CLI for
// the same selection: `pcol top` (whole profile and a range that cuts long
// samples), `pcol peek`, `pcol fold` (call tree, inverted tree) and
// `pcol diff --absolute`.  So the page's JavaScript and the library cannot
// drift apart.   node compute.test.mjs PCOL TMPDIR CASE.json...
//   CASE: {name, input, html, base?, boxes?, srcpath?, dropped?: {nf, want, only?}, only?: 'refine'}
import fs from 'node:fs';
import vm from 'node:vm';
import zlib from 'node:zlib';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// the computing modules as the page's script holds them, in one scope
const compute = execFileSync('sh', [path.join(here, '../../tools/build/embed.sh'), 'join',
  path.join(here, '../../lib/query/report/modules.txt'), 'compute'], { encoding: 'utf8' });
const loadCompute = (ctx) => vm.runInContext(compute, ctx, { filename: 'the computing modules' });
const [pcolBin, ...cases] = process.argv.slice(2);
let failures = 0, checks = 0;
const ok = (c, what) => { checks++; if (!c) { failures++; console.error('FAIL: ' + what); } };
// pcol's answers by command line: the cases share inputs (the demo's page and
// its --diff page are one profile), and each answer is read once (an ASan
// pcol costs 50-250 ms of CPU a run); a failed run is not kept
const answers = new Map();
const pcol = (args) => {
  const k = JSON.stringify(args);
  if (!answers.has(k)) answers.set(k, execFileSync(pcolBin, args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
  return answers.get(k);
};
const secs = (ns) => (ns < 0 ? '-' : '') + Math.floor(Math.abs(ns) / 1e9) + '.' + String(Math.abs(ns) % 1e9).padStart(9, '0');
// the CLI's "%.2f" of a share: "-0.00" for a small negative one (JSON.parse
// gives -0, which toFixed prints "0.00")
const pct = (x) => (Object.is(x, -0) ? '-' : '') + x.toFixed(2);
const ere = (s) => '^' + s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') + '$';

function load(html) {
  const meta = JSON.parse(/<script id="pcol-meta" type="application\/json">([\s\S]*?)<\/script>/.exec(html)[1]);
  const b = Buffer.from(/<script id="pcol-bin" type="text\/plain">([\s\S]*?)<\/script>/.exec(html)[1].replace(/\s+/g, ''), 'base64');
  const bin = new Uint8Array(b.length); bin.set(b); // own buffer: columns are 8-aligned from its start
  const ctx = vm.createContext({});
  loadCompute(ctx);
  ctx.M = meta; ctx.BIN = bin;
  // the page's own base64 decoder (head.js reads the text with it) against node's, line breaks and all
  {
    const text = /<script id="pcol-bin" type="text\/plain">([\s\S]*?)<\/script>/.exec(html)[1];
    ctx.TEXT = text;
    const mine = vm.runInContext('pcolBase64(TEXT)', ctx);
    ok(mine.length === b.length && Buffer.compare(b, Buffer.from(mine.buffer, mine.byteOffset, mine.length)) === 0, `${html.length}-byte page: pcolBase64 differs from node's base64`);
  }
  // the page's own inflate (data.js) against node's zlib on the same bytes
  const mine = vm.runInContext('BIN = pcolBinary(M, BIN); BIN', ctx);
  if (meta.bin_raw !== undefined) {
    const want = zlib.inflateRawSync(b);
    ok(want.length === mine.length && Buffer.compare(want, Buffer.from(mine.buffer, mine.byteOffset, mine.length)) === 0, `${html.length}-byte page: pcolInflate differs from zlib`);
  }
  // the second part (the values the first drawing does not read) and the
  // samples part (every per-sample column), each made when first read
  const later = (id, arg, raw, what) => {
    const p = new RegExp(`<script id="${id}" type="text/plain">([\\s\\S]*?)</script>`).exec(html);
    if (!p) return null;
    const b2 = Buffer.from(p[1].replace(/\s+/g, ''), 'base64'), bytes = new Uint8Array(b2.length);
    bytes.set(b2);
    const make = vm.runInContext(`(function (b) { return function () { return pcolBinary(M, b, ${arg}); }; })`, ctx)(bytes);
    if (raw !== undefined) {
      const want = zlib.inflateRawSync(b2), got = make();
      ok(Buffer.compare(want, Buffer.from(got.buffer, got.byteOffset, got.length)) === 0, `${html.length}-byte page: pcolInflate differs from zlib (${what})`);
    }
    return make;
  };
  ctx.BIN2 = later('pcol-bin2', 'true', meta.bin2_raw, 'second part');
  ctx.BIN3 = later('pcol-bin3', '3', meta.bin3_raw, 'samples part');
  vm.runInContext('var D = pcolData(M, BIN, BIN2, BIN3);', ctx);
  // the whole profile's weights report.c writes (D.SW0: the first drawing
  // reads them) against the page's own pass over every sample
  const sw0 = vm.runInContext(`(function () {
    if (!D.SW0) return null;
    var sel = { value: M.value, source: 0, range: null }, a = pcolStackWeights(D, sel), W0 = D.SW0;
    D.SW0 = null; var b = pcolStackWeights(D, sel); D.SW0 = W0;
    for (var n = 0; n < a.w.length; n++) if (a.w[n] !== b.w[n]) return 'node ' + n + ': ' + a.w[n] + ' vs ' + b.w[n];
    return a.w.length === b.w.length && a.total === b.total && b.total > 0 ? 'ok' : 'total ' + a.total + ' vs ' + b.total;
  })()`, ctx);
  ok(sw0 === 'ok', `${html.length}-byte page: the whole profile's weights (report.c sw0) differ from the samples' sum: ${sw0}`);
  return ctx;
}
const run = (ctx, src) => vm.runInContext(src, ctx);

// The call graph's label boxes (graphtags.js, issue 44 item 2) against
// `pcol graph --format dot`'s box3d nodes (checked against go tool pprof
// -dot by t_graph.sh): each box's id (its node, parent and place), its
// text, its weight in the graph's unit, and whether its edge is dotted;
// every value, the defaults, a node count, --tagshow and --taghide.
function boxes(c, ctx) {
  const keys = run(ctx, 'D.LB ? D.LB.keys : []'), nv = run(ctx, 'M.values.length');
  const tries = [[{}, []], [{ nodeCount: 12 }, ['--node-count', '12']]];
  for (const k of keys.slice(0, 2)) {
    tries.push([{ tagShow: ere(k) }, ['--tagshow', ere(k)]], [{ tagHide: ere(k) }, ['--taghide', ere(k)]]);
  }
  let n = 0;
  for (let vi = 0; vi < nv; vi++) for (const [o, a] of tries) {
    if (vi && a.length) continue;
    const value = run(ctx, `M.values[${vi}].cli`);
    const dot = pcol(['graph', c.input, '--format', 'dot', '--value', value, ...a]).split('\n');
    const want = [];
    for (const l of dot) {
      const m = /^(N+\d+(?:_\d+)+) \[label = "((?:[^"\\]|\\.)*)" id="[^"]*" fontsize=8 shape=box3d tooltip="((?:[^"\\]|\\.)*)"\]$/.exec(l);
      if (m) want.push([m[1], m[2], m[3], 0]);
      const e = /^N\d+(?:_\d+)? -> (N+\d+(?:_\d+)+) \[.*\]$/.exec(l);
      if (e) { const w = want.find((x) => x[0] === e[1]); if (w && / style="dotted"/.test(l)) w[3] = 1; }
    }
    const js = `(function () { var S = {value: ${vi}, source: 0, range: null}, o = ${JSON.stringify(o)};
      if (o.tagShow) o.tagShow = pcolGoRegExp(o.tagShow); if (o.tagHide) o.tagHide = pcolGoRegExp(o.tagHide);
      var G = pcolGraph(D, S, pcolStackWeights(D, S), pcolKeyset(D, S, 'function', true), o), un = M.values[${vi}].unit, u = pcolViewUnit(G.nodes, G.total, un);
      var esc = function (l) { return l.replace(/\\\\/g, '\\\\\\\\').replace(/"/g, '\\\\"'); };
      return G.tags.map(function (t) {
        var src = t.parent ? 'N' + (t.node + 1) + '_' + G.tags[t.parent - 1].index : 'N' + (t.node + 1);
        return [(t.numeric ? 'N' : '') + src + '_' + t.index, t.lines.map(esc).join('\\\\n'), pcolUnitLabel(t.w, un, u), t.dotted]; }); })()`;
    const page = run(ctx, js);
    const bad = want.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(page[i]));
    ok(want.length > 0 || vi || a.length, `${c.name}: pcol graph draws no label boxes (value ${value})`);
    ok(page.length === want.length && bad < 0, `${c.name}: label boxes (value ${value} ${a.join(' ')}): ${page.length} vs ${want.length}; first difference at ${bad}: ${JSON.stringify(page[bad])} vs ${JSON.stringify(want[bad])}`);
    n += want.length;
  }
  console.error(`compute: ${c.name}: ${n} label boxes equal to pcol graph's DOT`);
  // tag focus from a box (refine.js: a string box's pcolTagFocusText, a
  // "bytes" box's value or bucket as a range, pcolTagFocusRange) equals
  // pcol top --tag with its text
  const foc = run(ctx, `(function () { var S = {value: M.value, source: 0, range: null};
    var G = pcolGraph(D, S, pcolStackWeights(D, S), pcolKeyset(D, S, 'function', true), {}), seen = {};
    function uniq(x) { return x && !seen[x] ? (seen[x] = 1) : false; }
    return G.tags.filter(function (t) { return !t.numeric; }).map(function (t) { return pcolTagFocusText(t.lines, t.keys); })
      .filter(uniq).slice(0, 3).concat(G.tags.filter(function (t) { return t.numeric; }).map(function (t) { return pcolTagFocusRange(D, t); }).filter(uniq).slice(0, 4)); })()`);
  for (const tg of foc) {
    const want = JSON.parse(pcol(['top', c.input, '--format', 'json', '--value', run(ctx, 'M.values[M.value].cli'), '--tag', tg])).rows.map((x) => [x.name, x.flat, x.cum]);
    const page = run(ctx, `var S5 = {value: M.value, source: 0, range: null}; S5.lskeep = pcolTagKeep(D, ${JSON.stringify(tg)}, null);
      pcolTop(D, pcolStackWeights(D, S5), pcolKeyset(D, S5, 'function')).map(function (x) { return [x.name, x.flat, x.cum]; })`);
    ok(want.length > 0 && JSON.stringify(page) === JSON.stringify(want), `${c.name}: tag focus ${tg}: ${JSON.stringify(page.slice(0, 2))} vs ${JSON.stringify(want.slice(0, 2))}`);
  }
  console.error(`compute: ${c.name}: tag focus from ${foc.length} boxes equal to pcol top --tag: ${foc.join(' ; ')}`);
}

// --divide-by F (pprof's -divide_by) on the page (report.c M.divide_by, the
// "divide by" box: units.js pcolDivideBy, pcolUnitRatio, pcolValueText):
// each view's numbers as text against the CLI's text with --divide-by F,
// the shares those of the undivided numbers: the top table and its total
// (pcol top), the call graph's nodes and edges (pcol graph's DOT
// tooltips), callers/callees (pcol peek), the flame graph's tooltips
// (pcol flame's SVG), the source pane (pcol list), the diff table (pcol
// diff --absolute).  The page was made with --divide-by of the first F:
// its ratio is read from the page, the others' from the box's parse.
// (every value type of divide_all's case with the first F only, the
// default value with the others: the test's time)
function divided(c, ctx, values) {
  const un = (v) => run(ctx, `M.values[${v}].unit`);
  const first = run(ctx, 'M.divide_by === undefined ? null : M.divide_by');
  ok(first === +c.divide[0], `${c.name}: the page made with --divide-by ${c.divide[0]} carries divide_by ${first}`);
  const unq = (x) => x.replace(/\\(.)/g, '$1');
  let n = 0;
  for (const F of c.divide) for (const vi of F === c.divide[0] ? values : values.slice(0, 1)) {
    const value = run(ctx, `M.values[${vi}].cli`), D = ['--divide-by', F, '--value', value];
    run(ctx, `var RT = ${F === c.divide[0] ? '1 / M.divide_by' : 'pcolDivideBy(' + JSON.stringify(F) + ')'}, UN = M.values[${vi}].unit,
      SD = {value: ${vi}, source: 0, range: null}, SWD = pcolStackWeights(D, SD), KD2 = pcolKeyset(D, SD, 'function'), TD = pcolTop(D, SWD, KD2),
      UD = pcolViewUnit(TD, SWD.total, UN, RT), TX = function (v, u) { return pcolValueText(v, UN, u, RT); };`);
    const what = `${c.name} --divide-by ${F} --value ${value}`;
    // top: every row's flat, flat%, cum, cum%, and the total
    const txt = pcol(['top', c.input, '--node-fraction', '0', ...D]).split('\n'), h = txt.findIndex((l) => /^ +flat +flat% +sum% +cum +cum%/.test(l));
    const want = txt.slice(h + 1).filter((l) => l).map((l) => l.trim().split(/ +/).slice(0, 5).join(' '));
    const tot = /accounting for (\S+), .* of (\S+) total$/.exec(txt.find((l) => /^Showing nodes/.test(l)) || '');
    const page = run(ctx, `TD.map(function (x) { return [TX(x.flat, UD), pcolFmt2(x.fp) + '%', pcolFmt2(x.sp) + '%', TX(x.cum, UD), pcolFmt2(x.cp) + '%'].join(' '); })`)
      .map((l) => l.replace(/(^| )100\.00%/g, '$1100%').replace(/(^| )0\.00%/g, '$10%'));
    const ptot = run(ctx, 'TX(SWD.total, UD)');
    const bad = want.findIndex((x, i) => x.replace(/ -?0\.00%/g, ' 0%') !== (page[i] || '').replace(/ -?0\.00%/g, ' 0%') && !pctClose(x, page[i]));
    ok(tot && tot[2] === ptot && want.length === page.length && bad < 0, `${what}: top: total ${ptot} vs ${tot && tot[2]}; row ${bad}: ${page[bad]} vs ${want[bad]}`);
    // the call graph: each node's cum, each edge's weight, in the graph's unit
    const dot = pcol(['graph', c.input, '--format', 'dot', ...D]).split('\n');
    const gw = dot.map((l) => /^N\d+ \[.* tooltip="((?:[^"\\]|\\.)*)"/.exec(l) || /^N\d+ -> N\d+ \[.* tooltip="((?:[^"\\]|\\.)*)"/.exec(l)).filter((m) => m).map((m) => unq(m[1])).sort();
    const gp = run(ctx, `(function () { var G = pcolGraph(D, SD, SWD, KD2, {}), u = pcolViewUnit(G.nodes, G.total, UN, RT);
      return G.nodes.map(function (x) { return x.name + ' (' + TX(x.cum, u) + ')'; })
        .concat(G.edges.map(function (e) { return G.nodes[e.from].name + (e.res ? ' ... ' : ' -> ') + G.nodes[e.to].name + ' (' + TX(e.w, u) + ')'; })).sort(); })()`);
    const gbad = gw.findIndex((x, i) => x !== gp[i]);
    ok(gw.length > 0 && gw.length === gp.length && gbad < 0, `${what}: graph: ${gp[gbad]} vs pcol graph's ${gw[gbad]}`);
    // callers/callees of the heaviest plain function (pcol peek's unit: the top's)
    const fnk = run(ctx, `TD.filter(function (r) { return /^[A-Za-z0-9_.]+$/.test(r.name) && r.cum; }).sort(function (a, b) { return Math.abs(b.cum) - Math.abs(a.cum); }).slice(0, 1).map(function (r) { return [r.key, r.name]; })`);
    for (const [key, name] of fnk) {
      const blocks = pcol(['peek', c.input, ere(name), ...D]).split(/\n-+\+-+\n/);
      const blk = blocks.map((b) => b.split('\n').filter((l) => l)).find((b) => b.some((l) => / \| (\S+)$/.exec(l) && / \| (\S+)$/.exec(l)[1] === name && !/^ {20}/.test(l)));
      if (!blk) continue;
      const pw = blk.map((l) => l.replace(/ \(inline\)$/, '').trim().split(/ +/)).map((w) => w.length === 7 ? ['node', w[0], w[3], w[6]] : [w[0], w[1], w[3]]);
      const pp = run(ctx, `(function () { var p = pcolPeek(D, SWD, KD2, ${key}), r = TD.filter(function (x) { return x.key === ${key}; })[0], out = [];
        p.callers.forEach(function (c) { out.push([TX(c.w, UD), pcolFmt2(pcolPct(c.w, r.cum)) + '%', c.name]); });
        out.push(['node', TX(r.flat, UD), TX(r.cum, UD), r.name]);
        p.callees.forEach(function (c) { out.push([TX(c.w, UD), pcolFmt2(pcolPct(c.w, r.cum)) + '%', c.name]); });
        return out; })()`);
      // the values and names as printed; the shares (undivided) as numbers
      const srt = (a) => a.map((x) => x.length === 3 ? [x[0], x[2], x[1]] : x).sort((x, y) => JSON.stringify(x) < JSON.stringify(y) ? -1 : 1);
      const a = srt(pw), b = srt(pp);
      const same = a.length === b.length && a.every((x, i) => x.length === b[i].length && x.every((y, j) => y === b[i][j] || (/%$/.test(y) && Math.abs(parseFloat(y) - parseFloat(b[i][j])) < 0.0051)));
      ok(same, `${what}: peek ${name}: ${JSON.stringify(b.slice(0, 3))} vs pcol peek's ${JSON.stringify(a.slice(0, 3))}`);
      n++;
    }
    // the flame graph's tooltips in full (units.js pcolFlameInfo, what
    // flame.js shows): "name (value alone in its unit, share%)" of each
    // frame pcol flame draws, the shares of the sum of |value| (undivided);
    // on a --diff page also "; base B%, change +C points" against pcol
    // flame --diff BASE
    const svg = path.join(path.dirname(c.html), `${c.name}-flame.svg`);
    const dshare = c.base ? run(ctx, `!!(M.diff && M.diff.shares[${vi}])`) : false;
    pcol(['flame', c.input, '-o', svg, ...(dshare ? ['--diff', c.base] : []), ...D]);
    const fw = [...fs.readFileSync(svg, 'utf8').matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&'));
    const fp = new Set(run(ctx, `(function () { var S2 = pcolFtreeSums(D, SWD), KD = pcolFtreeKids(D), B = ${dshare} ? D.col(M.diff.shares[${vi}]) : null;
      var info = function (name, n) { return pcolFlameInfo(name, S2.total[n], UN, RT, false, pcolPct(S2.total[n], S2.totalAbs), B ? B[n] : null); };
      var o = [info('all', 0)];
      (function walk(n) { pcolTreeChildren(D, KD, S2, n).forEach(function (c) { o.push(info(c.name, c.n)); walk(c.n); }); })(0);
      return o; })()`));
    const fbad = fw.filter((t) => !fp.has(t));
    ok(fw.length > 1 && fbad.length === 0, `${what}: flame: ${fbad.length} of pcol flame's ${fw.length} tooltips not the page's: ${fbad.slice(0, 3)} (the page's: ${[...fp].slice(0, 3)})`);
    n += 3;
  }
  // the source pane (pcol list: each number in its own unit, "." for 0)
  if (c.srcpath) for (const F of c.divide) {
    const cli = pcol(['list', c.input, '.', '--source-path', c.srcpath, '--divide-by', F]).split('\n')
      .map((l) => /^ *(\S+) +(\S+) +(\d+):/.exec(l)).filter((m) => m).map((m) => m.slice(1, 4).join(' '));
    const page = run(ctx, `(function () { var RT = ${F === c.divide[0] ? '1 / M.divide_by' : 'pcolDivideBy(' + JSON.stringify(F) + ')'}, S8 = {value: M.value, source: 0, range: null}, LR = new Map(), out = [], un = M.values[M.value].unit;
      pcolTop(D, pcolStackWeights(D, S8), pcolKeyset(D, S8, 'line')).forEach(function (x) { LR.set(x.name, x); });
      M.list.blocks.forEach(function (b) {
        if (b[1] < 0 || b[2] >= 0) return;
        var key = b[5] >= 0 ? M.list.strs[b[5]] : M.list.strs[b[1]], pre = b[0] + ' ' + key + ':';
        b[3].forEach(function (l) { var x = LR.get(pre + l[0]), f = x ? x.flat : 0, cu = x ? x.cum : 0;
          out.push((f ? pcolValueText(f, un, 'auto', RT) : '.') + ' ' + (cu ? pcolValueText(cu, un, 'auto', RT) : '.') + ' ' + l[0]); });
      });
      return out; })()`);
    ok(cli.length > 0 && JSON.stringify(cli) === JSON.stringify(page), `${c.name} --divide-by ${F}: source lines ${page.slice(0, 4)} vs pcol list's ${cli.slice(0, 4)}`);
    n++;
  }
  // the diff table (pcol diff --absolute: its unit from both totals and every cell, divided;
  // every row, as the page shows them all: --node-fraction 0)
  if (c.base) for (const F of c.divide) {
    const txt = pcol(['diff', c.base, c.input, '--absolute', '--node-fraction', '0', '--divide-by', F]).split('\n'), h = txt.findIndex((l) => /^ *base_flat/.test(l));
    const wt = txt.slice(h + 1).filter((l) => l).map((l) => { const x = l.trim().split(/ +/); return JSON.stringify([x.slice(6).join(' ').replace(/ \((partial-)?inline\)$/, '')].concat(x.slice(0, 6))); });
    const pt = run(ctx, `(function () { var RT = ${F === c.divide[0] ? '1 / M.divide_by' : 'pcolDivideBy(' + JSON.stringify(F) + ')'}, S8 = {value: M.value, source: 0, range: null}, SW8 = pcolStackWeights(D, S8),
        BT = M.diff.top[M.value], R = pcolDiffRows(pcolTop(D, SW8, pcolKeyset(D, S8, 'function')), BT.function), un = M.values[M.value].unit,
        u = pcolDiffUnit(R, BT.function.total, SW8.total, un, RT), L = function (x, sg) { return (sg && x > 0 ? '+' : '') + pcolValueText(x, un, u, RT); };
      return R.map(function (r) { return JSON.stringify([r.name, L(r.bflat), L(r.flat), L(r.dflat, 1), L(r.bcum), L(r.cum), L(r.dcum, 1)]); }); })()`);
    const key = (a) => a.slice().sort().join('\n');
    ok(h >= 0 && wt.length > 0 && key(pt) === key(wt), `${c.name} --divide-by ${F}: the diff table (${wt.length} rows, want some) differs from pcol diff --absolute --divide-by's text: ${pt.slice(0, 2)} vs ${wt.slice(0, 2)}`);
    n++;
  }
  console.error(`compute: ${c.name}: --divide-by ${c.divide.join(', ')}: ${n} views' numbers equal to the CLI's text`);
}
// a share as pcol top prints it ("%5.2f%%", "%5.2g%%" under 1%) and as the
// page's table does (pcolFmt2): the same number, printed two ways
function pctClose(a, b) {
  if (!a || !b) return false;
  const x = a.split(' '), y = b.split(' ');
  // pcol top prints |share| ("%5.2f%%"; "%5.2g%%" under 1 %; "100%" from 99.95 to 100.05)
  const near = (w, v) => { const p = parseFloat(w), q = Math.abs(parseFloat(v)); return w === '100%' ? Math.abs(q - 100) <= 0.05 : Math.abs(p - q) < 0.0051; };
  return x.length === y.length && x.every((w, i) => w === y[i] || (/%$/.test(w) && /%$/.test(y[i]) && near(w, y[i])));
}

// the refine menu's expressions (a block of each case; alone for c.only === 'refine')
function refineCheck(c, ctx, value, sel) {
  // the refine menu (issue 44 item 8): focus, ignore, hide and show on a
  // function picked in a view, by the expression the page writes into the
  // filter's box (range.js pcolRefineRegex/pcolRefineText), read by the page
  // as JavaScript and by pcol top as POSIX ERE: the same rows.  Names with
  // the characters either reads specially ("[.data.frame", "(*T).M", "%in%",
  // "<Anonymous>"), control characters (a newline, ESC, U+202E) and one added to another (ignore A, then B: "A|B")
  {
    const names = run(ctx, `pcolTop(D, pcolStackWeights(D, ${sel()}), pcolKeyset(D, ${sel()}, 'function')).map(function (r) { return r.name; })`);
    const odd = [...'[(<%+$*?{|^\n\x1b\u202e'].map((ch) => names.find((n) => n.includes(ch))).filter((n) => n !== undefined);
    const pickN = [...new Set([...odd.slice(0, 3), names[0], names[names.length - 1]])].filter((n) => n !== undefined);
    const sets = names.length > 1000 ? pickN.slice(0, 2) : pickN;
    let n = 0;
    for (const name of sets) for (const kind of ['focus', 'ignore', 'hide', 'show']) {
      const re = run(ctx, `pcolRefineText(${JSON.stringify(kind)}, '', ${JSON.stringify(name)})`);
      // it goes into a text box, which drops \n and \r and hides other controls (review 22 F13)
      ok(!/[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]/.test(re), `${c.name}: refine ${kind} ${JSON.stringify(name)}: ${JSON.stringify(re)} holds a control character`);
      const cli = JSON.parse(pcol(['top', c.input, '--format', 'json', '--value', value, '--' + kind, re]));
      const page = run(ctx, `(function () { var R = pcolGoRegExp(${JSON.stringify(re)}), k = ${JSON.stringify(kind)},
          DR = k === 'hide' ? pcolHidden(D, R, null) : k === 'show' ? pcolHidden(D, null, R) : D, S5 = ${sel()};
        S5.drop = pcolFilterDrop(DR, k === 'focus' ? R : null, k === 'ignore' ? R : null);
        return pcolTop(DR, pcolStackWeights(DR, S5), pcolKeyset(DR, S5, 'function')).map(function (x) { return [x.name, x.flat, x.cum, pcolFmt2(x.fp), pcolFmt2(x.cp)]; }); })()`);
      const want = cli.rows.map((x) => [x.name, x.flat, x.cum, pct(x.flat_pct), pct(x.cum_pct)]);
      ok(JSON.stringify(page) === JSON.stringify(want) && (kind !== 'focus' || page.some((x) => x[0] === name)),
        `${c.name}: refine ${kind} ${name} (${re}): ${JSON.stringify(page.slice(0, 3))} vs pcol top --${kind}: ${JSON.stringify(want.slice(0, 3))}`);
      n++;
    }
    if (sets.length > 1) { // ignore one, then another: both
      const re = run(ctx, `pcolRefineText('ignore', pcolRefineText('ignore', '', ${JSON.stringify(sets[0])}), ${JSON.stringify(sets[1])})`);
      const cli = JSON.parse(pcol(['top', c.input, '--format', 'json', '--value', value, '--ignore', re]));
      const page = run(ctx, `(function () { var S5 = ${sel()}; S5.drop = pcolFilterDrop(D, null, pcolGoRegExp(${JSON.stringify(re)}));
        return pcolTop(D, pcolStackWeights(D, S5), pcolKeyset(D, S5, 'function')).map(function (x) { return [x.name, x.flat, x.cum]; }); })()`);
      ok(JSON.stringify(page) === JSON.stringify(cli.rows.map((x) => [x.name, x.flat, x.cum])) && !page.some((x) => x[0] === sets[0] || x[0] === sets[1]),
        `${c.name}: refine ignore ${sets[0]} then ${sets[1]} (${re}) differs from pcol top --ignore`);
      n++;
    }
    console.error(`compute: ${c.name}: refine: ${n} transforms on ${JSON.stringify(sets)} equal to pcol top --focus/--ignore/--hide/--show`);
  }
}

for (const file of cases) {
  const c = JSON.parse(fs.readFileSync(file, 'utf8'));
  const ctx = load(fs.readFileSync(c.html, 'utf8'));
  if (c.boxes) boxes(c, ctx);
  if (c.divide) divided(c, ctx, c.divide_all ? run(ctx, 'M.values.map(function (v, i) { return v.level || i === M.value ? -1 : i; }).filter(function (i) { return i >= 0; })').concat([run(ctx, 'M.value')]).reverse() : [run(ctx, 'M.value')]);
  if (c.boxes === 'only') continue;
  // the call graph's note when a node fraction leaves no node (graphview.js:
  // its unit, units.js pcolViewUnit, as the page words it) against the
  // "Dropped" line the case brings (go tool pprof -dot's: t_pprof_semantics.sh)
  if (c.dropped) {
    const got = run(ctx, `(function () { var S = {value: M.value, source: 0, range: null},
      G = pcolGraph(D, S, pcolStackWeights(D, S), pcolKeyset(D, S, 'function', true), {nodeFraction: ${+c.dropped.nf}}),
      un = M.values[M.value].unit, u = pcolViewUnit(G.nodes, G.total, un);
      return G.nodes.length + ' nodes; Dropped ' + G.droppedNodes + ' nodes (cum <= ' + pcolUnitLabel(G.nodeCutoff, un, u) + ')'; })()`);
    ok(got === '0 nodes; ' + c.dropped.want, `${c.name}: the call graph's note with node fraction ${c.dropped.nf}: ${got}, pprof: ${c.dropped.want}`);
    if (c.dropped.only) continue;
  }
  const value = run(ctx, 'M.values[M.value].cli');
  // pcol fold prints a decimal unit's ("1e-D U") value, the page sums the
  // stored integer, value x 10^D: fold's numbers read back exactly
  const fdm = /^1e-([1-9])(?:$| )/.exec(run(ctx, 'M.values[M.value].unit') || ''), fdec = fdm ? +fdm[1] : 0;
  const foldNum = (x) => {
    if (!fdec) return +x;
    const neg = x[0] === '-', [ip, fp = ''] = (neg ? x.slice(1) : x).split('.');
    const r = +(ip + (fp + '0'.repeat(fdec)).slice(0, fdec));
    return neg ? -r : r;
  };
  // a range over a file with untimed sources: the first timed source (as --source)
  const rsrc = run(ctx, 'M.sources.some(function (s) { return !s.timed; }) ? (M.sources.filter(function (s) { return s.timed; })[0] || {id: 0}).id : 0');
  const sel = (range) => JSON.stringify({ value: run(ctx, 'M.value'), source: range ? rsrc : 0, range: range || null });
  if (c.only === 'refine') { refineCheck(c, ctx, value, sel); continue; } // (names the other views print otherwise: fold's '_' for '\n', DOT's escapes)
  // top, whole profile and a range
  const ranges = [null];
  const longs = run(ctx, 'var a = []; for (var i = 0; i < D.N; i++) if (D.DUR[i] > 0 && D.TIME[i] === D.TIME[i]) a.push([D.TIME[i], D.DUR[i]]); a');
  if (longs.length) { const [t, d] = longs.sort((x, y) => y[1] - x[1])[0]; ranges.push([t + Math.floor(d / 3), t + d + Math.floor(d / 2)]); }
  else if (run(ctx, 'M.sources.some(function (s) { return s.timed; })')) {
    const t0 = run(ctx, 'M.sources[0].t0'), t1 = run(ctx, 'M.sources[0].t1');
    ranges.push([t0 + Math.floor((t1 - t0) / 4), t0 + Math.floor((t1 - t0) / 2)]);
  }
  for (const by of ['function', 'line']) for (const r of ranges) {
    const args = ['top', c.input, '--format', 'json', '--value', value, '--by', by];
    if (r) args.push('--from', secs(r[0]), '--to', secs(r[1]));
    if (r && rsrc) args.push('--source', String(rsrc));
    const cli = JSON.parse(pcol(args));
    const page = run(ctx, `var SW = pcolStackWeights(D, ${sel(r)}); pcolTop(D, SW, pcolKeyset(D, ${sel(r)}, '${by}'))
      .map(function (x) { return [x.name, x.flat, x.cum, pcolFmt2(x.fp), pcolFmt2(x.cp), pcolInlineText(x.inl)]; })`);
    const want = cli.rows.map((x) => [x.name, x.flat, x.cum, pct(x.flat_pct), pct(x.cum_pct), x.inline || '']);
    ok(JSON.stringify(page) === JSON.stringify(want), `${c.name}: top --by ${by} ${r ? 'range ' + r : 'whole'}: ${JSON.stringify(page.slice(0, 3))} vs ${JSON.stringify(want.slice(0, 3))}`);
    console.error(`compute: ${c.name}: top --by ${by} ${r ? 'range' : 'whole'}: ${want.length} rows`);
  }
  // the units (issue 44 item 4): the table's numbers as text, one unit for
  // the table picked by the CLI's rule (units.js pcolViewUnit, units.c
  // pcol_unit_pick), against pcol top's text with every row (the page shows
  // every row): whole profile and a range; and the total
  for (const r of ranges) {
    const args = ['top', c.input, '--node-fraction', '0', '--value', value];
    if (r) args.push('--from', secs(r[0]), '--to', secs(r[1]));
    if (r && rsrc) args.push('--source', String(rsrc));
    const txt = pcol(args).split('\n'), h = txt.findIndex((l) => /^ +flat +flat% +sum% +cum +cum%/.test(l));
    const want = txt.slice(h + 1).filter((l) => l).map((l) => { const w = l.trim().split(/ +/); return [w[0], w[3]]; });
    const tot = /of (\S+) total$/.exec(txt.find((l) => /^Showing nodes/.test(l)) || '');
    const page = run(ctx, `(function () { var S8 = ${sel(r)}, SW8 = pcolStackWeights(D, S8), T8 = pcolTop(D, SW8, pcolKeyset(D, S8, 'function')),
        un = M.values[M.value].unit, u = pcolViewUnit(T8, SW8.total, un);
      return { tot: pcolUnitLabel(SW8.total, un, u), rows: T8.map(function (x) { return [pcolUnitLabel(x.flat, un, u), pcolUnitLabel(x.cum, un, u)]; }) }; })()`);
    const bad = want.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(page.rows[i]));
    ok(want.length === page.rows.length && bad < 0 && tot && tot[1] === page.tot,
      `${c.name}: top ${r ? 'range' : 'whole'}: the page's units differ from pcol top's text: total ${page.tot} vs ${tot && tot[1]}; row ${bad}: ${JSON.stringify(page.rows[bad])} vs ${JSON.stringify(want[bad])}`);
    console.error(`compute: ${c.name}: top ${r ? 'range' : 'whole'}: ${want.length} rows in pcol top's units (${page.rows[0] ? page.rows[0].join(' ') : ''})`);
  }
  // the table's header sorts (pcolTopSort) against pcol top --sort: the
  // order on ties and sum% in that order (a profile with negative values
  // ties on |cum| with other |flat|)
  for (const srt of ['flat', 'cum', 'name']) {
    const cli = JSON.parse(pcol(['top', c.input, '--format', 'json', '--value', value, '--sort', srt]));
    const page = run(ctx, `var S9 = ${sel()}, SW9 = pcolStackWeights(D, S9); pcolTopSort(pcolTop(D, SW9, pcolKeyset(D, S9, 'function')), '${srt === 'flat' ? 'order' : srt}', SW9.total)
      .map(function (x) { return [x.name, x.flat, x.cum, pcolFmt2(x.sp)]; })`);
    const want = cli.rows.map((x) => [x.name, x.flat, x.cum, pct(x.sum_pct)]);
    const bad = want.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(page[i]));
    ok(page.length === want.length && bad < 0, `${c.name}: table sorted by ${srt}: first difference at row ${bad}: ${JSON.stringify(page[bad])} vs pcol top --sort ${srt} ${JSON.stringify(want[bad])}`);
  }
  // focus and ignore (filter.c's rule) on names the profile has
  {
    const rows = run(ctx, `pcolTop(D, pcolStackWeights(D, ${sel()}), pcolKeyset(D, ${sel()}, 'function')).map(function (r) { return r.name; })`);
    const plain = rows.filter((n) => /^[A-Za-z0-9_.:]+$/.test(n));
    const tries = [];
    if (plain.length > 2) tries.push([plain[1], null], [null, plain[0]], [plain[2], plain[0]]);
    if (c.name === 'go-inline') tries.push(['runtime', null], [null, 'mapiter|go$']); // a mapping (binary) name matches too
    for (const [fo, ig] of tries) {
      const args = ['top', c.input, '--format', 'json', '--value', value];
      if (fo) args.push('--focus', fo);
      if (ig) args.push('--ignore', ig);
      const cli = JSON.parse(pcol(args));
      const page = run(ctx, `var S3 = ${sel()}; S3.drop = pcolFilterDrop(D, ${fo ? 'pcolGoRegExp(' + JSON.stringify(fo) + ')' : 'null'}, ${ig ? 'pcolGoRegExp(' + JSON.stringify(ig) + ')' : 'null'});
        pcolTop(D, pcolStackWeights(D, S3), pcolKeyset(D, S3, 'function')).map(function (x) { return [x.name, x.flat, x.cum, pcolFmt2(x.fp), pcolFmt2(x.cp), pcolInlineText(x.inl)]; })`);
      const want = cli.rows.map((x) => [x.name, x.flat, x.cum, pct(x.flat_pct), pct(x.cum_pct), x.inline || '']);
      ok(JSON.stringify(page) === JSON.stringify(want), `${c.name}: top --focus ${fo} --ignore ${ig}: ${JSON.stringify(page.slice(0, 3))} vs ${JSON.stringify(want.slice(0, 3))}`);
    }
    console.error(`compute: ${c.name}: ${tries.length} focus/ignore filters equal to pcol top`);
  }
  refineCheck(c, ctx, value, sel);
  // hide and show (filter.c's per-line rule, pprof -hide/-show): the keys
  // and the frame tree rebuilt from the frames left (hide.js), against
  // pcol top (by function and line), pcol fold, pcol graph and pcol peek
  // with the same --hide/--show, alone and with a focus
  {
    // nothing hidden gives back the embedded keys and the frame tree
    const same = run(ctx, `(function () {
      var none = { lh: new Uint8Array(D.LL.fn.length), loch: new Uint8Array(D.LL.off.length) }, bad = [];
      D.KS.forEach(function (k, i) {
        var h = pcolKeysetHidden(D, k, none); pcolGraphLocKeys(k);
        var eq = function (a, b) { return a.length === b.length && a.every(function (x, j) { return x === b[j]; }); };
        if (!eq(Array.from(h.koff), Array.from(k.koff)) || !eq(Array.from(h.keys), Array.from(k.keys))) bad.push('keys of set ' + i);
        var gk = Array.from(k.gK).map(function (x, j) { return x + (k.gI[j] ? 0x80000000 : 0); });
        if (!eq(Array.from(h.aoff), Array.from(k.gA)) || !eq(Array.from(h.all), gk)) bad.push('all keys of set ' + i);
      });
      var t = pcolFtreeHidden(D, none);
      if (t.FT.n !== D.FT.n) bad.push('tree: ' + t.FT.n + ' nodes vs ' + D.FT.n);
      else for (var n = 0; n < D.FT.n; n++) if (t.FTP[n] !== D.FTP[n] || t.FTN[n] !== D.FTN[n]) { bad.push('tree node ' + n); break; }
      for (var s = 0; s <= D.NS && !bad.length; s++) if (t.FTS[s] !== D.FTS[s]) bad.push('stack node ' + s);
      return bad; })()`);
    ok(same.length === 0, `${c.name}: hide.js with nothing hidden differs from the embedded keys/tree: ${same.slice(0, 3)}`);
    const names = run(ctx, `pcolTop(D, pcolStackWeights(D, ${sel()}), pcolKeyset(D, ${sel()}, 'function')).map(function (r) { return r.name; })`);
    const plain = names.filter((n) => /^[A-Za-z0-9_.:]+$/.test(n));
    const tries = [];
    if (plain.length > 3) tries.push([plain[0], null, null], [plain[2], null, null], [null, plain[1] + '|' + plain[3], null], [plain[1], null, plain[1]]);
    else if (plain.length > 1) tries.push([plain[0], null, null], [null, plain[1], null], [plain[1], null, plain[1]]); // a few functions
    const files = run(ctx, `(function () { var o = {}; for (var f = 0; f < D.LL.ffile.length; f++) { var s = D.LS.names[D.LL.ffile[f] - 1]; if (s) o[s] = 1; } return Object.keys(o); })()`);
    const dirs = [...new Set(files.map((f) => f.replace(/[^/]*$/, '')).filter((d) => /^[A-Za-z0-9_./-]+$/.test(d) && d.length > 1))];
    if (dirs.length) tries.push([null, dirs[0].replace(/\./g, '\\.'), null]); // show by file
    if (c.name === 'go-inline') tries.push(['^runtime\\.', null, null], [null, '^main\\.', null], ['go$', null, null] /* the mapping */, ['mapiter', 'runtime', null]);
    if (c.name === 'demo' || c.name === 'rprof-memory') tries.push([null, '^zzz_nothing$', null]);
    const fold2tree = (txt) => {
      const t = {};
      for (const l of txt.split('\n').filter((x) => x)) {
        const sp = l.lastIndexOf(' '), p = l.slice(0, sp).split(';');
        for (let i = 1; i <= p.length; i++) { const k = p.slice(0, i).join('\u0001'); t[k] = (t[k] || 0) + foldNum(l.slice(sp + 1)); }
      }
      return t;
    };
    // a big profile (thousands of functions) gets two: the test stays fast
    if (names.length > 1000) tries.splice(2);
    for (const [hd, sh, fo] of tries) {
      const args = [];
      if (hd) args.push('--hide', hd);
      if (sh) args.push('--show', sh);
      if (fo) args.push('--focus', fo);
      const re = (x) => x ? 'pcolGoRegExp(' + JSON.stringify(x) + ')' : 'null';
      const what = `${c.name}: --hide ${hd} --show ${sh}${fo ? ' --focus ' + fo : ''}`;
      run(ctx, `var DH = pcolHidden(D, ${re(hd)}, ${re(sh)}), SH = ${sel()}; SH.drop = pcolFilterDrop(DH, ${re(fo)}, null); var SWH = pcolStackWeights(DH, SH);`);
      for (const by of ['function', 'line']) {
        const cli = JSON.parse(pcol(['top', c.input, '--format', 'json', '--value', value, '--by', by, ...args]));
        const page = run(ctx, `pcolTop(DH, SWH, pcolKeyset(DH, SH, '${by}')).map(function (x) { return [x.name, x.flat, x.cum, pcolFmt2(x.fp), pcolFmt2(x.cp), pcolInlineText(x.inl)]; })`);
        const want = cli.rows.map((x) => [x.name, x.flat, x.cum, pct(x.flat_pct), pct(x.cum_pct), x.inline || '']);
        ok(JSON.stringify(page) === JSON.stringify(want), `${what}: top --by ${by}: ${JSON.stringify(page.slice(0, 3))} vs ${JSON.stringify(want.slice(0, 3))}`);
      }
      const ft = fold2tree(pcol(['fold', c.input, '--value', value, ...args]));
      const gt = run(ctx, `var S7 = pcolFtreeSums(DH, SWH), KD7 = pcolFtreeKids(DH), o7 = {};
        (function walk(n, pre) { pcolTreeChildren(DH, KD7, S7, n).forEach(function (c) { var k = pre ? pre + '\\u0001' + c.name : c.name; o7[k] = (o7[k] || 0) + c.w; walk(c.n, k); }); })(0, ''); o7`);
      const bad = Object.keys(ft).filter((k) => ft[k] !== 0 && gt[k] !== ft[k]).concat(Object.keys(gt).filter((k) => !(k in ft)));
      ok(bad.length === 0, `${what}: call tree differs from pcol fold at ${bad.slice(0, 3).map((k) => k.replace(/\u0001/g, ';') + ': ' + gt[k] + ' vs ' + ft[k])}`);
      const gcli = JSON.parse(pcol(['graph', c.input, '--format', 'json', '--value', value, '--node-count', '30', ...args]));
      const gwant = gcli.rows.map((x) => x.kind === 'node' ? ['N', x.name, x.flat, x.cum, x.inline] : ['E', x.from, x.to, x.weight, x.inline, x.residual]);
      const gpage = run(ctx, `var G7 = pcolGraph(DH, SH, SWH, pcolKeyset(DH, SH, 'function', true), { nodeCount: 30 });
        G7.nodes.map(function (n) { return ['N', n.name, n.flat, n.cum, pcolInlineText(n.inl)]; })
          .concat(G7.edges.map(function (e) { return ['E', G7.nodes[e.from].name, G7.nodes[e.to].name, e.w, !!e.inl, !!e.res]; }))`);
      const gi = gwant.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(gpage[i]));
      ok(gpage.length === gwant.length && gi < 0, `${what}: graph: ${gpage.length} vs ${gwant.length} rows; first difference at ${gi}: ${JSON.stringify(gpage[gi])} vs ${JSON.stringify(gwant[gi])}`);
      // peek at the heaviest function left
      const top1 = run(ctx, `var KH = pcolKeyset(DH, SH, 'function'); pcolTop(DH, SWH, KH).filter(function (r) { return /^[\x20-\x7e]*$/.test(r.name); }).slice(0, 1).map(function (r) { return [r.key, r.name]; })`);
      for (const [key, name] of top1) {
        const pc = JSON.parse(pcol(['peek', c.input, ere(name), '--format', 'json', '--value', value, ...args]));
        const mine = pc.rows.filter((x) => x.node === name);
        if (mine.filter((x) => x.relation === 'node').length !== 1) continue;
        const p = run(ctx, `pcolPeek(DH, SWH, KH, ${key})`);
        const side = (rel) => mine.filter((x) => x.relation === rel).map((x) => x.name + '=' + x.value).sort().join(',');
        const pside = (l) => l.map((x) => x.name + '=' + x.w).sort().join(',');
        ok(pside(p.callers) === side('caller') && pside(p.callees) === side('callee'), `${what}: peek ${name}: ${pside(p.callers)} / ${pside(p.callees)} vs ${side('caller')} / ${side('callee')}`);
      }
    }
    ok(tries.length > 0, `${c.name}: no hide/show to try`);
    console.error(`compute: ${c.name}: ${tries.length} hide/show filters equal to pcol top, fold, graph, peek`);
  }
  // tag and tag-ignore (filter.c's tag rule) on the label sets the page
  // carries: KEY=RE, KEY=RE,RE, "key:value" REs (each must match), against
  // pcol top and pcol fold (the call tree) with the same --tag/--tag-ignore
  if (run(ctx, '!!D.LB')) {
    const L = run(ctx, `var seen = {}, kv = [];
      for (var i = 0; i < D.LB.key.length; i++) if (D.LB.val[i]) {
        var k = D.LB.keys[D.LB.key[i] - 1], v = D.LB.vals[D.LB.val[i] - 1];
        if (!seen[k + '=' + v]) { seen[k + '=' + v] = 1; kv.push([k, v]); } }
      kv`).filter(([k, v]) => /^[A-Za-z0-9_.]+$/.test(k + v));
    const keys = [...new Set(L.map(([k]) => k))];
    const vals = (k) => L.filter(([x]) => x === k).map(([, v]) => v);
    const tries = [];
    for (const k of keys.slice(0, 2)) {
      const v = vals(k);
      tries.push([`${k}=^${v[0]}$`, null]);
      if (v.length > 2) tries.push([`${k}=^${v[1]}$,^${v[2]}$`, null], [null, `${k}=^${v[0]}$`]);
    }
    const many = keys.slice().sort((x, y) => vals(y).length - vals(x).length)[0];
    if (keys.length > 1) tries.push([`${keys[0]}:${vals(keys[0])[0]}$,^${keys[1]}:`, null], [`${many}=.`, `${many}=^${vals(many)[0]}$`]);
    if (keys.length) tries.push([null, 'no_such_key=x'], [`${keys[0]}=.`, 'no_such_key=1kb:']); // a key no label has: matches nothing
    const foldTree = (args) => {
      const t = {};
      for (const l of pcol(['fold', c.input, '--value', value, ...args]).split('\n').filter((x) => x)) {
        const sp = l.lastIndexOf(' '), p = l.slice(0, sp).split(';');
        for (let i = 1; i <= p.length; i++) { const k = p.slice(0, i).join('\u0001'); t[k] = (t[k] || 0) + foldNum(l.slice(sp + 1)); }
      }
      return t;
    };
    for (const [tg, ti] of tries) {
      const args = [];
      if (tg) args.push('--tag', tg);
      if (ti) args.push('--tag-ignore', ti);
      const cli = JSON.parse(pcol(['top', c.input, '--format', 'json', '--value', value, ...args]));
      const page = run(ctx, `var S5 = ${sel()}; S5.lskeep = pcolTagKeep(D, ${JSON.stringify(tg)}, ${JSON.stringify(ti)}); var SW5 = pcolStackWeights(D, S5);
        pcolTop(D, SW5, pcolKeyset(D, S5, 'function')).map(function (x) { return [x.name, x.flat, x.cum, pcolFmt2(x.fp), pcolFmt2(x.cp), pcolInlineText(x.inl)]; })`);
      const want = cli.rows.map((x) => [x.name, x.flat, x.cum, pct(x.flat_pct), pct(x.cum_pct), x.inline || '']);
      ok(want.length > 0 && JSON.stringify(page) === JSON.stringify(want), `${c.name}: top --tag ${tg} --tag-ignore ${ti}: ${JSON.stringify(page.slice(0, 3))} vs ${JSON.stringify(want.slice(0, 3))}`);
      const ft = foldTree(args);
      const gt = run(ctx, `var S6 = pcolFtreeSums(D, SW5), KD6 = pcolFtreeKids(D), o6 = {};
        (function walk(n, pre) { pcolTreeChildren(D, KD6, S6, n).forEach(function (c) { var k = pre ? pre + '\\u0001' + c.name : c.name; o6[k] = (o6[k] || 0) + c.w; walk(c.n, k); }); })(0, ''); o6`);
      const bad = Object.keys(ft).filter((k) => ft[k] !== 0 && gt[k] !== ft[k]).concat(Object.keys(gt).filter((k) => !(k in ft)));
      ok(bad.length === 0, `${c.name}: call tree --tag ${tg} --tag-ignore ${ti} differs from pcol fold at ${bad.slice(0, 3)}`);
    }
    ok(tries.length > 0 || !L.length, `${c.name}: no string label to filter on`);
    // numeric ranges (pprof -tagfocus's): a value, at least, at most,
    // between, in other units of the family, without a key, and as
    // tag-ignore, on every numeric key's values (the first, middle, last)
    const N = run(ctx, `var NK = {}, U = {};
      for (var i = 0; i < D.LB.key.length; i++) if (!D.LB.val[i] && D.LB.num) {
        var k = D.LB.keys[D.LB.key[i] - 1]; (NK[k] = NK[k] || {})[D.LB.num[i]] = 1;
        if (!(k in U) && D.LB.unit[i]) U[k] = D.LB.units[D.LB.unit[i] - 1]; }
      Object.keys(NK).map(function (k) { return [k, Object.keys(NK[k]).map(Number).sort(function (a, b) { return a - b; }), U[k] || '']; })`);
    const ntries = [];
    for (const [k, vs, u] of N.filter(([k]) => /^[A-Za-z0-9_.]+$/.test(k)).slice(0, 2)) {
      const su = /^[A-Za-z]*$/.test(u) ? u : '';
      const lo = vs[0], mid = vs[vs.length >> 1], hi = vs[vs.length - 1];
      ntries.push([`${k}=${mid}${su}`, null], [`${k}=${mid}${su}:`, null], [`${k}=:${mid}${su}`, null],
                  [`${k}=${lo}${su}:${mid}${su}`, null], [null, `${k}=${mid}${su}:${hi}${su}`], [`${mid}${su}:`, null]);
      if (/^(b|bytes?)$/i.test(u) || (!u && /^(bytes|alignment|request)$/.test(k)))
        ntries.push([`${k}=1kb:`, null], [`${k}=:2KB`, null], [`${k}=1kb:1mb`, `${k}=4kb:8kb`], [`${k}=0mb:1mb`, null]);
    }
    for (const [tg, ti] of ntries) {
      const args = [];
      if (tg) args.push('--tag', tg);
      if (ti) args.push('--tag-ignore', ti);
      const cli = JSON.parse(pcol(['top', c.input, '--format', 'json', '--value', value, ...args]));
      const page = run(ctx, `var S7 = ${sel()}; S7.lskeep = pcolTagKeep(D, ${JSON.stringify(tg)}, ${JSON.stringify(ti)});
        pcolTop(D, pcolStackWeights(D, S7), pcolKeyset(D, S7, 'function')).map(function (x) { return [x.name, x.flat, x.cum]; })`);
      const want = cli.rows.map((x) => [x.name, x.flat, x.cum]);
      ok(JSON.stringify(page) === JSON.stringify(want), `${c.name}: top --tag ${tg} --tag-ignore ${ti} (numeric): ${JSON.stringify(page.slice(0, 3))} vs ${JSON.stringify(want.slice(0, 3))}`);
    }
    if (ntries.length) console.error(`compute: ${c.name}: ${ntries.length} numeric ranges equal to pcol top: ${ntries.map((x) => x.filter(Boolean).join(' / ')).join(' ; ')}`);
    // what the CLI refuses, the page refuses with its message: an unknown
    // key, a numeric range on a key of strings only or in a file without
    // numbers (elsewhere both take "1kb:"), a number past 64 bits
    const strOnly = run(ctx, `(function () { var k = []; for (var i = 0; i < D.LB.key.length; i++) k[D.LB.key[i]] = (k[D.LB.key[i]] || 0) | (D.LB.val[i] ? 1 : 2);
      for (var j = 1; j < k.length; j++) if (k[j] === 1) return D.LB.keys[j - 1]; return null; })()`);
    // (a key no label has keeps no sample, as in pprof: the CLI warns)
    const none = run(ctx, `Array.prototype.slice.call(pcolTagKeep(D, 'no_such_key=x', null)).some(function (x) { return x; })`);
    ok(none === false, `${c.name}: --tag no_such_key=x: the page keeps a label set`);
    const bads = ['1kb:', '99999999999999999999:'];
    if (strOnly) bads.push(`${strOnly}=1kb:`);
    for (const bad of bads) {
      let msg = '', cli = '';
      try { run(ctx, `pcolTagKeep(D, ${JSON.stringify(bad)}, null)`); } catch (e) { msg = e.message; }
      try { execFileSync(pcolBin, ['top', c.input, '--tag', bad], { stdio: ['ignore', 'ignore', 'pipe'] }); } catch (e) { cli = String(e.stderr); }
      const cliMsg = cli.trim().replace(/^pcol top: [^:]*: /, '');
      // the keys' list: the CLI's in the file's string order, the page's in first use
      const keysSorted = (m) => m.replace(/(its label keys: )(.*)$/, (_, p, l) => p + l.split(', ').sort().join(', '));
      ok((cliMsg !== '' || bad === '1kb:') && keysSorted(msg) === keysSorted(cliMsg), `${c.name}: --tag ${bad}: the page says "${msg}", pcol top says "${cliMsg}"`);
    }
    console.error(`compute: ${c.name}: ${tries.length} tag filters equal to pcol top and pcol fold`);
  }
  // the call graph against `pcol graph --format json`: nodes in order with
  // flat, cum and (inline) marks, edges in order with weight, inline and
  // residual; default pruning, other fractions and counts, a range, a filter
  {
    const plain = run(ctx, `pcolTop(D, pcolStackWeights(D, ${sel()}), pcolKeyset(D, ${sel()}, 'function')).map(function (r) { return r.name; })`)
      .filter((n) => /^[A-Za-z0-9_.:]+$/.test(n));
    const tries = [[{}, null, null], [{ nodeCount: 12 }, null, null], [{ nodeFraction: 0, edgeFraction: 0, nodeCount: 0 }, null, null],
      [{ nodeFraction: 0.05, edgeFraction: 0.02 }, null, null], [{ nodeCount: 5, edgeFraction: 0.01 }, null, null]];
    if (ranges[1]) tries.push([{}, ranges[1], null], [{ nodeCount: 7 }, ranges[1], null]);
    if (plain.length > 2) tries.push([{ nodeCount: 9 }, null, plain[1]]);
    for (const by of ['function', 'line']) for (const [o, r, fo] of tries) {
      if (by === 'line' && (r || fo)) continue;
      const args = ['graph', c.input, '--format', 'json', '--value', value, '--by', by];
      if (o.nodeFraction !== undefined) args.push('--node-fraction', String(o.nodeFraction));
      if (o.edgeFraction !== undefined) args.push('--edge-fraction', String(o.edgeFraction));
      if (o.nodeCount !== undefined) args.push('--node-count', String(o.nodeCount));
      if (r) args.push('--from', secs(r[0]), '--to', secs(r[1]));
      if (r && rsrc) args.push('--source', String(rsrc));
      if (fo) args.push('--focus', fo);
      const cli = JSON.parse(pcol(args));
      const want = cli.rows.map((x) => x.kind === 'node' ? ['N', x.name, x.flat, x.cum, x.inline] : ['E', x.from, x.to, x.weight, x.inline, x.residual]);
      const page = run(ctx, `var S4 = ${sel(r)}; S4.drop = pcolFilterDrop(D, ${fo ? 'pcolGoRegExp(' + JSON.stringify(fo) + ')' : 'null'}, null);
        var G4 = pcolGraph(D, S4, pcolStackWeights(D, S4), pcolKeyset(D, S4, '${by}', true), ${JSON.stringify(o)});
        G4.nodes.map(function (n) { return ['N', n.name, n.flat, n.cum, pcolInlineText(n.inl)]; })
          .concat(G4.edges.map(function (e) { return ['E', G4.nodes[e.from].name, G4.nodes[e.to].name, e.w, !!e.inl, !!e.res]; }))`);
      const what = `${c.name}: graph --by ${by} ${JSON.stringify(o)}${r ? ' range' : ''}${fo ? ' --focus ' + fo : ''}`;
      const bad = want.findIndex((x, i) => JSON.stringify(x) !== JSON.stringify(page[i]));
      ok(page.length === want.length && bad < 0, `${what}: ${page.length} vs ${want.length} rows; first difference at ${bad}: ${JSON.stringify(page[bad])} vs ${JSON.stringify(want[bad])}`);
    }
    console.error(`compute: ${c.name}: call graph: ${tries.length} option sets equal to pcol graph`);
    // its numbers as text (issue 44 item 4): one unit for the graph, from
    // its nodes as pcol graph picks it (units.js pcolViewUnit), against the
    // DOT's tooltips: each node's cum, each edge's weight
    const dot = pcol(['graph', c.input, '--format', 'dot', '--value', value]).split('\n');
    const unq = (x) => x.replace(/\\(.)/g, '$1');
    const want = dot.map((l) => /^N\d+ \[.* tooltip="((?:[^"\\]|\\.)*)"/.exec(l) || /^N\d+ -> N\d+ \[.* tooltip="((?:[^"\\]|\\.)*)"/.exec(l)).filter((m) => m).map((m) => unq(m[1])).sort();
    const page = run(ctx, `(function () { var S6 = ${sel()}, G6 = pcolGraph(D, S6, pcolStackWeights(D, S6), pcolKeyset(D, S6, 'function', true), {}), un = M.values[M.value].unit,
        u = pcolViewUnit(G6.nodes, G6.total, un);
      return G6.nodes.map(function (x) { return x.name + ' (' + pcolUnitLabel(x.cum, un, u) + ')'; })
        .concat(G6.edges.map(function (e) { return G6.nodes[e.from].name + (e.res ? ' ... ' : ' -> ') + G6.nodes[e.to].name + ' (' + pcolUnitLabel(e.w, un, u) + ')'; })).sort(); })()`);
    const gbad = want.findIndex((x, i) => x !== page[i]);
    ok(want.length === page.length && gbad < 0, `${c.name}: the call graph's units differ from pcol graph's DOT: ${page[gbad]} vs ${want[gbad]}`);
  }
  // the source pane's window and numbers (source.js: pcolListWindow on the
  // embedded text, the selection's top by line) against pcol list, whole
  // and in a range
  if (c.srcpath) {
    let blocks = 0;
    const fns = run(ctx, `(function () { var o = {}; M.list.blocks.forEach(function (b) { if (b[0] && b[2] < 0 && b[3].length) o[b[0]] = 1; }); return Object.keys(o); })()`);
    // the ranges above, and the quarters of the first timed source: a
    // function's lines with samples differ between them, so do the windows
    const q = run(ctx, '(M.sources.filter(function (s) { return s.timed; })[0] || null)');
    const sr = ranges.concat(q ? [0, 1, 2, 3].map((k) => [q.t0 + Math.floor((q.t1 - q.t0) * k / 4), q.t0 + Math.floor((q.t1 - q.t0) * (k + 1) / 4)]) : []);
    let differ = 0;
    for (const r of sr) for (const name of fns.filter((n) => /^[\x20-\x7e]+$/.test(n))) {
      const args = ['list', c.input, ere(name), '--format', 'json', '--source-path', c.srcpath, '--value', value];
      if (r) args.push('--from', secs(r[0]), '--to', secs(r[1]));
      if (r && rsrc) args.push('--source', String(rsrc));
      let want = [];
      try { want = JSON.parse(pcol(args)).rows.map((x) => [x.file, x.line, x.flat, x.cum, x.text]); }
      catch (e) { if (!/no matches found/.test(String(e.stderr))) throw e; }
      const page = run(ctx, `(function () {
        var S8 = ${sel(r)}, LR = new Map(), out = [];
        pcolTop(D, pcolStackWeights(D, S8), pcolKeyset(D, S8, 'line')).forEach(function (x) { LR.set(x.name, x); });
        M.list.blocks.forEach(function (b) {
          if (b[0] !== ${JSON.stringify(name)} || b[1] < 0 || b[2] >= 0) return;
          // shown as pcol list's file, matched by the profile's (b[5], as source.js)
          var file = M.list.strs[b[1]], key = b[5] >= 0 ? M.list.strs[b[5]] : file, pre = b[0] + ' ' + key + ':', have = [];
          LR.forEach(function (x, key) { if (key.lastIndexOf(pre, 0) === 0 && /^-?[0-9]+$/.test(key.slice(pre.length))) have.push(+key.slice(pre.length)); });
          var w = pcolListWindow(have, b[4]);
          if (w) b[3].forEach(function (l) { if (l[0] >= w[0] && l[0] <= w[1]) { var x = LR.get(pre + l[0]); out.push([file, l[0], x ? x.flat : 0, x ? x.cum : 0, l[3]]); } });
        });
        return out; })()`);
      ok(JSON.stringify(page) === JSON.stringify(want), `${c.name}: source of ${name}${r ? ' in range ' + r : ''}: lines ${page.map((x) => x[1])} vs pcol list ${want.map((x) => x[1])}`);
      const whole = run(ctx, `M.list.blocks.filter(function (b) { return b[0] === ${JSON.stringify(name)} && b[2] < 0; }).map(function (b) { return b[3].map(function (l) { return l[0]; }).join(); }).join(';')`);
      if (r && want.length && whole !== want.map((x) => x[1]).join()) differ++;
      blocks++;
    }
    ok(blocks > 0 && differ > 0, `${c.name}: ${blocks} source blocks checked, ${differ} with a range's window other than the whole profile's (want some)`);
    console.error(`compute: ${c.name}: source pane: ${blocks} function windows equal to pcol list`);
  }
  // peek: the heaviest functions' callers and callees
  const topRows = run(ctx, `var SW = pcolStackWeights(D, ${sel()}); var K = pcolKeyset(D, ${sel()}, 'function');
    pcolTop(D, SW, K).slice().sort(function (a, b) { return Math.abs(b.cum) - Math.abs(a.cum); }).slice(0, 6).map(function (r) { return [r.key, r.name]; })`);
  let peeked = 0;
  for (const [key, name] of topRows) {
    if (!/^[\x20-\x7e]*$/.test(name)) continue;
    const cli = JSON.parse(pcol(['peek', c.input, ere(name), '--format', 'json', '--value', value]));
    const mine = cli.rows.filter((x) => x.node === name);
    if (mine.filter((x) => x.relation === 'node').length !== 1) continue; // a name pprof shows on two nodes
    const p = run(ctx, `pcolPeek(D, SW, K, ${key})`);
    const side = (rel) => mine.filter((x) => x.relation === rel).map((x) => x.name + '=' + x.value).sort().join(',');
    const pside = (l) => l.map((x) => x.name + '=' + x.w).sort().join(',');
    ok(pside(p.callers) === side('caller'), `${c.name}: peek ${name} callers: ${pside(p.callers)} vs ${side('caller')}`);
    ok(pside(p.callees) === side('callee'), `${c.name}: peek ${name} callees: ${pside(p.callees)} vs ${side('callee')}`);
    peeked++;
  }
  ok(peeked > 0, `${c.name}: no function to peek at`);
  console.error(`compute: ${c.name}: peek: ${peeked} functions`);
  // call tree and inverted tree against pcol fold
  const fold = pcol(['fold', c.input, '--value', value]).split('\n').filter((l) => l).map((l) => {
    const sp = l.lastIndexOf(' '); return [l.slice(0, sp).split(';'), foldNum(l.slice(sp + 1))];
  });
  const want = {}, inv = {};
  for (const [p, v] of fold) {
    for (let i = 1; i <= p.length; i++) { const k = p.slice(0, i).join('\u0001'); want[k] = (want[k] || 0) + v; }
    for (let i = 1; i <= Math.min(3, p.length); i++) { const k = p.slice(-i).reverse().join('\u0001'); inv[k] = (inv[k] || 0) + v; }
  }
  const got = run(ctx, `var S2 = pcolFtreeSums(D, SW), KD = pcolFtreeKids(D), out = {};
    (function walk(n, pre) { pcolTreeChildren(D, KD, S2, n).forEach(function (c) { var k = pre ? pre + '\\u0001' + c.name : c.name; out[k] = (out[k] || 0) + c.w; walk(c.n, k); }); })(0, '');
    var io = {};
    (function walk(list, pre, d) { list.forEach(function (c) { var k = pre ? pre + '\\u0001' + c.name : c.name; io[k] = (io[k] || 0) + c.w; if (d < 3) walk(pcolInvertedChildren(D, c), k, d + 1); }); })(pcolInvertedRoots(D, S2), '', 1);
    [out, io]`);
  const cmp = (a, b) => Object.keys(b).filter((k) => b[k] !== 0 && a[k] !== b[k]).concat(Object.keys(a).filter((k) => !(k in b)));
  const badT = cmp(got[0], want), badI = cmp(got[1], inv);
  ok(badT.length === 0, `${c.name}: call tree differs from pcol fold at ${badT.slice(0, 3).map((k) => k.replace(/\u0001/g, ';') + ': ' + got[0][k] + ' vs ' + want[k])}`);
  ok(badI.length === 0, `${c.name}: inverted tree differs from pcol fold at ${badI.slice(0, 3).map((k) => k.replace(/\u0001/g, ';') + ': ' + got[1][k] + ' vs ' + inv[k])}`);
  console.error(`compute: ${c.name}: call tree ${Object.keys(want).length} paths, inverted ${Object.keys(inv).length} paths equal to pcol fold`);
  // diff columns
  if (c.base) {
    const cli = JSON.parse(pcol(['diff', c.base, c.input, '--absolute', '--format', 'json', '--value', value]));
    const page = run(ctx, `var BT = M.diff.top[M.value]; pcolDiffRows(pcolTop(D, SW, K), BT.function).map(function (r) { return [r.name, r.bflat, r.flat, r.dflat, r.bcum, r.cum, r.dcum]; })`);
    const w = cli.rows.map((x) => [x.name, x.base_flat, x.new_flat, x.d_flat, x.base_cum, x.new_cum, x.d_cum]);
    const key = (a) => a.map((x) => JSON.stringify(x)).sort().join('\n');
    ok(w.length > 0 && key(page) === key(w), `${c.name}: diff rows (${w.length}, want some) differ from pcol diff --absolute: ${JSON.stringify(page.slice(0, 2))} vs ${JSON.stringify(w.slice(0, 2))}`);
    console.error(`compute: ${c.name}: diff: ${w.length} rows equal to pcol diff --absolute`);
    // its numbers as text: one unit by pcol diff's rule (diff.js pcolDiffUnit), its "+" signs
    // (every row: --node-fraction 0)
    const txt = pcol(['diff', c.base, c.input, '--absolute', '--node-fraction', '0', '--value', value]).split('\n'), h = txt.findIndex((l) => /^ *base_flat/.test(l));
    const wt = txt.slice(h + 1).filter((l) => l).map((l) => { const x = l.trim().split(/ +/); return JSON.stringify([x.slice(6).join(' ').replace(/ \((partial-)?inline\)$/, '')].concat(x.slice(0, 6))); });
    const pt = run(ctx, `(function () { var BT = M.diff.top[M.value], R = pcolDiffRows(pcolTop(D, SW, K), BT.function), un = M.values[M.value].unit,
        u = pcolDiffUnit(R, BT.function.total, SW.total, un), L = function (x, sg) { return (sg && x > 0 ? '+' : '') + pcolUnitLabel(x, un, u); };
      return R.map(function (r) { return JSON.stringify([r.name, L(r.bflat), L(r.flat), L(r.dflat, 1), L(r.bcum), L(r.cum), L(r.dcum, 1)]); }); })()`);
    ok(key(pt) === key(wt), `${c.name}: the diff table's units differ from pcol diff --absolute's text: ${pt.slice(0, 2)} vs ${wt.slice(0, 2)}`);
  }
}
// units: pcol's labels (pprof's ScaledLabel) for a few numbers
const ctx = vm.createContext({});
loadCompute(ctx);
const U = [[1536, 'bytes', '1.50kB'], [132, 'B', '132B'], [2147483648, 'bytes', '2GB'], [1234567890, 'nanoseconds', '1.23s'],
  [999, 'nanoseconds', '999ns'], [42, 'count', '42'], [-3500000, 'nanoseconds', '-3.50ms'], [0, 'bytes', '0'],
  // lengths in UTF-8 bytes and ASCII lower case, as unit_scale.c (and Go's sniffUnit): "\u03bcs" is 3
  // bytes, loses its 's' and is no unit; the Kelvin sign is not a 'k'
  [5000, '\u03bcs', '5000'], [3, '\u212ab', '3'], [2048, 'KB', '2MB']];
for (const [v, u, want] of U) ok(vm.runInContext(`pcolUnitLabel(${v}, ${JSON.stringify(u)})`, ctx) === want, `unit label ${v} ${u}: want ${want}`);
// the "divide by" box (units.js pcolDivideBy) reads F as --divide-by does
// (cli_view.c cli_divide_by_parse): what pcol top refuses, with its
// message, and for what it takes the same divisor (its total as text, and
// the page's of the same F)
// (on the first case, and on a long-unit case: a unit of no family shows
// an overflowed total, MinInt64, by its digits, as the CLI prints it)
for (const cf of cases.length ? [cases[0], ...cases.filter((x) => /long-unit-[0-9]+\.json$/.test(x)).slice(0, 1)] : []) {
  const c = JSON.parse(fs.readFileSync(cf, 'utf8')), pg = load(fs.readFileSync(c.html, 'utf8'));
  const F = ['3', '0.5', '1e9', '+2', '.5', '5.', '1.5e+3', '7E-1', '0x10', '0X1P+4', '0x.8', '0x1p-3', '1e-320', '1e-300', '0', '-0', '0.0', '1e-400', '0x1p-1080',
    '-2', '-0x10', '1e400', 'inf', 'nan', 'Infinity', ' 3', '3 ', 'x', '1e', '1e+', '0x', '0x.', '0x1p', '0b11', '0o7', '1_0', '3,5', '٣',
    // hex floats a naive reading gets wrong: a 0 mantissa under a large
    // exponent, more digits than a double holds brought back by the
    // exponent, ties to even at 1 (1 + 2^-53: ratio 1, no truncation) and
    // above it, subnormal divisors, and a long text that is no number
    '0x0p2000', '0x1.' + '0'.repeat(300), '0x1' + '0'.repeat(300) + 'p-1200', '0x1.00000000000008p0', '0x1.00000000000018p0',
    '0x1.00000000000008000001p0', '0x1.0000000000001p-1070', '0x1.8p-1074', '0x1p-1075', '0x1.0000001p-1075', '0x1.fffffffffffff8p1023',
    '0x1.fffffffffffff7ffp1023', '1'.repeat(400) + 'x', '0x' + '1'.repeat(400) + 'x'];
  let n = 0;
  for (const f of F) {
    let cli, msg = null;
    try { cli = execFileSync(pcolBin, ['top', c.input, '--divide-by', f], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }); }
    catch (e) { msg = String(e.stderr).split('\n')[0].replace(/^pcol top: /, ''); ok(e.status === 2, `--divide-by '${f}': pcol top exits ${e.status}, not 2`); }
    const page = run(pg, `(function () { try { var RT = pcolDivideBy(${JSON.stringify(f)}), S0 = {value: M.value, source: 0, range: null}, SW0 = pcolStackWeights(D, S0), un = M.values[M.value].unit;
        return { tot: pcolValueText(SW0.total, un, pcolViewUnit(pcolTop(D, SW0, pcolKeyset(D, S0, 'function')), SW0.total, un, RT), RT) }; }
      catch (e) { return { msg: e.message }; } })()`);
    const tot = msg === null ? /of (\S+) total$/.exec(cli.split('\n').find((l) => /^Showing nodes/.test(l)) || '') : null;
    ok(msg === null ? tot && page.tot === tot[1] : page.msg === msg, `--divide-by '${f}': the page's box ${JSON.stringify(page)}, pcol top ${msg === null ? 'total ' + (tot && tot[1]) : 'says "' + msg + '"'}`);
    n++;
  }
  console.error(`compute: the "divide by" box: ${n} texts read as pcol top --divide-by reads them (${path.basename(cf)})`);
}
// the page's inflate (data.js) on streams made here: every block type
// (stored at level 0, fixed for short input, dynamic), long matches, and
// attack inputs (truncated, random, a distance before the start, a wrong
// length) that must throw, not hang or write out of bounds
{
  const dctx = vm.createContext({});
  loadCompute(dctx);
  const inflate = (buf, n) => vm.runInContext(`pcolInflate(new Uint8Array(${JSON.stringify(Array.from(buf))}), ${n})`, dctx);
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const inputs = [Buffer.from('a'), Buffer.from('hello hello hello hello'), Buffer.alloc(70000, 3),
    Buffer.from(Array.from({ length: 30000 }, (_, i) => (i * 7) % 251 ^ (rnd() < 0.1 ? 255 : 0)))];
  for (const x of inputs) for (const level of [0, 1, 9]) {
    const z = zlib.deflateRawSync(x, { level });
    const got = inflate(z, x.length);
    ok(Buffer.compare(Buffer.from(got), x) === 0, `pcolInflate: ${x.length} bytes at level ${level}`);
  }
  const bad = [zlib.deflateRawSync(inputs[3]).subarray(0, 500), Buffer.from(Array.from({ length: 300 }, () => Math.floor(rnd() * 256))),
    Buffer.from([0x63, 0x00, 0x02, 0x00]) /* fixed block: a match at distance 1 with no byte before */];
  for (const [i, z] of bad.entries()) {
    let threw = false;
    try { inflate(z, 30000); } catch (e) { threw = /damaged/.test(e.message); }
    ok(threw, `pcolInflate: attack stream ${i} did not fail`);
  }
  let threw = false;
  try { inflate(zlib.deflateRawSync(inputs[1]), 5); } catch (e) { threw = /damaged/.test(e.message); }
  ok(threw, 'pcolInflate: a stream longer than said did not fail');
}
console.log(`compute.test: ${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
