#!/usr/bin/env bash
# Collapsed stacks through the CLI: pack/unpack round trips byte for byte for
# aggregated files, unaggregated files come back summed, `pcol fold` agrees.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_collapsed: $*" >&2; exit 1; }

for f in simple decimal diff annotated; do
  $PCOL pack tests/fixtures/collapsed/$f.folded -o "$tmp/$f.pcol" 2>"$tmp/$f.err" || fail "pack $f"
  $PCOL unpack "$tmp/$f.pcol" --to collapsed -o "$tmp/$f.out" || fail "unpack $f"
  cmp -s tests/fixtures/collapsed/$f.folded "$tmp/$f.out" || fail "$f.folded did not round-trip"
done

# a count of more decimals than pcol keeps (9): rounded, and said, on
# standard error and as the source's note (review 12 m2: decimal.folded's
# `main;f 0.0000000001` is 0, its line gone from every view and every
# export but collapsed stacks, total 12.2500000001 -> 12.25, silently)
for f in simple diff annotated; do
  [ -s "$tmp/$f.err" ] && fail "pack $f: $(cat "$tmp/$f.err")"
done
w='decimal.folded: 1 count with more than 9 decimals (the first: line 6) is rounded to the 9th, as pcol keeps them, 1 of them to 0 (a sample the views and the exports leave out, but the collapsed export'"'"'s copy of its line): the total lost 1e-10'
grep -qF "pcol pack: warning: tests/fixtures/collapsed/$w" "$tmp/decimal.err" || fail "pack decimal.folded: stderr '$(cat "$tmp/decimal.err")'"
$PCOL info "$tmp/decimal.pcol" | grep -qF "note:          ${w#decimal.folded: }" || fail "decimal.folded: note $($PCOL info "$tmp/decimal.pcol" | grep note)"
for to in pprof speedscope firefox otlp perun; do
  $PCOL unpack tests/fixtures/collapsed/decimal.folded --to $to -o "$tmp/dec.$to" 2>"$tmp/err" || fail "decimal.folded to $to"
  grep -qF "pcol unpack: warning: tests/fixtures/collapsed/$w" "$tmp/err" || fail "decimal.folded to $to: stderr '$(cat "$tmp/err")'"
done
printf 'a 1.00000000049\nb 0.0000000004\nc 0.00000000051\nd 0.000000001\n' | $PCOL top - >/dev/null 2>"$tmp/err" || fail "top of fine counts"
grep -qF '<stdin>: 3 counts with more than 9 decimals (the first: line 1) are rounded to the 9th, as pcol keeps them, 1 of them to 0' "$tmp/err" &&
  grep -qF 'the total lost 4e-10' "$tmp/err" || fail "fine counts: stderr '$(cat "$tmp/err")'"

$PCOL pack tests/fixtures/collapsed/unaggregated.folded -o "$tmp/u.pcol" || fail "pack unaggregated"
$PCOL unpack "$tmp/u.pcol" --to collapsed -o "$tmp/u.out" || fail "unpack unaggregated"
printf 'main;a 6\nmain;b 1\nmain;b;c 1\n' | cmp -s - "$tmp/u.out" || fail "unaggregated lines not summed"
# pcol fold (sorted) gives the same multiset of lines
$PCOL fold "$tmp/u.pcol" | sort > "$tmp/fold"
sort "$tmp/u.out" | cmp -s - "$tmp/fold" || fail "pcol fold and unpack --to collapsed disagree"

# --value picks a value type (differential file: the before column)
$PCOL unpack "$tmp/diff.pcol" --to collapsed --value count_before -o "$tmp/before" || fail "--value"
head -1 "$tmp/before" | grep -qx 'main;a 10' || fail "--value count_before: $(head -1 "$tmp/before")"

# integer and decimal counts in one file (user review, defect 4): every line
# is in every view, with its count as given; the file still round-trips
printf 'a;b 1.5\nc 2\n' > "$tmp/c2.folded"
$PCOL pack - -o "$tmp/c2.pcol" < "$tmp/c2.folded" || fail "pack mixed counts"
$PCOL fold "$tmp/c2.pcol" | cmp -s "$tmp/c2.folded" - || fail "fold of mixed counts: $($PCOL fold "$tmp/c2.pcol")"
$PCOL top "$tmp/c2.pcol" > "$tmp/top" || fail "top of mixed counts"
grep -q 'of 3.5 total' "$tmp/top" || fail "top total: $(cat "$tmp/top")"
grep -Eq '^ +2 .* c$' "$tmp/top" && grep -Eq '^ +1.5 .* b$' "$tmp/top" || fail "top rows: $(cat "$tmp/top")"
$PCOL top "$tmp/c2.pcol" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)  # numbers stay raw, with their unit (1e-9: the count x 10^9)
assert d["unit"] == "1e-9" and d["total"] == 3500000000, d
rows = {r["name"]: r["flat"] / 1e9 for r in d["rows"]}
assert rows == {"c": 2, "b": 1.5, "a": 0}, rows' || fail "top --format json of mixed counts"
$PCOL flame "$tmp/c2.pcol" -o "$tmp/c2.svg" || fail "flame of mixed counts"
grep -q '<title>⁨c⁩ (2, 57.14%)' "$tmp/c2.svg" && grep -q '<title>⁨b⁩ (1.5, 42.86%)' "$tmp/c2.svg" ||
  fail "flame of mixed counts: $(grep -o '<title>[^<]*' "$tmp/c2.svg")"
$PCOL unpack "$tmp/c2.pcol" --to collapsed -o - | cmp -s "$tmp/c2.folded" - || fail "mixed counts did not round-trip"
printf 'a;b 1.5\nc 0.5\n' | $PCOL pack - -o "$tmp/c1.pcol" || fail "pack of decimal counts"
$PCOL diff --absolute "$tmp/c1.pcol" "$tmp/c2.pcol" | grep -Eq '^ +0.5 +2 +\+1.5 ' || fail "diff of mixed counts"
# no change is "0", as pprof -diff_base prints it; a rise "+N"
printf 'main;work 5\nmain;idle 2\n' >"$tmp/z1.txt"
printf 'main;work 5\nmain;idle 4\n' >"$tmp/z2.txt"
$PCOL diff --absolute "$tmp/z1.txt" "$tmp/z2.txt" | grep -Eq '^ +0 +0 +0 +7 +9 +\+2  main$' || fail "diff: a zero change is not 0"
$PCOL unpack "$tmp/c2.pcol" --to speedscope -o - | python3 -c '
import json, sys
d = json.load(sys.stdin); p = d["profiles"][d["activeProfileIndex"]]
assert p["weights"] == [1.5, 2] and p["endValue"] == 3.5, p' || fail "speedscope of mixed counts"
# the fixture that mixes them (tabs, +7, 1.50): fold and unpack agree
$PCOL fold "$tmp/decimal.pcol" | sort > "$tmp/fold"
printf 'main;a 1.5\nmain;b 0.25\nmain;c 2\nmain;d 7\nmain;e 1.5\n' | cmp -s - "$tmp/fold" || fail "fold of decimal.folded: $(cat "$tmp/fold")"
# merged with an integer-only file: the decimal form covers both
printf 'x;y 3\n' > "$tmp/int.folded"
$PCOL merge "$tmp/int.folded" "$tmp/c2.folded" -o "$tmp/m.pcol" || fail "merge collapsed files"
$PCOL fold "$tmp/m.pcol" | cmp -s - <(printf 'a;b 1.5\nc 2\nx;y 3\n') || fail "fold of merged: $($PCOL fold "$tmp/m.pcol")"

# an Rprof source's default is its time (doc/mappings.md §0), but a collapsed
# file's numbers are sample counts to its readers (§4.2): the export writes
# the ticks, as `pcol fold --value samples`, not fold's nanoseconds
TD=${PCOL_TESTDATA:-../shared/testdata}
if [ -f "$TD/rprof/r-prof-profile__memory.out" ]; then
  $PCOL unpack "$TD/rprof/r-prof-profile__memory.out" --to collapsed -o "$tmp/rp.txt" || fail "unpack Rprof"
  sort "$tmp/rp.txt" | cmp -s - <($PCOL fold --value samples "$TD/rprof/r-prof-profile__memory.out" | sort) || fail "Rprof: fold and unpack --to collapsed disagree"
  # 13 ticks (was 260000000, the ns, read back as 260 million samples: review 19 F1)
  [ "$(awk '{s += $NF} END {print s}' "$tmp/rp.txt")" = 13 ] || fail "Rprof default: $(head -2 "$tmp/rp.txt")"
  # and back to Rprof: a line per sample, 13 (was 260 million)
  $PCOL unpack "$tmp/rp.txt" --to rprof -o "$tmp/rp2.out" 2>/dev/null || fail "collapsed -> rprof"
  [ "$(grep -vc '^sample.interval=' "$tmp/rp2.out")" = 13 ] || fail "Rprof -> collapsed -> Rprof: $(wc -l <"$tmp/rp2.out") lines"
  # a time asked for is written, with a note that it is no count
  $PCOL unpack "$TD/rprof/r-prof-profile__memory.out" --to collapsed --value cpu -o "$tmp/rc.txt" 2>"$tmp/err" || fail "unpack Rprof --value cpu"
  [ "$(awk '{s += $NF} END {print s}' "$tmp/rc.txt")" = 260000000 ] || fail "Rprof --value cpu: $(head -2 "$tmp/rc.txt")"
  grep -qF 'the numbers written are cpu in nanoseconds (--value), not sample counts' "$tmp/err" ||
    fail "Rprof --value cpu: no note of the unit: $(cat "$tmp/err")"
  $PCOL unpack "$TD/rprof/r-prof-profile__memory.out" --to collapsed --value samples -o "$tmp/rp.txt" || fail "unpack Rprof samples"
  [ "$(awk '{s += $NF} END {print s}' "$tmp/rp.txt")" = 13 ] || fail "Rprof --value samples: $(head -2 "$tmp/rp.txt")"
fi

# from stdin, format detected
$PCOL pack - -o "$tmp/stdin.pcol" < tests/fixtures/collapsed/simple.folded || fail "pack from stdin"
$PCOL unpack "$tmp/stdin.pcol" --to folded -o - | cmp -s tests/fixtures/collapsed/simple.folded - || fail "stdin round trip"

# a line that is not "stack count" is skipped and counted in a warning (as
# speedscope and flamegraph.pl do); a count out of range is an error, with
# the file and line
printf 'a;b 1\na;b zz\n' > "$tmp/bad.folded"
$PCOL pack --from collapsed "$tmp/bad.folded" -o "$tmp/bad.pcol" 2>"$tmp/err" || fail "a junk line must be skipped: $(cat "$tmp/err")"
grep -q 'warning: .*bad.folded: skipped 1 line .*line 2' "$tmp/err" || fail "no warning naming the skipped line: $(cat "$tmp/err")"
[ "$($PCOL fold "$tmp/bad.pcol")" = "a;b 1" ] || fail "skipping changed the counted lines: $($PCOL fold "$tmp/bad.pcol")"
printf 'a;b 1\na;b 99999999999999999999\n' > "$tmp/big.folded"
$PCOL pack --from collapsed "$tmp/big.folded" -o "$tmp/big.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "a count beyond 64 bits must exit 1 (got $rc)"
grep -q 'big.folded:2:.*out of range' "$tmp/err" || fail "error lacks file:line: $(cat "$tmp/err")"
# a last line with no line end (a file cut while written: 20000000 read as
# 20) is read as it stands, as flamegraph.pl reads it, with a warning that
# names it; a file whose lines all end says nothing (review 10 m2)
printf 'a;b 10\na;c 20000000\n' > "$tmp/whole.folded"
head -c $(( $(wc -c < "$tmp/whole.folded") - 7 )) "$tmp/whole.folded" > "$tmp/cut.folded"
$PCOL pack --from collapsed "$tmp/cut.folded" -o "$tmp/cut.pcol" 2>"$tmp/err" || fail "a cut last line must be read: $(cat "$tmp/err")"
grep -q 'warning: .*cut.folded: line 2, the last, has no line end' "$tmp/err" || fail "no warning of the cut last line: $(cat "$tmp/err")"
[ "$($PCOL fold "$tmp/cut.pcol" | tail -1)" = "a;c 20" ] || fail "the cut count is read as it stands: $($PCOL fold "$tmp/cut.pcol")"
$PCOL pack --from collapsed "$tmp/whole.folded" -o "$tmp/whole.pcol" 2>"$tmp/err" || fail "pack whole.folded"
[ ! -s "$tmp/err" ] || fail "a file whose lines all end must pack silently: $(cat "$tmp/err")"
printf 'a;b 1\nzz\na;b 2' > "$tmp/both.folded"
$PCOL pack --from collapsed "$tmp/both.folded" -o "$tmp/both.pcol" 2>"$tmp/err" || fail "pack both.folded"
grep -q 'skipped 1 line .*line 2.*; line 3, the last, has no line end' "$tmp/err" || fail "one warning says both: $(cat "$tmp/err")"
# one line per key (review 20b F3): names that read alike once ';', CR, LF
# and NUL become '_' ("semi;colon" and "semi_colon", "a;b" and "a_b" above
# "c") are one line of fold, their values added, as the collapsed export,
# flamegraph.pl and doc/clickhouse.md's GROUP BY add them; it printed the
# key twice
python3 tests/support/pprofgen.py alike "$tmp/alike.pb" || fail "pprofgen alike"
$PCOL fold "$tmp/alike.pb" > "$tmp/alike.fold" || fail "fold alike.pb"
[ "$(awk '{print $1}' "$tmp/alike.fold" | sort | uniq -d)" = "" ] || fail "fold prints a key twice: $(cat "$tmp/alike.fold")"
grep -qx 'main;semi_colon 227' "$tmp/alike.fold" && grep -qx 'main;a_b;c 15' "$tmp/alike.fold" &&
  grep -qx 'main;cr_x 15' "$tmp/alike.fold" && grep -qx 'main;a_b 1' "$tmp/alike.fold" ||
  fail "fold of alike names: $(cat "$tmp/alike.fold")"
[ "$(awk '{s += $NF} END {print s}' "$tmp/alike.fold")" = 261 ] || fail "fold of alike names: not the total 261"
$PCOL unpack "$tmp/alike.pb" --to collapsed -o "$tmp/alike.txt" 2>/dev/null || fail "unpack alike.pb"
[ "$(sort "$tmp/alike.txt")" = "$(cat "$tmp/alike.fold")" ] || fail "fold and the collapsed export differ: $(cat "$tmp/alike.txt")"
exit 0
