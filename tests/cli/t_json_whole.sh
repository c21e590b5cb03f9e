#!/usr/bin/env bash
# CLI: THE whole-number rule of pcol's JSON (lib/core/jstr.h; rd17a F4).
# Every reader of a speedscope or Firefox file (speedscope's and the
# Firefox Profiler's JSON.parse, pcol's importers) reads a number as a
# double: the exports write a whole weight only when that double is it
# (to 2^53, past it a double's, below 2^63), and pcol reads back every
# weight it writes.  Before: a weight in (9.2e18, 2^63) was written and
# refused on import (the Firefox import called 9223372036854774784 "not a
# whole number"), and 2^53 + 1 read back 2^53 with exit 0.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_json_whole: FAIL: $*" >&2; exit 1; }
gen() { python3 tests/support/pprofgen.py typed "$tmp/$1" "$2" "${@:3}" || fail "pprofgen typed $1"; }
L=9007199254740991 # 2^53 - 1 kB: x 1024 = 9223372036854774784 B, the largest multiple of 1024 below 2^63
gen lim.pb inuse_space:kilobytes "2,1:$L"
gen lim1.pb inuse_space:kilobytes "2,1:$((L + 1))"
gen runlim.pb inuse_space:kilobytes "2,1:$((L / 2))" "2,1:$((L / 2 + 1))" "2,1:$((L / 2))" "2,1:1"
gen p53.pb alloc_space:bytes "2,1:9007199254740992"                     # 2^53: a double
gen top.pb alloc_space:bytes "2,1:9223372036854774784"                  # 2^63 - 1024: a double
gen cnt.pb alloc_objects:count "2,1:9223372036854774784"
gen odd.pb alloc_space:bytes "2,1:9007199254740993"                     # 2^53 + 1: no double
gen max.pb alloc_objects:count "2,1:9223372036854775807"                # 2^63 - 1: no double
gen run53.pb alloc_space:bytes "2,1:9007199254740992" "2,1:1"            # a run past 2^53: split
total() { "$PCOL" top "$1" --unit raw -n 1 2>&1 | sed -n 's/^Showing nodes accounting for \([0-9]*\).*/\1/p'; }
# runlim: (3 x (L / 2) + 2) kB = 13510798882111487 kB, in bytes past 2^63 (runs split below it)
for c in lim:9223372036854774784 runlim:13835058055282162688 p53:9007199254740992 top:9223372036854774784 \
         cnt:9223372036854774784 run53:9007199254740993; do
  f=${c%%:*} want=${c#*:}
  for fmt in speedscope firefox; do
    "$PCOL" unpack "$tmp/$f.pb" --to $fmt -o "$tmp/$f.$fmt.json" 2>"$tmp/err" || fail "$f -> $fmt: $(cat "$tmp/err")"
    got=$(total "$tmp/$f.$fmt.json")
    [ "$got" = "$want" ] || fail "$f -> $fmt read back $got (of $want): $("$PCOL" top "$tmp/$f.$fmt.json" 2>&1 | head -3)"
  done
done
# the speedscope copy of run53 ends its run before 2^53 + 1 (two weights)
grep -q '"weights":\[9007199254740992,1\]' "$tmp/run53.speedscope.json" ||
  fail "run53 -> speedscope: $(grep -o '"weights":[^]]*]' "$tmp/run53.speedscope.json")"
# refused, saying why: past 2^63 once in bytes, and whole numbers no double holds
for c in lim1:"beyond 2^63" odd:9007199254740993 max:9223372036854775807; do
  f=${c%%:*} why=${c#*:}
  for fmt in speedscope firefox; do
    "$PCOL" unpack "$tmp/$f.pb" --to $fmt -o "$tmp/$f.$fmt.json" 2>"$tmp/err" && fail "$f -> $fmt written"
    grep -qF "$why" "$tmp/err" && grep -q "holds exactly" "$tmp/err" || fail "$f -> $fmt: $(cat "$tmp/err")"
  done
done
# the Firefox import names an out-of-range whole number so, not "not a whole number"
"$PCOL" unpack "$tmp/top.pb" --to firefox -o "$tmp/big.json" || fail "top -> firefox"
sed -i 's/9223372036854774784/9.3e18/g' "$tmp/big.json"
"$PCOL" top "$tmp/big.json" >/dev/null 2>"$tmp/err" && fail "a Firefox weight of 9.3e18 read"
grep -q "weight in bytes 9300000000000000000 is out of range (a whole number below 2^63 in magnitude)" "$tmp/err" ||
  fail "9.3e18 bytes in a Firefox file: $(cat "$tmp/err")"
sed -i 's/9.3e18/1.5/' "$tmp/big.json"
"$PCOL" top "$tmp/big.json" >/dev/null 2>"$tmp/err" && fail "a Firefox weight of 1.5 bytes read"
grep -q "weight in bytes 1.5 is not a whole number" "$tmp/err" || fail "1.5 bytes in a Firefox file: $(cat "$tmp/err")"
# -2^63 (a double, whole) is out of range too: as an int64 it is PCOL_NA_I64,
# the NA of the value column (rd17b F1: read, top --base said -1B for 0)
sed -i 's/1\.5/-9223372036854775808/' "$tmp/big.json"
"$PCOL" top "$tmp/big.json" >/dev/null 2>"$tmp/err" && fail "a Firefox weight of -2^63 read: $("$PCOL" top "$tmp/big.json" --unit raw 2>&1 | head -3)"
grep -q "weight in bytes -9223372036854775808 is out of range" "$tmp/err" || fail "-2^63 bytes in a Firefox file: $(cat "$tmp/err")"
"$PCOL" unpack "$tmp/top.pb" --to speedscope -o "$tmp/big.json" || fail "top -> speedscope"
sed -i 's/9223372036854774784/9.3e18/g' "$tmp/big.json"
"$PCOL" top "$tmp/big.json" >/dev/null 2>"$tmp/err" && fail "a speedscope weight of 9.3e18 read"
grep -q "a weight out of range (stored in 64 bits: below 2^63" "$tmp/err" || fail "9.3e18 in speedscope: $(cat "$tmp/err")"
# Decimal and exponent-form numbers at the limits, as speedscope's importer
# reads them (JSON.parse: doubles; tests/interop/t_import_judged.sh judges
# the same cases with speedscope itself; tests/support/speedscope_limits.py): a sampled
# profile's weights, an evented profile's at and startValue.  Each is read
# as speedscope reads it (`pcol fold`: each stack's weight, speedscope's
# frame weights in pcol's unit: ms in ns, a fraction in a decimal unit,
# 2^53 + 1 the double 2^53) or refused naming the file and where, never
# another number (h3: before, weights of 1e-12 read as 0 with exit 0, 1e-7
# beside 1e15 as 0; a startValue of 1e19 was taken as 0 and the times
# refused as out of range, "NaN" as 0).  THE kept rule over the file
# (pcol_kept_verdict, h14): a weight pcol's grid does not hold to six
# significant digits is rounded to it with ONE warning when the rounding
# changes its value type's total by a millionth or less (1e-7 beside 1e15,
# 1e-12 beside 1: held as 0), else refused (only 1e-12 weights: a total of
# 0).  A Firefox file's decimal weights the same (a count's held as 1e-9,
# tracing-ms in ns), and a Perun file's real amounts.
warned() { # what words: $tmp/err is one warning, holding the words
  [ "$(grep -c . "$tmp/err")" = 1 ] && grep -qF -- "warning: " "$tmp/err" && grep -qF -- "$2" "$tmp/err" ||
    fail "$1: $(cat "$tmp/err"); want one warning: $2"
}
python3 tests/support/speedscope_limits.py "$tmp" >"$tmp/limits.tsv" || fail "the limit cases"
n=0
while IFS=$'\t' read -r name want _; do
  n=$((n + 1))
  if "$PCOL" fold "$tmp/$name.json" >"$tmp/fold" 2>"$tmp/err"; then
    got=$(paste -sd'|' "$tmp/fold")
    [ "$got" = "$want" ] || fail "speedscope $name: pcol fold says $got, speedscope reads $want"
    case $name in # (the rounded ones: one warning, naming the first)
      s-bigsmall) warned "speedscope $name" "$name.json: 1 amount not held to six significant digits (the first: profiles[0].weights[1], 1e-07 held as 0) is rounded to the file's grid, as pcol keeps them, 1 of them to 0: the total lost 1e-07 of 1000000000000000.0000001 (less than a millionth)" ;;
      s-beside1) warned "speedscope $name" "$name.json: 1 amount not held to six significant digits (the first: profiles[0].weights[1], 1e-12 held as 0) is rounded" ;;
      *) [ ! -s "$tmp/err" ] || fail "speedscope $name: $(cat "$tmp/err")" ;;
    esac
  else
    case $want in
      "refused: "*) grep -qF -- "$name.json" "$tmp/err" && grep -qF -- "${want#refused: }" "$tmp/err" ||
                    fail "speedscope $name: $(cat "$tmp/err"); want ${want#refused: }" ;;
      *) fail "speedscope $name refused: $(cat "$tmp/err") (speedscope reads $want)" ;;
    esac
  fi
done <"$tmp/limits.tsv"
[ "$n" -ge 20 ] || fail "only $n limit cases"
gen cnt57.pb alloc_objects:count "2,1:5" "3,1:7"
gen ns57.pb wall:nanoseconds "2,1:5000" "3,1:7000"
"$PCOL" unpack "$tmp/cnt57.pb" --to firefox -o "$tmp/cnt57.json" || fail "cnt57 -> firefox"
"$PCOL" unpack "$tmp/ns57.pb" --to firefox -o "$tmp/ns57.json" || fail "ns57 -> firefox"
grep -q '"weight":\[5,7\]' "$tmp/cnt57.json" && grep -q '"weight":\[0.005,0.007\]' "$tmp/ns57.json" || fail "the Firefox copies' weights"
fold_is() { # what file want [warning]: pcol fold's lines joined by '|' (and words of its one warning, else none), or "refused: " and words its message holds (with the file's name)
  if "$PCOL" fold "$2" >"$tmp/fold" 2>"$tmp/err"; then
    [ "$(paste -sd'|' "$tmp/fold")" = "$3" ] || fail "$1: pcol fold says $(paste -sd'|' "$tmp/fold"), want $3"
    if [ -n "${4:-}" ]; then warned "$1" "$2: $4"; else [ ! -s "$tmp/err" ] || fail "$1: $(cat "$tmp/err")"; fi
  else
    case $3 in
      "refused: "*) grep -qF -- "$2" "$tmp/err" && grep -qF -- "${3#refused: }" "$tmp/err" || fail "$1: $(cat "$tmp/err"); want ${3#refused: }" ;;
      *) fail "$1 refused: $(cat "$tmp/err") (want $3)" ;;
    esac
  fi
}
ff() { # name source weights want [warning]
  sed "s/\"weight\":\[[0-9.,e-]*\]/\"weight\":[$3]/" "$tmp/$2.json" >"$tmp/ff-$1.json"
  fold_is "Firefox $1" "$tmp/ff-$1.json" "$4" "${5:-}"
}
ff frac cnt57 "1.5,7" "main;alpha 1.5|main;beta 7"
ff tiny cnt57 "1e-12,7" "main;beta 7" "1 amount not held to six significant digits (the first: threads[0].samples.weight[0], 1e-12 held as 0) is rounded to the file's grid, as pcol keeps them, 1 of them to 0: the total lost 1e-12 of 7.000000000001 (less than a millionth)"
ff tiny2 cnt57 "7,1e-12" "main;alpha 7" "1 amount not held to six significant digits (the first: threads[0].samples.weight[1], 1e-12 held as 0)"
ff tinies cnt57 "1e-12,1e-12" "refused: threads[0].samples.weight[0]: weight 1e-12 of weightType samples is not held to six significant digits (pcol holds it as whole multiples of 1e-9); its value type's 2 amounts so rounded lose 2e-12 of their total 2e-12, more than a millionth"
ff ms ns57 "0.0015,7" "main;alpha 1500|main;beta 7000000"
ff subns ns57 "1e-9,7" "main;beta 7000000" "1 amount not held to six significant digits (the first: threads[0].samples.weight[0], 1e-09 held as 0) is rounded"
ff subnses ns57 "1e-9,2e-9" "refused: threads[0].samples.weight[0]: weight 1e-09 of weightType tracing-ms is not held to six significant digits"
# the loss and the total said exactly, the sums of the file's numbers (review
# h7: "lose 4.000000000000001e-07", "of 0.30000000000099997": the
# arithmetic's digits of the doubles' sums)
ff subus ns57 "1.1e-6,1.3e-6" "refused: threads[0].samples.weight[0]: weight 1.1e-06 of weightType tracing-ms is not held to six significant digits (pcol holds it as whole multiples of 1e-6 ms (a ns)); its value type's 2 amounts so rounded lose 4e-07 of their total 2.4e-06, more than a millionth"
ff tinysum cnt57 "1e-12,0.3" "main;beta 0.3" "1 amount not held to six significant digits (the first: threads[0].samples.weight[0], 1e-12 held as 0) is rounded to the file's grid, as pcol keeps them, 1 of them to 0: the total lost 1e-12 of 0.300000000001 (less than a millionth)"
ff tinyexact cnt57 "0.1,2.0000000000007e-12" "main;alpha 0.1" "1 amount not held to six significant digits (the first: threads[0].samples.weight[1], 2.0000000000007e-12 held as 0) is rounded to the file's grid, as pcol keeps them, 1 of them to 0: the total lost 2e-12 of 0.1000000000020000000000007 (less than a millionth)"
# Perun (lib/convert/perun): an amount is a Python float; a file with a real
# amount stores each x 10^K, K from its largest (pcol_decimals_for), and an
# amount that grid does not hold to six significant digits is rounded with
# one warning or refused the same way (THE kept rule, pcol_kept_verdict),
# naming file, line:col, place, amount (and grid).  h13: before, 1e-12
# beside 2.5 (K = 9) and 1e-7 beside 1e15 (K = 3) were held as 0 with exit
# 0 and no word (f's stack gone from every view; now said, the totals
# within a millionth), and only 1e-12 amounts read as a total of 0;
# and a -Infinity amount (Python's json writes it; no value) sized the grid:
# K = 0, python-nonfinite.perf's 0.1012 + 0.5 + 2 s read as 3 s.
perun() { # name amount-of-main amount-of-f
  printf '%s\n' '{"header": {"type": "memory", "units": {"memory": "B"}}, "collector_info": {"name": "memory"},' \
    ' "origin": "x", "postprocessors": [], "models": [], "global": {"time": "0.1s", "resources": [' \
    "  {\"type\": \"memory\", \"subtype\": \"malloc\", \"uid\": \"main\", \"amount\": $2, \"trace\": [{\"function\": \"main\", \"source\": \"m.c\", \"line\": 1}]}," \
    "  {\"type\": \"memory\", \"subtype\": \"malloc\", \"uid\": \"f\", \"amount\": $3, \"trace\": [{\"function\": \"f\", \"source\": \"m.c\", \"line\": 2}]}]}}" >"$tmp/$1.perf"
}
pw() { fold_is "Perun $1" "$tmp/$1.perf" "$2" "${3:-}"; } # name want [warning]
perun p-ok 2.5 0.000001
pw p-ok "f 0.000001|main 2.5"
perun p-tiny 2.5 1e-12
pw p-tiny "main 2.5" "1 amount not held to six significant digits (the first: line 2 column 93, global.resources[1].amount, 1e-12 held as 0) is rounded to the file's grid, as pcol keeps them, 1 of them to 0: the total lost 1e-12 of 2.500000000001 (less than a millionth)"
perun p-tinies 1e-12 1e-12
pw p-tinies "refused: global.resources[0].amount 1e-12 is not held to six significant digits: pcol holds this file's amounts as whole multiples of 1e-09 (at most 9 decimals, and few enough that its largest, 1e-12, fits in 64 bits); its value type's 2 amounts so rounded lose 2e-12 of their total 2e-12, more than a millionth"
perun p-bigsmall 1e15 1e-7
pw p-bigsmall "main 1000000000000000" "1 amount not held to six significant digits (the first: line 2 column 93, global.resources[1].amount, 1e-07 held as 0) is rounded"
perun p-big 1e15 0.125
pw p-big "f 0.125|main 1000000000000000"
perun p-inf 2.5 -Infinity
pw p-inf "main 2.5"
sed 's/"sleep#2": {"amount": \[0.001, 2\]/"sleep#2": {"amount": [1e-12, 2]/' tests/fixtures/perun/time.perf >"$tmp/p-col.perf"
pw p-col "sleep 2202861000" "1 amount not held to six significant digits (the first: line 14 column 16, amount[0], 1e-12 held as 0) is rounded to the file's grid, as pcol keeps them, 1 of them to 0: the total lost 1e-12 of 2.202861000001 (less than a millionth)"
sed 's/"amount": 4096/"amount": 1e-12/' tests/fixtures/perun/layout2-snapshots.perf >"$tmp/p-snap.perf"
pw p-snap "grow;malloc 10|grow;realloc 20" "1 amount not held to six significant digits (the first: line 20 column 19, snapshots[1].resources[0].amount, 1e-12 held as 0) is rounded"
sed 's/"amount": \(10\|20\|4096\),/"amount": 1e-12,/' tests/fixtures/perun/layout2-snapshots.perf >"$tmp/p-snaps.perf"
pw p-snaps "refused: p-snaps.perf:7:19: snapshots[0].resources[0].amount 1e-12 is not held to six significant digits"
cp tests/fixtures/perun/python-nonfinite.perf "$tmp/p-nonfinite.perf"
pw p-nonfinite "sleep 2601200000"
# a value type a subtype (units "time(user)", "time(sys)"), an amount of
# each rounded: ONE warning, a clause a value type with its own count,
# first, loss and total (before: "2 amounts ... the total lost 3e-12 of
# 0.400000000003", both counted, the loss and total of one of them)
sed 's/"units": {"time": "s"}/"units": {"time(real)": "s", "time(user)": "s", "time(sys)": "s"}/; s/"sleep#2": {"amount": \[0.001, 2\]/"sleep#2": {"amount": [1e-12, 2]/; s/"sleep#1": {"amount": \[0.0, 0.000731\]/"sleep#1": {"amount": [3e-12, 0.4]/' \
  tests/fixtures/perun/time.perf >"$tmp/p-types.perf"
pw p-types "sleep 2000000000" "2 amounts not held to six significant digits are rounded to the file's grid, as pcol keeps them, 2 of them to 0, each value type's loss less than a millionth of its total: time(user): 1 (the first: line 13 column 16, amount[0], 3e-12 held as 0), 1 to 0, lost 3e-12 of 0.400000000003; time(sys): 1 (the first: line 14 column 16, amount[0], 1e-12 held as 0), 1 to 0, lost 1e-12 of 2.000000000001"
# one of them rounded: that value type named, the total its own
sed 's/"sleep#1": {"amount": \[3e-12, 0.4\]/"sleep#1": {"amount": [0.1, 0.4]/' "$tmp/p-types.perf" >"$tmp/p-type1.perf"
pw p-type1 "sleep 2000000000" "value type time(sys): 1 amount not held to six significant digits (the first: line 14 column 16, amount[0], 1e-12 held as 0) is rounded to the file's grid, as pcol keeps them, 1 of them to 0: the total lost 1e-12 of its total 2.000000000001 (less than a millionth)"
# a file read twice (diff's two sides, a union of it with itself, it and
# its --base): its warning said once (before: twice, a line each or "; ")
for c in "diff @F@ @F@" "top @F@ @F@" "fold @F@ --base @F@" "flame @F@ --diff @F@ -o $tmp/fl.svg"; do
  "$PCOL" ${c//@F@/$tmp/p-type1.perf} >/dev/null 2>"$tmp/err" || fail "$c: $(cat "$tmp/err")"
  [ "$(grep -o 'p-type1.perf: value type' "$tmp/err" | wc -l)" = 1 ] || fail "pcol $c: not one warning: $(cat "$tmp/err")"
done
echo "t_json_whole: speedscope and Firefox weights to 2^63 - 1024 read back exactly, no double refused; $n speedscope limits and 7 Firefox ones read as speedscope reads them (rounded with a warning) or refused; 13 Perun files as Perun reads them (rounded with a warning, a value type's own) or refused, a file read twice warned of once"
