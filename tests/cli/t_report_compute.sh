#!/usr/bin/env bash
# The report page's computing modules in node against the CLI
# (compute.test.mjs): pages of an Rprof profile with memory, a coalesced one
# (long samples cut by a range; its source pane also with a --source-path
# that trims the profile's file path), a Chrome trace (intervals cut by a
# range, spec.md §7.1), a pprof with labels and inline
# frames, a merged file and a --diff page; the call graph's label boxes of
# labelled and heap profiles against pcol graph's DOT.  Skipped (exit 0, said so) without node.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "t_report_compute: SKIP: node not installed" >&2; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_report_compute: FAIL: $*" >&2; exit 1; }
cases=()
# The page is made from the input itself; the CLI's answers (some 60 runs a
# case) read it packed once when it is not a pcol file: a pprof input is
# otherwise decoded and imported again by every run (under ASan up to
# 0.2 s each).  A pack that lost or changed anything would show as a
# difference from the page, which is made from the input itself.
packed() { # input -> the file the CLI reads
  case $1 in
  *.pcol) echo "$1" ;;
  *) local p
     p=$tmp/in-$(printf '%s' "$1" | cksum | cut -d' ' -f1).pcol
     [ -f "$p" ] || "$PCOL" pack "$1" -o "$p" || fail "pack $1"
     echo "$p" ;;
  esac
}
add() { # name input [base]
  # DIVIDE="F ...": the page made with --divide-by of the first F, each
  # view's text checked against the CLI's --divide-by of each (every value
  # type with DIVIDE_ALL=1)
  local dv=${DIVIDE:-} f0=${DIVIDE:-}
  f0=${f0%% *}
  "$PCOL" report "$2" ${3:+--diff "$3"} ${SRC:+--source-path "$SRC"} ${dv:+--divide-by "$f0"} -o "$tmp/$1.html" || fail "report $1"
  local in base
  in=$(packed "$2") || exit 1
  [ -n "${3:-}" ] && { base=$(packed "$3") || exit 1; }
  [ -n "$dv" ] && dv=",\"divide\":[\"${dv// /\",\"}\"]${DIVIDE_ALL:+,\"divide_all\":1}"
  printf '{"name":"%s","input":"%s","html":"%s"%s%s%s%s%s}\n' "$1" "$in" "$tmp/$1.html" "${3:+,\"base\":\"$base\"}" "${SRC:+,\"srcpath\":\"$SRC\"}" "${BOXES:+,\"boxes\":\"$BOXES\"}" "$dv" "${ONLY:+,\"only\":\"$ONLY\"}" > "$tmp/$1.json"
  cases+=("$tmp/$1.json")
}
# the demo's source file (the profile names demo_code.R): the source pane's
# window and numbers against pcol list
mkdir -p "$tmp/src"
awk 'BEGIN { for (i = 1; i <= 40; i++) printf "line_%d <- %d\n", i, i }' > "$tmp/src/demo_code.R"
"$PCOL" pack examples/demo.out --coalesce -o "$tmp/demo.pcol" || fail "pack"
# the --diff page's base: the demo with every third sample twice, so that its
# functions' flat and cum differ from the demo's (a profile against itself
# has no row: pcol diff leaves out the names whose flat and cum both change by 0)
awk 'NR <= 2 { print; next } { print } NR % 3 == 0 { print }' examples/demo.out >"$tmp/base.out"
"$PCOL" pack "$tmp/base.out" -o "$tmp/base.pcol" || fail "pack"
SRC="$tmp/src" DIVIDE="3 0.5 1e9" add demo "$tmp/demo.pcol"
# the same profile naming its file by another machine's path under a folder
# "proj", the source path's base name: list trims it to demo_code.R (as
# pprof -source_path does), and the pane must still find the samples' lines,
# which carry the profile's path
mkdir -p "$tmp/proj" && cp "$tmp/src/demo_code.R" "$tmp/proj/"
sed 's|^#File 1: demo_code.R$|#File 1: /remote/build/proj/demo_code.R|' examples/demo.out >"$tmp/remote.out"
"$PCOL" pack "$tmp/remote.out" --coalesce -o "$tmp/remote.pcol" || fail "pack remote"
SRC="$tmp/proj" add remote-path "$tmp/remote.pcol"
DIVIDE="0.5 3" add diff "$tmp/demo.pcol" "$tmp/base.pcol"
[ -f "$TD/rprof/r-prof-profile__memory.out" ] && { "$PCOL" pack "$TD/rprof/r-prof-profile__memory.out" -o "$tmp/mem.pcol" && add rprof-memory "$tmp/mem.pcol"; }
[ -f "$TD/pprof/go-cpu-inline-small.pb.gz" ] && DIVIDE="3 0.5 1e9" add go-inline "$TD/pprof/go-cpu-inline-small.pb.gz"
if [ -f "$TD/pprof/go-cpu-string-labels.pb.gz" ]; then
  BOXES=1 add go-labels "$TD/pprof/go-cpu-string-labels.pb.gz"
  "$PCOL" merge "$tmp/demo.pcol" "$TD/pprof/go-cpu-string-labels.pb.gz" -o "$tmp/merged.pcol" || fail "merge"
  add merged "$tmp/merged.pcol"
fi
# negative values: header sorts' ties, a call tree node of total 0 above non-zero ones
[ -f "$TD/pprof/go-heap-delta-negative-values.pb.gz" ] && DIVIDE="1e9 3 0.5" add negative "$TD/pprof/go-heap-delta-negative-values.pb.gz"
# its base: the profile with every value divided by 3, so that each of its
# value types' rows has a base, a new value and a change, all nonzero
if [ -f "$TD/pprof/go-heap-allocs-inline.pb.gz" ]; then
  "$PCOL" unpack "$TD/pprof/go-heap-allocs-inline.pb.gz" --to pprof --divide-by 3 -o "$tmp/heap-third.pb.gz" || fail "unpack --divide-by 3"
  DIVIDE="0.5 3 1e9" DIVIDE_ALL=1 add go-heap-inline "$TD/pprof/go-heap-allocs-inline.pb.gz" "$tmp/heap-third.pb.gz"
fi
# recursion through inlined frames: the "(inline)" marks count a call once a
# sample, at its first occurrence from the root (semantics_pprof.py inline-rec-NN)
mkdir -p "$tmp/sem" && python3 tests/support/semantics_pprof.py "$tmp/sem" || fail "semantics_pprof.py"
for n in 00 03 05 08 13; do add "inline-rec-$n" "$tmp/sem/inline-rec-$n.pb.gz"; done
# a Chrome trace: its stretches are intervals (spec.md §7.1), a range counts
# the part of each inside it (range.js: n = the duration)
python3 tests/support/chrome_range.py gen-events "$tmp/chrome.json" 2 || fail "chrome_range.py"
add chrome-trace "$tmp/chrome.json"
# a speedscope time finer than a ns (its decimal unit, "1e-9 milliseconds",
# scales as a time: units.js as units.c) and an evented profile, whose
# stretches are intervals
H='{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":['
printf '%s{"type":"evented","name":"p","unit":"milliseconds","startValue":0,"endValue":10.5,"events":[{"type":"O","frame":0,"at":0},{"type":"O","frame":1,"at":1.3333333333},{"type":"C","frame":1,"at":5},{"type":"C","frame":0,"at":10.5}]}]}' "$H" >"$tmp/ss-dec.json"
printf '%s{"type":"sampled","name":"p","unit":"microseconds","startValue":0,"endValue":10,"samples":[[0],[0,1]],"weights":[1.0001,3]}]}' "$H" >"$tmp/ss-us.json"
add speedscope-subns "$tmp/ss-dec.json"
add speedscope-us "$tmp/ss-us.json"
# names holding a newline, CR, tab, ESC and U+202E (review 22 F13: the refine
# menu's expression, which goes into a text box, escapes them; only that is
# checked: fold and DOT print such names otherwise)
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"main"},{"name":"new\\nline\\rcr\\ttab"},{"name":"esc\\u001b[31mred"},{"name":"\\u202eevil"}]},"profiles":[{"type":"sampled","name":"p","unit":"milliseconds","startValue":0,"endValue":10,"samples":[[0,1],[0,2],[0,3],[0,1,3]],"weights":[1,2,3,4]}]}' >"$tmp/ss-odd.json"
ONLY=refine add speedscope-odd-names "$tmp/ss-odd.json"
# the call graph's label boxes only (BOXES=only): heap "bytes" labels, eBPF thread labels
for f in go-heap-allocs-inline go-heap-delta-negative-values native-ebpf-kernel-buildid-thread-labels; do
  [ -f "$TD/pprof/$f.pb.gz" ] && BOXES=only add "boxes-$f" "$TD/pprof/$f.pb.gz"
done
# a unit of no family longer than 31 bytes (pprofgen.py unit: "unit" + the
# text, of the default value type), of 2-,
# 3- and 4-byte characters where the 31st byte falls inside one: the page's
# hovers and table units cut where pcol flame and pcol top cut them, at a
# whole character (pcol_utf8_cut; a cut at 31 UTF-16 units kept them whole)
for u in "xx$(printf '\\xc2\\xb5s%.0s' 1 2 3 4 5 6 7 8 9 10 11 12)" \
         "x$(printf '\\xe4\\xb8\\xad\\xe6\\x96\\x87%.0s' 1 2 3 4 5 6)" \
         "xx$(printf '\\xf0\\x9f\\x98\\x80%.0s' 1 2 3 4 5 6 7 8)"; do
  k=$(( ${#cases[@]} ))
  python3 tests/support/pprofgen.py unit "$tmp/unit$k.pb" "$u" || fail "pprofgen.py unit $u"
  add "long-unit-$k" "$tmp/unit$k.pb"
done
# (bounded: 15 minutes; it takes ~3 on make test's ASan build on 2 idle
# cores, and a shared machine's load stretched 300 s past its end, where
# timeout's kill looked like a difference)
timeout 900 node "$here/../report/compute.test.mjs" "$PCOL" "${cases[@]}"
rc=$?
[ $rc = 124 ] && fail "node's check did not end within 900 s"
[ $rc = 0 ] || fail "the page's numbers differ from the CLI's"
