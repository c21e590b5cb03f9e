#!/usr/bin/env bash
# Format 1.3 against 1.2 (issue 47): sizes of every real pprof file over
# 100 KB in the shared test data (default file, zstd, lz4, against the
# protobuf and the .pb.gz), bytes a sample of a generated 1M
# one-Sample-per-tick profile, and `pcol top` CPU on the 1.2, 1.3 and lz4
# files (best of N).
# Usage: bench/format13.sh [PCOL] [TESTDATA] > bench/results/format-1.3.md
set -eu
P=${1:-build/bin/pcol}
D=${2:-../shared/testdata}
GEN=${GEN:-build/bench/gen_profile}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
RUNS=${RUNS:-5}
TIMECMD=${TIMECMD:-build/bench/timecmd}
cpu() { # least CPU (user + system) of RUNS runs of "$@", in ms (bench/timecmd's cpu_min)
  "$TIMECMD" -n "$RUNS" -o /dev/null -- "$@" | sed -n 's/.*cpu_min=\([0-9.]*\).*/\1/p' | awk '{printf "%.1f", $1 * 1000}'
}
echo "# Format 1.3: sizes and top CPU"
echo
echo "$(date -u +%F), \`bench/format13.sh\` at $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)."
echo "1.2: \`pcol pack --format-version 1.2\` (the bytes earlier versions wrote); 1.3: \`pcol pack\`;"
echo "zstd: \`pcol pack --compress zstd\` (1.3: encoded columns under zstd where smaller); lz4: \`pcol pack --compress lz4\`"
echo "(1.3 since 2026-11-29: encoded columns under LZ4 where smaller; 1.0 before). CPU: least of $RUNS runs, ms (bench/timecmd cpu_min)."
echo
echo "| file | protobuf | .pb.gz | 1.2 | 1.3 | 1.3 / protobuf | 1.3 / .pb.gz | zstd | zstd / .pb.gz | lz4 | lz4 / .pb.gz | lz4 / 1.3 | top 1.2 ms | top 1.3 ms | top lz4 ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
find "$D" -type f \( -name '*.pb.gz' -o -name '*.pb' -o -name '*.pprof' -o -name '*.pb.bin' \) -size +100k | sort | while read -r f; do
  "$P" pack "$f" -o "$T/a.pcol" --format-version 1.2 2>/dev/null || continue
  "$P" pack "$f" -o "$T/b.pcol"
  "$P" pack "$f" -o "$T/z.pcol" --compress zstd
  "$P" pack "$f" -o "$T/l.pcol" --compress lz4
  if gzip -t "$f" 2>/dev/null; then zcat "$f" >"$T/pb"; cp "$f" "$T/pb.gz"; else cp "$f" "$T/pb"; gzip -6 -c "$f" >"$T/pb.gz"; fi
  pb=$(stat -c %s "$T/pb") gz=$(stat -c %s "$T/pb.gz") a=$(stat -c %s "$T/a.pcol") b=$(stat -c %s "$T/b.pcol") z=$(stat -c %s "$T/z.pcol") l=$(stat -c %s "$T/l.pcol")
  ta=$(cpu "$P" top "$T/a.pcol") tb=$(cpu "$P" top "$T/b.pcol") tl=$(cpu "$P" top "$T/l.pcol")
  echo "| ${f#"$D"/} | $pb | $gz | $a | $b | $(echo "$b $pb" | awk '{printf "%.2f", $1/$2}') | $(echo "$b $gz" | awk '{printf "%.2f", $1/$2}') | $z | $(echo "$z $gz" | awk '{printf "%.2f", $1/$2}') | $l | $(echo "$l $gz" | awk '{printf "%.2f", $1/$2}') | $(echo "$l $b" | awk '{printf "%.2f", $1/$2}') | $ta | $tb | $tl |"
done | tee "$T/rows"
awk -F'|' '{print $7, $8, $10, $12, $13}' "$T/rows" | python3 -c '
import sys, statistics as st
r = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
if r:
    print("\nMedians over %d files: 1.3 / protobuf %.2f (goal <= 1.0), 1.3 / .pb.gz %.2f (goal <= 2.0), zstd / .pb.gz %.2f (goal <= 0.4), lz4 / .pb.gz %.2f (goal <= 1.0), lz4 / 1.3 %.2f." % (
        len(r), st.median(x[0] for x in r), st.median(x[1] for x in r), st.median(x[2] for x in r),
        st.median(x[3] for x in r), st.median(x[4] for x in r)))'
if [ -x "$GEN" ]; then
  "$GEN" --samples 1000000 --stacks many --pprof "$T/g.pb.gz" >/dev/null
  "$P" pack "$T/g.pb.gz" -o "$T/g12.pcol" --format-version 1.2
  "$P" pack "$T/g.pb.gz" -o "$T/g13.pcol"
  "$P" pack "$T/g.pb.gz" -o "$T/gl.pcol" --compress lz4
  per() { "$P" info "$1" | awk '($1=="samples_stored"||$1=="values") && $4 ~ /raw|lz4|zstd/ {s+=$6} END {print s+0}'; }
  echo
  echo "Generated 1M one-Sample-per-tick profile (\`gen_profile --samples 1000000 --stacks many\`: 518k stack nodes):"
  echo "1.2 file $(stat -c %s "$T/g12.pcol") bytes, 1.3 file $(stat -c %s "$T/g13.pcol") bytes, lz4 file $(stat -c %s "$T/gl.pcol") bytes;"
  echo "sample and value columns: 1.2 $(per "$T/g12.pcol") bytes, 1.3 $(per "$T/g13.pcol") bytes ($(per "$T/g13.pcol" | awk '{printf "%.2f", $1/1e6}') bytes a sample; goal <= 6);"
  echo "top CPU: 1.2 $(cpu "$P" top "$T/g12.pcol") ms, 1.3 $(cpu "$P" top "$T/g13.pcol") ms, lz4 $(cpu "$P" top "$T/gl.pcol") ms."
fi
