#!/usr/bin/env bash
# How small general-purpose coders get the files of format13.sh's size
# table (every real pprof file over 100 KB), against its .pb.gz, to tell
# whether issue 47's goal "zstd <= 0.4x the .pb.gz (median)" is within
# reach of a stronger coder around pcol's columns.  For each file: pcol's
# zstd file, then xz -9e and zpaq -m5 (a context-mixing coder, ~1 MB/s both
# ways: far slower than any codec a reader could inflate on use) of the
# protobuf and of the 1.3 file (plain and encoded columns, no codec).
# A file's "best" is the least of all of them.  Prints markdown.
# Needs xz and zpaq (Debian packages, not pcol dependencies): without
# them it says so and exits 0.
# Usage: bench/coder_bound.sh [PCOL] [TESTDATA]
set -eu
P=${1:-build/bin/pcol}
D=${2:-../shared/testdata}
for c in xz zpaq; do
  command -v "$c" >/dev/null || { echo "coder_bound.sh: $c not installed (apt-get install xz-utils zpaq): skipped"; exit 0; }
done
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
zp() { rm -f "$T/a.zpaq"; (cd "$(dirname "$1")" && zpaq a "$T/a.zpaq" "$(basename "$1")" -m5 >/dev/null 2>&1); stat -c %s "$T/a.zpaq"; }
echo "| file | .pb.gz | pcol zstd | xz -9e protobuf | zpaq -m5 protobuf | xz -9e 1.3 | zpaq -m5 1.3 | best / .pb.gz |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
find "$D" -type f \( -name '*.pb.gz' -o -name '*.pb' -o -name '*.pprof' -o -name '*.pb.bin' \) -size +100k | sort | while read -r f; do
  "$P" pack "$f" -o "$T/a.pcol" --format-version 1.2 2>/dev/null || continue # (format13.sh's files)
  "$P" pack "$f" -o "$T/b.pcol"
  "$P" pack "$f" -o "$T/z.pcol" --compress zstd
  # the .pb.gz as format13.sh counts it
  if gzip -t "$f" 2>/dev/null; then zcat "$f" >"$T/pb"; cp "$f" "$T/pb.gz"; else cp "$f" "$T/pb"; gzip -6 -c "$f" >"$T/pb.gz"; fi
  gz=$(stat -c %s "$T/pb.gz") z=$(stat -c %s "$T/z.pcol")
  xp=$(xz -9e -c "$T/pb" | wc -c) x3=$(xz -9e -c "$T/b.pcol" | wc -c)
  zpp=$(zp "$T/pb") zp3=$(zp "$T/b.pcol")
  best=$(printf '%s\n' "$z" "$xp" "$x3" "$zpp" "$zp3" | sort -n | head -1)
  echo "| ${f#"$D"/} | $gz | $z | $xp | $zpp | $x3 | $zp3 | $(awk -v a="$best" -v g="$gz" 'BEGIN { printf "%.2f", a / g }') |"
done | tee "$T/rows"
awk -F'|' '{ print $4 / $3, $9 }' "$T/rows" | python3 -c '
import sys, statistics as st
r = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
if r:
    print("\nMedians over %d files: pcol zstd / .pb.gz %.2f; best of any coder above / .pb.gz %.2f (goal for pcol zstd: <= 0.4)." % (
        len(r), st.median(x[0] for x in r), st.median(x[1] for x in r)))'
