#!/usr/bin/env bash
# CLI: strings from a file never become markup (issue 28 finding 1).  A
# pprof profile whose every string (function, system and file names,
# mapping file and build id, value types and units, period type and unit,
# label keys, values and units, comments) holds  x"/><script>alert(1)
# </script><g a="  with  & < ' , packed from an input whose name (the
# source's uri) holds markup too, goes through every page writer: flame
# (plain, --diff, --inverted), report and report --diff.  Each SVG must be
# well-formed XML (python3 xml.etree) whose only elements are the writer's
# own (three scripts, no <g a=...>); each HTML page must have the template's
# script elements only, no raw "<script>alert" anywhere, and the hostile
# text must sit, decoded, in its JSON data.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")/../support" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_markup: FAIL: $*" >&2; exit 1; }

python3 "$here/pprofgen.py" strings "$tmp/h.pb" "x\"/><script>alert(1)</script><g a=\"&<'" || fail "pprofgen.py"
python3 "$here/pprofgen.py" strings "$tmp/b.pb" "benign" || fail "pprofgen.py"
src="$tmp/src\"><script>alert(2)<&'.pb" # no '/' in a file name
cp "$tmp/h.pb" "$src"
"$PCOL" pack "$src" -o "$tmp/h.pcol" || fail "pack"
"$PCOL" flame "$tmp/h.pcol" -o "$tmp/plain.svg" || fail "flame"
"$PCOL" flame "$tmp/h.pcol" --inverted -o "$tmp/inverted.svg" || fail "flame --inverted"
"$PCOL" flame "$tmp/h.pcol" --diff "$tmp/h.pb" -o "$tmp/diff.svg" || fail "flame --diff"
"$PCOL" flame "$tmp/b.pb" -o "$tmp/benign.svg" || fail "flame benign"
"$PCOL" report "$tmp/h.pcol" -o "$tmp/plain.html" || fail "report"
"$PCOL" report "$tmp/h.pcol" --diff "$tmp/h.pb" -o "$tmp/diff.html" || fail "report --diff"
"$PCOL" report "$tmp/b.pb" -o "$tmp/benign.html" || fail "report benign"

python3 - "$tmp" <<'PY' || exit 1
import html.parser, json, os, re, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
bad = []
NS = "{http://www.w3.org/2000/svg}"

def svg_tags(f):
    t = ET.parse(os.path.join(d, f))
    tags, attrs = {}, set()
    for e in t.iter():
        tags[e.tag] = tags.get(e.tag, 0) + 1
        attrs.update(e.attrib)
    return tags, attrs, t

btags, battrs, _ = svg_tags("benign.svg")
for f in ("plain.svg", "inverted.svg", "diff.svg"):
    try:
        tags, attrs, t = svg_tags(f)
    except ET.ParseError as e:
        bad.append("%s: not well-formed XML: %s" % (f, e))
        continue
    if tags.get(NS + "script") != 3:  # the constants, regex.js (its search: Go regex syntax), the script
        bad.append("%s: %s script elements, want 3" % (f, tags.get(NS + "script")))
    if set(tags) - set(btags):
        bad.append("%s: elements a benign graph does not have: %s" % (f, set(tags) - set(btags)))
    if "a" in attrs:
        bad.append("%s: an injected attribute" % f)
    # the hostile text is there, as text: each frame's name and value in its
    # title (the hover's text; review 22 F11: each name once)
    titles = [g.find(NS + "title").text or "" for g in t.iter(NS + "g") if g.find(NS + "title") is not None]
    if not any("x\"/><script>alert(1)</script><g a=\"&<'\u2069 (" in n for n in titles):
        bad.append("%s: the hostile name is not in a title" % f)
    if not any("unitx\"/><script>" in n for n in titles):
        bad.append("%s: the hostile unit is not in a title" % f)

class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []
    def handle_starttag(self, tag, a):
        self.tags.append((tag, tuple(k for k, _ in a)))

def page(f):
    text = open(os.path.join(d, f), encoding="utf-8").read()
    p = Tags()
    p.feed(text)
    return text, p.tags

btext, btags_h = page("benign.html")
for f in ("plain.html", "diff.html"):
    text, tags = page(f)
    if sorted(set(tags)) != sorted(set(btags_h)) or len(tags) != len(btags_h):
        extra = [t for t in tags if t not in btags_h]
        bad.append("%s: elements differ from a benign report: %s" % (f, extra[:5] or len(tags)))
    for raw in ("<script>alert", "<g a=", "alert(2)<"):
        if raw in text:
            bad.append("%s: raw %r in the page" % (f, raw))
    m = re.search(r'<script id="pcol-meta" type="application/json">(.*?)</script>', text, re.S)
    if not m:
        bad.append("%s: no data" % f)
        continue
    meta = json.dumps(json.loads(m.group(1)))
    for want in ("x\\\"/><script>alert(1)</script><g a=\\\"&<'", "<script>alert(2)<&'"):
        if want not in meta:
            bad.append("%s: %r not in the page's data" % (f, want))
for b in bad:
    print("t_markup: FAIL:", b)
sys.exit(1 if bad else 0)
PY
echo "t_markup: ok"
