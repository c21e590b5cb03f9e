#!/usr/bin/env bash
# The Firefox Profiler's processed format through the CLI, without the
# profiler (tests/interop/t_firefox.sh runs the profiler's own code):
#  - export: the structure of what `pcol unpack --to firefox` writes
#    (tests/support/firefox_check.py: required fields, every index in
#    range, the prefix tree, long samples in samply's encoding, the call tree
#    read from the file = pcol top), gzip by name, the output budget;
#  - import: profiles made by tests/support/firefox_gen.py (version 70 with
#    shared tables, version 48 with per-thread ones, tracing-ms weights, a
#    Gecko profile with a child process and every kind of location string),
#    gzip or not: pcol top = the numbers the generator computed; labels and
#    the markers note; hostile files refused with the JSON path;
#  - the start: meta.startTime to the ns (pprof.time_nanos, a wall-clock
#    range, the pprof export's time_nanos), hostile start times refused;
#  - the duration: the Firefox Profiler's range (computed here from the
#    JSON by the profiler's rule) in pcol info, the pprof export's
#    duration_nanos and go tool pprof's Duration: line of it = pcol top's;
#  - round trip: firefox -> pcol -> firefox -> pcol keeps pcol top.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_firefox: $*" >&2; exit 1; }
# stderr with nothing but the export's loss note ("not written: ...",
# lib/convert/loss.c), which other tests check
quiet() { ! grep -v ': not written: ' "$1" | grep -q .; }
gen=tests/support/firefox_gen.py
check=tests/support/firefox_check.py

# --- export
$PCOL pack examples/demo.out --coalesce -o "$tmp/long.pcol" || fail "pack --coalesce"
ins=(examples/demo.out "$tmp/long.pcol")
for f in "$TD"/pprof/go-cpu-inline-small.pb.gz "$TD"/pprof/go-heap-allocs-inline.pb.gz \
         "$TD"/pprof/cpp-cpu-unsymbolized-mappings.pb.gz "$TD"/perun/memory-basic.perf \
         tests/fixtures/collapsed/decimal.folded; do
  [ -f "$f" ] && ins+=("$f")
done
k=0
for f in "${ins[@]}"; do
  k=$((k + 1))
  $PCOL unpack "$f" --to firefox -o "$tmp/e$k.json.gz" || fail "unpack $f"
  [ "$(head -c 2 "$tmp/e$k.json.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] || fail "$f: .json.gz is not gzip"
  $PCOL top "$f" --format json --node-fraction 0 >"$tmp/t$k.json" || fail "top $f"
  python3 $check "$tmp/e$k.json.gz" "$tmp/t$k.json" >/dev/null || fail "structure of the export of $f"
done
# the long samples are there: coalesced runs as start + rest rows
python3 - "$tmp/e2.json.gz" <<'PY' || fail "coalesced export has no long samples"
import gzip, json, sys
s = json.loads(gzip.decompress(open(sys.argv[1], "rb").read()))["threads"][0]["samples"]
d = s["pcolDuration"]
assert any(x and x > 0 for x in d) and d.count(0) == sum(1 for x in d if x and x > 0), d
PY
# -o without .gz: JSON text; --no-gzip too
$PCOL unpack examples/demo.out --to firefox -o "$tmp/plain.json" || fail "unpack to .json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/plain.json" || fail ".json is not JSON text"
# a range and a source selection
$PCOL unpack "$tmp/long.pcol" --to firefox --from-time 0.05 --to-time 0.31 -o "$tmp/r.json" || fail "range"
$PCOL top "$tmp/long.pcol" --from 0.05 --to 0.31 --format json --node-fraction 0 >"$tmp/rt.json"
python3 $check "$tmp/r.json" "$tmp/rt.json" >/dev/null || fail "structure of a range export"
# the output budget: refused, nothing left behind
if $PCOL unpack examples/demo.out --to firefox --max-output 200 -o "$tmp/b.json" 2>"$tmp/err"; then
  fail "a 200-byte budget was not refused"
fi
[ ! -e "$tmp/b.json" ] || fail "a refused export left its file"
grep -q 'max-output' "$tmp/err" || fail "budget message: $(cat "$tmp/err")"

# a thread's name and process (THE thread-name rule, lib/core/lasts.c): a
# perf recording's threads are named by their comm (as `perf report --sort
# comm` and the Firefox Profiler's own perf importer name them) and carry
# the pid and tid perf printed, two "app" threads apart by their tids; read
# back, pcol names each thread of the export as it names it from the perf
# text itself (the speedscope export's profile names: "COMM tid N")
python3 tests/support/gen_perf_script.py "$tmp/perf.txt" /dev/null --style pidtid --samples 80 --seed 3 ||
  fail "gen_perf_script.py"
$PCOL unpack "$tmp/perf.txt" --to firefox -o "$tmp/perf-ff.json" || fail "perf to firefox"
$PCOL unpack "$tmp/perf.txt" --to speedscope -o "$tmp/perf-ss.json" || fail "perf to speedscope"
$PCOL unpack "$tmp/perf-ff.json" --to speedscope -o "$tmp/perf-ff-ss.json" || fail "perf to firefox to speedscope"
python3 - "$tmp/perf.txt" "$tmp/perf-ff.json" "$tmp/perf-ss.json" "$tmp/perf-ff-ss.json" <<'PY' || fail "perf threads in the Firefox export"
import json, re, sys
want, n = {}, {}
for l in open(sys.argv[1]):
    m = re.match(r"^(\S.*?) +(\d+)/(\d+) +\[\d+\] ", l)
    if m:
        want.setdefault(int(m[3]), (m[1], m[2]))
        n[int(m[3])] = n.get(int(m[3]), 0) + 1
got = {t["tid"]: (t["name"], t["pid"]) for t in json.load(open(sys.argv[2]))["threads"]}
assert got == want, ("threads (tid: name, pid)", got, want)
assert len({c for c, _ in want.values()}) < len(want), "two threads of one comm"
names = lambda f: sorted(p["name"].split(": ", 1)[1] for p in json.load(open(f))["profiles"] if "timeline (" in p["name"])
direct, back = names(sys.argv[3]), names(sys.argv[4])
assert direct == sorted("timeline (%s tid %d)" % (c, t) for t, (c, _) in want.items()), direct
assert back == direct, ("read back", back, direct)
PY
# a thread that names itself after it starts (prctl(PR_SET_NAME),
# pthread_setname_np in its start routine) has its parent's comm on its
# first samples and its own on the rest: it is named by the comm of its
# last sample, as `perf report --sort pid` names it by its current comm
# (review 15 F6: all three tracks were "app", the parent's), in the Firefox
# and speedscope exports, the speedscope copy read back, and the report's
# tracks; a thread that keeps its comm keeps its name
{ t=0
  for c in "app 100" "app 101" "app 101" "app 102" "wrk 1;x 101" "app 100" "wrk 1;x 101" "wrk 2 102" "wrk 2 102"; do
    t=$((t + 1)); printf '%s %s 5.%06d:    1000000 cpu-clock:\n\t1 main (/bin/app)\n\n' "${c% *}" "${c##* }" "$t"
  done; } >"$tmp/rename.txt"
$PCOL unpack "$tmp/rename.txt" --to firefox -o "$tmp/rename-ff.json" || fail "rename to firefox"
$PCOL unpack "$tmp/rename.txt" --to speedscope -o "$tmp/rename-ss.json" || fail "rename to speedscope"
$PCOL unpack "$tmp/rename-ss.json" --to speedscope -o "$tmp/rename-ss2.json" || fail "rename speedscope read back"
$PCOL report "$tmp/rename.txt" -o "$tmp/rename.html" || fail "rename report"
python3 - "$tmp/rename-ff.json" "$tmp/rename-ss.json" "$tmp/rename-ss2.json" "$tmp/rename.html" <<'PY' || fail "a thread renamed mid-way"
import json, re, sys
want = {100: "app", 101: "wrk 1;x", 102: "wrk 2"}
got = {t["tid"]: t["name"] for t in json.load(open(sys.argv[1]))["threads"]}
assert got == want, ("firefox threads", got, want)
tl = sorted("timeline (%s tid %d)" % (c, t) for t, c in want.items())
for f in sys.argv[2:4]:
    names = sorted(p["name"].split(": ", 1)[1] for p in json.load(open(f))["profiles"] if "timeline (" in p["name"])
    assert names == tl, (f, names, tl)
html = open(sys.argv[4], encoding="utf-8").read()
for t, c in want.items():
    assert json.dumps("%s tid %d" % (c, t)) in html, ("report track", c, t)
for t in (101, 102):
    assert json.dumps("app tid %d" % t) not in html, ("report track named by a first comm", t)
PY
# a thread without any thread label among named ones is "no thread label"
# in both exports (not "()")
python3 tests/support/firefox_gen.py v48 "$tmp/unl.json" >/dev/null || fail "gen unl"
python3 - "$tmp/unl.json" <<'PY' || fail "unl"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("name", "tid", "pid"):
    del d["threads"][1][k]
json.dump(d, open(sys.argv[1], "w"))
PY
$PCOL unpack "$tmp/unl.json" --to speedscope -o "$tmp/unl-ss.json" || fail "unl to speedscope"
$PCOL unpack "$tmp/unl.json" --to firefox -o "$tmp/unl-ff.json" || fail "unl to firefox"
python3 - "$tmp/unl.json" "$tmp/unl-ss.json" "$tmp/unl-ff.json" <<'PY' || fail "an unlabelled thread's name"
import json, sys
src, ss, ff = (json.load(open(f)) for f in sys.argv[1:4])
t0 = src["threads"][0]
want = ["timeline (%s tid %d)" % (t0["name"], t0["tid"]), "timeline (no thread label)"]
got = [p["name"].split(": ", 1)[1] for p in ss["profiles"] if p["type"] == "evented"]
assert got == want, (got, want)
got = [t["name"] for t in ff["threads"]]
assert got == [t0["name"], "no thread label"], got
PY
# a thread without a tid gets one no other thread of the file has: a
# collapsed source (no thread labels) beside a perf recording of tids 0
# (swapper) and 1, in both orders and twice (its index, 0 or 2, was
# written: tid 0 twice; then 1 twice)
printf 'main;f 3\nmain 2\n' >"$tmp/notid.txt"
printf 'swapper 0 1.000000:    1000000 cpu-clock:\n\t1 idle (/bin/x)\n\nprog 1 1.001000:    1000000 cpu-clock:\n\t1 main (/bin/x)\n\n' >"$tmp/tids.txt"
for order in "notid tids" "tids notid notid" "notid notid tids"; do
  ins=(); for i in $order; do ins+=("$tmp/$i.txt"); done
  $PCOL unpack "${ins[@]}" --to firefox -o "$tmp/tids-ff.json" || fail "tids ($order): unpack"
  python3 - "$tmp/tids-ff.json" <<'PY' || fail "tids ($order): two threads of one tid"
import json, sys
th = json.load(open(sys.argv[1]))["threads"]
tids = [t["tid"] for t in th]
assert len(set(tids)) == len(tids), [(t["tid"], t["name"]) for t in th]
assert {t["tid"] for t in th if t["name"] in ("swapper", "prog")} == {0, 1}, [(t["tid"], t["name"]) for t in th]
PY
done

# --- import
for kind in v70 v71 v75 v48 tracing gecko; do
  python3 $gen $kind "$tmp/$kind.json" >"$tmp/$kind.want" || fail "gen $kind"
  gzip -c "$tmp/$kind.json" >"$tmp/$kind.json.gz"
  for f in "$tmp/$kind.json" "$tmp/$kind.json.gz"; do
    $PCOL top "$f" --format json --node-fraction 0 >"$tmp/got" 2>"$tmp/err" || fail "import $kind: $(cat "$tmp/err")"
    python3 - "$tmp/$kind.want" "$tmp/got" <<'PY' || fail "import $kind ($f): pcol top differs from the generator"
import json, sys
want, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert got["total"] == want["total"], (got["total"], want["total"])
rows = {r["name"]: r for r in got["rows"]}
for n, v in want["flat"].items():
    assert rows[n]["flat"] == v, (n, rows[n]["flat"], v)
for n, v in want["cum"].items():
    assert rows[n]["cum"] == v, (n, rows[n]["cum"], v)
PY
  done
done
# versions 71 and 75 say a frame's and a function's missing line, column,
# category and file by a `flags` bit (the value itself 0): read as 70's nulls
for t in functions locations location_lines sample_labels; do
  $PCOL cat "$tmp/v70.json" --table $t >"$tmp/c70" || fail "cat v70 $t"
  for v in v71 v75; do
    $PCOL cat "$tmp/$v.json" --table $t | cmp -s - "$tmp/c70" ||
      fail "$v: table $t differs from v70's: $($PCOL cat "$tmp/$v.json" --table $t | diff - "$tmp/c70" | head -5)"
  done
done
# labels: thread name, tid, pid and category; the markers note in pcol info
$PCOL tags "$tmp/v70.json" >"$tmp/tags" || fail "tags"
for w in thread_name GeckoMain Worker tid pid category JavaScript Layout; do
  grep -q "$w" "$tmp/tags" || fail "label $w missing: $(cat "$tmp/tags")"
done
$PCOL info "$tmp/v70.json" | grep -q 'note: *2 markers not imported' || fail "info note: $($PCOL info "$tmp/v70.json")"
# CPU deltas in µs become ns
$PCOL cat "$tmp/v70.json" --table samples --format csv | awk -F, 'NR==2 {exit !($6 == 7000)}' ||
  fail "threadCPUDelta 7 µs is not 7000 ns"
# hostile files: refused (exit 1) with the JSON path
for h in bad-stack:'threads\[0\].samples.stack\[1\]' bad-prefix:'prefixOffset\[1\]' \
         bad-func:'frameTable.func\[2\]' bad-string:'funcTable.name\[3\]' bad-version:'version 99' \
         short-column:'weight has 1 entries for length 2'; do
  kind=${h%%:*} re=${h#*:}
  python3 $gen "$kind" "$tmp/h.json" >/dev/null
  $PCOL top "$tmp/h.json" >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc = 1 ] || fail "$kind: exit $rc, want 1"
  grep -q "$re" "$tmp/err" || fail "$kind: message lacks '$re': $(cat "$tmp/err")"
done
head -c 300 "$tmp/v70.json.gz" >"$tmp/cut.json.gz"
$PCOL top "$tmp/cut.json.gz" >/dev/null 2>"$tmp/err" && fail "a truncated gzip was read"
grep -q 'truncated gzip' "$tmp/err" || fail "truncated gzip message: $(cat "$tmp/err")"

# --- round trip: firefox -> pcol -> firefox -> pcol
$PCOL pack "$tmp/v70.json" -o "$tmp/a.pcol" || fail "pack v70"
$PCOL unpack "$tmp/a.pcol" --to firefox -o "$tmp/b.json.gz" || fail "unpack v70"
$PCOL top "$tmp/a.pcol" --format json >"$tmp/ta"
$PCOL top "$tmp/b.json.gz" --format json | sed 's#"file":"[^"]*"##' >"$tmp/tb"
sed 's#"file":"[^"]*"##' "$tmp/ta" | cmp -s - "$tmp/tb" || fail "round trip changed pcol top"
$PCOL unpack "$tmp/long.pcol" --to firefox -o "$tmp/l.json" || fail "unpack long"
# time, duration, CPU delta (the import adds thread labels); the weight the
# profiler sees is the source's default value (an Rprof source's time, in
# tracing-ms), so the stacks' time comes back, not the tick column
$PCOL cat "$tmp/long.pcol" --table samples | cut -f3,4,6 >"$tmp/la"
$PCOL cat "$tmp/l.json" --table samples | cut -f3,4,6 >"$tmp/lb"
cmp -s "$tmp/la" "$tmp/lb" || fail "long samples did not come back: $(diff "$tmp/la" "$tmp/lb" | head)"
$PCOL fold "$tmp/long.pcol" | sort >"$tmp/la"
$PCOL fold "$tmp/l.json" | sort >"$tmp/lb"
cmp -s "$tmp/la" "$tmp/lb" || fail "long samples' time per stack did not come back: $(diff "$tmp/la" "$tmp/lb" | head)"
# the interval (THE interval rule, lib/core/lasts.c): a profile's
# meta.interval is its samples' period (firefox.interval_ms), which the
# Rprof export writes its counted samples at, as samply's 1 ms (review 12:
# at 10 ms, "states no sampling period"); pcol's export of a Tachyon
# recording (1 ms, counted) reads back so; an interval pcol chose (counts of
# collapsed stacks: 1) is marked pcolIntervalStated false and not read back
$PCOL unpack "$tmp/v70.json" --to rprof -o "$tmp/iv.out" 2>"$tmp/err" || fail "v70 to rprof"
[ "$(head -1 "$tmp/iv.out")" = "line profiling: sample.interval=1000" ] && quiet "$tmp/err" ||
  fail "meta.interval 1 ms: Rprof header '$(head -1 "$tmp/iv.out")', stderr '$(cat "$tmp/err")'"
ty=tests/fixtures/tachyon/threads-wall-zstd.bin
$PCOL unpack $ty --to rprof -o "$tmp/ty.out" && $PCOL unpack $ty --to firefox -o "$tmp/ty.json" &&
  $PCOL unpack "$tmp/ty.json" --to rprof -o "$tmp/tyf.out" 2>"$tmp/err" || fail "tachyon via firefox to rprof"
grep -q '"interval":1,"startTime"' "$tmp/ty.json" || fail "tachyon: meta.interval is not a stated 1 ms"
# (the copy's samples come in time order, not by thread: the same lines in
# another order, so the same header and time per function)
[ "$(head -1 "$tmp/ty.out")" = "$(head -1 "$tmp/tyf.out")" ] && quiet "$tmp/err" &&
  [ "$($PCOL top "$tmp/ty.out" --format csv)" = "$($PCOL top "$tmp/tyf.out" --format csv)" ] ||
  fail "tachyon via firefox to rprof: header '$(head -1 "$tmp/tyf.out")' (direct '$(head -1 "$tmp/ty.out")'), stderr '$(cat "$tmp/err")'"
$PCOL unpack tests/fixtures/collapsed/simple.folded --to firefox -o "$tmp/co.json" || fail "collapsed to firefox"
grep -q '"interval":1,"pcolIntervalStated":false,' "$tmp/co.json" || fail "collapsed: the chosen interval is not marked"
$PCOL cat "$tmp/co.json" --table meta | grep -q firefox.interval_ms && fail "collapsed via firefox: an interval read back"
$PCOL unpack "$tmp/co.json" --to rprof -o "$tmp/co.out" 2>"$tmp/err" || fail "collapsed via firefox to rprof"
[ "$(head -1 "$tmp/co.out")" = "sample.interval=10000" ] && grep -q 'states no sampling period' "$tmp/err" ||
  fail "collapsed via firefox: header '$(head -1 "$tmp/co.out")', stderr '$(cat "$tmp/err")'"
# pprof -> firefox -> pprof keeps samples/count: the Firefox file holds each
# row's count (pcolCount; its weight the cpu), the import keeps it as the
# weight, and the pprof export of the copy writes it as samples/count, as
# the original has it (review 12 F6: dropped; go: tests/interop/t_go_pprof.sh)
gc=$TD/pprof/go-cpu-string-labels.pb.gz
if [ -f "$gc" ]; then
  $PCOL unpack "$gc" --to firefox -o "$tmp/gc.json.gz" && $PCOL unpack "$tmp/gc.json.gz" --to pprof -o "$tmp/gc.pb.gz" ||
    fail "go-cpu-string-labels via firefox to pprof"
  a=$($PCOL top "$gc" --value samples/count -n 1 | grep -o 'of [0-9]* total')
  z=$($PCOL top "$tmp/gc.pb.gz" --value samples/count -n 1 2>&1 | grep -o 'of [0-9]* total')
  [ -n "$a" ] && [ "$a" = "$z" ] || fail "go-cpu-string-labels via firefox to pprof: samples/count '$z', the original '$a'"
  $PCOL top "$tmp/gc.pb.gz" -n 1 | grep -q '^Type: cpu$' || fail "go-cpu-string-labels via firefox to pprof: not Type: cpu"
  # its period: the Firefox file's meta.interval (10 ms) as the copy's cpu
  # nanoseconds, as the original's (before: none, go printed Period: 0)
  $PCOL info "$tmp/gc.pb.gz" | grep -q '^  period: *10ms (cpu)$' ||
    fail "go-cpu-string-labels via firefox to pprof: $($PCOL info "$tmp/gc.pb.gz" | grep period || echo no period)"
fi
# every count 1 (R's pprof of an Rprof file): the Firefox file still holds
# them (pcolCount: its source counted its samples), and the copy's pprof
# export has samples/count (before: none, go -sample_index=samples refused)
rp=$TD/pprof-from-r/r-prof-profile__1.out.prof.pb.gz
if [ -f "$rp" ]; then
  $PCOL unpack "$rp" --to firefox -o "$tmp/rp.json" && $PCOL unpack "$tmp/rp.json" --to pprof -o "$tmp/rp.pb.gz" ||
    fail "r-prof-profile__1 via firefox to pprof"
  $PCOL info "$tmp/rp.pb.gz" | grep -q '^  values: .*samples/count' || fail "r-prof-profile__1 via firefox to pprof: no samples/count"
  a=$($PCOL top "$rp" --value samples/count -n 1 | grep -o 'of [0-9]* total')
  z=$($PCOL top "$tmp/rp.pb.gz" --value samples/count -n 1 2>&1 | grep -o 'of [0-9]* total')
  [ -n "$a" ] && [ "$a" = "$z" ] || fail "r-prof-profile__1 via firefox to pprof: samples/count '$z', the original '$a'"
fi
# ... in the original's order: a pprof profile's [samples/count,
# cpu/nanoseconds] (pcolCountFirst), so that a value's index is the same
# (--value 0, go's -sample_index=0: review diff5 m2, the copy's [cpu,
# samples] answered cpu where the original answers samples)
vals() { $PCOL info "$1" | sed -n 's/^  values: *//p'; }
top0() { $PCOL top "$1" --value 0 -n 1 | grep -E '^(Type|Showing nodes)'; }
for g in "$rp" "$TD/pprof/go-cpu-inline-small.pb.gz"; do
  [ -f "$g" ] || continue
  b=$(basename "$g")
  $PCOL unpack "$g" --to firefox -o "$tmp/ord.json" && $PCOL unpack "$tmp/ord.json" --to pprof -o "$tmp/ord.pb.gz" ||
    fail "$b via firefox to pprof"
  grep -q '"pcolCountFirst":true' "$tmp/ord.json" || fail "$b via firefox: the count's place is not said"
  for c in "$tmp/ord.json" "$tmp/ord.pb.gz"; do
    [ "$(vals "$c")" = "$(vals "$g")" ] || fail "$b via firefox ($(basename "$c")): values '$(vals "$c")', the original '$(vals "$g")'"
    [ "$(top0 "$c")" = "$(top0 "$g")" ] || fail "$b via firefox ($(basename "$c")): top --value 0 '$(top0 "$c")', the original '$(top0 "$g")'"
  done
done
# a Firefox file of counts at a stated 1 ms (pcol's of a Tachyon recording):
# its pprof and OTLP copies' period is 1 ms; an interval pcol made up (the
# counts of collapsed stacks, pcolIntervalStated false) none
$PCOL unpack tests/fixtures/tachyon/threads-cpu-none.bin --to firefox -o "$tmp/ty.json" || fail "tachyon to firefox"
for to in pprof otlp; do
  $PCOL unpack "$tmp/ty.json" --to $to -o "$tmp/ty.$to" || fail "tachyon via firefox to $to"
  $PCOL info "$tmp/ty.$to" | grep -q '^  period: *1ms (cpu)$' ||
    fail "tachyon via firefox to $to: $($PCOL info "$tmp/ty.$to" | grep period || echo no period)"
  $PCOL unpack "$tmp/co.json" --to $to -o "$tmp/co.$to" || fail "collapsed via firefox to $to"
  $PCOL info "$tmp/co.$to" | grep -q 'period' && fail "collapsed via firefox to $to: $($PCOL info "$tmp/co.$to" | grep period)"
done
# a processed profile older than pcol reads: refused, saying how to upgrade
# it (the profiler's own upgraders); a newer one: refused, versions named
printf '{"meta":{"preprocessedProfileVersion":7,"version":10},"threads":[]}' >"$tmp/v7.json"
printf '{"meta":{"preprocessedProfileVersion":999,"version":10},"threads":[]}' >"$tmp/v999.json"
$PCOL pack --from firefox "$tmp/v7.json" -o "$tmp/v7.pcol" 2>"$tmp/err" && fail "a version 7 profile packed"
grep -q 'processed profile version 7; pcol reads versions .* (profiler.firefox.com upgrades older ones: load it there and download it again)' "$tmp/err" ||
  fail "version 7: $(cat "$tmp/err")"
$PCOL pack --from firefox "$tmp/v999.json" -o "$tmp/v999.pcol" 2>"$tmp/err" && fail "a version 999 profile packed"
grep -q 'processed profile version 999; pcol reads versions [0-9]* to [0-9]*$' "$tmp/err" || fail "version 999: $(cat "$tmp/err")"
# --- the start time (meta.startTime, ms since the epoch, a double) to the ns
# it holds: the source's start is pprof.time_nanos (spec.md §7), so a
# wall-clock range and a pprof export see it, not its whole seconds alone.
# The numbers are computed here from the JSON (the double's exact value).
python3 - "$tmp/v70.json" "$tmp/st.json" 1795699965999.4 >"$tmp/st.want" <<'PY' || fail "startTime generator"
# startTime set to argv[3]; prints its ns (exact value of the double, x 10^6,
# rounded) and the weight of the samples in [1795699966 s, 1795699967 s)
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
d["meta"]["startTime"] = float(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
t0 = round(Fraction(d["meta"]["startTime"]) * 10**6)
w = 0
for th in d["threads"]:
    s = th["samples"]
    for t, x in zip(s["time"], s["weight"]):
        if 1795699966 * 10**9 <= t0 + round(Fraction(t) * 10**6) < 1795699967 * 10**9:
            w += x
print(t0, w)
PY
read -r st_ns st_w <"$tmp/st.want"
got=$($PCOL cat "$tmp/st.json" --table meta | awk -F'\t' '$1 == "pprof.time_nanos" {print $2}')
[ "$got" = "$st_ns" ] || fail "startTime 1795699965999.4 ms: pprof.time_nanos '$got', want $st_ns"
[ "$($PCOL cat "$tmp/st.json" --table sources | awk -F'\t' 'NR == 2 {print $4}')" = $((st_ns / 1000000000)) ] ||
  fail "startTime: source_timestamp is not its whole seconds: $($PCOL cat "$tmp/st.json" --table sources)"
got=$($PCOL top "$tmp/st.json" --from @1795699966 --to @1795699967 --format json --node-fraction 0 |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])')
[ "$got" = "$st_w" ] || fail "a wall-clock range counts $got, want $st_w (the start's fraction lost?)"
# the pprof export's time_nanos is the start, to the ns
$PCOL unpack "$tmp/st.json" --to pprof -o "$tmp/st.pb.gz" || fail "firefox -> pprof"
[ "$(python3 tests/support/pprof_times.py "$tmp/st.pb.gz" | cut -d' ' -f1)" = "$st_ns" ] ||
  fail "firefox -> pprof: time_nanos $(python3 tests/support/pprof_times.py "$tmp/st.pb.gz"), want $st_ns"
# round trips keep the start to the microsecond (a double of ms since the
# epoch holds about a quarter of one): firefox -> pcol -> firefox -> pcol,
# and pprof -> firefox -> pcol (go-cpu-inline-small: time_nanos ...235370)
near() { # A B: |A - B| <= 1000
  python3 -c 'import sys; sys.exit(abs(int(sys.argv[1]) - int(sys.argv[2])) > 1000)' "$1" "$2"; }
$PCOL unpack "$tmp/st.json" --to firefox -o "$tmp/st2.json" || fail "firefox -> pcol -> firefox"
got=$($PCOL cat "$tmp/st2.json" --table meta | awk -F'\t' '$1 == "pprof.time_nanos" {print $2}')
near "$got" "$st_ns" || fail "firefox round trip: time_nanos $got, want $st_ns"
g=$TD/pprof/go-cpu-inline-small.pb.gz
if [ -f "$g" ]; then
  want=$(python3 tests/support/pprof_times.py "$g" | cut -d' ' -f1)
  $PCOL unpack "$g" --to firefox -o "$tmp/g.json" || fail "pprof -> firefox"
  got=$($PCOL cat "$tmp/g.json" --table meta | awk -F'\t' '$1 == "pprof.time_nanos" {print $2}')
  near "$got" "$want" || fail "pprof -> firefox -> pcol: time_nanos $got, want $want"
fi
# a pprof without sample times reads back without them (doc/mappings.md
# §8.2: the export's axis is synthetic, pcolTimeAxis): the same Duration
# line as the input (its duration_nanos, carried as pcolDurationNanos), the
# same body (but for pprof's "(inline)" mark: the import makes an inlined
# frame a location of its own, §8.1), a time range refused as on the
# input, info without times
for g in "$TD"/pprof/go-cpu-inline-small.pb.gz "$TD"/pprof/go-cpu-large.pb.gz; do
  [ -f "$g" ] || continue
  $PCOL unpack "$g" --to firefox -o "$tmp/syn.json" || fail "pprof -> firefox ($g)"
  $PCOL top "$g" | grep -v '^File:' | sed 's/ (inline)$//' >"$tmp/syn-in.txt" || fail "top $g"
  $PCOL top "$tmp/syn.json" | grep -v '^File:' >"$tmp/syn-out.txt" || fail "top of its export"
  grep -q '^Duration: ' "$tmp/syn-in.txt" || fail "$g: no Duration line: $(head -3 "$tmp/syn-in.txt")"
  diff "$tmp/syn-in.txt" "$tmp/syn-out.txt" >&2 || fail "$g -> firefox -> pcol: top differs"
  $PCOL top "$g" --from 0 --to 0.5 >/dev/null 2>&1 && fail "$g: a range was not refused on the input"
  $PCOL top "$tmp/syn.json" --from 0 --to 0.5 >/dev/null 2>"$tmp/err" &&
    fail "$g -> firefox: a range on the synthetic axis was not refused"
  grep -q 'has no sample times' "$tmp/err" || fail "range on a synthetic axis: $(cat "$tmp/err")"
  [ "$($PCOL info "$g" | grep -E '^  duration:')" = "$($PCOL info "$tmp/syn.json" | grep -E '^  duration:')" ] ||
    fail "$g -> firefox: info's duration differs"
  $PCOL info "$tmp/syn.json" | grep -q '^  samples: .*without times' ||
    fail "$g -> firefox: info shows times: $($PCOL info "$tmp/syn.json" | grep '^  samples')"
done
# the weight's value type reads back by name (pcolValueType), not as the
# weightType's "tracing" or "bytes": Type: alloc_space, cpu (an Rprof time)
for g in "$TD"/pprof/go-heap-allocs-inline.pb.gz examples/demo.out; do
  [ -f "$g" ] || continue
  $PCOL unpack "$g" --to firefox -o "$tmp/vt.json" || fail "$g -> firefox"
  want=$($PCOL top "$g" | sed -n 's/^Type: \([^ ]*\).*/\1/p')
  got=$($PCOL top "$tmp/vt.json" | sed -n 's/^Type: \([^ ]*\).*/\1/p')
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "$g -> firefox -> pcol: Type $got, want $want"
done
# decimal counts (collapsed 1.5) exported as samples weights read back as
# the collapsed importer keeps them (count/1e-9): the same fold, not a refusal
printf 'main;a 1.5\nmain;b 2\nmain;c 3\n' >"$tmp/dec.txt"
$PCOL unpack "$tmp/dec.txt" --to firefox -o "$tmp/dec.json" || fail "decimal counts -> firefox"
[ "$($PCOL fold "$tmp/dec.json" 2>&1)" = "$($PCOL fold "$tmp/dec.txt")" ] ||
  fail "decimal counts -> firefox -> pcol: $($PCOL fold "$tmp/dec.json" 2>&1 | head -3)"
[ "$($PCOL top "$tmp/dec.json" | sed -n 's/^Showing.* of \(.*\) total$/\1/p')" = 6.5 ] || fail "decimal counts: total"
# a hostile pcolValueType: any string is a name (escaped where shown), a
# non-string is ignored
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["threads"][0]["pcolValueType"] = "\u001b[31mred\u0000"
open(sys.argv[2], "w").write(json.dumps(d))
d["threads"][0]["pcolValueType"] = [1]
open(sys.argv[3], "w").write(json.dumps(d))' "$tmp/vt.json" "$tmp/vt-esc.json" "$tmp/vt-arr.json"
$PCOL top "$tmp/vt-esc.json" >"$tmp/out" 2>&1 || fail "a pcolValueType with control bytes: $(head -3 "$tmp/out")"
grep -q $'\x1b' "$tmp/out" && fail "a pcolValueType's escape reached the terminal"
$PCOL top "$tmp/vt-arr.json" | grep -qx 'Type: tracing' || fail "a pcolValueType not a string was not ignored"
# past 16 pcolValueType names the rest take the kind's own name, and the
# kind's own names always have room (h8: a bytes thread after 16 names wrote
# past the table and crashed)
$PCOL info tests/fuzz-regress/firefox/value-type-names-past-16.json >"$tmp/out" 2>&1 ||
  fail "20 pcolValueType names: $(head -3 "$tmp/out")"
grep -q 'bytes' "$tmp/out" && grep -q 'vt15' "$tmp/out" || fail "20 pcolValueType names: $(head -20 "$tmp/out")"
# the stated default (meta.pcolDefaultValue) naming a pcolValueType past the
# first 16 is where that thread's values went, the kind's own name (the
# default was the first thread's, vt0: count_scan took the raw name for a
# thread's value, default_type looked for it among the names kept); one of
# the first 16 is itself; thread i weighs i + 1 ms (new17..new19: 18 + 19 + 20)
vt16() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for i, t in enumerate(d["threads"]):
    t["samples"]["weight"] = [i + 1, 0]
d["meta"]["pcolDefaultValue"] = sys.argv[3]
if sys.argv[4] == "count-first":
    d["threads"][0]["samples"]["weightType"] = "samples"
    del d["threads"][0]["pcolValueType"]
open(sys.argv[2], "w").write(json.dumps(d))' tests/fuzz-regress/firefox/value-type-names-past-16.json "$tmp/vt16.json" "$1" "$2"
  $PCOL top "$tmp/vt16.json" 2>&1 | sed -n 's/^Type: \([^ ]*\).*/\1/p; s/^Showing nodes .* of \(.*\) total$/\1/p' | tr '\n' ' '; }
for c in "new18 time-first:tracing 57ms " "new18 count-first:tracing 57ms " "vt3 time-first:vt3 4ms " "new19 time-first:tracing 57ms "; do
  got=$(vt16 ${c%%:*})
  [ "$got" = "${c#*:}" ] || fail "pcolDefaultValue ${c%%:*} of 20 pcolValueType names: '$got', want '${c#*:}'"
done
# hostile starts: refused (exit 1) with the JSON path, no float converted
# out of range (UBSan); 2^63 ns is 9223372036854.775808 ms
# start_as TEXT: st.json with meta.startTime written as TEXT, into h.json
start_as() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["meta"]["startTime"] = "@START@"
open(sys.argv[2], "w").write(json.dumps(d).replace("\"@START@\"", sys.argv[3]))' "$tmp/st.json" "$tmp/h.json" "$1"; }
for h in -1 -0.5 1e300 9223372036854.78 9223372036855 '"soon"' NaN; do
  start_as "$h"
  $PCOL top "$tmp/h.json" >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc = 1 ] || fail "startTime $h: exit $rc, want 1"
  [ "$h" = NaN ] || grep -q 'meta.startTime' "$tmp/err" || fail "startTime $h: $(cat "$tmp/err")"
done
# the latest start that fits, and none (0: the export of a source without one)
for h in 9223372036854.775:9223372036854775391 0:; do
  start_as "${h%%:*}"
  got=$($PCOL cat "$tmp/h.json" --table meta 2>"$tmp/err" | awk -F'\t' '$1 == "pprof.time_nanos" {print $2}')
  [ "$got" = "${h#*:}" ] || fail "startTime ${h%%:*}: pprof.time_nanos '$got', want '${h#*:}' $(cat "$tmp/err")"
done
# --- the duration: the length of the range the Firefox Profiler gives the
# profile (profile-data's getTimeRangeIncludingAllThreads), computed from
# the JSON by tests/support/firefox_range.py (samples moved 1000.25 ms on;
# its rule is held against the profiler's own code by
# tests/interop/t_firefox.sh) for each generated profile, with a profiling
# range, with a thread of markers only (its markers of every phase count,
# those of threads with samples do not, allocations do), and with markers
# and no samples at all; pcol info's duration_ns, the pprof export's
# duration_nanos and go tool pprof's Duration: line of it (= pcol top's)
# hold them.
for kind in v70 v48 tracing gecko v70:range gecko:range v70:markers v48:markers gecko:markers \
            v70:only-markers gecko:only-markers gecko:markers:range; do
  modes=${kind#*:}
  [ "$modes" = "$kind" ] && modes=
  python3 tests/support/firefox_range.py "$tmp/${kind%%:*}.json" "$tmp/d.json" ${modes//:/ } >"$tmp/d.json.want" ||
    fail "range generator $kind"
  want=$(cat "$tmp/d.json.want")
  $PCOL info "$tmp/d.json" --format json | grep -q "\"duration_ns\":$want," ||
    fail "$kind: pcol info's duration is not the profiler's range, $want ns: $($PCOL info "$tmp/d.json" | grep duration)"
  # firefox -> pcol -> firefox -> pcol keeps it: the export writes the
  # range back as meta.profilingStartTime/EndTime (the same numbers: meta.
  # startTime is the same), and not when a time range is selected
  $PCOL unpack "$tmp/d.json" --to firefox --no-gzip -o "$tmp/d2.json" || fail "$kind: firefox -> firefox"
  $PCOL info "$tmp/d2.json" --format json | grep -q "\"duration_ns\":$want," ||
    fail "$kind: firefox round trip: duration $($PCOL info "$tmp/d2.json" | grep duration), want $want ns"
  python3 - "$tmp/d.json" "$tmp/d2.json" <<'PY' || fail "$kind: the export's profiling range is not the source's"
import json, sys
a, b = json.load(open(sys.argv[1]))["meta"], json.load(open(sys.argv[2]))["meta"]
assert a["startTime"] == b["startTime"], (a["startTime"], b["startTime"])
if "profilingStartTime" in a:
    assert (a["profilingStartTime"], a["profilingEndTime"]) == (b["profilingStartTime"], b["profilingEndTime"]), b
else:  # the range the profiler computed, written as a profiling range
    assert round((b["profilingEndTime"] - b["profilingStartTime"]) * 1e6) == int(open(sys.argv[1] + ".want").read()), b
PY
  $PCOL unpack "$tmp/d.json" --to firefox --no-gzip --from-time 0 -o "$tmp/d3.json" || fail "$kind: --from-time"
  # a selected time range writes the part of the span it cuts (d7a547da,
  # THE rule of pcol_sources_time): from 0 on, all of it
  $PCOL info "$tmp/d3.json" --format json | grep -q "\"duration_ns\":$want," ||
    fail "$kind: --from-time 0: the export's range is not the whole $want ns: $($PCOL info "$tmp/d3.json" | grep duration)"
  $PCOL unpack "$tmp/d.json" --to pprof -o "$tmp/d.pb.gz" || fail "$kind: firefox -> pprof"
  [ "$(python3 tests/support/pprof_times.py "$tmp/d.pb.gz" | cut -d' ' -f2)" = "$want" ] ||
    fail "$kind -> pprof: duration_nanos $(python3 tests/support/pprof_times.py "$tmp/d.pb.gz"), want $want"
  if command -v go >/dev/null 2>&1; then
    go tool pprof -symbolize=none -top "$tmp/d.pb.gz" 2>/dev/null | grep -a '^Duration: ' | cut -d, -f1 >"$tmp/d.go"
    $PCOL top "$tmp/d.json" | grep '^Duration: ' | cut -d, -f1 | cmp -s - "$tmp/d.go" ||
      fail "$kind: pcol top's Duration: differs from go tool pprof's of the pprof export: $(cat "$tmp/d.go")"
  fi
done
# sources merged (one 100 ms after the other; with an Rprof source that
# states no duration): the copy's Duration is the merge's
python3 tests/support/firefox_range.py "$tmp/v70.json" "$tmp/m1.json" markers >/dev/null
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['meta']['startTime'] += 100
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/m1.json" "$tmp/m2.json"
$PCOL merge "$tmp/m1.json" "$tmp/m2.json" -o "$tmp/m.pcol" || fail "merge two Firefox sources"
$PCOL unpack "$tmp/m.pcol" --to firefox --no-gzip -o "$tmp/m.json" || fail "unpack the merge"
$PCOL unpack "$tmp/m1.json" --to firefox --no-gzip -o "$tmp/m1e.json" || fail "unpack one"
# (since d7a547da: two separate inputs' durations add up, as go's merge
# and pcol top of the merge say (pcol_sources_time); the range written
# reaches every sample, the duration read back is top's)
python3 - "$tmp/m1e.json" "$tmp/m.json" <<'PY' || fail "the range of two merged Firefox sources"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert b["meta"]["startTime"] == a["meta"]["startTime"], b["meta"]
lo, hi = b["meta"]["profilingStartTime"], b["meta"]["profilingEndTime"]
for th in b["threads"]:
    t = th["samples"].get("time")
    if t is None and "timeDeltas" in th["samples"]:
        import itertools
        t = list(itertools.accumulate(th["samples"]["timeDeltas"]))
    assert all(lo <= x <= hi for x in (t or [])), (lo, hi, min(t), max(t))
PY
[ "$($PCOL top "$tmp/m.json" | grep '^Duration: ' | cut -d, -f1)" = "$($PCOL top "$tmp/m.pcol" | grep '^Duration: ' | cut -d, -f1)" ] ||
  fail "the merge's Firefox copy: $($PCOL top "$tmp/m.json" | grep '^Duration: '), the merge: $($PCOL top "$tmp/m.pcol" | grep '^Duration: ')"
$PCOL merge "$tmp/m1.json" examples/demo.out -o "$tmp/m.pcol" && $PCOL unpack "$tmp/m.pcol" --to firefox --no-gzip -o "$tmp/m.json" ||
  fail "merge with Rprof"
# (a source that states no duration adds none, as in go's merge: the
# copy's Duration is the merge's, pcol_sources_time)
[ "$($PCOL top "$tmp/m.json" | grep '^Duration: ' | cut -d, -f1)" = "$($PCOL top "$tmp/m.pcol" | grep '^Duration: ' | cut -d, -f1)" ] ||
  fail "a merge with Rprof: the Firefox copy's $($PCOL top "$tmp/m.json" | grep '^Duration: '), the merge's $($PCOL top "$tmp/m.pcol" | grep '^Duration: ')"
# a time range's copy starts where the range's part starts (meta.startTime,
# which the import reads back as the source's start: top's Time:), as top
# of the range says (THE range rule of the header, pcol_sources_time), its
# samples at their instants; before, meta.startTime was the source's own
# start, and the copy's Time: the whole recording's.  window_gen.py's
# one.json: [T0, T0 + 4 s) sampled all through, T0 = 00:00:58.
python3 tests/support/window_gen.py "$tmp" 1767225658 || fail "window_gen.py"
for r in "--from 2.5 --to 3|1767225660500" "--from 2026-01-01T00:01:01.5Z|1767225661500" "--to 1|1767225658000"; do
  set -- ${r%|*}
  $PCOL unpack "$tmp/one.json" "$@" --to firefox --no-gzip -o "$tmp/w.json" || fail "one.json $*: unpack"
  st=$(python3 -c "import json, sys; print(round(json.load(open(sys.argv[1]))['meta']['startTime']))" "$tmp/w.json")
  [ "$st" = "${r#*|}" ] || fail "one.json $*: the copy's meta.startTime is $st ms, the range's part starts at ${r#*|}"
  [ "$(TZ=UTC $PCOL top "$tmp/w.json" -n 1 | grep -E '^(Time|Duration):')" = \
    "$(TZ=UTC $PCOL top "$tmp/one.json" "$@" -n 1 | grep -E '^(Time|Duration):')" ] ||
    fail "one.json $*: the copy's Time:/Duration: are not the range's: $(TZ=UTC $PCOL top "$tmp/w.json" -n 1 | head -4)"
  $PCOL unpack "$tmp/one.json" "$@" --to pprof -o "$tmp/w.pb.gz" && $PCOL unpack "$tmp/w.json" --to pprof -o "$tmp/w2.pb.gz" ||
    fail "one.json $*: to pprof"
  [ "$(python3 tests/support/pprof_times.py "$tmp/w2.pb.gz")" = "$(python3 tests/support/pprof_times.py "$tmp/w.pb.gz")" ] ||
    fail "one.json $*: the copy's start and duration $(python3 tests/support/pprof_times.py "$tmp/w2.pb.gz"), the range's $(python3 tests/support/pprof_times.py "$tmp/w.pb.gz")"
  # the samples keep their instants: the copy's first at its start
  [ "$($PCOL cat "$tmp/w.json" --table samples --format tsv | awk -F'\t' 'NR == 2 {print $3}')" = 0 ] ||
    fail "one.json $*: the copy's first sample is not at its start: $($PCOL cat "$tmp/w.json" --table samples | head -3)"
done
# a marker the profiler fails on (a phase it does not handle; a time its
# phase needs is null): the profile has no range, pcol no duration
python3 tests/support/firefox_range.py "$tmp/v70.json" "$tmp/d.json" markers >/dev/null
for h in "['phase'][0] = 7" "['startTime'][1] = None"; do
  python3 -c "import json, sys; d = json.load(open(sys.argv[1])); m = d['threads'][-1]['markers']; m$h
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/d.json" "$tmp/h.json" || fail "making '$h'"
  $PCOL info "$tmp/h.json" --format json | grep -q '"duration_ns":[0-9]' &&
    fail "marker $h: a duration, where the profiler has no range: $($PCOL info "$tmp/h.json" | grep duration)"
done
# an export with no sample (markers only; a time range that holds none)
# has one empty thread: the Firefox Profiler refuses a profile of no
# threads ("This profile has no threads"), and opens this one on its range
python3 tests/support/firefox_range.py "$tmp/v70.json" "$tmp/om.json" only-markers >/dev/null
$PCOL unpack "$tmp/om.json" --to firefox --no-gzip -o "$tmp/om-e.json" || fail "unpack a profile of markers only"
$PCOL unpack examples/demo.out --to firefox --no-gzip --from-time 1000 -o "$tmp/late.json" ||
  fail "unpack a range past the samples"
python3 - "$tmp/om-e.json" "$tmp/late.json" <<'PY' || fail "an export of no sample: one empty thread"
import json, sys
for f, name in zip(sys.argv[1:], ("om.json", "demo.out")):
    d = json.load(open(f))
    assert len(d["threads"]) == 1, (f, len(d["threads"]))
    t = d["threads"][0]
    assert t["name"] == name and t["samples"]["length"] == 0 and t["samples"]["stack"] == [], (f, t)
PY
# --value weighs the samples by another value than the default (review 9
# F3: dotnet's default lock_time is 0 in every sample, and the profiler
# showed an empty call tree with its 3.21 s of CPU in a type not written);
# the copy reads back as pcol top --value of the input; a weight 0
# everywhere is said; a value no weight can be is refused, naming it
dn="$TD/ext/pprof/dotnet-211.pb.gz"
if [ -f "$dn" ]; then
  $PCOL unpack "$dn" --to firefox -o "$tmp/dn.ff" 2>"$tmp/err" || fail "dotnet: unpack --to firefox"
  grep -q "note: .*source 1: the value its samples weigh (lock_time) is 0 in every selected sample.*--value TYPE" "$tmp/err" ||
    fail "dotnet to firefox: no note that lock_time is 0 everywhere: $(cat "$tmp/err")"
  for v in cpu alloc_size samples; do
    $PCOL unpack "$dn" --to firefox --value $v -o "$tmp/dnv.ff" 2>"$tmp/err" || fail "dotnet: unpack --to firefox --value $v: $(cat "$tmp/err")"
    quiet "$tmp/err" || fail "dotnet --value $v: a note or warning: $(cat "$tmp/err")"
    want=$($PCOL top "$dn" --value $v -n 8 | sed -n '/^Showing nodes acc/,$p')
    got=$($PCOL top "$tmp/dnv.ff" -n 8 | sed -n '/^Showing nodes acc/,$p')
    [ -n "$want" ] && [ "$got" = "$want" ] || fail "dotnet --value $v: the copy's top is not the input's: $got"
  done
  $PCOL unpack "$TD/rprof/r-prof-profile__memory.out" --to firefox --value rprof.alloc -o "$tmp/no.ff" 2>"$tmp/err" &&
    fail "--value rprof.alloc to firefox: not refused"
  grep -q "value 'rprof.alloc' is not one the export can weigh samples by" "$tmp/err" ||
    fail "--value rprof.alloc to firefox: $(cat "$tmp/err")"
  [ ! -e "$tmp/no.ff" ] || fail "a refused export left a file"
  $PCOL unpack "$dn" --to pprof --value cpu -o "$tmp/no.pb" 2>"$tmp/err" && fail "--value to pprof: not refused"
  grep -q "pprof output keeps every value type" "$tmp/err" || fail "--value to pprof: $(cat "$tmp/err")"
fi
# a merged profile's value that one source weighs its samples by and
# another writes only as a counter (review 13 m4: a V8 profile's wall
# beside a Tachyon profile weighing samples, whose wall the import drops:
# the copy's --value wall answered 599 ms for 2715, silently): noted,
# naming the source and the way out, which keeps it
TB=tests/fixtures/tachyon/threads-wall-zstd.bin
$PCOL unpack "$TB" --value wall --tag tid=14575 --to v8 -o "$tmp/tb.cpuprofile" || fail "v8 of tid 14575"
$PCOL unpack "$tmp/tb.cpuprofile" "$TB" --to firefox -o "$tmp/vt.ff" 2>"$tmp/err" || fail "v8 + tachyon to firefox"
grep -q "note: .*source 2: its wall/nanoseconds is written only as a counter, .* while source 1 weighs its samples by it.*--value wall/nanoseconds" "$tmp/err" ||
  fail "v8 + tachyon to firefox: no note that source 2's wall is a counter only: $(cat "$tmp/err")"
[ "$(grep -v ": not written: " "$tmp/err" | grep -c note:)" = 1 ] || fail "v8 + tachyon to firefox: notes of the count too: $(cat "$tmp/err")"
want=$($PCOL top "$tmp/tb.cpuprofile" "$TB" --value wall | sed -n 3p)
$PCOL unpack "$tmp/tb.cpuprofile" "$TB" --to firefox --value wall -o "$tmp/vt.ff" 2>"$tmp/err" || fail "v8 + tachyon --value wall"
quiet "$tmp/err" || fail "v8 + tachyon --value wall to firefox: a note: $(cat "$tmp/err")"
got=$($PCOL top "$tmp/vt.ff" --value wall | sed -n 3p)
[ "$got" = "$want" ] || fail "v8 + tachyon --value wall: the copy's wall $got, the input's $want"
# the count of a row weighed by time or bytes (review 9): the profiler
# counts each sample 1, so pcolCount says a row's count where it is not 1
# (a Go CPU profile's samples/count 2 on two of its 48 rows), and the import reads it as the
# row's count: `top --value samples` of the copy is the input's
if [ -f "$TD/ext/pprof/go-cpu-phlaredb.pb.gz" ]; then
  g=$TD/ext/pprof/go-cpu-phlaredb.pb.gz
  $PCOL unpack "$g" --to firefox --no-gzip -o "$tmp/gp.json" || fail "unpack go-cpu-phlaredb"
  for v in samples cpu; do
    [ "$($PCOL top "$tmp/gp.json" --value $v --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" = \
      "$($PCOL top "$g" --value $v --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" ] ||
      fail "go-cpu-phlaredb through Firefox: --value $v: $($PCOL top "$tmp/gp.json" --value $v | grep total)"
  done
  python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["threads"][0]["samples"]; c = t["pcolCount"]
assert len(c) == t["length"] == 48 and sorted(c)[-3:] == [1, 2, 2] and sum(c) == 50, c' "$tmp/gp.json" || fail "pcolCount of go-cpu-phlaredb"
  # a merge whose default is the count (each source's own): the copy's too
  $PCOL unpack "$g" examples/demo.out --to firefox --no-gzip -o "$tmp/gm.json" 2>/dev/null || fail "unpack a merge"
  [ "$($PCOL top "$tmp/gm.json" --value samples | grep total)" = "$($PCOL top "$g" examples/demo.out --value samples | grep total)" ] ||
    fail "a merge through Firefox: $($PCOL top "$tmp/gm.json" --value samples | grep total)"
  # hostile counts: not a whole number, not a number, out of range
  # (each said so: review 14 m2, "3" and null were "nan is not a whole number")
  for h in '1.5:is not a whole number' '"x":not a number' '"3":not a number' 'null:not a number' \
           '1e300:out of range (a whole number below 2^63 in magnitude)' '1e19:out of range' '9223372036854775807:out of range' \
           '-9223372036854775808:out of range'; do
    python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); d["threads"][0]["samples"]["pcolCount"][0] = json.loads(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$tmp/gp.json" "$tmp/h.json" "${h%%:*}" || fail "making pcolCount ${h%%:*}"
    $PCOL top "$tmp/h.json" >/dev/null 2>"$tmp/err"
    [ $? = 1 ] && grep -qF "threads[0].samples.pcolCount[0]: " "$tmp/err" && grep -qF "${h#*:}" "$tmp/err" ||
      fail "pcolCount ${h%%:*}: $(cat "$tmp/err")"
  done
fi
# --value weight weighs by the weight column, not the count (go-cpu-phlaredb:
# 48 rows, 50 samples; the review of the day's diff, F2: the copy said 50)
gp="$TD/ext/pprof/go-cpu-phlaredb.pb.gz"
if [ -f "$gp" ]; then
  $PCOL unpack "$gp" --to firefox --value weight -o "$tmp/w.ff" 2>"$tmp/err" || fail "--value weight: $(cat "$tmp/err")"
  want=$($PCOL top "$gp" --value weight -n 4 2>/dev/null | sed -n '/^Showing nodes acc/,$p')
  got=$($PCOL top "$tmp/w.ff" -n 4 2>/dev/null | sed -n '/^Showing nodes acc/,$p')
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "--value weight -> firefox: the copy's top: $got; want $want"
fi
# a count that is not the samples' own (a goroutine profile's goroutine,
# --value inuse_objects) reads back as itself, not as the samples' count:
# the copy's top and top --value samples are the input's (before, the copy
# counted 10 goroutines as its samples, where the input has 9)
for spec in "$TD/ext/pprof/go-goroutine-nethttp.pb.gz|" "$TD/pprof/go-heap-allocs-inline.pb.gz|--value inuse_objects"; do
  f=${spec%%|*} o=${spec#*|}
  [ -f "$f" ] || continue
  $PCOL unpack "$f" --to firefox $o -o "$tmp/nc.ff" 2>"$tmp/err" || fail "$f $o: unpack --to firefox: $(cat "$tmp/err")"
  for v in "$o" "--value samples"; do
    # (pprof's "(inline)" marks are not kept: mappings §8.2)
    want=$($PCOL top "$f" $v -n 6 2>/dev/null | sed -n -e '2p' -e '/^Showing nodes acc/,$p' | sed 's/ (inline)$//')
    got=$($PCOL top "$tmp/nc.ff" $([ "$v" = "$o" ] || echo $v) -n 6 2>/dev/null | sed -n -e '2p' -e '/^Showing nodes acc/,$p')
    [ -n "$want" ] && [ "$got" = "$want" ] || fail "$(basename "$f") $o -> firefox: top ${v:-(default)} of the copy: $got; want $want"
  done
done
# a period longer than the profile it samples is no sampling interval (THE
# interval rule, lasts.c): Pyroscope's pprof files state 10^9 ms for an
# hour's profile, whose samples were laid 10^9 ms apart (the Firefox
# Profiler showed 13.9 and 52.7 years; review 13 F1); the copy's times and
# range stay within the stated hour, and its Rprof export is at 10 ms a
# sample, as a source that states none (before 80d5d680, 10^12 us)
for f in "$TD/ext/pprof/python-cpu-pyroscope.pb.gz" "$TD/ext/pprof/ruby-cpu-pyroscope.pb.gz"; do
  [ -f "$f" ] || continue
  $PCOL unpack "$f" --to firefox -o "$tmp/py.ff" 2>"$tmp/err" || fail "$f -> firefox: $(cat "$tmp/err")"
  python3 - "$tmp/py.ff" <<'PY' || fail "$f -> firefox: the times pass the stated hour"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["meta"]
hi = m["profilingEndTime"] - m.get("profilingStartTime", 0)
ts = [t for th in d["threads"] for t in (th["samples"].get("time") or [])]
assert 0 < m["interval"] <= 3600000 and hi <= 3600000 and ts and max(ts) <= 3600000, (m["interval"], hi, max(ts or [0]))
PY
  want=$($PCOL top "$f" 2>/dev/null | sed -n '/^Showing nodes acc/,$p')
  [ -n "$want" ] && [ "$($PCOL top "$tmp/py.ff" --value samples 2>/dev/null | sed -n '/^Showing nodes acc/,$p')" = "$($PCOL top "$f" --value samples 2>/dev/null | sed -n '/^Showing nodes acc/,$p')" ] ||
    fail "$f -> firefox: top --value samples of the copy differs"
done
# without a duration such a period stays, and the copy's synthetic times
# saturate, never going back (INT64_MAX ns: 1 x it, then 2 x overflowed
# to half of it), so pcol reads its own copy (review diff5 F3)
python3 tests/support/pprofgen.py period "$tmp/phuge.pb" 9223372036854775807 nanoseconds 5 || fail "pprofgen period"
$PCOL unpack "$tmp/phuge.pb" --to firefox -o "$tmp/phuge.ff" 2>/dev/null || fail "period INT64_MAX -> firefox"
$PCOL pack "$tmp/phuge.ff" -o "$tmp/phuge.pcol" 2>"$tmp/err" || fail "period INT64_MAX: pcol refuses its Firefox copy: $(cat "$tmp/err")"
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['threads'][0]['samples']['time']; assert t == sorted(t), t" "$tmp/phuge.ff" ||
  fail "period INT64_MAX -> firefox: the times go back"
f=$TD/ext/pprof/python-cpu-pyroscope.pb.gz
if [ -f "$f" ]; then
  $PCOL unpack "$f" --to rprof -o "$tmp/py.out" 2>/dev/null || fail "$f -> rprof"
  [ "$(head -1 "$tmp/py.out")" = "line profiling: sample.interval=10000" ] || fail "$f -> rprof: $(head -1 "$tmp/py.out")"
fi
echo "t_firefox: ok"
