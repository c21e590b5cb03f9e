#!/usr/bin/env bash
# Many files as one (issue 32): every reading command takes several inputs,
# a directory or a glob, and answers for their union exactly as `pcol merge`
# of them, in that order, does (the union is built in memory through the
# same import path; no file is written).  And --from/--to in wall-clock time
# (RFC 3339 or @EPOCH): each source's range relative to its own start
# (otlp.time_unix_nano, pprof.time_nanos, source_timestamp), a time-less
# source counted whole inside the range, not at all outside it and refused
# when the range cuts it; pcol inputs the range cannot reach are not read.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_many: FAIL: $*" >&2; exit 1; }
G=$TD/pprof/go-cpu-large.pb.gz S=$TD/pprof/go-cpu-inline-small.pb.gz L=$TD/pprof/go-cpu-string-labels.pb.gz
H=$TD/pprof/go-heap-allocs-inline.pb.gz E=$TD/ext/pprof/ODD-otlp-ebpf-profile.pb.bin
for f in $G $S $L $H; do
  [ -f "$f" ] || { echo "t_many: SKIP (no $f: the shared test data)"; exit 0; }
done
R=tests/fixtures/rprof/names.out C=tests/fixtures/collapsed/simple.folded
W=tests/fixtures/perun/trace-complexity.perf

# every view of one input set, with the lines that name the file left out
# (File:, JSON's "file"): the numbers, names and orders must be the same
views() {
  $PCOL top "$@" -n 30 2>/dev/null | tail -n +2
  $PCOL top "$@" --sort cum --by line -n 30 2>/dev/null | tail -n +2
  $PCOL top "$@" --value samples --format json 2>/dev/null | sed 's/"file":"[^"]*",//'
  $PCOL peek "$@" 'main\.' 2>/dev/null | tail -n +2
  $PCOL tags "$@" 2>/dev/null
  $PCOL traces "$@" -n 15 2>/dev/null | tail -n +2
  $PCOL fold "$@" 2>/dev/null
  $PCOL list "$@" 'main\.work' --allow-any-source 2>/dev/null | tail -n +2
  $PCOL cat "$@" --table samples 2>/dev/null
  $PCOL cat "$@" --table functions --limit 200 2>/dev/null
  $PCOL info "$@" --format json 2>/dev/null | sed 's/"file":"[^"]*",//'
}
same_as_merge() { # NAME INPUT... : the union's views are the merged file's
  local name=$1
  shift
  $PCOL merge "$@" -o "$tmp/m.pcol" || fail "$name: merge"
  views "$tmp/m.pcol" >"$tmp/want"
  views "$@" >"$tmp/got"
  [ "$(wc -l <"$tmp/want")" -gt 50 ] || fail "$name: the merged file's views are nearly empty"
  cmp -s "$tmp/want" "$tmp/got" ||
    fail "$name: the union's views differ from the merged file's: $(diff "$tmp/want" "$tmp/got" | head -5)"
}
# pprof files of one kind (cpu): their default value is cpu
same_as_merge "go cpu" $S $L
# any formats at once (pcol, pprof, Rprof, collapsed, Perun): default samples
$PCOL pack $S -o "$tmp/s.pcol" || fail "pack"
same_as_merge "mixed formats" "$tmp/s.pcol" $H $R $C $W $L
# the same inputs twice count twice, as merge does
same_as_merge "twice" $S $S

# pprof's Time: and Duration: lines: of the one source, or of the source
# --source selects, as in that source's own file; of many sources, as go's
# profile.Merge combines them (merge.go combineHeaders: the earliest start,
# the durations added): the union's, the merged file's and those of the
# files read one by one (pcol_top_many) alike, and the same as the header
# of the union's pprof export (one profile whose time_nanos and
# duration_nanos are the combined ones; their sum checked from the inputs'
# meta), whose Time: is the earlier input's (S, 2017, before G, 2022)
$PCOL merge $S $G -o "$tmp/sg.pcol" || fail "merge for the header"
hdr() { $PCOL top "$@" -n 1 2>/dev/null | grep -E '^(Time|Duration):'; }
meta_sum() { $PCOL cat "$@" --table meta | awk -F'\t' '$1 == "pprof.duration_nanos" { s += $2 } END { printf "%.0f\n", s }'; }
for k in 1 2; do
  one=$S; [ $k = 2 ] && one=$G
  want=$(hdr "$one") got=$(hdr "$tmp/sg.pcol" --source $k)
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "header of --source $k: '$got', want '$want'"
done
$PCOL pack $G -o "$tmp/g.pcol" || fail "pack G"
$PCOL unpack "$tmp/sg.pcol" --to pprof -o "$tmp/sg.pb.gz" || fail "unpack the merge"
want=$(hdr "$tmp/sg.pb.gz")
[ "$(echo "$want" | grep -c .)" = 2 ] || fail "header of the merge's export: '$want'"
[ "$(meta_sum "$tmp/sg.pb.gz")" = "$(( $(meta_sum $S) + $(meta_sum $G) ))" ] ||
  fail "the export's duration_nanos $(meta_sum "$tmp/sg.pb.gz") is not the inputs' sum"
[ "$(echo "$want" | grep '^Time:')" = "$(hdr $S | grep '^Time:')" ] || fail "merged Time: is not the earlier input's: '$want'"
for x in "$tmp/sg.pcol" "$S $G" "$tmp/s.pcol $tmp/g.pcol"; do
  # shellcheck disable=SC2086
  [ "$(hdr $x)" = "$want" ] || fail "header of $x: '$(hdr $x)', want '$want'"
done
PCOL_DEBUG=inputs $PCOL top "$tmp/s.pcol" "$tmp/g.pcol" -n 1 2>&1 >/dev/null | grep -q 'each on its own' ||
  fail "two pcol files were not read one by one"
# a wall-clock range leaves out the sources it cannot reach, from the
# header too, however the inputs are given: a day around G's profile
# (2022) is G's header alone, not S's (2017) start
day="--from 2022-10-18T00:00:00Z --to 2022-10-19T00:00:00Z"
want=$(hdr $G)
for x in "$tmp/sg.pcol" "$S $G" "$tmp/s.pcol $tmp/g.pcol"; do
  # shellcheck disable=SC2086
  [ "$(hdr $x $day)" = "$want" ] || fail "header of $x in G's day: '$(hdr $x $day)', want '$want'"
done

# the union's compressed inputs are inflated ahead, on a thread (ahead.c):
# the same bytes, imported in the same order, as merge's import of each.
# What the thread cannot read without a side effect (a pipe) or that does
# not inflate whole (past 8 MiB, a bomb, a cut stream, gzip in gzip), and
# zstd, are left to the import, which answers, or refuses, as with no thread.
mkdir "$tmp/ahead"
cp $S "$tmp/ahead/1.pb.gz"
cp $L "$tmp/ahead/2.pb.gz"
gzip -dc $H >"$tmp/ahead/3.pb"
gzip -c $R >"$tmp/ahead/4.out.gz"
gzip -c $C >"$tmp/ahead/5.folded.gz"
cp "$tmp/s.pcol" "$tmp/ahead/6.pcol"
nz=4
if command -v zstd >/dev/null 2>&1; then
  gzip -dc $S | zstd -q -o "$tmp/ahead/7.pb.zst" || fail "zstd"
fi
export PCOL_THREADS=2
same_as_merge "inflated ahead" "$tmp"/ahead/*
n=$(ls "$tmp/ahead" | wc -l)
PCOL_DEBUG=inputs $PCOL top "$tmp/ahead" >/dev/null 2>"$tmp/err"
grep -q "debug: $nz of $n inputs inflated ahead, on a thread" "$tmp/err" ||
  fail "the compressed inputs were not inflated ahead: $(cat "$tmp/err")"
PCOL_THREADS=1 PCOL_DEBUG=inputs $PCOL top "$tmp/ahead" >/dev/null 2>"$tmp/err"
grep -q "inflated ahead" "$tmp/err" && fail "PCOL_THREADS=1 started the read-ahead thread"
# pack and merge read ahead too (pcol_import_paths): the same file, byte
# for byte, as with no thread
PCOL_DEBUG=inputs $PCOL merge "$tmp/ahead" -o "$tmp/ahead2.pcol" 2>"$tmp/err" || fail "merge, read ahead"
grep -q "debug: $nz of $n inputs inflated ahead" "$tmp/err" || fail "merge did not read ahead: $(cat "$tmp/err")"
PCOL_THREADS=1 $PCOL merge "$tmp/ahead" -o "$tmp/ahead1.pcol" || fail "merge, no thread"
cmp -s "$tmp/ahead1.pcol" "$tmp/ahead2.pcol" || fail "merge read ahead is not the file merge writes alone"
$PCOL pack --from collapsed "$tmp/ahead/5.folded.gz" $C -o "$tmp/ahead2.pcol" || fail "pack --from, read ahead"
PCOL_THREADS=1 $PCOL pack --from collapsed "$tmp/ahead/5.folded.gz" $C -o "$tmp/ahead1.pcol" || fail "pack --from"
cmp -s "$tmp/ahead1.pcol" "$tmp/ahead2.pcol" || fail "pack --from read ahead is not the file pack writes alone"
# 16 inputs in a row not compressed (pcol files) stop the thread; the
# compressed ones after them are inflated by their import
mkdir "$tmp/plain"
for i in $(seq -w 1 17); do cp "$tmp/s.pcol" "$tmp/plain/a$i.pcol"; done
cp $L "$tmp/plain/b.pb.gz"
PCOL_DEBUG=inputs $PCOL top "$tmp/plain" --by line >"$tmp/out" 2>"$tmp/err" || fail "top of 17 pcol files and a .pb.gz"
grep -q "debug: 0 of 18 inputs inflated ahead" "$tmp/err" || fail "the thread went on past 16 pcol files: $(cat "$tmp/err")"
$PCOL merge "$tmp/plain" -o "$tmp/plain.pcol" || fail "merge of the plain inputs"
[ "$(tail -n +2 "$tmp/out")" = "$($PCOL top "$tmp/plain.pcol" --by line | tail -n +2)" ] || fail "17 pcol files and a .pb.gz: not their merge"
# a pipe among the inputs (its /dev/fd name): read once, by the import
want=$($PCOL top $L $S | tail -n +2)
got=$(timeout 20 $PCOL top $L <(cat $S) | tail -n +2)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "a pipe among inflated inputs: $(echo "$got" | head -3)"
# inflating past 8 MiB (a valid profile of 700k lines): read by the import
python3 -c 'import sys; sys.stdout.write("main;work;loop 1\n" * 350000 + "main;idle 3\n" * 350000)' |
  gzip -c >"$tmp/big.folded.gz"
PCOL_DEBUG=inputs $PCOL top "$tmp/big.folded.gz" $S >"$tmp/out" 2>"$tmp/err" || fail "top of a large inflated input"
grep -q "debug: 1 of 2 inputs inflated ahead" "$tmp/err" || fail "the 10 MB input was held ahead: $(cat "$tmp/err")"
$PCOL merge "$tmp/big.folded.gz" $S -o "$tmp/big.pcol" || fail "merge of the large input"
[ "$(tail -n +2 "$tmp/out")" = "$($PCOL top "$tmp/big.pcol" | tail -n +2)" ] || fail "the large input's union differs from its merge"
# refusals: the same exit and message with the thread as without
head -c 3000 $L >"$tmp/cut.pb.gz"
head -c 41943040 /dev/zero | gzip -c >"$tmp/bomb.pb.gz"
gzip -c $S >"$tmp/twice.pb.gz.gz"
# pack --from pcol of gzip inputs: the inflated bytes are refused, not the file
printf ab | gzip -c >"$tmp/ab.gz"
PCOL_THREADS=1 $PCOL pack --from pcol "$tmp/ab.gz" "$tmp/ab.gz" -o "$tmp/ab1.pcol" 2>"$tmp/err1"
rc1=$?
$PCOL pack --from pcol "$tmp/ab.gz" "$tmp/ab.gz" -o "$tmp/ab2.pcol" 2>"$tmp/err2"
rc2=$?
[ $rc1 != 0 ] && [ $rc1 = $rc2 ] && cmp -s "$tmp/err1" "$tmp/err2" ||
  fail "pack --from pcol of gzip: exit $rc1 and '$(cat "$tmp/err1")' alone, exit $rc2 and '$(cat "$tmp/err2")' with the thread"
for bad in cut.pb.gz bomb.pb.gz twice.pb.gz.gz; do
  PCOL_THREADS=1 $PCOL top $S "$tmp/$bad" $L >/dev/null 2>"$tmp/err1"
  rc1=$?
  $PCOL top $S "$tmp/$bad" $L >/dev/null 2>"$tmp/err2"
  rc2=$?
  [ $rc1 != 0 ] && [ $rc1 = $rc2 ] && cmp -s "$tmp/err1" "$tmp/err2" && grep -q "$bad" "$tmp/err2" ||
    fail "$bad: exit $rc1 and '$(cat "$tmp/err1")' alone, exit $rc2 and '$(cat "$tmp/err2")' with the thread"
  PCOL_THREADS=1 $PCOL merge $S "$tmp/$bad" $L -o "$tmp/bad1.pcol" 2>"$tmp/err1"
  rc1=$?
  $PCOL merge $S "$tmp/$bad" $L -o "$tmp/bad2.pcol" 2>"$tmp/err2"
  rc2=$?
  [ $rc1 != 0 ] && [ $rc1 = $rc2 ] && cmp -s "$tmp/err1" "$tmp/err2" && [ ! -e "$tmp/bad2.pcol" ] ||
    fail "merge with $bad: exit $rc1 and '$(cat "$tmp/err1")' alone, exit $rc2 and '$(cat "$tmp/err2")' with the thread"
done
unset PCOL_THREADS

# a directory (its files by name) and a glob the shell left alone
mkdir "$tmp/day"
ln -s "$(cd "$(dirname $S)" && pwd)/$(basename $S)" "$tmp/day/a.pb.gz"
ln -s "$(cd "$(dirname $L)" && pwd)/$(basename $L)" "$tmp/day/b.pb.gz"
cp "$tmp/s.pcol" "$tmp/day/c.pcol"
touch "$tmp/day/.hidden"
$PCOL merge "$tmp/day/a.pb.gz" "$tmp/day/b.pb.gz" "$tmp/day/c.pcol" -o "$tmp/d.pcol" || fail "merge day"
dviews=$(views "$tmp/d.pcol") # the merged file's views, read once for both
[ "$dviews" = "$(views "$tmp/day")" ] || fail "a directory is not the union of its files by name"
[ "$dviews" = "$(views "$tmp/day/*")" ] || fail "a quoted glob is not the union of its files"
$PCOL merge "$tmp/day/a.pb.gz" "$tmp/day/b.pb.gz" -o "$tmp/ab.pcol" || fail "merge a b"
[ "$(views "$tmp/ab.pcol")" = "$(views "$tmp/day/*.pb.gz")" ] || fail "a glob selects by its pattern"
# diff: each side one argument, a file, a directory or a glob
[ "$($PCOL diff "$tmp/ab.pcol" "$tmp/d.pcol" | tail -n +3)" = \
  "$($PCOL diff "$tmp/day/*.pb.gz" "$tmp/day" | tail -n +3)" ] || fail "diff of globs and directories"
# exports: the union written, as the merged file's
$PCOL unpack "$tmp/day" --to collapsed -o "$tmp/u.txt" || fail "unpack of a directory"
$PCOL unpack "$tmp/d.pcol" --to collapsed -o "$tmp/m.txt" || fail "unpack of the merge"
cmp -s "$tmp/u.txt" "$tmp/m.txt" || fail "unpack of the union differs from the merged file's"
$PCOL flame "$tmp/day" -o "$tmp/u.svg" && $PCOL flame "$tmp/d.pcol" -o "$tmp/m.svg" || fail "flame"
cmp -s <(grep -v '<text\|<title>Flame\|subtitle' "$tmp/u.svg") <(grep -v '<text\|<title>Flame\|subtitle' "$tmp/m.svg") ||
  fail "flame of the union differs from the merged file's"
# export --to clickhouse: a directory and a quoted glob are their files, each
# its own sources, as the files named one by one (user review 7: refused)
$PCOL export "$tmp/day/a.pb.gz" "$tmp/day/b.pb.gz" "$tmp/day/c.pcol" --to clickhouse -o "$tmp/ch1" 2>/dev/null &&
  $PCOL export "$tmp/day" --to clickhouse -o "$tmp/ch2" 2>"$tmp/err" &&
  $PCOL export "$tmp/day/*" --to clickhouse -o "$tmp/ch3" 2>/dev/null || fail "export of a directory: $(cat "$tmp/err")"
grep -q ' of 3 inputs written' "$tmp/err" || fail "export of a directory: $(cat "$tmp/err")"
for t in "$tmp"/ch1/*; do
  cmp -s "$t" "$tmp/ch2/${t##*/}" && cmp -s "$t" "$tmp/ch3/${t##*/}" || fail "export of a directory: ${t##*/} differs"
done
# errors name what is wrong
$PCOL top "$tmp/nothing/*.pb.gz" 2>"$tmp/err"
[ $? = 2 ] && grep -q "no file matches" "$tmp/err" || fail "a glob without match: $(cat "$tmp/err")"
# a glob follows the directory rule (issue 42 F6): regular files only, found
# without opening anything; a FIFO it matches blocked the open forever, a
# directory exited 3.  Each one skipped is named; none left is exit 1.
mkdir "$tmp/odd" "$tmp/odd/sub"
mkfifo "$tmp/odd/fifo" || fail "mkfifo"
ln -s "$(cd "$(dirname $S)" && pwd)/$(basename $S)" "$tmp/odd/s.pb.gz"
timeout 20 $PCOL top "$tmp/odd/*" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] || fail "a glob matching a FIFO and a directory: exit $rc (124: it blocked): $(head -c 300 "$tmp/err")"
[ "$(tail -n +2 "$tmp/out")" = "$($PCOL top $S | tail -n +2)" ] || fail "a glob with a FIFO is not its regular file's view"
grep -q "skipped '$tmp/odd/fifo' (matched by '$tmp/odd/\*'): not a regular file" "$tmp/err" &&
  grep -q "skipped '$tmp/odd/sub'" "$tmp/err" || fail "the skipped matches are not named: $(cat "$tmp/err")"
for pat in "$tmp/odd/f*" "$tmp/odd/su*" "$tmp/odd/[fs][iu]*"; do
  timeout 20 $PCOL top "$pat" >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc = 1 ] && grep -q "no regular file matches" "$tmp/err" ||
    fail "a glob of no regular file ($pat): exit $rc (want 1): $(cat "$tmp/err")"
done
# the same directory named as one: its entries' types (no stat but for the
# link) keep the FIFO and the subdirectory out, and the link in
timeout 20 $PCOL top "$tmp/odd" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ "$(tail -n +2 "$tmp/out")" = "$($PCOL top $S | tail -n +2)" ] ||
  fail "a directory with a FIFO, a subdirectory and a link: exit $rc (124: it blocked): $(head -c 300 "$tmp/err")"
$PCOL top $S "$tmp/missing.pb.gz" 2>"$tmp/err"
[ $? = 3 ] && grep -q "missing.pb.gz" "$tmp/err" || fail "a missing input is not named: $(cat "$tmp/err")"
printf 'not a profile\0\1' >"$tmp/bad.bin"
$PCOL top $S "$tmp/bad.bin" 2>"$tmp/err"
[ $? = 1 ] && grep -q "bad.bin" "$tmp/err" || fail "a bad input is not named: $(cat "$tmp/err")"
grep -q "quoted glob" "$tmp/err" && fail "files named one by one: a glob suggested: $(cat "$tmp/err")"
# a README beside the profiles (review 9): a directory gives every regular
# file, so the union is refused, naming the file and a glob of the suffix
# the others share (pcol_inputs_explain, the library's: the bindings say it
# too); that glob reads the profiles
mkdir "$tmp/withreadme"
cp $S "$tmp/withreadme/a.pb.gz" && cp $G "$tmp/withreadme/b.pb.gz" && printf '# sources\n\nfrom pprof\n' >"$tmp/withreadme/SOURCES.md"
$PCOL top "$tmp/withreadme" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -qF "$tmp/withreadme/SOURCES.md: unrecognised input format" "$tmp/err" &&
  grep -qF "quoted glob ('$tmp/withreadme/*.pb.gz') or list them" "$tmp/err" ||
  fail "a directory with a README: exit $rc: $(cat "$tmp/err")"
$PCOL top "$tmp/withreadme/*.pb.gz" >/dev/null 2>"$tmp/err" || fail "the glob suggested: $(cat "$tmp/err")"
$PCOL top "$tmp/withreadme/*" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -qF "quoted glob ('$tmp/withreadme/*.pb.gz')" "$tmp/err" || fail "a glob of a README: $(cat "$tmp/err")"
# a directory too long to quote whole is named DIR, not cut into a path
# that names nothing (the review of the day's diff, F10)
long="$tmp/$(printf 'd%.0s' $(seq 60))/$(printf 'e%.0s' $(seq 70))"
mkdir -p "$long" && cp "$tmp/withreadme/"* "$long/"
$PCOL top "$long" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -qF "quoted glob ('DIR/*.pb.gz', DIR the directory) or list them" "$tmp/err" ||
  fail "a long directory with a README: $(cat "$tmp/err")"
# inputs that are only read get a single file's checks (header, directory,
# every column on use; no checksum pass over every byte): a string changed
# in place reads as one file and as one of many, while validate --full and
# merge, which write what they read, still refuse it
cp "$tmp/s.pcol" "$tmp/bad.pcol"
at=$(grep -abo 'runtime\.main' "$tmp/bad.pcol" | head -1 | cut -d: -f1)
[ -n "$at" ] || fail "no runtime.main in the strings of s.pcol"
printf R | dd of="$tmp/bad.pcol" bs=1 seek="$at" conv=notrunc 2>/dev/null
$PCOL validate --full "$tmp/bad.pcol" >/dev/null 2>&1 && fail "validate --full missed a changed byte"
$PCOL merge "$tmp/bad.pcol" $S -o "$tmp/bm.pcol" 2>"$tmp/err"
[ $? = 1 ] && grep -q "checksum" "$tmp/err" || fail "merge of a damaged input: $(cat "$tmp/err")"
$PCOL top "$tmp/bad.pcol" --format tsv | grep -q "Runtime\.main" || fail "one damaged file is not read as before"
$PCOL top "$tmp/bad.pcol" "$tmp/s.pcol" --format tsv >"$tmp/o" 2>"$tmp/err" ||
  fail "many inputs check every byte's checksum: $(cat "$tmp/err")"
grep -q "Runtime\.main" "$tmp/o" && grep -q "runtime\.main" "$tmp/o" || fail "top of a damaged and a good input"

# memory (doc/safety.md, "many inputs"): at most merge's peak plus the
# merged file's size (4 MiB of slack); not under a sanitizer's allocator
if [ -x /usr/bin/time ] && ! nm "$PCOL" 2>/dev/null | grep -q __asan_init; then
  /usr/bin/time -o "$tmp/rss_m" -f %M $PCOL merge $G $S $L -o "$tmp/m3.pcol" || fail "merge of 3"
  /usr/bin/time -o "$tmp/rss_t" -f %M $PCOL top $G $S $L >/dev/null || fail "top of 3"
  bound=$(($(tail -1 "$tmp/rss_m") + $(stat -c %s "$tmp/m3.pcol") / 1024 + 4096))
  [ "$(tail -1 "$tmp/rss_t")" -le "$bound" ] ||
    fail "top of 3 inputs took $(tail -1 "$tmp/rss_t") KB, over merge's peak + the merged file ($bound KB)"
fi
# pack and merge expand directories and globs too
$PCOL merge "$tmp/day" -o "$tmp/d2.pcol" && cmp -s "$tmp/d.pcol" "$tmp/d2.pcol" ||
  fail "merge of a directory is not merge of its files by name"

# ---------------------------------------------------- wall-clock ranges
# go-cpu-large: pprof, time_nanos 2022-10-18 15:39:57.086 UTC, 240.36 s,
# samples without times; go-cpu-inline-small: 2017.  Read from the file.
gmeta=$($PCOL cat $G --table meta) # one import of the large file for both
start=$(awk -F'\t' '$1 == "pprof.time_nanos" { print $2 }' <<<"$gmeta")
dur=$(awk -F'\t' '$1 == "pprof.duration_nanos" { print $2 }' <<<"$gmeta")
[ -n "$start" ] && [ -n "$dur" ] || fail "go-cpu-large has no time_nanos/duration_nanos"
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
s0=$((start / 1000000000)) s1=$(((start + dur) / 1000000000 + 1))
total() { sed -n 's/.* of \(.*\) total$/\1/p'; }
want=$($PCOL top $G --unit raw | total)
got=$($PCOL top $G $S --unit raw --from "$(iso $((s0 - 60)))" --to "$(iso $((s1 + 60)))" | total)
[ "$got" = "$want" ] || fail "a range holding go-cpu-large whole: total $got, want $want (it alone)"
got=$($PCOL top $G $S --unit raw --from "@$((s0 - 60))" --to "@$((s1 + 60))" | total)
[ "$got" = "$want" ] || fail "@EPOCH: total $got, want $want"
got=$($PCOL top $G $S --unit raw --from "$(date -u -d "@$((s0 - 3600))" +%Y-%m-%dT%H:%M:%S)+01:00" --to "@$((s1 + 60))" | total)
[ "$got" = "$want" ] || fail "a +01:00 zone: total $got, want $want"
$PCOL top $G --from "$(iso $((s0 + 10)))" --to "$(iso $((s1 + 60)))" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "no sample times and the range cuts" "$tmp/err" ||
  fail "a range cutting a time-less source must be refused: $(cat "$tmp/err")"
# pcol inputs outside the range are not read; the answer is the union of
# those that overlap it, as merge of those
$PCOL pack $G -o "$tmp/g.pcol" && $PCOL pack $L -o "$tmp/l.pcol" || fail "pack"
rng=(--from "$(iso $((s0 - 60)))" --to "$(iso $((s1 + 60)))")
PCOL_DEBUG=inputs $PCOL top "$tmp/s.pcol" "$tmp/g.pcol" "$tmp/l.pcol" "${rng[@]}" --unit raw >"$tmp/o" 2>"$tmp/err" ||
  fail "top of three pcol files in a range: $(cat "$tmp/err")"
grep -q "read 1 of 3 inputs" "$tmp/err" || fail "the files outside the range were read: $(cat "$tmp/err")"
[ "$(total <"$tmp/o")" = "$want" ] || fail "the range's total over pcol files: $(total <"$tmp/o"), want $want"
[ "$(tail -n +2 "$tmp/o")" = "$($PCOL top "$tmp/g.pcol" "${rng[@]}" --unit raw | tail -n +2)" ] ||
  fail "the union in a range is not the overlapping file's"
# the same with (inline) marks to make: the one file's Time and Duration lines
o=(--node-fraction 0 --sort cum -n 30)
[ "$($PCOL top "$tmp/s.pcol" "$tmp/g.pcol" "$tmp/l.pcol" "${rng[@]}" "${o[@]}" | tail -n +2)" = \
  "$($PCOL top "$tmp/g.pcol" "${rng[@]}" "${o[@]}" | tail -n +2)" ] ||
  fail "the union in a range, rows marked, is not the overlapping file's"
# each pcol input is opened once, read or left out (strace, where installed;
# LeakSanitizer cannot run under ptrace)
if command -v strace >/dev/null; then
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -e trace=open,openat -o "$tmp/st" $PCOL top "$tmp/s.pcol" "$tmp/g.pcol" "$tmp/l.pcol" \
    "${rng[@]}" >/dev/null 2>&1 || fail "top of three pcol files in a range under strace"
  for x in s g l; do
    n=$(grep -c "$tmp/$x.pcol\"" "$tmp/st")
    [ "$n" = 1 ] || fail "$x.pcol opened $n times for a range over three pcol files, not once"
  done
fi
# ------------------------ many pcol files, each on its own (issue 47)
# top of pcol files computes each file's rows and adds them up by name
# (pcol_top_many): every option set prints what top of the merged file
# prints, byte for byte (but the File line and JSON's "file"), and
# PCOL_DEBUG=inputs says each file was read on its own; where the rows
# cannot add up exactly, or the union would warn about its sources, the
# union answers as before, with its warnings.  G has inlined frames (the
# "(inline)" marks come from the files' call edges added up).
$PCOL pack $H -o "$tmp/h.pcol" && cp "$tmp/h.pcol" "$tmp/h2.pcol" && $PCOL pack $R -o "$tmp/r.pcol" &&
  $PCOL merge "$tmp/s.pcol" "$tmp/l.pcol" -o "$tmp/sl.pcol" || fail "pack for top of many"
same_top() { # EACH(1/0) "OPTIONS" FILE... : top of the files is top of their merge
  local each=$1 opts=$2
  shift 2
  local lbl="$*"
  $PCOL merge "$@" -o "$tmp/tm.pcol" 2>/dev/null || fail "top of many: merge $lbl"
  # shellcheck disable=SC2086
  $PCOL top "$tmp/tm.pcol" $opts >"$tmp/tw" 2>"$tmp/twe"
  local rw=$? th
  # one thread, and one a file after the first (each thread its own names,
  # added up at the end; the marks' files kept by one, read by another)
  for th in 1 4; do
    # shellcheck disable=SC2086
    PCOL_THREADS=$th PCOL_DEBUG=inputs $PCOL top "$@" $opts >"$tmp/tg" 2>"$tmp/tge"
    local rg=$?
    [ $rg = $rw ] || fail "top of many [$opts] $lbl (PCOL_THREADS=$th): exit $rg, the merged file's $rw: $(head -3 "$tmp/tge")"
    cmp -s <(tail -n +2 "$tmp/tg" | sed 's/"file":"[^"]*",//') <(tail -n +2 "$tmp/tw" | sed 's/"file":"[^"]*",//') ||
      fail "top of many [$opts] $lbl (PCOL_THREADS=$th) differs from top of the merge: $(diff <(tail -n +2 "$tmp/tg") <(tail -n +2 "$tmp/tw") | head -6)"
    cmp -s <(grep -v ': debug: ' "$tmp/tge" | sed "s#$lbl#X#") <(sed "s#$tmp/tm.pcol#X#" "$tmp/twe") ||
      fail "top of many [$opts] $lbl (PCOL_THREADS=$th): other warnings than the merged file's: $(head -c 400 "$tmp/tge")"
    local got=0
    grep -q ": debug: read [0-9]* of [0-9]* inputs, each on its own" "$tmp/tge" && got=1
    [ $got = "$each" ] || fail "top of many [$opts] $lbl (PCOL_THREADS=$th): each file on its own: $got, want $each"
  done
}
[ "$($PCOL top "$tmp/s.pcol" "$tmp/g.pcol" "$tmp/l.pcol" --sort cum --node-fraction 0 -n 30 | grep -c '(inline)$')" -gt 2 ] ||
  fail "top of many: no (inline) mark to check"
for o in "" "-n 5" "--sort cum -n 8" "--sort cum --node-fraction 0 -n 25" "--sort cum -n 40" \
  "--node-fraction 0" "--by file --format tsv" \
  "--value samples --format json" "--value cpu --focus main --unit ms" "--hide runtime -n 12" \
  "--sort name --node-fraction 0 --format csv" "--ignore runtime --show main -n 3" \
  "--show-from main --sort cum -n 12" "--show-from runtime --hide mallocgc" \
  "--relative-percentages --ignore runtime --node-fraction 0.02" \
  "--focus nomatchxyz --ignore zzzq" "--hide zzzq -n 3"; do # (filters that match nothing: warned alike)
  same_top 1 "$o" "$tmp/s.pcol" "$tmp/g.pcol" "$tmp/l.pcol"
done
same_top 1 "--sort cum -n 10" "$tmp/sl.pcol" "$tmp/g.pcol" # files of several sources
# the first file without inlined frames: read again for its call edges
$PCOL pack $TD/pprof/cpp-cpu-unsymbolized-mappings.pb.gz -o "$tmp/cpp.pcol" || fail "pack cpp"
same_top 1 "--sort cum --node-fraction 0 -n 25" "$tmp/cpp.pcol" "$tmp/g.pcol"
same_top 1 "--node-fraction 0 --format tsv" "$tmp/cpp.pcol" "$tmp/g.pcol"
same_top 1 "" "$tmp/s.pcol" "$tmp/s.pcol"                  # one file twice counts twice
# a range that selects nothing: the union answers, with the warning that
# says where the samples are (rd11 F7: the files one by one said nothing)
$PCOL pack examples/demo.out -o "$tmp/demo1.pcol" && cp "$tmp/demo1.pcol" "$tmp/demo2.pcol" || fail "pack demo"
same_top 0 "--from 5000 --to 6000" "$tmp/demo1.pcol" "$tmp/demo2.pcol"
same_top 1 "--from 0.1 --to 0.2" "$tmp/demo1.pcol" "$tmp/demo2.pcol"
# a file without mappings beside one with: pprof's fake mapping of file ""
# (pcol_filter_loc_mapping) is the merge's only when no file has a mapping,
# so with a name filter the union answers; files all without answer each
$PCOL pack $TD/pprof/go-heap-nomappings-nofunctions.pb.gz -o "$tmp/nm.pcol" &&
  $PCOL pack $TD/pprof/go-heap-allocs-inline.pb.gz -o "$tmp/hm.pcol" || fail "pack nm, hm"
same_top 0 "--value inuse_space --focus ^$" "$tmp/nm.pcol" "$tmp/hm.pcol"
same_top 0 "--value inuse_space --show .* -n 5" "$tmp/nm.pcol" "$tmp/hm.pcol"
same_top 1 "--value inuse_space -n 5" "$tmp/nm.pcol" "$tmp/hm.pcol"
same_top 1 "--focus ^$ -n 5" "$tmp/nm.pcol" "$tmp/nm.pcol"
# nine files on four threads: inlined frames met by several threads, a
# thread's first file without them (its edges read again for the marks)
for o in "--sort cum --node-fraction 0 -n 25" "--by file -n 8" "--hide runtime --format tsv"; do
  same_top 1 "$o" "$tmp/s.pcol" "$tmp/l.pcol" "$tmp/cpp.pcol" "$tmp/g.pcol" "$tmp/s.pcol" \
    "$tmp/cpp.pcol" "$tmp/g.pcol" "$tmp/l.pcol" "$tmp/g.pcol"
done
grep -q "each on its own, on 4 threads" "$tmp/tge" || fail "nine files, PCOL_THREADS=4: $(cat "$tmp/tge")"
same_top 0 "--from 0 --to 30" "$tmp/s.pcol" "$tmp/g.pcol"  # no sample times: the union's error
if [ -f "$E" ]; then # sample times, 82 sources a file
  $PCOL pack $E -o "$tmp/e.pcol" && cp "$tmp/e.pcol" "$tmp/e2.pcol" || fail "pack $E"
  same_top 1 "--value weight --from 1 --to 3" "$tmp/e.pcol" "$tmp/e2.pcol"
fi
# one value type in each file, several in each: each on its own when the
# value resolves alike in every file
same_top 1 "--value alloc_space -n 6" "$tmp/h.pcol" "$tmp/h2.pcol"
same_top 1 "--value inuse_objects/count --sort cum" "$tmp/h.pcol" "$tmp/h2.pcol"
# different value types: the union warns (the defaults differ; a source
# without the value) and answers; the unnamed-function rule of Rprof
same_top 0 "" "$tmp/s.pcol" "$tmp/h.pcol"
same_top 0 "--value samples -n 5" "$tmp/s.pcol" "$tmp/h.pcol"
same_top 0 "--value cpu" "$tmp/g.pcol" "$tmp/h.pcol"
same_top 0 "--value weight" "$tmp/s.pcol" "$tmp/r.pcol"
same_top 0 "--by line -n 5" "$tmp/s.pcol" "$tmp/g.pcol"
# diff: each side a directory of pcol files, each file on its own
mkdir "$tmp/pd1" "$tmp/pd2" && cp "$tmp/s.pcol" "$tmp/l.pcol" "$tmp/pd1/" && cp "$tmp/g.pcol" "$tmp/s.pcol" "$tmp/pd2/" &&
  $PCOL merge "$tmp/pd1" -o "$tmp/pd1.pcol" && $PCOL merge "$tmp/pd2" -o "$tmp/pd2.pcol" || fail "diff: the sides"
for o in "" "--absolute --sort cum -n 12" "--node-fraction 0 --format tsv"; do
  # shellcheck disable=SC2086
  got=$(PCOL_DEBUG=inputs $PCOL diff "$tmp/pd1" "$tmp/pd2" $o 2>"$tmp/err" | tail -n +3)
  [ "$(grep -c "each on its own" "$tmp/err")" = 2 ] || fail "diff [$o] of two directories of pcol files: $(cat "$tmp/err")"
  # shellcheck disable=SC2086
  [ "$got" = "$($PCOL diff "$tmp/pd1.pcol" "$tmp/pd2.pcol" $o | tail -n +3)" ] ||
    fail "diff [$o] of two directories is not diff of their merges"
done
# a pcol input that cannot be read, and one in another format: the error
# and the answer of the union
head -c 300 "$tmp/s.pcol" >"$tmp/cut.pcol"
$PCOL top "$tmp/s.pcol" "$tmp/cut.pcol" >"$tmp/o" 2>"$tmp/err"
[ $? = 1 ] && [ ! -s "$tmp/o" ] && grep -q "cut.pcol" "$tmp/err" ||
  fail "top of a good and a cut pcol file: $(cat "$tmp/err")"
$PCOL merge "$tmp/s.pcol" "$tmp/cut.pcol" -o "$tmp/x.pcol" 2>"$tmp/err2"
[ "$(cat "$tmp/err")" = "$(sed 's/^pcol merge/pcol top/' "$tmp/err2")" ] ||
  fail "top of a cut pcol file: not the error merge gives: $(cat "$tmp/err") / $(cat "$tmp/err2")"
# the same among eight files read on four threads: one fails, the union
# answers with merge's error
cut8=("$tmp/s.pcol" "$tmp/l.pcol" "$tmp/g.pcol" "$tmp/s.pcol" "$tmp/l.pcol" "$tmp/cut.pcol" "$tmp/s.pcol" "$tmp/g.pcol")
PCOL_THREADS=4 $PCOL top "${cut8[@]}" >"$tmp/o" 2>"$tmp/err"
[ $? = 1 ] && [ ! -s "$tmp/o" ] || fail "top of eight files, one cut, on four threads: $(cat "$tmp/err")"
$PCOL merge "${cut8[@]}" -o "$tmp/x.pcol" 2>"$tmp/err2"
[ "$(cat "$tmp/err")" = "$(sed 's/^pcol merge/pcol top/' "$tmp/err2")" ] ||
  fail "top of a cut pcol file on four threads: not the error merge gives: $(cat "$tmp/err") / $(cat "$tmp/err2")"
PCOL_DEBUG=inputs $PCOL top "$tmp/s.pcol" "$S" "$tmp/l.pcol" 2>"$tmp/err" >/dev/null &&
  ! grep -q "each on its own" "$tmp/err" || fail "top of pcol and pprof inputs: $(cat "$tmp/err")"
# a range that reaches no input keeps every one, as it keeps every source
# of one file: the answer of their merge, 0 with its warning of where the
# samples are (before: "none of the 2 inputs reaches the time range", exit
# 1, where the R and Python packages answered 0), of files as of a directory
$PCOL merge "$tmp/s.pcol" "$tmp/l.pcol" -o "$tmp/sl.pcol" || fail "merge s l"
mkdir "$tmp/sl" && cp "$tmp/s.pcol" "$tmp/l.pcol" "$tmp/sl/" || fail "cp"
$PCOL top "$tmp/sl.pcol" "${rng[@]}" >"$tmp/want" 2>"$tmp/wanterr" || fail "top of the merge, out of the range"
grep -q "^pcol top: warning: $tmp/sl.pcol: the range --from .* selects no sample: the sources' samples are at " "$tmp/wanterr" &&
  grep -q " of 0 total$" "$tmp/want" || fail "top of one file out of the range: $(cat "$tmp/want" "$tmp/wanterr")"
for args in "$tmp/s.pcol $tmp/l.pcol" "$tmp/sl"; do
  # shellcheck disable=SC2086
  $PCOL top $args "${rng[@]}" >"$tmp/o" 2>"$tmp/err" || fail "no input in the range ($args): $(cat "$tmp/err")"
  [ "$(tail -n +2 "$tmp/o")" = "$(tail -n +2 "$tmp/want")" ] &&
    [ "$(cat "$tmp/err")" = "$(sed "s|: $tmp/sl.pcol: |: $args: |" "$tmp/wanterr")" ] ||
    fail "no input in the range ($args): not the merge's answer: $(cat "$tmp/o" "$tmp/err")"
done
# samples with times: the eBPF profiler's OTLP message (times relative to
# otlp.time_unix_nano): a wall range is each source's relative range
if [ -f "$E" ]; then
  t0=$($PCOL cat $E --table meta | awk -F'\t' '$1 == "otlp.time_unix_nano" { print $2; exit }')
  a=$((t0 + 1000000000)) b=$((t0 + 3000000000))
  wa="@$((a / 1000000000)).$(printf %09d $((a % 1000000000)))" wb="@$((b / 1000000000)).$(printf %09d $((b % 1000000000)))"
  rel=$($PCOL top $E --from 1 --to 3 --format json --value samples 2>/dev/null | sed 's/"filters":{[^}]*}//')
  wal=$($PCOL top $E --from "$wa" --to "$wb" --format json --value samples 2>/dev/null | sed 's/"filters":{[^}]*}//')
  [ -n "$rel" ] && [ "$rel" = "$wal" ] || fail "OTLP: the wall range is not the sources' range 1..3 s"
  [ "$($PCOL cat $E --table samples --from 1 --to 3)" = "$($PCOL cat $E --table samples --from "$wa" --to "$wb")" ] ||
    fail "OTLP: cat --from/--to in wall-clock time"
  $PCOL unpack $E -t collapsed --from "$wa" --to "$wb" -o "$tmp/w.txt" &&
    $PCOL unpack $E -t collapsed --from 1 --to 3 -o "$tmp/r.txt" && cmp -s "$tmp/w.txt" "$tmp/r.txt" ||
    fail "OTLP: unpack --from/--to in wall-clock time"
  [ "$(wc -l <"$tmp/r.txt")" -gt 0 ] || fail "OTLP: the range 1..3 s is empty"
  # long samples (pack --coalesce) cut by a wall-clock bound: the same part
  $PCOL pack $E --coalesce -o "$tmp/ec.pcol" || fail "pack --coalesce"
  [ "$($PCOL cat "$tmp/ec.pcol" --table samples --from 1.5 --to 2.5)" = \
    "$($PCOL cat "$tmp/ec.pcol" --table samples --from "@$(((t0 + 1500000000) / 1000000000)).$(printf %09d $(((t0 + 1500000000) % 1000000000)))" --to "@$(((t0 + 2500000000) / 1000000000)).$(printf %09d $(((t0 + 2500000000) % 1000000000)))")" ] ||
    fail "OTLP coalesced: cat of a wall-clock range cuts long samples differently"
fi
# the two kinds of bound do not mix; bad times are usage errors
$PCOL top $G --from 2022-10-18T15:40:00Z --to 5 2>/dev/null
[ $? = 2 ] || fail "a wall-clock --from with a relative --to is a usage error"
for bad in 2022-02-31T00:00:00Z 2022-10-18T15:40:00 2022-10-18T25:00:00Z @x; do
  $PCOL top $G --from "$bad" 2>/dev/null
  [ $? = 2 ] || fail "--from $bad is not a time"
done
# A wall-clock range answers as `pcol merge` of the inputs it reaches,
# whatever the format of those it does not (review 16 F1): the default
# value and its warning are resolved over what the range keeps.  Before, a
# pcol file out of range was left out, a file of another format imported
# and its sources made the default "samples" (873 where go tool pprof of
# the one file in range says 8.73 s).  $L (2022-06-09 18:22:12 UTC, cpu)
# with a heap profile of 2022-07-28 and a JFR recording of 2023-11-14
# (tests/support/gen_jfr.py), as they are (d1) and packed (d2).
mkdir -p "$tmp/d1" "$tmp/d2"
cp "$L" "$tmp/d1/a.pb.gz" && cp "$L" "$tmp/d2/a.pb.gz" && cp "$H" "$tmp/d1/h.pb.gz" &&
  python3 tests/support/gen_jfr.py "$tmp/d1/j.jfr" --chunks 1 --samples 30 --period '*:10 ms' &&
  $PCOL pack "$H" -o "$tmp/d2/h.pcol" && $PCOL pack "$tmp/d1/j.jfr" -o "$tmp/d2/j.pcol" || fail "far: inputs"
far=(--from 2022-06-09T18:22:00Z --to 2022-06-09T18:23:00Z)
$PCOL top "$L" --format json | sed 's/"file":"[^"]*",//' >"$tmp/far.want" || fail "far: top of the one file"
for d in d1 d2; do
  $PCOL top "$tmp/$d" "${far[@]}" --format json 2>"$tmp/far.err" | sed 's/"file":"[^"]*",//; s/"filters":{[^}]*}/"filters":{}/' >"$tmp/far.got" ||
    fail "far $d: top"
  cmp -s "$tmp/far.want" "$tmp/far.got" || fail "far $d: not the rows of the one file in range: $(head -c 300 "$tmp/far.got")"
  [ -s "$tmp/far.err" ] && fail "far $d: a warning of the files out of range: $(cat "$tmp/far.err")"
  $PCOL top "$tmp/$d" "${far[@]}" -n 1 2>&1 | grep -q '^Duration: 10.12s, Total samples = 8.73s (86.24%)$' ||
    fail "far $d: $($PCOL top "$tmp/$d" "${far[@]}" -n 1 2>&1 | head -5)"
  # a value only the inputs out of range have: not the union's
  $PCOL top "$tmp/$d" "${far[@]}" --value alloc_space >/dev/null 2>"$tmp/far.err" && fail "far $d: --value alloc_space taken"
  grep -q "no value type 'alloc_space'" "$tmp/far.err" || fail "far $d: $(cat "$tmp/far.err")"
done
# the merged file (every input in it) answers the same: the default over
# the recordings the range reaches
$PCOL merge "$tmp/d1" -o "$tmp/far.pcol" 2>/dev/null || fail "far: merge"
$PCOL top "$tmp/far.pcol" "${far[@]}" --format json 2>"$tmp/far.err" | sed 's/"file":"[^"]*",//; s/"filters":{[^}]*}/"filters":{}/' |
  cmp -s "$tmp/far.want" - || fail "far: the merged file's answer is not the one file's"
[ -s "$tmp/far.err" ] && fail "far: the merged file warns of the sources out of range: $(cat "$tmp/far.err")"
# without a range, the same inputs are a real mix: samples, warned
$PCOL top "$tmp/d1" -n 1 2>&1 | grep -q "the sources measure different values" || fail "far: no mix without the range"
# and it knows the values of the recordings the range keeps, as the union
# of the files in range does (pcol_selection_sources): a value only those
# out of range have is refused in the same words (before: taken, counting
# 0), and --value N counts among the kept sources' values, as doc/cli.md's
# "each selected source" says (before: asked of every source, so the heap
# profile's hour with --value 2 was refused: "source 1 has 2 value types")
heap=(--from 2022-07-28T12:00:00Z --to 2022-07-28T13:00:00Z)
for r in far heap; do
  eval "rg=(\"\${$r[@]}\")"
  for v in alloc_space cpu 1 2; do
    $PCOL top "$tmp/d1" "${rg[@]}" --value "$v" --format json 2>"$tmp/v.err1" | sed 's/"file":"[^"]*",//' >"$tmp/v.out1"
    a=${PIPESTATUS[0]}
    $PCOL top "$tmp/far.pcol" "${rg[@]}" --value "$v" --format json 2>"$tmp/v.err2" | sed 's/"file":"[^"]*",//' >"$tmp/v.out2"
    b=${PIPESTATUS[0]}
    sed -i "s|$tmp/d1|X|g; s|$tmp/far.pcol|X|g" "$tmp/v.err1" "$tmp/v.err2"
    [ "$a" = "$b" ] && cmp -s "$tmp/v.out1" "$tmp/v.out2" && cmp -s "$tmp/v.err1" "$tmp/v.err2" ||
      fail "far $r --value $v: the merged file (exit $b: $(cat "$tmp/v.err2")) is not the directory (exit $a: $(cat "$tmp/v.err1"))"
  done
done
$PCOL top "$tmp/far.pcol" "${heap[@]}" --value 2 -n 1 | grep -q '^Type: inuse_objects$' ||
  fail "far.pcol: --value 2 of the heap profile's hour is not its inuse_objects"

# Many sources (issue 42 F9): every view and export costs O(rows), not
# O(sources x rows).  80,000 one-sample OTLP/JSON requests (one source each;
# every other one measures cpu/nanoseconds, so the sources' defaults differ
# and the views warn, counting the sources of each default).  Quadratic, `top`,
# `info` and `graph` took 4.5 s of CPU here, `report` 76 s, the speedscope,
# Firefox and ClickHouse exports 76, 159 and 39 s; each now runs under a 2 s
# CPU limit (ulimit -t: killed past it), a bound in CPU time, not wall-clock.
one() { # TYPE UNIT: one request of one sample of main
  printf '{"dictionary":{"locationTable":[{},{"lines":[{"functionIndex":1}]}],"functionTable":[{},{"nameStrindex":3}],"stackTable":[{},{"locationIndices":[1]}],"stringTable":["","%s","%s","main"]},"resourceProfiles":[{"scopeProfiles":[{"profiles":[{"sampleType":{"typeStrindex":1,"unitStrindex":2},"samples":[{"stackIndex":1,"values":["1"]}]}]}]}]}\n' "$1" "$2"
}
{ one samples count; one cpu nanoseconds; } >"$tmp/two.jsonl"
yes "$(cat "$tmp/two.jsonl")" | head -n 80000 | gzip -1 >"$tmp/many.json.gz"
$PCOL pack "$tmp/many.json.gz" -o "$tmp/many.pcol" || fail "many sources: pack"
# (under ASan, whose allocator costs ~50 us a source in the Firefox export's
# few allocations per source, 10 s)
cpu=2
nm "$PCOL" 2>/dev/null | grep -q __asan_init && cpu=10
cpu_limited() { # NAME CMD...: CMD within $cpu s of CPU
  local name=$1
  shift
  (ulimit -t $cpu; exec "$@") >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -lt 128 ] || fail "many sources: $name killed (exit $rc: over $cpu s of CPU, quadratic?)"
  [ $rc = 0 ] || fail "many sources: $name exit $rc: $(head -c 300 "$tmp/err")"
}
cpu_limited top $PCOL top "$tmp/many.pcol"
grep -q "^Showing nodes accounting for 80000, 100% of 80000 total" "$tmp/out" ||
  fail "many sources: top does not count 80,000 samples: $(head -5 "$tmp/out")"
# one line counting the sources of each kind (issue 41 item 6)
grep -q "(40000 otlp sources: samples/count, default samples/count; 40000 otlp sources: rows (weight), default cpu/nanoseconds); name one" "$tmp/err" &&
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "many sources: top's warning is not one line counting each kind: $(head -c 300 "$tmp/err")"
cpu_limited info $PCOL info "$tmp/many.pcol"
[ "$(grep -c '^  values: *cpu/nanoseconds (default: cpu/nanoseconds)' "$tmp/out")" = 40000 ] ||
  fail "many sources: info does not name 40,000 cpu sources"
cpu_limited graph $PCOL graph "$tmp/many.pcol"
cpu_limited report $PCOL report "$tmp/many.pcol" -o "$tmp/many.html"
for t in speedscope pprof firefox otlp; do
  cpu_limited "unpack --to $t" $PCOL unpack "$tmp/many.pcol" --to $t -o "$tmp/many.$t"
done
cpu_limited "export --to clickhouse" $PCOL export "$tmp/many.pcol" --to clickhouse -o "$tmp/many.ch"
# v8 holds one source: the 80,000 counted and refused, or one chosen
(ulimit -t $cpu; exec $PCOL unpack "$tmp/many.pcol" --to v8 -o "$tmp/many.cpuprofile") 2>"$tmp/err"
grep -q "80000 sources have selected samples" "$tmp/err" || fail "many sources: unpack --to v8: $(head -c 300 "$tmp/err")"
cpu_limited "unpack --to v8 --source 2" $PCOL unpack "$tmp/many.pcol" --to v8 --source 2 -o "$tmp/many.cpuprofile"

# profiles of one program share their mappings, as pprof's Merge shares
# equal ones (pcol_b_mappings_shared): the same stack in two of them is one
# trace, as go tool pprof -traces of both prints it, and their merge holds
# one copy of the stack nodes; a profile's own list keeps equal rows apart
$PCOL merge $S $S -o "$tmp/ss.pcol" || fail "merge S S"
[ "$($PCOL cat "$tmp/ss.pcol" --table stacks | wc -l)" = "$($PCOL cat $S --table stacks | wc -l)" ] ||
  fail "two copies of a profile: their stack nodes are not shared"
[ "$($PCOL cat "$tmp/ss.pcol" --table mappings | wc -l)" = "$($PCOL cat $S --table mappings | wc -l)" ] ||
  fail "two copies of a profile: their mappings are not shared"
if command -v go >/dev/null 2>&1; then
  for pair in "$S $S" "$L $L" "$S $L"; do
    want=$(go tool pprof -traces -sample_index=samples $pair 2>/dev/null | sed -n '/^-----------+/,$p')
    got=$($PCOL traces $pair --value samples 2>/dev/null | sed -n '/^-----------+/,$p')
    [ -n "$want" ] && [ "$got" = "$want" ] ||
      fail "traces of $pair: not go tool pprof -traces': $(diff <(echo "$want") <(echo "$got") | head -5)"
  done
else
  echo "t_many: go not installed: traces of two profiles not compared with go tool pprof"
fi
exit 0
