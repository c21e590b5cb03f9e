#!/usr/bin/env bash
# Resource bounds (issue 20; doc/safety.md "Resource bounds"), measured:
# every command on small hostile inputs runs under `prlimit --as` (a hard
# address-space limit: going past it is an out-of-memory failure, exit 3)
# and its peak resident memory (/usr/bin/time %M) must stay within the
# bound the table in doc/safety.md states:
#   - an input of 16 KB or less: at most 64 MiB, whatever the command;
#   - a 200 KB gzip bomb (200 MiB of zeros): at most 64 MiB too (the
#     inflate cap is 32 MiB for it).
# A command may refuse its input (exit 1 with a message) — that is the
# point of the bounds — but never exit 3 or die.  Runs on the plain build
# (sanitizers reserve terabytes of address space): `make test-bounds`.
set -u
PCOL=${PCOL:-build/bin/pcol}
fail() { echo "t_bounds: FAIL: $*" >&2; exit 1; }
command -v prlimit >/dev/null || { echo "t_bounds: prlimit not installed: skipped"; exit 0; }
[ -x /usr/bin/time ] || { echo "t_bounds: /usr/bin/time not installed: skipped"; exit 0; }
command -v python3 >/dev/null || { echo "t_bounds: python3 not installed: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. a 1 KB pprof: 1,024 inline frames of a function whose name is 256 KiB
#    (every stack's text is 256 MiB)
python3 tests/support/amplifier.py "$tmp/amp.pb.gz" || fail "python3 could not write the amplifier"
# 2. a 200 KB gzip bomb (200 MiB of zeros)
python3 -c "import gzip, sys
z = bytes(1 << 20)
with gzip.open(sys.argv[1], 'wb', 9) as g:
    for _ in range(200): g.write(z)" "$tmp/bomb.pb.gz" || fail "python3 could not write the bomb"
# 3. a small real profile and its pcol file
cp examples/demo.out "$tmp/demo.out"
"$PCOL" pack "$tmp/demo.out" -o "$tmp/demo.pcol" || fail "pack demo"

run() { # BOUND_KB NAME CMD...: CMD under prlimit, peak RSS <= BOUND_KB
  local bound=$1 name=$2; shift 2
  /usr/bin/time -f %M -o "$tmp/rss" prlimit --as=$((1 << 30)) -- "$@" >/dev/null 2>"$tmp/err"; local rc=$?
  local kb; kb=$(tail -1 "$tmp/rss")
  case $rc in 0|1|2) ;; *) fail "$name: exit $rc (want 0, or 1 with a message): $(head -c 300 "$tmp/err")" ;; esac
  [ $rc = 1 ] && ! grep -q . "$tmp/err" && fail "$name: exit 1 without a message"
  [ "$kb" -le "$bound" ] || fail "$name: peak memory $kb KB, bound $bound KB"
  printf 't_bounds: %-40s exit %s, peak %6s KB (bound %s KB)\n' "$name" "$rc" "$kb" "$bound" >&2
  n=$((n + 1))
}
n=0
small=$((64 << 10)) # KB: 64 MiB for an input of 16 KB or less
for f in "$tmp/amp.pb.gz" "$tmp/demo.out" "$tmp/demo.pcol"; do
  b=$(basename "$f")
  [ "$(stat -c %s "$f")" -le 16384 ] || fail "$b is larger than 16 KB"
  run $small "pack $b" "$PCOL" pack "$f" -o "$tmp/out.pcol"
  run $small "top $b" "$PCOL" top "$f"
  run $small "top --by line $b" "$PCOL" top "$f" --by line
  run $small "fold $b" "$PCOL" fold "$f"
  run $small "flame $b" "$PCOL" flame "$f" -o "$tmp/f.svg"
  run $small "report $b" "$PCOL" report "$f" -o "$tmp/r.html"
  run $small "diff $b $b" "$PCOL" diff "$f" "$f"
  for t in rprof pprof perun collapsed speedscope; do
    run $small "unpack --to $t $b" "$PCOL" unpack "$f" --to $t -o "$tmp/out.$t"
  done
done
for t in samples sample_locations functions strings; do
  run $small "cat $t demo.pcol" "$PCOL" cat "$tmp/demo.pcol" --table $t
done
run $small "info demo.pcol" "$PCOL" info "$tmp/demo.pcol"
run $small "validate --full demo.pcol" "$PCOL" validate --full "$tmp/demo.pcol"
cap=$((64 << 10))
for c in "pack" "top" "fold"; do
  case $c in pack) run $cap "pack bomb" "$PCOL" pack "$tmp/bomb.pb.gz" -o "$tmp/b.pcol" ;;
             *) run $cap "$c bomb" "$PCOL" $c "$tmp/bomb.pb.gz" ;; esac
done
echo "t_bounds: $n commands within their bounds"
