#!/usr/bin/env bash
# pprof through the CLI: pack (gzip, raw, stdin), unpack --to pprof
# (gzip by default, --no-gzip, --source), stable output, clear errors.
# Uses the project's own example (Rprof -> pprof) and, when present, the
# shared pprof test data.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_pprof: $*" >&2; exit 1; }
magic() { head -c 2 "$1" | od -An -tx1 | tr -d ' \n'; }

# Rprof -> pcol -> pprof, gzip by default
$PCOL pack examples/demo.out -o "$tmp/demo.pcol" || fail "pack demo.out"
$PCOL unpack "$tmp/demo.pcol" --to pprof -o "$tmp/demo.pb.gz" || fail "unpack --to pprof"
[ "$(magic "$tmp/demo.pb.gz")" = 1f8b ] || fail "pprof output is not gzip by default"
$PCOL unpack "$tmp/demo.pcol" --to pprof --no-gzip -o "$tmp/demo.pb" || fail "unpack --no-gzip"
[ "$(magic "$tmp/demo.pb")" != 1f8b ] || fail "--no-gzip wrote gzip"
cmp <(gzip -dc "$tmp/demo.pb.gz") "$tmp/demo.pb" || fail "gzip and raw output differ"

# pprof back in: detected as gzip and as raw protobuf, from a file and stdin
$PCOL pack "$tmp/demo.pb.gz" -o "$tmp/d2.pcol" || fail "pack pprof gz"
$PCOL pack "$tmp/demo.pb" -o "$tmp/d3.pcol" || fail "pack raw pprof"
$PCOL pack - -o "$tmp/d4.pcol" <"$tmp/demo.pb.gz" || fail "pack pprof from stdin"
$PCOL validate --full "$tmp/d2.pcol" >/dev/null || fail "validate pprof-made pcol"
$PCOL cat "$tmp/d2.pcol" --table sources | grep -q pprof || fail "source type pprof"
$PCOL cat "$tmp/d2.pcol" --table meta | grep -q 'pprof.period' || fail "pprof.period meta"
# one pcol sample per pprof sample: as many as the Rprof samples
n1=$($PCOL cat "$tmp/demo.pcol" --table samples | tail -n +2 | wc -l)
n2=$($PCOL cat "$tmp/d2.pcol" --table samples | tail -n +2 | wc -l)
[ "$n1" = "$n2" ] || fail "samples $n2, want $n1"
cmp <($PCOL cat "$tmp/d2.pcol" --table sample_values) \
    <($PCOL cat "$tmp/d4.pcol" --table sample_values) || fail "stdin pack differs"
# a compressed pipe whose message is past the 1 MiB window: read twice, the
# second time from a copy of its compressed bytes (pprof_import.c), and a
# truncated one refused as from a file
big=$TD/pprof/go-cpu-large.pb.gz
if [ -f "$big" ]; then
  $PCOL pack "$big" -o "$tmp/big-file.pcol" || fail "pack $big"
  cat "$big" | $PCOL pack - -o "$tmp/big-pipe.pcol" || fail "pack $big from a pipe"
  for t in samples sample_values stacks locations location_lines functions mappings; do
    cmp -s <($PCOL cat "$tmp/big-file.pcol" --table $t) <($PCOL cat "$tmp/big-pipe.pcol" --table $t) ||
      fail "$big from a pipe: table $t differs from the file's"
  done
  head -c 600000 "$big" > "$tmp/trunc.pb.gz"
  e1=$($PCOL pack "$tmp/trunc.pb.gz" -o "$tmp/t.pcol" 2>&1) && fail "truncated gzip accepted"
  e2=$(cat "$tmp/trunc.pb.gz" | $PCOL pack - -o "$tmp/t.pcol" 2>&1) && fail "truncated gzip accepted from a pipe"
  [ "${e1#*trunc.pb.gz: }" = "${e2#*<stdin>: }" ] || fail "truncated gzip: '$e2' from a pipe, '$e1' from a file"
  case $e2 in "pcol pack: <stdin>: truncated"*) ;; *) fail "a pipe's refusal names it once, as <stdin>: $e2" ;; esac
  for c in top fold info; do
    e3=$(cat "$tmp/trunc.pb.gz" | $PCOL $c - 2>&1) && fail "$c: truncated gzip accepted from a pipe"
    case $e3 in "pcol $c: <stdin>: truncated"*) ;; *) fail "$c: a pipe's refusal names it once, as <stdin>: $e3" ;; esac
  done
fi

# export is stable: pprof -> pcol -> pprof gives the same bytes again
$PCOL unpack "$tmp/d3.pcol" --to pprof --no-gzip -o "$tmp/again.pb" || fail "unpack again"
cmp "$tmp/demo.pb" "$tmp/again.pb" || fail "pprof -> pcol -> pprof is not byte-stable"

# --source selects one source of a merged file
$PCOL pack "$tmp/demo.pb" "$tmp/demo.pb" -o "$tmp/two.pcol" || fail "pack two inputs"
$PCOL unpack "$tmp/two.pcol" --to pprof --source 2 --no-gzip -o "$tmp/src2.pb" || fail "--source 2"
cmp "$tmp/demo.pb" "$tmp/src2.pb" || fail "--source 2 differs from the single profile"
$PCOL unpack "$tmp/two.pcol" --to pprof --source 3 -o "$tmp/none.pb" 2>/dev/null && fail "--source 3 must fail"
[ -e "$tmp/none.pb" ] && fail "failed unpack left an output file"

# errors name the file and the problem, exit 1
head -c 200 "$tmp/demo.pb.gz" >"$tmp/trunc.pb.gz"
$PCOL pack "$tmp/trunc.pb.gz" -o "$tmp/x.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "truncated gzip: exit $rc, want 1"
grep -q 'trunc.pb.gz.*truncated gzip' "$tmp/err" || fail "truncated gzip message: $(cat "$tmp/err")"
# bytes after the last gzip member: refused naming the offset, as `go tool
# pprof` refuses them ("decompressing profile: gzip: invalid header"; pcol
# said "corrupt gzip data near compressed byte offset N: incorrect header
# check"); zeros too (`gzip -d` ignores those; Go does not)
n=$(wc -c <"$tmp/demo.pb.gz")
for t in 'junk' '\0\0\0\0'; do
  printf "$t" | cat "$tmp/demo.pb.gz" - >"$tmp/trail.pb.gz"
  $PCOL pack "$tmp/trail.pb.gz" -o "$tmp/x.pcol" 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "trail.pb.gz: trailing data after gzip member 1: 4 bytes at compressed byte offset $n that do not start a gzip member" "$tmp/err" ||
    fail "trailing $t: rc $rc: $(cat "$tmp/err")"
  if command -v go >/dev/null; then
    go tool pprof -raw "$tmp/trail.pb.gz" >/dev/null 2>&1 && fail "go tool pprof read trailing $t (pcol refuses it)"
  fi
done
# legacy text profiles: read as go reads them (tests/interop/t_pprof_views.sh
# judges them); a sample line go refuses is refused with its number, and a
# form go does not recognize is named
printf 'heap profile: 1: 2 [3: 4] @ heap/1048576\n1: 2 [3: 4] @ 0x401000\n' >"$tmp/old.prof"
$PCOL top "$tmp/old.prof" 2>"$tmp/err" | grep -q '^Type: inuse_space' || fail "legacy heap: $(cat "$tmp/err")"
printf 'heap profile: 1: 2 [3: 4] @ heap/1048576\n1: 2 [3: 4] @ 0x401000\nx: 2 [3: 4] @ 0x1\n' >"$tmp/old.prof"
$PCOL pack "$tmp/old.prof" -o "$tmp/x.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "legacy: exit $rc, want 1"
grep -q 'old.prof: legacy heap profile: line 3: unexpected number of sample values' "$tmp/err" ||
  fail "legacy message: $(cat "$tmp/err")"
printf -- '--- threadz 1 ---\n--- Thread 7f (name: m/1) stack: ---\n  0x1\n' >"$tmp/tz.prof" # (no map: go's "unrecognized")
$PCOL pack "$tmp/tz.prof" -o "$tmp/x.pcol" 2>"$tmp/err" && fail "threadz without its end accepted"
grep -q 'tz.prof: legacy thread profile (text) in a form go tool pprof does not read either' "$tmp/err" ||
  fail "threadz message: $(cat "$tmp/err")"
printf '\x0a\x04\x08\x05\x10\x00\x32\x00' >"$tmp/badidx.pb" # sample_type type = string 5 of 1
$PCOL pack "$tmp/badidx.pb" --from pprof -o "$tmp/x.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "bad string index: exit $rc, want 1"
grep -q 'badidx.pb: malformed pprof profile: sample_type #1 type is string index 5' "$tmp/err" ||
  fail "bad index message: $(cat "$tmp/err")"
[ -e "$tmp/x.pcol" ] && fail "failed pack left an output file"

# the shared pprof corpus: every protobuf file packs, validates, unpacks, and
# a second round trip is byte-identical to the first
if [ -d "$TD/pprof" ]; then
  for f in "$TD"/pprof/*.pb "$TD"/pprof/*.pb.gz "$TD"/pprof-from-r/*.pb.gz; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    $PCOL pack "$f" -o "$tmp/$b.pcol" || fail "pack $b"
    $PCOL validate --full "$tmp/$b.pcol" >/dev/null || fail "validate $b"
    $PCOL unpack "$tmp/$b.pcol" --to pprof --no-gzip -o "$tmp/$b.1.pb" || fail "unpack $b"
    $PCOL pack "$tmp/$b.1.pb" -o "$tmp/$b.2.pcol" || fail "repack $b"
    $PCOL unpack "$tmp/$b.2.pcol" --to pprof --no-gzip -o "$tmp/$b.2.pb" || fail "unpack again $b"
    cmp -s "$tmp/$b.1.pb" "$tmp/$b.2.pb" || fail "$b: second round trip differs"
  done
  # legacy binary CPU profiles are read (judged against go tool pprof in
  # tests/interop/t_pprof_views.sh); the export's round trip is stable
  for f in "$TD"/pprof/legacy-*.legacy "$TD"/ext/legacy/*.cpu; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    $PCOL pack "$f" -o "$tmp/$b.pcol" || fail "legacy $b refused"
    $PCOL validate --full "$tmp/$b.pcol" >/dev/null || fail "validate $b"
    $PCOL unpack "$tmp/$b.pcol" --to pprof --no-gzip -o "$tmp/$b.1.pb" || fail "unpack $b"
    $PCOL unpack "$tmp/$b.1.pb" --to pprof --no-gzip -o "$tmp/$b.2.pb" || fail "unpack again $b"
    cmp -s "$tmp/$b.1.pb" "$tmp/$b.2.pb" || fail "$b: second round trip differs"
  done
  # the text legacy formats are read too (pprof_legacy_text.c), plain,
  # gzip'd and piped alike; jemalloc's, which go does not read, is refused
  for f in "$TD"/ext/legacy/*.heap "$TD"/ext/legacy/*.contention "$TD"/ext/legacy/*.thread; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    if [ "$b" = legacy-jemalloc.heap ]; then
      $PCOL pack "$f" -o "$tmp/x.pcol" 2>"$tmp/err" && fail "legacy $f accepted"
      grep -q "legacy heap profile (text) in a form go tool pprof does not read either" "$tmp/err" ||
        fail "legacy $f: $(cat "$tmp/err")"
      continue
    fi
    $PCOL pack "$f" -o "$tmp/$b.pcol" || fail "legacy $b refused"
    $PCOL validate --full "$tmp/$b.pcol" >/dev/null || fail "validate $b"
    $PCOL unpack "$tmp/$b.pcol" --to pprof --no-gzip -o "$tmp/$b.1.pb" || fail "unpack $b"
    $PCOL unpack "$tmp/$b.1.pb" --to pprof --no-gzip -o "$tmp/$b.2.pb" || fail "unpack again $b"
    cmp -s "$tmp/$b.1.pb" "$tmp/$b.2.pb" || fail "$b: second round trip differs"
    $PCOL top "$f" --format csv >"$tmp/a.csv" || fail "top $b"
    gzip -c "$f" | $PCOL top - --format csv >"$tmp/b.csv" || fail "top of $b gzip'd, piped"
    cmp -s "$tmp/a.csv" "$tmp/b.csv" || fail "$b: gzip'd and piped, top differs"
  done
  # a legacy CPU profile cut or lying about a depth: refused with the byte offset
  for c in huge-depth:72 cut-record:32; do
    python3 tests/support/legacy_cpu_gen.py "${c%:*}" "$tmp/${c%:*}.prof" || fail "legacy_cpu_gen.py ${c%:*}"
    $PCOL top "$tmp/${c%:*}.prof" >/dev/null 2>"$tmp/err" && fail "${c%:*} accepted"
    grep -q "${c%:*}.prof: legacy CPU profile: .* at byte offset ${c#*:}\$" "$tmp/err" || fail "${c%:*}: $(cat "$tmp/err")"
  done
fi

# numbers 0 without a unit (OTLP's int attributes) are no label to pprof as a
# pprof file holds them: the export writes them with the key's unit (the
# key itself, bytes for request, mem's own), and pcol's import, which reads
# what go tool pprof reads, finds them; a string label "" it cannot write,
# and says so (tests/interop/t_tags_unit.sh judges them with go tool pprof)
python3 tests/support/otlp_zero_labels.py "$tmp/z.json" || fail "otlp_zero_labels.py"
$PCOL unpack "$tmp/z.json" --to pprof -o "$tmp/z.pb.gz" 2>"$tmp/err" || fail "unpack z.json: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "unpack z.json warns: $(cat "$tmp/err")"
cmp -s <($PCOL tags "$tmp/z.json" --value samples/count) <($PCOL tags "$tmp/z.pb.gz" --value samples/count) ||
  fail "z.json: tags of its pprof export differ"
[ "$($PCOL cat "$tmp/z.pb.gz" --table sample_labels | awk -F'\t' '$4 == "0" { print $1, $2, $5 }' | tr '\n' ,)" = \
  "1 cpu cpu,1 request bytes,3 mem bytes,4 cpu cpu,5 cpu cpu,6 mem bytes,6 request bytes," ] ||
  fail "z.json: the zeros of its pprof export: $($PCOL cat "$tmp/z.pb.gz" --table sample_labels)"
python3 tests/support/otlp_zero_labels.py "$tmp/ze.json" --empty || fail "otlp_zero_labels.py --empty"
$PCOL unpack "$tmp/ze.json" --to pprof -o "$tmp/ze.pb.gz" 2>"$tmp/err" || fail "unpack ze.json: $(cat "$tmp/err")"
grep -q '^pcol unpack: warning: .*ze.json: 1 labels (in 1 samples) are lost to go tool pprof: a string label ""' "$tmp/err" ||
  fail "ze.json: no warning of its label \"\": $(cat "$tmp/err")"
exit 0
