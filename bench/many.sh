#!/usr/bin/env bash
# many.sh — many files as one (issue 32): a "day" of continuous profiling,
# one pprof CPU profile a minute (bench/gen_day), asked as one profile.
#   - `pcol top DIR` of the day's pcol files (each file's top added up by
#     name, pcol_top_many; before issue 47 their union, built in memory as
#     `pcol merge` would write it) against `pcol top` of their merged file:
#     goal <= 6x (issue 47; issue 32's was 10x), time and CPU;
#   - the same over the day's .pb.gz files (no goal: each is imported);
#   - `--from/--to` of one hour (10:00-11:00 UTC) touching only that hour's
#     files: the inputs read whole (PCOL_DEBUG=inputs) and, by strace, the
#     files opened (each once: every input is read, its sources and meta
#     say its time span; the others' samples are not imported); the hour's total
#     equals that of the merged file with the same range;
#   - the floor (bench/read_floor): every file opened, read whole and
#     closed as top DIR reads it, on as many threads, and nothing else;
#     what top DIR does with the bytes comes on top of it;
#   - with the day's index (`pcol index`, on a copy): top and peek of
#     DIR, against the merged file's and the union's;
#   - peak RSS of each.
# Prints a markdown section on stdout; `make bench` appends it to
# bench/results/latest.md, `make bench-many` runs it alone.
# Env: PCOL, T (bench tools dir), DATA (bench data), DAY_FILES (default
# 1440; bench-quick: 120), DAY_SAMPLES (ticks a minute, default 600).
set -u
PCOL=${PCOL:-build/bench-build/bin/pcol}
T=${T:-build/bench-build/bench}
DATA=${DATA:-build/bench-data}
N=${DAY_FILES:-1440}
S=${DAY_SAMPLES:-600}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kv() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'; }
le() { awk -v r="$1" -v g="$2" 'BEGIN { exit !(r != "n/a" && r + 0 <= g + 0) }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.0f ms", s * 1000 }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
measure() { # OUTVAR CMD... -> "median cpu rss_kb"
  local line
  line=$("$T/timecmd" -n 5 -w 1 -t 60 -- "${@:2}")
  case $line in ok*) ;; *) echo "many.sh: failed: ${*:2}: $line" >&2; return 1 ;; esac
  printf -v "$1" '%s %s %s' "$(kv median "$line")" "$(kv cpu "$line")" "$(kv rss_kb "$line")"
}

# the day: pprof files (cached), each packed to pcol, and their merge
D=$DATA/day-$N-$S
if [ ! -f "$D/done" ]; then
  rm -rf "$D"
  mkdir -p "$D/pprof" "$D/pcol" || exit 1
  "$T/gen_day" --out "$D/pprof" --files "$N" --samples "$S" || exit 1
  for f in "$D"/pprof/*.pb.gz; do
    b=$(basename "$f" .pb.gz)
    "$PCOL" pack "$f" -o "$D/pcol/$b.pcol" || exit 1
  done
  touch "$D/done"
fi
measure merge "$PCOL" merge "$D/pcol" -o "$tmp/merged.pcol" || exit 1
"$PCOL" merge "$D/pcol" -o "$tmp/merged.pcol" || exit 1
M=$tmp/merged.pcol
measure one "$PCOL" top "$M" || exit 1
measure many "$PCOL" top "$D/pcol" || exit 1
measure many1 env PCOL_THREADS=1 "$PCOL" top "$D/pcol" || exit 1
nthreads=$(PCOL_DEBUG=inputs "$PCOL" top "$D/pcol" 2>&1 >/dev/null | sed -n 's/.* on \([0-9]*\) threads$/\1/p')
measure floor "$T/read_floor" "$D/pcol" "${nthreads:-1}" || exit 1
measure manyp "$PCOL" top "$D/pprof" || exit 1
measure manyp1 env PCOL_THREADS=1 "$PCOL" top "$D/pprof" || exit 1
measure mergep "$PCOL" merge "$D/pprof" -o "$tmp/mergedp.pcol" || exit 1
# 10:00-11:00 of a whole day; a short day (DAY_FILES=120, bench-quick) has
# only its first hours, so its first hour
if [ "$N" -ge 660 ]; then HF=2026-11-23T10:00:00Z HT=2026-11-23T11:00:00Z
else HF=2026-11-23T00:00:00Z HT=2026-11-23T01:00:00Z; fi
H=(--from "$HF" --to "$HT")
measure hone "$PCOL" top "$M" "${H[@]}" || exit 1
measure hmany "$PCOL" top "$D/pcol" "${H[@]}" || exit 1
# the day with its index (`pcol index`, tools/dirindex.c), on a copy (the
# cached day stays without one); files changed within 2 s are not indexed
cp -r "$D/pcol" "$tmp/ix" || exit 1
sleep 2.2
measure ixmake sh -c 'rm -f "$1"/.pcol-index.* && exec "$2" index "$1"' sh "$tmp/ix" "$PCOL" || exit 1
ixwhole=$(PCOL_DEBUG=inputs "$PCOL" top "$tmp/ix" 2>&1 >/dev/null | grep -c 'an index of')
measure ixtop "$PCOL" top "$tmp/ix" || exit 1
measure ixpeek "$PCOL" peek "$tmp/ix" 'main' || exit 1
measure peekone "$PCOL" peek "$M" 'main' || exit 1
measure peekmany "$PCOL" peek "$D/pcol" 'main' || exit 1
ixsame=no
[ "$("$PCOL" peek "$tmp/ix" 'main' | tail -n +2)" = "$("$PCOL" peek "$D/pcol" 'main' | tail -n +2)" ] &&
  [ "$("$PCOL" top "$tmp/ix" | tail -n +2)" = "$("$PCOL" top "$D/pcol" | tail -n +2)" ] && ixsame=yes
read -r one_t one_c one_r <<<"$one"
read -r many_t many_c many_r <<<"$many"
read -r many1_t many1_c many1_r <<<"$many1"
read -r manyp_t manyp_c manyp_r <<<"$manyp"
read -r manyp1_t manyp1_c manyp1_r <<<"$manyp1"
read -r mergep_t mergep_c mergep_r <<<"$mergep"
read -r hone_t hone_c hone_r <<<"$hone"
read -r hmany_t hmany_c hmany_r <<<"$hmany"
read -r merge_t merge_c merge_r <<<"$merge"
read -r floor_t floor_c floor_r <<<"$floor"
# the hour: which inputs are read, which opened, and the same numbers
read_line=$(PCOL_DEBUG=inputs "$PCOL" top "$D/pcol" "${H[@]}" 2>&1 >"$tmp/h_many.txt" | grep 'debug: read')
nread=$(sed -n 's/.*read \([0-9]*\) of.*/\1/p' <<<"$read_line")
"$PCOL" top "$M" "${H[@]}" >"$tmp/h_one.txt"
same=no
cmp -s <(tail -n +2 "$tmp/h_one.txt") <(tail -n +2 "$tmp/h_many.txt") && same=yes
want=$(ls "$D"/pcol | awk -F'T' -v hh="${HF:11:2}" '{ h = substr($2, 1, 2) } h == hh { n++ } END { print n + 0 }')
opened=n/a
if command -v strace >/dev/null; then
  opened=$(strace -f -e trace=openat -o "$tmp/strace.txt" "$PCOL" top "$D/pcol" "${H[@]}" >/dev/null 2>&1 &&
    grep -c "$D/pcol/.*\.pcol\"" "$tmp/strace.txt")
fi
r_all=$(ratio "$many_t" "$one_t") c_all=$(ratio "$many_c" "$one_c")
r_one=$(ratio "$many1_t" "$one_t") r_floor=$(ratio "$floor_t" "$one_t")
r_pp=$(ratio "$manyp_t" "$one_t") r_h=$(ratio "$hmany_t" "$hone_t")
met() { if le "$1" "$2"; then echo met; else echo "**missed**"; fi; }
hour_met=missed
[ "$nread" = "$want" ] && [ "$same" = yes ] && hour_met=met

echo "## Many files as one (issue 32)"
echo
echo "A day of continuous profiling made by \`bench/gen_day\`: $N one-minute pprof CPU"
echo "profiles of one service ($S ticks a minute on average; $(du -sh "$D/pprof" | cut -f1) of .pb.gz,"
echo "$(du -sh "$D/pcol" | cut -f1) as pcol files, $(du -h "$M" | cut -f1) merged).  Median of up to 5 runs; CPU is user+system."
echo "Machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1), $(nproc) cores."
echo
echo "| case | time | CPU | peak RSS | vs top of the merged file | goal |"
echo "|---|---:|---:|---:|---:|---|"
echo "| \`pcol merge\` of the $N pcol files | $(ms "$merge_t") | $(ms "$merge_c") | $(mb "$merge_r") | | |"
echo "| \`pcol top\` merged file | $(ms "$one_t") | $(ms "$one_c") | $(mb "$one_r") | 1 | |"
echo "| \`pcol top DIR\`, $N pcol files (${nthreads:-1} threads) | $(ms "$many_t") | $(ms "$many_c") | $(mb "$many_r") | ${r_all}x (CPU ${c_all}x) | <= 6x: $(met "$r_all" 6), CPU $(met "$c_all" 6) |"
echo "| the same, \`PCOL_THREADS=1\` | $(ms "$many1_t") | $(ms "$many1_c") | $(mb "$many1_r") | ${r_one}x | |"
echo "| floor: the $N files opened, read whole, closed, nothing else (\`bench/read_floor\`, ${nthreads:-1} threads) | $(ms "$floor_t") | $(ms "$floor_c") | $(mb "$floor_r") | ${r_floor}x | |"
echo "| \`pcol top DIR\`, $N .pb.gz files (read ahead: lib/convert/ahead.c) | $(ms "$manyp_t") | $(ms "$manyp_c") | $(mb "$manyp_r") | ${r_pp}x | |"
echo "| the same, \`PCOL_THREADS=1\` | $(ms "$manyp1_t") | $(ms "$manyp1_c") | $(mb "$manyp1_r") | | |"
echo "| \`pcol merge\` of the $N .pb.gz files (read ahead) | $(ms "$mergep_t") | $(ms "$mergep_c") | $(mb "$mergep_r") | | |"
echo "| \`top\` merged, one hour | $(ms "$hone_t") | $(ms "$hone_c") | $(mb "$hone_r") | | |"
echo "| \`top DIR\`, one hour | $(ms "$hmany_t") | $(ms "$hmany_c") | $(mb "$hmany_r") | ${r_h}x of the merged file's hour | |"
read -r ixmake_t ixmake_c ixmake_r <<<"$ixmake"
read -r ixtop_t ixtop_c ixtop_r <<<"$ixtop"
read -r ixpeek_t ixpeek_c ixpeek_r <<<"$ixpeek"
read -r peekone_t peekone_c peekone_r <<<"$peekone"
read -r peekmany_t peekmany_c peekmany_r <<<"$peekmany"
r_ix=$(ratio "$ixtop_t" "$one_t") c_ix=$(ratio "$ixtop_c" "$one_c")
echo "| \`pcol index DIR\` (made from the files) | $(ms "$ixmake_t") | $(ms "$ixmake_c") | $(mb "$ixmake_r") | | |"
echo "| \`pcol top DIR\` with its index | $(ms "$ixtop_t") | $(ms "$ixtop_c") | $(mb "$ixtop_r") | ${r_ix}x (CPU ${c_ix}x) | <= 6x: $(met "$r_ix" 6), CPU $(met "$c_ix" 6) |"
echo "| \`pcol peek\` merged file | $(ms "$peekone_t") | $(ms "$peekone_c") | $(mb "$peekone_r") | | |"
echo "| \`pcol peek DIR\` (their union, built in memory) | $(ms "$peekmany_t") | $(ms "$peekmany_c") | $(mb "$peekmany_r") | $(ratio "$peekmany_t" "$peekone_t")x of the merged file's | |"
echo "| \`pcol peek DIR\` with its index | $(ms "$ixpeek_t") | $(ms "$ixpeek_c") | $(mb "$ixpeek_r") | $(ratio "$ixpeek_t" "$peekone_t")x of the merged file's | |"
echo
echo "With its index, DIR is read as $ixwhole index (and no file: none came after it); top and peek print what they print of the files: $ixsame."
echo
echo "One hour (\`--from $HF --to $HT\`) of the $N pcol files:"
echo "$nread inputs imported (the hour holds $want files), $opened files opened (each once: its sources"
echo "and meta say its time span; the samples of the others are not imported); the same"
echo "view as the merged file's with the same range: $same.  Goal (only that hour's files): $hour_met."
