#!/usr/bin/env bash
# Names and shares on the report page, in headless Chromium
# (report_names_check.cjs): the call tree's and the callers/callees
# panel's shares in go tool pprof's percentage format, as the table and
# pcol peek (review 22 F6); names with bidi controls and right-to-left
# letters isolated and their controls shown, in the report and in pcol
# flame's SVG (F2), a long name cut in the timeline's legend (F3); source
# names shown as function names (rd17a F8: the sources table and the
# source menu showed a raw U+202E) and names cut by code points (F9: an
# emoji at the legend's cut became a lone surrogate), never inside a flag
# or an escape (rd17b F4).  Exit 77 (skip) without Chromium or node.
set -u
T=t_report_names
. "$(dirname "$0")/report_env.sh"
cases=""
add() { cases="$cases${cases:+,}$1"; }
j=$TD/pprof/java-cpu-async-profiler.pb.gz
if [ -f "$j" ]; then
  "$PCOL" report "$j" -o "$tmp/java.html" || fail "report $j"
  total=$("$PCOL" top "$j" --format json | head -1 | sed -n 's/.*"total":\(-\{0,1\}[0-9][0-9]*\),.*/\1/p')
  [ -n "$total" ] || fail "pcol top --format json $j: no total"
  add "{\"name\":\"java\",\"html\":\"$tmp/java.html\",\"total\":$total,\"checks\":[\"pct\"]}"
fi
# names with bidi controls (an unterminated RLO and RLI), Hebrew letters, a
# 3,000-character name (review 22 F2, F3): an Rprof profile (the timeline's
# legend), a speedscope one whose frames name a source file holding them
python3 - "$tmp" <<'PY' || fail "the inputs"
import json, sys
d = sys.argv[1]
names = ['\u202eevil_unterminated', '\u2067isolate_unterminated', '\u05e9\u05dc\u05d5\u05dd_fn', 'L' + 'x' * 3000, 'normal_fn']
with open(d + '/bidi.Rprof', 'w') as f:
    f.write('sample.interval=20000\n')
    for i in range(100):
        f.write('"%s" "main" \n' % names[i % 5])
src = d + '/evil.go'
open(src, 'w').write('package main\n// ok\nfunc \u202eevil_unterminated() { x := 1 }\nfunc \u2067isolate() {}\n')
frames = [{'name': 'main'}] + [{'name': n} for n in names]
frames[1].update(file=src, line=3)
frames[2].update(file=src, line=4)
samples = [[0, 1 + i % 5] for i in range(60)]
json.dump({'$schema': 'https://www.speedscope.app/file-format-schema.json', 'shared': {'frames': frames},
           'profiles': [{'type': 'sampled', 'name': 'p', 'unit': 'milliseconds', 'startValue': 0, 'endValue': 120,
                         'samples': samples, 'weights': [1 + i % 3 for i in range(60)]}]}, open(d + '/bidi.json', 'w'))
json.dump(names[:3], open(d + '/names.json', 'w'))
PY
# four sources named by a speedscope profile's name: one with U+202E, one
# whose last 39 code points start with an emoji (the source menu's cut),
# with the second of a flag's two regional indicators, with the end of an
# escape (\x{202e}); leaves of 58 characters and an emoji, 58 and a flag,
# 56 and U+202E (\x{202e} across the legend's cut at 60)
python3 - "$tmp" <<'PY' || fail "the inputs"
import json, sys
frames = [{'name': 'main'}, {'name': 'x' * 58 + '\U0001F600tail'}, {'name': 'other_fn'},
          {'name': 'x' * 58 + '\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA'}, {'name': 'x' * 56 + '\u202etail'}]
def ev(name):
    return {'type': 'evented', 'name': name, 'unit': 'milliseconds', 'startValue': 0, 'endValue': 30,
            'events': [{'type': 'O', 'frame': 0, 'at': 0}, {'type': 'O', 'frame': 1, 'at': 0}, {'type': 'C', 'frame': 1, 'at': 15},
                       {'type': 'O', 'frame': 2, 'at': 15}, {'type': 'C', 'frame': 2, 'at': 20},
                       {'type': 'O', 'frame': 3, 'at': 20}, {'type': 'C', 'frame': 3, 'at': 25},
                       {'type': 'O', 'frame': 4, 'at': 25}, {'type': 'C', 'frame': 4, 'at': 30}, {'type': 'C', 'frame': 0, 'at': 30}]}
json.dump({'$schema': 'https://www.speedscope.app/file-format-schema.json', 'shared': {'frames': frames},
           'profiles': [ev('thr\u202eabc 123%'), ev('\U0001F600' + 'y' * 38),
                        ev('\U0001F1EB\U0001F1F7' + 'y' * 38), ev('esc\u202e' + 'y' * 38)]}, open(sys.argv[1] + '/src.json', 'w'))
PY
"$PCOL" report "$tmp/src.json" -o "$tmp/src.html" || fail "report src.json"
add "{\"name\":\"srcnames\",\"html\":\"$tmp/src.html\",\"checks\":[\"srcnames\",\"tips\"],\"nsources\":4}"
# every string of a pprof profile (function, file, type, unit, label key
# and value, "bytes" label unit) holds markup, U+202E (UTF-8) and a long
# run: each tooltip (the call graph's nodes, edges and label boxes, the
# refine menus) shows it isolated (h3: the label boxes' were raw)
python3 "$here/../support/pprofgen.py" strings "$tmp/hostile.pb" "<img src=x onerror=window.pwned=1>\\xe2\\x80\\xae$(printf 'L%.0s' $(seq 300))" bytes || fail "pprofgen.py strings"
"$PCOL" report "$tmp/hostile.pb" -o "$tmp/hostile.html" || fail "report hostile.pb"
add "{\"name\":\"hostile-tips\",\"html\":\"$tmp/hostile.html\",\"checks\":[\"tips\"],\"hostile\":\"<img src=x onerror=window.pwned=1>\\\\x{202e}LLLL\"}"
# a short one: the units keep their U+202E (a unit is cut to 31 bytes), in
# every number of the tooltips (h3: shown raw in "7unit\u202eX")
python3 "$here/../support/pprofgen.py" strings "$tmp/unit.pb" '\xe2\x80\xaeX' bytes || fail "pprofgen.py strings"
"$PCOL" report "$tmp/unit.pb" -o "$tmp/unit.html" || fail "report unit.pb"
add "{\"name\":\"hostile-unit\",\"html\":\"$tmp/unit.html\",\"checks\":[\"tips\"]}"
"$PCOL" report "$tmp/bidi.Rprof" -o "$tmp/bidi-r.html" || fail "report bidi.Rprof"
add "{\"name\":\"bidi-rprof\",\"html\":\"$tmp/bidi-r.html\",\"checks\":[\"legend\"]}"
"$PCOL" report "$tmp/bidi.json" --allow-any-source -o "$tmp/bidi.html" || fail "report bidi.json"
add "{\"name\":\"bidi-speedscope\",\"html\":\"$tmp/bidi.html\",\"checks\":[\"bidi\"],\"names\":$(cat "$tmp/names.json"),\"srcname\":\"\\u202eevil_unterminated\"}"
# pcol flame's SVG: hovers, titles and labels show the controls (\x{202e}),
# names in running text between FSI and PDI; data-name (the search's) as it
# is, there only for a name shown otherwise (review 22 F11)
"$PCOL" flame "$tmp/bidi.json" -o "$tmp/bidi.svg" || fail "flame bidi.json"
python3 - "$tmp/bidi.svg" <<'PY' || fail "pcol flame's SVG: a raw bidi control, a hover not isolated or a name stored twice (above)"
import re, sys, html
t = open(sys.argv[1], encoding='utf-8').read()
bad = 0
for m in re.finditer(r'<title>([^<]*)</title>|<text[^>]*>([^<]*)</text>', t):
    s = html.unescape(m.group(1) or m.group(2) or '')
    if re.search('[\u202a-\u202e\u2066\u2067]', s):
        print('t_report_names: raw bidi control in %r' % s[:80]); bad += 1
    if m.group(1) and 'Flame' not in s and not re.match('\u2068[^\u2069]*\u2069 \\(', s):
        print('t_report_names: a hover not isolated: %r' % s[:80]); bad += 1
if '\\x{202e}evil' not in t or 'data-name="\u202eevil' not in t:
    print('t_report_names: no \\x{202e} shown, or data-name changed'); bad += 1
if 'data-info=' in t or re.search(r'data-name="[a-z_]*"', t):
    print('t_report_names: a name stored twice (data-info, or data-name of a name shown as it is)'); bad += 1
sys.exit(1 if bad else 0)
PY
[ -n "$cases" ] || skip "no test data"
printf '[%s]\n' "$cases" >"$tmp/cases.json"
timeout 600 node "$here/report_names_check.cjs" "$BROWSER" "$tmp/cases.json" || fail "the pages differ (above)"
echo "t_report_names: ok" >&2
