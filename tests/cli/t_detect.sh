#!/usr/bin/env bash
# Detection by content, whatever wraps it (issue 41, items 3 and 4):
# - every format pcol reads, gzip-, zstd- or lz4-compressed (a file or standard
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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_detect: $*" >&2; exit 1; }
command -v zstd >/dev/null || { echo "t_detect: SKIP (zstd not installed)"; exit 0; }
# lz4's frame format too, when the lz4 tool is here to write it
lz4=lz4
command -v lz4 >/dev/null || { echo "t_detect: lz4 not installed: its checks skipped"; lz4=; }

# ---------------------------------------------------------------- one file of each format
# (a pprof profile made here, so that the test needs no shared test data)
python3 tests/support/semantics_pprof.py "$tmp" || fail "semantics_pprof.py"
gzip -dc "$tmp/labels.pb.gz" >"$tmp/pprof.pb"
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
  [ -z "$lz4" ] || lz4 -q -c "$tmp/$f" >"$tmp/$f.lz4"
  for z in gz zst $lz4; do
    got=$($PCOL info "$tmp/$f.$z" | awk '/input_format:/{print $2}')
    [ "$got" = "$want" ] || fail "$f.$z: detected as '$got', not $want"
    top "$tmp/$f.$z" >"$tmp/z.top" 2>"$tmp/err" || fail "top $f.$z: $(cat "$tmp/err")"
    diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "$f.$z: top differs from the plain file's"
  done
  # standard input, and pack: the same
  for z in zst $lz4; do
    top - <"$tmp/$f.$z" >"$tmp/z.top" 2>"$tmp/err" || fail "top - <$f.$z: $(cat "$tmp/err")"
    diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "$f.$z on standard input: top differs"
  done
  # a pipe that is a path (`<(cmd)`, a FIFO): read once, never looked at
  # first (that read would leave the import nothing)
  for z in "" .gz; do
    top <(cat "$tmp/$f$z") >"$tmp/z.top" 2>"$tmp/err" || fail "top <(cat $f$z): $(cat "$tmp/err")"
    diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "$f$z through <(cat): top differs"
  done
  $PCOL pack <(cat "$tmp/$f") -o "$tmp/fifo.pcol" 2>"$tmp/err" || fail "pack <(cat $f): $(cat "$tmp/err")"
  top "$tmp/fifo.pcol" >"$tmp/z.top" && diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "pack <(cat $f): top differs"
done
# the shell, info and validate take a pipe too (their output to a file:
# grep -q would stop reading early, and pipefail count pcol's SIGPIPE)
printf 'top\n' | $PCOL shell <(cat "$tmp/pprof.pb") >"$tmp/out" 2>/dev/null || fail "shell <(cat pprof.pb)"
grep -q 'Showing nodes' "$tmp/out" || fail "shell <(cat pprof.pb): $(cat "$tmp/out")"
$PCOL info <(cat "$tmp/pcol.pcol") >"$tmp/out" || fail "info <(cat pcol.pcol)"
grep -q '^sources: *1' "$tmp/out" || fail "info <(cat pcol.pcol): $(cat "$tmp/out")"
$PCOL validate <(cat "$tmp/pcol.pcol") >/dev/null || fail "validate <(cat pcol.pcol)"
# several gzip members and zstd or lz4 frames are one input
{ head -c 300 "$tmp/perf.txt" | gzip -c; tail -c +301 "$tmp/perf.txt" | gzip -c; } >"$tmp/two.gz"
{ head -c 300 "$tmp/perf.txt" | zstd -q -c; tail -c +301 "$tmp/perf.txt" | zstd -q -c; } >"$tmp/two.zst"
[ -z "$lz4" ] || { head -c 300 "$tmp/perf.txt" | lz4 -q -c; tail -c +301 "$tmp/perf.txt" | lz4 -q -c; } >"$tmp/two.lz4"
top "$tmp/perf.txt" >"$tmp/plain.top"
for z in gz zst $lz4; do
  top "$tmp/two.$z" >"$tmp/z.top" 2>"$tmp/err" || fail "two members ($z): $(cat "$tmp/err")"
  diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "two members ($z): top differs"
done
# skippable frames first (zstd's and LZ4's, which their decoders skip: `pzstd`
# writes one before its frames) are passed over to the frames after them
printf '\x50\x2a\x4d\x18\x03\x00\x00\x00abc\x5f\x2a\x4d\x18\x00\x00\x00\x00' >"$tmp/skip.head"
for z in zst $lz4; do
  cat "$tmp/skip.head" "$tmp/two.$z" >"$tmp/skip.$z"
  top "$tmp/skip.$z" >"$tmp/z.top" 2>"$tmp/err" || fail "skippable frames first ($z): $(cat "$tmp/err")"
  diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "skippable frames first ($z): top differs"
done
if command -v pzstd >/dev/null; then
  pzstd -q -c "$tmp/perf.txt" >"$tmp/p.zst"
  top "$tmp/p.zst" >"$tmp/z.top" 2>"$tmp/err" || fail "pzstd: $(cat "$tmp/err")"
  diff "$tmp/plain.top" "$tmp/z.top" >/dev/null || fail "pzstd: top differs"
fi
# a truncated stream is refused as such, whatever the format inside
for z in gz zst $lz4; do
  n=$(( $(wc -c <"$tmp/speedscope.json.$z") - 20 ))
  head -c $n "$tmp/speedscope.json.$z" >"$tmp/cut.$z"
  $PCOL pack "$tmp/cut.$z" -o "$tmp/cut.pcol" 2>"$tmp/err" && fail "a truncated $z stream was read"
  name=$(case $z in gz) echo gzip ;; zst) echo zstd ;; *) echo lz4 ;; esac)
  grep -q "cut.$z: truncated $name stream" "$tmp/err" || fail "truncated $z: $(cat "$tmp/err")"
  [ -e "$tmp/cut.pcol" ] && fail "truncated $z: output written"
done
# a zstd bomb stops at the inflate cap (64 x the compressed size, >= 32 MiB)
yes 'a;b 1' | head -c 40000000 | zstd -q -c >"$tmp/bomb.zst"
$PCOL pack "$tmp/bomb.zst" -o "$tmp/bomb.pcol" 2>"$tmp/err" && fail "zstd bomb read"
grep -q 'bomb.zst: zstd data inflates to more than 33554432 bytes' "$tmp/err" || fail "zstd bomb: $(cat "$tmp/err")"
if [ -n "$lz4" ]; then
yes 'a;b 1' | head -c 40000000 | lz4 -q -c >"$tmp/bomb.lz4"
$PCOL pack "$tmp/bomb.lz4" -o "$tmp/bomb.pcol" 2>"$tmp/err" && fail "lz4 bomb read"
grep -q 'bomb.lz4: lz4 data inflates to more than 33554432 bytes' "$tmp/err" || fail "lz4 bomb: $(cat "$tmp/err")"
# damaged lz4 data: the frame's checksum says so, after what it made was read
lz4 -q -c "$tmp/speedscope.json" >"$tmp/bad.lz4"
printf 'XXXX' | dd of="$tmp/bad.lz4" bs=1 seek=30 conv=notrunc 2>/dev/null
$PCOL pack "$tmp/bad.lz4" -o "$tmp/bad.pcol" 2>"$tmp/err" && fail "damaged lz4 data read"
grep -q 'bad.lz4: corrupt lz4 data near compressed byte offset' "$tmp/err" || fail "damaged lz4: $(cat "$tmp/err")"
# damaged lz4 data is refused at its block, not at the 64 KiB piece of the
# input being read (a block of 171 KB damaged at byte 30 was refused "near
# compressed byte offset 131072"; one of 64 KiB blocks damaged at 100000,
# near 65536): the offset is where the damaged block's data starts (or the
# content checksum's, when the block decodes and the checksum tells)
python3 - "$tmp/big.txt" <<'EOF'
import random, sys
r = random.Random(1)
with open(sys.argv[1], "w") as f:
    for i in range(20000):
        f.write("main;f%d;g%d %d\n" % (r.randrange(1000), r.randrange(1000), r.randrange(1, 100)))
EOF
lz4 -q -c -B4 "$tmp/big.txt" >"$tmp/b4.lz4"
lz4 -q -c "$tmp/big.txt" >"$tmp/b7.lz4"
for c in b4:100000 b7:30 b7:end; do
  f=${c%:*} at=${c#*:}
  [ "$at" = end ] && at=$(( $(wc -c <"$tmp/$f.lz4") - 4 )) # the content checksum
  want=$(python3 - "$tmp/$f.lz4" "$at" "$tmp/$f.$at.lz4" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read()); at = int(sys.argv[2])
for i in range(at, min(at + 40, len(b))): b[i] ^= 0x5a
open(sys.argv[3], "wb").write(bytes(b))
flg = b[4]; i = 4 + 2 + (8 if flg & 8 else 0) + (4 if flg & 1 else 0) + 1
while True:  # the blocks: a 4-byte size (high bit: stored), the data
    n = int.from_bytes(b[i:i + 4], "little") & 0x7fffffff
    if n == 0:  # the end mark, then the content checksum: damage there
        print(i + 4); break
    if i + 4 + n > at:
        print(i + 4); break
    i += 4 + n + (4 if flg & 0x10 else 0)
EOF
)
  $PCOL pack "$tmp/$f.$at.lz4" -o "$tmp/bad.pcol" 2>"$tmp/err" && fail "damaged lz4 data ($c) read"
  grep -q "$f.$at.lz4: corrupt lz4 data near compressed byte offset $want: " "$tmp/err" ||
    fail "damaged lz4 ($c): want offset $want: $(cat "$tmp/err")"
done
fi
# bytes after the last member or frame that do not start another: refused
# naming the file, the offset and the member or frame they follow (`zstd -d`,
# lz4 1.9.4's `lz4 -d` and `go tool pprof` refuse them; `gzip -d` exits 2
# with a warning; pcol told lz4's 1 to 3 bytes and zeros as a "truncated
# lz4 stream" and named only the decoder's reason, "incorrect header check",
# for gzip's); from standard input too
for z in gz zst $lz4; do
  name=$(case $z in gz) echo "gzip member" ;; zst) echo "zstd frame" ;; *) echo "lz4 frame" ;; esac)
  n=$(wc -c <"$tmp/speedscope.json.$z")
  for t in 'garbage\n:8' '\0\0\0\0\0\0\0\0\0\0\0\0:12' 'x:1' 'xyz:3'; do
    printf "${t%:*}" | cat "$tmp/speedscope.json.$z" - >"$tmp/trail.$z"
    k=${t##*:}
    for how in file pipe; do
      if [ $how = file ]; then $PCOL pack "$tmp/trail.$z" -o "$tmp/t.pcol" 2>"$tmp/err"; rc=$?
      else $PCOL pack - -o "$tmp/t.pcol" <"$tmp/trail.$z" 2>"$tmp/err"; rc=$?; fi
      what=$([ $how = file ] && echo trail.$z || echo '<stdin>')
      [ $rc = 1 ] && grep -qF "$what: trailing data after ${name% *} ${name#* } 1: $k byte" "$tmp/err" &&
        grep -qF "at compressed byte offset $n that do" "$tmp/err" || fail "trailing $t after $z ($how): rc $rc: $(cat "$tmp/err")"
      [ -e "$tmp/t.pcol" ] && fail "trailing $t after $z ($how): output written"
    done
  done
  # and a next frame that is cut short is a truncated stream
  head -c 10 "$tmp/speedscope.json.$z" | cat "$tmp/speedscope.json.$z" - >"$tmp/trail.$z"
  $PCOL pack "$tmp/trail.$z" -o "$tmp/t.pcol" 2>"$tmp/err" && fail "a cut second $z frame read"
  grep -q "trail.$z: truncated" "$tmp/err" || fail "a cut second $z frame: $(cat "$tmp/err")"
done

# ---------------------------------------------------------------- refusals
# refused FILE WANT: pack exits 1 naming the file and WANT, writes nothing,
# and neither calls the file Perun nor pprof; the same inside gzip
refused() {
  for f in "$tmp/$1" "$tmp/$1.gz"; do
    [ "$f" = "$tmp/$1.gz" ] && gzip -c "$tmp/$1" >"$f"
    $PCOL pack "$f" -o "$tmp/r.pcol" 2>"$tmp/err"; rc=$?
    [ $rc = 1 ] || fail "$1: exit $rc, want 1: $(cat "$tmp/err")"
    grep -qF "$(basename "$f"): $2" "$tmp/err" || fail "$(basename "$f"): want '$2', got: $(cat "$tmp/err")"
    grep -Eq 'not a Perun|malformed|pprof protobuf|wire type' "$tmp/err" && fail "$1: named a format it is not: $(cat "$tmp/err")"
    [ -e "$tmp/r.pcol" ] && fail "$1: output written"
  done
}
no="pcol does not read this format"
printf 'FLR\0\0\2\0\0\0\0\0\0\0\0\4\0' >"$tmp/a.jfr"
refused a.jfr "chunk 1, byte 0: 16 bytes, less than a chunk header"  # read as JFR (doc/mappings.md §16)
printf 'PERFILE2h\0\0\0\0\0\0\0\200\0\0\0' >"$tmp/perf.data"
refused perf.data "a perf.data file (perf record's binary output): $no"
printf 'SIMPLEPERF\1\0\12\4\10\1\20\2' >"$tmp/s.trace"
refused s.trace "a simpleperf report_sample protobuf (Android): $no"
printf 'TACH\1\0\0\0\3\16\0\0' >"$tmp/t.bin"
refused t.bin "Tachyon: 12 bytes, shorter than a header and a footer"
printf '[{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},\n{"name":"b","ph":"X","ts":1,"dur":1,"pid":1,"tid":1}]\n' >"$tmp/trace.json"
# a trace of duration events only is read as speedscope reads it (doc/mappings.md §14)
$PCOL fold "$tmp/trace.json" 2>"$tmp/err" >"$tmp/fold" || fail "trace.json (X events): $(cat "$tmp/err")"
[ "$(sort "$tmp/fold" | tr '\n' '|')" = "a 1000|a;b 1000|" ] || fail "trace.json (X events): $(cat "$tmp/fold")"
printf '{"metadata":{"source":"DevTools"},"traceEvents":[{"ph":"B","name":"a","ts":0,"pid":1,"tid":1}]}' >"$tmp/trace2.json"
refused trace2.json "a Chrome trace whose duration events (ph B/E, X) never have a frame open for any time"
printf '{"traceEvents":[{"ph":"I","name":"a","ts":0,"pid":1,"tid":1}]}' >"$tmp/trace3.json"
refused trace3.json "a Chrome trace without a CPU profile or duration events"
printf '{"label":"r","duration":49.4,"markers":[],"frames":[],"memory":[],"ticks":[],"allocations":{"sites":[]},"profile":{"libs":[]}}' >"$tmp/rec.json"
refused rec.json "a Firefox DevTools performance recording (Firefox 66 or older): $no"
# one whose "markers" come first and fill the head (speedscope's
# Firefox/59/firefox.json: "ticks", "frames" only past it), made here
python3 - "$tmp/recm.json" <<'PY'
import json, sys
m = [{"end": 306.75 + i, "endStack": None, "isAnimationOnly": False, "isOffMainThread": False,
      "name": "Styles", "processType": 2, "stack": None, "start": 306.7 + i, "index": i} for i in range(200)]
d = {"label": "", "duration": 10279.2, "markers": m, "frames": [], "memory": [], "ticks": [],
     "allocations": {"sites": [], "timestamps": [], "frames": [], "sizes": []}, "profile": {"libs": []},
     "configuration": {"withMarkers": True}, "systemHost": {"name": "Firefox"}, "fileType": "", "version": 1}
open(sys.argv[1], "w").write(json.dumps(d, separators=(",", ":")))
PY
[ "$(head -c 4096 "$tmp/recm.json" | grep -c '"ticks"')" = 0 ] || fail "recm.json: the head holds ticks"
refused recm.json "a Firefox DevTools performance recording (Firefox 66 or older): $no"
printf '{"typeId":"CPU","uid":"1","title":"","head":{"functionName":"(root)","url":"","lineNumber":0,"callUID":1,"bailoutReason":"","id":1,"hitCount":0,"children":[]},"startTime":1,"endTime":2,"samples":[1],"timestamps":[1000]}' >"$tmp/old.cpuprofile"
# the old V8 shape is read (doc/mappings.md §10), plain and gzipped
for f in old.cpuprofile old.cpuprofile.gz; do
  [ $f = old.cpuprofile.gz ] && gzip -c "$tmp/old.cpuprofile" >"$tmp/$f"
  $PCOL info "$tmp/$f" >"$tmp/info" 2>"$tmp/err"; grep -q 'input_format: *v8' "$tmp/info" || fail "$f: not read as V8: $(cat "$tmp/err")"
done
printf '{"head":{"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"selfSize":0,"id":1,"children":[]},"samples":[]}' >"$tmp/h.heapprofile"
refused h.heapprofile "a V8 sampling heap profile (.heapprofile): $no"
printf '{"version":1.2,"mode":"cpu","interval":1000,"samples":3,"gc_samples":0,"missed_samples":0,"frames":{"1":{"name":"a","file":"a.rb","line":1,"total_samples":3,"samples":3}}}' >"$tmp/stackprof.json"
refused stackprof.json "a Ruby stackprof JSON profile: $no"
printf '{"dhatFileVersion":2,"mode":"heap","verb":"Allocated","bklt":true,"cmd":"./a","pid":7,"te":1,"tg":1,"pps":[],"ftbl":["[root]"]}' >"$tmp/dhat.json"
refused dhat.json "a DHAT heap profile (valgrind --tool=dhat): $no"
printf '\tTue Nov 24 06:00 2026 Time and Allocation Profiling Report  (Final)\n\n\t   prog +RTS -p -RTS\n\n\ttotal time  =        0.10 secs   (100 ticks @ 1000 us, 1 processor)\n' >"$tmp/prog.prof"
refused prog.prof "a GHC cost-centre profile (.prof): $no"
printf '{"program":"prog","arguments":[],"rts_arguments":["-pj"],"end_time":"Tue Nov 24 06:00 2026","initial_capabilities":1,"total_time":0.1,"total_ticks":100}' >"$tmp/prog.json"
refused prog.json "a GHC cost-centre profile (.prof): $no"
printf '# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=main\n1 5\n' >"$tmp/callgrind.out.1"
refused callgrind.out.1 "a Callgrind profile (valgrind --tool=callgrind): $no"
printf 'main;a 1\n' | xz -c >"$tmp/c.folded.xz" 2>/dev/null && refused c.folded.xz "xz-compressed data: $no"
printf 'main;a 1\n' | bzip2 -c >"$tmp/c.folded.bz2" 2>/dev/null && refused c.folded.bz2 "bzip2-compressed data: $no"
# a Perfetto trace (Chrome's default: a clock_snapshot packet, then one of a
# timestamp and a sequence id): read as Perfetto (doc/mappings.md §17; before,
# "malformed OTLP profiles", then refused by name), here a trace without
# samples, gzipped too: refused as Perfetto's, saying it holds no samples
# (as a Chrome JSON trace without a CPU profile is; before, read as 0
# samples with exit 0); text that starts with a blank line stays text
printf '\012\006\062\004\012\002\010\006\012\005\100\350\007\120\001' >"$tmp/t.pftrace"
refused t.pftrace "a Perfetto trace without CPU samples: no StackSample, PerfSample or StreamingProfilePacket sample"
printf '\nmain;foo 1\nmain;bar 2\n' >"$tmp/blank.folded"
[ "$($PCOL fold "$tmp/blank.folded" 2>&1 | sort | tr '\n' '|')" = "main;bar 2|main;foo 1|" ] ||
  fail "collapsed text after a blank line: $($PCOL fold "$tmp/blank.folded" 2>&1)"
# a count after a tab (flamegraph.pl's `\s+`, the importer's rule) is
# collapsed stacks, first line or after a comment, in fold, top and info
# alike (review 15 F3: detection wanted a space, so every view refused
# "a;b<TAB>5" as an unrecognised format while --from collapsed read it);
# a line whose last token has no count's syntax (two dots) is none
printf 'a;b\t5\nc;d\t3\n' >"$tmp/tab.folded"
printf '# comment\na;b\t5\n' >"$tmp/tabc.folded"
[ "$($PCOL fold "$tmp/tab.folded" 2>&1 | tr '\n' '|')" = "a;b 5|c;d 3|" ] ||
  fail "collapsed with a tab before the count: $($PCOL fold "$tmp/tab.folded" 2>&1)"
[ "$($PCOL fold "$tmp/tabc.folded" 2>/dev/null | tr '\n' '|')" = "a;b 5|" ] ||
  fail "collapsed with a tab after a comment: $($PCOL fold "$tmp/tabc.folded" 2>&1)"
top "$tmp/tab.folded" | grep -q '^ *5 .* b$' || fail "top of tab-separated collapsed: $($PCOL top "$tmp/tab.folded" 2>&1)"
$PCOL info "$tmp/tabc.folded" 2>/dev/null | grep -q '^input_format: *collapsed' ||
  fail "info of tab-separated collapsed: $($PCOL info "$tmp/tabc.folded" 2>&1 | head -2)"
printf 'a;b\t1.2.3\n' >"$tmp/dots.txt"
refused dots.txt "unrecognised input format"
[ -n "$lz4" ] && printf 'main;a 1\n' | lz4 -l -c >"$tmp/c.folded.lz4" 2>/dev/null && refused c.folded.lz4 "lz4 legacy-format data (\`lz4 -l\`): $no"
# anything else: unrecognised (JSON of no known shape is no Perun file,
# binary that is no Profile message no pprof one)
printf '{"hello": [1, 2, 3], "world": {"a": null}}\n' >"$tmp/other.json"
refused other.json "unrecognised input format"
printf '\033\000\001\002\003\004\005\006\007\010' >"$tmp/w3.bin"
refused w3.bin "unrecognised input format"
printf '\012\002ab\330\377\001\000\000\000' >"$tmp/bad.bin"
refused bad.bin "unrecognised input format"
# a format pcol reads, broken, still names that format (detection chose it)
printf '{"nodes": [{"id": 1, "callFrame": {"functionName": "(root)"}, "children": [9]}], "startTime": 0, "samples": [], "timeDeltas": []}' >"$tmp/b.cpuprofile"
$PCOL pack "$tmp/b.cpuprofile" -o "$tmp/r.pcol" 2>"$tmp/err" && fail "broken V8 read"
grep -q 'children names an id no node has' "$tmp/err" || fail "broken V8: $(cat "$tmp/err")"
printf '{"header": {"type": "time"}}' >"$tmp/b.perf"
$PCOL pack "$tmp/b.perf" -o "$tmp/r.pcol" 2>"$tmp/err" && fail "broken Perun read"
grep -q 'not a Perun profile' "$tmp/err" || fail "broken Perun: $(cat "$tmp/err")"

# a Chrome trace holds 3 temporary files open per profile: running out of
# file descriptors is said as such, not "out of memory"
{ printf '{"traceEvents":['
  for k in $(seq 1 40); do
    printf '{"ph":"P","name":"Profile","pid":1,"tid":%d,"id":"0x%x","args":{"data":{"startTime":0}}},' "$k" "$k"
    printf '{"ph":"P","name":"ProfileChunk","pid":1,"tid":%d,"id":"0x%x","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""}}],"samples":[1]},"timeDeltas":[1]}}}' "$k" "$k"
    [ "$k" = 40 ] || printf ','
  done
  printf ']}'; } >"$tmp/many.json"
(ulimit -n 64; $PCOL pack "$tmp/many.json" -o "$tmp/r.pcol" 2>"$tmp/err") && fail "fd-starved Chrome trace read"
grep -q 'a temporary file for profile [0-9]*: Too many open files' "$tmp/err" || fail "fd-starved Chrome trace: $(cat "$tmp/err")"
$PCOL pack "$tmp/many.json" -o "$tmp/r.pcol" || fail "40-profile Chrome trace"

# a JSON document the first 4 KiB leave undecided is read on (up to 16
# MiB): a trace as DevTools saves it ("metadata" first, pretty-printed and
# large), an array whose first event is longer than the head (Chrome writes
# "args" first), each read as the trace without that bulk; a UTF-8 BOM is
# left out of a JSON document; UTF-16 is refused by name; \u0000 in an
# event's name is read with its NUL, as speedscope and DevTools read it (it
# was refused: tests/contract/t_contract.py's nul check), and refused, by
# name, in a pid string (a thread's key) and in an object's key
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
ev = [{"ph": "X", "name": "outer", "pid": 1, "tid": 2, "ts": 0, "dur": 50},
      {"ph": "X", "name": "inner", "pid": 1, "tid": 2, "ts": 10, "dur": 20},
      {"ph": "B", "name": "b", "pid": 1, "tid": 3, "ts": 5}, {"ph": "E", "name": "b", "pid": 1, "tid": 3, "ts": 45}]
json.dump({"traceEvents": ev}, open(d + "/plain.json", "w"))
meta = {"source": "DevTools", "sourceMaps": [{"url": "https://e.com/a%d.js" % i, "sourceMap": {"mappings": "AAAA;" * 40}} for i in range(60)]}
open(d + "/devtools.json", "w").write('{"metadata": ' + json.dumps(meta, indent=2) + ',\n"traceEvents": ' + json.dumps(ev) + '}')
big = [dict(e) for e in ev]
big[0] = {"args": {"data": "x" * 9000}, **big[0]}
open(d + "/bigfirst.json", "w").write("[" + ",\n".join(json.dumps(e) for e in big) + "]")
open(d + "/bom.json", "wb").write(b"\xef\xbb\xbf" + json.dumps({"traceEvents": ev}).encode())
open(d + "/u16.json", "wb").write(json.dumps({"traceEvents": ev}).encode("utf-16"))
ev[1] = dict(ev[1], name="in\u0000ner")
json.dump({"traceEvents": ev}, open(d + "/nul.json", "w"))
json.dump({"traceEvents": [dict(ev[0], pid="p\u0000id")] + ev[1:]}, open(d + "/nulpid.json", "w"))
json.dump({"traceEvents": [dict(ev[0], args={"k\u0000ey": 1})] + ev[1:]}, open(d + "/nulkey.json", "w"))
PY
top "$tmp/plain.json" >"$tmp/want" || fail "plain trace"
for f in devtools bigfirst bom; do
  [ "$(head -c 4096 "$tmp/$f.json" | grep -c traceEvents)$f" != 1devtools ] || fail "$f.json: the head holds traceEvents"
  $PCOL info "$tmp/$f.json" >"$tmp/info" 2>&1 || fail "$f.json: $(cat "$tmp/info")"
  grep -q '^input_format: *chrome' "$tmp/info" || fail "$f.json not detected as a Chrome trace: $(head -3 "$tmp/info")"
  top "$tmp/$f.json" >"$tmp/got" 2>&1 || fail "$f.json: $(cat "$tmp/got")"
  cmp -s "$tmp/want" "$tmp/got" || fail "$f.json: top differs from the plain trace's: $(diff "$tmp/want" "$tmp/got")"
done
$PCOL info "$tmp/u16.json" >/dev/null 2>"$tmp/err" && fail "UTF-16 JSON read"
grep -q 'UTF-16 is not supported.*convert it to UTF-8' "$tmp/err" || fail "UTF-16 JSON: $(cat "$tmp/err")"
$PCOL top "$tmp/nul.json" --format json >"$tmp/out" 2>"$tmp/err" || fail "an event name with \\u0000: $(cat "$tmp/err")"
python3 -c 'import json,sys; n=sorted(r["name"] for r in json.load(open(sys.argv[1]))["rows"]); sys.exit(0 if n == ["b", "in\0ner", "outer"] else "names %r" % n)' "$tmp/out" ||
  fail "an event name with \\u0000 not read whole"
$PCOL info "$tmp/nulpid.json" >/dev/null 2>"$tmp/err" && fail "a pid string with \\u0000 read"
grep -q 'nulpid.json: traceEvents\[0\]: a pid that holds \\u0000 (the NUL character), which pcol does not read' "$tmp/err" ||
  fail "\\u0000 in a pid: $(cat "$tmp/err")"
$PCOL info "$tmp/nulkey.json" >/dev/null 2>"$tmp/err" && fail "a key with \\u0000 read"
grep -q 'nulkey.json:1:[0-9]* (byte [0-9]*): invalid JSON: NUL byte in object key not supported' "$tmp/err" ||
  fail "\\u0000 in a key: $(cat "$tmp/err")"

# collapsed stacks whose lines read as perf headers carrying their ip
# ("x 1.5: cpu-clock: 3": a time, an event and a hex word) are collapsed
# when no line is one only perf prints (a callchain frame, a field in perf's
# layout); perf's own one-line events (no -g) whose ips are all decimal
# digits stay perf: their time has 6 decimals, their ip is padded to 16
printf 'x 1.5: cpu-clock: 3\nx 1.5: cpu-clock;f 2\n' >"$tmp/cperf.txt"
$PCOL info "$tmp/cperf.txt" >"$tmp/info" 2>&1; grep -q '^input_format: *collapsed' "$tmp/info" || fail "collapsed lines like perf headers: $($PCOL info "$tmp/cperf.txt" 2>&1 | head -2)"
printf 'x 1.5: cpu-clock: 3\nx 1.5: cpu-clock;f 2\n' | cmp -s - <($PCOL fold "$tmp/cperf.txt") || fail "collapsed lines like perf headers: $($PCOL fold "$tmp/cperf.txt")"
printf '            prog  1234 12345.678901:     250000 cpu-clock:            401136\n            prog  1234 12345.679151:     250000 cpu-clock:            401200\n' >"$tmp/nog.txt"
$PCOL info "$tmp/nog.txt" >"$tmp/info" 2>&1; grep -q '^input_format: *perf' "$tmp/info" || fail "perf one-line events (decimal ips): $($PCOL info "$tmp/nog.txt" 2>&1 | head -2)"
# perf script -g with -F ...,ip but no sym or dso prints each frame's
# address alone ("\tffffffff81775b9a", "\t           1ab70"): perf's, with
# an event name on the header or without (-F comm,tid,time,ip); was
# "unrecognised input format" (perf 6.1's output of a real recording)
printf 'busy  9007 11891.256648: cpu-clock: \n\tffffffff81775b9a\n\tffffffff81776725\n\t    7ff0bacf2ad7\n\nbusy  9007 11891.256885: cpu-clock: \n\t           1ab70\n\n' >"$tmp/ipg.txt"
printf 'busy  9007 11891.256648: \n\tffffffff81775b9a\n\tffffffff81776725\n\t    7ff0bacf2ad7\n\nbusy  9007 11891.256885: \n\t           1ab70\n\n' >"$tmp/ipg2.txt"
for f in ipg ipg2; do
  $PCOL info "$tmp/$f.txt" >"$tmp/info" 2>&1; grep -q '^input_format: *perf' "$tmp/info" || fail "$f: perf -g, frames of an ip alone: $(head -2 "$tmp/info")"
  $PCOL pack --from perf "$tmp/$f.txt" -o "$tmp/$f.pcol" || fail "$f: pack --from perf"
  [ "$($PCOL fold "$tmp/$f.txt")" = "$($PCOL fold "$tmp/$f.pcol")" ] || fail "$f: fold differs from --from perf's"
done
# perf script -F with ip and none of time, [cpu] and event (perf 6.1's
# output of real recordings; tests/interop/t_perf_real.sh sweeps every such
# -F set): with -g a header of any fields (none: an empty line) then frames
# "\t%16x"; without, lines carrying their frame, the ip in perf's " %16"
# field (after pid/tid's "%5d/%-5d " one blank more); were "unrecognised
# input format".  A collapsed file whose counts are padded like that ip
# stays collapsed.
printf 'stripped 30047 \n\tffffffff82256067\n\tffffffff81637e68\n\t            115b\n\nstripped 30047 \n\t            115f\n\n' >"$tmp/F1.txt"
printf '\n\tffffffff82256067 clear_page_erms\n\t            115b [unknown]\n\n\n\t            115f [unknown]\n\n' >"$tmp/F2.txt"
printf '        stripped  2187  ffffffff81775b9a elf_load\n        stripped  2187  ffffffff81bb8818 _copy_to_user\n        stripped  2187              115b [unknown]\n' >"$tmp/F3.txt"
printf '        stripped  2187/2187   ffffffff81775b9a elf_load ([kernel.kallsyms])\n        stripped  2187/2187               115b [unknown] (/tmp/stripped)\n' >"$tmp/F4.txt"
printf ' ffffffff81775b9a\n             115b\n             115f\n' >"$tmp/F5.txt"
for f in F1 F2 F3 F4 F5; do
  $PCOL info "$tmp/$f.txt" >"$tmp/info" 2>&1; grep -q '^input_format: *perf' "$tmp/info" || fail "$f: perf -F without time and event: $(head -2 "$tmp/info")"
  $PCOL pack --from perf "$tmp/$f.txt" -o "$tmp/$f.pcol" || fail "$f: pack --from perf"
  [ "$($PCOL fold "$tmp/$f.txt")" = "$($PCOL fold "$tmp/$f.pcol")" ] || fail "$f: fold differs from --from perf's"
done
# ... and so without sym and dso when every ip is all decimal digits (a
# non-PIE program's 0x401128), where the line ends in a "count": perf's by
# what precedes the ip (nothing, the comm's "%16s" with its leading blank,
# or numbers alone: pid/tid, period).  perf 6.1's `perf script -S
# 0x401128,0x401161 -F SET` of a recording of such a program (pid 20074);
# were collapsed stacks of a total of 802289 (the ips summed), exit 0.
i=0
for t in '           401128\n           401161\n' \
  '             hot            401128\n             hot            401161\n' \
  '20074            401128\n20074            401161\n' \
  ' 7570            401128\n 7570            401161\n' \
  '20074/20074            401128\n20074/20074            401161\n' \
  '             hot 20074/20074            401128\n             hot 20074/20074            401161\n' \
  '20074    1001001            401128\n20074    1001001            401161\n' \
  '             hot    1001001            401128\n             hot    1001001            401161\n'; do
  i=$((i + 1))
  printf "$t" >"$tmp/dec$i.txt"
  $PCOL info "$tmp/dec$i.txt" >"$tmp/info" 2>&1
  grep -q '^input_format: *perf' "$tmp/info" && grep -q '^ *samples: *2,' "$tmp/info" ||
    fail "perf -F without sym, decimal ips ($(head -1 "$tmp/dec$i.txt")): $(head -4 "$tmp/info")"
  $PCOL pack --from perf "$tmp/dec$i.txt" -o "$tmp/dec$i.pcol" || fail "dec$i: pack --from perf"
  [ "$($PCOL fold "$tmp/dec$i.txt")" = "$($PCOL fold "$tmp/dec$i.pcol")" ] || fail "dec$i: fold differs from --from perf's"
done
printf 'main;foo %17d\nmain;bar %17d\n' 1234 56 >"$tmp/pad.folded"
$PCOL info "$tmp/pad.folded" | grep -q '^input_format: *collapsed' || fail "collapsed counts padded to 17: $($PCOL info "$tmp/pad.folded" 2>&1 | head -2)"
# a text whose one line ends in a number (a command log: "... long.py 1.5")
# is detected as collapsed stacks; when most of its lines are not 'stack
# count' it is refused as not collapsed (user review 6: a log's "#  Records:
# 725" read as a stack), and --from collapsed still reads its stack lines
{ echo '# recorded with:'; echo 'python3 -m profiling.sampling run -o x.bin long.py 1.5'
  echo '# the report:'; echo 'Captured 15767 samples in 1.59 seconds'; echo 'Sample rate: 9,916.73'
  echo '#     Records:         725'; echo 'done.'; } >"$tmp/log.txt"
$PCOL top "$tmp/log.txt" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q 'log.txt: not collapsed stacks, it seems: 5 of its 7 lines' "$tmp/err" ||
  fail "a log with a line ending in a number: exit $rc: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "a refused log printed a view"
$PCOL pack --from collapsed "$tmp/log.txt" -o "$tmp/log.pcol" 2>"$tmp/err" || fail "--from collapsed of the log: $(cat "$tmp/err")"
grep -q 'skipped 5 lines' "$tmp/err" || fail "--from collapsed of the log: $(cat "$tmp/err")"
# half or fewer lines skipped: read, with the warning (speedscope's test file skips 3 of 8)
printf 'main;a 1\njunk\nmain;b 2\nmore junk\n' >"$tmp/half.txt"
[ "$($PCOL fold "$tmp/half.txt" 2>/dev/null)" = "$(printf 'main;a 1\nmain;b 2')" ] || fail "half junk: not read"
echo "t_detect: ok"
