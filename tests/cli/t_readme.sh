#!/usr/bin/env bash
# The README's and doc/cli.md's examples all run as written (issues 13, 45):
# every `pcol ...` line of their ```sh blocks is run, in a scratch folder
# holding the files the lines name (made here from examples/demo.out), and
# must exit 0.  flamegraph.pl, when absent, is replaced by cat; the line that
# loads into a ClickHouse server on host H is skipped
# (tests/interop/t_clickhouse.sh loads for real).
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_readme: FAIL: $*" >&2; exit 1; }
mkdir "$tmp/bin"
ln -s "$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")" "$tmp/bin/pcol"
command -v flamegraph.pl >/dev/null 2>&1 || printf '#!/bin/sh\ncat\n' >"$tmp/bin/flamegraph.pl"
chmod +x "$tmp/bin/flamegraph.pl" 2>/dev/null
cd "$tmp" || exit 1
export PATH="$tmp/bin:$PATH"
# the files the examples name
cp "$REPO/examples/demo.out" run.out
cp run.out b.out && cp run.out c.out && gzip -c run.out >run.out.gz
pcol unpack run.out --to pprof -o cpu.pb.gz || fail "making cpu.pb.gz"
pcol unpack run.out --to otlp -o profiles.otlp || fail "making profiles.otlp"
cp cpu.pb.gz c.pb.gz && cp cpu.pb.gz b.pb.gz && cp cpu.pb.gz big.pb.gz
pcol pack run.out -o a.pcol && pcol pack run.out --from-time 0 --to-time 1 -o base.pcol 2>/dev/null ||
  pcol pack run.out -o base.pcol
pcol pack run.out -o new.pcol || fail "making the pcol inputs"
# the label filters' examples need labels: worker/kind strings, heap "bytes"
python3 "$REPO/tests/support/semantics_pprof.py" . || fail "making labels.pb.gz"
cp nums.pb.gz heap.pb.gz
# a JDK Flight Recorder recording, written without a JVM
python3 "$REPO/tests/support/gen_jfr.py" app.jfr --chunks 2 || fail "making app.jfr"
# a Perfetto trace of StackSample packets (the importer contract's generator)
python3 "$REPO/tests/contract/gen.py" perfetto trace.pftrace >/dev/null || fail "making trace.pftrace"
# a perf script of two events, page-faults first (`perf record -e
# page-faults,cpu-clock`: its default is the time event, doc/mappings.md §9)
printf 'prog 100 0.500000:          1 page-faults: \n\t    1000 main+0x0 (/bin/prog)\n\nprog 100 1.000100:    2000000 cpu-clock: \n\t    1000 leaf+0x0 (/bin/prog)\n\t    2000 main+0x0 (/bin/prog)\n\n' >perf.txt
# a day of one-minute profiles for doc/cli.md's "Many files as one": pcol
# files whose wall-clock start is 09:xx or 10:xx on 2026-11-23 (pprof's
# time_nanos), and .pb.gz ones named as the glob example names them
mkdir day
for m in 0930 0945 1015 1030; do
  ns=$(( ($(date -u -d "2026-11-23T${m:0:2}:${m:2:2}:00Z" +%s)) * 1000000000 ))
  # protobuf's last field wins: time_nanos (9) and duration_nanos (10) appended
  python3 -c 'import gzip, sys
def v(n):
    b = bytearray()
    while True:
        b.append((n & 0x7f) | (0x80 if n > 0x7f else 0)); n >>= 7
        if not n: return bytes(b)
p = gzip.open(sys.argv[1]).read() + b"\x48" + v(int(sys.argv[2])) + b"\x50" + v(60 * 10**9)
open(sys.argv[3], "wb").write(gzip.compress(p))' cpu.pb.gz "$ns" "day/cpu-20261123T$m.pb.gz" ||
    fail "making day/cpu-20261123T$m.pb.gz"
done
# Go's profile endpoints on localhost:6060, which the URL examples name: a
# server on 127.0.0.1 (tests/support/http_serve.py, stopped within 600 s, as in t_fetch.sh)
# serving profile and heap, the lines pointed at its port
mkdir www && cp cpu.pb.gz www/profile && cp heap.pb.gz www/heap
python3 "$REPO/tests/support/http_serve.py" www port 600 &
srv=$!
trap 'kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 300); do [ -s port ] && break; sleep 0.1; done
[ -s port ] || fail "the HTTP server did not start"
# every example line of the ```sh blocks of the README and doc/cli.md
for doc in README.md doc/cli.md; do
  awk '/^```sh/ {on = 1; next} /^```/ {on = 0} on' "$REPO/$doc" | grep '^pcol ' | sed 's/  *#.*$//'
done >examples.txt
n=$(wc -l <examples.txt)
[ "$n" -ge 60 ] || fail "only $n example lines found in README.md and doc/cli.md"
ran=0
while IFS= read -r line; do
  case $line in *"--load "*) # names a server host H: tests/interop/t_clickhouse.sh loads for real
    echo "skipped (needs a ClickHouse server): $line"; continue;;
  esac
  case $line in *"--tag "*|*"label:"*|*"--tagroot "*) line=${line//cpu.pb.gz/labels.pb.gz};; esac
  line=${line//localhost:6060/127.0.0.1:$(cat port)}
  bash -c "$line" >out.txt 2>err.txt </dev/null || fail "example failed: $line: $(head -c 400 err.txt)"
  ran=$((ran + 1))
done <examples.txt
# the README's C snippet (examples/read_top.c's core) compiles, and on a
# missing file prints a message and fails instead of crashing
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$REPO/$BUILD;; esac
if [ -f "$BUILD/lib/libpcol.a" ] && command -v cc >/dev/null 2>&1; then
  { printf '#include <pcol.h>\n#include <stdio.h>\nint main(void) {\n'
    awk '/^```c/ {on = 1; next} on && /^```/ {exit} on' "$REPO/README.md"
    printf 'return 0;\n}\n'; } > snippet.c
  san= # the sanitizer build's library needs its runtime (make test)
  nm "$BUILD/lib/libpcol.a" 2>/dev/null | grep -q '__asan_' && san="-fsanitize=address,undefined"
  cc -std=c11 -D_GNU_SOURCE $san -I"$REPO/include" snippet.c "$BUILD/lib/libpcol.a" -llz4 -lzstd -lz -lprotobuf-c \
    -ljansson -lpthread -lm -o snippet 2>err.txt || fail "the README's C snippet does not compile: $(head -c 600 err.txt)"
  mkdir nofile && (cd nofile && ../snippet) >/dev/null 2>err.txt; rc=$?
  [ $rc = 1 ] && grep -q 'run.pcol' err.txt || fail "the C snippet on a missing file: exit $rc, '$(cat err.txt)'"
  pcol pack run.out -o run.pcol && ./snippet || fail "the C snippet on run.pcol"
fi
# doc/cli.md's --version example is what pcol --version prints
v=$(pcol --version)
grep -qF "(\`$v\`" "$REPO/doc/cli.md" || fail "doc/cli.md's pcol --version example is not '$v'"
echo "t_readme: $ran examples of README.md and doc/cli.md ran"
