#!/usr/bin/env bash
# go's mapping merge key (size rounded up to 4 KiB, file offset, build id
# else file name; not the start: lib/core/builder.c pcol_b_mappings_shared,
# doc/mappings.md §2.1), without Go (tests/interop/t_aslr.sh has go tool
# pprof judge the same inputs):
#  - two processes of one program in ONE profile (pprofgen aslr procs, the
#    second 0x40000000 above) are one program, as go's driver merges a
#    profile read alone too: top --by address has the 5 offsets once, at
#    the first process's addresses (it listed 10 rows), and the packed
#    file one mapping row per key (it kept 4);
#  - `pcol diff BASE NEW --by address` of two runs (ASLR) pairs their rows
#    at NEW's addresses (pcol_open_readdressed), as go -diff_base merges
#    them: only the location NEW alone has changes (each side's own
#    addresses made every row a row of one side);
#  - a mapping of no file name (string 0) and one of a stored "" (neither
#    with a build id) are one key, as go's File != "" makes them.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_mapping_key: $*" >&2; exit 1; }
gen() { python3 "$here/../support/pprofgen.py" aslr "$@" || fail "pprofgen aslr $*"; }
gen "$tmp/pp.pb" 0x555555554000 0x5000 procs
gen "$tmp/a.pb" 0x555555554000
gen "$tmp/b.pb" 0x5600aa000000 0x5000 extra
gen "$tmp/nf.pb" 0x555555554000 0x5000 nofile
gen "$tmp/ef.pb" 0x5600aa000000 0x5000 emptyfile
rows() { awk '/^ *flat  *flat%/ {on=1; next} on {print $1, $4, $6, $7}' "$1"; }

# two processes in one profile: samples 5,3,2,7 (first) and 4,1,6 (second),
# 10 ms each; libfoo's 0x2010 is the leaf of 7+6 and under 0x2120 in 2+4
$PCOL top -n 0 --by address "$tmp/pp.pb" >"$tmp/t" 2>"$tmp/err" || fail "top pp.pb: $(cat "$tmp/err")"
rows "$tmp/t" >"$tmp/got"
cat >"$tmp/want" <<'W'
130ms 190ms 0000555555656010 [libfoo.so]
60ms 60ms 0000555555555340 [app]
60ms 60ms 0000555555656120 [libfoo.so]
30ms 150ms 0000555555555230 [app]
0 280ms 0000555555555100 [app]
W
cmp -s "$tmp/want" "$tmp/got" || fail "top --by address of two processes in one profile:
$(diff "$tmp/want" "$tmp/got")"
$PCOL pack "$tmp/pp.pb" -o "$tmp/pp.pcol" 2>"$tmp/err" || fail "pack pp.pb: $(cat "$tmp/err")"
$PCOL cat "$tmp/pp.pcol" --table mappings >"$tmp/m" 2>"$tmp/err" || fail "cat: $(cat "$tmp/err")"
starts=$(awk -F'\t' 'NR > 1 {print $2}' "$tmp/m" | tr '\n' ' ')
[ "$starts" = "$(printf '%d %d ' 0x555555554000 0x555555654000)" ] ||
  fail "pp.pcol's mappings: not one per key at the first process's start:
$(cat "$tmp/m")"
$PCOL top -n 0 --by address "$tmp/pp.pcol" >"$tmp/t" 2>&1 && rows "$tmp/t" >"$tmp/got2" &&
  cmp -s "$tmp/want" "$tmp/got2" || fail "top --by address pp.pcol: $(cat "$tmp/t")"

# diff of two runs by address: b.pb is a.pb elsewhere plus 90ms at 0x1450
$PCOL diff "$tmp/a.pb" "$tmp/b.pb" --by address --absolute --node-fraction 0 >"$tmp/t" 2>"$tmp/err" ||
  fail "diff: $(cat "$tmp/err")"
awk '/^ *base_flat/ {on=1; next} on' "$tmp/t" >"$tmp/got"
cat >"$tmp/want" <<'W'
         0       90ms      +90ms          0       90ms      +90ms  00005600aa001450 [app]
         0          0          0      170ms      260ms      +90ms  00005600aa001100 [app]
W
cmp -s "$tmp/want" "$tmp/got" || fail "diff --by address of two runs (only what changed, at b.pb's addresses):
$(cat "$tmp/t")"

# no file name and a stored "": one key, the rows at nf.pb's addresses
$PCOL top -n 0 --by address "$tmp/nf.pb" "$tmp/ef.pb" >"$tmp/t" 2>"$tmp/err" || fail "top nf ef: $(cat "$tmp/err")"
[ "$(rows "$tmp/t" | wc -l)" = 5 ] && ! grep -q 00005600aa "$tmp/t" ||
  fail "top --by address of a mapping of no file and one of \"\": not one mapping:
$(cat "$tmp/t")"
$PCOL diff "$tmp/nf.pb" "$tmp/ef.pb" --by address --absolute --node-fraction 0 >"$tmp/t" 2>"$tmp/err" ||
  fail "diff nf ef: $(cat "$tmp/err")"
[ -z "$(awk '/^ *base_flat/ {on=1; next} on' "$tmp/t")" ] ||
  fail "diff --by address of a mapping of no file and one of \"\": a change (they are one):
$(cat "$tmp/t")"
echo "ok t_mapping_key"
