#!/usr/bin/env bash
# Flame graph labels fit their frames (review 22 F7): headless Chromium
# loads `pcol flame` SVGs of a profile with wide names (W, m, @, %, CJK,
# emoji, Cyrillic, combining marks, beside narrow i and ordinary names) at
# several widths and checks, with flame_label_check.js, that every label's
# drawn length (getComputedTextLength) fits its frame as written, after
# zooms and back, and that the script's re-layout cuts as svg.c does.
# Exit 77 (skip) without Chromium.
set -u
T=t_flame_labels
. "$(dirname "$0")/flame_env.sh"

# the profile: wide names at many widths (a stack per name and weight)
python3 - "$tmp/wide.collapsed" <<'PY'
import sys
names = ['W' * 60, 'm' * 60, '@' * 40, '%' * 40, 'WmWm@%' * 12, 'i' * 90, 'ok_name', 'runtime.mallocgc',
         '\u6570\u636e\u5904\u7406\u51fd\u6570' * 6, '\U0001f525\U0001f600' * 10, '\u0429\u0416\u042e' * 12,
         'e\u0301' * 40, '\u00c6\u0152\u00e6' * 12, 'Wi' * 40, 'main.(*Server).ServeHTTP' * 3]
with open(sys.argv[1], 'w', encoding='utf-8') as f:
    k = 0
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            k += 1
            f.write('root;%s;%s %d\n' % (a, b, 1 + (k * 7919) % 97))
PY
total=0
for width in 600 1200 1900; do
  "$PCOL" flame "$tmp/wide.collapsed" --width "$width" --minwidth 0 -o "$tmp/w$width.svg" || fail "pcol flame --width $width"
  tail -1 "$tmp/w$width.svg" | grep -q '^</svg>$' || fail "w$width.svg does not end with </svg>"
  with_script "$tmp/w$width.svg" "$tmp/w$width.check.svg" < "$here/flame_label_check.js"
  judge "$tmp/w$width.check.svg" "--width $width" " bad=0 differ=0 "
  cut=${res#*cut=}; total=$((total + ${cut%% *}))
done
[ "$total" -gt 100 ] || fail "only $total cut labels checked"
echo "t_flame_labels: ok" >&2
