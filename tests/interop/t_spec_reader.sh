#!/usr/bin/env bash
# spec.md's promise: a reader written from spec.md alone agrees with libpcol
# on every file.  tests/conformance/specread.py is such a reader (written by
# a helper from spec.md, README.md and doc/ only); this holds it and pcol to
# the same answers:
# - the conformance suite through it: every verdict and every view of every
#   valid file, and the time ranges of its .ranges files
#   (tests/conformance/run.py --validate/--cat-all/--cat-range);
# - time ranges of a Chrome trace (intervals) and a coalesced profile (ticks);
# - files pcol writes in each of its layouts, from profiles of several
#   formats: format 1.3 (encoded columns), --compress zstd (1.2's transforms,
#   1.4's zstd blocks, on a 70,000-sample profile, and 1.5's byte-split
#   lanes), --compress lz4 (1.3: LZ4 over encoded columns; 1.5: transforms
#   and byte-split lanes), --format-version 1.2, a coalesced and a merged file: `pcol cat
#   --table all --format jsonl` and `specread.py cat` print the same bytes,
#   and `pcol validate --full` and `specread.py check --full` both accept.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TD=${PCOL_TESTDATA:-$root/../shared/testdata}
R="python3 $root/tests/conformance/specread.py"
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }
python3 -c 'import ctypes; ctypes.CDLL("libzstd.so.1"); ctypes.CDLL("liblz4.so.1")' 2>/dev/null ||
  { echo "skipped: libzstd.so.1 or liblz4.so.1 cannot be loaded"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: t_spec_reader: $*"; exit 1; }

# (its commands to one specread.py process a job: a start costs more than
# reading a file of the suite)
python3 "$root/tests/conformance/run.py" --pcol "$PCOL" --jobs "${JOBS:-2}" --serve "$R serve" \
  --validate "check --full {file}" --cat-all "cat {file}" \
  --cat-range "cat-range {file} {view} {from_} {to}" --count "count {file} {value}" ||
  fail "the conformance suite through specread.py"
# the count rule of a subtracted base (spec.md §6.11): a --diff-base written
# as pprof (pprof::base labels) packed (meta pprof.diff_base = signed), and
# merged with a profile of its own: sums and totals of top as specread.py's
printf 'main;f 5\nmain;g 3\n' >"$tmp/fa.folded"
printf 'main;f 2\nmain;h 4\nmain;g 3\n' >"$tmp/fb.folded"
"$PCOL" unpack "$tmp/fa.folded" --diff-base "$tmp/fb.folded" --to pprof -o "$tmp/d.pb.gz" 2>/dev/null || fail "unpack --diff-base"
"$PCOL" pack "$tmp/d.pb.gz" -o "$tmp/d.pcol" 2>/dev/null || fail "pack the difference"
"$PCOL" pack "$tmp/d.pb.gz" "$tmp/fa.folded" -o "$tmp/dm.pcol" 2>/dev/null || fail "pack the difference merged"
grep -q . <("$PCOL" cat "$tmp/d.pcol" --table meta | grep 'pprof.diff_base.signed') || fail "no pprof.diff_base signed in the packed difference"
for f in "$tmp/d.pcol" "$tmp/dm.pcol"; do
  for v in samples weight; do
    a=$("$PCOL" top "$f" --value $v --format json -n 0 --node-fraction 0 2>/dev/null |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(r["flat"] for r in d["rows"]), d["total"])') || a=refused
    b=$($R count "$f" $v 2>/dev/null) || b=refused
    [ "$a" = "$b" ] || fail "top --value $v of $(basename "$f"): pcol says $a, specread.py $b"
  done
done
# time ranges of a Chrome trace pcol imports (intervals, spec.md §7.1) and of
# a coalesced file (ticks): the cut samples as both readers show them
python3 "$root/tests/support/chrome_range.py" gen-events "$tmp/trace.json" 3 || fail "chrome_range.py"
"$PCOL" pack "$tmp/trace.json" -o "$tmp/trace.pcol" 2>/dev/null || fail "pack the trace"
"$PCOL" pack "$root/examples/demo.out" --coalesce -o "$tmp/demo.pcol" 2>/dev/null || fail "pack --coalesce"
for f in "$tmp/trace.pcol" "$tmp/demo.pcol"; do
  for r in "0.012345678 0.057654321" "0.000000001 0.031000007" "0.5 1.2345"; do
    set -- $r
    for v in samples sample_values; do
      "$PCOL" cat "$f" --table $v --from "$1" --to "$2" --format jsonl >"$tmp/a" 2>&1 || fail "pcol cat $f --from $1 --to $2"
      $R cat-range "$f" $v "$1" "$2" >"$tmp/b" 2>&1 || fail "specread.py cat-range $f: $(tail -3 "$tmp/b")"
      [ -s "$tmp/a" ] || [ $v = sample_values ] || [ "$1" = 0.5 ] || fail "$f: no $v in $1 .. $2"
      cmp -s "$tmp/a" "$tmp/b" || fail "$v of $f from $1 to $2 differ: $(cmp "$tmp/a" "$tmp/b" | head -1)"
    done
  done
done

[ -d "$TD" ] || { echo "t_spec_reader: the conformance suite agrees; no test data at $TD: the packed files are skipped"; exit 0; }
# the inputs: a profile of each kind that takes its own paths (labels and
# several value types, inline frames and memory, many sources, Rprof times,
# Perun, collapsed), and a long Tachyon recording for zstd blocks
n=0
add() { [ -f "$1" ] && cp "$1" "$tmp/in$n.${1##*.}" && n=$((n + 1)); }
for f in pprof/dotnet-6types-labels-UNCOMPRESSED.pb pprof/go-heap-allocs-inline.pb.gz \
         pprof/go-cpu-string-labels.pb.gz ext/pprof/ODD-otlp-ebpf-profile.pb.bin \
         rprof/r-prof-profile__memory.out perun/complexity-models.perf \
         ext/collapsed/flamegraph__perf-rust-Yamakaky-dcpu-collapsed-all.txt; do
  add "$TD/$f"
done
python3 "$root/tests/support/tachyongen.py" rich "$tmp/long.bin" --samples 70000 --seed 5 >/dev/null ||
  fail "tachyongen.py"
files=()
for i in "$tmp"/in* "$tmp/long.bin"; do
  b=${i%.*}
  "$PCOL" pack "$i" -o "$b.pcol" 2>/dev/null || fail "pack $i"
  "$PCOL" pack "$i" -o "$b.z.pcol" --compress zstd 2>/dev/null || fail "pack $i --compress zstd"
  "$PCOL" pack "$i" -o "$b.l.pcol" --compress lz4 2>/dev/null || fail "pack $i --compress lz4"
  "$PCOL" pack "$i" -o "$b.v12.pcol" --format-version 1.2 2>/dev/null || fail "pack $i --format-version 1.2"
  files+=("$b.pcol" "$b.z.pcol" "$b.l.pcol" "$b.v12.pcol")
done
"$PCOL" info "$tmp/long.z.pcol" | grep -q zblk || fail "no zstd blocks in the 70,000-sample zstd file"
# format 1.5: byte-split lanes (flags 0xa, "+se") under LZ4 and zstd somewhere
# among them, so that the reader's join is what is compared
for c in l z; do
  for f in "$tmp"/*.$c.pcol; do "$PCOL" info "$f"; done | grep -q ' lz4+se \| zstd+se ' ||
    fail "no column with byte-split lanes among the --compress files (.$c.pcol)"
done
"$PCOL" pack "$TD/rprof/r-prof-profile__memory.out" --coalesce -o "$tmp/coal.pcol" 2>/dev/null &&
  files+=("$tmp/coal.pcol")
"$PCOL" merge "$tmp"/in0.pcol "$tmp"/in4.pcol "$tmp"/in5.pcol -o "$tmp/merged.pcol" 2>/dev/null &&
  files+=("$tmp/merged.pcol")
"$PCOL" merge "$tmp"/in0.pcol "$tmp"/in4.pcol "$tmp/long.pcol" --compress zstd -o "$tmp/merged.z.pcol" 2>/dev/null &&
  files+=("$tmp/merged.z.pcol")
k=0
for f in "${files[@]}"; do
  "$PCOL" validate --full -q "$f" || fail "pcol refuses $f"
  $R check --full "$f" >"$tmp/chk" 2>&1 || fail "specread.py refuses $f: $(head -3 "$tmp/chk")"
  # (the output budget follows the file's size, which the encodings make
  # small: a merge of 70,000 samples in zstd prints more than 128 x its bytes)
  "$PCOL" cat "$f" --table all --format jsonl --max-output 2G >"$tmp/a" 2>&1 || fail "pcol cat $f: $(grep -v '^{' "$tmp/a" | head -c 300)"
  $R cat "$f" >"$tmp/b" 2>&1 || fail "specread.py cat $f: $(tail -3 "$tmp/b")"
  cmp -s "$tmp/a" "$tmp/b" || fail "the views of $f differ: $(cmp "$tmp/a" "$tmp/b" | head -1)"
  k=$((k + 1))
done
[ "$k" -ge 30 ] || fail "only $k files compared"
echo "t_spec_reader: the conformance suite and $k files in pcol's layouts read alike by a reader written from spec.md"
