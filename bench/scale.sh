#!/usr/bin/env bash
# scale.sh — any size (issue 32): pack, unpack --to pprof, merge and top of
# generated pprof profiles (bench/gen_profile --stacks many) at 1M and 10M
# samples, and pack at SCALE_BIG samples (default 0: skipped; the issue's
# largest is 100M, an 810 MB .pb.gz that takes ~5 min to generate here).
# Each command runs SCALE_RUNS times (default 3; 1 at 10M and above): the
# minimum wall time (the machine is shared: the least disturbed run) and the
# peak RSS of that run.  Then `pcol top` of every real pprof file above 100
# KB in the test data against `go tool pprof -top` (median CPU of
# SCALE_TOP_RUNS runs, default 10; 3 for Go), and the issue's goals, each
# with its measured ratio, met or missed.  Prints a markdown section on
# stdout; `make bench-scale` writes $(BUILD)/bench-scale.md and `make bench`
# appends it to bench/results/latest.md.
# Env: PCOL, T (bench tools dir), DATA (bench data), SCALE_SIZES (default
# "1000000 10000000"), SCALE_BIG, SCALE_RUNS, SCALE_TOP_RUNS, TESTDATA
# (default ../shared/testdata), SCALE_REAL (default 1; 0 skips the real
# files: bench-quick).
set -u
PCOL=${PCOL:-build/bench-build/bin/pcol}
T=${T:-build/bench-build/bench}
DATA=${DATA:-build/bench-data}/scale
SIZES=${SCALE_SIZES:-1000000 10000000}
BIG=${SCALE_BIG:-0}
RUNS=${SCALE_RUNS:-3}
TRUNS=${SCALE_TOP_RUNS:-10}
TESTDATA=${TESTDATA:-../shared/testdata}
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
gb() { awk -v k="$1" 'BEGIN { printf "%.2f GB", k / 1048576 }'; }
verdict() { awk -v m="$1" -v g="$2" 'BEGIN { print (m <= g ? "**met**" : "**missed**") }'; }
goals=()  # rows of the goals table, "| goal | measured | met? |"
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
  # the goal's "output tables": the written file's size (raw sections: the
  # tables as the builder holds them, less its implicit value columns)
  read -r _ _ rss <<<"$x"
  lim=$(( 262144 + out / 1024 ))
  goals+=("| \`pack\` peak RSS <= 256 MB + output tables, $(human "$n") | $(mb "$rss") of $(mb "$lim") ($(awk -v a="$rss" -v b="$lim" 'BEGIN { printf "%.2f", a / b }')x) | $(verdict "$rss" "$lim") |")
  [ "$n" -eq 10000000 ] && goals+=("| \`pack\` <= 1 GB at 10M samples | $(gb "$rss") | $(verdict "$rss" 1048576) |")
  [ "$n" = "$BIG" ] && { rm -f "$c"; continue; }
  x=$(one "$r" "$PCOL" top "$c") || exit 1
  row "\`pcol top\`" "$(human "$n")" "$x"
  x=$(one "$r" "$PCOL" unpack "$c" --to pprof -o "$tmp/u.pb.gz") || exit 1
  row "\`pcol unpack --to pprof\`" "$(human "$n")" "$x"
  if [ "$n" -eq 10000000 ]; then
    read -r w cpu rss <<<"$x"
    goals+=("| \`unpack --to pprof\` <= 1 GB at 10M | $(gb "$rss") | $(verdict "$rss" 1048576) |")
    goals+=("| \`unpack --to pprof\` >= 2x faster than the issue's 30 s at 10M | wall $w s ($(awk -v a=30 -v b="$w" 'BEGIN { printf "%.1f", a / b }')x), CPU $cpu s ($(awk -v a=30 -v b="$cpu" 'BEGIN { printf "%.1f", a / b }')x) | wall: $(verdict "$w" 15) |")
  fi
  x=$(one "$r" "$PCOL" merge "$c" "$c" -o "$tmp/m.pcol") || exit 1
  out=$(stat -c %s "$tmp/m.pcol")
  row "\`pcol merge\` of the file with itself" "$(human $((2 * n)))" "$x" \
    "output $(awk -v b="$out" 'BEGIN { printf "%.0f MB", b / 1048576 }'); RSS goal <= 256 MB + output tables"
  read -r _ _ rss <<<"$x"
  lim=$(( 262144 + out / 1024 ))
  goals+=("| \`merge\` peak RSS <= 256 MB + output tables, $(human $((2 * n))) | $(mb "$rss") of $(mb "$lim") ($(awk -v a="$rss" -v b="$lim" 'BEGIN { printf "%.2f", a / b }')x) | $(verdict "$rss" "$lim") |")
  rm -f "$c" "$tmp/u.pb.gz" "$tmp/m.pcol"
done
echo

# `pcol top` of a raw pcol file against `go tool pprof -top` of the pprof
# file, for every real pprof file above 100 KB: median CPU (user + system)
# of each, the goal >= 100x.
kv() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }
if [ "${SCALE_REAL:-1}" = 0 ]; then
  :
elif ! command -v go >/dev/null 2>&1; then
  echo "\`go\` is not installed: \`top\` against \`go tool pprof -top\` is not measured."
  echo
elif [ ! -d "$TESTDATA" ]; then
  echo "No test data at $TESTDATA: \`top\` against \`go tool pprof -top\` is not measured."
  echo
else
  echo "\`pcol top\` (raw pcol file) against \`go tool pprof -top\` on every real pprof file above"
  echo "100 KB in the test data: median CPU (user + system) of $TRUNS runs (pcol), 3 (Go)."
  echo
  echo "| file | size | \`pcol top\` CPU | peak RSS | \`go tool pprof -top\` CPU | ratio | goal >= 100x |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  worst=""
  while IFS= read -r f; do
    case ${f#"$TESTDATA"} in *pprof*) ;; *) continue ;; esac  # the pprof folders
    c=$tmp/real.pcol
    if ! "$PCOL" pack "$f" -o "$c" 2>/dev/null; then
      echo "| $(basename "$f") | $(du -h "$f" | cut -f1) | pack refused it | | | | |"
      continue
    fi
    a=$("$T/timecmd" -n "$TRUNS" -w 1 -t 60 -- "$PCOL" top "$c")
    g=$("$T/timecmd" -n 3 -w 1 -t 120 -- go tool pprof -top "$f")
    case "$a$g" in *fail*) echo "| $(basename "$f") | failed | | | | | |"; continue ;; esac
    pc=$(kv cpu "$a"); gc=$(kv cpu "$g")
    ratio=$(awk -v a="$gc" -v b="$pc" 'BEGIN { printf "%.0f", (b > 0 ? a / b : 0) }')
    [ -z "$worst" ] || [ "$ratio" -lt "${worst%% *}" ] && worst="$ratio $(basename "$f")"
    echo "| $(basename "$f") | $(du -h "$f" | cut -f1) | $(awk -v s="$pc" 'BEGIN { printf "%.1f ms", s * 1000 }') |" \
      "$(mb "$(kv rss_kb "$a")") | $(awk -v s="$gc" 'BEGIN { printf "%.0f ms", s * 1000 }') | ${ratio}x |" \
      "$(awk -v r="$ratio" 'BEGIN { print (r >= 100 ? "met" : "missed") }') |"
    rm -f "$c"
  done < <(find "$TESTDATA" -type f -size +100k \( -name '*.pb.gz' -o -name '*.pb' -o -name '*.pprof' \) | sort)
  echo
  [ -n "$worst" ] && goals+=("| \`top\` >= 100x \`go tool pprof -top\` on real pprof files > 100 KB | lowest ${worst%% *}x (${worst#* }), CPU | $(awk -v r="${worst%% *}" 'BEGIN { print (r >= 100 ? "**met**" : "**missed** (bench/analysis.md)") }') |")
fi

echo "Issue 32's goals measured here (many-file goals: bench/many.sh's section):"
echo
echo "| goal | measured | met? |"
echo "|---|---|---|"
for g in "${goals[@]}"; do echo "$g"; done
echo
echo "Load average $(load) at the end."
