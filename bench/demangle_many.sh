#!/usr/bin/env bash
# shellcheck disable=SC2016 # the rows' labels are markdown backquotes, not expansions
# demangle_many.sh — `pcol merge --symbolize local` of many small inputs
# with names of their own: 2,000 pprof profiles (tests/support/pprofgen.py
# names) of 400 mangled C++ functions each (ns<I>::fn<J>, none shared), so
# the merge's one builder grows to ~1.6M strings.  Each input demangles its
# names into that builder; its table of what it showed (symbolize.c
# shown) is keyed by its own names, so an input costs in proportion to
# them.  Before, it was an array of the builder's size, zeroed per input:
# 500, 1,000 and 2,000 inputs took 0.45, 1.66 and 5.4 s of CPU, now 0.41,
# 0.90 and 1.9 s (the merge without --symbolize: 0.33, 0.82, 1.5 s).
# Rows: N inputs, with and without --symbolize local (and, when PCOL_OLD
# names an older pcol, its --symbolize local and whether its file is the
# same, byte for byte).  Prints a markdown section on stdout.
# Env: PCOL, PCOL_OLD, T (bench tools dir), DEMANGLE_INPUTS (default
# "500 1000 2000").
set -u
PCOL=${PCOL:-build/bench-build/bin/pcol}
T=${T:-build/bench-build/bench}
OLD=${PCOL_OLD:-}
SIZES=${DEMANGLE_INPUTS:-500 1000 2000}
max=0
for n in $SIZES; do [ "$n" -gt "$max" ] && max=$n; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/pb"
python3 - "$tmp/pb" "$max" "$(dirname "$0")/../tests/support" <<'PY' || exit 1
import os, sys
sys.path.insert(0, sys.argv[3])
import pprofgen
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    ns = b"ns%d" % i
    names = os.path.join(d, "names.txt")
    with open(names, "wb") as f:
        for j in range(400):
            fn = b"fn%d" % j
            f.write(b"_ZN%d%s%d%sEv\n" % (len(ns), ns, len(fn), fn))
    pprofgen.names(os.path.join(d, "f%04d.pb" % i), names)
os.remove(os.path.join(d, "names.txt"))
PY
kv() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }
row() { # LABEL CMD...
  local line
  line=$("$T/timecmd" -n 3 -w 1 -t 300 -- "${@:2}") || return 1
  printf '| %s | %.0f ms | %.0f ms | %.0f MB |\n' "$1" "$(kv median "$line" | awk '{print $1*1000}')" \
    "$(kv cpu "$line" | awk '{print $1*1000}')" "$(kv rss_kb "$line" | awk '{print $1/1024}')"
}
echo "## Many inputs demangled into one merge"
echo
echo "pprof inputs of 400 mangled C++ functions each, none shared (\`bench/demangle_many.sh\`);"
echo "median of 3 runs; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
echo
echo "| case | time | CPU | peak RSS |"
echo "|---|---:|---:|---:|"
for n in $SIZES; do
  mkdir -p "$tmp/d$n"
  for i in $(seq 0 $((n - 1))); do ln -s "../pb/$(printf f%04d "$i").pb" "$tmp/d$n/"; done
  "$PCOL" merge "$tmp/d$n" --symbolize local -o "$tmp/new.pcol" || exit 1
  last=$((n - 1))
  "$PCOL" top "$tmp/new.pcol" --format tsv | grep -q "ns$last::fn399" ||
    { echo "demangle_many.sh: ns$last::fn399 not demangled" >&2; exit 1; }
  row "$n inputs, \`merge --symbolize local\`" "$PCOL" merge "$tmp/d$n" --symbolize local -o "$tmp/x.pcol"
  row "$n inputs, \`merge\`" "$PCOL" merge "$tmp/d$n" -o "$tmp/x.pcol"
  if [ -n "$OLD" ]; then
    "$OLD" merge "$tmp/d$n" --symbolize local -o "$tmp/old.pcol" || exit 1
    cmp -s "$tmp/old.pcol" "$tmp/new.pcol" && same=same || same=DIFFERENT
    row "$n inputs, \`merge --symbolize local\`, PCOL_OLD (file: $same)" "$OLD" merge "$tmp/d$n" --symbolize local -o "$tmp/x.pcol"
  fi
done
