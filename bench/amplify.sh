#!/usr/bin/env bash
# amplify.sh — every command against crafted amplifiers (issue 42 O1): the
# worst ratio of output bytes and of peak RSS to the bytes the user gave
# (the input file as it is on disk: a gzip's compressed bytes), beside the
# bound doc/safety.md states (B = max(32 MiB, 64 x input bytes)).
#   name     31.9 KB gzip of one OTLP/JSON line: a 31 MiB function name on a
#            64-deep stack (tests/support/amplifiers.py)
#   inline   1 KB pprof: 1,024 inline frames of a 256 KiB name
#            (tests/support/amplifier.py)
#   chain    speedscope evented profile of 100,000 nested opens, packed with
#            zstd (~90 KB): 100,000 stacks, sum of depths 5e9
#   sources  gzip of 80,000 one-sample OTLP/JSON requests (80,000 sources)
# Each command runs under prlimit --as=4G and timeout 60 s; a refusal
# (exit 1, the budget message) is a pass as long as output and memory stay
# within their bounds.  Prints a markdown section on stdout (bench/results/
# amplify.md has the last run).  Env: PCOL (default build/bin/pcol).
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tests/support/amplifiers.py name "$tmp/name.json.gz"
python3 tests/support/amplifier.py "$tmp/inline.pb.gz"
python3 tests/support/amplifiers.py chain "$tmp/chain.json"
"$PCOL" pack "$tmp/chain.json" --compress zstd -o "$tmp/chain.pcol" 2>/dev/null
rm -f "$tmp/chain.json"
python3 tests/support/amplifiers.py sources "$tmp/sources.json.gz" 80000 # 24 MB inflated: under the 32 MiB input cap
MIN=$((32 << 20))
cmds=("top" "top --by line" "peek ." "tags" "traces" "fold" "info" "graph" "cat --table all"
      "list . --allow-any-source"
      "flame -o OUT" "report -o OUT" "diff SELF"
      "unpack --to rprof -o OUT" "unpack --to pprof -o OUT" "unpack --to perun -o OUT"
      "unpack --to collapsed -o OUT" "unpack --to speedscope -o OUT" "unpack --to firefox -o OUT"
      "unpack --to otlp -o OUT" "export --to clickhouse -o OUT")
echo "## Amplifiers (bench/amplify.sh, $(date -u +%Y-%m-%d))"
echo
echo "Output and peak RSS of every command over crafted inputs, as ratios to the"
echo "input's bytes on disk.  Bound (doc/safety.md): output <= B = max(32 MiB,"
echo "128 x input); memory: the import (at most max(32 MiB, 64 x input) decoded,"
echo "a few times that held) plus what B allows to be held.  Exit 1 is a refusal"
echo "(the budget's message); 124 is the 60 s timeout."
echo
echo "| input | bytes | command | exit | output | output/input | B | peak RSS | RSS/input | seconds |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
worst_out=0 worst_rss=0 over=0
for in in name.json.gz inline.pb.gz chain.pcol sources.json.gz; do
  f=$tmp/$in
  size=$(stat -c %s "$f")
  b=$((128 * size)); [ $b -lt $MIN ] && b=$MIN
  for c in "${cmds[@]}"; do
    out=$tmp/out
    rm -rf "$out"
    args=${c//OUT/$out}
    args=${args//SELF/$f}
    set -- $args
    cmd=$1
    shift
    case $c in *OUT*) sink=/dev/null ;; *) sink=$out ;; esac
    start=$(date +%s.%N)
    /usr/bin/time -f %M -o "$tmp/rss" timeout 60 prlimit --as=$((4 << 30)) -- \
      "$PCOL" $cmd "$f" "$@" >"$sink" 2>"$tmp/err"
    rc=$?
    secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    kb=$(tail -1 "$tmp/rss")
    o=$(du -sb "$out" 2>/dev/null | cut -f1) # a file, or export's directory
    o=${o:-0}
    ro=$(awk -v o="$o" -v s="$size" 'BEGIN { printf "%.0f", o / s }')
    rr=$(awk -v k="$kb" -v s="$size" 'BEGIN { printf "%.0f", k * 1024 / s }')
    flag=""
    [ "$o" -gt "$b" ] && flag=" **over B**" && over=$((over + 1))
    [ "$rc" -ge 2 ] && flag="$flag **exit $rc**" && over=$((over + 1))
    [ "$ro" -gt "$worst_out" ] && worst_out=$ro
    [ "$rr" -gt "$worst_rss" ] && worst_rss=$rr
    printf '| %s | %s | `%s` | %s | %s | %s | %s | %s MB | %s | %s |\n' "$in" "$size" "$c" "$rc" \
      "$o$flag" "$ro" "$b" "$((kb / 1024))" "$rr" "$secs"
  done
done
echo
echo "Worst output/input: $worst_out; worst peak RSS/input: $worst_rss; over a bound: $over."
