/* regex.js — the page's regular expressions are Go's, as pcol's options
 * and pprof's web UI read them (RE2 syntax: lib/core/regex_go.c; the
 * accepted syntax, and where the page and the options differ: doc/cli.md
 * "Regular expressions"), made into a JavaScript RegExp that matches the
 * same names: by code points (the u flag, as Go reads UTF-8), (?i) as the
 * RegExp's i flag, (?s) (?m) (?U) and named groups, \A \z \Q..\E, POSIX
 * classes, \pN and \p{Greek}, octal and \x{..} escapes, Go's \s (ASCII
 * space only), braces that are not a repeat and a lone ] as literals, Go's
 * bound on nested counts.  What Go refuses throws, and so does what
 * JavaScript cannot say the same way here: (?i) turned on or off past the
 * start, \C, \b or \B with (?i), \P inside brackets with (?i).
 * The callers mark the box bad on a throw. */

/* POSIX classes as bracket members (regexp/syntax perl_groups.go) */
var PCOL_RX_POSIX = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7f', blank: '\\t ', cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9', graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`\\{-~',
  space: '\\t\\n\\x0b\\f\\r ', upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f'
};
/* Unicode general categories (the others Go knows are scripts) */
var PCOL_RX_CATS = /^(?:C|Cc|Cf|Co|Cs|L|Ll|Lm|Lo|Lt|Lu|M|Mc|Me|Mn|N|Nd|Nl|No|P|Pc|Pd|Pe|Pf|Pi|Po|Ps|S|Sc|Sk|Sm|So|Z|Zl|Zp|Zs)$/;
/* the scripts Go 1.19 knows (JavaScript knows more, and short names as
 * Grek, which Go refuses); written by tests/go/unitable -js, checked by
 * tests/interop/t_regex.sh */
var PCOL_RX_SCRIPTS = ' Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inherited Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Oriya Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Ugaritic Vai Wancho Warang_Citi Yezidi Yi Zanabazar_Square ';

function pcolRxHex(c) { return '\\u{' + c.toString(16) + '}'; }

/* The complement of ASCII class `members` (bracket members) as bracket
 * members, as Go's appendNegatedClass; under (?i) (fold) Go folds the
 * class first, and the only code points past ASCII in the case orbits of
 * ASCII letters are U+212A (k) and U+017F (s): the complement leaves them
 * out, and JavaScript's i flag then folds nothing into it. */
function pcolRxNegated(members, fold) {
  var rx = new RegExp('[' + members + ']', fold ? 'iu' : 'u'), out = '', lo = -1;
  var inSet = function (c) {
    if (c < 0x80) return rx.test(String.fromCharCode(c));
    return fold && ((c === 0x212a && rx.test('k')) || (c === 0x17f && rx.test('s')));
  };
  var ends = [0x80, 0x17f, 0x180, 0x212a, 0x212b, 0x110000];
  for (var c = 0; c < 0x110000;) {
    var isIn = inSet(c), to = c < 0x80 ? c + 1 : ends.find(function (x) { return x > c; });
    if (!isIn && lo < 0) lo = c;
    if ((isIn || to === 0x110000) && lo >= 0) { var hi = isIn ? c - 1 : to - 1; out += pcolRxHex(lo) + (hi > lo ? '-' + pcolRxHex(hi) : ''); lo = -1; }
    c = to;
  }
  return out;
}

/* s[i] is a backslash: [JavaScript for the escape, next index]; inClass:
 * inside brackets; fold: under (?i) */
function pcolRxEscape(s, i, inClass, fold) {
  var c = s[i + 1], m;
  if (c === undefined) throw new Error('trailing backslash');
  if (/[0-7]/.test(c)) { /* octal, up to three digits; a lone \1-\7 is a backreference (refused) */
    m = /^[0-7]{1,3}/.exec(s.slice(i + 1))[0];
    if (c !== '0' && m.length === 1) throw new Error('invalid escape \\' + c);
    return [pcolRxHex(parseInt(m, 8)), i + 1 + m.length];
  }
  if (c === 'x') {
    if (s[i + 2] === '{') {
      m = /^\{([0-9A-Fa-f]+)\}/.exec(s.slice(i + 2));
      if (!m || parseInt(m[1], 16) > 0x10ffff) throw new Error('invalid escape \\x{');
      return [pcolRxHex(parseInt(m[1], 16)), i + 2 + m[0].length];
    }
    m = /^[0-9A-Fa-f]{2}/.exec(s.slice(i + 2));
    if (!m) throw new Error('invalid escape \\x');
    return [pcolRxHex(parseInt(m[0], 16)), i + 4];
  }
  if (c === 'p' || c === 'P') {
    var name, j;
    if (s[i + 2] === '{') {
      j = s.indexOf('}', i + 3);
      if (j < 0) throw new Error('invalid character class range');
      name = s.slice(i + 3, j);
      j++;
    } else {
      name = s[i + 2];
      j = i + 3;
      if (!name) throw new Error('invalid character class range');
    }
    var neg = c === 'P';
    if (name[0] === '^') { neg = !neg; name = name.slice(1); }
    var body = name === 'Any' ? 'Any' : PCOL_RX_CATS.test(name) ? name
      : /^[A-Za-z_]+$/.test(name) && PCOL_RX_SCRIPTS.indexOf(' ' + name + ' ') >= 0 ? 'Script=' + name : null;
    if (!body) throw new Error('invalid character class range');
    /* Go's C is Cc Cf Co Cs; JavaScript's also the unassigned (Cn) */
    if (body === 'C') {
      if (neg && inClass) throw new Error('\\P{C} inside brackets is not supported here');
      return [(neg ? '[^' : inClass ? '' : '[') + '\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}' + (inClass && !neg ? '' : ']'), j];
    }
    /* JavaScript folds \P{..}'s members under the i flag (ι is not a
     * letter there: its fold partner U+0345 is not); Go folds the class
     * and then takes its complement, as [^\p{..}] does */
    if (neg && inClass && fold) throw new Error('\\P inside brackets with (?i)');
    return [neg ? (inClass ? '\\P{' + body + '}' : '[^\\p{' + body + '}]') : '\\p{' + body + '}', j];
  }
  if (c === 's') return [inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]', i + 2];
  if (c === 'S') {
    if (inClass) return [pcolRxNegated('\\t\\n\\f\\r ', fold), i + 2];
    return ['[^\\t\\n\\f\\r ]', i + 2];
  }
  if ('dDwW'.indexOf(c) >= 0) return ['\\' + c, i + 2];
  /* assertions in a group: Go repeats them (^*), JavaScript only a group.
   * Go's \b is ASCII's, JavaScript's under the i flag also takes K (U+212A)
   * and ſ as word characters, which no class can leave out there */
  if (!inClass && (c === 'b' || c === 'B')) {
    if (fold) throw new Error('\\' + c + ' with (?i)');
    return ['(?:\\' + c + ')', i + 2];
  }
  if (!inClass && c === 'A') return ['(?:^)', i + 2];
  if (!inClass && c === 'z') return ['(?:$)', i + 2];
  var ctl = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 }[c];
  if (ctl !== undefined) return [pcolRxHex(ctl), i + 2];
  /* any ASCII punctuation stands for itself (Go); letters and digits that
   * are no escape above are refused, as Go refuses them */
  if (c.charCodeAt(0) < 0x80 && !/[0-9A-Za-z]/.test(c)) return [pcolRxHex(c.charCodeAt(0)), i + 2];
  throw new Error('invalid escape \\' + c);
}

/* One literal code point at s[i] ([JavaScript, next index]) */
function pcolRxLiteral(s, i) {
  var cp = s.codePointAt(i), n = cp > 0xffff ? 2 : 1;
  return [/[\\^$.|?*+()[\]{}\/-]/.test(s[i]) ? pcolRxHex(cp) : s.slice(i, i + n), i + n];
}

/* s[i] begins "(?flags)" or "(?flags:" (Go's parsePerlFlags: i m s U,
 * one '-' followed by a flag): [its length, whether it opens a group,
 * the new flags], or null */
function pcolRxFlags(s, i, f) {
  var sign = 1, saw = false, n = { i: f.i, m: f.m, s: f.s };
  for (var j = i + 2; j < s.length; j++) {
    var c = s[j];
    if ('imsU'.indexOf(c) >= 0) { if (c !== 'U') n[c] = sign > 0; saw = true; }
    else if (c === '-' && sign > 0) { sign = -1; saw = false; }
    else if ((c === ':' || c === ')') && (sign > 0 || saw)) return [j + 1 - i, c === ':', n];
    else return null;
  }
  return null;
}

/* Go's repeatIsValid: at most 1000 copies of the innermost thing of
 * nested counted repeats ("(a{100}){20}" is an invalid repeat count).
 * cur: the last atom's product of counts, prod: the largest before it. */
function pcolRxCount(st, min, max) {
  var f = max === 0 ? 0 : max < 0 ? (min || 1) : max;
  if ((min >= 2 || max >= 2) && f && f * st.cur > 1000) throw new Error('invalid repeat count');
  st.cur *= f;
}

export function pcolGoRegExp(text) {
  var s = String(text), i = 0, out = '', flags = 'u', m, fold = false;
  /* the flags: JavaScript's i flag is the whole expression's, so (?i) must
   * be at the start (before anything but other flag groups) and stay; s
   * and m are Go's, scoped to the group, in the forms of . ^ $ below */
  var f = { i: false, m: false, s: false }, stack = [];
  while (s[i] === '(' && s[i + 1] === '?' && (m = pcolRxFlags(s, i, f)) && !m[1]) { f = m[2]; i += m[0]; }
  fold = f.i;
  if (fold) flags += 'i';
  var depth = 0, atomEnd = false, st = { cur: 1, prod: 1 }, at = 0, repEnd = -1;
  var next = function () { if (st.cur > st.prod) st.prod = st.cur; st.cur = 1; at = out.length; };
  while (i < s.length) {
    var c = s[i], r;
    if (c === '(' && s[i + 1] === '?' && s[i + 2] !== ':' && s[i + 2] !== 'P') {
      m = pcolRxFlags(s, i, f);
      if (!m) throw new Error('invalid or unsupported Perl syntax ' + s.slice(i, i + 3));
      if (m[2].i !== fold) throw new Error('(?i) past the start is not supported here');
      if (!m[1]) { /* (?s): no atom; a repeat after it repeats the repeat before ("a*(?s)*") */
        f = m[2]; i += m[0];
        if (repEnd === out.length) { out = out.slice(0, at) + '(?:' + out.slice(at) + ')'; atomEnd = true; }
        continue;
      }
      next();
      stack.push([f, st, at]); f = m[2]; st = { cur: 1, prod: 1 };
      out += '(?:'; i += m[0]; depth++; atomEnd = false;
      continue;
    }
    if ('*+?{'.indexOf(c) < 0) next();
    if (c === '\\') {
      if (s[i + 1] === 'Q') { /* literal text up to \E */
        var e = s.indexOf('\\E', i + 2), lit = e < 0 ? s.slice(i + 2) : s.slice(i + 2, e);
        for (var k = 0; k < lit.length;) { r = pcolRxLiteral(lit, k); out += r[0]; k = r[1]; }
        i = e < 0 ? s.length : e + 2;
        atomEnd = lit.length > 0;
        continue;
      }
      if (s[i + 1] === 'C') throw new Error('\\C is not supported');
      r = pcolRxEscape(s, i, false, fold);
      out += r[0]; i = r[1]; atomEnd = true;
      continue;
    }
    if (c === '[') { /* brackets: members copied, ] first is a member */
      var j = i + 1, cls = '[';
      if (s[j] === '^') { cls += '^'; j++; }
      var first = true, single = false; /* single: the last member is one character a '-' may follow */
      for (;;) {
        if (j >= s.length) throw new Error('missing closing ]');
        var d = s[j];
        if (d === ']' && !first) { j++; break; }
        first = false;
        if (d === '[' && s[j + 1] === ':') {
          var pm = /^\[:(\^?)([a-z]+):\]/.exec(s.slice(j));
          if (pm) {
            if (!PCOL_RX_POSIX[pm[2]]) throw new Error('invalid character class range ' + pm[0]);
            cls += pm[1] ? pcolRxNegated(PCOL_RX_POSIX[pm[2]], fold) : PCOL_RX_POSIX[pm[2]]; j += pm[0].length; single = false;
            continue;
          }
        }
        /* Go: a '-' after a character and before one other than ']' makes
         * a range; any other '-' is itself ("[\d-z]", "[a-c-e]") */
        var range = single && d === '-' && j + 1 < s.length && s[j + 1] !== ']';
        if (range) { cls += '-'; j++; d = s[j]; }
        if (d === '\\') {
          r = pcolRxEscape(s, j, true, fold);
          single = !range && 'dDwWsSpP'.indexOf(s[j + 1]) < 0;
          cls += r[0]; j = r[1];
          continue;
        }
        r = d === '-' ? ['\\x2d', j + 1] : pcolRxLiteral(s, j); cls += r[0]; j = r[1]; single = !range;
      }
      out += cls + ']'; i = j; atomEnd = true;
      continue;
    }
    if (c === '(') {
      if (s[i + 1] === '?') {
        var g = /^\(\?(?:P<([A-Za-z0-9_]+)>|:)/.exec(s.slice(i));
        if (!g) throw new Error('invalid or unsupported Perl syntax ' + s.slice(i, i + 3));
        out += '(?:'; i += g[0].length;
      } else {
        out += '('; i++;
      }
      stack.push([f, st, at]); st = { cur: 1, prod: 1 };
      depth++; atomEnd = false;
      continue;
    }
    if (c === ')') {
      if (!depth--) throw new Error('unexpected )');
      var inner = st.prod, top = stack.pop();
      f = top[0]; st = top[1]; at = top[2]; st.cur = inner;
      out += ')'; i++; atomEnd = true;
      continue;
    }
    if (c === '{') { /* a repeat {n}, {n,}, {n,m} after an atom, else a literal brace */
      var rep = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i));
      if (rep && (/^0\d/.test(rep[1]) || /^0\d/.test(rep[3] || ''))) rep = null; /* Go: a leading zero is text */
      if (rep && atomEnd) {
        if (+rep[1] > 1000 || (rep[3] && +rep[3] > 1000)) throw new Error('invalid repeat count');
        if (rep[3] && +rep[3] < +rep[1]) throw new Error('invalid repeat count');
        pcolRxCount(st, +rep[1], rep[2] ? (rep[3] ? +rep[3] : -1) : +rep[1]);
        out += rep[0]; i += rep[0].length; atomEnd = false;
        if (s[i] === '?') { out += '?'; i++; }
        repEnd = out.length;
        continue;
      }
      if (rep) throw new Error('missing argument to repetition operator');
      next();
      out += '\\{'; i++; atomEnd = true;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      if (!atomEnd) throw new Error('missing argument to repetition operator');
      out += c; i++; atomEnd = false;
      if (s[i] === '?') { out += '?'; i++; }
      if (s[i] === '*' || s[i] === '+' || s[i] === '?') throw new Error('invalid nested repetition operator');
      repEnd = out.length;
      continue;
    }
    if (c === '|') { out += '|'; i++; atomEnd = false; continue; }
    /* (?m): Go's lines end at \n only (JavaScript's m flag also ends them
     * at \r, U+2028 and U+2029); \A and \z stay the text's ends */
    if (c === '^') { out += f.m ? '(?:^|(?<=\\n))' : '(?:^)'; i++; atomEnd = true; continue; }
    if (c === '$') { out += f.m ? '(?:$|(?=\\n))' : '(?:$)'; i++; atomEnd = true; continue; }
    /* Go's . leaves out \n only; JavaScript's also \r, U+2028, U+2029 */
    if (c === '.') { out += f.s ? '[^]' : '[^\\n]'; i++; atomEnd = true; continue; }
    r = pcolRxLiteral(s, i); out += r[0]; i = r[1]; atomEnd = true;
  }
  if (depth) throw new Error('missing closing )');
  return new RegExp(out, flags);
}
