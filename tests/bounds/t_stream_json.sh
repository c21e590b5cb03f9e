#!/usr/bin/env bash
# The JSON-document importers stream their input (issue 29): a ~200 MB V8
# .cpuprofile, speedscope file, Firefox profile (tables after the samples,
# most bytes markers) and OTLP/JSON lines file (made here by
# tests/support/gen_big_json.py) pack under `prlimit --as` of 128 MiB, far
# below the documents' size (reading them whole through jansson took 4.2 GB,
# 2.1 GB, 1.1 GB and 210 MB; streamed: 23, 74, 38 and 4.4 MB; V8's
# peak RSS under 26 MiB), and give the sample
# counts and weights the generator wrote; and ~1 GB of perf script text
# (tests/support/gen_perf_big.c) the periods it summed, under 80 MiB; and
# millions of Tachyon and JFR samples under 48 MiB, a 171 MB binary
# OTLP message in 68 MB, and a 300 MB Perfetto trace of 441k generations
# of interned data, or of 300 MB of compressed_packets, in 64 MiB, and
# 96 MiB of one of Chromium's V8 profiles in 32 MiB (below).  Plain build
# only (sanitizers reserve terabytes of address space): `make test-bounds`.  Takes ~70 s.
# KINDS (default: every kind of STREAMED) picks some.  STREAMED is every kind
# run here (perun: memory bounded by the file, not streamed), and what
# tests/contract/t_contract.py reads: a format the importer contract
# (tests/contract/importers.tsv) calls streamed must be run here.
set -u
PCOL=${PCOL:-build/bin/pcol}
fail() { echo "t_stream_json: FAIL: $*" >&2; exit 1; }
command -v prlimit >/dev/null || { echo "t_stream_json: prlimit not installed: skipped"; exit 0; }
command -v python3 >/dev/null || { echo "t_stream_json: python3 not installed: skipped"; exit 0; }
if grep -qa __asan_init "$PCOL"; then echo "t_stream_json: ASan build: skipped"; exit 0; fi
STREAMED="v8 speedscope firefox otlp otlp.gz otlp-line otlp-bin otlp-bin-times perf tachyon tachyon-zstd jfr perfetto perfetto-v8 rprof collapsed chrome perun"
KINDS=${KINDS-$STREAMED}
want() { [[ " $KINDS " == *" $1 "* ]]; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cap=$((128 << 20))
# counts KIND ROWS VALUE WANT: $tmp/o.pcol has ROWS sample rows, and the
# value type VALUE sums to WANT (%.0f: exact below 2^53, where mawk's %d
# stops at 2^31 - 1)
counts() {
  local rows got
  rows=$("$PCOL" info "$tmp/o.pcol" | awk '$1 == "samples_stored" {print $2; exit}')
  [ "$rows" = "$2" ] || fail "$1: $rows sample rows, the generator wrote $2"
  got=$("$PCOL" fold "$tmp/o.pcol" --value "$3" | awk '{s+=$NF} END{printf "%.0f", s}')
  [ "$got" = "$4" ] || fail "$1: $3 sums to $got, the generator wrote $4"
}
# otlp.gz: the OTLP/JSON lines gzip-compressed, inflated as they are read
# (lib/core/instream.c; inflated whole first, it took 210 MB and more than the cap)
for kind in $KINDS; do
  case $kind in perf | tachyon* | jfr | otlp-bin* | otlp-line | perfetto* | rprof | collapsed | chrome | perun) continue ;; esac
  f=$tmp/big.$kind
  if [ "$kind" = otlp.gz ] && [ -f "$tmp/keep.otlp" ]; then # the otlp case's document, kept
    mv "$tmp/keep.otlp" "$f" && read -r n total <"$tmp/keep.nt" || fail "$kind: the otlp document"
  else
    read -r n total < <(python3 tests/support/gen_big_json.py ${kind%.gz} "$f" 200) || fail "$kind: generator"
  fi
  size=$(stat -c %s "$f")
  [ "$size" -gt $((cap + (cap >> 1))) ] || fail "$kind: the document ($size bytes) is not far above the cap"
  if [ "$kind" = otlp.gz ]; then gzip -1 -c "$f" >"$f.z" && mv "$f.z" "$f" || fail "gzip"; fi
  prlimit --as=$cap -- "$PCOL" pack --from ${kind%.gz} "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
    fail "$kind: pack of a $size-byte document under a $cap-byte address space: $(head -c 300 "$tmp/err")"
  # V8: one per sample; speedscope's unit "none": the weights are the counts;
  # Firefox: weightType samples; OTLP: the one value type, samples/count
  got=$("$PCOL" fold "$tmp/o.pcol" --value samples | awk '{s+=$NF} END{print s+0}')
  [ "$got" = "$total" ] || fail "$kind: $got samples, the generator wrote $total"
  rows=$("$PCOL" info "$tmp/o.pcol" | awk '$1 == "samples_stored" {print $2; exit}')
  [ "$rows" = "$n" ] || fail "$kind: $rows sample rows, the generator wrote $n"
  echo "t_stream_json: $kind: $size bytes packed under --as=$cap, $n samples" >&2
  # V8's peak RSS follows its 300,000 samples, not the document: 22.6 MB
  # (18.6 without transparent huge pages); 33.8 MB before the importer
  # resolved its samples in place (two arrays more, 12 bytes a sample), cut
  # its two arrays to their length (up to half of each spare, in whole huge
  # pages) and gave back their pages behind it as the builder's columns
  # grew: bench/results/stream-jfr-tachyon.md
  if [ "$kind" = v8 ]; then
    /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" pack --from v8 "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
      fail "$kind: pack: $(head -c 300 "$tmp/err")"
    kb=$(tail -1 "$tmp/rss")
    [ "$kb" -le $((26 << 10)) ] || fail "$kind: peak RSS $kb KB packing $n samples, bound 26 MiB"
    echo "t_stream_json: $kind: packed at $kb KB peak RSS" >&2
  fi
  rm -f "$tmp/o.pcol"
  # (the OTLP/JSON document is generated once: the gzip case compresses it)
  if [ "$kind" = otlp ]; then mv "$f" "$tmp/keep.otlp" && echo "$n $total" >"$tmp/keep.nt"; else rm -f "$f"; fi
done
# One OTLP/JSON line of 80 MB (1M samples): it was read into a tree, decoded
# into protobuf-c's structs, packed and imported (390 MB peak, out of memory
# under this cap); it is now written straight into the wire format as it is
# read (lib/convert/otlp/otlp_json.c): 39 MB.
if want otlp-line; then
  f=$tmp/big.otlp-line
  read -r n total < <(python3 tests/support/gen_big_json.py otlp-line "$f" 80) || fail "otlp-line: generator"
  prlimit --as=$cap -- "$PCOL" pack --from otlp "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
    fail "otlp-line: pack of a $(stat -c %s "$f")-byte line under a $cap-byte address space: $(head -c 300 "$tmp/err")"
  counts otlp-line "$n" samples "$total"
  echo "t_stream_json: otlp-line: $(stat -c %s "$f") bytes in one line packed under --as=$cap, $n samples" >&2
  rm -f "$f" "$tmp/o.pcol"
fi
# One binary OTLP message of 4.4M samples (tests/support/gen_otlp_big.py:
# two Profiles sharing their samples, one source of two value types), 83 MB
# without timestamps (otlp-bin: the samples come in order) and 171 MB with
# one each, far out of time order (otlp-bin-times: sorted through
# lib/core/rowsort.c, the rows carrying all a sample needs).  protobuf-c
# decoded such a message whole: 1.48 GB and 1.75 GB peak RSS; it now decodes
# the message without its Samples, which are read from the wire one at a
# time (lib/convert/otlp/otlp_samples.c): 68 MB each, and with the file
# mapped in place, not copied (pcol_input_map_file), 39 MB.  Its export back to
# OTLP built every Sample as a protobuf-c struct (1.48 GB for the second);
# it now writes each as it reads it: 32 MB.  Its Firefox export kept two
# 104-byte rows a sample (736 MB); now 40 MB.  The message is
# mapped whole (the input's temporary copy), so the bound is on peak RSS
# (the pages read are handed back as the passes move on), not --as.
if [ -x /usr/bin/time ]; then
  for kind in otlp-bin otlp-bin-times; do
    want $kind || continue
    f=$tmp/big.$kind
    opt=--no-times
    [ $kind = otlp-bin-times ] && opt=
    read -r n count cpu < <(python3 tests/support/gen_otlp_big.py "$f" 4400000 $opt) || fail "$kind: generator"
    /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" pack --from otlp "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
      fail "$kind: pack: $(head -c 300 "$tmp/err")"
    kb=$(tail -1 "$tmp/rss")
    # (the file is mapped in place: a copy's first 64 MiB in memory took 68 MB)
    [ "$kb" -le $((56 << 10)) ] || fail "$kind: peak RSS $kb KB packing $(stat -c %s "$f") bytes, bound 56 MiB"
    counts $kind "$n" samples "$count"
    counts $kind "$n" cpu "$cpu"
    echo "t_stream_json: $kind: $n samples ($(stat -c %s "$f") bytes, one message) packed at $kb KB peak RSS" >&2
    # and back: the export writes each Sample as it reads it
    /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" unpack "$tmp/o.pcol" --to otlp -o "$f" 2>"$tmp/err" ||
      fail "$kind: unpack --to otlp: $(head -c 300 "$tmp/err")"
    kb=$(tail -1 "$tmp/rss")
    [ "$kb" -le $((96 << 10)) ] || fail "$kind: peak RSS $kb KB writing $(stat -c %s "$f") bytes of OTLP, bound 96 MiB"
    "$PCOL" pack "$f" -o "$tmp/o.pcol" 2>"$tmp/err" || fail "$kind: the export does not pack: $(head -c 300 "$tmp/err")"
    counts "$kind (exported)" "$n" samples "$count"
    counts "$kind (exported)" "$n" cpu "$cpu"
    echo "t_stream_json: $kind: exported ($(stat -c %s "$f") bytes) at $kb KB peak RSS" >&2
    # and to the Firefox Profiler's format: each thread's rows go out as
    # they are read (a column at a time through temporary files)
    /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" unpack "$tmp/o.pcol" --to firefox --no-gzip -o "$f" 2>"$tmp/err" ||
      fail "$kind: unpack --to firefox: $(head -c 300 "$tmp/err")"
    kb=$(tail -1 "$tmp/rss")
    [ "$kb" -le $((96 << 10)) ] || fail "$kind: peak RSS $kb KB writing $(stat -c %s "$f") bytes of Firefox JSON, bound 96 MiB"
    grep -q "\"length\":$n}}" "$f" || fail "$kind: the Firefox export has no thread of $n samples"
    echo "t_stream_json: $kind: to Firefox ($(stat -c %s "$f") bytes) at $kb KB peak RSS" >&2
    # and to speedscope and Perun, which held every selected row (137 MB
    # and 278 MB here): speedscope selects a source's rows again for each
    # pass, Perun's kperf style sums a stack's samples as it reads them
    if [ $kind = otlp-bin ]; then
      for to in speedscope perun; do
        /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" unpack "$tmp/o.pcol" --to $to -o "$f" 2>"$tmp/err" ||
          fail "$kind: unpack --to $to: $(head -c 300 "$tmp/err")"
        kb=$(tail -1 "$tmp/rss")
        [ "$kb" -le $((64 << 10)) ] || fail "$kind: peak RSS $kb KB writing $(stat -c %s "$f") bytes of $to, bound 64 MiB"
        if [ $to = speedscope ]; then
          grep -q "samples\",\"unit\":\"none\",\"startValue\":0,\"endValue\":$count," "$f" &&
            grep -q "cpu\",\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":$cpu," "$f" ||
            fail "$kind: the speedscope export's totals are not $count samples and $cpu ns"
        else
          got=$(python3 -c 'import json,sys; print(sum(sum(r["amount"]) for r in json.load(open(sys.argv[1]))["resources"].values()))' "$f") ||
            fail "$kind: the Perun export does not parse"
          # (the amounts are the selection's default value, cpu: fc0de87f)
          [ "$got" = "$cpu" ] || fail "$kind: the Perun export's amounts sum to $got, not $cpu ns of cpu"
        fi
        echo "t_stream_json: $kind: to $to ($(stat -c %s "$f") bytes) at $kb KB peak RSS" >&2
      done
    fi
    # and back: the document's tree is held, its sample columns as int32s or
    # doubles, not 8-byte words (lib/convert/json_tree.c), and the samples go
    # through lib/core/rowsort.c, not an array beside it (496 MB for this
    # one, then 204 MB; now 107 MB)
    if [ $kind = otlp-bin-times ]; then
      /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" pack --from firefox "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
        fail "$kind: pack of the Firefox export: $(head -c 300 "$tmp/err")"
      kb=$(tail -1 "$tmp/rss")
      [ "$kb" -le $((144 << 10)) ] || fail "$kind: peak RSS $kb KB packing the Firefox export, bound 144 MiB"
      rows=$("$PCOL" info "$tmp/o.pcol" | awk '$1 == "samples_stored" {print $2; exit}')
      [ "$rows" = "$n" ] || fail "$kind: the Firefox export packs to $rows samples, not $n"
      echo "t_stream_json: $kind: its Firefox export packed at $kb KB peak RSS" >&2
    fi
    rm -f "$f" "$tmp/o.pcol"
  done
else
  echo "t_stream_json: /usr/bin/time not installed: otlp-bin skipped" >&2
fi
# perf script text is streamed a line at a time and the builder spills its
# sample columns to temporary files past 16 MiB (lib/core/spill.c): ~1 GB
# (2.9M samples, one event), generated into a pipe, packs under an 80 MiB
# address space and gives the periods the generator summed.  Before the
# spill the sample columns grew ~24 bytes a sample in doubling buffers: 91 MB
# peak RSS, and no pack under 112 MiB; with it 29 MB (most of it the 566k
# distinct stack nodes this generator makes).  The generator is C
# (tests/support/gen_perf_big.c: the Python one took ~150 s of CPU for the
# gigabyte); the pack takes ~10 s.  The sums are added with %.0f: exact
# below 2^53 (these are ~1.1e13), where mawk's %d stops at 2^31 - 1 (so the
# two sides could not differ).
if want perf; then
  pcap=$((80 << 20))
  ${CC:-cc} -O2 -o "$tmp/gen_perf_big" tests/support/gen_perf_big.c || fail "perf: building the generator"
  # (1,053,528,021 bytes: the generator is seeded)
  "$tmp/gen_perf_big" 2900000 "$tmp/truth" |
    prlimit --as=$pcap -- "$PCOL" pack --from perf - -o "$tmp/o.pcol" 2>"$tmp/err" ||
    fail "perf: pack of a 1 GB stream under a $pcap-byte address space: $(head -c 300 "$tmp/err")"
  read -r n want <"$tmp/truth" || fail "perf: the generator's sums"
  got=$("$PCOL" fold "$tmp/o.pcol" | awk '{s+=$NF} END{printf "%.0f", s}')
  [ "$got" = "$want" ] || fail "perf: periods sum to $got, the generator wrote $want"
  rows=$("$PCOL" info "$tmp/o.pcol" | awk '$1 == "samples_stored" {print $2; exit}')
  [ "$rows" = "$n" ] || fail "perf: $rows sample rows, the generator wrote $n"
  echo "t_stream_json: perf: $n samples (~1 GB) packed under --as=$pcap" >&2
fi
# Tachyon (CPython 3.15's sampling profiler; the zstd kind too) and JFR
# (issue 43): 4M Tachyon samples (tachyongen.py big: four threads' REPEAT
# runs in turn, so not in time order; 12 MB, or 2 KB of zstd) and 2M JFR
# execution samples (gen_jfr.py: one 20,000-event chunk 100 times over,
# 54 MB) pack under a 48 MiB address space (JFR 56 MiB, below) and give the samples written.
# Read whole with every sample in an array until sorted (24 and 56 bytes a
# sample) they packed under no cap below 192 MiB (Tachyon) and 96 MiB (JFR),
# 232 MB and 196 MB peak RSS; streamed (Tachyon: its tables first, then the
# records through a window, zstd inflated as read; JFR: a chunk at a time;
# the samples sorted by lib/core/rowsort.c in runs on disk) ~28 MB.
scap=$((48 << 20))
for kind in tachyon tachyon-zstd jfr; do
  # JFR under 56 MiB: its 33.5 MB peak RSS (the builder's arrays, which
  # grow by doubling: a realloc holds old and new at once) needed 48-49 MiB
  # of address space, so 48 MiB failed or passed by a few KB of code size
  # (2026-11-29: 4 KB more text tipped it); read whole it needs 196 MB
  scap=$((48 << 20)); [ $kind = jfr ] && scap=$((56 << 20))
  want $kind || continue
  f=$tmp/big.$kind
  case $kind in
  tachyon) python3 tests/support/tachyongen.py big "$f" 4000000 >/dev/null; n=4000000 ;;
  tachyon-zstd) python3 tests/support/tachyongen.py big "$f" 4000000 --zstd >/dev/null; n=4000000 ;;
  jfr) python3 tests/support/gen_jfr.py "$f" --exec-only --samples 20000 --repeat 100; n=2000000 ;;
  esac || fail "$kind: generator"
  prlimit --as=$scap -- "$PCOL" pack --from ${kind%-zstd} "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
    fail "$kind: pack of $n samples under a $scap-byte address space: $(head -c 300 "$tmp/err")"
  counts $kind "$n" samples "$n"
  echo "t_stream_json: $kind: $n samples ($(stat -c %s "$f") bytes) packed under --as=$scap" >&2
  rm -f "$f" "$tmp/o.pcol"
done
# Perfetto: the perf_sample fixture (tests/fixtures/perfetto/, encoded by
# protoc as tests/cli/t_perfetto.sh does) 441,177 times over, 300 MB: a
# trace is a sequence of packets, so copies make one, and each copy clears
# its sequences' incremental state: 441k generations of interned data,
# 1.76M samples.  Every generation's entries were kept, and the trace copied
# whole (past 64 MiB into a mapped temporary file): 700 MB peak RSS for
# 200 MB of it.  A superseded generation's entries are now dropped (their
# slots reused), the file is mapped in place and its pages handed back as
# the two walks move on, the same clock snapshot is kept once, and the
# builder's value offsets, made explicit when a second source's two values
# come, spill as they grow: ~40 MB for 200 MB or 1 GB (5.9M samples).
# The file is mapped whole, so the bound is on peak RSS (as otlp-bin's).
if want perfetto; then
  if command -v protoc >/dev/null && [ -x /usr/bin/time ]; then
    f=$tmp/big.perfetto
    protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto \
      <tests/fixtures/perfetto/perf_sample.textproto >"$tmp/one.pftrace" || fail "perfetto: protoc --encode"
    reps=441177
    python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(d * int(sys.argv[3]))' \
      "$tmp/one.pftrace" "$f" $reps || fail "perfetto: the copies"
    /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" pack "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
      fail "perfetto: pack: $(head -c 300 "$tmp/err")"
    kb=$(tail -1 "$tmp/rss")
    [ "$kb" -le $((64 << 10)) ] || fail "perfetto: peak RSS $kb KB packing $(stat -c %s "$f") bytes, bound 64 MiB"
    # (each copy: four samples kept, of the fixture's two timebases)
    counts perfetto $((reps * 4)) samples $((reps * 4))
    echo "t_stream_json: perfetto: $((reps * 4)) samples ($(stat -c %s "$f") bytes, $reps generations) packed at $kb KB peak RSS" >&2
    # and the copies 200 to a compressed_packets packet (as traced writes
    # them with compression on), 2,206 such packets: 2.7 MB inflating to
    # 300 MB (under --max-input: 64 x the trace is the default cap).  Each
    # was inflated in the first walk and held for the second (982 MB peak
    # RSS); they now go to a temporary file past 8 MiB, mapped for the
    # second walk, its pages handed back: 42 MB.
    python3 - "$tmp/one.pftrace" "$f" 2206 <<'PY' || fail "perfetto: the compressed packets"
import sys, zlib
def varint(n):
    b = bytearray()
    while True:
        c, n = n & 0x7f, n >> 7
        b.append(c | (0x80 if n else 0))
        if not n:
            return bytes(b)
def fl(field, data):  # a length-delimited field
    return varint(field << 3 | 2) + varint(len(data)) + data
one = open(sys.argv[1], "rb").read()
# Trace.packet { compressed_packets (50): deflate of 200 copies }
open(sys.argv[2], "wb").write(fl(1, fl(50, zlib.compress(one * 200, 6))) * int(sys.argv[3]))
PY
    /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" pack --max-input 1G "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
      fail "perfetto (compressed): pack: $(head -c 300 "$tmp/err")"
    kb=$(tail -1 "$tmp/rss")
    [ "$kb" -le $((64 << 10)) ] || fail "perfetto (compressed): peak RSS $kb KB packing 300 MB of inflated packets, bound 64 MiB"
    counts "perfetto (compressed)" $((2206 * 200 * 4)) samples $((2206 * 200 * 4))
    echo "t_stream_json: perfetto: $((2206 * 200 * 4)) samples ($(stat -c %s "$f") bytes of compressed_packets) packed at $kb KB peak RSS" >&2
    rm -f "$f" "$tmp/o.pcol"
  else
    echo "t_stream_json: protoc or /usr/bin/time not installed: perfetto skipped" >&2
  fi
fi
# Perfetto's V8 form (Chromium's Profile and ProfileChunk events, their
# args.data JSON in debug annotations: lib/convert/perfetto/perfetto_v8.c)
# is read as the packets go by, a profile's chunks' text in temporary files
# (lib/convert/v8_chunks.c, as a Chrome trace's), the file mapped in place
# and its pages handed back: 96 MiB of trace (246k samples in ProfileChunks
# of 1,000, most bytes other track events; tests/support/
# gen_perfetto_v8_big.py, encoded by protoc) packs in under 32 MiB of peak
# RSS (16 MB measured; held whole, the trace alone, 3 x the bound, would
# exceed it), the samples and their times (each sample's wall, the time
# to the next, sums the deltas across the chunks) as generated, in ~2 s.  What grows is the samples (~17 bytes
# each, as a Chrome trace's: 982k samples 42 MB, 2.9M 66 MB), not the
# trace (31k samples in 300 MB: 15 MB).
if want perfetto-v8; then
  if command -v protoc >/dev/null && [ -x /usr/bin/time ]; then
    f=$tmp/big.perfetto-v8
    read -r n total wall < <(python3 tests/support/gen_perfetto_v8_big.py "$f" 96 100) || fail "perfetto-v8: generator"
    size=$(stat -c %s "$f") kb=$((32 << 10))
    [ "$size" -gt $((kb * 1024 * 3 / 2)) ] || fail "perfetto-v8: the trace ($size bytes) is not far above the bound"
    /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" pack "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
      fail "perfetto-v8: pack: $(head -c 300 "$tmp/err")"
    got=$(tail -1 "$tmp/rss")
    [ "$got" -le "$kb" ] || fail "perfetto-v8: peak RSS $got KB packing $size bytes, bound $kb KB"
    counts perfetto-v8 "$n" samples "$total"
    counts perfetto-v8 "$n" wall "$wall"
    echo "t_stream_json: perfetto-v8: $n samples ($size bytes) packed at $got KB peak RSS (bound $kb KB)" >&2
    rm -f "$f" "$tmp/o.pcol"
  else
    echo "t_stream_json: protoc or /usr/bin/time not installed: perfetto-v8 skipped" >&2
  fi
fi
# Rprof and collapsed text are read a line at a time, a Chrome trace's
# events through json_pull.c (its profiles' text in temporary files,
# lib/convert/v8_chunks.c), a Perun file walked in place (mapped, json_scan)
# (review 24 G4: said so, and no test checked it).  tests/support/
# gen_big_text.py writes each, few distinct stacks, most of a Chrome trace's
# bytes other events: 48 MB of Rprof or collapsed text packs in under 24 MiB
# of peak RSS (8 and 4 MB measured for 64 MB; 214 MB of Rprof: 36 MB), 96 MB
# of Chrome trace in under 48 MiB (30 MB for 64 MB; 240 MB: 38 MB): a
# reader holding the input whole would fail both (each input is over 1.5 x its bound).  A Perun file is one JSON
# document walked in place (mapped): its pages are handed back every 8 MiB
# walked, its events' sample rows sorted through lib/core/rowsort.c, and a
# resource type (a kperf stack) keeps 40 bytes, so its memory is the
# builder's tables (a label set a resource here) plus ~16 MiB: 2 x the file
# plus 16 MiB (27 MB of 177k resources: 57 MB; it kept the document resident,
# and ~150 bytes a type more, 56 an event: 103 MB, bench/results/perun-import.md);
# from a pipe the same (the text copied into a mapped temporary file: 61 MB;
# held in the heap, it took 77 MB).
if [ -x /usr/bin/time ]; then
  for kind in rprof collapsed chrome perun; do
    want $kind || continue
    f=$tmp/big.$kind
    case $kind in rprof | collapsed) mb=48 kb=$((24 << 10)) ;; chrome) mb=96 kb=$((48 << 10)) ;; perun) mb=32 ;; esac
    read -r n total < <(python3 tests/support/gen_big_text.py $kind "$f" $mb) || fail "$kind: generator"
    size=$(stat -c %s "$f")
    [ $kind = perun ] && kb=$((size * 2 / 1024 + (16 << 10)))
    [ $kind = perun ] || [ "$size" -gt $((kb * 1024 * 3 / 2)) ] || fail "$kind: the input ($size bytes) is not far above the bound"
    /usr/bin/time -f %M -o "$tmp/rss" "$PCOL" pack --from $kind "$f" -o "$tmp/o.pcol" 2>"$tmp/err" ||
      fail "$kind: pack: $(head -c 300 "$tmp/err")"
    got=$(tail -1 "$tmp/rss")
    [ "$got" -le "$kb" ] || fail "$kind: peak RSS $got KB packing $size bytes, bound $kb KB"
    counts $kind "$n" samples "$total"
    echo "t_stream_json: $kind: $n samples ($size bytes) packed at $got KB peak RSS (bound $kb KB)" >&2
    if [ $kind = perun ]; then
      # from a pipe, the same bound: the text is copied into a mapped
      # temporary file whose pages are handed back as a mapped file's are
      # (it was held in the heap, its buffer doubling: 77 MB here)
      "$PCOL" unpack "$tmp/o.pcol" --to perun -o "$tmp/file.perf" || fail "perun: unpack"
      /usr/bin/time -f %M -o "$tmp/rss" sh -c 'cat "$1" | "$0" pack --from perun - -o "$2"' "$PCOL" "$f" "$tmp/o.pcol" 2>"$tmp/err" ||
        fail "perun: pack from a pipe: $(head -c 300 "$tmp/err")"
      got=$(tail -1 "$tmp/rss")
      [ "$got" -le "$kb" ] || fail "perun: peak RSS $got KB packing $size bytes from a pipe, bound $kb KB"
      counts $kind "$n" samples "$total"
      "$PCOL" unpack "$tmp/o.pcol" --to perun -o "$tmp/pipe.perf" || fail "perun: unpack"
      cmp -s "$tmp/file.perf" "$tmp/pipe.perf" || fail "perun: a pipe's pack differs from the file's (unpacked to Perun)"
      echo "t_stream_json: $kind: the same from a pipe at $got KB peak RSS (bound $kb KB)" >&2
    fi
    rm -f "$f" "$tmp/o.pcol" "$tmp/file.perf" "$tmp/pipe.perf"
  done
else
  echo "t_stream_json: /usr/bin/time not installed: rprof, collapsed, chrome, perun skipped" >&2
fi
echo "t_stream_json: ok"
