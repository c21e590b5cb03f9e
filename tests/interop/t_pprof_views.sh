#!/usr/bin/env bash
# pcol's views against go tool pprof's, text for text: `pcol top` (sort,
# node fraction, -n, units, "(inline)"), `pcol peek` (pprof -peek, also
# with -lines), `pcol tree` (pprof -tree) and the filters --focus/--ignore/
# --hide/--show/--show-from/--tag/--tag-ignore, on every pprof profile of the shared
# test data (ext/ included, and pprof's conversions of legacy profiles in
# ext/legacy-proto, R's in pprof-from-r; legacy binary CPU profiles and
# legacy text profiles (heap, contention, thread), which pcol reads itself,
# and tests/support/legacy_cpu_gen.py's and legacy_text_gen.py's: their
# pprof export's -raw is go's -raw of the file).  The lines from "Showing nodes
# accounting for" on must be identical to `go tool pprof -top` with the
# same options.
# Also list (-list), info (-raw's header), top --by label (-tagfocus,
# -tagroot), tags (-tags) and traces (-traces), these two also with
# --tagshow/--taghide (-tagshow/-taghide), traces also --by line, address,
# file and filefunction (-lines, -addresses, -files, -filefunctions).
#
# How it runs (make test's CPU budget): pprof's views come from go tool
# pprof's interactive sessions (tests/interop/pprof_session.sh: a session
# per profile, the command line's options set as session options before
# each view), because each process costs a start and a parse of the profile
# while a view costs little; the first profile's nine views are also run
# on the command line, one process each, so that the session stands for the
# flags it replaces.  pcol's side runs as each comparison is planned (its
# output kept whole); the sessions run after the planning, then one python3
# (pprof_views_judge.py) cuts both sides by the comparison's rule and
# judges all at once.  With filters the header is compared too (which
# lines appear: "Active filters:" in top, peek and tree, none in traces
# and tags; pcol's File: is its own).
#
# Env: PCOL (pcol binary), PCOL_TESTDATA (default ../shared/testdata).
# Exit 0 pass, 1 fail, 77 skip (no Go).
set -u
PPROF_WHAT="pcol's views with go tool pprof"
. tests/interop/pprof_env.sh
REPO=$(pwd) # (run from the repository's top: tests/go, the judge)
mkdir -p "$tmp/v" "$tmp/pc" "$tmp/cli" "$tmp/j"
fail=0 checked=0
die() { echo "FAIL: t_pprof_views: $*"; exit 1; }

# ---- the views, asked in go tool pprof's sessions ----
. "$REPO/tests/interop/pprof_session.sh"
# pv FILE PPROF-ARGS...: plans the view `go tool pprof PPROF-ARGS FILE`
# (ps_plan); PV is the file its text will be in once ps_run has run
NV=0
pv() {
  local f=$1
  shift
  NV=$((NV + 1)) PV=$tmp/v/$NV
  ps_plan "$PV" "$@" "$f"
}

# ---- the comparisons, judged after the sessions ran ----
J=0 MAN=()
# want RULE GO-TEXT MESSAGE: pcol's output $tmp/pc/$J must be GO-TEXT, both
# cut by RULE: showing (from the first "Showing nodes" line on), all,
# traces (from the first separator on), tags (tags_of's lines, sorted, and
# no header); head+showing, head+traces: the header before too;
# MESSAGE follows "FAIL: " when not
want() { MAN+=("$J"$'\t'"$1"$'\t'"$2"$'\t'"$3"); }

# compare VIEW FILE PPROF-ARGS -- PCOL-ARGS: `pcol VIEW FILE PCOL-ARGS` prints
# what `go tool pprof PPROF-ARGS FILE` does from "Showing nodes" on (the
# whole output with FROM=1); with CLI=1 pprof runs on the command line,
# not in FILE's session
compare() {
  local view=$1 f=$2 go
  shift 2
  local pp=() pc=()
  while [ "$1" != -- ]; do pp+=("$1"); shift; done
  shift
  pc=("$@")
  J=$((J + 1))
  PS_CLI=${CLI:-} pv "$f" "${pp[@]}"
  go=$PV
  "$PCOL" "$view" "$f" "${pc[@]}" >"$tmp/pc/$J" 2>/dev/null
  local rule=showing a
  # with a filter, the header's lines too (pprof_views_judge.py: "Active
  # filters:" and each, the comments, Type, Time, Duration)
  for a in "${pp[@]}"; do
    case $a in -focus=* | -ignore=* | -hide=* | -show=* | -show_from=* | -tagfocus=* | -tagignore=* | -tagshow=* | -taghide=*)
      rule=head+showing ;;
    esac
  done
  [ -n "${FROM:-}" ] && rule=all
  want $rule "$go" "${f##*/}: go tool pprof ${pp[*]} vs pcol $view ${pc[*]} (< pprof, > pcol):"
}
same() { local f=$1; shift; compare top "$f" -top "$@"; }   # pcol top = pprof -top
peek() { local f=$1; shift; compare peek "$f" "$@"; }       # pcol peek = pprof -peek

declare -A OTLP=()
otlp() { # otlp FILE: pcol reads FILE as an OTLP message (asked once per file)
  local t
  if [ -z "${OTLP[$1]+x}" ]; then
    t=$("$PCOL" info "$1" 2>/dev/null)
    OTLP[$1]=
    [[ $t =~ input_format:\ *otlp ]] && OTLP[$1]=1
  fi
  [ -n "${OTLP[$1]}" ]
}

# the views of every file (tree: pprof -tree, its own trimming: 80 nodes
# by flat or by cum, light edges dropped, residual ones kept)
views() {
  same "$1" --
  same "$1" -cum -- --sort cum
  same "$1" -nodefraction=0 -- --node-fraction 0
  same "$1" -nodefraction=0.05 -cum -- --node-fraction 0.05 --sort cum
  same "$1" -addresses -nodefraction=0 -- --by address --node-fraction 0
  peek "$1" -peek . -- .
  peek "$1" -peek 'main|runtime\.' -cum -- 'main|runtime\.' --sort cum
  compare tree "$1" -tree --
  compare tree "$1" -tree -cum -nodecount=12 -- --sort cum --node-count 12
}
# legacy binary CPU profiles (gperftools, Java), which pcol reads as pprof
# does (lib/convert/pprof/pprof_legacy.c): the shared ones and
# tests/support/legacy_cpu_gen.py's (every word size and byte order, maps,
# recursion, zero counts, Java symbols, Java names of the profiler's own
# frames, which go prunes by the drop_frames it gives legacy profiles)
mkdir -p "$tmp/legacy"
python3 "$REPO/tests/support/legacy_cpu_gen.py" all "$tmp/legacy" || die "legacy_cpu_gen.py failed"
# legacy text profiles (heap, contention, thread, Go's count profiles, Java
# heapz and contentionz: lib/convert/pprof/pprof_legacy_text.c): the shared
# ones (jemalloc's, which go does not read, left out: tests/cli/t_pprof.sh)
# and tests/support/legacy_text_gen.py's, of two seeds
# (each file's name its own: the exports below are named by it)
for s in 1 2; do
  mkdir -p "$tmp/legacy/s$s"
  python3 "$REPO/tests/support/legacy_text_gen.py" all "$tmp/legacy/s$s" $s || die "legacy_text_gen.py failed"
  for g in "$tmp/legacy/s$s"/gen-*; do mv "$g" "$tmp/legacy/s$s-${g##*/}"; done
done
LTEXT=()
for f in "$TD"/ext/legacy/*.heap "$TD"/ext/legacy/*.contention "$TD"/ext/legacy/*.thread "$tmp"/legacy/s*-gen-*; do
  case $f in *jemalloc*) continue ;; esac
  [ -f "$f" ] && LTEXT+=("$f")
done
LEGACY=("$TD"/pprof/*.legacy "$TD"/ext/legacy/*.cpu "$tmp"/legacy/*.cpu "${LTEXT[@]}")
n=0
# (and pprof's own conversions of legacy profiles, R's native profiles)
for f in "$TD"/pprof/*.pb.gz "$TD"/pprof/*.pb "$TD"/ext/pprof/* "$TD"/ext/legacy-proto/*.pb.gz "$TD"/pprof-from-r/*.pb.gz "${LEGACY[@]}"; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid-utf8*) continue ;; esac # control bytes: pcol escapes them
  # an OTLP message is not a pprof Profile (go tool pprof misreads its
  # fields as one); pcol reads it as OTLP, judged in tests/cli/t_otlp.sh
  otlp "$f" && continue
  n=$((n + 1))
  views "$f"
  # the session's views are the command line's, on the first file
  [ $n = 1 ] && CLI=1 views "$f"
done
[ $n -gt 0 ] || { echo "SKIP: no pprof profiles under $TD"; exit 77; }

# the legacy text profiles' every sample type (heap: alloc_ and inuse_
# pairs), every node
types_of() { # the value types' names pcol info lists
  "$PCOL" info "$1" --format tsv | awk -F'\t' 'NR == 2 { n = split($12, a, ", "); for (i = 1; i <= n; i++) { sub(/\/.*/, "", a[i]); print a[i] } }'
}
for f in "${LTEXT[@]}"; do
  for t in $(types_of "$f"); do
    same "$f" -sample_index=$t -nodefraction=0 -- --value $t --node-fraction 0
  done
done

# filters, with the same regular expressions (Go's RE2 and POSIX ERE agree on these)
g=$TD/pprof/go-cpu-inline-small.pb.gz
if [ -f "$g" ]; then
  same "$g" -focus=mapassign -- --focus mapassign
  same "$g" -ignore=mapassign -hide='runtime\.main' -nodefraction=0.03 -- --ignore mapassign --hide 'runtime\.main' --node-fraction 0.03
  same "$g" -show='main|map' -cum -- --show 'main|map' --sort cum
  same "$g" -hide=inline -focus=Abs -- --hide inline --focus Abs
  same "$g" -show=runtime -ignore=evacuate -- --show runtime --ignore evacuate
  same "$g" -focus=nomatch -- --focus nomatch
  same "$g" -unit=ms -- --unit ms
  # --unit's words (review 17 F4): auto, each number in its own unit, not
  # minimum's one unit for the table; raw, the exact number in the value's
  # unit, named (pprof's -unit=ns of a time in ns, -unit=raw of bytes)
  same "$g" -unit=auto -- --unit auto
  same "$g" -unit=minimum -- --unit minimum
  same "$g" -unit=ns -- --unit raw
  compare tree "$g" -tree -unit=auto -- --unit auto
  h=$TD/pprof/go-heap-allocs-inline.pb.gz
  for u in auto raw minimum; do
    same "$h" -unit=$u -nodecount=8 -- --unit $u -n 8
    peek "$h" -peek 'Unmarshal$' -unit=$u -- 'Unmarshal$' --unit $u
  done
  # traces --unit (review 17 F5: an unknown option), with the header's
  # Total samples in it too
  for gu in s:s ms:ms auto:auto ns:raw; do
    J=$((J + 1))
    pv "$g" -traces -unit=${gu%:*}
    "$PCOL" traces "$g" --unit ${gu#*:} >"$tmp/pc/$J" 2>/dev/null
    want head+traces "$PV" "${g##*/}: pcol traces --unit ${gu#*:} differs from go tool pprof -traces -unit=${gu%:*} (< pprof, > pcol):"
  done
  same "$g" -focus='\.go$' -- --focus '\.go$' # file names match too
  same "$g" -hide= -ignore= -- --hide '' --ignore '' # an empty expression is none
  peek "$g" -lines -peek map -- map --by line
  peek "$g" -addresses -peek map -- map --by address
  same "$g" -addresses -cum -- --by address --sort cum
  peek "$g" -files -peek . -- . --by file # (pprof -files splits a file's nodes in many profiles)
  peek "$g" -peek map -focus=growWork -unit=ms -- map --focus growWork --unit ms
  peek "$g" -peek . -hide=runtime -- . --hide runtime
  peek "$g" -peek . -show='main|map' -- . --show 'main|map'
  peek "$g" -peek nomatch -- nomatch # pprof: an error and no report
  # -show_from: the frames above a stack's outermost match go, and a matching
  # location's inline lines outer to its match; stacks without one go
  same "$g" -show_from=mapassign -- --show-from mapassign
  same "$g" -show_from='main\.' -cum -- --show-from 'main\.' --sort cum
  same "$g" -show_from=runtime -hide=mallocgc -- --show-from runtime --hide mallocgc
  same "$g" -show_from=Abs -focus=main -- --show-from Abs --focus main
  same "$g" -show_from=inline -lines -- --show-from inline --by line
  same "$g" -show_from=nomatch -- --show-from nomatch
  peek "$g" -peek . -show_from=map -- . --show-from map
  # -relative_percentages: shares and cutoffs of the total the filters keep
  same "$g" -relative_percentages=true -focus=mapassign -- --relative-percentages --focus mapassign
  same "$g" -relative_percentages=true -hide=runtime -nodefraction=0.1 -- --relative-percentages --hide runtime --node-fraction 0.1
  same "$g" -relative_percentages=true -show_from=main -cum -- --relative-percentages --show-from main --sort cum
  peek "$g" -peek map -relative_percentages=true -ignore=growWork -- map --relative-percentages --ignore growWork
  compare tree "$g" -tree -lines -focus=map -nodefraction=0.02 -- --by line --focus map --node-fraction 0.02
  CLI=1 compare tree "$g" -tree -noinlines -edgefraction=0.05 -nodefraction=0 -- --no-inlines --edge-fraction 0.05 --node-fraction 0
  compare tree "$g" -tree -addresses -relative_percentages=true -hide=runtime -- --by address --relative-percentages --hide runtime
fi
c=$TD/pprof/cpp-cpu-unsymbolized-mappings.pb.gz
if [ -f "$c" ]; then
  same "$c" -show_from=cppbench -- --show-from cppbench # a mapping's file matches
  same "$c" -focus='^$' -- --focus '^$' # its mappings have files: "" matches none
fi
# a profile without mappings: pprof gives its locations a fake mapping whose
# file is "" (driver/fetch.go), so an expression matching "" matches them all
nm=$TD/pprof/go-heap-nomappings-nofunctions.pb.gz
if [ -f "$nm" ]; then
  same "$nm" -focus='^$' -- --focus '^$'
  same "$nm" -hide='^$' -- --hide '^$'
  same "$nm" -ignore='x*' -- --ignore 'x*'
  same "$nm" -show_from='^$' -- --show-from '^$'
  same "$nm" -show='^$' -cum -- --show '^$' --sort cum
fi
# samples without locations: pprof's filters drop them even when none is
# given, so the relative total and -tags leave them out (the plain total
# keeps them)
if python3 "$REPO/tests/support/pprofgen.py" emptystack "$tmp/es.pb"; then
  same "$tmp/es.pb" --
  same "$tmp/es.pb" -relative_percentages=true -- --relative-percentages
  peek "$tmp/es.pb" -peek . -relative_percentages=true -- . --relative-percentages
  compare tree "$tmp/es.pb" -tree -relative_percentages=true -- --relative-percentages
  J=$((J + 1))
  pv "$tmp/es.pb" -tags
  "$PCOL" tags "$tmp/es.pb" >"$tmp/pc/$J"
  want tags "$PV" "es.pb: pcol tags differs from go tool pprof -tags (< pprof, > pcol):"
  # top --by label is -tagroot's top: the tag node keeps them, in the relative total too
  for t in "" "k=b"; do
    gs=$(go tool pprof -symbolize=none -tagroot=k -relative_percentages -top ${t:+-tagfocus=$t} "$tmp/es.pb" 2>/dev/null |
      grep '^Showing nodes')
    ps=$("$PCOL" top "$tmp/es.pb" --by label:k --relative-percentages ${t:+--tag $t} | grep '^Showing nodes')
    checked=$((checked + 1))
    [ -n "$gs" ] && [ "$gs" = "$ps" ] ||
      { echo "FAIL: es.pb: top --by label:k --relative-percentages ${t:+--tag $t}: pprof '$gs', pcol '$ps'"; fail=$((fail + 1)); }
  done
else
  echo "FAIL: pprofgen.py emptystack"; fail=$((fail + 1))
fi
# --tagroot/--tagleaf = -tagroot/-tagleaf: every view of the profile with a
# frame per key at each stack's root (leaf), made before the filters run;
# keys on some samples only (function), on none (nokey: every frame of it
# "", which pprof only warns of; tests/interop/t_pprof_semantics.sh
# compares the warnings), numeric with units (bytes)
for fk in pprof/go-cpu-string-labels.pb.gz:function,foo ext/pprof/go-cpu-span-id-labels.pb.gz:span_id \
  pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz:thread_name pprof/go-heap-allocs-inline.pb.gz:bytes \
  pprof/go-cpu-string-labels.pb.gz:nokey pprof/go-heap-allocs-inline.pb.gz:nokey,bytes \
  pprof/go-cpu-string-labels.pb.gz:function,nokey; do
  f=$TD/${fk%:*} k=${fk#*:}
  [ -f "$f" ] || continue
  same "$f" -tagroot="$k" -- --tagroot "$k"
  same "$f" -tagleaf="$k" -cum -- --tagleaf "$k" --sort cum
  same "$f" -tagroot="$k" -ignore=runtime -focus=main -- --tagroot "$k" --ignore runtime --focus main
  same "$f" -tagroot="$k" -show_from=main -nodefraction=0 -- --tagroot "$k" --show-from main --node-fraction 0
  compare tree "$f" -tree -tagroot="$k" -- --tagroot "$k"
  peek "$f" -peek main -tagleaf="$k" -- main --tagleaf "$k"
  J=$((J + 1))
  pv "$f" -traces -tagroot="$k" -tagleaf="${k%%,*}"
  "$PCOL" traces "$f" --tagroot "$k" --tagleaf "${k%%,*}" >"$tmp/pc/$J" 2>/dev/null # (the warnings: t_pprof_semantics.sh)
  want traces "$PV" "${f##*/}: pcol traces --tagroot $k --tagleaf ${k%%,*} differs from go tool pprof -traces -tagroot=$k -tagleaf=${k%%,*} (< pprof, > pcol):"
done
if [ -f "$tmp/es.pb" ]; then # samples without locations keep their label frame
  same "$tmp/es.pb" -tagroot=k -hide=main -- --tagroot k --hide main
  same "$tmp/es.pb" -tagleaf=k -ignore=foo -relative_percentages=true -- --tagleaf k --ignore foo --relative-percentages
fi

l=$TD/pprof/go-cpu-string-labels.pb.gz
if [ -f "$l" ]; then
  same "$l" -tagfocus=function=slow -- --tag function=slow
  same "$l" -tagignore=function=fast -- --tag-ignore function=fast
  same "$l" -tagfocus=function:sl,foo:b -- --tag function:sl,foo:b
  same "$l" -tagfocus=function=fa,sl -tagignore=profile_id=^0 -- --tag function=fa,sl --tag-ignore 'profile_id=^0'
  same "$l" -tagfocus=function=slow -focus=main -cum -- --tag function=slow --focus main --sort cum
  same "$l" -relative_percentages=true -tagfocus=function=fast -- --relative-percentages --tag function=fast
  peek "$l" -tagfocus=function=slow -peek . -- . --tag function=slow
  # -tagshow/-taghide: top, peek and tree list them under "Active filters:"
  # and change nothing else; a label key no sample has matches nothing
  # (pprof warns: tests/interop/t_pprof_semantics.sh compares the warnings)
  same "$l" -tagshow=fun -taghide='x|y' -- --tagshow fun --taghide 'x|y'
  peek "$l" -peek main -taghide=function -- main --taghide function
  compare tree "$l" -tree -tagshow=nokey -- --tagshow nokey
  same "$l" -tagfocus=nokey=x -- --tag nokey=x
  same "$l" -tagignore=nokey=x -cum -- --tag-ignore nokey=x --sort cum
  peek "$l" -peek main -tagignore=nokey=1kb -- main --tag-ignore nokey=1kb
  compare tree "$l" -tree -tagignore=nokey=x -tagfocus=function=slow -- --tag-ignore nokey=x --tag function=slow
fi
h=$TD/pprof/go-heap-allocs-inline.pb.gz
if [ -f "$h" ]; then
  same "$h" -sample_index=alloc_space -hide=runtime -- --value alloc_space --hide runtime
  same "$h" -sample_index=inuse_objects -show=grpc -cum -- --value inuse_objects --show grpc --sort cum
  peek "$h" -sample_index=alloc_space -peek grpc -- grpc --value alloc_space
  same "$h" -sample_index=alloc_space -show_from=grpc -- --value alloc_space --show-from grpc
  same "$h" -sample_index=alloc_space -show_from='Marshal|proto' -lines -- --value alloc_space --show-from 'Marshal|proto' --by line
fi
# pprof's legacy names inuse_space, inuse_objects (SampleIndexByName trims
# "inuse_") of a profile whose types are space and objects: pprof's
# conversion of a legacy C++ heap profile (pcol refused them)
lp=$TD/ext/legacy-proto/legacy-cpp-growth.heap.proto.pb.gz
if [ -f "$lp" ]; then
  same "$lp" -sample_index=inuse_space -- --value inuse_space
  same "$lp" -sample_index=inuse_objects -cum -- --value inuse_objects --sort cum
  compare tree "$lp" -tree -sample_index=inuse_objects -- --value inuse_objects
fi
# a profile with both names: go takes the first type that is either (the
# values differ, so the wrong one shows; go's sessions run later: a file each)
k=0
for types in space:bytes,inuse_space:bytes inuse_space:bytes,space:bytes; do
  k=$((k + 1))
  if python3 "$REPO/tests/support/pprofgen.py" typed "$tmp/si$k.pb" "$types" 2,1:5,700 3,1:90,1 1:4,30; then
    same "$tmp/si$k.pb" -sample_index=inuse_space -- --value inuse_space
    same "$tmp/si$k.pb" -sample_index=space -cum -- --value space --sort cum
  else
    echo "FAIL: pprofgen.py typed $types"; fail=$((fail + 1))
  fi
done

# pcol list = go tool pprof -list, on profiles of our own Go program whose
# sources are on disk (tests/go, built here), and on the test data (whose
# sources are absent: the " Error: ..." lines must agree too)
# pprof reads any file a profile names; pcol only files under the source
# path unless --allow-any-source (doc/safety.md "What list opens"), so the
# whole-output comparisons give pcol that option, and the sources under the
# test's directory (tests/go, the current directory) are compared without it
compare_list() { FROM=1 compare list "$@" --allow-any-source; } # the whole output
compare_list_default() { FROM=1 compare list "$@"; }
mkdir -p "$tmp/gp"
if (cd "$REPO/tests/go" && go run . "$tmp/gp" >"$tmp/go_run.log" 2>&1); then
  for p in "$tmp"/gp/*.pb.gz; do
    compare_list "$p" -list 'main\.' -- 'main\.'
    compare_list_default "$p" -list 'main\.' -- 'main\.'
    compare_list "$p" -list 'allocate|runtime\.mallocgc' -- 'allocate|runtime\.mallocgc'
    compare_list "$p" -list nomatch -- nomatch
    # "of Total" of the samples the filter keeps
    compare_list "$p" -relative_percentages=true -focus=main -list 'main\.' -- 'main\.' --relative-percentages --focus main
  done
  # -source_path: a copy of the sources, changed, found through the path's
  # "/go/" component (pprof's heuristic); pprof and pcol must read the copy
  mkdir -p "$tmp/src/go"
  sed 's/^func spin/func spin \/\* the copy \*\//' "$REPO/tests/go/main.go" >"$tmp/src/go/main.go"
  compare_list "$tmp/gp/go-cpu-labels.pb.gz" -source_path="$tmp/src/go" -list 'main\.spin' -- 'main\.spin' --source-path "$tmp/src/go"
  "$PCOL" list "$tmp/gp/go-cpu-labels.pb.gz" 'main\.spin' --source-path "$tmp/src/go" | grep -q 'the copy' ||
    { echo "FAIL: pcol list --source-path did not read the copy"; fail=$((fail + 1)); }
else
  echo "FAIL: go run tests/go:"; cat "$tmp/go_run.log"; fail=$((fail + 1))
fi
for f in "$TD"/pprof/go-*.pb.gz "$TD"/ext/pprof/go-heap-*; do
  [ -f "$f" ] && compare_list "$f" -list . -- .
done

# pcol info = pprof -raw's header: period type, period, start time and value
# types, per pprof profile of the test data (a period of 0 is none); judged
# below, after the sessions
INFO=()
for f in "$TD"/pprof/*.pb.gz "$TD"/ext/pprof/go-* "${LEGACY[@]}"; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid*) continue ;; esac
  pv "$f" -raw
  got=$("$PCOL" info "$f" --format tsv 2>/dev/null | awk -F'\t' 'NR == 2 {
    t = $4 == "NA" ? "" : strftime("%Y-%m-%d %H:%M:%S", $4, 1)
    print ($10 == "NA" ? "" : $10) "|" ($9 == "NA" ? "" : $9) "|" t "|" $12 }')
  INFO+=("$f"$'\t'"$PV"$'\t'"$got")
done

# a filtered export is a real subset: its total is what top says is left
if [ -f "$g" ]; then
  "$PCOL" unpack "$g" --to pprof --focus mapassign -o "$tmp/f.pb.gz" || fail=$((fail + 1))
  pv "$tmp/f.pb.gz" -top -unit=ms
  sub_a=$PV
  pv "$g" -top -unit=ms -focus=mapassign
  sub_b=$PV
fi

# top --by label:KEY: each value's row = what pprof keeps with -tagfocus=KEY=^VALUE$
LAB=()
if [ -f "$l" ]; then
  "$PCOL" top "$l" --by label:function --format tsv | tail -n +2 | cut -f1,6 >"$tmp/lab.tsv"
  [ -s "$tmp/lab.tsv" ] || { echo "FAIL: top --by label:function gave no rows"; fail=$((fail + 1)); }
  while IFS=$'\t' read -r amount value; do
    pv "$l" -top -unit=ns -nodefraction=0 -tagfocus="function=^$value\$"
    LAB+=("$amount"$'\t'"$value"$'\t'"$PV")
  done <"$tmp/lab.tsv"
fi

# -tagroot/-tagleaf under -unit: a numeric label with a unit names its
# frame in the output unit (driver.go addLabelNodes(..., cfg.Unit):
# measurement.ScaledLabel; a unit of another family: that family's default),
# one without a unit by the bare number; the filters match the scaled name
if python3 "$REPO/tests/support/pprofgen.py" numunits "$tmp/nu.pb"; then
  for u in "" kB MB B; do
    same "$tmp/nu.pb" -tagroot=bytes,n ${u:+-unit=$u} -nodefraction=0 -- --tagroot bytes,n ${u:+--unit $u} --node-fraction 0
  done
  for u in ms s us; do
    same "$tmp/nu.pb" -sample_index=delay -tagleaf=wait -unit=$u -- --value delay --tagleaf wait --unit $u
  done
  same "$tmp/nu.pb" -tagleaf=wait -unit=kB -nodefraction=0 -- --tagleaf wait --unit kB --node-fraction 0
  compare tree "$tmp/nu.pb" -tree -tagroot=bytes -unit=kB -- --tagroot bytes --unit kB
  peek "$tmp/nu.pb" -peek . -tagleaf=bytes -unit=MB -- . --tagleaf bytes --unit MB
  same "$tmp/nu.pb" -tagroot=bytes -unit=kB -focus='^1\.50kB$' -- --tagroot bytes --unit kB --focus '^1\.50kB$'
else
  echo "FAIL: pprofgen.py numunits"; fail=$((fail + 1))
fi
for f in "$TD"/pprof/go-heap-allocs-inline.pb.gz "$TD"/pprof/go-heap-delta-negative-values.pb.gz; do
  [ -f "$f" ] && same "$f" -tagroot=bytes -unit=kB -- --tagroot bytes --unit kB
done
# several values of one key: pprof keeps them in the sample's order
# (Sample.Label[k] is a list; its merge key sorts the keys, not a key's
# values): k=b,a is another sample than k=a,b, printed "k:  b a" by
# -traces and named "b,a" by -tagroot (pcol sorted the values: one sample
# "a,b" of both, 30)
if python3 "$REPO/tests/support/pprofgen.py" multivalue "$tmp/mv.pb"; then
  for k in k j k,j q; do
    J=$((J + 1))
    pv "$tmp/mv.pb" -traces -tagroot=$k
    "$PCOL" traces "$tmp/mv.pb" --tagroot $k >"$tmp/pc/$J" 2>/dev/null
    want traces "$PV" "mv.pb: pcol traces --tagroot $k differs from go tool pprof -traces -tagroot=$k (< pprof, > pcol):"
    same "$tmp/mv.pb" -tagroot=$k -nodefraction=0 -- --tagroot $k --node-fraction 0
    compare tree "$tmp/mv.pb" -tree -tagleaf=$k -nodefraction=0 -- --tagleaf $k --node-fraction 0
  done
else
  echo "FAIL: pprofgen.py multivalue"; fail=$((fail + 1))
fi

# small random profiles (tests/support/pprofgen.py random SEED: several
# value types, values 0, below 0 and huge, labels of several values and
# numeric ones with units, inline frames, several mappings and locations of
# none, functions without names, samples without locations, period,
# duration and comments set or not) under option sets a seeded search found
# pcol and pprof apart on, or that cover what the search drew: a row SEED
# VIEW PPROF-ARGS (a base @SEED: that seed's profile), pcol's arguments
# made by rnd_args.  (Seeds whose profile sets drop_frames were left out
# while pcol did not prune by it; it does now, judged in
# t_pprof_semantics.sh.)
rnd_args() { # PPROF-ARGS...: pcol's (RA), pprof's (RG: bases as files)
  local x k v
  RA=() RG=()
  for x in "$@"; do
    k=${x%%=*} v=${x#*=}
    case $v in @*) v=$tmp/rnd${v#@}.pb ;; esac
    if [ "$k" = "$x" ]; then RG+=("$x"); else RG+=("$k=$v"); fi
    case $k in
    -sample_index) RA+=(--value "$v") ;;
    -nodefraction) RA+=(--node-fraction "$v") ;;
    -edgefraction) RA+=(--edge-fraction "$v") ;;
    -nodecount) RA+=(--node-count "$v") ;;
    -divide_by | -show_from | -tagignore | -unit | -focus | -ignore | -hide | -show | -tagshow | -taghide | -base | \
      -diff_base)
      k=${k#-} k=${k/tagignore/tag-ignore} RA+=("--${k//_/-}" "$v") ;;
    -tagfocus) RA+=(--tag "$v") ;;
    -cum) RA+=(--sort cum) ;;
    -lines) RA+=(--by line) ;;
    -addresses) RA+=(--by address) ;;
    -functions) RA+=(--by function) ;;
    -relative_percentages) RA+=(--relative-percentages) ;;
    -mean) RA+=(--mean) ;;
    esac
  done
}
RND=(
  "5 traces -mean" "5 traces -mean -show=alpha|beta" "5 top -mean -cum -nodefraction=0"
  "39 top -relative_percentages" "39 top -relative_percentages -lines -unit=s -divide_by=1000"
  "39 peek -relative_percentages -hide=nomatch" "39 tree -relative_percentages -edgefraction=0.1"
  "9 tags -ignore=app -tagfocus=worker=b,c" "9 traces -tagignore=k=a -taghide=span"
  "14 top -cum -taghide=bytes -tagfocus=span=b" "14 tree -nodecount=1 -cum" "33 traces -hide=nomatch -show=Run"
  "33 top -addresses -show_from=app -nodefraction=0" "33 tags -sample_index=samples -tagfocus=bytes=1kb:"
  "9 top -base=@15 -cum" "9 tree -diff_base=@15 -nodefraction=0" "39 traces -diff_base=@39")
mkdir -p "$tmp/rnd"
for row in "${RND[@]}"; do
  read -r seed view args <<<"$row"
  for s in $seed $(grep -o '@[0-9]*' <<<"$args" | tr -d @); do
    [ -f "$tmp/rnd$s.pb" ] || python3 "$REPO/tests/support/pprofgen.py" random "$tmp/rnd$s.pb" "$s" ||
      { echo "FAIL: pprofgen.py random $s"; fail=$((fail + 1)); }
  done
  f=$tmp/rnd$seed.pb
  # shellcheck disable=SC2086 # (the row's words)
  rnd_args $args
  case $view in
  top | tree) compare "$view" "$f" "-$view" "${RG[@]}" -- "${RA[@]}" ;;
  peek) peek "$f" -peek . "${RG[@]}" -- . "${RA[@]}" ;;
  traces | tags)
    J=$((J + 1))
    pv "$f" "-$view" "${RG[@]}"
    "$PCOL" "$view" "$f" "${RA[@]}" >"$tmp/pc/$J" 2>/dev/null
    rule=head+traces
    [ "$view" = tags ] && rule=tags
    want $rule "$PV" "rnd$seed.pb: pcol $view ${RA[*]} differs from go tool pprof -$view ${RG[*]} (< pprof, > pcol):"
    ;;
  esac
done

# top --by label:KEY on a numeric label (heap profiles' "bytes"): pprof
# -tagroot=KEY makes a root frame per raw value (named by the number when
# -unit is the sample unit's base); pcol's rows are named as pprof -tags
# names them ("1.75kB", checked below), so what is compared exactly is the
# total the rows share: the sum of pprof's pseudo-frame cums = the sum of
# pcol's rows
ROOT=()
for f in "$TD"/pprof/go-heap-*.pb.gz "$TD"/ext/pprof/go-heap-* "$TD"/ext/pprof/go-memory-guide.pb.gz \
  "$TD"/ext/pprof/go-alloc-objects-parca.pb.gz "$TD"/ext/pprof/pprofutils-heapage-in.pb.gz; do
  [ -f "$f" ] || continue
  "$PCOL" top "$f" --by label:bytes --format tsv >"$tmp/lb.tsv" 2>/dev/null
  unit=$(awk -F'\t' 'NR == 2 { print $8 }' "$tmp/lb.tsv")
  case $unit in bytes) u=-unit=B ;; nanoseconds) u=-unit=ns ;; count) u= ;; *) continue ;; esac
  pc=$(awk -F'\t' 'NR > 1 { s += $4 } END { printf "%.0f", s }' "$tmp/lb.tsv")
  pv "$f" -tagroot=bytes $u -top -cum -nodefraction=0 -nodecount=10000000
  ROOT+=("$f"$'\t'"$pc"$'\t'"$PV")
done

# top --by label:KEY under the name filters = -tagroot=KEY's frames: pprof
# makes each sample's label frame (named by the value, in file KEY) before
# its filters run, so a sample without locations, or whose frames all hide,
# keeps that frame and counts; focus/ignore matching the frame keep or drop
# the sample, hide/show/show_from can hide the frame.  -raw prints the
# profile as pprof holds it then; tests/support/tagroot_raw.py sums each
# frame's samples and the kept total (the relative one) and judges.
TR=()
mkdir -p "$tmp/tr"
trplan() { # FILE KEY [--sum] -- PPROF-FILTERS...
  local f=$1 k=$2 sum= a
  shift 2
  [ "$1" = --sum ] && { sum=--sum; shift; }
  shift
  [ -f "$f" ] || return 0
  local pa=()
  for a in "$@"; do
    case $a in -show_from=*) pa+=("--show-from=${a#-show_from=}") ;; *) pa+=("-$a") ;; esac
  done
  pv "$f" -raw -tagroot="$k" "$@"
  "$PCOL" top "$f" --by label:"$k" --relative-percentages "${pa[@]}" --format json >"$tmp/tr/${#TR[@]}" 2>"$tmp/tr/${#TR[@]}.err" # (warnings: t_pprof_semantics.sh)
  TR+=("$f"$'\x1f'"$k"$'\x1f'"$sum"$'\x1f'"$PV"$'\x1f'"$tmp/tr/${#TR[@]}"$'\x1f'"$*")
}
if [ -f "$tmp/es.pb" ]; then
  for flt in "" -ignore=foo -hide=main -hide=. -focus=main -show=foo '-ignore=^a$' '-hide=^a$' -show_from=main \
    '-show_from=^a$' '-focus=^b$' '-hide=^k$' '-show=^k$|foo'; do
    trplan "$tmp/es.pb" k -- $flt
  done
fi
# --diff-base/--base = -diff_base/-base: the base's values subtracted (the
# total: the base's / the merged profile's), in every view; go's views in
# sessions of the profile and its base (pprof_session.sh)
A=$TD/pprof/go-cpu-string-labels.pb.gz B=$TD/ext/pprof/go-cpu-span-id-labels.pb.gz
H1=$TD/pprof/go-heap-allocs-inline.pb.gz H2=$TD/pprof/go-heap-delta-negative-values.pb.gz
if [ -f "$A" ] && [ -f "$B" ]; then
  "$PCOL" unpack "$A" --tag function=fast --to pprof -o "$tmp/afast.pb.gz" || die "pcol unpack --tag function=fast"
  [ -f "$H1" ] && { "$PCOL" unpack "$H1" --tag bytes=1kb: --to pprof -o "$tmp/hbig.pb.gz" || die "pcol unpack --tag bytes=1kb:"; }
  for m in diff_base base; do
    o=--${m/_/-}
    compare top "$B" -top -$m="$A" -- $o "$A"
    compare top "$A" -top -cum -$m="$B" -- --sort cum $o "$B"
    compare top "$A" -top -$m="$A" -- $o "$A" # all of it cancels
    compare top "$B" -top -$m="$A" -focus=main -relative_percentages -- $o "$A" --focus main --relative-percentages
    compare tree "$B" -tree -$m="$A" -- $o "$A"
    compare peek "$B" -peek main.work -$m="$A" -- main.work $o "$A"
    [ -f "$H1" ] && [ -f "$H2" ] && compare top "$H2" -top -sample_index=alloc_space -$m="$H1" -- --value alloc_space $o "$H1"
    # H2 names no default type: the merge takes H1's (combineHeaders)
    [ -f "$H1" ] && [ -f "$H2" ] && compare top "$H2" -top -$m="$H1" -- $o "$H1"
    [ -f "$H1" ] && [ -f "$H2" ] && compare top "$H1" -top -cum -$m="$H2" -- --sort cum $o "$H2"
    # the difference written as a profile reads in go as go's own -$m
    J=$((J + 1))
    ps_plan "$tmp/cli/$J" -top -$m="$A" "$B"
    "$PCOL" unpack "$B" $o "$A" --to pprof -o "$tmp/d.pb.gz" &&
      go tool pprof -symbolize=none -top "$tmp/d.pb.gz" >"$tmp/pc/$J" 2>/dev/null
    want showing "$tmp/cli/$J" "${B##*/}: go tool pprof -top of pcol unpack $o differs from go's -$m (< pprof -$m, > the export):"
    # ... and pcol reads that export as go does (its pprof::base samples' total)
    J=$((J + 1))
    "$PCOL" top "$tmp/d.pb.gz" >"$tmp/pc/$J" 2>/dev/null
    want showing "$tmp/cli/$((J - 1))" "${B##*/}: pcol top of its unpack $o differs from go's -$m (< pprof -$m, > pcol):"
    for v in traces tags; do
      J=$((J + 1))
      ps_plan "$tmp/cli/$J" -$v -$m="$A" "$B"
      "$PCOL" $v "$B" $o "$A" >"$tmp/pc/$J"
      want $v "$tmp/cli/$J" "${B##*/}: pcol $v $o differs from go tool pprof -$v -$m (< pprof, > pcol):"
    done
    # pprof merges the profile with the negated base (profile.Merge): a
    # sample whose values all add up to 0 is dropped, and -tags lists no
    # label value only such samples carry.  Bases: the profile itself (all
    # cancels), its samples of one label value (function=fast; heap: bytes
    # of 1kB and more), the profile's of the other kind
    for fb in "$A:$A" "$A:$tmp/afast.pb.gz" "$H1:$tmp/hbig.pb.gz" "$H1:$H1" "$H2:$tmp/hbig.pb.gz" "$A:$B"; do
      f=${fb%%:*} fbase=${fb#*:}
      [ -f "$f" ] && [ -f "$fbase" ] || continue
      for v in tags traces "top -tagroot=function -nodefraction=0"; do
        [ "${v#top}" != "$v" ] && [ "$f" != "$A" ] && continue
        J=$((J + 1))
        ps_plan "$tmp/cli/$J" -$v -$m="$fbase" "$f"
        case $v in
        top*)
          "$PCOL" top "$f" --tagroot function --node-fraction 0 $o "$fbase" >"$tmp/pc/$J"
          want showing "$tmp/cli/$J" "${f##*/}: pcol top --tagroot function $o ${fbase##*/} differs from go's -$v -$m (< pprof, > pcol):"
          ;;
        *)
          "$PCOL" $v "$f" $o "$fbase" >"$tmp/pc/$J"
          want $v "$tmp/cli/$J" "${f##*/}: pcol $v $o ${fbase##*/} differs from go tool pprof -$v -$m (< pprof, > pcol):"
          ;;
        esac
      done
    done
  done
fi

# a label with neither string nor number nor unit is no label (pprof's
# postDecode drops it); one with a unit and number 0 is the number 0
if python3 "$REPO/tests/support/pprofgen.py" emptylabel "$tmp/el.pb"; then
  J=$((J + 1))
  pv "$tmp/el.pb" -tags
  "$PCOL" tags "$tmp/el.pb" >"$tmp/pc/$J"
  want tags "$PV" "el.pb: pcol tags differs from go tool pprof -tags (< pprof, > pcol):"
  same "$tmp/el.pb" -tagroot=k -- --tagroot k
  trplan "$tmp/el.pb" k --
else
  echo "FAIL: pprofgen.py emptylabel"; fail=$((fail + 1))
fi
# a sample whose every value is 0 is no sample to pprof (its merge drops
# it): -tags lists no value only it carries; one whose other value is not
# 0 stays, listed with 0
if python3 "$REPO/tests/support/pprofgen.py" zerosample "$tmp/zs.pb"; then
  for args in "" -sample_index=samples; do
    J=$((J + 1))
    pv "$tmp/zs.pb" -tags $args
    "$PCOL" tags "$tmp/zs.pb" ${args:+--value samples} >"$tmp/pc/$J"
    want tags "$PV" "zs.pb: pcol tags differs from go tool pprof -tags $args (< pprof, > pcol):"
  done
else
  echo "FAIL: pprofgen.py zerosample"; fail=$((fail + 1))
fi
for fk in pprof/go-cpu-string-labels.pb.gz:function pprof/go-cpu-string-labels.pb.gz:foo \
  ext/pprof/go-cpu-span-id-labels.pb.gz:span_id ext/pprof/go-cpu-labels-guide.pb.gz:user \
  pprof/dotnet-6types-labels-UNCOMPRESSED.pb:pod pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz:thread_name; do
  for flt in "" -ignore=runtime.main -ignore=fast '-hide=main|runtime' -show=slow -focus=main '-hide=^slow$' \
    -show_from=main.main -show_from=fast '-ignore=^$' '-focus=^fast$' -hide=.; do
    trplan "$TD/${fk%:*}" "${fk#*:}" -- $flt
  done
done
for f in "$TD"/pprof/go-heap-allocs-inline.pb.gz "$TD"/pprof/go-heap-delta-negative-values.pb.gz; do
  # (the frame of a number without a unit is the bare number, as pprof's:
  # the expressions match it, though the rows are named as -tags names them)
  for flt in "" -ignore=runtime '-hide=main|runtime' -focus=main -show=runtime -show_from=main '-focus=^1024$' \
    '-ignore=^(2048|4096)$'; do
    trplan "$f" bytes --sum -- $flt
  done
done

# pcol tags = pprof -tags (the numbers, and where each line's text starts) and
# pcol traces = pprof -traces (the text from the first separator on)
# (every profile with labels, string or numeric: go heap's "bytes" too)
for f in "$TD"/pprof/go-cpu-string-labels.pb.gz "$TD"/pprof/dotnet-6types-labels-UNCOMPRESSED.pb \
  "$TD"/pprof/go-heap-*.pb.gz "$TD"/pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz "$TD"/ext/pprof/go-*label* \
  "$TD"/ext/pprof/go-heap-* "$TD"/ext/pprof/go-memory-guide.pb.gz "$TD"/ext/pprof/go-alloc-objects-parca.pb.gz \
  "$TD"/ext/pprof/pprofutils-*-in.pb.gz "$TD"/ext/pprof/parca-*.pb.gz "$TD"/ext/pprof/go-req-2.pb.gz \
  "$TD"/ext/pprof/go-goroutine-nethttp.pb.gz "$TD"/ext/pprof/python-pyspy-1.pb.gz "${LTEXT[@]}"; do
  [ -f "$f" ] || continue
  # --tagshow/--taghide: which keys are listed (heap profiles' "bytes" is shown)
  for args in "" "-tagshow=e|y -taghide=^p"; do
    pa=${args/-tagshow=/--tagshow=} pa=${pa/-taghide=/--taghide=}
    J=$((J + 1))
    pv "$f" -tags $args
    "$PCOL" tags "$f" $pa >"$tmp/pc/$J"
    want tags "$PV" "${f##*/}: pcol tags $pa differs from go tool pprof -tags $args (< pprof, > pcol):"
  done
done
# traces: every pprof profile, byte for byte from the first separator on
# (pprof's samples as it merged them on reading: same stack and labels
# added up, all-zero ones dropped; unsymbolized frames "[mapping]" or
# "<unknown>"; names with control bytes or invalid UTF-8 are escaped by
# pcol's text rule, so that file is left out)
for f in "$TD"/pprof/*.pb.gz "$TD"/pprof/*.pb "$TD"/ext/pprof/* "$TD"/ext/legacy-proto/*.pb.gz "$TD"/pprof-from-r/*.pb.gz "${LEGACY[@]}"; do
  [ -f "$f" ] || continue
  case $f in *dotnet*) continue ;; esac # pprof leaves out one sample of it, pcol does not
  case $f in *edge-invalid-utf8*) continue ;; esac # control bytes: pcol escapes them (doc/safety.md)
  otlp "$f" && continue # OTLP, not a Profile
  # (--tagshow/--taghide leave labels out of a trace, not samples)
  for args in "" "-tagfocus=. -focus=." "-show_from=main|runtime|grpc" "-tagshow=. -taghide=^(bytes|thread_name|foo)$"; do
    pa=${args/-tagfocus=/--tag=} pa=${pa/-focus=/--focus=} pa=${pa/-show_from=/--show-from=}
    pa=${pa/-tagshow=/--tagshow=} pa=${pa/-taghide=/--taghide=}
    J=$((J + 1))
    pv "$f" -traces $args
    "$PCOL" traces "$f" $pa >"$tmp/pc/$J" 2>/dev/null
    # (with filters, the header too: pprof's -traces lists none of them)
    want ${args:+head+}traces "$PV" "${f##*/}: pcol traces $pa differs from go tool pprof -traces $args (< pprof, > pcol):"
  done
  # at a granularity, each frame named as top --by names its row: -lines and
  # -addresses (the address, then the line's name), with and without
  # -noinlines, -files, -filefunctions (the traces are the same; the budget
  # raised: a frame's name is longer than its function's)
  for args in -lines "-lines -noinlines" -addresses "-addresses -noinlines" -files -filefunctions; do
    pa=${args/-lines/--by line} pa=${pa/-addresses/--by address} pa=${pa/-filefunctions/--by filefunction}
    pa=${pa/-files/--by file} pa=${pa/-noinlines/--no-inlines}
    J=$((J + 1))
    pv "$f" -traces $args
    "$PCOL" traces "$f" $pa --max-output 4G >"$tmp/pc/$J" 2>/dev/null
    want traces "$PV" "${f##*/}: pcol traces $pa differs from go tool pprof -traces $args (< pprof, > pcol):"
  done
done

# a legacy profile (CPU, text) as pcol read it, exported: pprof's -raw of the
# export is its -raw of the legacy file, every sample, location (address,
# mapping) and mapping (start, limit, offset, file, build id); the location
# ids aside (raw_ids.py: go numbers them as it meets them unpruned, pcol's
# export as it meets them pruned by drop_frames, java-drop-le64)
RAW=()
for f in "${LEGACY[@]}"; do
  [ -f "$f" ] || continue
  x=$tmp/legacy/$(basename "$f").pb.gz
  "$PCOL" unpack "$f" --to pprof -o "$x" || { echo "FAIL: ${f##*/}: pcol unpack --to pprof"; fail=$((fail + 1)); continue; }
  pv "$f" -raw
  a=$PV
  pv "$x" -raw
  RAW+=("$f"$'\t'"$a"$'\t'"$PV")
done

# ---- run the sessions, then judge ----
ps_run
fail=$((fail + PS_FAILS))
# pprof -tags' lines as key<TAB>total, then key<TAB>amount<TAB>value per
# value, each with the column its text starts at (pprof aligns with a
# tabwriter: pcol must indent as it does), of each FILE into FILE.t (an awk
# program the judge runs on both sides of the tags comparisons)
TAGS_OF='FNR == 1 { close(o); o = FILENAME ".t"; k = "" }
  { match($0, /[^ ]/); c = RSTART }
  /: Total / { k = $0; sub(/^ */, "", k); sub(/: Total .*/, "", k); t = $NF; print k "\t" t "\t@" c >o; next }
  /\): / { a = $1; v = $0; sub(/^[^)]*\): /, "", v); print k "\t" a "\t" v "\t@" c >o; next }
  /^ +[^ ]+: / { a = $1; sub(/:$/, "", a); v = $0; sub(/^ *[^ ]+: /, "", v); print k "\t" a "\t" v "\t@" c >o }'
printf '%s\n' "${MAN[@]}" >"$tmp/manifest"
# the judge: every comparison at once (tests/interop/pprof_views_judge.py)
python3 "$REPO/tests/interop/pprof_views_judge.py" "$tmp" "$TAGS_OF" >"$tmp/judged" ||
  { echo "FAIL: the judge failed"; fail=$((fail + 1)); }
nj=0
while IFS=$'\t' read -r kind x; do
  case $kind in
  N) nj=$x ;;
  J)
    for m in "${MAN[@]}"; do [ "${m%%$'\t'*}" = "$x" ] && break; done
    IFS=$'\t' read -r _ rule _ m <<<"$m"
    echo "FAIL: $m"
    if [ "$rule" = traces ]; then diff -a "$tmp/j/$x.go" "$tmp/j/$x.pc"; else diff "$tmp/j/$x.go" "$tmp/j/$x.pc"; fi | head -10
    fail=$((fail + 1))
    ;;
  esac
done <"$tmp/judged"
checked=$((checked + nj))
[ "$nj" = ${#MAN[@]} ] || { echo "FAIL: judged $nj of ${#MAN[@]} comparisons"; fail=$((fail + 1)); }

# info: the -raw header's fields = pcol info's (skipped where pprof cannot
# read the profile, as -raw fails there: its session refused every view)
for x in "${INFO[@]}"; do
  IFS=$'\t' read -r f p got <<<"$x"
  [ -s "$p" ] || ! grep -q 'failed to fetch any source profiles' "$p.err" || continue
  want=$(awk '/^PeriodType:/ { pt = $2 } /^Period:/ { p = $2 == 0 ? "" : $2 } /^Time:/ { t = $2 " " substr($3, 1, 8) }
    /^Samples:/ { getline; vt = $0; gsub(/\[dflt\]/, "", vt); gsub(/ /, ", ", vt) }
    END { print pt "|" p "|" t "|" vt }' "$p")
  checked=$((checked + 1))
  [ "$want" = "$got" ] || { echo "FAIL: ${f##*/}: pprof -raw says $want, pcol info $got"; fail=$((fail + 1)); }
done

for x in "${RAW[@]}"; do
  IFS=$'\t' read -r f a b <<<"$x"
  checked=$((checked + 1))
  grep -q '^Mappings' "$a" || { echo "FAIL: ${f##*/}: pprof -raw printed no mappings"; fail=$((fail + 1)); continue; }
  python3 "$REPO/tests/interop/raw_ids.py" "$a" >"$a.ids" && python3 "$REPO/tests/interop/raw_ids.py" "$b" >"$b.ids" &&
    cmp -s "$a.ids" "$b.ids" || { echo "FAIL: ${f##*/}: pprof -raw of pcol's export differs (< legacy file, > export):"; diff "$a.ids" "$b.ids" | head -20; fail=$((fail + 1)); }
done

if [ -f "$g" ]; then
  a=$(sed -n 's/.* of \(.*\) total/\1/p' "$sub_a")
  b=$(sed -n 's/.*accounting for \([^,]*\),.*/\1/p' "$sub_b")
  checked=$((checked + 1))
  [ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: unpack --focus total $a, pprof -focus $b"; fail=$((fail + 1)); }
fi

for x in "${LAB[@]}"; do
  IFS=$'\t' read -r amount value p <<<"$x"
  want=$(sed -n 's/^Showing nodes accounting for \([0-9]*\)ns,.*/\1/p' "$p")
  checked=$((checked + 1))
  [ "$want" = "$amount" ] || { echo "FAIL: top --by label:function $value = $amount, pprof -tagfocus $want"; fail=$((fail + 1)); }
done

for x in "${TR[@]}"; do
  IFS=$'\x1f' read -r f k sum p c args <<<"$x" # (not tabs: they would run together)
  checked=$((checked + 1))
  python3 "$REPO/tests/support/tagroot_raw.py" "$k" dflt $sum "$p" "$c" >"$tmp/tr/why" ||
    { echo "FAIL: ${f##*/}: top --by label:$k under $args differs from pprof -tagroot=$k:"; cat "$tmp/tr/why"; fail=$((fail + 1)); }
done

for x in "${ROOT[@]}"; do
  IFS=$'\t' read -r f pc p <<<"$x"
  go=$(awk '$NF ~ /^-?[0-9]+$/ && $(NF-1) ~ /%$/ { v = $(NF-2); sub(/[a-zA-Z]+$/, "", v); s += v } END { printf "%.0f", s }' "$p")
  checked=$((checked + 1))
  [ -n "$pc" ] && [ "$pc" = "$go" ] ||
    { echo "FAIL: ${f##*/}: top --by label:bytes rows add up to $pc, pprof -tagroot=bytes frames to $go"; fail=$((fail + 1)); }
done

echo "pprof views: $checked comparisons on $n profiles, $fail failed"
[ $fail = 0 ]
