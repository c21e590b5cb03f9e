#!/usr/bin/env bash
# CLI: defects the conversion matrix (tests/interop/t_matrix.sh) found, each
# checked here without R, Go or node:
#  - `pcol fold` left out the samples with an empty stack (a memory-only
#    Rprof line), so its lines did not add up to the total of top, flame,
#    diff and `unpack --to collapsed`: it prints them as " N", as the
#    collapsed exporter does (and flamegraph.pl counts such a line);
#  - the speedscope export summed Rprof's memory fields, which are level
#    snapshots (the pprof export leaves them out): an Rprof source gets the
#    count, its time, the memory allocated (rprof.alloc, issue 44) and the
#    timeline, never the levels;
#  - `pcol flame` under a filter that removes samples: the root's value is
#    the filtered total, the shares (hover, search) are of pprof's, which
#    the subtitle says ("; shares of T", T as `pcol top` prints it) and
#    the root's hover share is of (review 15 F1).
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_one_total: FAIL: $*" >&2; exit 1; }
f=tests/fixtures/rprof/memonly.out   # 5 lines, 3 with an empty stack
sum() { awk '{ s += $NF } END { print s + 0 }'; }
# (counted: an Rprof source's default is its time, 20ms a tick)
fold=$("$PCOL" fold $f --value samples | sum)
coll=$("$PCOL" unpack $f --to collapsed --value samples -o - | sum)
top=$("$PCOL" top $f --value samples | sed -n 's/.* of \([0-9]*\) total.*/\1/p')
flame=$("$PCOL" flame $f --value samples -o - | sed -n 's/.*<title>⁨all⁩ (\([0-9]*\), .*/\1/p' | head -1)
[ "$fold" = 5 ] && [ "$coll" = 5 ] && [ "$top" = 5 ] && [ "$flame" = 5 ] ||
  fail "totals: fold $fold, unpack --to collapsed $coll, top $top, flame $flame; want 5"
"$PCOL" fold $f --value samples | grep -qx ' 3' || fail "fold has no ' 3' line for the empty stacks: $("$PCOL" fold $f --value samples)"
[ "$("$PCOL" fold $f | sum)" = "$("$PCOL" top $f --unit raw | sed -n 's/.* of \([0-9]*\)[a-zA-Z]* total.*/\1/p')" ] ||
  fail "fold and top of an Rprof file do not agree on its default value, the time"

"$PCOL" unpack $f --to speedscope -o "$tmp/s.json" || fail "unpack --to speedscope"
names=$(python3 -c "import json,sys; print(' '.join(p['name'].rsplit(': ', 1)[1] for p in json.load(open(sys.argv[1]))['profiles']))" "$tmp/s.json")
[ "$names" = "samples cpu rprof.alloc timeline" ] || fail "speedscope profiles of an Rprof memory profile: $names; want 'samples cpu rprof.alloc timeline' (the count, the time rule's cpu, the memory allocated; no levels)"
for filt in "--focus fib" "--ignore fib" "--value samples --focus ^sum\$"; do
  top=$("$PCOL" top examples/demo.out $filt)
  shown=$(printf '%s\n' "$top" | sed -n 's/^Showing nodes accounting for \(.*\), \(.*\)% of \(.*\) total$/\1 \2 \3/p')
  set -- $shown
  "$PCOL" flame examples/demo.out $filt -o "$tmp/f.svg" || fail "flame $filt"
  sub=$(grep -o 'fill="#555">[^<]*' "$tmp/f.svg" | sed 's/.*>//')
  case "$sub" in *", total $1; shares of $3") ;; *) fail "flame $filt: subtitle '$sub'; pcol top: $1 of $3" ;; esac
  grep -q "<title>⁨all⁩ ($1, $(printf '%.2f' "$2")%)</title>" "$tmp/f.svg" ||
    fail "flame $filt: root $(grep -o '<title>⁨all⁩ ([^<]*' "$tmp/f.svg"); pcol top: $1, $2% of $3"
done
exit 0
