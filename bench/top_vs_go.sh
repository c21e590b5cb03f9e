#!/usr/bin/env bash
# bench/top_vs_go.sh OLD NEW FILE... — `pcol top` CPU of two builds on each
# profile packed to .pcol (the pack is not counted), against `go tool pprof
# -top` of the original file, as markdown table rows.  The least CPU (user +
# system) of the runs, old/new/go interleaved for ROUNDS rounds (default 3)
# of RUNS runs (default 20; go: 3), so that other jobs on a shared machine
# disturb both builds alike.  Also checks that both builds print the same.
# go's least CPU moves by up to 1.7x between rounds on a shared machine
# (bench/results/query-speed.md, 2026-11-25): the go column gives the least
# and the most of its rounds, and go / new the ratio of each round.
# Env: T (bench tools dir with timecmd; default build/bench), ROUNDS, RUNS.
#   bash bench/top_vs_go.sh /tmp/pcol.old build/bin/pcol ../shared/testdata/pprof/go-cpu-large.pb.gz
set -u
OLD=$1 NEW=$2
shift 2
T=${T:-build/bench}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu_min() { "$T/timecmd" "$@" | sed -n 's/.* cpu_min=\([0-9.]*\).*/\1/p'; }
least() { printf '%s\n' "$@" | sort -g | head -n 1; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
# the ratio depends on the CPU (go-cpu-large: 4.9-5.2 ms on one machine of
# this project's kind, 7.9 ms on another; go about the same on both)
echo "Machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1), $(nproc) cores; load $(cut -d' ' -f1 /proc/loadavg); $(go version 2>/dev/null || echo 'no go')."
echo
echo "| file | old ms | new ms | go ms (rounds' least-most) | go / new (least-most) | same output |"
echo "|---|---:|---:|---:|---:|---|"
for f in "$@"; do
  p=$tmp/$(basename "$f").pcol
  "$NEW" pack "$f" -o "$p" >/dev/null 2>&1 || { echo "top_vs_go: cannot pack $f" >&2; continue; }
  same=yes
  "$OLD" top "$p" >"$tmp/o" 2>&1
  "$NEW" top "$p" >"$tmp/n" 2>&1
  cmp -s "$tmp/o" "$tmp/n" || same=NO
  o=() n=() g=() rat=()
  for _ in $(seq "$ROUNDS"); do
    o+=("$(cpu_min -n "$RUNS" -- "$OLD" top "$p")")
    n+=("$(cpu_min -n "$RUNS" -- "$NEW" top "$p")")
    if [[ $f != *.pcol ]] && command -v go >/dev/null; then
      g+=("$(cpu_min -n 3 -- go tool pprof -top "$f")")
      rat+=("$(awk -v g="${g[-1]}" -v n="${n[-1]}" 'BEGIN { printf "%.1f", g / n }')")
    fi
  done
  bo=$(least "${o[@]}") bn=$(least "${n[@]}")
  if [ ${#g[@]} -gt 0 ]; then
    bg=$(least "${g[@]}") mg=$(printf '%s\n' "${g[@]}" | sort -g | tail -n 1)
    lr=$(least "${rat[@]}") mr=$(printf '%s\n' "${rat[@]}" | sort -g | tail -n 1)
    echo "| $(basename "$f") | $(ms "$bo") | $(ms "$bn") | $(ms "$bg")-$(ms "$mg") | $(printf '%.0f' "$lr")-$(printf '%.0f' "$mr")x | $same |"
  else
    echo "| $(basename "$f") | $(ms "$bo") | $(ms "$bn") | - | - | $same |"
  fi
done
