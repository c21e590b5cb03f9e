#!/usr/bin/env bash
# A seeded random search of pprof's filters on pcol's pprof export:
# `pcol unpack --to pprof` with --focus, --ignore, --tag, --tag-ignore,
# --tagroot, --tagleaf, --base/--diff-base (--normalize) and --divide-by,
# drawn at random (tests/interop/filter_search.py: regexes built from the
# names the profile holds, tag filters from its labels, a base of the same
# sample types), against `go tool pprof -proto` with the same options; both
# files then read back by go tool pprof (-top -nodefraction=0 with every
# node, -traces, -tags and -raw's samples), and each of go's views of
# pcol's file must be the text of go's view of its own.  A -proto go
# refuses pcol must refuse, and the other way round.  Inputs: random
# profiles (tests/support/pprofgen.py `random`, and `random-odd`: names
# with unicode, quotes, blanks, ';') and the shared test data's pprof files
# (../shared/testdata/pprof, ext/pprof; in make test the small ones: a
# go session costs its start, so inputs are few).  Not drawn: --hide,
# --show, --show-from and --no-inlines, which pcol's export refuses (it
# keeps stacks whole); --from/--to, which pprof has not.
#
# make test runs one seed (PCOL_FSEARCH_SEED) of a few option sets per
# input (PCOL_FSEARCH_N); go's views come from tests/interop/pprof_session.sh
# sessions (a session per profile for the -proto views, one per written
# file for its read-back).  The search by hand (some minutes):
#   PCOL_FSEARCH_RANDOM="$(seq -s' ' 1 70)" PCOL_FSEARCH_ODD="$(seq -s' ' 1 14)" \
#   PCOL_FSEARCH_MAXSIZE=40000 PCOL_FSEARCH_N=3 PCOL_FSEARCH_SEED=2 bash tests/interop/t_filter_search.sh
# What it found (each case checked below, found()): pcol's label filters
# alone kept the samples without locations, which pprof's name filters drop
# even when none is given (profile/filter.go FilterSamplesByName); pcol
# refuses a numeric range on a label of strings on purpose (doc/cli.md),
# where go's -proto matches no sample: counted apart.
#
# Env: PCOL, KEEP (keep the work directory), PCOL_FSEARCH_SEED,
# PCOL_FSEARCH_MAXSIZE (the largest shared file read, bytes; 4500),
# PCOL_FSEARCH_N, PCOL_FSEARCH_RANDOM, PCOL_FSEARCH_ODD (pprofgen seeds).
# Exit 0 pass, 1 fail, 77 skip (no Go or python3).
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
for t in go python3; do
  command -v $t >/dev/null 2>&1 || { echo "t_filter_search: $t not installed: skipped"; exit 77; }
done
data=$(cd "$REPO/../shared/testdata" 2>/dev/null && pwd) || data=
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "t_filter_search: work directory $tmp" || trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
PPROF=$(go tool -n pprof 2>/dev/null)
[ -x "$PPROF" ] || { echo "t_filter_search: FAIL: go tool -n pprof names no program (\"$PPROF\")"; exit 1; }
SEED=${PCOL_FSEARCH_SEED:-1}
N=${PCOL_FSEARCH_N:-2}
RANDOM_SEEDS=${PCOL_FSEARCH_RANDOM:-$(seq -s' ' 1 8)}
ODD_SEEDS=${PCOL_FSEARCH_ODD:-1 2}
mkdir -p "$tmp/in" "$tmp/c"
python3 - "$tmp/in" "$REPO/tests/support" "$RANDOM_SEEDS" "$ODD_SEEDS" <<'PY' || exit 1
import os, sys
out, sup = sys.argv[1], sys.argv[2]
sys.path.insert(0, sup)
from pprofgen import random_profile
for odd, seeds, pre in ((False, sys.argv[3], "rand"), (True, sys.argv[4], "odd")):
    for s in seeds.split():
        random_profile(os.path.join(out, "%s-%s.pb" % (pre, s)), int(s), odd)
PY
inputs=("$tmp"/in/*.pb)
if [ -n "$data" ]; then
  for f in "$data"/pprof/*.pb* "$data"/ext/pprof/*; do
    [ -f "$f" ] || continue
    case $f in *edge-invalid-utf8-nul-strings*) continue ;; esac # (raw control bytes in its names)
    [ "$(stat -c %s "$f")" -le "${PCOL_FSEARCH_MAXSIZE:-4500}" ] || continue # (make test's time)
    "$PCOL" info "$f" 2>/dev/null | grep -q 'input_format: *pprof' || continue
    inputs+=("$f")
  done
fi
python3 "$REPO/tests/interop/filter_search.py" plan "$tmp/c" "$SEED" "$N" "${inputs[@]}" >"$tmp/plan" || exit 1
# the cases the search found, each of which failed before its fix: label
# filters alone kept the samples without locations in pcol's export (go's
# name filters, none given, drop them; -tagroot's frame keeps them)
python3 "$REPO/tests/support/pprofgen.py" emptystack "$tmp/in/emptystack.pb" || exit 1
found() { # found K GO-ARGS -- PCOL-ARGS
  local k=$1 w=
  shift
  : >"$tmp/c/$k.g"
  while [ "$1" != -- ]; do printf '%s\0' "$1" >>"$tmp/c/$k.g"; w+=" $1"; shift; done
  shift
  printf '%s\0' "$@" >"$tmp/c/$k.p"
  printf '%s\t%s\t%s\n' "$k" "$tmp/in/emptystack.pb" "emptystack.pb$w" >>"$tmp/plan"
}
found f1 -tagfocus=k=a -- --tag k=a
found f2 -tagignore=k=b -- --tag-ignore k=b
found f3 -tagfocus=k=a -tagroot=k -- --tag k=a --tagroot k
found f4 -tagignore=k=a -divide_by=0.5 -- --tag-ignore k=a --divide-by 0.5
. "$REPO/tests/interop/pprof_session.sh"
# go's -proto under the options, in a session per profile; pcol's export now
: >"$tmp/c/manifest"
while IFS=$'\t' read -r k f what; do
  mapfile -d '' g <"$tmp/c/$k.g"
  mapfile -d '' p <"$tmp/c/$k.p"
  ps_plan "$tmp/c/$k.go.pb.gz" -proto "${g[@]}" "$f"
  "$PCOL" unpack "$f" --to pprof "${p[@]}" -o "$tmp/c/$k.pc.pb.gz" 2>"$tmp/c/$k.err"
  echo $? >"$tmp/c/$k.rc"
  printf '%s\t%s\n' "$k" "$what" >>"$tmp/c/manifest"
done <"$tmp/plan"
fail=0
ps_run >"$tmp/ps"
sed 's/^/t_filter_search: /' "$tmp/ps"
fail=$((fail + PS_FAILS))
# both written files read back, each in a session of its own
while IFS=$'\t' read -r k f what; do
  for s in go pc; do
    x=$tmp/c/$k.$s.pb.gz
    [ -s "$x" ] && [ -s "$tmp/c/$k.go.pb.gz" ] || continue
    ps_plan "$tmp/c/$k.$s.top" -top -nodefraction=0 "$x"
    ps_plan "$tmp/c/$k.$s.traces" -traces "$x"
    ps_plan "$tmp/c/$k.$s.tags" -tags "$x"
    ps_plan "$tmp/c/$k.$s.raw" -raw "$x"
  done
done <"$tmp/plan"
ps_run >"$tmp/ps"
sed 's/^/t_filter_search: /' "$tmp/ps"
fail=$((fail + PS_FAILS))
python3 "$REPO/tests/interop/filter_search.py" judge "$tmp/c" >"$tmp/judged" || { echo "t_filter_search: FAIL: the judge failed"; fail=$((fail + 1)); }
sed '$d' "$tmp/judged" | sed 's/^/t_filter_search: /'
read -r compared refused purpose failed < <(tail -1 "$tmp/judged")
fail=$((fail + ${failed:-1}))
echo "t_filter_search: ${#inputs[@]} inputs (random $RANDOM_SEEDS; random-odd $ODD_SEEDS; the shared data's small pprof files), seed $SEED, $N option sets each, and the 4 cases found: ${compared:-0} exports compared in 4 views, ${refused:-0} refused by both, ${purpose:-0} by pcol on purpose (a numeric range on a label of strings), ${failed:-?} failed"
[ "${compared:-0}" -ge 1 ] || { echo "t_filter_search: FAIL: nothing compared"; fail=$((fail + 1)); }
[ $fail = 0 ] && echo "t_filter_search: PASS" || echo "t_filter_search: FAIL"
[ $fail = 0 ]
