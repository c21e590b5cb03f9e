#!/usr/bin/env bash
# The JSON-document importers stream their input (issue 29): a ~200 MB V8
# .cpuprofile, speedscope file, Firefox profile (tables after the samples,
# most bytes markers) and OTLP/JSON lines file (made here by
# tests/support/gen_big_json.py) pack under `prlimit --as` of 128 MiB, far
# below the documents' size (reading them whole through jansson took 4.2 GB,
# 2.1 GB, 1.1 GB and 210 MB; streamed: 16, 74, 38 and 4.4 MB), and give the sample
# counts and weights the generator wrote; and ~215 MB of perf script text
# (tests/support/gen_perf_script.py) the periods it summed.  Plain build only (sanitizers
# reserve terabytes of address space): `make test-bounds`.  Takes ~60 s.
set -u
PCOL=${PCOL:-build/bin/pcol}
fail() { echo "t_stream_json: FAIL: $*" >&2; exit 1; }
command -v prlimit >/dev/null || { echo "t_stream_json: prlimit not installed: skipped"; exit 0; }
command -v python3 >/dev/null || { echo "t_stream_json: python3 not installed: skipped"; exit 0; }
if grep -qa __asan_init "$PCOL"; then echo "t_stream_json: ASan build: skipped"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cap=$((128 << 20))
for kind in ${KINDS-v8 speedscope firefox otlp}; do
  [ "$kind" = perf ] && continue
  f=$tmp/big.$kind
  read -r n total < <(python3 tests/support/gen_big_json.py $kind "$f" 200) || fail "$kind: generator"
  size=$(stat -c %s "$f")
  [ "$size" -gt $((cap + (cap >> 1))) ] || fail "$kind: the document ($size bytes) is not far above the cap"
  prlimit --as=$cap -- "$PCOL" pack --from $kind "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
    fail "$kind: pack of a $size-byte document under a $cap-byte address space: $(head -c 300 "$tmp/err")"
  # V8: one per sample; speedscope's unit "none": the weights are the counts;
  # Firefox: weightType samples; OTLP: the one value type, samples/count
  got=$("$PCOL" fold "$tmp/o.pcol" --value samples | awk '{s+=$NF} END{print s+0}')
  [ "$got" = "$total" ] || fail "$kind: $got samples, the generator wrote $total"
  rows=$("$PCOL" info "$tmp/o.pcol" | awk '$1 == "samples_stored" {print $2; exit}')
  [ "$rows" = "$n" ] || fail "$kind: $rows sample rows, the generator wrote $n"
  echo "t_stream_json: $kind: $size bytes packed under --as=$cap, $n samples" >&2
  rm -f "$f" "$tmp/o.pcol"
done
# perf script text is streamed a line at a time: ~215 MB (600k samples, one
# event) pack under the same cap and give the periods the generator summed
# (a 1 GB file, 2.95M samples, reached 95 MB RSS at 767 MB read and ran out of
# the 128 MiB address space: memory follows the samples kept, ~45 bytes each)
if [ -z "${KINDS:-}" ] || [[ " $KINDS " == *" perf "* ]]; then
  f=$tmp/big.perf
  python3 tests/support/gen_perf_script.py "$f" "$tmp/truth" --samples 600000 --events 1 || fail "perf: generator"
  size=$(stat -c %s "$f")
  [ "$size" -gt $((cap + (cap >> 1))) ] || fail "perf: the text ($size bytes) is not far above the cap"
  prlimit --as=$cap -- "$PCOL" pack --from perf "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
    fail "perf: pack of $size bytes under a $cap-byte address space: $(head -c 300 "$tmp/err")"
  got=$("$PCOL" fold "$tmp/o.pcol" | awk '{s+=$NF} END{printf "%d", s}')
  want=$(awk '{s+=$NF} END{printf "%d", s}' "$tmp/truth")
  [ "$got" = "$want" ] || fail "perf: periods sum to $got, the generator wrote $want"
  echo "t_stream_json: perf: $size bytes packed under --as=$cap" >&2
fi
echo "t_stream_json: ok"
