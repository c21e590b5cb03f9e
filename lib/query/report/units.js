/* units.js — numbers for people, by the CLI's rules (units.c and
 * unit_scale.c, go tool pprof's ScaledLabel): bytes in B kB MB GB TB PB
 * (powers of 1024), time in ns us ms s hrs, "%.2f" without a trailing
 * ".00"; a unit of no family prints the number as it is. */
var PCOL_UNITS = [
  [['B', ['b', 'byte'], 1], ['kB', ['kb', 'kbyte', 'kilobyte'], 1024], ['MB', ['mb', 'mbyte', 'megabyte'], 1048576],
   ['GB', ['gb', 'gbyte', 'gigabyte'], 1073741824], ['TB', ['tb', 'tbyte', 'terabyte'], 1099511627776],
   ['PB', ['pb', 'pbyte', 'petabyte'], 1125899906842624]],
  [['ns', ['ns', 'nanosecond'], 1], ['us', ['\u03bcs', 'us', 'microsecond'], 1e3], ['ms', ['ms', 'millisecond'], 1e6],
   ['s', ['s', 'sec', 'second'], 1e9], ['hrs', ['hour', 'hr'], 3600e9]]
];
function pcolUnitOf(u) { /* pprof's sniffUnit -> [family, unit] or null */
  if (!u) return null;
  var b = u.toLowerCase();
  if (b.length > 2 && b[b.length - 1] === 's') b = b.slice(0, -1);
  for (var f = 0; f < PCOL_UNITS.length; f++)
    for (var i = 0; i < PCOL_UNITS[f].length; i++) if (PCOL_UNITS[f][i][1].indexOf(b) >= 0) return [f, i];
  return null;
}
/* pcol_unit_label(v, unit, "auto") */
function pcolUnitLabel(v, unit) {
  var fu = pcolUnitOf(unit);
  if (!fu) return String(v); /* no family: the number exactly, as pprof */
  var fam = PCOL_UNITS[fu[0]], a = Math.abs(v) * fam[fu[1]][2], best = 0, name = null;
  for (var i = 0; i < fam.length; i++) if (fam[i][2] >= best && a / fam[i][2] >= 1) { best = fam[i][2]; name = fam[i][0]; }
  if (!name) { var d = fu[0] === 0 ? 0 : 3; best = fam[d][2]; name = fam[d][0]; }
  var s = pcolFmt2((v < 0 ? -a : a) / best);
  if (/\.00$/.test(s)) s = s.slice(0, -3);
  return s === '0' || s === '-0' ? '0' : s + name;
}
/* a time in ns since the profile's start, for people: "1.234 s", "12 ms" */
function pcolTimeText(ns) {
  var a = Math.abs(ns), s = a >= 1e9 ? [ns / 1e9, 's'] : a >= 1e6 ? [ns / 1e6, 'ms'] : a >= 1e3 ? [ns / 1e3, '\u00b5s'] : [ns, 'ns'];
  return String(+s[0].toPrecision(6)) + ' ' + s[1];
}
/* a range [from, to): "1.2 s – 3.4 s (2.2 s)" */
function pcolRangeText(r) {
  return pcolTimeText(r[0]) + ' \u2013 ' + pcolTimeText(r[1]) + ' (' + pcolTimeText(r[1] - r[0]) + ')';
}
