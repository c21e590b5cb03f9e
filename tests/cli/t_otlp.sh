#!/usr/bin/env bash
# OpenTelemetry profiles (OTLP) in and out (doc/mappings.md §12), judged by
# upstream's own tools and data:
# - every OTLP file pcol writes is read by `protoc --decode` with the
#   upstream .proto files (format/opentelemetry/; skipped when protoc is
#   absent);
# - a real eBPF profiler message (grafana/pyroscope's test data, in the
#   shared test data) and generated messages (encoded by protoc from text
#   format, and the same as OTLP/JSON lines, length-prefixed frames, gzip)
#   pack, and every Profile's total and flat per function equal what the
#   message itself says (tests/cli/otlp_judge.py reads protoc's decoding);
#   its time_unix_nano and duration_nano reach pcol info, top's Duration:
#   line and the pprof export's time_nanos/duration_nanos to the ns;
# - pprof -> pcol -> OTLP -> pcol keeps top, peek, tags and traces
#   identical on the shared pprof files; that OTLP -> pcol -> pprof gives
#   what go tool pprof -raw shows of the original (when Go is installed);
# - messages in the Sample layout before v1.10.0 are read by it when only
#   one layout can be meant (doc/mappings.md 12.1), refused when ambiguous;
# - detection does not take pprof files, and bad input (out-of-range
#   indices, truncation) is refused with a message naming the file, nothing
#   written.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
J="python3 $REPO/tests/cli/otlp_judge.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_otlp: $*" >&2; exit 1; }
command -v python3 >/dev/null || { echo "t_otlp: SKIP (python3 not installed)"; exit 0; }
PROTO="--proto_path=$REPO/format opentelemetry/proto/profiles/v1development/profiles.proto"
MSG=opentelemetry.proto.profiles.v1development.ProfilesData
have_protoc=0
command -v protoc >/dev/null && have_protoc=1
[ $have_protoc = 1 ] || echo "t_otlp: protoc not installed: the protoc checks are skipped"
decode() { protoc $PROTO --decode=$MSG; }
# protoc reads it without an error or a warning
protoc_reads() {
  [ $have_protoc = 1 ] || return 0
  decode <"$1" >"$tmp/dec.txt" 2>"$tmp/dec.err" || fail "protoc --decode cannot read $2: $(head -3 "$tmp/dec.err")"
  [ -s "$tmp/dec.err" ] && fail "protoc --decode warns on $2: $(head -3 "$tmp/dec.err")"
  return 0
}
views() { # FILE -> the views pcol prints, without the file name
  $PCOL top "$1" -n 40 | tail -n +2
  $PCOL top "$1" --sort cum -n 40 | tail -n +2
  $PCOL tags "$1" | tail -n +2
  $PCOL traces "$1" -n 40 | tail -n +2
  $PCOL peek "$1" '.' | tail -n +2
}

# ------------------------------------------------- generated messages
$J gen >"$tmp/g.txt" || fail "generator"
$J json <"$tmp/g.txt" >"$tmp/g.jsonl" || fail "text -> OTLP/JSON"
if [ $have_protoc = 1 ]; then
  protoc $PROTO --encode=$MSG <"$tmp/g.txt" >"$tmp/g.bin" || fail "protoc --encode"
  decode <"$tmp/g.bin" | $J expect >"$tmp/g.json" || fail "judge"
  $PCOL pack "$tmp/g.bin" -o "$tmp/g.pcol" || fail "pack binary ProfilesData"
  $J compare "$PCOL" "$tmp/g.pcol" "$tmp/g.json" || fail "generated message: pcol disagrees"
  # OTLP/JSON lines: the same tables
  $PCOL pack "$tmp/g.jsonl" -o "$tmp/gj.pcol" || fail "pack OTLP/JSON"
  $J compare "$PCOL" "$tmp/gj.pcol" "$tmp/g.json" >/dev/null || fail "OTLP/JSON: pcol disagrees"
  gviews=$(views "$tmp/g.pcol") # read once: the JSON lines and the export are held to them
  [ "$gviews" = "$(views "$tmp/gj.pcol")" ] || fail "binary and JSON views differ"
  # the Collector's file exporter: 4-byte big-endian lengths, gzip, two frames
  python3 - "$tmp/g.bin" "$tmp/g.frames" <<'EOF' || fail "framing"
import struct, sys
b = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write((struct.pack(">I", len(b)) + b) * 2)
EOF
  gzip -c "$tmp/g.frames" >"$tmp/g.frames.gz"
  $PCOL pack "$tmp/g.frames.gz" -o "$tmp/gf.pcol" || fail "pack length-prefixed gzip frames"
  n1=$($PCOL info "$tmp/g.pcol" --format json | grep -c '"source_id"')
  n2=$($PCOL info "$tmp/gf.pcol" --format json | grep -c '"source_id"')
  [ "$n2" = $((2 * n1)) ] || fail "two frames gave $n2 sources, want $((2 * n1))"
  cat "$tmp/g.jsonl" "$tmp/g.jsonl" | gzip -c >"$tmp/g2.jsonl.gz"
  $PCOL pack "$tmp/g2.jsonl.gz" -o "$tmp/gj2.pcol" || fail "pack gzip JSON lines"
  cmp <($PCOL cat "$tmp/gf.pcol" --table sample_values) <($PCOL cat "$tmp/gj2.pcol" --table sample_values) ||
    fail "JSON lines and frames differ"
  # the file exporter with `compression: zstd` (marshaller.go compresses each
  # message, proto or JSON, on its own; file_writer.go frames it): read as
  # the frames above, from a file and from a pipe; a frame cut or damaged is
  # refused naming the frame
  if command -v zstd >/dev/null; then
    # refuses FILE PATTERN WHAT: pack exits 1 with a message that matches
    refuses() {
      $PCOL pack "$tmp/$1" -o "$tmp/gz.pcol" 2>"$tmp/err"; rc=$?
      [ $rc = 1 ] && grep -q "$2" "$tmp/err" || fail "$3: rc $rc: $(cat "$tmp/err")"
    }
    python3 - "$tmp/g.bin" "$tmp/g.jsonl" "$tmp" <<'EOF' || fail "zstd framing"
import struct, subprocess, sys
def z(b): return subprocess.run(["zstd", "-q", "-c"], input=b, capture_output=True, check=True).stdout
def framed(b): return struct.pack(">I", len(b)) + b
p = z(open(sys.argv[1], "rb").read())
j = z(open(sys.argv[2], "rb").read().strip())
open(sys.argv[3] + "/gz.proto", "wb").write(framed(p) * 2)
open(sys.argv[3] + "/gz.json", "wb").write(framed(j) * 2)
open(sys.argv[3] + "/gz.cut", "wb").write(framed(p) + framed(p)[:-5])
bad = bytearray(framed(p)); bad[len(bad) // 2] ^= 0xff
open(sys.argv[3] + "/gz.bad", "wb").write(framed(p) + bytes(bad))
EOF
    want=$($PCOL cat "$tmp/gf.pcol" --table sample_values)
    for f in gz.proto gz.json; do
      [ "$($PCOL info "$tmp/$f" | awk '/input_format:/{print $2}')" = otlp ] || fail "$f: not detected as OTLP"
      $PCOL pack "$tmp/$f" -o "$tmp/gz.pcol" 2>"$tmp/err" || fail "pack $f: $(cat "$tmp/err")"
      [ "$($PCOL cat "$tmp/gz.pcol" --table sample_values)" = "$want" ] || fail "$f: not the frames' samples"
      $PCOL pack - -o "$tmp/gz.pcol" <"$tmp/$f" 2>"$tmp/err" || fail "pack - <$f: $(cat "$tmp/err")"
      [ "$($PCOL cat "$tmp/gz.pcol" --table sample_values)" = "$want" ] || fail "$f from a pipe: not the frames' samples"
    done
    # a message of 16 MiB or more: its 4-byte length's first byte is not 0
    # (the exporter writes uint32(len(buf))); it was refused as a frame "not
    # whole" (a zstd frame of 16 MiB compressed), and as an "unrecognised
    # input format" when it came first (compressed, or not: the exporter's
    # format: proto, or the whole file in zstd under its native-compression
    # feature gate).  The message: g.bin with one more dictionary string,
    # 16 MiB of random bytes (incompressible)
    python3 - "$tmp/g.bin" "$tmp" <<'EOF' || fail "big zstd framing"
import os, struct, subprocess, sys
def z(b): return subprocess.run(["zstd", "-q", "-1", "-c"], input=b, capture_output=True, check=True).stdout
def framed(b): return struct.pack(">I", len(b)) + b
def varint(n):
    o = b""
    while n >= 0x80: o += bytes([n & 0x7f | 0x80]); n >>= 7
    return o + bytes([n])
def ld(f, b): return varint(f << 3 | 2) + varint(len(b)) + b
g = open(sys.argv[1], "rb").read()
big = g + ld(2, ld(5, os.urandom(16 << 20)))
zb, zg = z(big), z(g)
assert len(zb) >= 1 << 24 and len(big) >= 1 << 24
d = sys.argv[2] + "/big"
open(d + ".zframes", "wb").write(framed(zb) + framed(zg))
open(d + "2.zframes", "wb").write(framed(zg) + framed(zb))
open(d + ".frames", "wb").write(framed(big) + framed(g))
open(d + ".frames.zst", "wb").write(z(framed(big) + framed(g)))
bad = bytearray(framed(zg) + framed(zb)); bad[len(framed(zg)) + 5] ^= 0xff
open(d + ".badmagic", "wb").write(bytes(bad))
open(d + ".cut", "wb").write(framed(zg) + framed(zb)[:-1])
open(d + ".at", "w").write("%d %d %d\n" % (len(framed(zg)), len(zb), len(zb) - 1))
EOF
    for f in big.zframes big2.zframes big.frames big.frames.zst; do
      $PCOL pack "$tmp/$f" -o "$tmp/gz.pcol" 2>"$tmp/err" || fail "pack $f: $(cat "$tmp/err")"
      [ "$($PCOL cat "$tmp/gz.pcol" --table sample_values)" = "$want" ] || fail "$f: not the frames' samples"
    done
    read -r k zl cl <"$tmp/big.at"
    refuses big.badmagic "big.badmagic: damaged OTLP profiles: a sequence of 4-byte length-prefixed zstd frames (the Collector's file exporter, compression: zstd) whose frame at byte offset $k is not a zstd frame (bytes 28 4a 2f fd at byte offset $((k + 4)), not zstd's magic 28 b5 2f fd)" \
      "a frame that is not zstd"
    refuses big.cut "big.cut: truncated or damaged OTLP profiles: .* whose frame at byte offset $k is not whole ($((k + 4 + cl)) bytes; its length says $zl, $cl follow)" \
      "a big frame cut short"
    rm -f "$tmp"/big*
    # a length of any first byte is no licence for text: collapsed stacks
    # whose fifth byte is a line feed, then bytes that read as OTLP's
    # fields (66 'B'... a field of 66 bytes, then a line feed as the next
    # tag), stay collapsed stacks (text holds no control byte)
    printf 'ab 1\nBB%s 2\nz 3\n' "$(printf 'x%.0s' $(seq 63))" >"$tmp/tricky.txt"
    [ "$($PCOL info "$tmp/tricky.txt" | awk '/input_format:/{print $2}')" = collapsed ] ||
      fail "text with a line feed fifth: $($PCOL info "$tmp/tricky.txt" 2>&1 | head -3)"
    m=$(( $(wc -c <"$tmp/gz.cut") + 5 ))
    refuses gz.cut "gz.cut: truncated or damaged OTLP profiles: a sequence of 4-byte length-prefixed zstd frames (the Collector's file exporter, compression: zstd) whose frame at byte offset $((m / 2)) is not whole" \
      "cut zstd frames"
    refuses gz.bad "gz.bad (message 2, at byte offset [0-9]*): corrupt zstd data" "damaged zstd frame"
    # the frames together are under the whole input's inflate cap, as one
    # compressed stream is (each frame's own cap let 2 frames of 20 MiB, 2 KiB
    # compressed, inflate to 40 MiB, and 3 of 1 MB pass --max-input 2000000)
    python3 - "$tmp/g.jsonl" "$tmp" <<'EOF' || fail "zstd bomb framing"
import struct, subprocess, sys
def z(b): return subprocess.run(["zstd", "-q", "-c"], input=b, capture_output=True, check=True).stdout
def framed(b): return struct.pack(">I", len(b)) + b
j = open(sys.argv[1], "rb").read().strip()
open(sys.argv[2] + "/gz.bomb", "wb").write(framed(z(j + b" " * (20 << 20))) * 2)
open(sys.argv[2] + "/gz.big", "wb").write(framed(z(j + b" " * 1000000)) * 3)
EOF
    $PCOL pack --from otlp "$tmp/gz.bomb" -o "$tmp/gz.pcol" 2>"$tmp/err"; rc=$?
    [ $rc = 1 ] && grep -q "gz.bomb: zstd data inflates to more than 33554432 bytes, the limit for [0-9]* compressed bytes" "$tmp/err" ||
      fail "zstd frames past the inflate cap: rc $rc: $(cat "$tmp/err")"
    $PCOL pack --from otlp --max-input 2000000 "$tmp/gz.big" -o "$tmp/gz.pcol" 2>"$tmp/err"; rc=$?
    [ $rc = 1 ] && grep -q "gz.big: inflated profile exceeds the input limit of 2000000 bytes" "$tmp/err" ||
      fail "zstd frames past --max-input: rc $rc: $(cat "$tmp/err")"
    $PCOL pack --from otlp --max-input 4000000 "$tmp/gz.big" -o "$tmp/gz.pcol" 2>"$tmp/err" ||
      fail "zstd frames under --max-input: $(cat "$tmp/err")"
  fi
  # what the generator put in: times in order (relative to time_unix_nano),
  # thread attributes and the trace link as labels, build id on the mapping
  [ "$($PCOL cat "$tmp/g.pcol" --table samples --source 1 | cut -f3 | tail -n +2 | tr '\n' ' ')" = "5 10 20 30 40 41 " ] ||
    fail "eBPF-like samples: times $($PCOL cat "$tmp/g.pcol" --table samples | cut -f3 | tr '\n' ' ')"
  # a Profile whose time_unix_nano is 0 (unset) but whose samples have
  # timestamps: its start is the earliest one, so times count from it (from
  # the epoch they were ~472222 hours in: every --from/--to empty, exit 0),
  # a note says so, and the OTLP export writes that start and the same
  # timestamps
  sed '0,/ time_unix_nano: 1700000000000000000 duration_nano/s// duration_nano/' "$tmp/g.txt" |
    protoc $PROTO --encode=$MSG >"$tmp/z.bin" || fail "protoc --encode (time 0)"
  [ "$($PCOL cat "$tmp/z.bin" --table samples --source 1 | cut -f3 | tail -n +2 | tr '\n' ' ')" = "0 5 15 25 35 36 " ] ||
    fail "time_unix_nano 0: times $($PCOL cat "$tmp/z.bin" --table samples --source 1 | cut -f3 | tr '\n' ' ')"
  [ "$($PCOL top "$tmp/z.bin" --source 1 --from 0.000000010 --to 0.000000030 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" = 2 ] ||
    fail "time_unix_nano 0: a range since the start does not hold the samples at 15 and 25 ns"
  $PCOL info "$tmp/z.bin" | grep -q "note: *the Profile's time_unix_nano is 0: its start is its earliest sample timestamp" ||
    fail "time_unix_nano 0: no note"
  $PCOL unpack "$tmp/z.bin" --to otlp -o "$tmp/z2.bin" || fail "unpack --to otlp (time 0)"
  decode <"$tmp/z2.bin" | grep -o 'time_unix_nano: [0-9]*\|timestamps_unix_nano: [0-9]*' | head -7 | tr '\n' ' ' >"$tmp/z2.t"
  [ "$(cat "$tmp/z2.t")" = "timestamps_unix_nano: 1700000000000000005 timestamps_unix_nano: 1700000000000000010 timestamps_unix_nano: 1700000000000000020 timestamps_unix_nano: 1700000000000000030 timestamps_unix_nano: 1700000000000000040 timestamps_unix_nano: 1700000000000000041 time_unix_nano: 1700000000000000005 " ] ||
    fail "time_unix_nano 0: the export's times: $(cat "$tmp/z2.t")"
  $PCOL tags "$tmp/g.pcol" | grep -q 'worker-2' || fail "thread.name attribute is not a label"
  $PCOL cat "$tmp/g.pcol" --table sample_labels | grep -q '0102030405060708090a0b0c0d0e0f10' || fail "trace id lost"
  $PCOL cat "$tmp/g.pcol" --table mappings | grep -q abcdef0123 || fail "build id attribute lost"
  $PCOL cat "$tmp/g.pcol" --table meta | grep -q 'otel.resource.service.name' || fail "resource attribute lost"
  # pcol -> OTLP -> pcol: protoc reads it, the views and the numbers stay
  $PCOL unpack "$tmp/g.pcol" --to otlp -o "$tmp/g2.bin" || fail "unpack --to otlp"
  protoc_reads "$tmp/g2.bin" "the export of the generated message"
  $PCOL pack "$tmp/g2.bin" -o "$tmp/g2.pcol" || fail "pack the export"
  [ "$gviews" = "$(views "$tmp/g2.pcol")" ] || fail "generated: views change through OTLP"
  decode <"$tmp/g2.bin" | $J expect >"$tmp/g2.json"
  $J compare "$PCOL" "$tmp/g2.pcol" "$tmp/g2.json" >/dev/null || fail "export: pcol disagrees with protoc"
  $PCOL cat "$tmp/g2.pcol" --table sample_labels | grep -q '0102030405060708090a0b0c0d0e0f10' ||
    fail "trace id lost through the export"
  # the period (spec.md §7's period rule): the first Profile's period_type
  # and period as protoc reads them from the message reach pcol info, the
  # pprof export (protoc's reading of its bytes, and go tool pprof -raw's
  # PeriodType:/Period: lines) and pcol info/top of that export packed again
  period_of() { # protoc's text of an OTLP message or a pprof Profile -> "TYPE UNIT PERIOD"
    python3 -c '
import re, sys
t = sys.stdin.read()
strs = [eval(s) for s in re.findall(r"^\s*string_table: (\".*\")$", t, re.M)]
m = re.search(r"period_type \{\s*type(?:_strindex)?: (\d+)\s*unit(?:_strindex)?: (\d+)\s*\}\s*period: (\d+)", t)
print(strs[int(m.group(1))], strs[int(m.group(2))], m.group(3)) if m else print("none")'
  }
  want=$(decode <"$tmp/g.bin" | period_of)
  [ "$want" != none ] || fail "the generated message has no period"
  $PCOL unpack "$tmp/g.pcol" --source 1 --to pprof -o "$tmp/g1.pb.gz" || fail "generated: unpack --to pprof"
  got=$(gunzip -c "$tmp/g1.pb.gz" | protoc --proto_path="$REPO/format" profile.proto --decode=perftools.profiles.Profile | period_of)
  [ "$got" = "$want" ] || fail "OTLP -> pprof: period type and period $got, the message's $want"
  if command -v go >/dev/null 2>&1; then
    set -- $want
    go tool pprof -raw "$tmp/g1.pb.gz" 2>/dev/null | grep -a '^Period' >"$tmp/g1.raw"
    printf 'PeriodType: %s %s\nPeriod: %s\n' "$1" "$2" "$3" | cmp -s - "$tmp/g1.raw" ||
      fail "OTLP -> pprof: go tool pprof -raw shows $(cat "$tmp/g1.raw"), the message has $want"
  fi
  pinfo() { $PCOL info "$1" --format json | grep -o '"period":[^,]*,"period_type":[^,]*,"period_unit":[^,]*' | head -1; }
  set -- $want
  [ "$(pinfo "$tmp/g.pcol")" = "\"period\":$3,\"period_type\":\"$1\",\"period_unit\":\"$2\"" ] ||
    fail "pcol info: source 1's period $(pinfo "$tmp/g.pcol"), the message's $want"
  $PCOL pack "$tmp/g1.pb.gz" -o "$tmp/g1.pcol" || fail "pack the pprof export"
  [ "$(pinfo "$tmp/g1.pcol")" = "$(pinfo "$tmp/g.pcol")" ] || fail "otlp -> pprof -> pcol: info's period changes"
  [ "$($PCOL top "$tmp/g1.pcol" | tail -n +2)" = "$($PCOL top "$tmp/g.pcol" --source 1 | tail -n +2)" ] ||
    fail "otlp -> pprof -> pcol: top changes"
fi

# ---------------------------------------- the eBPF profiler, for real
E=$TD/ext/pprof/ODD-otlp-ebpf-profile.pb.bin
if [ -f "$E" ]; then
  $PCOL pack "$E" -o "$tmp/e.pcol" || fail "pack the eBPF profiler's message"
  # each source (a Profile of one process) is named by its resource as a
  # Chrome trace's threads are, FILE: EXECUTABLE (pid P), TYPE (review 18
  # F9: all 82 were named by the file alone, in info, --source and the
  # report's menu); an export and its read-back keep the names
  srcnames() { $PCOL info "$1" | sed -n 's/^source [0-9]*: *otlp //p'; }
  srcnames "$E" >"$tmp/e.names"
  [ "$(sort -u "$tmp/e.names" | wc -l)" = 82 ] || fail "eBPF: not 82 distinct source names: $(sort "$tmp/e.names" | uniq -d | head -3)"
  [ "$(sed -n 1p "$tmp/e.names")" = "$E: pid 66, off_cpu" ] && [ "$(sed -n 7p "$tmp/e.names")" = "$E: containerd (pid 2001), off_cpu" ] ||
    fail "eBPF: sources 1 and 7 are named $(sed -n '1p;7p' "$tmp/e.names")"
  grep -c ', samples$' "$tmp/e.names" | grep -qx 5 || fail "eBPF: not 5 sources of samples/count by name"
  $PCOL unpack "$E" --to otlp -o "$tmp/en.bin" || fail "eBPF: unpack --to otlp"
  [ "$(srcnames "$tmp/en.bin")" = "$(cat "$tmp/e.names")" ] || fail "eBPF: the OTLP export renames the sources"
  if [ $have_protoc = 1 ]; then
    decode <"$E" | $J expect >"$tmp/e.json" || fail "judge eBPF"
    $J compare "$PCOL" "$tmp/e.pcol" "$tmp/e.json" || fail "eBPF profiler message: pcol disagrees"
    $PCOL unpack "$tmp/e.pcol" --to otlp -o "$tmp/e2.bin" || fail "eBPF: unpack --to otlp"
    protoc_reads "$tmp/e2.bin" "the eBPF export"
    $PCOL pack "$tmp/e2.bin" -o "$tmp/e2.pcol" || fail "eBPF: pack the export"
    $J compare "$PCOL" "$tmp/e2.pcol" "$tmp/e.json" >/dev/null || fail "eBPF: the export changes the numbers"
  fi
  # profile ids (doc/mappings.md §12): made from each Profile's content, the
  # same on every run (they were keyed per process); an OTLP input's own
  # ids come back through a round trip; a range is another profile
  ids() { $PCOL cat "$1" --table meta | awk -F'\t' '$1 == "otlp.profile_id"' ; }
  $PCOL unpack "$tmp/e.pcol" --to otlp -o "$tmp/e2.bin" || fail "eBPF: unpack --to otlp"
  $PCOL unpack "$tmp/e.pcol" --to otlp -o "$tmp/e2b.bin" || fail "eBPF: unpack --to otlp again"
  cmp -s "$tmp/e2.bin" "$tmp/e2b.bin" || fail "eBPF: two exports of the same file differ"
  $PCOL pack "$tmp/e2.bin" -o "$tmp/e2.pcol" || fail "eBPF: pack the export"
  [ "$(ids "$tmp/e2.pcol" | wc -l)" = "$($PCOL info "$tmp/e.pcol" --format json | grep -c '"source_id"')" ] ||
    fail "eBPF: the export does not give each source a profile id"
  [ "$(ids "$tmp/e2.pcol" | cut -f2 | sort -u | wc -l)" = "$(ids "$tmp/e2.pcol" | wc -l)" ] ||
    fail "eBPF: two profiles of the export share an id"
  $PCOL unpack "$tmp/e2.pcol" --to otlp -o "$tmp/e3.bin" && $PCOL pack "$tmp/e3.bin" -o "$tmp/e3.pcol" ||
    fail "eBPF: the second round trip"
  [ "$(ids "$tmp/e2.pcol")" = "$(ids "$tmp/e3.pcol")" ] || fail "eBPF: a round trip changes the profile ids"
  $PCOL unpack "$tmp/e2.pcol" -t otlp --from 1 --to 3 -o "$tmp/e4.bin" && $PCOL pack "$tmp/e4.bin" -o "$tmp/e4.pcol" ||
    fail "eBPF: a range's export"
  # source 1 has samples from 36 ms to 4.5 s: the range cuts it
  one() { ids "$1" | awk -F'\t' '$3 == 1 {print $2}'; }
  [ -n "$(one "$tmp/e4.pcol")" ] && [ "$(one "$tmp/e4.pcol")" != "$(one "$tmp/e2.pcol")" ] ||
    fail "eBPF: the part of source 1 in a range keeps the id of the whole ($(one "$tmp/e4.pcol"))"
  # the start and the duration (spec.md §7: otlp.time_unix_nano and
  # otlp.duration_nano) as the message has them (protoc's reading of its
  # first Profile, source 1's), to the ns: in pcol info, in top's Duration:
  # line and in the pprof export's time_nanos and duration_nanos (read from
  # its bytes), and go tool pprof prints the Time: and Duration: lines of
  # that export that pcol top prints of the OTLP file
  if [ $have_protoc = 1 ]; then
    t=$(decode <"$E" | awk '$1 == "time_unix_nano:" {print $2; exit}')
    d=$(decode <"$E" | awk '$1 == "duration_nano:" {print $2; exit}')
    [ -n "$t" ] && [ -n "$d" ] || fail "eBPF: protoc shows no time_unix_nano or duration_nano"
    $PCOL unpack "$E" --source 1 --to pprof -o "$tmp/e1.pb.gz" || fail "eBPF: unpack --to pprof"
    [ "$(python3 "$REPO/tests/support/pprof_times.py" "$tmp/e1.pb.gz")" = "$t $d" ] ||
      fail "eBPF -> pprof: time_nanos duration_nanos $(python3 "$REPO/tests/support/pprof_times.py" "$tmp/e1.pb.gz"), want $t $d"
    $PCOL info "$E" --format json | grep -q "\"source_id\":1,.*\"duration_ns\":$d," ||
      fail "eBPF: pcol info's duration of source 1 is not $d ns"
    $PCOL top "$E" --source 1 >"$tmp/e1.top" || fail "eBPF: top --source 1"
    grep -q '^Duration: ' "$tmp/e1.top" || fail "eBPF: top prints no Duration: line: $(head -5 "$tmp/e1.top")"
    if command -v go >/dev/null 2>&1; then
      go tool pprof -symbolize=none -top "$tmp/e1.pb.gz" 2>/dev/null | grep -a '^\(Time\|Duration\): ' >"$tmp/e1.go"
      [ "$(wc -l <"$tmp/e1.go")" = 2 ] && grep '^\(Time\|Duration\): ' "$tmp/e1.top" | cmp -s - "$tmp/e1.go" ||
        fail "eBPF: pcol top's Time:/Duration: lines differ from go tool pprof's of the pprof export: $(cat "$tmp/e1.go")"
    fi
    # the message's 82 Profiles are one capture (spec.md §7 "Recordings"):
    # the whole file's duration is their span, from the earliest
    # time_unix_nano to the latest time_unix_nano + duration_nano (protoc's
    # reading), not their sum; the pprof export says so, and an OTLP copy
    # read back says the same
    span=$(decode <"$E" | python3 -c '
import sys
t = a = b = None
for l in sys.stdin:
    w = l.split()
    if len(w) == 2 and w[0] == "time_unix_nano:": t = int(w[1])
    if len(w) == 2 and w[0] == "duration_nano:":
        a = t if a is None else min(a, t); b = t + int(w[1]) if b is None else max(b, t + int(w[1]))
print(b - a)')
    $PCOL unpack "$E" --to pprof -o "$tmp/eall.pb.gz" || fail "eBPF: unpack the whole --to pprof"
    [ "$(python3 "$REPO/tests/support/pprof_times.py" "$tmp/eall.pb.gz" | cut -d' ' -f2)" = "$span" ] ||
      fail "eBPF: the whole file's duration_nanos $(python3 "$REPO/tests/support/pprof_times.py" "$tmp/eall.pb.gz"), want the Profiles' span $span"
    $PCOL unpack "$E" --to otlp -o "$tmp/eall.otlp.pb" && $PCOL unpack "$tmp/eall.otlp.pb" --to pprof -o "$tmp/eall2.pb.gz" ||
      fail "eBPF: OTLP round trip"
    [ "$(python3 "$REPO/tests/support/pprof_times.py" "$tmp/eall2.pb.gz" | cut -d' ' -f2)" = "$span" ] ||
      fail "eBPF: the OTLP copy's duration $(python3 "$REPO/tests/support/pprof_times.py" "$tmp/eall2.pb.gz"), want $span"
  fi
else
  echo "t_otlp: no $E: the eBPF profiler check is skipped"
fi

# -------------------------------------------- pprof -> OTLP -> pcol
n=0
for f in "$TD"/pprof/*.pb.gz "$TD"/pprof/*.pb; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  case $b in legacy-*) continue ;; esac
  $PCOL unpack "$f" --to otlp -o "$tmp/p.otlp" || fail "$b: unpack --to otlp"
  protoc_reads "$tmp/p.otlp" "$b's export"
  $PCOL pack "$tmp/p.otlp" -o "$tmp/p.pcol" || fail "$b: pack the OTLP export"
  $PCOL pack "$f" -o "$tmp/o.pcol" || fail "$b: pack"
  # detection does not take a pprof file for OTLP: the source pack found
  # (read from the packed file, not by importing the input once more)
  case $b in *.pb.gz)
    $PCOL cat "$tmp/o.pcol" --table sources | grep -q pprof || fail "$b is no longer detected as pprof" ;;
  esac
  case $b in
  edge-invalid-utf8*) # OTLP strings are UTF-8: invalid bytes become U+FFFD (doc/mappings.md §12.2)
    $PCOL cat "$tmp/p.pcol" --table functions --format json | grep -q '\\u0000' || fail "$b: NUL byte lost"
    $PCOL cat "$tmp/p.pcol" --table functions --format json | grep -q '\\ufffd\|�' || fail "$b: no U+FFFD" ;;
  *) [ "$(views "$tmp/o.pcol")" = "$(views "$tmp/p.pcol")" ] || fail "$b: views differ after pprof -> OTLP -> pcol" ;;
  esac
  # OTLP -> pcol -> pprof: what go tool pprof shows of the original
  if command -v go >/dev/null 2>&1 && [ "${b#edge-invalid-utf8}" = "$b" ]; then
    $PCOL unpack "$tmp/p.otlp" --to pprof -o "$tmp/back.pb.gz" || fail "$b: OTLP -> pprof"
    # -raw: every sample, location, mapping, label and profile field
    a=$(go tool pprof -symbolize=none -raw "$f" 2>&1 | md5sum)
    c=$(go tool pprof -symbolize=none -raw "$tmp/back.pb.gz" 2>&1 | md5sum)
    [ "$a" = "$c" ] || fail "$b: go tool pprof -raw differs on pprof -> OTLP -> pcol -> pprof"
    n=$((n + 1))
  fi
done

# ------------------------------------------------ detection and errors
# (every pprof/*.pb.gz is detected as pprof: checked in the loop above)
$PCOL pack examples/demo.out -o "$tmp/demo.pcol" || fail "pack demo"
$PCOL unpack "$tmp/demo.pcol" --to otlp -o "$tmp/demo.otlp" || fail "Rprof -> OTLP"
protoc_reads "$tmp/demo.otlp" "the Rprof export"
$PCOL pack "$tmp/demo.otlp" -o "$tmp/demo2.pcol" || fail "Rprof -> OTLP -> pcol"
[ "$($PCOL top "$tmp/demo.pcol" | tail -n +2)" = "$($PCOL top "$tmp/demo2.pcol" | tail -n +2)" ] ||
  fail "Rprof -> OTLP -> pcol: top differs"
# Sources without a wall-clock start (Rprof, perf script, V8, a Chrome
# trace's CPU profiles: times since the source's start; a trace's profiles
# on one timeline, the later renderer's first sample 1.00598 s in): their
# OTLP export keeps those times (time_unix_nano 0, pcol.time_base), so
# pcol info's times and a --from/--to range select the same samples as on
# the input (they moved by the first timestamp: Rprof's and perf's by one
# interval, V8's first-sample offset lost, each renderer re-based to its own
# first sample) and no 1970 date is printed.  Each range cuts the samples;
# the want is the input's own top.
python3 "$REPO/tests/support/gen_perf_script.py" "$tmp/rt-perf.txt" /dev/null --samples 100 || fail "gen_perf_script"
python3 "$REPO/tests/support/v8gen.py" random "$tmp/rt-v8.cpuprofile" 7 || fail "v8gen"
python3 - "$tmp/rt-two.json" <<'EOF' || fail "two-renderer trace"
import json, sys
ev = []
for pid, start, n in ((11, 5000000, 600), (22, 6000000, 400)):
    ev.append({"ph": "P", "name": "Profile", "pid": pid, "tid": pid, "ts": start, "id": "0x1",
               "args": {"data": {"startTime": start}}})
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)"}},
             {"id": 2, "parent": 1, "callFrame": {"functionName": "f%d" % pid, "url": "a.js"}},
             {"id": 3, "parent": 2, "callFrame": {"functionName": "g%d" % pid, "url": "a.js"}}]
    deltas = [5980] + [1000 + 37 * (i % 5) for i in range(n - 1)]
    ev.append({"ph": "P", "name": "ProfileChunk", "pid": pid, "tid": 99, "ts": start + 1, "id": "0x1",
               "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": [2 + i % 2 for i in range(n)]},
                                 "timeDeltas": deltas}}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
EOF
times() { $PCOL info "$1" | grep -E '^ *(time|samples|duration|note): '; }
# V8 samples last until the next one and a range counts the part of each
# inside it (spec.md §7.1); OTLP holds no sample durations, so their copy
# reads back as point samples (doc/mappings.md §8): the ranges there end at
# sample times, where both count the same samples whole (--source S: the
# samples S of each source)
at() { $PCOL cat "$1" --table samples | awk -F'\t' -v s="$2" -v k="$3" -v m="$4" \
  '$2 == s { n++; if (n == k) a = $3; if (n == m) b = $3 } END { printf "%.9f %.9f", a / 1e9, b / 1e9 }'; }
for c in "examples/demo.out:0 0.05:0.1 0.2" "$tmp/rt-perf.txt:0 0.05:0.1 0.2" \
         "$tmp/rt-v8.cpuprofile:$(at "$tmp/rt-v8.cpuprofile" 1 11 61):$(at "$tmp/rt-v8.cpuprofile" 1 71 91)" \
         "$tmp/rt-two.json:$(at "$tmp/rt-two.json" 1 11 41) --source 1:$(at "$tmp/rt-two.json" 2 101 131) --source 2"; do
  in=${c%%:*} r=${c#*:}
  $PCOL unpack "$in" --to otlp -o "$tmp/rt.otlp" 2>"$tmp/err" || fail "$in -> OTLP: $(cat "$tmp/err")"
  [ "$(times "$in")" = "$(times "$tmp/rt.otlp")" ] ||
    fail "$in -> OTLP: info's times differ: $(diff <(times "$in") <(times "$tmp/rt.otlp") | tr '\n' ' ')"
  for ab in "${r%:*}" "${r#*:}"; do
    set -- $ab
    $PCOL top "$in" --from $1 --to $2 "${@:3}" 2>"$tmp/err" | tail -n +2 >"$tmp/rt.want"
    $PCOL top "$tmp/rt.otlp" --from $1 --to $2 "${@:3}" | tail -n +2 >"$tmp/rt.got"
    # (the check is void when the range holds no sample, or all of them)
    [ ! -s "$tmp/err" ] && ! grep -qF "$($PCOL top "$in" | grep '^Showing')" "$tmp/rt.want" ||
      fail "$in: --from $1 --to $2 ${*:3} does not cut the samples: $(cat "$tmp/err")"
    cmp -s "$tmp/rt.want" "$tmp/rt.got" ||
      fail "$in -> OTLP: top --from $1 --to $2 ${*:3} differs: $(diff "$tmp/rt.want" "$tmp/rt.got" | head -6 | tr '\n' ' ')"
  done
done
# The Sample layout before v1.10.0 (opentelemetry-proto v1.9.0 and older:
# values 2, attribute_indices 3, link_index 4; v1.10.0: 2, 3, 4 are
# attribute_indices, link_index, values), messages built here byte by byte
# from profiles.proto's field numbers: read by their layout when only one
# can be meant (the totals are the hand-written values), refused when the
# samples could be either or mix both.  Each: ProfilesData with one
# Profile (sample_type samples/count) and a dictionary of 3 attributes.
python3 - "$tmp" <<'EOF' || fail "layout generator"
import struct, sys
def v(n):
    o = b""
    while n >= 0x80:
        o += bytes([n & 0x7f | 0x80]); n >>= 7
    return o + bytes([n])
def f(num, payload): return v(num << 3 | 2) + v(len(payload)) + payload
def packed(num, xs): return f(num, b"".join(v(x) for x in xs))
def ts(xs): return f(5, b"".join(struct.pack("<Q", x) for x in xs))
strs = b"".join(f(5, s) for s in (b"", b"samples", b"count", b"k", b"v"))
attr = f(6, b"") + f(6, v(1 << 3) + v(3) + f(2, f(1, b"v"))) + f(6, v(1 << 3) + v(3) + f(2, f(1, b"w")))
# attributes: [0] null, [1] k=v, [2] k=w
dic = f(1, b"") + f(2, b"") + f(3, b"") + f(7, b"") + strs + attr
def msg(*samples):
    prof = f(1, v(1 << 3) + v(1) + v(2 << 3) + v(2)) + v(3 << 3 | 1) + struct.pack("<Q", 10**18)
    prof += b"".join(f(2, v(1 << 3) + v(0) + s) for s in samples)
    return f(1, f(2, f(2, prof))) + f(2, dic)
t0 = 10**18 + 5
cases = {
    # v1.9: attribute_indices packed in field 3: values [5], k=v
    "v9attr": msg(packed(2, [5]) + packed(3, [1])),
    # v1.9: values alone, no timestamps (as v1.10 they would have neither)
    "v9bare": msg(packed(2, [7]), packed(2, [4])),
    # v1.9: link_index a varint in field 4
    "v9link": msg(packed(2, [1]) + ts([t0]) + v(4 << 3) + v(1)),
    # v1.9: a value no attribute index can be
    "v9range": msg(packed(2, [1000]) + ts([t0])),
    # v1.10: two attributes and one timestamp, no values (the counts differ)
    "v10ts": msg(packed(2, [1, 2]) + ts([t0])),
    # v1.10: values packed in field 4
    "v10val": msg(packed(2, [1]) + packed(4, [6])),
    # either: [1] is values [1] or attribute [1], one timestamp each way
    "either": msg(packed(2, [1]) + ts([t0])),
    # both layouts' marks: refused
    "both": msg(packed(2, [5]) + packed(3, [1]), packed(2, [1]) + packed(4, [6])),
}
for k, m in cases.items():
    open("%s/%s.bin" % (sys.argv[1], k), "wb").write(m)
EOF
total_of() { $PCOL top "$1" --unit raw 2>/dev/null | sed -n 's/.* of \([0-9]*\) total.*/\1/p'; }
for c in v9attr:5:v1.9 v9bare:11:v1.9 v9range:1000:v1.9 v10ts:1: v10val:6:; do
  IFS=: read -r k want lay <<<"$c"
  $PCOL pack "$tmp/$k.bin" -o "$tmp/$k.pcol" 2>"$tmp/err" || fail "$k: refused: $(cat "$tmp/err")"
  [ "$(total_of "$tmp/$k.pcol")" = "$want" ] || fail "$k: total $(total_of "$tmp/$k.pcol"), want $want"
  got=$($PCOL cat "$tmp/$k.pcol" --table meta --format csv | awk -F, '$1 == "otlp.sample_layout" {print $2}')
  [ "$got" = "$lay" ] || fail "$k: otlp.sample_layout '$got', want '$lay'"
done
# (these samples have no stack: pprof -tags leaves them out, -tagroot counts
# them, so their labels are read through top --by label)
$PCOL top "$tmp/v9attr.pcol" --by label:k | grep -q '  v$' || fail "v9attr: the attribute k=v is lost: $($PCOL top "$tmp/v9attr.pcol" --by label:k)"
[ "$($PCOL top "$tmp/v10ts.pcol" --by label:k | grep -c '  [vw]$')" = 2 ] || fail "v10ts: the attributes k=v, k=w are lost: $($PCOL top "$tmp/v10ts.pcol" --by label:k)"
for c in "v9link:link index 1, outside the table" "either:as well as after" "both:both before and after"; do
  k=${c%%:*}
  $PCOL pack "$tmp/$k.bin" --from otlp -o "$tmp/$k.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] || fail "$k: exit $rc, want 1"
  grep -q "$k.bin: malformed OTLP profiles: .*${c#*:}" "$tmp/err" || fail "$k: $(cat "$tmp/err")"
  [ -e "$tmp/$k.pcol" ] && fail "$k: a refused input left an output file"
done
# attribute values nested past the bound (protobuf-c decodes by recursion)
python3 - "$tmp/deep.bin" <<'EOF' || fail "deep generator"
import sys
def v(n):
    o = b""
    while n >= 0x80:
        o += bytes([n & 0x7f | 0x80]); n >>= 7
    return o + bytes([n])
def f(num, p): return v(num << 3 | 2) + v(len(p)) + p
a = f(1, b"x")
for i in range(200):
    a = f(5, f(1, a))  # AnyValue { array_value { values: a } }
dic = f(5, b"") + f(5, b"k") + f(6, b"") + f(6, v(1 << 3) + v(1) + f(2, a))
open(sys.argv[1], "wb").write(f(2, dic))
EOF
$PCOL pack "$tmp/deep.bin" --from otlp -o "$tmp/deep.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "deep.bin.*nests .* more than 64 deep" "$tmp/err" || fail "deep nesting: rc $rc: $(cat "$tmp/err")"
if [ $have_protoc = 1 ]; then
  sed 's/stack_index: 3 attribute_indices: 2 values: 2/stack_index: 9 attribute_indices: 2 values: 2/' "$tmp/g.txt" |
    protoc $PROTO --encode=$MSG >"$tmp/bad.bin"
  $PCOL pack "$tmp/bad.bin" -o "$tmp/bad.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "bad.bin.*stack index 9, outside the table" "$tmp/err" || fail "out-of-range stack: rc $rc: $(cat "$tmp/err")"
  head -c 300 "$tmp/g.bin" >"$tmp/trunc.bin"
  $PCOL pack "$tmp/trunc.bin" --from otlp -o "$tmp/t.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "trunc.bin" "$tmp/err" || fail "truncated message: rc $rc: $(cat "$tmp/err")"
  sed 's/"samples":\[{"stackIndex"/"samples":[{"locationsStartIndex":1,"stackIndex"/' "$tmp/g.jsonl" >"$tmp/oldj.jsonl"
  $PCOL pack "$tmp/oldj.jsonl" -o "$tmp/oj.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "oldj.jsonl:1: OTLP/JSON .*locationsStartIndex: unknown key" "$tmp/err" ||
    fail "older JSON key: rc $rc: $(cat "$tmp/err")"
fi
# a cut or damaged binary says where: the offset of the field or message
# that is not whole (as the pprof importer does), not "not OTLP"
printf 'main;f 3\nmain;g;h 2\n' >"$tmp/c.txt"
$PCOL unpack "$tmp/c.txt" --to otlp -o "$tmp/c.bin" || fail "unpack collapsed --to otlp"
n=$(wc -c <"$tmp/c.bin")
for k in 20 $((n / 2)) $((n - 1)); do
  head -c "$k" "$tmp/c.bin" >"$tmp/cut.bin"
  $PCOL pack "$tmp/cut.bin" --from otlp -o "$tmp/cut.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "cut.bin: truncated OTLP profiles: the field at byte offset [0-9]* (field [12], wire type 2) runs past the end ($k bytes)" "$tmp/err" ||
    fail "cut at $k of $n bytes: rc $rc: $(cat "$tmp/err")"
done
python3 -c '
import struct, sys
m = open(sys.argv[1], "rb").read()
one = struct.pack(">I", len(m)) + m
open(sys.argv[2], "wb").write((one + one)[:-3])' "$tmp/c.bin" "$tmp/seq.bin" || fail "sequence"
$PCOL pack "$tmp/seq.bin" --from otlp -o "$tmp/seq.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "seq.bin: truncated or damaged OTLP profiles: a sequence of 4-byte length-prefixed messages whose message at byte offset $((n + 4)) is not whole" "$tmp/err" ||
  fail "cut sequence: rc $rc: $(cat "$tmp/err")"
# a binary message whose first field is 123 bytes long starts "\n{" (tag 1,
# length 0x7b): read as protobuf, not as OTLP/JSON (was "invalid JSON");
# found by tests/interop/t_export_search.sh.  The stacks' count and values
# that make that length are searched for, so the case stays one.
found=
for n in 10 11 12 13 14; do
  for k in 0 1 2 3 4 5 6; do
    python3 -c 'import sys
n, k = int(sys.argv[1]), int(sys.argv[2])
sys.stdout.write("".join("main;f%d %d\n" % (i, 200 if i < k else i + 1) for i in range(n)))' $n $k >"$tmp/b123.txt"
    $PCOL unpack "$tmp/b123.txt" --to otlp -o "$tmp/b123.bin" || fail "unpack --to otlp ($n, $k)"
    [ "$(head -c 2 "$tmp/b123.bin" | od -An -tx1 | tr -d ' ')" = 0a7b ] && { found=1; break 2; }
  done
done
if [ -z "$found" ]; then
  fail "no collapsed input here gives an OTLP message whose first field is 123 bytes"
else
  $PCOL fold "$tmp/b123.bin" >"$tmp/b123.out" 2>"$tmp/err" || fail "a message starting \\n{: $(cat "$tmp/err")"
  diff <(sort "$tmp/b123.txt") <(sort "$tmp/b123.out") >/dev/null || fail "a message starting \\n{: fold differs"
fi
# a message of two Profiles of the same samples makes one source: a
# recording of its own, no pcol.recording_part (spec.md §7)
python3 - "$tmp/og.json" <<'PY'
import json, sys
S = ["", "samples", "count", "cpu", "nanoseconds", "main"]
ix = {s: i for i, s in enumerate(S)}
def prof(t, u, vals):
    return {"sampleType": {"typeStrindex": ix[t], "unitStrindex": ix[u]},
            "timeUnixNano": "1700000000000000000", "durationNano": "1000000000",
            "samples": [{"stackIndex": 1, "values": [str(v)], "timestampsUnixNano": ["1700000000100000000"]} for v in vals]}
doc = {"dictionary": {"mappingTable": [{}], "locationTable": [{}, {"lines": [{"functionIndex": 1}]}],
        "functionTable": [{}, {"nameStrindex": ix["main"]}], "stackTable": [{}, {"locationIndices": [1]}],
        "stringTable": S, "attributeTable": [{}]},
       "resourceProfiles": [{"scopeProfiles": [{"profiles": [prof("samples", "count", [1]), prof("cpu", "nanoseconds", [10000000])]}]}]}
json.dump(doc, open(sys.argv[1], "w"))
PY
[ "$($PCOL cat "$tmp/og.json" --table sources --format tsv | tail -n +2 | wc -l)" = 1 ] || fail "two Profiles of the same samples: not one source"
! $PCOL cat "$tmp/og.json" --table meta | grep -q recording_part || fail "a lone source of a message has a recording part"
# ------------------------------------------------- a time range's export
# Each Profile states its source's window in the range (THE range rule of
# the header, pcol_sources_time: what pcol top of the range says): its
# time_unix_nano where the range's part begins, its duration_nano the
# part's length, the samples' timestamps_unix_nano the instants they were;
# read by protoc --decode, and by pcol (top's Time:/Duration: of the copy
# are the range's).  Before, every Profile stated its source's whole
# window (Duration: 4s of a 1 s range).  window_gen.py: one.json [T0, T0 +
# 4 s) and later.json [T0 + 100 s, T0 + 102 s), sampled every 10 ms.
T0=1767225658
python3 "$REPO/tests/support/window_gen.py" "$tmp" $T0 || fail "window_gen.py"
$PCOL merge "$tmp/one.json" "$tmp/later.json" -o "$tmp/w.pcol" || fail "merge one.json later.json"
S=000000000
for c in "one.json --from 1 --to 2|$((T0 + 1))$S 1000000000|$((T0 + 1))$S" \
         "one.json --from 2.5 --to 3|$((T0 + 2))500000000 500000000|$((T0 + 2))500000000" \
         "one.json --from @$((T0 + 3)).5|$((T0 + 3))500000000 500000000|$((T0 + 3))500000000" \
         "one.json --to 1|$T0$S 1000000000|$T0$S" \
         "w.pcol --from 1 --to 2|$((T0 + 1))$S 1000000000 $((T0 + 101))$S 1000000000|$((T0 + 1))$S $((T0 + 101))$S" \
         "w.pcol --source 2 --from 1.5|$((T0 + 101))500000000 500000000|$((T0 + 101))500000000"; do
  set -- ${c%%|*}
  f=$1
  shift
  $PCOL unpack "$tmp/$f" "$@" --to otlp -o "$tmp/w.otlp" || fail "$f $*: unpack"
  [ "$(TZ=UTC $PCOL top "$tmp/w.otlp" -n 1 | grep -E '^(Time|Duration):')" = \
    "$(TZ=UTC $PCOL top "$tmp/$f" "$@" -n 1 | grep -E '^(Time|Duration):')" ] ||
    fail "$f $*: the copy's Time:/Duration: are not the range's: $(TZ=UTC $PCOL top "$tmp/w.otlp" -n 1 | head -4)"
  [ $have_protoc = 1 ] || continue
  decode <"$tmp/w.otlp" >"$tmp/w.txt" || fail "$f $*: protoc --decode"
  want=${c#*|}
  got=$(grep -E '^      (time_unix_nano|duration_nano):' "$tmp/w.txt" | awk '{print $2}' | tr '\n' ' ')
  [ "$got" = "${want%|*} " ] || fail "$f $*: time_unix_nano, duration_nano of each Profile are '$got', want '${want%|*}'"
  got=$(awk '/^      samples \{/ {s = 1} s && /timestamps_unix_nano/ {print $2; s = 0}' "$tmp/w.txt" |
    awk 'NR == 1 || $1 - p > 1000000000 {printf "%s ", $1} {p = $1}')
  [ "$got" = "${want#*|} " ] || fail "$f $*: each Profile's first sample at '$got', not at its instant '${want#*|}'"
done

# nul_in_a_string_value: a string holding NUL (OTLP/JSON's \u0000; on the
# wire a NUL byte, where protobuf-c's strings end) is read whole and
# written whole: function names "fu\0nc" and "fu\0nd" (two functions, not
# one "fu"), thread.name values (AnyValue.string_value), the resource's
# service.name and the scope's name.  pcol -> OTLP -> pcol keeps top's
# names, tags' values and the meta byte for byte (their JSON's \u0000);
# protoc --decode_raw finds every one whole in the bytes the export wrote.
# Before: the OTLP/JSON import refused \u0000, and the export cut every
# string but the string table's at its NUL ("th", "sv", "sc").
python3 - "$tmp/nul.jsonl" <<'EOF' || fail "nul: writing the OTLP/JSON"
import json, sys
doc = {"resourceProfiles": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "sv\0c"}}]},
       "scopeProfiles": [{"scope": {"name": "sc\0pe"}, "profiles": [{"sampleType": {"typeStrindex": 1, "unitStrindex": 2},
        "samples": [{"stackIndex": 1, "values": ["3"], "attributeIndices": [1]},
                    {"stackIndex": 2, "values": ["5"], "attributeIndices": [2]}]}]}]}],
       "dictionary": {"mappingTable": [{}], "locationTable": [{}, {"lines": [{"functionIndex": 1}]},
                                                              {"lines": [{"functionIndex": 2}]}],
                      "functionTable": [{}, {"nameStrindex": 3}, {"nameStrindex": 4}],
                      "stackTable": [{}, {"locationIndices": [1]}, {"locationIndices": [2, 1]}],
                      "stringTable": ["", "samples", "count", "fu\0nc", "fu\0nd", "thread.name"],
                      "attributeTable": [{}, {"keyStrindex": 5, "value": {"stringValue": "th\0read"}},
                                         {"keyStrindex": 5, "value": {"stringValue": "th\0reae"}}],
                      "linkTable": [{}]}}
open(sys.argv[1], "w").write(json.dumps(doc) + "\n")
EOF
grep -q 'fu\\u0000nc' "$tmp/nul.jsonl" || fail "nul: json.dumps wrote no \\u0000"
$PCOL pack "$tmp/nul.jsonl" -o "$tmp/nul.pcol" || fail "nul: OTLP/JSON holding \\u0000 refused"
$PCOL unpack "$tmp/nul.pcol" --to otlp -o "$tmp/nul.bin" || fail "nul: unpack --to otlp"
nul_views() { # the names, values and meta read, as JSON (NUL: \u0000)
  $PCOL top "$1" --format json | grep -o '"name":"[^"]*"' | sort
  $PCOL tags "$1" --format json | grep -o '"value":"[^"]*","amount":[0-9]*' | sort
  $PCOL cat "$1" --table meta --format json | grep -o '"key":"otel[^}]*' | sort
}
nul_views "$tmp/nul.pcol" >"$tmp/nul.a" || fail "nul: the views of the pcol file"
nul_views "$tmp/nul.bin" >"$tmp/nul.b" || fail "nul: the views of its OTLP copy"
for w in '"name":"fu\u0000nc"' '"name":"fu\u0000nd"' '"value":"th\u0000read","amount":3' \
         '"value":"th\u0000reae","amount":5' '"key":"otel.resource.service.name","value":"sv\u0000c"' \
         '"key":"otel.scope_name","value":"sc\u0000pe"'; do
  grep -qF "$w" "$tmp/nul.a" || fail "nul: the import cut a string: no $w in $(tr '\n' ' ' <"$tmp/nul.a")"
done
cmp -s "$tmp/nul.a" "$tmp/nul.b" || fail "nul: pcol -> OTLP -> pcol changed a string: $(diff "$tmp/nul.a" "$tmp/nul.b" | head -6)"
if [ $have_protoc = 1 ]; then
  protoc --decode_raw <"$tmp/nul.bin" >"$tmp/nul.raw" || fail "nul: protoc --decode_raw"
  for w in 'fu\000nc' 'fu\000nd' 'th\000read' 'th\000reae' 'sv\000c' 'sc\000pe'; do
    grep -qF "\"$w\"" "$tmp/nul.raw" || fail "nul: protoc --decode_raw finds no \"$w\" in the export"
  done
  protoc_reads "$tmp/nul.bin" "the export of strings holding NUL"
fi
echo "t_otlp: ok"
