#!/usr/bin/env bash
# `pcol top --by line` of an Rprof line profile and of its exports (review
# 19 F6).  summaryRprof(lines = "show") gives a frame without a line (<GC>,
# a builtin) to the innermost calling line; go tool pprof -lines to the
# frame itself.  pcol applies R's rule to sources whose nameless lines are
# places (THE nameless rule, lib/core/frames.c): an Rprof source, and the
# copies that say so (OTLP's source type, speedscope's pcolLine, and now
# the Firefox export's meta.pcolNamelessPlaces).  A pprof copy follows go,
# its reader (and a Perfetto copy, which has no place to say it): those
# exports say so once.  Checked:
#  - top --by line of the Firefox, speedscope and OTLP copies = the input's
#    (the Firefox copy gave <GC> its own row before);
#  - the pprof and Perfetto exports note it once, top --by line of the pprof
#    copy = go tool pprof -lines (when installed); no note for a profile
#    without lines, nor for a Go profile.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_rprof_by_line: $*" >&2; exit 1; }

# f at line 4 runs g (line 5) and collects garbage: no trailing ref (a
# place the exports would mark anyway), so only the sources' rule says it
cat >"$tmp/l.out" <<'R'
line profiling: sample.interval=20000
#File 1: a.R
"<GC>" 1#4 "f" 
"<GC>" 1#4 "f" 
"<GC>" 1#4 "f" 
1#5 "g" 1#4 "f" 
"sum" 1#4 "f" 
R
rows() { sed -n '/^ *flat  *flat%/,$p'; }
want=$($PCOL top "$tmp/l.out" --by line | rows)
printf '%s\n' "$want" | grep -q '^ *80ms .* f a.R:4$' || fail "top --by line of the input: $want"

for x in firefox speedscope otlp; do
  $PCOL unpack "$tmp/l.out" --to $x -o "$tmp/l.$x" 2>"$tmp/err" || fail "unpack --to $x: $(cat "$tmp/err")"
  [ ! -s "$tmp/err" ] || fail "unpack --to $x said: $(cat "$tmp/err")"
  got=$($PCOL top "$tmp/l.$x" --by line | rows)
  [ "$got" = "$want" ] || fail "top --by line of the $x copy:
$got
input:
$want"
done

for x in pprof perfetto; do
  $PCOL unpack "$tmp/l.out" --to $x -o "$tmp/l.$x" 2>"$tmp/err" || fail "unpack --to $x"
  [ "$(grep -c '^pcol unpack: note: .*: by line, summaryRprof and .pcol top --by line. of Rprof sources give a frame without a line' "$tmp/err")" = 1 ] ||
    fail "unpack --to $x: no note (once) of the by-line rule: $(cat "$tmp/err")"
done
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  g=$(go tool pprof -top -lines "$tmp/l.pprof" 2>/dev/null | rows | awk 'NR > 1 {print $1, $NF}')
  p=$($PCOL top "$tmp/l.pprof" --by line | rows | awk 'NR > 1 {print $1, $NF}')
  [ -n "$g" ] && [ "$g" = "$p" ] || fail "top --by line of the pprof copy differs from go tool pprof -lines:
go:
$g
pcol:
$p"
else
  echo "t_rprof_by_line: go not installed: the go tool pprof -lines comparison is skipped"
fi

# a merge of the Rprof profile and a pprof one (gperftools' native frames,
# without lines): each source keeps its own rule (review h7: the pprof
# source's rule was the whole profile's, <GC> and sum rows of their own).
# Checked on `top a.out b.pb` (an in-memory merge), on the merged file, on
# its speedscope copy (a profile each, pcolNamelessPlaces each) and on its
# Firefox copy (one profile: the Rprof rule, and a note of the pprof frames)
python3 "$here/../support/pprofgen.py" gperf "$tmp/g.pb" || fail "pprofgen gperf"
rrows() { grep -E ' a\.R|<GC>|  sum$' | awk '{print $1, $(NF-1), $NF}'; }
wantr=$(printf '%s\n' "$want" | rrows)
pprow=$($PCOL top "$tmp/g.pb" --by line | rows | grep -v ' a\.R' | awk 'NR > 1 {print $1, $4, $NF}')
$PCOL merge "$tmp/l.out" "$tmp/g.pb" -o "$tmp/lg.pcol" || fail "merge"
$PCOL unpack "$tmp/lg.pcol" --to speedscope -o "$tmp/lg.json" 2>"$tmp/err" || fail "unpack lg --to speedscope"
$PCOL unpack "$tmp/lg.pcol" --to firefox -o "$tmp/lg.ff" 2>"$tmp/err.ff" || fail "unpack lg --to firefox"
for i in "$tmp/l.out $tmp/g.pb" "$tmp/lg.pcol" "$tmp/lg.ff"; do
  # shellcheck disable=SC2086
  got=$($PCOL top $i --by line | rows | rrows)
  [ "$got" = "$wantr" ] || fail "top --by line of $i: the Rprof source's rows:
$got
Rprof alone:
$wantr"
done
for i in "$tmp/l.out $tmp/g.pb" "$tmp/lg.pcol"; do
  # shellcheck disable=SC2086
  got=$($PCOL top $i --by line | rows | grep -v ' a\.R' | awk 'NR > 1 {print $1, $4, $NF}')
  [ "$got" = "$pprow" ] || fail "top --by line of $i: the pprof source's rows:
$got
pprof alone:
$pprow"
done
got=$($PCOL top "$tmp/lg.json" --by line --source 1 | rows)
[ "$got" = "$want" ] || fail "top --by line --source 1 of the merge's speedscope copy:
$got
input:
$want"
grep -q '^pcol unpack: note: .*a Firefox profile holds one rule' "$tmp/err.ff" || fail "the Firefox copy of the merge: no note: $(cat "$tmp/err.ff")"
# the note's claim: the pprof source's frames without a line go to the
# calling line in the copy's top (their flat is the calling line's there),
# and stay frames of their own in its tree (as go's views)
ppflat=$($PCOL top "$tmp/lg.pcol" --by line --node-fraction 0 2>/dev/null | rows | awk '$NF == "main.c:3" {print $1}')
ffflat=$($PCOL top "$tmp/lg.ff" --by line --node-fraction 0 2>/dev/null | rows | awk '$NF == "main.c:3" {print $1}')
[ -n "$ppflat" ] && [ "$ppflat" != "$ffflat" ] || fail "the Firefox copy's top --by line: main.c:3's flat $ffflat, the merge's $ppflat (the note says it takes its callees' without a line)"
$PCOL tree "$tmp/lg.ff" --by line 2>/dev/null | grep -q '| \[libR.so\]$' || fail "the Firefox copy's tree --by line: no [libR.so] frame (the note says the tree keeps it)"
# a pprof source whose frames all have a line, one of a function without a
# name (no mapping): the copy's places rule moves nothing (it is a frame
# named after its mapping, "<unknown> :7" for go's "x.c:7"), so no note
# (the note said "a frame without a line or a name" and was printed)
python3 - "$here/../support" "$tmp/nl.pb" <<'PY' || fail "nameless pprof"
import sys
sys.path.insert(0, sys.argv[1])
from pprofgen import Strings, field, varint
st = Strings()
p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
p += field(5, 2, field(1, 0, 1) + field(2, 0, st.id(b"main")) + field(4, 0, st.id(b"main.c")))
p += field(5, 2, field(1, 0, 2) + field(4, 0, st.id(b"x.c")))  # no name
ln = lambda fid, line: field(4, 2, field(1, 0, fid) + field(2, 0, line))
p += field(4, 2, field(1, 0, 1) + field(3, 0, 0x100) + ln(1, 3))
p += field(4, 2, field(1, 0, 2) + field(3, 0, 0x200) + ln(2, 7))
for locs, n in (([2, 1], 5), ([1], 3)):
    p += field(2, 2, field(1, 2, b"".join(varint(x) for x in locs)) + field(2, 2, varint(n)))
open(sys.argv[2], "wb").write(p + st.table())
PY
$PCOL merge "$tmp/l.out" "$tmp/nl.pb" -o "$tmp/ln.pcol" || fail "merge l.out nl.pb"
$PCOL unpack "$tmp/ln.pcol" --to firefox -o "$tmp/ln.ff" 2>"$tmp/err.ff" || fail "unpack ln --to firefox"
! grep -q 'a Firefox profile holds one rule' "$tmp/err.ff" || fail "the Firefox copy of a merge whose pprof frames all have lines: a note of frames it does not move: $(cat "$tmp/err.ff")"
a=$($PCOL top "$tmp/ln.pcol" --by line --node-fraction 0 2>/dev/null | rows | awk 'NR > 1 {print $1}' | sort)
b=$($PCOL top "$tmp/ln.ff" --by line --node-fraction 0 2>/dev/null | rows | awk 'NR > 1 {print $1}' | sort)
[ "$a" = "$b" ] || fail "the Firefox copy of a merge whose pprof frames all have lines: top --by line's flats differ: $b, the merge's: $a"

# no note where the rules cannot differ: no lines, or not Rprof
printf 'sample.interval=20000\n"<GC>" "f" \n"g" "f" \n' >"$tmp/n.out"
for i in n.out g.pb; do
  $PCOL unpack "$tmp/$i" --to pprof -o "$tmp/x.pb.gz" 2>"$tmp/err" || fail "unpack $i"
  ! grep -q summaryRprof "$tmp/err" || fail "unpack $i --to pprof: $(cat "$tmp/err")"
done
echo "t_rprof_by_line: ok"
