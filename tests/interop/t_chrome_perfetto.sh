#!/usr/bin/env bash
# A real producer of Perfetto traces: headless Chromium records a protobuf
# trace through the DevTools protocol (chrome_record.cjs --proto:
# Tracing.start, streamFormat "proto", the category
# disabled-by-default-cpu_profiler, whose TracingSamplerProfiler writes
# StreamingProfilePacket) of a page that burns CPU for 1.5 s.  When the
# sampler wrote samples (a Chromium built with its stack sampler), pcol must
# read the trace as Perfetto (its track events, descriptors, clock
# snapshots, sequence-scoped clocks and interned data are all there), with a
# start and duration that are the trace's (not a sequence clock's deltas),
# the samples the "Chrome sampler" source, every one on a thread with a pid
# and tid; when it wrote none (Debian's Chromium 156), the trace is refused
# as a Perfetto trace without samples, naming the file.  Then V8's CPU profiler as a
# Chromium user records it: `--trace-startup` with the category
# disabled-by-default-v8.cpu_profiler, protobuf (Chromium's default) and
# JSON (--trace-startup-format=json), of the same page: the protobuf
# trace's V8 profile (legacy "Profile"/"ProfileChunk" track events) must
# read as non-empty, every answer equal to the ns to the same events as a
# JSON trace (tests/support/pftrace_v8_json.py writes them from the trace,
# from Perfetto's protos) but for the timeline: the trace's clock
# snapshots place V8's clock (its Profile event's: a sequence clock on
# CLOCK_MONOTONIC, Chromium's trace clock on Linux) on the trace's
# timeline and wall clock (doc/mappings.md §17), so every sample is moved
# by one constant from the JSON copy's (each profile's duration its own span in both: review 18 F10), every source has the trace's
# wall-clock start, and the page's busy loop (burnOuter) is sampled inside
# the trace's own FunctionCall slice that ran it (none before it, none
# 0.2 s after: a sample lasts until the next one), the slice placed by
# tests/support/pftrace_slices.py (trace_processor's clock rules, not
# pcol's code: before, no Time: and another timeline, review-diff2 F9);
# and the page's 1.5 s busy loop must read as
# 1.5 s in both recordings (two runs: their samples differ, the loop's
# length does not; before, the protobuf trace read as 0 samples, exit 0:
# review 10 F1).  Skipped without chromium or node.
set -u
PCOL=${PCOL:-build/bin/pcol}
BROWSER=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$BROWSER" ] || { echo "t_chrome_perfetto: SKIP: chromium is not installed"; exit 0; }
command -v node >/dev/null || { echo "t_chrome_perfetto: SKIP: node is not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_chrome_perfetto: FAIL: $*" >&2; exit 1; }
cat > "$tmp/page.html" <<'HTML'
<!doctype html><html><head><title>busy</title></head><body><script>
function burnInner(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i) * Math.sin(i); return s; }
function burnOuter() { let t = 0; const end = performance.now() + 1500; while (performance.now() < end) t += burnInner(20000); return t; }
setTimeout(() => { burnOuter(); document.title = 'done'; }, 200);
</script></body></html>
HTML
timeout 120 node tests/interop/chrome_record.cjs --proto "$BROWSER" "$tmp/page.html" "$tmp/t.pftrace" || fail "recording failed"
out=$($PCOL info "$tmp/t.pftrace" --format json 2>&1); rc=$?
if [ $rc = 1 ]; then
  # no sampler packets (Debian's Chromium 156 writes none): refused as a
  # Perfetto trace without samples, naming the file (doc/mappings.md §17)
  case $out in *t.pftrace*"a Perfetto trace without CPU samples"*) ;; *) fail "pcol info: $out" ;; esac
  echo "t_chrome_perfetto: 0 samples from Chrome's sampler (this Chromium's sampler wrote none: refused as a Perfetto trace without samples)"
else
  [ $rc = 0 ] || fail "pcol info: exit $rc: $out"
  $PCOL info "$tmp/t.pftrace" | grep -q 'input_format: *perfetto' || fail "not detected as perfetto"
  python3 - "$out" <<'PY' || fail "the trace's reading"
import json, sys
rows = json.loads(sys.argv[1])["rows"]
bad = []
for r in rows:
    # the recording lasted a few seconds: a start or span taken from a
    # sequence clock's deltas would say hours
    if r["duration_ns"] is None or not 0 < r["duration_ns"] < 120e9:
        bad.append("duration %s ns" % r["duration_ns"])
n = sum(r["samples"] for r in rows)
print("t_chrome_perfetto: %d samples from Chrome's sampler" % n)
for b in bad:
    print("t_chrome_perfetto: " + b)
sys.exit(1 if bad else 0)
PY
  n=$($PCOL top "$tmp/t.pftrace" --value samples --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
  t=$($PCOL tags "$tmp/t.pftrace" --value samples --format json | python3 -c '
import json, sys
rows = json.load(sys.stdin)["rows"]
print(sum(r["amount"] for r in rows if r["key"] == "tid"))')
  [ "$t" = "$n" ] || fail "$n samples, $t of them with a tid"
fi
startup() { # OUT [FORMAT]
  # Chromium writes the trace when --trace-startup-duration ends but does
  # not exit: it is stopped once the file has kept its size 3 s (before, it
  # ran to the timeout, 90 s a recording)
  local ud pid size=-1 same=0 i s
  ud=$(mktemp -d)
  rm -f "$1"
  timeout 90 "$BROWSER" --headless=new --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
    --disable-background-networking --disable-component-update --disable-sync --no-pings --user-data-dir="$ud" \
    --trace-startup='devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-v8.cpu_profiler,v8' \
    ${2:+--trace-startup-format=$2} --trace-startup-file="$1" --trace-startup-duration=12 "file://$tmp/page.html" \
    >/dev/null 2>&1 &
  pid=$!
  for i in $(seq 1 88); do
    sleep 1
    kill -0 $pid 2>/dev/null || break
    [ -s "$1" ] || continue
    s=$(stat -c %s "$1")
    if [ "$s" = "$size" ]; then same=$((same + 1)); [ $same -ge 3 ] && break; else same=0; size=$s; fi
  done
  kill $pid 2>/dev/null   # timeout passes the TERM on to Chromium
  wait $pid 2>/dev/null
  rm -rf "$ud"
  [ -s "$1" ] || fail "chromium --trace-startup wrote no $1"
}
# V8's profiler through --trace-startup, protobuf and JSON, judged; exit 2
# when only the recording is off (on a loaded machine V8 may write "(idle)"
# samples inside the busy loop, or the loop's slice ends early), and then
# both traces are recorded once more
v8_round() {
startup "$tmp/s.pftrace"
startup "$tmp/s.json" json
$PCOL info "$tmp/s.pftrace" | grep -q 'input_format: *perfetto' || fail "--trace-startup (protobuf): not detected as perfetto"
python3 tests/support/pftrace_v8_json.py "$tmp/s.pftrace" "$tmp/s_copy.json" >/dev/null || fail "the JSON copy of the protobuf trace"
for f in s.pftrace s_copy.json s.json; do
  $PCOL top "$tmp/$f" --node-fraction 0 --format json > "$tmp/$f.top" || fail "$f: top: $($PCOL top "$tmp/$f" 2>&1 | head -3)"
  $PCOL info "$tmp/$f" --format json > "$tmp/$f.info" || fail "$f: info"
  [ $f = s.json ] && continue
  $PCOL fold "$tmp/$f" > "$tmp/$f.fold" || fail "$f: fold"
  $PCOL tags "$tmp/$f" --value samples --format json > "$tmp/$f.tags" || fail "$f: tags"
  $PCOL cat "$tmp/$f" --table samples --format json > "$tmp/$f.samples" || fail "$f: cat samples"
  $PCOL cat "$tmp/$f" --table meta --format json > "$tmp/$f.meta" || fail "$f: cat meta"
done
# the page's busy loop on the trace's own timeline: its FunctionCall slice
python3 tests/support/pftrace_slices.py "$tmp/s.pftrace" FunctionCall > "$tmp/s.slices" || fail "the trace's slices"
python3 - "$tmp" "$PCOL" <<'PY'; rc=$?
import json, subprocess, sys, time
d, pcol, bad = sys.argv[1], sys.argv[2], []
rec = []  # the recording's own faults (the page's loop not run as written), not pcol's
def load(f, k):
    return json.load(open("%s/%s.%s" % (d, f, k)))
def strip(x, f):
    return json.loads(json.dumps(x).replace("%s/%s" % (d, f), "FILE"))
# the same recording, protobuf and its JSON copy: every answer equal but
# the timeline (the protobuf trace's is the trace's: one shift for all)
for k in ("top", "tags"):
    a, b = strip(load("s.pftrace", k), "s.pftrace"), strip(load("s_copy.json", k), "s_copy.json")
    if a != b:
        bad.append("%s differs from the JSON copy's: %s ... / %s ..." % (k, json.dumps(a)[:300], json.dumps(b)[:300]))
# (span_start_ns: pcol.span_start_ns, on each form's own timeline, as NOW's below)
TIMES = ("time_ns", "first_ns", "end_ns", "duration_ns", "timestamp", "span_start_ns")
a, b = load("s.pftrace", "samples"), load("s_copy.json", "samples")
shift = {x["time_ns"] - y["time_ns"] for x, y in zip(a, b)}
if len(a) != len(b) or len(shift) != 1 or [dict(x, time_ns=0) for x in a] != [dict(y, time_ns=0) for y in b]:
    bad.append("samples differ from the JSON copy's by more than one shift of time: %r" % sorted(shift)[:5])
shift = shift.pop() if len(shift) == 1 else None
a, b = strip(load("s.pftrace", "info"), "s.pftrace")["rows"], strip(load("s_copy.json", "info"), "s_copy.json")["rows"]
if [{k: v for k, v in r.items() if k not in TIMES} for r in a] != [{k: v for k, v in r.items() if k not in TIMES} for r in b]:
    bad.append("info differs from the JSON copy's")
if any(r["first_ns"] - s["first_ns"] != shift for r, s in zip(a, b)):
    bad.append("info: the first samples not moved by the samples' shift")
# each profile's span its own, as DevTools shows it, read from either form
# (review 18 F10: the protobuf trace's ran from the trace's start)
if [r["duration_ns"] for r in a] != [r["duration_ns"] for r in b]:
    bad.append("durations %r, the JSON copy's %r" % ([r["duration_ns"] for r in a], [r["duration_ns"] for r in b]))
if any(not r["timestamp"] or abs(r["timestamp"] - time.time()) > 3600 for r in a) or any(r["timestamp"] for r in b):
    bad.append("wall-clock starts: %r (the JSON copy: %r)" % ([r["timestamp"] for r in a], [r["timestamp"] for r in b]))
if open(d + "/s.pftrace.fold").read() != open(d + "/s_copy.json.fold").read():
    bad.append("fold differs from the JSON copy's")
NOW = ("chrome.duration_events", "v8.time_origin_us", "pcol.span_start_ns", "pprof.time_nanos")
meta = lambda f: sorted((r["source_id"], r["key"], r["value"]) for r in strip(load(f, "meta"), f) if r["key"] not in NOW)
ma, mb = meta("s.pftrace"), meta("s_copy.json")
if ma != mb:
    bad.append("meta differs from the JSON copy's: %r only in the protobuf trace's, %r only in the copy's"
               % (sorted(set(ma) - set(mb))[:6], sorted(set(mb) - set(ma))[:6]))
# burnOuter's samples, by wall-clock time, inside the slice of its call
slices = [json.loads(l) for l in open(d + "/s.slices")]
call = max(slices, key=lambda x: x["end"] - x["begin"], default=None)
def utc(ns):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ns // 10**9)) + ".%09dZ" % (ns % 10**9)
# V8's own pseudo-frames: on a loaded machine its sampler writes some of
# the busy loop's ticks as these (the recording's, not pcol's)
PSEUDO = ("(idle)", "(program)", "(garbage collector)")
def burn(a, b, pseudo=False):
    r = subprocess.run([pcol, "top", d + "/s.pftrace", "--from", utc(a), "--to", utc(b), "--node-fraction", "0",
                        "--format", "json"], capture_output=True, text=True)
    if r.returncode:
        return -1
    rows = json.loads(r.stdout)["rows"]
    if pseudo:
        return sum(x["flat"] for x in rows if x["name"] in PSEUDO) / 1e9
    return max([x["cum"] for x in rows if x["name"] == "burnOuter"] or [0]) / 1e9
if not call or not 1.4e9 <= call["end"] - call["begin"] <= 1.7e9:
    rec.append("no FunctionCall slice of the page's 1.5 s loop: %r" % call)
else:
    # (a V8 sample lasts until the next one: the last one inside the call
    # may reach past its end by a sampling gap, tens of ms on a loaded
    # machine; none may start 0.2 s after it, nor any before it)
    b, e = call["begin"], call["end"]
    inside, before, after, later = burn(b, e), burn(b - 10**10, b), burn(e, e + 2 * 10**8), burn(e + 2 * 10**8, e + 10**10)
    pseudo = burn(b, e, True)
    print("t_chrome_perfetto: the loop's FunctionCall slice %.3f s: burnOuter %.3f s inside it (V8's pseudo-frames "
          "%.3f s), %.3f s before, %.3f s in the 0.2 s after, %.3f s later" % ((e - b) / 1e9, inside, pseudo, before,
                                                                            after, later))
    if before or later or not 0 <= after < 0.2:
        bad.append("burnOuter not inside the trace's slice of it")
    elif not 1.4 <= inside + pseudo:  # none outside it: the loop itself was sampled short
        rec.append("burnOuter %.3f s inside the trace's slice of it, and V8's pseudo-frames %.3f s: not 1.5 s"
                   % (inside, pseudo))
# the page's loop: burnOuter runs 1.5 s (performance.now()), in each recording
def cum(f, name):
    return max([r["cum"] for r in load(f, "top")["rows"] if r["name"] == name] or [0]) / 1e9
n = sum(r["samples"] for r in load("s.pftrace", "info")["rows"])
for f in ("s.pftrace", "s.json"):
    c = cum(f, "burnOuter")
    # (at least 1.2 s: the pseudo-frames above may take some of its ticks;
    # before, the protobuf trace read as 0 samples)
    if not 1.2 <= c <= 1.65:
        rec.append("%s: burnOuter %.3f s, not the page's 1.5 s" % (f, c))
    print("t_chrome_perfetto: --trace-startup %s: burnOuter %.3f s, burnInner %.3f s, %d samples in %d profiles"
          % ("protobuf" if f.endswith("pftrace") else "JSON    ", c, cum(f, "burnInner"),
             sum(r["samples"] for r in load(f, "info")["rows"]), len(load(f, "info")["rows"])))
if not n:
    bad.append("the protobuf trace read as 0 samples")
for b in bad + rec:
    print("t_chrome_perfetto: " + b)
sys.exit(1 if bad else 2 if rec else 0)
PY
[ $rc = 0 ] || [ $rc = 2 ] || fail "--trace-startup: the protobuf trace's V8 profile"
return $rc
}
v8_round; rc=$?
if [ $rc = 2 ]; then
  echo "t_chrome_perfetto: the recording itself was off (above): recording once more"
  v8_round || fail "--trace-startup: the recording was off twice (above)"
fi
echo "t_chrome_perfetto: ok"
