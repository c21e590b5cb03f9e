#!/usr/bin/env bash
# Exports that must read back, and collapsed input as speedscope reads it
# (issue 27): every input here is built by a generator in this file.
#  - a Perun file whose real amounts are stored at 1e-8 (too large for 1e-9):
#    the collapsed export prints fold's numbers, which equal the sums of the
#    JSON amounts (it printed the stored integers, x10^8);
#  - counts past 64 bits: the collapsed export refuses them (it wrote lines
#    that no collapsed reader takes, exit 0);
#  - a name with NUL: the Perun export reads back (it wrote \u0000);
#  - collapsed text in UTF-16 (LE and BE, with a BOM) and with comment and
#    junk lines: read as speedscope reads it, junk skipped with a warning;
#  - an empty input, and the hint for an unknown one, name options that exist;
#  - unpack's range is --from/--to as in every command (--to FORMAT kept);
#  - Rprof memory in the pprof, OTLP, speedscope and Firefox exports.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_exports: $*" >&2; exit 1; }

# --- Perun amounts at 1e-8: collapsed export = fold = the JSON's own sums
cat > "$tmp/big.perf" <<'J'
{"header": {"type": "time", "units": {"time": "ms"}},
 "resource_type_map": {"a#0": {"uid": "main;f", "type": "time"}, "b#0": {"uid": "main;g", "type": "time"}},
 "resources": {"a#0": {"amount": [10000000000.5, 2.5]}, "b#0": {"amount": [1.5, 0.5]}}}
J
want=$(python3 - "$tmp/big.perf" <<'PY'
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
out = {}
for k, r in d["resources"].items():
    uid = d["resource_type_map"][k]["uid"]
    out[uid] = out.get(uid, Decimal(0)) + sum(r["amount"])
for uid in sorted(out):
    v = out[uid].normalize()
    print(uid, format(v, "f"))
PY
)
$PCOL pack "$tmp/big.perf" -o "$tmp/big.pcol" || fail "pack big.perf"
$PCOL info "$tmp/big.pcol" | grep -q '1e-8 ms' || fail "the generator no longer makes a 1e-8 file: $($PCOL info "$tmp/big.pcol" | grep values)"
got=$($PCOL unpack "$tmp/big.pcol" --to collapsed -o - | sort) || fail "collapsed export of big.perf"
[ "$got" = "$want" ] || fail "collapsed export of 1e-8 amounts: got [$got], the amounts sum to [$want]"
[ "$($PCOL fold "$tmp/big.pcol")" = "$want" ] || fail "fold of 1e-8 amounts: $($PCOL fold "$tmp/big.pcol")"
$PCOL unpack "$tmp/big.pcol" --to collapsed -o "$tmp/big.txt" && $PCOL pack "$tmp/big.txt" -o "$tmp/big2.pcol" ||
  fail "the collapsed export does not read back"
[ "$($PCOL fold "$tmp/big2.pcol")" = "$want" ] || fail "read back: $($PCOL fold "$tmp/big2.pcol")"

# --- a count past 64 bits of 1e-9 beside one with decimals: refused (a
# reader adds a file's counts in 1e-9 once one has decimals; fold printed
# 9223372036.854775807 for such a file, exit 0)
sed 's/"amount": \[1.5, 0.5\]/"amount": [1.5, 0.25]/' "$tmp/big.perf" > "$tmp/mixed.perf"
$PCOL pack "$tmp/mixed.perf" -o "$tmp/mixed.pcol" || fail "pack mixed.perf"
$PCOL unpack "$tmp/mixed.pcol" --to collapsed -o "$tmp/mixed.txt" 2>"$tmp/err" && fail "mixed: exported $(cat "$tmp/mixed.txt")"
grep -q 'larger than collapsed stacks hold' "$tmp/err" || fail "message: $(cat "$tmp/err")"
printf 'a 10000000003\nb 1.5\n' > "$tmp/mix.txt"
$PCOL fold "$tmp/mix.txt" >"$tmp/out" 2>"$tmp/err" && fail "mixed collapsed input read as $(cat "$tmp/out")"
grep -q 'mix.txt:2: counts beyond 9223372036 (line 1) and counts with decimals (line 2)' "$tmp/err" || fail "message: $(cat "$tmp/err")"

# --- a sum past 64 bits: refused with a message, no file left
cat > "$tmp/huge.perf" <<'J'
{"header": {"type": "time", "units": {"time": "ms"}},
 "resource_type_map": {"a#0": {"uid": "main;f", "type": "time"}},
 "resources": {"a#0": {"amount": [6000000000.25, 6000000000.5]}}}
J
$PCOL pack "$tmp/huge.perf" -o "$tmp/huge.pcol" || fail "pack huge.perf"
$PCOL unpack "$tmp/huge.pcol" --to collapsed -o "$tmp/huge.txt" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "collapsed export past 64 bits: exit $rc (want 1), $(cat "$tmp/err")"
grep -q 'larger than collapsed stacks hold' "$tmp/err" || fail "message: $(cat "$tmp/err")"
[ ! -e "$tmp/huge.txt" ] || fail "a refused export left a file"
# ... the formats that hold it still export it and read back
for fmt in pprof perun; do
  $PCOL unpack "$tmp/huge.pcol" --to $fmt -o "$tmp/huge.$fmt" && $PCOL pack "$tmp/huge.$fmt" -o "$tmp/huge.$fmt.pcol" ||
    fail "huge.perf -> $fmt does not read back"
done

# --- a function name with NUL (valid UTF-8 around it) -> Perun -> pcol
python3 - "$tmp/nul.pb.gz" <<'PY'
import gzip, sys
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f; n >>= 7
        if n: out.append(b | 0x80)
        else: out.append(b); return bytes(out)
def field(num, wt, payload):
    if wt == 0: return varint(num << 3) + varint(payload)
    return varint(num << 3 | 2) + varint(len(payload)) + payload
p = field(1, 2, field(1, 0, 1) + field(2, 0, 2))                   # samples/count
p += field(2, 2, field(1, 2, varint(1)) + field(2, 2, varint(3)))  # 3 at location 1
p += field(4, 2, field(1, 0, 1) + field(4, 2, field(1, 0, 1)))     # location 1: function 1
p += field(5, 2, field(1, 0, 1) + field(2, 0, 3))                  # function 1: name 3
for s in [b"", b"samples", b"count", "caf\u00e9\0main".encode()]:
    p += field(6, 2, s)
open(sys.argv[1], "wb").write(gzip.compress(p))
PY
$PCOL unpack "$tmp/nul.pb.gz" --to perun -o "$tmp/nul.perf" || fail "nul -> perun"
$PCOL pack "$tmp/nul.perf" -o "$tmp/nul.pcol" 2>"$tmp/err" || fail "the Perun export of a NUL name does not read back: $(cat "$tmp/err")"
[ "$($PCOL fold "$tmp/nul.pcol" | sed 's/ [0-9]*$//')" = "café main" ] || fail "NUL name in Perun: $($PCOL fold "$tmp/nul.pcol")"

# --- collapsed text as speedscope reads it
printf 'a;b;c 1\na;b;c 1\na;b;d 4\na;b;c 3\na;b 5\n' > "$tmp/s.txt"
python3 - "$tmp/s.txt" "$tmp" <<'PY'
import sys
t = open(sys.argv[1], encoding="utf-8").read().replace("\n", "\r\n")
open(sys.argv[2] + "/le.txt", "wb").write(b"\xff\xfe" + t.encode("utf-16-le"))
open(sys.argv[2] + "/be.txt", "wb").write(b"\xfe\xff" + t.encode("utf-16-be"))
# a name outside the BMP (a surrogate pair) and one with an accent
u = "main;\U0001F600 7\r\nmain;caf\u00e9 2\r\n"
open(sys.argv[2] + "/u.txt", "wb").write(b"\xff\xfe" + u.encode("utf-16-le"))
open(sys.argv[2] + "/u8.txt", "w", encoding="utf-8").write(u.replace("\r\n", "\n"))
PY
want=$($PCOL fold "$tmp/s.txt")
for e in le be; do
  got=$($PCOL fold "$tmp/$e.txt" 2>"$tmp/err") || fail "UTF-16 $e: $(cat "$tmp/err")"
  [ "$got" = "$want" ] || fail "UTF-16 $e: [$got] want [$want]"
done
[ "$($PCOL fold "$tmp/u.txt")" = "$($PCOL fold "$tmp/u8.txt")" ] || fail "UTF-16 beyond ASCII: $($PCOL fold "$tmp/u.txt")"
{ printf '# comment that gives extra info about the samples\n// another comment\n'
  cat "$tmp/s.txt"; printf 'invalid line\n'; } > "$tmp/inv.txt"
got=$($PCOL fold "$tmp/inv.txt" 2>"$tmp/err") || fail "comment and junk lines: $(cat "$tmp/err")"
[ "$got" = "$want" ] || fail "comment and junk lines: [$got] want [$want]"
grep -q 'warning: .*inv.txt: skipped 3 lines .*line 1' "$tmp/err" || fail "no warning counting the skipped lines: $(cat "$tmp/err")"
$PCOL pack "$tmp/s.txt" -o "$tmp/s.pcol" 2>"$tmp/err" && [ ! -s "$tmp/err" ] || fail "a clean file warns: $(cat "$tmp/err")"

# --- empty input, unknown input: the hints name options that exist
: > "$tmp/empty.txt"
$PCOL pack "$tmp/empty.txt" -o "$tmp/e.pcol" 2>"$tmp/err" && fail "an empty file packed without a format"
grep -q 'empty input.*pcol pack --from collapsed' "$tmp/err" || fail "empty input message: $(cat "$tmp/err")"
$PCOL pack --from collapsed "$tmp/empty.txt" -o "$tmp/e.pcol" || fail "the hint's command fails"
printf 'hello\nworld\n' > "$tmp/what.txt"
$PCOL top "$tmp/what.txt" 2>"$tmp/err" && fail "unknown text read"
grep -q 'name the format with `pcol pack --from FORMAT' "$tmp/err" || fail "unknown-format hint: $(cat "$tmp/err")"
$PCOL pack --help | grep -q -- '--from' || fail "the hint names a pack option that does not exist"

# --- unpack's range: --from/--to seconds as in every command
R=tests/fixtures/rprof
rp=$(ls $R/*.out | head -1)
tot() { awk '{s += $NF} END {print s + 0}'; }
want=$($PCOL top "$rp" --value samples --from 0.02 --to 0.06 --format tsv | awk -F'\t' 'NR > 1 {s += $1} END {print s + 0}')
a=$($PCOL unpack "$rp" -t collapsed --from 0.02 --to 0.06 -o - | tot) || fail "unpack -t collapsed --from --to"
b=$($PCOL unpack "$rp" --to collapsed --from-time 0.02 --to-time 0.06 -o - | tot) || fail "unpack --from-time/--to-time"
c=$($PCOL unpack "$rp" --format collapsed --from 0.02 --to-time 0.06 -o - | tot) || fail "unpack --format --from --to-time"
[ "$a" = "$want" ] && [ "$b" = "$want" ] && [ "$c" = "$want" ] || fail "unpack range: $a $b $c, top says $want"
$PCOL unpack "$rp" --to collapsed --from 0.02 -o - >/dev/null || fail "unpack --to FORMAT --from S"
$PCOL unpack "$rp" --to 0.06 -o - 2>"$tmp/err" && fail "no format, exit 0"
grep -q 'missing the output format' "$tmp/err" || fail "message: $(cat "$tmp/err")"
$PCOL unpack "$rp" --to collapsed --format pprof -o - 2>/dev/null && fail "two formats accepted"
# --to twice, a range's end and a format in either order (user review 5:
# only the last was kept, so the range silently lost its end)
d=$($PCOL unpack "$rp" --from 0.02 --to 0.06 --to collapsed -o - | tot) || fail "unpack --to S --to FORMAT"
e=$($PCOL unpack "$rp" --to collapsed --from 0.02 --to 0.06 -o - | tot) || fail "unpack --to FORMAT --to S"
[ "$d" = "$want" ] && [ "$e" = "$want" ] || fail "unpack --to twice: $d $e, top says $want"
for bad in "--to collapsed --to pprof" "--to 0.02 --to 0.06" "--to 0.02 --to collapsed --to 0.06" \
           "--to 0.06 --to collapsed --format pprof"; do
  $PCOL unpack "$rp" $bad -o "$tmp/two.out" 2>"$tmp/err"; rc=$?
  [ $rc = 2 ] && [ ! -e "$tmp/two.out" ] && grep -q -- '--to' "$tmp/err" || fail "unpack $bad: exit $rc, $(cat "$tmp/err")"
done

# --- messages (user review defect 27): a full disk says so, in every writer
if [ -w /dev/full ]; then
  $PCOL pack "$tmp/s.txt" -o "$tmp/s.pcol" || fail "pack s.txt"
  for c in "top" "fold" "cat --table samples" "flame -o /dev/full" "unpack --to collapsed -o /dev/full" \
           "unpack --to perun -o /dev/full" "unpack --to speedscope -o /dev/full" "unpack --to rprof -o /dev/full" \
           "unpack --to pprof -o /dev/full" "unpack --to perfetto -o /dev/full"; do
    set -- $c
    cmd=$1; shift
    $PCOL $cmd "$tmp/s.pcol" "$@" >/dev/full 2>"$tmp/err"; rc=$?
    [ $rc = 3 ] && grep -q 'No space left on device' "$tmp/err" || fail "pcol $c on a full disk: exit $rc, '$(cat "$tmp/err")'"
  done
  # (v8, chrome: a time value, which s.txt's counts are not)
  for to in v8 chrome; do
    for o in /dev/full /dev/full.gz; do
      ln -sf /dev/full "$tmp/full.cpuprofile.gz"
      [ $o = /dev/full ] || o=$tmp/full.cpuprofile.gz
      $PCOL unpack examples/demo.out --to $to -o $o 2>"$tmp/err"; rc=$?
      [ $rc = 3 ] && grep -q 'No space left on device' "$tmp/err" || fail "unpack --to $to -o $o on a full disk: exit $rc, '$(cat "$tmp/err")'"
    done
  done
fi
$PCOL cat --help | grep -q 'see below' && fail "cat --help says 'see below' for a list above it"

# --- titles and export names: the input's name, never the directory typed
# before it (the source's URI keeps the path as given at pack time, and the
# page's data keeps it: only its title is the name)
mkdir -p "$tmp/secret dir" && cp examples/demo.out "$tmp/secret dir/run.out"
$PCOL pack "$tmp/secret dir/run.out" -o "$tmp/secret dir/run.pcol" || fail "pack of run.out"
$PCOL info "$tmp/secret dir/run.pcol" | grep -q "rprof $tmp/secret dir/run.out" || fail "the URI keeps the path as given"
$PCOL unpack "$tmp/secret dir/run.pcol" --to speedscope -o "$tmp/n.speedscope.json" &&
  $PCOL unpack "$tmp/secret dir/run.out" --to firefox -o "$tmp/n.firefox.json" &&
  $PCOL report "$tmp/secret dir/run.pcol" -o "$tmp/n.html" || fail "exports of run.pcol"
grep -l 'secret dir' "$tmp"/n.*.json && fail "an export name carries the input's directory"
python3 - "$tmp" <<'PY' || fail "export names are not the input's file name"
import json, re, sys
t = sys.argv[1]
s = json.load(open(t + "/n.speedscope.json"))
assert s["name"] == "run.out" and all(p["name"].startswith("run.out: ") for p in s["profiles"]), s["name"]
f = json.load(open(t + "/n.firefox.json"))
assert all(th["processName"] == "run.out" for th in f["threads"]), [th["processName"] for th in f["threads"]]
h = open(t + "/n.html").read()
assert re.search(r'"title":"run\.pcol"', h), re.findall(r'"title":"[^"]*"', h)[:2]
PY
# --- Rprof memory leaves Rprof (issue 44 item 1): the memory each sample
# allocated (summaryRprof's rule, computed here from the Rprof text itself:
# the positive increases of small x 8, large x 8 and nodes against the line
# before) is a bytes-valued sample type in pprof (as go tool pprof
# -sample_index reads it) and OTLP (as protoc decodes it), a bytes profile
# in speedscope and a counter in Firefox, whose levels (vsize.small,
# vsize.large, nodes) are counters too: their running sums are the levels.
TD=${PCOL_TESTDATA:-../shared/testdata}
for rm in "$TD/rprof/r-prof-profile__memory.out" tests/fixtures/rprof/memgc-snapshots.out; do
  [ -f "$rm" ] || continue
  b=$(basename "$rm")
  python3 - "$rm" > "$tmp/mem.want" <<'PY'
import json, re, sys
prev, total, flat, last = None, 0, {}, None
for line in open(sys.argv[1], encoding="latin-1"):
    m = re.match(r':(\d+):(\d+):(\d+):(\d+):(.*)', line)
    if not m:
        continue
    cur = (int(m.group(1)) * 8, int(m.group(2)) * 8, int(m.group(3)))
    a = sum(max(0, c - p) for c, p in zip(cur, prev)) if prev else 0
    prev = last = cur
    names = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(5))
    leaf = names[0] if names else "<no stack>"
    total += a
    if names:
        flat[leaf] = flat.get(leaf, 0) + a
print(json.dumps({"total": total, "flat": {k: v for k, v in flat.items() if v}, "levels": last}))
PY
  want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$tmp/mem.want")
  [ "$want" -gt 0 ] || fail "$b: the judge finds no allocation"
  top=$($PCOL top "$rm" --value rprof.alloc --unit bytes --format tsv | awk -F'\t' 'NR > 1 {s += $1} END {print s + 0}')
  [ "$top" = "$want" ] || fail "$b: pcol top --value rprof.alloc = $top, the Rprof text says $want"
  $PCOL unpack "$rm" --to pprof -o "$tmp/m.pb.gz" || fail "$b: unpack --to pprof"
  # it opens on the Rprof input's default, its time (cpu), not on
  # rprof.alloc, the last sample type, which pprof takes without a
  # default_sample_type (an R CPU profile read as memory)
  t1=$($PCOL top "$rm" | sed -n 2p) t2=$($PCOL top "$tmp/m.pb.gz" | sed -n 2p)
  [ "$t1" = "Type: cpu" ] && [ "$t2" = "$t1" ] ||
    fail "$b: the pprof export opens on '$t2', the Rprof file on '$t1'"
  if command -v go >/dev/null; then
    t3=$(cd "$tmp" && go tool pprof -top m.pb.gz 2>/dev/null | grep '^Type:')
    [ "$t3" = "Type: cpu" ] || fail "$b: go tool pprof opens the pprof export on '$t3', not cpu"
    (cd "$tmp" && go tool pprof -sample_index=rprof.alloc -top -unit=bytes -nodefraction=0 m.pb.gz) \
      >"$tmp/gp.txt" 2>"$tmp/gp.err" || fail "$b: go tool pprof -sample_index=rprof.alloc: $(head -2 "$tmp/gp.err")"
    python3 - "$tmp/mem.want" "$tmp/gp.txt" <<'PY' || fail "$b: go tool pprof's rprof.alloc differs from the Rprof text"
import json, re, sys
w = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
assert "Type: rprof.alloc" in t, t[:200]
m = re.search(r'accounting for (\d+)B, [\d.]+% of (\d+)B total', t)
assert m and int(m.group(2)) == w["total"], (m and m.group(0), w["total"])
got = {}
for line in t.splitlines():
    f = re.match(r'\s*(\d+)B\s+\S+\s+\S+\s+\d+B\s+\S+\s+(.*)$', line)
    if f and int(f.group(1)):
        got[f.group(2)] = int(f.group(1))
assert got == w["flat"], (got, w["flat"])
PY
  fi
  $PCOL unpack "$rm" --to otlp -o "$tmp/m.otlp" || fail "$b: unpack --to otlp"
  if command -v protoc >/dev/null; then
    protoc --proto_path=format opentelemetry/proto/profiles/v1development/profiles.proto \
      --decode=opentelemetry.proto.profiles.v1development.ProfilesData <"$tmp/m.otlp" |
      python3 tests/cli/otlp_judge.py expect >"$tmp/otlp.json" || fail "$b: protoc --decode of the OTLP export"
    python3 - "$tmp/mem.want" "$tmp/otlp.json" <<'PY' || fail "$b: the OTLP export's rprof.alloc differs from the Rprof text"
import json, sys
w = json.load(open(sys.argv[1]))
p = [p for p in json.load(open(sys.argv[2])) if p["type"] == "rprof.alloc"]
assert len(p) == 1 and p[0]["unit"] == "bytes" and p[0]["total"] == w["total"], (p, w["total"])
assert {k: v for k, v in p[0]["flat"].items() if v} == w["flat"], (p[0]["flat"], w["flat"])
PY
  fi
  $PCOL unpack "$rm" --to speedscope -o "$tmp/m.speedscope.json" || fail "$b: unpack --to speedscope"
  $PCOL unpack "$rm" --to firefox --no-gzip -o "$tmp/m.firefox.json" || fail "$b: unpack --to firefox"
  python3 - "$tmp/mem.want" "$tmp/m.speedscope.json" "$tmp/m.firefox.json" <<'PY' || fail "$b: speedscope/Firefox memory differs from the Rprof text"
import json, sys
w = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
fr = s["shared"]["frames"]
p = [p for p in s["profiles"] if p["name"].endswith(": rprof.alloc")]
assert len(p) == 1 and p[0]["unit"] == "bytes" and sum(p[0]["weights"]) == w["total"], [q["name"] for q in s["profiles"]]
flat = {}
for st, wt in zip(p[0]["samples"], p[0]["weights"]):
    if st and wt:
        flat[fr[st[-1]]["name"]] = flat.get(fr[st[-1]]["name"], 0) + wt
assert flat == w["flat"], (flat, w["flat"])
f = json.load(open(sys.argv[3]))
c = {c["name"]: c for c in f["counters"]}
assert sum(c["rprof.alloc"]["samples"]["count"]) == w["total"], c.keys()
for name, level in zip(("vsize.small", "vsize.large", "nodes"), w["levels"]):
    assert sum(c[name]["samples"]["count"]) == level, (name, sum(c[name]["samples"]["count"]), level)
    assert c[name]["samples"]["length"] == len(c[name]["samples"]["time"]) == len(c[name]["samples"]["count"])
PY
done
# a Perun memory profile's bytes (its weight) are a Firefox counter too: the
# profiler draws memory only from a counter; its sum is the file's own amounts
pm="$TD/perun/memory-basic.perf"
if [ -f "$pm" ]; then
  $PCOL unpack "$pm" --to firefox --no-gzip -o "$tmp/pm.firefox.json" || fail "unpack memory-basic.perf --to firefox"
  python3 - "$pm" "$tmp/pm.firefox.json" <<'PY' || fail "memory-basic.perf: no Firefox memory counter of its amounts"
import json, sys
d = json.load(open(sys.argv[1]))
want = sum(a for r in d["resources"].values() for a in r["amount"])
c = [c for c in json.load(open(sys.argv[2]))["counters"] if c["display"]["unit"] == "bytes"]
assert len(c) == 1 and sum(c[0]["samples"]["count"]) == want, ([x["name"] for x in c], want)
PY
fi
# speedscope: equal consecutive samples are one sample of their summed
# weight, but never past an int64 (a Perun file's huge amounts added up to
# 1.17e19, which no reader takes), and a total past an int64 is written as
# a double: the export reads back, with fold's numbers
printf 'main;big 9000000000000000000\nmain;big 9000000000000000000\nmain;small 5\n' >"$tmp/big.folded"
$PCOL unpack "$tmp/big.folded" --to speedscope -o "$tmp/big.json" && $PCOL pack "$tmp/big.json" -o "$tmp/big.pcol" 2>"$tmp/err" ||
  fail "speedscope export of weights summing past an int64 does not read back: $(head -1 "$tmp/err")"
printf 'main;big 18000000000000000000\nmain;small 5\n' | diff - <($PCOL fold "$tmp/big.pcol") >"$tmp/d" ||
  fail "speedscope export past an int64: $(cat "$tmp/d")"
# --- a source with more value types than the derived ones (9 > PCOL_XV_MAX):
# the pprof and OTLP exports keep all nine (they refused "export values: no
# room"); the hand-made pprof's sample has t<i> = i + 1, so t8 is 9
python3 - "$tmp/nine.pb" <<'PY'
import sys
def varint(v):
    b = b''
    while True:
        c, v = v & 0x7f, v >> 7
        if not v: return b + bytes([c])
        b += bytes([c | 0x80])
def fld(f, wt, p):
    return varint(f << 3) + varint(p) if wt == 0 else varint(f << 3 | 2) + varint(len(p)) + p
n, out = 9, b''
for i in range(n): out += fld(1, 2, fld(1, 0, 3 + i) + fld(2, 0, 1))
out += fld(2, 2, fld(1, 2, varint(1)) + fld(2, 2, b''.join(varint(i + 1) for i in range(n))))
out += fld(4, 2, fld(1, 0, 1) + fld(4, 2, fld(1, 0, 1))) + fld(5, 2, fld(1, 0, 1) + fld(2, 0, 2))
for s in ['', 'count', 'main'] + ['t%d' % i for i in range(n)]: out += fld(6, 2, s.encode())
open(sys.argv[1], 'wb').write(out)
PY
$PCOL pack "$tmp/nine.pb" -o "$tmp/nine.pcol" || fail "pack of nine value types"
for to in pprof otlp; do
  $PCOL unpack --to $to "$tmp/nine.pcol" -o "$tmp/nine.$to" 2>"$tmp/err" ||
    fail "$to export of nine value types: $(head -1 "$tmp/err")"
  $PCOL pack "$tmp/nine.$to" -o "$tmp/nine2.pcol" || fail "$to export of nine value types: no read-back"
  printf 'main 9\n' | diff - <($PCOL fold --value t8 "$tmp/nine2.pcol") >"$tmp/d" ||
    fail "$to export of nine value types: $(cat "$tmp/d")"
done
# --- the Rprof export of a time-weighted source without a period (perf
# script's cpu-clock, V8's wall): a sample is its time in ticks of the
# times' greatest common divisor (doc/mappings.md §1.2), so summaryRprof's
# sampling.time is the profile's time (it wrote 10 ms a line: 453 perf
# samples of 1.001 ms were 4.53 s in summaryRprof, 0.453 s in pcol top and
# perf report); V8's samples last 4, 4, 4 and 0 ms (until the next one):
# 4000 us, leaf 8 ms and main 4 ms as pcol top says (at its 3 ms per
# sample, the export said leaf 9 ms, main 3 ms)
for k in 1 2; do
  printf 'prog 100 %d.000100:    2000000 cpu-clock: \n\t    1000 leaf+0x0 (/bin/prog)\n\t    2000 main+0x0 (/bin/prog)\n\n' "$k"
done >"$tmp/t.perf"
printf 'prog 100 3.000100:    2000000 cpu-clock: \n\t    2000 main+0x0 (/bin/prog)\n\n' >>"$tmp/t.perf"
cat >"$tmp/t.cpuprofile" <<'J'
{"nodes": [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "", "lineNumber": -1, "columnNumber": -1}, "children": [2]},
 {"id": 2, "callFrame": {"functionName": "main", "scriptId": "1", "url": "", "lineNumber": -1, "columnNumber": -1}, "children": [3]},
 {"id": 3, "callFrame": {"functionName": "leaf", "scriptId": "1", "url": "", "lineNumber": -1, "columnNumber": -1}}],
 "startTime": 1000, "endTime": 14000, "samples": [3, 3, 2, 3], "timeDeltas": [0, 4000, 4000, 4000]}
J
for x in "t.perf 2000 6000000" "t.cpuprofile 4000 12000000"; do
  set -- $x
  $PCOL unpack "$tmp/$1" --to rprof -o "$tmp/$1.out" || fail "$1: unpack --to rprof"
  h=$(head -1 "$tmp/$1.out")
  [ "$h" = "sample.interval=$2" ] || fail "$1: the Rprof export's header is '$h', not sample.interval=$2"
  for f in "$tmp/$1" "$tmp/$1.out"; do
    tot=$($PCOL top "$f" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
    [ "$tot" = "$3" ] || fail "$1: pcol top $(basename "$f") totals $tot ns, not $3"
  done
  if command -v Rscript >/dev/null; then
    st=$(Rscript -e 'cat(summaryRprof(commandArgs(TRUE)[1])$sampling.time)' "$tmp/$1.out")
    [ "$st" = "$(python3 -c "print($3 / 1e9)")" ] || fail "$1: summaryRprof's sampling.time is $st s, not $3 ns"
  fi
done
# two sources of one kind of time and different times per sample (V8
# profiles of samples of 4 ms and 1234 us): one header of the greatest
# common divisor of their intervals (4000, 1234: 2 us), so summaryRprof's
# times are pcol top's of the two, up to its rounding to 1 us (it wrote 10
# ms a line: 80 ms for 15.702 ms; at the sources' times per sample rounded
# to 3 digits, within 0.5% in total, each function by its samples)
sed -e 's/"timeDeltas": \[0, 4000, 4000, 4000\]/"timeDeltas": [0, 1234, 1234, 1234]/' \
  -e 's/"endTime": 14000/"endTime": 4702/' "$tmp/t.cpuprofile" >"$tmp/u.cpuprofile"
$PCOL unpack "$tmp/t.cpuprofile" "$tmp/u.cpuprofile" --to rprof -o "$tmp/tu.out" 2>"$tmp/err" ||
  fail "two V8 profiles: unpack --to rprof: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "two V8 profiles: a warning for sources alike: $(cat "$tmp/err")"
h=$(head -1 "$tmp/tu.out")
[ "$h" = "sample.interval=2" ] || fail "two V8 profiles: the Rprof export's header is '$h', not sample.interval=2"
$PCOL top "$tmp/t.cpuprofile" "$tmp/u.cpuprofile" --format json >"$tmp/tu.json" ||
  fail "two V8 profiles: pcol top"
if command -v Rscript >/dev/null; then
  Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1]); cat(s$sampling.time, "\n"); b <- s$by.self; cat(paste(rownames(b), b$self.time), sep = "\n")' \
    "$tmp/tu.out" >"$tmp/tu.r" || fail "two V8 profiles: summaryRprof"
  python3 - "$tmp" <<'PY' || fail "two V8 profiles: summaryRprof's times are not the sources' ($(tr '\n' ' ' <"$tmp/tu.r"))"
import json, sys
d = sys.argv[1]
top = json.load(open(d + "/tu.json"))
total = top["total"] / 1e9
want = {r["name"]: r["flat"] / 1e9 for r in top["rows"] if r["flat"]}
lines = open(d + "/tu.r").read().split("\n")
got = {l.split()[0].strip('"'): float(l.split()[1]) for l in lines[1:] if l.strip()}
assert abs(float(lines[0]) - total) <= 1e-9, (lines[0], total)
assert set(got) == set(want), (got, want)
for k, v in got.items():  # summaryRprof rounds to 3 decimals below 10 ms a tick
    assert abs(v - want[k]) <= 0.0005 + 1e-9, (k, v, want[k])
PY
fi
# sources that measure different values (a JFR recording's CPU and
# allocation samples; here a perf recording beside collapsed stacks): the
# Rprof text makes each sample one tick of one interval, so the export
# warns, naming the kinds, and not for one source of them
printf 'main;leaf 3\n' >"$tmp/t.folded"
$PCOL unpack "$tmp/t.perf" "$tmp/t.folded" --to rprof -o "$tmp/mix.out" 2>"$tmp/err" || fail "mixed: unpack --to rprof"
grep -q "warning: .*the sources measure different values, so Rprof's lines count each sample as one tick.*--source N" "$tmp/err" ||
  fail "mixed sources to rprof: no warning: $(cat "$tmp/err")"
# a source of a measured time and no period (V8's wall) keeps its time per
# sample beside them (review 13 F2: a V8 profile beside a Tachyon one was
# written at 10 ms a sample, 5.3x its time): each source's part of the
# copy is its own, as pcol top --value wall says (to 1%: the mean is
# rounded to 3 digits)
V8=$tmp/t.cpuprofile TB=tests/fixtures/tachyon/threads-wall-zstd.bin
$PCOL unpack "$V8" "$TB" --to rprof -o "$tmp/vt.out" 2>"$tmp/err" || fail "V8 + Tachyon to rprof: $(cat "$tmp/err")"
$PCOL pack "$tmp/vt.out" -o "$tmp/vt.pcol" || fail "V8 + Tachyon Rprof copy: pack"
for s in 1 2; do
  want=$($PCOL top "$V8" "$TB" --source $s --value wall --unit ms -n 1 2>/dev/null | sed -n 's/^Showing nodes accounting for [^,]*, [^ ]* of \([0-9.]*\)ms total$/\1/p')
  $PCOL unpack "$V8" "$TB" --source $s --to rprof -o "$tmp/vt1.out" 2>/dev/null || fail "V8 + Tachyon --source $s to rprof"
  got=$($PCOL top "$tmp/vt1.out" --unit ms -n 1 2>/dev/null | sed -n 's/^Showing nodes accounting for [^,]*, [^ ]* of \([0-9.]*\)ms total$/\1/p')
  awk -v w="$want" -v g="$got" 'BEGIN { exit !(w > 0 && g / w > 0.99 && g / w < 1.01) }' || fail "V8 + Tachyon, source $s alone: $got ms, want $want"
done
want=$($PCOL top "$V8" "$TB" --value wall --unit ms -n 1 2>/dev/null | sed -n 's/^Showing nodes accounting for [^,]*, [^ ]* of \([0-9.]*\)ms total$/\1/p')
got=$($PCOL top "$tmp/vt.pcol" --unit ms -n 1 2>/dev/null | sed -n 's/^Showing nodes accounting for [^,]*, [^ ]* of \([0-9.]*\)ms total$/\1/p')
awk -v w="$want" -v g="$got" 'BEGIN { exit !(w > 0 && g / w > 0.99 && g / w < 1.01) }' || fail "V8 + Tachyon to rprof: $got ms, want $want (pcol top --value wall)"
# each function of such a source within a tick a sample of its own time
# (review diff5 F1: its samples were each written at the source's mean, 1.9
# ms, on a grid of 10 us, so a function was its samples x the mean: work
# 11.46 ms for 7.29, (program) 15.28 for 23.25): the grid is the others'
# (Tachyon's 1 ms), each sample its own time in its ticks, carried; with
# --value wall too (the sources alike: the header was 1 us, 620,650 lines,
# the V8 samples still rounded to 1.9 ms); pcol top of the copy and R's
# summaryRprof by.total against pcol top --value wall of the input, each
# function within its samples x the header's interval
python3 tests/support/v8gen.py random "$tmp/v1.cpuprofile" 7 || fail "v8gen.py random"
TA=tests/fixtures/tachyon/aio-wall-none.bin
$PCOL top "$tmp/v1.cpuprofile" --value wall --format json >"$tmp/v1.wall.json" || fail "v1: pcol top --value wall"
$PCOL top "$tmp/v1.cpuprofile" --value samples --format json >"$tmp/v1.n.json" || fail "v1: pcol top --value samples"
$PCOL top "$TA" --format json >"$tmp/ta.json" || fail "aio: pcol top"
for va in "" "--value wall"; do
  $PCOL unpack "$tmp/v1.cpuprofile" "$TA" $va --to rprof -o "$tmp/va.out" 2>"$tmp/err" ||
    fail "V8 + Tachyon $va to rprof: $(cat "$tmp/err")"
  h=$(head -1 "$tmp/va.out")
  [ "$h" = "line profiling: sample.interval=1000" ] || fail "V8 + Tachyon $va to rprof: header '$h', not Tachyon's 1000 us"
  n=$(wc -l <"$tmp/va.out")
  [ "$n" -lt 5000 ] || fail "V8 + Tachyon $va to rprof: $n lines for 535 samples"
  if [ -z "$va" ]; then
    grep -q "note: .*the sources share sample.interval=1000 (us): source 1 (v8), its wall time in ticks of 1000 us, rounded and carried over; source 2 (tachyon), 1000 us a sample (its interval)$" "$tmp/err" ||
      fail "V8 + Tachyon to rprof: no note of each source's tick: $(cat "$tmp/err")"
  fi
  $PCOL top "$tmp/va.out" --format json >"$tmp/va.json" || fail "V8 + Tachyon $va: pcol top of the copy"
  : >"$tmp/va.r"
  if command -v Rscript >/dev/null; then
    Rscript -e 'b <- summaryRprof(commandArgs(TRUE)[1])$by.total; cat(paste(rownames(b), b$total.time, sep = "\t"), sep = "\n")' \
      "$tmp/va.out" >"$tmp/va.r" || fail "V8 + Tachyon $va: summaryRprof"
  fi
  python3 - "$tmp" <<'PY' || fail "V8 + Tachyon $va to rprof: a function's time is not its own within a tick a sample"
import json, sys
d = sys.argv[1]
rows = lambda f: {r["name"]: r for r in json.load(open(d + f))["rows"]}
want, n, got, tach = rows("/v1.wall.json"), rows("/v1.n.json"), rows("/va.json"), rows("/ta.json")
tick = 1e6  # ns: the header's sample.interval=1000
names = [k for k in want if k not in tach]
assert len(names) >= 8, names
for k in names:
    for c in ("flat", "cum"):
        g = got[k][c] if k in got else 0
        assert abs(g - want[k][c]) < n[k][c] * tick + 1, (k, c, g, want[k][c], n[k][c])
rl = [l.split("\t") for l in open(d + "/va.r").read().split("\n") if "\t" in l]
r = {a[1:-1] if a[:1] == '"' else a: float(b) for a, b in rl}
if rl:  # R's by.total, s
    seen = [k for k in names if k in r]
    assert "work" in seen and "(program)" in seen and len(seen) >= 6, (seen, sorted(r))
    for k in seen:
        assert abs(r[k] * 1e9 - want[k]["cum"]) < n[k]["cum"] * tick + 5e5, (k, r[k], want[k]["cum"])
PY
done
# a free source's time on the others' grid is written however many lines
# that is, up to RPROF_MAX_LINES (2^28); past them it falls back to 10 ms a
# sample, and the note says so.  (Before, past 64x the samples' lines: 3
# samples of 100 s on Tachyon's 1 ms grid were written at 10 ms each.)
sed -e 's/"timeDeltas": \[0, 4000, 4000, 4000\]/"timeDeltas": [0, 100000000000, 100000000000, 100000000000]/' \
  -e 's/"endTime": 14000/"endTime": 300000010000/' "$tmp/t.cpuprofile" >"$tmp/long.cpuprofile"
$PCOL unpack "$tmp/long.cpuprofile" "$TA" --to rprof -o "$tmp/lo.out" 2>"$tmp/err" || fail "long V8 + Tachyon to rprof: $(cat "$tmp/err")"
grep -q "note: .*the sources share sample.interval=1000 (us): source 1 (v8), 10000 us a sample, pcol's default, not its wall time" "$tmp/err" ||
  fail "long V8 + Tachyon to rprof: no note of the fallback to 10 ms: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/lo.out")" -lt 1000 ] || fail "long V8 + Tachyon to rprof: $(wc -l <"$tmp/lo.out") lines"
# the total of an Rprof copy, s: R's summaryRprof when present, else pcol top's
rprof_total() {
  if command -v Rscript >/dev/null; then
    Rscript -e 'cat(summaryRprof(commandArgs(TRUE)[1])$sampling.time)' "$1"
  else
    $PCOL top "$1" --unit s -n 1 2>/dev/null | sed -n 's/^Showing nodes accounting for [^,]*, [^ ]* of \([0-9.]*\)s total$/\1/p'
  fi
}
within() { awk -v g="$1" -v w="$2" -v e="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= e) }'; }
# a free source (a measured time, no period) beside an Rprof file, the
# sources' defaults alike (cpu): its time on the grid, 100,000 lines of 10
# ms (review diff6 F3: past 64x the samples' lines it fell back to 10 ms a
# sample, in silence: 1000 s of pprof written as 2 s, exit 0)
python3 tests/support/pprofgen.py timed "$tmp/big.pb" 0 200 5000000000 || fail "pprofgen timed"
$PCOL unpack "$tmp/big.pb" examples/demo.out --to rprof -o "$tmp/bd.out" 2>"$tmp/err" || fail "free pprof + demo.out to rprof: $(cat "$tmp/err")"
! grep -q "pcol's default, not its" "$tmp/err" || fail "free pprof + demo.out to rprof: fell back: $(cat "$tmp/err")"
w=$($PCOL top examples/demo.out --unit s -n 1 2>/dev/null | sed -n 's/^Showing nodes accounting for [^,]*, [^ ]* of \([0-9.]*\)s total$/\1/p')
g=$(rprof_total "$tmp/bd.out")
within "$g" "$(awk -v w="$w" 'BEGIN { print 1000 + w }')" 0.011 || fail "free pprof + demo.out to rprof: $g s, want 1000 + $w"
# past RPROF_MAX_LINES (3 samples of 10^7 s: 3 x 10^9 lines of 10 ms) the
# fallback, whose note is printed though the sources' defaults agree
python3 tests/support/pprofgen.py timed "$tmp/huge.pb" 0 3 10000000000000000 || fail "pprofgen timed"
$PCOL unpack "$tmp/huge.pb" examples/demo.out --to rprof -o "$tmp/hd.out" 2>"$tmp/err" || fail "huge pprof + demo.out to rprof: $(cat "$tmp/err")"
grep -q "note: .*source 1 (pprof), 10000 us a sample, pcol's default, not its cpu time (in ticks of the others' grid it made more than 268435456 lines" "$tmp/err" ||
  fail "huge pprof + demo.out to rprof: no note of the fallback: $(cat "$tmp/err")"
# a source whose period is no tick of its time (Node's wall: period 1 us,
# 39.67 s in 27 samples; a JFR pprof: period 1 s, 4.78 s of cpu in 359)
# writes its time on the grid beside Tachyon, not count x period (review
# diff6 F1: 27 us and 359 s)
$PCOL unpack "$TA" --to rprof -o "$tmp/ta.out" 2>/dev/null || fail "Tachyon to rprof"
wt=$(rprof_total "$tmp/ta.out")
for pw in "$TD/pprof/nodejs-wall.pb.gz 39.67 27" "$TD/ext/pprof/jfr-kafka-cpu.pb.gz 4.78 359"; do
  set -- $pw
  [ -f "$1" ] || continue
  $PCOL unpack "$1" "$TA" --to rprof -o "$tmp/pt.out" 2>"$tmp/err" || fail "$1 + Tachyon to rprof: $(cat "$tmp/err")"
  g=$(rprof_total "$tmp/pt.out")
  within "$g" "$(awk -v a="$2" -v b="$wt" 'BEGIN { print a + b }')" "$(awk -v n="$3" 'BEGIN { print n * 0.01 + 0.001 }')" ||
    fail "$1 + Tachyon to rprof: $g s, want $2 + $wt"
done
# "X s written" counts only the lines written: an empty stack's ticks are
# none (review diff6 F2: 0.187474 s written for a file of 0.183648 s)
$PCOL unpack "$tmp/v1.cpuprofile" --to rprof -o "$tmp/v1.out" 2>"$tmp/err" || fail "V8 to rprof: $(cat "$tmp/err")"
n=$(sed -n 's/.*carried over: \([0-9.e+-]*\) s written (\([0-9.e+-]*\) s of samples with an empty stack.*/\1/p' "$tmp/err")
g=$(rprof_total "$tmp/v1.out")
within "$g" "$n" 0.000001 || fail "V8 to rprof: the note says $n s written, the copy is $g s: $(cat "$tmp/err")"
# sources rounded to ticks: three notes, then one for the rest with their
# sums (review 19 F8: an eBPF file of 82 sources said 78 notes, 27 KB);
# the notes' seconds written add up to the copy's
for i in 2 3 4 5; do python3 tests/support/v8gen.py random "$tmp/v$i.cpuprofile" $((7 + i)) || fail "v8gen.py random"; done
$PCOL unpack "$tmp/v1.cpuprofile" "$tmp/v2.cpuprofile" "$tmp/v3.cpuprofile" "$tmp/v4.cpuprofile" "$tmp/v5.cpuprofile" \
  --to rprof -o "$tmp/v5.out" 2>"$tmp/err" || fail "5 V8 to rprof: $(cat "$tmp/err")"
[ "$(grep -c "note: .*source [0-9]*: its times are no whole number of ticks" "$tmp/err")" = 3 ] &&
  grep -q "note: .*: and 2 more sources whose times are rounded to ticks likewise: [0-9.e+-]* s written (" "$tmp/err" ||
  fail "5 V8 to rprof: want 3 source notes and one of 2 more: $(cat "$tmp/err")"
n=$(sed -n 's/.*carried over: \([0-9.e+-]*\) s written.*/\1/p; s/.*likewise: \([0-9.e+-]*\) s written.*/\1/p' "$tmp/err" |
  awk '{ t += $1 } END { printf "%.9g", t }')
within "$(rprof_total "$tmp/v5.out")" "$n" 0.000001 || fail "5 V8 to rprof: the notes say $n s written: $(cat "$tmp/err")"
# an interval a speedscope copy states (pcolInterval) that is none to
# write at (its ticks over 2,000 samples pass int64 ns): the note calls it
# an interval, not a period (review diff5 m3)
cat >"$tmp/iv.speedscope.json" <<'J'
{"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": [{"name": "main"}]},
 "profiles": [{"type": "sampled", "name": "p", "unit": "none", "startValue": 0, "endValue": 2000,
  "samples": [[0], [0]], "weights": [1000, 1000], "pcolInterval": 8000000000000000}]}
J
$PCOL unpack "$tmp/iv.speedscope.json" --to rprof -o "$tmp/iv.out" 2>"$tmp/err" || fail "pcolInterval 8e15 to rprof: $(cat "$tmp/err")"
grep -q "note: .*source 1: its samples are counted and its interval (speedscope pcolInterval), 8000000000000000 ns, is no sampling interval" "$tmp/err" ||
  fail "pcolInterval 8e15 to rprof: the note: $(cat "$tmp/err")"
# a hostile pprof (period INT64_MAX ns, no interval; samples of 2^62 ns):
# three add up past int64 ns, which pcol's Rprof reader refuses, so the
# export refuses them, nothing written (review 13 m2: exit 0, then pcol top
# of the copy said "sample time overflows int64 nanoseconds"); one is
# written and read back
python3 tests/support/pprofgen.py timed "$tmp/h3.pb" 9223372036854775807 3 4611686018427387904 1000000000 || fail "pprofgen timed"
python3 tests/support/pprofgen.py timed "$tmp/h1.pb" 9223372036854775807 1 4611686018427387904 1000000000 || fail "pprofgen timed"
$PCOL unpack "$tmp/h3.pb" --to rprof -o "$tmp/h3.out" 2>"$tmp/err" && fail "hostile pprof to rprof: not refused"
grep -q "rprof export: the selected samples' time, .*passes the int64 nanoseconds" "$tmp/err" || fail "hostile pprof to rprof: $(cat "$tmp/err")"
[ ! -e "$tmp/h3.out" ] || fail "hostile pprof to rprof: refused, but a file written"
$PCOL unpack "$tmp/h1.pb" --to rprof -o "$tmp/h1.out" 2>"$tmp/err" || fail "hostile pprof of one sample to rprof: $(cat "$tmp/err")"
$PCOL top "$tmp/h1.out" >/dev/null 2>"$tmp/err" || fail "hostile pprof of one sample: pcol top of the copy: $(cat "$tmp/err")"
for one in "$tmp/t.perf $tmp/t.folded --source 1" "$tmp/t.perf"; do
  $PCOL unpack $one --to rprof -o "$tmp/one.out" 2>"$tmp/err" || fail "$one: unpack --to rprof"
  # (perf's comm and tid labels, which Rprof has no place for, are said:
  # the loss note, tests/cli/t_written_value.sh)
  grep -v ': not written: labels (2 keys: comm, tid) (Rprof' "$tmp/err" >"$tmp/err2"
  [ ! -s "$tmp/err2" ] || fail "$one: a warning for sources alike: $(cat "$tmp/err")"
done
# --value: the time an Rprof line is a tick of, for a source whose
# default is another value (review 13 m3: `perf record -e
# page-faults,cpu-clock`, whose default was the first event seen, wrote every
# sample of both events as a tick of 10 ms, and --value was refused; the
# default is cpu-clock now, doc/mappings.md §9, review 18 F7): the
# selected value's times in ticks, as for a cpu-clock recording alone; a
# sample without it counts 0 (no line), as pcol top --value counts it, and
# a source without it writes none (warned); a value that is no time refused
{ printf 'prog 100 0.500000:          1 page-faults: \n\t    3000 init+0x0 (/bin/prog)\n\t    2000 main+0x0 (/bin/prog)\n\n'
  cat "$tmp/t.perf"
  printf 'prog 100 3.500000:          3 page-faults: \n\t    3000 init+0x0 (/bin/prog)\n\n'; } >"$tmp/pf.perf"
$PCOL info "$tmp/pf.perf" | grep -q "values: *page-faults/count, cpu-clock/nanoseconds (default: cpu-clock/nanoseconds)" ||
  fail "two events, page-faults first: not a default of cpu-clock: $($PCOL info "$tmp/pf.perf")"
$PCOL unpack "$tmp/pf.perf" --to rprof --value cpu-clock -o "$tmp/pf.out" 2>"$tmp/err" ||
  fail "two events: unpack --to rprof --value cpu-clock: $(cat "$tmp/err")"
# (but the loss note: perf's labels, and the page faults, which no line holds)
grep -v ': not written: labels (2 keys: comm, tid) and values page-faults/count (Rprof' "$tmp/err" >"$tmp/err2"
[ ! -s "$tmp/err2" ] || fail "two events --value cpu-clock: a warning or note: $(cat "$tmp/err")"
[ "$(head -1 "$tmp/pf.out")" = "sample.interval=2000" ] || fail "two events --value cpu-clock: header $(head -1 "$tmp/pf.out")"
! grep -q init "$tmp/pf.out" || fail "two events --value cpu-clock: a page-faults sample written"
want=$($PCOL top "$tmp/pf.perf" --value cpu-clock --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
[ "$want" = 6000000 ] || fail "two events: pcol top --value cpu-clock totals $want ns"
got=$($PCOL top "$tmp/pf.out" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
[ "$got" = "$want" ] || fail "two events --value cpu-clock: the copy totals $got ns, pcol top --value cpu-clock $want"
if command -v Rscript >/dev/null; then
  st=$(Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1]); b <- s$by.self; cat(s$sampling.time, paste(rownames(b), b$self.time))' "$tmp/pf.out")
  [ "$st" = '0.006 "leaf" 0.004 "main" 0.002' ] || fail "two events --value cpu-clock: summaryRprof says $st, not 6 ms (leaf 4, main 2)"
fi
$PCOL unpack "$tmp/pf.perf" "$tmp/t.folded" --to rprof --value cpu-clock -o "$tmp/pf2.out" 2>"$tmp/err" ||
  fail "two events + collapsed --value cpu-clock: $(cat "$tmp/err")"
grep -q "warning: .*source 2 .*no value cpu-clock" "$tmp/err" || fail "two events + collapsed --value cpu-clock: no warning of source 2: $(cat "$tmp/err")"
cmp -s "$tmp/pf.out" "$tmp/pf2.out" || fail "two events + collapsed --value cpu-clock: source 2 written ($(head -3 "$tmp/pf2.out"))"
$PCOL unpack "$tmp/pf.perf" --to rprof --value page-faults -o "$tmp/pfx.out" 2>"$tmp/err" && fail "--value page-faults to rprof: not refused"
grep -q "rprof export: --value page-faults/count is not a time; Rprof's lines are ticks of time" "$tmp/err" || fail "--value page-faults to rprof: $(cat "$tmp/err")"
[ ! -e "$tmp/pfx.out" ] || fail "--value page-faults to rprof: refused, but a file written"
# --value samples: an Rprof line is a sample, so each counted sample is a
# line at its source's interval (10 ms for perf's, noted), as pcol top
# --value samples counts them (review diff5 m5: refused as "not a time");
# --value N naming samples/count writes the same
$PCOL unpack "$tmp/pf.perf" --to rprof --value samples -o "$tmp/pfs.out" 2>"$tmp/err" || fail "--value samples to rprof: $(cat "$tmp/err")"
grep -q "note: .*source 1: its samples are counted and it states no sampling period, so each is written as a tick of 10000 us" "$tmp/err" ||
  fail "--value samples to rprof: no note of the 10 ms: $(cat "$tmp/err")"
[ "$(head -1 "$tmp/pfs.out")" = "sample.interval=10000" ] || fail "--value samples to rprof: header $(head -1 "$tmp/pfs.out")"
[ "$(grep -c . "$tmp/pfs.out")" = 6 ] || fail "--value samples to rprof: $(grep -c . "$tmp/pfs.out") lines, not 5 samples and a header"
python3 tests/support/pprofgen.py period "$tmp/p10.pb" 10000000 nanoseconds 6 || fail "pprofgen period"
$PCOL unpack "$tmp/p10.pb" --to rprof -o "$tmp/p10.out" 2>"$tmp/err" || fail "counted pprof to rprof: $(cat "$tmp/err")"
for v in samples 0; do
  $PCOL unpack "$tmp/p10.pb" --to rprof --value $v -o "$tmp/p10v.out" 2>"$tmp/err" || fail "counted pprof --value $v to rprof: $(cat "$tmp/err")"
  [ ! -s "$tmp/err" ] || fail "counted pprof --value $v to rprof: a note: $(cat "$tmp/err")"
  cmp -s "$tmp/p10.out" "$tmp/p10v.out" || fail "counted pprof --value $v to rprof: not its default's copy: $(head -3 "$tmp/p10v.out")"
done
[ "$(head -1 "$tmp/p10.out")" = "line profiling: sample.interval=10000" ] && [ "$(grep -vc '^#File\|sample.interval=' "$tmp/p10.out")" = 6 ] ||
  fail "counted pprof to rprof: not 6 lines of its 10 ms period: $(head -2 "$tmp/p10.out")"
$PCOL unpack "$tmp/v1.cpuprofile" --to rprof --value samples -o "$tmp/v1s.out" 2>"$tmp/err" || fail "V8 --value samples to rprof: $(cat "$tmp/err")"
$PCOL top "$tmp/v1s.out" --format json >"$tmp/v1s.json" || fail "V8 --value samples: pcol top of the copy"
python3 - "$tmp" <<'PY' || fail "V8 --value samples to rprof: a function's lines are not its samples x 10 ms"
import json, sys
d = sys.argv[1]
rows = lambda f: {r["name"]: (r["flat"], r["cum"]) for r in json.load(open(d + f))["rows"]}
want, got = rows("/v1.n.json"), rows("/v1s.json")
assert len(want) >= 8 and {k: (f * 10000000, c * 10000000) for k, (f, c) in want.items()} == got, (want, got)
PY
# a source whose default is neither a time nor the count (a heap profile's
# bytes) is written as ticks of its samples, which summaryRprof reads as
# seconds: the export says so (review 9 F2: 119.51 s of "CPU" for a heap
# profile, nothing said); a CPU profile gets no such note
if [ -f "$TD/pprof/go-heap-allocs-inline.pb.gz" ]; then
  $PCOL unpack "$TD/pprof/go-heap-allocs-inline.pb.gz" --to rprof -o "$tmp/heap.out" 2>"$tmp/err" ||
    fail "heap profile: unpack --to rprof: $(cat "$tmp/err")"
  grep -q "note: .*source 1: its default value alloc_space/bytes is not a time.*count the samples, not alloc_space" "$tmp/err" ||
    fail "heap profile to rprof: no note that bytes became ticks: $(cat "$tmp/err")"
  $PCOL unpack "$TD/pprof/go-cpu-inline-small.pb.gz" --to rprof -o "$tmp/cpu.out" 2>"$tmp/err" ||
    fail "cpu profile: unpack --to rprof"
  [ ! -s "$tmp/err" ] || fail "cpu profile to rprof: a note: $(cat "$tmp/err")"
fi
# --- V8 of a time 0 in every sample (review 9): an empty profile (startTime =
# endTime with deltas all 0 is what speedscope refuses; tests/interop/t_v8_export.sh
# has speedscope read it) and a note naming --value, as the Rprof export's note
if [ -f "$TD/ext/pprof/dotnet-211.pb.gz" ]; then
  $PCOL unpack "$TD/ext/pprof/dotnet-211.pb.gz" --to v8 -o "$tmp/z.cpuprofile" 2>"$tmp/err" || fail "v8 of all-0 lock_time: $(cat "$tmp/err")"
  grep -qF "its lock_time/nanoseconds is 0 in every selected sample: no sample written, an empty V8 profile" "$tmp/err" ||
    fail "v8 of all-0 lock_time: no note: $(cat "$tmp/err")"
  python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["samples"] == [] and d["timeDeltas"] == [] and d["startTime"] == d["endTime"] and len(d["nodes"]) == 1 else "not empty: %r" % d["samples"][:5])' \
    "$tmp/z.cpuprofile" || fail "v8 of all-0 lock_time: not the empty profile"
fi
$PCOL --frob 2>"$tmp/err"; [ $? = 2 ] && grep -q "unknown option '--frob'" "$tmp/err" || fail "pcol --frob: $(head -1 "$tmp/err")"
exit 0
