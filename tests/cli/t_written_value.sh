#!/usr/bin/env bash
# CLI: what the exports that write one value say of what they leave out,
# and the round trip of the V8 and Chrome exports' closing sample (user
# review 16: F5, F6, m1).
#  - F6: `unpack --to rprof` / `--to collapsed` / `--to perun` of a JFR
#    recording (tests/support/gen_jfr.py, no JDK) write the default value
#    (cpu, which the recording states) and leave out the allocation
#    samples: they warn of them in the words `--value cpu` gives (THE
#    warning, pcol_value_lacking_notes), the same lines with or without
#    --value; a recording whose sources state no default (each its own
#    count) loses nothing and says so once (the samples note), not per
#    source; a profile of one value says nothing;
#  - F5: `--to perun` writes the selection's default (cpu: kperf style,
#    top of it = top of the recording), `--value allocation_weight` the
#    bytes (memory style, their total), `--value samples` the count; a
#    Perun source written back exactly, also with --value naming its
#    amount's type; rprof.alloc and a value of no such type are refused;
#  - m1: `unpack --to v8` / `--to chrome` then `pcol pack` keeps the sample
#    count (the closing root sample at endTime is no sample read back),
#    and the wall time; a V8 file whose last sample of the root lies before
#    endTime keeps it;
#  - L1 (review L1): only pcol's closing sample is none (marked): a
#    foreign file's own is a sample, also in a profile of no script frame
#    (node's "(idle)", "(program)": every scriptId "0"); an older,
#    unmarked export's is read as DevTools and speedscope read it, a sample;
#  - L2: a Go heap profile's Perun export writes inuse_space (pcol top's
#    and go tool pprof's default); negative amounts are left out, warned of;
#  - review 19 F5, THE loss note (lib/convert/loss.c), one table over every
#    export target: a profile of three value types and labels (a thread's
#    tid and thread_name, foo and n; tests/support/pprofgen.py lossy) gives
#    one line "not written: ..." naming exactly the labels and value types
#    that format does not hold, none for pprof and OTLP; a profile of one
#    value and no label, no note anywhere; and the review's own files
#    (labels dropped by collapsed, Rprof, Perun, V8 and Chrome, three of a
#    heap profile's four types by collapsed and Perun, an Rprof memory
#    profile's rprof.alloc through pprof back to Rprof), which were silent.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_written_value: FAIL: $*" >&2; exit 1; }
GEN="python3 tests/support/gen_jfr.py"
$GEN "$tmp/cpu.jfr" --chunks 2 --samples 30 --period '*:10 ms' >/dev/null || fail "gen_jfr.py --period"
$GEN "$tmp/count.jfr" --chunks 2 --samples 30 >/dev/null || fail "gen_jfr.py"
total() { # total FILE ARGS...: pcol top's raw total
  "$PCOL" top "$@" --unit raw --format json 2>/dev/null |
    python3 -c "import json,sys; print(json.load(sys.stdin)['total'])"
}

# --- F6: the default's lost sources are warned of as --value's are
for to in rprof collapsed perun; do
  "$PCOL" unpack "$tmp/cpu.jfr" --to "$to" -o "$tmp/d.$to" 2>"$tmp/d.err" || fail "jfr -> $to"
  "$PCOL" unpack "$tmp/cpu.jfr" --to "$to" --value cpu -o "$tmp/v.$to" 2>"$tmp/v.err" || fail "jfr -> $to --value cpu"
  grep -q "source 2 (jfr .*jdk.ObjectAllocationSample) has no value cpu/nanoseconds; its samples count 0" "$tmp/d.err" ||
    { cat "$tmp/d.err" >&2; fail "jfr -> $to: no warning of the allocation samples left out"; }
  grep -v "note:" "$tmp/d.err" >"$tmp/d.w"; grep -v "note:" "$tmp/v.err" >"$tmp/v.w"
  cmp -s "$tmp/d.w" "$tmp/v.w" ||
    { diff "$tmp/d.w" "$tmp/v.w" >&2; fail "jfr -> $to: the default's warnings differ from --value cpu's"; }
  # (collapsed: the counts of the samples that have cpu, 10 ms each, not
  # their ns, which collapsed readers would take for samples: mappings §4.2)
  [ "$to" = collapsed ] && awk '{ $NF = $NF / 10000000 } 1' "$tmp/v.$to" >"$tmp/v2" && mv "$tmp/v2" "$tmp/v.$to"
  cmp -s "$tmp/d.$to" "$tmp/v.$to" || fail "jfr -> $to: the default is not --value cpu"
  # the sources that state no default: each its own count, no sample left out
  "$PCOL" unpack "$tmp/count.jfr" --to "$to" -o "$tmp/c.$to" 2>"$tmp/c.err" || fail "count jfr -> $to"
  ! grep -q "has no value" "$tmp/c.err" || { cat "$tmp/c.err" >&2; fail "count jfr -> $to: a source said lost"; }
  grep -q "the sources measure different values" "$tmp/c.err" ||
    { cat "$tmp/c.err" >&2; fail "count jfr -> $to: no note on the sources' defaults"; }
done
if [ -f "$TD/pprof/go-cpu-inline-small.pb.gz" ]; then
  for to in rprof collapsed perun; do
    "$PCOL" unpack "$TD/pprof/go-cpu-inline-small.pb.gz" --to "$to" -o "$tmp/go.$to" 2>"$tmp/go.err" || fail "go -> $to"
    ! grep -q "warning" "$tmp/go.err" || { cat "$tmp/go.err" >&2; fail "go -> $to: a warning of one value"; }
  done
fi

# --- F5: Perun writes the default, or the value asked for
want=$(total "$tmp/cpu.jfr")
[ "$want" -gt 0 ] || fail "top of the recording: no cpu"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['collector_info']['name']=='kperf', d['collector_info']; assert d['header']['units']['time']=='ns', d['header']" "$tmp/d.perun" ||
  fail "jfr -> perun: not the kperf style in ns"
[ "$(total "$tmp/d.perun")" = "$want" ] || fail "jfr -> perun: $(total "$tmp/d.perun") ns, the recording's cpu is $want"
"$PCOL" unpack "$tmp/cpu.jfr" --to perun --value allocation_weight -o "$tmp/a.perf" 2>"$tmp/a.err" ||
  { cat "$tmp/a.err" >&2; fail "jfr -> perun --value allocation_weight"; }
grep -q "source 1 (jfr .*jdk.ExecutionSample) has no value allocation_weight/bytes; its samples count 0" "$tmp/a.err" ||
  { cat "$tmp/a.err" >&2; fail "jfr -> perun --value allocation_weight: no warning of the execution samples"; }
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['collector_info']['name']=='memory'" "$tmp/a.perf" ||
  fail "jfr -> perun --value allocation_weight: not the memory style"
want=$(total "$tmp/cpu.jfr" --value allocation_weight)
got=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(sum(r.get('amount', [])) for r in d['resources'].values()))" "$tmp/a.perf")
[ "$got" = "$want" ] || fail "jfr -> perun --value allocation_weight: amounts $got, the recording's bytes $want"
"$PCOL" unpack "$tmp/cpu.jfr" --to perun --value samples -o "$tmp/s.perf" 2>/dev/null || fail "jfr -> perun --value samples"
[ "$(total "$tmp/s.perf")" = "$(total "$tmp/cpu.jfr" --value samples)" ] || fail "jfr -> perun --value samples: not the count"
"$PCOL" unpack "$tmp/cpu.jfr" --to perun --value nosuch -o "$tmp/x.perf" 2>"$tmp/x.err"; rc=$?
[ $rc = 1 ] && grep -q "no value type 'nosuch'" "$tmp/x.err" || { cat "$tmp/x.err" >&2; fail "--value nosuch: exit $rc"; }
if [ -f "$TD/perun/memory-basic.perf" ]; then
  "$PCOL" unpack "$TD/perun/memory-basic.perf" --to perun -o "$tmp/m1.perf" || fail "perun -> perun"
  "$PCOL" unpack "$TD/perun/memory-basic.perf" --to perun --value memory -o "$tmp/m2.perf" || fail "perun -> perun --value memory"
  cmp -s "$tmp/m1.perf" "$tmp/m2.perf" || fail "perun -> perun --value memory (its own amount) is not written exactly"
fi
if [ -f "$TD/rprof/r-prof-profile__memory.out" ]; then
  "$PCOL" unpack "$TD/rprof/r-prof-profile__memory.out" --to perun --value rprof.alloc -o "$tmp/r.perf" 2>"$tmp/r.err"; rc=$?
  [ $rc = 2 ] && grep -q "rprof.alloc" "$tmp/r.err" && [ ! -e "$tmp/r.perf" ] ||
    { cat "$tmp/r.err" >&2; fail "perun --value rprof.alloc: exit $rc"; }
  # --to collapsed takes rprof.alloc, as `unpack --help` says: fold's lines
  # (summaryRprof's memory per stack; it was refused, review h7)
  "$PCOL" unpack "$TD/rprof/r-prof-profile__memory.out" --to collapsed --value rprof.alloc -o "$tmp/r.coll" 2>"$tmp/r.err" ||
    { cat "$tmp/r.err" >&2; fail "collapsed --value rprof.alloc refused"; }
  "$PCOL" fold "$TD/rprof/r-prof-profile__memory.out" --value rprof.alloc >"$tmp/r.fold" || fail "fold --value rprof.alloc"
  [ -s "$tmp/r.fold" ] && [ "$(sort "$tmp/r.coll")" = "$(sort "$tmp/r.fold")" ] ||
    fail "collapsed --value rprof.alloc: not fold's lines: $(head -3 "$tmp/r.coll")"
fi

# --- L2: a Go heap profile writes its default value, inuse_space, as pcol
# top and go tool pprof -top show it (go's sample_index for heap; before
# review 16 F5, alloc_space); a delta heap profile's negative amounts, which
# no Perun profile holds, are not written, and warned of with their number
# (as the Rprof and speedscope exports leave out what they cannot hold)
amounts() { # FILE: count, sum and negatives of a Perun profile's amounts
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); a=[x for r in d['resources'].values() for x in r.get('amount',[])]; print(len(a), sum(a), sum(1 for x in a if x < 0))" "$1"
}
heap=$TD/ext/pprof/go-heap-UNCOMPRESSED.pb
if [ -f "$heap" ]; then
  "$PCOL" unpack "$heap" --to perun -o "$tmp/h.perf" 2>"$tmp/h.err" || { cat "$tmp/h.err" >&2; fail "go heap -> perun"; }
  # (one line: the loss note of the three types and the label not written)
  [ "$(cat "$tmp/h.err")" = "pcol unpack: note: $heap: not written: labels (1 key: bytes) and values alloc_objects/count, alloc_space/bytes, inuse_objects/count (Perun holds one value and, but for a Perun profile's own, no labels)" ] ||
    { cat "$tmp/h.err" >&2; fail "go heap -> perun: a message but the loss note"; }
  "$PCOL" top "$heap" --format json 2>/dev/null | python3 -c "import json,sys; v=json.load(sys.stdin)['type']; sys.exit(v != 'inuse_space' and 'top shows %s' % v)" ||
    fail "go heap: pcol top's default is not inuse_space"
  if command -v go >/dev/null 2>&1; then
    go tool pprof -top "$heap" 2>/dev/null | grep -q "^Type: inuse_space$" || fail "go tool pprof -top: not inuse_space"
  fi
  read -r n sum neg <<<"$(amounts "$tmp/h.perf")"
  [ "$sum $neg" = "$(total "$heap") 0" ] || fail "go heap -> perun: amounts $sum ($neg negative), not top's inuse_space ($(total "$heap"))"
  [ "$(total "$heap")" != "$(total "$heap" --value alloc_space)" ] || fail "go heap: inuse_space = alloc_space, no test"
fi
delta=$TD/pprof/go-heap-delta-negative-values.pb.gz
if [ -f "$delta" ]; then
  "$PCOL" unpack "$delta" --to perun -o "$tmp/dh.perf" 2>"$tmp/dh.err" || { cat "$tmp/dh.err" >&2; fail "delta heap -> perun"; }
  read -r n sum neg <<<"$(amounts "$tmp/dh.perf")"
  [ "$neg" = 0 ] || fail "delta heap -> perun: $neg negative amounts written"
  if command -v go >/dev/null 2>&1; then # its samples by go's reading: the negative ones, the others' sum
    read -r gneg gn gsum <<<"$(go tool pprof -raw "$delta" 2>/dev/null | awk '/^ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+:/ {
      v = $4; sub(":", "", v); if (v < 0) neg++; else { n++; s += v } } END { printf "%d %d %.0f\n", neg, n, s }')"
    [ "$gneg" -gt 0 ] || fail "delta heap: go tool pprof -raw shows no negative inuse_space"
    [ "$n $sum" = "$gn $gsum" ] || fail "delta heap -> perun: $n amounts adding up to $sum, go's non-negative samples $gn, $gsum"
  else
    gneg=144
  fi
  grep -q "warning: $delta: $gneg samples with a negative inuse_space/bytes .*not written" "$tmp/dh.err" ||
    { cat "$tmp/dh.err" >&2; fail "delta heap -> perun: no warning naming the file and the $gneg samples"; }
  # kperf: a CPU profile less another (pprof -base): stacks summing below 0
  "$PCOL" unpack "$TD/pprof/go-cpu-inline-small.pb.gz" --base "$TD/pprof/go-cpu-large.pb.gz" --to perun -o "$tmp/dk.perf" \
    2>"$tmp/dk.err" || { cat "$tmp/dk.err" >&2; fail "cpu --base -> perun"; }
  read -r n sum neg <<<"$(amounts "$tmp/dk.perf")"
  [ "$neg" = 0 ] || fail "cpu --base -> perun: $neg negative amounts written"
  grep -q "warning: .*go-cpu-inline-small.pb.gz: [1-9][0-9]* samples in [1-9][0-9]* stacks whose cpu/nanoseconds sums below 0" "$tmp/dk.err" ||
    { cat "$tmp/dk.err" >&2; fail "cpu --base -> perun: no warning of the stacks left out"; }
fi

# --- m1: V8 and Chrome exports read back with the same count (an Rprof
# file: a sample a line; a pprof row of N samples is one V8 sample, so the
# pprof profile is judged by its time, and by a second trip's count)
for f in rprof/r-prof-profile__memory.out rprof/r-prof-profile__1.out pprof/go-cpu-inline-small.pb.gz; do
  in=$TD/$f
  [ -f "$in" ] || continue
  n=$(total "$in" --value samples); w=$(total "$in")
  for to in v8 chrome; do
    "$PCOL" unpack "$in" --to $to -o "$tmp/rt.json" 2>/dev/null || fail "$f -> $to"
    "$PCOL" pack "$tmp/rt.json" -o "$tmp/rt.pcol" || fail "pack $f -> $to"
    "$PCOL" unpack "$tmp/rt.pcol" --to $to -o "$tmp/rt2.json" 2>/dev/null || fail "$f -> $to -> pcol -> $to"
    n2=$(total "$tmp/rt2.json" --value samples)
    [ "$(total "$tmp/rt.pcol" --value samples)" = "$n2" ] || fail "$f -> $to twice: $n2 samples, once $(total "$tmp/rt.pcol" --value samples)"
    case $f in rprof/*) [ "$n2" = "$n" ] || fail "$f -> $to -> pcol: $n2 samples, the input has $n";; esac
    [ "$(total "$tmp/rt.pcol")" = "$w" ] || fail "$f -> $to -> pcol: time $(total "$tmp/rt.pcol"), the input's $w"
  done
done
# a last sample of the root before endTime is a sample (V8's own), one at
# endTime after others too unless marked as the export's closing sample
# (below): the file holds 3 samples, and pcol's 1.0 and 1.1 exports, whose
# shape this is (every scriptId "0", no mark), are read so now
v8() { # v8 END: a profile of main, main, (root) at 2000 us, ending at END
  printf '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},'
  printf '{"id":2,"callFrame":{"functionName":"main","scriptId":"0","url":"a.js","lineNumber":0,"columnNumber":0}}],'
  printf '"startTime":0,"endTime":%s,"samples":[2,2,1],"timeDeltas":[0,1000,1000]}\n' "$1"
}
v8 2000 >"$tmp/closed.cpuprofile"; v8 3000 >"$tmp/open.cpuprofile"
[ "$(total "$tmp/closed.cpuprofile" --value samples)" = 3 ] || fail "an unmarked root sample at endTime not counted"
[ "$(total "$tmp/closed.cpuprofile")" = 2000000 ] || fail "an unmarked root sample at endTime: main's 2 ms"
[ "$(total "$tmp/open.cpuprofile" --value samples)" = 3 ] || fail "a root sample before endTime not counted"
# L1: only pcol's own closing sample is none.  A foreign file (V8's own
# scriptIds: a script's is not "0", as node and Chrome write them) whose
# last sample is of the root at endTime keeps it, as DevTools' model of it
# (CPUProfileDataModel: its samples array, whole) and speedscope (which reads
# every sample; the last lasts 0) do: 3 samples, main's 2 ms.  An export
# marks its closing sample ("pcolClosingSample"), and is read back by the
# mark even when its scriptIds are not "0".  An older export (no mark,
# every scriptId "0", as closed.cpuprofile above) cannot be told from
# node's profile of no script frame: below, node's own numbers (a profile
# node 20 recorded of an idle process, its JavaScript frames taken out:
# (root), (program), (idle), (garbage collector), all scriptId "0", as
# node writes them) ending in a root sample at endTime.  It holds 9
# samples, DevTools' count; its walls are speedscope's frame weights
# ((program) 42,488 us, (garbage collector) 20,113 us, its importer's;
# (idle), which it leaves out, the sum of its deltas, 100,462 us; the root
# sample lasts 0).  (pcol 1.2 before this fix dropped the last: 8.)
node_v8() { # node_v8 MARK: closed.cpuprofile with node's scriptIds, MARK ("" or a key)
  printf '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":1,"children":[2]},'
  printf '{"id":2,"callFrame":{"functionName":"main","scriptId":"12","url":"file:///a.js","lineNumber":0,"columnNumber":0},"hitCount":2,"positionTicks":[{"line":1,"ticks":2}]}],'
  printf '"startTime":0,"endTime":2000,%s"samples":[2,2,1],"timeDeltas":[0,1000,1000]}\n' "$1"
}
node_v8 "" >"$tmp/foreign.cpuprofile"
[ "$(total "$tmp/foreign.cpuprofile" --value samples)" = 3 ] || fail "a foreign file's last root sample at endTime not counted"
[ "$(total "$tmp/foreign.cpuprofile")" = 2000000 ] || fail "a foreign file's last root sample: main's 2 ms"
node_v8 '"pcolClosingSample":true,' >"$tmp/marked.cpuprofile"
[ "$(total "$tmp/marked.cpuprofile" --value samples)" = 2 ] || fail "a marked closing sample counted"
idle_v8() { # idle_v8 MARK
  local f='"scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}'
  printf '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)",%s,"hitCount":1,"children":[2,3,4]},' "$f"
  printf '{"id":2,"callFrame":{"functionName":"(program)",%s,"hitCount":2},' "$f"
  printf '{"id":3,"callFrame":{"functionName":"(idle)",%s,"hitCount":5},' "$f"
  printf '{"id":4,"callFrame":{"functionName":"(garbage collector)",%s,"hitCount":1}],' "$f"
  printf '"startTime":10993968401,"endTime":10994140823,%s"samples":[2,3,3,3,4,3,3,2,1],' "$1"
  printf '"timeDeltas":[9359,22384,20104,20057,20116,20113,20072,20113,20104]}\n'
}
idle_v8 "" >"$tmp/idle.cpuprofile"
[ "$(total "$tmp/idle.cpuprofile" --value samples)" = 9 ] ||
  fail "node's profile of no script frame: $(total "$tmp/idle.cpuprofile" --value samples) samples, the file's (DevTools') 9"
"$PCOL" top "$tmp/idle.cpuprofile" --unit raw --format json 2>/dev/null | python3 -c '
import json, sys
w = {r["name"]: r["flat"] for r in json.load(sys.stdin)["rows"]}
sys.exit(w.get("(program)") != 42488000 or w.get("(garbage collector)") != 20113000 or w.get("(idle)") != 100462000)' ||
  fail "node's profile of no script frame: walls not speedscope's"
idle_v8 '"pcolClosingSample":true,' >"$tmp/idle_marked.cpuprofile"
[ "$(total "$tmp/idle_marked.cpuprofile" --value samples)" = 8 ] || fail "a marked closing sample of a profile of no script frame counted"
# the same of a Chrome trace: a foreign one (integer scriptIds, as Chrome's)
python3 - "$tmp/foreign.json" <<'PY'
import json, sys
nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": 0, "url": "", "lineNumber": -1, "columnNumber": -1}},
         {"id": 2, "parent": 1, "callFrame": {"functionName": "main", "scriptId": 12, "url": "file:///a.js", "lineNumber": 0, "columnNumber": 0}}]
ev = [{"ph": "P", "name": "Profile", "pid": 1, "tid": 1, "ts": 1000, "id": "0x1", "args": {"data": {"startTime": 1000}}},
      {"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 1, "ts": 3000, "id": "0x1",
       "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": [2, 2, 1]}, "timeDeltas": [0, 1000, 1000], "endTime": 3000}}}]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
[ "$(total "$tmp/foreign.json" --value samples)" = 3 ] || fail "a foreign trace's last root sample at endTime not counted"
# exports: marked; read back by the mark with scriptIds not "0"; unmarked
# (older ones): one sample more, the closing one, as DevTools counts it
in=$TD/rprof/r-prof-profile__1.out
if [ -f "$in" ]; then
  n=$(total "$in" --value samples)
  for to in v8 chrome; do
    "$PCOL" unpack "$in" --to $to -o "$tmp/e.json" 2>/dev/null || fail "$in -> $to"
    [ "$(grep -c '"pcolClosingSample":true' "$tmp/e.json")" = 1 ] || fail "$to export: its closing sample not marked once"
    sed 's/"scriptId":"0","url":"[^"]/"scriptId":"7","url":"x/g' "$tmp/e.json" >"$tmp/e7.json"
    grep -q '"scriptId":"7"' "$tmp/e7.json" || fail "$to export: no frame with a url to renumber"
    [ "$(total "$tmp/e7.json" --value samples)" = "$n" ] || fail "$to export with scriptIds: not read back by its mark"
    sed 's/"pcolClosingSample":true,\{0,1\}//; s/,}/}/' "$tmp/e.json" >"$tmp/old.json"
    ! grep -q pcolClosingSample "$tmp/old.json" || fail "$to: mark not removed"
    [ "$(total "$tmp/old.json" --value samples)" = "$((n + 1))" ] ||
      fail "$to: an older export (unmarked) read back with $(total "$tmp/old.json" --value samples) samples, not $n + its closing one"
    [ "$(total "$tmp/old.json")" = "$(total "$tmp/e.json")" ] || fail "$to: an older export's closing sample lasts"
  done
fi
# --- review 19 F5: every export names what it does not write, in one line
python3 tests/support/pprofgen.py lossy "$tmp/lossy.pb" || fail "pprofgen lossy"
python3 tests/support/pprofgen.py lossy "$tmp/plain.pb" plain || fail "pprofgen lossy plain"
L4='labels (4 keys: tid, thread_name, foo, n)'
L2='labels (2 keys: foo, n)'
# target | what the note says after "not written: " ("-": no note)
while IFS='|' read -r to want; do
  "$PCOL" unpack "$tmp/lossy.pb" --to "$to" -o "$tmp/lossy.$to" 2>"$tmp/l.err" ||
    { cat "$tmp/l.err" >&2; fail "lossy -> $to"; }
  got=$(sed -n 's/^pcol unpack: note: [^:]*lossy.pb: not written: //p' "$tmp/l.err")
  [ "$(grep -c 'not written' "$tmp/l.err")" = "$([ "$want" = - ] && echo 0 || echo 1)" ] ||
    { cat "$tmp/l.err" >&2; fail "lossy -> $to: not one loss note"; }
  [ "$want" = - ] && want=
  [ "$got" = "$want" ] || fail "lossy -> $to: the loss note says [$got], want [$want]"
  "$PCOL" unpack "$tmp/plain.pb" --to "$to" -o "$tmp/plain.$to" 2>"$tmp/p.err" ||
    { cat "$tmp/p.err" >&2; fail "plain -> $to"; }
  # (nothing lost: no loss note; the collapsed export still says its
  # numbers are nanoseconds, not counts, §4.2)
  ! grep -q ': not written: ' "$tmp/p.err" || { cat "$tmp/p.err" >&2; fail "plain -> $to: one value and no label, yet a note"; }
  [ "$to" = collapsed ] || [ ! -s "$tmp/p.err" ] || { cat "$tmp/p.err" >&2; fail "plain -> $to: a note"; }
done <<EOF
pprof|-
otlp|-
collapsed|$L4 and values alloc/bytes, cpu/nanoseconds (collapsed holds one value and no labels)
rprof|$L4 and values alloc/bytes (Rprof holds one time as ticks, R's memory fields and no labels)
perun|$L4 and values samples/count, alloc/bytes (Perun holds one value and, but for a Perun profile's own, no labels)
v8|$L4 and values alloc/bytes (a V8 profile holds one time per sample and no labels)
chrome|$L2 and values alloc/bytes (a Chrome trace holds one time per sample and labels only as processes and threads)
speedscope|$L4 (speedscope holds labels only as its timeline's threads)
firefox|$L2 (the Firefox Profiler holds labels only as threads)
perfetto|$L2 (Perfetto holds labels only as processes and threads)
EOF
# what the notes call kept reads back (a thread's name), what they call
# lost does not (foo); --value changes what a one-value format keeps
for to in chrome firefox perfetto; do
  "$PCOL" tags "$tmp/lossy.$to" 2>/dev/null | grep -q '^ *thread_name: ' || fail "lossy -> $to: the thread's name not read back"
  ! "$PCOL" tags "$tmp/lossy.$to" 2>/dev/null | grep -q '^ *foo: ' || fail "lossy -> $to: foo read back, said lost"
done
"$PCOL" unpack "$tmp/lossy.pb" --to collapsed --value alloc -o "$tmp/a.txt" 2>"$tmp/l.err" || fail "lossy -> collapsed --value alloc"
grep -q "not written: $L4 and values samples/count, cpu/nanoseconds (collapsed" "$tmp/l.err" ||
  { cat "$tmp/l.err" >&2; fail "lossy -> collapsed --value alloc: the note does not name cpu"; }
# --value weight writes the rows' weight, not the count: a pprof CPU
# profile's 76 rows of 176 samples (go tool pprof -sample_index=samples)
# lose samples/count too (review rd13b F5)
go=$TD/pprof/go-cpu-inline-small.pb.gz
if [ -f "$go" ]; then
  for to in collapsed perun; do
    "$PCOL" unpack "$go" --to $to --value weight -o "$tmp/w.$to" 2>"$tmp/l.err" || fail "go -> $to --value weight"
    grep -q "not written: values samples/count, cpu/nanoseconds (" "$tmp/l.err" ||
      { cat "$tmp/l.err" >&2; fail "go -> $to --value weight: the note does not name samples/count"; }
    [ "$(total "$tmp/w.$to")" != "$(total "$go" --value samples)" ] || fail "go -> $to --value weight: the weight is the count, no test"
  done
fi
# review rd13b F7: what the help says of the defaults holds.  `pcol fold
# --help`: unpack --to collapsed writes a counting source's count (fold
# --value samples), but for samples the default does not weigh (the JFR
# recording's allocation source), and any other by its default (fold's);
# `pcol unpack --help`: Perun writes the selection's default, not
# collapsed's counts (its total is pcol top's, tested above)
same_fold() { # same_fold FILE FOLD-ARGS...: unpack --to collapsed is fold's lines
  "$PCOL" unpack "$1" --to collapsed -o "$tmp/sf.txt" 2>/dev/null || fail "$1 -> collapsed"
  local f=$1; shift
  "$PCOL" fold "$f" "$@" 2>/dev/null | sort >"$tmp/sf.fold"
  sort "$tmp/sf.txt" | cmp -s - "$tmp/sf.fold" || fail "$f -> collapsed is not pcol fold $*"
}
same_fold "$tmp/cpu.jfr" --value samples --source 1
for f in pprof/go-cpu-inline-small.pb.gz rprof/r-prof-profile__1.out; do
  [ -f "$TD/$f" ] && same_fold "$TD/$f" --value samples
done
[ -f "$TD/pprof/go-heap-allocs-inline.pb.gz" ] && same_fold "$TD/pprof/go-heap-allocs-inline.pb.gz"
"$PCOL" fold --help | tr '\n' ' ' | grep -q "by that count, the numbers fold --value samples prints but for samples the default does not weigh" ||
  fail "pcol fold --help: not the collapsed export's rule"
! "$PCOL" unpack --help | grep -q "as --to collapsed" || fail "pcol unpack --help: Perun's default said to be collapsed's"
# the review's files, which were silent
lab=$TD/pprof/go-cpu-string-labels.pb.gz heap=$TD/pprof/go-heap-allocs-inline.pb.gz
if [ -f "$lab" ] && [ -f "$heap" ]; then
  for to in collapsed rprof perun v8 chrome; do
    "$PCOL" unpack "$lab" --to "$to" -o "$tmp/lab.$to" 2>"$tmp/l.err" || fail "string labels -> $to"
    grep -q "not written: labels (3 keys: foo, " "$tmp/l.err" ||
      { cat "$tmp/l.err" >&2; fail "string labels -> $to: foo=bar lost silently"; }
  done
  for to in collapsed perun; do
    "$PCOL" unpack "$heap" --to "$to" -o "$tmp/heap.$to" 2>"$tmp/l.err" || fail "heap -> $to"
    grep -q "not written: labels (1 key: bytes) and values alloc_objects/count, inuse_objects/count, inuse_space/bytes (" "$tmp/l.err" ||
      { cat "$tmp/l.err" >&2; fail "heap -> $to: three of four types lost silently"; }
  done
  # Rprof writes the heap profile as ticks of its samples' weight, not its
  # default alloc_space (the other note says so): all four lost (review h7)
  "$PCOL" unpack "$heap" --to rprof -o "$tmp/heap.rprof" 2>"$tmp/l.err" || fail "heap -> rprof"
  grep -q "not written: labels (1 key: bytes) and values alloc_objects/count, alloc_space/bytes, inuse_objects/count, inuse_space/bytes (" "$tmp/l.err" ||
    { cat "$tmp/l.err" >&2; fail "heap -> rprof: alloc_space, which no line holds, unnamed"; }
fi
# review rd14a F3: a type equal to each sample's count (objects/count of
# a legacy heap profile, a Go heap's alloc_objects and inuse_objects) is
# held only where the count is written: Rprof's ticks of the count, not
# collapsed's (or Perun's) bytes, where the note named them no longer
# file | target | what the note says after "not written: "
while IFS='|' read -r f to want; do
  [ -f "$TD/$f" ] || continue
  "$PCOL" unpack "$TD/$f" --to "$to" -o "$tmp/cl.$to" 2>"$tmp/l.err" || fail "$f -> $to"
  got=$(sed -n 's/^pcol unpack: note: .*: not written: \(.*\) ([^(]*)$/\1/p' "$tmp/l.err")
  [ "$got" = "$want" ] || { cat "$tmp/l.err" >&2; fail "$f -> $to: the note says [$got], lost: [$want]"; }
done <<'EOF2'
ext/legacy/legacy-cpp-growth.heap|collapsed|labels (1 key: bytes) and values objects/count
ext/legacy/legacy-cpp-growth.heap|perun|labels (1 key: bytes) and values objects/count
ext/legacy/legacy-cpp-growth.heap|rprof|labels (1 key: bytes) and values space/bytes
pprof/go-heap-nomappings-nofunctions.pb.gz|collapsed|values alloc_objects/count, alloc_space/bytes, inuse_objects/count
pprof/go-heap-nomappings-nofunctions.pb.gz|perun|values alloc_objects/count, alloc_space/bytes, inuse_objects/count
pprof/go-heap-nomappings-nofunctions.pb.gz|rprof|values alloc_space/bytes, inuse_space/bytes
EOF2
mem=$TD/rprof/r-prof-profile__memory.out
if [ -f "$mem" ]; then
  "$PCOL" unpack "$mem" --to rprof -o "$tmp/mem.out" 2>"$tmp/l.err" || fail "memory -> rprof"
  ! grep -q "not written" "$tmp/l.err" || { cat "$tmp/l.err" >&2; fail "memory -> rprof: a loss said"; }
  { "$PCOL" unpack "$mem" --to pprof -o "$tmp/mem.pb.gz" && "$PCOL" unpack "$tmp/mem.pb.gz" --to rprof -o "$tmp/mem2.out"; } 2>"$tmp/l.err" ||
    fail "memory -> pprof -> rprof"
  grep -q "not written: values rprof.alloc/bytes (Rprof" "$tmp/l.err" ||
    { cat "$tmp/l.err" >&2; fail "memory -> pprof -> rprof: its memory lost silently"; }
fi
# review rd13b F3: sources whose defaults differ (an eBPF OTLP file: 77 of
# off_cpu, 5 of counts) write each one's own time as Rprof ticks, so the
# note names the labels only, not the off_cpu that summaryRprof reads
# (267.65 s; pcol top of the copy within 1% of the input's off_cpu)
odd=$TD/ext/pprof/ODD-otlp-ebpf-profile.pb.bin
if [ -f "$odd" ]; then
  "$PCOL" unpack "$odd" --to rprof -o "$tmp/odd.out" 2>"$tmp/l.err" || fail "ebpf -> rprof"
  grep -q "not written: labels (3 keys: thread.name, thread.id, cpu.logical_number) (Rprof" "$tmp/l.err" ||
    { grep "not written" "$tmp/l.err" >&2; fail "ebpf -> rprof: the loss note names a value written (off_cpu) or no labels"; }
  python3 -c "import sys; a, b = int(sys.argv[1]), int(sys.argv[2]); sys.exit(abs(a - b) > b / 100)" \
    "$(total "$tmp/odd.out")" "$(total "$odd" --value off_cpu)" ||
    fail "ebpf -> rprof: $(total "$tmp/odd.out") ns written, the input's off_cpu $(total "$odd" --value off_cpu)"
fi
if [ -f "$TD/perun/memory-basic.perf" ]; then # written back exactly: nothing lost
  "$PCOL" unpack "$TD/perun/memory-basic.perf" --to perun -o "$tmp/m3.perf" 2>"$tmp/l.err" || fail "perun -> perun"
  [ ! -s "$tmp/l.err" ] || { cat "$tmp/l.err" >&2; fail "perun -> perun: a note"; }
fi
exit 0
