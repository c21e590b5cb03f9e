#!/usr/bin/env bash
# The DuckDB extension (issue 46, doc/duckdb.md) judged by DuckDB itself: the
# npm package @duckdb/node-api (it bundles the engine) loads
# pcol.duckdb_extension (`make duckdb`) with allow_unsigned_extensions, and
# tests/interop/duckdb_judge.mjs checks on files of the test data:
#  - every view of read_pcol() equals `pcol cat --table all --format json`,
#    row for row and cell for cell (pprof, Rprof, Perun; packed files and
#    inputs converted in memory; invalid UTF-8 and NUL in strings; u64
#    addresses; f64 models; labels; format 1.4 zstd blocks), also with a source and a time range,
#    and a column read alone (projection) equals it in the whole view;
#  - flat and cum per function in SQL over the views (sample_values or
#    weight, sample_locations, location_lines, functions) equal `pcol top
#    --format json`: default value, --value, a time range, a source, and a
#    glob over a directory (union with a `file` column) equal to `pcol top DIR`;
#  - pcol_top() equals `pcol top`, rows and order, type and unit (also where
#    the inputs' defaults differ: samples/count);
#  - pcol_frames()' GROUP BY name equals `pcol top --node-fraction 0` (also
#    over files whose defaults differ: the union's value, samples/count);
#  - damaged, truncated, non-profile and missing files are an error naming
#    the file, and DuckDB answers after them;
#  - all of it again with the extension built on make test's sanitizer build
#    (make duckdb-san) loaded into node with ASan/UBSan preloaded, and the
#    scan's threads under ThreadSanitizer (make duckdb-tsan) on a larger file.
# Env: PCOL, BUILD, PCOL_TESTDATA.  Exit 0 pass, 1 fail, 77 skip (no node/npm,
# no registry).  CPU: ~10 s (small files, and a time range of a 70,000-sample file in zstd blocks).
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
TD=${PCOL_TESTDATA:-../shared/testdata}
NODE_API_VERSION=1.4.4-r.1
fail() { echo "t_duckdb: $*" >&2; exit 1; }
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIP: node/npm not installed (apt-get install nodejs npm to run the DuckDB tests)"
  exit 77
fi
[ -d "$TD" ] || { echo "SKIP: no test data at $TD"; exit 77; }
EXT=$BUILD/duckdb/pcol.duckdb_extension
if [ ! -f "$BUILD/duckdb/include/duckdb_extension.h" ]; then
  make --no-print-directory -s BUILD="$BUILD" "$BUILD/duckdb/include/duckdb_extension.h" >/dev/null 2>&1 || {
    echo "SKIP: could not npm pack duckdb for its header (no registry access?)"; exit 77; }
fi
make --no-print-directory -s BUILD="$BUILD" duckdb >/dev/null || fail "make duckdb failed"
API=$BUILD/duckdb/node
if [ ! -f "$API/node_modules/@duckdb/node-api/package.json" ]; then
  mkdir -p "$API"
  (cd "$API" && timeout 300 npm install --no-audit --no-fund --loglevel=error \
     "@duckdb/node-api@$NODE_API_VERSION" >/dev/null 2>&1) || {
    echo "SKIP: could not npm install @duckdb/node-api@$NODE_API_VERSION (no registry access?)"; exit 77; }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
EXT=$(abs "$EXT")
API=$(cd "$API" && pwd)
mkdir "$tmp/dir"
# packed files (read in place) and two raw inputs (converted in memory)
pack() { $PCOL pack "$TD/$1" -o "$tmp/$2" 2>/dev/null || fail "pcol pack $1"; }
pack pprof/go-cpu-string-labels.pb.gz labels.pcol
pack rprof/r-prof-profile__memory.out rprof.pcol
pack perun/complexity-models.perf models.pcol
pack pprof/cpp-cpu-unsymbolized-mappings.pb.gz unsym.pcol
pack pprof/dotnet-6types-labels-UNCOMPRESSED.pb dotnet.pcol # 2,814 samples: chunks read by 2 threads
pack pprof/go-cpu-inline-small.pb.gz dir/a.pcol
pack pprof/java-cpu-async-profiler.pb.gz dir/b.pcol
$PCOL merge "$tmp/dir/a.pcol" "$tmp/labels.pcol" -o "$tmp/two.pcol" 2>/dev/null || fail "pcol merge"
# format 1.4: a 70,000-sample recording whose samples columns are in zstd
# blocks (spec.md §4.2), read through a time range (which inflates only the
# blocks it needs)
python3 "$(dirname "$0")/../support/tachyongen.py" rich "$tmp/long.bin" --samples 70000 --seed 5 >/dev/null ||
  fail "tachyongen.py"
$PCOL pack "$tmp/long.bin" --compress zstd -o "$tmp/blocks.pcol" 2>/dev/null || fail "pcol pack --compress zstd"
$PCOL info "$tmp/blocks.pcol" | grep -q zblk || fail "no zstd blocks in $tmp/blocks.pcol"
inline=$(abs "$TD/pprof/go-cpu-inline-small.pb.gz")
utf8=$(abs "$TD/pprof/edge-invalid-utf8-nul-strings.pb.gz")
labelsf=$(abs "$TD/pprof/go-cpu-string-labels.pb.gz")

plan="{\"ext\": \"$EXT\", \"views\": ["
sep=
view() { # INPUT NAME [CAT OPTIONS] [JSON ARGS of the sample views] [JSON ARGS of all]
  $PCOL cat "$1" --table all --format json ${3:-} >"$tmp/$2.cat.json" || fail "pcol cat $1 ${3:-}"
  plan="$plan$sep{\"input\": \"$1\", \"cat\": \"$tmp/$2.cat.json\", \"args\": {${4:-}}, \"all\": {${5:-}}}"
  sep=", "
}
view "$inline" inline
view "$utf8" utf8
view "$tmp/labels.pcol" labels
view "$tmp/rprof.pcol" rprof
view "$tmp/models.pcol" models
view "$tmp/unsym.pcol" unsym
view "$tmp/dotnet.pcol" dotnet
view "$tmp/labels.pcol" labels-nommap "" "" '"no_mmap": true'
# DUCKDB_ALL=1 (not in make test: ~2.5 min of CPU, both runs): every view of every file of
# the test data pcol reads, as converted in memory
if [ "${DUCKDB_ALL:-0}" = 1 ]; then
  i=0
  while IFS= read -r f; do
    i=$((i + 1))
    $PCOL info "$f" >/dev/null 2>&1 || continue
    view "$(abs "$f")" "all$i"
  done < <(find "$TD" -type f ! -name '*.md' ! -name '*.txt' ! -name '*.json.expected' | sort)
fi
view "$tmp/rprof.pcol" rprof-range "--from 0.05 --to 0.15" '"from": 0.05, "to": 0.15'
view "$tmp/two.pcol" two-src2 "--source 2" '"source": 2'
view "$tmp/blocks.pcol" blocks-range "--from 20 --to 21" '"from": 20, "to": 21'
# wall-clock from/to (the CLI's --from/--to text, or a TIMESTAMPTZ) on a
# real file whose 82 sources' samples have wall-clock times (OTLP from an
# eBPF profiler): the sample views of the range, each source's own
otlp=$(abs "$TD/ext/pprof/ODD-otlp-ebpf-profile.pb.bin")
pack ext/pprof/ODD-otlp-ebpf-profile.pb.bin otlp.pcol
W0=2026-03-30T22:41:38Z W1=2026-03-30T22:41:40Z
E0=$(date -u -d "$W0" +%s) E1=$(date -u -d "$W1" +%s)
view "$tmp/otlp.pcol" otlp-wall "--from $W0 --to $W1" "\"from\": \"$W0\", \"to\": \"$W1\""
view "$tmp/otlp.pcol" otlp-epoch "--from @$E0 --to @$E1.5" "\"from\": \"@$E0\", \"to\": \"@$E1.5\""
view "$tmp/otlp.pcol" otlp-tstz "--from $W0 --to $W1" \
  "\"from\": {\"sql\": \"TIMESTAMPTZ '2026-03-30 22:41:38+00'\"}, \"to\": {\"sql\": \"TIMESTAMP '2026-03-30 22:41:40'\"}"
plan="$plan], \"tops\": ["
sep=
top() { # NAME INPUT MULTI [TOP OPTIONS] [JSON ARGS] [SAMPLES STORED]
  $PCOL top "$2" --format json $4 >"$tmp/$1.top.json" || fail "pcol top $2 $4"
  plan="$plan$sep{\"input\": $3, \"top\": \"$tmp/$1.top.json\", \"multi\": ${5:-0}, \"args\": {${6:-}}, \"samplesStored\": ${7:-0}}"
  sep=", "
}
top inline "$inline" "\"$inline\"" ""
top labels "$tmp/labels.pcol" "\"$tmp/labels.pcol\"" ""
top labels-samples "$tmp/labels.pcol" "\"$tmp/labels.pcol\"" "--value samples" 0 "" 1
top dotnet-alloc "$tmp/dotnet.pcol" "\"$tmp/dotnet.pcol\"" "--value alloc_size"
top rprof-range "$tmp/rprof.pcol" "\"$tmp/rprof.pcol\"" "--value samples --from 0.05 --to 0.15" 0 '"from": 0.05, "to": 0.15'
top blocks-range "$tmp/blocks.pcol" "\"$tmp/blocks.pcol\"" "--from 20 --to 21" 0 '"from": 20, "to": 21'
top two-src1 "$tmp/two.pcol" "\"$tmp/two.pcol\"" "--source 1" 0 '"source": 1'
top dir "$tmp/dir" "\"$tmp/dir/*.pcol\"" "" 1
top dir-as-dir "$tmp/dir" "\"$tmp/dir\"" "" 1
plan="$plan], \"pcol_top\": ["
sep=
ptop() { # NAME INPUT TOP OPTIONS JSON ARGS
  $PCOL top "$2" --format json ${3:-} >"$tmp/$1.ptop.json" 2>"$tmp/$1.ptop.err" || fail "pcol top $2 ${3:-}"
  plan="$plan$sep{\"input\": \"$2\", \"top\": \"$tmp/$1.ptop.json\", \"args\": {${4:-}}}"
  sep=", "
}
ptop inline "$inline" ""
ptop rprof-range "$tmp/rprof.pcol" "--value samples --from 0.05 --to 0.15" '"value": "samples", "from": 0.05, "to": 0.15'
ptop blocks-range "$tmp/blocks.pcol" "--from 20 --to 21" '"from": 20, "to": 21'
ptop dir "$tmp/dir" ""
# wall-clock from/to as pcol top --from/--to takes them: the range of a
# real file's 82 sources (890 of 5,321 samples), of its packed copy, of the
# two in a directory
ptop otlp-wall "$otlp" "--value samples --from $W0 --to $W1" "\"value\": \"samples\", \"from\": \"$W0\", \"to\": \"$W1\""
ptop otlp-wall-packed "$tmp/otlp.pcol" "--value samples --from @$E0 --to @$E1" "\"value\": \"samples\", \"from\": \"@$E0\", \"to\": \"@$E1\""
ptop otlp-wall-tstz "$tmp/otlp.pcol" "--value samples --from $W0 --to $W1" \
  "\"value\": \"samples\", \"from\": {\"sql\": \"TIMESTAMPTZ '2026-03-30 23:41:38+01'\"}, \"to\": {\"sql\": \"TIMESTAMP_NS '2026-03-30 22:41:40'\"}"
mkdir "$tmp/wall"
cp "$tmp/otlp.pcol" "$tmp/wall/1.pcol" && cp "$otlp" "$tmp/wall/2.pb.bin" && cp "$tmp/dir/a.pcol" "$tmp/wall/3.pcol" || fail "cp"
ptop otlp-wall-dir "$tmp/wall" "--value samples --from $W0 --to $W1" "\"value\": \"samples\", \"from\": \"$W0\", \"to\": \"$W1\""
grep -q '"total":890,' "$tmp/otlp-wall.ptop.json" || fail "pcol top of the OTLP file's range: not 890 samples: $(head -c 200 "$tmp/otlp-wall.ptop.json")"
# inputs whose default values differ: pcol top falls back to samples/count
# (and warns); pcol_top's type and unit columns say so
mkdir "$tmp/mixed"
cp "$TD/pprof/go-cpu-inline-small.pb.gz" "$TD/pprof/nodejs-wall.pb.gz" "$tmp/mixed/"
ptop mixed "$tmp/mixed" ""
grep -q '"type":"samples","unit":"count"' "$tmp/mixed.ptop.json" || fail "pcol top $tmp/mixed: not samples/count"
# ... and a Go CPU profile (cpu nanoseconds) beside a Tachyon one (samples)
mkdir "$tmp/mixed2"
cp "$TD/pprof/go-cpu-string-labels.pb.gz" tests/fixtures/tachyon/threads-wall-zstd.bin "$tmp/mixed2/" || fail "cp"
ptop mixed2 "$tmp/mixed2" ""
grep -q '"type":"samples","unit":"count"' "$tmp/mixed2.ptop.json" || fail "pcol top $tmp/mixed2: not samples/count"
# a wall-clock range over a directory answers as the merge of the files it
# reaches, whatever the format of the others (review 16 F1): a Go CPU
# profile of 2022-06-09 with a heap profile of 2022-07-28 and a JFR
# recording of 2023-11-14, as they are (far1) and packed (far2): the one
# file's cpu 8.73 s both, in pcol top and pcol_top
mkdir "$tmp/far1" "$tmp/far2"
cp "$TD/pprof/go-cpu-string-labels.pb.gz" "$TD/pprof/go-heap-allocs-inline.pb.gz" "$tmp/far1/" &&
  cp "$TD/pprof/go-cpu-string-labels.pb.gz" "$tmp/far2/" &&
  python3 "$(dirname "$0")/../support/gen_jfr.py" "$tmp/far1/j.jfr" --chunks 1 --samples 30 --period '*:10 ms' &&
  $PCOL pack "$TD/pprof/go-heap-allocs-inline.pb.gz" -o "$tmp/far2/h.pcol" && $PCOL pack "$tmp/far1/j.jfr" -o "$tmp/far2/j.pcol" ||
  fail "far: inputs"
F0=2022-06-09T18:22:00Z F1=2022-06-09T18:23:00Z
for d in far1 far2; do
  ptop $d "$tmp/$d" "--from $F0 --to $F1" "\"from\": \"$F0\", \"to\": \"$F1\""
  grep -q '"type":"cpu","unit":"nanoseconds","total":8730000000,' "$tmp/$d.ptop.json" ||
    fail "pcol top $tmp/$d of a wall-clock range: not the one file's cpu 8.73 s: $(head -c 200 "$tmp/$d.ptop.json")"
done
ptop labels "$labelsf" "--by label:function" '"by": "label:function"'
ptop inline-ff "$inline" "--by filefunction" '"by": "filefunction"'
plan="$plan], \"frames\": ["
sep=
# pcol_frames(): GROUP BY name over its rows (self for flat, first_on_stack
# for cum) equals pcol top --node-fraction 0, row for row
frames() { # NAME INPUT MULTI TOP OPTIONS JSON ARGS
  $PCOL top "$2" --format json --node-fraction 0 ${4:-} >"$tmp/$1.fr.json" || fail "pcol top $2 ${4:-}"
  plan="$plan$sep{\"input\": $3, \"top\": \"$tmp/$1.fr.json\", \"args\": {${5:-}}}"
  sep=", "
}
rec=$(abs "$TD/rprof/proftools__Rprof-rec.out")
perfj=$(abs "$TD/ext/collapsed/flamegraph__perf-java-stacks-01-collapsed-all.txt")
heapneg=$(abs "$TD/pprof/go-heap-delta-negative-values.pb.gz")
frames inline "$inline" "\"$inline\""
frames inline-samples "$inline" "\"$inline\"" "--value samples" '"value": "samples"'
frames inline-lines "$inline" "\"$inline\"" "--by line" '"by": "line"'
frames inline-ff "$inline" "\"$inline\"" "--by filefunction" '"by": "filefunction"'
frames unsym "$tmp/unsym.pcol" "\"$tmp/unsym.pcol\""
frames unsym-addr "$tmp/unsym.pcol" "\"$tmp/unsym.pcol\"" "--by address" '"by": "address"'
frames rec "$rec" "\"$rec\""
frames rec-range "$rec" "\"$rec\"" "--from 1 --to 2.5" '"from": 1, "to": 2.5'
frames rprof-range "$tmp/rprof.pcol" "\"$tmp/rprof.pcol\"" "--value samples --from 0.05 --to 0.15" '"value": "samples", "from": 0.05, "to": 0.15'
frames perf-java "$perfj" "\"$perfj\""
frames heap-neg "$heapneg" "\"$heapneg\"" "--value alloc_space" '"value": "alloc_space"'
frames dotnet-alloc "$tmp/dotnet.pcol" "\"$tmp/dotnet.pcol\"" "--value alloc_size" '"value": "alloc_size"'
frames two-src2 "$tmp/two.pcol" "\"$tmp/two.pcol\"" "--source 2" '"source": 2'
frames dir "$tmp/dir" "\"$tmp/dir/*.pcol\""
# files whose default values differ: pcol_frames adds up THE default of them
# all, as pcol_top and pcol top DIR (samples), not each file's own (which
# put nanoseconds and sample counts in one column: user review 13, F5)
frames mixed "$tmp/mixed" "\"$tmp/mixed\""
frames mixed2 "$tmp/mixed2" "\"$tmp/mixed2\""
frames mixed2-list "$tmp/mixed2" "[\"$tmp/mixed2/go-cpu-string-labels.pb.gz\", \"$tmp/mixed2/threads-wall-zstd.bin\"]"
# a value one file lacks: its samples count 0 (no rows), as in pcol top DIR --value (not an error)
frames mixed2-cpu "$tmp/mixed2" "\"$tmp/mixed2\"" "--value cpu" '"value": "cpu"'
frames mixed2-wall "$tmp/mixed2" "\"$tmp/mixed2\"" "--value wall" '"value": "wall"'
frames otlp-wall "$tmp/otlp.pcol" "\"$tmp/otlp.pcol\"" "--value samples --from $W0 --to $W1" "\"value\": \"samples\", \"from\": \"$W0\", \"to\": \"$W1\""

$PCOL top "$labelsf" --by label:function --format json >"$tmp/lab.json" || fail "pcol top --by label"
$PCOL diff "$inline" "$labelsf" --absolute --format json >"$tmp/diff.json" || fail "pcol diff"
rprof=$(abs "$TD/rprof/r-prof-profile__memory.out")
totals=
for b in 0 1 2 3 4 5; do
  t=$($PCOL top "$rprof" --value samples --from "$(printf 0.%03d $((b * 50)))" --to "$(printf 0.%03d $((b * 50 + 50)))" --format json |
      sed -n 's/.*"total":\([0-9-]*\).*/\1/p' | head -1)
  totals="$totals${totals:+, }${t:-0}"
done
plan="$plan], \"labels\": [{\"input\": \"$labelsf\", \"key\": \"function\", \"top\": \"$tmp/lab.json\"}]"
plan="$plan, \"diffs\": [{\"base\": \"$inline\", \"new\": \"$labelsf\", \"diff\": \"$tmp/diff.json\"}]"
plan="$plan, \"buckets\": [{\"input\": \"$rprof\", \"width_ns\": 50000000, \"totals\": [$totals]}"
plan="$plan], \"errors\": ["

# damaged files: cut short, a byte flipped in the body, not a profile, missing
f=$tmp/labels.pcol
head -c $(( $(stat -c %s "$f") / 2 )) "$f" >"$tmp/cut.pcol"
# a column damaged where the header and directory are sound: FF FF FF FF
# written at offsets 200, 264, ... until `pcol validate` (header and
# directory) accepts the file and `pcol top` refuses it, naming a table
# (damage a column's first use finds: pcol_top must name the file too)
off=200
while :; do
  [ "$off" -lt "$(stat -c %s "$f")" ] || fail "no offset of $f damages a column alone"
  cp "$f" "$tmp/flip.pcol"
  printf '\377\377\377\377' | dd of="$tmp/flip.pcol" bs=1 seek=$off conv=notrunc 2>/dev/null
  if $PCOL validate "$tmp/flip.pcol" >/dev/null 2>&1 &&
     ! $PCOL top "$tmp/flip.pcol" >/dev/null 2>"$tmp/flip.err" && grep -q ': table ' "$tmp/flip.err"; then
    break
  fi
  off=$((off + 64))
done
printf 'hello, not a profile\n' >"$tmp/text.pcol"
head -c 900 "$TD/pprof/go-cpu-inline-small.pb.gz" >"$tmp/cut.pb.gz" # a pprof cut short: converted, refused
sep=
bad() { # FILE VIEW...: each view of FILE is an error naming it
  local f=$1; shift
  for view in "$@"; do
    plan="$plan$sep{\"sql\": \"SELECT * FROM read_pcol('$f', \\\"table\\\" := '$view')\", \"want\": \"$f\"}"
    sep=", "
  done
}
bad "$tmp/cut.pcol" samples sample_locations strings
bad "$tmp/text.pcol" samples sample_locations strings
bad "$tmp/cut.pb.gz" samples functions
bad "$tmp/flip.pcol" strings functions # (the strings' offsets: views without strings read on)
for f in "$tmp/cut.pcol" "$tmp/text.pcol" "$tmp/cut.pb.gz" "$tmp/flip.pcol"; do
  plan="$plan$sep{\"sql\": \"SELECT * FROM pcol_frames('$f')\", \"want\": \"$f\", \"mayPass\": $([ "$f" = "$tmp/flip.pcol" ] && echo 1 || echo 0)}"
done
# the fuzzers' pcol findings: every view is rows or an error naming the file
for f in tests/fuzz-regress/pcol/*; do
  [ -f "$f" ] || continue
  f=$(abs "$f")
  for view in meta sources value_types source_value_types functions mappings locations location_lines \
              stacks samples sample_values sample_locations sample_labels text_lines sample_text models strings; do
    plan="$plan$sep{\"sql\": \"SELECT * FROM read_pcol('$f', \\\"table\\\" := '$view')\", \"want\": \"$f\", \"mayPass\": 1}"
  done
  plan="$plan$sep{\"sql\": \"SELECT * FROM pcol_frames('$f')\", \"want\": \"$f\", \"mayPass\": 1}"
done
plan="$plan, {\"sql\": \"SELECT * FROM read_pcol('$tmp/missing.pcol')\", \"want\": \"$tmp/missing.pcol\"}"
plan="$plan, {\"sql\": \"SELECT * FROM read_pcol(['$tmp/labels.pcol', '$tmp/cut.pcol'])\", \"want\": \"$tmp/cut.pcol\"}"
plan="$plan, {\"sql\": \"SELECT * FROM read_pcol('$tmp/nomatch*.pcol')\", \"want\": \"no file matches\"}"
plan="$plan, {\"sql\": \"SELECT * FROM read_pcol('-')\", \"want\": \"standard input\"}"
plan="$plan, {\"sql\": \"SELECT * FROM read_pcol('$tmp/labels.pcol', \\\"table\\\" := 'nope')\", \"want\": \"unknown table 'nope'\"}"
plan="$plan, {\"sql\": \"SELECT * FROM read_pcol('$tmp/labels.pcol', \\\"table\\\" := 'functions', source := 1)\", \"want\": \"not functions\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_top('$tmp/cut.pcol')\", \"want\": \"$tmp/cut.pcol\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_top('$tmp/flip.pcol')\", \"want\": \"$tmp/flip.pcol: table \"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_top(['$tmp/labels.pcol', '$tmp/flip.pcol'])\", \"want\": \"$tmp/flip.pcol: table \"}"
# a time range that ends before it starts: refused as pcol top refuses it (--from 0.2 is after --to 0.1)
for fn in "read_pcol('$tmp/rprof.pcol'" "pcol_top('$tmp/rprof.pcol'" "pcol_frames('$tmp/rprof.pcol'"; do
  plan="$plan, {\"sql\": \"SELECT * FROM $fn, \\\"from\\\" := 0.2, \\\"to\\\" := 0.1)\", \"want\": \"\\\"from\\\" := 0.2 is after \\\"to\\\" := 0.1\"}"
done
plan="$plan, {\"sql\": \"SELECT * FROM pcol_top('$tmp/otlp.pcol', \\\"from\\\" := '$W1', \\\"to\\\" := '$W0')\", \"want\": \"\\\"from\\\" := '$W1' is after \\\"to\\\" := '$W0'\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_top('$tmp/otlp.pcol', \\\"from\\\" := 1, \\\"to\\\" := '$W1')\", \"want\": \"both ends\"}"
plan="$plan, {\"sql\": \"SELECT * FROM read_pcol('$tmp/otlp.pcol', \\\"from\\\" := 'yesterday')\", \"want\": \"\\\"from\\\" wants seconds\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_frames('$tmp/otlp.pcol', \\\"to\\\" := DATE '2026-03-30')\", \"want\": \"\\\"to\\\" wants seconds\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_top('$inline', \\\"from\\\" := '2017-09-29T20:58:00.5Z')\", \"want\": \"cuts its span\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_top('$tmp/labels.pcol', value := 'nope')\", \"want\": \"nope\"}"
# divide_by (pprof's -divide_by) refused as the R and Python views and pcol top --format json refuse it
plan="$plan, {\"sql\": \"SELECT * FROM pcol_top('$tmp/labels.pcol', divide_by := 3)\", \"want\": \"divide_by: a view's numbers are raw\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_frames('$tmp/labels.pcol', value := 'nope')\", \"want\": \"nope\"}"
# source := N over many files is each file's source N: their defaults must agree, else value := names one
plan="$plan, {\"sql\": \"SELECT * FROM pcol_frames('$tmp/mixed2', source := 1)\", \"want\": \"have different default values (cpu/nanoseconds, samples/count)\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_frames('$tmp/labels.pcol', by := 'label:x')\", \"want\": \"by must be\"}"
plan="$plan, {\"sql\": \"SELECT * FROM pcol_frames('$tmp/rprof.pcol', by := 'address')\", \"want\": \"no addresses\"}"
plan="$plan]}"
echo "$plan" >"$tmp/plan.json"
node tests/interop/duckdb_judge.mjs "$API" "$tmp/plan.json" || exit 1
# A directory with an index (`pcol index`): pcol_top reads the index in
# place of the files it stands for, as `pcol top DIR` does (the same rows;
# a damaged index whose list was made to match is refused naming it, so it
# is the index that is read); read_pcol and pcol_frames read the files (a
# row's `file` names its file).  A stale index is not used, and the CLI's
# note says why on standard error ("pcol_top: note: ..."); a glob's matches
# that are not regular files are skipped, each named as the CLI names it.
q() { node bindings/duckdb/query.mjs "$API" "$EXT" "$1"; }
same_top() { # NAME ARG SQL-ARG: pcol_top's rows are pcol top's, in order
  $PCOL top "$2" --format json >"$tmp/$1.want.json" 2>"$tmp/$1.cli.err" || fail "pcol top $2"
  q "SELECT name, flat::VARCHAR, cum::VARCHAR FROM pcol_top('$3')" >"$tmp/$1.got.json" 2>"$tmp/$1.duck.err" ||
    fail "pcol_top('$3'): $(cat "$tmp/$1.duck.err")"
  python3 - "$tmp/$1.want.json" "$tmp/$1.got.json" <<'PY' || fail "$1: pcol_top('$3') is not pcol top $2"
import json, sys
want = [[r["name"], str(r["flat"]), str(r["cum"])] for r in json.load(open(sys.argv[1]))["rows"]]
got = json.load(open(sys.argv[2]))
assert got == want and want, (got[:3], want[:3])
PY
}
mkdir "$tmp/idx"
cp "$inline" "$tmp/idx/1.pb.gz" && cp "$labelsf" "$tmp/idx/2.pb.gz" && cp "$tmp/dir/a.pcol" "$tmp/idx/3.pcol" || fail "cp"
sleep 2.2 # (pcol index leaves out files changed within 2 s)
$PCOL index "$tmp/idx" | grep -q 'covers 3 of 3 files' || fail "pcol index"
PCOL_DEBUG=inputs $PCOL top "$tmp/idx" 2>&1 >/dev/null | grep -q '(1 an index of 3 files)' || fail "pcol top did not read the index"
same_top idx "$tmp/idx" "$tmp/idx"
[ ! -s "$tmp/idx.duck.err" ] || fail "pcol_top of a current index said: $(cat "$tmp/idx.duck.err")"
n=$(q "SELECT count(DISTINCT file)::INTEGER FROM read_pcol('$tmp/idx')") || fail "read_pcol of the indexed directory"
[ "$n" = '[[3]]' ] || fail "read_pcol of the indexed directory: $n files, not its 3"
python3 "$(dirname "$0")/../support/damage_index.py" "$tmp/idx" || fail "damage the index"
$PCOL top "$tmp/idx" >/dev/null 2>&1 && fail "pcol top read past a damaged index"
q "SELECT * FROM pcol_top('$tmp/idx')" >/dev/null 2>"$tmp/dmg.err" && fail "pcol_top read past a damaged index"
grep -q "$tmp/idx/.pcol-index.pcol" "$tmp/dmg.err" || fail "pcol_top of a damaged index does not name it: $(cat "$tmp/dmg.err")"
$PCOL index "$tmp/idx" >/dev/null 2>&1 || fail "pcol index (made again)"
touch "$tmp/idx/2.pb.gz"
same_top stale "$tmp/idx" "$tmp/idx"
want=$(sed -n 's/^pcol: note: //p' "$tmp/stale.cli.err")
got=$(sed -n 's/^pcol_top: note: //p' "$tmp/stale.duck.err")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "a stale index: pcol_top said '$got', pcol top '$want'"
echo "$want" | grep -q 'a file it covers changed since' || fail "a stale index: $want"
mkdir "$tmp/odd" "$tmp/odd/sub.pcol" && mkfifo "$tmp/odd/fifo.pcol" && cp "$tmp/dir/"*.pcol "$tmp/odd/" || fail "mkdir"
same_top odd "$tmp/odd/*.pcol" "$tmp/odd/*.pcol"
want=$(sed -n 's/^pcol: warning: skipped/skipped/p' "$tmp/odd.cli.err")
got=$(sed -n 's/^pcol_top: warning: //p' "$tmp/odd.duck.err")
[ "$(echo "$want" | wc -l)" = 2 ] && [ "$got" = "$want" ] || fail "skipped glob matches: pcol_top said '$got', pcol top '$want'"
got=$(q "SELECT count(*) FROM read_pcol('$tmp/odd/*.pcol')" 2>&1 >/dev/null | sed -n 's/^read_pcol: warning: //p')
[ "$got" = "$want" ] || fail "skipped glob matches: read_pcol said '$got'"
echo "a directory's index read by pcol_top (rows of pcol top, a damaged one refused, a stale one noted), skipped glob matches named"
# The data warnings of pcol top (user review 16, F3) on a mixed directory
# of test profiles read in place (symbolic links: two Go CPU profiles, an
# Rprof file, a collapsed file cut short): pcol_top says them on standard
# error in the CLI's words ("pcol_top: warning: ..."), the fall-back's
# advice in SQL's terms; read_pcol says the cut file's.
mkdir "$tmp/mix" || fail "mkdir"
for f in pprof/go-cpu-inline-small.pb.gz pprof/go-cpu-string-labels.pb.gz rprof/r-prof-profile__1.out \
         ext/collapsed/speedscope__simple.txt; do
  ln -s "$(abs "$TD/$f")" "$tmp/mix/" || fail "ln -s $f"
done
mixed() { # NAME [VALUE]: pcol_top's warnings are pcol top's
  local v=${2:-} sqlv=
  [ -n "$v" ] && sqlv=", value := '$v'"
  $PCOL top "$tmp/mix" --format json ${v:+--value "$v"} >"$tmp/$1.want.json" 2>"$tmp/$1.cli.err" || fail "pcol top mix $v"
  q "SELECT name, flat::VARCHAR, cum::VARCHAR FROM pcol_top('$tmp/mix'$sqlv)" >"$tmp/$1.got.json" 2>"$tmp/$1.duck.err" ||
    fail "pcol_top('$tmp/mix'$sqlv): $(cat "$tmp/$1.duck.err")"
  want=$(sed -n 's/^pcol top: warning: //p' "$tmp/$1.cli.err" | sed "s/name one with --value TYPE\$/name one with value := 'TYPE'/")
  got=$(sed -n 's/^pcol_top: warning: //p' "$tmp/$1.duck.err")
  [ "$(echo "$want" | wc -l)" = 2 ] && [ "$got" = "$want" ] || fail "a mixed directory$v: pcol_top said '$got', pcol top '$want'"
}
mixed mixdefault
grep -q "^pcol top: warning: $tmp/mix: the sources measure different values, so the default is samples" "$tmp/mixdefault.cli.err" ||
  fail "pcol top of a mixed directory: no fall-back warning: $(cat "$tmp/mixdefault.cli.err")"
mixed mixcpu cpu
grep -q "has no value cpu/nanoseconds; its samples count 0" "$tmp/mixcpu.duck.err" || fail "pcol_top value := 'cpu': $(cat "$tmp/mixcpu.duck.err")"
cut=$(sed -n 's/^pcol top: warning: \(.*has no line end.*\)/\1/p' "$tmp/mixdefault.cli.err")
got=$(q "SELECT count(*) FROM read_pcol('$tmp/mix/speedscope__simple.txt')" 2>&1 >/dev/null | sed -n 's/^read_pcol: warning: //p')
[ -n "$cut" ] && [ "$got" = "$cut" ] || fail "read_pcol of a collapsed file cut short said '$got', pcol top '$cut'"
mkdir "$tmp/rp" && ln -s "$(abs "$TD/rprof/r-prof-profile__1.out")" "$(abs "$TD/rprof/r-prof-profile__memory.out")" "$tmp/rp/" ||
  fail "ln -s rprof"
want=$($PCOL top "$tmp/rp" --from 0 --to 0.1 2>&1 >/dev/null | sed -n 's/^pcol top: note: //p')
got=$(q "SELECT count(*) FROM pcol_top('$tmp/rp', \"from\" := 0, \"to\" := 0.1)" 2>&1 >/dev/null | sed -n 's/^pcol_top: note: //p')
echo "$want" | grep -q "^$tmp/rp: a relative time range counts from each source's own start" && [ "$got" = "$want" ] ||
  fail "a relative range over two recordings: pcol_top said '$got', pcol top '$want'"
# a range that selects no sample (review: the CLI's warning alone before):
# a relative one past examples/demo.out's span, a wall-clock one of another
# day on a JFR recording (tests/support/gen_jfr.py): pcol top's warning
demo=$(abs examples/demo.out)
python3 tests/support/gen_jfr.py "$tmp/j.jfr" --chunks 1 --samples 30 --period '*:10 ms' >/dev/null || fail "gen_jfr.py"
for c in "$demo|--from|2|\"from\" := 2" \
         "$tmp/j.jfr|--from|2026-01-01T00:00:00Z|\"from\" := '2026-01-01T00:00:00Z'"; do
  IFS='|' read -r p o t sqlr <<<"$c"
  want=$($PCOL top "$p" "$o" "$t" 2>&1 >/dev/null | sed -n 's/^pcol top: warning: //p')
  got=$(q "SELECT count(*) FROM pcol_top('$p', $sqlr)" 2>&1 >/dev/null | sed -n 's/^pcol_top: warning: //p')
  echo "$want" | grep -q "^$p: the range --from .* selects no sample: the " && [ "$got" = "$want" ] ||
    fail "a range that selects no sample of $p: pcol_top said '$got', pcol top '$want'"
done
echo "a mixed directory: pcol_top and read_pcol give pcol top's data warnings in its words (a range's too, one that selects no sample)"
# THE weight name rule (lib/query/value.c resolve_weight, review rd14a F2):
# value := 'pcol.weight' is the weight column in every file, also where one
# of them stores a type named weight (a Perfetto StackSample's
# primary_weight without a descriptor, as tests/cli/t_perfetto.sh); it was
# turned back into the name "weight", which each file resolved to its
# stored type (12 + 7 = 19, not pcol top's 2 + 7); value := 'weight' is that
# stored type, in the files that have it, as pcol top --value weight
printf 'packet { trusted_packet_sequence_id: 3 incremental_state_cleared: true timestamp: 5 interned_data { function_names { iid: 1 str: "f" } frames { iid: 1 function_name_id: 1 } callstacks { iid: 1 frame_ids: 1 } } }\npacket { trusted_packet_sequence_id: 3 timestamp: 6 stack_sample { callstack_iid: 1 primary_weight: 5 } }\npacket { trusted_packet_sequence_id: 3 timestamp: 7 stack_sample { callstack_iid: 1 primary_weight: 7 } }\n' |
  protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto >"$tmp/nodesc.pftrace" || fail "protoc nodesc"
printf 'a;b 3\na 4\n' >"$tmp/w.collapsed"
for v in pcol.weight weight; do
  for ins in "$tmp/nodesc.pftrace" "$tmp/nodesc.pftrace $tmp/w.collapsed"; do
    want=$($PCOL top --value $v $ins --format json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])') ||
      fail "pcol top --value $v $ins"
    list=$(echo "$ins" | sed "s/^/['/; s/ /', '/g; s/\$/']/")
    for fn in pcol_frames pcol_top; do
      case $fn in pcol_frames) sql="SELECT sum(value)::INTEGER FROM pcol_frames($list, value := '$v') WHERE self" ;;
                  *) sql="SELECT sum(flat)::INTEGER FROM pcol_top($list, value := '$v')" ;; esac
      got=$(q "$sql" 2>/dev/null) || fail "$sql"
      [ "$got" = "[[$want]]" ] || fail "$fn value := '$v' of $ins: $got, pcol top --value $v: $want"
    done
  done
done
echo "value := 'pcol.weight' and 'weight' over one file and many: pcol top's totals (the weight column, the stored type)"
# doc/duckdb.md's "Many files" query, as the page prints it (run in the test
# data, its paths relative): its sample_rows and samples are `pcol info`'s
# "samples: N (M rows)" of each file
sql=$(awk '/^\*\*Many files\*\*/ { m = 1 } m && /^```sql/ { q = 1; next } q && /^```/ { exit } q' doc/duckdb.md)
[ -n "$sql" ] || fail "no Many files query in doc/duckdb.md"
here=$PWD
(cd "$TD" && node "$here/bindings/duckdb/query.mjs" "$API" "$EXT" "$sql") >"$tmp/many.json" || fail "the Many files query: $sql"
python3 - "$tmp/many.json" "$TD" "$PCOL" <<'PY' || fail "doc/duckdb.md's Many files query does not count as pcol info does"
import json, re, subprocess, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 3, rows
for file, nrows, samples in rows:
    info = subprocess.run([sys.argv[3], "info", sys.argv[2] + "/" + file], capture_output=True, text=True, check=True).stdout
    n, m = re.search(r"samples: +(\d+) \((\d+) rows\)", info).groups()
    if (str(samples), str(nrows)) != (n, m):
        sys.exit(f"{file}: samples {samples}, {nrows} rows; pcol info: {n} ({m} rows)")
print(f"doc/duckdb.md's Many files query: {len(rows)} files, samples and rows as pcol info")
PY
# doc/duckdb.md's "Totals across formats" queries, as the page prints them,
# over a directory `day` of the three files it names (Rprof's cpu derived):
# each file's cpu (pcol_frames) is `pcol top FILE --value cpu`'s total, the
# sum (pcol_top) `pcol top day --value cpu`'s; sample_values' cpu is not
sql=$(awk '/^\*\*Totals across formats/ { m = 1 } m && /^```sql/ { q = 1; next } q && /^```/ { exit } q' doc/duckdb.md)
[ -n "$sql" ] || fail "no Totals across formats queries in doc/duckdb.md"
mkdir -p "$tmp/tot/day"
for x in pprof/go-cpu-large.pb.gz:a-go.pb.gz rprof/proftools__Rprof-lmfit-new.out:b-lmfit.out \
         ext/pprof/jfr-kafka-cpu.pb.gz:c-kafka.pb.gz; do
  ln -s "$(abs "$TD/${x%%:*}")" "$tmp/tot/day/${x#*:}"
done
for i in 1 2; do
  stmt=$(printf '%s\n' "$sql" | awk -v RS=';' -v n=$i 'NR == n')
  (cd "$tmp/tot" && node "$here/bindings/duckdb/query.mjs" "$API" "$EXT" "$stmt") >"$tmp/tot$i.json" 2>/dev/null ||
    fail "the Totals across formats query: $stmt"
done
python3 - "$tmp/tot" "$PCOL" <<'PY' || fail "doc/duckdb.md's Totals across formats queries do not add up as pcol top does"
import json, subprocess, sys
import os
d, pcol = sys.argv[1], sys.argv[2]
if os.sep in pcol: pcol = os.path.abspath(pcol)  # (run in d below: a relative PCOL, as CI's, is from here)
total = lambda p: json.loads(subprocess.run([pcol, "top", p, "--value", "cpu", "--format", "json"], cwd=d,
                                            capture_output=True, text=True, check=True).stdout)["total"]
rows = json.load(open(d + "1.json"))
assert [r[0] for r in rows] == ["day/a-go.pb.gz", "day/b-lmfit.out", "day/c-kafka.pb.gz"], rows
for f, v in rows:
    if int(v) != total(f):
        sys.exit(f"{f}: pcol_frames' cpu {v}, pcol top {total(f)}")
[[s]] = json.load(open(d + "2.json"))
if int(s) != total("day") or total("day") == total("day/a-go.pb.gz") + total("day/c-kafka.pb.gz"):
    sys.exit(f"pcol_top's sum {s}, pcol top day {total('day')}")
print(f"doc/duckdb.md's Totals across formats: {len(rows)} files (Rprof's derived cpu too), pcol top's totals")
PY
# Again with the extension of make test's sanitizer build ($BUILD/test) loaded
# into node under ASan and UBSan (their runtimes preloaded; a report exits
# 86), when that build is there.
asan=$(${CC:-cc} -print-file-name=libasan.so 2>/dev/null)
ubsan=$(${CC:-cc} -print-file-name=libubsan.so 2>/dev/null)
if [ -f "$BUILD/test/lib/libpcol.a" ] && [ -f "$asan" ] && [ -f "$ubsan" ]; then
  make --no-print-directory -s BUILD="$BUILD" duckdb-san >/dev/null || fail "make duckdb-san failed"
  sed "s#\"ext\": \"$EXT\"#\"ext\": \"$(abs "$BUILD/test/duckdb/pcol.duckdb_extension")\"#" \
    "$tmp/plan.json" >"$tmp/plan-san.json"
  echo "under ASan/UBSan:"
  LD_PRELOAD="$asan $ubsan" ASAN_OPTIONS=detect_leaks=0:exitcode=86 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86 \
    node tests/interop/duckdb_judge.mjs "$API" "$tmp/plan-san.json"
else
  echo "(no sanitizer build at $BUILD/test: the extension was not run under ASan)"
fi
# The scan's threads (chunks of a stored view taken by DuckDB's threads, the
# producer thread of a computed view, inputs closed when no thread reads
# them; pcol_frames' producer) under ThreadSanitizer, on make test's TSan
# build of the library: a 300,000-sample file (enough rows for DuckDB to scan with two threads), the
# answers equal to the plain extension's and no report.
tsan=$(${CC:-cc} -print-file-name=libtsan.so 2>/dev/null)
if [ -f "$BUILD/test/tsan/lib/libpcol-internal.a" ] && [ -f "$tsan" ]; then
  make --no-print-directory -s BUILD="$BUILD" duckdb-tsan >/dev/null || fail "make duckdb-tsan failed"
  awk 'BEGIN { for (i = 0; i < 300000; i++) printf "main;f%d;g%d %d\n", i % 97, i % 13, 1 + i % 5 }' >"$tmp/big.folded"
  $PCOL pack "$tmp/big.folded" -o "$tmp/big.pcol" 2>/dev/null || fail "pcol pack big.folded"
  big=$tmp/big.pcol
  if setarch "$(uname -m)" -R true 2>/dev/null; then norand="setarch $(uname -m) -R"; else norand=; fi
  n=0
  for q in "SELECT count(*), sum(weight), sum(stack_id) FROM read_pcol('$big')" \
           "SELECT f.name, sum(s.weight) AS w FROM read_pcol('$big') s JOIN read_pcol('$big', \"table\" := 'stacks') st USING (stack_id) JOIN read_pcol('$big', \"table\" := 'location_lines') ll ON ll.location_id = st.location_id AND ll.depth = 1 JOIN read_pcol('$big', \"table\" := 'functions') f USING (function_id) GROUP BY ALL ORDER BY w DESC, f.name LIMIT 5" \
           "SELECT * FROM read_pcol('$big', \"table\" := 'sample_locations') LIMIT 5000" \
           "SELECT file, count(*), sum(weight) FROM read_pcol(['$big', '$tmp/labels.pcol', '$big']) GROUP BY ALL ORDER BY ALL" \
           "SELECT name, sum(value) FILTER (WHERE self) AS flat, sum(value) FILTER (WHERE first_on_stack) AS cum FROM pcol_frames(['$big', '$tmp/labels.pcol']) GROUP BY name ORDER BY cum DESC, name LIMIT 5"; do
    n=$((n + 1))
    want=$(node bindings/duckdb/query.mjs "$API" "$EXT" "$q") || fail "query $n: $q"
    got=$(LD_PRELOAD="$tsan" TSAN_OPTIONS="halt_on_error=1 exitcode=66 ignore_noninstrumented_modules=1" \
          $norand node bindings/duckdb/query.mjs "$API" "$(abs "$BUILD/test/tsan/duckdb/pcol.duckdb_extension")" "$q") ||
      fail "under ThreadSanitizer, query $n: $q"
    [ "$got" = "$want" ] || fail "under ThreadSanitizer, query $n answers $got, not $want"
  done
  echo "under ThreadSanitizer: $n queries, no report"
else
  echo "(no ThreadSanitizer build at $BUILD/test/tsan: the scan's threads were not checked)"
fi
