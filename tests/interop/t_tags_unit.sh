#!/usr/bin/env bash
# `pcol tags --unit U` = `go tool pprof -tags -unit=U`: the amounts in U and
# numeric labels named in it (measurement.ScaledLabel), on labelled
# profiles of the test data and a generated one with numbers in bytes and
# nanoseconds (pprofgen.py numunits), for each value type and each unit of
# its family (a unit of another family pcol refuses, where pprof prints
# the value unscaled: tests/cli/t_values.sh's rule for every view).
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
command -v go >/dev/null || { echo "t_tags_unit: go not installed: skipped"; exit 77; }
data=$(cd "$REPO/../shared/testdata" 2>/dev/null && pwd) || { echo "t_tags_unit: no test data: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$REPO/tests/support/pprofgen.py" numunits "$tmp/nu.pb" >/dev/null || { echo "t_tags_unit: FAIL: pprofgen.py"; exit 1; }
n=0 fail=0
for f in "$tmp/nu.pb" "$data"/pprof/go-cpu-string-labels.pb.gz "$data"/pprof/go-heap-allocs-inline.pb.gz \
  "$data"/ext/pprof/go-cpu-labels-guide.pb.gz "$data"/pprof/dotnet-6types-labels-UNCOMPRESSED.pb; do
  [ -f "$f" ] || continue
  for si in $("$PCOL" info "$f" | sed -n 's/^  values: *//p' | sed 's/ (default.*//; s/, /\n/g'); do
    case ${si#*/} in
      bytes) units="B kB MB GB raw" ;;
      nanoseconds) units="ns us ms s raw" ;;
      *) units="" ;;
    esac
    for u in "" $units; do
      go tool pprof -symbolize=none -tags -sample_index="${si%/*}" ${u:+-unit=$u} "$f" >"$tmp/go" 2>/dev/null
      "$PCOL" tags "$f" --value "${si%/*}" ${u:+--unit $u} >"$tmp/pc" 2>"$tmp/err" || { cat "$tmp/err"; fail=$((fail + 1)); continue; }
      n=$((n + 1))
      cmp -s "$tmp/go" "$tmp/pc" || { echo "t_tags_unit: FAIL: $(basename "$f") ${si%/*} ${u:-(no unit)}"; diff "$tmp/go" "$tmp/pc" | head -6; fail=$((fail + 1)); }
    done
  done
done

# A number 0 without a unit (OTLP's int attributes: the eBPF profiler's
# cpu.logical_number) is no label to go tool pprof as a pprof file holds it
# (postDecode drops num 0 without num_unit): `pcol unpack --to pprof` writes
# it with its key's unit, so go tool pprof's -tags and -tagfocus of the
# export are pcol's of the input, -raw has each such sample, and pcol's
# import of the export reads what go reads (pcol tags as of the input).
# otlp_zero_labels.py: keys of no unit (cpu, request: bytes by its name) and
# of a unit on other values (mem); --empty adds a string label "", which no
# pprof file can carry: the export warns, naming how many.
python3 "$REPO/tests/support/otlp_zero_labels.py" "$tmp/z.json" || { echo "t_tags_unit: FAIL: otlp_zero_labels.py"; exit 1; }
python3 "$REPO/tests/support/otlp_zero_labels.py" "$tmp/ze.json" --empty || { echo "t_tags_unit: FAIL: otlp_zero_labels.py"; exit 1; }
zcheck() { # zcheck WHAT EXPECTED ACTUAL
  n=$((n + 1))
  [ "$2" = "$3" ] || { echo "t_tags_unit: FAIL: $1: want [$2], got [$3]"; fail=$((fail + 1)); }
}
for x in "$tmp/z.json|samples/count|cpu=0 request=0B mem=0B mem=:1kb|cpu request mem" \
  "$data/ext/pprof/ODD-otlp-ebpf-profile.pb.bin|samples off_cpu/nanoseconds|cpu.logical_number=0 cpu.logical_number=1|"; do
  # (the eBPF message's 77 off-CPU Profiles have no samples/count: the
  # export's samples column is every source's count, THE count rule, which
  # pcol names `samples`; its stored samples/count is the 5 others' alone)
  IFS='|' read -r f sis focus rawkeys <<<"$x"
  [ -f "$f" ] || continue
  b=$(basename "$f")
  "$PCOL" unpack "$f" --to pprof -o "$tmp/z.pb.gz" 2>"$tmp/err" || { cat "$tmp/err"; fail=$((fail + 1)); continue; }
  zcheck "$b: unpack's warnings of lost labels" "" "$(grep -c 'lost to go tool pprof' "$tmp/err" | grep -v '^0$')"
  for si in $sis; do
    go tool pprof -symbolize=none -tags -sample_index="${si%/*}" "$tmp/z.pb.gz" >"$tmp/go" 2>/dev/null
    "$PCOL" tags "$f" --value "$si" >"$tmp/pc" 2>/dev/null
    n=$((n + 1))
    cmp -s "$tmp/go" "$tmp/pc" || { echo "t_tags_unit: FAIL: $b: go tool pprof -tags of its pprof export (<) is not pcol tags of it (>), $si:"; diff "$tmp/go" "$tmp/pc" | head -8; fail=$((fail + 1)); }
    "$PCOL" tags "$tmp/z.pb.gz" --value "$si" >"$tmp/pc2" 2>/dev/null
    n=$((n + 1))
    cmp -s "$tmp/pc2" "$tmp/pc" || { echo "t_tags_unit: FAIL: $b: pcol tags of its pprof export (<) is not of it (>), $si:"; diff "$tmp/pc2" "$tmp/pc" | head -8; fail=$((fail + 1)); }
    for t in $focus; do
      zcheck "$b: go tool pprof -tagfocus=$t -sample_index=$si of the export vs pcol top --tag $t" \
        "$("$PCOL" top "$f" --value "$si" --tag "$t" 2>/dev/null | grep '^Showing nodes')" \
        "$(go tool pprof -symbolize=none -top -sample_index="${si%/*}" -tagfocus="$t" "$tmp/z.pb.gz" 2>/dev/null | grep '^Showing nodes')"
    done
  done
  # -raw: a sample per pcol sample (no two of z.json's are one to pprof's merge),
  # "KEY:[0 UNIT ...]" on each that has KEY 0
  go tool pprof -symbolize=none -raw "$tmp/z.pb.gz" >"$tmp/raw" 2>/dev/null
  "$PCOL" cat "$f" --table sample_labels >"$tmp/lab" 2>/dev/null
  for k in $rawkeys; do
    zcheck "$b: samples of $k 0 in go tool pprof -raw of the export vs pcol cat --table sample_labels" \
      "$(awk -F'\t' -v k="$k" '$2 == k && $3 == "NA" && $4 == "0" { s[$1] = 1 } END { print length(s) }' "$tmp/lab")" \
      "$(grep -cE "(^| )$k:\[0 " "$tmp/raw")"
  done
done
"$PCOL" unpack "$tmp/ze.json" --to pprof -o "$tmp/ze.pb.gz" 2>"$tmp/err"
zcheck "unpack of a string label \"\": its warning" \
  "pcol unpack: warning: $tmp/ze.json: 1 labels (in 1 samples) are lost to go tool pprof: a string label \"\" (or a number 0 of the key \"\") can only be written as string index 0, which pprof reads as no label" \
  "$(cat "$tmp/err")"
echo "t_tags_unit: $n comparisons with go tool pprof -tags, $fail failed"
[ "$n" -ge 20 ] && [ "$fail" = 0 ]
