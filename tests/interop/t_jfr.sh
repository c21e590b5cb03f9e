#!/usr/bin/env bash
# JDK Flight Recorder recordings judged by the JDK's own `jfr` tool: a
# recording made here with OpenJDK (tests/interop/jfr/Workload.java: four
# named threads, CPU-bound, allocating and blocked in a native call, about
# 2 s, settings=profile with the TLAB allocation events on, three chunks)
# is read by `jfr print --json` and by pcol, and every sample of the
# sampled event types must be one of pcol's with the same time, thread,
# whole stack (names, lines, bytecode indexes, frame types), state, class
# and byte values (jfr_judge.py): so the counts per event type and thread
# and each leaf frame's self count are equal; `pcol top`'s names and flat
# counts are the leaf frames' as `jfr print` names them; each execution
# sample's cpu is the period setting in force at its time, as the JDK's
# reader gives the settings (jfr/Settings.java: 10 ms, 5 ms while Workload's
# second recording runs, then 10 ms).  Threads renamed
# between chunks (tests/interop/jfr/Rename.java, and gen_jfr.py --renames
# where a chunk's pool lacks a thread) get the names `jfr print` of the
# whole file gives them; recordings joined with `cat` are read each as its
# own file.  A constant-pool key defined twice in a chunk
# (gen_jfr.py --redefine: two checkpoints, a key twice in one) resolves as
# `jfr print` resolves it.  With a JDK 25
# (PCOL_JAVA25_HOME, else /usr/lib/jvm/*-25*), a second recording with
# jdk.CPUTimeSample on is judged by that JDK's jfr (its samplingPeriod is
# pcol's cpu-time, `pcol top --value cpu-time` their sum; the default
# stays the execution samples' cpu, the two measures never added).  The same recording
# gzip-compressed and read from standard input gives the same answer, and
# cut or damaged copies are refused with a message naming the file (exit 1),
# never a crash.  The recording's sources count its time once: the
# Duration of them all is its chunks' span, as `jfr summary` gives it.  Its
# Firefox and speedscope exports read back with its default, cpu (the same
# Type: line and total).
#
# Env: PCOL.  Exit 0 pass, 1 fail, 77 skip (no java, javac or jfr).
set -u
PCOL=${PCOL:-build/bin/pcol}
HERE=$(cd "$(dirname "$0")" && pwd)
for t in java javac jfr python3; do
  if ! command -v $t >/dev/null 2>&1; then
    echo "t_jfr: SKIP: $t is not installed (OpenJDK 11 or later records and judges the JFR files)" >&2
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL t_jfr: $*"; fail=1; }

# ------------------------------------------------ record and judge
javac -d "$tmp" "$HERE/jfr/Workload.java" || { echo "FAIL t_jfr: javac"; exit 1; }
javac -d "$tmp/settings" "$HERE/jfr/Settings.java" || { echo "FAIL t_jfr: javac Settings.java"; exit 1; }
rec="filename=$tmp/x.jfr,settings=profile,jdk.ObjectAllocationInNewTLAB#enabled=true,jdk.ObjectAllocationOutsideTLAB#enabled=true"
(cd "$tmp" && java -Xlog:jfr=warning "-XX:StartFlightRecording=$rec" -cp "$tmp" Workload 2000) >"$tmp/java.log" 2>&1 ||
  { cat "$tmp/java.log"; echo "FAIL t_jfr: java -XX:StartFlightRecording"; exit 1; }
chunks=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(); at = n = 0
while at < len(d): at += struct.unpack(">q", d[at + 8:at + 16])[0]; n += 1
print(n)' "$tmp/x.jfr")
[ "$chunks" -ge 2 ] || bad "the recording has $chunks chunk(s), not several"
ev=jdk.ExecutionSample,jdk.NativeMethodSample,jdk.CPUTimeSample,jdk.ObjectAllocationSample
ev=$ev,jdk.ObjectAllocationInNewTLAB,jdk.ObjectAllocationOutsideTLAB,profiler.WallClockSample,profiler.Malloc
ev=$ev,jdk.JavaMonitorEnter,jdk.ThreadPark
judge() { # name file.jfr pcol-input (the same recording, gzip or not)
  local d=$tmp/j-$1 n s
  mkdir -p "$d/top"
  jfr print --json --stack-depth 4096 --events $ev "$2" >"$d/jfr.json" || { bad "$1: jfr print --json"; return; }
  jfr print --events jdk.ExecutionSample "$2" >"$d/jfr.txt" || { bad "$1: jfr print"; return; }
  # the allocated classes as jfr print names them (int[], not the JSON's [I)
  jfr print --stack-depth 1 --events jdk.ObjectAllocationSample,jdk.ObjectAllocationInNewTLAB,jdk.ObjectAllocationOutsideTLAB \
    "$2" >"$d/jfr-alloc.txt" || { bad "$1: jfr print (allocations)"; return; }
  "$PCOL" cat "$3" --table all --format json >"$d/pcol.json" || { bad "$1: pcol cat"; return; }
  # the execution samples' period settings, as the JDK's reader gives them
  java -cp "$tmp/settings" Settings "$2" >"$d/settings.tsv" || { bad "$1: java Settings"; return; }
  n=$("$PCOL" cat "$3" --table sources --format tsv | tail -n +2 | wc -l)
  "$PCOL" top "$3" --format json -n 1 >"$d/top/default.json" 2>"$d/top/default.err" || bad "$1: pcol top"
  # JDK 25's CPU-time samples: their own value, cpu-time (never added to cpu)
  if grep -q $': jdk.CPUTimeSample\t' <("$PCOL" cat "$3" --table sources --format tsv); then
    "$PCOL" top "$3" --value cpu-time --format json -n 1 >"$d/top/cpu-time.json" 2>/dev/null || bad "$1: pcol top --value cpu-time"
  fi
  for s in $(seq 1 "$n"); do
    "$PCOL" top "$3" --source "$s" --value samples --format tsv -n 1000000 >"$d/top/top-$s.tsv" || bad "$1: pcol top --source $s"
  done
  echo "== $1"
  python3 "$HERE/jfr_judge.py" "$d/jfr.json" "$d/pcol.json" "$d/jfr.txt" "$d/top" "$d/jfr-alloc.txt" "$d/settings.tsv" ||
    bad "$1: pcol differs from jfr"
}
judge "OpenJDK recording ($chunks chunks)" "$tmp/x.jfr" "$tmp/x.jfr"
# --value samples of the recording adds up the counts of its parts (review
# 21 F3: 298 where jfr counts 80 execution samples): a warning; the
# execution samples' source alone counts what `jfr print` prints
"$PCOL" top "$tmp/x.jfr" --value samples -n 1 >/dev/null 2>"$tmp/vs.err" || bad "pcol top x.jfr --value samples"
grep -q 'warning: .*x.jfr: the sources measure different values, so --value samples adds up counts of different things' "$tmp/vs.err" ||
  bad "pcol top x.jfr --value samples: no warning of the mix: $(cat "$tmp/vs.err")"
n_ex=$(jfr print --events jdk.ExecutionSample "$tmp/x.jfr" | grep -c '^jdk.ExecutionSample {')
got=$("$PCOL" top "$tmp/x.jfr" --source 1 --value samples --format tsv 2>/dev/null | awk -F'\t' 'NR > 1 { s += $1 } END { print s + 0 }')
[ "$got" = "$n_ex" ] || bad "pcol top x.jfr --source 1 --value samples: $got, jfr print: $n_ex execution samples"
# lock and park events (review 21 F2: dropped, a lock recording read as
# empty): jfr/Locks.java's threads block on a monitor and park on a
# ReentrantLock, recorded with both events' thresholds at 0; every event
# is one of pcol's with its time, thread, stack, class and duration (the
# delay), as `jfr print --json` gives them
javac -d "$tmp/locks" "$HERE/jfr/Locks.java" || bad "javac Locks.java"
rec="filename=$tmp/lk.jfr,settings=default,jdk.JavaMonitorEnter#threshold=0ms,jdk.ThreadPark#threshold=0ms"
if (cd "$tmp" && java -Xlog:jfr=warning "-XX:StartFlightRecording=$rec" -cp "$tmp/locks" Locks 20) >"$tmp/lk.log" 2>&1; then
  for e in jdk.JavaMonitorEnter jdk.ThreadPark; do
    n=$(jfr summary "$tmp/lk.jfr" | awk -v e=$e '$1 == e { print $2 }')
    [ "${n:-0}" -gt 0 ] || bad "Locks recorded no $e events"
  done
  judge "Locks recording" "$tmp/lk.jfr" "$tmp/lk.jfr"
else
  cat "$tmp/lk.log"; bad "java -XX:StartFlightRecording (Locks)"
fi
# the default (CPU) leaves the allocation and native-method sources out, as
# the recording states (pcol.default_value on each of its parts): no note
# (one on every view of a recording taught users to skip standard error;
# tests/cli/t_jfr.sh: where it still is one); one source alone, nothing
e=$tmp/j-OpenJDK\ recording\ \($chunks\ chunks\)/top/default.err
[ ! -s "$e" ] || bad "pcol top x.jfr: a note on the recording's own default: $(cat "$e")"
"$PCOL" top "$tmp/x.jfr" --source 1 -n 1 >/dev/null 2>"$tmp/one.err" && [ ! -s "$tmp/one.err" ] ||
  bad "pcol top x.jfr --source 1: $(cat "$tmp/one.err")"
# the report page: the same default and, as the CLI, no note (value_note,
# shown above the views), and its tracks named by the sources' event types
"$PCOL" report "$tmp/x.jfr" -o "$tmp/x.html" 2>"$tmp/x-report.err" || bad "pcol report x.jfr"
[ ! -s "$tmp/x-report.err" ] || bad "pcol report x.jfr: $(cat "$tmp/x-report.err")"
python3 - "$tmp/x.html" <<'PY' || bad "pcol report x.jfr: not the CLI's default, or a note"
import json, re, sys
html = open(sys.argv[1]).read()
m = json.loads(re.search(r'<script id="pcol-meta" type="application/json">(.*?)</script>', html, re.S).group(1))
v = m["values"][m["value"]]
assert (v["type"], v["unit"]) == ("cpu", "nanoseconds"), v
assert "value_note" not in m, m.get("value_note")
names = [s.get("name") for s in m["sources"]]
assert names[0] == "jdk.ExecutionSample" and "jdk.ObjectAllocationInNewTLAB" in names, names
print("ok   pcol report x.jfr: default cpu/nanoseconds, no note, tracks %s" % ", ".join(names))
PY
# the Rprof export: the same default as top (the execution samples' CPU
# time; the allocation and native-method sources count 0, so they write no
# line, and are warned of as --value cpu warns: review 16 F6, nothing
# else), summaryRprof's sampling.time = top's total and its self times
# top's flat (were: every sample one tick, allocations as CPU)
if command -v Rscript >/dev/null; then
  "$PCOL" unpack "$tmp/x.jfr" --to rprof -o "$tmp/x.Rprof.out" 2>"$tmp/x-rprof.err" || bad "pcol unpack x.jfr --to rprof"
  [ -s "$tmp/x-rprof.err" ] && ! grep -Ev "^pcol unpack: warning: .*: (source [0-9]+ \(jfr .*\) has no value cpu/nanoseconds; its samples count 0|[0-9]+ of [0-9]+ sources have no value cpu/nanoseconds, their samples count 0 .*)$|^pcol unpack: note: .*: (not written: .*|[0-9]+ samples have stacks the recorder truncated .*)$" "$tmp/x-rprof.err" ||
    bad "x.jfr --to rprof: not (only) the warning of the sources left out: $(cat "$tmp/x-rprof.err")"
  "$PCOL" top "$tmp/x.jfr" --format json -n 0 >"$tmp/x-top.json" 2>/dev/null
  Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1]); cat(s$sampling.time, "\n"); b <- s$by.self; cat(paste(rownames(b), b$self.time, sep = "\t"), sep = "\n")' \
    "$tmp/x.Rprof.out" >"$tmp/x-r.txt" 2>/dev/null || bad "summaryRprof of x.jfr's Rprof export"
  python3 - "$tmp/x-top.json" "$tmp/x-r.txt" <<'PY' || bad "x.jfr --to rprof: summaryRprof differs from pcol top"
import json, sys
top = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
st = float(lines[0])
assert abs(st - top["total"] / 1e9) < 1e-6, "sampling.time %s s, pcol top's total %s s" % (st, top["total"] / 1e9)
r = {l.split("\t")[0].strip('"'): float(l.split("\t")[1]) for l in lines[1:]}
t = {row["name"]: row["flat"] / 1e9 for row in top["rows"] if row["flat"]}
assert r.keys() == t.keys() and all(abs(r[k] - t[k]) < 1e-6 for k in r), sorted(set(r.items()) ^ set(t.items()))[:6]
print("ok   x.jfr --to rprof: summaryRprof %.2f s, %d functions = pcol top's" % (st, len(r)))
PY
  # the native-method samples alone (counted: a thread in native code may
  # be blocked): each is a tick of their period, the jdk.NativeMethodSample
  # setting in force for all of them (the source's period, `pcol info`), so
  # summaryRprof's sampling.time is samples x period; with no one period,
  # 10 ms ticks and unpack's note saying so (review 10 F3: 10 ms ticks of
  # 20 ms samples, silently)
  ns=$("$PCOL" cat "$tmp/x.jfr" --table sources --format tsv | awk -F'\t' '$3 ~ /: jdk.NativeMethodSample$/ { print $1 }')
  if [ -n "$ns" ]; then
    "$PCOL" unpack "$tmp/x.jfr" --source "$ns" --to rprof -o "$tmp/x-nat.out" 2>"$tmp/x-nat.err" || bad "pcol unpack x.jfr --source $ns --to rprof"
    "$PCOL" info "$tmp/x.jfr" --format json >"$tmp/x-nat-info.json"
    "$PCOL" top "$tmp/x.jfr" --source "$ns" --value samples --format json -n 0 >"$tmp/x-nat-top.json" 2>/dev/null
    Rscript -e 'cat(summaryRprof(commandArgs(TRUE)[1])$sampling.time)' "$tmp/x-nat.out" >"$tmp/x-nat-r.txt" 2>/dev/null ||
      bad "summaryRprof of x.jfr's native samples"
    python3 - "$tmp/x-nat-info.json" "$tmp/x-nat-top.json" "$tmp/x-nat-r.txt" "$tmp/x-nat.err" "$ns" <<'PY' || bad "x.jfr's native samples --to rprof: not samples x their period"
import json, sys
src = json.load(open(sys.argv[1]))["rows"][int(sys.argv[5]) - 1]
n = json.load(open(sys.argv[2]))["total"]
st, err = float(open(sys.argv[3]).read()), open(sys.argv[4]).read()
# (but the export's loss note, which tests/cli/t_written_value.sh checks)
err = "".join(l for l in err.splitlines(True) if ": not written: " not in l)
per = src.get("period")
if per:
    assert abs(st - n * per / 1e9) < 1e-6 and not err, (st, n, per, err)
    print("ok   x.jfr's native samples --to rprof: summaryRprof %.3f s = %d samples x %g ms" % (st, n, per / 1e6))
else:
    assert "states no sampling period" in err, err
    print("ok   x.jfr's native samples --to rprof: no one period, 10 ms ticks, noted")
PY
  fi
fi
# the default survives the Firefox and speedscope exports (user review: the
# Firefox copy answered in allocated bytes): the same Type: line and total
# (tests/cli/t_default_trip.sh checks gen_jfr.py's recordings without a JDK)
answer() { "$PCOL" top "$1" -n 1 2>/dev/null | sed -n -e 's/^\(Type: .*\)/\1/p' -e 's/^Showing nodes .* of \(.*\) total$/\1/p' | tr '\n' ' '; }
for to in firefox speedscope; do
  "$PCOL" unpack "$tmp/x.jfr" --to $to -o "$tmp/x.$to.json" 2>/dev/null || bad "pcol unpack x.jfr --to $to"
  [ "$(answer "$tmp/x.$to.json")" = "$(answer "$tmp/x.jfr")" ] &&
    echo "ok   x.jfr -> $to -> pcol top: $(answer "$tmp/x.jfr")" ||
    bad "x.jfr -> $to -> pcol top: '$(answer "$tmp/x.$to.json")', want '$(answer "$tmp/x.jfr")'"
done

# the speedscope export: the allocation samples (events weighing bytes) are
# points on their timelines, no time made up (THE span rule, lasts.h rule
# 5), while the execution samples' timelines add up to their CPU time; and
# every sample's time reads back (pcolTimes)
"$PCOL" unpack "$tmp/x.jfr" --to speedscope -o "$tmp/x.speedscope.json" 2>/dev/null || bad "pcol unpack x.jfr --to speedscope"
python3 - "$tmp/x.speedscope.json" <<'PY' || bad "x.jfr --to speedscope: a timeline of allocation samples that lasts"
import json, sys
d = json.load(open(sys.argv[1]))
alloc = cpu = 0
for p in d["profiles"]:
    if p["type"] != "evented":
        continue
    depth, last, covered = 0, None, 0
    for e in p["events"]:
        if last is not None and depth:
            covered += e["at"] - last
        last = e["at"]
        depth += 1 if e["type"] == "O" else -1
    if "Allocation" in p["name"]:
        alloc += 1
        assert covered == 0, "%s covers %d ns" % (p["name"], covered)
    elif "ExecutionSample" in p["name"]:
        cpu += covered
assert alloc and cpu > 0, (alloc, cpu)
print("ok   x.jfr --to speedscope: %d allocation timelines of points, execution timelines %.2f s" % (alloc, cpu / 1e9))
PY
[ "$("$PCOL" info "$tmp/x.jfr" | grep '^  samples:')" = "$("$PCOL" info "$tmp/x.speedscope.json" | grep '^  samples:')" ] ||
  bad "x.jfr --to speedscope: the samples' times do not read back"

# ------------------------------------------------ the recording's time, once
# the recording's sources (one per sampled event type) are one recording:
# the Duration of them all (`pcol top`, the pprof export's duration_nanos)
# is the recording's span as its chunk headers give it (the earliest
# startNanos to the latest startNanos + durationNanos), and `jfr summary`'s
# Duration (whole seconds) is within a second of it -- not the sources'
# durations added, as go tool pprof adds separate profiles (a second per
# source)
"$PCOL" unpack "$tmp/x.jfr" --to pprof -o "$tmp/x-all.pb.gz" 2>/dev/null || bad "pcol unpack x.jfr --to pprof"
"$PCOL" info "$tmp/x-all.pb.gz" --format json >"$tmp/x-all.json" || bad "pcol info of x.jfr's pprof export"
"$PCOL" info "$tmp/x.jfr" --format json >"$tmp/x-info.json" || bad "pcol info x.jfr"
"$PCOL" top "$tmp/x.jfr" -n 1 2>/dev/null | grep '^Duration:' >"$tmp/x-top.txt"
jfr summary "$tmp/x.jfr" >"$tmp/x-summary.txt" || bad "jfr summary x.jfr"
python3 - "$tmp/x.jfr" "$tmp/x-all.json" "$tmp/x-info.json" "$tmp/x-summary.txt" "$tmp/x-top.txt" <<'PY' || bad "x.jfr: the Duration is not the recording's span"
import json, re, struct, sys
d = open(sys.argv[1], "rb").read()
at, spans = 0, []
while at < len(d):
    size, start, dur = struct.unpack(">q", d[at + 8:at + 16])[0], *struct.unpack(">qq", d[at + 32:at + 48])
    spans.append((start, start + dur))
    at += size
span = max(b for a, b in spans) - min(a for a, b in spans)
got = json.load(open(sys.argv[2]))["rows"][0]["duration_ns"]
srcs = json.load(open(sys.argv[3]))["rows"]
secs = int(re.search(r"Duration: (\d+) s", open(sys.argv[4]).read()).group(1))
top = open(sys.argv[5]).read().strip()
assert len(srcs) >= 3, "x.jfr makes %d sources, not several" % len(srcs)
assert all(s["duration_ns"] == span for s in srcs), ([s["duration_ns"] for s in srcs], span)
assert got == span, "the pprof export's duration_nanos %d, the chunks' span %d" % (got, span)
assert abs(got / 1e9 - secs) < 1, "duration %d ns, jfr summary's %d s" % (got, secs)
want = "%.2fs" % (span / 1e9)
assert top.startswith("Duration: " + want.replace(".00s", "s")), (top, want)
print("ok   x.jfr: %d sources, Duration %s: the chunks' span %d ns (jfr summary: %d s)" % (len(srcs), want, span, secs))
PY

# ------------------------------------------------ threads renamed between chunks
# tests/interop/jfr/Rename.java renames two threads between the chunks of
# its recording (a second recording started and stopped rotates the chunk),
# one of them waiting through the middle chunks: `jfr print` of the whole
# file names each by the JDK reader's rule (a key of the previous chunk's
# pool keeps that value) and the judge holds pcol's names to it, sample by
# sample; the chunks alone (jfr disassemble) must show the new names, or
# the recording did not test a rename.
javac -d "$tmp" "$HERE/jfr/Rename.java" || bad "javac Rename.java"
(cd "$tmp" && java -Xlog:jfr=warning "-XX:StartFlightRecording=filename=$tmp/rn.jfr,settings=profile" -cp "$tmp" Rename 600) \
  >"$tmp/java-rn.log" 2>&1 || { cat "$tmp/java-rn.log"; bad "java Rename"; }
mkdir -p "$tmp/rn"
if jfr disassemble --max-chunks 1 --output "$tmp/rn" "$tmp/rn.jfr" >/dev/null; then
  for f in "$tmp"/rn/*.jfr; do jfr print --json --events jdk.ExecutionSample "$f"; done >"$tmp/rn-chunks.json"
  grep -q '"javaName": "beta"' "$tmp/rn-chunks.json" || bad "Rename: no chunk names a renamed thread (beta)"
else
  bad "jfr disassemble of the Rename recording"
fi
judge "threads renamed between chunks" "$tmp/rn.jfr" "$tmp/rn.jfr"
# two recordings joined with `cat` (the Workload's and the Rename's, two
# JVMs): the second's keys are its own, so pcol reads each recording as its
# own file (the rule above only within one recording, whose chunks follow
# one another: jfr_import.c same_recording); `pcol top` of the joined file
# equals `pcol top` of the two files, each value.  (`jfr print` of the
# joined file resolves the second's keys in the first's last chunk: it
# names one program's samples by the other's methods; counted, not held.)
cat "$tmp/x.jfr" "$tmp/rn.jfr" >"$tmp/joined.jfr"
for v in samples allocation_weight; do
  "$PCOL" top "$tmp/joined.jfr" --value $v --format tsv -n 1000000 >"$tmp/jt1" 2>/dev/null &&
    "$PCOL" top "$tmp/x.jfr" "$tmp/rn.jfr" --value $v --format tsv -n 1000000 >"$tmp/jt2" 2>/dev/null &&
    [ "$(wc -l <"$tmp/jt1")" -gt 5 ] && cmp -s "$tmp/jt1" "$tmp/jt2" ||
    bad "two recordings joined: pcol top --value $v differs from the two files' ($(diff "$tmp/jt1" "$tmp/jt2" | head -4 | tr '\n' ' '))"
done
# and its time is the recordings' lengths added, as of the two files (review
# 10 F5: the span from the first's start to the second's end, gap and all,
# was its Duration): `pcol top`'s Duration: and the pprof export's
# duration_nanos are each recording's chunks' span (consecutive chunks, each
# starting where the one before ends) added, `jfr summary`'s (the chunks'
# durations added, whole seconds) within a second of it, and the two files'
"$PCOL" top "$tmp/joined.jfr" -n 1 2>/dev/null | grep '^Duration:' >"$tmp/j-top.txt"
"$PCOL" top "$tmp/x.jfr" "$tmp/rn.jfr" -n 1 2>/dev/null | grep '^Duration:' >"$tmp/j2-top.txt"
"$PCOL" unpack "$tmp/joined.jfr" --to pprof -o "$tmp/j.pb.gz" 2>/dev/null || bad "pcol unpack joined.jfr --to pprof"
"$PCOL" info "$tmp/j.pb.gz" --format json >"$tmp/j.json" || bad "pcol info of joined.jfr's pprof export"
jfr summary "$tmp/joined.jfr" >"$tmp/j-summary.txt" || bad "jfr summary joined.jfr"
python3 - "$tmp/joined.jfr" "$tmp/j.json" "$tmp/j-summary.txt" "$tmp/j-top.txt" "$tmp/j2-top.txt" <<'PY' || bad "joined.jfr: the Duration is not the recordings' lengths added"
import json, re, struct, sys
d = open(sys.argv[1], "rb").read()
at, recs = 0, []
while at < len(d):
    size, start, dur = struct.unpack(">q", d[at + 8:at + 16])[0], *struct.unpack(">qq", d[at + 32:at + 48])
    if recs and abs(start - recs[-1][1]) < 1000000:
        recs[-1][1] = max(recs[-1][1], start + dur)
    else:
        recs.append([start, start + dur])
    at += size
assert len(recs) == 2, "joined.jfr holds %d recordings by its chunk headers, not 2" % len(recs)
total = sum(b - a for a, b in recs)
gap = recs[1][0] - recs[0][1]
got = json.load(open(sys.argv[2]))["rows"][0]["duration_ns"]
secs = int(re.search(r"Duration: (\d+) s", open(sys.argv[3]).read()).group(1))
top, top2 = open(sys.argv[4]).read().strip(), open(sys.argv[5]).read().strip()
assert got == total, "the pprof export's duration_nanos %d, the recordings' lengths %d (gap %d)" % (got, total, gap)
assert abs(got / 1e9 - secs) < 1, "duration %d ns, jfr summary's %d s" % (got, secs)
want = "%.2fs" % (total / 1e9)
assert top.startswith("Duration: " + want.replace(".00s", "s")), (top, want)
assert top.split(",")[0] == top2.split(",")[0], (top, top2)
print("ok   joined.jfr: Duration %s, the recordings' lengths added (gap %.2f s left out; jfr summary: %d s), as of the two files" % (want, gap / 1e9, secs))
PY
leaves() { jfr print --events jdk.ExecutionSample "$1" | awk '/stackTrace = \[/ { getline; sub(/line:.*/, ""); print }'; }
other=$( (leaves "$tmp/x.jfr"; leaves "$tmp/rn.jfr") | sort | uniq -c | diff - <(leaves "$tmp/joined.jfr" | sort | uniq -c) | grep -c '^>')
echo "ok   two recordings joined: pcol top as of the two files (jfr print of the joined file: $other leaf frame counts differ from the two files')"
# the same rule where a chunk's pool lacks a thread (the run of chunks that
# keeps its first name ends there): tests/support/gen_jfr.py --renames, four
# chunks; `jfr print`'s thread per event (javaName, else osName, as pcol
# names threads) counted against pcol's thread_name
python3 "$HERE/../support/gen_jfr.py" "$tmp/gr.jfr" --chunks 4 --samples 12 --renames
jfr print --json --events jdk.ExecutionSample,jdk.ObjectAllocationSample "$tmp/gr.jfr" >"$tmp/gr.json" ||
  bad "jfr print of gen_jfr.py --renames"
"$PCOL" cat "$tmp/gr.jfr" --table all --format json >"$tmp/gr-pcol.json" || bad "pcol cat of gen_jfr.py --renames"
python3 - "$tmp/gr.json" "$tmp/gr-pcol.json" <<'PY' || bad "gen_jfr.py --renames: pcol's thread names are not jfr print's"
import collections, json, sys
ev = json.load(open(sys.argv[1]))["recording"]["events"]
def name(e):
    t = e["values"].get("sampledThread") or e["values"].get("eventThread") or {}
    return t.get("javaName") if t.get("javaName") is not None else t.get("osName")
want = collections.Counter(name(e) for e in ev)
got = collections.Counter(l["str"] for l in json.load(open(sys.argv[2]))["sample_labels"] if l["key"] == "thread_name")
assert got == want, "pcol %s, jfr print %s" % (dict(got), dict(want))
assert len(want) > 2, "jfr print names %s: no renamed thread" % dict(want)
print("ok   gen_jfr.py --renames: thread names as jfr print's %s" % dict(want))
PY

# ------------------------------------------------ a constant-pool key defined twice in a chunk
# tests/support/gen_jfr.py --redefine: two checkpoints per chunk, the second
# (the header's) giving thread 1, thread 2 and the symbol of method run other
# values, the first listing thread 2 twice; events before the first
# checkpoint and between the two. The JDK's reader walks the checkpoints
# from the header's back and puts every entry (the last read wins): judged
# sample by sample, threads and frames as `jfr print` resolves them.
python3 "$HERE/../support/gen_jfr.py" "$tmp/rd.jfr" --chunks 2 --samples 10 --redefine
ncp=$(jfr summary "$tmp/rd.jfr" | awk '$1 == "jdk.CheckPoint" {print $2}')
[ "$ncp" = 4 ] || bad "gen_jfr.py --redefine: jfr summary counts ${ncp:-no} checkpoints, not 4 (2 chunks x 2)"
judge "a constant-pool key defined twice in a chunk" "$tmp/rd.jfr" "$tmp/rd.jfr"
python3 - "$tmp/j-a constant-pool key defined twice in a chunk/jfr.json" <<'PY' || bad "gen_jfr.py --redefine: jfr print does not resolve the redefined keys"
import json, sys
ev = json.load(open(sys.argv[1]))["recording"]["events"]
th = {(t["javaName"], t["osName"]) for t in (e["values"].get("sampledThread") or e["values"].get("eventThread") for e in ev)}
fr = {f["method"]["name"] for e in ev for f in e["values"]["stackTrace"]["frames"]}
# each redefined key resolves to one of its values in every event
assert th <= {("main", "main-os"), ("main-b", "main-os-b"), (None, "w\u00f6rker"), (None, "w-second"), (None, "w-b")} and len(th) == 2, th
assert fr in ({"main", "run"}, {"main", "walk"}), fr
print("ok   gen_jfr.py --redefine: jfr print resolves threads %s, methods %s" % (sorted(th, key=str), sorted(fr)))
PY

# ------------------------------------------------ keys given other values in a later chunk
# tests/support/gen_jfr.py --rekey: three chunks, the later two giving keys
# of the first's pools other values (a method, a class, a package, symbols,
# a frame type, a string, a stack trace, a thread) and adding keys (a thread,
# a class named by a redefined symbol, a method of it, a stack trace of
# that), their events also naming a thread and a stack trace their pools
# lack. The JDK's reader keeps, for every constant type, the value a key had
# in the previous chunk's pool; a new key's value is its chunk's, the keys
# it names resolved by the same rule; a key the pool lacks is null. Judged
# sample by sample; and jfr print must show none of the later values (or
# the file did not test the rule).
python3 "$HERE/../support/gen_jfr.py" "$tmp/rk.jfr" --chunks 3 --samples 12 --rekey
judge "keys given other values in a later chunk" "$tmp/rk.jfr" "$tmp/rk.jfr"
python3 - "$tmp/j-keys given other values in a later chunk/jfr.json" <<'PY' || bad "gen_jfr.py --rekey: jfr print does not keep the first chunk's values"
import json, sys
ev = json.load(open(sys.argv[1]))["recording"]["events"]
text = json.dumps(ev, ensure_ascii=False)
later = ["walk", "extra", "pkg/New", "pkg/Moved", "pkg2", "C2 compiled", "other string", "main-1", "main-2"]
assert not [w for w in later if '"%s"' % w in text], [w for w in later if '"%s"' % w in text]
th = [(e["values"].get("sampledThread") or e["values"].get("eventThread") or {}).get("javaName") for e in ev]
assert "fresh" in th and None in th and any(e["values"]["stackTrace"] is None for e in ev), "no new thread, no null"
print("ok   gen_jfr.py --rekey: jfr print keeps the first chunk's values, resolves new keys, nulls absent ones")
PY

# ------------------------------------------------ JDK 25: jdk.CPUTimeSample
# when a JDK 25 or later is installed ($PCOL_JAVA25_HOME, else the first
# /usr/lib/jvm/*-25*): its CPU-time sampler on, judged by its own jfr
j25=${PCOL_JAVA25_HOME:-$(ls -d /usr/lib/jvm/*-25* 2>/dev/null | head -1)}
if [ -n "$j25" ] && [ -x "$j25/bin/java" ] && [ -x "$j25/bin/jfr" ]; then
  mkdir -p "$tmp/j25"
  rec25="filename=$tmp/j25/x.jfr,settings=profile,jdk.CPUTimeSample#enabled=true,jdk.CPUTimeSample#throttle=10ms"
  if "$j25/bin/javac" -d "$tmp/j25" "$HERE/jfr/Workload.java" &&
     (cd "$tmp/j25" && "$j25/bin/java" -Xlog:jfr=warning "-XX:StartFlightRecording=$rec25" -cp "$tmp/j25" Workload 1500) \
       >"$tmp/java25.log" 2>&1; then
    PATH="$j25/bin:$PATH" judge "JDK 25 recording (jdk.CPUTimeSample)" "$tmp/j25/x.jfr" "$tmp/j25/x.jfr"
    grep -q '"jdk.CPUTimeSample"' "$tmp/j-JDK 25 recording (jdk.CPUTimeSample)/jfr.json" ||
      bad "the JDK 25 recording has no jdk.CPUTimeSample"
    # (its unnamed virtual thread: javaName "", osName null, judged as named "")
    grep -q '"virtual": true' "$tmp/j-JDK 25 recording (jdk.CPUTimeSample)/jfr.json" ||
      bad "the JDK 25 recording has no sample of a virtual thread"
  else
    cat "$tmp/java25.log"; bad "JDK 25: javac or java -XX:StartFlightRecording"
  fi
else
  echo "t_jfr: JDK 25 part skipped (no JDK 25 found; set PCOL_JAVA25_HOME)"
fi

# ------------------------------------------------ public recordings
# grafana/jfr-parser's test data (Pyroscope's JFR parser) when
# $PCOL_JFR_PARSER_DIR holds a checkout: async-profiler's CPU, allocation,
# wall-clock (profiler.WallClockSample) and native-allocation
# (profiler.Malloc) recordings, Datadog's (dd-trace-java), read gzip as
# stored and judged by the JDK on the inflated copy; a wall-clock recording
# with interval 0 (wall_tick_sample: its default, 50 ms), a JVM's C++
# frames whose names hold '(' (cortex-dev-01__kafka-0__cpu__0:
# PostRuntimeDispatch<..., (AccessInternal::BarrierType)2, ...>).
if [ -n "${PCOL_JFR_PARSER_DIR:-}" ] && [ -d "$PCOL_JFR_PARSER_DIR/parser/testdata" ]; then
  for b in example wall nativemem dd-trace-java cpool-uint64-constant-index new_spancontext wall_tick_sample \
           cortex-dev-01__kafka-0__cpu__0; do
    f=$PCOL_JFR_PARSER_DIR/parser/testdata/$b.jfr.gz
    [ -f "$f" ] || { bad "$f is missing"; continue; }
    gzip -dc "$f" >"$tmp/$b.jfr" && judge "jfr-parser $b.jfr.gz" "$tmp/$b.jfr" "$f"
  done
  # recordings `jfr print` cannot read whole (a constant pool it finds
  # empty: "Pool ... must contain at least one element"), of several
  # recordings in one file: each sampled event type's count is what `jfr
  # summary` counts in the file's chunks, each chunk alone (jfr disassemble)
  for b in FastSlow_2024_01_16_180855 event-with-type-zero; do
    f=$PCOL_JFR_PARSER_DIR/parser/testdata/$b.jfr.gz
    [ -f "$f" ] || { bad "$f is missing"; continue; }
    rm -rf "$tmp/ch" && mkdir -p "$tmp/ch" && gzip -dc "$f" >"$tmp/$b.jfr" &&
      jfr disassemble --max-chunks 1 --output "$tmp/ch" "$tmp/$b.jfr" >/dev/null || { bad "$b: jfr disassemble"; continue; }
    for c in "$tmp"/ch/*.jfr; do jfr summary "$c"; done >"$tmp/ch.txt" || bad "$b: jfr summary of a chunk"
    "$PCOL" cat "$f" --table all --format json >"$tmp/ch.json" || bad "$b: pcol cat"
    python3 - "$tmp/ch.txt" "$tmp/ch.json" "$b" "${ev//,/ }" <<'PY' || bad "$b: pcol's counts per event type are not jfr summary's"
import collections, json, sys
kinds = set(sys.argv[4].split())
want = collections.Counter()
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 3 and f[0] in kinds and f[1].isdigit() and int(f[1]):
        want[f[0]] += int(f[1])
t = json.load(open(sys.argv[2]))
kind = {s["source_id"]: s["source_uri"].rsplit(": ", 1)[-1] for s in t["sources"]}
got = collections.Counter(kind[s["source_id"]] for s in t["samples"])
assert got == want and want, "pcol %s, jfr summary %s" % (dict(got), dict(want))
print("ok   jfr-parser %s.jfr.gz: the samples per event type as jfr summary counts the chunks: %s" % (sys.argv[3], dict(want)))
PY
  done
else
  echo "t_jfr: public recordings skipped (set PCOL_JFR_PARSER_DIR to a checkout of github.com/grafana/jfr-parser)"
fi

# ------------------------------------------------ gzip, standard input
gzip -c "$tmp/x.jfr" >"$tmp/x.jfr.gz"
"$PCOL" top "$tmp/x.jfr" --source 1 --format tsv -n 1000000 >"$tmp/a.tsv"
"$PCOL" top "$tmp/x.jfr.gz" --source 1 --format tsv -n 1000000 >"$tmp/b.tsv" || bad "pcol top of the gzip copy"
cmp -s "$tmp/a.tsv" "$tmp/b.tsv" || bad "the gzip copy gives another top"
"$PCOL" pack - -o "$tmp/s.pcol" <"$tmp/x.jfr.gz" || bad "pcol pack - (gzip JFR on standard input)"
"$PCOL" top "$tmp/s.pcol" --source 1 --format tsv -n 1000000 >"$tmp/c.tsv" || bad "pcol top of the packed stdin"
cmp -s "$tmp/a.tsv" "$tmp/c.tsv" || bad "standard input gives another top"

# ------------------------------------------------ stack depth, recording parts
# The truncated-stack warning names the recording's stack depth (review
# h4: it said "64 frames by default" of a recording made with another):
# jfr/Deep.java recurses deeper than -XX:FlightRecorderOptions:stackdepth=N,
# so the JVM cuts its stack traces at N frames; the warning says N (read
# back from what `jfr print` shows: the deepest stack of the recording)
# and counts the samples jfr marks truncated.  Without the option, the
# JDK's default is named as such.  The recording has one sampled event
# type, so one source: no pcol.recording_part (spec.md §7, as Chrome's,
# Perfetto's and OTLP's lone sources); x.jfr's several are numbered 1, 2, ...
javac -d "$tmp/deep" "$HERE/jfr/Deep.java" || bad "javac Deep.java"
one="settings=profile,jdk.ObjectAllocationSample#enabled=false,jdk.NativeMethodSample#enabled=false"
if (cd "$tmp" && java -Xlog:jfr=warning -XX:FlightRecorderOptions:stackdepth=24 \
      "-XX:StartFlightRecording=filename=$tmp/deep.jfr,$one" -cp "$tmp/deep" Deep 1500 100 &&
    java -Xlog:jfr=warning "-XX:StartFlightRecording=filename=$tmp/deep64.jfr,$one" -cp "$tmp/deep" Deep 800 100) \
    >"$tmp/deep.log" 2>&1; then
  for f in deep deep64; do
    jfr print --json --stack-depth 4096 --events jdk.ExecutionSample "$tmp/$f.jfr" >"$tmp/$f.json" || bad "jfr print $f.jfr"
    read -r ntr depth atmax < <(python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["recording"]["events"]
st = [e["values"]["stackTrace"] for e in ev if e["values"].get("stackTrace")]
d = max(len(s["frames"]) for s in st)
print(sum(1 for s in st if s["truncated"]), d, sum(1 for s in st if len(s["frames"]) == d))' "$tmp/$f.json")
    [ "${ntr:-0}" -gt 0 ] || { bad "$f.jfr: jfr shows no truncated stack trace"; continue; }
    "$PCOL" top "$tmp/$f.jfr" -n 1 >/dev/null 2>"$tmp/$f.err" || bad "pcol top $f.jfr"
    # the depth: the cut stacks' when they are the deepest (as good as
    # always), else the option's (pcol.stack_depth), else JFR's default
    if [ "$atmax" = "$ntr" ]; then dep="$depth frames"
    elif [ $f = deep ]; then dep="24 frames"
    else dep="64 frames by default"; fi
    [ $f = deep64 ] || [ "$depth" = 24 ] || bad "deep.jfr: jfr's deepest stack has $depth frames, not the option's 24"
    want="$ntr samples have stacks the recorder truncated at its stack depth (JFR's stackdepth, $dep)"
    grep -qF "$want" "$tmp/$f.err" || bad "pcol top $f.jfr: not '$want': $(cat "$tmp/$f.err")"
    # a copy keeps the count, not pcol.stack_depth: its warning names the
    # depth its deepest stacks show all the same (review h6 MED-2)
    if [ "$atmax" = "$ntr" ]; then
      "$PCOL" unpack "$tmp/$f.jfr" --to pprof -o "$tmp/$f.pb.gz" 2>/dev/null || bad "unpack $f.jfr --to pprof"
      "$PCOL" top "$tmp/$f.pb.gz" -n 1 >/dev/null 2>"$tmp/$f.cerr" || bad "pcol top $f.pb.gz"
      grep -qF "$want" "$tmp/$f.cerr" || bad "pcol top of $f.jfr's pprof copy: not '$want': $(cat "$tmp/$f.cerr")"
    fi
    # one sampled event type: one source, no recording part
    [ "$("$PCOL" cat "$tmp/$f.jfr" --table sources --format tsv | tail -n +2 | wc -l)" = 1 ] ||
      bad "$f.jfr: not one source: $("$PCOL" cat "$tmp/$f.jfr" --table sources)"
    ! "$PCOL" cat "$tmp/$f.jfr" --table meta | grep -q recording_part ||
      bad "$f.jfr: a lone source numbered: $("$PCOL" cat "$tmp/$f.jfr" --table meta | grep recording_part)"
    ! "$PCOL" info "$tmp/$f.jfr" | grep -q recording_part || bad "pcol info $f.jfr: a recording part"
  done
else
  cat "$tmp/deep.log"; bad "java -XX:StartFlightRecording (Deep)"
fi
nx=$("$PCOL" cat "$tmp/x.jfr" --table sources --format tsv | tail -n +2 | wc -l)
[ "$nx" -ge 2 ] && [ "$("$PCOL" cat "$tmp/x.jfr" --table meta --format tsv |
  awk -F'\t' '$1 == "pcol.recording_part" { printf "%s=%s ", $3, $2 }')" = "$(seq 1 "$nx" | awk '{ printf "%s=%s ", $1, $1 }')" ] ||
  bad "x.jfr's $nx sources not numbered 1..$nx: $("$PCOL" cat "$tmp/x.jfr" --table meta --format tsv | grep recording_part)"

# ------------------------------------------------ damaged copies
size=$(stat -c %s "$tmp/x.jfr")
for cut in 3 60 67 68 100 1000 $((size / 3)) $((size / 2)) $((size - 1)); do
  head -c "$cut" "$tmp/x.jfr" >"$tmp/cut.jfr"
  "$PCOL" pack --from jfr "$tmp/cut.jfr" -o "$tmp/cut.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "cut.jfr" "$tmp/err" || bad "a copy cut at $cut bytes: exit $rc, $(head -c 300 "$tmp/err")"
  [ -e "$tmp/cut.pcol" ] && bad "a copy cut at $cut bytes left an output"
done
# bytes changed here and there: read or refused (exit 0 or 1), never a crash
python3 - "$tmp/x.jfr" "$tmp" <<'PY'
import random, sys
d = open(sys.argv[1], "rb").read()
r = random.Random(43)
for i in range(40):
    b = bytearray(d)
    for _ in range(1 + i % 4):
        p = r.randrange(len(b))
        b[p] = r.choice([0, 0x7f, 0x80, 0xff, b[p] ^ (1 << r.randrange(8))])
    open("%s/dmg%d.jfr" % (sys.argv[2], i), "wb").write(bytes(b))
PY
for i in $(seq 0 39); do
  "$PCOL" pack --from jfr "$tmp/dmg$i.jfr" -o "$tmp/dmg.pcol" 2>"$tmp/err"; rc=$?
  case $rc in 0|1) ;; *) bad "damaged copy $i: exit $rc: $(head -c 300 "$tmp/err")";; esac
  rm -f "$tmp/dmg.pcol"
done

[ $fail = 0 ] && echo "t_jfr: ok"
exit $fail
