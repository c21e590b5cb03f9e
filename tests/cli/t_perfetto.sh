#!/usr/bin/env bash
# Perfetto protobuf traces in (doc/mappings.md §17): the fixtures of
# tests/fixtures/perfetto/ (pcol's own text protos, in the structures of
# Perfetto's trace_processor diff tests: test/trace_processor/diff_tests/
# parser/profiling/tests.py test_stack_sample*, test_perf_sample_*,
# test_cpu_profiling_samples_*, and the StreamingProfilePacket timestamps of
# its proto_trace_parser unit test) are encoded with `protoc
# --encode=perfetto.protos.Trace` against format/perfetto/perfetto_trace.proto
# and read; pcol's answers must equal what trace_processor's queries give for
# the same structure (counts, weights, leaf names, times, threads), written
# out below per fixture.  Then hostile copies: exit 1 naming the file,
# "Perfetto" and the packet.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_perfetto: $*" >&2; exit 1; }
command -v protoc >/dev/null || { echo "t_perfetto: protoc not installed: skipped"; exit 0; }
command -v python3 >/dev/null || { echo "t_perfetto: python3 not installed: skipped"; exit 0; }
FX=tests/fixtures/perfetto
prot_enc() { protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto; }
for f in stack_sample perf_sample streaming; do
  protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto < $FX/$f.textproto > "$tmp/$f.pftrace" ||
    fail "$f: protoc --encode failed"
  $PCOL info "$tmp/$f.pftrace" | grep -q 'input_format: *perfetto' || fail "$f: not detected as perfetto"
  for v in samples wall-time instructions alloc page-faults; do
    $PCOL top "$tmp/$f.pftrace" --node-fraction 0 --value $v --format json > "$tmp/$f.$v" 2>/dev/null || echo '{}' > "$tmp/$f.$v"
  done
  $PCOL tags "$tmp/$f.pftrace" --value samples --format json > "$tmp/$f.tags" || fail "$f: tags"
  $PCOL info "$tmp/$f.pftrace" --format json > "$tmp/$f.info" || fail "$f: info"
  $PCOL cat "$tmp/$f.pftrace" --table samples --format json > "$tmp/$f.samples" || fail "$f: cat samples"
  $PCOL cat "$tmp/$f.pftrace" --table meta > "$tmp/$f.meta" || fail "$f: cat meta"
  $PCOL fold "$tmp/$f.pftrace" --value samples > "$tmp/$f.fold" || fail "$f: fold"
done
python3 - "$tmp" <<'PY' || fail "pcol's answers differ from trace_processor's"
import json, sys
d = sys.argv[1]
bad = []
def load(f, k):
    return json.load(open("%s/%s.%s" % (d, f, k)))
def tags(f, key):
    return {r["value"]: r["amount"] for r in load(f, "tags")["rows"] if r["key"] == key}
def flat(f, v):
    return {r["name"]: r["flat"] for r in load(f, v).get("rows", []) if r["flat"]}
def fold(f):
    return {l.rsplit(" ", 1)[0]: int(l.rsplit(" ", 1)[1]) for l in open("%s/%s.fold" % (d, f)) if l.strip()}
def expect(what, got, want):
    if got != want:
        bad.append("%s: %r, trace_processor: %r" % (what, got, want))

# StackSample (test_stack_sample, _contexts, _interned_callstack,
# _inline_callstack, _async, _followers, _cpu_profiling_samples): the
# stream python.wall has 4 samples (cpu_profiling_samples), wall-time in ns
# 1500000, 2500000, 3000000, 500000, every leaf "compute"; the inline
# callstack is run (depth 0) -> compute (depth 1); one follower
# "instructions" = 700; process "pyworker" for the three samples with pid
# 300, the async sample's context "fiber-1".  Beyond upstream's file: the
# sample of sequence 2 (interned task context, descriptor "alloc" in bytes
# x 1024, a frame without a name in lib/libnative.so, named
# [libnative.so] by pcol's frame rule; its task context gives only the tid,
# whose process the process tree gives), the sample with an empty callstack
# and the one after data loss are not kept (trace_processor keeps neither).
info = load("stack_sample", "info")["rows"]
expect("stack_sample sources", sorted((r["source_uri"].split(": ", 1)[1], r["samples"]) for r in info),
       [("stack samples", 1), ("stack samples (python.wall)", 4)])
expect("stack_sample wall-time", load("stack_sample", "wall-time").get("total"), 7500000)
expect("stack_sample wall-time unit", load("stack_sample", "wall-time").get("unit"), "nanoseconds")
expect("stack_sample wall-time by leaf", flat("stack_sample", "wall-time"), {"compute": 7500000})
expect("stack_sample instructions", load("stack_sample", "instructions").get("total"), 700)
expect("stack_sample alloc", (load("stack_sample", "alloc").get("total"), load("stack_sample", "alloc").get("unit")), (4096, "bytes"))
expect("stack_sample stacks", fold("stack_sample"),
       {"run;compute": 2, "compute": 2, "alloc_page;[libnative.so]": 1})
expect("stack_sample process_name", tags("stack_sample", "process_name"), {"pyworker": 4})
expect("stack_sample tid", tags("stack_sample", "tid"), {"301": 2, "302": 1})
expect("stack_sample thread_name", tags("stack_sample", "thread_name"), {"Wörker ✓ 7": 2})
expect("stack_sample cpu", tags("stack_sample", "cpu"), {"3": 2})
expect("stack_sample cpu_mode", tags("stack_sample", "cpu_mode"), {"user": 1, "kernel": 1})
expect("stack_sample async_context", tags("stack_sample", "async_context"), {"fiber-1": 1})
rows = load("stack_sample", "samples")
expect("stack_sample times (ns since the first packet, 800)", [r["time_ns"] for r in rows], [700, 1700, 4200, 8200, 9000])

# PerfSample (test_perf_sample_followers: CLOCK_MONOTONIC samples placed on
# BOOTTIME by the clock snapshot; test_cpu_profiling_samples_timebase_filter:
# a cpu-clock session and a page-faults one, each sample with a callstack a
# stack sample, with or without timebase_count; test_perf_sample_counter_only:
# a skipped sample is no stack sample): cpu-clock 3 samples, page-faults 1;
# the counter reading without a callstack, the lost records and the empty
# callstack are none.
info = load("perf_sample", "info")["rows"]
expect("perf_sample sources", sorted((r["source_uri"].split(": ", 1)[1], r["samples"]) for r in info),
       [("perf samples (cpu-clock)", 3), ("perf samples (page-faults)", 1)])
pf = [r for r in info if "page-faults" in r["source_uri"]][0]
expect("perf_sample page-faults period", [pf["period"], pf["period_type"], pf["period_unit"]], [1, "page-faults", "count"])
expect("perf_sample page-faults total", load("perf_sample", "page-faults").get("total"), 1)
# the frame at 0x3abc symbolized by ModuleSymbols into its inline chain
# (trace_processor: stack_profile_symbol rows, the first the leaf)
expect("perf_sample stacks", fold("perf_sample"), {"main;spin": 2, "main;spin_outer;inlined_leaf": 1, "touch_pages": 1})
rows = load("perf_sample", "samples")
# monotonic 200010000000 = boottime 500010000000; the trace starts at boottime 500000000000
expect("perf_sample times", sorted(r["time_ns"] for r in rows), [10000000, 15000000, 20000000, 30000000])
expect("perf_sample tid", tags("perf_sample", "tid"), {"43": 2, "44": 2})
expect("perf_sample cpu_mode", tags("perf_sample", "cpu_mode"), {"user": 3, "kernel": 1})

# StreamingProfilePacket (ProfileModule::TokenizeStreamingProfilePacket):
# the reference time 2001000 us (CLOCK_MONOTONIC) + the deltas, each
# packet's trailing delta moving the clock on, placed on BOOTTIME by the
# snapshot (monotonic 2 s = boottime 7 s, the trace's first timestamp)
rows = load("streaming", "samples")
expect("streaming times", [r["time_ns"] for r in rows], [1010000, 1020000, 1070000, 1170000, 1190000, 1225000])
expect("streaming stacks", fold("streaming"), {"ThreadMain;v8::Function::Call": 3, "ThreadMain;blink::Paint": 2,
                                              "ThreadMain;blink::Paint;[chrome]": 1})
expect("streaming threads", (tags("streaming", "tid"), tags("streaming", "thread_name"), tags("streaming", "pid")),
       ({"5907": 6}, {"CrRendererMain": 6}, {"5906": 6}))
for b in bad:
    print("t_perfetto: " + b)
sys.exit(1 if bad else 0)
PY
grep -q 'perfetto.timebase_frequency_hz.*100' "$tmp/perf_sample.meta" || fail "perf_sample: no timebase frequency meta"

# V8's CPU profile as Chromium writes it (legacy track events of phase 'P',
# "Profile" and "ProfileChunk", the JSON of args.data in the annotation
# "data"; doc/mappings.md §17): read as the same events of a Chrome JSON
# trace are (§14), which tests/support/pftrace_v8_json.py writes from the
# trace (from Perfetto's protos, not pcol's code): every answer the same,
# to the ns; and the numbers themselves, summed by hand from the fixture's
# deltas (µs): fib 1000+1000+1000 (its last sample, the profile's last,
# lasts 0), main 500, (idle) 250.5+2000, work 20 (profile 0x1 of pid 8,
# whose startTime 999000 is the earliest: the timeline's 0), other 5+5
# (pid_override 11, tid_override 12)
protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto < $FX/v8_profile.textproto > "$tmp/v8.pftrace" ||
  fail "v8_profile: protoc --encode failed"
python3 tests/support/pftrace_v8_json.py "$tmp/v8.pftrace" "$tmp/v8.json" >/dev/null || fail "v8_profile: the JSON copy"
for f in v8.pftrace v8.json; do
  $PCOL top "$tmp/$f" --node-fraction 0 --format json > "$tmp/$f.top" || fail "$f: top"
  $PCOL fold "$tmp/$f" > "$tmp/$f.fold" || fail "$f: fold"
  $PCOL tags "$tmp/$f" --value samples --format json > "$tmp/$f.tags" || fail "$f: tags"
  $PCOL info "$tmp/$f" --format json > "$tmp/$f.info" || fail "$f: info"
  $PCOL cat "$tmp/$f" --table samples --format json > "$tmp/$f.samples" || fail "$f: cat samples"
  $PCOL cat "$tmp/$f" --table meta --format json > "$tmp/$f.meta" || fail "$f: cat meta"
  $PCOL top "$tmp/$f" --from 0.0011 --to 0.0021 --format json > "$tmp/$f.range" || fail "$f: top of a range"
done
python3 - "$tmp" <<'PY' || fail "v8_profile: the proto trace's V8 profile differs from the JSON trace's, or from the sums"
import json, sys
d, bad = sys.argv[1], []
def load(f, k):
    return json.load(open("%s/%s.%s" % (d, f, k)))
def strip(x, f):  # the file's name out of the answers
    return json.loads(json.dumps(x).replace("%s/%s" % (d, f), "FILE"))
for k in ("top", "tags", "info", "samples", "range"):
    a, b = strip(load("v8.pftrace", k), "v8.pftrace"), strip(load("v8.json", k), "v8.json")
    if a != b:
        bad.append("%s: proto %s\n   json %s" % (k, json.dumps(a)[:600], json.dumps(b)[:600]))
if open(d + "/v8.pftrace.fold").read() != open(d + "/v8.json.fold").read():
    bad.append("fold differs")
# the meta but chrome.duration_events (the JSON trace's count of its ph X/B events)
meta = lambda f: sorted((r["source_id"], r["key"], r["value"]) for r in strip(load(f, "meta"), f)
                        if r["key"] != "chrome.duration_events")
if meta("v8.pftrace") != meta("v8.json"):
    bad.append("meta: proto %s\n   json %s" % (meta("v8.pftrace"), meta("v8.json")))
top = load("v8.pftrace", "top")
flat = {r["name"]: r["flat"] for r in top["rows"]}
if flat != {"fib": 3000000, "(idle)": 2250500, "main": 500000, "work": 20000, "other": 10000}:
    bad.append("sums: %r" % flat)
info = [(r["source_uri"].split(": ", 1)[1], r["samples"], r["duration_ns"]) for r in load("v8.pftrace", "info")["rows"]]
if info != [("CrRendererMain (pid 7, tid 7)", 7, 5850500), ("CrRendererMain (pid 8, tid 8)", 2, 30000),
            ("pid 11, tid 12", 3, 100000)]:
    bad.append("sources: %r" % info)
t = sorted(r["time_ns"] for r in load("v8.pftrace", "samples"))
if t != [10000, 30000, 1100000, 1505000, 1510000, 1515000, 2100000, 3100000, 3600000, 3850500, 4850500, 6850500]:
    bad.append("times: %r" % t)
# a range over a sample counts its part inside (interval sources): [1.1 ms, 2.1 ms) holds fib's
# first sample (1000 us) and other's 10 us
rng = {r["name"]: r["flat"] for r in load("v8.pftrace", "range")["rows"] if r["flat"]}
if rng != {"fib": 1000000, "other": 10000}:
    bad.append("range: %r" % rng)
for b in bad:
    print("t_perfetto: v8_profile: " + b)
sys.exit(1 if bad else 0)
PY
grep -q 'fib;\|main;fib' "$tmp/v8.pftrace.fold" || fail "v8_profile: no main;fib stack: $(cat "$tmp/v8.pftrace.fold")"

# V8's profiles in a trace whose clock snapshots place them (review-diff2
# F9; doc/mappings.md §17): streaming.textproto with a wall clock and V8's
# Profile/ProfileChunk events (v8_wall.textproto says where each sample
# is).  V8's times are Chrome's TimeTicks, on its Profile event's clock
# (CLOCK_MONOTONIC when it states none, as the sampler's
# reference_timestamp_us; BOOTTIME through a sequence-scoped clock, as
# Chrome on macOS and Windows writes it), so the snapshot that places the
# sampler's samples places V8's: the same instants on the trace's timeline (time 0
# its first timestamp), the trace's wall-clock start (`Time:`, which a V8
# profile on its own timeline took away: go's merge of a source without a
# start), each profile's span its own (endTime - startTime, else to its
# last sample, as DevTools shows it and as the JSON trace of the same events
# says: review 18 F10, before from the trace's 0 to its end) placed where its
# samples are (meta pcol.span_start_ns: its startTime after time 0).  Without
# CLOCK_MONOTONIC in the snapshot nothing places them: their own timeline,
# as before (and as a JSON trace's).
cat $FX/streaming.textproto $FX/v8_wall.textproto | prot_enc > "$tmp/v8w.pftrace" || fail "v8_wall: protoc --encode failed"
cat $FX/streaming.textproto $FX/v8_wall.textproto | sed '/clock_id: 3 /d' | prot_enc > "$tmp/v8own.pftrace" ||
  fail "v8_wall: protoc --encode failed"
python3 tests/support/pftrace_v8_json.py "$tmp/v8w.pftrace" "$tmp/v8w.json" >/dev/null || fail "v8_wall: the JSON copy"
$PCOL info "$tmp/v8w.json" --format json > "$tmp/v8w.json.info" || fail "v8_wall: info of the JSON copy"
$PCOL cat "$tmp/v8w.pftrace" --table meta --format json > "$tmp/v8w.meta" || fail "v8_wall: cat meta"
top=$($PCOL top "$tmp/v8w.pftrace" --value samples) || fail "v8_wall: top"
case $top in *"Time: Jan 1, 2026 at 12:00am (UTC)"*"Duration: 1.30ms, Total samples = 13"*) ;;
  *) fail "v8_wall: no wall-clock start or not the trace's span: $top" ;; esac
for f in v8w v8own; do
  $PCOL cat "$tmp/$f.pftrace" --table samples --format json > "$tmp/$f.samples" || fail "$f: cat samples"
  $PCOL info "$tmp/$f.pftrace" --format json > "$tmp/$f.info" || fail "$f: info"
done
# the wall-clock instant of V8's first sample, 1.01 ms after the start:
# it and the sampler's sample of that instant, nothing else
$PCOL top "$tmp/v8w.pftrace" --value samples --from 2026-01-01T00:00:00.00101Z --to 2026-01-01T00:00:00.00102Z \
  --format json > "$tmp/v8w.at" || fail "v8_wall: top of a wall-clock range"
python3 - "$tmp" <<'PY' || fail "v8_wall: V8's samples not where the trace's clocks place them"
import json, sys
d, bad = sys.argv[1], []
def load(f, k):
    return json.load(open("%s/%s.%s" % (d, f, k)))
def times(f):
    t = {}
    for r in load(f, "samples"):
        t.setdefault(r["source_id"], []).append(r["time_ns"])
    return t
def expect(what, got, want):
    if got != want:
        bad.append("%s: %r, want %r" % (what, got, want))
expect("placed times", times("v8w"), {1: [1010000, 1020000, 1070000, 1170000, 1190000, 1225000],
                                      2: [1010000, 1020000, 1070000], 3: [1200000, 1225000], 4: [1150000, 1200000]})
info = [(r["timestamp"], r["duration_ns"]) for r in load("v8w", "info")["rows"]]
# the sampler's, then V8's profiles: 0x1 (startTime 1 ms in, to its last
# sample at 1.07 ms), 0x2 (1.1 ms, endTime 1.3 ms), the macOS one (1.1 ms,
# to its last sample at 1.2 ms)
expect("placed starts and windows", info, [(1767225600, 1300000), (1767225600, 70000), (1767225600, 200000),
                                           (1767225600, 100000)])
expect("the JSON trace's spans", [r["duration_ns"] for r in load("v8w.json", "info")["rows"]], [70000, 200000, 100000])
expect("placed spans' starts", sorted((r["source_id"], int(r["value"])) for r in load("v8w", "meta")
                                      if r["key"] == "pcol.span_start_ns"), [(2, 1000000), (3, 1100000), (4, 1100000)])
expect("the wall-clock instant", {r["name"]: r["flat"] for r in load("v8w", "at")["rows"] if r["flat"]},
       {"jsWork": 1, "v8::Function::Call": 1})
# (profile 0x3's BOOTTIME is the trace clock, but the others are not placed: none is)
expect("own timeline", {k: v for k, v in times("v8own").items() if k > 1},
       {2: [10000, 20000, 70000], 3: [200000, 225000], 4: [5000150000, 5000200000]})
expect("own timeline: no wall-clock start", [r["timestamp"] for r in load("v8own", "info")["rows"]][1:], [None] * 3)
for b in bad:
    print("t_perfetto: v8_wall: " + b)
sys.exit(1 if bad else 0)
PY

# hostile copies: cut, an unknown iid, a packet that is no message, a
# delta that overflows; each exit 1 naming the file, Perfetto and where
prot() { protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto; }
head -c 200 "$tmp/stack_sample.pftrace" > "$tmp/cut.pftrace"
printf 'packet { trusted_packet_sequence_id: 1 incremental_state_cleared: true timestamp: 5 }\npacket { trusted_packet_sequence_id: 1 timestamp: 6 stack_sample { callstack_iid: 77 } }\n' | prot > "$tmp/iid.pftrace"
printf 'packet { trusted_packet_sequence_id: 1 incremental_state_cleared: true timestamp: 5 interned_data { callstacks { iid: 1 frame_ids: 9 } } }\npacket { trusted_packet_sequence_id: 1 timestamp: 6 perf_sample { callstack_iid: 1 } }\n' | prot > "$tmp/frame.pftrace"
printf 'packet { trusted_packet_sequence_id: 3 incremental_state_cleared: true timestamp: 5 thread_descriptor { pid: 1 tid: 2 reference_timestamp_us: 9223372036854 } interned_data { function_names { iid: 1 str: "f" } frames { iid: 1 function_name_id: 1 } callstacks { iid: 1 frame_ids: 1 } } }\npacket { trusted_packet_sequence_id: 3 streaming_profile_packet { callstack_iid: 1 timestamp_delta_us: 9223372036854775807 } }\n' | prot > "$tmp/delta.pftrace"
printf 'packet { trusted_packet_sequence_id: 3 incremental_state_cleared: true timestamp: 5 interned_data { function_names { iid: 1 str: "f" } frames { iid: 1 function_name_id: 1 } callstacks { iid: 1 frame_ids: 1 } } }\npacket { trusted_packet_sequence_id: 3 timestamp: 6 stack_sample { callstack_iid: 1 primary_descriptor { name: "b" unit_multiplier: 4611686018427387904 } primary_weight: 4 } }\n' | prot > "$tmp/mult.pftrace"
# a reference_timestamp_us whose ns are past 64 bits (was signed overflow:
# UBSan, and wrapped times with exit 0)
printf 'packet { trusted_packet_sequence_id: 3 incremental_state_cleared: true timestamp: 5 thread_descriptor { pid: 1 tid: 2 reference_timestamp_us: 4611686018427387904 } interned_data { function_names { iid: 1 str: "f" } frames { iid: 1 function_name_id: 1 } callstacks { iid: 1 frame_ids: 1 } } }\npacket { trusted_packet_sequence_id: 3 streaming_profile_packet { callstack_iid: 1 timestamp_delta_us: 1 } }\n' | prot > "$tmp/ref.pftrace"
# V8's legacy events: no unscoped_id (as a JSON trace's event without an
# id), a data annotation that is no JSON, one past the 64 MiB cap (doc/safety.md)
v8ev() { printf 'packet { trusted_packet_sequence_id: 4 incremental_state_cleared: true timestamp: 5 thread_descriptor { pid: 1 tid: 2 } }\npacket { trusted_packet_sequence_id: 4 timestamp: 6 track_event { name: "%s" legacy_event { phase: 80 %s } debug_annotations { name: "data" legacy_json_value: '"'"'%s'"'"' } } }\n' "$@"; }
v8ev Profile "" '{"startTime":1}' | prot > "$tmp/v8id.pftrace"
v8ev ProfileChunk "unscoped_id: 1" '{"cpuProfile":{"samples":[1,2' | prot > "$tmp/v8json.pftrace"
python3 - "$tmp/v8big.pftrace" <<'PY' || fail "making v8big"
import sys
sys.path.insert(0, "tests/support")
from pprofgen import varint
def ld(n, b): return varint(n << 3 | 2) + varint(len(b)) + b
js = b'{"startTime":1,"x":"' + b"a" * (64 << 20) + b'"}'
ev = ld(23, b"Profile") + ld(6, varint(2 << 3) + varint(80) + varint(6 << 3) + varint(1)) + ld(4, ld(10, b"data") + ld(9, js))
open(sys.argv[1], "wb").write(ld(1, varint(10 << 3) + varint(4) + ld(11, ev)))
PY
for h in cut:byte iid:"callstack_iid 77" frame:"frame 9" delta:timestamp_delta_us mult:unit_multiplier ref:reference_timestamp_us \
         v8id:"without an unscoped_id" v8json:"legacy_json_value" v8big:"at most 64 MiB"; do
  n=${h%%:*} want=${h#*:}
  out=$($PCOL top "$tmp/$n.pftrace" 2>&1); rc=$?
  [ $rc = 1 ] || fail "hostile $n: exit $rc: $out"
  case $out in *"$n.pftrace"*Perfetto*"$want"*) ;; *) fail "hostile $n: message does not name the file, Perfetto and $want: $out" ;; esac
done
# what Perfetto's UI weighs a StackSample by (doc/mappings.md §17): its
# flame graph's first metric, the default, is the timebase's (the primary
# descriptor's) weights, and without a primary descriptor it has only the
# sample count: pcol's default is the primary weight with a descriptor
# (stack_sample.textproto's wall-time, above) and the count without (was
# the weights, 12 here)
printf 'packet { trusted_packet_sequence_id: 3 incremental_state_cleared: true timestamp: 5 interned_data { function_names { iid: 1 str: "f" } frames { iid: 1 function_name_id: 1 } callstacks { iid: 1 frame_ids: 1 } } }\npacket { trusted_packet_sequence_id: 3 timestamp: 6 stack_sample { callstack_iid: 1 primary_weight: 5 } }\npacket { trusted_packet_sequence_id: 3 timestamp: 7 stack_sample { callstack_iid: 1 primary_weight: 7 } }\n' | prot > "$tmp/nodesc.pftrace"
got=$($PCOL top "$tmp/nodesc.pftrace" 2>&1 | grep -E '^Type:|^Total|Total samples') || true
case $got in *"Type: samples"*"Total samples = 2"*) ;; *) fail "StackSample without a primary descriptor: the default is not the count of 2: $got" ;; esac
[ "$($PCOL top "$tmp/nodesc.pftrace" --value weight/count 2>/dev/null | sed -n 's/.*Total samples = \([0-9]*\).*/\1/p')" = 12 ] ||
  fail "StackSample without a primary descriptor: its primary_weight (weight/count) is not kept: $($PCOL top "$tmp/nodesc.pftrace" --value weight/count 2>&1 | head -4)"
# --value weight names that stored type (THE weight name rule, value.c: a
# selected source's type named weight, as Perfetto's UI names it; it was
# the weight column, 1 a row: 2), in every view and export; --value
# pcol.weight is the weight column; a source that stores none (a merge's
# other one, --source 2) weighs its rows by --value weight
[ "$($PCOL top "$tmp/nodesc.pftrace" --value weight 2>/dev/null | sed -n 's/.*Total samples = \([0-9]*\).*/\1/p')" = 12 ] ||
  fail "StackSample without a primary descriptor: --value weight is not its stored weight: $($PCOL top "$tmp/nodesc.pftrace" --value weight 2>&1 | head -4)"
[ "$($PCOL fold "$tmp/nodesc.pftrace" --value weight 2>/dev/null)" = "f 12" ] ||
  fail "fold --value weight of a stored weight: $($PCOL fold "$tmp/nodesc.pftrace" --value weight 2>&1 | head -3)"
"$PCOL" unpack "$tmp/nodesc.pftrace" --value weight --to collapsed -o "$tmp/nodesc.collapsed" 2>/dev/null &&
  [ "$(cat "$tmp/nodesc.collapsed")" = "f 12" ] || fail "unpack --value weight --to collapsed of a stored weight"
[ "$($PCOL top "$tmp/nodesc.pftrace" --value pcol.weight 2>/dev/null | sed -n 's/.*Total samples = \([0-9]*\).*/\1/p')" = 2 ] ||
  fail "--value pcol.weight is not the weight column: $($PCOL top "$tmp/nodesc.pftrace" --value pcol.weight 2>&1 | head -4)"
# the header names which one was added up (review rd14a F6: both said
# "Type: weight", 12 and 2): pcol.weight where a selected source stores a
# type named weight; "Type: weight" (pprof's) where none does (--source 2)
got=$($PCOL top "$tmp/nodesc.pftrace" --value pcol.weight 2>/dev/null | grep '^Type:')
[ "$got" = "Type: pcol.weight" ] || fail "--value pcol.weight beside a stored weight: header '$got'"
got=$($PCOL top "$tmp/nodesc.pftrace" --value weight 2>/dev/null | grep '^Type:')
[ "$got" = "Type: weight" ] || fail "--value weight of a stored weight: header '$got'"
printf 'a;b 3\na 4\n' > "$tmp/w.collapsed"
"$PCOL" merge "$tmp/nodesc.pftrace" "$tmp/w.collapsed" -o "$tmp/w.pcol" 2>/dev/null || fail "merge nodesc.pftrace w.collapsed"
[ "$($PCOL top "$tmp/w.pcol" --source 2 --value weight 2>/dev/null | sed -n 's/.* of \([0-9]*\) total$/\1/p')" = 7 ] ||
  fail "--source 2 --value weight of a source without a stored weight: $($PCOL top "$tmp/w.pcol" --source 2 --value weight 2>&1 | head -4)"
got=$($PCOL top "$tmp/w.pcol" --source 2 --value pcol.weight 2>/dev/null | grep '^Type:')
[ "$got" = "Type: weight" ] || fail "--source 2 --value pcol.weight, no stored weight selected: header '$got'"
got=$($PCOL top "$tmp/w.pcol" --value pcol.weight --format json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["type"], d["total"])')
[ "$got" = "pcol.weight 9" ] || fail "--value pcol.weight --format json of a merge with a stored weight: $got"
# a profile whose Profile event (its startTime) the trace lost: refused, as
# in a JSON trace (doc/mappings.md §14)
v8ev ProfileChunk "unscoped_id: 1" '{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[1]},"timeDeltas":[1]}' | prot > "$tmp/v8start.pftrace"
out=$($PCOL top "$tmp/v8start.pftrace" 2>&1); rc=$?
[ $rc = 1 ] || fail "v8start: exit $rc: $out"
case $out in *v8start.pftrace*"profile 0x1 of pid 1: no Profile event with its startTime"*) ;; *) fail "v8start: $out" ;; esac
# compressed_packets (deflate, as traced writes them with compression on):
# the same answers as the packets themselves; a bomb stops at the input cap
python3 - "$tmp/stack_sample.pftrace" "$tmp/z.pftrace" "$tmp/bomb.pftrace" <<'PY' || fail "making compressed packets"
import sys, zlib
sys.path.insert(0, "tests/support")
from pprofgen import varint as vi  # the project's protobuf writer
def fl(n, b):
    return vi(n << 3 | 2) + vi(len(b)) + b
trace = open(sys.argv[1], "rb").read()
# the first packet as it is, the rest inside one packet's compressed_packets
n, i = 0, 0
while i < len(trace):  # the first packet's end
    i += 1
    ln = 0; s = 0
    while True:
        c = trace[i]; i += 1; ln |= (c & 0x7F) << s; s += 7
        if c < 0x80: break
    i += ln
    break
z = trace[:i] + fl(1, b"\x50\x09" + fl(50, zlib.compress(trace[i:])))
open(sys.argv[2], "wb").write(z)
open(sys.argv[3], "wb").write(fl(1, b"\x50\x09" + fl(50, zlib.compress(b"\x0a\x00" * (4 << 20), 9))))
PY
a=$($PCOL fold "$tmp/stack_sample.pftrace" --value wall-time 2>/dev/null) b=$($PCOL fold "$tmp/z.pftrace" --value wall-time 2>/dev/null)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "compressed_packets: fold differs: [$a] [$b]"
out=$($PCOL pack "$tmp/bomb.pftrace" --max-input 1M -o "$tmp/bomb.pcol" 2>&1); rc=$?
[ $rc = 1 ] || fail "compressed_packets bomb: exit $rc: $out"
case $out in *bomb.pftrace*Perfetto*"input cap"*) ;; *) fail "compressed_packets bomb: $out" ;; esac
[ ! -e "$tmp/bomb.pcol" ] || fail "compressed_packets bomb: an output was written"
# what a file makes and costs is bounded by its bytes: a Mapping whose
# path_string_ids name one 20 KB string 5000 times (25 KB; was a 100 MB
# mapping name) is cut at 4096 bytes with a note; ModuleSymbols lines,
# TracePacketDefaults and interned task contexts and counter descriptors
# are read once, not per frame or sample (each was quadratic: seconds for
# these few hundred KB, minutes for a few MB)
python3 - "$tmp" <<'PY' || fail "making the bounded-cost traces"
import sys
sys.path.insert(0, "tests/support")
from pprofgen import varint
d = sys.argv[1]
def vi(n, v): return varint(n << 3) + varint(v & (1 << 64) - 1)
def ld(n, b): return varint(n << 3 | 2) + varint(len(b)) + (b.encode() if isinstance(b, str) else b)
def packed(n, vs): return ld(n, b"".join(varint(v) for v in vs))
def packet(*f): return ld(1, b"".join(f))
fn = ld(5, vi(1, 1) + ld(2, "fn")) + ld(6, vi(1, 1) + vi(2, 1)) + ld(7, vi(1, 1) + packed(2, [1]))
# path: mapping_paths 1 = "A" x 20000, mapping 1 = [1] x 5000
i = ld(17, vi(1, 1) + ld(2, "A" * 20000)) + ld(19, vi(1, 1) + packed(7, [1] * 5000)) + ld(5, vi(1, 1) + ld(2, "fn")) \
    + ld(6, vi(1, 1) + vi(2, 1) + vi(3, 1) + vi(4, 16)) + ld(7, vi(1, 1) + packed(2, [1]))
open(d + "/path.pftrace", "wb").write(packet(vi(8, 1000), vi(10, 1), vi(13, 1), ld(12, i)) +
                                      packet(vi(8, 2000), vi(10, 1), vi(13, 2), ld(135, vi(6, 1))))
# sym: 8000 frames on one symbolized address of 8000 lines
N = L = 8000
line = ld(2, ld(1, "f") + ld(2, "a.c") + vi(3, 1))
ms = packet(ld(61, ld(1, "/m") + ld(3, vi(1, 16) + line * L)))
frames = b"".join(ld(6, vi(1, k) + vi(3, 1) + vi(4, 16)) for k in range(1, N + 1))
i = ld(17, vi(1, 1) + ld(2, "m")) + ld(19, vi(1, 1) + packed(7, [1])) + frames + ld(7, vi(1, 1) + packed(2, range(1, N + 1)))
open(d + "/sym.pftrace", "wb").write(packet(vi(8, 1000), vi(10, 1), vi(13, 1), ld(12, i)) +
                                     packet(vi(8, 2000), vi(10, 1), vi(13, 2), ld(135, vi(6, 1))) + ms)
# defaults: 200000 unknown fields in TracePacketDefaults, 4000 samples
t = packet(vi(8, 1000), vi(10, 1), vi(13, 1), ld(12, fn), ld(59, vi(5, 0) * 200000))
t += b"".join(packet(vi(8, 2000 + k), vi(10, 1), vi(13, 2), ld(135, vi(6, 1) + vi(11, 1))) for k in range(4000))
open(d + "/defs.pftrace", "wb").write(t)
# contexts: an interned task context and counter descriptor of 200000
# unknown fields each, named by 4000 samples
junk = vi(9, 0) * 200000
i = fn + ld(48, vi(1, 1) + vi(2, 7) + junk) + ld(50, vi(1, 1) + ld(2, "w") + junk)
t = packet(vi(8, 1000), vi(10, 1), vi(13, 1), ld(12, i))
t += b"".join(packet(vi(8, 2000 + k), vi(10, 1), vi(13, 2), ld(135, vi(2, 1) + vi(6, 1) + vi(10, 1) + vi(11, 1))) for k in range(4000))
open(d + "/ctx.pftrace", "wb").write(t)
PY
for n in path sym defs ctx; do
  out=$(timeout 2 $PCOL pack "$tmp/$n.pftrace" -o "$tmp/$n.pcol" 2>&1); rc=$?
  [ $rc = 0 ] || fail "bounded $n: exit $rc (124: over 2 s): $out"
done
[ "$(wc -c < "$tmp/path.pcol")" -lt 100000 ] || fail "bounded path: $(wc -c < "$tmp/path.pcol") bytes from a 25 KB trace"
$PCOL cat "$tmp/path.pcol" --table meta | grep -q 'mapping paths.*cut at 4096 bytes: 1' || fail "bounded path: no note of the cut path"
[ "$($PCOL fold "$tmp/ctx.pcol" --value w)" = "fn 4000" ] || fail "bounded ctx: fold: $($PCOL fold "$tmp/ctx.pcol" --value w 2>&1)"
[ "$($PCOL tags "$tmp/ctx.pcol" --value samples --format json | grep -c '"value": *"7"')" -ge 1 ] ||
  fail "bounded ctx: no pid 7: $($PCOL tags "$tmp/ctx.pcol" --value samples 2>&1)"
# detection: a first packet that opens with a field larger than the 4 KB
# head (a trace_config of 5000 bytes) is still a Perfetto trace, not pprof
python3 - "$tmp/stack_sample.pftrace" "$tmp/bigfirst.pftrace" <<'PY' || fail "making bigfirst"
import sys
sys.path.insert(0, "tests/support")
from pprofgen import varint
def ld(n, b): return varint(n << 3 | 2) + varint(len(b)) + b
open(sys.argv[2], "wb").write(ld(1, ld(33, ld(1, b"x" * 5000)) + b"\x50\x09") + open(sys.argv[1], "rb").read())
PY
$PCOL info "$tmp/bigfirst.pftrace" 2>&1 | grep -q 'input_format: *perfetto' || fail "bigfirst: not detected as perfetto: $($PCOL info "$tmp/bigfirst.pftrace" 2>&1 | head -3)"
# each source's window (doc/mappings.md §17: a pcol.window slice on its
# sequence, as pcol's export writes it): two sequences whose windows are
# 4 us and 2 us long, about 100 us apart, written by hand.  Of separate
# recordings (pcol.recording 1 and 2) each counts its own (Duration: 6us),
# its time 0 the window's start less pcol.span_start_ns (the second's
# samples at 500 and 1500 ns); of one recording, the span of both, from the
# common time 0 (the trace's start) as they lie there; a window that ends
# before it begins is none: that source alone is read as one without a
# window, of its samples' span (1us), the other keeps its own (4us): 5us
# (before review rd17a F2 one source without a window dropped every
# source's: the trace's span, 100us; before the windows, 101us)
win() { # SEQ T0 LO HI SPAN REC: a sequence, its window, its samples at LO, LO + 1000
  printf 'packet { trusted_packet_sequence_id: %s incremental_state_cleared: true timestamp: %s interned_data { function_names { iid: 1 str: "f%s" } frames { iid: 1 function_name_id: 1 } callstacks { iid: 1 frame_ids: 1 } } trace_packet_defaults { stack_sample_defaults { source: "s%s" } } }\n' "$1" "$2" "$1" "$1"
  printf 'packet { trusted_packet_sequence_id: %s timestamp: %s track_event { type: TYPE_SLICE_BEGIN track_uuid: %s categories: "pcol.window" name: "window" debug_annotations { name: "pcol.span_start_ns" int_value: %s } debug_annotations { name: "pcol.recording" uint_value: %s } } }\n' "$1" "$3" "$1" "$5" "$6"
  printf 'packet { trusted_packet_sequence_id: %s timestamp: %s track_event { type: TYPE_SLICE_END track_uuid: %s } }\n' "$1" "$4" "$1"
  printf 'packet { trusted_packet_sequence_id: %s timestamp: %s stack_sample { callstack_iid: 1 } }\n' "$1" "$3" "$1" "$(($3 + 1000))"
}
{ win 2 1000 1000 5000 0 1; win 3 99500 100000 102000 500 2; } | prot > "$tmp/win2.pftrace"
{ win 2 1000 1000 5000 0 1; win 3 1000 100000 102000 99000 1; } | prot > "$tmp/win1.pftrace"
{ win 2 1000 1000 5000 0 1; win 3 99500 100000 99000 500 2; } | prot > "$tmp/winbad.pftrace"
# (one recording whose parts state different time 0s, no wall clock: placed
# from the earliest, as they lie on the trace clock, not each from its own:
# 4us)
{ win 2 1000 1000 5000 0 1; win 3 99500 100000 102000 500 1; } | prot > "$tmp/win1z.pftrace"
for c in win2:6us win1:101us winbad:5us win1z:101us; do
  n=${c%%:*} want=${c#*:}
  got=$($PCOL top "$tmp/$n.pftrace" 2>&1 | sed -n 's/^Duration: \([^,]*\),.*/\1/p')
  [ "$got" = "$want" ] || fail "windows $n: Duration: $got, not $want: $($PCOL info "$tmp/$n.pftrace" 2>&1 | head -12)"
done
got=$($PCOL cat "$tmp/win2.pftrace" --table samples --source 2 2>&1 | awk -F'\t' 'NR > 1 { printf "%s%s", (NR > 2 ? ", " : "["), $3 } END { print "]" }')
[ "$got" = "[500, 1500]" ] || fail "windows win2: source 2's samples at $got, not [500, 1500] (its time 0: 500 ns before its window)"
[ "$($PCOL top "$tmp/win2.pftrace" --from 0.0000005 --to 0.000001 2>/dev/null | sed -n 's/^Duration: \([^,]*\),.*/\1/p')" = 1us ] ||
  fail "windows win2: --from 500ns --to 1us: $($PCOL top "$tmp/win2.pftrace" --from 0.0000005 --to 0.000001 2>&1 | head -4)"
# sources without a window beside one with: their samples' span, from the
# first of them (perf samples at 1e9 and 1e9 + 1000 ns, Duration 1us + the
# window's 5us); a Chrome sampler of no sample (an empty
# streaming_profile_packet) among them has no span (review rd17b F2: its
# unset 0 pulled the others' time 0 back to the trace clock's: Duration 1s,
# samples at 1s)
perf() { # SEQ T: a sequence of perf samples at T, T + 1000
  printf 'packet { trusted_packet_sequence_id: %s incremental_state_cleared: true timestamp: %s interned_data { function_names { iid: 1 str: "p" } frames { iid: 1 function_name_id: 1 } callstacks { iid: 1 frame_ids: 1 } } }\n' "$1" "$2"
  printf 'packet { trusted_packet_sequence_id: %s timestamp: %s perf_sample { callstack_iid: 1 } }\n' "$1" "$2" "$1" "$(($2 + 1000))"
}
nosample() { # SEQ: a Chrome sampler's thread and a packet of no sample
  printf 'packet { trusted_packet_sequence_id: %s incremental_state_cleared: true timestamp: 1000000000 thread_descriptor { pid: 1 tid: 2 reference_timestamp_us: 1000000 } }\n' "$1"
  printf 'packet { trusted_packet_sequence_id: %s streaming_profile_packet { } }\n' "$1"
}
{ perf 3 1000000000; nosample 4; win 2 1000000000 1000000000 1000005000 0 1; } | prot > "$tmp/emptysrc.pftrace"
got=$($PCOL top "$tmp/emptysrc.pftrace" 2>&1 | sed -n 's/^Duration: \([^,]*\),.*/\1/p')
[ "$got" = 6us ] || fail "emptysrc: Duration: $got, not 6us: $($PCOL info "$tmp/emptysrc.pftrace" 2>&1 | head -20)"
got=$($PCOL cat "$tmp/emptysrc.pftrace" --table samples --source 1 2>&1 | awk -F'\t' 'NR > 1 { printf "%s%s", (NR > 2 ? ", " : "["), $3 } END { print "]" }')
[ "$got" = "[0, 1000]" ] || fail "emptysrc: source 1's samples at $got, not [0, 1000]"
# windows that cannot be true (review rd17a F7, hostile input): not taken,
# with a warning naming the file, the packet and why; the source is read
# as one without a window (its samples' span), so that no sample lies
# before its time 0 and no length passes 2^63 ns.  Before: outside, samples
# at -500 ns (which pcol's own export then refused); spanmax, 'Duration:
# 1us' for two windows of 2us (now 2us, and the 1us of the other's
# samples); ovf, the parts' placement skipped unsaid (1281023.89hrs);
# zerolen, no Duration: line.  Each copy says the same.
{ win 2 1000 1000 1500 0 1; } | prot > "$tmp/outside.pftrace"
{ win 2 1000 100000 102000 9223372036854774807 1; win 3 1000 100000 102000 0 1; } | prot > "$tmp/spanmax.pftrace"
{ win 2 1000 1000 3000 4611686018427387904 1; win 3 1000 5000000000000000000 5000000000000002000 0 1; } |
  prot > "$tmp/ovf.pftrace"
{ win 2 1000 100000 100000 0 1; } | prot > "$tmp/zerolen.pftrace"
for c in "outside:1us:does not hold its samples" "spanmax:3us:past 2^63 ns" \
  "ovf:1388888.89hrs:more than 2^63 ns apart" "zerolen:100us:is empty"; do
  n=${c%%:*} rest=${c#*:}
  want=${rest%%:*} why=${rest#*:}
  $PCOL top "$tmp/$n.pftrace" > "$tmp/$n.top" 2> "$tmp/$n.err" || fail "window $n: exit $?: $(cat "$tmp/$n.err")"
  got=$(sed -n 's/^Duration: \([^,]*\),.*/\1/p' "$tmp/$n.top")
  [ "$got" = "$want" ] || fail "window $n: Duration: $got, not $want: $(cat "$tmp/$n.err")"
  grep -q "warning: $tmp/$n.pftrace: Perfetto trace: packet [0-9]* at byte offset [0-9]*: the pcol.window of source 1 .*$why" \
    "$tmp/$n.err" || fail "window $n: no warning that it is not taken ($why): $(cat "$tmp/$n.err")"
  neg=$($PCOL cat "$tmp/$n.pftrace" --table samples 2>/dev/null | awk -F'\t' 'NR > 1 && $3 < 0' | wc -l)
  [ "$neg" = 0 ] || fail "window $n: $neg samples before their source's time 0"
  $PCOL unpack "$tmp/$n.pftrace" --to perfetto -o "$tmp/$n.copy.pftrace" 2>/dev/null || fail "window $n: its copy refused"
  got=$($PCOL top "$tmp/$n.copy.pftrace" 2>/dev/null | sed -n 's/^Duration: \([^,]*\),.*/\1/p')
  [ "$got" = "$want" ] || fail "window $n: the copy's Duration: $got, not $want"
done
# a merge of sources that state their durations (4 s, 2 s, 100 s apart)
# with one that states none (a pprof without duration_nanos): each source
# keeps its own in the Perfetto copy (review rd17a F2: the export wrote no
# window for the pprof, and the import then took none: each source read
# back as the trace's span, 490896.03hrs for 6s)
python3 tests/support/window_gen.py "$tmp" 1767225600 || fail "window_gen.py"
python3 -c "import sys; sys.path.insert(0, 'tests/support'); from pprofgen import typed; typed(sys.argv[1], 'cpu:nanoseconds', '2,1:1000000', '3,1:2000000')" \
  "$tmp/nodur.pb" || fail "pprofgen typed"
$PCOL merge "$tmp/one.json" "$tmp/later.json" "$tmp/nodur.pb" -o "$tmp/mix.pcol" 2>/dev/null || fail "merge mix"
$PCOL unpack "$tmp/mix.pcol" --to perfetto -o "$tmp/mix.pftrace" 2>/dev/null || fail "unpack mix"
a=$($PCOL top "$tmp/mix.pcol" 2>/dev/null | grep '^Duration') b=$($PCOL top "$tmp/mix.pftrace" 2>/dev/null | grep '^Duration')
[ -n "$a" ] && [ "$a" = "$b" ] || fail "mix: the Perfetto copy's '$b', the source's '$a'"
srcinfo() { # FILE N: info's time and duration of source N
  $PCOL info "$1" 2>/dev/null | awk -v n="$2" '/^source [0-9]+:/ { on = $2 == n ":" } on && /^  (time|duration):/'
}
for s in 1 2; do
  a=$(srcinfo "$tmp/mix.pcol" $s) b=$(srcinfo "$tmp/mix.pftrace" $s)
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "mix: source $s of the Perfetto copy: '$b', of the source '$a'"
done
# (the pprof: as its own copy reads, its samples' span)
$PCOL unpack "$tmp/nodur.pb" --to perfetto -o "$tmp/nodur.pftrace" 2>/dev/null || fail "unpack nodur"
a=$(srcinfo "$tmp/nodur.pftrace" 1) b=$(srcinfo "$tmp/mix.pftrace" 3)
[ "$a" = "$b" ] || fail "mix: source 3 of the Perfetto copy: '$b', its own copy's '$a'"

# nul_in_a_string_value: V8's profile in a Perfetto trace with a NUL in a
# function's name and a script's URL (the legacy JSON's \u0000) and in the
# profiled thread's name (the track descriptor's string): read whole, as
# the same events of a Chrome JSON trace (pftrace_v8_json.py's copy) read
# them (top's names, tags' thread_name values, the sources' names, their
# JSON's \u0000), and read back whole from pcol's Perfetto export.  Before:
# the trace was refused ("a string holds \u0000"), and a thread's name was
# cut at its NUL in its source's name.
sed -e 's/"functionName":"fib"/"functionName":"f\\\\u0000ib"/' -e 's|"url":"file:///p.js"|"url":"file:///p\\\\u0000.js"|g' \
    -e '0,/thread_name: "CrRendererMain"/s//thread_name: "Cr\\000RendererMain"/' $FX/v8_profile.textproto >"$tmp/v8nul.textproto"
grep -qF 'f\\u0000ib' "$tmp/v8nul.textproto" && grep -qF 'Cr\000Renderer' "$tmp/v8nul.textproto" || fail "v8 nul: sed"
protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto <"$tmp/v8nul.textproto" >"$tmp/v8nul.pftrace" ||
  fail "v8 nul: protoc --encode failed"
python3 tests/support/pftrace_v8_json.py "$tmp/v8nul.pftrace" "$tmp/v8nul.json" >/dev/null || fail "v8 nul: the JSON copy"
$PCOL unpack "$tmp/v8nul.pftrace" --to perfetto -o "$tmp/v8nul2.pftrace" || fail "v8 nul: unpack --to perfetto"
nul_views() { # the names, thread names and sources read, as JSON (NUL: \u0000)
  $PCOL top "$1" --node-fraction 0 --format json | grep -o '"name":"[^"]*"' | sort
  $PCOL tags "$1" --value samples --format json | grep -o '"key":"thread_name","value":"[^"]*","amount":[0-9]*' | sort
  $PCOL info "$1" --format json | grep -o '"source_uri":"[^"]*"' | sed 's|"[^"]*/v8nul[^:]*: |"|' | sort
}
nul_views "$tmp/v8nul.pftrace" >"$tmp/v8nul.a" || fail "v8 nul: the views of the trace"
for w in '"name":"f\u0000ib"' '"value":"Cr\u0000RendererMain"' '"source_uri":"Cr\u0000RendererMain (pid 7, tid 7)"'; do
  grep -qF "$w" "$tmp/v8nul.a" || fail "v8 nul: no $w read: $(tr '\n' ' ' <"$tmp/v8nul.a")"
done
nul_views "$tmp/v8nul.json" >"$tmp/v8nul.b" || fail "v8 nul: the views of the JSON copy"
cmp -s "$tmp/v8nul.a" "$tmp/v8nul.b" || fail "v8 nul: the trace and its JSON copy read differently: $(diff "$tmp/v8nul.a" "$tmp/v8nul.b" | head -6)"
$PCOL top "$tmp/v8nul2.pftrace" --node-fraction 0 --format json | grep -o '"name":"[^"]*"' | sort >"$tmp/v8nul.c"
grep '"name"' "$tmp/v8nul.a" | cmp -s - "$tmp/v8nul.c" || fail "v8 nul: the Perfetto export's names: $(tr '\n' ' ' <"$tmp/v8nul.c")"
echo "t_perfetto: ok"
