#!/usr/bin/env bash
# info_summary.sh — `pcol info` at any size (issue 47, "O(1) header views"):
# time and peak RSS of `pcol info` on generated pprof profiles
# (bench/gen_profile --stacks many, one Sample a tick, as bench/scale.sh
# makes them) packed as format 1.3 (with the per-source summary, spec.md
# §6.10) and with --format-version 1.2 (without: the pass over the samples
# of before), and, when PCOL_OLD names a pcol built before the summary, that
# build on its own file.  Each command: bench/timecmd, INFO_RUNS runs
# (default 10) after one warm-up; the median wall time, the median CPU and
# the peak RSS.  Prints a markdown section on stdout.
# Env: PCOL, PCOL_OLD, T (bench tools), DATA (bench data), INFO_SIZES
# (default "1000000 10000000"), INFO_RUNS.
set -u
PCOL=${PCOL:-build/bench-build/bin/pcol}
T=${T:-build/bench-build/bench}
DATA=${DATA:-build/bench-data}/scale
SIZES=${INFO_SIZES:-1000000 10000000}
RUNS=${INFO_RUNS:-10}
OLD=${PCOL_OLD:-}
mkdir -p "$DATA" || exit 1
human() { awk -v n="$1" 'BEGIN { if (n >= 1e6) printf "%dM", n / 1e6; else printf "%dk", n / 1e3 }'; }
# measure LABEL N PCOL FILE -> a table row
measure() {
  local line med cpu rss
  line=$("$T/timecmd" -n "$RUNS" -w 1 -- "$3" info "$4") || return 1
  case $line in ok*) ;; *) echo "info_summary.sh: $3 info $4: $line" >&2; return 1;; esac
  med=$(sed 's/.* median=\([^ ]*\).*/\1/' <<<"$line")
  cpu=$(sed 's/.* cpu=\([^ ]*\).*/\1/' <<<"$line")
  rss=$(sed 's/.* rss_kb=\([^ ]*\).*/\1/' <<<"$line")
  printf '| %s | %s | %.2f ms | %.2f ms | %.1f MB | %s |\n' "$1" "$(human "$2")" \
    "$(awk -v x="$med" 'BEGIN { print x * 1000 }')" "$(awk -v x="$cpu" 'BEGIN { print x * 1000 }')" \
    "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$(stat -c %s "$4" | awk '{ printf "%.0f MB", $1 / 1048576 }')"
}
echo "## \`pcol info\` from the per-source summary (format 1.3)"
echo
echo "Generated pprof CPU profiles (\`bench/gen_profile --stacks many\`), \`pcol info FILE\`"
echo "(text), $RUNS runs after a warm-up (bench/timecmd): median wall, median CPU, peak RSS;"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
echo
echo "| file | samples | wall | CPU | peak RSS | file size |"
echo "|---|---:|---:|---:|---:|---:|"
for n in $SIZES; do
  p=$DATA/pm-$n.pb.gz
  [ -s "$p" ] || "$T/gen_profile" --samples "$n" --stacks many --pprof "$p" >/dev/null || exit 1
  for v in 1.3 1.2; do
    f=$DATA/pm-$n.v$v.pcol
    [ -s "$f" ] || "$PCOL" pack "$p" --format-version "$v" -o "$f" || exit 1
  done
  if [ -n "$OLD" ]; then
    f=$DATA/pm-$n.before.pcol
    [ -s "$f" ] || "$OLD" pack "$p" -o "$f" || exit 1
    cmp -s "$f" "$DATA/pm-$n.v1.2.pcol" || echo "info_summary.sh: --format-version 1.2 differs from $OLD's file" >&2
    measure "before (no summary; the build before it)" "$n" "$OLD" "$f" || exit 1
  fi
  measure "1.2 (\`--format-version 1.2\`: the pass over the samples)" "$n" "$PCOL" "$DATA/pm-$n.v1.2.pcol" || exit 1
  measure "1.3 (the summary)" "$n" "$PCOL" "$DATA/pm-$n.v1.3.pcol" || exit 1
done
