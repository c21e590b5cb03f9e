#!/usr/bin/env bash
# pack_disk.sh PCOL IN OUT [pack options...] — one `PCOL pack IN -o OUT`
# under /usr/bin/time -v, with its temporary disk sampled every ${IV:-0.5} s:
# the summed disk blocks of the unlinked files the process holds open or
# mapped (/proc/PID/fd and /proc/PID/map_files whose link ends in "(deleted)",
# each inode once; blocks, not sizes: a copy read once frees its blocks), in all and apart for the builder's spilled columns
# (pcol-samples-*, pcol-column-*, lib/core/spill.c).  Prints one markdown row:
# | CPU s (user + sys) | peak RSS | peak temporary disk (all) | of it columns | output | temp/output |
# (bench/results/pack-write-path.md)
set -u
pcol=$1 in=$2 out=$3
shift 3
log=$(mktemp)
/usr/bin/time -v "$pcol" pack "$in" -o "$out" "$@" 2>"$log" >/dev/null &
tpid=$!
pid=""
for _ in $(seq 100); do pid=$(pgrep -P $tpid | head -1); [ -n "$pid" ] && break; sleep 0.01; done
peak=0 cpeak=0
while kill -0 $tpid 2>/dev/null; do
  read -r s c < <(for f in /proc/$pid/fd/* /proc/$pid/map_files/*; do
      l=$(readlink "$f" 2>/dev/null) || continue
      case $l in *"(deleted)") stat -L -c '%i %b %B' "$f" 2>/dev/null | sed "s|\$| $l|" ;; esac
    done | awk '!seen[$1]++ { d = $2 * $3; s += d; if ($4 ~ /pcol-(samples|column)-/) c += d } END { printf "%.0f %.0f\n", s, c }')
  [ "${s:-0}" -gt $peak ] && peak=$s
  [ "${c:-0}" -gt $cpeak ] && cpeak=$c
  sleep "${IV:-0.5}"
done
wait $tpid || { cat "$log" >&2; rm -f "$log"; exit 1; }
u=$(awk -F': ' '/User time/ {print $2}' "$log")
sy=$(awk -F': ' '/System time/ {print $2}' "$log")
rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$log")
rm -f "$log"
osz=$(stat -c %s "$out")
awk -v u="$u" -v s="$sy" -v r="$rss" -v p="$peak" -v c="$cpeak" -v o="$osz" 'BEGIN {
  printf "| %.2f s (%.2f + %.2f) | %.1f MiB | %.1f MB | %.1f MB | %.1f MB | %.2f |\n",
    u + s, u, s, r / 1024, p / 1e6, c / 1e6, o / 1e6, p / o }'
