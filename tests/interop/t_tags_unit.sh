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
echo "t_tags_unit: $n comparisons with go tool pprof -tags, $fail failed"
[ "$n" -ge 20 ] && [ "$fail" = 0 ]
