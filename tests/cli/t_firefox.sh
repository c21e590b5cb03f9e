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
#  - round trip: firefox -> pcol -> firefox -> pcol keeps pcol top.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_firefox: $*" >&2; exit 1; }
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

# --- import
for kind in v70 v48 tracing gecko; do
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
# a processed profile older than pcol reads: refused, saying how to upgrade
# it (the profiler's own upgraders); a newer one: refused, versions named
printf '{"meta":{"preprocessedProfileVersion":7,"version":10},"threads":[]}' >"$tmp/v7.json"
printf '{"meta":{"preprocessedProfileVersion":999,"version":10},"threads":[]}' >"$tmp/v999.json"
$PCOL pack --from firefox "$tmp/v7.json" -o "$tmp/v7.pcol" 2>"$tmp/err" && fail "a version 7 profile packed"
grep -q 'processed profile version 7; pcol reads versions .* (profiler.firefox.com upgrades older ones: load it there and download it again)' "$tmp/err" ||
  fail "version 7: $(cat "$tmp/err")"
$PCOL pack --from firefox "$tmp/v999.json" -o "$tmp/v999.pcol" 2>"$tmp/err" && fail "a version 999 profile packed"
grep -q 'processed profile version 999; pcol reads versions [0-9]* to [0-9]*$' "$tmp/err" || fail "version 999: $(cat "$tmp/err")"
echo "t_firefox: ok"
