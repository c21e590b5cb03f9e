#!/usr/bin/env bash
# A profile and a base of two runs of one binary loaded at other addresses
# (rd15a F5): go tool pprof's Merge makes their samples one by each
# location's offset in its mapping (profile/merge.go locationKey), so
# -base cancels the stack main of label k=c and -tags and -traces show no
# k=c.  pcol grouped the samples by its own stack nodes, which the load
# address keeps apart: `tags --base` listed "0.0s (0%): c" and `traces
# --base` two traces of main, 10ns and -10ns, and every view's total of
# |values| (pprof's computeTotal) added the cancelled stack twice: `top
# --base` said "10ns, 20.00% of 50ns total" where go says 100% of 10ns.
# Now grouped by pprof's key (THE rule: lib/core/samplekey.c).  Checked: no
# k=c in tags and traces, top's total, and with go installed, tags,
# traces, top, tree and peek (-base and -diff_base) = go's.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_base_loaded: $*" >&2; exit 1; }
python3 "$here/../support/pprofgen.py" loaded "$tmp/a.pb" 0x1000 a || fail "pprofgen loaded a"
python3 "$here/../support/pprofgen.py" loaded "$tmp/b.pb" 0x5000 b || fail "pprofgen loaded b"
$PCOL tags "$tmp/a.pb" --base "$tmp/b.pb" >"$tmp/t" 2>"$tmp/err" || fail "tags --base: $(cat "$tmp/err")"
grep -q ': a$' "$tmp/t" && ! grep -q ': c$' "$tmp/t" || fail "tags --base lists the cancelled k=c (or no k=a):
$(cat "$tmp/t")"
$PCOL traces "$tmp/a.pb" --base "$tmp/b.pb" >"$tmp/t" 2>"$tmp/err" || fail "traces --base: $(cat "$tmp/err")"
[ "$(grep -c 'k:  c' "$tmp/t")" = 0 ] && [ "$(grep -c 'k:  a' "$tmp/t")" = 1 ] ||
  fail "traces --base: a trace of k=c, the base cancels it:
$(cat "$tmp/t")"
$PCOL top "$tmp/a.pb" --base "$tmp/b.pb" >"$tmp/t" 2>"$tmp/err" || fail "top --base: $(cat "$tmp/err")"
grep -q '^Showing nodes accounting for 10ns, 100% of 10ns total$' "$tmp/t" || fail "top --base: the total:
$(cat "$tmp/t")"
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  for v in tags traces top tree peek; do
    for m in base diff_base; do
      re=; [ $v = peek ] && re=.
      go tool pprof -symbolize=none "-$v" $re "-$m" "$tmp/b.pb" "$tmp/a.pb" 2>/dev/null | grep -v '^File: ' >"$tmp/g"
      $PCOL $v "$tmp/a.pb" $re "--${m/_/-}" "$tmp/b.pb" 2>/dev/null | grep -v '^File: ' >"$tmp/p"
      [ -s "$tmp/g" ] && cmp -s "$tmp/g" "$tmp/p" || fail "$v --${m/_/-} differs from go tool pprof -$v -$m:
$(diff "$tmp/g" "$tmp/p")"
    done
  done
else
  echo "t_base_loaded: go not installed: the go tool pprof comparison is skipped"
fi
# two libraries of one size and offset whose build id is a stored "" (a
# pprof table's second ""), not none: go keys them by their file
# (`BuildID != ""`), so they stay two; pcol took the "" as a build id and
# made b.so's samples a.so's (rd16b F1: --base 6 [a.so] where go says 10
# [a.so] and -4 [b.so]; a merge 14 [a.so] for 10 and 4)
python3 "$here/../support/pprofgen.py" emptybid "$tmp/ea.pb" /lib/a.so 10 || fail "pprofgen emptybid a"
python3 "$here/../support/pprofgen.py" emptybid "$tmp/eb.pb" /lib/b.so 4 || fail "pprofgen emptybid b"
$PCOL top "$tmp/ea.pb" --base "$tmp/eb.pb" --node-fraction 0 >"$tmp/t" 2>"$tmp/err" || fail "top --base (empty build ids): $(cat "$tmp/err")"
grep -Eq '^ +10 .* \[a\.so\]$' "$tmp/t" && grep -Eq '^ +-4 .* \[b\.so\]$' "$tmp/t" ||
  fail "top --base of a.so and b.so of empty build ids: not 10 [a.so] and -4 [b.so]:
$(cat "$tmp/t")"
$PCOL top "$tmp/ea.pb" "$tmp/eb.pb" --node-fraction 0 >"$tmp/t" 2>"$tmp/err" || fail "top of both (empty build ids): $(cat "$tmp/err")"
grep -Eq '^ +10 .* \[a\.so\]$' "$tmp/t" && grep -Eq '^ +4 .* \[b\.so\]$' "$tmp/t" ||
  fail "top of a.so and b.so of empty build ids: not 10 [a.so] and 4 [b.so]:
$(cat "$tmp/t")"
echo "t_base_loaded: ok"
