#!/usr/bin/env bash
# CLI: the messages of a new user's usual mistakes (user review 5): each
# says what went wrong and what to type, with the right exit code and no
# output file left behind.
set -u
T=t_user_messages
. "$(dirname "$0")/cli_env.sh"
in=examples/demo.out

# expect_msg CODE TEXT CMD...: exit CODE and TEXT (a fixed string) on stderr
expect_msg() {
  local want=$1 text=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local got=$?
  [ "$got" = "$want" ] || { cat "$tmp/err" >&2; fail "exit $got, want $want: $*"; }
  grep -qF -- "$text" "$tmp/err" || fail "no '$text' in the message of $*: $(cat "$tmp/err")"
}

# 1. go tool pprof's order, REGEX before the file (-peek=RE FILE): the
# missing "file" is the expression, and the message says the order is the
# mistake (it said only "main: No such file or directory")
for c in peek list disasm; do
  expect_msg 3 "main: No such file or directory (pcol $c takes FILE... REGEX, the expression last; '$in' is a file)" \
    "$PCOL" $c main "$in"
done
# a missing profile with a regex that names no file: no hint
expect_msg 3 "nosuch.out: No such file or directory" "$PCOL" peek nosuch.out main
grep -q 'takes FILE' "$tmp/err" && fail "a hint without a file as REGEX: $(cat "$tmp/err")"

# 2. -o '' (an unset variable): a usage error before any work, no file
# (it was the rename's ": rename failed: No such file or directory", exit 3)
cd "$tmp" || fail "cd"
root=$OLDPWD
for c in "pack" "merge" "unpack --to pprof" "flame" "report" "graph" "export --to clickhouse"; do
  expect_msg 2 "-o wants a path, not an empty one" "$root/$PCOL" $c "$root/$in" -o ''
done
[ -z "$(ls -A "$tmp" | grep -v '^out$\|^err$')" ] || fail "files left: $(ls -A "$tmp")"
cd "$root" || fail "cd back"

# 3. a time range where the command takes none: pack's --from is the
# input format (it said "unknown input format '1.5'"), and pack, merge and
# info have no --to (it said "unknown option '--to'")
expect_msg 2 "--from names the input format here (rprof, pprof, ...), not a time" \
  "$PCOL" pack "$in" --from 1.5 -o "$tmp/x.pcol"
expect_msg 2 "unknown option '--to': pcol pack takes no time range (the views' --from/--to select one; pcol unpack FILE --from A --to B -t FORMAT -o OUT writes one)" \
  "$PCOL" pack "$in" --to 2.5 -o "$tmp/x.pcol"
expect_msg 2 "unknown option '--from': pcol merge takes no time range" "$PCOL" merge "$in" --from 1 -o "$tmp/x.pcol"
expect_msg 2 "unknown option '--to': pcol info takes no time range" "$PCOL" info "$in" --to 1
expect_msg 2 "unknown input format 'bogus'" "$PCOL" pack "$in" --from bogus -o "$tmp/x.pcol"
[ -e "$tmp/x.pcol" ] && fail "a refused pack wrote its output"
# the suggested command works
"$PCOL" unpack "$in" --from 0.1 --to 0.2 -t pprof -o "$tmp/part.pb.gz" 2>/dev/null || fail "the suggested unpack of a range"

# 4. a directory with a README beside the profiles: pack, merge and export
# say what the views say (a quoted glob), not only "unrecognised input format"
mkdir "$tmp/d"
cp "$in" "$tmp/d/a.out"
cp "$in" "$tmp/d/b.out"
echo "profiles of the nightly run" >"$tmp/d/README"
"$PCOL" top "$tmp/d" 2>"$tmp/top.err" >/dev/null
grep -qF "name the profiles with a quoted glob ('$tmp/d/*.out')" "$tmp/top.err" || fail "top's words: $(cat "$tmp/top.err")"
for c in "pack -o $tmp/x.pcol" "merge -o $tmp/x.pcol" "export --to clickhouse -o $tmp/xo"; do
  expect_msg 1 "$tmp/d/README: unrecognised input format, not a profile; a directory or a glob gives every regular file it names as a profile: name the profiles with a quoted glob ('$tmp/d/*.out') or list them" \
    "$PCOL" $c "$tmp/d"
done
[ -e "$tmp/x.pcol" ] || [ -e "$tmp/xo" ] && fail "a refused directory wrote an output"
"$PCOL" merge "$tmp/d/*.out" -o "$tmp/x.pcol" || fail "the suggested glob"
# 5. a full disk names its cause as top's message does (info and cat said
# only "error writing standard output")
if [ -w /dev/full ]; then
  for c in "info" "cat --table samples" "top"; do
    $PCOL $c "$in" >/dev/full 2>"$tmp/err"; rc=$?
    [ $rc = 3 ] || fail "$c to a full disk: exit $rc, want 3"
    grep -qx "pcol ${c%% *}: error writing standard output: No space left on device" "$tmp/err" ||
      fail "$c to a full disk: $(cat "$tmp/err")"
  done
fi
# 6. the library's messages name their operation for API callers ("fold:
# write error"); after "pcol CMD: " (and the file) the command is not named
# again (it said "pcol fold: fold: write error", "pcol peek: FILE: peek: bad
# regular expression"), and the message keeps the file and the cause
# no_double CMD: stderr says CMD once before the cause
no_double() {
  grep -qE "^pcol $1: (.*: )?$1: " "$tmp/err" && fail "'$1' named twice: $(cat "$tmp/err")"
  return 0
}
for i in $(seq 3000); do echo "main;work;f$i 1"; done >"$tmp/many.folded" # more than a stdio buffer of fold
if [ -w /dev/full ]; then
  $PCOL fold "$tmp/many.folded" >/dev/full 2>"$tmp/err"; rc=$?
  [ $rc = 3 ] || fail "fold to a full disk: exit $rc, want 3"
  grep -qF "pcol fold: write error: No space left on device" "$tmp/err" || fail "fold to a full disk: $(cat "$tmp/err")"
  no_double fold
fi
expect_msg 3 "pcol fold: $in: would hold more output in memory than the output budget of 10 bytes" \
  "$PCOL" fold "$in" --max-output 10
no_double fold
for c in "flame -o $tmp/x.svg" "graph" "unpack --to collapsed -o $tmp/x.txt" "unpack --to pprof -o $tmp/x.pb.gz"; do
  # shellcheck disable=SC2086
  expect_msg 3 "pcol ${c%% *}: $in: " "$PCOL" $c "$in" --max-output 10
  grep -qF "output budget of 10 bytes" "$tmp/err" || fail "$c: no budget in $(cat "$tmp/err")"
  no_double "${c%% *}"
done
for c in peek list disasm; do
  expect_msg 2 "pcol $c: $in: bad regular expression '(': a '(' without its ')'" "$PCOL" $c "$in" '('
  no_double $c
done

# 7. --value's unknown name lists "samples" in --help's words (it said
# "each source's count of raw samples", --help "each source's own count:
# pprof's samples/count, Rprof ticks")
gloss=$("$PCOL" top --help | grep -o "samples (each source[^)]*)")
[ -n "$gloss" ] || fail "top --help glosses no samples"
expect_msg 1 "$in: no value type 'nope' (the file has: $gloss, " "$PCOL" top "$in" --value nope
echo "$T: ok"
