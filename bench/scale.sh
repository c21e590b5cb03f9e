#!/usr/bin/env bash
# scale.sh — any size (issue 32): pack, unpack --to pprof, merge and top of
# generated pprof profiles (bench/gen_profile --stacks many) at 1M and 10M
# samples, and pack at SCALE_BIG samples (default 0: skipped; the issue's
# largest is 100M, an 810 MB .pb.gz that takes ~5 min to generate here).
# Each command runs SCALE_RUNS times (default 3; 1 at 10M and above): the
# minimum wall time (the machine is shared: the least disturbed run) and the
# peak RSS of that run.  Prints a markdown section on stdout;
# `make bench-scale` writes $(BUILD)/bench-scale.md.
# Env: PCOL, T (bench tools dir), DATA (bench data), SCALE_SIZES (default
# "1000000 10000000"), SCALE_BIG, SCALE_RUNS.
set -u
PCOL=${PCOL:-build/bench-build/bin/pcol}
T=${T:-build/bench-build/bench}
DATA=${DATA:-build/bench-data}/scale
SIZES=${SCALE_SIZES:-1000000 10000000}
BIG=${SCALE_BIG:-0}
RUNS=${SCALE_RUNS:-3}
mkdir -p "$DATA" || exit 1
tmp=$(mktemp -d -p "$DATA")
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

# one(N CMD...) -> "wall_s cpu_s rss_kb" of the fastest of N runs
one() {
  local n=$1 best="" line
  shift
  for _ in $(seq "$n"); do
    line=$(/usr/bin/time -f '%e %U %S %M' "$@" 2>&1 >/dev/null | tail -n 1) || {
      echo "scale.sh: failed: $*" >&2; return 1; }
    read -r w u s m <<<"$line"
    line="$w $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') $m"
    if [ -z "$best" ] || awk -v a="$w" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$line; fi
  done
  echo "$best"
}
mb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
row() { # row CASE N "wall cpu rss" [NOTE]
  local w c r
  read -r w c r <<<"$3"
  echo "| $1 | $2 | ${w} s | ${c} s | $(mb "$r") | ${4:-} |"
}
human() { awk -v n="$1" 'BEGIN { if (n >= 1e6) printf "%dM", n / 1e6; else printf "%dk", n / 1e3 }'; }

echo "## Any size (issue 32): pack, unpack, merge, top"
echo
echo "Generated pprof CPU profiles (\`bench/gen_profile --stacks many\`, one Sample a tick)."
echo "Fastest of $RUNS runs at 1M, one run from 10M up (wall, CPU = user + system, peak RSS"
echo "of that run); load average $(load) at the start."
echo
echo "| case | samples | wall | CPU | peak RSS | note |"
echo "|---|---:|---:|---:|---:|---|"
for n in $SIZES $([ "$BIG" -gt 0 ] && echo "$BIG"); do
  p=$DATA/pm-$n.pb.gz
  [ -s "$p" ] || "$T/gen_profile" --samples "$n" --stacks many --pprof "$p" >/dev/null || exit 1
  r=$RUNS
  [ "$n" -ge 10000000 ] && r=1
  c=$tmp/pm-$n.pcol
  x=$(one "$r" "$PCOL" pack "$p" -o "$c") || exit 1
  out=$(stat -c %s "$c")
  row "\`pcol pack\` pprof ($(du -h "$p" | cut -f1) .pb.gz)" "$(human "$n")" "$x" \
    "output $(awk -v b="$out" 'BEGIN { printf "%.0f MB", b / 1048576 }'); RSS goal <= 256 MB + output tables"
  [ "$n" = "$BIG" ] && { rm -f "$c"; continue; }
  x=$(one "$r" "$PCOL" top "$c") || exit 1
  row "\`pcol top\`" "$(human "$n")" "$x"
  x=$(one "$r" "$PCOL" unpack "$c" --to pprof -o "$tmp/u.pb.gz") || exit 1
  row "\`pcol unpack --to pprof\`" "$(human "$n")" "$x"
  x=$(one "$r" "$PCOL" merge "$c" "$c" -o "$tmp/m.pcol") || exit 1
  row "\`pcol merge\` of the file with itself" "$(human $((2 * n)))" "$x"
  rm -f "$c" "$tmp/u.pb.gz" "$tmp/m.pcol"
done
echo
echo "Load average $(load) at the end."
