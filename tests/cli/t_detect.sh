#!/usr/bin/env bash
# Detection by content, whatever wraps it (issue 41):
# - every format pcol reads, gzip- or zstd-compressed (a file or standard
#   input), is unwrapped and detected by what it holds: the same format in
#   `pcol info` and the same `pcol top` as the plain file; a truncated
#   stream or one past the inflate cap is refused with its own message;
# - a file of a format pcol recognises but does not read is refused with
#   that format's name, anything else as unrecognised: never as a broken
#   file of a format it is not (JSON is no Perun file, binary no pprof).
set -u -o pipefail
PCOL=${PCOL:-build/bin/pcol}
# top without its first line (the file's name)
top() { $PCOL top "$@" --node-fraction 0 | grep -v '^File: '; }
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_detect: $*" >&2; exit 1; }
command -v zstd >/dev/null || { echo "t_detect: SKIP (zstd not installed)"; exit 0; }

# ---------------------------------------------------------------- one file of each format
gzip -dc "$TD/pprof/go-cpu-inline-small.pb.gz" >"$tmp/pprof.pb"
cp tests/fixtures/rprof/names.out "$tmp/rprof.out"
cp tests/fixtures/perun/time.perf "$tmp/perun.perf"
cp tests/fixtures/collapsed/simple.folded "$tmp/collapsed.folded"
python3 tests/support/gen_perf_script.py "$tmp/perf.txt" /dev/null --samples 50 --seed 3 || fail "perf generator"
cat >"$tmp/v8.cpuprofile" <<'J'
{"nodes": [
 {"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "", "lineNumber": -1, "columnNumber": -1}, "children": [2]},
 {"id": 2, "callFrame": {"functionName": "main", "scriptId": "1", "url": "file:///m.js", "lineNumber": 1, "columnNumber": 0}, "children": [3]},
 {"id": 3, "callFrame": {"functionName": "work", "scriptId": "1", "url": "file:///m.js", "lineNumber": 9, "columnNumber": 2}}],
 "startTime": 1000, "endTime": 5000, "samples": [2, 3, 3, 2], "timeDeltas": [0, 1000, 1000, 1000]}
J
$PCOL pack "$tmp/pprof.pb" -o "$tmp/pcol.pcol" || fail "pack"
$PCOL unpack "$tmp/pcol.pcol" --to speedscope -o "$tmp/speedscope.json" || fail "unpack speedscope"
$PCOL unpack "$tmp/pcol.pcol" --to firefox --no-gzip -o "$tmp/firefox.json" || fail "unpack firefox"
$PCOL unpack "$tmp/pcol.pcol" --to otlp -o "$tmp/otlp.pb" || fail "unpack otlp"
for f in pprof.pb rprof.out perun.perf collapsed.folded perf.txt v8.cpuprofile speedscope.json firefox.json otlp.pb pcol.pcol; do
  want=${f%%.*}
  [ $want = pcol ] && want= # info names no input format for a pcol file
  got=$($PCOL info "$tmp/$f" | awk '/input_format:/{print $2}')
  [ "$got" = "$want" ] || fail "$f: detected as '$got', not $want"
  top "$tmp/$f" >"$tmp/plain.top" 2>"$tmp/err" || fail "top $f: $(cat "$tmp/err")"
  gzip -c "$tmp/$f" >"$tmp/$f.gz"
  zstd -q -c "$tmp/$f" >"$tmp/$f.zst"
  for z in gz zst; do
    got=$($PCOL info "$tmp/$f.$z" | awk '/input_format:/{print $2}')
    [ "$got" = "$want" ] || fail "$f.$z: detected as '$got', not $want"
    top "$tmp/$f.$z" >"$tmp/z.top" 2>"$tmp/err" || fail "top $f.$z: $(cat "$tmp/err")"
    diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "$f.$z: top differs from the plain file's"
  done
  # standard input, and pack: the same
  top - <"$tmp/$f.zst" >"$tmp/z.top" 2>"$tmp/err" || fail "top - <$f.zst: $(cat "$tmp/err")"
  diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "$f.zst on standard input: top differs"
done
# several gzip members and zstd frames are one input
{ head -c 300 "$tmp/perf.txt" | gzip -c; tail -c +301 "$tmp/perf.txt" | gzip -c; } >"$tmp/two.gz"
{ head -c 300 "$tmp/perf.txt" | zstd -q -c; tail -c +301 "$tmp/perf.txt" | zstd -q -c; } >"$tmp/two.zst"
top "$tmp/perf.txt" >"$tmp/plain.top"
for z in gz zst; do
  top "$tmp/two.$z" >"$tmp/z.top" 2>"$tmp/err" || fail "two members ($z): $(cat "$tmp/err")"
  diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "two members ($z): top differs"
done
# a truncated stream is refused as such, whatever the format inside
for z in gz zst; do
  n=$(( $(wc -c <"$tmp/speedscope.json.$z") - 20 ))
  head -c $n "$tmp/speedscope.json.$z" >"$tmp/cut.$z"
  $PCOL pack "$tmp/cut.$z" -o "$tmp/cut.pcol" 2>"$tmp/err" && fail "a truncated $z stream was read"
  name=$([ $z = gz ] && echo gzip || echo zstd)
  grep -q "cut.$z: truncated $name stream" "$tmp/err" || fail "truncated $z: $(cat "$tmp/err")"
  [ -e "$tmp/cut.pcol" ] && fail "truncated $z: output written"
done
# a zstd bomb stops at the inflate cap (64 x the compressed size, >= 32 MiB)
yes 'a;b 1' | head -c 40000000 | zstd -q -c >"$tmp/bomb.zst"
$PCOL pack "$tmp/bomb.zst" -o "$tmp/bomb.pcol" 2>"$tmp/err" && fail "zstd bomb read"
grep -q 'bomb.zst: zstd data inflates to more than 33554432 bytes' "$tmp/err" || fail "zstd bomb: $(cat "$tmp/err")"

echo "t_detect: ok"
