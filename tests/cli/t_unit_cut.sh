#!/usr/bin/env bash
# CLI: a unit of no family longer than 31 bytes is cut at a whole character
# (THE cut rule, lib/core/utf8.c pcol_utf8_cut), the same in pcol flame's
# hovers, pcol top's header and the report page (units.js pcolUtf8Cut).
# Profiles from tests/support/pprofgen.py unit (the default value type's
# unit "unit" + TEXT, values summing to 144) whose 31st byte falls inside a
# 2-, 3- and 4-byte character, one with broken sequences and one with a
# NUL.  Checked against the rule computed here from the file's bytes
# (Python's strict UTF-8 decoder says what a character is): the SVG is
# valid UTF-8 and its "all" hover is "all (144" + the cut unit + ", 100.00%)"
# (a broken byte and NUL as '?', svg.c's rule for names); the page's
# pcolUnitLabelAlone (node, on the unit the page's data holds) is the same
# text (its U+FFFD for a broken byte and NUL as '?'); pcol top's total is
# "144" + the cut unit by the text rule (a broken byte as \xNN; the escaped
# unit, too, at most 31 bytes of whole pieces: cli_view_unit).  Node
# missing: the page's part is skipped, said so.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_unit_cut: FAIL: $*" >&2; exit 1; }
command -v node >/dev/null && node=1 || { node=0; echo "t_unit_cut: node not installed: the page's labels are not checked" >&2; }

PCOL="$PCOL" HERE="$here" TMP="$tmp" NODE=$node python3 - <<'PY' || fail "see above"
import html, json, os, re, subprocess, sys

pcol, here, tmp = os.environ["PCOL"], os.environ["HERE"], os.environ["TMP"]
texts = [
    "xx" + "\\xc2\\xb5s" * 12,                        # µs: byte 31 inside a µ
    "x" + "\\xe4\\xb8\\xad\\xe6\\x96\\x87" * 6,          # 中文: inside a 中
    "xx" + "\\xf0\\x9f\\x98\\x80" * 8,                 # an emoji (a surrogate pair in JS)
    "x\\xe4\\xb8\\xff" + "\\xe4\\xb8\\xad" * 10,         # a broken sequence and byte, each one byte
    "x\\x00" + "\\xc2\\xb5s" * 14,                     # NUL
]

def cut(raw, mx=31):  # the rule, by Python's strict decoder: whole characters, a broken byte alone
    i = 0
    while i < len(raw):
        n = next((k for k in (1, 2, 3, 4) if len(raw[i:i + k]) == k and ok(raw[i:i + k])), 1)
        if i + n > mx:
            break
        i += n
    return raw[:i]

def ok(b):
    try:
        return len(b.decode("utf-8")) == 1
    except UnicodeDecodeError:
        return False

def chars(raw, bad, mx=None):  # raw shown: characters as they are, a broken byte by bad(byte),
    out, i = "", 0             # NUL '?'; at most mx bytes of whole pieces
    while i < len(raw):
        n = next((k for k in (1, 2, 3, 4) if len(raw[i:i + k]) == k and ok(raw[i:i + k])), 0)
        if raw[i] == 0:
            p = "?"; i += 1
        elif n:
            p = raw[i:i + n].decode(); i += n
        else:
            p = bad(raw[i]); i += 1
        if mx is not None and len((out + p).encode()) > mx:
            break
        out += p
    return out

def run(*a):
    return subprocess.run([pcol, *a], check=True, capture_output=True).stdout

bad = 0
for k, t in enumerate(texts):
    pb = f"{tmp}/u{k}.pb"
    subprocess.run([sys.executable, f"{here}/support/pprofgen.py", "unit", pb, t], check=True)
    raw = b"unit" + t.encode("latin-1").decode("unicode_escape").encode("latin-1")
    c = cut(raw)
    assert len(c) <= 31 and len(c) < len(raw), (k, c)
    svgb = run("flame", pb, "-o", "-")
    try:
        svg = svgb.decode("utf-8")
    except UnicodeDecodeError as e:
        print(f"case {k}: pcol flame's SVG is not valid UTF-8: {e}"); bad += 1; continue
    titles = [html.unescape(m) for m in re.findall(r"<title>([^<]*)</title>", svg)]
    shown = chars(c, lambda b: "?")
    want = "\u2068all\u2069 (144" + shown + ", 100.00%)"  # the name isolated (FSI, PDI)
    if want not in titles:
        print(f"case {k}: pcol flame's hover {titles[:1]}, want {want!r}"); bad += 1
    top = run("top", pb).decode("utf-8")
    tw = "144" + chars(c, lambda b: "\\x%02x" % b, 31)  # escaped into the view's 32-byte unit
    if f"of {tw} total" not in top:
        print(f"case {k}: pcol top says {[l for l in top.splitlines() if 'total' in l]}, want total {tw!r}"); bad += 1
    if os.environ["NODE"] == "1":
        page = run("report", pb, "-o", "-").decode("utf-8")
        meta = json.loads(re.search(r'<script id="pcol-meta" type="application/json">(.*?)</script>', page, re.S).group(1))
        unit = meta["values"][meta["value"]]["unit"]
        js = ("import(process.argv[1]).then((m) => process.stdout.write(m.pcolUnitLabelAlone(144, JSON.parse(process.argv[2]))))")
        got = subprocess.run(["node", "-e", js, f"{here}/../lib/query/report/units.js", json.dumps(unit)],
                             check=True, capture_output=True).stdout.decode("utf-8")
        if got.replace("\ufffd", "?") != "144" + shown:
            print(f"case {k}: the page's label {got!r}, pcol flame's {'144' + shown!r}"); bad += 1
        if b"\xff" not in raw and b"\x00" not in raw and got != "144" + shown:
            print(f"case {k}: the page's label {got!r} is not pcol flame's byte for byte"); bad += 1
print(f"t_unit_cut: {len(texts)} long units cut at a whole character by pcol flame, pcol top and the page"
      if not bad else f"t_unit_cut: {bad} differences", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
