#!/usr/bin/env bash
# chrome_keys.sh — the Chrome importer's samples form when frames share keys
# (speedscope's NAME:CATEGORY): `pcol pack` of the traces bench/chrome_keys_gen.py
# writes, user+system CPU seconds; results in bench/results/chrome-shared-keys.md.
#
#   PCOL=build/bin/pcol [PCOL_OLD=/path/to/an/older/pcol] bash bench/chrome_keys.sh [D N]...
#
# Each size (chain depth D, samples N; default "5000 50000  20000 100000")
# in the four shapes of the generator: shared (keys of two names claimed
# one by one between the deep chain's samples), 0 (no key of two names),
# ties (the deep chain's samples weigh 0, its root's key never claimed) and
# threads (each pair of samples a thread; N/5 samples).  With PCOL_OLD the
# older binary is timed too and both outputs must be byte for byte equal.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PCOL=${PCOL:-build/bin/pcol}
OLD=${PCOL_OLD:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ $# -ge 2 ] || set -- 5000 50000 20000 100000
cpu() { # cpu BIN IN OUT: user+sys seconds of `BIN pack IN -o OUT`
  /usr/bin/time -f '%U %S' -o "$tmp/t" "$1" pack "$2" -o "$3" 2>/dev/null || { echo "pack failed: $1 $2" >&2; exit 1; }
  awk '{printf "%.2f", $1 + $2}' "$tmp/t"
}
echo "| D | N | shape | input | pcol (s) |${OLD:+ older (s) |}"
echo "|---:|---:|---|---:|---:|${OLD:+---:|}"
status=0
while [ $# -ge 2 ]; do
  d=$1 n=$2; shift 2
  for shape in shared 0 ties threads; do
    m=$n; [ $shape = threads ] && m=$((n / 5))
    python3 "$HERE/chrome_keys_gen.py" "$tmp/in.json" "$d" "$m" "$shape"
    size=$(( $(stat -c %s "$tmp/in.json") / 1000 ))
    row="| $d | $m | $shape | ${size} KB | $(cpu "$PCOL" "$tmp/in.json" "$tmp/new.pcol") |"
    if [ -n "$OLD" ]; then
      row="$row $(cpu "$OLD" "$tmp/in.json" "$tmp/old.pcol") |"
      cmp -s "$tmp/new.pcol" "$tmp/old.pcol" || { row="$row (outputs differ)"; status=1; }
    fi
    echo "$row"
  done
done
exit $status
