#!/usr/bin/env bash
# pb_writes_same.sh OLD_PCOL NEW_PCOL — every protobuf pcol writes by hand
# (pb_wire.h's writers: the OTLP, Perfetto and pprof exports, and the OTLP
# importer's packing of nested AnyValues, kept as meta and written back by
# the OTLP export) from both builds, byte for byte: a quarter of
# ../shared/testdata, the fixtures and the fuzz seeds of the formats pcol
# reads, each unpacked --to otlp, perfetto and pprof, the OTLP copy read back
# and written again (otlp, perfetto, `pcol info`), with the messages and exit
# statuses.  For a change that must not change the bytes (the writers moved
# into pb_wire.h were checked so: 141 inputs, 548 non-empty outputs).
# Prints each file that differs and a count; exit 1 when any.
set -u
[ $# = 2 ] || { echo "usage: $0 OLD_PCOL NEW_PCOL" >&2; exit 2; }
REPO=$(cd "$(dirname "$0")/.." && pwd)
TD=${PCOL_TESTDATA:-$REPO/../shared/testdata}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
outputs() ( # PCOL OUTDIR
PCOL=$1
mkdir -p "$2" && cd "$2" || exit 1
OUT=. # (relative: the messages name the files alike in both runs)
n=0
one() { # IN NAME
  local in=$1 nm=$2
  "$PCOL" unpack "$in" --to otlp -o "$OUT/$nm.otlp" 2>"$OUT/$nm.otlp.err" || echo "rc=$?" >>"$OUT/$nm.otlp.err"
  "$PCOL" unpack "$in" --to perfetto -o "$OUT/$nm.pftrace" 2>"$OUT/$nm.pf.err" || echo "rc=$?" >>"$OUT/$nm.pf.err"
  "$PCOL" unpack "$in" --to pprof -o "$OUT/$nm.pb.gz" 2>"$OUT/$nm.pprof.err" || echo "rc=$?" >>"$OUT/$nm.pprof.err"
  if [ -s "$OUT/$nm.otlp" ]; then # the round trip: OTLP in, OTLP and Perfetto out
    "$PCOL" unpack "$OUT/$nm.otlp" --to otlp -o "$OUT/$nm.rt.otlp" 2>"$OUT/$nm.rt.err" || echo "rc=$?" >>"$OUT/$nm.rt.err"
    "$PCOL" unpack "$OUT/$nm.otlp" --to perfetto -o "$OUT/$nm.rt.pftrace" 2>>"$OUT/$nm.rt.err" || echo "rc=$?" >>"$OUT/$nm.rt.err"
    "$PCOL" info "$OUT/$nm.otlp" >"$OUT/$nm.rt.info" 2>&1
  fi
  n=$((n + 1))
}
while IFS= read -r f; do
  one "$f" "$(echo "${f#$REPO/}" | tr '/' '_')"
done < <( { find "$TD" -type f ! -name '*.md' | sort | awk 'NR % 4 == 1';
            find "$REPO/tests/fixtures" "$REPO/tests/fuzz-regress/otlp" "$REPO/tests/fuzz-regress/perfetto" \
                 "$REPO/tests/fuzz-regress/jfr" "$REPO/tests/fuzz-regress/v8" "$REPO/tests/fuzz-regress/chrome" \
                 "$REPO/tests/fuzz-regress/firefox" "$REPO/tests/fuzz-regress/speedscope" -type f 2>/dev/null |
              grep -v -e '\.py$' -e '\.cmd$' -e '\.sh$' -e '\.textproto$' | sort; } )
# nested AnyValues (array, kvlist, every kind of value): the importer packs them
cat >"$OUT/nested.json" <<'JSON'
{"resourceProfiles": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "svc"}}, {"key": "arr", "value": {"arrayValue": {"values": [{"stringValue": "a"}, {"boolValue": true}, {"boolValue": false}, {"intValue": "-5"}, {"intValue": "300"}, {"doubleValue": 1.5}, {"bytesValue": "AAEC"}, {"arrayValue": {"values": [{"stringValue": "deep"}]}}, {"kvlistValue": {"values": [{"key": "k", "value": {"intValue": "7"}}]}}]}}}, {"key": "kv", "value": {"kvlistValue": {"values": [{"key": "x", "value": {"stringValue": "y"}}, {"key": "e"}, {"key": "d", "value": {"doubleValue": -0.25}}]}}}]}, "scopeProfiles": [{"scope": {"name": "sc", "attributes": [{"key": "sarr", "value": {"arrayValue": {"values": [{"stringValue": "q"}]}}}]}, "profiles": [{"sampleType": {"typeStrindex": 1, "unitStrindex": 2}, "samples": [{"stackIndex": 1, "values": ["3"]}], "timeUnixNano": "1000"}]}]}], "dictionary": {"stringTable": ["", "cpu", "nanoseconds", "main"], "functionTable": [{}, {"nameStrindex": 3}], "locationTable": [{}, {"lines": [{"functionIndex": 1}]}], "stackTable": [{}, {"locationIndices": [1]}], "mappingTable": [{}], "attributeTable": [{}], "linkTable": [{}]}}
JSON
one "$OUT/nested.json" nested
echo "$n"
)
old=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") new=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
n=$(outputs "$old" "$t/a") && outputs "$new" "$t/b" >/dev/null || exit 2
d=$(diff -rq "$t/a" "$t/b" | wc -l)
diff -rq "$t/a" "$t/b" | sed "s|$t/||g"
echo "pb_writes_same: $n inputs, $(find "$t/a" -size +0 \( -name '*.otlp' -o -name '*.pftrace' -o -name '*.pb.gz' \) | wc -l) protobuf outputs, $d differ"
[ "$d" = 0 ]
