/* svg.c — the flame graph as one self-contained SVG (drawing, colours,
 * the embedded zoom script).  The tree and the diff shares come from the
 * library (pcol_ftree_build, pcol_ftree_diff); this file only draws. */
#include "svg.h"
#include "cli.h"
#include "regex_js.h" /* pcol_regex_js: the page's Go-regex converter (lib/query/report/regex.js) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_H 16
#define PAD 10
#define TOP 50
#define BOTTOM 34
#define MATCH_FILL "rgb(230,0,230)" /* frames a search matched */

/* XML text and attribute values: escapes markup, keeps valid UTF-8,
 * replaces anything XML 1.0 cannot hold (control characters, broken
 * sequences) with '?'.  EVERY string that comes from a file (names, units,
 * titles made of them) goes through it.  A run of bytes that need nothing
 * goes out at once (a 10,000-character name was 10,000 calls). */
static void xml_text(FILE *fp, const char *p, size_t n) {
  const unsigned char *s = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) {
    size_t from = i;
    while (i < n && s[i] >= 0x20 && s[i] < 0x7f && s[i] != '&' && s[i] != '<' && s[i] != '>' &&
           s[i] != '"' && s[i] != '\'')
      i++;
    if (i > from) fwrite_unlocked(s + from, 1, i - from, fp);
    if (i == n) break;
    unsigned c = s[i];
    if (c == '&') fputs("&amp;", fp);
    else if (c == '<') fputs("&lt;", fp);
    else if (c == '>') fputs("&gt;", fp);
    else if (c == '"') fputs("&quot;", fp);
    else if (c == '\'') fputs("&apos;", fp);
    else if (c < 0x20 || c == 0x7f) fputc('?', fp);
    else {
      size_t len = pcol_utf8_len(p + i, n - i);
      int ok = len > 0;
      if (ok && len == 3 && c == 0xef) ok = !(s[i + 1] == 0xbf && s[i + 2] >= 0xbe); /* XML has no U+FFFE, U+FFFF */
      if (ok) {
        fwrite_unlocked(s + i, 1, len, fp);
        i += len - 1;
      } else {
        fputc('?', fp);
      }
    }
  }
}

/* A name as people read it (review 22 F2), into *b (grown; *cap): the CLI's
 * text rule (pcol_text_char: control characters as \n, \x1b, bidi
 * controls as \x{202e}, bytes of no character as \xNN), XML-escaped after
 * (xml_text).  NULL when out of memory. */
static const char *shown(pcol_str name, char **b, size_t *cap, size_t *len) {
  size_t need = name.len * 8 + 1, o = 0; /* at most 8 bytes of text a byte (\x{202e} of 3) */
  if (need > *cap) {
    char *nb = realloc(*b, need);
    if (!nb) return NULL;
    *b = nb, *cap = need;
  }
  for (size_t i = 0; i < name.len;) o += pcol_text_char(name.ptr, name.len, &i, false, *b + o);
  *len = o;
  return *b;
}

/* Label widths (review 22 F7): what a character of a frame's label takes
 * at 12px, in tenths of a pixel, at least its advance in Verdana (the font
 * the SVG asks for) and in the fonts a browser takes for sans-serif
 * without it (DejaVu Sans, Arial, Helvetica), so that a label cut by them
 * fits its frame; they were 7 px each, and a W or an m is 11.9 or 11.7.
 * Printable ASCII a character each (the widest of those fonts' advances:
 * Verdana's and anafanafo's tables, string-pixel-width's, DejaVu Sans as
 * Chromium measures it); other characters by class (label_ranges, else
 * LABEL_OTHER, 1.1 em: the letters of Latin, Greek, Cyrillic, Hebrew and
 * Arabic but a few in these fonts).  The script's re-layout on zoom reads
 * these very tables (svg_flame_write writes them into it: CW, CWR,
 * CW_OTHER), so a label is cut alike before and after a zoom; and a label
 * sits in an <svg> of its frame's box, which clips what a font wider still
 * would draw past the frame, also where no script runs. */
static const unsigned char label_ascii[95] = {
    43, 49, 56, 101, 77, 130, 94, 33, 55, 55, 77, 101, 44, 55, 44, 55,   /*  !"#$%&'()*+,-./ */
    77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 55, 55, 101, 101, 101, 68,   /* 0-9 :;<=>? */
    123, 83, 83, 87, 93, 81, 74, 94, 91, 51, 60, 84, 68, 104, 90, 95,    /* @A-O */
    81, 95, 87, 83, 75, 88, 83, 119, 83, 81, 83, 55, 55, 55, 101, 77,    /* P-Z [\]^_ */
    77, 74, 77, 66, 77, 74, 43, 77, 77, 34, 42, 72, 34, 117, 77, 74,     /* `a-o */
    77, 77, 52, 63, 48, 77, 72, 99, 72, 72, 64, 77, 55, 77, 101};       /* p-z {|}~ */
#define LABEL_OTHER 132
/* {first, last, width}: combining marks and zero-width characters 0; East
 * Asian wide and fullwidth characters and emoji 1.5 em (a CJK font's 1 em,
 * Noto Color Emoji's 1.25 em); a few wider than LABEL_OTHER in those fonts
 * (DŽ, Arabic seen, ‰, letterlike symbols, Roman numerals, Arabic
 * ligatures) 2 em. */
static const uint32_t label_ranges[][3] = {
    {0x0300, 0x036f, 0},     {0x0483, 0x0489, 0},     {0x0591, 0x05bd, 0},     {0x0610, 0x061a, 0},
    {0x064b, 0x065f, 0},     {0x1ab0, 0x1aff, 0},     {0x1dc0, 0x1dff, 0},     {0x200b, 0x200d, 0},
    {0x2060, 0x2064, 0},     {0x20d0, 0x20ff, 0},     {0xfe00, 0xfe0f, 0},     {0xfe20, 0xfe2f, 0},
    {0xfeff, 0xfeff, 0},     {0xe0100, 0xe01ef, 0},   {0x01c4, 0x01cc, 240},   {0x01f1, 0x01f3, 240},
    {0x0460, 0x047f, 240},   {0x0633, 0x0636, 240},   {0x069a, 0x069e, 240},   {0x2030, 0x2031, 240},
    {0x2100, 0x218f, 240},   {0xfdf0, 0xfdff, 240},   {0x1100, 0x115f, 180},   {0x231a, 0x231b, 180},
    {0x2329, 0x232a, 180},   {0x23e9, 0x23f3, 180},   {0x25fd, 0x25fe, 180},   {0x2600, 0x27bf, 180},
    {0x2b1b, 0x2b55, 180},   {0x2e80, 0x303e, 180},   {0x3041, 0x33ff, 180},   {0x3400, 0x4dbf, 180},
    {0x4e00, 0x9fff, 180},   {0xa000, 0xa4cf, 180},   {0xa960, 0xa97f, 180},   {0xac00, 0xd7a3, 180},
    {0xf900, 0xfaff, 180},   {0xfe10, 0xfe19, 180},   {0xfe30, 0xfe6f, 180},   {0xff00, 0xff60, 180},
    {0xffe0, 0xffe6, 180},   {0x16fe0, 0x18aff, 180}, {0x1b000, 0x1b2ff, 180}, {0x1f000, 0x1faff, 180},
    {0x20000, 0x3fffd, 180}};
#define LABEL_NRANGES (sizeof label_ranges / sizeof label_ranges[0])

/* a character's label width (tenths of a pixel); one xml_text writes as
 * '?' (a control character, U+FFFE, U+FFFF) as '?' */
static unsigned label_w(uint32_t c) {
  if (c < 0x20 || c == 0x7f || c == 0xfffe || c == 0xffff) c = '?';
  if (c < 0x7f) return label_ascii[c - 0x20];
  for (size_t i = 0; i < LABEL_NRANGES; i++)
    if (c >= label_ranges[i][0] && c <= label_ranges[i][1]) return label_ranges[i][2];
  return LABEL_OTHER;
}

/* The code point at s[*i] (well-formed UTF-8, as the text rule writes),
 * *i moved past it; a byte of none as itself. */
static uint32_t utf8_next(const char *p, size_t n, size_t *i) {
  const unsigned char *s = (const unsigned char *)p + *i;
  size_t len = pcol_utf8_len(p + *i, n - *i);
  if (len <= 1) {
    *i += 1;
    return s[0];
  }
  uint32_t c = s[0] & (0x7f >> len);
  for (size_t k = 1; k < len; k++) c = (c << 6) | (s[k] & 0x3f);
  *i += len;
  return c;
}

/* THE label rule (the script's label() is its copy, over the same
 * tables): the label of a frame w pixels wide, 3 px of room each side, is
 * the name shown s[0..n) when it fits, else its longest start that fits
 * with "..", else nothing.  Returns the bytes of s the label holds; *dots
 * says whether ".." follows. */
static size_t label_fit(const char *s, size_t n, double w, int *dots) {
  const double lim = (w - 6) * 10;
  const unsigned dw = 2 * label_ascii['.' - 0x20];
  unsigned long sum = 0;
  size_t cut = 0;
  *dots = 0;
  for (size_t i = 0; i < n;) {
    unsigned cw = label_w(utf8_next(s, n, &i));
    if ((double)(sum + cw + dw) <= lim) cut = i;
    sum += cw;
    if ((double)sum > lim) {
      *dots = cut > 0;
      return cut;
    }
  }
  return n;
}

static uint32_t hash_name(pcol_str s) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < s.len; i++) h = (h ^ (unsigned char)s.ptr[i]) * 16777619u;
  return h;
}

typedef struct flame {
  FILE *fp;
  const pcol_ftree *t;
  double width;       /* drawable pixels */
  double root;        /* root total (> 0) */
  int height;         /* image height */
  const double *delta; /* diff mode: change of share per node, else NULL */
  double maxdelta;
  const double *base_share;
  int inverted;
  int palette; /* index in svg_palettes */
  double ratio; /* svg_flame_opts.ratio */
  char *sb;     /* a name shown (shown()), and its room */
  size_t scap;
} flame;

const char *const svg_palettes[] = {"hot", "mem", "io", "red", "green", "blue", "aqua",
                                    "yellow", "purple", "orange", NULL};

static void colour(const flame *fl, uint32_t n, int *r, int *g, int *b) {
  if (fl->delta) {
    double i = fl->maxdelta > 0 ? fabs(fl->delta[n]) / fl->maxdelta : 0;
    int v = (int)lround(255 * (1 - i));
    if (fl->delta[n] > 0) *r = 255, *g = v, *b = v;
    else *r = v, *g = v, *b = 255;
    return;
  }
  /* flamegraph.pl's palettes, stable per name */
  uint32_t h = hash_name(fl->t->name[n]);
  double v1 = (h & 0xff) / 255.0, v2 = ((h >> 8) & 0xff) / 255.0, v3 = ((h >> 16) & 0xff) / 255.0;
  switch (fl->palette) {
  case 1: *r = 0, *g = 190 + (int)(50 * v2), *b = (int)(210 * v1); break;                      /* mem */
  case 2: *r = *g = 80 + (int)(60 * v1), *b = 190 + (int)(55 * v2); break;                     /* io */
  case 3: *r = 200 + (int)(55 * v1), *g = *b = 50 + (int)(80 * v1); break;                     /* red */
  case 4: *g = 200 + (int)(55 * v1), *r = *b = 50 + (int)(60 * v1); break;                     /* green */
  case 5: *b = 205 + (int)(50 * v1), *r = *g = 80 + (int)(60 * v1); break;                     /* blue */
  case 6: *r = 50 + (int)(60 * v1), *g = *b = 165 + (int)(55 * v1); break;                     /* aqua */
  case 7: *r = *g = 175 + (int)(55 * v1), *b = 50 + (int)(20 * v1); break;                     /* yellow */
  case 8: *r = *b = 190 + (int)(65 * v1), *g = 80 + (int)(60 * v1); break;                     /* purple */
  case 9: *r = 190 + (int)(65 * v1), *g = 90 + (int)(65 * v1), *b = 0; break;                  /* orange */
  default: *r = 205 + (int)(50 * v3), *g = (int)(230 * v1), *b = (int)(55 * v2); break;       /* hot */
  }
}

/* a frame's value, each in its own unit (pcol_unit_label_alone: "1.23s",
 * "12" of a count, as go tool pprof -http's flame graph labels them) */
static void amount(const flame *fl, pcol_sum v, char *b, size_t n) {
  v = pcol_unit_ratio(v, fl->ratio); /* --divide-by; the widths and shares stay */
  pcol_unit_label_alone(v, fl->t->value.unit, b, n);
}

/* svg.h: the base of every share the graph shows */
pcol_sum svg_share_base(const pcol_ftree *t) { return t->total_abs; }

/* data-p/data-e: the frame's preorder number among drawn frames and the
 * last one of its subtree.  Zoom decides who is an ancestor or a
 * descendant with these integers, exactly; x and w only place frames
 * (comparing rounded fractions lost frames: a child's x + w came out 1e-9
 * past its parent's). */
static int frame(flame *fl, uint32_t n, double x, double w, uint32_t pre, uint32_t end) {
  const pcol_ftree *t = fl->t;
  FILE *fp = fl->fp;
  pcol_str name = n ? t->name[n] : (pcol_str){"all", 3};
  size_t slen;
  const char *sn = shown(name, &fl->sb, &fl->scap, &slen);
  if (!sn) return PCOL_ENOMEM;
  double y = fl->inverted ? TOP + (double)t->depth[n] * FRAME_H
                          : fl->height - BOTTOM - (t->depth[n] + 1) * FRAME_H;
  double share = pcol_share(t->total[n], svg_share_base(t));
  char am[96], dv[48];
  amount(fl, t->total[n], am, sizeof am);
  pcol_sum_text(t->total[n], dv, sizeof dv);
  int r, g, b;
  colour(fl, n, &r, &g, &b);
  fprintf(fp, "<g data-x=\"%.9f\" data-w=\"%.9f\" data-d=\"%u\" data-p=\"%u\" data-e=\"%u\" data-v=\"%s\"",
          (x - PAD) / fl->width, w / fl->width, t->depth[n], pre, end, dv);
  /* each name once (review 22 F11): the title shows it, and the hover, the
   * zoom's labels and the search read it there; data-name only when the
   * name shown is not the name (the text rule wrote an ESC as \x1b, an
   * RLO as \x{202e}), for the search, which reads the name itself */
  if (slen != name.len || memcmp(sn, name.ptr, slen)) {
    fputs(" data-name=\"", fp);
    xml_text(fp, name.ptr, name.len);
    fputc('"', fp);
  }
  /* the title (a viewer's tooltip, and the hover): the name shown,
   * isolated (its bidi cannot reorder the numbers after it), as the
   * report's (units.js pcolIso) */
  fputs("><title>" CLI_FSI, fp);
  xml_text(fp, sn, slen);
  fputs(CLI_PDI " (", fp);
  xml_text(fp, am, strlen(am)); /* holds the file's unit */
  fprintf(fp, ", %.2f%%", share);
  if (fl->delta)
    fprintf(fp, "; base %.2f%%, change %+.2f points", fl->base_share[n], fl->delta[n]);
  fprintf(fp, ")</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>",
          x, y, w, FRAME_H - 1, r, g, b);
  int dots;
  size_t k = label_fit(sn, slen, w, &dots);
  if (k) { /* in a box of the frame's: nothing drawn past it (label_fit) */
    fprintf(fp, "<svg x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\"><text x=\"3\" y=\"11.5\">", x, y, w,
            FRAME_H - 1);
    xml_text(fp, sn, k);
    fputs(dots ? "..</text></svg>" : "</text></svg>", fp);
  }
  fputs("</g>\n", fp);
  return PCOL_OK;
}

/* A frame's markup without its name (the <g>, data-*, <title>, <rect> of
 * frame() with the shortest numbers, no label) is at least 200 bytes. */
#define SVG_FRAME_MIN_BYTES 200

static const char *SCRIPT =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "var details, frames, unzoom;\n"
    "function init(evt) {\n"
    "  details = document.getElementById('details').firstChild;\n"
    "  unzoom = document.getElementById('unzoom');\n"
    "  frames = document.getElementById('frames').getElementsByTagName('g');\n"
    "  for (var i = 0; i < frames.length; i++) {\n"
    "    var g = frames[i];\n"
    "    g.addEventListener('mouseover', function () { details.nodeValue = this.getElementsByTagName('title')[0].textContent; });\n"
    "    g.addEventListener('mouseout', function () { details.nodeValue = ' '; });\n"
    "    g.addEventListener('click', function () { zoom(this); });\n"
    "  }\n"
    "  unzoom.addEventListener('click', function () { zoom(null); });\n"
    "  searchbtn = document.getElementById('search');\n"
    "  matchedtxt = document.getElementById('matched').firstChild;\n"
    "  searchbtn.addEventListener('click', function () { if (searching) search(null); else ask(); });\n"
    "  window.addEventListener('keydown', function (e) {\n"
    "    if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F' || e.keyCode === 70)) { e.preventDefault(); ask(); }\n"
    "    else if (e.key === 'Escape') search(null);\n"
    "  });\n"
    "}\n"
    "var searchbtn, matchedtxt, searching = null;\n"
    "function ask() {\n"
    "  var t = window.prompt('Search frames (regular expression):', searching || '');\n"
    "  if (t) search(t);\n"
    "}\n"
    "/* Highlights the frames whose name matches re (null: resets) and shows\n"
    "   the share of the total under a matched frame, each counted once:\n"
    "   frames are in preorder, so a match inside the previous counted\n"
    "   match's subtree (data-p .. data-e) adds nothing.  The share is of\n"
    "   TOTAL, the hover's base (pprof's total), not of the root's value\n"
    "   (less under a filter).  Returns the share in percent (-1 for a bad\n"
    "   expression, said in the matched text).  re is Go's syntax (RE2), as\n"
    "   pcol's options and the report page read it: the page's converter,\n"
    "   pcolGoRegExp (regex.js), is in the script above. */\n"
    "function search(re) {\n"
    "  var rx = null;\n"
    "  if (!frames.length) return 0;\n"
    "  if (re) { try { rx = pcolGoRegExp(re); } catch (err) {\n"
    "    matchedtxt.nodeValue = 'bad regular expression: ' + err.message; return -1; } }\n"
    "  var sum = 0, end = -1;\n"
    "  for (var i = 0; i < frames.length; i++) {\n"
    "    var g = frames[i], r = g.getElementsByTagName('rect')[0];\n"
    "    if (!g.hasAttribute('data-fill')) g.setAttribute('data-fill', r.getAttribute('fill'));\n"
    "    if (rx && i > 0 && rx.test(searchName(g))) {\n"
    "      r.setAttribute('fill', MATCH_FILL);\n"
    "      if (num(g, 'data-p') > end) { sum += num(g, 'data-v'); end = num(g, 'data-e'); }\n"
    "    } else r.setAttribute('fill', g.getAttribute('data-fill'));\n"
    "  }\n"
    "  var pct = rx && TOTAL ? 100 * sum / TOTAL : 0;\n"
    "  searching = rx ? re : null;\n"
    "  searchbtn.firstChild.nodeValue = rx ? 'Reset Search' : 'Search';\n"
    "  matchedtxt.nodeValue = rx ? 'Matched: ' + pct.toFixed(2) + '%' : ' ';\n"
    "  return pct;\n"
    "}\n"
    "function num(g, a) { return parseFloat(g.getAttribute(a)); }\n"
    "/* a frame's name as shown (an ESC as \\x1b), from its title: FSI, the\n"
    "   name, PDI, ' (value, share)' (the name holds no PDI: the text rule\n"
    "   writes one as \\x{2069}) */\n"
    "function shownName(g) {\n"
    "  var ti = g.getElementsByTagName('title')[0].textContent;\n"
    "  return ti.substring(1, ti.indexOf('\\u2069'));\n"
    "}\n"
    "/* the name the search reads: data-name, where the name shown is not it */\n"
    "function searchName(g) { return g.hasAttribute('data-name') ? g.getAttribute('data-name') : shownName(g); }\n"
    "/* svg.c label_w and label_fit, over its tables (CW, CWR, CW_OTHER) */\n"
    "function labelW(c) {\n"
    "  if (c < 0x7f) return CW[c - 0x20];\n"
    "  for (var i = 0; i < CWR.length; i += 3) if (c >= CWR[i] && c <= CWR[i + 1]) return CWR[i + 2];\n"
    "  return CW_OTHER;\n"
    "}\n"
    "function label(s, w) {\n"
    "  var lim = (w - 6) * 10, dw = 2 * CW[0x2e - 0x20], sum = 0, cut = 0;\n"
    "  for (var i = 0; i < s.length;) {\n"
    "    var c = s.codePointAt(i), cw = labelW(c);\n"
    "    i += c > 0xffff ? 2 : 1;\n"
    "    if (sum + cw + dw <= lim) cut = i;\n"
    "    sum += cw;\n"
    "    if (sum > lim) return cut > 0 ? s.substring(0, cut) + '..' : '';\n"
    "  }\n"
    "  return s;\n"
    "}\n"
    "function place(g, x, w, dim) {\n"
    "  var r = g.getElementsByTagName('rect')[0], b = g.getElementsByTagName('svg')[0];\n"
    "  r.setAttribute('x', x); r.setAttribute('width', w);\n"
    "  var l = label(shownName(g), w);\n"
    "  if (l && !b) { /* a label's box, as svg.c writes one */\n"
    "    b = document.createElementNS('http://www.w3.org/2000/svg', 'svg');\n"
    "    b.setAttribute('y', r.getAttribute('y')); b.setAttribute('height', r.getAttribute('height'));\n"
    "    var t = document.createElementNS('http://www.w3.org/2000/svg', 'text');\n"
    "    t.setAttribute('x', 3); t.setAttribute('y', 11.5);\n"
    "    b.appendChild(t); g.appendChild(b);\n"
    "  }\n"
    "  if (b) { b.setAttribute('x', x); b.setAttribute('width', w); b.firstChild.textContent = l; }\n"
    "  g.style.opacity = dim ? 0.5 : 1; g.style.display = '';\n"
    "}\n"
    "function zoom(z) {\n"
    "  var zx = z ? num(z, 'data-x') : 0, zw = z ? num(z, 'data-w') : 1;\n"
    "  var zp = z ? num(z, 'data-p') : 0, ze = z ? num(z, 'data-e') : frames.length - 1;\n"
    "  for (var i = 0; i < frames.length; i++) {\n"
    "    var g = frames[i], x = num(g, 'data-x'), w = num(g, 'data-w');\n"
    "    var p = num(g, 'data-p'), e = num(g, 'data-e');\n"
    "    if (p < zp && e >= ze) place(g, PAD, SPAN, true); /* an ancestor: whole width, dimmed */\n"
    "    else if (p >= zp && e <= ze) /* the frame or a descendant: every one stays */\n"
    "      place(g, PAD + (x - zx) / zw * SPAN, w / zw * SPAN, false);\n"
    "    else g.style.display = 'none';\n"
    "  }\n"
    "  unzoom.style.opacity = z ? 1 : 0;\n"
    "}\n"
    "]]></script>\n";

/* Depth-first layout; children sorted by name. */
static int cmp_child(const void *a, const void *b, void *ctx) {
  const pcol_ftree *t = ctx;
  pcol_str x = t->name[*(const uint32_t *)a], y = t->name[*(const uint32_t *)b];
  size_t n = x.len < y.len ? x.len : y.len;
  int c = n ? memcmp(x.ptr, y.ptr, n) : 0;
  return c ? c : x.len == y.len ? 0 : x.len < y.len ? -1 : 1;
}

int svg_flame_write(FILE *fp, const pcol_ftree *t, const svg_flame_opts *o, const double *delta,
                    const double *base_share) {
  uint32_t n = t->n;
  const double img_w = o->width, MIN_W = o->minwidth;
  const char *title = o->title, *subtitle = o->subtitle;
  /* children lists */
  uint32_t *koff = calloc((size_t)n + 1, sizeof *koff), *kids = malloc((size_t)n * sizeof *kids);
  uint32_t *stk = malloc((size_t)n * sizeof *stk);
  double *xs = malloc((size_t)n * sizeof *xs);
  uint32_t *pre = malloc((size_t)n * sizeof *pre), *order = malloc((size_t)n * sizeof *order);
  uint32_t *size = calloc((size_t)n + 1, sizeof *size);
  if (!koff || !kids || !stk || !xs || !pre || !order || !size) {
    free(koff);
    free(kids);
    free(stk);
    free(xs);
    free(pre);
    free(order);
    free(size);
    return PCOL_ENOMEM;
  }
  for (uint32_t i = 1; i < n; i++) koff[t->parent[i]]++;
  uint32_t acc = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t c = koff[i];
    koff[i] = acc;
    acc += c;
  }
  koff[n] = acc;
  {
    uint32_t *pos = malloc((size_t)n * sizeof *pos);
    if (!pos) {
      free(koff);
      free(kids);
      free(stk);
      free(xs);
      return PCOL_ENOMEM;
    }
    memcpy(pos, koff, (size_t)n * sizeof *pos);
    for (uint32_t i = 1; i < n; i++) kids[pos[t->parent[i]]++] = i;
    free(pos);
  }
  for (uint32_t i = 0; i < n; i++)
    if (koff[i + 1] - koff[i] > 1)
      qsort_r(kids + koff[i], koff[i + 1] - koff[i], sizeof *kids, cmp_child, (void *)t);

  flame fl = {0};
  fl.fp = fp;
  fl.t = t;
  fl.width = img_w - 2 * PAD;
  fl.root = t->total[0] > 0 ? (double)t->total[0] : 0;
  fl.delta = delta;
  fl.base_share = base_share;
  fl.inverted = o->inverted;
  fl.ratio = o->ratio;
  for (int i = 0; o->palette && svg_palettes[i]; i++)
    if (!strcmp(o->palette, svg_palettes[i])) fl.palette = i;
  if (delta)
    for (uint32_t i = 0; i < n; i++)
      if (fabs(delta[i]) > fl.maxdelta) fl.maxdelta = fabs(delta[i]);
  /* pass 1: which frames are drawn, and the deepest one */
  uint32_t maxd = 0, ndrawn = 0;
  uint64_t need = 0; /* bytes the frames will take at least: the output budget */
  size_t sp = 0;
  if (fl.root > 0) {
    xs[0] = PAD;
    stk[sp++] = 0;
    while (sp) {
      uint32_t v = stk[--sp];
      pre[v] = ndrawn;
      order[ndrawn++] = v;
      /* the least a frame writes: its markup, and its name (once: its title) */
      need += SVG_FRAME_MIN_BYTES + (uint64_t)(v ? t->name[v].len : 3);
      if (t->depth[v] > maxd) maxd = t->depth[v];
      double x = xs[v];
      for (uint32_t i = koff[v]; i < koff[v + 1]; i++) {
        uint32_t c = kids[i];
        if (t->total[c] <= 0) continue;
        double w = (double)t->total[c] / fl.root * fl.width;
        if (w >= MIN_W) {
          xs[c] = x;
          stk[sp++] = c;
        }
        x += w;
      }
    }
  }
  /* subtree sizes among drawn frames, children before parents */
  for (uint32_t k = ndrawn; k-- > 0;) {
    uint32_t v = order[k];
    size[v] += 1;
    if (k) size[t->parent[v]] += size[v];
  }
  fl.height = TOP + BOTTOM + (int)(maxd + 1) * FRAME_H;
  if (cli_budget_need(need)) { /* refused before a byte is written (outbudget.c) */
    free(koff);
    free(kids);
    free(stk);
    free(xs);
    free(pre);
    free(order);
    free(size);
    return PCOL_ETOOBIG;
  }
  fprintf(fp,
          "<?xml version=\"1.0\" standalone=\"no\"?>\n"
          "<svg version=\"1.1\" width=\"%.0f\" height=\"%d\" onload=\"init(evt)\" "
          "viewBox=\"0 0 %.0f %d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
          "<!-- Flame graph written by pcol " PCOL_VERSION_STRING " -->\n"
          "<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
          "<stop stop-color=\"#eeeeee\" offset=\"5%%\"/><stop stop-color=\"#eeeeb0\" offset=\"95%%\"/>"
          "</linearGradient></defs>\n"
          "<style type=\"text/css\">text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; }"
          " #frames g { cursor: pointer; } #frames g:hover rect { stroke: #000; stroke-width: 0.5; }"
          " #title { font-size: 17px; } #unzoom, #search { cursor: pointer; }</style>\n",
          img_w, fl.height, img_w, fl.height);
  char base[48];
  pcol_sum_text(svg_share_base(t), base, sizeof base);
  fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[ var PAD = %d, SPAN = %.2f, "
          "MIN_W = %.4f, MATCH_FILL = '" MATCH_FILL "', TOTAL = %s;\n",
          PAD, fl.width, MIN_W, base);
  /* the label widths, label_fit's (one table: the script's label() reads it) */
  fputs("var CW = [", fp);
  for (size_t i = 0; i < sizeof label_ascii; i++) fprintf(fp, "%s%u", i ? "," : "", label_ascii[i]);
  fprintf(fp, "], CW_OTHER = %u, CWR = [", LABEL_OTHER);
  for (size_t i = 0; i < LABEL_NRANGES; i++)
    fprintf(fp, "%s0x%x,0x%x,%u", i ? "," : "", (unsigned)label_ranges[i][0], (unsigned)label_ranges[i][1],
            (unsigned)label_ranges[i][2]);
  fputs("]; ]]></script>\n", fp);
  /* regex.js holds no "]]>" (the Makefile refuses one) */
  fputs("<script type=\"text/ecmascript\"><![CDATA[\n", fp);
  fwrite(pcol_regex_js, 1, pcol_regex_js_len, fp);
  fputs("]]></script>\n", fp);
  fputs(SCRIPT, fp);
  fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%d\" fill=\"url(#bg)\"/>\n", img_w,
          fl.height);
  fprintf(fp, "<text id=\"title\" x=\"%.1f\" y=\"24\" text-anchor=\"middle\">", img_w / 2);
  xml_text(fp, title, strlen(title));
  fputs("</text>\n", fp);
  if (subtitle) {
    fprintf(fp, "<text x=\"%.1f\" y=\"42\" text-anchor=\"middle\" fill=\"#555\">", img_w / 2);
    xml_text(fp, subtitle, strlen(subtitle));
    fputs("</text>\n", fp);
  }
  fprintf(fp, "<text id=\"unzoom\" x=\"%d\" y=\"24\" style=\"opacity:0\">Reset Zoom</text>\n", PAD);
  fprintf(fp, "<text id=\"search\" x=\"%.0f\" y=\"24\" text-anchor=\"end\">Search</text>\n",
          img_w - PAD);
  fprintf(fp, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", PAD, fl.height - 12);
  fprintf(fp, "<text id=\"matched\" x=\"%.0f\" y=\"%d\" text-anchor=\"end\"> </text>\n",
          img_w - PAD, fl.height - 12);
  fputs("<g id=\"frames\">\n", fp);
  int oom = 0;
  if (fl.root > 0) {
    /* pass 2: draw, parents before children */
    sp = 0;
    stk[sp++] = 0;
    while (sp && !ferror(fp)) { /* a refused write (the budget) stops the drawing */
      uint32_t v = stk[--sp];
      double w = v ? (double)t->total[v] / fl.root * fl.width : fl.width;
      if (frame(&fl, v, xs[v], w, pre[v], pre[v] + size[v] - 1)) {
        oom = 1;
        break;
      }
      /* the children drawn are those pass 1 placed */
      for (uint32_t i = koff[v]; i < koff[v + 1]; i++) {
        uint32_t c = kids[i];
        if (t->total[c] > 0 && (double)t->total[c] / fl.root * fl.width >= MIN_W) stk[sp++] = c;
      }
    }
  } else {
    fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">no samples to show</text>\n",
            img_w / 2, TOP + FRAME_H);
  }
  fputs("</g>\n</svg>\n", fp);
  free(fl.sb);
  free(koff);
  free(kids);
  free(stk);
  free(xs);
  free(pre);
  free(order);
  free(size);
  return oom ? PCOL_ENOMEM : ferror(fp) ? PCOL_EIO : PCOL_OK;
}
