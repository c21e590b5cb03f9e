#!/usr/bin/env bash
# CLI: `pcol report` without a browser (tests/interop/t_report.sh drives the
# page in Chromium): options and exit codes, atomic output, a self-contained
# page (no external script, style, font or link), its embedded data, and the
# size promise: a page of a 100k-sample profile is no larger than its pcol file.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_report: FAIL: $*" >&2; exit 1; }

{
  echo 'memory profiling: sample.interval=20000'
  for i in $(seq 1 40); do echo ":$((1000 + i * 10)):2000:$((3000 + i)):0:\"inner\" \"work\" \"main\" "; done
  for i in $(seq 1 12); do echo ':1500:2100:3100:0:"parse" "read" "main" '; done
} > "$tmp/a.out"
"$PCOL" pack "$tmp/a.out" --coalesce -o "$tmp/a.pcol" || fail "pack"
{ echo 'sample.interval=20000'
  for i in $(seq 1 40); do echo '"inner" "work" "main" '; done
  for i in $(seq 1 12); do echo '"parse" "read" "main" '; done; } > "$tmp/b.out"
"$PCOL" pack "$tmp/b.out" --coalesce -o "$tmp/b.pcol" || fail "pack b"

"$PCOL" report "$tmp/a.pcol" 2>/dev/null; [ $? = 2 ] || fail "missing -o is a usage error"
# two inputs: the page of their union (tests/cli/t_many.sh)
"$PCOL" report "$tmp/a.pcol" "$tmp/a.out" -o "$tmp/x.html" 2>/dev/null || fail "a report of two inputs"
"$PCOL" report - --diff - -o "$tmp/x.html" </dev/null 2>/dev/null; [ $? = 2 ] || fail "stdin twice is a usage error"
echo 'not a profile' > "$tmp/bad.txt"
"$PCOL" report "$tmp/bad.txt" -o "$tmp/bad.html" 2>"$tmp/err"; [ $? = 1 ] || fail "bad input exits 1"
grep -q 'bad.txt' "$tmp/err" || fail "the message names the input"
[ ! -e "$tmp/bad.html" ] || fail "a failed report left a file"
ls "$tmp" | grep -q '\.tmp' && fail "a temporary file was left behind"
"$PCOL" report --help | grep -q -- '--diff' || fail "--help documents --diff"
# --divide-by: refused as the views refuse it (exit 2, top's message), no
# page left; a divisor taken is embedded as F (the page divides: t_report_compute.sh)
for F in 0 -1 x 1e400 ' 3' ''; do
  "$PCOL" report "$tmp/a.pcol" --divide-by "$F" -o "$tmp/dv.html" 2>"$tmp/err"; rc=$?
  "$PCOL" top "$tmp/a.pcol" --divide-by "$F" >/dev/null 2>"$tmp/err.top"
  [ $rc = 2 ] && [ ! -e "$tmp/dv.html" ] || fail "report --divide-by '$F' exits $rc (want 2, no page)"
  [ "$(sed 's/^pcol report: //' "$tmp/err")" = "$(sed 's/^pcol top: //; s/pcol top --help/pcol report --help/' "$tmp/err.top")" ] ||
    fail "report --divide-by '$F' says $(head -1 "$tmp/err"), top $(head -1 "$tmp/err.top")"
done
"$PCOL" report "$tmp/a.pcol" --divide-by 0.5 -o "$tmp/dv.html" && grep -q '"divide_by":0.5,' "$tmp/dv.html" || fail "report --divide-by 0.5"

"$PCOL" report "$tmp/a.pcol" -o "$tmp/a.html" --title 'T <x> & "y"' || fail "report"
"$PCOL" report "$tmp/a.out" -o - > "$tmp/stdout.html" || fail "report of Rprof text to stdout"
"$PCOL" report "$tmp/a.pcol" --diff "$tmp/a.out" -o "$tmp/d.html" || fail "report --diff"
for h in a stdout d; do
  f=$tmp/$h.html
  head -c 15 "$f" | grep -q '<!doctype html>' || fail "$h.html is not HTML"
  grep -Eiq '<script[^>]* src=|<link |@import|url\(|<iframe|<img ' "$f" && fail "$h.html loads something from outside"
  [ "$(grep -c 'id="pcol-meta"' "$f")" = 1 ] || fail "$h.html has no data"
done
grep -q 'T \\u003cx\\u003e \\u0026 \\"y\\"' "$tmp/a.html" || fail "the title is escaped in the embedded JSON"
grep -q '"diff":{"path":' "$tmp/d.html" || fail "--diff embeds the base's shares"
if command -v python3 >/dev/null; then
  python3 - "$tmp/a.html" <<'PY' || fail "embedded data"
import base64, json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
meta = json.loads(re.search(r'<script id="pcol-meta" type="application/json">(.*?)</script>', html, re.S).group(1))
data = base64.b64decode(re.search(r'<script id="pcol-bin" type="text/plain">(.*?)</script>', html, re.S).group(1))
assert len(data) == meta["bin_len"], (len(data), meta["bin_len"])
if "bin_raw" in meta:  # deflated (raw): data.js's pcolInflate
    import zlib
    data = zlib.decompress(data, -15)
    assert len(data) == meta["bin_raw"], (len(data), meta["bin_raw"])
src = meta["sources"][0]
assert src["type"] == "rprof" and src["timed"] == 1 and src["t1"] == 51 * 20000000, src
vals = [v["cli"] for v in meta["values"]]
assert "rprof.alloc" in vals and "samples" in vals and "cpu" in vals, vals
assert vals[meta["value"]] == "cpu", vals  # an Rprof source's default: its time
assert meta["memory"], meta
PY
  "$PCOL" report "$tmp/b.pcol" -o "$tmp/b.html" || fail "report of long samples"
  python3 - "$tmp/b.html" <<'PY' || fail "embedded long samples"
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
meta = json.loads(re.search(r'<script id="pcol-meta" type="application/json">(.*?)</script>', html, re.S).group(1))
assert meta["cols"]["dur"]["e"] != "c" and meta["n"] == 2 and meta["sources"][0]["t1"] == 52 * 20000000, meta
PY
fi

# size: 100k samples (one row each: times every 20 ms, a few stacks)
awk 'BEGIN { print "sample.interval=20000"; for (i = 0; i < 100000; i++) {
  k = int((i * 7919) % 13); printf "\"f%d\" \"g%d\" \"main\" \n", k, k % 3 } }' > "$tmp/big.out"
"$PCOL" pack "$tmp/big.out" -o "$tmp/big.pcol" || fail "pack big"
"$PCOL" report "$tmp/big.pcol" -o "$tmp/big.html" || fail "report big"
ps=$(stat -c %s "$tmp/big.pcol"); hs=$(stat -c %s "$tmp/big.html")
echo "t_report: 100k samples: pcol $ps bytes, page $hs bytes" >&2
[ "$hs" -le "$ps" ] || fail "the page ($hs bytes) is larger than its pcol file ($ps bytes)"
exit 0
