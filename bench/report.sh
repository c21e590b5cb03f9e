#!/usr/bin/env bash
# report.sh — turn bench/run.sh's results.tsv into the markdown report.
#
#   report.sh RESULTS.tsv DATA_DIR MAIN_SHAPE LARGEST_SIZE VARIANT_SIZE BENCH_BUILD > latest.md
#
# results.tsv columns: case size tool status median min max q1 q3 runs rss_kb note
# (times in seconds; for `size` rows median = bytes; for `scan` = GB/s;
#  for `rows` = row count).
set -u
RES=$1 DATA=$2 MAIN=$3 L=$4 V=$5 BB=$6
MODE=${BENCH_MODE:-?}

# The rows are read once into two maps keyed by "case<TAB>size<TAB>tool" (the
# report asks for ~400 cells: an awk over the file for each cost seconds).
declare -A OKROWS NAWHY
while IFS= read -r row; do
  # \x1f, not tab, as the separator: read collapses runs of whitespace
  # separators, which would shift the columns after an empty one
  IFS=$'\x1f' read -r -a f <<<"${row//$'\t'/$'\x1f'}"
  [ "${#f[@]}" -ge 4 ] || continue
  k="${f[0]}"$'\t'"${f[1]}"$'\t'"${f[2]}"
  case ${f[3]} in
    ok) OKROWS[$k]+="$row"$'\n' ;;
    na) NAWHY[$k]=${f[11]:-} ;;
  esac
done <"$RES"
# get CASE SIZE TOOL [COLUMN=5] -> the last ok row's value, or empty when absent / "-"
get() {
  local k="$1"$'\t'"$2"$'\t'"$3" col=$((${4:-5} - 1)) v="" row
  local -a f
  while IFS= read -r row; do
    [ -n "$row" ] || continue
    IFS=$'\x1f' read -r -a f <<<"${row//$'\t'/$'\x1f'}"
    [ "${f[$col]:-}" != - ] && [ -n "${f[$col]:-}" ] && v=${f[$col]}
  done <<<"${OKROWS[$k]:-}"
  [ -n "$v" ] && printf '%s\n' "$v"
  return 0
}
# why CASE SIZE TOOL -> the n/a reason, if any
why() { printf '%s\n' "${NAWHY["$1"$'\t'"$2"$'\t'"$3"]:-}"; }
calc() { awk "BEGIN { printf \"%s\", $1 }"; }
# human time
ht() {
  [ -z "$1" ] && { printf 'n/a'; return; }
  awk -v v="$1" 'BEGIN { if (v >= 1) printf "%.2f s", v; else if (v >= 1e-3) printf "%.1f ms", v * 1e3; else printf "%.1f µs", v * 1e6 }'
}
hb() { awk -v v="$1" 'BEGIN { if (v >= 1e9) printf "%.2f GB", v/1e9; else if (v >= 1e6) printf "%.1f MB", v/1e6; else if (v >= 1e3) printf "%.1f KB", v/1e3; else printf "%d B", v }'; }
hn() { awk -v v="$1" 'BEGIN { if (v >= 1e6) printf "%gM", v/1e6; else if (v >= 1e3) printf "%gk", v/1e3; else printf "%g", v }'; }
# cell: "median (min–max)" or n/a (reason)
cell() {
  local m; m=$(get "$1" "$2" "$3")
  if [ -n "$m" ]; then
    local cpu; cpu=$(get "$1" "$2" "$3" 13)
    printf '%s (%s–%s, n=%s%s)' "$(ht "$m")" "$(ht "$(get "$1" "$2" "$3" 6)")" "$(ht "$(get "$1" "$2" "$3" 7)")" \
      "$(get "$1" "$2" "$3" 10)" "${cpu:+; cpu $(ht "$cpu")}"
  else
    local w; w=$(why "$1" "$2" "$3")
    printf 'n/a (%s)' "${w:-not run}"
  fi
}
rss() { local r; r=$(get "$1" "$2" "$3" 11); [ -n "$r" ] && awk -v v="$r" 'BEGIN { printf "%.1f MB", v/1024 }' || printf -- '-'; }

SIZES=$(awk -F'\t' -v m="[$MAIN]" '$1 == "size" && index($3, "Rprof text " m) { print $2 }' "$RES" | sort -n | uniq | tr '\n' ' ')

# ------------------------------------------------------------ goals
# each goal: name | goal text | measured text | status (met/missed/n/a) | why
GOALS=()
add() { GOALS+=("$1|$2|$3|$4|${5:-}"); }
judge() { # judge VALUE OP LIMIT -> met/missed/n/a
  [ -z "$1" ] && { echo "n/a"; return; }
  awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN { ok = (op == "<=") ? (v <= l) : (v >= l); print ok ? "met" : "missed" }'
}

o1=$(get open 10 "pcol_open tiny"); big=$(awk -F'\t' '$1=="open" && $3=="pcol_open big" && $4=="ok" {print $2}' "$RES" | tail -n1)
o2=$(get open "${big:-0}" "pcol_open big")
bigsz=$(awk -F'\t' '$1=="open" && $3=="pcol_open big" {print $12}' "$RES" | tail -n1)
st=$(judge "$o1" "<=" 20e-6); st2=$(judge "$o2" "<=" 20e-6)
[ "$st2" = missed ] && st=missed
add "open a file (open + header/directory checks + close)" "≤ 20 µs" \
  "tiny: $(ht "$o1"); big ($bigsz): $(ht "$o2")" "$st" "$(why open 10 "pcol_open tiny")"
if [ -n "$o1" ] && [ -n "$o2" ]; then r=$(calc "$o2/$o1"); else r=""; fi
add "open: big file vs tiny file" "≤ 1.5×" "${r:+$(printf '%.2f×' "$r")}" "$(judge "$r" "<=" 1.5)"

sc=$(awk -F'\t' '$1=="scan" && $4=="ok" {print $5}' "$RES")
scn=$(awk -F'\t' '$1=="scan" {print $2}' "$RES")
scnote=$(awk -F'\t' '$1=="scan" {print $12}' "$RES")
add "sum samples.weight of $(hn "${scn:-0}") samples through the view" "≥ 5 GB/s" \
  "${sc:+$sc GB/s median ($scnote)}" "$(judge "$sc" ">=" 5)" "$scnote"

tp=$(get top "$L" "pcol top")
add "pcol top on $(hn "$L") samples (whole process)" "≤ 150 ms" "$(ht "$tp")" \
  "$(judge "$tp" "<=" 0.150)" "$(why top "$L" "pcol top")"

# ratios at the largest size where both sides were measured
ratio_at() { # ratio_at CASE TOOL_SLOW TOOL_FAST -> "ratio size"
  local s a b
  for s in $(echo "$SIZES" | tr ' ' '\n' | sort -rn); do
    a=$(get "$1" "$s" "$2"); b=$(get "$1" "$s" "$3")
    if [ -n "$a" ] && [ -n "$b" ]; then echo "$(calc "$a/$b") $s"; return; fi
  done
}
read -r rg sg <<<"$(ratio_at top "go tool pprof -top" "pcol top")"
add "pcol top vs go tool pprof -top (pcol file vs .pb.gz)" "≥ 50× faster" \
  "${rg:+$(printf '%.0f×' "$rg") at $(hn "$sg") samples}" "$(judge "${rg:-}" ">=" 50)" \
  "$(why top "$L" "go tool pprof -top")"
read -r rr sr <<<"$(ratio_at top "R summaryRprof" "pcol top")"
add "pcol top vs R summaryRprof (pcol file vs Rprof text)" "≥ 300× faster" \
  "${rr:+$(printf '%.0f×' "$rr") at $(hn "$sr") samples}" "$(judge "${rr:-}" ">=" 300)" \
  "$(why top "$L" "R summaryRprof")"

# the views of issue 15: the slowest against pcol top on a 1M-sample
# profile (the issue's size; the largest size when 1M is not measured)
VIEWS=$(awk -F'\t' '$1 == "views" { print $3 }' "$RES" | awk '!seen[$0]++')
VS=$L
case " $SIZES " in *" 1000000 "*) VS=1000000 ;; esac
tp=$(get top "$VS" "pcol top"); worst=""; wname=""
while IFS= read -r v; do
  { [ -z "$v" ] || [ "$v" = "pcol peek ." ]; } && continue # every call printed: in the table only
  t=$(get views "$VS" "$v")
  [ -n "$t" ] && [ -n "$tp" ] || continue
  r=$(calc "$t/$tp")
  if [ -z "$worst" ] || awk -v a="$r" -v b="$worst" 'BEGIN { exit !(a > b) }'; then worst=$r; wname=$v; fi
done <<<"$VIEWS"
add "every view (top --by line/address, peek of a function, list --by file, tags, traces, info) vs pcol top, $(hn "$VS") samples" \
  "≤ 2× pcol top" "${worst:+$(printf '%.2f×' "$worst") (slowest: $wname)}" "$(judge "$worst" "<=" 2)"

pk=$(get pack-rprof "$L" "pcol pack (Rprof) [$MAIN]")
insz=$(get size "$L" "Rprof text [$MAIN]")
outsz=$(get size "$L" "pcol [$MAIN]")
if [ -n "$pk" ]; then mbs=$(calc "$insz/$pk/1e6"); else mbs=""; fi
add "pcol pack of Rprof text ($(hn "$L") samples, $(hb "${insz:-0}"))" "≥ 250 MB/s of input" \
  "${mbs:+$(printf '%.0f MB/s' "$mbs")}" "$(judge "$mbs" ">=" 250)" "$(why pack-rprof "$L" "pcol pack (Rprof) [$MAIN]")"
pr=$(get pack-rprof "$L" "pcol pack (Rprof) [$MAIN]" 11)
if [ -n "$pr" ] && [ -n "$outsz" ]; then
  lim=$(calc "64 + $outsz/1048576"); prm=$(calc "$pr/1024")
  add "pcol pack of Rprof: peak memory" "≤ 64 MB + output tables" \
    "$(printf '%.0f MB (limit %.0f MB = 64 + %.0f MB output)' "$prm" "$lim" "$(calc "$outsz/1048576")")" \
    "$(judge "$prm" "<=" "$lim")"
else
  add "pcol pack of Rprof: peak memory" "≤ 64 MB + output tables" "" "n/a" "$(why pack-rprof "$L" "pcol pack (Rprof) [$MAIN]")"
fi

read -r rp sp <<<"$(ratio_at pack-pprof "pcol pack (pprof)" "protobuf-c decode")"
add "pcol pack of pprof vs inflate + protobuf-c decode alone" "≤ 1.5× the time" \
  "${rp:+$(printf '%.2f×' "$rp") at $(hn "$sp") samples}" "$(judge "${rp:-}" "<=" 1.5)" \
  "$(why pack-pprof "$L" "pcol pack (pprof)")"
read -r ru su <<<"$(ratio_at unpack "pcol unpack --to pprof" "go tool pprof -proto")"
add "pcol unpack --to pprof vs go tool pprof -proto" "≤ 1.0× (no slower)" \
  "${ru:+$(printf '%.2f×' "$ru") at $(hn "$su") samples}" "$(judge "${ru:-}" "<=" 1.0)" \
  "$(why unpack "$L" "pcol unpack --to pprof")"

pz=$(get size "$L" "pcol [$MAIN]"); lz=$(get size "$L" "pcol lz4 [$MAIN]"); gz=$(get size "$L" "pprof .pb.gz [$MAIN]")
pnote=$(awk -F'\t' -v t="pcol [$MAIN]" -v s="$L" '$1=="size" && $2==s && $3==t {print $12}' "$RES")
r1=$([ -n "$pz" ] && calc "$pz/$insz"); r2=$([ -n "$lz" ] && calc "$lz/$insz"); r3=$([ -n "$lz" ] && calc "$lz/$gz")
add "size: uncompressed pcol vs Rprof text" "≤ 0.15×" "${r1:+$(printf '%.3f× (%s vs %s; %s)' "$r1" "$(hb "$pz")" "$(hb "$insz")" "$pnote")}" "$(judge "$r1" "<=" 0.15)"
add "size: --compress lz4 pcol vs Rprof text" "≤ 0.05×" "${r2:+$(printf '%.3f× (%s)' "$r2" "$(hb "$lz")")}" "$(judge "$r2" "<=" 0.05)"
add "size: --compress lz4 pcol vs pprof .pb.gz" "≤ 1.0×" "${r3:+$(printf '%.2f× (%s vs %s)' "$r3" "$(hb "$lz")" "$(hb "$gz")")}" "$(judge "$r3" "<=" 1.0)"

# Perun: peak memory of pcol pack against the JSON size, at each style's
# largest measured size (the issue asks for a small multiple of the size)
perun_worst=""; perun_meas=""; perun_why=""
for style in memory kperf; do
  ps=$(awk -F'\t' -v t="pcol pack (Perun $style)" '$1 == "pack-perun" && $3 == t && $4 == "ok" {print $2}' "$RES" | sort -n | tail -n1)
  if [ -z "$ps" ]; then
    perun_why="${perun_why:+$perun_why; }$style: $(awk -F'\t' -v t="pcol pack (Perun $style)" '$1 == "pack-perun" && $3 == t {print $12}' "$RES" | tail -n1)"
    continue
  fi
  pm=$(get pack-perun "$ps" "pcol pack (Perun $style)" 11); pj=$(get size "$ps" "Perun JSON [$style]")
  pr=$(calc "$pm*1024/$pj")
  perun_meas="${perun_meas:+$perun_meas; }$style $(hn "$ps") samples: $(printf '%.1f×' "$pr") ($(awk -v v="$pm" 'BEGIN{printf "%.0f MB", v/1024}') for $(hb "$pj"))"
  if [ -z "$perun_worst" ] || [ "$(calc "($pr > $perun_worst) ? 1 : 0")" = 1 ]; then perun_worst=$pr; fi
done
add "pcol pack of Perun JSON: peak memory / file size" "≤ 4×" "$perun_meas" "$(judge "$perun_worst" "<=" 4)" "$perun_why"

ct=$(get cat "$L" "pcol cat sample_locations"); rows=$(get rows "$L" "pcol cat sample_locations")
if [ -n "$ct" ] && [ -n "$rows" ]; then mrs=$(calc "$rows/$ct/1e6"); else mrs=""; fi
add "pcol cat --table sample_locations to /dev/null" "≥ 50 M rows/s" \
  "${mrs:+$(printf '%.1f M rows/s (%s rows in %s)' "$mrs" "$rows" "$(ht "$ct")")}" "$(judge "$mrs" ">=" 50)" \
  "$(why cat "$L" "pcol cat sample_locations")"

# ------------------------------------------------------------ output
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n1)
echo "# pcol benchmark results ($MODE run)"
echo
commit=$(awk -F'\t' '$1 == "env" && $3 == "commit" {print $12}' "$RES" | tail -n1)
[ -z "$commit" ] && commit="$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet -- lib include format tools 2>/dev/null || echo ' + uncommitted changes in lib/ tools/')"
echo "Generated by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'); pcol built from $commit."
echo
echo "- **Machine:** $cpu, $(nproc) cores ($(lscpu | sed -n 's/^Hypervisor vendor: *//p' | head -n1 | sed 's/^./under &/')), $(awk '/MemTotal/ {printf "%.0f GiB RAM", $2/1048576}' /proc/meminfo), Linux $(uname -r)"
echo "- **Compiler:** $(${CC:-cc} --version | head -n1); libpcol and pcol built with \`-O2 -g\` (no sanitizers) in \`$BB\`"
echo "- **R:** $(R --version 2>/dev/null | head -n1 || echo 'not installed')"
echo "- **Go:** $(go version 2>/dev/null || echo 'not installed')"
echo "- **Method:** single thread, warm page cache; each command run ${BENCH_RUNS:-?} times after one warm-up (inputs of 1M+ samples: no warm-up, as many runs as fit in 20 s, at least one), figures are the median with (min–max, n = runs); whole-process times include process start-up. Peak memory = ru_maxrss of the process (what \`/usr/bin/time -v\` reports)."
echo "- **Load:** load average $(awk -F'\t' '$1 == "env" && $3 == "load-start" {print $12}' "$RES") at the start, $(awk -F'\t' '$1 == "env" && $3 == "load-end" {print $12}' "$RES") at the end (2 vCPUs; other work on the machine inflates wall times — the cpu figure, user+system CPU of the process, is robust to it)."
echo "- **Data:** bench/gen_profile (seed 42): \`$MAIN\` = shallow stacks (5–18 frames), many unique stacks, memory + line profiling, one sample per 20 ms tick; written as Rprof text, as pprof (one Sample per tick, gzip level 6 as google/pprof writes) and as pcol."
echo
echo "## Goals missed, and why"
echo
nmiss=0
for g in "${GOALS[@]}"; do
  IFS='|' read -r name goal meas stat w <<<"$g"
  if [ "$stat" != met ]; then
    nmiss=$((nmiss + 1))
    if [ "$stat" = "n/a" ]; then
      echo "- **$name** (goal $goal): not measured${w:+ — $w}."
    else
      echo "- **$name** (goal $goal): measured $meas."
    fi
  fi
done
[ $nmiss = 0 ] && echo "None: every goal is met."
if [ -f bench/analysis.md ]; then
  echo
  cat bench/analysis.md
fi
echo
echo "## Goals"
echo
echo "| measurement | goal | measured | status |"
echo "|---|---|---|---|"
for g in "${GOALS[@]}"; do
  IFS='|' read -r name goal meas stat w <<<"$g"
  [ -z "$meas" ] && meas="n/a${w:+ ($w)}"
  echo "| $name | $goal | $meas | **$stat** |"
done
echo
echo "## Details"
echo
echo "### Opening (library call, in-process loop of pcol_open + pcol_close)"
echo
echo "| file | samples | median | IQR | min–max | iterations |"
echo "|---|---|---|---|---|---|"
awk -F'\t' '$1 == "open"' "$RES" | while IFS=$'\t' read -r c s t stt m mi ma q1 q3 n rs note cpu; do
  if [ "$stt" = ok ]; then
    echo "| $t ($note) | $(hn "$s") | $(ht "$m") | $(ht "$q1")–$(ht "$q3") | $(ht "$mi")–$(ht "$ma") | $n |"
  else
    echo "| $t | $(hn "$s") | n/a ($note) | | | |"
  fi
done
echo
echo "### top: pcol top vs go tool pprof -top vs R summaryRprof (whole process)"
echo
echo "| samples | pcol top | go tool pprof -top | R summaryRprof | go / pcol | R / pcol | peak RSS pcol / go / R |"
echo "|---|---|---|---|---|---|---|"
for s in $SIZES; do
  a=$(get top "$s" "pcol top"); b=$(get top "$s" "go tool pprof -top"); c=$(get top "$s" "R summaryRprof")
  rb=$([ -n "$a" ] && [ -n "$b" ] && printf '%.0f×' "$(calc "$b/$a")" || echo -)
  rc=$([ -n "$a" ] && [ -n "$c" ] && printf '%.0f×' "$(calc "$c/$a")" || echo -)
  echo "| $(hn "$s") | $(cell top "$s" "pcol top") | $(cell top "$s" "go tool pprof -top") | $(cell top "$s" "R summaryRprof") | $rb | $rc | $(rss top "$s" "pcol top") / $(rss top "$s" "go tool pprof -top") / $(rss top "$s" "R summaryRprof") |"
done
note=$(awk -F'\t' '$1 == "note" {print $12}' "$RES" | head -n1)
[ -n "$note" ] && echo && echo "Note: pcol top $note."
echo
if [ -n "$VIEWS" ]; then
  echo "### views on the file pcol top reads (whole process; goal ≤ 2× pcol top)"
  echo
  echo "| samples | view | time | / pcol top | peak RSS |"
  echo "|---|---|---|---|---|"
  for s in $SIZES; do
    a=$(get top "$s" "pcol top")
    while IFS= read -r v; do
      [ -n "$v" ] || continue
      b=$(get views "$s" "$v")
      r=$([ -n "$a" ] && [ -n "$b" ] && printf '%.2f×' "$(calc "$b/$a")" || echo -)
      echo "| $(hn "$s") | $v | $(cell views "$s" "$v") | $r | $(rss views "$s" "$v") |"
    done <<<"$VIEWS"
  done
  echo
fi
echo "### pack"
echo
echo "| samples | input | pcol pack (Rprof) | MB/s | peak RSS | pprof .pb.gz | inflate+decode only | pcol pack (pprof) | pack / decode |"
echo "|---|---|---|---|---|---|---|---|---|"
for s in $SIZES; do
  in=$(get size "$s" "Rprof text [$MAIN]"); a=$(get pack-rprof "$s" "pcol pack (Rprof) [$MAIN]")
  d=$(get pack-pprof "$s" "protobuf-c decode"); p=$(get pack-pprof "$s" "pcol pack (pprof)")
  mb=$([ -n "$a" ] && printf '%.0f' "$(calc "$in/$a/1e6")" || echo -)
  rp=$([ -n "$d" ] && [ -n "$p" ] && printf '%.2f×' "$(calc "$p/$d")" || echo -)
  echo "| $(hn "$s") | $(hb "${in:-0}") | $(cell pack-rprof "$s" "pcol pack (Rprof) [$MAIN]") | $mb | $(rss pack-rprof "$s" "pcol pack (Rprof) [$MAIN]") | $(hb "$(get size "$s" "pprof .pb.gz [$MAIN]")") | $(cell pack-pprof "$s" "protobuf-c decode") | $(cell pack-pprof "$s" "pcol pack (pprof)") | $rp |"
done
echo
echo "### pack of Perun JSON"
echo
echo "Peak RSS counts the mapped input file as well as the builder (both are resident)."
echo
echo "| style | samples | Perun JSON | pcol pack | MB/s | peak RSS | RSS / JSON size |"
echo "|---|---|---|---|---|---|---|"
for style in memory kperf; do
  for s in $(awk -F'\t' -v t="Perun JSON [$style]" '$1 == "size" && $3 == t {print $2}' "$RES" | sort -n); do
    j=$(get size "$s" "Perun JSON [$style]"); a=$(get pack-perun "$s" "pcol pack (Perun $style)"); m=$(get pack-perun "$s" "pcol pack (Perun $style)" 11)
    echo "| $style | $(hn "$s") | $(hb "${j:-0}") | $(cell pack-perun "$s" "pcol pack (Perun $style)") | $([ -n "$a" ] && printf '%.0f' "$(calc "$j/$a/1e6")" || echo -) | $(rss pack-perun "$s" "pcol pack (Perun $style)") | $([ -n "$m" ] && printf '%.1f×' "$(calc "$m*1024/$j")" || echo -) |"
  done
done
echo
echo "### unpack --to pprof vs go tool pprof -proto"
echo
echo "| samples | pcol unpack --to pprof | go tool pprof -proto | pcol / go |"
echo "|---|---|---|---|"
for s in $SIZES; do
  a=$(get unpack "$s" "pcol unpack --to pprof"); b=$(get unpack "$s" "go tool pprof -proto")
  r=$([ -n "$a" ] && [ -n "$b" ] && printf '%.2f×' "$(calc "$a/$b")" || echo -)
  echo "| $(hn "$s") | $(cell unpack "$s" "pcol unpack --to pprof") | $(cell unpack "$s" "go tool pprof -proto") | $r |"
done
echo
echo "### pcol cat --table sample_locations > /dev/null"
echo
echo "| samples | rows | time | M rows/s |"
echo "|---|---|---|---|"
for s in $SIZES; do
  t=$(get cat "$s" "pcol cat sample_locations"); r=$(get rows "$s" "pcol cat sample_locations")
  echo "| $(hn "$s") | ${r:--} | $(cell cat "$s" "pcol cat sample_locations") | $([ -n "$t" ] && [ -n "$r" ] && printf '%.1f' "$(calc "$r/$t/1e6")" || echo -) |"
done
echo
echo "### Sizes"
echo
echo "| profile | samples | Rprof text | pprof .pb.gz | pcol | pcol lz4 | pcol / Rprof | lz4 / Rprof | lz4 / .pb.gz |"
echo "|---|---|---|---|---|---|---|---|---|"
size_line() {
  local sh=$1 s=$2 r g p l
  r=$(get size "$s" "Rprof text [$sh]"); g=$(get size "$s" "pprof .pb.gz [$sh]")
  p=$(get size "$s" "pcol [$sh]"); l=$(get size "$s" "pcol lz4 [$sh]")
  [ -z "$r" ] && return
  echo "| $sh | $(hn "$s") | $(hb "$r") | $(hb "$g") | $(hb "${p:-0}") | $([ -n "$l" ] && hb "$l" || echo n/a) | $(printf '%.3f' "$(calc "${p:-0}/$r")") | $([ -n "$l" ] && printf '%.3f' "$(calc "$l/$r")" || echo -) | $([ -n "$l" ] && printf '%.2f' "$(calc "$l/$g")" || echo -) |"
}
for s in $SIZES; do size_line "$MAIN" "$s"; done
for sh in sf-ml dm-ml df-ml sm-pl; do size_line $sh "$V"; done
pnote=$(awk -F'\t' '$1=="size" && $3 ~ /^pcol / {print $12}' "$RES" | sort -u | tr '\n' ';' | sed 's/;$//')
echo
echo "pcol files: $pnote."
echo
echo "### By profile shape ($(hn "$V") samples)"
echo
echo "Shapes: s/d = shallow (5–18 frames) / deep (40–160 frames, with recursion); m/f = many unique stacks / few (48); -ml = memory + line profiling, -pl = plain."
echo
echo "| shape | Rprof text | pcol pack (Rprof) | MB/s | peak RSS | pcol top |"
echo "|---|---|---|---|---|---|"
for sh in "$MAIN" sf-ml dm-ml df-ml sm-pl; do
  in=$(get size "$V" "Rprof text [$sh]"); a=$(get pack-rprof "$V" "pcol pack (Rprof) [$sh]")
  tc=$([ "$sh" = "$MAIN" ] && cell top "$V" "pcol top" || cell top-shape "$V" "pcol top [$sh]")
  echo "| $sh | $(hb "${in:-0}") | $(cell pack-rprof "$V" "pcol pack (Rprof) [$sh]") | $([ -n "$a" ] && printf '%.0f' "$(calc "$in/$a/1e6")" || echo -) | $(rss pack-rprof "$V" "pcol pack (Rprof) [$sh]") | $tc |"
done
echo
echo "Plot: \`$(basename "${OUT_SVG:-latest.svg}")\` (log-log time vs samples for open, top and pack, one line per tool)."
