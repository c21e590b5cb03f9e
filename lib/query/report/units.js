/* units.js — numbers for people, by the CLI's rules, mirrored from
 * lib/core/unit_scale.c (go tool pprof's measurement.Scale, sniffUnit) and
 * lib/query/units.c (pcol_unit_label, pcol_unit_pick: report.go's
 * selectOutputUnit): bytes in B kB MB GB TB PB (powers of 1024), time in
 * fs ps ns us ms s hrs, Google compute units; "%.2f" without a trailing ".00";
 * a unit of no family prints the number as it is; a decimal unit ("1e-9",
 * "1e-9 s", count.c pcol_unit_decimals) holds v x 10^D, and one of a
 * family's unit scales as that fraction of it ("1e-9 ms" is a ps).
 * A table speaks one unit, as the CLI's: pcolViewUnit picks it from the
 * rows' values and the total (pcol top, peek and graph: a row's flat, else
 * its cum), and pcolUnitLabel(v, unit, picked) prints each number in it.
 * --divide-by F (pprof's -divide_by): pcolValueText divides each number as
 * pcol_unit_ratio does, and the pick reads the divided minimum and total. */
/* printf's %.2f: the exact decimal value, ties to even (toFixed rounds ties up) */
export function pcolFmt2(x) {
  var s = x.toFixed(2), e = Math.abs(x).toFixed(40), dot = e.indexOf('.');
  if (/^50*$/.test(e.slice(dot + 3))) {
    var k = Math.round(Math.abs(x) * 100 - 0.5); /* the lower neighbour, x 100 */
    if (k % 2 === 0) s = (x < 0 ? '-' : '') + (k / 100).toFixed(2);
  }
  return s;
}
/* printf's %.2g of x >= 0: two significant digits (ties to even on the
 * exact value, as pcolFmt2), trailing zeros dropped, an exponent of at
 * least two digits below 1e-4 */
function pcolFmtG2(x) {
  if (!(x > 0)) return '0';
  var s = x.toExponential(1), exact = x.toExponential(100);
  if (/^\d\.\d50*e/.test(exact) && +exact[2] % 2 === 0) s = exact.slice(0, 3) + exact.slice(exact.indexOf('e'));
  var e = +s.slice(s.indexOf('e') + 1), m = s.slice(0, 3).replace(/\.?0+$/, '');
  if (e < -4 || e >= 2) return m + 'e' + (e < 0 ? '-' : '+') + String(Math.abs(e)).padStart(2, '0');
  return (+s).toFixed(1 - e).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}
/* lib/query/units.c pcol_percentage, THE rule of a table's percentages
 * (go tool pprof's measurement.Percentage): |v / total| x 100, "100%"
 * within 0.05 of it, "%.2f" from 1 on, "%.2g" below (without its padding) */
export function pcolPercentage(v, total) {
  var r = total ? Math.abs(v / total) * 100 : 0;
  if (r >= 99.95 && r <= 100.05) return '100%';
  return (r >= 1 ? pcolFmt2(r) : pcolFmtG2(r)) + '%';
}
/* THE text rule of a name the page shows, lib/core/utf8.c
 * pcol_text_char's (the CLI's text views, pcol flame's labels and hovers):
 * \n and \r, other C0 controls but tab and DEL as \xNN, C1 controls as
 * their UTF-8 bytes \xc2\xNN, and the bidi formatting characters (ALM,
 * LRM, RLM, LRE..RLO, LRI..PDI: "Trojan Source") as Go's regex escape
 * \x{202e}, which reorder the text around them unseen (review 22 F2) */
export function pcolShown(s) {
  return String(s).replace(/[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, function (c) {
    var u = c.charCodeAt(0), h = function (b) { return '\\x' + (b < 16 ? '0' : '') + b.toString(16); };
    return c === '\n' ? '\\n' : c === '\r' ? '\\r' : u < 0x80 ? h(u) : u < 0xa0 ? h(0xc2) + h(u) : '\\x{' + u.toString(16) + '}';
  });
}
/* A name in running text (a title, a hover, a tooltip, a canvas label):
 * shown (pcolShown) between FSI and PDI (U+2068, U+2069), so that its
 * right-to-left letters cannot reorder the words and numbers around it;
 * pcol flame's hovers wrap names the same way (svg.c) */
export function pcolIso(s) { return '\u2068' + pcolShown(s) + '\u2069'; }
/* THE cut of a name shown in a bounded space (the legend, a box, a graph
 * node's line, a label box, the source menu), of its text as pcolShown
 * shows it: s when it has at most max code points, else its first ones
 * and ell (`fromEnd`: ell and its last ones), max in all.  By code points,
 * so a surrogate pair is never split (rd17a F9: an emoji at the cut was
 * drawn as U+FFFD), and never inside what is drawn as one: a character and
 * what joins it (a combining mark, a variation selector, an emoji
 * modifier, either side of a ZWJ), a flag (a pair of regional indicators,
 * paired from the start of their run), an escape pcolShown wrote (\n, \r,
 * \xNN, a C1 control's \xc2\xNN, \x{202e}; rd17b F4: "abc\x…"): the
 * cut moves to its edge, so within max. */
var PCOL_JOINS = /^[\p{M}\p{Emoji_Modifier}\u200d]$/u, PCOL_RI = /^[\u{1F1E6}-\u{1F1FF}]$/u,
  PCOL_ESC = /^(?:\\xc2\\x[89][0-9a-f]|\\x\{[0-9a-f]+\}|\\x[0-9a-f]{2}|\\[nr])/;
export function pcolCut(s, max, ell, fromEnd) {
  var c = Array.from(s);
  if (c.length <= max) return s;
  /* mid[i]: no cut between c[i - 1] and c[i] */
  var k = Math.max(0, max - Array.from(ell).length), mid = [], ri = 0;
  for (var i = 0; i < c.length; i++) {
    var m = c[i] === '\\' && PCOL_ESC.exec(c.slice(i, i + 8).join(''));
    if (m) { for (var e = 1; e < m[0].length; e++) mid[i + e] = true; i += m[0].length - 1; ri = 0; continue; }
    ri = PCOL_RI.test(c[i]) ? ri + 1 : 0;
    if (i > 0 && ((ri && ri % 2 === 0) || PCOL_JOINS.test(c[i]) || c[i - 1] === '\u200d')) mid[i] = true;
  }
  if (!fromEnd) { while (k > 0 && mid[k]) k--; return c.slice(0, k).join('') + ell; }
  var j = c.length - k;
  while (j < c.length && mid[j]) j++;
  return ell + c.slice(j).join('');
}
var PCOL_UNITS = [ /* [name, aliases, factor], the family's default unit */
  [[['B', ['b', 'byte'], 1], ['kB', ['kb', 'kbyte', 'kilobyte'], 1024], ['MB', ['mb', 'mbyte', 'megabyte'], 1048576],
    ['GB', ['gb', 'gbyte', 'gigabyte'], 1073741824], ['TB', ['tb', 'tbyte', 'terabyte'], 1099511627776],
    ['PB', ['pb', 'pbyte', 'petabyte'], 1125899906842624]], 0],
  [[['fs', ['fs'], 1e-6], ['ps', ['ps'], 1e-3], /* (short names only: unit_scale.c) */
    ['ns', ['ns', 'nanosecond'], 1], ['us', ['\u03bcs', 'us', 'microsecond'], 1e3], ['ms', ['ms', 'millisecond'], 1e6],
    ['s', ['s', 'sec', 'second'], 1e9], ['hrs', ['hour', 'hr'], 3600e9]], 5],
  [[['n*GCU', ['nanogcu'], 1e-9], ['u*GCU', ['microgcu'], 1e-6], ['m*GCU', ['milligcu'], 1e-3], ['GCU', ['gcu'], 1],
    ['k*GCU', ['kilogcu'], 1e3], ['M*GCU', ['megagcu'], 1e6], ['G*GCU', ['gigagcu'], 1e9], ['T*GCU', ['teragcu'], 1e12],
    ['P*GCU', ['petagcu'], 1e15]], 3]
];
/* unit_scale.c sniff: the unit of family f named u, or null (ASCII lower
 * case, a plural 's' dropped past two bytes: lengths are UTF-8 bytes, as in
 * C and Go, so "\u03bcs" (3 bytes) loses its 's' and is no unit there either) */
function pcolUtf8Len(s) {
  var n = 0;
  for (var i = 0; i < s.length; i++) {
    var c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
  }
  return n;
}
/* utf8.c pcol_utf8_cut, THE cut rule: the longest start of s of at most max
 * bytes of UTF-8, never inside a character (a pair of surrogates is one).
 * U+FFFD counts 1: here it stands for what report.c's jstr replaced with
 * it, a byte of no character (or NUL), which C counts 1 (the one place the
 * two differ: a U+FFFD the file holds itself, 3 bytes in C).  A unit of no
 * family is cut to 31 bytes with it. */
export function pcolUtf8Cut(s, max) {
  var w = 0, i = 0;
  while (i < s.length) {
    var c = s.charCodeAt(i), d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    var pair = c >= 0xd800 && c < 0xdc00 && d >= 0xdc00 && d < 0xe000, b = c < 0x80 || c === 0xfffd ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (w + b > max) break;
    w += b;
    i += pair ? 2 : 1;
  }
  return s.slice(0, i);
}
function pcolSniff(f, u) {
  if (!u || pcolUtf8Len(u) >= 32) return null;
  var b = u.replace(/[A-Z]/g, function (c) { return c.toLowerCase(); });
  if (pcolUtf8Len(b) > 2 && b[b.length - 1] === 's') b = b.slice(0, -1);
  var fam = PCOL_UNITS[f][0];
  for (var i = 0; i < fam.length; i++) if (fam[i][1].indexOf(b) >= 0) return fam[i];
  return null;
}
/* unit_scale.c sniff_from: the unit of family f a value's unit names, a
 * decimal unit "1e-D U" as U (its fraction: pcolUnitFrac) */
function pcolSniffFrom(f, u) { return pcolSniff(f, pcolUnitDecimals(u)[1]); }
var PCOL_TENTHS = [1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9]; /* (literals: as C's, exact) */
function pcolUnitFrac(u) { return PCOL_TENTHS[pcolUnitDecimals(u)[0]]; }
function pcolUnitKnown(u) { for (var f = 0; f < PCOL_UNITS.length; f++) if (pcolSniffFrom(f, u)) return true; return false; }
/* count.c pcol_unit_decimals: [D, the unit shown] of "1e-D" or "1e-D U", else [0, u] */
function pcolUnitDecimals(u) {
  var m = /^1e-([1-9])(?:$| (.+)$)/.exec(u || '');
  return m ? [+m[1], m[2] === undefined ? '' : m[2]] : [0, u || ''];
}
/* unit_scale.c pcol_unit_scale: [v in unit to, its name]; to "auto" (or
 * "minimum"): the largest unit the value is at least 1 of */
export function pcolUnitScale(v, from, to) {
  /* as unit_scale.c: MinInt64 (an overflow of -divide_by) is scaled as it is */
  if (v < 0 && v !== PCOL_MIN_INT64) { var r = pcolUnitScale(-v, from, to); return [-r[0], r[1]]; }
  for (var f = 0; f < PCOL_UNITS.length; f++) {
    var fu = pcolSniffFrom(f, from);
    if (!fu) continue;
    var fam = PCOL_UNITS[f][0], d = fam[PCOL_UNITS[f][1]], x = v * fu[2] * pcolUnitFrac(from);
    if (to === 'auto' || to === 'minimum') {
      var best = 0, name = null;
      for (var i = 0; i < fam.length; i++) if (fam[i][2] >= best && x / fam[i][2] >= 1) { best = fam[i][2]; name = fam[i][0]; }
      return name ? [x / best, name] : [x / d[2], d[0]];
    }
    var tu = pcolSniff(f, to) || d;
    return [x / tu[2], tu[0]];
  }
  return [v, /^(count|sample|unit|auto|minimum)$/.test(to) ? '' : to];
}
/* Go's MinInt64, what int64() of a float out of its range gives on amd64 */
var PCOL_MIN_INT64 = -9223372036854775808;
/* unit_scale.c pcol_unit_ratio, pprof's -divide_by F (ratio 1/F; the page's
 * "divide by", report.c M.divide_by): int64(v x ratio), truncated toward 0,
 * none when ratio is not above 0 or is 1; out of int64 (or NaN) MinInt64 */
export function pcolUnitRatio(v, ratio) {
  if (!(ratio > 0) || ratio === 1) return v;
  var x = v * ratio;
  return x >= PCOL_MIN_INT64 && x < -PCOL_MIN_INT64 ? Math.trunc(x) + 0 : PCOL_MIN_INT64;
}
/* M x 2^e (M a BigInt >= 0) rounded once to the nearest double, ties to
 * even, as strtod rounds a hex float: the bits kept are the 53 below M's
 * top one, fewer where the result is subnormal (none under 2^-1075);
 * Infinity past the largest double */
function pcolHexFloat(M, e) {
  if (M === 0n) return 0;
  var L = M.toString(2).length, top = L + e; /* M x 2^e in [2^(top-1), 2^top) */
  if (top > 1025) return Infinity;
  var keep = Math.min(53, top + 1074);
  if (keep < 0) return 0;
  var drop = L - keep, q = M;
  if (drop > 0) {
    q = M >> BigInt(drop);
    var rest = M - (q << BigInt(drop)), half = 1n << BigInt(drop - 1);
    if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  } else if (drop < 0) {
    q = M << BigInt(-drop);
  }
  /* q < 2^54 is exact as a Number, and so is each step by a power of two
   * while the result is a normal number or the rounded subnormal itself */
  var x = Number(q), p = e + drop;
  for (; p > 1000; p -= 1000) x *= Math.pow(2, 1000);
  for (; p < -1000; p += 1000) x *= Math.pow(2, -1000);
  return x * Math.pow(2, p);
}
/* cli_view.c cli_divide_by_parse: F typed in the page's "divide by" box as
 * --divide-by reads it (strtod's whole text, C's forms: a decimal, a hex
 * float), its ratio 1/F; throws the CLI's message.  Empty: no divisor. */
export function pcolDivideBy(text) {
  if (text === '') return 1;
  var d = NaN, m;
  /* (each pattern splits its digits one way only: no backtracking on a long text) */
  if (/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(text)) d = Number(text);
  else if ((m = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?[0-9]+))?$/.exec(text)) && (m[2] || m[3])) {
    var fr = m[3] || '';
    d = pcolHexFloat(BigInt('0x0' + m[2] + fr), (m[4] ? +m[4] : 0) - 4 * fr.length);
    if (m[1] === '-') d = -d;
  }
  if (!isFinite(d)) throw new Error('--divide-by wants a decimal number, not \'' + text + '\'');
  if (d === 0) throw new Error('--divide-by wants a divisor other than 0 (pprof: zero divisor specified), not \'' + text + '\'');
  if (d < 0) throw new Error('--divide-by wants a divisor above 0 (pprof ignores a negative one silently; pcol says so), not \'' + text + '\'');
  return 1 / d;
}
/* count.c pcol_decimal_text: v / 10^dec exactly, no trailing zeros */
function pcolDecimalText(v, dec) {
  /* (a whole number past 2^53, e.g. MinInt64 of an overflow, by its exact
   * digits as C prints it, not String()'s 17 significant ones) */
  var a = Math.abs(v), s = Number.isInteger(a) && !Number.isSafeInteger(a) && isFinite(a) ? BigInt(a).toString() : String(a);
  if (dec) {
    while (s.length <= dec) s = '0' + s;
    var fp = s.slice(s.length - dec).replace(/0+$/, '');
    s = s.slice(0, s.length - dec) + (fp ? '.' + fp : '');
  }
  return (v < 0 ? '-' : '') + s;
}
/* units.c pcol_unit_label(v, unit, to): to "auto" by default (each number
 * its own unit, as pcol list, flame and traces print), a unit picked for a
 * table (pcolViewUnit), or "raw" */
export function pcolUnitLabel(v, unit, to) {
  to = to || 'auto';
  var ds = pcolUnitDecimals(unit), dec = ds[0], x;
  if (dec && (to === 'raw' || !pcolUnitKnown(ds[1]))) return pcolDecimalText(v, dec);
  if (to === 'raw') return pcolDecimalText(v, 0);
  if (!dec && !pcolUnitKnown(unit)) return pcolDecimalText(v, 0) + pcolShown(pcolUnitScale(v, unit, to)[1]); /* (a file's unit: shown) */
  /* (a unit to pick: from the value itself, as units.c) */
  var pick = to === 'auto' || to === 'minimum';
  x = dec && !pick ? pcolUnitScale(v, ds[1], to) : pcolUnitScale(v, unit, to);
  var s = pcolFmt2(dec && !pick ? x[0] / Math.pow(10, dec) : x[0]);
  if (/\.00$/.test(s)) s = s.slice(0, -3);
  return s === '0' || s === '-0' ? '0' : s + x[1];
}
/* units.c pcol_unit_label_alone: a number shown alone (the flame graph's
 * hover): a unit of a family in its own best unit ("1.23s"), a unit of
 * none as go tool pprof -http's flame graph labels it: "12objects", the
 * number alone for count, sample, unit ("12"), "0" for 0 */
export function pcolUnitLabelAlone(v, unit) {
  var ds = pcolUnitDecimals(unit);
  if (pcolUnitKnown(ds[1])) return pcolUnitLabel(v, unit, 'minimum');
  if (v === 0) return '0';
  return pcolDecimalText(v, ds[0]) + pcolShown(pcolUnitScale(v, ds[1], pcolUtf8Cut(ds[1], 31))[1]);
}
/* a flame graph frame's hover, as pcol flame's SVG titles it (svg.c
 * frame): "name (value, share%)", the name isolated (pcolIso), the value divided by --divide-by
 * (ratio) and shown alone (pcolUnitLabelAlone; raw: the integer and its
 * unit), the share (of the sum of |value|, pcol_share) "%.2f"; on a diff
 * page (base: the base's share) "; base B%, change +C points" */
export function pcolFlameInfo(name, v, unit, ratio, raw, share, base) {
  v = pcolUnitRatio(v, ratio);
  var s = pcolIso(name) + ' (' + (raw ? String(v) + ' ' + pcolShown(unit) : pcolUnitLabelAlone(v, unit)) + ', ' + pcolFmt2(share) + '%';
  if (base !== null && base !== undefined) s += '; base ' + pcolFmt2(base) + '%, change ' + (share - base >= 0 ? '+' : '') + pcolFmt2(share - base) + ' points';
  return s + ')';
}
/* units.c pcol_unit_pick: one unit for a table of vals and its total
 * (pprof's selectOutputUnit): the smallest non-zero |value|'s unit, or,
 * when the total's is another and that value is under 1/100 of the total,
 * the unit of 100 x that value; a unit of no family: the unit as it is.
 * No values (no node left): "minimum", each number in its own unit, as
 * pprof leaves it ("Dropped 10 nodes (cum <= 200ms)" of a total of 1s) */
export function pcolUnitPick(vals, total, unit, ratio) {
  if (!vals.length) return 'minimum';
  var minv = 0, i;
  for (i = 0; i < vals.length; i++) { var a = Math.abs(vals[i]); if (a > 0 && (minv === 0 || a < minv)) minv = a; }
  if (minv === 0) minv = total;
  /* --divide-by: the minimum and the total divided (pcol_unit_pick_ratio) */
  minv = pcolUnitRatio(minv, ratio); total = pcolUnitRatio(total, ratio);
  var umin = pcolUnitScale(minv, unit, 'minimum')[1], umax = pcolUnitScale(total, unit, 'minimum')[1], u = umin;
  if (umin !== umax && minv * 100 < total) u = pcolUnitScale(100 * minv, unit, 'minimum')[1];
  return u || pcolUtf8Cut(String(unit || ''), 31);
}
/* the unit of a table of rows (pcol top, peek, graph: a row's flat, else its cum) */
export function pcolViewUnit(rows, total, unit, ratio) {
  var vals = new Array(rows.length);
  for (var i = 0; i < rows.length; i++) vals[i] = rows[i].flat ? rows[i].flat : rows[i].cum;
  return pcolUnitPick(vals, total, unit, ratio);
}
/* a number as a view prints it (the CLI's cli_value_label): divided by
 * --divide-by (ratio, pcolUnitRatio), then in the unit to (pcolUnitLabel),
 * or its integer when raw */
export function pcolValueText(v, unit, to, ratio, raw) {
  v = pcolUnitRatio(v, ratio);
  return raw ? String(v) : pcolUnitLabel(v, unit, to);
}
/* a time in ns since the profile's start, for people: "1.234 s", "12 ms" */
export function pcolTimeText(ns) {
  var a = Math.abs(ns), s = a >= 1e9 ? [ns / 1e9, 's'] : a >= 1e6 ? [ns / 1e6, 'ms'] : a >= 1e3 ? [ns / 1e3, '\u00b5s'] : [ns, 'ns'];
  return String(+s[0].toPrecision(6)) + ' ' + s[1];
}
/* a range [from, to): "1.2 s – 3.4 s (2.2 s)" */
export function pcolRangeText(r) {
  return pcolTimeText(r[0]) + ' \u2013 ' + pcolTimeText(r[1]) + ' (' + pcolTimeText(r[1] - r[0]) + ')';
}
