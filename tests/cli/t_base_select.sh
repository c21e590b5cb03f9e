#!/usr/bin/env bash
# A view's selection under --base/--diff-base (review 23 F1-F3), without go
# (tests/interop/t_base_select.sh judges the same with go tool pprof):
#   F1: --normalize with --from/--to is the comparison of the two range
#       cuts (`pcol unpack --from --to` of each side, then --normalize of
#       the cuts): before, the ratio was of the whole profiles and each
#       stack's scaled weight sat at its first sample's time;
#   F2: --source N takes source N of the profile and of the base, as
#       `pcol diff` does: before, the union's sources were one list, and
#       --source 1 showed the profile with nothing subtracted in every view;
#       --source 2 of a one-source profile is refused, naming the side;
#   F3: a range that leaves the base (or the profile) without a sample is
#       said, as `pcol diff` says it, and the note of a relative range
#       counts the profile's recordings, not the base as one more.
set -u
T=t_base_select
. "$(dirname "$0")/cli_env.sh"
GEN="python3 tests/support/pprofgen.py"
R=$TD/rprof
[ -f "$R/proftools__Rprof-rec1.out" ] || { echo "t_base_select: no test data: skipped"; exit 77; }
rows() { awk 'on {print} /^ *flat  *flat%|^-+\+-+$/ {on=1}' "$1"; }

# F1: the range first, then --normalize
new=$R/proftools__Rprof-rec1.out old=$R/proftools__Rprof-rec.out
for rg in "0.5 2" "1 3.5" "2.2 7"; do
  set -- $rg
  "$PCOL" unpack "$new" --from "$1" --to "$2" --to pprof -o "$tmp/n.pb.gz" 2>/dev/null || fail "unpack $new"
  "$PCOL" unpack "$old" --from "$1" --to "$2" --to pprof -o "$tmp/o.pb.gz" 2>/dev/null || fail "unpack $old"
  for o in diff-base base; do
    for v in top traces; do
      nf=$([ $v = top ] && echo --node-fraction 0)
      "$PCOL" $v "$tmp/n.pb.gz" --$o "$tmp/o.pb.gz" --normalize $nf >"$tmp/want.txt" 2>/dev/null ||
        fail "$v of the cuts --$o"
      "$PCOL" $v "$new" --$o "$old" --normalize --from "$1" --to "$2" $nf >"$tmp/got.txt" 2>"$tmp/err.txt" ||
        fail "$v --$o --normalize --from $1 --to $2: $(head -c 300 "$tmp/err.txt")"
      rows "$tmp/want.txt" >"$tmp/want.rows"
      rows "$tmp/got.txt" >"$tmp/got.rows"
      [ -s "$tmp/want.rows" ] || fail "$v of the cuts --$o: no rows"
      diff "$tmp/want.rows" "$tmp/got.rows" >"$tmp/d.txt" ||
        fail "$v --$o --normalize --from $1 --to $2 is not $v of the two cuts: $(head -8 "$tmp/d.txt")"
    done
  done
done

# F2: --source N of each side
$GEN aslr "$tmp/a.pb" 0x555555554000 >/dev/null && $GEN aslr "$tmp/b.pb" 0x5600aa000000 0x5000 extra >/dev/null &&
  $GEN aslr "$tmp/c.pb" 0x7f1234560000 0x4a00 >/dev/null || fail "pprofgen.py aslr"
"$PCOL" merge "$tmp/a.pb" "$tmp/b.pb" -o "$tmp/ab.pcol" 2>/dev/null &&
  "$PCOL" merge "$tmp/a.pb" "$tmp/c.pb" -o "$tmp/ac.pcol" 2>/dev/null || fail "merge"
view() { # view VIEW ARGS...: its output (flame: its SVG), the file names left out
  local v=$1
  shift
  case $v in
  peek) "$PCOL" peek "$@" 'main' ;;
  list) "$PCOL" list "$@" 'main' ;;
  flame) "$PCOL" flame "$@" -o "$tmp/f.svg" && cat "$tmp/f.svg" ;;
  unpack) "$PCOL" unpack "$@" --to collapsed -o - ;;
  *) "$PCOL" "$v" "$@" ;;
  esac 2>&1 | sed 's/[^ ]*\.pb\b//g; s/[^ ]*\.pcol\b//g'
}
for o in diff-base base; do
  for v in top peek tree traces tags list graph fold flame unpack; do
    view $v "$tmp/b.pb" --$o "$tmp/a.pb" >"$tmp/want.txt"
    view $v "$tmp/b.pb" --source 1 --$o "$tmp/a.pb" >"$tmp/got.txt"
    cmp -s "$tmp/want.txt" "$tmp/got.txt" || fail "$v b.pb --source 1 --$o a.pb is not $v b.pb --$o a.pb: $(diff "$tmp/want.txt" "$tmp/got.txt" | head -6)"
    [ $v = tags ] || grep -q . "$tmp/want.txt" || fail "$v b.pb --$o a.pb: nothing"
  done
  for v in top traces tree; do
    view $v "$tmp/b.pb" --$o "$tmp/c.pb" --normalize >"$tmp/want.txt"
    view $v "$tmp/ab.pcol" --source 2 --$o "$tmp/ac.pcol" --normalize >"$tmp/got.txt"
    diff <(rows "$tmp/want.txt") <(rows "$tmp/got.txt") >"$tmp/d.txt" ||
      fail "$v ab.pcol --source 2 --$o ac.pcol is not $v b.pb --$o c.pb: $(head -6 "$tmp/d.txt")"
  done
done
"$PCOL" top "$tmp/b.pb" --source 2 --diff-base "$tmp/a.pb" >/dev/null 2>"$tmp/err.txt" &&
  fail "top b.pb --source 2 --diff-base a.pb: accepted"
grep -q "b.pb: no source 2 (the profile has 1" "$tmp/err.txt" || fail "--source 2 of b.pb: $(cat "$tmp/err.txt")"
"$PCOL" top "$tmp/ab.pcol" --source 2 --diff-base "$tmp/a.pb" >/dev/null 2>"$tmp/err.txt" &&
  fail "top ab.pcol --source 2 --diff-base a.pb: accepted"
grep -q "a.pb: no source 2 (the base has 1" "$tmp/err.txt" || fail "--source 2 of the base: $(cat "$tmp/err.txt")"
# ... and a pair of source N that does not pair is named by N, not by the number of its copy
# alone (fuzz_views, 2026-12-01: "the base's source 1, the profile's source 1" for --source 2)
$GEN multivalue "$tmp/m.pb" >/dev/null && "$PCOL" merge "$tmp/a.pb" "$tmp/m.pb" -o "$tmp/am.pcol" 2>/dev/null ||
  fail "merge a m"
"$PCOL" top "$tmp/ab.pcol" --source 2 --diff-base "$tmp/am.pcol" >/dev/null 2>"$tmp/err.txt" &&
  fail "top ab.pcol --source 2 --diff-base am.pcol: accepted"
grep -q "am.pcol: the base profile's period type .*(the base's source 2, the profile's source 2; " "$tmp/err.txt" ||
  fail "--source 2 of a pair that does not pair: $(cat "$tmp/err.txt")"
"$PCOL" top "$tmp/am.pcol" --source 2 --base "$tmp/ab.pcol" >/dev/null 2>"$tmp/err.txt" &&
  fail "top am.pcol --source 2 --base ab.pcol: accepted"
grep -q "(the base's source 2, the profile's source 2; " "$tmp/err.txt" ||
  fail "--source 2 of a pair that does not pair (reversed): $(cat "$tmp/err.txt")"
# an export that cannot hold a difference (V8: one thread, Chrome and V8:
# a sample lasts its value, Perfetto: unsigned weights) is refused with
# what does hold it, with or without --source N: before, V8 said "choose
# one with --source N", which under a base takes source N of each side
# (still two), and Perfetto "choose another value with --value", as
# negated; then the advice taken: the pprof copy's top is the difference's
for o in diff-base base; do
  for fmt in v8 chrome perfetto; do
    for s in "" "--source 1"; do
      # shellcheck disable=SC2086
      "$PCOL" unpack "$tmp/b.pb" $s --$o "$tmp/a.pb" --to $fmt -o "$tmp/x.$fmt" 2>"$tmp/err.txt" &&
        fail "unpack b.pb $s --$o a.pb --to $fmt: accepted"
      grep -q "a difference of profiles .* cannot be written so: write the difference with --to pprof or --to otlp" "$tmp/err.txt" &&
        ! grep -q "choose" "$tmp/err.txt" || fail "unpack b.pb $s --$o a.pb --to $fmt: $(cat "$tmp/err.txt")"
      [ -e "$tmp/x.$fmt" ] && fail "unpack --to $fmt refused, its output left"
    done
  done
  "$PCOL" unpack "$tmp/b.pb" --$o "$tmp/a.pb" --to pprof -o "$tmp/x.pb.gz" 2>/dev/null || fail "unpack --$o --to pprof"
  "$PCOL" top "$tmp/b.pb" --$o "$tmp/a.pb" --node-fraction 0 >"$tmp/want.txt" 2>/dev/null || fail "top --$o"
  "$PCOL" top "$tmp/x.pb.gz" --node-fraction 0 >"$tmp/got.txt" 2>/dev/null || fail "top of the --$o pprof copy"
  diff <(rows "$tmp/want.txt") <(rows "$tmp/got.txt") >"$tmp/d.txt" ||
    fail "top of the --$o pprof copy is not the difference's: $(head -6 "$tmp/d.txt")"
  rows "$tmp/got.txt" | grep -q . || fail "top of the --$o pprof copy: no rows"
done
# --source N with a wall-clock range over several inputs: no input left out (rd17c F2: the
# range left out y.pb, which the range cannot reach, so "source 2" was z.pb, equal to the
# base's source 2: every row 0, where the merged file's source 2 is y.pb minus v.pb)
mkdir -p "$tmp/bd" && for i in x:1000 y:5000 z:1000 bd/1u:5000 bd/2v:1000; do
  $GEN comments-at "$tmp/${i%:*}.pb" "${i#*:}000000000" >/dev/null || fail "pprofgen.py comments-at"
done
"$PCOL" merge "$tmp/x.pb" "$tmp/y.pb" "$tmp/z.pb" -o "$tmp/xyz.pcol" 2>/dev/null || fail "merge x y z"
W="--from @1000 --to @1002"
"$PCOL" top "$tmp/xyz.pcol" --source 2 --diff-base "$tmp/bd" $W >"$tmp/want.txt" 2>/dev/null || fail "top xyz.pcol"
"$PCOL" top "$tmp/x.pb" "$tmp/y.pb" "$tmp/z.pb" --source 2 --diff-base "$tmp/bd" $W >"$tmp/got.txt" 2>/dev/null ||
  fail "top x y z --source 2 --diff-base bd $W"
grep -q -- "-30ns.* work" "$tmp/want.txt" || fail "top xyz.pcol --source 2 --diff-base bd $W: $(cat "$tmp/want.txt")"
diff <(rows "$tmp/want.txt") <(rows "$tmp/got.txt") >"$tmp/d.txt" ||
  fail "top x y z --source 2 --diff-base bd $W is not that of their merge: $(head -6 "$tmp/d.txt")"
# messages name source N of the profile and of the base, not the "source 1"
# of each side's copy (rd18a F4): y.pb is xyz.pcol's source 2 (at 5000 s),
# bd/2v.pb the base's (at 1000 s), each 2 s of samples without times
"$PCOL" top "$tmp/xyz.pcol" --source 2 --diff-base "$tmp/bd" --from @5000.5 --to @5001.5 >/dev/null 2>"$tmp/err.txt" &&
  fail "top xyz.pcol --source 2 --diff-base bd cutting y.pb's span: accepted"
grep -q "xyz.pcol: source 2 (pprof [^ ]*y.pb) has no sample times" "$tmp/err.txt" ||
  fail "--source 2, the profile's range error: $(cat "$tmp/err.txt")"
"$PCOL" top "$tmp/xyz.pcol" --source 2 --diff-base "$tmp/bd" --from @1000.5 --to @1001.5 >/dev/null 2>"$tmp/err.txt" &&
  fail "top xyz.pcol --source 2 --diff-base bd cutting bd/2v.pb's span: accepted"
grep -q "the base's source 2 (pprof [^ ]*2v.pb) has no sample times" "$tmp/err.txt" ||
  fail "--source 2, the base's range error: $(cat "$tmp/err.txt")"
"$PCOL" merge "$R/proftools__Rprof-rec.out" "$TD/pprof/go-heap-allocs-inline.pb.gz" -o "$tmp/pm.pcol" 2>/dev/null &&
  "$PCOL" merge "$R/proftools__Rprof-rec1.out" "$TD/pprof/go-cpu-string-labels.pb.gz" -o "$tmp/bm.pcol" 2>/dev/null ||
  fail "merge pm bm"
"$PCOL" top "$tmp/pm.pcol" --source 2 --diff-base "$tmp/bm.pcol" >/dev/null 2>"$tmp/err.txt" &&
  fail "top pm.pcol --source 2 --diff-base bm.pcol (space against cpu): accepted"
grep -q "(the base's source 2, the profile's source 2; pprof: period type" "$tmp/err.txt" ||
  fail "--source 2, the period types' error: $(cat "$tmp/err.txt")"
# the library's words name no CLI option (R and Python read them too; rd18a F5)
"$PCOL" top "$tmp/xyz.pcol" --source 3 --diff-base "$tmp/bd" >/dev/null 2>"$tmp/err.txt" &&
  fail "top xyz.pcol --source 3 --diff-base bd: accepted"
grep -q "no source 3 (the base has 2; source N is taken of the profile and of the base)" "$tmp/err.txt" ||
  fail "--source 3 of a 2-source base: $(cat "$tmp/err.txt")"
# --format json's "filters" say --source N under a base too (rd18a F10)
"$PCOL" top "$tmp/xyz.pcol" --source 2 --diff-base "$tmp/bd" $W --format json 2>/dev/null | head -1 |
  grep -q '"filters":{"source":2,"from":1000,"to":1002,' || fail "json filters under a base lack the source: $(
  "$PCOL" top "$tmp/xyz.pcol" --source 2 --diff-base "$tmp/bd" $W --format json 2>&1 | head -c 400)"
# a range the profile's untimed samples refuse is the profile's error, named after it
"$PCOL" top "$tmp/b.pb" --diff-base "$tmp/a.pb" --normalize --from 1 --to 2 >/dev/null 2>"$tmp/err.txt" &&
  fail "top b.pb --diff-base a.pb --normalize --from 1 --to 2 (no sample times): accepted"
grep -q "^pcol top: [^ ]*b.pb: source 1 (pprof" "$tmp/err.txt" || fail "the profile's range error: $(cat "$tmp/err.txt")"

# F3: a side the range leaves empty is said; the note counts the profile's recordings
# (rec1.out's samples are at 0 .. 6.94 s, rec.out's at 0 .. 7.96 s)
"$PCOL" top "$new" --diff-base "$old" --from 7.5 >/dev/null 2>"$tmp/err.txt" || fail "top --from 7.5"
grep -q "warning: .*rec1.out: the range --from 7.50s selects no sample of the profile" "$tmp/err.txt" ||
  fail "top --from 7.5: no word of the empty profile: $(cat "$tmp/err.txt")"
"$PCOL" top "$old" --diff-base "$new" --from 7.5 >/dev/null 2>"$tmp/err.txt" || fail "top --from 7.5 (reversed)"
# ... naming the base's file, whose samples it quotes (rd17c F3: only the profile's was named)
grep -qF "the range --from 7.50s selects no sample of the base $new: the samples are at 0 .. 6.94s" "$tmp/err.txt" ||
  fail "top --from 7.5: no word of the empty base, by its name: $(cat "$tmp/err.txt")"
"$PCOL" top "$new" --diff-base "$old" --from 1 --to 2 >/dev/null 2>"$tmp/err.txt" || fail "top --from 1 --to 2"
grep -q "recordings\|selects no sample" "$tmp/err.txt" && fail "top --from 1 --to 2 under a base: $(cat "$tmp/err.txt")"
"$PCOL" top "$new" "$old" --diff-base "$old" --from 1 --to 2 >/dev/null 2>"$tmp/err.txt" || fail "top A B --diff-base"
grep -q "each of the 2 recordings" "$tmp/err.txt" || fail "top A B --diff-base --from 1 --to 2: $(cat "$tmp/err.txt")"
echo "t_base_select: ok"
