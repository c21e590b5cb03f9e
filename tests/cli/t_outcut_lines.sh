#!/usr/bin/env bash
# Standard output refused past its output budget B, beside t_outcut.sh:
# 1. the refusal falls inside a line longer than the 64 KiB a counting
#    standard output holds back (tools/outbudget.c HOLD_MAX): such a line
#    passes on as it comes, and the newline that ends it when refused must
#    still leave the output within B (review diff6 F5, fixed by e793554c:
#    2 MiB name, 33554433 bytes written under a budget of 33554432).  Every
#    B from inside the long line to its end, in steps that hit each 4 KiB
#    boundary (where stdio hands the stream its pieces) and the bytes about
#    it: exit 3, at most B bytes, ending with a newline, a prefix of the
#    whole output, the budget named on standard error.  traces (a view's
#    budget) and, through unpack, the exporters'.
# 2. pcol unpack -o - of a text format (collapsed, rprof, and the JSON
#    formats written with newlines: speedscope, perun, v8, firefox) ends at
#    a whole line within B, as a view's standard output does; pprof (binary)
#    leaves a prefix of at most B bytes, which no reader takes for a profile
#    (gzip without its end).
# Generated input only (a collapsed file with a 100,000-byte frame name).
# Env: PCOL.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_outcut_lines: FAIL: $*" >&2; exit 1; }

# check WHAT B: $tmp/cut (stdout), $tmp/err, $tmp/rc against $tmp/full
check() {
  local what=$1 b=$2 rc c
  rc=$(cat "$tmp/rc")
  [ "$rc" = 3 ] || fail "$what --max-output $b: exit $rc, want 3: $(cat "$tmp/err")"
  grep -q "output budget of $b bytes (set by --max-output" "$tmp/err" || fail "$what $b: no budget message: $(cat "$tmp/err")"
  c=$(stat -c %s "$tmp/cut")
  [ "$c" -le "$b" ] || fail "$what: wrote $c bytes past the budget of $b"
  [ "$c" = 0 ] && return 0
  grep -q "standard output is cut short" "$tmp/err" || fail "$what $b: stderr does not say the output was cut: $(cat "$tmp/err")"
  [ "$(tail -c 1 "$tmp/cut" | od -An -c | tr -d ' ')" = '\n' ] || fail "$what $b: the cut output ($c bytes) does not end a line"
  # a prefix of the whole output, but for the last line, which may be a
  # long line ended early
  cmp -s <(head -c $((c - 1)) "$tmp/cut") <(head -c $((c - 1)) "$tmp/full") ||
    fail "$what $b: the cut output is not the whole one's beginning"
}

python3 - "$tmp/long.folded" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("main;a;b 5\nmain;%s;tail 3\nmain;c 1\n" % ("L" * 100000))
EOF
$PCOL pack --from collapsed "$tmp/long.folded" -o "$tmp/long.pcol" 2>"$tmp/err" || fail "pack: $(cat "$tmp/err")"

# 1. the cut inside a long line
n=0
for cmd in "traces" "unpack --to collapsed -o -"; do
  set -- $cmd
  $PCOL $1 "$tmp/long.pcol" "${@:2}" >"$tmp/full" 2>"$tmp/err" || fail "$cmd: the whole output: $(cat "$tmp/err")"
  start=$(grep -boa LLLL "$tmp/full" | head -n 1 | cut -d: -f1)
  [ -n "$start" ] || fail "$cmd: no long line in the whole output"
  end=$((start + 100000)) # the long name's end
  for ((k = (start + 65536) / 4096; k * 4096 <= end + 1; k++)); do
    for b in $((k * 4096 - 1)) $((k * 4096)) $((k * 4096 + 1)); do
      [ "$b" -gt $((start + 65536)) ] && [ "$b" -le "$end" ] || continue
      $PCOL $1 "$tmp/long.pcol" "${@:2}" --max-output $b >"$tmp/cut" 2>"$tmp/err"
      echo $? >"$tmp/rc"
      check "$cmd" $b
      n=$((n + 1))
    done
  done
done
[ $n -ge 40 ] || fail "only $n budgets inside the long line"

# 2. unpack -o -: a text format ends at a whole line within B.  The demo
# Rprof file, and a generated one of 60 stacks on a shared 20-frame prefix
# (collapsed holds its names and nodes against B: on the demo file that
# refuses before a byte; here the lines repeat the prefix)
python3 - "$tmp/gen.folded" <<'EOF2'
import sys
pre = ";".join("frame_%02d_with_a_longer_name" % i for i in range(20))
with open(sys.argv[1], "w") as f:
    for k in range(60):
        f.write("%s;leaf_%03d %d\n" % (pre, k, k + 1))
EOF2
$PCOL pack --from collapsed "$tmp/gen.folded" -o "$tmp/gen.pcol" 2>"$tmp/err" || fail "pack gen: $(cat "$tmp/err")"
m=0
for to in collapsed rprof speedscope perun v8 firefox; do
  cut=0
  for f in examples/demo.out "$tmp/gen.pcol"; do
    # (v8 writes times only: the generated counts are refused)
    $PCOL unpack "$f" --to $to -o - >"$tmp/full" 2>"$tmp/err" || continue
    size=$(stat -c %s "$tmp/full")
    for b in $((size / 2 + 7)) $((size * 3 / 4 + 1)) $((size - 1)); do
      $PCOL unpack "$f" --to $to -o - --max-output $b >"$tmp/cut" 2>"$tmp/err"
      echo $? >"$tmp/rc"
      check "unpack $f --to $to" $b
      c=$(stat -c %s "$tmp/cut")
      m=$((m + 1))
      [ "$c" -gt 0 ] || continue # refused before a byte (what it holds passed B)
      # whole lines: exactly a prefix, and the next line did not fit whole
      cmp -s "$tmp/cut" <(head -c "$c" "$tmp/full") || fail "unpack $f --to $to $b: not a prefix of whole lines"
      next=$(tail -c +$((c + 1)) "$tmp/full" | head -n 1 | wc -c)
      [ $((c + next)) -gt "$b" ] || fail "unpack $f --to $to $b: stopped at $c bytes though the next line ($next bytes) fit"
      cut=$((cut + 1))
    done
  done
  [ $cut -ge 1 ] || fail "unpack --to $to: no budget cut its output after a line"
done

f=examples/demo.out
# pprof is binary: no line to end; what fitted is a prefix of at most B
# bytes, a gzip stream without its end (gzip -t refuses it)
$PCOL unpack "$f" --to pprof -o - >"$tmp/full" 2>"$tmp/err" || fail "unpack --to pprof: $(cat "$tmp/err")"
size=$(stat -c %s "$tmp/full")
for b in $((size / 2)) $((size - 1)); do
  $PCOL unpack "$f" --to pprof -o - --max-output $b >"$tmp/cut" 2>"$tmp/err"
  rc=$?
  [ $rc = 3 ] || fail "unpack --to pprof --max-output $b: exit $rc: $(cat "$tmp/err")"
  grep -q "output budget of $b bytes" "$tmp/err" || fail "unpack --to pprof $b: no budget message: $(cat "$tmp/err")"
  grep -q "cut short" "$tmp/err" && fail "unpack --to pprof $b: 'cut short' said of a binary output"
  c=$(stat -c %s "$tmp/cut")
  [ "$c" -le "$b" ] || fail "unpack --to pprof: wrote $c bytes past the budget of $b"
  cmp -s "$tmp/cut" <(head -c "$c" "$tmp/full") || fail "unpack --to pprof $b: not a prefix of the whole output"
  if [ "$c" -gt 0 ] && gzip -t <"$tmp/cut" 2>/dev/null; then fail "unpack --to pprof $b: the cut output reads as a whole gzip"; fi
done
echo "t_outcut_lines: $n budgets inside a 100,000-byte line stay within B and end a line; unpack -o - of 6 text formats ends at a whole line ($m budgets), pprof's is a prefix within B"
