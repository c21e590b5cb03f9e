#!/usr/bin/env bash
# Hostile input, round two (issue 20) through the CLI: the export budget
# (`unpack --max-output`), the decompression cap (`pack --max-input`) and
# format detection.  Exit codes: 1 bad input, 2 usage; no partial output.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_hostile: $*" >&2; exit 1; }

# A 1 KB pprof: one location with 1024 inline frames of one function whose
# name is 256 KiB, so a stack's text is 256 MiB.
python3 tests/support/amplifier.py "$tmp/amp.pb.gz" || fail "python3 could not write the test profile"
[ "$(stat -c %s "$tmp/amp.pb.gz")" -lt 4096 ] || fail "the amplifier should be tiny"

for fmt in collapsed rprof perun; do
  echo keep > "$tmp/out.$fmt"
  $PCOL unpack "$tmp/amp.pb.gz" --to $fmt -o "$tmp/out.$fmt" 2>"$tmp/err"; rc=$?
  [ $rc = 3 ] || fail "$fmt: exit $rc, want 3 (an output past its budget): $(cat "$tmp/err")"
  grep -q 'amp.pb.gz' "$tmp/err" || fail "$fmt: the message does not name the file: $(cat "$tmp/err")"
  grep -q 'output budget of [0-9]* bytes' "$tmp/err" || fail "$fmt: the message does not name the budget"
  grep -q -- '--max-output' "$tmp/err" || fail "$fmt: the message does not say how to raise it"
  [ "$(cat "$tmp/out.$fmt")" = keep ] || fail "$fmt: the destination was changed"
done
# v8: the same, on the amplifier whose value is a time (cpu/nanoseconds)
python3 tests/support/amplifier.py "$tmp/ampt.pb.gz" --time || fail "amplifier.py --time"
echo keep > "$tmp/out.cpuprofile"
$PCOL unpack "$tmp/ampt.pb.gz" --to v8 -o "$tmp/out.cpuprofile" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] && grep -q 'ampt.pb.gz' "$tmp/err" && grep -q 'output budget of [0-9]* bytes' "$tmp/err" &&
  grep -q -- '--max-output' "$tmp/err" || fail "v8: exit $rc, want 3 naming the file and the budget: $(cat "$tmp/err")"
[ "$(cat "$tmp/out.cpuprofile")" = keep ] || fail "v8: the destination was changed"
# chrome (the V8 export's writer, a Profile a thread): the same
echo keep > "$tmp/out.trace.json"
$PCOL unpack "$tmp/ampt.pb.gz" --to chrome -o "$tmp/out.trace.json" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] && grep -q 'ampt.pb.gz: chrome export' "$tmp/err" && grep -q 'output budget of [0-9]* bytes' "$tmp/err" &&
  grep -q -- '--max-output' "$tmp/err" || fail "chrome: exit $rc, want 3 naming the file and the budget: $(cat "$tmp/err")"
[ "$(cat "$tmp/out.trace.json")" = keep ] || fail "chrome: the destination was changed"
ls -A "$tmp" | grep -q '\.tmp-' && fail "a temporary output was left behind"
# fold holds its sorted lines: the same budget, the same message, nothing printed
$PCOL fold "$tmp/amp.pb.gz" >"$tmp/fold.out" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] || fail "fold: exit $rc, want 3: $(cat "$tmp/err")"
grep -q 'amp.pb.gz: would hold more output in memory than the output budget of [0-9]* bytes' "$tmp/err" ||
  fail "fold: the message does not name the budget: $(cat "$tmp/err")"
[ -s "$tmp/fold.out" ] && fail "fold printed part of its output"
# --max-output sets the budget both ways: the demo's 544-byte fold passes 544
# and is refused at 543
n=$($PCOL fold examples/demo.out | wc -c)
$PCOL fold examples/demo.out --max-output "$n" | cmp -s - <($PCOL fold examples/demo.out) ||
  fail "fold --max-output $n (its exact size) should print it all"
$PCOL fold examples/demo.out --max-output $((n - 1)) >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 3 ] && grep -q 'set by --max-output' "$tmp/err" || fail "fold --max-output $((n - 1)): exit $rc: $(cat "$tmp/err")"
# graph --format callgrind names a function once too ("(N)" after its
# first line): the 256 KiB name once, within the default budget; below its
# size --max-output refuses it and leaves no file
$PCOL graph "$tmp/amp.pb.gz" --format callgrind -o "$tmp/amp.callgrind" 2>"$tmp/err" ||
  fail "graph --format callgrind of the amplifier: $(cat "$tmp/err")"
[ "$(stat -c %s "$tmp/amp.callgrind")" -lt 300000 ] || fail "graph --format callgrind: the name is written more than once"
$PCOL graph "$tmp/amp.pb.gz" --format callgrind --max-output 100000 -o "$tmp/amp2.callgrind" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] && grep -q 'output budget of 100000 bytes (set by --max-output' "$tmp/err" ||
  fail "graph --format callgrind --max-output 100000: exit $rc: $(cat "$tmp/err")"
[ ! -e "$tmp/amp2.callgrind" ] || fail "graph --format callgrind past the budget left an output"
# speedscope and pprof name the function once: no amplification
$PCOL unpack "$tmp/amp.pb.gz" --to speedscope -o "$tmp/out.json" || fail "speedscope of the amplifier"
$PCOL unpack "$tmp/amp.pb.gz" --to pprof -o "$tmp/out.pb.gz" || fail "pprof of the amplifier"
# perfetto interns the name once on its sequence: no amplification either
$PCOL unpack "$tmp/amp.pb.gz" --to perfetto -o "$tmp/out.pftrace" || fail "perfetto of the amplifier"
[ "$(stat -c %s "$tmp/out.pftrace")" -lt 1000000 ] || fail "perfetto of the amplifier: $(stat -c %s "$tmp/out.pftrace") bytes"
# ... but an Rprof line-profiling function is a speedscope frame per
# (function, line) (pcolLine), each writing its name and file: a 4 KiB name
# at 600 lines is 2.5 MB of frames, written after the profiles.  The
# budget's check before a profile counts them (their least bytes): refused
# before a profile is written, so that at most the document's head reaches
# standard output (before, the profiles were written and the frames refused
# at the budget: 1 MiB out)
python3 - "$tmp/lines.out" <<'PY' || fail "python3: lines.out"
import sys
name = "f" * 4096
with open(sys.argv[1], "w") as o:
    o.write("line profiling: sample.interval=20000\n#File 1: lines.R\n")
    for k in range(1, 601):
        o.write('1#%d "%s" \n' % (k, name))
PY
$PCOL unpack "$tmp/lines.out" --to speedscope --max-output 1M -o - >"$tmp/lines.json" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] && grep -q 'output budget of 1048576 bytes (set by --max-output' "$tmp/err" ||
  fail "speedscope of 600 lines of a 4 KiB name, --max-output 1M: exit $rc, want 3: $(cat "$tmp/err")"
[ "$(stat -c %s "$tmp/lines.json")" -lt 4096 ] ||
  fail "speedscope of 600 lines of a 4 KiB name: $(stat -c %s "$tmp/lines.json") bytes written before the refusal"
$PCOL unpack "$tmp/lines.out" --to speedscope -o "$tmp/lines.json" || fail "speedscope of 600 lines of a 4 KiB name"
[ "$(grep -o '"pcolLine":true' "$tmp/lines.json" | wc -l)" = 600 ] || fail "speedscope of 600 lines: not a frame a line"

# --max-output: lower and raise the budget; a bad value is a usage error
printf 'main;a 3\nmain;b 2\n' > "$tmp/s.folded"
$PCOL pack "$tmp/s.folded" -o "$tmp/s.pcol" || fail "pack s.folded"
$PCOL unpack "$tmp/s.pcol" --to collapsed --max-output 5 -o "$tmp/s.out" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] || fail "--max-output 5: exit $rc, want 3"
grep -q 's.pcol' "$tmp/err" || fail "--max-output 5: the message does not name the file: $(cat "$tmp/err")"
[ ! -e "$tmp/s.out" ] || fail "--max-output 5 left an output"
$PCOL unpack "$tmp/s.pcol" --to collapsed --max-output 100000 -o "$tmp/s.out" || fail "--max-output 100000"
cmp -s "$tmp/s.folded" "$tmp/s.out" || fail "--max-output changed the output"
for v in 0 abc -1; do
  $PCOL unpack "$tmp/s.pcol" --to collapsed --max-output "$v" -o "$tmp/s2.out" 2>/dev/null; rc=$?
  [ $rc = 2 ] || fail "--max-output $v: exit $rc, want 2"
  # the same rule in every command that takes it (fold took 0 as the default)
  for c in "fold" "top" "export --to clickhouse -o $tmp/ch"; do
    $PCOL $c "$tmp/s.pcol" --max-output "$v" >/dev/null 2>&1; rc=$?
    [ $rc = 2 ] || fail "$c --max-output $v: exit $rc, want 2"
  done
done

# A gzip bomb: a protobuf field 1 of 200 MiB of zeros in 200 KB (detected
# as pprof by its inflated head).  The default cap (64 x the compressed
# bytes, at least 32 MiB) stops it while inflating.
python3 -c "
import gzip, sys
with gzip.open(sys.argv[1], 'wb', 9) as g:
    g.write(bytes([0x0a, 0x80, 0x80, 0x80, 0x64]))  # field 1, 200 MiB long
    z = bytes(1 << 20)
    for _ in range(200): g.write(z)" "$tmp/bomb.pb.gz" || fail "python3 could not write the bomb"
$PCOL pack "$tmp/bomb.pb.gz" -o "$tmp/bomb.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "bomb: exit $rc, want 1: $(cat "$tmp/err")"
grep -q 'bomb.pb.gz: gzip data inflates to more than' "$tmp/err" || fail "bomb: $(cat "$tmp/err")"
grep -q -- '--max-input' "$tmp/err" || fail "bomb: the message does not say how to raise the cap"
[ ! -e "$tmp/bomb.pcol" ] || fail "bomb: an output was left"
# raised, it inflates, and then is no profile (a different message)
$PCOL pack "$tmp/bomb.pb.gz" --max-input 300000000 -o "$tmp/bomb.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "bomb with --max-input: exit $rc, want 1"
grep -q 'inflates to more than' "$tmp/err" && fail "--max-input did not raise the cap"
for v in 0 abc; do
  $PCOL pack "$tmp/bomb.pb.gz" --max-input "$v" -o "$tmp/bomb.pcol" 2>/dev/null; rc=$?
  [ $rc = 2 ] || fail "--max-input $v: exit $rc, want 2"
done

# detection: a negative first count; a first line longer than the 4 KB head
# (its 'b' reads as a protobuf tag); a one-line file without a line end
printf 'a;b -5\na;c 3\n' > "$tmp/neg.folded"
$PCOL pack "$tmp/neg.folded" -o "$tmp/neg.pcol" || fail "a negative first count is not detected"
python3 -c "
import sys
open(sys.argv[1], 'w').write('bar;' + 'x' * (10 << 20) + ' 3\nbar 1\n')" "$tmp/long.folded"
$PCOL pack "$tmp/long.folded" -o "$tmp/long.pcol" 2>"$tmp/err" || fail "a 10 MB first line: $(cat "$tmp/err")"
$PCOL unpack "$tmp/long.pcol" --to collapsed -o "$tmp/long.out" || fail "unpack the long line"
cmp -s "$tmp/long.folded" "$tmp/long.out" || fail "the long line did not round-trip"
printf 'a;b 1' > "$tmp/one.folded"
$PCOL pack "$tmp/one.folded" -o "$tmp/one.pcol" || fail "a one-line file without a line end"

# A Chrome trace's E events at one time of one thread are held in memory
# to be matched as speedscope matches them: at most 2^20 (doc/mappings.md
# §14); one more refuses the trace, naming the file and the event.  Here
# a frame stays open while they are taken, none matching it (speedscope's
# merge, and pcol's before, scanned all the others at each: minutes).
ties() { # out n: a and b open at 0, at 1 an E of b and n-1 nameless E events, a's E at 2
  python3 -c "
import gzip, sys
n = int(sys.argv[2])
with gzip.open(sys.argv[1], 'wt') as f:
    f.write('[{\"ph\":\"B\",\"name\":\"a\",\"ts\":0},{\"ph\":\"B\",\"name\":\"b\",\"ts\":0},{\"ph\":\"E\",\"name\":\"b\",\"ts\":1}')
    f.write(',{\"ph\":\"E\",\"ts\":1}' * (n - 1))
    f.write(',{\"ph\":\"E\",\"name\":\"a\",\"ts\":2}]')" "$1" "$2" || fail "python3 could not write $1"
}
ties "$tmp/ties.json.gz" 1048576
# (a nameless E closes the innermost open B, as chrome://tracing and
# Perfetto do: the first closes a at 1; the other E events match nothing)
[ "$($PCOL fold "$tmp/ties.json.gz" --value wall 2>"$tmp/err" | sort | tr '\n' '|')" = "a;b 1000|" ] ||
  fail "2^20 E events at one ts: $(cat "$tmp/err")"
grep -q ' 1048575 E events matching no open B' "$tmp/err" || fail "2^20 E events at one ts: $(cat "$tmp/err")"
ties "$tmp/ties1.json.gz" 1048577
$PCOL fold "$tmp/ties1.json.gz" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "2^20 + 1 E events at one ts: exit $rc, want 1: $(cat "$tmp/err")"
grep -q 'ties1.json.gz: traceEvents\[1048578\]: more than 1048576 E events .* at one time (ts 1.000) of one thread.* at most 1048576' "$tmp/err" ||
  fail "2^20 + 1 E events at one ts: $(cat "$tmp/err")"
# The samples/stackFrames form (Hermes; doc/mappings.md §14): what
# speedscope fails on or never ends reading is refused, naming the file and
# where (samples[N], stackFrames["id"], escaped), exit 1; nothing else
# stops pcol from reading the rest.
python3 - "$tmp" <<'PY' || fail "python3 could not write the samples-form traces"
import json, sys
d = sys.argv[1]
ev = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "t"}}]
def w(name, frames, samples=None):
    if samples is None:
        samples = [{"ts": 1, "pid": 1, "tid": 1, "sf": 3}, {"ts": 2, "pid": 1, "tid": 1, "sf": 3}]
    json.dump({"traceEvents": ev, "samples": samples, "stackFrames": frames}, open(d + "/sf-" + name + ".json", "w"))
w("cycle", {"1": {"name": "a", "parent": 3}, "2": {"name": "b", "parent": "1"}, "3": {"name": "c", "parent": 2}})
w("self", {"3": {"name": "a", "parent": "3"}})
w("parent", {"3": {"name": "a", "parent": "x\"\u001b[2Jy"}})
w("falsy", {"3": None})
w("badparent", {"3": {"name": "a", "parent": 1.5}})
w("badsf", {"3": {"name": "a"}}, [{"ts": 1, "pid": 1, "tid": 1, "sf": {"id": 3}}])
w("badts", {"3": {"name": "a"}}, [{"ts": 1, "pid": 1, "tid": 1, "sf": 3}, {"ts": "0x1g", "pid": 1, "tid": 1, "sf": 3}])
w("nots", {"3": {"name": "a"}}, [{"pid": 1, "tid": 1, "sf": 3}, {"ts": 1, "pid": 1, "tid": 1, "sf": 3}])
w("inf", {"3": {"name": "a"}}, [{"ts": 1, "pid": 1, "tid": 1, "sf": 3}, {"ts": "Infinity", "pid": 1, "tid": 1, "sf": 3}])
w("range", {"3": {"name": "a"}}, [{"ts": 1e300, "pid": 1, "tid": 1, "sf": 3}, {"ts": 2e300, "pid": 1, "tid": 1, "sf": 3}])
w("null", {"3": {"name": "a"}}, [{"ts": 1, "pid": 1, "tid": 1, "sf": 3}, None])
# what speedscope reads is read: a thread's only sample without a ts (or
# one past the range: speedscope never reads it), pids and tids negative or
# fractional, a frame that is a truthy value but no object (named
# "undefined"), names that are arrays and objects
w("lone", {"3": {"name": ["a", 1]}, "4": 7, "5": {"name": {}, "parent": 4}},
  [{"pid": 1, "tid": 1, "sf": 3}, {"ts": 1e300, "pid": 1, "tid": 2, "sf": 3}, {"ts": "0x10", "pid": -1, "tid": 2.5, "sf": 5},
   {"ts": 17, "pid": "-1", "tid": "2.50", "sf": 3}])
w("none", {"3": {"name": "a"}}, [])
w("notarray", {"3": {"name": "a"}}, {"0": {"ts": 1}})
# a chain 30,000 deep whose root frame's parent is the deepest (a cycle
# only its end shows), and the same without it: read
fr = {str(i): {"name": "f%d" % (i % 3), "parent": i - 1} for i in range(2, 30001)}
fr["1"] = {"name": "root", "parent": 30000}
w("deepcycle", fr, [{"ts": 1, "pid": 1, "tid": 1, "sf": 15000}])
fr["1"] = {"name": "root"}
w("deep", fr, [{"ts": 1, "pid": 1, "tid": 1, "sf": 30000}, {"ts": 3, "pid": 1, "tid": 1, "sf": 15000}])
PY
refused() { # name pattern
  $PCOL fold "$tmp/sf-$1.json" >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] || fail "samples form, $1: exit $rc, want 1: $(cat "$tmp/err")"
  grep -q "sf-$1.json: $2" "$tmp/err" || fail "samples form, $1: $(cat "$tmp/err")"
}
refused cycle 'stackFrames\["[0-9]"\]: its parent chain comes back to it'
refused self 'stackFrames\["3"\]: its parent chain comes back to it'
refused parent 'stackFrames\["3"\]: parent "x\\"\\u001b\[2Jy" is no frame.s id'
refused falsy 'stackFrames\["3"\]: a falsy value, no frame'
refused badparent 'stackFrames\["3"\]: parent "1.5" is no frame.s id'
refused badsf 'samples\[0\]: sf "\[object Object\]" is no frame.s id'
refused badts 'samples\[1\]: ts: Number() of it is NaN'
refused nots 'samples\[0\]: ts: Number() of it is NaN'
refused inf 'samples\[1\]: ts: it is infinite'
refused range 'samples\[0\]: ts: it is past'
refused null 'samples\[1\]: null'
refused none 'a trace of "samples" and "stackFrames" without samples'
refused notarray 'samples: not an array'
refused deepcycle 'stackFrames\["[0-9]*"\]: its parent chain comes back to it'
[ "$($PCOL fold "$tmp/sf-deep.json" --value wall | awk '{print NF, $NF, split($1, a, ";")}')" = "2 2000 30000" ] ||
  fail "samples form, a chain 30,000 deep: $($PCOL fold "$tmp/sf-deep.json" --value wall 2>&1 | cut -c1-200)"
[ "$($PCOL fold "$tmp/sf-lone.json" --value wall 2>&1)" = "undefined;[object Object] 1000" ] ||
  fail "samples form, what speedscope reads: $($PCOL fold "$tmp/sf-lone.json" --value wall 2>&1 | head -5)"
[ "$($PCOL info "$tmp/sf-lone.json" | grep -c '^source [0-9]*: .*sf-lone.json: \(t (pid 1, tid 1)\|pid 1, tid 2\|pid -1, tid 2.5\)$')" = 3 ] ||
  fail "samples form, the threads speedscope makes: $($PCOL info "$tmp/sf-lone.json" 2>&1 | grep source)"
# The stack frames are held in memory, at most 2^22: a trace of one more
# (made as it is read: 49 MB) is refused, after reading them all in bounded
# time and memory (2^22 frames of 56 bytes, their index; ASan's allocator
# adds to that), naming the file; 2^22 frames are read.
capped() { # frames
  python3 -c '
import sys
n, o = int(sys.argv[1]), sys.stdout
o.write("{\"traceEvents\":[{\"ph\":\"M\"}],\"samples\":[{\"ts\":1,\"pid\":1,\"tid\":1,\"sf\":%d},"
        "{\"ts\":2,\"pid\":1,\"tid\":1,\"sf\":1}],\"stackFrames\":{\"1\":{\"name\":\"root\"}" % n)
for a in range(2, n + 1, 100000):
    o.write("".join(",\"%d\":1" % i for i in range(a, min(a + 100000, n + 1))))
o.write("}}")' "$1"
}
rss=700000
grep -q AddressSanitizer "$PCOL" 2>/dev/null && rss=2000000
capped 4194305 | (ulimit -t 60; /usr/bin/time -f %M -o "$tmp/rss" $PCOL fold - >/dev/null 2>"$tmp/err"); rc=$?
[ $rc = 1 ] || fail "2^22 + 1 stack frames: exit $rc, want 1: $(cat "$tmp/err")"
grep -q '<stdin>: stackFrames: more than 4194304 frames: pcol holds them in memory, at most 4194304' "$tmp/err" ||
  fail "2^22 + 1 stack frames: $(cat "$tmp/err")"
[ "$(tail -1 "$tmp/rss")" -lt $rss ] || fail "2^22 + 1 stack frames: $(tail -1 "$tmp/rss") KB, more than $rss"
[ "$(capped 4194304 | $PCOL fold - --value wall 2>&1)" = "undefined 1000" ] || fail "2^22 stack frames not read"
exit 0
