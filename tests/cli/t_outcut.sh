#!/usr/bin/env bash
# A view past its output budget on standard output (review 14 F3): exit 3
# (a limit, not bad input), standard output ends at the end of its last whole
# line within the budget (a prefix of the whole output, never a name cut in
# two), and standard error says the budget and that the output was cut.
# Every view that writes to standard output under the budget: traces, fold
# (the exporters' budget), tree, peek, top, list, disasm, graph (dot).  And
# the default budget of a real Go heap profile lets its traces print whole.
# Env: PCOL, PCOL_TESTDATA (default ../shared/testdata: the real profile;
# skipped when absent).
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_outcut: FAIL: $*" >&2; exit 1; }

# another limit stays exit 1 whatever the file is called: the budget is
# told by its status (PCOL_EBUDGET), not by words a file name can hold
# (review diff6: "output budget.pcol" past --max-rows exited 3)
printf 'a;b 5\nc 2\n' >"$tmp/ob.folded"
$PCOL pack --from collapsed "$tmp/ob.folded" -o "$tmp/output budget.pcol" 2>/dev/null || fail "pack"
$PCOL top "$tmp/output budget.pcol" --max-rows 1 >/dev/null 2>"$tmp/err"
[ $? = 1 ] || fail "a row budget's refusal of 'output budget.pcol' is not exit 1: $(cat "$tmp/err")"

# a small generated case: every view's whole output, then a budget of about
# half of it
f=examples/demo.out
n=0
# (disasm writes through the same stream; this file has no addresses)
for v in "traces" "traces --by line" "fold" "tree" "peek ." "top" "top --by line" "list ." "graph" "graph --format json"; do
  set -- $v
  $PCOL $1 "$f" "${@:2}" >"$tmp/full" 2>/dev/null || fail "$v: the whole output"
  size=$(stat -c %s "$tmp/full")
  [ "$size" -gt 200 ] || continue # (too small to cut: disasm of a file without addresses)
  b=$((size / 2 + 7))
  $PCOL $1 "$f" "${@:2}" --max-output $b >"$tmp/cut" 2>"$tmp/err"
  rc=$?
  [ $rc = 3 ] || fail "$v --max-output $b: exit $rc, want 3: $(cat "$tmp/err")"
  grep -q "output budget of $b bytes (set by --max-output" "$tmp/err" || fail "$v: no budget message: $(cat "$tmp/err")"
  # only the budget's words: no write error of a refused flush (review 22 F4: graph said "write failed: Success")
  grep -q "write failed" "$tmp/err" && fail "$v: $(cat "$tmp/err")"
  c=$(stat -c %s "$tmp/cut")
  if [ "$c" = 0 ]; then # refused before a byte (fold holds what it writes: past B it refuses first)
    grep -q "cut short" "$tmp/err" && fail "$v: nothing written, yet 'cut short'"
    continue
  fi
  grep -q "standard output is cut short" "$tmp/err" || fail "$v: stderr does not say the output was cut: $(cat "$tmp/err")"
  [ "$c" -le "$b" ] || fail "$v: wrote $c bytes, budget $b"
  [ "$(tail -c 1 "$tmp/cut" | od -An -c | tr -d ' ')" = '\n' ] || fail "$v: the cut output does not end a line"
  cmp -s "$tmp/cut" <(head -c "$c" "$tmp/full") || fail "$v: the cut output is not the whole one's beginning"
  # the next line of the whole output did not fit whole
  next=$(tail -c +$((c + 1)) "$tmp/full" | head -n 1 | wc -c)
  [ $((c + next)) -gt "$b" ] || fail "$v: stopped at $c bytes though the next line ($next bytes) fit in $b"
  n=$((n + 1))
done
[ $n -ge 7 ] || fail "only $n views were cut"
# a -o file past the budget is not written, and exits 3 too
rm -f "$tmp/g.svg"
$PCOL flame "$f" -o "$tmp/g.svg" --max-output 1K 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && [ ! -e "$tmp/g.svg" ] || fail "flame -o past the budget: exit $rc: $(cat "$tmp/err")"
# an exporter's budget on a file: exit 3
$PCOL unpack "$f" --to collapsed --max-output 100 -o "$tmp/u.txt" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && [ ! -e "$tmp/u.txt" ] || fail "unpack past the budget: exit $rc: $(cat "$tmp/err")"

# the real profile of review 14 F3: a 774 KB .pb.gz (3 MB plain) whose
# traces by line are 146 MB, as go tool pprof -traces -lines prints them
heap=$TD/ext/pprof/go-heap-truncated-stacks-3.pb.gz
if [ -f "$heap" ]; then
  $PCOL traces "$heap" --by line 2>"$tmp/err" | wc -c >"$tmp/n"
  [ "${PIPESTATUS[0]}" = 0 ] || fail "traces --by line of $heap: $(cat "$tmp/err")"
  [ "$(cat "$tmp/n")" -gt 146000000 ] || fail "traces --by line of $heap: $(cat "$tmp/n") bytes"
  # as given or piped: the same budget
  cat "$heap" | $PCOL traces - --by line >/dev/null 2>"$tmp/err" || fail "traces of it piped: $(cat "$tmp/err")"
  # a budget below it cuts it at a whole line, exit 3
  $PCOL traces "$heap" --by line --max-output 10M 2>"$tmp/err" | tail -c 1 | od -An -c | tr -d ' ' >"$tmp/last"
  [ "${PIPESTATUS[0]}" = 3 ] && [ "$(cat "$tmp/last")" = '\n' ] || fail "traces --max-output 10M: $(cat "$tmp/err")"
  echo "t_outcut: $n views cut at a whole line with exit 3; the 774 KB heap profile's 146 MB of traces print whole"
else
  echo "t_outcut: $n views cut at a whole line with exit 3 (no $heap: its check skipped)"
fi
