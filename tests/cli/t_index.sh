#!/usr/bin/env bash
# A directory's index (`pcol index`, tools/dirindex.c): the union of its
# first files, kept beside them, that every reading command of the
# directory reads in place of those files.  Checked here: the index is the
# file `pcol merge` writes of them, byte for byte, also when it is renewed
# with new files (the union of a union and more files is the union of all);
# every view of the directory is the same with the index as without it
# (PCOL_NO_INDEX=1), with new files after it too; an index that no longer
# stands for its files (one touched, removed, renamed, or added before its
# last one; a damaged or foreign list) is not used and a note says why; a
# file changed within 2 s is not covered; a wall-clock range and validate
# read the files; a damaged index whose list was made to match is refused
# by the reader, naming it.
set -u
PCOL=${PCOL:-build/bin/pcol}
case $PCOL in */*) PCOL=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL") ;; esac # (tests cd)
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "t_index: FAIL: $*" >&2; exit 1; }
S=$TD/pprof/go-cpu-inline-small.pb.gz L=$TD/pprof/go-cpu-string-labels.pb.gz
H=$TD/pprof/go-heap-allocs-inline.pb.gz
for f in $S $L $H; do
  [ -f "$f" ] || { echo "t_index: SKIP (no $f: the shared test data)"; exit 0; }
done
R=tests/fixtures/rprof/names.out C=tests/fixtures/collapsed/simple.folded

# a directory of pcol files and other formats, with names that need the
# list's escapes; files older than the 2 s an index leaves alone
D=$tmp/d
mkdir "$D"
$PCOL pack $S -o "$D/01.pcol" && $PCOL pack $L -o "$D/02.pcol" && $PCOL pack $H -o "$D/03.pcol" ||
  fail "pack"
cp $S "$D/04.pb.gz"
cp $R "$D/05 rprof.out"
cp $C "$D/06 back\\slash
newline.folded"
$PCOL pack $L -o "$D/07.pcol" || fail "pack"
sleep 2.2

views() { # every reading command of "$@", stdout and stderr, and exit codes
  local c
  for c in "top @ -n 40" "top @ --by line -n 20 --format tsv" "top @ --source 2 -n 5" \
           "top @ --source 5 --from 0.1 --to 2" "peek @ main" "tree @" "tags @" "traces @ -n 20" "fold @" \
           "list @ main --allow-any-source" "cat @ --table all" "info @" "info @ --format json" \
           "graph @" "unpack @ --to collapsed -o -" "unpack @ --to pprof --no-gzip -o -"; do
    echo "== $c"
    $PCOL ${c%%@*} "$@" ${c#*@} 2>&1
    echo "exit $?"
  done
  echo "== diff"
  $PCOL diff "$@" "$@" 2>&1
  echo "exit $?"
}
same_views() { # NAME DIR: the views with the index are those without it
  PCOL_NO_INDEX=1 views "$2" >"$tmp/want"
  views "$2" >"$tmp/got"
  [ "$(grep -c '^exit 0$' "$tmp/want")" -ge 15 ] || fail "$1: the views failed: $(grep -B3 '^exit [1-9]' "$tmp/want" | head)"
  cmp -s "$tmp/want" "$tmp/got" || fail "$1: views differ with the index: $(diff "$tmp/want" "$tmp/got" | head -8)"
}
used() { # DIR: the inputs a view read (PCOL_DEBUG=inputs)
  PCOL_DEBUG=inputs $PCOL fold "$@" 2>&1 >/dev/null | grep 'debug: read'
}

# the index is what merge writes of the files
out=$($PCOL index "$D") || fail "index: $out"
echo "$out" | grep -q 'covers 7 of 7 files' || fail "index said: $out"
$PCOL merge "$D" -o "$tmp/merged.pcol" || fail "merge"
cmp -s "$tmp/merged.pcol" "$D/.pcol-index.pcol" || fail "the index is not the merge of the files"
used "$D" | grep -q 'read 1 of 1 inputs (1 an index of 7 files)' || fail "the index was not read: $(used "$D")"
same_views "whole" "$D"
$PCOL index "$D" | grep -q 'up to date' || fail "a second index run did not find it up to date"

# files after the index: it and they are read, and give the same views;
# renewing it reads only them and writes the merge of all
$PCOL pack $H -o "$D/08.pcol" && cp $L "$D/09.pb.gz" || fail "pack"
sleep 2.2
used "$D" | grep -q 'read 3 of 3 inputs (1 an index of 7 files)' || fail "new files: $(used "$D")"
same_views "index and new files" "$D"
for c in "report -o" "flame -o"; do # views written to a file
  PCOL_NO_INDEX=1 $PCOL $c "$tmp/want.out" "$D" 2>/dev/null || fail "$c without the index"
  $PCOL $c "$tmp/got.out" "$D" 2>/dev/null || fail "$c with the index"
  cmp -s "$tmp/want.out" "$tmp/got.out" || fail "$c differs with the index"
done
out=$($PCOL index "$D") || fail "renew: $out"
echo "$out" | grep -q 'covers 9 of 9 files (2 read now)' || fail "renew said: $out"
$PCOL merge "$D" -o "$tmp/merged.pcol" || fail "merge"
cmp -s "$tmp/merged.pcol" "$D/.pcol-index.pcol" || fail "the renewed index is not the merge of all the files"
same_views "renewed" "$D"

# a file changed within 2 s is not covered, nor any after it
$PCOL pack $S -o "$D/10.pcol" || fail "pack"
out=$($PCOL index "$D") || fail "index: $out"
echo "$out" | grep -q 'up to date (it covers 9 of 10 files; a file changed within 2 s' ||
  fail "a fresh file: $out"
rm "$D/10.pcol"

# an index that no longer stands for its files is not used, and says why
stale() { # NAME WHY: the note, the files read, the same views as without it
  PCOL_DEBUG=inputs $PCOL fold "$D" >/dev/null 2>"$tmp/err"
  grep -q "note: the index of '$D' is not used: $2" "$tmp/err" || fail "$1: no note: $(cat "$tmp/err")"
  grep -q "index of" <(grep debug "$tmp/err") && fail "$1: the index was read"
  PCOL_NO_INDEX=1 $PCOL top "$D" >"$tmp/want" 2>/dev/null
  $PCOL top "$D" 2>"$tmp/err" >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" || fail "$1: top differs"
  # (top expands its inputs twice when it falls back to the union)
  [ "$(grep -c 'note: the index of' "$tmp/err")" = 1 ] || fail "$1: top's note is not given once: $(cat "$tmp/err")"
}
sleep 2.2
$PCOL index "$D" >/dev/null || fail "index"
touch "$D/03.pcol"
stale "touched" "a file it covers changed since"
$PCOL index "$D" >/dev/null 2>&1; sleep 2.2; $PCOL index "$D" >/dev/null || fail "index"
mv "$D/03.pcol" "$D/03b.pcol"
stale "renamed" "a file it covers is gone or renamed"
mv "$D/03b.pcol" "$D/03.pcol"
stale "renamed back (a new change time)" "a file it covers changed since"
sleep 2.2; $PCOL index "$D" >/dev/null || fail "index"
cp "$D/01.pcol" "$D/015.pcol"
stale "a file before its last" "a file it covers is gone or renamed"
rm "$D/015.pcol"
used "$D" | grep -q '(1 an index of 9 files)' || fail "back as it was: $(used "$D")"
# the directory spelled with more '/': read with the index, named as without it
for sp in "$D/" "$D//" "$D///"; do
  used "$sp" | grep -q '(1 an index of 9 files)' || fail "$sp: $(used "$sp")"
  PCOL_NO_INDEX=1 $PCOL info "$sp" >"$tmp/want" 2>&1
  $PCOL info "$sp" >"$tmp/got" 2>&1
  cmp -s "$tmp/want" "$tmp/got" || fail "info $sp differs with the index: $(diff "$tmp/want" "$tmp/got" | head -4)"
  grep -q "pprof $D/04.pb.gz\$" "$tmp/got" || fail "info $sp: $(grep pprof "$tmp/got")"
done
cp "$D/.pcol-index.list" "$tmp/list"
for bad in "truncated" "garbage" "overflow" "slash" "escape" "foreign" "empty" "lastfile" "noend"; do
  case $bad in
    truncated) head -c 200 "$tmp/list" >"$D/.pcol-index.list" ;;
    garbage) { head -2 "$tmp/list"; echo "12 x 3 4 a"; } >"$D/.pcol-index.list" ;;
    overflow) { head -2 "$tmp/list"; echo "99999999999999999999999 1 2 3 01.pcol"; } >"$D/.pcol-index.list" ;;
    slash) sed '4s|01.pcol|../01.pcol|' "$tmp/list" >"$D/.pcol-index.list" ;;
    escape) sed '4s|01.pcol|01\\x.pcol|' "$tmp/list" >"$D/.pcol-index.list" ;;
    foreign) sed '1s/1/2/' "$tmp/list" >"$D/.pcol-index.list" ;;
    empty) : >"$D/.pcol-index.list" ;;
    lastfile) n=$(wc -l <"$tmp/list"); sed "$((n - 1))d" "$tmp/list" >"$D/.pcol-index.list" ;;
    noend) sed '$d' "$tmp/list" >"$D/.pcol-index.list" ;;
  esac
  PCOL_DEBUG=inputs $PCOL fold "$D" >/dev/null 2>"$tmp/err" || fail "$bad list: $(cat "$tmp/err")"
  grep -q "is not used: its list is" "$tmp/err" || fail "$bad list: $(cat "$tmp/err")"
done
cp "$tmp/list" "$D/.pcol-index.list"
# the index made again under the list: not used
cp "$D/.pcol-index.pcol" "$tmp/ix" && mv "$tmp/ix" "$D/.pcol-index.pcol"
stale "index replaced" "it was made again or changed after its list"
damage_index() { # bytes of the index overwritten, and its list made to name it as it is now
  python3 "$(dirname "$0")/../support/damage_index.py" "$D" || fail "damage the index"
}
# a damaged index with a list made to match it: the reader refuses it, naming it
sleep 2.2; $PCOL index "$D" >/dev/null || fail "index"
damage_index
$PCOL top "$D" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q '.pcol-index.pcol' "$tmp/err" || fail "a damaged index: exit $rc, $(cat "$tmp/err")"
PCOL_NO_INDEX=1 $PCOL top "$D" >/dev/null 2>&1 || fail "PCOL_NO_INDEX=1 read the damaged index"
$PCOL validate "$D" >/dev/null || fail "validate read the index, not the files"
out=$($PCOL index "$D" 2>"$tmp/err") || fail "index over a damaged one: $(cat "$tmp/err")"
grep -q "is damaged (.*): made again from the files" "$tmp/err" && echo "$out" | grep -q 'covers 9 of 9 files (9 read now)' ||
  fail "index over a damaged one: $out $(cat "$tmp/err")"
$PCOL merge "$D" -o "$tmp/merged.pcol" && cmp -s "$tmp/merged.pcol" "$D/.pcol-index.pcol" ||
  fail "the index made again is not the merge"
# the same when it is renewed with a new file: refused as it is read, made again
sleep 2.2; damage_index
$PCOL pack $S -o "$D/10.pcol" && sleep 2.2 || fail "pack"
out=$($PCOL index "$D" 2>"$tmp/err") || fail "renew over a damaged index: $(cat "$tmp/err")"
grep -q "is damaged (.*): made again from the files" "$tmp/err" && echo "$out" | grep -q 'covers 10 of 10 files (10 read now)' ||
  fail "renew over a damaged index: $out $(cat "$tmp/err")"
$PCOL merge "$D" -o "$tmp/merged.pcol" && cmp -s "$tmp/merged.pcol" "$D/.pcol-index.pcol" ||
  fail "the index renewed over a damaged one is not the merge"
rm "$D/10.pcol" && sleep 2.2 && $PCOL index "$D" >/dev/null 2>&1 || fail "index after 10.pcol is gone"

# a wall-clock range leaves out files unread: the files, not the index
PCOL_DEBUG=inputs $PCOL fold "$D" --from @0 --to @4000000000 2>&1 >/dev/null | grep -q 'index of' &&
  fail "a wall-clock range read the index"

# diff's two sides, BASE indexed and NEW another directory: each its own
mkdir "$tmp/new"
cp $H "$tmp/new/1.pb.gz" && cp $S "$tmp/new/2.pb.gz" || fail "copy"
for v in "" "--value samples"; do
  want=$(PCOL_NO_INDEX=1 $PCOL diff "$D" "$tmp/new" $v 2>&1; echo "exit $?")
  got=$($PCOL diff "$D" "$tmp/new" $v 2>&1; echo "exit $?")
  [ "$got" = "$want" ] || fail "diff of an indexed BASE and NEW $v: $(diff <(echo "$want") <(echo "$got") | head -5)"
done
# the directory spelled otherwise: with a file in another format among them
# (its source is named by its path) the index is not used; same output
(cd "$tmp" && PCOL_NO_INDEX=1 $PCOL cat --table sources ./d/ >"$tmp/want" 2>&1 &&
  $PCOL cat --table sources ./d/ >"$tmp/got" 2>"$tmp/err") || fail "cat of ./d/"
cmp -s "$tmp/want" "$tmp/got" || fail "sources of the directory spelled otherwise: $(diff "$tmp/want" "$tmp/got" | head -4)"
# the note names the spelling that uses it, and does not advise a renewal
# that would leave that spelling without (review 16 F8)
grep -q "is not used: it was made for the directory spelled '$D', and its sources in other formats than pcol name their files so: give it as '$D' to use it" "$tmp/err" ||
  fail "spelled otherwise: $(cat "$tmp/err")"
grep -q 'pcol index. renews' "$tmp/err" && fail "spelled otherwise: advises a renewal: $(cat "$tmp/err")"
used "$D/" | grep -q 'an index of 9 files' || fail "a trailing / is the same spelling: $(used "$D/")"
# of pcol files only, any spelling: their sources keep their own names
mkdir "$tmp/p"
cp "$D"/0[12].pcol "$D/07.pcol" "$tmp/p/" && $PCOL pack $S -o "$tmp/p/04.pcol" || fail "copy" # (cpu profiles)
sleep 2.2
$PCOL index "$tmp/p" >/dev/null || fail "index of pcol files"
mv "$tmp/p" "$tmp/q"
(cd "$tmp" && PCOL_DEBUG=inputs $PCOL cat --table all ./q >"$tmp/got" 2>"$tmp/err") || fail "cat of ./q"
grep -q 'an index of 4 files' "$tmp/err" || fail "pcol files, moved: the index not used: $(cat "$tmp/err")"
(cd "$tmp" && PCOL_NO_INDEX=1 $PCOL cat --table all ./q >"$tmp/want" 2>/dev/null)
cmp -s "$tmp/want" "$tmp/got" || fail "pcol files, moved: cat differs"
# pcol files after the index: top adds up each file's rows by name, the index one of them
$PCOL pack $L -o "$tmp/q/08.pcol" && $PCOL pack $S -o "$tmp/q/09.pcol" || fail "pack"
for o in "" "--by file" "--sort cum" "--focus main" "--value samples"; do
  PCOL_DEBUG=inputs $PCOL top "$tmp/q" $o >"$tmp/got" 2>"$tmp/err" || fail "top $o with the index and pcol files"
  grep -q 'read 3 of 3 inputs (1 an index of 4 files), each on its own' "$tmp/err" || fail "top $o: $(cat "$tmp/err")"
  PCOL_NO_INDEX=1 $PCOL top "$tmp/q" $o >"$tmp/want" 2>/dev/null
  cmp -s "$tmp/want" "$tmp/got" || fail "top $o, index and pcol files, each on its own: $(diff "$tmp/want" "$tmp/got" | head -4)"
done
# a FIFO in place of the list, or a link in place of the index: never waited on, never written through
rm "$tmp/q/.pcol-index.list" && mkfifo "$tmp/q/.pcol-index.list" || fail "mkfifo"
timeout 20 $PCOL fold "$tmp/q" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && grep -q 'its list is missing' "$tmp/err" || fail "a FIFO list: exit $rc, $(cat "$tmp/err")"
rm "$tmp/q/.pcol-index.list" "$tmp/q/.pcol-index.pcol" && ln -s "$tmp/target" "$tmp/q/.pcol-index.pcol"
timeout 20 $PCOL index "$tmp/q" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 3 ] && [ ! -e "$tmp/target" ] && grep -q 'not a regular file' "$tmp/err" ||
  fail "a link as the index: exit $rc, $(cat "$tmp/err")"

# refusals
$PCOL index "$D/01.pcol" 2>/dev/null; [ $? = 2 ] || fail "index of a file: not a usage error"
mkdir "$tmp/empty"
$PCOL index "$tmp/empty" 2>/dev/null && fail "index of an empty directory"
echo "t_index: ok (index = merge, renewed = merge, 17 views the same, diff of two directories, 4 stale cases, the directory's spelling, 9 damaged lists, top of the index and pcol files each on its own, a FIFO, a link, a damaged index)"
