#!/usr/bin/env bash
# formats.sh — one cross-format table (../shared/notes/anchors-2026-11.md,
# goal 12): the same real profiles written in every format pcol writes, their
# bytes, and the CPU a fresh `pcol top` process needs to answer from each
# (the import and the query) against the pcol file it maps (no parsing).
# `go tool pprof -top` of the pprof copy is the reference a pprof user waits
# for.  Every copy is made by `pcol unpack` from the pcol file, so all hold
# the same samples; a format that cannot hold a profile (V8 of a heap
# profile: not a time) says "refused".  OTLP is also given as the Collector's
# fileexporter stores it (proto under zstd, level 3: zstd's default), and the
# text formats under gzip -6, as they are shipped.
# Not here: Tachyon and Perfetto (pcol reads them, writes neither), Parquet
# (bench/results/duckdb.md: DuckDB's COPY of pcol's views).
# Prints a markdown section on stdout; `make bench` appends it to
# bench/results/latest.md, `make bench-formats` runs it alone.
# Env: PCOL, T (bench tools dir with timecmd), TESTDATA (default
# ../shared/testdata), FORMAT_RUNS (timed runs a cell, default 5).
set -u
PCOL=${PCOL:-build/bench-build/bin/pcol}
T=${T:-build/bench-build/bench}
TESTDATA=${TESTDATA:-../shared/testdata}
RUNS=${FORMAT_RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kv() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }
kb() { awk -v b="$1" 'BEGIN { if (b >= 10 * 1024 * 1024) printf "%.1f MB", b / 1048576; else if (b >= 1024) printf "%.0f KB", b / 1024; else printf "%d B", b }'; }
ms() { awk -v s="$1" 'BEGIN { if (s < 0.01) printf "%.1f ms", s * 1000; else printf "%.0f ms", s * 1000 }'; }
size() { stat -c %s "$1"; }

# the inputs: the largest real profile of each producer in the test data
INPUTS="pprof/go-cpu-large.pb.gz
ext/pprof/go-heap-truncated-stacks-3.pb.gz
pprof/go-heap-allocs-inline.pb.gz
ext/pprof/pprofutils-anon-in.pb.gz
ext/pprof/dotnet-211.pb.gz
ext/pprof/ODD-otlp-ebpf-profile.pb.bin
ext/pprof/jfr-kafka-alloc-tlab.pb.gz
ext/rprof/serosolver__Rprof.out
ext/collapsed/flamegraph__perf-vertx-stacks-01-collapsed-all.txt
ext/perun/degradation_profiles__tracer_target.perf"
# format: unpack --to name, file suffix
FORMATS="pprof .pb.gz
otlp .otlp.pb
firefox .json.gz
speedscope .speedscope.json
collapsed .folded
rprof .out
v8 .cpuprofile
perun .perf"
have_go=0
command -v go >/dev/null 2>&1 && have_go=1
have_zstd=0
command -v zstd >/dev/null 2>&1 && have_zstd=1

top_cpu() { # FILE -> least CPU seconds of RUNS `pcol top FILE`, or "fail"
  local line
  line=$("$T/timecmd" -n "$RUNS" -w 1 -t 60 -- "$PCOL" top "$1")
  case $line in ok*) kv cpu_min "$line" ;; *) echo fail ;; esac
}

header() { # FIRST LAST -> a table's header: FIRST's columns, the formats, LAST's (_ is a space)
  local x n=0
  printf '| input |'
  for x in $1; do printf ' %s |' "${x//_/ }"; n=$((n + 1)); done
  while read -r fmt _; do printf ' %s |' "$fmt"; n=$((n + 1)); done <<<"$FORMATS"
  for x in $2; do printf ' %s |' "${x//_/ }"; n=$((n + 1)); done
  printf '\n|---|'
  for _ in $(seq "$n"); do printf -- '---:|'; done
  echo
}
sizes_md=$tmp/sizes.md times_md=$tmp/times.md
header "as_given pcol pcol_lz4 pcol_zstd" "otlp_+_zstd collapsed_+_gzip speedscope_+_gzip" >"$sizes_md"
header "pcol" "\`go_tool_pprof_-top\`_of_the_pprof" >"$times_md"

n=0
while read -r rel; do
  f=$TESTDATA/$rel
  [ -f "$f" ] || { echo "formats.sh: $rel not in $TESTDATA, skipped" >&2; continue; }
  b=$(basename "$rel")
  p=$tmp/p.pcol
  "$PCOL" pack "$f" -o "$p" 2>/dev/null || { echo "formats.sh: pcol pack $rel failed" >&2; continue; }
  "$PCOL" pack "$f" --compress lz4 -o "$tmp/p.lz4.pcol" 2>/dev/null
  "$PCOL" pack "$f" --compress zstd -o "$tmp/p.zstd.pcol" 2>/dev/null
  srow="| $b | $(kb "$(size "$f")") | $(kb "$(size "$p")") | $(kb "$(size "$tmp/p.lz4.pcol")") | $(kb "$(size "$tmp/p.zstd.pcol")") |"
  pc=$(top_cpu "$p")
  trow="| $b | $(ms "$pc") |"
  while read -r fmt suf; do
    o=$tmp/copy$suf
    rm -f "$o"
    "$PCOL" unpack "$p" --to "$fmt" -o "$o" 2>/dev/null
    if [ -f "$o" ] && [ ! -s "$o" ]; then
      srow+=" empty |" # (collapsed, Rprof, V8: no stack has the default value)
      trow+=" - |"
    elif [ -s "$o" ]; then
      srow+=" $(kb "$(size "$o")") |"
      c=$(top_cpu "$o")
      case $c in fail) trow+=" unread |" ;; *) trow+=" $(ms "$c") ($(awk -v a="$c" -v b="$pc" 'BEGIN { printf "%.0f", a / b }')x) |" ;; esac
    else
      srow+=" refused |"
      trow+=" - |"
    fi
  done <<<"$FORMATS"
  if [ $have_zstd = 1 ] && [ -s "$tmp/copy.otlp.pb" ]; then
    srow+=" $(kb "$(zstd -3 -q -c "$tmp/copy.otlp.pb" | wc -c)") |"
  else
    srow+=" - |"
  fi
  for t in folded speedscope.json; do
    if [ -s "$tmp/copy.$t" ]; then srow+=" $(kb "$(gzip -6 -c "$tmp/copy.$t" | wc -c)") |"; else srow+=" - |"; fi
  done
  if [ $have_go = 1 ] && [ -s "$tmp/copy.pb.gz" ]; then
    g=$("$T/timecmd" -n 3 -w 1 -t 120 -- go tool pprof -top "$tmp/copy.pb.gz")
    case $g in ok*) trow+=" $(ms "$(kv cpu_min "$g")") ($(awk -v a="$(kv cpu_min "$g")" -v b="$pc" 'BEGIN { printf "%.0f", a / b }')x) |" ;; *) trow+=" failed |" ;; esac
  else
    trow+=" - |"
  fi
  echo "$srow" >>"$sizes_md"
  echo "$trow" >>"$times_md"
  n=$((n + 1))
done <<<"$INPUTS"

echo "## One profile, every format (bench/formats.sh)"
echo
echo "The largest real profile of each producer in ../shared/testdata ($n inputs), packed by pcol and"
echo "written by \`pcol unpack\` in every format it writes (all copies hold the same samples; \"refused\":"
echo "the format cannot hold the profile, V8 of a heap profile; \"empty\": no stack has the default"
echo "value, dotnet-211's lock_time, so collapsed, Rprof and V8 write none).  Bytes (KB = 1024 bytes); the"
echo "otlp + zstd column is what the Collector's fileexporter stores (proto, zstd -3); collapsed and"
echo "speedscope + gzip are those files gzipped (-6).  pcol lz4 and zstd decode a column when a view"
echo "first reads it; the default pcol file is read in place.  Tachyon and Perfetto (read, not"
echo "written) and Parquet (bench/results/duckdb.md) are not in the table."
echo
cat "$sizes_md"
echo
echo "Least CPU (user + system) of $RUNS fresh \`pcol top FILE\` processes on each copy: the import and the"
echo "query, against the same query on the pcol file it maps (no parsing), and the factor; go: least of 3."
echo "\"unread\": pcol top failed on the copy."
echo
cat "$times_md"
