#!/usr/bin/env bash
# Tiny valid files that declare huge work (issue 28 #5, #6, #9), built by a
# generator (tests/support/bombs.py, from the spec-only writer): every
# command refuses with exit 1 (the row budget) or 3 (an output budget) and a message naming the file, the budget and
# how to raise it, in seconds, and never publishes a partial -o file.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_bombs: $*" >&2; exit 1; }
gen() { python3 tests/support/bombs.py "$1" "$tmp/$1.pcol" "${@:2}" || fail "python3 could not write $1"; }
# bounded CMD...: CMD within 60 s of CPU (ulimit -t; each takes under 6 s
# alone), and 600 s of wall-clock time for one that blocks: a wall-clock
# 60 s was load's to decide (report of name16.pcol: 1.05 s of CPU took 24 s
# at load 30 on two cores, on the plain build; make test runs this on the
# ASan build)
bounded() { (ulimit -t 60; exec timeout 600 "$@"); }
# expect RC PATTERN CMD...: exit RC, stderr matching PATTERN, bounded
expect() {
  local want=$1 pat=$2; shift 2
  bounded "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  [ $rc = "$want" ] || fail "'$*': exit $rc, want $want: $(head -c 400 "$tmp/err")"
  grep -q -- "$pat" "$tmp/err" || fail "'$*' did not say '$pat': $(head -c 400 "$tmp/err")"
}
budget='the output would be larger than the output budget of 33554432 bytes (128 x the input'

# #6: 2^29 samples in ~66 KB: the row budget refuses at open, for every command
gen rows
[ "$(stat -c %s "$tmp/rows.pcol")" -lt 70000 ] || fail "the row bomb should be tiny"
rowmsg='rows.pcol: the file declares 536870913 rows in its tables, more than the row budget of'
for c in "top" "tree" "validate" "info" "cat --table samples" "fold" "traces" "tags" "report -o $tmp/r.html" \
         "flame -o $tmp/r.svg" "unpack --to pprof -o $tmp/r.pb.gz" "unpack --to perun -o $tmp/r.perf"; do
  expect 1 "$rowmsg" "$PCOL" $c "$tmp/rows.pcol"
  grep -q -- '--max-rows' "$tmp/err" || fail "$c: the message does not say how to raise the row budget"
done
expect 1 "$rowmsg" "$PCOL" merge "$tmp/rows.pcol" -o "$tmp/m.pcol"
ls "$tmp"/r.* "$tmp/m.pcol" 2>/dev/null && fail "an output was written for a refused input"
# an explicit budget is the budget: a low one refuses a small real file
expect 1 'more than the row budget of 10 (set by --max-rows' "$PCOL" top examples/demo.out --max-rows 10
expect 2 'max-rows must be at least 1' "$PCOL" top examples/demo.out --max-rows 0

# #6: 16 Mi - 1 samples in ~2 KB, within the row budget at open: pprof,
# otlp and perun stream their samples and hold none (pprof took 2.4 GB and
# 44 s once; the Perun exporter held each sample, so it refused from the
# row count, and before that ran out of memory under a 1 GiB address-space
# cap): otlp refuses from its count of rows what even the least each
# Sample takes would write past the output budget, before writing
# anything; perun (kperf style: a sum a stack) writes the one stack's
# 16777215 samples, and so does speedscope
python3 tests/support/bombs.py rows "$tmp/r16.pcol" 16777215 || fail "python3: r16"
[ "$(stat -c %s "$tmp/r16.pcol")" -lt 4096 ] || fail "the 16 Mi-sample bomb should be tiny"
# ... while a tiny file of a million samples (as zstd makes of real ones)
# exports by default: the hold is not the 32 MiB output budget of its size
python3 tests/support/bombs.py rows "$tmp/r1m.pcol" 1000000 || fail "python3: r1m"
for to in pprof perun; do
  "$PCOL" unpack --to "$to" "$tmp/r1m.pcol" -o "$tmp/r1m.$to" 2>"$tmp/err" ||
    fail "$to export of 1M samples in $(stat -c %s "$tmp/r1m.pcol") bytes refused: $(cat "$tmp/err")"
done
# (the hold is the output budget, 32 MiB here, but at least 512 MiB by
# default, so a zstd file of a million real samples still exports)
held='would hold more than 512 MiB in memory'
# (the 1 GiB address-space cap proves nothing was taken before refusing; an
# ASan build reserves terabytes of shadow memory at start, so it runs uncapped)
cap=(prlimit --as=1073741824)
grep -qa __asan_init "$PCOL" && cap=()
expect 3 "r16.pcol: otlp export: the output would be larger than the output budget" \
  "${cap[@]}" "$PCOL" unpack --to otlp "$tmp/r16.pcol" -o "$tmp/r16.otlp"
grep -q -- '--max-output' "$tmp/err" || fail "otlp: the message does not say how to raise the budget"
[ -e "$tmp/r16.otlp" ] && fail "otlp: an output was written for a refused export"
bounded "${cap[@]}" "$PCOL" unpack --to perun "$tmp/r16.pcol" -o "$tmp/r16.perf" 2>"$tmp/err" ||
  fail "perun export of the 16 Mi samples: exit $?: $(head -c 400 "$tmp/err")"
grep -q '"amount":\[16777215\]' "$tmp/r16.perf" || fail "perun: the 16777215 samples are not one amount: $(head -c 400 "$tmp/r16.perf")"
"$PCOL" pack "$tmp/r16.perf" -o "$tmp/r16b.pcol" && "$PCOL" top "$tmp/r16b.pcol" >"$tmp/out" &&
  grep -q 'of 16777215 total' "$tmp/out" || fail "perun: the export does not read back as 16777215 samples"
# speedscope kept a source's rows in an array (477 MB here); it selects them
# again for each pass now
bounded "${cap[@]}" "$PCOL" unpack --to speedscope "$tmp/r16.pcol" -o "$tmp/r16.ss.json" 2>"$tmp/err" ||
  fail "speedscope export of the 16 Mi samples: exit $?: $(head -c 400 "$tmp/err")"
grep -q '"weights":\[16777215\]' "$tmp/r16.ss.json" || fail "speedscope: the 16777215 samples are not one run: $(head -c 400 "$tmp/r16.ss.json")"

# the Firefox export writes every row in three columns, so it refuses the
# 16 Mi rows from their count, before selecting them (it took 11 s and
# 460 MB): under a 256 MiB address-space cap it still says the budget
[ ${#cap[@]} -gt 0 ] && cap=(prlimit --as=268435456)
expect 3 "r16.pcol: firefox export: the output would be larger than the output budget" \
  "${cap[@]}" "$PCOL" unpack --to firefox "$tmp/r16.pcol" -o "$tmp/r16.json"
[ -e "$tmp/r16.json" ] && fail "firefox: an output was written for a refused export"
# so do the V8 and Chrome trace exports (at least two numbers a sample)
# and the Perfetto one (at least 16 bytes a sample's packet)
for to in v8 chrome perfetto; do
  expect 3 "r16.pcol: $to export: the output would be larger than the output budget" \
    "${cap[@]}" "$PCOL" unpack --to $to "$tmp/r16.pcol" -o "$tmp/r16.$to.json"
  [ -e "$tmp/r16.$to.json" ] && fail "$to: an output was written for a refused export"
done
# issue 42 F2: the otlp export's stack table holds every selected stack
# whole.  A speedscope evented profile of 100,000 nested opens of one frame
# packs (zstd) into ~90 KB: a chain of 100,000 stacks, Σ depth 5e9 frames
# (20 GB of location indices).  It grew to 6 GB and exited 3 (out of
# memory); now Σ depth is held against the budget first: refused, exit 3,
# under a 256 MiB address-space cap, nothing written.
python3 - "$tmp" <<'PY' || fail "python3 could not write chain.json"
import sys
for name, n in (("chain.json", 100000), ("chain1k.json", 1000)):
  ev = ['{"type":"O","frame":0,"at":%d}' % i for i in range(n)]
  ev += ['{"type":"C","frame":0,"at":%d}' % (n + i) for i in range(n)]
  with open(sys.argv[1] + "/" + name, "w") as f:
    f.write('{"$schema":"https://www.speedscope.app/file-format-schema.json",'
            '"shared":{"frames":[{"name":"f"}]},"profiles":[{"type":"evented","name":"chain",'
            '"unit":"none","startValue":0,"endValue":%d,"events":[%s]}]}' % (2 * n, ",".join(ev)))
PY
# (format 1.2: a 1.3 file counts as the size of its plain columns, doc/safety.md,
# which the chain's count-only values, kept encoded, make 4.9 MB)
"$PCOL" pack "$tmp/chain.json" --compress zstd --format-version 1.2 -o "$tmp/chain.pcol" || fail "pack chain.json"
[ "$(stat -c %s "$tmp/chain.pcol")" -lt 200000 ] || fail "the chain should pack small"
expect 3 "chain.pcol: otlp export: $held" \
  "${cap[@]}" "$PCOL" unpack --to otlp "$tmp/chain.pcol" -o "$tmp/chain.otlp"
[ -e "$tmp/chain.otlp" ] && fail "otlp: an output was written for a refused chain"
# ... and the pprof export, whose budget counts gzip bytes, which 10^10
# repeated location ids stay under for minutes: refused from Σ depth, as
# more than a gzip of at most B inflates to when read back (64 x B)
expect 3 "chain.pcol: pprof export: the samples' stacks hold 10000000000 location ids" \
  "${cap[@]}" "$PCOL" unpack --to pprof "$tmp/chain.pcol" -o "$tmp/chain.pb.gz"
# ... while a chain of 1,000 (Σ depth 500,500: 2 MB) exports, and reads back
"${cap[@]}" "$PCOL" unpack --to otlp "$tmp/chain1k.json" -o "$tmp/chain1k.otlp" 2>"$tmp/err" ||
  fail "otlp export of a 1,000-deep chain refused: $(cat "$tmp/err")"
[ "$("$PCOL" fold "$tmp/chain1k.otlp" | wc -l)" = 1000 ] || fail "the 1,000-deep chain did not read back (one line a depth)"
# ... and the same file of a million samples, whose columns fit, exports
# (it keeps every row of a thread: held against 512 MiB like pprof's)
"$PCOL" unpack --to firefox "$tmp/r1m.pcol" -o "$tmp/r1m.json" 2>"$tmp/err" ||
  fail "firefox export of 1M samples refused: $(cat "$tmp/err")"

# #5: 206 bytes, 16,384 samples on a 16,384-deep stack: 268 M rows of
# sample_locations; cat stops at the budget instead of printing 3.4 GB
gen deep
expect 3 "deep.pcol: $budget" "$PCOL" cat --table sample_locations "$tmp/deep.pcol"
[ "$(stat -c %s "$tmp/out")" -le 33554432 ] || fail "cat wrote past the budget"
expect 3 "set by --max-output" "$PCOL" cat --table sample_locations "$tmp/deep.pcol" --max-output 1M
[ "$(stat -c %s "$tmp/out")" -le 1048576 ] || fail "cat wrote past --max-output"
"$PCOL" cat --table sample_locations "$tmp/deep.pcol" --limit 3 | tail -1 | grep -q '^1	3	1$' ||
  fail "a small view of the same file is still printed"

# one location with 512 Ki inline lines (the issue's 4 Mi take 17 s to lay
# out before the refusal; the rule is the same): the flame graph is refused
# before a byte is written (frames x their least size), no SVG is left
gen inline 524288
echo keep > "$tmp/i.svg"
expect 3 "inline.pcol: $budget" "$PCOL" flame "$tmp/inline.pcol" -o "$tmp/i.svg"
[ "$(cat "$tmp/i.svg")" = keep ] || fail "flame changed its destination"

# one function named by 64 MiB: report, and top's name column
# (report: a name of 16 MiB in 2 s rather than the issue's 64 MiB in 14 s;
# the page says each name once, about 16 MiB, so a budget of 8 MiB refuses
# it; with the default (32 MiB) it is written)
python3 tests/support/bombs.py longname "$tmp/name16.pcol" 16777216 || fail "python3: name16"
expect 3 "name16.pcol: the output would be larger than the output budget of 8388608 bytes" \
  "$PCOL" report "$tmp/name16.pcol" -o "$tmp/l.html" --max-output 8M
[ -e "$tmp/l.html" ] && fail "report left a partial page"
"$PCOL" report "$tmp/name16.pcol" -o "$tmp/l.html" || fail "report of a 16 MiB name within the default budget"
[ "$(stat -c %s "$tmp/l.html")" -lt 25165824 ] || fail "a 16 MiB name makes a page of $(stat -c %s "$tmp/l.html") bytes (said more than once?)"
gen longname
for c in top traces; do
  expect 3 "longname.pcol: the output would be larger than the output budget" "$PCOL" $c "$tmp/longname.pcol"
done
ls -A "$tmp" | grep -q '\.tmp-' && fail "a temporary output was left behind"

# graph's label boxes: a 328-byte file whose one label set has 16,384
# labels naming one 64 KiB string is 1 GiB of "key:value" text; it took
# 29 s and 5.2 GB before the output budget refused the DOT.  The text is
# held against the budget as it is made: refused at once, under a 256 MiB
# address-space cap (out of memory before); --max-output raises it (a
# small set of 64 labels of 1,000 bytes: drawn by default, refused at 20K)
gen labels
labmsg="labels.pcol: call graph label boxes: their text would pass the output budget of 33554432 bytes"
[ ${#cap[@]} -gt 0 ] && cap=(prlimit --as=268435456)
expect 3 "$labmsg" "${cap[@]}" "$PCOL" graph "$tmp/labels.pcol" -o "$tmp/g.dot"
[ -e "$tmp/g.dot" ] && fail "graph: an output was written for a refused input"
# the report page makes the boxes itself (graphtags.js) from the labels,
# each string once: it only asks whether some label makes a tag, so the
# same file makes a page, under the same cap (it built every set's text)
"${cap[@]}" "$PCOL" report "$tmp/labels.pcol" -o "$tmp/lab.html" 2>"$tmp/err" ||
  fail "report of the label bomb: $(head -c 400 "$tmp/err")"
grep -q '"gtags"' "$tmp/lab.html" || fail "report: the label bomb's page has no label boxes"
# ... and their weights: 400 samples on a chain of 400 functions (sample i
# i deep) with one set of 4,000 "bytes" values added every tag to every
# function of each path, 80,000 x 4,000 (about 10 s of CPU); now each
# (function, set) once, then its tags: well under the 3 s of CPU allowed
gen tags
prlimit --cpu=3 "$PCOL" graph "$tmp/tags.pcol" >"$tmp/out" 2>"$tmp/err" ||
  fail "graph of the tags bomb: exit $?: $(head -c 400 "$tmp/err")"
grep -q 'NN1_3 .*shape=box3d' "$tmp/out" || fail "graph: the tags bomb's first node has no 4 value boxes"
python3 tests/support/bombs.py labels "$tmp/lab64.pcol" 64 1000 || fail "python3: lab64"
"$PCOL" graph "$tmp/lab64.pcol" | grep -q box3d || fail "graph: a label set of 64 x 1,000 bytes has no box"
expect 3 "lab64.pcol: call graph label boxes: their text would pass the output budget of 20480 bytes (set by" \
  "$PCOL" graph "$tmp/lab64.pcol" --max-output 20K

# #9: merge --coalesce of samples lasting INT64_MAX: 19 digits are not
# declared as pcol.max_duration_ns; the output validates (merge checks it
# before the rename)
python3 - "$tmp/long.pcol" <<'PY' || fail "python3 could not write long.pcol"
import os, sys
sys.path.insert(0, os.path.join("tests", "conformance"))
import pcolgen as g
p = g.Profile()
src = p.add("sources", source_type=p.s("t"))
for t in (0, 1, 2):
    p.add("samples", source_id=src, time_ns=t, duration_ns=2**63 - 1)
open(sys.argv[1], "wb").write(g.serialize(g.pack(p.materialize())))
PY
"$PCOL" validate --full "$tmp/long.pcol" >/dev/null || fail "the generated input is not valid"
"$PCOL" merge --coalesce "$tmp/long.pcol" "$tmp/long.pcol" -o "$tmp/merged.pcol" 2>"$tmp/err" ||
  fail "merge --coalesce: $(cat "$tmp/err")"
"$PCOL" validate --full "$tmp/merged.pcol" >/dev/null || fail "merge --coalesce wrote an invalid file"
"$PCOL" cat --table meta "$tmp/merged.pcol" | grep -q max_duration && fail "declared a 19-digit duration"

# traces stops at once when the output budget is reached (issue 42 F3): a
# speedscope profile of 30,000 nested opens is a chain of 30,000 stacks, one
# trace each, 450 M frames in all (~35 s of CPU to make them, 7 GB of
# text).  With --max-output 100K it must write at most that, say the budget
# and exit 3 having made only the traces it wrote: within 5 s of CPU
# (prlimit; it needs well under 1 s, ASan included) and 60 s of wall time,
# both guards only, since it was the work after the budget that ran on.
python3 - "$tmp/chain.json" <<'PY' || fail "python3: chain"
import json, sys
n = 30000
ev = [{"type": "O", "frame": 0, "at": i} for i in range(n)] + [{"type": "C", "frame": 0, "at": n}] * n
json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": [{"name": "f"}]},
           "profiles": [{"type": "evented", "name": "chain", "unit": "none", "startValue": 0, "endValue": n,
                         "events": ev}]}, open(sys.argv[1], "w"))
PY
"$PCOL" pack "$tmp/chain.json" -o "$tmp/chain.pcol" || fail "pack chain"
for fmt in text jsonl; do
  expect 3 "chain.pcol: the output would be larger than the output budget of 102400 bytes (set by --max-output" \
    prlimit --cpu=5 "$PCOL" traces "$tmp/chain.pcol" --format $fmt --max-output 100K
  [ "$(stat -c %s "$tmp/out")" -le 102400 ] || fail "traces --format $fmt wrote past --max-output"
done

# An OTLP/JSON line of 1 MB whose string sits 63 AnyValue arrays deep: each
# message's bytes are also in every message around it, and the transcoder
# (lib/convert/otlp/otlp_json.c) once kept each depth's buffers for the next
# message at that depth: 271 MB for this line (2.8 GB 680 deep), out of
# memory under a 128 MiB address-space cap.  Now it needs a few MB.
python3 - "$tmp/deep.json" <<'PY' || fail "python3: deep.json"
import sys
d, s = 63, 1040000
open(sys.argv[1], "w").write('{"resourceProfiles":[{"resource":{"attributes":[{"key":"k","value":' +
                             '{"arrayValue":{"values":[' * d + '{"stringValue":"' + 'a' * s + '"}' + ']}}' * d +
                             '}]}}]}\n')
PY
deepcap=(prlimit --as=134217728)
grep -qa __asan_init "$PCOL" && deepcap=()
"${deepcap[@]}" "$PCOL" pack --from otlp "$tmp/deep.json" -o "$tmp/deep.pcol" 2>"$tmp/err" ||
  fail "a 1 MB OTLP/JSON line 63 deep: $(head -c 300 "$tmp/err")"

# THE loss note of an Rprof export (lib/convert/loss.c) once looked over
# every value type for each vsize.small type and each type held: 64,000
# vsize.small types of distinct units in a 1 MB pprof file took minutes of
# CPU to say what `unpack --to rprof` does not write (16,000: 7 s; quadratic).
# Now a pass or a sort: under a second.  20 s of CPU, not bounded's 60: the
# quadratic took about 110 s on the plain build.
python3 - "$tmp/memtypes.pb" <<'PY' || fail "python3: memtypes.pb"
import sys
sys.path.insert(0, "tests/support")
import pprofgen
n = 64000
pprofgen.typed(sys.argv[1], ",".join("vsize.small:u%d" % i for i in range(n)), "1:" + ",".join("1" * n))
PY
(ulimit -t 20; exec timeout 600 "$PCOL" unpack --to rprof "$tmp/memtypes.pb" -o "$tmp/memtypes.out") 2>"$tmp/err" ||
  fail "unpack --to rprof of 64,000 vsize.small types: exit $?: $(head -c 300 "$tmp/err")"
grep -q 'not a time' "$tmp/err" || fail "unpack --to rprof of 64,000 vsize.small types said no note: $(head -c 300 "$tmp/err")"

# 320,000 mappings of one merge key (one file, size and offset at other
# starts: go's mappingKey, lib/core/builder.c): each was put in the key's
# hash set, one probe chain that every later lookup walked (rd16b F2: top
# 34 s of CPU, a merge of the pcol file with itself longer).  Only a key's
# first row is in the set now: within 10 s of CPU (0.1 s plain).
python3 tests/support/pprofgen.py mapbomb "$tmp/maps.pb" 320000 || fail "pprofgen mapbomb"
(ulimit -t 10; exec "$PCOL" top "$tmp/maps.pb") >/dev/null 2>"$tmp/err" ||
  fail "top of 320,000 mappings of one key: exit $?: $(head -c 300 "$tmp/err")"
(ulimit -t 10; exec "$PCOL" pack "$tmp/maps.pb" -o "$tmp/maps.pcol") 2>"$tmp/err" ||
  fail "pack of 320,000 mappings of one key: exit $?: $(head -c 300 "$tmp/err")"
(ulimit -t 10; exec "$PCOL" top "$tmp/maps.pcol" --base "$tmp/maps.pcol") >/dev/null 2>"$tmp/err" ||
  fail "top --base of 320,000 mappings of one key: exit $?: $(head -c 300 "$tmp/err")"
exit 0
