#!/usr/bin/env bash
# run.sh — the benchmark driver (issue 7).  Called by `make bench` (full) and
# `make bench-quick` (quick); see bench/README.md.
#
#   BUILD=dir BENCH_BUILD=dir bash bench/run.sh full|quick
#
# Generates profiles with bench/gen_profile into $BUILD/bench-data (cached,
# regenerated when the generator changes), runs every case several times with
# bench/timecmd (median, min/max, IQR, peak RSS), and writes
#   full:  bench/results/latest.md, bench/results/latest.svg
#   quick: $BUILD/bench-quick.md,   $BUILD/bench-quick.svg
# and appends bench/flood.sh's hash-flooding section to the markdown.
# A case whose command fails (a command not built yet, a tool not installed)
# is recorded as "n/a (reason)"; the run itself only fails if the harness
# cannot run at all.
set -u
MODE=${1:-quick}
BUILD=${BUILD:-build}
BB=${BENCH_BUILD:-$BUILD/bench-build}
T=$BB/bench
PCOL=$BB/bin/pcol
DATA=$BUILD/bench-data
WORK=$BUILD/bench-work
mkdir -p "$DATA" "$WORK"
RES=$WORK/results-$MODE.tsv
: >"$RES"
ERRF=$WORK/stderr.txt

case $MODE in
full)
  SIZES="10000 100000 1000000 10000000"
  VARIANT_SIZE=100000              # deep stacks: 2 KB a line, 1M would be 2 GB of text
  RUNS=5; BUDGET=20
  R_MAX=${BENCH_R_MAX:-1000000}    # summaryRprof: ~1 min per 1M lines; 10M ≈ 10+ min
  GO_MAX=${BENCH_GO_MAX:-1000000}  # go tool pprof: ~50 s and 1.2 GB RSS per 1M samples
  BIG_SAMPLES=14000000             # ≈ 1 GB pcol (memory values + weights)
  PERUN_MEM_SIZES="10000 100000"   # memory-style Perun: ~1.1 KB of JSON a sample
  PERUN_KPERF_SIZES="100000 1000000 4000000"  # kperf-style: ~36 bytes a sample
  SCAN_SAMPLES=10000000
  OUT_MD=bench/results/latest.md; OUT_SVG=bench/results/latest.svg
  ;;
quick)
  SIZES="10000 100000"
  VARIANT_SIZE=10000
  RUNS=1; BUDGET=4               # the harness must run; timing is the full mode's job
  R_MAX=${BENCH_R_MAX:-10000}
  GO_MAX=${BENCH_GO_MAX:-10000}
  BIG_SAMPLES=100000
  PERUN_MEM_SIZES="10000"
  PERUN_KPERF_SIZES="100000"
  SCAN_SAMPLES=100000
  OUT_MD=$BUILD/bench-quick.md; OUT_SVG=$BUILD/bench-quick.svg
  ;;
*) echo "usage: run.sh full|quick" >&2; exit 2 ;;
esac
mkdir -p "$(dirname "$OUT_MD")"
LARGEST=${SIZES##* }

log() { printf '%s [%d s]\n' "$*" "$SECONDS" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }

for t in gen_profile gen_day timecmd bench_open bench_scan bench_pb_decode svgplot; do
  [ -x "$T/$t" ] || { log "bench: $T/$t missing (run through make bench)"; exit 1; }
done

HAVE_R=0; HAVE_GO=0
if have Rscript && Rscript -e 'invisible(utils::summaryRprof)' >/dev/null 2>&1; then HAVE_R=1
else log "bench: R (Rscript) not installed: summaryRprof comparisons are skipped"; fi
if have go && go tool pprof -h >/dev/null 2>&1; then HAVE_GO=1
else log "bench: Go (go tool pprof) not installed: pprof comparisons are skipped"; fi

# ------------------------------------------------------------ recording
# results.tsv: case size tool status median min max q1 q3 runs rss_kb note cpu
rec() { # rec CASE SIZE TOOL STATUS MEDIAN MIN MAX Q1 Q3 RUNS RSS NOTE [CPU]
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" \
    "$7" "$8" "$9" "${10}" "${11}" "${12}" "${13:--}" >>"$RES"
}
na() { # na CASE SIZE TOOL REASON
  rec "$1" "$2" "$3" na - - - - - 0 - "$4"
  log "  $1 $2 $3: n/a ($4)"
}
kv() { # kv KEY "k=v k=v ..."
  local k=$1; shift
  tr ' ' '\n' <<<"$*" | sed -n "s/^$k=//p" | head -n 1
}
reason() { # last non-empty stderr line, shortened, tabs removed
  local r
  r=$(grep -v -e '^[[:space:]]*$' -e "^Try '" "$ERRF" 2>/dev/null | tail -n 1 | tr '\t' ' ' | cut -c1-140)
  printf '%s' "${r:-no message}"
}

# measure CASE SIZE TOOL [timecmd options] -- CMD...
measure() {
  local c=$1 s=$2 tool=$3; shift 3
  local opts=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  local line warm=1
  # big inputs: no warm-up run (the files were just written, so the page
  # cache is warm anyway, and a 1-minute warm-up would blow the budget)
  [ "$s" -ge 1000000 ] 2>/dev/null && warm=0
  # quick mode checks that the harness runs; a warm-up only steadies timings
  # (make test runs it: ~half of its time was warm-ups)
  [ "$MODE" = quick ] && warm=0
  line=$("$T/timecmd" -n "$RUNS" -w $warm -t "$BUDGET" -e "$ERRF" "${opts[@]}" -- "$@")
  if [[ $line == ok* ]]; then
    rec "$c" "$s" "$tool" ok "$(kv median "$line")" "$(kv min "$line")" "$(kv max "$line")" \
      "$(kv q1 "$line")" "$(kv q3 "$line")" "$(kv runs "$line")" "$(kv rss_kb "$line")" "" "$(kv cpu "$line")"
    log "  $c $s $tool: $(kv median "$line") s (min $(kv min "$line"), max $(kv max "$line"), n=$(kv runs "$line")), cpu $(kv cpu "$line") s, rss $(kv rss_kb "$line") KB"
    return 0
  fi
  local st; st=$(kv status "${line#fail }")
  na "$c" "$s" "$tool" "exit $st: $(reason)"
  return 1
}
fsize() { stat -c %s "$1" 2>/dev/null || echo 0; }

# ------------------------------------------------------------- data
# The cache is keyed by the generator's source: change it and data is redone.
STAMP=$(cat bench/gen_profile.c | md5sum | cut -c1-12)
if [ "$(cat "$DATA/STAMP" 2>/dev/null)" != "$STAMP" ]; then
  rm -f "$DATA"/*.out "$DATA"/*.pb.gz "$DATA"/*.pcol "$DATA"/*.stats "$DATA"/*.perf
  echo "$STAMP" >"$DATA/STAMP"
fi

# shapes: sm = shallow stacks, many unique; sf = shallow, few; dm/df = deep.
# suffix: -ml = memory + line profiling; -pl = plain (no memory, no lines).
shape_args() {
  local sh=$1 a=""
  case ${sh:0:1} in d) a="--depth deep";; *) a="--depth shallow";; esac
  case ${sh:1:1} in f) a="$a --stacks few";; *) a="$a --stacks many";; esac
  case $sh in *-ml) a="$a --memory --lines";; esac
  printf '%s' "$a"
}
gen() { # gen SHAPE N -> $DATA/SHAPE-N.{out,pb.gz,pcol,lz4.pcol,stats}
  local sh=$1 n=$2 base=$DATA/$1-$2
  [ -s "$base.stats" ] && return 0
  log "bench: generating $sh with $n samples"
  # shellcheck disable=SC2046
  "$T/gen_profile" --samples "$n" $(shape_args "$sh") --rprof "$base.out" --pprof "$base.pb.gz" \
    --pcol "$base.pcol" --pcol-lz4 "$base.lz4.pcol" >"$base.stats.tmp" &&
    mv "$base.stats.tmp" "$base.stats"
}
stat_of() { kv "$2" "$(cat "$DATA/$1.stats")"; }

MAIN=sm-ml
T0=$(date +%s%N)
rec env 0 load-start ok - - - - - 0 - "$(cut -d' ' -f1-3 /proc/loadavg)"
# the tree the measured binaries were built from (they were built just now)
rec env 0 commit ok - - - - - 0 - "$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet -- lib include format tools 2>/dev/null || echo ' + uncommitted changes in lib/ tools/')"
for n in $SIZES; do gen $MAIN "$n" || { log "bench: generator failed"; exit 1; }; done
for sh in sf-ml dm-ml df-ml sm-pl; do gen $sh $VARIANT_SIZE || exit 1; done
[ -s "$DATA/tiny.pcol" ] || "$T/gen_profile" --samples 10 --stacks few --pcol "$DATA/tiny.pcol" >/dev/null
[ -s "$DATA/big-$BIG_SAMPLES.pcol" ] || { log "bench: generating the big pcol ($BIG_SAMPLES samples)"
  "$T/gen_profile" --samples $BIG_SAMPLES --stacks many --memory --weights --pcol "$DATA/big-$BIG_SAMPLES.pcol" >/dev/null; }
[ -s "$DATA/scan-$SCAN_SAMPLES.pcol" ] ||
  "$T/gen_profile" --samples $SCAN_SAMPLES --stacks few --weights --pcol "$DATA/scan-$SCAN_SAMPLES.pcol" >/dev/null
log "bench: data ready in $(( ($(date +%s%N) - T0) / 1000000 )) ms"

# -------------------------------------------------------- the cases
log "bench: open (library, in-process loop)"
open_case() { # open_case LABEL FILE SIZE
  local line
  line=$("$T/bench_open" "$2" "$([ "$MODE" = full ] && echo 20000 || echo 2000)" 2>"$ERRF")
  if [[ $line == ok* ]]; then
    rec open "$3" "$1" ok "$(awk -v v="$(kv median_us "$line")" 'BEGIN{print v*1e-6}')" \
      "$(awk -v v="$(kv min_us "$line")" 'BEGIN{print v*1e-6}')" \
      "$(awk -v v="$(kv max_us "$line")" 'BEGIN{print v*1e-6}')" \
      "$(awk -v v="$(kv q1_us "$line")" 'BEGIN{print v*1e-6}')" \
      "$(awk -v v="$(kv q3_us "$line")" 'BEGIN{print v*1e-6}')" "$(kv iters "$line")" - \
      "file $(kv size "$line") bytes"
    log "  open $3 $1: median $(kv median_us "$line") µs (IQR $(kv q1_us "$line")–$(kv q3_us "$line")) file $(kv size "$line") B"
  else
    na open "$3" "$1" "$(reason)"
  fi
}
open_case "pcol_open tiny" "$DATA/tiny.pcol" 10
open_case "pcol_open big" "$DATA/big-$BIG_SAMPLES.pcol" $BIG_SAMPLES
for n in $SIZES; do open_case "pcol_open" "$DATA/$MAIN-$n.pcol" "$n"; done

log "bench: scan of samples.weight through the view"
line=$("$T/bench_scan" "$DATA/scan-$SCAN_SAMPLES.pcol" 21 2>"$ERRF")
if [[ $line == ok* ]]; then
  rec scan $SCAN_SAMPLES "weight sum" ok "$(kv median_gbs "$line")" "$(kv min_gbs "$line")" \
    "$(kv max_gbs "$line")" - - 20 - "GB/s of the logical column (8 B a row; stored $(kv form "$line"), $(kv stored "$line") bytes); first pass (faulting the mapping) $(kv first_gbs "$line") GB/s; view $(kv view_us "$line") µs"
  log "  scan: median $(kv median_gbs "$line") GB/s (min $(kv min_gbs "$line"), max $(kv max_gbs "$line")), first pass $(kv first_gbs "$line") GB/s"
else
  na scan $SCAN_SAMPLES "weight sum" "$(reason)"
fi

# pack first: later cases use the packed files when packing works.
pack_cases() { # pack_cases SHAPE N
  local base=$DATA/$1-$2 n=$2
  # the measured runs leave their output behind: the packed file later cases read
  measure pack-rprof "$n" "pcol pack (Rprof) [$1]" -- "$PCOL" pack "$base.out" -o "$WORK/$1-$n.rprof.pcol" ||
    rm -f "$WORK/$1-$n.rprof.pcol"
  "$PCOL" pack "$base.out" --compress lz4 -o "$WORK/$1-$n.rprof.lz4.pcol" 2>"$ERRF" ||
    { rm -f "$WORK/$1-$n.rprof.lz4.pcol"; na size "$n" "pcol pack --compress lz4 [$1]" "$(reason)"; }
}
log "bench: pcol pack of Rprof text"
for n in $SIZES; do pack_cases $MAIN "$n"; done
for sh in sf-ml dm-ml df-ml sm-pl; do pack_cases $sh $VARIANT_SIZE; done

log "bench: pcol pack of pprof vs inflate + protobuf-c decode alone"
for n in $SIZES; do
  base=$DATA/$MAIN-$n
  measure pack-pprof "$n" "protobuf-c decode" -- "$T/bench_pb_decode" "$base.pb.gz"
  measure pack-pprof "$n" "pcol pack (pprof)" -- "$PCOL" pack "$base.pb.gz" -o "$WORK/$MAIN-$n.pprof.pcol" ||
    rm -f "$WORK/$MAIN-$n.pprof.pcol"
done

log "bench: pcol pack of Perun JSON (time, and peak memory against the file size)"
# The Perun files are pcol's own exports (pcol unpack --to perun): memory-style
# from the main profile (one resource type per sample, as Perun's memory
# collector writes) and kperf-style from a plain one (one type per stack).
perun_case() { # perun_case STYLE N SOURCE.pcol
  local f=$DATA/perun-$1-$2.perf
  [ -s "$f" ] || "$PCOL" unpack "$3" --to perun -o "$f" 2>"$ERRF" ||
    { na pack-perun "$2" "pcol pack (Perun $1)" "unpack --to perun: $(reason)"; return 0; }
  rec size "$2" "Perun JSON [$1]" ok "$(fsize "$f")" - - - - 0 - bytes
  measure pack-perun "$2" "pcol pack (Perun $1)" -- "$PCOL" pack "$f" -o "$WORK/perun-$1-$2.pcol"
  return 0
}
for n in $PERUN_MEM_SIZES; do
  [ -s "$DATA/$MAIN-$n.pcol" ] || gen $MAIN "$n" || exit 1
  perun_case memory "$n" "$DATA/$MAIN-$n.pcol"
done
for n in $PERUN_KPERF_SIZES; do
  [ -s "$DATA/plain-$n.pcol" ] || "$T/gen_profile" --samples "$n" --stacks many --pcol "$DATA/plain-$n.pcol" >/dev/null
  perun_case kperf "$n" "$DATA/plain-$n.pcol"
done

# The pcol file `top` reads: the pack of the Rprof text when packing works
# (what a user has), else the generator's own file (same profile).
top_file() { # top_file SHAPE N
  if [ -s "$WORK/$1-$2.rprof.pcol" ]; then echo "$WORK/$1-$2.rprof.pcol"; else echo "$DATA/$1-$2.pcol"; fi
}

log "bench: top (pcol top vs go tool pprof -top vs R summaryRprof)"
for n in $SIZES; do
  base=$DATA/$MAIN-$n
  f=$(top_file $MAIN "$n")
  measure top "$n" "pcol top" -- "$PCOL" top "$f" &&
    [ "$f" = "$DATA/$MAIN-$n.pcol" ] && rec note "$n" "pcol top" ok - - - - - 0 - "read the generator's pcol (pack of Rprof unavailable)"
  if [ $HAVE_GO = 0 ]; then na top "$n" "go tool pprof -top" "Go not installed"
  elif [ "$n" -gt "$GO_MAX" ]; then na top "$n" "go tool pprof -top" "skipped above $GO_MAX samples (BENCH_GO_MAX): ~50 s and 1.2 GB RSS per 1M samples"
  else measure top "$n" "go tool pprof -top" -- go tool pprof -top "$base.pb.gz"; fi
  if [ $HAVE_R = 0 ]; then na top "$n" "R summaryRprof" "R not installed"
  elif [ "$n" -gt "$R_MAX" ]; then na top "$n" "R summaryRprof" "skipped above $R_MAX samples (BENCH_R_MAX): ~1 min per 1M lines"
  else measure top "$n" "R summaryRprof" -- Rscript -e "invisible(utils::summaryRprof('$base.out'))"; fi
done
for sh in sf-ml dm-ml df-ml sm-pl; do
  measure top-shape $VARIANT_SIZE "pcol top [$sh]" -- "$PCOL" top "$(top_file $sh $VARIANT_SIZE)"
done

# The views of issue 15 on the file `top` reads: each should stay within 2x
# of `pcol top` on it (bench/report.sh: the goal and the table).
# (peek . prints every call of the profile, ~25x top's lines: shown, and
# left out of the goal, which takes the peek of one function)
VIEWS="top --by line|top --by address|peek ^sprintf$|peek .|list . --by file --source-path /nonexistent|tags|traces -n 10|info"
log "bench: views (each within 2x of pcol top)"
for n in $SIZES; do
  f=$(top_file $MAIN "$n")
  while IFS= read -r v; do
    # shellcheck disable=SC2086 # the view's words
    measure views "$n" "pcol $v" -- "$PCOL" ${v%% *} "$f" ${v#"${v%% *}"}
  done < <(tr '|' '\n' <<<"$VIEWS")
done

log "bench: pcol unpack --to pprof vs go tool pprof -proto"
for n in $SIZES; do
  base=$DATA/$MAIN-$n
  src=$WORK/$MAIN-$n.pprof.pcol; [ -s "$src" ] || src=$DATA/$MAIN-$n.pcol
  measure unpack "$n" "pcol unpack --to pprof" -- "$PCOL" unpack "$src" --to pprof -o "$WORK/unpack-$n.pb.gz"
  if [ $HAVE_GO = 0 ]; then na unpack "$n" "go tool pprof -proto" "Go not installed"
  elif [ "$n" -gt "$GO_MAX" ]; then na unpack "$n" "go tool pprof -proto" "skipped above $GO_MAX samples"
  else measure unpack "$n" "go tool pprof -proto" -o "$WORK/go-proto-$n.pb.gz" -- go tool pprof -proto "$base.pb.gz"; fi
done

log "bench: pcol cat --table sample_locations"
for n in $SIZES; do
  f=$(top_file $MAIN "$n")
  if measure cat "$n" "pcol cat sample_locations" -- "$PCOL" cat "$f" --table sample_locations; then
    rows=$("$PCOL" cat "$f" --table sample_locations | wc -l)
    rec rows "$n" "pcol cat sample_locations" ok "$((rows - 1))" - - - - 0 - "rows printed (minus header)"
  fi
done

log "bench: sizes"
size_rows() { # size_rows SHAPE N
  local base=$DATA/$1-$2 n=$2 p l
  rec size "$n" "Rprof text [$1]" ok "$(fsize "$base.out")" - - - - 0 - bytes
  rec size "$n" "pprof .pb.gz [$1]" ok "$(fsize "$base.pb.gz")" - - - - 0 - bytes
  if [ -s "$WORK/$1-$n.rprof.pcol" ]; then p=$WORK/$1-$n.rprof.pcol; l=$WORK/$1-$n.rprof.lz4.pcol; src="pcol pack"
  else p=$base.pcol; l=$base.lz4.pcol; src="generator (pack unavailable)"; fi
  rec size "$n" "pcol [$1]" ok "$(fsize "$p")" - - - - 0 - "bytes; from $src"
  [ -s "$l" ] && rec size "$n" "pcol lz4 [$1]" ok "$(fsize "$l")" - - - - 0 - "bytes; from $src"
  return 0
}
for n in $SIZES; do size_rows $MAIN "$n"; done
for sh in sf-ml dm-ml df-ml sm-pl; do size_rows $sh $VARIANT_SIZE; done

log "bench: writing the report"
rec env 0 load-end ok - - - - - 0 - "$(cut -d' ' -f1-3 /proc/loadavg)"
BENCH_MODE=$MODE BENCH_RUNS=$RUNS bash bench/report.sh "$RES" "$DATA" "$MAIN" "$LARGEST" "$VARIANT_SIZE" \
  "$BB" >"$OUT_MD.tmp" && mv "$OUT_MD.tmp" "$OUT_MD"

# Hash flooding (issue 20): bench/flood.sh's own section, appended.  Full run:
# its sizes (12.5k..100k keys); quick run: 2000 keys, only to keep the
# harness working (at that size process start-up dominates the ratios).
# Never fatal here: a missed ratio is reported in the section, and
# `make bench-flood` is the run that fails on it.
log "bench: hash flooding (bench/flood.sh)"
FLOOD_MD=$WORK/flood-$MODE.md
if [ "$MODE" = full ]; then FSIZES="12500 25000 50000 100000"; else FSIZES=2000; fi
if BUILD="$BUILD" BENCH_BUILD="$BB" FLOOD_SIZES="$FSIZES" FLOOD_RUNS=$((RUNS < 3 ? 3 : RUNS)) FLOOD_SECTION=1 \
  FLOOD_GATE=0 FLOOD_OUT="$FLOOD_MD" bash bench/flood.sh; then
  { echo; cat "$FLOOD_MD"; } >>"$OUT_MD"
else
  printf '\n## Hash flooding\n\nbench/flood.sh failed to run (see the log).\n' >>"$OUT_MD"
fi
# Many files as one (issue 32): bench/many.sh's section, appended (full run:
# a day of 1,440 one-minute profiles; quick: 120, only to keep it working).
log "bench: many files as one (bench/many.sh)"
DF=1440
[ "$MODE" = quick ] && DF=120
if PCOL="$PCOL" T="$T" DATA="$DATA" DAY_FILES=$DF bash bench/many.sh >"$WORK/many-$MODE.md"; then
  { echo; cat "$WORK/many-$MODE.md"; } >>"$OUT_MD"
else
  printf '\n## Many files as one\n\nbench/many.sh failed to run (see the log).\n' >>"$OUT_MD"
fi
# Any size (issue 32): bench/scale.sh's section, appended (full run: 1M and
# 10M samples, top against go tool pprof on the real pprof files, and the
# issue's goals met or missed; quick: 10k, no real files, only to keep it
# working).
log "bench: any size (bench/scale.sh)"
if [ "$MODE" = full ]; then SC="SCALE_SIZES=1000000 10000000"; SR=1; else SC="SCALE_SIZES=10000"; SR=0; fi
if env "$SC" SCALE_RUNS=$((RUNS < 3 ? 1 : 3)) SCALE_REAL=$SR PCOL="$PCOL" T="$T" DATA="$DATA" \
  bash bench/scale.sh >"$WORK/scale-$MODE.md"; then
  { echo; cat "$WORK/scale-$MODE.md"; } >>"$OUT_MD"
else
  printf '\n## Any size (issue 32)\n\nbench/scale.sh failed to run (see the log).\n' >>"$OUT_MD"
fi
# Codecs (formats 1.1, 1.2; issue 17): bench/codecs.sh's section, appended (full
# run: 1M-sample generated profiles; quick: 10k, only to keep it working).
log "bench: format 1.2 codec sizes (bench/codecs.sh)"
if [ "$MODE" = full ]; then CN=1000000 CL= CQ=0; else CN=10000 CL=3 CQ=1; fi
if PCOL="$PCOL" T="$T" DATA="$DATA" CODEC_N=$CN CODEC_LEVEL=$CL CODEC_QUICK=$CQ bash bench/codecs.sh >"$WORK/codecs-$MODE.md"; then
  { echo; cat "$WORK/codecs-$MODE.md"; } >>"$OUT_MD"
else
  printf '\n## Codecs (formats 1.1 and 1.2)\n\nbench/codecs.sh failed to run (see the log).\n' >>"$OUT_MD"
fi
# One profile, every format (anchors-2026-11 goal 12): bench/formats.sh's
# section, appended (full run only: ~30 s of real files in every format).
if [ "$MODE" = full ]; then
  log "bench: one profile, every format (bench/formats.sh)"
  if PCOL="$PCOL" T="$T" bash bench/formats.sh >"$WORK/formats-$MODE.md"; then
    { echo; cat "$WORK/formats-$MODE.md"; } >>"$OUT_MD"
  else
    printf '\n## One profile, every format\n\nbench/formats.sh failed to run (see the log).\n' >>"$OUT_MD"
  fi
fi
awk -F'\t' -v main="$MAIN" '
  $4 != "ok" || $5 == "-" { next }
  $1 == "open" && $3 == "pcol_open"                 { print "open a profile\tpcol_open + close (library)\t" $2 "\t" $5 }
  $1 == "pack-pprof" && $3 == "protobuf-c decode"   { print "open a profile\tpprof: inflate + protobuf-c decode (process)\t" $2 "\t" $5 }
  $1 == "top"                                       { print "top (whole process)\t" $3 "\t" $2 "\t" $5 }
  $1 == "pack-rprof" && index($3, "[" main "]")     { print "pack (whole process)\tpcol pack (Rprof)\t" $2 "\t" $5 }
  $1 == "pack-pprof"                                { print "pack (whole process)\t" $3 "\t" $2 "\t" $5 }
' "$RES" | "$T/svgplot" "pcol benchmarks ($MODE): time vs profile size, log-log — $(lscpu | sed -n 's/^Model name: *//p' | head -n1), $(nproc) cores" >"$OUT_SVG"
log "bench: wrote $OUT_MD and $OUT_SVG ($(( ($(date +%s%N) - T0) / 1000000000 )) s)"
exit 0
