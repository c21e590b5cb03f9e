#!/usr/bin/env bash
# Exit codes of every command (0 ok, 1 invalid data, 2 usage, 3 I/O) and
# "no command crashes on a damaged file": each command is run on files with
# a damaged header, a damaged body (only --full or a first-use check can see
# it) and random byte damage; it must exit 0 or 1 with a message, never
# crash (signal, sanitizer report) or print a sanitizer error.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_exit_codes: $*" >&2; exit 1; }

# expect CODE DESCRIPTION -- CMD...: runs CMD, checks its exit code and that
# no sanitizer spoke; non-zero codes must come with a message on stderr.
expect() {
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local got=$?
  if grep -qE 'Sanitizer|runtime error|Segmentation|Aborted' "$tmp/err"; then
    cat "$tmp/err" >&2; fail "$what: sanitizer/crash report ($*)"
  fi
  [ "$got" = "$want" ] || { cat "$tmp/err" >&2; fail "$what: exit $got, want $want ($*)"; }
  if [ "$want" != 0 ]; then [ -s "$tmp/err" ] || fail "$what: exit $got without a message ($*)"; fi
}
# no_crash DESCRIPTION -- CMD...: exit 0 or 1 (damage may go unseen without --full).
no_crash() {
  local what=$1; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local got=$?
  if [ $got -ge 2 ] || grep -qE 'Sanitizer|runtime error' "$tmp/err"; then
    head -20 "$tmp/err" >&2; fail "$what: exit $got ($*)"
  fi
  if [ $got = 1 ]; then [ -s "$tmp/err" ] || fail "$what: exit 1 without a message ($*)"; fi
}

# poke FILE OFFSET BYTE(octal): overwrite one byte in place
poke() { printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

good=$tmp/good.pcol
$PCOL pack examples/demo.out -o "$good" || fail "pack the example"
$PCOL pack examples/demo.out --compress lz4 -o "$tmp/good-lz4.pcol" || fail "pack lz4"
cp "$good" "$tmp/base.pcol"
size=$(stat -c %s "$good")

# a damaged header (checksum), a newer major version, a truncated file
cp "$good" "$tmp/hdr.pcol"; poke "$tmp/hdr.pcol" 20 377
cp "$good" "$tmp/major.pcol"; poke "$tmp/major.pcol" 8 377
head -c $((size / 2)) "$good" > "$tmp/trunc.pcol"
printf 'this is not a profile\n\001\002\003' > "$tmp/garbage.txt"
: > "$tmp/empty"
# a damaged body: flip a byte in the middle of the first data section
cp "$good" "$tmp/body.pcol"
sec_off=$($PCOL info "$good" | awk '/^sections:/{s=1;next} s && NF>=8 && $5 ~ /^[0-9]+$/ && $6>16 {print $5 + int($6/2); exit}')
[ -n "$sec_off" ] || fail "could not find a data section in pcol info"
poke "$tmp/body.pcol" "$sec_off" 377

readers=(
  "info"
  "validate"
  "validate --full"
  "cat --table samples"
  "cat --table strings"
  "cat --table sample_locations"
  "cat --table location_lines"
  "cat --table functions"
  "top"
  "fold"
  "unpack --to rprof -o $tmp/o.out"
  "unpack --to pprof -o $tmp/o.pb.gz"
  "unpack --to collapsed -o $tmp/o.txt"
  "unpack --to speedscope -o $tmp/o.json"
  "unpack --to perun -o $tmp/o.perf"
  "unpack --to v8 -o $tmp/o.cpuprofile"
  "flame -o $tmp/o.svg"
  "merge -o $tmp/o.pcol"
)

# --- 0: valid input
# commands that read without mmap on request
# (each command's --help read once: the readers repeat commands, and a
# process here costs ~75 ms under LeakSanitizer)
declare -A has_nommap=()
nommap() {
  local c=${1%% *}
  if [ -z "${has_nommap[$c]:-}" ]; then
    if $PCOL $c --help 2>/dev/null | grep -q -- --no-mmap; then has_nommap[$c]=1; else has_nommap[$c]=0; fi
  fi
  [ "${has_nommap[$c]}" = 1 ]
}
for r in "${readers[@]}"; do
  expect 0 "valid file" -- $PCOL $r "$good"
  if nommap "$r"; then expect 0 "valid lz4 file, --no-mmap" -- $PCOL $r --no-mmap "$tmp/good-lz4.pcol"; fi
done
expect 0 "pack" -- $PCOL pack examples/demo.out -o "$tmp/p.pcol"
expect 0 "diff" -- $PCOL diff "$good" "$tmp/good-lz4.pcol"

# --- 1: invalid data (reported, named)
for bad in hdr major trunc; do
  for r in "${readers[@]}"; do expect 1 "$bad file" -- $PCOL $r "$tmp/$bad.pcol"; done
  grep -q "$bad.pcol" "$tmp/err" || fail "message must name the file ($bad)"
  expect 1 "diff with $bad file" -- $PCOL diff "$good" "$tmp/$bad.pcol"
done
expect 1 "validate --full sees body damage" -- $PCOL validate --full "$tmp/body.pcol"
expect 1 "pack of garbage" -- $PCOL pack "$tmp/garbage.txt" -o "$tmp/p2.pcol"
expect 1 "pack of an empty file" -- $PCOL pack "$tmp/empty" -o "$tmp/p2.pcol"
expect 1 "pack of a damaged pcol" -- $PCOL pack "$tmp/body.pcol" -o "$tmp/p2.pcol"
[ ! -e "$tmp/p2.pcol" ] || fail "failed pack left an output"
expect 1 "merge of a damaged pcol" -- $PCOL merge "$good" "$tmp/body.pcol" -o "$tmp/m2.pcol"
[ ! -e "$tmp/m2.pcol" ] || fail "failed merge left an output"
# a command that writes a profile of a pcol input checks its checksums as
# merge does (review 20b F1: `unpack --to pprof` wrote a flipped bit into a
# gzip with a good CRC): a changed name ("fib" -> "fob") reads as one in
# the views (doc/safety.md: they check each column on first use, `validate
# --full` every byte), while unpack to every format refuses the file, naming
# it, and leaves no output; of a directory too (each input, as merge's)
cp "$good" "$tmp/flip.pcol"
at=$(grep -abo 'fib' "$tmp/flip.pcol" | head -1 | cut -d: -f1)
[ -n "$at" ] || fail "no fib in the strings of the example"
poke "$tmp/flip.pcol" $((at + 1)) 157
expect 0 "top of a flipped bit (views do not check the sums)" -- $PCOL top "$tmp/flip.pcol" --format tsv
grep -q "	fob	" "$tmp/out" || fail "top of flip.pcol: the view does not read the changed name"
mkdir "$tmp/flipdir" && cp "$good" "$tmp/flip.pcol" "$tmp/flipdir/"
for to in pprof rprof collapsed speedscope firefox otlp v8 chrome perfetto perun; do
  for in in "$tmp/flip.pcol" "$tmp/flipdir"; do
    rm -f "$tmp/u.out"
    expect 1 "unpack --to $to of a flipped bit" -- $PCOL unpack "$in" --to $to -o "$tmp/u.out"
    grep -q "flip.pcol: body checksum mismatch" "$tmp/err" || fail "unpack --to $to of $in: $(cat "$tmp/err")"
    [ ! -e "$tmp/u.out" ] || fail "unpack --to $to of $in left an output"
  done
done
expect 0 "unpack of the good file" -- $PCOL unpack "$good" --to pprof -o "$tmp/u.out"

# --- damaged bodies: no crash, with or without --full, mmap or not
for r in "${readers[@]}"; do
  no_crash "body damage" -- $PCOL $r "$tmp/body.pcol"
  if nommap "$r"; then no_crash "body damage, --no-mmap" -- $PCOL $r --no-mmap "$tmp/body.pcol"; fi
done
# (10 random damages of the whole file: the fuzz targets and their replay
# in the unit tests go deeper; each damage here runs every reader under
# LeakSanitizer, ~75 ms a process)
RANDOM=4242
for n in $(seq 1 10); do
  cp "$good" "$tmp/r.pcol"
  for k in 1 2 3; do poke "$tmp/r.pcol" $(((RANDOM * 32768 + RANDOM) % size)) $(printf '%o' $((RANDOM % 256))); done
  for r in "${readers[@]}"; do no_crash "random damage #$n" -- $PCOL $r "$tmp/r.pcol"; done
done

# --- 2: usage
for c in pack unpack info cat validate top fold flame diff merge disasm; do
  expect 2 "$c without arguments" -- $PCOL $c
  expect 2 "$c with an unknown option" -- $PCOL $c --no-such-option "$good"
done
# pprof's one-dash flags are named as pcol's options (user review 5: top
# read -nodecount=5 as -n "odecount=5"); -n5 stays -n 5
for pair in "top -nodecount=5|-n/--limit" "tree -nodecount=3|--node-count" "top -sample_index=1|--value" \
            "top -cum|--sort cum" "peek -lines|--by line" "top -focus=x|--focus"; do
  set -- ${pair%%|*}
  expect 2 "pprof's $2 on $1" -- $PCOL $1 "$good" $2
  grep -qF -- "is ${pair#*|} here" "$tmp/err" || fail "pprof's $2 on $1: $(cat "$tmp/err")"
done
expect 0 "top -n5" -- $PCOL top "$good" -n5
# the row count under the other command's name: top's -n/--limit, tree's
# and graph's --node-count (pprof's nodecount)
for pair in "top --node-count=5|-n/--limit" "top --nodecount 5|-n/--limit" "tree --limit 3|--node-count" \
            "graph --limit 3|--node-count"; do
  set -- ${pair%%|*}
  expect 2 "$2 on $1" -- $PCOL $1 "$good" "${@:2}"
  grep -qF -- "(${pair#*|} here)" "$tmp/err" || fail "$2 on $1: $(cat "$tmp/err")"
done
# -n is pprof's -nodecount in tree and graph too (top's spelling)
$PCOL tree "$good" --node-count 2 >"$tmp/nc" && $PCOL tree "$good" -n 2 >"$tmp/n" && cmp -s "$tmp/nc" "$tmp/n" &&
  ! cmp -s "$tmp/n" <($PCOL tree "$good") || fail "tree -n 2 is not --node-count 2"
$PCOL graph "$good" --format dot -n 2 -o "$tmp/n.dot" && $PCOL graph "$good" --format dot --node-count 2 -o "$tmp/nc.dot" &&
  cmp -s "$tmp/n.dot" "$tmp/nc.dot" || fail "graph -n 2 is not --node-count 2"
# traces --by: top's granularities (pprof -traces -lines ...), no label:KEY
for g in function line file filefunction; do expect 0 "traces --by $g" -- $PCOL traces "$good" --by $g; done
$PCOL traces "$good" --by function | cmp -s - <($PCOL traces "$good") || fail "traces --by function is not traces"
expect 2 "traces --by bogus" -- $PCOL traces "$good" --by bogus
grep -qF -- "--by wants function, line, file, address or filefunction, not 'bogus'" "$tmp/err" ||
  fail "traces --by bogus: $(cat "$tmp/err")"
expect 2 "traces --by label:x" -- $PCOL traces "$good" --by label:x
expect 2 "traces --by without a value" -- $PCOL traces "$good" --by
# (Rprof records no addresses: said, not a trace of everything)
$PCOL traces "$good" --by address >/dev/null 2>"$tmp/err"; [ $? = 1 ] && grep -q 'no addresses' "$tmp/err" ||
  fail "traces --by address of an Rprof file: $(cat "$tmp/err")"
# -n 0 is every row (pprof's -nodecount=0), not a header alone
$PCOL top "$good" --node-fraction 0 >"$tmp/all" && $PCOL top "$good" --node-fraction 0 -n 0 >"$tmp/n0" &&
  [ "$(wc -l <"$tmp/all")" -gt 6 ] && cmp -s "$tmp/all" "$tmp/n0" || fail "top -n 0 is not every row"
$PCOL traces "$good" >"$tmp/all" && $PCOL traces "$good" -n 0 >"$tmp/n0" && cmp -s "$tmp/all" "$tmp/n0" ||
  fail "traces -n 0 is not every trace"
expect 2 "unknown command" -- $PCOL frobnicate
# `pcol help TYPO` says so (review 17 F2: it printed the general help, exit 0)
expect 2 "help of an unknown command" -- $PCOL help flamegraph
grep -q "unknown command 'flamegraph'" "$tmp/err" || fail "help of an unknown command: $(head -1 "$tmp/err")"
expect 0 "help of a command" -- $PCOL help top
grep -q '^Usage: pcol top' "$tmp/out" || fail "help top: $(head -1 "$tmp/out")"
expect 0 "help of help" -- $PCOL help help
grep -q '^Commands:' "$tmp/out" || fail "help help: not the general help"
expect 2 "no command" -- $PCOL
expect 2 "cat unknown table" -- $PCOL cat "$good" --table nope
expect 2 "cat bad format" -- $PCOL cat "$good" --table samples --format xml
expect 2 "cat bad limit" -- $PCOL cat "$good" --table samples --limit lots
expect 2 "unpack unknown format" -- $PCOL unpack "$good" --to nope -o "$tmp/x"
# a format pcol reads but does not write is the user's choice, not the input's fault
for t in tachyon perf jfr pcol; do
  expect 2 "unpack --to $t" -- $PCOL unpack "$good" --to $t -o "$tmp/x"
  $PCOL unpack "$good" --to $t -o "$tmp/x" 2>&1 | grep -q "cannot write format '$t'.*(rprof, pprof" ||
    fail "unpack --to $t: the message names neither the format nor the ones written"
done
expect 2 "pack unknown compression" -- $PCOL pack examples/demo.out --compress brotli -o "$tmp/x"
expect 2 "pack unknown input format" -- $PCOL pack examples/demo.out --from nope -o "$tmp/x"

# --- 3: I/O
for r in "${readers[@]}"; do expect 3 "missing input" -- $PCOL $r "$tmp/missing.pcol"; done
expect 3 "pack of a missing input" -- $PCOL pack "$tmp/missing.out" -o "$tmp/x.pcol"
expect 3 "diff of a missing input" -- $PCOL diff "$good" "$tmp/missing.pcol"
# validate reads a directory as every reading command does: its files
mkdir -p "$tmp/vdir" && cp "$good" "$tmp/vdir/"
expect 0 "validate of a directory of a valid file" -- $PCOL validate "$tmp/vdir"
expect 1 "validate of a directory with damaged files" -- $PCOL validate "$tmp/vdir" "$tmp/hdr.pcol"
mkdir -p "$tmp/unreadable" && chmod 000 "$tmp/unreadable"
[ -r "$tmp/unreadable" ] || expect 3 "an input directory that cannot be read" -- $PCOL info "$tmp/unreadable"
chmod 755 "$tmp/unreadable"
for w in "pack examples/demo.out" "merge $good" "unpack $good --to rprof" "flame $good"; do
  expect 3 "unwritable output ($w)" -- $PCOL $w -o "$tmp/no/such/dir/out"
  expect 3 "output is a directory ($w)" -- $PCOL $w -o "$tmp"
done
if [ -w /dev/full ]; then
  expect 3 "stdout is full (cat)" -- sh -c "$PCOL cat '$good' --table samples > /dev/full"
  expect 3 "stdout is full (pack -o -)" -- sh -c "$PCOL pack examples/demo.out -o - > /dev/full"
fi
cmp "$good" "$tmp/base.pcol" || fail "a reader modified its input"
exit 0
