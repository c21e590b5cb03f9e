#!/usr/bin/env bash
# pprof's options that change the numbers, not the samples, against go tool
# pprof itself, from "Showing nodes" on:
#   --mean (-mean; -mean_delay): `top` (flat, -cum, -lines, with filters
#     and -relative_percentages) and `graph` (-dot) for every value type of
#     every pprof profile of the test data go reads, -callgrind of three;
#     -traces of each, and -peek and
#     -tree (-cum, -nodecount, -nodefraction, -lines, -focus) of five,
#     -list (sums, and the mean total) of two;
#   --normalize (-normalize) with --base and --diff-base: `top` of each
#     pair of profiles that measure the same value types, and `traces`
#     (every merged sample's scaled values);
#   --drop-negative (-drop_negative): `top`, `tree`, `peek`, `list` and `graph` of those pairs under --base and
#     --diff-base (flat, -cum, -nodefraction, -nodecount), and of a delta
#     heap profile with negative values, each of its value types.
#   --divide-by F (-divide_by=F: each number printed through report.go's
#     formatValue is int64(v x 1/F), the unit chosen from the scaled
#     smallest value and total, shares of the unscaled values) for F in 3,
#     0.5, 1e9, 7 and 2.5 on cpu, heap (each value type), delta (negative
#     values) and labelled profiles (7 and 2.5 on the smaller ones only,
#     for make test's time, and so not the checks made on the cpu or heap
#     profile alone: -mean, -unit, -focus with -relative_percentages,
#     -hide): top (-cum, -lines, -nodefraction,
#     -mean, -unit, -focus with -relative_percentages), peek and tree
#     (-hide, -mean, -drop_negative), traces and list from the Duration
#     line ("Total samples = X") or "Showing nodes" on (list: -drop_negative
#     too); dot (-mean, -drop_negative too;
#     dot_compare.py, and the legend's Duration line); callgrind byte for
#     byte (its numbers are not divided, only its unit is chosen from the
#     divided ones); tags, which -divide_by leaves as they are (pcol's tags
#     have no --divide-by); pcol's refusals (0 as pprof, a negative F that
#     pprof ignores, a machine format): exit 2 and a message; and divisors
#     so small (1e-20, 1e-320) that the numbers pass int64 (Go's MinInt64).
# Left out: the profile whose names hold raw control bytes (pcol prints
# them as \xNN, doc/safety.md).  A view go refuses (no output, a
# complaint) is not counted, and pcol must refuse it too (exit status not
# 0); one go leaves empty without a word (-tags of no labels) is not
# counted, and pcol's must be empty, exit 0 (value_opts_judge.py): the
# count at the end must reach 500, and 450 of them --divide-by's.
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
command -v go >/dev/null || { echo "t_value_opts: go not installed: skipped"; exit 77; }
data=$(cd "$REPO/../shared/testdata" 2>/dev/null && pwd) || { echo "t_value_opts: no test data: skipped"; exit 77; }
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
# How it runs (make test's CPU budget): go's views come from go tool
# pprof's interactive sessions, one per profile, base and -sample_index
# (tests/interop/pprof_session.sh: one view in 25 also on the command line,
# held to the session's answer).  pcol's side runs as each comparison is
# planned; the sessions run after the planning, two at a time, then
# tests/interop/value_opts_judge.py cuts both sides of every comparison by
# its rule and judges all at once.
from=showing # where the comparison starts (value_opts_judge.py's rules)
n=0 fail=0 J=0 DIV=0
mkdir -p "$tmp/gv" "$tmp/pv" "$tmp/e"
PPROF=$(go tool -n pprof 2>/dev/null)
[ -x "$PPROF" ] || { echo "t_value_opts: FAIL: go tool -n pprof names no program (\"$PPROF\")"; exit 1; }
bad() { # bad WHAT: a failed check, pcol's messages and the difference printed
  echo "t_value_opts: FAIL: $1"
  cat "$tmp/err"
  diff "$tmp/go" "$tmp/pc" | head -6
  fail=$((fail + 1))
}
MAN=()
. "$REPO/tests/interop/pprof_session.sh"
# plan GO-ARGS...: go tool pprof -symbolize=none GO-ARGS into $tmp/gv/$J
plan() { ps_plan "$tmp/gv/$J" "$@"; }
check() { # check WHAT GO-ARGS -- PCOL-ARGS
  local what=$1 g=() p=()
  shift
  while [ "$1" != -- ]; do g+=("$1"); shift; done
  shift
  p=("$@")
  J=$((J + 1))
  plan "${g[@]}"
  "$PCOL" "${p[@]}" >"$tmp/pv/$J" 2>"$tmp/e/$J"
  echo $? >"$tmp/e/$J.rc"
  MAN+=("$J"$'\t'"$from"$'\t'"$DIV"$'\t'"$what")
}
# run the sessions (two at a time, the longest first), then judge every
# comparison planned so far; n and fail count what was judged
judge() {
  ps_run >"$tmp/ps"
  sed 's/^/t_value_opts: /' "$tmp/ps"
  fail=$((fail + PS_FAILS))
  printf '%s\n' "${MAN[@]}" >"$tmp/manifest"
  python3 "$REPO/tests/interop/value_opts_judge.py" "$tmp" >"$tmp/judged" || { echo "t_value_opts: FAIL: the judge failed"; fail=$((fail + 1)); }
  local kind x y z e m
  while IFS=$'\t' read -r kind x y z e; do
    case $kind in
    N) n=$((n + x)) jn=$x jd=$y jr=$z je=$e ;;
    F)
      for m in "${MAN[@]}"; do [ "${m%%$'\t'*}" = "$x" ] && break; done
      cp "$tmp/j/$x.go" "$tmp/go"; cp "$tmp/j/$x.pc" "$tmp/pc"; cp "$tmp/e/$x" "$tmp/err"
      bad "${m#*$'\t'*$'\t'*$'\t'}${y:+ ($y)}" ;;
    esac
  done <"$tmp/judged"
}
jn=0 jd=0 jr=0 je=0
inputs=()
for f in "$data"/pprof/*.pb* "$data"/ext/pprof/*; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid-utf8-nul-strings*) continue ;; esac
  "$PCOL" info "$f" 2>/dev/null | grep -q 'input_format: *otlp' && continue
  inputs+=("$f")
done

# --mean, in top and in the drawn graph (-dot: nodes, calls and label
# boxes in means; nodes of the divisor's samples only are pprof's
# "phantoms", called to N0), for every value type
for f in "${inputs[@]}"; do
  b=$(basename "$f")
  types=$("$PCOL" info "$f" 2>/dev/null | sed -n 's/^  values: *//p' | sed 's/ (default.*//; s/, /\n/g')
  for si in $types; do
    check "$b mean ${si%/*}" -mean -top -sample_index="${si%/*}" "$f" -- top "$f" --mean --value "${si%/*}"
    from=DOT
    check "$b mean -dot ${si%/*}" -mean -dot -sample_index="${si%/*}" "$f" -- graph "$f" --mean --value "${si%/*}"
    from=showing
  done
  check "$b mean -cum" -mean -top -cum "$f" -- top "$f" --mean --sort cum
  check "$b mean -lines" -mean -top -lines "$f" -- top "$f" --mean --by line
done
f=$data/pprof/go-heap-allocs-inline.pb.gz
check "mean -focus" -mean -top -focus=grpc "$f" -- top "$f" --mean --focus grpc
check "mean -hide -relative" -mean -top -hide=runtime -relative_percentages "$f" -- top "$f" --mean --hide runtime --relative-percentages
check "mean -nodefraction" -mean -top -nodefraction=0.05 "$f" -- top "$f" --mean --node-fraction 0.05
g=$data/ext/pprof/go-block-net.pb.gz
[ -f "$g" ] && check "mean_delay" -mean_delay -top "$g" -- top "$g" --mean --value delay
# the drawn graph with cuts, and -callgrind (calls in sums)
from=DOT
f=$data/pprof/go-heap-allocs-inline.pb.gz
check "mean -dot -nodecount -focus" -mean -dot -nodecount=20 -focus=grpc "$f" -- graph "$f" --mean --node-count 20 --focus grpc
check "mean -dot -lines" -mean -dot -lines -sample_index=inuse_space "$f" -- graph "$f" --mean --by line --value inuse_space
from=all # callgrind: all of it
for f in "$data"/pprof/go-heap-allocs-inline.pb.gz "$data"/pprof/dotnet-6types-labels-UNCOMPRESSED.pb "$data"/ext/pprof/go-alloc-objects-parca.pb.gz; do
  [ -f "$f" ] || continue
  check "$(basename "$f") mean -callgrind" -mean -callgrind -sample_index=inuse_space "$f" -- graph "$f" --format callgrind --mean --value inuse_space
  check "$(basename "$f") mean -callgrind default" -mean -callgrind "$f" -- graph "$f" --format callgrind --mean
done
# --mean in peek, tree and traces: nodes in means, calls in sums
from=traces # traces
for f in "${inputs[@]}"; do
  check "$(basename "$f") mean -traces" -mean -traces "$f" -- traces "$f" --mean
done
from=showing
for f in "$data"/pprof/go-heap-allocs-inline.pb.gz "$data"/pprof/go-cpu-large.pb.gz "$data"/ext/pprof/go-block-net.pb.gz \
  "$data"/pprof/go-heap-delta-negative-values.pb.gz "$data"/ext/pprof/nodejs-heap.pb.gz; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  check "$b mean -peek" -mean -peek 'Stream|main|run' "$f" -- peek "$f" 'Stream|main|run' --mean
  check "$b mean -tree" -mean -tree "$f" -- tree "$f" --mean
  check "$b mean -tree -cum -nodecount" -mean -tree -cum -nodecount=12 "$f" -- tree "$f" --mean --sort cum --node-count 12
  check "$b mean -tree -nodefraction -lines" -mean -tree -nodefraction=0.02 -lines "$f" -- tree "$f" --mean --node-fraction 0.02 --by line
  check "$b mean -tree -focus -relative" -mean -tree -focus=runtime -relative_percentages "$f" -- tree "$f" --mean --focus runtime --relative-percentages
done
[ -f "$g" ] && check "mean_delay -tree" -mean_delay -tree "$g" -- tree "$g" --mean --value delay
# --mean in list: the lines' sums, the mean total
from=total
f=$data/pprof/go-heap-allocs-inline.pb.gz
check "mean -list" -mean -list 'grpc.*recvMsg' "$f" -- list "$f" 'grpc.*recvMsg' --mean
check "mean -list -focus -relative" -mean -list 'grpc.*recvMsg' -focus=grpc -relative_percentages "$f" -- list "$f" 'grpc.*recvMsg' --mean --focus grpc --relative-percentages
[ -f "$g" ] && check "mean_delay -list" -mean_delay -list 'sync' "$g" -- list "$g" 'sync' --mean --value delay
from=showing

# --drop-negative alone: a delta heap profile has negative values
f=$data/pprof/go-heap-delta-negative-values.pb.gz
if [ -f "$f" ]; then
  for si in alloc_objects alloc_space inuse_objects inuse_space; do
    check "drop_negative $si" -drop_negative -top -sample_index=$si "$f" -- top "$f" --drop-negative --value $si
    check "drop_negative -tree $si" -drop_negative -tree -sample_index=$si "$f" -- tree "$f" --drop-negative --value $si
    check "drop_negative -tree -nodecount -edgefraction $si" -drop_negative -tree -nodecount=8 -edgefraction=0 -sample_index=$si "$f" -- tree "$f" --drop-negative --node-count 8 --edge-fraction 0 --value $si
    check "drop_negative -peek $si" -drop_negative -peek=. -sample_index=$si "$f" -- peek "$f" . --drop-negative --value $si
    check "drop_negative -peek -cum $si" -drop_negative -cum -peek=parquet -sample_index=$si "$f" -- peek "$f" parquet --drop-negative --sort cum --value $si
  done
  from=DOT
  for si in alloc_space inuse_space inuse_objects; do
    check "drop_negative -dot $si" -drop_negative -dot -sample_index=$si "$f" -- graph "$f" --drop-negative --value $si
  done
  check "drop_negative -dot -nodecount" -drop_negative -dot -nodecount=10 -edgefraction=0 "$f" -- graph "$f" --drop-negative --node-count 10 --edge-fraction 0
  check "drop_negative -mean -dot" -drop_negative -mean -dot -sample_index=alloc_space "$f" -- graph "$f" --drop-negative --mean --value alloc_space
  # (not -callgrind: its calls of +w and -w come in pprof's random order)
  from=total
  for si in alloc_space inuse_space inuse_objects; do
    check "drop_negative -list $si" -drop_negative -list=parquet -sample_index=$si "$f" -- list "$f" parquet --drop-negative --value $si
  done
  check "drop_negative -list ." -drop_negative -list=. "$f" -- list "$f" . --drop-negative
  from=showing
  check "drop_negative -mean -peek" -drop_negative -mean -peek=. -sample_index=inuse_space "$f" -- peek "$f" . --drop-negative --mean --value inuse_space
  check "drop_negative -peek -focus -relative" -drop_negative -focus=Buffer -relative_percentages -peek=parquet "$f" -- peek "$f" parquet --drop-negative --focus Buffer --relative-percentages
fi

# --normalize: pairs of profiles of the same value types (pcol info's list)
for f in "${inputs[@]}"; do
  printf '%s\t%s\n' "$("$PCOL" info "$f" 2>/dev/null | sed -n 's/^  values: *//p' | sed 's/ (default.*//')" "$f"
done | sort -t "$(printf '\t')" -k1,1 -s >"$tmp/types"
pairs=0
prev_t= prev_f=
while IFS="$(printf '\t')" read -r t f; do
  if [ "$t" = "$prev_t" ] && [ -n "$t" ] && [ $pairs -lt 12 ]; then
    pairs=$((pairs + 1))
    check "normalize -base $(basename "$f") $(basename "$prev_f")" -normalize -top -base="$prev_f" "$f" -- top "$f" --normalize --base "$prev_f"
    check "normalize -diff_base $(basename "$f") $(basename "$prev_f")" -normalize -top -diff_base="$prev_f" "$f" -- top "$f" --normalize --diff-base "$prev_f"
    check "normalize -diff_base -cum $(basename "$prev_f") $(basename "$f")" -normalize -top -cum -diff_base="$f" "$prev_f" -- top "$prev_f" --normalize --diff-base "$f" --sort cum
    from=sep
    check "normalize -traces $(basename "$f") $(basename "$prev_f")" -normalize -traces -diff_base="$prev_f" "$f" -- traces "$f" --normalize --diff-base "$prev_f"
    from=showing
    check "drop_negative -diff_base $(basename "$f") $(basename "$prev_f")" -drop_negative -top -diff_base="$prev_f" "$f" -- top "$f" --drop-negative --diff-base "$prev_f"
    check "drop_negative -base -cum $(basename "$prev_f") $(basename "$f")" -drop_negative -top -cum -base="$f" "$prev_f" -- top "$prev_f" --drop-negative --base "$f" --sort cum
    check "drop_negative -nodefraction -nodecount $(basename "$f")" -drop_negative -top -nodefraction=0.05 -nodecount=5 -diff_base="$prev_f" "$f" -- top "$f" --drop-negative --node-fraction 0.05 -n 5 --diff-base "$prev_f"
    check "drop_negative -peek -diff_base $(basename "$f")" -drop_negative -peek=. -diff_base="$prev_f" "$f" -- peek "$f" . --drop-negative --diff-base "$prev_f"
    # (not -list: pprof's list nodes keep a line of the base's binary apart
    # from the same line of the profile's, pcol's merge them: doc/cli.md)
    from=DOT
    check "drop_negative -dot -diff_base $(basename "$f")" -drop_negative -dot -diff_base="$prev_f" "$f" -- graph "$f" --drop-negative --diff-base "$prev_f"
    from=showing
    check "drop_negative -tree -diff_base $(basename "$f")" -drop_negative -tree -diff_base="$prev_f" "$f" -- tree "$f" --drop-negative --diff-base "$prev_f"
    check "drop_negative -tree -base -cum -nodefraction=0 $(basename "$f")" -drop_negative -tree -cum -nodefraction=0 -base="$f" "$prev_f" -- tree "$prev_f" --drop-negative --sort cum --node-fraction 0 --base "$f"
  fi
  prev_t=$t prev_f=$f
done <"$tmp/types"

# --divide-by
before=$n DIV=1
: >"$tmp/dots"
dot() { # dot F FILE GO-ARGS -- PCOL-ARGS: compared together at the end
  local F=$1 f=$2 g=() p=()
  shift 2
  while [ "$1" != -- ]; do g+=("$1"); shift; done
  shift
  p=("$@")
  n=$((n + 1)) J=$((J + 1))
  from=DOT plan -dot -divide_by="$F" "${g[@]}" "$f"
  "$PCOL" graph "$f" --divide-by "$F" "${p[@]}" >"$tmp/$n.pc" 2>"$tmp/err" || { cp /dev/null "$tmp/go"; cp /dev/null "$tmp/pc"; bad "pcol graph $(basename "$f") --divide-by $F ${p[*]}"; return; }
  printf '%s\t%s\t%s\n' "$tmp/gv/$J" "$tmp/$n.pc" "$(basename "$f") -dot -divide_by=$F ${g[*]}" >>"$tmp/dots"
}

D=$data/pprof
cpu=$D/go-cpu-large.pb.gz small=$D/go-cpu-inline-small.pb.gz heap=$D/go-heap-allocs-inline.pb.gz
delta=$D/go-heap-delta-negative-values.pb.gz labels=$D/go-cpu-string-labels.pb.gz
ebpf=$D/native-ebpf-kernel-buildid-thread-labels.pb.gz block=$data/ext/pprof/go-block-net.pb.gz
for f in "$cpu" "$small" "$heap" "$delta" "$labels"; do
  [ -f "$f" ] || { echo "t_value_opts: $f missing"; exit 1; }
done
files=("$cpu" "$small" "$heap" "$delta" "$labels")
[ -f "$ebpf" ] && files+=("$ebpf")
[ -f "$block" ] && files+=("$block")

# The two large profiles (go takes 1.4 s and 0.8 s to read each) are read
# for F = 3, 0.5 and 1e9; 7 and 2.5, which divide the same way, on the
# small ones only (make test's time: each go call on them is a second).
light() { [ "$1" = 7 ] || [ "$1" = 2.5 ]; }
for F in 3 0.5 1e9 7 2.5; do
  for f in "${files[@]}"; do
    light "$F" && { [ "$f" = "$cpu" ] || [ "$f" = "$heap" ]; } && continue
    b="$(basename "$f") -divide_by=$F"
    from=duration
    check "$b -top" -divide_by="$F" -top "$f" -- top "$f" --divide-by "$F"
    check "$b -top -cum -lines" -divide_by="$F" -top -cum -lines "$f" -- top "$f" --divide-by "$F" --sort cum --by line
    check "$b -tree" -divide_by="$F" -tree "$f" -- tree "$f" --divide-by "$F"
    check "$b -peek" -divide_by="$F" -peek 'main|run|Stream' "$f" -- peek "$f" 'main|run|Stream' --divide-by "$F"
    check "$b -mean -top" -mean -divide_by="$F" -top "$f" -- top "$f" --mean --divide-by "$F"
    from=traces
    check "$b -traces" -divide_by="$F" -traces "$f" -- traces "$f" --divide-by "$F"
    from=total
    check "$b -list" -divide_by="$F" -list 'main\.' "$f" -- list "$f" 'main\.' --divide-by "$F"
    from=all
    check "$b -tags" -divide_by="$F" -tags "$f" -- tags "$f"
    dot "$F" "$f" --
  done
  # every value type of the heap profiles (bytes and counts, negative values)
  for f in "$heap" "$delta"; do
    light "$F" && [ "$f" = "$heap" ] && continue
    for si in alloc_objects alloc_space inuse_objects inuse_space; do
      b="$(basename "$f") -divide_by=$F -sample_index=$si"
      from=duration
      check "$b -top" -divide_by="$F" -sample_index=$si -top "$f" -- top "$f" --divide-by "$F" --value $si
      check "$b -tree -nodecount=10" -divide_by="$F" -sample_index=$si -tree -nodecount=10 "$f" -- tree "$f" --divide-by "$F" --value $si --node-count 10
      check "$b -top -nodefraction" -divide_by="$F" -sample_index=$si -top -nodefraction=0.05 "$f" -- top "$f" --divide-by "$F" --value $si --node-fraction 0.05
      dot "$F" "$f" -sample_index=$si -- --value $si
    done
  done
  # a unit asked (-unit: no choice made), filters and their shares, -drop_negative
  from=showing
  check "-divide_by=$F -unit=ms -top" -divide_by="$F" -unit=ms -top "$small" -- top "$small" --divide-by "$F" --unit ms
  check "-divide_by=$F -drop_negative -peek" -divide_by="$F" -drop_negative -peek . "$delta" -- peek "$delta" . --divide-by "$F" --drop-negative
  check "-divide_by=$F -drop_negative -tree" -divide_by="$F" -drop_negative -tree "$delta" -- tree "$delta" --divide-by "$F" --drop-negative
  if ! light "$F"; then # and with -mean: the means, divided
    check "-divide_by=$F -unit=kB -tree" -divide_by="$F" -unit=kB -tree "$heap" -- tree "$heap" --divide-by "$F" --unit kB
    check "-divide_by=$F -unit=B -peek" -divide_by="$F" -unit=B -peek grpc "$heap" -- peek "$heap" grpc --divide-by "$F" --unit B
    check "-divide_by=$F -focus -relative -top" -divide_by="$F" -focus=runtime -relative_percentages -top "$cpu" -- top "$cpu" --divide-by "$F" --focus runtime --relative-percentages
    check "-divide_by=$F -hide -tree" -divide_by="$F" -hide=runtime -tree "$heap" -- tree "$heap" --divide-by "$F" --hide runtime
    check "-divide_by=$F -mean -peek" -divide_by="$F" -mean -peek grpc "$heap" -- peek "$heap" grpc --divide-by "$F" --mean
    check "-divide_by=$F -mean -tree" -divide_by="$F" -mean -tree "$heap" -- tree "$heap" --divide-by "$F" --mean
    dot "$F" "$heap" -mean -- --mean
  fi
  dot "$F" "$delta" -drop_negative -- --drop-negative
  from=total
  check "-divide_by=$F -drop_negative -list" -divide_by="$F" -drop_negative -list compress "$delta" -- list "$delta" compress --divide-by "$F" --drop-negative
  check "-divide_by=$F -unit=us -list" -divide_by="$F" -unit=us -list 'main\.' "$small" -- list "$small" 'main\.' --divide-by "$F" --unit us
  dot "$F" "$small" -unit=us -- --unit us
  # callgrind, byte for byte (the delta profile's opposite edges are in
  # pprof's map order: left out, t_callgrind.sh says why)
  for f in "$cpu" "$small" "$heap" "$labels"; do
    light "$F" && { [ "$f" = "$cpu" ] || [ "$f" = "$heap" ]; } && continue
    from=raw check "$(basename "$f") -callgrind -divide_by=$F" -callgrind -divide_by="$F" "$f" -- graph "$f" --format callgrind --divide-by "$F"
  done
done
# a divisor so small that the numbers pass int64: Go's int64() gives
# MinInt64, which measurement.Scale leaves in the family's default unit
for F in 1e-20 1e-320; do
  for f in "$small" "$heap" "$delta"; do
    b="$(basename "$f") -divide_by=$F"
    from=showing
    check "$b -top" -divide_by="$F" -top "$f" -- top "$f" --divide-by "$F"
    check "$b -tree" -divide_by="$F" -tree "$f" -- tree "$f" --divide-by "$F"
    from=traces
    check "$b -traces" -divide_by="$F" -traces "$f" -- traces "$f" --divide-by "$F"
    dot "$F" "$f" --
  done
done
# unpack --to pprof --divide-by F is -proto -divide_by=F (printProto:
# every value of every sample of the merged profile int64(v x 1/F)): both
# written profiles read back by go tool pprof -raw, their samples compared
# (go's -proto views asked in the sessions, planned here; read back after)
PROTO=()
mkdir -p "$tmp/gp"
for F in 3 0.5 7 1e-20; do
  for f in "${files[@]}" "$D/dotnet-6types-labels-UNCOMPRESSED.pb" "$D/java-cpu-async-profiler.pb.gz" "$D/cpp-cpu-unsymbolized-mappings.pb.gz"; do
    [ -f "$f" ] || continue
    case $F in 0.5 | 7) [ "$f" = "$cpu" ] || [ "$f" = "$heap" ] && continue ;; esac # (3 and 1e-20 read them)
    for flt in "" runtime; do
      g=() p=()
      [ -n "$flt" ] && g=(-focus="$flt") p=(--focus "$flt")
      k=${#PROTO[@]}
      ps_plan "$tmp/gp/$k.go.pb.gz" -proto -divide_by="$F" "${g[@]}" "$f"
      "$PCOL" unpack "$f" --to pprof --divide-by "$F" "${p[@]}" -o "$tmp/gp/$k.pc.pb.gz" 2>"$tmp/gp/$k.err"
      PROTO+=("$(basename "$f") -proto -divide_by=$F ${g[*]}")
    done
  done
done
judge
while IFS=$'\t' read -r g p what; do
  # the legend's Duration line, which dot_compare.py does not read
  grep -o 'Duration: [^\\]*' "$g" >"$tmp/go" 2>/dev/null
  grep -o 'Duration: [^\\]*' "$p" >"$tmp/pc"
  : >"$tmp/err"
  cmp -s "$tmp/go" "$tmp/pc" || bad "dot Duration line $what"
done <"$tmp/dots"
python3 "$REPO/tests/interop/dot_compare.py" --list "$tmp/dots" || fail=$((fail + 1))

for k in "${!PROTO[@]}"; do
  n=$((n + 1))
  for x in go pc; do
    go tool pprof -symbolize=none -raw "$tmp/gp/$k.$x.pb.gz" 2>/dev/null | sed -n '/^Samples:/,/^Locations/p' >"$tmp/$x"
  done
  cp "$tmp/gp/$k.err" "$tmp/err"
  [ -s "$tmp/go" ] && cmp -s "$tmp/go" "$tmp/pc" || bad "${PROTO[k]}"
done
# pcol's own surfaces, against pcol top --divide-by: flame's total (its
# subtitle and its root frame) in the unit it chose; diff --absolute, each
# new and base cell and total the top of that side, each change
# int64((new - base) x 1/F) of the undivided diff's
for F in 3 7 2.5; do
  for f in "$cpu" "$small" "$heap"; do # (not delta: a flame's total is the signed sum, top's sum |v|)
    n=$((n + 1))
    "$PCOL" flame "$f" --divide-by "$F" -o "$tmp/f.svg" 2>"$tmp/err"
    tot=$(sed -n 's/.*), total \([^<;]*\).*/\1/p' "$tmp/f.svg" | head -1)
    root=$(sed -n 's/.*<title>⁨all⁩ (\([^,]*\),.*/\1/p' "$tmp/f.svg" | head -1)
    u=$(printf '%s' "$tot" | sed 's/^-\{0,1\}[0-9.]*//')
    "$PCOL" top "$f" --divide-by "$F" --unit "${u:-raw}" | sed -n 's/^Showing nodes accounting for .* of \(.*\) total$/\1/p' >"$tmp/go"
    printf '%s\n' "$tot" >"$tmp/pc"
    [ -n "$tot" ] && [ "$root" = "$tot" ] && cmp -s "$tmp/go" "$tmp/pc" || bad "flame $(basename "$f") --divide-by $F: total '$tot', root '$root'"
  done
  for pair in "$cpu $small cpu" "$delta $heap inuse_space" "$heap $delta alloc_space"; do
    set -- $pair
    n=$((n + 1))
    for s in "$1" "$2"; do
      "$PCOL" top "$s" --value "$3" --divide-by "$F" --unit raw --node-fraction 0 >"$tmp/top.$(basename "$s")" 2>>"$tmp/err"
    done
    "$PCOL" diff "$1" "$2" --value "$3" --absolute --unit raw --node-fraction 0 >"$tmp/raw" 2>"$tmp/err"
    "$PCOL" diff "$1" "$2" --value "$3" --absolute --unit raw --node-fraction 0 --divide-by "$F" >"$tmp/div" 2>>"$tmp/err"
    python3 - "$F" "$tmp/top.$(basename "$1")" "$tmp/top.$(basename "$2")" "$tmp/raw" "$tmp/div" >"$tmp/pc" <<'PY' || bad "diff $(basename "$1") $(basename "$2") --divide-by $F"
import sys, re
F = float(sys.argv[1]); r = 1 / F
def plain(name): # diff marks a function inline on one side only "(partial-inline)"
    return re.sub(r" \((inline|partial-inline)\)$", "", name)
def top(p):
    rows, total = {}, None
    for l in open(p):
        m = re.match(r"Showing nodes accounting for .* of (-?\d+)[A-Za-z]* total$", l)
        if m: total = int(m.group(1))
        m = re.match(r" *(-?\d+)[A-Za-z]* +\S+ +\S+ +(-?\d+)[A-Za-z]* +\S+  (.*)$", l)
        if m: rows[plain(m.group(3))] = (int(m.group(1)), int(m.group(2)))
    return rows, total
def diff(p):
    rows, tot = {}, []
    for l in open(p):
        m = re.match(r"(Base|New): .* \(total (-?\d+)[A-Za-z]*\)$", l)
        if m: tot.append(int(m.group(2)))
        m = re.match(r" *(-?\d+)[A-Za-z]* +(-?\d+)[A-Za-z]* +([-+]?\d+)[A-Za-z]* +(-?\d+)[A-Za-z]* +(-?\d+)[A-Za-z]* +([-+]?\d+)[A-Za-z]*  (.*)$", l)
        if m: rows[plain(m.group(7))] = [int(x) for x in m.groups()[:6]]
    return rows, tot
(tb, totb), (tn, totn) = top(sys.argv[2]), top(sys.argv[3])
raw, _ = diff(sys.argv[4]); div, dt = diff(sys.argv[5])
bad = []
if dt != [totb, totn]: bad.append("totals %s, top's %s" % (dt, [totb, totn]))
if not div or set(div) != set(raw): bad.append("rows: %d divided, %d undivided" % (len(div), len(raw)))
for name, c in div.items():
    b, nw = tb.get(name, (0, 0)), tn.get(name, (0, 0))
    want = [b[0], nw[0], int((raw[name][1] - raw[name][0]) * r), b[1], nw[1], int((raw[name][4] - raw[name][3]) * r)]
    if c != want: bad.append("%s: %s, want %s" % (name, c, want))
print("\n".join(bad[:5]))
sys.exit(1 if bad else 0)
PY
  done
done

# refusals: exit 2 and a message naming the option
refused() { # refused WHAT PCOL-ARGS
  local what=$1
  shift
  n=$((n + 1))
  "$PCOL" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc != 2 ] || ! grep -q -- '--divide-by' "$tmp/err" || [ -s "$tmp/out" ]; then
    echo "t_value_opts: FAIL: $what: exit $rc, stderr: $(head -c 300 "$tmp/err")"
    fail=$((fail + 1))
  fi
}
go tool pprof -symbolize=none -divide_by=0 -top "$small" >/dev/null 2>"$tmp/err"
grep -q 'zero divisor specified' "$tmp/err" || { echo "t_value_opts: FAIL: go no longer refuses -divide_by=0"; fail=$((fail + 1)); }
for v in top tree traces; do
  refused "$v --divide-by 0" "$v" "$small" --divide-by 0
  refused "$v --divide-by -2" "$v" "$small" --divide-by -2
  refused "$v --divide-by x" "$v" "$small" --divide-by x
  refused "$v --divide-by 3 --format json" "$v" "$small" --divide-by 3 --format json
done
refused "peek --divide-by 0.0" peek "$small" main --divide-by 0.0
refused "list --divide-by -0" list "$small" main --divide-by -0
refused "graph --divide-by 0" graph "$small" --divide-by 0
refused "graph --divide-by inf" graph "$small" --divide-by inf
refused "graph --divide-by 2 --format tsv" graph "$small" --divide-by 2 --format tsv
refused "callgrind --divide-by 1e-400" graph "$small" --format callgrind --divide-by 1e-400
refused "unpack --divide-by 0" unpack "$small" --to pprof --divide-by 0 -o "$tmp/x.pb.gz"
refused "unpack --to collapsed --divide-by 3" unpack "$small" --to collapsed --divide-by 3 -o "$tmp/x.txt"
refused "flame --divide-by -1" flame "$small" --divide-by -1 -o "$tmp/x.svg"
refused "diff --divide-by 3 --format csv" diff "$small" "$small" --divide-by 3 --format csv

divided=$((n - jn - before + jd)) # (jn checks judged, jd of them of --divide-by)
echo "t_value_opts: $n comparisons with go tool pprof ($pairs pairs of profiles, $divided of --divide-by; and $jr views go refused, $je it left empty, judged apart), $fail failed"
[ "$n" -ge 500 ] && [ "$pairs" -ge 4 ] && [ "$divided" -ge 450 ] && [ "$fail" = 0 ]
