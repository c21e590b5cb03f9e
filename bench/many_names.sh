#!/usr/bin/env bash
# shellcheck disable=SC2016 # the rows' labels are markdown backquotes, not expansions
# many_names.sh — `pcol top DIR` where the files share few names: 300
# collapsed-stack files of different programs (2,000 functions each, 1,500
# stacks 3-12 deep), a union of ~600k names.  Each file's top works in its
# own keys (top.c ext_key), so a file costs in proportion to its own names,
# not the union's; before that, 5.8x the merged file's top.
# Prints a markdown section on stdout.  Env: PCOL, T (bench tools dir).
set -u
PCOL=${PCOL:-build/bench-build/bin/pcol}
T=${T:-build/bench-build/bench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/c" "$tmp/p"
python3 - "$tmp/c" <<'PY' || exit 1
import random, sys
for i in range(300):
    r = random.Random(i)
    with open(f"{sys.argv[1]}/f{i:03d}.txt", "w") as f:
        for s in range(1500):
            fr = ["main"] + [f"svc{i}_fn{r.randint(0, 1999)}" for _ in range(r.randint(3, 12))]
            f.write(";".join(fr) + f" {r.randint(1, 9)}\n")
PY
for f in "$tmp"/c/*.txt; do "$PCOL" pack "$f" -o "$tmp/p/$(basename "$f" .txt).pcol" || exit 1; done
"$PCOL" merge "$tmp/p" -o "$tmp/merged.pcol" || exit 1
kv() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }
row() { # LABEL CMD...
  local line
  line=$("$T/timecmd" -n 5 -w 1 -t 120 -- "${@:2}") || return 1
  printf '| %s | %.0f ms | %.0f ms | %.0f MB |\n' "$1" "$(kv median "$line" | awk '{print $1*1000}')" \
    "$(kv cpu "$line" | awk '{print $1*1000}')" "$(kv rss_kb "$line" | awk '{print $1/1024}')"
}
cmp -s <("$PCOL" top "$tmp/p" | tail -n +2) <("$PCOL" top "$tmp/merged.pcol" | tail -n +2) && same=yes || same=no
echo "## Many files, few names shared"
echo
echo "300 collapsed-stack files of different programs, $(du -sh "$tmp/p" | cut -f1) as pcol files,"
echo "$(du -h "$tmp/merged.pcol" | cut -f1) merged; median of 5 runs. Same rows as the merged file's top: $same."
echo
echo "| case | time | CPU | peak RSS |"
echo "|---|---:|---:|---:|"
row '`pcol top` merged file' "$PCOL" top "$tmp/merged.pcol"
row '`pcol top DIR`' "$PCOL" top "$tmp/p"
row '`pcol top DIR`, `PCOL_THREADS=1`' env PCOL_THREADS=1 "$PCOL" top "$tmp/p"
