#!/usr/bin/env bash
# pcol graph with hostile function names (generated here): quotes,
# backslashes, a control byte and invalid UTF-8 must not end a DOT string
# nor reach the output raw; graphviz (when installed) must accept the text.
set -u
PCOL=${PCOL:-build/bin/pcol}
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
fi
[ $fail -eq 0 ] && echo "t_graph_escape: ok"
exit $fail
