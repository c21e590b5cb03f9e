#!/usr/bin/env bash
# Stacks the recorder truncated (meta pcol.truncated_stacks, THE rule:
# lib/core/truncated.c; doc/mappings.md §15) in the exports: a JFR
# recording whose stack traces are deeper than its stackdepth (tests/support/
# gen_jfr.py: stack trace 2, 5 of 20 execution samples) is warned of by the
# views; before, its pprof, speedscope and Firefox copies lost the mark, and
# `pcol top` of a copy said nothing.
#  - pprof carries it in a comment (go tool pprof -comments shows it),
#    speedscope in a profile's pcolTruncatedStacks, Firefox in
#    meta.pcolTruncatedStacks (OTLP keeps every meta key): read back, the
#    views warn of the same count, `pcol info` notes it; a copy exported
#    again, or with the original, says the selection's count once (not the
#    comment twice).
#  - rprof, perun, collapsed, V8, Chrome and Perfetto have no place for it:
#    the export says the mark is lost.
set -u
PCOL=${PCOL:-build/bin/pcol}
GEN="python3 tests/support/gen_jfr.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "t_truncated_exports: FAIL: $*"; fails=$((fails + 1)); }
W='samples have stacks the recorder truncated at its stack depth'
$GEN "$tmp/tr.jfr" --samples 20 --exec-only --period '*:10 ms' >/dev/null || { echo "FAIL: gen_jfr.py"; exit 1; }
"$PCOL" top "$tmp/tr.jfr" >/dev/null 2>"$tmp/err" && grep -q "tr.jfr: 5 $W" "$tmp/err" ||
  fail "the recording: no warning of 5 truncated stacks: $(cat "$tmp/err")"
for t in pprof speedscope firefox otlp; do
  c="$tmp/tr.$t"
  "$PCOL" unpack "$tmp/tr.jfr" --to "$t" -o "$c" 2>"$tmp/err" || fail "unpack --to $t: $(cat "$tmp/err")"
  ! grep -q "truncated" "$tmp/err" || fail "unpack --to $t: said the mark is lost: $(cat "$tmp/err")"
  "$PCOL" top "$c" >/dev/null 2>"$tmp/err" || fail "top of the $t copy: $(cat "$tmp/err")"
  grep -q "warning: .*tr.$t: 5 $W" "$tmp/err" || fail "top of the $t copy: no warning of 5 truncated stacks: $(cat "$tmp/err")"
  "$PCOL" info "$c" | grep -q 'note: .*stack traces truncated by the recorder: 5 samples' ||
    fail "info of the $t copy: no note: $("$PCOL" info "$c" | grep note)"
  # the copy again, and beside the original: the selection's count, once
  "$PCOL" unpack "$c" --to "$t" -o "$tmp/again.$t" 2>/dev/null &&
    "$PCOL" top "$tmp/again.$t" 2>&1 >/dev/null | grep -q "again.$t: 5 $W" ||
    fail "the $t copy exported again: not 5: $("$PCOL" top "$tmp/again.$t" 2>&1 >/dev/null)"
  "$PCOL" unpack "$c" "$tmp/tr.jfr" --to "$t" -o "$tmp/both.$t" 2>/dev/null &&
    "$PCOL" top "$tmp/both.$t" 2>&1 >/dev/null | grep -Eq "both.$t: 10 samples( of 2 sources)? have stacks the recorder" ||
    fail "the $t copy with the recording: not 10: $("$PCOL" top "$tmp/both.$t" 2>&1 >/dev/null)"
done
[ "$(zcat "$tmp/both.pprof" | grep -ac 'pcol.truncated_stacks: ')" = 1 ] ||
  fail "the pprof copy with the recording: not one comment of truncated stacks"
if command -v go >/dev/null 2>&1; then
  got=$(go tool pprof -comments "$tmp/tr.pprof" 2>&1)
  [ "$got" = "pcol.truncated_stacks: 5 $W" ] || fail "go tool pprof -comments of the pprof copy: $got"
else
  echo "t_truncated_exports: go not installed: go tool pprof -comments not checked"
fi
# a comment that only looks like the mark is a comment (no count, 0, a
# leading zero, more than 64 bits)
for bad in "pcol.truncated_stacks:  $W" "pcol.truncated_stacks: 0 $W" "pcol.truncated_stacks: 05 $W" \
           "pcol.truncated_stacks: 18446744073709551616 $W"; do
  zcat "$tmp/tr.pprof" | BAD="$bad" python3 -c '
import os, sys
d = sys.stdin.buffer.read()
good = b"pcol.truncated_stacks: 5 " + os.environ["BAD"].split(" ", 2)[2].encode()
new = os.environ["BAD"].encode()
assert d.count(good) == 1
i = d.index(good)
# the string table entry: tag 0x32 (field 6), a one-byte length before it
assert d[i - 2] == 0x32 and d[i - 1] == len(good)
sys.stdout.buffer.write(d[:i - 1] + bytes([len(new)]) + new + d[i + len(good):])' >"$tmp/bad.pb" ||
    { fail "cannot write a pprof with comment '$bad'"; continue; }
  "$PCOL" top "$tmp/bad.pb" >/dev/null 2>"$tmp/err" || fail "comment '$bad': $(cat "$tmp/err")"
  ! grep -q "$W" "$tmp/err" || fail "comment '$bad' read as a mark: $(cat "$tmp/err")"
done
# no place: the export says the mark is lost (a filter does not cut the
# count: the samples do not say which were truncated, as the views' warning)
for t in rprof perun collapsed v8 chrome perfetto; do
  v=; case $t in v8) v="--value cpu --tag tid=4242";; chrome) v="--value cpu";; esac
  # shellcheck disable=SC2086
  "$PCOL" unpack "$tmp/tr.jfr" --to "$t" $v -o "$tmp/lost.$t" 2>"$tmp/err" || fail "unpack --to $t: $(cat "$tmp/err")"
  # (a note in every format: one word for one kind of loss, review h7)
  grep -q "^pcol unpack: note: .*tr.jfr: 5 $W, which the $t format has no place to mark" "$tmp/err" ||
    fail "unpack --to $t: the mark's loss not noted: $(cat "$tmp/err")"
done
[ "$fails" = 0 ] && echo "t_truncated_exports: ok" || { echo "t_truncated_exports: $fails failed"; exit 1; }
