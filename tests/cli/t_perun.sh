#!/usr/bin/env bash
# Perun through the CLI: pack every fixture layout/collector (and the real
# Perun files when ../shared/testdata is present), unpack --to perun and
# compare the JSON values; convert a non-Perun profile to Perun and back.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_perun: $*" >&2; exit 1; }
TESTDATA=${PCOL_TESTDATA:-../shared/testdata}

# same JSON value (key order aside) as Perun reads it (Python's json: NaN,
# Infinity, -Infinity are numbers); python3 keeps ints and floats apart here.
# Batched: pairs are queued ("ORIGINAL<TAB>EXPORT<TAB>MESSAGE" lines) and
# compared by one python3 at the end of a loop (a python3 per file was most
# of this test's time).
pairs=$tmp/pairs.tsv
: > "$pairs"
same_json() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$pairs"; }
check_pairs() {
  python3 - "$pairs" <<'PY' || exit 1
import json, sys
def norm(v):
    if isinstance(v, dict): return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list): return [norm(x) for x in v]
    if isinstance(v, float): return ("f", "nan") if v != v else ("f", v)  # NaN == NaN here
    if isinstance(v, bool): return ("b", v)
    if isinstance(v, int): return ("i", v)
    return v
for line in open(sys.argv[1]):
    a, b, msg = line.rstrip("\n").split("\t")
    if norm(json.load(open(a))) != norm(json.load(open(b))):
        print("t_perun: " + msg, file=sys.stderr)
        sys.exit(1)
PY
  : > "$pairs"
}
# which files Python's json reads (one python3 for all of them)
python_reads() {
  python3 - "$@" <<'PY'
import json, sys
for f in sys.argv[1:]:
    try:
        json.load(open(f)); print(f)
    except Exception:
        pass
PY
}

files=(tests/fixtures/perun/*.perf)
[ -d "$TESTDATA/perun" ] && files+=("$TESTDATA"/perun/*.perf)
for f in "${files[@]}"; do
  b=${f##*/}; b=${b%.perf}
  $PCOL pack "$f" -o "$tmp/$b.pcol" || fail "pack $f"
  $PCOL validate --full "$tmp/$b.pcol" >/dev/null || fail "validate $b"
  $PCOL unpack "$tmp/$b.pcol" --to perun -o "$tmp/$b.out.perf" || fail "unpack $b"
  same_json "$f" "$tmp/$b.out.perf" "$b: Perun -> pcol -> Perun changed the JSON value"
  # a mapped file, one read into memory (--no-mmap) and a pipe give the same
  $PCOL pack --no-mmap "$f" -o "$tmp/$b.nomap.pcol" || fail "pack --no-mmap $f"
  cmp -s "$tmp/$b.pcol" "$tmp/$b.nomap.pcol" || fail "$b: --no-mmap built a different file"
  $PCOL pack - -o "$tmp/$b.pipe.pcol" <"$f" || fail "pack - <$f"
  $PCOL unpack "$tmp/$b.pipe.pcol" --to perun -o "$tmp/$b.pipe.perf" || fail "unpack $b (pipe)"
  same_json "$f" "$tmp/$b.pipe.perf" "$b: Perun from a pipe changed the JSON value"
done
check_pairs

# the view commands honour --no-mmap for a Perun input too (pcol_open_any
# mapped it regardless): no mmap of the file's descriptor with the option,
# one without it
if command -v strace >/dev/null; then
  f=tests/fixtures/perun/imported-perf.perf
  maps_input() { # prints how many mmap calls use the descriptor PCOL opened f on
    strace -f -e trace=openat,mmap -o "$tmp/strace.log" $PCOL top "$f" "$@" >/dev/null || fail "top $f $*"
    awk -v f="\"$f\"" '$0 ~ "openat" && index($0, f) { fd = $NF }
      fd != "" && /mmap\(/ && $0 ~ ", " fd ", 0\)" { n++ } END { print n + 0 }' "$tmp/strace.log"
  }
  [ "$(maps_input)" -ge 1 ] || fail "top of a Perun file: expected it mapped (did strace's output change?)"
  [ "$(maps_input --no-mmap)" -eq 0 ] || fail "top --no-mmap mapped the Perun input"
else
  echo "t_perun: strace absent: --no-mmap of a Perun view not checked"
fi

# Perun's own outside files (ext/perun): every one Python's json reads packs
# and comes back as the same JSON value (one holds a bare NaN, interop
# review F7); the ones Python refuses (truncated, trailing commas) are
# refused too
if [ -d "$TESTDATA/ext/perun" ]; then
  python_reads "$TESTDATA"/ext/perun/*.perf > "$tmp/pyok.txt"
  declare -A pyok=()
  while IFS= read -r f; do pyok[$f]=1; done <"$tmp/pyok.txt"
  for f in "$TESTDATA"/ext/perun/*.perf; do
    b=${f##*/}; b=ext-${b%.perf}
    if [ -n "${pyok[$f]:-}" ]; then
      $PCOL pack "$f" -o "$tmp/$b.pcol" || fail "pack $f"
      $PCOL unpack "$tmp/$b.pcol" --to perun -o "$tmp/$b.out.perf" || fail "unpack $b"
      same_json "$f" "$tmp/$b.out.perf" "$b: Perun -> pcol -> Perun changed the JSON value"
      rm -f "$tmp/$b.pcol"
    else
      $PCOL pack "$f" -o "$tmp/$b.pcol" 2>/dev/null && fail "$f: Python refuses it, pcol packed it"
    fi
  done
  check_pairs
else
  echo "t_perun: skipped: the ext/perun round trips ($TESTDATA/ext/perun absent)"
fi

# views write standard JSON: no bare NaN or Infinity, even from a Perun file
# full of them (they stay JSON text inside strings)
$PCOL pack tests/fixtures/perun/python-nonfinite-memory.perf -o "$tmp/nf.pcol" || fail "pack nonfinite"
for args in "top --format json" "cat --table sample_labels --format json" "cat --table models --format json" \
            "cat --table meta --format jsonl"; do
  $PCOL $args "$tmp/nf.pcol" > "$tmp/nf.json" || fail "$args"
  python3 -c '
import json, sys
def no(c): raise ValueError("bare " + c)
for line in (open(sys.argv[1]) if sys.argv[2] == "jsonl" else [open(sys.argv[1]).read()]):
    json.loads(line, parse_constant=no)' "$tmp/nf.json" "${args##* }" || fail "$args wrote a bare NaN/Infinity"
done

# detection: a Perun file needs no --from; the source type says perun
$PCOL info "$tmp/kperf.pcol" | grep -q 'perun' || fail "info does not show a perun source"

# collapsed stacks from a Perun kperf profile
$PCOL unpack "$tmp/kperf.pcol" --to collapsed -o "$tmp/kperf.folded" || fail "kperf -> collapsed"
grep -qx '_start;main;work;copy_block;memcpy 95' "$tmp/kperf.folded" || fail "kperf stack not root-first/leaf from uid"

# a kperf count is its sample weight as written when another amount has a
# fraction (the values then in 1e-9 sample): 412 was weight 412000000000
# (info's samples 547000000001, the pprof export's samples/count)
sed 's/"amount": \[1\]}/"amount": [1.5]}/' tests/fixtures/perun/kperf.perf >"$tmp/kr.perf"
$PCOL info "$tmp/kr.perf" 2>/dev/null | grep -q 'samples: *548 (5 rows)' ||
  fail "kperf counts beside a real amount: $($PCOL info "$tmp/kr.perf" 2>&1 | grep samples: | head -1)"

# a profile from elsewhere becomes a kperf-style Perun profile, and reads back
$PCOL pack tests/fixtures/collapsed/simple.folded -o "$tmp/s.pcol" || fail "pack folded"
$PCOL unpack "$tmp/s.pcol" --to perun -o "$tmp/s.perf" || fail "folded -> perun"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['collector_info']['name']=='kperf'; assert d['resources']['compute#0']['amount']==[412]; assert d['header']['units']['time']=='sample'" "$tmp/s.perf" \
  || fail "kperf-style export"
$PCOL pack "$tmp/s.perf" -o "$tmp/s2.pcol" || fail "re-pack exported perun"
$PCOL unpack "$tmp/s2.pcol" --to collapsed -o "$tmp/s2.folded" || fail "perun -> collapsed"
# (kperf needs a uid: the empty stack " 1" comes back as "[unknown] 1")
sed 's/^ 1$/[unknown] 1/' tests/fixtures/collapsed/simple.folded | sort > "$tmp/a"; sort "$tmp/s2.folded" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "collapsed -> perun -> collapsed lost stacks or counts"

# a CPU profile merged with a heap profile, --value alloc_space, is a
# memory-style export: the CPU samples allocated nothing (amounts 0,
# warned), so the amounts add up to the heap profile's alloc_space alone
# (not a byte a CPU sample); without --value it writes the merge's
# default, the count (kperf style), and says so (review 16 F5)
cpu=$TESTDATA/pprof/go-cpu-inline-small.pb.gz heap=$TESTDATA/pprof/go-heap-allocs-inline.pb.gz
if [ -f "$cpu" ] && [ -f "$heap" ]; then
  $PCOL merge "$cpu" "$heap" -o "$tmp/ch.pcol" || fail "merge cpu + heap"
  $PCOL unpack "$tmp/ch.pcol" --to perun -o "$tmp/chd.perf" 2>"$tmp/ch.err" || fail "cpu + heap -> perun"
  grep -q "the sources measure different values, so the default is samples" "$tmp/ch.err" ||
    { cat "$tmp/ch.err" >&2; fail "cpu + heap -> perun: no note on the default"; }
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['header']['units']['time']=='sample'" "$tmp/chd.perf" ||
    fail "cpu + heap -> perun: not the count"
  $PCOL unpack "$tmp/ch.pcol" --to perun --value alloc_space -o "$tmp/ch.perf" 2>"$tmp/ch.err" || fail "cpu + heap -> perun --value alloc_space"
  grep -q "source 1 (pprof .*) has no value alloc_space/bytes; its samples count 0" "$tmp/ch.err" ||
    { cat "$tmp/ch.err" >&2; fail "cpu + heap -> perun: no warning for the CPU source"; }
  $PCOL top "$heap" --value alloc_space --unit raw --format json >"$tmp/h.json"
  want=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['total'])" "$tmp/h.json")
  got=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(sum(r.get('amount', [])) for r in d['resources'].values()))" "$tmp/ch.perf")
  [ "$got" = "$want" ] || fail "cpu + heap -> perun: amounts add up to $got, the heap's alloc_space is $want"
fi

# a profile from elsewhere becomes a kperf profile whose amounts are its
# default value, the one top shows (doc/mappings.md §3.2): a pprof CPU
# profile's cpu, a speedscope profile's time (pcol's speedscope export of
# the pprof file, and a sampled profile in ms), so top of the export is top
# of the input; a count of samples keeps kperf's unit "sample": a row
# stands for its samples/count value (the folded file above; t_matrix.py
# judges pprof files whose default is samples)
cat > "$tmp/ms.speedscope.json" <<'EOF2'
{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"main"},{"name":"a"},{"name":"b"}]},
"profiles":[{"type":"sampled","name":"p","unit":"milliseconds","startValue":0,"endValue":60,"samples":[[0,1],[0,2],[0,1],[0]],"weights":[10,30,20,7]}]}
EOF2
ins=("$tmp/ms.speedscope.json")
for f in pprof/go-cpu-inline-small.pb.gz pprof/go-cpu-string-labels.pb.gz pprof/java-cpu-async-profiler.pb.gz; do
  [ -f "$TESTDATA/$f" ] || continue
  b=${f##*/}
  $PCOL pack "$TESTDATA/$f" -o "$tmp/$b.pcol" || fail "pack $f"
  $PCOL unpack "$TESTDATA/$f" --to speedscope -o "$tmp/$b.speedscope.json" || fail "$f -> speedscope"
  ins+=("$tmp/$b.pcol" "$tmp/$b.speedscope.json")
done
for in in "${ins[@]}"; do
  b=${in##*/}
  $PCOL pack "$in" -o "$tmp/$b.in.pcol" || fail "pack $b"
  $PCOL unpack "$tmp/$b.in.pcol" --to perun -o "$tmp/$b.perf" || fail "$b -> perun"
  $PCOL top "$in" --format tsv -n 1000 | cut -f1,4,6 > "$tmp/a"
  $PCOL top "$tmp/$b.perf" --format tsv -n 1000 | cut -f1,4,6 > "$tmp/b"
  [ "$(wc -l < "$tmp/a")" -gt 2 ] || fail "$b: top gave nothing"
  cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5 >&2; fail "$b -> perun: amounts differ from the default value"; }
  python3 -c "import json,sys; u=json.load(open(sys.argv[1]))['header']['units']['time']; assert u=='ns', u" "$tmp/$b.perf" ||
    fail "$b -> perun: units.time is not ns"
done
grep -q '"amount":\[30000000\]' "$tmp/ms.speedscope.json.perf" || fail "speedscope ms -> perun: b's 30 ms is not 30000000 ns"

# kperf's amounts in its unit "sample" are counts (Perun's kperf collector
# writes header {"type": "time", "units": {"time": "sample"}}): read as
# samples/count, so the Perun copy of a profile of counts (an OTLP eBPF
# profile's) reads back as counts, Type: samples, as the input and its
# pprof copy say (it said Type: time, unit "sample"); a kperf file of
# Perun's reads so too, and is written back as it was
kp=tests/fixtures/perun/kperf.perf
$PCOL top "$kp" -n 1 | grep -qx 'Type: samples' || fail "kperf.perf: not Type: samples: $($PCOL top "$kp" -n 1 | sed -n 2p)"
$PCOL info "$kp" | grep -q '^  values: *samples/count (default: samples/count)' || fail "kperf.perf: not samples/count: $($PCOL info "$kp" | grep values)"
$PCOL unpack "$kp" --to perun -o "$tmp/kp.perf" 2>/dev/null || fail "kperf.perf -> perun"
python3 -c "import json,sys; h=json.load(open(sys.argv[1]))['header']; assert h['type'] == 'time' and h['units'] == {'time': 'sample'}, h" "$tmp/kp.perf" ||
  fail "kperf.perf -> perun: its header is not kperf's"
eb=$TESTDATA/ext/pprof/ODD-otlp-ebpf-profile.pb.bin
if [ -f "$eb" ]; then
  $PCOL unpack "$eb" --to perun -o "$tmp/eb.perf" 2>/dev/null || fail "otlp ebpf -> perun"
  $PCOL top "$tmp/eb.perf" -n 1 | grep -qx 'Type: samples' || fail "otlp ebpf -> perun: not Type: samples: $($PCOL top "$tmp/eb.perf" -n 1 | sed -n 2p)"
  want=$($PCOL top "$eb" -n 1 2>/dev/null | sed -n 's/.*of \([0-9]*\) total$/\1/p')
  got=$($PCOL top "$tmp/eb.perf" -n 1 --value samples | sed -n 's/.*of \([0-9]*\) total$/\1/p')
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "otlp ebpf -> perun: $got samples, the input $want"
fi

# a profile without resources reads as an empty one, said (review 17 F3: a 0
# total without a word; Perun's corrupted-global.perf keeps its resources
# under a key of its own, named)
printf '{"header":{"type":"mixed","units":{}},"resource_type_map":{},"resources":{},"test":{"resources":[{"amount":3,"uid":"f"}]}}' > "$tmp/odd.perf"
$PCOL top "$tmp/odd.perf" >/dev/null 2>"$tmp/err" || fail "no resources: exit $?"
grep -q "odd.perf: no resource with an amount: an empty profile (its top-level key 'test', not Perun's" "$tmp/err" ||
  fail "no resources: no warning: $(cat "$tmp/err")"
printf '{"header":{"type":"mixed","units":{}},"resource_type_map":{},"resources":{}}' > "$tmp/empty.perf"
$PCOL info "$tmp/empty.perf" >/dev/null 2>"$tmp/err" || fail "no resources: exit $?"
grep -q "empty.perf: no resource with an amount: an empty profile$" "$tmp/err" || fail "empty: no warning: $(cat "$tmp/err")"

# bad input: clear message naming file, line and column; exit 1
printf '{\n "header": {,}\n}\n' > "$tmp/bad.perf"
$PCOL pack --from perun "$tmp/bad.perf" -o "$tmp/bad.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "invalid JSON must exit 1 (got $rc)"
grep -q 'bad.perf:2:' "$tmp/err" || fail "error lacks file:line: $(cat "$tmp/err")"
[ ! -e "$tmp/bad.pcol" ] || fail "no output on failure"
# From a pipe, a Perun file past 8 MiB is copied into a temporary file in
# $TMPDIR: one that cannot be made (a $TMPDIR that is a file or missing:
# an unwritable one is written by root all the same) or written (a full
# one: its writes fail, here past `ulimit -f` with SIGXFSZ ignored, at the
# first 8 MiB or at the rest) leaves the copy in memory, as before the
# spill, with no word of it (it failed the import: "cannot write the
# temporary copy of the input").
python3 tests/support/gen_big_text.py perun "$tmp/big.perf" 12 >/dev/null || fail "big perun: generator"
[ "$(stat -c %s "$tmp/big.perf")" -gt $((9 << 20)) ] || fail "big perun: not past 8 MiB"
want=$("$PCOL" top "$tmp/big.perf" 2>&1) || fail "big perun: top of the file: $want"
for how in "file" "missing" "full 4096" "full 9000"; do
  got=$(set -- $how
        case $1 in
          file) export TMPDIR=$tmp/big.perf ;;
          missing) export TMPDIR=$tmp/none ;;
          full) trap '' XFSZ; ulimit -f "$2" ;;
        esac
        cat "$tmp/big.perf" | "$PCOL" top - 2>"$tmp/big.err") || fail "big perun from a pipe, \$TMPDIR $how: $(head -c 300 "$tmp/big.err")"
  [ ! -s "$tmp/big.err" ] || fail "big perun from a pipe, \$TMPDIR $how: said $(head -c 300 "$tmp/big.err")"
  [ "$(printf '%s' "$got" | tail -n +2)" = "$(printf '%s' "$want" | tail -n +2)" ] ||
    fail "big perun from a pipe, \$TMPDIR $how: not the file's top: $(printf '%s' "$got" | head -5)"
done
# ... and when memory then fails too (40 MiB of address space for a copy
# of 32 MiB), the message says why the copy was in memory (it said "out of
# memory" alone).  Sanitizer builds reserve terabytes: no such limit.
if [ "$( (prlimit --as=41943040 "$PCOL" --version >/dev/null 2>&1; echo $?) 2>/dev/null)" = 0 ]; then
  python3 tests/support/gen_big_text.py perun "$tmp/big40.perf" 40 >/dev/null || fail "big40 perun: generator"
  for how in "file Not a directory" "full File too large"; do
    (set -- $how
     case $1 in
       file) export TMPDIR=$tmp/big.perf ;;
       full) trap '' XFSZ; ulimit -f 4096 ;;
     esac
     cat "$tmp/big40.perf" | prlimit --as=41943040 "$PCOL" top - >/dev/null 2>"$tmp/big.err"; echo $? >"$tmp/big.rc")
    why=${how#* }
    [ "$(cat "$tmp/big.rc")" = 3 ] && grep -q "^pcol top: <stdin>: out of memory (the input's copy is in memory: its temporary file in \$TMPDIR failed: $why)\$" "$tmp/big.err" ||
      fail "perun from a pipe, \$TMPDIR ${how%% *} and no memory: exit $(cat "$tmp/big.rc"): $(head -c 300 "$tmp/big.err")"
  done
fi

exit 0
