#!/usr/bin/env bash
# pcol graph with hostile function names (generated here): quotes,
# backslashes, a control byte and invalid UTF-8 must not end a DOT string
# nor reach the output raw; graphviz (when installed) must accept the text.
# The same for hostile units of the value type (below).  An -o name
# *.svg/*.png chooses that format.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")/../support" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'main;evil"] N9 [label="x\\\\;ctl\001\377 5\nmain;ok 3\n' >"$tmp/in.txt"
"$PCOL" pack "$tmp/in.txt" -o "$tmp/in.pcol" >/dev/null 2>&1 || { echo "FAIL: pack"; exit 1; }
"$PCOL" graph "$tmp/in.pcol" -o "$tmp/g.dot" || { echo "FAIL: graph exit $?"; exit 1; }
fail=0
if LC_ALL=C grep -q $'[\001\377]' "$tmp/g.dot"; then echo "FAIL: raw control byte in DOT"; fail=1; fi
grep -q '^N9 ' "$tmp/g.dot" && { echo "FAIL: a name forged a node"; fail=1; }
grep -q 'evil\\"\] N9 \[label=\\"x' "$tmp/g.dot" || { echo "FAIL: quote not escaped"; fail=1; }
if command -v dot >/dev/null 2>&1; then
  dot -Tsvg "$tmp/g.dot" >/dev/null 2>"$tmp/dot.err" || { echo "FAIL: graphviz refused: $(cat "$tmp/dot.err")"; fail=1; }
  # -o NAME.svg / NAME.png without --format is the image its name says
  # (it was DOT text under an image's name); --format dot still wins
  "$PCOL" graph "$tmp/in.pcol" --format svg -o "$tmp/want.svg" &&
    "$PCOL" graph "$tmp/in.pcol" -o "$tmp/named.svg" && cmp -s "$tmp/want.svg" "$tmp/named.svg" ||
    { echo "FAIL: graph -o named.svg is not --format svg's output: $(head -c 40 "$tmp/named.svg")"; fail=1; }
  "$PCOL" graph "$tmp/in.pcol" -o "$tmp/named.PNG" && [ "$(head -c 4 "$tmp/named.PNG" | od -An -c | tr -d ' ')" = '211PNG' ] ||
    { echo "FAIL: graph -o named.PNG is not a PNG image"; fail=1; }
  "$PCOL" graph "$tmp/in.pcol" --format dot -o "$tmp/dot.svg" && head -1 "$tmp/dot.svg" | grep -q '^digraph' ||
    { echo "FAIL: graph --format dot -o dot.svg is not DOT"; fail=1; }
fi
# --format callgrind: a line-based format, every line one of its own forms
# (report.go printCallgrind) whatever the names hold; the hostile name
# whole on its fn= line, escaped by the text rule
callgrind_lines() { # FILE WHAT: each line of FILE is callgrind's
  python3 - "$1" "$2" <<'PY'
import re, sys
forms = re.compile(r'(positions: instr line|events: [^\x00-\x1f]*|'
                   r'(ob|fl|fn|cfl|cfn)=(\(\d+\)( [^\x00-\x08\x0a-\x1f\x7f]*)?)?|'
                   r'(0x[0-9a-f]+|\*|[-+]\d+) -?\d+ -?\d+|calls=0 (0x[0-9a-f]+|\*|[-+]\d+) -?\d+|'
                   r'\* \* -?\d+|)$')
b = open(sys.argv[1], 'rb').read()
bad = [l for l in b.decode('utf-8').split('\n')[:-1] if not forms.match(l)]
for l in bad[:5]:
    print('FAIL: %s: not a callgrind line: %r' % (sys.argv[2], l[:100]))
sys.exit(1 if bad else 0)
PY
}
"$PCOL" graph "$tmp/in.pcol" --format callgrind -o "$tmp/g.callgrind" || { echo "FAIL: graph --format callgrind exit $?"; exit 1; }
if LC_ALL=C grep -q $'[\001\377]' "$tmp/g.callgrind"; then echo "FAIL: raw control byte in callgrind"; fail=1; fi
grep -qE '^fn=\([0-9]+\) ctl\\x01\\xff$' "$tmp/g.callgrind" || { echo "FAIL: callgrind: the hostile name is not on its fn= line"; fail=1; }
callgrind_lines "$tmp/g.callgrind" "hostile names" || fail=1
# --format json: the same nodes and edges, valid JSON, the names whole and
# the numbers raw (the DOT's order: its node ids, its edge lines)
"$PCOL" graph "$tmp/in.pcol" --format json -o "$tmp/g.json" || { echo "FAIL: graph --format json exit $?"; exit 1; }
python3 - "$tmp/g.json" "$tmp/g.dot" <<'PY' || fail=1
import json, re, sys
g = json.load(open(sys.argv[1]))
dot = open(sys.argv[2], encoding='utf-8', errors='replace').read()
nodes = [r for r in g['rows'] if r['kind'] == 'node']
edges = [r for r in g['rows'] if r['kind'] == 'edge']
names = [n['name'] for n in nodes]
bad = []
evil = 'evil"] N9 [label="x\\\\'
if evil not in names or not any(n.startswith('ctl\x01') for n in names):
    bad.append('the hostile names are not whole in %r' % names)
if len(nodes) != len(re.findall(r'^N\d+ \[', dot, re.M)):
    bad.append('%d nodes in json, DOT has others' % len(nodes))
if len(edges) != len(re.findall(r'^N\d+ -> N\d+ ', dot, re.M)):
    bad.append('%d edges in json, DOT has others' % len(edges))
want = {'main': (0, 8), 'ok': (3, 3), evil: (0, 5)}
for n in nodes:
    if n['name'] in want and (n['flat'], n['cum']) != want[n['name']]:
        bad.append('%s: flat %s cum %s' % (n['name'], n['flat'], n['cum']))
got = sorted((e['from'], e['to'][:4], e['weight']) for e in edges)
if g['total'] != 8 or got != sorted([('main', evil[:4], 5), ('main', 'ok', 3), (evil, 'ctl\x01', 5)]):
    bad.append('edges %r total %r' % (got, g['total']))
for b in bad: print('FAIL: graph --format json: ' + b)
sys.exit(1 if bad else 0)
PY
# Hostile value-type units (issue 42 F1): the unit of no family prints as
# the file has it ("7unit..."), in every node's and edge's label and
# tooltip.  pprofgen.py puts the text in every string of a profile (the
# unit is "unit" + text), label keys and values and the unit of the numeric
# label "bytes" too, which the label boxes show (box3d nodes N1_0, NN1_0_0
# and their edges; issue 44).  Each DOT line must keep the writer's own
# attributes (no URL=, image=, ... from the file), and the SVG that
# graphviz makes of it (when installed) must have no link, image or script.
i=0
for h in '" URL="javascript:alert(1)//' '" image="/etc/passwd' 'x\\' '\\" href="x' 'a\n<script>&"'; do
  i=$((i + 1))
  python3 "$here/pprofgen.py" strings "$tmp/u$i.pb" "$h" bytes || { echo "FAIL: pprofgen.py"; exit 1; }
  "$PCOL" graph "$tmp/u$i.pb" -o "$tmp/u$i.dot" 2>"$tmp/err" || { echo "FAIL: graph unit $h: exit $?: $(cat "$tmp/err")"; fail=1; continue; }
  python3 - "$tmp/u$i.dot" "$h" <<'PY' || fail=1
import re, sys
dot = open(sys.argv[1], encoding='utf-8', errors='replace').read()
attr = re.compile(r'\s*(\w+) ?= ?("(?:[^"\\\n]|\\.)*"|[\w.#]+)')
want = {'node': {'label', 'id', 'fontsize', 'shape', 'tooltip', 'color', 'fillcolor'},
        'edge': {'label', 'weight', 'penwidth', 'color', 'tooltip', 'labeltooltip', 'style', 'minlen'}}
bad, n, boxes = [], 0, []
for line in dot.splitlines():
    m = re.match(r'N+\d+(?:_\d+)*( -> N+\d+(?:_\d+)*)? \[', line)
    if not m:
        continue
    n += 1
    if 'shape=box3d' in line:
        boxes.append(line)
    kind, pos, keys = 'edge' if m.group(1) else 'node', m.end(), set()
    while True:
        a = attr.match(line, pos)
        if not a:
            break
        keys.add(a.group(1))
        pos = a.end()
    if line[pos:] != ']':
        bad.append('not DOT after %r' % line[:pos][-60:])
    elif keys - want[kind]:
        bad.append('%s attributes from the file: %s' % (kind, sorted(keys - want[kind])))
    elif 'unit' not in line:
        bad.append('no unit in %r' % line[:80])
if n < 3:
    bad.append('%d nodes and edges, want 3' % n)
# the label boxes: the string labels' ("key...:value0...", their text
# escaped as the names are: the checks above) and the bytes value's under
# it (a unit of no family prints no unit, as pprof's ScaledLabel)
for k in (0, 1):
    if not any(re.match(r'N1_\d \[label = "key.*:value%d' % k, b) for b in boxes):
        bad.append('no box of the string labels of value%d: %r' % (k, boxes[:2]))
if sorted(re.findall(r'^NN1_\d_0 \[label = "(\d+)"', '\n'.join(boxes), re.M)) != ['7', '8']:
    bad.append('no boxes of the bytes values 7 and 8: %r' % boxes[:4])
for b in bad:
    print('FAIL: graph with unit %r: %s' % (sys.argv[2], b))
sys.exit(1 if bad else 0)
PY
  "$PCOL" graph "$tmp/u$i.pb" --format callgrind -o "$tmp/u$i.callgrind" 2>"$tmp/err" &&
    callgrind_lines "$tmp/u$i.callgrind" "strings $h" || { echo "FAIL: graph --format callgrind, strings $h: $(cat "$tmp/err")"; fail=1; }
  if command -v dot >/dev/null 2>&1; then
    "$PCOL" graph "$tmp/u$i.pb" --format svg -o "$tmp/u$i.svg" 2>"$tmp/err" || { echo "FAIL: graph --format svg unit $h: $(cat "$tmp/err")"; fail=1; continue; }
    python3 - "$tmp/u$i.svg" "$h" <<'PY' || fail=1
import sys
import xml.etree.ElementTree as ET
bad = []
for e in ET.parse(sys.argv[1]).iter():
    if e.tag.endswith('}image') or e.tag.endswith('}script'):
        bad.append('an element %s' % e.tag)
    bad += ['attribute %s=%r' % (k, v[:60]) for k, v in e.attrib.items() if k.endswith('href')]
for b in sorted(set(bad)):
    print('FAIL: graph --format svg with unit %r: %s' % (sys.argv[2], b))
sys.exit(1 if bad else 0)
PY
  fi
done
# Right-to-left names (review 22 F2): in a tooltip's running text, "A (5)"
# and "A -> B (5)", a name shown with more than ASCII sits between FSI and
# PDI (U+2068, U+2069), so Hebrew letters cannot reorder the arrow or the
# value; an ASCII name keeps go tool pprof's bytes (an RLO shows as
# \x{202e}, ASCII, by the text rule)
printf 'main;\327\251\327\234\327\225\327\235;\342\200\256evil 5\nmain;ok 3\n' >"$tmp/rtl.txt"
"$PCOL" graph "$tmp/rtl.txt" --format dot -o "$tmp/rtl.dot" || { echo "FAIL: graph rtl.txt"; fail=1; }
python3 - "$tmp/rtl.dot" <<'PY' || fail=1
import re, sys
dot = open(sys.argv[1], encoding='utf-8').read()
H, E = '\u2068\u05e9\u05dc\u05d5\u05dd\u2069', '\\\\x{202e}evil'  # the RLO as \x{202e}, its \ DOT-escaped
bad = []
tips = re.findall(r' (?:label)?tooltip="((?:[^"\\]|\\.)*)"', dot)
for n in ('main', H, E, 'ok'):
    if not any(t.startswith(n + ' (') for t in tips):
        bad.append('no node tooltip "%s (...)"' % n)
for a, b in (('main', H), (H, E)):
    if not any(t.startswith('%s -> %s (' % (a, b)) for t in tips):
        bad.append('no edge tooltip "%s -> %s (...)"' % (a, b))
if '\u202e' in dot:
    bad.append('a raw RLO')
for b in bad:
    print('FAIL: graph tooltips: %s; tooltips: %r' % (b, tips[:6]))
sys.exit(1 if bad else 0)
PY
[ $fail -eq 0 ] && echo "t_graph_escape: ok"
exit $fail
