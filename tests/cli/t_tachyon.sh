#!/usr/bin/env bash
# CPython 3.15's sampling profiler ("Tachyon") binary files in (issue 43).
# tests/support/tachyongen.py writes files as CPython's writer does (all four record kinds, several threads in
# two interpreters, status bits, a TACHSTAT block; zstd or not; the first
# header layout; a big-endian machine's file) and computes the truth from
# what it wrote.  Checked against that truth: per-function self and total,
# per-thread (tid) counts, the first and last sample times, the wall value
# (samples x the interval, as CPython's pstats replay counts time), the
# header and TACHSTAT meta, --from/--to; then hostile copies are refused
# with exit 1, a message naming the file, Tachyon and the place.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_tachyon: $*" >&2; exit 1; }
GEN=tests/support/tachyongen.py
command -v python3 >/dev/null || { echo "t_tachyon: python3 not installed: skipped"; exit 0; }
variants="plain zstd narrow big-endian"
command -v zstd >/dev/null || { echo "t_tachyon: zstd not installed: the zstd variants skipped"; variants="plain narrow big-endian"; }

for v in $variants; do
  case $v in plain) a=() ;; zstd) a=(--zstd) ;; narrow) a=(--narrow) ;; big-endian) a=(--big-endian) ;; esac
  f=$tmp/$v.bin
  python3 $GEN rich "$f" "${a[@]}" --samples 2000 > "$tmp/$v.truth" || fail "$v: generator"
  $PCOL info "$f" | grep -q 'input_format: *tachyon' || fail "$v: not detected as tachyon"
  $PCOL top "$f" --node-fraction 0 --format json > "$tmp/$v.top" || fail "$v: top"
  $PCOL top "$f" --node-fraction 0 --value wall --format json > "$tmp/$v.wall" || fail "$v: top wall"
  $PCOL tags "$f" --format json > "$tmp/$v.tags" || fail "$v: tags"
  $PCOL info "$f" --format json > "$tmp/$v.info" || fail "$v: info"
  $PCOL cat "$f" --table meta > "$tmp/$v.meta" || fail "$v: meta"
  python3 - "$tmp" "$v" <<'EOF' || fail "$v: differs from what was written"
import json, sys
d, v = sys.argv[1], sys.argv[2]
t = json.load(open(f"{d}/{v}.truth"))
top = json.load(open(f"{d}/{v}.top"))
bad = []
for k in ("REPEAT", "FULL", "SUFFIX", "POP_PUSH"):
    if not t["records"][k]:
        bad.append("no %s record written" % k)
if top["total"] != t["samples"]:
    bad.append("total %s, %s samples written" % (top["total"], t["samples"]))
got_self = {r["name"]: r["flat"] for r in top["rows"] if r["flat"]}
got_total = {r["name"]: r["cum"] for r in top["rows"]}
if got_self != t["self"]:
    bad.append("self %s, written %s" % (got_self, t["self"]))
if got_total != t["total"]:
    bad.append("total %s, written %s" % (got_total, t["total"]))
wall = json.load(open(f"{d}/{v}.wall"))
if wall["total"] != t["samples"] * 1000 * 1000 or wall["unit"] != "nanoseconds":
    bad.append("wall %s %s, want samples x 1 ms" % (wall["total"], wall["unit"]))
tags = json.load(open(f"{d}/{v}.tags"))["rows"]
tid = {r["value"]: r["amount"] for r in tags if r["key"] == "tid"}
if tid != t["threads"]["tid"]:
    bad.append("tid %s, written %s" % (tid, t["threads"]["tid"]))
inter = {r["value"] for r in tags if r["key"] == "interpreter_id"}
if inter != {"0", "1"}:
    bad.append("interpreter_id values %s" % inter)
for k in ("gil", "on_cpu", "gil_requested", "exception", "status_unknown", "main_thread"):
    if {r["value"] for r in tags if r["key"] == k} != {"true", "false"}:
        bad.append("status label %s: %s" % (k, [r for r in tags if r["key"] == k]))
main = {r["value"]: r["amount"] for r in tags if r["key"] == "main_thread"}
if main.get("true") != t["threads"]["tid"]["140245123456789"]:
    bad.append("main_thread true on %s samples, the main thread has %s" % (main, t["threads"]["tid"]["140245123456789"]))
inf = json.load(open(f"{d}/{v}.info"))["rows"][0]
if inf["first_ns"] != t["first_ns"] or inf["end_ns"] != t["span_ns"]:
    bad.append("times %s .. %s, written %s .. %s" % (inf["first_ns"], inf["end_ns"], t["first_ns"], t["span_ns"]))
meta = open(f"{d}/{v}.meta").read()
for want in ("tachyon.python_version", "3.15.0", "tachyon.interval_us", "tachyon.start_time_us",
             "1700000000123456", "tachyon.stats.duration_sec", "tachyon.stats.missed_samples", "1.25",
             "tachyon.compression", "zstd" if v == "zstd" else "none") + \
            (() if v == "narrow" else ("tachyon.profiling_mode", "wall")):
    if want not in meta:
        bad.append("meta has no %r" % want)
for b in bad:
    print("t_tachyon: %s: %s" % (v, b), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
done
# the same profile in every variant: the same top
for v in $variants; do
  cmp -s "$tmp/plain.top" <(sed "s#$tmp/$v.bin#$tmp/plain.bin#" "$tmp/$v.top") || fail "$v: top differs from the plain file's"
done

# --from/--to on the packed file: a time window holds the samples written in it
[ -e "$tmp/zstd.truth" ] || cp "$tmp/plain.truth" "$tmp/zstd.truth"
[ -e "$tmp/zstd.bin" ] || cp "$tmp/plain.bin" "$tmp/zstd.bin"
$PCOL pack "$tmp/zstd.bin" --compress zstd -o "$tmp/z.pcol" || fail "pack --compress zstd"
python3 - "$tmp" "$PCOL" <<'EOF' || fail "--from/--to"
import json, subprocess, sys
d, pcol = sys.argv[1], sys.argv[2]
times = json.load(open(f"{d}/zstd.truth"))["times_ns"]
# window edges between whole microseconds, so no sample sits on one
for a, b in ((0.3000005, 0.6000005), (0.0, 0.0500005), (1.0000005, 9.0)):
    want = sum(1 for t in times if a * 1e9 <= t < b * 1e9)
    got = json.loads(subprocess.run([pcol, "top", f"{d}/z.pcol", "--from", str(a), "--to", str(b), "--format",
                                     "json"], capture_output=True, check=True).stdout)["total"]
    if got != want:
        sys.exit("t_tachyon: --from %s --to %s: %s samples, %s written there" % (a, b, got, want))
EOF

# empty stacks (a FULL of depth 0, then SUFFIX and POP_PUSH that keep and
# add nothing): three samples with no frame (UBSan: memmove of a NULL stack);
# and a new thread whose first samples have no frame: CPython writes them as
# a REPEAT record (its test_writer_handles_empty_stack_first_sample)
python3 - "$tmp" <<'EOF' || fail "empty-stack generator"
import struct, sys
sys.path.insert(0, "tests/support")
from tachyongen import Writer, uv
hdr = lambda kind: struct.pack("<QIB", 1, 0, kind)
w = Writer()
w.sample(1, 0, 10, 1, [("/a.py", "m", 1, 0)])
open(sys.argv[1] + "/empty.bin", "wb").write(w.finish(raw_samples=hdr(1) + uv(5) + b"\x01" + uv(0) + hdr(3) + uv(1) +
                                                       b"\x01" + uv(0) + uv(0) + hdr(2) + uv(1) + b"\x01" + uv(0) + uv(0), count=3))
w = Writer()
w.sample(99, 0, 1000, 4, [])
w.sample(99, 0, 2000, 4, [])
w.sample(1, 0, 3000, 0, [("a.py", "f", 1, 0)])
data = w.finish()
assert w.kinds["REPEAT"] == 1 and w.kinds["FULL"] == 1, w.kinds
open(sys.argv[1] + "/empty-first.bin", "wb").write(data)
EOF
# the original 32-byte TACHSTAT block: duration and rate, nothing else
python3 - "$tmp" <<'EOF' || fail "stats-32 generator"
import sys
sys.path.insert(0, "tests/support")
from tachyongen import Writer
w = Writer(stats=32, interval_us=2000)
for i in range(5):
    w.sample(1, 0, 2000 * (i + 1), 1, [("hot.py", "hot_func", 99, 0), ("main.py", "main", 1, 0)])
open(sys.argv[1] + "/stats32.bin", "wb").write(w.finish())
EOF
$PCOL cat "$tmp/stats32.bin" --table meta > "$tmp/stats32.meta" || fail "stats32: meta"
grep -q 'tachyon.stats.duration_sec.0.01' "$tmp/stats32.meta" || fail "stats32: no duration: $(cat "$tmp/stats32.meta")"
grep -q 'tachyon.stats.sample_rate.500' "$tmp/stats32.meta" || fail "stats32: no sample rate"
! grep -q 'tachyon.stats.error_rate' "$tmp/stats32.meta" || fail "stats32: an error rate the block does not hold"

n=$($PCOL top "$tmp/empty-first.bin" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])') ||
  fail "empty first stacks (REPEAT of a new thread): refused"
[ "$n" = 3 ] || fail "empty first stacks: $n samples, 3 written"
n=$($PCOL top "$tmp/empty.bin" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])') ||
  fail "empty stacks: refused"
[ "$n" = 3 ] || fail "empty stacks: $n samples, 3 written"

# a deep stack (65,536 frames) changed at its top by 30,000 POP_PUSH records
# of 17 bytes: the work follows the bytes, not records x depth (it took over
# a minute when every record rebuilt the whole stack; now well under a second)
python3 - "$tmp" <<'EOF' || fail "deep-stack generator"
import struct, sys
sys.path.insert(0, "tests/support")
from tachyongen import Writer, uv
hdr = lambda kind: struct.pack("<QIB", 1, 0, kind)
w = Writer()
w.sample(1, 0, 10, 1, [("/a.py", "m", 1, 0)])
raw = hdr(1) + uv(5) + b"\x01" + uv(65536) + b"\0" * 65536 + \
      (hdr(3) + uv(5) + b"\x01" + uv(1) + uv(1) + uv(0)) * 30000
open(sys.argv[1] + "/deep-changes.bin", "wb").write(w.finish(raw_samples=raw, count=30001))
EOF
timeout 30 $PCOL pack "$tmp/deep-changes.bin" -o "$tmp/deep.pcol" || fail "deep stack changed 30,000 times: not packed in 30 s"
$PCOL info "$tmp/deep.pcol" | grep -q 'samples: *30001,' || fail "deep stack: not 30001 samples"

# hostile copies: exit 1, the file, "Tachyon" and the place named
python3 - "$tmp" <<'EOF' || fail "hostile generator"
import struct, sys
sys.path.insert(0, "tests/support")
from tachyongen import Writer, uv
d = sys.argv[1]
def base(**kw):
    w = Writer(**kw)
    fr = [("/a.py", "leaf", 3, 1), ("/a.py", "main", 1, 0)]
    w.sample(1, 0, 10, 1, fr)
    w.sample(1, 0, 20, 1, fr)
    w.sample(1, 0, 30, 1, fr[1:])
    return w
def put(name, data):
    open(f"{d}/bad-{name}.bin", "wb").write(data)
ok = base().finish()
put("version", ok[:4] + struct.pack("<I", 9) + ok[8:])
put("truncated", ok[: len(ok) - 40])
put("cut7", ok[: len(ok) - 7])
put("added", ok + b"\0" * 100)  # bytes after a whole file: its footer is still there
# a real recording cut 40 bytes short: its last 32 bytes are frame-table
# bytes that state a file of 0 (review 21 F7: read as bytes added after it)
put("cut40", open("tests/fixtures/tachyon/threads-wall-zstd.bin", "rb").read()[:-40])
put("head", ok[:100])
hdr = lambda kind: struct.pack("<QIB", 1, 0, kind)
put("frame-index", base().finish(raw_samples=hdr(1) + uv(5) + b"\x01" + uv(1) + uv(7), count=1))
put("depth", base().finish(raw_samples=hdr(1) + uv(5) + b"\x01" + uv(1 << 40), count=1))
put("deep", base().finish(raw_samples=hdr(1) + uv(5) + b"\x01" + uv(70000) + b"\0" * 70000, count=1))
put("varint", base().finish(raw_samples=hdr(1) + b"\xff" * 11, count=1))
w = base()
w.threads[(2, 0)] = w.threads[(1, 0)]  # declares 2 (thread, interpreter) pairs
put("threads", w.finish(raw_samples=hdr(1) + uv(5) + b"\x01" + uv(0) + struct.pack("<QIB", 2, 0, 1) + uv(5) +
                          b"\x01" + uv(0) + struct.pack("<QIB", 3, 0, 1) + uv(5) + b"\x01" + uv(0), count=3))
put("pop", base().finish(raw_samples=hdr(1) + uv(5) + b"\x01" + uv(1) + uv(0) + hdr(3) + uv(1) + b"\x01" + uv(3) + uv(0), count=2))
import shutil
HAVE_ZSTD = shutil.which("zstd") is not None
if HAVE_ZSTD:
  put("zstd-pop", base(zstd=True).finish(raw_samples=hdr(1) + uv(5) + b"\x01" + uv(0) + hdr(3) + uv(1) + b"\x01" + uv(3) + uv(0), count=2))
put("kind", base().finish(raw_samples=hdr(7) + uv(5), count=1))
put("count", base().finish(count=99))
put("repeat-count", base().finish(raw_samples=hdr(1) + uv(5) + b"\x01" + uv(1) + uv(0) + hdr(0) + uv(1 << 60), count=2))
w = base()
w.strings.append("x")  # a frame naming a string past the table: count says 2 strings
w.frames.append((0, 40, 1, 1))
put("string-index", w.finish())
if HAVE_ZSTD:
  z = base(zstd=True).finish()
  put("zstd", z[:64] + bytes(b ^ 0x5A for b in z[64:80]) + z[80:])
  # a sample region that inflates far past a small --max-input
  w = base(zstd=True)
  put("bomb", w.finish(raw_samples=(hdr(1) + uv(5) + b"\x01" + uv(1) + uv(0)) + b"\0" * (40 << 20), count=1))
EOF
check() { # NAME WHAT [pack options]
  local n=$1 what=$2
  shift 2
  $PCOL pack "$@" "$tmp/bad-$n.bin" -o "$tmp/out.pcol" 2> "$tmp/err"
  rc=$?
  [ $rc = 1 ] || fail "bad-$n: exit $rc: $(cat "$tmp/err")"
  grep -q "bad-$n.bin" "$tmp/err" || fail "bad-$n: the message does not name the file: $(cat "$tmp/err")"
  grep -q "Tachyon" "$tmp/err" || fail "bad-$n: the message does not say Tachyon: $(cat "$tmp/err")"
  grep -q -- "$what" "$tmp/err" || fail "bad-$n: the message does not say '$what': $(cat "$tmp/err")"
  [ ! -e "$tmp/out.pcol" ] || fail "bad-$n: an output was written"
  [ -z "${VERBOSE:-}" ] || cat "$tmp/err"
}
check version "format version 9"
check truncated "no footer at the end of the file's"
check cut7 "truncated?"  # (review 10 m9: the noise at its end was named a file size)
check cut40 "no footer at the end of the file's 6127 bytes (its last 32, from byte 6095, state a file of 0 bytes): truncated?"
grep -q "added" "$tmp/err" && fail "bad-cut40: a cut file named as one with bytes added: $(cat "$tmp/err")"
n=$(stat -c %s "$tmp/bad-added.bin")
check added "the footer at byte $((n - 132)) states a file of $((n - 100)) bytes, the file has $n: 100 bytes added after it?"
check head "not inside the file of 100 bytes in that order (truncated?)"
check frame-index "byte 80 of the file: frame index 7"
check depth "stack depth"
check deep "a stack of 70000 frames (more than 65536)"
check varint "byte 77 of the file: timestamp delta: a varint cut off"
check threads "byte 96 of the file: more threads than the header declares (2)"
check pop "pops 3 of a stack of 1"
check kind "unknown record kind 7"
check count "header says 99 samples"
check repeat-count "REPEAT count"
check string-index "string index"
if command -v zstd >/dev/null; then
  check zstd "zstd"
  check zstd-pop "byte 31 of the inflated data: pops 3 of a stack of 0"
  check bomb "limit of 1048576 bytes" --max-input 1M
fi
# Real CPython 3.15.2 recordings (tests/fixtures/tachyon: each NAME.bin with
# the command, the Python version and the writer's record counts in
# NAME.cmd, and CPython's own `replay` output: NAME.collapsed, NAME.pstats):
# the sample count, per-function self and total, per-thread counts and
# per-line direct/cumulative samples equal CPython's (tachyon_replay_check.py)
FX=tests/fixtures/tachyon
CHECK=tests/support/tachyon_replay_check.py
for b in "$FX"/*.bin; do
  python3 $CHECK "$PCOL" "${b%.bin}" || fail "$(basename "$b"): differs from CPython's replay"
done
# the writer's duration (TACHSTAT's duration_sec, "Captured N samples in S
# seconds" in NAME.cmd, S to 0.01 s) is the source's stated duration: pcol
# info's duration_ns and `pcol top`'s Duration line (THE duration rule,
# lib/core/wall.c, reads it as pprof's duration_nanos)
for b in "$FX"/*.bin; do
  n=$(basename "$b" .bin)
  s=$(sed -n 's/^# Captured [0-9]* samples in \([0-9.]*\) seconds$/\1/p' "${b%.bin}.cmd")
  [ -n "$s" ] || fail "$n: no writer's report in $n.cmd"
  d=$($PCOL info "$b" --format tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "duration_ns") c = i } NR == 2 { print $c }')
  [ "$(awk -v d="$d" 'BEGIN { if (d ~ /^[0-9]+$/) printf "%.2f", d / 1e9 }')" = "$s" ] ||
    fail "$n: pcol info's duration_ns $d, the writer's $s s"
  $PCOL top "$b" -n 1 | grep -q '^Duration: ' || fail "$n: pcol top prints no Duration: line"
  $PCOL info "$b" | grep -q '^  duration: ' || fail "$n: pcol info prints no duration"
done
# the header word at 60 (profiling mode, capture features) and the mode's
# status bit on every sample: CPython's sampler keeps only the samples its
# mode selects (cpu: on CPU, gil: holding the GIL, exception: one active)
for m in "threads-wall-zstd wall all_threads,gc -" "threads-cpu-none cpu all_threads,gc on_cpu" \
         "threads-gil-zstd gil all_threads,gc gil" "exc-exception-none exception gc exception" \
         "recurse-opcodes-zstd wall gc,opcodes -"; do
  set -- $m
  $PCOL cat "$FX/$1.bin" --table meta > "$tmp/fx.meta" || fail "$1: meta"
  grep -qP "^tachyon.profiling_mode\t$2\t" "$tmp/fx.meta" || fail "$1: profiling mode not $2: $(cat "$tmp/fx.meta")"
  grep -qP "^tachyon.capture_features\t$3\t" "$tmp/fx.meta" || fail "$1: capture features not $3"
  grep -qP "^tachyon.profiler_frames_dropped\t" "$tmp/fx.meta" || fail "$1: no profiler frames dropped"
  # the interval each sample stands for: CPU time in cpu mode, else wall time
  vt=wall; [ "$2" = cpu ] && vt=cpu
  $PCOL info "$FX/$1.bin" | grep -q "values: *samples/count, $vt/nanoseconds" || fail "$1: its time is not $vt: $($PCOL info "$FX/$1.bin" | grep values:)"
  [ "$4" = - ] && continue
  $PCOL tags "$FX/$1.bin" --format json | python3 -c '
import json, sys
r = {x["value"]: x["amount"] for x in json.load(sys.stdin)["rows"] if x["key"] == sys.argv[1]}
sys.exit(0 if list(r) == ["true"] else "label %s: %s" % (sys.argv[1], r))' "$4" || fail "$1: not every sample has $4"
done
# a V8 profile holds one thread and lays its samples end to end
# (doc/mappings.md §10.1): a recording of several threads is refused, the
# threads listed with the --tag that picks each (before: threads-wall-zstd,
# 788 ms of three threads, became one thread busy for 2.12 s; review 12
# F4); one thread's copy lasts that thread's samples, and a recording of
# one thread goes whole
$PCOL unpack "$FX/threads-wall-zstd.bin" --value wall --to v8 -o "$tmp/tw.cpuprofile" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ ! -e "$tmp/tw.cpuprofile" ] || fail "v8 of three threads: exit $rc, not refused"
for t in 14535 14575 14576; do
  grep -q "tid $t (--tag tid=$t)" "$tmp/err" || fail "v8 of three threads: tid $t not listed: $(cat "$tmp/err")"
done
grep -q "source 1 has selected samples of 3 threads" "$tmp/err" || fail "v8 of three threads: $(cat "$tmp/err")"
$PCOL unpack "$FX/threads-wall-zstd.bin" --value wall --tag tid=14575 --to v8 -o "$tmp/tw.cpuprofile" 2>/dev/null ||
  fail "v8 of tid 14575"
want=$($PCOL top "$FX/threads-wall-zstd.bin" --value wall --tag tid=14575 --relative-percentages --unit ms -n 1 2>/dev/null | sed -n 's/.*Total samples = \([^ ]*\) .*/\1/p')
got=$($PCOL top "$tmp/tw.cpuprofile" --unit ms -n 1 2>/dev/null | sed -n 's/.*Total samples = \([^ ]*\) .*/\1/p')
[ -n "$want" ] && [ "$got" = "$want" ] || fail "v8 of tid 14575: $got of samples, the thread's are $want"
$PCOL unpack "$FX/aio-wall-none.bin" --value wall --to v8 -o "$tmp/aio.cpuprofile" || fail "v8 of one thread"
# the V8 and Chrome copies keep when the samples ran (review 21 F1): a
# GIL-mode thread samples only while it holds the GIL, 0.62 s of gaps and
# samples; laid end to end they were written as 0.24 s, and 0.4 .. 0.6 s of
# the Chrome copy held 0 where the recording has 158 ms (within a sample of
# 1 ms a thread: the copy's samples last, the range cuts them)
ms() { sed -n 's/.*Total samples = \([0-9.]*\)ms .*/\1/p'; }
near() { python3 -c 'import sys; a, b, d = map(float, sys.argv[1:]); sys.exit(abs(a - b) > d)' "$1" "$2" "$3"; }
$PCOL unpack "$FX/threads-gil-zstd.bin" --value wall --to chrome -o "$tmp/gil.json" 2>/dev/null || fail "chrome of the GIL recording"
$PCOL unpack "$FX/threads-gil-zstd.bin" --value wall --tag tid=15467 --to v8 -o "$tmp/gil.cpuprofile" 2>/dev/null ||
  fail "v8 of the GIL recording's tid 15467"
want=$($PCOL top "$FX/threads-gil-zstd.bin" --value wall --from 0.4 --to 0.6 --unit ms -n 1 2>/dev/null | ms)
got=$($PCOL top "$tmp/gil.json" --from 0.4 --to 0.6 --unit ms -n 1 2>/dev/null | ms)
[ -n "$want" ] && [ -n "$got" ] && near "$got" "$want" 2 || fail "chrome copy of the GIL recording: 0.4 .. 0.6 s holds ${got}ms, the recording ${want}ms"
want=$($PCOL top "$FX/threads-gil-zstd.bin" --value wall --tag tid=15467 --relative-percentages --from 0.4 --to 0.6 --unit ms -n 1 2>/dev/null | ms)
got=$($PCOL top "$tmp/gil.cpuprofile" --from 0.4 --to 0.6 --unit ms -n 1 2>/dev/null | ms)
[ -n "$want" ] && [ -n "$got" ] && near "$got" "$want" 1 || fail "v8 copy of the GIL recording's tid 15467: 0.4 .. 0.6 s holds ${got}ms, the recording ${want}ms"
# with a CPython 3.15 at hand (PYTHON315, else the path
# tests/support/get_cpython315.sh extracts to), record two fixtures anew and
# judge pcol against its replay of them
PY315=${PYTHON315:-/tmp/py315/root/usr/bin/python3.15}
if [ -x "$PY315" ] && "$PY315" -c 'import _remote_debugging' 2>/dev/null; then
  bash $FX/record.sh "$PY315" "$tmp/live" threads-wall-zstd exc-exception-none > "$tmp/live.log" 2>&1 ||
    fail "recording with $PY315: $(cat "$tmp/live.log")"
  for n in threads-wall-zstd exc-exception-none; do
    python3 $CHECK "$PCOL" "$tmp/live/$n" || fail "live $n: differs from CPython's replay"
  done
else
  echo "t_tachyon: no CPython 3.15 at $PY315 (set PYTHON315; tests/support/get_cpython315.sh): live recording skipped"
fi
echo "t_tachyon: ok"
