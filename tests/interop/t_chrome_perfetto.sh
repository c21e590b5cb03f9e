#!/usr/bin/env bash
# A real producer of Perfetto traces: headless Chromium records a protobuf
# trace through the DevTools protocol (chrome_record.cjs --proto:
# Tracing.start, streamFormat "proto", the category
# disabled-by-default-cpu_profiler, whose TracingSamplerProfiler writes
# StreamingProfilePacket) of a page that burns CPU for 1.5 s.  pcol must
# read the trace as Perfetto (exit 0; its track events, descriptors, clock
# snapshots, sequence-scoped clocks and interned data are all there), with a
# start and duration that are the trace's (not a sequence clock's deltas);
# when the sampler wrote samples (a Chromium built with its stack sampler;
# Debian's Chromium 156 writes none), they are the "Chrome sampler" source,
# every one on a thread with a pid and tid.  Skipped without chromium or
# node.
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
out=$($PCOL info "$tmp/t.pftrace" --format json 2>&1) || fail "pcol info: $out"
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
print("t_chrome_perfetto: %d samples from Chrome's sampler%s" % (n, "" if n else
      " (this Chromium's sampler wrote none: the trace's reading alone is checked)"))
for b in bad:
    print("t_chrome_perfetto: " + b)
sys.exit(1 if bad else 0)
PY
n=$($PCOL top "$tmp/t.pftrace" --value samples --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
if [ "$n" != 0 ]; then
  t=$($PCOL tags "$tmp/t.pftrace" --value samples --format json | python3 -c '
import json, sys
rows = json.load(sys.stdin)["rows"]
print(sum(r["amount"] for r in rows if r["key"] == "tid"))')
  [ "$t" = "$n" ] || fail "$n samples, $t of them with a tid"
fi
echo "t_chrome_perfetto: ok"
