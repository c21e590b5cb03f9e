#!/usr/bin/env bash
# The README's examples all run as written (issue 13): every `pcol ...` line of
# its usage blocks is run, in a scratch folder holding the files the lines
# name (made here from examples/demo.out), and must exit 0.  flamegraph.pl,
# when absent, is replaced by cat; the line that loads into a ClickHouse
# server on host H is skipped (tests/interop/t_clickhouse.sh loads for real).
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
cp run.out b.out && gzip -c run.out >run.out.gz
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
# every example line of the README's "Using it" section
awk '/^## Using it/ {on = 1; next} on && /^## / {exit} on' "$REPO/README.md" |
  grep '^pcol ' | sed 's/  *#.*$//' >examples.txt
n=$(wc -l <examples.txt)
[ "$n" -ge 20 ] || fail "only $n example lines found in README.md's Using it section"
ran=0
while IFS= read -r line; do
  case $line in *"--load "*) # names a server host H: tests/interop/t_clickhouse.sh loads for real
    echo "skipped (needs a ClickHouse server): $line"; continue;;
  esac
  case $line in *"--tag "*|*"label:"*) line=${line//cpu.pb.gz/labels.pb.gz};; esac
  bash -c "$line" >out.txt 2>err.txt </dev/null || fail "README example failed: $line: $(head -c 400 err.txt)"
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
# the README's --version example is what pcol --version prints
v=$(pcol --version)
grep -qF "(\`$v\`" "$REPO/README.md" || fail "README's pcol --version example is not '$v'"
echo "t_readme: $ran README examples ran"
