#!/usr/bin/env bash
# JFR import without a JVM (tests/interop/t_jfr.sh judges real recordings by
# the JDK): recordings written by tests/support/gen_jfr.py read the same with
# LEB128 and fixed-size integers, gzip-compressed, from standard input, and
# joined (two files' chunks: twice the samples); a cut copy is refused naming
# the file, a version 3 chunk is refused by name, and a recording with 200,000
# settings packs in a few seconds (the settings kept are capped, and counted
# in a note: each was looked for among all those before it, quadratic), as
# do 30,000 events of one 1,000-frame stack trace (read once).  The
# execution samples' period settings: each sample's cpu is the one in
# force, hostile values give no CPU time and a note.  A recording's
# sources count its time once (Duration: its span, not their durations
# added), two recordings twice.  JDK 25's CPU-time samples have their own
# value, cpu-time, never added to the execution samples' cpu.  Lock and
# park events are sources (contentions, delay); other events with a stack
# trace are noted, a file of nothing read warns; --value samples of a
# recording's parts warns; their own parts get no note on a --value or the
# pprof export; async-profiler's interval and event settings give time.
set -u
PCOL=${PCOL:-build/bin/pcol}
GEN="python3 tests/support/gen_jfr.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_jfr: FAIL: $*" >&2; exit 1; }

$GEN "$tmp/a.jfr" --chunks 2 --samples 30 || fail "gen_jfr.py"
$GEN "$tmp/b.jfr" --chunks 2 --samples 30 --fixed || fail "gen_jfr.py --fixed"
for s in 1 2; do
  "$PCOL" top "$tmp/a.jfr" --source $s --format tsv >"$tmp/a$s.tsv" || fail "pcol top a.jfr"
  "$PCOL" top "$tmp/b.jfr" --source $s --format tsv >"$tmp/b$s.tsv" || fail "pcol top b.jfr (fixed-size integers)"
  cmp -s "$tmp/a$s.tsv" "$tmp/b$s.tsv" || fail "LEB128 and fixed-size integers read differently (source $s)"
done
"$PCOL" cat "$tmp/a.jfr" --table samples >"$tmp/a.samples" || fail "pcol cat"
[ "$(tail -n +2 "$tmp/a.samples" | wc -l)" = 60 ] || fail "not 60 samples: $(wc -l <"$tmp/a.samples")"
gzip -c "$tmp/a.jfr" >"$tmp/a.jfr.gz"
"$PCOL" cat "$tmp/a.jfr.gz" --table samples >"$tmp/gz.samples" || fail "pcol cat of the gzip copy"
cmp -s "$tmp/a.samples" "$tmp/gz.samples" || fail "the gzip copy reads differently"
"$PCOL" pack - -o "$tmp/in.pcol" <"$tmp/a.jfr.gz" || fail "pcol pack - (gzip JFR on standard input)"
"$PCOL" cat "$tmp/in.pcol" --table samples >"$tmp/in.samples" || fail "pcol cat in.pcol"
cmp -s "$tmp/a.samples" "$tmp/in.samples" || fail "standard input reads differently"
# a file joined to itself with `cat`: two recordings (jfr_import.c
# same_recording), each read as its own file is (its own sources), so they
# count twice and their lengths add up, as the two files' do (review 10 F5)
cat "$tmp/a.jfr" "$tmp/a.jfr" >"$tmp/aa.jfr"
"$PCOL" top "$tmp/a.jfr" --value samples --format tsv >"$tmp/a.tsv" || fail "pcol top a.jfr"
"$PCOL" top "$tmp/aa.jfr" --value samples --format tsv >"$tmp/aa.tsv" || fail "pcol top of two joined files"
awk -F'\t' 'NR > 1 { $1 *= 2; $4 *= 2 } { print $1, $4, $6 }' "$tmp/a.tsv" >"$tmp/want"
awk -F'\t' '{ print $1, $4, $6 }' "$tmp/aa.tsv" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "two joined files do not count twice: $(diff "$tmp/want" "$tmp/got" | head -5)"
d1=$("$PCOL" top "$tmp/aa.jfr" --value samples -n 1 | grep '^Duration:')
d2=$("$PCOL" top "$tmp/a.jfr" "$tmp/a.jfr" --value samples -n 1 | grep '^Duration:')
[ -n "$d1" ] && [ "$d1" = "$d2" ] || fail "a file joined to itself: '$d1', the two files: '$d2'"
[ "$("$PCOL" cat "$tmp/aa.jfr" --table sources --format tsv | grep -c '(recording 2): ')" = \
  "$("$PCOL" cat "$tmp/a.jfr" --table sources --format tsv | tail -n +2 | wc -l)" ] ||
  fail "a file joined to itself: not a source of its second recording per the file's"
# one recording's time counts once (THE recording rule, lib/core/wall.c):
# gen_jfr.py's chunks follow one another, 10 ms each, so a recording of 3
# chunks lasts 30 ms, and so does each of its sources (execution and
# allocation samples); `pcol top`'s Duration: and the pprof export's
# duration_nanos are that span, not the sources' durations added (60 ms,
# as go tool pprof adds separate profiles); two recordings (two inputs, or
# merged) still add up, and the OTLP and speedscope exports read back keep
# the recording one
$GEN "$tmp/r.jfr" --chunks 3 --samples 10 || fail "gen_jfr.py --chunks 3"
# THE recording rule's mark (spec.md §7): a recording of several sources
# numbers them, pcol.recording_part = 1, 2, ... (each recording of a file
# joined with `cat` from 1 again); a lone source is no part, as Chrome's,
# Perfetto's and OTLP's are not (h4: JFR numbered it 1), however many
# chunks it spans
parts() { "$PCOL" cat "$1" --table meta --format tsv | awk -F'\t' '$1 == "pcol.recording_part" { printf "%s=%s ", $3, $2 }'; }
[ "$(parts "$tmp/r.jfr")" = "1=1 2=2 " ] || fail "r.jfr's two sources: parts '$(parts "$tmp/r.jfr")'"
[ "$(parts "$tmp/aa.jfr")" = "1=1 2=2 3=1 4=2 " ] || fail "aa.jfr's two recordings: parts '$(parts "$tmp/aa.jfr")'"
for c in 1 3; do
  $GEN "$tmp/lone$c.jfr" --chunks $c --exec-only || fail "gen_jfr.py --chunks $c --exec-only"
  [ "$("$PCOL" cat "$tmp/lone$c.jfr" --table sources --format tsv | tail -n +2 | wc -l)" = 1 ] || fail "lone$c.jfr: not one source"
  [ -z "$(parts "$tmp/lone$c.jfr")" ] || fail "lone$c.jfr ($c chunks): a lone source numbered '$(parts "$tmp/lone$c.jfr")'"
  ! "$PCOL" info "$tmp/lone$c.jfr" | grep -q recording_part || fail "pcol info lone$c.jfr: a recording part"
done
jdur() { "$PCOL" info "$1" --format json | python3 -c 'import json, sys; print(" ".join(str(r["duration_ns"]) for r in json.load(sys.stdin)["rows"]))'; }
hdur() { "$PCOL" top "$@" -n 1 2>/dev/null | sed -n 's/^Duration: \([^,]*\),.*/\1/p'; }
[ "$(jdur "$tmp/r.jfr")" = "30000000 30000000" ] || fail "r.jfr's sources last $(jdur "$tmp/r.jfr") ns, not 30 ms each"
[ "$(hdur "$tmp/r.jfr")" = 30ms ] || fail "pcol top r.jfr: Duration: $(hdur "$tmp/r.jfr"), not the recording's 30ms"
[ "$(hdur "$tmp/r.jfr" --source 2)" = 30ms ] || fail "pcol top r.jfr --source 2: Duration: $(hdur "$tmp/r.jfr" --source 2)"
"$PCOL" merge "$tmp/r.jfr" "$tmp/r.jfr" -o "$tmp/rr.pcol" || fail "pcol merge r.jfr r.jfr"
for w in r.jfr:30000000 rr.pcol:60000000; do
  "$PCOL" unpack "$tmp/${w%%:*}" --to pprof -o "$tmp/r.pb.gz" 2>/dev/null || fail "unpack ${w%%:*} --to pprof"
  [ "$(jdur "$tmp/r.pb.gz")" = "${w#*:}" ] || fail "${w%%:*}: the pprof export's duration_nanos $(jdur "$tmp/r.pb.gz"), want ${w#*:}"
done
[ "$(hdur "$tmp/rr.pcol")" = 60ms ] || fail "pcol top of two recordings merged: Duration: $(hdur "$tmp/rr.pcol"), not 60ms"
[ "$(hdur "$tmp/r.jfr" "$tmp/r.jfr")" = 60ms ] || fail "pcol top of two recordings: Duration: $(hdur "$tmp/r.jfr" "$tmp/r.jfr"), not 60ms"
for t in otlp speedscope; do
  "$PCOL" unpack "$tmp/rr.pcol" --to $t -o "$tmp/rr.$t" 2>/dev/null || fail "unpack rr.pcol --to $t"
  [ "$(hdur "$tmp/rr.$t")" = 60ms ] || fail "rr.pcol as $t read back: Duration: $(hdur "$tmp/rr.$t"), not 60ms (two recordings of 30ms)"
done
# a constant keyed -1 (Java's -1L, which the key map cannot hold) is its own
# entry: the threads read the same when the first one's key is -1 (it took
# the next key's entry: every sample of thread 1 named "wörker")
for m in "" --m1; do
  $GEN "$tmp/m$m.jfr" --samples 30 $m || fail "gen_jfr.py $m"
  "$PCOL" cat "$tmp/m$m.jfr" --table sample_labels >"$tmp/m$m.lab" || fail "pcol cat m$m.jfr"
done
cmp -s "$tmp/m.lab" "$tmp/m--m1.lab" ||
  fail "a thread keyed -1 reads differently: $(diff "$tmp/m.lab" "$tmp/m--m1.lab" | head -4)"
# refusals name the file and where
head -c 1000 "$tmp/a.jfr" >"$tmp/cut.jfr"
"$PCOL" pack "$tmp/cut.jfr" -o "$tmp/cut.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "cut.jfr: chunk 1, byte 0: truncated: chunk size [0-9]*, only 1000 bytes left" "$tmp/err" ||
  fail "a cut copy: exit $rc, $(cat "$tmp/err")"
[ -e "$tmp/cut.pcol" ] && fail "a cut copy left an output"
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[4:6] = b"\0\3"; open(sys.argv[2], "wb").write(d)' \
  "$tmp/a.jfr" "$tmp/v3.jfr"
"$PCOL" pack "$tmp/v3.jfr" -o "$tmp/v3.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "v3.jfr: chunk 1, byte 0: file version 3.1" "$tmp/err" ||
  fail "a version 3 chunk: exit $rc, $(cat "$tmp/err")"
# an event more than 2^63 ns after or before its recording's start (the
# earliest chunk's of the recording: a recording joined on with `cat` has
# its own, jfr_import.c same_recording): refused naming that event (the
# importer streams chunks, so the start is known only at the end); a chunk
# of one tick a second whose start is 10^10 ticks before or after its events
python3 - "$tmp" <<'EOF' || fail "far-chunk generator"
import struct, sys
sys.path.insert(0, "tests/support")
import gen_jfr
def far(d):
    a = bytearray(gen_jfr.chunk(True, 4, 0, 5000, True))
    a[48:56] = struct.pack(">q", 5000 - d)  # start_ticks
    a[56:64] = struct.pack(">q", 1)  # ticks per second
    return bytes(a)
b = gen_jfr.chunk(True, 4, 1700000000 * 10**9, 5000, True)
open(sys.argv[1] + "/far1.jfr", "wb").write(far(10**10))
open(sys.argv[1] + "/far2.jfr", "wb").write(b + far(-10**10))
EOF
for w in "far1.jfr: chunk 1, byte 68" "far2.jfr: chunk 2, byte 1852"; do
  f=${w%%:*}
  "$PCOL" pack "$tmp/$f" -o "$tmp/far.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "$w: event time out of range" "$tmp/err" ||
    fail "$f: an event past 2^63 ns from the start: exit $rc, $(cat "$tmp/err")"
done
# recordings joined: each makes sources, so at most 4,096 (a chunk that does
# not follow the one before begins one); past it refused, naming the chunk
python3 - "$tmp" <<'EOF' || fail "many-recordings generator"
import sys
sys.path.insert(0, "tests/support")
import gen_jfr
c = [gen_jfr.chunk(True, 1, 1700000000 * 10**9 + i * 10**9, 5000, True) for i in range(4097)]
open(sys.argv[1] + "/many.jfr", "wb").write(b"".join(c))
open(sys.argv[1] + "/many4096.jfr", "wb").write(b"".join(c[:4096]))
EOF
"$PCOL" pack "$tmp/many.jfr" -o "$tmp/many.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "many.jfr: chunk 4097, byte [0-9]*: more than 4096 recordings" "$tmp/err" ||
  fail "4,097 recordings joined: exit $rc, $(cat "$tmp/err")"
"$PCOL" top "$tmp/many4096.jfr" -n 1 2>/dev/null | grep -q '^Duration: 40.96s, Total samples = 4096 ' ||
  fail "4,096 recordings of 10 ms joined: not a Duration of 40.96s"
# each recording of a joined file keeps its own settings, periods and JVM
# information (review 11 F2: the caps counted the whole file): a recording
# of one period setting joined with one of 4,100 keeps its cpu, and 50
# copies of a recording of 40 settings each keep all its meta rows
$GEN "$tmp/one.jfr" --chunks 1 --exec-only --period '0:10 ms' || fail "gen_jfr.py one.jfr"
$GEN "$tmp/long.jfr" --chunks 4100 --exec-only --period '*:10 ms' || fail "gen_jfr.py long.jfr"
cat "$tmp/one.jfr" "$tmp/long.jfr" >"$tmp/ol.jfr"
"$PCOL" top "$tmp/one.jfr" --format tsv >"$tmp/want" || fail "pcol top one.jfr"
"$PCOL" top "$tmp/ol.jfr" --source 1 --format tsv >"$tmp/got" || fail "pcol top ol.jfr"
head -2 "$tmp/want" | grep -q 'nanoseconds$' && cmp -s "$tmp/want" "$tmp/got" ||
  fail "a recording joined with one of 4,100 period settings: $(diff "$tmp/want" "$tmp/got" | head -5)"
$GEN "$tmp/s40.jfr" --chunks 2 --exec-only --settings 40 --period '*:10 ms' || fail "gen_jfr.py s40.jfr"
for i in $(seq 50); do cat "$tmp/s40.jfr"; done >"$tmp/s50.jfr"
"$PCOL" cat "$tmp/s40.jfr" --table meta --format tsv >"$tmp/m1" || fail "pcol cat s40.jfr"
"$PCOL" cat "$tmp/s50.jfr" --table meta --format tsv >"$tmp/m50" || fail "pcol cat s50.jfr"
python3 - "$tmp/m1" "$tmp/m50" <<'EOF' || fail "50 recordings joined: not each with the single recording's meta rows"
import collections, sys
def rows(f):
    d = collections.defaultdict(list)
    for line in open(f).read().splitlines()[1:]:
        k, v, s = line.split("\t")
        d[s].append((k, v))
    return d
one, many = rows(sys.argv[1]), rows(sys.argv[2])
assert list(one) == ["1"] and len(one["1"]) > 40 and len(many) == 50, (list(one), len(many))
bad = [s for s in many if many[s] != one["1"]]
assert not bad, (bad[:3], sorted(set(many[bad[0]]) ^ set(one["1"]))[:4])
EOF
"$PCOL" top "$tmp/s40.jfr" --format tsv >"$tmp/want" || fail "pcol top s40.jfr"
for n in 1 50; do
  "$PCOL" top "$tmp/s50.jfr" --source $n --format tsv >"$tmp/got" || fail "pcol top s50.jfr --source $n"
  cmp -s "$tmp/want" "$tmp/got" || fail "50 recordings joined: source $n's top: $(diff "$tmp/want" "$tmp/got" | head -5)"
done
# 200,000 settings: linear, the rest counted
$GEN "$tmp/set.jfr" --samples 3 --settings 200000 || fail "gen_jfr.py --settings"
(ulimit -t 20; "$PCOL" cat "$tmp/set.jfr" --table meta >"$tmp/meta") || fail "200,000 settings: not read within 20 s of CPU"
grep -q "of the recording past the first 1024 (262144 in the file) not kept: 198978" "$tmp/meta" || fail "200,000 settings: no note of those not kept"
# a source with two notes (those settings, a truncated stack trace): pcol
# info shows every pcol.note row of the source in file order, not the first
awk -F'\t' '$1 == "pcol.note" && $3 == "1" { print $2 }' "$tmp/meta" >"$tmp/notes"
want=$(paste -sd';' "$tmp/notes" | sed 's/;/; /g')
[ "$(wc -l <"$tmp/notes")" -ge 2 ] || fail "set.jfr's first source has fewer than two notes: $(cat "$tmp/notes")"
"$PCOL" info "$tmp/set.jfr" | sed -n 's/^  note: *//p' | head -1 >"$tmp/info-note"
[ "$(cat "$tmp/info-note")" = "$want" ] || fail "pcol info's note is '$(cat "$tmp/info-note")', the meta rows '$want'"
# 30,000 events of a 1,000-frame stack trace: each event's trace is read
# once, not once per event (that ran out of the work budget: ETOOBIG)
$GEN "$tmp/deep.jfr" --samples 30000 --deep 1000 --exec-only || fail "gen_jfr.py --deep"
"$PCOL" pack "$tmp/deep.jfr" -o "$tmp/deep.pcol" 2>"$tmp/err" || fail "a deep stack in every event: $(cat "$tmp/err")"
# --- the execution samples' period (jdk.ActiveSetting "period" of
# jdk.ExecutionSample, doc/mappings.md §16): 3 chunks of 10 samples each
# (at 1..10 us after each chunk's start).  A period in force over every
# sample gives each its cpu/nanoseconds (the default) and, one period for
# all, the source's period (cpu, nanoseconds): top's total is samples x
# period; a period changed (per chunk, or mid-chunk) gives each sample the
# one in force at its time, and no source period; a value that is no
# sampler's period in whole ms (hostile, or one the JVM rounds) gives no
# CPU time (samples counted, the default) and a note, never a number.
pinfo() { # period, its type and unit, the default type, then the notes
  "$PCOL" info "$1" --format json | python3 -c '
import json, sys
s = json.load(sys.stdin)["rows"][0]
print(s["period"], s["period_type"], s["period_unit"], s["default_type"], end=" ")' &&
    "$PCOL" cat "$1" --table meta | awk -F'\t' '$1 == "pcol.note" { printf "%s; ", $2 } END { print "" }'; }
cputotal() { "$PCOL" top "$1" --value cpu --format json 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])' 2>/dev/null; }
per() { # name expected-total expected-period note-regex --period ...
  local n=$1 want=$2 wp=$3 wn=$4
  shift 4
  $GEN "$tmp/p-$n.jfr" --chunks 3 --exec-only --samples 10 "$@" || fail "gen_jfr.py $*"
  local i
  i=$(pinfo "$tmp/p-$n.jfr") || fail "period $n: pcol info"
  if [ "$want" = none ]; then
    case "$i" in "None None None samples "*) ;; *) fail "period $n ($*): a period or a cpu default: $i" ;; esac
    "$PCOL" cat "$tmp/p-$n.jfr" --table value_types | grep -q cpu && fail "period $n ($*): a cpu value type"
  else
    [ "$(cputotal "$tmp/p-$n.jfr")" = "$want" ] || fail "period $n ($*): cpu total $(cputotal "$tmp/p-$n.jfr"), not $want"
    case "$i" in "$wp cpu "*) ;; *) fail "period $n ($*): info's period and default: $i, not $wp" ;; esac
  fi
  printf '%s\n' "$i" | grep -Eq -- "$wn" || fail "period $n ($*): note: $i"
}
per each 600000000 "20000000 cpu nanoseconds" '^[^ ]+ [^ ]+ [^ ]+ [^ ]+ stack' --period '*:20 ms'
per once 300000000 "10000000 cpu nanoseconds" '^[^ ]+ [^ ]+ [^ ]+ [^ ]+ stack' --period '0:10 ms'
per plus 3000000000 "100000000 cpu nanoseconds" . --period '0: +100 ms'
per sec 30000000000 "1000000000 cpu nanoseconds" . --period '0:1 s'
per min 1800000000000 "60000000000 cpu nanoseconds" . --period '0:1 m'
# 10 samples at 20 ms; 5 at 20, 5 at 10 ms (the setting at 5.5 us); 10 at 10 ms
per changed 450000000 'None None None' 'changed during the recording \(20 ms, 10 ms\)' --period '0:20 ms' --period '1:10 ms@5500'
# a bad value before the samples, replaced before the first: not in force
per replaced 600000000 "20000000 cpu nanoseconds" . --period '0:garbage' --period '0:20 ms@500'
per none none x 'no period setting of jdk.ExecutionSample'
# one value in every chunk: name | value | the note (a regex)
while IFS='|' read -r name val note; do
  per "$name" none x "$note" --period "*:$val"
done <<'CASES'
zero|0 ms|"0 ms": 0, the sampler off
neg|-20 ms|"-20 ms": negative
over|9223372036854775807 ms|past 2\^63 ns
huge|99999999999999999999999 ns|past 2\^63 ns
subms|1500 us|"1500 us": not a whole number of milliseconds
tiny|999999 ns|"999999 ns": not a whole
chunk|everyChunk|"everyChunk": a chunk period
inf|infinity|"infinity": infinity
junk|20 msec|"20 msec": not a timespan
nounit|20|"20": not a timespan
trail|20 ms |"20 ms ": not a timespan
empty||"": not a timespan
sign|- ms|"- ms": not a timespan
CASES
per zerolater none x '"0 ms": 0, the sampler off' --period '0:20 ms' --period '2:0 ms'
per ctl none x '"2\?0 ms": not a timespan' --period "*:2"$'\x01'"0 ms"
# --- JDK 25's CPU-time sampler (jdk.CPUTimeSample, gen_jfr.py --cputime:
# each of the 40 execution samples, at 20 ms, is also a CPU-time sample of
# samplingPeriod 3 ms): two measures of the same CPU time, never added.
# --value cpu is the execution samples' (40 x 20 ms), --value cpu-time the
# CPU-time samples' (40 x 3 ms), and the default is cpu (JMC's Method
# Profiling, async-profiler's converter, `jfr view hot-methods`), with the
# CPU-time samples counting 0 as the recording states (no note: below).
$GEN "$tmp/ct.jfr" --chunks 2 --samples 30 --cputime --period '*:20 ms' || fail "gen_jfr.py --cputime"
ctop() { # value (none: the default) -> type unit total
  "$PCOL" top "$tmp/ct.jfr" ${1:+--value "$1"} --format json -n 1 2>"$tmp/ct.err" | python3 -c '
import json, sys
t = json.load(sys.stdin)
print(t["type"], t["unit"], t["total"])'
}
[ "$(ctop cpu)" = "cpu nanoseconds 800000000" ] || fail "--value cpu beside jdk.CPUTimeSample: $(ctop cpu), not the execution samples' 40 x 20 ms"
[ "$(ctop cpu-time)" = "cpu-time nanoseconds 120000000" ] || fail "--value cpu-time: $(ctop cpu-time), not the CPU-time samples' 40 x 3 ms"
[ "$(ctop '')" = "cpu nanoseconds 800000000" ] || fail "the default beside jdk.CPUTimeSample: $(ctop ''), not cpu"
# (gen_jfr.py's truncated stack trace has its own warning, checked below)
! grep -v 'have stacks the recorder truncated' "$tmp/ct.err" ||
  fail "the default beside jdk.CPUTimeSample: a note: $(cat "$tmp/ct.err")"
# the CPU-time samples alone: their own default, cpu-time
"$PCOL" info "$tmp/ct.jfr" | grep -q "values: *samples/count, cpu-time/nanoseconds (default: cpu-time/nanoseconds)" ||
  fail "the jdk.CPUTimeSample source's values: $("$PCOL" info "$tmp/ct.jfr" 2>&1 | grep values)"
# --- the note on the stated default (THE rule of the note, lib/query/value.c
# note_tells): the sources of a recording that lack its stated default
# (allocation samples, JDK 25's CPU-time samples beside the execution
# samples' cpu) count 0 as the recording means, so no view notes it (a
# note on every `pcol top` of a recording taught users to skip standard
# error): top, diff, report, the recording read back from the exports
# that keep its parts, two recordings merged.  The exports that write the
# default alone (rprof, collapsed, perun) leave the other parts out of
# their output, and say so, in --value cpu's words (review 16 F6;
# tests/cli/t_written_value.sh).  A source
# lacking it that is no part of a recording having it is news: the
# allocation samples exported alone and merged with the recording (or
# given beside it) get the note, counting both sources without cpu.
$GEN "$tmp/p.jfr" --chunks 2 --samples 30 --period '*:20 ms' || fail "gen_jfr.py --period"
quiet() { # what command... : nothing on standard error
  local w=$1; shift
  "$@" >/dev/null 2>"$tmp/q.err" || fail "$w: exit $?: $(cat "$tmp/q.err")"
  # (but gen_jfr.py's truncated stack trace's warning, checked below)
  ! grep -v 'have stacks the recorder truncated' "$tmp/q.err" ||
    fail "$w: a note on a recording's own default: $(cat "$tmp/q.err")"
}
"$PCOL" merge "$tmp/p.jfr" "$tmp/ct.jfr" -o "$tmp/pct.pcol" || fail "pcol merge p.jfr ct.jfr"
for t in speedscope otlp firefox; do
  "$PCOL" unpack "$tmp/p.jfr" --to $t -o "$tmp/p.$t" || fail "unpack p.jfr --to $t"
  quiet "top p.jfr as $t read back" "$PCOL" top "$tmp/p.$t"
done
quiet "top p.jfr" "$PCOL" top "$tmp/p.jfr"
quiet "top ct.jfr" "$PCOL" top "$tmp/ct.jfr"
quiet "top p.jfr ct.jfr" "$PCOL" top "$tmp/p.jfr" "$tmp/ct.jfr"
quiet "top of two recordings merged" "$PCOL" top "$tmp/pct.pcol"
quiet "diff p.jfr ct.jfr" "$PCOL" diff "$tmp/p.jfr" "$tmp/ct.jfr"
quiet "report p.jfr" "$PCOL" report "$tmp/p.jfr" -o "$tmp/p.html"
! grep -q '"value_note":' "$tmp/p.html" || fail "report p.jfr: a value_note"
for t in rprof collapsed perun; do
  "$PCOL" unpack "$tmp/p.jfr" --to $t -o "$tmp/p.$t" 2>"$tmp/q.err" || fail "unpack p.jfr --to $t"
  # (and the mark of its truncated stacks lost: t_truncated_exports.sh)
  grep -q "p.jfr: 20 samples have stacks .*the $t format has no place to mark" "$tmp/q.err" ||
    fail "unpack p.jfr --to $t: the mark of truncated stacks lost unsaid: $(cat "$tmp/q.err")"
  [ "$(grep -v ' note: ' "$tmp/q.err" | grep -vc 'format has no place to mark')" = 1 ] &&
    grep -q "warning: .*: source 2 (jfr .*jdk.ObjectAllocationSample) has no value cpu/nanoseconds; its samples count 0$" "$tmp/q.err" ||
    fail "unpack p.jfr --to $t: not the warning of the allocation samples left out: $(cat "$tmp/q.err")"
done
"$PCOL" info "$tmp/p.jfr" | grep -q "^default value:   cpu/nanoseconds, the sources' own stated default (pcol.default_value); the parts of its recordings without it count 0$" ||
  fail "info p.jfr: $("$PCOL" info "$tmp/p.jfr" | grep default)"
"$PCOL" unpack "$tmp/p.jfr" --source 2 --to speedscope -o "$tmp/alloc.json" || fail "unpack p.jfr --source 2"
"$PCOL" merge "$tmp/p.jfr" "$tmp/alloc.json" -o "$tmp/pa.pcol" || fail "pcol merge p.jfr alloc.json"
note='note: .*the default is cpu/nanoseconds, the sources.* own stated default (pcol.default_value); 2 of 3 sources lack it: their samples count 0; other values: samples/count, allocation_weight/bytes (name one with --value TYPE)$'
for w in "top:$tmp/pa.pcol" "top:$tmp/p.jfr $tmp/alloc.json" "report:$tmp/pa.pcol" "diff:$tmp/p.jfr $tmp/pa.pcol"; do
  # shellcheck disable=SC2086
  "$PCOL" ${w%%:*} ${w#*:} $([ "${w%%:*}" = report ] && echo "-o $tmp/pa.html") >/dev/null 2>"$tmp/pa.err" || fail "pcol $w"
  sed -i '/have stacks the recorder truncated/d' "$tmp/pa.err" # (its own, checked below)
  [ "$(wc -l <"$tmp/pa.err")" = 1 ] && grep -q "$note" "$tmp/pa.err" ||
    fail "pcol $w: a lone allocation source beside the recording: not the note: $(cat "$tmp/pa.err")"
done
grep -q '"value_note":"the default is cpu/nanoseconds' "$tmp/pa.html" || fail "report of pa.pcol: no value_note"
"$PCOL" info "$tmp/pa.pcol" | grep -q "^default value:   cpu/nanoseconds, .* 2 of 3 sources lack it" ||
  fail "info pa.pcol: $("$PCOL" info "$tmp/pa.pcol" | grep default)"
# A recording beside another profile (review 16 F4): its sources count as
# the recording alone counts them, its stated default (pcol.default_value:
# cpu, the allocation samples counting 0), so with a Go CPU profile the
# union adds up CPU time (8.73 s + the recording's 200 ms), as go tool pprof
# of the two CPU profiles would; before, "samples" added the allocation
# samples to the CPU samples.  A real mix (with a heap profile) stays
# "samples", warned.  The merged file answers the same.
TD=${PCOL_TESTDATA:-../shared/testdata}
L=$TD/pprof/go-cpu-string-labels.pb.gz H=$TD/pprof/go-heap-allocs-inline.pb.gz
if [ -f "$L" ] && [ -f "$H" ]; then
  $GEN "$tmp/cpu.jfr" --chunks 1 --samples 30 --period '*:10 ms' || fail "gen_jfr.py cpu.jfr"
  "$PCOL" top "$tmp/cpu.jfr" -n 1 2>&1 | grep -q '^Duration: 10ms, Total samples = 200ms' ||
    fail "cpu.jfr alone: $("$PCOL" top "$tmp/cpu.jfr" -n 1 2>&1 | head -4)"
  "$PCOL" merge "$tmp/cpu.jfr" "$L" -o "$tmp/jg.pcol" || fail "merge cpu.jfr and a Go CPU profile"
  for in in "$tmp/cpu.jfr $L" "$tmp/jg.pcol"; do
    # shellcheck disable=SC2086
    "$PCOL" top $in -n 1 >"$tmp/jg.out" 2>"$tmp/jg.err" || fail "top $in"
    grep -q '^Type: cpu$' "$tmp/jg.out" && grep -q 'Total samples = 8.93s' "$tmp/jg.out" ||
      fail "a recording and a Go CPU profile ($in): $(head -4 "$tmp/jg.out") $(cat "$tmp/jg.err")"
    sed -i "/have stacks the recorder truncated/d" "$tmp/jg.err" # (its own, checked below)
    [ -s "$tmp/jg.err" ] && fail "a recording and a Go CPU profile ($in) warn: $(cat "$tmp/jg.err")"
  done
  # the same number as the CPU value named: nothing but CPU time added
  "$PCOL" top "$tmp/cpu.jfr" "$L" --value cpu -n 1 2>/dev/null | grep -q 'Total samples = 8.93s' ||
    fail "--value cpu of a recording and a Go CPU profile"
  "$PCOL" top "$tmp/cpu.jfr" "$H" -n 1 >"$tmp/jh.out" 2>"$tmp/jh.err" || fail "top cpu.jfr heap"
  grep -q '^Type: samples$' "$tmp/jh.out" && grep -q "the sources measure different values" "$tmp/jh.err" ||
    fail "a recording and a heap profile: not samples, warned: $(head -3 "$tmp/jh.out") $(cat "$tmp/jh.err")"
else
  echo "t_jfr: no $L or $H (the shared test data): a recording beside a Go profile not tested"
fi
# stack traces the recorder truncated (gen_jfr.py's stack trace 2, in 5 of
# 20 execution samples): the views that print numbers warn that the callers
# above the cut count less, as `pcol info` notes (review 18 F11: only info
# said it; top, tree and --focus on the lost callers were silent)
$GEN "$tmp/tr.jfr" --samples 20 --exec-only || fail "gen_jfr.py --samples 20 --exec-only"
"$PCOL" info "$tmp/tr.jfr" | grep -q 'stack traces truncated by the recorder: 5 samples' ||
  fail "truncated stacks: no note in pcol info"
for v in top tree "peek Main" "top --focus nothing"; do
  # shellcheck disable=SC2086
  "$PCOL" ${v%% *} "$tmp/tr.jfr" $([ "$v" = "${v#* }" ] || echo "${v#* }") >/dev/null 2>"$tmp/err" ||
    fail "pcol $v of truncated stacks: $(cat "$tmp/err")"
  grep -q 'warning: .*tr.jfr: 5 samples have stacks the recorder truncated at its stack depth' "$tmp/err" ||
    fail "pcol $v of truncated stacks: no warning: $(cat "$tmp/err")"
done
# ... of the samples the view counts (review 19b F6: the sources without
# the view's value were counted): gen_jfr.py's cut stack trace is in 3
# execution and 3 allocation samples; allocation_weight is the allocation
# source's alone.  Its cut stack is not the deepest (a real recorder's is:
# stackdepth frames), so which samples a range holds is not known: "up to".
$GEN "$tmp/tr2.jfr" --samples 20 || fail "gen_jfr.py --samples 20"
"$PCOL" top "$tmp/tr2.jfr" --value allocation_weight >/dev/null 2>"$tmp/err" || fail "top tr2.jfr: $(cat "$tmp/err")"
grep -q 'warning: .*tr2.jfr: 3 samples have stacks the recorder truncated' "$tmp/err" ||
  fail "truncated stacks of the allocation samples alone: $(cat "$tmp/err")"
"$PCOL" top "$tmp/tr2.jfr" --value samples >/dev/null 2>"$tmp/err" || fail "top tr2.jfr: $(cat "$tmp/err")"
grep -q 'warning: .*tr2.jfr: 6 samples of 2 sources have stacks the recorder truncated' "$tmp/err" ||
  fail "truncated stacks of both sources: $(cat "$tmp/err")"
"$PCOL" top "$tmp/tr2.jfr" --value samples --from 0.000010 >/dev/null 2>"$tmp/err" || fail "top tr2.jfr --from: $(cat "$tmp/err")"
grep -q 'warning: .*tr2.jfr: up to 5 samples of 2 sources have stacks the recorder truncated' "$tmp/err" ||
  fail "truncated stacks of a part of the samples: $(cat "$tmp/err")"
# a recorder's cut stacks are its stackdepth deep, the deepest (--cut-depth
# 8): those the view holds are counted exactly, as many as pcol fold of
# that view prints 8-frame stacks: from 10 us on 3 of 2 sources, to 7 us 1
$GEN "$tmp/tr3.jfr" --samples 20 --cut-depth 8 || fail "gen_jfr.py --cut-depth 8"
for r in "--from 0.000010|3| of 2 sources" "--to 0.000007|1|" "--from 0|6| of 2 sources"; do
  range=${r%%|*} want=${r#*|}
  n=${want%%|*} srcs=${want#*|}
  # shellcheck disable=SC2086
  "$PCOL" top "$tmp/tr3.jfr" --value samples $range >/dev/null 2>"$tmp/err" || fail "top tr3.jfr $range: $(cat "$tmp/err")"
  # shellcheck disable=SC2086
  cut=$("$PCOL" fold "$tmp/tr3.jfr" --value samples $range 2>/dev/null |
    awk '{ if (split($1, f, ";") >= 8) c += $NF } END { print c + 0 }')
  [ "$cut" = "$n" ] && grep -q "warning: .*tr3.jfr: $n samples$srcs have stacks the recorder truncated" "$tmp/err" ||
    fail "truncated stacks of $range: fold has $cut, want $n: $(cat "$tmp/err")"
done
# the depth named: the cut stacks' when they are the deepest (read off the
# data, so a copy says it too: review h6 MED-2), "where known" when a
# source's is not known (tr2's cut stack is the deepest of its allocation
# source, 2 frames, not of its execution source, and gen_jfr.py writes no
# FlightRecorderOptions flag)
grep -qF "(JFR's stackdepth, 8 frames)" "$tmp/err" || fail "tr3.jfr: the depth not named 8 frames: $(cat "$tmp/err")"
"$PCOL" unpack "$tmp/tr3.jfr" --to speedscope -o "$tmp/tr3.speedscope.json" 2>/dev/null || fail "unpack tr3.jfr"
"$PCOL" top "$tmp/tr3.speedscope.json" >/dev/null 2>"$tmp/err" || fail "top of tr3's copy"
grep -qF "(JFR's stackdepth, 8 frames)" "$tmp/err" || fail "tr3.jfr's copy: the depth not named 8 frames: $(cat "$tmp/err")"
"$PCOL" top "$tmp/tr2.jfr" --value samples >/dev/null 2>"$tmp/err" || fail "top tr2.jfr: $(cat "$tmp/err")"
grep -qF "(JFR's stackdepth, 2 frames where known)" "$tmp/err" || fail "tr2.jfr: not its one known depth: $(cat "$tmp/err")"
# lock and park events (review 21 F2: dropped without a word, a lock-only
# recording read as an empty profile): jdk.JavaMonitorEnter and
# jdk.ThreadPark are sources of their own, each event one contention
# (contentions/count) and its duration the delay (delay/nanoseconds, the
# default), as Pyroscope's converter names them; gen_jfr.py --locks 6 over
# 2 chunks writes 12 monitor events of 1000 x (i + 1) ns (i = 0..5) and 6
# park events of 500 x (i + 1) ns (i = 0..2): 42000 and 6000 ns
$GEN "$tmp/lk.jfr" --samples 0 --locks 6 --waits 3 --chunks 2 || fail "gen_jfr.py --locks"
want_mon=$(awk 'BEGIN { for (c = 0; c < 2; c++) for (i = 0; i < 6; i++) s += 1000 * (i + 1); print s }')
want_park=$(awk 'BEGIN { for (c = 0; c < 2; c++) for (i = 0; i < 3; i++) s += 500 * (i + 1); print s }')
tot() { awk -F'\t' 'NR > 1 { s += $1 } END { print s + 0 }'; }
for w in "1 delay $want_mon" "1 contentions 12" "2 delay $want_park" "2 contentions 6"; do
  set -- $w
  got=$("$PCOL" top "$tmp/lk.jfr" --source "$1" --value "$2" --format tsv 2>/dev/null | tot)
  [ "$got" = "$3" ] || fail "lk.jfr source $1 --value $2: $got, want $3"
done
[ "$("$PCOL" top "$tmp/lk.jfr" --format tsv 2>/dev/null | tot)" = $((want_mon + want_park)) ] ||
  fail "lk.jfr's default is not the delay of both sources"
"$PCOL" info "$tmp/lk.jfr" >"$tmp/lk.info" 2>&1 || fail "pcol info lk.jfr"
grep -q 'source 1: *jfr .*lk.jfr: jdk.JavaMonitorEnter' "$tmp/lk.info" &&
  grep -q 'source 2: *jfr .*lk.jfr: jdk.ThreadPark' "$tmp/lk.info" &&
  grep -q 'values: *samples/count, contentions/count, delay/nanoseconds (default: delay/nanoseconds)' "$tmp/lk.info" ||
  fail "lk.jfr: not a monitor and a park source: $(cat "$tmp/lk.info")"
# what is not read is said: the 6 jdk.JavaMonitorWait events in a note,
# and, when nothing else is read, in a warning of every view
grep -q 'note: *events with a stack trace of types pcol does not read .*jdk.JavaMonitorWait 6' "$tmp/lk.info" ||
  fail "lk.jfr: no note of the monitor-wait events not read: $(cat "$tmp/lk.info")"
"$PCOL" cat "$tmp/lk.jfr" --table sample_labels --format tsv | grep -q "monitor_class.*pkg.Work" ||
  fail "lk.jfr: no monitor_class label pkg.Work"
$GEN "$tmp/wt.jfr" --samples 0 --waits 3 || fail "gen_jfr.py --waits"
"$PCOL" top "$tmp/wt.jfr" >/dev/null 2>"$tmp/err" || fail "top wt.jfr: $(cat "$tmp/err")"
grep -q 'warning: .*wt.jfr: no samples: its 3 events with a stack trace are of types pcol does not read (jdk.JavaMonitorWait 3)' "$tmp/err" ||
  fail "a recording of events pcol does not read: no warning: $(cat "$tmp/err")"
# --value samples of a recording's parts that count different things
# (review 21 F3: execution and allocation samples added up, 298 where jfr
# counts 80 execution samples) is warned; of one part it is its count
"$PCOL" top "$tmp/a.jfr" --value samples >/dev/null 2>"$tmp/err" || fail "top a.jfr --value samples"
grep -q 'warning: .*a.jfr: the sources measure different values, so --value samples adds up counts of different things' "$tmp/err" ||
  fail "--value samples of a recording's execution and allocation samples: no warning: $(cat "$tmp/err")"
"$PCOL" top "$tmp/a.jfr" --source 1 --value samples >/dev/null 2>"$tmp/err" || fail "top a.jfr --source 1"
! grep -q 'different things' "$tmp/err" || fail "--value samples of the execution samples alone warns: $(cat "$tmp/err")"
# the recording's own parts get no note on an export or a --value of one
# part's type (review 21 F6: every `unpack --to pprof` of a JFR file warned
# 2-4 times, doc/cli.md says they get none); a part selected alone still does
"$PCOL" unpack "$tmp/a.jfr" --to pprof -o "$tmp/a.pb.gz" 2>"$tmp/err" || fail "unpack a.jfr --to pprof"
! grep -q 'has no value' "$tmp/err" || fail "unpack a.jfr --to pprof warns about the recording's parts: $(cat "$tmp/err")"
"$PCOL" top "$tmp/a.jfr" --value allocation_weight >/dev/null 2>"$tmp/err" || fail "top a.jfr --value allocation_weight"
! grep -q 'has no value' "$tmp/err" || fail "--value allocation_weight warns about the recording's parts: $(cat "$tmp/err")"
"$PCOL" top "$tmp/a.jfr" --source 1 --value allocation_weight >/dev/null 2>"$tmp/err" || fail "top --source 1"
grep -q 'source 1 .* has no value allocation_weight/bytes' "$tmp/err" ||
  fail "--source 1 --value allocation_weight: no warning: $(cat "$tmp/err")"
# a recording NONE of whose parts has a column (lk.jfr: monitor and park
# events, no cpu) merged with a CPU profile: the pprof export warns of
# each part, as `top --value cpu` does (rd16a F1: a part that lacks it
# too was taken to cover its sibling, and the export said nothing)
python3 tests/support/pprofgen.py typed "$tmp/cpu.pb" samples:count,cpu:nanoseconds 2,1:1,10000000 3,1:2,20000000 ||
  fail "pprofgen.py typed cpu.pb"
"$PCOL" unpack "$tmp/lk.jfr" "$tmp/cpu.pb" --to pprof -o "$tmp/lkc.pb.gz" 2>"$tmp/err" || fail "unpack lk.jfr cpu.pb --to pprof"
"$PCOL" top "$tmp/lk.jfr" "$tmp/cpu.pb" --value cpu >/dev/null 2>"$tmp/err2" || fail "top lk.jfr cpu.pb --value cpu"
for s in "1 (jfr .*jdk.JavaMonitorEnter)" "2 (jfr .*jdk.ThreadPark)"; do
  grep -q "warning: .*source $s has no value cpu/nanoseconds; its samples count 0 there in the output" "$tmp/err" ||
    fail "unpack lk.jfr cpu.pb --to pprof: no warning that source ${s%% *} lacks cpu: $(cat "$tmp/err")"
  grep -q "warning: .*source $s has no value cpu/nanoseconds; its samples count 0$" "$tmp/err2" ||
    fail "top lk.jfr cpu.pb --value cpu: no warning that source ${s%% *} lacks cpu: $(cat "$tmp/err2")"
done
# async-profiler's settings (review 21 F4): its "interval" of
# jdk.ExecutionSample with its "event" (jdk.ActiveRecording's) gives each
# sample its time: cpu (0: its default, 10 ms, said in a note), wall
# (event=wall: the wall value), none for a counter's event; the "wall"
# interval gives profiler.WallClockSample's samples theirs
$GEN "$tmp/ap1.jfr" --samples 9 --exec-only --ap cpu:0 || fail "gen_jfr.py --ap cpu:0"
$GEN "$tmp/ap2.jfr" --samples 9 --exec-only --ap wall:20000000 || fail "gen_jfr.py --ap wall"
$GEN "$tmp/ap3.jfr" --samples 9 --exec-only --ap cycles:1000000 || fail "gen_jfr.py --ap cycles"
n=$("$PCOL" top "$tmp/ap1.jfr" --value samples --format tsv | tot)
[ "$n" = 9 ] || fail "ap1.jfr: $n samples, want 9"
for w in "ap1 cpu 10ms $((n * 10000000))" "ap2 wall 20ms $((n * 20000000))"; do
  set -- $w
  "$PCOL" info "$tmp/$1.jfr" >"$tmp/ap.info" 2>&1 || fail "info $1.jfr"
  grep -q "period: *$3 ($2)" "$tmp/ap.info" && grep -q "default: $2/nanoseconds" "$tmp/ap.info" ||
    fail "$1.jfr: not a $3 $2 period: $(cat "$tmp/ap.info")"
  got=$("$PCOL" top "$tmp/$1.jfr" --value "$2" --format tsv | tot)
  [ "$got" = "$4" ] || fail "$1.jfr --value $2: $got, want $4"
done
# async-profiler 3's event=cpu,wall=50ms: the wall-clock samples (3
# events of 1, 2 and 3 samples) have 6 x 50 ms of wall time
$GEN "$tmp/ap4.jfr" --samples 9 --exec-only --ap cpu:0:50000000 || fail "gen_jfr.py --ap cpu:0:50000000"
ws=$("$PCOL" cat "$tmp/ap4.jfr" --table sources --format tsv | awk -F'\t' '/profiler.WallClockSample/ { print $1 }')
got=$("$PCOL" top "$tmp/ap4.jfr" --source "${ws:-0}" --value wall --format tsv 2>/dev/null | tot)
[ "$got" = 300000000 ] || fail "ap4.jfr: the wall-clock samples' wall $got, want 300000000"
# async-profiler 4's event=wall writes its samples as profiler.WallClockSample:
# their interval is the "interval" (its "wall" setting 0): 6 x 20 ms
$GEN "$tmp/ap5.jfr" --samples 0 --ap wall:20000000:0 || fail "gen_jfr.py --ap wall:20000000:0"
got=$("$PCOL" top "$tmp/ap5.jfr" --value wall --format tsv 2>/dev/null | tot)
[ "$got" = 120000000 ] || fail "ap5.jfr: the wall-clock samples' wall $got, want 120000000"
grep -q "note: *async-profiler's interval of jdk.ExecutionSample is 0, its default for its event \"cpu\": 10 ms" \
  <("$PCOL" info "$tmp/ap1.jfr") || fail "ap1.jfr: no note of async-profiler's default interval"
# event=wall with interval 0 (and event=cpu,wall with no interval, its
# "wall" setting 0): async-profiler's wall-clock default, 50 ms
# (wallClock.cpp DEFAULT_INTERVAL * 5 in every version that writes its
# settings), not no time at all: 9 x 50 ms, and the wall-clock samples'
# events (1 + 2 + 3 samples) 6 x 50 ms
$GEN "$tmp/ap6.jfr" --samples 9 --exec-only --ap wall:0 || fail "gen_jfr.py --ap wall:0"
"$PCOL" info "$tmp/ap6.jfr" >"$tmp/ap.info" 2>&1 || fail "info ap6.jfr"
grep -q "period: *50ms (wall)" "$tmp/ap.info" && grep -q "default: wall/nanoseconds" "$tmp/ap.info" &&
  grep -q "note: *async-profiler's interval of jdk.ExecutionSample is 0, its default for its event \"wall\": 50 ms" "$tmp/ap.info" ||
  fail "ap6.jfr (event wall, interval 0): not a 50ms wall period: $(cat "$tmp/ap.info")"
got=$("$PCOL" top "$tmp/ap6.jfr" --value wall --format tsv 2>/dev/null | tot)
[ "$got" = 450000000 ] || fail "ap6.jfr --value wall: $got, want 450000000"
$GEN "$tmp/ap7.jfr" --samples 9 --exec-only --ap cpu:0:0 || fail "gen_jfr.py --ap cpu:0:0"
ws=$("$PCOL" cat "$tmp/ap7.jfr" --table sources --format tsv | awk -F'\t' '/profiler.WallClockSample/ { print $1 }')
got=$("$PCOL" top "$tmp/ap7.jfr" --source "${ws:-0}" --value wall --format tsv 2>/dev/null | tot)
[ "$got" = 300000000 ] || fail "ap7.jfr (event cpu, wall 0): the wall-clock samples' wall $got, want 300000000"
grep -q "note: *async-profiler's wall interval setting is 0, its default: 50 ms" <("$PCOL" info "$tmp/ap7.jfr") ||
  fail "ap7.jfr: no note of the wall-clock default"
# async-profiler 4's event=wall, interval 0: only wall-clock samples, no
# "wall" setting (grafana/jfr-parser's wall_tick_sample.jfr): the same
# default, 6 x 50 ms, and said so (was: silently)
$GEN "$tmp/ap8.jfr" --samples 0 --ap wall:0:- || fail "gen_jfr.py --ap wall:0:-"
got=$("$PCOL" top "$tmp/ap8.jfr" --value wall --format tsv 2>/dev/null | tot)
[ "$got" = 300000000 ] || fail "ap8.jfr (event wall, interval 0): the wall-clock samples' wall $got, want 300000000"
grep -q "note: *async-profiler's interval setting is 0 (event wall), its default: 50 ms" <("$PCOL" info "$tmp/ap8.jfr") ||
  fail "ap8.jfr: no note of the wall-clock default: $("$PCOL" info "$tmp/ap8.jfr" 2>&1 | grep note)"
"$PCOL" info "$tmp/ap3.jfr" >"$tmp/ap.info" 2>&1 || fail "info ap3.jfr"
grep -q 'values: *samples/count (default' "$tmp/ap.info" &&
  grep -q "note: *async-profiler's interval of jdk.ExecutionSample \"1000000\" (its event \"cycles\"): a count of its event's occurrences, not a time; no time, samples counted" "$tmp/ap.info" ||
  fail "ap3.jfr (event cycles): $(cat "$tmp/ap.info")"
echo "t_jfr: ok"
