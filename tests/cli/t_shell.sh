#!/usr/bin/env bash
# CLI: `pcol shell` (tools/cmd_shell.c), without go (tests/interop/t_shell.sh
# compares whole sessions with go tool pprof's).  Each answer is the
# command's own output from its filters on (the shell's compact labels);
# settings last until changed and the line's own arguments win over them;
# a failed command prints its message and the session goes on, exit 0;
# inputs that are not one pcol file are packed once into a temporary file
# that is gone after the session, also when it is killed; '-' is refused.
set -u
PCOL=$(cd "$(dirname "${PCOL:-build/bin/pcol}")" && pwd)/$(basename "${PCOL:-build/bin/pcol}")
here=$(cd "$(dirname "$0")/../support" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_shell: FAIL: $*" >&2; exit 1; }
python3 "$here/semantics_pprof.py" "$tmp" >/dev/null || fail "semantics_pprof.py"
in=$tmp/labels.pb.gz
[ -f "$in" ] || fail "no labels.pb.gz"
export TMPDIR=$tmp/t
mkdir -p "$TMPDIR"
# from the first line that is not a File/Type/Time/Duration line
body() { awk 'f || !/^(File|Type|Time|Duration):/ { f = 1; print }'; }
ask() { printf '%s\n' "$@" | "$PCOL" shell "$in" 2>"$tmp/err" | sed 's/^(pcol) //; s/(pcol) //g'; }

want=$("$PCOL" top "$in" -n 10 | body)
[ "$(ask top)" = "$want" ] || fail "top is not pcol top -n 10"
want=$("$PCOL" top "$in" --sort cum -n 4 --focus 'a|b' --ignore c | body)
[ "$(ask 'top4 -cum a b -c')" = "$want" ] || fail "top4 -cum a b -c"
want=$("$PCOL" peek "$in" main --hide x --value samples | body)
[ "$(ask hide=x sample_index=samples 'peek main')" = "$want" ] || fail "settings before peek"
# the line's own focus replaces the setting's; -n wins over nodecount
want=$("$PCOL" top "$in" --focus b -n 2 | body)
[ "$(ask focus=a nodecount=5 'top -n 2 b')" = "$want" ] || fail "the line's arguments over the settings"
want=$("$PCOL" tree "$in" --node-count 3 --by line | body)
[ "$(ask nodecount=3 granularity=lines tree)" = "$want" ] || fail "tree with nodecount, granularity"
# tree's -n is its node count there too (top's spelling), over the setting
want=$("$PCOL" tree "$in" --node-count 2 | body)
[ "$(ask nodecount=3 'tree -n 2')" = "$want" ] || fail "tree -n 2 over nodecount=3"
# traces at the session's granularity (pprof's -traces -lines, -addresses)
for g in lines:line addresses:address; do
  want=$("$PCOL" traces "$in" --by ${g#*:} --no-inlines | body)
  [ "$(ask granularity=${g%:*} noinlines=true traces | body)" = "$want" ] || fail "traces with granularity=${g%:*}, noinlines"
done
[ "$(ask lines traces | body)" = "$("$PCOL" traces "$in" --by line | body)" ] || fail "lines, then traces"
want=$("$PCOL" tags "$in" --tag worker=w1 | body)
[ "$(ask tagfocus=worker=w1 tags)" = "$want" ] || fail "tags with tagfocus"
want=$("$PCOL" top "$in" --format json -n 3)
[ "$(ask 'top --format json -n 3')" = "$want" ] || fail "pcol's own options"
# settings listed and cleared; a bad sample_index keeps the old one
out=$(ask focus=main sample_index=nosuch o)
grep -q '^  focus *= main$' <<<"$out" || fail "o: focus"
grep -q '^  sample_index *= $' <<<"$out" || fail "o: a bad sample_index was kept"
grep -q 'sample_index=nosuch: no value type' "$tmp/err" || { cat "$tmp/err"; fail "the bad sample_index's message"; }
[ "$(ask focus=main focus= top)" = "$("$PCOL" top "$in" -n 10 | body)" ] || fail "focus= clears"
# a failed command: its message, then the session goes on; exit 0
out=$(printf 'nosuchcommand\npeek\ntop --nosuch\ncall_tree=true\nprune_from=sort\ntop1\n' | "$PCOL" shell "$in" 2>"$tmp/err")
[ $? = 0 ] || fail "the session's exit"
grep -q 'unrecognized command: "nosuchcommand"' "$tmp/err" || fail "unknown command"
grep -q 'command peek requires an argument' "$tmp/err" || fail "peek without its argument"
grep -q "unknown option '--nosuch'" "$tmp/err" || fail "a bad option"
grep -q "pprof's call_tree is not offered by pcol" "$tmp/err" || fail "a pprof setting pcol lacks"
grep -q "pprof's prune_from is not offered by pcol" "$tmp/err" || fail "prune_from: not named (review 10 m11)"
grep -q 'Showing top 1 nodes' <<<"$out" || fail "the session did not go on"
# pprof's web, weblist, kcachegrind: the command that does the same here (user review 5)
printf 'web\nweblist main\nkcachegrind\n' | "$PCOL" shell "$in" >/dev/null 2>"$tmp/err"
grep -q "pprof's web is not offered by pcol (svg >FILE or png >FILE writes the graph; pcol report writes every view as one page; help lists what is)" "$tmp/err" ||
  fail "web's alternative: $(cat "$tmp/err")"
grep -q "pprof's weblist is not offered by pcol (list RE prints the source lines, disasm RE the instructions;" "$tmp/err" || fail "weblist's alternative"
grep -q "pprof's kcachegrind is not offered by pcol (callgrind >FILE writes KCachegrind's file;" "$tmp/err" || fail "kcachegrind's alternative"
# pprof's forms: signed counts, cum=true; a count is no limit of traces
[ "$(ask 'top -5')" = "$("$PCOL" top "$in" | body)" ] || fail "top -5: every row"
[ "$(ask 'top +3')" = "$("$PCOL" top "$in" -n 3 | body)" ] || fail "top +3"
[ "$(ask 'traces 1')" = "$(ask traces)" ] || fail "traces 1 is cut"
[ "$(ask nodecount=1 traces)" = "$(ask traces)" ] || fail "nodecount cuts traces"
[ "$(ask cum=true top)" = "$(ask 'top -cum')" ] || fail "cum=true"
[ "$(ask cum=true cum=false top)" = "$(ask top)" ] || fail "cum=false"
# settings checked when set: a bad one is refused and the old one kept
out=$(ask sort=cum sort=bogus nodecount=abc nodecount=2 nodefraction=x granularity=filefunc o)
grep -q '^  sort *= cum$' <<<"$out" || fail "sort=bogus replaced sort=cum"
grep -q '^  nodecount *= 2$' <<<"$out" || fail "nodecount"
grep -q '^  granularity *= $' <<<"$out" || fail "granularity=filefunc was kept"
for m in 'sort=bogus: cum, flat or name' 'nodecount=abc: give a whole number' \
  'nodefraction=x: give a number' "granularity=filefunc: functions, filefunctions, lines"; do
  grep -qF "$m" "$tmp/err" || { cat "$tmp/err"; fail "no message '$m'"; }
done
# the greeting (stderr) is pprof's: the profile's labels, as traces heads them
printf 'quit\n' | "$PCOL" shell "$in" >/dev/null 2>"$tmp/greet"
want=$("$PCOL" traces "$in" | sed -n '/^-----/q; p' | sed "s|^File: .*|File: $in|")
[ "$(sed '/^Entering interactive mode/,$d' "$tmp/greet")" = "$want" ] || {
  cat "$tmp/greet"; fail "greeting is not the profile's labels"; }
# a unit is checked against the value shown when it is set (wall, ns here)
out=$(ask unit=ms unit=parsec unit=MB o)
grep -q '^  unit *= ms$' <<<"$out" || fail "unit=parsec or unit=MB replaced unit=ms"
for m in "unit=parsec: auto, raw or a unit of time (fs, ps, ns, us, ms, s, hrs), as the value's unit nanoseconds is one" \
         "unit=MB: auto, raw or a unit of time (fs, ps, ns, us, ms, s, hrs), as the value's unit nanoseconds is one"; do
  grep -qF "$m" "$tmp/err" || { cat "$tmp/err"; fail "no message '$m'"; }
done
[ "$(ask unit=ms top)" = "$(ask 'top --unit ms')" ] || fail "unit=ms top"
# words that would run something else are refused
printf 'top --\ncallgrind -o\ntop --value\n' | (cd "$tmp" && "$PCOL" shell "$in" >/dev/null 2>"$tmp/err")
grep -q "'--' is not taken in a line" "$tmp/err" || fail "top --"
grep -q "option '-o' needs a value" "$tmp/err" || fail "callgrind -o"
grep -q "option '--value' needs a value" "$tmp/err" || fail "top --value"
# a line's refusal points to the session's help, not the command line's
grep -q "Try 'pcol shell --help'" "$tmp/err" && fail "a line's refusal says Try 'pcol shell --help'"
grep -q "needs a value (type \"help\" for commands" "$tmp/err" || fail "no help hint"
[ -z "$(ls "$tmp" | grep -e '--')" ] || fail "a file named after an option was written"
# the user's words reach the terminal through the text rule
printf 'focus\033[31m x\n' | "$PCOL" shell "$in" >/dev/null 2>"$tmp/err"
LC_ALL=C grep -q $'\x1b' "$tmp/err" && fail "an escape sequence reached the terminal"
grep -qF 'focus\x1b[31m' "$tmp/err" || { cat "$tmp/err"; fail "the escaped word"; }
# the shell's --max-rows reaches its commands
printf 'top1\n' | "$PCOL" shell --max-rows 1 "$in" >/dev/null 2>"$tmp/err"
grep -q 'max-rows' "$tmp/err" || { cat "$tmp/err"; fail "--max-rows did not reach top"; }
# > writes a file: a command's -o, or a text view's standard output (as
# pprof's interactive mode writes its reports), renamed into place only
# when the command succeeds
ask "dot >$tmp/g.dot" >/dev/null
"$PCOL" graph "$in" -o "$tmp/g2.dot" || fail "graph"
cmp -s "$tmp/g.dot" "$tmp/g2.dot" || fail "dot >FILE is not pcol graph -o FILE"
[ -z "$(ask "top >$tmp/t.txt" "peek . >$tmp/p.txt" "traces > $tmp/tr.txt")" ] || fail "top/peek/traces >FILE printed on standard output"
[ "$(body <"$tmp/t.txt")" = "$("$PCOL" top "$in" -n 10 | body)" ] || fail "top >FILE is not pcol top -n 10"
[ "$(body <"$tmp/p.txt")" = "$("$PCOL" peek "$in" . | body)" ] || fail "peek . >FILE is not pcol peek ."
[ "$(body <"$tmp/tr.txt")" = "$(ask traces | body)" ] || fail "traces >FILE is not the shell's traces"
[ -z "$(ls -A "$tmp" | grep '\.tmp-')" ] || fail "a temporary file was left"
echo keep >"$tmp/t.txt"
ask "peek ( >$tmp/t.txt" "top --max-output 10 >$tmp/t.txt" >/dev/null
[ "$(cat "$tmp/t.txt")" = keep ] || fail "a failed or cut view's >FILE was replaced"
grep -q 'output budget' "$tmp/err" || { cat "$tmp/err"; fail "top --max-output 10 >FILE: no budget message"; }
grep -q 'standard output is cut short' "$tmp/err" && fail "top --max-output 10 >FILE says standard output is cut short"
ask "top >$tmp/nodir/t.txt" >/dev/null
grep -q "nodir" "$tmp/err" || { cat "$tmp/err"; fail "top >FILE in a missing folder: no message"; }
# help, quit, the end of input
ask help | grep -q 'Settings (NAME=VALUE' || fail "help"
ask 'help peek' | grep -q '^Usage: pcol peek' || fail "help peek"
[ "$(printf 'quit\ntop\n' | "$PCOL" shell "$in" 2>/dev/null)" = "(pcol) " ] || fail "quit"
# many inputs: packed once, the temporary file gone after the session
want=$("$PCOL" top "$in" "$in" -n 10 | body)
[ "$(printf 'top\n' | "$PCOL" shell "$in" "$in" 2>/dev/null | sed 's/(pcol) //g')" = "$want" ] || fail "two inputs"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left $(ls "$TMPDIR")"
mkfifo "$tmp/fifo"
"$PCOL" shell "$in" "$in" <"$tmp/fifo" >/dev/null 2>&1 &
pid=$!
exec 3>"$tmp/fifo" # the session waits for its first line
for _ in $(seq 300); do [ -n "$(ls -A "$TMPDIR")" ] && break; sleep 0.1; done
[ -n "$(ls -A "$TMPDIR")" ] || fail "no temporary file during a session"
kill -TERM "$pid" || fail "kill"
wait "$pid" 2>/dev/null
exec 3>&-
[ -z "$(ls -A "$TMPDIR")" ] || fail "a killed session left $(ls "$TMPDIR")"
# refusals
"$PCOL" shell - </dev/null 2>"$tmp/err" && fail "shell -: exit 0"
grep -q 'reads its commands from standard input' "$tmp/err" || fail "shell -"
"$PCOL" shell "$tmp/nosuch" </dev/null 2>"$tmp/err" && fail "shell of a missing file: exit 0"
grep -q 'nosuch' "$tmp/err" || fail "the missing file is not named"
# a setting that changes the numbers is never left out: mean=true and a
# command without --mean is refused (the line fails, the session goes on);
# peek and dot apply it, tags runs as it is (as pprof's -tags ignores -mean)
printf 'mean=true\nfold\ntop2\npeek .\ntags\ndot\n' | "$PCOL" shell "$in" >"$tmp/out" 2>"$tmp/err"
grep -q 'mean=true: fold does not offer --mean' "$tmp/err" || fail "mean=true with fold"
grep -q 'graph does not offer' "$tmp/err" && fail "mean=true refused dot"
grep -q 'Type: mean_.*digraph\|^subgraph cluster_L.*Type: mean_' "$tmp/out" || fail "mean=true: dot not in means"
grep -q 'tags does not offer' "$tmp/err" && fail "mean=true refused tags"
"$PCOL" tags "$in" | head -1 >"$tmp/tag1"
[ -s "$tmp/tag1" ] && grep -qF "$(cat "$tmp/tag1")" "$tmp/out" || fail "mean=true: tags did not run"
grep -q 'Showing nodes' "$tmp/out" || fail "top after a refused line"
want=$("$PCOL" peek "$in" . --mean | grep '^Showing nodes')
[ -n "$want" ] && grep -qF "$want" "$tmp/out" || fail "mean=true: peek in means ($want)"
# drop_negative=true: tree, peek, list and dot apply it (their
# --drop-negative), traces lists every sample as pprof's does, fold is
# refused
printf 'drop_negative=true\ntree\npeek .\ntraces\nlist .\nfold\n' | "$PCOL" shell "$in" >"$tmp/out" 2>"$tmp/err"
grep -q 'tree does not offer\|peek does not offer\|traces does not offer\|list does not offer' "$tmp/err" &&
  fail "drop_negative=true refused tree, peek, traces or list"
grep -q 'drop_negative=true: fold does not offer --drop-negative' "$tmp/err" || fail "drop_negative=true with fold"
grep -q '^ROUTINE' "$tmp/out" || fail "drop_negative=true: list did not run"
want=$("$PCOL" peek "$in" . --drop-negative | grep "^Showing nodes")
[ -n "$want" ] && grep -qF -- "$want" "$tmp/out" || fail "drop_negative=true: peek did not run ($want)"
grep -q -- '-----------+-------' "$tmp/out" || fail "drop_negative=true: traces did not run"
grep -q 'Showing nodes' "$tmp/out" || fail "drop_negative=true: tree did not run"
# divide_by=F: checked when set (0, a negative or no number keeps the old
# value), top and peek divide, tags run as they are (pprof's -tags ignores
# -divide_by), a command without --divide-by is refused, divide_by= clears
printf 'divide_by=0\ntop2\ndivide_by=-4\ndivide_by=x\ndivide_by=4\ntop2\npeek .\ntags\nfold\ndivide_by=\ntop2\n' |
  "$PCOL" shell "$in" >"$tmp/out" 2>"$tmp/err"
grep -q 'divide_by=0: wants a divisor other than 0' "$tmp/err" || fail "divide_by=0 accepted"
grep -q 'divide_by=-4: wants a divisor above 0' "$tmp/err" || fail "divide_by=-4 accepted"
grep -q 'divide_by=x: wants a decimal number' "$tmp/err" || fail "divide_by=x accepted"
grep -q 'divide_by=4: fold does not offer --divide-by' "$tmp/err" || fail "divide_by=4 with fold"
grep -q 'tags does not offer' "$tmp/err" && fail "divide_by=4 refused tags"
[ -s "$tmp/tag1" ] && grep -qF "$(cat "$tmp/tag1")" "$tmp/out" || fail "divide_by=4: tags did not run"
plain=$("$PCOL" top "$in" -n 2 | body) div=$("$PCOL" top "$in" -n 2 --divide-by 4 | body)
[ "$plain" != "$div" ] || fail "top --divide-by 4 is top"
[ "$(sed 's/^(pcol) //; s/(pcol) //g' "$tmp/out" | grep -c -xF "$(echo "$plain" | tail -1)")" = 2 ] ||
  fail "divide_by=0 or divide_by= left a divisor"
grep -qxF "$(echo "$div" | tail -1)" "$tmp/out" || fail "divide_by=4: top not divided"
want=$("$PCOL" peek "$in" . --divide-by 4 | grep '^Showing nodes')
[ -n "$want" ] && grep -qF "$want" "$tmp/out" || fail "divide_by=4: peek not divided ($want)"
# on a terminal the line is edited (tools/line_edit.c): keys in a
# pseudo-terminal give the answers of the commands written out
top=$("$PCOL" top "$in" -n 10 | grep '^Showing nodes') top1=$("$PCOL" top "$in" -n 1 | grep '^Showing nodes')
[ "$top" != "$top1" ] || fail "top -n 1 and -n 10 are alike: the pty test could not tell them apart"
python3 "$here/shell_pty.py" "$PCOL" "$in" "$top" "$top1" >"$tmp/pty" 2>&1 || { cat "$tmp/pty"; fail "line editing on a terminal"; }
# proto under divide_by= writes the profile divided, as pprof's -proto
# -divide_by (pcol unpack --to pprof --divide-by): the same bytes
printf 'divide_by=4\nproto >%s\n' "$tmp/div.pb.gz" | "$PCOL" shell "$in" >/dev/null 2>"$tmp/err"
"$PCOL" unpack "$in" --to pprof --divide-by 4 -o "$tmp/div2.pb.gz" &&
  "$PCOL" unpack "$in" --to pprof -o "$tmp/nodiv.pb.gz" &&
  cmp -s "$tmp/div.pb.gz" "$tmp/div2.pb.gz" && ! cmp -s "$tmp/div.pb.gz" "$tmp/nodiv.pb.gz" ||
  fail "divide_by=4: proto is not unpack --divide-by 4 ($(head -c 200 "$tmp/err"))"
echo "t_shell: ok"
