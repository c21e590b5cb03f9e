#!/usr/bin/env bash
# bench/clickhouse.sh — `pcol export --to clickhouse` of a 1M-sample profile
# (gen_profile --samples 1000000 --stacks many --weights): MB/s of Native
# output, best of 3, by wall clock and by CPU time (user + sys; the wall clock
# of a shared machine counts other processes' time too).  Output to
# /dev/shm when it exists (the files are fsynced; a disk's fsync time is not
# the exporter's).  Goal (issue 19): >= 100 MB/s.
set -eu
B=${BENCH_BUILD:-build/bench-build}
W=$(mktemp -d "${TMPDIR:-/tmp}/pcol-bench-ch-XXXXXX")
O=$( [ -d /dev/shm ] && mktemp -d /dev/shm/pcol-bench-ch-XXXXXX || mktemp -d "$W/out-XXXXXX")
trap 'rm -rf "$W" "$O"' EXIT
"$B/bench/gen_profile" --samples 1000000 --stacks many --weights --pcol "$W/1m.pcol" >/dev/null
best_wall=999999; best_cpu=999999
for i in 1 2 3; do
  rm -rf "$O/out"
  /usr/bin/time -f "%e %U %S" -o "$W/t" "$B/bin/pcol" export "$W/1m.pcol" --to clickhouse -o "$O/out" 2>/dev/null
  read -r wall u s <"$W/t"
  cpu=$(echo "$u + $s" | bc)
  best_wall=$(echo "if ($wall < $best_wall) $wall else $best_wall" | bc)
  best_cpu=$(echo "if ($cpu < $best_cpu) $cpu else $best_cpu" | bc)
done
bytes=$(cat "$O"/out/*.native | wc -c)
mbw=$(echo "scale=1; $bytes / 1000000 / $best_wall" | bc)
mbc=$(echo "scale=1; $bytes / 1000000 / $best_cpu" | bc)
echo "clickhouse export, 1M samples: $bytes bytes of Native output ($(stat -c %s "$W/1m.pcol") bytes of pcol)"
echo "  wall $best_wall s: $mbw MB/s; cpu $best_cpu s: $mbc MB/s (goal >= 100 MB/s)"
