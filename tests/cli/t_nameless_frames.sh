#!/usr/bin/env bash
# One frame, one name (doc/mappings.md §6), for a function without a name
# in a mapping (review 19 F2): gperftools' profile of R names its
# unsymbolized PCs one function "" of file "??" at line 0, in whichever
# mapping holds the PC.  go tool pprof and `pcol top` name such a frame
# after its mapping ("[libR.so]", "[libz.so.1]"; "<unknown>" only without
# one); fold and the collapsed, Perun, V8, Chrome, Perfetto and Rprof
# exports named them all "<unknown>" (Rprof: "<Anonymous>"), merging the
# libraries.  Checked: go tool pprof -top (when installed) = pcol top; fold's
# leaves = top's rows; each export read back gives top's rows (flat% and
# name: the collapsed export writes other units); the Rprof export writes
# the mapping's name, quoted.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_nameless_frames: $*" >&2; exit 1; }

python3 "$here/../support/pprofgen.py" gperf "$tmp/g.pb" || fail "pprofgen gperf"
rows() { sed -n '/^ *flat  *flat%/,$p' | awk 'NR > 1 {print $2, $NF}'; }
want=$($PCOL top "$tmp/g.pb" | rows)
[ "$(printf '%s\n' "$want" | awk '{print $2}' | sort | tr '\n' ' ')" = \
  "<unknown> [libR.so] [libc.so.6] [libz.so.1] main " ] || fail "top rows: $want"

if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  g=$(go tool pprof -symbolize=none -top "$tmp/g.pb" 2>/dev/null | rows)
  [ "$g" = "$want" ] || fail "top differs from go tool pprof -top:
go:
$g
pcol:
$want"
else
  echo "t_nameless_frames: go not installed: the go tool pprof comparison is skipped"
fi
# list: go -list lists the nodes of no name under the name "" (its
# functions "" of file "??": "ROUTINE ========================  in ??", their
# flat and cum); pcol's list left a pprof function of no name out, as it
# leaves out an Rprof top-level ref (a place, listed by file only)
pabs=$PCOL; [ "${PCOL#/}" != "$PCOL" ] || pabs=$PWD/$PCOL # (run in $tmp: the error names the path)
l=$(cd "$tmp" && "$pabs" list g.pb '.*')
printf '%s\n' "$l" | grep -qx 'ROUTINE ========================  in ??' || fail "list: no routine of no name: $l"
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  g=$(cd "$tmp" && go tool pprof -symbolize=none -list '.*' g.pb 2>/dev/null)
  [ "$g" = "$l" ] || fail "list differs from go tool pprof -list:
go:
$g
pcol:
$l"
fi

# fold: the leaves' sums per name are top's flats (600 ms of [libR.so], ...)
f=$($PCOL fold "$tmp/g.pb" | awk '{n = split($1, a, ";"); s[a[n]] += $2} END {for (k in s) print k, s[k]}' | sort)
[ "$f" = "<unknown> 10000000
[libR.so] 600000000
[libc.so.6] 30000000
[libz.so.1] 20000000
main 40000000" ] || fail "fold leaves: $f"

for x in collapsed perun v8 chrome perfetto rprof pprof otlp speedscope firefox; do
  $PCOL unpack "$tmp/g.pb" --to $x -o "$tmp/g.$x" 2>"$tmp/err" || fail "unpack --to $x: $(cat "$tmp/err")"
  got=$($PCOL top "$tmp/g.$x" | rows)
  [ "$got" = "$want" ] || fail "$x read back:
$got
input:
$want"
done
grep -q '^"\[libz.so.1\]" "\[libR.so\]" 1#3 "main" $' "$tmp/g.rprof" &&
  grep -q '^"<unknown>" 1#3 "main" $' "$tmp/g.rprof" && ! grep -q 'Anonymous' "$tmp/g.rprof" ||
  fail "rprof export: $(sort "$tmp/g.rprof" | uniq -c)"
# by line (review h7): go tool pprof -lines names a line of a function
# without a name by its line alone (":41"); pcol top --by line of the input
# and of its pprof and OTLP copies, which keep such functions, gives the
# same rows (the speedscope, Firefox and V8 copies name them after the
# mapping, as their viewers show them: doc/mappings.md §6)
python3 "$here/../support/pprofgen.py" unsym "$tmp/u.pb" nameless || fail "pprofgen unsym nameless"
lrows() { sed -n '/^ *flat  *flat%/,$p' | awk 'NR > 1 {$2 = $3 = $4 = $5 = ""; print}'; }
want=$($PCOL top "$tmp/u.pb" --by line | lrows)
printf '%s\n' "$want" | grep -q '^90ms *:41$' || fail "top --by line of the nameless functions: $want"
for x in pprof otlp; do
  $PCOL unpack "$tmp/u.pb" --to $x -o "$tmp/u.$x" 2>"$tmp/err" || fail "unpack u --to $x: $(cat "$tmp/err")"
  got=$($PCOL top "$tmp/u.$x" --by line | lrows)
  [ "$got" = "$want" ] || fail "top --by line of the $x copy of nameless functions:
$got
input:
$want"
done
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  # (the rows of lines of nameless functions: go merges a Windows path's
  # mapping into <unknown>, pcol keeps its name: t_frame_names.sh)
  for i in u.pb u.pprof; do
    g=$(go tool pprof -symbolize=none -top -lines "$tmp/$i" 2>/dev/null | lrows | grep ' :[0-9]')
    [ -n "$g" ] && [ "$g" = "$(printf '%s\n' "$want" | grep ' :[0-9]')" ] ||
      fail "go tool pprof -lines of $i: the nameless functions' lines differ from pcol top --by line:
$g"
  done
fi
# fold, and the collapsed, speedscope and Firefox copies' folds, name a
# function without a name at a line (7) in no mapping as go tool pprof
# -traces and `pcol top` do, "<unknown>" (THE nameless rule of a pprof
# source, frames.h); fold and the collapsed export named it "[unknown]", the
# frame rule's name of an Rprof top-level srcref without a file.  The stacks
# against go -traces of the input (go drops a Windows path's mapping name,
# "<unknown>" for pcol's [ntdll.dll]: t_frame_names.sh; fold writes ';' as '_')
folded() { awk '{ v = $NF; sub(/ [0-9]+$/, ""); gsub(/\[ntdll\.dll\]/, "<unknown>"); s[$0] += v }
  END { for (k in s) print k, s[k] }' | sort; }
$PCOL fold "$tmp/u.pb" | folded >"$tmp/uf" || fail "fold u.pb"
grep -q '\[unknown\]' "$tmp/uf" && fail "fold names a nameless pprof function [unknown]: $(grep -F '[unknown]' "$tmp/uf")"
top_names=$($PCOL top "$tmp/u.pb" --node-fraction 0 --format tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "name") c = i; next } { n = $c; gsub(/;/, "_", n); print n }' | sort -u)
fold_names=$($PCOL fold "$tmp/u.pb" | awk '{ sub(/ [0-9]+$/, ""); n = split($0, a, ";"); for (i = 1; i <= n; i++) print a[i] }' | sort -u)
[ "$fold_names" = "$top_names" ] || fail "fold's frame names differ from top's rows:
$fold_names
top:
$top_names"
for x in collapsed speedscope firefox; do
  $PCOL unpack "$tmp/u.pb" --to $x -o "$tmp/u2.$x" 2>/dev/null || fail "unpack u --to $x"
  # (the stacks: the collapsed copy's numbers are counts, the input's cpu)
  $PCOL fold "$tmp/u2.$x" | folded | sed 's/ [0-9]*$//' >"$tmp/uf2" || fail "fold of the $x copy"
  sed 's/ [0-9]*$//' "$tmp/uf" | cmp -s - "$tmp/uf2" || fail "fold of the $x copy of nameless functions differs from the input's:
$(sed 's/ [0-9]*$//' "$tmp/uf" | diff - "$tmp/uf2")"
done
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  go tool pprof -symbolize=none -traces -unit=ns "$tmp/u.pb" 2>/dev/null | awk '
    function flush() { if (st != "") s[st] += v; st = "" }
    /^-+\+-+$/ { flush(); next }
    /^(File|Type|Time|Showing):/ { next }
    /^[0-9]+ns / { v = $1; sub(/ns$/, "", v); sub(/^[0-9]+ns +/, ""); }
    { sub(/^ +/, ""); sub(/ \((partial-)?inline\)$/, ""); gsub(/;/, "_"); if ($0 != "") st = st == "" ? $0 : $0 ";" st }
    END { flush(); for (k in s) print k, s[k] }' | sort >"$tmp/ug"
  [ -s "$tmp/ug" ] && cmp -s "$tmp/ug" "$tmp/uf" || fail "fold of nameless functions differs from go tool pprof -traces:
$(diff "$tmp/ug" "$tmp/uf")"
fi
# a nameless function of a file at a line (rd15a F5): the speedscope,
# Firefox, V8 and Chrome exports name it after its mapping, as before, and
# write its file in the format's own field (speedscope's frame "file",
# Firefox's funcTable fileName, V8's callFrame url), so the viewer shows
# it and the copy reads back to the same file and line (they said
# "<unknown> :7", the file lost); the rows by function stay the input's
python3 "$here/../support/pprofgen.py" unsym "$tmp/nf.pb" namelessfile || fail "pprofgen unsym namelessfile"
$PCOL top "$tmp/nf.pb" --by line | grep -q ' app/top\.c:7$' || fail "top --by line of the input: no app/top.c:7"
for x in speedscope firefox v8 chrome; do
  $PCOL unpack "$tmp/nf.pb" --to $x -o "$tmp/nf.$x" 2>"$tmp/err" || fail "unpack nf --to $x: $(cat "$tmp/err")"
  got=$($PCOL top "$tmp/nf.$x" --by line 2>/dev/null | lrows)
  line=:7 inner=:41
  [ $x = speedscope ] && line= inner=:40 # (a frame a function: its start line, none for 6)
  printf '%s\n' "$got" | grep -q "^[0-9.]*ms *<unknown> app/top\.c$line\$" &&
    printf '%s\n' "$got" | grep -q "^[0-9.]*ms *\[libc\.so\.6\] src/inner\.c$inner\$" ||
    fail "the $x copy of nameless functions of a file lost the file:
$got"
  # by function, the copy of the same functions without files
  $PCOL unpack "$tmp/u.pb" --to $x -o "$tmp/u3.$x" 2>/dev/null || fail "unpack u --to $x"
  [ "$($PCOL top "$tmp/nf.$x" 2>/dev/null | rows)" = "$($PCOL top "$tmp/u3.$x" 2>/dev/null | rows)" ] ||
    fail "the $x copy's rows by function differ from those of the copy without files"
done
python3 - "$tmp" <<'PY' || fail "the file of a nameless function in the copies' own fields"
import gzip, json, sys
t = sys.argv[1]
def load(p):
    b = open(p, "rb").read()
    return json.loads(gzip.decompress(b) if b[:2] == b"\x1f\x8b" else b)
ss = load(t + "/nf.speedscope")["shared"]["frames"]
assert {"name": "<unknown>", "file": "app/top.c"} in [{k: f[k] for k in ("name", "file") if k in f} for f in ss], ss
v8 = [n["callFrame"] for n in load(t + "/nf.v8")["nodes"]]
assert any(c["functionName"] == "<unknown>" and c["url"] == "app/top.c" and c["lineNumber"] == 6 for c in v8), v8
assert any(c["functionName"] == "[libc.so.6]" and c["url"] == "src/inner.c" for c in v8), v8
sh = load(t + "/nf.firefox")["shared"]  # (funcTable.source: a row of sources, its filename)
strs, ft = sh["stringArray"], sh["funcTable"]
src = lambda i: None if ft["source"][i] is None else strs[sh["sources"]["filename"][ft["source"][i]]]
have = {(strs[ft["name"][i]], src(i)) for i in range(ft["length"])}
assert ("<unknown>", "app/top.c") in have and ("[libc.so.6]", "src/inner.c") in have, have
PY
echo "t_nameless_frames: ok"
