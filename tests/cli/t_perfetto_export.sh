#!/usr/bin/env bash
# pcol unpack --to perfetto (doc/mappings.md §17.1): a Perfetto protobuf
# trace of StackSample packets.  Judged three ways on each input (an Rprof
# file, a Tachyon recording of 3 threads, a Firefox profile of 2 named
# threads with a sample of no stack, pcol's pprof export of the Rprof file,
# a merge of two sources, hostile names; with the shared test data also
# real pprof CPU and heap profiles, a node --cpu-prof profile):
#  - protoc --decode=perfetto.protos.Trace against Perfetto's field numbers
#    (format/perfetto/perfetto_trace.proto) succeeds;
#  - tests/support/perfetto_judge.py, a reader of the wire format alone by
#    trace_processor's sequence and interning rules (no pcol code), finds
#    every iid interned before use on its sequence, valid UTF-8, one sample
#    a selected row, the primary weights adding up to pcol top's total of
#    the default value, each leaf's and each function's weight equal to pcol
#    top's flat and cum, the threads and their names;
#  - read back by pcol (the Perfetto importer, §17), pcol top (default and
#    samples), the sample and row counts, and the samples' times are the
#    input's.
# Then the refusals: a negative default value (exit 1), a negative
# follower (a warning, not written), the output budget (exit 3, no file).
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_perfetto_export: $*" >&2; exit 1; }
command -v protoc >/dev/null || { echo "t_perfetto_export: protoc not installed: skipped"; exit 0; }
command -v python3 >/dev/null || { echo "t_perfetto_export: python3 not installed: skipped"; exit 0; }
judge=tests/support/perfetto_judge.py

# inputs
ins=(examples/demo.out tests/fixtures/tachyon/threads-wall-zstd.bin)
python3 tests/support/firefox_gen.py v70 "$tmp/ff70.json" >/dev/null || fail "firefox_gen v70"
ins+=("$tmp/ff70.json")
$PCOL unpack examples/demo.out --to pprof -o "$tmp/demo.pb.gz" || fail "demo to pprof"
ins+=("$tmp/demo.pb.gz")
$PCOL merge examples/demo.out tests/fixtures/tachyon/threads-wall-zstd.bin -o "$tmp/two.pcol" || fail "merge"
ins+=("$tmp/two.pcol")
# hostile names: invalid UTF-8, NUL, newlines, a quote (collapsed stacks)
printf 'main;f\xff\xfeoo;b\x01ar"x 3\nmain;\xc3\x28 2\n' > "$tmp/hostile.txt"
ins+=("$tmp/hostile.txt")
TD=${PCOL_TESTDATA:-../shared/testdata}
if [ -d "$TD/pprof" ]; then
  for f in go-cpu-large.pb.gz go-heap-allocs-inline.pb.gz java-cpu-async-profiler.pb.gz \
           native-ebpf-kernel-buildid-thread-labels.pb.gz edge-invalid-utf8-nul-strings.pb.gz; do
    [ -f "$TD/pprof/$f" ] && ins+=("$TD/pprof/$f")
  done
  [ -f "$TD/rprof/aprof__lotka1_naiveL.out" ] && ins+=("$TD/rprof/aprof__lotka1_naiveL.out")
fi
if command -v node >/dev/null; then
  (cd "$tmp" && timeout 60 node --cpu-prof --cpu-prof-name=node.cpuprofile "$OLDPWD/tests/support/node_cpu.js" >/dev/null 2>&1) &&
    ins+=("$tmp/node.cpuprofile")
fi

k=0
for in in "${ins[@]}"; do
  k=$((k + 1))
  out=$tmp/o$k.pftrace
  $PCOL unpack "$in" --to perfetto -o "$out" 2>"$tmp/err" || fail "$in: unpack: $(cat "$tmp/err")"
  protoc -I format/perfetto --decode=perfetto.protos.Trace perfetto_trace.proto < "$out" > "$tmp/o$k.txt" ||
    fail "$in: protoc --decode failed"
  python3 "$judge" "$out" > "$tmp/j$k.json" || fail "$in: the judge refuses the trace"
  $PCOL top "$in" --node-fraction 0 --format json > "$tmp/t$k.json" 2>/dev/null || fail "$in: top"
  $PCOL info "$in" --format json > "$tmp/i$k.json" || fail "$in: info"
  $PCOL info "$out" --format json > "$tmp/b$k.json" || fail "$in: the export does not read back"
  python3 - "$tmp/j$k.json" "$tmp/t$k.json" "$tmp/i$k.json" "$tmp/b$k.json" "$in" <<'PY' || fail "$in: the trace does not hold the input's samples"
import json, sys
j, t, i, b = (json.load(open(p)) for p in sys.argv[1:5])
name = sys.argv[5]
srcs = [r for r in i["rows"] if r["samples"]]
rows = sum(r["samples"] for r in srcs)
assert j["rows"] == rows, ("rows", j["rows"], rows)
assert len(j["sources"]) == len(srcs), ("sources", j["sources"])
assert len({s["source"] for s in j["sources"]}) == len(srcs), "two sources share a stream name"
# (a sample of no stack is written without a callstack, which pcol's
# importer does not keep, as trace_processor makes no callsite of it)
assert sum(r["samples"] for r in b["rows"]) == rows - j["no_stack"], ("rows read back", b["rows"])
if len(srcs) == 1:
    # one source: the primary is the default value, its total pcol top's;
    # each function's flat (leaf) and cum weight pcol top's
    assert j["sources"][0]["primary"][0] == t["type"], (j["sources"][0]["primary"], t["type"])
    assert j["total"] == t["total"], ("total", j["total"], t["total"])
    flat = {}
    cum = {}
    for r in t["rows"]:
        flat[r["name"]] = flat.get(r["name"], 0) + r["flat"]
        cum[r["name"]] = max(cum.get(r["name"], 0), r["cum"])
    # (names repaired as U+FFFD are checked below: pcol's JSON writes
    # such bytes as Latin-1)
    repaired = any("\ufffd" in n for n in j["cum"])
    for n in (set(flat) | set(j["flat"])) if not repaired else ():
        assert flat.get(n, 0) == j["flat"].get(n, 0), ("flat", n, flat.get(n), j["flat"].get(n))
    for n in (set(cum) | set(j["cum"])) if not repaired else ():
        assert cum.get(n, 0) == j["cum"].get(n, 0), ("cum", n, cum.get(n), j["cum"].get(n))
    # the times: each timed source's samples at the same instants
    r0, b0 = srcs[0], b["rows"][0]
    if r0["first_ns"] is not None and not j["no_stack"]:
        assert (r0["first_ns"], r0["end_ns"]) == (b0["first_ns"], b0["end_ns"]), ("times", r0, b0)
    if r0["timestamp"]:
        assert b0["timestamp"] == r0["timestamp"], ("start", r0["timestamp"], b0["timestamp"])
PY
  # read back: pcol top (default and samples) as the input's, but for the
  # File: line; the Firefox profile's sample of no stack is not read back
  # (the importer keeps no sample without a callstack, as §17 says), and
  # names of bytes that are no UTF-8 read back repaired
  case "$in" in *ff70.json|*hostile.txt|*edge-invalid-utf8*) continue ;; esac
  for v in "" "--value samples"; do
    # (the header's Duration: is the trace's span read back where the
    # input states none, an Rprof file's; inline marks are not kept)
    diff <($PCOL top "$in" $v -n 40 2>&1 | sed -n '/flat%/,$p' | sed 's/ (inline)$//; s/ (partial-inline)$//') \
         <($PCOL top "$out" $v -n 40 2>&1 | sed -n '/flat%/,$p') > "$tmp/d" || fail "$in: top $v read back differs: $(head -6 "$tmp/d")"
  done
done

# threads: Tachyon's 3 (tid labels) and the Firefox profile's 2 named ones
python3 - "$tmp/j2.json" "$tmp/j3.json" <<'PY' || fail "threads"
import json, sys
t, f = (json.load(open(p)) for p in sys.argv[1:3])
assert sorted(t["by_thread"].values()) == [599, 755, 762], t["by_thread"]
assert sorted(f["thread_names"].values()) == ["GeckoMain", "Worker"], f["thread_names"]
assert sorted(f["by_thread"].values()) == [2, 4], f["by_thread"]  # (rows; GeckoMain's of no stack is one)
PY
$PCOL top "$tmp/o2.pftrace" --by label:tid --value samples -n 5 | grep -q '755 .*14576' || fail "tachyon: tid 14576 read back"
$PCOL tags "$tmp/o3.pftrace" | grep -q 'GeckoMain' || fail "firefox: thread_name read back"
# a made-up tid takes no thread's tid label, even a later source's: a
# collapsed source (no labels) before a perf thread of tid 1
printf 'main;a 3\n' > "$tmp/c1.txt"
printf 'app 7/1 [000] 1.000000: cycles:\n\tffff1 foo (/bin/app)\n\tffff2 main (/bin/app)\n\n' > "$tmp/p1.txt"
$PCOL merge "$tmp/c1.txt" "$tmp/p1.txt" -o "$tmp/mix.pcol" && $PCOL unpack "$tmp/mix.pcol" --to perfetto -o "$tmp/mix.pf" ||
  fail "mix: unpack"
python3 "$judge" "$tmp/mix.pf" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["by_thread"] == {"1/2": 1, "7/1": 1}, d["by_thread"]
assert d["thread_names"] == {"1": "app", "2": d["thread_names"]["2"]} and d["thread_names"]["2"].endswith("c1.txt"), d["thread_names"]' ||
  fail "made-up tids"
# a made-up pid takes no process's pid label either (rd11 F1: the collapsed
# source's made-up pid was its number, 1, a perf thread's real pid: both
# sources' process tracks had one uuid, and the copy put all 4 samples in
# process 1 "p15.txt"); the judge refuses a pid naming two processes
printf 'app 1/5 [000] 1.000000: cycles:\n\tffff1 foo (/bin/app)\n\tffff2 main (/bin/app)\n\n' > "$tmp/p15.txt"
$PCOL merge "$tmp/c1.txt" "$tmp/p15.txt" -o "$tmp/mixp.pcol" && $PCOL unpack "$tmp/mixp.pcol" --to perfetto -o "$tmp/mixp.pf" ||
  fail "made-up pid: unpack"
python3 "$judge" "$tmp/mixp.pf" > "$tmp/mixp.json" || fail "made-up pid: the judge refuses the trace"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["by_thread"] == {"2/1": 1, "1/5": 1}, d["by_thread"]
assert d["process_names"]["1"].endswith("p15.txt") and d["process_names"]["2"].endswith("c1.txt"), d["process_names"]' "$tmp/mixp.json" ||
  fail "made-up pid"
[ "$($PCOL top "$tmp/mixp.pf" --by label:pid --value samples | awk '$NF == 1 || $NF == 2 { print $NF, $1 }' | sort | tr '\n' ' ')" = "1 1 2 3 " ] ||
  fail "made-up pid: read back: $($PCOL top "$tmp/mixp.pf" --by label:pid --value samples)"
# hostile names: U+FFFD for each byte of no character, the rest as it was
grep -q 'f\\357\\277\\275\\357\\277\\275oo' "$tmp/o6.txt" || fail "hostile: invalid UTF-8 not repaired as U+FFFD"
# the Rprof demo's pprof export: the samples/count follower is the count
$PCOL info "$tmp/o4.pftrace" | grep -q 'values: *samples/count, cpu/nanoseconds (default: cpu/nanoseconds)' ||
  fail "pprof: values read back: $($PCOL info "$tmp/o4.pftrace" | grep values)"

# refusals
printf 'a;b 5\na;c -3\n' > "$tmp/neg.txt"
$PCOL unpack "$tmp/neg.txt" --to perfetto -o "$tmp/neg.pf" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q 'neg.txt: perfetto export: sample 2 (source 1) has a negative samples/count (-3)' "$tmp/err" &&
  [ ! -e "$tmp/neg.pf" ] || fail "negative default: exit $rc, $(cat "$tmp/err")"
if [ -f "$TD/pprof/go-heap-delta-negative-values.pb.gz" ]; then
  $PCOL unpack "$TD/pprof/go-heap-delta-negative-values.pb.gz" --to perfetto --value alloc_space -o "$tmp/negf.pf" 2>"$tmp/err" ||
    fail "negative follower: $(cat "$tmp/err")"
  # (THE note of values left out, worded as the speedscope export's: xvalues.h pcol_xskipped)
  grep -qF 'warning: '"$TD"'/pprof/go-heap-delta-negative-values.pb.gz: 2 value types with negative amounts, which a Perfetto trace cannot hold (a StackSample'"'"'s weights are unsigned), not written: inuse_objects/count of source 1, inuse_space/bytes of source 1' "$tmp/err" ||
    fail "negative follower: no warning: $(cat "$tmp/err")"
  $PCOL info "$tmp/negf.pf" | grep -q 'values: *samples/count, alloc_space/bytes, alloc_objects/count (default: alloc_space/bytes)' ||
    fail "negative follower: values read back"
fi
# build ids: pcol's hex written as Perfetto's raw bytes, read back as the
# same hex (the /parca mapping's is 87 bytes, a Go build id; the mappings
# no frame uses, [vdso]'s, are not written)
f=$TD/pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz
if [ -f "$f" ]; then
  $PCOL unpack "$f" --to perfetto -o "$tmp/bid.pf" || fail "build ids: unpack"
  bids() { $PCOL cat "$1" --table mappings --format csv | python3 -c 'import csv,sys; print("\n".join(sorted(r["filename"].lstrip("/") + " " + r["build_id"] for r in csv.DictReader(sys.stdin) if r["filename"] != "[vdso]")))'; }
  [ "$(bids "$f")" = "$(bids "$tmp/bid.pf")" ] || fail "build ids read back: $(bids "$tmp/bid.pf")"
fi
echo keep > "$tmp/big.pf"
$PCOL unpack tests/fixtures/tachyon/threads-wall-zstd.bin --to perfetto --max-output 4000 -o "$tmp/big.pf" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] && grep -q 'perfetto export' "$tmp/err" && grep -q 'output budget of [0-9]* bytes' "$tmp/err" &&
  [ "$(cat "$tmp/big.pf")" = keep ] || fail "budget: exit $rc, $(cat "$tmp/err")"
ls -A "$tmp" | grep -q '\.tmp-' && fail "a temporary output was left behind"
# a range: only its samples (a Tachyon sample counts 1)
n=$($PCOL top tests/fixtures/tachyon/threads-wall-zstd.bin --from 0.1 --to 0.2 --value samples --format json |
   python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
$PCOL unpack tests/fixtures/tachyon/threads-wall-zstd.bin --from 0.1 --to 0.2 --to perfetto -o "$tmp/r.pf" || fail "range"
[ "$(python3 "$judge" "$tmp/r.pf" | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"])')" = "$n" ] || fail "range: not $n samples"
# --value a source lacks: its default is its primary weight, said (rd11 F5)
printf 'main;f 3\n' > "$tmp/c1.txt"
$PCOL merge "$tmp/c1.txt" examples/demo.out -o "$tmp/cv.pcol" 2>/dev/null || fail "merge for --value"
$PCOL unpack "$tmp/cv.pcol" --to perfetto --value cpu -o "$tmp/cv.pf" 2>"$tmp/err" || fail "--value cpu: $(cat "$tmp/err")"
grep -q 'warning: .*source 1 has no value cpu/nanoseconds: its default is the primary weight of its samples instead' "$tmp/err" ||
  fail "--value a source lacks: no warning: $(cat "$tmp/err")"
# an Rprof source beside one that stores cpu/nanoseconds (its pprof copy)
# keeps its time as the primary weight, as alone, by default and asked
# (review 19 F4: read back, Type: samples, its count)
for v in "" cpu; do
  $PCOL unpack examples/demo.out "$tmp/demo.pb.gz" ${v:+--value $v} --to perfetto -o "$tmp/rp.pf" 2>/dev/null ||
    fail "demo.out + its pprof: unpack ${v:+--value $v}"
  a=$($PCOL top examples/demo.out "$tmp/demo.pb.gz" --source 1 ${v:+--value $v} -n 0 | sed -n 2,3p)
  b=$($PCOL top "$tmp/rp.pf" --source 1 ${v:+--value $v} -n 0 | sed -n 2p)
  [ "$(echo "$a" | sed -n 1p)" = "$b" ] && [ "$b" = "Type: cpu" ] ||
    fail "demo.out + its pprof ${v:+--value $v}: the Rprof source reads back as '$b', the input '$a'"
done
# a real tid of 2^31 - 1 leaves the made-up ones from 1 (rd11 F11: the next
# was 2^31, whose track uuid was another thread's)
printf 'app 5/2147483647 [000] 1.000000: cycles:\n\tffff1 foo (/bin/app)\n\tffff2 main (/bin/app)\n\n' > "$tmp/pbig.txt"
$PCOL merge "$tmp/pbig.txt" "$tmp/c1.txt" -o "$tmp/mb.pcol" 2>/dev/null && $PCOL unpack "$tmp/mb.pcol" --to perfetto -o "$tmp/mb.pf" ||
  fail "tid 2^31 - 1: export"
tids=$(protoc -I format/perfetto --decode=perfetto.protos.Trace perfetto_trace.proto < "$tmp/mb.pf" | sed -n 's/^ *tid: //p' | sort -n | uniq | tr '\n' ' ')
[ "$tids" = "1 2147483647 " ] || fail "tid 2^31 - 1: tids $tids"
# rel_pc is the pc relative to its mapping (rd11 F4: the absolute address
# was written, so trace_processor's symbolizer looked 0x7f5e53... up in
# libc's ELF): the judge checks each frame's rel_pc lies in its mapping and
# maps it back (ToAddress); those pcs are the input's location addresses
f=$TD/pprof/cpp-cpu-unsymbolized-mappings.pb.gz
if [ -f "$f" ]; then
  $PCOL unpack "$f" --to perfetto -o "$tmp/u.pf" 2>"$tmp/err" || fail "unsymbolized: $(cat "$tmp/err")"
  python3 "$judge" "$tmp/u.pf" > "$tmp/u.json" || fail "unsymbolized: the judge refuses the trace"
  $PCOL cat "$f" --table locations > "$tmp/u.locs" || fail "unsymbolized: cat locations"
  python3 - "$tmp/u.json" "$tmp/u.locs" <<'PY' || fail "unsymbolized: rel_pc is not the pc relative to its mapping"
import json, sys
pcs = json.load(open(sys.argv[1]))["pcs"]
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
addr = {int(r[rows[0].index("address")]) for r in rows[1:]}
assert len(pcs) > 100, len(pcs)
assert set(pcs) <= addr, sorted(set(pcs) - addr)[:5]
PY
fi
# read back, each location's address and its mapping's range and file
# offset are the input's (the exporter writes the range, exact_offset and
# rel_pc relative to it; the importer kept the rel_pc and no range)
maps() { # FILE: "address start limit offset file" of each location in a mapping, sorted, unique
  $PCOL cat "$1" --table all --format json | python3 -c '
import json, sys
t = json.load(sys.stdin)
m = {r["mapping_id"]: r for r in t["mappings"]}
for l in t["locations"]:
    r = m.get(l["mapping_id"])
    if r: print(l["address"], r["memory_start"], r["memory_limit"], r["file_offset"], r["filename"])
' | sort -u
}
for f in "$TD/pprof/cpp-cpu-unsymbolized-mappings.pb.gz" "$TD/pprof/go-cpu-large.pb.gz"; do
  [ -f "$f" ] || continue
  $PCOL unpack "$f" --to perfetto -o "$tmp/m.pf" 2>/dev/null || fail "$f: mappings: unpack"
  maps "$tmp/m.pf" > "$tmp/m.got"
  [ "$(wc -l < "$tmp/m.got")" -gt 50 ] || fail "$f: mappings: few locations read back"
  [ -z "$(comm -23 "$tmp/m.got" <(maps "$f"))" ] ||
    fail "$f: read back, addresses or mapping ranges differ from the input's: $(comm -23 "$tmp/m.got" <(maps "$f") | head -3)"
done
# a time past what int64 ns since 1970 holds is named so (rd11 F8: "before
# 1970" for a sample in 2262, the sum wrapped): a trace whose REALTIME is
# 2262-04-07 at the trace's 0, its samples 1 and 2 * 10^17 ns later
cat > "$tmp/big.txtpb" <<'EOF'
packet { timestamp: 0 clock_snapshot { clocks { clock_id: 6 timestamp: 0 }
  clocks { clock_id: 1 timestamp: 9223000000000000000 } primary_trace_clock: 6 } }
packet { trusted_packet_sequence_id: 1 incremental_state_cleared: true timestamp: 0 trace_packet_defaults {
  stack_sample_defaults { source: "big" primary_descriptor { name: "samples" unit: UNIT_COUNT } } } }
packet { trusted_packet_sequence_id: 1 timestamp: 100000000000000000 stack_sample {
  task_context { pid: 3 tid: 4 } callstack { frames { function_name: "a" } } primary_weight: 1 } }
packet { trusted_packet_sequence_id: 1 timestamp: 200000000000000000 stack_sample {
  task_context { pid: 3 tid: 4 } callstack { frames { function_name: "b" } } primary_weight: 1 } }
EOF
protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto < "$tmp/big.txtpb" > "$tmp/big.pf" ||
  fail "2262: protoc --encode"
# such a trace is refused where it is read, naming the packet of its last
# time (before, pcol info said "time: 2262-04-07", samples "at
# 27777.78hrs .. 55555.56hrs", exit 0); so is its export
for c in info "unpack --to perfetto -o $tmp/big2.pf"; do
  if $PCOL $c "$tmp/big.pf" >/dev/null 2>"$tmp/err"; then fail "2262: $c: read"; fi
  grep -qF "big.pf: Perfetto trace: packet 4 at byte offset " "$tmp/err" &&
    grep -qF ": a time past 2262-04-11 (2^63 ns since 1970): the clock snapshot puts the trace's start at 9223000000000000000 ns since 1970 and this 200000000000000000 ns after it" "$tmp/err" ||
    fail "2262: $c: $(cat "$tmp/err")"
done
[ ! -e "$tmp/big2.pf" ] || fail "2262: written"
# the export's own refusal: a speedscope profile that starts 0.85 s before
# 2^63 ns since 1970, its second sample 1 s in
cat > "$tmp/big.json" <<'EOF'
{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"},{"name":"b"}]},
 "profiles":[{"type":"evented","name":"big","unit":"nanoseconds","startValue":0,"endValue":2000000000,"pcolStart":9223372036000000000,
  "events":[{"type":"O","frame":0,"at":0},{"type":"C","frame":0,"at":1000},
            {"type":"O","frame":1,"at":1000000000},{"type":"C","frame":1,"at":2000000000}]}]}
EOF
if $PCOL unpack "$tmp/big.json" --to perfetto -o "$tmp/big2.pf" 2>"$tmp/err"; then fail "2262: written"; fi
grep -qF 'perfetto export: sample 2 (source 1) is at a time past 2262-04-11 (2^63 ns since 1970) that Perfetto'"'"'s timestamps cannot hold' "$tmp/err" ||
  fail "2262: $(cat "$tmp/err")"
# what a StackSample cannot hold is said (review 18 F3, F4): a JFR
# recording's stated default (pcol.default_value, cpu, over its execution
# and allocation sources) and samples that last (a V8 profile's intervals)
python3 tests/support/gen_jfr.py "$tmp/g.jfr" --samples 20 --period "0:10 ms" || fail "gen_jfr.py"
$PCOL top "$tmp/g.jfr" --format tsv > "$tmp/g.top" || fail "jfr: top"
sed -n 2p "$tmp/g.top" | grep -q 'nanoseconds$' || fail "jfr: the recording's default is not cpu: $(head -2 "$tmp/g.top")"
$PCOL unpack "$tmp/g.jfr" --to perfetto -o "$tmp/g.pf" 2>"$tmp/err" || fail "jfr: unpack: $(cat "$tmp/err")"
grep -qF "the profile's default value cpu/nanoseconds (its sources' stated default, pcol.default_value) is not kept" "$tmp/err" ||
  fail "jfr: the lost default is not said: $(cat "$tmp/err")"
grep -qF 'ask --value cpu/nanoseconds there' "$tmp/err" || fail "jfr: no --value hint: $(cat "$tmp/err")"
# ... and the hint holds: read back with --value cpu, the recording's own top
$PCOL top "$tmp/g.pf" --value cpu/nanoseconds --format tsv 2>/dev/null > "$tmp/gb.top" || fail "jfr: top --value cpu of the copy"
diff <(tail -n +2 "$tmp/g.top") <(tail -n +2 "$tmp/gb.top") > /dev/null || fail "jfr: --value cpu of the copy differs"
$PCOL unpack "$tmp/g.jfr" --value cpu --to perfetto -o "$tmp/g2.pf" 2>"$tmp/err" || fail "jfr --value cpu: unpack"
if grep -qF 'is not kept' "$tmp/err"; then fail "jfr --value cpu: a default said lost that was named"; fi
$PCOL unpack examples/demo.out --to v8 -o "$tmp/demo.cpuprofile" 2>/dev/null || fail "demo to v8"
$PCOL unpack "$tmp/demo.cpuprofile" --to perfetto -o "$tmp/v8.pf" 2>"$tmp/err" || fail "v8: unpack"
lasting=$($PCOL cat "$tmp/demo.cpuprofile" --table samples | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "duration_ns") c = i; next }
  $c != "" && $c != "NA" && $c > 0 { n++ } END { print n + 0 }')
[ "$lasting" -gt 0 ] || fail "v8: no sample of the V8 copy lasts (the test's premise)"
grep -qF "$lasting samples state how long they last" "$tmp/err" || fail "v8: the lost durations ($lasting) are not said: $(cat "$tmp/err")"
$PCOL unpack examples/demo.out --to perfetto -o "$tmp/d.pf" 2>"$tmp/err" || fail "demo: unpack"
if grep -qF 'how long' "$tmp/err"; then fail "demo: durations said lost where none is stated"; fi
# an Rprof file states no duration: the trace ends where its last tick ends
# (38 ticks of 10 ms: 380 ms), not at the last tick's start (370 ms, and
# one R thread's cpu read back as 102.70% of it: review 19 F4)
[ "$($PCOL top "$tmp/d.pf" | sed -n 3p)" = "Duration: 380ms, Total samples = 380ms (  100%)" ] ||
  fail "demo: read back $($PCOL top "$tmp/d.pf" | sed -n 3p), want the 380 ms of its 38 ticks"
# ... and so does a range's part of it, ending where its last tick's
# interval ends within the range: 0.1-0.3 s of it is 20 ticks, 200 ms, as
# `pcol top --from 0.1 --to 0.3` of it says, not 180 ms to the last tick's
# start (111.11%); two sources of it merged, 200 ms of two threads (not
# 180 ms and 222.22%; review rd13b F4)
$PCOL unpack examples/demo.out --from 0.1 --to 0.3 -t perfetto -o "$tmp/dr.pf" 2>/dev/null || fail "demo range: unpack"
[ "$($PCOL top examples/demo.out --from 0.1 --to 0.3 | sed -n 3p)" = "Showing nodes accounting for 200ms, 100% of 200ms total" ] ||
  fail "demo range: the input's range is not the 200 ms the test expects"
[ "$($PCOL top "$tmp/dr.pf" | sed -n 3p)" = "Duration: 200ms, Total samples = 200ms (  100%)" ] ||
  fail "demo range: read back $($PCOL top "$tmp/dr.pf" | sed -n 3p), want the range's 200 ms"
cp examples/demo.out "$tmp/demo2.out"
$PCOL merge examples/demo.out "$tmp/demo2.out" -o "$tmp/dd.pcol" 2>/dev/null &&
  $PCOL unpack "$tmp/dd.pcol" --from 0.1 --to 0.3 -t perfetto -o "$tmp/ddr.pf" 2>/dev/null || fail "merged range: unpack"
[ "$($PCOL top "$tmp/ddr.pf" | sed -n 3p)" = "Duration: 200ms, Total samples = 400ms (200.00%)" ] ||
  fail "merged range: read back $($PCOL top "$tmp/ddr.pf" | sed -n 3p), want 200 ms of two threads"
# a source that states no duration and has no sample times makes up no
# span: a pprof CPU profile without times read back as Duration 5.42s
# (its largest sample's cpu, every sample at 0) and 131.37% (review rd13b
# F2); its copy states duration 0, as the input states none
if [ -f "$TD/pprof/cpp-cpu-unsymbolized-mappings.pb.gz" ]; then
  $PCOL unpack "$TD/pprof/cpp-cpu-unsymbolized-mappings.pb.gz" --to perfetto -o "$tmp/u.pf" 2>/dev/null || fail "untimed: unpack"
  $PCOL top "$tmp/u.pf" | grep -q '^Duration:' && fail "untimed: read back $($PCOL top "$tmp/u.pf" | sed -n 3p), the input states no duration"
  $PCOL info "$tmp/u.pf" | grep -qx '  duration: *0' || fail "untimed: duration not 0: $($PCOL info "$tmp/u.pf" | grep duration)"
fi
# a Perun snapshot's 26 samples, all at 230 us, lie end to end (THE
# placement rule, as the speedscope export's timeline: 230 us + 114 ms),
# not each from 230 us (48.23 ms, the largest one's, and 236.37%)
if [ -f "$TD/perun/complexity-models.perf" ]; then
  $PCOL unpack "$TD/perun/complexity-models.perf" --to perfetto -o "$tmp/pn.pf" 2>/dev/null || fail "perun: unpack"
  [ "$($PCOL top "$tmp/pn.pf" | sed -n 3p)" = "Duration: 114.23ms, Total samples = 114ms (99.80%)" ] ||
    fail "perun: read back $($PCOL top "$tmp/pn.pf" | sed -n 3p), want 114.23ms, 99.80%"
fi
echo "t_perfetto_export: ok (${#ins[@]} inputs)"
