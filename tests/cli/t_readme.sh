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
cp run.out b.out
pcol unpack run.out --to pprof -o cpu.pb.gz || fail "making cpu.pb.gz"
pcol unpack run.out --to otlp -o profiles.otlp || fail "making profiles.otlp"
cp cpu.pb.gz c.pb.gz && cp cpu.pb.gz b.pb.gz && cp cpu.pb.gz big.pb.gz
pcol pack run.out -o a.pcol && pcol pack run.out --from-time 0 --to-time 1 -o base.pcol 2>/dev/null ||
  pcol pack run.out -o base.pcol
pcol pack run.out -o new.pcol || fail "making the pcol inputs"
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
  bash -c "$line" >out.txt 2>err.txt </dev/null || fail "README example failed: $line: $(head -c 400 err.txt)"
  ran=$((ran + 1))
done <examples.txt
echo "t_readme: $ran README examples ran"
